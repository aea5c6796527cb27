/*
 * Big blocks written whole, in huge pages where the system has them.
 *
 * A landmark's distance field or a flood's weight table is written whole
 * right after it is made.  Where the system offers transparent huge pages
 * (Linux with THP "madvise" or "always"), its first writes then fault in
 * one 2 MB page where they would fault in 512 small ones: on a virtual
 * machine a small page's fault costs 10 to 20 us, so a fresh 8 MB field
 * cost 30 ms in faults alone.  The block is asked of the allocator 2 MB
 * larger and starts at the first 2 MB boundary inside, so huge pages cover
 * it all; the part before that boundary and after the block is never
 * touched and costs address space, not memory.  The hint never changes
 * what the memory holds, and a system that refuses it (THP off, memory
 * that is not an anonymous mapping) leaves everything as it was.
 * Elsewhere (another OS, a block under 2 MB) a block is asked as it is.
 * Blocks written in part (a search's per-tile arrays on a big map) are
 * never made here: a huge page costs 2 MB for one byte touched.
 */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
/* madvise and MADV_HUGEPAGE under -std=c99 */
#define _DEFAULT_SOURCE /* NOLINT(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp) */
#endif

#include "internal.h"

#if defined(__linux__)
#include <sys/mman.h>
#endif

#if defined(__linux__) && defined(MADV_HUGEPAGE)
#define HUGE_PAGE ((size_t)2 << 20)

size_t astar__pages_ask(size_t bytes) {
  if (bytes < HUGE_PAGE || bytes > SIZE_MAX - HUGE_PAGE) return bytes;
  return bytes + HUGE_PAGE;
}
#else
size_t astar__pages_ask(size_t bytes) { return bytes; }
#endif

void *astar__pages_whole(void *raw, size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  uintptr_t mask = (uintptr_t)HUGE_PAGE - 1u, at = (uintptr_t)raw;
  size_t ask = astar__pages_ask(bytes), lead, span;
  char *first;
  if (raw == NULL || ask == bytes) return raw;
  lead = (size_t)(((at + mask) & ~mask) - at); /* < HUGE_PAGE */
  first = (char *)raw + lead;
  span = (ask - lead) & ~(size_t)mask; /* whole huge pages from first */
  if (span > 0) (void)madvise(first, span, MADV_HUGEPAGE);
  return first;
#else
  (void)bytes;
  return raw;
#endif
}

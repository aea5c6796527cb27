/*
 * Big blocks written whole, in huge pages where the system has them.
 *
 * Some blocks are written whole right after they are made: a map's costs
 * and moves, its zone labels, a search context's stamps, a landmark's
 * distance field, a flood's weight table.  Where the system offers
 * transparent huge pages (Linux with THP "madvise" or "always"), their
 * first writes then fault in one 2 MB page where they would fault in 512
 * small ones: on a virtual machine a small page's fault costs 10 to 20
 * us, so a fresh 16 MB array cost 50 ms in faults alone.
 *
 * Such a block is asked of the allocator 2 MB (and a pointer) larger and
 * starts at the first 2 MB boundary past a pointer's room, so huge pages
 * cover it all; the allocator's own pointer is kept just below that
 * boundary for the free.  The parts before the boundary and after the
 * block are never touched (but that pointer) and cost address space, not
 * memory.  The hint never changes what the memory holds, and a system
 * that refuses it (THP off, memory that is not an anonymous mapping)
 * leaves everything as it was.  Elsewhere (another OS, a block under
 * 2 MB) a block is asked as it is.  Blocks written in part (a search's
 * g values on a big map) are never made here: a huge page costs 2 MB for
 * one byte touched.
 */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
/* madvise and MADV_HUGEPAGE under -std=c99 */
#define _DEFAULT_SOURCE /* NOLINT(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp) */
#endif

#include "internal.h"

#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#if defined(__linux__) && defined(MADV_HUGEPAGE)
#define HUGE_PAGE ((size_t)2 << 20)

/* The bytes asked for a block of `bytes`: padded only when it holds a
 * huge page. */
static size_t ask_for(size_t bytes) {
  if (bytes < HUGE_PAGE || bytes > SIZE_MAX - 2 * HUGE_PAGE) return bytes;
  return bytes + HUGE_PAGE + sizeof(void *);
}
#endif

void *astar__mem_whole(astar_alloc_fn alloc, void *ud, size_t count,
                       size_t elem) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  size_t bytes = astar__mul_size(count, elem), ask = ask_for(bytes), lead,
         span;
  uintptr_t mask = (uintptr_t)HUGE_PAGE - 1u, at;
  char *raw, *first;
  if (ask == bytes) return astar__mem(alloc, ud, count, elem); /* small */
  if ((raw = alloc(ud, NULL, 0, ask)) == NULL) return NULL;
  at = (uintptr_t)raw + sizeof(void *);
  lead = (size_t)(((at + mask) & ~mask) - (uintptr_t)raw); /* 8 .. 2 MB + 7 */
  first = raw + lead;
  span = (ask - lead) & ~(size_t)mask; /* whole huge pages from first */
  if (span > 0) (void)madvise(first, span, MADV_HUGEPAGE);
  memcpy(first - sizeof(void *), &raw, sizeof raw);
  return first;
#else
  return astar__mem(alloc, ud, count, elem);
#endif
}

void astar__mem_whole_free(astar_alloc_fn alloc, void *ud, void *p,
                           size_t count, size_t elem) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  size_t bytes = count * elem; /* it was allocated: no overflow */
  void *raw;
  if (p != NULL && ask_for(bytes) != bytes) {
    memcpy(&raw, (char *)p - sizeof(void *), sizeof raw);
    alloc(ud, raw, ask_for(bytes), 0);
    return;
  }
#endif
  astar__mem_free(alloc, ud, p, count, elem);
}

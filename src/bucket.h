/*
 * The exact bucket queue: a radix heap over the A* loop's integer keys
 * (f quantised, heap.h), for searches whose keys never go down (the
 * default, consistent heuristic, weight 1, no callbacks, no key rules of
 * the options: astar_loop.c decides).  It takes nodes off in the heap's
 * order: the least key, then the larger g; only nodes equal in both may
 * come off in another order than the heap's.
 *
 * Layout (the context owns it, astar__radix in internal.h):
 *  - bucket i > 0 (level i >> BITS, digit i & (2^BITS - 1)) holds the
 *    entries whose key first differs from `last` in that level's group of
 *    bits, where it has that digit; `used` marks the buckets not empty;
 *  - bucket 0 is the run: entries with keys below `lim`, as a stack in the
 *    order they come off (least key, then largest g, on top).  A push
 *    below lim walks down past the run's entries that come off before it
 *    (an expansion's own nodes at its key have a larger g than every node
 *    left there, so they mostly stop at once); a push at or past lim goes
 *    to its bucket;
 *  - when the run is empty, the lowest bucket's live entries become the
 *    run if they are few (ASTAR__RADIX_RUN: sorted once, lim just past
 *    their largest key, instead of one refill per distinct key), else its
 *    least key's entries do and the rest move to buckets below (each
 *    entry moves down at most once per level);
 *  - no decrease-key: a cheaper path pushes the node again and the old
 *    entry goes stale (its g above the node's g[], or the node closed);
 *    stale entries are dropped when they come up.
 * A key below last (two equal f rounded apart) goes in the run too.
 */
#ifndef ASTAR_BUCKET_H
#define ASTAR_BUCKET_H

#include "astar.h"
#include "internal.h"


#if defined(__GNUC__) || defined(__clang__)
#define astar__high_bit64(x) (63u - (unsigned)__builtin_clzll(x))
#define astar__low_bit64(x) ((unsigned)__builtin_ctzll(x))
#else
static inline unsigned astar__high_bit64(uint64_t x) {
  unsigned i = 0;
  while (x >>= 1) i++;
  return i;
}
static inline unsigned astar__low_bit64(uint64_t x) {
  unsigned i = 0;
  while (!(x & 1u)) {
    x >>= 1;
    i++;
  }
  return i;
}
#endif

#define ASTAR__RADIX_DIGIT (((uint64_t)1 << ASTAR__RADIX_BITS) - 1)

/* Bucket 0: key at most last; else level l (the highest group of BITS
 * bits where key and last differ) and digit d (key's bits there, above
 * last's, so never 0 on level 0): bucket l << BITS | d.  Buckets in
 * index order hold ever larger keys. */
static inline unsigned astar__bucket_of(uint64_t key, uint64_t last) {
  unsigned l;
  if (key <= last) return 0u;
  l = astar__high_bit64(key ^ last) / ASTAR__RADIX_BITS;
  return (l << ASTAR__RADIX_BITS) |
         (unsigned)((key >> (l * ASTAR__RADIX_BITS)) & ASTAR__RADIX_DIGIT);
}

static inline void astar__radix_mark(astar__radix *R, unsigned i) {
  R->used[i / 64] |= (uint64_t)1 << (i % 64);
}

/* The lowest bucket above 0 that holds entries, or 0 for none. */
static inline unsigned astar__radix_lowest(const astar__radix *R) {
  unsigned w;
  for (w = 0; w < ASTAR__RADIX_WORDS; w++)
    if (R->used[w] != 0) return w * 64 + astar__low_bit64(R->used[w]);
  return 0;
}

/* Empties the queue for a new search (the buckets that hold entries). */
static inline void astar__radix_reset(astar__radix *R, uint64_t key) {
  unsigned i;
  R->n[0] = 0;
  while ((i = astar__radix_lowest(R)) != 0) {
    R->n[i] = 0;
    R->used[i / 64] &= ~((uint64_t)1 << (i % 64));
  }
  R->last = key;
  R->lim = key + 1; /* keys are the bits of doubles: never the top */
}

/* Does a come off before b (the least key, then the larger g)? */
static inline int astar__radix_before(const astar_heap_entry *a,
                                      const astar_heap_entry *b) {
  return a->key < b->key || (a->key == b->key && a->g > b->g);
}

/* Puts e on the queue: into the run when its key is below lim, past the
 * entries of the run that come off before it, else into its bucket. */
static inline int astar__radix_push(astar_search *s, astar__radix *R,
                                    astar_heap_entry e) {
  unsigned i = e.key < R->lim ? 0u : astar__bucket_of(e.key, R->last);
  size_t k = R->n[i];
  if (k == R->cap[i] && astar__radix_grow(s, R, i) != ASTAR_OK)
    return ASTAR_ENOMEM;
  if (i == 0) {
    astar_heap_entry *b = R->b[0];
    while (k > 0 && astar__radix_before(&b[k - 1], &e)) {
      b[k] = b[k - 1];
      k--;
    }
    b[k] = e;
  } else {
    R->b[i][k] = e;
    astar__radix_mark(R, i);
  }
  R->n[i]++;
  return ASTAR_OK;
}

/* an entry taken off is gone: any other of its node is dearer than the
 * node's g */
static inline int astar__radix_live(const astar__radix *R,
                                    const astar_heap_entry *e) {
  return e->g == R->g[e->node];
}

/* Sorts b[0..n) into the run's order, the entry to come off first last:
 * quicksort (median of three, the larger side left for later, so at most
 * log2 n sides wait) down to runs of 16, then one insertion sort; LESS:
 * placed below (comes off after). */
#define ASTAR__RADIX_LESS(a, b) astar__radix_before(&(b), &(a))
static void astar__radix_sort(astar_heap_entry *b, size_t n) {
  size_t lo = 0, hi = n, k, wait[2 * 64];
  unsigned top = 0;
  for (;;) {
    while (hi - lo > 16) {
      size_t mid = lo + (hi - lo) / 2, i = lo, j = hi - 1;
      astar_heap_entry a = b[lo], c = b[mid], d = b[hi - 1], pivot;
      if (ASTAR__RADIX_LESS(a, c)) /* the median of the three */
        pivot = ASTAR__RADIX_LESS(c, d) ? c
                : (ASTAR__RADIX_LESS(a, d) ? d : a);
      else
        pivot = ASTAR__RADIX_LESS(a, d) ? a
                : (ASTAR__RADIX_LESS(c, d) ? d : c);
      for (;;) { /* [lo, i) not above the pivot, (j, hi) not below it */
        astar_heap_entry t;
        while (ASTAR__RADIX_LESS(b[i], pivot)) i++;
        while (ASTAR__RADIX_LESS(pivot, b[j])) j--;
        if (i >= j) break;
        t = b[i];
        b[i] = b[j];
        b[j] = t;
        i++;
        j--;
      }
      if (j + 1 - lo < hi - (j + 1)) {
        wait[top++] = j + 1;
        wait[top++] = hi;
        hi = j + 1;
      } else {
        wait[top++] = lo;
        wait[top++] = j + 1;
        lo = j + 1;
      }
    }
    if (top == 0) break;
    hi = wait[--top];
    lo = wait[--top];
  }
  for (k = 1; k < n; k++) { /* runs of at most 16 entries left */
    astar_heap_entry e = b[k];
    size_t m = k;
    while (m > 0 && ASTAR__RADIX_LESS(e, b[m - 1])) {
      b[m] = b[m - 1];
      m--;
    }
    b[m] = e;
  }
}
#undef ASTAR__RADIX_LESS

/* Bucket 0 ran dry: the lowest bucket's live entries (stale ones dropped)
 * become the run when they are few, sorted, lim past their largest key;
 * else the least key's entries do (lim just past it) and the rest move
 * to the buckets below.  last is the run's least key, and every entry in
 * a bucket lies at or past lim. */
#ifndef ASTAR__RADIX_RUN
#define ASTAR__RADIX_RUN 16
#endif
static int astar__radix_refill(astar_search *s, astar__radix *R) {
  unsigned i = astar__radix_lowest(R), j;
  astar_heap_entry *b = R->b[i];
  size_t n = R->n[i], k, w = 0, cap;
  uint64_t least = UINT64_MAX, most = 0;
  for (k = 0; k < n; k++) {
    if (!astar__radix_live(R, &b[k])) continue;
    if (b[k].key < least) least = b[k].key;
    if (b[k].key > most) most = b[k].key;
    b[w++] = b[k];
  }
  R->n[i] = 0;
  R->used[i / 64] &= ~((uint64_t)1 << (i % 64));
  if (w == 0) return ASTAR_OK;
  R->last = least;
  if (w <= ASTAR__RADIX_RUN) { /* bucket i's storage becomes bucket 0's */
    R->b[i] = R->b[0];
    R->b[0] = b;
    cap = R->cap[i];
    R->cap[i] = R->cap[0];
    R->cap[0] = cap;
    R->n[0] = w;
    R->lim = most + 1; /* keys are the bits of doubles: never the top */
    if (w > 1) astar__radix_sort(b, w);
    return ASTAR_OK;
  }
  R->lim = least + 1;
  for (k = 0; k < w; k++) {
    j = astar__bucket_of(b[k].key, least); /* below i */
    if (R->n[j] == R->cap[j] && astar__radix_grow(s, R, j) != ASTAR_OK)
      return ASTAR_ENOMEM;
    R->b[j][R->n[j]++] = b[k];
    if (j != 0) astar__radix_mark(R, j);
  }
  if (R->n[0] > 1) astar__radix_sort(R->b[0], R->n[0]);
  return ASTAR_OK;
}

/* Takes the next live entry off into *e: 1, or 0 when the queue holds
 * none, or ASTAR_ENOMEM (negative). */
static inline int astar__radix_pop(astar_search *s, astar__radix *R,
                                   astar_heap_entry *e) {
  for (;;) {
    while (R->n[0] > 0) {
      *e = R->b[0][--R->n[0]];
      if (astar__radix_live(R, e)) return 1;
    }
    if (astar__radix_lowest(R) == 0) return 0;
    if (astar__radix_refill(s, R) != ASTAR_OK) return ASTAR_ENOMEM;
  }
}

#endif

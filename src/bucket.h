/*
 * The exact bucket queue: a radix heap over the A* loop's integer keys
 * (f quantised, heap.h), for searches whose keys never go down (the
 * default, consistent heuristic, weight 1, no callbacks, no key rules of
 * the options: astar_loop.c decides).  It takes nodes off in the heap's
 * order: the least key, then the larger g; only nodes equal in both may
 * come off in another order than the heap's.
 *
 * Layout (the context owns it, astar__radix in internal.h):
 *  - bucket i (1..) holds the entries whose key first differs from
 *    `last` (the key last taken) at bit i - 1, so keys only move down
 *    buckets, each at most 64 times; `used` has bit i - 1 set while
 *    bucket i is not empty, least[i] the least key put in it since it
 *    was empty (a refill moves it down in one pass).  Its entries sit in
 *    a chain of blocks taken from one pool: a refill gives them back, a
 *    new search takes the whole pool back;
 *  - bucket 0 holds the keys equal to last, as a stack sorted by g (the
 *    largest on top).  The nodes an expansion adds at the same key have a
 *    larger g than every node left there (steps cost more than nothing),
 *    so they go on top, sorted among themselves;
 *  - no decrease-key: a cheaper path pushes the node again and the old
 *    entry goes stale (its g above the node's g[], or the node closed);
 *    stale entries are dropped when they come up.
 * A key below last (two equal f rounded apart) counts as last.
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

/* Empties the queue for a new search (the buckets that hold entries):
 * every block of the pool is free again. */
static inline void astar__radix_reset(astar__radix *R, uint64_t key) {
  unsigned i;
  R->n[0] = 0;
  while ((i = astar__radix_lowest(R)) != 0) {
    R->n[i] = 0;
    R->least[i] = UINT64_MAX;
    R->used[i / 64] &= ~((uint64_t)1 << (i % 64));
  }
  R->top = 0;
  R->free = ASTAR__RADIX_NONE;
  R->last = key;
}

/* Puts a new block on top of bucket i's chain (out of the hot path). */
static int astar__radix_take(astar_search *s, astar__radix *R, unsigned i) {
  uint32_t blk = R->free;
  if (blk != ASTAR__RADIX_NONE) {
    R->free = R->link[blk];
  } else {
    if ((R->top >= R->pool_cap || R->top >= R->link_cap) &&
        astar__radix_more(s, R) != ASTAR_OK)
      return ASTAR_ENOMEM;
    blk = R->top++;
  }
  R->link[blk] = R->head[i]; /* (meaningless when the bucket was empty) */
  R->head[i] = blk;
  return ASTAR_OK;
}

/* Appends e to bucket i (> 0), taking a block when the newest is full. */
ASTAR__HOT_INLINE int astar__radix_put(astar_search *s, astar__radix *R,
                                   unsigned i, astar_heap_entry e) {
  size_t k = R->n[i] & (ASTAR__RADIX_BLOCK - 1);
  if (k == 0 && astar__radix_take(s, R, i) != ASTAR_OK) return ASTAR_ENOMEM;
  R->pool[R->head[i]].e[k] = e;
  if (e.key < R->least[i]) R->least[i] = e.key;
  R->n[i]++;
  astar__radix_mark(R, i);
  return ASTAR_OK;
}

/* Puts e on the queue; base: the size of bucket 0 when the node being
 * expanded came off (the entries above it are this expansion's). */
ASTAR__HOT_INLINE int astar__radix_push(astar_search *s, astar__radix *R,
                                    astar_heap_entry e, size_t base) {
  unsigned i = astar__bucket_of(e.key, R->last);
  size_t k;
  astar_heap_entry *b;
  if (i != 0) return astar__radix_put(s, R, i, e);
  k = R->n[0];
  if (k == R->cap0 && astar__radix_grow(s, R) != ASTAR_OK)
    return ASTAR_ENOMEM;
  b = R->b0;
  while (k > base && b[k - 1].g > e.g) {
    b[k] = b[k - 1];
    k--;
  }
  b[k] = e;
  R->n[0]++;
  return ASTAR_OK;
}

static inline int astar__radix_live(const astar__radix *R,
                                    const uint32_t *stamp,
                                    const astar_heap_entry *e) {
  (void)stamp; /* an entry taken off is gone: any other of its node is
                 dearer than the node's g */
  return e->g == R->g[e->node];
}

/* Sorts b[0..n) by g, the largest last: quicksort (median of three, the
 * larger side left for later, so at most log2 n sides wait) down to runs
 * of 16, then one insertion sort. */
static void astar__radix_sort(astar_heap_entry *b, size_t n) {
  size_t lo = 0, hi = n, k, wait[2 * 64];
  unsigned top = 0;
  for (;;) {
    while (hi - lo > 16) {
      size_t mid = lo + (hi - lo) / 2, i = lo, j = hi - 1;
      double a = b[lo].g, c = b[mid].g, d = b[hi - 1].g, pivot;
      pivot = a < c ? (c < d ? c : (a < d ? d : a))
                    : (a < d ? a : (c < d ? d : c));
      for (;;) { /* [lo, i) <= pivot <= (j, hi) */
        astar_heap_entry t;
        while (b[i].g < pivot) i++;
        while (b[j].g > pivot) j--;
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
    while (m > 0 && b[m - 1].g > e.g) {
      b[m] = b[m - 1];
      m--;
    }
    b[m] = e;
  }
}

/* The number of entries in the block of a chain that has `left` entries
 * in it and its older blocks: the newest holds the remainder. */
#define ASTAR__RADIX_IN_BLOCK(left) \
  ((((left) - 1) & (size_t)(ASTAR__RADIX_BLOCK - 1)) + 1)

/* Bucket 0 ran dry: the least key put in the lowest bucket becomes last
 * and that bucket's live entries move down in one pass: those of that key
 * to bucket 0 (sorted by g: the first 16 inserted in order as they come,
 * for most refills give it 1-3; more are sorted at the end), the others
 * to lower buckets.  A block
 * goes back to the pool once read (not before: a put may take it), and
 * its entries are read through R->pool each time (a put may grow, so
 * move, the pool); stale entries are dropped on the way.  The least key
 * may be a stale entry's: bucket 0 may then stay empty, and the next
 * refill goes on from a lower bucket. */
static int astar__radix_refill(astar_search *s, astar__radix *R,
                               const uint32_t *stamp) {
  unsigned i = astar__radix_lowest(R), j;
  size_t left = R->n[i], cnt, k, w = 0;
  uint32_t blk = R->head[i], next;
  const uint64_t least = R->least[i];
  R->n[i] = 0; /* the puts below go to lower buckets */
  R->least[i] = UINT64_MAX;
  R->used[i / 64] &= ~((uint64_t)1 << (i % 64));
  R->last = least;
  for (; left > 0; left -= cnt, blk = next) {
    cnt = ASTAR__RADIX_IN_BLOCK(left);
    next = R->link[blk];
    for (k = 0; k < cnt; k++) {
      astar_heap_entry e = R->pool[blk].e[k];
      if (!astar__radix_live(R, stamp, &e)) continue;
      j = astar__bucket_of(e.key, least); /* below i */
      if (j != 0) {
        if (astar__radix_put(s, R, j, e) != ASTAR_OK) return ASTAR_ENOMEM;
        continue;
      }
      if (w == R->cap0) {
        R->n[0] = w;
        if (astar__radix_grow(s, R) != ASTAR_OK) return ASTAR_ENOMEM;
      }
      if (w < 16) { /* few: in order as they come */
        size_t q = w;
        while (q > 0 && R->b0[q - 1].g > e.g) {
          R->b0[q] = R->b0[q - 1];
          q--;
        }
        R->b0[q] = e;
      } else {
        R->b0[w] = e; /* many: sorted below */
      }
      w++;
    }
    R->link[blk] = R->free; /* read: back to the pool */
    R->free = blk;
  }
  R->n[0] = w;
  if (w > 16) astar__radix_sort(R->b0, w);
  return ASTAR_OK;
}

/* Takes the next live entry off into *e: 1, or 0 when the queue holds
 * none, or ASTAR_ENOMEM (negative). */
static inline int astar__radix_pop(astar_search *s, astar__radix *R,
                                   const uint32_t *stamp,
                                   astar_heap_entry *e) {
  for (;;) {
    while (R->n[0] > 0) {
      *e = R->b0[--R->n[0]];
      if (astar__radix_live(R, stamp, e)) return 1;
    }
    if (astar__radix_lowest(R) == 0) return 0;
    if (astar__radix_refill(s, R, stamp) != ASTAR_OK) return ASTAR_ENOMEM;
  }
}

#endif

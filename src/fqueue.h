/*
 * The fields' queue: a radix heap for Dijkstra (field.c), exact on the
 * doubles themselves.  A field's g only grows along a path (every step
 * costs >= 0, and rounding a sum is monotone), so the keys taken off
 * never go down, which is all a radix heap asks.
 *
 * Keys: the 64 bits of g mapped so that unsigned order is the order of
 * the doubles (negative values too: flee maps), one key per double, so
 * tiles come off in exactly the order of their g (ties in any order,
 * which changes no value: a tile offers its equals nothing cheaper).
 *
 *  - bucket 0 holds the keys equal to `last` (the least key, set when a
 *    bucket is emptied into the lower ones); bucket i (1..64) the keys
 *    whose highest bit differing from last is bit i - 1; `used` has bit
 *    i - 1 set while bucket i holds entries;
 *  - no decrease-key: a cheaper offer pushes the tile again; the dearer
 *    entry comes off after the tile closed (keys in order) and is
 *    dropped by the caller.
 * Buckets grow as needed and are kept between builds (no allocation per
 * rebuild once a build of that size has run).
 */
#ifndef ASTAR_FQUEUE_H
#define ASTAR_FQUEUE_H

#include "astar.h"
#include "internal.h"

#include <string.h>

typedef struct astar__fq_entry {
  uint64_t key;
  uint32_t node;
  uint32_t pad;
} astar__fq_entry;

typedef struct astar__fq {
  astar__fq_entry *b[65];
  size_t n[65], cap[65];
  uint64_t used; /* bit i - 1: bucket i (1..64) not empty */
  uint64_t last;
} astar__fq;

/* The key of g: unsigned order = the order of the doubles. */
static inline uint64_t astar__fq_key(double g) {
  uint64_t b;
  memcpy(&b, &g, sizeof b);
  return (b >> 63) ? ~b : b | ((uint64_t)1 << 63);
}

static inline double astar__fq_value(uint64_t key) {
  uint64_t b = (key >> 63) ? key & ~((uint64_t)1 << 63) : ~key;
  double g;
  memcpy(&g, &b, sizeof g);
  return g;
}

static inline unsigned astar__fq_bucket(uint64_t key, uint64_t last) {
  uint64_t x = key ^ last;
  if (x == 0) return 0u;
  return 64u - astar__clz64(x);
}

/* Empties the queue for a new build (keeps the buckets' memory). */
static inline void astar__fq_reset(astar__fq *Q) {
  unsigned i;
  Q->n[0] = 0;
  while (Q->used) {
    i = astar__ctz64(Q->used) + 1;
    Q->n[i] = 0;
    Q->used &= Q->used - 1;
  }
  Q->last = 0;
}

static inline int astar__fq_empty(const astar__fq *Q) {
  return Q->n[0] == 0 && Q->used == 0;
}

static inline int astar__fq_grow(astar__fq *Q, unsigned i,
                                 astar_alloc_fn alloc, void *ud) {
  return astar__grow(alloc, ud, (void **)&Q->b[i], &Q->cap[i], Q->n[i] + 1,
                     sizeof(astar__fq_entry), 256);
}

/* Pushes (key, node); key >= last (the caller's order guarantees it). */
static inline int astar__fq_push(astar__fq *Q, uint64_t key, uint32_t node,
                                 astar_alloc_fn alloc, void *ud) {
  unsigned i = astar__fq_bucket(key, Q->last);
  astar__fq_entry *e;
  if (Q->n[i] == Q->cap[i] && astar__fq_grow(Q, i, alloc, ud) != ASTAR_OK)
    return ASTAR_ENOMEM;
  e = Q->b[i] + Q->n[i]++;
  e->key = key;
  e->node = node;
  e->pad = 0;
  if (i != 0) Q->used |= (uint64_t)1 << (i - 1);
  return ASTAR_OK;
}

/* The least key in the queue (not empty). */
static inline uint64_t astar__fq_least(const astar__fq *Q) {
  unsigned i;
  const astar__fq_entry *b;
  size_t k, n;
  uint64_t least;
  if (Q->n[0] != 0) return Q->last;
  i = astar__ctz64(Q->used) + 1;
  b = Q->b[i];
  n = Q->n[i];
  least = b[0].key;
  for (k = 1; k < n; k++)
    if (b[k].key < least) least = b[k].key;
  return least;
}

/* Bucket 0 is empty and the queue is not: the lowest bucket's entries
 * move down, with last = their least key (`least`, from fq_least). */
static inline int astar__fq_refill(astar__fq *Q, uint64_t least,
                                   astar_alloc_fn alloc, void *ud) {
  unsigned i = astar__ctz64(Q->used) + 1, j;
  astar__fq_entry *b = Q->b[i];
  size_t n = Q->n[i], k;
  Q->last = least;
  Q->n[i] = 0;
  Q->used &= Q->used - 1;
  for (k = 0; k < n; k++) {
    j = astar__fq_bucket(b[k].key, least); /* below i */
    if (Q->n[j] == Q->cap[j] && astar__fq_grow(Q, j, alloc, ud) != ASTAR_OK)
      return ASTAR_ENOMEM; /* the build fails as a whole */
    Q->b[j][Q->n[j]++] = b[k];
    if (j != 0) Q->used |= (uint64_t)1 << (j - 1);
  }
  return ASTAR_OK;
}

static inline void astar__fq_release(astar__fq *Q, astar_alloc_fn alloc,
                                     void *ud) {
  unsigned i;
  for (i = 0; i < 65; i++)
    astar__mem_free(alloc, ud, Q->b[i], Q->cap[i], sizeof(astar__fq_entry));
  memset(Q, 0, sizeof *Q);
}

static inline size_t astar__fq_memory(const astar__fq *Q) {
  size_t n = sizeof *Q;
  unsigned i;
  for (i = 0; i < 65; i++) n += Q->cap[i] * sizeof(astar__fq_entry);
  return n;
}

#endif

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

/* The bucket ring (Dial) of the plain builds, where every step costs at
 * least `least` > 0 and at most a known `most`: bucket i holds the tiles
 * whose g - base lies in [i w, (i + 1) w), w = least / 2, on a ring of
 * 2^k >= most / w + 2 buckets.  A step leads to a later bucket (it costs
 * two bucket widths or more), so when bucket i comes up no tile in it
 * can lower another one in it: they close in any order, each at its own
 * g (kept outside the queue: an entry is just the tile), and the values
 * are those of the exact order.  Seeds wait outside in `far` (a FIFO)
 * when a close would write over them in the caller's list. */
typedef struct astar__ring {
  uint32_t **b;
  size_t *n, *cap;
  size_t nbuckets;  /* allocated (a power of two) */
  uint32_t mask;    /* buckets in use - 1 */
  uint64_t at;      /* the current bucket (absolute) */
  size_t head;      /* the next entry of the current bucket */
  size_t queued;    /* entries on the ring */
  double base, inv_w;
  uint32_t *far;    /* ntiles when made */
  size_t far_cap, far_head, far_tail;
} astar__ring;

typedef struct astar__fq {
  astar__fq_entry *b[65];
  size_t n[65], cap[65];
  uint64_t used; /* bit i - 1: bucket i (1..64) not empty */
  uint64_t last;
  astar__ring ring;
} astar__fq;

/* The ring's bucket of g (g - base in [0, 2^40 w), checked by the
 * caller's choice of the ring). */
static inline uint64_t astar__ring_index(const astar__ring *R, double g) {
  double x = (g - R->base) * R->inv_w;
  return x > 0.0 ? (uint64_t)x : 0u;
}

/* Sizes the ring for 2^bits buckets, empty, at bucket 0. */
static inline int astar__ring_start(astar__ring *R, unsigned bits,
                                    astar_alloc_fn alloc, void *ud) {
  size_t want = (size_t)1 << bits, i;
  if (R->nbuckets < want) { /* new arrays; the old buckets carried over */
    uint32_t **b = (uint32_t **)astar__mem(alloc, ud, want, sizeof *b);
    size_t *n = (size_t *)astar__mem(alloc, ud, want, sizeof *n);
    size_t *cap = (size_t *)astar__mem(alloc, ud, want, sizeof *cap);
    if (b == NULL || n == NULL || cap == NULL) {
      astar__mem_free(alloc, ud, b, want, sizeof *b);
      astar__mem_free(alloc, ud, n, want, sizeof *n);
      astar__mem_free(alloc, ud, cap, want, sizeof *cap);
      return ASTAR_ENOMEM;
    }
    for (i = 0; i < want; i++) {
      b[i] = i < R->nbuckets ? R->b[i] : NULL;
      cap[i] = i < R->nbuckets ? R->cap[i] : 0;
    }
    astar__mem_free(alloc, ud, R->b, R->nbuckets, sizeof *R->b);
    astar__mem_free(alloc, ud, R->n, R->nbuckets, sizeof *R->n);
    astar__mem_free(alloc, ud, R->cap, R->nbuckets, sizeof *R->cap);
    R->b = b;
    R->n = n;
    R->cap = cap;
    R->nbuckets = want;
  }
  for (i = 0; i < want; i++) R->n[i] = 0;
  R->mask = (uint32_t)(want - 1);
  R->at = 0;
  R->head = 0;
  R->queued = 0;
  R->far_head = R->far_tail = 0;
  return ASTAR_OK;
}

static inline int astar__ring_push(astar__ring *R, uint64_t i, uint32_t node,
                                   astar_alloc_fn alloc, void *ud) {
  size_t j = (size_t)(i & R->mask);
  if (R->n[j] == R->cap[j] &&
      astar__grow(alloc, ud, (void **)&R->b[j], &R->cap[j], R->n[j] + 1,
                  sizeof(uint32_t), 256) != ASTAR_OK)
    return ASTAR_ENOMEM;
  R->b[j][R->n[j]++] = node;
  R->queued++;
  return ASTAR_OK;
}

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
  astar__ring *R = &Q->ring;
  size_t i;
  for (i = 0; i < 65; i++)
    astar__mem_free(alloc, ud, Q->b[i], Q->cap[i], sizeof(astar__fq_entry));
  for (i = 0; i < R->nbuckets; i++)
    astar__mem_free(alloc, ud, R->b[i], R->cap[i], sizeof(uint32_t));
  astar__mem_free(alloc, ud, R->b, R->nbuckets, sizeof *R->b);
  astar__mem_free(alloc, ud, R->n, R->nbuckets, sizeof *R->n);
  astar__mem_free(alloc, ud, R->cap, R->nbuckets, sizeof *R->cap);
  astar__mem_free(alloc, ud, R->far, R->far_cap, sizeof(uint32_t));
  memset(Q, 0, sizeof *Q);
}

static inline size_t astar__fq_memory(const astar__fq *Q) {
  const astar__ring *R = &Q->ring;
  size_t n = sizeof *Q, i;
  for (i = 0; i < 65; i++) n += Q->cap[i] * sizeof(astar__fq_entry);
  n += R->nbuckets * (sizeof *R->b + sizeof *R->n + sizeof *R->cap);
  for (i = 0; i < R->nbuckets; i++) n += R->cap[i] * sizeof(uint32_t);
  return n + R->far_cap * sizeof(uint32_t);
}

#endif

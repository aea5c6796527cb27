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

#include <math.h>
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

/* The ring for a build whose tile costs lie in [lo, hi] (the rule's step
 * lengths apply), or NULL: then the radix heap runs.  It needs lo > 0,
 * at most 2^16 buckets (span: the seeds' spread when they all go in at
 * once, else 0) and values within 2^40 bucket widths of base. */
static inline astar__ring *astar__ring_choose(astar__fq *Q,
                                              const astar_grid *G, double lo,
                                              double hi, double span,
                                              double base, uint32_t ntiles,
                                              astar_alloc_fn alloc,
                                              void *ud) {
  unsigned dirs = astar__rule_dirs(G->diagonal), d, bits = 1;
  double lmin = HUGE_VAL, lmax = 0.0, least, most, w, need;
  for (d = 0; d < 8; d++)
    if (dirs & (1u << d)) {
      if (G->step_length[d] < lmin) lmin = G->step_length[d];
      if (G->step_length[d] > lmax) lmax = G->step_length[d];
    }
  least = lmin * lo;
  most = lmax * hi;
  if (!(least > 0.0) || !(most < HUGE_VAL)) return NULL;
  w = least / 2.0;
  need = (most + span) / w + 2.0;
  if (!(need <= 65536.0)) return NULL;
  if (!((span + most * (double)ntiles) / w < 1099511627776.0)) return NULL;
  while ((double)((size_t)1 << bits) < need) bits++;
  if (astar__ring_start(&Q->ring, bits, alloc, ud) != ASTAR_OK)
    return NULL; /* the radix heap needs no more memory up front */
  Q->ring.base = base;
  Q->ring.inv_w = 1.0 / w;
  return &Q->ring;
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

/* The queue at *p, made on first use, emptied; NULL: out of memory. */
static inline astar__fq *astar__fq_get(astar__fq **p, astar_alloc_fn alloc,
                                       void *ud) {
  if (*p == NULL) {
    if ((*p = (astar__fq *)astar__mem(alloc, ud, 1, sizeof **p)) == NULL)
      return NULL;
    memset(*p, 0, sizeof **p);
  }
  astar__fq_reset(*p);
  return *p;
}

/* Frees Q (may be NULL) and its buckets. */
static inline void astar__fq_free(astar__fq *Q, astar_alloc_fn alloc,
                                  void *ud) {
  if (Q == NULL) return;
  astar__fq_release(Q, alloc, ud);
  astar__mem_free(alloc, ud, Q, 1, sizeof *Q);
}

static inline size_t astar__fq_memory(const astar__fq *Q) {
  const astar__ring *R = &Q->ring;
  size_t n = sizeof *Q, i;
  for (i = 0; i < 65; i++) n += Q->cap[i] * sizeof(astar__fq_entry);
  n += R->nbuckets * (sizeof *R->b + sizeof *R->n + sizeof *R->cap);
  for (i = 0; i < R->nbuckets; i++) n += R->cap[i] * sizeof(uint32_t);
  return n + R->far_cap * sizeof(uint32_t);
}

/* ---- the build's side: open tiles' g, offers, the next tile ---- */

#if defined(__GNUC__) || defined(__clang__)
#define ASTAR__PREFETCH(p) __builtin_prefetch(p)
#else
#define ASTAR__PREFETCH(p) ((void)(p))
#endif

/* Under the radix heap an open tile's g (a double) lives in what is
 * free while it is open: the high half in value[] (as bits), the low
 * half in heap_pos[].  Closing writes value[] over it. */
static inline double astar__open_g(const astar_field *f, uint32_t v) {
  uint32_t hi;
  uint64_t b;
  double g;
  memcpy(&hi, &f->value[v], sizeof hi);
  b = (uint64_t)hi << 32 | f->ctx.heap_pos[v];
  memcpy(&g, &b, sizeof g);
  return g;
}

static inline void astar__set_open_g(astar_field *f, uint32_t v, double g) {
  uint64_t b;
  uint32_t hi;
  memcpy(&b, &g, sizeof b);
  hi = (uint32_t)(b >> 32);
  memcpy(&f->value[v], &hi, sizeof hi);
  f->ctx.heap_pos[v] = (uint32_t)b;
}

/* Offers ng to tile v (parent direction d) under the radix heap: no decrease-key, a cheaper g pushes the
 * tile again (the dearer entry is dropped when it comes off). */
static inline int astar__fq_offer(astar_field *f, astar__fq *Q, uint32_t tag,
                                  uint32_t v, double ng, unsigned d) {
  astar_search *s = &f->ctx;
  uint32_t sv = s->stamp[v];
  if ((sv & ASTAR__STAMP_GEN) == tag) {
    if (sv & ASTAR__STAMP_CLOSED) return ASTAR_OK;
    if (ng >= astar__open_g(f, v)) return ASTAR_OK;
  }
  astar__set_open_g(f, v, ng);
  s->stamp[v] = tag | d;
  return astar__fq_push(Q, astar__fq_key(ng), v, s->alloc, s->alloc_ud);
}

/* astar__fq_offer under the bucket ring: to a later bucket (a step costs two
 * bucket widths or more; the clamp only keeps memory safe). */
static inline int astar__ring_offer(astar_field *f, astar__ring *R,
                                    uint32_t tag, uint32_t v, double ng,
                                    unsigned d) {
  astar_search *s = &f->ctx;
  uint32_t sv = s->stamp[v];
  uint64_t i;
  if ((sv & ASTAR__STAMP_GEN) == tag) {
    if (sv & ASTAR__STAMP_CLOSED) return ASTAR_OK;
    if (ng >= astar__open_g(f, v)) return ASTAR_OK;
  }
  astar__set_open_g(f, v, ng);
  s->stamp[v] = tag | d;
  i = astar__ring_index(R, ng);
  if (i <= R->at) i = R->at + 1;
  if (i - R->at > R->mask) i = R->at + R->mask;
  return astar__ring_push(R, i, v, s->alloc, s->alloc_ud);
}

/* The next tile to close under the radix heap, into *u at *g: 1, or 0
 * when none is left, or an error.  The seeds order[*cur .. end) are
 * sorted by their g (in open_g); each goes on the queue when its turn
 * comes (its key at most the queue's least) or before a close would
 * write over it, as in field.c's run_heap.  A seed goes on only once its key is at
 * most the least key, so no key pushed is below the queue's last. */
static inline int astar__fq_next(astar_field *f, astar__fq *Q, uint32_t tag,
                                 uint32_t *cur, uint32_t end, uint32_t *u,
                                 double *g) {
  astar_search *s = &f->ctx;
  const uint32_t done = tag | ASTAR__STAMP_CLOSED;
  uint64_t least = 0;
  int known = 0; /* least is the queue's least key (no pop since) */
  for (;;) {
    astar__fq_entry *e;
    if (*cur < end) {
      uint32_t v = f->order[*cur];
      uint64_t k;
      if ((s->stamp[v] & ~ASTAR__STAMP_DIR) == done) { /* closed already */
        (*cur)++;
        continue;
      }
      k = astar__fq_key(astar__open_g(f, v));
      if (astar__fq_empty(Q)) {
        least = k;
        known = 1;
      } else if (f->count < *cur && !known) {
        least = astar__fq_least(Q);
        known = 1;
      }
      if (k <= least || f->count >= *cur) {
        (*cur)++;
        if (astar__fq_push(Q, k, v, s->alloc, s->alloc_ud) != ASTAR_OK)
          return ASTAR_ENOMEM;
        if (known && k < least) least = k;
        continue;
      }
    } else if (astar__fq_empty(Q)) {
      return 0;
    }
    if (Q->n[0] == 0) {
      if (!known) least = astar__fq_least(Q);
      if (astar__fq_refill(Q, least, s->alloc, s->alloc_ud) != ASTAR_OK)
        return ASTAR_ENOMEM;
    }
    known = 0;
    e = Q->b[0] + --Q->n[0];
    if ((s->stamp[e->node] & ~ASTAR__STAMP_DIR) == done) continue; /* dearer */
    *u = e->node;
    *g = astar__fq_value(e->key);
    return 1;
  }
}

/* astar__fq_next under the bucket ring: the seeds due in the current bucket go
 * in, then its tiles come off (any order: see fqueue.h); a seed a close
 * would write over waits in the ring's FIFO `far` (still in order). */
static inline int astar__ring_next(astar_field *f, astar__ring *R,
                                   uint32_t tag, uint32_t *cur, uint32_t end,
                                   uint32_t *u, double *g) {
  astar_search *s = &f->ctx;
  const uint32_t done = tag | ASTAR__STAMP_CLOSED;
  for (;;) {
    size_t j;
    uint64_t next = 0;
    int more = 0;
    while (*cur < end && f->count >= *cur) {
      uint32_t v = f->order[(*cur)++];
      if ((s->stamp[v] & ~ASTAR__STAMP_DIR) == done) continue;
      if (R->far_tail == R->far_cap &&
          astar__grow(s->alloc, s->alloc_ud, (void **)&R->far, &R->far_cap,
                      R->far_tail + 1, sizeof(uint32_t), 1024) != ASTAR_OK)
        return ASTAR_ENOMEM;
      R->far[R->far_tail++] = v;
    }
    for (;;) { /* the seeds due: far's first, then the list's */
      int in_far = R->far_head < R->far_tail;
      uint32_t v;
      if (in_far)
        v = R->far[R->far_head];
      else if (*cur < end)
        v = f->order[*cur];
      else
        break;
      if ((s->stamp[v] & ~ASTAR__STAMP_DIR) != done) {
        uint64_t i = astar__ring_index(R, astar__open_g(f, v));
        if (i > R->at) {
          next = i;
          more = 1;
          break;
        }
        if (astar__ring_push(R, R->at, v, s->alloc, s->alloc_ud) != ASTAR_OK)
          return ASTAR_ENOMEM;
      }
      if (in_far)
        R->far_head++;
      else
        (*cur)++;
    }
    j = (size_t)(R->at & R->mask);
    while (R->head < R->n[j]) { /* first in, first out: the wavefront */
      uint32_t v = R->b[j][R->head++];
      if (R->head + 8 < R->n[j]) {
        /* the tile 8 ahead: its stamps, rows above and below, and its g,
         * read while this one is expanded (the wavefront wanders) */
        uint32_t a = R->b[j][R->head + 8];
        ASTAR__PREFETCH(s->stamp + a - s->stride);
        ASTAR__PREFETCH(s->stamp + a + s->stride);
        ASTAR__PREFETCH(s->heap_pos + a);
        ASTAR__PREFETCH(f->value + a);
      }
      R->queued--;
      if ((s->stamp[v] & ~ASTAR__STAMP_DIR) == done) continue; /* dearer */
      *u = v;
      *g = astar__open_g(f, v);
      return 1;
    }
    R->n[j] = R->head = 0;
    if (R->queued != 0)
      R->at++;
    else if (more)
      R->at = next;
    else
      return 0;
  }
}

#endif

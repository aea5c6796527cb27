/*
 * The open list of Theta* and Lazy Theta* on a layer of one cost: an exact
 * bucket queue whose current bucket is a small binary heap.
 *
 * Their keys are heap.h's (f quantised, compared as integers; ties: the
 * larger g first) but do not only rise: a node whose parent is its
 * grandparent may get an f below the least key taken so far (by less
 * than a step), so neither a plain bucket queue nor bucket.h's radix heap
 * would take nodes off in order.  Here:
 *  - an entry's bucket is its key over 2^21 (the key's unit is 2^-24 of
 *    the shortest step, see astar__key_scale: a bucket spans an eighth of
 *    a step), so buckets in order hold ever larger keys;
 *  - the heap (the context's heap array) holds every entry whose bucket is
 *    at most cur, the current bucket; pops come from it, in heap.h's
 *    order.  An entry keyed at or below cur, however far below, goes into
 *    the heap, so nothing is taken off out of order;
 *  - entries of buckets cur + 1 .. cur + 63 wait unsorted in a ring of 64
 *    slots (bit i of `used`: slot i holds some), later ones in an
 *    overflow list (least bucket ovmin);
 *  - when the heap runs dry, cur moves to the least waiting bucket (the
 *    ring's next, or the overflow's least, which then spreads over the
 *    ring) and its live entries are made a heap;
 *  - no decrease-key: a cheaper offer pushes the node again and the old
 *    entry goes stale (its g no longer the node's g, or the node closed);
 *    stale entries are dropped when they come up.
 * On a layer of one cost the open keys span a few steps, so the overflow
 * sees only what a far jump of the key puts there.
 *
 * Storage: the context's heap array, and the bucket arrays of the A*
 * loop's bucket queue (astar__radix, bucket.h), slots 1..64 the ring and
 * 65 the overflow: tq_begin empties them, tq_end empties them again, so
 * the A* loop finds them as its own reset expects (it empties only the
 * buckets its `used` bits name).
 */
#ifndef ASTAR_THETA_QUEUE_H
#define ASTAR_THETA_QUEUE_H

#include "astar.h"
#include "internal.h"
#include "heap.h"

#include <string.h>

#define TQ_SLOTS 64u
#define TQ_OVER (TQ_SLOTS + 1u)    /* the overflow's radix bucket */
#define TQ_SCALE 0x1p-21           /* key -> bucket */
#define TQ_FAR 4611686018427387904.0 /* 2^62: buckets clamp here */

#if defined(__GNUC__) || defined(__clang__)
#define tq_low_bit(x) ((unsigned)__builtin_ctzll(x))
#else
static inline unsigned tq_low_bit(uint64_t x) {
  unsigned i = 0;
  while (!(x & 1u)) {
    x >>= 1;
    i++;
  }
  return i;
}
#endif

typedef struct theta_queue {
  astar_search *s;
  astar__radix *R;
  const uint32_t *stamp;
  const double *g; /* a live entry's g is its node's */
  uint32_t tag;    /* the search's stamp generation */
  uint64_t cur, ovmin, used;
  size_t hn; /* entries in the heap */
  size_t n;  /* entries held, stale ones too */
} theta_queue;

static inline uint64_t tq_bucket(uint64_t key) {
  double k, b;
  memcpy(&k, &key, sizeof k);
  b = k * TQ_SCALE;
  return b < TQ_FAR ? (uint64_t)b : (uint64_t)TQ_FAR;
}

static inline int tq_live(const theta_queue *Q, const astar_heap_entry *e) {
  return (Q->stamp[e->node] & (ASTAR__STAMP_GEN | ASTAR__STAMP_CLOSED)) ==
             Q->tag &&
         e->g == Q->g[e->node];
}

/* Empties slots 1..TQ_OVER of the radix buckets. */
static inline void tq_clear(astar__radix *R) {
  unsigned i;
  for (i = 1; i <= TQ_OVER; i++) R->n[i] = 0;
}

static inline int tq_begin(theta_queue *Q, astar_search *s,
                           const double *g, uint32_t tag) {
  int st;
  if ((st = astar__context_radix(s)) != ASTAR_OK) return st;
  Q->s = s;
  Q->R = s->radix;
  Q->stamp = s->stamp;
  Q->g = g;
  Q->tag = tag;
  Q->cur = 0;
  Q->ovmin = 0;
  Q->used = 0;
  Q->hn = 0;
  Q->n = 0;
  tq_clear(Q->R);
  return ASTAR_OK;
}

static inline void tq_end(theta_queue *Q) {
  if (Q->R != NULL) tq_clear(Q->R);
}

static inline void tq_heap_up(astar_heap_entry *h, size_t i,
                              astar_heap_entry e) {
  while (i > 0) {
    size_t p = (i - 1) / 2;
    if (!astar__entry_less(&e, &h[p], 0)) break;
    h[i] = h[p];
    i = p;
  }
  h[i] = e;
}

/* Puts e in place from index i down, in a heap of n entries. */
static inline void tq_heap_down(astar_heap_entry *h, size_t i, size_t n,
                                astar_heap_entry e) {
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && astar__entry_less(&h[c + 1], &h[c], 0)) c++;
    if (!astar__entry_less(&h[c], &e, 0)) break;
    h[i] = h[c];
    i = c;
  }
  h[i] = e;
}

static inline int tq_append(theta_queue *Q, unsigned i, astar_heap_entry e) {
  astar__radix *R = Q->R;
  if (R->n[i] == R->cap[i] && astar__radix_grow(Q->s, R, i) != ASTAR_OK)
    return ASTAR_ENOMEM;
  R->b[i][R->n[i]++] = e;
  return ASTAR_OK;
}

/* Puts e in the ring or the overflow (its bucket b above cur). */
static inline int tq_wait(theta_queue *Q, astar_heap_entry e, uint64_t b) {
  if (b - Q->cur < TQ_SLOTS) {
    unsigned slot = (unsigned)(b % TQ_SLOTS);
    Q->used |= (uint64_t)1 << slot;
    return tq_append(Q, slot + 1u, e);
  }
  if (Q->R->n[TQ_OVER] == 0 || b < Q->ovmin) Q->ovmin = b;
  return tq_append(Q, TQ_OVER, e);
}

static inline int tq_push(theta_queue *Q, astar_heap_entry e) {
  uint64_t b = tq_bucket(e.key);
  int st;
  if (b <= Q->cur) {
    astar_search *s = Q->s;
    if (Q->hn == s->heap_cap && (st = astar__grow_heap(s)) != ASTAR_OK)
      return st;
    tq_heap_up(s->heap, Q->hn++, e);
  } else if ((st = tq_wait(Q, e, b)) != ASTAR_OK) {
    return st;
  }
  Q->n++;
  return ASTAR_OK;
}

/* Appends e (a live entry of bucket cur) to the heap array, unordered. */
static inline int tq_gather(theta_queue *Q, astar_heap_entry e) {
  astar_search *s = Q->s;
  if (Q->hn == s->heap_cap && astar__grow_heap(s) != ASTAR_OK)
    return ASTAR_ENOMEM;
  s->heap[Q->hn++] = e;
  return ASTAR_OK;
}

/* The heap ran dry with entries still waiting: cur moves to the least
 * waiting bucket and its live entries become the heap. */
static int tq_refill(theta_queue *Q) {
  astar__radix *R = Q->R;
  uint64_t next = 0;
  size_t k, n;
  int ring = Q->used != 0;
  if (ring) {
    unsigned r = (unsigned)((Q->cur + 1u) % TQ_SLOTS);
    uint64_t rot = r ? (Q->used >> r) | (Q->used << (TQ_SLOTS - r)) : Q->used;
    next = Q->cur + 1u + tq_low_bit(rot);
  }
  if (R->n[TQ_OVER] > 0 && (!ring || Q->ovmin < next)) {
    /* the overflow's least bucket comes first: it spreads */
    astar_heap_entry *b = R->b[TQ_OVER];
    size_t w = 0;
    Q->cur = Q->ovmin;
    n = R->n[TQ_OVER];
    R->n[TQ_OVER] = 0;
    for (k = 0; k < n; k++) {
      uint64_t bk;
      if (!tq_live(Q, &b[k])) {
        Q->n--;
        continue;
      }
      bk = tq_bucket(b[k].key);
      if (bk == Q->cur) {
        if (tq_gather(Q, b[k]) != ASTAR_OK) return ASTAR_ENOMEM;
      } else if (bk - Q->cur < TQ_SLOTS) {
        unsigned slot = (unsigned)(bk % TQ_SLOTS);
        Q->used |= (uint64_t)1 << slot;
        if (tq_append(Q, slot + 1u, b[k]) != ASTAR_OK) return ASTAR_ENOMEM;
      } else { /* stays: compacted in place (w <= k) */
        if (w == 0 || bk < Q->ovmin) Q->ovmin = bk;
        b[w++] = b[k];
      }
    }
    R->n[TQ_OVER] = w;
  } else {
    unsigned slot = (unsigned)(next % TQ_SLOTS);
    astar_heap_entry *b = R->b[slot + 1u];
    Q->cur = next;
    n = R->n[slot + 1u];
    R->n[slot + 1u] = 0;
    Q->used &= ~((uint64_t)1 << slot);
    for (k = 0; k < n; k++) {
      if (!tq_live(Q, &b[k])) {
        Q->n--;
        continue;
      }
      if (tq_gather(Q, b[k]) != ASTAR_OK) return ASTAR_ENOMEM;
    }
  }
  if (Q->hn > 1) { /* heapify: sift down from the last parent */
    astar_heap_entry *h = Q->s->heap;
    k = Q->hn / 2;
    while (k-- > 0) tq_heap_down(h, k, Q->hn, h[k]);
  }
  return ASTAR_OK;
}

/* Takes the next live entry off into *e: 1, or 0 when none is left, or
 * ASTAR_ENOMEM (negative). */
static inline int tq_pop(theta_queue *Q, astar_heap_entry *e) {
  for (;;) {
    while (Q->hn > 0) {
      astar_heap_entry *h = Q->s->heap;
      *e = h[0];
      Q->hn--;
      Q->n--;
      if (Q->hn > 0) tq_heap_down(h, 0, Q->hn, h[Q->hn]);
      if (tq_live(Q, e)) return 1;
    }
    if (Q->n == 0) return 0;
    if (tq_refill(Q) != ASTAR_OK) return ASTAR_ENOMEM;
  }
}

#endif

/*
 * Landmarks (ALT) as their files share them: landmarks.c builds one unit
 * class's distance fields, landmarks_query.c sets a search up to read
 * them, and the A* loop (astar_loop.c) reads them through the inline
 * heuristic below.
 */
#ifndef ASTAR_LANDMARKS_H
#define ASTAR_LANDMARKS_H

#include "internal.h"

/* One unit's landmarks: dist[(y * width + x) * k + j] is the distance of
 * tile (x, y) from landmark j in units of q (INF: not reached) under the
 * shifted symmetric weights; phi(i) = kappa * cost(i) + eta * height(i). */
typedef struct astar__landmarks {
  struct astar__landmarks *next;
  int unit, k;
  uint64_t version;       /* the map's edit counter at the build */
  double q, kappa, eta;
  uint32_t *dist;
  uint32_t tiles[ASTAR_MAX_LANDMARKS];
} astar__landmarks;
/* unit's landmarks when ready (built at the map's current version), or
 * NULL. */
const astar__landmarks *astar__landmarks_of(const astar_grid *g, int unit);

/* Sets up S's landmark fields when the grid has landmarks ready for the
 * query's unit and the query is one they serve (landmarks_query.c): 1
 * when it did. */
int astar__landmarks_start(astar__run *S);

/* The landmark heuristic of tile v at (x, y): the largest of the
 * landmarks' bounds and the default heuristic's (landmarks.c says why it
 * is consistent). */
ASTAR__HOT_INLINE double astar__h_landmarks(const astar__run *S, uint32_t v,
                                            int32_t x, int32_t y) {
  const uint32_t *d = S->lm_dist + ((size_t)y * S->lm_width + (size_t)x) *
                                       S->lm_k;
  const uint32_t *goal = S->lm_goal;
  uint32_t best = 0, j, n = S->lm_n;
  double h, plain = astar__h_at(&S->h, x, y);
  if (n == S->lm_k) { /* every landmark reaches the goal: no indirection */
    for (j = 0; j < n; j++) {
      uint32_t a = goal[j], b = d[j], diff = a > b ? a - b : b - a;
      best = diff > best ? diff : best;
    }
  } else {
    for (j = 0; j < n; j++) {
      uint32_t a = goal[j], b = d[S->lm_use[j]], diff = a > b ? a - b : b - a;
      best = diff > best ? diff : best;
    }
  }
  h = S->lm_q * (double)best + S->lm_phi_goal -
      S->lm_kappa * (double)S->L.cost[v];
  if (S->L.height != NULL) h -= S->lm_eta * (double)S->L.height[v];
  return h > plain ? h : plain;
}

/* Asks the cache for the landmark distances around tile i (the rows
 * above, at and below it), which an expansion of i will read: the loop
 * calls it for the open list's next node (on the heap), or for the node
 * it takes off and the next two of the lowest bucket (on the bucket
 * queue, where u's children mostly come off next). */
static inline void astar__lm_prefetch(const astar__run *S, uint32_t i) {
#if defined(__GNUC__) || defined(__clang__)
  int32_t x, y, r;
  astar_xy(S->G, i, &x, &y);
  for (r = y > 0 ? y - 1 : 0; r <= y + 1 && r < S->G->height; r++) {
    const uint32_t *p = S->lm_dist + ((size_t)r * S->lm_width + (size_t)x) *
                                         S->lm_k;
    __builtin_prefetch(p);
    __builtin_prefetch(p + S->lm_k); /* the tile to the right */
    if (x > 0) __builtin_prefetch(p - S->lm_k);
  }
#else
  (void)S;
  (void)i;
#endif
}

/* The bucket queue took u off: u's rows, and the next two entries of
 * the lowest bucket (b0, n0 entries left), which come off next unless
 * u's expansion adds entries on top of them. */
ASTAR__HOT_INLINE void astar__lm_prefetch_pop(const astar__run *S, uint32_t u,
                                              const astar_heap_entry *b0,
                                              size_t n0) {
  astar__lm_prefetch(S, u);
  if (n0 > 0) astar__lm_prefetch(S, b0[n0 - 1].node);
  if (n0 > 1) astar__lm_prefetch(S, b0[n0 - 2].node);
}

#endif

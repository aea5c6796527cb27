/*
 * IDA* (Korf 1985): depth-first searches bounded by f = g + h, the bound
 * raised each round to the smallest f that went over it.  Memory beyond
 * the grid is the current path only (astar__frame, 16 bytes a tile, in a
 * buffer the grid keeps and grows); tiles on the current path are marked
 * in the grid's stamps, so the search never walks in a circle.  It stores
 * nothing per tile between rounds, so it re-expands tiles many times: it
 * suits small searches (short paths, few equal-cost alternatives) and is
 * capped at max_nodes expansions (ASTAR_IDA_DEFAULT_NODES by default),
 * ending with ASTAR_CUTOFF.
 *
 * Optimal: with the admissible heuristic a round finds the goal only once
 * the bound has reached the optimal cost.  The bound test allows a
 * relative 1e-12 so that one path summed in two orders does not cost a
 * round.  The path is left in the stamps (each tile's step direction), as
 * A* leaves it, for astar_path_prev.
 */
#include "astar.h"
#include "internal.h"

#include <math.h>
#include <string.h>

#define STAMP_CLOSED 8u /* here: on the current path */
#define STAMP_DIR 7u
#define STAMP_GEN_MASK (~(uint32_t)15u)

int astar__ida(astar_grid *G, const astar_query *q, astar_result *r) {
  astar_layer L;
  heuristic h;
  astar__more *M;
  astar__frame *F;
  double bound, limit;
  uint32_t start, goal, tag, cap, expanded = 0, generated = 0, peak = 0;
  uint32_t *stamp;
  size_t depth;
  int st, found = 0;
  st = astar__engine_setup(G, q, r, &L, &bound);
  if (st == 1) return ASTAR_OK;
  if (st != ASTAR_OK) return st;
  if (G->more == NULL) {
    G->more = astar__alloc(G, 1, sizeof(astar__more));
    if (G->more == NULL) return ASTAR_ENOMEM;
    memset(G->more, 0, sizeof(astar__more));
  }
  M = G->more;
  {
    void *p = M->frames;
    st = astar__more_grow(G, &p, &M->frames_cap, 64, sizeof(astar__frame));
    M->frames = p;
    if (st != ASTAR_OK) return st;
  }
  astar__heuristic_init(&h, G, q, bound);
  start = astar_index(G, q->sx, q->sy);
  goal = astar_index(G, q->gx, q->gy);
  cap = q->max_nodes != 0 ? q->max_nodes : ASTAR_IDA_DEFAULT_NODES;
  stamp = G->stamp;
  tag = G->explored_tag = astar__next_generation(G);
  limit = heuristic_at(&h, q->sx, q->sy);
  G->busy = 1;
  while (!found) {
    double next = HUGE_VAL, slack = limit * 1e-12;
    F = M->frames;
    F[0].node = start;
    F[0].g = 0.0;
    F[0].moves = L.moves[start];
    stamp[start] = tag | STAMP_CLOSED;
    depth = 0;
    for (;;) {
      astar__frame *f = &F[depth];
      uint32_t u = f->node, v;
      unsigned d;
      double ng, fv;
      int32_t x, y;
      if (f->moves == 0) { /* every move tried: back up */
        stamp[u] = 0;
        if (depth == 0) break;
        depth--;
        continue;
      }
      d = 0;
      while (!(f->moves & (1u << d))) d++;
      f->moves &= f->moves - 1;
      v = (uint32_t)((int32_t)u + G->offset[d]);
      if ((stamp[v] & STAMP_GEN_MASK) == tag && (stamp[v] & STAMP_CLOSED))
        continue; /* on the current path */
      ng = f->g + G->step_length[d] * (double)L.cost[v];
      if (L.height != NULL) {
        double dh = (double)L.height[v] - (double)L.height[u];
        ng += dh > 0.0 ? L.climb * dh : -L.descend * dh;
      }
      astar_xy(G, v, &x, &y);
      fv = ng + heuristic_at(&h, x, y);
      generated++;
      if (fv > limit + slack) {
        if (fv < next) next = fv;
        continue;
      }
      if (v == goal) {
        stamp[v] = tag | STAMP_CLOSED | d;
        r->cost = ng;
        r->length = (uint32_t)depth + 2;
        found = 1;
        break;
      }
      if (expanded >= cap) {
        st = ASTAR_CUTOFF;
        break;
      }
      expanded++;
      if (depth + 1 >= M->frames_cap) {
        void *p = M->frames;
        st = astar__more_grow(G, &p, &M->frames_cap, depth + 2,
                              sizeof(astar__frame));
        M->frames = p;
        if (st != ASTAR_OK) break;
        F = M->frames;
      }
      depth++;
      F[depth].node = v;
      F[depth].g = ng;
      F[depth].moves = L.moves[v];
      stamp[v] = tag | STAMP_CLOSED | d;
      if (depth + 1 > peak) peak = (uint32_t)depth + 1;
    }
    if (found || st != ASTAR_OK || next == HUGE_VAL) break;
    limit = next;
  }
  G->busy = 0;
  r->expanded = expanded;
  r->generated = generated;
  r->peak_open = peak;
  if (st == ASTAR_CUTOFF) {
    /* the stamps of the path being walked stay marked: a new generation
       comes with the next search */
    r->outcome = ASTAR_CUTOFF;
    return ASTAR_OK;
  }
  if (st != ASTAR_OK) return st;
  if (!found) {
    r->outcome = ASTAR_NO_PATH;
    return ASTAR_OK;
  }
  G->last_outcome = ASTAR_FOUND;
  r->outcome = ASTAR_FOUND;
  r->end_x = q->gx;
  r->end_y = q->gy;
  return ASTAR_OK;
}

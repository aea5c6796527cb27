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
 * round.  The path is left in the context's stamps (each tile's step
 * direction), as A* leaves it, for astar_path_prev.  It runs whole in one
 * step of a sliced search: its state is a recursion, not an open list.
 */
#include "astar.h"
#include "internal.h"

#include <math.h>
#include <string.h>

/* (the stamps' closed bit means here: on the current path) */

int astar__ida(astar__run *R) {
  const astar_grid *G = R->G;
  astar_search *ctx = R->s;
  const astar_query *q = &R->q;
  astar_result *r = &R->r;
  const astar_layer L = R->L;
  astar__heuristic h;
  astar__more *M;
  astar__frame *F;
  double limit;
  uint32_t start = R->start, goal = R->goal, tag, cap, expanded = 0;
  uint32_t generated = 0, peak = 0;
  uint32_t *stamp;
  size_t depth;
  int st, found = 0;
  if ((st = astar__context_more(ctx, 0)) != ASTAR_OK) return st;
  M = ctx->more;
  {
    void *p = M->frames;
    st = astar__context_grow(ctx, &p, &M->frames_cap, 64,
                             sizeof(astar__frame));
    M->frames = p;
    if (st != ASTAR_OK) return st;
  }
  astar__heuristic_init(&h, G, q, R->bound);
  cap = q->max_nodes != 0 ? q->max_nodes : ASTAR_IDA_DEFAULT_NODES;
  stamp = ctx->stamp;
  tag = ctx->explored_tag = astar__next_generation(ctx);
  limit = astar__h_at(&h, q->sx, q->sy);
  while (!found) {
    double next = HUGE_VAL, slack = limit * 1e-12;
    F = M->frames;
    F[0].node = start;
    F[0].g = 0.0;
    F[0].moves = L.moves[start];
    stamp[start] = tag | ASTAR__STAMP_CLOSED;
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
      d = astar__lowest_bit(f->moves);
      f->moves &= f->moves - 1;
      v = (uint32_t)((int32_t)u + G->offset[d]);
      if ((stamp[v] & ASTAR__STAMP_GEN) == tag && (stamp[v] & ASTAR__STAMP_CLOSED))
        continue; /* on the current path */
      ng = f->g + astar__step_cost(G, &L, u, v, d);
      astar_xy(G, v, &x, &y);
      fv = ng + astar__h_at(&h, x, y);
      generated++;
      if (fv > limit + slack) {
        if (fv < next) next = fv;
        continue;
      }
      if (v == goal) {
        stamp[v] = tag | ASTAR__STAMP_CLOSED | d;
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
        st = astar__context_grow(ctx, &p, &M->frames_cap, depth + 2,
                                 sizeof(astar__frame));
        M->frames = p;
        if (st != ASTAR_OK) break;
        F = M->frames;
      }
      depth++;
      F[depth].node = v;
      F[depth].g = ng;
      F[depth].moves = L.moves[v];
      stamp[v] = tag | ASTAR__STAMP_CLOSED | d;
      if (depth + 1 > peak) peak = (uint32_t)depth + 1;
    }
    if (found || st != ASTAR_OK || next == HUGE_VAL) break;
    limit = next;
  }
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
  astar__finish(R, 1, goal);
  r->outcome = ASTAR_FOUND;
  r->end_x = q->gx;
  r->end_y = q->gy;
  return ASTAR_OK;
}

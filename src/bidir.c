/*
 * Bidirectional search: a forward search from the start and a backward one
 * from the goal that meet in the middle.
 *
 *  - ASTAR_ALGO_BIDIR: bidirectional A* (front-to-end: the forward search
 *    estimates the distance to the goal, the backward one to the start,
 *    both with the query's heuristic, consistent for the grid's moves).
 *    With the zero heuristic it is bidirectional Dijkstra.  Every time a
 *    tile gets a label from both sides, gf + gb is a path; mu is the best
 *    one.  The search stops when either side's smallest f reaches mu: an
 *    optimal path cheaper than mu would keep an open node of f < mu on
 *    both sides; with the zero heuristic also when the two smallest g
 *    together reach mu (such a path would cross from an open node of one
 *    side to one of the other).  Optimal.
 *  - ASTAR_ALGO_BIDIR_BFS: one whole layer of breadth-first search at a
 *    time, from the side with the smaller frontier; after the first layer
 *    that touches the other side, the best meeting is a path of the fewest
 *    steps.
 *
 * Reverse edges.  A step u -> v costs len(d) * cost(v) (+ the height cost
 * of u -> v); the backward search, standing on v, looks at each tile u
 * around it and takes the step only when u's own move mask allows u -> v
 * (so height limits, which make moves one-way, are read as the forward
 * search reads them) and prices it exactly as the forward step.  Cost
 * callbacks are refused (astar_algo_unsupported).
 *
 * Scratch, in the search context (context.c, made on first use): the
 * backward side's stamps and heap positions, the g labels of both sides
 * (the A* loop keeps g in its heap entries only) and the backward open
 * list; both sides use heap.h's open list with decrease-key.  The forward
 * side uses the context's own stamps, heap and heap positions, so the
 * path walk of astar_path_prev works: at the end the backward half's
 * directions are written into those stamps, from the meeting tile to the
 * goal.  It runs whole in one step of a sliced search.
 */
#include "astar.h"
#include "heap.h"
#include "internal.h"

#include <math.h>
#include <string.h>

static inline unsigned opposite(unsigned d) {
  return d < 4 ? d ^ 2u : 4u + ((d - 4u) ^ 2u);
}

typedef struct bsearch {
  const astar_grid *G;
  astar_search *ctx;
  astar__more *M;
  const astar_layer *L;
  astar__heuristic h[2]; /* forward: to the goal; backward: to the start */
  uint32_t start, goal, tag[2];
  uint32_t *stamp[2], *pos[2];
  double *g[2];
  size_t n[2];
  uint32_t expanded, generated, peak, cap;
  double inv_q, mu;
  uint32_t meet;
  int bfs;
  int zero_h; /* both heuristics are 0: the sum rule applies */
} bsearch;

static uint32_t next_generation_b(astar__more *M, uint32_t ntiles) {
  if (++M->generation > ASTAR__MAX_GENERATION) {
    memset(M->stamp_b, 0, (size_t)ntiles * sizeof(uint32_t));
    M->generation = 1;
  }
  return M->generation << 4;
}

static astar_heap_entry *heap_of(bsearch *B, int s) {
  return s ? B->M->heap_b : B->ctx->heap;
}

/* Room for one more entry on side s. */
static int room(bsearch *B, int s) {
  if (s == 0) {
    if (B->n[0] < B->ctx->heap_cap) return ASTAR_OK;
    return astar__grow_heap(B->ctx);
  } else {
    void *p = B->M->heap_b;
    int st;
    if (B->n[1] < B->M->heap_b_cap) return ASTAR_OK;
    st = astar__context_grow(B->ctx, &p, &B->M->heap_b_cap, B->n[1] + 1,
                             sizeof(astar_heap_entry));
    B->M->heap_b = p;
    return st;
  }
}

/* A label for v from side s (0 forward, 1 backward), with the direction
 * stored as the path walk wants it: forward, the step into v; backward,
 * the step out of v towards the goal. */
static int relax(bsearch *B, int s, uint32_t v, unsigned d, double ng,
                 int32_t vx, int32_t vy) {
  uint32_t *stamp = B->stamp[s], tag = B->tag[s], sv = stamp[v];
  double *g = B->g[s];
  const double *og = B->g[!s];
  astar_heap_entry e;
  size_t at;
  int st;
  if ((sv & ASTAR__STAMP_GEN) == tag) {
    if (sv & ASTAR__STAMP_CLOSED) return ASTAR_OK;
    if (B->bfs || ng >= g[v]) return ASTAR_OK;
    at = B->pos[s][v]; /* decrease-key */
  } else {
    if ((st = room(B, s)) != ASTAR_OK) return st;
    at = B->n[s]++;
    B->generated++;
  }
  g[v] = ng;
  stamp[v] = tag | d;
  e.g = ng;
  e.node = v;
  e.aux = 0;
  if (B->bfs) { /* a queue: append */
    e.key = 0;
    heap_of(B, s)[at] = e;
  } else {
    e.key = astar__quantise(ng + astar__h_at(&B->h[s], vx, vy), B->inv_q);
    astar__heap_up(heap_of(B, s), B->pos[s], at, e, 0);
  }
  if ((B->stamp[!s][v] & ASTAR__STAMP_GEN) == B->tag[!s] && ng + og[v] < B->mu) {
    B->mu = ng + og[v];
    B->meet = v;
  }
  return ASTAR_OK;
}

/* Expands u on side s. */
static int expand(bsearch *B, int s, uint32_t u) {
  const astar_grid *G = B->G;
  int32_t ux, uy;
  unsigned d;
  int st;
  double gu = B->g[s][u];
  B->expanded++;
  astar_xy(G, u, &ux, &uy);
  if (s == 0) {
    unsigned m = B->L->moves[u];
    while (m) {
      uint32_t v;
      d = astar__lowest_bit(m);
      m &= m - 1;
      v = (uint32_t)((int32_t)u + G->offset[d]);
      st = relax(B, 0, v, d,
                 gu + (B->bfs ? 1.0 : astar__step_cost(G, B->L, u, v, d)),
                 ux + astar_dir_dx[d], uy + astar_dir_dy[d]);
      if (st != ASTAR_OK) return st;
    }
  } else {
    unsigned dirs = astar__rule_dirs(G->diagonal);
    for (d = 0; d < 8; d++) {
      /* the tile w beside u from which a step in direction opposite(d)
         enters u */
      uint32_t w;
      unsigned back = opposite(d);
      if (!(dirs & (1u << d))) continue;
      w = (uint32_t)((int32_t)u + G->offset[d]);
      if (!(B->L->moves[w] & (1u << back)) || !astar__bit(B->L->passable, w))
        continue;
      st = relax(B, 1, w, back,
                 gu + (B->bfs ? 1.0 : astar__step_cost(G, B->L, w, u, back)),
                 ux + astar_dir_dx[d], uy + astar_dir_dy[d]);
      if (st != ASTAR_OK) return st;
    }
  }
  return ASTAR_OK;
}

/* The exact f of side s's best open node (keys are quantised). */
static double top_f(bsearch *B, int s) {
  const astar_heap_entry *e = &heap_of(B, s)[0];
  int32_t x, y;
  astar_xy(B->G, e->node, &x, &y);
  return e->g + astar__h_at(&B->h[s], x, y);
}

static int run_astar(bsearch *B) {
  int st;
  for (;;) {
    int s;
    uint32_t u;
    if (B->n[0] + B->n[1] > B->peak) B->peak = (uint32_t)(B->n[0] + B->n[1]);
    if (B->n[0] == 0 || B->n[1] == 0) return ASTAR_OK;
    if (top_f(B, 0) >= B->mu || top_f(B, 1) >= B->mu) return ASTAR_OK;
    /* Dijkstra (zero heuristic, f is g): a path cheaper than mu would
       join an open node of each side, costing at least the sum */
    if (B->zero_h && heap_of(B, 0)[0].g + heap_of(B, 1)[0].g >= B->mu)
      return ASTAR_OK;
    if (B->cap != 0 && B->expanded >= B->cap) return ASTAR_CUTOFF;
    s = B->n[0] <= B->n[1] ? 0 : 1; /* the smaller open list */
    u = heap_of(B, s)[0].node;
    if (B->n[s] > 1) astar__heap_pop(heap_of(B, s), B->pos[s], B->n[s], 0);
    B->n[s]--;
    B->stamp[s][u] |= ASTAR__STAMP_CLOSED;
    if ((st = expand(B, s, u)) != ASTAR_OK) return st;
  }
}

static int run_bfs(bsearch *B) {
  size_t head[2] = {0, 0};
  int st;
  for (;;) {
    int s;
    size_t end, i;
    size_t left0 = B->n[0] - head[0], left1 = B->n[1] - head[1];
    if (left0 + left1 > B->peak) B->peak = (uint32_t)(left0 + left1);
    if (left0 == 0 || left1 == 0) return ASTAR_OK;
    s = left0 <= left1 ? 0 : 1;
    end = B->n[s]; /* one whole layer */
    for (i = head[s]; i < end; i++) {
      uint32_t u = heap_of(B, s)[i].node;
      if (B->cap != 0 && B->expanded >= B->cap) return ASTAR_CUTOFF;
      B->stamp[s][u] |= ASTAR__STAMP_CLOSED;
      if ((st = expand(B, s, u)) != ASTAR_OK) return st;
    }
    head[s] = end;
    if (B->mu < HUGE_VAL) return ASTAR_OK;
  }
}

int astar__bidir(astar__run *R) {
  const astar_grid *G = R->G;
  astar_search *ctx = R->s;
  const astar_query *q = &R->q;
  astar_result *r = &R->r;
  bsearch B;
  astar_query bq;
  int st;
  memset(&B, 0, sizeof B);
  if ((st = astar__context_more(ctx, 1)) != ASTAR_OK) return st;
  B.G = G;
  B.ctx = ctx;
  B.M = ctx->more;
  B.L = &R->L;
  B.bfs = q->algorithm == ASTAR_ALGO_BIDIR_BFS;
  B.start = R->start;
  B.goal = R->goal;
  B.stamp[0] = ctx->stamp;
  B.stamp[1] = B.M->stamp_b;
  B.pos[0] = ctx->heap_pos;
  B.pos[1] = B.M->pos_b;
  B.g[0] = B.M->gf;
  B.g[1] = B.M->gb;
  B.cap = q->max_nodes;
  B.mu = HUGE_VAL;
  B.meet = UINT32_MAX;
  astar__heuristic_init(&B.h[0], G, q, R->bound);
  bq = *q;
  bq.gx = q->sx;
  bq.gy = q->sy;
  astar__heuristic_init(&B.h[1], G, &bq, R->bound);
  B.zero_h = B.h[0].A == 0.0 && B.h[0].B == 0.0;
  B.inv_q = astar__key_scale(G, R->bound);
  B.tag[0] = ctx->explored_tag = astar__next_generation(ctx);
  B.tag[1] = ctx->explored_tag_b = next_generation_b(B.M, ctx->ntiles);
  st = relax(&B, 0, B.start, 0, 0.0, q->sx, q->sy);
  if (st == ASTAR_OK) st = relax(&B, 1, B.goal, 0, 0.0, q->gx, q->gy);
  if (st == ASTAR_OK) st = B.bfs ? run_bfs(&B) : run_astar(&B);
  r->expanded = B.expanded;
  r->generated = B.generated;
  r->peak_open = B.peak;
  if (st == ASTAR_CUTOFF) {
    r->outcome = ASTAR_CUTOFF;
    return ASTAR_OK;
  }
  if (st != ASTAR_OK) return st;
  if (B.meet == UINT32_MAX) {
    r->outcome = ASTAR_NO_PATH;
    return ASTAR_OK;
  }
  /* the backward half into the forward stamps: meet -> goal */
  {
    uint32_t w = B.meet, len = 1, node;
    double cost = 0.0;
    while (w != B.goal) {
      unsigned d = B.stamp[1][w] & ASTAR__STAMP_DIR;
      uint32_t nx = (uint32_t)((int32_t)w + G->offset[d]);
      B.stamp[0][nx] = B.tag[0] | ASTAR__STAMP_CLOSED | d;
      w = nx;
    }
    astar__finish(R, 1, B.goal);
    /* length, and the cost summed from the start as A* sums it */
    node = B.goal;
    while (astar_path_prev(ctx, &node)) len++;
    if (!B.bfs) {
      cost = B.mu;
    } else {
      uint32_t *path;
      size_t i;
      void *p = B.M->frames;
      /* walk back into the frame buffer (no per-query allocation once it
         is big enough), then sum forwards */
      st = astar__context_grow(ctx, &p, &B.M->frames_cap, len,
                               sizeof(astar__frame));
      B.M->frames = p;
      if (st != ASTAR_OK) {
        astar__finish(R, 0, B.goal);
        return st;
      }
      path = (uint32_t *)B.M->frames; /* len uint32 fit in len frames */
      node = B.goal;
      i = len;
      path[--i] = node;
      while (astar_path_prev(ctx, &node)) path[--i] = node;
      for (i = 1; i < len; i++) {
        unsigned d = B.stamp[0][path[i]] & ASTAR__STAMP_DIR;
        cost += astar__step_cost(G, B.L, path[i - 1], path[i], d);
      }
    }
    r->outcome = ASTAR_FOUND;
    r->cost = cost;
    r->length = len;
    r->end_x = q->gx;
    r->end_y = q->gy;
  }
  return ASTAR_OK;
}

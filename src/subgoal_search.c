/*
 * A query over a prepared subgoal graph (subgoal.c builds it,
 * subgoal_levels.c contracts it): the start and goal are joined to the
 * subgoals they reach directly, the goal's subgoals mark what they climb
 * to, A* runs over the graph (up from the start, down only into those
 * marks) with the octile heuristic on the context's stamp, heap and
 * heap positions (nodes are tiles, as in JPS), and each edge is unfolded
 * into tiles whose stamps carry their step direction, so
 * astar_path_last/prev walk every tile of the path.  Costs are summed step
 * by step from the start, in the order A* sums them.
 */
#include "astar.h"
#include "heap.h"
#include "internal.h"

#include <math.h>
#include <string.h>

#define NONE UINT32_MAX

static inline int is_open(const uint64_t *bm, uint32_t i) {
  return (int)((bm[i >> 6] >> (i & 63u)) & 1u);
}

/* Flags in the low stamp bits while searching (unfold writes step
 * directions there afterwards): */
#define NEAR_GOAL 1u /* the goal's scan reached the tile */
#define UP_GOAL 2u   /* a subgoal the goal's subgoals climb to */

typedef struct {
  astar__run *R;
  uint32_t tag;
  size_t n; /* subgoals on the stack (the heap's slots, unused yet) */
} marker;

static int mark_push(marker *m, uint32_t tile) {
  astar_search *ctx = m->R->s;
  if (m->n == ctx->heap_cap && astar__grow_heap(ctx) != ASTAR_OK)
    return ASTAR_ENOMEM;
  ctx->heap[m->n++].node = tile;
  return ASTAR_OK;
}

/* the goal's scan: its tiles get the goal mark's generation */
static int mark_goal(void *ud, uint32_t tile) {
  marker *m = ud;
  uint32_t *stamp = m->R->s->stamp;
  stamp[tile] = m->tag | NEAR_GOAL | UP_GOAL;
  return mark_push(m, tile);
}

/* Marks UP_GOAL on what the stacked subgoals climb to through contracted
 * subgoals (a search may come down into those only). */
static int mark_climb(marker *m) {
  const astar__subgoals *sg = m->R->sg;
  astar_search *ctx = m->R->s;
  uint32_t *stamp = ctx->stamp;
  int st;
  while (m->n > 0) {
    uint32_t id = astar__subgoal_id(sg, ctx->heap[--m->n].node), e;
    if (sg->at[id].level == NONE) continue;
    for (e = sg->first[id]; e < sg->at[id].down; e++) {
      const struct astar__subgoal_at *ta = &sg->at[sg->adj[e]];
      uint32_t sv = stamp[ta->tile];
      if (ta->level == NONE) continue; /* global: always open */
      if ((sv & ASTAR__STAMP_GEN) == m->tag && (sv & UP_GOAL)) continue;
      stamp[ta->tile] =
          m->tag | UP_GOAL | ((sv & ASTAR__STAMP_GEN) == m->tag ? sv & 1u : 0u);
      if ((st = mark_push(m, ta->tile)) != ASTAR_OK) return st;
    }
  }
  return ASTAR_OK;
}

static double octile(const astar__run *R, uint32_t a, uint32_t b) {
  uint32_t stride = (uint32_t)R->G->stride;
  int32_t dx = (int32_t)(a % stride) - (int32_t)(b % stride);
  int32_t dy = (int32_t)(a / stride) - (int32_t)(b / stride);
  if (dx < 0) dx = -dx;
  if (dy < 0) dy = -dy;
  return dx > dy ? R->hA * dx + R->hB * dy : R->hA * dy + R->hB * dx;
}

/* Puts tile t (at padded x, y) on the open list at cost ng from u (or
 * lowers it).  Bit 0 of a tile's stamp direction says the goal's scan
 * reached it. */
static int relax_at(astar__run *R, uint32_t u, uint32_t t, int32_t x,
                    int32_t y, double ng) {
  astar_search *ctx = R->s;
  uint32_t *stamp = ctx->stamp, sv = stamp[t], flag;
  int32_t dx = x - R->gx, dy = y - R->gy;
  size_t at;
  astar_heap_entry e;
  if ((sv & ASTAR__STAMP_GEN) == R->tag) {
    if (sv & ASTAR__STAMP_CLOSED) return ASTAR_OK;
    at = ctx->heap_pos[t];
    if (ng >= ctx->heap[at].g) return ASTAR_OK;
    flag = sv & (NEAR_GOAL | UP_GOAL);
  } else {
    if (R->n == ctx->heap_cap && astar__grow_heap(ctx) != ASTAR_OK)
      return ASTAR_ENOMEM;
    at = R->n++;
    R->r.generated++;
    if (R->n > R->peak) R->peak = (uint32_t)R->n;
    flag = (sv & ASTAR__STAMP_GEN) == R->gtag ? sv & (NEAR_GOAL | UP_GOAL)
                                               : 0u;
  }
  stamp[t] = R->tag | flag;
  if (dx < 0) dx = -dx;
  if (dy < 0) dy = -dy;
  e.key = astar__quantise(
      ng + (dx > dy ? R->hA * dx + R->hB * dy : R->hA * dy + R->hB * dx),
      R->inv_q);
  e.g = ng;
  e.node = t;
  e.aux = u;
  astar__heap_up(ctx->heap, ctx->heap_pos, at, e, 0);
  return ASTAR_OK;
}

static int relax(astar__run *R, uint32_t u, uint32_t t, double ng) {
  uint32_t stride = (uint32_t)R->G->stride;
  return relax_at(R, u, t, (int32_t)(t % stride), (int32_t)(t / stride), ng);
}

typedef struct {
  astar__run *R;
  uint32_t from;
  double g;
} expander;

static int relax_scan(void *ud, uint32_t tile) {
  expander *x = ud;
  return relax(x->R, x->from, tile, x->g + octile(x->R, x->from, tile));
}

static void view_run(const astar__run *R, astar__view *V) {
  const astar__subgoals *s = R->sg;
  astar__subgoal_view(R->G, &R->J, s, V);
}

int astar__subgoal_start(astar__run *R) {
  const astar_grid *G = R->G;
  astar_search *ctx = R->s;
  const astar_query *q = &R->q;
  double card, diag, c;
  int st, apart = 0;
  astar__view V;
  if ((st = astar__jps_layer_size(G, q->unit, q->size, &R->J)) < 0) return st;
  if (!astar__bit(R->J.passable, R->start)) {
    R->r.outcome = ASTAR_START_BLOCKED;
    return 1;
  }
  if (!astar__bit(R->J.passable, R->goal)) {
    R->r.outcome = ASTAR_GOAL_BLOCKED;
    return 1;
  }
  if (!q->no_zones && R->start != R->goal) {
    if ((st = astar__zones_apart_size(G, q->unit, q->size, R->start, R->goal,
                                      &apart)) != ASTAR_OK)
      return st;
    if (apart) {
      R->r.outcome = ASTAR_NO_PATH;
      return 1;
    }
  }
  c = (double)R->J.uniform;
  card = G->cardinal_length;
  diag = G->diagonal_length;
  R->hA = card * c;
  R->hB = (diag - card) * c;
  R->inv_q = 16777216.0 / (c * card);
  {
    int d;
    for (d = 0; d < 8; d++) R->jstep[d] = G->step_length[d] * c;
  }
  /* two generations: the goal's mark, then the search's (a wrap between
     them clears the stamps before either is written) */
  R->gx = (int32_t)(R->goal % (uint32_t)G->stride);
  R->gy = (int32_t)(R->goal / (uint32_t)G->stride);
  R->gtag = astar__next_generation(ctx);
  R->tag = ctx->explored_tag = astar__next_generation(ctx);
  view_run(R, &V);
  if (R->start != R->goal) {
    marker m;
    m.R = R;
    m.tag = R->gtag;
    m.n = 0;
    if (!is_open(V.sub, R->goal))
      st = astar__subgoal_scan(&V, R->goal, mark_goal, &m);
    else if ((st = mark_push(&m, R->goal)) == ASTAR_OK)
      ctx->stamp[R->goal] = R->gtag | UP_GOAL;
    if (st != ASTAR_OK || (st = mark_climb(&m)) != ASTAR_OK) return st;
  }
  /* the start keeps the goal's marks */
  {
    uint32_t sv = ctx->stamp[R->start];
    ctx->stamp[R->start] =
        R->tag | ((sv & ASTAR__STAMP_GEN) == R->gtag
                      ? sv & (NEAR_GOAL | UP_GOAL)
                      : 0u);
  }
  {
    astar_heap_entry e;
    e.key = astar__quantise(octile(R, R->start, R->goal), R->inv_q);
    e.g = 0.0;
    e.node = R->start;
    e.aux = R->start;
    astar__heap_up(ctx->heap, ctx->heap_pos, 0, e, 0);
    R->n = 1;
    R->r.generated = 1;
    R->peak = 1;
  }
  return ASTAR_OK;
}

/* The direction of the step (sign dx, sign dy). */
static unsigned dir_of(int dx, int dy) {
  /* by (dy + 1) * 3 + dx + 1: NW N NE, W - E, SW S SE (astar.h's order) */
  static const unsigned char by_sign[9] = {ASTAR_NW, ASTAR_N, ASTAR_NE,
                                           ASTAR_W,  0,       ASTAR_E,
                                           ASTAR_SW, ASTAR_S, ASTAR_SE};
  return by_sign[(dy + 1) * 3 + dx + 1];
}

/* Can one step in direction d leave tile t (corner rule included)? */
static int step_ok(const astar_grid *G, const uint64_t *pass, uint32_t t,
                   unsigned d) {
  uint32_t n;
  d &= 7u;
  n = (uint32_t)((int32_t)t + G->offset[d]);
  if (!is_open(pass, n)) return 0;
  if (d < 4) return 1;
  /* cppcheck-suppress arrayIndexOutOfBoundsCond ; d is 4..7 here */
  return is_open(pass, (uint32_t)((int32_t)t + astar_dir_dx[d])) &&
         is_open(pass, (uint32_t)((int32_t)t + astar_dir_dy[d] * G->stride));
}

/* Does the way from a to b with n1 steps in direction first and then
 * n2 in direction second stay open (corner rule included)? */
static int way_open(const astar__run *R, uint32_t a, unsigned first,
                    int32_t n1, unsigned second, int32_t n2) {
  const astar_grid *G = R->G;
  uint32_t t = a;
  int32_t k;
  for (k = 0; k < n1 + n2; k++) {
    unsigned d = k < n1 ? first : second;
    if (!step_ok(G, R->J.passable, t, d)) return 0;
    t = (uint32_t)((int32_t)t + G->offset[d]);
  }
  return 1;
}

/* The tile a shortcut a -> b (tiles) goes through, else NONE. */
static uint32_t via_of(const astar__run *R, uint32_t a, uint32_t b) {
  const astar__subgoals *sg = R->sg;
  uint32_t ia, ib, e;
  if (sg->via == NULL || !is_open(sg->bits, a) || !is_open(sg->bits, b))
    return NONE;
  ia = astar__subgoal_id(sg, a);
  ib = astar__subgoal_id(sg, b);
  /* edges come both ways with the same via: scan the shorter list */
  if (sg->first[ib + 1] - sg->first[ib] < sg->first[ia + 1] - sg->first[ia]) {
    uint32_t t = ia;
    ia = ib;
    ib = t;
  }
  for (e = sg->first[ia]; e < sg->first[ia + 1]; e++)
    if (sg->adj[e] == ib) return sg->via[e];
  return NONE;
}

/* The corners of a path being written forwards (q->corners): the last
 * corner kept, the run going on from it (its direction and the tile it
 * has reached), how many corners so far.  A corner's walk link (heap_pos)
 * names the corner before it. */
typedef struct {
  uint32_t kept, tip, n;
  unsigned dir; /* 8: no run yet */
  double cost;  /* an open tile's cost (uniform) */
} corner_writer;

/* n steps in direction d onwards from the tip. */
static void corner_run(astar__run *R, corner_writer *w, unsigned d,
                       int32_t n) {
  if (n == 0) return;
  if (d != w->dir && w->dir != 8u) { /* the tip turns: a corner */
    R->s->heap_pos[w->tip] = w->kept;
    w->kept = w->tip;
    w->n++;
  }
  w->dir = d;
  w->tip = (uint32_t)((int32_t)w->tip + n * R->G->offset[d]);
}

/* One edge a -> b into tiles: the diagonal steps first when that way is
 * open, else the straight ones first (the ways a scan finds), else
 * through the contracted subgoal the edge was added for.  Writes each
 * tile's step direction (or with w, the edge's runs as corners) and sums
 * the cost.  Each split halves nothing but shortens both parts, so the
 * depth is below the edge's length. */
static void unfold_edge(astar__run *R, uint32_t a, uint32_t b, double *g,
                        uint32_t *len, corner_writer *w) {
  const astar_grid *G = R->G;
  uint32_t stride = (uint32_t)G->stride, *stamp = R->s->stamp;
  int32_t dx = (int32_t)(b % stride) - (int32_t)(a % stride);
  int32_t dy = (int32_t)(b / stride) - (int32_t)(a / stride);
  int32_t ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
  int32_t nd = ax < ay ? ax : ay, ns = (ax > ay ? ax : ay) - nd;
  int sx = dx > 0 ? 1 : dx < 0 ? -1 : 0, sy = dy > 0 ? 1 : dy < 0 ? -1 : 0;
  unsigned dd = dir_of(sx, sy);
  unsigned ds = ax > ay ? dir_of(sx, 0) : dir_of(0, sy);
  unsigned first = dd, second = ds;
  int32_t n1 = nd, n2 = ns, k;
  uint32_t t = a, c = via_of(R, a, b);
  if (c != NONE) { /* a shortcut: through the subgoal it was added for */
    unfold_edge(R, a, c, g, len, w);
    unfold_edge(R, c, b, g, len, w);
    return;
  }
  if (!way_open(R, a, dd, nd, ds, ns)) {
    first = ds;
    second = dd;
    n1 = ns;
    n2 = nd;
  }
  if (w != NULL) { /* corners: the costs are uniform (every open tile
                      costs what the start does), summed step by step in
                      the same order */
    double c1 = G->step_length[first] * w->cost;
    double c2 = G->step_length[second] * w->cost;
    for (k = 0; k < n1; k++) *g += c1;
    for (k = 0; k < n2; k++) *g += c2;
    *len += (uint32_t)(n1 + n2);
    corner_run(R, w, first, n1);
    corner_run(R, w, second, n2);
    return;
  }
  for (k = 0; k < n1 + n2; k++) {
    unsigned d = k < n1 ? first : second;
    t = (uint32_t)((int32_t)t + G->offset[d]);
    stamp[t] = (stamp[t] & ~ASTAR__STAMP_DIR) | d;
    *g += G->step_length[d] * (double)R->J.cost[t];
    (*len)++;
  }
}

static void unfold(astar__run *R) {
  uint32_t *link = R->s->heap_pos;
  uint32_t v = R->goal, child = NONE, cur, len = 1;
  double g = 0.0;
  corner_writer cw, *w = NULL;
  while (v != R->start) {
    uint32_t p = link[v];
    link[v] = child;
    child = v;
    v = p;
  }
  link[R->start] = child;
  cw.kept = cw.tip = R->start;
  cw.n = 1;
  cw.dir = 8u;
  cw.cost = (double)R->J.cost[R->start];
  if (R->q.corners) w = &cw;
  for (cur = R->start; cur != R->goal;) {
    uint32_t next = link[cur]; /* read before a corner's link overwrites it */
    unfold_edge(R, cur, next, &g, &len, w);
    cur = next;
  }
  if (w != NULL) { /* the goal: the last corner */
    R->s->heap_pos[R->goal] = cw.kept;
    R->r.corners = cw.n + 1;
    R->s->last_waypoints = 1;
  }
  R->r.cost = g;
  R->r.length = len;
}

int astar__subgoal_step(astar__run *R, uint32_t budget) {
  astar_search *ctx = R->s;
  const astar__subgoals *sg = R->sg;
  const uint32_t start = R->start, goal = R->goal;
  uint32_t left = budget != 0 ? budget : UINT32_MAX;
  int st = ASTAR_OK, suspended = 0;
  astar__view V;
  view_run(R, &V);
  V.extra = goal;
  V.extra_t = (goal % V.stride) * V.tstride + goal / V.stride;
  while (R->n > 0) {
    astar_heap_entry *heap = ctx->heap;
    uint32_t u = heap[0].node, parent = heap[0].aux;
    double gu = heap[0].g;
    if (left-- == 0) { /* suspended: the counts below still move */
      suspended = 1;
      break;
    }
    if (R->n > 1) astar__heap_pop(heap, ctx->heap_pos, R->n, 0);
    R->n--;
    ctx->stamp[u] |= ASTAR__STAMP_CLOSED;
    ctx->heap_pos[u] = parent;
    R->expanded++;
    if (u == goal) {
      R->found = 1;
      break;
    }
    if (ctx->stamp[u] & NEAR_GOAL) { /* the goal's scan reached u */
      if ((st = relax(R, u, goal, gu + octile(R, u, goal))) != ASTAR_OK)
        break;
    }
    if (is_open(sg->bits, u)) { /* a subgoal: its edges */
      uint32_t id = astar__subgoal_id(sg, u), e, end = sg->first[id + 1];
      const struct astar__subgoal_at *ua = &sg->at[id];
      const uint32_t tag = R->tag, gtag = R->gtag, down = ua->down;
      const double stepD = R->hA + R->hB; /* a diagonal step */
      for (e = sg->first[id]; e < end; e++) {
        const struct astar__subgoal_at *ta = &sg->at[sg->adj[e]];
        uint32_t sv = ctx->stamp[ta->tile], gen = sv & ASTAR__STAMP_GEN, w;
        if (gen == tag && (sv & ASTAR__STAMP_CLOSED)) continue;
        /* down to a lower level only towards the goal */
        if (e >= down && !((gen == tag || gen == gtag) && (sv & UP_GOAL)))
          continue;
        if (sg->wt != NULL) {
          w = sg->wt[e];
        } else { /* the plain graph: octile */
          uint32_t dx = (uint32_t)(ta->x > ua->x ? ta->x - ua->x : ua->x - ta->x);
          uint32_t dy = (uint32_t)(ta->y > ua->y ? ta->y - ua->y : ua->y - ta->y);
          w = dx > dy ? ASTAR__SG_W(dx - dy, dy) : ASTAR__SG_W(dy - dx, dx);
        }
        if ((st = relax_at(R, u, ta->tile, ta->x, ta->y,
                           gu + (double)ASTAR__SG_STRAIGHT(w) * R->hA +
                               (double)ASTAR__SG_DIAGONAL(w) * stepD)) !=
            ASTAR_OK)
          break;
      }
      if (st != ASTAR_OK) break;
    } else if (u == start) {
      expander x;
      x.R = R;
      x.from = u;
      x.g = gu;
      if ((st = astar__subgoal_scan(&V, u, relax_scan, &x)) != ASTAR_OK) break;
    }
  }
  R->r.expanded = R->expanded;
  R->r.peak_open = R->peak;
  if (st != ASTAR_OK) return st;
  if (suspended) return ASTAR__SUSPENDED;
  if (R->found) {
    R->r.outcome = ASTAR_FOUND;
    if (start == goal) {
      R->r.cost = 0.0;
      R->r.length = 1;
    } else {
      unfold(R);
    }
    R->r.end_x = R->q.gx;
    R->r.end_y = R->q.gy;
  } else {
    R->r.outcome = ASTAR_NO_PATH;
  }
  astar__finish(R, R->found, goal);
  return ASTAR_OK;
}

/*
 * What the engines share: the heuristic set up for a query, the start and
 * goal checks with the heuristic's bound, and the record of a finished
 * search in its context (what astar_path_prev walks).
 */
#include "astar.h"
#include "internal.h"

#include <math.h>
#include <string.h>

/* ---- heuristic (the shapes are in internal.h) ---- */

void astar__heuristic_init(astar__heuristic *h, const astar_grid *G,
                           const astar_query *q, double min_cost) {
  double c = G->cardinal_length, d = G->diagonal_length;
  double scale = min_cost * q->weight;
  int kind = q->heuristic;
  h->shape = ASTAR__H_PLAIN;
  h->gx = q->gx;
  h->gy = q->gy;
  h->A = h->B = 0.0;
  if (kind == ASTAR_H_DEFAULT) {
    if (G->diagonal == ASTAR_DIAG_HEX) { /* every step has length c */
      h->shape = ASTAR__H_HEX;
      h->A = c * scale;
      return;
    }
    if (G->diagonal == ASTAR_DIAG_NEVER || d >= 2.0 * c) {
      kind = ASTAR_H_MANHATTAN;
    } else if (d < c) { /* diagonals are the cheaper step */
      h->A = d * scale;
      return;
    } else {
      kind = ASTAR_H_OCTILE;
    }
  }
  switch (kind) {
  case ASTAR_H_MANHATTAN: h->A = c; h->B = c; break;
  case ASTAR_H_CHEBYSHEV: h->A = c; break;
  case ASTAR_H_OCTILE: h->A = c; h->B = d - c; break;
  case ASTAR_H_EUCLIDEAN: h->A = c; h->shape = ASTAR__H_EUCLID; break;
  default: break; /* ASTAR_H_ZERO */
  }
  h->A *= scale;
  h->B *= scale;
}

/* ---- shared by the engines ---- */

int astar__uses_options(const astar_query *q) {
  return q->ties != ASTAR_TIES_LARGER_G || q->ngoals != 0 ||
         q->goal_costs != NULL ||
         q->no_main_goal || (q->max_cost > 0.0 && q->max_cost < HUGE_VAL) ||
         q->max_length != 0 || q->closest || q->leave_blocked_start ||
         q->next_to_blocked_goal || q->heuristic_fn != NULL;
}

double astar__key_scale(const astar_grid *G, double bound) {
  double min_step = G->cardinal_length, quantum;
  if (G->diagonal != ASTAR_DIAG_NEVER && G->diagonal != ASTAR_DIAG_HEX &&
      G->diagonal_length < min_step)
    min_step = G->diagonal_length;
  /* keys stay finite: f is below 1e78 (costs < 2^128, lengths <= 1e9, at
   * most 2^30 steps), so a quantum of at least 2^-24 * 1e-200 is enough;
   * a stated bound can be far smaller (even subnormal) */
  quantum = bound * min_step;
  if (!(quantum >= 1e-200)) quantum = 1e-200;
  return 16777216.0 / quantum;
}

void astar__finish(astar__run *R, int found, uint32_t end) {
  astar_search *s = R->s;
  s->last_start = R->start;
  s->last_goal = end;
  s->last_outcome = found ? ASTAR_FOUND : ASTAR_NO_PATH;
}

/* ---- corners ---- */

/* Is the index step d one tile in one of the eight directions? */
int astar__unit_step(const astar_search *s, int32_t d) {
  int k;
  for (k = 0; k < 8; k++)
    if (s->offset[k] == d) return 1;
  return 0;
}

static int32_t gcd32(int32_t a, int32_t b) {
  while (b != 0) {
    int32_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* The direction from tile a to tile b, reduced (a waypoint leg of any
 * length), packed in one integer. */
int64_t astar__direction(const astar_search *s, uint32_t a, uint32_t b) {
  uint32_t stride = (uint32_t)s->stride;
  int32_t dx = (int32_t)(b % stride) - (int32_t)(a % stride);
  int32_t dy = (int32_t)(b / stride) - (int32_t)(a / stride);
  int32_t k = gcd32(dx < 0 ? -dx : dx, dy < 0 ? -dy : dy);
  if (k > 1) {
    dx /= k;
    dy /= k;
  }
  return (int64_t)dx * 131072 + dy;
}

void astar__path_corners(astar__run *R) {
  astar_search *s = R->s;
  uint32_t node, prev, kept, n = 1;
  int32_t run = 0;
  int64_t way = 0;
  int waypoints = s->last_waypoints, regular = 0;
  if (!R->q.corners || s->last_outcome != ASTAR_FOUND) return;
  if (R->r.corners != 0) return; /* the engine wrote them */
  node = prev = kept = s->last_goal;
  /* walk back; a tile is a corner when the step into it differs from
   * the step out of it (a link's jump: always).  Each corner's walk link
   * (heap_pos, as any-angle waypoints) is written once the walk has left
   * it behind. */
  while (astar_path_prev(s, &prev)) {
    int change;
    if (waypoints) {
      int64_t w = astar__direction(s, prev, node);
      change = node == kept || w != way;
      way = w;
    } else {
      int32_t d = (int32_t)node - (int32_t)prev;
      change = node == kept || d != run || !regular;
      if (d != run) regular = astar__unit_step(s, d);
      run = d;
    }
    if (change && node != kept) {
      s->heap_pos[kept] = node;
      kept = node;
      n++;
    }
    node = prev;
  }
  if (node != kept) {
    s->heap_pos[kept] = node;
    n++;
  }
  s->last_waypoints = 1;
  R->r.corners = n;
}

int astar__engine_setup(astar__run *R) {
  const astar_grid *G = R->G;
  const astar_query *q = &R->q;
  astar_result *r = &R->r;
  int st;
  if ((st = astar_grid_layer_size(G, q->unit, q->size, &R->L)) != ASTAR_OK) return st;
  if (!astar__bit(R->L.passable, R->start)) {
    r->outcome = ASTAR_START_BLOCKED;
    return 1;
  }
  if (!astar__bit(R->L.passable, R->goal)) {
    r->outcome = ASTAR_GOAL_BLOCKED;
    return 1;
  }
  R->bound = R->L.min_cost;
  if (q->min_cost > 0.0 && q->min_cost < R->bound) R->bound = q->min_cost;
  if (R->start == R->goal) {
    r->outcome = ASTAR_FOUND;
    r->cost = 0.0;
    r->length = 1;
    r->end_x = q->gx;
    r->end_y = q->gy;
    astar__finish(R, 1, R->goal);
    return 1;
  }
  return ASTAR_OK;
}

/* ---- the goals of the A* family's options ---- */

/* The tiles from which one legal step would enter the blocked tile t, as
 * if it were open (the corner rule looks at the tiles beside the step). */
static size_t next_to(const astar__run *S, uint32_t t, uint64_t *set,
                      size_t target) {
  const astar_grid *G = S->G;
  const uint64_t *open = S->L.passable;
  size_t n = 0;
  unsigned dirs = astar__rule_dirs(G->diagonal);
  int d;
  for (d = 0; d < 8; d++) {
    uint32_t nb = (uint32_t)((int32_t)t + G->offset[d]);
    if (!(dirs & (1u << d))) continue;
    if (!astar__bit(open, nb) && nb != S->start) continue;
    if (d >= 4 && (G->diagonal == ASTAR_DIAG_BOTH_FREE ||
                   G->diagonal == ASTAR_DIAG_ONE_FREE)) {
      int a = astar__bit(open, (uint32_t)((int32_t)t + astar_dir_dx[d]));
      int b = astar__bit(open, (uint32_t)((int32_t)t +
                                          astar_dir_dy[d] * G->stride));
      if (G->diagonal == ASTAR_DIAG_BOTH_FREE ? !(a && b) : !(a || b))
        continue;
    }
    set[n++] = (uint64_t)nb << 32 | target;
  }
  return n;
}

/* The goals of S's query as targets (the main goal first, then q->goals,
 * each with its goal cost), and the sorted set of tiles that end the
 * search (a blocked goal is none; with next_to_blocked_goal the tiles a
 * step away from it are).  The context's extra scratch holds room for nt
 * targets and 8 nt set entries.  Returns the set's size. */
size_t astar__goal_targets(astar__run *S, size_t nt) {
  const astar_grid *G = S->G;
  astar_search *ctx = S->s;
  const astar_query *q = &S->q;
  astar__target *t = ctx->extra->targets;
  size_t i, nset = 0;
  double step_h;
  /* the goals as given, then the tiles that end the search */
  for (i = 0; i < nt; i++) {
    if (!q->no_main_goal && i == 0) {
      t[i].x = q->gx;
      t[i].y = q->gy;
      t[i].index = -1;
    } else {
      size_t k = i - (q->no_main_goal ? 0 : 1);
      t[i].x = q->goals[2 * k];
      t[i].y = q->goals[2 * k + 1];
      t[i].index = (int32_t)k;
    }
    t[i].node = astar_index(G, t[i].x, t[i].y);
    t[i].cost = t[i].index >= 0 && q->goal_costs != NULL
                    ? q->goal_costs[t[i].index]
                    : 0.0;
    t[i].offset = -t[i].cost; /* h estimates the path plus the goal's cost */
  }
  /* the largest estimate of one step of the rule */
  step_h = 0.0;
  for (i = 0; i < 8; i++) {
    double v = astar__h_d(&S->h, astar_dir_dx[i], astar_dir_dy[i]);
    if ((astar__rule_dirs(G->diagonal) & (1u << i)) && v > step_h) step_h = v;
  }
  for (i = 0; i < nt; i++) {
    uint64_t *set = ctx->extra->set;
    /* a blocked goal is no goal, even where it is the (left) start */
    if (astar__bit(S->L.passable, t[i].node)) {
      set[nset++] = (uint64_t)t[i].node << 32 | i;
    } else if (q->next_to_blocked_goal) {
      nset += next_to(S, t[i].node, set + nset, i);
      t[i].offset += step_h;
    }
  }
  astar__sort_set(ctx->extra->set, nset);
  S->set = ctx->extra->set;
  S->nset = nset;
  S->targets = t;
  S->ntargets = nt;
  return nset;
}

/* ---- the A* family's early exits ---- */

/* Closest reachable: keeps the expanded node nearest a goal (then the
 * cheaper, then the lower index). */
void astar__closer(astar__run *S, uint32_t u, int32_t x, int32_t y, double g) {
  double d = HUGE_VAL;
  size_t i;
  for (i = 0; i < S->ntargets; i++) {
    double v = astar__h_d(&S->dist, x - S->targets[i].x,
                           y - S->targets[i].y);
    if (v < d) d = v;
  }
  if (d < S->best_d ||
      (d == S->best_d && (g < S->best_g || (g == S->best_g && u < S->best)))) {
    S->best_d = d;
    S->best_g = g;
    S->best = u;
  }
}


/* A callback cost below the bound on the step from -> to: recorded in
 * the result. */
int astar__bound_broken(astar__run *S, uint32_t from, uint32_t to,
                        double cost, double bound) {
  astar_result *r = &S->r;
  astar_xy(S->G, from, &r->bad_x1, &r->bad_y1);
  astar_xy(S->G, to, &r->bad_x2, &r->bad_y2);
  r->bad_cost = cost;
  r->bad_bound = bound;
  return ASTAR_EBOUND;
}

/* Sets *apart when the start and the goal lie in different zones: no chain
 * of moves joins them, whatever callbacks say (they only close tiles and
 * refuse steps), so the search may end at once.  Only for a plain start
 * and goal, both passable: options that search elsewhere (several goals,
 * closest, a blocked start or goal they allow) skip it. */
int astar__zones_exit(const astar_grid *G, const astar_query *q,
                      const uint64_t *passable, int *apart) {
  uint32_t a = astar_index(G, q->sx, q->sy), b = astar_index(G, q->gx, q->gy);
  *apart = 0;
  if (q->no_zones || a == b || q->closest || q->ngoals != 0 ||
      q->no_main_goal || q->leave_blocked_start || q->next_to_blocked_goal)
    return ASTAR_OK;
  if (!astar__bit(passable, a) || !astar__bit(passable, b)) return ASTAR_OK;
  return astar__zones_apart_size(G, q->unit, q->size, a, b, apart);
}

/* ---- the A* loop's tile callback (astar_loop.c) ---- */

/* The tile callback's cost for tile v (0: impassable), memoized. */
int astar__tile_value(astar__run *S, uint32_t v, double *out) {
  astar__memo *memo = S->s->memo + v;
  int32_t x, y;
  double c = 0.0;
  if (memo->gen == S->tag) {
    *out = memo->cost;
    return ASTAR_OK;
  }
  astar_xy(S->G, v, &x, &y);
  if (S->q.tile_fn(S->q.fn_ud, x, y, (double)S->L.cost[v], &c) != ASTAR_OK)
    return ASTAR_ECALLBACK;
  if (c > 0.0 && c < S->bound) return astar__bound_broken(S, v, v, c, S->bound);
  memo->cost = c > 0.0 ? c : 0.0;
  memo->gen = S->tag;
  *out = memo->cost;
  return ASTAR_OK;
}

/* The legal moves out of u once the tile callback has had its say: a tile
 * it closes is impassable, for the corner rule too.  The corner rule looks
 * at the tiles beside a diagonal (passable and not closed by the
 * callback), not at whether the cardinal steps are allowed: a cardinal
 * step banned by a height limit does not close its tile. */
int astar__callback_moves(astar__run *S, uint32_t u, unsigned *moves) {
  static const unsigned corner[4][2] = {{ASTAR_N, ASTAR_E},
                                        {ASTAR_S, ASTAR_E},
                                        {ASTAR_S, ASTAR_W},
                                        {ASTAR_N, ASTAR_W}};
  /* the diagonals beside each cardinal direction N E S W */
  static const unsigned beside[4] = {
      1u << ASTAR_NE | 1u << ASTAR_NW, 1u << ASTAR_NE | 1u << ASTAR_SE,
      1u << ASTAR_SE | 1u << ASTAR_SW, 1u << ASTAR_SW | 1u << ASTAR_NW};
  const astar_grid *G = S->G;
  int rule = G->diagonal;
  unsigned m = *moves, keep = 0, open = 0, d;
  int corners = rule == ASTAR_DIAG_BOTH_FREE || rule == ASTAR_DIAG_ONE_FREE;
  double c = 0.0; /* tile_value sets it (the analyzer cannot tell) */
  int st;
  for (d = 0; d < 4; d++) {
    uint32_t v = (uint32_t)((int32_t)u + G->offset[d]);
    if (!(m & (1u << d)) && !(corners && (m & beside[d]))) continue;
    if (!astar__bit(S->L.passable, v)) continue;
    if (S->mark != NULL && astar__marked(S->mark, S->mtag, v,
                                         ASTAR__MARK_AVOID))
      continue; /* avoided: blocked for the step and the corner rule */
    if ((st = astar__tile_value(S, v, &c)) != ASTAR_OK) return st;
    if (c > 0.0) open |= 1u << d;
  }
  keep = m & open & 15u;
  for (d = 4; d < 8; d++) {
    uint32_t v;
    if (!(m & (1u << d))) continue;
    if (corners) {
      unsigned a = (open >> corner[d - 4][0]) & 1u;
      unsigned b = (open >> corner[d - 4][1]) & 1u;
      if (rule == ASTAR_DIAG_BOTH_FREE ? !(a & b) : !(a | b)) continue;
    }
    v = (uint32_t)((int32_t)u + G->offset[d]);
    if (S->mark != NULL && astar__marked(S->mark, S->mtag, v,
                                         ASTAR__MARK_AVOID))
      continue;
    if ((st = astar__tile_value(S, v, &c)) != ASTAR_OK) return st;
    if (c > 0.0) keep |= 1u << d;
  }
  *moves = keep;
  return ASTAR_OK;
}

/*
 * The front door of every search: check the query, consult the capability
 * table (which options each algorithm takes), pick the engine, and run it
 * whole (astar_find_path) or in slices (astar_search_begin / _step).
 *
 * The map is read only.  Everything a search writes lives in its context
 * (context.c); the state between slices is the context's astar__run.
 */
#include "astar.h"
#include "internal.h"
#include "subgoal.h"

#include <math.h>
#include <string.h>

void astar_query_defaults(astar_query *q) {
  memset(q, 0, sizeof *q);
  q->heuristic = ASTAR_H_DEFAULT;
  q->weight = 1.0;
  q->max_cost = HUGE_VAL;
}

/* ---- the capability table ---- */

/* What an algorithm takes beyond the plain query (start, goal, unit). */
enum {
  TAKES_OPTIONS = 1,    /* ties, goals, max_cost, max_length, closest,
                           blocked start/goal, a heuristic function */
  TAKES_MAX_NODES = 2,
  TAKES_CALLBACKS = 4,  /* tile and move callbacks */
  TAKES_HEIGHTS = 8,    /* a unit with a height rule */
  TAKES_HEURISTIC = 16, /* a heuristic other than the default */
  TAKES_WEIGHT = 32,    /* weight > 1 */
  TAKES_ANY_MAP = 64,   /* any movement rule, step lengths and costs */
  TAKES_LINKS = 128     /* a grid with links */
};
#define TAKES_ALL 255

static const unsigned takes[] = {
    /* AUTO (A* when JPS does not apply) */ TAKES_ALL,
    /* ASTAR */ TAKES_ALL,
    /* JPS */ 0,
    /* DIJKSTRA */ TAKES_ALL,
    /* BFS */ TAKES_ALL,
    /* GREEDY */ TAKES_ALL,
    /* BEAM */ TAKES_ALL,
    /* IDA */ TAKES_MAX_NODES | TAKES_HEIGHTS | TAKES_HEURISTIC | TAKES_ANY_MAP,
    /* BIDIR */ TAKES_MAX_NODES | TAKES_HEIGHTS | TAKES_HEURISTIC |
        TAKES_ANY_MAP,
    /* BIDIR_BFS */ TAKES_MAX_NODES | TAKES_HEIGHTS | TAKES_HEURISTIC |
        TAKES_ANY_MAP,
    /* THETA */ TAKES_MAX_NODES | TAKES_ANY_MAP,
    /* LAZY_THETA */ TAKES_MAX_NODES | TAKES_ANY_MAP};
#define LAST_ALGO ASTAR_ALGO_LAZY_THETA

static int unit_has_heights(const astar_grid *G, int unit) {
  const astar_unit *u = unit > 0 && unit < ASTAR_MAX_UNITS ? G->units[unit]
                                                            : G->units[0];
  return !astar__unit_heights_free(G, u);
}

int astar_query_refusal(const astar_grid *G, const astar_query *q) {
  unsigned t;
  if (q->algorithm < ASTAR_ALGO_AUTO || q->algorithm > LAST_ALGO)
    return ASTAR_REFUSE_NONE; /* query_ok refuses it */
  t = takes[q->algorithm];
  if (q->algorithm >= ASTAR_ALGO_THETA && G->diagonal == ASTAR_DIAG_HEX)
    return ASTAR_REFUSE_SQUARE;
  if (!(t & TAKES_LINKS) && G->nlinks != 0) return ASTAR_REFUSE_LINKS;
  if (!(t & TAKES_ANY_MAP)) {
    if (!astar__jps_movement(G)) {
      if (G->diagonal != ASTAR_DIAG_BOTH_FREE) return ASTAR_REFUSE_MOVEMENT;
      return ASTAR_REFUSE_LENGTHS;
    }
    if (!astar__unit_defined(G, q->unit)) return ASTAR_REFUSE_UNIT;
  }
  if (!(t & TAKES_CALLBACKS) && (q->tile_fn != NULL || q->move_fn != NULL))
    return ASTAR_REFUSE_CALLBACKS;
  if (!(t & TAKES_OPTIONS) &&
      (astar__uses_options(q) || astar__uses_overlay(q) || (q->max_nodes != 0 && !(t & TAKES_MAX_NODES))))
    return (t & TAKES_MAX_NODES) ? ASTAR_REFUSE_OPTIONS_BUT_NODES
                                 : ASTAR_REFUSE_OPTIONS;
  if (!(t & TAKES_HEIGHTS) && unit_has_heights(G, q->unit))
    return ASTAR_REFUSE_HEIGHTS;
  if (!(t & TAKES_HEURISTIC) && q->heuristic != ASTAR_H_DEFAULT)
    return ASTAR_REFUSE_HEURISTIC;
  if (!(t & TAKES_WEIGHT) && q->weight != 1.0) return ASTAR_REFUSE_WEIGHT;
  if (!(t & TAKES_ANY_MAP)) {
    astar__jps_layer J;
    int st = astar__jps_layer_size(G, q->unit, q->size, &J);
    if (st == ASTAR_EPREPARE) return ASTAR_REFUSE_PREPARE;
    if (st != 1) return ASTAR_REFUSE_UNIFORM;
  }
  return ASTAR_REFUSE_NONE;
}

/* ---- checks ---- */

static int query_ok(const astar_grid *G, const astar_query *q) {
  if (G->cost == NULL) return 0;
  if (q->sx < 0 || q->sx >= G->width || q->gx < 0 || q->gx >= G->width)
    return 0;
  if (q->sy < 0 || q->sy >= G->height || q->gy < 0 || q->gy >= G->height)
    return 0;
  if (q->heuristic < ASTAR_H_DEFAULT || q->heuristic > ASTAR_H_ZERO) return 0;
  if (!(q->min_cost >= 0.0 && q->min_cost <= 3.5e38)) return 0;
  if (q->algorithm < ASTAR_ALGO_AUTO || q->algorithm > LAST_ALGO) return 0;
  if (q->size < 0 || q->size > ASTAR_MAX_SIZE) return 0;
  if (!(q->weight >= 1.0 && q->weight <= 1e9)) return 0;
  if (q->ties < ASTAR_TIES_LARGER_G || q->ties > ASTAR_TIES_RANDOM) return 0;
  if (q->algorithm == ASTAR_ALGO_BEAM && q->beam_width < 1) return 0;
  if (!(q->max_cost >= 0.0)) return 0;
  if (q->ngoals > 0x7FFFFFFF / 8 || (q->ngoals > 0 && q->goals == NULL))
    return 0;
  if (q->no_main_goal && q->ngoals == 0) return 0;
  if ((q->navoid > 0 && q->avoid == NULL) ||
      (q->nextra > 0 && (q->extra_tiles == NULL || q->extra_costs == NULL)))
    return 0;
  {
    size_t i;
    for (i = 0; i < q->navoid; i++) {
      int32_t x = q->avoid[2 * i], y = q->avoid[2 * i + 1];
      if (x < 0 || x >= G->width || y < 0 || y >= G->height) return 0;
    }
    for (i = 0; i < q->nextra; i++) {
      int32_t x = q->extra_tiles[2 * i], y = q->extra_tiles[2 * i + 1];
      double c = q->extra_costs[i];
      if (x < 0 || x >= G->width || y < 0 || y >= G->height) return 0;
      if (!(c >= 0.0 && c <= 3.4e38)) return 0;
    }
  }
  {
    size_t i;
    for (i = 0; i < q->ngoals; i++) {
      int32_t x = q->goals[2 * i], y = q->goals[2 * i + 1];
      if (x < 0 || x >= G->width || y < 0 || y >= G->height) return 0;
      if (q->goal_costs != NULL &&
          !(q->goal_costs[i] >= 0.0 && q->goal_costs[i] <= 1e300))
        return 0;
    }
  }
  return 1;
}

int astar_grid_prepared(const astar_grid *g, const astar_query *q) {
  astar_layer L;
  int st = astar_grid_layer_size(g, q->unit, q->size, &L);
  const astar_zones *z;
  if (st != ASTAR_OK) return 0;
  if (!q->no_zones && ((z = astar__zones_size(g, q->unit, q->size)) == NULL ||
                       !astar__zones_ready(z)))
    return 0;
  if (q->algorithm == ASTAR_ALGO_AUTO || q->algorithm == ASTAR_ALGO_JPS) {
    astar_query jq = *q;
    jq.algorithm = ASTAR_ALGO_JPS;
    if (astar_query_refusal(g, &jq) == ASTAR_REFUSE_PREPARE) return 0;
  }
  return 1;
}

/* ---- begin, step, whole ---- */

/* A query on a subgoal graph pays for two scans (the start's, the
 * goal's) and the goal's climb before its first expansion: more than
 * plain JPS takes to answer most short queries.  So a search whose
 * start and goal are at most PROBE_RANGE tiles apart on both axes, where
 * the graph would run, tries JPS first for at most PROBE_NODES
 * expansions, and begins the graph's search only when JPS has not
 * finished by then (a short way round a long wall): what the probe costs
 * is bounded, and either answer is optimal.  In slices, the probe's
 * expansions count against max_nodes as the graph's do, and the result's
 * counts include them.  The graph's build asks probe_pays whether that
 * pays on the map (not in a maze, where JPS seldom ends that soon and
 * the graph is quick); measured in docs/speed.md (sessions 15, 16). */
#define PROBE_RANGE 64
#define PROBE_NODES 32
#define PROBE_SAMPLES 128

static int probe_first(const astar_grid *G, const astar_query *q) {
  int32_t dx = q->gx - q->sx, dy = q->gy - q->sy;
  const astar__subgoals *sg;
  if (q->algorithm != ASTAR_ALGO_AUTO || q->size > 1 || G->nlinks != 0 ||
      (sg = astar__subgoals_for(G, q->unit)) == NULL || !sg->probe)
    return 0;
  if (dx < 0) dx = -dx;
  if (dy < 0) dy = -dy;
  return dx <= PROBE_RANGE && dy <= PROBE_RANGE;
}

/* probe: a search that would run on the subgoal graph runs plain JPS
 * instead, for at most PROBE_NODES expansions (R->probe_left; then
 * astar_search_step begins the graph's search). */
static int begin(astar_search *s, const astar_grid *G, const astar_query *q,
                 astar_result *r, int probe) {
  astar__run *R;
  int st, engine, refusal;
  const uint32_t *jt = NULL;
  memset(r, 0, sizeof *r);
  r->outcome = ASTAR_NO_PATH;
  r->goal_index = -1;
  if (s->busy) return ASTAR_EBUSY;
  if (!query_ok(G, q)) return ASTAR_EINVAL;
  if (q->algorithm == ASTAR_ALGO_JPS || q->algorithm >= ASTAR_ALGO_IDA) {
    refusal = astar_query_refusal(G, q);
    if (refusal == ASTAR_REFUSE_PREPARE) return ASTAR_EPREPARE;
    /* JPS on a grid with links gives way to A* (r->algorithm says so) */
    if (refusal != ASTAR_REFUSE_NONE &&
        !(refusal == ASTAR_REFUSE_LINKS && q->algorithm == ASTAR_ALGO_JPS))
      return ASTAR_EINVAL;
  }
  /* from here on the last search's path is gone, also on failure */
  s->state = ASTAR_SEARCH_IDLE;
  s->last_outcome = ASTAR_NO_PATH;
  s->explored_tag = s->explored_tag_b = 0;
  s->last_waypoints = 0;
  if (q->algorithm >= ASTAR_ALGO_THETA) {
    engine = ASTAR__ENGINE_THETA;
  } else if (q->algorithm >= ASTAR_ALGO_IDA) {
    engine = q->algorithm == ASTAR_ALGO_IDA ? ASTAR__ENGINE_IDA
                                            : ASTAR__ENGINE_BIDIR;
  } else if (q->algorithm == ASTAR_ALGO_JPS) {
    /* refused above where it cannot run */
    engine = G->nlinks != 0 ? ASTAR__ENGINE_LOOP : ASTAR__ENGINE_JPS;
  } else if (q->algorithm == ASTAR_ALGO_AUTO) {
    astar_query jq = *q;
    jq.algorithm = ASTAR_ALGO_JPS;
    refusal = astar_query_refusal(G, &jq);
    if (refusal == ASTAR_REFUSE_PREPARE) return ASTAR_EPREPARE;
    engine = refusal == ASTAR_REFUSE_NONE ? ASTAR__ENGINE_JPS
                                          : ASTAR__ENGINE_LOOP;
    /* a prepared static map: its subgoal graph, unless stale */
    if (engine == ASTAR__ENGINE_JPS && q->size <= 1 && G->nlinks == 0) {
      if (astar__subgoals_for(G, q->unit) != NULL)
        engine = probe ? ASTAR__ENGINE_JPS : ASTAR__ENGINE_SUBGOAL;
      else
        jt = astar__jumps_for(G, q->unit); /* JPS+ (NULL: plain JPS) */
    }
  } else {
    engine = ASTAR__ENGINE_LOOP;
  }
  if (s->run == NULL) {
    s->run = astar__mem(s->alloc, s->alloc_ud, 1, sizeof(astar__run));
    if (s->run == NULL) return ASTAR_ENOMEM;
  }
  if ((st = astar__context_fit(s, G->ntiles)) != ASTAR_OK) return st;
  s->stride = G->stride;
  memcpy(s->offset, G->offset, sizeof s->offset);
  s->map_version = G->version;
  s->map_landmarks = G->landmarks_serial;
  R = s->run;
  memset(R, 0, sizeof *R);
  R->G = G;
  R->s = s;
  R->q = *q;
  R->r = *r;
  R->engine = engine;
  R->best = UINT32_MAX;
  R->best_d = R->best_g = HUGE_VAL;
  R->start = astar_index(G, q->sx, q->sy);
  R->goal = astar_index(G, q->gx, q->gy);
  s->last_start = R->start;
  s->last_goal = R->goal;
  switch (engine) {
  case ASTAR__ENGINE_JPS:
    R->r.algorithm = jt != NULL ? ASTAR_ALGO_JPS_PLUS : ASTAR_ALGO_JPS;
    R->jt = jt;
    if (probe) /* only where the graph would run: see the engine's choice */
      R->probe_left = PROBE_NODES;
    break;
  case ASTAR__ENGINE_SUBGOAL:
    R->r.algorithm = ASTAR_ALGO_SUBGOAL;
    R->sg = astar__subgoals_for(G, q->unit);
    break;
  case ASTAR__ENGINE_LOOP:
    R->r.algorithm =
        q->algorithm == ASTAR_ALGO_AUTO || q->algorithm == ASTAR_ALGO_JPS
            ? ASTAR_ALGO_ASTAR
            : q->algorithm;
    break;
  default: R->r.algorithm = q->algorithm; break;
  }
  s->busy = 1;
  if (engine == ASTAR__ENGINE_JPS)
    st = astar__jps_start(R);
  else if (engine == ASTAR__ENGINE_SUBGOAL)
    st = astar__subgoal_start(R);
  else if (engine == ASTAR__ENGINE_LOOP)
    st = astar__loop_start(R);
  else
    st = astar__engine_setup(R);
  if (st == 1) astar__path_corners(R);
  s->busy = 0;
  *r = R->r;
  if (st == 1) { /* the outcome is known without searching */
    s->state = ASTAR_SEARCH_DONE;
    return ASTAR_OK;
  }
  if (st != ASTAR_OK) {
    s->last_outcome = ASTAR_NO_PATH;
    s->explored_tag = s->explored_tag_b = 0;
    return st;
  }
  s->state = ASTAR_SEARCH_RUNNING;
  r->outcome = ASTAR_RUNNING;
  return ASTAR_OK;
}

int astar_search_begin(astar_search *s, const astar_grid *G,
                       const astar_query *q, astar_result *r) {
  return begin(s, G, q, r, probe_first(G, q));
}

/* The end of a step whose engine returned st (s busy until here). */
static int step_end(astar_search *s, astar__run *R, int st,
                    astar_result *r) {
  if (st == ASTAR_OK) astar__path_corners(R);
  s->busy = 0;
  *r = R->r;
  if (st == ASTAR__SUSPENDED) {
    r->outcome = ASTAR_RUNNING;
    return ASTAR_OK;
  }
  if (st != ASTAR_OK) {
    s->state = ASTAR_SEARCH_IDLE;
    s->last_outcome = ASTAR_NO_PATH;
    r->cost = 0.0;
    return st;
  }
  s->state = ASTAR_SEARCH_DONE;
  return ASTAR_OK;
}

int astar_search_step(astar_search *s, const astar_grid *G,
                      uint32_t max_nodes, astar_result *r) {
  astar__run *R = s->run;
  int st;
  if (s->busy) return ASTAR_EBUSY;
  if (s->state == ASTAR_SEARCH_DONE) {
    *r = R->r;
    return ASTAR_OK;
  }
  if (s->state != ASTAR_SEARCH_RUNNING || R->G != G) return ASTAR_EINVAL;
  if (R->probe_left != 0) { /* a short query's JPS, then maybe the graph */
    uint32_t cap = R->probe_left, before = R->expanded, ex, gen;
    astar_query q;
    if (max_nodes != 0 && max_nodes < cap) cap = max_nodes;
    s->busy = 1;
    st = astar__jps_step(R, cap);
    /* JPS answered, failed, or spent the slice with the probe left */
    if (st != ASTAR__SUSPENDED || (R->probe_left -= R->expanded - before) != 0)
      return step_end(s, R, st, r);
    s->busy = 0;
    /* the probe is spent: the graph's search, from the start; its counts
       go on from the probe's */
    ex = R->expanded;
    gen = R->r.generated;
    q = R->q;
    if ((st = begin(s, G, &q, r, 0)) != ASTAR_OK) return st;
    R->expanded += ex;
    R->r.expanded += ex;
    R->r.generated += gen;
    *r = R->r;
    if (s->state == ASTAR_SEARCH_DONE) return ASTAR_OK;
    r->outcome = ASTAR_RUNNING;
    if (max_nodes != 0 && (max_nodes -= cap) == 0) return ASTAR_OK;
  }
  s->busy = 1;
  switch (R->engine) {
  case ASTAR__ENGINE_LOOP: st = astar__loop_step(R, max_nodes); break;
  case ASTAR__ENGINE_JPS: st = astar__jps_step(R, max_nodes); break;
  case ASTAR__ENGINE_SUBGOAL: st = astar__subgoal_step(R, max_nodes); break;
  case ASTAR__ENGINE_IDA: st = astar__ida(R); break;
  case ASTAR__ENGINE_THETA: st = astar__theta(R); break;
  default: st = astar__bidir(R); break;
  }
  return step_end(s, R, st, r);
}

/* Below 128 x 128 tiles (where prepare's "auto" keeps no graph), never;
 * else PROBE_SAMPLES short queries of unit on G (start and goal open, drawn
 * by a fixed generator, so a map always gets the same answer), each by
 * plain JPS for at most PROBE_NODES expansions, with no zones (a goal
 * out of reach counts as not answered): 1 when JPS answers at least 9 in
 * 10 (it stops once more than a tenth have missed).  Any failure
 * (memory) answers 0: the probe is only a shortcut. */
static int probe_pays(const astar_grid *G, int unit, astar_search *use) {
  astar_search own, *s = use;
  astar_query q;
  astar_result r;
  astar__jps_layer J;
  uint32_t seed = 0x2545F491u, n = 0, hits = 0, tries;
  int st = ASTAR_OK;
  if ((uint64_t)G->width * (uint64_t)G->height < 16384u || /* 128 x 128 */
      astar__jps_layer_size(G, unit, 1, &J) != 1)
    return 0;
  if (s == NULL || s->busy) {
    s = &own;
    astar_search_init(s, G->alloc, G->alloc_ud);
  }
  astar_query_defaults(&q);
  q.unit = unit;
  q.algorithm = ASTAR_ALGO_JPS;
  q.no_zones = 1;
  for (tries = 0; n < PROBE_SAMPLES && tries < 64u * PROBE_SAMPLES &&
                  (n - hits) * 10u <= PROBE_SAMPLES;
       tries++) {
    int32_t v[4], k;
    for (k = 0; k < 4; k++) { /* xorshift32 */
      seed ^= seed << 13;
      seed ^= seed >> 17;
      seed ^= seed << 5;
      v[k] = (int32_t)(seed >> 1);
    }
    q.sx = v[0] % G->width;
    q.sy = v[1] % G->height;
    q.gx = q.sx + v[2] % (2 * PROBE_RANGE + 1) - PROBE_RANGE;
    q.gy = q.sy + v[3] % (2 * PROBE_RANGE + 1) - PROBE_RANGE;
    if (q.gx < 0 || q.gx >= G->width || q.gy < 0 || q.gy >= G->height ||
        !astar__bit(J.passable, astar_index(G, q.sx, q.sy)) ||
        !astar__bit(J.passable, astar_index(G, q.gx, q.gy)))
      continue;
    if ((st = astar_search_begin(s, G, &q, &r)) != ASTAR_OK) break;
    if (r.outcome == ASTAR_RUNNING &&
        (st = astar_search_step(s, G, PROBE_NODES, &r)) != ASTAR_OK)
      break;
    n++;
    hits += r.outcome != ASTAR_RUNNING;
  }
  if (s == &own)
    astar_search_release(s);
  else
    s->state = ASTAR_SEARCH_IDLE; /* no sample's search left running */
  return st == ASTAR_OK && n == PROBE_SAMPLES && hits * 10u >= n * 9u;
}

/* The graph (subgoal.c), then whether short queries try JPS first: here,
 * because probe_pays runs searches, which subgoal.c (below the engines)
 * may not.  Its queries ask for JPS by name, so the new graph is not in
 * their way. */
int astar_subgoal_build_with(astar_grid *g, int unit, int *refusal,
                             astar_search *s) {
  int st = astar__subgoal_build(g, unit, refusal);
  if (st == ASTAR_OK)
    astar__subgoal_set_probe(g, unit, probe_pays(g, unit, s));
  return st;
}

int astar_subgoal_build(astar_grid *g, int unit, int *refusal) {
  return astar_subgoal_build_with(g, unit, refusal, NULL);
}

int astar_find_path(astar_search *s, const astar_grid *G,
                    const astar_query *q, astar_result *r) {
  int st = astar_search_begin(s, G, q, r);
  if (st != ASTAR_OK || r->outcome != ASTAR_RUNNING) return st;
  return astar_search_step(s, G, 0, r);
}

/* ---- the best path so far ---- */

int astar_search_partial(const astar_search *s, astar_trail *t,
                         astar_result *r) {
  const astar__run *R = s->run;
  astar_trail w;
  uint32_t len = 1;
  memset(t, 0, sizeof *t);
  if (R == NULL || s->busy || s->state == ASTAR_SEARCH_IDLE) return 0;
  if (s->state == ASTAR_SEARCH_DONE && s->last_outcome == ASTAR_FOUND) {
    t->mode = ASTAR__TRAIL_PATH; /* the finished path (or closest's) */
    t->node = s->last_goal;
    *r = R->r;
    return 1;
  }
  if (R->best == UINT32_MAX ||
      (R->engine != ASTAR__ENGINE_LOOP && R->engine != ASTAR__ENGINE_JPS))
    return 0;
  t->mode = R->engine == ASTAR__ENGINE_JPS ? ASTAR__TRAIL_JUMPS
                                           : ASTAR__TRAIL_STAMPS;
  t->node = t->anchor = R->best;
  w = *t;
  while (astar_trail_prev(s, &w)) len++;
  *r = R->r;
  r->cost = R->best_g;
  r->length = len;
  r->partial = 1;
  r->goal_index = -1;
  astar_xy(R->G, R->best, &r->end_x, &r->end_y);
  return 1;
}

int astar_trail_prev(const astar_search *s, astar_trail *t) {
  const astar__run *R = s->run;
  uint32_t node = t->node;
  switch (t->mode) {
  case ASTAR__TRAIL_PATH: return astar_path_prev(s, &t->node);
  case ASTAR__TRAIL_STAMPS:
    if (node == R->start) return 0;
    t->node = (uint32_t)((int32_t)node -
                         s->offset[s->stamp[node] & ASTAR__STAMP_DIR]);
    return 1;
  case ASTAR__TRAIL_JUMPS:
    if (node == R->start) return 0;
    if (node == t->anchor) /* a jump point: on to its parent */
      t->anchor = s->heap_pos[node];
    { /* back along the straight run, then the diagonal one */
      uint32_t stride = (uint32_t)s->stride;
      int32_t dx = (int32_t)(t->anchor % stride) - (int32_t)(node % stride);
      int32_t dy = (int32_t)(t->anchor / stride) - (int32_t)(node / stride);
      int32_t ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
      int32_t sx = dx > 0 ? 1 : dx < 0 ? -1 : 0, sy = dy > 0 ? 1 : dy < 0 ? -1 : 0;
      if (ax > ay) sy = 0;
      else if (ay > ax) sx = 0;
      t->node = (uint32_t)((int32_t)node + sy * (int32_t)stride + sx);
    }
    return 1;
  default: return 0;
  }
}

/* ---- corners: a trail walked corner by corner ---- */

int astar_trail_corner_prev(const astar_search *s, astar_trail *t) {
  astar_trail a = *t, b;
  if (!astar_trail_prev(s, &a)) return 0;
  if (t->mode == ASTAR__TRAIL_PATH && s->last_waypoints) {
    int64_t w = astar__direction(s, a.node, t->node);
    for (;;) { /* on while the legs keep the direction */
      b = a;
      if (!astar_trail_prev(s, &b) ||
          astar__direction(s, b.node, a.node) != w)
        break;
      a = b;
    }
  } else {
    int32_t d = (int32_t)t->node - (int32_t)a.node;
    if (astar__unit_step(s, d)) {
      for (;;) { /* on while the steps repeat (a link's jump: one) */
        b = a;
        if (!astar_trail_prev(s, &b) || (int32_t)a.node - (int32_t)b.node != d)
          break;
        a = b;
      }
    }
  }
  *t = a;
  return 1;
}

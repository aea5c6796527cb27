/*
 * Reading a query: the arguments of grid:find_path and grid:next_step
 * (and of the same two on a snapshot, a query object, a pathfinder's
 * request), every option (heuristic, weight, unit, cost callbacks,
 * algorithm, ties, open_list, path, seed, beam_width, goals, cutoffs,
 * closest, blocked start and goal, stats, explored, zones, landmarks,
 * size), the avoid and extra_cost overlays, the check that the algorithm
 * takes the options, and the options of a snapshot's batch.  Running the
 * query, the callback bridge and the raise path are in lua_query.c.
 *
 * Every argument is read before the map is taken (Lua code may run:
 * option tables with metamethods, finalizers); lq_read_query and
 * lq_read_snap_query then take the map, and no Lua code runs from there
 * until the search.
 */
#include "astar.h"
#include "compat.h"
#include "lua_args.h"
#include "lua_grid.h"
#include "lua_query.h"
#include "lua_snapshot.h"

#include <lauxlib.h>
#include <lua.h>
#include <math.h>
#include <string.h>

const char *const lq_heuristic_names[] = {
    "default", "manhattan", "chebyshev", "octile", "euclidean", "zero", NULL};
#define HEURISTIC_LIST                                                  \
  "'default', 'manhattan', 'chebyshev', 'octile', 'euclidean', 'zero' " \
  "or a function"
/* A query's options, in one list: the names (query_keys, and
 * next_step_keys, which adds "remember") and their bits in
 * lq_query.present (K_ names), so the two cannot drift apart. */
#define QUERY_OPTIONS(X)                                                  \
  X(heuristic) X(weight) X(unit) X(tile_cost) X(move_cost) X(min_cost)    \
  X(algorithm) X(ties) X(seed) X(beam_width) X(goals) X(max_cost)         \
  X(max_length) X(max_nodes) X(closest) X(leave_blocked_start)            \
  X(next_to_blocked_goal) X(stats) X(explored) X(zones) X(size) X(avoid)  \
  X(extra_cost) X(landmarks) X(open_list) X(path)
#define OPTION_NAME(n) #n,
#define OPTION_KEY(n) K_##n,
enum { QUERY_OPTIONS(OPTION_KEY) K_COUNT };
static const char *const query_keys[] = {QUERY_OPTIONS(OPTION_NAME) NULL};
static const char *const next_step_keys[] = {
    QUERY_OPTIONS(OPTION_NAME) "remember", NULL};
/* Does Q's options table (maybe) hold option k?  When it surely does
 * not, reading it would give nil: the default stands. */
#define HAS(Q, k) ((((Q)->present) >> (k)) & 1u)

/* Algorithms by name: each one is a setting of the core's engine.  Add a
 * row to add a name (weight: the default weight it implies, 0 = 1). */
typedef struct algorithm_row {
  const char *name;
  int algorithm; /* ASTAR_ALGO_* */
  double weight;
} algorithm_row;

static const algorithm_row algorithms[] = {
    {"auto", ASTAR_ALGO_AUTO, 0},
    {"astar", ASTAR_ALGO_ASTAR, 0},
    {"jps", ASTAR_ALGO_JPS, 0},
    {"dijkstra", ASTAR_ALGO_DIJKSTRA, 0},
    {"bfs", ASTAR_ALGO_BFS, 0},
    {"greedy", ASTAR_ALGO_GREEDY, 0},
    {"weighted", ASTAR_ALGO_ASTAR, 1.5},
    {"beam", ASTAR_ALGO_BEAM, 0},
    {"ida", ASTAR_ALGO_IDA, 0},
    {"bidirectional", ASTAR_ALGO_BIDIR, 0},
    {"bidirectional_bfs", ASTAR_ALGO_BIDIR_BFS, 0},
    {"theta", ASTAR_ALGO_THETA, 0},
    {"lazy_theta", ASTAR_ALGO_LAZY_THETA, 0},
    {NULL, 0, 0}};
#define ALGORITHM_LIST                                                     \
  "'auto', 'astar', 'jps', 'dijkstra', 'bfs', 'greedy', 'weighted', "      \
  "'beam', 'ida', 'bidirectional', 'bidirectional_bfs', 'theta', "         \
  "'lazy_theta'"

static const char *const tie_names[] = {"larger_g", "straight", "random",
                                        NULL};
#define TIE_LIST "'larger_g', 'straight', 'random'"
static const char *const open_list_names[] = {"auto", "heap", NULL};
#define OPEN_LIST_LIST "'auto', 'heap'"
static const char *const path_names[] = {"tiles", "corners", NULL};
#define PATH_LIST "'tiles', 'corners'"

#define DEFAULT_BEAM_WIDTH 1000
#define MAX_SEED 9007199254740991.0 /* 2^53 - 1: exact on every runtime */

/* A boolean option (absent: dflt). */
static int bool_option(lua_State *L, int arg, const char *fname,
                       const char *name, int dflt) {
  char buf[64];
  int v = dflt, t;
  lua_getfield(L, arg, name);
  t = lua_type(L, -1);
  if (t == LUA_TBOOLEAN)
    v = lua_toboolean(L, -1);
  else if (t != LUA_TNIL)
    la_error(L, arg, fname, "%s must be a boolean, got %s", name,
             la_describe(L, -1, buf, sizeof buf));
  lua_pop(L, 1);
  return v;
}

/* An integer option in [lo, hi] (absent: dflt). */
static double int_option(lua_State *L, int arg, const char *fname,
                         const char *name, double lo, double hi,
                         double dflt) {
  char buf[64];
  double v = dflt;
  lua_getfield(L, arg, name);
  if (!lua_isnil(L, -1)) {
    v = lua_type(L, -1) == LUA_TNUMBER ? (double)lua_tonumber(L, -1) : NAN;
    if (!(v >= lo && v <= hi && v == floor(v)))
      la_error(L, arg, fname, "%s must be an integer in [%.0f, %.0f], got %s",
               name, lo, hi, la_describe(L, -1, buf, sizeof buf));
  }
  lua_pop(L, 1);
  return v;
}

static int has_goals(lua_State *L, int arg) {
  int has;
  if (lua_type(L, arg) != LUA_TTABLE) return 0;
  lua_getfield(L, arg, "goals");
  has = !lua_isnil(L, -1);
  lua_pop(L, 1);
  return has;
}

/* goals = {x1, y1, x2, y2, ...}: read into a userdata left on the stack. */
static void goals_option(lua_State *L, int arg, const char *fname,
                         const astar_grid *g, lq_query *Q) {
  astar_query *q = &Q->q;
  char buf[64];
  size_t n, i;
  int32_t *v;
  int t;
  lua_getfield(L, arg, "goals");
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    return;
  }
  /* the goals are checked against the grid's size: a grid closed by the
   * options' metamethods has none */
  if (g->cost == NULL) luaL_error(L, "%s: the grid is closed", fname);
  t = lua_gettop(L);
  if (lua_type(L, t) != LUA_TTABLE)
    la_error(L, arg, fname, "goals must be a table {x1, y1, x2, y2, ...}, "
             "got %s", la_describe(L, t, buf, sizeof buf));
  n = compat_rawlen(L, t);
  if (n == 0 || n % 2 != 0)
    la_error(L, arg, fname, "goals must hold x, y pairs (a positive even "
             "count of numbers), got %.0f numbers", (double)n);
  if (n / 2 > 0x7FFFFFFF / 8)
    la_error(L, arg, fname, "goals: too many (%.0f)", (double)n * 0.5);
  v = (int32_t *)compat_newuserdata(L, n * sizeof(int32_t));
  for (i = 0; i < n; i++) {
    int32_t hi = (i % 2 == 0) ? g->width : g->height;
    double c;
    lua_rawgeti(L, t, (int)(i + 1));
    c = lua_type(L, -1) == LUA_TNUMBER ? (double)lua_tonumber(L, -1) : NAN;
    if (!(c == floor(c) && c >= 1 && c <= hi))
      la_error(L, arg, fname, "goals[%.0f] (%s of goal %.0f) must be an "
               "integer in 1..%d, got %s", (double)(i + 1),
               i % 2 == 0 ? "x" : "y", (double)(i - i % 2) * 0.5 + 1, (int)hi,
               la_describe(L, -1, buf, sizeof buf));
    v[i] = (int32_t)c - 1;
    lua_pop(L, 1);
  }
  q->goals = v;
  q->ngoals = n / 2;
  Q->goals = lua_gettop(L);
  /* the userdata stays on the stack (above the table) until the call ends */
}

/* ---- reading a query ---- */

/* The heuristic option is a function (the caller reads a name else). */
static int heuristic_function(lua_State *L, int arg) {
  int is_fn;
  lua_getfield(L, arg, "heuristic");
  is_fn = lua_type(L, -1) == LUA_TFUNCTION;
  lua_pop(L, 1);
  return is_fn;
}

static void read_options(lua_State *L, int arg, const char *fname,
                         const astar_grid *g, lq_query *Q) {
  char buf[64];
  astar_query *q = &Q->q;
  double w;
  int i;

  if (Q->snapshot) { /* functions cannot run on a worker thread */
    static const char *const fns[] = {"tile_cost", "move_cost",
                                       "heuristic", NULL};
    for (i = 0; fns[i] != NULL; i++) {
      lua_getfield(L, arg, fns[i]);
      if (lua_type(L, -1) == LUA_TFUNCTION)
        la_error(L, arg, fname, "%s: a snapshot takes no Lua functions "
                 "(they cannot run on another thread); bake the costs into "
                 "the grid, or search the grid itself", fns[i]);
      lua_pop(L, 1);
    }
  }
  if (Q->batch) {
    static const char *const tabs[] = {"stats", "explored", NULL};
    static const char *const lists[] = {"avoid", "extra_cost", NULL};
    for (i = 0; tabs[i] != NULL; i++) {
      lua_getfield(L, arg, tabs[i]);
      if (!lua_isnil(L, -1))
        la_error(L, arg, fname, "%s: not for batches (find_path on the "
                 "snapshot gives it)", tabs[i]);
      lua_pop(L, 1);
    }
    for (i = 0; lists[i] != NULL; i++) {
      lua_getfield(L, arg, lists[i]);
      if (!lua_isnil(L, -1))
        la_error(L, arg, fname, "%s: not for batches (the same tiles for "
                 "every query: put them in the grid before the snapshot, or "
                 "use find_path on the snapshot)", lists[i]);
      lua_pop(L, 1);
    }
  }

  /* the unit's size (every query that reads options takes it) */
  q->size = HAS(Q, K_size) ? la_size_option(L, arg, fname, g) : 1;
  if (Q->snapshot && q->size > 1)
    la_error(L, arg, fname, "size: a snapshot holds the layers of one-tile "
             "units only (size 1), got %d; search the grid itself for "
             "bigger units", q->size);
  /* costs */
  if (HAS(Q, K_tile_cost))
    Q->tile = la_typed_option(L, arg, fname, "tile_cost", LUA_TFUNCTION);
  if (HAS(Q, K_move_cost))
    Q->move = la_typed_option(L, arg, fname, "move_cost", LUA_TFUNCTION);
  if (HAS(Q, K_min_cost))
    q->min_cost = la_number(L, arg, fname, "min_cost", 0,
                            3.4028234663852886e38, "a number in [0, 3.4e+38]",
                            0);
  if (Q->tile) q->tile_fn = lq_tile_hook;
  if (Q->move) q->move_fn = lq_move_hook;
  q->fn_ud = Q;

  if (HAS(Q, K_algorithm))
    lua_getfield(L, arg, "algorithm");
  else
    lua_pushnil(L);
  if (!lua_isnil(L, -1)) {
    const algorithm_row *row = NULL;
    i = la_name_index(L, -1, &algorithms[0].name, sizeof algorithms[0]);
    if (i >= 0) row = &algorithms[i];
    if (row == NULL) {
      la_error(L, arg, fname, "algorithm must be one of " ALGORITHM_LIST
               ", got %s", la_describe(L, -1, buf, sizeof buf));
      return; /* not reached: la_error raises */
    }
    q->algorithm = row->algorithm;
    if (row->algorithm != ASTAR_ALGO_AUTO) Q->algorithm = row->name;
    if (row->weight > 0) {
      lua_getfield(L, arg, "weight");
      if (lua_isnil(L, -1)) q->weight = row->weight;
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  if (HAS(Q, K_ties))
    q->ties = la_enum(L, arg, fname, "ties", tie_names, TIE_LIST,
                      ASTAR_TIES_LARGER_G);
  if (HAS(Q, K_open_list))
    q->open_list = la_enum(L, arg, fname, "open_list", open_list_names,
                           OPEN_LIST_LIST, ASTAR_OPEN_AUTO);
  if (HAS(Q, K_path))
    q->corners = la_enum(L, arg, fname, "path", path_names, PATH_LIST, 0);
  if (HAS(Q, K_seed)) {
    w = int_option(L, arg, fname, "seed", 0, MAX_SEED, 0);
    q->seed = (uint64_t)w;
  }
  w = HAS(Q, K_beam_width) ? int_option(L, arg, fname, "beam_width", 1,
                                        2147483647.0, DEFAULT_BEAM_WIDTH)
                           : DEFAULT_BEAM_WIDTH;
  q->beam_width = (uint32_t)w;
  if (HAS(Q, K_max_cost))
    q->max_cost = la_number(L, arg, fname, "max_cost", 1e-300, HUGE_VAL,
                            "a positive number", HUGE_VAL);
  if (HAS(Q, K_max_length))
    q->max_length = (uint32_t)int_option(L, arg, fname, "max_length", 1,
                                         2147483647.0, 0);
  if (HAS(Q, K_max_nodes))
    q->max_nodes = (uint32_t)int_option(L, arg, fname, "max_nodes", 1,
                                        2147483647.0, 0);
  if (HAS(Q, K_closest))
    q->closest = bool_option(L, arg, fname, "closest", 0);
  if (HAS(Q, K_leave_blocked_start))
    q->leave_blocked_start = bool_option(L, arg, fname,
                                         "leave_blocked_start", 0);
  if (HAS(Q, K_next_to_blocked_goal))
    q->next_to_blocked_goal = bool_option(L, arg, fname,
                                          "next_to_blocked_goal", 0);
  if (HAS(Q, K_goals)) goals_option(L, arg, fname, g, Q);
  if (HAS(Q, K_heuristic) && heuristic_function(L, arg)) {
    lua_getfield(L, arg, "heuristic");
    Q->hfn = lua_gettop(L);
    q->heuristic_fn = lq_heuristic_hook;
    q->heuristic_ud = Q;
  }
  if (HAS(Q, K_stats))
    Q->stats = la_typed_option(L, arg, fname, "stats", LUA_TTABLE);
  q->want_peak = Q->stats != 0;
  if (HAS(Q, K_explored))
    Q->explored = la_typed_option(L, arg, fname, "explored", LUA_TTABLE);
  if (HAS(Q, K_avoid) || HAS(Q, K_extra_cost))
    lq_overlay_tables(L, arg, fname, &Q->avoid, &Q->extra);
}

/* ---- overlays: avoid and extra_cost ---- */

void lq_overlay_tables(lua_State *L, int arg, const char *fname, int *avoid,
                       int *extra) {
  *avoid = la_typed_option(L, arg, fname, "avoid", LUA_TTABLE);
  *extra = la_typed_option(L, arg, fname, "extra_cost", LUA_TTABLE);
}

/* Reads the integer t[i] in 1..hi (raw) as 0-based. */
static int32_t list_coord(lua_State *L, int arg, const char *fname,
                          const char *list, int t, size_t i, int32_t hi,
                          size_t per) {
  char buf[64];
  double c;
  size_t tile = i / per + 1;
  lua_rawgeti(L, t, (int)(i + 1));
  c = lua_type(L, -1) == LUA_TNUMBER ? (double)lua_tonumber(L, -1) : NAN;
  if (!(c == floor(c) && c >= 1 && c <= hi))
    la_error(L, arg, fname, "%s[%.0f] (%s of tile %.0f) must be an integer "
             "in 1..%d, got %s", list, (double)(i + 1),
             i % per == 0 ? "x" : "y", (double)tile, (int)hi,
             la_describe(L, -1, buf, sizeof buf));
  lua_pop(L, 1);
  return (int32_t)c - 1;
}

/* A buffer of the overlays: ud's (lg_buffer), or with ud NULL a new
 * userdata left on the stack (it lives as long as the call). */
static void *overlay_buffer(lua_State *L, lgrid *ud, int which,
                            size_t bytes) {
  if (ud != NULL) return lg_buffer(L, ud, which, bytes);
  return compat_newuserdata(L, bytes);
}

/* lq_overlay_fill on the map g: the lists go into ud's buffers, or with
 * ud NULL (a snapshot's query) into userdata left on the stack. */
static void overlay_fill(lua_State *L, int arg, const char *fname,
                         const astar_grid *g, lgrid *ud, astar_query *q,
                         int avoid, int extra) {
  char buf[64];
  size_t n, i;
  if (avoid != 0) {
    int32_t *v;
    n = compat_rawlen(L, avoid);
    if (n % 2 != 0)
      la_error(L, arg, fname, "avoid must hold x, y pairs (an even count "
               "of numbers), got %.0f numbers", (double)n);
    if (n / 2 > 0x7FFFFFFF / 8)
      la_error(L, arg, fname, "avoid: too many tiles (%.0f)", (double)n / 2);
    v = (int32_t *)overlay_buffer(L, ud, LG_BUF_AVOID, (n + 2) * sizeof(int32_t));
    for (i = 0; i < n; i++)
      v[i] = list_coord(L, arg, fname, "avoid", avoid, i,
                        i % 2 == 0 ? g->width : g->height, 2);
    q->avoid = v;
    q->navoid = n / 2;
  }
  if (extra != 0) {
    int32_t *v;
    double *c;
    n = compat_rawlen(L, extra);
    if (n % 3 != 0)
      la_error(L, arg, fname, "extra_cost must hold x, y, cost triples (a "
               "count of numbers divisible by 3), got %.0f numbers",
               (double)n);
    if (n / 3 > 0x7FFFFFFF / 8)
      la_error(L, arg, fname, "extra_cost: too many tiles (%.0f)",
               (double)n / 3);
    v = (int32_t *)overlay_buffer(L, ud, LG_BUF_EXTRA_XY,
                             (2 * (n / 3) + 2) * sizeof(int32_t));
    c = (double *)overlay_buffer(L, ud, LG_BUF_EXTRA_COST,
                            (n / 3 + 1) * sizeof(double));
    for (i = 0; i < n / 3; i++) {
      double k;
      v[2 * i] = list_coord(L, arg, fname, "extra_cost", extra, 3 * i,
                            g->width, 3);
      v[2 * i + 1] = list_coord(L, arg, fname, "extra_cost", extra,
                                3 * i + 1, g->height, 3);
      lua_rawgeti(L, extra, (int)(3 * i + 3));
      k = lua_type(L, -1) == LUA_TNUMBER ? (double)lua_tonumber(L, -1) : NAN;
      if (!(k >= 0.0 && k <= 3.4e38))
        la_error(L, arg, fname, "extra_cost[%.0f] (cost of tile %.0f) must "
                 "be a finite number >= 0, got %s", (double)(3 * i + 3),
                 (double)i + 1, la_describe(L, -1, buf, sizeof buf));
      lua_pop(L, 1);
      c[i] = k;
    }
    q->extra_tiles = v;
    q->extra_costs = c;
    q->nextra = n / 3;
  }
}

void lq_overlay_fill(lua_State *L, int arg, const char *fname, lgrid *ud,
                     astar_query *q, int avoid, int extra) {
  overlay_fill(L, arg, fname, &ud->g, ud, q, avoid, extra);
}

/* The options beside read_options' (heuristic name, weight, unit, zones)
 * at arg, for the map g, unit names from the object at stack index obj
 * (a grid, or a snapshot: then its unit must be in the copy). */
static void query_options(lua_State *L, int arg, const char *fname,
                          const astar_grid *g, int obj, lq_query *Q) {
  astar_query *q = &Q->q;
  /* each option read only when the table may hold it: an absent one
     keeps astar_query_defaults' value, which is what reading it gives */
  if (HAS(Q, K_heuristic) && !heuristic_function(L, arg))
    q->heuristic = la_enum(L, arg, fname, "heuristic", lq_heuristic_names,
                           HEURISTIC_LIST, ASTAR_H_DEFAULT);
  if (HAS(Q, K_weight))
    q->weight = la_number(L, arg, fname, "weight", 1.0, 1e9,
                          "a number in [1, 1e+09]", 1.0);
  if (HAS(Q, K_unit)) q->unit = lt_unit_option(L, arg, fname, obj);
  if (Q->snapshot && !astar_unit_defined(g, q->unit)) {
    char buf[64];
    lua_getfield(L, arg, "unit");
    la_error(L, arg, fname, "unit %s is not in this snapshot (grid:"
             "snapshot(units) left it out)",
             la_describe(L, -1, buf, sizeof buf));
  }
  if (HAS(Q, K_zones)) q->no_zones = !bool_option(L, arg, fname, "zones", 1);
  if (HAS(Q, K_landmarks))
    q->no_landmarks = !bool_option(L, arg, fname, "landmarks", 1);
  read_options(L, arg, fname, g, Q);
}

/* lq_read on the map bounds (a grid's or a snapshot's), unit names from
 * the object at stack index obj. */
static void read_args(lua_State *L, const char *fname, const astar_grid *bounds,
                      int obj, lq_query *Q, const char *const keys[]) {
  astar_query *q = &Q->q;
  int opts;
  if (keys == NULL) keys = query_keys;
  Q->L = L;
  Q->arg = 6;
  astar_query_defaults(q);
  q->sx = la_x(L, 2, fname, "sx", bounds);
  q->sy = la_y(L, 3, fname, "sy", bounds);
  opts = la_options_mask(L, 6, fname, keys, &Q->present);
  if (opts && lua_isnil(L, 4) && lua_isnil(L, 5) && HAS(Q, K_goals) &&
      has_goals(L, 6)) {
    q->no_main_goal = 1; /* the goals option alone */
  } else {
    q->gx = la_x(L, 4, fname, "gx", bounds);
    q->gy = la_y(L, 5, fname, "gy", bounds);
  }
  if (opts) query_options(L, 6, fname, bounds, obj, Q);
  if (Q->out != 0 && Q->explored != 0 && lua_rawequal(L, Q->out, Q->explored))
    la_error(L, 6, fname, "explored must not be the path table (argument %d)",
             Q->out);
  /* room for the callbacks and the read-out, before anything is busy */
  luaL_checkstack(L, 16, fname);
}

void lq_read(lua_State *L, const char *fname, lgrid *ud, int grid,
             lq_query *Q, const char *const keys[]) {
  Q->ud = ud;
  read_args(L, fname, &ud->g, grid, Q, keys);
}

/* Does Q's algorithm take Q's options on g?  A Lua error naming them at
 * argument arg when not. */
static void check_algorithm(lua_State *L, int arg, const char *fname,
                            const astar_grid *g, const lq_query *Q) {
  const astar_query *q = &Q->q;
  int reason;
  if (q->algorithm == ASTAR_ALGO_JPS || q->algorithm >= ASTAR_ALGO_IDA) {
    reason = astar_query_refusal(g, q);
    if (reason == ASTAR_REFUSE_LINKS && q->algorithm == ASTAR_ALGO_JPS)
      reason = ASTAR_REFUSE_NONE; /* A* runs instead (stats.algorithm) */
    if (reason != ASTAR_REFUSE_NONE)
      la_error(L, arg, fname, "algorithm '%s' needs %s",
               Q->algorithm != NULL ? Q->algorithm : "jps",
               lq_refusal_words(reason));
  }
}

void lq_check(lua_State *L, const char *fname, astar_grid *g, lq_query *Q) {
  astar_query *q = &Q->q;
  int st;
  st = astar_grid_prepare_size(g, q->unit, q->size,
                               q->no_zones ? 0u : ASTAR_PREPARE_ZONES);
  if (st != ASTAR_OK) la_raise(L, st, fname);
  check_algorithm(L, 6, fname, g, Q);
}

/* Reads the query (lq_read, with the option keys of fname), takes the
 * map, fills the overlays and prepares it (lq_check); returns the map (no
 * Lua code runs from here until the search). */
astar_grid *lq_read_query(lua_State *L, const char *fname, lq_query *Q,
                          const char *const keys[]) {
  lgrid *ud = lg_check(L, fname);
  astar_grid *g;
  lq_read(L, fname, ud, 1, Q, keys);
  /* every argument read: now the map (no Lua code runs until the search) */
  g = lg_core(L, ud, fname);
  lq_overlay_fill(L, 6, fname, ud, &Q->q, Q->avoid, Q->extra);
  lq_check(L, fname, g, Q);
  return g;
}

/* The snapshot's lq_read_query: every argument read while a hold of our own
 * keeps the copy alive (option metamethods may close the snapshot), the
 * overlays into userdata on the stack, then the map and the algorithm's
 * check (a snapshot is prepared when it is made: nothing to prepare). */
const astar_grid *lq_read_snap_query(lua_State *L, const char *fname,
                                     lq_query *Q, const char *const keys[]) {
  lsnap *sud = lsn_check(L, 1, fname);
  lholder *hold = lw_push_holder(L);
  const astar_grid *g;
  astar_snapshot_retain(sud->snap);
  hold->s = sud->snap;
  Q->snapshot = 1;
  read_args(L, fname, astar_snapshot_grid(hold->s), 1, Q, keys);
  overlay_fill(L, 6, fname, astar_snapshot_grid(hold->s), NULL, &Q->q,
               Q->avoid, Q->extra);
  luaL_checkstack(L, 16, fname);
  /* every argument read: now the map (no Lua code runs until the search) */
  g = lsn_core(L, sud, fname);
  lw_holder_free(hold); /* the userdata's own hold keeps it now */
  Q->sud = sud;
  check_algorithm(L, 6, fname, g, Q);
  return g;
}

/* ---- a batch's options ---- */

void lq_batch_options(lua_State *L, int arg, const char *fname,
                      const astar_grid *g, int obj, astar_query *q) {
  lq_query Q;
  memset(&Q, 0, sizeof Q);
  Q.L = L;
  Q.snapshot = Q.batch = 1;
  Q.arg = arg;
  astar_query_defaults(&Q.q);
  if (la_options_mask(L, arg, fname, query_keys, &Q.present))
    query_options(L, arg, fname, g, obj, &Q);
  check_algorithm(L, arg, fname, g, &Q);
  *q = Q.q;
  q->fn_ud = NULL;
  q->heuristic_ud = NULL;
}

const char *const *const lq_query_keys = query_keys;
const char *const *const lq_next_step_keys = next_step_keys;

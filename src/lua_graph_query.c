/*
 * graph:find_path: the query on a Graph (lua_graph.c): its arguments and
 * options (algorithm, weight, heuristic name or function, ties, seed,
 * goals, max_cost, max_nodes, closest, stats), the heuristic callback, the
 * search on the graph's own context, the path read out and the stats.
 *
 * As for the grid's queries: every argument is read before the graph is
 * taken (an option's metamethod may close it); the search runs with the
 * graph busy; the heuristic callback runs under lua_pcall and its error is
 * raised again, unchanged, once the graph is idle; the path is read out
 * under lua_pcall while the graph is still busy.
 */
#include "astar.h"
#include "compat.h"
#include "lua_args.h"
#include "lua_graph.h"
#include "lua_grid.h"
#include "lua_query.h"

#include <lauxlib.h>
#include <lua.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct gquery {
  lua_State *L;
  lgraph *ud;
  int hfn;      /* the heuristic function's stack index, 0 when none */
  int stats;    /* the stats table, 0 when none */
  int failed;   /* a callback raised: its error is on top */
  int bad;      /* a callback returned what it must not: msg */
  const char *algorithm;
  astar_graph_query q;
  astar_result r;
  char msg[160];
} gquery;

static int heuristic_hook(void *p, uint32_t node, uint32_t goal,
                          double *out) {
  gquery *Q = (gquery *)p;
  lua_State *L = Q->L;
  char buf[64];
  if (!lua_checkstack(L, 4)) {
    snprintf(Q->msg, sizeof Q->msg, "callbacks nest too deep");
    Q->bad = 1;
    return -1;
  }
  lua_pushvalue(L, Q->hfn);
  lua_pushinteger(L, (lua_Integer)node + 1);
  lua_pushinteger(L, (lua_Integer)goal + 1);
  if (lua_pcall(L, 2, 1, 0) != 0) {
    Q->failed = 1;
    return -1;
  }
  if (lua_type(L, -1) == LUA_TNUMBER) {
    double v = (double)lua_tonumber(L, -1);
    if (v >= 0.0 && v <= 1e300) {
      *out = v;
      lua_pop(L, 1);
      return ASTAR_OK;
    }
  }
  snprintf(Q->msg, sizeof Q->msg, "heuristic returned %s for %lu -> %lu; "
           "expected a finite number >= 0",
           la_describe(L, -1, buf, sizeof buf), (unsigned long)node + 1,
           (unsigned long)goal + 1);
  lua_pop(L, 1);
  Q->bad = 1;
  return -1;
}

static const char *const query_keys[] = {
    "heuristic", "weight", "algorithm", "ties", "seed", "goals",
    "max_cost", "max_nodes", "closest", "stats", NULL};

typedef struct galgo {
  const char *name;
  int algorithm;
  double weight;
} galgo;
static const galgo algorithms[] = {
    {"astar", ASTAR_ALGO_ASTAR, 0},   {"dijkstra", ASTAR_ALGO_DIJKSTRA, 0},
    {"bfs", ASTAR_ALGO_BFS, 0},       {"greedy", ASTAR_ALGO_GREEDY, 0},
    {"weighted", ASTAR_ALGO_ASTAR, 1.5},
    {"bidirectional", ASTAR_ALGO_BIDIR, 0}, {NULL, 0, 0}};
#define ALGO_LIST \
  "'astar', 'dijkstra', 'bfs', 'greedy', 'weighted', 'bidirectional'"
static const char *const heuristic_names[] = {"euclidean", "zero", NULL};
static const char *const tie_names[] = {"larger_g", "random", NULL};
static const char *const outcome_names[] = {
    "found", "no_path", "start_blocked", "goal_blocked", "cutoff", "running"};

static double int_option(lua_State *L, int arg, const char *fname,
                         const char *name, double lo, double hi) {
  char buf[64];
  double v = 0;
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

/* The goals: b (arg 3), or the goals option (an array of ids). */
static void read_goals(lua_State *L, lgraph *ud, int opts, const char *fname,
                       gquery *Q) {
  astar_graph *g = &ud->g;
  size_t n = 0, i;
  int list = 0;
  if (opts) list = la_typed_option(L, 4, fname, "goals", LUA_TTABLE);
  if (list) {
    n = (size_t)compat_rawlen(L, list);
    if (n == 0) la_error(L, 4, fname, "goals must not be empty");
  }
  if (!lua_isnil(L, 3) || !list) n++;
  if (n > ud->goals_cap) {
    void *p = NULL;
    if (n <= 0x3FFFFFFF)
      p = g->alloc(g->alloc_ud, ud->goals, ud->goals_cap * sizeof(uint32_t),
                   n * sizeof(uint32_t));
    if (p == NULL) {
      lgr_raise(L, ASTAR_ENOMEM, fname);
      return; /* not reached */
    }
    ud->goals = p;
    ud->goals_cap = n;
  }
  i = 0;
  if (!lua_isnil(L, 3) || !list)
    ud->goals[i++] = lgr_node_arg(L, 3, 3, fname, "b", g);
  if (list) {
    size_t k;
    for (k = 1; i < n; k++) {
      char name[32];
      lua_rawgeti(L, list, (int)k);
      snprintf(name, sizeof name, "goals[%lu]", (unsigned long)k);
      ud->goals[i++] = lgr_node_arg(L, -1, 4, fname, name, g);
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  Q->q.goals = ud->goals;
  Q->q.ngoals = n;
}

static void read_options(lua_State *L, const char *fname, gquery *Q) {
  astar_graph_query *q = &Q->q;
  char buf[64];
  int i;
  lua_getfield(L, 4, "algorithm");
  if (!lua_isnil(L, -1)) {
    i = la_name_index(L, -1, &algorithms[0].name, sizeof algorithms[0]);
    if (i < 0) {
      la_error(L, 4, fname, "algorithm must be one of " ALGO_LIST ", got %s",
               la_describe(L, -1, buf, sizeof buf));
      return; /* not reached: la_error raises */
    }
    q->algorithm = algorithms[i].algorithm;
    Q->algorithm = algorithms[i].name;
    if (algorithms[i].weight > 0) q->weight = algorithms[i].weight;
  }
  lua_pop(L, 1);
  q->weight = la_number(L, 4, fname, "weight", 1.0, 1e9,
                        "a number in [1, 1e+09]", q->weight);
  lua_getfield(L, 4, "heuristic");
  if (lua_type(L, -1) == LUA_TFUNCTION) {
    Q->hfn = lua_gettop(L); /* stays on the stack */
    q->heuristic_fn = heuristic_hook;
    q->heuristic_ud = Q;
  } else {
    lua_pop(L, 1);
    q->heuristic = la_enum(L, 4, fname, "heuristic", heuristic_names,
                           "'euclidean', 'zero' or a function", 0) == 1
                       ? ASTAR_H_ZERO
                       : ASTAR_H_EUCLIDEAN;
  }
  q->ties = la_enum(L, 4, fname, "ties", tie_names, "'larger_g', 'random'",
                    0) == 1
                ? ASTAR_TIES_RANDOM
                : ASTAR_TIES_LARGER_G;
  q->seed = (uint64_t)int_option(L, 4, fname, "seed", 0, 9007199254740991.0);
  q->max_cost = la_number(L, 4, fname, "max_cost", 1e-300, HUGE_VAL,
                          "a positive number", HUGE_VAL);
  q->max_nodes = (uint32_t)int_option(L, 4, fname, "max_nodes", 1,
                                      2147483647.0);
  lua_getfield(L, 4, "closest");
  if (!lua_isnil(L, -1) && lua_type(L, -1) != LUA_TBOOLEAN)
    la_error(L, 4, fname, "closest must be a boolean, got %s",
             la_describe(L, -1, buf, sizeof buf));
  q->closest = lua_toboolean(L, -1);
  lua_pop(L, 1);
  if (q->algorithm == ASTAR_ALGO_BIDIR &&
      (q->closest || q->heuristic_fn != NULL || q->ties != ASTAR_TIES_LARGER_G ||
       q->max_cost < HUGE_VAL))
    la_error(L, 4, fname, "algorithm 'bidirectional' takes no closest, "
             "heuristic function, ties or max_cost");
  Q->stats = la_typed_option(L, 4, fname, "stats", LUA_TTABLE);
}

/* In protected mode, the graph busy: the path into the table at 1 (or a
 * new one when it is nil).  Upvalue-free: reached through READ_UPVALUE. */
int lgr_read_path(lua_State *L) {
  lgraph *ud = (lgraph *)lua_touserdata(L, 1);
  uint32_t len, i;
  const uint32_t *path = astar_graph_path(&ud->ctx, &len);
  if (lua_istable(L, 2))
    lua_pushvalue(L, 2);
  else
    lua_createtable(L, (int)len, 0);
  for (i = 0; i < len; i++) {
    lua_pushinteger(L, (lua_Integer)path[i] + 1);
    lua_rawseti(L, -2, (int)i + 1);
  }
  if (lua_istable(L, 2)) lq_clear_from(L, lua_gettop(L), (lua_Integer)len);
  return 1;
}

static void fill_stats(lua_State *L, const gquery *Q) {
  int t = Q->stats;
  const astar_result *r = &Q->r;
  int ended = r->outcome == ASTAR_FOUND || r->partial;
  lua_pushinteger(L, (lua_Integer)r->expanded);
  lua_setfield(L, t, "expanded");
  lua_pushinteger(L, (lua_Integer)r->generated);
  lua_setfield(L, t, "generated");
  lua_pushstring(L, outcome_names[r->outcome]);
  lua_setfield(L, t, "status");
  lua_pushstring(L, Q->algorithm != NULL ? Q->algorithm : "astar");
  lua_setfield(L, t, "algorithm");
  lua_pushboolean(L, r->partial);
  lua_setfield(L, t, "partial");
  if (ended) {
    lua_pushinteger(L, (lua_Integer)r->end_x + 1);
    lua_setfield(L, t, "end_node");
    lua_pushinteger(L, (lua_Integer)r->goal_index + 1);
  } else {
    lua_pushnil(L);
    lua_setfield(L, t, "end_node");
    lua_pushnil(L);
  }
  if (!ended || r->goal_index < 0) {
    lua_pop(L, 1);
    lua_pushnil(L);
  }
  lua_setfield(L, t, "goal");
}

/* g:find_path(a, b [, options [, out]]) -> path, cost, expanded [, reason]
 *   | nil, reason, expanded.  b may be nil when options.goals is given. */
static int g_find_path(lua_State *L) {
  const char *fname = "find_path";
  lgraph *ud = lgr_check(L, fname);
  gquery Q;
  int opts, st, found;
  memset(&Q, 0, sizeof Q);
  Q.L = L;
  Q.ud = ud;
  lgr_out_arg(L, 5, fname);
  lua_settop(L, 5);
  astar_graph_query_defaults(&Q.q);
  Q.q.start = lgr_node_arg(L, 2, 2, fname, "a", &ud->g);
  opts = la_options(L, 4, fname, query_keys);
  read_goals(L, ud, opts, fname, &Q);
  if (opts) read_options(L, fname, &Q);
  luaL_checkstack(L, 16, fname);
  (void)lgr_core(L, ud, fname); /* an option's metamethod may have closed it */
  if (Q.q.goals != ud->goals) luaL_error(L, "%s: the graph is closed", fname);
  lgr_prepare(L, ud, fname);
  ud->busy++;
  st = astar_graph_find_path(&ud->ctx, &ud->g, &Q.q, &Q.r);
  if (st != ASTAR_OK) {
    if (--ud->busy == 0 && ud->closed) lgr_release(ud);
    if (Q.failed) lua_error(L); /* the callback's own error, on top */
    if (Q.bad) luaL_error(L, "%s: %s", fname, Q.msg);
    lgr_raise(L, st, fname);
  }
  found = Q.r.outcome == ASTAR_FOUND || Q.r.partial;
  if (found) {
    lua_pushvalue(L, READ_UPVALUE);
    lua_pushlightuserdata(L, ud);
    lua_pushvalue(L, 5);
    st = lua_pcall(L, 2, 1, 0);
  }
  if (--ud->busy == 0 && ud->closed) {
    lgr_release(ud);
    luaL_error(L, "%s: the graph was closed during the search", fname);
  }
  if (found && st != 0) lua_error(L);
  /* the answer is on the stack: the stats table may do anything now */
  if (Q.stats != 0) fill_stats(L, &Q);
  if (!found) {
    lua_pushnil(L);
    lua_pushstring(L, outcome_names[Q.r.outcome]);
    lua_pushinteger(L, (lua_Integer)Q.r.expanded);
    lgr_report(L, ud);
    return 3;
  }
  lua_pushnumber(L, (lua_Number)Q.r.cost);
  lua_pushinteger(L, (lua_Integer)Q.r.expanded);
  if (Q.r.partial) lua_pushstring(L, outcome_names[Q.r.outcome]);
  lgr_report(L, ud);
  return Q.r.partial ? 4 : 3;
}

const luaL_Reg lgr_query_methods[] = {{"find_path", g_find_path},
                                      {NULL, NULL}};
const char *const *const lgr_query_keys = query_keys;

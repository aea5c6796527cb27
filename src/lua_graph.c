/*
 * The Graph type: explicit graphs (waypoints, room graphs, road maps) for
 * Lua.  astar.graph([n | {nodes = ..., edges = ...}]) makes one; nodes are
 * integers 1..n, edges carry costs, find_path runs the core's graph search
 * (graph_search.c) on the graph's own search context.
 *
 * Safety follows the Grid's rules (lua_grid.h): every argument is read
 * before the graph is taken (an option's metamethod may close it); the
 * search runs with the graph busy (a heuristic callback that edits or
 * searches the same graph gets "busy"; one that closes it defers the
 * release until the search is over); callbacks run under lua_pcall and
 * their errors are raised again, unchanged, once the graph is idle; the
 * path is read out under lua_pcall while the graph is still busy (a
 * finalizer run by that allocation cannot touch it).  Memory comes from
 * the state's allocator and growth is reported to the collector.
 */
#include "astar.h"
#include "compat.h"
#include "lua_args.h"
#include "lua_grid.h"

#include <lauxlib.h>
#include <lua.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define GRAPH_MT "astar.Graph"
#define MT_UPVALUE lua_upvalueindex(1)
#define READ_UPVALUE lua_upvalueindex(2)
#define REPORT_STEP ((size_t)64 * 1024)
#define COST_WORDS "a finite number >= 0"

typedef struct lgraph {
  astar_graph g;
  astar_search ctx;
  uint32_t *goals;  /* the goals of the last query */
  size_t goals_cap;
  int busy, closed;
  size_t reported;  /* bytes the collector has been told of */
} lgraph;

static size_t held(const lgraph *ud) {
  return astar_graph_memory(&ud->g) + astar_search_memory(&ud->ctx) +
         ud->goals_cap * sizeof(uint32_t);
}

static void release(lgraph *ud) {
  if (ud->g.alloc != NULL) {
    if (ud->goals != NULL)
      ud->g.alloc(ud->g.alloc_ud, ud->goals, ud->goals_cap * sizeof(uint32_t),
                  0);
    ud->goals = NULL;
    ud->goals_cap = 0;
    astar_search_release(&ud->ctx);
    astar_graph_release(&ud->g);
  }
  ud->closed = 1;
}

/* Tells the collector of the memory grown since last time (a step of it:
 * finalizers may run, so this comes last in a method). */
static void report(lua_State *L, lgraph *ud) {
  size_t now;
  if (ud->closed) return;
  now = held(ud);
  if (now > ud->reported + REPORT_STEP) {
    size_t kb = (now - ud->reported) / 1024u;
    ud->reported = now;
    lua_gc(L, LUA_GCSTEP, kb > 0x7FFFFFFF ? 0x7FFFFFFF : (int)kb);
  }
}

static lgraph *to_graph(lua_State *L, int idx) {
  lgraph *ud = (lgraph *)lua_touserdata(L, idx);
  if (ud == NULL || !lua_getmetatable(L, idx)) return NULL;
  if (!lua_rawequal(L, -1, MT_UPVALUE)) ud = NULL;
  lua_pop(L, 1);
  return ud;
}

/* The graph's core, after its method read its arguments. */
static astar_graph *core(lua_State *L, lgraph *ud, const char *fname) {
  if (ud->closed) luaL_error(L, "%s: the graph is closed", fname);
  if (ud->busy)
    luaL_error(L, "%s: the graph is busy with a search (called from inside "
                  "a search on the same graph)", fname);
  return &ud->g;
}

static lgraph *check(lua_State *L, const char *fname) {
  char buf[64];
  lgraph *ud = to_graph(L, 1);
  if (ud == NULL) {
    la_error(L, 1, fname, "graph expected, got %s",
             la_describe(L, 1, buf, sizeof buf));
    return NULL; /* not reached: la_error raises */
  }
  (void)core(L, ud, fname);
  return ud;
}

static void raise(lua_State *L, int st, const char *fname) {
  if (st == ASTAR_ETOOBIG)
    luaL_error(L, "%s: too many nodes or edges", fname);
  la_raise(L, st, fname);
}

/* A node id at arg (1..n), returned 0-based. */
static uint32_t node_arg(lua_State *L, int idx, int arg, const char *fname,
                         const char *name, const astar_graph *g) {
  char buf[64];
  double v = lua_type(L, idx) == LUA_TNUMBER ? (double)lua_tonumber(L, idx)
                                             : NAN;
  if (!(v == floor(v)) || isinf(v))
    la_error(L, arg, fname, "%s must be a node id, got %s", name,
             la_describe(L, idx, buf, sizeof buf));
  if (v < 1 || v > (double)g->n) {
    if (g->n == 0)
      la_error(L, arg, fname, "%s: no node %s (the graph has no nodes)",
               name, la_describe(L, idx, buf, sizeof buf));
    la_error(L, arg, fname, "%s out of range 1..%lu, got %s", name,
             (unsigned long)g->n, la_describe(L, idx, buf, sizeof buf));
  }
  return (uint32_t)v - 1u;
}

static double cost_arg(lua_State *L, int idx, int arg, const char *fname,
                       const char *name) {
  char buf[64];
  double c = lua_type(L, idx) == LUA_TNUMBER ? (double)lua_tonumber(L, idx)
                                             : NAN;
  if (!(c >= 0.0 && c <= ASTAR_GRAPH_MAX_COST))
    la_error(L, arg, fname, "%s must be " COST_WORDS ", got %s", name,
             la_describe(L, idx, buf, sizeof buf));
  return c;
}

static int bool_arg(lua_State *L, int arg, const char *fname,
                    const char *name, int dflt) {
  char buf[64];
  int t = lua_type(L, arg);
  if (t == LUA_TNONE || t == LUA_TNIL) return dflt;
  if (t != LUA_TBOOLEAN)
    la_error(L, arg, fname, "%s must be a boolean, got %s", name,
             la_describe(L, arg, buf, sizeof buf));
  return lua_toboolean(L, arg);
}

/* A position coordinate (finite). */
static double coord(lua_State *L, int idx, int arg, const char *fname,
                    const char *name) {
  char buf[64];
  double v = lua_type(L, idx) == LUA_TNUMBER ? (double)lua_tonumber(L, idx)
                                             : NAN;
  if (!(v >= -1e300 && v <= 1e300))
    la_error(L, arg, fname, "%s must be a finite number, got %s", name,
             la_describe(L, idx, buf, sizeof buf));
  return v;
}

/* ---- construction ---- */

static lgraph *push_graph(lua_State *L) {
  void *aud;
  lua_Alloc alloc = lua_getallocf(L, &aud);
  lgraph *ud = (lgraph *)compat_newuserdata(L, sizeof(lgraph));
  memset(ud, 0, sizeof *ud);
  astar_graph_init(&ud->g, alloc, aud);
  astar_search_init(&ud->ctx, alloc, aud);
  lua_pushvalue(L, MT_UPVALUE);
  lua_setmetatable(L, -2);
  return ud;
}

/* {x, y [, z]} or {x = , y = , z = } at idx: *placed, pos */
static void node_entry(lua_State *L, int idx, lua_Integer i, double *pos,
                       int *placed) {
  char name[48];
  int k, t;
  *placed = 0;
  pos[0] = pos[1] = pos[2] = 0.0;
  if (lua_type(L, idx) != LUA_TTABLE) {
    char buf[64];
    la_error(L, 1, "graph", "nodes[%ld] must be a table, got %s", (long)i,
             la_describe(L, idx, buf, sizeof buf));
  }
  lua_rawgeti(L, idx, 1);
  t = lua_type(L, -1);
  lua_pop(L, 1);
  for (k = 0; k < 3; k++) {
    static const char *const keys[] = {"x", "y", "z"};
    if (t != LUA_TNIL)
      lua_rawgeti(L, idx, k + 1);
    else
      lua_getfield(L, idx, keys[k]);
    if (k == 0 && lua_isnil(L, -1)) {
      lua_pop(L, 1);
      return; /* no position */
    }
    if (k < 2 || !lua_isnil(L, -1)) {
      snprintf(name, sizeof name, "nodes[%ld].%s", (long)i, keys[k]);
      pos[k] = coord(L, -1, 1, "graph", name);
    }
    lua_pop(L, 1);
  }
  *placed = 1;
}

/* edges[i] = {a, b, cost [, both_ways]} */
static void edge_entry(lua_State *L, int idx, lua_Integer i, astar_graph *g) {
  char name[48];
  uint32_t a, b;
  double c;
  int both, st;
  if (lua_type(L, idx) != LUA_TTABLE) {
    char buf[64];
    la_error(L, 1, "graph", "edges[%ld] must be a table, got %s", (long)i,
             la_describe(L, idx, buf, sizeof buf));
  }
  lua_rawgeti(L, idx, 1);
  lua_rawgeti(L, idx, 2);
  lua_rawgeti(L, idx, 3);
  lua_rawgeti(L, idx, 4);
  snprintf(name, sizeof name, "edges[%ld][1]", (long)i);
  a = node_arg(L, -4, 1, "graph", name, g);
  snprintf(name, sizeof name, "edges[%ld][2]", (long)i);
  b = node_arg(L, -3, 1, "graph", name, g);
  snprintf(name, sizeof name, "edges[%ld][3]", (long)i);
  c = cost_arg(L, -2, 1, "graph", name);
  both = lua_toboolean(L, -1);
  if (!lua_isnil(L, -1) && lua_type(L, -1) != LUA_TBOOLEAN) {
    char buf[64];
    la_error(L, 1, "graph", "edges[%ld][4] must be a boolean, got %s",
             (long)i, la_describe(L, -1, buf, sizeof buf));
  }
  lua_pop(L, 4);
  if ((st = astar_graph_set_edge(g, a, b, c)) != ASTAR_OK) raise(L, st, "graph");
  if (both && a != b && (st = astar_graph_set_edge(g, b, a, c)) != ASTAR_OK)
    raise(L, st, "graph");
}

static const char *const graph_keys[] = {"nodes", "edges", NULL};

/* astar.graph([n_hint]) | astar.graph{nodes = {...}, edges = {...}} */
static int l_graph(lua_State *L) {
  lgraph *ud;
  int st, t = lua_type(L, 1);
  lua_settop(L, 1);
  if (t == LUA_TTABLE) {
    lua_Integer i, n;
    la_options(L, 1, "graph", graph_keys);
    lua_getfield(L, 1, "nodes"); /* 2 */
    lua_getfield(L, 1, "edges"); /* 3 */
    if (!lua_isnil(L, 2) && !lua_istable(L, 2)) {
      char buf[64];
      la_error(L, 1, "graph", "nodes must be a table, got %s",
               la_describe(L, 2, buf, sizeof buf));
    }
    if (!lua_isnil(L, 3) && !lua_istable(L, 3)) {
      char buf[64];
      la_error(L, 1, "graph", "edges must be a table, got %s",
               la_describe(L, 3, buf, sizeof buf));
    }
    ud = push_graph(L); /* 4 */
    n = lua_istable(L, 2) ? (lua_Integer)compat_rawlen(L, 2) : 0;
    if (n > (lua_Integer)ASTAR_GRAPH_MAX_NODES)
      la_error(L, 1, "graph", "too many nodes (%ld)", (long)n);
    if ((st = astar_graph_reserve(&ud->g, (uint32_t)n)) != ASTAR_OK)
      raise(L, st, "graph");
    for (i = 1; i <= n; i++) {
      double pos[3];
      int placed;
      uint32_t id;
      lua_rawgeti(L, 2, (int)i);
      node_entry(L, 5, i, pos, &placed);
      lua_pop(L, 1);
      if ((st = astar_graph_add_node(&ud->g, placed, pos, &id)) != ASTAR_OK)
        raise(L, st, "graph");
    }
    n = lua_istable(L, 3) ? (lua_Integer)compat_rawlen(L, 3) : 0;
    for (i = 1; i <= n; i++) {
      lua_rawgeti(L, 3, (int)i);
      edge_entry(L, 5, i, &ud->g);
      lua_pop(L, 1);
    }
  } else {
    double hint = 0;
    if (t != LUA_TNIL && t != LUA_TNONE) {
      char buf[64];
      hint = lua_type(L, 1) == LUA_TNUMBER ? (double)lua_tonumber(L, 1) : NAN;
      if (!(hint >= 0 && hint <= (double)ASTAR_GRAPH_MAX_NODES &&
            hint == floor(hint)))
        la_error(L, 1, "graph", "n must be an integer in [0, %lu] or a "
                 "table, got %s", (unsigned long)ASTAR_GRAPH_MAX_NODES,
                 la_describe(L, 1, buf, sizeof buf));
    }
    ud = push_graph(L);
    if (hint > 0 &&
        (st = astar_graph_reserve(&ud->g, (uint32_t)hint)) != ASTAR_OK)
      raise(L, st, "graph");
  }
  report(L, ud);
  return 1;
}

/* ---- edits ---- */

/* g:add_node([x, y [, z]]) -> id */
static int g_add_node(lua_State *L) {
  lgraph *ud = check(L, "add_node");
  double pos[3] = {0, 0, 0};
  int placed = !lua_isnoneornil(L, 2), st;
  uint32_t id;
  if (placed) {
    pos[0] = coord(L, 2, 2, "add_node", "x");
    pos[1] = coord(L, 3, 3, "add_node", "y");
    if (!lua_isnoneornil(L, 4)) pos[2] = coord(L, 4, 4, "add_node", "z");
  }
  st = astar_graph_add_node(&ud->g, placed, pos, &id);
  if (st != ASTAR_OK) raise(L, st, "add_node");
  lua_pushinteger(L, (lua_Integer)id + 1);
  report(L, ud);
  return 1;
}

static int set_edge(lua_State *L, const char *fname, int removable) {
  lgraph *ud = check(L, fname);
  astar_graph *g = &ud->g;
  uint32_t a = node_arg(L, 2, 2, fname, "a", g);
  uint32_t b = node_arg(L, 3, 3, fname, "b", g);
  double c = -1.0;
  int both = bool_arg(L, 5, fname, "both_ways", 0), st;
  if (!(removable && lua_type(L, 4) == LUA_TBOOLEAN && !lua_toboolean(L, 4)))
    c = cost_arg(L, 4, 4, fname, "cost");
  if (c < 0.0 && lua_type(L, 4) != LUA_TBOOLEAN)
    la_error(L, 4, fname, "cost must be " COST_WORDS " or false");
  if ((st = astar_graph_set_edge(g, a, b, c)) != ASTAR_OK) raise(L, st, fname);
  if (both && a != b && (st = astar_graph_set_edge(g, b, a, c)) != ASTAR_OK)
    raise(L, st, fname);
  report(L, ud);
  return 0;
}

/* g:add_edge(a, b, cost [, both_ways]) */
static int g_add_edge(lua_State *L) { return set_edge(L, "add_edge", 0); }
/* g:set_edge(a, b, cost | false [, both_ways]) */
static int g_set_edge(lua_State *L) { return set_edge(L, "set_edge", 1); }

/* g:edge(a, b) -> cost | nil */
static int g_edge(lua_State *L) {
  lgraph *ud = check(L, "edge");
  uint32_t a = node_arg(L, 2, 2, "edge", "a", &ud->g);
  uint32_t b = node_arg(L, 3, 3, "edge", "b", &ud->g);
  double c = astar_graph_edge(&ud->g, a, b);
  if (c < 0.0)
    lua_pushnil(L);
  else
    lua_pushnumber(L, (lua_Number)c);
  return 1;
}

/* g:disable(id [, disabled = true]) */
static int g_disable(lua_State *L) {
  lgraph *ud = check(L, "disable");
  uint32_t id = node_arg(L, 2, 2, "disable", "id", &ud->g);
  astar_graph_disable(&ud->g, id, bool_arg(L, 3, "disable", "disabled", 1));
  return 0;
}

/* g:is_disabled(id) -> boolean */
static int g_is_disabled(lua_State *L) {
  lgraph *ud = check(L, "is_disabled");
  uint32_t id = node_arg(L, 2, 2, "is_disabled", "id", &ud->g);
  lua_pushboolean(L, (ud->g.flags[id] & ASTAR_NODE_DISABLED) != 0);
  return 1;
}

/* g:position(id) -> x, y, z | nil */
static int g_position(lua_State *L) {
  lgraph *ud = check(L, "position");
  uint32_t id = node_arg(L, 2, 2, "position", "id", &ud->g);
  const double *p = ud->g.pos + 3 * (size_t)id;
  if (!(ud->g.flags[id] & ASTAR_NODE_PLACED)) {
    lua_pushnil(L);
    return 1;
  }
  lua_pushnumber(L, (lua_Number)p[0]);
  lua_pushnumber(L, (lua_Number)p[1]);
  lua_pushnumber(L, (lua_Number)p[2]);
  return 3;
}

/* Sets t[n + 1], t[n + 2], ... to nil up to the first nil. */
static void clear_from(lua_State *L, int t, lua_Integer n) {
  while (n < INT_MAX) {
    lua_rawgeti(L, t, (int)++n);
    if (lua_isnil(L, -1)) break;
    lua_pop(L, 1);
    lua_pushnil(L);
    lua_rawseti(L, t, (int)n);
  }
  lua_pop(L, 1);
}

static void out_arg(lua_State *L, int arg, const char *fname) {
  char buf[64];
  int t = lua_type(L, arg);
  if (t != LUA_TNONE && t != LUA_TNIL && t != LUA_TTABLE)
    la_error(L, arg, fname, "out must be a table, got %s",
             la_describe(L, arg, buf, sizeof buf));
}

/* g:neighbors(id [, out]) -> {id1, cost1, id2, cost2, ...} (out edges of
 * enabled and disabled nodes alike) */
static int g_neighbors(lua_State *L) {
  lgraph *ud = check(L, "neighbors");
  uint32_t id = node_arg(L, 2, 2, "neighbors", "id", &ud->g), i, d, f;
  out_arg(L, 3, "neighbors");
  lua_settop(L, 3);
  d = ud->g.out.deg[id];
  if (lua_istable(L, 3))
    lua_pushvalue(L, 3);
  else
    lua_createtable(L, (int)(2 * d), 0);
  /* rawseti may run a collection: its finalizers may edit or close the
   * graph, so read the run anew each time */
  for (i = 0; i < d; i++) {
    if (ud->closed || i >= ud->g.out.deg[id]) break;
    f = ud->g.out.first[id];
    lua_pushnumber(L, (lua_Number)ud->g.out.cost[f + i]);
    lua_pushinteger(L, (lua_Integer)ud->g.out.to[f + i] + 1);
    lua_rawseti(L, 4, (int)(2 * i + 1));
    lua_rawseti(L, 4, (int)(2 * i + 2));
  }
  clear_from(L, 4, 2 * (lua_Integer)i);
  return 1;
}

static int g_node_count(lua_State *L) {
  lgraph *ud = check(L, "node_count");
  lua_pushinteger(L, (lua_Integer)ud->g.n);
  return 1;
}

static int g_edge_count(lua_State *L) {
  lgraph *ud = check(L, "edge_count");
  lua_pushinteger(L, (lua_Integer)ud->g.nedges);
  return 1;
}

/* ---- zones ---- */

static void prepare(lua_State *L, lgraph *ud, const char *fname) {
  int st = astar_graph_prepare(&ud->g);
  if (st != ASTAR_OK) raise(L, st, fname);
}

/* g:zone(id) -> zone id (equal for nodes joined by edges either way) */
static int g_zone(lua_State *L) {
  lgraph *ud = check(L, "zone");
  uint32_t id = node_arg(L, 2, 2, "zone", "id", &ud->g), z = 0;
  prepare(L, ud, "zone");
  (void)astar_graph_zone(&ud->g, id, &z);
  lua_pushinteger(L, (lua_Integer)z + 1);
  return 1;
}

/* g:connected(a, b) -> false when no path can join a and b */
static int g_connected(lua_State *L) {
  lgraph *ud = check(L, "connected");
  uint32_t a = node_arg(L, 2, 2, "connected", "a", &ud->g);
  uint32_t b = node_arg(L, 3, 3, "connected", "b", &ud->g), za = 0, zb = 0;
  prepare(L, ud, "connected");
  (void)astar_graph_zone(&ud->g, a, &za);
  (void)astar_graph_zone(&ud->g, b, &zb);
  lua_pushboolean(L, za == zb);
  return 1;
}

static int g_zone_count(lua_State *L) {
  lgraph *ud = check(L, "zone_count");
  prepare(L, ud, "zone_count");
  lua_pushinteger(L, (lua_Integer)ud->g.nzones);
  return 1;
}

/* ---- find_path ---- */

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
      raise(L, ASTAR_ENOMEM, fname);
      return; /* not reached */
    }
    ud->goals = p;
    ud->goals_cap = n;
  }
  i = 0;
  if (!lua_isnil(L, 3) || !list) ud->goals[i++] = node_arg(L, 3, 3, fname, "b", g);
  if (list) {
    size_t k;
    for (k = 1; i < n; k++) {
      char name[32];
      lua_rawgeti(L, list, (int)k);
      snprintf(name, sizeof name, "goals[%lu]", (unsigned long)k);
      ud->goals[i++] = node_arg(L, -1, 4, fname, name, g);
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
static int read_path(lua_State *L) {
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
  if (lua_istable(L, 2)) clear_from(L, lua_gettop(L), (lua_Integer)len);
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
  lgraph *ud = check(L, fname);
  gquery Q;
  int opts, st, found;
  memset(&Q, 0, sizeof Q);
  Q.L = L;
  Q.ud = ud;
  out_arg(L, 5, fname);
  lua_settop(L, 5);
  astar_graph_query_defaults(&Q.q);
  Q.q.start = node_arg(L, 2, 2, fname, "a", &ud->g);
  opts = la_options(L, 4, fname, query_keys);
  read_goals(L, ud, opts, fname, &Q);
  if (opts) read_options(L, fname, &Q);
  luaL_checkstack(L, 16, fname);
  (void)core(L, ud, fname); /* an option's metamethod may have closed it */
  if (Q.q.goals != ud->goals) luaL_error(L, "%s: the graph is closed", fname);
  prepare(L, ud, fname);
  ud->busy++;
  st = astar_graph_find_path(&ud->ctx, &ud->g, &Q.q, &Q.r);
  if (st != ASTAR_OK) {
    if (--ud->busy == 0 && ud->closed) release(ud);
    if (Q.failed) lua_error(L); /* the callback's own error, on top */
    if (Q.bad) luaL_error(L, "%s: %s", fname, Q.msg);
    raise(L, st, fname);
  }
  found = Q.r.outcome == ASTAR_FOUND || Q.r.partial;
  if (found) {
    lua_pushvalue(L, READ_UPVALUE);
    lua_pushlightuserdata(L, ud);
    lua_pushvalue(L, 5);
    st = lua_pcall(L, 2, 1, 0);
  }
  if (--ud->busy == 0 && ud->closed) {
    release(ud);
    luaL_error(L, "%s: the graph was closed during the search", fname);
  }
  if (found && st != 0) lua_error(L);
  /* the answer is on the stack: the stats table may do anything now */
  if (Q.stats != 0) fill_stats(L, &Q);
  if (!found) {
    lua_pushnil(L);
    lua_pushstring(L, outcome_names[Q.r.outcome]);
    lua_pushinteger(L, (lua_Integer)Q.r.expanded);
    report(L, ud);
    return 3;
  }
  lua_pushnumber(L, (lua_Number)Q.r.cost);
  lua_pushinteger(L, (lua_Integer)Q.r.expanded);
  if (Q.r.partial) lua_pushstring(L, outcome_names[Q.r.outcome]);
  report(L, ud);
  return Q.r.partial ? 4 : 3;
}

/* ---- lifecycle ---- */

static int g_close(lua_State *L) {
  lgraph *ud = to_graph(L, 1);
  if (ud == NULL) {
    char buf[64];
    la_error(L, 1, "close", "graph expected, got %s",
             la_describe(L, 1, buf, sizeof buf));
    return 0;
  }
  ud->closed = 1;
  if (ud->busy == 0) release(ud); /* else when the search is over */
  return 0;
}

/* __gc: the collector calls it only when nothing can reach the graph (no
 * method of it is running), or when the state closes, after which no
 * method resumes: release at once either way. */
static int g_gc(lua_State *L) {
  lgraph *ud = to_graph(L, 1);
  if (ud != NULL) release(ud);
  return 0;
}

static int g_is_closed(lua_State *L) {
  lgraph *ud = to_graph(L, 1);
  lua_pushboolean(L, ud == NULL || ud->closed);
  return 1;
}

static int g_memory(lua_State *L) {
  lgraph *ud = check(L, "memory");
  lua_pushinteger(L, (lua_Integer)held(ud));
  return 1;
}

static int g_version(lua_State *L) {
  lgraph *ud = check(L, "version");
  lua_pushnumber(L, (lua_Number)ud->g.version);
  return 1;
}

static int g_tostring(lua_State *L) {
  lgraph *ud = to_graph(L, 1);
  if (ud == NULL || ud->closed)
    lua_pushstring(L, "astar.Graph (closed)");
  else
    lua_pushfstring(L, "astar.Graph (%d nodes, %d edges)", (int)ud->g.n,
                    (int)ud->g.nedges);
  return 1;
}

static const astar_graph *field_graph(lua_State *L, void *ud) {
  return core(L, (lgraph *)ud, "field");
}

/* g:field(goals [, options [, reuse]]) -> graph field (lua_graph_field.c) */
static int g_field(lua_State *L) {
  lgraph *ud = check(L, "field");
  return lgf_field(L, field_graph, ud);
}

static const luaL_Reg methods[] = {
    {"add_node", g_add_node},     {"add_edge", g_add_edge},
    {"set_edge", g_set_edge},     {"edge", g_edge},
    {"disable", g_disable},       {"is_disabled", g_is_disabled},
    {"position", g_position},     {"neighbors", g_neighbors},
    {"node_count", g_node_count}, {"edge_count", g_edge_count},
    {"zone", g_zone},             {"connected", g_connected},
    {"zone_count", g_zone_count}, {"find_path", g_find_path},
    {"field", g_field},
    {"memory", g_memory},         {"version", g_version},
    {"close", g_close},           {"is_closed", g_is_closed},
    {NULL, NULL}};

static const luaL_Reg meta[] = {
    {"__gc", g_gc},
    {"__tostring", g_tostring},
#if LUA_VERSION_NUM >= 504
    {"__close", g_gc},
#endif
    {NULL, NULL}};

static void set_functions(lua_State *L, int mt, int rd, const luaL_Reg *fns) {
  for (; fns->name != NULL; fns++) {
    lua_pushvalue(L, mt);
    lua_pushvalue(L, rd);
    lua_pushcclosure(L, fns->func, 2);
    lua_setfield(L, -2, fns->name);
  }
}

void lgr_register(lua_State *L, int module) {
  int mt, rd;
  lgf_register(L);
  luaL_newmetatable(L, GRAPH_MT);
  mt = lua_gettop(L);
  lua_pushcfunction(L, read_path);
  rd = lua_gettop(L);
  lua_pushvalue(L, mt);
  set_functions(L, mt, rd, meta);
  lua_pop(L, 1);
  lua_newtable(L);
  set_functions(L, mt, rd, methods);
  lua_setfield(L, mt, "__index");
  lua_pushliteral(L, GRAPH_MT);
  lua_setfield(L, mt, "__name");
  lua_pushliteral(L, GRAPH_MT);
  lua_setfield(L, mt, "__metatable");
  lua_pushvalue(L, mt);
  lua_pushvalue(L, rd);
  lua_pushcclosure(L, l_graph, 2);
  lua_setfield(L, module, "graph");
  lua_pop(L, 2);
}
const char *const *const lgr_graph_keys = graph_keys;
const char *const *const lgr_query_keys = query_keys;

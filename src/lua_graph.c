/*
 * The Graph type: explicit graphs (waypoints, room graphs, road maps) for
 * Lua.  astar.graph([n | {nodes = ..., edges = ...}]) makes one; nodes are
 * integers 1..n, edges carry costs.  This file holds the type: making a
 * graph, its edits, zones and lifecycle, and what lua_graph.h shares;
 * find_path (lua_graph_query.c) runs the core's graph search
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
#include "lua_graph.h"
#include "lua_grid.h"

#include <lauxlib.h>
#include <lua.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define GRAPH_MT "astar.Graph"
#define REPORT_STEP ((size_t)64 * 1024)
#define COST_WORDS "a finite number >= 0"

static size_t held(const lgraph *ud) {
  return astar_graph_memory(&ud->g) + astar_search_memory(&ud->ctx) +
         ud->goals_cap * sizeof(uint32_t);
}

void lgr_release(lgraph *ud) {
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
void lgr_report(lua_State *L, lgraph *ud) {
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
astar_graph *lgr_core(lua_State *L, lgraph *ud, const char *fname) {
  if (ud->closed) luaL_error(L, "%s: the graph is closed", fname);
  if (ud->busy)
    luaL_error(L, "%s: the graph is busy with a search (called from inside "
                  "a search on the same graph)", fname);
  return &ud->g;
}

lgraph *lgr_check(lua_State *L, const char *fname) {
  char buf[64];
  lgraph *ud = to_graph(L, 1);
  if (ud == NULL) {
    la_error(L, 1, fname, "graph expected, got %s",
             la_describe(L, 1, buf, sizeof buf));
    return NULL; /* not reached: la_error raises */
  }
  (void)lgr_core(L, ud, fname);
  return ud;
}

void lgr_raise(lua_State *L, int st, const char *fname) {
  if (st == ASTAR_ETOOBIG)
    luaL_error(L, "%s: too many nodes or edges", fname);
  la_raise(L, st, fname);
}

/* A node id at arg (1..n), returned 0-based. */
uint32_t lgr_node_arg(lua_State *L, int idx, int arg, const char *fname,
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
  a = lgr_node_arg(L, -4, 1, "graph", name, g);
  snprintf(name, sizeof name, "edges[%ld][2]", (long)i);
  b = lgr_node_arg(L, -3, 1, "graph", name, g);
  snprintf(name, sizeof name, "edges[%ld][3]", (long)i);
  c = cost_arg(L, -2, 1, "graph", name);
  both = lua_toboolean(L, -1);
  if (!lua_isnil(L, -1) && lua_type(L, -1) != LUA_TBOOLEAN) {
    char buf[64];
    la_error(L, 1, "graph", "edges[%ld][4] must be a boolean, got %s",
             (long)i, la_describe(L, -1, buf, sizeof buf));
  }
  lua_pop(L, 4);
  if ((st = astar_graph_set_edge(g, a, b, c)) != ASTAR_OK)
    lgr_raise(L, st, "graph");
  if (both && a != b && (st = astar_graph_set_edge(g, b, a, c)) != ASTAR_OK)
    lgr_raise(L, st, "graph");
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
      lgr_raise(L, st, "graph");
    for (i = 1; i <= n; i++) {
      double pos[3];
      int placed;
      uint32_t id;
      lua_rawgeti(L, 2, (int)i);
      node_entry(L, 5, i, pos, &placed);
      lua_pop(L, 1);
      if ((st = astar_graph_add_node(&ud->g, placed, pos, &id)) != ASTAR_OK)
        lgr_raise(L, st, "graph");
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
      lgr_raise(L, st, "graph");
  }
  lgr_report(L, ud);
  return 1;
}

/* ---- edits ---- */

/* g:add_node([x, y [, z]]) -> id */
static int g_add_node(lua_State *L) {
  lgraph *ud = lgr_check(L, "add_node");
  double pos[3] = {0, 0, 0};
  int placed = !lua_isnoneornil(L, 2), st;
  uint32_t id;
  if (placed) {
    pos[0] = coord(L, 2, 2, "add_node", "x");
    pos[1] = coord(L, 3, 3, "add_node", "y");
    if (!lua_isnoneornil(L, 4)) pos[2] = coord(L, 4, 4, "add_node", "z");
  }
  st = astar_graph_add_node(&ud->g, placed, pos, &id);
  if (st != ASTAR_OK) lgr_raise(L, st, "add_node");
  lua_pushinteger(L, (lua_Integer)id + 1);
  lgr_report(L, ud);
  return 1;
}

static int set_edge(lua_State *L, const char *fname, int removable) {
  lgraph *ud = lgr_check(L, fname);
  astar_graph *g = &ud->g;
  uint32_t a = lgr_node_arg(L, 2, 2, fname, "a", g);
  uint32_t b = lgr_node_arg(L, 3, 3, fname, "b", g);
  double c = -1.0;
  int both = bool_arg(L, 5, fname, "both_ways", 0), st;
  if (!(removable && lua_type(L, 4) == LUA_TBOOLEAN && !lua_toboolean(L, 4)))
    c = cost_arg(L, 4, 4, fname, "cost");
  if (c < 0.0 && lua_type(L, 4) != LUA_TBOOLEAN)
    la_error(L, 4, fname, "cost must be " COST_WORDS " or false");
  if ((st = astar_graph_set_edge(g, a, b, c)) != ASTAR_OK)
    lgr_raise(L, st, fname);
  if (both && a != b && (st = astar_graph_set_edge(g, b, a, c)) != ASTAR_OK)
    lgr_raise(L, st, fname);
  lgr_report(L, ud);
  return 0;
}

/* g:add_edge(a, b, cost [, both_ways]) */
static int g_add_edge(lua_State *L) { return set_edge(L, "add_edge", 0); }
/* g:set_edge(a, b, cost | false [, both_ways]) */
static int g_set_edge(lua_State *L) { return set_edge(L, "set_edge", 1); }

/* g:edge(a, b) -> cost | nil */
static int g_edge(lua_State *L) {
  lgraph *ud = lgr_check(L, "edge");
  uint32_t a = lgr_node_arg(L, 2, 2, "edge", "a", &ud->g);
  uint32_t b = lgr_node_arg(L, 3, 3, "edge", "b", &ud->g);
  double c = astar_graph_edge(&ud->g, a, b);
  if (c < 0.0)
    lua_pushnil(L);
  else
    lua_pushnumber(L, (lua_Number)c);
  return 1;
}

/* g:disable(id [, disabled = true]) */
static int g_disable(lua_State *L) {
  lgraph *ud = lgr_check(L, "disable");
  uint32_t id = lgr_node_arg(L, 2, 2, "disable", "id", &ud->g);
  astar_graph_disable(&ud->g, id, bool_arg(L, 3, "disable", "disabled", 1));
  return 0;
}

/* g:is_disabled(id) -> boolean */
static int g_is_disabled(lua_State *L) {
  lgraph *ud = lgr_check(L, "is_disabled");
  uint32_t id = lgr_node_arg(L, 2, 2, "is_disabled", "id", &ud->g);
  lua_pushboolean(L, (ud->g.flags[id] & ASTAR_NODE_DISABLED) != 0);
  return 1;
}

/* g:position(id) -> x, y, z | nil */
static int g_position(lua_State *L) {
  lgraph *ud = lgr_check(L, "position");
  uint32_t id = lgr_node_arg(L, 2, 2, "position", "id", &ud->g);
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

void lgr_out_arg(lua_State *L, int arg, const char *fname) {
  char buf[64];
  int t = lua_type(L, arg);
  if (t != LUA_TNONE && t != LUA_TNIL && t != LUA_TTABLE)
    la_error(L, arg, fname, "out must be a table, got %s",
             la_describe(L, arg, buf, sizeof buf));
}

/* g:neighbors(id [, out]) -> {id1, cost1, id2, cost2, ...} (out edges of
 * enabled and disabled nodes alike) */
static int g_neighbors(lua_State *L) {
  lgraph *ud = lgr_check(L, "neighbors");
  uint32_t id = lgr_node_arg(L, 2, 2, "neighbors", "id", &ud->g), i, d, f;
  lgr_out_arg(L, 3, "neighbors");
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
  lgraph *ud = lgr_check(L, "node_count");
  lua_pushinteger(L, (lua_Integer)ud->g.n);
  return 1;
}

static int g_edge_count(lua_State *L) {
  lgraph *ud = lgr_check(L, "edge_count");
  lua_pushinteger(L, (lua_Integer)ud->g.nedges);
  return 1;
}

/* ---- zones ---- */

void lgr_prepare(lua_State *L, lgraph *ud, const char *fname) {
  int st = astar_graph_prepare(&ud->g);
  if (st != ASTAR_OK) lgr_raise(L, st, fname);
}

/* g:zone(id) -> zone id (equal for nodes joined by edges either way) */
static int g_zone(lua_State *L) {
  lgraph *ud = lgr_check(L, "zone");
  uint32_t id = lgr_node_arg(L, 2, 2, "zone", "id", &ud->g), z = 0;
  lgr_prepare(L, ud, "zone");
  (void)astar_graph_zone(&ud->g, id, &z);
  lua_pushinteger(L, (lua_Integer)z + 1);
  return 1;
}

/* g:connected(a, b) -> false when no path can join a and b */
static int g_connected(lua_State *L) {
  lgraph *ud = lgr_check(L, "connected");
  uint32_t a = lgr_node_arg(L, 2, 2, "connected", "a", &ud->g);
  uint32_t b = lgr_node_arg(L, 3, 3, "connected", "b", &ud->g), za = 0, zb = 0;
  lgr_prepare(L, ud, "connected");
  (void)astar_graph_zone(&ud->g, a, &za);
  (void)astar_graph_zone(&ud->g, b, &zb);
  lua_pushboolean(L, za == zb);
  return 1;
}

static int g_zone_count(lua_State *L) {
  lgraph *ud = lgr_check(L, "zone_count");
  lgr_prepare(L, ud, "zone_count");
  lua_pushinteger(L, (lua_Integer)ud->g.nzones);
  return 1;
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
  if (ud->busy == 0) lgr_release(ud); /* else when the search is over */
  return 0;
}

/* __gc: the collector calls it only when nothing can reach the graph (no
 * method of it is running), or when the state closes, after which no
 * method resumes: release at once either way. */
static int g_gc(lua_State *L) {
  lgraph *ud = to_graph(L, 1);
  if (ud != NULL) lgr_release(ud);
  return 0;
}

static int g_is_closed(lua_State *L) {
  lgraph *ud = to_graph(L, 1);
  lua_pushboolean(L, ud == NULL || ud->closed);
  return 1;
}

static int g_memory(lua_State *L) {
  lgraph *ud = lgr_check(L, "memory");
  lua_pushinteger(L, (lua_Integer)held(ud));
  return 1;
}

static int g_version(lua_State *L) {
  lgraph *ud = lgr_check(L, "version");
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
  return lgr_core(L, (lgraph *)ud, "field");
}

/* g:field(goals [, options [, reuse]]) -> graph field (lua_graph_field.c) */
static int g_field(lua_State *L) {
  lgraph *ud = lgr_check(L, "field");
  return lgf_field(L, field_graph, ud);
}

static const luaL_Reg methods[] = {
    {"add_node", g_add_node},     {"add_edge", g_add_edge},
    {"set_edge", g_set_edge},     {"edge", g_edge},
    {"disable", g_disable},       {"is_disabled", g_is_disabled},
    {"position", g_position},     {"neighbors", g_neighbors},
    {"node_count", g_node_count}, {"edge_count", g_edge_count},
    {"zone", g_zone},             {"connected", g_connected},
    {"zone_count", g_zone_count}, {"field", g_field},
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
  lua_pushcfunction(L, lgr_read_path);
  rd = lua_gettop(L);
  lua_pushvalue(L, mt);
  set_functions(L, mt, rd, meta);
  lua_pop(L, 1);
  lua_newtable(L);
  set_functions(L, mt, rd, methods);
  set_functions(L, mt, rd, lgr_query_methods);
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

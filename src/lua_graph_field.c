/*
 * The GraphField type: g:field(goals [, options [, reuse]]) on an explicit
 * graph, the graph's counterpart of grid:field.  For every node the cost
 * to (or from) the nearest goal; reading: get, next_step, path, within,
 * count; lifecycle: close (idempotent), __gc, __close, tostring, memory,
 * version.  A graph field keeps the step its build chose at each node, so
 * reading it never touches the graph (which may be edited or closed
 * since: version() says which graph version it was built on).
 *
 * Safety: every argument is read before the graph is taken again (an
 * option's metamethod may close it); the build runs no Lua code; read-outs
 * into tables allocate only after the field's numbers are read.
 */
#include "astar.h"
#include "compat.h"
#include "lua_args.h"
#include "lua_grid.h"

#include <lauxlib.h>
#include <lua.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#define GFIELD_MT "astar.GraphField"
#define MT_UPVALUE lua_upvalueindex(1)
#define REPORT_STEP ((size_t)64 * 1024)

typedef struct lgfield {
  astar_graph_field f;
  uint32_t *goals;
  double *values;
  size_t goals_cap;
  size_t reported;
  int closed;
} lgfield;

static const char *const keys[] = {"direction", "max_cost", "values", NULL};
static const char *const direction_names[] = {"to", "from", NULL};

static size_t held(const lgfield *F) {
  return astar_graph_field_memory(&F->f) +
         F->goals_cap * (sizeof(uint32_t) + sizeof(double));
}

static void release(lgfield *F) {
  if (F->f.alloc != NULL) {
    if (F->goals != NULL)
      F->f.alloc(F->f.alloc_ud, F->goals, F->goals_cap * sizeof(uint32_t),
                 0);
    if (F->values != NULL)
      F->f.alloc(F->f.alloc_ud, F->values, F->goals_cap * sizeof(double), 0);
    F->goals = NULL;
    F->values = NULL;
    F->goals_cap = 0;
    astar_graph_field_release(&F->f);
  }
  F->closed = 1;
}

static void report(lua_State *L, lgfield *F) {
  size_t now = held(F);
  if (now > F->reported + REPORT_STEP) {
    size_t kb = (now - F->reported) / 1024u;
    F->reported = now;
    lua_gc(L, LUA_GCSTEP, kb > 0x7FFFFFFF ? 0x7FFFFFFF : (int)kb);
  }
}

/* The graph field at idx, or NULL. */
static lgfield *to_field(lua_State *L, int idx) {
  lgfield *F = (lgfield *)lua_touserdata(L, idx);
  if (F == NULL || !lua_getmetatable(L, idx)) return NULL;
  luaL_getmetatable(L, GFIELD_MT);
  if (!lua_rawequal(L, -1, -2)) F = NULL;
  lua_pop(L, 2);
  return F;
}

static lgfield *check(lua_State *L, const char *fname) {
  char buf[64];
  lgfield *F = to_field(L, 1);
  if (F == NULL) {
    la_error(L, 1, fname, "graph field expected, got %s",
             la_describe(L, 1, buf, sizeof buf));
    return NULL; /* not reached */
  }
  if (F->closed) luaL_error(L, "%s: the field is closed", fname);
  return F;
}

/* Room for n goals in F's scratch. */
static void goal_room(lua_State *L, lgfield *F, size_t n) {
  size_t cap = F->goals_cap ? F->goals_cap : 8;
  void *g, *v;
  if (n <= F->goals_cap) return;
  while (cap < n) cap *= 2;
  g = F->f.alloc(F->f.alloc_ud, NULL, 0, cap * sizeof(uint32_t));
  v = g != NULL ? F->f.alloc(F->f.alloc_ud, NULL, 0, cap * sizeof(double))
                : NULL;
  if (v == NULL) {
    if (g != NULL) F->f.alloc(F->f.alloc_ud, g, cap * sizeof(uint32_t), 0);
    luaL_error(L, "not enough memory");
    return;
  }
  if (F->goals != NULL)
    F->f.alloc(F->f.alloc_ud, F->goals, F->goals_cap * sizeof(uint32_t), 0);
  if (F->values != NULL)
    F->f.alloc(F->f.alloc_ud, F->values, F->goals_cap * sizeof(double), 0);
  F->goals = (uint32_t *)g;
  F->values = (double *)v;
  F->goals_cap = cap;
}

/* A node id (1..n) at stack index idx, 0-based; errors name arg. */
static uint32_t node_at(lua_State *L, int idx, int arg, const char *fname,
                        const char *name, uint32_t n) {
  char buf[64];
  double v = lua_type(L, idx) == LUA_TNUMBER ? (double)lua_tonumber(L, idx)
                                             : NAN;
  if (!(v == floor(v) && v >= 1 && v <= (double)n)) {
    if (n == 0)
      la_error(L, arg, fname, "%s: no node %s (the graph has no nodes)",
               name, la_describe(L, idx, buf, sizeof buf));
    la_error(L, arg, fname, "%s must be a node id in 1..%lu, got %s", name,
             (unsigned long)n, la_describe(L, idx, buf, sizeof buf));
  }
  return (uint32_t)v - 1u;
}

/* Pushes a new, empty graph field. */
static lgfield *push_field(lua_State *L) {
  lgfield *F = (lgfield *)compat_newuserdata(L, sizeof(lgfield));
  void *ud;
  lua_Alloc alloc = lua_getallocf(L, &ud);
  memset(F, 0, sizeof *F);
  astar_graph_field_init(&F->f, alloc, ud);
  luaL_getmetatable(L, GFIELD_MT);
  lua_setmetatable(L, -2);
  return F;
}

int lgf_field(lua_State *L, lgf_graph_fn get, void *ud) {
  char buf[64];
  const astar_graph *g = get(L, ud);
  astar_graph_field_query q;
  size_t ngoals, i;
  int list = lua_type(L, 2) == LUA_TTABLE, vals = 0, st;
  lgfield *F, *R = NULL;
  uint32_t one = 0;
  lua_settop(L, 4);
  memset(&q, 0, sizeof q);
  q.max_cost = HUGE_VAL;
  if (list) {
    ngoals = compat_rawlen(L, 2);
    if (ngoals == 0)
      la_error(L, 2, "field", "goals must hold at least one node id");
    if (ngoals > (size_t)INT_MAX / 2)
      la_error(L, 2, "field", "goals: too many (%.0f)", (double)ngoals);
  } else {
    if (lua_isnil(L, 2))
      la_error(L, 2, "field", "goals must be a node id or a table of node "
               "ids, got %s", la_describe(L, 2, buf, sizeof buf));
    one = node_at(L, 2, 2, "field", "goal", g->n);
    ngoals = 1;
  }
  if (la_options(L, 3, "field", keys)) {
    q.direction = la_enum(L, 3, "field", "direction", direction_names,
                          "'to', 'from'", ASTAR_FIELD_TO);
    q.max_cost = la_number(L, 3, "field", "max_cost", -HUGE_VAL, HUGE_VAL,
                           "a number", HUGE_VAL);
    vals = la_typed_option(L, 3, "field", "values", LUA_TTABLE);
    if (vals != 0 && compat_rawlen(L, vals) != ngoals)
      la_error(L, 3, "field", "values must hold one number per goal (%.0f), "
               "got %.0f", (double)ngoals, (double)compat_rawlen(L, vals));
  }
  if (!lua_isnil(L, 4)) {
    R = to_field(L, 4);
    if (R == NULL)
      return la_error(L, 4, "field", "reuse must be a graph field, got %s",
                      la_describe(L, 4, buf, sizeof buf));
    if (R->closed) la_error(L, 4, "field", "reuse: the field is closed");
  }
  if (R != NULL) {
    F = R;
    lua_pushvalue(L, 4);
  } else {
    F = push_field(L);
  }
  goal_room(L, F, ngoals);
  /* raw reads: no Lua code runs from here */
  g = get(L, ud);
  if (F->closed) la_error(L, 4, "field", "reuse: the field is closed");
  for (i = 0; i < ngoals; i++) {
    uint32_t id = one;
    if (list) {
      lua_rawgeti(L, 2, (int)(i + 1));
      if (lua_type(L, -1) != LUA_TNUMBER ||
          !(lua_tonumber(L, -1) == floor(lua_tonumber(L, -1)) &&
            lua_tonumber(L, -1) >= 1 &&
            lua_tonumber(L, -1) <= (double)g->n))
        la_error(L, 2, "field", "goals[%.0f] must be a node id in 1..%lu, "
                 "got %s", (double)i + 1, (unsigned long)g->n,
                 la_describe(L, -1, buf, sizeof buf));
      id = (uint32_t)lua_tonumber(L, -1) - 1u;
      lua_pop(L, 1);
    }
    if (g->flags[id] & ASTAR_NODE_DISABLED) {
      if (list)
        la_error(L, 2, "field", "goals[%.0f] (node %lu) is disabled",
                 (double)i + 1, (unsigned long)id + 1);
      la_error(L, 2, "field", "goal (node %lu) is disabled",
               (unsigned long)id + 1);
    }
    F->goals[i] = id;
    F->values[i] = 0.0;
    if (vals != 0) {
      double v;
      lua_rawgeti(L, vals, (int)(i + 1));
      v = lua_type(L, -1) == LUA_TNUMBER ? (double)lua_tonumber(L, -1) : NAN;
      if (!(v == v && fabs(v) <= 1e300))
        la_error(L, 3, "field", "values[%.0f] must be a finite number, got "
                 "%s", (double)i + 1, la_describe(L, -1, buf, sizeof buf));
      F->values[i] = v;
      lua_pop(L, 1);
    }
  }
  q.goals = F->goals;
  q.ngoals = ngoals;
  q.values = vals != 0 ? F->values : NULL;
  st = astar_graph_field_build(&F->f, g, &q);
  if (st != ASTAR_OK) la_raise(L, st, "field");
  report(L, F);
  return 1;
}

/* ---- reading ---- */

static uint32_t id_arg(lua_State *L, lgfield *F, int arg, const char *fname) {
  return node_at(L, arg, arg, fname, "id", F->f.n);
}

/* f:get(id) -> cost | nil */
static int f_get(lua_State *L) {
  lgfield *F = check(L, "get");
  uint32_t i = id_arg(L, F, 2, "get");
  if (!astar_graph_field_has(&F->f, i))
    lua_pushnil(L);
  else
    lua_pushnumber(L, (lua_Number)F->f.value[i]);
  return 1;
}

/* f:next_step(id) -> id, cost | nil, "goal" | nil, "no_path" */
static int f_next_step(lua_State *L) {
  lgfield *F = check(L, "next_step");
  uint32_t i = id_arg(L, F, 2, "next_step");
  if (!astar_graph_field_has(&F->f, i)) {
    lua_pushnil(L);
    lua_pushliteral(L, "no_path");
    return 2;
  }
  if (F->f.next[i] == UINT32_MAX) {
    lua_pushnil(L);
    lua_pushliteral(L, "goal");
    return 2;
  }
  lua_pushinteger(L, (lua_Integer)F->f.next[i] + 1);
  lua_pushnumber(L, (lua_Number)F->f.step[i]);
  return 2;
}

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

/* The table at arg, or a new one with room for n array items, pushed. */
static void push_out(lua_State *L, int arg, int n) {
  if (lua_istable(L, arg))
    lua_pushvalue(L, arg);
  else
    lua_createtable(L, n, 0);
}

/* f:path(id [, out]) -> {ids}, cost | nil, "no_path": "to": id first, a
 * goal last; "from": a goal first, id last */
static int f_path(lua_State *L) {
  lgfield *F = check(L, "path");
  uint32_t i = id_arg(L, F, 2, "path"), v, len = 0, k;
  int from = F->f.direction == ASTAR_FIELD_FROM, t;
  double cost = 0.0;
  out_arg(L, 3, "path");
  lua_settop(L, 3);
  if (!astar_graph_field_has(&F->f, i)) {
    lua_pushnil(L);
    lua_pushliteral(L, "no_path");
    return 2;
  }
  for (v = i; v != UINT32_MAX && len <= F->f.count; v = F->f.next[v]) {
    if (F->f.next[v] != UINT32_MAX) cost += F->f.step[v];
    len++;
  }
  if (len > INT_MAX - 1) luaL_error(L, "path: too long for a table");
  push_out(L, 3, (int)len); /* may run finalizers: not the field's */
  t = lua_gettop(L);
  for (v = i, k = 0; k < len; v = F->f.next[v], k++) {
    lua_pushinteger(L, (lua_Integer)v + 1);
    lua_rawseti(L, t, (int)(from ? len - k : k + 1));
    F = check(L, "path"); /* (an out table grows: finalizers may run) */
  }
  if (lua_istable(L, 3)) clear_from(L, t, (lua_Integer)len);
  lua_pushnumber(L, (lua_Number)cost);
  return 2;
}

/* f:within(max_cost [, out]) -> {ids, cheapest first}, count */
static int f_within(lua_State *L) {
  char buf[64];
  lgfield *F;
  double m = lua_type(L, 2) == LUA_TNUMBER ? (double)lua_tonumber(L, 2) : NAN;
  uint32_t k, n = 0;
  int t;
  (void)check(L, "within");
  if (m != m)
    la_error(L, 2, "within", "max_cost must be a number, got %s",
             la_describe(L, 2, buf, sizeof buf));
  out_arg(L, 3, "within");
  lua_settop(L, 3);
  push_out(L, 3, 0);
  t = lua_gettop(L);
  F = check(L, "within");
  for (k = 0; k < F->f.count && n < INT_MAX - 1; k++) {
    uint32_t v = F->f.order[k];
    if (!(F->f.value[v] <= m)) break; /* order[] is by value */
    lua_pushinteger(L, (lua_Integer)v + 1);
    lua_rawseti(L, t, (int)++n);
    F = check(L, "within"); /* (a table grows: finalizers may run) */
  }
  if (lua_istable(L, 3)) clear_from(L, t, (lua_Integer)n);
  lua_pushinteger(L, (lua_Integer)n);
  return 2;
}

static int f_count(lua_State *L) {
  lgfield *F = check(L, "count");
  lua_pushinteger(L, (lua_Integer)F->f.count);
  return 1;
}

static int f_direction(lua_State *L) {
  lgfield *F = check(L, "direction");
  lua_pushstring(L, direction_names[F->f.direction]);
  return 1;
}

static int f_version(lua_State *L) {
  lgfield *F = check(L, "version");
  lua_pushnumber(L, (lua_Number)F->f.version);
  return 1;
}

static int f_memory(lua_State *L) {
  lgfield *F = check(L, "memory");
  lua_pushinteger(L, (lua_Integer)held(F));
  return 1;
}

static int f_close(lua_State *L) {
  char buf[64];
  lgfield *F = to_field(L, 1);
  if (F == NULL)
    return la_error(L, 1, "close", "graph field expected, got %s",
                    la_describe(L, 1, buf, sizeof buf));
  release(F);
  return 0;
}

static int f_gc(lua_State *L) {
  lgfield *F = to_field(L, 1);
  if (F != NULL) release(F);
  return 0;
}

static int f_is_closed(lua_State *L) {
  char buf[64];
  lgfield *F = to_field(L, 1);
  if (F == NULL)
    return la_error(L, 1, "is_closed", "graph field expected, got %s",
                    la_describe(L, 1, buf, sizeof buf));
  lua_pushboolean(L, F->closed);
  return 1;
}

static int f_tostring(lua_State *L) {
  lgfield *F = to_field(L, 1);
  if (F == NULL || F->closed) {
    lua_pushliteral(L, "astar.GraphField (closed)");
    return 1;
  }
  lua_pushfstring(L, "astar.GraphField %d nodes %s, %d with a value",
                  (int)F->f.n, direction_names[F->f.direction],
                  (int)F->f.count);
  return 1;
}

static const luaL_Reg methods[] = {
    {"get", f_get},         {"next_step", f_next_step},
    {"path", f_path},       {"within", f_within},
    {"count", f_count},     {"direction", f_direction},
    {"version", f_version}, {"memory", f_memory},
    {"close", f_close},     {"is_closed", f_is_closed},
    {NULL, NULL}};

void lgf_register(lua_State *L) {
  const luaL_Reg *r;
  luaL_newmetatable(L, GFIELD_MT);
  lua_pushcfunction(L, f_gc);
  lua_setfield(L, -2, "__gc");
#if LUA_VERSION_NUM >= 504
  lua_pushcfunction(L, f_gc);
  lua_setfield(L, -2, "__close");
#endif
  lua_pushcfunction(L, f_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_newtable(L);
  for (r = methods; r->name != NULL; r++) {
    lua_pushcfunction(L, r->func);
    lua_setfield(L, -2, r->name);
  }
  lua_setfield(L, -2, "__index");
  lua_pushliteral(L, GFIELD_MT);
  lua_setfield(L, -2, "__name");
  lua_pushliteral(L, GFIELD_MT);
  lua_setfield(L, -2, "__metatable");
  lua_pop(L, 1);
}
const char *const *const lgf_field_keys = keys;

/*
 * astar.search{start =, neighbors =, heuristic =, goal =, key =,
 * max_nodes =}: A* over states that a Lua function generates (puzzles,
 * game states, graphs nobody stores).  The open list and node records are
 * the core's (state_search.c); here states become node numbers: each
 * state's key (the state itself when it is a number or a string, else
 * key(state)) is interned in a Lua table, ids[key] = n, states[n] = state.
 *
 * neighbors(state, emit) calls emit(next, cost) for each successor.  emit
 * is one small Lua closure made per search: it appends to two buffer
 * tables (reused, so an expansion makes no garbage of ours), which C reads
 * once neighbors returns.  Being Lua, it keeps the user's neighbors
 * function compilable by LuaJIT (a call to a C function would end its
 * trace); the checks of what was emitted happen in C, with the same
 * messages as if emit made them.  The callbacks run with lua_call: their errors reach the caller
 * unchanged (a yield gets Lua's own "attempt to yield across a C-call
 * boundary").  The scratch is a userdata with a finalizer, so an error
 * anywhere leaks nothing; a normal return frees it at once.
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

#define SCRATCH_MT_UPVALUE lua_upvalueindex(1)
#define EMIT_UPVALUE lua_upvalueindex(2)

/* The factory of emit: (states buffer, costs buffer, control) -> emit.
 * control[1] is the count so far, control[2] whether emit may run. */
static const char emit_source[] =
    "local bs, bc, st = ...\n"
    "return function(s, c)\n"
    "  if not st[2] then\n"
    "    error(\"emit: called outside its search's neighbors callback\", 0)\n"
    "  end\n"
    "  local n = st[1] + 1\n"
    "  st[1] = n\n"
    "  bs[n] = s\n"
    "  bc[n] = c\n"
    "end\n";

typedef struct scratch {
  astar_states o;
  uint32_t current;   /* the node being expanded */
  uint32_t goal;      /* the goal's node (a goal value), UINT32_MAX: none */
} scratch;

static int scratch_gc(lua_State *L) {
  scratch *S = (scratch *)lua_touserdata(L, 1);
  if (S != NULL) astar_states_release(&S->o);
  return 0;
}

static const char *const search_keys[] = {
    "start", "neighbors", "heuristic", "goal", "key", "max_nodes", NULL};

/* Pushes the key of the value at idx (absolute): the value itself when it
 * is a number or a string, else key(value) with the key function at kfn
 * (0: none).  Raises argument errors worded for fname / what. */
static void push_key(lua_State *L, int idx, int kfn, int arg,
                     const char *fname, const char *what) {
  char buf[64];
  int t;
  if (kfn != 0) {
    lua_pushvalue(L, kfn);
    lua_pushvalue(L, idx);
    lua_call(L, 1, 1);
    t = lua_type(L, -1);
    if ((t == LUA_TNUMBER && lua_tonumber(L, -1) == lua_tonumber(L, -1)) ||
        t == LUA_TSTRING)
      return;
    la_error(L, arg, fname, "key(%s) returned %s; expected a number or a "
             "string", what, la_describe(L, -1, buf, sizeof buf));
  }
  t = lua_type(L, idx);
  if ((t == LUA_TNUMBER && lua_tonumber(L, idx) == lua_tonumber(L, idx)) ||
      t == LUA_TSTRING) {
    lua_pushvalue(L, idx);
    return;
  }
  la_error(L, arg, fname, "%s is %s: states other than numbers and strings "
           "need a key function", what, la_describe(L, idx, buf, sizeof buf));
}

/* The heuristic of the state at idx (hfn: the function, 0: none). */
static double heuristic_of(lua_State *L, int idx, int hfn) {
  char buf[64];
  double h;
  if (hfn == 0) return 0.0;
  lua_pushvalue(L, hfn);
  lua_pushvalue(L, idx);
  lua_call(L, 1, 1);
  h = lua_type(L, -1) == LUA_TNUMBER ? (double)lua_tonumber(L, -1) : NAN;
  if (!(h >= 0.0 && h <= 1e300))
    luaL_error(L, "search: heuristic returned %s; expected a finite number "
               ">= 0", la_describe(L, -1, buf, sizeof buf));
  lua_pop(L, 1);
  return h;
}

static void check_status(lua_State *L, int st) {
  if (st == ASTAR_ETOOBIG) luaL_error(L, "search: too many states");
  if (st != ASTAR_OK) luaL_error(L, "not enough memory");
}

/* Interns the state at idx (its key on top, popped): its node number. */
static uint32_t intern(lua_State *L, scratch *S, int idx, int ids, int states,
                       int hfn) {
  uint32_t id;
  lua_pushvalue(L, -1);
  lua_rawget(L, ids);
  if (!lua_isnil(L, -1)) {
    id = (uint32_t)lua_tonumber(L, -1) - 1u;
    lua_pop(L, 2);
    return id;
  }
  lua_pop(L, 1);
  /* new: number it, then ask its heuristic */
  check_status(L, astar_states_make(&S->o, 0.0, &id));
  lua_pushinteger(L, (lua_Integer)id + 1);
  lua_rawset(L, ids); /* pops the key */
  lua_pushvalue(L, idx);
  lua_rawseti(L, states, (int)id + 1);
  S->o.h[id] = heuristic_of(L, idx, hfn);
  return id;
}

/* The n states emitted by the expansion of S->current, from the buffers
 * at bs, bc: checked, keyed, numbered and reached. */
static void take_emitted(lua_State *L, scratch *S, int bs, int bc, int n,
                         int ids, int states, int kfn, int hfn) {
  char buf[64];
  int i;
  for (i = 1; i <= n; i++) {
    double c;
    uint32_t id;
    int top;
    lua_rawgeti(L, bc, i);
    c = lua_type(L, -1) == LUA_TNUMBER ? (double)lua_tonumber(L, -1) : NAN;
    if (!(c >= 0.0 && c <= 1e300))
      la_error(L, 2, "emit", "cost must be a finite number >= 0, got %s",
               la_describe(L, -1, buf, sizeof buf));
    lua_pop(L, 1);
    lua_rawgeti(L, bs, i);
    top = lua_gettop(L);
    if (lua_isnil(L, top)) la_error(L, 1, "emit", "state must not be nil");
    push_key(L, top, kfn, 1, "emit", "state");
    id = intern(L, S, top, ids, states, hfn);
    lua_pop(L, 1);
    check_status(L, astar_states_reach(&S->o, id, S->current,
                                       S->o.g[S->current] + c));
  }
}

/* astar.search{...} -> states, cost, expanded | nil, reason, expanded */
static int l_search(lua_State *L) {
  char buf[64];
  scratch *S;
  int neighbors, hfn, kfn, goal, goal_fn, ids, states, emit, bs, bc, ctl;
  uint32_t expanded = 0, id, max_nodes = 0, found = UINT32_MAX;
  int n;
  double g;
  void *aud;
  lua_Alloc alloc = lua_getallocf(L, &aud);

  lua_settop(L, 1);
  if (lua_type(L, 1) != LUA_TTABLE)
    la_error(L, 1, "search", "options table expected, got %s",
             la_describe(L, 1, buf, sizeof buf));
  la_options(L, 1, "search", search_keys);
  neighbors = la_typed_option(L, 1, "search", "neighbors", LUA_TFUNCTION);
  if (neighbors == 0)
    la_error(L, 1, "search", "neighbors must be a function, got nil");
  hfn = la_typed_option(L, 1, "search", "heuristic", LUA_TFUNCTION);
  kfn = la_typed_option(L, 1, "search", "key", LUA_TFUNCTION);
  lua_getfield(L, 1, "max_nodes");
  if (!lua_isnil(L, -1)) {
    double v = lua_type(L, -1) == LUA_TNUMBER ? (double)lua_tonumber(L, -1)
                                               : NAN;
    if (!(v >= 1 && v <= 2147483647.0 && v == floor(v)))
      la_error(L, 1, "search", "max_nodes must be an integer in [1, "
               "2147483647], got %s", la_describe(L, -1, buf, sizeof buf));
    max_nodes = (uint32_t)v;
  }
  lua_pop(L, 1);
  lua_getfield(L, 1, "goal");
  goal = lua_gettop(L);
  if (lua_isnil(L, goal)) la_error(L, 1, "search", "goal must be given "
                                   "(a state or a function)");
  goal_fn = lua_type(L, goal) == LUA_TFUNCTION;
  lua_getfield(L, 1, "start");
  if (lua_isnil(L, -1)) la_error(L, 1, "search", "start must not be nil");
  /* stack: ..., goal, start */
  lua_newtable(L);
  ids = lua_gettop(L);
  lua_newtable(L);
  states = lua_gettop(L);
  S = (scratch *)compat_newuserdata(L, sizeof(scratch));
  memset(S, 0, sizeof *S);
  astar_states_init(&S->o, alloc, aud);
  S->goal = UINT32_MAX;
  lua_pushvalue(L, SCRATCH_MT_UPVALUE);
  lua_setmetatable(L, -2);
  lua_newtable(L);
  bs = lua_gettop(L);
  lua_newtable(L);
  bc = lua_gettop(L);
  lua_createtable(L, 2, 0);
  ctl = lua_gettop(L);
  lua_pushinteger(L, 0);
  lua_rawseti(L, ctl, 1);
  lua_pushvalue(L, EMIT_UPVALUE);
  lua_pushvalue(L, bs);
  lua_pushvalue(L, bc);
  lua_pushvalue(L, ctl);
  lua_call(L, 3, 1);
  emit = lua_gettop(L);

  /* the start is node 0; a goal value is interned too (without its
   * heuristic: it is never expanded before it is reached) */
  push_key(L, goal + 1, kfn, 1, "search", "start");
  id = intern(L, S, goal + 1, ids, states, hfn);
  check_status(L, astar_states_reach(&S->o, id, UINT32_MAX, 0.0));
  if (!goal_fn) {
    push_key(L, goal, kfn, 1, "search", "goal");
    lua_rawget(L, ids);
    if (!lua_isnil(L, -1)) S->goal = (uint32_t)lua_tonumber(L, -1) - 1u;
    lua_pop(L, 1);
    if (S->goal == UINT32_MAX) {
      /* not met yet: intern it now so emit needs no test */
      push_key(L, goal, kfn, 1, "search", "goal");
      check_status(L, astar_states_make(&S->o, 0.0, &S->goal));
      lua_pushinteger(L, (lua_Integer)S->goal + 1);
      lua_rawset(L, ids);
      lua_pushvalue(L, goal);
      lua_rawseti(L, states, (int)S->goal + 1);
    }
  }

  while (astar_states_pop(&S->o, &id, &g)) {
    int is_goal;
    if (goal_fn) {
      lua_pushvalue(L, goal);
      lua_rawgeti(L, states, (int)id + 1);
      lua_call(L, 1, 1);
      is_goal = lua_toboolean(L, -1);
      lua_pop(L, 1);
    } else {
      is_goal = id == S->goal;
    }
    if (is_goal) {
      found = id;
      break;
    }
    if (max_nodes != 0 && expanded >= max_nodes) {
      expanded = max_nodes;
      lua_pushnil(L);
      lua_pushliteral(L, "cutoff");
      lua_pushinteger(L, (lua_Integer)expanded);
      astar_states_release(&S->o);
      return 3;
    }
    expanded++;
    S->current = id;
    lua_pushinteger(L, 0);
    lua_rawseti(L, ctl, 1);
    lua_pushboolean(L, 1);
    lua_rawseti(L, ctl, 2);
    lua_pushvalue(L, neighbors);
    lua_rawgeti(L, states, (int)id + 1);
    lua_pushvalue(L, emit);
    lua_call(L, 2, 0);
    lua_pushboolean(L, 0);
    lua_rawseti(L, ctl, 2);
    lua_rawgeti(L, ctl, 1);
    n = (int)lua_tointeger(L, -1);
    lua_pop(L, 1);
    take_emitted(L, S, bs, bc, n, ids, states, kfn, hfn);
  }
  if (found == UINT32_MAX) {
    astar_states_release(&S->o);
    lua_pushnil(L);
    lua_pushliteral(L, "no_path");
    lua_pushinteger(L, (lua_Integer)expanded);
    return 3;
  }
  {
    uint32_t len = 0, v, i;
    for (v = found; v != UINT32_MAX; v = S->o.parent[v]) len++;
    lua_createtable(L, (int)len, 0);
    for (v = found, i = len; v != UINT32_MAX; v = S->o.parent[v], i--) {
      lua_rawgeti(L, states, (int)v + 1);
      lua_rawseti(L, -2, (int)i);
    }
    lua_pushnumber(L, (lua_Number)g);
    lua_pushinteger(L, (lua_Integer)expanded);
  }
  astar_states_release(&S->o);
  return 3;
}

void lst_register(lua_State *L, int module) {
  lua_createtable(L, 0, 2);
  lua_pushcfunction(L, scratch_gc);
  lua_setfield(L, -2, "__gc");
  lua_pushliteral(L, "astar.search scratch");
  lua_setfield(L, -2, "__metatable");
  if (luaL_loadbuffer(L, emit_source, sizeof emit_source - 1, "=astar.emit"))
    lua_error(L);
  lua_pushcclosure(L, l_search, 2);
  lua_setfield(L, module, "search");
}
const char *const *const lst_search_keys = search_keys;

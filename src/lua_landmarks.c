/*
 * grid:prepare("landmarks", k [, units]): the landmarks row of
 * lua_prepare.c's table (landmarks.c builds them; the A* loop reads them).
 */
#include "astar.h"
#include "compat.h"
#include "lua_args.h"
#include "lua_grid.h"

#include <lauxlib.h>
#include <lua.h>

#define FNAME "prepare"
#define UNITS_RULE "a unit class name or a list of unit class names"

/* The units at argument 4 into ids (nil: the default class). */
static int read_units(lua_State *L, int *ids) {
  char buf[64];
  int n = 0, id, k;
  switch (lua_type(L, 4)) {
  case LUA_TNONE:
  case LUA_TNIL: ids[0] = 0; return 1;
  case LUA_TSTRING:
    ids[0] = lt_unit_id(L, 4, 4, FNAME, 1);
    return 1;
  case LUA_TTABLE: {
    size_t len = compat_rawlen(L, 4), i;
    if (len == 0)
      la_error(L, 4, FNAME, "units must be " UNITS_RULE ", got an empty "
               "list");
    for (i = 1; i <= len; i++) {
      int seen = 0;
      lua_rawgeti(L, 4, (int)i);
      if (lua_type(L, -1) != LUA_TSTRING)
        la_error(L, 4, FNAME, "units[%d] must be a unit class name, got %s",
                 (int)i, la_describe(L, -1, buf, sizeof buf));
      id = lt_unit_id(L, lua_gettop(L), 4, FNAME, 1);
      lua_pop(L, 1);
      for (k = 0; k < n; k++) seen |= ids[k] == id;
      if (!seen) {
        if (n == ASTAR_MAX_UNITS) break; /* not reached: ids are distinct */
        ids[n++] = id;
      }
    }
    return n;
  }
  default:
    la_error(L, 4, FNAME, "units must be " UNITS_RULE ", got %s",
             la_describe(L, 4, buf, sizeof buf));
    return 0; /* not reached */
  }
}

size_t llm_prepare(lua_State *L, lgrid *ud) {
  char buf[64];
  int ids[ASTAR_MAX_UNITS], n, i, st;
  lua_Number k;
  astar_grid *g;
  if (lua_type(L, 3) != LUA_TNUMBER)
    la_error(L, 3, FNAME, "k must be an integer in 1..%d, got %s",
             ASTAR_MAX_LANDMARKS, la_describe(L, 3, buf, sizeof buf));
  k = lua_tonumber(L, 3);
  if (!(k >= 1 && k <= ASTAR_MAX_LANDMARKS) || k != (lua_Number)(int)k)
    la_error(L, 3, FNAME, "k must be an integer in 1..%d, got %s",
             ASTAR_MAX_LANDMARKS, la_describe(L, 3, buf, sizeof buf));
  n = read_units(L, ids);
  if (lua_gettop(L) > 4) lua_settop(L, 4);
  g = lg_core(L, ud, FNAME); /* after the arguments: Lua code ran */
  for (i = 0; i < n; i++) lg_prepare(L, g, ids[i], 0, FNAME);
  st = astar_landmarks_build(g, ids, n, (int)k);
  if (st != ASTAR_OK) la_raise(L, st, FNAME);
  return astar_landmarks_memory(g);
}

const char *llm_state(lgrid *ud) {
  switch (astar_landmarks_state(&ud->g)) {
  case ASTAR_LANDMARKS_READY: return "ready";
  case ASTAR_LANDMARKS_STALE: return "stale";
  default: return NULL;
  }
}

void llm_drop(lgrid *ud) { astar_landmarks_drop(&ud->g); }

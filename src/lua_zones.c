/*
 * The binding of zones (src/zones.c): which connected region a tile is in,
 * for a unit class.
 *
 *   grid:zone(x, y [, unit])                 -> id (0: impassable)
 *   grid:connected(x1, y1, x2, y2 [, unit])  -> boolean
 *   grid:zone_count([unit])                  -> number of zones
 *   grid:zone_size(id [, unit])              -> tiles in zone id (0: none)
 */
#include "astar.h"
#include "compat.h"
#include "lua_args.h"
#include "lua_grid.h"

#include <lauxlib.h>
#include <lua.h>
#include <math.h>

/* The unit at arg (a name), or 0 when it is absent or nil. */
static int unit_arg(lua_State *L, int arg, const char *fname) {
  if (lua_isnoneornil(L, arg)) return 0;
  return lc_unit_id(L, arg, arg, fname, 1);
}

static void check(lua_State *L, int st, const char *fname) {
  if (st != ASTAR_OK) la_raise(L, st, fname);
}

static int g_zone(lua_State *L) {
  astar_grid *g = lg_check_grid(L, "zone");
  int32_t x = la_x(L, 2, "zone", "x", g);
  int32_t y = la_y(L, 3, "zone", "y", g);
  int unit = unit_arg(L, 4, "zone");
  uint32_t id;
  check(L, astar_zone_of(g, unit, x, y, &id), "zone");
  lua_pushinteger(L, (lua_Integer)id);
  return 1;
}

static int g_connected(lua_State *L) {
  astar_grid *g = lg_check_grid(L, "connected");
  int32_t x1 = la_x(L, 2, "connected", "x1", g);
  int32_t y1 = la_y(L, 3, "connected", "y1", g);
  int32_t x2 = la_x(L, 4, "connected", "x2", g);
  int32_t y2 = la_y(L, 5, "connected", "y2", g);
  int unit = unit_arg(L, 6, "connected");
  uint32_t a, b;
  check(L, astar_zone_of(g, unit, x1, y1, &a), "connected");
  check(L, astar_zone_of(g, unit, x2, y2, &b), "connected");
  lua_pushboolean(L, a != 0 && a == b);
  return 1;
}

static int g_zone_count(lua_State *L) {
  astar_grid *g = lg_check_grid(L, "zone_count");
  int unit = unit_arg(L, 2, "zone_count");
  uint32_t n;
  check(L, astar_zone_count(g, unit, &n), "zone_count");
  lua_pushinteger(L, (lua_Integer)n);
  return 1;
}

static int g_zone_size(lua_State *L) {
  char buf[64];
  astar_grid *g = lg_check_grid(L, "zone_size");
  double v = lua_type(L, 2) == LUA_TNUMBER ? (double)lua_tonumber(L, 2) : NAN;
  int unit;
  uint32_t n = 0;
  if (!(v == floor(v)) || isinf(v))
    la_error(L, 2, "zone_size", "id must be an integer, got %s",
             la_describe(L, 2, buf, sizeof buf));
  if (v < 0)
    la_error(L, 2, "zone_size", "id must be >= 0, got %s",
             la_describe(L, 2, buf, sizeof buf));
  unit = unit_arg(L, 3, "zone_size");
  if (v <= 4294967295.0)
    check(L, astar_zone_size(g, unit, (uint32_t)v, &n), "zone_size");
  lua_pushinteger(L, (lua_Integer)n);
  return 1;
}

const luaL_Reg lz_grid_methods[] = {
    {"zone", g_zone},
    {"connected", g_connected},
    {"zone_count", g_zone_count},
    {"zone_size", g_zone_size},
    {NULL, NULL}};

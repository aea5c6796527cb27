/*
 * The binding of zones (src/zones.c): which connected region a tile is in,
 * for a unit class.
 *
 *   grid:zone(x, y [, unit [, size]])                -> id (0: impassable)
 *   grid:connected(x1, y1, x2, y2 [, unit [, size]]) -> boolean
 *   grid:zone_count([unit [, size]])                 -> number of zones
 *   grid:zone_size(id [, unit [, size]])             -> tiles in zone id
 * size: an s x s unit's zones (its top-left tile's), as find_path's size.
 */
#include "astar.h"
#include "compat.h"
#include "lua_args.h"
#include "lua_grid.h"

#include <lauxlib.h>
#include <lua.h>
#include <math.h>

/* Labels are made by astar_grid_prepare (here, before each question),
 * kept by edits, and only read by the questions. */

/* The unit at arg (a name), or 0 when it is absent or nil. */
static int unit_arg(lua_State *L, int arg, const char *fname) {
  if (lua_isnoneornil(L, arg)) return 0;
  return lt_unit_id(L, arg, arg, fname, 1);
}

/* The size at arg (absent or nil: 1). */
static int size_arg(lua_State *L, lgrid *ud, int arg, const char *fname) {
  if (lua_isnoneornil(L, arg)) return 1;
  return la_size_value(L, arg, arg, fname, &ud->g);
}

/* The map with unit's zones ready, once every argument is read. */
static astar_grid *zones_of(lua_State *L, lgrid *ud, int unit, int size,
                            const char *fname) {
  astar_grid *g = lg_core(L, ud, fname);
  int st = astar_grid_prepare_size(g, unit, size, ASTAR_PREPARE_ZONES);
  if (st != ASTAR_OK) la_raise(L, st, fname);
  return g;
}

static void check(lua_State *L, int st, const char *fname) {
  if (st != ASTAR_OK) la_raise(L, st, fname);
}

static int g_zone(lua_State *L) {
  lgrid *ud = lg_check(L, "zone");
  int32_t x = la_x(L, 2, "zone", "x", &ud->g);
  int32_t y = la_y(L, 3, "zone", "y", &ud->g);
  int unit = unit_arg(L, 4, "zone");
  int size = size_arg(L, ud, 5, "zone");
  astar_grid *g = zones_of(L, ud, unit, size, "zone");
  uint32_t id;
  check(L, astar_zone_of_size(g, unit, size, x, y, &id), "zone");
  lg_report(L, ud);
  lua_pushinteger(L, (lua_Integer)id);
  return 1;
}

static int g_connected(lua_State *L) {
  lgrid *ud = lg_check(L, "connected");
  int32_t x1 = la_x(L, 2, "connected", "x1", &ud->g);
  int32_t y1 = la_y(L, 3, "connected", "y1", &ud->g);
  int32_t x2 = la_x(L, 4, "connected", "x2", &ud->g);
  int32_t y2 = la_y(L, 5, "connected", "y2", &ud->g);
  int unit = unit_arg(L, 6, "connected");
  int size = size_arg(L, ud, 7, "connected");
  astar_grid *g = zones_of(L, ud, unit, size, "connected");
  uint32_t a, b;
  check(L, astar_zone_of_size(g, unit, size, x1, y1, &a), "connected");
  check(L, astar_zone_of_size(g, unit, size, x2, y2, &b), "connected");
  lg_report(L, ud);
  lua_pushboolean(L, a != 0 && a == b);
  return 1;
}

static int g_zone_count(lua_State *L) {
  lgrid *ud = lg_check(L, "zone_count");
  int unit = unit_arg(L, 2, "zone_count");
  int size = size_arg(L, ud, 3, "zone_count");
  astar_grid *g = zones_of(L, ud, unit, size, "zone_count");
  uint32_t n;
  check(L, astar_zone_count_size(g, unit, size, &n), "zone_count");
  lg_report(L, ud);
  lua_pushinteger(L, (lua_Integer)n);
  return 1;
}

static int g_zone_size(lua_State *L) {
  char buf[64];
  lgrid *ud = lg_check(L, "zone_size");
  astar_grid *g;
  double v = lua_type(L, 2) == LUA_TNUMBER ? (double)lua_tonumber(L, 2) : NAN;
  int unit, size;
  uint32_t n = 0;
  if (!(v == floor(v)) || isinf(v))
    la_error(L, 2, "zone_size", "id must be an integer, got %s",
             la_describe(L, 2, buf, sizeof buf));
  if (v < 0)
    la_error(L, 2, "zone_size", "id must be >= 0, got %s",
             la_describe(L, 2, buf, sizeof buf));
  unit = unit_arg(L, 3, "zone_size");
  size = size_arg(L, ud, 4, "zone_size");
  g = zones_of(L, ud, unit, size, "zone_size");
  if (v <= 4294967295.0)
    check(L, astar_zone_size_size(g, unit, size, (uint32_t)v, &n),
          "zone_size");
  lg_report(L, ud);
  lua_pushinteger(L, (lua_Integer)n);
  return 1;
}

const luaL_Reg lz_grid_methods[] = {
    {"zone", g_zone},
    {"connected", g_connected},
    {"zone_count", g_zone_count},
    {"zone_size", g_zone_size},
    {NULL, NULL}};

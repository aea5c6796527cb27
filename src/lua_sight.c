/*
 * The binding of clearance, line of sight and smoothing (src/clearance.c,
 * src/sight.c).
 *
 *   grid:clearance(x, y [, unit])                  -> side of the largest
 *                                                     square at (x, y)
 *   grid:line_of_sight(x1, y1, x2, y2 [, unit [, size]])
 *                                                  -> true | false, bx, by
 *   grid:smooth(path [, out [, options]])          -> waypoints
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

static int unit_arg(lua_State *L, int arg, const char *fname) {
  if (lua_isnoneornil(L, arg)) return 0;
  return lt_unit_id(L, arg, arg, fname, 1);
}

static void check(lua_State *L, int st, const char *fname) {
  if (st != ASTAR_OK) la_raise(L, st, fname);
}

static void no_hex(lua_State *L, const astar_grid *g, const char *fname) {
  if (g->diagonal == ASTAR_DIAG_HEX)
    luaL_error(L, "%s: not available on a hex grid", fname);
}

/* grid:clearance(x, y [, unit]) */
static int g_clearance(lua_State *L) {
  lgrid *ud = lg_check(L, "clearance");
  int32_t x = la_x(L, 2, "clearance", "x", &ud->g);
  int32_t y = la_y(L, 3, "clearance", "y", &ud->g);
  int unit = unit_arg(L, 4, "clearance"), v;
  astar_grid *g = lg_core(L, ud, "clearance");
  check(L, astar_grid_prepare_size(g, unit, 1, ASTAR_PREPARE_CLEARANCE),
        "clearance");
  check(L, astar_grid_clearance(g, unit, x, y, &v), "clearance");
  lg_report(L, ud);
  lua_pushinteger(L, v);
  return 1;
}

/* grid:line_of_sight(x1, y1, x2, y2 [, unit [, size]]) */
static int g_line_of_sight(lua_State *L) {
  const char *fname = "line_of_sight";
  lgrid *ud = lg_check(L, fname);
  int32_t x1 = la_x(L, 2, fname, "x1", &ud->g);
  int32_t y1 = la_y(L, 3, fname, "y1", &ud->g);
  int32_t x2 = la_x(L, 4, fname, "x2", &ud->g);
  int32_t y2 = la_y(L, 5, fname, "y2", &ud->g);
  int unit = unit_arg(L, 6, fname), size = 1, st;
  int32_t bx, by;
  astar_grid *g;
  if (!lua_isnoneornil(L, 7)) size = la_size_value(L, 7, 7, fname, &ud->g);
  g = lg_core(L, ud, fname);
  no_hex(L, g, fname);
  check(L, astar_grid_prepare_size(g, unit, size, 0), fname);
  st = astar_line_of_sight(g, unit, size, x1, y1, x2, y2, &bx, &by);
  lg_report(L, ud);
  if (st < 0) la_raise(L, st, fname);
  if (st == 1) {
    lua_pushboolean(L, 1);
    return 1;
  }
  lua_pushboolean(L, 0);
  lua_pushinteger(L, bx + 1);
  lua_pushinteger(L, by + 1);
  return 3;
}

static const char *const smooth_keys[] = {"unit", "size", NULL};

/* One coordinate of the path at arg: path[k] (1-based), in 1..hi. */
static int32_t path_coord(lua_State *L, int arg, int k, int32_t hi) {
  char buf[64];
  double v;
  if (compat_rawgeti_type(L, arg, k) == LUA_TNUMBER) {
#if LUA_VERSION_NUM >= 503 /* integers (and integral floats) directly */
    int isnum;
    lua_Integer i = lua_tointegerx(L, -1, &isnum);
    if (isnum && i >= 1 && i <= hi) {
      lua_pop(L, 1);
      return (int32_t)i - 1;
    }
#else
    v = (double)lua_tonumber(L, -1);
    if (v >= 1 && v <= hi && v == (double)(int32_t)v) {
      lua_pop(L, 1);
      return (int32_t)v - 1;
    }
#endif
  }
  v = lua_type(L, -1) == LUA_TNUMBER ? (double)lua_tonumber(L, -1) : NAN;
  if (!(v == floor(v)) || isinf(v))
    la_error(L, arg, "smooth", "path[%d] must be an integer, got %s", k,
             la_describe(L, -1, buf, sizeof buf));
  if (v < 1 || v > hi)
    la_error(L, arg, "smooth", "path[%d] (%s of waypoint %d) out of range "
             "1..%d, got %s", k, k % 2 ? "x" : "y", (k + 1) / 2,
             (int)hi, la_describe(L, -1, buf, sizeof buf));
  lua_pop(L, 1);
  return (int32_t)v - 1;
}

#define READ_BATCH 32 /* numbers read before the stack is popped */

/* path[1 .. len] into xy (0-based), in batches popped at once: the Lua API
 * calls per number are most of what smoothing a long path costs.  A
 * number that is not a tile coordinate goes through path_coord, which
 * raises the error. */
static void read_coords(lua_State *L, lgrid *ud, int32_t *xy, size_t len) {
  size_t i = 0;
  luaL_checkstack(L, READ_BATCH + 8, "smooth");
  while (i < len) {
    size_t m = len - i, j;
    int top = lua_gettop(L);
    if (m > READ_BATCH) m = READ_BATCH;
    for (j = 0; j < m; j++) {
      size_t e = i + j;
      int32_t hi = e % 2 == 0 ? ud->g.width : ud->g.height;
#if LUA_VERSION_NUM >= 503 /* integers (and integral floats) directly */
      int isnum = 0;
      lua_Integer v = 0;
      if (lua_rawgeti(L, 2, (int)(e + 1)) == LUA_TNUMBER)
        v = lua_tointegerx(L, -1, &isnum);
      if (isnum && v >= 1 && v <= hi) {
        xy[e] = (int32_t)v - 1;
        continue;
      }
#else
      lua_Number v = 0;
      lua_rawgeti(L, 2, (int)(e + 1));
      if (lua_type(L, -1) == LUA_TNUMBER) v = lua_tonumber(L, -1);
      if (v >= 1 && v <= hi && v == (lua_Number)(int32_t)v) {
        xy[e] = (int32_t)v - 1;
        continue;
      }
#endif
      lua_pop(L, 1);
      xy[e] = path_coord(L, 2, (int)(e + 1), hi); /* raises */
    }
    lua_settop(L, top);
    i += m;
  }
}

/* grid:smooth(path [, out [, options]]) -> waypoints (out, or a new table) */
static int g_smooth(lua_State *L) {
  char buf[64];
  const char *fname = "smooth";
  lgrid *ud = lg_check(L, fname);
  int unit = 0, size = 1, st, t;
  size_t n, nout = 0, bad = 0, k;
  lua_Integer len;
  int32_t *xy;
  double *sum;
  astar_grid *g;
  lua_settop(L, 4);
  la_table(L, 2, fname, "path");
  t = lua_type(L, 3);
  if (t != LUA_TNIL && t != LUA_TTABLE)
    la_error(L, 3, fname, "out must be a table, got %s",
             la_describe(L, 3, buf, sizeof buf));
  if (la_options(L, 4, fname, smooth_keys)) {
    unit = lt_unit_option(L, 4, fname, 1);
    size = la_size_option(L, 4, fname, &ud->g);
  }
  len = (lua_Integer)compat_rawlen(L, 2);
  if (len % 2 != 0)
    la_error(L, 2, fname, "path must be a flat list of x, y pairs, got %d "
             "numbers", (int)len);
  if (len > INT_MAX / 2 - 2)
    la_error(L, 2, fname, "path too long");
  n = (size_t)(len / 2);
  /* the options' Lua code has run: from here on nothing runs Lua code,
   * so the grid's own buffer (kept for the next call) is safe to fill */
  g = lg_core(L, ud, fname);
  no_hex(L, g, fname);
  if ((size_t)-1 / (sizeof(double) + 2 * sizeof(int32_t)) <= n)
    la_raise(L, ASTAR_ENOMEM, fname);
  sum = (double *)lg_buffer(L, ud, LG_BUF_SMOOTH,
                            (n > 0 ? n : 1) * (sizeof(double) +
                                               2 * sizeof(int32_t)));
  xy = (int32_t *)(void *)(sum + (n > 0 ? n : 1));
  read_coords(L, ud, xy, 2 * n);
  check(L, astar_grid_prepare_size(g, unit, size, 0), fname);
  st = astar_smooth(g, unit, size, xy, n, xy, &nout, &bad, sum);
  lg_report(L, ud);
  if (st == ASTAR_EINVAL) {
    int32_t bx = -1, by = -1;
    int los = astar_line_of_sight(g, unit, size, xy[2 * bad],
                                  xy[2 * bad + 1], xy[2 * bad + 2],
                                  xy[2 * bad + 3], &bx, &by);
    if (los == 0)
      la_error(L, 2, fname, "path crosses a blocked tile at (%d, %d) "
               "between waypoints %d and %d", (int)bx + 1, (int)by + 1,
               (int)bad + 1, (int)bad + 2);
    la_error(L, 2, fname, "path cannot go from waypoint %d to %d (%d, %d) "
             "-> (%d, %d)", (int)bad + 1, (int)bad + 2, (int)xy[2 * bad] + 1,
             (int)xy[2 * bad + 1] + 1, (int)xy[2 * bad + 2] + 1,
             (int)xy[2 * bad + 3] + 1);
  }
  check(L, st, fname);
  if (t == LUA_TTABLE)
    lua_pushvalue(L, 3);
  else
    lua_createtable(L, (int)(2 * nout), 0);
  for (k = 0; k < nout; k++) {
    lua_pushinteger(L, xy[2 * k] + 1);
    lua_rawseti(L, -2, (int)(2 * k + 1));
    lua_pushinteger(L, xy[2 * k + 1] + 1);
    lua_rawseti(L, -2, (int)(2 * k + 2));
  }
  if (t == LUA_TTABLE) { /* what is left of an older, longer list */
    lua_Integer i = (lua_Integer)nout * 2;
    while (i < INT_MAX) {
      lua_rawgeti(L, -1, (int)++i);
      if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        break;
      }
      lua_pop(L, 1);
      lua_pushnil(L);
      lua_rawseti(L, -2, (int)i);
    }
  }
  return 1;
}

const luaL_Reg lsi_grid_methods[] = {
    {"clearance", g_clearance},
    {"line_of_sight", g_line_of_sight},
    {"smooth", g_smooth},
    {NULL, NULL}};
const char *const *const lsi_smooth_keys = smooth_keys;

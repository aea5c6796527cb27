/*
 * Grid links in Lua: grid:link, grid:unlink, grid:links (stairs, ladders,
 * teleports, doors between two tiles; see links.c).
 */
#include "astar.h"
#include "compat.h"
#include "lua_args.h"
#include "lua_grid.h"

#include <lauxlib.h>
#include <lua.h>
#include <math.h>

/* Reads the two ends (args 2..5, 0-based out). */
static void ends(lua_State *L, lgrid *ud, const char *fname, int32_t *e) {
  e[0] = la_x(L, 2, fname, "x1", &ud->g);
  e[1] = la_y(L, 3, fname, "y1", &ud->g);
  e[2] = la_x(L, 4, fname, "x2", &ud->g);
  e[3] = la_y(L, 5, fname, "y2", &ud->g);
}

/* grid:link(x1, y1, x2, y2, cost [, one_way]) */
static int g_link(lua_State *L) {
  char buf[64];
  lgrid *ud = lg_check(L, "link");
  astar_grid *g;
  int32_t e[4];
  double cost;
  int one_way = 0, st, k;
  ends(L, ud, "link", e);
  cost = lua_type(L, 6) == LUA_TNUMBER ? (double)lua_tonumber(L, 6) : NAN;
  if (!(cost >= 0.0 && cost <= 1e300))
    la_error(L, 6, "link", "cost must be a finite number >= 0, got %s",
             la_describe(L, 6, buf, sizeof buf));
  if (!lua_isnoneornil(L, 7)) {
    if (lua_type(L, 7) != LUA_TBOOLEAN)
      la_error(L, 7, "link", "one_way must be a boolean, got %s",
               la_describe(L, 7, buf, sizeof buf));
    one_way = lua_toboolean(L, 7);
  }
  if (e[0] == e[2] && e[1] == e[3])
    la_error(L, 4, "link", "a link joins two different tiles, got (%d, %d) "
             "twice", (int)e[0] + 1, (int)e[1] + 1);
  g = lg_core(L, ud, "link");
  for (k = 0; k < 2; k++) {
    int32_t x = k ? e[2] : e[0], y = k ? e[3] : e[1];
    if (astar_grid_is_blocked(g, x, y))
      la_error(L, k ? 4 : 2, "link", "tile (%d, %d) is blocked: a link "
               "must start and end on open tiles", (int)x + 1, (int)y + 1);
  }
  st = astar_grid_link(g, e[0], e[1], e[2], e[3], cost, !one_way);
  if (st != ASTAR_OK) la_raise(L, st, "link");
  lg_report(L, ud);
  return 0;
}

/* grid:unlink(x1, y1, x2, y2) -> true when a link was there (either way) */
static int g_unlink(lua_State *L) {
  lgrid *ud = lg_check(L, "unlink");
  int32_t e[4];
  int removed = 0;
  ends(L, ud, "unlink", e);
  (void)astar_grid_unlink(lg_core(L, ud, "unlink"), e[0], e[1], e[2], e[3],
                          &removed);
  lua_pushboolean(L, removed > 0);
  return 1;
}

/* grid:links() -> { {x1, y1, x2, y2, cost, one_way}, ... }: a two-way
 * link once, from its end with the lower index */
static int g_links(lua_State *L) {
  lgrid *ud = lg_check(L, "links");
  astar_grid *g = lg_core(L, ud, "links");
  size_t i, n = 0, count = g->nlinks;
  lua_createtable(L, (int)count, 0);
  /* the table's growth may run finalizers: re-read the grid each time */
  for (i = 0; !ud->closed && i < g->nlinks && i < count; i++) {
    astar_link k = g->links[i];
    int32_t x1, y1, x2, y2;
    if (k.two_way && k.from > k.to) continue;
    astar_xy(g, k.from, &x1, &y1);
    astar_xy(g, k.to, &x2, &y2);
    lua_createtable(L, 6, 0);
    lua_pushinteger(L, x1 + 1);
    lua_rawseti(L, -2, 1);
    lua_pushinteger(L, y1 + 1);
    lua_rawseti(L, -2, 2);
    lua_pushinteger(L, x2 + 1);
    lua_rawseti(L, -2, 3);
    lua_pushinteger(L, y2 + 1);
    lua_rawseti(L, -2, 4);
    lua_pushnumber(L, (lua_Number)k.cost);
    lua_rawseti(L, -2, 5);
    lua_pushboolean(L, !k.two_way);
    lua_rawseti(L, -2, 6);
    lua_rawseti(L, -2, (int)++n);
  }
  return 1;
}

const luaL_Reg lk_grid_methods[] = {
    {"link", g_link},
    {"unlink", g_unlink},
    {"links", g_links},
    {NULL, NULL}};

/*
 * Terrain weights: terrain classes, unit classes (cost tables) and
 * heights.
 *
 * Names of terrain and unit classes live in the grid's user value, one
 * names table per kind mapping name -> id and id -> name; the core knows
 * only the ids.  Every method reads its arguments whole (a cost table
 * into a C array) before it takes the map with lg_core.
 */
#include "lua_args.h"
#include "lua_grid.h"

#include <lauxlib.h>
#include <lua.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define TERRAIN_RULE "a defined terrain name or an integer 0..255"

/* ---- names ---- */

void lt_push_names(lua_State *L, int grid, const char *kind) {
  compat_getuservalue(L, grid);
  lua_getfield(L, -1, kind);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    lua_newtable(L);
    if (strcmp(kind, "unit") == 0) { /* unit 0 is the default one */
      lua_pushinteger(L, 0);
      lua_setfield(L, -2, "default");
      lua_pushliteral(L, "default");
      lua_rawseti(L, -2, 0);
    }
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, kind);
  }
  lua_remove(L, -2);
}

/* A name argument: a non-empty string other than "*". */
static const char *check_name(lua_State *L, int idx, int arg,
                              const char *fname, const char *what) {
  char buf[64];
  size_t len = 0;
  if (lua_type(L, idx) != LUA_TSTRING ||
      (lua_tolstring(L, idx, &len), len == 0) || la_streq(L, idx, "*"))
    la_error(L, arg, fname, "%s must be a non-empty string other than '*', "
             "got %s", what, la_describe(L, idx, buf, sizeof buf));
  return lua_tostring(L, idx);
}

void lt_terrain_option(lua_State *L, int arg, const char *fname) {
  char buf[64], what[40];
  int names, list, i, n;
  lua_newtable(L);
  names = lua_gettop(L);
  if (lua_type(L, arg) != LUA_TTABLE) return;
  lua_getfield(L, arg, "terrains");
  list = lua_gettop(L);
  if (lua_isnil(L, list)) {
    lua_pop(L, 1);
    return;
  }
  if (lua_type(L, list) != LUA_TTABLE)
    la_error(L, arg, fname, "terrains must be a list of names, got %s",
             la_describe(L, list, buf, sizeof buf));
  n = (int)compat_rawlen(L, list);
  if (n > ASTAR_TERRAINS)
    la_error(L, arg, fname, "terrains has %d names, at most %d", n,
             ASTAR_TERRAINS);
  for (i = 1; i <= n; i++) {
    lua_rawgeti(L, list, i);
    snprintf(what, sizeof what, "terrains[%d]", i);
    check_name(L, -1, arg, fname, what);
    lua_pushvalue(L, -1);
    lua_rawget(L, names);
    if (!lua_isnil(L, -1))
      la_error(L, arg, fname, "terrains[%d] repeats %s", i,
               la_describe(L, -2, buf, sizeof buf));
    lua_pop(L, 1);
    lua_pushvalue(L, -1);
    lua_pushinteger(L, i - 1);
    lua_rawset(L, names);
    lua_rawseti(L, names, i - 1);
  }
  lua_pop(L, 1);
}

int lt_terrain_id(lua_State *L, int idx, int names) {
  if (lua_type(L, idx) == LUA_TSTRING) {
    int id;
    lua_pushvalue(L, idx);
    lua_rawget(L, names);
    id = lua_isnumber(L, -1) ? (int)lua_tointeger(L, -1) : -1;
    lua_pop(L, 1);
    return id;
  }
  if (lua_type(L, idx) == LUA_TNUMBER) {
    lua_Number v = lua_tonumber(L, idx);
    if (v >= 0 && v < ASTAR_TERRAINS && v == floor(v)) return (int)v;
  }
  return -1;
}

/* The terrain at argument arg of a grid method (the grid is argument 1). */
static int terrain_arg(lua_State *L, int arg, const char *fname) {
  char buf[64];
  int id;
  lt_push_names(L, 1, "terrain");
  id = lt_terrain_id(L, arg, lua_gettop(L));
  lua_pop(L, 1);
  if (id < 0)
    la_error(L, arg, fname, "terrain must be " TERRAIN_RULE ", got %s",
             la_describe(L, arg, buf, sizeof buf));
  return id;
}

static void check_status(lua_State *L, int st, const char *fname) {
  if (st != ASTAR_OK) la_raise(L, st, fname);
}

/* grid:define_terrain(name) -> id */
static int g_define_terrain(lua_State *L) {
  int names, id;
  (void)lg_check(L, "define_terrain");
  lua_settop(L, 2);
  check_name(L, 2, 2, "define_terrain", "name");
  lt_push_names(L, 1, "terrain");
  names = lua_gettop(L);
  lua_pushvalue(L, 2);
  lua_rawget(L, names);
  if (!lua_isnil(L, -1)) return 1;
  for (id = 0; id < ASTAR_TERRAINS; id++) {
    lua_rawgeti(L, names, id);
    if (lua_isnil(L, -1)) break;
    lua_pop(L, 1);
  }
  if (id == ASTAR_TERRAINS)
    la_error(L, 2, "define_terrain", "all %d terrain classes have names",
             ASTAR_TERRAINS);
  lua_pushvalue(L, 2);
  lua_pushinteger(L, id);
  lua_rawset(L, names);
  lua_pushvalue(L, 2);
  lua_rawseti(L, names, id);
  lua_pushinteger(L, id);
  return 1;
}

/* grid:set_terrain(x, y, terrain) */
static int g_set_terrain(lua_State *L) {
  lgrid *ud = lg_check(L, "set_terrain");
  int32_t x = la_x(L, 2, "set_terrain", "x", &ud->g);
  int32_t y = la_y(L, 3, "set_terrain", "y", &ud->g);
  int t = terrain_arg(L, 4, "set_terrain");
  astar_grid *g = lg_core(L, ud, "set_terrain");
  check_status(L, astar_grid_set_terrain(g, x, y, t), "set_terrain");
  return 0;
}

/* grid:get_terrain(x, y) -> name, or id when it has none */
static int g_get_terrain(lua_State *L) {
  lgrid *ud = lg_check(L, "get_terrain");
  int32_t x = la_x(L, 2, "get_terrain", "x", &ud->g);
  int32_t y = la_y(L, 3, "get_terrain", "y", &ud->g);
  int t = astar_grid_get_terrain(lg_core(L, ud, "get_terrain"), x, y);
  lt_push_names(L, 1, "terrain");
  lua_rawgeti(L, -1, t);
  if (lua_isnil(L, -1)) lua_pushinteger(L, t);
  return 1;
}

/* grid:fill_terrain(terrain [, x, y, w, h]) */
static int g_fill_terrain(lua_State *L) {
  lgrid *ud = lg_check(L, "fill_terrain");
  astar_grid *g = &ud->g;
  int t = terrain_arg(L, 2, "fill_terrain");
  int32_t x = 0, y = 0, w = g->width, h = g->height;
  if (lua_gettop(L) >= 3) { /* a rectangle: fill_terrain(t, nil) is an
                               error, not the whole grid */
    x = la_x(L, 3, "fill_terrain", "x", g);
    y = la_y(L, 4, "fill_terrain", "y", g);
    w = la_int(L, 5, "fill_terrain", "w", 0, g->width - x, "out of range");
    h = la_int(L, 6, "fill_terrain", "h", 0, g->height - y, "out of range");
  }
  g = lg_core(L, ud, "fill_terrain");
  check_status(L, astar_grid_fill_terrain(g, x, y, w, h, t), "fill_terrain");
  return 0;
}

/* ---- bulk loads of terrain and heights ---- */

enum { LAYER_TERRAIN, LAYER_HEIGHT };

/* The value at idx for a tile of a bulk load: a terrain id or a height;
 * -1 (terrain) or NaN (height) when invalid. */
static double layer_value(lua_State *L, int idx, int layer, int names) {
  if (layer == LAYER_TERRAIN) return (double)lt_terrain_id(L, idx, names);
  if (lua_type(L, idx) == LUA_TNUMBER) {
    double v = (double)lua_tonumber(L, idx);
    if (fabs(v) <= ASTAR_MAX_HEIGHT) return v;
  }
  return NAN;
}

static int value_ok(double v, int layer) {
  return layer == LAYER_TERRAIN ? v >= 0.0 : v == v;
}

/* Checks (apply = 0) or applies a table of rows t[y][x] or a flat t[i]. */
static void table_layer(lua_State *L, astar_grid *g, int arg,
                        const char *fname, int layer, int names, int apply) {
  char buf[64];
  int32_t x, y;
  int rows = lg_table_rows(L, arg, fname, g);
  const char *rule = layer == LAYER_TERRAIN
                         ? "terrain must be " TERRAIN_RULE
                         : "height must be a finite number, at most 1e+15 "
                           "in size";
  for (y = 0; y < g->height; y++) {
    if (rows) lg_table_row(L, arg, fname, g, y);
    for (x = 0; x < g->width; x++) {
      double v;
      uint32_t i = astar_index(g, x, y);
      lg_table_tile(L, arg, rows, g, x, y);
      v = layer_value(L, -1, layer, names);
      if (!value_ok(v, layer))
        la_error(L, arg, fname, "row %d, column %d: %s, got %s", (int)y + 1,
                 (int)x + 1, rule, la_describe(L, -1, buf, sizeof buf));
      if (apply && layer == LAYER_TERRAIN)
        astar_grid_put_terrain(g, i, (int)v);
      else if (apply)
        astar_grid_put_height(g, i, (float)v);
      lua_pop(L, 1);
    }
    if (rows) lua_pop(L, 1);
  }
}

/* A text legend for a layer: the table at arg (char -> terrain), or the
 * digits 0..9 when absent. */
static void layer_legend(lua_State *L, int arg, const char *fname, int layer,
                         int names, astar_legend *legend) {
  char buf[64], vbuf[64];
  int c;
  memset(legend, 0, sizeof *legend);
  if (lua_isnoneornil(L, arg) || layer == LAYER_HEIGHT) {
    for (c = '0'; c <= '9'; c++) {
      if (layer == LAYER_TERRAIN) {
        legend->kind[c] = ASTAR_LEGEND_TERRAIN;
        legend->terrain[c] = (int16_t)(c - '0' + 1);
      } else {
        legend->kind[c] = ASTAR_LEGEND_HEIGHT;
        legend->cost[c] = (float)(c - '0');
      }
    }
    return;
  }
  if (lua_type(L, arg) != LUA_TTABLE)
    la_error(L, arg, fname, "legend must be a table, got %s",
             la_describe(L, arg, buf, sizeof buf));
  lua_pushnil(L);
  while (lua_next(L, arg)) {
    size_t len = 0;
    int id;
    if (lua_type(L, -2) != LUA_TSTRING ||
        (lua_tolstring(L, -2, &len), len != 1))
      la_error(L, arg, fname, "legend keys must be single characters, got %s",
               la_describe(L, -2, buf, sizeof buf));
    id = lt_terrain_id(L, -1, names);
    if (id < 0)
      la_error(L, arg, fname, "legend[%s] must be " TERRAIN_RULE ", got %s",
               la_describe(L, -2, buf, sizeof buf),
               la_describe(L, -1, vbuf, sizeof vbuf));
    c = (unsigned char)lua_tostring(L, -2)[0];
    legend->kind[c] = ASTAR_LEGEND_TERRAIN;
    legend->terrain[c] = (int16_t)(id + 1);
    lua_pop(L, 1);
  }
}

static int load_layer(lua_State *L, const char *fname, int layer) {
  char buf[64];
  lgrid *ud = lg_check(L, fname);
  astar_grid *g = &ud->g;
  int names, st;
  lua_settop(L, 3); /* the names table gets an index of its own */
  lt_push_names(L, 1, "terrain");
  names = lua_gettop(L);
  if (lua_type(L, 2) == LUA_TSTRING) {
    size_t len;
    const char *s = lua_tolstring(L, 2, &len);
    astar_legend legend;
    astar_parse_error e;
    layer_legend(L, 3, fname, layer, names, &legend);
    g = lg_core(L, ud, fname);
    if (layer == LAYER_HEIGHT && astar_grid_use_height(g) != ASTAR_OK)
      la_raise(L, ASTAR_ENOMEM, fname);
    st = astar_grid_load_text(g, s, len, &legend, &e);
    if (st == ASTAR_EPARSE) lm_text_error(L, 2, fname, &e);
    check_status(L, st, fname);
    return 0;
  }
  if (lua_type(L, 2) != LUA_TTABLE)
    la_error(L, 2, fname, "expected a table of rows or a string, got %s",
             la_describe(L, 2, buf, sizeof buf));
  table_layer(L, g, 2, fname, layer, names, 0);
  g = lg_core(L, ud, fname);
  st = layer == LAYER_TERRAIN ? astar_grid_use_terrain(g)
                              : astar_grid_use_height(g);
  check_status(L, st, fname);
  table_layer(L, g, 2, fname, layer, names, 1);
  astar_grid_refresh(g);
  return 0;
}

/* grid:load_terrain(rows | text [, legend]) */
static int g_load_terrain(lua_State *L) {
  return load_layer(L, "load_terrain", LAYER_TERRAIN);
}

/* grid:load_heights(rows | digits) */
static int g_load_heights(lua_State *L) {
  return load_layer(L, "load_heights", LAYER_HEIGHT);
}

/* grid:set_height(x, y, h) */
static int g_set_height(lua_State *L) {
  char buf[64];
  lgrid *ud = lg_check(L, "set_height");
  int32_t x = la_x(L, 2, "set_height", "x", &ud->g);
  int32_t y = la_y(L, 3, "set_height", "y", &ud->g);
  double h = lua_type(L, 4) == LUA_TNUMBER ? (double)lua_tonumber(L, 4) : NAN;
  if (!(fabs(h) <= ASTAR_MAX_HEIGHT))
    la_error(L, 4, "set_height", "height must be a finite number, at most "
             "1e+15 in size, got %s", la_describe(L, 4, buf, sizeof buf));
  check_status(L, astar_grid_set_height(lg_core(L, ud, "set_height"), x, y, h),
               "set_height");
  return 0;
}

/* grid:get_height(x, y) */
static int g_get_height(lua_State *L) {
  lgrid *ud = lg_check(L, "get_height");
  int32_t x = la_x(L, 2, "get_height", "x", &ud->g);
  int32_t y = la_y(L, 3, "get_height", "y", &ud->g);
  double h = astar_grid_get_height(lg_core(L, ud, "get_height"), x, y);
  lua_pushnumber(L, (lua_Number)h);
  return 1;
}

/* ---- unit classes ---- */

static const char *const unit_keys[] = {"climb", "descend", "max_climb",
                                        "max_drop", NULL};

/* grid:set_unit(name, costs [, options]) */
static int g_set_unit(lua_State *L) {
  char buf[64], vbuf[64];
  lgrid *ud = lg_check(L, "set_unit");
  float table[ASTAR_TERRAINS], star = 1.0f;
  double climb = 0, descend = 0, max_climb = HUGE_VAL, max_drop = HUGE_VAL;
  int terrains, units, id, t, st;
  lua_settop(L, 4);
  check_name(L, 2, 2, "set_unit", "name");
  la_table(L, 3, "set_unit", "costs");
  lt_push_names(L, 1, "terrain");
  terrains = lua_gettop(L);
  lt_push_names(L, 1, "unit");
  units = lua_gettop(L);
  /* "*" first: it is what every terrain not named costs */
  lua_getfield(L, 3, "*");
  if (!lua_isnil(L, -1)) {
    int ok;
    star = la_tile_value(L, -1, &ok);
    if (!ok)
      la_error(L, 3, "set_unit", "costs['*'] must be " COST_RULE ", got %s",
               la_describe(L, -1, buf, sizeof buf));
  }
  lua_pop(L, 1);
  for (t = 0; t < ASTAR_TERRAINS; t++) table[t] = star;
  lua_pushnil(L);
  while (lua_next(L, 3)) {
    int ok;
    float c;
    if (la_streq(L, -2, "*")) {
      lua_pop(L, 1);
      continue;
    }
    t = lt_terrain_id(L, -2, terrains);
    if (t < 0)
      la_error(L, 3, "set_unit", "costs keys must be " TERRAIN_RULE
               " or '*', got %s", la_describe(L, -2, buf, sizeof buf));
    c = la_tile_value(L, -1, &ok);
    if (!ok)
      la_error(L, 3, "set_unit", "costs[%s] must be " COST_RULE ", got %s",
               la_describe(L, -2, buf, sizeof buf),
               la_describe(L, -1, vbuf, sizeof vbuf));
    table[t] = c;
    lua_pop(L, 1);
  }
  if (la_options(L, 4, "set_unit", unit_keys)) {
    const char *rule = "a number in [0, 1e+15]";
    climb = la_number(L, 4, "set_unit", "climb", 0, ASTAR_MAX_HEIGHT, rule, 0);
    descend =
        la_number(L, 4, "set_unit", "descend", 0, ASTAR_MAX_HEIGHT, rule, 0);
    rule = "a number >= 0 (math.huge: no limit)";
    max_climb = la_number(L, 4, "set_unit", "max_climb", 0, HUGE_VAL, rule,
                          HUGE_VAL);
    max_drop = la_number(L, 4, "set_unit", "max_drop", 0, HUGE_VAL, rule,
                         HUGE_VAL);
  }
  /* the unit's id: its own, or the first free one */
  lua_pushvalue(L, 2);
  lua_rawget(L, units);
  if (lua_isnumber(L, -1)) {
    id = (int)lua_tointeger(L, -1);
  } else {
    for (id = 1; id < ASTAR_MAX_UNITS; id++) {
      lua_rawgeti(L, units, id);
      if (lua_isnil(L, -1)) break;
      lua_pop(L, 1);
    }
    if (id == ASTAR_MAX_UNITS)
      la_error(L, 2, "set_unit", "a grid holds at most %d unit classes",
               ASTAR_MAX_UNITS);
  }
  /* every argument read (the tables' metamethods may have run) */
  st = astar_unit_define(lg_core(L, ud, "set_unit"), id, table, climb,
                         descend, max_climb, max_drop);
  check_status(L, st, "set_unit");
  lua_pushvalue(L, 2);
  lua_pushinteger(L, id);
  lua_rawset(L, units);
  lua_pushvalue(L, 2);
  lua_rawseti(L, units, id);
  return 0;
}

int lt_unit_id(lua_State *L, int idx, int arg, const char *fname,
               int grid) {
  char buf[64];
  int id = -1;
  lt_push_names(L, grid, "unit");
  if (lua_type(L, idx) == LUA_TSTRING) {
    lua_pushvalue(L, idx);
    lua_rawget(L, -2);
    if (lua_isnumber(L, -1)) id = (int)lua_tointeger(L, -1);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  if (id < 0)
    la_error(L, arg, fname, "unit must be the name of a unit class defined "
             "with set_unit, got %s", la_describe(L, idx, buf, sizeof buf));
  return id;
}

int lt_unit_option(lua_State *L, int arg, const char *fname, int grid) {
  int id = 0;
  if (lua_type(L, arg) != LUA_TTABLE) return 0;
  lua_getfield(L, arg, "unit");
  if (!lua_isnil(L, -1)) id = lt_unit_id(L, lua_gettop(L), arg, fname, grid);
  lua_pop(L, 1);
  return id;
}

const char *const *const lt_unit_keys = unit_keys;

const luaL_Reg lt_grid_methods[] = {
    {"define_terrain", g_define_terrain},
    {"set_terrain", g_set_terrain},
    {"get_terrain", g_get_terrain},
    {"fill_terrain", g_fill_terrain},
    {"load_terrain", g_load_terrain},
    {"set_height", g_set_height},
    {"get_height", g_get_height},
    {"load_heights", g_load_heights},
    {"set_unit", g_set_unit},
    {NULL, NULL}};

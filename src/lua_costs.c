/*
 * The binding's terrain weights: terrain classes, unit classes (cost
 * tables), heights, and the Lua cost callbacks of a query.
 *
 * Names of terrain and unit classes live in the grid's user value, one
 * names table per kind mapping name -> id and id -> name; the core knows
 * only the ids.  Callbacks run under lua_pcall: the core is told to stop
 * (it never sees a longjmp), unwinds, and then the error is raised again
 * with its original value.
 */
#include "lua_args.h"
#include "lua_grid.h"

#include <lauxlib.h>
#include <lua.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define TERRAIN_RULE "a defined terrain name or an integer 0..255"
#define CALLBACK_RULE "a positive finite number or false"

/* ---- names ---- */

void lc_push_names(lua_State *L, int grid, const char *kind) {
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
      (lua_tolstring(L, idx, &len), len == 0) ||
      strcmp(lua_tostring(L, idx), "*") == 0)
    la_error(L, arg, fname, "%s must be a non-empty string other than '*', "
             "got %s", what, la_describe(L, idx, buf, sizeof buf));
  return lua_tostring(L, idx);
}

void lc_terrain_option(lua_State *L, int arg, const char *fname) {
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

int lc_terrain_id(lua_State *L, int idx, int names) {
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
  lc_push_names(L, 1, "terrain");
  id = lc_terrain_id(L, arg, lua_gettop(L));
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
  (void)lg_check_grid(L, "define_terrain");
  lua_settop(L, 2);
  check_name(L, 2, 2, "define_terrain", "name");
  lc_push_names(L, 1, "terrain");
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
  astar_grid *g = lg_check_grid(L, "set_terrain");
  int32_t x = la_x(L, 2, "set_terrain", "x", g);
  int32_t y = la_y(L, 3, "set_terrain", "y", g);
  int t = terrain_arg(L, 4, "set_terrain");
  check_status(L, astar_grid_set_terrain(g, x, y, t), "set_terrain");
  return 0;
}

/* grid:get_terrain(x, y) -> name, or id when it has none */
static int g_get_terrain(lua_State *L) {
  astar_grid *g = lg_check_grid(L, "get_terrain");
  int32_t x = la_x(L, 2, "get_terrain", "x", g);
  int32_t y = la_y(L, 3, "get_terrain", "y", g);
  int t = astar_grid_get_terrain(g, x, y);
  lc_push_names(L, 1, "terrain");
  lua_rawgeti(L, -1, t);
  if (lua_isnil(L, -1)) lua_pushinteger(L, t);
  return 1;
}

/* grid:fill_terrain(terrain [, x, y, w, h]) */
static int g_fill_terrain(lua_State *L) {
  astar_grid *g = lg_check_grid(L, "fill_terrain");
  int t = terrain_arg(L, 2, "fill_terrain");
  int32_t x = 0, y = 0, w = g->width, h = g->height;
  if (lua_gettop(L) >= 3) { /* a rectangle: fill_terrain(t, nil) is an
                               error, not the whole grid */
    x = la_x(L, 3, "fill_terrain", "x", g);
    y = la_y(L, 4, "fill_terrain", "y", g);
    w = la_int(L, 5, "fill_terrain", "w", 0, g->width - x, "out of range");
    h = la_int(L, 6, "fill_terrain", "h", 0, g->height - y, "out of range");
  }
  check_status(L, astar_grid_fill_terrain(g, x, y, w, h, t), "fill_terrain");
  return 0;
}

/* ---- bulk loads of terrain and heights ---- */

enum { LAYER_TERRAIN, LAYER_HEIGHT };

/* The value at idx for a tile of a bulk load: a terrain id or a height;
 * -1 (terrain) or NaN (height) when invalid. */
static double layer_value(lua_State *L, int idx, int layer, int names) {
  if (layer == LAYER_TERRAIN) return (double)lc_terrain_id(L, idx, names);
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
    id = lc_terrain_id(L, -1, names);
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
  astar_grid *g = lg_check_grid(L, fname);
  int names, st;
  lua_settop(L, 3); /* the names table gets an index of its own */
  lc_push_names(L, 1, "terrain");
  names = lua_gettop(L);
  if (lua_type(L, 2) == LUA_TSTRING) {
    size_t len;
    const char *s = lua_tolstring(L, 2, &len);
    astar_legend legend;
    astar_parse_error e;
    layer_legend(L, 3, fname, layer, names, &legend);
    if (layer == LAYER_HEIGHT && astar_grid_use_height(g) != ASTAR_OK)
      la_raise(L, ASTAR_ENOMEM, fname);
    st = astar_grid_load_text(g, s, len, &legend, &e);
    if (st == ASTAR_EPARSE) lg_text_error(L, 2, fname, &e);
    check_status(L, st, fname);
    return 0;
  }
  if (lua_type(L, 2) != LUA_TTABLE)
    la_error(L, 2, fname, "expected a table of rows or a string, got %s",
             la_describe(L, 2, buf, sizeof buf));
  table_layer(L, g, 2, fname, layer, names, 0);
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
  astar_grid *g = lg_check_grid(L, "set_height");
  int32_t x = la_x(L, 2, "set_height", "x", g);
  int32_t y = la_y(L, 3, "set_height", "y", g);
  double h = lua_type(L, 4) == LUA_TNUMBER ? (double)lua_tonumber(L, 4) : NAN;
  if (!(fabs(h) <= ASTAR_MAX_HEIGHT))
    la_error(L, 4, "set_height", "height must be a finite number, at most "
             "1e+15 in size, got %s", la_describe(L, 4, buf, sizeof buf));
  check_status(L, astar_grid_set_height(g, x, y, h), "set_height");
  return 0;
}

/* grid:get_height(x, y) */
static int g_get_height(lua_State *L) {
  astar_grid *g = lg_check_grid(L, "get_height");
  int32_t x = la_x(L, 2, "get_height", "x", g);
  int32_t y = la_y(L, 3, "get_height", "y", g);
  lua_pushnumber(L, (lua_Number)astar_grid_get_height(g, x, y));
  return 1;
}

/* ---- unit classes ---- */

static const char *const unit_keys[] = {"climb", "descend", "max_climb",
                                        "max_drop", NULL};

/* grid:set_unit(name, costs [, options]) */
static int g_set_unit(lua_State *L) {
  char buf[64], vbuf[64];
  astar_grid *g = lg_check_grid(L, "set_unit");
  float table[ASTAR_TERRAINS], star = 1.0f;
  double climb = 0, descend = 0, max_climb = HUGE_VAL, max_drop = HUGE_VAL;
  int terrains, units, id, t, st;
  lua_settop(L, 4);
  check_name(L, 2, 2, "set_unit", "name");
  la_table(L, 3, "set_unit", "costs");
  lc_push_names(L, 1, "terrain");
  terrains = lua_gettop(L);
  lc_push_names(L, 1, "unit");
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
    if (lua_type(L, -2) == LUA_TSTRING &&
        strcmp(lua_tostring(L, -2), "*") == 0) {
      lua_pop(L, 1);
      continue;
    }
    t = lc_terrain_id(L, -2, terrains);
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
  st = astar_unit_define(g, id, table, climb, descend, max_climb, max_drop);
  check_status(L, st, "set_unit");
  lua_pushvalue(L, 2);
  lua_pushinteger(L, id);
  lua_rawset(L, units);
  lua_pushvalue(L, 2);
  lua_rawseti(L, units, id);
  return 0;
}

int lc_unit_id(lua_State *L, int idx, int arg, const char *fname,
               int grid) {
  char buf[64];
  int id = -1;
  lc_push_names(L, grid, "unit");
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

int lc_unit_option(lua_State *L, int arg, const char *fname, int grid) {
  int id = 0;
  if (lua_type(L, arg) != LUA_TTABLE) return 0;
  lua_getfield(L, arg, "unit");
  if (!lua_isnil(L, -1)) id = lc_unit_id(L, lua_gettop(L), arg, fname, grid);
  lua_pop(L, 1);
  return id;
}

/* ---- callbacks ---- */

/* Takes the callback's result off the stack into *out (0: impassable). */
static int take_result(lc_callbacks *cb, double *out, const char *name,
                       const char *where) {
  lua_State *L = cb->L;
  char buf[64];
  if (lua_type(L, -1) == LUA_TNUMBER &&
      astar_cost_ok((double)lua_tonumber(L, -1))) {
    *out = (double)lua_tonumber(L, -1);
  } else if (lua_type(L, -1) == LUA_TBOOLEAN && !lua_toboolean(L, -1)) {
    *out = 0.0;
  } else {
    snprintf(cb->msg, sizeof cb->msg, "%s returned %s for %s; expected "
             CALLBACK_RULE, name, la_describe(L, -1, buf, sizeof buf), where);
    cb->bad = 1;
    lua_pop(L, 1);
    return -1;
  }
  lua_pop(L, 1);
  return ASTAR_OK;
}

static int room(lc_callbacks *cb) {
  if (lua_checkstack(cb->L, 8)) return 1;
  snprintf(cb->msg, sizeof cb->msg, "callbacks nest too deep (no room on "
           "the Lua stack)");
  cb->bad = 1;
  return 0;
}

static int tile_hook(void *ud, int32_t x, int32_t y, double cost,
                     double *out) {
  lc_callbacks *cb = (lc_callbacks *)ud;
  lua_State *L = cb->L;
  char where[64];
  if (!room(cb)) return -1;
  lua_pushvalue(L, cb->tile);
  lua_pushinteger(L, x + 1);
  lua_pushinteger(L, y + 1);
  lua_pushnumber(L, (lua_Number)cost);
  if (lua_pcall(L, 3, 1, 0) != 0) return -1; /* the error stays on top */
  snprintf(where, sizeof where, "tile (%d, %d)", (int)x + 1, (int)y + 1);
  return take_result(cb, out, "tile_cost", where);
}

static int move_hook(void *ud, int32_t x1, int32_t y1, int32_t x2,
                     int32_t y2, double cost, double *out) {
  lc_callbacks *cb = (lc_callbacks *)ud;
  lua_State *L = cb->L;
  char where[80];
  if (!room(cb)) return -1;
  lua_pushvalue(L, cb->move);
  lua_pushinteger(L, x1 + 1);
  lua_pushinteger(L, y1 + 1);
  lua_pushinteger(L, x2 + 1);
  lua_pushinteger(L, y2 + 1);
  lua_pushnumber(L, (lua_Number)cost);
  if (lua_pcall(L, 5, 1, 0) != 0) return -1;
  snprintf(where, sizeof where, "the step (%d, %d) -> (%d, %d)", (int)x1 + 1,
           (int)y1 + 1, (int)x2 + 1, (int)y2 + 1);
  return take_result(cb, out, "move_cost", where);
}

void lc_callbacks_init(lua_State *L, int arg, const char *fname,
                       lc_callbacks *cb, astar_query *q) {
  memset(cb, 0, sizeof *cb);
  cb->L = L;
  cb->arg = arg;
  if (lua_type(L, arg) != LUA_TTABLE) return;
  cb->tile = la_typed_option(L, arg, fname, "tile_cost", LUA_TFUNCTION);
  cb->move = la_typed_option(L, arg, fname, "move_cost", LUA_TFUNCTION);
  q->min_cost = la_number(L, arg, fname, "min_cost", 0, 3.4028234663852886e38,
                          "a number in [0, 3.4e+38]", 0);
  if (cb->tile) q->tile_fn = tile_hook;
  if (cb->move) q->move_fn = move_hook;
  q->fn_ud = cb;
}

void lc_callbacks_raise(lua_State *L, const char *fname, lc_callbacks *cb,
                        int status, const astar_result *r) {
  if (status == ASTAR_ECALLBACK && !cb->bad) lua_error(L); /* as raised */
  if (status == ASTAR_ECALLBACK)
    la_error(L, cb->arg, fname, "%s", cb->msg);
  if (status == ASTAR_EBOUND) {
    if (r->bad_x1 == r->bad_x2 && r->bad_y1 == r->bad_y2)
      la_error(L, cb->arg, fname, "tile_cost returned %.14g for tile (%d, "
               "%d), below the lower bound %.14g that the heuristic assumes "
               "(set min_cost to at most %.14g)", r->bad_cost,
               (int)r->bad_x1 + 1, (int)r->bad_y1 + 1, r->bad_bound,
               r->bad_cost);
    la_error(L, cb->arg, fname, "move_cost returned %.14g for the step (%d, "
             "%d) -> (%d, %d), below the lower bound %.14g that the heuristic "
             "assumes (min_cost times the step's length; lower min_cost)",
             r->bad_cost, (int)r->bad_x1 + 1, (int)r->bad_y1 + 1,
             (int)r->bad_x2 + 1, (int)r->bad_y2 + 1, r->bad_bound);
  }
  la_raise(L, status, fname);
}

/* grid:fill(function(x, y, cost) -> cost | false): evaluates the function
 * once per tile, then bakes every result in; nothing changes on error. */
int lc_fill_function(lua_State *L, astar_grid *g) {
  char buf[64];
  int32_t x, y, w = g->width, h = g->height;
  size_t n = (size_t)w * (size_t)h;
  float *vals;
  if (n > ((size_t)-1) / sizeof(float)) la_raise(L, ASTAR_ENOMEM, "fill");
  lua_settop(L, 2);
  vals = (float *)lua_newuserdata(L, n * sizeof(float)); /* at 3 */
  g->busy = 1;
  for (y = 0; y < h; y++) {
    for (x = 0; x < w; x++) {
      double v = 0.0;
      lua_pushvalue(L, 2);
      lua_pushinteger(L, x + 1);
      lua_pushinteger(L, y + 1);
      if (astar_grid_is_blocked(g, x, y))
        lua_pushboolean(L, 0);
      else
        lua_pushnumber(L, (lua_Number)astar_grid_get_cost(g, x, y));
      if (lua_pcall(L, 3, 1, 0) != 0) {
        g->busy = 0;
        lua_error(L);
      }
      if (lua_type(L, -1) == LUA_TNUMBER &&
          astar_cost_ok((double)lua_tonumber(L, -1))) {
        v = (double)lua_tonumber(L, -1);
      } else if (!(lua_type(L, -1) == LUA_TBOOLEAN && !lua_toboolean(L, -1))) {
        g->busy = 0;
        la_error(L, 2, "fill", "the function returned %s for tile (%d, %d); "
                 "expected " CALLBACK_RULE,
                 la_describe(L, -1, buf, sizeof buf), (int)x + 1, (int)y + 1);
      }
      vals[(size_t)y * (size_t)w + (size_t)x] = (float)v;
      lua_pop(L, 1);
    }
  }
  g->busy = 0;
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      float c = vals[(size_t)y * (size_t)w + (size_t)x];
      astar_grid_put(g, astar_index(g, x, y), c, c > 0.0f);
    }
  astar_grid_refresh(g);
  return 0;
}

const luaL_Reg lc_grid_methods[] = {
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

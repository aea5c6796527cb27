/*
 * The Lua binding of the core: module astar.core.
 *
 * It checks arguments (raising `bad argument #N to 'name' (...)` with the
 * same text on every Lua version), converts 1-based Lua coordinates to the
 * core's 0-based ones, owns grids through userdata, and turns search
 * outcomes into results (`nil, reason`).  Grid memory comes from Lua's own
 * allocator and is freed in __gc/__close; every object is created in an
 * empty state before anything is acquired, so __gc is always safe.
 */
#include "astar.h"
#include "compat.h"
#include "lua_args.h"
#include "lua_grid.h"

#include <lauxlib.h>
#include <lua.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

lgrid *lg_to_grid(lua_State *L, int idx) {
  lgrid *ud = (lgrid *)lua_touserdata(L, idx);
  if (ud == NULL || !lua_getmetatable(L, idx)) return NULL;
  if (!lua_rawequal(L, -1, GRID_MT_UPVALUE)) ud = NULL;
  lua_pop(L, 1);
  return ud;
}

astar_grid *lg_check_grid(lua_State *L, const char *fname) {
  char buf[64];
  lgrid *ud = lg_to_grid(L, 1);
  if (ud == NULL)
    la_error(L, 1, fname, "grid expected, got %s",
              la_describe(L, 1, buf, sizeof buf));
  /* cppcheck-suppress nullPointerRedundantCheck ; arg_error never returns */
  if (ud->g.cost == NULL) luaL_error(L, "%s: the grid is closed", fname);
  if (ud->g.busy) la_raise(L, ASTAR_EBUSY, fname);
  return &ud->g;
}

/* ---- grid creation and movement options ---- */

static const char *const diagonal_names[] = {"no_corner_cut", "one_free",
                                             "always", "never", "hex", NULL};
#define DIAGONAL_LIST \
  "'no_corner_cut', 'one_free', 'always', 'never', 'hex'"
#define LENGTH_RULE "a number in [1e-09, 1e+09]"

/* Grid memory goes through the Lua state's own allocator (so a host's
 * memory limits and accounting see it).  The grid keeps the allocator, not
 * the lua_State: the state it was made in may be a coroutine that dies
 * first. */
static void *lua_alloc_adapter(void *ud, void *ptr, size_t osize,
                               size_t nsize) {
  lgrid *lg = (lgrid *)ud;
  return lg->alloc(lg->alloc_ud, ptr, osize, nsize);
}

/* Pushes a new grid (with the module's metatable).  names: the index of
 * its terrain names table. */
static astar_grid *push_grid(lua_State *L, int32_t w, int32_t h,
                             const char *fname, int warg, int names) {
  lgrid *ud = (lgrid *)compat_newuserdata(L, sizeof(lgrid));
  int st;
  astar_grid_zero(&ud->g);
  lua_pushvalue(L, GRID_MT_UPVALUE);
  lua_setmetatable(L, -2);
  lua_createtable(L, 0, 2); /* user value: names of terrains and units */
  lua_pushvalue(L, names);
  lua_setfield(L, -2, "terrain");
  compat_setuservalue(L, -2);
  ud->alloc = lua_getallocf(L, &ud->alloc_ud);
  st = astar_grid_init(&ud->g, w, h, lua_alloc_adapter, ud);
  if (st == ASTAR_ETOOBIG)
    la_error(L, warg, fname,
              "grid too large: %d x %d tiles (at most %u with a one-tile "
              "border)",
              (int)w, (int)h, (unsigned)ASTAR_MAX_PADDED_TILES);
  if (st != ASTAR_OK) la_raise(L, st, fname);
  /* The collector sees only the small userdata, not the arrays behind it:
   * make it do the work that allocating them would have caused, so a game
   * that makes a big grid per level does not pile up dead ones. */
  lua_gc(L, LUA_GCSTEP, (int)(astar_grid_bytes(w, h, 1) / 1024));
  return &ud->g;
}

static void check_movement(lua_State *L, int arg, const char *fname);

static const char *const movement_keys[] = {"diagonals", "cardinal",
                                            "diagonal", NULL};
static const char *const new_keys[] = {"diagonals", "cardinal", "diagonal",
                                       "cost", "terrains", NULL};

/* Applies diagonals/cardinal/diagonal from the options at arg. */
static void apply_movement(lua_State *L, astar_grid *g, int arg,
                           const char *fname) {
  int rule = la_enum(L, arg, fname, "diagonals", diagonal_names,
                         DIAGONAL_LIST, g->diagonal);
  double c = la_number(L, arg, fname, "cardinal", ASTAR_MIN_STEP_LENGTH,
                           ASTAR_MAX_STEP_LENGTH, LENGTH_RULE,
                           g->cardinal_length);
  double d = la_number(L, arg, fname, "diagonal", ASTAR_MIN_STEP_LENGTH,
                           ASTAR_MAX_STEP_LENGTH, LENGTH_RULE,
                           g->diagonal_length);
  if (astar_grid_set_movement(g, rule, c, d) != ASTAR_OK)
    luaL_error(L, "%s: invalid movement", fname);
}

/* Checks the options of a constructor before the grid exists, then applies
 * them: a bad option never leaves a half-made grid behind in a variable.
 * Pushes the names table of the `terrains` option; returns its index. */
static int check_new_options(lua_State *L, int arg, const char *fname) {
  if (la_options(L, arg, fname, new_keys)) check_movement(L, arg, fname);
  lc_terrain_option(L, arg, fname);
  return lua_gettop(L);
}

static void check_movement(lua_State *L, int arg, const char *fname) {
  (void)la_enum(L, arg, fname, "diagonals", diagonal_names,
                    DIAGONAL_LIST, 0);
  (void)la_number(L, arg, fname, "cardinal", ASTAR_MIN_STEP_LENGTH,
                      ASTAR_MAX_STEP_LENGTH, LENGTH_RULE, 1.0);
  (void)la_number(L, arg, fname, "diagonal", ASTAR_MIN_STEP_LENGTH,
                      ASTAR_MAX_STEP_LENGTH, LENGTH_RULE, 1.0);
  lua_getfield(L, arg, "cost");
  if (!lua_isnil(L, -1)) {
    int ok;
    char buf[64];
    (void)la_tile_value(L, -1, &ok);
    if (!ok)
      la_error(L, arg, fname, "cost must be " COST_RULE ", got %s",
                la_describe(L, -1, buf, sizeof buf));
  }
  lua_pop(L, 1);
}

static void apply_new_options(lua_State *L, astar_grid *g, int arg,
                              const char *fname) {
  if (lua_type(L, arg) != LUA_TTABLE) return;
  apply_movement(L, g, arg, fname);
  lua_getfield(L, arg, "cost");
  if (!lua_isnil(L, -1)) {
    int ok;
    float c = la_tile_value(L, -1, &ok);
    astar_grid_fill(g, 0, 0, g->width, g->height, c, c > 0.0f ? 0 : 1);
  }
  lua_pop(L, 1);
}

/* astar.new(width, height [, options]) */
static int l_new(lua_State *L) {
  int32_t w = la_int(L, 1, "new", "width", 1, ASTAR_MAX_SIDE, "out of range");
  int32_t h = la_int(L, 2, "new", "height", 1, ASTAR_MAX_SIDE,
                        "out of range");
  astar_grid *g;
  int names;
  lua_settop(L, 3); /* what is pushed next gets indices of its own */
  names = check_new_options(L, 3, "new");
  g = push_grid(L, w, h, "new", 1, names);
  apply_new_options(L, g, 3, "new");
  return 1;
}

/* ---- legends and text ---- */

static void default_legend(astar_legend *legend) {
  int c;
  memset(legend, 0, sizeof *legend);
  legend->kind['.'] = ASTAR_LEGEND_COST;
  legend->cost['.'] = 1.0f;
  legend->kind['#'] = ASTAR_LEGEND_BLOCKED;
  for (c = '1'; c <= '9'; c++) {
    legend->kind[c] = ASTAR_LEGEND_COST;
    legend->cost[c] = (float)(c - '0');
  }
}

/* A legend at arg: char -> cost, false (wall) or a terrain name (in the
 * names table at names: passable, cost 1, that terrain). */
static void check_legend(lua_State *L, int arg, const char *fname,
                         astar_legend *legend, int names) {
  char buf[64];
  int t = lua_type(L, arg);
  if (t == LUA_TNONE || t == LUA_TNIL) {
    default_legend(legend);
    return;
  }
  if (t != LUA_TTABLE)
    la_error(L, arg, fname, "legend must be a table, got %s",
              la_describe(L, arg, buf, sizeof buf));
  memset(legend, 0, sizeof *legend);
  lua_pushnil(L);
  while (lua_next(L, arg)) {
    size_t len = 0;
    int ok;
    float c;
    unsigned char ch;
    if (lua_type(L, -2) != LUA_TSTRING ||
        (lua_tolstring(L, -2, &len), len != 1))
      la_error(L, arg, fname, "legend keys must be single characters, got %s",
                la_describe(L, -2, buf, sizeof buf));
    ch = (unsigned char)lua_tostring(L, -2)[0];
    if (lua_type(L, -1) == LUA_TSTRING) {
      int id = lc_terrain_id(L, -1, names);
      if (id < 0) {
        char vbuf[64];
        la_error(L, arg, fname, "legend[%s] names terrain %s, which is not "
                 "defined (add it to the terrains option or define_terrain)",
                 la_describe(L, -2, buf, sizeof buf),
                 la_describe(L, -1, vbuf, sizeof vbuf));
      }
      legend->kind[ch] = ASTAR_LEGEND_COST;
      legend->cost[ch] = 1.0f;
      legend->terrain[ch] = (int16_t)(id + 1);
      lua_pop(L, 1);
      continue;
    }
    c = la_tile_value(L, -1, &ok);
    if (!ok) {
      char vbuf[64];
      la_error(L, arg, fname, "legend[%s] must be " COST_RULE
                " or a terrain name, got %s",
                la_describe(L, -2, buf, sizeof buf),
                la_describe(L, -1, vbuf, sizeof vbuf));
    }
    legend->kind[ch] = c > 0.0f ? ASTAR_LEGEND_COST : ASTAR_LEGEND_BLOCKED;
    legend->cost[ch] = c;
    lua_pop(L, 1);
  }
}

/* Pushes a message for a parse error; line_offset shifts line numbers (the
 * MovingAI header). */
static const char *push_parse_error(lua_State *L, const astar_parse_error *e,
                                    int32_t line_offset) {
  char msg[160];
  int line = (int)(e->line + (e->line > 0 ? line_offset : 0));
  switch (e->code) {
  case ASTAR_PERR_CHAR:
    if (e->got >= 32 && e->got < 127)
      snprintf(msg, sizeof msg, "line %d, column %d: character '%c' is not in "
               "the legend", line, (int)e->column, (char)e->got);
    else
      snprintf(msg, sizeof msg, "line %d, column %d: byte %d is not in the "
               "legend", line, (int)e->column, (int)e->got);
    break;
  case ASTAR_PERR_ROW_LENGTH:
    snprintf(msg, sizeof msg, "line %d has %d characters, expected %d", line,
             (int)e->got, (int)e->expected);
    break;
  case ASTAR_PERR_ROW_COUNT:
    snprintf(msg, sizeof msg, "expected %d rows, got %s%d", (int)e->expected,
             e->got > e->expected ? "at least " : "", (int)e->got);
    break;
  case ASTAR_PERR_EMPTY:
    snprintf(msg, sizeof msg, "%s", line > 0 ? "the first row is empty"
                                             : "the text has no rows");
    break;
  case ASTAR_PERR_HEADER:
    snprintf(msg, sizeof msg, "line %d: malformed MovingAI header (expected "
             "'type T', 'height H', 'width W', 'map')", line);
    break;
  default:
    snprintf(msg, sizeof msg, "map too big (at most %d tiles a side and %u "
             "tiles with a one-tile border)", ASTAR_MAX_SIDE,
             (unsigned)ASTAR_MAX_PADDED_TILES);
    break;
  }
  lua_pushstring(L, msg);
  return lua_tostring(L, -1);
}

void lg_text_error(lua_State *L, int arg, const char *fname,
                   const astar_parse_error *e) {
  const char *msg = push_parse_error(L, e, 0);
  la_error(L, arg, fname, "%s", msg);
}


/* Loads text into g: a parse error names argument arg. */
static void load_text(lua_State *L, astar_grid *g, const char *s, size_t len,
                      const astar_legend *legend, int arg,
                      const char *fname) {
  astar_parse_error e;
  int st = astar_grid_load_text(g, s, len, legend, &e);
  if (st == ASTAR_EPARSE) lg_text_error(L, arg, fname, &e);
  if (st != ASTAR_OK) la_raise(L, st, fname);
}

/* astar.from_string(text [, legend [, options]]) */
static int l_from_string(lua_State *L) {
  size_t len;
  const char *s = la_text(L, 1, "from_string", &len);
  astar_legend legend;
  astar_parse_error e;
  int32_t w, h;
  astar_grid *g;
  int names;
  lua_settop(L, 3);
  names = check_new_options(L, 3, "from_string");
  check_legend(L, 2, "from_string", &legend, names);
  if (astar_text_shape(s, len, &w, &h, &e) != ASTAR_OK)
    lg_text_error(L, 1, "from_string", &e);
  g = push_grid(L, w, h, "from_string", 1, names);
  apply_new_options(L, g, 3, "from_string");
  load_text(L, g, s, len, &legend, 1, "from_string");
  return 1;
}

/* astar.parse_movingai(text [, options]) -> grid | nil, message */
static int l_parse_movingai(lua_State *L) {
  size_t len, body;
  const char *s = la_text(L, 1, "parse_movingai", &len);
  astar_legend legend;
  astar_parse_error e;
  int32_t w, h;
  astar_grid *g;
  int names, st;
  lua_settop(L, 2);
  names = check_new_options(L, 2, "parse_movingai");
  if (astar_movingai_header(s, len, &w, &h, &body, &e) != ASTAR_OK) {
    lua_pushnil(L);
    push_parse_error(L, &e, 0);
    return 2;
  }
  astar_movingai_legend(&legend);
  g = push_grid(L, w, h, "parse_movingai", 1, names);
  apply_new_options(L, g, 2, "parse_movingai");
  st = astar_grid_load_text(g, s + body, len - body, &legend, &e);
  if (st == ASTAR_ENOMEM) la_raise(L, st, "parse_movingai");
  if (st != ASTAR_OK) {
    lua_pushnil(L);
    push_parse_error(L, &e, 4);
    return 2;
  }
  return 1;
}

/* grid:load_string(text [, legend]) */
static int g_load_string(lua_State *L) {
  astar_grid *g = lg_check_grid(L, "load_string");
  size_t len;
  const char *s = la_text(L, 2, "load_string", &len);
  astar_legend legend;
  lua_settop(L, 3);
  lc_push_names(L, 1, "terrain");
  check_legend(L, 3, "load_string", &legend, lua_gettop(L));
  load_text(L, g, s, len, &legend, 2, "load_string");
  return 0;
}

/* ---- tables of tiles ---- */

/* Checks (apply = 0) or applies (apply = 1) a table of tiles at arg: rows
 * t[y][x] or flat t[(y-1)*w + x]. */
int lg_table_rows(lua_State *L, int arg, const char *fname,
                  const astar_grid *g) {
  int32_t w = g->width, h = g->height;
  int rows;
  size_t n;
  lua_rawgeti(L, arg, 1);
  rows = lua_type(L, -1) == LUA_TTABLE;
  lua_pop(L, 1);
  n = compat_rawlen(L, arg);
  if (rows && n != (size_t)h)
    la_error(L, arg, fname, "expected %d rows, got %d", (int)h, (int)n);
  if (!rows && n != (size_t)w * (size_t)h)
    la_error(L, arg, fname,
              "expected %d rows or %.0f flat entries (%d x %d), got %.0f",
              (int)h, (double)w * h, (int)w, (int)h, (double)n);
  return rows;
}

void lg_table_row(lua_State *L, int arg, const char *fname,
                  const astar_grid *g, int32_t y) {
  char buf[64];
  lua_rawgeti(L, arg, y + 1);
  if (lua_type(L, -1) != LUA_TTABLE)
    la_error(L, arg, fname, "row %d must be a table, got %s", (int)y + 1,
             la_describe(L, -1, buf, sizeof buf));
  if (compat_rawlen(L, -1) != (size_t)g->width)
    la_error(L, arg, fname, "row %d has %d entries, expected %d", (int)y + 1,
             (int)compat_rawlen(L, -1), (int)g->width);
}

void lg_table_tile(lua_State *L, int arg, int rows, const astar_grid *g,
                   int32_t x, int32_t y) {
  if (rows)
    lua_rawgeti(L, -1, x + 1);
  else
    lua_rawgeti(L, arg, y * g->width + x + 1);
}

static void table_tiles(lua_State *L, astar_grid *g, int arg,
                        const char *fname, int apply) {
  char buf[64];
  int32_t x, y;
  int rows = lg_table_rows(L, arg, fname, g);
  for (y = 0; y < g->height; y++) {
    if (rows) lg_table_row(L, arg, fname, g, y);
    for (x = 0; x < g->width; x++) {
      int ok;
      float c;
      lg_table_tile(L, arg, rows, g, x, y);
      c = la_tile_value(L, -1, &ok);
      if (!ok)
        la_error(L, arg, fname, "row %d, column %d: cost must be " COST_RULE
                  ", got %s", (int)y + 1, (int)x + 1,
                  la_describe(L, -1, buf, sizeof buf));
      if (apply) astar_grid_put(g, astar_index(g, x, y), c, c > 0.0f);
      lua_pop(L, 1);
    }
    if (rows) lua_pop(L, 1);
  }
  if (apply) astar_grid_refresh(g);
}


/* grid:load(t) */
static int g_load(lua_State *L) {
  astar_grid *g = lg_check_grid(L, "load");
  la_table(L, 2, "load", "tiles");
  table_tiles(L, g, 2, "load", 0);
  table_tiles(L, g, 2, "load", 1);
  return 0;
}

/* astar.from_table(rows [, options]) */
static int l_from_table(lua_State *L) {
  char buf[64];
  size_t h, w;
  astar_grid *g;
  la_table(L, 1, "from_table", "rows");
  h = compat_rawlen(L, 1);
  lua_rawgeti(L, 1, 1);
  if (lua_type(L, -1) != LUA_TTABLE)
    la_error(L, 1, "from_table", "row 1 must be a table, got %s",
              la_describe(L, -1, buf, sizeof buf));
  w = compat_rawlen(L, -1);
  lua_pop(L, 1);
  if (w < 1 || w > ASTAR_MAX_SIDE || h > ASTAR_MAX_SIDE)
    la_error(L, 1, "from_table", "rows must have 1..%d entries, got %.0f x "
              "%.0f", ASTAR_MAX_SIDE, (double)w, (double)h);
  int names;
  lua_settop(L, 2);
  names = check_new_options(L, 2, "from_table");
  g = push_grid(L, (int32_t)w, (int32_t)h, "from_table", 1, names);
  apply_new_options(L, g, 2, "from_table");
  table_tiles(L, g, 1, "from_table", 0);
  table_tiles(L, g, 1, "from_table", 1);
  return 1;
}

/* ---- tile methods ---- */

static int g_size(lua_State *L) {
  astar_grid *g = lg_check_grid(L, "size");
  lua_pushinteger(L, g->width);
  lua_pushinteger(L, g->height);
  return 2;
}

static int g_width(lua_State *L) {
  lua_pushinteger(L, lg_check_grid(L, "width")->width);
  return 1;
}

static int g_height(lua_State *L) {
  lua_pushinteger(L, lg_check_grid(L, "height")->height);
  return 1;
}

/* grid:get_cost(x, y [, unit]) -> cost | false */
static int g_get_cost(lua_State *L) {
  astar_grid *g = lg_check_grid(L, "get_cost");
  int32_t x = la_x(L, 2, "get_cost", "x", g);
  int32_t y = la_y(L, 3, "get_cost", "y", g);
  if (!lua_isnoneornil(L, 4)) {
    double c = astar_unit_cost(g, lc_unit_id(L, 4, 4, "get_cost", 1), x, y);
    if (c > 0.0)
      lua_pushnumber(L, (lua_Number)c);
    else
      lua_pushboolean(L, 0);
    return 1;
  }
  if (astar_grid_is_blocked(g, x, y))
    lua_pushboolean(L, 0);
  else
    lua_pushnumber(L, (lua_Number)astar_grid_get_cost(g, x, y));
  return 1;
}

static int g_set_cost(lua_State *L) {
  astar_grid *g = lg_check_grid(L, "set_cost");
  int32_t x = la_x(L, 2, "set_cost", "x", g);
  int32_t y = la_y(L, 3, "set_cost", "y", g);
  float c = la_cost(L, 4, "set_cost", "cost");
  if (c > 0.0f)
    astar_grid_set_cost(g, x, y, c);
  else
    astar_grid_set_blocked(g, x, y, 1);
  return 0;
}

static int g_is_blocked(lua_State *L) {
  astar_grid *g = lg_check_grid(L, "is_blocked");
  int32_t x = la_x(L, 2, "is_blocked", "x", g);
  int32_t y = la_y(L, 3, "is_blocked", "y", g);
  lua_pushboolean(L, astar_grid_is_blocked(g, x, y));
  return 1;
}

static int g_set_blocked(lua_State *L) {
  char buf[64];
  astar_grid *g = lg_check_grid(L, "set_blocked");
  int32_t x = la_x(L, 2, "set_blocked", "x", g);
  int32_t y = la_y(L, 3, "set_blocked", "y", g);
  int t = lua_type(L, 4);
  if (t != LUA_TNONE && t != LUA_TNIL && t != LUA_TBOOLEAN)
    la_error(L, 4, "set_blocked", "blocked must be a boolean, got %s",
              la_describe(L, 4, buf, sizeof buf));
  astar_grid_set_blocked(g, x, y, t == LUA_TBOOLEAN ? lua_toboolean(L, 4) : 1);
  return 0;
}

static void fill_area(astar_grid *g, int32_t x, int32_t y, int32_t w,
                      int32_t h, float c) {
  astar_grid_fill(g, x, y, w, h, c, c > 0.0f ? 0 : 1);
}

/* grid:fill(cost | function) */
static int g_fill(lua_State *L) {
  astar_grid *g = lg_check_grid(L, "fill");
  float c;
  if (lua_type(L, 2) == LUA_TFUNCTION) return lc_fill_function(L, g);
  c = la_cost(L, 2, "fill", "cost");
  fill_area(g, 0, 0, g->width, g->height, c);
  return 0;
}

/* grid:fill_rect(x, y, w, h, cost) */
static int g_fill_rect(lua_State *L) {
  astar_grid *g = lg_check_grid(L, "fill_rect");
  int32_t x = la_x(L, 2, "fill_rect", "x", g);
  int32_t y = la_y(L, 3, "fill_rect", "y", g);
  int32_t w = la_int(L, 4, "fill_rect", "w", 0, g->width - x,
                        "out of range");
  int32_t h = la_int(L, 5, "fill_rect", "h", 0, g->height - y,
                        "out of range");
  float c = la_cost(L, 6, "fill_rect", "cost");
  fill_area(g, x, y, w, h, c);
  return 0;
}

static int g_set_movement(lua_State *L) {
  char buf[64];
  astar_grid *g = lg_check_grid(L, "set_movement");
  if (lua_type(L, 2) != LUA_TTABLE)
    la_error(L, 2, "set_movement", "options must be a table, got %s",
              la_describe(L, 2, buf, sizeof buf));
  la_options(L, 2, "set_movement", movement_keys);
  apply_movement(L, g, 2, "set_movement");
  return 0;
}

static int g_get_movement(lua_State *L) {
  astar_grid *g = lg_check_grid(L, "get_movement");
  lua_createtable(L, 0, 3);
  lua_pushstring(L, diagonal_names[g->diagonal]);
  lua_setfield(L, -2, "diagonals");
  lua_pushnumber(L, (lua_Number)g->cardinal_length);
  lua_setfield(L, -2, "cardinal");
  lua_pushnumber(L, (lua_Number)g->diagonal_length);
  lua_setfield(L, -2, "diagonal");
  return 1;
}

static int g_memory(lua_State *L) {
  astar_grid *g = lg_check_grid(L, "memory");
  lua_pushinteger(L, (lua_Integer)astar_grid_memory(g));
  return 1;
}

static char tile_char(const astar_grid *g, int32_t x, int32_t y) {
  float c = astar_grid_get_cost(g, x, y);
  if (astar_grid_is_blocked(g, x, y)) return '#';
  if (c == 1.0f) return '.';
  if (c >= 2.0f && c <= 9.0f && c == floorf(c)) return (char)('0' + (int)c);
  return '~';
}

static int g_tostring(lua_State *L) {
  luaL_Buffer b;
  int32_t x, y;
  astar_grid *g;
  lgrid *ud = lg_to_grid(L, 1);
  if (ud == NULL || ud->g.cost == NULL) {
    lua_pushstring(L, "astar.Grid (closed)");
    return 1;
  }
  g = &ud->g;
  luaL_buffinit(L, &b);
  for (y = 0; y < g->height; y++) {
    if (y > 0) luaL_addchar(&b, '\n');
    for (x = 0; x < g->width; x++) luaL_addchar(&b, tile_char(g, x, y));
  }
  luaL_pushresult(&b);
  return 1;
}

static int g_gc(lua_State *L) {
  lgrid *ud = lg_to_grid(L, 1);
  if (ud != NULL && !ud->g.busy) astar_grid_release(&ud->g);
  return 0;
}

/* ---- searches ---- */

static const char *const heuristic_names[] = {
    "default", "manhattan", "chebyshev", "octile", "euclidean", "zero", NULL};
#define HEURISTIC_LIST \
  "'default', 'manhattan', 'chebyshev', 'octile', 'euclidean', 'zero'"
static const char *const query_keys[] = {
    "heuristic", "weight", "unit", "tile_cost", "move_cost", "min_cost",
    /* lua_query.c */
    "algorithm", "ties", "seed", "beam_width", "goals", "max_cost",
    "max_length", "max_nodes", "closest", "leave_blocked_start",
    "next_to_blocked_goal", "stats", "explored",
    /* lua_zones.c */
    "zones", NULL};

/* Reads sx, sy, gx, gy (args 2..5) and options (arg 6), runs the search.
 * Returns 1 when there is a path (to the goal, or partial with `closest`);
 * otherwise pushes nil, reason, expanded and returns 0.  out: the stack
 * index of the path table (0: none), which must not be the explored one. */
static int run_query(lua_State *L, astar_grid *g, const char *fname,
                     int out, astar_result *r) {
  astar_query q;
  lc_callbacks cb;
  lq_query lq;
  int st, opts;
  astar_query_defaults(&q);
  q.sx = la_x(L, 2, fname, "sx", g);
  q.sy = la_y(L, 3, fname, "sy", g);
  opts = la_options(L, 6, fname, query_keys);
  if (opts && lua_isnil(L, 4) && lua_isnil(L, 5) && lq_has_goals(L, 6)) {
    q.no_main_goal = 1; /* the goals option alone */
  } else {
    q.gx = la_x(L, 4, fname, "gx", g);
    q.gy = la_y(L, 5, fname, "gy", g);
  }
  if (opts) {
    if (!lq_heuristic_function(L, 6))
      q.heuristic = la_enum(L, 6, fname, "heuristic", heuristic_names,
                            HEURISTIC_LIST, ASTAR_H_DEFAULT);
    q.weight = la_number(L, 6, fname, "weight", 1.0, 1e9,
                             "a number in [1, 1e+09]", 1.0);
    q.unit = lc_unit_option(L, 6, fname, 1);
    lua_getfield(L, 6, "zones");
    if (!lua_isnil(L, -1)) {
      char buf[64];
      if (lua_type(L, -1) != LUA_TBOOLEAN)
        la_error(L, 6, fname, "zones must be a boolean, got %s",
                 la_describe(L, -1, buf, sizeof buf));
      q.no_zones = !lua_toboolean(L, -1);
    }
    lua_pop(L, 1);
  }
  lc_callbacks_init(L, 6, fname, &cb, &q);
  lq_options(L, 6, fname, g, &q, &lq);
  if (out != 0 && lq.explored != 0 && lua_rawequal(L, out, lq.explored))
    la_error(L, 6, fname, "explored must not be the path table (argument %d)",
             out);
  if (q.algorithm == ASTAR_ALGO_JPS) { /* forced where it cannot run */
    const char *why = astar_jps_unsupported(g, &q);
    if (why != NULL) la_error(L, 6, fname, "algorithm 'jps' needs %s", why);
  } else if (q.algorithm >= ASTAR_ALGO_IDA) { /* engines of their own */
    const char *why = astar_algo_unsupported(g, &q);
    if (why != NULL)
      la_error(L, 6, fname, "algorithm '%s' needs %s", lq.algorithm, why);
  }
  st = astar_find_path(g, &q, r);
  if (st == ASTAR_ECALLBACK && lq_callback_failed(&lq))
    lq_raise(L, fname, &lq);
  if (st != ASTAR_OK) lc_callbacks_raise(L, fname, &cb, st, r);
  lq_stats(L, &lq, &q, r);
  lq_explored(L, &lq, g);
  if (r->outcome == ASTAR_FOUND || r->partial) return 1;
  lua_pushnil(L);
  lua_pushstring(L, lq_outcome_names[r->outcome]);
  lua_pushinteger(L, (lua_Integer)r->expanded);
  return 0;
}

/* grid:find_path(sx, sy, gx, gy [, options [, out]])
 *   -> path, cost, expanded, algorithm | nil, reason, expanded, algorithm
 * (algorithm: "astar" or "jps", the search that ran) */
static int g_find_path(lua_State *L) {
  char buf[64];
  astar_grid *g = lg_check_grid(L, "find_path");
  astar_result r;
  uint32_t node;
  lua_Integer i;
  int out = lua_type(L, 7);
  if (out != LUA_TNONE && out != LUA_TNIL && out != LUA_TTABLE)
    la_error(L, 7, "find_path", "out must be a table, got %s",
              la_describe(L, 7, buf, sizeof buf));
  if (!run_query(L, g, "find_path", out == LUA_TTABLE ? 7 : 0, &r))
    return 3;
  if (out == LUA_TTABLE)
    lua_pushvalue(L, 7);
  else
    lua_createtable(L, (int)(2 * r.length), 0);
  /* walk from the goal back to the start, filling from the end */
  node = astar_path_last(g);
  i = 2 * (lua_Integer)r.length;
  do {
    int32_t x, y;
    astar_xy(g, node, &x, &y);
    lua_pushinteger(L, x + 1);
    lua_rawseti(L, -2, (int)(i - 1));
    lua_pushinteger(L, y + 1);
    lua_rawseti(L, -2, (int)i);
    i -= 2;
  } while (astar_path_prev(g, &node));
  if (out == LUA_TTABLE) { /* clear what is left of an older, longer path */
    for (i = 2 * (lua_Integer)r.length + 1;; i++) {
      lua_rawgeti(L, -1, (int)i);
      if (lua_isnil(L, -1)) break;
      lua_pop(L, 1);
      lua_pushnil(L);
      lua_rawseti(L, -2, (int)i);
    }
    lua_pop(L, 1);
  }
  lua_pushnumber(L, (lua_Number)r.cost);
  lua_pushinteger(L, (lua_Integer)r.expanded);
  if (r.partial) { /* closest: why the goal was not reached */
    lua_pushstring(L, lq_outcome_names[r.outcome]);
    return 4;
  }
  return 3;
}

/* grid:next_step(sx, sy, gx, gy [, options]) -> x, y, cost | nil, reason */
static int g_next_step(lua_State *L) {
  astar_grid *g = lg_check_grid(L, "next_step");
  astar_result r;
  uint32_t node, step;
  int32_t x, y;
  if (!run_query(L, g, "next_step", 0, &r)) {
    lua_pop(L, 1); /* nil, reason */
    return 2;
  }
  node = step = astar_path_last(g);
  while (astar_path_prev(g, &node)) {
    if (node == g->last_start) break;
    step = node;
  }
  astar_xy(g, step, &x, &y);
  lua_pushinteger(L, x + 1);
  lua_pushinteger(L, y + 1);
  lua_pushnumber(L, (lua_Number)r.cost);
  if (r.partial) {
    lua_pushstring(L, lq_outcome_names[r.outcome]);
    return 4;
  }
  return 3;
}

/* ---- registration ---- */

static const luaL_Reg grid_methods[] = {
    {"size", g_size},
    {"width", g_width},
    {"height", g_height},
    {"get_cost", g_get_cost},
    {"set_cost", g_set_cost},
    {"is_blocked", g_is_blocked},
    {"set_blocked", g_set_blocked},
    {"fill", g_fill},
    {"fill_rect", g_fill_rect},
    {"load", g_load},
    {"load_string", g_load_string},
    {"set_movement", g_set_movement},
    {"get_movement", g_get_movement},
    {"memory", g_memory},
    {"find_path", g_find_path},
    {"next_step", g_next_step},
    {NULL, NULL}};

static const luaL_Reg grid_meta[] = {
    {"__gc", g_gc},
    {"__tostring", g_tostring},
#if LUA_VERSION_NUM >= 504
    {"__close", g_gc},
#endif
    {NULL, NULL}};

static const luaL_Reg module_functions[] = {
    {"new", l_new},
    {"from_string", l_from_string},
    {"from_table", l_from_table},
    {"parse_movingai", l_parse_movingai},
    {NULL, NULL}};

/* Sets each function into the table at the top, with the metatable (at
 * index mt) as its upvalue. */
static void set_functions(lua_State *L, int mt, const luaL_Reg *fns) {
  for (; fns->name != NULL; fns++) {
    lua_pushvalue(L, mt);
    lua_pushcclosure(L, fns->func, 1);
    lua_setfield(L, -2, fns->name);
  }
}

int luaopen_astar_core(lua_State *L);
int luaopen_astar_core(lua_State *L) {
  int mt;
  luaL_newmetatable(L, GRID_MT);
  mt = lua_gettop(L);
  set_functions(L, mt, grid_meta);
  lua_newtable(L);
  set_functions(L, mt, grid_methods);
  set_functions(L, mt, lc_grid_methods);
  set_functions(L, mt, lz_grid_methods);
  lua_setfield(L, mt, "__index");
  lua_pushliteral(L, GRID_MT);
  lua_setfield(L, mt, "__name");
  lua_pushliteral(L, "astar.Grid");
  lua_setfield(L, mt, "__metatable");

  lua_newtable(L);
  set_functions(L, mt, module_functions);
  lua_pushliteral(L, ASTAR_VERSION);
  lua_setfield(L, -2, "version");
  return 1;
}

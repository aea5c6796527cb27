/*
 * The module astar.core: luaopen, the constructors (new, from_string,
 * from_table, parse_movingai), text legends and parse errors.
 *
 * The binding as a whole checks arguments (raising `bad argument #N to
 * 'name' (...)` with the same text on every Lua version), converts
 * 1-based Lua coordinates to the core's 0-based ones, owns grids through
 * userdata (lua_grid.c) and turns search outcomes into results
 * (lua_query.c).  Terrain and unit classes are in lua_terrain.c, zones in
 * lua_zones.c, the argument readers in lua_args.c.
 */
#include "astar.h"
#include "compat.h"
#include "lua_args.h"
#include "lua_grid.h"
#include "lua_sliced.h"
#include "lua_snapshot.h"

#include <lauxlib.h>
#include <lua.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

void lg_load_table(lua_State *L, astar_grid *g, int arg, const char *fname);
int lg_protect_trampoline(lua_State *L);

/* ---- grid creation options ---- */

static const char *const new_keys[] = {"diagonals", "cardinal", "diagonal",
                                       "cost", "terrains", NULL};

/* The options of a constructor, read before the grid exists (a bad option
 * never leaves a half-made grid behind in a variable, and no Lua code runs
 * once it does). */
typedef struct new_options {
  int rule;
  double cardinal, diagonal;
  int has_cost;
  float cost;
  int names; /* the stack index of the names table of `terrains` */
} new_options;

static void read_new_options(lua_State *L, int arg, const char *fname,
                             new_options *o) {
  o->rule = ASTAR_DIAG_BOTH_FREE;
  o->cardinal = 1.0;
  o->diagonal = sqrt(2.0);
  o->has_cost = 0;
  o->cost = 1.0f;
  if (la_options(L, arg, fname, new_keys)) {
    lg_movement_options(L, arg, fname, NULL, &o->rule, &o->cardinal,
                        &o->diagonal);
    lua_getfield(L, arg, "cost");
    if (!lua_isnil(L, -1)) {
      int ok;
      char buf[64];
      o->cost = la_tile_value(L, -1, &ok);
      if (!ok)
        la_error(L, arg, fname, "cost must be " COST_RULE ", got %s",
                 la_describe(L, -1, buf, sizeof buf));
      o->has_cost = 1;
    }
    lua_pop(L, 1);
  }
  lt_terrain_option(L, arg, fname);
  o->names = lua_gettop(L);
}

static void apply_new_options(lua_State *L, astar_grid *g,
                              const new_options *o, const char *fname) {
  /* a new grid has the default movement: rebuild its masks only for
   * another one */
  if ((o->rule != g->diagonal || o->cardinal != g->cardinal_length ||
       o->diagonal != g->diagonal_length) &&
      astar_grid_set_movement(g, o->rule, o->cardinal, o->diagonal) !=
          ASTAR_OK)
    luaL_error(L, "%s: invalid movement", fname);
  if (o->has_cost)
    astar_grid_fill(g, 0, 0, g->width, g->height, o->cost,
                    o->cost > 0.0f ? 0 : 1);
}

/* astar.new(width, height [, options]) */
static int l_new(lua_State *L) {
  int32_t w = la_int(L, 1, "new", "width", 1, ASTAR_MAX_SIDE, "out of range");
  int32_t h = la_int(L, 2, "new", "height", 1, ASTAR_MAX_SIDE,
                     "out of range");
  new_options o;
  astar_grid *g;
  lua_settop(L, 3); /* what is pushed next gets indices of its own */
  read_new_options(L, 3, "new", &o);
  g = lg_push_grid(L, w, h, "new", 1, o.names);
  apply_new_options(L, g, &o, "new");
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
void lm_check_legend(lua_State *L, int arg, const char *fname,
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
      int id = lt_terrain_id(L, -1, names);
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

void lm_text_error(lua_State *L, int arg, const char *fname,
                   const astar_parse_error *e) {
  const char *msg = push_parse_error(L, e, 0);
  la_error(L, arg, fname, "%s", msg);
}


/* Loads text into g: a parse error names argument arg. */
void lm_load_text(lua_State *L, astar_grid *g, const char *s, size_t len,
                  const astar_legend *legend, int arg, const char *fname) {
  astar_parse_error e;
  int st = astar_grid_load_text(g, s, len, legend, &e);
  if (st == ASTAR_EPARSE) lm_text_error(L, arg, fname, &e);
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
  new_options o;
  lua_settop(L, 3);
  read_new_options(L, 3, "from_string", &o);
  lm_check_legend(L, 2, "from_string", &legend, o.names);
  if (astar_text_shape(s, len, &w, &h, &e) != ASTAR_OK)
    lm_text_error(L, 1, "from_string", &e);
  g = lg_push_grid(L, w, h, "from_string", 1, o.names);
  apply_new_options(L, g, &o, "from_string");
  lm_load_text(L, g, s, len, &legend, 1, "from_string");
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
  new_options o;
  int st;
  lua_settop(L, 2);
  read_new_options(L, 2, "parse_movingai", &o);
  if (astar_movingai_header(s, len, &w, &h, &body, &e) != ASTAR_OK) {
    lua_pushnil(L);
    push_parse_error(L, &e, 0);
    return 2;
  }
  astar_movingai_legend(&legend);
  g = lg_push_grid(L, w, h, "parse_movingai", 1, o.names);
  apply_new_options(L, g, &o, "parse_movingai");
  st = astar_grid_load_text(g, s + body, len - body, &legend, &e);
  if (st == ASTAR_ENOMEM) la_raise(L, st, "parse_movingai");
  if (st != ASTAR_OK) {
    lua_pushnil(L);
    push_parse_error(L, &e, 4);
    return 2;
  }
  return 1;
}

/* astar.from_table(rows [, options]) */
static int l_from_table(lua_State *L) {
  char buf[64];
  size_t h, w;
  astar_grid *g;
  new_options o;
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
  lua_settop(L, 2);
  read_new_options(L, 2, "from_table", &o);
  g = lg_push_grid(L, (int32_t)w, (int32_t)h, "from_table", 1, o.names);
  apply_new_options(L, g, &o, "from_table");
  lg_load_table(L, g, 1, "from_table");
  return 1;
}

/* ---- registration ---- */

static const luaL_Reg module_functions[] = {
    {"new", l_new},
    {"from_string", l_from_string},
    {"from_table", l_from_table},
    {"parse_movingai", l_parse_movingai},
    {NULL, NULL}};

/* Every function of the module has the same upvalues (lua_grid.h): the
 * grid metatable, the protected-call trampoline, the query, pathfinder
 * and field metatables, found on the stack at up .. up + 4. */
#define UPVALUES 5
static void set_functions(lua_State *L, int up, const luaL_Reg *fns) {
  for (; fns->name != NULL; fns++) {
    int i;
    for (i = 0; i < UPVALUES; i++) lua_pushvalue(L, up + i);
    lua_pushcclosure(L, fns->func, UPVALUES);
    lua_setfield(L, -2, fns->name);
  }
}

/* Fills the metatable at mt of a type: metamethods, methods (__index;
 * none when methods is NULL), its name, and a __metatable that keeps
 * scripts out of it. */
static void open_type(lua_State *L, int up, int mt, const char *name,
                      const luaL_Reg *meta, const luaL_Reg *methods) {
  lua_pushvalue(L, mt);
  set_functions(L, up, meta);
  if (methods != NULL) {
    lua_newtable(L);
    set_functions(L, up, methods);
    lua_setfield(L, -2, "__index");
  }
  lua_pushstring(L, name);
  lua_setfield(L, -2, "__name");
  lua_pushstring(L, name);
  lua_setfield(L, -2, "__metatable");
  lua_pop(L, 1);
}

/* A new metatable name in the registry, left on the stack: its index. */
static int new_metatable(lua_State *L, const char *name) {
  luaL_newmetatable(L, name);
  return lua_gettop(L);
}

static const luaL_Reg *const grid_methods[] = {
    lg_grid_methods, lq_grid_methods, lt_grid_methods, lz_grid_methods,
    lqo_grid_methods, lsi_grid_methods, lf_grid_methods, lp_grid_methods,
    lk_grid_methods, lsn_grid_methods, lpr_grid_methods, NULL};

/* ---- the option keys, for tools ---- */

/* registry["astar.option_keys"] = {[type] = {[function] = {key, ...}}}:
 * for each function that takes an options table, the list la_options
 * checks that table against (the same array, not a copy), so that
 * scripts/check-library compares the editor definitions
 * (library/astar.lua) with the keys the module really accepts.  "astar"
 * is the module's functions, other types are their metatables' names.
 * A function that takes a new options table gets a row here. */
typedef struct option_row {
  const char *type, *fname;
  const char *const *keys;
} option_row;

static void set_option_keys(lua_State *L) {
  const option_row rows[] = {
      {"astar", "new", new_keys},
      {"astar", "from_string", new_keys},
      {"astar", "from_table", new_keys},
      {"astar", "parse_movingai", new_keys},
      {"astar", "combine", lf_combine_keys},
      {"astar", "graph", lgr_graph_keys},
      {"astar", "pathfinder", lpf_pool_keys},
      {"astar", "search", lst_search_keys},
      {GRID_MT, "find_path", lq_query_keys},
      {GRID_MT, "next_step", lq_next_step_keys},
      {GRID_MT, "query", lq_query_keys},
      {GRID_MT, "set_movement", lg_movement_keys},
      {GRID_MT, "set_unit", lt_unit_keys},
      {GRID_MT, "field", lf_field_keys},
      {GRID_MT, "path_ok", lp_check_keys},
      {GRID_MT, "path_cost", lp_check_keys},
      {GRID_MT, "repair", lp_repair_keys},
      {GRID_MT, "smooth", lsi_smooth_keys},
      {"astar.Graph", "find_path", lgr_query_keys},
      {"astar.Graph", "field", lgf_field_keys},
      {POOL_MT, "request", lq_query_keys},
      {POOL_MT, "update", lpf_budget_keys},
      {SNAP_MT, "find_path", lq_query_keys},
      {SNAP_MT, "next_step", lq_query_keys},
      {SNAP_MT, "find_paths", lq_query_keys},
      {WORKERS_MT, "submit", lq_query_keys},
      {WORKERS_MT, "results", lw_read_keys},
      {"astar", "unpack_paths", lw_read_keys},
      {NULL, NULL, NULL}};
  const option_row *r;
  lua_newtable(L);
  for (r = rows; r->type != NULL; r++) {
    int i;
    lua_getfield(L, -1, r->type);
    if (lua_isnil(L, -1)) {
      lua_pop(L, 1);
      lua_newtable(L);
      lua_pushvalue(L, -1);
      lua_setfield(L, -3, r->type);
    }
    lua_newtable(L);
    for (i = 0; r->keys[i] != NULL; i++) {
      lua_pushstring(L, r->keys[i]);
      lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, r->fname);
    lua_pop(L, 1);
  }
  lua_setfield(L, LUA_REGISTRYINDEX, "astar.option_keys");
}

/* The module's one public symbol.  The Makefile builds with
 * -fvisibility=hidden, so no other name leaves the module, calls inside it
 * are direct and its global functions may be inlined; on Windows, marking
 * this one for export keeps MinGW from exporting every function (a
 * LuaRocks build keeps its own flags and exports them all, harmlessly). */
#if defined(_WIN32)
#define ASTAR_EXPORT __declspec(dllexport)
#elif defined(__GNUC__) || defined(__clang__)
#define ASTAR_EXPORT __attribute__((visibility("default")))
#else
#define ASTAR_EXPORT
#endif
ASTAR_EXPORT int luaopen_astar_core(lua_State *L);
ASTAR_EXPORT int luaopen_astar_core(lua_State *L) {
  int up, i;
  lg_open_anchor(L); /* before any grid: its finalizer runs after theirs */
  lw_open_anchor(L); /* before any pool: closes those left at lua_close */
  set_option_keys(L);
  luaL_newmetatable(L, GRID_MT);
  up = lua_gettop(L);
  lua_pushnil(L); /* the trampoline, below */
  luaL_newmetatable(L, QUERY_MT);
  luaL_newmetatable(L, POOL_MT);
  luaL_newmetatable(L, FIELD_MT);
  /* the trampoline has the same upvalues as every function (the second
   * one itself), so a protected function may make protected calls too */
  lua_pushvalue(L, up);
  lua_pushnil(L);
  lua_pushvalue(L, up + 2);
  lua_pushvalue(L, up + 3);
  lua_pushvalue(L, up + 4);
  lua_pushcclosure(L, lg_protect_trampoline, UPVALUES);
  lua_pushvalue(L, -1);
  (void)lua_setupvalue(L, -2, 2);
  lua_replace(L, up + 1);

  open_type(L, up, up, GRID_MT, lg_grid_meta, lg_grid_methods);
  lua_getfield(L, up, "__index");
  for (i = 1; grid_methods[i] != NULL; i++)
    set_functions(L, up, grid_methods[i]);
  lua_pop(L, 1);
  open_type(L, up, up + 2, QUERY_MT, lqo_query_meta, lqo_query_methods);
  open_type(L, up, up + 3, POOL_MT, lpf_pool_meta, lpf_pool_methods);
  open_type(L, up, up + 4, FIELD_MT, lf_field_meta, lf_field_methods);
  lua_getfield(L, up + 4, "__index");
  set_functions(L, up, lf_read_methods);
  set_functions(L, up, lf_build_methods);
  lua_pop(L, 1);

  /* snapshots, worker pools and batch holders: found by their names in
   * the registry (luaL_getmetatable), not through upvalues */
  open_type(L, up, new_metatable(L, SNAP_MT), SNAP_MT, lsn_snap_meta,
            lsn_snap_methods);
  lua_getfield(L, -1, "__index");
  set_functions(L, up, lq_snap_methods);
  lua_pop(L, 2);
  open_type(L, up, new_metatable(L, WORKERS_MT), WORKERS_MT, lw_pool_meta,
            lw_pool_methods);
  lua_pop(L, 1);
  open_type(L, up, new_metatable(L, HOLDER_MT), HOLDER_MT, lw_holder_meta,
            NULL);
  lua_pop(L, 1);

  lua_newtable(L);
  set_functions(L, up, module_functions);
  set_functions(L, up, lpf_module_functions);
  set_functions(L, up, lf_module_functions);
  set_functions(L, up, lsn_module_functions);
  set_functions(L, up, lw_module_functions);
  lgr_register(L, lua_gettop(L));
  lst_register(L, lua_gettop(L));
  lf_open_ffi(L, lua_gettop(L), up + 4);
  lua_pushliteral(L, ASTAR_VERSION);
  lua_setfield(L, -2, "version");
  return 1;
}

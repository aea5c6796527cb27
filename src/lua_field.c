/*
 * The Field type (Dijkstra maps of a grid): the field object and its
 * lifecycle (close, __gc, __close, tostring, memory, version, size,
 * count, direction), and what the other field files share (lua_field.h):
 * the checks, busy sections, a new or rebound field, memory reports, the
 * field's grid.  Making fields (grid:field, flee, astar.combine) is in
 * lua_field_build.c; reading and following them (get, next_step, path,
 * within, steps, directions, the LuaJIT ffi path) in lua_field_read.c.
 *
 * A field owns its memory (values, order, its own search context), taken
 * from the Lua state's allocator and reported to the collector like a
 * grid's (lg_account).  It keeps its grid and its tile callback in its
 * user value: following a field reads the grid's current move rules; a
 * flee or a rescanned sum calls the callback again.  Builds never touch
 * the grid's own context, so they never end its last path.
 *
 * Safety follows the grid's rules: every argument read first; the core
 * runs with the grid busy (its callbacks under lua_pcall, through the
 * query bridge of lua_query.h) and the field busy; read-outs into tables
 * run under lg_protected_call, so busy always drops back.  A field closed
 * while busy is freed when the method leaves; __gc frees at once (a busy
 * field is on a C stack: only lua_close collects it).
 */
#include "astar.h"
#include "compat.h"
#include "lua_args.h"
#include "lua_field.h"
#include "lua_grid.h"

#include <lauxlib.h>
#include <lua.h>
#include <string.h>

const char *const lf_direction_names[] = {"to", "from", NULL};

/* ---- the field at an index ---- */

lfield *lf_to_field(lua_State *L, int idx) {
  lfield *F = (lfield *)lua_touserdata(L, idx);
  if (F == NULL || !lua_getmetatable(L, idx)) return NULL;
  if (!lua_rawequal(L, -1, FIELD_MT_UPVALUE)) F = NULL;
  lua_pop(L, 1);
  return F;
}

/* The field is open and idle, or a Lua error. */
void lf_core(lua_State *L, lfield *F, const char *fname) {
  if (F->closed) luaL_error(L, "%s: the field is closed", fname);
  if (F->busy)
    luaL_error(L, "%s: the field is busy (called from inside one of its "
                  "own builds)", fname);
}

lfield *lf_check(lua_State *L, const char *fname) {
  char buf[64];
  lfield *F = lf_to_field(L, 1);
  if (F == NULL) {
    la_error(L, 1, fname, "field expected, got %s",
             la_describe(L, 1, buf, sizeof buf));
    F = (lfield *)luaL_checkudata(L, 1, FIELD_MT); /* not reached */
  }
  lf_core(L, F, fname);
  return F;
}

/* ---- lifecycle ---- */

static void lf_release(lfield *F) {
  lg_unaccount(F->anchor, &F->reported);
  astar_field_release(&F->f);
  if (F->goals != NULL)
    F->alloc(F->alloc_ud, F->goals, F->goals_cap * sizeof(int32_t) * 2, 0);
  if (F->values != NULL)
    F->alloc(F->alloc_ud, F->values, F->goals_cap * sizeof(double), 0);
  F->goals = NULL;
  F->values = NULL;
  F->goals_cap = 0;
  F->closed = 1;
}

void lf_enter(lfield *F) { F->busy++; }
void lf_leave(lfield *F) {
  if (--F->busy == 0 && F->closed) lf_release(F);
}

static void *field_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  lfield *F = (lfield *)ud;
  void *p = F->alloc(F->alloc_ud, ptr, osize, nsize);
  if (p != NULL || nsize == 0) {
    F->held -= ptr != NULL ? osize : 0;
    F->held += nsize;
  }
  return p;
}

/* Pushes a new, closed field whose user value holds grid (at index grid)
 * and the tile callback (at index fn, 0: none). */
lfield *lf_push(lua_State *L, int grid, int fn) {
  lfield *F = (lfield *)compat_newuserdata(L, sizeof(lfield));
  lgrid *G = lg_to_grid(L, grid);
  memset(F, 0, sizeof *F);
  F->closed = 1;
  F->alloc = lua_getallocf(L, &F->alloc_ud);
  astar_field_init(&F->f, field_alloc, F);
  F->anchor = G != NULL ? G->anchor : NULL;
  F->grid = G;
  lua_pushvalue(L, FIELD_MT_UPVALUE);
  lua_setmetatable(L, -2);
  lua_createtable(L, 0, 2);
  lua_pushvalue(L, grid);
  lua_setfield(L, -2, "grid");
  if (fn != 0)
    lua_pushvalue(L, fn);
  else
    lua_pushboolean(L, 0);
  lua_setfield(L, -2, "tile_cost");
  compat_setuservalue(L, -2);
  /* known to the ffi path (LF_KNOWN_KEY: a weak set) */
  lua_getfield(L, LUA_REGISTRYINDEX, LF_KNOWN_KEY);
  if (lua_istable(L, -1)) {
    lua_pushvalue(L, -2);
    lua_pushboolean(L, 1);
    lua_rawset(L, -3);
  }
  lua_pop(L, 1);
  F->closed = 0;
  return F;
}

/* Points the field at idx to a grid and a callback (raw sets on keys that
 * exist: nothing is allocated). */
void lf_rebind(lua_State *L, int idx, int grid, int fn) {
  lfield *F = (lfield *)lua_touserdata(L, idx);
  F->grid = lg_to_grid(L, grid);
  compat_getuservalue(L, idx);
  lua_pushliteral(L, "grid");
  lua_pushvalue(L, grid);
  lua_rawset(L, -3);
  lua_pushliteral(L, "tile_cost");
  if (fn != 0)
    lua_pushvalue(L, fn);
  else
    lua_pushboolean(L, 0);
  lua_rawset(L, -3);
  lua_pop(L, 1);
}

/* Pushes the field's grid and tile callback (false when none). */
void lf_push_bound(lua_State *L, int idx) {
  compat_getuservalue(L, idx);
  lua_pushliteral(L, "grid");
  lua_rawget(L, -2);
  lua_pushliteral(L, "tile_cost");
  lua_rawget(L, -3);
  lua_remove(L, -3);
}

void lf_report(lua_State *L, lfield *F) {
  if (F->closed || F->held == F->reported) return;
  if (F->held < F->reported) lg_unaccount(F->anchor, &F->reported);
  lg_account(L, F->anchor, &F->reported, F->held);
}

/* The field's grid, open and idle, prepared for the field's unit, with
 * its layer in *layer. */
lgrid *lf_grid(lua_State *L, lfield *F, const char *fname,
               astar_layer *layer) {
  lgrid *G = F->grid;
  astar_grid *g;
  int st;
  if (G == NULL) luaL_error(L, "%s: the field has no grid", fname);
  g = lg_core(L, G, fname);
  if (g->ntiles != F->f.ntiles)
    luaL_error(L, "%s: the field's grid is not its size", fname);
  st = F->f.size > 1 ? astar_grid_layer_size(g, F->f.unit, F->f.size, layer)
                     : astar_grid_layer(g, F->f.unit, layer);
  if (st == ASTAR_EPREPARE) {
    lg_prepare(L, g, F->f.unit, 0u, fname);
    if (F->f.size > 1 &&
        (st = astar_grid_prepare_size(g, F->f.unit, F->f.size, 0u)) !=
            ASTAR_OK && st != ASTAR_EINVAL)
      la_raise(L, st, fname);
    st = astar_grid_layer_size(g, F->f.unit, F->f.size, layer);
  }
  if (st == ASTAR_EINVAL)
    luaL_error(L, "%s: the field's unit class is no longer defined", fname);
  if (st != ASTAR_OK) la_raise(L, st, fname);
  return G;
}

/* ---- the field's own methods ---- */

static int f_size(lua_State *L) {
  lfield *F = lf_check(L, "size");
  lua_pushinteger(L, F->f.width);
  lua_pushinteger(L, F->f.height);
  return 2;
}

/* field:memory() -> bytes: values, order, the build's context */
static int f_memory(lua_State *L) {
  lfield *F = lf_check(L, "memory");
  size_t scratch = F->goals_cap * (2 * sizeof(int32_t) + sizeof(double));
  size_t total = astar_field_memory(&F->f) + scratch;
  lua_pushinteger(L, (lua_Integer)total);
  return 1;
}

/* field:version() -> the grid's version when the field was built */
static int f_version(lua_State *L) {
  lfield *F = lf_check(L, "version");
  lua_pushnumber(L, (lua_Number)F->f.version);
  return 1;
}

/* field:count() -> tiles with a value */
static int f_count(lua_State *L) {
  lfield *F = lf_check(L, "count");
  lua_pushinteger(L, (lua_Integer)F->f.count);
  return 1;
}

static int f_direction(lua_State *L) {
  lfield *F = lf_check(L, "direction");
  lua_pushstring(L, lf_direction_names[F->f.direction]);
  return 1;
}

static int f_close(lua_State *L) {
  char buf[64];
  lfield *F = lf_to_field(L, 1);
  if (F == NULL)
    return la_error(L, 1, "close", "field expected, got %s",
                    la_describe(L, 1, buf, sizeof buf));
  F->closed = 1;
  if (F->busy == 0) lf_release(F);
  return 0;
}

/* __gc, __close: a busy field is only collected by lua_close (it is on a
 * C stack otherwise), whose method never resumes: free it at once */
static int f_gc(lua_State *L) {
  lfield *F = lf_to_field(L, 1);
  if (F != NULL) lf_release(F);
  return 0;
}

#if LUA_VERSION_NUM >= 504
static int f_close_meta(lua_State *L) {
  lfield *F = lf_to_field(L, 1);
  if (F != NULL) {
    F->closed = 1;
    if (F->busy == 0) lf_release(F);
  }
  return 0;
}
#endif

static int f_is_closed(lua_State *L) {
  char buf[64];
  lfield *F = lf_to_field(L, 1);
  if (F == NULL)
    return la_error(L, 1, "is_closed", "field expected, got %s",
                    la_describe(L, 1, buf, sizeof buf));
  lua_pushboolean(L, F->closed);
  return 1;
}

static int f_tostring(lua_State *L) {
  lfield *F = lf_to_field(L, 1);
  if (F == NULL || F->closed) {
    lua_pushliteral(L, "astar.Field (closed)");
    return 1;
  }
  lua_pushfstring(L, "astar.Field %dx%d %s, %d tiles with a value",
                  (int)F->f.width, (int)F->f.height,
                  lf_direction_names[F->f.direction], (int)F->f.count);
  return 1;
}

static const luaL_Reg field_methods[] = {
    {"size", f_size},
    {"count", f_count},
    {"direction", f_direction},
    {"memory", f_memory},
    {"version", f_version},
    {"close", f_close},
    {"is_closed", f_is_closed},
    {NULL, NULL}};

static const luaL_Reg field_meta[] = {
    {"__gc", f_gc},
#if LUA_VERSION_NUM >= 504
    {"__close", f_close_meta},
#endif
    {"__tostring", f_tostring},
    {NULL, NULL}};

const luaL_Reg *const lf_field_methods = field_methods;
const luaL_Reg *const lf_field_meta = field_meta;

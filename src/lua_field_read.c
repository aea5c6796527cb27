/*
 * Reading and following a field: field:get, next_step, path, within,
 * steps and directions, and LuaJIT's ffi path of next_step and steps.
 * The Field type itself is in lua_field.c, making fields in
 * lua_field_build.c.
 *
 * A field is read with the grid's current move rules (its unit's layer,
 * prepared); read-outs into tables run under lg_protected_call with the
 * grid and the field busy, so busy always drops back.
 */
#include "astar.h"
#include "compat.h"
#include "lua_args.h"
#include "lua_field.h"
#include "lua_grid.h"
#include "lua_query.h"

#include <lauxlib.h>
#include <lua.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#define MAX_SEED 9007199254740991.0 /* 2^53 - 1 */

/* ---- reading ---- */

static uint32_t tile_arg(lua_State *L, lfield *F, int arg, const char *fname,
                         int32_t *x, int32_t *y) {
  *x = la_int(L, arg, fname, "x", 1, F->f.width, "out of range") - 1;
  *y = la_int(L, arg + 1, fname, "y", 1, F->f.height, "out of range") - 1;
  return (uint32_t)(*y + 1) * (uint32_t)(F->f.width + 2) + (uint32_t)(*x + 1);
}

/* field:get(x, y) -> cost | nil */
static int f_get(lua_State *L) {
  lfield *F = lf_check(L, "get");
  int32_t x, y;
  uint32_t i = tile_arg(L, F, 2, "get", &x, &y);
  lf_core(L, F, "get");
  if (!astar_field_has(&F->f, i)) {
    lua_pushnil(L);
    return 1;
  }
  lua_pushnumber(L, (lua_Number)F->f.value[i]);
  return 1;
}

static uint64_t seed_arg(lua_State *L, int arg, const char *fname, int *has) {
  char buf[64];
  double s;
  *has = !lua_isnoneornil(L, arg);
  if (!*has) return 0;
  s = lua_type(L, arg) == LUA_TNUMBER ? (double)lua_tonumber(L, arg) : NAN;
  if (!(s >= 0 && s <= MAX_SEED && s == floor(s)))
    la_error(L, arg, fname, "seed must be an integer in [0, %.0f], got %s",
             MAX_SEED, la_describe(L, arg, buf, sizeof buf));
  return (uint64_t)s;
}

/* The rng state of a seeded step from tile i (unit k of a batch). */
static uint64_t step_state(uint64_t seed, uint32_t i, uint64_t k) {
  uint64_t s = seed * 0x9E3779B97F4A7C15u ^ ((uint64_t)i << 20) ^ k;
  (void)astar_field_random(&s);
  return s;
}

/* field:next_step(x, y [, seed]) -> x, y, cost | nil, "goal" | "no_path" */
static int f_next_step(lua_State *L) {
  lfield *F = lf_check(L, "next_step");
  int32_t x, y, nx, ny;
  uint32_t i = tile_arg(L, F, 2, "next_step", &x, &y), next = 0;
  int has, dir = 0, ok;
  uint64_t seed = seed_arg(L, 4, "next_step", &has), rng;
  astar_layer layer;
  lgrid *G;
  double step = 0.0;
  lua_settop(L, 4);
  G = lf_grid(L, F, "next_step", &layer);
  lf_core(L, F, "next_step");
  if (!astar_field_has(&F->f, i)) {
    lua_pushnil(L);
    lua_pushliteral(L, "no_path");
    return 2;
  }
  rng = has ? step_state(seed, i, 0) : 0;
  ok = astar_field_next(&F->f, &G->g, &layer, i, has ? &rng : NULL, &next,
                        &step, &dir);
  if (!ok) {
    lua_pushnil(L);
    lua_pushliteral(L, "goal");
    return 2;
  }
  astar_xy(&G->g, next, &nx, &ny);
  lua_pushinteger(L, nx + 1);
  lua_pushinteger(L, ny + 1);
  lua_pushnumber(L, (lua_Number)step);
  return 3;
}

/* ---- LuaJIT's ffi path (lua/astar/init.lua) ----
 * Under LuaJIT, init.lua calls these two through the ffi for
 * field:next_step and field:steps when nothing is out of the ordinary
 * (no seed, plain tables, numbers): a C call through the ffi costs a few
 * nanoseconds where one through the Lua API costs tens.  They read no Lua
 * value and raise nothing: -2 means "let the method do it", and the
 * method then does everything, errors included, so every message still
 * comes from the methods above.  p is the block of a Field userdata:
 * init.lua passes only values lf_push registered in the weak set
 * registry[LF_KNOWN_KEY].  Between their checks and their end no Lua code
 * runs, so nothing can close the field or the grid meanwhile. */

/* The layer when the field can be read as next_step would read it. */
static int ffi_ready(lfield *F, astar_layer *layer) {
  const lgrid *G = F->grid;
  const astar_grid *g;
  int st;
  if (F->closed || F->busy || G == NULL || G->closed || G->busy) return 0;
  g = &G->g;
  if (g->ntiles != F->f.ntiles) return 0;
  st = F->f.size > 1 ? astar_grid_layer_size(g, F->f.unit, F->f.size, layer)
                     : astar_grid_layer(g, F->f.unit, layer);
  return st == ASTAR_OK;
}

/* Tile (x, y) (1-based, as Lua passed them) when both are integers in
 * range. */
static int ffi_tile(const lfield *F, double x, double y, uint32_t *i) {
  if (!(x >= 1 && x <= F->f.width && x == (double)(int32_t)x && y >= 1 &&
        y <= F->f.height && y == (double)(int32_t)y))
    return 0;
  *i = (uint32_t)y * (uint32_t)(F->f.width + 2) + (uint32_t)x;
  return 1;
}

/* field:next_step(x, y): 1 with out = x, y, cost; 0 "goal"; -1
 * "no_path"; -2 the method's to do. */
static int ffi_next_step(void *p, double x, double y, double *out) {
  lfield *F = (lfield *)p;
  astar_layer layer;
  uint32_t i, next;
  double step;
  int dir;
  int32_t nx, ny;
  if (!ffi_ready(F, &layer) || !ffi_tile(F, x, y, &i)) return -2;
  if (!astar_field_has(&F->f, i)) return -1;
  if (!astar_field_next(&F->f, &F->grid->g, &layer, i, NULL, &next, &step,
                        &dir))
    return 0;
  astar_xy(&F->grid->g, next, &nx, &ny);
  out[0] = (double)nx + 1;
  out[1] = (double)ny + 1;
  out[2] = step;
  return 1;
}

/* Asks the cache for what astar_field_next reads around tile i (a unit
 * further on in a list: the units are anywhere on the map). */
static void lf_prefetch(const astar_field *f, const astar_layer *layer,
                        uint32_t i) {
#if defined(__GNUC__) || defined(__clang__)
  uint32_t w = (uint32_t)f->ctx.stride, r;
  for (r = i - w; r <= i + w; r += w) {
    __builtin_prefetch(f->value + r);
    __builtin_prefetch(f->ctx.stamp + r);
    __builtin_prefetch(layer->cost + r);
  }
  __builtin_prefetch(layer->moves + i);
#else
  (void)f;
  (void)layer;
  (void)i;
#endif
}

/* field:steps(positions) on n x, y pairs in xy, replaced by each unit's
 * next tile: 1, or -2 (nothing written) when the method must do it. */
static int ffi_steps(void *p, double *xy, int n) {
  lfield *F = (lfield *)p;
  astar_layer layer;
  const astar_grid *g;
  size_t k, pairs;
  uint32_t i;
  if (n < 0 || !ffi_ready(F, &layer)) return -2;
  pairs = (size_t)n;
  for (k = 0; k < pairs; k++)
    if (!ffi_tile(F, xy[2 * k], xy[2 * k + 1], &i)) return -2;
  g = &F->grid->g;
  for (k = 0; k < pairs; k++) {
    uint32_t next;
    double step;
    int dir;
    int32_t nx, ny;
    if (k + 12 < pairs) { /* the unit 12 ahead: its rows, read meanwhile */
      uint32_t a;
      (void)ffi_tile(F, xy[2 * k + 24], xy[2 * k + 25], &a);
      lf_prefetch(&F->f, &layer, a);
    }
    (void)ffi_tile(F, xy[2 * k], xy[2 * k + 1], &i);
    if (astar_field_next(&F->f, g, &layer, i, NULL, &next, &step, &dir)) {
      astar_xy(g, next, &nx, &ny);
      xy[2 * k] = (double)nx + 1;
      xy[2 * k + 1] = (double)ny + 1;
    }
  }
  return 1;
}

/* What init.lua declares as struct astar_ffi_field. */
typedef struct lf_ffi_api {
  int (*next_step)(void *p, double x, double y, double *out);
  int (*steps)(void *p, double *xy, int n);
} lf_ffi_api;

static const lf_ffi_api ffi_api = {ffi_next_step, ffi_steps};

void lf_open_ffi(lua_State *L, int module, int field_mt) {
  lua_newtable(L); /* the weak set of fields lf_push made */
  lua_newtable(L);
  lua_pushliteral(L, "k");
  lua_setfield(L, -2, "__mode");
  lua_setmetatable(L, -2);
  lua_pushvalue(L, -1);
  lua_setfield(L, LUA_REGISTRYINDEX, LF_KNOWN_KEY);
  lua_setfield(L, module, "_fields");
  lua_pushlightuserdata(L, (void *)&ffi_api);
  lua_setfield(L, module, "_ffi");
  lua_getfield(L, field_mt, "__index");
  lua_setfield(L, module, "_field_methods");
}

typedef struct readout {
  lfield *F;
  lgrid *G;
  astar_layer layer;
  uint32_t start;
  double max_cost;
  uint64_t seed;
  int has_seed;
  lua_Integer n;
  double cost;
} readout;

/* In protected mode: the path from start into the table at 1 (or a new
 * one); its cost in R->cost. */
static int read_path(lua_State *L, void *p) {
  readout *R = (readout *)p;
  const astar_field *f = &R->F->f;
  const astar_grid *g = &R->G->g;
  uint32_t node = R->start, next, len = 1, k;
  double step, cost = 0.0;
  int dir, from = f->direction == ASTAR_FIELD_FROM;
  lua_Integer i;
  while (len <= f->count &&
         astar_field_next(f, g, &R->layer, node, NULL, &next, &step, &dir)) {
    node = next;
    cost += step;
    len++;
  }
  if (lua_istable(L, 1))
    lua_pushvalue(L, 1);
  else
    lua_createtable(L, (int)(2 * len), 0);
  node = R->start;
  for (k = 0; k < len; k++) {
    int32_t x, y;
    astar_xy(g, node, &x, &y);
    i = from ? 2 * (lua_Integer)(len - k) - 1 : 2 * (lua_Integer)k + 1;
    lua_pushinteger(L, x + 1);
    lua_rawseti(L, -2, (int)i);
    lua_pushinteger(L, y + 1);
    lua_rawseti(L, -2, (int)(i + 1));
    next = node;
    if (k + 1 < len)
      (void)astar_field_next(f, g, &R->layer, node, NULL, &next, &step, &dir);
    node = next;
  }
  if (lua_istable(L, 1))
    lq_clear_from(L, lua_gettop(L), 2 * (lua_Integer)len);
  R->cost = cost;
  return 1;
}

/* Runs a read-out under lg_protected_call with the grid (if any) and the
 * field busy; raises its error with both idle again. */
static void protected_readout(lua_State *L, readout *R, lg_fn fn, int arg,
                              int nres) {
  lg_pcall pc;
  int st;
  lg_protect(L, &pc, fn, R);
  lua_pushvalue(L, arg);
  if (R->G != NULL) lg_enter(R->G);
  lf_enter(R->F);
  st = lg_protected_call(L, 1, nres);
  lf_leave(R->F);
  if (R->G != NULL) lg_leave(R->G);
  if (st != 0) lua_error(L);
}

static void out_arg(lua_State *L, int arg, const char *fname) {
  char buf[64];
  int t = lua_type(L, arg);
  if (t != LUA_TNONE && t != LUA_TNIL && t != LUA_TTABLE)
    la_error(L, arg, fname, "out must be a table, got %s",
             la_describe(L, arg, buf, sizeof buf));
}

/* field:path(x, y [, out]) -> path, cost | nil, "no_path" */
static int f_path(lua_State *L) {
  lfield *F = lf_check(L, "path");
  int32_t x, y;
  uint32_t i = tile_arg(L, F, 2, "path", &x, &y);
  readout R;
  out_arg(L, 4, "path");
  lua_settop(L, 4);
  memset(&R, 0, sizeof R);
  R.F = F;
  R.G = lf_grid(L, F, "path", &R.layer);
  lf_core(L, F, "path");
  if (!astar_field_has(&F->f, i)) {
    lua_pushnil(L);
    lua_pushliteral(L, "no_path");
    return 2;
  }
  R.start = i;
  protected_readout(L, &R, read_path, 4, 1);
  lua_pushnumber(L, (lua_Number)R.cost);
  return 2;
}

/* In protected mode: the tiles within R->max_cost into the table at 1. */
static int read_within(lua_State *L, void *p) {
  readout *R = (readout *)p;
  const astar_field *f = &R->F->f;
  lua_Integer n = 0;
  uint32_t k, w = (uint32_t)f->width + 2;
  if (lua_istable(L, 1))
    lua_pushvalue(L, 1);
  else
    lua_newtable(L);
  for (k = 0; k < f->count; k++) {
    uint32_t i = f->order[k];
    if (!((double)f->value[i] <= R->max_cost)) {
      if (f->sorted) break;
      continue;
    }
    if (n > INT_MAX - 3) luaL_error(L, "within: too many tiles for a table");
    lua_pushinteger(L, (lua_Integer)(i % w));
    lua_rawseti(L, -2, (int)(n + 1));
    lua_pushinteger(L, (lua_Integer)(i / w));
    lua_rawseti(L, -2, (int)(n + 2));
    n += 2;
  }
  if (lua_istable(L, 1)) lq_clear_from(L, lua_gettop(L), n);
  R->n = n / 2;
  return 1;
}

/* field:within(max_cost [, out]) -> tiles, count */
static int f_within(lua_State *L) {
  char buf[64];
  lfield *F = lf_check(L, "within");
  readout R;
  double m = lua_type(L, 2) == LUA_TNUMBER ? (double)lua_tonumber(L, 2) : NAN;
  if (m != m)
    la_error(L, 2, "within", "max_cost must be a number, got %s",
             la_describe(L, 2, buf, sizeof buf));
  out_arg(L, 3, "within");
  lua_settop(L, 3);
  memset(&R, 0, sizeof R);
  R.F = F;
  R.max_cost = m;
  protected_readout(L, &R, read_within, 3, 1);
  lua_pushinteger(L, R.n);
  return 2;
}

/* In protected mode: each unit's next tile from the positions at 1 into
 * the table at 2.  R->n: how many positions. */
static int read_steps(lua_State *L, void *p) {
  readout *R = (readout *)p;
  const astar_field *f = &R->F->f;
  const astar_grid *g = &R->G->g;
  char buf[64];
  lua_Integer k;
  for (k = 0; k < R->n; k++) {
    double c[2];
    int j, dir;
    uint32_t i, next;
    double step;
    int32_t nx, ny;
    for (j = 0; j < 2; j++) {
      int32_t hi = j == 0 ? g->width : g->height;
      c[j] = compat_rawgeti_type(L, 1, (int)(2 * k + 1 + j)) == LUA_TNUMBER
                 ? (double)lua_tonumber(L, -1)
                 : NAN;
      if (!(c[j] >= 1 && c[j] <= hi && c[j] == (double)(int32_t)c[j]))
        la_error(L, 2, "steps", "positions[%.0f] (%s of unit %.0f) must be "
                 "an integer in 1..%d, got %s", (double)(2 * k + 1 + j),
                 j == 0 ? "x" : "y", (double)k + 1, (int)hi,
                 la_describe(L, -1, buf, sizeof buf));
      lua_pop(L, 1);
    }
    nx = (int32_t)c[0] - 1;
    ny = (int32_t)c[1] - 1;
    i = astar_index(g, nx, ny);
    {
      uint64_t rng = R->has_seed ? step_state(R->seed, i, (uint64_t)k) : 0;
      if (astar_field_next(f, g, &R->layer, i, R->has_seed ? &rng : NULL,
                           &next, &step, &dir))
        astar_xy(g, next, &nx, &ny);
    }
    lua_pushinteger(L, nx + 1);
    lua_rawseti(L, 2, (int)(2 * k + 1));
    lua_pushinteger(L, ny + 1);
    lua_rawseti(L, 2, (int)(2 * k + 2));
  }
  lq_clear_from(L, 2, 2 * R->n);
  return 0;
}

/* field:steps(positions [, out [, seed]]) -> out */
static int f_steps(lua_State *L) {
  char buf[64];
  lfield *F = lf_check(L, "steps");
  readout R;
  size_t n;
  lg_pcall pc;
  int st;
  la_table(L, 2, "steps", "positions");
  out_arg(L, 3, "steps");
  memset(&R, 0, sizeof R);
  R.seed = seed_arg(L, 4, "steps", &R.has_seed);
  lua_settop(L, 4);
  n = compat_rawlen(L, 2);
  if (n % 2 != 0)
    la_error(L, 2, "steps", "positions must hold x, y pairs, got %.0f "
             "numbers", (double)n);
  if (n > INT_MAX - 3)
    la_error(L, 2, "steps", "positions: too many (%s)",
             la_describe(L, 2, buf, sizeof buf));
  R.n = (lua_Integer)(n / 2);
  R.F = F;
  R.G = lf_grid(L, F, "steps", &R.layer);
  lf_core(L, F, "steps");
  if (lua_isnil(L, 3)) {
    lua_createtable(L, (int)n, 0);
    lua_replace(L, 3);
  }
  lg_protect(L, &pc, read_steps, &R);
  lua_pushvalue(L, 2);
  lua_pushvalue(L, 3);
  lg_enter(R.G);
  lf_enter(F);
  st = lg_protected_call(L, 2, 0);
  lf_leave(F);
  lg_leave(R.G);
  if (st != 0) lua_error(L);
  lua_pushvalue(L, 3);
  return 1;
}

/* field:directions() -> string: per tile, row by row, 0 (no step: a goal,
 * or no value), 1..8 (N E S W NE SE SW NW) or 9 (through a grid link). */
static int f_directions(lua_State *L) {
  lfield *F = lf_check(L, "directions");
  astar_layer layer;
  lgrid *G;
  size_t n;
  char *out;
  int32_t x, y;
  lua_settop(L, 1);
  n = (size_t)F->f.width * (size_t)F->f.height;
  out = (char *)lua_newuserdata(L, n > 0 ? n : 1); /* may run finalizers */
  G = lf_grid(L, F, "directions", &layer);
  lf_core(L, F, "directions");
  for (y = 0; y < F->f.height; y++) {
    for (x = 0; x < F->f.width; x++) {
      uint32_t i = astar_index(&G->g, x, y), next;
      double step;
      int dir = -1;
      if (!astar_field_next(&F->f, &G->g, &layer, i, NULL, &next, &step,
                            &dir))
        dir = -1;
      out[(size_t)y * (size_t)F->f.width + (size_t)x] = (char)(dir + 1);
    }
  }
  lua_pushlstring(L, out, n);
  return 1;
}

static const luaL_Reg read_methods[] = {
    {"get", f_get},
    {"next_step", f_next_step},
    {"path", f_path},
    {"within", f_within},
    {"steps", f_steps},
    {"directions", f_directions},
    {NULL, NULL}};

const luaL_Reg *const lf_read_methods = read_methods;

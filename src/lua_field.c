/*
 * The Field type: grid:field (Dijkstra maps), reading and following a
 * field (get, next_step, path, within, steps, directions), transforming
 * it (flee, astar.combine), and its lifecycle (close, __gc, __close,
 * tostring, memory, version).
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
#include "lua_grid.h"
#include "lua_query.h"

#include <lauxlib.h>
#include <lua.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAX_SEED 9007199254740991.0 /* 2^53 - 1 */
#define DEFAULT_FLEE (-1.2)

typedef struct lfield {
  astar_field f;
  lua_Alloc alloc;
  void *alloc_ud;
  size_t held, reported;
  struct lg_anchor *anchor;
  lgrid *grid;        /* the grid in the user value (kept alive by it) */
  int busy, closed;
  /* scratch of the goals and their values, grown as needed */
  int32_t *goals;
  double *values;
  size_t goals_cap;
} lfield;

static const char *const field_keys[] = {
    "unit", "values", "max_cost", "direction", "tile_cost", "size", "avoid",
    "extra_cost", "queue", NULL};
static const char *const direction_names[] = {"to", "from", NULL};
/* the queue of the builds: the radix heap (or breadth-first), or the
 * binary heap of earlier versions, kept for comparisons (same values) */
static const char *const queue_names[] = {"auto", "heap", NULL};
#define QUEUE_LIST "'auto', 'heap'"
#define DIRECTION_LIST "'to', 'from'"
static const char *const combine_keys[] = {"rescan", NULL};

/* ---- the field at an index ---- */

static lfield *lf_to_field(lua_State *L, int idx) {
  lfield *F = (lfield *)lua_touserdata(L, idx);
  if (F == NULL || !lua_getmetatable(L, idx)) return NULL;
  if (!lua_rawequal(L, -1, FIELD_MT_UPVALUE)) F = NULL;
  lua_pop(L, 1);
  return F;
}

/* The field is open and idle, or a Lua error. */
static void lf_core(lua_State *L, lfield *F, const char *fname) {
  if (F->closed) luaL_error(L, "%s: the field is closed", fname);
  if (F->busy)
    luaL_error(L, "%s: the field is busy (called from inside one of its "
                  "own builds)", fname);
}

static lfield *lf_check(lua_State *L, const char *fname) {
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

static void lf_enter(lfield *F) { F->busy++; }
static void lf_leave(lfield *F) {
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
static lfield *lf_push(lua_State *L, int grid, int fn) {
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
static void lf_rebind(lua_State *L, int idx, int grid, int fn) {
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
static void lf_push_bound(lua_State *L, int idx) {
  compat_getuservalue(L, idx);
  lua_pushliteral(L, "grid");
  lua_rawget(L, -2);
  lua_pushliteral(L, "tile_cost");
  lua_rawget(L, -3);
  lua_remove(L, -3);
}

static void lf_report(lua_State *L, lfield *F) {
  if (F->closed || F->held == F->reported) return;
  if (F->held < F->reported) lg_unaccount(F->anchor, &F->reported);
  lg_account(L, F->anchor, &F->reported, F->held);
}

/* The field's grid, open and idle, prepared for the field's unit, with
 * its layer in *layer. */
static lgrid *lf_grid(lua_State *L, lfield *F, const char *fname,
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

/* ---- building ---- */

/* The scratch for n goals. */
static void goal_room(lua_State *L, lfield *F, size_t n) {
  int32_t *g;
  double *v;
  size_t cap = F->goals_cap ? F->goals_cap : 8;
  if (n <= F->goals_cap) return;
  while (cap < n) cap *= 2;
  g = (int32_t *)F->alloc(F->alloc_ud, F->goals,
                          F->goals_cap * 2 * sizeof(int32_t),
                          cap * 2 * sizeof(int32_t));
  if (g == NULL) luaL_error(L, "not enough memory");
  F->goals = g;
  v = (double *)F->alloc(F->alloc_ud, F->values,
                         F->goals_cap * sizeof(double), cap * sizeof(double));
  if (v == NULL) {
    /* keep the pair consistent: shrink the goals back */
    F->goals = (int32_t *)F->alloc(F->alloc_ud, g, cap * 2 * sizeof(int32_t),
                                   F->goals_cap * 2 * sizeof(int32_t));
    if (F->goals_cap == 0) F->goals = NULL;
    luaL_error(L, "not enough memory");
  }
  F->values = v;
  F->held += (cap - F->goals_cap) * (2 * sizeof(int32_t) + sizeof(double));
  F->goals_cap = cap;
}

typedef struct field_args {
  int list;           /* goals as a table at argument 2 */
  int32_t gx, gy;     /* or one goal */
  size_t ngoals;
  int opt, reuse_arg; /* argument numbers */
  int fn;             /* stack index of tile_cost, 0 */
  int values;         /* stack index of the values table, 0 */
  int avoid, extra;   /* stack indices of the overlay tables, 0 */
  astar_field_query q;
} field_args;

/* Reads goals (raw: no Lua code runs) into F's scratch, checking them
 * against g and the unit's layer L. */
static void read_goals(lua_State *L, lfield *F, const field_args *A,
                       const astar_grid *g, const astar_layer *layer) {
  char buf[64];
  size_t i, n = A->ngoals;
  goal_room(L, F, n);
  if (F->goals == NULL || F->values == NULL) {
    luaL_error(L, "not enough memory");
    return;
  }
  for (i = 0; i < n; i++) {
    int32_t xy[2];
    int k;
    if (A->list) {
      for (k = 0; k < 2; k++) {
        int32_t hi = k == 0 ? g->width : g->height;
        double c;
        lua_rawgeti(L, 2, (int)(2 * i + 1 + (size_t)k));
        c = lua_type(L, -1) == LUA_TNUMBER ? (double)lua_tonumber(L, -1)
                                           : NAN;
        if (!(c == floor(c) && c >= 1 && c <= hi))
          la_error(L, 2, "field", "goals[%.0f] (%s of goal %.0f) must be "
                   "an integer in 1..%d, got %s", (double)(2 * i + 1 + k),
                   k == 0 ? "x" : "y", (double)i + 1, (int)hi,
                   la_describe(L, -1, buf, sizeof buf));
        xy[k] = (int32_t)c - 1;
        lua_pop(L, 1);
      }
    } else {
      xy[0] = A->gx;
      xy[1] = A->gy;
    }
    if (!((layer->passable[astar_index(g, xy[0], xy[1]) >> 6] >>
           (astar_index(g, xy[0], xy[1]) & 63u)) & 1u)) {
      const char *why = A->q.size > 1  ? " for a unit of that size"
                        : A->q.unit != 0 ? " for the unit"
                                         : "";
      if (A->list)
        la_error(L, 2, "field", "goal %.0f at (%d, %d) is blocked%s",
                 (double)i + 1, (int)xy[0] + 1, (int)xy[1] + 1, why);
      la_error(L, 2, "field", "goal (%d, %d) is blocked%s", (int)xy[0] + 1,
               (int)xy[1] + 1, why);
    }
    F->goals[2 * i] = xy[0];
    F->goals[2 * i + 1] = xy[1];
    F->values[i] = 0.0;
    if (A->values != 0) {
      double v;
      lua_rawgeti(L, A->values, (int)(i + 1));
      v = lua_type(L, -1) == LUA_TNUMBER ? (double)lua_tonumber(L, -1) : NAN;
      if (!(v == v && fabs(v) <= (double)FLT_MAX))
        la_error(L, A->opt, "field", "values[%.0f] must be a finite number, "
                 "got %s", (double)i + 1, la_describe(L, -1, buf, sizeof buf));
      F->values[i] = v;
      lua_pop(L, 1);
    }
  }
}

/* The reuse argument: a field of g's size, or 0 when absent. */
static lfield *reuse_arg(lua_State *L, int arg, const char *fname,
                         const astar_grid *g) {
  char buf[64];
  lfield *R;
  if (lua_isnoneornil(L, arg)) return NULL;
  R = lf_to_field(L, arg);
  if (R == NULL) {
    la_error(L, arg, fname, "reuse must be a field, got %s",
             la_describe(L, arg, buf, sizeof buf));
    return NULL; /* not reached: la_error raises */
  }
  if (R->closed) la_error(L, arg, fname, "reuse: the field is closed");
  if (R->busy) la_error(L, arg, fname, "reuse: the field is busy");
  if (g != NULL && R->f.ntiles != 0 &&
      (R->f.width != g->width || R->f.height != g->height))
    la_error(L, arg, fname, "reuse must be a field of %d x %d tiles, got "
             "one of %d x %d", (int)g->width, (int)g->height,
             (int)R->f.width, (int)R->f.height);
  return R;
}

/* Runs a core build with the grid and the field busy; raises failures
 * (the callback's own error as raised) with both idle again. */
typedef int (*build_fn)(void *ud);

static void run_build(lua_State *L, lgrid *G, lfield *F, lq_query *Q,
                      const char *fname, build_fn fn, void *ud) {
  int st;
  lg_enter(G);
  lf_enter(F);
  st = fn(ud);
  lf_leave(F);
  lg_leave(G);
  if (st != ASTAR_OK) {
    if (st == ASTAR_EINVAL) luaL_error(L, "%s: invalid field", fname);
    lq_raise_failure(L, fname, Q, st);
  }
}

typedef struct build_call {
  lfield *F;
  const astar_grid *g;
  const astar_field_query *q;
  const astar_field *src;
  const astar_field *const *list;
  const double *weights;
  size_t n;
  double k;
} build_call;

static int do_build(void *ud) {
  build_call *b = (build_call *)ud;
  return astar_field_build(&b->F->f, b->g, b->q);
}

/* grid:field(x, y [, options [, reuse]]) | grid:field(goals [, options
 * [, reuse]]) -> field */
static int g_field(lua_State *L) {
  char buf[64];
  lgrid *G = lg_check(L, "field");
  field_args A;
  lq_query Q;
  lfield *F, *R;
  astar_grid *g;
  astar_layer layer;
  build_call b;
  int st, top;
  memset(&A, 0, sizeof A);
  memset(&Q, 0, sizeof Q);
  astar_field_query_defaults(&A.q);
  if (lua_gettop(L) < 2) lua_settop(L, 2);
  if (lua_type(L, 2) == LUA_TTABLE) {
    size_t n = compat_rawlen(L, 2);
    A.list = 1;
    if (n == 0 || n % 2 != 0)
      la_error(L, 2, "field", "goals must hold x, y pairs (a positive even "
               "count of numbers), got %.0f numbers", (double)n);
    if (n / 2 > G->g.ntiles)
      la_error(L, 2, "field", "goals: too many (%.0f)", (double)n * 0.5);
    A.ngoals = n / 2;
    A.opt = 3;
  } else {
    if (lua_isnoneornil(L, 2))
      la_error(L, 2, "field", "goals must be x, y or a table {x1, y1, x2, "
               "y2, ...}, got %s", la_describe(L, 2, buf, sizeof buf));
    A.gx = la_x(L, 2, "field", "x", &G->g);
    A.gy = la_y(L, 3, "field", "y", &G->g);
    A.ngoals = 1;
    A.opt = 4;
  }
  A.reuse_arg = A.opt + 1;
  lua_settop(L, A.reuse_arg);
  if (la_options(L, A.opt, "field", field_keys)) {
    A.q.unit = lt_unit_option(L, A.opt, "field", 1);
    A.q.direction = la_enum(L, A.opt, "field", "direction", direction_names,
                            DIRECTION_LIST, ASTAR_FIELD_TO);
    A.q.heap = la_enum(L, A.opt, "field", "queue", queue_names, QUEUE_LIST,
                       0);
    A.q.max_cost = la_number(L, A.opt, "field", "max_cost", -HUGE_VAL,
                             HUGE_VAL, "a number", HUGE_VAL);
    A.fn = la_typed_option(L, A.opt, "field", "tile_cost", LUA_TFUNCTION);
    A.values = la_typed_option(L, A.opt, "field", "values", LUA_TTABLE);
    if (A.values != 0 && compat_rawlen(L, A.values) != A.ngoals)
      la_error(L, A.opt, "field", "values must hold one number per goal "
               "(%.0f), got %.0f", (double)A.ngoals,
               (double)compat_rawlen(L, A.values));
    A.q.size = la_size_option(L, A.opt, "field", &G->g);
    lq_overlay_tables(L, A.opt, "field", &A.avoid, &A.extra);
  }
  R = reuse_arg(L, A.reuse_arg, "field", &G->g);
  luaL_checkstack(L, 16, "field");
  top = lua_gettop(L);

  /* every argument read: the map, prepared; then the field */
  g = lg_core(L, G, "field");
  lg_prepare(L, g, A.q.unit, 0u, "field");
  if (A.q.size > 1 &&
      (st = astar_grid_prepare_size(g, A.q.unit, A.q.size, 0u)) != ASTAR_OK)
    la_raise(L, st, "field");
  if (R != NULL) {
    lf_core(L, R, "field"); /* Lua code run since may have closed it */
    F = R;
    lua_pushvalue(L, A.reuse_arg);
  } else {
    F = lf_push(L, 1, A.fn);
  }
  if ((st = astar_grid_layer_size(g, A.q.unit, A.q.size, &layer)) != ASTAR_OK)
    la_raise(L, st, "field");
  read_goals(L, F, &A, g, &layer); /* raises with the reused field as was */
  /* the overlays last: no Lua code runs from here to the build, which
   * copies them (the grid's buffers are any query's) */
  if (A.avoid != 0 || A.extra != 0) { /* raw reads into the grid's buffers:
                                         the build copies them */
    astar_query oq;
    memset(&oq, 0, sizeof oq);
    lq_overlay_fill(L, A.opt, "field", G, &oq, A.avoid, A.extra);
    A.q.avoid = oq.avoid;
    A.q.navoid = oq.navoid;
    A.q.extra_tiles = oq.extra_tiles;
    A.q.extra_costs = oq.extra_costs;
    A.q.nextra = oq.nextra;
  }
  if (R != NULL) lf_rebind(L, top + 1, 1, A.fn);
  if ((st = astar_field_fit(&F->f, g)) != ASTAR_OK) la_raise(L, st, "field");
  A.q.goals = F->goals;
  A.q.ngoals = A.ngoals;
  A.q.values = A.values != 0 ? F->values : NULL;
  Q.L = L;
  Q.ud = G;
  Q.arg = A.opt;
  Q.tile = A.fn;
  if (A.fn != 0) {
    A.q.tile_fn = lq_tile_hook;
    A.q.fn_ud = &Q;
  }
  b.F = F;
  b.g = g;
  b.q = &A.q;
  run_build(L, G, F, &Q, "field", do_build, &b);
  lua_settop(L, top + 1);
  lf_report(L, F);
  return 1;
}

/* ---- transforms ---- */

static int do_flee(void *ud) {
  build_call *b = (build_call *)ud;
  return astar_field_flee(&b->F->f, b->src, b->g, b->q, b->k);
}

/* The rules of a rescan: the source field's unit, direction and tile
 * callback (at stack index fn, or 0), through the bridge Q. */
static void rescan_query(astar_field_query *q, const astar_field *src,
                         lq_query *Q, lua_State *L, lgrid *G, int fn) {
  astar_field_query_defaults(q);
  q->unit = src->unit;
  q->direction = src->direction;
  q->size = src->size;
  q->avoid = src->ov_xy; /* the source's own copy of its overlays */
  q->navoid = src->ov_navoid;
  q->extra_tiles = src->ov_xy != NULL ? src->ov_xy + 2 * src->ov_navoid
                                      : NULL;
  q->extra_costs = src->ov_cost;
  q->nextra = src->ov_nextra;
  q->heap = src->heap; /* the source's queue */
  memset(Q, 0, sizeof *Q);
  Q->L = L;
  Q->ud = G;
  Q->arg = 1;
  Q->tile = fn;
  if (fn != 0) {
    q->tile_fn = lq_tile_hook;
    q->fn_ud = Q;
  }
}

/* field:flee([k [, reuse]]) -> field */
static int f_flee(lua_State *L) {
  char buf[64];
  lfield *S = lf_check(L, "flee"), *R, *F;
  double k = DEFAULT_FLEE;
  astar_field_query q;
  astar_layer layer;
  lq_query Q;
  build_call b;
  lgrid *G;
  int grid, fn, top;
  lua_settop(L, 3);
  if (!lua_isnil(L, 2)) {
    k = lua_type(L, 2) == LUA_TNUMBER ? (double)lua_tonumber(L, 2) : NAN;
    if (!(k == k && fabs(k) <= 1e30))
      la_error(L, 2, "flee", "k must be a finite number, got %s",
               la_describe(L, 2, buf, sizeof buf));
  }
  if (S->f.tag == 0) luaL_error(L, "flee: the field is empty");
  R = reuse_arg(L, 3, "flee", NULL);
  if (R != NULL && R->f.ntiles != 0 &&
      (R->f.width != S->f.width || R->f.height != S->f.height))
    la_error(L, 3, "flee", "reuse must be a field of %d x %d tiles, got one "
             "of %d x %d", (int)S->f.width, (int)S->f.height,
             (int)R->f.width, (int)R->f.height);
  luaL_checkstack(L, 16, "flee");
  lf_push_bound(L, 1);
  grid = lua_gettop(L) - 1;
  fn = lua_type(L, -1) == LUA_TFUNCTION ? lua_gettop(L) : 0;
  G = lf_grid(L, S, "flee", &layer);
  top = lua_gettop(L);
  lf_core(L, S, "flee");
  if (R != NULL) {
    lf_core(L, R, "flee");
    F = R;
    lua_pushvalue(L, 3);
    if (F != S) lf_rebind(L, -1, grid, fn);
  } else {
    F = lf_push(L, grid, fn);
  }
  if (F != S) {
    int st = astar_field_fit(&F->f, &G->g);
    if (st != ASTAR_OK) la_raise(L, st, "flee");
  }
  rescan_query(&q, &S->f, &Q, L, G, fn);
  b.F = F;
  b.g = &G->g;
  b.q = &q;
  b.src = &S->f;
  b.k = k;
  if (F != S) lf_enter(S);
  lg_enter(G);
  lf_enter(F);
  {
    int st = do_flee(&b);
    lf_leave(F);
    lg_leave(G);
    if (F != S) lf_leave(S);
    if (st != ASTAR_OK) {
      if (st == ASTAR_EINVAL) luaL_error(L, "flee: invalid field");
      lq_raise_failure(L, "flee", &Q, st);
    }
  }
  lua_settop(L, top + 1);
  lf_report(L, F);
  return 1;
}

/* astar.combine({f1, w1, f2, w2, ...} [, options]) -> field */
static int l_combine(lua_State *L) {
  char buf[64];
  const astar_field *list[64];
  lfield *lf[64] = {NULL};
  double weights[64];
  size_t n, i;
  int rescan = 0, top, grid, fn, st;
  lfield *F;
  lgrid *G = NULL;
  astar_field_query q;
  lq_query Q;
  la_table(L, 1, "combine", "fields");
  lua_settop(L, 2);
  n = compat_rawlen(L, 1);
  if (n == 0 || n % 2 != 0)
    la_error(L, 1, "combine", "fields must hold field, weight pairs (a "
             "positive even count of values), got %.0f values", (double)n);
  if (n / 2 > 64)
    la_error(L, 1, "combine", "fields: at most 64 fields, got %.0f",
             (double)n * 0.5);
  if (la_options(L, 2, "combine", combine_keys)) {
    lua_getfield(L, 2, "rescan");
    if (!lua_isnil(L, -1) && lua_type(L, -1) != LUA_TBOOLEAN)
      la_error(L, 2, "combine", "rescan must be a boolean, got %s",
               la_describe(L, -1, buf, sizeof buf));
    rescan = lua_toboolean(L, -1);
    lua_pop(L, 1);
  }
  n /= 2;
  if (n == 0) return 0; /* not reached: checked above */
  luaL_checkstack(L, (int)n + 16, "combine");
  for (i = 0; i < n; i++) { /* raw reads: no Lua code runs */
    double w;
    lua_rawgeti(L, 1, (int)(2 * i + 1));
    lf[i] = lf_to_field(L, -1);
    if (lf[i] == NULL) {
      la_error(L, 1, "combine", "fields[%.0f] must be a field, got %s",
               (double)(2 * i + 1), la_describe(L, -1, buf, sizeof buf));
      return 0; /* not reached: la_error raises */
    }
    if (lf[i]->closed || lf[i]->busy)
      la_error(L, 1, "combine", "fields[%.0f]: the field is %s",
               (double)(2 * i + 1), lf[i]->closed ? "closed" : "busy");
    if (lf[i]->f.tag == 0)
      la_error(L, 1, "combine", "fields[%.0f]: the field is empty",
               (double)(2 * i + 1));
    if (i > 0 && (lf[i]->f.width != lf[0]->f.width ||
                  lf[i]->f.height != lf[0]->f.height))
      la_error(L, 1, "combine", "fields[%.0f] is %d x %d, not %d x %d like "
               "fields[1]", (double)(2 * i + 1), (int)lf[i]->f.width,
               (int)lf[i]->f.height, (int)lf[0]->f.width,
               (int)lf[0]->f.height);
    lua_rawgeti(L, 1, (int)(2 * i + 2));
    w = lua_type(L, -1) == LUA_TNUMBER ? (double)lua_tonumber(L, -1) : NAN;
    if (!(w == w && fabs(w) <= 1e30))
      la_error(L, 1, "combine", "fields[%.0f] (weight %.0f) must be a "
               "finite number, got %s", (double)(2 * i + 2), (double)i + 1,
               la_describe(L, -1, buf, sizeof buf));
    weights[i] = w;
    list[i] = &lf[i]->f;
    lua_pop(L, 2); /* the field stays referenced by the table */
  }
  /* the first field's grid and callback */
  lua_rawgeti(L, 1, 1);
  lf_push_bound(L, lua_gettop(L));
  grid = lua_gettop(L) - 1;
  fn = lua_type(L, -1) == LUA_TFUNCTION ? lua_gettop(L) : 0;
  if (rescan) {
    astar_layer layer;
    G = lf_grid(L, lf[0], "combine", &layer);
  }
  top = lua_gettop(L);
  F = lf_push(L, grid, fn);
  for (i = 0; i < n; i++) lf_core(L, lf[i], "combine");
  if (lf[0]->f.ntiles == 0) luaL_error(L, "combine: the field is empty");
  {
    /* the new field's size: its sources' */
    astar_grid shape;
    memset(&shape, 0, sizeof shape);
    if (G != NULL) {
      st = astar_field_fit(&F->f, &G->g);
    } else {
      lgrid *g0 = lg_to_grid(L, grid);
      if (g0 == NULL || g0->closed || g0->g.ntiles != lf[0]->f.ntiles) {
        /* no open grid of that size: the field's own geometry */
        shape.ntiles = lf[0]->f.ntiles;
        shape.width = lf[0]->f.width;
        shape.height = lf[0]->f.height;
        shape.stride = lf[0]->f.width + 2;
        memcpy(shape.offset, lf[0]->f.ctx.offset, sizeof shape.offset);
        st = astar_field_fit(&F->f, &shape);
      } else {
        st = astar_field_fit(&F->f, &g0->g);
      }
    }
    if (st != ASTAR_OK) la_raise(L, st, "combine");
  }
  rescan_query(&q, list[0], &Q, L, G, fn);
  for (i = 0; i < n; i++) lf_enter(lf[i]);
  if (G != NULL) lg_enter(G);
  lf_enter(F);
  st = astar_field_combine(&F->f, list, weights, n, G != NULL ? &G->g : NULL,
                           &q);
  lf_leave(F);
  if (G != NULL) lg_leave(G);
  for (i = 0; i < n; i++) lf_leave(lf[i]);
  if (st != ASTAR_OK) {
    if (st == ASTAR_EINVAL) luaL_error(L, "combine: invalid fields");
    lq_raise_failure(L, "combine", &Q, st);
  }
  lua_settop(L, top + 1);
  lf_report(L, F);
  return 1;
}

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

/* Sets t[n + 1], t[n + 2], ... to nil up to the first nil. */
static void clear_from(lua_State *L, int t, lua_Integer n) {
  while (n < INT_MAX) {
    lua_rawgeti(L, t, (int)++n);
    if (lua_isnil(L, -1)) break;
    lua_pop(L, 1);
    lua_pushnil(L);
    lua_rawseti(L, t, (int)n);
  }
  lua_pop(L, 1);
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
  if (lua_istable(L, 1)) clear_from(L, lua_gettop(L), 2 * (lua_Integer)len);
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
  if (lua_istable(L, 1)) clear_from(L, lua_gettop(L), n);
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
  clear_from(L, 2, 2 * R->n);
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

/* ---- the rest ---- */

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
  lua_pushstring(L, direction_names[F->f.direction]);
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
                  direction_names[F->f.direction], (int)F->f.count);
  return 1;
}

static const luaL_Reg field_methods[] = {
    {"get", f_get},
    {"next_step", f_next_step},
    {"path", f_path},
    {"within", f_within},
    {"steps", f_steps},
    {"directions", f_directions},
    {"flee", f_flee},
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

const luaL_Reg lf_grid_methods[] = {{"field", g_field}, {NULL, NULL}};
const luaL_Reg lf_module_functions[] = {{"combine", l_combine},
                                        {NULL, NULL}};
const luaL_Reg *const lf_field_methods = field_methods;
const luaL_Reg *const lf_field_meta = field_meta;
const char *const *const lf_field_keys = field_keys;
const char *const *const lf_combine_keys = combine_keys;

/*
 * Making fields: grid:field (a Dijkstra map from goals, with its options:
 * unit, values, max_cost, direction, tile_cost, size, avoid, extra_cost,
 * queue; reusing a field), and the transforms that make a field from
 * fields: field:flee and astar.combine (a rescan calls the source's tile
 * callback again).  The Field type itself is in lua_field.c.
 *
 * Order of work: every argument read first (Lua code may run), then the
 * grid taken (lg_core) and prepared, the goals read raw, and the core
 * builds with the grid and the field busy; the tile callback runs through
 * the query bridge of lua_query.h under lua_pcall, and a failure is
 * raised with both idle again.
 */
#include "astar.h"
#include "compat.h"
#include "lua_args.h"
#include "lua_field.h"
#include "lua_grid.h"
#include "lua_query.h"

#include <lauxlib.h>
#include <lua.h>
#include <float.h>
#include <math.h>
#include <string.h>

#define DEFAULT_FLEE (-1.2)

static const char *const field_keys[] = {
    "unit", "values", "max_cost", "direction", "tile_cost", "size", "avoid",
    "extra_cost", "queue", NULL};
/* the queue of the builds: the radix heap (or breadth-first), or the
 * binary heap of earlier versions, kept for comparisons (same values) */
static const char *const queue_names[] = {"auto", "heap", NULL};
#define QUEUE_LIST "'auto', 'heap'"
#define DIRECTION_LIST "'to', 'from'"
static const char *const combine_keys[] = {"rescan", NULL};

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
    A.q.direction = la_enum(L, A.opt, "field", "direction",
                            lf_direction_names, DIRECTION_LIST,
                            ASTAR_FIELD_TO);
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

static const luaL_Reg build_methods[] = {{"flee", f_flee}, {NULL, NULL}};

const luaL_Reg lf_grid_methods[] = {{"field", g_field}, {NULL, NULL}};
const luaL_Reg lf_module_functions[] = {{"combine", l_combine},
                                        {NULL, NULL}};
const luaL_Reg *const lf_build_methods = build_methods;
const char *const *const lf_field_keys = field_keys;
const char *const *const lf_combine_keys = combine_keys;

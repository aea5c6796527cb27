/*
 * The query object: grid:query(sx, sy, gx, gy [, options]) reads a query
 * exactly as find_path does (lua_query_options.c), then advances it in
 * slices of expansions on a search context of its own: q:step(max_nodes),
 * q:result(), q:partial(), q:expanded(), q:state(), q:restart(),
 * q:close().  The pathfinder pool (lua_pathfinder.c) runs the same objects
 * on contexts it lends them.
 *
 * What keeps it safe:
 *  - the object is made closed, then reads its arguments, then opens: a
 *    bad argument leaves a closed object whose __gc does nothing;
 *  - its callbacks, goals and tables live in its user value (with the
 *    grid, which the query keeps alive); a step pushes them and points the
 *    one callback bridge at them, so no C frame holds them between steps;
 *  - a step runs with the grid and the query busy: a callback that edits
 *    the grid, or steps, restarts or closes the query, gets an error or a
 *    deferred close, never a context freed under the search;
 *  - every step compares the grid's edit counter with the one its search
 *    began at: an edit makes the query "stale" (restart it);
 *  - its avoid and extra_cost lists are read once, into the grid's
 *    buffers as find_path reads them, and copied at once into a block of
 *    its own (the grid's buffers belong to the grid's next call): every
 *    begin, restart included, stamps them from there.
 */
#include "astar.h"
#include "compat.h"
#include "lua_args.h"
#include "lua_grid.h"
#include "lua_query.h"
#include "lua_sliced.h"

#include <lauxlib.h>
#include <lua.h>
#include <limits.h>
#include <string.h>

/* ---- the object ---- */

lsliced *lqo_to(lua_State *L, int idx) {
  lsliced *s = (lsliced *)lua_touserdata(L, idx);
  if (s == NULL || !lua_getmetatable(L, idx)) return NULL;
  if (!lua_rawequal(L, -1, QUERY_MT_UPVALUE)) s = NULL;
  lua_pop(L, 1);
  return s;
}

/* The open query at argument 1, or a Lua error. */
static lsliced *check_query(lua_State *L, const char *fname) {
  char buf[64];
  lsliced *s = lqo_to(L, 1);
  if (s == NULL) {
    la_error(L, 1, fname, "query expected, got %s",
             la_describe(L, 1, buf, sizeof buf));
    return NULL; /* not reached: la_error raises */
  }
  if (s->closed) la_error(L, 1, fname, "the query is closed");
  return s;
}

void lqo_free_overlays(lsliced *s) {
  if (s->overlay == NULL || s->busy) return;
  (void)lg_alloc(s->grid, s->overlay, s->overlay_bytes, 0);
  s->overlay = NULL;
  s->overlay_bytes = 0;
  s->Q.q.avoid = NULL;
  s->Q.q.extra_tiles = NULL;
  s->Q.q.extra_costs = NULL;
  s->Q.q.navoid = s->Q.q.nextra = 0;
}

static void release(lsliced *s) {
  if (!s->borrowed) lg_give_context(s->grid, &s->own);
  lqo_free_overlays(s);
  s->ctx = NULL;
  s->state = LS_NEW;
}

/* Leaves a busy section: a close asked for meanwhile happens now. */
static void leave(lsliced *s) {
  if (--s->busy == 0 && s->closed) release(s);
}

void lqo_close(lua_State *L, int idx, lsliced *s) {
  if (s->closed) return;
  s->closed = 1;
  if (s->busy == 0) release(s);
  lqo_drop_values(L, idx);
}

void lqo_drop_values(lua_State *L, int idx) {
  /* the callbacks and tables are let go, the grid is kept: the memory of
   * a context lent to the grid's spares, or closed mid-step, is the
   * grid's */
  int obj = idx < 0 ? lua_gettop(L) + idx + 1 : idx;
  lua_createtable(L, 1, 0);
  compat_getuservalue(L, obj);
  lua_rawgeti(L, -1, LS_GRID);
  lua_rawseti(L, -3, LS_GRID);
  lua_pop(L, 1);
  compat_setuservalue(L, obj);
}

/* Reads the avoid and extra_cost lists (their tables on the stack: Q's
 * indices) as find_path does, into the grid's buffers, then copies them
 * into one block of the query's own and points Q.q at it.  The grid is
 * open (lg_core): no Lua code runs from the fill to the copy. */
static void own_overlays(lua_State *L, const char *fname, lsliced *s,
                         lgrid *ud) {
  astar_query *q = &s->Q.q;
  size_t na, ne, bytes;
  unsigned char *p;
  lq_overlay_fill(L, 6, fname, ud, q, s->Q.avoid, s->Q.extra);
  s->Q.avoid = s->Q.extra = 0; /* stack indices of this call only */
  na = q->navoid;
  ne = q->nextra;
  if (na == 0) q->avoid = NULL;
  if (ne == 0) {
    q->extra_tiles = NULL;
    q->extra_costs = NULL;
  }
  if (na == 0 && ne == 0) return;
  /* the three lists are in the grid's buffers now: their sum fits */
  bytes = ne * sizeof(double) + 2 * (na + ne) * sizeof(int32_t);
  p = (unsigned char *)lg_alloc(ud, NULL, 0, bytes);
  if (p == NULL) {
    la_raise(L, ASTAR_ENOMEM, fname);
    return; /* not reached: la_raise raises */
  }
  s->overlay = p;
  s->overlay_bytes = bytes;
  if (ne != 0) { /* the costs first: their alignment */
    memcpy(p, q->extra_costs, ne * sizeof(double));
    q->extra_costs = (const double *)(void *)p;
    p += ne * sizeof(double);
    memcpy(p, q->extra_tiles, 2 * ne * sizeof(int32_t));
    q->extra_tiles = (const int32_t *)(void *)p;
    p += 2 * ne * sizeof(int32_t);
  }
  if (na != 0) {
    memcpy(p, q->avoid, 2 * na * sizeof(int32_t));
    q->avoid = (const int32_t *)(void *)p;
  }
}

/* Values of the options kept in the user value, by slot. */
static void keep(lua_State *L, int uv, int slot, int idx) {
  if (idx == 0) return;
  lua_pushvalue(L, idx);
  lua_rawseti(L, uv, slot);
}

lsliced *lqo_push(lua_State *L, const char *fname, lgrid *ud, int grid,
                 int own) {
  lsliced *s = (lsliced *)compat_newuserdata(L, sizeof(lsliced));
  int obj = lua_gettop(L), uv;
  memset(s, 0, sizeof *s);
  s->closed = 1; /* until it has read its arguments */
  s->slot = -1;
  s->borrowed = !own;
  astar_search_init(&s->own, lg_alloc, ud);
  lua_pushvalue(L, QUERY_MT_UPVALUE);
  lua_setmetatable(L, obj);
  lua_createtable(L, LS_SLOTS + 4, 0);
  lua_pushvalue(L, grid);
  lua_rawseti(L, -2, LS_GRID);
  compat_setuservalue(L, obj);
  s->grid = ud;
  lq_read(L, fname, ud, grid, &s->Q, NULL);
  if (s->Q.avoid != 0 || s->Q.extra != 0) {
    /* reading the options ran Lua code: is the grid still open? */
    (void)lg_core(L, ud, fname);
    own_overlays(L, fname, s, ud);
  }
  compat_getuservalue(L, obj);
  uv = lua_gettop(L);
  keep(L, uv, LS_TILE, s->Q.tile);
  keep(L, uv, LS_MOVE, s->Q.move);
  keep(L, uv, LS_HFN, s->Q.hfn);
  keep(L, uv, LS_GOALS, s->Q.goals);
  keep(L, uv, LS_STATS, s->Q.stats);
  keep(L, uv, LS_EXPLORED, s->Q.explored);
  s->ctx = own ? &s->own : NULL;
  if (own) (void)lg_take_context(ud, &s->own);
  s->r.outcome = ASTAR_RUNNING;
  s->closed = 0;
  lua_settop(L, obj);
  return s;
}

/* ---- stepping ---- */

/* Points the callback bridge at the query's values, pushed from its user
 * value at idx. */
static void push_values(lua_State *L, int idx, lsliced *s) {
  lq_query *Q = &s->Q;
  int uv;
  compat_getuservalue(L, idx);
  uv = lua_gettop(L);
  if (Q->tile) {
    lua_rawgeti(L, uv, LS_TILE);
    Q->tile = lua_gettop(L);
  }
  if (Q->move) {
    lua_rawgeti(L, uv, LS_MOVE);
    Q->move = lua_gettop(L);
  }
  if (Q->hfn) {
    lua_rawgeti(L, uv, LS_HFN);
    Q->hfn = lua_gettop(L);
  }
  if (Q->stats) {
    lua_rawgeti(L, uv, LS_STATS);
    Q->stats = lua_gettop(L);
  }
  if (Q->explored) {
    lua_rawgeti(L, uv, LS_EXPLORED);
    Q->explored = lua_gettop(L);
  }
  Q->L = L;
  Q->failed = Q->bad = 0;
}

/* In protected mode, the query busy: the explored tiles into the table
 * at 1. */
static int read_explored(lua_State *L, void *p) {
  lq_explored_table(L, 1, ((lsliced *)p)->ctx);
  return 0;
}

int lqo_step(lua_State *L, int idx, lsliced *s, uint32_t budget,
            const char *fname) {
  lgrid *gud = s->grid;
  astar_grid *g = lg_core(L, gud, fname);
  int st, base = lua_gettop(L);
  if (s->busy) la_raise(L, ASTAR_EBUSY, fname);
  if (s->ctx == NULL)
    return luaL_error(L, "%s: the query has no search context", fname);
  if (s->state == LS_RUNNING && (g->version != s->ctx->map_version ||
                                 g->landmarks_serial != s->ctx->map_landmarks))
    s->state = LS_STALE; /* an edit, or landmarks it may read rebuilt */
  if (s->state == LS_DONE || s->state == LS_STALE) return s->state;
  luaL_checkstack(L, 24, fname);
  if (s->Q.tile || s->Q.move || s->Q.hfn || s->Q.stats || s->Q.explored)
    push_values(L, idx, s);
  s->Q.L = L;
  s->Q.failed = s->Q.bad = 0;
  if (s->state == LS_NEW) lq_check(L, fname, g, &s->Q);
  lg_enter(gud);
  s->busy++;
  if (s->state == LS_NEW) {
    st = astar_search_begin(s->ctx, g, &s->Q.q, &s->r);
    if (st == ASTAR_OK && s->r.outcome == ASTAR_RUNNING)
      st = astar_search_step(s->ctx, g, budget, &s->r);
  } else {
    st = astar_search_step(s->ctx, g, budget, &s->r);
  }
  if (st != ASTAR_OK) {
    s->state = LS_NEW;
    s->r.outcome = ASTAR_RUNNING;
    s->r.expanded = 0;
    leave(s);
    lg_leave(gud);
    lq_raise_failure(L, fname, &s->Q, st);
  }
  s->state = s->r.outcome == ASTAR_RUNNING ? LS_RUNNING : LS_DONE;
  if (s->state == LS_DONE && s->Q.explored != 0) {
    lg_pcall pc;
    lg_protect(L, &pc, read_explored, s);
    lua_pushvalue(L, s->Q.explored);
    st = lg_protected_call(L, 1, 0);
    leave(s);
    lg_leave(gud);
    if (st != 0) lua_error(L);
  } else {
    leave(s);
    lg_leave(gud);
  }
  /* the answer is safe: the stats table may do anything */
  if (s->state == LS_DONE && s->Q.stats != 0) lq_fill_stats(L, &s->Q, &s->r);
  lua_settop(L, base);
  lg_report(L, gud);
  return s->state;
}

void lqo_push_state(lua_State *L, const lsliced *s) {
  if (s->state == LS_STALE)
    lua_pushliteral(L, "stale");
  else if (s->state == LS_DONE)
    lua_pushstring(L, lq_outcome_names[s->r.outcome]);
  else
    lua_pushliteral(L, "running");
}

/* ---- reading a path out ---- */

typedef struct trail_read {
  lsliced *s;
  astar_trail t;
  uint32_t length;
  int corners; /* walk corner by corner (a running search's partial path
                  with the path = "corners" option) */
} trail_read;

/* In protected mode, the query busy: the path into the table at 1 (or a
 * new one), walked from its end back to the start. */
static int read_trail(lua_State *L, void *p) {
  trail_read *T = (trail_read *)p;
  const astar_search *c = T->s->ctx;
  uint32_t stride = (uint32_t)c->stride;
  lua_Integer i, len = 2 * (lua_Integer)T->length;
  if (len > INT_MAX - 2) luaL_error(L, "path too long for a table");
  if (lua_istable(L, 1))
    lua_pushvalue(L, 1);
  else
    lua_createtable(L, (int)len, 0);
  i = len;
  do {
    uint32_t node = T->t.node;
    if (i < 2) break; /* never: the walk has length tiles */
    lua_pushinteger(L, (lua_Integer)(node % stride));
    lua_rawseti(L, -2, (int)(i - 1));
    lua_pushinteger(L, (lua_Integer)(node / stride));
    lua_rawseti(L, -2, (int)i);
    i -= 2;
  } while (T->corners ? astar_trail_corner_prev(c, &T->t)
                      : astar_trail_prev(c, &T->t));
  if (lua_istable(L, 1)) lq_clear_from(L, lua_gettop(L), len);
  return 1;
}

int lqo_push_path(lua_State *L, lsliced *s, int partial, int out) {
  trail_read T;
  astar_result r;
  lg_pcall pc;
  int st;
  if (s->ctx == NULL || s->state == LS_NEW) return 0;
  if (!partial && !(s->state == LS_DONE &&
                    (s->r.outcome == ASTAR_FOUND || s->r.partial)))
    return 0;
  if (!astar_search_partial(s->ctx, &T.t, &r)) return 0;
  T.s = s;
  T.length = r.length;
  T.corners = 0;
  if (r.corners != 0) { /* the core's walk gives the corners */
    T.length = r.corners;
  } else if (s->Q.q.corners) { /* a partial path: count its corners */
    astar_trail w = T.t;
    T.corners = 1;
    T.length = 1;
    while (astar_trail_corner_prev(s->ctx, &w)) T.length++;
  }
  s->busy++;
  lg_protect(L, &pc, read_trail, &T);
  if (out != 0)
    lua_pushvalue(L, out);
  else
    lua_pushnil(L);
  st = lg_protected_call(L, 1, 1);
  leave(s);
  if (st != 0) lua_error(L);
  lua_pushnumber(L, (lua_Number)r.cost);
  return 2;
}

/* ---- methods ---- */

/* grid:query(sx, sy, gx, gy [, options]) -> query */
static int g_query(lua_State *L) {
  lgrid *ud = lg_check(L, "query");
  lsliced *s;
  lua_settop(L, 6);
  s = lqo_push(L, "query", ud, 1, 1);
  /* an algorithm that refuses the options says so now, not at a step */
  lq_check(L, "query", lg_core(L, ud, "query"), &s->Q);
  lg_report(L, ud); /* its overlays' memory (may run finalizers: last) */
  return 1;
}

/* max_nodes at arg: a positive integer, or nil for no limit */
static uint32_t budget_arg(lua_State *L, int arg, const char *fname,
                           const char *name) {
  char buf[64];
  double v;
  if (lua_isnoneornil(L, arg)) return UINT32_MAX;
  v = lua_type(L, arg) == LUA_TNUMBER ? (double)lua_tonumber(L, arg) : -1.0;
  if (!(v >= 1.0 && v <= 4294967295.0 && v == (double)(uint32_t)v))
    la_error(L, arg, fname, "%s must be a positive integer, got %s", name,
             la_describe(L, arg, buf, sizeof buf));
  return (uint32_t)v;
}

/* q:step([max_nodes]) -> state */
static int q_step(lua_State *L) {
  lsliced *s = check_query(L, "step");
  uint32_t budget = budget_arg(L, 2, "step", "max_nodes");
  lua_settop(L, 1);
  lqo_step(L, 1, s, budget, "step");
  lqo_push_state(L, s);
  return 1;
}

/* An out table at arg (nil or a table); returns its index or 0. */
static int out_arg(lua_State *L, int arg, const char *fname) {
  char buf[64];
  int t = lua_type(L, arg);
  if (t == LUA_TNONE || t == LUA_TNIL) return 0;
  if (t != LUA_TTABLE)
    la_error(L, arg, fname, "out must be a table, got %s",
             la_describe(L, arg, buf, sizeof buf));
  return arg;
}

/* q:result([out]) -> path, cost, expanded [, reason] | nil, state,
 * expanded (as find_path; "running" or "stale" before it ends) */
static int q_result(lua_State *L) {
  lsliced *s = check_query(L, "result");
  int out = out_arg(L, 2, "result");
  lua_settop(L, 2);
  if (lqo_push_path(L, s, 0, out)) {
    lua_pushinteger(L, (lua_Integer)s->r.expanded);
    if (!s->r.partial) return 3;
    lua_pushstring(L, lq_outcome_names[s->r.outcome]);
    return 4;
  }
  lua_pushnil(L);
  lqo_push_state(L, s);
  lua_pushinteger(L, (lua_Integer)s->r.expanded);
  return 3;
}

/* q:partial([out]) -> path, cost | nil, state */
static int q_partial(lua_State *L) {
  lsliced *s = check_query(L, "partial");
  int out = out_arg(L, 2, "partial");
  lua_settop(L, 2);
  if (lqo_push_path(L, s, 1, out)) return 2;
  lua_pushnil(L);
  lqo_push_state(L, s);
  return 2;
}

static int q_expanded(lua_State *L) {
  lsliced *s = check_query(L, "expanded");
  lua_pushinteger(L, (lua_Integer)(s->state == LS_NEW ? 0 : s->r.expanded));
  return 1;
}

static int q_state(lua_State *L) {
  lsliced *s = check_query(L, "state");
  lqo_push_state(L, s);
  return 1;
}

/* q:restart(): back to the start, to begin again (on the grid as it is
 * now) at the next step */
static int q_restart(lua_State *L) {
  lsliced *s = check_query(L, "restart");
  if (s->busy) la_raise(L, ASTAR_EBUSY, "restart");
  s->state = LS_NEW;
  s->r.outcome = ASTAR_RUNNING;
  s->r.expanded = 0;
  return 0;
}

static int q_close(lua_State *L) {
  char buf[64];
  lsliced *s = lqo_to(L, 1);
  if (s == NULL)
    return la_error(L, 1, "close", "query expected, got %s",
                    la_describe(L, 1, buf, sizeof buf));
  if (s->borrowed && !s->closed)
    return la_error(L, 1, "close", "the query belongs to a pathfinder "
                    "(cancel it there)");
  lqo_close(L, 1, s);
  return 0;
}

static int q_is_closed(lua_State *L) {
  char buf[64];
  lsliced *s = lqo_to(L, 1);
  if (s == NULL)
    return la_error(L, 1, "is_closed", "query expected, got %s",
                    la_describe(L, 1, buf, sizeof buf));
  lua_pushboolean(L, s->closed);
  return 1;
}

/* __gc and __close: never an error; a pool's query is the pool's */
static int q_gc(lua_State *L) {
  lsliced *s = lqo_to(L, 1);
  if (s != NULL && !s->closed) {
    s->closed = 1;
    if (s->busy == 0) release(s);
  }
  /* a pool's request the pool let go of, or one half-made */
  if (s != NULL && s->grid != NULL) lqo_free_overlays(s);
  return 0;
}

static int q_tostring(lua_State *L) {
  lsliced *s = lqo_to(L, 1);
  if (s == NULL || s->closed) {
    lua_pushliteral(L, "astar.Query (closed)");
    return 1;
  }
  lua_pushliteral(L, "astar.Query (");
  lqo_push_state(L, s);
  lua_pushliteral(L, ")");
  lua_concat(L, 3);
  return 1;
}

const luaL_Reg lqo_query_methods[] = {
    {"step", q_step},
    {"result", q_result},
    {"partial", q_partial},
    {"expanded", q_expanded},
    {"state", q_state},
    {"restart", q_restart},
    {"close", q_close},
    {"is_closed", q_is_closed},
    {NULL, NULL}};

const luaL_Reg lqo_query_meta[] = {
    {"__gc", q_gc},
    {"__tostring", q_tostring},
#if LUA_VERSION_NUM >= 504
    {"__close", q_gc},
#endif
    {NULL, NULL}};

const luaL_Reg lqo_grid_methods[] = {
    {"query", g_query},
    {NULL, NULL}};

/*
 * The pathfinder pool: astar.pathfinder(grid [, {searches, max_pending,
 * slice}]) queues requests (pf:request) and runs them in slices on a few
 * search contexts of its own (pf:update with a budget of expansions or of
 * seconds), round-robin over up to `searches` searches at once; finished
 * requests wait in pf:done() in the order they finished.
 *
 * A request is a query object (lua_sliced.c) read exactly as find_path
 * reads its query, with no context of its own: the pool lends it a slot's
 * context while it runs, and reads its path out (into the request's `out`
 * table, or a new one) the moment it finishes, so the slot can serve the
 * next one.  The pool holds its requests in its user value (id ->
 * query), with their tags (tag -> id); the lists (queue, slots, done) are
 * C links between the queries, which the user value keeps alive.
 *
 * Determinism: with {nodes = N} an update makes the same turns in the same
 * order on every runtime (no clock is read to decide anything), so the
 * order and content of done() are the same everywhere.  The clock (for
 * {seconds = s} and the stats) is monotonic (la_now: clock_gettime on
 * POSIX, QueryPerformanceCounter on Windows).
 */
#include "astar.h"
#include "compat.h"
#include "lua_args.h"
#include "lua_grid.h"
#include "lua_query.h"
#include "lua_sliced.h"

#include <lauxlib.h>
#include <lua.h>
#include <math.h>
#include <string.h>

#define DEFAULT_SEARCHES 4
#define MAX_SEARCHES 64
#define DEFAULT_PENDING 256
#define DEFAULT_SLICE 128
/* a request's own slots in its user value, after the query's */
enum { REQ_OUT = LS_SLOTS + 1, REQ_TAG, REQ_PATH };
/* the pool's user value */
enum { PF_GRID = 1, PF_SLOTS, PF_REQS, PF_TAGS, PF_NEXT };

typedef struct list {
  lsliced *head, *tail;
  size_t n;
} list;

typedef struct lpool {
  lgrid *grid;
  astar_search *ctx;  /* nslots contexts (a userdata in the user value) */
  lsliced **running;  /* the request each slot serves, or NULL */
  int nslots;
  int turn;           /* the slot whose turn is next */
  size_t nrunning, max_pending;
  uint32_t slice;
  list queue, done;
  double next_id;
  int busy, closed;
  /* stats */
  double last_nodes, last_seconds, worst_seconds, restarts, requests,
      finished;
} lpool;

/* ---- lists ---- */

static void push_back(list *l, lsliced *s) {
  s->next = NULL;
  s->prev = l->tail;
  if (l->tail != NULL)
    l->tail->next = s;
  else
    l->head = s;
  l->tail = s;
  l->n++;
}

static void list_unlink(list *l, lsliced *s) {
  if (s->prev != NULL)
    s->prev->next = s->next;
  else
    l->head = s->next;
  if (s->next != NULL)
    s->next->prev = s->prev;
  else
    l->tail = s->prev;
  s->next = s->prev = NULL;
  l->n--;
}

/* ---- the pool object ---- */

static lpool *to_pool(lua_State *L, int idx) {
  lpool *p = (lpool *)lua_touserdata(L, idx);
  if (p == NULL || !lua_getmetatable(L, idx)) return NULL;
  if (!lua_rawequal(L, -1, POOL_MT_UPVALUE)) p = NULL;
  lua_pop(L, 1);
  return p;
}

/* The open pool at argument 1 (idle unless any), or a Lua error. */
static lpool *check_pool(lua_State *L, const char *fname, int any) {
  char buf[64];
  lpool *p = to_pool(L, 1);
  if (p == NULL) {
    la_error(L, 1, fname, "pathfinder expected, got %s",
             la_describe(L, 1, buf, sizeof buf));
    return NULL; /* not reached: la_error raises */
  }
  if (p->closed) la_error(L, 1, fname, "the pathfinder is closed");
  if (p->busy && !any) la_raise(L, ASTAR_EBUSY, fname);
  return p;
}

/* Pushes field k of the user value of the object at idx. */
static void uv_get(lua_State *L, int idx, int k) {
  compat_getuservalue(L, idx);
  lua_rawgeti(L, -1, k);
  lua_remove(L, -2);
}

/* Pushes the query of request id (nil when none). */
static void push_request(lua_State *L, int pool, double id) {
  uv_get(L, pool, PF_REQS);
  lua_pushinteger(L, (lua_Integer)id);
  lua_rawget(L, -2);
  lua_remove(L, -2);
}

/* Forgets the request s (at idx): out of the pool's tables, its slot
 * freed, its values let go. */
static void forget(lua_State *L, int pool, lpool *p, int idx, lsliced *s) {
  int uv;
  if (s->slot >= 0) {
    p->running[s->slot] = NULL;
    p->nrunning--;
    s->slot = -1;
  }
  s->ctx = NULL;
  s->where = LS_NOWHERE;
  compat_getuservalue(L, pool);
  uv = lua_gettop(L);
  lua_rawgeti(L, uv, PF_TAGS);
  uv_get(L, idx, REQ_TAG);
  if (!lua_isnil(L, -1)) { /* the tag, if it still names this request */
    lua_pushvalue(L, -1);
    lua_rawget(L, -3);
    if (lua_type(L, -1) == LUA_TNUMBER && lua_tonumber(L, -1) == s->id) {
      lua_pop(L, 1);
      lua_pushnil(L);
      lua_rawset(L, -3);
    } else {
      lua_pop(L, 2);
    }
  } else {
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  lua_rawgeti(L, uv, PF_REQS);
  lua_pushnumber(L, (lua_Number)s->id);
  lua_pushnil(L);
  lua_rawset(L, -3);
  lua_pop(L, 2);
  s->closed = 1;
  lqo_free_overlays(s);
  lqo_drop_values(L, idx);
}

static void release(lpool *p) {
  int i;
  for (i = 0; i < p->nslots; i++) {
    if (p->running[i] != NULL) {
      p->running[i]->ctx = NULL;
      p->running[i]->slot = -1;
      p->running[i] = NULL;
    }
    astar_search_release(&p->ctx[i]);
  }
  p->nrunning = 0;
  p->queue.head = p->queue.tail = p->done.head = p->done.tail = NULL;
  p->queue.n = p->done.n = 0;
}

/* close, __gc, __close: the contexts go now (or when update leaves) */
static void close_pool(lua_State *L, int idx, lpool *p) {
  if (p->closed) return;
  p->closed = 1;
  if (p->busy) return;
  release(p);
  (void)L;
  (void)idx;
}

static int done_next(lua_State *L);

/* astar.pathfinder(grid [, {searches = 4, max_pending = 256,
 * slice = 128}]) -> pathfinder */
static const char *const pool_keys[] = {"searches", "max_pending", "slice",
                                        NULL};

static int l_pathfinder(lua_State *L) {
  char buf[64];
  lgrid *g = lg_to_grid(L, 1);
  lpool *p;
  double searches = DEFAULT_SEARCHES, pending = DEFAULT_PENDING,
         slice = DEFAULT_SLICE;
  astar_search *ctx;
  int i, obj;
  if (g == NULL)
    la_error(L, 1, "pathfinder", "grid expected, got %s",
             la_describe(L, 1, buf, sizeof buf));
  lua_settop(L, 2);
  if (la_options(L, 2, "pathfinder", pool_keys)) {
    searches = la_number(L, 2, "pathfinder", "searches", 1, MAX_SEARCHES,
                         "an integer in [1, 64]", DEFAULT_SEARCHES);
    if (searches != floor(searches))
      la_error(L, 2, "pathfinder", "searches must be an integer in [1, 64], "
               "got %.14g", searches);
    pending = la_number(L, 2, "pathfinder", "max_pending", 1, 1e9,
                        "an integer in [1, 1e+09]", DEFAULT_PENDING);
    if (pending != floor(pending))
      la_error(L, 2, "pathfinder", "max_pending must be an integer in [1, "
               "1e+09], got %.14g", pending);
    slice = la_number(L, 2, "pathfinder", "slice", 1, 1e9,
                      "an integer in [1, 1e+09]", DEFAULT_SLICE);
    if (slice != floor(slice))
      la_error(L, 2, "pathfinder", "slice must be an integer in [1, 1e+09], "
               "got %.14g", slice);
  }
  (void)lg_core(L, g, "pathfinder");
  p = (lpool *)compat_newuserdata(L, sizeof(lpool));
  obj = lua_gettop(L);
  memset(p, 0, sizeof *p);
  p->closed = 1; /* until it has its slots */
  lua_pushvalue(L, POOL_MT_UPVALUE);
  lua_setmetatable(L, obj);
  lua_createtable(L, PF_NEXT, 0);
  lua_pushvalue(L, 1);
  lua_rawseti(L, -2, PF_GRID);
  ctx = (astar_search *)compat_newuserdata(
      L, (size_t)searches * (sizeof(astar_search) + sizeof(lsliced *)));
  lua_rawseti(L, -2, PF_SLOTS);
  lua_newtable(L);
  lua_rawseti(L, -2, PF_REQS);
  lua_newtable(L);
  lua_rawseti(L, -2, PF_TAGS);
  /* the done() iterator, made once */
  lua_pushvalue(L, GRID_MT_UPVALUE);
  lua_pushvalue(L, PROTECT_UPVALUE);
  lua_pushvalue(L, QUERY_MT_UPVALUE);
  lua_pushvalue(L, POOL_MT_UPVALUE);
  lua_pushcclosure(L, done_next, 4);
  lua_rawseti(L, -2, PF_NEXT);
  compat_setuservalue(L, obj);
  p->grid = g;
  p->ctx = ctx;
  p->running = (lsliced **)(void *)(ctx + (size_t)searches);
  p->nslots = (int)searches;
  for (i = 0; i < p->nslots; i++) {
    astar_search_init(&ctx[i], lg_alloc, g);
    p->running[i] = NULL;
  }
  p->max_pending = (size_t)pending;
  p->slice = (uint32_t)slice;
  p->next_id = 1;
  p->closed = 0;
  return 1;
}

/* pf:request(sx, sy, gx, gy [, options [, tag [, out]]]) -> id
 *   | nil, "full" */
static int pf_request(lua_State *L) {
  char buf[64];
  lpool *p = check_pool(L, "request", 0);
  lsliced *s, *old = NULL;
  int t, q, uv;
  (void)old;
  double id;
  lua_settop(L, 8);
  t = lua_type(L, 8);
  if (t != LUA_TNIL && t != LUA_TTABLE)
    la_error(L, 8, "request", "out must be a table, got %s",
             la_describe(L, 8, buf, sizeof buf));
  if (lua_type(L, 7) == LUA_TNUMBER && lua_tonumber(L, 7) != lua_tonumber(L, 7))
    la_error(L, 7, "request", "tag must not be NaN");
  uv_get(L, 1, PF_GRID); /* 9: the grid */
  (void)lg_core(L, p->grid, "request");
  lqo_push(L, "request", p->grid, 9, 0); /* 10 */
  q = 10;
  s = lqo_to(L, q);
  /* an algorithm that refuses the options says so now, not in update */
  lq_check(L, "request", lg_core(L, p->grid, "request"), &s->Q);
  /* reading the options ran Lua code: is the pool still there? */
  if (p->closed) la_error(L, 1, "request", "the pathfinder is closed");
  if (p->busy) la_raise(L, ASTAR_EBUSY, "request");
  lua_pushnil(L); /* 11: a pending request of the same tag */
  if (!lua_isnil(L, 7)) {
    uv_get(L, 1, PF_TAGS);
    lua_pushvalue(L, 7);
    lua_rawget(L, -2);
    if (lua_type(L, -1) == LUA_TNUMBER) {
      push_request(L, 1, (double)lua_tonumber(L, -1));
      lua_replace(L, 11);
      old = lqo_to(L, 11);
      if (old != NULL && old->where != LS_QUEUED && old->where != LS_IN_SLOT)
        old = NULL; /* finished: it stays in done() */
    }
    lua_settop(L, 11);
  }
  if (old != NULL) { /* it goes, the new one takes its place */
    if (old->where == LS_QUEUED) list_unlink(&p->queue, old);
    forget(L, 1, p, 11, old);
  } else if (p->queue.n + p->nrunning >= p->max_pending) {
    s->closed = 1;
    lqo_free_overlays(s);
    lua_pushnil(L);
    lua_pushliteral(L, "full");
    return 2;
  }
  id = p->next_id++;
  s->id = id;
  compat_getuservalue(L, q);
  uv = lua_gettop(L);
  lua_pushvalue(L, 8);
  lua_rawseti(L, uv, REQ_OUT);
  lua_pushvalue(L, 7);
  lua_rawseti(L, uv, REQ_TAG);
  lua_pop(L, 1);
  uv_get(L, 1, PF_REQS);
  lua_pushinteger(L, (lua_Integer)id);
  lua_pushvalue(L, q);
  lua_rawset(L, -3);
  lua_pop(L, 1);
  if (!lua_isnil(L, 7)) {
    uv_get(L, 1, PF_TAGS);
    lua_pushvalue(L, 7);
    lua_pushinteger(L, (lua_Integer)id);
    lua_rawset(L, -3);
    lua_pop(L, 1);
  }
  push_back(&p->queue, s);
  s->where = LS_QUEUED;
  p->requests++;
  lg_report(L, p->grid); /* its overlays' memory (may run finalizers) */
  lua_pushinteger(L, (lua_Integer)id);
  return 1;
}

/* ---- update ---- */

/* Gives free slots to the queue's first requests. */
static void fill_slots(lpool *p) {
  int i;
  for (i = 0; i < p->nslots && p->queue.head != NULL; i++) {
    lsliced *s;
    if (p->running[i] != NULL) continue;
    s = p->queue.head;
    list_unlink(&p->queue, s);
    s->slot = i;
    s->ctx = &p->ctx[i];
    s->state = LS_NEW;
    s->where = LS_IN_SLOT;
    p->running[i] = s;
    p->nrunning++;
  }
}

typedef struct turn_args {
  lpool *p;
  lsliced *s;
  uint32_t budget;
} turn_args;

/* In protected mode, the query at 1: one turn (a step) of request s. */
static int turn(lua_State *L, void *ud) {
  turn_args *T = (turn_args *)ud;
  lqo_step(L, 1, T->s, T->budget, "update");
  return 0;
}

/* In protected mode, the query at 1: its path read out. */
static int read_out(lua_State *L, void *ud) {
  lsliced *s = (lsliced *)ud;
  int out, n;
  uv_get(L, 1, REQ_OUT);
  out = lua_istable(L, -1) ? lua_gettop(L) : 0;
  n = lqo_push_path(L, s, 0, out);
  if (n == 0) return 0;
  lua_pop(L, 1);
  compat_getuservalue(L, 1);
  lua_insert(L, -2);
  lua_rawseti(L, -2, REQ_PATH);
  return 0;
}

static int budget_error(lua_State *L) {
  char buf[64];
  return la_error(L, 2, "update", "budget must be a table {nodes = N} or "
                  "{seconds = s}, got %s", la_describe(L, 2, buf, sizeof buf));
}

static const char *const budget_keys[] = {"nodes", "seconds", NULL};

typedef struct update_args {
  lpool *p;
  double nodes, seconds, t0, spent;
} update_args;

/* In protected mode, the pool at 1: the turns of one update.  Any error
 * (a request's, or memory) reaches pf_update, which puts the pool back
 * to idle before raising it. */
static int update_loop(lua_State *L, void *ud) {
  update_args *U = (update_args *)ud;
  lpool *p = U->p;
  int sweep = 0;
  fill_slots(p);
  while (p->nrunning > 0 && U->spent < U->nodes && !p->closed) {
    lsliced *s;
    turn_args T;
    lg_pcall pc;
    uint32_t before;
    int slot = p->turn % p->nslots, st;
    p->turn = (slot + 1) % p->nslots;
    s = p->running[slot];
    if (s == NULL) continue;
    before = s->state == LS_NEW ? 0 : s->r.expanded;
    T.p = p;
    T.s = s;
    T.budget = p->slice;
    if (U->nodes - U->spent < (double)T.budget)
      T.budget = (uint32_t)(U->nodes - U->spent);
    lg_protect(L, &pc, turn, &T);
    push_request(L, 1, s->id);
    st = lg_protected_call(L, 1, 0);
    if (st != 0) { /* the request goes; its error is raised */
      push_request(L, 1, s->id);
      forget(L, 1, p, lua_gettop(L), s);
      lua_pop(L, 1);
      return lua_error(L);
    }
    if (s->state == LS_STALE) { /* the grid changed: begin again */
      s->state = LS_NEW;
      p->restarts++;
      if (++sweep > 4 * p->nslots) break; /* edits faster than turns */
      continue;
    }
    sweep = 0;
    U->spent += (double)(s->r.expanded - before);
    if (s->state == LS_DONE) {
      push_request(L, 1, s->id);
      lg_protect(L, &pc, read_out, s);
      lua_pushvalue(L, -3);
      st = lg_protected_call(L, 1, 0);
      p->running[slot] = NULL;
      p->nrunning--;
      s->slot = -1;
      s->ctx = NULL;
      push_back(&p->done, s);
      s->where = LS_FINISHED;
      p->finished++;
      if (st != 0) return lua_error(L);
      lua_pop(L, 1);
      fill_slots(p);
    }
    if (U->seconds != HUGE_VAL && la_now() - U->t0 >= U->seconds) break;
  }
  return 0;
}

/* pf:update(budget) -> expansions made */
static int pf_update(lua_State *L) {
  lpool *p = check_pool(L, "update", 0);
  update_args U;
  lg_pcall pc;
  int st;
  if (lua_type(L, 2) != LUA_TTABLE) budget_error(L);
  lua_settop(L, 2);
  la_options(L, 2, "update", budget_keys);
  U.nodes = la_number(L, 2, "update", "nodes", 1, 1e15,
                      "a positive integer", HUGE_VAL);
  if (U.nodes != HUGE_VAL && U.nodes != floor(U.nodes))
    la_error(L, 2, "update", "nodes must be a positive integer, got %.14g",
             U.nodes);
  U.seconds = la_number(L, 2, "update", "seconds", 1e-300, 1e9,
                        "a positive number", HUGE_VAL);
  if (U.nodes == HUGE_VAL && U.seconds == HUGE_VAL) budget_error(L);
  if (p->closed) la_error(L, 1, "update", "the pathfinder is closed");
  (void)lg_core(L, p->grid, "update");
  luaL_checkstack(L, 24, "update");
  U.p = p;
  U.spent = 0;
  U.t0 = la_now();
  p->busy = 1;
  lg_protect(L, &pc, update_loop, &U);
  lua_pushvalue(L, 1);
  st = lg_protected_call(L, 1, 0);
  p->busy = 0;
  p->last_nodes = U.spent;
  p->last_seconds = la_now() - U.t0;
  if (p->last_seconds > p->worst_seconds) p->worst_seconds = p->last_seconds;
  if (p->closed) { /* closed by Lua code run meanwhile */
    p->closed = 0;
    close_pool(L, 1, p);
  }
  if (st != 0) return lua_error(L);
  lg_report(L, p->grid);
  lua_pushinteger(L, (lua_Integer)U.spent);
  return 1;
}

/* ---- done, cancel, pending, stats ---- */

/* The iterator of pf:done(): id, status, path, cost, tag of the first
 * finished request, which the pool then forgets. */
static int done_next(lua_State *L) {
  lpool *p = check_pool(L, "done", 0);
  lsliced *s = p->done.head;
  int q, have;
  if (s == NULL) return 0;
  list_unlink(&p->done, s);
  s->where = LS_NOWHERE;
  lua_settop(L, 1);
  push_request(L, 1, s->id); /* 2 */
  q = 2;
  lua_pushinteger(L, (lua_Integer)s->id);
  lua_pushstring(L, lq_outcome_names[s->r.outcome]);
  uv_get(L, q, REQ_PATH);
  have = !lua_isnil(L, -1);
  if (have)
    lua_pushnumber(L, (lua_Number)s->r.cost);
  else
    lua_pushnil(L);
  uv_get(L, q, REQ_TAG);
  forget(L, 1, p, q, s);
  return 5;
}

/* pf:done() -> iterator (for id, status, path, cost, tag in pf:done()) */
static int pf_done(lua_State *L) {
  check_pool(L, "done", 0);
  uv_get(L, 1, PF_NEXT);
  lua_pushvalue(L, 1);
  return 2;
}

/* pf:cancel(id) -> true when the request was there */
static int pf_cancel(lua_State *L) {
  lpool *p = check_pool(L, "cancel", 0);
  lsliced *s;
  lua_settop(L, 2);
  if (lua_type(L, 2) != LUA_TNUMBER) {
    char buf[64];
    la_error(L, 2, "cancel", "id must be a number, got %s",
             la_describe(L, 2, buf, sizeof buf));
  }
  push_request(L, 1, (double)lua_tonumber(L, 2));
  s = lqo_to(L, 3);
  if (s == NULL) {
    lua_pushboolean(L, 0);
    return 1;
  }
  if (s->where == LS_FINISHED) list_unlink(&p->done, s);
  if (s->where == LS_QUEUED) list_unlink(&p->queue, s);
  forget(L, 1, p, 3, s);
  lua_pushboolean(L, 1);
  return 1;
}

/* pf:partial(id [, out]) -> path, cost | nil, status: the best path so
 * far of a running request (the closest rule), so a unit can start
 * walking; "pending" for a request still queued, its status for one that
 * finished (its path comes from done()), nil, "unknown" for no such id. */
static int pf_partial(lua_State *L) {
  char buf[64];
  (void)check_pool(L, "partial", 0);
  lsliced *s;
  int out = 0, t;
  lua_settop(L, 3);
  t = lua_type(L, 3);
  if (lua_type(L, 2) != LUA_TNUMBER)
    la_error(L, 2, "partial", "id must be a number, got %s",
             la_describe(L, 2, buf, sizeof buf));
  if (t != LUA_TNONE && t != LUA_TNIL && t != LUA_TTABLE)
    la_error(L, 3, "partial", "out must be a table, got %s",
             la_describe(L, 3, buf, sizeof buf));
  if (t == LUA_TTABLE) out = 3;
  push_request(L, 1, (double)lua_tonumber(L, 2));
  s = lqo_to(L, 4);
  lua_pushnil(L);
  if (s == NULL) {
    lua_pushliteral(L, "unknown");
  } else if (s->where == LS_QUEUED || (s->where == LS_IN_SLOT &&
                                       s->state == LS_NEW)) {
    lua_pushliteral(L, "pending");
  } else if (s->where == LS_IN_SLOT) {
    lua_pop(L, 1);
    if (lqo_push_path(L, s, 1, out)) return 2;
    lua_pushnil(L);
    lua_pushliteral(L, "running");
  } else {
    lqo_push_state(L, s);
  }
  return 2;
}

/* pf:pending() -> requests not finished yet (queued and running) */
static int pf_pending(lua_State *L) {
  lpool *p = check_pool(L, "pending", 1);
  lua_pushinteger(L, (lua_Integer)p->queue.n + (lua_Integer)p->nrunning);
  return 1;
}

static void set_num(lua_State *L, const char *k, double v) {
  lua_pushnumber(L, (lua_Number)v);
  lua_setfield(L, -2, k);
}

static void set_count(lua_State *L, const char *k, double v) {
  lua_pushinteger(L, (lua_Integer)v);
  lua_setfield(L, -2, k);
}

/* pf:stats([t]) -> t */
static int pf_stats(lua_State *L) {
  lpool *p = check_pool(L, "stats", 1);
  size_t queued = p->queue.n, running = p->nrunning, done = p->done.n;
  double v[6];
  int t = lua_type(L, 2);
  v[0] = p->last_nodes;
  v[1] = p->last_seconds;
  v[2] = p->worst_seconds;
  v[3] = p->restarts;
  v[4] = p->requests;
  v[5] = p->finished;
  if (t != LUA_TNONE && t != LUA_TNIL && t != LUA_TTABLE) {
    char buf[64];
    la_error(L, 2, "stats", "t must be a table, got %s",
             la_describe(L, 2, buf, sizeof buf));
  }
  if (t == LUA_TTABLE)
    lua_settop(L, 2);
  else
    lua_createtable(L, 0, 9);
  /* read before: the table's metamethods may do anything */
  set_count(L, "pending", (double)queued);
  set_count(L, "running", (double)running);
  set_count(L, "done", (double)done);
  set_count(L, "expansions", v[0]);
  set_num(L, "seconds", v[1]);
  set_num(L, "worst", v[2]);
  set_count(L, "restarts", v[3]);
  set_count(L, "requests", v[4]);
  set_count(L, "finished", v[5]);
  return 1;
}

static int pf_close(lua_State *L) {
  char buf[64];
  lpool *p = to_pool(L, 1);
  if (p == NULL)
    return la_error(L, 1, "close", "pathfinder expected, got %s",
                    la_describe(L, 1, buf, sizeof buf));
  close_pool(L, 1, p);
  return 0;
}

static int pf_is_closed(lua_State *L) {
  char buf[64];
  lpool *p = to_pool(L, 1);
  if (p == NULL)
    return la_error(L, 1, "is_closed", "pathfinder expected, got %s",
                    la_describe(L, 1, buf, sizeof buf));
  lua_pushboolean(L, p->closed);
  return 1;
}

static int pf_gc(lua_State *L) {
  lpool *p = to_pool(L, 1);
  if (p != NULL) close_pool(L, 1, p);
  return 0;
}

static int pf_tostring(lua_State *L) {
  lpool *p = to_pool(L, 1);
  if (p == NULL || p->closed)
    lua_pushliteral(L, "astar.Pathfinder (closed)");
  else
    lua_pushfstring(L, "astar.Pathfinder (%d pending)",
                    (int)(p->queue.n + p->nrunning));
  return 1;
}

const luaL_Reg lpf_pool_methods[] = {
    {"request", pf_request},
    {"update", pf_update},
    {"done", pf_done},
    {"cancel", pf_cancel},
    {"partial", pf_partial},
    {"pending", pf_pending},
    {"stats", pf_stats},
    {"close", pf_close},
    {"is_closed", pf_is_closed},
    {NULL, NULL}};

const luaL_Reg lpf_pool_meta[] = {
    {"__gc", pf_gc},
    {"__tostring", pf_tostring},
#if LUA_VERSION_NUM >= 504
    {"__close", pf_gc},
#endif
    {NULL, NULL}};

const luaL_Reg lpf_module_functions[] = {
    {"pathfinder", l_pathfinder},
    {NULL, NULL}};
const char *const *const lpf_pool_keys = pool_keys;
const char *const *const lpf_budget_keys = budget_keys;

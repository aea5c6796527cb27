/*
 * The Grid type: its lifecycle (close, __gc, __close, the busy guard and
 * the state's anchor), tiles, movement, bulk loads from tables and text,
 * memory and the edit counter.
 *
 * Grid memory comes from the Lua state's own allocator and is freed by
 * close / __gc / __close (one function, safe to call twice); every grid is
 * created in an empty state before anything is acquired, so __gc is always
 * safe.  See lua_grid.h for the rules that keep a grid alive while one of
 * its methods runs Lua code.
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

#define ANCHOR_KEY "astar.State"
/* growth below this is not worth a collector step */
#define REPORT_STEP ((size_t)64 * 1024)
/* no full collection for the grids' sake below this much memory */
#define MIN_ESTIMATE ((size_t)1024 * 1024)

/* ---- the grid at argument 1 ---- */

lgrid *lg_to_grid(lua_State *L, int idx) {
  lgrid *ud = (lgrid *)lua_touserdata(L, idx);
  if (ud == NULL || !lua_getmetatable(L, idx)) return NULL;
  if (!lua_rawequal(L, -1, GRID_MT_UPVALUE)) ud = NULL;
  lua_pop(L, 1);
  return ud;
}

lgrid *lg_check(lua_State *L, const char *fname) {
  char buf[64];
  lgrid *ud = lg_to_grid(L, 1);
  if (ud == NULL) {
    la_error(L, 1, fname, "grid expected, got %s",
             la_describe(L, 1, buf, sizeof buf));
    return NULL; /* not reached: la_error raises */
  }
  (void)lg_core(L, ud, fname);
  return ud;
}

astar_grid *lg_core(lua_State *L, lgrid *ud, const char *fname) {
  if (ud->closed) luaL_error(L, "%s: the grid is closed", fname);
  if (ud->busy) la_raise(L, ASTAR_EBUSY, fname);
  return &ud->g;
}

void lg_prepare(lua_State *L, astar_grid *g, int unit, unsigned what,
                const char *fname) {
  int st = astar_grid_prepare(g, unit, what);
  if (st != ASTAR_OK) la_raise(L, st, fname);
}

/* ---- lifecycle ---- */

typedef struct lg_anchor {
  lgrid *pending; /* grids closed while busy */
  /* The grids' memory, which the collector cannot see (lg_account) */
  size_t live;     /* bytes held by grids not released yet */
  size_t since;    /* bytes reported since the last full collection */
  size_t estimate; /* Lua heap + live grid bytes after that collection */
} lg_anchor;

static void unlink_pending(lgrid *ud) {
  if (ud->pending_prev != NULL)
    ud->pending_prev->pending_next = ud->pending_next;
  else if (ud->anchor != NULL && ud->anchor->pending == ud)
    ud->anchor->pending = ud->pending_next;
  if (ud->pending_next != NULL)
    ud->pending_next->pending_prev = ud->pending_prev;
  ud->pending_next = ud->pending_prev = NULL;
}

void lg_unaccount(struct lg_anchor *a, size_t *reported) {
  if (a != NULL) a->live -= *reported < a->live ? *reported : a->live;
  *reported = 0;
}

static void free_buffers(lgrid *ud) {
  lg_memory *m = &ud->memory;
  int i;
  for (i = 0; i < LG_BUFFERS; i++) {
    if (ud->buf[i] != NULL)
      ud->ctx.alloc(ud->ctx.alloc_ud, ud->buf[i], ud->buf_cap[i], 0);
    ud->buf[i] = NULL;
    ud->buf_cap[i] = 0;
  }
  if (m->acc != NULL)
    ud->ctx.alloc(ud->ctx.alloc_ud, m->acc, m->cap * LG_MEMORY_TILE, 0);
  memset(m, 0, sizeof *m);
}

void *lg_buffer(lua_State *L, lgrid *ud, int which, size_t bytes) {
  size_t cap = ud->buf_cap[which];
  void *p;
  if (bytes <= cap && ud->buf[which] != NULL) return ud->buf[which];
  if (cap < 256) cap = 256;
  while (cap < bytes) {
    if (cap > ((size_t)-1) / 2) la_raise(L, ASTAR_ENOMEM, "buffer");
    cap *= 2;
  }
  p = ud->ctx.alloc(ud->ctx.alloc_ud, ud->buf[which], ud->buf_cap[which],
                    cap);
  if (p == NULL) la_raise(L, ASTAR_ENOMEM, "buffer");
  ud->buf[which] = p;
  ud->buf_cap[which] = cap;
  return p;
}

/* One block: cap costs so far, then cap x, y pairs (contents are not
 * kept: next_step writes them afresh). */
int lg_memory_room(lgrid *ud, size_t n) {
  lg_memory *m = &ud->memory;
  size_t cap = m->cap ? m->cap : 64;
  void *p;
  if (n <= m->cap) return 1;
  while (cap < n) {
    if (cap > ((size_t)-1) / 64) return 0;
    cap *= 2;
  }
  p = ud->ctx.alloc(ud->ctx.alloc_ud, m->acc, m->cap * LG_MEMORY_TILE,
                    cap * LG_MEMORY_TILE);
  if (p == NULL) return 0;
  m->acc = (double *)p;
  m->xy = (int32_t *)(void *)((unsigned char *)p + cap * sizeof(double));
  m->cap = cap;
  return 1;
}

int lg_take_context(lgrid *ud, astar_search *s) {
  if (ud->closed || ud->nspare == 0) return 0;
  *s = ud->spare[--ud->nspare];
  return 1;
}

void lg_give_context(lgrid *ud, astar_search *s) {
  if (s->alloc == NULL) return;
  if (!ud->closed && ud->nspare < LG_SPARE && s->ntiles == ud->g.ntiles &&
      !s->busy) {
    s->state = ASTAR_SEARCH_IDLE;
    ud->spare[ud->nspare++] = *s;
    astar_search_init(s, s->alloc, s->alloc_ud); /* holds nothing now */
  } else {
    astar_search_release(s);
  }
}

static void release(lgrid *ud) {
  lg_unaccount(ud->anchor, &ud->reported);
  unlink_pending(ud);
  free_buffers(ud);
  astar_search_release(&ud->ctx);
  while (ud->nspare > 0) astar_search_release(&ud->spare[--ud->nspare]);
  astar_grid_release(&ud->g);
  ud->closed = 1;
}

/* close, __gc and __close: at once when idle, else when the busy method
 * leaves (or the state closes). */
static void close_grid(lgrid *ud) {
  int listed = ud->pending_next != NULL || ud->pending_prev != NULL ||
               (ud->anchor != NULL && ud->anchor->pending == ud);
  ud->closed = 1;
  if (ud->busy == 0) {
    release(ud);
  } else if (!listed && ud->anchor != NULL) {
    ud->pending_next = ud->anchor->pending;
    if (ud->pending_next != NULL) ud->pending_next->pending_prev = ud;
    ud->anchor->pending = ud;
  }
}

void lg_enter(lgrid *ud) { ud->busy++; }

void lg_leave(lgrid *ud) {
  if (--ud->busy == 0 && ud->closed) release(ud);
}

/* The anchor's finalizer runs after every grid's at lua_close (finalizers
 * run in the reverse order objects were marked, and the anchor is marked
 * in luaopen, before any grid): what a method closed under itself and
 * never got back to is freed here.  Every finalizer runs before any
 * object is freed, so the grids' userdata are still there. */
static int anchor_gc(lua_State *L) {
  lg_anchor *a = (lg_anchor *)lua_touserdata(L, 1);
  while (a != NULL && a->pending != NULL) {
    lgrid *ud = a->pending;
    ud->busy = 0;
    release(ud);
  }
  return 0;
}

void lg_open_anchor(lua_State *L) {
  lua_getfield(L, LUA_REGISTRYINDEX, ANCHOR_KEY);
  if (lua_isnil(L, -1)) {
    lg_anchor *a;
    lua_pop(L, 1);
    a = (lg_anchor *)compat_newuserdata(L, sizeof(lg_anchor));
    memset(a, 0, sizeof *a);
    a->estimate = MIN_ESTIMATE;
    lua_createtable(L, 0, 1);
    lua_pushcfunction(L, anchor_gc);
    lua_setfield(L, -2, "__gc");
    lua_setmetatable(L, -2);
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, ANCHOR_KEY);
  }
  lua_pop(L, 1);
}

/* The collector sees only the small userdata, not the arrays behind it.
 * Two ways to make it act on them: an incremental step sized by the
 * bytes (enough for the incremental collector: 5.1 - 5.3, LuaJIT), and,
 * because a generational collector (5.4's default in some builds) frees
 * old objects only in major collections, which only real heap growth
 * starts, a full collection whenever the grids' new bytes since the last
 * one exceed what was alive after it (the Lua heap and the grids): the
 * collector's own "collect when memory doubles" rule, so its cost stays
 * proportional to what is allocated. */
void lg_account(lua_State *L, struct lg_anchor *a, size_t *reported,
                size_t now) {
  size_t grown = now - *reported, kb = grown / 1024u;
  *reported = now;
  if (a != NULL) {
    a->live += grown;
    a->since += grown;
    /* the bar is what was alive after the last full collection, or, when
     * the heap has shrunk since (the collector's own cycles, a script's
     * collectgarbage), what is alive now: a bar left high by a big heap
     * long gone would let the grids' memory pile up unseen */
    size_t now_alive = (size_t)lua_gc(L, LUA_GCCOUNT, 0) * 1024u + a->live;
    if (now_alive < a->estimate) { /* a collection ran: a new baseline */
      a->estimate = now_alive < MIN_ESTIMATE ? MIN_ESTIMATE : now_alive;
      a->since = grown;
    }
    if (a->since > a->estimate) {
      a->since = 0;
      lua_gc(L, LUA_GCCOLLECT, 0); /* finalizers release the dead grids */
      a->estimate = (size_t)lua_gc(L, LUA_GCCOUNT, 0) * 1024u + a->live;
      if (a->estimate < MIN_ESTIMATE) a->estimate = MIN_ESTIMATE;
      return;
    }
  }
  lua_gc(L, LUA_GCSTEP, kb > 0x7FFFFFFF ? 0x7FFFFFFF : (int)kb);
}

static void account(lua_State *L, lgrid *ud, size_t now) {
  lg_account(L, ud->anchor, &ud->reported, now);
}

void lg_report(lua_State *L, lgrid *ud) {
  if (ud->closed) return;
  if (ud->held < ud->reported) { /* freed since (a query object's copies):
                                    what was reported comes down with it,
                                    so growing again is seen again */
    size_t d = ud->reported - ud->held;
    if (ud->anchor != NULL)
      ud->anchor->live -= d < ud->anchor->live ? d : ud->anchor->live;
    ud->reported = ud->held;
  }
  if (ud->held > ud->reported + REPORT_STEP) account(L, ud, ud->held);
}

/* The trampoline every function of the module has as upvalue 2. */
int lg_protect_trampoline(lua_State *L);
int lg_protect_trampoline(lua_State *L) {
  lg_pcall *pc = (lg_pcall *)lua_touserdata(L, 1);
  lua_remove(L, 1);
  return pc->f(L, pc->ud);
}

void lg_protect(lua_State *L, lg_pcall *pc, lg_fn f, void *ud) {
  pc->f = f;
  pc->ud = ud;
  lua_pushvalue(L, PROTECT_UPVALUE);
  lua_pushlightuserdata(L, pc);
}

int lg_protected_call(lua_State *L, int nargs, int nresults) {
  return lua_pcall(L, nargs + 1, nresults, 0);
}

/* Grid memory goes through the Lua state's own allocator (so a host's
 * memory limits and accounting see it).  The grid keeps the allocator, not
 * the lua_State: the state it was made in may be a coroutine that dies
 * first. */
void *lg_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  lgrid *lg = (lgrid *)ud;
  void *p = lg->alloc(lg->alloc_ud, ptr, osize, nsize);
  if (p != NULL || nsize == 0) {
    lg->held -= ptr != NULL ? osize : 0;
    lg->held += nsize;
  }
  return p;
}

astar_grid *lg_push_grid(lua_State *L, int32_t w, int32_t h,
                         const char *fname, int warg, int names) {
  lgrid *ud = (lgrid *)compat_newuserdata(L, sizeof(lgrid));
  lg_anchor *anchor;
  int st;
  memset(ud, 0, sizeof *ud);
  astar_grid_zero(&ud->g);
  ud->closed = 1; /* until it has its memory */
  ud->alloc = lua_getallocf(L, &ud->alloc_ud);
  astar_search_init(&ud->ctx, lg_alloc, ud);
  lua_pushvalue(L, GRID_MT_UPVALUE);
  lua_setmetatable(L, -2);
  lua_createtable(L, 0, 3); /* user value: names, and the anchor */
  lua_pushvalue(L, names);
  lua_setfield(L, -2, "terrain");
  lua_getfield(L, LUA_REGISTRYINDEX, ANCHOR_KEY);
  anchor = (lg_anchor *)lua_touserdata(L, -1);
  lua_setfield(L, -2, "anchor"); /* kept alive as long as the grid */
  compat_setuservalue(L, -2);
  ud->anchor = anchor;
  st = astar_grid_init(&ud->g, w, h, lg_alloc, ud);
  if (st == ASTAR_ETOOBIG)
    la_error(L, warg, fname,
             "grid too large: %d x %d tiles (at most %u with a one-tile "
             "border)",
             (int)w, (int)h, (unsigned)ASTAR_MAX_PADDED_TILES);
  if (st != ASTAR_OK) la_raise(L, st, fname);
  ud->closed = 0;
  /* what it holds now and what a first search adds: reported now, so a
   * game that makes a big grid per level does not pile up dead ones;
   * later growth is reported by lg_report */
  account(L, ud, astar_grid_bytes(w, h, 1));
  return &ud->g;
}

/* grid:close(): frees the grid's memory now (or, inside one of its own
 * methods' callbacks, when that method returns); any later method raises
 * "the grid is closed".  Safe to call twice. */
static int g_close(lua_State *L) {
  char buf[64];
  lgrid *ud = lg_to_grid(L, 1);
  if (ud == NULL)
    return la_error(L, 1, "close", "grid expected, got %s",
                    la_describe(L, 1, buf, sizeof buf));
  close_grid(ud);
  return 0;
}

/* __gc and __close: the same, and never an error */
static int g_gc(lua_State *L) {
  lgrid *ud = lg_to_grid(L, 1);
  if (ud != NULL) close_grid(ud);
  return 0;
}

/* grid:is_closed() -> boolean */
static int g_is_closed(lua_State *L) {
  char buf[64];
  lgrid *ud = lg_to_grid(L, 1);
  if (ud == NULL)
    return la_error(L, 1, "is_closed", "grid expected, got %s",
                    la_describe(L, 1, buf, sizeof buf));
  lua_pushboolean(L, ud->closed);
  return 1;
}

/* ---- movement ---- */

static const char *const diagonal_names[] = {"no_corner_cut", "one_free",
                                             "always", "never", "hex", NULL};
#define DIAGONAL_LIST \
  "'no_corner_cut', 'one_free', 'always', 'never', 'hex'"
#define LENGTH_RULE "a number in [1e-09, 1e+09]"

static const char *const movement_keys[] = {"diagonals", "cardinal",
                                            "diagonal", NULL};

void lg_movement_options(lua_State *L, int arg, const char *fname,
                         const astar_grid *g, int *rule, double *cardinal,
                         double *diagonal) {
  *rule = la_enum(L, arg, fname, "diagonals", diagonal_names, DIAGONAL_LIST,
                  g != NULL ? g->diagonal : ASTAR_DIAG_BOTH_FREE);
  *cardinal = la_number(L, arg, fname, "cardinal", ASTAR_MIN_STEP_LENGTH,
                        ASTAR_MAX_STEP_LENGTH, LENGTH_RULE,
                        g != NULL ? g->cardinal_length : 1.0);
  *diagonal = la_number(L, arg, fname, "diagonal", ASTAR_MIN_STEP_LENGTH,
                        ASTAR_MAX_STEP_LENGTH, LENGTH_RULE,
                        g != NULL ? g->diagonal_length : sqrt(2.0));
}

static int g_set_movement(lua_State *L) {
  char buf[64];
  lgrid *ud = lg_check(L, "set_movement");
  astar_grid *g;
  int rule;
  double c, d;
  if (lua_type(L, 2) != LUA_TTABLE)
    la_error(L, 2, "set_movement", "options must be a table, got %s",
             la_describe(L, 2, buf, sizeof buf));
  la_options(L, 2, "set_movement", movement_keys);
  lg_movement_options(L, 2, "set_movement", &ud->g, &rule, &c, &d);
  g = lg_core(L, ud, "set_movement");
  if (astar_grid_set_movement(g, rule, c, d) != ASTAR_OK)
    luaL_error(L, "set_movement: invalid movement");
  return 0;
}

static int g_get_movement(lua_State *L) {
  astar_grid *g = &lg_check(L, "get_movement")->g;
  int rule = g->diagonal;
  double c = g->cardinal_length, d = g->diagonal_length;
  /* the table may run a finalizer that closes the grid: read it first */
  lua_createtable(L, 0, 3);
  lua_pushstring(L, diagonal_names[rule]);
  lua_setfield(L, -2, "diagonals");
  lua_pushnumber(L, (lua_Number)c);
  lua_setfield(L, -2, "cardinal");
  lua_pushnumber(L, (lua_Number)d);
  lua_setfield(L, -2, "diagonal");
  return 1;
}

/* ---- tiles ---- */

static int g_size(lua_State *L) {
  astar_grid *g = &lg_check(L, "size")->g;
  lua_pushinteger(L, g->width);
  lua_pushinteger(L, g->height);
  return 2;
}

static int g_width(lua_State *L) {
  lua_pushinteger(L, lg_check(L, "width")->g.width);
  return 1;
}

static int g_height(lua_State *L) {
  lua_pushinteger(L, lg_check(L, "height")->g.height);
  return 1;
}

/* grid:get_cost(x, y [, unit]) -> cost | false */
static int g_get_cost(lua_State *L) {
  lgrid *ud = lg_check(L, "get_cost");
  int32_t x = la_x(L, 2, "get_cost", "x", &ud->g);
  int32_t y = la_y(L, 3, "get_cost", "y", &ud->g);
  astar_grid *g;
  double c;
  if (!lua_isnoneornil(L, 4)) {
    int unit = lt_unit_id(L, 4, 4, "get_cost", 1);
    g = lg_core(L, ud, "get_cost");
    c = astar_unit_cost(g, unit, x, y);
  } else {
    g = lg_core(L, ud, "get_cost");
    c = astar_grid_is_blocked(g, x, y) ? 0.0
                                        : (double)astar_grid_get_cost(g, x, y);
  }
  if (c > 0.0)
    lua_pushnumber(L, (lua_Number)c);
  else
    lua_pushboolean(L, 0);
  return 1;
}

static int g_set_cost(lua_State *L) {
  lgrid *ud = lg_check(L, "set_cost");
  int32_t x = la_x(L, 2, "set_cost", "x", &ud->g);
  int32_t y = la_y(L, 3, "set_cost", "y", &ud->g);
  float c = la_cost(L, 4, "set_cost", "cost");
  astar_grid *g = lg_core(L, ud, "set_cost");
  if (c > 0.0f)
    astar_grid_set_cost(g, x, y, c);
  else
    astar_grid_set_blocked(g, x, y, 1);
  return 0;
}

static int g_is_blocked(lua_State *L) {
  lgrid *ud = lg_check(L, "is_blocked");
  int32_t x = la_x(L, 2, "is_blocked", "x", &ud->g);
  int32_t y = la_y(L, 3, "is_blocked", "y", &ud->g);
  lua_pushboolean(L, astar_grid_is_blocked(lg_core(L, ud, "is_blocked"), x,
                                           y));
  return 1;
}

static int g_set_blocked(lua_State *L) {
  char buf[64];
  lgrid *ud = lg_check(L, "set_blocked");
  int32_t x = la_x(L, 2, "set_blocked", "x", &ud->g);
  int32_t y = la_y(L, 3, "set_blocked", "y", &ud->g);
  int t = lua_type(L, 4);
  if (t != LUA_TNONE && t != LUA_TNIL && t != LUA_TBOOLEAN)
    la_error(L, 4, "set_blocked", "blocked must be a boolean, got %s",
             la_describe(L, 4, buf, sizeof buf));
  astar_grid_set_blocked(lg_core(L, ud, "set_blocked"), x, y,
                         t == LUA_TBOOLEAN ? lua_toboolean(L, 4) : 1);
  return 0;
}

static void fill_area(astar_grid *g, int32_t x, int32_t y, int32_t w,
                      int32_t h, float c) {
  astar_grid_fill(g, x, y, w, h, c, c > 0.0f ? 0 : 1);
}

#define CALLBACK_RULE "a positive finite number or false"

/* grid:fill(function(x, y, cost) -> cost | false): evaluates the function
 * once per tile (the grid busy meanwhile), then bakes every result in;
 * nothing changes on error. */
static int fill_function(lua_State *L, lgrid *ud) {
  char buf[64];
  astar_grid *g = &ud->g;
  int32_t x, y, w = g->width, h = g->height;
  size_t n = (size_t)w * (size_t)h;
  float *vals;
  if (n > ((size_t)-1) / sizeof(float)) la_raise(L, ASTAR_ENOMEM, "fill");
  lua_settop(L, 2);
  vals = (float *)compat_newuserdata(L, n * sizeof(float)); /* at 3 */
  luaL_checkstack(L, 8, "fill");
  g = lg_core(L, ud, "fill");
  lg_enter(ud);
  for (y = 0; y < h; y++) {
    for (x = 0; x < w; x++) {
      double v = 0.0;
      int bad;
      lua_pushvalue(L, 2);
      lua_pushinteger(L, x + 1);
      lua_pushinteger(L, y + 1);
      if (astar_grid_is_blocked(g, x, y))
        lua_pushboolean(L, 0);
      else
        lua_pushnumber(L, (lua_Number)astar_grid_get_cost(g, x, y));
      if (lua_pcall(L, 3, 1, 0) != 0) {
        lg_leave(ud);
        lua_error(L);
      }
      bad = 0;
      if (lua_type(L, -1) == LUA_TNUMBER &&
          astar_cost_ok((double)lua_tonumber(L, -1)))
        v = (double)lua_tonumber(L, -1);
      else if (!(lua_type(L, -1) == LUA_TBOOLEAN && !lua_toboolean(L, -1)))
        bad = 1;
      if (bad || ud->closed) {
        lg_leave(ud);
        if (bad)
          la_error(L, 2, "fill", "the function returned %s for tile (%d, "
                   "%d); expected " CALLBACK_RULE,
                   la_describe(L, -1, buf, sizeof buf), (int)x + 1,
                   (int)y + 1);
        luaL_error(L, "fill: the grid is closed");
      }
      vals[(size_t)y * (size_t)w + (size_t)x] = (float)v;
      lua_pop(L, 1);
    }
  }
  lg_leave(ud);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      float c = vals[(size_t)y * (size_t)w + (size_t)x];
      astar_grid_put(g, astar_index(g, x, y), c, c > 0.0f);
    }
  astar_grid_refresh(g);
  return 0;
}

/* grid:fill(cost | function) */
static int g_fill(lua_State *L) {
  lgrid *ud = lg_check(L, "fill");
  float c;
  if (lua_type(L, 2) == LUA_TFUNCTION) return fill_function(L, ud);
  c = la_cost(L, 2, "fill", "cost");
  fill_area(lg_core(L, ud, "fill"), 0, 0, ud->g.width, ud->g.height, c);
  return 0;
}

/* grid:fill_rect(x, y, w, h, cost) */
static int g_fill_rect(lua_State *L) {
  lgrid *ud = lg_check(L, "fill_rect");
  int32_t x = la_x(L, 2, "fill_rect", "x", &ud->g);
  int32_t y = la_y(L, 3, "fill_rect", "y", &ud->g);
  int32_t w = la_int(L, 4, "fill_rect", "w", 0, ud->g.width - x,
                     "out of range");
  int32_t h = la_int(L, 5, "fill_rect", "h", 0, ud->g.height - y,
                     "out of range");
  float c = la_cost(L, 6, "fill_rect", "cost");
  fill_area(lg_core(L, ud, "fill_rect"), x, y, w, h, c);
  return 0;
}

/* ---- tables of tiles ---- */

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

/* Checks (apply = 0) or applies (apply = 1) a table of tile costs; the
 * reads are raw, so no Lua code runs between the check and the apply. */
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

/* Loads a table of tiles into g (a new grid's or an existing one's). */
void lg_load_table(lua_State *L, astar_grid *g, int arg, const char *fname);
void lg_load_table(lua_State *L, astar_grid *g, int arg, const char *fname) {
  table_tiles(L, g, arg, fname, 0);
  table_tiles(L, g, arg, fname, 1);
}

/* grid:load(t) */
static int g_load(lua_State *L) {
  lgrid *ud = lg_check(L, "load");
  la_table(L, 2, "load", "tiles");
  lg_load_table(L, lg_core(L, ud, "load"), 2, "load");
  return 0;
}

/* grid:load_string(text [, legend]) */
static int g_load_string(lua_State *L) {
  lgrid *ud = lg_check(L, "load_string");
  size_t len;
  const char *s = la_text(L, 2, "load_string", &len);
  astar_legend legend;
  lua_settop(L, 3);
  lt_push_names(L, 1, "terrain");
  lm_check_legend(L, 3, "load_string", &legend, lua_gettop(L));
  lm_load_text(L, lg_core(L, ud, "load_string"), s, len, &legend, 2,
               "load_string");
  return 0;
}

/* ---- memory, version, text ---- */

/* grid:memory() -> bytes held by the grid and its default context */
static int g_memory(lua_State *L) {
  lgrid *ud = lg_check(L, "memory");
  size_t n = astar_grid_memory(&ud->g) + astar_search_memory(&ud->ctx);
  lua_pushinteger(L, (lua_Integer)n);
  return 1;
}

/* grid:version() -> the edit counter (every edit adds at least 1) */
static int g_version(lua_State *L) {
  lgrid *ud = lg_check(L, "version");
  /* exact as a double up to 2^53: edits never get there */
  lua_pushnumber(L, (lua_Number)ud->g.version);
  return 1;
}

static char tile_char(const astar_grid *g, int32_t x, int32_t y) {
  float c = astar_grid_get_cost(g, x, y);
  if (astar_grid_is_blocked(g, x, y)) return '#';
  if (c == 1.0f) return '.';
  if (c >= 2.0f && c <= 9.0f && c == floorf(c)) return (char)('0' + (int)c);
  return '~';
}

/* The rows, written into a buffer userdata first: a luaL_Buffer may run
 * finalizers as it grows, which could close the grid mid-way. */
static int g_tostring(lua_State *L) {
  lgrid *ud = lg_to_grid(L, 1);
  astar_grid *g;
  int32_t x, y;
  size_t n, k = 0;
  char *text;
  if (ud == NULL || ud->closed) {
    lua_pushstring(L, "astar.Grid (closed)");
    return 1;
  }
  g = &ud->g;
  n = (size_t)(g->width + 1) * (size_t)g->height;
  lua_settop(L, 1);
  text = (char *)compat_newuserdata(L, n);
  if (ud->g.cost == NULL) { /* a finalizer released it meanwhile */
    lua_pushstring(L, "astar.Grid (closed)");
    return 1;
  }
  for (y = 0; y < g->height; y++) {
    if (y > 0) text[k++] = '\n';
    for (x = 0; x < g->width; x++) text[k++] = tile_char(g, x, y);
  }
  lua_pushlstring(L, text, k);
  return 1;
}

const luaL_Reg lg_grid_methods[] = {
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
    {"version", g_version},
    {"close", g_close},
    {"is_closed", g_is_closed},
    {NULL, NULL}};

const char *const *const lg_movement_keys = movement_keys;

const luaL_Reg lg_grid_meta[] = {
    {"__gc", g_gc},
    {"__tostring", g_tostring},
#if LUA_VERSION_NUM >= 504
    {"__close", g_gc},
#endif
    {NULL, NULL}};

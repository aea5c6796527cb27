/*
 * Batches from Lua: the worker pool (astar.workers), the flat query list
 * both batch paths read, the results table, and the packed string of
 * snap:find_paths with astar.unpack_paths.
 *
 * Memory: batches and pools are malloc'd (workers write them from their
 * threads).  A batch being made or read is owned by a holder userdata on
 * the Lua stack, so an error raised meanwhile never leaks it (its __gc
 * frees it); a submitted one by its pool's list until results() takes it
 * back.  A pool closes (close, __gc, __close, or the state's anchor at
 * lua_close, whichever comes first) by joining its threads: no thread of
 * ours outlives the state, so the module's code can be unloaded after.
 *
 * Results table (results() and unpack_paths), for n queries:
 *   r.n          n
 *   r.status[i]  "found", "no_path", "start_blocked", "goal_blocked",
 *                "cutoff"
 *   r.cost[i]    the path's cost, or false when there is no path
 *   r.length[i]  tiles on the path (0 when none)
 *   r.start[i]   index in r.path of the path's first x
 *   r.path       every path's x, y pairs, one after the other
 * With the option paths = false, r.start and r.path are left out (nil):
 * the read-out then costs a few table writes per query, whatever the
 * paths' lengths.
 */
#include "astar.h"
#include "compat.h"
#include "lua_args.h"
#include "lua_grid.h"
#include "lua_snapshot.h"

#include <lauxlib.h>
#include <lua.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ANCHOR_KEY "astar.Workers.anchor"

static const char *const outcome_names[] = {
    "found", "no_path", "start_blocked", "goal_blocked", "cutoff", "running"};

/* ---- the holder ---- */

void lw_holder_free(lholder *h) {
  astar_batch *b = h->b;
  astar_snapshot *s = h->s;
  h->b = NULL;
  h->s = NULL;
  astar_batch_free(b);
  lk_release(s);
}

static int holder_gc(lua_State *L) {
  lholder *h = (lholder *)lua_touserdata(L, 1);
  if (h != NULL) lw_holder_free(h);
  return 0;
}

lholder *lw_push_holder(lua_State *L) {
  lholder *h = (lholder *)lua_newuserdata(L, sizeof(lholder));
  memset(h, 0, sizeof *h);
  luaL_getmetatable(L, HOLDER_MT);
  lua_setmetatable(L, -2);
  return h;
}

/* ---- the query list ---- */

void lw_read_queries(lua_State *L, int arg, const char *fname,
                     const astar_grid *g, const astar_query *q,
                     lholder *h) {
  static const char *const names[4] = {"sx", "sy", "gx", "gy"};
  char buf[64];
  size_t n = compat_rawlen(L, arg), i;
  int32_t *xy;
  int st;
  if (n % 4u != 0)
    la_error(L, arg, fname, "queries must hold sx, sy, gx, gy per query "
             "(a multiple of 4 numbers), got %.0f numbers", (double)n);
  size_t nq = n / 4u;
  if (nq > (size_t)(INT_MAX / 8))
    la_error(L, arg, fname, "too many queries (%.0f)", (double)nq);
  st = astar_batch_new(&h->b, g, q, (uint32_t)(n / 4u), lsn_sys_alloc, NULL);
  if (st != ASTAR_OK) la_raise(L, st, fname);
  xy = astar_batch_coords(h->b);
  for (i = 0; i < n; i++) {
    int32_t hi = i % 2u == 0 ? g->width : g->height;
    double v;
    lua_rawgeti(L, arg, (int)(i + 1));
    v = lua_type(L, -1) == LUA_TNUMBER ? (double)lua_tonumber(L, -1) : NAN;
    if (!(v == floor(v) && v >= 1 && v <= hi)) {
      size_t which = i / 4u + 1;
      la_error(L, arg, fname, "query %.0f: %s must be an integer in 1..%d, "
               "got %s", (double)which, names[i % 4u], (int)hi,
               la_describe(L, -1, buf, sizeof buf));
    }
    xy[i] = (int32_t)v - 1;
    lua_pop(L, 1);
  }
}

/* ---- the results table ---- */

/* One result, wherever it comes from (a batch, a packed string). */
typedef struct lresult {
  int outcome, partial;
  double cost;
  uint32_t length;
  const uint16_t *xy;
} lresult;
typedef void (*get_fn)(void *src, uint32_t i, lresult *r);

static void batch_get(void *src, uint32_t i, lresult *r) {
  const astar_batch *b = (const astar_batch *)src;
  const astar_batch_result *x = astar_batch_results(b) + i;
  r->outcome = x->outcome;
  r->partial = x->partial;
  r->cost = x->cost;
  r->length = x->length;
  r->xy = astar_batch_path(b, x);
}

/* out[name], made a table (raw: no metamethod runs) */
static int sub(lua_State *L, int out, const char *name, int narr) {
  lua_pushstring(L, name);
  lua_rawget(L, out);
  if (lua_type(L, -1) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_createtable(L, narr, 0);
    lua_pushstring(L, name);
    lua_pushvalue(L, -2);
    lua_rawset(L, out);
  }
  return lua_gettop(L);
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

/* What a results table holds of the paths (options.paths): none (false),
 * r.start and r.path (true), or r.start and the packed string as r.paths
 * ("kept"), read one path at a time by astar.path_of. */
enum { PATHS_NONE = 0, PATHS_TABLE = 1, PATHS_KEPT = 2 };

/* Fills the results table (at out, or a new one when 0) and leaves it on
 * top. */
static void push_table(lua_State *L, int out, void *src, uint32_t n,
                       uint32_t nxy, get_fn get, int paths) {
  int status, cost, length, start = 0, path = 0;
  lua_Integer k = 0;
  uint32_t i, j;
  luaL_checkstack(L, 12, "results");
  if (n > (uint32_t)(INT_MAX / 2) || nxy > (uint32_t)(INT_MAX - 4))
    luaL_error(L, "results: too many paths for a table");
  if (out == 0) {
    lua_createtable(L, 0, 6);
    out = lua_gettop(L);
  } else {
    lua_pushvalue(L, out);
    out = lua_gettop(L);
  }
  lua_pushliteral(L, "n");
  lua_pushinteger(L, (lua_Integer)n);
  lua_rawset(L, out);
  status = sub(L, out, "status", (int)n);
  cost = sub(L, out, "cost", (int)n);
  length = sub(L, out, "length", (int)n);
  if (paths) {
    start = sub(L, out, "start", (int)n);
  } else {
    lua_pushliteral(L, "start");
    lua_pushnil(L);
    lua_rawset(L, out);
  }
  if (paths == PATHS_TABLE) {
    path = sub(L, out, "path", (int)nxy);
  } else {
    lua_pushliteral(L, "path");
    lua_pushnil(L);
    lua_rawset(L, out);
  }
  /* r.paths: the caller's (PATHS_KEPT), else none (an old one let go) */
  lua_pushliteral(L, "paths");
  lua_pushnil(L);
  lua_rawset(L, out);
  for (i = 0; i < n; i++) {
    lresult r;
    get(src, i, &r);
    lua_pushstring(L, outcome_names[r.outcome]);
    lua_rawseti(L, status, (int)i + 1);
    if (r.length > 0)
      lua_pushnumber(L, (lua_Number)r.cost);
    else
      lua_pushboolean(L, 0);
    lua_rawseti(L, cost, (int)i + 1);
    lua_pushinteger(L, (lua_Integer)r.length);
    lua_rawseti(L, length, (int)i + 1);
    if (!paths) continue;
    lua_pushinteger(L, k + 1);
    lua_rawseti(L, start, (int)i + 1);
    if (paths == PATHS_KEPT) {
      k += 2 * (lua_Integer)r.length;
      continue;
    }
    for (j = 0; j < 2u * r.length; j++) {
      lua_pushinteger(L, (lua_Integer)r.xy[j]);
      lua_rawseti(L, path, (int)++k);
    }
  }
  clear_from(L, status, n);
  clear_from(L, cost, n);
  clear_from(L, length, n);
  if (paths) clear_from(L, start, n);
  if (paths == PATHS_TABLE) clear_from(L, path, k);
  lua_settop(L, out);
}

static uint32_t batch_tiles(const astar_batch *b) {
  const astar_batch_result *x = astar_batch_results(b);
  uint32_t i, n = astar_batch_size(b), t = 0;
  for (i = 0; i < n; i++) t += x[i].length;
  return t;
}

void lw_push_results(lua_State *L, astar_batch *b, int out,
                     int paths) {
  push_table(L, out, b, astar_batch_size(b),
             2u * batch_tiles(b), batch_get, paths);
}

static const char *const read_keys[] = {"paths", NULL};
const char *const *const lw_read_keys = read_keys;

/* The read-out options at arg (results, unpack_paths): paths or not. */
static int read_options(lua_State *L, int arg, const char *fname) {
  char buf[64];
  int paths = PATHS_TABLE;
  if (la_options(L, arg, fname, read_keys)) {
    lua_getfield(L, arg, "paths");
    if (lua_type(L, -1) == LUA_TBOOLEAN)
      paths = lua_toboolean(L, -1) ? PATHS_TABLE : PATHS_NONE;
    else if (lua_type(L, -1) == LUA_TSTRING &&
             strcmp(lua_tostring(L, -1), "kept") == 0)
      paths = PATHS_KEPT;
    else if (!lua_isnil(L, -1))
      la_error(L, arg, fname, "paths must be true, false or 'kept', got %s",
               la_describe(L, -1, buf, sizeof buf));
    lua_pop(L, 1);
  }
  return paths;
}

/* ---- the packed string ----
 * "ASP1", n (u32), nxy (u32), 4 bytes of 0; then n records of 16 bytes
 * (cost: double; length: u32; outcome, partial: u8; 2 bytes of 0); then
 * nxy uint16 (x, y pairs, 1-based), native byte order (one process). */

#define HEAD 16u
#define REC 16u

void lw_push_packed(lua_State *L, const astar_batch *b) {
  uint32_t n = astar_batch_size(b), nxy = 2u * batch_tiles(b), i;
  size_t size = HEAD + (size_t)n * REC + (size_t)nxy * 2u, at;
  const astar_batch_result *x = astar_batch_results(b);
  unsigned char *p;
  uint32_t zero = 0;
  /* one block of the right size (a userdata: an error cannot leak it) */
  p = (unsigned char *)lua_newuserdata(L, size);
  p[0] = 'A';
  p[1] = 'S';
  p[2] = 'P';
  p[3] = '1';
  memcpy(p + 4, &n, 4);
  memcpy(p + 8, &nxy, 4);
  memcpy(p + 12, &zero, 4);
  at = HEAD + (size_t)n * REC;
  for (i = 0; i < n; i++) {
    unsigned char *rec = p + HEAD + (size_t)i * REC;
    uint32_t len = x[i].length;
    memcpy(rec, &x[i].cost, 8);
    memcpy(rec + 8, &len, 4);
    rec[12] = (unsigned char)x[i].outcome;
    rec[13] = (unsigned char)x[i].partial;
    rec[14] = rec[15] = 0;
    if (len > 0) {
      memcpy(p + at, astar_batch_path(b, &x[i]), (size_t)len * 4u);
      at += (size_t)len * 4u;
    }
  }
  lua_pushlstring(L, (const char *)p, size);
  lua_remove(L, -2);
}

/* The path offsets of a packed string, checked: returns 0 when the string
 * is not one find_paths made. */
static int packed_ok(const unsigned char *p, size_t size, uint32_t *n,
                     uint32_t *nxy) {
  uint32_t i, sum = 0;
  if (size < HEAD || memcmp(p, "ASP1", 4) != 0) return 0;
  memcpy(n, p + 4, 4);
  memcpy(nxy, p + 8, 4);
  if ((size - HEAD) / REC < *n) return 0;
  if (size != HEAD + (size_t)*n * REC + (size_t)*nxy * 2u) return 0;
  for (i = 0; i < *n; i++) {
    const unsigned char *rec = p + HEAD + (size_t)i * REC;
    uint32_t len;
    memcpy(&len, rec + 8, 4);
    if (rec[12] > ASTAR_CUTOFF || rec[13] > 1) return 0;
    if (len > *nxy / 2u - sum / 2u) return 0;
    sum += 2u * len;
  }
  return sum == *nxy;
}

/* A packed string (copied aligned) read in order. */
typedef struct packed_cursor {
  const unsigned char *p;
  uint32_t n;
  size_t at; /* uint16 index of the next path */
} packed_cursor;

static void cursor_get(void *src, uint32_t i, lresult *r) {
  packed_cursor *c = (packed_cursor *)src;
  const unsigned char *rec = c->p + HEAD + (size_t)i * REC;
  uint32_t len;
  memcpy(&r->cost, rec, 8);
  memcpy(&len, rec + 8, 4);
  r->length = len;
  r->outcome = rec[12];
  r->partial = rec[13];
  r->xy = (const uint16_t *)(const void *)(c->p + HEAD + (size_t)c->n * REC) +
          c->at;
  c->at += 2u * (size_t)len;
}

/* astar.unpack_paths(s [, out]) -> results table */
static int l_unpack_paths(lua_State *L) {
  char buf[64];
  size_t size;
  const char *s;
  packed_cursor c;
  uint32_t n, nxy;
  int t = lua_type(L, 2), paths;
  if (lua_type(L, 1) != LUA_TSTRING)
    return la_error(L, 1, "unpack_paths", "expected the string of "
                    "find_paths, got %s", la_describe(L, 1, buf, sizeof buf));
  if (t != LUA_TNONE && t != LUA_TNIL && t != LUA_TTABLE)
    return la_error(L, 2, "unpack_paths", "out must be a table, got %s",
                    la_describe(L, 2, buf, sizeof buf));
  lua_settop(L, 3);
  paths = read_options(L, 3, "unpack_paths");
  s = lua_tolstring(L, 1, &size);
  if (!packed_ok((const unsigned char *)s, size, &n, &nxy))
    return la_error(L, 1, "unpack_paths", "not a string made by "
                    "find_paths");
  /* the string's bytes may be unaligned for uint16: copy them into an
   * aligned block first (a userdata, freed by the collector) */
  {
    void *copy = lua_newuserdata(L, size > 0 ? size : 1);
    memcpy(copy, s, size);
    c.p = (const unsigned char *)copy;
  }
  c.n = n;
  c.at = 0;
  push_table(L, t == LUA_TTABLE ? 2 : 0, &c, n, nxy, cursor_get, paths);
  if (paths == PATHS_KEPT) {
    lua_pushliteral(L, "paths");
    lua_pushvalue(L, 1);
    lua_rawset(L, -3);
  }
  return 1;
}

/* astar._packed_path(s, first, length, out) -> out, for astar.path_of on
 * results with kept paths: the length x, y pairs of the packed string s
 * from its first-th number on (1-based, as r.start gives it) into out,
 * cleared past them.  O(length): only the header is checked, and the
 * range read against it. */
static int l_packed_path(lua_State *L) {
  size_t size;
  const unsigned char *p;
  uint32_t n, nxy;
  lua_Integer first, len, k;
  const char *fname = "path_of";
  if (lua_type(L, 1) != LUA_TSTRING)
    return la_error(L, 1, fname, "r.paths is not a string made by "
                    "find_paths");
  p = (const unsigned char *)lua_tolstring(L, 1, &size);
  if (size < HEAD || memcmp(p, "ASP1", 4) != 0)
    return la_error(L, 1, fname, "r.paths is not a string made by "
                    "find_paths");
  memcpy(&n, p + 4, 4);
  memcpy(&nxy, p + 8, 4);
  if ((size - HEAD) / REC < n ||
      size != HEAD + (size_t)n * REC + (size_t)nxy * 2u)
    return la_error(L, 1, fname, "r.paths is not a string made by "
                    "find_paths");
  {
    double f = lua_type(L, 2) == LUA_TNUMBER ? (double)lua_tonumber(L, 2) : 0;
    double l = lua_type(L, 3) == LUA_TNUMBER ? (double)lua_tonumber(L, 3) : -1;
    /* in range before any conversion (NaN fails too) */
    if (!(f >= 1 && f <= (double)nxy + 1 && l >= 0 && l <= (double)nxy))
      return la_error(L, 1, fname, "r.start and r.length do not match "
                      "r.paths");
    first = (lua_Integer)f;
    len = (lua_Integer)l;
  }
  if (2 * len > (lua_Integer)nxy - (first - 1) || !lua_istable(L, 4))
    return la_error(L, 1, fname, "r.start and r.length do not match "
                    "r.paths");
  p += HEAD + (size_t)n * REC + (size_t)(first - 1) * 2u;
  for (k = 0; k < 2 * len; k++) {
    uint16_t v;
    memcpy(&v, p + 2 * k, 2); /* the string's bytes may be unaligned */
    lua_pushinteger(L, (lua_Integer)v);
    lua_rawseti(L, 4, (int)k + 1);
  }
  clear_from(L, 4, 2 * len);
  lua_settop(L, 4);
  return 1;
}

/* ---- the pool ---- */

typedef struct lpend {
  lua_Integer id;
  astar_batch *b;
  astar_snapshot *s;
} lpend;

struct lw_anchor;
typedef struct lpool {
  astar_workers *w; /* NULL once closed */
  lpend *pend;
  size_t npend, cap;
  lua_Integer next_id;
  int closed;
  struct lw_anchor *anchor;
  struct lpool *next, *prev;
} lpool;

typedef struct lw_anchor {
  lpool *pools; /* open pools of this state */
} lw_anchor;

static void unlink_pool(lpool *p) {
  if (p->prev != NULL)
    p->prev->next = p->next;
  else if (p->anchor != NULL && p->anchor->pools == p)
    p->anchor->pools = p->next;
  if (p->next != NULL) p->next->prev = p->prev;
  p->next = p->prev = NULL;
  p->anchor = NULL;
}

/* Joins the threads, then frees every batch left: safe to call twice. */
static void pool_close(lpool *p) {
  size_t i;
  astar_workers *w = p->w;
  p->w = NULL;
  p->closed = 1;
  astar_workers_free(w);
  for (i = 0; i < p->npend; i++) {
    astar_batch_free(p->pend[i].b);
    lk_release(p->pend[i].s);
  }
  free(p->pend);
  p->pend = NULL;
  p->npend = p->cap = 0;
  unlink_pool(p);
}

static int anchor_gc(lua_State *L) {
  lw_anchor *a = (lw_anchor *)lua_touserdata(L, 1);
  while (a != NULL && a->pools != NULL) pool_close(a->pools);
  return 0;
}

void lw_open_anchor(lua_State *L) {
  lua_getfield(L, LUA_REGISTRYINDEX, ANCHOR_KEY);
  if (lua_isnil(L, -1)) {
    lw_anchor *a;
    lua_pop(L, 1);
    a = (lw_anchor *)lua_newuserdata(L, sizeof(lw_anchor));
    a->pools = NULL;
    lua_createtable(L, 0, 1);
    lua_pushcfunction(L, anchor_gc);
    lua_setfield(L, -2, "__gc");
    lua_setmetatable(L, -2);
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, ANCHOR_KEY);
  }
  lua_pop(L, 1);
}

static lpool *to_pool(lua_State *L, int idx) {
  lpool *p = (lpool *)lua_touserdata(L, idx);
  if (p == NULL || !lua_getmetatable(L, idx)) return NULL;
  luaL_getmetatable(L, WORKERS_MT);
  if (!lua_rawequal(L, -1, -2)) p = NULL;
  lua_pop(L, 2);
  return p;
}

static lpool *check_pool(lua_State *L, const char *fname) {
  char buf[64];
  lpool *p = to_pool(L, 1);
  if (p == NULL) {
    la_error(L, 1, fname, "worker pool expected, got %s",
             la_describe(L, 1, buf, sizeof buf));
    return NULL;
  }
  if (p->closed) luaL_error(L, "%s: the worker pool is closed", fname);
  return p;
}

/* The pending batch with the id at argument 2 (its index in p->pend). */
static size_t find_batch(lua_State *L, lpool *p, const char *fname) {
  char buf[64];
  size_t i;
  double v = lua_type(L, 2) == LUA_TNUMBER ? (double)lua_tonumber(L, 2)
                                           : NAN;
  if (!(v == floor(v)))
    la_error(L, 2, fname, "id must be a batch id (an integer), got %s",
             la_describe(L, 2, buf, sizeof buf));
  for (i = 0; i < p->npend; i++)
    if ((double)p->pend[i].id == v) return i;
  la_error(L, 2, fname, "no batch %s in this pool (never submitted here, "
           "or its results were read already)",
           la_describe(L, 2, buf, sizeof buf));
  return 0;
}

/* astar.workers([n]) -> pool of n threads (default: one per core) */
static int l_workers(lua_State *L) {
  int n, st;
  lpool *p;
  lw_anchor *a;
  if (lua_isnoneornil(L, 1))
    n = astar_cpu_count();
  else
    n = (int)la_int(L, 1, "workers", "n", 1, ASTAR_MAX_WORKERS,
                    "must be an integer in");
  lua_settop(L, 1);
  p = (lpool *)lua_newuserdata(L, sizeof(lpool));
  memset(p, 0, sizeof *p);
  p->closed = 1;
  p->next_id = 1;
  luaL_getmetatable(L, WORKERS_MT);
  lua_setmetatable(L, -2);
  lua_getfield(L, LUA_REGISTRYINDEX, ANCHOR_KEY);
  a = (lw_anchor *)lua_touserdata(L, -1);
  lua_pop(L, 1);
  st = astar_workers_new(&p->w, n, lsn_sys_alloc, NULL);
  if (st == ASTAR_ENOMEM) la_raise(L, st, "workers");
  if (st != ASTAR_OK)
    luaL_error(L, "workers: could not start %d threads", n);
  p->closed = 0;
  if (a != NULL) { /* closed by the anchor at lua_close, if not before */
    p->anchor = a;
    p->next = a->pools;
    if (p->next != NULL) p->next->prev = p;
    a->pools = p;
  }
  return 1;
}

/* pool:submit(snapshot, queries [, options]) -> batch id */
static int w_submit(lua_State *L) {
  lpool *p = check_pool(L, "submit");
  lsnap *s = lsn_check(L, 2, "submit");
  const astar_grid *g = astar_snapshot_grid(s->snap);
  astar_query q;
  lholder *h;
  lpend *e;
  lua_settop(L, 4);
  h = lw_push_holder(L); /* the map lives as long as the batch */
  astar_snapshot_retain(s->snap);
  h->s = s->snap;
  lq_batch_options(L, 4, "submit", g, 2, &q);
  la_table(L, 3, "submit", "queries");
  lw_read_queries(L, 3, "submit", g, &q, h);
  (void)lsn_core(L, s, "submit"); /* Lua code may have closed it */
  if (p->closed) luaL_error(L, "submit: the worker pool is closed");
  if (p->npend == p->cap) {
    size_t cap = p->cap ? p->cap * 2u : 8u;
    lpend *np = (lpend *)realloc(p->pend, cap * sizeof(lpend));
    if (np == NULL) {
      la_raise(L, ASTAR_ENOMEM, "submit");
      return 0; /* not reached */
    }
    p->pend = np;
    p->cap = cap;
  }
  if (astar_workers_submit(p->w, h->b) != ASTAR_OK)
    luaL_error(L, "submit: the worker pool is closed");
  e = &p->pend[p->npend++];
  e->id = p->next_id++;
  e->b = h->b;
  e->s = h->s;
  h->b = NULL; /* the pool's now */
  h->s = NULL;
  lua_pushinteger(L, e->id);
  return 1;
}

/* pool:done(id) -> boolean */
static int w_done(lua_State *L) {
  lpool *p = check_pool(L, "done");
  size_t i = find_batch(L, p, "done");
  lua_pushboolean(L, astar_workers_done(p->w, p->pend[i].b));
  return 1;
}

/* pool:wait(id) */
static int w_wait(lua_State *L) {
  lpool *p = check_pool(L, "wait");
  size_t i = find_batch(L, p, "wait");
  astar_workers_wait(p->w, p->pend[i].b);
  return 0;
}

/* pool:results(id [, out]) -> results table (waits for the batch; the
 * batch is forgotten after) */
static int w_results(lua_State *L) {
  char buf[64];
  lpool *p = check_pool(L, "results");
  int t = lua_type(L, 3), st, paths;
  size_t i;
  lholder *h;
  uint32_t where;
  if (t != LUA_TNONE && t != LUA_TNIL && t != LUA_TTABLE)
    return la_error(L, 3, "results", "out must be a table, got %s",
                    la_describe(L, 3, buf, sizeof buf));
  lua_settop(L, 4);
  paths = read_options(L, 4, "results");
  i = find_batch(L, p, "results");
  h = lw_push_holder(L);
  astar_workers_wait(p->w, p->pend[i].b);
  h->b = p->pend[i].b; /* the holder's now: nothing of the pool is read */
  h->s = p->pend[i].s;
  p->pend[i] = p->pend[--p->npend];
  st = astar_batch_status(h->b, &where);
  if (st == ASTAR_ENOMEM)
    luaL_error(L, "results: not enough memory (query %d of the batch)",
               (int)where + 1);
  if (st != ASTAR_OK)
    luaL_error(L, "results: query %d of the batch failed (internal error "
               "%d)", (int)where + 1, st);
  lw_push_results(L, h->b, t == LUA_TTABLE ? 3 : 0, paths);
  if (paths == PATHS_KEPT) { /* one string for every path, read later */
    lua_pushliteral(L, "paths");
    lw_push_packed(L, h->b);
    lua_rawset(L, -3);
  }
  lw_holder_free(h);
  return 1;
}

/* pool:threads() -> number of threads */
static int w_threads(lua_State *L) {
  lpool *p = check_pool(L, "threads");
  lua_pushinteger(L, astar_workers_count(p->w));
  return 1;
}

/* pool:close(): cancels what is queued, waits for the queries running,
 * joins the threads; batches not read are gone.  Safe to call twice. */
static int w_close(lua_State *L) {
  char buf[64];
  lpool *p = to_pool(L, 1);
  if (p == NULL)
    return la_error(L, 1, "close", "worker pool expected, got %s",
                    la_describe(L, 1, buf, sizeof buf));
  pool_close(p);
  return 0;
}

static int w_gc(lua_State *L) {
  lpool *p = to_pool(L, 1);
  if (p != NULL) pool_close(p);
  return 0;
}

static int w_is_closed(lua_State *L) {
  char buf[64];
  lpool *p = to_pool(L, 1);
  if (p == NULL)
    return la_error(L, 1, "is_closed", "worker pool expected, got %s",
                    la_describe(L, 1, buf, sizeof buf));
  lua_pushboolean(L, p->closed);
  return 1;
}

static int w_tostring(lua_State *L) {
  lpool *p = to_pool(L, 1);
  if (p == NULL || p->closed)
    lua_pushliteral(L, "astar.Workers (closed)");
  else
    lua_pushfstring(L, "astar.Workers (%d threads)",
                    astar_workers_count(p->w));
  return 1;
}

const luaL_Reg lw_pool_methods[] = {
    {"submit", w_submit},   {"done", w_done},
    {"wait", w_wait},       {"results", w_results},
    {"threads", w_threads}, {"close", w_close},
    {"is_closed", w_is_closed}, {NULL, NULL}};

const luaL_Reg lw_pool_meta[] = {
    {"__gc", w_gc},
    {"__tostring", w_tostring},
#if LUA_VERSION_NUM >= 504
    {"__close", w_gc},
#endif
    {NULL, NULL}};

const luaL_Reg lw_holder_meta[] = {{"__gc", holder_gc}, {NULL, NULL}};

const luaL_Reg lw_module_functions[] = {
    {"workers", l_workers},
    {"unpack_paths", l_unpack_paths},
    {"_packed_path", l_packed_path},
    {NULL, NULL}};

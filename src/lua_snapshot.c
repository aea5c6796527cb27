/*
 * The Snapshot type: grid:snapshot([units]), astar.attach(token) and the
 * snapshot's methods (find_path and next_step live in lua_query.c with
 * the grid's; find_paths packs a batch into one string for a channel).
 *
 * A Snapshot userdata is one holder of a core snapshot (src/snapshot.c),
 * which is shared between states and threads and freed by the last
 * holder (lua_tokens.c).  Its memory is malloc'd, not the state's: it
 * outlives the state that made it when another state attached it.  Each
 * userdata has a search context of its own, so two states searching one
 * snapshot never share scratch.  The unit names travel with the snapshot
 * as bytes (its meta: 32 NUL-ended names, by id); each userdata rebuilds
 * its names table (user value field `unit`, as a grid keeps it) from
 * them.
 */
#include "astar.h"
#include "compat.h"
#include "lua_args.h"
#include "lua_grid.h"
#include "lua_snapshot.h"

#include <lauxlib.h>
#include <lua.h>
#include <stdlib.h>
#include <string.h>

void *lsn_sys_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  (void)ud;
  (void)osize;
  if (nsize == 0) {
    free(ptr);
    return NULL;
  }
  return realloc(ptr, nsize);
}

/* ---- the userdata ---- */

lsnap *lsn_to_snap(lua_State *L, int idx) {
  lsnap *s = (lsnap *)lua_touserdata(L, idx);
  if (s == NULL || !lua_getmetatable(L, idx)) return NULL;
  luaL_getmetatable(L, SNAP_MT);
  if (!lua_rawequal(L, -1, -2)) s = NULL;
  lua_pop(L, 2);
  return s;
}

lsnap *lsn_check(lua_State *L, int arg, const char *fname) {
  char buf[64];
  lsnap *s = lsn_to_snap(L, arg);
  if (s == NULL) {
    la_error(L, arg, fname, "snapshot expected, got %s",
             la_describe(L, arg, buf, sizeof buf));
    return NULL; /* not reached */
  }
  (void)lsn_core(L, s, fname);
  return s;
}

const astar_grid *lsn_core(lua_State *L, lsnap *s, const char *fname) {
  if (s->closed || s->snap == NULL)
    luaL_error(L, "%s: the snapshot is closed", fname);
  if (s->busy)
    luaL_error(L, "%s: the snapshot is busy (called from inside one of its "
               "own methods)", fname);
  return astar_snapshot_grid(s->snap);
}

static void release(lsnap *s) {
  astar_snapshot *snap = s->snap;
  s->snap = NULL;
  s->closed = 1;
  astar_search_release(&s->ctx);
  lk_release(snap);
}

void lsn_enter(lsnap *s) { s->busy++; }

void lsn_leave(lsnap *s) {
  if (--s->busy == 0 && s->closed) release(s);
}

/* snap:close(), __close: at once when idle, else when the method leaves */
static int s_close(lua_State *L) {
  char buf[64];
  lsnap *s = lsn_to_snap(L, 1);
  if (s == NULL)
    return la_error(L, 1, "close", "snapshot expected, got %s",
                    la_describe(L, 1, buf, sizeof buf));
  s->closed = 1;
  if (s->busy == 0) release(s);
  return 0;
}

/* __gc: a snapshot's method still running can only be one that
 * lua_close interrupted for good, so the hold goes now. */
static int s_gc(lua_State *L) {
  lsnap *s = lsn_to_snap(L, 1);
  if (s != NULL) {
    s->busy = 0;
    release(s);
  }
  return 0;
}

#if LUA_VERSION_NUM >= 504
/* __close: as close, never an error */
static int s_close_meta(lua_State *L) {
  lsnap *s = lsn_to_snap(L, 1);
  if (s != NULL) {
    s->closed = 1;
    if (s->busy == 0) release(s);
  }
  return 0;
}
#endif

static int s_is_closed(lua_State *L) {
  char buf[64];
  lsnap *s = lsn_to_snap(L, 1);
  if (s == NULL)
    return la_error(L, 1, "is_closed", "snapshot expected, got %s",
                    la_describe(L, 1, buf, sizeof buf));
  lua_pushboolean(L, s->closed);
  return 1;
}

static int s_tostring(lua_State *L) {
  lsnap *s = lsn_to_snap(L, 1);
  if (s == NULL || s->closed || s->snap == NULL) {
    lua_pushliteral(L, "astar.Snapshot (closed)");
    return 1;
  }
  lua_pushfstring(L, "astar.Snapshot (%d x %d)", (int)s->snap->grid.width,
                  (int)s->snap->grid.height);
  return 1;
}

/* Pushes a new Snapshot userdata, closed until it holds a snapshot. */
static lsnap *push_snap(lua_State *L) {
  lsnap *s = (lsnap *)compat_newuserdata(L, sizeof(lsnap));
  memset(s, 0, sizeof *s);
  s->closed = 1;
  astar_search_init(&s->ctx, lsn_sys_alloc, NULL);
  luaL_getmetatable(L, SNAP_MT);
  lua_setmetatable(L, -2);
  return s;
}

/* The names table of the meta bytes into the user value of the snapshot
 * on top: {name = id, [id] = name}. */
static void set_names(lua_State *L, const astar_snapshot *snap) {
  const char *p = (const char *)snap->meta;
  size_t left = snap->meta_size;
  int id;
  lua_createtable(L, 0, 1);
  lua_createtable(L, ASTAR_MAX_UNITS, ASTAR_MAX_UNITS);
  for (id = 0; id < ASTAR_MAX_UNITS && left > 0; id++) {
    size_t len = strlen(p);
    if (len >= left) break;
    if (len > 0) {
      lua_pushlstring(L, p, len);
      lua_pushinteger(L, id);
      lua_rawset(L, -3);
      lua_pushlstring(L, p, len);
      lua_rawseti(L, -2, id);
    }
    p += len + 1;
    left -= len + 1;
  }
  lua_setfield(L, -2, "unit");
  compat_setuservalue(L, -2);
}

/* Tells the collector of bytes it cannot see (a step sized by them). */
static void account(lua_State *L, size_t bytes) {
  size_t kb = bytes / 1024u;
  lua_gc(L, LUA_GCSTEP, kb > 0x7FFFFFF ? 0x7FFFFFF : (int)kb);
}

void lsn_report(lua_State *L, lsnap *s) {
  size_t now;
  if (s->closed || s->snap == NULL) return;
  now = astar_search_memory(&s->ctx);
  if (now > s->reported + (size_t)64 * 1024) {
    size_t grown = now - s->reported;
    s->reported = now;
    account(L, grown);
  }
}

/* grid:snapshot([units]) -> snapshot */
static int g_snapshot(lua_State *L) {
  char buf[64];
  lgrid *ud = lg_check(L, "snapshot");
  int ids[ASTAR_MAX_UNITS], nids = 0, names, id, st;
  luaL_Buffer b;
  const char *meta;
  size_t meta_size;
  astar_snapshot *snap;
  lsnap *s;
  lua_settop(L, 2);
  if (!lua_isnil(L, 2)) {
    size_t n, i;
    if (lua_type(L, 2) != LUA_TTABLE)
      la_error(L, 2, "snapshot", "units must be a list of unit class names, "
               "got %s", la_describe(L, 2, buf, sizeof buf));
    n = compat_rawlen(L, 2);
    for (i = 1; i <= n; i++) {
      int k, seen = 0;
      lua_rawgeti(L, 2, (int)i);
      id = lt_unit_id(L, lua_gettop(L), 2, "snapshot", 1);
      lua_pop(L, 1);
      for (k = 0; k < nids; k++) seen |= ids[k] == id;
      if (!seen) ids[nids++] = id;
    }
  }
  /* the unit names by id, as bytes that travel with the snapshot */
  lt_push_names(L, 1, "unit");
  names = lua_gettop(L);
  luaL_buffinit(L, &b);
  for (id = 0; id < ASTAR_MAX_UNITS; id++) {
    lua_rawgeti(L, names, id);
    if (lua_type(L, -1) == LUA_TSTRING) {
      size_t len;
      const char *nm = lua_tolstring(L, -1, &len);
      if (strlen(nm) == len) luaL_addlstring(&b, nm, len);
    }
    lua_pop(L, 1);
    luaL_addchar(&b, '\0');
  }
  luaL_pushresult(&b);
  meta = lua_tolstring(L, -1, &meta_size);
  s = push_snap(L);
  /* Lua code may have run (finalizers): the grid is taken only now */
  st = astar_snapshot_new(&snap, lg_core(L, ud, "snapshot"),
                          lua_isnil(L, 2) ? NULL : ids, nids, meta,
                          meta_size, lsn_sys_alloc, NULL);
  if (st != ASTAR_OK) la_raise(L, st, "snapshot");
  s->snap = snap;
  s->closed = 0;
  set_names(L, snap);
  account(L, snap->bytes);
  lg_report(L, ud); /* prepare may have grown the grid (zones) */
  return 1;
}

/* astar.attach(token) -> snapshot */
static int l_attach(lua_State *L) {
  char buf[64];
  size_t len;
  const char *tok;
  astar_snapshot *snap;
  lsnap *s;
  int st;
  if (lua_type(L, 1) != LUA_TSTRING)
    return la_error(L, 1, "attach", "token must be a string, got %s",
                    la_describe(L, 1, buf, sizeof buf));
  tok = lua_tolstring(L, 1, &len);
  lua_settop(L, 1);
  s = push_snap(L);
  st = lk_attach(tok, len, &snap);
  switch (st) {
  case LK_OK: break;
  case LK_OTHER_PROCESS:
    return la_error(L, 1, "attach", "a token of another process (or of "
                    "another copy of the module)");
  case LK_RELEASED:
    return la_error(L, 1, "attach", "the snapshot of this token was "
                    "released (no state holds it any more)");
  default:
    return la_error(L, 1, "attach", "not a snapshot token: %s",
                    la_describe(L, 1, buf, sizeof buf));
  }
  s->snap = snap;
  s->closed = 0;
  set_names(L, snap);
  account(L, snap->bytes);
  return 1;
}

/* snap:token() -> string */
static int s_token(lua_State *L) {
  lsnap *s = lsn_check(L, 1, "token");
  char tok[LK_TOKEN_SIZE];
  if (lk_token(s->snap, tok, sizeof tok) != LK_OK)
    la_raise(L, ASTAR_ENOMEM, "token");
  lua_pushstring(L, tok);
  return 1;
}

static int s_size(lua_State *L) {
  const astar_grid *g = lsn_core(L, lsn_check(L, 1, "size"), "size");
  lua_pushinteger(L, g->width);
  lua_pushinteger(L, g->height);
  return 2;
}

/* snap:version() -> the grid's edit counter when the snapshot was made */
static int s_version(lua_State *L) {
  const astar_grid *g = lsn_core(L, lsn_check(L, 1, "version"), "version");
  lua_pushnumber(L, (lua_Number)g->version);
  return 1;
}

/* snap:memory() -> bytes of the shared copy and this holder's context */
static int s_memory(lua_State *L) {
  lsnap *s = lsn_check(L, 1, "memory");
  size_t n = s->snap->bytes + astar_search_memory(&s->ctx);
  lua_pushinteger(L, (lua_Integer)n);
  return 1;
}

/* snap:find_paths(queries [, options]) -> packed string */
static int s_find_paths(lua_State *L) {
  lsnap *s = lsn_check(L, 1, "find_paths");
  const astar_grid *g = astar_snapshot_grid(s->snap);
  astar_query q;
  lholder *h;
  uint32_t where;
  int st;
  lua_settop(L, 3);
  h = lw_push_holder(L);
  astar_snapshot_retain(s->snap); /* the map lives as long as the batch */
  h->s = s->snap;
  lq_batch_options(L, 3, "find_paths", g, 1, &q);
  la_table(L, 2, "find_paths", "queries");
  lw_read_queries(L, 2, "find_paths", g, &q, h);
  (void)lsn_core(L, s, "find_paths"); /* still open: its context is used */
  astar_batch_run(h->b, &s->ctx);
  st = astar_batch_status(h->b, &where);
  if (st == ASTAR_ENOMEM) la_raise(L, st, "find_paths");
  if (st != ASTAR_OK)
    luaL_error(L, "find_paths: query %d failed (internal error %d)",
               (int)where + 1, st);
  lw_push_packed(L, h->b);
  lw_holder_free(h);
  lsn_report(L, s);
  return 1;
}

const luaL_Reg lsn_snap_methods[] = {
    {"find_paths", s_find_paths},
    {"token", s_token},
    {"size", s_size},
    {"version", s_version},
    {"memory", s_memory},
    {"close", s_close},
    {"is_closed", s_is_closed},
    {NULL, NULL}};

const luaL_Reg lsn_snap_meta[] = {
    {"__gc", s_gc},
    {"__tostring", s_tostring},
#if LUA_VERSION_NUM >= 504
    {"__close", s_close_meta},
#endif
    {NULL, NULL}};

const luaL_Reg lsn_grid_methods[] = {{"snapshot", g_snapshot}, {NULL, NULL}};
const luaL_Reg lsn_module_functions[] = {{"attach", l_attach}, {NULL, NULL}};

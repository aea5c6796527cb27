/*
 * Paths that stay valid, the Lua side: grid:path_ok, grid:path_cost and
 * grid:repair (the core's path_check.c).  A path comes in as the flat
 * list find_path returns, {x1, y1, x2, y2, ...}; it is read raw (no Lua
 * code runs) into a buffer the grid keeps, so a check makes no garbage.
 *
 * Order of work, as in lua_query.c: read the arguments and options (Lua
 * code may run), take the map (lg_core), read the path and the overlays
 * raw, check or search, and write a new path out under
 * lg_protected_call with the grid busy.
 */
#include "astar.h"
#include "compat.h"
#include "lua_args.h"
#include "lua_grid.h"

#include <lauxlib.h>
#include <lua.h>
#include <limits.h>
#include <math.h>
#include <string.h>

static const char *const check_keys[] = {"unit", "avoid", "extra_cost",
                                         NULL};
static const char *const repair_keys[] = {"unit", "avoid", "extra_cost",
                                          "max_nodes", "stats", "zones",
                                          NULL};
static const char *const outcome_names[] = {
    "found", "no_path", "start_blocked", "goal_blocked", "cutoff", "running"};
#define READ_BATCH 32 /* numbers read before the stack is popped */

static const char *const how_names[] = {"kept", "rejoined", "searched"};

/* What the options of a check or a repair give. */
typedef struct lp_options {
  astar_query q;
  int avoid, extra, stats;
  double budget; /* repair: max_nodes, 0 when absent */
} lp_options;

static void path_table(lua_State *L, int arg, const char *fname) {
  char buf[64];
  if (lua_type(L, arg) != LUA_TTABLE)
    la_error(L, arg, fname, "path must be a table {x1, y1, x2, y2, ...}, "
             "got %s", la_describe(L, arg, buf, sizeof buf));
}

/* A tile index argument: an integer >= 1 (its upper bound is checked once
 * the path is read). */
static double index_arg(lua_State *L, int arg, const char *fname,
                        const char *name, double dflt) {
  char buf[64];
  double v;
  if (lua_isnoneornil(L, arg) && dflt > 0) return dflt;
  v = lua_type(L, arg) == LUA_TNUMBER ? (double)lua_tonumber(L, arg) : NAN;
  if (!(v == floor(v) && v >= 1 && v <= 2147483647.0))
    la_error(L, arg, fname, "%s must be an integer >= 1, got %s", name,
             la_describe(L, arg, buf, sizeof buf));
  return v;
}

static void read_options(lua_State *L, int arg, const char *fname,
                         const char *const keys[], lp_options *o) {
  char buf[64];
  memset(o, 0, sizeof *o);
  astar_query_defaults(&o->q);
  if (!la_options(L, arg, fname, keys)) return;
  o->q.unit = lt_unit_option(L, arg, fname, 1);
  if (keys == repair_keys) {
    double v;
    lua_getfield(L, arg, "max_nodes");
    if (!lua_isnil(L, -1)) {
      v = lua_type(L, -1) == LUA_TNUMBER ? (double)lua_tonumber(L, -1) : NAN;
      if (!(v == floor(v) && v >= 1 && v <= 2147483647.0))
        la_error(L, arg, fname, "max_nodes must be an integer in [1, "
                 "2147483647], got %s", la_describe(L, -1, buf, sizeof buf));
      o->budget = v;
    }
    lua_pop(L, 1);
    lua_getfield(L, arg, "zones");
    if (!lua_isnil(L, -1)) {
      if (lua_type(L, -1) != LUA_TBOOLEAN)
        la_error(L, arg, fname, "zones must be a boolean, got %s",
                 la_describe(L, -1, buf, sizeof buf));
      o->q.no_zones = !lua_toboolean(L, -1);
    }
    lua_pop(L, 1);
    o->stats = la_typed_option(L, arg, fname, "stats", LUA_TTABLE);
  }
  lq_overlay_tables(L, arg, fname, &o->avoid, &o->extra);
}

/* The path at arg, read raw into the grid's path buffer (*n tiles). */
static int32_t *read_path(lua_State *L, int arg, const char *fname,
                          lgrid *ud, size_t *n) {
  const astar_grid *g = &ud->g;
  char buf[64];
  size_t len = compat_rawlen(L, arg), i;
  int32_t *xy;
  if (len == 0 || len % 2 != 0)
    la_error(L, arg, fname, "path must hold x, y pairs (a positive even "
             "count of numbers), got %.0f numbers", (double)len);
  if (len > (size_t)INT_MAX - 2)
    la_error(L, arg, fname, "path: too long (%.0f numbers)", (double)len);
  xy = (int32_t *)lg_buffer(L, ud, LG_BUF_PATH, len * sizeof(int32_t));
  luaL_checkstack(L, READ_BATCH + 4, fname);
  /* in batches, popped at once: the Lua API calls per number are most of
   * the cost of a check */
  for (i = 0; i < len; i += READ_BATCH) {
    size_t m = len - i, j;
    int top = lua_gettop(L);
    if (m > READ_BATCH) m = READ_BATCH;
    for (j = 0; j < m; j++) {
      size_t e = i + j, tile = e / 2 + 1;
      int32_t hi = e % 2 == 0 ? g->width : g->height, v = 0;
      double c = NAN;
      if (compat_rawgeti_type(L, arg, (int)(e + 1)) == LUA_TNUMBER)
        c = (double)lua_tonumber(L, -1);
      if (c >= 1 && c <= hi) v = (int32_t)c;
      if (v == 0 || (double)v != c)
        la_error(L, arg, fname, "path[%.0f] (%s of tile %.0f) must be an "
                 "integer in 1..%d, got %s", (double)(e + 1),
                 e % 2 == 0 ? "x" : "y", (double)tile, (int)hi,
                 la_describe(L, -1, buf, sizeof buf));
      xy[e] = v - 1;
    }
    lua_settop(L, top);
  }
  *n = len / 2;
  return xy;
}

static size_t check_index(lua_State *L, int arg, const char *fname,
                          const char *name, double v, size_t n) {
  if (v > (double)n)
    la_error(L, arg, fname, "%s out of range 1..%.0f, got %.0f", name,
             (double)n, v);
  return (size_t)v - 1;
}

/* Takes the map, reads the path and the overlays, prepares the unit. */
static int32_t *take(lua_State *L, const char *fname, lgrid *ud,
                     lp_options *o, int oarg, size_t *n, unsigned what) {
  astar_grid *g = lg_core(L, ud, fname);
  int32_t *xy = read_path(L, 2, fname, ud, n);
  lq_overlay_fill(L, oarg, fname, ud, &o->q, o->avoid, o->extra);
  lg_prepare(L, g, o->q.unit, what, fname);
  return xy;
}

static void check(lua_State *L, const char *fname, lgrid *ud,
                  const lp_options *o, const int32_t *xy, size_t n,
                  size_t from, astar_path_report *rep) {
  int st;
  rep->acc = NULL;
  st = astar_path_check(&ud->ctx, &ud->g, &o->q, xy, n, from, rep);
  if (st != ASTAR_OK) la_raise(L, st, fname);
}

/* grid:path_ok(path [, from_index [, options]]) -> true | false, index */
static int g_path_ok(lua_State *L) {
  lgrid *ud = lg_check(L, "path_ok");
  lp_options o;
  astar_path_report rep;
  size_t n, from;
  double v;
  int32_t *xy;
  lua_settop(L, 4);
  path_table(L, 2, "path_ok");
  v = index_arg(L, 3, "path_ok", "from_index", 1);
  read_options(L, 4, "path_ok", check_keys, &o);
  xy = take(L, "path_ok", ud, &o, 4, &n, 0);
  from = check_index(L, 3, "path_ok", "from_index", v, n);
  check(L, "path_ok", ud, &o, xy, n, from, &rep);
  lg_report(L, ud);
  if (rep.bad == n) {
    lua_pushboolean(L, 1);
    return 1;
  }
  lua_pushboolean(L, 0);
  lua_pushinteger(L, (lua_Integer)rep.bad + 1);
  return 2;
}

/* grid:path_cost(path [, options]) -> cost | nil, index */
static int g_path_cost(lua_State *L) {
  lgrid *ud = lg_check(L, "path_cost");
  lp_options o;
  astar_path_report rep;
  size_t n;
  int32_t *xy;
  lua_settop(L, 3);
  path_table(L, 2, "path_cost");
  read_options(L, 3, "path_cost", check_keys, &o);
  xy = take(L, "path_cost", ud, &o, 3, &n, 0);
  check(L, "path_cost", ud, &o, xy, n, 0, &rep);
  lg_report(L, ud);
  if (rep.bad == n) {
    lua_pushnumber(L, (lua_Number)rep.cost);
    return 1;
  }
  lua_pushnil(L);
  lua_pushinteger(L, (lua_Integer)rep.bad + 1);
  return 2;
}

/* ---- repair ---- */

typedef struct lp_write {
  lgrid *ud;
  const int32_t *xy;
  size_t n, at;
  astar_repair rep;
} lp_write;

static void put(lua_State *L, lua_Integer i, int32_t x, int32_t y) {
  lua_pushinteger(L, x + 1);
  lua_rawseti(L, -2, (int)(2 * i - 1));
  lua_pushinteger(L, y + 1);
  lua_rawseti(L, -2, (int)(2 * i));
}

/* In protected mode, the grid busy: the new path into the table at 1 (or
 * a new one), what is left of an older, longer list cleared. */
static int write_repair(lua_State *L, void *p) {
  lp_write *w = (lp_write *)p;
  const astar_search *s = &w->ud->ctx;
  size_t lead = w->n - w->at, head = 0, tail_from = w->n, i, total, before;
  lua_Integer len, k;
  /* lead: the old path's tiles from at on; head: the search's path; then
   * the old path from tail_from on */
  if (w->rep.how == ASTAR_REPAIR_REJOINED) {
    lead = w->rep.leave - w->at;
    head = w->rep.r.length;
    tail_from = w->rep.rejoin + 1;
  } else if (w->rep.how == ASTAR_REPAIR_FRESH) {
    lead = 0;
    head = w->rep.r.length;
  }
  total = lead + head + (w->n - tail_from);
  before = lead + head;
  len = (lua_Integer)total;
  if (len > INT_MAX / 2 - 2) luaL_error(L, "repair: path too long");
  if (lua_istable(L, 1))
    lua_pushvalue(L, 1);
  else
    lua_createtable(L, (int)(2 * len), 0);
  for (i = 0; i < lead; i++)
    put(L, (lua_Integer)i + 1, w->xy[2 * (w->at + i)],
        w->xy[2 * (w->at + i) + 1]);
  if (head > 0) { /* the search's path, walked from its end */
    uint32_t node = astar_path_last(s);
    k = (lua_Integer)before;
    do {
      int32_t x, y;
      astar_xy(&w->ud->g, node, &x, &y);
      put(L, k--, x, y);
    } while (k > (lua_Integer)lead && astar_path_prev(s, &node));
  }
  k = (lua_Integer)before;
  for (i = tail_from; i < w->n; i++)
    put(L, ++k, w->xy[2 * i], w->xy[2 * i + 1]);
  /* what is left of an older, longer list */
  for (k = 2 * len + 1;; k++) {
    lua_rawgeti(L, -1, (int)k);
    if (lua_isnil(L, -1)) break;
    lua_pop(L, 1);
    lua_pushnil(L);
    lua_rawseti(L, -2, (int)k);
  }
  lua_pop(L, 1);
  return 1;
}

static void repair_stats(lua_State *L, int t, const lp_write *w) {
  const astar_repair *r = &w->rep;
  lua_pushinteger(L, (lua_Integer)r->expanded);
  lua_setfield(L, t, "expanded");
  lua_pushstring(L, how_names[r->how]);
  lua_setfield(L, t, "how");
  lua_pushstring(L, r->how == ASTAR_REPAIR_FRESH
                        ? outcome_names[r->r.outcome]
                        : "found");
  lua_setfield(L, t, "status");
  if (r->bad < w->n)
    lua_pushinteger(L, (lua_Integer)r->bad + 1);
  else
    lua_pushnil(L);
  lua_setfield(L, t, "bad");
  if (r->how == ASTAR_REPAIR_REJOINED)
    lua_pushinteger(L, (lua_Integer)r->rejoin + 1);
  else
    lua_pushnil(L);
  lua_setfield(L, t, "rejoin");
  if (r->how == ASTAR_REPAIR_REJOINED)
    lua_pushinteger(L, (lua_Integer)r->leave + 1);
  else
    lua_pushnil(L);
  lua_setfield(L, t, "leave");
}

/* grid:repair(path, at_index [, options [, out]])
 *   -> path, cost, how | nil, reason */
static int g_repair(lua_State *L) {
  char buf[64];
  lgrid *ud = lg_check(L, "repair");
  lp_options o;
  lp_write w;
  lg_pcall pc;
  double v;
  uint32_t budget;
  int st, t = lua_type(L, 5), found;
  lua_settop(L, 5);
  path_table(L, 2, "repair");
  v = index_arg(L, 3, "repair", "at_index", 0);
  if (t != LUA_TNONE && t != LUA_TNIL && t != LUA_TTABLE)
    la_error(L, 5, "repair", "out must be a table, got %s",
             la_describe(L, 5, buf, sizeof buf));
  read_options(L, 4, "repair", repair_keys, &o);
  memset(&w, 0, sizeof w);
  w.ud = ud;
  w.xy = take(L, "repair", ud, &o, 4, &w.n,
              o.q.no_zones ? 0u : ASTAR_PREPARE_ZONES);
  w.at = check_index(L, 3, "repair", "at_index", v, w.n);
  /* the detour's budget: as many expansions as tiles are left, and a
   * little more; a fresh search expands at least about that many */
  budget = o.budget > 0 ? (uint32_t)o.budget
           : (w.n - w.at) > (UINT32_MAX - 64) / 2
               ? UINT32_MAX
               : (uint32_t)(2 * (w.n - w.at) + 64);
  luaL_checkstack(L, 16, "repair");
  lg_enter(ud);
  st = astar_path_repair(&ud->ctx, &ud->g, &o.q, w.xy, w.n, w.at, budget,
                         &w.rep);
  if (st != ASTAR_OK) {
    lg_leave(ud);
    la_raise(L, st, "repair");
  }
  found = w.rep.how != ASTAR_REPAIR_FRESH || w.rep.r.outcome == ASTAR_FOUND;
  if (found) {
    lg_protect(L, &pc, write_repair, &w);
    lua_pushvalue(L, 5);
    st = lg_protected_call(L, 1, 1);
    lg_leave(ud);
    if (st != 0) lua_error(L);
  } else {
    lg_leave(ud);
  }
  if (o.stats != 0) repair_stats(L, o.stats, &w);
  if (!found) {
    lua_pushnil(L);
    lua_pushstring(L, outcome_names[w.rep.r.outcome]);
    lg_report(L, ud);
    return 2;
  }
  lua_pushnumber(L, (lua_Number)w.rep.cost);
  lua_pushstring(L, how_names[w.rep.how]);
  lg_report(L, ud);
  return 3;
}

const luaL_Reg lp_grid_methods[] = {
    {"path_ok", g_path_ok},
    {"path_cost", g_path_cost},
    {"repair", g_repair},
    {NULL, NULL}};
const char *const *const lp_check_keys = check_keys;
const char *const *const lp_repair_keys = repair_keys;

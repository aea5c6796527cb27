/*
 * Running a query: grid:find_path and grid:next_step (and the same two on
 * a snapshot), next_step's remembered path, the one callback bridge
 * between the core's hooks and Lua functions, the one raise path for what
 * went wrong, the stats table and the read-out of the path and the
 * explored tiles.  Reading a query's arguments and options is in
 * lua_query_options.c.
 *
 * Order of work in a query: read every argument (Lua code may run: option
 * tables with metamethods, finalizers), then take the map (lg_core),
 * prepare it, search with the grid busy, read the path out under
 * lg_protected_call, leave, and only then fill the stats table (its
 * __newindex may do anything, the answer is on the stack already).
 * Callbacks run under lua_pcall: the core is told to stop (it never sees
 * a longjmp), unwinds, and then the error is raised again with its
 * original value.
 */
#include "astar.h"
#include "compat.h"
#include "lua_args.h"
#include "lua_grid.h"
#include "lua_query.h"
#include "lua_snapshot.h"

#include <lauxlib.h>
#include <lua.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define CALLBACK_RULE "a positive finite number or false"

const char *const lq_outcome_names[] = {
    "found", "no_path", "start_blocked", "goal_blocked", "cutoff", "running"};

/* ---- the callback bridge ---- */

static int room(lq_query *Q) {
  if (lua_checkstack(Q->L, 8)) return 1;
  snprintf(Q->msg, sizeof Q->msg, "callbacks nest too deep (no room on "
           "the Lua stack)");
  Q->bad = 1;
  return 0;
}

/* Calls the function at stack index fn with the n values on top; on
 * success takes its number result into *v (any type check is the
 * caller's: the result stays on top).  ASTAR_OK, or -1 with Q->failed and
 * the error on top. */
static int call(lq_query *Q, int n) {
  if (lua_pcall(Q->L, n, 1, 0) != 0) {
    Q->failed = 1;
    return -1;
  }
  return ASTAR_OK;
}

/* Takes a cost callback's result off the stack into *out (0: impassable). */
static int take_cost(lq_query *Q, double *out, const char *name,
                     const char *where) {
  lua_State *L = Q->L;
  char buf[64];
  if (lua_type(L, -1) == LUA_TNUMBER &&
      astar_cost_ok((double)lua_tonumber(L, -1))) {
    *out = (double)lua_tonumber(L, -1);
  } else if (lua_type(L, -1) == LUA_TBOOLEAN && !lua_toboolean(L, -1)) {
    *out = 0.0;
  } else {
    snprintf(Q->msg, sizeof Q->msg, "%s returned %s for %s; expected "
             CALLBACK_RULE, name, la_describe(L, -1, buf, sizeof buf), where);
    Q->bad = 1;
    lua_pop(L, 1);
    return -1;
  }
  lua_pop(L, 1);
  return ASTAR_OK;
}

int lq_tile_hook(void *ud, int32_t x, int32_t y, double cost,
                     double *out) {
  lq_query *Q = (lq_query *)ud;
  lua_State *L = Q->L;
  char where[64];
  if (!room(Q)) return -1;
  lua_pushvalue(L, Q->tile);
  lua_pushinteger(L, x + 1);
  lua_pushinteger(L, y + 1);
  lua_pushnumber(L, (lua_Number)cost);
  if (call(Q, 3) != ASTAR_OK) return -1;
  snprintf(where, sizeof where, "tile (%d, %d)", (int)x + 1, (int)y + 1);
  return take_cost(Q, out, "tile_cost", where);
}

int lq_move_hook(void *ud, int32_t x1, int32_t y1, int32_t x2, int32_t y2,
                 double cost, double *out) {
  lq_query *Q = (lq_query *)ud;
  lua_State *L = Q->L;
  char where[80];
  if (!room(Q)) return -1;
  lua_pushvalue(L, Q->move);
  lua_pushinteger(L, x1 + 1);
  lua_pushinteger(L, y1 + 1);
  lua_pushinteger(L, x2 + 1);
  lua_pushinteger(L, y2 + 1);
  lua_pushnumber(L, (lua_Number)cost);
  if (call(Q, 5) != ASTAR_OK) return -1;
  snprintf(where, sizeof where, "the step (%d, %d) -> (%d, %d)", (int)x1 + 1,
           (int)y1 + 1, (int)x2 + 1, (int)y2 + 1);
  return take_cost(Q, out, "move_cost", where);
}

int lq_heuristic_hook(void *ud, int32_t x, int32_t y, int32_t gx,
                      int32_t gy, double *out) {
  lq_query *Q = (lq_query *)ud;
  lua_State *L = Q->L;
  char buf[64];
  if (!room(Q)) return -1;
  lua_pushvalue(L, Q->hfn);
  lua_pushinteger(L, x + 1);
  lua_pushinteger(L, y + 1);
  lua_pushinteger(L, gx + 1);
  lua_pushinteger(L, gy + 1);
  if (call(Q, 4) != ASTAR_OK) return -1;
  if (lua_type(L, -1) == LUA_TNUMBER) {
    double v = (double)lua_tonumber(L, -1);
    if (v >= 0.0 && v <= 1e300) {
      *out = v;
      lua_pop(L, 1);
      return ASTAR_OK;
    }
  }
  snprintf(Q->msg, sizeof Q->msg, "heuristic returned %s for (%d, %d) -> "
           "(%d, %d); expected a finite number >= 0",
           la_describe(L, -1, buf, sizeof buf), (int)x + 1, (int)y + 1,
           (int)gx + 1, (int)gy + 1);
  lua_pop(L, 1);
  Q->bad = 1;
  return -1;
}

/* ---- the one raise path ---- */

/* What the capability table's reasons say (the core has no Lua words). */
const char *lq_refusal_words(int reason) {
  switch (reason) {
  case ASTAR_REFUSE_MOVEMENT:
    return "8-way movement with no corner cutting (diagonals = "
           "'no_corner_cut')";
  case ASTAR_REFUSE_LENGTHS:
    return "a diagonal step length between 1 and 2 cardinal lengths";
  case ASTAR_REFUSE_UNIT: return "a defined unit class";
  case ASTAR_REFUSE_OPTIONS:
    return "none of the options ties, goals, max_cost, max_length, "
           "max_nodes, closest, leave_blocked_start, next_to_blocked_goal, "
           "avoid, extra_cost or a heuristic function";
  case ASTAR_REFUSE_OPTIONS_BUT_NODES:
    return "none of the options ties, goals, max_cost, max_length, "
           "closest, leave_blocked_start, next_to_blocked_goal, avoid, "
           "extra_cost or a heuristic function (max_nodes is fine)";
  case ASTAR_REFUSE_CALLBACKS: return "no cost callbacks (tile_cost, move_cost)";
  case ASTAR_REFUSE_HEIGHTS:
    return "a unit class without a height rule (climb, descend, max_climb, "
           "max_drop)";
  case ASTAR_REFUSE_HEURISTIC: return "the default heuristic";
  case ASTAR_REFUSE_WEIGHT: return "weight 1";
  case ASTAR_REFUSE_UNIFORM: return "uniform tile costs";
  case ASTAR_REFUSE_SQUARE: return "a square grid (not hex)";
  case ASTAR_REFUSE_LINKS: return "a grid without links";
  default: return "its data prepared";
  }
}

/* Raises what a failed search (status st) calls for: a callback's own
 * error as it was raised, a callback's bad result, a cost below the
 * stated bound, or the status's own message.  The grid is idle again. */
void lq_raise_failure(lua_State *L, const char *fname, lq_query *Q, int st) {
  const astar_result *r = &Q->r;
  if (st == ASTAR_ECALLBACK && Q->failed) lua_error(L); /* as raised */
  if (st == ASTAR_ECALLBACK) la_error(L, Q->arg, fname, "%s", Q->msg);
  if (st == ASTAR_EBOUND) {
    if (r->bad_x1 == r->bad_x2 && r->bad_y1 == r->bad_y2)
      la_error(L, Q->arg, fname, "tile_cost returned %.14g for tile (%d, "
               "%d), below the lower bound %.14g that the heuristic assumes "
               "(set min_cost to at most %.14g)", r->bad_cost,
               (int)r->bad_x1 + 1, (int)r->bad_y1 + 1, r->bad_bound,
               r->bad_cost);
    la_error(L, Q->arg, fname, "move_cost returned %.14g for the step (%d, "
             "%d) -> (%d, %d), below the lower bound %.14g that the "
             "heuristic assumes (min_cost times the step's length; lower "
             "min_cost)",
             r->bad_cost, (int)r->bad_x1 + 1, (int)r->bad_y1 + 1,
             (int)r->bad_x2 + 1, (int)r->bad_y2 + 1, r->bad_bound);
  }
  la_raise(L, st, fname);
}

/* ---- stats ---- */

static void set_int(lua_State *L, int t, const char *k, double v) {
  lua_pushinteger(L, (lua_Integer)v);
  lua_setfield(L, t, k);
}

/* Appends x, y (0-based) as t[n + 1], t[n + 2] (1-based); returns n + 2.
 * (Lua 5.1's array indices are ints: a list longer than that would have
 * run out of memory long before.) */
static lua_Integer push_xy(lua_State *L, int t, lua_Integer n, int32_t x,
                           int32_t y) {
  if (n > INT_MAX - 3) luaL_error(L, "explored: too many tiles for a table");
  lua_pushinteger(L, x + 1);
  lua_rawseti(L, t, (int)(n + 1));
  lua_pushinteger(L, y + 1);
  lua_rawseti(L, t, (int)(n + 2));
  return n + 2;
}

void lq_clear_from(lua_State *L, int t, lua_Integer n) {
  /* t[1..n] are set: the length is a border at or past n, and t[n + 1] to
     it are cleared without reading them first (one call each, not three);
     then on up to the first nil, as before, for a table with holes */
  lua_Integer end = (lua_Integer)compat_rawlen(L, t);
  if (end > INT_MAX) end = INT_MAX;
  while (n < end) {
    lua_pushnil(L);
    lua_rawseti(L, t, (int)++n);
  }
  while (n < INT_MAX) {
    lua_rawgeti(L, t, (int)++n);
    if (lua_isnil(L, -1)) break;
    lua_pop(L, 1);
    lua_pushnil(L);
    lua_rawseti(L, t, (int)n);
  }
  lua_pop(L, 1);
}

void lq_fill_stats(lua_State *L, const lq_query *Q, const astar_result *r) {
  const astar_query *q = &Q->q;
  int t = Q->stats;
  int ended = r->outcome == ASTAR_FOUND || r->partial;
  set_int(L, t, "expanded", r->expanded);
  set_int(L, t, "generated", r->generated);
  set_int(L, t, "peak_open", r->peak_open);
  lua_pushstring(L, lq_outcome_names[r->outcome]);
  lua_setfield(L, t, "status");
  if (Q->algorithm != NULL &&
      !(q->algorithm == ASTAR_ALGO_JPS && r->algorithm != ASTAR_ALGO_JPS))
    lua_pushstring(L, Q->algorithm);
  else
    lua_pushstring(L, r->algorithm == ASTAR_ALGO_JPS       ? "jps"
                      : r->algorithm == ASTAR_ALGO_SUBGOAL ? "subgoal"
                      : r->algorithm == ASTAR_ALGO_JPS_PLUS ? "jps_plus"
                                                           : "astar");
  lua_setfield(L, t, "algorithm");
  if (r->landmarks)
    lua_pushliteral(L, "landmarks");
  else if (q->heuristic_fn != NULL)
    lua_pushliteral(L, "function");
  else
    lua_pushstring(L, lq_heuristic_names[q->heuristic]);
  lua_setfield(L, t, "heuristic");
  lua_pushstring(L, r->bucket ? "bucket" : "heap");
  lua_setfield(L, t, "open_list");
  lua_pushboolean(L, r->partial);
  lua_setfield(L, t, "partial");
  if (r->outcome == ASTAR_FOUND && q->ngoals > 0)
    set_int(L, t, "goal", r->goal_index + 1); /* 0: the goal gx, gy */
  else {
    lua_pushnil(L);
    lua_setfield(L, t, "goal");
  }
  if (ended) {
    set_int(L, t, "end_x", r->end_x + 1);
    set_int(L, t, "end_y", r->end_y + 1);
  } else {
    lua_pushnil(L);
    lua_setfield(L, t, "end_x");
    lua_pushnil(L);
    lua_setfield(L, t, "end_y");
  }
}

/* Ends the busy section of a query (the grid's, or the snapshot's). */
static void query_leave(lq_query *Q) {
  if (Q->sud != NULL)
    lsn_leave(Q->sud);
  else
    lg_leave(Q->ud);
}

static void query_report(lua_State *L, lq_query *Q) {
  if (Q->sud != NULL)
    lsn_report(L, Q->sud);
  else
    lg_report(L, Q->ud);
}

/* Runs the search read by lq_read_query with the grid busy.  On return the
 * grid is still busy (the path is in its context): the caller reads it
 * out and calls query_leave.  Any failure raises, with the grid idle
 * again. */
static void search_query(lua_State *L, const char *fname, lq_query *Q,
                         const astar_grid *g) {
  int st;
  if (Q->sud != NULL) {
    Q->ctx = &Q->sud->ctx;
    lsn_enter(Q->sud);
  } else {
    Q->ctx = &Q->ud->ctx;
    lg_enter(Q->ud);
  }
  Q->map = g;
  st = astar_find_path(Q->ctx, g, &Q->q, &Q->r);
  if (st != ASTAR_OK) {
    query_leave(Q);
    lq_raise_failure(L, fname, Q, st);
  }
}

/* ---- reading a result out ---- */

/* The explored table: its array part gets the expanded tiles as x, y
 * pairs, its field `open` (a table, reused when there is one) the tiles
 * reached but never expanded. */
void lq_explored_table(lua_State *L, int t, const astar_search *s) {
  int open;
  lua_Integer nc = 0, no = 0;
  uint32_t i = 0;
  int32_t x, y;
  int state;
  lua_pushliteral(L, "open"); /* raw: a metatable cannot get in the way */
  lua_rawget(L, t);
  if (lua_type(L, -1) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushliteral(L, "open");
    lua_pushvalue(L, -2);
    lua_rawset(L, t);
  }
  open = lua_gettop(L);
  while ((state = astar_explored_next(s, &i, &x, &y)) != 0) {
    if (state == ASTAR_EXPLORED_CLOSED)
      nc = push_xy(L, t, nc, x, y);
    else
      no = push_xy(L, open, no, x, y);
  }
  lq_clear_from(L, t, nc);
  lq_clear_from(L, open, no);
  lua_pop(L, 1);
}


/* In protected mode, the grid busy: the path into the table at 1 (or a
 * new one: nil), the explored tiles into the table at 2 (if any).
 * Returns the path table. */
static int read_path(lua_State *L, void *p) {
  lq_query *Q = (lq_query *)p;
  const astar_search *s = Q->ctx;
  const astar_grid *g = Q->map;
  uint32_t node;
  int32_t x, y;
  lua_Integer i, len = 2 * (lua_Integer)(Q->r.corners != 0 ? Q->r.corners
                                                              : Q->r.length);
  if (lua_istable(L, 2)) lq_explored_table(L, 2, s);
  if (lua_istable(L, 1))
    lua_pushvalue(L, 1);
  else
    lua_createtable(L, (int)len, 0);
  /* walk from the end back to the start, filling from the end */
  node = astar_path_last(s);
  i = len;
  astar_xy(g, node, &x, &y);
  do {
    lua_pushinteger(L, x + 1);
    lua_rawseti(L, -2, (int)(i - 1));
    lua_pushinteger(L, y + 1);
    lua_rawseti(L, -2, (int)i);
    i -= 2;
  } while (astar_path_prev_xy(s, &node, &x, &y));
  if (lua_istable(L, 1)) { /* what is left of an older, longer path */
    lq_clear_from(L, lua_gettop(L), len);
  }
  return 1;
}

/* In protected mode: only the explored tiles (into the table at 1). */
static int read_explored(lua_State *L, void *p) {
  lq_query *Q = (lq_query *)p;
  lq_explored_table(L, 1, Q->ctx);
  return 0;
}

/* Reads the explored tiles (no path), leaves the busy section. */
static void leave_explored(lua_State *L, lq_query *Q) {
  int st = 0;
  if (Q->explored != 0) {
    lg_pcall pc;
    lg_protect(L, &pc, read_explored, Q);
    lua_pushvalue(L, Q->explored);
    st = lg_protected_call(L, 1, 0);
  }
  query_leave(Q);
  if (st != 0) lua_error(L);
}

/* grid:find_path(sx, sy, gx, gy [, options [, out]])
 *   -> path, cost, expanded [, reason] | nil, reason, expanded
 * (a 4th value, the reason, when the path is partial: `closest`) */
static int find_path(lua_State *L, int snapshot) {
  char buf[64];
  lq_query Q;
  int st, found, t = lua_type(L, 7);
  memset(&Q, 0, sizeof Q);
  if (t != LUA_TNONE && t != LUA_TNIL && t != LUA_TTABLE)
    la_error(L, 7, "find_path", "out must be a table, got %s",
             la_describe(L, 7, buf, sizeof buf));
  lua_settop(L, 7);
  Q.out = t == LUA_TTABLE ? 7 : 0;
  if (snapshot)
    search_query(L, "find_path", &Q, lq_read_snap_query(L, "find_path", &Q,
                                                         lq_query_keys));
  else
    search_query(L, "find_path", &Q, lq_read_query(L, "find_path", &Q,
                                                    lq_query_keys));
  found = Q.r.outcome == ASTAR_FOUND || Q.r.partial;
  if (found) {
    lg_pcall pc;
    lg_protect(L, &pc, read_path, &Q);
    lua_pushvalue(L, 7);
    if (Q.explored != 0)
      lua_pushvalue(L, Q.explored);
    else
      lua_pushnil(L);
    st = lg_protected_call(L, 2, 1);
    query_leave(&Q);
    if (st != 0) lua_error(L);
  } else {
    leave_explored(L, &Q);
  }
  /* the answer is safe from here on: the stats table may do anything */
  if (Q.stats != 0) lq_fill_stats(L, &Q, &Q.r);
  if (!found) {
    lua_pushnil(L);
    lua_pushstring(L, lq_outcome_names[Q.r.outcome]);
    lua_pushinteger(L, (lua_Integer)Q.r.expanded);
    query_report(L, &Q);
    return 3;
  }
  lua_pushnumber(L, (lua_Number)Q.r.cost);
  lua_pushinteger(L, (lua_Integer)Q.r.expanded);
  if (Q.r.partial) /* closest: why the goal was not reached */
    lua_pushstring(L, lq_outcome_names[Q.r.outcome]);
  query_report(L, &Q);
  return Q.r.partial ? 4 : 3;
}

static int g_find_path(lua_State *L) { return find_path(L, 0); }
/* snap:find_path: as the grid's, on the snapshot's copy */
static int s_find_path(lua_State *L) { return find_path(L, 1); }

/* ---- next_step that remembers ---- */

/* Does the path of q depend only on the map, the goal and the options
 * the memory keeps (unit, heuristic, weight, algorithm, ties, zones,
 * min_cost)?  Only such queries are remembered and answered from memory:
 * callbacks, overlays, goals, cutoffs, closest, blocked start or goal,
 * random ties, explored and a size above 1 all search. */
static int rememberable(const lq_query *Q) {
  const astar_query *q = &Q->q;
  return q->tile_fn == NULL && q->move_fn == NULL &&
         q->heuristic_fn == NULL && q->ngoals == 0 && !q->no_main_goal &&
         q->navoid == 0 && q->nextra == 0 && !(q->max_cost < HUGE_VAL) &&
         q->max_length == 0 && q->max_nodes == 0 && !q->closest &&
         !q->leave_blocked_start && !q->next_to_blocked_goal &&
         q->ties != ASTAR_TIES_RANDOM && Q->explored == 0 && q->size <= 1;
}

static int memory_fits(const lg_memory *m, const astar_grid *g,
                       const astar_query *q) {
  return m->valid && m->version == g->version && m->gx == q->gx &&
         m->gy == q->gy && m->unit == q->unit &&
         m->heuristic == q->heuristic && m->algorithm == q->algorithm &&
         m->ties == q->ties && m->no_zones == q->no_zones &&
         m->open_list == q->open_list &&
         m->weight == q->weight && m->min_cost == q->min_cost;
}

/* The index of (x, y) on the remembered path (its last place first), or
 * -1. */
static long memory_find(lg_memory *m, int32_t x, int32_t y) {
  size_t i;
  for (i = m->at; i < m->at + 2 && i < m->len; i++)
    if (m->xy[2 * i] == x && m->xy[2 * i + 1] == y) return (long)i;
  for (i = 0; i < m->len; i++)
    if (m->xy[2 * i] == x && m->xy[2 * i + 1] == y) return (long)i;
  return -1;
}

/* Keeps the path just found (the grid busy: no Lua code runs).  Without
 * memory for it, nothing is remembered. */
static void remember(lgrid *ud, const lq_query *Q) {
  lg_memory *m = &ud->memory;
  const astar_search *s = &ud->ctx;
  const astar_query *q = &Q->q;
  astar_path_report rep = {0, 0, 0, 0.0, NULL};
  astar_query cq;
  size_t n = Q->r.length, i;
  uint32_t node;
  m->valid = 0;
  if (n == 0 || !lg_memory_room(ud, n)) return;
  node = astar_path_last(s);
  i = n;
  do {
    i--;
    astar_xy(&ud->g, node, &m->xy[2 * i], &m->xy[2 * i + 1]);
  } while (astar_path_prev(s, &node) && i > 0);
  astar_query_defaults(&cq);
  cq.unit = q->unit;
  rep.acc = m->acc;
  if (astar_path_check(NULL, &ud->g, &cq, m->xy, n, 0, &rep) != ASTAR_OK ||
      rep.bad != n)
    return; /* not reached: the search's path is legal */
  m->len = n;
  m->at = 0;
  m->version = ud->g.version;
  m->gx = q->gx;
  m->gy = q->gy;
  m->unit = q->unit;
  m->heuristic = q->heuristic;
  m->algorithm = q->algorithm;
  m->ties = q->ties;
  m->open_list = q->open_list;
  m->no_zones = q->no_zones;
  m->weight = q->weight;
  m->min_cost = q->min_cost;
  m->ran = Q->r.algorithm;
  m->valid = 1;
}

/* The `remember` option of next_step (absent: true). */
static int remember_option(lua_State *L) {
  char buf[64];
  int v = 1;
  if (lua_type(L, 6) != LUA_TTABLE) return 1;
  lua_getfield(L, 6, "remember");
  if (lua_type(L, -1) == LUA_TBOOLEAN)
    v = lua_toboolean(L, -1);
  else if (!lua_isnil(L, -1))
    la_error(L, 6, "next_step", "remember must be a boolean, got %s",
             la_describe(L, -1, buf, sizeof buf));
  lua_pop(L, 1);
  return v;
}

/* grid:next_step(sx, sy, gx, gy [, options]) -> x, y, cost [, reason]
 *   | nil, reason */
static int next_step(lua_State *L, int snapshot) {
  lq_query Q;
  int32_t x = 0, y = 0;
  int found, keep = 0, from_memory = 0;
  const astar_grid *g;
  memset(&Q, 0, sizeof Q);
  lua_settop(L, 6);
  if (snapshot) { /* no memory: a snapshot's copy never changes anyway */
    g = lq_read_snap_query(L, "next_step", &Q, lq_query_keys);
  } else {
    keep = remember_option(L);
    g = lq_read_query(L, "next_step", &Q, lq_next_step_keys);
    keep = keep && rememberable(&Q);
  }
  Q.q.corners = 0; /* one step: read off the tile path (`path` is moot) */
  if (keep && memory_fits(&Q.ud->memory, g, &Q.q)) {
    lg_memory *m = &Q.ud->memory;
    long k = memory_find(m, Q.q.sx, Q.q.sy);
    if (k >= 0) { /* on the path: its next tile, no search */
      size_t i = (size_t)k + 1 < m->len ? (size_t)k + 1 : (size_t)k;
      m->at = (size_t)k;
      x = m->xy[2 * i];
      y = m->xy[2 * i + 1];
      Q.r.outcome = ASTAR_FOUND;
      /* the steps' costs summed from here on, as a search from here
       * along this path sums them */
      Q.r.cost = 0.0;
      for (i = (size_t)k + 1; i < m->len; i++) Q.r.cost += m->acc[i];
      Q.r.end_x = Q.q.gx;
      Q.r.end_y = Q.q.gy;
      Q.r.goal_index = -1;
      Q.r.algorithm = m->ran;
      from_memory = 1;
    }
  }
  if (!from_memory) {
    search_query(L, "next_step", &Q, g);
    found = Q.r.outcome == ASTAR_FOUND || Q.r.partial;
    if (found) { /* read in C, the grid still busy */
      const astar_search *s = Q.ctx;
      uint32_t node, step;
      node = step = astar_path_last(s);
      while (astar_path_prev(s, &node)) {
        if (node == s->last_start) break;
        step = node;
      }
      astar_xy(Q.map, step, &x, &y);
      if (keep && !Q.r.partial) remember(Q.ud, &Q);
    }
    leave_explored(L, &Q);
  }
  found = Q.r.outcome == ASTAR_FOUND || Q.r.partial;
  if (Q.stats != 0) {
    lq_fill_stats(L, &Q, &Q.r);
    lua_pushboolean(L, from_memory);
    lua_setfield(L, Q.stats, "remembered");
  }
  if (!found) {
    lua_pushnil(L);
    lua_pushstring(L, lq_outcome_names[Q.r.outcome]);
    query_report(L, &Q);
    return 2;
  }
  lua_pushinteger(L, x + 1);
  lua_pushinteger(L, y + 1);
  lua_pushnumber(L, (lua_Number)Q.r.cost);
  if (Q.r.partial) lua_pushstring(L, lq_outcome_names[Q.r.outcome]);
  query_report(L, &Q);
  return Q.r.partial ? 4 : 3;
}

static int g_next_step(lua_State *L) { return next_step(L, 0); }
/* snap:next_step: as the grid's (no `remember`), on the snapshot's copy */
static int s_next_step(lua_State *L) { return next_step(L, 1); }

const luaL_Reg lq_grid_methods[] = {
    {"find_path", g_find_path},
    {"next_step", g_next_step},
    {NULL, NULL}};
const luaL_Reg lq_snap_methods[] = {
    {"find_path", s_find_path},
    {"next_step", s_next_step},
    {NULL, NULL}};

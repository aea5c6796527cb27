/*
 * Query options of find_path / next_step beyond costs: the algorithm, tie
 * rules, goal sets, cutoffs, closest reachable tile, blocked start and
 * goal, a heuristic function, and the statistics table.  Each option is
 * read into the core's astar_query; the search itself stays in C.
 */
#include "astar.h"
#include "compat.h"
#include "lua_args.h"
#include "lua_grid.h"

#include <lauxlib.h>
#include <lua.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Algorithms by name: each one is a setting of the core's engine.  Add a
 * row to add a name (weight: the default weight it implies, 0 = 1). */
typedef struct algorithm_row {
  const char *name;
  int algorithm; /* ASTAR_ALGO_* */
  double weight;
} algorithm_row;

static const algorithm_row algorithms[] = {
    {"auto", ASTAR_ALGO_AUTO, 0},
    {"astar", ASTAR_ALGO_ASTAR, 0},
    {"jps", ASTAR_ALGO_JPS, 0},
    {"dijkstra", ASTAR_ALGO_DIJKSTRA, 0},
    {"bfs", ASTAR_ALGO_BFS, 0},
    {"greedy", ASTAR_ALGO_GREEDY, 0},
    {"weighted", ASTAR_ALGO_ASTAR, 1.5},
    {"beam", ASTAR_ALGO_BEAM, 0},
    {"ida", ASTAR_ALGO_IDA, 0},
    {"bidirectional", ASTAR_ALGO_BIDIR, 0},
    {"bidirectional_bfs", ASTAR_ALGO_BIDIR_BFS, 0},
    {NULL, 0, 0}};
#define ALGORITHM_LIST                                                     \
  "'auto', 'astar', 'jps', 'dijkstra', 'bfs', 'greedy', 'weighted', "      \
  "'beam', 'ida', 'bidirectional', 'bidirectional_bfs'"

static const char *const tie_names[] = {"larger_g", "straight", "random",
                                        NULL};
#define TIE_LIST "'larger_g', 'straight', 'random'"

#define DEFAULT_BEAM_WIDTH 1000
#define MAX_SEED 9007199254740991.0 /* 2^53 - 1: exact on every runtime */

const char *const lq_outcome_names[] = {"found", "no_path", "start_blocked",
                                        "goal_blocked", "cutoff"};

/* A boolean option (absent: 0). */
static int bool_option(lua_State *L, int arg, const char *fname,
                       const char *name) {
  char buf[64];
  int v = 0, t;
  lua_getfield(L, arg, name);
  t = lua_type(L, -1);
  if (t == LUA_TBOOLEAN)
    v = lua_toboolean(L, -1);
  else if (t != LUA_TNIL)
    la_error(L, arg, fname, "%s must be a boolean, got %s", name,
             la_describe(L, -1, buf, sizeof buf));
  lua_pop(L, 1);
  return v;
}

/* An integer option in [lo, hi] (absent: dflt). */
static double int_option(lua_State *L, int arg, const char *fname,
                         const char *name, double lo, double hi,
                         double dflt) {
  char buf[64];
  double v = dflt;
  lua_getfield(L, arg, name);
  if (!lua_isnil(L, -1)) {
    v = lua_type(L, -1) == LUA_TNUMBER ? (double)lua_tonumber(L, -1) : NAN;
    if (!(v >= lo && v <= hi && v == floor(v)))
      la_error(L, arg, fname, "%s must be an integer in [%.0f, %.0f], got %s",
               name, lo, hi, la_describe(L, -1, buf, sizeof buf));
  }
  lua_pop(L, 1);
  return v;
}

int lq_has_goals(lua_State *L, int arg) {
  int has;
  if (lua_type(L, arg) != LUA_TTABLE) return 0;
  lua_getfield(L, arg, "goals");
  has = !lua_isnil(L, -1);
  lua_pop(L, 1);
  return has;
}

/* goals = {x1, y1, x2, y2, ...}: read into a userdata left on the stack. */
static void goals_option(lua_State *L, int arg, const char *fname,
                         const astar_grid *g, astar_query *q) {
  char buf[64];
  size_t n, i;
  int32_t *v;
  int t;
  lua_getfield(L, arg, "goals");
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    return;
  }
  t = lua_gettop(L);
  if (lua_type(L, t) != LUA_TTABLE)
    la_error(L, arg, fname, "goals must be a table {x1, y1, x2, y2, ...}, "
             "got %s", la_describe(L, t, buf, sizeof buf));
  n = compat_rawlen(L, t);
  if (n == 0 || n % 2 != 0)
    la_error(L, arg, fname, "goals must hold x, y pairs (a positive even "
             "count of numbers), got %.0f numbers", (double)n);
  if (n / 2 > 0x7FFFFFFF / 8)
    la_error(L, arg, fname, "goals: too many (%.0f)", (double)n * 0.5);
  v = (int32_t *)compat_newuserdata(L, n * sizeof(int32_t));
  for (i = 0; i < n; i++) {
    int32_t hi = (i % 2 == 0) ? g->width : g->height;
    double c;
    lua_rawgeti(L, t, (int)(i + 1));
    c = lua_type(L, -1) == LUA_TNUMBER ? (double)lua_tonumber(L, -1) : NAN;
    if (!(c == floor(c) && c >= 1 && c <= hi))
      la_error(L, arg, fname, "goals[%.0f] (%s of goal %.0f) must be an "
               "integer in 1..%d, got %s", (double)(i + 1),
               i % 2 == 0 ? "x" : "y", (double)(i - i % 2) * 0.5 + 1, (int)hi,
               la_describe(L, -1, buf, sizeof buf));
    v[i] = (int32_t)c - 1;
    lua_pop(L, 1);
  }
  q->goals = v;
  q->ngoals = n / 2;
  /* the userdata stays on the stack (above the table) until the call ends */
}

/* ---- heuristic callback ---- */

static int heuristic_hook(void *ud, int32_t x, int32_t y, int32_t gx,
                          int32_t gy, double *out) {
  lq_query *lq = (lq_query *)ud;
  lua_State *L = lq->L;
  char buf[64];
  if (!lua_checkstack(L, 8)) {
    snprintf(lq->msg, sizeof lq->msg, "heuristic: no room on the Lua "
             "stack");
    lq->bad = 1;
    return -1;
  }
  lua_pushvalue(L, lq->hfn);
  lua_pushinteger(L, x + 1);
  lua_pushinteger(L, y + 1);
  lua_pushinteger(L, gx + 1);
  lua_pushinteger(L, gy + 1);
  if (lua_pcall(L, 4, 1, 0) != 0) {
    lq->failed = 1; /* the error stays on top */
    return -1;
  }
  if (lua_type(L, -1) == LUA_TNUMBER) {
    double v = (double)lua_tonumber(L, -1);
    if (v >= 0.0 && v <= 1e300) {
      *out = v;
      lua_pop(L, 1);
      return ASTAR_OK;
    }
  }
  snprintf(lq->msg, sizeof lq->msg, "heuristic returned %s for (%d, %d) -> "
           "(%d, %d); expected a finite number >= 0",
           la_describe(L, -1, buf, sizeof buf), (int)x + 1, (int)y + 1,
           (int)gx + 1, (int)gy + 1);
  lua_pop(L, 1);
  lq->bad = 1;
  return -1;
}

/* The heuristic option: a name (the caller reads it) or a function. */
int lq_heuristic_function(lua_State *L, int arg) {
  int is_fn;
  lua_getfield(L, arg, "heuristic");
  is_fn = lua_type(L, -1) == LUA_TFUNCTION;
  lua_pop(L, 1);
  return is_fn;
}

void lq_options(lua_State *L, int arg, const char *fname, astar_grid *g,
                astar_query *q, lq_query *lq) {
  char buf[64];
  double w;
  memset(lq, 0, sizeof *lq);
  lq->L = L;
  lq->arg = arg;
  lq->algorithm = NULL; /* auto: what ran */
  if (lua_type(L, arg) != LUA_TTABLE) return;

  lua_getfield(L, arg, "algorithm");
  if (!lua_isnil(L, -1)) {
    const algorithm_row *row = NULL;
    int i;
    if (lua_type(L, -1) == LUA_TSTRING)
      for (i = 0; algorithms[i].name != NULL; i++)
        if (strcmp(lua_tostring(L, -1), algorithms[i].name) == 0)
          row = &algorithms[i];
    if (row == NULL) {
      la_error(L, arg, fname, "algorithm must be one of " ALGORITHM_LIST
               ", got %s", la_describe(L, -1, buf, sizeof buf));
      return; /* not reached: la_error raises */
    }
    q->algorithm = row->algorithm;
    if (row->algorithm != ASTAR_ALGO_AUTO) lq->algorithm = row->name;
    if (row->weight > 0) {
      lua_getfield(L, arg, "weight");
      if (lua_isnil(L, -1)) q->weight = row->weight;
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  q->ties = la_enum(L, arg, fname, "ties", tie_names, TIE_LIST,
                    ASTAR_TIES_LARGER_G);
  w = int_option(L, arg, fname, "seed", 0, MAX_SEED, 0);
  q->seed = (uint64_t)w;
  w = int_option(L, arg, fname, "beam_width", 1, 2147483647.0,
                 DEFAULT_BEAM_WIDTH);
  q->beam_width = (uint32_t)w;
  q->max_cost = la_number(L, arg, fname, "max_cost", 1e-300, HUGE_VAL,
                          "a positive number", HUGE_VAL);
  q->max_length = (uint32_t)int_option(L, arg, fname, "max_length", 1,
                                       2147483647.0, 0);
  q->max_nodes = (uint32_t)int_option(L, arg, fname, "max_nodes", 1,
                                      2147483647.0, 0);
  q->closest = bool_option(L, arg, fname, "closest");
  q->leave_blocked_start = bool_option(L, arg, fname, "leave_blocked_start");
  q->next_to_blocked_goal = bool_option(L, arg, fname,
                                        "next_to_blocked_goal");
  goals_option(L, arg, fname, g, q);
  if (lq_heuristic_function(L, arg)) {
    lua_getfield(L, arg, "heuristic");
    lq->hfn = lua_gettop(L);
    q->heuristic_fn = heuristic_hook;
    q->heuristic_ud = lq;
  }
  lq->stats = la_typed_option(L, arg, fname, "stats", LUA_TTABLE);
  q->want_peak = lq->stats != 0;
  lq->explored = la_typed_option(L, arg, fname, "explored", LUA_TTABLE);
}

void lq_raise(lua_State *L, const char *fname, lq_query *lq) {
  if (lq->failed) lua_error(L); /* the heuristic's own error, as raised */
  la_error(L, lq->arg, fname, "%s", lq->msg);
}

int lq_callback_failed(const lq_query *lq) { return lq->failed || lq->bad; }

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

/* The explored table: its array part gets the expanded tiles as x, y
 * pairs, its field `open` (a table, reused when there is one) the tiles
 * reached but never expanded. */
void lq_explored(lua_State *L, const lq_query *lq, const astar_grid *g) {
  int t = lq->explored, open;
  lua_Integer nc = 0, no = 0;
  uint32_t i = 0;
  int32_t x, y;
  int state;
  if (t == 0) return;
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
  while ((state = astar_explored_next(g, &i, &x, &y)) != 0) {
    if (state == ASTAR_EXPLORED_CLOSED)
      nc = push_xy(L, t, nc, x, y);
    else
      no = push_xy(L, open, no, x, y);
  }
  clear_from(L, t, nc);
  clear_from(L, open, no);
  lua_pop(L, 1);
}

void lq_stats(lua_State *L, const lq_query *lq, const astar_query *q,
              const astar_result *r) {
  int t = lq->stats;
  int ended = r->outcome == ASTAR_FOUND || r->partial;
  if (t == 0) return;
  set_int(L, t, "expanded", r->expanded);
  set_int(L, t, "generated", r->generated);
  set_int(L, t, "peak_open", r->peak_open);
  lua_pushstring(L, lq_outcome_names[r->outcome]);
  lua_setfield(L, t, "status");
  if (lq->algorithm != NULL)
    lua_pushstring(L, lq->algorithm);
  else
    lua_pushstring(L, r->algorithm == ASTAR_ALGO_JPS ? "jps" : "astar");
  lua_setfield(L, t, "algorithm");
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

/*
 * Preprocessed data of a grid, by kind (one row per kind in `kinds`):
 *
 *   grid:prepare(kind [, ...])  -> {ms = build time, bytes = bytes held}
 *   grid:prepared(kind [, unit]) -> "ready", "stale" (an edit since) or nil
 *   grid:unprepare(kind)        frees the kind's data
 *
 * Kinds: "subgoal" (arguments: [units [, mode]]; units: a unit class
 * name or a list of names, omitted: the default class; mode: "auto", the
 * default, keeps a class's graph where astar_subgoal_pays says it beats
 * JPS and precomputed straight jumps (JPS+) elsewhere, "always" keeps
 * the graph, "jumps" builds the jumps): subgoal graphs or jump tables
 * (src/subgoal.c, src/jps_table.c), which find_path then uses on its own while
 * they are not stale.  "landmarks"
 * (arguments: k [, units]): ALT distance fields (src/landmarks.c, the
 * binding in lua_landmarks.c), which A* reads on its own while they are
 * not stale; prepared("landmarks") takes no unit (one state for all).
 */
#include "astar.h"
#include "compat.h"
#include "lua_args.h"
#include "lua_grid.h"
#include "lua_query.h"

#include <lauxlib.h>
#include <lua.h>
#include <string.h>

/* ---- "subgoal" ---- */

/* The unit classes at arg (nil: the default; a name; a list of names)
 * into units (at most ASTAR_MAX_UNITS, duplicates dropped). */
static int units_arg(lua_State *L, int arg, const char *fname,
                     int units[ASTAR_MAX_UNITS]) {
  int n = 0, i, k;
  units[0] = 0;
  if (lua_isnoneornil(L, arg)) return 1;
  if (lua_type(L, arg) != LUA_TTABLE) {
    units[0] = lt_unit_id(L, arg, arg, fname, 1);
    return 1;
  }
  for (i = 1;; i++) {
    int u, seen = 0;
    lua_rawgeti(L, arg, i);
    if (lua_isnil(L, -1)) {
      lua_pop(L, 1);
      break;
    }
    u = lt_unit_id(L, lua_gettop(L), arg, fname, 1);
    lua_pop(L, 1);
    for (k = 0; k < n; k++) seen |= units[k] == u;
    if (!seen) units[n++] = u;
  }
  if (n == 0) la_error(L, arg, fname, "units must not be an empty list");
  return n;
}

static const char *const when_names[] = {"auto", "always", "jumps", NULL};
enum { WHEN_AUTO, WHEN_GRAPH, WHEN_JUMPS };

void lpr_subgoal_prepare(lua_State *L, lgrid *ud, int arg,
                         const char *fname) {
  int units[ASTAR_MAX_UNITS], n = units_arg(L, arg, fname, units), i;
  int when = WHEN_AUTO, graphs = 0;
  astar_grid *g;
  size_t bytes = 0;
  if (!lua_isnoneornil(L, arg + 1)) {
    int k = la_name_index(L, arg + 1, when_names, sizeof when_names[0]);
    if (k < 0)
      la_error(L, arg + 1, fname,
               "mode must be 'auto', 'always' or 'jumps'");
    when = k;
  }
  g = lg_core(L, ud, fname);
  for (i = 0; i < n; i++) { /* every class checked before any is built */
    astar_query q;
    int reason;
    lg_prepare(L, g, units[i], 0u, fname);
    astar_query_defaults(&q);
    q.algorithm = ASTAR_ALGO_JPS;
    q.unit = units[i];
    reason = astar_query_refusal(g, &q);
    if (reason == ASTAR_REFUSE_NONE && g->nlinks != 0)
      reason = ASTAR_REFUSE_LINKS;
    if (reason != ASTAR_REFUSE_NONE)
      la_error(L, 2, fname, "kind 'subgoal' needs %s",
               lq_refusal_words(reason));
  }
  for (i = 0; i < n; i++) {
    int reason = ASTAR_REFUSE_NONE, st;
    uint32_t nsub = 0, nedges = 0;
    st = when == WHEN_JUMPS ? astar_jumps_build(g, units[i], &reason)
                            : astar_subgoal_build_with(g, units[i], &reason,
                                                       &ud->ctx);
    if (st == ASTAR_OK && when == WHEN_AUTO &&
        !astar_subgoal_pays(g, units[i])) {
      /* the graph would lose to JPS here: precomputed jumps instead */
      (void)astar_subgoal_count(g, units[i], &nsub, &nedges);
      st = astar_jumps_build(g, units[i], &reason);
    } else if (st == ASTAR_OK) {
      (void)astar_subgoal_count(g, units[i], &nsub, &nedges);
    }
    if (st != ASTAR_OK) {
      lg_report(L, ud);
      if (st == ASTAR_EINVAL)
        la_error(L, 2, fname, "kind 'subgoal' needs %s",
                 lq_refusal_words(reason));
      la_raise(L, st, fname);
    }
    if (i == 0) { /* the first class's counts, for the figures */
      lua_pushnumber(L, (lua_Number)nsub);
      lua_pushnumber(L, (lua_Number)nedges);
    }
    if (!astar_subgoal_is_jumps(g, units[i])) graphs++;
    bytes += astar_subgoal_memory(g, units[i]);
  }
  { /* the figures (counts: the first class's graph, also when a jump
       table replaced it) */
    uint32_t nedges = (uint32_t)lua_tonumber(L, -1);
    uint32_t nsub = (uint32_t)lua_tonumber(L, -2);
    lua_pop(L, 2);
    lua_createtable(L, 0, 8);
    lua_pushstring(L, astar_subgoal_is_jumps(g, units[0]) ? "jps_plus"
                                                          : "subgoal");
    lua_setfield(L, -2, "algorithm");
    lua_pushnumber(L, (lua_Number)bytes);
    lua_setfield(L, -2, "bytes");
    lua_pushnumber(L, (lua_Number)nsub);
    lua_setfield(L, -2, "subgoals");
    lua_pushnumber(L, (lua_Number)nedges);
    lua_setfield(L, -2, "edges");
    lua_pushnumber(L, (lua_Number)astar_subgoal_global(g, units[0]));
    lua_setfield(L, -2, "global");
    lua_pushboolean(L, astar_subgoal_jps_first(g, units[0]));
    lua_setfield(L, -2, "jps_first");
    if (when == WHEN_AUTO && graphs < n) {
      lua_pushliteral(L, "a small map, or global subgoals on more than "
                         "0.1% of the tiles: JPS is faster here, "
                         "precomputed jumps (JPS+) kept instead");
      lua_setfield(L, -2, "skipped");
    }
  }
}

int lpr_subgoal_state(lua_State *L, lgrid *ud, int arg, const char *fname) {
  int unit = lua_isnoneornil(L, arg) ? 0 : lt_unit_id(L, arg, arg, fname, 1);
  astar_grid *g = lg_core(L, ud, fname);
  return astar_subgoal_state(g, unit);
}

void lpr_subgoal_drop(lua_State *L, lgrid *ud, const char *fname) {
  astar_subgoal_drop(lg_core(L, ud, fname), -1);
}

/* ---- "landmarks" (lua_landmarks.c: llm_*) ---- */

static void lpr_landmarks_prepare(lua_State *L, lgrid *ud, int arg,
                                  const char *fname) {
  size_t bytes;
  (void)arg; /* llm_prepare reads k and units from 3 on itself */
  (void)fname;
  bytes = llm_prepare(L, ud);
  lua_createtable(L, 0, 2);
  lua_pushnumber(L, (lua_Number)bytes);
  lua_setfield(L, -2, "bytes");
}

static int lpr_landmarks_state(lua_State *L, lgrid *ud, int arg,
                               const char *fname) {
  const char *s;
  (void)arg; /* one state for every unit class the landmarks serve */
  (void)lg_core(L, ud, fname);
  s = llm_state(ud);
  if (s == NULL) return 0;
  return strcmp(s, "ready") == 0 ? 1 : 2;
}

static void lpr_landmarks_drop(lua_State *L, lgrid *ud, const char *fname) {
  (void)lg_core(L, ud, fname);
  llm_drop(ud);
}

/* ---- the kinds ---- */

typedef struct {
  const char *name;
  /* builds from the arguments at arg on; pushes its figures table
     ({bytes = bytes held, ...}: the dispatcher adds ms) */
  void (*prepare)(lua_State *L, lgrid *ud, int arg, const char *fname);
  /* 0: none, 1: ready, 2: stale (ASTAR_SUBGOAL_* values) */
  int (*state)(lua_State *L, lgrid *ud, int arg, const char *fname);
  void (*drop)(lua_State *L, lgrid *ud, const char *fname);
} kind_row;

static const kind_row kinds[] = {
    {"subgoal", lpr_subgoal_prepare, lpr_subgoal_state, lpr_subgoal_drop},
    {"landmarks", lpr_landmarks_prepare, lpr_landmarks_state,
     lpr_landmarks_drop},
    {NULL, NULL, NULL, NULL}};
#define KINDS "'subgoal', 'landmarks'"

static const kind_row *kind_arg(lua_State *L, const char *fname) {
  char buf[64];
  int k = la_name_index(L, 2, &kinds[0].name, sizeof kinds[0]);
  if (k < 0) {
    la_error(L, 2, fname, "kind must be one of " KINDS ", got %s",
             la_describe(L, 2, buf, sizeof buf));
    k = 0; /* not reached: la_error raises */
  }
  return &kinds[k];
}

static int g_prepare(lua_State *L) {
  lgrid *ud = lg_check(L, "prepare");
  const kind_row *row = kind_arg(L, "prepare");
  double t0 = la_now(), ms;
  row->prepare(L, ud, 3, "prepare");
  ms = (la_now() - t0) * 1000.0;
  lua_pushnumber(L, (lua_Number)ms);
  lua_setfield(L, -2, "ms");
  lg_report(L, ud); /* last: may run finalizers */
  return 1;
}

static int g_prepared(lua_State *L) {
  lgrid *ud = lg_check(L, "prepared");
  const kind_row *row = kind_arg(L, "prepared");
  switch (row->state(L, ud, 3, "prepared")) {
  case 1: lua_pushliteral(L, "ready"); break;
  case 2: lua_pushliteral(L, "stale"); break;
  default: lua_pushnil(L); break;
  }
  return 1;
}

static int g_unprepare(lua_State *L) {
  lgrid *ud = lg_check(L, "unprepare");
  const kind_row *row = kind_arg(L, "unprepare");
  row->drop(L, ud, "unprepare");
  lg_report(L, ud);
  return 0;
}

const luaL_Reg lpr_grid_methods[] = {{"prepare", g_prepare},
                                     {"prepared", g_prepared},
                                     {"unprepare", g_unprepare},
                                     {NULL, NULL}};

/* What the binding's query files share: reading a query (arguments,
 * options, callbacks: lua_query_options.c), the one callback bridge (the
 * cost and heuristic hooks) and words for its outcomes and failures
 * (lua_query.c).  The query object and the
 * pathfinder pool (lua_sliced.c, lua_pathfinder.c) read their queries
 * exactly as find_path does; a field build (lua_field_build.c) calls the
 * tile callback through the same bridge, with the same memo rules and
 * messages. */
#ifndef ASTAR_LUA_QUERY_H
#define ASTAR_LUA_QUERY_H

#include "astar.h"
#include "compat.h"
#include "lua_grid.h"

/* One query's Lua side: where its functions and tables are on the stack,
 * and what a callback reported. */
typedef struct lq_query {
  lua_State *L;
  lgrid *ud;         /* the grid searched, or NULL (a snapshot's query) */
  struct lsnap *sud; /* the snapshot searched, or NULL */
  int snapshot;      /* a snapshot's query: no Lua functions, size 1 */
  int batch;         /* a batch's options: no stats, explored, overlays */
  astar_search *ctx; /* the context and map searched (set at the search) */
  const astar_grid *map;
  int arg;           /* the options' argument number */
  uint64_t present;  /* which options the table holds (la_options_mask) */
  int tile, move;    /* stack indices of the cost callbacks, 0 when absent */
  int hfn;           /* the heuristic function, 0 when absent */
  int stats;         /* the stats table, 0 when absent */
  int explored;      /* the explored table, 0 when absent */
  int out;           /* the path table, 0 when absent */
  int avoid, extra;  /* the avoid and extra_cost tables, 0 when absent */
  int goals;         /* the goals' userdata, 0 when absent */
  int failed;        /* a callback raised: its error is on top */
  int bad;           /* a callback returned what it must not: see msg */
  const char *algorithm; /* the name asked for, NULL for auto */
  astar_query q;
  astar_result r;
  char msg[200];
} lq_query;

/* The core's tile hook: calls the function at stack index Q->tile with
 * x, y (1-based) and the unit's cost, under lua_pcall. */
int lq_tile_hook(void *ud, int32_t x, int32_t y, double cost, double *out);
/* The move-cost hook (the function at Q->move with x1, y1, x2, y2 and the
 * step's cost) and the heuristic hook (the function at Q->hfn with x, y,
 * gx, gy), the same way. */
int lq_move_hook(void *ud, int32_t x1, int32_t y1, int32_t x2, int32_t y2,
                 double cost, double *out);
int lq_heuristic_hook(void *ud, int32_t x, int32_t y, int32_t gx,
                      int32_t gy, double *out);
/* "default", "manhattan", ... "zero", by ASTAR_H_* */
extern const char *const lq_heuristic_names[];
/* "found", "no_path", ... "running", by ASTAR_FOUND .. ASTAR_RUNNING */
extern const char *const lq_outcome_names[];

/* Reads sx, sy, gx, gy (args 2..5) and the options (arg 6, their keys
 * from keys, NULL: find_path's) of a query on
 * the grid ud (its user value's names at stack index grid) into Q, which
 * must be zeroed.  Functions, the goals' userdata and the stats and
 * explored tables stay on the stack at Q->tile, Q->move, Q->hfn,
 * Q->goals, Q->stats, Q->explored (0 when absent); the hooks read them
 * from Q->L at those indices, so a caller that keeps Q past this call
 * points them at where the values are when it searches. */
void lq_read(lua_State *L, const char *fname, lgrid *ud, int grid,
             lq_query *Q, const char *const keys[]);
/* Prepares g for Q's unit and checks that Q's algorithm takes Q's
 * options (a Lua error naming the options when not). */
void lq_check(lua_State *L, const char *fname, astar_grid *g, lq_query *Q);
/* grid:find_path's and grid:next_step's reading (the grid at 1, the
 * arguments at 2..6): lq_read with keys, then the map taken, the overlays
 * filled and the map prepared (lq_check); returns the map.  No Lua code
 * runs from there until the search. */
astar_grid *lq_read_query(lua_State *L, const char *fname, lq_query *Q,
                          const char *const keys[]);
/* The same on the snapshot at 1 (sets Q->sud; nothing to prepare). */
const astar_grid *lq_read_snap_query(lua_State *L, const char *fname,
                                     lq_query *Q, const char *const keys[]);
/* Raises what a failed search or build (status st) calls for: a
 * callback's own error (on top of the stack) as raised, a callback's bad
 * result, a cost below the stated bound, or the status's message.  Call
 * it with every object idle again. */
/* What a capability-table reason (ASTAR_REFUSE_*) needs, in words. */
const char *lq_refusal_words(int reason);
void lq_raise_failure(lua_State *L, const char *fname, lq_query *Q, int st);
/* Fills the stats table at Q->stats from r. */
void lq_fill_stats(lua_State *L, const lq_query *Q, const astar_result *r);
/* The explored tiles of s's last search into the table at t. */
void lq_explored_table(lua_State *L, int t, const astar_search *s);
/* Sets t[n + 1], t[n + 2], ... to nil up to the first nil. */
void lq_clear_from(lua_State *L, int t, lua_Integer n);

#endif

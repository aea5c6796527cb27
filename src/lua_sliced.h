/* What the query object (lua_sliced.c) shares with the pathfinder pool
 * (lua_pathfinder.c): a query read once, held by a userdata with its
 * callbacks in the user value, advanced in slices on a context of its own
 * or on one a pool lends it. */
#ifndef ASTAR_LUA_SLICED_H
#define ASTAR_LUA_SLICED_H

#include "astar.h"
#include "compat.h"
#include "lua_grid.h"
#include "lua_query.h"

#define QUERY_MT "astar.Query"

/* Where a query object stands.  NEW: not begun (it begins at its first
 * step, and again after restart or an error). */
enum { LS_NEW = 0, LS_RUNNING, LS_DONE, LS_STALE };
/* Where a pool's request is. */
enum { LS_NOWHERE = 0, LS_QUEUED, LS_IN_SLOT, LS_FINISHED };

/* Slots of the user value (a table): the grid, then the Lua values the
 * query holds (absent ones nil); the pool adds its own. */
enum { LS_GRID = 1, LS_TILE, LS_MOVE, LS_HFN, LS_GOALS, LS_STATS,
       LS_EXPLORED, LS_SLOTS = LS_EXPLORED };

typedef struct lsliced {
  lq_query Q;         /* the query as read: the core's query, hooks' data */
  astar_search own;   /* a query object's own context */
  astar_search *ctx;  /* the context it searches with (&own, or a pool
                         slot's; NULL while a pool has given it none) */
  lgrid *grid;        /* kept alive by the user value */
  astar_result r;     /* the result so far */
  int state;          /* LS_* */
  int busy;           /* a step or a read-out is running */
  int closed;         /* close asked for (the memory goes when idle) */
  int borrowed;       /* ctx is a pool's: never released here */
  struct lsliced *next, *prev; /* the pool's lists */
  double id;          /* the pool's request id */
  int slot;           /* the pool's context slot, -1 when none */
  int where;          /* the pool's list it is on: LS_NOWHERE, ... */
} lsliced;

/* Reads a query on the grid ud (names at stack index grid) from args 2..6
 * into a new query object pushed on the stack; own: it gets a context of
 * its own (else a pool lends one).  Any bad argument raises, and the
 * half-made object is closed (its __gc does nothing). */
lsliced *lqo_push(lua_State *L, const char *fname, lgrid *ud, int grid,
                 int own);
/* The query object at idx, or NULL. */
lsliced *lqo_to(lua_State *L, int idx);
/* Advances the query at idx by at most budget expansions (begins it when
 * new; notices an edited grid: LS_STALE).  Returns the state.  Raises
 * what the search raised (callbacks), leaving the query new. */
int lqo_step(lua_State *L, int idx, lsliced *s, uint32_t budget,
            const char *fname);
/* Pushes the state's word ("running", "found", ..., "stale"). */
void lqo_push_state(lua_State *L, const lsliced *s);
/* Pushes the path of a finished query (or, with partial, the best path
 * so far) into the table at out (0: a new table) and its cost, and
 * returns 2; pushes nothing and returns 0 when there is none. */
int lqo_push_path(lua_State *L, lsliced *s, int partial, int out);
/* Lets go of the Lua values the query at idx holds (not its grid). */
void lqo_drop_values(lua_State *L, int idx);
/* Frees what the query holds (idempotent; deferred while busy). */
void lqo_close(lua_State *L, int idx, lsliced *s);

extern const luaL_Reg lqo_query_methods[];
extern const luaL_Reg lqo_query_meta[];
extern const luaL_Reg lqo_grid_methods[];

/* lua_pathfinder.c: the pool */
#define POOL_MT "astar.Pathfinder"
extern const luaL_Reg lpf_pool_methods[];
extern const luaL_Reg lpf_pool_meta[];
extern const luaL_Reg lpf_module_functions[];

#endif

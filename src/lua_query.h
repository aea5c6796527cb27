/* What the binding's files share about queries: the one callback bridge
 * (a query's Lua side, the tile-cost hook) and the one raise path.  A
 * field build (lua_field.c) calls the tile callback through the same
 * bridge, with the same memo rules and the same messages. */
#ifndef ASTAR_LUA_QUERY_H
#define ASTAR_LUA_QUERY_H

#include "astar.h"
#include "compat.h"
#include "lua_grid.h"

/* One query's Lua side: where its functions and tables are on the stack,
 * and what a callback reported. */
typedef struct lq_query {
  lua_State *L;
  lgrid *ud;
  int arg;           /* the options' argument number */
  int tile, move;    /* stack indices of the cost callbacks, 0 when absent */
  int hfn;           /* the heuristic function, 0 when absent */
  int stats;         /* the stats table, 0 when absent */
  int explored;      /* the explored table, 0 when absent */
  int out;           /* the path table, 0 when absent */
  int avoid, extra;  /* the avoid and extra_cost tables, 0 when absent */
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
/* Raises what a failed search or build (status st) calls for: a
 * callback's own error as raised, a callback's bad result, a cost below
 * the stated bound, or the status's message.  Call it with every object
 * idle again. */
void lq_raise_failure(lua_State *L, const char *fname, lq_query *Q, int st);

#endif

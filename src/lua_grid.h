/* What the binding's files share about grid userdata. */
#ifndef ASTAR_LUA_GRID_H
#define ASTAR_LUA_GRID_H

#include "astar.h"
#include "compat.h"

#define GRID_MT "astar.Grid"
/* every function gets the grid metatable as upvalue 1 */
#define GRID_MT_UPVALUE lua_upvalueindex(1)

typedef struct lgrid {
  astar_grid g;
  lua_Alloc alloc; /* the state's allocator, captured at creation */
  void *alloc_ud;
} lgrid;

/* The grid at idx, or NULL when it is not one. */
lgrid *lg_to_grid(lua_State *L, int idx);
/* The open, idle grid at argument 1, or a Lua error. */
astar_grid *lg_check_grid(lua_State *L, const char *fname);

/* Tables of tiles, rows t[y][x] or flat t[(y-1)*w + x]: lg_table_rows
 * checks the shape and returns 1 for rows; lg_table_row pushes row y
 * (checked); lg_table_tile pushes tile (x, y) (0-based), from the row on
 * top or from the flat table. */
int lg_table_rows(lua_State *L, int arg, const char *fname,
                  const astar_grid *g);
void lg_table_row(lua_State *L, int arg, const char *fname,
                  const astar_grid *g, int32_t y);
void lg_table_tile(lua_State *L, int arg, int rows, const astar_grid *g,
                   int32_t x, int32_t y);

/* Raises the error for a text that failed to parse. */
void lg_text_error(lua_State *L, int arg, const char *fname,
                   const astar_parse_error *e);

/* lua_costs.c.  A names table maps name -> id and id -> name (terrain
 * classes, unit classes); a grid keeps one of each in its user value. */
void lc_push_names(lua_State *L, int grid, const char *kind);
/* Pushes a names table for the `terrains` option of the options at arg
 * (empty when absent), checking it. */
void lc_terrain_option(lua_State *L, int arg, const char *fname);
/* The terrain id of the value at idx (a name in the names table at names,
 * or an integer 0..255), or -1. */
int lc_terrain_id(lua_State *L, int idx, int names);
/* The unit named by the value at idx (argument arg of fname): a Lua error
 * when it is not defined. */
int lc_unit_id(lua_State *L, int idx, int arg, const char *fname, int grid);
/* The unit named by the option `unit` of the options at arg (0 when
 * absent): a Lua error when it is not defined. */
int lc_unit_option(lua_State *L, int arg, const char *fname, int grid);

/* Cost callbacks of a query.  lc_callbacks_init reads the options at arg
 * (tile_cost, move_cost, min_cost) into q; after astar_find_path returns
 * ASTAR_ECALLBACK or ASTAR_EBOUND, lc_callbacks_raise raises the error. */
typedef struct lc_callbacks {
  lua_State *L;
  int tile, move; /* stack indices of the functions, 0 when absent */
  int arg;        /* the options' argument number, for messages */
  int bad;        /* 1: a callback returned something not a cost */
  char msg[200];
} lc_callbacks;
void lc_callbacks_init(lua_State *L, int arg, const char *fname,
                       lc_callbacks *cb, astar_query *q);
void lc_callbacks_raise(lua_State *L, const char *fname, lc_callbacks *cb,
                        int status, const astar_result *r);

/* grid:fill(function): evaluates it once per tile and bakes the results. */
int lc_fill_function(lua_State *L, astar_grid *g);

extern const luaL_Reg lc_grid_methods[];
/* lua_zones.c */
extern const luaL_Reg lz_grid_methods[];

/* lua_query.c: options of find_path / next_step beyond costs (algorithm,
 * ties, goals, cutoffs, closest, blocked start/goal, heuristic function,
 * stats, explored).  lq_options reads them into q (values it needs stay
 * on the stack); after the search lq_stats fills the stats table and
 * lq_explored the explored table, and after
 * ASTAR_ECALLBACK with lq_callback_failed lq_raise raises the error. */
typedef struct lq_query {
  lua_State *L;
  int arg;          /* the options' argument number */
  int hfn, stats;   /* stack indices, 0 when absent */
  int explored;     /* stack index of the explored table, 0 when absent */
  int failed, bad;  /* the heuristic raised / returned a bad value */
  const char *algorithm;
  char msg[200];
} lq_query;
extern const char *const lq_outcome_names[];
int lq_has_goals(lua_State *L, int arg);
int lq_heuristic_function(lua_State *L, int arg);
void lq_options(lua_State *L, int arg, const char *fname, astar_grid *g,
                astar_query *q, lq_query *lq);
int lq_callback_failed(const lq_query *lq);
void lq_raise(lua_State *L, const char *fname, lq_query *lq);
void lq_stats(lua_State *L, const lq_query *lq, const astar_query *q,
              const astar_result *r);
void lq_explored(lua_State *L, const lq_query *lq, const astar_grid *g);

#endif

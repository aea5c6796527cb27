/* What the binding's files share about the Grid type. */
#ifndef ASTAR_LUA_GRID_H
#define ASTAR_LUA_GRID_H

#include "astar.h"
#include "compat.h"

#define GRID_MT "astar.Grid"
/* every function of the module gets the grid metatable as upvalue 1 and
 * lg_protect's trampoline as upvalue 2 */
#define GRID_MT_UPVALUE lua_upvalueindex(1)
#define PROTECT_UPVALUE lua_upvalueindex(2)

struct lg_anchor;

/*
 * A Grid userdata: the map, its default search context (find_path,
 * next_step) and the bookkeeping that keeps both safe from the Lua code a
 * method may run (option tables with metamethods, callbacks, finalizers).
 *
 *  - A method reads every Lua argument first, then takes the map with
 *    lg_core, which raises if that Lua code closed the grid meanwhile.
 *  - Where the core runs Lua code mid-way (cost callbacks, the read-out
 *    of a path into a table) the grid is busy (lg_enter / lg_leave): its
 *    methods raise "busy", and close, __close and __gc only mark it closed;
 *    the memory goes when the method leaves.  Those sections never let a
 *    Lua error through (callbacks run under lua_pcall, read-outs under
 *    lg_protected_call), so busy always drops back.
 *  - A grid closed while busy is listed in the state's anchor: when the
 *    state closes in the middle of a method (os.exit(0, true) from a
 *    callback), the anchor's finalizer, which runs after every other one,
 *    frees what the method never got back to.
 */
typedef struct lgrid {
  astar_grid g;
  astar_search ctx;       /* the default search context */
  lua_Alloc alloc;        /* the state's allocator, captured at creation */
  void *alloc_ud;
  int busy;               /* sections of its methods now running */
  size_t held;            /* bytes its allocations hold (the adapter's
                             count: lg_report reads it in O(1)) */
  int closed;             /* close asked for: methods raise */
  size_t reported;        /* bytes the collector has been told of */
  struct lg_anchor *anchor;
  struct lgrid *pending_next, *pending_prev; /* closed while busy */
} lgrid;

/* The grid at idx, or NULL when it is not one. */
lgrid *lg_to_grid(lua_State *L, int idx);
/* The open, idle grid at argument 1, or a Lua error. */
lgrid *lg_check(lua_State *L, const char *fname);
/* The map, after the method has read its arguments: raises "the grid is
 * closed" (or "busy") when Lua code run meanwhile closed (or entered) it. */
astar_grid *lg_core(lua_State *L, lgrid *ud, const char *fname);
/* Busy sections; leave frees a grid closed meanwhile. */
void lg_enter(lgrid *ud);
void lg_leave(lgrid *ud);
/* Tells the collector how much the grid's memory grew since last time
 * (a step of the collector: may run finalizers, so call it last). */
void lg_report(lua_State *L, lgrid *ud);
/* A protected call of f(L, ud), f being free to raise: lg_protect pushes
 * the trampoline and *pc (filled in), the caller pushes f's nargs
 * arguments, then lg_protected_call runs it and returns lua_pcall's
 * status, with f's nresults results (or the error) on the stack.  f sees
 * its arguments at 1..nargs.  Nothing is allocated on the way (2 free
 * stack slots needed, and nargs more). */
typedef int (*lg_fn)(lua_State *L, void *ud);
typedef struct lg_pcall {
  lg_fn f;
  void *ud;
} lg_pcall;
void lg_protect(lua_State *L, lg_pcall *pc, lg_fn f, void *ud);
int lg_protected_call(lua_State *L, int nargs, int nresults);
/* Movement options (diagonals, cardinal, diagonal) of the options at arg,
 * with g's current values (or the defaults when g is NULL) for those
 * absent. */
void lg_movement_options(lua_State *L, int arg, const char *fname,
                         const astar_grid *g, int *rule, double *cardinal,
                         double *diagonal);
/* Makes the map's derived data for unit ready for a query or a zone
 * question (astar_grid_prepare), raising on failure. */
void lg_prepare(lua_State *L, astar_grid *g, int unit, unsigned what,
                const char *fname);

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

/* lua_module.c: text legends and parse errors, shared with load_string */
void lm_check_legend(lua_State *L, int arg, const char *fname,
                     astar_legend *legend, int names);
void lm_text_error(lua_State *L, int arg, const char *fname,
                   const astar_parse_error *e);
void lm_load_text(lua_State *L, astar_grid *g, const char *s, size_t len,
                  const astar_legend *legend, int arg, const char *fname);

/* lua_terrain.c.  A names table maps name -> id and id -> name (terrain
 * classes, unit classes); a grid keeps one of each in its user value. */
void lt_push_names(lua_State *L, int grid, const char *kind);
/* Pushes a names table for the `terrains` option of the options at arg
 * (empty when absent), checking it. */
void lt_terrain_option(lua_State *L, int arg, const char *fname);
/* The terrain id of the value at idx (a name in the names table at names,
 * or an integer 0..255), or -1. */
int lt_terrain_id(lua_State *L, int idx, int names);
/* The unit named by the value at idx (argument arg of fname): a Lua error
 * when it is not defined. */
int lt_unit_id(lua_State *L, int idx, int arg, const char *fname, int grid);
/* The unit named by the option `unit` of the options at arg (0 when
 * absent): a Lua error when it is not defined. */
int lt_unit_option(lua_State *L, int arg, const char *fname, int grid);

/* The methods of each file, registered by lua_module.c. */
extern const luaL_Reg lg_grid_methods[]; /* lua_grid.c */
extern const luaL_Reg lg_grid_meta[];
extern const luaL_Reg lq_grid_methods[]; /* lua_query.c */
extern const luaL_Reg lt_grid_methods[]; /* lua_terrain.c */
extern const luaL_Reg lz_grid_methods[]; /* lua_zones.c */

/* The option keys each options table accepts: the very lists la_options
 * checks against (lua_module.c gathers them for scripts/check-library). */
extern const char *const *const lg_movement_keys; /* set_movement */
extern const char *const *const lq_query_keys;    /* find_path, next_step */
extern const char *const *const lt_unit_keys;     /* set_unit */
/* lua_grid.c: pushes a new empty grid (the module's metatable, its user
 * value with the names table at `names`) and sizes it (a Lua error names
 * argument warg when the size is too big). */
astar_grid *lg_push_grid(lua_State *L, int32_t w, int32_t h,
                         const char *fname, int warg, int names);
/* lua_grid.c: the anchor (see above), made once per state by luaopen. */
void lg_open_anchor(lua_State *L);

#endif

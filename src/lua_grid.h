/* What the binding's files share about the Grid type. */
#ifndef ASTAR_LUA_GRID_H
#define ASTAR_LUA_GRID_H

#include "astar.h"
#include "compat.h"

#define GRID_MT "astar.Grid"
#define FIELD_MT "astar.Field"
/* every function of the module (lg_protect's trampoline too) gets the
 * grid metatable as upvalue 1, the trampoline as upvalue 2, the
 * metatables of query objects and pathfinders as upvalues 3 and 4, and
 * the field metatable as upvalue 5 */
#define GRID_MT_UPVALUE lua_upvalueindex(1)
#define PROTECT_UPVALUE lua_upvalueindex(2)
#define QUERY_MT_UPVALUE lua_upvalueindex(3)
#define POOL_MT_UPVALUE lua_upvalueindex(4)
#define FIELD_MT_UPVALUE lua_upvalueindex(5)
/* registry key of the weak set of Field userdata (lua_field.c,
 * lua_field_read.c) */
#define LF_KNOWN_KEY "astar.known_fields"

struct lg_anchor;

/* next_step's remembered path (lua_query.c): the tiles of the last path
 * it found (0-based x, y pairs), the cost of the step into each, and what it was
 * found with (the map's version, the goal, the options that shape it). */
#define LG_MEMORY_TILE (sizeof(double) + 2 * sizeof(int32_t))
typedef struct lg_memory {
  double *acc; /* one block of cap * LG_MEMORY_TILE bytes: acc (the cost
                  of the step into each tile), then xy */
  int32_t *xy;
  size_t len, cap, at; /* tiles, room, where the unit was last */
  int valid;
  uint64_t version;
  int32_t gx, gy;
  int unit, heuristic, algorithm, ties, no_zones, open_list, ran;
  double weight, min_cost;
  const char *name; /* the algorithm asked for (NULL: auto) */
} lg_memory;

/* The binding's growable buffers (lg_buffer), one per use. */
enum { LG_BUF_PATH = 0, LG_BUF_AVOID, LG_BUF_EXTRA_XY, LG_BUF_EXTRA_COST,
       LG_BUF_SMOOTH, LG_BUFFERS };

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
#define LG_SPARE 4 /* spare contexts a grid keeps for its query objects */

typedef struct lgrid {
  astar_grid g;
  astar_search ctx;       /* the default search context */
  /* contexts of closed query objects, warm for the next ones (a new
   * context on a big map costs its allocation and a clear) */
  astar_search spare[LG_SPARE];
  int nspare;
  lua_Alloc alloc;        /* the state's allocator, captured at creation */
  void *alloc_ud;
  int busy;               /* sections of its methods now running */
  size_t held;            /* bytes its allocations hold (the adapter's
                             count: lg_report reads it in O(1)) */
  int closed;             /* close asked for: methods raise */
  size_t reported;        /* bytes the collector has been told of */
  struct lg_anchor *anchor;
  struct lgrid *pending_next, *pending_prev; /* closed while busy */
  void *buf[LG_BUFFERS];  /* lg_buffer's buffers, freed by close */
  size_t buf_cap[LG_BUFFERS]; /* their bytes */
  lg_memory memory;       /* next_step's remembered path */
} lgrid;

/* The grid at idx, or NULL when it is not one. */
lgrid *lg_to_grid(lua_State *L, int idx);
/* The open, idle grid at argument 1, or a Lua error. */
lgrid *lg_check(lua_State *L, const char *fname);
/* The map, after the method has read its arguments: raises "the grid is
 * closed" (or "busy") when Lua code run meanwhile closed (or entered) it. */
astar_grid *lg_core(lua_State *L, lgrid *ud, const char *fname);
/* The grid's allocator adapter (ud: the lgrid): the grid's contexts and
 * those of its query objects and pools allocate through it, so the
 * grid's held count sees them. */
void *lg_alloc(void *ud, void *ptr, size_t osize, size_t nsize);
/* A spare context of the grid into *s (1), or 0 when it has none; and
 * the other way: a query object's idle context kept as a spare, or
 * released when the grid is closed or has enough. */
int lg_take_context(lgrid *ud, astar_search *s);
void lg_give_context(lgrid *ud, astar_search *s);
/* Busy sections; leave frees a grid closed meanwhile. */
void lg_enter(lgrid *ud);
void lg_leave(lgrid *ud);
/* The collector's view of memory it cannot see, for any object that
 * holds some (grids, fields): lg_account reports that the object's bytes
 * are now `now` (*reported: what it said last; growth steps the collector,
 * which may run finalizers: call it last); lg_unaccount takes them back
 * when the object frees them. */
void lg_account(lua_State *L, struct lg_anchor *a, size_t *reported,
                size_t now);
void lg_unaccount(struct lg_anchor *a, size_t *reported);
/* Buffer `which` of the grid, at least bytes long (kept and reused; no
 * garbage per call); raises "not enough memory".  Only for a grid that
 * is open (lg_core), with no Lua code run until its contents are used. */
void *lg_buffer(lua_State *L, lgrid *ud, int which, size_t bytes);
/* Grows next_step's memory to n tiles (0 when that failed). */
int lg_memory_room(lgrid *ud, size_t n);
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

/* lua_query_options.c: the avoid and extra_cost options of the options
 * at arg: their tables left on the stack (*avoid, *extra: their indices, 0
 * when absent; Lua code may run: before lg_core), then, after lg_core,
 * read raw into the grid's buffers and set in q. */
void lq_overlay_tables(lua_State *L, int arg, const char *fname, int *avoid,
                       int *extra);
void lq_overlay_fill(lua_State *L, int arg, const char *fname, lgrid *ud,
                     astar_query *q, int avoid, int extra);

/* lua_graph_field.c: g:field on an explicit graph (get returns the graph,
 * open and idle, or raises; it is called again after the arguments are
 * read), and the GraphField metatable (registered by lua_graph.c). */
typedef const astar_graph *(*lgf_graph_fn)(lua_State *L, void *ud);
int lgf_field(lua_State *L, lgf_graph_fn get, void *ud);
void lgf_register(lua_State *L);

/* lua_prepare.c's kinds (grid:prepare, prepared, unprepare): prepare
 * reads the kind's arguments from 3 on (the grid at 1, the kind at 2),
 * builds, and returns the bytes the kind holds; state says "ready",
 * "stale" or NULL (none); drop frees.  lua_landmarks.c: */
size_t llm_prepare(lua_State *L, lgrid *ud);
const char *llm_state(lgrid *ud);
void llm_drop(lgrid *ud);
/* lua_prepare.c: the rows of grid:prepare's table of kinds.  prepare
 * builds from the arguments at arg on and pushes a table of its figures
 * ({bytes = bytes held, ...}; the dispatcher adds ms); state
 * returns 0 (none), 1 (ready) or 2 (stale); drop frees the kind's data. */
void lpr_subgoal_prepare(lua_State *L, lgrid *ud, int arg,
                         const char *fname);
int lpr_subgoal_state(lua_State *L, lgrid *ud, int arg, const char *fname);
void lpr_subgoal_drop(lua_State *L, lgrid *ud, const char *fname);

/* The methods of each file, registered by lua_module.c. */
extern const luaL_Reg lg_grid_methods[]; /* lua_grid.c */
extern const luaL_Reg lg_grid_meta[];
extern const luaL_Reg lq_grid_methods[]; /* lua_query.c */
extern const luaL_Reg lt_grid_methods[]; /* lua_terrain.c */
extern const luaL_Reg lz_grid_methods[]; /* lua_zones.c */
extern const luaL_Reg lpr_grid_methods[]; /* lua_prepare.c */
extern const luaL_Reg lsi_grid_methods[]; /* lua_sight.c */
extern const luaL_Reg lf_grid_methods[]; /* lua_field_build.c */
extern const luaL_Reg lf_module_functions[];
extern const luaL_Reg *const lf_build_methods;
extern const luaL_Reg *const lf_field_methods; /* lua_field.c */
extern const luaL_Reg *const lf_read_methods;  /* lua_field_read.c */
/* lua_field_read.c: the ffi path of field:next_step and field:steps under
 * LuaJIT: sets module._ffi, _fields and _field_methods (lua/astar/init.lua
 * takes them away). */
void lf_open_ffi(lua_State *L, int module, int field_mt);
extern const luaL_Reg *const lf_field_meta; /* lua_field.c */
extern const luaL_Reg lp_grid_methods[]; /* lua_path.c */
extern const luaL_Reg lk_grid_methods[]; /* lua_links.c */
extern const luaL_Reg lpr_grid_methods[]; /* lua_prepare.c */
/* lua_graph.c, lua_search.c: set astar.graph (and the Graph type) and
 * astar.search into the module table at index module. */
void lgr_register(lua_State *L, int module);
void lst_register(lua_State *L, int module);

/* The option keys each options table accepts: the very lists la_options
 * checks against (lua_module.c gathers them for scripts/check-library). */
extern const char *const *const lg_movement_keys; /* set_movement */
extern const char *const *const lq_query_keys;    /* find_path, query, request */
extern const char *const *const lt_unit_keys;     /* set_unit */
extern const char *const *const lq_next_step_keys; /* next_step */
extern const char *const *const lf_field_keys;     /* grid:field */
extern const char *const *const lf_combine_keys;   /* astar.combine */
extern const char *const *const lgr_graph_keys;    /* astar.graph{...} */
extern const char *const *const lgr_query_keys;    /* graph:find_path */
extern const char *const *const lgf_field_keys;    /* graph:field */
extern const char *const *const lp_check_keys;     /* path_ok, path_cost */
extern const char *const *const lp_repair_keys;    /* repair */
extern const char *const *const lpf_pool_keys;     /* astar.pathfinder */
extern const char *const *const lpf_budget_keys;   /* pathfinder:update */
extern const char *const *const lst_search_keys;   /* astar.search{...} */
extern const char *const *const lsi_smooth_keys;   /* smooth */
/* lua_grid.c: pushes a new empty grid (the module's metatable, its user
 * value with the names table at `names`) and sizes it (a Lua error names
 * argument warg when the size is too big). */
astar_grid *lg_push_grid(lua_State *L, int32_t w, int32_t h,
                         const char *fname, int warg, int names);
/* lua_grid.c: the anchor (see above), made once per state by luaopen. */
void lg_open_anchor(lua_State *L);

#endif

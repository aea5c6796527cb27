/* What the binding's files share about snapshots, their tokens and the
 * worker pools (lua_snapshot.c, lua_tokens.c, lua_workers.c, and
 * lua_query.c and lua_query_options.c for the queries on a snapshot). */
#ifndef ASTAR_LUA_SNAPSHOT_H
#define ASTAR_LUA_SNAPSHOT_H

#include "astar.h"
#include "compat.h"

#define SNAP_MT "astar.Snapshot"
#define WORKERS_MT "astar.Workers"
#define HOLDER_MT "astar.BatchHolder"

/*
 * A Snapshot userdata: one holder of a core snapshot (shared, refcounted,
 * possibly with other states on other threads) and a search context of
 * its own for find_path, next_step and find_paths on this thread.  busy
 * while a path is read out of the context (a finalizer run meanwhile
 * cannot reuse it); close while busy waits for the method to leave.
 */
typedef struct lsnap {
  astar_snapshot *snap; /* NULL once released */
  astar_search ctx;
  int busy;
  int closed;
  size_t reported; /* bytes of ctx the collector has been told of */
} lsnap;

/* malloc-based allocator (any thread, outlives every Lua state): the
 * memory of snapshots, batches and pools. */
void *lsn_sys_alloc(void *ud, void *ptr, size_t osize, size_t nsize);

/* The snapshot at idx, or NULL. */
lsnap *lsn_to_snap(lua_State *L, int idx);
/* The open, idle snapshot at argument arg, or a Lua error. */
lsnap *lsn_check(lua_State *L, int arg, const char *fname);
/* Its map after the arguments were read (raises when closed meanwhile). */
const astar_grid *lsn_core(lua_State *L, lsnap *s, const char *fname);
void lsn_enter(lsnap *s);
void lsn_leave(lsnap *s);
/* Tells the collector how much the context grew (call it last: a step
 * may run finalizers). */
void lsn_report(lua_State *L, lsnap *s);

/* lua_tokens.c: the process-wide registry of published snapshots. */
#define LK_TOKEN_SIZE 80
enum { LK_OK = 0, LK_FORGED, LK_OTHER_PROCESS, LK_RELEASED, LK_NOMEM };
/* Writes s's token (publishing s on its first token). */
int lk_token(astar_snapshot *s, char *buf, size_t size);
/* A new hold of the snapshot of a token (LK_OK) or why not. */
int lk_attach(const char *tok, size_t len, astar_snapshot **out);
/* Lets go of one hold; the last one unpublishes and frees. */
void lk_release(astar_snapshot *s);

/* lua_query_options.c: the options of a batch (find_paths, submit) at
 * arg into *q, for map g, unit names from the snapshot at obj; leaves the
 * goals' userdata on the stack (q->goals points into it). */
void lq_batch_options(lua_State *L, int arg, const char *fname,
                      const astar_grid *g, int obj, astar_query *q);
extern const luaL_Reg lq_snap_methods[]; /* find_path, next_step */

/* lua_workers.c: a batch held by a userdata on the stack (freed by its
 * __gc if an error comes first) and the queries of a flat list. */
typedef struct lholder {
  astar_batch *b;
  astar_snapshot *s; /* a hold, released with the batch */
} lholder;
lholder *lw_push_holder(lua_State *L);
void lw_holder_free(lholder *h);
/* Reads the flat list {sx, sy, gx, gy, ...} at arg into a new batch of
 * h (options q, map g). */
void lw_read_queries(lua_State *L, int arg, const char *fname,
                     const astar_grid *g, const astar_query *q, lholder *h);
/* Results of a finished batch as the documented table (into the table
 * at out, or a new one: out == 0), with or without the paths; pushes
 * it. */
void lw_push_results(lua_State *L, astar_batch *b, int out,
                     int paths);
/* Packs a finished batch into one string (pushed). */
void lw_push_packed(lua_State *L, const astar_batch *b);

extern const luaL_Reg lsn_snap_methods[];
extern const luaL_Reg lsn_snap_meta[];
extern const luaL_Reg lsn_grid_methods[];   /* grid:snapshot */
extern const luaL_Reg lsn_module_functions[]; /* attach */
extern const luaL_Reg lw_module_functions[]; /* workers, unpack_paths */
/* the keys of the read-out options (results, unpack_paths) */
extern const char *const *const lw_read_keys;
extern const luaL_Reg lw_pool_methods[];
extern const luaL_Reg lw_pool_meta[];
extern const luaL_Reg lw_holder_meta[];
/* luaopen: the state's pool anchor, whose finalizer (run after every
 * pool's, before the module can be unloaded) closes what is left. */
void lw_open_anchor(lua_State *L);

#endif

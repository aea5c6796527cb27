/* What the Graph type's binding files share (lua_graph.c: the type;
 * lua_graph_query.c: graph:find_path). */
#ifndef ASTAR_LUA_GRAPH_H
#define ASTAR_LUA_GRAPH_H

#include "astar.h"
#include "compat.h"

/* every function of the Graph type gets its metatable as upvalue 1 and
 * lgr_read_path as upvalue 2 (lgr_register) */
#define MT_UPVALUE lua_upvalueindex(1)
#define READ_UPVALUE lua_upvalueindex(2)

typedef struct lgraph {
  astar_graph g;
  astar_search ctx;
  uint32_t *goals;  /* the goals of the last query */
  size_t goals_cap;
  int busy, closed;
  size_t reported;  /* bytes the collector has been told of */
} lgraph;

/* The open, idle graph at argument 1, or a Lua error. */
lgraph *lgr_check(lua_State *L, const char *fname);
/* The graph's core, after its method read its arguments. */
astar_graph *lgr_core(lua_State *L, lgraph *ud, const char *fname);
/* Raises status st ("too many nodes or edges" for ASTAR_ETOOBIG). */
void lgr_raise(lua_State *L, int st, const char *fname);
/* A node id at idx (1..n; argument arg of fname), returned 0-based. */
uint32_t lgr_node_arg(lua_State *L, int idx, int arg, const char *fname,
                      const char *name, const astar_graph *g);
/* The argument at arg is nil, none or a table ("out"), or a Lua error. */
void lgr_out_arg(lua_State *L, int arg, const char *fname);
/* The graph's zones, up to date (astar_graph_prepare), raising on
 * failure. */
void lgr_prepare(lua_State *L, lgraph *ud, const char *fname);
/* Frees the graph's memory and marks it closed. */
void lgr_release(lgraph *ud);
/* Tells the collector of the memory grown since last time (call it
 * last). */
void lgr_report(lua_State *L, lgraph *ud);

/* lua_graph_query.c: find_path, and the read-out of its path (a protected
 * function: the lgraph as a light userdata at 1, the out table or nil at
 * 2), registered by lgr_register. */
extern const luaL_Reg lgr_query_methods[];
int lgr_read_path(lua_State *L);

#endif

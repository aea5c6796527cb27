/* What the Field type's binding files share (lua_field.c: the type and
 * its lifecycle; lua_field_build.c: making fields; lua_field_read.c:
 * reading and following them). */
#ifndef ASTAR_LUA_FIELD_H
#define ASTAR_LUA_FIELD_H

#include "astar.h"
#include "compat.h"
#include "lua_grid.h"

typedef struct lfield {
  astar_field f;
  lua_Alloc alloc;
  void *alloc_ud;
  size_t held, reported;
  struct lg_anchor *anchor;
  lgrid *grid;        /* the grid in the user value (kept alive by it) */
  int busy, closed;
  /* scratch of the goals and their values, grown as needed */
  int32_t *goals;
  double *values;
  size_t goals_cap;
} lfield;

/* "to", "from", by ASTAR_FIELD_TO, ASTAR_FIELD_FROM */
extern const char *const lf_direction_names[];

/* The field at idx, or NULL when it is not one. */
lfield *lf_to_field(lua_State *L, int idx);
/* The field is open and idle, or a Lua error. */
void lf_core(lua_State *L, lfield *F, const char *fname);
/* The open, idle field at argument 1, or a Lua error. */
lfield *lf_check(lua_State *L, const char *fname);
/* Busy sections; leave frees a field closed meanwhile. */
void lf_enter(lfield *F);
void lf_leave(lfield *F);
/* Pushes a new, closed field whose user value holds grid (at index grid)
 * and the tile callback (at index fn, 0: none). */
lfield *lf_push(lua_State *L, int grid, int fn);
/* Points the field at idx to a grid and a callback (raw sets on keys that
 * exist: nothing is allocated). */
void lf_rebind(lua_State *L, int idx, int grid, int fn);
/* Pushes the field's grid and tile callback (false when none). */
void lf_push_bound(lua_State *L, int idx);
/* Tells the collector how much the field's memory grew (call it last). */
void lf_report(lua_State *L, lfield *F);
/* The field's grid, open and idle, prepared for the field's unit, with
 * its layer in *layer. */
lgrid *lf_grid(lua_State *L, lfield *F, const char *fname,
               astar_layer *layer);

#endif

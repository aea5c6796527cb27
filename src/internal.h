/* Core-private helpers shared between the core's own files. */
#ifndef ASTAR_INTERNAL_H
#define ASTAR_INTERNAL_H

#include "astar.h"


/* a * b, or 0 when it overflows size_t */
static inline size_t astar__mul_size(size_t a, size_t b) {
  if (a != 0 && b > SIZE_MAX / a) return 0;
  return a * b;
}

/* Search scratch shared by the engines (search.c): allocate on first use,
 * start a new generation (returns the stamp tag), double the heap. */
int astar__ensure_scratch(astar_grid *G);
uint32_t astar__next_generation(astar_grid *G);
int astar__grow_heap(astar_grid *G);

/* Jump point search (jps.c) over the passability bitmap `passable` (one
 * bit per padded tile, as astar_grid.passable).  The caller has checked
 * the query (in range, astar_jps_unsupported(G, q) == NULL).  Same result
 * and path walk as astar_find_path. */
int astar__jps(astar_grid *G, const uint64_t *passable, const astar_query *q,
               astar_result *r);

#endif

/* Core-private helpers shared between the core's own files. */
#ifndef ASTAR_INTERNAL_H
#define ASTAR_INTERNAL_H

#include "astar.h"


/* a * b, or 0 when it overflows size_t */
static inline size_t astar__mul_size(size_t a, size_t b) {
  if (a != 0 && b > SIZE_MAX / a) return 0;
  return a * b;
}

#endif

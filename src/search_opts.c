/*
 * Scratch memory of the query options (search.c): steps per tile for
 * max_length, path counts per tile for random ties, and the goal set.
 * Allocated through the grid's allocator on the first query that needs
 * them and kept for the next ones, so a query allocates nothing once the
 * grid has seen one like it.
 */
#include "astar.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

static astar__extra *extra(astar_grid *g) {
  if (g->extra == NULL) {
    g->extra = astar__alloc(g, 1, sizeof(astar__extra));
    if (g->extra != NULL) memset(g->extra, 0, sizeof(astar__extra));
  }
  return g->extra;
}

int astar__extra_arrays(astar_grid *g, int depth, int count) {
  astar__extra *x = extra(g);
  if (x == NULL) return ASTAR_ENOMEM;
  if (depth && x->depth == NULL &&
      (x->depth = astar__alloc(g, g->ntiles, sizeof(uint32_t))) == NULL)
    return ASTAR_ENOMEM;
  if (count && x->count == NULL &&
      (x->count = astar__alloc(g, g->ntiles, sizeof(double))) == NULL)
    return ASTAR_ENOMEM;
  return ASTAR_OK;
}

/* Grows a buffer of *cap elements to hold at least need (doubling). */
static int grow(astar_grid *g, void **p, size_t *cap, size_t need,
                size_t elem) {
  size_t n = *cap ? *cap : 16, bytes;
  void *q;
  if (need <= *cap) return ASTAR_OK;
  while (n < need) {
    if (n > SIZE_MAX / 2) return ASTAR_ENOMEM;
    n *= 2;
  }
  if ((bytes = astar__mul_size(n, elem)) == 0) return ASTAR_ENOMEM;
  q = g->alloc(g->alloc_ud, *p, *cap * elem, bytes);
  if (q == NULL) return ASTAR_ENOMEM;
  *p = q;
  *cap = n;
  return ASTAR_OK;
}

int astar__extra_goals(astar_grid *g, size_t targets, size_t set) {
  astar__extra *x = extra(g);
  void *p;
  int st;
  if (x == NULL) return ASTAR_ENOMEM;
  p = x->targets;
  st = grow(g, &p, &x->targets_cap, targets, sizeof(astar__target));
  x->targets = p;
  if (st != ASTAR_OK) return st;
  p = x->set;
  st = grow(g, &p, &x->set_cap, set, sizeof(uint64_t));
  x->set = p;
  return st;
}

void astar__extra_release(astar_grid *g) {
  astar__extra *x = g->extra;
  if (x == NULL) return;
  astar__free(g, x->depth, g->ntiles, sizeof(uint32_t));
  astar__free(g, x->count, g->ntiles, sizeof(double));
  astar__free(g, x->targets, x->targets_cap, sizeof(astar__target));
  astar__free(g, x->set, x->set_cap, sizeof(uint64_t));
  astar__free(g, x, 1, sizeof(astar__extra));
  g->extra = NULL;
}

size_t astar__extra_memory(const astar_grid *g) {
  const astar__extra *x = g->extra;
  size_t total;
  if (x == NULL) return 0;
  total = sizeof *x + x->targets_cap * sizeof(astar__target) +
          x->set_cap * sizeof(uint64_t);
  if (x->depth != NULL) total += (size_t)g->ntiles * sizeof(uint32_t);
  if (x->count != NULL) total += (size_t)g->ntiles * sizeof(double);
  return total;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

void astar__sort_set(uint64_t *set, size_t n) {
  qsort(set, n, sizeof *set, cmp_u64);
}

/* Binary search for the first entry of node: the lowest target index. */
long astar__set_find(const uint64_t *set, size_t n, uint32_t node) {
  uint64_t want = (uint64_t)node << 32;
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (set[mid] < want)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo < n && (uint32_t)(set[lo] >> 32) == node)
    return (long)(set[lo] & 0xFFFFFFFFu);
  return -1;
}

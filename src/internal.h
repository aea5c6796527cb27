/* Core-private helpers shared between the core's own files. */
#ifndef ASTAR_INTERNAL_H
#define ASTAR_INTERNAL_H

#include "astar.h"

/* a * b, or 0 when it overflows size_t */
static inline size_t astar__mul_size(size_t a, size_t b) {
  if (a != 0 && b > SIZE_MAX / a) return 0;
  return a * b;
}

static inline int astar__bit(const uint64_t *bits, uint32_t i) {
  return (int)((bits[i >> 6] >> (i & 63)) & 1u);
}

static inline void astar__set_bit(uint64_t *bits, uint32_t i, int on) {
  uint64_t bit = (uint64_t)1 << (i & 63);
  if (on)
    bits[i >> 6] |= bit;
  else
    bits[i >> 6] &= ~bit;
}

/* A tile callback's result, valid in search generation gen. */
typedef struct astar_memo {
  double cost;
  uint32_t gen;
} astar__memo;

/* grid.c */
void *astar__alloc(astar_grid *g, size_t count, size_t elem);
void astar__free(astar_grid *g, void *p, size_t count, size_t elem);
size_t astar__bitmap_words(uint32_t ntiles);
uint8_t astar__moves(const astar_grid *g, const uint64_t *bits, uint32_t i);
void astar__refresh_moves(astar_grid *g, const astar_unit *u, int32_t px0,
                          int32_t py0, int32_t px1, int32_t py1);
void astar__min_remove(astar_min *m, float c);
void astar__min_add(astar_min *m, float c);
void astar__min_scan(const astar_grid *g, const float *cost, astar_min *m);

/* units.c: keeping the units' own layers in step with the grid's */
uint8_t astar__height_filter(const astar_grid *g, const astar_unit *u,
                             uint32_t i, uint8_t moves);
void astar__units_cost_changed(astar_grid *g, uint32_t i);
void astar__units_tile_changed(astar_grid *g, int32_t x, int32_t y,
                               uint32_t i);
void astar__units_stale(astar_grid *g);
void astar__units_release(astar_grid *g);
size_t astar__units_memory(const astar_grid *g);

/* search.c: the search scratch, which zones.c borrows between searches */
int astar__ensure_scratch(astar_grid *g);
uint32_t astar__next_tag(astar_grid *g);

/* zones.c */
enum { ASTAR__ZONES_OPENED = 1, ASTAR__ZONES_CLOSED = 2,
       ASTAR__ZONES_MOVES = 3 /* moves gained and lost (heights) */ };
/* After the moves of the 3x3 tiles around (x, y) changed in a layer: an
 * OPENED or CLOSED tile (x, y), or MOVES of a height change. */
void astar__zones_changed(astar_grid *g, astar_zones *z, const uint8_t *moves,
                          const uint64_t *passable, int oneway, int32_t x,
                          int32_t y, int kind);
void astar__zones_release(astar_grid *g, astar_zones *z);
size_t astar__zones_memory(const astar_zones *z, uint32_t ntiles);
/* *apart = 1 when tiles a and b are in different zones of unit's layer
 * (labelled first if needed: ENOMEM). */
int astar__zones_apart(astar_grid *g, int unit, uint32_t a, uint32_t b,
                       int *apart);
static inline void astar__zones_stale(astar_zones *z) { z->stale = 1; }

#endif

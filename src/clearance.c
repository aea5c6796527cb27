/*
 * Clearance and large units.
 *
 * Per layer (the grid's own, or a unit class's own), the clearance of a
 * tile is the side of the largest square of enterable tiles whose top-left
 * tile it is:
 *
 *   c(x, y) = 0 on a tile the layer cannot enter, else
 *             1 + min(c(x + 1, y), c(x, y + 1), c(x + 1, y + 1))
 *
 * (capped at ASTAR_MAX_SIZE, one byte per tile; the border is 0).  An
 * s x s unit whose top-left tile is at (x, y) fits there exactly when
 * c(x, y) >= s.  So the unit's moves are the plain moves of the bitmap
 * "c >= s" (the grid's diagonal rule then applies to the footprint: a
 * diagonal step without corner cutting needs both orthogonal footprints
 * clear), intersected with the layer's own masks (height rules).  That
 * bitmap with its masks, column bits and zones is an astar_sized: a layer
 * like any other, which every engine reads unchanged, so a search for a
 * big unit costs what a plain one costs.
 *
 * A tile edit changes c only up and to the left of the tile: the values
 * are recomputed row by row upwards, each row from the right, only as far
 * as they change (clearance_changed).  Every tile whose value crosses a
 * size in use flips that size's bit, with its masks and zones repaired as
 * a plain edit repairs them.  Bulk edits mark everything stale; prepare
 * recomputes (O(tiles)).
 */
#include "astar.h"
#include "internal.h"

#include <string.h>

static size_t n_words(const astar_grid *g) {
  return astar__bitmap_words(g->ntiles);
}

/* ---- which clearance belongs to which unit ---- */

static const astar_unit *own_unit(const astar_grid *g, int unit) {
  const astar_unit *u = g->units[unit];
  return u != NULL && u->own ? u : NULL;
}

static const astar_clearance *clearance_of(const astar_grid *g, int unit) {
  const astar_unit *u = own_unit(g, unit);
  return u != NULL ? &u->clear : &g->clear;
}

static const astar_sized *find_sized(const astar_clearance *C, int size) {
  const astar_sized *z;
  for (z = C->sized; z != NULL; z = z->next)
    if (z->size == size) return z;
  return NULL;
}

/* The sized layer of (unit, size) when it is up to date, else NULL. */
static const astar_sized *ready_sized(const astar_grid *g, int unit,
                                      int size) {
  const astar_clearance *C = clearance_of(g, unit);
  const astar_sized *z;
  if (C->value == NULL || C->stale) return NULL;
  z = find_sized(C, size);
  return z != NULL && !z->stale ? z : NULL;
}

/* ---- values ---- */

static uint8_t value_at(const astar_grid *g, const uint8_t *v,
                        const uint64_t *bits, uint32_t i) {
  uint32_t s = (uint32_t)g->stride;
  unsigned a, b, c;
  if (!astar__bit(bits, i)) return 0;
  a = v[i + 1];
  b = v[i + s];
  c = v[i + s + 1];
  if (b < a) a = b;
  if (c < a) a = c;
  return (uint8_t)(a >= ASTAR_MAX_SIZE ? ASTAR_MAX_SIZE : a + 1);
}

static void compute(const astar_grid *g, uint8_t *v, const uint64_t *bits) {
  int32_t x, y;
  memset(v, 0, g->ntiles);
  for (y = g->height - 1; y >= 0; y--)
    for (x = g->width - 1; x >= 0; x--) {
      uint32_t i = astar_index(g, x, y);
      v[i] = value_at(g, v, bits, i);
    }
}

/* ---- sized layers ---- */

static void free_sized(astar_grid *g, astar_sized *z) {
  astar__free(g, z->moves, g->ntiles, 1);
  astar__free(g, z->passable, n_words(g), sizeof(uint64_t));
  astar__free(g, z->passable_t, n_words(g), sizeof(uint64_t));
  z->moves = NULL;
  z->passable = NULL;
  z->passable_t = NULL;
  astar__zones_release(g, &z->zones);
}

void astar__clearance_release(astar_grid *g, astar_clearance *C) {
  astar_sized *z = C->sized;
  while (z != NULL) {
    astar_sized *next = z->next;
    free_sized(g, z);
    astar__free(g, z, 1, sizeof *z);
    z = next;
  }
  astar__free(g, C->value, g->ntiles, 1);
  C->value = NULL;
  C->sized = NULL;
  C->stale = 0;
}

size_t astar__clearance_memory(const astar_grid *g,
                               const astar_clearance *C) {
  size_t total = 0;
  const astar_sized *z;
  if (C->value != NULL) total += g->ntiles;
  for (z = C->sized; z != NULL; z = z->next) {
    total += sizeof *z + astar__zones_memory(g, &z->zones);
    if (z->moves != NULL) total += g->ntiles + n_words(g) * sizeof(uint64_t);
    if (z->passable_t != NULL) total += n_words(g) * sizeof(uint64_t);
  }
  return total;
}

/* The masks of the interior tiles of the padded rectangle [px0, px1] x
 * [py0, py1]: the plain moves of the sized bits within the layer's own. */
static void refresh_sized(const astar_grid *g, astar_sized *z,
                          const uint8_t *moves, int32_t px0, int32_t py0,
                          int32_t px1, int32_t py1) {
  int32_t x, y;
  if (px0 < 1) px0 = 1;
  if (py0 < 1) py0 = 1;
  if (px1 > g->width) px1 = g->width;
  if (py1 > g->height) py1 = g->height;
  for (y = py0; y <= py1; y++)
    for (x = px0; x <= px1; x++) {
      uint32_t i = (uint32_t)y * (uint32_t)g->stride + (uint32_t)x;
      z->moves[i] = (uint8_t)(astar__moves(g, z->passable, i) & moves[i]);
    }
}

static int rebuild_sized(astar_grid *g, const astar_clearance *C,
                         astar_sized *z, const uint8_t *moves) {
  int32_t x, y;
  if (z->moves == NULL) z->moves = astar__alloc(g, g->ntiles, 1);
  if (z->passable == NULL)
    z->passable = astar__alloc(g, n_words(g), sizeof(uint64_t));
  if (z->moves == NULL || z->passable == NULL) {
    free_sized(g, z);
    return ASTAR_ENOMEM;
  }
  memset(z->moves, 0, g->ntiles);
  memset(z->passable, 0, n_words(g) * sizeof(uint64_t));
  for (y = 0; y < g->height; y++)
    for (x = 0; x < g->width; x++) {
      uint32_t i = astar_index(g, x, y);
      if (C->value[i] >= z->size) astar__set_bit(z->passable, i, 1);
    }
  refresh_sized(g, z, moves, 1, 1, g->width, g->height);
  astar__free(g, z->passable_t, n_words(g), sizeof(uint64_t));
  z->passable_t = NULL;
  astar__zones_stale(&z->zones);
  z->stale = 0;
  return ASTAR_OK;
}

/* After tile (x, y) went from clearance old to now: every size in use that
 * the change crosses flips the tile's bit, as a plain edit would. */
static void crossed(astar_grid *g, astar_clearance *C, const uint8_t *moves,
                    int oneway, int32_t x, int32_t y, uint32_t i,
                    unsigned old, unsigned now) {
  astar_sized *z;
  for (z = C->sized; z != NULL; z = z->next) {
    int open = now >= (unsigned)z->size;
    if (z->stale || open == (old >= (unsigned)z->size)) continue;
    astar__set_bit(z->passable, i, open);
    if (z->passable_t != NULL) astar__flip_column_bit(g, z->passable_t, i);
    refresh_sized(g, z, moves, x, y, x + 2, y + 2);
    astar__zones_changed(g, &z->zones, z->moves, z->passable, oneway, x, y,
                         open ? ASTAR__ZONES_OPENED : ASTAR__ZONES_CLOSED);
  }
}

void astar__clearance_changed(astar_grid *g, astar_clearance *C,
                              const uint64_t *bits, const uint8_t *moves,
                              int oneway, int32_t x, int32_t y) {
  int32_t lo = x, hi = x, r;
  if (C->value == NULL || C->stale) return;
  for (r = y; r >= 0; r--) {
    int32_t c, nlo = x + 1, nhi = -1;
    for (c = hi; c >= 0; c--) {
      uint32_t i = astar_index(g, c, r);
      uint8_t old = C->value[i], now = value_at(g, C->value, bits, i);
      if (now == old) {
        if (c < lo) break; /* nothing left of here depends on a change */
        continue;
      }
      C->value[i] = now;
      crossed(g, C, moves, oneway, c, r, i, old, now);
      if (c < nlo) nlo = c;
      if (c > nhi) nhi = c;
    }
    if (nhi < 0) break;
    /* the row above reads this row at the same column and one right */
    lo = nlo > 0 ? nlo - 1 : 0;
    hi = nhi;
  }
}

/* ---- prepare ---- */

static int prepare_clearance(astar_grid *g, int unit, int size,
                             unsigned what) {
  astar_unit *u = g->units[unit];
  astar_clearance *C;
  astar_sized *z;
  astar_layer L;
  astar__jps_layer J;
  int st, oneway = 0;
  if (u != NULL && !u->own) u = NULL;
  C = u != NULL ? &u->clear : &g->clear;
  if (u != NULL) oneway = astar__height_limited(u);
  if ((st = astar_grid_layer(g, unit, &L)) != ASTAR_OK) return st;
  if (C->value == NULL) {
    if ((C->value = astar__alloc(g, g->ntiles, 1)) == NULL)
      return ASTAR_ENOMEM;
    C->stale = 1;
  }
  if (C->stale) {
    compute(g, C->value, L.passable);
    for (z = C->sized; z != NULL; z = z->next) z->stale = 1;
    C->stale = 0;
  }
  if (size <= 1) return ASTAR_OK;
  for (z = C->sized; z != NULL && z->size != size; z = z->next) {
  }
  if (z == NULL) {
    if ((z = astar__alloc(g, 1, sizeof *z)) == NULL) return ASTAR_ENOMEM;
    memset(z, 0, sizeof *z);
    z->size = size;
    z->stale = 1;
    z->next = C->sized;
    C->sized = z;
  }
  if (z->stale || z->moves == NULL) {
    if ((st = rebuild_sized(g, C, z, L.moves)) != ASTAR_OK) return st;
  }
  /* the column bits where JPS can run on the unit's own layer */
  if (z->passable_t == NULL && astar__unit_jps_layer(g, unit, &J) == 1 &&
      (st = astar__make_columns(g, z->passable, &z->passable_t)) != ASTAR_OK)
    return st;
  if ((what & ASTAR_PREPARE_ZONES) && !astar__zones_ready(&z->zones))
    return astar__zones_label(g, &z->zones, z->moves, z->passable, oneway);
  return ASTAR_OK;
}

int astar_grid_prepare_size(astar_grid *g, int unit, int size,
                            unsigned what) {
  int k, st;
  if (size < 0 || size > ASTAR_MAX_SIZE) return ASTAR_EINVAL;
  if (size > 1) what |= ASTAR_PREPARE_CLEARANCE;
  if (size > 1 && (what & ASTAR_PREPARE_ZONES)) {
    /* the one-tile zones are not needed for the big unit's */
    if ((st = astar_grid_prepare(g, unit, what & ~ASTAR_PREPARE_ZONES)) !=
        ASTAR_OK)
      return st;
  } else if ((st = astar_grid_prepare(g, unit, what)) != ASTAR_OK) {
    return st;
  }
  if (!(what & ASTAR_PREPARE_CLEARANCE)) return ASTAR_OK;
  if (unit != ASTAR_ALL_UNITS) return prepare_clearance(g, unit, size, what);
  for (k = 0; k < ASTAR_MAX_UNITS; k++) {
    if (!astar__unit_defined(g, k)) continue;
    if ((st = prepare_clearance(g, k, size, what)) != ASTAR_OK) return st;
  }
  return ASTAR_OK;
}

/* ---- reading ---- */

int astar_grid_clearance(const astar_grid *g, int unit, int32_t x, int32_t y,
                         int *value) {
  const astar_clearance *C;
  astar_layer L;
  int st;
  *value = 0;
  if (x < 0 || y < 0 || x >= g->width || y >= g->height) return ASTAR_EINVAL;
  if ((st = astar_grid_layer(g, unit, &L)) != ASTAR_OK) return st;
  C = clearance_of(g, unit);
  if (C->value == NULL || C->stale) return ASTAR_EPREPARE;
  *value = C->value[astar_index(g, x, y)];
  return ASTAR_OK;
}

int astar_grid_layer_size(const astar_grid *g, int unit, int size,
                          astar_layer *out) {
  const astar_sized *z;
  int st = astar_grid_layer(g, unit, out);
  if (st != ASTAR_OK || size <= 1) return st;
  if (size > ASTAR_MAX_SIZE) return ASTAR_EINVAL;
  if ((z = ready_sized(g, unit, size)) == NULL) return ASTAR_EPREPARE;
  out->moves = z->moves;
  out->passable = z->passable;
  return ASTAR_OK;
}

int astar__jps_layer_size(const astar_grid *g, int unit, int size,
                          astar__jps_layer *J) {
  const astar_sized *z;
  int st = astar__unit_jps_layer(g, unit, J);
  if (st < 0 || size <= 1) return st;
  if ((z = ready_sized(g, unit, size)) == NULL) return ASTAR_EPREPARE;
  J->passable = z->passable;
  J->columns = z->passable_t;
  if (st == 1 && J->columns == NULL) return ASTAR_EPREPARE;
  return st;
}

const astar_zones *astar__zones_size(const astar_grid *g, int unit,
                                     int size) {
  const astar_sized *z;
  if (size <= 1) return astar__layer_zones(g, unit);
  if (!astar__unit_defined(g, unit)) return NULL;
  z = ready_sized(g, unit, size);
  return z != NULL ? &z->zones : NULL;
}

int astar__zones_apart_size(const astar_grid *g, int unit, int size,
                            uint32_t a, uint32_t b, int *apart) {
  const astar_zones *z;
  *apart = 0;
  if (size <= 1) return astar__zones_apart(g, unit, a, b, apart);
  z = astar__zones_size(g, unit, size);
  if (z == NULL || !astar__zones_ready(z)) return ASTAR_EPREPARE;
  *apart = astar__zone_at(z, a) != astar__zone_at(z, b);
  return ASTAR_OK;
}

static int sized_zones(const astar_grid *g, int unit, int size,
                       const astar_zones **out) {
  if (!astar__unit_defined(g, unit) || size < 0 || size > ASTAR_MAX_SIZE)
    return ASTAR_EINVAL;
  *out = astar__zones_size(g, unit, size);
  if (*out == NULL || !astar__zones_ready(*out)) return ASTAR_EPREPARE;
  return ASTAR_OK;
}

int astar_zone_of_size(const astar_grid *g, int unit, int size, int32_t x,
                       int32_t y, uint32_t *zone) {
  const astar_zones *z;
  int st;
  if (size <= 1) return astar_zone_of(g, unit, x, y, zone);
  *zone = 0;
  if (x < 0 || y < 0 || x >= g->width || y >= g->height) return ASTAR_EINVAL;
  if ((st = sized_zones(g, unit, size, &z)) != ASTAR_OK) return st;
  *zone = astar__zone_at(z, astar_index(g, x, y));
  return ASTAR_OK;
}

int astar_zone_count_size(const astar_grid *g, int unit, int size,
                          uint32_t *count) {
  const astar_zones *z;
  int st;
  if (size <= 1) return astar_zone_count(g, unit, count);
  *count = 0;
  if ((st = sized_zones(g, unit, size, &z)) != ASTAR_OK) return st;
  *count = z->count;
  return ASTAR_OK;
}

int astar_zone_size_size(const astar_grid *g, int unit, int size, uint32_t id,
                         uint32_t *tiles) {
  const astar_zones *z;
  int st;
  if (size <= 1) return astar_zone_size(g, unit, id, tiles);
  *tiles = 0;
  if ((st = sized_zones(g, unit, size, &z)) != ASTAR_OK) return st;
  if (id > 0 && id < z->used && z->parent[id] == id) *tiles = z->size[id];
  return ASTAR_OK;
}

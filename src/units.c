/*
 * Terrain classes, heights and unit classes.
 *
 * A unit class maps every terrain class to a multiplier (0 = impassable)
 * and may add a cost per unit of height climbed or descended, or ban steps
 * that climb or drop too much.  The search must not pay for any of this in
 * its hot loop, so a unit whose table is not all 1 (or that has a height
 * limit) gets its own baked layers: a float cost per tile (multiplier times
 * the tile's stored cost), a passability bitmap and legal-move masks, the
 * same shapes the grid keeps for the default unit.  Tile edits update every
 * unit's layers in O(units); bulk edits and table changes mark them stale,
 * and a stale unit is rebuilt (O(tiles)) at its next use.
 */
#include "astar.h"
#include "internal.h"

#include <float.h>
#include <math.h>
#include <string.h>

static size_t n_words(const astar_grid *g) {
  return astar__bitmap_words(g->ntiles);
}

/* ---- terrain and height layers ---- */

int astar_grid_use_terrain(astar_grid *g) {
  if (g->terrain != NULL) return ASTAR_OK;
  g->terrain = astar__alloc(g, g->ntiles, 1);
  if (g->terrain == NULL) return ASTAR_ENOMEM;
  memset(g->terrain, 0, g->ntiles);
  return ASTAR_OK;
}

int astar_grid_use_height(astar_grid *g) {
  uint32_t i;
  if (g->heights != NULL) return ASTAR_OK;
  g->heights = astar__alloc(g, g->ntiles, sizeof(float));
  if (g->heights == NULL) return ASTAR_ENOMEM;
  for (i = 0; i < g->ntiles; i++) g->heights[i] = 0.0f;
  return ASTAR_OK;
}

static int terrain_at(const astar_grid *g, uint32_t i) {
  return g->terrain != NULL ? g->terrain[i] : 0;
}

void astar_grid_put_terrain(astar_grid *g, uint32_t i, int terrain) {
  g->terrain[i] = (uint8_t)terrain;
}

void astar_grid_put_height(astar_grid *g, uint32_t i, float height) {
  g->heights[i] = height;
}

int astar_grid_set_terrain(astar_grid *g, int32_t x, int32_t y,
                           int terrain) {
  uint32_t i = astar_index(g, x, y);
  if (terrain < 0 || terrain >= ASTAR_TERRAINS) return ASTAR_EINVAL;
  if (terrain_at(g, i) == terrain) return ASTAR_OK;
  if (astar_grid_use_terrain(g) != ASTAR_OK) return ASTAR_ENOMEM;
  g->terrain[i] = (uint8_t)terrain;
  if (g->units_own) astar__units_tile_changed(g, x, y, i);
  return ASTAR_OK;
}

int astar_grid_get_terrain(const astar_grid *g, int32_t x, int32_t y) {
  return terrain_at(g, astar_index(g, x, y));
}

int astar_grid_fill_terrain(astar_grid *g, int32_t x0, int32_t y0,
                            int32_t w, int32_t h, int terrain) {
  int32_t y;
  if (terrain < 0 || terrain >= ASTAR_TERRAINS) return ASTAR_EINVAL;
  if (w <= 0 || h <= 0) return ASTAR_OK;
  if (g->terrain == NULL && terrain == 0) return ASTAR_OK;
  if (astar_grid_use_terrain(g) != ASTAR_OK) return ASTAR_ENOMEM;
  for (y = y0; y < y0 + h; y++)
    memset(g->terrain + astar_index(g, x0, y), terrain, (size_t)w);
  astar__units_stale(g);
  return ASTAR_OK;
}

static int height_limited(const astar_unit *u) {
  return u->max_climb < HUGE_VAL || u->max_drop < HUGE_VAL;
}

int astar_grid_set_height(astar_grid *g, int32_t x, int32_t y,
                          double height) {
  uint32_t i = astar_index(g, x, y);
  int k;
  if (!(fabs(height) <= ASTAR_MAX_HEIGHT)) return ASTAR_EINVAL;
  if (g->heights == NULL && height == 0.0) return ASTAR_OK;
  if (astar_grid_use_height(g) != ASTAR_OK) return ASTAR_ENOMEM;
  if (g->heights[i] == (float)height) return ASTAR_OK;
  g->heights[i] = (float)height;
  /* a unit's bans depend on the heights of a tile and its neighbours */
  for (k = 0; k < ASTAR_MAX_UNITS; k++) {
    astar_unit *u = g->units[k];
    if (u != NULL && u->own && !u->stale && u->moves != NULL &&
        height_limited(u)) {
      astar__refresh_moves(g, u, x, y, x + 2, y + 2);
      astar__zones_changed(g, &u->zones, u->moves,
                           u->passable, 1, x, y, ASTAR__ZONES_MOVES);
    }
  }
  return ASTAR_OK;
}

double astar_grid_get_height(const astar_grid *g, int32_t x, int32_t y) {
  return g->heights != NULL ? (double)g->heights[astar_index(g, x, y)] : 0.0;
}

/* ---- units ---- */

/* A unit's cost for a stored cost c and multiplier m > 0, kept a positive
 * finite float. */
static float unit_cost(float c, float m) {
  double p = (double)c * (double)m;
  if (p > (double)FLT_MAX) return FLT_MAX;
  if ((float)p <= 0.0f) return FLT_MIN;
  return (float)p;
}

static float own_cost(const astar_grid *g, const astar_unit *u, uint32_t i) {
  float m = u->table[terrain_at(g, i)];
  return m > 0.0f ? unit_cost(g->cost[i], m) : HUGE_VALF;
}

static int own_open(const astar_grid *g, const astar_unit *u, uint32_t i) {
  return astar__bit(g->passable, i) && u->table[terrain_at(g, i)] > 0.0f;
}

uint8_t astar__height_filter(const astar_grid *g, const astar_unit *u,
                             uint32_t i, uint8_t moves) {
  unsigned m = moves, keep = moves;
  double h;
  if (g->heights == NULL || !height_limited(u)) return moves;
  h = (double)g->heights[i];
  while (m) {
    unsigned d = astar__lowest_bit(m);
    double dh;
    m &= m - 1;
    dh = (double)g->heights[(uint32_t)((int32_t)i + g->offset[d])] - h;
    if (dh > u->max_climb || -dh > u->max_drop) keep &= ~(1u << d);
  }
  return (uint8_t)keep;
}

static int needs_own(const astar_unit *u) {
  int t;
  if (height_limited(u)) return 1;
  for (t = 0; t < ASTAR_TERRAINS; t++)
    if (u->table[t] != 1.0f) return 1;
  return 0;
}

static void free_own(astar_grid *g, astar_unit *u) {
  astar__free(g, u->cost, g->ntiles, sizeof(float));
  astar__free(g, u->moves, g->ntiles, 1);
  astar__free(g, u->passable, n_words(g), sizeof(uint64_t));
  astar__free(g, u->passable_t, n_words(g), sizeof(uint64_t));
  u->cost = NULL;
  u->moves = NULL;
  u->passable = NULL;
  u->passable_t = NULL;
  astar__zones_release(g, &u->zones);
}

int astar_unit_define(astar_grid *g, int unit, const float *table,
                      double climb, double descend, double max_climb,
                      double max_drop) {
  astar_unit *u;
  int t, own;
  if (unit < 0 || unit >= ASTAR_MAX_UNITS) return ASTAR_EINVAL;
  for (t = 0; t < ASTAR_TERRAINS; t++)
    if (!(table[t] == 0.0f || astar_cost_ok((double)table[t])))
      return ASTAR_EINVAL;
  if (!(climb >= 0.0 && climb <= ASTAR_MAX_HEIGHT) ||
      !(descend >= 0.0 && descend <= ASTAR_MAX_HEIGHT) ||
      !(max_climb >= 0.0) || !(max_drop >= 0.0))
    return ASTAR_EINVAL;
  u = g->units[unit];
  if (u == NULL) {
    u = astar__alloc(g, 1, sizeof *u);
    if (u == NULL) return ASTAR_ENOMEM;
    memset(u, 0, sizeof *u);
    g->units[unit] = u;
  }
  memcpy(u->table, table, sizeof u->table);
  u->climb = climb;
  u->descend = descend;
  u->max_climb = max_climb;
  u->max_drop = max_drop;
  own = needs_own(u);
  if (own && !u->own) g->units_own++;
  if (!own && u->own) {
    g->units_own--;
    free_own(g, u);
  }
  u->own = own;
  u->stale = 1;
  return ASTAR_OK;
}

int astar_unit_defined(const astar_grid *g, int unit) {
  if (unit < 0 || unit >= ASTAR_MAX_UNITS) return 0;
  return unit == 0 || g->units[unit] != NULL;
}

double astar_unit_cost(const astar_grid *g, int unit, int32_t x, int32_t y) {
  uint32_t i = astar_index(g, x, y);
  const astar_unit *u;
  float m;
  if (!astar_unit_defined(g, unit) || !astar__bit(g->passable, i)) return 0;
  u = g->units[unit];
  if (u == NULL) return (double)g->cost[i];
  m = u->table[terrain_at(g, i)];
  return m > 0.0f ? (double)unit_cost(g->cost[i], m) : 0.0;
}

/* Rebuilds a unit's own layers from the grid: O(tiles). */
static int rebuild(astar_grid *g, astar_unit *u) {
  int32_t x, y;
  if (u->cost == NULL) u->cost = astar__alloc(g, g->ntiles, sizeof(float));
  if (u->moves == NULL) u->moves = astar__alloc(g, g->ntiles, 1);
  if (u->passable == NULL)
    u->passable = astar__alloc(g, n_words(g), sizeof(uint64_t));
  if (u->cost == NULL || u->moves == NULL || u->passable == NULL) {
    free_own(g, u); /* all or nothing: memory() stays exact */
    return ASTAR_ENOMEM;
  }
  memset(u->moves, 0, g->ntiles);
  memset(u->passable, 0, n_words(g) * sizeof(uint64_t));
  for (x = 0; x < (int32_t)g->ntiles; x++) u->cost[x] = HUGE_VALF;
  for (y = 0; y < g->height; y++) {
    for (x = 0; x < g->width; x++) {
      uint32_t i = astar_index(g, x, y);
      u->cost[i] = own_cost(g, u, i);
      astar__set_bit(u->passable, i, own_open(g, u, i));
    }
  }
  astar__refresh_moves(g, u, 1, 1, g->width, g->height);
  astar__min_scan(g, u->cost, &u->min);
  u->range.dirty = 1;
  /* JPS makes its column-major copy again when it needs it */
  astar__free(g, u->passable_t, n_words(g), sizeof(uint64_t));
  u->passable_t = NULL;
  u->stale = 0;
  astar__zones_stale(&u->zones); /* the moves changed wholesale */
  return ASTAR_OK;
}

int astar_grid_layer(astar_grid *g, int unit, astar_layer *out) {
  astar_unit *u;
  memset(out, 0, sizeof *out);
  if (!astar_unit_defined(g, unit)) return ASTAR_EINVAL;
  u = g->units[unit];
  if (u == NULL || !u->own) {
    out->cost = g->cost;
    out->moves = g->moves;
    out->passable = g->passable;
    out->min_cost = (double)astar_grid_min_cost(g);
  } else {
    if (u->stale || u->cost == NULL) {
      int st = rebuild(g, u);
      if (st != ASTAR_OK) return st;
    }
    if (u->min.dirty) astar__min_scan(g, u->cost, &u->min);
    out->cost = u->cost;
    out->moves = u->moves;
    out->passable = u->passable;
    out->min_cost = (double)u->min.value;
    /* no tile passable to the unit: any bound does */
    if (!(out->min_cost < HUGE_VAL)) out->min_cost = 1.0;
  }
  if (u != NULL && g->heights != NULL && (u->climb > 0.0 || u->descend > 0.0)) {
    out->height = g->heights;
    out->climb = u->climb;
    out->descend = u->descend;
  }
  return ASTAR_OK;
}

/* ---- keeping own layers in step ---- */

static int live(const astar_unit *u) {
  return u != NULL && u->own && !u->stale && u->cost != NULL;
}

static void update_cost(astar_grid *g, astar_unit *u, uint32_t i) {
  float c = own_cost(g, u, i);
  if (u->cost[i] == c) return;
  if (astar__bit(u->passable, i)) {
    astar__range_remove(&u->range, u->cost[i]);
    astar__range_add(&u->range, c);
  }
  astar__min_remove(&u->min, u->cost[i]);
  u->cost[i] = c;
  astar__min_add(&u->min, c);
}

void astar__units_cost_changed(astar_grid *g, uint32_t i) {
  int k;
  for (k = 0; k < ASTAR_MAX_UNITS; k++)
    if (live(g->units[k])) update_cost(g, g->units[k], i);
}

void astar__units_tile_changed(astar_grid *g, int32_t x, int32_t y,
                               uint32_t i) {
  int k;
  for (k = 0; k < ASTAR_MAX_UNITS; k++) {
    astar_unit *u = g->units[k];
    int open;
    if (!live(u)) continue;
    update_cost(g, u, i);
    open = own_open(g, u, i);
    if (astar__bit(u->passable, i) == open) continue;
    astar__set_bit(u->passable, i, open);
    if (open)
      astar__range_add(&u->range, u->cost[i]);
    else
      astar__range_remove(&u->range, u->cost[i]);
    if (u->passable_t != NULL) astar__flip_column_bit(g, u->passable_t, i);
    astar__refresh_moves(g, u, x, y, x + 2, y + 2);
    astar__zones_changed(g, &u->zones, u->moves, u->passable,
                         height_limited(u), x, y,
                         open ? ASTAR__ZONES_OPENED : ASTAR__ZONES_CLOSED);
  }
}

void astar__units_stale(astar_grid *g) {
  int k;
  for (k = 0; k < ASTAR_MAX_UNITS; k++)
    if (g->units[k] != NULL) g->units[k]->stale = 1;
}

void astar__units_release(astar_grid *g) {
  int k;
  for (k = 0; k < ASTAR_MAX_UNITS; k++) {
    astar_unit *u = g->units[k];
    if (u == NULL) continue;
    free_own(g, u);
    astar__free(g, u, 1, sizeof *u);
    g->units[k] = NULL;
  }
  astar__free(g, g->terrain, g->ntiles, 1);
  astar__free(g, g->heights, g->ntiles, sizeof(float));
  astar__free(g, g->memo, g->ntiles, sizeof(astar__memo));
  g->terrain = NULL;
  g->heights = NULL;
  g->memo = NULL;
  g->units_own = 0;
}

size_t astar__units_memory(const astar_grid *g) {
  size_t total = 0;
  int k;
  if (g->terrain != NULL) total += g->ntiles;
  if (g->heights != NULL) total += (size_t)g->ntiles * sizeof(float);
  if (g->memo != NULL) total += (size_t)g->ntiles * sizeof(astar__memo);
  for (k = 0; k < ASTAR_MAX_UNITS; k++) {
    const astar_unit *u = g->units[k];
    if (u == NULL) continue;
    total += sizeof *u;
    total += astar__zones_memory(&u->zones, g->ntiles);
    if (u->cost != NULL)
      total += (size_t)g->ntiles * (sizeof(float) + 1) +
               n_words(g) * sizeof(uint64_t);
    if (u->passable_t != NULL) total += n_words(g) * sizeof(uint64_t);
  }
  return total;
}

int astar__unit_jps_layer(astar_grid *g, int unit, astar__jps_layer *J) {
  astar_unit *u = g->units[unit];
  if (u == NULL || !u->own) {
    J->passable = g->passable;
    J->columns = &g->passable_t;
    J->cost = g->cost;
    return astar_grid_uniform(g, &J->uniform);
  }
  if (u->stale || u->cost == NULL) {
    int st = rebuild(g, u);
    if (st != ASTAR_OK) return st;
  }
  J->passable = u->passable;
  J->columns = &u->passable_t;
  J->cost = u->cost;
  return astar__range_uniform(g, u->cost, u->passable, &u->range,
                              &J->uniform);
}

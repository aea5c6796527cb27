/*
 * Terrain classes, heights and unit classes.
 *
 * A unit class maps every terrain class to a multiplier (0 = impassable)
 * and may add a cost per unit of height climbed or descended, or ban steps
 * that climb or drop too much.  The search must not pay for any of this in
 * its hot loop, so a unit whose table is not all 1 (or that has a height
 * limit) gets its own baked layers: a float cost per tile (multiplier times
 * the tile's stored cost), a passability bitmap and legal-move masks, the
 * same shapes the grid keeps for the default unit (layer.c bakes them).
 * Tile edits update every unit's layers in O(units); bulk edits and table
 * changes mark them stale, and astar_grid_prepare rebuilds a stale unit
 * (O(tiles)).
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
  g->version++;
  g->terrain[i] = (uint8_t)terrain;
}

void astar_grid_put_height(astar_grid *g, uint32_t i, float height) {
  g->version++;
  g->heights[i] = height;
}

int astar_grid_set_terrain(astar_grid *g, int32_t x, int32_t y,
                           int terrain) {
  uint32_t i = astar_index(g, x, y);
  if (terrain < 0 || terrain >= ASTAR_TERRAINS) return ASTAR_EINVAL;
  g->version++;
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
  g->version++;
  if (w <= 0 || h <= 0) return ASTAR_OK;
  if (g->terrain == NULL && terrain == 0) return ASTAR_OK;
  if (astar_grid_use_terrain(g) != ASTAR_OK) return ASTAR_ENOMEM;
  for (y = y0; y < y0 + h; y++)
    memset(g->terrain + astar_index(g, x0, y), terrain, (size_t)w);
  astar__units_stale(g);
  return ASTAR_OK;
}


int astar_grid_set_height(astar_grid *g, int32_t x, int32_t y,
                          double height) {
  uint32_t i = astar_index(g, x, y);
  int k;
  if (!(fabs(height) <= ASTAR_MAX_HEIGHT)) return ASTAR_EINVAL;
  g->version++;
  if (g->heights == NULL && height == 0.0) return ASTAR_OK;
  if (astar_grid_use_height(g) != ASTAR_OK) return ASTAR_ENOMEM;
  if (g->heights[i] == (float)height) return ASTAR_OK;
  g->heights[i] = (float)height;
  /* a unit's bans depend on the heights of a tile and its neighbours */
  for (k = 0; k < ASTAR_MAX_UNITS; k++) {
    astar_unit *u = g->units[k];
    if (u != NULL && u->own && !u->stale && u->moves != NULL &&
        astar__height_limited(u)) {
      astar__refresh_moves(g, u, x, y, x + 2, y + 2);
      astar__zones_changed(g, &u->zones, u->moves,
                           u->passable, 1, x, y, ASTAR__ZONES_MOVES);
      astar__clearance_stale(&u->clear); /* its sized masks, wholesale */
    }
  }
  return ASTAR_OK;
}

double astar_grid_get_height(const astar_grid *g, int32_t x, int32_t y) {
  return g->heights != NULL ? (double)g->heights[astar_index(g, x, y)] : 0.0;
}

/* ---- units ---- */





static int needs_own(const astar_unit *u) {
  int t;
  if (astar__height_limited(u)) return 1;
  for (t = 0; t < ASTAR_TERRAINS; t++)
    if (u->table[t] != 1.0f) return 1;
  return 0;
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
  g->version++;
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
    astar__free_own(g, u);
    astar__clearance_release(g, &u->clear);
  }
  u->own = own;
  u->stale = 1;
  return ASTAR_OK;
}

int astar_unit_defined(const astar_grid *g, int unit) {
  return astar__unit_defined(g, unit);
}

double astar_unit_cost(const astar_grid *g, int unit, int32_t x, int32_t y) {
  uint32_t i = astar_index(g, x, y);
  const astar_unit *u;
  float m;
  if (!astar_unit_defined(g, unit) || !astar__bit(g->passable, i)) return 0;
  u = g->units[unit];
  if (u == NULL) return (double)g->cost[i];
  m = u->table[terrain_at(g, i)];
  return m > 0.0f ? (double)astar__unit_cost(g->cost[i], m) : 0.0;
}



/* ---- keeping own layers in step ---- */

static int live(const astar_unit *u) {
  return u != NULL && u->own && !u->stale && u->cost != NULL;
}

static void update_cost(astar_grid *g, astar_unit *u, uint32_t i) {
  float c = astar__own_cost(g, u, i);
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
    open = astar__own_open(g, u, i);
    if (astar__bit(u->passable, i) == open) continue;
    astar__set_bit(u->passable, i, open);
    if (open)
      astar__range_add(&u->range, u->cost[i]);
    else
      astar__range_remove(&u->range, u->cost[i]);
    if (u->passable_t != NULL) astar__flip_column_bit(g, u->passable_t, i);
    astar__refresh_moves(g, u, x, y, x + 2, y + 2);
    astar__zones_changed(g, &u->zones, u->moves, u->passable,
                         astar__height_limited(u), x, y,
                         open ? ASTAR__ZONES_OPENED : ASTAR__ZONES_CLOSED);
    astar__clearance_changed(g, &u->clear, u->passable, u->moves,
                             astar__height_limited(u), x, y);
  }
}

void astar__units_stale(astar_grid *g) {
  int k;
  for (k = 0; k < ASTAR_MAX_UNITS; k++)
    if (g->units[k] != NULL) {
      g->units[k]->stale = 1;
      astar__clearance_stale(&g->units[k]->clear);
    }
}

void astar__units_release(astar_grid *g) {
  int k;
  for (k = 0; k < ASTAR_MAX_UNITS; k++) {
    astar_unit *u = g->units[k];
    if (u == NULL) continue;
    astar__free_own(g, u);
    astar__clearance_release(g, &u->clear);
    astar__free(g, u, 1, sizeof *u);
    g->units[k] = NULL;
  }
  astar__free(g, g->terrain, g->ntiles, 1);
  astar__free(g, g->heights, g->ntiles, sizeof(float));
  g->terrain = NULL;
  g->heights = NULL;
  g->units_own = 0;
}

size_t astar__units_memory(const astar_grid *g) {
  size_t total = 0;
  int k;
  if (g->terrain != NULL) total += g->ntiles;
  if (g->heights != NULL) total += (size_t)g->ntiles * sizeof(float);
  for (k = 0; k < ASTAR_MAX_UNITS; k++) {
    const astar_unit *u = g->units[k];
    if (u == NULL) continue;
    total += sizeof *u;
    total += astar__zones_memory(g, &u->zones);
    total += astar__clearance_memory(g, &u->clear);
    if (u->cost != NULL)
      total += (size_t)g->ntiles * (sizeof(float) + 1) +
               n_words(g) * sizeof(uint64_t);
    if (u->passable_t != NULL) total += n_words(g) * sizeof(uint64_t);
  }
  return total;
}


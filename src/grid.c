/*
 * Grid storage: costs, passability bits and legal-move masks over a padded
 * rectangle.  Every edit keeps the masks of the touched tile's neighbours in
 * step, so the search reads a tile's legal moves as one byte.
 */
#include "astar.h"
#include "internal.h"

#include <math.h>
#include <string.h>

const int8_t astar_dir_dx[8] = {0, 1, 0, -1, 1, 1, -1, -1};
const int8_t astar_dir_dy[8] = {-1, 0, 1, 0, -1, 1, 1, -1};

static int padded_tiles(int32_t w, int32_t h, uint32_t *n) {
  uint64_t t;
  if (w < 1 || h < 1 || w > ASTAR_MAX_SIDE || h > ASTAR_MAX_SIDE) return 0;
  t = (uint64_t)(w + 2) * (uint64_t)(h + 2);
  if (t > ASTAR_MAX_PADDED_TILES) return 0;
  *n = (uint32_t)t;
  return 1;
}

#define bitmap_words astar__bitmap_words

size_t astar_grid_bytes(int32_t w, int32_t h, int with_scratch) {
  uint32_t n;
  size_t per = sizeof(float) + sizeof(uint8_t), total;
  if (!padded_tiles(w, h, &n)) return 0;
  if (with_scratch) per += 2 * sizeof(uint32_t);
  total = astar__mul_size(n, per);
  if (total == 0) return 0;
  /* the passability bits, and with scratch their column-major copy */
  return total + (with_scratch ? 2u : 1u) * bitmap_words(n) * sizeof(uint64_t);
}

size_t astar_grid_memory(const astar_grid *g) {
  size_t total = 0;
  if (g->cost == NULL) return 0;
  total += (size_t)g->ntiles * (sizeof(float) + sizeof(uint8_t));
  total += bitmap_words(g->ntiles) * sizeof(uint64_t);
  if (g->passable_t != NULL)
    total += bitmap_words(g->ntiles) * sizeof(uint64_t);
  total += astar__zones_memory(g, &g->zones);
  total += astar__clearance_memory(g, &g->clear);
  total += astar__links_memory(g);
  total += astar_landmarks_memory(g);
  total += astar_subgoal_memory(g, -1);
  return total + astar__units_memory(g);
}

#define grid_alloc astar__alloc
#define grid_free astar__free

void astar_grid_zero(astar_grid *g) { memset(g, 0, sizeof *g); }

void astar_grid_release(astar_grid *g) {
  uint32_t n = g->ntiles;
  if (g->alloc == NULL) return;
  astar__free_whole(g, g->cost, n, sizeof(float));
  astar__free_whole(g, g->moves, n, sizeof(uint8_t));
  grid_free(g, g->passable, bitmap_words(n), sizeof(uint64_t));
  grid_free(g, g->passable_t, bitmap_words(n), sizeof(uint64_t));
  astar__zones_release(g, &g->zones);
  astar__clearance_release(g, &g->clear);
  astar__units_release(g);
  astar__zones_scratch_release(g);
  astar__links_release(g);
  astar_landmarks_drop(g);
  astar_subgoal_drop(g, -1);
  astar_grid_zero(g);
}

static inline int is_open(const astar_grid *g, uint32_t i) {
  return astar__bit(g->passable, i);
}





static inline void set_open(astar_grid *g, uint32_t i, int open) {
  uint64_t bit = (uint64_t)1 << (i & 63);
  if (is_open(g, i) == open) return;
  if (open) {
    g->passable[i >> 6] |= bit;
    astar__range_add(&g->range, g->cost[i]);
  } else {
    g->passable[i >> 6] &= ~bit;
    astar__range_remove(&g->range, g->cost[i]);
  }
  /* the column-major copy JPS made */
  if (g->passable_t != NULL) astar__flip_column_bit(g, g->passable_t, i);
}



static void refresh_moves(astar_grid *g, int32_t px0, int32_t py0,
                          int32_t px1, int32_t py1) {
  astar__refresh_moves(g, NULL, px0, py0, px1, py1);
}

static void refresh_all_moves(astar_grid *g) {
  refresh_moves(g, 1, 1, g->width, g->height);
}

int astar_grid_set_movement(astar_grid *g, int diagonal, double cardinal,
                            double diagonal_length) {
  int d;
  uint32_t s = (uint32_t)g->stride;
  if (diagonal < ASTAR_DIAG_BOTH_FREE || diagonal > ASTAR_DIAG_HEX)
    return ASTAR_EINVAL;
  if (!(cardinal >= ASTAR_MIN_STEP_LENGTH && cardinal <= ASTAR_MAX_STEP_LENGTH))
    return ASTAR_EINVAL;
  if (!(diagonal_length >= ASTAR_MIN_STEP_LENGTH &&
        diagonal_length <= ASTAR_MAX_STEP_LENGTH))
    return ASTAR_EINVAL;
  g->version++;
  g->diagonal = diagonal;
  g->cardinal_length = cardinal;
  g->diagonal_length = diagonal_length;
  for (d = 0; d < 8; d++) {
    /* hex: every step (NE and SW included) has the cardinal length */
    g->step_length[d] =
        d < 4 || diagonal == ASTAR_DIAG_HEX ? cardinal : diagonal_length;
    g->offset[d] = astar_dir_dy[d] * (int32_t)s + astar_dir_dx[d];
  }
  refresh_all_moves(g);
  astar__zones_stale(&g->zones);
  astar__clearance_stale(&g->clear);
  astar__units_stale(g);
  return ASTAR_OK;
}

int astar_grid_init(astar_grid *g, int32_t w, int32_t h,
                    astar_alloc_fn alloc, void *ud) {
  uint32_t n, i;
  int32_t x, y;
  astar_grid_zero(g);
  if (!padded_tiles(w, h, &n)) return ASTAR_ETOOBIG;
  g->alloc = alloc;
  g->alloc_ud = ud;
  g->cost = astar__alloc_whole(g, n, sizeof(float)); /* written below */
  g->moves = astar__alloc_whole(g, n, sizeof(uint8_t));
  g->passable = grid_alloc(g, bitmap_words(n), sizeof(uint64_t));
  g->ntiles = n; /* release needs it to free what was allocated */
  if (g->cost == NULL || g->moves == NULL || g->passable == NULL) {
    astar_grid_release(g);
    return ASTAR_ENOMEM;
  }
  g->width = w;
  g->height = h;
  g->stride = w + 2;
  for (i = 0; i < n; i++) g->cost[i] = 1.0f;
  memset(g->moves, 0, n);
  memset(g->passable, 0, bitmap_words(n) * sizeof(uint64_t));
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) set_open(g, astar_index(g, x, y), 1);
  g->min.value = 1.0f;
  g->min.count = (uint32_t)w * (uint32_t)h;
  g->min.dirty = 0;
  return astar_grid_set_movement(g, ASTAR_DIAG_BOTH_FREE, 1.0, sqrt(2.0));
}







/* Stores a cost, keeping the cheapest cost and the passable cost range
 * (not the units: see store_cost). */
static void put_cost(astar_grid *g, uint32_t i, float cost) {
  astar__min_remove(&g->min, g->cost[i]);
  if (is_open(g, i)) {
    astar__range_remove(&g->range, g->cost[i]);
    astar__range_add(&g->range, cost);
  }
  g->cost[i] = cost;
  astar__min_add(&g->min, cost);
}

static void store_cost(astar_grid *g, uint32_t i, float cost) {
  if (g->cost[i] == cost) return;
  put_cost(g, i, cost);
  if (g->units_own) astar__units_cost_changed(g, i);
}

static void store_open(astar_grid *g, int32_t x, int32_t y, uint32_t i,
                       int open) {
  if (is_open(g, i) == open) return;
  set_open(g, i, open);
  /* the tile's own moves do not depend on it; its 8 neighbours' do */
  refresh_moves(g, x, y, x + 2, y + 2);
  astar__zones_changed(g, &g->zones, g->moves, g->passable, 0, x, y,
                       open ? ASTAR__ZONES_OPENED : ASTAR__ZONES_CLOSED);
  astar__clearance_changed(g, &g->clear, g->passable, g->moves, 0, x, y);
  if (g->units_own) astar__units_tile_changed(g, x, y, i);
}

void astar_grid_set_cost(astar_grid *g, int32_t x, int32_t y, float cost) {
  g->version++;
  uint32_t i = astar_index(g, x, y);
  store_cost(g, i, cost);
  store_open(g, x, y, i, 1);
}

void astar_grid_set_blocked(astar_grid *g, int32_t x, int32_t y,
                            int blocked) {
  g->version++;
  store_open(g, x, y, astar_index(g, x, y), !blocked);
}

float astar_grid_get_cost(const astar_grid *g, int32_t x, int32_t y) {
  return g->cost[astar_index(g, x, y)];
}

int astar_grid_is_blocked(const astar_grid *g, int32_t x, int32_t y) {
  return !is_open(g, astar_index(g, x, y));
}

void astar_grid_fill(astar_grid *g, int32_t x0, int32_t y0, int32_t w,
                     int32_t h, float cost, int blocked) {
  g->version++;
  int32_t x, y;
  int units = g->units_own;
  if (w <= 0 || h <= 0) return;
  g->units_own = 0; /* no per-tile unit updates: they go stale below */
  for (y = y0; y < y0 + h; y++) {
    for (x = x0; x < x0 + w; x++) {
      uint32_t i = astar_index(g, x, y);
      if (cost > 0.0f) store_cost(g, i, cost);
      if (blocked >= 0) set_open(g, i, !blocked);
    }
  }
  g->units_own = units;
  /* padded coordinates of the rectangle, grown by one tile */
  if (blocked >= 0) {
    refresh_moves(g, x0, y0, x0 + w + 1, y0 + h + 1);
    astar__zones_stale(&g->zones); /* relabelled at the next use */
    astar__clearance_stale(&g->clear);
  }
  astar__units_stale(g);
}

void astar_grid_put(astar_grid *g, uint32_t i, float cost, int open) {
  g->version++;
  if (cost > 0.0f && g->cost[i] != cost) put_cost(g, i, cost);
  set_open(g, i, open);
}

void astar_grid_refresh(astar_grid *g) {
  g->version++;
  refresh_all_moves(g);
  astar__zones_stale(&g->zones);
  astar__clearance_stale(&g->clear);
  astar__units_stale(g);
}

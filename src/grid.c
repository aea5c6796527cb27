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

size_t astar__bitmap_words(uint32_t ntiles) { return (ntiles + 63u) / 64u; }
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
  /* each scratch array on its own: a failed first search may leave one */
  if (g->heap_pos != NULL) total += (size_t)g->ntiles * sizeof(uint32_t);
  if (g->stamp != NULL) total += (size_t)g->ntiles * sizeof(uint32_t);
  total += (size_t)g->heap_cap * sizeof(astar_heap_entry);
  total += astar__zones_memory(&g->zones, g->ntiles);
  return total + astar__units_memory(g) + astar__extra_memory(g) +
         astar__more_memory(g);
}

void *astar__alloc(astar_grid *g, size_t count, size_t elem) {
  size_t bytes = astar__mul_size(count, elem);
  if (bytes == 0) return NULL;
  return g->alloc(g->alloc_ud, NULL, 0, bytes);
}

void astar__free(astar_grid *g, void *p, size_t count, size_t elem) {
  if (p != NULL) g->alloc(g->alloc_ud, p, count * elem, 0);
}
#define grid_alloc astar__alloc
#define grid_free astar__free

void astar_grid_zero(astar_grid *g) { memset(g, 0, sizeof *g); }

void astar_grid_release(astar_grid *g) {
  uint32_t n = g->ntiles;
  if (g->alloc == NULL) return;
  grid_free(g, g->cost, n, sizeof(float));
  grid_free(g, g->moves, n, sizeof(uint8_t));
  grid_free(g, g->passable, bitmap_words(n), sizeof(uint64_t));
  grid_free(g, g->passable_t, bitmap_words(n), sizeof(uint64_t));
  grid_free(g, g->heap_pos, n, sizeof(uint32_t));
  grid_free(g, g->stamp, n, sizeof(uint32_t));
  grid_free(g, g->heap, g->heap_cap, sizeof(astar_heap_entry));
  astar__zones_release(g, &g->zones);
  astar__units_release(g);
  astar__extra_release(g);
  astar__more_release(g);
  astar_grid_zero(g);
}

static inline int is_open(const astar_grid *g, uint32_t i) {
  return astar__bit(g->passable, i);
}

/* The cost range over passable tiles (see astar_grid_uniform): like
 * the minimum, a tile leaving an extreme it was the last to hold marks the
 * range dirty, and the next uniformity test rescans. */
void astar__range_remove(astar_range *r, float c) {
  if (r->dirty) return;
  if (c == r->min && --r->min_count == 0) r->dirty = 1;
  if (c == r->max && --r->max_count == 0) r->dirty = 1;
}

void astar__range_add(astar_range *r, float c) {
  if (r->dirty) return;
  if (r->min_count == 0 || c < r->min) {
    r->min = c;
    r->min_count = 1;
  } else if (c == r->min) {
    r->min_count++;
  }
  if (r->max_count == 0 || c > r->max) {
    r->max = c;
    r->max_count = 1;
  } else if (c == r->max) {
    r->max_count++;
  }
}

/* 1 when every passable tile of the layer (cost, passable) costs the same
 * (*c, 1 when none is passable); rescans a dirty range. */
int astar__range_uniform(const astar_grid *g, const float *cost,
                         const uint64_t *passable, astar_range *r, float *c) {
  if (r->dirty) {
    int32_t x, y;
    r->min_count = r->max_count = 0;
    r->dirty = 0;
    for (y = 0; y < g->height; y++) {
      uint32_t i = astar_index(g, 0, y);
      for (x = 0; x < g->width; x++, i++)
        if (astar__bit(passable, i)) astar__range_add(r, cost[i]);
    }
  }
  if (r->min_count == 0) {
    *c = 1.0f;
    return 1;
  }
  *c = r->min;
  return r->min == r->max;
}

/* Flips bit i in a column-major copy of a bitmap (after it changed). */
void astar__flip_column_bit(const astar_grid *g, uint64_t *t, uint32_t i) {
  uint32_t s = (uint32_t)g->stride, ph = (uint32_t)g->height + 2u;
  uint32_t j = (i % s) * ph + i / s;
  t[j >> 6] ^= (uint64_t)1 << (j & 63);
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

/* The legal moves out of tile i over passability bits: they depend on the
 * neighbours only, not on i itself, so a blocked tile still knows its way
 * out. */
uint8_t astar__moves(const astar_grid *g, const uint64_t *bits, uint32_t i) {
  uint32_t s = (uint32_t)g->stride;
  unsigned n = (unsigned)astar__bit(bits, i - s);
  unsigned e = (unsigned)astar__bit(bits, i + 1);
  unsigned so = (unsigned)astar__bit(bits, i + s);
  unsigned w = (unsigned)astar__bit(bits, i - 1);
  unsigned m = n << ASTAR_N | e << ASTAR_E | so << ASTAR_S | w << ASTAR_W;
  unsigned ne, se, sw, nw;
  if (g->diagonal == ASTAR_DIAG_NEVER) return (uint8_t)m;
  if (g->diagonal == ASTAR_DIAG_HEX) { /* axial: NE and SW, no corner rule */
    ne = (unsigned)astar__bit(bits, i - s + 1);
    sw = (unsigned)astar__bit(bits, i + s - 1);
    return (uint8_t)(m | ne << ASTAR_NE | sw << ASTAR_SW);
  }
  ne = (unsigned)astar__bit(bits, i - s + 1);
  se = (unsigned)astar__bit(bits, i + s + 1);
  sw = (unsigned)astar__bit(bits, i + s - 1);
  nw = (unsigned)astar__bit(bits, i - s - 1);
  switch (g->diagonal) {
  case ASTAR_DIAG_BOTH_FREE:
    ne &= n & e; se &= so & e; sw &= so & w; nw &= n & w;
    break;
  case ASTAR_DIAG_ONE_FREE:
    ne &= n | e; se &= so | e; sw &= so | w; nw &= n | w;
    break;
  default: /* ASTAR_DIAG_ALWAYS */
    break;
  }
  m |= ne << ASTAR_NE | se << ASTAR_SE | sw << ASTAR_SW | nw << ASTAR_NW;
  return (uint8_t)m;
}

/* Recompute the masks of the interior tiles in the padded rectangle
 * [px0, px1] x [py0, py1] (padded coordinates, clipped here), for the grid
 * (u == NULL) or a unit with its own layers. */
void astar__refresh_moves(astar_grid *g, const astar_unit *u, int32_t px0,
                          int32_t py0, int32_t px1, int32_t py1) {
  int32_t x, y;
  uint8_t *moves = u != NULL ? u->moves : g->moves;
  const uint64_t *bits = u != NULL ? u->passable : g->passable;
  if (px0 < 1) px0 = 1;
  if (py0 < 1) py0 = 1;
  if (px1 > g->width) px1 = g->width;
  if (py1 > g->height) py1 = g->height;
  for (y = py0; y <= py1; y++) {
    uint32_t row = (uint32_t)y * (uint32_t)g->stride;
    for (x = px0; x <= px1; x++) {
      uint32_t i = row + (uint32_t)x;
      uint8_t m = astar__moves(g, bits, i);
      if (u != NULL) m = astar__height_filter(g, u, i, m);
      moves[i] = m;
    }
  }
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
  g->cost = grid_alloc(g, n, sizeof(float));
  g->moves = grid_alloc(g, n, sizeof(uint8_t));
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
  g->last_outcome = ASTAR_NO_PATH;
  return astar_grid_set_movement(g, ASTAR_DIAG_BOTH_FREE, 1.0, sqrt(2.0));
}

int astar_cost_ok(double cost) {
  float f;
  if (!(cost > 0.0) || !(cost <= (double)3.4028234663852886e38)) return 0;
  f = (float)cost;
  return f > 0.0f; /* not flushed to zero */
}

/* Keep m->value a lower bound of every stored cost.  Raising the last
 * tile that holds the minimum marks it dirty; a rescan follows lazily. */
void astar__min_remove(astar_min *m, float c) {
  if (!m->dirty && c == m->value && --m->count == 0) m->dirty = 1;
}

void astar__min_add(astar_min *m, float c) {
  if (m->dirty) return;
  if (c < m->value) {
    m->value = c;
    m->count = 1;
  } else if (c == m->value) {
    m->count++;
  }
}

/* Rescans the interior tiles of a cost layer. */
void astar__min_scan(const astar_grid *g, const float *cost, astar_min *m) {
  int32_t x, y;
  float v = cost[astar_index(g, 0, 0)];
  uint32_t count = 0;
  for (y = 0; y < g->height; y++) {
    const float *row = cost + astar_index(g, 0, y);
    for (x = 0; x < g->width; x++) {
      if (row[x] < v) {
        v = row[x];
        count = 1;
      } else if (row[x] == v) {
        count++;
      }
    }
  }
  m->value = v;
  m->count = count;
  m->dirty = 0;
}

float astar_grid_min_cost(astar_grid *g) {
  if (g->min.dirty) astar__min_scan(g, g->cost, &g->min);
  return g->min.value;
}

int astar_grid_uniform(astar_grid *g, float *cost) {
  return astar__range_uniform(g, g->cost, g->passable, &g->range, cost);
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
  if (g->units_own) astar__units_tile_changed(g, x, y, i);
}

void astar_grid_set_cost(astar_grid *g, int32_t x, int32_t y, float cost) {
  uint32_t i = astar_index(g, x, y);
  store_cost(g, i, cost);
  store_open(g, x, y, i, 1);
}

void astar_grid_set_blocked(astar_grid *g, int32_t x, int32_t y,
                            int blocked) {
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
  }
  astar__units_stale(g);
}

void astar_grid_put(astar_grid *g, uint32_t i, float cost, int open) {
  if (cost > 0.0f && g->cost[i] != cost) put_cost(g, i, cost);
  set_open(g, i, open);
}

void astar_grid_refresh(astar_grid *g) {
  refresh_all_moves(g);
  astar__zones_stale(&g->zones);
  astar__units_stale(g);
}

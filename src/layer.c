/*
 * Layers: what a search reads for one unit class.  The grid's own layer
 * (its stored costs, move masks and passability bits) serves unit 0 and
 * every unit whose table is all 1 with no height limit; any other unit
 * class gets baked layers of its own (a float cost per tile, masks and
 * bits), the same shapes.  Beside them, per layer: the cheapest cost (the
 * heuristic's scale), the cost range over passable tiles (JPS needs one
 * cost), the column-major copy of the bits (JPS's vertical scans) and the
 * zone labels (zones.c).
 *
 * Edits keep all of this in step where it is cheap (grid.c, units.c) and
 * mark it stale where not; astar_grid_prepare brings it up to date.  The
 * searches only read it (astar_grid_layer, astar__unit_jps_layer) and
 * answer ASTAR_EPREPARE when something is stale.
 */
#include "astar.h"
#include "internal.h"

#include <float.h>
#include <math.h>
#include <string.h>

int astar_cost_ok(double cost) {
  float f;
  if (!(cost > 0.0) || !(cost <= (double)3.4028234663852886e38)) return 0;
  f = (float)cost;
  return f > 0.0f; /* not flushed to zero */
}

int astar__height_limited(const astar_unit *u) {
  return u->max_climb < HUGE_VAL || u->max_drop < HUGE_VAL;
}

/* The cost range over passable tiles (the uniform-cost test of JPS): like
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

/* Rescans the cost range of a layer's passable tiles. */
void astar__range_scan(const astar_grid *g, const float *cost,
                       const uint64_t *passable, astar_range *r) {
  int32_t x, y;
  r->min_count = r->max_count = 0;
  r->dirty = 0;
  for (y = 0; y < g->height; y++) {
    uint32_t i = astar_index(g, 0, y);
    for (x = 0; x < g->width; x++, i++)
      if (astar__bit(passable, i)) astar__range_add(r, cost[i]);
  }
}

/* 1 when every passable tile costs the same (*c; 1 when none is
 * passable), 0 when not, EPREPARE when the range is stale. */
static int range_uniform(const astar_range *r, float *c) {
  if (r->dirty) return ASTAR_EPREPARE;
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

float astar_grid_min_cost(const astar_grid *g) { return g->min.value; }

/* ---- unit layers ---- */

/* A unit's cost for a stored cost c and multiplier m > 0, kept a positive
 * finite float. */
float astar__unit_cost(float c, float m) {
  double p = (double)c * (double)m;
  if (p > (double)FLT_MAX) return FLT_MAX;
  if ((float)p <= 0.0f) return FLT_MIN;
  return (float)p;
}

float astar__own_cost(const astar_grid *g, const astar_unit *u, uint32_t i) {
  float m = u->table[(g->terrain != NULL ? g->terrain[i] : 0)];
  return m > 0.0f ? astar__unit_cost(g->cost[i], m) : HUGE_VALF;
}

int astar__own_open(const astar_grid *g, const astar_unit *u, uint32_t i) {
  return astar__bit(g->passable, i) && u->table[(g->terrain != NULL ? g->terrain[i] : 0)] > 0.0f;
}

uint8_t astar__height_filter(const astar_grid *g, const astar_unit *u,
                             uint32_t i, uint8_t moves) {
  unsigned m = moves, keep = moves;
  double h;
  if (g->heights == NULL || !astar__height_limited(u)) return moves;
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

void astar__free_own(astar_grid *g, astar_unit *u) {
  astar__free(g, u->cost, g->ntiles, sizeof(float));
  astar__free(g, u->moves, g->ntiles, 1);
  astar__free(g, u->passable, astar__bitmap_words(g->ntiles), sizeof(uint64_t));
  astar__free(g, u->passable_t, astar__bitmap_words(g->ntiles), sizeof(uint64_t));
  u->cost = NULL;
  u->moves = NULL;
  u->passable = NULL;
  u->passable_t = NULL;
  astar__zones_release(g, &u->zones);
}

/* Rebuilds a unit's own layers from the grid: O(tiles). */
static int rebuild(astar_grid *g, astar_unit *u) {
  int32_t x, y;
  if (u->cost == NULL) u->cost = astar__alloc(g, g->ntiles, sizeof(float));
  if (u->moves == NULL) u->moves = astar__alloc(g, g->ntiles, 1);
  if (u->passable == NULL)
    u->passable = astar__alloc(g, astar__bitmap_words(g->ntiles), sizeof(uint64_t));
  if (u->cost == NULL || u->moves == NULL || u->passable == NULL) {
    astar__free_own(g, u); /* all or nothing: memory() stays exact */
    return ASTAR_ENOMEM;
  }
  memset(u->moves, 0, g->ntiles);
  memset(u->passable, 0, astar__bitmap_words(g->ntiles) * sizeof(uint64_t));
  for (x = 0; x < (int32_t)g->ntiles; x++) u->cost[x] = HUGE_VALF;
  for (y = 0; y < g->height; y++) {
    for (x = 0; x < g->width; x++) {
      uint32_t i = astar_index(g, x, y);
      u->cost[i] = astar__own_cost(g, u, i);
      astar__set_bit(u->passable, i, astar__own_open(g, u, i));
    }
  }
  astar__refresh_moves(g, u, 1, 1, g->width, g->height);
  astar__min_scan(g, u->cost, &u->min);
  u->range.dirty = 1;
  /* prepare makes the column-major copy again where JPS can use it */
  astar__free(g, u->passable_t, astar__bitmap_words(g->ntiles), sizeof(uint64_t));
  u->passable_t = NULL;
  u->stale = 0;
  astar__zones_stale(&u->zones); /* the moves changed wholesale */
  astar__clearance_stale(&u->clear);
  return ASTAR_OK;
}

int astar_grid_layer(const astar_grid *g, int unit, astar_layer *out) {
  const astar_unit *u;
  memset(out, 0, sizeof *out);
  if (!astar__unit_defined(g, unit)) return ASTAR_EINVAL;
  u = g->units[unit];
  if (u == NULL || !u->own) {
    if (g->min.dirty) return ASTAR_EPREPARE;
    out->cost = g->cost;
    out->moves = g->moves;
    out->passable = g->passable;
    out->min_cost = (double)g->min.value;
  } else {
    if (u->stale || u->cost == NULL || u->min.dirty) return ASTAR_EPREPARE;
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

int astar__unit_heights_free(const astar_grid *g, const astar_unit *u) {
  return u == NULL || g->heights == NULL ||
         !(u->climb > 0.0 || u->descend > 0.0 || u->max_climb < HUGE_VAL ||
           u->max_drop < HUGE_VAL);
}

int astar__jps_movement(const astar_grid *g) {
  return g->diagonal == ASTAR_DIAG_BOTH_FREE &&
         g->cardinal_length <= g->diagonal_length &&
         g->diagonal_length <= 2.0 * g->cardinal_length;
}

int astar__unit_jps_layer(const astar_grid *g, int unit,
                          astar__jps_layer *J) {
  const astar_unit *u = g->units[unit];
  int st;
  if (u == NULL || !u->own) {
    J->passable = g->passable;
    J->columns = g->passable_t;
    J->cost = g->cost;
    st = range_uniform(&g->range, &J->uniform);
  } else {
    if (u->stale || u->cost == NULL) return ASTAR_EPREPARE;
    J->passable = u->passable;
    J->columns = u->passable_t;
    J->cost = u->cost;
    st = range_uniform(&u->range, &J->uniform);
  }
  if (st == 1 && J->columns == NULL) return ASTAR_EPREPARE;
  return st;
}

/* ---- prepare ---- */

/* The column-major copy of a passability bitmap (JPS's vertical scans);
 * grid.c and units.c keep it in step with every later edit. */
int astar__make_columns(astar_grid *g, const uint64_t *passable,
                        uint64_t **out) {
  size_t words = astar__bitmap_words(g->ntiles);
  uint32_t s = (uint32_t)g->stride, ph = (uint32_t)g->height + 2u, x, y;
  uint64_t *t;
  if (*out != NULL) return ASTAR_OK;
  t = astar__alloc(g, words, sizeof(uint64_t));
  if (t == NULL) return ASTAR_ENOMEM;
  memset(t, 0, words * sizeof(uint64_t));
  for (y = 1; y + 1 < ph; y++) {
    for (x = 1; x + 1 < s; x++) {
      uint32_t i = y * s + x, j = x * ph + y;
      if ((passable[i >> 6] >> (i & 63u)) & 1u)
        t[j >> 6] |= (uint64_t)1 << (j & 63u);
    }
  }
  *out = t;
  return ASTAR_OK;
}

static int prepare_unit(astar_grid *g, int unit, unsigned what) {
  astar_unit *u = g->units[unit];
  float c;
  int st;
  if (u == NULL || !u->own) { /* the grid's own layer */
    if (g->min.dirty) astar__min_scan(g, g->cost, &g->min);
    if (g->range.dirty) astar__range_scan(g, g->cost, g->passable, &g->range);
    if (astar__jps_movement(g) && range_uniform(&g->range, &c) == 1 &&
        (st = astar__make_columns(g, g->passable, &g->passable_t)) != ASTAR_OK)
      return st;
    if ((what & ASTAR_PREPARE_ZONES) && !astar__zones_ready(&g->zones))
      return astar__zones_label(g, &g->zones, g->moves, g->passable, 0);
    return ASTAR_OK;
  }
  if (u->stale || u->cost == NULL) {
    if ((st = rebuild(g, u)) != ASTAR_OK) return st;
  }
  if (u->min.dirty) astar__min_scan(g, u->cost, &u->min);
  if (u->range.dirty) astar__range_scan(g, u->cost, u->passable, &u->range);
  if (astar__jps_movement(g) && astar__unit_heights_free(g, u) &&
      range_uniform(&u->range, &c) == 1 &&
      (st = astar__make_columns(g, u->passable, &u->passable_t)) != ASTAR_OK)
    return st;
  if ((what & ASTAR_PREPARE_ZONES) && !astar__zones_ready(&u->zones))
    return astar__zones_label(g, &u->zones, u->moves, u->passable,
                              astar__height_limited(u));
  return ASTAR_OK;
}

int astar_grid_prepare(astar_grid *g, int unit, unsigned what) {
  int k, st;
  if (g->cost == NULL) return ASTAR_EINVAL;
  if (unit != ASTAR_ALL_UNITS) {
    if (!astar__unit_defined(g, unit)) return ASTAR_EINVAL;
    return prepare_unit(g, unit, what);
  }
  for (k = 0; k < ASTAR_MAX_UNITS; k++) {
    if (!astar__unit_defined(g, k)) continue;
    if ((st = prepare_unit(g, k, what)) != ASTAR_OK) return st;
  }
  return ASTAR_OK;
}

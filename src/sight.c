/*
 * Line of sight, leg costs and smoothing (string pulling).
 *
 * A line runs between tile centres.  It walks the tiles whose inside it
 * crosses (a supercover walk in exact integer arithmetic): the next
 * crossing is of a vertical grid line, of a horizontal one, or of both at
 * once, through a tile corner.  Every tile entered must be passable to the
 * layer.  Through a tile corner the line only grazes the two other tiles
 * there: it may touch a blocked tile's corner, but not squeeze between two
 * blocked tiles that touch only at that corner (unless the grid's
 * diagonal rule is "always", which lets steps squeeze too).  This is the
 * any-angle benchmarks' rule (../shared/maps-anyangle/README.md); it
 * admits every legal step, and a line and its reverse get the same
 * answer.  A line between tile centres never runs along a grid line.
 *
 * For an s x s unit the layer is its "clearance >= s" one (clearance.c):
 * its top-left tile's centre follows the line while an (s-1) x (s-1)
 * square about the footprint's centre stays off blocked tiles.
 *
 * Without costs or heights to read (line_of_sight, the legs of Theta* on
 * a layer of one cost) a line is checked by runs: the tiles it enters in
 * one row (or column) are consecutive bits, read a word or two at a time,
 * so a line costs one step per row it crosses when it runs more across
 * than down, and one per column when it runs more down, where prepare
 * made the column-major copy of the bits (JPS's: 8-way, no corner
 * cutting, one cost); without the copy steep lines take the walk.
 */
#include "astar.h"
#include "internal.h"
#include "sight.h"

#include <math.h>
#include <string.h>

/* What a walk reads. */
typedef struct sight {
  const astar_grid *G;
  const uint64_t *bits;
  const float *cost;   /* NULL: no cost wanted */
  const float *flat;   /* heights that must stay equal, or NULL */
  int rule;            /* ASTAR_DIAG_* */
} sight;

/* Walks from the centre of tile i0 = (x0, y0) to that of (x1, y1).
 * Returns 1 when clear (*maxc: the dearest tile entered after i0), else 0
 * with *block the first tile that blocks.  Compiled once with level
 * heights to keep and once without (flat: S->flat != NULL). */
ASTAR__HOT_INLINE int walk_of(const sight *S, int32_t x0, int32_t y0,
                              int32_t x1, int32_t y1, float *maxc,
                              uint32_t *block, const int flat) {
  const astar_grid *G = S->G;
  const uint64_t *bits = S->bits;
  const float *cost = S->cost;
  int64_t nx = x1 > x0 ? x1 - x0 : x0 - x1;
  int64_t ny = y1 > y0 ? y1 - y0 : y0 - y1;
  int32_t sx = x1 > x0 ? 1 : -1;
  int32_t sy = y1 > y0 ? G->stride : -G->stride;
  int64_t ix = 0, iy = 0, e;
  uint32_t i = astar_index(G, x0, y0);
  float top = 0.0f, h0 = flat ? S->flat[i] : 0.0f;
  if (!astar__bit(bits, i)) {
    *block = i;
    return 0;
  }
  if (nx == 0 || ny == 0) { /* along a row or a column */
    int32_t step = nx == 0 ? sy : sx;
    int64_t left = nx + ny;
    for (; left > 0; left--) {
      i = (uint32_t)((int32_t)i + step);
      if (!astar__bit(bits, i) || (flat && S->flat[i] != h0)) {
        *block = i;
        return 0;
      }
      if (cost != NULL && cost[i] > top) top = cost[i];
    }
    *maxc = top;
    return 1;
  }
  /* which grid line the line crosses next: the sign of
   * e = (2 ix + 1) ny - (2 iy + 1) nx, kept up to date by additions */
  e = ny - nx;
  while (ix < nx || iy < ny) {
    if (e < 0) {
      i = (uint32_t)((int32_t)i + sx);
      ix++;
      e += 2 * ny;
    } else if (e > 0) {
      i = (uint32_t)((int32_t)i + sy);
      iy++;
      e -= 2 * nx;
    } else { /* through a corner: the two grazed tiles */
      uint32_t a = (uint32_t)((int32_t)i + sx), b = (uint32_t)((int32_t)i + sy);
      int pa = astar__bit(bits, a), pb = astar__bit(bits, b);
      if (S->rule != ASTAR_DIAG_ALWAYS && !(pa | pb)) {
        *block = pa ? b : a;
        return 0;
      }
      i = (uint32_t)((int32_t)i + sx + sy);
      ix++;
      iy++;
      e += 2 * ny - 2 * nx;
    }
    if (!astar__bit(bits, i) || (flat && S->flat[i] != h0)) {
      *block = i;
      return 0;
    }
    if (cost != NULL && cost[i] > top) top = cost[i];
  }
  *maxc = top;
  return 1;
}

/* The line by runs (sight.h); without cols a steep line takes the walk
 * (runs of a tile or two). */
static int clear_by_runs(const astar_grid *G, const uint64_t *bits,
                         const uint64_t *cols, int rule, int32_t x0,
                         int32_t y0, int32_t x1, int32_t y1) {
  int r = astar__sight_runs(G, bits, cols, rule, x0, y0, x1, y1);
  if (r < 0) { /* runs of a tile or two down columns: the walk */
    sight S;
    float top;
    uint32_t block;
    S.G = G;
    S.bits = bits;
    S.cost = NULL;
    S.flat = NULL;
    S.rule = rule;
    r = walk_of(&S, x0, y0, x1, y1, &top, &block, 0);
  }
  return r;
}

static int walk(const sight *S, int32_t x0, int32_t y0, int32_t x1,
                int32_t y1, float *maxc, uint32_t *block) {
  return S->flat != NULL ? walk_of(S, x0, y0, x1, y1, maxc, block, 1)
                         : walk_of(S, x0, y0, x1, y1, maxc, block, 0);
}

static void sight_init(sight *S, const astar_grid *G, const astar_layer *L,
                       const float *flat) {
  S->G = G;
  S->bits = L->passable;
  S->cost = L->cost;
  S->flat = flat;
  S->rule = G->diagonal;
}

/* The direction of the step (dx, dy) (each in -1..1), or -1 for (0, 0):
 * grid.c's direction order (astar_dir_dx/dy), indexed by
 * (dy + 1) * 3 + dx + 1. */
static int step_dir(int32_t dx, int32_t dy) {
  static const signed char dir[9] = {7, 0, 4, 3, -1, 1, 6, 2, 5};
  return dir[(dy + 1) * 3 + dx + 1];
}

double astar__leg_cost(const astar_grid *G, const astar_layer *L,
                       const float *flat, int32_t x0, int32_t y0, int32_t x1,
                       int32_t y1) {
  int32_t dx = x1 - x0, dy = y1 - y0;
  uint32_t i0 = astar_index(G, x0, y0), block;
  float top;
  sight S;
  if (dx == 0 && dy == 0) return 0.0;
  sight_init(&S, G, L, flat);
  if (dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1) { /* one step */
    int d = step_dir(dx, dy);
    /* a legal step, or a diagonal past one blocked corner (in sight, on
       level ground): what the grid charges for that step */
    if (!(L->moves[i0] & (1u << d)) &&
        (G->diagonal == ASTAR_DIAG_HEX || d < 4 ||
         !walk(&S, x0, y0, x1, y1, &top, &block)))
      return HUGE_VAL;
    return G->step_length[d] * (double)L->cost[(uint32_t)((int32_t)i0 +
                                                          G->offset[d])] +
           (L->height != NULL
                ? astar__climb_cost(L, i0,
                                    (uint32_t)((int32_t)i0 + G->offset[d]))
                : 0.0);
  }
  if (!walk(&S, x0, y0, x1, y1, &top, &block)) return HUGE_VAL;
  return sqrt((double)dx * dx + (double)dy * dy) * G->cardinal_length *
         (double)top;
}

int astar__sight_clear(const astar_grid *G, const uint64_t *bits,
                       const uint64_t *cols, int32_t x0, int32_t y0,
                       int32_t x1, int32_t y1) {
  if (x0 == x1 && y0 == y1) return astar__bit(bits, astar_index(G, x0, y0));
  return clear_by_runs(G, bits, cols, G->diagonal, x0, y0, x1, y1);
}

const uint64_t *astar__sight_columns(const astar_grid *G,
                                     const astar_layer *L, int unit,
                                     int size) {
  astar__jps_layer J;
  return astar__jps_layer_size(G, unit, size, &J) >= 0 &&
                 J.passable == L->passable
             ? J.columns
             : NULL;
}

float astar__leg_uniform(const astar_grid *G, const astar_layer *L,
                         int unit) {
  const astar_unit *u = G->units[unit];
  const astar_range *r = u == NULL || !u->own ? &G->range : &u->range;
  const float *cost = u == NULL || !u->own ? G->cost : u->cost;
  if (L->cost != cost || L->height != NULL || r->dirty ||
      astar__flat_heights(G, unit) != NULL)
    return 0.0f;
  if (r->min_count == 0) return 1.0f; /* nothing passable */
  return r->min == r->max && r->min > 0.0f ? r->min : 0.0f;
}

/* The heights a unit's longer legs must keep level on, or NULL. */
const float *astar__flat_heights(const astar_grid *G, int unit) {
  const astar_unit *u = G->units[unit];
  return astar__unit_heights_free(G, u) ? NULL : G->heights;
}

int astar_line_of_sight(const astar_grid *g, int unit, int size, int32_t x0,
                        int32_t y0, int32_t x1, int32_t y1, int32_t *bx,
                        int32_t *by) {
  astar_layer L;
  sight S;
  float top;
  uint32_t block;
  int st;
  *bx = *by = -1;
  if (g->diagonal == ASTAR_DIAG_HEX) return ASTAR_EINVAL;
  if (x0 < 0 || y0 < 0 || x0 >= g->width || y0 >= g->height || x1 < 0 ||
      y1 < 0 || x1 >= g->width || y1 >= g->height)
    return ASTAR_EINVAL;
  if ((st = astar_grid_layer_size(g, unit, size, &L)) != ASTAR_OK) return st;
  if (clear_by_runs(g, L.passable, astar__sight_columns(g, &L, unit, size),
                    g->diagonal, x0, y0, x1, y1))
    return 1;
  sight_init(&S, g, &L, NULL); /* blocked: the walk finds the first tile */
  S.cost = NULL;
  if (walk(&S, x0, y0, x1, y1, &top, &block)) return 1;
  astar_xy(g, block, bx, by);
  return 0;
}

/* ---- smoothing ---- */

typedef struct pull {
  const astar_grid *G;
  const astar_layer *L;
  const float *flat;
  const int32_t *xy;
  const double *sum; /* sum[k]: the input's cost up to waypoint k, or NULL */
} pull;

static double leg(const pull *P, size_t a, size_t b) {
  return astar__leg_cost(P->G, P->L, P->flat, P->xy[2 * a], P->xy[2 * a + 1],
                         P->xy[2 * b], P->xy[2 * b + 1]);
}

/* May waypoints a .. b be replaced by one leg?  In line of sight, and no
 * dearer than the legs it replaces. */
static int can_pull(const pull *P, size_t a, size_t b) {
  double direct = leg(P, a, b), old = 0.0;
  size_t k;
  if (!(direct < HUGE_VAL)) return 0;
  if (P->sum != NULL)
    old = P->sum[b] - P->sum[a];
  else
    for (k = a; k < b; k++) old += leg(P, k, k + 1);
  return direct <= old * (1.0 + 1e-9);
}

int astar_smooth(const astar_grid *g, int unit, int size, const int32_t *xy,
                 size_t n, int32_t *out, size_t *nout, size_t *bad,
                 double *sum) {
  astar_layer L;
  pull P;
  size_t a, k, m = 0;
  int st;
  *nout = 0;
  *bad = 0;
  if (g->diagonal == ASTAR_DIAG_HEX) return ASTAR_EINVAL;
  if ((st = astar_grid_layer_size(g, unit, size, &L)) != ASTAR_OK) return st;
  P.G = g;
  P.L = &L;
  P.flat = astar__flat_heights(g, unit);
  P.xy = xy;
  P.sum = NULL;
  if (sum != NULL && n > 0) sum[0] = 0.0;
  for (k = 0; k + 1 < n; k++) {
    int32_t dx = xy[2 * k + 2] - xy[2 * k], dy = xy[2 * k + 3] - xy[2 * k + 1];
    double c;
    if (L.height == NULL && dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1 &&
        (dx | dy) != 0) { /* a legal step: what the grid charges (most legs) */
      int d = step_dir(dx, dy);
      uint32_t i0 = astar_index(g, xy[2 * k], xy[2 * k + 1]);
      if (L.moves[i0] & (1u << d)) {
        c = g->step_length[d] *
            (double)L.cost[(uint32_t)((int32_t)i0 + g->offset[d])];
        if (sum != NULL) sum[k + 1] = sum[k] + c;
        continue;
      }
    }
    c = leg(&P, k, k + 1);
    if (!(c < HUGE_VAL)) {
      *bad = k;
      return ASTAR_EINVAL;
    }
    if (sum != NULL) sum[k + 1] = sum[k] + c;
  }
  P.sum = sum;
  if (n == 0) return ASTAR_OK;
  /* greedy: from each kept waypoint, the farthest one it may pull to,
   * found by doubling then bisecting (a few walks per leg, not one per
   * waypoint) */
  a = 0;
  out[0] = xy[0];
  out[1] = xy[1];
  m = 1;
  while (a + 1 < n) {
    size_t good = a + 1, hi = n, probe = 2;
    while (a + probe < n) {
      if (!can_pull(&P, a, a + probe)) {
        hi = a + probe;
        break;
      }
      good = a + probe;
      probe *= 2;
    }
    if (hi == n && good < n - 1) {
      if (can_pull(&P, a, n - 1))
        good = n - 1;
      else
        hi = n - 1;
    }
    while (hi - good > 1) {
      size_t mid = good + (hi - good) / 2;
      if (can_pull(&P, a, mid))
        good = mid;
      else
        hi = mid;
    }
    out[2 * m] = xy[2 * good];
    out[2 * m + 1] = xy[2 * good + 1];
    m++;
    a = good;
  }
  *nout = m;
  return ASTAR_OK;
}

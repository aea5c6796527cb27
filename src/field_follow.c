/*
 * Following a field: the best step downhill from a tile, under the rules
 * the field was built with (the unit's sized layer, the tile callback's
 * memo, the overlays the field copied, the grid's links), and the seeded
 * choice among equal-best steps.  The plain case (no overlay, no link at
 * the tile) reads the move mask and the costs only; the general case
 * iterates the candidates twice (the best, then the ties).
 */
#include "astar.h"
#include "internal.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define CORNERS(rule) \
  ((rule) == ASTAR_DIAG_BOTH_FREE || (rule) == ASTAR_DIAG_ONE_FREE)

/* the opposite of each direction N E S W NE SE SW NW */
static const unsigned reverse_dir[8] = {2, 3, 0, 1, 6, 7, 4, 5};

uint64_t astar_field_random(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15u);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}

/* ---- following a field ---- */

/* Tile t is open to the callback the field was built with (its memo). */
static int memo_open(const astar_field *f, const astar_layer *L, uint32_t t) {
  const astar__memo *m = f->ctx.memo + t;
  return astar__bit(L->passable, t) && m->gen == f->tag && m->cost > 0.0;
}

/* The callback's cost of entering t (0: closed or never asked). */
static double memo_cost(const astar_field *f, uint32_t t) {
  const astar__memo *m = f->ctx.memo + t;
  return m->gen == f->tag ? m->cost : 0.0;
}

/* The move w -> v (direction d) under the build's callback: its tile
 * cost, 0 when the callback closed v or a corner. */
static double memo_move(const astar_field *f, const astar_grid *G,
                        const astar_layer *L, uint32_t w, unsigned d,
                        uint32_t v) {
  double c = memo_cost(f, v);
  if (c > 0.0 && d >= 4 && d < 8 && CORNERS(G->diagonal)) {
    int a = memo_open(f, L, (uint32_t)((int32_t)w + astar_dir_dx[d]));
    int b = memo_open(f, L, (uint32_t)((int32_t)w + astar_dir_dy[d] *
                                                        G->stride));
    if (G->diagonal == ASTAR_DIAG_BOTH_FREE ? !(a && b) : !(a || b))
      return 0.0;
  }
  return c;
}

/* The candidate steps of the general case (overlays, links): an
 * iterator over the rule's moves, then the links. */
typedef struct cand_it {
  const astar_field *f;
  const astar_grid *G;
  const astar_layer *L;
  uint32_t i;
  unsigned m;
  size_t k, nl;
  const astar_link *l;
} cand_it;

/* The extra cost of entering t under f's overlay. */
static double extra_of(const astar_field *f, uint32_t t) {
  const astar__overlay *o = f->ctx.overlay;
  if (f->mtag == 0 || !astar__marked(o->mark, f->mtag, t, ASTAR__MARK_EXTRA))
    return 0.0;
  return o->add[t];
}

/* The move w -> v (direction d) keeps off avoided tiles and corners. */
static int overlay_ok(const astar_field *f, const astar_grid *G,
                      const astar_layer *L, uint32_t w, unsigned d) {
  const astar__overlay *o = f->ctx.overlay;
  if (f->mtag == 0 || !astar__bit(o->near, w)) return 1;
  return astar__overlay_moves(G, L->passable, o->mark, f->mtag, w,
                              1u << d) != 0;
}

static int cand_next(cand_it *it, uint32_t *out, double *cost, int *dir) {
  const astar_field *f = it->f;
  const astar_grid *G = it->G;
  const astar_layer *L = it->L;
  const uint32_t i = it->i;
  const int to = f->direction == ASTAR_FIELD_TO;
  while (it->m) {
    unsigned d = astar__lowest_bit(it->m);
    uint32_t v, w, t; /* v the candidate; the move w -> t */
    double c;
    it->m &= it->m - 1;
    if (to) {
      v = t = (uint32_t)((int32_t)i + G->offset[d]);
      w = i;
    } else {
      v = w = (uint32_t)((int32_t)i - G->offset[d]);
      t = i;
      if (!((L->moves[v] >> d) & 1u)) continue;
    }
    if (!astar_field_has(f, v) || !overlay_ok(f, G, L, w, d)) continue;
    c = f->memo ? memo_move(f, G, L, w, d, t) : (double)L->cost[t];
    if (!(c > 0.0)) continue;
    c = (c + extra_of(f, t)) * G->step_length[d];
    if (L->height != NULL) c += astar__climb_cost(L, w, t);
    *out = v;
    *cost = c;
    *dir = to ? (int)d : (int)reverse_dir[d];
    return 1;
  }
  for (; it->k < it->nl; it->k++) {
    const astar_link *l = it->l + it->k;
    uint32_t v = to ? l->to : l->from, t = l->to;
    if (!to && l->to != i) continue; /* "from": the links into i */
    if (!astar_field_has(f, v)) continue;
    if (f->memo && !(memo_cost(f, t) > 0.0)) continue;
    *out = v;
    *cost = l->cost + extra_of(f, t);
    *dir = ASTAR_FIELD_LINK;
    it->k++;
    return 1;
  }
  return 0;
}

static void cand_start(cand_it *it, const astar_field *f,
                       const astar_grid *G, const astar_layer *L,
                       uint32_t i) {
  it->f = f;
  it->G = G;
  it->L = L;
  it->i = i;
  it->k = it->nl = 0;
  it->l = NULL;
  it->m = f->direction == ASTAR_FIELD_TO ? L->moves[i]
                                         : astar__rule_dirs(G->diagonal);
  if (f->links && G->nlinks != 0 && astar__link_end(G, i)) {
    if (f->direction == ASTAR_FIELD_TO) {
      astar__links_from(G, i, &it->l, &it->nl);
    } else {
      it->l = G->links;
      it->nl = G->nlinks;
    }
  }
}

/* Field values are floats: two scores are equal within a few of their
 * units in the last place (the doubles they came from were equal, or
 * nearly) -- units of the largest value in the sum: near 0 a tile reached
 * from a far lower one (flee maps) is off by the lower one's rounding.
 * mag: the largest |value| among the candidates and the tile's own. */
static double score_tolerance(double best, double mag) {
  if (fabs(best) > mag) mag = fabs(best);
  return 4.0 * FLT_EPSILON * mag;
}

/* A step i -> v leads downhill: a lower value, or through a link of
 * cost 0 to a tile of the same value closed before i (the build's closing
 * rank, in heap_pos: no cycle). */
static int downhill(const astar_field *f, uint32_t i, uint32_t v, int d) {
  if (f->value[v] < f->value[i]) return 1;
  return d == ASTAR_FIELD_LINK && f->sorted && f->value[v] == f->value[i] &&
         f->ctx.heap_pos[v] < f->ctx.heap_pos[i];
}

/* astar_field_next in the general case: two passes over the candidates
 * (the best score, then the ties). */
static int next_x(const astar_field *f, const astar_grid *G,
                  const astar_layer *L, uint32_t i, uint64_t *rng,
                  uint32_t *next, double *step, int *dir) {
  cand_it it;
  double here = (double)f->value[i], best = HUGE_VAL, tol, c, mag;
  uint32_t v;
  unsigned ties = 0;
  int d, found = 0;
  mag = fabs(here);
  cand_start(&it, f, G, L, i);
  while (cand_next(&it, &v, &c, &d)) {
    if (!downhill(f, i, v, d)) continue;
    if (c + (double)f->value[v] < best) best = c + (double)f->value[v];
    if (fabs((double)f->value[v]) > mag) mag = fabs((double)f->value[v]);
    found = 1;
  }
  if (!found) return 0;
  tol = score_tolerance(best, mag);
  if (best > here + tol) return 0;
  cand_start(&it, f, G, L, i);
  while (cand_next(&it, &v, &c, &d)) {
    if (!downhill(f, i, v, d)) continue;
    if (c + (double)f->value[v] > best + tol) continue;
    ties++;
    if (ties == 1 || (rng != NULL && astar_field_random(rng) % ties == 0)) {
      *next = v;
      *step = c;
      *dir = d;
      if (rng == NULL) break;
    }
  }
  return 1;
}

int astar_field_next(const astar_field *f, const astar_grid *G,
                     const astar_layer *L, uint32_t i, uint64_t *rng,
                     uint32_t *next, double *step, int *dir) {
  const int to = f->direction == ASTAR_FIELD_TO;
  double here, best = HUGE_VAL, tol, mag;
  double score[8], cost[8];
  uint32_t cand[8];
  unsigned moved[8];
  unsigned m, k = 0, j, pick = 0, ties = 0;
  if (i >= f->ntiles || G->ntiles != f->ntiles || !astar_field_has(f, i))
    return 0;
  if (f->mtag != 0 || (f->links && astar__link_end(G, i)))
    return next_x(f, G, L, i, rng, next, step, dir);
  here = (double)f->value[i];
  mag = fabs(here);
  m = to ? L->moves[i] : astar__rule_dirs(G->diagonal);
  while (m) {
    unsigned d = astar__lowest_bit(m);
    uint32_t v;
    double c;
    m &= m - 1;
    if (to) { /* the move i -> v */
      v = (uint32_t)((int32_t)i + G->offset[d]);
      /* strictly downhill first: half the neighbours end here, before
       * their costs are read */
      if (!astar_field_has(f, v) || !(f->value[v] < f->value[i])) continue;
      c = f->memo ? memo_move(f, G, L, i, d, v) : (double)L->cost[v];
      if (!(c > 0.0)) continue;
      c *= G->step_length[d];
      if (L->height != NULL) c += astar__climb_cost(L, i, v);
    } else { /* the move v -> i, walked backwards */
      v = (uint32_t)((int32_t)i - G->offset[d]);
      if (!((L->moves[v] >> d) & 1u) || !astar_field_has(f, v) ||
          !(f->value[v] < f->value[i]))
        continue;
      c = f->memo ? memo_move(f, G, L, v, d, i) : (double)L->cost[i];
      if (!(c > 0.0)) continue;
      c *= G->step_length[d];
      if (L->height != NULL) c += astar__climb_cost(L, v, i);
    }
    cand[k] = v;
    cost[k] = c;
    moved[k] = to ? d : reverse_dir[d];
    score[k] = c + (double)f->value[v];
    if (score[k] < best) best = score[k];
    if (fabs((double)f->value[v]) > mag) mag = fabs((double)f->value[v]);
    k++;
  }
  if (k == 0) return 0;
  tol = score_tolerance(best, mag);
  if (best > here + tol) return 0; /* no step pays: a local minimum */
  for (j = 0; j < k; j++) {
    if (score[j] > best + tol) continue;
    ties++;
    if (ties == 1) {
      pick = j;
      if (rng == NULL) break;
    } else if (astar_field_random(rng) % ties == 0) {
      pick = j; /* reservoir: each of the ties with probability 1/ties */
    }
  }
  *next = cand[pick];
  *step = cost[pick];
  *dir = (int)moved[pick];
  return 1;
}

/*
 * Simple subgoal graphs (Uras, Koenig and Hernández, ICAPS 2013; the GPPC
 * 2012-2014 entries) for prepared static maps: the map's convex corners
 * ("subgoals") and, for each, the subgoals it reaches directly by a path of
 * octile length (diagonal steps first, then straight ones) with no other
 * subgoal in the way; subgoal_levels.c then contracts most of them
 * (shortcut edges, levels).  A query connects its start and goal to the
 * subgoals they reach directly, runs A* over that small graph with the
 * octile heuristic, and unfolds each edge back into tiles.  The paths have
 * the same cost as A*'s on the grid (the graph keeps every shortest path:
 * the paper's theorem), under the rules JPS needs: 8-way, no corner
 * cutting, every passable tile of the unit costing the same.
 *
 * The data belongs to the map (one graph per unit class, read only while
 * searching) and records the map's edit counter: after any edit it is
 * stale and find_path falls back to JPS until the next build.  The
 * scans read passability and subgoals as bits, 64 tiles a word, in rows
 * (row-major) and columns (column-major copies).
 *
 * Memory: two subgoal bitmaps (2 bits a tile), a rank count per 64 tiles,
 * 24 bytes per subgoal, 20 per edge (target, steps, and the record the
 * unfolding reads: the middle subgoal's tile and where its halves sit;
 * 4 in a graph nothing was contracted in).
 */
#include "astar.h"
#include "bits.h"
#include "heap.h"
#include "internal.h"
#include "subgoal.h"

#include <math.h>
#include <string.h>

#define NONE UINT32_MAX

/* Distance (>= 1) from p to the first tile after it along the plane's
 * rows (forward: +1, else -1) that is blocked, a subgoal or the extra
 * tile.  The border is blocked, so a run never leaves its row. */
static uint32_t run(const uint64_t *pass, const uint64_t *sub, uint32_t p,
                    int forward, uint32_t extra) {
  uint32_t d = 1;
  if (forward) {
    for (;;) {
      uint32_t at = p + d;
      uint64_t stop =
          (~astar__bits_from(pass, at) | astar__bits_from(sub, at)) &
          ASTAR__SPAN_MASK;
      if (stop) {
        d += astar__ctz64(stop);
        break;
      }
      d += ASTAR__SPAN;
    }
    if (extra != NONE && extra > p && extra - p < d) d = extra - p;
  } else {
    for (;;) {
      /* bit ASTAR__SPAN - 1 is tile p - d */
      int64_t at = (int64_t)p - d - (ASTAR__SPAN - 1u);
      uint64_t stop = (~astar__bits_at(pass, at) | astar__bits_at(sub, at)) &
                      ASTAR__SPAN_MASK;
      if (stop) {
        d += astar__clz64(stop) - (64u - ASTAR__SPAN);
        break;
      }
      d += ASTAR__SPAN;
    }
    if (extra != NONE && extra < p && p - extra < d) d = p - extra;
  }
  return d;
}

/* The run from tile i (at x, y: padded coordinates) in cardinal direction
 * d; *stop gets the tile that ended it. */
static uint32_t run_dir(const astar__view *V, unsigned d, uint32_t x, uint32_t y,
                        uint32_t *stop) {
  uint32_t i = y * V->stride + x, k;
  switch (d) {
  case ASTAR_E:
    k = run(V->pass, V->sub, i, 1, V->extra);
    *stop = i + k;
    return k;
  case ASTAR_W:
    k = run(V->pass, V->sub, i, 0, V->extra);
    *stop = i - k;
    return k;
  case ASTAR_S:
    k = run(V->pass_t, V->sub_t, x * V->tstride + y, 1, V->extra_t);
    *stop = i + k * V->stride;
    return k;
  default:
    k = run(V->pass_t, V->sub_t, x * V->tstride + y, 0, V->extra_t);
    *stop = i - k * V->stride;
    return k;
  }
}

static inline int stops(const astar__view *V, uint32_t i) {
  return i == V->extra || astar__bit(V->sub, i);
}

/* The tiles a scan from s reaches directly: every subgoal (or the extra
 * tile) met first along a straight line, or at the end of a few diagonal
 * steps and then a straight line, with the band of each straight
 * direction narrowing to what the rows before it left open (Uras et al.,
 * Algorithm 2).  Calls add(ud, tile) for each. */
int astar__subgoal_scan(const astar__view *V, uint32_t s, astar__add_fn add,
                        void *ud) {
  static const unsigned diag[4] = {ASTAR_NE, ASTAR_SE, ASTAR_SW, ASTAR_NW};
  uint32_t sx = s % V->stride, sy = s / V->stride, stop;
  unsigned d;
  int st;
  for (d = 0; d < 4; d++) {
    static const unsigned card[4] = {ASTAR_N, ASTAR_E, ASTAR_S, ASTAR_W};
    run_dir(V, card[d], sx, sy, &stop);
    if (astar__bit(V->pass, stop) && (st = add(ud, stop)) != ASTAR_OK)
      return st;
  }
  for (d = 0; d < 4; d++) {
    unsigned dd = diag[d];
    int dx = dd == ASTAR_NE || dd == ASTAR_SE ? 1 : -1;
    int dy = dd == ASTAR_SE || dd == ASTAR_SW ? 1 : -1;
    unsigned ch = dx > 0 ? ASTAR_E : ASTAR_W, cv = dy > 0 ? ASTAR_S : ASTAR_N;
    int32_t vstep = dy > 0 ? (int32_t)V->stride : -(int32_t)V->stride;
    int64_t maxh = (int64_t)run_dir(V, ch, sx, sy, &stop) - 1;
    int64_t maxv = (int64_t)run_dir(V, cv, sx, sy, &stop) - 1;
    uint32_t p = s, x = sx, y = sy;
    for (;;) {
      if (!astar__bit(V->pass, (uint32_t)((int32_t)p + dx)) ||
          !astar__bit(V->pass, (uint32_t)((int32_t)p + vstep)) ||
          !astar__bit(V->pass, (uint32_t)((int32_t)p + vstep + dx)))
        break;
      p = (uint32_t)((int32_t)p + vstep + dx);
      x = (uint32_t)((int32_t)x + dx);
      y = (uint32_t)((int32_t)y + dy);
      if (stops(V, p)) {
        if ((st = add(ud, p)) != ASTAR_OK) return st;
        break;
      }
      if (maxh >= 0) {
        int64_t j = (int64_t)run_dir(V, ch, x, y, &stop) - 1;
        if (j <= maxh && astar__bit(V->pass, stop)) {
          if ((st = add(ud, stop)) != ASTAR_OK) return st;
          j--;
        }
        if (j < maxh) maxh = j;
      }
      if (maxv >= 0) {
        int64_t j = (int64_t)run_dir(V, cv, x, y, &stop) - 1;
        if (j <= maxv && astar__bit(V->pass, stop)) {
          if ((st = add(ud, stop)) != ASTAR_OK) return st;
          j--;
        }
        if (j < maxv) maxv = j;
      }
    }
  }
  return ASTAR_OK;
}

/* ---- the graph ---- */

static astar__subgoals *find(const astar_grid *g, int unit) {
  astar__subgoals *s;
  for (s = g->subgoals; s != NULL; s = s->next)
    if (s->unit == unit) return s;
  return NULL;
}

static size_t bytes_of(const astar__subgoals *s) {
  if (s->jumps != NULL) return sizeof *s + s->njt * sizeof(uint32_t);
  return sizeof *s + 2 * s->nwords * sizeof(uint64_t) +
         s->nwords * sizeof(uint32_t) +
         ((size_t)s->nsub + 1) * sizeof(uint32_t) +
         ((size_t)s->nsub + 1) * sizeof(*s->at) +
         (size_t)s->edges_cap * sizeof(uint32_t) * (1u + (s->wt != NULL)) +
         (s->ex != NULL ? (size_t)s->edges_cap * sizeof(*s->ex) : 0u);
}

static void free_one(astar_grid *g, astar__subgoals *s) {
  astar__free(g, s->bits, s->nwords, sizeof(uint64_t));
  astar__free(g, s->bits_t, s->nwords, sizeof(uint64_t));
  astar__free(g, s->rank, s->nwords, sizeof(uint32_t));
  astar__free(g, s->first, (size_t)s->nsub + 1, sizeof(uint32_t));
  astar__free(g, s->at, (size_t)s->nsub + 1, sizeof(*s->at));
  astar__free(g, s->adj, s->edges_cap, sizeof(uint32_t));
  astar__free(g, s->wt, s->edges_cap, sizeof(uint32_t));
  astar__free(g, s->ex, s->edges_cap, sizeof(*s->ex));
  astar__free(g, s->jumps, s->njt, sizeof(uint32_t));
  astar__free(g, s, 1, sizeof *s);
}

void astar_subgoal_drop(astar_grid *g, int unit) {
  astar__subgoals **at = &g->subgoals;
  while (*at != NULL) {
    astar__subgoals *s = *at;
    if (unit < 0 || s->unit == unit) {
      *at = s->next;
      free_one(g, s);
      g->landmarks_serial++; /* a search begun over it must not resume */
    } else {
      at = &s->next;
    }
  }
}

size_t astar_subgoal_memory(const astar_grid *g, int unit) {
  const astar__subgoals *s;
  size_t total = 0;
  for (s = g->subgoals; s != NULL; s = s->next)
    if (unit < 0 || s->unit == unit) total += bytes_of(s);
  return total;
}

int astar_subgoal_state(const astar_grid *g, int unit) {
  const astar__subgoals *s = find(g, unit);
  if (s == NULL) return ASTAR_SUBGOAL_NONE;
  return s->version == g->version ? ASTAR_SUBGOAL_READY : ASTAR_SUBGOAL_STALE;
}

int astar_subgoal_count(const astar_grid *g, int unit, uint32_t *nsub,
                        uint32_t *nedges) {
  const astar__subgoals *s = find(g, unit);
  if (s == NULL) return 0;
  *nsub = s->nsub;
  *nedges = s->nedges;
  return 1;
}

uint32_t astar_subgoal_global(const astar_grid *g, int unit) {
  const astar__subgoals *s = find(g, unit);
  return s != NULL && s->jumps == NULL ? s->nglobal : 0u;
}

int astar_subgoal_jps_first(const astar_grid *g, int unit) {
  const astar__subgoals *s = find(g, unit);
  return s != NULL && s->jumps == NULL && s->probe;
}

void astar__subgoal_set_probe(astar_grid *g, int unit, int on) {
  astar__subgoals *s = find(g, unit);
  if (s != NULL && s->jumps == NULL) s->probe = on;
}

typedef struct {
  astar_grid *g;
  astar__subgoals *s;
} builder;

int astar_subgoal_pays(const astar_grid *g, int unit) {
  const astar__subgoals *s = find(g, unit);
  uint64_t tiles = (uint64_t)g->width * (uint64_t)g->height;
  if (s == NULL || s->jumps != NULL) return 0;
  /* and no more than the jump table's 4 bytes per tile (the issue's
     memory limit; lak303d contracts completely since session 22, but
     its graph takes 10 bytes per tile) */
  return tiles >= 16384u && (uint64_t)s->nglobal * 1000u <= tiles &&
         (uint64_t)bytes_of(s) <= 4u * tiles;
}

static int push_edge(void *ud, uint32_t tile) {
  builder *b = ud;
  astar__subgoals *s = b->s;
  if (s->nedges == s->edges_cap) {
    void *p = s->adj;
    size_t cap = s->edges_cap;
    int st = astar__grow(b->g->alloc, b->g->alloc_ud, &p, &cap,
                         (size_t)s->nedges + 1, sizeof(uint32_t), 1024);
    if (st != ASTAR_OK) return st;
    if (cap > UINT32_MAX) return ASTAR_ENOMEM;
    s->adj = p;
    s->edges_cap = (uint32_t)cap;
  }
  s->adj[s->nedges++] = astar__subgoal_id(s, tile);
  return ASTAR_OK;
}

void astar__subgoal_view(const astar_grid *g, const astar__jps_layer *J,
                    const astar__subgoals *s, astar__view *V) {
  V->pass = J->passable;
  V->pass_t = J->columns;
  V->sub = s->bits;
  V->sub_t = s->bits_t;
  V->stride = (uint32_t)g->stride;
  V->tstride = (uint32_t)g->height + 2u;
  V->extra = V->extra_t = NONE;
}

int astar__static_rules(const astar_grid *g, int unit, int *refusal,
                        astar__jps_layer *J) {
  int st;
  *refusal = ASTAR_REFUSE_NONE;
  if (g->cost == NULL) return ASTAR_EINVAL;
  /* the binding asks astar_query_refusal first; these are the rules
     the graph itself rests on */
  if (!astar__jps_movement(g)) {
    *refusal = ASTAR_REFUSE_MOVEMENT;
    return ASTAR_EINVAL;
  }
  if (g->nlinks != 0) {
    *refusal = ASTAR_REFUSE_LINKS;
    return ASTAR_EINVAL;
  }
  if ((st = astar__jps_layer_size(g, unit, 1, J)) != 1) {
    if (st < 0) return st;
    *refusal = ASTAR_REFUSE_UNIFORM;
    return ASTAR_EINVAL;
  }
  return ASTAR_OK;
}

int astar__static_keep(astar_grid *g, int unit, uint32_t *jumps,
                       size_t njumps) {
  astar__subgoals *s;
  astar_subgoal_drop(g, unit);
  s = astar__alloc(g, 1, sizeof *s);
  if (s == NULL) return ASTAR_ENOMEM;
  memset(s, 0, sizeof *s);
  s->unit = unit;
  s->njt = njumps;
  s->jumps = jumps;
  s->version = g->version;
  s->next = g->subgoals;
  g->subgoals = s;
  return ASTAR_OK;
}

int astar_subgoal_is_jumps(const astar_grid *g, int unit) {
  const astar__subgoals *s = find(g, unit);
  return s != NULL && s->jumps != NULL;
}

/* Are edge a -> b's diagonal steps first open from a (corner rule
 * included)? */
static int diagonal_first(const astar_grid *g, const uint64_t *pass,
                          uint32_t a, uint32_t b) {
  uint32_t t = a;
  unsigned dd, ds;
  int32_t nd, ns, k;
  astar__tile_runs(g, a, b, &dd, &nd, &ds, &ns);
  for (k = 0; k < nd + ns; k++) {
    unsigned d = k < nd ? dd : ds;
    if (!astar__step_open(g, pass, t, d)) return 0;
    t = (uint32_t)((int32_t)t + g->offset[d]);
  }
  return 1;
}

/* Fills s->ex for the edges of the plain graph: which of each edge's
 * two ways is open from either end (layer J: the unit's, which s was
 * built on), so that unfolding need not look. */
static void record_ways(const astar_grid *g, const astar__jps_layer *J,
                        astar__subgoals *s) {
  uint32_t k, e;
  if (s->ex == NULL) return;
  for (k = 0; k < s->nsub; k++)
    for (e = s->first[k]; e < s->first[k + 1]; e++) {
      uint32_t a = s->at[k].tile, b = s->at[s->adj[e]].tile;
      if (s->ex[e].through != ASTAR__SG_PLAIN) continue;
      s->ex[e].to_x = (
          (diagonal_first(g, J->passable, a, b) ? ASTAR__SG_DFX : 0u) |
          (diagonal_first(g, J->passable, b, a) ? ASTAR__SG_DFY : 0u));
    }
}

int astar__subgoal_build(astar_grid *g, int unit, int *refusal) {
  astar__jps_layer J;
  astar__subgoals *s;
  uint32_t stride = (uint32_t)g->stride, tstride = (uint32_t)g->height + 2u;
  uint32_t i, k, total;
  size_t w;
  int st;
  astar__view V;
  builder b;
  if ((st = astar__static_rules(g, unit, refusal, &J)) != ASTAR_OK)
    return st;
  astar_subgoal_drop(g, unit);
  s = astar__alloc(g, 1, sizeof *s);
  if (s == NULL) return ASTAR_ENOMEM;
  memset(s, 0, sizeof *s);
  s->unit = unit;
  s->nwords = astar__bitmap_words(g->ntiles);
  s->bits = astar__alloc(g, s->nwords, sizeof(uint64_t));
  s->bits_t = astar__alloc(g, s->nwords, sizeof(uint64_t));
  s->rank = astar__alloc(g, s->nwords, sizeof(uint32_t));
  if (s->bits == NULL || s->bits_t == NULL || s->rank == NULL) {
    free_one(g, s);
    return ASTAR_ENOMEM;
  }
  memset(s->bits, 0, s->nwords * sizeof(uint64_t));
  memset(s->bits_t, 0, s->nwords * sizeof(uint64_t));
  /* subgoals: open tiles with a blocked diagonal neighbour whose two
     tiles beside the diagonal step are open (a convex corner) */
  for (w = 0; w < s->nwords; w++) {
    uint64_t m = J.passable[w];
    while (m) {
      unsigned bit = astar__ctz64(m);
      uint32_t t = (uint32_t)(w * 64u + bit), x, y;
      int dd;
      m &= m - 1;
      if (t >= g->ntiles) break;
      x = t % stride;
      y = t / stride;
      if (x == 0 || y == 0 || x + 1 >= stride || y + 1 >= tstride) continue;
      for (dd = 4; dd < 8; dd++) {
        int32_t ox = dd == ASTAR_NE || dd == ASTAR_SE ? 1 : -1;
        int32_t oy = dd == ASTAR_SE || dd == ASTAR_SW ? (int32_t)stride
                                                      : -(int32_t)stride;
        if (!astar__bit(J.passable, (uint32_t)((int32_t)t + ox + oy)) &&
            astar__bit(J.passable, (uint32_t)((int32_t)t + ox)) &&
            astar__bit(J.passable, (uint32_t)((int32_t)t + oy))) {
          uint32_t tt = x * tstride + y;
          s->bits[t >> 6] |= (uint64_t)1 << (t & 63u);
          s->bits_t[tt >> 6] |= (uint64_t)1 << (tt & 63u);
          break;
        }
      }
    }
  }
  total = 0;
  for (w = 0; w < s->nwords; w++) {
    s->rank[w] = total;
    total += astar__pop64(s->bits[w]);
  }
  s->nsub = total;
  s->first = astar__alloc(g, (size_t)total + 1, sizeof(uint32_t));
  s->at = astar__alloc(g, (size_t)total + 1, sizeof(*s->at));
  if (s->first == NULL || s->at == NULL) {
    free_one(g, s);
    return ASTAR_ENOMEM;
  }
  astar__subgoal_view(g, &J, s, &V);
  b.g = g;
  b.s = s;
  k = 0;
  for (w = 0; w < s->nwords; w++) {
    uint64_t m = s->bits[w];
    while (m) {
      i = (uint32_t)(w * 64u + astar__ctz64(m));
      m &= m - 1;
      s->at[k].tile = i;
      s->at[k].x = (int32_t)(i % stride);
      s->at[k].y = (int32_t)(i / stride);
      s->first[k++] = s->nedges;
      if ((st = astar__subgoal_scan(&V, i, push_edge, &b)) != ASTAR_OK) {
        free_one(g, s);
        return st;
      }
    }
  }
  s->first[k] = s->nedges;
  if ((st = astar__subgoal_contract(g, s)) != ASTAR_OK) {
    free_one(g, s);
    return st;
  }
  record_ways(g, &J, s);
  s->version = g->version;
  s->next = g->subgoals;
  g->subgoals = s;
  return ASTAR_OK;
}

/* ---- the query ---- */

/* The graph a query may use: built for its unit, not stale. */
const astar__subgoals *astar__subgoals_for(const astar_grid *g, int unit) {
  const astar__subgoals *s = find(g, unit);
  return s != NULL && s->jumps == NULL && s->version == g->version ? s
                                                                   : NULL;
}

const uint32_t *astar__jumps_for(const astar_grid *g, int unit) {
  const astar__subgoals *s = find(g, unit);
  return s != NULL && s->version == g->version ? s->jumps : NULL;
}


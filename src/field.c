/*
 * Fields: a distance per tile to (or from) the nearest of a set of goals,
 * a Dijkstra map.  One build answers for every tile, so many units can
 * share it; flee maps and weighted sums are rescans of the same loop.
 *
 * The loop is the search's, turned round: no heuristic, several sources
 * (each at its own start value), and every closed tile keeps its value.
 * A "to" field pops a tile v and offers its value to each tile u with a
 * legal move u -> v, at the cost of that move (length(d) * cost(v), plus
 * the climb u -> v): exactly what a unit standing on u pays to step onto
 * v, corner rule, height limits and unit class included, because the
 * legal moves are read from u's own move mask.  A "from" field offers
 * along u's own moves.  With equal step costs and one start value the
 * loop is breadth-first, level by level; else tiles come off a bucket
 * ring when the tile costs are known (plain builds), else a radix heap
 * (fqueue.h: both exact), or the binary heap when asked (keys: the bits
 * of g - the least start value, ordered as the doubles are).
 */
#include "astar.h"
#include "fqueue.h"
#include "heap.h"
#include "internal.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define CORNERS(rule) \
  ((rule) == ASTAR_DIAG_BOTH_FREE || (rule) == ASTAR_DIAG_ONE_FREE)

/* the opposite of each direction N E S W NE SE SW NW */
static const unsigned reverse_dir[8] = {2, 3, 0, 1, 6, 7, 4, 5};

void astar_field_query_defaults(astar_field_query *q) {
  memset(q, 0, sizeof *q);
  q->max_cost = HUGE_VAL;
  q->direction = ASTAR_FIELD_TO;
}

void astar_field_init(astar_field *f, astar_alloc_fn alloc, void *ud) {
  memset(f, 0, sizeof *f);
  astar_search_init(&f->ctx, alloc, ud);
}

void astar_field_release(astar_field *f) {
  astar_search *s = &f->ctx;
  if (s->alloc == NULL) return;
  astar__mem_free(s->alloc, s->alloc_ud, f->value, f->ntiles, sizeof(float));
  astar__mem_free(s->alloc, s->alloc_ud, f->order, f->ntiles,
                  sizeof(uint32_t));
  astar__mem_free(s->alloc, s->alloc_ud, f->ov_xy, 2 * f->ov_cap,
                  sizeof(int32_t));
  astar__mem_free(s->alloc, s->alloc_ud, f->ov_cost, f->ov_cap,
                  sizeof(double));
  astar__fq_free(f->fq, s->alloc, s->alloc_ud);
  astar_search_release(s);
  astar_field_init(f, s->alloc, s->alloc_ud);
}

size_t astar_field_memory(const astar_field *f) {
  size_t n = astar_search_memory(&f->ctx);
  if (f->value != NULL) n += (size_t)f->ntiles * sizeof(float);
  if (f->order != NULL) n += (size_t)f->ntiles * sizeof(uint32_t);
  if (f->ov_xy != NULL)
    n += f->ov_cap * (2 * sizeof(int32_t) + sizeof(double));
  if (f->fq != NULL) n += astar__fq_memory(f->fq);
  return n;
}

int astar_field_fit(astar_field *f, const astar_grid *g) {
  astar_search *s = &f->ctx;
  int st;
  f->tag = 0;
  f->count = 0;
  if (f->ntiles != g->ntiles) {
    astar_field_release(f);
    f->ntiles = g->ntiles;
  }
  f->width = g->width;
  f->height = g->height;
  if ((st = astar__context_fit(s, g->ntiles)) != ASTAR_OK) return st;
  s->stride = g->stride;
  memcpy(s->offset, g->offset, sizeof s->offset);
  if (f->value == NULL &&
      (f->value = astar__mem(s->alloc, s->alloc_ud, g->ntiles,
                             sizeof(float))) == NULL)
    return ASTAR_ENOMEM;
  if (f->order == NULL &&
      (f->order = astar__mem(s->alloc, s->alloc_ud, g->ntiles,
                             sizeof(uint32_t))) == NULL)
    return ASTAR_ENOMEM;
  return ASTAR_OK;
}

/* ---- one build ---- */

typedef struct build {
  astar_field *f;
  const astar_grid *G;
  const astar_field_query *q;
  astar_layer L;
  uint32_t tag;
  double base;     /* the least start value: keys are g - base >= 0 */
  double max_cost;
  int corners;
  int symmetric; /* every legal move's reverse is legal (no height limit) */
  int x;         /* overlays or links: the general expansion (expand_x) */
  const uint32_t *mark; /* the overlay's marks (tag f->mtag), or NULL */
  const double *add;
  const uint64_t *near;
  astar__fq *Q; /* the radix heap, or NULL: the binary heap */
  astar__ring *R; /* the bucket ring (plain builds), or NULL */
  double flat;  /* every tile the unit may enter costs this, or 0 */
} build;

static int expand_x(build *B, size_t *n, uint32_t u, double g);

/* The tile callback's cost of tile v (0: closed), memoized per build. */
static int tile_value(build *B, uint32_t v, double *out) {
  astar__memo *memo = B->f->ctx.memo + v;
  int32_t x, y;
  double c = 0.0;
  if (memo->gen == B->tag) {
    *out = memo->cost;
    return ASTAR_OK;
  }
  astar_xy(B->G, v, &x, &y);
  if (B->q->tile_fn(B->q->fn_ud, x, y, (double)B->L.cost[v], &c) !=
      ASTAR_OK)
    return ASTAR_ECALLBACK;
  memo->cost = c > 0.0 ? c : 0.0;
  memo->gen = B->tag;
  *out = memo->cost;
  return ASTAR_OK;
}

/* Tile t is passable and open to the callback. */
static int open_tile(build *B, uint32_t t, int *open) {
  double c = 0.0;
  int st;
  *open = 0;
  if (!astar__bit(B->L.passable, t)) return ASTAR_OK;
  if ((st = tile_value(B, t, &c)) != ASTAR_OK) return st;
  *open = c > 0.0;
  return ASTAR_OK;
}

/* The diagonal d out of u keeps the corner rule with the tiles the
 * callback closed (the grid's own rule is in u's move mask already). */
static int corner_ok(build *B, uint32_t u, unsigned d, int *ok) {
  const astar_grid *G = B->G;
  int a, b, st;
  *ok = 1;
  if (d < 4 || d > 7 || !B->corners) return ASTAR_OK;
  if ((st = open_tile(B, (uint32_t)((int32_t)u + astar_dir_dx[d]), &a)) !=
      ASTAR_OK)
    return st;
  if ((st = open_tile(B, (uint32_t)((int32_t)u + astar_dir_dy[d] *
                                                     G->stride),
                      &b)) != ASTAR_OK)
    return st;
  *ok = G->diagonal == ASTAR_DIAG_BOTH_FREE ? (a && b) : (a || b);
  return ASTAR_OK;
}

#define NOT_QUEUED UINT32_MAX /* heap_pos of a seed not on the heap yet */

/* Offers ng to tile v (parent direction d): opens it or lowers its g. */
static inline int offer(build *B, size_t *n, uint32_t v, double ng, unsigned d) {
  astar_search *s = &B->f->ctx;
  uint32_t sv;
  astar_heap_entry e;
  size_t at;
  if (B->R != NULL) return astar__ring_offer(B->f, B->R, B->tag, v, ng, d);
  if (B->Q != NULL) return astar__fq_offer(B->f, B->Q, B->tag, v, ng, d);
  sv = s->stamp[v];
  if ((sv & ASTAR__STAMP_GEN) == B->tag) {
    if (sv & ASTAR__STAMP_CLOSED) return ASTAR_OK;
    at = s->heap_pos[v];
    if (at == NOT_QUEUED) { /* a seed waiting for its turn, at value[v] */
      if (ng >= (double)B->f->value[v]) return ASTAR_OK;
      if (*n == s->heap_cap && astar__grow_heap(s) != ASTAR_OK)
        return ASTAR_ENOMEM;
      at = (*n)++;
    } else if (ng >= s->heap[at].g) {
      return ASTAR_OK;
    }
  } else {
    if (*n == s->heap_cap && astar__grow_heap(s) != ASTAR_OK)
      return ASTAR_ENOMEM;
    at = (*n)++;
  }
  {
    double k = ng - B->base;
    if (!(k > 0.0)) k = 0.0;
    memcpy(&e.key, &k, sizeof k);
  }
  e.g = ng;
  e.node = v;
  e.aux = 0;
  s->stamp[v] = B->tag | d;
  astar__heap_up(s->heap, s->heap_pos, at, e, 0);
  return ASTAR_OK;
}

/* Closes tile v at value g. */
static inline void close_tile(build *B, uint32_t v, double g) {
  astar_field *f = B->f;
  f->ctx.stamp[v] |= ASTAR__STAMP_CLOSED;
  f->value[v] = (float)g;
  f->order[f->count++] = v;
}

/* The heap loop from the sources on the heap (n entries) and the seeds
 * order[cur .. end), sorted by their start values in value[]: each seed
 * joins the heap only when its turn comes, so a rescan of a whole field
 * keeps a small heap.  Closed tiles are written to order[] behind the
 * seeds read; should they catch up (tiles reached that are no seeds),
 * the next seeds go on the heap early. */
static int run_heap(build *B, size_t n, uint32_t cur, uint32_t end) {
  astar_field *f = B->f;
  astar_search *s = &f->ctx;
  const astar_grid *G = B->G;
  const uint8_t *moves = B->L.moves;
  const float *cost = B->L.cost;
  const int to = B->q->direction == ASTAR_FIELD_TO;
  const int fn = B->q->tile_fn != NULL;
  const unsigned dirs = astar__rule_dirs(G->diagonal);
  const double max_cost = B->max_cost;
  const double flat = B->flat;
  int32_t offset[8];
  double length[8];
  int st;
  memcpy(offset, G->offset, sizeof offset);
  memcpy(length, G->step_length, sizeof length);
  for (;;) {
    uint32_t u;
    double g, cu = 0.0;
    unsigned m;
    if (B->Q != NULL) { /* the ring or the radix heap (fqueue.h) */
      st = B->R != NULL ? astar__ring_next(f, B->R, B->tag, &cur, end, &u, &g)
                        : astar__fq_next(f, B->Q, B->tag, &cur, end, &u, &g);
      if (st != 1) return st;
      goto expand;
    }
    if (n == 0 && cur >= end) break;
    if (cur < end && (f->count >= cur || n == 0 ||
                      (double)f->value[f->order[cur]] <= s->heap[0].g)) {
      /* the next seed onto the heap: its turn, or a close would write
       * over it (tiles that are no seeds closed): it goes on early */
      uint32_t v = f->order[cur++];
      if (s->heap_pos[v] == NOT_QUEUED) s->stamp[v] = 0; /* not seen */
      if ((st = offer(B, &n, v, (double)f->value[v], 0)) != ASTAR_OK)
        return st;
      continue;
    }
    u = s->heap[0].node;
    g = s->heap[0].g;
    if (n > 1) astar__heap_pop(s->heap, s->heap_pos, n, 0);
    n--;
  expand:
    close_tile(B, u, g);
    if (B->x) { /* overlays or links */
      s->heap_pos[u] = f->count; /* closing rank (for zero-cost links) */
      if ((st = expand_x(B, &n, u, g)) != ASTAR_OK) return st;
      continue;
    }
    if (to && B->symmetric) { /* w -> u is legal when u -> w is */
      if (fn) {
        if ((st = tile_value(B, u, &cu)) != ASTAR_OK) return st;
        if (!(cu > 0.0)) continue; /* nobody may enter u */
      } else {
        cu = flat > 0.0 ? flat : (double)cost[u];
      }
      m = moves[u];
      while (m) {
        unsigned d = astar__lowest_bit(m);
        uint32_t w = (uint32_t)((int32_t)u + offset[d]);
        double ng;
        m &= m - 1;
        if ((s->stamp[w] & (ASTAR__STAMP_GEN | ASTAR__STAMP_CLOSED)) ==
            (B->tag | ASTAR__STAMP_CLOSED))
          continue;
        if (fn && d >= 4) {
          int ok;
          if ((st = corner_ok(B, w, reverse_dir[d], &ok)) != ASTAR_OK)
            return st;
          if (!ok) continue;
        }
        ng = g + length[d] * cu;
        if (B->L.height != NULL) ng += astar__climb_cost(&B->L, w, u);
        if (ng > max_cost) continue;
        if ((st = offer(B, &n, w, ng, d)) != ASTAR_OK) return st;
      }
    } else if (to) { /* the tiles with a move into u */
      if (fn) {
        if ((st = tile_value(B, u, &cu)) != ASTAR_OK) return st;
        if (!(cu > 0.0)) continue; /* nobody may enter u */
      } else {
        cu = flat > 0.0 ? flat : (double)cost[u];
      }
      m = dirs;
      while (m) {
        unsigned d = astar__lowest_bit(m);
        uint32_t w = (uint32_t)((int32_t)u - offset[d]);
        double ng;
        m &= m - 1;
        /* (a blocked tile keeps a move mask: only the passable move) */
        if (!((moves[w] >> d) & 1u) || !astar__bit(B->L.passable, w))
          continue;
        if ((s->stamp[w] & (ASTAR__STAMP_GEN | ASTAR__STAMP_CLOSED)) ==
            (B->tag | ASTAR__STAMP_CLOSED))
          continue;
        if (fn && d >= 4) {
          int ok;
          if ((st = corner_ok(B, w, d, &ok)) != ASTAR_OK) return st;
          if (!ok) continue;
        }
        ng = g + length[d] * cu;
        if (B->L.height != NULL) ng += astar__climb_cost(&B->L, w, u);
        if (ng > max_cost) continue;
        if ((st = offer(B, &n, w, ng, reverse_dir[d])) != ASTAR_OK) return st;
      }
    } else { /* u's own moves */
      m = moves[u];
      while (m) {
        unsigned d = astar__lowest_bit(m);
        uint32_t v = (uint32_t)((int32_t)u + offset[d]);
        double ng;
        m &= m - 1;
        if ((s->stamp[v] & (ASTAR__STAMP_GEN | ASTAR__STAMP_CLOSED)) ==
            (B->tag | ASTAR__STAMP_CLOSED))
          continue;
        if (fn) {
          int ok;
          if ((st = tile_value(B, v, &cu)) != ASTAR_OK) return st;
          if (!(cu > 0.0)) continue;
          if ((st = corner_ok(B, u, d, &ok)) != ASTAR_OK) return st;
          if (!ok) continue;
        } else {
          cu = flat > 0.0 ? flat : (double)cost[v];
        }
        ng = g + length[d] * cu;
        if (B->L.height != NULL) ng += astar__climb_cost(&B->L, u, v);
        if (ng > max_cost) continue;
        if ((st = offer(B, &n, v, ng, d)) != ASTAR_OK) return st;
      }
    }
  }
  return ASTAR_OK;
}

/* The general expansion of tile u (closed at g), with overlays (avoided
 * tiles get no value and block corners, extra costs add to entering a
 * tile) and links (a link a -> b at cost c is one more move; for a "to"
 * field it offers b's value plus c to a).  A link's cost counts whole,
 * plus the extra cost of the tile it enters, as in the search. */
static int expand_x(build *B, size_t *n, uint32_t u, double g) {
  astar_field *f = B->f;
  astar_search *s = &f->ctx;
  const astar_grid *G = B->G;
  const astar_layer *L = &B->L;
  const uint32_t done = B->tag | ASTAR__STAMP_CLOSED;
  const uint32_t mtag = f->mtag;
  const int fn = B->q->tile_fn != NULL;
  int st;
  unsigned m;
  if (B->q->direction == ASTAR_FIELD_TO) {
    double cu, add = 0.0;
    if (fn) {
      if ((st = tile_value(B, u, &cu)) != ASTAR_OK) return st;
      if (!(cu > 0.0)) return ASTAR_OK; /* nobody may enter u */
    } else {
      cu = (double)L->cost[u];
    }
    if (B->mark != NULL) {
      if (astar__marked(B->mark, mtag, u, ASTAR__MARK_AVOID)) return ASTAR_OK;
      if (astar__marked(B->mark, mtag, u, ASTAR__MARK_EXTRA)) add = B->add[u];
    }
    m = astar__rule_dirs(G->diagonal);
    while (m) {
      unsigned d = astar__lowest_bit(m);
      uint32_t w = (uint32_t)((int32_t)u - G->offset[d]);
      double ng;
      m &= m - 1;
      if (!((L->moves[w] >> d) & 1u) || !astar__bit(L->passable, w)) continue;
      if ((s->stamp[w] & (ASTAR__STAMP_GEN | ASTAR__STAMP_CLOSED)) == done)
        continue;
      if (B->mark != NULL &&
          (astar__marked(B->mark, mtag, w, ASTAR__MARK_AVOID) ||
           (astar__bit(B->near, w) &&
            !astar__overlay_moves(G, L->passable, B->mark, mtag, w,
                                  1u << d))))
        continue;
      if (fn && d >= 4) {
        int ok;
        if ((st = corner_ok(B, w, d, &ok)) != ASTAR_OK) return st;
        if (!ok) continue;
      }
      ng = g + G->step_length[d] * (cu + add);
      if (L->height != NULL) ng += astar__climb_cost(L, w, u);
      if (ng > B->max_cost) continue;
      if ((st = offer(B, n, w, ng, reverse_dir[d])) != ASTAR_OK) return st;
    }
    if (f->links && astar__bit(G->link_bits, u)) { /* links into u */
      size_t k;
      for (k = 0; k < G->nlinks; k++) {
        const astar_link *l = &G->links[k];
        uint32_t w = l->from;
        double ng;
        if (l->to != u || !astar__bit(L->passable, w)) continue;
        if ((s->stamp[w] & (ASTAR__STAMP_GEN | ASTAR__STAMP_CLOSED)) == done)
          continue;
        if (B->mark != NULL &&
            astar__marked(B->mark, mtag, w, ASTAR__MARK_AVOID))
          continue;
        ng = g + l->cost + add;
        if (ng > B->max_cost) continue;
        if ((st = offer(B, n, w, ng, 0)) != ASTAR_OK) return st;
      }
    }
    return ASTAR_OK;
  }
  /* "from": u's own moves, then its links */
  m = L->moves[u];
  if (B->mark != NULL && astar__bit(B->near, u))
    m = astar__overlay_moves(G, L->passable, B->mark, mtag, u, m);
  while (m) {
    unsigned d = astar__lowest_bit(m);
    uint32_t v = (uint32_t)((int32_t)u + G->offset[d]);
    double cv, ng;
    m &= m - 1;
    if ((s->stamp[v] & (ASTAR__STAMP_GEN | ASTAR__STAMP_CLOSED)) == done)
      continue;
    if (fn) {
      int ok;
      if ((st = tile_value(B, v, &cv)) != ASTAR_OK) return st;
      if (!(cv > 0.0)) continue;
      if ((st = corner_ok(B, u, d, &ok)) != ASTAR_OK) return st;
      if (!ok) continue;
    } else {
      cv = (double)L->cost[v];
    }
    if (B->mark != NULL && astar__marked(B->mark, mtag, v, ASTAR__MARK_EXTRA))
      cv += B->add[v];
    ng = g + G->step_length[d] * cv;
    if (L->height != NULL) ng += astar__climb_cost(L, u, v);
    if (ng > B->max_cost) continue;
    if ((st = offer(B, n, v, ng, d)) != ASTAR_OK) return st;
  }
  if (f->links && astar__bit(G->link_bits, u)) {
    const astar_link *l;
    size_t k, nl;
    astar__links_from(G, u, &l, &nl);
    for (k = 0; k < nl; k++, l++) {
      uint32_t v = l->to;
      double ng = g + l->cost;
      if (!astar__bit(L->passable, v)) continue;
      if ((s->stamp[v] & (ASTAR__STAMP_GEN | ASTAR__STAMP_CLOSED)) == done)
        continue;
      if (B->mark != NULL) {
        if (astar__marked(B->mark, mtag, v, ASTAR__MARK_AVOID)) continue;
        if (astar__marked(B->mark, mtag, v, ASTAR__MARK_EXTRA))
          ng += B->add[v];
      }
      if (fn) {
        double c;
        if ((st = tile_value(B, v, &c)) != ASTAR_OK) return st;
        if (!(c > 0.0)) continue;
      }
      if (ng > B->max_cost) continue;
      if ((st = offer(B, n, v, ng, 0)) != ASTAR_OK) return st;
    }
  }
  return ASTAR_OK;
}

/* Breadth-first: every step costs `step`, every source starts at g0 and
 * is in order[0 .. count) already, closed.  Level k is order[lo .. hi). */
static void run_levels(build *B, double g0, double step) {
  astar_field *f = B->f;
  uint32_t *stamp = f->ctx.stamp, *order = f->order;
  const astar_grid *G = B->G;
  const uint8_t *moves = B->L.moves;
  const int to = B->q->direction == ASTAR_FIELD_TO;
  const unsigned dirs = astar__rule_dirs(G->diagonal);
  const uint32_t done = B->tag | ASTAR__STAMP_CLOSED;
  uint32_t lo = 0, hi = f->count, count = f->count;
  double k = 1.0;
  int32_t offset[8];
  memcpy(offset, G->offset, sizeof offset);
  while (lo < hi) {
    double gk = g0 + k * step;
    float vk = (float)gk;
    if (gk > B->max_cost) break;
    for (; lo < hi; lo++) {
      uint32_t u = order[lo];
      unsigned m = to && !B->symmetric ? dirs : moves[u];
      while (m) {
        unsigned d = astar__lowest_bit(m);
        uint32_t v;
        m &= m - 1;
        if (to && !B->symmetric) {
          v = (uint32_t)((int32_t)u - offset[d]);
          if (!((moves[v] >> d) & 1u) || !astar__bit(B->L.passable, v))
            continue;
        } else {
          v = (uint32_t)((int32_t)u + offset[d]);
        }
        if ((stamp[v] & ~ASTAR__STAMP_DIR) == done) continue;
        stamp[v] = done | (to ? reverse_dir[d] : d);
        f->value[v] = vk;
        order[count++] = v;
      }
    }
    hi = count;
    k += 1.0;
  }
  f->count = count;
}

/* The range of the costs of the tiles the unit may enter. */
static const astar_range *unit_range(const build *B) {
  const astar_unit *u = B->G->units[B->q->unit];
  return (u == NULL || !u->own) ? &B->G->range : &u->range;
}

/* The one step cost when every step costs the same, else 0. */
static double uniform_step(const build *B) {
  const astar_grid *G = B->G;
  const astar_range *r = unit_range(B);
  unsigned dirs = astar__rule_dirs(G->diagonal), d;
  double len = G->cardinal_length;
  if (B->q->tile_fn != NULL || B->L.height != NULL || B->x) return 0.0;
  if (r->dirty || r->min_count == 0 || r->min != r->max) return 0.0;
  for (d = 0; d < 8; d++)
    if ((dirs & (1u << d)) && G->step_length[d] != len) return 0.0;
  return len * (double)r->min;
}

/* Common setup: the layer, a fresh generation, the memo. */
static int field_setup(build *B, astar_field *f, const astar_grid *G,
                       const astar_field_query *q) {
  int st;
  memset(B, 0, sizeof *B);
  B->f = f;
  B->G = G;
  B->q = q;
  f->tag = 0;
  f->count = 0;
  f->expanded = 0;
  if (q->direction != ASTAR_FIELD_TO && q->direction != ASTAR_FIELD_FROM)
    return ASTAR_EINVAL;
  if (f->ntiles != G->ntiles || f->value == NULL) return ASTAR_EINVAL;
  if (f->ctx.busy) return ASTAR_EBUSY;
  if ((st = astar_grid_layer_size(G, q->unit, q->size, &B->L)) != ASTAR_OK)
    return st;
  if (q->tile_fn != NULL && (st = astar__context_memo(&f->ctx)) != ASTAR_OK)
    return st;
  f->ctx.stride = G->stride;
  memcpy(f->ctx.offset, G->offset, sizeof f->ctx.offset);
  f->mtag = 0;
  if ((st = astar__field_overlay(f, G, q)) != ASTAR_OK) return st;
  if (f->mtag != 0) {
    B->mark = f->ctx.overlay->mark;
    B->add = f->ctx.overlay->add;
    B->near = f->ctx.overlay->near;
  }
  f->size = q->size > 1 ? q->size : 1;
  f->links = G->nlinks != 0;
  B->x = f->mtag != 0 || f->links;
  B->tag = astar__next_generation(&f->ctx);
  B->max_cost = q->max_cost == q->max_cost ? q->max_cost : HUGE_VAL;
  B->corners = CORNERS(G->diagonal);
  {
    const astar_unit *u = G->units[q->unit];
    B->symmetric = u == NULL || !u->own || !astar__height_limited(u) ||
                   G->heights == NULL;
  }
  f->heap = q->heap != 0;
  if (!f->heap && (B->Q = astar__fq_get(&f->fq, f->ctx.alloc,
                                         f->ctx.alloc_ud)) == NULL)
    return ASTAR_ENOMEM;
  f->direction = q->direction;
  f->unit = q->unit;
  f->memo = q->tile_fn != NULL;
  f->version = G->version;
  f->sorted = 1;
  return ASTAR_OK;
}

/* Runs the build from the seeds: order[0 .. n) with their start values
 * in value[] (not stamped yet; a tile may be listed twice). */
static int run_seeds(build *B, uint32_t n, int sorted) {
  astar_field *f = B->f;
  const astar_grid *G = B->G;
  astar_search *s = &f->ctx;
  const astar_range *r = unit_range(B);
  double g0 = 0.0, step, hi = -HUGE_VAL;
  uint32_t i;
  size_t heap_n = 0;
  int same = 1, st;
  B->base = HUGE_VAL;
  for (i = 0; i < n; i++) {
    double v = (double)f->value[f->order[i]];
    if (i == 0) g0 = v;
    if (v != g0) same = 0;
    if (v < B->base) B->base = v;
    if (v > hi) hi = v;
  }
  step = same ? uniform_step(B) : 0.0;
  if (B->q->tile_fn == NULL && !B->x && !r->dirty && r->min_count != 0 &&
      r->min == r->max && (double)r->min > 0.0)
    B->flat = (double)r->min; /* every tile costs this: costs not read */
  if (step > 0.0) {
    uint32_t k = 0;
    for (i = 0; i < n; i++) { /* each seed once, closed at g0 */
      uint32_t v = f->order[i];
      if ((s->stamp[v] & ~ASTAR__STAMP_DIR) ==
          (B->tag | ASTAR__STAMP_CLOSED))
        continue;
      s->stamp[v] = B->tag | ASTAR__STAMP_CLOSED;
      f->order[k++] = v;
    }
    f->count = k;
    run_levels(B, g0, step);
    f->expanded = f->count;
    f->tag = B->tag;
    return ASTAR_OK;
  }
  f->count = 0;
  /* the ring: a plain build whose unit's tile costs are known */
  if (B->Q != NULL && B->q->tile_fn == NULL && !B->x &&
      B->L.height == NULL && !r->dirty && r->min_count != 0)
    B->R = astar__ring_choose(B->Q, G, (double)r->min, (double)r->max,
                              sorted || n == 0 ? 0.0 : hi - B->base, B->base,
                              f->ntiles, s->alloc, s->alloc_ud);
  if (sorted) {
    for (i = 0; i < n; i++) { /* seen, waiting for their turn */
      uint32_t v = f->order[i];
      s->stamp[v] = B->tag;
      if (B->Q != NULL)
        astar__set_open_g(f, v, (double)f->value[v]);
      else
        s->heap_pos[v] = NOT_QUEUED;
    }
    st = run_heap(B, 0, 0, n);
  } else {
    if (B->Q == NULL &&
        (st = astar__context_grow(s, (void **)&s->heap, &s->heap_cap, n,
                                  sizeof(astar_heap_entry))) != ASTAR_OK)
      return st;
    for (i = 0; i < n; i++) {
      uint32_t v = f->order[i];
      /* the queues: a tile listed twice has its least value already */
      if (B->Q != NULL && (s->stamp[v] & ASTAR__STAMP_GEN) == B->tag)
        continue;
      if ((st = offer(B, &heap_n, v, (double)f->value[v], 0)) != ASTAR_OK)
        return st;
    }
    st = run_heap(B, heap_n, 0, 0);
  }
  if (st != ASTAR_OK) {
    f->count = 0;
    return st;
  }
  f->expanded = f->count;
  f->tag = B->tag;
  /* the ring closes a bucket's tiles in any order: order[] is by value
   * only to within a bucket (within() must not stop early, flee() must
   * not take its seeds as sorted) */
  if (B->R != NULL) f->sorted = 0;
  return ASTAR_OK;
}

int astar_field_build(astar_field *f, const astar_grid *G,
                      const astar_field_query *q) {
  build B;
  size_t i;
  uint32_t n = 0;
  int st;
  if ((st = field_setup(&B, f, G, q)) != ASTAR_OK) return st;
  if (q->ngoals == 0 || q->ngoals > f->ntiles) return ASTAR_EINVAL;
  for (i = 0; i < q->ngoals; i++) {
    int32_t x = q->goals[2 * i], y = q->goals[2 * i + 1];
    double v = q->values != NULL ? q->values[i] : 0.0;
    uint32_t node;
    if (x < 0 || y < 0 || x >= G->width || y >= G->height || !(v == v) ||
        fabs(v) > (double)FLT_MAX)
      return ASTAR_EINVAL;
    node = astar_index(G, x, y);
    if (!astar__bit(B.L.passable, node)) continue;
    if (v > B.max_cost) continue;
    f->value[node] = (float)v;
    f->order[n++] = node;
  }
  /* duplicates: the least value wins (the heap keeps the least; the
   * level loop needs equal values, where it does not matter) */
  for (i = 0; i < q->ngoals && n > 0; i++) {
    uint32_t node = astar_index(G, q->goals[2 * i], q->goals[2 * i + 1]);
    double v = q->values != NULL ? q->values[i] : 0.0;
    if (astar__bit(B.L.passable, node) && v <= B.max_cost &&
        (float)v < f->value[node])
      f->value[node] = (float)v;
  }
  return run_seeds(&B, n, 0);
}

/* ---- transforms ---- */

int astar_field_flee(astar_field *dst, const astar_field *src,
                     const astar_grid *G, const astar_field_query *q,
                     double k) {
  build B;
  astar_field_query rq = *q;
  uint32_t n = src->count, i;
  int st, sorted;
  if (!(k == k) || fabs(k) > 1e30 || src->tag == 0 ||
      src->ntiles != G->ntiles)
    return ASTAR_EINVAL;
  if (dst != src) {
    if (dst->ntiles != src->ntiles || dst->value == NULL) return ASTAR_EINVAL;
    for (i = 0; i < n; i++) {
      uint32_t v = src->order[i];
      dst->order[i] = v;
      dst->value[v] = src->value[v];
    }
  }
  rq.max_cost = HUGE_VAL;
  rq.heap = q->heap || src->heap;
  sorted = src->sorted;
  if ((st = field_setup(&B, dst, G, &rq)) != ASTAR_OK) return st;
  /* seeds in the order of their new values: reversed when k < 0 */
  for (i = 0; i < n; i++) {
    uint32_t v = dst->order[i];
    dst->value[v] = (float)(k * (double)dst->value[v]);
  }
  if (k < 0.0) {
    uint32_t a = 0, b = n;
    while (a + 1 < b) {
      uint32_t t = dst->order[a];
      dst->order[a++] = dst->order[--b];
      dst->order[b] = t;
    }
  }
  return run_seeds(&B, n, sorted);
}

int astar_field_combine(astar_field *dst, const astar_field *const *src,
                        const double *weight, size_t n, const astar_grid *G,
                        const astar_field_query *q) {
  const astar_field *first;
  uint32_t i, count = 0, tag;
  size_t j;
  if (n == 0) return ASTAR_EINVAL;
  first = src[0];
  for (j = 0; j < n; j++) {
    if (src[j] == dst || src[j]->ntiles != dst->ntiles || src[j]->tag == 0 ||
        !(weight[j] == weight[j]) || fabs(weight[j]) > 1e30)
      return ASTAR_EINVAL;
  }
  if (dst->value == NULL) return ASTAR_EINVAL;
  /* the sum, into dst's order and values */
  dst->tag = 0;
  tag = astar__next_generation(&dst->ctx);
  for (i = 0; i < first->count; i++) {
    uint32_t v = first->order[i];
    double sum = 0.0;
    for (j = 0; j < n; j++) {
      if (!astar_field_has(src[j], v)) break;
      sum += weight[j] * (double)src[j]->value[v];
    }
    if (j < n) continue;
    dst->value[v] = (float)sum;
    dst->order[count++] = v;
  }
  if (G != NULL) {
    build B;
    astar_field_query rq = *q;
    int st;
    rq.max_cost = HUGE_VAL;
    if ((st = field_setup(&B, dst, G, &rq)) != ASTAR_OK) return st;
    return run_seeds(&B, count, 0);
  }
  for (i = 0; i < count; i++)
    dst->ctx.stamp[dst->order[i]] = tag | ASTAR__STAMP_CLOSED;
  dst->count = count;
  dst->expanded = 0;
  dst->tag = tag;
  dst->direction = first->direction;
  dst->unit = first->unit;
  dst->size = first->size;
  dst->links = first->links;
  dst->mtag = 0; /* a plain sum follows the grid's rules, no overlays */
  dst->ov_navoid = dst->ov_nextra = 0;
  dst->memo = 0;
  dst->sorted = 0;
  dst->version = first->version;
  return ASTAR_OK;
}

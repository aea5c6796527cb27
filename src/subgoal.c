/*
 * Simple subgoal graphs (Uras, Koenig and Hernández, ICAPS 2013; the GPPC
 * 2012-2014 entries) for prepared static maps: the map's convex corners
 * ("subgoals") and, for each, the subgoals it reaches directly by a path of
 * octile length (diagonal steps first, then straight ones) with no other
 * subgoal in the way.  A query connects its start and goal to the
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
 * the edge lists (4 bytes per subgoal and per edge).
 */
#include "astar.h"
#include "heap.h"
#include "internal.h"

#include <math.h>
#include <string.h>

#define NONE UINT32_MAX

/* ---- bits ---- */

/* 64 bits from bit pos on; bits before 0 and past the end read as 0. */
static inline uint64_t bits_at(const uint64_t *bm, size_t nwords,
                               int64_t pos) {
  size_t w;
  unsigned s;
  uint64_t lo, hi;
  if (pos < 0) {
    if (pos <= -64) return 0;
    return bm[0] << (unsigned)-pos;
  }
  w = (size_t)pos >> 6;
  if (w >= nwords) return 0;
  s = (unsigned)pos & 63u;
  lo = bm[w];
  if (s == 0) return lo;
  hi = w + 1 < nwords ? bm[w + 1] : 0;
  return (lo >> s) | (hi << (64u - s));
}

/* Distance (>= 1) from p to the first tile after it along the plane's
 * rows (forward: +1, else -1) that is blocked, a subgoal or the extra
 * tile.  The border is blocked, so a run never leaves its row. */
static uint32_t run(const uint64_t *pass, const uint64_t *sub, size_t nwords,
                    uint32_t p, int forward, uint32_t extra) {
  uint32_t d = 1;
  if (forward) {
    for (;;) {
      int64_t at = (int64_t)p + d;
      uint64_t stop = ~bits_at(pass, nwords, at) | bits_at(sub, nwords, at);
      if (stop) {
        d += astar__ctz64(stop);
        break;
      }
      d += 64;
    }
    if (extra != NONE && extra > p && extra - p < d) d = extra - p;
  } else {
    for (;;) {
      int64_t at = (int64_t)p - d - 63; /* bit 63 is tile p - d */
      uint64_t stop = ~bits_at(pass, nwords, at) | bits_at(sub, nwords, at);
      if (stop) {
        d += astar__clz64(stop);
        break;
      }
      d += 64;
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
    k = run(V->pass, V->sub, V->nwords, i, 1, V->extra);
    *stop = i + k;
    return k;
  case ASTAR_W:
    k = run(V->pass, V->sub, V->nwords, i, 0, V->extra);
    *stop = i - k;
    return k;
  case ASTAR_S:
    k = run(V->pass_t, V->sub_t, V->nwords, x * V->tstride + y, 1,
            V->extra_t);
    *stop = i + k * V->stride;
    return k;
  default:
    k = run(V->pass_t, V->sub_t, V->nwords, x * V->tstride + y, 0,
            V->extra_t);
    *stop = i - k * V->stride;
    return k;
  }
}

static inline int is_open(const uint64_t *bm, uint32_t i) {
  return (int)((bm[i >> 6] >> (i & 63u)) & 1u);
}

static inline int stops(const astar__view *V, uint32_t i) {
  return i == V->extra || is_open(V->sub, i);
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
    if (is_open(V->pass, stop) && (st = add(ud, stop)) != ASTAR_OK)
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
      if (!is_open(V->pass, (uint32_t)((int32_t)p + dx)) ||
          !is_open(V->pass, (uint32_t)((int32_t)p + vstep)) ||
          !is_open(V->pass, (uint32_t)((int32_t)p + vstep + dx)))
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
        if (j <= maxh && is_open(V->pass, stop)) {
          if ((st = add(ud, stop)) != ASTAR_OK) return st;
          j--;
        }
        if (j < maxh) maxh = j;
      }
      if (maxv >= 0) {
        int64_t j = (int64_t)run_dir(V, cv, x, y, &stop) - 1;
        if (j <= maxv && is_open(V->pass, stop)) {
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
         (size_t)s->edges_cap * sizeof(uint32_t) *
             (1u + (s->wt != NULL) + (s->via != NULL));
}

static void free_one(astar_grid *g, astar__subgoals *s) {
  astar__free(g, s->bits, s->nwords, sizeof(uint64_t));
  astar__free(g, s->bits_t, s->nwords, sizeof(uint64_t));
  astar__free(g, s->rank, s->nwords, sizeof(uint32_t));
  astar__free(g, s->first, (size_t)s->nsub + 1, sizeof(uint32_t));
  astar__free(g, s->at, (size_t)s->nsub + 1, sizeof(*s->at));
  astar__free(g, s->adj, s->edges_cap, sizeof(uint32_t));
  astar__free(g, s->wt, s->edges_cap, sizeof(uint32_t));
  astar__free(g, s->via, s->edges_cap, sizeof(uint32_t));
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

typedef struct {
  astar_grid *g;
  astar__subgoals *s;
} builder;

int astar_subgoal_pays(const astar_grid *g, int unit) {
  const astar__subgoals *s = find(g, unit);
  uint64_t tiles = (uint64_t)g->width * (uint64_t)g->height;
  if (s == NULL || s->jumps != NULL) return 0;
  return tiles >= 16384u && (uint64_t)s->nglobal * 1000u <= tiles;
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
  V->nwords = s->nwords;
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

int astar__static_keep(astar_grid *g, int unit, uint32_t *jumps) {
  astar__subgoals *s;
  astar_subgoal_drop(g, unit);
  s = astar__alloc(g, 1, sizeof *s);
  if (s == NULL) return ASTAR_ENOMEM;
  memset(s, 0, sizeof *s);
  s->unit = unit;
  s->njt = g->ntiles;
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

/* ---- levels: contracting subgoals ----
 *
 * The subgoals are then contracted one by one, as in a contraction
 * hierarchy (Geisberger et al. 2008; the subgoal-graph hierarchies of
 * Uras and Koenig): a subgoal leaves the graph when every pair of its
 * remaining neighbours is joined, without it, by a path no longer than
 * the one through it (a witness, found by a small bounded Dijkstra), or
 * else by a new edge (a shortcut) of that length.  Each edge records its
 * length as counts of straight and diagonal steps, so a query sums them
 * exactly, and unfolds a shortcut through the contracted subgoal it was
 * added for (found again by those counts).  Contracted subgoals keep
 * their edges, and their contraction order (level) says which way each
 * edge runs: a query climbs from the start through rising levels into
 * the global subgoals (never contracted: too many neighbours, or the
 * work cap reached) and comes down only into what the goal's subgoals
 * climb to, so it expands mostly global subgoals. */

typedef struct {
  uint32_t to, next, w; /* w: the edge's steps, ASTAR__SG_W */
  uint32_t via;         /* the subgoal a shortcut goes through, or NONE */
} cell;

typedef struct {
  double d;
  uint32_t v;
} wentry;

typedef struct {
  astar_grid *g;
  astar__subgoals *s;
  double card, diag;
  cell *cells;
  size_t ncells, cells_cap;
  uint32_t *head, *seen, gen;
  uint32_t *rhead; /* cells to contracted subgoals, moved off head's */
  double *dist;
  wentry *heap;
  size_t nheap, heap_cap;
  uint32_t *nb; /* the current subgoal's neighbours, then pairs to join */
  size_t nb_cap;
  uint64_t work; /* edges the witness searches may still look at */
} contractor;

#ifndef WITNESS_SETTLE
#define WITNESS_SETTLE 32u
#endif

static inline double w_cost(const contractor *C, uint32_t w) {
  return (double)ASTAR__SG_STRAIGHT(w) * C->card +
         (double)ASTAR__SG_DIAGONAL(w) * C->diag;
}

/* a + b, or NONE when a count would pass 16 bits */
static inline uint32_t w_add(uint32_t a, uint32_t b) {
  uint32_t s = ASTAR__SG_STRAIGHT(a) + ASTAR__SG_STRAIGHT(b);
  uint32_t d = ASTAR__SG_DIAGONAL(a) + ASTAR__SG_DIAGONAL(b);
  if (s > 0xffffu || d > 0xfffeu) return NONE;
  return ASTAR__SG_W(s, d);
}

/* The cell at *link, or the first after it, that leads to a subgoal still
 * in the graph (NONE: none); those to contracted ones move to a's retired
 * list on the way. */
static uint32_t live(contractor *C, uint32_t a, uint32_t *link) {
  uint32_t c;
  while ((c = *link) != NONE && C->s->at[C->cells[c].to].level != NONE) {
    *link = C->cells[c].next;
    C->cells[c].next = C->rhead[a];
    C->rhead[a] = c;
  }
  return c;
}

/* a's cell to b among the live ones, or NONE */
static uint32_t cell_to(const contractor *C, uint32_t a, uint32_t b) {
  uint32_t c;
  for (c = C->head[a]; c != NONE; c = C->cells[c].next)
    if (C->cells[c].to == b) return c;
  return NONE;
}

static int add_cell(contractor *C, uint32_t a, uint32_t b, uint32_t w,
                    uint32_t via) {
  if (C->ncells == C->cells_cap) {
    void *p = C->cells;
    int st = astar__grow(C->g->alloc, C->g->alloc_ud, &p, &C->cells_cap,
                         C->ncells + 1, sizeof(cell), 1024);
    if (st != ASTAR_OK) return st;
    C->cells = p;
  }
  if (C->ncells >= NONE) return ASTAR_ENOMEM;
  C->cells[C->ncells].to = b;
  C->cells[C->ncells].w = w;
  C->cells[C->ncells].via = via;
  C->cells[C->ncells].next = C->head[a];
  C->head[a] = (uint32_t)C->ncells++;
  return ASTAR_OK;
}

/* Joins a and b by w (through via) both ways, or lowers their edge to
 * that. */
static int add_edge(contractor *C, uint32_t a, uint32_t b, uint32_t w,
                    uint32_t via) {
  uint32_t ca, cb;
  int st;
  if (a == b) return ASTAR_OK;
  ca = cell_to(C, a, b);
  if (ca != NONE) {
    if (w_cost(C, w) < w_cost(C, C->cells[ca].w)) {
      C->cells[ca].w = w;
      C->cells[ca].via = via;
      if ((cb = cell_to(C, b, a)) != NONE) {
        C->cells[cb].w = w;
        C->cells[cb].via = via;
      }
    }
    return ASTAR_OK;
  }
  if ((st = add_cell(C, a, b, w, via)) != ASTAR_OK) return st;
  return add_cell(C, b, a, w, via);
}

static int wpush(contractor *C, double d, uint32_t v) {
  size_t i;
  if (C->nheap == C->heap_cap) {
    void *p = C->heap;
    int st = astar__grow(C->g->alloc, C->g->alloc_ud, &p, &C->heap_cap,
                         C->nheap + 1, sizeof(wentry), 64);
    if (st != ASTAR_OK) return st;
    C->heap = p;
  }
  i = C->nheap++;
  while (i > 0 && C->heap[(i - 1) / 2].d > d) {
    C->heap[i] = C->heap[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  C->heap[i].d = d;
  C->heap[i].v = v;
  return ASTAR_OK;
}

static wentry wpop(contractor *C) {
  wentry top = C->heap[0], last = C->heap[--C->nheap];
  size_t i = 0, n = C->nheap;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && C->heap[c + 1].d < C->heap[c].d) c++;
    if (C->heap[c].d >= last.d) break;
    C->heap[i] = C->heap[c];
    i = c;
  }
  if (n > 0) C->heap[i] = last;
  return top;
}

/* Bounded Dijkstra from p over the remaining graph without v, until the
 * ntgt subgoals in tgt are settled: afterwards dist[q] (seen[q] == gen)
 * is an upper bound of p's distance to q. */
static int witness(contractor *C, uint32_t p, uint32_t v, double bound,
                   const uint32_t *tgt, uint32_t ntgt) {
  unsigned settled = 0;
  int st;
  if (++C->gen == 0) {
    memset(C->seen, 0, (size_t)C->s->nsub * sizeof(uint32_t));
    C->gen = 1;
  }
  C->nheap = 0;
  C->seen[p] = C->gen;
  C->dist[p] = 0.0;
  if ((st = wpush(C, 0.0, p)) != ASTAR_OK) return st;
  while (C->nheap > 0 && settled < WITNESS_SETTLE) {
    wentry e = wpop(C);
    uint32_t c, *link;
    if (e.d > C->dist[e.v]) continue;
    if (e.d > bound) break;
    settled++;
    {
      uint32_t k;
      for (k = 0; k < ntgt; k++)
        if (tgt[k] == e.v) {
          if (--ntgt == 0) return ASTAR_OK; /* all settled */
          break;
        }
    }
    link = &C->head[e.v];
    for (; (c = live(C, e.v, link)) != NONE; link = &C->cells[c].next) {
      uint32_t t = C->cells[c].to;
      double nd;
      if (C->work > 0) C->work--;
      if (t == v) continue;
      nd = e.d + w_cost(C, C->cells[c].w);
      if (nd > bound) continue;
      if (C->seen[t] != C->gen || nd < C->dist[t]) {
        C->seen[t] = C->gen;
        C->dist[t] = nd;
        if ((st = wpush(C, nd, t)) != ASTAR_OK) return st;
      }
    }
  }
  return ASTAR_OK;
}

/* Contracts subgoal v when it has at most maxdeg remaining neighbours and
 * every pair of them keeps its distance; *done says whether it did. */
static int contract_one(contractor *C, uint32_t v, uint32_t maxdeg,
                        uint32_t order, int *done) {
  uint32_t n = 0, npairs = 0, c, i, j, *link = &C->head[v];
  uint32_t *wv = C->nb + maxdeg; /* the edge v - nb[i] */
  uint32_t *pairs = wv + maxdeg; /* p, q, w per shortcut */
  int st;
  *done = 0;
  for (; (c = live(C, v, link)) != NONE; link = &C->cells[c].next) {
    if (n == maxdeg) return ASTAR_OK; /* maybe in a later pass */
    C->nb[n] = C->cells[c].to;
    wv[n++] = C->cells[c].w;
  }
  C->s->at[v].down = 1; /* tried: not again until a neighbour goes */
  for (i = 0; i + 1 < n; i++) {
    uint32_t p = C->nb[i];
    double bound = 0.0, eps;
    int searched = 0;
    for (j = i + 1; j < n; j++) {
      double via = w_cost(C, wv[i]) + w_cost(C, wv[j]);
      if (via > bound) bound = via;
    }
    eps = bound * 1e-9;
    for (j = i + 1; j < n; j++) {
      uint32_t q = C->nb[j], w = w_add(wv[i], wv[j]), cq;
      double via = w_cost(C, wv[i]) + w_cost(C, wv[j]);
      /* an edge p - q no longer is a witness */
      if ((cq = cell_to(C, p, q)) != NONE &&
          w_cost(C, C->cells[cq].w) <= via + eps)
        continue;
      if (!searched) {
        if ((st = witness(C, p, v, bound + eps, C->nb + i + 1, n - i - 1)) !=
            ASTAR_OK)
          return st;
        searched = 1;
      }
      if (C->seen[q] == C->gen && C->dist[q] <= via + eps) continue;
      if (w == NONE) return ASTAR_OK; /* too long to record: v stays */
      pairs[3 * npairs] = p;
      pairs[3 * npairs + 1] = q;
      pairs[3 * npairs + 2] = w;
      npairs++;
    }
  }
  C->s->at[v].level = order;
  for (i = 0; i < n; i++) C->s->at[C->nb[i]].down = 0; /* try again */
  for (i = 0; i < npairs; i++)
    if ((st = add_edge(C, pairs[3 * i], pairs[3 * i + 1], pairs[3 * i + 2],
                       v)) != ASTAR_OK)
      return st;
  *done = 1;
  return ASTAR_OK;
}

#define CONTRACT_MAXDEG 16u
#ifndef CONTRACT_SKIPDEG
#define CONTRACT_SKIPDEG 11u
#endif
/* witness edges looked at, at most, per tile of the map (the bound on
   preprocessing time where little contracts) */
#ifndef CONTRACT_WORK
#define CONTRACT_WORK 24u
#endif

static void contractor_free(contractor *C) {
  astar_grid *g = C->g;
  size_t n = (size_t)C->s->nsub;
  astar__free(g, C->cells, C->cells_cap, sizeof(cell));
  astar__free(g, C->head, n, sizeof(uint32_t));
  astar__free(g, C->rhead, n, sizeof(uint32_t));
  astar__free(g, C->seen, n, sizeof(uint32_t));
  astar__free(g, C->dist, n, sizeof(double));
  astar__free(g, C->heap, C->heap_cap, sizeof(wentry));
  astar__free(g, C->nb, C->nb_cap, sizeof(uint32_t));
}

/* the steps of a straight-then-diagonal way from subgoal a to b */
static uint32_t octile_w(const astar__subgoals *s, uint32_t a, uint32_t b) {
  int32_t dx = s->at[a].x - s->at[b].x, dy = s->at[a].y - s->at[b].y;
  uint32_t ax = (uint32_t)(dx < 0 ? -dx : dx), ay = (uint32_t)(dy < 0 ? -dy : dy);
  uint32_t d = ax < ay ? ax : ay;
  return ASTAR__SG_W((ax > ay ? ax : ay) - d, d);
}

/* The plain graph, all subgoals global (no contraction): its edges
 * weigh their octile distance (no weights stored). */
static int weigh_plain(astar__subgoals *s) {
  uint32_t k;
  for (k = 0; k < s->nsub; k++) s->at[k].down = s->first[k + 1];
  return ASTAR_OK;
}

/* Contracts what it can and lays the edges out again: each subgoal's
 * edges to levels at or above its own first, then the rest. */
static int contract(astar_grid *g, astar__subgoals *s) {
  contractor C;
  uint32_t k, e, order = 0, n = s->nsub, *adj, *wt, *via, total;
  size_t cap;
  int st = ASTAR_OK;
  static const uint32_t passes[3] = {4u, 8u, CONTRACT_MAXDEG};
  unsigned pass;
  for (k = 0; k < n; k++) {
    s->at[k].level = NONE;
    s->at[k].down = 0;
  }
  s->nglobal = n;
  s->ncore = s->nedges;
  /* where subgoals cover more than a tenth of the map (random maps) or
     have more than 11 edges each (open cities) the graph loses to jumps
     anyway (contracting never brought the edges per global subgoal below
     that) and contracting would only cost time */
  if (n == 0 || (uint64_t)n * 10u > (uint64_t)g->width * (uint64_t)g->height ||
      (uint64_t)s->nedges > CONTRACT_SKIPDEG * (uint64_t)n)
    return weigh_plain(s);
  memset(&C, 0, sizeof C);
  C.work = (uint64_t)CONTRACT_WORK * g->ntiles;
  C.g = g;
  C.s = s;
  C.card = g->cardinal_length;
  C.diag = g->diagonal_length;
  C.nb_cap = 2 * CONTRACT_MAXDEG + 3 * CONTRACT_MAXDEG * CONTRACT_MAXDEG;
  C.head = astar__alloc(g, n, sizeof(uint32_t));
  C.rhead = astar__alloc(g, n, sizeof(uint32_t));
  C.seen = astar__alloc(g, n, sizeof(uint32_t));
  C.dist = astar__alloc(g, n, sizeof(double));
  C.nb = astar__alloc(g, C.nb_cap, sizeof(uint32_t));
  if (C.head == NULL || C.rhead == NULL || C.seen == NULL || C.dist == NULL ||
      C.nb == NULL) {
    contractor_free(&C);
    return ASTAR_ENOMEM;
  }
  memset(C.head, 0xff, (size_t)n * sizeof(uint32_t));
  memset(C.rhead, 0xff, (size_t)n * sizeof(uint32_t));
  memset(C.seen, 0, (size_t)n * sizeof(uint32_t));
  for (k = 0; k < n && st == ASTAR_OK; k++)
    for (e = s->first[k]; e < s->first[k + 1] && st == ASTAR_OK; e++)
      st = add_edge(&C, k, s->adj[e], octile_w(s, k, s->adj[e]), NONE);
  for (pass = 0; pass < 3 && st == ASTAR_OK; pass++)
    for (k = 0; k < n && st == ASTAR_OK; k++) {
      int done;
      if (s->at[k].level != NONE || s->at[k].down) continue;
      if (C.work == 0) break; /* the rest stay global */
      st = contract_one(&C, k, passes[pass], order, &done);
      if (done) order++;
    }
  if (st != ASTAR_OK) {
    contractor_free(&C);
    return st;
  }
  s->nglobal = n - order;
  /* the final layout */
  total = (uint32_t)C.ncells;
  cap = total ? total : 1;
  adj = astar__alloc(g, cap, sizeof(uint32_t));
  wt = astar__alloc(g, cap, sizeof(uint32_t));
  via = astar__alloc(g, cap, sizeof(uint32_t));
  if (adj == NULL || wt == NULL || via == NULL) {
    astar__free(g, adj, cap, sizeof(uint32_t));
    astar__free(g, wt, cap, sizeof(uint32_t));
    astar__free(g, via, cap, sizeof(uint32_t));
    contractor_free(&C);
    return ASTAR_ENOMEM;
  }
  e = 0;
  s->ncore = 0;
  for (k = 0; k < n; k++) {
    uint32_t c, lv = s->at[k].level, list, up;
    s->first[k] = e;
    for (up = 1; up + 1 > 0; up--) { /* up, then down */
      for (list = 0; list < 2; list++)
        for (c = list ? C.rhead[k] : C.head[k]; c != NONE;
             c = C.cells[c].next) {
          uint32_t to = C.cells[c].to;
          if ((s->at[to].level >= lv) != (up == 1)) continue;
          adj[e] = to;
          via[e] = C.cells[c].via == NONE ? NONE : s->at[C.cells[c].via].tile;
          wt[e++] = C.cells[c].w;
        }
      if (up == 1) {
        if (lv == NONE) s->ncore += e - s->first[k];
        s->at[k].down = e;
      } else {
        break;
      }
    }
  }
  s->first[n] = e;
  astar__free(g, s->adj, s->edges_cap, sizeof(uint32_t));
  s->adj = adj;
  s->wt = wt;
  s->via = via;
  s->edges_cap = (uint32_t)cap;
  s->nedges = e;
  contractor_free(&C);
  return ASTAR_OK;
}

int astar_subgoal_build(astar_grid *g, int unit, int *refusal) {
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
        if (!is_open(J.passable, (uint32_t)((int32_t)t + ox + oy)) &&
            is_open(J.passable, (uint32_t)((int32_t)t + ox)) &&
            is_open(J.passable, (uint32_t)((int32_t)t + oy))) {
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
  if ((st = contract(g, s)) != ASTAR_OK) {
    free_one(g, s);
    return st;
  }
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


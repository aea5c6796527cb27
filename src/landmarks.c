/*
 * Landmarks (ALT): k distance fields per unit class, read by the A*
 * loop as a tighter heuristic on weighted maps.
 *
 * Why the heuristic is sound whatever the costs are.  A step u -> v costs
 * c(u, v) = len(d) * cost(v) (+ the climb or descent), which is not
 * symmetric, so |d(L, n) - d(L, goal)| is no lower bound of d(n, goal) on
 * the map itself.  We shift the costs by a potential
 *     phi(i) = kappa * cost(i) + eta * height(i),
 *     kappa = (shortest step length of the rule) / 2,
 *     eta = (climb - descend) / 2,
 * c'(u, v) = c(u, v) - phi(v) + phi(u) >= 0 (the cost part is
 * (len - kappa) cost(v) + kappa cost(u), the height part (climb +
 * descend) / 2 * |dh|), and give each pair of neighbours the undirected
 * weight w(u, v) = the least c' of the legal ones of u -> v and v -> u:
 * an undirected metric d' with d'(x, y) <= d(x, y) - phi(y) + phi(x).
 * Its distances are stored as integers in units of Q (a power of two), the
 * weights rounded down first, so the stored D is an exact shortest-path
 * metric of weights Q * W <= w.  Then for every landmark
 *     h_L(n) = Q |D(L, goal) - D(L, n)| + phi(goal) - phi(n)
 * satisfies h_L(n) <= Q W(n, m) + h_L(m) + phi(m) - phi(n) + ... that is
 * h_L(n) <= c(n, m) + h_L(m) for every step n -> m: consistent, and 0 at
 * the goal, hence admissible.  The loop takes the max of these and the
 * default heuristic (a max of consistent heuristics is consistent), so A*
 * closes every tile at its optimal cost as before.  For cardinal steps and
 * height changes the shift is exact (c' is symmetric); diagonals between
 * tiles of different costs lose (len - 2 kappa) |cost(u) - cost(v)|.
 *
 * Landmarks are chosen farthest first: the first is the tile farthest
 * from the passable tile nearest the map's centre, each next one the tile
 * farthest from those chosen (least distance to them largest; ties to the
 * lower index), all in the centre tile's region: deterministic.
 *
 * Storage: 4 bytes per tile per landmark (uint32, tile-major so a tile's k
 * values share a cache line), UINT32_MAX where the landmark does not
 * reach.  Dijkstra runs on integer keys: a bucket queue (Dial) when the
 * weights are narrow enough, reading each edge's weight from a table
 * made once per unit class (16 bytes per tile), or on a layer of one
 * cost from a byte per tile that says which edges exist; a radix heap
 * otherwise.  The scratch is what the build allocates besides the
 * output: one field's distances (4 bytes per tile) and the table; the
 * least distances that choose the next landmark live in the output.
 */
#include "astar.h"
#include "internal.h"
#include "landmarks.h"

#include <math.h>
#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define ASTAR__PREFETCH(p) __builtin_prefetch(p)
#else
#define ASTAR__PREFETCH(p) ((void)(p))
#endif

#define INF UINT32_MAX
#define MAX_DIST 0xFFFFFFF0u  /* past it: coarser units, and again */

/* ---- a radix heap of (key, node), keys never below the last popped ---- */

typedef struct rheap {
  uint64_t *b[33];
  size_t n[33], cap[33];
  uint32_t last;
  size_t size;
  astar_grid *g;
} rheap;

static unsigned bucket_of(uint32_t key, uint32_t last) {
  uint32_t x = key ^ last;
  unsigned i = 0;
  if (x == 0) return 0;
#if defined(__GNUC__) || defined(__clang__)
  i = 32u - (unsigned)__builtin_clz(x);
#else
  while (x) {
    x >>= 1;
    i++;
  }
#endif
  return i;
}

static int rh_push(rheap *h, uint32_t key, uint32_t node) {
  unsigned i = bucket_of(key, h->last);
  if (h->n[i] == h->cap[i] &&
      astar__grow(h->g->alloc, h->g->alloc_ud, (void **)&h->b[i], &h->cap[i],
                  h->n[i] + 1, sizeof(uint64_t), 256) != ASTAR_OK)
    return ASTAR_ENOMEM;
  h->b[i][h->n[i]++] = (uint64_t)key << 32 | node;
  h->size++;
  return ASTAR_OK;
}

/* Pops an entry of the least key into *out (the heap must not be
 * empty). */
static int rh_pop(rheap *h, uint64_t *out) {
  if (h->n[0] == 0) {
    unsigned i = 1, j;
    size_t k;
    uint32_t least = INF;
    while (h->n[i] == 0) i++;
    for (k = 0; k < h->n[i]; k++) {
      uint32_t key = (uint32_t)(h->b[i][k] >> 32);
      if (key < least) least = key;
    }
    h->last = least;
    for (k = 0; k < h->n[i]; k++) { /* every one goes to a lower bucket */
      uint64_t e = h->b[i][k];
      j = bucket_of((uint32_t)(e >> 32), least);
      if (h->n[j] == h->cap[j] &&
          astar__grow(h->g->alloc, h->g->alloc_ud, (void **)&h->b[j],
                      &h->cap[j], h->n[j] + 1, sizeof(uint64_t),
                      256) != ASTAR_OK)
        return ASTAR_ENOMEM; /* the entries not moved yet are lost: the
                                build fails as a whole */
      h->b[j][h->n[j]++] = e;
    }
    h->n[i] = 0;
  }
  h->size--;
  *out = h->b[0][--h->n[0]];
  return ASTAR_OK;
}

static void rh_release(rheap *h) {
  unsigned i;
  for (i = 0; i < 33; i++)
    astar__free(h->g, h->b[i], h->cap[i], sizeof(uint64_t));
  memset(h->b, 0, sizeof h->b);
}

/* ---- a bucket queue (Dial): weights below its size, keys from cur on ---- */

#define DIAL_MAX 16384u /* buckets at most: wider weights take the radix heap */

typedef struct dial_bucket {
  uint64_t *b;    /* distance << 32 | tile */
  size_t n, cap;
  size_t head;    /* the first: each bucket is a FIFO (the flood keeps to
                     a wavefront, which the cache likes) */
} dial_bucket;

typedef struct dial {
  astar_grid *g;
  uint32_t mask;  /* buckets - 1 (a power of two minus 1) */
  uint32_t slots; /* buckets set up so far: the rest of q[] is never
                     touched (nor its pages faulted in) */
  dial_bucket q[DIAL_MAX];
} dial;

/* Sets the ring to `size` buckets (a power of two, at most DIAL_MAX). */
static void dial_size(dial *q, uint32_t size) {
  for (; q->slots < size; q->slots++) {
    dial_bucket *k = &q->q[q->slots];
    k->b = NULL;
    k->n = k->cap = k->head = 0;
  }
  q->mask = size - 1;
}

/* Pushes tile node at distance dist into bucket `key` (dist >> shift). */
static inline int dial_push(dial *q, uint32_t key, uint32_t dist,
                            uint32_t node) {
  dial_bucket *k = &q->q[key & q->mask];
  if (k->n == k->cap &&
      astar__grow(q->g->alloc, q->g->alloc_ud, (void **)&k->b, &k->cap,
                  k->n + 1, sizeof(uint64_t), 64) != ASTAR_OK)
    return ASTAR_ENOMEM;
  k->b[k->n++] = (uint64_t)dist << 32 | node;
  return ASTAR_OK;
}

static void dial_release(dial *q) {
  uint32_t i;
  for (i = 0; i < q->slots; i++)
    astar__free(q->g, q->q[i].b, q->q[i].cap, sizeof(uint64_t));
  q->slots = 0;
}

/* ---- building ---- */

typedef struct build {
  astar_grid *g;
  astar_layer L;
  double q, kappa, eta;
  uint32_t *tmp;   /* ntiles: one field's distances */
  rheap h;
  dial *dq;        /* when the weights fit its buckets, else NULL */
  uint16_t *wt;    /* with dq: 8 per tile, each edge's units (NO_EDGE) */
  uint8_t *em;     /* or, uniform costs: per tile, its edges (a bit per
                      direction), each direction's units in unit_w[] */
  uint32_t unit_w[8];
  unsigned shift;  /* with wt or em: the Dial's buckets are 2^shift units
                      wide, no wider than the lightest edge */
  uint32_t heaviest; /* with wt or em: the heaviest edge's units */
  int overflow;
} build;

#define NO_EDGE 0xFFFFu

static unsigned opposite(unsigned d) {
  unsigned e;
  for (e = 0; e < 8; e++)
    if (astar_dir_dx[e] == -astar_dir_dx[d] &&
        astar_dir_dy[e] == -astar_dir_dy[d])
      return e;
  return d; /* not reached */
}

/* The constants of one unit's weights. */
typedef struct weights {
  int32_t off[8];
  double fwd[8], back[8], kappa, inv, hk;
  unsigned opp[8], dirs;
} weights;

static void weights_init(const build *B, weights *W) {
  const astar_grid *g = B->g;
  unsigned d;
  W->kappa = B->kappa;
  W->inv = (1.0 - 1.0 / 1099511627776.0) / B->q;
  W->hk = B->L.height != NULL ? (B->L.climb + B->L.descend) / 2.0 : 0.0;
  W->dirs = astar__rule_dirs(g->diagonal);
  for (d = 0; d < 8; d++) {
    W->opp[d] = opposite(d);
    W->off[d] = g->offset[d];
    W->fwd[d] = g->step_length[d] - W->kappa;
    W->back[d] = g->step_length[W->opp[d]] - W->kappa;
  }
}

/* The units of the edge u - (direction d), or 0 when neither way is
 * legal (then *units is left alone). */
static inline int edge_units(const build *B, const weights *W, uint32_t u,
                             unsigned d, uint32_t *units) {
  const uint8_t *moves = B->L.moves;
  const float *cost = B->L.cost, *height = B->L.height;
  uint32_t v = (uint32_t)((int32_t)u + W->off[d]);
  unsigned mu = moves[u], back_ok;
  double cu = (double)cost[u], cv, c = HUGE_VAL, hp = 0.0;
  /* u -> v legal: v is open; v -> u legal: v open and its move */
  back_ok = (moves[v] >> W->opp[d]) & 1u;
  if (!(mu & (1u << d)) && !(back_ok && astar__bit(B->L.passable, v)))
    return 0;
  cv = (double)cost[v];
  if (height != NULL) hp = W->hk * fabs((double)height[v] - (double)height[u]);
  if (mu & (1u << d)) c = W->fwd[d] * cv + W->kappa * cu + hp;
  if (back_ok) {
    double c2 = W->back[d] * cu + W->kappa * cv + hp;
    if (c2 < c) c = c2;
  }
  c *= W->inv;
  *units = c > 0.0 ? (uint32_t)c : 0u; /* < 2^32: see the unit's choice */
  return 1;
}

/* The Dial's bucket width (2^shift units, no wider than the lightest
 * edge; UINT32_MAX: no edge) and the heaviest edge, for the ring. */
static void set_span(build *B, uint32_t lightest, uint32_t heaviest) {
  B->shift = 0;
  while (lightest != UINT32_MAX && ((uint32_t)2 << B->shift) <= lightest)
    B->shift++;
  B->heaviest = heaviest;
}

/* u -> v (direction d, opp its reverse) or v -> u is a legal step: v
 * open and its move back. */
static inline int edge_either_way(const astar_layer *L, uint32_t u,
                                  uint32_t v, unsigned d, unsigned opp) {
  return ((L->moves[u] >> d) & 1u) ||
         (((L->moves[v] >> opp) & 1u) && astar__bit(L->passable, v));
}

/* Each edge's units once for the k fields of a unit (the Dial case: they
 * fit in 16 bits), read by dijkstra() instead of computing them: 0 when
 * one does not fit. */
static int weights_table(build *B) {
  weights W;
  uint32_t i, lightest = UINT32_MAX, heaviest = 0;
  weights_init(B, &W);
  for (i = 0; i < B->g->ntiles; i++) {
    uint16_t *o = B->wt + (size_t)i * 8;
    unsigned d;
    for (d = 0; d < 8; d++) {
      uint32_t units = 0;
      o[d] = NO_EDGE;
      if (!(W.dirs & (1u << d)) || !astar__bit(B->L.passable, i)) continue;
      if (!edge_units(B, &W, i, d, &units)) continue;
      if (units >= NO_EDGE) return 0; /* not for 16 bits: computed */
      o[d] = (uint16_t)units;
      if (units < lightest) lightest = units;
      if (units > heaviest) heaviest = units;
    }
  }
  set_span(B, lightest, heaviest);
  return 1;
}

/* The same for a layer of one cost everywhere and no heights (the maps'
 * own costs): every edge of a direction weighs the same, so a byte per
 * tile (which of its edges exist) replaces the table's 16, and the flood
 * touches a sixteenth of the memory.  Returns 0 when the layer is not
 * such a one. */
static int uniform_table(build *B) {
  const astar_grid *g = B->g;
  weights W;
  uint32_t i, lightest = UINT32_MAX, heaviest = 0;
  double c = 0.0;
  int seen = 0;
  unsigned d;
  if (B->L.height != NULL) return 0;
  for (i = 0; i < g->ntiles; i++)
    if (astar__bit(B->L.passable, i)) {
      if (!seen) c = (double)B->L.cost[i];
      else if ((double)B->L.cost[i] != c) return 0;
      seen = 1;
    }
  weights_init(B, &W);
  for (d = 0; d < 8; d++) { /* edge_units' sums with cost(u) = cost(v) */
    double fwd = W.fwd[d] * c + W.kappa * c, back = W.back[d] * c + W.kappa * c;
    uint32_t units;
    B->unit_w[d] = 0;
    if (!(W.dirs & (1u << d))) continue;
    if (fwd != back) return 0; /* both ways must weigh the same */
    fwd *= W.inv;
    units = fwd > 0.0 ? (uint32_t)fwd : 0u;
    B->unit_w[d] = units;
    if (units < lightest) lightest = units;
    if (units > heaviest) heaviest = units;
  }
  for (i = 0; i < g->ntiles; i++) {
    unsigned m = 0;
    if (astar__bit(B->L.passable, i))
      for (d = 0; d < 8; d++) {
        uint32_t v = (uint32_t)((int32_t)i + W.off[d]);
        if (!(W.dirs & (1u << d))) continue;
        if (edge_either_way(&B->L, i, v, d, W.opp[d])) {
          if ((double)B->L.cost[v] != c) return 0; /* entered, not open */
          m |= 1u << d;
        }
      }
    B->em[i] = (uint8_t)m;
  }
  set_span(B, lightest, heaviest);
  return 1;
}

#define RELAX_OVERFLOW 1 /* relax(): a distance passed MAX_DIST */

/* Lowers v's distance to du + units when that is less, queueing it;
 * ASTAR_OK, ASTAR_ENOMEM, or RELAX_OVERFLOW (B->overflow set). */
static inline int relax(build *B, dial *dq, uint32_t *dist, unsigned shift,
                        uint32_t du, uint32_t v, uint32_t units,
                        size_t *queued) {
  uint32_t nd = du + units;
  if (nd > MAX_DIST || nd < du) {
    B->overflow = 1;
    return RELAX_OVERFLOW;
  }
  if (nd < dist[v]) {
    dist[v] = nd;
    if ((dq != NULL ? dial_push(dq, nd >> shift, nd, v)
                    : rh_push(&B->h, nd, v)) != ASTAR_OK)
      return ASTAR_ENOMEM;
    ++*queued;
  }
  return ASTAR_OK;
}

/* Distances from tile s into B->tmp; sets B->overflow when one passes
 * MAX_DIST.  The weight of the edge u - v (direction d, back e) is the
 * least shifted cost of its legal ways, in units of q rounded down (and
 * a hair more: the last bits of a double sum are not exact):
 *   u -> v: len(d) cost(v) - kappa cost(v) + kappa cost(u) + hk |dh|
 *   v -> u: len(e) cost(u) - kappa cost(u) + kappa cost(v) + hk |dh|
 * (hk = (climb + descend) / 2; see the top of the file).  Computed here
 * rather than stored: the tiles' costs stay in cache, a table of
 * weights would not. */
static int dijkstra(build *B, uint32_t s) {
  astar_grid *g = B->g;
  uint32_t *dist = B->tmp, i;
  const uint16_t *wt = B->wt;
  const uint8_t *em = B->em;
  rheap *h = &B->h;
  weights W;
  unsigned d;
  int r;
  dial *dq = B->dq;
  size_t queued = 1;
  uint32_t cur = 0;
  const unsigned shift = wt != NULL || em != NULL ? B->shift : 0u;
  weights_init(B, &W);
  for (i = 0; i < g->ntiles; i++) dist[i] = INF;
  for (d = 0; d < 33; d++) h->n[d] = 0;
  h->size = 0;
  h->last = 0;
  if (dq != NULL) {
    for (i = 0; i <= dq->mask; i++) dq->q[i].n = dq->q[i].head = 0;
    if (dial_push(dq, 0, 0, s) != ASTAR_OK) return ASTAR_ENOMEM;
  } else if (rh_push(h, 0, s) != ASTAR_OK) {
    return ASTAR_ENOMEM;
  }
  dist[s] = 0;
  while (queued != 0) {
    uint32_t u, du;
    unsigned left;
    if (dq != NULL) {
      /* bucket cur: distances [cur, cur + 1) << shift, shift 0 without
       * the table; an edge is no lighter than a bucket, so the tiles of
       * one bucket cannot lower each other: any order is exact */
      dial_bucket *at;
      uint64_t e;
      while (dq->q[cur & dq->mask].n == 0) cur++;
      at = &dq->q[cur & dq->mask];
      if (at->head + 8 < at->n && (wt != NULL || em != NULL)) {
        /* the tile 8 ahead: its weights and its row of distances, read
         * while this one is expanded (the flood wanders the map) */
        uint32_t a = (uint32_t)at->b[at->head + 8];
        if (wt != NULL) ASTAR__PREFETCH(wt + (size_t)a * 8);
        ASTAR__PREFETCH(dist + a);
        ASTAR__PREFETCH(dist + a - g->stride);
        ASTAR__PREFETCH(dist + a + g->stride);
      }
      e = at->b[at->head++];
      if (at->head == at->n) at->n = at->head = 0;
      u = (uint32_t)e;
      du = (uint32_t)(e >> 32);
    } else {
      uint64_t e;
      if (rh_pop(h, &e) != ASTAR_OK) return ASTAR_ENOMEM;
      u = (uint32_t)e;
      du = (uint32_t)(e >> 32);
    }
    queued--;
    if (du != dist[u]) continue; /* a stale entry */
    if (em != NULL) { /* one weight per direction: the tile's edges */
      unsigned m = em[u];
      while (m) {
        d = astar__lowest_bit(m);
        m &= m - 1;
        r = relax(B, dq, dist, shift, du, (uint32_t)((int32_t)u + W.off[d]),
                  B->unit_w[d], &queued);
        if (r != ASTAR_OK) return r == RELAX_OVERFLOW ? ASTAR_OK : r;
      }
      continue;
    }
    if (wt != NULL) { /* all 8 directions: the table has NO_EDGE for the
                         rule's others, so no loop over the mask's bits */
      const uint16_t *o = wt + (size_t)u * 8;
      for (d = 0; d < 8; d++) {
        if (o[d] == NO_EDGE) continue;
        r = relax(B, dq, dist, shift, du, (uint32_t)((int32_t)u + W.off[d]),
                  o[d], &queued);
        if (r != ASTAR_OK) return r == RELAX_OVERFLOW ? ASTAR_OK : r;
      }
      continue;
    }
    left = W.dirs; /* no table: each edge's units computed */
    while (left) {
      uint32_t units;
      d = astar__lowest_bit(left);
      left &= left - 1;
      if (!edge_units(B, &W, u, d, &units)) continue;
      r = relax(B, dq, dist, shift, du, (uint32_t)((int32_t)u + W.off[d]),
                units, &queued);
      if (r != ASTAR_OK) return r == RELAX_OVERFLOW ? ASTAR_OK : r;
    }
  }
  return ASTAR_OK;
}

/* The tile a breadth-first flood from s (steps legal either way, as the
 * fields' edges) reaches last: far from s in steps, in s's region.
 * Scratch: B->tmp (marks) and queue (room for every tile of the map). */
static uint32_t bfs_last(build *B, uint32_t s, uint32_t *queue) {
  const astar_grid *g = B->g;
  uint32_t *seen = B->tmp, last = s, i;
  size_t head = 0, tail = 0;
  unsigned d, opp[8], dirs = astar__rule_dirs(g->diagonal);
  for (d = 0; d < 8; d++) opp[d] = opposite(d);
  for (i = 0; i < g->ntiles; i++) seen[i] = 0;
  seen[s] = 1;
  queue[tail++] = s;
  while (head < tail) {
    uint32_t u = queue[head++];
    unsigned left = dirs;
    last = u;
    while (left) {
      uint32_t v;
      d = astar__lowest_bit(left);
      left &= left - 1;
      v = (uint32_t)((int32_t)u + g->offset[d]);
      if (seen[v] || !edge_either_way(&B->L, u, v, d, opp[d])) continue;
      seen[v] = 1;
      queue[tail++] = v;
    }
  }
  return last;
}

/* The passable tile nearest the centre (ties: the lower index), or INF. */
static uint32_t centre(const build *B) {
  const astar_grid *g = B->g;
  int64_t best = -1;
  uint32_t at = INF;
  int32_t x, y;
  for (y = 0; y < g->height; y++)
    for (x = 0; x < g->width; x++) {
      uint32_t i = astar_index(g, x, y);
      int64_t dx = 2 * (int64_t)x - (g->width - 1),
              dy = 2 * (int64_t)y - (g->height - 1), r = dx * dx + dy * dy;
      if (astar__bit(B->L.passable, i) && B->L.moves[i] != 0 &&
          (best < 0 || r < best)) {
        best = r;
        at = i;
      }
    }
  return at;
}

/* An upper bound of every shifted weight: the dearest step's cost plus
 * kappa times the dearest tile. */
static double largest_step(const build *B) {
  const astar_grid *g = B->g;
  double cmax = 0.0, hmax = 0.0, lmax = 0.0, hk;
  uint32_t i;
  unsigned d;
  for (i = 0; i < g->ntiles; i++)
    if (astar__bit(B->L.passable, i)) {
      if ((double)B->L.cost[i] > cmax) cmax = (double)B->L.cost[i];
      if (B->L.height != NULL && fabs((double)B->L.height[i]) > hmax)
        hmax = fabs((double)B->L.height[i]);
    }
  for (d = 0; d < 8; d++)
    if (g->step_length[d] > lmax) lmax = g->step_length[d];
  hk = B->L.height != NULL ? (B->L.climb + B->L.descend) / 2.0 : 0.0;
  return (lmax + B->kappa) * cmax + hk * 2.0 * hmax;
}

/* Builds set S (unit, k given) with scratch B; 1 to retry with a coarser
 * unit. */
static int build_set(build *B, astar__landmarks *S) {
  astar_grid *g = B->g;
  uint32_t i, at, far, w = (uint32_t)g->width;
  const size_t k = (size_t)S->k, wh = (size_t)w * (size_t)g->height;
  /* the least distance to the landmarks so far lives in the last
   * landmark's slot of each tile until that landmark's field is written:
   * no array of its own (fewer pages to fault in) */
  uint32_t *least;
  int j, st;
  B->overflow = 0;
  least = S->dist + (k - 1); /* a grid has a tile: dist is never NULL */
  at = centre(B);
  /* the breadth-first queue: the distances' memory, not written yet */
  if (at != INF) at = bfs_last(B, at, S->dist);
  for (i = 0; i < wh; i++) least[i * k] = INF;
  for (j = 0; j < S->k; j++) {
    uint32_t *out = S->dist + j;
    const int last = j == S->k - 1; /* its slot holds the least: no more
                                       landmarks to choose */
    int32_t x, y;
    S->tiles[j] = at;
    if (at == INF) { /* no passable tile with a move: no field */
      for (i = 0; i < wh; i++) out[i * k] = INF;
      continue;
    }
    if ((st = dijkstra(B, at)) != ASTAR_OK) return st;
    if (B->overflow) return 1;
    /* written out, the least distances lowered, and the farthest of them
     * found (as farthest() would: rows in index order, ties to the
     * first) in one pass */
    at = INF;
    far = 0;
    for (y = 0; y < g->height; y++) {
      const uint32_t *row = B->tmp + astar_index(g, 0, y);
      uint32_t *o = out + (size_t)y * w * k;
      uint32_t *m = least + (size_t)y * w * k;
      if (last) {
        for (x = 0; x < g->width; x++) o[(size_t)x * k] = row[x];
        continue;
      }
      for (x = 0; x < g->width; x++) {
        uint32_t lv = m[(size_t)x * k];
        o[(size_t)x * k] = row[x];
        if (row[x] < lv) m[(size_t)x * k] = lv = row[x];
        if (lv != INF && (at == INF || lv > far)) {
          far = lv;
          at = astar_index(g, x, y);
        }
      }
    }
  }
  return ASTAR_OK;
}

static void free_set(astar_grid *g, astar__landmarks *S) {
  size_t n = (size_t)g->width * (size_t)g->height * (size_t)S->k;
  astar__free_whole(g, S->dist, n, sizeof(uint32_t));
  astar__free(g, S, 1, sizeof *S);
}

void astar_landmarks_drop(astar_grid *g) {
  astar__landmarks *S = g->landmarks;
  if (S != NULL) g->landmarks_serial++;
  while (S != NULL) {
    astar__landmarks *next = S->next;
    free_set(g, S);
    S = next;
  }
  g->landmarks = NULL;
}

int astar_landmarks_build(astar_grid *g, const int *units, int nunits,
                          int k) {
  build B;
  dial *dq = NULL;
  uint16_t *wt = NULL; /* the weight table (Dial case), made once */
  uint8_t *em = NULL;  /* or the edges of a uniform layer */
  astar__landmarks *head = NULL, **pp;
  size_t nt = (size_t)g->ntiles;
  int u, st = ASTAR_OK, taken = 0;
  if (k < 1 || k > ASTAR_MAX_LANDMARKS || nunits < 1 ||
      nunits > ASTAR_MAX_UNITS)
    return ASTAR_EINVAL;
  for (u = 0; u < nunits; u++) {
    astar_layer L;
    if (!astar__unit_defined(g, units[u])) return ASTAR_EINVAL;
    if ((st = astar_grid_layer(g, units[u], &L)) != ASTAR_OK) return st;
  }
  memset(&B, 0, sizeof B);
  B.g = g;
  B.h.g = g;
  B.tmp = astar__alloc(g, nt, sizeof(uint32_t));
  if (B.tmp == NULL) st = ASTAR_ENOMEM;
  for (u = 0; u < nunits && st == ASTAR_OK; u++) {
    astar__landmarks *S;
    size_t n = astar__mul_size(astar__mul_size((size_t)g->width,
                                               (size_t)g->height),
                               (size_t)k);
    double least = HUGE_VAL, base, wmax;
    unsigned d, dirs = astar__rule_dirs(g->diagonal);
    int e, v, again;
    for (v = 0; v < u; v++) /* a unit listed twice: built once */
      if (units[v] == units[u]) break;
    if (v < u) continue;
    /* the unit's set of the same k, if any, is rebuilt in its own memory
     * (its pages are in already: a fresh 8 MB costs more than a flood on
     * some machines); taken off the grid's list, so a failure frees it */
    for (pp = &g->landmarks; *pp != NULL; pp = &(*pp)->next)
      if ((*pp)->unit == units[u] && (*pp)->k == k) break;
    if ((S = *pp) != NULL) {
      uint32_t *dist = S->dist;
      *pp = S->next;
      taken = 1;
      memset(S, 0, sizeof *S);
      S->dist = dist;
    } else if ((S = astar__alloc(g, 1, sizeof *S)) != NULL) {
      memset(S, 0, sizeof *S);
      S->dist = n == 0 ? NULL : astar__alloc_whole(g, n, sizeof(uint32_t));
      if (S->dist == NULL) {
        astar__free(g, S, 1, sizeof *S);
        S = NULL;
      }
    }
    if (S == NULL) {
      st = ASTAR_ENOMEM;
      break;
    }
    S->unit = units[u];
    S->k = k;
    S->next = head;
    head = S;
    st = astar_grid_layer(g, units[u], &B.L);
    if (st != ASTAR_OK) break;
    for (d = 0; d < 8; d++)
      if ((dirs & (1u << d)) && g->step_length[d] < least)
        least = g->step_length[d];
    B.kappa = least / 2.0;
    B.eta = B.L.height != NULL ? (B.L.climb - B.L.descend) / 2.0 : 0.0;
    /* the unit: 2^-9 of the cheapest step or finer, coarser while the
     * largest weight does not fit in 2^24 units or a distance in 32 bits */
    base = least * B.L.min_cost;
    if (!(base > 0.0 && base < HUGE_VAL)) base = 1.0;
    (void)frexp(base, &e);
    B.q = ldexp(1.0, e - 10);
    wmax = largest_step(&B);
    while (wmax / B.q >= 16777216.0 && B.q < 1e300) B.q *= 2.0;
    /* a failed allocation is ENOMEM, never a quiet fall back to a
     * slower path: the caller learns the machine is out of memory */
    B.dq = NULL;
    if (wmax / B.q < (double)(DIAL_MAX - 1)) {
      if (dq == NULL) {
        if ((dq = astar__alloc(g, 1, sizeof *dq)) == NULL) {
          st = ASTAR_ENOMEM;
          break;
        }
        dq->g = g; /* the header only: dial_size sets up the buckets */
        dq->mask = 0;
        dq->slots = 0;
      }
      B.dq = dq; /* its ring is sized below */
    }
    for (again = 0; again < 64; again++) {
      B.wt = NULL;
      B.em = NULL;
      if (B.dq != NULL) { /* the weights once for the k fields */
        uint32_t size = 2;
        if (em == NULL && (em = astar__alloc(g, nt, 1)) == NULL) {
          st = ASTAR_ENOMEM;
          break;
        }
        B.em = em;
        if (!uniform_table(&B)) B.em = NULL;
        if (B.em == NULL && wt == NULL &&
            (wt = astar__alloc_whole(g, nt, 8 * sizeof(uint16_t))) == NULL) {
          st = ASTAR_ENOMEM;
          break;
        }
        if (B.em == NULL) {
          B.wt = wt;
          if (!weights_table(&B)) B.wt = NULL;
        }
        /* the ring: a push lands at most (heaviest >> shift) + 1 buckets
         * past the one being emptied, so that many plus one slots never
         * alias it; without the table, one slot per unit (shift 0) */
        if (B.wt != NULL || B.em != NULL)
          while (size <= (B.heaviest >> B.shift) + 1u) size *= 2;
        else
          while ((double)size <= wmax / B.q + 1.0) size *= 2;
        dial_size(dq, size);
      }
      st = build_set(&B, S);
      if (st != 1) break;
      B.q *= 16.0;
    }
    if (st != ASTAR_OK) {
      if (st == 1) st = ASTAR_ETOOBIG;
      break;
    }
    S->q = B.q;
    S->kappa = B.kappa;
    S->eta = B.eta;
    S->version = g->version;
  }
  rh_release(&B.h);
  astar__free_whole(g, wt, nt, 8 * sizeof(uint16_t));
  astar__free(g, em, nt, 1);
  if (dq != NULL) {
    dial_release(dq);
    astar__free(g, dq, 1, sizeof *dq);
  }
  astar__free(g, B.tmp, nt, sizeof(uint32_t));
  if (st != ASTAR_OK) {
    while (head != NULL) {
      astar__landmarks *next = head->next;
      free_set(g, head);
      head = next;
    }
    if (taken) g->landmarks_serial++; /* a set the grid had is gone */
    return st;
  }
  astar_landmarks_drop(g);
  g->landmarks = head;
  g->landmarks_serial++;
  return ASTAR_OK;
}

/*
 * The A* engine.  One loop serves A*, weighted A* and Dijkstra (zero
 * heuristic); the knobs are the heuristic and its weight.
 *
 * Speed rules it follows (see DESIGN.md):
 *  - scratch (stamp, heap position, heap) lives in the grid and is reused:
 *    a generation counter in each stamp makes "reset" O(1), so a query
 *    costs what it touches;
 *  - a tile's legal moves are one byte (grid.c keeps them in step);
 *  - the open list is a binary heap with decrease-key: each open node knows
 *    its position, so the heap holds no stale duplicates; entries carry
 *    key (compared as an integer), g and node, so comparisons never chase
 *    pointers, and an open node's g lives in its entry (a closed node's g
 *    is never read again: the goal's comes off the heap);
 *  - keys are f quantised to a fixed grid (2^-24 of the cheapest step), so
 *    paths of equal cost give equal keys and ties really go to larger g.
 */
#include "astar.h"
#include "internal.h"

#include <math.h>
#include <string.h>

/* stamp = generation << 4 | closed << 3 | parent direction */
#define STAMP_CLOSED 8u
#define STAMP_DIR 7u
#define STAMP_GEN_MASK (~(uint32_t)15u)
#define MAX_GENERATION 0x0FFFFFFFu
#define HEAP_INITIAL 256u

#if defined(__GNUC__) || defined(__clang__)
#define lowest_bit(m) ((unsigned)__builtin_ctz(m))
#else
static unsigned lowest_bit(unsigned m) {
  unsigned d = 0;
  while (!(m & 1u)) {
    m >>= 1;
    d++;
  }
  return d;
}
#endif

void astar_query_defaults(astar_query *q) {
  memset(q, 0, sizeof *q);
  q->heuristic = ASTAR_H_DEFAULT;
  q->weight = 1.0;
}

static int ensure_scratch(astar_grid *G) {
  uint32_t n = G->ntiles;
  if (G->heap_pos == NULL) {
    size_t bytes = astar__mul_size(n, sizeof(uint32_t));
    if (bytes == 0 ||
        (G->heap_pos = G->alloc(G->alloc_ud, NULL, 0, bytes)) == NULL)
      return ASTAR_ENOMEM;
  }
  if (G->stamp == NULL) {
    size_t bytes = astar__mul_size(n, sizeof(uint32_t));
    if (bytes == 0 ||
        (G->stamp = G->alloc(G->alloc_ud, NULL, 0, bytes)) == NULL)
      return ASTAR_ENOMEM;
    memset(G->stamp, 0, bytes);
    G->generation = 0;
  }
  if (G->heap == NULL) {
    G->heap = G->alloc(G->alloc_ud, NULL, 0,
                       HEAP_INITIAL * sizeof(astar_heap_entry));
    if (G->heap == NULL) return ASTAR_ENOMEM;
    G->heap_cap = HEAP_INITIAL;
  }
  return ASTAR_OK;
}

static int grow_heap(astar_grid *G) {
  size_t cap = G->heap_cap * 2, bytes;
  void *p;
  if (cap < G->heap_cap) return ASTAR_ENOMEM;
  bytes = astar__mul_size(cap, sizeof(astar_heap_entry));
  if (bytes == 0) return ASTAR_ENOMEM;
  p = G->alloc(G->alloc_ud, G->heap, G->heap_cap * sizeof(astar_heap_entry),
               bytes);
  if (p == NULL) return ASTAR_ENOMEM;
  G->heap = p;
  G->heap_cap = cap;
  return ASTAR_OK;
}

/* Next generation; on wrap-around clear the stamps once. */
static uint32_t next_generation(astar_grid *G) {
  if (++G->generation > MAX_GENERATION) {
    memset(G->stamp, 0, (size_t)G->ntiles * sizeof(uint32_t));
    G->generation = 1;
  }
  return G->generation << 4;
}

/* ---- heuristic ---- */

/* Every heuristic is h = A * max(dx, dy) + B * min(dx, dy), or
 * A * sqrt(dx^2 + dy^2) for euclidean, with A and B already multiplied by
 * the cheapest tile cost and the weight. */
typedef struct {
  int euclidean;
  double A, B;
  int32_t gx, gy;
} heuristic;

static void heuristic_init(heuristic *h, astar_grid *G, const astar_query *q,
                           double min_cost) {
  double c = G->cardinal_length, d = G->diagonal_length;
  double scale = min_cost * q->weight;
  int kind = q->heuristic;
  h->euclidean = 0;
  h->gx = q->gx;
  h->gy = q->gy;
  h->A = h->B = 0.0;
  if (kind == ASTAR_H_DEFAULT) {
    if (G->diagonal == ASTAR_DIAG_NEVER || d >= 2.0 * c) {
      kind = ASTAR_H_MANHATTAN;
    } else if (d < c) { /* diagonals are the cheaper step */
      h->A = d * scale;
      return;
    } else {
      kind = ASTAR_H_OCTILE;
    }
  }
  switch (kind) {
  case ASTAR_H_MANHATTAN: h->A = c; h->B = c; break;
  case ASTAR_H_CHEBYSHEV: h->A = c; break;
  case ASTAR_H_OCTILE: h->A = c; h->B = d - c; break;
  case ASTAR_H_EUCLIDEAN: h->A = c; h->euclidean = 1; break;
  default: break; /* ASTAR_H_ZERO */
  }
  h->A *= scale;
  h->B *= scale;
}

static inline double heuristic_at(const heuristic *h, int32_t x, int32_t y) {
  int32_t dx = x - h->gx, dy = y - h->gy;
  if (dx < 0) dx = -dx;
  if (dy < 0) dy = -dy;
  if (h->euclidean) {
    double fx = (double)dx, fy = (double)dy;
    return h->A * sqrt(fx * fx + fy * fy);
  }
  return dx > dy ? h->A * dx + h->B * dy : h->A * dy + h->B * dx;
}

/* Quantise f onto multiples of q (inv_q = 1/q) so that mathematically equal
 * f values, which differ in their last bits, compare equal, and return the
 * bits of the result.  Truncation is floor for f >= 0; past 2^62 doubles
 * are integers already. */
static inline uint64_t quantise(double f, double inv_q) {
  double k = f * inv_q;
  uint64_t bits;
  if (k < 4611686018427387904.0) k = (double)(int64_t)k;
  memcpy(&bits, &k, sizeof bits);
  return bits;
}

/* ---- open list: binary heap, smallest key first, then largest g ----
 * Every move of an entry records its new index in pos[node]. */

static inline int entry_less(const astar_heap_entry *a,
                             const astar_heap_entry *b) {
  return a->key < b->key || (a->key == b->key && a->g > b->g);
}

/* Moves e up from index i to its place. */
static inline void heap_up(astar_heap_entry *heap, uint32_t *pos, size_t i,
                           astar_heap_entry e) {
  while (i > 0) {
    size_t p = (i - 1) / 2;
    if (!entry_less(&e, &heap[p])) break;
    heap[i] = heap[p];
    pos[heap[i].node] = (uint32_t)i;
    i = p;
  }
  heap[i] = e;
  pos[e.node] = (uint32_t)i;
}

/* Remove heap[0]; n is the size before removal. */
static inline void heap_pop(astar_heap_entry *heap, uint32_t *pos, size_t n) {
  astar_heap_entry e = heap[--n];
  size_t i = 0;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && entry_less(&heap[c + 1], &heap[c])) c++;
    if (!entry_less(&heap[c], &e)) break;
    heap[i] = heap[c];
    pos[heap[i].node] = (uint32_t)i;
    i = c;
  }
  heap[i] = e;
  pos[e.node] = (uint32_t)i;
}

/* ---- the search ---- */

static int query_ok(const astar_grid *G, const astar_query *q) {
  if (G->cost == NULL) return 0;
  if (q->sx < 0 || q->sx >= G->width || q->gx < 0 || q->gx >= G->width)
    return 0;
  if (q->sy < 0 || q->sy >= G->height || q->gy < 0 || q->gy >= G->height)
    return 0;
  if (q->heuristic < ASTAR_H_DEFAULT || q->heuristic > ASTAR_H_ZERO) return 0;
  if (q->algorithm < ASTAR_ALGO_AUTO || q->algorithm > ASTAR_ALGO_JPS)
    return 0;
  return q->weight >= 1.0 && q->weight <= 1e9;
}

static inline int tile_open(const astar_grid *G, uint32_t i) {
  return (int)((G->passable[i >> 6] >> (i & 63)) & 1u);
}

int astar_find_path(astar_grid *G, const astar_query *q, astar_result *r) {
  uint32_t start, goal, open_tag, gen;
  double min_cost, min_step, inv_q;
  heuristic h;
  astar_heap_entry *heap;
  size_t n = 0;
  const uint8_t *moves;
  const float *cost;
  uint32_t *pos;
  uint32_t *stamp;
  uint32_t expanded = 0;
  int32_t offset[8];
  double length[8];
  int st;

  memset(r, 0, sizeof *r);
  r->outcome = ASTAR_NO_PATH;
  if (!query_ok(G, q)) return ASTAR_EINVAL;
  if (G->busy) return ASTAR_EBUSY;
  if (q->algorithm != ASTAR_ALGO_ASTAR) { /* JPS where it applies */
    if (astar_jps_unsupported(G, q) == NULL)
      return astar__jps(G, G->passable, q, r);
    if (q->algorithm == ASTAR_ALGO_JPS) return ASTAR_EINVAL;
  }
  r->algorithm = ASTAR_ALGO_ASTAR;
  start = astar_index(G, q->sx, q->sy);
  goal = astar_index(G, q->gx, q->gy);
  G->last_start = start;
  G->last_goal = goal;
  G->last_outcome = ASTAR_NO_PATH;
  if (!tile_open(G, start)) {
    r->outcome = G->last_outcome = ASTAR_START_BLOCKED;
    return ASTAR_OK;
  }
  if (!tile_open(G, goal)) {
    r->outcome = G->last_outcome = ASTAR_GOAL_BLOCKED;
    return ASTAR_OK;
  }
  if ((st = ensure_scratch(G)) != ASTAR_OK) return st;

  min_cost = (double)astar_grid_min_cost(G);
  heuristic_init(&h, G, q, min_cost);
  min_step = G->cardinal_length;
  if (G->diagonal != ASTAR_DIAG_NEVER && G->diagonal_length < min_step)
    min_step = G->diagonal_length;
  inv_q = 16777216.0 / (min_cost * min_step);

  gen = next_generation(G);
  open_tag = gen;
  moves = G->moves;
  cost = G->cost;
  pos = G->heap_pos;
  stamp = G->stamp;
  heap = G->heap;
  memcpy(offset, G->offset, sizeof offset);
  memcpy(length, G->step_length, sizeof length);
  G->busy = 1;

  stamp[start] = open_tag;
  {
    astar_heap_entry e;
    e.key = quantise(heuristic_at(&h, q->sx, q->sy), inv_q);
    e.g = 0.0;
    e.node = start;
    e.parent = start;
    heap_up(heap, pos, n++, e);
  }

  while (n > 0) {
    uint32_t u = heap[0].node;
    double gu = heap[0].g;
    unsigned m;
    int32_t ux, uy;
    if (n > 1) heap_pop(heap, pos, n);
    n--;
    stamp[u] |= STAMP_CLOSED;
    expanded++;
    if (u == goal) {
      G->last_outcome = ASTAR_FOUND;
      r->cost = gu;
      break;
    }
    astar_xy(G, u, &ux, &uy);
    m = moves[u];
    while (m) {
      unsigned d = lowest_bit(m);
      uint32_t v = (uint32_t)((int32_t)u + offset[d]);
      double ng = gu + length[d] * (double)cost[v];
      uint32_t sv = stamp[v];
      astar_heap_entry e;
      size_t at;
      m &= m - 1;
      if ((sv & STAMP_GEN_MASK) == open_tag) { /* seen in this search */
        if (sv & STAMP_CLOSED) continue;
        at = pos[v];
        if (ng >= heap[at].g) continue;
      } else {
        if (n == G->heap_cap) {
          if (grow_heap(G) != ASTAR_OK) {
            G->busy = 0;
            G->last_outcome = ASTAR_NO_PATH;
            return ASTAR_ENOMEM;
          }
          heap = G->heap;
        }
        at = n++;
      }
      stamp[v] = open_tag | d;
      e.key = quantise(
          ng + heuristic_at(&h, ux + astar_dir_dx[d], uy + astar_dir_dy[d]),
          inv_q);
      e.g = ng;
      e.node = v;
      e.parent = u;
      heap_up(heap, pos, at, e);
    }
  }
  G->busy = 0;
  r->expanded = expanded;
  r->outcome = G->last_outcome;
  if (r->outcome == ASTAR_FOUND) {
    uint32_t node = goal, len = 1;
    while (astar_path_prev(G, &node)) len++;
    r->length = len;
  }
  return ASTAR_OK;
}

uint32_t astar_path_last(const astar_grid *G) { return G->last_goal; }

int astar_path_prev(const astar_grid *G, uint32_t *node) {
  if (G->last_outcome != ASTAR_FOUND || *node == G->last_start) return 0;
  *node = (uint32_t)((int32_t)*node - G->offset[G->stamp[*node] & STAMP_DIR]);
  return 1;
}

/* The scratch helpers, for the other engines (jps.c). */
int astar__ensure_scratch(astar_grid *G) { return ensure_scratch(G); }
uint32_t astar__next_generation(astar_grid *G) { return next_generation(G); }
int astar__grow_heap(astar_grid *G) { return grow_heap(G); }

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

int astar__ensure_scratch(astar_grid *G) {
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

/* A fresh generation for zones.c, which marks tiles with it between
 * searches; the last path's parent links are gone after that. */
uint32_t astar__next_tag(astar_grid *G) {
  G->last_outcome = ASTAR_NO_PATH;
  return next_generation(G);
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
  if (!(q->min_cost >= 0.0 && q->min_cost <= 3.5e38)) return 0;
  return q->weight >= 1.0 && q->weight <= 1e9;
}

/* What one search needs besides the grid.  mode says which of the costly
 * extras are on, so the plain loop is compiled without them. */
enum { MODE_HEIGHT = 1, MODE_TILE_FN = 2, MODE_MOVE_FN = 4 };

typedef struct search {
  astar_grid *G;
  const astar_query *q;
  astar_result *r;
  astar_layer L;
  heuristic h;
  double inv_q, bound;
  uint32_t start, goal, tag;
} search;

static int bound_broken(search *S, uint32_t from, uint32_t to, double cost,
                        double bound) {
  astar_result *r = S->r;
  astar_xy(S->G, from, &r->bad_x1, &r->bad_y1);
  astar_xy(S->G, to, &r->bad_x2, &r->bad_y2);
  r->bad_cost = cost;
  r->bad_bound = bound;
  return ASTAR_EBOUND;
}

/* The tile callback's cost for tile v (0: impassable), memoized. */
static int tile_value(search *S, uint32_t v, double *out) {
  astar__memo *memo = S->G->memo + v;
  int32_t x, y;
  double c = 0.0;
  if (memo->gen == S->tag) {
    *out = memo->cost;
    return ASTAR_OK;
  }
  astar_xy(S->G, v, &x, &y);
  if (S->q->tile_fn(S->q->fn_ud, x, y, (double)S->L.cost[v], &c) != ASTAR_OK)
    return ASTAR_ECALLBACK;
  if (c > 0.0 && c < S->bound) return bound_broken(S, v, v, c, S->bound);
  memo->cost = c > 0.0 ? c : 0.0;
  memo->gen = S->tag;
  *out = memo->cost;
  return ASTAR_OK;
}

/* The legal moves out of u once the tile callback has had its say: a tile
 * it closes is impassable, for the corner rule too.  The corner rule looks
 * at the tiles beside a diagonal (passable and not closed by the
 * callback), not at whether the cardinal steps are allowed: a cardinal
 * step banned by a height limit does not close its tile. */
static int callback_moves(search *S, uint32_t u, unsigned *moves) {
  static const unsigned corner[4][2] = {{ASTAR_N, ASTAR_E},
                                        {ASTAR_S, ASTAR_E},
                                        {ASTAR_S, ASTAR_W},
                                        {ASTAR_N, ASTAR_W}};
  /* the diagonals beside each cardinal direction N E S W */
  static const unsigned beside[4] = {
      1u << ASTAR_NE | 1u << ASTAR_NW, 1u << ASTAR_NE | 1u << ASTAR_SE,
      1u << ASTAR_SE | 1u << ASTAR_SW, 1u << ASTAR_SW | 1u << ASTAR_NW};
  const astar_grid *G = S->G;
  int rule = G->diagonal;
  unsigned m = *moves, keep = 0, open = 0, d;
  int corners = rule == ASTAR_DIAG_BOTH_FREE || rule == ASTAR_DIAG_ONE_FREE;
  double c;
  int st;
  for (d = 0; d < 4; d++) {
    uint32_t v = (uint32_t)((int32_t)u + G->offset[d]);
    if (!(m & (1u << d)) && !(corners && (m & beside[d]))) continue;
    if (!astar__bit(S->L.passable, v)) continue;
    if ((st = tile_value(S, v, &c)) != ASTAR_OK) return st;
    if (c > 0.0) open |= 1u << d;
  }
  keep = m & open & 15u;
  for (d = 4; d < 8; d++) {
    uint32_t v;
    if (!(m & (1u << d))) continue;
    if (corners) {
      unsigned a = (open >> corner[d - 4][0]) & 1u;
      unsigned b = (open >> corner[d - 4][1]) & 1u;
      if (rule == ASTAR_DIAG_BOTH_FREE ? !(a & b) : !(a | b)) continue;
    }
    v = (uint32_t)((int32_t)u + G->offset[d]);
    if ((st = tile_value(S, v, &c)) != ASTAR_OK) return st;
    if (c > 0.0) keep |= 1u << d;
  }
  *moves = keep;
  return ASTAR_OK;
}

static int ensure_memo(astar_grid *G) {
  if (G->memo == NULL) {
    uint32_t i;
    G->memo = astar__alloc(G, G->ntiles, sizeof(astar__memo));
    if (G->memo == NULL) return ASTAR_ENOMEM;
    for (i = 0; i < G->ntiles; i++) G->memo[i].gen = 0;
  }
  return ASTAR_OK;
}

/* The loop.  Inlined with a constant mode for the plain search, so the
 * extras cost nothing there. */
static inline int run(search *S, const int mode) {
  astar_grid *G = S->G;
  const uint8_t *moves = S->L.moves;
  const float *cost = S->L.cost;
  const float *height = S->L.height;
  uint32_t *pos = G->heap_pos;
  uint32_t *stamp = G->stamp;
  astar_heap_entry *heap = G->heap;
  const uint32_t open_tag = S->tag, goal = S->goal;
  const double inv_q = S->inv_q;
  uint32_t expanded = 0;
  size_t n = 0;
  int32_t offset[8];
  double length[8];
  int st = ASTAR_OK;

  memcpy(offset, G->offset, sizeof offset);
  memcpy(length, G->step_length, sizeof length);
  stamp[S->start] = open_tag;
  {
    astar_heap_entry e;
    e.key = quantise(heuristic_at(&S->h, S->q->sx, S->q->sy), inv_q);
    e.g = 0.0;
    e.node = S->start;
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
      S->r->cost = gu;
      break;
    }
    astar_xy(G, u, &ux, &uy);
    m = moves[u];
    if ((mode & MODE_TILE_FN) && (st = callback_moves(S, u, &m)) != ASTAR_OK)
      break;
    while (m) {
      unsigned d = lowest_bit(m);
      uint32_t v = (uint32_t)((int32_t)u + offset[d]);
      double step, ng;
      uint32_t sv = stamp[v];
      astar_heap_entry e;
      size_t at;
      m &= m - 1;
      if ((sv & STAMP_GEN_MASK) == open_tag && (sv & STAMP_CLOSED)) continue;
      if (mode & MODE_TILE_FN)
        step = length[d] * G->memo[v].cost;
      else
        step = length[d] * (double)cost[v];
      if (mode & MODE_HEIGHT) {
        double dh = (double)height[v] - (double)height[u];
        step += dh > 0.0 ? S->L.climb * dh : -S->L.descend * dh;
      }
      if (mode & MODE_MOVE_FN) {
        double c = 0.0;
        int32_t vx = ux + astar_dir_dx[d], vy = uy + astar_dir_dy[d];
        if (S->q->move_fn(S->q->fn_ud, ux, uy, vx, vy, step, &c) !=
            ASTAR_OK) {
          st = ASTAR_ECALLBACK;
          break;
        }
        if (!(c > 0.0)) continue;
        if (c < S->bound * length[d]) {
          st = bound_broken(S, u, v, c, S->bound * length[d]);
          break;
        }
        step = c;
      }
      ng = gu + step;
      if ((sv & STAMP_GEN_MASK) == open_tag) { /* open in this search */
        at = pos[v];
        if (ng >= heap[at].g) continue;
      } else {
        if (n == G->heap_cap) {
          if (grow_heap(G) != ASTAR_OK) {
            st = ASTAR_ENOMEM;
            break;
          }
          heap = G->heap;
        }
        at = n++;
      }
      stamp[v] = open_tag | d;
      e.key = quantise(
          ng + heuristic_at(&S->h, ux + astar_dir_dx[d], uy + astar_dir_dy[d]),
          inv_q);
      e.g = ng;
      e.node = v;
      heap_up(heap, pos, at, e);
    }
    if (st != ASTAR_OK) break;
  }
  S->r->expanded = expanded;
  return st;
}

static int run_plain(search *S) { return run(S, 0); }
static int run_height(search *S) { return run(S, MODE_HEIGHT); }
static int run_any(search *S, int mode) { return run(S, mode); }

int astar_find_path(astar_grid *G, const astar_query *q, astar_result *r) {
  search S;
  double min_step, quantum;
  int st, mode = 0, apart = 0;

  memset(r, 0, sizeof *r);
  r->outcome = ASTAR_NO_PATH;
  if (!query_ok(G, q)) return ASTAR_EINVAL;
  if (G->busy) return ASTAR_EBUSY;
  if ((st = astar_grid_layer(G, q->unit, &S.L)) != ASTAR_OK) return st;
  S.G = G;
  S.q = q;
  S.r = r;
  S.start = astar_index(G, q->sx, q->sy);
  S.goal = astar_index(G, q->gx, q->gy);
  G->last_start = S.start;
  G->last_goal = S.goal;
  G->last_outcome = ASTAR_NO_PATH;
  if (!astar__bit(S.L.passable, S.start)) {
    r->outcome = G->last_outcome = ASTAR_START_BLOCKED;
    return ASTAR_OK;
  }
  if (!astar__bit(S.L.passable, S.goal)) {
    r->outcome = G->last_outcome = ASTAR_GOAL_BLOCKED;
    return ASTAR_OK;
  }
  if ((st = astar__ensure_scratch(G)) != ASTAR_OK) return st;
  if (q->tile_fn != NULL && (st = ensure_memo(G)) != ASTAR_OK) return st;
  /* different zones: no chain of moves joins them, whatever callbacks say
   * (they only close tiles and refuse steps) */
  if (!q->no_zones && S.start != S.goal &&
      (st = astar__zones_apart(G, q->unit, S.start, S.goal, &apart)) !=
          ASTAR_OK)
    return st;
  if (S.L.height != NULL) mode |= MODE_HEIGHT;
  if (q->tile_fn != NULL) mode |= MODE_TILE_FN;
  if (q->move_fn != NULL) mode |= MODE_MOVE_FN;

  /* the heuristic's scale: a lower bound of every tile cost.  A stated
   * bound is checked against what the callbacks return; without them it
   * may only lower the unit's own bound. */
  S.bound = S.L.min_cost;
  if (q->min_cost > 0.0 &&
      (q->min_cost < S.bound || (mode & (MODE_TILE_FN | MODE_MOVE_FN))))
    S.bound = q->min_cost;
  heuristic_init(&S.h, G, q, S.bound);
  min_step = G->cardinal_length;
  if (G->diagonal != ASTAR_DIAG_NEVER && G->diagonal_length < min_step)
    min_step = G->diagonal_length;
  /* keys stay finite: f is below 1e78 (costs < 2^128, lengths <= 1e9, at
   * most 2^30 steps), so a quantum of at least 2^-24 * 1e-200 is enough;
   * a stated bound can be far smaller (even subnormal) */
  quantum = S.bound * min_step;
  if (!(quantum >= 1e-200)) quantum = 1e-200;
  S.inv_q = 16777216.0 / quantum;
  S.tag = next_generation(G);

  G->busy = 1;
  if (mode & MODE_TILE_FN) { /* a goal the callback closes */
    double c = 1.0;
    if (S.goal != S.start && (st = tile_value(&S, S.goal, &c)) != ASTAR_OK) {
      G->busy = 0;
      return st;
    }
    if (!(c > 0.0)) {
      G->busy = 0;
      r->outcome = G->last_outcome = ASTAR_GOAL_BLOCKED;
      return ASTAR_OK;
    }
  }
  if (apart) { /* checked after the goal callback: goal_blocked first */
    G->busy = 0;
    r->outcome = G->last_outcome = ASTAR_NO_PATH;
    return ASTAR_OK;
  }
  if (mode == 0)
    st = run_plain(&S);
  else if (mode == MODE_HEIGHT)
    st = run_height(&S);
  else
    st = run_any(&S, mode);
  G->busy = 0;
  if (st != ASTAR_OK) {
    G->last_outcome = ASTAR_NO_PATH;
    r->cost = 0.0;
    return st;
  }
  r->outcome = G->last_outcome;
  if (r->outcome == ASTAR_FOUND) {
    uint32_t node = S.goal, len = 1;
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

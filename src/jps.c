/*
 * Jump point search (Harabor and Grastien, AAAI 2011; the no-corner-cutting
 * rules of their 2014 paper) over a passability bitmap, for grids where
 * every passable tile costs the same, movement is 8-way with no corner
 * cutting, and cardinal <= diagonal <= 2 * cardinal.  It returns paths of
 * the same cost as A* while putting only "jump points" on the open list.
 *
 * Scanning (the block-based idea): a horizontal jump reads 63 tiles of its
 * row and of the rows above and below at once from the bitmap, and finds
 * the first blocked tile, forced neighbour or goal with one count of
 * trailing (east) or leading (west) zeros.  A vertical jump reads the three
 * bits around each tile of its column.
 *
 * Scratch is the grid's own (stamp, heap position, heap): no allocation per
 * query beyond the heap growing.  A jump point's parent travels in its heap
 * entry and lands in its heap_pos slot when it is closed (an open node's
 * heap position is not needed once it is closed).  When the goal is found,
 * the parent chain is reversed in place and walked from the start, writing
 * each tile's step direction into its stamp: astar_path_last/prev then walk
 * every tile of the path, exactly as after A*, and the cost is summed step
 * by step from the start in the order A* sums it.
 */
#include "astar.h"
#include "internal.h"

#include <math.h>
#include <string.h>

#define NONE UINT32_MAX
#define LOW63 (~(uint64_t)0 >> 1)

#if defined(__GNUC__) || defined(__clang__)
#define ctz64(m) ((unsigned)__builtin_ctzll(m))
#define msb64(m) (63u - (unsigned)__builtin_clzll(m))
#else
static unsigned ctz64(uint64_t m) {
  unsigned b = 0;
  while (!(m & 1u)) {
    m >>= 1;
    b++;
  }
  return b;
}
static unsigned msb64(uint64_t m) {
  unsigned b = 0;
  while (m >>= 1) b++;
  return b;
}
#endif

/* ---- when JPS applies ---- */

const char *astar_jps_unsupported(astar_grid *G, const astar_query *q) {
  const astar_unit *u = q->unit > 0 && q->unit < ASTAR_MAX_UNITS
                            ? G->units[q->unit]
                            : G->units[0];
  if (G->diagonal != ASTAR_DIAG_BOTH_FREE)
    return "8-way movement with no corner cutting (diagonals = "
           "'no_corner_cut')";
  if (!(G->cardinal_length <= G->diagonal_length &&
        G->diagonal_length <= 2.0 * G->cardinal_length))
    return "a diagonal step length between 1 and 2 cardinal lengths";
  if (!astar_unit_defined(G, q->unit)) return "a defined unit class";
  if (astar__uses_options(q))
    return "none of the options ties, goals, max_cost, max_length, "
           "max_nodes, closest, leave_blocked_start, next_to_blocked_goal "
           "or a heuristic function";
  if (q->tile_fn != NULL || q->move_fn != NULL)
    return "no cost callbacks (tile_cost, move_cost)";
  if (u != NULL && G->heights != NULL &&
      (u->climb > 0.0 || u->descend > 0.0 || u->max_climb < HUGE_VAL ||
       u->max_drop < HUGE_VAL))
    return "a unit class without a height rule (climb, descend, max_climb, "
           "max_drop)";
  if (q->heuristic != ASTAR_H_DEFAULT) return "the default heuristic";
  if (q->weight != 1.0) return "weight 1";
  {
    astar__jps_layer J;
    int st = astar__unit_jps_layer(G, q->unit, &J);
    if (st < 0) return "memory for the unit class's layers";
    if (st == 0) return "uniform tile costs";
  }
  return NULL;
}

/* ---- bits ---- */

/* A bitmap seen as rows of `stride` bits: the grid's own (row-major), or
 * its column-major copy, where a column is a row of height + 2 bits, so a
 * vertical jump is a horizontal one there. */
typedef struct {
  const uint64_t *bm;
  size_t nwords;
  uint32_t stride;
} bitmap;

/* 64 bits of the bitmap from bit pos on (bit 0 = tile pos).  Bits before 0
 * and past the last word read as 0 (blocked). */
static inline uint64_t bits_at(const bitmap *b, int64_t pos) {
  size_t w;
  unsigned s;
  uint64_t lo, hi;
  if (pos < 0) {
    if (pos <= -64) return 0;
    return b->bm[0] << (unsigned)-pos;
  }
  w = (size_t)pos >> 6;
  s = (unsigned)pos & 63u;
  lo = b->bm[w];
  if (s == 0) return lo;
  hi = w + 1 < b->nwords ? b->bm[w + 1] : 0;
  return (lo >> s) | (hi << (64u - s));
}

/* Bits of tiles t - 1, t, t + 1 as bits 0, 1, 2 (t - 1 >= 0 and t + 1 in
 * the grid: t is never in the border's first or last column). */
static inline unsigned bits3(const bitmap *b, uint32_t t) {
  uint32_t p = t - 1;
  unsigned s = p & 63u;
  uint64_t v = b->bm[p >> 6] >> s;
  if (s > 61) v |= b->bm[(p >> 6) + 1] << (64u - s);
  return (unsigned)v & 7u;
}

static inline int open_at(const bitmap *b, uint32_t t) {
  return (int)((b->bm[t >> 6] >> (t & 63u)) & 1u);
}

/* ---- jumps ----
 * Each returns the first jump point met in its direction, NONE when a
 * blocked tile comes first.  The first tile examined is the neighbour of
 * `from`.  A tile is a jump point when it is the goal, or (straight
 * jumps) when a tile beside it is open while the one beside the tile
 * before it is blocked: a path may have to turn there. */

static uint32_t jump_east(const bitmap *b, uint32_t from, uint32_t goal) {
  uint32_t i = from + 1, stride = b->stride;
  for (;;) {
    uint64_t cur = bits_at(b, i);
    uint64_t up = bits_at(b, (int64_t)i - stride - 1);
    uint64_t dn = bits_at(b, (int64_t)i + stride - 1);
    uint64_t stop = ((up >> 1) & ~up) | ((dn >> 1) & ~dn) | ~cur;
    uint32_t gd = goal - i;
    if (gd < 63) stop |= (uint64_t)1 << gd;
    stop &= LOW63;
    if (stop) {
      unsigned k = ctz64(stop);
      return (cur >> k) & 1u ? i + k : NONE;
    }
    i += 63;
  }
}

static uint32_t jump_west(const bitmap *b, uint32_t from, uint32_t goal) {
  uint32_t i = from - 1, stride = b->stride;
  for (;;) {
    int64_t base = (int64_t)i - 62; /* bit 62 is tile i */
    uint64_t cur = bits_at(b, base);
    uint64_t up = bits_at(b, base - stride);
    uint64_t dn = bits_at(b, base + stride);
    uint64_t stop = (up & ~(up >> 1)) | (dn & ~(dn >> 1)) | ~cur;
    int64_t gd = (int64_t)goal - base;
    if (gd >= 0 && gd < 63) stop |= (uint64_t)1 << gd;
    stop &= LOW63;
    if (stop) {
      unsigned k = msb64(stop);
      return (cur >> k) & 1u ? (uint32_t)(base + k) : NONE;
    }
    i -= 63;
  }
}

/* The two views of the map a search jumps over: rows (b) and columns (t),
 * with the goal's index in each. */
typedef struct {
  bitmap b, t;
  uint32_t goal, goal_t;
} planes;

/* Index in the column-major copy of row-major tile i. */
static inline uint32_t to_col(const planes *P, uint32_t i) {
  return (i % P->b.stride) * P->t.stride + i / P->b.stride;
}

/* Straight jump d from tile i (it = to_col(i)); returns the jump point's
 * row-major index and its distance in *steps, or NONE. */
static inline uint32_t jump_straight(const planes *P, unsigned d, uint32_t i,
                                     uint32_t it, uint32_t *steps) {
  uint32_t j;
  switch (d) {
  case ASTAR_E:
    j = jump_east(&P->b, i, P->goal);
    if (j != NONE) *steps = j - i;
    return j;
  case ASTAR_W:
    j = jump_west(&P->b, i, P->goal);
    if (j != NONE) *steps = i - j;
    return j;
  case ASTAR_S:
    j = jump_east(&P->t, it, P->goal_t);
    if (j == NONE) return NONE;
    *steps = j - it;
    return i + *steps * P->b.stride;
  default: /* ASTAR_N */
    j = jump_west(&P->t, it, P->goal_t);
    if (j == NONE) return NONE;
    *steps = it - j;
    return i - *steps * P->b.stride;
  }
}

/* Diagonal d (NE SE SW NW) from i; *steps gets the number of steps.  A
 * tile is a jump point when it is the goal or a straight jump from it
 * along either component of d finds one.  With no corner cutting a
 * diagonal step needs both tiles beside it open. */
static uint32_t jump_diagonal(const planes *P, unsigned d, uint32_t i,
                              uint32_t it, uint32_t *steps) {
  int dx = d == ASTAR_NE || d == ASTAR_SE ? 1 : -1;
  int dy = d == ASTAR_SE || d == ASTAR_SW ? 1 : -1;
  unsigned h = dx > 0 ? ASTAR_E : ASTAR_W;
  unsigned v = dy > 0 ? ASTAR_S : ASTAR_N;
  int32_t vstep = dy > 0 ? (int32_t)P->b.stride : -(int32_t)P->b.stride;
  int32_t off = vstep + dx;
  int32_t off_t = dx * (int32_t)P->t.stride + dy;
  uint32_t c = i, ct = it, n = 0, k;
  for (;;) {
    if (!open_at(&P->b, (uint32_t)((int32_t)c + dx)) ||
        !open_at(&P->b, (uint32_t)((int32_t)c + vstep)) ||
        !open_at(&P->b, (uint32_t)((int32_t)c + off)))
      return NONE;
    c = (uint32_t)((int32_t)c + off);
    ct = (uint32_t)((int32_t)ct + off_t);
    n++;
    if (c == P->goal || jump_straight(P, h, c, ct, &k) != NONE ||
        jump_straight(P, v, c, ct, &k) != NONE) {
      *steps = n;
      return c;
    }
  }
}

/* ---- open list (the same heap as search.c's) ---- */

static inline int entry_less(const astar_heap_entry *a,
                             const astar_heap_entry *b) {
  return a->key < b->key || (a->key == b->key && a->g > b->g);
}

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


/* ---- successors ----
 * The directions worth jumping in from u, reached in direction `from_dir`
 * (8: u is the start, every legal move).  nb holds the 3x3 neighbourhood:
 * bits 0-2 the row above (W to E), 3-5 u's row, 6-8 the row below. */
#define NB(b) (1u << (b))
static unsigned successors(unsigned nb, unsigned from_dir) {
  unsigned n = (nb >> 1) & 1u, e = (nb >> 5) & 1u, s = (nb >> 7) & 1u,
           w = (nb >> 3) & 1u;
  unsigned legal = n << ASTAR_N | e << ASTAR_E | s << ASTAR_S | w << ASTAR_W;
  unsigned want;
  legal |= (n & e & (nb >> 2)) << ASTAR_NE;
  legal |= (s & e & (nb >> 8)) << ASTAR_SE;
  legal |= (s & w & (nb >> 6)) << ASTAR_SW;
  legal |= (n & w & nb) << ASTAR_NW;
  switch (from_dir) {
  case ASTAR_E:
    want = 1u << ASTAR_E;
    if (n && !(nb & NB(0))) want |= 1u << ASTAR_N | 1u << ASTAR_NE;
    if (s && !(nb & NB(6))) want |= 1u << ASTAR_S | 1u << ASTAR_SE;
    break;
  case ASTAR_W:
    want = 1u << ASTAR_W;
    if (n && !(nb & NB(2))) want |= 1u << ASTAR_N | 1u << ASTAR_NW;
    if (s && !(nb & NB(8))) want |= 1u << ASTAR_S | 1u << ASTAR_SW;
    break;
  case ASTAR_N:
    want = 1u << ASTAR_N;
    if (e && !(nb & NB(8))) want |= 1u << ASTAR_E | 1u << ASTAR_NE;
    if (w && !(nb & NB(6))) want |= 1u << ASTAR_W | 1u << ASTAR_NW;
    break;
  case ASTAR_S:
    want = 1u << ASTAR_S;
    if (e && !(nb & NB(2))) want |= 1u << ASTAR_E | 1u << ASTAR_SE;
    if (w && !(nb & NB(0))) want |= 1u << ASTAR_W | 1u << ASTAR_SW;
    break;
  case ASTAR_NE: want = 1u << ASTAR_N | 1u << ASTAR_E | 1u << ASTAR_NE; break;
  case ASTAR_SE: want = 1u << ASTAR_S | 1u << ASTAR_E | 1u << ASTAR_SE; break;
  case ASTAR_SW: want = 1u << ASTAR_S | 1u << ASTAR_W | 1u << ASTAR_SW; break;
  case ASTAR_NW: want = 1u << ASTAR_N | 1u << ASTAR_W | 1u << ASTAR_NW; break;
  default: want = 0xFFu; break;
  }
  return legal & want;
}

/* ---- the column-major copy ---- */

/* Makes G->passable_t from passable on first use; grid.c keeps it in step
 * with every later edit. */
static int ensure_columns(astar_grid *G, const astar__jps_layer *J) {
  size_t words = ((size_t)G->ntiles + 63u) / 64u;
  uint32_t s = (uint32_t)G->stride, ph = (uint32_t)G->height + 2u, x, y;
  const uint64_t *passable = J->passable;
  uint64_t *t;
  if (*J->columns != NULL) return ASTAR_OK;
  t = G->alloc(G->alloc_ud, NULL, 0, words * sizeof(uint64_t));
  if (t == NULL) return ASTAR_ENOMEM;
  memset(t, 0, words * sizeof(uint64_t));
  for (y = 1; y + 1 < ph; y++) {
    for (x = 1; x + 1 < s; x++) {
      uint32_t i = y * s + x, j = x * ph + y;
      if ((passable[i >> 6] >> (i & 63u)) & 1u)
        t[j >> 6] |= (uint64_t)1 << (j & 63u);
    }
  }
  *J->columns = t;
  return ASTAR_OK;
}

/* ---- the path: every tile, costs summed from the start ---- */

static void unfold_path(astar_grid *G, const float *cost, uint32_t start,
                        uint32_t goal,
                        astar_result *r) {
  uint32_t *link = G->heap_pos, *stamp = G->stamp;
  uint32_t v = goal, child = NONE, cur, len = 1;
  double g = 0.0;
  /* parent links (goal -> start) become child links (start -> goal) */
  while (v != start) {
    uint32_t p = link[v];
    link[v] = child;
    child = v;
    v = p;
  }
  link[start] = child;
  for (cur = start; cur != goal;) {
    uint32_t next = link[cur], t = cur;
    unsigned d = stamp[next] & STAMP_DIR;
    int32_t off = G->offset[d];
    double step = G->step_length[d];
    do {
      t = (uint32_t)((int32_t)t + off);
      stamp[t] = (stamp[t] & ~STAMP_DIR) | d;
      g += step * (double)cost[t];
      len++;
    } while (t != next);
    cur = next;
  }
  r->cost = g;
  r->length = len;
}

/* ---- the search ---- */

int astar__jps(astar_grid *G, const astar__jps_layer *J,
               const astar_query *q, astar_result *r) {
  uint32_t start, goal, open_tag, stride;
  double card, diag, hA, hB, inv_q, step[8];
  float c;
  astar_heap_entry *heap;
  size_t n = 0;
  uint32_t *pos, *stamp;
  uint32_t expanded = 0, generated = 1;
  size_t peak = 1;
  bitmap b;
  planes P;
  int st;

  memset(r, 0, sizeof *r);
  r->outcome = ASTAR_NO_PATH;
  r->goal_index = -1;
  r->algorithm = ASTAR_ALGO_JPS;
  if (G->busy) return ASTAR_EBUSY;
  b.bm = J->passable;
  b.nwords = ((size_t)G->ntiles + 63u) / 64u;
  b.stride = stride = (uint32_t)G->stride;
  start = astar_index(G, q->sx, q->sy);
  goal = astar_index(G, q->gx, q->gy);
  G->last_start = start;
  G->last_goal = goal;
  G->last_outcome = ASTAR_NO_PATH;
  if (!open_at(&b, start)) {
    r->outcome = G->last_outcome = ASTAR_START_BLOCKED;
    return ASTAR_OK;
  }
  if (!open_at(&b, goal)) {
    r->outcome = G->last_outcome = ASTAR_GOAL_BLOCKED;
    return ASTAR_OK;
  }
  if ((st = astar__ensure_scratch(G)) != ASTAR_OK) return st;
  if ((st = ensure_columns(G, J)) != ASTAR_OK) return st;
  P.b = b;
  P.t.bm = *J->columns;
  P.t.nwords = b.nwords;
  P.t.stride = (uint32_t)G->height + 2u;
  P.goal = goal;
  P.goal_t = to_col(&P, goal);

  c = J->uniform;
  card = G->cardinal_length;
  diag = G->diagonal_length;
  /* octile distance; with cardinal <= diagonal <= 2 cardinal it is the
     default heuristic */
  hA = card * (double)c;
  hB = (diag - card) * (double)c;
  inv_q = 16777216.0 / ((double)c * card);
  {
    int d;
    for (d = 0; d < 8; d++) step[d] = G->step_length[d] * (double)c;
  }

  open_tag = G->explored_tag = astar__next_generation(G);
  pos = G->heap_pos;
  stamp = G->stamp;
  heap = G->heap;
  G->busy = 1;

  stamp[start] = open_tag;
  {
    astar_heap_entry e;
    int32_t dx = q->sx - q->gx, dy = q->sy - q->gy;
    if (dx < 0) dx = -dx;
    if (dy < 0) dy = -dy;
    e.key = astar__quantise(dx > dy ? hA * dx + hB * dy : hA * dy + hB * dx, inv_q);
    e.g = 0.0;
    e.node = start;
    e.aux = start;
    heap_up(heap, pos, n++, e);
  }

  while (n > 0) {
    uint32_t u = heap[0].node, parent = heap[0].aux;
    double gu = heap[0].g;
    unsigned dirs, nb;
    int32_t ux, uy;
    uint32_t ut;
    if (n > 1) heap_pop(heap, pos, n);
    n--;
    stamp[u] |= STAMP_CLOSED;
    pos[u] = parent; /* a closed node's heap position is free */
    expanded++;
    if (u == goal) {
      G->last_outcome = ASTAR_FOUND;
      break;
    }
    astar_xy(G, u, &ux, &uy);
    ut = (uint32_t)(ux + 1) * P.t.stride + (uint32_t)(uy + 1);
    nb = bits3(&b, u - stride) | bits3(&b, u) << 3 | bits3(&b, u + stride)
                                                         << 6;
    dirs = successors(nb, u == start ? 8u : stamp[u] & STAMP_DIR);
    while (dirs) {
      unsigned d = (unsigned)ctz64(dirs);
      uint32_t j, k, sv;
      int32_t jx, jy, hx, hy;
      double ng;
      astar_heap_entry e;
      size_t at;
      dirs &= dirs - 1;
      j = d >= 4 ? jump_diagonal(&P, d, u, ut, &k)
                 : jump_straight(&P, d, u, ut, &k);
      if (j == NONE) continue;
      sv = stamp[j];
      ng = gu + (double)k * step[d];
      if ((sv & STAMP_GEN_MASK) == open_tag) { /* seen in this search */
        if (sv & STAMP_CLOSED) continue;
        at = pos[j];
        if (ng >= heap[at].g) continue;
      } else {
        if (n == G->heap_cap) {
          if (astar__grow_heap(G) != ASTAR_OK) {
            G->busy = 0;
            G->last_outcome = ASTAR_NO_PATH;
            return ASTAR_ENOMEM;
          }
          heap = G->heap;
        }
        at = n++;
        generated++;
        if (n > peak) peak = n;
      }
      stamp[j] = open_tag | d;
      jx = ux + (int32_t)k * astar_dir_dx[d];
      jy = uy + (int32_t)k * astar_dir_dy[d];
      hx = jx > q->gx ? jx - q->gx : q->gx - jx;
      hy = jy > q->gy ? jy - q->gy : q->gy - jy;
      e.key = astar__quantise(ng + (hx > hy ? hA * hx + hB * hy : hA * hy + hB * hx),
                       inv_q);
      e.g = ng;
      e.node = j;
      e.aux = u;
      heap_up(heap, pos, at, e);
    }
  }
  G->busy = 0;
  r->expanded = expanded;
  r->generated = generated;
  r->peak_open = (uint32_t)peak;
  r->outcome = G->last_outcome;
  if (r->outcome == ASTAR_FOUND) {
    unfold_path(G, J->cost, start, goal, r);
    r->end_x = q->gx;
    r->end_y = q->gy;
  }
  return ASTAR_OK;
}

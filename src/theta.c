/*
 * Any-angle search: Theta* and Lazy Theta*, on the same context and heap
 * as A*.
 *
 * Like A*, but a node's parent need not be a neighbour: when node u is
 * expanded, a neighbour v may take u's own parent p as its parent if the
 * leg p -> v is in line of sight (sight.c) and cheaper than p -> u -> v.
 * Both choices are weighed, so a g never exceeds what A*'s step would give
 * it, and the path found costs at most the 8-way optimum.  Legs cost as
 * sight.c says: Euclidean length times the dearest tile entered, one step
 * what the grid charges; on uniform costs that is the plain Euclidean
 * length.
 *
 * Theta* tests the line of sight for every neighbour it relaxes.  Lazy
 * Theta* (Nash, Koenig and Tovey 2010) assumes it, with an optimistic cost
 * (the length times the cost of the tile entered), and checks once, when
 * the node comes off the open list: if the line is blocked or dearer, the
 * node takes its best expanded neighbour as its parent, and goes back on
 * the open list when that makes it dearer than its key said (so every node
 * is expanded at its true cost, and the 8-way bound holds for it too).
 *
 * Its neighbours are the steps in line of sight: the grid's legal steps,
 * and the diagonals past one blocked corner (a line may touch a corner),
 * so a path may slip diagonally into a one-tile door as a line may.
 *
 * Parents: an open node's parent rides in its open-list entry (aux), a
 * closed node's in heap_pos (as under JPS); g per tile, open or closed,
 * in the context's gf.  The open list is heap.h's order on entries of
 * its own (tentry, below), kept in the context's heap buffer.  The path
 * walk follows the parents: it gives the waypoints.
 */
#include "astar.h"
#include "bits.h"
#include "internal.h"
#include "sight.h"

#include <math.h>

#define UNCHECKED 0x80000000u /* aux: a lazy parent, its leg not checked */

/* Theta*'s open list: heap.h's order (smallest key, then larger g) on
 * entries of 16 bytes, not 24: an open node's g lives in the g array
 * (gf), read only when two keys tie.  The entries use the context's heap
 * buffer (heap_cap of them fit, with room to spare). */
typedef struct tentry {
  uint64_t key;
  uint32_t node, aux;
} tentry;

static inline size_t tless(const tentry *a, const tentry *b, const double *g) {
  if (a->key != b->key) return (size_t)(a->key < b->key);
  return (size_t)(g[a->node] > g[b->node]);
}

/* Moves e (g its g) up from index i to its place. */
static inline void theap_up(tentry *heap, uint32_t *pos, const double *g,
                            size_t i, tentry e, double ge) {
  while (i > 0) {
    size_t p = (i - 1) / 2;
    if (!(e.key < heap[p].key ||
          (e.key == heap[p].key && ge > g[heap[p].node])))
      break;
    heap[i] = heap[p];
    pos[heap[i].node] = (uint32_t)i;
    i = p;
  }
  heap[i] = e;
  pos[e.node] = (uint32_t)i;
}

/* Removes heap[0]; n is the size before removal (n >= 2). */
static inline void pop_heap(tentry *heap, uint32_t *pos, const double *g,
                            size_t n) {
  tentry e = heap[--n];
  size_t i = 0, c;
  while ((c = 2 * i + 1) + 1 < n) {
    c += tless(&heap[c + 1], &heap[c], g);
    if (!tless(&heap[c], &e, g)) goto done;
    heap[i] = heap[c];
    pos[heap[i].node] = (uint32_t)i;
    i = c;
  }
  if (c < n && tless(&heap[c], &e, g)) {
    heap[i] = heap[c];
    pos[heap[i].node] = (uint32_t)i;
    i = c;
  }
done:
  heap[i] = e;
  pos[e.node] = (uint32_t)i;
}

typedef struct theta {
  const astar_grid *G;
  const astar_layer *L;
  const float *flat;
  const uint64_t *cols; /* L's bits column-major (JPS's copy), or NULL */
  astar_search *s;
  double *g;
  uint32_t tag, stride;
  size_t n;
  double hA, inv_q, card;
  double uc; /* the one tile cost (astar__leg_uniform), or 0 */
  int32_t gx, gy;
  uint32_t generated, peak;
} theta;

/* The heuristic at tile (x, y) (0-based). */
static double h_at(const theta *T, int32_t x, int32_t y) {
  double dx = (double)(x - T->gx), dy = (double)(y - T->gy);
  return T->hA * sqrt(dx * dx + dy * dy);
}

static double h_of(const theta *T, uint32_t i) {
  int32_t x, y;
  astar_xy(T->G, i, &x, &y);
  return h_at(T, x, y);
}

/* A new open entry (also a node popped and put back), h its heuristic. */
static int insert_h(theta *T, uint32_t v, double g, uint32_t aux, double h) {
  astar_search *s = T->s;
  tentry e;
  int st;
  if (T->n == s->heap_cap && (st = astar__grow_heap(s)) != ASTAR_OK)
    return st;
  e.key = astar__quantise(g + h, T->inv_q);
  e.node = v;
  e.aux = aux;
  s->stamp[v] = T->tag;
  T->g[v] = g;
  theap_up((tentry *)(void *)s->heap, s->heap_pos, T->g, T->n++, e, g);
  T->generated++;
  if (T->n > T->peak) T->peak = (uint32_t)T->n;
  return ASTAR_OK;
}

static int insert(theta *T, uint32_t v, double g, uint32_t aux) {
  return insert_h(T, v, g, aux, h_of(T, v));
}

/* Offers v = (x, y) the cost g through aux. */
static int relax(theta *T, uint32_t v, int32_t x, int32_t y, double g,
                 uint32_t aux) {
  astar_search *s = T->s;
  if ((s->stamp[v] & ASTAR__STAMP_GEN) != T->tag)
    return insert_h(T, v, g, aux, h_at(T, x, y));
  if (!(g < T->g[v])) return ASTAR_OK;
  {
    tentry ne; /* same node, same h: the key only falls */
    ne.node = v;
    ne.key = astar__quantise(g + h_at(T, x, y), T->inv_q);
    ne.aux = aux;
    T->g[v] = g;
    theap_up((tentry *)(void *)s->heap, s->heap_pos, T->g, s->heap_pos[v], ne,
             g);
  }
  return ASTAR_OK;
}

static int closed(const theta *T, uint32_t i) {
  uint32_t st = T->s->stamp[i];
  return (st & ASTAR__STAMP_GEN) == T->tag && (st & ASTAR__STAMP_CLOSED);
}

/* Seen from p already: tile i closed with parent p (its leg checked, or a
 * step, which is in sight). */
static int seen_from(const theta *T, uint32_t i, uint32_t p) {
  return closed(T, i) && T->s->heap_pos[i] == p;
}

/* Is the leg p -> u (dx, dy from p to u, longer than a step) in sight for
 * free?  Take the two tiles a, b just behind u along the leg's major axis
 * (a beside u, b diagonally behind; b not needed when the leg runs along
 * an axis).  If both are seen from p, so is u: the line p -> u crosses
 * the segment between their centres (one tile apart, across the major
 * axis) at X, and a blocked tile whose inside met p -> X, or grazed it at
 * a corner, would have inside points in the triangle p a b; it cannot
 * lie wholly inside (the triangle is less than one tile wide across the
 * major axis short of a b), nor meet a b (only a's and b's own tiles do),
 * so it would meet p -> a or p -> b, which are clear.  Past X the line
 * enters only a, b and u, through edges or, on a diagonal leg, past the
 * corner a shares with u and b. */
static int sight_free(const theta *T, uint32_t p, uint32_t u, int32_t dx,
                      int32_t dy) {
  int32_t sx = dx > 0 ? 1 : -1,
          sy = dy > 0 ? (int32_t)T->stride : -(int32_t)T->stride;
  int32_t adx = dx > 0 ? dx : -dx, ady = dy > 0 ? dy : -dy;
  uint32_t a;
  if (adx >= ady) {
    a = (uint32_t)((int32_t)u - sx);
    return seen_from(T, a, p) &&
           (ady == 0 || seen_from(T, (uint32_t)((int32_t)a - sy), p));
  }
  a = (uint32_t)((int32_t)u - sy);
  return seen_from(T, a, p) &&
         (adx == 0 || seen_from(T, (uint32_t)((int32_t)a - sx), p));
}

/* What sight_back makes of tile i: 0 seen from p, 1 not expanded yet
 * (open, or not reached), 2 closed from elsewhere or blocked (the line
 * there most likely is too: the walk decides). */
static int back_state(const theta *T, uint32_t i, uint32_t p) {
  uint32_t st = T->s->stamp[i];
  if ((st & ASTAR__STAMP_GEN) != T->tag)
    return astar__bit(T->L->passable, i) ? 1 : 2;
  if (!(st & ASTAR__STAMP_CLOSED)) return 1;
  return T->s->heap_pos[i] == p ? 0 : 2;
}

#define SIGHT_BACK 4 /* the farthest pair sight_back looks at */

/* sight_free's argument farther back, for a leg it could not answer
 * (mostly: one of its two tiles is still open, on a lazy leg's far side):
 * for k = 2 .. SIGHT_BACK tiles behind u along the major axis (and short
 * of p), the line crosses that column (row, for a steep leg) between the
 * centres of two tiles a and b one apart across it, or through a's
 * centre.  With both seen from p, the line is clear up to the crossing X,
 * as above; past X it stays inside the box of the k + 1 columns from X's
 * to u's and the rows from u's to b's, so a box all passable leaves it no
 * tile and no corner to meet.  A box not all passable, or a tile closed
 * from elsewhere, sends the leg to the walk (a larger k's box would hold
 * this one). */
static int sight_back(const theta *T, uint32_t p, uint32_t u, int32_t dx,
                      int32_t dy) {
  int32_t sx = dx > 0 ? 1 : -1,
          sy = dy > 0 ? (int32_t)T->stride : -(int32_t)T->stride;
  uint32_t adx = (uint32_t)(dx > 0 ? dx : -dx),
           ady = (uint32_t)(dy > 0 ? dy : -dy);
  int32_t M, m;
  uint32_t aM, am, q, r, k, i, j, a, rows;
  int sa, sb;
  if (adx >= ady) {
    M = sx, m = sy, aM = adx, am = ady;
  } else {
    M = sy, m = sx, aM = ady, am = adx;
  }
  /* k am = q aM + r: the crossing lies q + r / aM back across */
  q = 0;
  r = am;
  if (r >= aM) q = 1, r -= aM;
  for (k = 2; k <= SIGHT_BACK && k < aM; k++) {
    r += am;
    if (r >= aM) q++, r -= aM;
    a = (uint32_t)((int32_t)u - (int32_t)k * M - (int32_t)q * m);
    sa = back_state(T, a, p);
    sb = r != 0 ? back_state(T, (uint32_t)((int32_t)a - m), p) : 0;
    if ((sa | sb) & 2) return 0;
    if (sa | sb) continue;
    rows = q + (r != 0);
    if (M == 1 || M == -1) { /* the box's rows, a word or two each */
      for (j = 0; j <= rows; j++)
        if (!astar__run_clear(T->L->passable,
                              (uint32_t)((int32_t)u - (int32_t)j * m), k, -M))
          return 0;
      return 1;
    }
    for (i = 0; i <= k; i++)
      for (j = 0; j <= rows; j++)
        if (!astar__bit(T->L->passable, (uint32_t)((int32_t)u -
                                                   (int32_t)i * M -
                                                   (int32_t)j * m)))
          return 0;
    return 1;
  }
  return 0;
}

/* Is the leg p = (px, py) -> u = (ux, uy), longer than a step, in sight
 * (bits only: a layer of one cost)? */
static int long_clear(const theta *T, uint32_t p, uint32_t u, int32_t px,
                      int32_t py, int32_t ux, int32_t uy) {
  int r;
  if (sight_free(T, p, u, ux - px, uy - py) ||
      sight_back(T, p, u, ux - px, uy - py))
    return 1;
  r = astar__sight_runs(T->G, T->L->passable, T->cols, T->G->diagonal, px, py,
                        ux, uy);
  if (r < 0) /* a steep line without column bits: the walk */
    r = astar__sight_clear(T->G, T->L->passable, T->cols, px, py, ux, uy);
  return r;
}

/* The cost of the leg p = (x0, y0) -> v = (x1, y1), as astar__leg_cost
 * gives it: on a layer of one cost, a longer leg only asks the bitmap. */
static double leg_cost(const theta *T, uint32_t p, uint32_t v, int32_t x0,
                       int32_t y0, int32_t x1, int32_t y1) {
  int32_t dx = x1 - x0, dy = y1 - y0;
  if (T->uc > 0.0 && (dx < -1 || dx > 1 || dy < -1 || dy > 1))
    return long_clear(T, p, v, x0, y0, x1, y1)
               ? sqrt((double)dx * dx + (double)dy * dy) * T->card * T->uc
               : HUGE_VAL;
  return astar__leg_cost(T->G, T->L, T->flat, x0, y0, x1, y1);
}

/* A lower bound of leg a -> b's cost: its length times b's cost; dx, dy
 * from a to b. */
static double leg_bound(const theta *T, int32_t dx, int32_t dy, uint32_t b) {
  const astar_grid *G = T->G;
  double len;
  if (dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1)
    len = dx != 0 && dy != 0 ? G->diagonal_length : G->cardinal_length;
  else
    len = sqrt((double)dx * dx + (double)dy * dy) * T->card;
  return len * (double)T->L->cost[b];
}

/* The steps out of tile i that are in line of sight (sight.c): the
 * layer's own, plus the diagonals past one blocked corner, which a line
 * may touch.  (No height rule here: the capability table refuses them.) */
static unsigned sight_moves(const theta *T, uint32_t i) {
  const astar_grid *G = T->G;
  const uint64_t *b = T->L->passable;
  uint32_t s = T->stride;
  unsigned m = T->L->moves[i], n, e, so, w, up, mid, dn;
  if (G->diagonal == ASTAR_DIAG_ALWAYS || G->diagonal == ASTAR_DIAG_ONE_FREE)
    return m;
  /* the 3 x 3 block, a row a read (bits.h): bit 0 west, 1 middle, 2 east */
  up = (unsigned)astar__bits_from(b, i - s - 1) & 7u;
  mid = (unsigned)astar__bits_from(b, i - 1) & 7u;
  dn = (unsigned)astar__bits_from(b, i + s - 1) & 7u;
  n = (up >> 1) & 1u;
  e = (mid >> 2) & 1u;
  so = (dn >> 1) & 1u;
  w = mid & 1u;
  m |= n << ASTAR_N | e << ASTAR_E | so << ASTAR_S | w << ASTAR_W;
  m |= ((up >> 2) & (n | e)) << ASTAR_NE;
  m |= ((dn >> 2) & (so | e)) << ASTAR_SE;
  m |= (dn & 1u & (so | w)) << ASTAR_SW;
  m |= (up & 1u & (n | w)) << ASTAR_NW;
  return m;
}

int astar__theta(astar__run *R) {
  const astar_grid *G = R->G;
  const astar_layer *L = &R->L;
  const astar_query *q = &R->q;
  astar_search *s = R->s;
  theta T;
  uint32_t goal = R->goal, expanded = 0;
  int lazy = q->algorithm == ASTAR_ALGO_LAZY_THETA, found = 0, st, apart;
  double diag_per = G->diagonal_length / sqrt(2.0);

  if (!q->no_zones &&
      (st = astar__zones_apart_size(G, q->unit, q->size, R->start, goal,
                                    &apart)) != ASTAR_OK)
    return st;
  if (!q->no_zones && apart) {
    R->r.outcome = ASTAR_NO_PATH;
    return ASTAR_OK;
  }
  if ((st = astar__context_more(s, 2)) != ASTAR_OK) return st;
  T.G = G;
  T.L = L;
  T.flat = astar__flat_heights(G, q->unit);
  /* where JPS can run, prepare made the column-major copy: steep lines of
     sight read it a column run at a time */
  T.cols = astar__sight_columns(G, L, q->unit, q->size);
  T.s = s;
  T.g = s->more->gf;
  T.stride = (uint32_t)G->stride;
  T.n = 0;
  T.card = G->cardinal_length;
  T.uc = (double)astar__leg_uniform(G, L, q->unit);
  /* admissible for legs and for steps of either kind */
  T.hA = (T.card < diag_per ? T.card : diag_per) * R->bound;
  T.inv_q = astar__key_scale(G, R->bound);
  T.gx = q->gx;
  T.gy = q->gy;
  T.generated = T.peak = 0;
  T.tag = s->explored_tag = astar__next_generation(s);
  if ((st = insert(&T, R->start, 0.0, R->start)) != ASTAR_OK) return st;

  while (T.n > 0) {
    tentry e = ((const tentry *)(void *)s->heap)[0];
    uint32_t u = e.node, p = e.aux & ~UNCHECKED, pp;
    int32_t ux, uy, px, py;
    double gu = T.g[u];
    unsigned m;
    if (T.n > 1) pop_heap((tentry *)(void *)s->heap, s->heap_pos, T.g, T.n);
    T.n--;
    astar_xy(G, u, &ux, &uy); /* once per pop: no division below */
    astar_xy(G, p, &px, &py);
    if (e.aux & UNCHECKED) { /* Lazy Theta*: the leg assumed at last */
      double best = HUGE_VAL, c;
      uint32_t bp = p;
      int32_t dx = ux - px, dy = uy - py;
      if (T.uc > 0.0 && (dx < -1 || dx > 1 || dy < -1 || dy > 1)) {
        /* one cost: the key's g is the leg's own cost (leg_bound), so
           only its line of sight is left to ask */
        if (long_clear(&T, p, u, px, py, ux, uy)) best = gu;
      } else if ((c = leg_cost(&T, p, u, px, py, ux, uy)) < HUGE_VAL) {
        best = T.g[p] + c;
      }
      /* The leg as cheap as assumed: no closed neighbour can beat it (each
       * offered u its step when it was expanded, and the key's g is the
       * least offer), so only a blocked or dearer leg looks at them. */
      m = best <= gu ? 0u : sight_moves(&T, u);
      while (m) {
        unsigned d = astar__lowest_bit(m);
        uint32_t nb = (uint32_t)((int32_t)u + G->offset[d]);
        m &= m - 1;
        /* steps are two-way here: the capability table keeps height
           rules out */
        if (closed(&T, nb)) {
          double cand = T.g[nb] + G->step_length[d] * (double)L->cost[u];
          if (cand < best) {
            best = cand;
            bp = nb;
          }
        }
      }
      if (best > gu + gu * 1e-12) { /* dearer than its key: back it goes */
        if ((st = insert(&T, u, best, bp)) != ASTAR_OK) return st;
        continue;
      }
      gu = best;
      if (bp != p) {
        p = bp;
        astar_xy(G, p, &px, &py);
      }
    }
    s->stamp[u] |= ASTAR__STAMP_CLOSED;
    s->heap_pos[u] = p;
    T.g[u] = gu;
    expanded++;
    if (u == goal) {
      found = 1;
      break;
    }
    if (q->max_nodes != 0 && expanded >= q->max_nodes) break;
    pp = p;
    m = sight_moves(&T, u);
    while (m) {
      unsigned d = astar__lowest_bit(m);
      uint32_t v = (uint32_t)((int32_t)u + G->offset[d]), aux = u;
      int32_t vx = ux + astar_dir_dx[d], vy = uy + astar_dir_dy[d];
      double cand;
      m &= m - 1;
      if (closed(&T, v)) continue;
      cand = gu + G->step_length[d] * (double)L->cost[v];
      if (pp != u) {
        if (!lazy) {
          double c = leg_cost(&T, pp, v, px, py, vx, vy);
          if (c < HUGE_VAL && T.g[pp] + c <= cand) {
            cand = T.g[pp] + c;
            aux = pp;
          }
        } else {
          double c = T.g[pp] + leg_bound(&T, vx - px, vy - py, v);
          if (c <= cand) { /* ties: the longer leg, fewer waypoints */
            cand = c;
            aux = pp | UNCHECKED;
          }
        }
      }
      if ((st = relax(&T, v, vx, vy, cand, aux)) != ASTAR_OK) return st;
    }
  }
  R->r.expanded = expanded;
  R->r.generated = T.generated;
  R->r.peak_open = T.peak;
  if (!found) {
    R->r.outcome = T.n > 0 ? ASTAR_CUTOFF : ASTAR_NO_PATH;
    return ASTAR_OK;
  }
  {
    uint32_t i = goal, len = 1;
    while (i != R->start) {
      i = s->heap_pos[i];
      len++;
    }
    R->r.length = len;
  }
  R->r.outcome = ASTAR_FOUND;
  R->r.cost = T.g[goal];
  R->r.end_x = q->gx;
  R->r.end_y = q->gy;
  astar__finish(R, 1, goal);
  s->last_waypoints = 1;
  return ASTAR_OK;
}

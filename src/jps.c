/*
 * Jump point search (Harabor and Grastien, AAAI 2011; the no-corner-cutting
 * rules of their 2014 paper) over a passability bitmap, for grids where
 * every passable tile costs the same, movement is 8-way with no corner
 * cutting, and cardinal <= diagonal <= 2 * cardinal.  It returns paths of
 * the same cost as A* while putting only "jump points" on the open list.
 *
 * Scanning (the block-based idea): a horizontal jump reads 56 tiles of its
 * row and of the rows above and below at once from the bitmap (bits.h),
 * and finds the first blocked tile, forced neighbour or goal with one
 * count of trailing (east) or leading (west) zeros; a vertical jump does
 * the same on the column-major copy of the bitmap.
 *
 * Scratch is the grid's own (stamp, heap position, heap): no allocation per
 * query beyond the heap growing.  A jump point's parent travels in its heap
 * entry and lands in its heap_pos slot when it is closed.  When the goal is
 * found, the parent chain is reversed in place and walked from the start,
 * writing each tile's step direction into its stamp: astar_path_last/prev
 * then walk every tile of the path, exactly as after A*, and the cost is
 * summed step by step from the start in the order A* sums it.
 */
#include "astar.h"
#include "bits.h"
#include "heap.h"
#include "internal.h"
#include "subgoal.h"

#include <string.h>

#define NONE UINT32_MAX

/* ---- bits ---- */

/* A bitmap seen as rows of `stride` bits: the grid's own (row-major), or
 * its column-major copy, where a column is a row of height + 2 bits, so a
 * vertical jump is a horizontal one there. */
typedef struct {
  const uint64_t *bm;
  uint32_t stride;
} bitmap;

/* Bits of tiles t - 1, t, t + 1 as bits 0, 1, 2 (t - 1 >= 0 and t + 1 in
 * the grid: t is never in the border's first or last column). */
static inline unsigned bits3(const bitmap *b, uint32_t t) {
  return (unsigned)astar__bits_from(b->bm, t - 1) & 7u;
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

ASTAR__HOT_INLINE uint32_t jump_east(const bitmap *b, uint32_t from,
                                     uint32_t goal) {
  uint32_t i = from + 1, stride = b->stride;
  for (;;) {
    uint64_t cur = astar__bits_from(b->bm, i); /* i is past the first row */
    uint64_t up = astar__bits_from(b->bm, i - stride - 1);
    uint64_t dn = astar__bits_from(b->bm, i + stride - 1);
    uint64_t stop = ((up >> 1) & ~up) | ((dn >> 1) & ~dn) | ~cur;
    uint32_t gd = goal - i;
    if (gd < ASTAR__SPAN) stop |= (uint64_t)1 << gd;
    stop &= ASTAR__SPAN_MASK;
    if (stop) {
      unsigned k = astar__ctz64(stop);
      return (cur >> k) & 1u ? i + k : NONE;
    }
    i += ASTAR__SPAN;
  }
}

ASTAR__HOT_INLINE uint32_t jump_west(const bitmap *b, uint32_t from,
                                     uint32_t goal) {
  uint32_t i = from - 1, stride = b->stride;
  for (;;) {
    int64_t base = (int64_t)i - (ASTAR__SPAN - 1u); /* its top bit: i */
    uint64_t cur = astar__bits_at(b->bm, base);
    uint64_t up = astar__bits_at(b->bm, base - stride);
    uint64_t dn = astar__bits_at(b->bm, base + stride);
    uint64_t stop = (up & ~(up >> 1)) | (dn & ~(dn >> 1)) | ~cur;
    int64_t gd = (int64_t)goal - base;
    if (gd >= 0 && gd < ASTAR__SPAN) stop |= (uint64_t)1 << gd;
    stop &= ASTAR__SPAN_MASK;
    if (stop) {
      unsigned k = astar__msb64(stop);
      return (cur >> k) & 1u ? (uint32_t)(base + k) : NONE;
    }
    i -= ASTAR__SPAN;
  }
}

/* The two views of the map a search jumps over: rows (b) and columns (t),
 * with the goal's index in each, and a prepared map's jump table (jt,
 * NULL: scan the bits). */
typedef struct {
  bitmap b, t;
  uint32_t goal, goal_t;
  const uint32_t *jt;
  uint32_t tw; /* the table's row: the map's width (no border) */
} planes;

/* ---- precomputed jumps (JPS+, a prepared static map) ----
 * One 32-bit word per tile of the map, the border left out (tile (x, y),
 * 0-based, at y * width + x: its "table index", which the jumps carry
 * beside the row- and column-major ones), a 4-bit entry per direction d
 * (bits 4d..4d+3).
 * Straight d (N E S W): the steps k from the tile to the first tile in
 * direction d that is blocked or where a jump stops (a forced neighbour:
 * the rule of jump_east / jump_west), for k 1..14; JT_FAR when k >= 15
 * (the query scans the bits from there, 56 tiles a read).  Diagonal d
 * (NE SE SW NW, the rule of run_diagonal): 0 when the step from the tile
 * is not legal; else the steps L to the first tile of the run worth a
 * look (a straight jump along a component of d meets a jump point there,
 * or the run ends there) for L 1..14; JT_FAR when L >= 15: the tiles of
 * the next JT_SKIP steps need no look, read on from there.  The goal is
 * no part of the table: the query stops a run where it crosses the
 * goal's row or column. */
#define JT_FAR 15u
#define JT_SKIP 14u
#define SCAN (NONE - 1u)

static inline unsigned jt_get(const uint32_t *jt, uint32_t i, unsigned d) {
  return (jt[i] >> (4u * d)) & 15u;
}

static inline void jt_set(uint32_t *jt, uint32_t i, unsigned d, uint32_t v) {
  jt[i] = (jt[i] & ~((uint32_t)15u << (4u * d))) | (v << (4u * d));
}

static inline int pass_at(const uint64_t *bm, uint32_t t) {
  return (int)((bm[t >> 6] >> (t & 63u)) & 1u);
}

ASTAR__HOT_INLINE uint32_t jump_straight(const planes *P, unsigned d,
                                         uint32_t i, uint32_t it,
                                         uint32_t ti, uint32_t *steps);

static void jumps_fill(const astar_grid *g, const astar__jps_layer *J,
                       uint32_t *jt) {
  const uint64_t *pb = J->passable;
  uint32_t stride = (uint32_t)g->stride, rows = (uint32_t)g->height + 2u;
  uint32_t w = (uint32_t)g->width, x, y, k;
  unsigned d;
  planes P;
  memset(jt, 0, (size_t)w * (uint32_t)g->height * sizeof *jt);
  for (y = 1; y + 1 < rows; y++) {
    uint32_t row = y * stride;
    /* east: tile j stops a jump when blocked, or when a tile above (below)
       it is open while the one above (below) j - 1 is not */
    k = 1;
    for (x = stride - 1; x-- > 1;) { /* x 0 is the border's */
      uint32_t j = row + x + 1, stop;
      stop = !pass_at(pb, j) ||
             (pass_at(pb, j - stride) && !pass_at(pb, j - stride - 1)) ||
             (pass_at(pb, j + stride) && !pass_at(pb, j + stride - 1));
      k = stop ? 1u : k + 1u;
      jt_set(jt, (y - 1) * w + x - 1, ASTAR_E, k < JT_FAR ? k : JT_FAR);
    }
    k = 1;
    for (x = 1; x + 1 < stride; x++) {
      uint32_t j = row + x - 1, stop;
      stop = !pass_at(pb, j) ||
             (pass_at(pb, j - stride) && !pass_at(pb, j - stride + 1)) ||
             (pass_at(pb, j + stride) && !pass_at(pb, j + stride + 1));
      k = stop ? 1u : k + 1u;
      jt_set(jt, (y - 1) * w + x - 1, ASTAR_W, k < JT_FAR ? k : JT_FAR);
    }
  }
  for (x = 1; x + 1 < stride; x++) {
    k = 1;
    for (y = rows - 1; y-- > 1;) { /* y 0 is the border's */
      uint32_t j = (y + 1) * stride + x, stop;
      stop = !pass_at(pb, j) ||
             (pass_at(pb, j - 1) && !pass_at(pb, j - 1 - stride)) ||
             (pass_at(pb, j + 1) && !pass_at(pb, j + 1 - stride));
      k = stop ? 1u : k + 1u;
      jt_set(jt, (y - 1) * w + x - 1, ASTAR_S, k < JT_FAR ? k : JT_FAR);
    }
    k = 1;
    for (y = 1; y + 1 < rows; y++) {
      uint32_t j = (y - 1) * stride + x, stop;
      stop = !pass_at(pb, j) ||
             (pass_at(pb, j - 1) && !pass_at(pb, j - 1 + stride)) ||
             (pass_at(pb, j + 1) && !pass_at(pb, j + 1 + stride));
      k = stop ? 1u : k + 1u;
      jt_set(jt, (y - 1) * w + x - 1, ASTAR_N, k < JT_FAR ? k : JT_FAR);
    }
  }
  /* diagonals, from the straight entries: the goal is tile 0, a border
     tile no jump can reach */
  P.b.bm = pb;
  P.b.stride = stride;
  P.t.bm = J->columns;
  P.t.stride = rows;
  P.goal = P.goal_t = 0;
  P.jt = jt;
  P.tw = w;
  for (d = ASTAR_NE; d <= ASTAR_NW; d++) {
    int dx = d == ASTAR_NE || d == ASTAR_SE ? 1 : -1;
    int down = d == ASTAR_SE || d == ASTAR_SW;
    unsigned h = dx > 0 ? ASTAR_E : ASTAR_W, v = down ? ASTAR_S : ASTAR_N;
    int32_t vstep = down ? (int32_t)stride : -(int32_t)stride;
    uint32_t r;
    /* a tile's entry reads the next tile of the run's: rows in the
       order the run goes, from its far end */
    for (r = 1; r + 1 < rows; r++) {
      y = down ? rows - 1 - r : r;
      for (x = 1; x + 1 < stride; x++) {
        uint32_t c = y * stride + x, ct = (y - 1) * w + x - 1;
        uint32_t n = (uint32_t)((int32_t)c + vstep + dx), nt, kk, val, next;
        uint32_t nti = (uint32_t)((int32_t)ct + (down ? (int32_t)w
                                                      : -(int32_t)w) + dx);
        if (!pass_at(pb, (uint32_t)((int32_t)c + dx)) ||
            !pass_at(pb, (uint32_t)((int32_t)c + vstep)) || !pass_at(pb, n))
          continue; /* 0: no step */
        nt = (uint32_t)((int32_t)x + dx) * rows +
             (uint32_t)((int32_t)y + (down ? 1 : -1));
        next = jt_get(jt, nti, d);
        if (next == 0 || jump_straight(&P, h, n, nt, nti, &kk) != NONE ||
            jump_straight(&P, v, n, nt, nti, &kk) != NONE)
          val = 1;
        else
          val = next + 1 < JT_FAR ? next + 1 : JT_FAR;
        jt_set(jt, ct, d, val);
      }
    }
  }
}

int astar_jumps_build(astar_grid *g, int unit, int *refusal) {
  astar__jps_layer J;
  uint32_t *jt;
  size_t n;
  int st;
  if ((st = astar__static_rules(g, unit, refusal, &J)) != ASTAR_OK)
    return st;
  n = (size_t)(uint32_t)g->width * (uint32_t)g->height;
  astar_subgoal_drop(g, unit); /* as the graph's build: old data first */
  if ((jt = astar__alloc(g, n, sizeof *jt)) == NULL) return ASTAR_ENOMEM;
  jumps_fill(g, &J, jt);
  if ((st = astar__static_keep(g, unit, jt, n)) != ASTAR_OK)
    astar__free(g, jt, n, sizeof *jt);
  return st;
}

/* Straight jump d from i by the table (it, goal_t: column-major indices
 * for the goal test of N and S; ti: i's table index): as the scans, or
 * SCAN when the jump is long (the scan goes on from i). */
static inline uint32_t jump_table(const planes *P, unsigned d, uint32_t i,
                                  uint32_t it, uint32_t ti, uint32_t *steps) {
  static const int32_t unit_dx[4] = {0, 1, 0, -1};
  unsigned v = jt_get(P->jt, ti, d);
  int32_t off;
  uint32_t t, gd;
  if (v == JT_FAR) return SCAN;
  off = d == ASTAR_N   ? -(int32_t)P->b.stride
        : d == ASTAR_S ? (int32_t)P->b.stride
                       : unit_dx[d];
  t = (uint32_t)((int32_t)i + (int32_t)v * off);
  switch (d) { /* the goal on the way, in i's row (column) */
  case ASTAR_E: gd = P->goal - i; break;
  case ASTAR_W: gd = i - P->goal; break;
  case ASTAR_S: gd = P->goal_t - it; break;
  default: gd = it - P->goal_t; break;
  }
  if (gd - 1u < v) {
    *steps = gd;
    return P->goal;
  }
  if (!open_at(&P->b, t)) return NONE;
  *steps = v;
  return t;
}

/* Straight jump d from tile i (it: i's index in the column-major copy,
 * (i % row stride) * column stride + i / row stride); returns the jump point's
 * row-major index and its distance in *steps, or NONE. */
ASTAR__HOT_INLINE uint32_t jump_straight(const planes *P, unsigned d,
                                         uint32_t i, uint32_t it,
                                         uint32_t ti, uint32_t *steps) {
  uint32_t j;
  if (P->jt != NULL) {
    j = jump_table(P, d, i, it, ti, steps);
    if (j != SCAN) return j;
  }
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
                              uint32_t it, uint32_t ti, uint32_t *steps) {
  int dx = d == ASTAR_NE || d == ASTAR_SE ? 1 : -1;
  int dy = d == ASTAR_SE || d == ASTAR_SW ? 1 : -1;
  unsigned h = dx > 0 ? ASTAR_E : ASTAR_W;
  unsigned v = dy > 0 ? ASTAR_S : ASTAR_N;
  int32_t vstep = dy > 0 ? (int32_t)P->b.stride : -(int32_t)P->b.stride;
  int32_t off = vstep + dx;
  int32_t off_t = dx * (int32_t)P->t.stride + dy;
  int32_t off_w = dy * (int32_t)P->tw + dx;
  uint32_t c = i, ct = it, cw = ti, n = 0, k;
  for (;;) {
    if (!open_at(&P->b, (uint32_t)((int32_t)c + dx)) ||
        !open_at(&P->b, (uint32_t)((int32_t)c + vstep)) ||
        !open_at(&P->b, (uint32_t)((int32_t)c + off)))
      return NONE;
    c = (uint32_t)((int32_t)c + off);
    ct = (uint32_t)((int32_t)ct + off_t);
    cw = (uint32_t)((int32_t)cw + off_w);
    n++;
    if (c == P->goal || jump_straight(P, h, c, ct, cw, &k) != NONE ||
        jump_straight(P, v, c, ct, cw, &k) != NONE) {
      *steps = n;
      return c;
    }
  }
}

/* ---- successors ----
 * The directions worth jumping in from u, reached in direction `from_dir`
 * (8: u is the start, every legal move).  nb holds the 3x3 neighbourhood:
 * bits 0-2 the row above (W to E), 3-5 u's row, 6-8 the row below. */
#define NB(b) (1u << (b))
ASTAR__HOT_INLINE unsigned successors(unsigned nb, unsigned from_dir) {
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

/* ---- the path: every tile, costs summed from the start ---- */

/* Parent links (goal -> start) become child links; a segment between two
 * jump points is a diagonal run then a straight one (either may be empty:
 * the pruning of JPS 2014).  Every tile costs J.uniform: a step jstep[d].
 * With q.corners the walk links (heap_pos) go corner to corner and no
 * tile is written; else each tile's stamp gets its step's direction. */
static void unfold_path(astar__run *R, uint32_t start, uint32_t goal,
                        astar_result *r) {
  const astar_grid *G = R->G;
  uint32_t *link = R->s->heap_pos, *stamp = R->s->stamp;
  uint32_t v = goal, child = NONE, cur, len = 1, kept = start, turns = 0;
  uint32_t stride = (uint32_t)G->stride;
  int32_t cx = (int32_t)(start % stride), cy = (int32_t)(start / stride);
  unsigned dir = 8u; /* the last run's direction (8: none yet) */
  double g = 0.0;
  while (v != start) {
    uint32_t p = link[v];
    link[v] = child;
    child = v;
    v = p;
  }
  link[start] = child;
  for (cur = start; cur != goal;) {
    uint32_t next = link[cur], t = cur;
    int32_t nx = (int32_t)(next % stride), ny = (int32_t)(next / stride);
    int32_t n[2], k, part;
    unsigned runs[2];
    astar__octile_runs(nx - cx, ny - cy, &runs[0], &n[0], &runs[1], &n[1]);
    for (part = 0; part < 2; part++) {
      unsigned d = runs[part];
      double step = R->jstep[d];
      if (n[part] == 0) continue;
      if (R->q.corners && d != dir && dir != 8u) { /* t: a corner */
        link[t] = kept; /* (t's child link is read) */
        kept = t;
        turns++;
      }
      for (k = 0; k < n[part]; k++) {
        t = (uint32_t)((int32_t)t + G->offset[d]);
        if (!R->q.corners) stamp[t] = (stamp[t] & ~ASTAR__STAMP_DIR) | d;
        g += step;
      }
      dir = d;
      len += (uint32_t)n[part];
    }
    cur = next;
    cx = nx;
    cy = ny;
  }
  if (R->q.corners) { /* the start, the turns and the goal */
    link[goal] = kept; /* (the walk stops at the start) */
    R->s->last_waypoints = 1;
    r->corners = turns + 1 + (goal != start);
  }
  r->cost = g;
  r->length = len;
}

/* ---- the search ---- */

/* How many jump-point tiles a diagonal run passes whatever their key (the
 * MovingAI maps measured: 1 to 8 differ by little; 0 is slower on mazes) */
#define JPS_EAGER 3
/* a flag in a parent (tiles < 2^30): a run stopped here for later */
#define RUN_ONLY ((uint32_t)1 << 31)

/* Where the expansion loop stands, for gen. */
typedef struct {
  astar__run *R;
  size_t n, peak;
  uint32_t generated, open_tag;
  int32_t gx, gy;
} open_list;

/* Puts jump point j (at jx, jy; reached from u by a run ending in
 * direction d) on the open list at cost ng, or lowers its cost. */
ASTAR__HOT_INLINE int gen(open_list *O, uint32_t u, uint32_t j, int32_t jx,
                          int32_t jy, double ng, unsigned d) {
  astar_search *ctx = O->R->s;
  uint32_t sv = ctx->stamp[j];
  int32_t hx, hy;
  astar_heap_entry e;
  size_t at;
  if ((sv & ASTAR__STAMP_GEN) == O->open_tag) { /* seen in this search */
    if (sv & ASTAR__STAMP_CLOSED) return ASTAR_OK;
    at = ctx->heap_pos[j];
    if (ng >= ctx->heap[at].g) return ASTAR_OK;
  } else {
    if (O->n == ctx->heap_cap && astar__grow_heap(ctx) != ASTAR_OK)
      return ASTAR_ENOMEM;
    at = O->n++;
    O->generated++;
    if (O->n > O->peak) O->peak = O->n;
  }
  ctx->stamp[j] = O->open_tag | d;
  hx = jx > O->gx ? jx - O->gx : O->gx - jx;
  hy = jy > O->gy ? jy - O->gy : O->gy - jy;
  e.key = astar__quantise(
      ng + (hx > hy ? O->R->hA * hx + O->R->hB * hy
                    : O->R->hA * hy + O->R->hB * hx),
      O->R->inv_q);
  e.g = ng;
  e.node = j;
  e.aux = u;
  astar__heap_up(ctx->heap, ctx->heap_pos, at, e, 0);
  return ASTAR_OK;
}

/* A diagonal run d from u (at ux, uy; column-major index ut), g = gu,
 * key ku.  Where a straight jump from a tile c of the run meets a jump
 * point, c would be a jump point of its own; with no corner cutting it has
 * no forced neighbour, so expanding it would only do the same jumps: the
 * jump points go on the open list directly, with u as parent (the pruning
 * of JPS 2014).  When c's key is no larger than u's (c would come off the
 * open list next), or among the first JPS_EAGER such tiles, the run goes
 * on past c; else c goes on the open list marked RUN_ONLY (its expansion
 * only goes on with the run) and the run ends.  It also ends at the goal
 * or where the next diagonal step is not legal. */
ASTAR__HOT_INLINE int run_diagonal(open_list *O, const planes *P,
                                   unsigned d, uint32_t u, uint32_t ut,
                                   int32_t ux, int32_t uy, double gu,
                                   uint64_t ku) {
  const double *step = O->R->jstep;
  int dx = d == ASTAR_NE || d == ASTAR_SE ? 1 : -1;
  int dy = d == ASTAR_SE || d == ASTAR_SW ? 1 : -1;
  unsigned h = dx > 0 ? ASTAR_E : ASTAR_W;
  unsigned v = dy > 0 ? ASTAR_S : ASTAR_N;
  int32_t vstep = dy > 0 ? (int32_t)P->b.stride : -(int32_t)P->b.stride;
  int32_t off = vstep + dx;
  int32_t off_t = dx * (int32_t)P->t.stride + dy;
  int32_t off_w = dy * (int32_t)P->tw + dx;
  uint32_t c = u, ct = ut, n = 0, kh = 0, kv = 0, jh, jv;
  uint32_t cw = (uint32_t)uy * P->tw + (uint32_t)ux; /* table index */
  int later;
  /* with a jump table: the steps to the goal's column and row (0: not
     ahead) bound a skip */
  uint32_t to_gx = (uint32_t)(dx > 0 ? O->gx - ux : ux - O->gx);
  uint32_t to_gy = (uint32_t)(dy > 0 ? O->gy - uy : uy - O->gy);
  unsigned eager = 0;
  int st;
  if ((int32_t)to_gx <= 0) to_gx = UINT32_MAX;
  if ((int32_t)to_gy <= 0) to_gy = UINT32_MAX;
  for (;;) {
    double gc;
    int32_t cx, cy, hx, hy;
    if (P->jt != NULL) {
      uint32_t k = jt_get(P->jt, cw, d), cap;
      if (k == 0) return ASTAR_OK;
      cap = to_gx < to_gy ? to_gx : to_gy;
      cap = cap > n ? cap - n : UINT32_MAX; /* steps to the goal's line */
      if (k == JT_FAR) {
        if (cap > JT_SKIP) { /* nothing to look at on the way */
          c = (uint32_t)((int32_t)c + (int32_t)JT_SKIP * off);
          ct = (uint32_t)((int32_t)ct + (int32_t)JT_SKIP * off_t);
          cw = (uint32_t)((int32_t)cw + (int32_t)JT_SKIP * off_w);
          n += JT_SKIP;
          continue;
        }
        k = JT_SKIP;
      }
      if (cap < k) k = cap;
      c = (uint32_t)((int32_t)c + (int32_t)k * off);
      ct = (uint32_t)((int32_t)ct + (int32_t)k * off_t);
      cw = (uint32_t)((int32_t)cw + (int32_t)k * off_w);
      n += k;
    } else {
      if (!open_at(&P->b, (uint32_t)((int32_t)c + dx)) ||
          !open_at(&P->b, (uint32_t)((int32_t)c + vstep)) ||
          !open_at(&P->b, (uint32_t)((int32_t)c + off)))
        return ASTAR_OK;
      c = (uint32_t)((int32_t)c + off);
      ct = (uint32_t)((int32_t)ct + off_t);
      cw = (uint32_t)((int32_t)cw + off_w);
      n++;
    }
    if (c == P->goal)
      return gen(O, u, c, ux + (int32_t)n * dx, uy + (int32_t)n * dy,
                 gu + (double)n * step[d], d);
    jh = jump_straight(P, h, c, ct, cw, &kh);
    jv = jump_straight(P, v, c, ct, cw, &kv);
    if (jh == NONE && jv == NONE) continue;
    gc = gu + (double)n * step[d];
    cx = ux + (int32_t)n * dx;
    cy = uy + (int32_t)n * dy;
    hx = cx > O->gx ? cx - O->gx : O->gx - cx;
    hy = cy > O->gy ? cy - O->gy : O->gy - cy;
    later = ++eager > JPS_EAGER &&
            astar__quantise(gc + (hx > hy ? O->R->hA * hx + O->R->hB * hy
                                          : O->R->hA * hy + O->R->hB * hx),
                            O->R->inv_q) > ku;
    if (jh != NONE &&
        (st = gen(O, u, jh, cx + (int32_t)kh * dx, cy,
                  gc + (double)kh * step[h], h)) != ASTAR_OK)
      return st;
    if (jv != NONE &&
        (st = gen(O, u, jv, cx, cy + (int32_t)kv * dy,
                  gc + (double)kv * step[v], v)) != ASTAR_OK)
      return st;
    if (later) /* the rest of the run later, if ever */
      return gen(O, u | RUN_ONLY, c, cx, cy, gc, d);
  }
}

int astar__jps_start(astar__run *R) {
  const astar_grid *G = R->G;
  astar_search *ctx = R->s;
  const astar_query *q = &R->q;
  double card, diag, c;
  int st, apart = 0, d;
  if ((st = astar__jps_layer_size(G, q->unit, q->size, &R->J)) < 0) return st;
  if (!astar__bit(R->J.passable, R->start)) {
    R->r.outcome = ASTAR_START_BLOCKED;
    return 1;
  }
  if (!astar__bit(R->J.passable, R->goal)) {
    R->r.outcome = ASTAR_GOAL_BLOCKED;
    return 1;
  }
  if (!q->no_zones && R->start != R->goal) {
    if ((st = astar__zones_apart_size(G, q->unit, q->size, R->start,
                                        R->goal, &apart)) !=
        ASTAR_OK)
      return st;
    if (apart) { /* no_path, nothing expanded, no path to walk */
      R->r.outcome = ASTAR_NO_PATH;
      return 1;
    }
  }
  c = (double)R->J.uniform;
  card = G->cardinal_length;
  diag = G->diagonal_length;
  /* octile distance; with cardinal <= diagonal <= 2 cardinal it is the
     default heuristic */
  R->hA = card * c;
  R->hB = (diag - card) * c;
  R->inv_q = 16777216.0 / (c * card);
  for (d = 0; d < 8; d++) R->jstep[d] = G->step_length[d] * c;
  R->tag = ctx->explored_tag = astar__next_generation(ctx);
  ctx->stamp[R->start] = R->tag;
  {
    astar_heap_entry e;
    int32_t dx = q->sx - q->gx, dy = q->sy - q->gy;
    if (dx < 0) dx = -dx;
    if (dy < 0) dy = -dy;
    e.key = astar__quantise(
        dx > dy ? R->hA * dx + R->hB * dy : R->hA * dy + R->hB * dx, R->inv_q);
    e.g = 0.0;
    e.node = R->start;
    e.aux = R->start;
    astar__heap_up(ctx->heap, ctx->heap_pos, 0, e, 0);
    R->n = 1;
    R->r.generated = 1;
    R->peak = 1;
  }
  return ASTAR_OK;
}

int astar__jps_step(astar__run *R, uint32_t budget) {
  const astar_grid *G = R->G;
  astar_search *ctx = R->s;
  const astar_query *q = &R->q;
  const uint32_t start = R->start, goal = R->goal, open_tag = R->tag;
  const uint32_t stride = (uint32_t)G->stride;
  const double hA = R->hA, hB = R->hB;
  astar_heap_entry *heap = ctx->heap;
  uint32_t *pos = ctx->heap_pos, *stamp = ctx->stamp;
  size_t n = R->n, peak = R->peak;
  uint32_t expanded = R->expanded, generated = R->r.generated;
  uint32_t left = budget != 0 ? budget : UINT32_MAX;
  int st = ASTAR_OK;
  bitmap b;
  planes P;
  open_list O;

  O.R = R;
  O.open_tag = open_tag;
  O.gx = q->gx;
  O.gy = q->gy;
  b.bm = R->J.passable;
  b.stride = stride;
  P.b = b;
  P.t.bm = R->J.columns;
  P.t.stride = (uint32_t)G->height + 2u;
  P.goal = goal;
  P.goal_t = (goal % stride) * P.t.stride + goal / stride; /* column-major */
  P.jt = R->jt;
  P.tw = (uint32_t)G->width;

  while (n > 0) {
    uint32_t u, parent, run_only;
    uint64_t ku;
    double gu;
    unsigned dirs, nb;
    int32_t ux, uy;
    uint32_t ut;
    if (left-- == 0) {
      st = ASTAR__SUSPENDED;
      break;
    }
    u = heap[0].node;
    ku = heap[0].key;
    parent = heap[0].aux & ~RUN_ONLY;
    run_only = heap[0].aux & RUN_ONLY;
    gu = heap[0].g;
    if (n > 1) astar__heap_pop(heap, pos, n, 0);
    n--;
    stamp[u] |= ASTAR__STAMP_CLOSED;
    pos[u] = parent; /* a closed node's heap position is free */
    expanded++;
    if (u == goal) {
      R->found = 1;
      break;
    }
    astar_xy(G, u, &ux, &uy);
    if (budget != 0) { /* a sliced step keeps its closest jump point */
      int32_t cx = ux > q->gx ? ux - q->gx : q->gx - ux;
      int32_t cy = uy > q->gy ? uy - q->gy : q->gy - uy;
      double d = cx > cy ? hA * cx + hB * cy : hA * cy + hB * cx;
      if (d < R->best_d ||
          (d == R->best_d && (gu < R->best_g ||
                              (gu == R->best_g && u < R->best)))) {
        R->best_d = d;
        R->best_g = gu;
        R->best = u;
      }
    }
    ut = (uint32_t)(ux + 1) * P.t.stride + (uint32_t)(uy + 1);
    nb = bits3(&b, u - stride) | bits3(&b, u) << 3 | bits3(&b, u + stride)
                                                         << 6;
    dirs = successors(nb, u == start ? 8u : stamp[u] & ASTAR__STAMP_DIR);
    if (run_only) dirs &= 1u << (stamp[u] & ASTAR__STAMP_DIR);
    O.n = n;
    O.peak = peak;
    O.generated = generated;
    while (dirs) {
      unsigned d = (unsigned)astar__ctz64(dirs);
      uint32_t j, k;
      dirs &= dirs - 1;
      if (d >= 4 && !q->jps_classic) {
        /* one copy per direction: its steps and scans known when
           compiled */
#define RUN(dd) run_diagonal(&O, &P, dd, u, ut, ux, uy, gu, ku)
        st = d == ASTAR_NE   ? RUN(ASTAR_NE)
             : d == ASTAR_SE ? RUN(ASTAR_SE)
             : d == ASTAR_SW ? RUN(ASTAR_SW)
                             : RUN(ASTAR_NW);
#undef RUN
      } else {
        uint32_t uw = (uint32_t)uy * P.tw + (uint32_t)ux;
        j = d >= 4 ? jump_diagonal(&P, d, u, ut, uw, &k)
                   : jump_straight(&P, d, u, ut, uw, &k);
        if (j == NONE) continue;
        st = gen(&O, u, j, ux + (int32_t)k * astar_dir_dx[d],
                 uy + (int32_t)k * astar_dir_dy[d],
                 gu + (double)k * R->jstep[d], d);
      }
      if (st != ASTAR_OK) break;
    }
    n = O.n;
    peak = O.peak;
    generated = O.generated;
    heap = ctx->heap;
    if (st != ASTAR_OK) break;
  }
  R->n = n;
  R->peak = (uint32_t)peak;
  R->expanded = expanded;
  R->r.expanded = expanded;
  R->r.generated = generated;
  R->r.peak_open = (uint32_t)peak;
  if (st != ASTAR_OK) return st;
  if (R->found) {
    R->r.outcome = ASTAR_FOUND;
    unfold_path(R, start, goal, &R->r);
    R->r.end_x = q->gx;
    R->r.end_y = q->gy;
  } else {
    R->r.outcome = ASTAR_NO_PATH;
  }
  astar__finish(R, R->found, goal);
  return ASTAR_OK;
}

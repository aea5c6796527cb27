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
 * the same on the column-major copy of the bitmap.  The scans, and the
 * jump table of a prepared map that stands in for them (JPS+), are in
 * jps_scan.h; jps_table.c builds the table.
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
#include "heap.h"
#include "internal.h"
#include "jps_scan.h"
#include "subgoal.h"

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

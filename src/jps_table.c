/*
 * The jump table of a prepared static map (JPS+): one 32-bit word per
 * tile, a 4-bit entry per direction (jps_scan.h says what each holds),
 * filled from the map's bitmaps when grid:prepare asks for jumps; the
 * search (jps.c) reads it through jump_straight.  The table is kept with
 * the unit class's prepared data (subgoal.c); any edit makes it stale, and
 * JPS scans the bits until the next prepare.
 */
#include "astar.h"
#include "internal.h"
#include "jps_scan.h"
#include "subgoal.h"

#include <string.h>

/* The straight entry of the tile before j, for lines walked back from
 * their far end: j is one step (`step`, an index offset) on from it, and
 * `side` the offset across the line.  j stops a jump when blocked, or when
 * a tile beside it is open while the one beside the tile before j is not.
 * (k, wall): the steps to the first stop on from j's predecessor, and
 * whether that stop is blocked; updated for j, then read as the entry. */
static uint32_t straight(const uint64_t *pb, uint32_t j, int32_t step,
                         int32_t side, uint32_t *k, int *wall) {
  int32_t b = (int32_t)j - step; /* the tile before j */
  int open = astar__bit(pb, j);
  if (!open ||
      (astar__bit(pb, (uint32_t)((int32_t)j - side)) &&
       !astar__bit(pb, (uint32_t)(b - side))) ||
      (astar__bit(pb, (uint32_t)((int32_t)j + side)) &&
       !astar__bit(pb, (uint32_t)(b + side)))) {
    *k = 1;
    *wall = !open;
  } else {
    (*k)++;
  }
  return *k < JT_LONG ? *k : *wall ? JT_WALL : JT_LONG;
}

static void jumps_fill(const astar_grid *g, const astar__jps_layer *J,
                       uint32_t *jt) {
  const uint64_t *pb = J->passable;
  uint32_t stride = (uint32_t)g->stride, rows = (uint32_t)g->height + 2u;
  uint32_t w = (uint32_t)g->width, x, y, k;
  unsigned d;
  int wall; /* the first stop is a blocked tile (the border is one) */
  planes P;
  memset(jt, 0, (size_t)w * (uint32_t)g->height * sizeof *jt);
  for (y = 1; y + 1 < rows; y++) {
    uint32_t row = y * stride;
    k = 1;
    wall = 1;
    for (x = stride - 1; x-- > 1;) { /* x 0 is the border's */
      uint32_t j = row + x + 1;
      jt_set(jt, (y - 1) * w + x - 1, ASTAR_E,
             straight(pb, j, 1, (int32_t)stride, &k, &wall));
    }
    k = 1;
    wall = 1;
    for (x = 1; x + 1 < stride; x++) {
      uint32_t j = row + x - 1;
      jt_set(jt, (y - 1) * w + x - 1, ASTAR_W,
             straight(pb, j, -1, (int32_t)stride, &k, &wall));
    }
  }
  for (x = 1; x + 1 < stride; x++) {
    k = 1;
    wall = 1;
    for (y = rows - 1; y-- > 1;) { /* y 0 is the border's */
      uint32_t j = (y + 1) * stride + x;
      jt_set(jt, (y - 1) * w + x - 1, ASTAR_S,
             straight(pb, j, (int32_t)stride, 1, &k, &wall));
    }
    k = 1;
    wall = 1;
    for (y = 1; y + 1 < rows; y++) {
      uint32_t j = (y - 1) * stride + x;
      jt_set(jt, (y - 1) * w + x - 1, ASTAR_N,
             straight(pb, j, -(int32_t)stride, 1, &k, &wall));
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
        if (!astar__bit(pb, (uint32_t)((int32_t)c + dx)) ||
            !astar__bit(pb, (uint32_t)((int32_t)c + vstep)) || !astar__bit(pb, n))
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

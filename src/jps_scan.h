/*
 * The scans of jump point search, shared by the search (jps.c) and the
 * build of a prepared map's jump table (jps_table.c): the two views of
 * the passability bitmap, the straight jumps by the bits (56 tiles a
 * read) or by the table, and the table's entries.  Private to those two
 * files (its short names, NONE and SCAN among them, are theirs).
 */
#ifndef ASTAR_JPS_SCAN_H
#define ASTAR_JPS_SCAN_H

#include "astar.h"
#include "bits.h"
#include "internal.h"

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
  return astar__bit(b->bm, t);
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
 * the rule of jump_east / jump_west), for k 1..13; when k >= 14, JT_LONG
 * if that tile is a jump point (the query scans the bits for it, 56
 * tiles a read) and JT_WALL if it is blocked (no jump point on the way:
 * the query answers NONE without a scan, unless the goal may lie on the
 * way).  Diagonal d
 * (NE SE SW NW, the rule of run_diagonal): 0 when the step from the tile
 * is not legal; else the steps L to the first tile of the run worth a
 * look (a straight jump along a component of d meets a jump point there,
 * or the run ends there) for L 1..14; JT_FAR when L >= 15: the tiles of
 * the next JT_SKIP steps need no look, read on from there.  The goal is
 * no part of the table: the query stops a run where it crosses the
 * goal's row or column. */
#define JT_FAR 15u  /* diagonal entries */
#define JT_SKIP 14u
#define JT_LONG 14u /* straight entries */
#define JT_WALL 15u
#define SCAN (NONE - 1u)

static inline unsigned jt_get(const uint32_t *jt, uint32_t i, unsigned d) {
  return (jt[i] >> (4u * d)) & 15u;
}

static inline void jt_set(uint32_t *jt, uint32_t i, unsigned d, uint32_t v) {
  jt[i] = (jt[i] & ~((uint32_t)15u << (4u * d))) | (v << (4u * d));
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
  if (v == JT_LONG) return SCAN;
  switch (d) { /* the goal on the way, in i's row (column) */
  case ASTAR_E: gd = P->goal - i; break;
  case ASTAR_W: gd = i - P->goal; break;
  case ASTAR_S: gd = P->goal_t - it; break;
  default: gd = it - P->goal_t; break;
  }
  if (v == JT_WALL) /* a wall 14 or more steps on, nothing before it: the
                       scan only when the goal is less than a row (column)
                       ahead, where it may come first */
    return gd - 1u < (d == ASTAR_E || d == ASTAR_W ? P->b.stride : P->t.stride)
               ? SCAN
               : NONE;
  off = d == ASTAR_N   ? -(int32_t)P->b.stride
        : d == ASTAR_S ? (int32_t)P->b.stride
                       : unit_dx[d];
  t = (uint32_t)((int32_t)i + (int32_t)v * off);
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

#endif

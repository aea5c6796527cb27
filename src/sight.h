/*
 * Line of sight by runs (sight.c's fast path), inline: sight.c's
 * clear_by_runs and Theta*'s legs on a layer of one cost (theta.c) both
 * read it, so a leg costs no call.  sight.c's opening comment describes
 * the rule and the runs.
 */
#ifndef ASTAR_SIGHT_H
#define ASTAR_SIGHT_H

#include "astar.h"
#include "bits.h"
#include "internal.h"

/* Are tiles lo .. hi of a row of bits all passable?  Up to ASTAR__SPAN
 * tiles in one read (bits.h), else a word at a time. */
static inline int astar__span_clear(const uint64_t *bits, uint32_t lo,
                                    uint32_t hi) {
  uint32_t wl, wh, w;
  uint64_t ml, mh;
  if (hi - lo < ASTAR__SPAN)
    return (~astar__bits_from(bits, lo) &
            (((uint64_t)2 << (hi - lo)) - 1u)) == 0;
  wl = lo >> 6;
  wh = hi >> 6;
  ml = ~(uint64_t)0 << (lo & 63u);
  mh = ~(uint64_t)0 >> (63u - (hi & 63u));
  if (wl == wh) /* a run of 57 to 64 tiles inside one word */
    return (bits[wl] & ml & mh) == (ml & mh);
  if ((bits[wl] & ml) != ml || (bits[wh] & mh) != mh) return 0;
  for (w = wl + 1; w < wh; w++)
    if (bits[w] != ~(uint64_t)0) return 0;
  return 1;
}

/* Are the k + 1 tiles i, i + step, ..., i + k step all passable?  A row
 * (step +-1) is a run of bits (astar__span_clear). */
static inline int astar__run_clear(const uint64_t *bits, uint32_t i,
                                   int64_t k, int32_t step) {
  if (step == 1 || step == -1)
    return step == 1 ? astar__span_clear(bits, i, i + (uint32_t)k)
                     : astar__span_clear(bits, i - (uint32_t)k, i);
  for (; k >= 0; k--, i = (uint32_t)((int32_t)i + step))
    if (!astar__bit(bits, i)) return 0;
  return 1;
}

/* The runs of a line along its major axis, in the direction of rising
 * index (a row of bits, or a column of the column-major copy), from tile
 * i, nM >= nm >= 1 tiles apart along the major and minor axes (sm: the
 * index step along the minor one).  The same answer as walk_of without
 * costs or heights (1: clear): in each minor row the line enters a run of
 * tiles, found with integer arithmetic and checked a word or two at a
 * time; between runs it steps to the next row, or through a corner
 * (grazing two tiles as walk_of does).  In the major units of tile
 * centres, the line leaves minor row m at major coordinate
 * nM (2m + 1) / (2 nm), inside the tile floor((nM (2m + 1) + nm) / (2 nm))
 * (q, counted from the start, with remainder r), at the tile's edge (a
 * corner) when r = 0.  Sides are at most ASTAR_MAX_SIDE: 32 bits do. */
static inline int astar__runs_clear(const uint64_t *bits, int rule,
                                    uint32_t i, uint32_t nM, uint32_t nm,
                                    int32_t sm) {
  /* one division: with nM = dq nm + e, (nM + nm) / (2 nm) is dq / 2
     remainder e + nm for an even dq, (dq + 1) / 2 remainder e for an
     odd one */
  /* nm >= 1 (astar__sight_runs); the analyzer loses it through the
     casts from int64_t */
  uint32_t two = 2 * nm, dq = nM / nm, /* NOLINT(clang-analyzer-core.DivideZero) */
           e = nM - dq * nm, dr = 2 * e,
           q = (dq + 1) / 2, r = (dq & 1u) ? e : e + nm, a = 0, m;
  for (m = 0; m < nm; m++) {
    uint32_t hi = i + (q - a) - (r == 0); /* the run: tiles i .. hi */
    if (!astar__span_clear(bits, i, hi)) return 0;
    if (r == 0) { /* through a corner: the next run starts diagonally */
      if (rule != ASTAR_DIAG_ALWAYS &&
          !(astar__bit(bits, hi + 1) |
            astar__bit(bits, (uint32_t)((int32_t)hi + sm))))
        return 0;
      i = (uint32_t)((int32_t)hi + 1 + sm);
    } else {
      i = (uint32_t)((int32_t)hi + sm);
    }
    a = q;
    r += dr;
    { /* without a branch: r >= two half the time on most slopes */
      uint32_t over = (uint32_t)(r >= two);
      q += dq + over;
      r -= two & (0u - over);
    }
  }
  return astar__run_clear(bits, i, (int64_t)(nM - a), 1);
}

/* The line by runs: along rows of bits where it runs more across than
 * down, along columns of cols (the column-major copy, bit x (height + 2)
 * + y, or NULL) where it runs more down, each from its end with the
 * smaller index (a line and its reverse get the same answer).  1: clear,
 * 0: blocked, -1: a steep line without cols, for the walk (sight.c; runs
 * of a tile or two).  Inline for Theta*'s legs. */
static inline int astar__sight_runs(const astar_grid *G, const uint64_t *bits,
                                    const uint64_t *cols, int rule,
                                    int32_t x0, int32_t y0, int32_t x1,
                                    int32_t y1) {
  int64_t nx = x1 > x0 ? x1 - x0 : x0 - x1;
  int64_t ny = y1 > y0 ? y1 - y0 : y0 - y1;
  int32_t sx = x1 > x0 ? 1 : -1;
  int32_t sy = y1 > y0 ? G->stride : -G->stride;
  uint32_t i = astar_index(G, x0, y0);
  if (ny == 0) return astar__run_clear(bits, i, nx, sx);
  if (nx >= ny) {
    if (x1 < x0) {
      i = astar_index(G, x1, y1);
      sy = -sy;
    }
    return astar__runs_clear(bits, rule, i, (uint32_t)nx, (uint32_t)ny, sy);
  }
  if (cols != NULL) { /* tile (x, y) is bit (x + 1) ph + y + 1 there */
    int32_t ph = G->height + 2, tx = x1 > x0 ? ph : -ph;
    uint32_t j = (uint32_t)(x0 + 1) * (uint32_t)ph + (uint32_t)(y0 + 1);
    if (y1 < y0) {
      j = (uint32_t)(x1 + 1) * (uint32_t)ph + (uint32_t)(y1 + 1);
      tx = -tx;
    }
    if (nx == 0) return astar__run_clear(cols, j, ny, 1);
    return astar__runs_clear(cols, rule, j, (uint32_t)ny, (uint32_t)nx, tx);
  }
  if (nx == 0) return astar__run_clear(bits, i, ny, sy);
  return -1;
}

#endif

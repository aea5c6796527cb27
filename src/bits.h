/*
 * Reading a passability bitmap many tiles at a time: the scans of JPS
 * (jps_scan.h) and of the subgoal graph (subgoal.c), the runs of a line of
 * sight (sight.h) and Theta*'s neighbour block (theta.c).
 *
 * Every bitmap of a grid has astar__bitmap_words(ntiles) words, the last
 * one past the last tile's and always zero, so a read that starts at a
 * tile may take the 8 bytes from that tile's byte on: one load, where a
 * read from any bit of a word needs the next word too.  On a
 * little-endian machine the bitmap's bytes are in tile order, and
 * astar__bits_from is that one load and a shift (below 8 bits), giving at
 * least ASTAR__SPAN + 1 tiles; elsewhere it reads the two words (the zero
 * word makes the second always there).  A scan steps ASTAR__SPAN tiles at
 * a time and needs one more bit than it answers for: a forced neighbour
 * is found by comparing a tile's neighbour with the one after it.
 */
#ifndef ASTAR_BITS_H
#define ASTAR_BITS_H

#include <stdint.h>
#include <string.h>

#define ASTAR__SPAN 56u
#define ASTAR__SPAN_MASK (~(uint64_t)0 >> (64u - ASTAR__SPAN))

/* Bits 0 .. ASTAR__SPAN of the result are tiles pos .. pos + ASTAR__SPAN
 * (0 past the last tile); higher bits are further tiles or 0. */
static inline uint64_t astar__bits_from(const uint64_t *bm, uint32_t pos) {
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint64_t v;
  memcpy(&v, (const unsigned char *)bm + (pos >> 3), sizeof v);
  return v >> (pos & 7u);
#else
  size_t w = (size_t)pos >> 6;
  unsigned s = pos & 63u;
  return (bm[w] >> s) | ((bm[w + 1] << 1) << (63u - s));
#endif
}

/* The same from any pos: tiles before 0 read as 0 (blocked). */
static inline uint64_t astar__bits_at(const uint64_t *bm, int64_t pos) {
  if (pos < 0) {
    if (pos <= -64) return 0;
    return bm[0] << (unsigned)-pos;
  }
  return astar__bits_from(bm, (uint32_t)pos);
}

#endif

/*
 * The one open list: a binary heap of astar_heap_entry, smallest key
 * first, then (by default) the larger g, with decrease-key: every move of
 * an entry records its new index in pos[node], so the heap never holds
 * two entries for one node.  A*, the rest of its family, JPS and both
 * sides of bidirectional search use it.
 *
 * mode is a constant in every caller, so each instantiation compiles to
 * the plain integer comparison unless a tie rule asks for more.
 */
#ifndef ASTAR_HEAP_H
#define ASTAR_HEAP_H

#include "astar.h"

#include <stddef.h>

/* Tie rules past equal keys: larger g by default; straight: smaller
 * distance from the line first (aux); random: smaller g first, so that
 * every equal-cost parent of a node is expanded before it. */
#define ASTAR__HEAP_STRAIGHT 512
#define ASTAR__HEAP_RANDOM 1024

static inline int astar__entry_less(const astar_heap_entry *a,
                                    const astar_heap_entry *b,
                                    const int mode) {
  if (!(mode & (ASTAR__HEAP_STRAIGHT | ASTAR__HEAP_RANDOM)))
    return a->key < b->key || (a->key == b->key && a->g > b->g);
  if (a->key != b->key) return a->key < b->key;
  if ((mode & ASTAR__HEAP_STRAIGHT) && a->aux != b->aux) return a->aux < b->aux;
  if (mode & ASTAR__HEAP_RANDOM) return a->g < b->g;
  return a->g > b->g;
}

/* Moves e up from index i (a new slot, or e's own slot after its key
 * decreased) to its place. */
static inline void astar__heap_up(astar_heap_entry *heap, uint32_t *pos,
                                  size_t i, astar_heap_entry e,
                                  const int mode) {
  while (i > 0) {
    size_t p = (i - 1) / 2;
    if (!astar__entry_less(&e, &heap[p], mode)) break;
    heap[i] = heap[p];
    pos[heap[i].node] = (uint32_t)i;
    i = p;
  }
  heap[i] = e;
  pos[e.node] = (uint32_t)i;
}

/* Removes heap[0]; n is the size before removal (n >= 2: with one entry
 * the caller simply empties the heap). */
static inline void astar__heap_pop(astar_heap_entry *heap, uint32_t *pos,
                                   size_t n, const int mode) {
  astar_heap_entry e = heap[--n];
  size_t i = 0;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && astar__entry_less(&heap[c + 1], &heap[c], mode)) c++;
    if (!astar__entry_less(&heap[c], &e, mode)) break;
    heap[i] = heap[c];
    pos[heap[i].node] = (uint32_t)i;
    i = c;
  }
  heap[i] = e;
  pos[e.node] = (uint32_t)i;
}

#endif

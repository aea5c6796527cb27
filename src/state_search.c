/*
 * State-space search's open list and node records (astar_states): the
 * part of astar.search that is the same for every problem.  The binding
 * (lua_search.c) turns states into node numbers and calls the user's
 * callbacks; this file keeps g, h, parents and heap.h's open list.
 */
#include "astar.h"
#include "heap.h"
#include "internal.h"

#include <math.h>
#include <string.h>

/* per node: g, h, parent, heap position, mark */
#define NODE_BYTES (2 * sizeof(double) + 2 * sizeof(uint32_t) + 1)

void astar_states_init(astar_states *o, astar_alloc_fn alloc, void *ud) {
  memset(o, 0, sizeof *o);
  o->alloc = alloc;
  o->alloc_ud = ud;
}

void astar_states_release(astar_states *o) {
  if (o->alloc == NULL) return;
  astar__mem_free(o->alloc, o->alloc_ud, o->g, o->cap, NODE_BYTES);
  astar__mem_free(o->alloc, o->alloc_ud, o->heap, o->heap_cap,
                  sizeof(astar_heap_entry));
  astar_states_init(o, o->alloc, o->alloc_ud);
}

size_t astar_states_memory(const astar_states *o) {
  return (size_t)o->cap * NODE_BYTES + o->heap_cap * sizeof(astar_heap_entry);
}

/* All node arrays in one block, replaced whole when it grows. */
static int grow_nodes(astar_states *o) {
  uint32_t cap = o->cap ? o->cap * 2 : 256;
  double *g;
  if (o->cap >= 0x40000000u) return ASTAR_ETOOBIG;
  g = astar__mem(o->alloc, o->alloc_ud, cap, NODE_BYTES);
  if (g == NULL) return ASTAR_ENOMEM;
  if (o->n != 0) {
    memcpy(g, o->g, o->n * sizeof(double));
    memcpy(g + cap, o->h, o->n * sizeof(double));
    memcpy((uint32_t *)(void *)(g + 2 * (size_t)cap), o->parent,
           o->n * sizeof(uint32_t));
    memcpy((uint32_t *)(void *)(g + 2 * (size_t)cap) + cap, o->pos,
           o->n * sizeof(uint32_t));
    memcpy((uint8_t *)(void *)(g + 2 * (size_t)cap) + 8 * (size_t)cap,
           o->mark, o->n);
  }
  astar__mem_free(o->alloc, o->alloc_ud, o->g, o->cap, NODE_BYTES);
  o->g = g;
  o->h = g + cap;
  o->parent = (uint32_t *)(void *)(g + 2 * (size_t)cap);
  o->pos = o->parent + cap;
  o->mark = (uint8_t *)(void *)(o->pos + cap);
  o->cap = cap;
  return ASTAR_OK;
}

int astar_states_make(astar_states *o, double h, uint32_t *id) {
  int st;
  if (o->n == o->cap && (st = grow_nodes(o)) != ASTAR_OK) return st;
  *id = o->n++;
  o->g[*id] = HUGE_VAL;
  o->h[*id] = h;
  o->parent[*id] = UINT32_MAX;
  o->mark[*id] = 0;
  return ASTAR_OK;
}

static uint64_t key_of(double f) {
  uint64_t bits;
  f += 0.0; /* no -0 */
  memcpy(&bits, &f, sizeof bits);
  return bits;
}

int astar_states_reach(astar_states *o, uint32_t id, uint32_t parent,
                       double g) {
  astar_heap_entry e;
  size_t at;
  if (o->mark[id] == 2 || g >= o->g[id]) return ASTAR_OK;
  if (o->mark[id] == 0) {
    if (o->heap_n == o->heap_cap) {
      void *p = o->heap;
      int st = astar__grow(o->alloc, o->alloc_ud, &p, &o->heap_cap,
                           o->heap_n + 1, sizeof(astar_heap_entry), 256);
      if (st != ASTAR_OK) return st;
      o->heap = p;
    }
    at = o->heap_n++;
    o->mark[id] = 1;
  } else {
    at = o->pos[id];
  }
  o->g[id] = g;
  o->parent[id] = parent;
  e.key = key_of(g + o->h[id]);
  e.g = g;
  e.node = id;
  e.aux = 0;
  astar__heap_up(o->heap, o->pos, at, e, 0);
  return ASTAR_OK;
}

int astar_states_pop(astar_states *o, uint32_t *id, double *g) {
  if (o->heap_n == 0) return 0;
  *id = o->heap[0].node;
  *g = o->heap[0].g;
  if (o->heap_n > 1) astar__heap_pop(o->heap, o->pos, o->heap_n, 0);
  o->heap_n--;
  o->mark[*id] = 2;
  return 1;
}

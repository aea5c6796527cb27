/*
 * Snapshots: an immutable copy of a prepared map that threads share.
 *
 * A copy holds what a search reads and nothing else: the base layer
 * (costs, move masks, passability and its column-major copy for JPS),
 * the heights, the zone labels, and per listed unit class its table and
 * its own baked layers, and the links.  Clearance and the layers of big
 * units are left out (one-tile units only); so are terrain classes
 * (baked into the unit layers already) and the zone repair scratch (a
 * snapshot is never edited).  The copy is an astar_grid like any other,
 * so every engine searches it unchanged, through a const pointer.
 *
 * The holder count is the one mutable field; it changes through GCC's
 * __atomic builtins (the core is C99, without <stdatomic.h>), which gcc,
 * clang and MinGW-w64 all provide.
 */
#include "astar.h"
#include "internal.h"

#include <string.h>

#if !defined(__GNUC__) && !defined(__clang__)
#error "snapshot.c needs the __atomic builtins of gcc or clang"
#endif

/* ---- the holder count ---- */

void astar_snapshot_retain(astar_snapshot *s) {
  __atomic_add_fetch(&s->refs, 1, __ATOMIC_RELAXED);
}

int astar_snapshot_retain_live(astar_snapshot *s) {
  int n = __atomic_load_n(&s->refs, __ATOMIC_RELAXED);
  while (n > 0) {
    if (__atomic_compare_exchange_n(&s->refs, &n, n + 1, 1, __ATOMIC_RELAXED,
                                    __ATOMIC_RELAXED))
      return 1;
  }
  return 0;
}

int astar_snapshot_release(astar_snapshot *s) {
  /* acq_rel: every holder's reads happen before the free that follows */
  return __atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL) == 0;
}

void astar_snapshot_free(astar_snapshot *s) {
  astar_alloc_fn alloc;
  void *ud;
  if (s == NULL) return;
  alloc = s->grid.alloc;
  ud = s->grid.alloc_ud;
  astar__mem_free(alloc, ud, s->meta, s->meta_size, 1);
  astar_grid_release(&s->grid);
  alloc(ud, s, sizeof *s, 0);
}

/* ---- the copy ---- */

/* A copy of n elements of size elem (NULL when src is NULL or on
 * failure: *ok = 0 then); whole: made as a block written whole (pages.c),
 * for the arrays the grid's release frees as such. */
static void *dup_as(astar_grid *G, const void *src, size_t n, size_t elem,
                    int *ok, int whole) {
  void *p;
  if (src == NULL || n == 0) return NULL;
  p = whole ? astar__alloc_whole(G, n, elem) : astar__alloc(G, n, elem);
  if (p == NULL) {
    *ok = 0;
    return NULL;
  }
  memcpy(p, src, n * elem);
  return p;
}
#define dup(G, src, n, elem, ok) dup_as(G, src, n, elem, ok, 0)
#define dup_whole(G, src, n, elem, ok) dup_as(G, src, n, elem, ok, 1)

static void copy_zones(astar_grid *G, astar_zones *dst,
                       const astar_zones *src, int *ok) {
  memset(dst, 0, sizeof *dst);
  if (!astar__zones_ready(src)) {
    dst->stale = 1;
    return;
  }
  dst->cap = src->cap;
  dst->used = src->used;
  dst->count = src->count;
  dst->label = dup_whole(G, src->label, G->ntiles, sizeof(uint32_t), ok);
  dst->parent = dup(G, src->parent, src->cap, sizeof(uint32_t), ok);
  dst->size = dup(G, src->size, src->cap, sizeof(uint32_t), ok);
  /* on failure the grid's release frees the parts that were made */
}

static void copy_unit(astar_grid *G, const astar_grid *g, int k, int *ok) {
  const astar_unit *src = g->units[k];
  size_t words = astar__bitmap_words(g->ntiles);
  astar_unit *u;
  if (src == NULL) return;
  u = astar__alloc(G, 1, sizeof *u);
  if (u == NULL) {
    *ok = 0;
    return;
  }
  memcpy(u, src, sizeof *u);
  u->cost = NULL;
  u->moves = NULL;
  u->passable = NULL;
  u->passable_t = NULL;
  memset(&u->zones, 0, sizeof u->zones);
  memset(&u->clear, 0, sizeof u->clear); /* one-tile units only */
  G->units[k] = u;
  if (!u->own) return;
  G->units_own++;
  u->cost = dup(G, src->cost, g->ntiles, sizeof(float), ok);
  u->moves = dup(G, src->moves, g->ntiles, 1, ok);
  u->passable = dup(G, src->passable, words, sizeof(uint64_t), ok);
  u->passable_t = dup(G, src->passable_t, words, sizeof(uint64_t), ok);
  copy_zones(G, &u->zones, &src->zones, ok);
}

static int copy_grid(astar_grid *G, const astar_grid *g, const int *units,
                     int nunits) {
  size_t words = astar__bitmap_words(g->ntiles);
  astar_alloc_fn alloc = G->alloc;
  void *ud = G->alloc_ud;
  int ok = 1, k;
  memcpy(G, g, sizeof *G);
  G->alloc = alloc; /* the copy's own allocator */
  G->alloc_ud = ud;
  /* nothing of g's is owned by the copy until it is duplicated */
  G->cost = NULL;
  G->moves = NULL;
  G->passable = NULL;
  G->passable_t = NULL;
  G->terrain = NULL;
  G->heights = NULL;
  memset(G->units, 0, sizeof G->units);
  G->units_own = 0;
  memset(&G->zones, 0, sizeof G->zones);
  G->zscratch = NULL;
  G->landmarks = NULL; /* the grid's own (a snapshot searches without) */
  G->subgoals = NULL; /* prepared graphs stay with the grid */
  /* clearance and the big units' layers are not copied (a snapshot
   * searches one-tile units: the binding refuses size > 1) */
  memset(&G->clear, 0, sizeof G->clear);
  G->links = NULL;
  G->link_bits = NULL;
  G->nlinks = G->links_cap = 0;
  if (g->nlinks > 0) { /* links are searched like the grid's */
    G->links = dup(G, g->links, g->nlinks, sizeof(astar_link), &ok);
    if (G->links != NULL) G->nlinks = G->links_cap = g->nlinks;
    G->link_bits = dup(G, g->link_bits, words, sizeof(uint64_t), &ok);
  }
  G->cost = dup_whole(G, g->cost, g->ntiles, sizeof(float), &ok);
  G->moves = dup_whole(G, g->moves, g->ntiles, 1, &ok);
  G->passable = dup(G, g->passable, words, sizeof(uint64_t), &ok);
  G->passable_t = dup(G, g->passable_t, words, sizeof(uint64_t), &ok);
  G->heights = dup(G, g->heights, g->ntiles, sizeof(float), &ok);
  copy_zones(G, &G->zones, &g->zones, &ok);
  copy_unit(G, g, 0, &ok);
  if (units == NULL) {
    for (k = 1; k < ASTAR_MAX_UNITS; k++) copy_unit(G, g, k, &ok);
  } else {
    for (k = 0; k < nunits; k++)
      if (units[k] > 0 && G->units[units[k]] == NULL)
        copy_unit(G, g, units[k], &ok);
  }
  return ok ? ASTAR_OK : ASTAR_ENOMEM;
}

int astar_snapshot_new(astar_snapshot **out, astar_grid *g,
                       const int *units, int nunits, const void *meta,
                       size_t meta_size, astar_alloc_fn alloc, void *ud) {
  astar_snapshot *s;
  int k, st;
  *out = NULL;
  if (g->cost == NULL) return ASTAR_EINVAL;
  /* the listed units must be defined; prepare them (zones too) */
  if (units == NULL) {
    st = astar_grid_prepare(g, ASTAR_ALL_UNITS, ASTAR_PREPARE_ZONES);
  } else {
    st = astar_grid_prepare(g, 0, ASTAR_PREPARE_ZONES);
    for (k = 0; k < nunits && st == ASTAR_OK; k++) {
      if (!astar__unit_defined(g, units[k])) return ASTAR_EINVAL;
      st = astar_grid_prepare(g, units[k], ASTAR_PREPARE_ZONES);
    }
  }
  if (st != ASTAR_OK) return st;
  s = alloc(ud, NULL, 0, sizeof *s);
  if (s == NULL) return ASTAR_ENOMEM;
  memset(s, 0, sizeof *s);
  astar_grid_zero(&s->grid);
  s->grid.alloc = alloc;
  s->grid.alloc_ud = ud;
  st = copy_grid(&s->grid, g, units, nunits);
  if (st == ASTAR_OK && meta_size > 0) {
    s->meta = alloc(ud, NULL, 0, meta_size);
    if (s->meta == NULL)
      st = ASTAR_ENOMEM;
    else {
      memcpy(s->meta, meta, meta_size);
      s->meta_size = meta_size;
    }
  }
  if (st != ASTAR_OK) {
    astar_snapshot_free(s);
    return st;
  }
  s->bytes = sizeof *s + meta_size + astar_grid_memory(&s->grid);
  s->refs = 1;
  *out = s;
  return ASTAR_OK;
}

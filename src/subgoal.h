/*
 * What the files of the prepared subgoal graph share (subgoal.c builds
 * and keeps it, subgoal_levels.c contracts it, subgoal_search.c searches
 * it; find_path.c and jps.c ask for it and for the jump table): the
 * graph's layout, its edge words and the view a scan reads.  Its search's
 * entry points are in internal.h with the other engines'.
 */
#ifndef ASTAR_SUBGOAL_H
#define ASTAR_SUBGOAL_H

#include "internal.h"

typedef struct astar__subgoals {
  struct astar__subgoals *next; /* the next unit class's graph */
  int unit;
  uint64_t version;  /* the map's edit counter when built */
  uint32_t nsub, nedges, edges_cap;
  size_t nwords;
  uint64_t *bits;    /* bit i: tile i is a subgoal (row-major) */
  uint64_t *bits_t;  /* the same, column-major */
  uint32_t *rank;    /* subgoals in the words before word w */
  uint32_t *first;   /* subgoal k's edges: adj[first[k] .. first[k+1]) */
  uint32_t *adj;     /* the subgoal (index) each edge leads to */
  uint32_t *wt;      /* each edge's length: straight and diagonal steps
                        (ASTAR__SG_W), edges_cap of them; NULL where
                        nothing was contracted (each weighs its octile
                        distance) */
  struct astar__sg_edge {
    uint32_t through; /* a shortcut: the tile of the subgoal it was added
                         for; ASTAR__SG_PLAIN: an edge of the plain graph */
    uint32_t to_x, to_y; /* a shortcut x -> y through c: c's edges to x
                            and to y (indices into adj; UINT32_MAX where
                            missing); a plain edge x -> y: to_x holds
                            ASTAR__SG_DFX when its diagonal steps first
                            are open from x, ASTAR__SG_DFY from y */
  } *ex;             /* what unfolding an edge reads, one 12-byte record
                        per edge (one load, not three arrays); NULL where
                        nothing was contracted */
  struct astar__subgoal_at {
    uint32_t tile;
    int32_t x, y;
    uint32_t level; /* contraction order; UINT32_MAX: a global subgoal */
    uint32_t down;  /* adj[first[k] .. down): edges to levels >= k's;
                       adj[down .. first[k + 1]): to lower levels */
  } *at;             /* subgoal k's tile, padded coordinates, level */
  uint32_t nglobal;  /* subgoals left global (the rest contracted) */
  uint32_t ncore;    /* edges between global subgoals (each way) */
  size_t njt;        /* words of jumps */
  uint32_t *jumps;   /* JPS+ instead of a graph: a word per tile
                        (jps_table.c's astar_jumps_build; then no
                        subgoals), or NULL */
  int probe;         /* short queries try plain JPS first (find_path.c's
                        probe_pays said so at the build) */
} astar__subgoals;
/* subgoal.c: the rules a graph or a jump table rests on (astar_subgoal_
 * build's refusals); fills *J.  keep makes jumps (njumps words from the
 * map's allocator) unit's entry, replacing any, and owns them from then
 * on; on ASTAR_ENOMEM the caller still owns them. */
int astar__static_rules(const astar_grid *g, int unit, int *refusal,
                        astar__jps_layer *J);
int astar__static_keep(astar_grid *g, int unit, uint32_t *jumps,
                       size_t njumps);
/* subgoal.c: unit's graph, built and kept (astar_subgoal_build, in
 * find_path.c, adds the probe's answer, which needs a search); and that
 * answer set on it */
int astar__subgoal_build(astar_grid *g, int unit, int *refusal);
void astar__subgoal_set_probe(astar_grid *g, int unit, int on);
/* unit's jump table when built and not stale, else NULL */
const uint32_t *astar__jumps_for(const astar_grid *g, int unit);
/* The map as a scan sees it: passability and subgoals in rows and in
 * columns, and one more tile that stops a scan (the goal of a query). */
typedef struct {
  const uint64_t *pass, *pass_t, *sub, *sub_t;
  uint32_t stride, tstride; /* row length, column length (height + 2) */
  uint32_t extra, extra_t;  /* NONE: none */
} astar__view;
typedef int (*astar__add_fn)(void *ud, uint32_t tile);
/* an edge's steps: straight ones in the low 16 bits, diagonal above */
#define ASTAR__SG_W(straight, diagonal) \
  ((uint32_t)(straight) | ((uint32_t)(diagonal) << 16))
#define ASTAR__SG_STRAIGHT(w) ((w) & 0xffffu)
#define ASTAR__SG_DIAGONAL(w) ((w) >> 16)
#define ASTAR__SG_PLAIN 0xffffffffu
#define ASTAR__SG_DFX 1u
#define ASTAR__SG_DFY 2u
/* the index of subgoal tile t */
static inline uint32_t astar__subgoal_id(const astar__subgoals *s,
                                         uint32_t t) {
  size_t w = t >> 6;
  uint64_t m = s->bits[w] & (((uint64_t)1 << (t & 63u)) - 1u);
#if (defined(__GNUC__) || defined(__clang__)) && defined(__POPCNT__)
  return s->rank[w] + (uint32_t)__builtin_popcountll(m);
#else
  /* without the instruction the builtin is a library call: count in
     place (bit pairs, nibbles, then the bytes summed by a multiply) */
  m = m - ((m >> 1) & 0x5555555555555555u);
  m = (m & 0x3333333333333333u) + ((m >> 2) & 0x3333333333333333u);
  m = (m + (m >> 4)) & 0x0f0f0f0f0f0f0f0fu;
  return s->rank[w] + (uint32_t)((m * 0x0101010101010101u) >> 56);
#endif
}
/* subgoal_levels.c: contracts what it can of s's plain graph (edges in
 * first/adj) and lays the edges out again with levels, weights and vias:
 * each subgoal's edges to levels at or above its own first, then the
 * rest (at[k].down between them) */
int astar__subgoal_contract(astar_grid *g, astar__subgoals *s);
/* the view of unit layer J with graph s (no extra tile) */
void astar__subgoal_view(const astar_grid *g, const astar__jps_layer *J,
                         const astar__subgoals *s, astar__view *V);
/* calls add for each tile s reaches directly (subgoals, the extra tile) */
int astar__subgoal_scan(const astar__view *V, uint32_t s, astar__add_fn add,
                        void *ud);
/* unit's subgoal graph when built (not a jump table) and not stale, else
 * NULL */
const astar__subgoals *astar__subgoals_for(const astar_grid *g, int unit);

#endif

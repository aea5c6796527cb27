/* Core-private helpers shared between the core's own files. */
#ifndef ASTAR_INTERNAL_H
#define ASTAR_INTERNAL_H

#include "astar.h"

#include <string.h>
#include <math.h>

/* a * b, or 0 when it overflows size_t */
static inline size_t astar__mul_size(size_t a, size_t b) {
  if (a != 0 && b > SIZE_MAX / a) return 0;
  return a * b;
}

/* Search stamps (search.c, jps.c and the other engines): generation << 4
 * | closed << 3 | parent direction. */
#define STAMP_CLOSED 8u
#define STAMP_DIR 7u
#define STAMP_GEN_MASK (~(uint32_t)15u)

/* Quantises f onto multiples of q (inv_q = 1/q) so that mathematically
 * equal f values, which differ in their last bits, compare equal, and
 * returns the bits of the result: for f >= 0 they order like the numbers,
 * so heap keys compare as integers.  Truncation is floor for f >= 0; past
 * 2^62 doubles are integers already. */
static inline uint64_t astar__quantise(double f, double inv_q) {
  double k = f * inv_q;
  uint64_t bits;
  if (k < 4611686018427387904.0) k = (double)(int64_t)k;
  memcpy(&bits, &k, sizeof bits);
  return bits;
}

/* The index of the lowest set bit of a nonzero move mask: the next
 * direction to try. */
#if defined(__GNUC__) || defined(__clang__)
#define astar__lowest_bit(m) ((unsigned)__builtin_ctz(m))
#else
static inline unsigned astar__lowest_bit(unsigned m) {
  unsigned d = 0;
  while (!(m & 1u)) {
    m >>= 1;
    d++;
  }
  return d;
}
#endif

static inline int astar__bit(const uint64_t *bits, uint32_t i) {
  return (int)((bits[i >> 6] >> (i & 63)) & 1u);
}

static inline void astar__set_bit(uint64_t *bits, uint32_t i, int on) {
  uint64_t bit = (uint64_t)1 << (i & 63);
  if (on)
    bits[i >> 6] |= bit;
  else
    bits[i >> 6] &= ~bit;
}

/* The directions a diagonal rule may use (bit d: direction d). */
static inline unsigned astar__rule_dirs(int rule) {
  if (rule == ASTAR_DIAG_NEVER) return 0x0Fu;
  if (rule == ASTAR_DIAG_HEX) return 0x0Fu | 1u << ASTAR_NE | 1u << ASTAR_SW;
  return 0xFFu;
}

/* A tile callback's result, valid in search generation gen. */
typedef struct astar_memo {
  double cost;
  uint32_t gen;
} astar__memo;

/* grid.c */
void *astar__alloc(astar_grid *g, size_t count, size_t elem);
void astar__free(astar_grid *g, void *p, size_t count, size_t elem);
size_t astar__bitmap_words(uint32_t ntiles);
uint8_t astar__moves(const astar_grid *g, const uint64_t *bits, uint32_t i);
void astar__refresh_moves(astar_grid *g, const astar_unit *u, int32_t px0,
                          int32_t py0, int32_t px1, int32_t py1);
void astar__min_remove(astar_min *m, float c);
void astar__min_add(astar_min *m, float c);
void astar__min_scan(const astar_grid *g, const float *cost, astar_min *m);
void astar__range_remove(astar_range *r, float c);
void astar__range_add(astar_range *r, float c);
int astar__range_uniform(const astar_grid *g, const float *cost,
                         const uint64_t *passable, astar_range *r, float *c);
void astar__flip_column_bit(const astar_grid *g, uint64_t *t, uint32_t i);

/* What JPS reads for one unit class: its passability, where its
 * column-major copy lives (made on JPS's first use), its tile costs and
 * the one cost every passable tile has. */
typedef struct astar__jps_layer {
  const uint64_t *passable;
  uint64_t **columns;
  const float *cost;
  float uniform;
} astar__jps_layer;

/* units.c: keeping the units' own layers in step with the grid's */
uint8_t astar__height_filter(const astar_grid *g, const astar_unit *u,
                             uint32_t i, uint8_t moves);
void astar__units_cost_changed(astar_grid *g, uint32_t i);
void astar__units_tile_changed(astar_grid *g, int32_t x, int32_t y,
                               uint32_t i);
void astar__units_stale(astar_grid *g);
void astar__units_release(astar_grid *g);
size_t astar__units_memory(const astar_grid *g);
/* Fills *J for a defined unit (rebuilding stale layers): returns 1 when
 * every passable tile costs the same, 0 when not, or ASTAR_ENOMEM. */
int astar__unit_jps_layer(astar_grid *g, int unit, astar__jps_layer *J);
/* Search scratch shared by the engines (search.c): allocate on first use,
 * start a new generation (returns the stamp tag), double the heap. */
uint32_t astar__next_generation(astar_grid *G);
int astar__grow_heap(astar_grid *G);

/* ---- heuristics (search.c sets them up; every engine reads them) ---- */

/* Every heuristic is h = A * max(dx, dy) + B * min(dx, dy), or
 * A * sqrt(dx^2 + dy^2) for euclidean, or A * max(|dx|, |dy|, |dx + dy|)
 * for the hex distance (axial coordinates, neighbours N E S W NE SW), with
 * A and B already multiplied by the cheapest tile cost and the weight. */
enum { H_PLAIN = 0, H_EUCLID, H_HEX };

typedef struct astar__heuristic {
  int shape; /* H_* */
  double A, B;
  int32_t gx, gy;
} heuristic;

/* The default (or named) heuristic of q on G towards (q->gx, q->gy),
 * scaled by min_cost and q->weight. */
void astar__heuristic_init(heuristic *h, astar_grid *G, const astar_query *q,
                           double min_cost);

static inline double heuristic_shaped(const heuristic *h, int32_t dx, int32_t dy) {
  int64_t ax = dx < 0 ? -(int64_t)dx : dx, ay = dy < 0 ? -(int64_t)dy : dy;
  if (h->shape == H_HEX) {
    int64_t s = (int64_t)dx + dy, m = ax > ay ? ax : ay;
    if (s < 0) s = -s;
    return h->A * (double)(s > m ? s : m);
  } else {
    double fx = (double)ax, fy = (double)ay;
    return h->A * sqrt(fx * fx + fy * fy);
  }
}

static inline double heuristic_d(const heuristic *h, int32_t dx, int32_t dy) {
  if (h->shape != H_PLAIN) return heuristic_shaped(h, dx, dy);
  if (dx < 0) dx = -dx;
  if (dy < 0) dy = -dy;
  return dx > dy ? h->A * dx + h->B * dy : h->A * dy + h->B * dx;
}

static inline double heuristic_at(const heuristic *h, int32_t x, int32_t y) {
  return heuristic_d(h, x - h->gx, y - h->gy);
}

/* search.c: does the query use an option beyond the plain search
 * (another algorithm of the family, ties, goals, cutoffs, closest, start
 * and goal handling, a heuristic function)? */
int astar__uses_options(const astar_query *q);

/* Jump point search (jps.c) over the passability bitmap `passable` (one
 * bit per padded tile, as astar_grid.passable).  The caller has checked
 * the query (in range, astar_jps_unsupported(G, q) == NULL).  Same result
 * and path walk as astar_find_path. */
int astar__jps(astar_grid *G, const astar__jps_layer *J,
               const astar_query *q, astar_result *r);

/* search_opts.c: scratch of the query options, allocated on first use and
 * kept by the grid (G->extra). */
typedef struct astar__target {
  int32_t x, y;
  int32_t index;  /* in q->goals; -1 for gx, gy */
  uint32_t node;
  double offset;  /* subtracted from the heuristic (next to a blocked goal) */
} astar__target;

typedef struct astar_extra {
  uint32_t *depth;         /* ntiles: steps from the start (max_length) */
  double *count;           /* ntiles: equal-cost paths (random ties) */
  astar__target *targets;  /* the goals as given */
  size_t targets_cap;
  uint64_t *set;           /* node << 32 | target: sorted goal tiles */
  size_t set_cap;
} astar__extra;

int astar__extra_arrays(astar_grid *g, int depth, int count);
int astar__extra_goals(astar_grid *g, size_t targets, size_t set);
void astar__extra_release(astar_grid *g);
size_t astar__extra_memory(const astar_grid *g);
void astar__sort_set(uint64_t *set, size_t n);
/* The target index of node in the sorted set, or -1. */
long astar__set_find(const uint64_t *set, size_t n, uint32_t node);

/* search.c: the search scratch, which zones.c borrows between searches */
int astar__ensure_scratch(astar_grid *g);
uint32_t astar__next_tag(astar_grid *g);

/* zones.c */
enum { ASTAR__ZONES_OPENED = 1, ASTAR__ZONES_CLOSED = 2,
       ASTAR__ZONES_MOVES = 3 /* moves gained and lost (heights) */ };
/* After the moves of the 3x3 tiles around (x, y) changed in a layer: an
 * OPENED or CLOSED tile (x, y), or MOVES of a height change. */
void astar__zones_changed(astar_grid *g, astar_zones *z, const uint8_t *moves,
                          const uint64_t *passable, int oneway, int32_t x,
                          int32_t y, int kind);
void astar__zones_release(astar_grid *g, astar_zones *z);
size_t astar__zones_memory(const astar_zones *z, uint32_t ntiles);
/* *apart = 1 when tiles a and b are in different zones of unit's layer
 * (labelled first if needed: ENOMEM). */
int astar__zones_apart(astar_grid *g, int unit, uint32_t a, uint32_t b,
                       int *apart);
static inline void astar__zones_stale(astar_zones *z) { z->stale = 1; }
/* search_bidir.c / search_ida.c: scratch of IDA* and bidirectional search,
 * kept by the grid (G->more) and allocated on first use. */
typedef struct astar__open { /* an open-list entry (lazy deletion) */
  double key, g;
  uint32_t node;
} astar__open;

typedef struct astar__frame { /* one tile of IDA*'s current path */
  double g;
  uint32_t node;
  uint32_t moves; /* directions not tried yet */
} astar__frame;

typedef struct astar_more {
  /* bidirectional: the backward side's stamps (own generation), the g
     labels of both sides, the two open lists (queues for BFS) */
  uint32_t *stamp_b;
  uint32_t generation;
  double *gf, *gb;
  astar__open *open[2];
  size_t open_cap[2];
  /* IDA*: the current path, grown as needed */
  astar__frame *frames;
  size_t frames_cap;
} astar__more;

int astar__more_grow(astar_grid *G, void **p, size_t *cap, size_t need,
                     size_t elem);
void astar__more_release(astar_grid *G);
size_t astar__more_memory(const astar_grid *G);
/* Start/goal checks, layer and heuristic bound shared by these engines:
 * ASTAR_OK to search, 1 when r->outcome is known, or an error. */
int astar__engine_setup(astar_grid *G, const astar_query *q, astar_result *r,
                        astar_layer *L, double *bound);
int astar__bidir(astar_grid *G, const astar_query *q, astar_result *r);
int astar__ida(astar_grid *G, const astar_query *q, astar_result *r);

#endif

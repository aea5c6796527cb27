/*
 * What the core's files share privately.  One naming rule: everything
 * here that is not static inline to one use starts with astar__ (types
 * too: astar__run, astar__extra, ...), so a reader tells the public API
 * (astar_) from the private one at a glance.
 *
 * The files, bottom up (each uses only the ones above it):
 *   internal.h, heap.h           inline helpers, the one open list
 *   context.c                    the search context (astar_search)
 *   zones.c                      zone labels and their repair
 *   layer.c                      move masks, min/range, unit layers, prepare
 *   clearance.c                  clearance, the layers of large units
 *   units.c                      terrain, heights, unit-class tables
 *   links.c                      grid links (stairs, teleports)
 *   grid.c                       storage, edits, the edit counter
 *   text.c                       text maps, MovingAI header
 *   engine.c, overlay.c          shared by the engines; a query's avoid and
 *                                extra_cost stamped in the context
 *   sight.c                      line of sight, leg costs, smoothing
 *   astar_loop.c, jps.c, ida.c, bidir.c, theta.c   the engines
 *   jps_table.c                  JPS+'s jump table (built by prepare)
 *   find_path.c                  the front door: checks, capability table,
 *                                dispatch, begin/step
 *   field.c                      fields: distance maps, flee maps, sums
 *                                (beside the engines: calls none of them)
 *   field_follow.c               following a field (next step, links)
 *   path_check.c                 paths that stay valid: check, repair
 *   graph.c, state_search.c      explicit graphs; state-space open list
 *   graph_field.c                fields on explicit graphs
 *   graph_search.c               searches on explicit graphs
 */
#ifndef ASTAR_INTERNAL_H
#define ASTAR_INTERNAL_H

#include "astar.h"

#include <string.h>
#include <math.h>

/* What runs once per generated node (the bucket queue's push, the
 * landmark heuristic, a jump) or is a loop compiled once per constant
 * mode: inlined into its callers, which the compiler may decline for its
 * size.  ASTAR__NOINLINE: each such instantiation a function of its own
 * (registers and layout chosen for it alone, not for a caller holding
 * all of them). */
#if defined(__GNUC__) || defined(__clang__)
#define ASTAR__HOT_INLINE static inline __attribute__((always_inline))
#define ASTAR__NOINLINE static __attribute__((noinline))
#else
#define ASTAR__HOT_INLINE static inline
#define ASTAR__NOINLINE static
#endif

/* a * b, or 0 when it overflows size_t */
static inline size_t astar__mul_size(size_t a, size_t b) {
  if (a != 0 && b > SIZE_MAX / a) return 0;
  return a * b;
}

/* Allocation through an allocator (count * elem bytes; NULL on overflow or
 * failure) and the matching free (p may be NULL). */
static inline void *astar__mem(astar_alloc_fn alloc, void *ud, size_t count,
                               size_t elem) {
  size_t bytes = astar__mul_size(count, elem);
  if (bytes == 0) return NULL;
  return alloc(ud, NULL, 0, bytes);
}
static inline void astar__mem_free(astar_alloc_fn alloc, void *ud, void *p,
                                   size_t count, size_t elem) {
  if (p != NULL) alloc(ud, p, count * elem, 0);
}
/* A block about to be written whole, in huge pages where the system has
 * them (pages.c), and its free (the same count and elem). */
void *astar__mem_whole(astar_alloc_fn alloc, void *ud, size_t count,
                       size_t elem);
void astar__mem_whole_free(astar_alloc_fn alloc, void *ud, void *p,
                           size_t count, size_t elem);
/* Grows *p (of *cap elements) to at least need elements, doubling from
 * at least `first`; ENOMEM leaves *p and *cap as they were. */
static inline int astar__grow(astar_alloc_fn alloc, void *ud, void **p,
                              size_t *cap, size_t need, size_t elem,
                              size_t first) {
  size_t n = *cap ? *cap : first, bytes;
  void *q;
  if (need <= *cap) return ASTAR_OK;
  while (n < need) {
    if (n > SIZE_MAX / 4) return ASTAR_ENOMEM;
    n *= 2;
  }
  if ((bytes = astar__mul_size(n, elem)) == 0) return ASTAR_ENOMEM;
  q = alloc(ud, *p, *cap * elem, bytes);
  if (q == NULL) return ASTAR_ENOMEM;
  *p = q;
  *cap = n;
  return ASTAR_OK;
}
/* The map's own memory */
#define astar__alloc(g, count, elem) \
  astar__mem((g)->alloc, (g)->alloc_ud, count, elem)
#define astar__free(g, p, count, elem) \
  astar__mem_free((g)->alloc, (g)->alloc_ud, p, count, elem)
/* ... and its blocks written whole (pages.c) */
#define astar__alloc_whole(g, count, elem) \
  astar__mem_whole((g)->alloc, (g)->alloc_ud, count, elem)
#define astar__free_whole(g, p, count, elem) \
  astar__mem_whole_free((g)->alloc, (g)->alloc_ud, p, count, elem)

/* A bitmap's words: one bit per tile, and a last word of zeros that lets
 * bits.h read 8 bytes from any tile's byte on. */
static inline size_t astar__bitmap_words(uint32_t ntiles) {
  return (ntiles + 63u) / 64u + 1u;
}

/* Search stamps: generation << 4 | closed << 3 | parent direction. */
#define ASTAR__STAMP_CLOSED 8u
#define ASTAR__STAMP_DIR 7u
#define ASTAR__STAMP_GEN (~(uint32_t)15u)
#define ASTAR__MAX_GENERATION 0x0FFFFFFFu

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

/* The direction of a step with the signs of dx and dy (not both 0). */
static inline unsigned astar__dir_of(int32_t dx, int32_t dy) {
  /* by sign: NW N NE, W - E, SW S SE (astar.h's order) */
  static const unsigned char by_sign[9] = {ASTAR_NW, ASTAR_N, ASTAR_NE,
                                           ASTAR_W,  ASTAR_N, ASTAR_E,
                                           ASTAR_SW, ASTAR_S, ASTAR_SE};
  return by_sign[((dy > 0) - (dy < 0) + 1) * 3 + (dx > 0) - (dx < 0) + 1];
}

/* An octile move by (dx, dy) as two runs: nd diagonal steps in direction
 * dd, then ns straight ones in ds (either may be empty).  JPS's path
 * segments and the subgoal graph's edges are such moves. */
static inline void astar__octile_runs(int32_t dx, int32_t dy, unsigned *dd,
                                      int32_t *nd, unsigned *ds,
                                      int32_t *ns) {
  int32_t ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
  *nd = ax < ay ? ax : ay;
  *ns = (ax > ay ? ax : ay) - *nd;
  *dd = astar__dir_of(dx, dy);
  *ds = ax > ay ? astar__dir_of(dx, 0) : astar__dir_of(0, dy);
}

/* The same for the move from tile a to tile b of g. */
static inline void astar__tile_runs(const astar_grid *g, uint32_t a,
                                    uint32_t b, unsigned *dd, int32_t *nd,
                                    unsigned *ds, int32_t *ns) {
  uint32_t stride = (uint32_t)g->stride;
  astar__octile_runs((int32_t)(b % stride) - (int32_t)(a % stride),
                     (int32_t)(b / stride) - (int32_t)(a / stride), dd, nd,
                     ds, ns);
}

/* Can one step in direction d leave tile t of g, whose passable tiles
 * are the bits pass (the corner rule included)? */
static inline int astar__step_open(const astar_grid *g, const uint64_t *pass,
                                   uint32_t t, unsigned d) {
  d &= 7u;
  if (!astar__bit(pass, (uint32_t)((int32_t)t + g->offset[d]))) return 0;
  if (d < 4) return 1;
  /* cppcheck-suppress arrayIndexOutOfBoundsCond ; d is 4..7 here */
  return astar__bit(pass, (uint32_t)((int32_t)t + astar_dir_dx[d])) &&
         astar__bit(pass, (uint32_t)((int32_t)t + astar_dir_dy[d] * g->stride));
}

/* The directions a diagonal rule may use (bit d: direction d). */
static inline unsigned astar__rule_dirs(int rule) {
  if (rule == ASTAR_DIAG_NEVER) return 0x0Fu;
  if (rule == ASTAR_DIAG_HEX) return 0x0Fu | 1u << ASTAR_NE | 1u << ASTAR_SW;
  return 0xFFu;
}

/* Unit u is defined (unit 0 always is). */
static inline int astar__unit_defined(const astar_grid *g, int unit) {
  if (unit < 0 || unit >= ASTAR_MAX_UNITS) return 0;
  return unit == 0 || g->units[unit] != NULL;
}

/* The one step cost: len(d) * cost(v), plus the height cost of u -> v
 * when the layer has one (astar__climb_cost, which the A* loop adds under
 * its compile-time height mode instead of testing the layer per step). */
static inline double astar__climb_cost(const astar_layer *L, uint32_t u,
                                       uint32_t v) {
  double dh = (double)L->height[v] - (double)L->height[u];
  return dh > 0.0 ? L->climb * dh : -L->descend * dh;
}

static inline double astar__step_cost(const astar_grid *g,
                                      const astar_layer *L, uint32_t u,
                                      uint32_t v, unsigned d) {
  double c = g->step_length[d] * (double)L->cost[v];
  if (L->height != NULL) c += astar__climb_cost(L, u, v);
  return c;
}

/* ---- zones.c ---- */
enum { ASTAR__ZONES_OPENED = 1, ASTAR__ZONES_CLOSED = 2,
       ASTAR__ZONES_MOVES = 3 /* moves gained and lost (heights) */ };
/* After the moves of the 3x3 tiles around (x, y) changed in a layer: an
 * OPENED or CLOSED tile (x, y), or MOVES of a height change.  Labels that
 * are not made or stale stay so; a repair that cannot run (memory, its
 * budget) leaves them stale. */
void astar__zones_changed(astar_grid *g, astar_zones *z, const uint8_t *moves,
                          const uint64_t *passable, int oneway, int32_t x,
                          int32_t y, int kind);
/* Labels a layer from scratch (prepare): ENOMEM leaves it stale. */
int astar__zones_label(astar_grid *g, astar_zones *z, const uint8_t *moves,
                       const uint64_t *passable, int oneway);
void astar__zones_release(astar_grid *g, astar_zones *z);
void astar__zones_scratch_release(astar_grid *g);
size_t astar__zones_memory(const astar_grid *g, const astar_zones *z);
static inline void astar__zones_stale(astar_zones *z) { z->stale = 1; }
static inline int astar__zones_ready(const astar_zones *z) {
  return z->label != NULL && !z->stale;
}
/* The zones of unit's layer (the grid's own or the unit's), NULL for an
 * undefined unit. */
const astar_zones *astar__layer_zones(const astar_grid *g, int unit);
/* *apart = 1 when tiles a and b are in different zones (EPREPARE when
 * the labels are not ready). */
int astar__zones_apart(const astar_grid *g, int unit, uint32_t a,
                       uint32_t b, int *apart);

uint32_t astar__zone_at(const astar_zones *z, uint32_t i); /* 0: none */

/* ---- clearance.c ---- */
static inline void astar__clearance_stale(astar_clearance *C) { C->stale = 1; }
/* After tile (x, y) of a layer (bits, moves) opened or closed: its
 * clearance and its sized layers, kept in step. */
void astar__clearance_changed(astar_grid *g, astar_clearance *C,
                              const uint64_t *bits, const uint8_t *moves,
                              int oneway, int32_t x, int32_t y);
void astar__clearance_release(astar_grid *g, astar_clearance *C);
size_t astar__clearance_memory(const astar_grid *g, const astar_clearance *C);
/* ---- overlay.c: a query's avoid and extra_cost, stamped in a context ---- */
/* marks: generation << 3 | flags (the marks live in astar__overlay) */
#define ASTAR__MARK_AVOID 1u
#define ASTAR__MARK_KEEP 2u  /* under the start's or a goal's footprint:
                                 never avoided (overlay.c) */
#define ASTAR__MARK_EXTRA 4u
#define ASTAR__MARK_GEN (~(uint32_t)7u)
#define ASTAR__MAX_MARK_GENERATION 0x1FFFFFFFu
/* Stamps q's overlays in s's marks (a new mark generation: *tag); tiles
 * keep_a, keep_b (UINT32_MAX: none) and q's goals are never avoided. */
int astar__overlay_stamp(astar_search *s, const astar_grid *G,
                         const astar_query *q, uint32_t keep_a,
                         uint32_t keep_b, uint32_t *tag);
static inline int astar__marked(const uint32_t *mark, uint32_t tag,
                                uint32_t v, uint32_t flag) {
  return (mark[v] & ASTAR__MARK_GEN) == tag && (mark[v] & flag);
}
/* The legal moves m out of u (a NEAR tile) once avoided tiles count as
 * blocked, for the step and for the corner rule. */
unsigned astar__overlay_moves(const astar_grid *G, const uint64_t *passable,
                              const uint32_t *mark, uint32_t tag, uint32_t u,
                              unsigned m);
/* A field's build (field.c): q's overlays stamped in f's marks (goals
 * never avoided; f->mtag their tag, 0 without overlays) and copied into
 * f's own lists (the avoided tiles left avoided, then the extra costs). */
int astar__field_overlay(astar_field *f, const astar_grid *G,
                         const astar_field_query *q);
/* Does q have overlays? */
static inline int astar__uses_overlay(const astar_query *q) {
  return q->navoid != 0 || q->nextra != 0;
}

/* ---- links.c ---- */
/* The links out of tile u: *first and *n (none: n = 0). */
void astar__links_from(const astar_grid *g, uint32_t u,
                       const astar_link **first, size_t *n);
void astar__links_release(astar_grid *g);
size_t astar__links_memory(const astar_grid *g);
static inline int astar__link_end(const astar_grid *g, uint32_t i) {
  return g->link_bits != NULL && astar__bit(g->link_bits, i);
}

/* ---- layer.c ---- */
int astar__make_columns(astar_grid *g, const uint64_t *passable,
                        uint64_t **out);
uint8_t astar__moves(const astar_grid *g, const uint64_t *bits, uint32_t i);
uint8_t astar__height_filter(const astar_grid *g, const astar_unit *u,
                             uint32_t i, uint8_t moves);
void astar__refresh_moves(astar_grid *g, const astar_unit *u, int32_t px0,
                          int32_t py0, int32_t px1, int32_t py1);
void astar__min_remove(astar_min *m, float c);
void astar__min_add(astar_min *m, float c);
void astar__min_scan(const astar_grid *g, const float *cost, astar_min *m);
void astar__range_remove(astar_range *r, float c);
void astar__range_add(astar_range *r, float c);
void astar__range_scan(const astar_grid *g, const float *cost,
                       const uint64_t *passable, astar_range *r);
void astar__flip_column_bit(const astar_grid *g, uint64_t *t, uint32_t i);
int astar__height_limited(const astar_unit *u);
/* A unit's own cost on tile i (HUGE_VALF where it cannot enter) and
 * whether it can enter i. */
float astar__unit_cost(float c, float m); /* c * m, kept a positive float */
float astar__own_cost(const astar_grid *g, const astar_unit *u, uint32_t i);
int astar__own_open(const astar_grid *g, const astar_unit *u, uint32_t i);
void astar__free_own(astar_grid *g, astar_unit *u);
/* No height rule of u applies (no rule, or no heights): what JPS needs,
 * both to run (find_path.c) and to get its column bits (prepare). */
int astar__unit_heights_free(const astar_grid *g, const astar_unit *u);
/* Can JPS run on the grid's movement at all? */
int astar__jps_movement(const astar_grid *g);

/* What JPS reads for one unit class: its passability, its column-major
 * copy (made by prepare), its tile costs and the one cost every passable
 * tile has. */
typedef struct astar__jps_layer {
  const uint64_t *passable;
  const uint64_t *columns;
  const float *cost;
  float uniform;
} astar__jps_layer;
/* Fills *J for a defined unit: 1 when every passable tile costs the same,
 * 0 when not, ASTAR_EPREPARE when the layer is not prepared. */
int astar__unit_jps_layer(const astar_grid *g, int unit, astar__jps_layer *J);
/* The same for an s x s unit (clearance.c; size <= 1: the plain one). */
int astar__jps_layer_size(const astar_grid *g, int unit, int size,
                          astar__jps_layer *J);
/* The zones of the s x s unit's layer (NULL: undefined unit, or a sized
 * layer not prepared) and whether two tiles lie in different ones. */
const astar_zones *astar__zones_size(const astar_grid *g, int unit, int size);
int astar__zones_apart_size(const astar_grid *g, int unit, int size,
                            uint32_t a, uint32_t b, int *apart);

/* ---- units.c: keeping the units' own layers in step with the grid's ---- */
void astar__units_cost_changed(astar_grid *g, uint32_t i);
void astar__units_tile_changed(astar_grid *g, int32_t x, int32_t y,
                               uint32_t i);
void astar__units_stale(astar_grid *g);
void astar__units_release(astar_grid *g);
size_t astar__units_memory(const astar_grid *g);

/* ---- sight.c ---- */
/* The cost of a leg (astar.h, "Legs"): HUGE_VAL when it may not be taken.
 * flat: heights a longer leg must keep level on (astar__flat_heights). */
double astar__leg_cost(const astar_grid *G, const astar_layer *L,
                       const float *flat, int32_t x0, int32_t y0, int32_t x1,
                       int32_t y1);
const float *astar__flat_heights(const astar_grid *G, int unit);
/* Is the line between tile centres (x0, y0) and (x1, y1) clear on the
 * bitmap bits (the corner rule of G's diagonal rule)?  cols: the same
 * bits column-major (astar_grid.passable_t), or NULL.  Costs and heights
 * are not read. */
int astar__sight_clear(const astar_grid *G, const uint64_t *bits,
                       const uint64_t *cols, int32_t x0, int32_t y0,
                       int32_t x1, int32_t y1);
/* L's bits column-major where prepare made them (JPS's copy), or NULL. */
const uint64_t *astar__sight_columns(const astar_grid *G,
                                     const astar_layer *L, int unit,
                                     int size);
/* The one cost of every tile L enters (> 0), or 0 when costs differ or
 * the layer is not L's unit's own plain one (overlays) or heights count. */
float astar__leg_uniform(const astar_grid *G, const astar_layer *L, int unit);

/* ---- context.c: the search context ---- */

/* A tile callback's result, valid in search generation gen. */
typedef struct astar__memo {
  double cost;
  uint32_t gen;
} astar__memo;

typedef struct astar__target {
  int32_t x, y;
  int32_t index;  /* in q->goals; -1 for gx, gy */
  uint32_t node;
  double offset;  /* subtracted from the heuristic (next to a blocked goal;
                     minus the goal's cost) */
  double cost;    /* q->goal_costs of this goal, 0 without */
} astar__target;

/* Scratch of the query options, made on the first query that needs it. */
typedef struct astar__extra {
  uint32_t *depth;         /* ntiles: steps from the start (max_length) */
  double *count;           /* ntiles: equal-cost paths (random ties) */
  astar__target *targets;  /* the goals as given */
  size_t targets_cap;
  uint64_t *set;           /* node << 32 | target: sorted goal tiles */
  size_t set_cap;
} astar__extra;

typedef struct astar__frame { /* one tile of IDA*'s current path */
  double g;
  uint32_t node;
  uint32_t moves; /* directions not tried yet */
} astar__frame;

/* Scratch of bidirectional search and IDA*. */
typedef struct astar__more {
  /* bidirectional: the backward side's stamps (own generation) and heap
     positions, the g labels of both sides, the backward open list */
  uint32_t *stamp_b, *pos_b;
  uint32_t generation;
  double *gf, *gb;
  astar_heap_entry *heap_b;
  size_t heap_b_cap;
  /* IDA*: the current path, grown as needed */
  astar__frame *frames;
  size_t frames_cap;
} astar__more;

/* The marks of a query's overlays (avoid, extra_cost): per tile
 * generation << 3 | flags, and the added cost where MARK_EXTRA. */
typedef struct astar__overlay {
  uint32_t *mark;   /* ntiles */
  double *add;      /* ntiles, made on the first extra_cost */
  uint32_t generation;
  /* NEAR as one bit per tile (small enough to stay in cache: the loop
   * tests it once per expansion), and the tiles whose bit is set, cleared
   * at the next stamp */
  uint64_t *near;
  uint32_t *listed;
  size_t nlisted, listed_cap;
} astar__overlay;
/* Makes the overlay's marks (and, with add, its costs). */
int astar__context_overlay(astar_search *s, int add);
/* Scratch of graph searches (graph_search.c): per node the parent and
 * the heuristic (the backward side's parent when bidirectional), and the
 * last path, start first. */
typedef struct astar__graphx {
  uint32_t *parent, *parent_b;
  double *h;
  uint32_t *path;
  size_t path_cap;
  uint32_t path_len;
} astar__graphx;
int astar__context_graphx(astar_search *s, int bidir);
/* Scratch of subgoal graph searches (subgoal_search.c), indexed by node:
 * a subgoal's index, then the start and the goal when they are not
 * subgoals.  Small and dense, so a search touches no per-tile array. */
typedef struct astar__sgx {
  uint32_t *stamp; /* generation << 4 | flags (subgoal_search.c) */
  uint32_t *pos;   /* an open node's heap index; a closed node's parent */
  uint32_t *link;  /* the edge that reached the node, or UINT32_MAX */
  uint32_t *list;  /* the goal marks' stack, the closed nodes, the path */
  size_t cap;      /* nodes each array holds */
  uint32_t generation;
  uint32_t nlist;  /* closed nodes listed */
} astar__sgx;
/* Makes s's subgoal scratch hold at least nodes nodes; on wrap-around of
 * its generation (or a new array) the stamps are cleared. */
int astar__context_sgx(astar_search *s, size_t nodes);
#define ASTAR__SGX_MAX_GENERATION 0x07FFFFFFu /* stamps: generation << 5 */

/* A tile's parent when a link reached it (gen: the stamp generation of
 * the search that set it; anything else: not through a link). */
typedef struct astar__via {
  uint32_t parent, gen;
} astar__via;
int astar__context_via(astar_search *s);

/* The bucket queue of the A* loop (bucket.h): per tile an open node's g;
 * bucket 0 one array, kept sorted; buckets 1.. chains of blocks of
 * ASTAR__RADIX_BLOCK entries from one pool.  A new search hands the whole
 * pool out again, so it holds what one search needed at most (not the
 * sum over buckets of each one's largest, as separate arrays would). */
#ifndef ASTAR__RADIX_BITS
#define ASTAR__RADIX_BITS 4 /* bits of a key per level */
#endif
#define ASTAR__RADIX_BUCKETS ((64 / ASTAR__RADIX_BITS) << ASTAR__RADIX_BITS)
#define ASTAR__RADIX_WORDS (ASTAR__RADIX_BUCKETS / 64)
#define ASTAR__RADIX_BLOCK 256u /* entries per block (a power of two) */
#define ASTAR__RADIX_NONE UINT32_MAX /* no block */
typedef struct astar__radix_block {
  astar_heap_entry e[ASTAR__RADIX_BLOCK];
} astar__radix_block;
typedef struct astar__radix {
  double *g;                 /* ntiles */
  astar_heap_entry *b0;      /* bucket 0, cap0 entries */
  size_t cap0;
  size_t n[ASTAR__RADIX_BUCKETS]; /* entries per bucket */
  uint32_t head[ASTAR__RADIX_BUCKETS]; /* bucket i's newest block: it holds
                                the last ((n - 1) % BLOCK) + 1 entries,
                                the older ones (link) are full */
  astar__radix_block *pool;  /* pool_cap blocks */
  uint32_t *link;            /* link_cap: a block's older one, or the
                                next free block */
  size_t pool_cap, link_cap;
  uint32_t top;              /* blocks handed out since the reset */
  uint32_t free;             /* blocks given back, or ASTAR__RADIX_NONE */
  uint64_t last;             /* the key last taken (bucket 0's) */
  uint64_t used[ASTAR__RADIX_WORDS]; /* bit i: bucket i (> 0) not empty */
  uint64_t least[ASTAR__RADIX_BUCKETS]; /* the least key put in bucket i
                                since it was empty (UINT64_MAX: none) */
} astar__radix;
/* Makes the bucket queue (and its per-tile g) of s. */
int astar__context_radix(astar_search *s);
/* Grows bucket 0 by at least one entry. */
int astar__radix_grow(astar_search *s, astar__radix *R);
/* Grows the pool by at least one block. */
int astar__radix_more(astar_search *s, astar__radix *R);

/* Sizes the per-tile arrays for a map of ntiles tiles (stamps, heap
 * positions, the first heap); a context last sized for another map
 * drops its per-tile scratch first. */
int astar__context_fit(astar_search *s, uint32_t ntiles);
/* A new generation (returns the stamp tag); on wrap-around the stamps
 * and the memo are cleared once. */
uint32_t astar__next_generation(astar_search *s);
int astar__grow_heap(astar_search *s);
int astar__context_memo(astar_search *s);
int astar__context_extra(astar_search *s, int depth, int count,
                         size_t targets, size_t set);
int astar__context_more(astar_search *s, int bidir); /* 2: g only */
/* Grows a buffer of the context. */
int astar__context_grow(astar_search *s, void **p, size_t *cap, size_t need,
                        size_t elem);
void astar__sort_set(uint64_t *set, size_t n);
/* The target index of node in the sorted set, or -1. */
long astar__set_find(const uint64_t *set, size_t n, uint32_t node);

/* ---- heuristics (find_path.c sets them up; every engine reads them) ---- */

/* Every heuristic is h = A * max(dx, dy) + B * min(dx, dy), or
 * A * sqrt(dx^2 + dy^2) for euclidean, or A * max(|dx|, |dy|, |dx + dy|)
 * for the hex distance (axial coordinates, neighbours N E S W NE SW), with
 * A and B already multiplied by the cheapest tile cost and the weight. */
enum { ASTAR__H_PLAIN = 0, ASTAR__H_EUCLID, ASTAR__H_HEX };

typedef struct astar__heuristic {
  int shape; /* H_* */
  double A, B;
  int32_t gx, gy;
} astar__heuristic;

/* The default (or named) heuristic of q on G towards (q->gx, q->gy),
 * scaled by min_cost and q->weight. */
void astar__heuristic_init(astar__heuristic *h, const astar_grid *G,
                           const astar_query *q, double min_cost);

static inline double astar__h_shaped(const astar__heuristic *h, int32_t dx, int32_t dy) {
  int64_t ax = dx < 0 ? -(int64_t)dx : dx, ay = dy < 0 ? -(int64_t)dy : dy;
  if (h->shape == ASTAR__H_HEX) {
    int64_t s = (int64_t)dx + dy, m = ax > ay ? ax : ay;
    if (s < 0) s = -s;
    return h->A * (double)(s > m ? s : m);
  } else {
    double fx = (double)ax, fy = (double)ay;
    return h->A * sqrt(fx * fx + fy * fy);
  }
}

static inline double astar__h_d(const astar__heuristic *h, int32_t dx, int32_t dy) {
  if (h->shape != ASTAR__H_PLAIN) return astar__h_shaped(h, dx, dy);
  if (dx < 0) dx = -dx;
  if (dy < 0) dy = -dy;
  return dx > dy ? h->A * dx + h->B * dy : h->A * dy + h->B * dx;
}

static inline double astar__h_at(const astar__heuristic *h, int32_t x, int32_t y) {
  return astar__h_d(h, x - h->gx, y - h->gy);
}

/* links.c: the factor (0..1) that keeps heuristic h admissible on g's
 * links */
double astar__links_scale(const astar_grid *g, const astar__heuristic *h,
                          double weight);

/* ---- the state of a begun search (find_path.c and the engines) ---- */

#define ASTAR__MAX_H_GOALS 16 /* more goals: the heuristic is 0 (Dijkstra) */

typedef struct astar__run {
  const astar_grid *G;
  astar_search *s;
  astar_query q;        /* the query, copied at begin */
  astar_result r;       /* the result so far */
  astar_layer L;
  astar__heuristic h;
  int engine;           /* ASTAR__ENGINE_* */
  int mode;             /* the A* family loop's extras (astar_loop.c) */
  double inv_q, bound;
  uint32_t start, goal, tag;
  /* where the loop stands between slices */
  size_t n, head;       /* open list size; a queue's front (BFS) */
  uint32_t expanded;
  int found;            /* a goal came off the open list */
  /* ---- query options ---- */
  const uint64_t *set;  /* sorted goal tiles; goal then unused */
  size_t nset;
  const astar__target *targets; /* goals as given, for h and closest */
  size_t ntargets;
  astar__heuristic dist;       /* closeness: the default heuristic, scale 1 */
  unsigned start_moves; /* moves out of the start (blocked start) */
  uint32_t *depth;      /* steps per node, when max_length */
  double *count;        /* equal-cost paths per node (random ties) */
  double max_cost;
  uint32_t max_length, max_nodes, beam;
  int closest;
  int cut;              /* a cutoff kept the search from a node */
  int cut_length;       /* ... max_length did */
  int by_steps;         /* the breadth-first rerun of max_length */
  uint32_t prior_expanded, prior_generated; /* the first run's counts */
  int goal_blocked;     /* every goal was blocked */
  astar__target one;    /* the goal of a query without options */
  uint32_t reached;     /* the goal expanded, or best when closest */
  uint32_t best;        /* closest expanded tile (closest, or a sliced
                           step): UINT32_MAX until one */
  double best_d, best_g;
  double best_total;    /* goal costs: the least path + goal cost so far */
  uint64_t best_key;    /* ... as a key: the search ends when the open
                           list's best key reaches it */
  int32_t line_x, line_y, line_dx, line_dy; /* straight ties */
  uint64_t rng;
  int st;               /* a heuristic callback's failure */
  uint32_t peak, evicted;
  /* ---- overlays (avoid, extra_cost) ---- */
  const uint32_t *mark;
  const double *add;
  const uint64_t *near;
  uint32_t mtag;
  /* ---- landmarks (astar_loop.c's MODE_LM) ---- */
  const uint32_t *lm_dist;  /* the unit's fields (astar__landmarks) */
  uint32_t lm_width, lm_k, lm_n; /* a row's tiles; fields per tile; used */
  uint8_t lm_use[ASTAR_MAX_LANDMARKS];  /* the fields that reach the goal */
  uint32_t lm_goal[ASTAR_MAX_LANDMARKS]; /* ... and their goal distances */
  double lm_q, lm_kappa, lm_eta, lm_phi_goal;
  /* ---- JPS ---- */
  astar__jps_layer J;
  double hA, hB, jstep[8];
  const uint32_t *jt;   /* a prepared map's jump table (JPS+), or NULL */
  /* ---- subgoal graphs ---- */
  const struct astar__subgoals *sg;
  int32_t gx, gy;       /* the goal's padded coordinates */
  uint32_t gtag;        /* the search's tag in the context's sgx stamps */
  uint32_t sid, gid;    /* the start's and the goal's nodes there */
  int direct;           /* an octile path joins them: the start's
                           expansion puts the goal on, nothing else */
  /* ---- a short query's probe (find_path.c) ---- */
  uint32_t probe_left;  /* > 0: plain JPS standing in for the graph, this
                           many expansions more before the graph runs */
} astar__run;

/* How an astar_trail walks back (astar_search_partial). */
enum { ASTAR__TRAIL_NONE = 0, ASTAR__TRAIL_PATH, ASTAR__TRAIL_STAMPS,
       ASTAR__TRAIL_JUMPS };

enum { ASTAR__ENGINE_LOOP = 0, ASTAR__ENGINE_JPS, ASTAR__ENGINE_IDA,
       ASTAR__ENGINE_BIDIR, ASTAR__ENGINE_THETA, ASTAR__ENGINE_SUBGOAL };

/* The engines.  *_start sets up the run after the front door's checks
 * (ASTAR_OK to search, 1 when R->r.outcome is known, or an error); *_step
 * expands at most budget nodes (0: no limit) and returns ASTAR_RUNNING
 * while unfinished, ASTAR_OK when done (R->r filled, the path in the
 * context), or an error. */
#define ASTAR__SUSPENDED 1
int astar__loop_start(astar__run *R);
int astar__loop_step(astar__run *R, uint32_t budget);
int astar__jps_start(astar__run *R);
int astar__jps_step(astar__run *R, uint32_t budget);
int astar__subgoal_start(astar__run *R);
int astar__subgoal_step(astar__run *R, uint32_t budget);
int astar__ida(astar__run *R);
int astar__bidir(astar__run *R);
int astar__theta(astar__run *R);

/* Shared by the engines: start/goal checks and the heuristic bound.
 * ASTAR_OK to search, 1 when R->r.outcome is known, or an error. */
int astar__engine_setup(astar__run *R);
/* Does q use an option beyond the plain search (ties, goals, max_cost,
 * max_length, closest, blocked start or goal, a heuristic function;
 * max_nodes and the algorithm aside)? */
int astar__uses_options(const astar_query *q);
/* engine.c: the goals of an A* family query as targets and end set. */
size_t astar__goal_targets(astar__run *S, size_t nt);
/* engine.c: closest reachable (the closest option, a sliced step's best
 * path so far): keeps the expanded node u at (x, y), reached at cost g,
 * when it is nearer a goal than the best so far (then cheaper, then the
 * lower index). */
void astar__closer(astar__run *S, uint32_t u, int32_t x, int32_t y, double g);
/* engine.c: a callback cost below the bound on the step from -> to:
 * recorded in S's result; returns ASTAR_EBOUND. */
int astar__bound_broken(astar__run *S, uint32_t from, uint32_t to,
                        double cost, double bound);
/* engine.c: *apart when a plain query's start and goal lie in different
 * zones (the search may end at once). */
int astar__zones_exit(const astar_grid *G, const astar_query *q,
                      const uint64_t *passable, int *apart);
/* 1 / the heap keys' quantum: 2^-24 of the cheapest step (bound times the
 * shortest step length), so equal f give equal keys. */
double astar__key_scale(const astar_grid *G, double bound);
/* engine.c, for the A* loop: the tile callback's cost for tile v (0:
 * impassable), memoized; the legal moves out of u once the callback has
 * had its say (a tile it closes is impassable, for the corner rule too). */
int astar__tile_value(astar__run *S, uint32_t v, double *out);
int astar__callback_moves(astar__run *S, uint32_t u, unsigned *moves);
/* Records the end of a search in the context (the path walk's state). */
void astar__finish(astar__run *R, int found, uint32_t end);
/* ---- corners (engine.c) ---- */
/* With R->q.corners and a path found: relinks the context's path walk to
 * the path's corners (unless the engine wrote them: R->r.corners != 0)
 * and sets R->r.corners. */
void astar__path_corners(astar__run *R);
/* Is the index step d one tile in one of the eight directions? */
int astar__unit_step(const astar_search *s, int32_t d);
/* The direction from tile a to tile b, reduced to lowest terms, packed. */
int64_t astar__direction(const astar_search *s, uint32_t a, uint32_t b);

/* ---- bit words (jps.c, subgoal.c, subgoal_search.c) ----
 * The lowest set bit's index, the count of leading zeros, the highest set
 * bit's index and the number of set bits of a non-zero 64-bit word (pop:
 * any word). */
#if defined(__GNUC__) || defined(__clang__)
static inline unsigned astar__ctz64(uint64_t m) {
  return (unsigned)__builtin_ctzll(m);
}
static inline unsigned astar__clz64(uint64_t m) {
  return (unsigned)__builtin_clzll(m);
}
static inline uint32_t astar__pop64(uint64_t m) {
  return (uint32_t)__builtin_popcountll(m);
}
#else
static inline unsigned astar__ctz64(uint64_t m) {
  unsigned b = 0;
  while (!(m & 1u)) {
    m >>= 1;
    b++;
  }
  return b;
}
static inline unsigned astar__clz64(uint64_t m) {
  unsigned b = 0;
  while (!(m & ((uint64_t)1 << 63))) {
    m <<= 1;
    b++;
  }
  return b;
}
static inline uint32_t astar__pop64(uint64_t m) {
  uint32_t n = 0;
  while (m) {
    m &= m - 1;
    n++;
  }
  return n;
}
#endif
static inline unsigned astar__msb64(uint64_t m) {
  return 63u - astar__clz64(m);
}

#endif

/*
 * astar core: grid storage and the A* search engine, in plain C99.
 *
 * Nothing here knows about Lua.  The core allocates only through the
 * allocator it is given (same signature as lua_Alloc), never prints, never
 * exits, and reports failure through status codes.  Coordinates are 0-based
 * here; the binding converts from Lua's 1-based ones.
 */
#ifndef ASTAR_H
#define ASTAR_H

#include <stddef.h>
#include <stdint.h>

#define ASTAR_VERSION "0.1.0"

/* realloc-like allocator; nsize == 0 frees.  Same contract as lua_Alloc. */
typedef void *(*astar_alloc_fn)(void *ud, void *ptr, size_t osize,
                                size_t nsize);

/* Status codes of core calls (errors, not search outcomes). */
enum {
  ASTAR_OK = 0,
  ASTAR_ENOMEM = -1, /* the allocator failed; the object is unchanged */
  ASTAR_ETOOBIG = -2, /* a size is zero, negative or overflows a limit */
  ASTAR_EINVAL = -3, /* an argument is outside its domain */
  ASTAR_EBUSY = -4, /* the search context is in use (re-entered) */
  ASTAR_EPARSE = -5, /* text that does not follow its format */
  ASTAR_ECALLBACK = -6, /* a cost callback asked the search to stop */
  ASTAR_EBOUND = -7, /* a callback's cost is below the stated lower bound
                       (the heuristic would overestimate); see
                       astar_result.bad_* */
  ASTAR_EPREPARE = -8, /* the map's derived data is stale or missing for
                          this query: call astar_grid_prepare first */
  ASTAR_ECANCELLED = -9 /* a batch's pool closed before it ran */
};

/* Outcomes of a search: expected results, not errors. */
enum {
  ASTAR_FOUND = 0,
  ASTAR_NO_PATH = 1,
  ASTAR_START_BLOCKED = 2,
  ASTAR_GOAL_BLOCKED = 3,
  ASTAR_CUTOFF = 4, /* max_cost, max_length or max_nodes stopped the search
                      before it reached a goal */
  ASTAR_RUNNING = 5 /* a sliced search that has not finished yet */
};

/* Algorithms.  AUTO runs JPS when the query qualifies for it
 * (astar_query_refusal says none for it), else A*.  The rest but JPS are
 * knobs of one loop: DIJKSTRA is A* with the zero heuristic (weighted A*
 * is A* with a weight), BFS counts steps and keeps its open list first in
 * first out, GREEDY orders by the heuristic alone, BEAM caps the open
 * list. */
enum {
  ASTAR_ALGO_AUTO = 0,
  ASTAR_ALGO_ASTAR = 1,
  ASTAR_ALGO_JPS = 2, /* jump point search: uniform costs, 8-way, no corner
                         cutting; optimal, same costs as A* */
  ASTAR_ALGO_DIJKSTRA = 3,
  ASTAR_ALGO_BFS = 4,
  ASTAR_ALGO_GREEDY = 5,
  ASTAR_ALGO_BEAM = 6,
  /* In their own files, with their own loops (they take the plain query:
   * costs, unit classes, heights, max_nodes; astar_query_refusal says
   * what else they refuse).  AUTO never picks them. */
  ASTAR_ALGO_IDA = 7, /* IDA*: iterative deepening on f, memory O(path);
                         optimal; capped at max_nodes expansions, by
                         default ASTAR_IDA_DEFAULT_NODES */
  ASTAR_ALGO_BIDIR = 8, /* bidirectional A* (Dijkstra with the zero
                           heuristic): two searches that meet; optimal */
  ASTAR_ALGO_BIDIR_BFS = 9, /* bidirectional breadth-first: fewest steps */
  /* Any-angle (theta.c): paths of straight legs between tile centres,
   * each leg in line of sight (astar_line_of_sight); the path walk gives
   * the waypoints, not every tile.  Euclidean leg costs (see
   * astar_leg_cost).  Not optimal (the exact any-angle optimum bends at
   * tile corners), never dearer than the 8-way optimum. */
  ASTAR_ALGO_THETA = 10, /* Theta*: a line-of-sight test per neighbour */
  ASTAR_ALGO_LAZY_THETA = 11, /* Lazy Theta*: one test per expansion */
  ASTAR_ALGO_SUBGOAL = 12, /* a result only (astar_result.algorithm): AUTO
                             ran over the map's subgoal graph */
  ASTAR_ALGO_JPS_PLUS = 13 /* a result only: AUTO ran JPS with the map's
                              precomputed jumps (astar_jumps_build) */
};
#define ASTAR_IDA_DEFAULT_NODES 1000000u

/* Tie rules between open nodes of equal f. */
enum {
  ASTAR_TIES_LARGER_G = 0, /* default: the node nearer the goal first */
  ASTAR_TIES_STRAIGHT,     /* then the node nearer the line start-goal */
  ASTAR_TIES_RANDOM        /* uniform over equal-cost paths, seeded */
};

/* Diagonal rules.  NEVER is 4-way movement. */
enum {
  ASTAR_DIAG_BOTH_FREE = 0, /* both orthogonal neighbours free: no corner
                               cutting (default, MovingAI rule) */
  ASTAR_DIAG_ONE_FREE = 1, /* at least one orthogonal neighbour free */
  ASTAR_DIAG_ALWAYS = 2, /* any diagonal between two passable tiles */
  ASTAR_DIAG_NEVER = 3, /* 4-way */
  ASTAR_DIAG_HEX = 4 /* hex grid in axial coordinates (x, y) = (q, r): the
                        six neighbours N E S W NE SW, no corner rule, every
                        step of the cardinal length (the diagonal length is
                        kept but unused) */
};

/* Heuristics.  DEFAULT is the tightest admissible one for the movement. */
enum {
  ASTAR_H_DEFAULT = 0,
  ASTAR_H_MANHATTAN,
  ASTAR_H_CHEBYSHEV,
  ASTAR_H_OCTILE,
  ASTAR_H_EUCLIDEAN,
  ASTAR_H_ZERO
};

/* Directions, in the order neighbours are generated (this order is part of
 * the deterministic tie-breaking): N E S W, then NE SE SW NW.  Bit d of a
 * move mask is direction d.  y grows downwards (row 0 is the top).  On a hex
 * grid (ASTAR_DIAG_HEX) only N E S W NE SW are neighbours. */
enum { ASTAR_N, ASTAR_E, ASTAR_S, ASTAR_W, ASTAR_NE, ASTAR_SE, ASTAR_SW,
       ASTAR_NW };
extern const int8_t astar_dir_dx[8];
extern const int8_t astar_dir_dy[8];

/* Limits.  Sizes are checked against these before anything is allocated. */
#define ASTAR_MAX_SIDE 65534
#define ASTAR_MAX_PADDED_TILES (1u << 30)
#define ASTAR_MAX_STEP_LENGTH 1e9
#define ASTAR_MIN_STEP_LENGTH 1e-9

/* Terrain classes and unit classes.  Every tile has a terrain class
 * (0..255, 0 at first).  A unit class maps each terrain class to a cost
 * multiplier (0 = impassable) and may add costs or limits for height
 * differences.  A unit's cost on a tile is table[terrain] * the tile's
 * stored cost (the weight layer).  Unit 0 is the default one: every terrain
 * 1, no height rule, until it is redefined. */
#define ASTAR_TERRAINS 256
#define ASTAR_MAX_UNITS 32
#define ASTAR_MAX_HEIGHT 1e15

/* Running minimum of a float layer: exact while count > 0; when the last
 * holder of the minimum is raised it turns dirty and is rescanned lazily. */
typedef struct astar_min {
  float value;
  uint32_t count;
  int dirty;
} astar_min;

/* Cheapest and dearest cost over the passable tiles of a layer, with how
 * many tiles hold each (the uniform-cost test of jump point search);
 * rescanned lazily when the last tile holding either leaves. */
typedef struct astar_range {
  float min, max;
  uint32_t min_count, max_count;
  int dirty;
} astar_range;
/* Zones of one layer (the grid's own, or a unit class's): connected-region
 * labels over the layer's legal moves.  label[i] is 0 for a tile the layer
 * cannot enter, else a slot; slots form a union-find forest (parent) and
 * a zone's id is its root slot, whose size is the zone's tile count.
 * label == NULL: not built yet; stale: rebuilt (O(tiles)) at next use. */
typedef struct astar_zones {
  uint32_t *label;
  uint32_t *parent, *size; /* cap slots each; slot 0 unused */
  uint32_t cap, used;      /* slots 1 .. used - 1 are taken */
  uint32_t count;          /* zones (roots with size > 0) */
  int stale;
} astar_zones;

/* Clearance (clearance.c): for each tile, the side of the largest square
 * of tiles, anchored at its top-left corner on that tile, that a layer can
 * enter (0 on tiles it cannot enter; capped at 255), 1 byte per tile, made
 * on first use and kept up to date by tile edits.  An s x s unit's own
 * layer ("sized") is the tiles of clearance >= s with their move masks
 * (the grid's diagonal rule applied to the footprint), JPS column bits and
 * zones: a grid of its own, which the engines read as any other layer. */
#define ASTAR_MAX_SIZE 255
typedef struct astar_sized {
  struct astar_sized *next;
  int size;                 /* 2 .. ASTAR_MAX_SIZE */
  int stale;                /* rebuilt (O(tiles)) at the next prepare */
  uint8_t *moves;
  uint64_t *passable;
  uint64_t *passable_t;     /* column-major copy, where JPS can run */
  astar_zones zones;
} astar_sized;

typedef struct astar_clearance {
  uint8_t *value;           /* NULL: not made yet */
  int stale;                /* recomputed (O(tiles)) at the next prepare */
  astar_sized *sized;       /* the sizes asked for so far */
} astar_clearance;

typedef struct astar_unit {
  float table[ASTAR_TERRAINS]; /* terrain -> multiplier; 0 = impassable */
  double climb, descend;       /* extra cost per unit of rise / of drop */
  double max_climb, max_drop;  /* steps rising / dropping more are banned;
                                  HUGE_VAL = no limit */
  /* The unit's own layers, used when its table is not all 1 or it has a
   * height limit (otherwise it reads the grid's layers and these are
   * NULL): cost (HUGE_VAL where the terrain is impassable to it), legal
   * moves and passability.  stale: rebuilt (O(tiles)) before next use. */
  int own;
  int stale;
  float *cost;
  uint8_t *moves;
  uint64_t *passable;
  uint64_t *passable_t; /* column-major copy for JPS, made on its first use */
  astar_min min;
  astar_range range;
  astar_zones zones; /* used while the unit has its own layers */
  astar_clearance clear; /* used while the unit has its own layers */
} astar_unit;

/* What a search reads for one unit class.  height is NULL unless the unit
 * pays for climbing or descending. */
typedef struct astar_layer {
  const float *cost;
  const uint8_t *moves;
  const uint64_t *passable;
  double min_cost; /* a lower bound of every cost a step can enter */
  const float *height;
  double climb, descend;
} astar_layer;

/* One open-list entry (24 bytes).  An open node's g lives here, not in a
 * per-tile array.  key holds the bits of f, quantised so equal f values
 * compare equal: for values >= 0 the bit patterns order like the numbers,
 * so the key comparison is an integer one; among equal keys the larger g
 * comes first.  The heap keeps each open node's position (decrease-key),
 * so it never holds two entries for one node. */
typedef struct astar_heap_entry {
  uint64_t key;
  double g;
  uint32_t node;
  /* in what would be padding (the entry stays 24 bytes): under JPS the
     jump point this node was reached from; under A* with straight ties its
     distance from the line start-goal; otherwise 0 */
  uint32_t aux;
} astar_heap_entry;

/* A grid link (links.c): a move from tile `from` to tile `to` (indices)
 * at its own cost, besides the moves of the movement rule.  Stairs,
 * ladders, teleports, doors.  A link made both ways is two of these,
 * each with two_way set. */
typedef struct astar_link {
  uint32_t from, to;
  double cost;
  int two_way;
} astar_link;

/*
 * A grid.  Tiles are stored row-major over a padded rectangle with a one-tile
 * border of blocked sentinels, so neighbour reads never need bounds checks:
 * tile (x, y) lives at index (y + 1) * stride + (x + 1).
 *
 * Per tile:            cost (float)            4 bytes
 *                      moves (legal-move mask) 1 byte
 *                      passable bit            1/8 byte
 * Optional, made by astar_grid_prepare or on first use:
 *                      zone label, per layer   4 bytes (+ 8 per zone)
 *                      passable bit, column-major (JPS only)
 *                                              1/8 byte
 *                      terrain class           1 byte
 *                      height (float)          4 bytes
 *                      per unit class with its own layers: 5 1/8 bytes
 *                      zone repair scratch (after the first edit that
 *                      closes a tile of a labelled layer)   8 bytes
 * A search writes nothing here: its scratch is an astar_search.
 * Fields are public so the binding and tests can read them; change them
 * only through the functions below, which keep moves/passable in step.
 */
struct astar__subgoals; /* subgoal.c: one unit class's subgoal graph */

typedef struct astar_grid {
  int32_t width, height;
  int32_t stride;         /* width + 2 */
  uint32_t ntiles;        /* stride * (height + 2) */
  float *cost;            /* stored cost; kept when a tile is blocked */
  uint8_t *moves;         /* bit d: the step in direction d is legal */
  uint64_t *passable;     /* bit i: tile i is passable (border: 0) */
  uint64_t *passable_t;   /* the same bits column-major (bit x * (height
                             + 2) + y), for JPS's vertical scans; made on
                             the first JPS search, then kept in step */
  int diagonal;           /* ASTAR_DIAG_* */
  double cardinal_length, diagonal_length;
  double step_length[8];  /* per direction */
  int32_t offset[8];      /* index delta per direction */
  /* cheapest stored cost over all tiles (blocked ones included, which keeps
     it a valid lower bound) */
  astar_min min;
  uint8_t *terrain;       /* NULL: every tile is terrain 0 */
  float *heights;         /* NULL: every tile at height 0 */
  astar_unit *units[ASTAR_MAX_UNITS]; /* NULL: undefined (unit 0: default) */
  int units_own;          /* how many units have their own layers */
  astar_range range;      /* over passable tiles, for JPS */
  astar_zones zones;      /* zones of the grid's own layer (unit 0 and every
                             unit without layers of its own) */
  /* links, sorted by from then to; link_bits: bit i when tile i is an
     end of one (NULL while there are none) */
  astar_link *links;
  size_t nlinks, links_cap;
  uint64_t *link_bits;
  uint64_t version;       /* edit counter: every edit adds 1 */
  struct astar__subgoals *subgoals; /* prepared subgoal graphs (a list,
                             one per unit class; subgoal.c) */
  astar_clearance clear;  /* clearance of the grid's own layer */
  struct astar__zscratch *zscratch; /* flood scratch of zone repairs
                             (zones.c), made at the first repair */
  struct astar__landmarks *landmarks; /* landmarks.c: the distance fields
                             of astar_landmarks_build, NULL: none */
  uint64_t landmarks_serial; /* moves when landmarks, subgoal graphs or
                             jump tables are built over old ones or freed:
                             a search begun before must not resume (the
                             binding compares it as it does version) */
  astar_alloc_fn alloc;
  void *alloc_ud;
} astar_grid;

/* Lifecycle.  init leaves *g in a state release accepts even on failure;
 * release is idempotent.  Every tile starts passable with cost 1. */
void astar_grid_zero(astar_grid *g);
int astar_grid_init(astar_grid *g, int32_t width, int32_t height,
                    astar_alloc_fn alloc, void *ud);
void astar_grid_release(astar_grid *g);
/* Bytes a width x height grid and its scratch take (0 on overflow). */
size_t astar_grid_bytes(int32_t width, int32_t height, int with_scratch);
size_t astar_grid_memory(const astar_grid *g); /* bytes held now */

/* Movement: rule and step lengths; rebuilds every move mask (O(tiles)). */
int astar_grid_set_movement(astar_grid *g, int diagonal, double cardinal,
                            double diagonal_length);

/* Tiles.  x, y must be in range (the binding checks); cost must be a
 * positive finite float (astar_cost_ok).  O(1). */
int astar_cost_ok(double cost);
void astar_grid_set_cost(astar_grid *g, int32_t x, int32_t y, float cost);
void astar_grid_set_blocked(astar_grid *g, int32_t x, int32_t y,
                            int blocked);
float astar_grid_get_cost(const astar_grid *g, int32_t x, int32_t y);
int astar_grid_is_blocked(const astar_grid *g, int32_t x, int32_t y);
/* Rectangle fill: blocked < 0 leaves passability, 0 opens, 1 blocks;
 * cost <= 0 leaves the cost. */
void astar_grid_fill(astar_grid *g, int32_t x, int32_t y, int32_t w,
                     int32_t h, float cost, int blocked);
/* Bulk writes (loaders): set tile i's cost (when cost > 0) and whether it
 * is open, without refreshing move masks; then call astar_grid_refresh once
 * after the last write.  i is astar_index(g, x, y). */
void astar_grid_put(astar_grid *g, uint32_t i, float cost, int open);
void astar_grid_refresh(astar_grid *g);
/* Cheapest cost that a step can enter, as of the last prepare. */
float astar_grid_min_cost(const astar_grid *g);

/* Links (links.c).  link adds a move (x1, y1) -> (x2, y2) of cost
 * (finite, >= 0), and the way back when two_way, replacing the cost of
 * a link already there; the tiles must differ (EINVAL).  A link whose end
 * is impassable to a unit is not followed by that unit.  unlink removes
 * both directions (*removed: how many).  Searches of the A* family
 * follow links (JPS gives way to A*, IDA* and bidirectional search refuse
 * a grid with links); zones join the regions links join. */
int astar_grid_link(astar_grid *g, int32_t x1, int32_t y1, int32_t x2,
                    int32_t y2, double cost, int two_way);
int astar_grid_unlink(astar_grid *g, int32_t x1, int32_t y1, int32_t x2,
                      int32_t y2, int *removed);

/* Terrain and heights.  The first write allocates the layer (ENOMEM). */
int astar_grid_set_terrain(astar_grid *g, int32_t x, int32_t y, int terrain);
int astar_grid_get_terrain(const astar_grid *g, int32_t x, int32_t y);
int astar_grid_fill_terrain(astar_grid *g, int32_t x, int32_t y, int32_t w,
                            int32_t h, int terrain);
/* height: finite, |height| <= ASTAR_MAX_HEIGHT */
int astar_grid_set_height(astar_grid *g, int32_t x, int32_t y, double height);
double astar_grid_get_height(const astar_grid *g, int32_t x, int32_t y);
/* Bulk writes, like astar_grid_put: call astar_grid_refresh afterwards.
 * Call astar_grid_use_terrain / astar_grid_use_height first. */
int astar_grid_use_terrain(astar_grid *g);
int astar_grid_use_height(astar_grid *g);
void astar_grid_put_terrain(astar_grid *g, uint32_t i, int terrain);
void astar_grid_put_height(astar_grid *g, uint32_t i, float height);

/* Units.  define (re)sets unit u (0 <= u < ASTAR_MAX_UNITS) from a table of
 * ASTAR_TERRAINS multipliers (each 0 or a positive finite float) and its
 * height rule (climb, descend >= 0; limits >= 0 or HUGE_VAL).  O(1): the
 * unit's layers are rebuilt at its next use. */
int astar_unit_define(astar_grid *g, int unit, const float *table,
                      double climb, double descend, double max_climb,
                      double max_drop);
int astar_unit_defined(const astar_grid *g, int unit);
/* Unit u's cost on tile (x, y): 0 when the tile is impassable to it. */
double astar_unit_cost(const astar_grid *g, int unit, int32_t x, int32_t y);
/* Fills *out with what a search for unit u reads (EINVAL for an
 * undefined unit; EPREPARE when its layers are not prepared). */
int astar_grid_layer(const astar_grid *g, int unit, astar_layer *out);

static inline uint32_t astar_index(const astar_grid *g, int32_t x,
                                   int32_t y) {
  return (uint32_t)(y + 1) * (uint32_t)g->stride + (uint32_t)(x + 1);
}
static inline void astar_xy(const astar_grid *g, uint32_t i, int32_t *x,
                            int32_t *y) {
  *y = (int32_t)(i / (uint32_t)g->stride) - 1;
  *x = (int32_t)(i % (uint32_t)g->stride) - 1;
}

/* Text maps.  A legend maps each byte to a cost or to "blocked", and
 * optionally a terrain class; TERRAIN sets only the terrain class and
 * HEIGHT only the height, keeping the tile's cost and passability. */
enum { ASTAR_LEGEND_UNSET = 0, ASTAR_LEGEND_COST, ASTAR_LEGEND_BLOCKED,
       ASTAR_LEGEND_TERRAIN, ASTAR_LEGEND_HEIGHT /* height = cost[c] */ };
typedef struct astar_legend {
  uint8_t kind[256];
  float cost[256];
  int16_t terrain[256]; /* terrain class + 1; 0: keep the tile's terrain */
} astar_legend;

/* Where a parse failed (1-based line and column, 0 when not applicable). */
typedef struct astar_parse_error {
  int code; /* ASTAR_PERR_* */
  int32_t line, column;
  int32_t expected, got;
} astar_parse_error;
enum {
  ASTAR_PERR_NONE = 0,
  ASTAR_PERR_EMPTY,        /* no rows */
  ASTAR_PERR_ROW_LENGTH,   /* a row differs in length from the first */
  ASTAR_PERR_ROW_COUNT,    /* fewer or more rows than expected */
  ASTAR_PERR_CHAR,         /* a byte the legend does not define */
  ASTAR_PERR_HEADER,       /* MovingAI header malformed */
  ASTAR_PERR_TOO_BIG       /* the size exceeds the limits */
};
const char *astar_parse_error_text(int code);

/* Measure rows in text: lines split by LF or CRLF, one final newline
 * optional.  Sets *width and *height. */
int astar_text_shape(const char *s, size_t n, int32_t *width,
                     int32_t *height, astar_parse_error *err);
/* Fill g from text of exactly g's shape through the legend.  On error no
 * tile has changed (ENOMEM: the terrain layer could not be allocated). */
int astar_grid_load_text(astar_grid *g, const char *s, size_t n,
                         const astar_legend *legend, astar_parse_error *err);

/* MovingAI .map: parses the header; the rows start at s + *body_offset. */
int astar_movingai_header(const char *s, size_t n, int32_t *width,
                          int32_t *height, size_t *body_offset,
                          astar_parse_error *err);
/* The benchmark's legend: . G S passable (cost 1); @ O T W blocked. */
void astar_movingai_legend(astar_legend *legend);

/* Cost callbacks.  A tile callback gets a tile and the unit's cost there
 * (never a tile impassable to the unit) and writes the cost to use (> 0,
 * finite) or 0 for impassable into *out.  A move callback gets a step and
 * its cost as computed so far and writes the step's cost, or 0.  Both
 * return ASTAR_OK, or any other value to stop the search (astar_find_path
 * then returns ASTAR_ECALLBACK).  The tile callback runs at most once per
 * tile per search, the move callback at most once per step. */
typedef int (*astar_tile_fn)(void *ud, int32_t x, int32_t y, double cost,
                             double *out);
typedef int (*astar_move_fn)(void *ud, int32_t x1, int32_t y1, int32_t x2,
                             int32_t y2, double cost, double *out);

/* Search. */
typedef struct astar_query {
  int32_t sx, sy, gx, gy; /* 0-based, in range */
  int heuristic;          /* ASTAR_H_* */
  double weight;          /* >= 1; > 1 is weighted A* (not optimal) */
  int unit;               /* unit class, 0 = default */
  astar_tile_fn tile_fn;  /* optional */
  astar_move_fn move_fn;  /* optional */
  void *fn_ud;
  /* Lower bound of a tile's cost (a step of length L costs >= L * it).
   * 0: the unit's cheapest tile cost.  With callbacks the search checks
   * it and stops with ASTAR_EBOUND if a callback goes below it. */
  double min_cost;
  /* ---- query options (all off when zero, as astar_query_defaults
   * leaves them) ---- */
  int algorithm;          /* ASTAR_ALGO_* */
  int ties;               /* ASTAR_TIES_* */
  uint64_t seed;          /* ASTAR_TIES_RANDOM */
  uint32_t beam_width;    /* ASTAR_ALGO_BEAM: most open nodes kept (>= 1) */
  /* More goal tiles: x, y pairs (0-based, in range), ngoals pairs.  The
   * search stops at the first goal it reaches at least cost.  With
   * no_main_goal, gx, gy is not one of them (ngoals must be >= 1). */
  const int32_t *goals;
  size_t ngoals;
  int no_main_goal;
  /* NULL, or one cost (finite, >= 0) per pair of goals, added to the
   * path's cost at that goal: the search then ends at the goal where the
   * path's cost plus this is least (repair: the old path's cost from
   * there); r->cost is the path's own cost. */
  const double *goal_costs;
  /* Cutoffs: 0 = none (max_cost: HUGE_VAL, the default, or 0).  A search
   * that stops short because of one ends with ASTAR_CUTOFF. */
  double max_cost;        /* no path costing more is followed */
  uint32_t max_length;    /* no path of more steps is followed */
  uint32_t max_nodes;     /* at most this many expansions */
  /* When no goal is reached: keep the path to the expanded tile closest to
   * the goals (least distance, then least cost, then lowest index). */
  int closest;
  int leave_blocked_start; /* a blocked start is left as if passable */
  int next_to_blocked_goal; /* a blocked goal: stop on a tile next to it */
  int want_peak;          /* fill r->peak_open (a little slower) */
  /* Custom heuristic: writes an estimate (>= 0, finite) into *out; any
   * other return stops the search with ASTAR_ECALLBACK.  Multiplied by
   * weight. */
  int (*heuristic_fn)(void *ud, int32_t x, int32_t y, int32_t gx,
                      int32_t gy, double *out);
  void *heuristic_ud;
  /* 1: do not consult (nor build) the zones; the search then floods the
   * start's whole region when the goal is unreachable. */
  int no_zones;
  /* 0 or 1: a one-tile unit; s > 1: the path of the top-left tile of an
   * s x s unit whose whole footprint stays on tiles the unit class can
   * enter (the "clearance >= s" layer, made by astar_grid_prepare_size). */
  int size;
  /* Per-query overlays (path_check.c, overlay.c): avoid, x, y pairs
   * (0-based, in range), navoid pairs: tiles blocked for this query only
   * (the corner rule sees them blocked too); extra_tiles, x, y pairs with
   * extra_costs[k] (finite, >= 0) added to tile k's cost for this query
   * only (a tile listed twice gets both).  The start and the goals are
   * never avoided.  The map is not touched; the overlay lives in the
   * context's marks, stamped in O(navoid + nextra).  JPS, IDA* and the
   * bidirectional searches refuse them (AUTO runs A*). */
  const int32_t *avoid;
  size_t navoid;
  const int32_t *extra_tiles;
  const double *extra_costs;
  size_t nextra;
  /* 1: do not use the grid's landmarks (astar_landmarks_build) even where
   * they are ready */
  int no_landmarks;
  /* The open list of the A* loop: ASTAR_OPEN_AUTO (0) takes the bucket
   * queue where it is exact (see astar_loop.c), ASTAR_OPEN_HEAP always
   * the binary heap (the same costs; among nodes of equal f and g the
   * order, so a path of equal cost, may differ). */
  int open_list;
  /* JPS without the 2014 pruning (each diagonal tile a straight jump
   * meets something from is put on the open list), as JPS ran before it:
   * for benchmarks comparing the two (bench/cdriver.c "jps_classic"). */
  int jps_classic;
  /* ---- corners (engine.c) ---- */
  /* 1: the path walk (astar_path_last/prev, and astar_trail_prev once the
   * search is done) gives only the path's corners: its first tile, every
   * tile where the step changes (direction, or a link's jump), its last
   * tile; r->corners counts them (r->length still counts every tile).
   * Between two corners the path is a straight or diagonal run (one step
   * of sign(dx), sign(dy) at a time; hex: in axial coordinates), or a
   * link's jump.  The same cost and route as without; any-angle paths
   * lose only waypoints in line with their neighbours.  JPS (online or
   * on a jump table) and a prepared subgoal graph write their corners
   * without laying every tile. */
  int corners;
} astar_query;

enum { ASTAR_OPEN_AUTO = 0, ASTAR_OPEN_HEAP = 1 };

typedef struct astar_result {
  int outcome;        /* ASTAR_FOUND, ASTAR_NO_PATH, ... ASTAR_RUNNING */
  double cost;        /* path cost when found */
  uint32_t expanded;  /* nodes taken off the open list and expanded (JPS:
                         jump points) */
  uint32_t length;    /* tiles on the path, start and goal included */
  uint32_t generated; /* nodes put on the open list */
  uint32_t peak_open; /* largest open list (when q->want_peak) */
  /* The tile the path ends at: the goal reached, or with q->closest the
   * closest tile (then partial = 1 and outcome says why); goal_index is
   * the index in q->goals of the goal reached, -1 for gx, gy. */
  int32_t end_x, end_y;
  int32_t goal_index;
  int partial;
  /* ASTAR_EBOUND: the step (or tile: x1 == x2, y1 == y2), its cost and
   * the bound it broke */
  int32_t bad_x1, bad_y1, bad_x2, bad_y2;
  double bad_cost, bad_bound;
  int algorithm;      /* the ASTAR_ALGO_* that ran (AUTO resolved to
                         ASTAR_ALGO_ASTAR or ASTAR_ALGO_JPS) */
  int landmarks;      /* 1: the A* loop's heuristic read landmarks */
  int bucket;         /* 1: the A* loop ran on its bucket queue */
  uint32_t corners;   /* q->corners: corners on the path walk, else 0 */
} astar_result;

/*
 * A search context: every byte a search writes (generation stamps, heap
 * positions, the open list, the tile-callback memo, the options' scratch,
 * the scratch of IDA* and bidirectional search, the last path, the
 * explored marks and the state of a suspended search).  Searches read the
 * map (const) and write only their context, so any number of contexts may
 * search one prepared map at once, on any threads, while no edit runs.
 * A context is sized to the map it last searched (its per-tile arrays are
 * made again when a map of another size comes) and allocates nothing per
 * query once warm.  Fields are private to the core.
 */
struct astar__run;
struct astar__memo;
struct astar__extra;
struct astar__more;
struct astar__overlay;
struct astar__graphx;
struct astar__sgx;
struct astar__radix;
typedef struct astar_search {
  astar_alloc_fn alloc;
  void *alloc_ud;
  uint32_t ntiles;          /* the per-tile arrays' size, 0: none yet */
  uint32_t *heap_pos;       /* an open node's index in heap (JPS: a closed
                               jump point's parent) */
  uint32_t *stamp;          /* generation << 4 | closed << 3 | direction */
  uint32_t generation;
  astar_heap_entry *heap;
  size_t heap_cap;
  struct astar__memo *memo;  /* tile-callback results, with generation */
  struct astar__extra *extra; /* query options' scratch */
  struct astar__more *more;  /* IDA* and bidirectional scratch */
  struct astar__graphx *graphx; /* graph searches' scratch */
  struct astar__sgx *sgx;   /* subgoal graph searches' scratch */
  struct astar__via *via;   /* per tile: the parent through a link, with
                               the generation it was set in */
  struct astar__run *run;   /* a begun search's state */
  struct astar__overlay *overlay; /* avoid / extra_cost marks */
  struct astar__radix *radix; /* the A* loop's bucket queue */
  int state;                /* ASTAR_SEARCH_* */
  int busy;                 /* a step is running (a callback re-entered) */
  /* the last search: its map's geometry, for the path walk */
  int32_t stride;
  int32_t offset[8];
  uint32_t last_start, last_goal;
  int last_outcome;
  uint32_t explored_tag, explored_tag_b; /* 0: nothing to list */
  uint64_t map_version;     /* the map's edit counter when it began */
  uint64_t map_landmarks;   /* ... and its landmarks_serial */
  int last_waypoints;       /* the path walk follows parents (any-angle) */
} astar_search;

enum { ASTAR_SEARCH_IDLE = 0, ASTAR_SEARCH_RUNNING, ASTAR_SEARCH_DONE };

/* Lifecycle.  init allocates nothing (the first search does); release
 * frees everything and is idempotent.  memory: the bytes held now. */
void astar_search_init(astar_search *s, astar_alloc_fn alloc, void *ud);
void astar_search_release(astar_search *s);
size_t astar_search_memory(const astar_search *s);

/* Prepare: brings the map's derived data for unit (or every defined unit
 * class with ASTAR_ALL_UNITS) up to date: the unit's baked layers, the
 * cheapest cost and the cost range, the JPS column bits where JPS can
 * run, and with ASTAR_PREPARE_ZONES the zone labels.  O(1) when nothing
 * is stale.  Searches and zone queries never rebuild anything: on data
 * that is not prepared they return ASTAR_EPREPARE.  ENOMEM leaves the map
 * consistent (what could not be made stays unprepared); EINVAL for an
 * undefined unit. */
#define ASTAR_ALL_UNITS (-1)
#define ASTAR_PREPARE_ZONES 1u
int astar_grid_prepare(astar_grid *g, int unit, unsigned what);
/* 1 when a search of q (its unit; zones unless q->no_zones) would find
 * everything prepared. */
int astar_grid_prepared(const astar_grid *g, const astar_query *q);

/* Subgoal graphs (subgoal.c): preprocessing for static maps.  build makes
 * unit's graph for the map as it is now (the unit's layer prepared first:
 * else ASTAR_EPREPARE); where JPS could not run for the unit (movement,
 * costs not uniform, heights, links) it returns ASTAR_EINVAL with the
 * reason in *refusal (ASTAR_REFUSE_*).  From then on astar_find_path's
 * AUTO queries that JPS would answer run over the graph instead
 * (r->algorithm == ASTAR_ALGO_SUBGOAL), until an edit makes it stale:
 * they fall back to JPS until the next build.  A refusal keeps the graph
 * the unit had; ENOMEM leaves it none (the old one is freed first, so a
 * rebuild never holds two).  drop frees unit's graph
 * (unit < 0: all); memory counts bytes held (unit < 0: all). */
enum { ASTAR_SUBGOAL_NONE = 0, ASTAR_SUBGOAL_READY, ASTAR_SUBGOAL_STALE };
int astar_subgoal_build(astar_grid *g, int unit, int *refusal);
/* The same; the sample queries behind astar_subgoal_jps_first run in s
 * (a context for g that is not in a step; NULL or busy: one of their own,
 * allocated and freed here), so a caller that keeps a context for the map
 * spares the build a whole-map allocation.  s is left idle (no search to
 * step on or read back). */
int astar_subgoal_build_with(astar_grid *g, int unit, int *refusal,
                             astar_search *s);
int astar_subgoal_state(const astar_grid *g, int unit);
void astar_subgoal_drop(astar_grid *g, int unit);
size_t astar_subgoal_memory(const astar_grid *g, int unit);
int astar_subgoal_count(const astar_grid *g, int unit, uint32_t *nsub,
                        uint32_t *nedges);
/* how many of unit's subgoals stayed global (the rest were contracted:
 * a query expands mostly global ones); 0 without a graph */
uint32_t astar_subgoal_global(const astar_grid *g, int unit);
/* 1 when AUTO searches (astar_find_path, and begin/step, whose slices
 * spend max_nodes on the probe too) try plain JPS first on unit's short
 * queries (start and goal at most 64 tiles apart on each axis; the
 * graph's search from the start when JPS has not answered within 32
 * expansions, its result's expanded and generated counting JPS's): the
 * build found that JPS answers 9 in 10 such queries that soon here */
int astar_subgoal_jps_first(const astar_grid *g, int unit);
/* Does unit's graph promise to beat JPS (with precomputed jumps)?  The
 * rule, measured on the MovingAI maps (bench/static.lua): at least
 * 128 x 128 tiles, global (never contracted) subgoals on at most 0.1%
 * of the tiles, and a graph of at most 4 bytes per tile (the jump
 * table's size; lak303d's takes 10): caves, mazes, rooms and corridors
 * (brc202d, maze512-4-0, 32room_000) contract to almost nothing; open cities and islands, where
 * a corner sees many others, and random maps keep far more (or are not
 * contracted at all), and JPS+ answers them faster. */
int astar_subgoal_pays(const astar_grid *g, int unit);
/* Precomputed straight jumps (JPS+) instead of a graph: unit's entry in
 * the same list (state, drop and memory as above; count says 0
 * subgoals), 4 bytes per padded tile.  AUTO queries that JPS would
 * answer then run JPS reading jump distances from the table
 * (r->algorithm == ASTAR_ALGO_JPS_PLUS), the same searches and paths as
 * JPS, until an edit makes it stale.  Refusals as for build. */
int astar_jumps_build(astar_grid *g, int unit, int *refusal);
/* 1 when unit's entry is a jump table */
int astar_subgoal_is_jumps(const astar_grid *g, int unit);

void astar_query_defaults(astar_query *q);

/*
 * Landmarks (landmarks.c, ALT).  build stores k (1..ASTAR_MAX_LANDMARKS)
 * distance fields for each of the nunits unit classes listed (their
 * layers prepared: ASTAR_EPREPARE else), replacing the landmarks the map
 * had.  A listed unit's set of the same k is rebuilt in its own memory;
 * when the build fails (ENOMEM, or ETOOBIG when costs span too many
 * orders of magnitude for the fields' 32-bit units) such sets are freed
 * and the others kept.  4 bytes per
 * tile per landmark, counted in astar_grid_memory.  The A* loop uses them
 * while no edit has moved g->version since the build, for a query of one
 * of those units with one goal, the default heuristic, weight 1, size 1,
 * no callbacks and no links on the grid (the costs stay optimal: the
 * heuristic is consistent, see landmarks.c); the result says so
 * (r->landmarks).  state: NONE, READY, or STALE (an edit since: kept, not
 * used).  drop frees them.  landmark_tile: where landmark j of unit lies
 * (1), or 0.
 */
#define ASTAR_MAX_LANDMARKS 32
enum { ASTAR_LANDMARKS_NONE = 0, ASTAR_LANDMARKS_READY,
       ASTAR_LANDMARKS_STALE };
int astar_landmarks_build(astar_grid *g, const int *units, int nunits, int k);
int astar_landmarks_state(const astar_grid *g);
void astar_landmarks_drop(astar_grid *g);
size_t astar_landmarks_memory(const astar_grid *g);
int astar_landmark_tile(const astar_grid *g, int unit, int j, int32_t *x,
                        int32_t *y);

/* Runs the whole search with context s on map g.  Returns ASTAR_OK (see
 * r->outcome), ASTAR_ENOMEM, ASTAR_EINVAL (a bad query, or an algorithm
 * that cannot run it: astar_query_refusal says why), ASTAR_EPREPARE, or
 * ASTAR_EBUSY (s is in use: a callback re-entered it). */
int astar_find_path(astar_search *s, const astar_grid *g,
                    const astar_query *q, astar_result *r);

/* The same search in slices.  begin checks q and sets the search up (the
 * start is on the open list; nothing expanded yet; returns as
 * astar_find_path, with r->outcome ASTAR_RUNNING unless the outcome is
 * known at once).  step expands at most max_nodes nodes (0: no limit) and
 * returns ASTAR_OK with r->outcome ASTAR_RUNNING while it is unfinished;
 * the final result equals an uninterrupted run's.  Between steps the map
 * must not change (the binding compares g->version with s->map_version)
 * and q, with its goals and callbacks' data, must stay alive (the context
 * keeps a copy of *q, not of the arrays it points to).  The A* family
 * and JPS stop anywhere; bidirectional search and IDA* run to the end in
 * their first step.  A step with max_nodes != 0 also keeps the expanded
 * tile closest to the goal so far (the closest rule: least distance by
 * the default heuristic, then least cost, then lowest index; under JPS
 * among the jump points) for astar_search_partial. */
int astar_search_begin(astar_search *s, const astar_grid *g,
                       const astar_query *q, astar_result *r);
int astar_search_step(astar_search *s, const astar_grid *g,
                      uint32_t max_nodes, astar_result *r);

/* The best path so far of the search begun on s: while it runs (or when
 * it ended without a path), the path to the closest tile that sliced
 * steps expanded; once it found a path (or closest's partial one), that
 * path.  Returns 1 and fills r (cost, length, end_x, end_y, partial = 1
 * unless it is the found path; outcome as the search stands) and sets *t
 * at the path's last tile; 0 when there is none (nothing expanded yet,
 * IDA* or bidirectional search before their end, a blocked start or
 * goal, an error; r is then left as it was).  Walk it back with astar_trail_prev (which returns 0
 * at the start), reading t->node; valid until s is stepped or begun
 * again.  Nothing in the search changes. */
typedef struct astar_trail {
  uint32_t node;   /* the tile the walk stands on */
  uint32_t anchor; /* private: the jump point a JPS walk heads back to */
  int32_t back;    /* private: one step back along a jump */
  int mode;        /* private */
} astar_trail;
int astar_search_partial(const astar_search *s, astar_trail *t,
                         astar_result *r);
int astar_trail_prev(const astar_search *s, astar_trail *t);
/* As astar_trail_prev, but on to the previous corner (see q->corners):
 * the tile before a change of step, or the start.  Lets a caller read a
 * running search's partial path as corners. */
int astar_trail_corner_prev(const astar_search *s, astar_trail *t);

/* Capability table: whether q's algorithm takes q's options on g.
 * ASTAR_REFUSE_NONE, or the first reason it refuses (the binding words
 * them).  JPS also needs the map prepared for q's unit. */
enum {
  ASTAR_REFUSE_NONE = 0,
  ASTAR_REFUSE_MOVEMENT,    /* JPS: 8-way with no corner cutting */
  ASTAR_REFUSE_LENGTHS,     /* JPS: diagonal between 1 and 2 cardinals */
  ASTAR_REFUSE_UNIT,        /* the unit class is not defined */
  ASTAR_REFUSE_OPTIONS,     /* JPS: ties, goals, cutoffs, closest, ... */
  ASTAR_REFUSE_OPTIONS_BUT_NODES, /* IDA*, bidirectional: the same, but
                                     max_nodes is fine */
  ASTAR_REFUSE_CALLBACKS,   /* tile or move callbacks */
  ASTAR_REFUSE_HEIGHTS,     /* JPS: a unit with a height rule */
  ASTAR_REFUSE_HEURISTIC,   /* JPS: only the default heuristic */
  ASTAR_REFUSE_WEIGHT,      /* weight 1 only */
  ASTAR_REFUSE_UNIFORM,     /* JPS: uniform tile costs */
  ASTAR_REFUSE_PREPARE,     /* JPS: the unit's layers are not prepared */
  ASTAR_REFUSE_SQUARE,      /* any-angle: a square grid (not hex) */
  ASTAR_REFUSE_LINKS        /* IDA*, bidirectional (and JPS, which AUTO
                               and an explicit JPS query replace by A*):
                               the grid has links */
};
int astar_query_refusal(const astar_grid *g, const astar_query *q);

/* The path of the last search that returned one (found, or partial with
 * q->closest), walked from its end back to the start: start with
 * astar_path_last(), then astar_path_prev() until it returns 0.  Valid
 * until s searches again (or the map's version moves on). */
uint32_t astar_path_last(const astar_search *s);
int astar_path_prev(const astar_search *s, uint32_t *node);
/* astar_path_prev that also moves *x, *y (node's astar_xy) to the tile it
 * steps to, without a division on a step to a neighbour. */
int astar_path_prev_xy(const astar_search *s, uint32_t *node, int32_t *x,
                       int32_t *y);

/* The tiles the last search reached, for visualisers and debugging, in
 * index order (row by row).  Start with *i = 0; each call returns
 * ASTAR_EXPLORED_CLOSED (the tile was expanded: under JPS a jump point,
 * in a bidirectional search by either side) or ASTAR_EXPLORED_OPEN
 * (reached, never expanded: the open list when the search ended; beam
 * search forgets the nodes it drops) and sets *x, *y (0-based), or returns
 * 0 when there are no more.  IDA* keeps no such set: it reports the tiles
 * of its last path only.  Nothing when the search did not run (blocked
 * start or goal, goal in another zone, an error).  Valid until s searches
 * again. */
#define ASTAR_EXPLORED_OPEN 1
#define ASTAR_EXPLORED_CLOSED 2
int astar_explored_next(const astar_search *s, uint32_t *i, int32_t *x,
                        int32_t *y);

/* Path checks (path_check.c).  A path is n tiles, xy[2i], xy[2i + 1]
 * (0-based, in range: the caller checks).  astar_path_check walks it from
 * tile `from` under the rules a search of q would use (q->unit's layer,
 * or its q->size layer for q->size > 1 (prepared: astar_grid_prepare_size):
 * passability, the moves masks with the corner rule and height limits,
 * unit-class costs, heights; q's overlays, where the tile at `from` and
 * the last tile are never avoided; q's callbacks are not seen): the tile
 * at `from` must be open, and every later tile must be one legal step
 * from the one before.  Needs the unit's layer prepared (EPREPARE).  A
 * context is needed only for overlays (its marks; its last path is kept).
 * O(n - from + overlays). */
typedef struct astar_path_report {
  size_t bad;        /* the first illegal tile (n: none) */
  size_t last_bad;   /* the last illegal tile (n: none) */
  int last_bad_open; /* the tile last_bad itself is open (only the step
                        into it is illegal) */
  double cost;       /* the cost from `from` to the end (bad == n), or to
                        the tile before bad */
  double *acc;       /* set by the caller: NULL, or room for n costs:
                        acc[i] = the cost of the step into tile i, for
                        from < i < bad (acc[from] = 0) */
} astar_path_report;
int astar_path_check(astar_search *s, const astar_grid *g,
                     const astar_query *q, const int32_t *xy, size_t n,
                     size_t from, astar_path_report *out);

/* Repair (path_check.c): a path from the tile at `at` to the path's last
 * tile after edits.  KEPT: the path is still legal from `at` (nothing
 * searched; out->cost its cost from there).  REJOINED: the old path is
 * followed from `at` to the tile out->leave (up to ASTAR_REPAIR_BACKOFF
 * tiles before its first break), a search from there reaches one of the
 * old path's first legal tiles after its last break (the rejoin window:
 * up to ASTAR_REPAIR_WINDOW tiles, each counted with the old path's cost
 * from it to the end, so the search ends where the whole is least), tile
 * out->rejoin, and the old path goes on from there.  The detour is the
 * context's path (astar_path_last/prev, from out->leave to out->rejoin);
 * out->cost is the whole cost.  The search expands at most `budget`
 * nodes.  FRESH: that search could not rejoin (no open tile to rejoin,
 * the budget ran out, no path): a plain search of q from `at` to the
 * last tile ran instead (optimal); out->r says how it ended.  q gives the
 * unit, overlays, heuristic and so on; its start, goal, goals and cutoffs
 * are set here.  A REJOINED path is the cheapest among those that follow
 * the old path to out->leave and rejoin it in the window: never cheaper
 * than the optimum, equal to it whenever an optimal path does so. */
#define ASTAR_REPAIR_BACKOFF 8
#define ASTAR_REPAIR_WINDOW 16
enum { ASTAR_REPAIR_KEPT = 0, ASTAR_REPAIR_REJOINED, ASTAR_REPAIR_FRESH };
typedef struct astar_repair {
  int how;         /* ASTAR_REPAIR_* */
  size_t leave;    /* REJOINED: the old path's tile the detour starts on */
  size_t rejoin;   /* REJOINED: the old path's tile the detour ends on */
  size_t bad;      /* the first illegal tile (n when KEPT) */
  double cost;     /* the new path's cost (KEPT, REJOINED, FRESH found) */
  uint32_t expanded; /* nodes both searches expanded */
  astar_result r;  /* the last search's result (not KEPT) */
} astar_repair;
int astar_path_repair(astar_search *s, const astar_grid *g,
                      const astar_query *q, const int32_t *xy, size_t n,
                      size_t at, uint32_t budget, astar_repair *out);

/* Zones: connected regions for one unit class.  Two tiles are in the same
 * zone when a chain of legal moves joins them, each move taken in either
 * direction (a height limit can make a move one-way: then one zone does
 * not promise a path both ways; different zones always mean no path).
 * Cost callbacks are not seen: they can only close tiles or refuse
 * steps, so "different zones => no path" holds for them too.  Labels are
 * made by astar_grid_prepare(g, unit, ASTAR_PREPARE_ZONES) and kept up to
 * date by tile edits (an opened tile merges zones; a closed one checks
 * locally whether its zone split and relabels only the part that split
 * off); bulk edits, a movement change or a new cost table mark the
 * class's zones for a full relabel at the next prepare.  The queries read
 * the labels only (ASTAR_EPREPARE when they are not made or stale; EINVAL
 * for an undefined unit), so they never touch a search's context.  Ids
 * are stable between two queries if nothing was edited. */
int astar_zone_of(const astar_grid *g, int unit, int32_t x, int32_t y,
                  uint32_t *zone); /* 0: impassable to the unit */
int astar_zone_count(const astar_grid *g, int unit, uint32_t *count);
/* Tiles in zone id (0 when id is not a zone now). */
int astar_zone_size(const astar_grid *g, int unit, uint32_t id,
                    uint32_t *size);
/* Marks the unit's zones for a full relabel at the next prepare. */
int astar_zones_invalidate(astar_grid *g, int unit);

/*
 * Snapshots: an immutable, reference-counted copy of a prepared map, for
 * searches on other threads.  new prepares g for the listed unit classes
 * (zones included) and copies what a search reads: the base layer (unit
 * 0's), the listed units' own layers and JPS column bits, their zones and
 * the heights; units not listed are undefined in the copy.  units == NULL
 * copies every defined unit.  Later edits of g never touch the copy.  The
 * copy's memory comes from alloc, which must be callable from any thread
 * (the binding passes one over malloc); searches read astar_snapshot_grid
 * through a const pointer, any number at once.  retain / release count
 * holders from any thread; the last release frees.  retain_live is
 * retain for a registry that may meet a snapshot whose count already
 * reached 0 (it then returns 0 and the caller must not use it).
 * meta: bytes of the caller's (copied; e.g. the binding's unit names).
 */
typedef struct astar_snapshot {
  astar_grid grid;
  int refs;              /* holders; only through the functions below */
  size_t bytes;          /* memory the copy holds */
  void *meta;
  size_t meta_size;
  uint64_t tag;          /* the binding's (token registry), 0 at first */
  uint32_t tag_slot;
} astar_snapshot;
int astar_snapshot_new(astar_snapshot **out, astar_grid *g,
                       const int *units, int nunits, const void *meta,
                       size_t meta_size, astar_alloc_fn alloc, void *ud);
void astar_snapshot_retain(astar_snapshot *s);
int astar_snapshot_retain_live(astar_snapshot *s);
/* 1 when this was the last holder: the caller then calls
 * astar_snapshot_free (after taking it out of any registry). */
int astar_snapshot_release(astar_snapshot *s);
void astar_snapshot_free(astar_snapshot *s);
static inline const astar_grid *astar_snapshot_grid(const astar_snapshot *s) {
  return &s->grid;
}

/*
 * Batches and workers.  A batch is a list of queries (start and goal,
 * 0-based) sharing one query template (its options; no callbacks) on one
 * const map, with flat results: per query an outcome, a cost and a path
 * of 1-based uint16 x, y pairs (ASTAR_MAX_SIDE fits).  A batch runs on
 * the calling thread (astar_batch_run, with a context of the caller's)
 * or on a worker pool: n threads, each with its own search context,
 * taking chunks of the queued batches' queries in turn.  A batch's
 * memory comes from alloc (any thread).  The map must stay alive and
 * unedited until the batch is done (a snapshot's copy never changes).
 */
typedef struct astar_batch_result {
  int outcome;            /* ASTAR_FOUND, ... */
  int partial;            /* a path to the closest tile (q->closest) */
  double cost;
  uint32_t length;        /* tiles on the path (q->corners: corners),
                             0 when none */
  uint32_t chunk, offset; /* where its path is (astar_batch_path) */
} astar_batch_result;

typedef struct astar_batch astar_batch;
typedef struct astar_workers astar_workers;

/* A batch of n queries on g: fill the coordinates (4 per query: sx, sy,
 * gx, gy, 0-based, in range) into astar_batch_coords, then run or
 * submit it.  q is copied (with its goals); callbacks must be NULL. */
int astar_batch_new(astar_batch **out, const astar_grid *g,
                    const astar_query *q, uint32_t n, astar_alloc_fn alloc,
                    void *ud);
int32_t *astar_batch_coords(astar_batch *b);
uint32_t astar_batch_size(const astar_batch *b);
void astar_batch_free(astar_batch *b); /* not while queued or running */
/* Runs every query of b with context s, on this thread. */
void astar_batch_run(astar_batch *b, astar_search *s);
/* After it is done: ASTAR_OK, or the first error and the index (0-based)
 * of the query that met it. */
int astar_batch_status(const astar_batch *b, uint32_t *query);
const astar_batch_result *astar_batch_results(const astar_batch *b);
/* The path of a result: length x, y pairs, 1-based. */
const uint16_t *astar_batch_path(const astar_batch *b,
                                 const astar_batch_result *r);

/* The number of processors online (at least 1). */
int astar_cpu_count(void);
#define ASTAR_MAX_WORKERS 256
/* Starts n threads (1 .. ASTAR_MAX_WORKERS).  ENOMEM, or EINVAL when a
 * thread cannot start (none is left running). */
int astar_workers_new(astar_workers **out, int n, astar_alloc_fn alloc,
                      void *ud);
/* Queues b (ASTAR_EINVAL after close). */
int astar_workers_submit(astar_workers *w, astar_batch *b);
int astar_workers_done(astar_workers *w, const astar_batch *b);
void astar_workers_wait(astar_workers *w, const astar_batch *b);
int astar_workers_count(const astar_workers *w);
/* Cancels what is queued, waits for the queries running, joins every
 * thread and frees the pool; batches submitted are done (cancelled ones
 * with ASTAR_ECANCELLED) and can be read or freed.  NULL is fine. */
void astar_workers_free(astar_workers *w);
/* ---- clearance and large units (clearance.c) ---- */

/* Prepare for an s x s unit of class unit (size 0 or 1: astar_grid_prepare):
 * the unit's layers, its clearance and its "clearance >= size" layer (with
 * ASTAR_PREPARE_ZONES its zones).  With ASTAR_PREPARE_CLEARANCE the
 * clearance values alone are made (for astar_grid_clearance).  EINVAL for
 * an undefined unit or a size outside 0..ASTAR_MAX_SIZE. */
#define ASTAR_PREPARE_CLEARANCE 2u
int astar_grid_prepare_size(astar_grid *g, int unit, int size, unsigned what);
/* The clearance of tile (x, y) for unit (EPREPARE when not made). */
int astar_grid_clearance(const astar_grid *g, int unit, int32_t x, int32_t y,
                         int *value);
/* What a search of an s x s unit reads (astar_grid_layer for size <= 1). */
int astar_grid_layer_size(const astar_grid *g, int unit, int size,
                          astar_layer *out);
/* Zone queries of the s x s unit's layer (size <= 1: the plain ones). */
int astar_zone_of_size(const astar_grid *g, int unit, int size, int32_t x,
                       int32_t y, uint32_t *zone);
int astar_zone_count_size(const astar_grid *g, int unit, int size,
                          uint32_t *count);
int astar_zone_size_size(const astar_grid *g, int unit, int size, uint32_t id,
                         uint32_t *tiles);

/* ---- line of sight and smoothing (sight.c) ---- */

/* Line of sight between the centres of tiles (x0, y0) and (x1, y1) for an
 * s x s unit of class unit (its layer prepared): every tile whose inside
 * the segment crosses, both ends included, is passable to the layer, and
 * where the segment passes exactly through a tile corner it may touch a
 * blocked tile there but not squeeze between two blocked tiles that meet
 * only at that corner (with the diagonal rule "always", it may).  Every
 * legal step is in line of sight, and the answer is the same both ways.
 * Returns 1, 0 with *bx, *by the first tile from (x0, y0) that blocks (at
 * a squeeze, the blocked tile beside the x step), or a negative status
 * (EPREPARE, EINVAL: undefined unit, hex grid). */
int astar_line_of_sight(const astar_grid *g, int unit, int size, int32_t x0,
                        int32_t y0, int32_t x1, int32_t y1, int32_t *bx,
                        int32_t *by);
/* Legs (smooth, any-angle search): one step of the grid costs what a
 * search pays for it; a longer leg in line of sight costs its Euclidean
 * length (in cardinal lengths) times the dearest tile it enters (its
 * start tile not counted); for a unit with a height rule a longer leg
 * must stay on tiles of its start's height. */
/* String pulling: xy holds n waypoints (x, y pairs, 0-based, in range);
 * out (room for n pairs; may be xy) gets the smoothed ones, *nout their
 * count.  Each leg is in line of sight and costs at most what the legs it
 * replaces cost (as above, 1e-9 relative slack).  sum: scratch for n
 * doubles (the input's running cost), or NULL (slower: sums again).
 * Returns ASTAR_OK, EINVAL with *bad = k when leg k -> k + 1 of the input
 * may not be taken (blocked, or not a legal step), EPREPARE, or EINVAL
 * on a hex grid. */
int astar_smooth(const astar_grid *g, int unit, int size, const int32_t *xy,
                 size_t n, int32_t *out, size_t *nout, size_t *bad,
                 double *sum);
/*
 * Fields (field.c): for every tile, the cost of the cheapest path between
 * it and the nearest of a set of goals, under the grid's own rules (the
 * diagonal rule, step lengths, a unit class with its heights, hex, an
 * optional tile callback), in the search's own double arithmetic.  "to"
 * fields hold the cost from each tile to a goal (a Dijkstra from the
 * goals over reversed steps: each step costs what moving forward along it
 * costs); "from" fields the cost from a goal to each tile.  Goals may
 * start at values of their own (negative too).  Uniform step costs and
 * one start value run breadth-first; anything else a heap.
 *
 * A field is a search context that keeps what it found: its stamps say
 * which tiles have a value (so a build, like a search, costs what it
 * touches: with max_cost only the tiles within it), value[] holds each
 * one's cost (a 32-bit float: 4 bytes per tile), order[] the tiles with a
 * value in the order the build closed them (by value: within() stops
 * early, flee() seeds from it).  Rebuilding a warm field of the same size
 * allocates nothing.  A field reads the map only while it is built and
 * while it is followed (next, directions), and writes only itself.
 */
enum { ASTAR_FIELD_TO = 0, ASTAR_FIELD_FROM = 1 };
/* The direction astar_field_next reports for a step through a link. */
#define ASTAR_FIELD_LINK 8

struct astar__fq; /* fqueue.h */
typedef struct astar_field {
  astar_search ctx;     /* stamps, heap positions, heap, callback memo */
  float *value;         /* ntiles: a tile's value, where stamped */
  uint32_t *order;      /* count tiles with a value */
  uint32_t ntiles, count;
  int32_t width, height;
  uint32_t tag;         /* the stamps of this content; 0: empty */
  int direction;        /* ASTAR_FIELD_* */
  int unit;
  int sorted;           /* order[] is by value (no sum, no ring) */
  int memo;             /* a tile callback's costs in ctx.memo (tag) */
  uint64_t version;     /* the map's edit counter when it was built */
  uint32_t expanded;    /* tiles closed by the last build or rescan */
  int size;             /* the unit's size (1: one tile) */
  int links;            /* the grid's links were followed */
  /* The build's overlays, copied (the caller's lists may go): navoid
   * avoided tiles (goals left out) and nextra tiles with their costs, as
   * x, y pairs in ov_xy (avoided first); stamped in ctx's marks (mtag)
   * for the build and for following the field. */
  int32_t *ov_xy;
  double *ov_cost;
  size_t ov_navoid, ov_nextra, ov_cap;
  uint32_t mtag;        /* the marks' tag, 0: no overlay */
  struct astar__fq *fq; /* the radix heap of the builds (fqueue.h) */
  int heap;             /* built with the binary heap (query's heap) */
} astar_field;

/* How a field is built.  goals: ngoals x, y pairs (0-based, in range;
 * a goal the unit cannot enter is the caller's to refuse: it is ignored
 * here); values: a start value per goal (NULL: 0 each; finite); max_cost:
 * tiles whose value would exceed it get none (HUGE_VAL: no limit);
 * tile_fn: as for astar_query (memoized once per tile per build).  Add an
 * option here and in field_setup (field.c). */
typedef struct astar_field_query {
  int unit;
  int direction;
  const int32_t *goals;
  size_t ngoals;
  const double *values;
  double max_cost;
  astar_tile_fn tile_fn;
  void *fn_ud;
  int size;                 /* an s x s unit (0, 1: one tile) */
  const int32_t *avoid;     /* as astar_query's: navoid x, y pairs */
  size_t navoid;
  const int32_t *extra_tiles; /* nextra x, y pairs, extra_costs[k] */
  const double *extra_costs;
  size_t nextra;
  int heap;                 /* 1: the binary heap instead of the radix
                               heap (same values; for comparisons) */
} astar_field_query;

void astar_field_query_defaults(astar_field_query *q);
/* Lifecycle: init allocates nothing; release is idempotent. */
void astar_field_init(astar_field *f, astar_alloc_fn alloc, void *ud);
void astar_field_release(astar_field *f);
size_t astar_field_memory(const astar_field *f);
/* Sizes f for g (once per size; ENOMEM leaves it empty). */
int astar_field_fit(astar_field *f, const astar_grid *g);
/* Builds f on g (prepared for q->unit).  ASTAR_OK, ENOMEM, EPREPARE,
 * EINVAL (bad query), EBUSY, or ECALLBACK (the tile callback stopped it):
 * on any error f is left empty. */
int astar_field_build(astar_field *f, const astar_grid *g,
                      const astar_field_query *q);
/* Flee map: dst's values become k * src's, then rescanned as a field from
 * every such tile (so a step costs what it costs and a dead end is no
 * refuge).  dst may be src.  q gives the rules of the rescan (unit,
 * direction, tile_fn; goals and max_cost unused). */
int astar_field_flee(astar_field *dst, const astar_field *src,
                     const astar_grid *g, const astar_field_query *q,
                     double k);
/* Weighted sum of n fields of one size: a tile has a value where every
 * field has one.  With g (prepared for q->unit) the sum is rescanned as a
 * field under q's rules; with g NULL it stays a plain sum.  dst must be
 * none of src. */
int astar_field_combine(astar_field *dst, const astar_field *const *src,
                        const double *weight, size_t n,
                        const astar_grid *g, const astar_field_query *q);

/* Reading.  has: 1 when tile i (astar_index) has a value. */
static inline int astar_field_has(const astar_field *f, uint32_t i) {
  return f->tag != 0 &&
         (f->ctx.stamp[i] & ~(uint32_t)7u) == (f->tag | 8u);
}
/* The best step downhill from tile i: a legal move of the unit on L (the
 * layer of g for f->unit) honouring the corner rule (and the tile
 * callback's closed tiles), toward the goals: for a "to" field a move
 * i -> next, for a "from" field a move next -> i walked backwards.  Among
 * equal-best steps the first in direction order, or with rng a seeded
 * uniform choice.  Returns 1 and sets *next, *step (the step's cost) and
 * *dir (the direction moved, ASTAR_N..ASTAR_NW, or ASTAR_FIELD_LINK for a
 * step through a grid link: *next is then the link's other end); 0 when
 * i has no value or
 * no step leads downhill (a goal). */
int astar_field_next(const astar_field *f, const astar_grid *g,
                     const astar_layer *L, uint32_t i, uint64_t *rng,
                     uint32_t *next, double *step, int *dir);
/* splitmix64 step, for the seeds of next */
uint64_t astar_field_random(uint64_t *state);
/* ---- Explicit graphs (graph.c, graph_search.c) ----
 *
 * Nodes are 0 .. n-1 (the binding adds 1).  Each node may have a position
 * (x, y, z), which only feeds the heuristic, and may be disabled (closed
 * for searches, e.g. a locked door; its edges stay).  An edge a -> b has
 * a cost >= 0; there is at most one edge per ordered pair.  Edges are
 * kept twice, out of a and into b (the backward side of bidirectional
 * search), each node's edges contiguous in a pool that grows by moving a
 * node's run to its end and is compacted when half of it is dead space.
 *
 * Derived data, brought up to date by astar_graph_prepare (O(1) when
 * nothing is stale; searches return ASTAR_EPREPARE otherwise):
 *  - zones: weakly connected components of the edges (disabled nodes
 *    included, so disable/enable never touches them).  Adding an edge
 *    merges two zones at once (union-find); removing one marks them for
 *    a relabel (O(nodes + edges)) at the next prepare.
 *  - the heuristic's scale: the least cost / straight-line length over
 *    the edges whose ends both have positions, so the scaled euclidean
 *    distance never overestimates; and the least positive edge cost (the
 *    heap keys' quantum).  Lowering a cost updates them at once; raising
 *    or removing marks them for a rescan.
 */
#define ASTAR_GRAPH_MAX_NODES 0x7FFFFFF0u
#define ASTAR_GRAPH_MAX_COST 1e300

typedef struct astar_adjacency {
  uint32_t *first, *deg, *room; /* per node: its run in the pool */
  uint32_t *to;                 /* pool: the other end */
  double *cost;                 /* pool: the edge's cost */
  size_t used, cap, dead;       /* pool slots used, allocated, abandoned */
} astar_adjacency;

typedef struct astar_graph {
  uint32_t n, cap;        /* nodes, per-node slots allocated */
  double *pos;            /* 3 per node: x, y, z */
  uint8_t *flags;         /* ASTAR_NODE_* */
  uint32_t unplaced;      /* nodes without a position */
  astar_adjacency out, in;
  size_t nedges;
  uint32_t *zparent, *zsize; /* union-find forest of the zones */
  uint32_t nzones;
  int zones_stale;
  double ratio;           /* least cost / length (HUGE_VAL: no such edge) */
  double min_cost;        /* least positive edge cost (HUGE_VAL: none) */
  int bounds_stale;
  uint64_t version;       /* edit counter: every edit adds 1 */
  astar_alloc_fn alloc;
  void *alloc_ud;
} astar_graph;

enum { ASTAR_NODE_DISABLED = 1, ASTAR_NODE_PLACED = 2 };

void astar_graph_init(astar_graph *g, astar_alloc_fn alloc, void *ud);
void astar_graph_release(astar_graph *g); /* idempotent */
size_t astar_graph_memory(const astar_graph *g);
/* Room for n nodes (a hint; ENOMEM leaves g as it was). */
int astar_graph_reserve(astar_graph *g, uint32_t n);
/* A new node; placed: pos holds x, y, z.  *id is its number. */
int astar_graph_add_node(astar_graph *g, int placed, const double *pos,
                         uint32_t *id);
/* Sets the cost of a -> b, adding the edge when there is none; cost < 0
 * removes it (nothing when there is none).  a, b < n; cost finite. */
int astar_graph_set_edge(astar_graph *g, uint32_t a, uint32_t b,
                         double cost);
/* The cost of a -> b, or -1 when there is no such edge. */
double astar_graph_edge(const astar_graph *g, uint32_t a, uint32_t b);
void astar_graph_disable(astar_graph *g, uint32_t id, int disabled);
int astar_graph_prepare(astar_graph *g);
/* Zones (after prepare): the zone of a node (a root id, stable while
 * nothing is edited) and the number of zones. */
int astar_graph_zone(const astar_graph *g, uint32_t id, uint32_t *zone);

/* A graph query.  goals: ngoals node ids (>= 1).  algorithm: ASTAR_ALGO_
 * ASTAR (weight > 1: weighted A*), DIJKSTRA, BFS (fewest edges), GREEDY,
 * BIDIR (Dijkstra from both ends; no max_cost, closest, ties or
 * heuristic).  heuristic: ASTAR_H_EUCLIDEAN (the default: scaled as said
 * above; zero when a node has no position or over more than 16 goals) or
 * ASTAR_H_ZERO; heuristic_fn (optional) writes an estimate of the cost
 * from node to goal (>= 0, finite) and returns ASTAR_OK, or anything else
 * to stop the search (ASTAR_ECALLBACK). */
typedef struct astar_graph_query {
  uint32_t start;
  const uint32_t *goals;
  size_t ngoals;
  int algorithm;
  int heuristic;
  double weight;
  int (*heuristic_fn)(void *ud, uint32_t node, uint32_t goal, double *out);
  void *heuristic_ud;
  double max_cost;   /* 0 or HUGE_VAL: none */
  uint32_t max_nodes; /* 0: none */
  int closest;       /* no goal reached: the path to the expanded node
                        nearest a goal (straight line when every node has
                        a position, else the heuristic), then cheapest */
  int ties;          /* ASTAR_TIES_LARGER_G, or _RANDOM (seeded order of
                        equal-f nodes) */
  uint64_t seed;
} astar_graph_query;

void astar_graph_query_defaults(astar_graph_query *q);
/* Runs the query with context s.  ASTAR_OK (see r->outcome; the path is
 * read with astar_graph_path), ENOMEM, EINVAL (bad ids, options the
 * algorithm does not take), EPREPARE, ECALLBACK, EBUSY.  r->end_x is the
 * node the path ends at, r->goal_index the index in q->goals reached. */
int astar_graph_find_path(astar_search *s, const astar_graph *g,
                          const astar_graph_query *q, astar_result *r);
/* The last graph path of s: *len node ids from start to end. */
const uint32_t *astar_graph_path(const astar_search *s, uint32_t *len);

/* ---- Fields on explicit graphs (graph_field.c) ----
 *
 * For every node, the cost of the cheapest path between it and the
 * nearest goal ("to": from the node to a goal over the edges as they
 * point; "from": from a goal to the node), a multi-source Dijkstra over
 * the graph's in- or out-edges.  Disabled nodes get no value (a disabled
 * goal is the caller's to refuse: it is skipped).  Each node with a value
 * keeps the step the build chose: next[i] (the neighbour toward the goals,
 * UINT32_MAX at a goal) and step[i] (that edge's cost), so following the
 * field needs no graph (edits after the build are not seen: version).
 * Per node: value and step (8 bytes each), next, order, rank, heap
 * position (4 each).  A build costs O(nodes) to reset plus the Dijkstra.
 */
typedef struct astar_graph_field {
  astar_alloc_fn alloc;
  void *alloc_ud;
  uint32_t n, cap;        /* nodes covered by the last build; allocated */
  double *value, *step;
  uint32_t *next, *order;
  uint32_t *rank;         /* closing rank; UINT32_MAX: no value */
  uint32_t *pos;          /* heap position while open; UINT32_MAX: unseen */
  astar_heap_entry *heap;
  size_t heap_cap;
  uint32_t count;         /* nodes with a value, order[0 .. count) */
  int direction;          /* ASTAR_FIELD_TO / _FROM */
  uint64_t version;       /* the graph's edit counter at the build */
} astar_graph_field;

typedef struct astar_graph_field_query {
  const uint32_t *goals;  /* ngoals node ids (< g->n) */
  size_t ngoals;
  const double *values;   /* NULL, or a finite start value per goal */
  double max_cost;        /* HUGE_VAL: none */
  int direction;
} astar_graph_field_query;

void astar_graph_field_init(astar_graph_field *f, astar_alloc_fn alloc,
                            void *ud);
void astar_graph_field_release(astar_graph_field *f); /* idempotent */
size_t astar_graph_field_memory(const astar_graph_field *f);
/* Builds f on g.  ASTAR_OK, ENOMEM (f left empty), EINVAL (bad query). */
int astar_graph_field_build(astar_graph_field *f, const astar_graph *g,
                            const astar_graph_field_query *q);
static inline int astar_graph_field_has(const astar_graph_field *f,
                                        uint32_t i) {
  return i < f->n && f->rank[i] != UINT32_MAX;
}

/* ---- State-space search (state_search.c) ----
 *
 * The open list and node records of a search whose nodes are made as it
 * goes (astar.search: states given by a neighbours callback).  Nodes are
 * numbered 0, 1, ... in the order they are made; each has g, h, a parent
 * and a place in the heap.  Keys are the bits of g + h (doubles >= 0
 * order like their bits), ties to the larger g.  The caller pops a node,
 * expands it, and pushes what it reaches; nothing is allocated per step
 * once the arrays have grown.
 */
typedef struct astar_states {
  astar_alloc_fn alloc;
  void *alloc_ud;
  double *g, *h;
  uint32_t *parent, *pos;
  uint8_t *mark;           /* 0: made, 1: open, 2: closed */
  uint32_t n, cap;
  astar_heap_entry *heap;
  size_t heap_n, heap_cap;
} astar_states;

void astar_states_init(astar_states *o, astar_alloc_fn alloc, void *ud);
void astar_states_release(astar_states *o); /* idempotent */
size_t astar_states_memory(const astar_states *o);
/* A new node with heuristic h (>= 0), not yet reached: *id. */
int astar_states_make(astar_states *o, double h, uint32_t *id);
/* Reaches node id from parent at cost g: opens it, or lowers its g; a
 * closed node, or one reached at least as cheaply, is left alone.
 * parent == UINT32_MAX for the start. */
int astar_states_reach(astar_states *o, uint32_t id, uint32_t parent,
                       double g);
/* Takes the open node of least g + h (then larger g) and closes it: 1,
 * or 0 when the open list is empty. */
int astar_states_pop(astar_states *o, uint32_t *id, double *g);

#endif

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
  ASTAR_ALGO_BIDIR_BFS = 9 /* bidirectional breadth-first: fewest steps */
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
  uint64_t version;       /* edit counter: every edit adds 1 */
  struct astar__zscratch *zscratch; /* flood scratch of zone repairs
                             (zones.c), made at the first repair */
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
} astar_query;

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
  struct astar__run *run;   /* a begun search's state */
  int state;                /* ASTAR_SEARCH_* */
  int busy;                 /* a step is running (a callback re-entered) */
  /* the last search: its map's geometry, for the path walk */
  int32_t stride;
  int32_t offset[8];
  uint32_t last_start, last_goal;
  int last_outcome;
  uint32_t explored_tag, explored_tag_b; /* 0: nothing to list */
  uint64_t map_version;     /* the map's edit counter when it began */
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

void astar_query_defaults(astar_query *q);

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
 * their first step. */
int astar_search_begin(astar_search *s, const astar_grid *g,
                       const astar_query *q, astar_result *r);
int astar_search_step(astar_search *s, const astar_grid *g,
                      uint32_t max_nodes, astar_result *r);

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
  ASTAR_REFUSE_PREPARE      /* JPS: the unit's layers are not prepared */
};
int astar_query_refusal(const astar_grid *g, const astar_query *q);

/* The path of the last search that returned one (found, or partial with
 * q->closest), walked from its end back to the start: start with
 * astar_path_last(), then astar_path_prev() until it returns 0.  Valid
 * until s searches again (or the map's version moves on). */
uint32_t astar_path_last(const astar_search *s);
int astar_path_prev(const astar_search *s, uint32_t *node);

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
  uint32_t length;        /* tiles on the path, 0 when none */
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

#endif

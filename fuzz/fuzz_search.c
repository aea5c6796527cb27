/*
 * fuzz_search: a small grid, a sequence of edits and queries, every result
 * checked against a reference Dijkstra and a shadow model of the tiles.
 *
 * Input layout:
 *   byte 0   width - 1  (mod 32)
 *   byte 1   height - 1 (mod 32)
 *   byte 2   bits 0-1 diagonal rule, bits 2-4 step lengths (LENGTHS[])
 *   byte 3   bit 7: first try astar_grid_init with allocation (bits 0-1)+1
 *            failing (bit 2: and every later one); bits 3-6: k - 1, the
 *            node budget (1..16) of each astar_search_step of the sliced
 *            runs on the second context
 *   then operations, one opcode byte each (op = byte % 15) plus operands:
 *     0 set_cost x y c            5 query sx sy gx gy hw
 *     1 set_blocked x y b         6 query under a failing allocator (f +
 *     2 fill x y w h c b            the query operands; f bit 3: the
 *     3 set_movement m              prepare before it fails too)
 *     4 invalid set_movement v    7 invalid query v
 *                                 8 release + init (failing allocation f)
 *     9 generation near wrap-around (white box: the contexts' stamp counter)
 *    10 query, then the same query again: identical result and path
 *    11 set_terrain x y t        13 set_height x y h
 *    12 define unit u (1..3) from 4 table bytes and a rule byte
 *    14 query for unit u (0..3): sx sy gx gy hw u
 *
 * The map and the two search contexts (ctx: one-shot astar_find_path;
 * ctx2: sliced astar_search_begin / astar_search_step) each allocate
 * through their own accounting heap.
 *
 * Prepare: searches never rebuild derived data.  The first query after an
 * edit first runs on the unprepared map (a probe): astar_grid_prepared
 * true => ASTAR_OK; otherwise ASTAR_EPREPARE (the last path is then gone)
 * or ASTAR_OK with a result that checks out like any other.  Then
 * astar_grid_prepare(ALL_UNITS, ZONES) (op 6 with f bit 3: first under a
 * failing allocator: ENOMEM only when an allocation failed, memory still
 * accounted); a second prepare changes nothing and allocates nothing.
 *
 * After each prepare, after every re-init and at the end: the grid's tiles
 * equal the shadow model, the move masks follow the diagonal rule, the
 * cheapest cost is right, the bytes each heap holds equal
 * astar_grid_memory / astar_search_memory.  Invalid calls must leave the
 * grid byte-for-byte unchanged (snapshots).
 *
 * A search never writes the map: after each prepare a checksum (FNV-1a) of
 * the grid struct and every array it owns (cost, moves, passable,
 * passable_t, terrain, heights, the zone labels, parents and sizes) and of
 * every unit class (its struct, its own cost / moves / passable /
 * passable_t layers and zones) is taken, and it must be the same after
 * every query (and invalid query) until the next edit; no search allocates
 * through the map's allocator.
 *
 * Slices: every query also runs on ctx2 in slices of k nodes, ctx's
 * one-shot run interleaved between two of them (after 0, 1 or 2 slices);
 * each running slice expands between 1 and k nodes; the final result
 * equals the one-shot one (outcome, cost exactly, expanded, generated,
 * length, end, goal index, partial, algorithm), both paths agree node by
 * node, both explored sets agree tile by tile, and one more step on a
 * finished search returns the same result.
 *
 * Unit classes: the reference computes a unit's tile costs (multiplier
 * times stored cost), passability, height costs and bans from the model,
 * never from the unit's baked layers, so every query for a unit checks that
 * the layers were kept in step through the edits since they were built.
 *
 * For every query: the outcome agrees with a reference Dijkstra (written
 * here, reading astar_grid_get_cost / astar_grid_is_blocked); with the
 * default heuristic at weight 1 and with the zero heuristic the cost equals
 * the optimum (exactly when step lengths are dyadic; with sqrt 2 within
 * 1e-9 relative plus the search's documented key quantum, 2^-24 of the
 * cheapest step); the default heuristic at weight w > 1 stays within
 * w * optimum; no heuristic beats the optimum; a found path, walked with
 * astar_path_last / astar_path_prev, runs from start to goal through
 * r->length distinct tiles, each step legal under the diagonal rule into a
 * passable tile, and its step costs, summed from the start, give r->cost
 * exactly; expanded >= length and <= the number of passable tiles;
 * astar_explored_next lists tiles open to the unit, each once, as many
 * expanded as r->expanded; a search that found nothing leaves no path;
 * the zone queries answer on the prepared map, the start and goal share a
 * zone exactly when the reference reaches the goal (one-way moves aside),
 * and a search between two zones expands nothing.  A failing allocator
 * gives ASTAR_ENOMEM (only when an allocation really failed), leaves the
 * grid and the context usable (the same query then succeeds and checks
 * out) and leaks nothing.
 */
#include "fuzz_common.h"

#include <math.h>

/* -DFZ_TRACE prints every operation (to read a crashing input) */
#ifdef FZ_TRACE
#define TRACE(...) fprintf(stderr, __VA_ARGS__)
#else
#define TRACE(...) ((void)0)
#endif

#define SIDE 32
#define NMAX (SIDE * SIDE)

/* Tile costs: integers 1..9 and dyadic fractions (all exact in float). */
static const float COSTS[16] = {1,     2,     3,     4,      5,    6,
                                7,     8,     9,     0.5f,   0.25f, 1.5f,
                                2.5f,  0.125f, 1024, 0.0009765625f};

/* (cardinal, diagonal) step lengths.  Only the first is inexact. */
static const double LENGTHS[8][2] = {
    {1, 1.4142135623730951}, /* {1, sqrt 2}: the default */
    {2, 3},                  /* integer octile */
    {1, 1},                  /* Chebyshev moves */
    {1, 2.5},                /* diagonal > 2 cardinal: Manhattan */
    {3, 2},                  /* diagonal cheaper than cardinal */
    {0.5, 0.75},             /* dyadic */
    {1, 2},                  /* diagonal == 2 cardinal */
    {2, 3}};

static const double WEIGHTS[8] = {1, 1, 1, 1.25, 1.5, 2, 8, 1e9};

#define NTERRAIN FZ_NTERRAIN
#define NUNIT 4

/* Unit multipliers: 0 is impassable; the rest exact in float. */
static const float MULTS[8] = {0, 1, 2, 0.5f, 3, 0.25f, 1, 8};
static const double CLIMBS[4] = {0, 0.5, 1, 3};
static const double LIMITS[4] = {INFINITY, 0, 1, 2};

typedef fz_unit_model unit_model; /* fuzz_common.h */

typedef struct {
  int32_t w, h;
  float cost[NMAX];
  uint8_t blocked[NMAX];
  uint8_t terrain[NMAX];
  float height[NMAX];
  unit_model unit[NUNIT];
  int diag;      /* ASTAR_DIAG_* */
  double len[2]; /* cardinal, diagonal step length */
  int exact;     /* step lengths are dyadic: costs are exact */
} model;

static fz_heap heap;          /* the map's allocator */
static fz_heap sheap, sheap2; /* the contexts' */
static astar_grid grid;
static astar_search ctx;  /* one-shot searches */
static astar_search ctx2; /* the same searches in slices */
static model M;
static unsigned slice_k;  /* node budget of each slice, 1..16 */
static unsigned nquery;   /* queries so far (where to interleave) */
static int stale;         /* an edit since the last prepare */
static uint64_t map_sum;  /* checksum of the map after the last prepare */
static int want_jps;      /* read_query asked for JPS where it applies */

/* ---- shadow model ---- */

static void model_reset(void) {
  int i;
  for (i = 0; i < NMAX; i++) {
    M.cost[i] = 1.0f;
    M.blocked[i] = 0;
    M.terrain[i] = 0;
    M.height[i] = 0.0f;
  }
  memset(M.unit, 0, sizeof M.unit);
  /* init gives no corner cutting and {1, sqrt 2} */
  M.diag = ASTAR_DIAG_BOTH_FREE;
  M.len[0] = 1.0;
  M.len[1] = sqrt(2.0);
  M.exact = 0;
}

static void check_model(void) {
  int32_t x, y;
  for (y = 0; y < M.h; y++) {
    for (x = 0; x < M.w; x++) {
      FZ_ASSERT(astar_grid_get_cost(&grid, x, y) == M.cost[y * SIDE + x]);
      FZ_ASSERT(astar_grid_is_blocked(&grid, x, y) ==
                (int)M.blocked[y * SIDE + x]);
    }
  }
  FZ_ASSERT(grid.diagonal == M.diag);
  fz_check_moves(&grid);
  fz_check_min(&grid);
  FZ_ASSERT(heap.live == astar_grid_memory(&grid));
  FZ_ASSERT(sheap.live == astar_search_memory(&ctx));
  FZ_ASSERT(sheap2.live == astar_search_memory(&ctx2));
}

/* ---- the map's checksum: every byte a search must not write ---- */

static uint64_t fnv(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = (const unsigned char *)p;
  size_t i;
  if (p == NULL) return fnv(h, "-", 1); /* an absent array counts too */
  for (i = 0; i < n; i++) {
    h ^= b[i];
    h *= 1099511628211ull;
  }
  return h;
}

static uint64_t zones_sum(uint64_t h, const astar_zones *z) {
  h = fnv(h, z->label, (size_t)grid.ntiles * sizeof(uint32_t));
  h = fnv(h, z->parent, (size_t)z->cap * sizeof(uint32_t));
  return fnv(h, z->size, (size_t)z->cap * sizeof(uint32_t));
}

static uint64_t map_checksum(void) {
  size_t n = grid.ntiles, words = fz_words(&grid) * sizeof(uint64_t);
  uint64_t h = 14695981039346656037ull;
  int k;
  h = fnv(h, &grid, sizeof grid);
  h = fnv(h, grid.cost, n * sizeof(float));
  h = fnv(h, grid.moves, n);
  h = fnv(h, grid.passable, words);
  h = fnv(h, grid.passable_t, words);
  h = fnv(h, grid.terrain, n);
  h = fnv(h, grid.heights, n * sizeof(float));
  h = zones_sum(h, &grid.zones);
  for (k = 0; k < ASTAR_MAX_UNITS; k++) {
    const astar_unit *u = grid.units[k];
    if (u == NULL) continue;
    h = fnv(h, u, sizeof *u);
    h = fnv(h, u->cost, n * sizeof(float));
    h = fnv(h, u->moves, n);
    h = fnv(h, u->passable, words);
    h = fnv(h, u->passable_t, words);
    h = zones_sum(h, &u->zones);
  }
  return h;
}

/* After a query: the map is as the last prepare left it, and each heap
 * holds what its owner says. */
static void check_untouched(void) {
  if (!stale) FZ_ASSERT(map_checksum() == map_sum);
  FZ_ASSERT(heap.live == astar_grid_memory(&grid));
  FZ_ASSERT(sheap.live == astar_search_memory(&ctx));
  FZ_ASSERT(sheap2.live == astar_search_memory(&ctx2));
  FZ_ASSERT(!ctx.busy && !ctx2.busy);
}

/* ---- reference Dijkstra (binary heap, lazy deletion) ---- */

typedef struct {
  double d;
  int node;
} ref_item;

static double dist[NMAX];
static ref_item rheap[8 * NMAX + 8];

static void ref_push(size_t *n, double d, int node) {
  size_t i = (*n)++;
  while (i > 0) {
    size_t p = (i - 1) / 2;
    if (rheap[p].d <= d) break;
    rheap[i] = rheap[p];
    i = p;
  }
  rheap[i].d = d;
  rheap[i].node = node;
}

static ref_item ref_pop(size_t *n) {
  ref_item top = rheap[0], last = rheap[--*n];
  size_t i = 0;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= *n) break;
    if (c + 1 < *n && rheap[c + 1].d < rheap[c].d) c++;
    if (rheap[c].d >= last.d) break;
    rheap[i] = rheap[c];
    i = c;
  }
  if (*n > 0) rheap[i] = last;
  return top;
}

/* ---- unit classes, from the model alone ---- */

static int unit_cur = 0; /* the unit of the query being checked */

static float unit_mult(int32_t x, int32_t y) {
  const unit_model *u = &M.unit[unit_cur];
  if (unit_cur == 0 && !u->defined) return 1.0f;
  return u->mult[M.terrain[y * SIDE + x]];
}

static int u_open(int32_t x, int32_t y) {
  if (x < 0 || y < 0 || x >= M.w || y >= M.h) return 0;
  return !M.blocked[y * SIDE + x] && unit_mult(x, y) > 0.0f;
}

/* the unit's tile cost as the core computes it: a float product */
static double u_cost(int32_t x, int32_t y) {
  double p = (double)M.cost[y * SIDE + x] * (double)unit_mult(x, y);
  return (double)(float)p;
}

/* The height part of the step (x, y) -> (nx, ny); 0 when banned. */
static int u_height(int32_t x, int32_t y, int32_t nx, int32_t ny,
                    double *extra) {
  const unit_model *u = &M.unit[unit_cur];
  double dh = (double)M.height[ny * SIDE + nx] - (double)M.height[y * SIDE + x];
  *extra = 0.0;
  if (!u->defined) return 1;
  if (dh > u->max_climb || -dh > u->max_drop) return 0;
  *extra = dh > 0.0 ? u->climb * dh : -u->descend * dh;
  return 1;
}

static int u_step(int32_t x, int32_t y, int d, double *cost) {
  int32_t nx = x + astar_dir_dx[d], ny = y + astar_dir_dy[d];
  double extra;
  if (!u_open(nx, ny)) return 0;
  if (d >= 4) {
    int a = u_open(nx, y), b = u_open(x, ny);
    if (M.diag == ASTAR_DIAG_NEVER) return 0;
    if (M.diag == ASTAR_DIAG_BOTH_FREE && !(a && b)) return 0;
    if (M.diag == ASTAR_DIAG_ONE_FREE && !(a || b)) return 0;
  }
  if (!u_height(x, y, nx, ny, &extra)) return 0;
  *cost = M.len[d >= 4] * u_cost(nx, ny) + extra;
  return 1;
}

/* Distances from (sx, sy) to every tile for unit unit_cur > 0, from the
 * model. */
static void unit_reference(int32_t sx, int32_t sy) {
  static uint8_t done[NMAX];
  size_t n = 0;
  int i;
  for (i = 0; i < NMAX; i++) {
    dist[i] = INFINITY;
    done[i] = 0;
  }
  dist[sy * SIDE + sx] = 0.0;
  ref_push(&n, 0.0, sy * SIDE + sx);
  while (n > 0) {
    ref_item it = ref_pop(&n);
    int32_t x = it.node % SIDE, y = it.node / SIDE;
    int d;
    if (done[it.node]) continue;
    done[it.node] = 1;
    for (d = 0; d < 8; d++) {
      int32_t nx = x + astar_dir_dx[d], ny = y + astar_dir_dy[d];
      double c, nd;
      if (!u_step(x, y, d, &c)) continue;
      nd = it.d + c;
      if (nd < dist[ny * SIDE + nx]) {
        dist[ny * SIDE + nx] = nd;
        ref_push(&n, nd, ny * SIDE + nx);
      }
    }
  }
}

/* Distances from (sx, sy) to every tile; steps read the grid through the
 * public getters and the rule through fz_step_legal. */
static void reference(int32_t sx, int32_t sy) {
  /* the grid read once through the public getters, with a blocked border
   * (padded coordinates: tile (x, y) at (y + 1) * P + x + 1) */
  enum { P = SIDE + 2 };
  static uint8_t done[NMAX], open[P * P];
  static double cost[P * P];
  size_t n = 0;
  int i;
  int32_t x, y;
  memset(open, 0, sizeof open);
  for (y = 0; y < M.h; y++) {
    for (x = 0; x < M.w; x++) {
      open[(y + 1) * P + x + 1] = (uint8_t)!astar_grid_is_blocked(&grid, x, y);
      cost[(y + 1) * P + x + 1] = (double)astar_grid_get_cost(&grid, x, y);
    }
  }
  for (i = 0; i < NMAX; i++) {
    dist[i] = INFINITY;
    done[i] = 0;
  }
  dist[sy * SIDE + sx] = 0.0;
  ref_push(&n, 0.0, sy * SIDE + sx);
  while (n > 0) {
    ref_item it = ref_pop(&n);
    int d;
    x = it.node % SIDE;
    y = it.node / SIDE;
    if (done[it.node]) continue;
    done[it.node] = 1;
    for (d = 0; d < 8; d++) {
      int32_t dx = astar_dir_dx[d], dy = astar_dir_dy[d];
      int32_t nx = x + dx, ny = y + dy;
      int at = (ny + 1) * P + nx + 1;
      double nd;
      if (!open[at]) continue;
      if (d >= 4) { /* the diagonal rule, from astar.h */
        int a = open[(y + 1) * P + nx + 1], b = open[(ny + 1) * P + x + 1];
        if (M.diag == ASTAR_DIAG_NEVER) continue;
        if (M.diag == ASTAR_DIAG_BOTH_FREE && !(a && b)) continue;
        if (M.diag == ASTAR_DIAG_ONE_FREE && !(a || b)) continue;
      }
      nd = it.d + M.len[d >= 4] * cost[at];
      if (nd < dist[ny * SIDE + nx]) {
        dist[ny * SIDE + nx] = nd;
        ref_push(&n, nd, ny * SIDE + nx);
      }
    }
  }
}

/* ---- the checks of one query ---- */

/* Zones of the query's unit: same zone <=> the reference reaches the goal,
 * except that a height limit can make a move one-way (then only "different
 * zones => no path"); a search between zones expands nothing.  The zone
 * queries only read the labels: on a prepared map they answer, before the
 * prepare they may say ASTAR_EPREPARE. */
static void check_zones(const astar_query *q, const astar_result *r,
                        int expect, int prepared) {
  if (expect == ASTAR_FOUND || expect == ASTAR_NO_PATH) {
    uint32_t za = 0, zb = 0, count = 0, size = 0;
    const unit_model *um = &M.unit[unit_cur];
    int one_way = um->defined && (um->max_climb < INFINITY ||
                                  um->max_drop < INFINITY);
    int sa = astar_zone_of(&grid, q->unit, q->sx, q->sy, &za);
    int sb = astar_zone_of(&grid, q->unit, q->gx, q->gy, &zb);
    FZ_ASSERT(sa == sb && (sa == ASTAR_OK || sa == ASTAR_EPREPARE));
    if (prepared) FZ_ASSERT(sa == ASTAR_OK);
    if (sa == ASTAR_OK) {
      FZ_ASSERT(za != 0 && zb != 0);
      FZ_ASSERT(astar_zone_count(&grid, q->unit, &count) == ASTAR_OK);
      FZ_ASSERT(count >= 1 + (za != zb));
      FZ_ASSERT(astar_zone_size(&grid, q->unit, za, &size) == ASTAR_OK);
      FZ_ASSERT(size >= 1 && size <= (uint32_t)(M.w * M.h));
      if (za != zb) {
        FZ_ASSERT(expect == ASTAR_NO_PATH);
        FZ_ASSERT(r->expanded == 0);
      } else if (!one_way) {
        FZ_ASSERT(expect == ASTAR_FOUND);
      }
    }
  }
}

/* astar_explored_next after a search: tiles in range, open to the unit,
 * in index order (so each once), and as many expanded as r->expanded
 * (this harness runs A* and JPS, which expand a tile once). */
static void check_explored(const astar_result *r) {
  uint32_t i = 0, closed = 0;
  int32_t x, y, prev = -1;
  int st;
  while ((st = astar_explored_next(&ctx, &i, &x, &y)) != 0) {
    FZ_ASSERT(st == ASTAR_EXPLORED_OPEN || st == ASTAR_EXPLORED_CLOSED);
    FZ_ASSERT(x >= 0 && x < M.w && y >= 0 && y < M.h);
    FZ_ASSERT(u_open(x, y));
    FZ_ASSERT(y * M.w + x > prev);
    prev = y * M.w + x;
    if (st == ASTAR_EXPLORED_CLOSED) closed++;
  }
  FZ_ASSERT(closed == r->expanded);
}

/* What astar_query_refusal says about running q with JPS. */
static int jps_refusal(const astar_query *q) {
  astar_query j = *q;
  j.algorithm = ASTAR_ALGO_JPS;
  return astar_query_refusal(&grid, &j);
}

/* prepared: the map was prepared for q (the zone queries must answer). */
static void check_result(const astar_query *q, const astar_result *r,
                         int prepared) {
  static uint8_t seen[NMAX + 8 * SIDE];
  double opt, cheap_step, quantum, tol;
  int expect, passable = 0;
  int32_t x, y;
  uint32_t node;

  unit_cur = q->unit;
  for (y = 0; y < M.h; y++)
    for (x = 0; x < M.w; x++) passable += u_open(x, y);

  if (!u_open(q->sx, q->sy))
    expect = ASTAR_START_BLOCKED;
  else if (!u_open(q->gx, q->gy))
    expect = ASTAR_GOAL_BLOCKED;
  else {
    if (unit_cur == 0)
      reference(q->sx, q->sy);
    else
      unit_reference(q->sx, q->sy);
    expect = isinf(dist[q->gy * SIDE + q->gx]) ? ASTAR_NO_PATH : ASTAR_FOUND;
    TRACE("  reference: %.17g\n", dist[q->gy * SIDE + q->gx]);
  }
#ifdef FZ_TRACE
  for (y = 0; y < M.h; y++) {
    for (x = 0; x < M.w; x++) {
      if (M.blocked[y * SIDE + x])
        TRACE("  #");
      else
        TRACE(" %2g", (double)M.cost[y * SIDE + x]);
    }
    TRACE("\n");
  }
#endif
  FZ_ASSERT(r->outcome == expect);
  /* auto runs JPS exactly where it applies (JPS: same costs as A*, checked
     against the reference below like A*'s) */
  FZ_ASSERT(r->algorithm == (jps_refusal(q) == ASTAR_REFUSE_NONE
                                 ? (astar_subgoal_state(&grid, q->unit) !=
                                            ASTAR_SUBGOAL_READY
                                        ? ASTAR_ALGO_JPS
                                    : astar_subgoal_is_jumps(&grid, q->unit)
                                        ? ASTAR_ALGO_JPS_PLUS
                                        : ASTAR_ALGO_SUBGOAL)
                                 : ASTAR_ALGO_ASTAR) ||
            q->algorithm != ASTAR_ALGO_AUTO);
  /* landmarks are read only while fresh (and then only by A*) */
  FZ_ASSERT(!r->landmarks ||
            (astar_landmarks_state(&grid) == ASTAR_LANDMARKS_READY &&
             r->algorithm == ASTAR_ALGO_ASTAR));
  FZ_ASSERT(r->expanded <= (uint32_t)passable);
  check_explored(r);

  node = astar_path_last(&ctx);
  if (r->outcome != ASTAR_FOUND) {
    FZ_ASSERT(r->length == 0);
    FZ_ASSERT(astar_path_prev(&ctx, &node) == 0);
    check_zones(q, r, expect, prepared);
    return;
  }

  /* the path, goal first */
  {
    static uint32_t nodes[NMAX + 1];
    uint32_t len = 0, k;
    double sum = 0.0;
    memset(seen, 0, sizeof seen);
    nodes[len++] = node;
    while (astar_path_prev(&ctx, &node)) {
      FZ_ASSERT(len <= (uint32_t)passable);
      nodes[len++] = node;
    }
    FZ_ASSERT(len == r->length);
    /* A* expands every tile of its path; JPS only the jump points, the
       subgoal graph only subgoals (none when the goal is in direct reach) */
    FZ_ASSERT(r->algorithm == ASTAR_ALGO_JPS ||
                      r->algorithm == ASTAR_ALGO_JPS_PLUS
                  ? r->expanded >= 1
              : r->algorithm == ASTAR_ALGO_SUBGOAL ? 1
                                                  : r->expanded >= len);
    FZ_ASSERT(nodes[0] == astar_index(&grid, q->gx, q->gy));
    FZ_ASSERT(nodes[len - 1] == astar_index(&grid, q->sx, q->sy));
    for (k = 0; k < len; k++) {
      FZ_ASSERT(nodes[k] < grid.ntiles);
      astar_xy(&grid, nodes[k], &x, &y);
      FZ_ASSERT(x >= 0 && x < M.w && y >= 0 && y < M.h);
      FZ_ASSERT(u_open(x, y));
      FZ_ASSERT(!seen[y * SIDE + x]);
      seen[y * SIDE + x] = 1;
    }
    /* walk forwards from the start, summing as the search does */
    for (k = len - 1; k > 0; k--) {
      int32_t ax, ay, bx, by;
      int d, dir = -1;
      astar_xy(&grid, nodes[k], &ax, &ay);
      astar_xy(&grid, nodes[k - 1], &bx, &by);
      for (d = 0; d < 8; d++)
        if (ax + astar_dir_dx[d] == bx && ay + astar_dir_dy[d] == by) dir = d;
      FZ_ASSERT(dir >= 0);
      if (unit_cur == 0) {
        FZ_ASSERT(fz_step_legal(&grid, M.diag, ax, ay, dir));
        sum += M.len[dir >= 4] * (double)astar_grid_get_cost(&grid, bx, by);
      } else {
        double c;
        FZ_ASSERT(u_step(ax, ay, dir, &c));
        sum += c;
      }
    }
    FZ_ASSERT(sum == r->cost);
  }

  opt = dist[q->gy * SIDE + q->gx];
  cheap_step = M.len[0];
  if (M.diag != ASTAR_DIAG_NEVER && M.len[1] < cheap_step)
    cheap_step = M.len[1];
  {
    astar_layer L;
    double m = INFINITY;
    if (astar_grid_layer(&grid, q->unit, &L) == ASTAR_OK) {
      m = L.min_cost;
    } else {
      /* only on the probe before prepare: a search that does not read the
       * cheapest cost (JPS) may run while it is stale; use the true one */
      FZ_ASSERT(!prepared);
      for (y = 0; y < M.h; y++)
        for (x = 0; x < M.w; x++)
          if (unit_mult(x, y) > 0.0f && u_cost(x, y) < m) m = u_cost(x, y);
    }
    quantum = ldexp(cheap_step * m, -24);
  }
  tol = M.exact ? 0.0 : 1e-9 * (opt > 1.0 ? opt : 1.0) + quantum;
  FZ_ASSERT(r->cost >= opt - tol);
  if (q->heuristic == ASTAR_H_ZERO ||
      (q->heuristic == ASTAR_H_DEFAULT && q->weight == 1.0)) {
    FZ_ASSERT(fabs(r->cost - opt) <= tol);
  } else if (q->heuristic == ASTAR_H_DEFAULT) {
    double bound = q->weight * opt;
    FZ_ASSERT(r->cost <= bound + 1e-9 * (bound > 1.0 ? bound : 1.0) +
                             quantum);
  }
  check_zones(q, r, expect, prepared);
}

static void read_query(fz_reader *rd, astar_query *q) {
  unsigned hw;
  astar_query_defaults(q);
  q->sx = (int32_t)(fz_byte(rd) % (unsigned)M.w);
  q->sy = (int32_t)(fz_byte(rd) % (unsigned)M.h);
  q->gx = (int32_t)(fz_byte(rd) % (unsigned)M.w);
  q->gy = (int32_t)(fz_byte(rd) % (unsigned)M.h);
  hw = fz_byte(rd);
  q->heuristic = (int)(hw % 6);
  q->weight = WEIGHTS[(hw / 6) % 8];
  /* mostly auto; sometimes A* forced, or JPS forced where it applies
   * (decided by settle_query, once the map is prepared) */
  if ((hw / 48) % 4 == 1) q->algorithm = ASTAR_ALGO_ASTAR;
  want_jps = (hw / 48) % 4 == 2;
}

/* JPS forced where it applies: for the default unit (as read_query always
 * did), then kept only if it applies to the query's unit too (else A*). */
static void settle_query(astar_query *q) {
  astar_query d = *q;
  if (!want_jps) return;
  d.unit = 0;
  if (jps_refusal(&d) != ASTAR_REFUSE_NONE) return;
  q->algorithm = ASTAR_ALGO_JPS;
  if (q->unit != 0 && jps_refusal(q) != ASTAR_REFUSE_NONE)
    q->algorithm = ASTAR_ALGO_ASTAR;
}

/* The path of ctx's or ctx2's last search (found: it returned one), goal
 * first; returns its length (0 when there is none). */
static uint32_t walk_path(const astar_search *s, int found, uint32_t *out) {
  uint32_t len = 0, node = astar_path_last(s);
  if (!found) {
    FZ_ASSERT(!astar_path_prev(s, &node));
    return 0;
  }
  out[len++] = node;
  while (astar_path_prev(s, &node)) {
    FZ_ASSERT(len <= NMAX);
    out[len++] = node;
  }
  return len;
}

/* ctx2's result (its search finished) equals ctx's one-shot result. */
static void compare_sliced(const astar_result *r, const astar_result *r2) {
  static uint32_t p1[NMAX + 1], p2[NMAX + 1];
  uint32_t n1, n2, k, i1 = 0, i2 = 0;
  int32_t x1 = 0, y1 = 0, x2 = 0, y2 = 0;
  int s1, s2;
  astar_result r3;
  FZ_ASSERT(r2->outcome == r->outcome);
  FZ_ASSERT(memcmp(&r2->cost, &r->cost, sizeof r->cost) == 0);
  FZ_ASSERT(r2->expanded == r->expanded);
  FZ_ASSERT(r2->generated == r->generated);
  FZ_ASSERT(r2->length == r->length);
  FZ_ASSERT(r2->end_x == r->end_x && r2->end_y == r->end_y);
  FZ_ASSERT(r2->goal_index == r->goal_index);
  FZ_ASSERT(r2->partial == r->partial);
  FZ_ASSERT(r2->algorithm == r->algorithm);
  n1 = walk_path(&ctx, r->outcome == ASTAR_FOUND, p1);
  n2 = walk_path(&ctx2, r2->outcome == ASTAR_FOUND, p2);
  FZ_ASSERT(n1 == n2);
  FZ_ASSERT(n1 == (r->outcome == ASTAR_FOUND ? r->length : 0));
  for (k = 0; k < n1; k++) FZ_ASSERT(p1[k] == p2[k]);
  do {
    s1 = astar_explored_next(&ctx, &i1, &x1, &y1);
    s2 = astar_explored_next(&ctx2, &i2, &x2, &y2);
    FZ_ASSERT(s1 == s2);
    if (s1 != 0) FZ_ASSERT(x1 == x2 && y1 == y2);
  } while (s1 != 0);
  /* a finished search steps no further */
  FZ_ASSERT(astar_search_step(&ctx2, &grid, slice_k, &r3) == ASTAR_OK);
  FZ_ASSERT(memcmp(&r3, r2, sizeof r3) == 0);
}

/* One slice of ctx2's search: at most slice_k expansions, and a slice
 * that leaves it running expanded at least one node. */
static void slice(astar_result *r2, unsigned *slices) {
  uint32_t before = r2->expanded;
  FZ_ASSERT(astar_search_step(&ctx2, &grid, slice_k, r2) == ASTAR_OK);
  FZ_ASSERT(r2->expanded >= before && r2->expanded - before <= slice_k);
  if (r2->outcome == ASTAR_RUNNING) FZ_ASSERT(r2->expanded > before);
  FZ_ASSERT(++*slices <= 2u * NMAX + 4u);
  /* the best path so far: from a tile reached back to the start, a
   * neighbour each step, as long as it says; the search goes on as is */
  {
    astar_trail t;
    astar_result pr;
    uint32_t n = 1, prev;
    if (astar_search_partial(&ctx2, &t, &pr)) {
      prev = t.node;
      while (astar_trail_prev(&ctx2, &t)) {
        int32_t ax, ay, bx, by;
        astar_xy(&grid, prev, &ax, &ay);
        astar_xy(&grid, t.node, &bx, &by);
        FZ_ASSERT(ax - bx <= 1 && bx - ax <= 1 && ay - by <= 1 &&
                  by - ay <= 1 && (ax != bx || ay != by));
        FZ_ASSERT(++n <= NMAX);
        prev = t.node;
      }
      FZ_ASSERT(n == pr.length);
    }
  }
}

/* q on ctx in one go and on ctx2 in slices of slice_k nodes, the one-shot
 * run after `at` slices of ctx2's; both results checked. */
static void run_query(const astar_query *q, astar_result *r) {
  astar_result r2;
  unsigned slices = 0, at = nquery++ % 3;
  size_t grid_allocs = heap.count;
  int rc = 1;
  rc = astar_search_begin(&ctx2, &grid, q, &r2);
  TRACE("search_begin(ctx2, unit %d, algo %d) = %d\n", q->unit, q->algorithm,
        rc);
  FZ_ASSERT(rc == ASTAR_OK);
  rc = 1;
  while (r2.outcome == ASTAR_RUNNING) {
    if (rc == 1 && slices == at) rc = astar_find_path(&ctx, &grid, q, r);
    slice(&r2, &slices);
  }
  if (rc == 1) rc = astar_find_path(&ctx, &grid, q, r);
  TRACE("find_path((%d,%d) -> (%d,%d), h %d, w %g, algo %d) = %d: outcome "
        "%d cost %.17g length %u expanded %u; %u slices of %u\n", q->sx,
        q->sy, q->gx, q->gy, q->heuristic, q->weight, q->algorithm, rc,
        r->outcome, r->cost, (unsigned)r->length, (unsigned)r->expanded,
        slices, slice_k);
  FZ_ASSERT(rc == ASTAR_OK);
  FZ_ASSERT(heap.count == grid_allocs); /* searches allocate in ctx only */
  check_untouched();
  check_result(q, r, 1);
  compare_sliced(r, &r2);
  check_untouched();
}

/* q on ctx2 in slices after ctx's run (op 6), compared with it. */
static void run_sliced(const astar_query *q, const astar_result *r) {
  astar_result r2;
  unsigned slices = 0;
  FZ_ASSERT(astar_search_begin(&ctx2, &grid, q, &r2) == ASTAR_OK);
  while (r2.outcome == ASTAR_RUNNING) slice(&r2, &slices);
  compare_sliced(r, &r2);
  check_untouched();
}

/* Brings the map up to date after edits.  First a probe: q on the map as
 * the edits left it (astar_grid_prepared says whether it may run; a
 * search that runs must check out; one that may not writes nothing).
 * Then prepare, under a failing allocator first when f & 8 (allocation
 * (f & 3) + 1 fails, f & 4: and every later one), and the full checks. */
static void prepare_map(const astar_query *q0, unsigned f) {
  astar_query q = *q0;
  astar_result r;
  uint64_t sum = map_checksum();
  size_t allocs = heap.count;
  int prepared, rc;
  if (!stale) return;
  prepared = astar_grid_prepared(&grid, &q);
  rc = astar_find_path(&ctx, &grid, &q, &r);
  TRACE("probe before prepare: prepared %d, find_path = %d\n", prepared, rc);
  FZ_ASSERT(map_checksum() == sum && heap.count == allocs);
  if (prepared) FZ_ASSERT(rc == ASTAR_OK);
  FZ_ASSERT(rc == ASTAR_OK || rc == ASTAR_EPREPARE);
  if (rc == ASTAR_OK) {
    check_result(&q, &r, prepared);
  } else {
    uint32_t node = astar_path_last(&ctx), i = 0;
    int32_t x, y;
    FZ_ASSERT(!astar_path_prev(&ctx, &node));
    FZ_ASSERT(astar_explored_next(&ctx, &i, &x, &y) == 0);
    FZ_ASSERT(astar_search_begin(&ctx2, &grid, &q, &r) == ASTAR_EPREPARE);
  }
  if (f & 8) {
    heap.fail_at = heap.count + (f & 3) + 1;
    heap.fail_sticky = (f & 4) != 0;
    heap.failed = 0;
    rc = astar_grid_prepare(&grid, ASTAR_ALL_UNITS, ASTAR_PREPARE_ZONES);
    TRACE("prepare with allocation %u failing%s = %d\n",
          (unsigned)heap.fail_at, heap.fail_sticky ? " (and all after)" : "",
          rc);
    heap.fail_at = 0;
    FZ_ASSERT(heap.live == astar_grid_memory(&grid));
    if (rc == ASTAR_ENOMEM)
      FZ_ASSERT(heap.failed > 0);
    else
      FZ_ASSERT(rc == ASTAR_OK && heap.failed == 0);
  }
  FZ_ASSERT(astar_grid_prepare(&grid, ASTAR_ALL_UNITS, ASTAR_PREPARE_ZONES) ==
            ASTAR_OK);
#ifdef FZ_TRACE
  {
    astar_layer L;
    uint32_t z;
    TRACE("prepared: prepared %d, layer %d, zone_of %d\n",
          astar_grid_prepared(&grid, &q), astar_grid_layer(&grid, q.unit, &L),
          astar_zone_of(&grid, q.unit, 0, 0, &z));
  }
#endif
  check_model();
  map_sum = map_checksum();
  /* nothing stale now: a second prepare does nothing */
  allocs = heap.count;
  FZ_ASSERT(astar_grid_prepare(&grid, ASTAR_ALL_UNITS, ASTAR_PREPARE_ZONES) ==
            ASTAR_OK);
  FZ_ASSERT(heap.count == allocs && map_checksum() == map_sum);
  stale = 0;
}

static void set_lengths(int diag, unsigned li) {
  li &= 7;
  TRACE("set_movement(%d, %g, %g)\n", diag, LENGTHS[li][0], LENGTHS[li][1]);
  FZ_ASSERT(astar_grid_set_movement(&grid, diag, LENGTHS[li][0],
                                    LENGTHS[li][1]) == ASTAR_OK);
  M.diag = diag;
  M.len[0] = LENGTHS[li][0];
  M.len[1] = LENGTHS[li][1];
  M.exact = li != 0;
}

/* Both contexts released (they hold nothing after), then made again. */
static void release_contexts(void) {
  astar_search_release(&ctx);
  astar_search_release(&ctx2);
  astar_search_release(&ctx2); /* idempotent */
  FZ_ASSERT(sheap.live == 0 && sheap.blocks == 0);
  FZ_ASSERT(sheap2.live == 0 && sheap2.blocks == 0);
  astar_search_init(&ctx, fz_alloc, &sheap);
  astar_search_init(&ctx2, fz_alloc, &sheap2);
  FZ_ASSERT(astar_search_memory(&ctx) == 0 && sheap.live == 0);
}

/* Release, then init again with allocation f failing (f = 0: none); the
 * contexts start cold again. */
static void reinit(unsigned f) {
  fz_release_check(&grid, &heap);
  release_contexts();
  model_reset();
  stale = 1;
  if (f & 7) {
    heap.fail_at = heap.count + (f & 7);
    heap.fail_sticky = (f & 8) != 0;
    heap.failed = 0;
    if (astar_grid_init(&grid, M.w, M.h, fz_alloc, &heap) == ASTAR_ENOMEM) {
      FZ_ASSERT(heap.failed > 0);
      FZ_ASSERT(heap.live == 0 && heap.blocks == 0);
      fz_release_check(&grid, &heap);
    } else {
      FZ_ASSERT(heap.failed == 0);
      fz_release_check(&grid, &heap);
    }
    heap.fail_at = 0;
  }
  FZ_ASSERT(astar_grid_init(&grid, M.w, M.h, fz_alloc, &heap) == ASTAR_OK);
  FZ_ASSERT(heap.live == astar_grid_bytes(M.w, M.h, 0));
}

/* Op 15: preprocessing the map (its layers prepared first).  v & 1:
 * landmarks (k = (v >> 1 & 3) + 1, for the default unit and every class
 * defined), else the subgoal graph (v & 64: the jump table) of unit
 * (v >> 1) % NUNIT.  v & 128:
 * drop instead.  f & 8: allocation (f & 3) + 1 fails (f & 4: and all after):
 * ENOMEM exactly when one really failed, and the map keeps what it had
 * (landmarks: but those rebuilt in their own memory, which are gone).
 * Later queries check their costs against the reference as always: a
 * fresh landmark bound or graph must not change an optimal cost, a stale
 * one must not be used. */
static void preprocess(unsigned v, unsigned f) {
  astar_query q;
  int rc, units[NUNIT], n = 0, u, refusal = 0, before;
  astar_query_defaults(&q);
  prepare_map(&q, 0);
  for (u = 0; u < NUNIT; u++)
    if (u == 0 || M.unit[u].defined) units[n++] = u;
  u = (int)((v >> 1) % NUNIT);
  if (u > 0 && !M.unit[u].defined) u = 0;
  if (v & 128) {
    if (v & 1)
      astar_landmarks_drop(&grid);
    else
      astar_subgoal_drop(&grid, u);
    FZ_ASSERT(v & 1 ? astar_landmarks_state(&grid) == ASTAR_LANDMARKS_NONE
                    : astar_subgoal_state(&grid, u) == ASTAR_SUBGOAL_NONE);
  } else {
    before = v & 1 ? astar_landmarks_state(&grid)
                   : astar_subgoal_state(&grid, u);
    if (f & 8) {
      heap.fail_at = heap.count + (f & 3) + 1;
      heap.fail_sticky = (f & 4) != 0;
      heap.failed = 0;
    }
    if (v & 1)
      rc = astar_landmarks_build(&grid, units, n, (int)((v >> 1) & 3) + 1);
    else if (v & 64)
      rc = astar_jumps_build(&grid, u, &refusal);
    else
      rc = astar_subgoal_build(&grid, u, &refusal);
    TRACE("preprocess %s (unit %d)%s = %d (refusal %d)\n",
          v & 1 ? "landmarks" : v & 64 ? "jumps" : "subgoal", u, f & 8 ? " failing" : "", rc,
          refusal);
    if (f & 8) {
      heap.fail_at = 0;
      if (rc == ASTAR_ENOMEM) FZ_ASSERT(heap.failed > 0);
      else FZ_ASSERT(heap.failed == 0);
    }
    if (rc == ASTAR_OK) {
      FZ_ASSERT(v & 1 ? astar_landmarks_state(&grid) == ASTAR_LANDMARKS_READY
                      : astar_subgoal_state(&grid, u) == ASTAR_SUBGOAL_READY);
    } else {
      /* refused (not JPS's kind of map, or costs too wide): what the map
       * had is kept.  A landmark build that fails has freed the sets it
       * was rebuilding in their own memory (a unit's set of the same k)
       * and kept the others, so the state is the one before or none;
       * out of memory, a subgoal build has dropped the unit's old graph
       * first (astar.h) */
      FZ_ASSERT(rc == ASTAR_ENOMEM || rc == ASTAR_EINVAL ||
                rc == ASTAR_ETOOBIG || rc == ASTAR_EPREPARE);
      if (v & 1)
        FZ_ASSERT(astar_landmarks_state(&grid) == before ||
                  astar_landmarks_state(&grid) == ASTAR_LANDMARKS_NONE);
      else if (rc != ASTAR_ENOMEM)
        FZ_ASSERT(before == astar_subgoal_state(&grid, u));
      else
        FZ_ASSERT(astar_subgoal_state(&grid, u) == ASTAR_SUBGOAL_NONE);
    }
  }
  FZ_ASSERT(heap.live == astar_grid_memory(&grid));
  check_model();
  map_sum = map_checksum(); /* the map struct holds the new data */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_reader rd;
  unsigned b2, b3;
  int ops = 0;

  rd.p = data;
  rd.n = size;
  fz_heap_init(&heap);
  fz_heap_init(&sheap);
  fz_heap_init(&sheap2);
  astar_grid_zero(&grid);
  astar_search_init(&ctx, fz_alloc, &sheap);
  astar_search_init(&ctx2, fz_alloc, &sheap2);
  nquery = 0;
  want_jps = 0;
  M.w = (int32_t)(fz_byte(&rd) % SIDE) + 1;
  M.h = (int32_t)(fz_byte(&rd) % SIDE) + 1;
  b2 = fz_byte(&rd);
  b3 = fz_byte(&rd);
  slice_k = ((b3 >> 3) & 15) + 1;
  reinit(b3 & 128 ? (b3 & 3) + 1 + (b3 & 4 ? 8 : 0) : 0);
  set_lengths((int)(b2 & 3), b2 >> 2);
  check_model();

  while (rd.n > 0 && ops++ < 256) {
    /* bytes 240..255 pick op 15 (preprocessing); the others keep the
     * meaning they had before op 15 existed, so the corpus still replays
     * what it found */
    unsigned ob = fz_byte(&rd), op = ob >= 240 ? 15 : ob % 15;
    astar_query q;
    astar_result r;
    /* every edit leaves the map to be prepared; the full model check
     * (the costly part) runs after each prepare, before the next search,
     * rather than after every edit */
    if (op <= 3 || (op >= 11 && op <= 13)) stale = 1;
    switch (op) {
    case 0: { /* set_cost: also opens the tile */
      int32_t x = (int32_t)(fz_byte(&rd) % (unsigned)M.w);
      int32_t y = (int32_t)(fz_byte(&rd) % (unsigned)M.h);
      float c = COSTS[fz_byte(&rd) % 16];
      TRACE("set_cost(%d, %d, %g)\n", x, y, (double)c);
      FZ_ASSERT(astar_cost_ok((double)c));
      astar_grid_set_cost(&grid, x, y, c);
      M.cost[y * SIDE + x] = c;
      M.blocked[y * SIDE + x] = 0;
      break;
    }
    case 1: { /* set_blocked: the stored cost stays */
      int32_t x = (int32_t)(fz_byte(&rd) % (unsigned)M.w);
      int32_t y = (int32_t)(fz_byte(&rd) % (unsigned)M.h);
      int b = (int)(fz_byte(&rd) & 1);
      TRACE("set_blocked(%d, %d, %d)\n", x, y, b);
      astar_grid_set_blocked(&grid, x, y, b);
      M.blocked[y * SIDE + x] = (uint8_t)b;
      break;
    }
    case 2: { /* fill a rectangle inside the grid (w or h may be 0) */
      int32_t x = (int32_t)(fz_byte(&rd) % (unsigned)M.w);
      int32_t y = (int32_t)(fz_byte(&rd) % (unsigned)M.h);
      int32_t w = (int32_t)(fz_byte(&rd) % (unsigned)(M.w - x + 1));
      int32_t h = (int32_t)(fz_byte(&rd) % (unsigned)(M.h - y + 1));
      unsigned cb = fz_byte(&rd);
      float c = (cb & 16) ? 0.0f : COSTS[cb & 15]; /* 0: keep the cost */
      int b = (int)((cb >> 5) % 3) - 1;            /* -1 keep, 0, 1 */
      int32_t i, j;
      TRACE("fill(%d, %d, %d, %d, %g, %d)\n", x, y, w, h, (double)c, b);
      astar_grid_fill(&grid, x, y, w, h, c, b);
      for (j = y; j < y + h; j++) {
        for (i = x; i < x + w; i++) {
          if (c > 0.0f) M.cost[j * SIDE + i] = c;
          if (b >= 0) M.blocked[j * SIDE + i] = (uint8_t)b;
        }
      }
      break;
    }
    case 3: { /* set_movement */
      unsigned m = fz_byte(&rd);
      set_lengths((int)(m & 3), m >> 2);
      break;
    }
    case 4: { /* invalid set_movement: EINVAL, nothing changes */
      static const double bad[6] = {0.0, -1.0, 1e-10, 2e9, 0.0, 0.0};
      unsigned v = fz_byte(&rd);
      double lens[2] = {1.0, 1.5};
      int diag = 0;
      fz_snapshot s;
      if (v % 9 < 6) {
        double b = bad[v % 9];
        if (v % 9 == 4) b = NAN;
        if (v % 9 == 5) b = INFINITY;
        lens[(v >> 4) & 1] = b;
      } else {
        diag = v % 9 == 6 ? -1 : v % 9 == 7 ? ASTAR_DIAG_HEX + 1 : 1000;
      }
      fz_snap(&s, &grid);
      FZ_ASSERT(astar_grid_set_movement(&grid, diag, lens[0], lens[1]) ==
                ASTAR_EINVAL);
      FZ_ASSERT(fz_same(&s, &grid, 1));
      fz_unsnap(&s);
      check_untouched();
      break;
    }
    case 5:
      read_query(&rd, &q);
      prepare_map(&q, 0);
      settle_query(&q);
      run_query(&q, &r);
      break;
    case 6: { /* a query under a failing allocator (the context's; f & 8:
                 the map's during the prepare before it, too) */
      unsigned f = fz_byte(&rd);
      int rc;
      read_query(&rd, &q);
      prepare_map(&q, f);
      settle_query(&q);
      sheap.fail_at = sheap.count + (f & 3) + 1;
      sheap.fail_sticky = (f & 4) != 0;
      sheap.failed = 0;
      TRACE("allocation %u fails%s:\n", (unsigned)sheap.fail_at,
            sheap.fail_sticky ? " (and all after)" : "");
      rc = astar_find_path(&ctx, &grid, &q, &r);
      TRACE("  find_path = %d\n", rc);
      sheap.fail_at = 0;
      check_untouched(); /* memory accounted, the map untouched */
      if (rc == ASTAR_ENOMEM) {
        uint32_t node = astar_path_last(&ctx);
        FZ_ASSERT(sheap.failed > 0);
        FZ_ASSERT(astar_path_prev(&ctx, &node) == 0);
        check_model(); /* usable, nothing lost or leaked */
        run_query(&q, &r);
      } else {
        FZ_ASSERT(rc == ASTAR_OK);
        FZ_ASSERT(sheap.failed == 0);
        check_result(&q, &r, 1);
        run_sliced(&q, &r);
      }
      break;
    }
    case 7: { /* invalid query: EINVAL, nothing changes */
      unsigned v = fz_byte(&rd);
      fz_snapshot s;
      astar_query_defaults(&q);
      switch (v % 9) {
      case 0: q.sx = -1; break;
      case 1: q.sy = M.h; break;
      case 2: q.gx = M.w; break;
      case 3: q.gy = -1 - (int32_t)(v >> 4); break;
      case 4: q.heuristic = 6; break;
      case 5: q.heuristic = -1; break;
      case 6: q.weight = v & 16 ? 0.5 : 1.0;
        /* JPS forced where it does not apply is invalid too */
        if (!(v & 16)) {
          q.algorithm = ASTAR_ALGO_JPS;
          q.heuristic = ASTAR_H_ZERO;
        }
        break;
      case 7: q.weight = NAN; break;
      default: q.weight = INFINITY; break;
      }
      {
        static const double bad[6] = {0.0, -1.0, 1e39, 1e-50, 0.0, 0.0};
        double c = v % 6 == 4 ? NAN : v % 6 == 5 ? -INFINITY : bad[v % 6];
        FZ_ASSERT(!astar_cost_ok(c));
      }
      fz_snap(&s, &grid);
      FZ_ASSERT(astar_find_path(&ctx, &grid, &q, &r) == ASTAR_EINVAL);
      FZ_ASSERT(astar_search_begin(&ctx2, &grid, &q, &r) == ASTAR_EINVAL);
      FZ_ASSERT(fz_same(&s, &grid, 1));
      fz_unsnap(&s);
      check_untouched();
      break;
    }
    case 8: /* release and init again (maybe with a failing allocation) */
      TRACE("release + init\n");
      reinit(fz_byte(&rd) & 15);
      check_model();
      break;
    case 9: { /* white box: the generation counter near its wrap-around */
      unsigned v = fz_byte(&rd);
      /* only forwards: a generation used before must never come back */
      if (ctx.stamp != NULL && ctx.generation < 0x0FFFFFFFu - (v & 3))
        ctx.generation = 0x0FFFFFFFu - (v & 3);
      if (ctx2.stamp != NULL && ctx2.generation < 0x0FFFFFFFu - (v >> 2 & 3))
        ctx2.generation = 0x0FFFFFFFu - (v >> 2 & 3);
      TRACE("generation = %u, %u\n", (unsigned)ctx.generation,
            (unsigned)ctx2.generation);
      break;
    }
    case 11: { /* set_terrain */
      int32_t x = (int32_t)(fz_byte(&rd) % (unsigned)M.w);
      int32_t y = (int32_t)(fz_byte(&rd) % (unsigned)M.h);
      int t = (int)(fz_byte(&rd) % NTERRAIN);
      int rc = astar_grid_set_terrain(&grid, x, y, t);
      TRACE("set_terrain(%d, %d, %d) = %d\n", x, y, t, rc);
      if (rc == ASTAR_ENOMEM) break; /* not seen: no failing allocator */
      FZ_ASSERT(rc == ASTAR_OK);
      FZ_ASSERT(astar_grid_get_terrain(&grid, x, y) == t);
      M.terrain[y * SIDE + x] = (uint8_t)t;
      break;
    }
    case 12: { /* define a unit class */
      int u = (int)(fz_byte(&rd) % (NUNIT - 1)) + 1, t;
      float table[ASTAR_TERRAINS];
      unsigned rb;
      unit_model *um = &M.unit[u];
      for (t = 0; t < ASTAR_TERRAINS; t++) table[t] = 1.0f;
      for (t = 0; t < NTERRAIN; t++)
        table[t] = um->mult[t] = MULTS[fz_byte(&rd) % 8];
      rb = fz_byte(&rd);
      um->climb = CLIMBS[rb & 3];
      um->descend = CLIMBS[(rb >> 2) & 3];
      um->max_climb = LIMITS[(rb >> 4) & 3];
      um->max_drop = LIMITS[(rb >> 6) & 3];
      um->defined = 1;
      TRACE("unit %d: %g %g %g %g climb %g descend %g limits %g %g\n", u,
            (double)table[0], (double)table[1], (double)table[2],
            (double)table[3], um->climb, um->descend, um->max_climb,
            um->max_drop);
      FZ_ASSERT(astar_unit_define(&grid, u, table, um->climb, um->descend,
                                  um->max_climb, um->max_drop) == ASTAR_OK);
      break;
    }
    case 13: { /* set_height */
      int32_t x = (int32_t)(fz_byte(&rd) % (unsigned)M.w);
      int32_t y = (int32_t)(fz_byte(&rd) % (unsigned)M.h);
      float h = (float)(fz_byte(&rd) % 8);
      TRACE("set_height(%d, %d, %g)\n", x, y, (double)h);
      FZ_ASSERT(astar_grid_set_height(&grid, x, y, h) == ASTAR_OK);
      FZ_ASSERT(astar_grid_get_height(&grid, x, y) == (double)h);
      M.height[y * SIDE + x] = h;
      break;
    }
    case 14: { /* a query for a unit class (0: the default) */
      int u;
      read_query(&rd, &q);
      u = (int)(fz_byte(&rd) % NUNIT);
      if (u > 0 && !M.unit[u].defined) u = 0;
      q.unit = u;
      prepare_map(&q, 0);
      settle_query(&q);
      run_query(&q, &r);
      break;
    }
    case 15: { /* landmarks or a subgoal graph built, or dropped */
      unsigned v = fz_byte(&rd), f = fz_byte(&rd);
      preprocess(v, f);
      break;
    }
    default: { /* the same query twice: deterministic, same path */
      static uint32_t first[NMAX + 1], again[NMAX + 1];
      uint32_t len, k;
      astar_result r2;
      read_query(&rd, &q);
      prepare_map(&q, 0);
      settle_query(&q);
      run_query(&q, &r);
      len = walk_path(&ctx, r.outcome == ASTAR_FOUND, first);
      run_query(&q, &r2);
      FZ_ASSERT(r2.outcome == r.outcome && r2.cost == r.cost &&
                r2.expanded == r.expanded && r2.length == r.length);
      FZ_ASSERT(walk_path(&ctx, r2.outcome == ASTAR_FOUND, again) == len);
      for (k = 0; k < len; k++) FZ_ASSERT(again[k] == first[k]);
      break;
    }
    }
  }
  if (stale) { /* the last edits: prepare (with a probe) and check */
    astar_query q;
    astar_query_defaults(&q);
    q.gx = M.w - 1;
    q.gy = M.h - 1;
    prepare_map(&q, 0);
  }
  check_model();
  check_untouched();
  release_contexts();
  astar_search_release(&ctx);
  astar_search_release(&ctx2);
  fz_release_check(&grid, &heap);
  FZ_ASSERT(sheap.live == 0 && sheap2.live == 0);
  return 0;
}

/*
 * fuzz_field: fields on a small grid (astar_field: the cost between every
 * tile and the nearest of a set of goals), built again and again on three
 * field objects as the map changes, turned into flee maps and weighted
 * sums, each result checked against a reference Dijkstra written here
 * from astar.h.
 *
 * Input layout:
 *   byte 0   width - 1  (mod 16)
 *   byte 1   height - 1 (mod 16)
 *   byte 2   bits 0-1 diagonal rule; bit 2: step lengths {2, 3} (else
 *            {1, sqrt 2}); bits 3-5: f, the allocation to fail (the f-th
 *            from the call on; 0: none) in ops 3, 5 and 6; bit 6: a hex
 *            grid (ASTAR_DIAG_HEX) instead of the rule
 *   then ceil(w * h / 8) bytes: the walls, one bit per tile (row-major)
 *   then up to 48 operations, one opcode byte each (op = byte % 7 below
 *   224, else 7 + (byte - 224) % 5) plus operands:
 *     0 toggle a wall: x y
 *     1 set a cost: x y c (COSTS[c % 8]; opens the tile)
 *     2 a field: d k x1 y1 x2 y2 x3 y3 v m s (d & 1: "from"; d & 2: into
 *       field 1, else field 0; (d >> 2) & 3: the unit class, 0 when that
 *       one is not defined; for one-tile units d & 16: the avoid list,
 *       d & 32: the extra costs of op 11; k % 3 + 1 goals; v & 128:
 *       start values
 *       VALUES[(v >> 2i) & 7], else none (0); m & 7: max_cost MAXC[m & 7],
 *       m & 64: the binary heap; s: the unit's size, s % 2 + 1)
 *     3 op 2 with allocation f failing, then op 2 again
 *     4 release field j % 3 and init it again: j
 *     5 a flee map: j c (source field j & 1; j & 2: into itself, else into
 *       field 2; j & 4: "from"; j & 8: the binary heap; j & 16: allocation
 *       f fails; factor KS[c % 8])
 *     6 a weighted sum into field 2: j a b (j & 1: of fields 0 and 1,
 *       else of field 0 alone; j & 2: rescanned on the grid, else a plain
 *       sum; j & 4: "from"; j & 8: the binary heap; j & 16: allocation f
 *       fails; weights WS[a % 8], WS[b % 8])
 *     7 set a terrain class: x y c (c % 4)
 *     8 set a height: x y h (HEIGHTS[h % 8], negative and halves too)
 *     9 define a unit class: u _ m0 m1 m2 m3 r (unit u % 4, 0 included;
 *       multipliers MULTS[m % 8] of terrains 0..3, 0: impassable; r:
 *       climb, descend CLIMBS[r & 3], [(r >> 2) & 3], limits on rise and
 *       drop LIMITS[(r >> 4) & 3], [(r >> 6) & 3])
 *    10 a link: x1 y1 x2 y2 c f (cost LCOSTS[c % 8], 0 too; f & 1: both
 *       ways; f & 2: unlink both directions instead, the count checked;
 *       a link from a tile to itself: ASTAR_EINVAL)
 *    11 the overlay lists the builds may take: na ne (na % 6 avoided
 *       tiles, ne % 6 extra costs) then na x y pairs, ne x y c triples
 *       (ECOSTS[c % 4], 0 too)
 *   Ops 7-10 edit the map (no field is fresh after them); flee maps and
 *   rescanned sums run under the rules of the field they start from (its
 *   unit, size and overlays, as the binding passes them).
 *
 * The reference: a Dijkstra from seeds (a build: every goal the unit can
 * enter at its start value, rounded to float, duplicates the least, none
 * above max_cost; a flee map: every tile of the source with k times its
 * value; a rescanned sum: every tile where all sources have a value, at
 * the weighted sum), over the legal moves of an s x s unit of the class
 * (its footprint on open tiles whose terrain the class may enter, the
 * top-left tile not avoided, the diagonal rule applied to the footprint
 * with avoided tiles as walls; hex: N E S W NE SW, no corner rule; a rise
 * or drop of the top-left tile past the class's limit banned), a move
 * costing its step length (hex: the cardinal one) times (the class's
 * float cost of the top-left tile it enters, stored cost x multiplier,
 * plus that tile's extra costs), plus climb x rise or descend x drop; and
 * over the grid's links, a -> b at its cost plus b's extra costs, both
 * ends open to the unit (no height rule); "to" fields walk moves
 * backwards (the cost from a tile to a goal), "from" fields forwards.
 * Checks, for every build, flee and rescanned sum:
 *  - ASTAR_OK; a tile has a value exactly when the reference gives it one
 *    within max_cost, and the value is the reference's (the field keeps
 *    32-bit floats: within 1e-6 relative);
 *  - astar_field_next from every tile with a value, with and without a
 *    seed: a legal move of the unit ("to": from the tile; "from": into
 *    it; or a link of the model: ASTAR_FIELD_LINK, its far end, its cost
 *    plus the extra cost of the tile it enters) to a tile with a value,
 *    step its cost exactly, and value = next's value + step (within 1e-6
 *    of the largest of the three and of the values around the tile and
 *    at its links' ends: the values are floats, and the follower
 *    takes as ties the steps within the rounding of the largest value it
 *    compares); no step only at a seed, at its seed value
 *    (values below 2^20, where floats still tell the cheapest step);
 *  - count is the number of tiles with a value, order[] lists each of
 *    them once, by value when f->sorted (the bucket ring closes a
 *    bucket's tiles in any order: not sorted);
 *  - a plain sum: a value exactly where every source has one, the sum;
 *  - the bytes the allocator holds are the fields' astar_field_memory;
 *    the grid is untouched (struct and tile arrays byte for byte);
 *  - a failing allocation: ASTAR_ENOMEM only when one failed, the field
 *    then empty, the same call then succeeding; ASTAR_OK after a failed
 *    allocation is allowed (the bucket ring is optional: the build falls
 *    back to the radix heap) and checked like any other result;
 *  - flee / sum of an empty field: ASTAR_EINVAL.
 * A flee or sum of a field built before an edit of the map is run for its
 * memory safety only (the reference models fresh fields).  Not covered:
 * tile callbacks (Lua only), overlays with units larger than one tile
 * (docs/api.md: they act on the top-left tile only, spec/clearance_spec
 * checks it; the diagonal rule's view of them is not modelled here).
 *
 * Two core bugs it found at once (fixed; fuzz/regressions/field): a ring
 * build's order[] was taken as sorted (within() stopped early and missed
 * tiles; flee seeded from it as if sorted), and astar_field_next's tie
 * tolerance, relative to the tile's own value, was below the rounding of
 * a neighbour far from 0 (a flee map's tile near 0 had no step).
 */
#include "fuzz_common.h"

#include <math.h>

/* -DFZ_TRACE prints every operation (to read a crashing input) */
#ifdef FZ_TRACE
#define TRACE(...) fprintf(stderr, __VA_ARGS__)
#else
#define TRACE(...) ((void)0)
#endif

#define SIDE 16
#define NMAX (SIDE * SIDE)
#define NF 3
#define NUNIT 4
#define NTERRAIN FZ_NTERRAIN
#define NLINK 24
#define NOV 6

static const float COSTS[8] = {1, 2, 3, 0.5f, 1, 7, 0.25f, 100};
static const double KS[8] = {-1.2, -1, -0.5, 0.5, 1, 2, -3, 0};
static const double WS[8] = {1, -1, 0.5, 2, -1.5, 3, 0, 0.25};
static const float MULTS[8] = {1, 0, 2, 0.5f, 1, 3, 1, 0.25f};
static const double CLIMBS[4] = {0, 1, 0.5, 2};
static const double LIMITS[4] = {HUGE_VAL, 0, 1, 2};
static const float HEIGHTS[8] = {0, 1, 2, 3, -1, 0.5f, 5, -2};
static const double LCOSTS[8] = {1, 0, 2, 0.5, 5, 3, 0.25, 10};
static const double ECOSTS[4] = {1, 0.5, 2, 0};

typedef fz_unit_model unit_model; /* fuzz_common.h */

/* A grid link (astar_grid_link): a move from -> to at its own cost. */
typedef struct {
  int from, to; /* y * SIDE + x */
  double cost;
} link_model;

/* The rules a field was built under, for the reference and for the
 * rescans of flee and sum: the unit, its size, the avoided tiles (the
 * goals left out) and the extra costs (x, y pairs). */
typedef struct {
  int unit, size;
  int32_t avoid[2 * NOV], extra[2 * NOV];
  double extra_cost[NOV];
  size_t navoid, nextra;
} rules;

static fz_heap heap, fheap;
static astar_grid grid;
static astar_field F[NF];
static rules R[NF];
/* fresh: built (or fled / summed) with no edit of the map since, so the
 * reference can model it */
static int fresh[NF];
static int W, H, diag, hex;
static double len_card, len_diag;
static unsigned fail_k;
static uint8_t wall[NMAX], terrain[NMAX];
static float cost[NMAX], height[NMAX];
static unit_model U[NUNIT];
static link_model LK[NLINK];
static int nlk;
/* the lists the next builds may take (op 7 + 4 sets them) */
static int32_t ov_avoid[2 * NOV], ov_extra[2 * NOV];
static double ov_cost[NOV];
static size_t ov_navoid, ov_nextra;
static double seed[NMAX]; /* the reference's seeds (HUGE_VAL: none) */
static double ref[NMAX];
/* the rules of the field being checked, spread per tile */
static const rules *cr;
static uint8_t avoided[NMAX];
static double extra[NMAX];

static int in_grid(int32_t x, int32_t y) {
  return x >= 0 && y >= 0 && x < W && y < H;
}

/* the current unit's multiplier on tile t (unit 0 undefined: 1) */
static float mult(int t) {
  const unit_model *u = &U[cr->unit];
  return u->defined ? u->mult[terrain[t]] : 1.0f;
}

/* the unit's cost on tile t, a float product (astar.h) */
static double ucost(int t) {
  return (double)(float)((double)cost[t] * (double)mult(t));
}

static void use_rules(const rules *r) {
  size_t i;
  cr = r;
  memset(avoided, 0, sizeof avoided);
  for (i = 0; i < NMAX; i++) extra[i] = 0.0;
  for (i = 0; i < r->navoid; i++)
    avoided[r->avoid[2 * i + 1] * SIDE + r->avoid[2 * i]] = 1;
  for (i = 0; i < r->nextra; i++)
    extra[r->extra[2 * i + 1] * SIDE + r->extra[2 * i]] += r->extra_cost[i];
}

/* the unit's s x s footprint at (x, y) fits: in the grid, every tile
 * open and passable to the unit; and (x, y) is not avoided */
static int open_s(int s, int32_t x, int32_t y) {
  int32_t i, j;
  if (!in_grid(x, y) || !in_grid(x + s - 1, y + s - 1)) return 0;
  for (j = 0; j < s; j++)
    for (i = 0; i < s; i++) {
      int t = (y + j) * SIDE + x + i;
      if (wall[t] || !(mult(t) > 0.0f)) return 0;
    }
  return !avoided[y * SIDE + x];
}

/* The height part of the move a -> b (top-left tiles); 0 when banned. */
static int climb(int a, int b, double *out) {
  const unit_model *u = &U[cr->unit];
  double dh = (double)height[b] - (double)height[a];
  *out = 0.0;
  if (!u->defined) return 1;
  if (dh > u->max_climb || -dh > u->max_drop) return 0;
  *out = dh > 0.0 ? u->climb * dh : -u->descend * dh;
  return 1;
}

/* May an s x s unit at (x, y) move in direction d (astar.h's rules)? */
static int legal(int s, int32_t x, int32_t y, int d) {
  int32_t dx = astar_dir_dx[d], dy = astar_dir_dy[d];
  double h;
  int a, b;
  if (!open_s(s, x, y) || !open_s(s, x + dx, y + dy)) return 0;
  if (!climb(y * SIDE + x, (y + dy) * SIDE + x + dx, &h)) return 0;
  if (hex) return d != ASTAR_SE && d != ASTAR_NW;
  if (d < 4) return 1;
  a = open_s(s, x + dx, y);
  b = open_s(s, x, y + dy);
  switch (diag) {
  case ASTAR_DIAG_BOTH_FREE: return a && b;
  case ASTAR_DIAG_ONE_FREE: return a || b;
  case ASTAR_DIAG_ALWAYS: return 1;
  default: return 0;
  }
}

/* The direction opposite d. */
static int opposite(int d) {
  int b;
  for (b = 0; b < 8; b++)
    if (astar_dir_dx[b] == -astar_dir_dx[d] &&
        astar_dir_dy[b] == -astar_dir_dy[d])
      return b;
  abort();
}

/* The move from (x, y) in direction d: its length (hex: every step the
 * cardinal one) times the unit's cost of the (top-left) tile it enters
 * plus that tile's extra cost, plus the height term. */
static double move_cost(int32_t x, int32_t y, int d) {
  int t = (y + astar_dir_dy[d]) * SIDE + x + astar_dir_dx[d];
  double len = d < 4 || hex ? len_card : len_diag, h;
  (void)climb(y * SIDE + x, t, &h);
  return len * (ucost(t) + extra[t]) + h;
}

/* Dijkstra from seed[] over the unit's moves and the links: forwards
 * for "from". */
static void reference(int s, int from) {
  static int done[NMAX];
  int t;
  for (t = 0; t < NMAX; t++) ref[t] = seed[t], done[t] = 0;
  for (;;) {
    int u = -1, d, k;
    int32_t x, y;
    for (t = 0; t < NMAX; t++)
      if (!done[t] && ref[t] < HUGE_VAL && (u < 0 || ref[t] < ref[u])) u = t;
    if (u < 0) return;
    done[u] = 1;
    x = u % SIDE;
    y = u / SIDE;
    for (d = 0; d < 8; d++) {
      int32_t nx = x + astar_dir_dx[d], ny = y + astar_dir_dy[d];
      double c;
      if (from) { /* forward: u -> n */
        if (!legal(s, x, y, d)) continue;
        c = move_cost(x, y, d);
      } else { /* backward: n -> u, the move in the opposite direction */
        if (!legal(s, nx, ny, opposite(d))) continue;
        c = move_cost(nx, ny, opposite(d));
      }
      if (ref[u] + c < ref[ny * SIDE + nx]) ref[ny * SIDE + nx] = ref[u] + c;
    }
    /* links: a -> b at its cost plus b's extra cost, both ends open to
     * the unit ("from": out of u; "to": into u) */
    for (k = 0; k < nlk; k++) {
      int a = LK[k].from, b = LK[k].to, v = from ? b : a;
      double c = LK[k].cost + extra[b];
      if ((from ? a : b) != u || !open_s(s, v % SIDE, v / SIDE)) continue;
      if (ref[u] + c < ref[v]) ref[v] = ref[u] + c;
    }
  }
}

static int close_to(double a, double b) {
  double m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
  return fabs(a - b) <= 1e-6 * (m > 1.0 ? m : 1.0);
}

/* a = b + c, where b is a float: within 1e-6 of the largest term, or of
 * at least m */
static int close_sum(double a, double b, double c, double m) {
  if (fabs(a) > m) m = fabs(a);
  if (fabs(b) > m) m = fabs(b);
  if (fabs(c) > m) m = fabs(c);
  return fabs(a - (b + c)) <= 1e-6 * (m > 1.0 ? m : 1.0);
}

/* The bytes the field allocator holds are the fields' own. */
static void check_memory(void) {
  size_t n = 0;
  int i;
  for (i = 0; i < NF; i++) n += astar_field_memory(&F[i]);
  FZ_ASSERT(fheap.live == n);
}

static void check_empty(const astar_field *f) {
  FZ_ASSERT(f->tag == 0 && f->count == 0);
}

/* The largest |value| among the tiles around t = (x, y): its
 * neighbours and the other ends of its links. */
static double around(const astar_field *f, int32_t x, int32_t y) {
  double m = 0.0;
  int d, k, t = y * SIDE + x;
  for (d = 0; d < 8; d++)
    if (in_grid(x + astar_dir_dx[d], y + astar_dir_dy[d])) {
      uint32_t v = astar_index(&grid, x + astar_dir_dx[d], y + astar_dir_dy[d]);
      if (astar_field_has(f, v) && fabs((double)f->value[v]) > m)
        m = fabs((double)f->value[v]);
    }
  for (k = 0; k < nlk; k++)
    if (LK[k].from == t || LK[k].to == t) {
      int o = LK[k].from == t ? LK[k].to : LK[k].from;
      uint32_t v = astar_index(&grid, o % SIDE, o / SIDE);
      if (astar_field_has(f, v) && fabs((double)f->value[v]) > m)
        m = fabs((double)f->value[v]);
    }
  return m;
}

/* astar_field_next's step from tile t = (x, y), at (nt, step, dir). */
static void check_step(const astar_field *f, int from, int s, int32_t x,
                       int32_t y, uint32_t nt, double step, int dir) {
  int32_t nx, ny;
  FZ_ASSERT(astar_field_has(f, nt));
  astar_xy(&grid, nt, &nx, &ny);
  if (dir == ASTAR_FIELD_LINK) { /* a link t -> next ("from": next -> t) */
    int a = from ? ny * SIDE + nx : y * SIDE + x;
    int b = from ? y * SIDE + x : ny * SIDE + nx, k;
    for (k = 0; k < nlk; k++)
      if (LK[k].from == a && LK[k].to == b) break;
    FZ_ASSERT(k < nlk && open_s(s, nx, ny));
    FZ_ASSERT(step == LK[k].cost + extra[b]);
  } else {
    FZ_ASSERT(dir >= 0 && dir < 8);
    FZ_ASSERT(nx == x + astar_dir_dx[dir] && ny == y + astar_dir_dy[dir]);
    if (!from) { /* the move t -> next */
      FZ_ASSERT(legal(s, x, y, dir) && step == move_cost(x, y, dir));
    } else { /* the move next -> t, walked backwards */
      int back = opposite(dir);
      FZ_ASSERT(legal(s, nx, ny, back) && step == move_cost(nx, ny, back));
    }
  }
  /* the follower tells ties apart to the rounding of the largest value
   * around the tile: a tile reached from a far larger neighbour (a flee
   * map's -99 beside a 0.59) may step to another one within it */
  FZ_ASSERT(close_sum((double)f->value[astar_index(&grid, x, y)],
                      (double)f->value[nt], step, around(f, x, y)));
}

/* Field f (a build, flee or rescan) against the reference from seed[]. */
static void check_field(const astar_field *f, int from, int s,
                        double max_cost) {
  static uint8_t listed[NMAX];
  astar_layer L;
  uint32_t count = 0, t;
  FZ_ASSERT(f->tag != 0);
  FZ_ASSERT(astar_grid_layer_size(&grid, cr->unit, s, &L) == ASTAR_OK);
  reference(s, from);
  for (t = 0; t < NMAX; t++) {
    int32_t x = (int32_t)(t % SIDE), y = (int32_t)(t / SIDE);
    uint32_t at, nt;
    uint64_t rng = t * 0x9E3779B97F4A7C15u + 1;
    double step, val;
    int dir, want, got;
    if (!in_grid(x, y)) continue;
    at = astar_index(&grid, x, y);
    want = ref[t] < HUGE_VAL && ref[t] <= max_cost;
    got = astar_field_has(f, at);
    FZ_ASSERT(got == want);
    if (!got) continue;
    count++;
    val = (double)f->value[at];
    FZ_ASSERT(close_to(val, ref[t]));
    if (!astar_field_next(f, &grid, &L, at, NULL, &nt, &step, &dir)) {
      /* no step downhill: a seed at its seed value; so with a seed too */
      TRACE("  no step at (%d,%d): %.9g, seed %.9g\n", x, y, val, seed[t]);
      /* (below 2^20 only: past it the cheapest step, 0.25, may round
       * to no change of the float, and the step looks flat; repeated
       * flee maps get there) */
      if (fabs(val) < 1048576.0)
        FZ_ASSERT(seed[t] < HUGE_VAL && close_to(val, seed[t]));
      FZ_ASSERT(!astar_field_next(f, &grid, &L, at, &rng, &nt, &step, &dir));
    } else {
      check_step(f, from, s, x, y, nt, step, dir);
      FZ_ASSERT(astar_field_next(f, &grid, &L, at, &rng, &nt, &step, &dir));
      check_step(f, from, s, x, y, nt, step, dir);
    }
  }
  FZ_ASSERT(f->count == count);
  memset(listed, 0, sizeof listed);
  for (t = 0; t < f->count; t++) {
    int32_t x, y;
    FZ_ASSERT(astar_field_has(f, f->order[t]));
    astar_xy(&grid, f->order[t], &x, &y);
    FZ_ASSERT(in_grid(x, y) && !listed[y * SIDE + x]);
    listed[y * SIDE + x] = 1;
    if (t > 0 && f->sorted)
      FZ_ASSERT(f->value[f->order[t - 1]] <= f->value[f->order[t]]);
  }
}

/* Prepare the grid for an s x s unit u (fields read the prepared
 * layer). */
static void prepare(int u, int s) {
  FZ_ASSERT(astar_grid_prepare(&grid, u, 0) == ASTAR_OK);
  if (s > 1) FZ_ASSERT(astar_grid_prepare_size(&grid, u, s, 0) == ASTAR_OK);
}

/* q's unit, size and overlays from r */
static void set_rules(astar_field_query *q, const rules *r) {
  q->unit = r->unit;
  q->size = r->size;
  q->avoid = r->avoid;
  q->navoid = r->navoid;
  q->extra_tiles = r->extra;
  q->extra_costs = r->extra_cost;
  q->nextra = r->nextra;
}

static void arm(void) {
  fheap.fail_at = fheap.count + fail_k;
  fheap.fail_sticky = 0;
  fheap.failed = 0;
}

/* The outcome of a call made under arm(): ENOMEM only after a refused
 * allocation, leaving f empty; else OK. */
static int disarm(int rc, astar_field *f) {
  fheap.fail_at = 0;
  if (rc == ASTAR_ENOMEM) {
    FZ_ASSERT(fheap.failed > 0);
    check_empty(f);
  } else {
    FZ_ASSERT(rc == ASTAR_OK);
  }
  check_memory();
  return rc;
}

static void build(fz_reader *rd, int failing) {
  static const double VALUES[8] = {0, 0, 1, 2.5, -3, 10, 0.5, 1e3};
  static const double MAXC[8] = {HUGE_VAL, HUGE_VAL, 0, 1, 2.5, 5, 12, 40};
  astar_field_query q;
  fz_snapshot snap;
  int32_t goals[6];
  double values[3];
  unsigned d = fz_byte(rd), k = fz_byte(rd) % 3 + 1, v, m, i;
  int s, rc, slot = (d & 2) ? 1 : 0, round, u = (int)(d >> 2) & 3;
  astar_field *f = &F[slot];
  rules *r = &R[slot];
  for (i = 0; i < 3; i++) {
    goals[2 * i] = (int32_t)(fz_byte(rd) % (unsigned)W);
    goals[2 * i + 1] = (int32_t)(fz_byte(rd) % (unsigned)H);
  }
  v = fz_byte(rd);
  m = fz_byte(rd);
  s = (int)(fz_byte(rd) % 2) + 1;
  for (i = 0; i < 3; i++)
    values[i] = v & 128 ? VALUES[(v >> (2 * i)) & 7] : 0.0;
  if (!U[u].defined) u = 0;
  /* the rules; overlays for one-tile units only (see the header) */
  r->unit = u;
  r->size = s;
  r->navoid = r->nextra = 0;
  if (s == 1 && (d & 16))
    for (i = 0; i < ov_navoid; i++) { /* the goals are never avoided */
      unsigned j;
      for (j = 0; j < k; j++)
        if (goals[2 * j] == ov_avoid[2 * i] &&
            goals[2 * j + 1] == ov_avoid[2 * i + 1])
          break;
      if (j < k) continue;
      r->avoid[2 * r->navoid] = ov_avoid[2 * i];
      r->avoid[2 * r->navoid + 1] = ov_avoid[2 * i + 1];
      r->navoid++;
    }
  if (s == 1 && (d & 32)) {
    memcpy(r->extra, ov_extra, sizeof ov_extra);
    memcpy(r->extra_cost, ov_cost, sizeof ov_cost);
    r->nextra = ov_nextra;
  }
  use_rules(r);
  astar_field_query_defaults(&q);
  set_rules(&q, r);
  if (s == 1 && (d & 16)) { /* the whole list: goals in it too */
    q.avoid = ov_avoid;
    q.navoid = ov_navoid;
  }
  q.direction = d & 1 ? ASTAR_FIELD_FROM : ASTAR_FIELD_TO;
  q.goals = goals;
  q.ngoals = k;
  q.values = v & 128 ? values : NULL;
  q.max_cost = MAXC[m & 7];
  q.heap = (m & 64) != 0;
  TRACE("field %d: %s, %u goals (%d,%d)=%g (%d,%d)=%g (%d,%d)=%g, "
        "max %g, heap %d, size %d, unit %d, avoid %u, extra %u%s\n",
        slot, d & 1 ? "from" : "to", k, goals[0], goals[1], values[0],
        goals[2], goals[3], values[1], goals[4], goals[5], values[2],
        q.max_cost, q.heap, s, u, (unsigned)q.navoid, (unsigned)q.nextra,
        failing ? ", failing" : "");
  prepare(u, s);
  for (i = 0; i < NMAX; i++) seed[i] = HUGE_VAL;
  for (i = 0; i < k; i++) {
    int32_t x = goals[2 * i], y = goals[2 * i + 1];
    double sv = (double)(float)values[i]; /* the field keeps floats */
    if (open_s(s, x, y) && sv <= q.max_cost && sv < seed[y * SIDE + x])
      seed[y * SIDE + x] = sv;
  }
  fresh[slot] = 0;
  for (round = failing ? 0 : 1; round < 2; round++) {
    fz_snap(&snap, &grid);
    if (round == 0) arm();
    rc = astar_field_fit(f, &grid);
    if (rc == ASTAR_OK) rc = astar_field_build(f, &grid, &q);
    FZ_ASSERT(fz_same(&snap, &grid, 1));
    fz_unsnap(&snap);
    if (round == 0) {
      if (disarm(rc, f) != ASTAR_OK) continue;
    } else {
      FZ_ASSERT(rc == ASTAR_OK);
      check_memory();
    }
    TRACE("  %u tiles\n", f->count);
    check_field(f, q.direction == ASTAR_FIELD_FROM, s, q.max_cost);
  }
  fresh[slot] = 1;
}

static void flee(fz_reader *rd) {
  unsigned j = fz_byte(rd);
  double k = KS[fz_byte(rd) % 8];
  int from = (j & 4) != 0, si = (int)(j & 1), di = (j & 2) ? si : 2;
  int ok = fresh[si], failing = (j & 16) && fail_k != 0, rc, round;
  astar_field *src = &F[si], *dst = &F[di];
  astar_field_query q;
  fz_snapshot snap;
  uint32_t t;
  /* the rescan's rules: the source's (as the binding passes them) */
  if (di != si) R[di] = R[si];
  use_rules(&R[si]);
  astar_field_query_defaults(&q);
  set_rules(&q, &R[si]);
  q.direction = from ? ASTAR_FIELD_FROM : ASTAR_FIELD_TO;
  q.heap = (j & 8) != 0;
  TRACE("flee %d -> %d: k %g, %s, heap %d%s%s\n", si, di, k,
        from ? "from" : "to", q.heap, ok ? "" : ", stale",
        failing ? ", failing" : "");
  prepare(q.unit, q.size);
  for (t = 0; t < NMAX; t++) seed[t] = HUGE_VAL;
  if (ok)
    for (t = 0; t < src->count; t++) {
      uint32_t v = src->order[t];
      int32_t x, y;
      astar_xy(&grid, v, &x, &y);
      seed[y * SIDE + x] = (double)(float)(k * (double)src->value[v]);
    }
  for (round = failing ? 0 : 1; round < 2; round++) {
    fz_snap(&snap, &grid);
    if (round == 0) arm();
    rc = dst != src ? astar_field_fit(dst, &grid) : ASTAR_OK;
    if (rc == ASTAR_OK) rc = astar_field_flee(dst, src, &grid, &q, k);
    FZ_ASSERT(fz_same(&snap, &grid, 1));
    fz_unsnap(&snap);
    if (src->tag == 0 && rc != ASTAR_ENOMEM) { /* an empty source */
      fheap.fail_at = 0;
      FZ_ASSERT(rc == ASTAR_EINVAL);
      fresh[di] = 0;
      check_memory();
      return;
    }
    if (round == 0) {
      if (disarm(rc, dst) != ASTAR_OK) {
        fresh[di] = 0;
        if (dst == src) return; /* nothing left to flee from */
        continue;
      }
    } else {
      FZ_ASSERT(rc == ASTAR_OK);
      check_memory();
    }
    TRACE("  %u tiles\n", dst->count);
    if (ok) check_field(dst, from, q.size, HUGE_VAL);
    if (dst == src) break; /* its values are gone: once */
  }
  fresh[di] = ok;
}

static void combine(fz_reader *rd) {
  unsigned j = fz_byte(rd);
  double w[2];
  const astar_field *src[2];
  size_t n = (j & 1) ? 2 : 1, i;
  int rescan = (j & 2) != 0, from = (j & 4) != 0, ok = 1, empty = 0;
  int failing = (j & 16) && fail_k != 0, rc, round, s;
  astar_field *dst = &F[2];
  astar_field_query q;
  fz_snapshot snap;
  uint32_t t, count = 0;
  w[0] = WS[fz_byte(rd) % 8];
  w[1] = WS[fz_byte(rd) % 8];
  src[0] = &F[0];
  src[1] = &F[1];
  for (i = 0; i < n; i++) {
    ok = ok && fresh[i];
    empty = empty || src[i]->tag == 0;
  }
  /* rescanned under field 0's rules */
  R[2] = R[0];
  use_rules(&R[0]);
  s = R[0].size;
  astar_field_query_defaults(&q);
  set_rules(&q, &R[0]);
  q.direction = from ? ASTAR_FIELD_FROM : ASTAR_FIELD_TO;
  q.heap = (j & 8) != 0;
  TRACE("sum of %u: %g %g, %s, %s, heap %d%s%s\n", (unsigned)n, w[0], w[1],
        rescan ? "rescanned" : "plain", from ? "from" : "to", q.heap,
        ok ? "" : ", stale", failing ? ", failing" : "");
  prepare(q.unit, s);
  for (t = 0; t < NMAX; t++) seed[t] = HUGE_VAL;
  if (ok && !empty)
    for (t = 0; t < F[0].count; t++) {
      uint32_t v = F[0].order[t];
      double sum = 0.0;
      int32_t x, y;
      for (i = 0; i < n; i++) {
        if (!astar_field_has(src[i], v)) break;
        sum += w[i] * (double)src[i]->value[v];
      }
      if (i < n) continue;
      astar_xy(&grid, v, &x, &y);
      seed[y * SIDE + x] = (double)(float)sum;
      count++;
    }
  for (round = failing ? 0 : 1; round < 2; round++) {
    fz_snap(&snap, &grid);
    if (round == 0) arm();
    rc = astar_field_fit(dst, &grid);
    if (rc == ASTAR_OK)
      rc = astar_field_combine(dst, src, w, n, rescan ? &grid : NULL, &q);
    FZ_ASSERT(fz_same(&snap, &grid, 1));
    fz_unsnap(&snap);
    if (empty && rc != ASTAR_ENOMEM) {
      fheap.fail_at = 0;
      FZ_ASSERT(rc == ASTAR_EINVAL);
      fresh[2] = 0;
      check_memory();
      return;
    }
    if (round == 0) {
      if (disarm(rc, dst) != ASTAR_OK) continue;
    } else {
      FZ_ASSERT(rc == ASTAR_OK);
      check_memory();
    }
    TRACE("  %u tiles\n", dst->count);
    if (!ok) continue;
    if (rescan) {
      check_field(dst, from, s, HUGE_VAL);
    } else { /* a plain sum: the sources' common tiles, their sum */
      FZ_ASSERT(dst->tag != 0 && dst->count == count);
      for (t = 0; t < NMAX; t++) {
        int32_t x = (int32_t)(t % SIDE), y = (int32_t)(t / SIDE);
        uint32_t at;
        if (!in_grid(x, y)) continue;
        at = astar_index(&grid, x, y);
        FZ_ASSERT(astar_field_has(dst, at) == (seed[t] < HUGE_VAL));
        if (seed[t] < HUGE_VAL)
          FZ_ASSERT(close_to((double)dst->value[at], seed[t]));
      }
      for (t = 0; t < dst->count; t++)
        FZ_ASSERT(astar_field_has(dst, dst->order[t]));
    }
  }
  fresh[2] = ok && rescan; /* a plain sum is no field to check again */
}

/* Ops 7 + 0..4: terrain, heights, unit classes, links (each an edit of
 * the map: no field is fresh after it) and the overlay lists. */
static void edit(fz_reader *rd, unsigned e) {
  int32_t x = (int32_t)(fz_byte(rd) % (unsigned)W);
  int32_t y = (int32_t)(fz_byte(rd) % (unsigned)H);
  int t = y * SIDE + x;
  switch (e) {
  case 0: /* terrain: x y c */
    terrain[t] = (uint8_t)(fz_byte(rd) % NTERRAIN);
    FZ_ASSERT(astar_grid_set_terrain(&grid, x, y, terrain[t]) == ASTAR_OK);
    TRACE("terrain (%d,%d) %d\n", x, y, terrain[t]);
    break;
  case 1: /* height: x y h */
    height[t] = HEIGHTS[fz_byte(rd) % 8];
    FZ_ASSERT(astar_grid_set_height(&grid, x, y, height[t]) == ASTAR_OK);
    TRACE("height (%d,%d) %g\n", x, y, (double)height[t]);
    break;
  case 2: { /* a unit class: (x: the unit) m0 m1 m2 m3 r */
    float table[ASTAR_TERRAINS];
    unit_model *u = &U[x % NUNIT];
    unsigned rb, i;
    (void)y;
    for (i = 0; i < ASTAR_TERRAINS; i++) table[i] = 1.0f;
    for (i = 0; i < NTERRAIN; i++)
      table[i] = u->mult[i] = MULTS[fz_byte(rd) % 8];
    rb = fz_byte(rd);
    u->climb = CLIMBS[rb & 3];
    u->descend = CLIMBS[(rb >> 2) & 3];
    u->max_climb = LIMITS[(rb >> 4) & 3];
    u->max_drop = LIMITS[(rb >> 6) & 3];
    u->defined = 1;
    TRACE("unit %d: %g %g %g %g, climb %g descend %g, limits %g %g\n",
          x % NUNIT, (double)table[0], (double)table[1], (double)table[2],
          (double)table[3], u->climb, u->descend, u->max_climb, u->max_drop);
    FZ_ASSERT(astar_unit_define(&grid, x % NUNIT, table, u->climb,
                                u->descend, u->max_climb,
                                u->max_drop) == ASTAR_OK);
    break;
  }
  case 3: { /* a link: x1 y1 x2 y2 c f (f & 1: both ways; f & 2: unlink) */
    int32_t x2 = (int32_t)(fz_byte(rd) % (unsigned)W);
    int32_t y2 = (int32_t)(fz_byte(rd) % (unsigned)H);
    double c = LCOSTS[fz_byte(rd) % 8];
    unsigned fl = fz_byte(rd);
    int t2 = y2 * SIDE + x2, k, removed = -1, n = 0, dirs;
    TRACE("%s (%d,%d) -> (%d,%d) %g%s\n", fl & 2 ? "unlink" : "link", x, y,
          x2, y2, c, fl & 1 ? ", both ways" : "");
    if (fl & 2) {
      FZ_ASSERT(astar_grid_unlink(&grid, x, y, x2, y2, &removed) ==
                ASTAR_OK);
      for (k = 0; k < nlk; k++)
        if ((LK[k].from == t && LK[k].to == t2) ||
            (LK[k].from == t2 && LK[k].to == t))
          n++;
        else
          LK[k - n] = LK[k];
      nlk -= n;
      FZ_ASSERT(removed == n);
      break;
    }
    if (t == t2) {
      FZ_ASSERT(astar_grid_link(&grid, x, y, x2, y2, c, (int)(fl & 1)) ==
                ASTAR_EINVAL);
      return; /* no edit */
    }
    if (nlk + 2 > NLINK) return; /* the model is full: no edit */
    FZ_ASSERT(astar_grid_link(&grid, x, y, x2, y2, c, (int)(fl & 1)) ==
              ASTAR_OK);
    for (dirs = 0; dirs < ((fl & 1) ? 2 : 1); dirs++) {
      int a = dirs ? t2 : t, b = dirs ? t : t2;
      for (k = 0; k < nlk; k++)
        if (LK[k].from == a && LK[k].to == b) break;
      if (k == nlk) nlk++;
      LK[k].from = a;
      LK[k].to = b;
      LK[k].cost = c;
    }
    break;
  }
  default: { /* overlay lists: (x: counts) then pairs, triples */
    size_t i;
    ov_navoid = (size_t)x % NOV;
    ov_nextra = (size_t)y % NOV;
    for (i = 0; i < ov_navoid; i++) {
      ov_avoid[2 * i] = (int32_t)(fz_byte(rd) % (unsigned)W);
      ov_avoid[2 * i + 1] = (int32_t)(fz_byte(rd) % (unsigned)H);
    }
    for (i = 0; i < ov_nextra; i++) {
      ov_extra[2 * i] = (int32_t)(fz_byte(rd) % (unsigned)W);
      ov_extra[2 * i + 1] = (int32_t)(fz_byte(rd) % (unsigned)H);
      ov_cost[i] = ECOSTS[fz_byte(rd) % 4];
    }
    TRACE("overlay lists: %u avoided, %u extra\n", (unsigned)ov_navoid,
          (unsigned)ov_nextra);
    return; /* no edit of the map */
  }
  }
  memset(fresh, 0, sizeof fresh);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_reader rd;
  unsigned b2;
  int32_t x, y;
  int ops = 0, k;
  rd.p = data;
  rd.n = size;
  fz_heap_init(&heap);
  fz_heap_init(&fheap);
  W = (int)(fz_byte(&rd) % SIDE) + 1;
  H = (int)(fz_byte(&rd) % SIDE) + 1;
  b2 = fz_byte(&rd);
  diag = (int)(b2 & 3);
  hex = (b2 & 64) != 0;
  fail_k = (b2 >> 3) & 7;
  len_card = b2 & 4 ? 2.0 : 1.0;
  len_diag = b2 & 4 ? 3.0 : sqrt(2.0);
  TRACE("%d x %d, rule %d, steps %s, fail %u%s\n", W, H, diag,
        b2 & 4 ? "2/3" : "1/sqrt2", fail_k, hex ? ", hex" : "");
  memset(wall, 0, sizeof wall);
  memset(terrain, 0, sizeof terrain);
  memset(U, 0, sizeof U);
  nlk = 0;
  ov_navoid = ov_nextra = 0;
  for (k = 0; k < NMAX; k++) cost[k] = 1.0f, height[k] = 0.0f;
  FZ_ASSERT(astar_grid_init(&grid, W, H, fz_alloc, &heap) == ASTAR_OK);
  FZ_ASSERT(astar_grid_set_movement(&grid, hex ? ASTAR_DIAG_HEX : diag,
                                    len_card, len_diag) == ASTAR_OK);
  for (k = 0; k < NF; k++) {
    astar_field_init(&F[k], fz_alloc, &fheap);
    fresh[k] = 0;
    memset(&R[k], 0, sizeof R[k]);
    R[k].size = 1;
  }
  for (k = 0; k < W * H; k += 8) {
    unsigned bits = fz_byte(&rd), j;
    for (j = 0; j < 8 && k + (int)j < W * H; j++) {
      x = (k + (int)j) % W;
      y = (k + (int)j) / W;
      wall[y * SIDE + x] = (bits >> j) & 1u;
      astar_grid_set_blocked(&grid, x, y, wall[y * SIDE + x]);
    }
  }
  while (rd.n > 0 && ops++ < 48) {
    unsigned op = fz_byte(&rd);
    if (op >= 224) { /* the map's other layers, links, overlay lists */
      edit(&rd, (op - 224) % 5);
      continue;
    }
    switch (op % 7) {
    case 0:
      x = (int32_t)(fz_byte(&rd) % (unsigned)W);
      y = (int32_t)(fz_byte(&rd) % (unsigned)H);
      wall[y * SIDE + x] ^= 1u;
      astar_grid_set_blocked(&grid, x, y, wall[y * SIDE + x]);
      TRACE("wall (%d,%d) %d\n", x, y, wall[y * SIDE + x]);
      memset(fresh, 0, sizeof fresh);
      break;
    case 1: {
      unsigned c;
      x = (int32_t)(fz_byte(&rd) % (unsigned)W);
      y = (int32_t)(fz_byte(&rd) % (unsigned)H);
      c = fz_byte(&rd);
      cost[y * SIDE + x] = COSTS[c % 8];
      astar_grid_set_cost(&grid, x, y, cost[y * SIDE + x]);
      /* set_cost opens the tile (astar.h) */
      wall[y * SIDE + x] = (uint8_t)astar_grid_is_blocked(&grid, x, y);
      FZ_ASSERT(!wall[y * SIDE + x]);
      TRACE("cost (%d,%d) %g\n", x, y, (double)cost[y * SIDE + x]);
      memset(fresh, 0, sizeof fresh);
      break;
    }
    case 2: build(&rd, 0); break;
    case 3: build(&rd, fail_k != 0); break;
    case 4:
      k = (int)(fz_byte(&rd) % NF);
      TRACE("release %d\n", k);
      astar_field_release(&F[k]);
      FZ_ASSERT(astar_field_memory(&F[k]) == 0);
      check_empty(&F[k]);
      astar_field_init(&F[k], fz_alloc, &fheap);
      fresh[k] = 0;
      check_memory();
      break;
    case 5: flee(&rd); break;
    default: combine(&rd); break;
    }
  }
  for (k = 0; k < NF; k++) {
    astar_field_release(&F[k]);
    astar_field_release(&F[k]); /* idempotent */
  }
  FZ_ASSERT(fheap.live == 0 && fheap.blocks == 0);
  fz_release_check(&grid, &heap);
  return 0;
}

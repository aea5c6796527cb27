/*
 * fuzz_paths: line of sight, smoothing, any-angle search and paths as
 * corners on a small grid, each checked against references written here
 * from astar.h's documentation (not from sight.c, theta.c or engine.c).
 *
 * Input layout:
 *   byte 0   width - 1  (mod 20)
 *   byte 1   height - 1 (mod 20)
 *   byte 2   bits 0-1 diagonal rule; bit 2: weighted tiles (costs 1..4);
 *            bits 3-5: a context allocation to fail in op 4 (0: none)
 *   then ceil(w * h / 8) bytes: the walls, one bit per tile (row-major);
 *   when weighted, ceil(w * h / 4) more: each tile's cost, two bits
 *   then operations, one opcode byte each (op = byte % 6) plus operands:
 *     0 toggle x y               3 a query with and without corners:
 *     1 line of sight x0 y0 x1 y1 s   sx sy gx gy a s
 *     2 Theta* / Lazy Theta*:     4 op 2 with the context's allocation
 *       sx sy gx gy a s             failing (byte 2), then again
 *                                 5 smooth: n (2..17), then n x y pairs
 *                                   (or n = 0: the last 8-way path)
 *   s: the unit's size, (s % 3) + 1 (s x s, top-left anchored).
 *
 * References (doubled coordinates: tile x spans [2x, 2x + 2], its centre
 * is 2x + 1; everything in exact integers):
 *  - a tile is open to an s x s unit when the s x s tiles from it are all
 *    inside the grid and open;
 *  - line of sight: the segment between the centres crosses the inside of
 *    no closed tile, and where it passes through a grid vertex it does
 *    not squeeze between the two closed tiles it grazes there (rule
 *    "always": it may);
 *  - a leg's cost: a legal step (or a diagonal past one closed corner, in
 *    sight) costs its step length times the tile entered; a longer leg in
 *    sight its Euclidean length times the dearest tile whose inside it
 *    crosses, its start tile not counted;
 *  - the 8-way optimum: a Dijkstra under the diagonal rule.
 *
 * Checks:
 *  - astar_line_of_sight equals the reference, both ways; when blocked,
 *    the tile it names is closed to the unit;
 *  - Theta* and Lazy Theta*: found whenever the 8-way reference reaches
 *    the goal; the waypoints run from start to goal, each leg in sight,
 *    r->cost is the sum of the reference's leg costs (1e-9 relative),
 *    never above the 8-way optimum, never below the straight line times
 *    the cheapest tile; not found: the 8-way reference does not reach it
 *    either;
 *  - corners: the same query with q->corners gives the same outcome,
 *    cost, length and algorithm; its walk is the first tile, the tiles
 *    where the step changes and the last (any-angle: the waypoints, less
 *    those in line with both neighbours), r->corners of them; stepping by
 *    sign(dx), sign(dy) between corners gives the tile path back exactly;
 *  - smooth: on a path of legs in sight, the output starts and ends where
 *    the input does, keeps at most as many waypoints, every leg in sight,
 *    and costs at most the input (1e-9 relative); on a path with a leg
 *    out of sight it names exactly the first such leg;
 *  - a failing context allocation gives ENOMEM only when one failed, the
 *    grid is untouched, and the same query then succeeds; every byte the
 *    context holds is accounted, and nothing is left after release.
 */
#include "fuzz_common.h"

#include <math.h>

#define SIDE 20
#define NMAX (SIDE * SIDE)

static fz_heap heap, sheap;
static astar_grid grid;
static astar_search ctx;
static int W, H, diag, weighted;
static uint8_t wall[NMAX];
static float cost[NMAX];

/* the last 8-way path found (op 3), x, y pairs from the start */
static int32_t last_xy[2 * NMAX];
static size_t last_n;

static int in_grid(int32_t x, int32_t y) {
  return x >= 0 && y >= 0 && x < W && y < H;
}

/* open to an s x s unit whose top-left tile is (x, y) */
static int open_s(int s, int32_t x, int32_t y) {
  int32_t i, j;
  if (!in_grid(x, y) || !in_grid(x + s - 1, y + s - 1)) return 0;
  for (j = 0; j < s; j++)
    for (i = 0; i < s; i++)
      if (wall[(y + j) * SIDE + x + i]) return 0;
  return 1;
}

/* what a step into (x, y) costs an s x s unit: its top-left tile's cost
 * (docs/api.md, "Clearance and size") */
static double cost_s(int s, int32_t x, int32_t y) {
  (void)s;
  return (double)cost[y * SIDE + x];
}

static void prepare(int s) {
  FZ_ASSERT(astar_grid_prepare(&grid, 0, ASTAR_PREPARE_ZONES) == ASTAR_OK);
  if (s > 1) FZ_ASSERT(astar_grid_prepare_size(&grid, 0, s, ASTAR_PREPARE_ZONES) == ASTAR_OK);
  FZ_ASSERT(heap.live == astar_grid_memory(&grid));
}

/* ---- line of sight, exactly ---- */

/* Does the segment p + t d, 0 <= t <= 1, cross the open square
 * (a0, a1) x (b0, b1)?  Liang-Barsky, fractions compared exactly. */
static int crosses(int64_t px, int64_t py, int64_t dx, int64_t dy,
                   int64_t a0, int64_t a1, int64_t b0, int64_t b1) {
  int64_t lo_n = 0, lo_d = 1, hi_n = 1, hi_d = 1;
  int64_t p[2], d[2], lo[2], hi[2];
  int k;
  p[0] = px, p[1] = py, d[0] = dx, d[1] = dy;
  lo[0] = a0, hi[0] = a1, lo[1] = b0, hi[1] = b1;
  for (k = 0; k < 2; k++) {
    int64_t n1 = lo[k] - p[k], n2 = hi[k] - p[k], dd = d[k];
    if (dd == 0) {
      if (!(p[k] > lo[k] && p[k] < hi[k])) return 0;
      continue;
    }
    if (dd < 0) {
      int64_t t = n1;
      n1 = -n2;
      n2 = -t;
      dd = -dd;
    }
    if (n1 * lo_d > lo_n * dd) lo_n = n1, lo_d = dd;
    if (n2 * hi_d < hi_n * dd) hi_n = n2, hi_d = dd;
  }
  return lo_n * hi_d < hi_n * lo_d;
}

/* The reference line of sight for an s x s unit; *top gets the dearest
 * tile whose inside the segment crosses, the start tile not counted. */
static int ref_sight(int s, int32_t x0, int32_t y0, int32_t x1, int32_t y1,
                     double *top) {
  int64_t px = 2 * x0 + 1, py = 2 * y0 + 1;
  int64_t dx = 2 * (int64_t)(x1 - x0), dy = 2 * (int64_t)(y1 - y0);
  int32_t xlo = x0 < x1 ? x0 : x1, xhi = x0 < x1 ? x1 : x0;
  int32_t ylo = y0 < y1 ? y0 : y1, yhi = y0 < y1 ? y1 : y0;
  int32_t cx, cy;
  *top = 0.0;
  for (cy = ylo; cy <= yhi; cy++) {
    for (cx = xlo; cx <= xhi; cx++) {
      if (!crosses(px, py, dx, dy, 2 * cx, 2 * cx + 2, 2 * cy, 2 * cy + 2))
        continue;
      if (!open_s(s, cx, cy)) return 0;
      if ((cx != x0 || cy != y0) && cost_s(s, cx, cy) > *top)
        *top = cost_s(s, cx, cy);
    }
  }
  if (diag == ASTAR_DIAG_ALWAYS) return 1;
  for (cy = ylo + 1; cy <= yhi; cy++) {
    for (cx = xlo + 1; cx <= xhi; cx++) { /* the vertex (2cx, 2cy) */
      int a, b;
      if ((2 * cx - px) * dy - (2 * cy - py) * dx != 0) continue;
      if ((dx > 0) == (dy > 0)) { /* grazes north-east and south-west */
        a = open_s(s, cx, cy - 1);
        b = open_s(s, cx - 1, cy);
      } else {
        a = open_s(s, cx - 1, cy - 1);
        b = open_s(s, cx, cy);
      }
      if (!a && !b) return 0;
    }
  }
  return 1;
}

static int legal_step(int s, int32_t x, int32_t y, int32_t dx, int32_t dy) {
  int a, b;
  if (!open_s(s, x + dx, y + dy)) return 0;
  if (dx == 0 || dy == 0) return 1;
  a = open_s(s, x + dx, y);
  b = open_s(s, x, y + dy);
  switch (diag) {
  case ASTAR_DIAG_BOTH_FREE: return a && b;
  case ASTAR_DIAG_ONE_FREE: return a || b;
  case ASTAR_DIAG_ALWAYS: return 1;
  default: return 0;
  }
}

/* A leg's cost (INFINITY: it may not be taken), as astar.h prices legs. */
static double ref_leg(int s, int32_t x0, int32_t y0, int32_t x1,
                      int32_t y1) {
  int32_t dx = x1 - x0, dy = y1 - y0;
  double top;
  if (dx == 0 && dy == 0) return 0.0;
  if (dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1) {
    if (!legal_step(s, x0, y0, dx, dy) &&
        (dx == 0 || dy == 0 || !ref_sight(s, x0, y0, x1, y1, &top)))
      return INFINITY;
    return grid.step_length[dx != 0 && dy != 0 ? 4 : 0] * cost_s(s, x1, y1);
  }
  if (!ref_sight(s, x0, y0, x1, y1, &top)) return INFINITY;
  return sqrt((double)dx * dx + (double)dy * dy) * grid.cardinal_length * top;
}

/* ---- the 8-way optimum ---- */

static double dist[NMAX];

static void ref_dijkstra(int s, int32_t sx, int32_t sy) {
  static uint8_t done[NMAX];
  int i;
  for (i = 0; i < NMAX; i++) dist[i] = INFINITY, done[i] = 0;
  dist[sy * SIDE + sx] = 0.0;
  for (;;) { /* O(n^2): 400 tiles */
    int best = -1, d;
    int32_t x, y;
    for (i = 0; i < NMAX; i++)
      if (!done[i] && dist[i] < INFINITY &&
          (best < 0 || dist[i] < dist[best]))
        best = i;
    if (best < 0) return;
    done[best] = 1;
    x = best % SIDE;
    y = best / SIDE;
    for (d = 0; d < 8; d++) {
      int32_t ddx = astar_dir_dx[d], ddy = astar_dir_dy[d];
      double nd;
      if (!legal_step(s, x, y, ddx, ddy)) continue;
      nd = dist[best] + grid.step_length[d] * cost_s(s, x + ddx, y + ddy);
      if (nd < dist[(y + ddy) * SIDE + x + ddx])
        dist[(y + ddy) * SIDE + x + ddx] = nd;
    }
  }
}

static double min_cost(int s) {
  double m = INFINITY;
  int32_t x, y;
  for (y = 0; y < H; y++)
    for (x = 0; x < W; x++)
      if (open_s(s, x, y) && cost_s(s, x, y) < m) m = cost_s(s, x, y);
  return m;
}

/* ---- the path walk ---- */

/* The path of ctx's last search as x, y pairs from the start; its count. */
static size_t walk(int32_t *xy) {
  static uint32_t node[NMAX + 1];
  size_t n = 0, k;
  uint32_t at = astar_path_last(&ctx);
  node[n++] = at;
  while (astar_path_prev(&ctx, &at)) {
    FZ_ASSERT(n <= NMAX);
    node[n++] = at;
  }
  for (k = 0; k < n; k++)
    astar_xy(&grid, node[n - 1 - k], &xy[2 * k], &xy[2 * k + 1]);
  return n;
}

static double legs_cost(int s, const int32_t *xy, size_t n) {
  double c = 0.0;
  size_t k;
  for (k = 0; k + 1 < n; k++)
    c += ref_leg(s, xy[2 * k], xy[2 * k + 1], xy[2 * k + 2], xy[2 * k + 3]);
  return c;
}

static int near(double a, double b) {
  return fabs(a - b) <= 1e-9 * (fabs(a) > fabs(b) ? fabs(a) : fabs(b)) + 1e-12;
}

/* ---- the operations ---- */

static void op_sight(fz_reader *rd) {
  int32_t x0 = (int32_t)(fz_byte(rd) % (unsigned)W);
  int32_t y0 = (int32_t)(fz_byte(rd) % (unsigned)H);
  int32_t x1 = (int32_t)(fz_byte(rd) % (unsigned)W);
  int32_t y1 = (int32_t)(fz_byte(rd) % (unsigned)H);
  int s = (int)(fz_byte(rd) % 3) + 1, got, back, want;
  int32_t bx, by, cx, cy;
  double top;
  prepare(s);
  want = ref_sight(s, x0, y0, x1, y1, &top);
  got = astar_line_of_sight(&grid, 0, s, x0, y0, x1, y1, &bx, &by);
  back = astar_line_of_sight(&grid, 0, s, x1, y1, x0, y0, &cx, &cy);
  FZ_ASSERT(got == want && back == want);
  if (!got) {
    FZ_ASSERT(in_grid(bx, by) && !open_s(s, bx, by));
    FZ_ASSERT(in_grid(cx, cy) && !open_s(s, cx, cy));
  }
}

static void read_query(fz_reader *rd, astar_query *q, int anyangle) {
  unsigned a;
  astar_query_defaults(q);
  q->sx = (int32_t)(fz_byte(rd) % (unsigned)W);
  q->sy = (int32_t)(fz_byte(rd) % (unsigned)H);
  q->gx = (int32_t)(fz_byte(rd) % (unsigned)W);
  q->gy = (int32_t)(fz_byte(rd) % (unsigned)H);
  a = fz_byte(rd);
  q->size = (int)(fz_byte(rd) % 3) + 1;
  if (anyangle) {
    q->algorithm = a & 1 ? ASTAR_ALGO_LAZY_THETA : ASTAR_ALGO_THETA;
  } else {
    static const int algos[6] = {ASTAR_ALGO_AUTO, ASTAR_ALGO_ASTAR,
                                 ASTAR_ALGO_JPS, ASTAR_ALGO_DIJKSTRA,
                                 ASTAR_ALGO_LAZY_THETA, ASTAR_ALGO_BFS};
    q->algorithm = algos[a % 6];
  }
  if (a & 8) q->open_list = ASTAR_OPEN_HEAP;
  prepare(q->size);
}

/* The checks of a Theta* or Lazy Theta* result. */
static void check_anyangle(const astar_query *q, const astar_result *r) {
  static int32_t xy[2 * NMAX + 2];
  int s = q->size;
  double opt, lb;
  size_t n, k;
  ref_dijkstra(s, q->sx, q->sy);
  opt = dist[q->gy * SIDE + q->gx];
  if (!open_s(s, q->sx, q->sy) || !open_s(s, q->gx, q->gy)) {
    FZ_ASSERT(r->outcome != ASTAR_FOUND);
    return;
  }
  if (opt < INFINITY) FZ_ASSERT(r->outcome == ASTAR_FOUND);
  if (r->outcome != ASTAR_FOUND) return;
  FZ_ASSERT(r->algorithm == q->algorithm);
  n = walk(xy);
  FZ_ASSERT(n == r->length && n >= 1);
  FZ_ASSERT(xy[0] == q->sx && xy[1] == q->sy);
  FZ_ASSERT(xy[2 * n - 2] == q->gx && xy[2 * n - 1] == q->gy);
  for (k = 0; k + 1 < n; k++) {
    double top;
    FZ_ASSERT(xy[2 * k] != xy[2 * k + 2] || xy[2 * k + 1] != xy[2 * k + 3]);
    FZ_ASSERT(ref_sight(s, xy[2 * k], xy[2 * k + 1], xy[2 * k + 2],
                        xy[2 * k + 3], &top));
  }
  FZ_ASSERT(near(r->cost, legs_cost(s, xy, n)));
  if (opt < INFINITY) FZ_ASSERT(r->cost <= opt * (1.0 + 1e-9));
  lb = sqrt((double)(q->gx - q->sx) * (q->gx - q->sx) +
            (double)(q->gy - q->sy) * (q->gy - q->sy)) *
       min_cost(s);
  FZ_ASSERT(r->cost >= lb * (1.0 - 1e-9));
}

static void op_anyangle(fz_reader *rd, unsigned fail) {
  astar_query q;
  astar_result r;
  fz_snapshot snap;
  int rc;
  read_query(rd, &q, 1);
  if (fail) {
    fz_snap(&snap, &grid);
    /* start cold, so the search has to allocate */
    astar_search_release(&ctx);
    FZ_ASSERT(sheap.live == 0 && sheap.blocks == 0);
    astar_search_init(&ctx, fz_alloc, &sheap);
    sheap.fail_at = sheap.count + fail;
    sheap.fail_sticky = 0;
    sheap.failed = 0;
    rc = astar_find_path(&ctx, &grid, &q, &r);
    sheap.fail_at = 0;
    if (rc == ASTAR_ENOMEM)
      FZ_ASSERT(sheap.failed > 0);
    else
      FZ_ASSERT(rc == ASTAR_OK && sheap.failed == 0);
    FZ_ASSERT(fz_same(&snap, &grid, 1));
    fz_unsnap(&snap);
    FZ_ASSERT(sheap.live == astar_search_memory(&ctx));
  }
  rc = astar_find_path(&ctx, &grid, &q, &r);
  if (rc != ASTAR_OK) /* say why before failing */
    fprintf(stderr, "fuzz_paths: status %d, algorithm %d, size %d\n", rc,
            q.algorithm, q.size);
  FZ_ASSERT(rc == ASTAR_OK);
  check_anyangle(&q, &r);
  FZ_ASSERT(sheap.live == astar_search_memory(&ctx));
}

static int sign(int32_t v) { return (v > 0) - (v < 0); }

static void op_corners(fz_reader *rd) {
  static int32_t tiles[2 * NMAX + 2], cor[2 * NMAX + 2];
  astar_query q, qc;
  astar_result r, rc_;
  int rc1, rc2, anyangle;
  size_t n, m, k, at;
  read_query(rd, &q, 0);
  anyangle = q.algorithm == ASTAR_ALGO_LAZY_THETA;
  qc = q;
  qc.corners = 1;
  rc1 = astar_find_path(&ctx, &grid, &q, &r);
  n = rc1 == ASTAR_OK && r.outcome == ASTAR_FOUND ? walk(tiles) : 0;
  rc2 = astar_find_path(&ctx, &grid, &qc, &rc_);
  FZ_ASSERT(rc1 == rc2);
  if (rc1 != ASTAR_OK) return; /* refused (JPS on weights): both alike */
  FZ_ASSERT(r.outcome == rc_.outcome && r.algorithm == rc_.algorithm);
  FZ_ASSERT(r.corners == 0);
  if (r.outcome != ASTAR_FOUND) return;
  FZ_ASSERT(r.cost == rc_.cost && r.length == rc_.length);
  m = walk(cor);
  FZ_ASSERT(m == rc_.corners && m >= 1 && m <= n);
  FZ_ASSERT(cor[0] == tiles[0] && cor[1] == tiles[1]);
  FZ_ASSERT(cor[2 * m - 2] == tiles[2 * n - 2] &&
            cor[2 * m - 1] == tiles[2 * n - 1]);
  if (anyangle) { /* the waypoints less those in line with both neighbours */
    size_t j = 1;
    for (k = 1; k + 1 < n; k++) {
      int64_t ax = tiles[2 * k] - tiles[2 * k - 2];
      int64_t ay = tiles[2 * k + 1] - tiles[2 * k - 1];
      int64_t bx = tiles[2 * k + 2] - tiles[2 * k];
      int64_t by = tiles[2 * k + 3] - tiles[2 * k + 1];
      if (ax * by - ay * bx == 0 && ax * bx + ay * by > 0) continue;
      FZ_ASSERT(j + 1 < m && cor[2 * j] == tiles[2 * k] &&
                cor[2 * j + 1] == tiles[2 * k + 1]);
      j++;
    }
    FZ_ASSERT(j + 1 == m || (n == 1 && m == 1));
    return;
  }
  /* tiles from corners: sign steps between them */
  at = 0;
  for (k = 0; k + 1 < m; k++) {
    int32_t x = cor[2 * k], y = cor[2 * k + 1];
    int32_t sx = sign(cor[2 * k + 2] - x), sy = sign(cor[2 * k + 3] - y);
    int32_t ddx = cor[2 * k + 2] - x, ddy = cor[2 * k + 3] - y;
    FZ_ASSERT(ddx == 0 || ddy == 0 || ddx == ddy || ddx == -ddy);
    FZ_ASSERT(ddx != 0 || ddy != 0);
    while (x != cor[2 * k + 2] || y != cor[2 * k + 3]) {
      FZ_ASSERT(at < n && tiles[2 * at] == x && tiles[2 * at + 1] == y);
      at++;
      x += sx;
      y += sy;
    }
    if (k > 0) { /* a corner: the step changes there */
      int32_t px = sign(cor[2 * k] - cor[2 * k - 2]);
      int32_t py = sign(cor[2 * k + 1] - cor[2 * k - 1]);
      FZ_ASSERT(px != sx || py != sy);
    }
  }
  FZ_ASSERT(at + 1 == n);
  if (q.size == 1) {
    last_n = n; /* for op 5 */
    memcpy(last_xy, tiles, 2 * n * sizeof *tiles);
  }
}

static void op_smooth(fz_reader *rd) {
  static int32_t xy[2 * NMAX + 2], out[2 * NMAX + 2];
  static double sum[NMAX + 1];
  size_t n = fz_byte(rd) % 18, nout, bad, k, first_bad = (size_t)-1;
  int s = 1, rc;
  double in_cost, out_cost;
  fz_snapshot snap;
  if (n == 1) n = 2;
  if (n == 0) {
    if (last_n == 0) return;
    n = last_n;
    memcpy(xy, last_xy, 2 * n * sizeof *xy);
  } else {
    for (k = 0; k < n; k++) {
      xy[2 * k] = (int32_t)(fz_byte(rd) % (unsigned)W);
      xy[2 * k + 1] = (int32_t)(fz_byte(rd) % (unsigned)H);
    }
  }
  prepare(s);
  for (k = 0; k + 1 < n && first_bad == (size_t)-1; k++)
    if (!(ref_leg(s, xy[2 * k], xy[2 * k + 1], xy[2 * k + 2],
                  xy[2 * k + 3]) < INFINITY))
      first_bad = k;
  fz_snap(&snap, &grid);
  rc = astar_smooth(&grid, 0, s, xy, n, out, &nout, &bad, n & 1 ? sum : NULL);
  FZ_ASSERT(fz_same(&snap, &grid, 1));
  fz_unsnap(&snap);
  if (first_bad != (size_t)-1) {
    FZ_ASSERT(rc == ASTAR_EINVAL && bad == first_bad);
    return;
  }
  FZ_ASSERT(rc == ASTAR_OK && nout >= 1 && nout <= n);
  FZ_ASSERT(out[0] == xy[0] && out[1] == xy[1]);
  FZ_ASSERT(out[2 * nout - 2] == xy[2 * n - 2] &&
            out[2 * nout - 1] == xy[2 * n - 1]);
  in_cost = legs_cost(s, xy, n);
  out_cost = legs_cost(s, out, nout);
  FZ_ASSERT(out_cost < INFINITY);
  /* each pulled leg costs at most the legs it replaced, each with the
   * slack astar.h allows */
  FZ_ASSERT(out_cost <= in_cost * (1.0 + 1e-9 * (double)n) + 1e-12);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_reader rd;
  unsigned b2, fail;
  int32_t x, y;
  int ops = 0, k;
  rd.p = data;
  rd.n = size;
  fz_heap_init(&heap);
  fz_heap_init(&sheap);
  W = (int)(fz_byte(&rd) % SIDE) + 1;
  H = (int)(fz_byte(&rd) % SIDE) + 1;
  b2 = fz_byte(&rd);
  diag = (int)(b2 & 3);
  weighted = (b2 & 4) != 0;
  fail = (b2 >> 3) & 7;
  last_n = 0;
  memset(wall, 0, sizeof wall);
  for (k = 0; k < NMAX; k++) cost[k] = 1.0f;
  FZ_ASSERT(astar_grid_init(&grid, W, H, fz_alloc, &heap) == ASTAR_OK);
  FZ_ASSERT(astar_grid_set_movement(&grid, diag, 1.0, sqrt(2.0)) == ASTAR_OK);
  astar_search_init(&ctx, fz_alloc, &sheap);
  for (k = 0; k < W * H; k += 8) {
    unsigned bits = fz_byte(&rd), j;
    for (j = 0; j < 8 && k + (int)j < W * H; j++)
      wall[((k + (int)j) / W) * SIDE + (k + (int)j) % W] = (bits >> j) & 1u;
  }
  if (weighted) {
    for (k = 0; k < W * H; k += 4) {
      unsigned bits = fz_byte(&rd), j;
      for (j = 0; j < 4 && k + (int)j < W * H; j++)
        cost[((k + (int)j) / W) * SIDE + (k + (int)j) % W] =
            (float)(((bits >> (2 * j)) & 3u) + 1u);
    }
  }
  for (y = 0; y < H; y++) {
    for (x = 0; x < W; x++) {
      astar_grid_set_cost(&grid, x, y, cost[y * SIDE + x]);
      astar_grid_set_blocked(&grid, x, y, wall[y * SIDE + x]);
    }
  }
  while (rd.n > 0 && ops++ < 64) {
    unsigned op = fz_byte(&rd) % 6;
    switch (op) {
    case 0: {
      x = (int32_t)(fz_byte(&rd) % (unsigned)W);
      y = (int32_t)(fz_byte(&rd) % (unsigned)H);
      wall[y * SIDE + x] ^= 1u;
      astar_grid_set_blocked(&grid, x, y, wall[y * SIDE + x]);
      last_n = 0; /* the last path may cross the tile now */
      break;
    }
    case 1: op_sight(&rd); break;
    case 2: op_anyangle(&rd, 0); break;
    case 3: op_corners(&rd); break;
    case 4: op_anyangle(&rd, fail); break;
    default: op_smooth(&rd); break;
    }
  }
  astar_search_release(&ctx);
  FZ_ASSERT(sheap.live == 0 && sheap.blocks == 0);
  fz_release_check(&grid, &heap);
  return 0;
}

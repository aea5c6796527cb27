/*
 * C-level checks of the engine (the map / search-context split), printed
 * as TAP so CI counts them with busted's results:
 *
 *  - sliced searches: astar_search_begin + astar_search_step at slice
 *    sizes 1, 7 and 100 give exactly an uninterrupted run's result
 *    (outcome, cost to the bit, expansions, every tile of the path), for
 *    A*, JPS and the rest of the family, on sampled scenarios of every map
 *    in the maps directory;
 *  - two contexts interleaved over one map (slices of 7 in turn) answer
 *    as each does alone;
 *  - after astar_grid_prepare, a batch of queries (every algorithm,
 *    options, cost callbacks) leaves every byte of the map unchanged;
 *  - an edit that leaves derived data stale makes searches answer
 *    ASTAR_EPREPARE until the next prepare; every edit moves the version;
 *  - zone questions read only: the last path survives them;
 *  - blocks written whole (pages.c): the allocator sees one block per
 *    block, freed with the pointer and the size it gave and asked; a big
 *    one lies inside what was asked (2 MB-aligned on Linux);
 *  - a bitmap's row reads (bits.h) and a run's check (sight.h) agree with
 *    a bit-by-bit reading for every start and length up to 150 tiles, on
 *    bitmaps from all open to half blocked.
 *
 *   engine_test [MAPS_DIR]     (default ../shared/maps)
 * With no maps directory the map checks are skipped with a note, unless
 * ASTAR_REQUIRE_MAPS is set: then that is a failure.
 */
#include "astar.h"
#include "bits.h"
#include "internal.h"
#include "sight.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tests, failures;

static void ok(int cond, const char *fmt, const char *what) {
  tests++;
  if (!cond) failures++;
  printf("%s %d - ", cond ? "ok" : "not ok", tests);
  printf(fmt, what);
  printf("\n");
  fflush(stdout);
}

static void *test_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  (void)ud;
  (void)osize;
  if (nsize == 0) {
    free(ptr);
    return NULL;
  }
  return realloc(ptr, nsize);
}

/* ---- results to compare ---- */

typedef struct answer {
  int status, outcome, partial;
  double cost;
  uint32_t expanded, length;
  uint32_t *path; /* length nodes, end first */
} answer;

static void take(answer *a, const astar_search *s, int status,
                 const astar_result *r) {
  uint32_t node, k = 0;
  a->status = status;
  a->outcome = r->outcome;
  a->partial = r->partial;
  a->cost = r->cost;
  a->expanded = r->expanded;
  a->length = r->length;
  a->path = NULL;
  if (status != ASTAR_OK || (r->outcome != ASTAR_FOUND && !r->partial))
    return;
  a->path = malloc(((size_t)r->length + 1) * sizeof(uint32_t));
  if (a->path == NULL) exit(3);
  node = astar_path_last(s);
  a->path[k++] = node;
  while (astar_path_prev(s, &node) && k <= r->length) a->path[k++] = node;
  if (k != r->length) a->length = UINT32_MAX; /* the walk disagrees */
}

static int same(const answer *a, const answer *b) {
  if (a->status != b->status || a->outcome != b->outcome ||
      a->partial != b->partial || a->expanded != b->expanded ||
      a->length != b->length)
    return 0;
  if (memcmp(&a->cost, &b->cost, sizeof a->cost) != 0) return 0;
  if ((a->path == NULL) != (b->path == NULL)) return 0;
  return a->path == NULL ||
         memcmp(a->path, b->path, (size_t)a->length * sizeof(uint32_t)) == 0;
}

static void drop(answer *a) {
  free(a->path);
  a->path = NULL;
}

static void whole(astar_search *s, const astar_grid *g, const astar_query *q,
                  answer *a) {
  astar_result r;
  int st = astar_find_path(s, g, q, &r);
  take(a, s, st, &r);
}

static void sliced(astar_search *s, const astar_grid *g,
                   const astar_query *q, uint32_t slice, answer *a) {
  astar_result r;
  int st = astar_search_begin(s, g, q, &r);
  while (st == ASTAR_OK && r.outcome == ASTAR_RUNNING)
    st = astar_search_step(s, g, slice, &r);
  take(a, s, st, &r);
}

/* Two queries on two contexts, a slice of each in turn. */
static void interleaved(astar_search *s1, astar_search *s2,
                        const astar_grid *g, const astar_query *q1,
                        const astar_query *q2, answer *a1, answer *a2) {
  astar_result r1, r2;
  int st1 = astar_search_begin(s1, g, q1, &r1);
  int st2 = astar_search_begin(s2, g, q2, &r2);
  while ((st1 == ASTAR_OK && r1.outcome == ASTAR_RUNNING) ||
         (st2 == ASTAR_OK && r2.outcome == ASTAR_RUNNING)) {
    if (st1 == ASTAR_OK && r1.outcome == ASTAR_RUNNING)
      st1 = astar_search_step(s1, g, 7, &r1);
    if (st2 == ASTAR_OK && r2.outcome == ASTAR_RUNNING)
      st2 = astar_search_step(s2, g, 7, &r2);
  }
  take(a1, s1, st1, &r1);
  take(a2, s2, st2, &r2);
}

/* ---- the map's bytes ---- */

static uint64_t fnv(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = (const unsigned char *)p;
  size_t i;
  if (p == NULL) return h * 1099511628211u;
  for (i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211u;
  return h;
}

static uint64_t zones_sum(uint64_t h, const astar_zones *z, uint32_t n) {
  h = fnv(h, &z->cap, sizeof z->cap);
  h = fnv(h, &z->used, sizeof z->used);
  h = fnv(h, &z->count, sizeof z->count);
  h = fnv(h, &z->stale, sizeof z->stale);
  h = fnv(h, z->label, z->label ? (size_t)n * 4 : 0);
  h = fnv(h, z->parent, (size_t)z->used * 4);
  return fnv(h, z->size, (size_t)z->used * 4);
}

static uint64_t map_sum(const astar_grid *g) {
  uint32_t n = g->ntiles;
  size_t words = ((size_t)n + 63) / 64;
  uint64_t h = 1469598103934665603u;
  int k;
  h = fnv(h, g->cost, (size_t)n * 4);
  h = fnv(h, g->moves, n);
  h = fnv(h, g->passable, words * 8);
  h = fnv(h, g->passable_t, g->passable_t ? words * 8 : 0);
  h = fnv(h, g->terrain, g->terrain ? n : 0);
  h = fnv(h, g->heights, g->heights ? (size_t)n * 4 : 0);
  h = fnv(h, &g->min, sizeof g->min);
  h = fnv(h, &g->range, sizeof g->range);
  h = fnv(h, &g->version, sizeof g->version);
  h = zones_sum(h, &g->zones, n);
  for (k = 0; k < ASTAR_MAX_UNITS; k++) {
    const astar_unit *u = g->units[k];
    if (u == NULL) continue;
    h = fnv(h, u->table, sizeof u->table);
    h = fnv(h, &u->stale, sizeof u->stale);
    h = fnv(h, u->cost, u->cost ? (size_t)n * 4 : 0);
    h = fnv(h, u->moves, u->moves ? n : 0);
    h = fnv(h, u->passable, u->passable ? words * 8 : 0);
    h = fnv(h, u->passable_t, u->passable_t ? words * 8 : 0);
    h = fnv(h, &u->min, sizeof u->min);
    h = fnv(h, &u->range, sizeof u->range);
    h = zones_sum(h, &u->zones, n);
  }
  return h;
}

/* ---- callbacks for the batch ---- */

static int tile_fn(void *ud, int32_t x, int32_t y, double cost, double *out) {
  (void)ud;
  *out = (x * 7 + y * 3) % 11 == 0 ? 0.0 : cost * (1.0 + (x + y) % 3);
  return ASTAR_OK;
}

static int move_fn(void *ud, int32_t x1, int32_t y1, int32_t x2, int32_t y2,
                   double cost, double *out) {
  (void)ud;
  (void)x1;
  (void)y1;
  *out = (x2 + y2) % 13 == 0 ? cost * 2.0 : cost;
  return ASTAR_OK;
}

/* ---- MovingAI maps and scenarios ---- */

static char *read_all(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  char *buf;
  long n;
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  buf = malloc((size_t)n + 1);
  if (buf == NULL || fread(buf, 1, (size_t)n, f) != (size_t)n) exit(3);
  buf[n] = 0;
  fclose(f);
  *len = (size_t)n;
  return buf;
}

static int load_map(const char *path, astar_grid *g) {
  size_t len, body;
  char *text = read_all(path, &len);
  astar_parse_error e;
  astar_legend legend;
  int32_t w, h;
  int st;
  if (text == NULL) return 0;
  st = astar_movingai_header(text, len, &w, &h, &body, &e);
  if (st == ASTAR_OK) st = astar_grid_init(g, w, h, test_alloc, NULL);
  astar_movingai_legend(&legend);
  if (st == ASTAR_OK)
    st = astar_grid_load_text(g, text + body, len - body, &legend, &e);
  free(text);
  return st == ASTAR_OK;
}

typedef struct scen {
  int32_t sx, sy, gx, gy;
} scen;

/* Every step-th scenario of the file. */
static size_t read_scen(const char *path, int step, scen **out) {
  size_t len, n = 0, cap = 0, line = 0;
  char *text = read_all(path, &len), *p, *save = NULL;
  scen *v = NULL;
  if (text == NULL) return 0;
  for (p = strtok_r(text, "\n", &save); p != NULL;
       p = strtok_r(NULL, "\n", &save)) {
    int bucket, w, h, sx, sy, gx, gy;
    char name[256];
    double opt;
    if (sscanf(p, "%d %255s %d %d %d %d %d %d %lf", &bucket, name, &w, &h,
               &sx, &sy, &gx, &gy, &opt) != 9)
      continue;
    if (line++ % (size_t)step != 0) continue;
    if (n == cap) {
      cap = cap ? 2 * cap : 64;
      v = realloc(v, cap * sizeof *v);
      if (v == NULL) exit(3);
    }
    v[n].sx = sx;
    v[n].sy = sy;
    v[n].gx = gx;
    v[n].gy = gy;
    n++;
  }
  free(text);
  *out = v;
  return n;
}

static const int family[] = {ASTAR_ALGO_AUTO, ASTAR_ALGO_ASTAR,
                             ASTAR_ALGO_DIJKSTRA, ASTAR_ALGO_BFS,
                             ASTAR_ALGO_GREEDY, ASTAR_ALGO_BEAM};
#define NFAMILY (sizeof family / sizeof family[0])

/* Slices 1, 7, 100 and unlimited against the whole run, every algorithm
 * of the family (AUTO runs JPS), on the sampled scenarios; and pairs of
 * scenarios interleaved on two contexts. */
static void check_map(const char *dir, const char *name) {
  char path[4096], what[600];
  astar_grid g;
  astar_search s1, s2;
  scen *sc = NULL;
  size_t n, i, f;
  int bad_slices = 0, bad_pairs = 0, st;
  static const uint32_t slices[] = {1, 7, 100, 0};
  snprintf(path, sizeof path, "%s/%s", dir, name);
  astar_grid_zero(&g);
  if (!load_map(path, &g)) {
    ok(0, "%s loads", name);
    return;
  }
  snprintf(path, sizeof path, "%s/%s.scen", dir, name);
  n = read_scen(path, 1, &sc);
  if (n > 24) { /* sample 24, spread over the buckets */
    size_t k, step = n / 24;
    for (k = 0; k < 24; k++) sc[k] = sc[k * step];
    n = 24;
  }
  astar_search_init(&s1, test_alloc, NULL);
  astar_search_init(&s2, test_alloc, NULL);
  st = astar_grid_prepare(&g, ASTAR_ALL_UNITS, ASTAR_PREPARE_ZONES);
  ok(st == ASTAR_OK && n > 0, "%s: prepared, scenarios sampled", name);
  for (f = 0; f < NFAMILY; f++) {
    for (i = 0; i < n; i++) {
      astar_query q;
      answer a, b;
      size_t k;
      astar_query_defaults(&q);
      q.sx = sc[i].sx;
      q.sy = sc[i].sy;
      q.gx = sc[i].gx;
      q.gy = sc[i].gy;
      q.algorithm = family[f];
      q.beam_width = 64;
      /* Dijkstra and BFS flood far on the big maps: half the sample */
      if ((family[f] == ASTAR_ALGO_DIJKSTRA || family[f] == ASTAR_ALGO_BFS) &&
          i % 2 == 1)
        continue;
      whole(&s1, &g, &q, &a);
      for (k = 0; k < sizeof slices / sizeof slices[0]; k++) {
        sliced(&s2, &g, &q, slices[k], &b);
        if (!same(&a, &b)) {
          if (bad_slices++ < 3)
            fprintf(stderr, "# %s: algorithm %d scenario %lu slice %u: "
                    "outcome %d/%d cost %.17g/%.17g expanded %u/%u\n",
                    name, family[f], (unsigned long)i, (unsigned)slices[k],
                    a.outcome, b.outcome, a.cost, b.cost, a.expanded,
                    b.expanded);
        }
        drop(&b);
      }
      drop(&a);
    }
  }
  snprintf(what, sizeof what, "%s: slices of 1, 7, 100 and unlimited equal "
           "the whole run (A*, JPS, Dijkstra, BFS, greedy, beam)", name);
  ok(bad_slices == 0, "%s", what);
  for (i = 0; i + 1 < n; i += 2) {
    astar_query q1, q2;
    answer a1, a2, b1, b2;
    astar_query_defaults(&q1);
    q1.sx = sc[i].sx;
    q1.sy = sc[i].sy;
    q1.gx = sc[i].gx;
    q1.gy = sc[i].gy;
    q2 = q1;
    q2.sx = sc[i + 1].sx;
    q2.sy = sc[i + 1].sy;
    q2.gx = sc[i + 1].gx;
    q2.gy = sc[i + 1].gy;
    q1.algorithm = ASTAR_ALGO_ASTAR; /* one A*, one JPS */
    whole(&s1, &g, &q1, &a1);
    whole(&s1, &g, &q2, &a2);
    interleaved(&s1, &s2, &g, &q1, &q2, &b1, &b2);
    if (!same(&a1, &b1) || !same(&a2, &b2)) bad_pairs++;
    drop(&a1);
    drop(&a2);
    drop(&b1);
    drop(&b2);
  }
  snprintf(what, sizeof what, "%s: two contexts interleaved answer as each "
           "alone", name);
  ok(bad_pairs == 0, "%s", what);
  astar_search_release(&s1);
  astar_search_release(&s2);
  astar_grid_release(&g);
  free(sc);
}

/* ---- on a grid of our own ---- */

static void check_untouched(void) {
  astar_grid g;
  astar_search s;
  float table[ASTAR_TERRAINS];
  uint64_t before, after;
  int32_t x, y;
  int a, st, errors = 0, t, runs = 0;
  int32_t goals[4] = {30, 2, 2, 30};
  astar_grid_zero(&g);
  astar_grid_init(&g, 40, 36, test_alloc, NULL);
  astar_search_init(&s, test_alloc, NULL);
  for (y = 0; y < 36; y++)
    for (x = 0; x < 40; x++) {
      if ((x * 13 + y * 7) % 9 == 0) astar_grid_set_blocked(&g, x, y, 1);
      if ((x + 2 * y) % 5 == 0) astar_grid_set_cost(&g, x, y, 3.0f);
    }
  astar_grid_set_blocked(&g, 1, 1, 0);
  astar_grid_set_terrain(&g, 5, 5, 2);
  astar_grid_set_height(&g, 6, 6, 2.5);
  for (t = 0; t < ASTAR_TERRAINS; t++) table[t] = 1.0f;
  table[2] = 0.0f;
  astar_unit_define(&g, 1, table, 0.5, 0.25, HUGE_VAL, HUGE_VAL);
  table[2] = 1.0f;
  table[0] = 2.0f;
  astar_unit_define(&g, 2, table, 0, 0, 1.0, 1.0);
  st = astar_grid_prepare(&g, ASTAR_ALL_UNITS, ASTAR_PREPARE_ZONES);
  ok(st == ASTAR_OK, "%s", "a grid with terrain, heights and units prepares");
  before = map_sum(&g);
  for (a = ASTAR_ALGO_AUTO; a <= ASTAR_ALGO_BIDIR_BFS; a++) {
    int variant;
    for (variant = 0; variant < 8; variant++) {
      astar_query q;
      astar_result r;
      astar_query_defaults(&q);
      q.sx = 1;
      q.sy = 1;
      q.gx = 38;
      q.gy = 34;
      q.algorithm = a;
      q.beam_width = 8;
      q.unit = variant % 3;
      if (variant == 3 && a < ASTAR_ALGO_IDA && a != ASTAR_ALGO_JPS) {
        q.tile_fn = tile_fn;
        q.move_fn = move_fn;
        q.min_cost = 0.5;
      }
      if (variant == 4 && a < ASTAR_ALGO_IDA && a != ASTAR_ALGO_JPS) {
        q.goals = goals;
        q.ngoals = 2;
        q.closest = 1;
        q.max_length = 30;
        q.ties = ASTAR_TIES_RANDOM;
        q.seed = 7;
      }
      if (variant == 5) q.max_nodes = 50;
      if (variant == 6) q.no_zones = 1;
      if (variant == 7 && a < ASTAR_ALGO_IDA && a != ASTAR_ALGO_JPS) {
        q.ties = ASTAR_TIES_STRAIGHT;
        q.leave_blocked_start = 1;
        q.next_to_blocked_goal = 1;
        q.max_cost = 40.0;
      }
      if (a == ASTAR_ALGO_JPS && astar_query_refusal(&g, &q) != 0) continue;
      if (a >= ASTAR_ALGO_IDA && astar_query_refusal(&g, &q) != 0) continue;
      st = astar_find_path(&s, &g, &q, &r);
      runs++;
      if (st != ASTAR_OK) errors++;
    }
  }
  after = map_sum(&g);
  ok(errors == 0 && runs > 40, "%s",
     "a batch of queries (every algorithm, units, heights, options, "
     "callbacks) runs");
  ok(before == after, "%s",
     "after prepare, the batch leaves every byte of the map unchanged");

  /* the edit counter and EPREPARE */
  {
    uint64_t v0 = g.version;
    astar_query q;
    astar_result r;
    astar_grid_set_cost(&g, 3, 3, 2.0f);
    ok(g.version > v0, "%s", "an edit moves the version");
    v0 = g.version;
    astar_grid_fill(&g, 0, 0, 4, 4, 1.0f, 0); /* bulk: zones go stale */
    ok(g.version > v0, "%s", "a bulk edit moves the version");
    astar_query_defaults(&q);
    q.sx = 1;
    q.sy = 1;
    q.gx = 38;
    q.gy = 34;
    st = astar_find_path(&s, &g, &q, &r);
    ok(st == ASTAR_EPREPARE, "%s", "a search on stale zones says EPREPARE");
    before = map_sum(&g);
    st = astar_find_path(&s, &g, &q, &r);
    ok(map_sum(&g) == before, "%s", "... and rebuilds nothing itself");
    st = astar_grid_prepare(&g, 0, ASTAR_PREPARE_ZONES);
    if (st == ASTAR_OK) st = astar_find_path(&s, &g, &q, &r);
    ok(st == ASTAR_OK && r.outcome == ASTAR_FOUND, "%s",
       "after prepare it searches again");
  }

  /* zones read only: the last path survives a zone question */
  {
    astar_query q;
    astar_result r;
    answer before_zones, after_zones;
    uint32_t z, count;
    astar_query_defaults(&q);
    q.sx = 1;
    q.sy = 1;
    q.gx = 38;
    q.gy = 34;
    st = astar_find_path(&s, &g, &q, &r);
    take(&before_zones, &s, st, &r);
    astar_zone_of(&g, 0, 1, 1, &z);
    astar_zone_count(&g, 1, &count);
    take(&after_zones, &s, st, &r);
    ok(before_zones.path != NULL && same(&before_zones, &after_zones) &&
           z != 0 && count > 0,
       "%s", "zone questions leave the last path as it was");
    drop(&before_zones);
    drop(&after_zones);
  }
  astar_search_release(&s);
  astar_grid_release(&g);
}

/* ---- the best path so far (astar_search_partial) ---- */

/* Walks the trail t of s: every step to a neighbour, passable, ending at
 * the start; returns the tiles walked (0 on a bad step). */
static uint32_t walk_trail(const astar_search *s, const astar_grid *g,
                           astar_trail t, uint32_t start) {
  uint32_t n = 1, prev = t.node;
  while (astar_trail_prev(s, &t)) {
    int32_t x1, y1, x2, y2;
    astar_xy(g, prev, &x1, &y1);
    astar_xy(g, t.node, &x2, &y2);
    if (abs(x1 - x2) > 1 || abs(y1 - y2) > 1 || (x1 == x2 && y1 == y2) ||
        astar_grid_is_blocked(g, x2, y2) || n > g->ntiles)
      return 0;
    prev = t.node;
    n++;
  }
  return prev == start ? n : 0;
}

/* A* and JPS in slices of 3 on a walled map, the best path walked after
 * every slice: legal, as long as the result says, and the search ends
 * exactly as an uninterrupted one. */
static void check_partial(void) {
  astar_grid g;
  astar_search s, w;
  astar_query q;
  int32_t x, y;
  int algo, bad = 0, walks = 0, same_end = 1;
  astar_grid_zero(&g);
  astar_grid_init(&g, 48, 40, test_alloc, NULL);
  astar_search_init(&s, test_alloc, NULL);
  astar_search_init(&w, test_alloc, NULL);
  for (y = 0; y < 40; y++)
    for (x = 0; x < 48; x++)
      if ((x % 8 == 4 && y % 12 != 6) || (y == 20 && x > 10 && x < 40))
        astar_grid_set_blocked(&g, x, y, 1);
  astar_grid_prepare(&g, 0, ASTAR_PREPARE_ZONES);
  for (algo = 0; algo < 2; algo++) {
    astar_result r;
    answer a, b;
    astar_result pr;
    astar_trail t;
    int st;
    astar_query_defaults(&q);
    q.sx = 1;
    q.sy = 1;
    q.gx = 46;
    q.gy = 38;
    q.algorithm = algo == 0 ? ASTAR_ALGO_ASTAR : ASTAR_ALGO_JPS;
    st = astar_search_begin(&s, &g, &q, &r);
    if (astar_search_partial(&s, &t, &pr)) bad++; /* nothing expanded */
    while (st == ASTAR_OK && r.outcome == ASTAR_RUNNING) {
      st = astar_search_step(&s, &g, 3, &r);
      if (astar_search_partial(&s, &t, &pr)) {
        uint32_t n = walk_trail(&s, &g, t, astar_index(&g, 1, 1));
        walks++;
        if (n == 0 || n != pr.length) bad++;
      }
    }
    take(&a, &s, st, &r);
    whole(&w, &g, &q, &b);
    if (!same(&a, &b) || a.outcome != ASTAR_FOUND) same_end = 0;
    drop(&a);
    drop(&b);
  }
  ok(bad == 0 && walks > 20, "%s",
     "partial paths of A* and JPS slices walk back to the start legally");
  ok(same_end, "%s", "... and walking them leaves the search's end as is");
  astar_search_release(&s);
  astar_search_release(&w);
  astar_grid_release(&g);
}

/* ---- corners (q.corners) ---- */

/* The tile walk of s's last path, start first, into xy (2 per tile);
 * returns the tiles. */
static uint32_t walk_xy(const astar_search *s, const astar_grid *g,
                        int32_t *xy, uint32_t cap) {
  uint32_t node = astar_path_last(s), n = 0, i;
  do {
    if (n == cap) return 0;
    astar_xy(g, node, &xy[2 * n], &xy[2 * n + 1]);
    n++;
  } while (astar_path_prev(s, &node));
  for (i = 0; i < n / 2; i++) { /* start first */
    int32_t tx = xy[2 * i], ty = xy[2 * i + 1];
    xy[2 * i] = xy[2 * (n - 1 - i)];
    xy[2 * i + 1] = xy[2 * (n - 1 - i) + 1];
    xy[2 * (n - 1 - i)] = tx;
    xy[2 * (n - 1 - i) + 1] = ty;
  }
  return n;
}

/* Do the corners c (nc) expand, by steps of sign(dx), sign(dy), into
 * exactly the tiles t (nt), each corner a turn? */
static int corners_match(const int32_t *c, uint32_t nc, const int32_t *t,
                         uint32_t nt) {
  uint32_t i, k = 0;
  if (nc == 0 || c[0] != t[0] || c[1] != t[1]) return 0;
  for (i = 1; i < nc; i++) {
    int32_t x = c[2 * i - 2], y = c[2 * i - 1];
    int32_t dx = c[2 * i] - x, dy = c[2 * i + 1] - y;
    int32_t sx = (dx > 0) - (dx < 0), sy = (dy > 0) - (dy < 0);
    if ((dx == 0 && dy == 0) || (dx != 0 && dy != 0 && abs(dx) != abs(dy)))
      return 0;
    if (i >= 2) { /* a turn at the corner before */
      int32_t px = c[2 * i - 4], py = c[2 * i - 3];
      int32_t qx = (x > px) - (x < px), qy = (y > py) - (y < py);
      if (qx == sx && qy == sy) return 0;
    }
    while (x != c[2 * i] || y != c[2 * i + 1]) {
      x += sx;
      y += sy;
      k++;
      if (k >= nt || t[2 * k] != x || t[2 * k + 1] != y) return 0;
    }
  }
  return k + 1 == nt;
}

static void check_corners(void) {
  astar_grid g;
  astar_search s;
  astar_query q;
  astar_result r1, r2;
  static int32_t tiles[2 * 4096], corners[2 * 4096];
  int32_t x, y;
  int a, pass, bad = 0, runs = 0, refusal, graph_runs = 0;
  astar_grid_zero(&g);
  astar_grid_init(&g, 48, 40, test_alloc, NULL);
  astar_search_init(&s, test_alloc, NULL);
  for (y = 0; y < 40; y++)
    for (x = 0; x < 48; x++)
      if ((x * 7 + y * 11) % 13 == 0 || (x == 20 && y > 3))
        astar_grid_set_blocked(&g, x, y, 1);
  for (pass = 0; pass < 2; pass++) {
    astar_grid_prepare(&g, ASTAR_ALL_UNITS, ASTAR_PREPARE_ZONES);
    if (pass == 1 && astar_subgoal_build(&g, 0, &refusal) != ASTAR_OK) bad++;
    for (a = ASTAR_ALGO_AUTO; a <= ASTAR_ALGO_BIDIR_BFS; a++) {
      int i;
      if (a == ASTAR_ALGO_IDA) continue; /* too slow on this map */
      for (i = 0; i < 6; i++) {
        uint32_t nt, nc = 0, node;
        astar_query_defaults(&q);
        q.algorithm = a;
        q.sx = (i * 5) % 19;
        q.sy = 1 + (i * 7) % 37;
        q.gx = 47 - (i * 3) % 20;
        q.gy = (i * 11) % 39;
        astar_grid_set_blocked(&g, q.sx, q.sy, 0);
        astar_grid_set_blocked(&g, q.gx, q.gy, 0);
        astar_grid_prepare(&g, ASTAR_ALL_UNITS, ASTAR_PREPARE_ZONES);
        if (pass == 1) astar_subgoal_build(&g, 0, &refusal);
        if (astar_find_path(&s, &g, &q, &r1) != ASTAR_OK) continue;
        if (r1.outcome != ASTAR_FOUND) continue;
        nt = walk_xy(&s, &g, tiles, 4096);
        q.corners = 1;
        if (astar_find_path(&s, &g, &q, &r2) != ASTAR_OK ||
            r2.outcome != ASTAR_FOUND || r2.cost != r1.cost ||
            r2.length != r1.length || r2.algorithm != r1.algorithm) {
          bad++;
          continue;
        }
        node = astar_path_last(&s);
        do nc++; while (astar_path_prev(&s, &node));
        if (nc != r2.corners || walk_xy(&s, &g, corners, 4096) != nc ||
            !corners_match(corners, nc, tiles, nt))
          bad++;
        runs++;
        if (r2.algorithm == ASTAR_ALGO_SUBGOAL) graph_runs++;
      }
    }
  }
  ok(bad == 0 && runs > 40 && graph_runs > 3, "%s",
     "q.corners: the corners expand to the tile path, same cost and length "
     "(every algorithm, with and without a subgoal graph)");
  astar_search_release(&s);
  astar_grid_release(&g);
}

/* astar_subgoal_build_with: the sample queries run in the caller's
 * context (left idle, its memory kept), or in one of their own when it is
 * NULL or busy; all three give the map the same answer. */
static void check_build_with(void) {
  astar_grid g;
  astar_search s;
  astar_query q;
  astar_result r;
  int32_t x, y;
  int refusal, bad = 0, want;
  size_t held;
  astar_grid_zero(&g);
  astar_grid_init(&g, 160, 150, test_alloc, NULL);
  astar_search_init(&s, test_alloc, NULL);
  for (y = 0; y < 150; y++)
    for (x = 0; x < 160; x++) {
      /* a walled serpentine in the corner, its way out at (2, 41) */
      int block = x < 44 && y < 44, wall;
      wall = x == 2 || x == 42 || y == 2 || y == 42 ||
             (y >= 4 && y <= 40 && y % 2 == 0 &&
              (y % 4 == 0 ? x >= 3 && x <= 40 : x >= 4 && x <= 41));
      if (block ? wall && !(x == 2 && y == 41) && x >= 2 && y >= 2 &&
                      x <= 42 && y <= 42
                : (x % 40 == 10 && y % 50 < 20) || (x * 13 + y * 7) % 211 == 0)
        astar_grid_set_blocked(&g, x, y, 1);
    }
  astar_grid_prepare(&g, ASTAR_ALL_UNITS, ASTAR_PREPARE_ZONES);
  if (astar_subgoal_build(&g, 0, &refusal) != ASTAR_OK) bad++;
  want = astar_subgoal_jps_first(&g, 0);
  astar_query_defaults(&q); /* a search before: the context holds it */
  q.sx = 1;
  q.sy = 1;
  q.gx = 150;
  q.gy = 140;
  if (astar_find_path(&s, &g, &q, &r) != ASTAR_OK) bad++;
  if (astar_subgoal_build_with(&g, 0, &refusal, &s) != ASTAR_OK ||
      astar_subgoal_jps_first(&g, 0) != want || s.state != ASTAR_SEARCH_IDLE)
    bad++;
  held = astar_search_memory(&s);
  s.busy = 1; /* in a step: not to be touched */
  if (astar_subgoal_build_with(&g, 0, &refusal, &s) != ASTAR_OK ||
      astar_subgoal_jps_first(&g, 0) != want ||
      astar_search_memory(&s) != held || s.state != ASTAR_SEARCH_IDLE)
    bad++;
  s.busy = 0;
  if (astar_find_path(&s, &g, &q, &r) != ASTAR_OK || r.outcome != ASTAR_FOUND)
    bad++;
  ok(bad == 0 && want == 1, "%s",
     "astar_subgoal_build_with: the same jps_first in the caller's context "
     "(left idle), a busy one's (untouched) or its own");
  { /* short queries in slices: the probe, then maybe the graph, as the
       whole search answers, each slice spending its k */
    static const uint32_t ks[] = {1, 7, 31, 32, 33, 1000};
    astar_search s2;
    astar_result r2;
    int i, seen_jps = 0, seen_graph = 0;
    unsigned k;
    bad = 0;
    astar_search_init(&s2, test_alloc, NULL);
    for (i = 0; i < 200; i++) {
      astar_query_defaults(&q);
      q.sx = (i * 37) % 160;
      q.sy = (i * 53) % 150;
      q.gx = q.sx + (i * 29) % 129 - 64;
      q.gy = q.sy + (i * 17) % 129 - 64;
      if (i % 4 == 0) { /* out of the serpentine, by its long way */
        q.sx = 3 + (i * 7) % 39;
        q.sy = 3;
        q.gx = q.sx + (i * 11) % 5 - 2;
        q.gy = (i / 4) % 2;
      }
      if (q.gx < 0 || q.gx >= 160 || q.gy < 0 || q.gy >= 150 ||
          astar_grid_is_blocked(&g, q.sx, q.sy) ||
          astar_grid_is_blocked(&g, q.gx, q.gy))
        continue;
      if (astar_find_path(&s, &g, &q, &r) != ASTAR_OK) {
        bad++;
        continue;
      }
      seen_jps += r.algorithm == ASTAR_ALGO_JPS;
      seen_graph += r.algorithm == ASTAR_ALGO_SUBGOAL;
      for (k = 0; k < sizeof ks / sizeof ks[0]; k++) {
        uint32_t steps = 0, before = 0;
        if (astar_search_begin(&s2, &g, &q, &r2) != ASTAR_OK) {
          bad++;
          continue;
        }
        while (r2.outcome == ASTAR_RUNNING) {
          if (astar_search_step(&s2, &g, ks[k], &r2) != ASTAR_OK) break;
          if (r2.outcome == ASTAR_RUNNING && r2.expanded - before != ks[k])
            bad++;
          before = r2.expanded;
          steps++;
        }
        if (r2.outcome != r.outcome || r2.cost != r.cost ||
            r2.expanded != r.expanded || r2.generated != r.generated ||
            r2.algorithm != r.algorithm || r2.length != r.length ||
            (r.expanded > 0 && steps != (r.expanded + ks[k] - 1) / ks[k]))
          bad++;
      }
    }
    ok(bad == 0 && seen_jps > 10 && seen_graph > 0, "%s",
       "short queries on a graph: sliced as a whole search (probe, then "
       "the graph), each slice spends its max_nodes");
    astar_search_release(&s2);
  }
  astar_search_release(&s);
  astar_grid_release(&g);
}

/* ---- blocks written whole (pages.c) ---- */

typedef struct ledger {
  void *raw[4];
  size_t size[4];
  int calls, bad_free, fail;
} ledger;

/* An allocator that keeps what it gave, and checks each free against it. */
static void *ledger_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  ledger *l = ud;
  int i;
  l->calls++;
  if (nsize == 0) {
    for (i = 0; i < 4; i++)
      if (l->raw[i] == ptr && ptr != NULL) break;
    if (i == 4 || l->size[i] != osize) {
      l->bad_free++;
      return NULL;
    }
    l->raw[i] = NULL;
    free(ptr);
    return NULL;
  }
  if (ptr != NULL || l->fail) return NULL;
  for (i = 0; i < 4 && l->raw[i] != NULL; i++) {
  }
  if (i == 4 || (ptr = malloc(nsize)) == NULL) return NULL;
  l->raw[i] = ptr;
  l->size[i] = nsize;
  return ptr;
}

static void check_blocks(void) {
  static const size_t sizes[] = {1000, (size_t)3 << 20, ((size_t)2 << 20) + 4};
  ledger l;
  size_t k;
  memset(&l, 0, sizeof l);
  for (k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    size_t bytes = sizes[k];
    unsigned char *p = astar__mem_whole(ledger_alloc, &l, bytes / 4, 4);
    const unsigned char *raw = l.raw[0];
    uintptr_t at = (uintptr_t)p, from = (uintptr_t)raw;
    int inside = p != NULL && raw != NULL && at >= from &&
                 (size_t)(at - from) + bytes / 4 * 4 <= l.size[0];
    ok(inside, "%s: the block lies inside what the allocator gave",
       k == 0 ? "1000 bytes" : k == 1 ? "3 MB" : "2 MB + 4");
    if (inside) memset(p, 0xA5, bytes / 4 * 4); /* all of it writable */
#if defined(__linux__)
    if (bytes >= ((size_t)2 << 20))
      ok(inside && (at & (((uintptr_t)2 << 20) - 1u)) == 0 &&
             at - from >= sizeof(void *),
         "%s: 2 MB-aligned, the allocator's pointer kept below",
         k == 1 ? "3 MB" : "2 MB + 4");
    else
      ok(p == raw && l.size[0] == bytes,
         "%s: asked as it is", "1000 bytes");
#endif
    astar__mem_whole_free(ledger_alloc, &l, p, bytes / 4, 4);
    ok(l.bad_free == 0 && l.raw[0] == NULL,
       "%s: freed with the pointer and size the allocator knows",
       k == 0 ? "1000 bytes" : k == 1 ? "3 MB" : "2 MB + 4");
  }
  l.calls = 0;
  ok(astar__mem_whole(ledger_alloc, &l, SIZE_MAX / 2, 4) == NULL &&
         l.calls == 0,
     "%s: an overflowing size is refused before the allocator", "count");
  l.fail = 1;
  ok(astar__mem_whole(ledger_alloc, &l, (size_t)1 << 20, 4) == NULL &&
         l.calls == 1 && l.raw[0] == NULL,
     "%s: a failed allocation gives NULL", "4 MB");
  astar__mem_whole_free(ledger_alloc, &l, NULL, (size_t)1 << 20, 4);
  ok(l.calls == 1, "%s: freeing NULL calls nothing", "whole_free");
}

/* bits.h and sight.h's runs against reading one bit at a time: every
 * start lo of a 300-tile bitmap (with its word of zeros) and every end up
 * to 150 tiles on, for bitmaps from a fixed generator (none, 1 in 64, 1
 * in 8, 1 in 2 tiles blocked) and for every bitmap with one tile blocked
 * (where a run of 57 to 64 tiles inside one word meets a blocked tile
 * beside it in the same word). */
static void check_rows(void) {
  enum { N = 300 };
  uint64_t bm[6]; /* astar__bitmap_words(300) */
  uint32_t blocked_before[N + 1]; /* blocked tiles among 0 .. t - 1 */
  uint32_t seed = 12345, lo, hi, t, k;
  int bad_from = 0, bad_span = 0, longs = 0;
  ok(astar__bitmap_words(N) == sizeof bm / sizeof bm[0], "%s",
     "a 300-tile bitmap has 5 words and one of zeros");
  for (k = 0; k < 4 + N; k++) {
    static const uint32_t one_in[4] = {0, 64, 8, 2};
    memset(bm, 0, sizeof bm);
    for (t = 0; t < N; t++) {
      int open;
      seed = seed * 1103515245u + 12345u;
      if (k >= 4)
        open = t != k - 4;
      else
        open = one_in[k] == 0 || (seed >> 16) % one_in[k] != 0;
      astar__set_bit(bm, t, open);
    }
    blocked_before[0] = 0;
    for (t = 0; t < N; t++)
      blocked_before[t + 1] = blocked_before[t] + !astar__bit(bm, t);
    for (lo = 0; lo < N; lo++) {
      if (k < 4) {
        uint64_t v = astar__bits_from(bm, lo);
        for (t = 0; t <= ASTAR__SPAN; t++) {
          int want = lo + t < N && astar__bit(bm, lo + t);
          if ((int)((v >> t) & 1u) != want) bad_from++;
        }
      }
      for (hi = lo; hi < N && hi <= lo + 150; hi++) {
        int want = blocked_before[hi + 1] == blocked_before[lo];
        if (astar__span_clear(bm, lo, hi) != want) bad_span++;
        if (want && hi - lo >= ASTAR__SPAN && (lo >> 6) == (hi >> 6))
          longs++;
      }
    }
  }
  ok(bad_from == 0, "%s", "astar__bits_from gives each tile's bit");
  ok(bad_span == 0 && longs > 1000, "%s",
     "astar__span_clear agrees with the bits, long runs in one word too");
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : "../shared/maps";
  DIR *d = opendir(dir);
  char *names[64];
  int n = 0, k;
  check_untouched();
  check_partial();
  check_corners();
  check_build_with();
  check_blocks();
  check_rows();
  if (d == NULL) {
    if (getenv("ASTAR_REQUIRE_MAPS") != NULL) {
      ok(0, "%s: the MovingAI maps are required here", dir);
    } else {
      printf("# %s not found: the map checks are skipped\n", dir);
    }
  } else {
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n < 64) {
      size_t l = strlen(e->d_name);
      if (l > 4 && strcmp(e->d_name + l - 4, ".map") == 0)
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    for (k = 0; k < n; k++) {
      check_map(dir, names[k]);
      free(names[k]);
    }
  }
  printf("1..%d\n", tests);
  printf("# engine: %d passed, %d failed\n", tests - failures, failures);
  return failures != 0;
}

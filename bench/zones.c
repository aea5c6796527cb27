/*
 * Zones benchmark of the astar core, in plain C99 (no Lua).
 *
 *   make build/bench/zones && build/bench/zones [MAPS_DIR]
 *
 * Prints figures, never passes or fails on time (CPU time, best of a few
 * runs):
 *  - full labelling of every map in MAPS_DIR (default ../shared/maps) and of
 *    a 1024x1024 random map (25% walls), in ms and ns per tile;
 *  - an unreachable query on brc202d (its goal walled in) from the starts of
 *    its scenarios, with zones (the early exit) and without (a flood of the
 *    start's region);
 *  - one edit (a wall closed, then opened again) followed by a zone query
 *    on the 1024x1024 map, against a full relabel.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "astar.h"

static void *bench_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  (void)ud;
  (void)osize;
  if (nsize == 0) {
    free(ptr);
    return NULL;
  }
  return realloc(ptr, nsize);
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  char *buf;
  long n;
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  buf = malloc((size_t)n + 1);
  if (buf == NULL || fread(buf, 1, (size_t)n, f) != (size_t)n) exit(2);
  fclose(f);
  *len = (size_t)n;
  return buf;
}

static int load_map(const char *path, astar_grid *g) {
  size_t len, body;
  char *text = read_file(path, &len);
  int32_t w, h;
  astar_parse_error perr;
  astar_legend legend;
  if (text == NULL) return 0;
  memset(&perr, 0, sizeof perr);
  if (astar_movingai_header(text, len, &w, &h, &body, &perr) != ASTAR_OK ||
      astar_grid_init(g, w, h, bench_alloc, NULL) != ASTAR_OK)
    exit(2);
  astar_movingai_legend(&legend);
  if (astar_grid_load_text(g, text + body, len - body, &legend, &perr) !=
      ASTAR_OK)
    exit(2);
  free(text);
  return 1;
}

/* Best time of a full relabel (invalidate + count), in seconds. */
static double time_relabel(astar_grid *g, uint32_t *count) {
  double best = HUGE_VAL;
  int k;
  for (k = 0; k < 7; k++) {
    double t0;
    astar_zones_invalidate(g, 0);
    t0 = now();
    if (astar_grid_prepare(g, 0, ASTAR_PREPARE_ZONES) != ASTAR_OK ||
        astar_zone_count(g, 0, count) != ASTAR_OK)
      exit(2);
    t0 = now() - t0;
    if (t0 < best) best = t0;
  }
  return best;
}

static int compare(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static uint32_t rng_state = 12345;
static uint32_t rnd(void) { /* xorshift32 */
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 17;
  rng_state ^= rng_state << 5;
  return rng_state;
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : "../shared/maps";
  char *names[64], path[4096];
  int n = 0, k;
  DIR *d = opendir(dir);
  astar_grid g;
  uint32_t count;

  printf("labelling (full relabel of the default unit's zones)\n");
  printf("  %-22s %9s %6s %9s %8s\n", "map", "tiles", "zones", "ms",
         "ns/tile");
  if (d != NULL) {
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n < 64) {
      size_t l = strlen(e->d_name);
      if (l > 4 && strcmp(e->d_name + l - 4, ".map") == 0)
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
  }
  qsort(names, (size_t)n, sizeof names[0], compare);
  for (k = 0; k < n; k++) {
    double t;
    double tiles;
    snprintf(path, sizeof path, "%s/%s", dir, names[k]);
    if (!load_map(path, &g)) continue;
    t = time_relabel(&g, &count);
    tiles = (double)g.width * g.height;
    printf("  %-22s %9.0f %6u %9.3f %8.2f\n", names[k], tiles,
           (unsigned)count, t * 1e3, t * 1e9 / tiles);
    astar_grid_release(&g);
  }

  /* 1024 x 1024, 25% walls */
  {
    int32_t x, y, N = 1024;
    double t, te;
    int edits = 20000, i;
    uint32_t z;
    astar_grid_zero(&g);
    if (astar_grid_init(&g, N, N, bench_alloc, NULL) != ASTAR_OK) exit(2);
    for (y = 0; y < N; y++)
      for (x = 0; x < N; x++)
        astar_grid_put(&g, astar_index(&g, x, y), 0.0f, rnd() % 4 != 0);
    astar_grid_refresh(&g);
    t = time_relabel(&g, &count);
    printf("  %-22s %9d %6u %9.3f %8.2f\n", "random 1024x1024 25%", N * N,
           (unsigned)count, t * 1e3, t * 1e9 / ((double)N * N));
    /* edits: close a random open tile, query, open it again, query */
    te = now();
    for (i = 0; i < edits; i++) {
      x = (int32_t)(rnd() % (uint32_t)N);
      y = (int32_t)(rnd() % (uint32_t)N);
      if (astar_grid_is_blocked(&g, x, y)) continue;
      /* prepare is O(1) here: the edits keep the labels */
      astar_grid_set_blocked(&g, x, y, 1);
      astar_grid_prepare(&g, 0, ASTAR_PREPARE_ZONES);
      astar_zone_of(&g, 0, x > 0 ? x - 1 : x + 1, y, &z);
      astar_grid_set_blocked(&g, x, y, 0);
      astar_grid_prepare(&g, 0, ASTAR_PREPARE_ZONES);
      astar_zone_of(&g, 0, x, y, &z);
    }
    te = now() - te;
    printf("\nedit + zone query on random 1024x1024 (%u zones)\n",
           (unsigned)count);
    printf("  one wall closed then opened, each followed by a zone query: "
           "%.2f us per pair (%d pairs)\n", te * 1e6 / edits, edits);
    printf("  full relabel: %.3f ms, i.e. %.0fx one edit pair\n", t * 1e3,
           t / (te / edits));
    astar_grid_prepare(&g, 0, ASTAR_PREPARE_ZONES);
    astar_zone_count(&g, 0, &count);
    printf("  zones after the edits: %u (unchanged: every edit was undone)\n",
           (unsigned)count);
    astar_grid_release(&g);
  }

  /* unreachable queries on brc202d */
  snprintf(path, sizeof path, "%s/brc202d.map", dir);
  astar_grid_zero(&g);
  if (load_map(path, &g)) {
    astar_query q;
    astar_result r;
    astar_search ctx;
    int32_t gx = -1, gy = -1, x, y, dx, dy;
    int queries = 0, rep;
    double t_with = 0, t_without = 0;
    uint64_t exp_with = 0, exp_without = 0;
    /* a passable tile, walled in on all eight sides */
    for (y = 10; y < g.height - 10 && gx < 0; y++)
      for (x = 10; x < g.width - 10 && gx < 0; x++)
        if (!astar_grid_is_blocked(&g, x, y)) gx = x, gy = y;
    for (dy = -1; dy <= 1; dy++)
      for (dx = -1; dx <= 1; dx++)
        if (dx || dy) astar_grid_set_blocked(&g, gx + dx, gy + dy, 1);
    astar_query_defaults(&q);
    q.gx = gx;
    q.gy = gy;
    /* warm up, untimed: zones labelled, the context's scratch made */
    astar_search_init(&ctx, bench_alloc, NULL);
    astar_grid_prepare(&g, 0, ASTAR_PREPARE_ZONES);
    astar_zone_count(&g, 0, &count);
    q.sx = gx > 0 ? 0 : 1;
    q.sy = 0;
    astar_find_path(&ctx, &g, &q, &r);
    for (rep = 0; rep < 2; rep++) {
      for (y = 0; y < g.height; y += 37) {
        for (x = 0; x < g.width; x += 41) {
          double t0;
          if (astar_grid_is_blocked(&g, x, y) || (x == gx && y == gy))
            continue;
          q.sx = x;
          q.sy = y;
          q.no_zones = rep;
          t0 = now();
          astar_find_path(&ctx, &g, &q, &r);
          t0 = now() - t0;
          if (rep == 0) {
            t_with += t0;
            exp_with += r.expanded;
            queries++;
          } else {
            t_without += t0;
            exp_without += r.expanded;
          }
        }
      }
    }
    printf("\nunreachable goal on brc202d (%d starts)\n", queries);
    printf("  with zones:    %10.3f us per query, %8.1f nodes expanded\n",
           t_with * 1e6 / queries, (double)exp_with / queries);
    printf("  without zones: %10.3f us per query, %8.1f nodes expanded\n",
           t_without * 1e6 / queries, (double)exp_without / queries);
    astar_search_release(&ctx);
    astar_grid_release(&g);
  }
  for (k = 0; k < n; k++) free(names[k]);
  return 0;
}

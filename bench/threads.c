/*
 * The worker pool on the C core alone (no Lua): every scenario of one
 * MovingAI map, A* then JPS, as one batch run on the calling thread and
 * on pools of 1, 2 and 4 threads, interleaved in the same process, best
 * of N rounds (wall clock).  What bench/threads.lua shows minus the
 * binding.
 *
 *   build/bench/threads [--repeat N] [map.map]   (default
 *                        ../shared/maps/brc202d.map; its .scen beside it)
 */
#define _POSIX_C_SOURCE 200809L
#include "astar.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void *sys_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  (void)ud;
  (void)osize;
  if (nsize == 0) {
    free(ptr);
    return NULL;
  }
  return realloc(ptr, nsize);
}

static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  char *s;
  long n;
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  s = (char *)malloc((size_t)n + 1);
  if (s == NULL || fread(s, 1, (size_t)n, f) != (size_t)n) exit(3);
  s[n] = '\0';
  fclose(f);
  *len = (size_t)n;
  return s;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  const char *map = "../shared/maps/brc202d.map";
  char scen_path[1024], line[1024];
  int rounds = 3, i, a, r, k;
  size_t len, body;
  char *text;
  astar_grid g;
  astar_legend legend;
  astar_parse_error e;
  int32_t w, h, *coords = NULL;
  uint32_t n = 0, cap = 0;
  FILE *f;
  astar_snapshot *snap;
  astar_search ctx;
  astar_workers *pools[3];
  const int sizes[3] = {1, 2, 4};
  static const char *const names[2] = {"astar", "jps"};
  for (i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc)
      rounds = atoi(argv[++i]);
    else
      map = argv[i];
  }
  text = read_file(map, &len);
  if (text == NULL ||
      astar_movingai_header(text, len, &w, &h, &body, &e) != ASTAR_OK ||
      astar_grid_init(&g, w, h, sys_alloc, NULL) != ASTAR_OK) {
    fprintf(stderr, "threads: cannot read %s\n", map);
    return 2;
  }
  astar_movingai_legend(&legend);
  if (astar_grid_load_text(&g, text + body, len - body, &legend, &e) !=
      ASTAR_OK)
    return 2;
  free(text);
  snprintf(scen_path, sizeof scen_path, "%s.scen", map);
  f = fopen(scen_path, "r");
  if (f == NULL) return 2;
  while (fgets(line, sizeof line, f) != NULL) {
    int b, mw, mh, sx, sy, gx, gy;
    char mname[512];
    double opt;
    if (sscanf(line, "%d %511s %d %d %d %d %d %d %lf", &b, mname, &mw, &mh,
               &sx, &sy, &gx, &gy, &opt) != 9)
      continue;
    if (n == cap) {
      cap = cap ? cap * 2 : 1024;
      coords = (int32_t *)realloc(coords, (size_t)cap * 4 * sizeof(int32_t));
      if (coords == NULL) return 3;
    }
    coords[4 * n] = sx;
    coords[4 * n + 1] = sy;
    coords[4 * n + 2] = gx;
    coords[4 * n + 3] = gy;
    n++;
  }
  fclose(f);
  if (astar_snapshot_new(&snap, &g, NULL, 0, NULL, 0, sys_alloc, NULL) !=
      ASTAR_OK)
    return 3;
  astar_search_init(&ctx, sys_alloc, NULL);
  for (k = 0; k < 3; k++)
    if (astar_workers_new(&pools[k], sizes[k], sys_alloc, NULL) != ASTAR_OK)
      return 3;
  printf("%s: %u scenarios, %d cores online, best of %d rounds (C core, "
         "wall clock)\n", map, (unsigned)n, astar_cpu_count(), rounds);
  for (a = 0; a < 2; a++) {
    double best[4] = {1e30, 1e30, 1e30, 1e30};
    astar_query q;
    astar_query_defaults(&q);
    q.algorithm = a == 0 ? ASTAR_ALGO_ASTAR : ASTAR_ALGO_JPS;
    for (r = 0; r < rounds; r++) {
      for (k = -1; k < 3; k++) {
        astar_batch *b;
        double t0;
        if (astar_batch_new(&b, astar_snapshot_grid(snap), &q, n, sys_alloc,
                            NULL) != ASTAR_OK)
          return 3;
        memcpy(astar_batch_coords(b), coords, (size_t)n * 4 * sizeof(int32_t));
        t0 = now();
        if (k < 0) {
          astar_batch_run(b, &ctx);
        } else {
          astar_workers_submit(pools[k], b);
          astar_workers_wait(pools[k], b);
        }
        t0 = now() - t0;
        if (t0 < best[k + 1]) best[k + 1] = t0;
        if (astar_batch_status(b, NULL) != ASTAR_OK) return 4;
        astar_batch_free(b);
      }
    }
    printf("%-6s %-10s %10s %12s %8s\n", names[a], "", "ms all", "queries/s",
           "speed-up");
    for (k = 0; k < 4; k++) {
      char label[32];
      if (k == 0)
        snprintf(label, sizeof label, "1 thread");
      else
        snprintf(label, sizeof label, "pool %d", sizes[k - 1]);
      printf("       %-10s %10.1f %12.0f %7.2fx\n", label, best[k] * 1e3,
             (double)n / best[k], best[0] / best[k]);
    }
  }
  for (k = 0; k < 3; k++) astar_workers_free(pools[k]);
  astar_search_release(&ctx);
  if (astar_snapshot_release(snap)) astar_snapshot_free(snap);
  astar_grid_release(&g);
  free(coords);
  return 0;
}

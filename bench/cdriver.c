/*
 * MovingAI scenario benchmark of the astar core, in plain C99 (no Lua).
 *
 *   make build/bench/cdriver
 *   build/bench/cdriver [options] FILE.map.scen|DIR ...
 *
 * The same options, checks and output as bench/scen.lua, so the two can be
 * compared line by line: the difference is what the Lua binding costs.
 *   --algorithm LIST   searches to run, comma-separated: astar, jps, auto
 *                      (default astar); each file runs under each in turn
 *   --every N          run every Nth scenario of each file (1st, N+1th, ...)
 *   --repeat N         time each file's loop N times and report the fastest
 *   --wall             time with CLOCK_MONOTONIC (wall time) instead of
 *                      CLOCK_PROCESS_CPUTIME_ID (CPU time, the default)
 * The default clock is CPU time because scen.lua's os.clock() is CPU time:
 * on a busy machine wall time also counts the time the process waited for a
 * CPU, and the two drivers' figures would no longer compare.
 * Exit status: 0 all costs match, 1 some cost mismatched, 2 usage or load
 * error.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "astar.h"

static const char usage_text[] =
    "usage: cdriver [--algorithm LIST] [--every N] [--repeat N] [--wall] "
    "FILE.map.scen|DIR ...\n"
    "  --algorithm LIST  comma-separated: astar (default), jps, auto,\n"
    "                    jps_classic, subgoal, jps_plus, astar_heap,\n"
    "                    subgoal_corners, jps_plus_corners (q.corners: the\n"
    "                    path walk gives only the path's turns)\n"
    "  --every N         run every Nth scenario of each file (default 1: all)\n"
    "  --repeat N        time each file N times, report the fastest "
    "(default 1)\n"
    "  --wall            time with CLOCK_MONOTONIC instead of CPU time\n";

static void die(const char *fmt_text, const char *a, const char *b) {
  fputs("cdriver: ", stderr);
  fprintf(stderr, fmt_text, a, b);
  fputc('\n', stderr);
  exit(2);
}

static void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (q == NULL) die("out of memory%s%s", "", "");
  return q;
}

/* ---- allocator given to the core: realloc/free, counting bytes held ---- */

static size_t alloc_held;

static void *bench_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  void *q;
  (void)ud;
  if (ptr == NULL) osize = 0; /* lua_Alloc: osize is a type tag then */
  if (nsize == 0) {
    free(ptr);
    alloc_held -= osize;
    return NULL;
  }
  q = realloc(ptr, nsize);
  if (q != NULL) alloc_held = alloc_held - osize + nsize;
  return q;
}

/* ---- files ---- */

static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  char *buf = NULL;
  size_t n = 0, cap = 0;
  if (f == NULL) die("%s: %s", path, strerror(errno));
  for (;;) {
    size_t got;
    if (cap - n < 65536) {
      cap = cap ? cap * 2 : 65536 * 4;
      buf = xrealloc(buf, cap + 1);
    }
    got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0) break;
  }
  if (ferror(f)) die("%s: %s", path, "read error");
  fclose(f);
  buf[n] = '\0';
  *len = n;
  return buf;
}

static int is_directory(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int compare_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *join_path(const char *dir, const char *name) {
  size_t n = strlen(dir), m = strlen(name);
  int slash = n > 0 && dir[n - 1] != '/';
  char *s = xrealloc(NULL, n + (size_t)slash + m + 1);
  memcpy(s, dir, n);
  if (slash) s[n] = '/';
  memcpy(s + n + (size_t)slash, name, m + 1);
  return s;
}

/* Appends every *.map.scen of dir, sorted by name. */
static void list_dir(const char *dir, char ***files, size_t *nfiles) {
  DIR *d = opendir(dir);
  struct dirent *ent;
  char **names = NULL;
  size_t n = 0, i;
  if (d == NULL) die("%s: %s", dir, strerror(errno));
  while ((ent = readdir(d)) != NULL) {
    if (!ends_with(ent->d_name, ".map.scen")) continue;
    names = xrealloc(names, (n + 1) * sizeof *names);
    names[n++] = join_path(dir, ent->d_name);
  }
  closedir(d);
  if (n == 0) die("no *.map.scen file in %s%s", dir, "");
  qsort(names, n, sizeof *names, compare_names);
  *files = xrealloc(*files, (*nfiles + n) * sizeof **files);
  for (i = 0; i < n; i++) (*files)[(*nfiles)++] = names[i];
  free(names);
}

/* ---- scenarios ---- */

typedef struct scen {
  int32_t width, height, sx, sy, gx, gy; /* 0-based, as in the file */
  long line;
  double length, tol;
  char length_text[40];
} scen;

typedef struct scen_file {
  scen *v;
  size_t n;
  char *first_map; /* map field of the first problem */
} scen_file;

static int parse_uint(const char *s, int32_t *out) {
  long v = 0;
  if (*s == '\0') return 0;
  for (; *s; s++) {
    if (*s < '0' || *s > '9') return 0;
    v = v * 10 + (*s - '0');
    if (v > INT32_MAX) return 0;
  }
  *out = (int32_t)v;
  return 1;
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* digits [. digits] [e [+-] digits], with at least one mantissa digit */
static int is_length_text(const char *s) {
  int digits = 0;
  while (is_digit(*s)) { s++; digits++; }
  if (*s == '.') {
    s++;
    while (is_digit(*s)) { s++; digits++; }
  }
  if (digits == 0) return 0;
  if (*s == 'e' || *s == 'E') {
    s++;
    if (*s == '+' || *s == '-') s++;
    if (!is_digit(*s)) return 0;
    while (is_digit(*s)) s++;
  }
  return *s == '\0';
}

/* Absolute tolerance for a printed optimal length: half a unit in the last
 * printed digit plus 1e-6 * length.  A number printed without a decimal
 * point with fewer than 6 digits comes from %g (6 significant digits), so
 * "12" -> 0.5e-4 + 12e-6.  Same rule as movingai.tolerance in Lua (which
 * says why it is a sum). */
static double tolerance(const char *s) {
  const char *p = s;
  int int_digits = 0, frac_digits = 0, has_point = 0, decimals;
  long expo = 0;
  double half_unit;
  while (is_digit(*p)) { p++; int_digits++; }
  if (*p == '.') {
    has_point = 1;
    p++;
    while (is_digit(*p)) { p++; frac_digits++; }
  }
  if (*p == 'e' || *p == 'E') expo = strtol(p + 1, NULL, 10);
  if (has_point) decimals = frac_digits;
  else decimals = int_digits < 6 ? 6 - int_digits : 0;
  half_unit = 0.5 * pow(10.0, (double)(expo - decimals));
  return half_unit + 1e-6 * fabs(strtod(s, NULL));
}

static void scen_fail(const char *path, long line, const char *what) {
  fprintf(stderr, "cdriver: %s:%ld: %s\n", path, line, what);
  exit(2);
}

static scen_file read_scen(const char *path) {
  size_t len, cap = 0;
  char *text = read_file(path, &len);
  char *p = text, *end = text + len;
  long line = 0;
  int seen_version = 0;
  scen_file sf;
  sf.v = NULL;
  sf.n = 0;
  sf.first_map = NULL;
  while (p < end) {
    char *nl = memchr(p, '\n', (size_t)(end - p));
    char *eol = nl ? nl : end;
    char *fields[10];
    int nf = 0;
    line++;
    if (eol > p && eol[-1] == '\r') eol[-1] = '\0';
    *eol = '\0'; /* text has a spare byte at end */
    {
      char *q = p;
      for (;;) {
        while (*q == ' ' || *q == '\t' || *q == '\v' || *q == '\f') q++;
        if (*q == '\0') break;
        if (nf < 10) fields[nf] = q;
        nf++;
        while (*q && *q != ' ' && *q != '\t' && *q != '\v' && *q != '\f') q++;
        if (*q) *q++ = '\0';
      }
    }
    if (!seen_version) {
      if (nf != 2 || strcmp(fields[0], "version") != 0)
        scen_fail(path, line, "expected 'version ...' as the first line");
      seen_version = 1;
    } else if (nf > 0) {
      scen s;
      int32_t bucket;
      if (nf != 9) scen_fail(path, line, "expected 9 fields");
      if (!parse_uint(fields[0], &bucket) || !parse_uint(fields[2], &s.width) ||
          !parse_uint(fields[3], &s.height) || !parse_uint(fields[4], &s.sx) ||
          !parse_uint(fields[5], &s.sy) || !parse_uint(fields[6], &s.gx) ||
          !parse_uint(fields[7], &s.gy))
        scen_fail(path, line, "a field is not a non-negative integer");
      if (!is_length_text(fields[8]) ||
          strlen(fields[8]) >= sizeof s.length_text)
        scen_fail(path, line, "optimal length is not a number");
      if (s.width < 1 || s.height < 1 || s.sx >= s.width ||
          s.gx >= s.width || s.sy >= s.height || s.gy >= s.height)
        scen_fail(path, line, "start or goal outside the map");
      strcpy(s.length_text, fields[8]);
      s.length = strtod(fields[8], NULL);
      s.tol = tolerance(fields[8]);
      s.line = line;
      if (sf.n == 0) {
        size_t m = strlen(fields[1]);
        sf.first_map = xrealloc(NULL, m + 1);
        memcpy(sf.first_map, fields[1], m + 1);
      }
      if (sf.n == cap) {
        cap = cap ? cap * 2 : 1024;
        sf.v = xrealloc(sf.v, cap * sizeof *sf.v);
      }
      sf.v[sf.n++] = s;
    }
    p = nl ? nl + 1 : end;
  }
  if (!seen_version) scen_fail(path, 1, "empty file (expected 'version ...')");
  if (sf.n == 0) scen_fail(path, line, "no scenarios");
  free(text);
  return sf;
}

/* X.map for X.map.scen; else the base name of the map field, beside the
 * scenario file. */
static char *map_path_for(const char *scen_path, const char *map_field) {
  size_t n = strlen(scen_path);
  const char *base, *slash;
  char *s;
  if (ends_with(scen_path, ".map.scen")) {
    s = xrealloc(NULL, n - 5 + 1);
    memcpy(s, scen_path, n - 5);
    s[n - 5] = '\0';
    return s;
  }
  base = strrchr(map_field, '/');
  base = base ? base + 1 : map_field;
  slash = strrchr(scen_path, '/');
  n = slash ? (size_t)(slash - scen_path) + 1 : 0;
  s = xrealloc(NULL, n + strlen(base) + 1);
  memcpy(s, scen_path, n);
  strcpy(s + n, base);
  return s;
}

/* ---- map ---- */

static void load_map(const char *path, astar_grid *g) {
  size_t len, body;
  char *text = read_file(path, &len);
  int32_t w, h;
  astar_parse_error perr;
  astar_legend legend;
  int rc;
  memset(&perr, 0, sizeof perr);
  rc = astar_movingai_header(text, len, &w, &h, &body, &perr);
  if (rc != ASTAR_OK) {
    fprintf(stderr, "cdriver: %s:%ld:%ld: %s\n", path, (long)perr.line,
            (long)perr.column, astar_parse_error_text(perr.code));
    exit(2);
  }
  astar_grid_zero(g);
  rc = astar_grid_init(g, w, h, bench_alloc, NULL);
  if (rc != ASTAR_OK) {
    fprintf(stderr, "cdriver: %s: astar_grid_init failed (%d)\n", path, rc);
    exit(2);
  }
  rc = astar_grid_set_movement(g, ASTAR_DIAG_BOTH_FREE, 1.0, sqrt(2.0));
  if (rc != ASTAR_OK) {
    fprintf(stderr, "cdriver: astar_grid_set_movement failed (%d)\n", rc);
    exit(2);
  }
  astar_movingai_legend(&legend);
  memset(&perr, 0, sizeof perr);
  rc = astar_grid_load_text(g, text + body, len - body, &legend, &perr);
  if (rc != ASTAR_OK) {
    fprintf(stderr, "cdriver: %s: map rows: line %ld column %ld: %s\n", path,
            (long)perr.line, (long)perr.column,
            astar_parse_error_text(perr.code));
    exit(2);
  }
  free(text);
}

/* ---- benchmark ---- */

static clockid_t bench_clock = CLOCK_PROCESS_CPUTIME_ID;

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(bench_clock, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static long count_arg(const char *name, const char *value) {
  char *end;
  long n;
  if (value == NULL) die("%s needs a positive integer%s", name, "");
  errno = 0;
  n = strtol(value, &end, 10);
  if (*value == '\0' || *end != '\0' || n < 1 || errno != 0)
    die("%s needs a positive integer, got %s", name, value);
  return n;
}

/* ---- algorithms ---- */

/* 0-2: ASTAR_ALGO_*; jps_classic: JPS without the 2014 pruning (as it
   ran before); subgoal: auto on the grid after astar_subgoal_build;
   jps_plus: auto after astar_jumps_build; astar_heap: A* with the binary
   heap (ASTAR_OPEN_HEAP) instead of the bucket queue; *_corners: the
   same with q.corners (the walk gives the path's turns only) */
static const char *const algo_names[] = {"auto", "astar", "jps",
                                         "jps_classic", "subgoal",
                                         "jps_plus", "astar_heap",
                                         "subgoal_corners",
                                         "jps_plus_corners"};
#define NAMES 9
#define SUBGOAL_CORNERS 7
#define JPS_PLUS_CORNERS 8
#define JPS_CLASSIC 3
#define SUBGOAL 4
#define JPS_PLUS 5
#define ASTAR_HEAP 6
#define MAX_ALGOS 8

/* Parses "astar,jps" into ASTAR_ALGO_* codes; returns how many. */
static int parse_algorithms(const char *list, int *out) {
  int n = 0;
  const char *p = list;
  for (;;) {
    size_t len = strcspn(p, ",");
    int a, found = -1;
    for (a = 0; a < NAMES; a++)
      if (strlen(algo_names[a]) == len && strncmp(p, algo_names[a], len) == 0)
        found = a;
    if (found < 0 || n == MAX_ALGOS)
      die("unknown algorithm '%s' (known: %s)", list, "astar, jps, auto, jps_classic, subgoal, jps_plus, astar_heap, subgoal_corners, jps_plus_corners");
    out[n++] = found;
    if (p[len] == '\0') break;
    p += len + 1;
  }
  return n;
}

static const char *base_name(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

int main(int argc, char **argv) {
  const char *algorithm = "astar";
  int algos[MAX_ALGOS], nalgos = 1;
  long every = 1, repeats = 1;
  char **files = NULL;
  size_t nfiles = 0, f;
  int32_t *pathbuf = NULL;
  size_t pathcap = 0;
  unsigned long total_queries[MAX_ALGOS] = {0},
                total_mismatches[MAX_ALGOS] = {0}, all_mismatches = 0;
  double total_time[MAX_ALGOS] = {0};
  int i;

  for (i = 1; i < argc; i++) {
    const char *a = argv[i], *val = NULL;
    char opt[32];
    const char *eq = strchr(a, '=');
    if (a[0] == '-' && a[1] == '-' && eq && (size_t)(eq - a) < sizeof opt) {
      memcpy(opt, a, (size_t)(eq - a));
      opt[eq - a] = '\0';
      val = eq + 1;
    } else {
      strncpy(opt, a, sizeof opt - 1);
      opt[sizeof opt - 1] = '\0';
    }
    if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
      fputs(usage_text, stdout);
      return 0;
    } else if (strcmp(opt, "--algorithm") == 0) {
      algorithm = val ? val : (i + 1 < argc ? argv[++i] : NULL);
      if (algorithm == NULL) die("--algorithm needs a name%s%s", "", "");
    } else if (strcmp(opt, "--every") == 0) {
      every = count_arg("--every", val ? val : (i + 1 < argc ? argv[++i] : NULL));
    } else if (strcmp(opt, "--repeat") == 0) {
      repeats = count_arg("--repeat", val ? val : (i + 1 < argc ? argv[++i] : NULL));
    } else if (strcmp(opt, "--wall") == 0) {
      bench_clock = CLOCK_MONOTONIC;
    } else if (a[0] == '-' && a[1] != '\0') {
      die("unknown option '%s'\n%s", a, usage_text);
    } else if (is_directory(a)) {
      list_dir(a, &files, &nfiles);
    } else {
      files = xrealloc(files, (nfiles + 1) * sizeof *files);
      files[nfiles] = xrealloc(NULL, strlen(a) + 1);
      strcpy(files[nfiles++], a);
    }
  }
  if (nfiles == 0)
    die("no scenario file or directory given\n%s%s", usage_text, "");
  nalgos = parse_algorithms(algorithm, algos);

#ifdef __VERSION__
  printf("# runtime: C driver (no Lua), compiler %s; astar %s\n", __VERSION__,
         ASTAR_VERSION);
#else
  printf("# runtime: C driver (no Lua); astar %s\n", ASTAR_VERSION);
#endif
  printf("# algorithm=%s every=%ld repeat=%ld clock=%s\n", algorithm, every,
         repeats, bench_clock == CLOCK_MONOTONIC ? "wall" : "cpu");
  fflush(stdout);

  for (f = 0; f < nfiles; f++) {
    const char *path = files[f];
    scen_file sf = read_scen(path);
    char *map_path = map_path_for(path, sf.first_map);
    astar_grid grid;
    astar_search ctx;
    astar_query q;
    astar_result r;
    double *costs;
    size_t k, n = 0, *sel;
    long rep;
    int ai;
    double tiles;
    size_t mem;

    load_map(map_path, &grid);
    astar_search_init(&ctx, bench_alloc, NULL);
    /* the map's derived data (layers, zones, JPS columns), made once */
    if (astar_grid_prepare(&grid, 0, ASTAR_PREPARE_ZONES) != ASTAR_OK) {
      fprintf(stderr, "cdriver: %s: astar_grid_prepare failed\n", map_path);
      return 2;
    }
    sel = xrealloc(NULL, sf.n * sizeof *sel);
    costs = xrealloc(NULL, sf.n * sizeof *costs);
    for (k = 0; k < sf.n; k += (size_t)every) {
      const scen *s = &sf.v[k];
      if (s->width != grid.width || s->height != grid.height) {
        fprintf(stderr,
                "cdriver: %s:%ld: scenario is for a %ldx%ld map, %s is "
                "%ldx%ld (scaling is not supported)\n",
                path, s->line, (long)s->width, (long)s->height, map_path,
                (long)grid.width, (long)grid.height);
        return 2;
      }
      sel[n++] = k;
    }

    for (ai = 0; ai < nalgos; ai++) {
      double best = HUGE_VAL;
      unsigned long mismatches = 0;
      uint64_t expanded = 0;
      int ran;
      astar_query_defaults(&q);
      q.algorithm = algos[ai];
      if (algos[ai] == JPS_CLASSIC) {
        q.algorithm = ASTAR_ALGO_JPS;
        q.jps_classic = 1;
      } else if (algos[ai] == ASTAR_HEAP) {
        q.algorithm = ASTAR_ALGO_ASTAR;
        q.open_list = ASTAR_OPEN_HEAP;
      } else if (algos[ai] == SUBGOAL || algos[ai] == JPS_PLUS ||
                 algos[ai] == SUBGOAL_CORNERS ||
                 algos[ai] == JPS_PLUS_CORNERS) {
        int refusal = 0;
        q.algorithm = ASTAR_ALGO_AUTO;
        q.corners = algos[ai] == SUBGOAL_CORNERS ||
                    algos[ai] == JPS_PLUS_CORNERS;
        if (astar_grid_prepare(&grid, 0, ASTAR_PREPARE_ZONES) != ASTAR_OK ||
            (algos[ai] == SUBGOAL || algos[ai] == SUBGOAL_CORNERS
                 ? astar_subgoal_build(&grid, 0, &refusal)
                 : astar_jumps_build(&grid, 0, &refusal)) != ASTAR_OK) {
          fprintf(stderr, "cdriver: %s: no subgoal graph (refusal %d)\n",
                  path, refusal);
          return 2;
        }
      } else {
        astar_subgoal_drop(&grid, -1);
      }
      /* One untimed query first: the context allocates its scratch on its
         first search, a one-off cost that is not a query's (as in scen.lua). */
      q.sx = sf.v[sel[0]].sx;
      q.sy = sf.v[sel[0]].sy;
      q.gx = sf.v[sel[0]].gx;
      q.gy = sf.v[sel[0]].gy;
      if (astar_find_path(&ctx, &grid, &q, &r) != ASTAR_OK) {
        fprintf(stderr, "cdriver: %s: astar_find_path failed (refusal %d)\n",
                path, astar_query_refusal(&grid, &q));
        return 2;
      }
      ran = algos[ai];
      for (rep = 0; rep < repeats; rep++) {
        uint64_t exp_sum = 0;
        double t0, t;
        t0 = now_seconds();
        for (k = 0; k < n; k++) {
          const scen *s = &sf.v[sel[k]];
          int rc;
          q.sx = s->sx;
          q.sy = s->sy;
          q.gx = s->gx;
          q.gy = s->gy;
          rc = astar_find_path(&ctx, &grid, &q, &r);
          if (rc != ASTAR_OK) {
            fprintf(stderr, "cdriver: %s:%ld: astar_find_path failed (%d)\n",
                    path, s->line, rc);
            return 2;
          }
          exp_sum += r.expanded;
          costs[k] = -1.0; /* no path */
          if (r.outcome == ASTAR_FOUND) {
            /* Walk the path back from the goal into a flat x, y array, start
               first, as the binding does for its table. */
            uint32_t node = astar_path_last(&ctx);
            uint32_t len = r.corners != 0 ? r.corners : r.length;
            size_t m = (size_t)len;
            int ok = 1;
            if (2 * m > pathcap) {
              pathcap = 2 * m + 1024;
              pathbuf = xrealloc(pathbuf, pathcap * sizeof *pathbuf);
            }
            for (;;) {
              int32_t x, y;
              if (m == 0) { ok = 0; break; }
              m--;
              astar_xy(&grid, node, &x, &y);
              pathbuf[2 * m] = x;
              pathbuf[2 * m + 1] = y;
              if (!astar_path_prev(&ctx, &node)) break;
            }
            if (ok && m == 0 && len > 0 && pathbuf[0] == s->sx &&
                pathbuf[1] == s->sy && pathbuf[2 * len - 2] == s->gx &&
                pathbuf[2 * len - 1] == s->gy)
              costs[k] = r.cost;
            else
              costs[k] = -2.0; /* path walk disagrees with the result */
          }
        }
        t = now_seconds() - t0;
        if (t < best) best = t;
        expanded = exp_sum;
      }

      for (k = 0; k < n; k++) {
        const scen *s = &sf.v[sel[k]];
        double c = costs[k];
        if (c < 0 || fabs(c - s->length) > s->tol) {
          mismatches++;
          if (mismatches <= 5) {
            char got[64];
            if (c == -1.0) strcpy(got, "no path");
            else if (c == -2.0) strcpy(got, "a path that does not walk back from goal to start");
            else sprintf(got, "%.8f", c);
            fprintf(stderr,
                    "MISMATCH %s #%lu (%ld,%ld)->(%ld,%ld): expected %s, got "
                    "%s\n",
                    base_name(path), (unsigned long)sel[k] + 1,
                    (long)s->sx + 1, (long)s->sy + 1, (long)s->gx + 1,
                    (long)s->gy + 1, s->length_text, got);
          }
        }
      }

      tiles = (double)grid.width * (double)grid.height;
      mem = astar_grid_memory(&grid) + astar_search_memory(&ctx);
      if (mem != alloc_held)
        fprintf(stderr,
                "cdriver: note: %s: the grid and its context say %lu bytes, "
                "the allocator holds %lu\n",
                base_name(map_path), (unsigned long)mem,
                (unsigned long)alloc_held);
      printf("%-24s algorithm=%-5s queries=%-6lu mismatches=%-3lu mean_us=%-9.3f "
             "expanded=%-9.1f nodes_per_s=%-10.0f bytes_per_tile=%.2f\n",
             base_name(path), algo_names[ran], (unsigned long)n, mismatches,
             n ? best / (double)n * 1e6 : 0.0,
             n ? (double)expanded / (double)n : 0.0,
             best > 0 ? (double)expanded / best : 0.0, (double)mem / tiles);
      fflush(stdout);
      total_queries[ai] += (unsigned long)n;
      total_mismatches[ai] += mismatches;
      total_time[ai] += best;

    }

    astar_search_release(&ctx);
    astar_grid_release(&grid);
    free(sel);
    free(costs);
    free(map_path);
    free(sf.v);
    free(sf.first_map);
  }

  for (i = 0; i < nalgos; i++) {
    printf("TOTAL algorithm=%s queries=%lu mismatches=%lu mean_us=%.3f\n",
           algo_names[algos[i]], total_queries[i], total_mismatches[i],
           total_queries[i]
               ? total_time[i] / (double)total_queries[i] * 1e6 : 0.0);
    all_mismatches += total_mismatches[i];
  }
  for (f = 0; f < nfiles; f++) free(files[f]);
  free(files);
  free(pathbuf);
  return all_mismatches > 0 ? 1 : 0;
}

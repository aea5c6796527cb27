/*
 * Out-of-memory host: runs spec/c/oom_script.lua in a fresh Lua 5.4 state
 * whose allocator fails at the N-th allocation counted from the moment the
 * script starts, for N = 1, 2, 3, ... until the script runs to its end
 * without ever reaching allocation N.
 *
 * For every N where the script stops on an error, the error must be a Lua
 * error whose message contains "not enough memory" (the script itself
 * raises "OOM-CHECK FAILED: ..." when an object made before the failure no
 * longer works after it).  After lua_close, every byte the allocator handed
 * out must be back: a leak through Lua's allocator (the module allocates
 * its grids there) is a violation.  No crash, of course: a crash ends the
 * program, and make reports it.
 *
 * Two modes: "once" fails only the N-th allocation (later ones succeed, so
 * the script can check recovery); "from" fails the N-th and every later
 * one.  Lua 5.4 retries a failed allocation of its own after an emergency
 * collection, so in "once" mode most failures inside Lua itself are
 * absorbed and the script completes anyway; the failures that surface are
 * the module's (it allocates through the raw allocator, with no retry).
 *
 * Every block carries a small header with its size, so the host also
 * checks that each realloc/free passes the right old size (lua_Alloc's
 * contract; the core passes it when it frees its arrays).
 *
 *   oom_host [--mode once|from|both] [--cpath PATTERN] [--script FILE]
 *            [--max N] [--verbose]
 *
 * Run from the repository root.  Exit status 0 when every N was fine.
 */
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Header in front of every block: the requested size, padded so what
 * follows keeps malloc's alignment (C99 has no max_align_t). */
typedef union header {
  size_t size;
  long double ld;
  long long ll;
  void *p;
} header;

typedef struct alloc_state {
  size_t outstanding; /* bytes handed out and not freed */
  size_t blocks;      /* blocks handed out and not freed */
  unsigned long count; /* allocations (growing requests) since armed */
  unsigned long fail_at; /* 0: never fail */
  int fail_from;       /* 1: fail every allocation from fail_at on */
  int armed;
  unsigned long failed;     /* allocations refused */
  unsigned long bad_osize;  /* realloc/free with a wrong old size */
} alloc_state;

static void *test_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  alloc_state *st = (alloc_state *)ud;
  header *h = ptr != NULL ? (header *)ptr - 1 : NULL;
  size_t old = 0;
  if (h != NULL) {
    old = h->size;
    if (osize != old) st->bad_osize++;
  }
  if (nsize == 0) {
    if (h != NULL) {
      st->outstanding -= old;
      st->blocks--;
      free(h);
    }
    return NULL;
  }
  /* Only requests that may need new memory count; Lua never fails a
   * shrink, and neither do we. */
  if (st->armed && (h == NULL || nsize > old)) {
    st->count++;
    if (st->fail_at != 0 &&
        (st->count == st->fail_at ||
         (st->fail_from && st->count > st->fail_at))) {
      st->failed++;
      return NULL;
    }
  }
  if (nsize > (size_t)-1 - sizeof(header)) return NULL;
  {
    header *nh = (header *)realloc(h, sizeof(header) + nsize);
    if (nh == NULL) return NULL;
    if (h == NULL) st->blocks++;
    st->outstanding = st->outstanding - old + nsize;
    nh->size = nsize;
    return nh + 1;
  }
}

typedef struct options {
  const char *cpath;
  const char *script;
  unsigned long max;
  int verbose;
  FILE *tap; /* --tap FILE: a TAP line per mode, or NULL */
  int ntap;
} options;

typedef struct summary {
  unsigned long tried;     /* values of N run */
  unsigned long errors;    /* runs that stopped on an error */
  unsigned long absorbed;  /* runs that completed although an allocation
                              failed (Lua retried it, or a pcall in the
                              script caught it and carried on) */
  unsigned long violations;
  unsigned long total;     /* allocations of a clean run */
} summary;

/* Runs the script once with allocation n failing (n = 0: none).  Counts the
 * run in *sum (violations are printed).  Returns 1 when the script ran to
 * its end without reaching allocation n: nothing left to try. */
static int run_once(const options *o, const char *mode, unsigned long n,
                    summary *sum) {
  alloc_state st;
  lua_State *L;
  int rc, ok = 1;
  memset(&st, 0, sizeof st);
  L = lua_newstate(test_alloc, &st);
  if (L == NULL) {
    fprintf(stderr, "oom_host: cannot create a Lua state\n");
    exit(2);
  }
  luaL_openlibs(L);
  lua_getglobal(L, "package");
  lua_pushstring(L, "lua/?.lua;lua/?/init.lua");
  lua_setfield(L, -2, "path");
  lua_pushstring(L, o->cpath);
  lua_setfield(L, -2, "cpath");
  lua_pop(L, 1);
  lua_pushstring(L, mode);
  lua_setglobal(L, "OOM_MODE");
  lua_pushinteger(L, (lua_Integer)n);
  lua_setglobal(L, "OOM_N");
  /* the script sets this (a constant string, no allocation) as it goes */
  lua_pushliteral(L, "(before the script)");
  lua_setglobal(L, "OOM_SECTION");
  if (luaL_loadfile(L, o->script) != LUA_OK) {
    fprintf(stderr, "oom_host: %s\n", lua_tostring(L, -1));
    exit(2);
  }

  st.armed = 1;
  st.fail_at = n;
  st.fail_from = strcmp(mode, "from") == 0;
  rc = lua_pcall(L, 0, 0, 0);
  st.armed = 0;
  st.fail_at = 0;

  if (n == 0) sum->total = st.count;
  if (rc == LUA_OK) {
    if (st.failed > 0) sum->absorbed++;
  } else {
    const char *msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1)
                                                     : NULL;
    const char *section;
    lua_getglobal(L, "OOM_SECTION");
    section = lua_tostring(L, -1);
    sum->errors++;
    if (msg == NULL) {
      printf("VIOLATION %s N=%lu (%s): error object is a %s, not a "
             "message\n", mode, n, section, luaL_typename(L, -2));
      ok = 0;
    } else if (st.failed == 0) {
      printf("VIOLATION %s N=%lu (%s): error although no allocation "
             "failed: %s\n", mode, n, section, msg);
      ok = 0;
    } else if (strstr(msg, "not enough memory") == NULL ||
               strstr(msg, "OOM-CHECK FAILED") != NULL) {
      printf("VIOLATION %s N=%lu (%s): %s\n", mode, n, section, msg);
      ok = 0;
    } else if (o->verbose) {
      printf("%s N=%lu (%s): %s\n", mode, n, section, msg);
    }
  }
  lua_close(L);
  if (st.outstanding != 0 || st.blocks != 0) {
    printf("VIOLATION %s N=%lu: %lu bytes in %lu blocks still allocated "
           "after lua_close\n", mode, n, (unsigned long)st.outstanding,
           (unsigned long)st.blocks);
    ok = 0;
  }
  if (st.bad_osize != 0) {
    printf("VIOLATION %s N=%lu: %lu reallocs/frees passed a wrong old "
           "size\n", mode, n, st.bad_osize);
    ok = 0;
  }
  if (n == 0 && rc != LUA_OK) {
    printf("oom_host: the script fails without any allocation failure\n");
    exit(2);
  }
  if (!ok) sum->violations++;
  return rc == LUA_OK && st.count < n;
}

/* The mode's outcome as a TAP line (CI's summary counts it). */
static void tap_line(options *o, int ok, const char *mode,
                     const summary *sum, int complete) {
  if (o->tap == NULL) return;
  fprintf(o->tap, "%s %d - oom %s: N = 1..%lu, %lu violations%s\n",
          ok ? "ok" : "not ok", ++o->ntap, mode, sum->tried, sum->violations,
          complete ? "" : ", stopped at --max before the script completed");
  fflush(o->tap);
}

static int run_mode(options *o, const char *mode) {
  summary sum;
  unsigned long n;
  memset(&sum, 0, sizeof sum);
  run_once(o, mode, 0, &sum); /* clean run: how many allocations */
  for (n = 1; n <= o->max; n++) {
    sum.tried++;
    if (run_once(o, mode, n, &sum)) break;
  }
  printf("oom %s: N = 1..%lu tried (a clean run makes %lu allocations), "
         "%lu stopped on \"not enough memory\", %lu absorbed, "
         "%lu violations%s\n",
         mode, sum.tried, sum.total, sum.errors, sum.absorbed,
         sum.violations,
         sum.violations == 0 ? ": all messages ok, no leak" : "");
  if (n > o->max) {
    printf("oom %s: stopped at --max %lu before the script completed\n",
           mode, o->max);
    tap_line(o, 0, mode, &sum, 0);
    return 0;
  }
  tap_line(o, sum.violations == 0, mode, &sum, 1);
  return sum.violations == 0;
}

int main(int argc, char **argv) {
  options o;
  const char *mode = "both";
  int i, ok = 1;
  o.cpath = "build/5.4/?.so";
  o.script = "spec/c/oom_script.lua";
  o.max = 1000000;
  o.verbose = 0;
  o.tap = NULL;
  o.ntap = 0;
  for (i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--mode") == 0 && i + 1 < argc)
      mode = argv[++i];
    else if (strcmp(argv[i], "--cpath") == 0 && i + 1 < argc)
      o.cpath = argv[++i];
    else if (strcmp(argv[i], "--script") == 0 && i + 1 < argc)
      o.script = argv[++i];
    else if (strcmp(argv[i], "--max") == 0 && i + 1 < argc)
      o.max = strtoul(argv[++i], NULL, 10);
    else if (strcmp(argv[i], "--verbose") == 0)
      o.verbose = 1;
    else if (strcmp(argv[i], "--tap") == 0 && i + 1 < argc) {
      if (o.tap != NULL) fclose(o.tap);
      if ((o.tap = fopen(argv[++i], "w")) == NULL) {
        fprintf(stderr, "oom_host: cannot write %s\n", argv[i]);
        return 2;
      }
    } else {
      fprintf(stderr, "usage: %s [--mode once|from|both] [--cpath PATTERN] "
              "[--script FILE] [--max N] [--verbose] [--tap FILE]\n",
              argv[0]);
      return 2;
    }
  }
  if (strcmp(mode, "once") == 0 || strcmp(mode, "both") == 0)
    ok &= run_mode(&o, "once");
  if (strcmp(mode, "from") == 0 || strcmp(mode, "both") == 0)
    ok &= run_mode(&o, "from");
  if (o.tap != NULL) fclose(o.tap);
  return ok ? 0 : 1;
}

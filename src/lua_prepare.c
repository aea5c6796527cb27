/*
 * Preprocessed data of a grid: grid:prepare(kind, ...), grid:prepared(kind)
 * and grid:unprepare(kind).  One row per kind; each kind's functions live
 * in the binding file of its concept (lua_landmarks.c, ...).
 */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
/* clock_gettime under -std=c99 */
#define _POSIX_C_SOURCE 200809L /* NOLINT(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp) */
#endif

#include "astar.h"
#include "compat.h"
#include "lua_args.h"
#include "lua_grid.h"

#include <lauxlib.h>
#include <lua.h>

#ifdef _WIN32
#include <windows.h>
#else
#include <time.h>
#endif

typedef struct prepare_kind {
  const char *name;
  /* builds from the arguments at 3.. (Lua errors name them); returns the
   * bytes the kind holds */
  size_t (*prepare)(lua_State *L, lgrid *ud);
  const char *(*state)(lgrid *ud); /* "ready", "stale" or NULL */
  void (*drop)(lgrid *ud);
} prepare_kind;

static const prepare_kind kinds[] = {
    {"landmarks", llm_prepare, llm_state, llm_drop},
    {NULL, NULL, NULL, NULL}};
#define KIND_LIST "'landmarks'"

static double now(void) {
#ifdef _WIN32
  LARGE_INTEGER f, c;
  QueryPerformanceFrequency(&f);
  QueryPerformanceCounter(&c);
  return (double)c.QuadPart / (double)f.QuadPart;
#else
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
#endif
}

static const prepare_kind *check_kind(lua_State *L, const char *fname) {
  char buf[64];
  int i = la_name_index(L, 2, &kinds[0].name, sizeof kinds[0]);
  if (i < 0) {
    la_error(L, 2, fname, "kind must be one of " KIND_LIST ", got %s",
             la_describe(L, 2, buf, sizeof buf));
    return NULL; /* not reached */
  }
  return &kinds[i];
}

/* grid:prepare(kind, ...) -> {ms = build milliseconds, bytes = held} */
static int g_prepare(lua_State *L) {
  lgrid *ud = lg_check(L, "prepare");
  const prepare_kind *k = check_kind(L, "prepare");
  double t0 = now(), ms;
  size_t bytes = k->prepare(L, ud);
  ms = (now() - t0) * 1000.0;
  lua_createtable(L, 0, 2);
  lua_pushnumber(L, ms);
  lua_setfield(L, -2, "ms");
  lua_pushnumber(L, (lua_Number)bytes);
  lua_setfield(L, -2, "bytes");
  lg_report(L, ud); /* last: may run finalizers */
  return 1;
}

/* grid:prepared(kind) -> "ready", "stale" or nil */
static int g_prepared(lua_State *L) {
  lgrid *ud = lg_check(L, "prepared");
  const prepare_kind *k = check_kind(L, "prepared");
  const char *s;
  (void)lg_core(L, ud, "prepared");
  s = k->state(ud);
  if (s == NULL)
    lua_pushnil(L);
  else
    lua_pushstring(L, s);
  return 1;
}

/* grid:unprepare(kind): frees the kind's data */
static int g_unprepare(lua_State *L) {
  lgrid *ud = lg_check(L, "unprepare");
  const prepare_kind *k = check_kind(L, "unprepare");
  (void)lg_core(L, ud, "unprepare");
  k->drop(ud);
  lg_report(L, ud);
  return 0;
}

const luaL_Reg lpr_grid_methods[] = {{"prepare", g_prepare},
                                     {"prepared", g_prepared},
                                     {"unprepare", g_unprepare},
                                     {NULL, NULL}};

/*
 * Argument checks and error messages of the binding.  Every bad argument
 * raises `bad argument #N to 'name' (what was wrong)` with the same text on
 * Lua 5.1-5.4 and LuaJIT: numbers are printed by us, never by Lua's
 * tostring, which differs between versions.
 */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
/* clock_gettime under -std=c99 */
#define _POSIX_C_SOURCE 200809L /* NOLINT(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp) */
#endif

#include "lua_args.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#ifdef _WIN32
#include <windows.h>
#else
#include <time.h>
#endif

/* Seconds on a monotonic clock (prepare's build time, the pathfinder
 * pool's time budget). */
double la_now(void) {
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

/* ---- errors ---- */

int la_error(lua_State *L, int arg, const char *fname, const char *fmt,
             ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return luaL_error(L, "bad argument #%d to '%s' (%s)", arg, fname, msg);
}

/* A short description of the value at idx for messages: numbers by value
 * (the same text on every version), strings quoted, others by type. */
const char *la_describe(lua_State *L, int idx, char *buf, size_t size) {
  switch (lua_type(L, idx)) {
  case LUA_TNUMBER: {
    double v = (double)lua_tonumber(L, idx);
    if (v != v)
      snprintf(buf, size, "nan");
    else if (isinf(v))
      snprintf(buf, size, v > 0 ? "inf" : "-inf");
    else
      snprintf(buf, size, "%.14g", v);
    return buf;
  }
  case LUA_TSTRING: { /* at most 40 bytes, others than text as \ddd */
    size_t len, i, k = 0;
    const char *s = lua_tolstring(L, idx, &len);
    if (size < 8) return "string";
    buf[k++] = '\'';
    for (i = 0; i < len && i < 40 && k + 6 < size; i++) {
      unsigned char c = (unsigned char)s[i];
      if (c >= 32 && c < 127) {
        buf[k++] = (char)c;
      } else {
        snprintf(buf + k, size - k, "\\%d", (int)c);
        k += strlen(buf + k);
      }
    }
    if (i < len && k + 4 < size) {
      memcpy(buf + k, "...", 3);
      k += 3;
    }
    buf[k++] = '\'';
    buf[k] = '\0';
    return buf;
  }
  case LUA_TBOOLEAN:
    return lua_toboolean(L, idx) ? "true" : "false";
  default:
    return luaL_typename(L, idx);
  }
}

void la_raise(lua_State *L, int status, const char *fname) {
  switch (status) {
  case ASTAR_ENOMEM: luaL_error(L, "not enough memory"); break;
  case ASTAR_EBUSY:
    luaL_error(L, "%s: the grid is busy with a search (called from inside "
                  "a search on the same grid)", fname);
    break;
  default: luaL_error(L, "%s: internal error %d", fname, status); break;
  }
}

/* ---- argument checks ---- */

int la_streq(lua_State *L, int idx, const char *s) {
  size_t len, n = strlen(s);
  const char *v;
  if (lua_type(L, idx) != LUA_TSTRING) return 0;
  v = lua_tolstring(L, idx, &len);
  return len == n && memcmp(v, s, n) == 0;
}

int la_name_index(lua_State *L, int idx, const char *const names[],
                  size_t stride) {
  size_t len;
  const char *v;
  int i;
  if (lua_type(L, idx) != LUA_TSTRING) return -1;
  v = lua_tolstring(L, idx, &len);
  for (i = 0; *(const char *const *)((const char *)names + i * stride) != NULL;
       i++) {
    const char *s = *(const char *const *)((const char *)names + i * stride);
    if (s[0] == v[0] && strlen(s) == len && memcmp(s, v, len) == 0) return i;
  }
  return -1;
}

/* An integer in [lo, hi]; name is what the argument is called. */
int32_t la_int(lua_State *L, int arg, const char *fname,
                         const char *name, int32_t lo, int32_t hi,
                         const char *range_word) {
  char buf[64];
  double v;
  if (lua_type(L, arg) == LUA_TNUMBER) {
    /* the usual case first, without floor(): an in-range number whose
     * int32 conversion (defined there) gives it back (NaN fails both) */
    v = (double)lua_tonumber(L, arg);
    if (v >= lo && v <= hi && (double)(int32_t)v == v) return (int32_t)v;
  }
  if (lua_type(L, arg) != LUA_TNUMBER)
    la_error(L, arg, fname, "%s must be an integer, got %s", name,
              la_describe(L, arg, buf, sizeof buf));
  v = (double)lua_tonumber(L, arg);
  if (!(v == floor(v)) || isinf(v))
    la_error(L, arg, fname, "%s must be an integer, got %s", name,
              la_describe(L, arg, buf, sizeof buf));
  if (v < lo || v > hi)
    la_error(L, arg, fname, "%s %s %d..%d, got %s", name, range_word,
              (int)lo, (int)hi, la_describe(L, arg, buf, sizeof buf));
  return (int32_t)v;
}

int32_t la_x(lua_State *L, int arg, const char *fname,
                       const char *name, const astar_grid *g) {
  return la_int(L, arg, fname, name, 1, g->width, "out of range") - 1;
}

int32_t la_y(lua_State *L, int arg, const char *fname,
                       const char *name, const astar_grid *g) {
  return la_int(L, arg, fname, name, 1, g->height, "out of range") - 1;
}

/* Reads a tile value at idx: a cost (returned > 0) or false (returns 0).
 * Anything else: 0 and *ok = 0. */
float la_tile_value(lua_State *L, int idx, int *ok) {
  *ok = 1;
  if (lua_type(L, idx) == LUA_TBOOLEAN && !lua_toboolean(L, idx)) return 0.0f;
  if (lua_type(L, idx) == LUA_TNUMBER) {
    double c = (double)lua_tonumber(L, idx);
    if (astar_cost_ok(c)) return (float)c;
  }
  *ok = 0;
  return 0.0f;
}

/* A cost or false at arg; returns the cost, or 0 for false (blocked). */
float la_cost(lua_State *L, int arg, const char *fname,
                        const char *name) {
  int ok;
  char buf[64];
  float c = la_tile_value(L, arg, &ok);
  if (!ok)
    la_error(L, arg, fname, "%s must be " COST_RULE ", got %s", name,
              la_describe(L, arg, buf, sizeof buf));
  return c;
}


/* Options tables: a table (or nil) whose keys must all be known names. */
int la_options_mask(lua_State *L, int arg, const char *fname,
                    const char *const known[], uint64_t *present) {
  char buf[64];
  int t = lua_type(L, arg), i;
  *present = 0;
  if (t == LUA_TNONE || t == LUA_TNIL) return 0;
  if (t != LUA_TTABLE)
    la_error(L, arg, fname, "options must be a table, got %s",
              la_describe(L, arg, buf, sizeof buf));
  lua_pushnil(L);
  while (lua_next(L, arg)) {
    lua_pop(L, 1);
    if (lua_type(L, -1) != LUA_TSTRING)
      la_error(L, arg, fname, "option names must be strings, got %s",
                la_describe(L, -1, buf, sizeof buf));
    if ((i = la_name_index(L, -1, known, sizeof known[0])) < 0)
      la_error(L, arg, fname, "unknown option %s",
                la_describe(L, -1, buf, sizeof buf));
    *present |= (unsigned)i < 64u ? (uint64_t)1 << (unsigned)i : ~(uint64_t)0;
  }
  if (lua_getmetatable(L, arg)) { /* __index may answer any name */
    lua_pop(L, 1);
    *present = ~(uint64_t)0;
  }
  return 1;
}

int la_options(lua_State *L, int arg, const char *fname,
               const char *const known[]) {
  uint64_t present;
  return la_options_mask(L, arg, fname, known, &present);
}

/* Index of the string option `name` in values[] (or dflt when absent). */
int la_enum(lua_State *L, int arg, const char *fname,
                       const char *name, const char *const values[],
                       const char *list, int dflt) {
  char buf[64];
  int result = dflt;
  lua_getfield(L, arg, name);
  if (!lua_isnil(L, -1)) {
    result = la_name_index(L, -1, values, sizeof values[0]);
    if (result < 0)
      la_error(L, arg, fname, "%s must be one of %s, got %s", name, list,
                la_describe(L, -1, buf, sizeof buf));
  }
  lua_pop(L, 1);
  return result;
}

/* A number option in [lo, hi] (or dflt when absent). */
double la_number(lua_State *L, int arg, const char *fname,
                            const char *name, double lo, double hi,
                            const char *rule, double dflt) {
  char buf[64];
  double v = dflt;
  lua_getfield(L, arg, name);
  if (!lua_isnil(L, -1)) {
    v = lua_type(L, -1) == LUA_TNUMBER ? (double)lua_tonumber(L, -1) : NAN;
    if (!(v >= lo && v <= hi))
      la_error(L, arg, fname, "%s must be %s, got %s", name, rule,
                la_describe(L, -1, buf, sizeof buf));
  }
  lua_pop(L, 1);
  return v;
}


const char *la_text(lua_State *L, int arg, const char *fname,
                              size_t *len) {
  char buf[64];
  if (lua_type(L, arg) != LUA_TSTRING)
    la_error(L, arg, fname, "text must be a string, got %s",
              la_describe(L, arg, buf, sizeof buf));
  return lua_tolstring(L, arg, len);
}

void la_table(lua_State *L, int arg, const char *fname,
                            const char *name) {
  char buf[64];
  if (lua_type(L, arg) != LUA_TTABLE)
    la_error(L, arg, fname, "%s must be a table, got %s", name,
              la_describe(L, arg, buf, sizeof buf));
}

int la_typed_option(lua_State *L, int arg, const char *fname,
                    const char *name, int type) {
  char buf[64];
  lua_getfield(L, arg, name);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    return 0;
  }
  if (lua_type(L, -1) != type)
    la_error(L, arg, fname, "%s must be a %s, got %s", name,
             lua_typename(L, type), la_describe(L, -1, buf, sizeof buf));
  return lua_gettop(L);
}

/* ---- unit sizes ---- */

int la_size_value(lua_State *L, int idx, int arg, const char *fname,
                  const astar_grid *g) {
  char buf[64];
  int32_t hi = g->width < g->height ? g->width : g->height;
  double v;
  if (hi > ASTAR_MAX_SIZE) hi = ASTAR_MAX_SIZE;
  v = lua_type(L, idx) == LUA_TNUMBER ? (double)lua_tonumber(L, idx) : NAN;
  if (!(v == floor(v)) || isinf(v))
    la_error(L, arg, fname, "size must be an integer, got %s",
             la_describe(L, idx, buf, sizeof buf));
  if (v < 1 || v > hi)
    la_error(L, arg, fname, "size out of range 1..%d, got %s", (int)hi,
             la_describe(L, idx, buf, sizeof buf));
  return (int)v;
}

int la_size_option(lua_State *L, int arg, const char *fname,
                   const astar_grid *g) {
  int size = 1;
  if (lua_type(L, arg) != LUA_TTABLE) return 1;
  lua_getfield(L, arg, "size");
  if (!lua_isnil(L, -1)) size = la_size_value(L, lua_gettop(L), arg, fname, g);
  lua_pop(L, 1);
  return size;
}

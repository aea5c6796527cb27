/* Argument checks and error messages shared by the binding's files. */
#ifndef ASTAR_LUA_ARGS_H
#define ASTAR_LUA_ARGS_H

#include "astar.h"
#include "compat.h"

#if defined(__GNUC__) || defined(__clang__)
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define PRINTF_LIKE(f, a)
#endif

#define COST_RULE "a positive finite number or false"

/* Raises `bad argument #arg to 'fname' (message)`; never returns. */
int la_error(lua_State *L, int arg, const char *fname, const char *fmt, ...)
    PRINTF_LIKE(4, 5);
/* The value at idx for messages: numbers by value, strings quoted, others
 * by type name. */
const char *la_describe(lua_State *L, int idx, char *buf, size_t size);
/* seconds on a monotonic clock */
double la_now(void);
/* Raises the error for a core status (out of memory, busy, ...). */
void la_raise(lua_State *L, int status, const char *fname);

/* 1 when the value at idx is the string s, compared with its length (a
 * Lua string with an embedded NUL is never a C string's equal). */
int la_streq(lua_State *L, int idx, const char *s);
/* The index of the string at idx in a NULL-ended list of names (names
 * may be the first member of rows of `stride` bytes), compared with its
 * length; -1 when it is none of them or not a string. */
int la_name_index(lua_State *L, int idx, const char *const names[],
                  size_t stride);

/* An integer in [lo, hi] at arg; name is what the argument is called and
 * range_word the phrase before the range ("out of range"). */
int32_t la_int(lua_State *L, int arg, const char *fname, const char *name,
               int32_t lo, int32_t hi, const char *range_word);
/* A 1-based x or y of grid g at arg, returned 0-based. */
int32_t la_x(lua_State *L, int arg, const char *fname, const char *name,
             const astar_grid *g);
int32_t la_y(lua_State *L, int arg, const char *fname, const char *name,
             const astar_grid *g);
/* A tile value at idx: cost (> 0) or false (0); *ok = 0 for anything else. */
float la_tile_value(lua_State *L, int idx, int *ok);
/* A cost or false at arg: the cost, or 0 for false (blocked). */
float la_cost(lua_State *L, int arg, const char *fname, const char *name);

/* An options table (or nil: returns 0) whose keys must all be in known. */
int la_options(lua_State *L, int arg, const char *fname,
               const char *const known[]);
/* la_options, and which keys the table holds: bit i for known[i] (every
 * bit when the table has a metatable, whose __index may answer any name,
 * or for a key past the 64th), so a reader may skip the look-up of an
 * option that is surely absent; 0 without a table. */
int la_options_mask(lua_State *L, int arg, const char *fname,
                    const char *const known[], uint64_t *present);
/* Index in values of the string option `name`, or dflt when absent. */
int la_enum(lua_State *L, int arg, const char *fname, const char *name,
            const char *const values[], const char *list, int dflt);
/* The option `name` when it has Lua type `type` (LUA_TTABLE, ...): left
 * on the stack, its index returned; absent (nil): 0, nothing left.  Any
 * other value is an error ("must be a table, got ..."). */
int la_typed_option(lua_State *L, int arg, const char *fname,
                    const char *name, int type);
/* A number option in [lo, hi], or dflt when absent. */
double la_number(lua_State *L, int arg, const char *fname, const char *name,
                 double lo, double hi, const char *rule, double dflt);

/* A unit's size (1 .. min(width, height, 255)) at idx, errors naming
 * arg; the `size` field of the options table at arg (absent: 1). */
int la_size_value(lua_State *L, int idx, int arg, const char *fname,
                  const astar_grid *g);
int la_size_option(lua_State *L, int arg, const char *fname,
                   const astar_grid *g);

/* A string at arg (the text of a map). */
const char *la_text(lua_State *L, int arg, const char *fname, size_t *len);
/* A table at arg; name is what it is called. */
void la_table(lua_State *L, int arg, const char *fname, const char *name);

#endif

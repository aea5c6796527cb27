/* The few differences between Lua 5.1 (and LuaJIT), 5.2, 5.3 and 5.4 that
 * the binding meets, as macros with names of our own. */
#ifndef ASTAR_COMPAT_H
#define ASTAR_COMPAT_H

#include <lua.h>
#include <lauxlib.h>

#if LUA_VERSION_NUM >= 502
#define compat_rawlen(L, i) lua_rawlen(L, i)
#else
#define compat_rawlen(L, i) lua_objlen(L, i)
#endif

#if LUA_VERSION_NUM >= 504
#define compat_newuserdata(L, size) lua_newuserdatauv(L, size, 0)
#else
#define compat_newuserdata(L, size) lua_newuserdata(L, size)
#endif

#endif

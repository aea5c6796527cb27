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

/* t[i] pushed, its type returned */
#if LUA_VERSION_NUM >= 503
#define compat_rawgeti_type(L, t, i) lua_rawgeti(L, t, i)
#else
#define compat_rawgeti_type(L, t, i) (lua_rawgeti(L, t, i), lua_type(L, -1))
#endif

/* userdata with one user value (a table), and access to it */
#if LUA_VERSION_NUM >= 504
#define compat_newuserdata(L, size) lua_newuserdatauv(L, size, 1)
#define compat_getuservalue(L, i) ((void)lua_getiuservalue(L, i, 1))
#define compat_setuservalue(L, i) ((void)lua_setiuservalue(L, i, 1))
#elif LUA_VERSION_NUM >= 502
#define compat_newuserdata(L, size) lua_newuserdata(L, size)
#define compat_getuservalue(L, i) ((void)lua_getuservalue(L, i))
#define compat_setuservalue(L, i) lua_setuservalue(L, i)
#else
#define compat_newuserdata(L, size) lua_newuserdata(L, size)
#define compat_getuservalue(L, i) lua_getfenv(L, i)
#define compat_setuservalue(L, i) ((void)lua_setfenv(L, i))
#endif

#endif

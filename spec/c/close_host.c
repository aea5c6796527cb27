/*
 * A state closed in the middle of a grid method: what os.exit(0, true)
 * does when a callback calls it.  The method never returns, so the grid's
 * own finalizer finds it busy; the module's anchor must free it anyway.
 *
 * For each case this host makes a Lua 5.4 state with a counting
 * allocator, loads the module, and runs a chunk that calls the global
 * quit() from inside a method's callback.  quit() does what os.exit does
 * (lua_close on the running state) and then, instead of exiting, checks
 * that every byte the allocator handed out came back and jumps back to
 * the host, which goes on with the next case.  Output is TAP.
 *
 *   close_host [--cpath PATTERN]       (run from the repository root)
 */
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef union header {
  size_t size;
  long double ld;
  long long ll;
  void *p;
} header;

static size_t outstanding, blocks;
static jmp_buf back;
static int tests, failures;

static void *count_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  header *h = ptr != NULL ? (header *)ptr - 1 : NULL;
  (void)ud;
  (void)osize;
  if (nsize == 0) {
    if (h != NULL) {
      outstanding -= h->size;
      blocks--;
      free(h);
    }
    return NULL;
  }
  {
    size_t old = h != NULL ? h->size : 0;
    header *n = (header *)realloc(h, sizeof(header) + nsize);
    if (n == NULL) return NULL;
    if (h == NULL) blocks++;
    outstanding += nsize - old;
    n->size = nsize;
    return n + 1;
  }
}

/* quit(): close the running state as os.exit(0, true) does, then return
 * to the host instead of ending the process. */
static int l_quit(lua_State *L) {
  lua_close(L);
  longjmp(back, 1);
  return 0;
}

static void run_case(const char *cpath, const char *name, const char *code) {
  lua_State *L;
  int closed = 0;
  char setup[1024];
  outstanding = blocks = 0;
  L = lua_newstate(count_alloc, NULL);
  if (L == NULL) exit(3);
  luaL_openlibs(L);
  lua_pushcfunction(L, l_quit);
  lua_setglobal(L, "quit");
  snprintf(setup, sizeof setup,
           "package.cpath = '%s'; package.path = 'lua/?.lua;lua/?/init.lua'",
           cpath);
  if (luaL_dostring(L, setup) != 0) exit(3);
  if (setjmp(back) == 0) {
    if (luaL_dostring(L, code) != 0) {
      fprintf(stderr, "# %s: %s\n", name, lua_tostring(L, -1));
    }
    lua_close(L); /* the chunk did not quit: close as usual */
  } else {
    closed = 1;
  }
  tests++;
  if (!closed || outstanding != 0 || blocks != 0) failures++;
  printf("%s %d - %s: the state closed inside it, %lu bytes in %lu "
         "blocks left\n",
         closed && outstanding == 0 && blocks == 0 ? "ok" : "not ok", tests,
         name, (unsigned long)outstanding, (unsigned long)blocks);
  fflush(stdout);
}

int main(int argc, char **argv) {
  const char *cpath = "build/5.4/?.so";
  int i;
  for (i = 1; i < argc; i++)
    if (strcmp(argv[i], "--cpath") == 0 && i + 1 < argc) cpath = argv[++i];
  run_case(cpath, "find_path with a tile_cost callback",
           "local astar = require('astar')\n"
           "local g = astar.new(60, 60)\n"
           "local other = astar.new(30, 30); other:find_path(1, 1, 30, 30)\n"
           "g:find_path(1, 1, 60, 60, { tile_cost = function(x, y, c)\n"
           "  if x == 10 then quit() end return c end })\n");
  run_case(cpath, "find_path with a heuristic function, the grid closed first",
           "local astar = require('astar')\n"
           "local g = astar.new(40, 40)\n"
           "g:find_path(1, 1, 40, 40, { heuristic = function()\n"
           "  g:close() quit() end })\n");
  run_case(cpath, "next_step with a move_cost callback",
           "local astar = require('astar')\n"
           "local g = astar.new(40, 40)\n"
           "g:next_step(1, 1, 40, 40, { move_cost = function()\n"
           "  quit() end })\n");
  run_case(cpath, "fill with a function",
           "local astar = require('astar')\n"
           "local g = astar.new(50, 50)\n"
           "g:fill(function(x, y) if y == 3 then quit() end return 1 end)\n");
  run_case(cpath, "two grids, one busy inside the other's callback",
           "local astar = require('astar')\n"
           "local a, b = astar.new(30, 30), astar.new(30, 30)\n"
           "a:find_path(1, 1, 30, 30, { tile_cost = function(x, y, c)\n"
           "  b:find_path(1, 1, 30, 30, { tile_cost = function()\n"
           "    quit() end }) return c end })\n");
  printf("1..%d\n# close: %d passed, %d failed\n", tests, tests - failures,
         failures);
  return failures != 0;
}

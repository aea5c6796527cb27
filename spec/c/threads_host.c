/*
 * Many Lua states on many threads, one process: the stress run of
 * snapshots, tokens and worker pools (issue 16), built with
 * ThreadSanitizer (make tsan) and with ASan + LeakSanitizer.
 *
 * The host starts one state per thread: state 1 has the role "main",
 * the others "worker".  Each loads the module and runs the script given
 * (spec/c/threads_stress.lua) with these globals:
 *   ROLE, INDEX, STATES, ROUNDS
 *   send(s)     appends s to the channel of every worker (main) or to the
 *               main state's (worker)
 *   receive()   blocks until a string comes for this state, returns it
 * A state ends by returning a summary string, or by raising; the host
 * closes it (lua_close: pools still running get joined then) and prints
 * one TAP line per state.
 *
 *   threads_host [--cpath PATTERN] [--states N] [--rounds N] script.lua
 */
#define _POSIX_C_SOURCE 200809L
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_STATES 16

typedef struct msg {
  char *text;
  size_t len;
  struct msg *next;
} msg;

typedef struct inbox {
  msg *head, *tail;
} inbox;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t arrived = PTHREAD_COND_INITIALIZER;
static inbox boxes[MAX_STATES];
static int nstates = 4, rounds = 40;
static const char *cpath = "build/5.4/?.so";
static const char *script;

typedef struct run {
  int index;
  pthread_t thread;
  int ok;
  char report[512];
} run;

static void post(int to, const char *s, size_t len) {
  msg *m = (msg *)malloc(sizeof *m);
  if (m == NULL || (m->text = (char *)malloc(len + 1)) == NULL) abort();
  memcpy(m->text, s, len);
  m->text[len] = '\0';
  m->len = len;
  m->next = NULL;
  pthread_mutex_lock(&lock);
  if (boxes[to].tail != NULL)
    boxes[to].tail->next = m;
  else
    boxes[to].head = m;
  boxes[to].tail = m;
  pthread_cond_broadcast(&arrived);
  pthread_mutex_unlock(&lock);
}

static int l_send(lua_State *L) {
  size_t len;
  const char *s = luaL_checklstring(L, 1, &len);
  int me, k;
  lua_getglobal(L, "INDEX");
  me = (int)lua_tointeger(L, -1);
  if (me == 1) {
    for (k = 2; k <= nstates; k++) post(k - 1, s, len);
  } else {
    post(0, s, len);
  }
  return 0;
}

static int l_receive(lua_State *L) {
  int me;
  msg *m;
  lua_getglobal(L, "INDEX");
  me = (int)lua_tointeger(L, -1) - 1;
  pthread_mutex_lock(&lock);
  while (boxes[me].head == NULL) pthread_cond_wait(&arrived, &lock);
  m = boxes[me].head;
  boxes[me].head = m->next;
  if (boxes[me].head == NULL) boxes[me].tail = NULL;
  pthread_mutex_unlock(&lock);
  lua_pushlstring(L, m->text, m->len);
  free(m->text);
  free(m);
  return 1;
}

static void *state_main(void *arg) {
  run *r = (run *)arg;
  lua_State *L = luaL_newstate();
  char setup[512];
  if (L == NULL) {
    snprintf(r->report, sizeof r->report, "no state");
    return NULL;
  }
  luaL_openlibs(L);
  lua_pushstring(L, r->index == 1 ? "main" : "worker");
  lua_setglobal(L, "ROLE");
  lua_pushinteger(L, r->index);
  lua_setglobal(L, "INDEX");
  lua_pushinteger(L, nstates);
  lua_setglobal(L, "STATES");
  lua_pushinteger(L, rounds);
  lua_setglobal(L, "ROUNDS");
  lua_pushcfunction(L, l_send);
  lua_setglobal(L, "send");
  lua_pushcfunction(L, l_receive);
  lua_setglobal(L, "receive");
  snprintf(setup, sizeof setup,
           "package.cpath = '%s'; package.path = 'lua/?.lua;lua/?/init.lua'",
           cpath);
  if (luaL_dostring(L, setup) != 0 || luaL_loadfile(L, script) != 0 ||
      lua_pcall(L, 0, 1, 0) != 0) {
    snprintf(r->report, sizeof r->report, "%s", lua_tostring(L, -1));
  } else {
    r->ok = 1;
    snprintf(r->report, sizeof r->report, "%s",
             lua_isstring(L, -1) ? lua_tostring(L, -1) : "done");
  }
  lua_close(L); /* pools left open are joined here */
  return NULL;
}

int main(int argc, char **argv) {
  run runs[MAX_STATES];
  int i, failed = 0;
  for (i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--cpath") == 0 && i + 1 < argc)
      cpath = argv[++i];
    else if (strcmp(argv[i], "--states") == 0 && i + 1 < argc)
      nstates = atoi(argv[++i]);
    else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
      rounds = atoi(argv[++i]);
    else
      script = argv[i];
  }
  if (script == NULL || nstates < 2 || nstates > MAX_STATES) {
    fprintf(stderr, "usage: threads_host [--cpath P] [--states 2..%d] "
            "[--rounds N] script.lua\n", MAX_STATES);
    return 2;
  }
  printf("1..%d\n", nstates);
  memset(runs, 0, sizeof runs);
  for (i = 0; i < nstates; i++) {
    runs[i].index = i + 1;
    if (pthread_create(&runs[i].thread, NULL, state_main, &runs[i]) != 0) {
      fprintf(stderr, "threads_host: no thread\n");
      return 2;
    }
  }
  for (i = 0; i < nstates; i++) pthread_join(runs[i].thread, NULL);
  for (i = 0; i < nstates; i++) {
    printf("%s %d - state %d (%s): %s\n", runs[i].ok ? "ok" : "not ok",
           i + 1, i + 1, i == 0 ? "main" : "worker", runs[i].report);
    failed += !runs[i].ok;
  }
  for (i = 0; i < MAX_STATES; i++) { /* messages nobody read */
    while (boxes[i].head != NULL) {
      msg *m = boxes[i].head;
      boxes[i].head = m->next;
      free(m->text);
      free(m);
    }
  }
  return failed ? 1 : 0;
}

/*
 * Snapshot tokens: the process-wide registry that lets another Lua state
 * of the same process (a LÖVE thread) find a snapshot by a string.
 *
 * It lives in the binding, not the core: a token is a Lua-facing idea (a
 * string that crosses a channel), and the core keeps its rule of no
 * global mutable state (C users share the astar_snapshot pointer).
 *
 * A token names a slot and a serial, never a pointer:
 *   "astar-snapshot:<process key>:<slot>:<serial>"
 * Serials count up for the module's whole life in the process and never
 * repeat, so a token of a snapshot that was released cannot alias one
 * published later in the same slot; the process key (made from the
 * process id, the time and the module's own address) tells a token of
 * another process (or another copy of the module) from a stale one.  The
 * registry holds no reference: a snapshot is published for as long as
 * some state holds it, and its last release takes it out (under the
 * lock, before its memory goes), while attach takes a hold only of a
 * snapshot whose count is still above zero.  The slot table is freed
 * when it empties, so an unloaded module leaves nothing behind.
 */
#include "astar.h"
#include "lua_snapshot.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(_WIN32)
#include <process.h>
#define getpid _getpid
#else
#include <unistd.h>
#endif

typedef struct slot {
  astar_snapshot *s; /* NULL: free */
  uint64_t serial;
} slot;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static slot *slots;
static uint32_t nslots, nlive;
static uint64_t next_serial = 1;
static uint32_t process_key;

#define PREFIX "astar-snapshot:"

static uint32_t key(void) { /* locked */
  if (process_key == 0) {
    uint64_t k = (uint64_t)time(NULL) * 2654435761u;
    k ^= (uint64_t)(uintptr_t)&lock;
    k ^= (uint64_t)getpid() << 20;
    k ^= (uint64_t)clock();
    process_key = (uint32_t)(k ^ (k >> 32));
    if (process_key == 0) process_key = 1;
  }
  return process_key;
}

static void format(char *buf, size_t size, uint32_t k, uint32_t i,
                   uint64_t serial) {
  snprintf(buf, size, PREFIX "%08x:%lu:%llu", (unsigned)k, (unsigned long)i,
           (unsigned long long)serial);
}

int lk_token(astar_snapshot *s, char *buf, size_t size) {
  uint32_t i;
  pthread_mutex_lock(&lock);
  if (s->tag == 0) { /* first token: publish */
    for (i = 0; i < nslots && slots[i].s != NULL; i++) {
    }
    if (i == nslots) {
      uint32_t n = nslots ? nslots * 2u : 16u;
      slot *p = (slot *)realloc(slots, (size_t)n * sizeof(slot));
      if (p == NULL || n > 0x10000000u) {
        if (p != NULL) slots = p;
        pthread_mutex_unlock(&lock);
        return LK_NOMEM;
      }
      memset(p + nslots, 0, (size_t)(n - nslots) * sizeof(slot));
      slots = p;
      nslots = n;
    }
    slots[i].s = s;
    slots[i].serial = next_serial++;
    s->tag = slots[i].serial;
    s->tag_slot = i;
    nlive++;
  }
  format(buf, size, key(), s->tag_slot, s->tag);
  pthread_mutex_unlock(&lock);
  return LK_OK;
}

/* Reads digits of base 10 or 16 up to the character end; 0 on anything
 * else or past max. */
static int number(const char **p, int base, char end, uint64_t max,
                  uint64_t *out) {
  const char *s = *p;
  uint64_t v = 0;
  if (*s == end) return 0;
  for (; *s != end; s++) {
    int d;
    if (*s >= '0' && *s <= '9')
      d = *s - '0';
    else if (base == 16 && *s >= 'a' && *s <= 'f')
      d = *s - 'a' + 10;
    else
      return 0;
    if (v > (max - (uint64_t)d) / (uint64_t)base) return 0;
    v = v * (uint64_t)base + (uint64_t)d;
  }
  *p = s + (end != '\0');
  *out = v;
  return 1;
}

int lk_attach(const char *tok, size_t len, astar_snapshot **out) {
  char canon[LK_TOKEN_SIZE];
  const char *p = tok + sizeof PREFIX - 1;
  uint64_t k = 0, i = 0, serial = 0;
  int st = LK_RELEASED;
  *out = NULL;
  if (len >= sizeof canon || strlen(tok) != len ||
      strncmp(tok, PREFIX, sizeof PREFIX - 1) != 0)
    return LK_FORGED;
  if (!number(&p, 16, ':', 0xFFFFFFFFu, &k) ||
      !number(&p, 10, ':', 0xFFFFFFFFu, &i) ||
      !number(&p, 10, '\0', UINT64_MAX, &serial))
    return LK_FORGED;
  /* one spelling per token: no leading zeros, no upper case */
  format(canon, sizeof canon, (uint32_t)k, (uint32_t)i, serial);
  if (strcmp(canon, tok) != 0 || serial == 0) return LK_FORGED;
  pthread_mutex_lock(&lock);
  if ((uint32_t)k != key()) {
    st = LK_OTHER_PROCESS;
  } else if (i < nslots && slots[i].s != NULL && slots[i].serial == serial &&
             astar_snapshot_retain_live(slots[i].s)) {
    *out = slots[i].s;
    st = LK_OK;
  } else if (serial >= next_serial) {
    st = LK_FORGED; /* never handed out */
  }
  pthread_mutex_unlock(&lock);
  return st;
}

void lk_release(astar_snapshot *s) {
  if (s == NULL || !astar_snapshot_release(s)) return;
  if (s->tag != 0) {
    pthread_mutex_lock(&lock);
    slots[s->tag_slot].s = NULL;
    slots[s->tag_slot].serial = 0;
    if (--nlive == 0) { /* empty: nothing left behind at unload */
      free(slots);
      slots = NULL;
      nslots = 0;
    }
    pthread_mutex_unlock(&lock);
  }
  astar_snapshot_free(s);
}

/*
 * Batches of queries and the worker pool that runs them on C threads.
 *
 * A batch is a flat list of (start, goal) pairs sharing one query
 * template on one const map, and flat results: per query an outcome, a
 * cost, a path length and where its path is.  Its queries are cut into
 * chunks of a fixed size; a chunk is the unit of work and owns a path
 * buffer (1-based uint16 x, y pairs), so two threads never write the same
 * memory and no allocation happens per query once a buffer has grown.
 *
 * The pool: n pthreads, each with its own search context, one mutex and
 * two condition variables (work queued; a batch done).  A worker takes
 * the next chunk of the first queued batch under the lock, runs it
 * unlocked, and counts it done under the lock; the thread that finishes
 * a batch's last chunk wakes the waiters.  Whoever reads a batch's
 * results has seen `done` under the same lock, so every write of the
 * workers happens before the read.  Closing cancels the chunks not taken,
 * lets the running ones end and joins every thread: after
 * astar_workers_free no thread of the pool runs, so the code it runs may
 * be unloaded.
 */
#include "astar.h"
#include "internal.h"

#include <pthread.h>
#include <string.h>
#if defined(_WIN32)
#include <windows.h>
#else
#include <unistd.h>
#endif

#define CHUNK_MAX 32u

typedef struct chunk_buf {
  uint16_t *xy;
  size_t cap, used; /* in uint16 */
} chunk_buf;

struct astar_batch {
  astar_alloc_fn alloc;
  void *ud;
  const astar_grid *g;
  astar_query q;          /* the template (goals point to `goals`) */
  int32_t *goals;
  uint32_t n, chunk_size, nchunks;
  int32_t *coords;        /* 4 per query */
  astar_batch_result *res;
  chunk_buf *chunks;
  /* under the pool's lock (or the caller's alone in astar_batch_run) */
  uint32_t next;          /* the first chunk not taken */
  uint32_t finished;      /* chunks done */
  int done;
  int status;
  uint32_t error_query;
  struct astar_batch *queue_next;
};

/* ---- batches ---- */

#define mem(b, count, elem) astar__mem((b)->alloc, (b)->ud, count, elem)
#define mem_free(b, p, count, elem) \
  astar__mem_free((b)->alloc, (b)->ud, p, count, elem)

void astar_batch_free(astar_batch *b) {
  uint32_t c;
  if (b == NULL) return;
  if (b->chunks != NULL)
    for (c = 0; c < b->nchunks; c++)
      mem_free(b, b->chunks[c].xy, b->chunks[c].cap, sizeof(uint16_t));
  mem_free(b, b->chunks, b->nchunks, sizeof(chunk_buf));
  mem_free(b, b->res, b->n, sizeof(astar_batch_result));
  mem_free(b, b->coords, (size_t)b->n * 4u, sizeof(int32_t));
  mem_free(b, b->goals, b->q.ngoals * 2u, sizeof(int32_t));
  b->alloc(b->ud, b, sizeof *b, 0);
}

int astar_batch_new(astar_batch **out, const astar_grid *g,
                    const astar_query *q, uint32_t n, astar_alloc_fn alloc,
                    void *ud) {
  astar_batch *b;
  *out = NULL;
  if (q->tile_fn != NULL || q->move_fn != NULL || q->heuristic_fn != NULL)
    return ASTAR_EINVAL;
  if (n > UINT32_MAX / 8u) return ASTAR_ETOOBIG;
  b = alloc(ud, NULL, 0, sizeof *b);
  if (b == NULL) return ASTAR_ENOMEM;
  memset(b, 0, sizeof *b);
  b->alloc = alloc;
  b->ud = ud;
  b->g = g;
  b->q = *q;
  b->n = n;
  b->chunk_size = n / 64u;
  if (b->chunk_size < 1u) b->chunk_size = 1u;
  if (b->chunk_size > CHUNK_MAX) b->chunk_size = CHUNK_MAX;
  b->nchunks = (n + b->chunk_size - 1u) / b->chunk_size;
  b->q.goals = NULL;
  b->q.ngoals = 0;
  if (q->ngoals > 0) {
    b->goals = mem(b, q->ngoals * 2u, sizeof(int32_t));
    if (b->goals == NULL) goto fail;
    memcpy(b->goals, q->goals, q->ngoals * 2u * sizeof(int32_t));
    b->q.goals = b->goals;
    b->q.ngoals = q->ngoals;
  }
  if (n > 0) {
    b->coords = mem(b, (size_t)n * 4u, sizeof(int32_t));
    b->res = mem(b, n, sizeof(astar_batch_result));
    b->chunks = mem(b, b->nchunks, sizeof(chunk_buf));
    if (b->coords == NULL || b->res == NULL || b->chunks == NULL) goto fail;
    memset(b->coords, 0, (size_t)n * 4u * sizeof(int32_t));
    memset(b->res, 0, (size_t)n * sizeof(astar_batch_result));
    memset(b->chunks, 0, (size_t)b->nchunks * sizeof(chunk_buf));
  }
  *out = b;
  return ASTAR_OK;
fail:
  astar_batch_free(b);
  return ASTAR_ENOMEM;
}

int32_t *astar_batch_coords(astar_batch *b) { return b->coords; }
uint32_t astar_batch_size(const astar_batch *b) { return b->n; }

const astar_batch_result *astar_batch_results(const astar_batch *b) {
  return b->res;
}

const uint16_t *astar_batch_path(const astar_batch *b,
                                 const astar_batch_result *r) {
  if (r->length == 0) return NULL;
  return b->chunks[r->chunk].xy + r->offset;
}

int astar_batch_status(const astar_batch *b, uint32_t *query) {
  if (query != NULL) *query = b->error_query;
  return b->status;
}

/* Copies the last search's path (len tiles) into chunk c's buffer. */
static int keep_path(astar_batch *b, uint32_t c, const astar_search *s,
                     astar_batch_result *r, uint32_t len) {
  chunk_buf *k = &b->chunks[c];
  size_t need = k->used + 2u * (size_t)len, i;
  uint32_t node;
  if (need > k->cap) {
    void *p = k->xy;
    if (astar__grow(b->alloc, b->ud, &p, &k->cap, need, sizeof(uint16_t),
                    256u) != ASTAR_OK)
      return ASTAR_ENOMEM;
    k->xy = (uint16_t *)p;
  }
  r->chunk = c;
  r->offset = (uint32_t)k->used;
  r->length = len;
  /* the walk goes from the end back to the start: fill from the end */
  node = astar_path_last(s);
  i = k->used + 2u * (size_t)len;
  do {
    int32_t x, y;
    astar_xy(b->g, node, &x, &y);
    k->xy[--i] = (uint16_t)(y + 1);
    k->xy[--i] = (uint16_t)(x + 1);
  } while (astar_path_prev(s, &node) && i > k->used);
  k->used = need;
  return ASTAR_OK;
}

/* Runs chunk c with context s; returns the first error (and its query in
 * *where), or ASTAR_OK. */
static int run_chunk(astar_batch *b, uint32_t c, astar_search *s,
                     uint32_t *where) {
  uint32_t i = c * b->chunk_size, end = i + b->chunk_size;
  int first = ASTAR_OK;
  if (end > b->n) end = b->n;
  for (; i < end; i++) {
    astar_query q = b->q;
    astar_result r;
    astar_batch_result *out = &b->res[i];
    const int32_t *xy = b->coords + (size_t)i * 4u;
    int st;
    q.sx = xy[0];
    q.sy = xy[1];
    q.gx = xy[2];
    q.gy = xy[3];
    st = astar_find_path(s, b->g, &q, &r);
    out->outcome = r.outcome;
    out->partial = r.partial;
    out->cost = r.cost;
    out->length = 0;
    if (st == ASTAR_OK && (r.outcome == ASTAR_FOUND || r.partial))
      st = keep_path(b, c, s, out, r.corners != 0 ? r.corners : r.length);
    if (st != ASTAR_OK) {
      out->outcome = ASTAR_NO_PATH;
      out->partial = 0;
      out->length = 0;
      if (first == ASTAR_OK) {
        first = st;
        *where = i;
      }
    }
  }
  return first;
}

static void note_error(astar_batch *b, int st, uint32_t where) {
  if (st == ASTAR_OK) return;
  if (b->status == ASTAR_OK || where < b->error_query) {
    b->status = st;
    b->error_query = where;
  }
}

void astar_batch_run(astar_batch *b, astar_search *s) {
  uint32_t c;
  for (c = b->next; c < b->nchunks; c++) {
    uint32_t where = 0;
    int st = run_chunk(b, c, s, &where);
    note_error(b, st, where);
  }
  b->next = b->finished = b->nchunks;
  b->done = 1;
}

/* ---- the pool ---- */

typedef struct worker {
  astar_workers *w;
  pthread_t thread;
  astar_search ctx;
} worker;

struct astar_workers {
  astar_alloc_fn alloc;
  void *ud;
  pthread_mutex_t lock;
  pthread_cond_t work, done;
  astar_batch *head, *tail; /* batches with chunks not taken */
  int stop;
  int n;                    /* threads running */
  worker *ws;
};

/* What the system says, or 0 when it cannot say. */
static long cpus_online(void) {
#if defined(_WIN32)
  SYSTEM_INFO si;
  GetSystemInfo(&si);
  return (long)si.dwNumberOfProcessors;
#elif defined(_SC_NPROCESSORS_ONLN)
  return sysconf(_SC_NPROCESSORS_ONLN);
#else
  return 0;
#endif
}

int astar_cpu_count(void) {
  long n = cpus_online();
  /* cppcheck-suppress knownConditionTrueFalse ; not where sysconf says */
  if (n < 1) return 1;
  return n > ASTAR_MAX_WORKERS ? ASTAR_MAX_WORKERS : (int)n;
}

/* Takes the next chunk (locked); NULL when there is none. */
static astar_batch *take(astar_workers *w, uint32_t *c) {
  astar_batch *b = w->head;
  if (b == NULL) return NULL;
  *c = b->next++;
  if (b->next == b->nchunks) { /* every chunk taken: off the queue */
    w->head = b->queue_next;
    if (w->head == NULL) w->tail = NULL;
    b->queue_next = NULL;
  }
  return b;
}

static void chunk_done(astar_workers *w, astar_batch *b, uint32_t n) {
  b->finished += n;
  if (b->finished == b->nchunks && !b->done) {
    b->done = 1;
    pthread_cond_broadcast(&w->done);
  }
}

static void *work(void *arg) {
  worker *me = (worker *)arg;
  astar_workers *w = me->w;
  pthread_mutex_lock(&w->lock);
  for (;;) {
    astar_batch *b;
    uint32_t c = 0, where = 0;
    int st;
    while (!w->stop && w->head == NULL) pthread_cond_wait(&w->work, &w->lock);
    if (w->stop) break;
    b = take(w, &c);
    pthread_mutex_unlock(&w->lock);
    st = run_chunk(b, c, &me->ctx, &where);
    pthread_mutex_lock(&w->lock);
    note_error(b, st, where);
    chunk_done(w, b, 1);
  }
  pthread_mutex_unlock(&w->lock);
  return NULL;
}

static void stop_threads(astar_workers *w) {
  int k;
  astar_batch *b;
  pthread_mutex_lock(&w->lock);
  w->stop = 1;
  /* chunks not taken are cancelled; running ones finish */
  for (b = w->head; b != NULL;) {
    astar_batch *next = b->queue_next;
    uint32_t left = b->nchunks - b->next;
    if (b->status == ASTAR_OK) {
      b->status = ASTAR_ECANCELLED;
      b->error_query = b->next * b->chunk_size;
    }
    b->next = b->nchunks;
    b->queue_next = NULL;
    chunk_done(w, b, left);
    b = next;
  }
  w->head = w->tail = NULL;
  pthread_cond_broadcast(&w->work);
  pthread_mutex_unlock(&w->lock);
  for (k = 0; k < w->n; k++) pthread_join(w->ws[k].thread, NULL);
  w->n = 0;
}

void astar_workers_free(astar_workers *w) {
  int k;
  if (w == NULL) return;
  stop_threads(w);
  if (w->ws != NULL) {
    for (k = 0; k < ASTAR_MAX_WORKERS && w->ws[k].w == w; k++)
      astar_search_release(&w->ws[k].ctx);
  }
  pthread_cond_destroy(&w->work);
  pthread_cond_destroy(&w->done);
  pthread_mutex_destroy(&w->lock);
  w->alloc(w->ud, w->ws, 0, 0);
  w->alloc(w->ud, w, sizeof *w, 0);
}

int astar_workers_new(astar_workers **out, int n, astar_alloc_fn alloc,
                      void *ud) {
  astar_workers *w;
  int k;
  *out = NULL;
  if (n < 1 || n > ASTAR_MAX_WORKERS) return ASTAR_EINVAL;
  w = alloc(ud, NULL, 0, sizeof *w);
  if (w == NULL) return ASTAR_ENOMEM;
  memset(w, 0, sizeof *w);
  w->alloc = alloc;
  w->ud = ud;
  /* one spare slot: its w stays NULL and ends the release loop */
  w->ws = astar__mem(alloc, ud, (size_t)n + 1u, sizeof(worker));
  if (w->ws == NULL) {
    alloc(ud, w, sizeof *w, 0);
    return ASTAR_ENOMEM;
  }
  memset(w->ws, 0, ((size_t)n + 1u) * sizeof(worker));
  pthread_mutex_init(&w->lock, NULL);
  pthread_cond_init(&w->work, NULL);
  pthread_cond_init(&w->done, NULL);
  for (k = 0; k < n; k++) {
    w->ws[k].w = w;
    astar_search_init(&w->ws[k].ctx, alloc, ud);
  }
  for (k = 0; k < n; k++) {
    if (pthread_create(&w->ws[k].thread, NULL, work, &w->ws[k]) != 0) {
      astar_workers_free(w); /* joins the k started */
      return ASTAR_EINVAL;
    }
    w->n = k + 1;
  }
  *out = w;
  return ASTAR_OK;
}

int astar_workers_count(const astar_workers *w) {
  int k = 0;
  while (k < ASTAR_MAX_WORKERS && w->ws[k].w == w) k++;
  return k;
}

int astar_workers_submit(astar_workers *w, astar_batch *b) {
  pthread_mutex_lock(&w->lock);
  if (w->stop) {
    pthread_mutex_unlock(&w->lock);
    return ASTAR_EINVAL;
  }
  b->queue_next = NULL;
  if (b->nchunks == 0) {
    b->done = 1;
  } else {
    if (w->tail != NULL)
      w->tail->queue_next = b;
    else
      w->head = b;
    w->tail = b;
    /* one wake per chunk, at most one per thread */
    if (b->nchunks == 1)
      pthread_cond_signal(&w->work);
    else
      pthread_cond_broadcast(&w->work);
  }
  pthread_mutex_unlock(&w->lock);
  return ASTAR_OK;
}

int astar_workers_done(astar_workers *w, const astar_batch *b) {
  int done;
  pthread_mutex_lock(&w->lock);
  done = b->done;
  pthread_mutex_unlock(&w->lock);
  return done;
}

void astar_workers_wait(astar_workers *w, const astar_batch *b) {
  pthread_mutex_lock(&w->lock);
  while (!b->done) pthread_cond_wait(&w->done, &w->lock);
  pthread_mutex_unlock(&w->lock);
}

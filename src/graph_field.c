/*
 * Fields on explicit graphs: a multi-source Dijkstra from the goals over
 * the graph's in-edges (a "to" field: each node's cost to the nearest
 * goal) or out-edges (a "from" field), keeping for every node its value
 * and the step the build chose, so that following the field (next step,
 * path) reads the field alone.  Heap keys are the bits of (g - the least
 * start value), which order as the doubles do.
 */
#include "astar.h"
#include "heap.h"
#include "internal.h"

#include <math.h>
#include <string.h>

void astar_graph_field_init(astar_graph_field *f, astar_alloc_fn alloc,
                            void *ud) {
  memset(f, 0, sizeof *f);
  f->alloc = alloc;
  f->alloc_ud = ud;
}

static void arrays_free(astar_graph_field *f) {
  astar__mem_free(f->alloc, f->alloc_ud, f->value, f->cap, sizeof(double));
  astar__mem_free(f->alloc, f->alloc_ud, f->step, f->cap, sizeof(double));
  astar__mem_free(f->alloc, f->alloc_ud, f->next, f->cap, sizeof(uint32_t));
  astar__mem_free(f->alloc, f->alloc_ud, f->order, f->cap, sizeof(uint32_t));
  astar__mem_free(f->alloc, f->alloc_ud, f->rank, f->cap, sizeof(uint32_t));
  astar__mem_free(f->alloc, f->alloc_ud, f->pos, f->cap, sizeof(uint32_t));
  f->value = f->step = NULL;
  f->next = f->order = f->rank = f->pos = NULL;
  f->cap = f->n = f->count = 0;
}

void astar_graph_field_release(astar_graph_field *f) {
  if (f->alloc == NULL) return;
  arrays_free(f);
  astar__mem_free(f->alloc, f->alloc_ud, f->heap, f->heap_cap,
                  sizeof(astar_heap_entry));
  f->heap = NULL;
  f->heap_cap = 0;
}

size_t astar_graph_field_memory(const astar_graph_field *f) {
  return (size_t)f->cap * (2 * sizeof(double) + 4 * sizeof(uint32_t)) +
         f->heap_cap * sizeof(astar_heap_entry);
}

/* Room for n nodes (all or nothing). */
static int fit(astar_graph_field *f, uint32_t n) {
  astar_graph_field t;
  if (n <= f->cap && f->value != NULL) return ASTAR_OK;
  memset(&t, 0, sizeof t);
  t.alloc = f->alloc;
  t.alloc_ud = f->alloc_ud;
  t.cap = n > 0 ? n : 1;
  t.value = astar__mem(f->alloc, f->alloc_ud, t.cap, sizeof(double));
  t.step = astar__mem(f->alloc, f->alloc_ud, t.cap, sizeof(double));
  t.next = astar__mem(f->alloc, f->alloc_ud, t.cap, sizeof(uint32_t));
  t.order = astar__mem(f->alloc, f->alloc_ud, t.cap, sizeof(uint32_t));
  t.rank = astar__mem(f->alloc, f->alloc_ud, t.cap, sizeof(uint32_t));
  t.pos = astar__mem(f->alloc, f->alloc_ud, t.cap, sizeof(uint32_t));
  if (t.value == NULL || t.step == NULL || t.next == NULL ||
      t.order == NULL || t.rank == NULL || t.pos == NULL) {
    arrays_free(&t);
    return ASTAR_ENOMEM;
  }
  arrays_free(f);
  f->value = t.value;
  f->step = t.step;
  f->next = t.next;
  f->order = t.order;
  f->rank = t.rank;
  f->pos = t.pos;
  f->cap = t.cap;
  return ASTAR_OK;
}

static int grow_heap(astar_graph_field *f, size_t need) {
  size_t cap = f->heap_cap ? f->heap_cap : 64;
  astar_heap_entry *h;
  if (need <= f->heap_cap) return ASTAR_OK;
  while (cap < need) {
    if (cap > SIZE_MAX / 2 / sizeof(astar_heap_entry)) return ASTAR_ENOMEM;
    cap *= 2;
  }
  h = astar__mem(f->alloc, f->alloc_ud, cap, sizeof(astar_heap_entry));
  if (h == NULL) return ASTAR_ENOMEM;
  if (f->heap != NULL) memcpy(h, f->heap, f->heap_cap * sizeof *h);
  astar__mem_free(f->alloc, f->alloc_ud, f->heap, f->heap_cap, sizeof *h);
  f->heap = h;
  f->heap_cap = cap;
  return ASTAR_OK;
}

/* Offers g to node v through next (edge cost c). */
static int offer(astar_graph_field *f, size_t *n, double base, uint32_t v,
                 double g, uint32_t next, double c) {
  astar_heap_entry e;
  size_t at;
  double k = g - base;
  if (f->rank[v] != UINT32_MAX) return ASTAR_OK; /* closed */
  if (f->pos[v] != UINT32_MAX) {
    at = f->pos[v];
    if (g >= f->heap[at].g) return ASTAR_OK;
  } else {
    if (*n == f->heap_cap && grow_heap(f, *n + 1) != ASTAR_OK)
      return ASTAR_ENOMEM;
    at = (*n)++;
  }
  if (!(k > 0.0)) k = 0.0;
  memcpy(&e.key, &k, sizeof k);
  e.g = g;
  e.node = v;
  e.aux = 0;
  f->next[v] = next;
  f->step[v] = c;
  astar__heap_up(f->heap, f->pos, at, e, 0);
  return ASTAR_OK;
}

int astar_graph_field_build(astar_graph_field *f, const astar_graph *g,
                            const astar_graph_field_query *q) {
  const int to = q->direction == ASTAR_FIELD_TO;
  const astar_adjacency *adj = to ? &g->in : &g->out;
  double base = HUGE_VAL, max_cost = q->max_cost == q->max_cost
                                          ? q->max_cost : HUGE_VAL;
  size_t i, n = 0;
  uint32_t v;
  int st;
  f->count = 0;
  f->n = 0;
  if (q->direction != ASTAR_FIELD_TO && q->direction != ASTAR_FIELD_FROM)
    return ASTAR_EINVAL;
  for (i = 0; i < q->ngoals; i++) {
    double s = q->values != NULL ? q->values[i] : 0.0;
    if (q->goals[i] >= g->n || !(s == s) || fabs(s) > 1e300)
      return ASTAR_EINVAL;
    if (s < base) base = s;
  }
  if ((st = fit(f, g->n)) != ASTAR_OK) return st;
  if ((st = grow_heap(f, q->ngoals + 1)) != ASTAR_OK) return st;
  for (v = 0; v < g->n; v++) f->rank[v] = f->pos[v] = UINT32_MAX;
  f->n = g->n;
  f->direction = q->direction;
  f->version = g->version;
  for (i = 0; i < q->ngoals; i++) {
    double s = q->values != NULL ? q->values[i] : 0.0;
    v = q->goals[i];
    if ((g->flags[v] & ASTAR_NODE_DISABLED) || s > max_cost) continue;
    if ((st = offer(f, &n, base, v, s, UINT32_MAX, 0.0)) != ASTAR_OK)
      return st;
  }
  while (n > 0) {
    uint32_t u = f->heap[0].node, k, end;
    double gu = f->heap[0].g;
    if (n > 1) astar__heap_pop(f->heap, f->pos, n, 0);
    n--;
    f->pos[u] = UINT32_MAX;
    f->value[u] = gu;
    f->rank[u] = f->count;
    f->order[f->count++] = u;
    end = adj->first[u] + adj->deg[u];
    for (k = adj->first[u]; k < end; k++) {
      uint32_t w = adj->to[k];
      double ng = gu + adj->cost[k];
      if ((g->flags[w] & ASTAR_NODE_DISABLED) || ng > max_cost) continue;
      if ((st = offer(f, &n, base, w, ng, u, adj->cost[k])) != ASTAR_OK) {
        f->count = 0;
        for (v = 0; v < f->n; v++) f->rank[v] = UINT32_MAX;
        return st;
      }
    }
  }
  return ASTAR_OK;
}

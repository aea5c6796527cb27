/*
 * Explicit graphs (astar_graph): nodes with optional positions, weighted
 * directed edges, disabled nodes, the edit counter, zones (connected
 * components) and the bounds the heuristic and the heap keys need.
 *
 * Adjacency is CSR-like but editable: each node's edges are one run of
 * slots in a pool (to, cost).  A run that is full moves to the pool's end
 * with twice the room; the slots it leaves are dead space, and when that
 * is over half of the pool the pool is rebuilt compact (amortised O(1) per
 * edit).  Every edge is kept twice: out of its tail and into its head.
 * Searches read the graph only (graph_search.c).
 */
#include "astar.h"
#include "internal.h"

#include <math.h>
#include <string.h>

#define gmem(g, count, elem) astar__mem((g)->alloc, (g)->alloc_ud, count, elem)
#define gfree(g, p, count, elem) \
  astar__mem_free((g)->alloc, (g)->alloc_ud, p, count, elem)

void astar_graph_init(astar_graph *g, astar_alloc_fn alloc, void *ud) {
  memset(g, 0, sizeof *g);
  g->alloc = alloc;
  g->alloc_ud = ud;
  g->ratio = g->min_cost = HUGE_VAL;
}

/* Memory comes in two kinds of block, each replaced whole when it grows
 * (so a failed growth leaves everything as it was): one for the per-node
 * arrays, and one pool per adjacency (cost[cap] then to[cap]). */
#define NODE_BYTES (3 * sizeof(double) + 8 * sizeof(uint32_t) + 1)
#define SLOT_BYTES (sizeof(double) + sizeof(uint32_t))

void astar_graph_release(astar_graph *g) {
  if (g->alloc == NULL) return;
  gfree(g, g->pos, g->cap, NODE_BYTES);
  gfree(g, g->out.cost, g->out.cap, SLOT_BYTES);
  gfree(g, g->in.cost, g->in.cap, SLOT_BYTES);
  astar_graph_init(g, g->alloc, g->alloc_ud);
}

size_t astar_graph_memory(const astar_graph *g) {
  return (size_t)g->cap * NODE_BYTES + (g->out.cap + g->in.cap) * SLOT_BYTES;
}

/* ---- per-node arrays ---- */

int astar_graph_reserve(astar_graph *g, uint32_t n) {
  uint32_t old = g->cap, *u;
  double *pos;
  uint32_t *arrays[8];
  const uint32_t *olds[8];
  int i;
  if (n <= old) return ASTAR_OK;
  if (n > ASTAR_GRAPH_MAX_NODES) return ASTAR_ETOOBIG;
  if ((pos = gmem(g, n, NODE_BYTES)) == NULL) return ASTAR_ENOMEM;
  u = (uint32_t *)(void *)(pos + 3 * (size_t)n);
  olds[0] = g->zparent, olds[1] = g->zsize;
  olds[2] = g->out.first, olds[3] = g->out.deg, olds[4] = g->out.room;
  olds[5] = g->in.first, olds[6] = g->in.deg, olds[7] = g->in.room;
  for (i = 0; i < 8; i++) {
    arrays[i] = u + (size_t)i * n;
    if (g->n != 0) memcpy(arrays[i], olds[i], g->n * sizeof(uint32_t));
  }
  if (g->n != 0) {
    memcpy(pos, g->pos, 3 * (size_t)g->n * sizeof(double));
    memcpy(u + 8 * (size_t)n, g->flags, g->n);
  }
  gfree(g, g->pos, old, NODE_BYTES);
  g->pos = pos;
  g->zparent = arrays[0], g->zsize = arrays[1];
  g->out.first = arrays[2], g->out.deg = arrays[3], g->out.room = arrays[4];
  g->in.first = arrays[5], g->in.deg = arrays[6], g->in.room = arrays[7];
  g->flags = (uint8_t *)(u + 8 * (size_t)n);
  g->cap = n;
  return ASTAR_OK;
}

int astar_graph_add_node(astar_graph *g, int placed, const double *pos,
                         uint32_t *id) {
  uint32_t v = g->n;
  int st;
  if (v >= ASTAR_GRAPH_MAX_NODES) return ASTAR_ETOOBIG;
  if (v == g->cap) {
    uint32_t want = g->cap < 16 ? 16 : g->cap;
    if (want > ASTAR_GRAPH_MAX_NODES - g->cap) want = ASTAR_GRAPH_MAX_NODES;
    else want += g->cap;
    if ((st = astar_graph_reserve(g, want)) != ASTAR_OK) return st;
  }
  g->pos[3 * (size_t)v] = placed ? pos[0] : 0.0;
  g->pos[3 * (size_t)v + 1] = placed ? pos[1] : 0.0;
  g->pos[3 * (size_t)v + 2] = placed ? pos[2] : 0.0;
  g->flags[v] = placed ? ASTAR_NODE_PLACED : 0;
  if (!placed) g->unplaced++;
  g->out.first[v] = g->out.deg[v] = g->out.room[v] = 0;
  g->in.first[v] = g->in.deg[v] = g->in.room[v] = 0;
  g->zparent[v] = v;
  g->zsize[v] = 1;
  g->nzones++;
  g->n = v + 1;
  g->version++;
  *id = v;
  return ASTAR_OK;
}

/* ---- the edge pool ---- */

static long adj_find(const astar_adjacency *A, uint32_t a, uint32_t b) {
  uint32_t i, f = A->first[a], d = A->deg[a];
  for (i = 0; i < d; i++)
    if (A->to[f + i] == b) return (long)f + (long)i;
  return -1;
}

/* A new pool of cap slots holding every run (dead space dropped when
 * compact, else copied as it is); a's run then gets room slots at the
 * end. */
static int adj_repool(astar_graph *g, astar_adjacency *A, size_t cap,
                      int compact, uint32_t a, uint32_t room) {
  size_t at = 0;
  uint32_t v, *to;
  double *cost = gmem(g, cap, SLOT_BYTES);
  if (cost == NULL) return ASTAR_ENOMEM;
  to = (uint32_t *)(void *)(cost + cap);
  if (compact) {
    for (v = 0; v < g->n; v++) {
      uint32_t f = A->first[v], d = A->deg[v];
      if (v == a) continue;
      if (d != 0) {
        memcpy(to + at, A->to + f, d * sizeof(uint32_t));
        memcpy(cost + at, A->cost + f, d * sizeof(double));
      }
      A->first[v] = (uint32_t)at;
      at += A->room[v];
    }
    A->dead = 0;
  } else if (A->used != 0) {
    memcpy(to, A->to, A->used * sizeof(uint32_t));
    memcpy(cost, A->cost, A->used * sizeof(double));
    at = A->used;
  }
  if (A->deg[a] != 0) {
    memcpy(to + at, A->to + A->first[a], A->deg[a] * sizeof(uint32_t));
    memcpy(cost + at, A->cost + A->first[a], A->deg[a] * sizeof(double));
  }
  if (!compact) A->dead += A->room[a];
  A->first[a] = (uint32_t)at;
  A->room[a] = room;
  gfree(g, A->cost, A->cap, SLOT_BYTES);
  A->cost = cost;
  A->to = to;
  A->cap = cap;
  A->used = at + room;
  return ASTAR_OK;
}

/* Appends a -> b to a's run (b not there yet). */
static int adj_add(astar_graph *g, astar_adjacency *A, uint32_t a, uint32_t b,
                   double cost) {
  if (A->deg[a] == A->room[a]) { /* move the run to the end, doubled */
    uint32_t room = A->room[a] ? 2 * A->room[a] : 2, f = A->first[a];
    if ((size_t)room > 0xFFFFFFF0u - A->used) return ASTAR_ETOOBIG;
    if (A->dead > 1024 && A->dead > A->used / 2) {
      size_t live = A->used - A->dead - A->room[a] + room;
      if (adj_repool(g, A, live + live / 2, 1, a, room) != ASTAR_OK)
        return ASTAR_ENOMEM;
    } else if (A->used + room > A->cap) {
      size_t cap = A->cap < 64 ? 64 : A->cap;
      while (cap < A->used + room) cap *= 2;
      if (adj_repool(g, A, cap, 0, a, room) != ASTAR_OK)
        return ASTAR_ENOMEM;
    } else {
      if (A->deg[a] != 0) {
        memcpy(A->to + A->used, A->to + f, A->deg[a] * sizeof(uint32_t));
        memcpy(A->cost + A->used, A->cost + f, A->deg[a] * sizeof(double));
      }
      A->dead += A->room[a];
      A->first[a] = (uint32_t)A->used;
      A->room[a] = room;
      A->used += room;
    }
  }
  A->to[A->first[a] + A->deg[a]] = b;
  A->cost[A->first[a] + A->deg[a]] = cost;
  A->deg[a]++;
  return ASTAR_OK;
}

static void adj_remove(astar_adjacency *A, uint32_t a, long at) {
  uint32_t last = A->first[a] + A->deg[a] - 1;
  A->to[at] = A->to[last];
  A->cost[at] = A->cost[last];
  A->deg[a]--;
}

/* ---- zones and bounds ---- */

static uint32_t zfind(const astar_graph *g, uint32_t v) {
  while (g->zparent[v] != v) v = g->zparent[v];
  return v;
}

static void zunion(astar_graph *g, uint32_t a, uint32_t b) {
  uint32_t ra = zfind(g, a), rb = zfind(g, b), t;
  /* path halving on the way up keeps the trees shallow */
  while (g->zparent[a] != ra) {
    t = g->zparent[a];
    g->zparent[a] = ra;
    a = t;
  }
  while (g->zparent[b] != rb) {
    t = g->zparent[b];
    g->zparent[b] = rb;
    b = t;
  }
  if (ra == rb) return;
  if (g->zsize[ra] < g->zsize[rb]) {
    t = ra;
    ra = rb;
    rb = t;
  }
  g->zparent[rb] = ra;
  g->zsize[ra] += g->zsize[rb];
  g->nzones--;
}

static double edge_length(const astar_graph *g, uint32_t a, uint32_t b) {
  const double *p = g->pos + 3 * (size_t)a, *q = g->pos + 3 * (size_t)b;
  double dx = p[0] - q[0], dy = p[1] - q[1], dz = p[2] - q[2];
  return sqrt(dx * dx + dy * dy + dz * dz);
}

/* Lowers the bounds for an edge a -> b of cost c. */
static void bound_edge(astar_graph *g, uint32_t a, uint32_t b, double c) {
  if (c > 0.0 && c < g->min_cost) g->min_cost = c;
  if ((g->flags[a] & g->flags[b] & ASTAR_NODE_PLACED)) {
    double len = edge_length(g, a, b);
    if (len > 0.0 && c / len < g->ratio) g->ratio = c / len;
  }
}

int astar_graph_set_edge(astar_graph *g, uint32_t a, uint32_t b,
                         double cost) {
  long at = adj_find(&g->out, a, b);
  int st;
  if (cost < 0.0) { /* remove */
    long back;
    if (at < 0) return ASTAR_OK;
    back = adj_find(&g->in, b, a);
    adj_remove(&g->out, a, at);
    if (back >= 0) adj_remove(&g->in, b, back);
    g->nedges--;
    g->zones_stale = g->bounds_stale = 1;
    g->version++;
    return ASTAR_OK;
  }
  if (at >= 0) { /* change the cost */
    long back = adj_find(&g->in, b, a);
    double old = g->out.cost[at];
    g->out.cost[at] = cost;
    if (back >= 0) g->in.cost[back] = cost;
    if (cost > old) g->bounds_stale = 1;
    else if (!g->bounds_stale) bound_edge(g, a, b, cost);
    g->version++;
    return ASTAR_OK;
  }
  if ((st = adj_add(g, &g->out, a, b, cost)) != ASTAR_OK) return st;
  if ((st = adj_add(g, &g->in, b, a, cost)) != ASTAR_OK) {
    adj_remove(&g->out, a, (long)(g->out.first[a] + g->out.deg[a] - 1));
    return st;
  }
  g->nedges++;
  if (!g->zones_stale) zunion(g, a, b);
  if (!g->bounds_stale) bound_edge(g, a, b, cost);
  g->version++;
  return ASTAR_OK;
}

double astar_graph_edge(const astar_graph *g, uint32_t a, uint32_t b) {
  long at = adj_find(&g->out, a, b);
  return at < 0 ? -1.0 : g->out.cost[at];
}

void astar_graph_disable(astar_graph *g, uint32_t id, int disabled) {
  if (disabled)
    g->flags[id] |= ASTAR_NODE_DISABLED;
  else
    g->flags[id] &= (uint8_t)~ASTAR_NODE_DISABLED;
  g->version++;
}

int astar_graph_prepare(astar_graph *g) {
  uint32_t v, i;
  if (g->zones_stale) {
    for (v = 0; v < g->n; v++) {
      g->zparent[v] = v;
      g->zsize[v] = 1;
    }
    g->nzones = g->n;
    for (v = 0; v < g->n; v++)
      for (i = 0; i < g->out.deg[v]; i++)
        zunion(g, v, g->out.to[g->out.first[v] + i]);
    g->zones_stale = 0;
  }
  if (g->bounds_stale) {
    g->ratio = g->min_cost = HUGE_VAL;
    for (v = 0; v < g->n; v++)
      for (i = 0; i < g->out.deg[v]; i++) {
        uint32_t at = g->out.first[v] + i;
        bound_edge(g, v, g->out.to[at], g->out.cost[at]);
      }
    g->bounds_stale = 0;
  }
  return ASTAR_OK;
}

int astar_graph_zone(const astar_graph *g, uint32_t id, uint32_t *zone) {
  if (g->zones_stale) return ASTAR_EPREPARE;
  if (id >= g->n) return ASTAR_EINVAL;
  *zone = zfind(g, id);
  return ASTAR_OK;
}

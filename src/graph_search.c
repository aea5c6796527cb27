/*
 * Searches on explicit graphs: the A* family (A*, weighted A*, Dijkstra,
 * breadth-first by edges, greedy best-first) and bidirectional Dijkstra,
 * on a search context (astar_search) sized by the graph's node capacity.
 *
 * The same habits as the grid's loop (astar_loop.c): generation stamps
 * make "reset" O(1); heap.h's open list with decrease-key and keys in
 * fixed point (2^-24 of the cheapest edge), ties to the larger g; an open
 * node's g lives in its heap entry.  Per node the context keeps a parent
 * and the heuristic (computed once per node and search, so a Lua
 * heuristic runs once per node).  Goals are marked in the stamps.
 */
#include "astar.h"
#include "heap.h"
#include "internal.h"

#include <math.h>
#include <string.h>

/* Stamp bits under the generation: goal (marked at setup), seen (on the
 * open list or closed in this search), closed. */
#define ST_GOAL 1u
#define ST_SEEN 4u
#define ST_CLOSED 8u
#define MAX_H_GOALS ASTAR__MAX_H_GOALS

#define MODE_FIFO 1
#define MODE_GREEDY 2
/* ASTAR__HEAP_STRAIGHT (512): equal keys ordered by aux, a seeded random
 * number per node (random ties) */

void astar_graph_query_defaults(astar_graph_query *q) {
  memset(q, 0, sizeof *q);
  q->algorithm = ASTAR_ALGO_ASTAR;
  q->heuristic = ASTAR_H_EUCLIDEAN;
  q->weight = 1.0;
  q->max_cost = HUGE_VAL;
}

typedef struct gsearch {
  const astar_graph *G;
  astar_search *s;
  const astar_graph_query *q;
  astar_result *r;
  uint32_t tag;
  int hzero;       /* the heuristic is 0 everywhere */
  double A;        /* euclidean: scale (ratio * weight) */
  double inv_q;
  int st;          /* a heuristic callback's failure */
  uint64_t rng;
  double max_cost;
  int cut;
  uint32_t best;   /* closest: the node, its distance, its g */
  double best_d, best_g;
} gsearch;

static uint64_t next_random(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15u);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}

static double distance(const astar_graph *G, uint32_t a, uint32_t b) {
  const double *p = G->pos + 3 * (size_t)a, *q = G->pos + 3 * (size_t)b;
  double dx = p[0] - q[0], dy = p[1] - q[1], dz = p[2] - q[2];
  return sqrt(dx * dx + dy * dy + dz * dz);
}

/* The heuristic of node v: the least estimate over the goals. */
static double h_node(gsearch *S, uint32_t v) {
  const astar_graph_query *q = S->q;
  double best = HUGE_VAL;
  size_t i;
  if (S->hzero) return 0.0;
  for (i = 0; i < q->ngoals; i++) {
    double e = 0.0;
    if (q->heuristic_fn != NULL) {
      if (q->heuristic_fn(q->heuristic_ud, v, q->goals[i], &e) != ASTAR_OK) {
        S->st = ASTAR_ECALLBACK;
        return 0.0;
      }
      e *= q->weight;
    } else {
      e = S->A * distance(S->G, v, q->goals[i]);
    }
    if (e < best) best = e;
  }
  return best > 0.0 ? best : 0.0;
}

/* closest: how near node v is to the goals */
static double nearness(gsearch *S, uint32_t v) {
  const astar_graph_query *q = S->q;
  double best = HUGE_VAL;
  size_t i;
  if (S->G->unplaced != 0) return S->s->graphx->h[v];
  for (i = 0; i < q->ngoals; i++) {
    double d = distance(S->G, v, q->goals[i]);
    if (d < best) best = d;
  }
  return best;
}

static void consider(gsearch *S, uint32_t u, double g) {
  double d = nearness(S, u);
  if (d < S->best_d ||
      (d == S->best_d && (g < S->best_g || (g == S->best_g && u < S->best)))) {
    S->best_d = d;
    S->best_g = g;
    S->best = u;
  }
}

/* The path start .. end from the parents (and, bidirectional, on from
 * the meeting node to a goal through the backward parents). */
static int write_path(gsearch *S, uint32_t meet, int bidir) {
  astar_search *s = S->s;
  astar__graphx *gx = s->graphx;
  uint32_t v, len = 1, back = 0, i;
  void *p = gx->path;
  int st;
  for (v = meet; v != S->q->start; v = gx->parent[v]) len++;
  if (bidir)
    for (v = meet; !(s->more->stamp_b[v] & ST_GOAL); v = gx->parent_b[v])
      back++;
  if ((st = astar__context_grow(s, &p, &gx->path_cap, (size_t)len + back,
                                sizeof(uint32_t))) != ASTAR_OK)
    return st;
  gx->path = p;
  for (v = meet, i = len; i > 0; v = gx->parent[v]) {
    gx->path[--i] = v;
    if (v == S->q->start) break;
  }
  for (v = meet, i = len; i < len + back; i++) {
    v = gx->parent_b[v];
    gx->path[i] = v;
  }
  gx->path_len = len + back;
  S->r->length = len + back;
  S->r->end_x = (int32_t)gx->path[len + back - 1];
  return ASTAR_OK;
}

static int32_t goal_index(const astar_graph_query *q, uint32_t v) {
  size_t i;
  for (i = 0; i < q->ngoals; i++)
    if (q->goals[i] == v) return (int32_t)i;
  return -1;
}

/* The A* family loop; mode is a constant in each instantiation. */
ASTAR__HOT_INLINE int run(gsearch *S, const int mode) {
  const astar_graph *G = S->G;
  const astar_graph_query *q = S->q;
  astar_search *ctx = S->s;
  astar__graphx *gx = ctx->graphx;
  const uint32_t *first = G->out.first, *deg = G->out.deg, *to = G->out.to;
  const double *cost = G->out.cost;
  const uint8_t *flags = G->flags;
  uint32_t *pos = ctx->heap_pos, *stamp = ctx->stamp, *parent = gx->parent;
  double *hv = gx->h;
  astar_heap_entry *heap = ctx->heap;
  const uint32_t tag = S->tag, max_nodes = q->max_nodes;
  const double inv_q = S->inv_q, max_cost = S->max_cost;
  const int closest = q->closest;
  uint32_t expanded = 0, reached = UINT32_MAX;
  size_t n = 1, head = 0;
  int st = ASTAR_OK;

  while ((mode & MODE_FIFO) ? head < n : n > 0) {
    uint32_t u, i, f, d;
    double gu;
    if (max_nodes != 0 && expanded >= max_nodes) {
      S->cut = 1;
      break;
    }
    if (mode & MODE_FIFO) {
      u = heap[head].node;
      gu = heap[head].g;
      head++;
    } else {
      u = heap[0].node;
      gu = heap[0].g;
      if (n > 1) astar__heap_pop(heap, pos, n, mode);
      n--;
    }
    stamp[u] |= ST_CLOSED;
    expanded++;
    if (stamp[u] & ST_GOAL) {
      reached = u;
      S->r->cost = gu;
      break;
    }
    if (closest) consider(S, u, gu);
    for (f = first[u], d = deg[u], i = 0; i < d; i++) {
      uint32_t v = to[f + i], sv = stamp[v];
      int seen = (sv & ASTAR__STAMP_GEN) == tag && (sv & ST_SEEN);
      double ng, h;
      astar_heap_entry e;
      size_t at;
      if (seen && ((sv & ST_CLOSED) || (mode & MODE_FIFO))) continue;
      if (flags[v] & ASTAR_NODE_DISABLED) continue;
      ng = gu + cost[f + i];
      if (ng > max_cost) {
        S->cut = 1;
        continue;
      }
      if (seen) {
        at = pos[v];
        if (ng >= heap[at].g || (mode & MODE_GREEDY)) continue;
        h = hv[v];
        e.aux = heap[at].aux;
      } else {
        if (n == ctx->heap_cap) {
          if (astar__grow_heap(ctx) != ASTAR_OK) {
            st = ASTAR_ENOMEM;
            break;
          }
          heap = ctx->heap;
        }
        at = n++;
        h = (mode & MODE_FIFO) && !closest ? 0.0 : h_node(S, v);
        if (S->st != ASTAR_OK) {
          st = S->st;
          break;
        }
        hv[v] = h;
        stamp[v] = tag | ST_SEEN | ((sv & ASTAR__STAMP_GEN) == tag ? sv & ST_GOAL : 0);
        e.aux = (mode & ASTAR__HEAP_STRAIGHT)
                    ? (uint32_t)(next_random(&S->rng) >> 32)
                    : 0;
      }
      parent[v] = u;
      e.g = ng;
      e.node = v;
      if (mode & MODE_FIFO) {
        e.key = 0;
        heap[at] = e;
      } else {
        e.key = astar__quantise((mode & MODE_GREEDY) ? h : ng + h, inv_q);
        astar__heap_up(heap, pos, at, e, mode);
      }
    }
    if (st != ASTAR_OK) break;
  }
  S->r->expanded = expanded;
  S->r->generated = (uint32_t)(n - head) + expanded;
  if (st != ASTAR_OK) return st;
  if (reached != UINT32_MAX) {
    S->r->outcome = ASTAR_FOUND;
    S->r->goal_index = goal_index(q, reached);
    return write_path(S, reached, 0);
  }
  S->r->outcome = S->cut ? ASTAR_CUTOFF : ASTAR_NO_PATH;
  if (closest && S->best != UINT32_MAX) {
    S->r->partial = 1;
    S->r->cost = S->best_g;
    return write_path(S, S->best, 0);
  }
  return ASTAR_OK;
}

ASTAR__NOINLINE int run_plain(gsearch *S) { return run(S, 0); }
ASTAR__NOINLINE int run_random(gsearch *S) { return run(S, ASTAR__HEAP_STRAIGHT); }
ASTAR__NOINLINE int run_fifo(gsearch *S) { return run(S, MODE_FIFO); }
ASTAR__NOINLINE int run_greedy(gsearch *S) { return run(S, MODE_GREEDY); }
ASTAR__NOINLINE int run_greedy_random(gsearch *S) {
  return run(S, MODE_GREEDY | ASTAR__HEAP_STRAIGHT);
}

/* One side of bidirectional Dijkstra. */
typedef struct side {
  const astar_adjacency *A;
  uint32_t *stamp, *pos, *parent;
  double *g;
  astar_heap_entry **heap;
  size_t *cap;
  size_t n;
  uint32_t tag;
} side;

/* Expands the top of side a; b is the other side.  *mu, *meet: the best
 * meeting so far. */
static int expand_side(gsearch *S, side *a, const side *b, double *mu,
                       uint32_t *meet, int backward) {
  const astar_graph *G = S->G;
  astar_heap_entry *heap = *a->heap;
  uint32_t u = heap[0].node, i, f, d;
  double gu = heap[0].g;
  if (a->n > 1) astar__heap_pop(heap, a->pos, a->n, 0);
  a->n--;
  a->stamp[u] |= ST_CLOSED;
  for (f = a->A->first[u], d = a->A->deg[u], i = 0; i < d; i++) {
    uint32_t v = a->A->to[f + i], sv = a->stamp[v], sb = b->stamp[v];
    int seen = (sv & ASTAR__STAMP_GEN) == a->tag && (sv & ST_SEEN);
    double ng = gu + a->A->cost[f + i];
    astar_heap_entry e;
    size_t at;
    if (seen && (sv & ST_CLOSED)) continue;
    if (G->flags[v] & ASTAR_NODE_DISABLED) continue;
    if (seen) {
      at = a->pos[v];
      if (ng >= heap[at].g) continue;
    } else {
      if (a->n == *a->cap) {
        void *p = *a->heap;
        int st = astar__grow(S->s->alloc, S->s->alloc_ud, &p, a->cap,
                             a->n + 1, sizeof(astar_heap_entry), 256);
        if (st != ASTAR_OK) return st;
        *a->heap = heap = p;
      }
      at = a->n++;
      a->stamp[v] = a->tag | ST_SEEN | ((sv & ASTAR__STAMP_GEN) == a->tag ? sv & ST_GOAL : 0);
    }
    a->parent[v] = u;
    a->g[v] = ng;
    e.key = astar__quantise(ng, S->inv_q);
    e.g = ng;
    e.node = v;
    e.aux = 0;
    astar__heap_up(heap, a->pos, at, e, 0);
    if ((sb & ASTAR__STAMP_GEN) == b->tag && (sb & ST_SEEN) &&
        ng + b->g[v] < *mu) {
      *mu = ng + b->g[v];
      *meet = v;
    }
  }
  (void)backward;
  return ASTAR_OK;
}

static int run_bidir(gsearch *S) {
  astar_search *ctx = S->s;
  astar__more *m = ctx->more;
  astar__graphx *gx = ctx->graphx;
  const astar_graph_query *q = S->q;
  side F, B;
  double mu = HUGE_VAL;
  uint32_t meet = UINT32_MAX, expanded = 0;
  size_t i;
  int st = ASTAR_OK;
  if (++m->generation > ASTAR__MAX_GENERATION) {
    memset(m->stamp_b, 0, (size_t)ctx->ntiles * sizeof(uint32_t));
    m->generation = 1;
  }
  F.A = &S->G->out, F.stamp = ctx->stamp, F.pos = ctx->heap_pos;
  F.parent = gx->parent, F.g = m->gf, F.heap = &ctx->heap;
  F.cap = &ctx->heap_cap, F.n = 1, F.tag = S->tag;
  B.A = &S->G->in, B.stamp = m->stamp_b, B.pos = m->pos_b;
  B.parent = gx->parent_b, B.g = m->gb, B.heap = &m->heap_b;
  B.cap = &m->heap_b_cap, B.n = 0, B.tag = m->generation << 4;
  /* forward: the start (stamped by the caller); backward: every goal */
  F.g[q->start] = 0.0;
  for (i = 0; i < q->ngoals; i++) {
    uint32_t v = q->goals[i];
    astar_heap_entry e;
    if ((S->G->flags[v] & ASTAR_NODE_DISABLED) ||
        ((B.stamp[v] & ASTAR__STAMP_GEN) == B.tag))
      continue;
    if (B.n == *B.cap) {
      void *p = *B.heap;
      if ((st = astar__grow(ctx->alloc, ctx->alloc_ud, &p, B.cap, B.n + 1,
                            sizeof(astar_heap_entry), 256)) != ASTAR_OK)
        return st;
      *B.heap = p;
    }
    B.stamp[v] = B.tag | ST_SEEN | ST_GOAL;
    B.g[v] = 0.0;
    e.key = 0;
    e.g = 0.0;
    e.node = v;
    e.aux = 0;
    astar__heap_up(*B.heap, B.pos, B.n++, e, 0);
  }
  while (F.n > 0 && B.n > 0) {
    double top_f = (*F.heap)[0].g, top_b = (*B.heap)[0].g;
    if (top_f + top_b >= mu) break;
    if (q->max_nodes != 0 && expanded >= q->max_nodes) {
      S->cut = 1;
      break;
    }
    expanded++;
    if (F.n <= B.n)
      st = expand_side(S, &F, &B, &mu, &meet, 0);
    else
      st = expand_side(S, &B, &F, &mu, &meet, 1);
    if (st != ASTAR_OK) return st;
  }
  S->r->expanded = expanded;
  S->r->generated = (uint32_t)(F.n + B.n) + expanded;
  if (meet == UINT32_MAX || S->cut) {
    S->r->outcome = S->cut ? ASTAR_CUTOFF : ASTAR_NO_PATH;
    return ASTAR_OK;
  }
  S->r->outcome = ASTAR_FOUND;
  S->r->cost = mu;
  if ((st = write_path(S, meet, 1)) != ASTAR_OK) return st;
  S->r->goal_index = goal_index(q, (uint32_t)S->r->end_x);
  return ASTAR_OK;
}

static int query_ok(const astar_graph *G, const astar_graph_query *q) {
  size_t i;
  if (q->start >= G->n || q->ngoals == 0 || q->goals == NULL) return 0;
  for (i = 0; i < q->ngoals; i++)
    if (q->goals[i] >= G->n) return 0;
  if (!(q->weight >= 1.0) || !(q->weight < HUGE_VAL)) return 0;
  switch (q->algorithm) {
  case ASTAR_ALGO_ASTAR: case ASTAR_ALGO_DIJKSTRA: case ASTAR_ALGO_BFS:
  case ASTAR_ALGO_GREEDY:
    return 1;
  case ASTAR_ALGO_BIDIR:
    return !q->closest && q->heuristic_fn == NULL &&
           q->ties == ASTAR_TIES_LARGER_G &&
           !(q->max_cost > 0.0 && q->max_cost < HUGE_VAL);
  default:
    return 0;
  }
}

int astar_graph_find_path(astar_search *s, const astar_graph *G,
                          const astar_graph_query *q, astar_result *r) {
  gsearch S;
  size_t i;
  int st, any_goal = 0, near = 0, bidir = q->algorithm == ASTAR_ALGO_BIDIR;
  uint32_t zs = 0;
  memset(r, 0, sizeof *r);
  r->goal_index = -1;
  r->algorithm = q->algorithm;
  if (!query_ok(G, q)) return ASTAR_EINVAL;
  if (G->zones_stale || G->bounds_stale) return ASTAR_EPREPARE;
  if (s->busy) return ASTAR_EBUSY;
  if ((st = astar__context_fit(s, G->cap)) != ASTAR_OK) return st;
  if ((st = astar__context_graphx(s, bidir)) != ASTAR_OK) return st;
  if (bidir && (st = astar__context_more(s, 1)) != ASTAR_OK) return st;
  s->graphx->path_len = 0;
  s->last_outcome = ASTAR_NO_PATH;
  s->explored_tag = s->explored_tag_b = 0;
  if (G->flags[q->start] & ASTAR_NODE_DISABLED) {
    r->outcome = ASTAR_START_BLOCKED;
    return ASTAR_OK;
  }
  memset(&S, 0, sizeof S);
  S.G = G;
  S.s = s;
  S.q = q;
  S.r = r;
  S.best = UINT32_MAX;
  S.best_d = S.best_g = HUGE_VAL;
  S.max_cost = q->max_cost > 0.0 ? q->max_cost : HUGE_VAL;
  S.rng = q->seed;
  S.tag = astar__next_generation(s);
  zs = G->zparent[q->start];
  while (G->zparent[zs] != zs) zs = G->zparent[zs];
  for (i = 0; i < q->ngoals; i++) {
    uint32_t v = q->goals[i], z = v;
    if (G->flags[v] & ASTAR_NODE_DISABLED) continue;
    any_goal = 1;
    s->stamp[v] = S.tag | ST_GOAL;
    while (G->zparent[z] != z) z = G->zparent[z];
    if (z == zs) near = 1;
  }
  if (!any_goal && !q->closest) {
    r->outcome = ASTAR_GOAL_BLOCKED;
    return ASTAR_OK;
  }
  if (!near && !q->closest) { /* the zones say: unreachable, at once */
    r->outcome = ASTAR_NO_PATH;
    return ASTAR_OK;
  }
  /* the heuristic and the keys' quantum */
  S.hzero = q->algorithm == ASTAR_ALGO_DIJKSTRA ||
            q->algorithm == ASTAR_ALGO_BFS || bidir ||
            q->ngoals > MAX_H_GOALS ||
            (q->heuristic_fn == NULL &&
             (q->heuristic == ASTAR_H_ZERO || G->unplaced != 0));
  S.A = G->ratio < HUGE_VAL ? G->ratio * q->weight : 0.0;
  S.inv_q = 16777216.0 / (G->min_cost < HUGE_VAL && G->min_cost >= 1e-200
                              ? G->min_cost
                              : 1.0);
  /* the start */
  {
    astar_heap_entry e;
    uint32_t sv = s->stamp[q->start];
    double h = bidir ? 0.0 : h_node(&S, q->start);
    if (S.st != ASTAR_OK) return S.st;
    s->graphx->h[q->start] = h;
    /* a goal of this query keeps its mark; one left from an earlier
     * query (an older generation) must not */
    s->stamp[q->start] = S.tag | ST_SEEN |
                         ((sv & ASTAR__STAMP_GEN) == S.tag ? sv & ST_GOAL : 0);
    e.key = astar__quantise(q->algorithm == ASTAR_ALGO_BFS ? 0.0 : h, S.inv_q);
    e.g = 0.0;
    e.node = q->start;
    e.aux = 0;
    s->heap[0] = e;
    s->heap_pos[q->start] = 0;
  }
  s->busy = 1;
  if (bidir && !(s->stamp[q->start] & ST_GOAL))
    st = run_bidir(&S);
  else if (q->algorithm == ASTAR_ALGO_BFS)
    st = run_fifo(&S);
  else if (q->algorithm == ASTAR_ALGO_GREEDY)
    st = q->ties == ASTAR_TIES_RANDOM ? run_greedy_random(&S)
                                      : run_greedy(&S);
  else
    st = q->ties == ASTAR_TIES_RANDOM ? run_random(&S) : run_plain(&S);
  s->busy = 0;
  if (st == ASTAR_OK && (r->outcome == ASTAR_FOUND || r->partial))
    s->last_outcome = ASTAR_FOUND;
  return st;
}

const uint32_t *astar_graph_path(const astar_search *s, uint32_t *len) {
  if (s->graphx == NULL || s->last_outcome != ASTAR_FOUND) {
    *len = 0;
    return NULL;
  }
  *len = s->graphx->path_len;
  return s->graphx->path;
}

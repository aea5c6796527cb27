/*
 * Bidirectional search: a forward search from the start and a backward one
 * from the goal that meet in the middle.
 *
 *  - ASTAR_ALGO_BIDIR: bidirectional A* (front-to-end: the forward search
 *    estimates the distance to the goal, the backward one to the start,
 *    both with the query's heuristic, consistent for the grid's moves).
 *    With the zero heuristic it is bidirectional Dijkstra.  Every time a
 *    tile gets a label from both sides, gf + gb is a path; mu is the best
 *    one.  The search stops when either side's smallest f reaches mu: an
 *    optimal path cheaper than mu would keep an open node of f < mu on
 *    both sides; with the zero heuristic also when the two smallest g
 *    together reach mu (such a path would cross from an open node of one
 *    side to one of the other).  Optimal.
 *  - ASTAR_ALGO_BIDIR_BFS: one whole layer of breadth-first search at a
 *    time, from the side with the smaller frontier; after the first layer
 *    that touches the other side, the best meeting is a path of the fewest
 *    steps.
 *
 * Reverse edges.  A step u -> v costs len(d) * cost(v) (+ the height cost
 * of u -> v); the backward search, standing on v, looks at each tile u
 * around it and takes the step only when u's own move mask allows u -> v
 * (so height limits, which make moves one-way, are read as the forward
 * search reads them) and prices it exactly as the forward step.  Cost
 * callbacks are refused (astar_algo_unsupported).
 *
 * Scratch, allocated once per grid on first use (G->more): a second stamp
 * array, the g labels of both sides (the engine in search.c keeps g in its
 * heap entries only) and two open lists with lazy deletion.  The forward
 * side uses the grid's own stamps, so the path walk of astar_path_prev
 * works: at the end the backward half's directions are written into those
 * stamps, from the meeting tile to the goal.
 *
 * IDA* (search_ida.c) keeps its path stack here too.
 */
#include "astar.h"
#include "internal.h"

#include <math.h>
#include <string.h>

#define STAMP_CLOSED 8u
#define STAMP_DIR 7u
#define STAMP_GEN_MASK (~(uint32_t)15u)
#define MAX_GENERATION 0x0FFFFFFFu

/* ---- scratch ---- */

static astar__more *more(astar_grid *G) {
  if (G->more == NULL) {
    G->more = astar__alloc(G, 1, sizeof(astar__more));
    if (G->more != NULL) memset(G->more, 0, sizeof(astar__more));
  }
  return G->more;
}

static int bidir_arrays(astar_grid *G, astar__more **out) {
  astar__more *m = more(G);
  uint32_t n = G->ntiles;
  if (m == NULL) return ASTAR_ENOMEM;
  if (m->stamp_b == NULL) {
    if ((m->stamp_b = astar__alloc(G, n, sizeof(uint32_t))) == NULL)
      return ASTAR_ENOMEM;
    memset(m->stamp_b, 0, (size_t)n * sizeof(uint32_t));
    m->generation = 0;
  }
  if (m->gf == NULL && (m->gf = astar__alloc(G, n, sizeof(double))) == NULL)
    return ASTAR_ENOMEM;
  if (m->gb == NULL && (m->gb = astar__alloc(G, n, sizeof(double))) == NULL)
    return ASTAR_ENOMEM;
  *out = m;
  return ASTAR_OK;
}

/* Grows *p (of *cap elements) to at least need elements (doubling). */
int astar__more_grow(astar_grid *G, void **p, size_t *cap, size_t need,
                     size_t elem) {
  size_t n = *cap ? *cap : 64, bytes;
  void *q;
  if (need <= *cap) return ASTAR_OK;
  while (n < need) {
    if (n > SIZE_MAX / 4) return ASTAR_ENOMEM;
    n *= 2;
  }
  if ((bytes = astar__mul_size(n, elem)) == 0) return ASTAR_ENOMEM;
  q = G->alloc(G->alloc_ud, *p, *cap * elem, bytes);
  if (q == NULL) return ASTAR_ENOMEM;
  *p = q;
  *cap = n;
  return ASTAR_OK;
}

void astar__more_release(astar_grid *G) {
  astar__more *m = G->more;
  int s;
  if (m == NULL) return;
  astar__free(G, m->stamp_b, G->ntiles, sizeof(uint32_t));
  astar__free(G, m->gf, G->ntiles, sizeof(double));
  astar__free(G, m->gb, G->ntiles, sizeof(double));
  for (s = 0; s < 2; s++)
    astar__free(G, m->open[s], m->open_cap[s], sizeof(astar__open));
  astar__free(G, m->frames, m->frames_cap, sizeof(astar__frame));
  astar__free(G, m, 1, sizeof(astar__more));
  G->more = NULL;
}

size_t astar__more_memory(const astar_grid *G) {
  const astar__more *m = G->more;
  size_t total;
  if (m == NULL) return 0;
  total = sizeof *m + (m->open_cap[0] + m->open_cap[1]) * sizeof(astar__open)
          + m->frames_cap * sizeof(astar__frame);
  if (m->stamp_b != NULL) total += (size_t)G->ntiles * sizeof(uint32_t);
  if (m->gf != NULL) total += (size_t)G->ntiles * sizeof(double);
  if (m->gb != NULL) total += (size_t)G->ntiles * sizeof(double);
  return total;
}

/* ---- what these engines accept ---- */

const char *astar_algo_unsupported(const astar_grid *G,
                                   const astar_query *q) {
  (void)G;
  if (q->algorithm != ASTAR_ALGO_IDA && q->algorithm != ASTAR_ALGO_BIDIR &&
      q->algorithm != ASTAR_ALGO_BIDIR_BFS)
    return NULL;
  if (q->tile_fn != NULL || q->move_fn != NULL)
    return "no cost callbacks (tile_cost, move_cost)";
  if (q->ties != ASTAR_TIES_LARGER_G || q->ngoals != 0 || q->no_main_goal ||
      (q->max_cost > 0.0 && q->max_cost < HUGE_VAL) || q->max_length != 0 ||
      q->closest || q->leave_blocked_start || q->next_to_blocked_goal ||
      q->heuristic_fn != NULL)
    return "none of the options ties, goals, max_cost, max_length, "
           "closest, leave_blocked_start, next_to_blocked_goal or a "
           "heuristic function (max_nodes is fine)";
  if (q->weight != 1.0) return "weight 1";
  return NULL;
}

/* ---- shared setup ---- */

/* Checks start and goal, fills the layer and the heuristic scale.
 * Returns ASTAR_OK to search, 1 when the outcome is known (r->outcome), or
 * an error. */
int astar__engine_setup(astar_grid *G, const astar_query *q, astar_result *r,
                        astar_layer *L, double *bound) {
  uint32_t start = astar_index(G, q->sx, q->sy);
  uint32_t goal = astar_index(G, q->gx, q->gy);
  int st;
  if ((st = astar_grid_layer(G, q->unit, L)) != ASTAR_OK) return st;
  r->algorithm = q->algorithm;
  G->last_start = start;
  G->last_goal = goal;
  G->last_outcome = ASTAR_NO_PATH;
  if (!astar__bit(L->passable, start)) {
    r->outcome = G->last_outcome = ASTAR_START_BLOCKED;
    return 1;
  }
  if (!astar__bit(L->passable, goal)) {
    r->outcome = G->last_outcome = ASTAR_GOAL_BLOCKED;
    return 1;
  }
  if ((st = astar__ensure_scratch(G)) != ASTAR_OK) return st;
  *bound = L->min_cost;
  if (q->min_cost > 0.0 && q->min_cost < *bound) *bound = q->min_cost;
  if (start == goal) {
    r->outcome = G->last_outcome = ASTAR_FOUND;
    r->cost = 0.0;
    r->length = 1;
    r->end_x = q->gx;
    r->end_y = q->gy;
    return 1;
  }
  return ASTAR_OK;
}

/* The cost of the step u -> v in direction d. */
static inline double step_cost(const astar_grid *G, const astar_layer *L,
                               uint32_t u, uint32_t v, unsigned d) {
  double c = G->step_length[d] * (double)L->cost[v];
  if (L->height != NULL) {
    double dh = (double)L->height[v] - (double)L->height[u];
    c += dh > 0.0 ? L->climb * dh : -L->descend * dh;
  }
  return c;
}

static inline unsigned opposite(unsigned d) {
  return d < 4 ? d ^ 2u : 4u + ((d - 4u) ^ 2u);
}

/* ---- open lists: binary heaps with lazy deletion ---- */

static inline int open_less(const astar__open *a, const astar__open *b) {
  return a->key < b->key || (a->key == b->key && a->g > b->g);
}

static int open_push(astar_grid *G, astar__more *M, int s, size_t *n,
                     astar__open e) {
  astar__open *h;
  size_t i;
  if (*n == M->open_cap[s]) {
    void *p = M->open[s];
    int st = astar__more_grow(G, &p, &M->open_cap[s], *n + 1,
                              sizeof(astar__open));
    M->open[s] = p;
    if (st != ASTAR_OK) return st;
  }
  h = M->open[s];
  i = (*n)++;
  while (i > 0) {
    size_t p = (i - 1) / 2;
    if (!open_less(&e, &h[p])) break;
    h[i] = h[p];
    i = p;
  }
  h[i] = e;
  return ASTAR_OK;
}

static void open_pop(astar__open *h, size_t *n) {
  astar__open e = h[--(*n)];
  size_t i = 0, m = *n;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= m) break;
    if (c + 1 < m && open_less(&h[c + 1], &h[c])) c++;
    if (!open_less(&h[c], &e)) break;
    h[i] = h[c];
    i = c;
  }
  if (m > 0) h[i] = e;
}

/* ---- the search ---- */

typedef struct bsearch {
  astar_grid *G;
  astar__more *M;
  astar_layer L;
  heuristic h[2]; /* forward: to the goal; backward: to the start */
  uint32_t start, goal, tag, tag_b;
  uint32_t *stamp_f, *stamp_b;
  size_t n[2];
  uint32_t expanded, generated, peak, cap;
  double mu;
  uint32_t meet;
  int bfs;
  int zero_h; /* both heuristics are 0: the sum rule applies */
} bsearch;

static uint32_t next_generation_b(astar__more *M, uint32_t ntiles) {
  if (++M->generation > MAX_GENERATION) {
    memset(M->stamp_b, 0, (size_t)ntiles * sizeof(uint32_t));
    M->generation = 1;
  }
  return M->generation << 4;
}

/* A label for v from side s (0 forward, 1 backward), with the direction
 * stored as the path walk wants it: forward, the step into v; backward,
 * the step out of v towards the goal. */
static int relax(bsearch *B, int s, uint32_t v, unsigned d, double ng,
                 int32_t vx, int32_t vy) {
  uint32_t *stamp = s ? B->stamp_b : B->stamp_f;
  uint32_t tag = s ? B->tag_b : B->tag;
  double *g = s ? B->M->gb : B->M->gf;
  uint32_t *ostamp = s ? B->stamp_f : B->stamp_b;
  uint32_t otag = s ? B->tag : B->tag_b;
  const double *og = s ? B->M->gf : B->M->gb;
  astar__open e;
  uint32_t sv = stamp[v];
  int st;
  if ((sv & STAMP_GEN_MASK) == tag) {
    if (sv & STAMP_CLOSED) return ASTAR_OK;
    if (ng >= g[v]) return ASTAR_OK;
  }
  g[v] = ng;
  stamp[v] = tag | d;
  e.g = ng;
  e.node = v;
  e.key = B->bfs ? 0.0 : ng + heuristic_at(&B->h[s], vx, vy);
  if (B->bfs) { /* a queue: append */
    size_t need = B->n[s] + 1;
    if (need > B->M->open_cap[s]) {
      void *p = B->M->open[s];
      st = astar__more_grow(B->G, &p, &B->M->open_cap[s], need,
                            sizeof(astar__open));
      B->M->open[s] = p;
      if (st != ASTAR_OK) return st;
    }
    B->M->open[s][B->n[s]++] = e;
  } else if ((st = open_push(B->G, B->M, s, &B->n[s], e)) != ASTAR_OK) {
    return st;
  }
  B->generated++;
  if ((ostamp[v] & STAMP_GEN_MASK) == otag && ng + og[v] < B->mu) {
    B->mu = ng + og[v];
    B->meet = v;
  }
  return ASTAR_OK;
}

/* Expands u on side s. */
static int expand(bsearch *B, int s, uint32_t u) {
  astar_grid *G = B->G;
  int32_t ux, uy;
  unsigned d;
  int st;
  double gu = s ? B->M->gb[u] : B->M->gf[u];
  B->expanded++;
  astar_xy(G, u, &ux, &uy);
  if (s == 0) {
    unsigned m = B->L.moves[u];
    for (d = 0; m; d++, m >>= 1) {
      uint32_t v;
      if (!(m & 1u)) continue;
      v = (uint32_t)((int32_t)u + G->offset[d]);
      st = relax(B, 0, v, d, gu + (B->bfs ? 1.0 : step_cost(G, &B->L, u, v, d)),
                 ux + astar_dir_dx[d], uy + astar_dir_dy[d]);
      if (st != ASTAR_OK) return st;
    }
  } else {
    unsigned dirs = astar__rule_dirs(G->diagonal);
    for (d = 0; d < 8; d++) {
      /* the tile w beside u from which a step in direction opposite(d)
         enters u */
      uint32_t w;
      unsigned back = opposite(d);
      if (!(dirs & (1u << d))) continue;
      w = (uint32_t)((int32_t)u + G->offset[d]);
      if (!(B->L.moves[w] & (1u << back)) || !astar__bit(B->L.passable, w))
        continue;
      st = relax(B, 1, w, back,
                 gu + (B->bfs ? 1.0 : step_cost(G, &B->L, w, u, back)),
                 ux + astar_dir_dx[d], uy + astar_dir_dy[d]);
      if (st != ASTAR_OK) return st;
    }
  }
  return ASTAR_OK;
}

/* The smallest live entry of side s (dropping stale ones), or NULL. */
static astar__open *top(bsearch *B, int s) {
  astar__open *h = B->M->open[s];
  uint32_t *stamp = s ? B->stamp_b : B->stamp_f;
  const double *g = s ? B->M->gb : B->M->gf;
  while (B->n[s] > 0) {
    uint32_t v = h[0].node;
    if (!(stamp[v] & STAMP_CLOSED) && h[0].g == g[v]) return &h[0];
    open_pop(h, &B->n[s]);
  }
  return NULL;
}

static int run_astar(bsearch *B) {
  int st;
  for (;;) {
    astar__open *tf, *tb, e;
    int s;
    uint32_t *stamp;
    if (B->n[0] + B->n[1] > B->peak) B->peak = (uint32_t)(B->n[0] + B->n[1]);
    tf = top(B, 0);
    tb = top(B, 1);
    if (tf == NULL || tb == NULL) return ASTAR_OK;
    if (tf->key >= B->mu || tb->key >= B->mu) return ASTAR_OK;
    /* Dijkstra (zero heuristic, keys are g): a path cheaper than mu would
       join an open node of each side, costing at least the sum */
    if (B->zero_h && tf->key + tb->key >= B->mu) return ASTAR_OK;
    if (B->cap != 0 && B->expanded >= B->cap) return ASTAR_CUTOFF;
    s = B->n[0] <= B->n[1] ? 0 : 1; /* the smaller open list */
    e = s ? *tb : *tf;
    open_pop(B->M->open[s], &B->n[s]);
    stamp = s ? B->stamp_b : B->stamp_f;
    stamp[e.node] |= STAMP_CLOSED;
    if ((st = expand(B, s, e.node)) != ASTAR_OK) return st;
  }
}

static int run_bfs(bsearch *B) {
  size_t head[2] = {0, 0};
  int st;
  for (;;) {
    int s;
    size_t end, i;
    size_t left0 = B->n[0] - head[0], left1 = B->n[1] - head[1];
    if (left0 + left1 > B->peak) B->peak = (uint32_t)(left0 + left1);
    if (left0 == 0 || left1 == 0) return ASTAR_OK;
    s = left0 <= left1 ? 0 : 1;
    end = B->n[s]; /* one whole layer */
    for (i = head[s]; i < end; i++) {
      uint32_t u = B->M->open[s][i].node;
      if (B->cap != 0 && B->expanded >= B->cap) return ASTAR_CUTOFF;
      (s ? B->stamp_b : B->stamp_f)[u] |= STAMP_CLOSED;
      if ((st = expand(B, s, u)) != ASTAR_OK) return st;
    }
    head[s] = end;
    if (B->mu < HUGE_VAL) return ASTAR_OK;
  }
}

int astar__bidir(astar_grid *G, const astar_query *q, astar_result *r) {
  bsearch B;
  astar_query bq;
  double bound;
  int st, s;
  memset(&B, 0, sizeof B);
  st = astar__engine_setup(G, q, r, &B.L, &bound);
  if (st == 1) return ASTAR_OK;
  if (st != ASTAR_OK) return st;
  if ((st = bidir_arrays(G, &B.M)) != ASTAR_OK) return st;
  B.G = G;
  B.bfs = q->algorithm == ASTAR_ALGO_BIDIR_BFS;
  B.start = astar_index(G, q->sx, q->sy);
  B.goal = astar_index(G, q->gx, q->gy);
  B.stamp_f = G->stamp;
  B.stamp_b = B.M->stamp_b;
  B.cap = q->max_nodes;
  B.mu = HUGE_VAL;
  B.meet = UINT32_MAX;
  astar__heuristic_init(&B.h[0], G, q, bound);
  bq = *q;
  bq.gx = q->sx;
  bq.gy = q->sy;
  astar__heuristic_init(&B.h[1], G, &bq, bound);
  B.zero_h = B.h[0].A == 0.0 && B.h[0].B == 0.0;
  B.tag = G->explored_tag = astar__next_generation(G);
  B.tag_b = G->explored_tag_b = next_generation_b(B.M, G->ntiles);
  G->busy = 1;
  st = relax(&B, 0, B.start, 0, 0.0, q->sx, q->sy);
  if (st == ASTAR_OK) st = relax(&B, 1, B.goal, 0, 0.0, q->gx, q->gy);
  if (st == ASTAR_OK) st = B.bfs ? run_bfs(&B) : run_astar(&B);
  G->busy = 0;
  r->expanded = B.expanded;
  r->generated = B.generated;
  r->peak_open = B.peak;
  if (st == ASTAR_CUTOFF) {
    r->outcome = ASTAR_CUTOFF;
    return ASTAR_OK;
  }
  if (st != ASTAR_OK) return st;
  if (B.meet == UINT32_MAX) {
    r->outcome = ASTAR_NO_PATH;
    return ASTAR_OK;
  }
  /* the backward half into the forward stamps: meet -> goal */
  {
    uint32_t w = B.meet, len = 1, node;
    double cost = 0.0;
    while (w != B.goal) {
      unsigned d = B.stamp_b[w] & STAMP_DIR;
      uint32_t nx = (uint32_t)((int32_t)w + G->offset[d]);
      B.stamp_f[nx] = B.tag | STAMP_CLOSED | d;
      w = nx;
    }
    G->last_outcome = ASTAR_FOUND;
    /* length, and the cost summed from the start as A* sums it */
    node = B.goal;
    while (astar_path_prev(G, &node)) len++;
    if (!B.bfs) {
      cost = B.mu;
    } else {
      uint32_t *path = NULL;
      size_t cap = 0, i;
      void *p = B.M->frames;
      /* walk back into the frame buffer (no per-query allocation once it
         is big enough), then sum forwards */
      cap = B.M->frames_cap;
      st = astar__more_grow(G, &p, &cap, len, sizeof(astar__frame));
      B.M->frames = p;
      B.M->frames_cap = cap;
      if (st != ASTAR_OK) {
        G->last_outcome = ASTAR_NO_PATH;
        return st;
      }
      path = (uint32_t *)B.M->frames; /* len uint32 fit in len frames */
      node = B.goal;
      i = len;
      path[--i] = node;
      while (astar_path_prev(G, &node)) path[--i] = node;
      for (i = 1; i < len; i++) {
        unsigned d = B.stamp_f[path[i]] & STAMP_DIR;
        cost += step_cost(G, &B.L, path[i - 1], path[i], d);
      }
    }
    r->outcome = ASTAR_FOUND;
    r->cost = cost;
    r->length = len;
    r->end_x = q->gx;
    r->end_y = q->gy;
  }
  for (s = 0; s < 2; s++) B.n[s] = 0;
  return ASTAR_OK;
}

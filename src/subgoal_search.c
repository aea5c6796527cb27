/*
 * A query over a prepared subgoal graph (subgoal.c builds it,
 * subgoal_levels.c contracts it): the start and goal are joined to the
 * subgoals they reach directly, the goal's subgoals mark what they climb
 * to, A* runs over the graph (up from the start, down only into those
 * marks, from the nodes they climb to)
 * with the octile heuristic on the context's heap and its per-node
 * scratch (astar__sgx: stamps, heap positions, parents, the edge that
 * reached each node, indexed by subgoal, then the start and the goal),
 * and each edge of the path is unfolded through its via into tiles whose
 * stamps (the context's, per tile) carry their step direction, so
 * astar_path_last/prev walk every tile of the path.  Costs are summed
 * step by step from the start.
 */
#include "astar.h"
#include "heap.h"
#include "internal.h"
#include "subgoal.h"

#include <math.h>
#include <string.h>

#define NONE UINT32_MAX

/* A node's stamp in the scratch (astar__sgx): its query's tag (the
 * generation << 4) and flags. */
#define NEAR_GOAL 1u /* the goal's scan reached the node */
#define UP_GOAL 2u   /* a subgoal the goal's subgoals climb to */
#define SEEN 4u      /* on the open list or closed */
#define CLOSED 8u
#define DOWN 16u     /* one of the UP_GOAL subgoals climbs to it */
#define GEN (~(uint32_t)31u)

/* The tile of node v. */
static inline uint32_t tile_of(const astar__run *R, uint32_t v) {
  const astar__subgoals *sg = R->sg;
  if (v < sg->nsub) return sg->at[v].tile;
  return v == sg->nsub ? R->start : R->goal;
}

/* The node of a tile a scan reached (a subgoal or the goal), else NONE. */
static uint32_t node_of(const astar__run *R, uint32_t tile) {
  if (astar__bit(R->sg->bits, tile)) return astar__subgoal_id(R->sg, tile);
  return tile == R->goal ? R->gid : NONE;
}

typedef struct {
  astar__run *R;
  uint32_t n; /* nodes on the stack (the scratch's list): each once */
  int direct; /* the scan reached the start */
} marker;

/* the goal's scan: its subgoals are near the goal; the start, when the
   scan reaches it, is in reach of the goal by an octile path */
static int mark_goal(void *ud, uint32_t tile) {
  marker *m = ud;
  astar__sgx *z = m->R->s->sgx;
  uint32_t v = node_of(m->R, tile);
  if (tile == m->R->start) m->direct = 1;
  if (v == NONE || (z->stamp[v] & GEN) == m->R->gtag) return ASTAR_OK;
  z->stamp[v] = m->R->gtag | NEAR_GOAL | UP_GOAL;
  z->list[m->n++] = v;
  return ASTAR_OK;
}

/* Marks UP_GOAL on what the stacked subgoals climb to through contracted
 * subgoals (a search may come down into those only), and DOWN on every
 * node such a climb reaches: a search looks at the edges down of those
 * only (edges run both ways with the same length and via).  Listing the
 * edges down to take while climbing (session 8) wrote ~660 list entries
 * per query on brc202d to take ~100; testing UP_GOAL on the ~390 edges
 * down of the DOWN nodes a search expands costs less. */
static void mark_climb(marker *m) {
  const astar__subgoals *sg = m->R->sg;
  astar__sgx *z = m->R->s->sgx;
  uint32_t *stamp = z->stamp, tag = m->R->gtag;
  while (m->n > 0) {
    uint32_t id = z->list[--m->n], e;
    if (id >= sg->nsub || sg->at[id].level == NONE) continue;
    for (e = sg->first[id]; e < sg->at[id].down; e++) {
      uint32_t v = sg->adj[e], sv = stamp[v];
      if ((sv & GEN) != tag) sv = tag;
      sv |= DOWN;
      if (sg->at[v].level != NONE && !(sv & UP_GOAL)) { /* global: open */
        sv |= UP_GOAL;
        z->list[m->n++] = v;
      }
      stamp[v] = sv;
    }
  }
}

static double octile(const astar__run *R, uint32_t a, uint32_t b) {
  uint32_t stride = (uint32_t)R->G->stride;
  int32_t dx = (int32_t)(a % stride) - (int32_t)(b % stride);
  int32_t dy = (int32_t)(a / stride) - (int32_t)(b / stride);
  if (dx < 0) dx = -dx;
  if (dy < 0) dy = -dy;
  return dx > dy ? R->hA * dx + R->hB * dy : R->hA * dy + R->hB * dx;
}

/* Puts node v (at padded x, y) on the open list at cost ng from node u
 * through edge (NONE: a scan's), or lowers it. */
ASTAR__HOT_INLINE int relax_at(astar__run *R, uint32_t u, uint32_t v, int32_t x,
                               int32_t y, double ng, uint32_t edge) {
  astar_search *ctx = R->s;
  astar__sgx *z = ctx->sgx;
  uint32_t sv = z->stamp[v];
  int32_t dx = x - R->gx, dy = y - R->gy;
  size_t at;
  astar_heap_entry e;
  if ((sv & (GEN | SEEN)) == (R->gtag | SEEN)) {
    if (sv & CLOSED) return ASTAR_OK;
    at = z->pos[v];
    if (ng >= ctx->heap[at].g) return ASTAR_OK;
  } else {
    if (R->n == ctx->heap_cap && astar__grow_heap(ctx) != ASTAR_OK)
      return ASTAR_ENOMEM;
    at = R->n++;
    R->r.generated++;
    if (R->n > R->peak) R->peak = (uint32_t)R->n;
    z->stamp[v] = (sv & GEN) == R->gtag ? sv | SEEN : R->gtag | SEEN;
  }
  z->link[v] = edge;
  if (dx < 0) dx = -dx;
  if (dy < 0) dy = -dy;
  e.key = astar__quantise(
      ng + (dx > dy ? R->hA * dx + R->hB * dy : R->hA * dy + R->hB * dx),
      R->inv_q);
  e.g = ng;
  e.node = v;
  e.aux = u;
  astar__heap_up(ctx->heap, z->pos, at, e, 0);
  return ASTAR_OK;
}

typedef struct {
  astar__run *R;
  uint32_t from;
  double g;
} expander;

static int relax_scan(void *ud, uint32_t tile) {
  expander *x = ud;
  const astar__run *R = x->R;
  uint32_t v = node_of(R, tile), stride = (uint32_t)R->G->stride;
  uint32_t ft = tile_of(R, x->from);
  if (v == NONE) return ASTAR_OK;
  return relax_at(x->R, x->from, v, (int32_t)(tile % stride),
                  (int32_t)(tile / stride), x->g + octile(R, ft, tile), NONE);
}

static void view_run(const astar__run *R, astar__view *V) {
  const astar__subgoals *s = R->sg;
  astar__subgoal_view(R->G, &R->J, s, V);
}

int astar__subgoal_start(astar__run *R) {
  const astar_grid *G = R->G;
  astar_search *ctx = R->s;
  const astar_query *q = &R->q;
  const astar__subgoals *sg = R->sg;
  double card, diag, c;
  int st, apart = 0;
  astar__view V;
  astar__sgx *z;
  if ((st = astar__jps_layer_size(G, q->unit, q->size, &R->J)) < 0) return st;
  if (!astar__bit(R->J.passable, R->start)) {
    R->r.outcome = ASTAR_START_BLOCKED;
    return 1;
  }
  if (!astar__bit(R->J.passable, R->goal)) {
    R->r.outcome = ASTAR_GOAL_BLOCKED;
    return 1;
  }
  if (!q->no_zones && R->start != R->goal) {
    if ((st = astar__zones_apart_size(G, q->unit, q->size, R->start, R->goal,
                                      &apart)) != ASTAR_OK)
      return st;
    if (apart) {
      R->r.outcome = ASTAR_NO_PATH;
      return 1;
    }
  }
  if ((st = astar__context_sgx(ctx, (size_t)sg->nsub + 2u)) != ASTAR_OK)
    return st;
  z = ctx->sgx;
  c = (double)R->J.uniform;
  card = G->cardinal_length;
  diag = G->diagonal_length;
  R->hA = card * c;
  R->hB = (diag - card) * c;
  R->inv_q = 16777216.0 / (c * card);
  {
    int d;
    for (d = 0; d < 8; d++) R->jstep[d] = G->step_length[d] * c;
  }
  R->gx = (int32_t)(R->goal % (uint32_t)G->stride);
  R->gy = (int32_t)(R->goal / (uint32_t)G->stride);
  /* the scratch's generation for the search, the context's for the
     explored tiles and the path walk */
  R->gtag = z->generation << 5;
  R->tag = ctx->explored_tag = astar__next_generation(ctx);
  R->sid = astar__bit(sg->bits, R->start) ? astar__subgoal_id(sg, R->start)
                                       : sg->nsub;
  R->gid = astar__bit(sg->bits, R->goal) ? astar__subgoal_id(sg, R->goal)
           : R->start == R->goal        ? R->sid
                                        : sg->nsub + 1u;
  view_run(R, &V);
  if (R->start != R->goal) {
    marker m;
    m.R = R;
    m.n = 0;
    m.direct = 0;
    if (R->gid == sg->nsub + 1u) {
      /* the start stops the goal's scan as a subgoal would; where it
         shortens a line the scan reaches it, so the marks are the same
         whenever the search below needs them */
      V.extra = R->start;
      V.extra_t = (R->start % V.stride) * V.tstride + R->start / V.stride;
      if ((st = astar__subgoal_scan(&V, R->goal, mark_goal, &m)) != ASTAR_OK)
        return st;
    } else {
      z->stamp[R->gid] = R->gtag | UP_GOAL;
      z->list[m.n++] = R->gid;
    }
    /* the goal's scan reached the start: an octile path joins them (the
       scan's own way, diagonal steps from the goal, then a straight run,
       is open), so none is shorter; the start's expansion puts the goal
       on with that cost, as if its own scan had found it, and no climb
       is needed */
    R->direct = m.direct;
    if (!m.direct) mark_climb(&m);
  }
  {
    astar_heap_entry e;
    uint32_t sv = z->stamp[R->sid]; /* the start keeps the goal's marks */
    z->stamp[R->sid] = (sv & GEN) == R->gtag ? sv | SEEN : R->gtag | SEEN;
    z->link[R->sid] = NONE;
    e.key = astar__quantise(octile(R, R->start, R->goal), R->inv_q);
    e.g = 0.0;
    e.node = R->sid;
    e.aux = R->sid;
    astar__heap_up(ctx->heap, z->pos, 0, e, 0);
    R->n = 1;
    R->r.generated = 1;
    R->peak = 1;
  }
  return ASTAR_OK;
}

/* Walks n1 steps in direction first from tile a, then n2 in direction
 * second, writing each tile's step direction in stamp (when not NULL):
 * with check, returns 0 at a step that is not open (corner rule
 * included), the directions it wrote put back (a tile off this edge may
 * be on the path already); to keep what it puts back small, it writes
 * the first SAVED steps as it goes and the rest once the way is open. */
#define SAVED 64
static int walk(const astar__run *R, uint32_t a, unsigned first, int32_t n1,
                unsigned second, int32_t n2, int check, uint32_t *stamp) {
  const astar_grid *G = R->G;
  unsigned char old[SAVED];
  uint32_t t = a, mid = a;
  int32_t k, n = n1 + n2;
  for (k = 0; k < n; k++) {
    unsigned d = k < n1 ? first : second;
    if (check && !astar__step_open(G, R->J.passable, t, d)) {
      int32_t j;
      if (stamp != NULL)
        for (j = 0, t = a; j < k && j < SAVED; j++) {
          t = (uint32_t)((int32_t)t + G->offset[j < n1 ? first : second]);
          stamp[t] = (stamp[t] & ~ASTAR__STAMP_DIR) | old[j];
        }
      return 0;
    }
    t = (uint32_t)((int32_t)t + G->offset[d]);
    if (stamp != NULL && k < SAVED) {
      old[k] = (unsigned char)(stamp[t] & ASTAR__STAMP_DIR);
      stamp[t] = (stamp[t] & ~ASTAR__STAMP_DIR) | d;
      mid = t;
    }
  }
  if (stamp != NULL)
    for (k = SAVED, t = mid; k < n; k++) {
      unsigned d = k < n1 ? first : second;
      t = (uint32_t)((int32_t)t + G->offset[d]);
      stamp[t] = (stamp[t] & ~ASTAR__STAMP_DIR) | d;
    }
  return 1;
}

/* Writes the step directions of n1 steps in direction first from tile a,
 * then n2 in direction second, into stamp (a way known to be open). */
static void lay(const astar__run *R, uint32_t a, unsigned first, int32_t n1,
                unsigned second, int32_t n2, uint32_t *stamp) {
  int32_t k, o1 = R->G->offset[first], o2 = R->G->offset[second];
  uint32_t t = a;
  for (k = 0; k < n1; k++) {
    t = (uint32_t)((int32_t)t + o1);
    stamp[t] = (stamp[t] & ~ASTAR__STAMP_DIR) | first;
  }
  for (k = 0; k < n2; k++) {
    t = (uint32_t)((int32_t)t + o2);
    stamp[t] = (stamp[t] & ~ASTAR__STAMP_DIR) | second;
  }
}

/* The corners of a path being written forwards (q->corners): the last
 * corner kept, the run going on from it (its direction and the tile it
 * has reached), how many corners so far.  A corner's walk link (heap_pos)
 * names the corner before it. */
typedef struct {
  uint32_t kept, tip, n;
  unsigned dir; /* 8: no run yet */
} corner_writer;

/* n steps in direction d onwards from the tip. */
static void corner_run(astar__run *R, corner_writer *w, unsigned d,
                       int32_t n) {
  if (n == 0) return;
  if (d != w->dir && w->dir != 8u) { /* the tip turns: a corner */
    R->s->heap_pos[w->tip] = w->kept;
    w->kept = w->tip;
    w->n++;
  }
  w->dir = d;
  w->tip = (uint32_t)((int32_t)w->tip + n * R->G->offset[d]);
}

/* One edge a -> b into tiles: the diagonal steps first when that way is
 * open, else the straight ones first (the ways a scan finds), else
 * through the contracted subgoal the edge was added for.  Writes each
 * tile's step direction (or with w, the edge's runs as corners) and sums
 * the cost.  Each split halves nothing but shortens both parts, so the
 * depth is below the edge's length.  An edge's record holds all it needs
 * (the middle tile, the halves): one cache miss per level, not three. */
static void unfold_edge(astar__run *R, uint32_t a, uint32_t b, uint32_t e,
                        int rev, double *g, uint32_t *len,
                        corner_writer *w) {
  const astar_grid *G = R->G;
  uint32_t *stamp = R->s->stamp;
  unsigned dd, ds, first, second;
  int32_t nd, ns, n1, n2, k;
  const double cost = (double)R->J.cost[R->start]; /* every tile's */
  const astar__subgoals *sg = R->sg;
  const struct astar__sg_edge *x =
      e != NONE && sg->ex != NULL ? &sg->ex[e] : NULL;
  if (x != NULL && x->through != ASTAR__SG_PLAIN) {
    /* a shortcut: through the subgoal it was added for (edge e leads from
       x to y; rev: it is taken from y to x); each half is the middle
       subgoal's edge, the first taken towards it */
    uint32_t c = x->through, ea = rev ? x->to_y : x->to_x,
             eb = rev ? x->to_x : x->to_y;
#if defined(__GNUC__) || defined(__clang__)
    if (eb != NONE) /* read once the first half is done: fetched meanwhile */
      __builtin_prefetch(&sg->ex[eb]);
#endif
    unfold_edge(R, a, c, ea, 1, g, len, w);
    unfold_edge(R, c, b, eb, 0, g, len, w);
    return;
  }
  astar__tile_runs(G, a, b, &dd, &nd, &ds, &ns);
  first = dd;
  second = ds;
  n1 = nd;
  n2 = ns;
  if (x != NULL) { /* the graph knows the open way */
    if (!(x->to_x & (rev ? ASTAR__SG_DFY : ASTAR__SG_DFX))) {
      first = ds;
      second = dd;
      n1 = ns;
      n2 = nd;
    }
    if (w == NULL) lay(R, a, first, n1, second, n2, stamp);
  } else if (!walk(R, a, dd, nd, ds, ns, 1, w == NULL ? stamp : NULL)) {
    /* the diagonal steps first when open */
    first = ds;
    second = dd;
    n1 = ns;
    n2 = nd;
    if (w == NULL) lay(R, a, first, n1, second, n2, stamp);
  }
  { /* the costs are uniform (every open tile costs what the start does),
       summed step by step in the path's order */
    double c1 = G->step_length[first] * cost;
    double c2 = G->step_length[second] * cost;
    for (k = 0; k < n1; k++) *g += c1;
    for (k = 0; k < n2; k++) *g += c2;
  }
  *len += (uint32_t)(n1 + n2);
  if (w != NULL) {
    corner_run(R, w, first, n1);
    corner_run(R, w, second, n2);
  }
}

/* The path's nodes (parents, goal first, into the scratch's list) into
 * tiles, each edge through its own via. */
static void unfold(astar__run *R) {
  astar__sgx *z = R->s->sgx;
  const uint32_t *adj = R->sg->adj;
  uint32_t v = R->gid, n = 0, cur, len = 1;
  double g = 0.0;
  corner_writer cw, *w = NULL;
  while (v != R->sid) {
    z->list[n++] = v;
    v = z->pos[v];
  }
  cw.kept = cw.tip = R->start;
  cw.n = 1;
  cw.dir = 8u;
  if (R->q.corners) w = &cw;
  for (cur = R->start; n > 0;) {
    uint32_t next = z->list[--n], e = z->link[next], nt = tile_of(R, next);
    /* e: the edge from the node before to next (up or down: taken
       backwards when it leads elsewhere), or NONE (a scan's) */
    unfold_edge(R, cur, nt, e, e != NONE && adj[e] != next, &g, &len, w);
    cur = nt;
  }
  if (w != NULL) { /* the goal: the last corner */
    R->s->heap_pos[R->goal] = cw.kept;
    R->r.corners = cw.n + 1;
    R->s->last_waypoints = 1;
  }
  R->r.cost = g;
  R->r.length = len;
}

/* The explored tiles into the context's stamps: the closed nodes, then
 * the open ones. */
static void list_explored(astar__run *R) {
  astar_search *ctx = R->s;
  const astar__sgx *z = ctx->sgx;
  uint32_t k;
  size_t i;
  for (k = 0; k < z->nlist; k++)
    ctx->stamp[tile_of(R, z->list[k])] = R->tag | ASTAR__STAMP_CLOSED;
  for (i = 0; i < R->n; i++) ctx->stamp[tile_of(R, ctx->heap[i].node)] = R->tag;
}

int astar__subgoal_step(astar__run *R, uint32_t budget) {
  astar_search *ctx = R->s;
  const astar__subgoals *sg = R->sg;
  astar__sgx *z = ctx->sgx;
  const uint32_t sid = R->sid, gid = R->gid, nsub = sg->nsub;
  const uint32_t tag = R->gtag;
  uint32_t left = budget != 0 ? budget : UINT32_MAX;
  uint32_t *stamp = z->stamp;
  int st = ASTAR_OK, suspended = 0;
  astar__view V;
  view_run(R, &V);
  V.extra = R->goal;
  V.extra_t = (R->goal % V.stride) * V.tstride + R->goal / V.stride;
  while (R->n > 0) {
    astar_heap_entry *heap = ctx->heap;
    uint32_t u = heap[0].node, parent = heap[0].aux;
    double gu = heap[0].g;
    if (left-- == 0) { /* suspended: the counts below still move */
      suspended = 1;
      break;
    }
    if (R->n > 1) {
      astar__heap_pop(heap, z->pos, R->n, 0);
#if defined(__GNUC__) || defined(__clang__)
      if (heap[0].node < nsub) { /* the next one's edges, while u's run */
        uint32_t f = sg->first[heap[0].node];
        __builtin_prefetch(&sg->adj[f]);
        if (sg->wt != NULL) __builtin_prefetch(&sg->wt[f]);
      }
#endif
    }
    R->n--;
    stamp[u] |= CLOSED;
    z->pos[u] = parent;
    z->list[z->nlist++] = u;
    R->expanded++;
    if (u == gid) {
      R->found = 1;
      break;
    }
    if (stamp[u] & NEAR_GOAL) { /* the goal's scan reached u */
      if ((st = relax_at(R, u, gid, R->gx, R->gy,
                         gu + octile(R, tile_of(R, u), R->goal), NONE)) !=
          ASTAR_OK)
        break;
    }
    if (u < nsub) { /* a subgoal: its edges up, then its edges down */
      uint32_t e, end = sg->at[u].down;
      int down = 0;
      const struct astar__subgoal_at *ua = &sg->at[u];
      const double stepD = R->hA + R->hB; /* a diagonal step */
      for (e = sg->first[u];; e++) {
        uint32_t v, sv, w;
        const struct astar__subgoal_at *ta;
        if (e == end) { /* down only into what the goal's subgoals climb to */
          if (down || !(stamp[u] & DOWN)) break;
          down = 1;
          end = sg->first[u + 1];
          if (e == end) break;
        }
        v = sg->adj[e];
        sv = stamp[v];
        if (down && (sv & (GEN | UP_GOAL)) != (tag | UP_GOAL)) continue;
        if ((sv & (GEN | CLOSED)) == (tag | CLOSED)) continue;
        ta = &sg->at[v];
        if (sg->wt != NULL) {
          w = sg->wt[e];
        } else { /* the plain graph: octile */
          uint32_t dx = (uint32_t)(ta->x > ua->x ? ta->x - ua->x : ua->x - ta->x);
          uint32_t dy = (uint32_t)(ta->y > ua->y ? ta->y - ua->y : ua->y - ta->y);
          w = dx > dy ? ASTAR__SG_W(dx - dy, dy) : ASTAR__SG_W(dy - dx, dx);
        }
        if ((st = relax_at(R, u, v, ta->x, ta->y,
                           gu + (double)ASTAR__SG_STRAIGHT(w) * R->hA +
                               (double)ASTAR__SG_DIAGONAL(w) * stepD,
                           e)) != ASTAR_OK)
          break;
      }
      if (st != ASTAR_OK) break;
    } else if (u == sid && R->direct) {
      if ((st = relax_at(R, u, gid, R->gx, R->gy,
                         gu + octile(R, R->start, R->goal), NONE)) !=
          ASTAR_OK)
        break;
    } else if (u == sid) {
      expander x;
      x.R = R;
      x.from = u;
      x.g = gu;
      if ((st = astar__subgoal_scan(&V, R->start, relax_scan, &x)) !=
          ASTAR_OK)
        break;
    }
  }
  R->r.expanded = R->expanded;
  R->r.peak_open = R->peak;
  if (st != ASTAR_OK) return st;
  if (suspended) return ASTAR__SUSPENDED;
  list_explored(R);
  if (R->found) {
    R->r.outcome = ASTAR_FOUND;
    if (R->start == R->goal) {
      R->r.cost = 0.0;
      R->r.length = 1;
    } else {
      unfold(R);
    }
    R->r.end_x = R->q.gx;
    R->r.end_y = R->q.gy;
  } else {
    R->r.outcome = ASTAR_NO_PATH;
  }
  astar__finish(R, R->found, R->goal);
  return ASTAR_OK;
}

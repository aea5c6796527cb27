/*
 * Levels for a subgoal graph (subgoal.c builds the plain graph first):
 * contraction, shortcuts and the final edge layout.
 *
 * The subgoals are contracted one by one, as in a contraction
 * hierarchy (Geisberger et al. 2008; the subgoal-graph hierarchies of
 * Uras and Koenig): a subgoal leaves the graph when every pair of its
 * remaining neighbours is joined, without it, by a path no longer than
 * the one through it (a witness, found by a small bounded Dijkstra), or
 * else by a new edge (a shortcut) of that length.  Each edge records its
 * length as counts of straight and diagonal steps, so a query sums them
 * exactly, and a shortcut records the contracted subgoal it was added
 * for, through which a query unfolds it.  Contracted subgoals keep
 * their edges, and their contraction order (level) says which way each
 * edge runs: a query climbs from the start through rising levels into
 * the global subgoals (never contracted: too many neighbours, or the
 * work cap reached) and comes down only into what the goal's subgoals
 * climb to, so it expands mostly global subgoals.
 *
 * The order, on graphs of at most QUEUE_MAXDEG edges per subgoal
 * (rooms, mazes, caves such as brc202d), comes from a priority queue, as
 * in contraction hierarchies (contract_by_priority, priority): subgoals
 * whose contraction adds few shortcuts for the edges it takes away leave
 * first, and the count and depth of a subgoal's neighbours that have
 * left already keep the levels even over the map, so a query climbs
 * fewer of them.  Denser graphs (lak303d) are swept in passes of rising
 * degree (contract_by_sweeps): there the queue's searches reach the work
 * cap and leave more subgoals global than the sweeps do.
 */
#include "astar.h"
#include "heap.h"
#include "internal.h"
#include "subgoal.h"

#include <string.h>

#define NONE UINT32_MAX

typedef struct {
  double cost;    /* w's length, for the witness searches */
  uint32_t to, w; /* w: the edge's steps, ASTAR__SG_W */
  uint32_t via;   /* the subgoal a shortcut goes through, or NONE */
} cell;

/* A subgoal's cells, one flat block of the pool (a witness search walks
 * an array, not a list): cells[at .. at + nlive) to subgoals still in
 * the graph, in the order added (walked newest first); cells[at + cap -
 * nret .. at + cap) to contracted ones, moved there when they left (the
 * last first), so no walk meets them.  A full block moves to the pool's
 * end, twice as large. */
typedef struct {
  uint32_t at, cap, nlive, nret;
} cellset;

typedef struct {
  astar_grid *g;
  astar__subgoals *s;
  double card, diag;
  cell *cells;     /* the pool of every subgoal's block */
  size_t ncells, cells_cap;
  size_t nmade;    /* cells added (each edge twice) */
  cellset *set;    /* per subgoal: its block */
  uint32_t *seen, gen;
  double *dist;
  astar_heap_entry *heap; /* the witness search's open list (heap.h) */
  uint32_t *hpos;         /* per subgoal: its place there; NONE: settled */
  size_t nheap;
  uint32_t *nb; /* the current subgoal's neighbours, then pairs to join */
  size_t nb_cap;
  uint64_t work; /* edges the witness searches may still look at */
  unsigned settle; /* subgoals a witness search settles, at most */
  uint32_t *tmark; /* per subgoal: gen while a witness search's open target */
  double *tlim;    /* per subgoal: a target's limit (its way through v) */
} contractor;

/* A subgoal with more neighbours than this stays (until some leave). */
#define CONTRACT_MAXDEG 16u
#ifndef WITNESS_SETTLE
#define WITNESS_SETTLE 32u
#endif

static inline double w_cost(const contractor *C, uint32_t w) {
  return (double)ASTAR__SG_STRAIGHT(w) * C->card +
         (double)ASTAR__SG_DIAGONAL(w) * C->diag;
}

/* a + b, or NONE when a count would pass 16 bits */
static inline uint32_t w_add(uint32_t a, uint32_t b) {
  uint32_t s = ASTAR__SG_STRAIGHT(a) + ASTAR__SG_STRAIGHT(b);
  uint32_t d = ASTAR__SG_DIAGONAL(a) + ASTAR__SG_DIAGONAL(b);
  if (s > 0xffffu || d > 0xfffeu) return NONE;
  return ASTAR__SG_W(s, d);
}

/* Moves a's cell to v (which leaves the graph) into a's retired part. */
static void retire(contractor *C, uint32_t a, uint32_t v) {
  cellset *S = &C->set[a];
  cell *b = C->cells + S->at, c;
  uint32_t i;
  for (i = S->nlive; i-- > 0;)
    if (b[i].to == v) break;
  if (i == NONE) return; /* none */
  c = b[i];
  memmove(b + i, b + i + 1, (S->nlive - i - 1) * sizeof(cell));
  S->nlive--;
  b[S->cap - ++S->nret] = c;
}

/* a's cell (in the pool) to b, or NONE */
static uint32_t cell_to(const contractor *C, uint32_t a, uint32_t b) {
  const cellset *S = &C->set[a];
  const cell *c = C->cells + S->at;
  uint32_t i;
  for (i = S->nlive; i-- > 0;)
    if (c[i].to == b) return S->at + i;
  return NONE;
}

/* Room for one more cell in a's block (moved to the pool's end, twice as
 * large, when full). */
static int reserve(contractor *C, uint32_t a) {
  cellset *S = &C->set[a];
  uint32_t cap;
  void *p;
  int st;
  if (S->nlive + S->nret < S->cap) return ASTAR_OK;
  cap = S->cap < 4 ? 8 : 2 * S->cap;
  if (C->ncells + cap >= NONE) return ASTAR_ENOMEM;
  p = C->cells;
  st = astar__grow(C->g->alloc, C->g->alloc_ud, &p, &C->cells_cap,
                   C->ncells + cap, sizeof(cell), 1024);
  if (st != ASTAR_OK) return st;
  C->cells = p;
  if (S->nlive)
    memcpy(C->cells + C->ncells, C->cells + S->at, S->nlive * sizeof(cell));
  if (S->nret)
    memcpy(C->cells + C->ncells + cap - S->nret,
           C->cells + S->at + S->cap - S->nret, S->nret * sizeof(cell));
  S->at = (uint32_t)C->ncells;
  S->cap = cap;
  C->ncells += cap;
  return ASTAR_OK;
}

static int add_cell(contractor *C, uint32_t a, uint32_t b, uint32_t w,
                    uint32_t via) {
  cell *c;
  int st;
  if ((st = reserve(C, a)) != ASTAR_OK) return st;
  c = C->cells + C->set[a].at + C->set[a].nlive++;
  c->cost = w_cost(C, w);
  c->to = b;
  c->w = w;
  c->via = via;
  C->nmade++;
  return ASTAR_OK;
}

/* Joins a and b by w (through via) both ways, or lowers their edge to
 * that. */
static int add_edge(contractor *C, uint32_t a, uint32_t b, uint32_t w,
                    uint32_t via) {
  uint32_t ca, cb;
  int st;
  if (a == b) return ASTAR_OK;
  ca = cell_to(C, a, b);
  if (ca != NONE) {
    double cost = w_cost(C, w);
    if (cost < C->cells[ca].cost) {
      C->cells[ca].w = w;
      C->cells[ca].via = via;
      C->cells[ca].cost = cost;
      if ((cb = cell_to(C, b, a)) != NONE) {
        C->cells[cb].w = w;
        C->cells[cb].via = via;
        C->cells[cb].cost = cost;
      }
    }
    return ASTAR_OK;
  }
  if ((st = add_cell(C, a, b, w, via)) != ASTAR_OK) return st;
  return add_cell(C, b, a, w, via);
}

/* A witness distance as heap.h's key: the bits of a double that is not
   negative order as the double does. */
static inline uint64_t wkey(double d) {
  uint64_t k;
  memcpy(&k, &d, sizeof k);
  return k;
}

/* Puts t on the witness search's open list at distance d, or moves it up
   there to d. */
static inline void wpush(contractor *C, double d, uint32_t t, int fresh) {
  astar_heap_entry e;
  e.key = wkey(d);
  e.g = 0.0;
  e.node = t;
  e.aux = 0;
  astar__heap_up(C->heap, C->hpos, fresh ? C->nheap++ : C->hpos[t], e, 0);
}

/* The longest limit among the targets still open (0: none). */
static double open_bound(const contractor *C, const uint32_t *tgt,
                         uint32_t ntgt) {
  double bound = 0.0;
  uint32_t k;
  for (k = 0; k < ntgt; k++)
    if (C->tmark[tgt[k]] == C->gen && C->tlim[tgt[k]] > bound)
      bound = C->tlim[tgt[k]];
  return bound;
}

/* Bounded Dijkstra from p over the remaining graph without v, until
 * each of the ntgt subgoals q in tgt is settled or reached within its
 * limit tlim[q] (a witness), or no open target can be reached within its
 * limit any more: afterwards dist[q] (seen[q] == gen) is an upper bound
 * of p's distance to q. */
static void witness(contractor *C, uint32_t p, uint32_t v,
                   const uint32_t *tgt, uint32_t ntgt) {
  unsigned settled = 0;
  uint32_t k, open = ntgt;
  uint64_t work = C->work;
  double bound;
  if (++C->gen == 0) {
    memset(C->seen, 0, (size_t)C->s->nsub * sizeof(uint32_t));
    memset(C->tmark, 0, (size_t)C->s->nsub * sizeof(uint32_t));
    C->gen = 1;
  }
  C->nheap = 0;
  for (k = 0; k < ntgt; k++) C->tmark[tgt[k]] = C->gen;
  bound = open_bound(C, tgt, ntgt);
  C->seen[p] = C->gen;
  C->dist[p] = 0.0;
  wpush(C, 0.0, p, 1);
  while (C->nheap > 0 && settled < C->settle) {
    uint32_t u = C->heap[0].node, i;
    double d = C->dist[u];
    const cell *b;
    if (d > bound) break;
    if (C->nheap > 1) astar__heap_pop(C->heap, C->hpos, C->nheap, 0);
    C->nheap--;
    C->hpos[u] = NONE;
    settled++;
    if (C->tmark[u] == C->gen) { /* settled: its distance is known */
      C->tmark[u] = 0;
      if (--open == 0) break;
      bound = open_bound(C, tgt, ntgt);
    }
    b = C->cells + C->set[u].at;
    for (i = C->set[u].nlive; i-- > 0;) {
      uint32_t t = b[i].to;
      double nd;
      work--; /* (clamped below) */
      if (t == v) continue;
      nd = d + b[i].cost;
      if (nd > bound) continue;
      if (C->seen[t] != C->gen || (nd < C->dist[t] && C->hpos[t] != NONE)) {
        int fresh = C->seen[t] != C->gen;
        C->seen[t] = C->gen;
        C->dist[t] = nd;
        if (C->tmark[t] == C->gen && nd <= C->tlim[t]) { /* a witness */
          C->tmark[t] = 0;
          if (--open == 0) break;
          bound = open_bound(C, tgt, ntgt);
        }
        wpush(C, nd, t, fresh);
      }
    }
    if (work > C->work) work = 0; /* wrapped past 0 */
    C->work = work;
    if (open == 0) break;
  }
}

/* The shortcuts subgoal v's contraction needs: its remaining
 * neighbours into nb[0..*nn) (with their edges' steps after them), the
 * pairs not kept at their distance by a witness into pairs (p, q, w
 * each), *npairs of them.  *ok: SIM_OK, or SIM_WIDE (more than maxdeg
 * neighbours: nothing searched), or SIM_LONG (a shortcut would be too
 * long to record: v stays). */
enum { SIM_OK, SIM_WIDE, SIM_LONG };
static int simulate(contractor *C, uint32_t v, uint32_t maxdeg,
                    uint32_t *nn, uint32_t *npairs_out, int *ok) {
  uint32_t n, npairs = 0, i, j;
  uint32_t *wv = C->nb + maxdeg; /* the edge v - nb[i] */
  uint32_t *pairs = wv + maxdeg; /* p, q, w per shortcut */
  const cell *b;
  double len[CONTRACT_MAXDEG]; /* the edge v - nb[i]'s length */
  *ok = SIM_WIDE;
  if ((n = C->set[v].nlive) > maxdeg) return ASTAR_OK;
  b = C->cells + C->set[v].at;
  for (i = 0; i < n; i++) {
    C->nb[i] = b[n - 1 - i].to;
    wv[i] = b[n - 1 - i].w;
    len[i] = b[n - 1 - i].cost;
  }
  for (i = 0; i + 1 < n; i++) {
    uint32_t p = C->nb[i], tg[CONTRACT_MAXDEG], tj[CONTRACT_MAXDEG], ntg = 0;
    double longest = 0.0, eps;
    for (j = i + 1; j < n; j++)
      if (len[j] > longest) longest = len[j];
    eps = (len[i] + longest) * 1e-9; /* of the longest way through v */
    for (j = i + 1; j < n; j++) { /* the pairs an edge p - q leaves open */
      uint32_t q = C->nb[j], cq;
      double via = len[i] + len[j];
      if ((cq = cell_to(C, p, q)) != NONE && C->cells[cq].cost <= via + eps)
        continue; /* an edge p - q no longer is a witness */
      C->tlim[q] = via + eps;
      tj[ntg] = j;
      tg[ntg++] = q;
    }
    if (ntg == 0) continue;
    witness(C, p, v, tg, ntg);
    for (j = 0; j < ntg; j++) {
      uint32_t q = tg[j], w = w_add(wv[i], wv[tj[j]]);
      if (C->seen[q] == C->gen && C->dist[q] <= C->tlim[q]) continue;
      if (w == NONE) { /* too long to record: v stays */
        *ok = SIM_LONG;
        return ASTAR_OK;
      }
      pairs[(size_t)3 * npairs] = p;
      pairs[(size_t)3 * npairs + 1] = q;
      pairs[(size_t)3 * npairs + 2] = w;
      npairs++;
    }
  }
  *nn = n;
  *npairs_out = npairs;
  *ok = SIM_OK;
  return ASTAR_OK;
}

/* Contracts v with the shortcuts simulate just found for it (its nn
 * neighbours still in nb). */
static int commit(contractor *C, uint32_t v, uint32_t maxdeg, uint32_t nn,
                  uint32_t npairs, uint32_t order) {
  const uint32_t *pairs = C->nb + 2 * (size_t)maxdeg;
  uint32_t i;
  int st;
  C->s->at[v].level = order;
  for (i = 0; i < nn; i++) retire(C, C->nb[i], v);
  for (i = 0; i < npairs; i++)
    if ((st = add_edge(C, pairs[(size_t)3 * i], pairs[(size_t)3 * i + 1],
                       pairs[(size_t)3 * i + 2], v)) != ASTAR_OK)
      return st;
  return ASTAR_OK;
}

#ifndef CONTRACT_SKIPDEG
#define CONTRACT_SKIPDEG 11u
#endif
/* witness edges looked at, at most, per tile of the map (the bound on
   preprocessing time where little contracts; the queue's first
   estimates come on top, bounded per subgoal) */
#ifndef CONTRACT_WORK
#define CONTRACT_WORK 24u
#endif
/* The queue orders plain graphs of at most this many edges per subgoal;
   denser ones are swept (docs/speed.md, session 22: brc202d, 8.7 edges
   per subgoal, builds in about 31 ms with the queue for 15% fewer
   expansions; lak303d, 9.6, reaches the work cap with it and expands
   more than with the sweeps) */
#ifndef QUEUE_MAXDEG
#define QUEUE_MAXDEG 9u
#endif
/* The first estimate of every subgoal's priority settles this many
   subgoals per witness search (the estimate is corrected when the
   subgoal comes off the queue, with WITNESS_SETTLE) */
#ifndef FIRST_SETTLE
#define FIRST_SETTLE 16u
#endif
/* A subgoal whose corrected priority is at most this much above the
   queue's least still leaves */
#ifndef PRIORITY_SLACK
#define PRIORITY_SLACK 2
#endif

/* The sweeps: most neighbours, most shortcuts past the edges taken
   away.  Rising degrees with no added edge first, then a few, then any
   (session 10: against session 6's {4, 8, 16} passes with any number of
   shortcuts, brc202d leaves no global subgoal instead of 94, 24,038
   edges instead of 28,354, 68 expansions per query instead of 110). */
static const struct {
  uint8_t maxdeg, maxadd;
} contract_passes[] = {{1, 0},  {2, 0},  {3, 0},  {4, 0},  {6, 0},
                       {8, 0},  {12, 0}, {16, 0}, {16, 2}, {16, 255}};

/* The order of dense graphs: each pass sweeps the subgoals by index, and
 * one leaves when it has at most the pass's neighbours and needs at most
 * the pass's shortcuts more than it has neighbours.  A subgoal's `down`
 * says it was tried and nothing around it has changed since. */
static int contract_by_sweeps(contractor *C, uint32_t *order) {
  astar__subgoals *s = C->s;
  uint32_t k, n = s->nsub, i;
  unsigned pass;
  int st = ASTAR_OK;
  C->settle = WITNESS_SETTLE;
  for (pass = 0; pass < sizeof contract_passes / sizeof contract_passes[0];
       pass++)
    for (k = 0; k < n; k++) {
      uint32_t maxdeg = contract_passes[pass].maxdeg, nn, np;
      int ok;
      if (s->at[k].level != NONE || s->at[k].down) continue;
      if (C->work == 0) return ASTAR_OK; /* the rest stay global */
      if ((st = simulate(C, k, maxdeg, &nn, &np, &ok)) != ASTAR_OK) return st;
      if (ok == SIM_WIDE) continue; /* maybe in a later pass */
      s->at[k].down = 1;              /* tried */
      if (ok == SIM_LONG) continue;
      if (np > nn + contract_passes[pass].maxadd) {
        s->at[k].down = 0; /* maybe in a later pass */
        continue;
      }
      for (i = 0; i < nn; i++) s->at[C->nb[i]].down = 0; /* try again */
      if ((st = commit(C, k, maxdeg, nn, np, (*order)++)) != ASTAR_OK) return st;
    }
  return ASTAR_OK;
}

/* A subgoal's priority (lower leaves first): twice its edge difference
   (shortcuts it needs minus edges it takes away), plus how many of its
   neighbours have left, plus its depth (one more than the deepest
   neighbour that left before it). */
static int32_t priority(uint32_t npairs, uint32_t nn, uint32_t left,
                        uint32_t depth) {
  return 2 * ((int32_t)npairs - (int32_t)nn) + (int32_t)left + (int32_t)depth;
}

/* A queue entry's key for heap.h's open list: the priority, then the
   index (so a build depends on nothing but the map; keys never tie). */
static uint64_t queue_key(int32_t prio, uint32_t v) {
  return (uint64_t)((uint32_t)prio ^ 0x80000000u) << 32 | v;
}

/* Puts v on the queue h (nh entries, positions in pos) with priority
   prio. */
static void enqueue(astar_heap_entry *h, uint32_t *pos, size_t *nh,
                    int32_t prio, uint32_t v) {
  astar_heap_entry e;
  e.key = queue_key(prio, v);
  e.g = 0.0;
  e.node = v;
  e.aux = 0;
  astar__heap_up(h, pos, (*nh)++, e, 0);
}

/* The contraction order, as in contraction hierarchies: every subgoal
 * on a queue by priority (a first estimate each), then, lazily, the
 * least comes off, its priority is measured again, and it leaves unless
 * that put it past the next one (by more than PRIORITY_SLACK; then it
 * goes back on).  A subgoal with too many neighbours (or a shortcut too
 * long) drops off the queue and comes back when a neighbour leaves, its
 * edge difference taken as 0 until it comes off again.  *order counts
 * the subgoals that left; the work cap stops it early (the rest stay
 * global). */
static int contract_by_priority(contractor *C, uint32_t *order) {
  astar_grid *g = C->g;
  uint32_t n = C->s->nsub, v;
  astar_heap_entry *h = astar__alloc(g, n, sizeof(astar_heap_entry));
  uint32_t *pos = astar__alloc(g, n, sizeof(uint32_t));
  uint32_t *left = astar__alloc(g, n, sizeof(uint32_t));
  uint32_t *depth = astar__alloc(g, n, sizeof(uint32_t));
  uint8_t *queued = astar__alloc(g, n, 1);
  size_t nh = 0;
  uint64_t work;
  int st = ASTAR_OK;
  if (h == NULL || pos == NULL || left == NULL || depth == NULL ||
      queued == NULL) {
    st = ASTAR_ENOMEM;
    goto done;
  }
  memset(left, 0, (size_t)n * sizeof(uint32_t));
  memset(depth, 0, (size_t)n * sizeof(uint32_t));
  memset(queued, 0, n);
  C->settle = FIRST_SETTLE;
  work = C->work;
  for (v = 0; v < n && st == ASTAR_OK; v++) {
    uint32_t nn, np;
    int ok;
    st = simulate(C, v, CONTRACT_MAXDEG, &nn, &np, &ok);
    if (st == ASTAR_OK && ok == SIM_OK) {
      enqueue(h, pos, &nh, priority(np, nn, left[v], depth[v]), v);
      queued[v] = 1;
    }
  }
  C->work = work; /* the first estimates are bounded per subgoal */
  C->settle = WITNESS_SETTLE;
  while (nh > 0 && st == ASTAR_OK && C->work > 0) {
    uint32_t nn, np, i;
    int32_t prio;
    int ok;
    v = h[0].node;
    if (nh > 1) astar__heap_pop(h, pos, nh, 0);
    nh--;
    queued[v] = 0;
    if ((st = simulate(C, v, CONTRACT_MAXDEG, &nn, &np, &ok)) != ASTAR_OK)
      break;
    if (ok != SIM_OK) continue; /* back on when a neighbour leaves */
    prio = priority(np, nn, left[v], depth[v]);
    if (nh > 0 && h[0].key < queue_key(prio - PRIORITY_SLACK, v)) {
      enqueue(h, pos, &nh, prio, v); /* the next one first */
      queued[v] = 1;
      continue;
    }
    if ((st = commit(C, v, CONTRACT_MAXDEG, nn, np, (*order)++)) != ASTAR_OK)
      break;
    for (i = 0; i < nn; i++) { /* its neighbours: one more has left */
      uint32_t u = C->nb[i];
      left[u]++;
      if (depth[u] < depth[v] + 1) depth[u] = depth[v] + 1;
      if (!queued[u]) {
        enqueue(h, pos, &nh, priority(0, 0, left[u], depth[u]), u);
        queued[u] = 1;
      }
    }
  }
done:
  astar__free(g, h, n, sizeof(astar_heap_entry));
  astar__free(g, pos, n, sizeof(uint32_t));
  astar__free(g, left, n, sizeof(uint32_t));
  astar__free(g, depth, n, sizeof(uint32_t));
  astar__free(g, queued, n, 1);
  return st;
}

static void contractor_free(contractor *C) {
  astar_grid *g = C->g;
  size_t n = (size_t)C->s->nsub;
  astar__free(g, C->cells, C->cells_cap, sizeof(cell));
  astar__free(g, C->set, n, sizeof(cellset));
  astar__free(g, C->seen, n, sizeof(uint32_t));
  astar__free(g, C->dist, n, sizeof(double));
  astar__free(g, C->heap, n, sizeof(astar_heap_entry));
  astar__free(g, C->hpos, n, sizeof(uint32_t));
  astar__free(g, C->nb, C->nb_cap, sizeof(uint32_t));
  astar__free(g, C->tmark, n, sizeof(uint32_t));
  astar__free(g, C->tlim, n, sizeof(double));
}

/* the steps of a straight-then-diagonal way from subgoal a to b */
static uint32_t octile_w(const astar__subgoals *s, uint32_t a, uint32_t b) {
  int32_t dx = s->at[a].x - s->at[b].x, dy = s->at[a].y - s->at[b].y;
  uint32_t ax = (uint32_t)(dx < 0 ? -dx : dx), ay = (uint32_t)(dy < 0 ? -dy : dy);
  uint32_t d = ax < ay ? ax : ay;
  return ASTAR__SG_W((ax > ay ? ax : ay) - d, d);
}

/* A shortcut x -> y through c: its record, c's tile and where c's edges
 * to x and to y sit in adj (the first of each; NONE where missing: the
 * unfolding then scans). c's edges up, listed first, were its neighbours
 * when it left, so the loop ends early. */
static void halves_at(const astar__subgoals *s, const uint32_t *adj,
                      uint32_t c, uint32_t x, uint32_t y,
                      struct astar__sg_edge *r) {
  uint32_t e;
  r->through = s->at[c].tile; /* c's index until now */
  r->to_x = r->to_y = NONE;
  for (e = s->first[c]; e < s->first[c + 1]; e++) {
    if (adj[e] == x && r->to_x == NONE) r->to_x = e;
    else if (adj[e] == y && r->to_y == NONE) r->to_y = e;
    if (r->to_x != NONE && r->to_y != NONE) break;
  }
}

/* The plain graph, all subgoals global (no contraction): its edges
 * weigh their octile distance (no weights stored). */
static int weigh_plain(astar__subgoals *s) {
  uint32_t k;
  for (k = 0; k < s->nsub; k++) s->at[k].down = s->first[k + 1];
  return ASTAR_OK;
}

int astar__subgoal_contract(astar_grid *g, astar__subgoals *s) {
  contractor C;
  uint32_t k, e, order = 0, n = s->nsub, *adj, *wt, total;
  struct astar__sg_edge *ex;
  size_t cap;
  int st = ASTAR_OK;
  for (k = 0; k < n; k++) {
    s->at[k].level = NONE;
    s->at[k].down = 0;
  }
  s->nglobal = n;
  s->ncore = s->nedges;
  /* where subgoals cover more than a tenth of the map (random maps) or
     have more than 11 edges each (open cities) the graph loses to jumps
     anyway (contracting never brought the edges per global subgoal below
     that) and contracting would only cost time */
  if (n == 0 || (uint64_t)n * 10u > (uint64_t)g->width * (uint64_t)g->height ||
      (uint64_t)s->nedges > CONTRACT_SKIPDEG * (uint64_t)n)
    return weigh_plain(s);
  memset(&C, 0, sizeof C);
  C.work = (uint64_t)CONTRACT_WORK * g->ntiles;
  C.g = g;
  C.s = s;
  C.card = g->cardinal_length;
  C.diag = g->diagonal_length;
  C.nb_cap = 2 * CONTRACT_MAXDEG + 3 * CONTRACT_MAXDEG * CONTRACT_MAXDEG;
  C.set = astar__alloc(g, n, sizeof(cellset));
  C.seen = astar__alloc(g, n, sizeof(uint32_t));
  C.dist = astar__alloc(g, n, sizeof(double));
  C.nb = astar__alloc(g, C.nb_cap, sizeof(uint32_t));
  C.tmark = astar__alloc(g, n, sizeof(uint32_t));
  C.tlim = astar__alloc(g, n, sizeof(double));
  C.heap = astar__alloc(g, n, sizeof(astar_heap_entry));
  C.hpos = astar__alloc(g, n, sizeof(uint32_t));
  /* each edge both ways, and room for half as many shortcuts */
  C.cells_cap = (size_t)s->nedges * 3u / 2u + 4u * (size_t)n + 16u;
  C.cells = C.cells_cap < NONE
                ? astar__alloc(g, C.cells_cap, sizeof(cell))
                : NULL;
  if (C.cells == NULL) C.cells_cap = 0;
  if (C.cells == NULL || C.set == NULL || C.seen == NULL || C.dist == NULL ||
      C.nb == NULL || C.tmark == NULL ||
      C.tlim == NULL || C.heap == NULL || C.hpos == NULL) {
    contractor_free(&C);
    return ASTAR_ENOMEM;
  }
  memset(C.seen, 0, (size_t)n * sizeof(uint32_t));
  memset(C.tmark, 0, (size_t)n * sizeof(uint32_t));
  for (k = 0; k < n; k++) {
    uint32_t deg = s->first[k + 1] - s->first[k];
    C.set[k].at = (uint32_t)C.ncells;
    C.set[k].cap = deg + deg / 2 + 4;
    C.set[k].nlive = C.set[k].nret = 0;
    C.ncells += C.set[k].cap;
  }
  for (k = 0; k < n && st == ASTAR_OK; k++)
    for (e = s->first[k]; e < s->first[k + 1] && st == ASTAR_OK; e++)
      st = add_edge(&C, k, s->adj[e], octile_w(s, k, s->adj[e]), NONE);
  if (st == ASTAR_OK)
    st = (uint64_t)s->nedges > QUEUE_MAXDEG * (uint64_t)n
             ? contract_by_sweeps(&C, &order)
             : contract_by_priority(&C, &order);
  if (st != ASTAR_OK) {
    contractor_free(&C);
    return st;
  }
  s->nglobal = n - order;
  /* the final layout */
  total = (uint32_t)C.nmade;
  cap = total ? total : 1;
  adj = astar__alloc(g, cap, sizeof(uint32_t));
  wt = astar__alloc(g, cap, sizeof(uint32_t));
  ex = astar__alloc(g, cap, sizeof(*ex));
  if (adj == NULL || wt == NULL || ex == NULL) {
    astar__free(g, adj, cap, sizeof(uint32_t));
    astar__free(g, wt, cap, sizeof(uint32_t));
    astar__free(g, ex, cap, sizeof(*ex));
    contractor_free(&C);
    return ASTAR_ENOMEM;
  }
  e = 0;
  s->ncore = 0;
  for (k = 0; k < n; k++) {
    unsigned up;
    s->first[k] = e;
    for (up = 2; up-- > 0;) { /* up (1), then down (0) */
      uint32_t i, lv = s->at[k].level;
      const cellset *S = &C.set[k];
      /* the live part newest first, then the retired part */
      for (i = 0; i < S->nlive + S->nret; i++) {
        const cell *c = C.cells + S->at +
                        (i < S->nlive ? S->nlive - 1 - i
                                      : S->cap - S->nret + (i - S->nlive));
        if ((s->at[c->to].level >= lv) != (up == 1)) continue;
        adj[e] = c->to;
        ex[e].through = c->via; /* the index, for now */
        wt[e++] = c->w;
      }
      if (up == 1) {
        if (lv == NONE) s->ncore += e - s->first[k];
        s->at[k].down = e;
      }
    }
  }
  s->first[n] = e;
  for (k = 0; k < n; k++) /* where each shortcut's halves sit */
    for (e = s->first[k]; e < s->first[k + 1]; e++) {
      if (ex[e].through != NONE) {
        halves_at(s, adj, ex[e].through, k, adj[e], &ex[e]);
      } else { /* ASTAR__SG_PLAIN; its ways filled in by subgoal.c */
        ex[e].to_x = ex[e].to_y = 0;
      }
    }
  astar__free(g, s->adj, s->edges_cap, sizeof(uint32_t));
  s->adj = adj;
  s->wt = wt;
  s->ex = ex;
  s->edges_cap = (uint32_t)cap;
  s->nedges = e;
  contractor_free(&C);
  return ASTAR_OK;
}

/*
 * The A* family loop: A*, weighted A*, Dijkstra (zero heuristic),
 * breadth-first (a queue), greedy best-first (key = h) and beam search
 * (a capped open list) are knobs of one loop.
 *
 * Speed rules it follows (see DESIGN.md):
 *  - its scratch (stamp, heap position, heap) lives in the search context
 *    and is reused: a generation counter in each stamp makes "reset" O(1),
 *    so a query costs what it touches;
 *  - a tile's legal moves are one byte (the layer keeps them in step);
 *  - the open list is heap.h's binary heap with decrease-key; entries
 *    carry key (compared as an integer), g and node, so comparisons never
 *    chase pointers, and an open node's g lives in its entry (a closed
 *    node's g is never read again: the goal's comes off the heap);
 *  - keys are f quantised to a fixed grid (2^-24 of the cheapest step), so
 *    paths of equal cost give equal keys and ties really go to larger g;
 *  - run() is compiled once per constant mode for the plain search, so
 *    the options cost nothing when unused.
 * The loop stops after a budget of expansions and resumes from where it
 * stands (astar__run), giving exactly an uninterrupted run's result.
 */
#include "astar.h"
#include "bucket.h"
#include "heap.h"
#include "internal.h"
#include "landmarks.h"

#include <math.h>
#include <string.h>

/* What one search needs besides the map.  mode says which of the costly
 * extras are on, so the plain loop is compiled without them. */
enum {
  MODE_HEIGHT = 1,
  MODE_TILE_FN = 2,
  MODE_MOVE_FN = 4,
  MODE_PEAK = 8,    /* track the open list's largest size */
  MODE_X = 16,      /* goal set, cutoffs, closest, blocked start */
  MODE_HX = 32,     /* heuristic over several goals or a callback */
  MODE_GREEDY = 64, /* key = h alone */
  MODE_FIFO = 128,  /* breadth-first: the open list is a queue */
  MODE_BEAM = 256,  /* the open list holds at most beam_width nodes */
  /* ASTAR__HEAP_STRAIGHT = 512, ASTAR__HEAP_RANDOM = 1024 (heap.h) */
  MODE_BUDGET = 2048, /* a sliced step: count the budget down (a whole run
                        does not pay for it) */
  MODE_OVERLAY = 4096, /* avoid / extra_cost: look closer at NEAR tiles */
  MODE_LINKS = 8192, /* the grid has links: tiles with the link bit get
                        their links as extra moves after the rule's */
  MODE_LM = 16384,   /* the heuristic reads landmarks (landmarks.c) */
  MODE_BUCKET = 32768, /* the open list is bucket.h's queue */
  MODE_UNIFORM = 65536 /* every tile the layer can enter costs the same:
                          the step's cost needs no read of the tile */
};

#define MAX_H_GOALS ASTAR__MAX_H_GOALS

/* The one cost of every passable tile of the search's layer (its cost
 * range, kept by every edit; 0 when the range is stale or not one value).
 * A sized layer's tiles are some of the unit's, so the range holds. */
static double uniform_cost(const astar_grid *G, int unit) {
  const astar_unit *u = G->units[unit];
  const astar_range *r = (u == NULL || !u->own) ? &G->range : &u->range;
  if (r->dirty || r->min_count == 0 || r->min != r->max) return 0.0;
  return (double)r->min;
}

/* ---- what the options add to the loop ---- */

/* splitmix64: the same numbers on every platform, for a given seed */
static uint64_t next_random(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15u);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}

/* The heuristic under MODE_HX: the callback, or the least estimate over
 * the goals (0 over more than MAX_H_GOALS). */
static double h_extra(astar__run *S, int32_t x, int32_t y) {
  const astar_query *q = &S->q;
  double best = HUGE_VAL;
  size_t i;
  if (S->ntargets > MAX_H_GOALS) return 0.0;
  for (i = 0; i < S->ntargets; i++) {
    const astar__target *t = &S->targets[i];
    double v;
    if (q->heuristic_fn != NULL) {
      v = 0.0;
      if (q->heuristic_fn(q->heuristic_ud, x, y, t->x, t->y, &v) !=
          ASTAR_OK) {
        S->st = ASTAR_ECALLBACK;
        return 0.0;
      }
      v *= q->weight;
    } else {
      v = astar__h_d(&S->h, x - t->x, y - t->y) - t->offset;
    }
    if (v < best) best = v;
  }
  return best > 0.0 ? best : 0.0;
}

static inline double h_of(astar__run *S, int32_t x, int32_t y, const int mode) {
  if (mode & MODE_HX) return h_extra(S, x, y);
  return astar__h_at(&S->h, x, y);
}

static inline int is_goal(const astar__run *S, uint32_t u, uint32_t goal,
                          const int mode) {
  if ((mode & MODE_X) && S->set != NULL)
    return astar__set_find(S->set, S->nset, u) >= 0;
  return u == goal;
}

/* Straight ties: twice the area between start-goal and node-goal. */
static inline uint32_t off_line(const astar__run *S, int32_t x, int32_t y) {
  int64_t c = (int64_t)(x - S->line_x) * S->line_dy -
              (int64_t)(y - S->line_y) * S->line_dx;
  if (c < 0) c = -c;
  return c > (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)c;
}

/* Beam: the worst entry among the leaves (the worst overall is one). */
static size_t worst_leaf(const astar_heap_entry *heap, size_t n,
                         const int mode) {
  size_t i, w = n / 2;
  for (i = w + 1; i < n; i++)
    if (astar__entry_less(&heap[w], &heap[i], mode)) w = i;
  return w;
}

/* The loop.  Inlined with a constant mode for the plain search, so the
 * extras cost nothing there; the query options run in run_any, where mode
 * is a variable.  It expands at most budget nodes (0: no limit), keeping
 * where it stands in S between calls, and returns ASTAR__SUSPENDED when
 * the budget ran out first. */
ASTAR__HOT_INLINE int run(astar__run *S, const int mode, uint32_t budget) {
  astar_search *ctx = S->s;
  const astar_grid *G = S->G;
  const uint8_t *moves = S->L.moves;
  const float *cost = S->L.cost;
  uint32_t *pos = ctx->heap_pos;
  uint32_t *stamp = ctx->stamp;
  astar_heap_entry *heap = ctx->heap;
  const uint32_t open_tag = S->tag, goal = S->goal;
  const double inv_q = S->inv_q;
  uint32_t expanded = S->expanded;
  uint32_t left = budget != 0 ? budget : UINT32_MAX;
  size_t n = S->n, head = S->head; /* head: the queue's front (MODE_FIFO) */
  int32_t offset[8];
  double length[8];
  int st = ASTAR_OK;
  const astar_link *link = NULL; /* MODE_LINKS: the links of u left */
  size_t nlinks = 0;
  astar__radix *R = (mode & MODE_BUCKET) ? ctx->radix : NULL;
  double *gq = (mode & MODE_BUCKET) ? R->g : NULL; /* open nodes' g */
  size_t base = 0; /* MODE_BUCKET: bucket 0's size under u's entries */
  size_t peak = S->peak; /* MODE_PEAK (a local: stores may alias S) */

  memcpy(offset, G->offset, sizeof offset);
  memcpy(length, G->step_length, sizeof length);
  if (mode & MODE_UNIFORM) { /* the steps' costs, as length * cost[v] */
    double c = uniform_cost(G, S->q.unit);
    unsigned k;
    for (k = 0; k < 8; k++) length[k] *= c;
  }
  while ((mode & MODE_FIFO) ? head < n : n > 0) {
    uint32_t u;
    double gu;
    unsigned m;
    int32_t ux, uy;
    int near = 0;
    if ((mode & MODE_X) && S->best_total < HUGE_VAL &&
        heap[(mode & MODE_FIFO) ? head : 0].key >= S->best_key) {
      S->found = 1; /* no open node can end cheaper than the best goal */
      break;
    }
    if ((mode & MODE_X) && S->max_nodes != 0 && expanded >= S->max_nodes) {
      S->cut = 1;
      break;
    }
    if ((mode & MODE_BUDGET) && left-- == 0) {
      st = ASTAR__SUSPENDED;
      break;
    }
    if (mode & MODE_FIFO) {
      u = heap[head].node;
      gu = heap[head].g;
      head++;
    } else if (mode & MODE_BUCKET) {
      astar_heap_entry top;
      int got = astar__radix_pop(ctx, R, stamp, &top);
      if (got != 1) { /* not seen: n counts the live entries */
        st = got == 0 ? ASTAR_OK : ASTAR_ENOMEM;
        break;
      }
      u = top.node;
      gu = top.g;
      base = R->n[0];
      n--;
      if (mode & MODE_LM) astar__lm_prefetch_pop(S, u, R->b0, base);
    } else {
      u = heap[0].node;
      gu = heap[0].g;
      if (n > 1) astar__heap_pop(heap, pos, n, mode);
      n--;
      if ((mode & MODE_LM) && n > 0) astar__lm_prefetch(S, heap[0].node);
    }
    stamp[u] |= ASTAR__STAMP_CLOSED;
    expanded++;
    if (is_goal(S, u, goal, mode)) {
      if ((mode & MODE_X) && S->q.goal_costs != NULL) {
        /* goal costs: keep the best ending and search on while an open
         * node might end cheaper */
        long k = astar__set_find(S->set, S->nset, u);
        double total = gu + S->targets[k].cost;
        if (total < S->best_total) {
          S->best_total = total;
          S->best_key = astar__quantise(total, inv_q);
          S->reached = u;
          S->r.cost = gu;
        }
      } else {
        S->found = 1;
        S->reached = u;
        S->r.cost = gu;
        break;
      }
    }
    astar_xy(G, u, &ux, &uy);
    /* closest: the query's option, or a sliced step keeping its best
       path so far (astar_search_partial); for one goal and a plain
       distance, one comparison decides most nodes */
    if ((mode & MODE_X) && (S->closest || (mode & MODE_BUDGET))) {
      astar__closer(S, u, ux, uy, gu);
    } else if (mode & MODE_BUDGET) {
      if (S->dist.shape == ASTAR__H_PLAIN) {
        int32_t dx = ux - S->one.x, dy = uy - S->one.y;
        double d;
        if (dx < 0) dx = -dx;
        if (dy < 0) dy = -dy;
        d = dx > dy ? S->dist.A * dx + S->dist.B * dy
                    : S->dist.A * dy + S->dist.B * dx;
        if (d <= S->best_d) astar__closer(S, u, ux, uy, gu);
      } else {
        astar__closer(S, u, ux, uy, gu);
      }
    }
    m = moves[u];
    if ((mode & MODE_X) && u == S->start) m = S->start_moves;
    if ((mode & MODE_TILE_FN) && (st = astar__callback_moves(S, u, &m)) != ASTAR_OK)
      break;
    if ((mode & MODE_OVERLAY) &&
        (near = astar__bit(S->near, u)) &&
        !(mode & MODE_TILE_FN)) /* callback_moves saw the avoided tiles */
      m = astar__overlay_moves(G, S->L.passable, S->mark, S->mtag, u, m);
    if (mode & MODE_LINKS) {
      nlinks = 0;
      if (astar__bit(G->link_bits, u)) astar__links_from(G, u, &link, &nlinks);
    }
    while (m || ((mode & MODE_LINKS) && nlinks != 0)) {
      unsigned d;
      uint32_t v, sv;
      double step, ng, h;
      int32_t vx, vy;
      astar_heap_entry e;
      size_t at;
      int linked = 0;
      if ((mode & MODE_LINKS) && m == 0) { /* the links, after the moves */
        v = link->to;
        step = link->cost;
        link++;
        nlinks--;
        d = 0;
        linked = 1;
        sv = stamp[v];
        if ((sv & ASTAR__STAMP_GEN) == open_tag &&
            ((sv & ASTAR__STAMP_CLOSED) || (mode & MODE_FIFO)))
          continue;
        if (!astar__bit(S->L.passable, v)) continue;
        if ((mode & MODE_OVERLAY) &&
            astar__marked(S->mark, S->mtag, v, ASTAR__MARK_AVOID))
          continue; /* an avoided link end */
        if ((mode & MODE_OVERLAY) &&
            astar__marked(S->mark, S->mtag, v, ASTAR__MARK_EXTRA))
          step += S->add[v];
        if (mode & MODE_TILE_FN) {
          double c;
          if ((st = astar__tile_value(S, v, &c)) != ASTAR_OK) break;
          if (!(c > 0.0)) continue;
        }
        goto relax;
      }
      d = astar__lowest_bit(m);
      v = (uint32_t)((int32_t)u + offset[d]);
      sv = stamp[v];
      m &= m - 1;
      if ((sv & ASTAR__STAMP_GEN) == open_tag && (sv & ASTAR__STAMP_CLOSED)) continue;
      if ((mode & MODE_FIFO) && (sv & ASTAR__STAMP_GEN) == open_tag) continue;
      if (mode & MODE_TILE_FN)
        step = length[d] * ctx->memo[v].cost;
      else if (mode & MODE_UNIFORM)
        step = length[d];
      else
        step = length[d] * (double)cost[v];
      if ((mode & MODE_OVERLAY) && near &&
          astar__marked(S->mark, S->mtag, v, ASTAR__MARK_EXTRA))
        step += length[d] * S->add[v];
      if (mode & MODE_HEIGHT) step += astar__climb_cost(&S->L, u, v);
      if (mode & MODE_MOVE_FN) {
        double c = 0.0;
        vx = ux + astar_dir_dx[d];
        vy = uy + astar_dir_dy[d];
        if (S->q.move_fn(S->q.fn_ud, ux, uy, vx, vy, step, &c) !=
            ASTAR_OK) {
          st = ASTAR_ECALLBACK;
          break;
        }
        if (!(c > 0.0)) continue;
        if (c < S->bound * length[d]) {
          st = astar__bound_broken(S, u, v, c, S->bound * length[d]);
          break;
        }
        step = c;
      }
    relax:
      ng = gu + step;
      if (mode & MODE_X) {
        if (ng > S->max_cost) {
          S->cut = 1;
          continue;
        }
        if (S->depth != NULL && S->depth[u] >= S->max_length) {
          S->cut = S->cut_length = 1;
          continue;
        }
      }
      if ((mode & MODE_BUCKET) && (sv & ASTAR__STAMP_GEN) == open_tag) {
        if (ng >= gq[v]) continue;
        at = 0;
      } else if ((sv & ASTAR__STAMP_GEN) == open_tag) { /* open now */
        at = pos[v];
        if (mode & ASTAR__HEAP_RANDOM) {
          /* an equal-cost parent: keep each with probability (its paths)
           * / (all paths so far), so the path is uniform over them all */
          double gv = heap[at].g, tol = 1e-12 * (ng > 1.0 ? ng : 1.0);
          if (ng >= gv - tol && ng <= gv + tol) {
            double cv = S->count[v] + S->count[u];
            if ((mode & MODE_LINKS) &&
                (linked || (ctx->via[v].gen == open_tag)))
              continue; /* ties through links keep the first parent */
            double r = (double)(next_random(&S->rng) >> 11) *
                       (1.0 / 9007199254740992.0);
            if (cv > 1e300) cv = 1e300;
            S->count[v] = cv;
            if (r * cv < S->count[u])
              stamp[v] = (sv & ~ASTAR__STAMP_DIR) | d;
            continue;
          }
        }
        if (ng >= heap[at].g) continue;
        if (mode & MODE_GREEDY) continue; /* first parent stays */
      } else if (mode & MODE_BUCKET) {
        at = n++;
      } else {
        if (n == ctx->heap_cap) {
          if (astar__grow_heap(ctx) != ASTAR_OK) {
            st = ASTAR_ENOMEM;
            break;
          }
          heap = ctx->heap;
        }
        at = n;
        if ((mode & MODE_BEAM) && n >= S->beam) at = SIZE_MAX;
        else n++;
      }
      if ((mode & MODE_LINKS) && linked) {
        astar_xy(G, v, &vx, &vy);
      } else {
        vx = ux + astar_dir_dx[d];
        vy = uy + astar_dir_dy[d];
      }
      if (mode & MODE_FIFO) {
        e.key = 0;
      } else {
        h = (mode & MODE_LM) ? astar__h_landmarks(S, v, vx, vy)
                             : h_of(S, vx, vy, mode);
        if ((mode & MODE_HX) && S->st != ASTAR_OK) {
          st = S->st;
          break;
        }
        e.key = astar__quantise((mode & MODE_GREEDY) ? h : ng + h, inv_q);
      }
      e.g = ng;
      e.node = v;
      e.aux = (mode & ASTAR__HEAP_STRAIGHT) ? off_line(S, vx, vy) : 0;
      if ((mode & MODE_BEAM) && at == SIZE_MAX) {
        /* full: the new node replaces the worst one, if it is better */
        at = worst_leaf(heap, n, mode);
        if (!astar__entry_less(&e, &heap[at], mode)) continue;
        stamp[heap[at].node] = 0; /* no longer seen in this search */
        S->evicted++;
      }
      stamp[v] = open_tag | d;
      if (mode & MODE_LINKS) {
        ctx->via[v].parent = u;
        ctx->via[v].gen = linked ? open_tag : 0;
      }
      if (mode & MODE_X) {
        if (S->depth != NULL) S->depth[v] = S->depth[u] + 1;
      }
      if (mode & ASTAR__HEAP_RANDOM) S->count[v] = S->count[u];
      if (mode & MODE_FIFO) {
        heap[at] = e;
      } else if (mode & MODE_BUCKET) {
        gq[v] = ng;
        if (astar__radix_push(ctx, R, e, base) != ASTAR_OK) {
          st = ASTAR_ENOMEM;
          break;
        }
      } else
        astar__heap_up(heap, pos, at, e, mode);
      if ((mode & MODE_PEAK) && n - head > peak) peak = n - head;
    }
    if (st != ASTAR_OK) break;
  }
  S->n = n;
  S->head = head;
  if (mode & MODE_PEAK) S->peak = (uint32_t)peak;
  S->expanded = expanded;
  S->r.expanded = expanded;
  S->r.generated = (uint32_t)(n - head) + expanded + S->evicted;
  return st;
}

/* One instantiation of the loop per common mode (run_any: the rest). */
#define RUN_AS(name, m) \
  ASTAR__NOINLINE int name(astar__run *S, uint32_t b) { return run(S, m, b); }
#define MODE_BLM (MODE_BUCKET | MODE_LM) /* landmarks on the bucket queue */
RUN_AS(run_plain, 0)
RUN_AS(run_height, MODE_HEIGHT)
RUN_AS(run_peak, MODE_PEAK) /* a stats table asked */
RUN_AS(run_overlay, MODE_OVERLAY)
RUN_AS(run_sliced, MODE_BUDGET)
RUN_AS(run_sliced_height, MODE_HEIGHT | MODE_BUDGET)
RUN_AS(run_landmarks, MODE_LM)
RUN_AS(run_landmarks_height, MODE_LM | MODE_HEIGHT)
RUN_AS(run_bucket, MODE_BUCKET)
RUN_AS(run_bucket_height, MODE_BUCKET | MODE_HEIGHT)
RUN_AS(run_blm, MODE_BLM)
RUN_AS(run_blm_height, MODE_BLM | MODE_HEIGHT)
RUN_AS(run_blm_peak, MODE_BLM | MODE_PEAK)
RUN_AS(run_blm_height_peak, MODE_BLM | MODE_HEIGHT | MODE_PEAK)
RUN_AS(run_sliced_bucket, MODE_BUCKET | MODE_BUDGET) /* reads the costs */
RUN_AS(run_bucket_peak, MODE_BUCKET | MODE_PEAK)
RUN_AS(run_bucket_uniform, MODE_BUCKET | MODE_UNIFORM)
RUN_AS(run_bucket_uniform_peak, MODE_BUCKET | MODE_UNIFORM | MODE_PEAK)
static const struct {
  int mode;
  int (*run)(astar__run *S, uint32_t b);
} loops[] = {
  {0, run_plain}, {MODE_HEIGHT, run_height}, {MODE_PEAK, run_peak},
  {MODE_OVERLAY, run_overlay}, {MODE_BUDGET, run_sliced},
  {MODE_HEIGHT | MODE_BUDGET, run_sliced_height},
  {MODE_LM, run_landmarks}, {MODE_LM | MODE_HEIGHT, run_landmarks_height},
  {MODE_BUCKET, run_bucket}, {MODE_BUCKET | MODE_HEIGHT, run_bucket_height},
  {MODE_BLM, run_blm}, {MODE_BLM | MODE_HEIGHT, run_blm_height},
  {MODE_BLM | MODE_PEAK, run_blm_peak},
  {MODE_BLM | MODE_HEIGHT | MODE_PEAK, run_blm_height_peak},
  {MODE_BUCKET | MODE_BUDGET, run_sliced_bucket},
  {MODE_BUCKET | MODE_BUDGET | MODE_UNIFORM, run_sliced_bucket},
  {MODE_BUCKET | MODE_UNIFORM, run_bucket_uniform},
  {MODE_BUCKET | MODE_PEAK, run_bucket_peak},
  {MODE_BUCKET | MODE_UNIFORM | MODE_PEAK, run_bucket_uniform_peak},
};
ASTAR__NOINLINE int run_any(astar__run *S, int mode, uint32_t b) {
  return run(S, mode, b);
}

/* Does the query need the loop's options (MODE_X and the rest)? */
static int uses_options(const astar_query *q) {
  return (q->algorithm != ASTAR_ALGO_AUTO &&
          q->algorithm != ASTAR_ALGO_ASTAR &&
          q->algorithm != ASTAR_ALGO_JPS) ||
         q->max_nodes != 0 || astar__uses_options(q);
}

/* Sets up the query options.  Returns ASTAR_OK to search, 1 when the
 * outcome is known already (r->outcome), or an error. */
static int options_init(astar__run *S, int *mode) {
  const astar_grid *G = S->G;
  astar_search *ctx = S->s;
  const astar_query *q = &S->q;
  size_t nt = q->ngoals + (q->no_main_goal ? 0 : 1), nset;
  int random = q->ties == ASTAR_TIES_RANDOM && q->algorithm != ASTAR_ALGO_BFS;
  astar__target *t;
  astar_query dq;
  int st;
  if ((st = astar__context_extra(ctx, q->max_length != 0, random, nt,
                                 8 * nt)) != ASTAR_OK)
    return st;
  *mode |= MODE_X;
  S->depth = q->max_length != 0 ? ctx->extra->depth : NULL;
  S->count = ctx->extra->count;
  S->max_cost = q->max_cost > 0.0 ? q->max_cost : HUGE_VAL; /* 0: none */
  S->max_length = q->max_length;
  S->max_nodes = q->max_nodes;
  S->closest = q->closest;
  dq = *q;
  dq.heuristic = ASTAR_H_DEFAULT;
  dq.weight = 1.0;
  astar__heuristic_init(&S->dist, G, &dq, 1.0);

  t = ctx->extra->targets;
  nset = astar__goal_targets(S, nt);
  if (nset == 0) {
    S->goal_blocked = 1;
    if (!q->closest) {
      S->r.outcome = ASTAR_GOAL_BLOCKED;
      return 1;
    }
  }

  /* the heuristic: one goal as the plain search has it, or MODE_HX */
  if (q->algorithm == ASTAR_ALGO_DIJKSTRA || q->algorithm == ASTAR_ALGO_BFS) {
    S->h.A = S->h.B = 0.0;
    S->h.shape = ASTAR__H_PLAIN;
  } else if (nt == 1 && t[0].offset == 0.0 && q->heuristic_fn == NULL) {
    S->h.gx = t[0].x;
    S->h.gy = t[0].y;
  } else {
    *mode |= MODE_HX;
  }
  if (q->leave_blocked_start && !astar__bit(S->L.passable, S->start)) {
    const astar_unit *u = G->units[q->unit];
    uint8_t m = astar__moves(G, S->L.passable, S->start);
    if (u != NULL && u->own) m = astar__height_filter(G, u, S->start, m);
    S->start_moves = m;
  } else {
    S->start_moves = S->L.moves[S->start];
  }
  switch (q->algorithm) {
  case ASTAR_ALGO_BFS: *mode |= MODE_FIFO; break;
  case ASTAR_ALGO_GREEDY: *mode |= MODE_GREEDY; break;
  case ASTAR_ALGO_BEAM:
    *mode |= MODE_BEAM;
    S->beam = q->beam_width;
    break;
  default: break;
  }
  if (!(*mode & MODE_FIFO)) {
    if (q->ties == ASTAR_TIES_STRAIGHT) {
      *mode |= ASTAR__HEAP_STRAIGHT;
      S->line_x = t[0].x;
      S->line_y = t[0].y;
      S->line_dx = q->sx - t[0].x;
      S->line_dy = q->sy - t[0].y;
    } else if (random) {
      *mode |= ASTAR__HEAP_RANDOM;
      S->rng = q->seed;
    }
  }
  return ASTAR_OK;
}

int astar__loop_start(astar__run *S) {
  const astar_grid *G = S->G;
  astar_search *ctx = S->s;
  const astar_query *q = &S->q;
  astar_result *r = &S->r;
  int st, mode = 0, opts, apart = 0;
  double f;

  opts = uses_options(q);
  if ((st = astar_grid_layer_size(G, q->unit, q->size, &S->L)) != ASTAR_OK) return st;
  S->best = UINT32_MAX;
  S->best_d = S->best_g = HUGE_VAL;
  S->best_total = HUGE_VAL;
  if (!astar__bit(S->L.passable, S->start) && !q->leave_blocked_start) {
    r->outcome = ASTAR_START_BLOCKED;
    return 1;
  }
  if (!opts && !astar__bit(S->L.passable, S->goal)) {
    r->outcome = ASTAR_GOAL_BLOCKED;
    return 1;
  }
  if (q->tile_fn != NULL && (st = astar__context_memo(ctx)) != ASTAR_OK)
    return st;
  if ((st = astar__zones_exit(G, q, S->L.passable, &apart)) != ASTAR_OK) return st;
  if (S->L.height != NULL) mode |= MODE_HEIGHT;
  if (q->tile_fn != NULL) mode |= MODE_TILE_FN;
  if (q->move_fn != NULL) mode |= MODE_MOVE_FN;
  if (q->want_peak) mode |= MODE_PEAK;

  /* the heuristic's scale: a lower bound of every tile cost.  A stated
   * bound is checked against what the callbacks return; without them it
   * may only lower the unit's own bound. */
  S->bound = S->L.min_cost;
  if (q->min_cost > 0.0 &&
      (q->min_cost < S->bound || (mode & (MODE_TILE_FN | MODE_MOVE_FN))))
    S->bound = q->min_cost;
  astar__heuristic_init(&S->h, G, q, S->bound);
  if (G->nlinks != 0) {
    if ((st = astar__context_via(ctx)) != ASTAR_OK) return st;
    mode |= MODE_LINKS;
    f = astar__links_scale(G, &S->h, q->weight); /* admissible with links */
    S->h.A *= f;
    S->h.B *= f;
  }
  S->inv_q = astar__key_scale(G, S->bound);
  if (opts) {
    st = options_init(S, &mode);
    if (st != ASTAR_OK) return st;
  } else { /* the one goal, for the closest tile of a sliced search */
    astar_query dq = *q;
    dq.heuristic = ASTAR_H_DEFAULT;
    dq.weight = 1.0;
    astar__heuristic_init(&S->dist, G, &dq, 1.0);
    S->one.x = q->gx;
    S->one.y = q->gy;
    S->one.index = -1;
    S->one.node = S->goal;
    S->one.offset = 0.0;
    S->targets = &S->one;
    S->ntargets = 1;
  }
  S->tag = ctx->explored_tag = astar__next_generation(ctx);
  if (astar__uses_overlay(q)) {
    st = astar__overlay_stamp(ctx, G, q, S->start,
                              q->no_main_goal ? UINT32_MAX : S->goal,
                              &S->mtag);
    if (st != ASTAR_OK) return st;
    S->mark = ctx->overlay->mark;
    S->add = ctx->overlay->add;
    S->near = ctx->overlay->near;
    mode |= MODE_OVERLAY;
  }

  if ((mode & MODE_TILE_FN) && !opts) { /* a goal the callback closes */
    double c = 1.0;
    if (S->goal != S->start && (st = astar__tile_value(S, S->goal, &c)) != ASTAR_OK)
      return st;
    if (!(c > 0.0)) {
      r->outcome = ASTAR_GOAL_BLOCKED;
      return 1;
    }
  }
  S->reached = S->goal;
  if (apart) { /* checked after the goal callback: goal_blocked first */
    r->outcome = ASTAR_NO_PATH;
    return 1;
  }
  if (!(mode & (MODE_HX | MODE_FIFO | MODE_GREEDY)) && astar__landmarks_start(S)) {
    mode |= MODE_LM;
    r->landmarks = 1;
  }
  /* the bucket queue where its order is the heap's: keys that never go
   * down (the default heuristic or landmarks, consistent: weight 1, no
   * callbacks, no links) and no rule of the options on the order */
  if (q->open_list == ASTAR_OPEN_AUTO && q->heuristic == ASTAR_H_DEFAULT &&
      q->weight == 1.0 &&
      !(mode & ~(MODE_HEIGHT | MODE_PEAK | MODE_OVERLAY | MODE_LM))) {
    if ((st = astar__context_radix(ctx)) != ASTAR_OK) return st;
    mode |= MODE_BUCKET;
    r->bucket = 1;
    /* plain runs only, stats or not (the others read the tiles) */
    if ((mode & ~MODE_PEAK) == MODE_BUCKET && uniform_cost(G, q->unit) > 0.0)
      mode |= MODE_UNIFORM;
  }
  S->mode = mode;

  /* the start on the open list */
  ctx->stamp[S->start] = S->tag;
  {
    astar_heap_entry e;
    double h = (mode & MODE_LM) ? astar__h_landmarks(S, S->start, q->sx, q->sy)
                                : h_of(S, q->sx, q->sy, mode);
    e.key = astar__quantise((mode & MODE_FIFO) ? 0.0 : h, S->inv_q);
    e.g = 0.0;
    e.node = S->start;
    e.aux = 0;
    if ((mode & MODE_X) && S->depth != NULL) S->depth[S->start] = 0;
    if (mode & ASTAR__HEAP_RANDOM) S->count[S->start] = 1.0;
    if (mode & MODE_BUCKET) {
      astar__radix_reset(ctx->radix, e.key);
      ctx->radix->g[S->start] = 0.0;
      if (astar__radix_push(ctx, ctx->radix, e, 0) != ASTAR_OK)
        return ASTAR_ENOMEM;
    } else {
      astar__heap_up(ctx->heap, ctx->heap_pos, 0, e, mode);
    }
    S->n = 1;
    if ((mode & MODE_HX) && S->st != ASTAR_OK) return S->st;
  }
  return ASTAR_OK;
}

/* max_length: a best-first search closes a tile at its cheapest cost,
 * which may take more steps than the limit allows although a dearer path
 * within the limit exists.  When the limit cut the search short, the
 * query runs again breadth-first (tiles reached in order of steps, so the
 * limit prunes exactly): it finds a path within the limit whenever one
 * exists, not necessarily the cheapest of them.  Returns 1 when the
 * restarted run knows its outcome already. */
static int restart_by_steps(astar__run *S) {
  astar__run keep = *S;
  astar_query q = S->q;
  int st;
  q.algorithm = ASTAR_ALGO_BFS;
  memset(S, 0, sizeof *S);
  S->G = keep.G;
  S->s = keep.s;
  S->q = q;
  S->r = keep.r;
  S->engine = keep.engine;
  S->start = keep.start;
  S->goal = keep.goal;
  S->by_steps = 1;
  S->prior_expanded = keep.expanded;
  S->prior_generated = keep.r.generated;
  st = astar__loop_start(S);
  S->r.algorithm = keep.r.algorithm;
  return st;
}

int astar__loop_step(astar__run *S, uint32_t budget) {
  const astar_grid *G = S->G;
  astar_result *r = &S->r;
  int st;
  for (;;) {
    uint32_t before = S->expanded;
    int mode = S->mode | (budget != 0 ? MODE_BUDGET : 0);
    size_t k = 0;
    while (k < sizeof loops / sizeof loops[0] && loops[k].mode != mode) k++;
    st = k < sizeof loops / sizeof loops[0] ? loops[k].run(S, budget)
                                            : run_any(S, mode, budget);
    r->peak_open = S->peak > r->peak_open ? S->peak : r->peak_open;
    if (st != ASTAR_OK) break; /* suspended, or an error */
    if (!S->found && !S->cut && S->best_total < HUGE_VAL)
      S->found = 1; /* goal costs: the open list ran dry */
    if (!S->found && S->cut_length && !S->by_steps && !S->closest) {
      uint32_t used = S->expanded - before;
      if ((st = restart_by_steps(S)) == 1) { /* not seen: the first run
                                                 passed the same checks */
        astar__finish(S, 0, S->goal);
        return ASTAR_OK;
      }
      if (st != ASTAR_OK) return st;
      if (budget != 0) {
        if (used >= budget) return ASTAR__SUSPENDED;
        budget -= used;
      }
      continue;
    }
    break;
  }
  if (S->by_steps) {
    r->expanded += S->prior_expanded;
    r->generated += S->prior_generated;
  }
  if (st != ASTAR_OK) return st; /* suspended, or an error */
  if (S->found) {
    r->outcome = ASTAR_FOUND;
    if (S->set != NULL) {
      long k = astar__set_find(S->set, S->nset, S->reached);
      r->goal_index = S->targets[k].index;
    }
  } else {
    r->outcome = S->goal_blocked ? ASTAR_GOAL_BLOCKED
                 : S->cut        ? ASTAR_CUTOFF
                                 : ASTAR_NO_PATH;
    if (S->closest && S->best != UINT32_MAX) { /* partial path */
      S->found = 1;
      S->reached = S->best;
      r->cost = S->best_g;
      r->partial = 1;
    }
  }
  astar__finish(S, S->found, S->reached);
  if (S->found) {
    uint32_t node = S->reached, len = 1;
    while (astar_path_prev(S->s, &node)) len++;
    r->length = len;
    astar_xy(G, S->reached, &r->end_x, &r->end_y);
  }
  return ASTAR_OK;
}

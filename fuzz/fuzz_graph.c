/*
 * fuzz_graph: explicit graphs (astar_graph) edited at random, searched and
 * turned into fields, every answer checked against a model and reference
 * searches written here from astar.h.
 *
 * Input layout:
 *   byte 0   how many nodes to add first (mod 12)
 *   then operations, one opcode byte each (op = byte % 9) plus operands:
 *     0 add a node: p x y z (p & 1: placed at x, y, z in 0..15)
 *     1 set an edge: a b c (cost COSTS[c % 16]; c >= 240: remove)
 *     2 disable / enable a node: a d
 *     3 a query: s k g1 g2 g3 m (k % 3 + 1 goals, m: algorithm,
 *       heuristic, weight, max_cost)
 *     4 an edit or a reserve under a failing allocation: f, then op 0 or
 *       op 1's operands (f & 1: add a node, else an edge; f & 2: a
 *       reserve of f >> 2 more nodes first)
 *     5 op 3 with the context's allocation (f & 7) + 1 failing: f, then
 *       op 3's operands
 *     6 a field: d k g1 g2 g3 v m (d & 1: "from"; v: start values;
 *       m: max_cost)
 *     7 the whole model check (also after every prepare)
 *     8 a field with the field's allocation failing: f, then op 6's
 *
 * The model: node count, placed flags and positions, disabled flags, and
 * the cost of every ordered pair (or none).  Checks:
 *  - astar_graph_edge of every pair equals the model; n, nedges and the
 *    unplaced count agree; the bytes the heap holds equal
 *    astar_graph_memory;
 *  - after astar_graph_prepare: two nodes share a zone exactly when they
 *    are joined by edges of either direction (disabled nodes count);
 *  - a failing allocation (node, edge, reserve, prepare, search, field)
 *    gives ENOMEM only when one failed and leaves the graph equal to the
 *    model (it is not applied), the same call then succeeding;
 *  - a query: START_BLOCKED for a disabled start, GOAL_BLOCKED when every
 *    goal is disabled, else found exactly when the reference Dijkstra
 *    (enabled nodes) reaches a goal; the path runs from the start along
 *    edges of the model through enabled nodes to the goal named by
 *    r->end_x and q->goals[r->goal_index], its edge costs summing to
 *    r->cost; A*, Dijkstra and bidirectional cost the optimum (within the
 *    keys' quantum, 2^-24 of the cheapest edge, per step), weighted A*
 *    at most weight times it, breadth-first has the fewest edges; with
 *    max_cost: found when the optimum is within it (greedy and
 *    breadth-first may end with a cutoff instead), never a path above it;
 *  - a field: a node has a value exactly when the reference (multi-source
 *    Dijkstra from the enabled goals with their start values, over edges
 *    as they point for "from" and against them for "to") gives it one
 *    within max_cost, and the value is the reference's (within 1e-9 of
 *    the largest of it and the start values); each node's step is an
 *    edge of the model to a node with a value, its cost the edge's, and
 *    value = next's value + step exactly; a node with no step is a goal at
 *    its own start value.
 */
#include "fuzz_common.h"

#include <math.h>

#define NMAX 40

static const double COSTS[16] = {1,   2,   3,    0.5,  0,  7.5, 100, 1e-3,
                                 1,   1,   4,    0.25, 10, 2,   1.5, 1e6};

static fz_heap heap, sheap, fheap;
static astar_graph graph;
static astar_search ctx;
static astar_graph_field field;

static struct {
  uint32_t n;
  int placed[NMAX], disabled[NMAX];
  double pos[NMAX][3];
  double cost[NMAX][NMAX]; /* < 0: no edge */
} M;

static double min_pos_cost(void) {
  double m = HUGE_VAL;
  uint32_t a, b;
  for (a = 0; a < M.n; a++)
    for (b = 0; b < M.n; b++)
      if (M.cost[a][b] > 0.0 && M.cost[a][b] < m) m = M.cost[a][b];
  return m;
}

static void check_model(void) {
  uint32_t a, b, unplaced = 0;
  size_t edges = 0;
  FZ_ASSERT(graph.n == M.n);
  for (a = 0; a < M.n; a++) {
    unplaced += !M.placed[a];
    FZ_ASSERT(((graph.flags[a] & ASTAR_NODE_DISABLED) != 0) == M.disabled[a]);
    for (b = 0; b < M.n; b++) {
      double c = astar_graph_edge(&graph, a, b);
      FZ_ASSERT(c == (M.cost[a][b] < 0.0 ? -1.0 : M.cost[a][b]));
      edges += M.cost[a][b] >= 0.0;
    }
  }
  FZ_ASSERT(graph.unplaced == unplaced && graph.nedges == edges);
  FZ_ASSERT(heap.live == astar_graph_memory(&graph));
}

/* Weak components of the model, by a flood from each node. */
static void check_zones(void) {
  static uint32_t comp[NMAX], stack[NMAX];
  uint32_t a, b, ncomp = 0, zones;
  for (a = 0; a < M.n; a++) comp[a] = UINT32_MAX;
  for (a = 0; a < M.n; a++) {
    size_t top = 0;
    if (comp[a] != UINT32_MAX) continue;
    comp[a] = ncomp;
    stack[top++] = a;
    while (top > 0) {
      uint32_t u = stack[--top];
      for (b = 0; b < M.n; b++)
        if ((M.cost[u][b] >= 0.0 || M.cost[b][u] >= 0.0) &&
            comp[b] == UINT32_MAX) {
          comp[b] = ncomp;
          stack[top++] = b;
        }
    }
    ncomp++;
  }
  for (a = 0; a < M.n; a++) {
    uint32_t za, zb;
    FZ_ASSERT(astar_graph_zone(&graph, a, &za) == ASTAR_OK);
    for (b = a + 1; b < M.n; b++) {
      FZ_ASSERT(astar_graph_zone(&graph, b, &zb) == ASTAR_OK);
      FZ_ASSERT((za == zb) == (comp[a] == comp[b]));
    }
  }
  zones = graph.nzones;
  FZ_ASSERT(zones == ncomp);
}

static void prepare(unsigned fail) {
  int rc;
  if (fail) {
    heap.fail_at = heap.count + fail;
    heap.fail_sticky = 0;
    heap.failed = 0;
    rc = astar_graph_prepare(&graph);
    heap.fail_at = 0;
    if (rc == ASTAR_ENOMEM) FZ_ASSERT(heap.failed > 0);
    else FZ_ASSERT(rc == ASTAR_OK && heap.failed == 0);
  }
  FZ_ASSERT(astar_graph_prepare(&graph) == ASTAR_OK);
  check_model();
  check_zones();
}

/* ---- edits ---- */

static void add_node(fz_reader *rd) {
  unsigned p = fz_byte(rd);
  double pos[3];
  uint32_t id = UINT32_MAX;
  int rc;
  pos[0] = (double)(fz_byte(rd) % 16);
  pos[1] = (double)(fz_byte(rd) % 16);
  pos[2] = (double)(fz_byte(rd) % 16);
  if (M.n == NMAX) return;
  rc = astar_graph_add_node(&graph, (int)(p & 1), pos, &id);
  if (rc == ASTAR_ENOMEM) return; /* under a failing allocation */
  FZ_ASSERT(rc == ASTAR_OK && id == M.n);
  M.placed[id] = (int)(p & 1);
  M.disabled[id] = 0;
  memcpy(M.pos[id], pos, sizeof pos);
  M.n++;
}

static void set_edge(fz_reader *rd) {
  unsigned a = fz_byte(rd), b = fz_byte(rd), c = fz_byte(rd);
  double cost = c >= 240 ? -1.0 : COSTS[c % 16];
  int rc;
  if (M.n == 0) return;
  a %= M.n;
  b %= M.n;
  rc = astar_graph_set_edge(&graph, a, b, cost);
  if (rc == ASTAR_ENOMEM) return;
  FZ_ASSERT(rc == ASTAR_OK);
  M.cost[a][b] = cost < 0.0 ? -1.0 : cost;
}

static void failing_edit(fz_reader *rd) {
  unsigned f = fz_byte(rd);
  uint32_t n0 = M.n;
  heap.fail_at = heap.count + 1;
  heap.fail_sticky = 1;
  heap.failed = 0;
  if (f & 2) {
    int rc = astar_graph_reserve(&graph, M.n + (f >> 2));
    FZ_ASSERT(rc == ASTAR_OK || (rc == ASTAR_ENOMEM && heap.failed > 0));
  }
  if (f & 1) add_node(rd);
  else set_edge(rd);
  heap.fail_at = 0;
  /* applied in the model only when it succeeded; the check says whether
   * the graph agrees either way */
  if (heap.failed == 0 && (f & 1) && n0 < NMAX) FZ_ASSERT(M.n == n0 + 1);
  check_model();
}

/* ---- references ---- */

static double dist[NMAX];
static uint32_t hops[NMAX];

/* Dijkstra from the sources (with their start values), over enabled
 * nodes; backward: along edges against their direction. */
static void reference(const uint32_t *src, const double *val, size_t k,
                      int backward) {
  static int done[NMAX];
  uint32_t a, b;
  size_t i;
  for (a = 0; a < NMAX; a++) dist[a] = HUGE_VAL, done[a] = 0;
  for (i = 0; i < k; i++)
    if (!M.disabled[src[i]] && val[i] < dist[src[i]]) dist[src[i]] = val[i];
  for (;;) {
    uint32_t u = UINT32_MAX;
    for (a = 0; a < M.n; a++)
      if (!done[a] && dist[a] < HUGE_VAL && (u == UINT32_MAX || dist[a] < dist[u]))
        u = a;
    if (u == UINT32_MAX) return;
    done[u] = 1;
    for (b = 0; b < M.n; b++) {
      double c = backward ? M.cost[b][u] : M.cost[u][b];
      if (c < 0.0 || M.disabled[b]) continue;
      if (dist[u] + c < dist[b]) dist[b] = dist[u] + c;
    }
  }
}

/* Fewest edges from s, over enabled nodes. */
static void reference_hops(uint32_t s) {
  static uint32_t queue[NMAX];
  size_t head = 0, tail = 0;
  uint32_t a, b;
  for (a = 0; a < NMAX; a++) hops[a] = UINT32_MAX;
  hops[s] = 0;
  queue[tail++] = s;
  while (head < tail) {
    uint32_t u = queue[head++];
    for (b = 0; b < M.n; b++)
      if (M.cost[u][b] >= 0.0 && !M.disabled[b] && hops[b] == UINT32_MAX) {
        hops[b] = hops[u] + 1;
        queue[tail++] = b;
      }
  }
}

/* ---- queries ---- */

static int read_query(fz_reader *rd, astar_graph_query *q, uint32_t *goals) {
  static const int algos[5] = {ASTAR_ALGO_ASTAR, ASTAR_ALGO_DIJKSTRA,
                               ASTAR_ALGO_BFS, ASTAR_ALGO_GREEDY,
                               ASTAR_ALGO_BIDIR};
  unsigned s = fz_byte(rd), k = fz_byte(rd) % 3 + 1, m, i;
  for (i = 0; i < 3; i++) goals[i] = fz_byte(rd);
  m = fz_byte(rd);
  if (M.n == 0) return 0;
  astar_graph_query_defaults(q);
  q->start = s % M.n;
  for (i = 0; i < k; i++) goals[i] %= M.n;
  q->goals = goals;
  q->ngoals = k;
  q->algorithm = algos[m % 5];
  if (m & 8) q->heuristic = ASTAR_H_ZERO;
  if (q->algorithm == ASTAR_ALGO_ASTAR && (m & 16)) q->weight = 1.5;
  if (q->algorithm != ASTAR_ALGO_BIDIR && (m & 32))
    q->max_cost = COSTS[(m >> 6) + 1] * 2.0;
  return 1;
}

static void check_query(const astar_graph_query *q, const astar_result *r) {
  const uint32_t *path;
  uint32_t len, k, end;
  double opt = HUGE_VAL, sum = 0.0, slack;
  double max_cost = q->max_cost > 0.0 ? q->max_cost : HUGE_VAL; /* 0: none */
  size_t i;
  int any = 0;
  static const double zero[3] = {0, 0, 0};
  if (M.disabled[q->start]) {
    FZ_ASSERT(r->outcome == ASTAR_START_BLOCKED);
    return;
  }
  for (i = 0; i < q->ngoals; i++) any |= !M.disabled[q->goals[i]];
  if (!any) {
    FZ_ASSERT(r->outcome == ASTAR_GOAL_BLOCKED);
    return;
  }
  reference(&q->start, zero, 1, 0);
  for (i = 0; i < q->ngoals; i++)
    if (!M.disabled[q->goals[i]] && dist[q->goals[i]] < opt)
      opt = dist[q->goals[i]];
  slack = 1e-9 * opt + (double)M.n * min_pos_cost() / 16777216.0;
  if (opt == HUGE_VAL) { /* with max_cost: cut off, it cannot know */
    FZ_ASSERT(r->outcome == ASTAR_NO_PATH ||
              (max_cost < HUGE_VAL && r->outcome == ASTAR_CUTOFF));
    return;
  }
  if (opt > max_cost) {
    FZ_ASSERT(r->outcome == ASTAR_CUTOFF || r->outcome == ASTAR_NO_PATH);
    return;
  } else if (max_cost < HUGE_VAL && (q->algorithm == ASTAR_ALGO_GREEDY ||
                                      q->algorithm == ASTAR_ALGO_BFS)) {
    /* they never update a node once found: the first way to a node may
     * cost more than max_cost where a later one would not */
    FZ_ASSERT(r->outcome == ASTAR_FOUND || r->outcome == ASTAR_CUTOFF);
    if (r->outcome == ASTAR_CUTOFF) return;
  } else {
    FZ_ASSERT(r->outcome == ASTAR_FOUND);
  }
  path = astar_graph_path(&ctx, &len);
  FZ_ASSERT(path != NULL && len >= 1 && path[0] == q->start);
  end = path[len - 1];
  FZ_ASSERT((uint32_t)r->end_x == end && r->goal_index >= 0 &&
            (size_t)r->goal_index < q->ngoals &&
            q->goals[r->goal_index] == end && !M.disabled[end]);
  for (k = 0; k + 1 < len; k++) {
    FZ_ASSERT(M.cost[path[k]][path[k + 1]] >= 0.0 && !M.disabled[path[k + 1]]);
    sum += M.cost[path[k]][path[k + 1]];
  }
  FZ_ASSERT(fabs(sum - r->cost) <= 1e-9 * sum + 1e-300);
  FZ_ASSERT(r->cost >= opt - slack);
  FZ_ASSERT(r->cost <= max_cost);
  switch (q->algorithm) {
  case ASTAR_ALGO_ASTAR:
    FZ_ASSERT(r->cost <= q->weight * opt + slack);
    break;
  case ASTAR_ALGO_DIJKSTRA: case ASTAR_ALGO_BIDIR:
    FZ_ASSERT(r->cost <= opt + slack);
    break;
  case ASTAR_ALGO_BFS: {
    uint32_t best = UINT32_MAX;
    reference_hops(q->start);
    for (i = 0; i < q->ngoals; i++)
      if (!M.disabled[q->goals[i]] && hops[q->goals[i]] < best)
        best = hops[q->goals[i]];
    if (max_cost == HUGE_VAL) FZ_ASSERT(len - 1 == best);
    break;
  }
  default: break;
  }
}

static void query(fz_reader *rd, unsigned fail) {
  astar_graph_query q;
  astar_result r;
  uint32_t goals[3];
  int rc;
  if (!read_query(rd, &q, goals)) return;
  prepare(0);
  if (fail) {
    sheap.fail_at = sheap.count + fail;
    sheap.fail_sticky = 0;
    sheap.failed = 0;
    rc = astar_graph_find_path(&ctx, &graph, &q, &r);
    sheap.fail_at = 0;
    if (rc == ASTAR_ENOMEM) FZ_ASSERT(sheap.failed > 0);
    else FZ_ASSERT(rc == ASTAR_OK && sheap.failed == 0);
    FZ_ASSERT(sheap.live == astar_search_memory(&ctx));
  }
  FZ_ASSERT(astar_graph_find_path(&ctx, &graph, &q, &r) == ASTAR_OK);
  check_query(&q, &r);
  FZ_ASSERT(sheap.live == astar_search_memory(&ctx));
  check_model(); /* a search never writes the graph */
}

/* ---- fields ---- */

static void make_field(fz_reader *rd, unsigned fail) {
  static const double VALUES[8] = {0, -1e6, 1, 2.5, -1, 10, 0.5, 3e8};
  astar_graph_field_query q;
  uint32_t goals[3], a;
  double values[3], vmax = 0.0;
  unsigned d = fz_byte(rd), k = fz_byte(rd) % 3 + 1, v, m, i;
  int rc;
  for (i = 0; i < 3; i++) goals[i] = fz_byte(rd);
  v = fz_byte(rd);
  m = fz_byte(rd);
  if (M.n == 0) return;
  for (i = 0; i < k; i++) {
    goals[i] %= M.n;
    values[i] = VALUES[(v >> (2 * i)) & 7];
  }
  q.goals = goals;
  q.ngoals = k;
  q.values = v & 128 ? values : NULL;
  if (q.values == NULL)
    for (i = 0; i < k; i++) values[i] = 0.0;
  for (i = 0; i < k; i++)
    if (fabs(values[i]) > vmax) vmax = fabs(values[i]);
  q.max_cost = m & 1 ? COSTS[(m >> 1) & 15] * 3.0 : HUGE_VAL;
  q.direction = d & 1 ? ASTAR_FIELD_FROM : ASTAR_FIELD_TO;
  prepare(0);
  if (fail) {
    fheap.fail_at = fheap.count + fail;
    fheap.fail_sticky = 0;
    fheap.failed = 0;
    rc = astar_graph_field_build(&field, &graph, &q);
    fheap.fail_at = 0;
    if (rc == ASTAR_ENOMEM) FZ_ASSERT(fheap.failed > 0);
    else FZ_ASSERT(rc == ASTAR_OK && fheap.failed == 0);
    FZ_ASSERT(fheap.live == astar_graph_field_memory(&field));
  }
  FZ_ASSERT(astar_graph_field_build(&field, &graph, &q) == ASTAR_OK);
  FZ_ASSERT(fheap.live == astar_graph_field_memory(&field));
  /* "to": the cost from each node to a goal, so the reference runs
   * backward from the goals */
  reference(goals, values, k, q.direction == ASTAR_FIELD_TO);
  for (a = 0; a < M.n; a++) {
    int want = dist[a] < HUGE_VAL && dist[a] <= q.max_cost;
    FZ_ASSERT(astar_graph_field_has(&field, a) == want);
    if (!want) continue;
    /* the same sums in another order: within their rounding, relative
     * to the largest term (a start value far from 0 rounds the costs
     * added to it) */
    FZ_ASSERT(fabs(field.value[a] - dist[a]) <=
              1e-9 * (fabs(dist[a]) > vmax ? fabs(dist[a]) : vmax) + 1e-12);
    if (field.next[a] == UINT32_MAX) {
      int goal = 0;
      for (i = 0; i < k; i++)
        if (goals[i] == a && field.value[a] == values[i]) goal = 1;
      FZ_ASSERT(goal);
    } else {
      uint32_t b = field.next[a];
      double c = q.direction == ASTAR_FIELD_TO ? M.cost[a][b] : M.cost[b][a];
      FZ_ASSERT(b < M.n && astar_graph_field_has(&field, b));
      FZ_ASSERT(c >= 0.0 && field.step[a] == c);
      /* the step the build chose: the value it gave a, exactly (values
       * and steps are doubles, a's value was next's plus the edge) */
      FZ_ASSERT(field.value[a] == field.value[b] + c);
    }
  }
  check_model();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_reader rd;
  unsigned first, i;
  int ops = 0;
  uint32_t a, b;
  rd.p = data;
  rd.n = size;
  fz_heap_init(&heap);
  fz_heap_init(&sheap);
  fz_heap_init(&fheap);
  astar_graph_init(&graph, fz_alloc, &heap);
  astar_search_init(&ctx, fz_alloc, &sheap);
  astar_graph_field_init(&field, fz_alloc, &fheap);
  memset(&M, 0, sizeof M);
  for (a = 0; a < NMAX; a++)
    for (b = 0; b < NMAX; b++) M.cost[a][b] = -1.0;
  first = fz_byte(&rd) % 12;
  for (i = 0; i < first; i++) {
    double pos[3];
    uint32_t id;
    pos[0] = (double)i;
    pos[1] = (double)(i * 7 % 5);
    pos[2] = 0.0;
    FZ_ASSERT(astar_graph_add_node(&graph, 1, pos, &id) == ASTAR_OK);
    M.placed[id] = 1;
    memcpy(M.pos[id], pos, sizeof pos);
    M.n++;
  }
  check_model();
  while (rd.n > 0 && ops++ < 200) {
    unsigned op = fz_byte(&rd) % 9;
    switch (op) {
    case 0: add_node(&rd); break;
    case 1: set_edge(&rd); break;
    case 2: {
      unsigned x = fz_byte(&rd), d = fz_byte(&rd);
      if (M.n == 0) break;
      astar_graph_disable(&graph, x % M.n, (int)(d & 1));
      M.disabled[x % M.n] = (int)(d & 1);
      break;
    }
    case 3: query(&rd, 0); break;
    case 4: failing_edit(&rd); break;
    case 5: query(&rd, (fz_byte(&rd) & 7) + 1); break;
    case 6: make_field(&rd, 0); break;
    case 7: prepare(fz_byte(&rd) & 3); break;
    default: make_field(&rd, (fz_byte(&rd) & 7) + 1); break;
    }
  }
  astar_graph_field_release(&field);
  astar_search_release(&ctx);
  FZ_ASSERT(fheap.live == 0 && fheap.blocks == 0);
  FZ_ASSERT(sheap.live == 0 && sheap.blocks == 0);
  astar_graph_release(&graph);
  FZ_ASSERT(heap.live == 0 && heap.blocks == 0);
  return 0;
}

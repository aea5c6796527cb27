/*
 * Paths that stay valid: checking a path against the map as it is now
 * (astar_path_check) and repairing one after edits (astar_path_repair).
 *
 * The check walks the path with the very rules a search reads: the
 * unit's layer (its move masks hold passability, the corner rule and
 * height limits), its tile costs and heights, and the query's overlays;
 * a step is legal exactly when a search could take it.  The repair is a
 * multi-goal search (the `goals` option of the A* loop) from the unit's
 * tile onto the old path's first legal tiles past its last break, capped
 * at a budget of expansions, with a plain search as the fallback.
 */
#include "astar.h"
#include "internal.h"

#include <string.h>

/* The direction of the step (dx, dy), or 8 when it is none. */
static unsigned dir_of(int32_t dx, int32_t dy) {
  /* (dy + 1) * 3 + (dx + 1) -> direction: NW N NE, W - E, SW S SE */
  static const unsigned char dirs[9] = {ASTAR_NW, ASTAR_N, ASTAR_NE,
                                        ASTAR_W,  8,       ASTAR_E,
                                        ASTAR_SW, ASTAR_S, ASTAR_SE};
  if (dx < -1 || dx > 1 || dy < -1 || dy > 1) return 8;
  return dirs[(dy + 1) * 3 + (dx + 1)];
}

static uint32_t tile_at(const astar_grid *g, const int32_t *xy, size_t i) {
  return astar_index(g, xy[2 * i], xy[2 * i + 1]);
}

int astar_path_check(astar_search *s, const astar_grid *g,
                     const astar_query *q, const int32_t *xy, size_t n,
                     size_t from, astar_path_report *out) {
  astar_layer L;
  const uint32_t *mark = NULL;
  const double *add = NULL;
  const uint64_t *near = NULL;
  uint32_t tag = 0, u;
  unsigned dirs = astar__rule_dirs(g->diagonal);
  size_t i;
  int st;
  double *acc = out->acc;
  out->bad = out->last_bad = n;
  out->last_bad_open = 0;
  out->cost = 0.0;
  if (from >= n || g->cost == NULL) return ASTAR_EINVAL;
  if (acc != NULL) acc[from] = 0.0;
  if ((st = astar_grid_layer(g, q->unit, &L)) != ASTAR_OK) return st;
  if (astar__uses_overlay(q)) {
    astar_query oq = *q;
    if (s == NULL) return ASTAR_EINVAL;
    if (s->busy || s->state == ASTAR_SEARCH_RUNNING) return ASTAR_EBUSY;
    if ((st = astar__context_fit(s, g->ntiles)) != ASTAR_OK) return st;
    oq.ngoals = 0;
    st = astar__overlay_stamp(s, g, &oq, tile_at(g, xy, from),
                              tile_at(g, xy, n - 1), &tag);
    if (st != ASTAR_OK) return st;
    mark = s->overlay->mark;
    add = s->overlay->add;
    near = s->overlay->near;
  }
  u = tile_at(g, xy, from);
  if (!astar__bit(L.passable, u)) out->bad = out->last_bad = from;
  for (i = from + 1; i < n; i++) {
    uint32_t v = tile_at(g, xy, i);
    unsigned d = dir_of(xy[2 * i] - xy[2 * i - 2],
                        xy[2 * i + 1] - xy[2 * i - 1]);
    unsigned m = L.moves[u];
    if (near != NULL && astar__bit(near, u))
      m = astar__overlay_moves(g, L.passable, mark, tag, u, m);
    if (d < 8 && (dirs & m & (1u << d))) {
      if (out->bad == n) {
        double c = astar__step_cost(g, &L, u, v, d);
        if (mark != NULL && astar__marked(mark, tag, v, ASTAR__MARK_EXTRA))
          c += g->step_length[d] * add[v];
        out->cost += c;
        if (acc != NULL) acc[i] = c;
      }
    } else {
      if (out->bad == n) out->bad = i;
      out->last_bad = i;
      out->last_bad_open =
          astar__bit(L.passable, v) &&
          (mark == NULL || !astar__marked(mark, tag, v, ASTAR__MARK_AVOID) ||
           i == n - 1);
    }
    u = v;
  }
  return ASTAR_OK;
}

int astar_path_repair(astar_search *s, const astar_grid *g,
                      const astar_query *q, const int32_t *xy, size_t n,
                      size_t at, uint32_t budget, astar_repair *out) {
  astar_path_report rep = {0, 0, 0, 0.0, NULL};
  astar_query rq;
  int32_t goals[2 * ASTAR_REPAIR_WINDOW];
  double costs[ASTAR_REPAIR_WINDOW], acc[ASTAR_REPAIR_WINDOW], sum = 0.0;
  astar_path_report rest = {0, 0, 0, 0.0, NULL};
  astar_path_report head = {0, 0, 0, 0.0, NULL};
  size_t j0, nw, k;
  int st;
  memset(out, 0, sizeof *out);
  out->bad = n;
  out->r.goal_index = -1;
  if ((st = astar_path_check(s, g, q, xy, n, at, &rep)) != ASTAR_OK)
    return st;
  if (rep.bad == n) {
    out->how = ASTAR_REPAIR_KEPT;
    out->cost = rep.cost;
    return ASTAR_OK;
  }
  out->bad = rep.bad;
  /* the rejoin window: the first tiles from which the old path is legal
   * to its end (past its last break; the broken tile itself when only the
   * step into it broke) */
  j0 = rep.last_bad_open ? rep.last_bad : rep.last_bad + 1;
  if (rep.bad > at && j0 < n) {
    /* leave the old path a few tiles before its first break (its tiles
     * up to there are legal), so the detour is a local search */
    size_t leave = rep.bad - 1 - (rep.bad - 1 - at < ASTAR_REPAIR_BACKOFF
                                      ? rep.bad - 1 - at
                                      : ASTAR_REPAIR_BACKOFF);
    double before = 0.0;
    if (leave > at) {
      if ((st = astar_path_check(s, g, q, xy + 2 * at, leave - at + 1, 0,
                                 &head)) != ASTAR_OK)
        return st;
      before = head.cost;
    }
    nw = n - j0 < ASTAR_REPAIR_WINDOW ? n - j0 : ASTAR_REPAIR_WINDOW;
    /* each rejoin tile's cost: the old path's cost from there on, so
     * the search ends where the detour plus the rest is least */
    if ((st = astar_path_check(s, g, q, xy, n, j0, &rest)) != ASTAR_OK)
      return st;
    head.acc = acc;
    st = astar_path_check(s, g, q, xy + 2 * j0, nw, 0, &head);
    if (st != ASTAR_OK) return st;
    for (k = 0; k < nw; k++) {
      sum += acc[k];
      goals[2 * k] = xy[2 * (j0 + k)];
      goals[2 * k + 1] = xy[2 * (j0 + k) + 1];
      costs[k] = rest.cost - sum;
      if (!(costs[k] >= 0.0)) costs[k] = 0.0; /* rounding */
    }
    rq = *q;
    rq.sx = xy[2 * leave];
    rq.sy = xy[2 * leave + 1];
    rq.gx = xy[2 * j0];
    rq.gy = xy[2 * j0 + 1];
    rq.goals = goals;
    rq.goal_costs = costs;
    rq.ngoals = nw;
    rq.no_main_goal = 1;
    rq.max_nodes = budget;
    rq.max_cost = HUGE_VAL;
    rq.max_length = 0;
    rq.closest = 0;
    if ((st = astar_find_path(s, g, &rq, &out->r)) != ASTAR_OK) return st;
    out->expanded = out->r.expanded;
    if (out->r.outcome == ASTAR_FOUND && out->r.goal_index >= 0) {
      astar_path_report tail = {0, 0, 0, 0.0, NULL};
      k = j0 + (size_t)out->r.goal_index;
      /* the old path from the rejoin tile on: legal by construction */
      st = astar_path_check(s, g, q, xy, n, k, &tail);
      if (st != ASTAR_OK) return st;
      out->how = ASTAR_REPAIR_REJOINED;
      out->leave = leave;
      out->rejoin = k;
      out->cost = before + out->r.cost + tail.cost;
      return ASTAR_OK;
    }
  }
  /* a plain search from the unit to the old path's end */
  rq = *q;
  rq.sx = xy[2 * at];
  rq.sy = xy[2 * at + 1];
  rq.gx = xy[2 * (n - 1)];
  rq.gy = xy[2 * (n - 1) + 1];
  rq.goals = NULL;
  rq.goal_costs = NULL;
  rq.ngoals = 0;
  rq.no_main_goal = 0;
  st = astar_find_path(s, g, &rq, &out->r);
  out->expanded += out->r.expanded;
  out->how = ASTAR_REPAIR_FRESH;
  out->cost = out->r.cost;
  return st;
}

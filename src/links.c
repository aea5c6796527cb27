/*
 * Grid links: moves between two tiles that the movement rule does not
 * make (stairs between two levels drawn side by side, ladders, teleports,
 * doors), each at its own cost.
 *
 * They are few (tens to thousands), so they live in one array sorted by
 * (from, to): the A* loop finds a tile's links with a binary search, and
 * only for tiles whose bit in link_bits is set (either end of a link), so
 * a tile without links costs one bit test, and a grid without links costs
 * nothing (the loop is compiled without them).  Adding or removing a link
 * marks every layer's zones for a relabel (zones.c joins the regions the
 * links join when it labels).
 */
#include "astar.h"
#include "internal.h"

#include <string.h>

static size_t bits_words(const astar_grid *g) {
  return astar__bitmap_words(g->ntiles);
}

void astar__links_release(astar_grid *g) {
  astar__free(g, g->links, g->links_cap, sizeof(astar_link));
  astar__free(g, g->link_bits, bits_words(g), sizeof(uint64_t));
  g->links = NULL;
  g->link_bits = NULL;
  g->nlinks = g->links_cap = 0;
}

size_t astar__links_memory(const astar_grid *g) {
  size_t total = g->links_cap * sizeof(astar_link);
  if (g->link_bits != NULL) total += bits_words(g) * sizeof(uint64_t);
  return total;
}

/* The first link at or after (from, to) in the sorted array. */
static size_t lower(const astar_grid *g, uint32_t from, uint32_t to) {
  size_t lo = 0, hi = g->nlinks;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    const astar_link *k = &g->links[mid];
    if (k->from < from || (k->from == from && k->to < to))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

void astar__links_from(const astar_grid *g, uint32_t u,
                       const astar_link **first, size_t *n) {
  size_t a = lower(g, u, 0), b = a;
  while (b < g->nlinks && g->links[b].from == u) b++;
  *first = g->links + a;
  *n = b - a;
}

static void zones_stale(astar_grid *g) {
  int u;
  astar__zones_stale(&g->zones);
  for (u = 0; u < ASTAR_MAX_UNITS; u++)
    if (g->units[u] != NULL) astar__zones_stale(&g->units[u]->zones);
}

/* The link bit of tile i: set while a link starts or ends there. */
static void refresh_bit(astar_grid *g, uint32_t i) {
  size_t k;
  int on = 0;
  for (k = 0; k < g->nlinks && !on; k++)
    on = g->links[k].from == i || g->links[k].to == i;
  astar__set_bit(g->link_bits, i, on);
}

/* Adds or updates one directed link. */
static int put(astar_grid *g, uint32_t a, uint32_t b, double cost,
               int two_way) {
  size_t at = lower(g, a, b);
  if (at < g->nlinks && g->links[at].from == a && g->links[at].to == b) {
    g->links[at].cost = cost;
    g->links[at].two_way = two_way;
    return ASTAR_OK;
  }
  if (g->nlinks == g->links_cap) {
    void *p = g->links;
    int st = astar__grow(g->alloc, g->alloc_ud, &p, &g->links_cap,
                         g->nlinks + 1, sizeof(astar_link), 8);
    if (st != ASTAR_OK) return st;
    g->links = p;
  }
  memmove(g->links + at + 1, g->links + at,
          (g->nlinks - at) * sizeof(astar_link));
  g->links[at].from = a;
  g->links[at].to = b;
  g->links[at].cost = cost;
  g->links[at].two_way = two_way;
  g->nlinks++;
  return ASTAR_OK;
}

static void drop(astar_grid *g, uint32_t a, uint32_t b, int *removed) {
  size_t at = lower(g, a, b);
  if (at < g->nlinks && g->links[at].from == a && g->links[at].to == b) {
    memmove(g->links + at, g->links + at + 1,
            (g->nlinks - at - 1) * sizeof(astar_link));
    g->nlinks--;
    (*removed)++;
  }
}

int astar_grid_link(astar_grid *g, int32_t x1, int32_t y1, int32_t x2,
                    int32_t y2, double cost, int two_way) {
  uint32_t a = astar_index(g, x1, y1), b = astar_index(g, x2, y2);
  int st;
  if (a == b || !(cost >= 0.0 && cost <= 1e300)) return ASTAR_EINVAL;
  if (g->link_bits == NULL) {
    g->link_bits = astar__alloc(g, bits_words(g), sizeof(uint64_t));
    if (g->link_bits == NULL) return ASTAR_ENOMEM;
    memset(g->link_bits, 0, bits_words(g) * sizeof(uint64_t));
  }
  /* room for both first, so a failure leaves no half link */
  if (g->nlinks + 2 > g->links_cap) {
    void *p = g->links;
    st = astar__grow(g->alloc, g->alloc_ud, &p, &g->links_cap, g->nlinks + 2,
                     sizeof(astar_link), 8);
    if (st != ASTAR_OK) return st;
    g->links = p;
  }
  if ((st = put(g, a, b, cost, two_way)) != ASTAR_OK) return st;
  if (two_way) {
    if ((st = put(g, b, a, cost, 1)) != ASTAR_OK) return st;
  } else { /* the way back, if any, is a one-way link of its own now */
    size_t at = lower(g, b, a);
    if (at < g->nlinks && g->links[at].from == b && g->links[at].to == a)
      g->links[at].two_way = 0;
  }
  astar__set_bit(g->link_bits, a, 1);
  astar__set_bit(g->link_bits, b, 1);
  zones_stale(g);
  g->version++;
  return ASTAR_OK;
}

int astar_grid_unlink(astar_grid *g, int32_t x1, int32_t y1, int32_t x2,
                      int32_t y2, int *removed) {
  uint32_t a = astar_index(g, x1, y1), b = astar_index(g, x2, y2);
  *removed = 0;
  if (g->nlinks == 0) return ASTAR_OK;
  drop(g, a, b, removed);
  drop(g, b, a, removed);
  if (*removed == 0) return ASTAR_OK;
  refresh_bit(g, a);
  refresh_bit(g, b);
  zones_stale(g);
  g->version++;
  return ASTAR_OK;
}

/* Links keep the heuristic admissible: a link may cost less than the
 * distance it spans, as the heuristic measures it.  Every step of the
 * rule costs at least its estimate; a link of cost c over an estimate e
 * costs at least (c / e) of it; so with f the least such ratio (1 at
 * most), f * h never overestimates (the estimates obey the triangle
 * inequality, and so does their sum along any path).  A free teleport
 * makes f = 0: Dijkstra.  h is the query's heuristic, weight included. */
double astar__links_scale(const astar_grid *g, const astar__heuristic *h,
                          double weight) {
  double f = 1.0;
  size_t i;
  for (i = 0; i < g->nlinks; i++) {
    int32_t ax, ay, bx, by;
    double e;
    astar_xy(g, g->links[i].from, &ax, &ay);
    astar_xy(g, g->links[i].to, &bx, &by);
    e = astar__h_d(h, ax - bx, ay - by) / weight;
    if (e > 0.0 && g->links[i].cost < f * e) f = g->links[i].cost / e;
  }
  return f;
}

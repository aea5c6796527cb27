/*
 * A query's overlays: `avoid` (tiles blocked for this query only: other
 * units, reserved tiles) and `extra_cost` (a cost added to tiles for this
 * query only).  Nothing of the map changes: the tiles are stamped in the
 * context's marks with a generation of their own (O(k) to set up, nothing
 * to undo), and every tile next to a stamped one is marked NEAR, so the
 * search looks closer only there: one load and test per expansion, in
 * the loop's overlay instantiation only.
 *
 * An avoided tile is blocked for this query, as a wall is: for an s x s
 * unit (q->size > 1) no footprint may cover it, so the s x s top-left
 * positions whose square covers it are the ones stamped (the marks, as
 * the unit's layer, are read at the top-left tile).  Tiles under the
 * footprint at the start or at a goal are never avoided (a list of every
 * unit's tiles, the searching unit's own among them, may be passed as it
 * is): they are marked KEEP first and their entries skipped.
 */
#include "astar.h"
#include "internal.h"

#include <string.h>

/* Marks v and its eight neighbours NEAR (the map's border of sentinels
 * keeps every neighbour inside the arrays), and v's mark current. */
static void near(astar__overlay *o, const astar_grid *G, uint32_t tag,
                 uint32_t v) {
  int d;
  if ((o->mark[v] & ASTAR__MARK_GEN) != tag) o->mark[v] = tag;
  for (d = -1; d < 8; d++) {
    uint32_t w = d < 0 ? v : (uint32_t)((int32_t)v + G->offset[d]);
    if (!astar__bit(o->near, w)) {
      astar__set_bit(o->near, w, 1);
      o->listed[o->nlisted++] = w;
    }
  }
}

/* KEEP on the size x size square whose top-left tile is v (the map's
 * tiles of it). */
static void keep(uint32_t *mark, const astar_grid *G, uint32_t tag,
                 uint32_t v, int size) {
  int32_t x, y, i, j;
  if (v == UINT32_MAX) return;
  astar_xy(G, v, &x, &y);
  for (j = 0; j < size && y + j < G->height; j++)
    for (i = 0; i < size && x + i < G->width; i++) {
      uint32_t w = astar_index(G, x + i, y + j);
      if ((mark[w] & ASTAR__MARK_GEN) != tag) mark[w] = tag;
      mark[w] |= ASTAR__MARK_KEEP;
    }
}

int astar__overlay_stamp(astar_search *s, const astar_grid *G,
                         const astar_query *q, uint32_t keep_a,
                         uint32_t keep_b, uint32_t *tag) {
  astar__overlay *o;
  uint32_t *mark, t;
  size_t i, need;
  const int size = q->size > 1 ? q->size : 1;
  const size_t cover = (size_t)size * (size_t)size; /* anchors per tile */
  void *p;
  int st = astar__context_overlay(s, q->nextra != 0);
  if (st != ASTAR_OK) return st;
  o = s->overlay;
  mark = o->mark;
  /* the last query's NEAR bits go; room for this one's: 9 per stamped
     tile, and never more than the map's tiles (each is listed once) */
  for (i = 0; i < o->nlisted; i++) astar__set_bit(o->near, o->listed[i], 0);
  o->nlisted = 0;
  if (q->navoid > SIZE_MAX / 9 - q->nextra) return ASTAR_ENOMEM;
  need = (size_t)G->ntiles;
  if (q->navoid <= need / cover && q->nextra <= need) {
    size_t k = 9 * (q->navoid * cover + q->nextra);
    if (k < need) need = k;
  }
  p = o->listed;
  st = astar__context_grow(s, &p, &o->listed_cap, need, sizeof(uint32_t));
  o->listed = p;
  if (st != ASTAR_OK) return st;
  if (++o->generation > ASTAR__MAX_MARK_GENERATION) {
    memset(mark, 0, (size_t)s->ntiles * sizeof(uint32_t));
    o->generation = 1;
  }
  t = o->generation << 3;
  keep(mark, G, t, keep_a, size);
  keep(mark, G, t, keep_b, size);
  for (i = 0; i < q->ngoals; i++)
    keep(mark, G, t, astar_index(G, q->goals[2 * i], q->goals[2 * i + 1]),
         size);
  for (i = 0; i < q->navoid; i++) {
    int32_t x = q->avoid[2 * i], y = q->avoid[2 * i + 1], a, b;
    if (astar__marked(mark, t, astar_index(G, x, y), ASTAR__MARK_KEEP))
      continue;
    for (b = 0; b < size && y - b >= 0; b++)
      for (a = 0; a < size && x - a >= 0; a++) {
        uint32_t v = astar_index(G, x - a, y - b);
        near(o, G, t, v);
        mark[v] |= ASTAR__MARK_AVOID;
      }
  }
  for (i = 0; i < q->nextra; i++) {
    uint32_t v = astar_index(G, q->extra_tiles[2 * i],
                             q->extra_tiles[2 * i + 1]);
    near(o, G, t, v);
    if (!(mark[v] & ASTAR__MARK_EXTRA)) {
      mark[v] |= ASTAR__MARK_EXTRA;
      o->add[v] = 0.0;
    }
    o->add[v] += q->extra_costs[i];
  }
  *tag = t;
  return ASTAR_OK;
}

unsigned astar__overlay_moves(const astar_grid *G, const uint64_t *passable,
                              const uint32_t *mark, uint32_t tag, uint32_t u,
                              unsigned m) {
  /* the two cardinal directions beside each diagonal NE SE SW NW */
  static const unsigned side[4] = {
      1u << ASTAR_N | 1u << ASTAR_E, 1u << ASTAR_S | 1u << ASTAR_E,
      1u << ASTAR_S | 1u << ASTAR_W, 1u << ASTAR_N | 1u << ASTAR_W};
  unsigned open = 0, keep_m, d;
  int rule = G->diagonal;
  for (d = 0; d < 8; d++) {
    uint32_t v = (uint32_t)((int32_t)u + G->offset[d]);
    if (astar__bit(passable, v) && !astar__marked(mark, tag, v,
                                                  ASTAR__MARK_AVOID))
      open |= 1u << d;
  }
  keep_m = m & open;
  if (rule == ASTAR_DIAG_BOTH_FREE || rule == ASTAR_DIAG_ONE_FREE) {
    for (d = 4; d < 8; d++) {
      unsigned s = open & side[d - 4];
      if (rule == ASTAR_DIAG_BOTH_FREE ? s != side[d - 4] : s == 0)
        keep_m &= ~(1u << d);
    }
  }
  return keep_m;
}

/* Room for n overlay tiles in f's own copy. */
static int overlay_room(astar_field *f, size_t n) {
  astar_search *s = &f->ctx;
  int32_t *xy;
  double *c;
  if (n <= f->ov_cap) return ASTAR_OK;
  if (n > SIZE_MAX / 16) return ASTAR_ENOMEM;
  xy = (int32_t *)astar__mem(s->alloc, s->alloc_ud, 2 * n, sizeof(int32_t));
  if (xy == NULL) return ASTAR_ENOMEM;
  c = (double *)astar__mem(s->alloc, s->alloc_ud, n, sizeof(double));
  if (c == NULL) {
    astar__mem_free(s->alloc, s->alloc_ud, xy, 2 * n, sizeof(int32_t));
    return ASTAR_ENOMEM;
  }
  astar__mem_free(s->alloc, s->alloc_ud, f->ov_xy, 2 * f->ov_cap,
                  sizeof(int32_t));
  astar__mem_free(s->alloc, s->alloc_ud, f->ov_cost, f->ov_cap,
                  sizeof(double));
  f->ov_xy = xy;
  f->ov_cost = c;
  f->ov_cap = n;
  return ASTAR_OK;
}

/* A field's overlays (field.c): q's overlays stamped in f's marks (goals never avoided), then copied
 * into f's own lists (the avoided tiles that stayed avoided, then the
 * extra costs), so that following the field, a flee and a rescan see
 * them after q's lists are gone.  q's lists may be f's own (a rescan). */
int astar__field_overlay(astar_field *f, const astar_grid *G,
                         const astar_field_query *q) {
  astar_search *s = &f->ctx;
  astar_query tq;
  size_t i, k = 0, n;
  uint32_t tag;
  int st;
  if (q->navoid == 0 && q->nextra == 0) {
    f->ov_navoid = f->ov_nextra = 0;
    return ASTAR_OK;
  }
  if (q->navoid > SIZE_MAX / 16 - q->nextra) return ASTAR_ENOMEM;
  memset(&tq, 0, sizeof tq);
  tq.avoid = q->avoid;
  tq.navoid = q->navoid;
  tq.extra_tiles = q->extra_tiles;
  tq.extra_costs = q->extra_costs;
  tq.nextra = q->nextra;
  tq.goals = q->goals;
  tq.ngoals = q->goals != NULL ? q->ngoals : 0;
  tq.size = q->size;
  if ((st = astar__overlay_stamp(s, G, &tq, UINT32_MAX, UINT32_MAX, &tag)) !=
      ASTAR_OK)
    return st;
  n = q->navoid + q->nextra;
  if (q->avoid != f->ov_xy && (st = overlay_room(f, n)) != ASTAR_OK)
    return st;
  /* in place when q's lists are f's: writes never pass reads */
  for (i = 0; i < q->navoid; i++) {
    uint32_t v = astar_index(G, q->avoid[2 * i], q->avoid[2 * i + 1]);
    if (astar__marked(s->overlay->mark, tag, v, ASTAR__MARK_KEEP))
      continue; /* under a goal */
    f->ov_xy[2 * k] = q->avoid[2 * i];
    f->ov_xy[2 * k + 1] = q->avoid[2 * i + 1];
    k++;
  }
  f->ov_navoid = k;
  for (i = 0; i < q->nextra; i++) {
    f->ov_xy[2 * (k + i)] = q->extra_tiles[2 * i];
    f->ov_xy[2 * (k + i) + 1] = q->extra_tiles[2 * i + 1];
    f->ov_cost[i] = q->extra_costs[i];
  }
  f->ov_nextra = q->nextra;
  f->mtag = tag;
  return ASTAR_OK;
}

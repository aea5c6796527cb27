/*
 * Zones: connected-region labels per layer, so a query between two tiles
 * that no chain of moves joins returns without searching.
 *
 * A layer is what a search reads for a unit class: the grid's own layer
 * (unit 0 and every unit whose table is all 1 without a height limit) or a
 * unit's own baked layers.  Connectivity is read from the layer's move
 * masks, so the diagonal rule, the corner rule and the unit's terrain and
 * height bans are all respected.  A move joins its two tiles even when only
 * one direction is legal (a height limit can allow a drop but ban the climb
 * back): zones are the weakly connected components, which keeps
 * "different zones => no path" true at the price of "same zone" meaning
 * "connected" rather than "reachable both ways" under one-way limits.
 *
 * Labels are slots of a union-find forest; a zone's id is its root slot.
 *  - Full labelling: one breadth-first flood per zone, the search's
 *    heap-position array as queue: O(tiles), a few ns per tile.
 *  - A tile opens: it gets a new slot, then every move around it unites
 *    the zones at both ends (union by size: the bigger zone keeps its id).
 *  - A tile closes (or a height changes): every move that can have vanished
 *    has both ends among the 3x3 tiles around it.  Floods started from
 *    those of them that shared a zone run in turns, one tile each; two that
 *    meet are one part, one that runs dry is a part on its own.  The race
 *    stops when one part is left running, so it costs about as many tiles
 *    as the parts that split off (times the number of floods), or the
 *    length of the detour that joins the tiles around the edit; only the
 *    parts that split off are relabelled.  A race past a budget gives up
 *    and leaves a full relabel for the next query instead.
 * Labelling floods with a queue of its own, made for the call and freed
 * after it.  The race's flood marks and queues are a scratch of the
 * grid's (g->zscratch: a stamp and a link per tile), made at the first
 * repair that needs one and kept, so repairs never touch a search
 * context.  Queries only read: they find roots without compressing paths
 * (union by size keeps the forest shallow), so any number of threads may
 * ask while no edit runs.
 */
#include "astar.h"
#include "internal.h"

#include <math.h>
#include <string.h>

#define NONE UINT32_MAX
#define SLOTS_INITIAL 256u

/* The repair scratch (one per grid). */
typedef struct astar__zscratch {
  uint32_t *stamp, *next;
  uint32_t generation;
} zscratch;

/* ---- slots: union-find over zone ids ---- */

/* The root of slot s, read only. */
static uint32_t zroot(const astar_zones *z, uint32_t s) {
  while (z->parent[s] != s) s = z->parent[s];
  return s;
}

static uint32_t zfind(astar_zones *z, uint32_t s) {
  uint32_t r = s;
  while (z->parent[r] != r) r = z->parent[r];
  while (z->parent[s] != r) { /* path compression; roots never change */
    uint32_t next = z->parent[s];
    z->parent[s] = r;
    s = next;
  }
  return r;
}

/* Makes room for slot index need - 1 (ENOMEM leaves z as it was). */
static int reserve(astar_grid *g, astar_zones *z, uint32_t need) {
  uint32_t cap = z->cap ? z->cap : SLOTS_INITIAL, *p, *s;
  while (cap < need) {
    if (cap > UINT32_MAX / 2) return ASTAR_ENOMEM;
    cap *= 2;
  }
  if (cap == z->cap) return ASTAR_OK;
  p = astar__alloc(g, cap, sizeof(uint32_t));
  s = astar__alloc(g, cap, sizeof(uint32_t));
  if (p == NULL || s == NULL) {
    astar__free(g, p, cap, sizeof(uint32_t));
    astar__free(g, s, cap, sizeof(uint32_t));
    return ASTAR_ENOMEM;
  }
  if (z->used > 0) {
    memcpy(p, z->parent, (size_t)z->used * sizeof(uint32_t));
    memcpy(s, z->size, (size_t)z->used * sizeof(uint32_t));
  }
  astar__free(g, z->parent, z->cap, sizeof(uint32_t));
  astar__free(g, z->size, z->cap, sizeof(uint32_t));
  z->parent = p;
  z->size = s;
  z->cap = cap;
  return ASTAR_OK;
}

/* A fresh zone of size 0, or 0 when there is no room (then the caller
 * leaves a full relabel for later).  Edits leave dead slots behind; once
 * the slots outnumber the zones four to one, a full relabel (which
 * renumbers from 1) is cheaper than growing further. */
static uint32_t new_slot(astar_grid *g, astar_zones *z) {
  uint32_t s = z->used;
  if (s >= z->cap && z->cap / 4u >= z->count + 64u) return 0;
  if (s == UINT32_MAX || reserve(g, z, s + 1) != ASTAR_OK) return 0;
  z->used = s + 1;
  z->parent[s] = s;
  z->size[s] = 0;
  return s;
}

static void unite(astar_zones *z, uint32_t a, uint32_t b) {
  a = zfind(z, a);
  b = zfind(z, b);
  if (a == b) return;
  if (z->size[a] < z->size[b]) {
    uint32_t t = a;
    a = b;
    b = t;
  }
  z->parent[b] = a;
  z->size[a] += z->size[b];
  z->size[b] = 0;
  z->count--;
}

void astar__zones_release(astar_grid *g, astar_zones *z) {
  astar__free_whole(g, z->label, g->ntiles, sizeof(uint32_t));
  astar__free(g, z->parent, z->cap, sizeof(uint32_t));
  astar__free(g, z->size, z->cap, sizeof(uint32_t));
  memset(z, 0, sizeof *z);
}

/* Counts the grid's repair scratch once, with its own zones. */
size_t astar__zones_memory(const astar_grid *g, const astar_zones *z) {
  size_t total = 0;
  if (z->label != NULL) total += (size_t)g->ntiles * sizeof(uint32_t);
  if (z == &g->zones && g->zscratch != NULL)
    total += sizeof(zscratch) + (size_t)g->ntiles * 2 * sizeof(uint32_t);
  return total + (size_t)z->cap * 2 * sizeof(uint32_t);
}

void astar__zones_scratch_release(astar_grid *g) {
  zscratch *x = g->zscratch;
  if (x == NULL) return;
  astar__free(g, x->stamp, g->ntiles, sizeof(uint32_t));
  astar__free(g, x->next, g->ntiles, sizeof(uint32_t));
  astar__free(g, x, 1, sizeof *x);
  g->zscratch = NULL;
}

static zscratch *scratch(astar_grid *g) {
  zscratch *x = g->zscratch;
  if (x != NULL) return x;
  x = astar__alloc(g, 1, sizeof *x);
  if (x == NULL) return NULL;
  x->stamp = astar__alloc(g, g->ntiles, sizeof(uint32_t));
  x->next = astar__alloc(g, g->ntiles, sizeof(uint32_t));
  x->generation = 0;
  g->zscratch = x;
  if (x->stamp == NULL || x->next == NULL) {
    astar__zones_scratch_release(g);
    return NULL;
  }
  memset(x->stamp, 0, (size_t)g->ntiles * sizeof(uint32_t));
  return x;
}

/* A fresh tag for the race's marks (generation << 4 | flood). */
static uint32_t next_tag(astar_grid *g, zscratch *x) {
  if (++x->generation > ASTAR__MAX_GENERATION) {
    memset(x->stamp, 0, (size_t)g->ntiles * sizeof(uint32_t));
    x->generation = 1;
  }
  return x->generation << 4;
}

/* ---- moves as links ---- */

typedef struct links {
  const uint8_t *moves;
  const uint64_t *passable;
  const int32_t *offset;
  int oneway; /* moves may be legal one way only: look at both ends */
} links;

/* The directions out of passable tile u that join it to a neighbour. */
static inline unsigned links_of(const links *k, uint32_t u) {
  unsigned m = k->moves[u], d;
  if (!k->oneway) return m;
  for (d = 0; d < 8; d++) {
    uint32_t v;
    if (m & (1u << d)) continue;
    v = (uint32_t)((int32_t)u + k->offset[d]);
    if (astar__bit(k->passable, v) && (k->moves[v] & (1u << (d ^ 2u))))
      m |= 1u << d;
  }
  return m;
}

/* ---- full labelling ---- */

static int label_all(astar_grid *g, astar_zones *z, const links *k,
                     uint32_t *queue) {
  uint32_t *label, w, nwords, n = 0;
  if (z->label == NULL) {
    z->label = astar__alloc_whole(g, g->ntiles, sizeof(uint32_t));
    if (z->label == NULL) return ASTAR_ENOMEM;
  }
  if (reserve(g, z, SLOTS_INITIAL) != ASTAR_OK) return ASTAR_ENOMEM;
  label = z->label;
  memset(label, 0, (size_t)g->ntiles * sizeof(uint32_t));
  z->used = 1;
  z->count = 0;
  nwords = (uint32_t)astar__bitmap_words(g->ntiles);
  for (w = 0; w < nwords; w++) {
    uint64_t bits = k->passable[w];
    while (bits) {
      uint32_t i = w * 64u, head = 0, tail = 1, s;
#if defined(__GNUC__) || defined(__clang__)
      i += (uint32_t)__builtin_ctzll(bits);
#else
      { uint64_t b = bits; while (!(b & 1u)) { b >>= 1; i++; } }
#endif
      bits &= bits - 1;
      if (label[i] != 0) continue;
      s = new_slot(g, z);
      if (s == 0) return ASTAR_ENOMEM;
      z->count = ++n;
      label[i] = s;
      queue[0] = i;
      while (head < tail) {
        uint32_t u = queue[head++];
        unsigned m = links_of(k, u);
        while (m) {
          uint32_t v = (uint32_t)((int32_t)u + k->offset[astar__lowest_bit(m)]);
          m &= m - 1;
          if (label[v] == 0) {
            label[v] = s;
            queue[tail++] = v;
          }
        }
      }
      z->size[s] = tail;
    }
  }
  z->count = n;
  z->stale = 0;
  return ASTAR_OK;
}

/* ---- local repair ---- */

/* Unites the zones at both ends of every move out of the 3x3 tiles
 * around c (all the moves an edit at c can have created). */
static void unite_around(astar_grid *g, astar_zones *z, const links *k,
                         uint32_t c) {
  int dy, dx;
  for (dy = -1; dy <= 1; dy++) {
    for (dx = -1; dx <= 1; dx++) {
      uint32_t u = (uint32_t)((int32_t)c + dy * g->stride + dx);
      unsigned m;
      if (!astar__bit(k->passable, u)) continue;
      m = links_of(k, u);
      while (m) {
        uint32_t v = (uint32_t)((int32_t)u + k->offset[astar__lowest_bit(m)]);
        m &= m - 1;
        unite(z, z->label[u], z->label[v]);
      }
    }
  }
}

/* Relabels the tiles of zone root reachable from seed as a new zone. */
static int split_off(astar_grid *g, astar_zones *z, const links *k,
                     uint32_t root, uint32_t seed) {
  uint32_t *queue = g->zscratch->next, head = 0, tail = 1;
  uint32_t s = new_slot(g, z);
  if (s == 0) return ASTAR_ENOMEM;
  z->label[seed] = s;
  queue[0] = seed;
  while (head < tail) {
    uint32_t u = queue[head++];
    unsigned m = links_of(k, u);
    while (m) {
      uint32_t v = (uint32_t)((int32_t)u + k->offset[astar__lowest_bit(m)]);
      m &= m - 1;
      if (z->label[v] != s && zfind(z, z->label[v]) == root) {
        z->label[v] = s;
        queue[tail++] = v;
      }
    }
  }
  z->size[s] = tail;
  z->size[root] -= tail;
  z->count++;
  return ASTAR_OK;
}

#define MAX_SEEDS 9

/* The race between floods from seeds[0..n-1], all in zone root (see the
 * top of the file).  Returns ENOMEM or ETOOBIG (budget spent) when the
 * labels could not be repaired. */
static int race(astar_grid *g, astar_zones *z, const links *k, uint32_t root,
                const uint32_t *seeds, int n) {
  zscratch *x = scratch(g);
  uint32_t head[MAX_SEEDS], tail[MAX_SEEDS], *next, *stamp, tag, spent = 0;
  uint32_t budget = g->ntiles / 4u + 1024u;
  int part[MAX_SEEDS], done[MAX_SEEDS], running = n, j;
  if (x == NULL) return ASTAR_ENOMEM;
  next = x->next;
  stamp = x->stamp;
  tag = next_tag(g, x);
  for (j = 0; j < n; j++) {
    stamp[seeds[j]] = tag | (uint32_t)j;
    head[j] = tail[j] = seeds[j];
    next[seeds[j]] = NONE;
    part[j] = j;
    done[j] = 0;
  }
  while (running > 1) {
    for (j = 0; j < n && running > 1; j++) {
      uint32_t u;
      unsigned m;
      if (part[j] != j || done[j]) continue;
      if (head[j] == NONE) { /* ran dry: a part of its own */
        done[j] = 1;
        running--;
        continue;
      }
      if (++spent > budget) return ASTAR_ETOOBIG;
      u = head[j];
      head[j] = next[u];
      m = links_of(k, u);
      while (m) {
        uint32_t v = (uint32_t)((int32_t)u + k->offset[astar__lowest_bit(m)]);
        uint32_t sv = stamp[v];
        m &= m - 1;
        if ((sv & ~15u) == tag) {
          int h = (int)(sv & 15u);
          while (part[h] != h) h = part[h];
          if (h == j) continue;
          /* the two floods meet: one part; h's queue joins j's */
          part[h] = j;
          if (head[h] != NONE) {
            if (head[j] == NONE)
              head[j] = head[h];
            else
              next[tail[j]] = head[h];
            tail[j] = tail[h];
          }
          if (--running <= 1) break;
        } else {
          stamp[v] = tag | (uint32_t)j;
          next[v] = NONE;
          if (head[j] == NONE)
            head[j] = v;
          else
            next[tail[j]] = v;
          tail[j] = v;
        }
      }
    }
  }
  /* the parts that ran dry split off; the one still running keeps root */
  for (j = 0; j < n; j++) {
    if (part[j] == j && done[j]) {
      int st = split_off(g, z, k, root, seeds[j]);
      if (st != ASTAR_OK) return st;
    }
  }
  return ASTAR_OK;
}

/* After moves around c may have vanished: for every zone with two or more
 * passable tiles among the 3x3 around c, race them. */
static int check_splits(astar_grid *g, astar_zones *z, const links *k,
                        uint32_t c) {
  uint32_t tiles[MAX_SEEDS], roots[MAX_SEEDS];
  int n = 0, a, dx, dy;
  for (dy = -1; dy <= 1; dy++) {
    for (dx = -1; dx <= 1; dx++) {
      uint32_t u = (uint32_t)((int32_t)c + dy * g->stride + dx);
      if (!astar__bit(k->passable, u)) continue;
      tiles[n] = u;
      roots[n] = zfind(z, z->label[u]);
      n++;
    }
  }
  for (a = 0; a < n; a++) {
    uint32_t seeds[MAX_SEEDS], root = roots[a];
    int m = 0, b, st;
    if (root == 0) continue; /* handled with an earlier root */
    for (b = a; b < n; b++) {
      if (roots[b] == root) {
        seeds[m++] = tiles[b];
        roots[b] = 0;
      }
    }
    if (m > 1 && (st = race(g, z, k, root, seeds, m)) != ASTAR_OK) return st;
  }
  return ASTAR_OK;
}

void astar__zones_changed(astar_grid *g, astar_zones *z, const uint8_t *moves,
                          const uint64_t *passable, int oneway, int32_t x,
                          int32_t y, int kind) {
  links k;
  uint32_t c = astar_index(g, x, y);
  if (z->label == NULL || z->stale) return;
  /* with links, the local split check (which follows moves only) could
   * split a region that a link still joins, and an opened link end joins
   * more than its neighbours: relabel at the next prepare instead */
  if (g->nlinks != 0 &&
      (kind != ASTAR__ZONES_OPENED || astar__link_end(g, c))) {
    z->stale = 1;
    return;
  }
  k.moves = moves;
  k.passable = passable;
  k.offset = g->offset;
  k.oneway = oneway;
  if (kind == ASTAR__ZONES_OPENED) {
    uint32_t s = new_slot(g, z);
    if (s == 0) {
      z->stale = 1;
      return;
    }
    z->label[c] = s;
    z->size[s] = 1;
    z->count++;
    unite_around(g, z, &k, c);
    return;
  }
  if (kind == ASTAR__ZONES_CLOSED) {
    if (z->label[c] != 0) {
      uint32_t r = zfind(z, z->label[c]);
      z->label[c] = 0;
      if (--z->size[r] == 0) z->count--;
    }
  } else {
    unite_around(g, z, &k, c);
  }
  if (check_splits(g, z, &k, c) != ASTAR_OK) z->stale = 1;
}

/* ---- labelling (prepare) and queries ---- */

int astar__zones_label(astar_grid *g, astar_zones *z, const uint8_t *moves,
                       const uint64_t *passable, int oneway) {
  links k;
  /* the flood's queue: as much of it written as the largest zone has
     tiles, all of it on an open map */
  uint32_t *queue = astar__alloc_whole(g, g->ntiles, sizeof(uint32_t));
  int st;
  k.moves = moves;
  k.passable = passable;
  k.offset = g->offset;
  k.oneway = oneway;
  st = queue != NULL ? label_all(g, z, &k, queue) : ASTAR_ENOMEM;
  astar__free_whole(g, queue, g->ntiles, sizeof(uint32_t));
  if (st == ASTAR_OK) { /* links join the regions of their ends */
    size_t i;
    for (i = 0; i < g->nlinks; i++) {
      uint32_t a = g->links[i].from, b = g->links[i].to;
      if (astar__bit(passable, a) && astar__bit(passable, b))
        unite(z, z->label[a], z->label[b]);
    }
  }
  if (st != ASTAR_OK) astar__zones_release(g, z); /* all or nothing */
  return st;
}

const astar_zones *astar__layer_zones(const astar_grid *g, int unit) {
  const astar_unit *u;
  if (!astar__unit_defined(g, unit)) return NULL;
  u = g->units[unit];
  return u != NULL && u->own ? &u->zones : &g->zones;
}

/* The labels of unit's layer, when they are up to date. */
static int ready(const astar_grid *g, int unit, const astar_zones **out) {
  const astar_zones *z = astar__layer_zones(g, unit);
  if (z == NULL) return ASTAR_EINVAL;
  if (!astar__zones_ready(z)) return ASTAR_EPREPARE;
  *out = z;
  return ASTAR_OK;
}

uint32_t astar__zone_at(const astar_zones *z, uint32_t i) {
  uint32_t s = z->label[i];
  return s == 0 ? 0 : zroot(z, s);
}
#define zone_at astar__zone_at

int astar_zone_of(const astar_grid *g, int unit, int32_t x, int32_t y,
                  uint32_t *zone) {
  const astar_zones *z;
  int st;
  *zone = 0;
  if (x < 0 || y < 0 || x >= g->width || y >= g->height) return ASTAR_EINVAL;
  if ((st = ready(g, unit, &z)) != ASTAR_OK) return st;
  *zone = zone_at(z, astar_index(g, x, y));
  return ASTAR_OK;
}

int astar_zone_count(const astar_grid *g, int unit, uint32_t *count) {
  const astar_zones *z;
  int st;
  *count = 0;
  if ((st = ready(g, unit, &z)) != ASTAR_OK) return st;
  *count = z->count;
  return ASTAR_OK;
}

int astar_zone_size(const astar_grid *g, int unit, uint32_t id,
                    uint32_t *size) {
  const astar_zones *z;
  int st;
  *size = 0;
  if ((st = ready(g, unit, &z)) != ASTAR_OK) return st;
  if (id > 0 && id < z->used && z->parent[id] == id) *size = z->size[id];
  return ASTAR_OK;
}

int astar_zones_invalidate(astar_grid *g, int unit) {
  astar_unit *u;
  if (!astar__unit_defined(g, unit)) return ASTAR_EINVAL;
  u = g->units[unit];
  if (u != NULL && u->own)
    u->zones.stale = 1;
  else
    g->zones.stale = 1;
  return ASTAR_OK;
}

int astar__zones_apart(const astar_grid *g, int unit, uint32_t a, uint32_t b,
                       int *apart) {
  const astar_zones *z;
  int st = ready(g, unit, &z);
  *apart = st == ASTAR_OK && zone_at(z, a) != zone_at(z, b);
  return st;
}

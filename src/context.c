/*
 * The search context (astar_search): every byte a search writes.
 *
 * Its per-tile arrays (stamps, heap positions, the callback memo, the
 * options' and the other engines' per-tile scratch) are sized for the map
 * it last searched and made on first use; a generation counter in each
 * stamp makes "reset" O(1), so a query costs what it touches.  Buffers
 * that grow (the heap, the goal set, IDA*'s path) double and are kept, so
 * a warm context allocates nothing per query.
 */
#include "astar.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#define HEAP_INITIAL 256u

#define ctx_alloc(s, count, elem) astar__mem((s)->alloc, (s)->alloc_ud, count, elem)
#define ctx_free(s, p, count, elem) \
  astar__mem_free((s)->alloc, (s)->alloc_ud, p, count, elem)

void astar_search_init(astar_search *s, astar_alloc_fn alloc, void *ud) {
  memset(s, 0, sizeof *s);
  s->alloc = alloc;
  s->alloc_ud = ud;
  s->last_outcome = ASTAR_NO_PATH;
}

/* Frees the per-tile arrays (they belong to one map size). */
static void release_tiles(astar_search *s) {
  uint32_t n = s->ntiles;
  astar__extra *x = s->extra;
  astar__more *m = s->more;
  ctx_free(s, s->heap_pos, n, sizeof(uint32_t));
  astar__mem_whole_free(s->alloc, s->alloc_ud, s->stamp, n, sizeof(uint32_t));
  ctx_free(s, s->memo, n, sizeof(astar__memo));
  s->heap_pos = s->stamp = NULL;
  s->memo = NULL;
  ctx_free(s, s->via, n, sizeof(astar__via));
  s->via = NULL;
  s->generation = 0;
  if (x != NULL) {
    ctx_free(s, x->depth, n, sizeof(uint32_t));
    ctx_free(s, x->count, n, sizeof(double));
    x->depth = NULL;
    x->count = NULL;
  }
  if (s->overlay != NULL) {
    ctx_free(s, s->overlay->mark, n, sizeof(uint32_t));
    ctx_free(s, s->overlay->add, n, sizeof(double));
    ctx_free(s, s->overlay->near, astar__bitmap_words(n), sizeof(uint64_t));
    s->overlay->mark = NULL;
    s->overlay->add = NULL;
    s->overlay->near = NULL;
    s->overlay->nlisted = 0;
    s->overlay->generation = 0;
  }
  if (m != NULL) {
    ctx_free(s, m->stamp_b, n, sizeof(uint32_t));
    ctx_free(s, m->pos_b, n, sizeof(uint32_t));
    ctx_free(s, m->gf, n, sizeof(double));
    ctx_free(s, m->gb, n, sizeof(double));
    m->stamp_b = m->pos_b = NULL;
    m->gf = m->gb = NULL;
    m->generation = 0;
  }
  if (s->radix != NULL) {
    ctx_free(s, s->radix->g, n, sizeof(double));
    s->radix->g = NULL;
  }
  if (s->graphx != NULL) {
    astar__graphx *gx = s->graphx;
    ctx_free(s, gx->parent, n, sizeof(uint32_t));
    ctx_free(s, gx->parent_b, n, sizeof(uint32_t));
    ctx_free(s, gx->h, n, sizeof(double));
    gx->parent = gx->parent_b = NULL;
    gx->h = NULL;
    gx->path_len = 0;
  }
  s->ntiles = 0;
  s->last_outcome = ASTAR_NO_PATH;
  s->explored_tag = s->explored_tag_b = 0;
}

/* Frees the subgoal scratch's per-node arrays (cap entries each). */
static void sgx_free_nodes(astar_search *s, astar__sgx *z) {
  ctx_free(s, z->stamp, z->cap, sizeof(uint32_t));
  ctx_free(s, z->pos, z->cap, sizeof(uint32_t));
  ctx_free(s, z->link, z->cap, sizeof(uint32_t));
  ctx_free(s, z->list, z->cap, sizeof(uint32_t));
}

void astar_search_release(astar_search *s) {
  astar__extra *x = s->extra;
  astar__more *m = s->more;
  if (s->alloc == NULL) return;
  release_tiles(s);
  ctx_free(s, s->heap, s->heap_cap, sizeof(astar_heap_entry));
  if (x != NULL) {
    ctx_free(s, x->targets, x->targets_cap, sizeof(astar__target));
    ctx_free(s, x->set, x->set_cap, sizeof(uint64_t));
    ctx_free(s, x, 1, sizeof *x);
  }
  if (m != NULL) {
    ctx_free(s, m->heap_b, m->heap_b_cap, sizeof(astar_heap_entry));
    ctx_free(s, m->frames, m->frames_cap, sizeof(astar__frame));
    ctx_free(s, m, 1, sizeof *m);
  }
  if (s->graphx != NULL) {
    ctx_free(s, s->graphx->path, s->graphx->path_cap, sizeof(uint32_t));
    ctx_free(s, s->graphx, 1, sizeof(astar__graphx));
  }
  if (s->sgx != NULL) {
    astar__sgx *z = s->sgx;
    sgx_free_nodes(s, z);
    ctx_free(s, z, 1, sizeof *z);
  }
  if (s->radix != NULL) {
    ctx_free(s, s->radix->b0, s->radix->cap0, sizeof(astar_heap_entry));
    ctx_free(s, s->radix->pool, s->radix->pool_cap, sizeof(astar__radix_block));
    ctx_free(s, s->radix->link, s->radix->link_cap, sizeof(uint32_t));
    ctx_free(s, s->radix, 1, sizeof(astar__radix));
  }
  ctx_free(s, s->run, 1, sizeof(astar__run));
  if (s->overlay != NULL)
    ctx_free(s, s->overlay->listed, s->overlay->listed_cap, sizeof(uint32_t));
  ctx_free(s, s->overlay, 1, sizeof(astar__overlay));
  astar_search_init(s, s->alloc, s->alloc_ud);
}

size_t astar_search_memory(const astar_search *s) {
  size_t n = s->ntiles, total = s->heap_cap * sizeof(astar_heap_entry);
  const astar__extra *x = s->extra;
  const astar__more *m = s->more;
  if (s->heap_pos != NULL) total += n * sizeof(uint32_t);
  if (s->stamp != NULL) total += n * sizeof(uint32_t);
  if (s->memo != NULL) total += n * sizeof(astar__memo);
  if (s->via != NULL) total += n * sizeof(astar__via);
  if (s->run != NULL) total += sizeof(astar__run);
  if (s->overlay != NULL) {
    total += sizeof(astar__overlay);
    if (s->overlay->mark != NULL) total += n * sizeof(uint32_t);
    if (s->overlay->add != NULL) total += n * sizeof(double);
    if (s->overlay->near != NULL)
      total += astar__bitmap_words(n) * sizeof(uint64_t);
    total += s->overlay->listed_cap * sizeof(uint32_t);
  }
  if (x != NULL) {
    total += sizeof *x + x->targets_cap * sizeof(astar__target) +
             x->set_cap * sizeof(uint64_t);
    if (x->depth != NULL) total += n * sizeof(uint32_t);
    if (x->count != NULL) total += n * sizeof(double);
  }
  if (m != NULL) {
    total += sizeof *m + m->heap_b_cap * sizeof(astar_heap_entry) +
             m->frames_cap * sizeof(astar__frame);
    if (m->stamp_b != NULL) total += n * sizeof(uint32_t);
    if (m->pos_b != NULL) total += n * sizeof(uint32_t);
    if (m->gf != NULL) total += n * sizeof(double);
    if (m->gb != NULL) total += n * sizeof(double);
  }
  if (s->radix != NULL) {
    const astar__radix *R = s->radix;
    total += sizeof(astar__radix);
    if (R->g != NULL) total += n * sizeof(double);
    total += R->cap0 * sizeof(astar_heap_entry) +
             R->pool_cap * sizeof(astar__radix_block) +
             R->link_cap * sizeof(uint32_t);
  }
  if (s->sgx != NULL)
    total += sizeof(astar__sgx) + 4 * s->sgx->cap * sizeof(uint32_t);
  if (s->graphx != NULL) {
    const astar__graphx *gx = s->graphx;
    total += sizeof *gx + gx->path_cap * sizeof(uint32_t);
    if (gx->parent != NULL) total += n * sizeof(uint32_t);
    if (gx->parent_b != NULL) total += n * sizeof(uint32_t);
    if (gx->h != NULL) total += n * sizeof(double);
  }
  return total;
}

int astar__context_fit(astar_search *s, uint32_t ntiles) {
  if (s->ntiles != ntiles) {
    release_tiles(s);
    s->ntiles = ntiles;
  }
  if (s->heap_pos == NULL &&
      (s->heap_pos = ctx_alloc(s, ntiles, sizeof(uint32_t))) == NULL)
    return ASTAR_ENOMEM;
  if (s->stamp == NULL) {
    if ((s->stamp = astar__mem_whole(s->alloc, s->alloc_ud, ntiles,
                                     sizeof(uint32_t))) == NULL)
      return ASTAR_ENOMEM;
    memset(s->stamp, 0, (size_t)ntiles * sizeof(uint32_t));
    s->generation = 0;
  }
  if (s->heap == NULL) {
    s->heap = ctx_alloc(s, HEAP_INITIAL, sizeof(astar_heap_entry));
    if (s->heap == NULL) return ASTAR_ENOMEM;
    s->heap_cap = HEAP_INITIAL;
  }
  return ASTAR_OK;
}

uint32_t astar__next_generation(astar_search *s) {
  if (++s->generation > ASTAR__MAX_GENERATION) {
    memset(s->stamp, 0, (size_t)s->ntiles * sizeof(uint32_t));
    if (s->memo != NULL) { /* tile-callback results are stamped too */
      uint32_t i;
      for (i = 0; i < s->ntiles; i++) s->memo[i].gen = 0;
    }
    if (s->via != NULL) {
      uint32_t i;
      for (i = 0; i < s->ntiles; i++) s->via[i].gen = 0;
    }
    s->generation = 1;
  }
  return s->generation << 4;
}

int astar__grow_heap(astar_search *s) {
  void *p = s->heap;
  int st = astar__grow(s->alloc, s->alloc_ud, &p, &s->heap_cap,
                       s->heap_cap + 1, sizeof(astar_heap_entry),
                       HEAP_INITIAL);
  s->heap = p;
  return st;
}

int astar__context_radix(astar_search *s) {
  if (s->radix == NULL) {
    if ((s->radix = ctx_alloc(s, 1, sizeof(astar__radix))) == NULL)
      return ASTAR_ENOMEM;
    memset(s->radix, 0, sizeof(astar__radix));
    memset(s->radix->least, 0xFF, sizeof s->radix->least);
    s->radix->free = ASTAR__RADIX_NONE;
  }
  if (s->radix->g == NULL &&
      (s->radix->g = ctx_alloc(s, s->ntiles, sizeof(double))) == NULL)
    return ASTAR_ENOMEM;
  return ASTAR_OK;
}

int astar__radix_grow(astar_search *s, astar__radix *R) {
  void *p = R->b0;
  int st = astar__grow(s->alloc, s->alloc_ud, &p, &R->cap0, R->cap0 + 1,
                       sizeof(astar_heap_entry), 64);
  R->b0 = p;
  return st;
}

int astar__radix_more(astar_search *s, astar__radix *R) {
  size_t need = (size_t)R->top + 1;
  void *p = R->pool;
  int st;
  if (need > ASTAR__RADIX_NONE) return ASTAR_ENOMEM; /* block ids: 32 bits */
  st = astar__grow(s->alloc, s->alloc_ud, &p, &R->pool_cap, need,
                   sizeof(astar__radix_block), 8);
  R->pool = p;
  if (st != ASTAR_OK) return st;
  p = R->link; /* as many links as blocks (a failure leaves the pool
                  larger: only blocks with a link are handed out) */
  st = astar__grow(s->alloc, s->alloc_ud, &p, &R->link_cap, R->pool_cap,
                   sizeof(uint32_t), 8);
  R->link = p;
  return st;
}

int astar__context_grow(astar_search *s, void **p, size_t *cap, size_t need,
                        size_t elem) {
  return astar__grow(s->alloc, s->alloc_ud, p, cap, need, elem, 16);
}

int astar__context_memo(astar_search *s) {
  if (s->memo == NULL) {
    uint32_t i;
    s->memo = ctx_alloc(s, s->ntiles, sizeof(astar__memo));
    if (s->memo == NULL) return ASTAR_ENOMEM;
    for (i = 0; i < s->ntiles; i++) s->memo[i].gen = 0;
  }
  return ASTAR_OK;
}

int astar__context_extra(astar_search *s, int depth, int count,
                         size_t targets, size_t set) {
  astar__extra *x = s->extra;
  void *p;
  int st;
  if (x == NULL) {
    if ((x = ctx_alloc(s, 1, sizeof *x)) == NULL) return ASTAR_ENOMEM;
    memset(x, 0, sizeof *x);
    s->extra = x;
  }
  if (depth && x->depth == NULL &&
      (x->depth = ctx_alloc(s, s->ntiles, sizeof(uint32_t))) == NULL)
    return ASTAR_ENOMEM;
  if (count && x->count == NULL &&
      (x->count = ctx_alloc(s, s->ntiles, sizeof(double))) == NULL)
    return ASTAR_ENOMEM;
  p = x->targets;
  st = astar__context_grow(s, &p, &x->targets_cap, targets,
                           sizeof(astar__target));
  x->targets = p;
  if (st != ASTAR_OK) return st;
  p = x->set;
  st = astar__context_grow(s, &p, &x->set_cap, set, sizeof(uint64_t));
  x->set = p;
  return st;
}

int astar__context_overlay(astar_search *s, int add) {
  astar__overlay *o = s->overlay;
  if (o == NULL) {
    if ((o = ctx_alloc(s, 1, sizeof *o)) == NULL) return ASTAR_ENOMEM;
    memset(o, 0, sizeof *o);
    s->overlay = o;
  }
  if (o->mark == NULL) {
    if ((o->mark = ctx_alloc(s, s->ntiles, sizeof(uint32_t))) == NULL)
      return ASTAR_ENOMEM;
    memset(o->mark, 0, (size_t)s->ntiles * sizeof(uint32_t));
    o->generation = 0;
  }
  if (o->near == NULL) {
    size_t words = astar__bitmap_words(s->ntiles);
    if ((o->near = ctx_alloc(s, words, sizeof(uint64_t))) == NULL)
      return ASTAR_ENOMEM;
    memset(o->near, 0, words * sizeof(uint64_t));
    o->nlisted = 0;
  }
  if (add && o->add == NULL &&
      (o->add = ctx_alloc(s, s->ntiles, sizeof(double))) == NULL)
    return ASTAR_ENOMEM;
  return ASTAR_OK;
}

int astar__context_more(astar_search *s, int bidir) {
  astar__more *m = s->more;
  uint32_t n = s->ntiles;
  if (m == NULL) {
    if ((m = ctx_alloc(s, 1, sizeof *m)) == NULL) return ASTAR_ENOMEM;
    memset(m, 0, sizeof *m);
    s->more = m;
  }
  if (!bidir) return ASTAR_OK;
  if (m->gf == NULL && (m->gf = ctx_alloc(s, n, sizeof(double))) == NULL)
    return ASTAR_ENOMEM;
  if (bidir == 2) return ASTAR_OK; /* any-angle search: g per tile */
  if (m->stamp_b == NULL) {
    if ((m->stamp_b = ctx_alloc(s, n, sizeof(uint32_t))) == NULL)
      return ASTAR_ENOMEM;
    memset(m->stamp_b, 0, (size_t)n * sizeof(uint32_t));
    m->generation = 0;
  }
  if (m->pos_b == NULL &&
      (m->pos_b = ctx_alloc(s, n, sizeof(uint32_t))) == NULL)
    return ASTAR_ENOMEM;
  if (m->gf == NULL && (m->gf = ctx_alloc(s, n, sizeof(double))) == NULL)
    return ASTAR_ENOMEM;
  if (m->gb == NULL && (m->gb = ctx_alloc(s, n, sizeof(double))) == NULL)
    return ASTAR_ENOMEM;
  if (m->heap_b == NULL) {
    m->heap_b = ctx_alloc(s, HEAP_INITIAL, sizeof(astar_heap_entry));
    if (m->heap_b == NULL) return ASTAR_ENOMEM;
    m->heap_b_cap = HEAP_INITIAL;
  }
  return ASTAR_OK;
}

int astar__context_via(astar_search *s) {
  uint32_t i;
  if (s->via != NULL) return ASTAR_OK;
  if ((s->via = ctx_alloc(s, s->ntiles, sizeof(astar__via))) == NULL)
    return ASTAR_ENOMEM;
  for (i = 0; i < s->ntiles; i++) s->via[i].gen = 0;
  return ASTAR_OK;
}

int astar__context_sgx(astar_search *s, size_t nodes) {
  astar__sgx *z = s->sgx;
  if (z == NULL) {
    if ((z = ctx_alloc(s, 1, sizeof *z)) == NULL) return ASTAR_ENOMEM;
    memset(z, 0, sizeof *z);
    s->sgx = z;
  }
  if (z->cap < nodes) {
    uint32_t *a[4];
    int k;
    for (k = 0; k < 4; k++) a[k] = ctx_alloc(s, nodes, sizeof(uint32_t));
    if (a[0] == NULL || a[1] == NULL || a[2] == NULL || a[3] == NULL) {
      for (k = 0; k < 4; k++) ctx_free(s, a[k], nodes, sizeof(uint32_t));
      return ASTAR_ENOMEM;
    }
    sgx_free_nodes(s, z);
    z->stamp = a[0];
    z->pos = a[1];
    z->link = a[2];
    z->list = a[3];
    z->cap = nodes;
    z->generation = ASTAR__SGX_MAX_GENERATION; /* cleared below */
  }
  if (z->generation >= ASTAR__SGX_MAX_GENERATION) {
    memset(z->stamp, 0, z->cap * sizeof(uint32_t));
    z->generation = 0;
  }
  z->generation++;
  z->nlist = 0;
  return ASTAR_OK;
}

int astar__context_graphx(astar_search *s, int bidir) {
  astar__graphx *gx = s->graphx;
  uint32_t n = s->ntiles;
  if (gx == NULL) {
    if ((gx = ctx_alloc(s, 1, sizeof *gx)) == NULL) return ASTAR_ENOMEM;
    memset(gx, 0, sizeof *gx);
    s->graphx = gx;
  }
  if (gx->parent == NULL &&
      (gx->parent = ctx_alloc(s, n, sizeof(uint32_t))) == NULL)
    return ASTAR_ENOMEM;
  if (gx->h == NULL && (gx->h = ctx_alloc(s, n, sizeof(double))) == NULL)
    return ASTAR_ENOMEM;
  if (bidir && gx->parent_b == NULL &&
      (gx->parent_b = ctx_alloc(s, n, sizeof(uint32_t))) == NULL)
    return ASTAR_ENOMEM;
  return ASTAR_OK;
}

/* ---- the goal set ---- */

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

void astar__sort_set(uint64_t *set, size_t n) {
  qsort(set, n, sizeof *set, cmp_u64);
}

/* Binary search for the first entry of node: the lowest target index. */
long astar__set_find(const uint64_t *set, size_t n, uint32_t node) {
  uint64_t want = (uint64_t)node << 32;
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (set[mid] < want)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo < n && (uint32_t)(set[lo] >> 32) == node)
    return (long)(set[lo] & 0xFFFFFFFFu);
  return -1;
}

/* ---- what the last search left ---- */

uint32_t astar_path_last(const astar_search *s) { return s->last_goal; }

int astar_path_prev(const astar_search *s, uint32_t *node) {
  if (s->last_outcome != ASTAR_FOUND || *node == s->last_start) return 0;
  if (s->last_waypoints) { /* any-angle: a closed node's parent */
    *node = s->heap_pos[*node];
    return 1;
  }
  if (s->via != NULL && s->via[*node].gen != 0 &&
      s->via[*node].gen == (s->stamp[*node] & ASTAR__STAMP_GEN)) {
    *node = s->via[*node].parent; /* a link led here */
    return 1;
  }
  *node = (uint32_t)((int32_t)*node - s->offset[s->stamp[*node] & ASTAR__STAMP_DIR]);
  return 1;
}

int astar_path_prev_xy(const astar_search *s, uint32_t *node, int32_t *x,
                       int32_t *y) {
  if (s->last_outcome != ASTAR_FOUND || *node == s->last_start) return 0;
  /* waypoints first, without the stamp: a corners walk leaves its tiles
     unstamped, and the read would be a cache miss per corner */
  if (!s->last_waypoints) {
    uint32_t st = s->stamp[*node];
    if (s->via == NULL || s->via[*node].gen == 0 ||
        s->via[*node].gen != (st & ASTAR__STAMP_GEN)) { /* one step */
      unsigned d = st & ASTAR__STAMP_DIR;
      *node = (uint32_t)((int32_t)*node - s->offset[d]);
      *x -= astar_dir_dx[d];
      *y -= astar_dir_dy[d];
      return 1;
    }
  }
  astar_path_prev(s, node); /* a corner's link or a jump: the division */
  *y = (int32_t)(*node / (uint32_t)s->stride) - 1;
  *x = (int32_t)(*node % (uint32_t)s->stride) - 1;
  return 1;
}

int astar_explored_next(const astar_search *s, uint32_t *i, int32_t *x,
                        int32_t *y) {
  const uint32_t *fwd = s->stamp, *back = NULL;
  uint32_t tag = s->explored_tag, tag_b = s->explored_tag_b;
  uint32_t stride = (uint32_t)s->stride;
  if (tag == 0 || fwd == NULL || stride == 0) return 0;
  if (tag_b != 0 && s->more != NULL) back = s->more->stamp_b;
  for (; *i < s->ntiles; ++*i) {
    uint32_t st = fwd[*i], state = 0;
    if ((st & ASTAR__STAMP_GEN) == tag)
      state = (st & ASTAR__STAMP_CLOSED) ? ASTAR_EXPLORED_CLOSED : ASTAR_EXPLORED_OPEN;
    if (back != NULL && (back[*i] & ASTAR__STAMP_GEN) == tag_b &&
        state != ASTAR_EXPLORED_CLOSED)
      state = (back[*i] & ASTAR__STAMP_CLOSED) ? ASTAR_EXPLORED_CLOSED
                                        : ASTAR_EXPLORED_OPEN;
    if (state != 0) {
      *y = (int32_t)(*i / stride) - 1;
      *x = (int32_t)(*i % stride) - 1;
      ++*i;
      return (int)state;
    }
  }
  return 0;
}

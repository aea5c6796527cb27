/*
 * Shared pieces of the fuzz harnesses: an accounting allocator that can fail
 * on purpose, an invariant macro, grid snapshots, independent checks of the
 * grid's derived state (move masks, cheapest cost), and a reference model of
 * the text loader (line splitting, shape, load errors) written from the
 * documentation in astar.h, not from text.c.
 *
 * Everything is static inline: each harness is one translation unit.
 */
#ifndef ASTAR_FUZZ_COMMON_H
#define ASTAR_FUZZ_COMMON_H

#include "astar.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Any violated invariant aborts, so libFuzzer (or replay) reports it. */
#define FZ_ASSERT(cond)                                                      \
  do {                                                                       \
    if (!(cond)) {                                                           \
      fprintf(stderr, "fuzz invariant failed: %s (%s:%d)\n", #cond,          \
              __FILE__, __LINE__);                                           \
      abort();                                                               \
    }                                                                        \
  } while (0)

/* ---- input reader: bytes past the end read as 0 ---- */

typedef struct {
  const uint8_t *p;
  size_t n;
} fz_reader;

static inline unsigned fz_byte(fz_reader *r) {
  if (r->n == 0) return 0;
  r->n--;
  return *r->p++;
}

/* ---- accounting allocator (lua_Alloc contract) ----
 * Each block carries its size in a 16-byte header, so every free and
 * realloc can check that the core passes the right osize.  fail_at = k > 0
 * makes the k-th allocation or growing call fail (once, or from then on when
 * fail_sticky is set). */

typedef struct {
  size_t live;    /* bytes outstanding */
  size_t blocks;  /* blocks outstanding */
  size_t count;   /* allocating calls so far (nsize > 0) */
  size_t fail_at; /* 0: never fail */
  int fail_sticky;
  size_t failed;  /* calls that were refused */
} fz_heap;

#define FZ_HDR 16

static inline void *fz_alloc(void *ud, void *ptr, size_t osize,
                             size_t nsize) {
  fz_heap *h = (fz_heap *)ud;
  unsigned char *base = NULL;
  if (ptr != NULL) {
    size_t stored;
    base = (unsigned char *)ptr - FZ_HDR;
    memcpy(&stored, base, sizeof stored);
    FZ_ASSERT(stored == osize); /* the core must pass the block's size */
  }
  if (nsize == 0) {
    if (ptr != NULL) {
      FZ_ASSERT(h->live >= osize && h->blocks > 0);
      h->live -= osize;
      h->blocks--;
      free(base);
    }
    return NULL;
  }
  h->count++;
  if (h->fail_at != 0 &&
      (h->count == h->fail_at || (h->fail_sticky && h->count > h->fail_at))) {
    h->failed++;
    return NULL; /* the old block (if any) stays valid */
  }
  if (ptr != NULL) {
    unsigned char *nb = (unsigned char *)realloc(base, nsize + FZ_HDR);
    if (nb == NULL) abort();
    memcpy(nb, &nsize, sizeof nsize);
    h->live = h->live - osize + nsize;
    return nb + FZ_HDR;
  }
  base = (unsigned char *)malloc(nsize + FZ_HDR);
  if (base == NULL) abort();
  memcpy(base, &nsize, sizeof nsize);
  h->live += nsize;
  h->blocks++;
  return base + FZ_HDR;
}

static inline void fz_heap_init(fz_heap *h) { memset(h, 0, sizeof *h); }

/* After astar_grid_release nothing may be left. */
static inline void fz_release_check(astar_grid *g, fz_heap *h) {
  astar_grid_release(g);
  astar_grid_release(g); /* idempotent */
  FZ_ASSERT(h->live == 0);
  FZ_ASSERT(h->blocks == 0);
}

/* ---- snapshots: the grid struct and its tile arrays ---- */

typedef struct {
  astar_grid g;
  float *cost;
  uint8_t *moves;
  uint64_t *passable;
} fz_snapshot;

static inline size_t fz_words(const astar_grid *g) {
  return ((size_t)g->ntiles + 63u) / 64u;
}

static inline void fz_snap(fz_snapshot *s, const astar_grid *g) {
  size_t n = g->ntiles;
  s->g = *g;
  s->cost = (float *)malloc(n * sizeof(float) + 1);
  s->moves = (uint8_t *)malloc(n + 1);
  s->passable = (uint64_t *)malloc(fz_words(g) * sizeof(uint64_t) + 1);
  if (s->cost == NULL || s->moves == NULL || s->passable == NULL) abort();
  if (n > 0) {
    memcpy(s->cost, g->cost, n * sizeof(float));
    memcpy(s->moves, g->moves, n);
    memcpy(s->passable, g->passable, fz_words(g) * sizeof(uint64_t));
  }
}

/* Tiles identical; with_struct also compares every field of the struct. */
static inline int fz_same(const fz_snapshot *s, const astar_grid *g,
                          int with_struct) {
  size_t n = g->ntiles;
  if (with_struct && memcmp(&s->g, g, sizeof *g) != 0) return 0;
  if (s->g.ntiles != g->ntiles || s->g.width != g->width ||
      s->g.height != g->height)
    return 0;
  if (n == 0) return 1;
  return memcmp(s->cost, g->cost, n * sizeof(float)) == 0 &&
         memcmp(s->moves, g->moves, n) == 0 &&
         memcmp(s->passable, g->passable, fz_words(g) * sizeof(uint64_t)) ==
             0;
}

static inline void fz_unsnap(fz_snapshot *s) {
  free(s->cost);
  free(s->moves);
  free(s->passable);
  s->cost = NULL;
  s->moves = NULL;
  s->passable = NULL;
}

/* ---- independent checks of derived grid state ---- */

static inline int fz_open(const astar_grid *g, int32_t x, int32_t y) {
  if (x < 0 || y < 0 || x >= g->width || y >= g->height) return 0;
  return !astar_grid_is_blocked(g, x, y);
}

/* Is the step from (x, y) in direction d legal under the diagonal rule
 * diag (as astar.h documents it)?  The source tile's own state does not
 * matter. */
static inline int fz_step_legal(const astar_grid *g, int diag, int32_t x,
                                int32_t y, int d) {
  int32_t dx = astar_dir_dx[d], dy = astar_dir_dy[d];
  int a, b;
  if (!fz_open(g, x + dx, y + dy)) return 0;
  if (d < 4) return 1;
  a = fz_open(g, x + dx, y);
  b = fz_open(g, x, y + dy);
  switch (diag) {
  case ASTAR_DIAG_BOTH_FREE: return a && b;
  case ASTAR_DIAG_ONE_FREE: return a || b;
  case ASTAR_DIAG_ALWAYS: return 1;
  default: return 0; /* ASTAR_DIAG_NEVER */
  }
}

/* Every interior tile's move mask equals the rule applied to its
 * neighbours (passability read through astar_grid_is_blocked); the border
 * is blocked. */
static inline void fz_check_moves(const astar_grid *g) {
  int32_t x, y, W = g->width + 2;
  uint32_t i;
  uint8_t *open;
  FZ_ASSERT(g->stride == W && g->ntiles == (uint32_t)W * (uint32_t)(g->height + 2));
  open = (uint8_t *)calloc(g->ntiles + 1, 1);
  if (open == NULL) abort();
  for (y = 0; y < g->height; y++)
    for (x = 0; x < g->width; x++)
      open[(y + 1) * W + x + 1] = (uint8_t)!astar_grid_is_blocked(g, x, y);
  for (y = 1; y <= g->height; y++) {
    for (x = 1; x <= g->width; x++) {
      const uint8_t *o = open + y * W + x;
      unsigned m = 0;
      int d;
      for (d = 0; d < 8; d++) {
        int32_t dx = astar_dir_dx[d], dy = astar_dir_dy[d];
        int ok = o[dy * W + dx];
        if (d >= 4) {
          int a = o[dx], b = o[dy * W];
          switch (g->diagonal) {
          case ASTAR_DIAG_BOTH_FREE: ok = ok && a && b; break;
          case ASTAR_DIAG_ONE_FREE: ok = ok && (a || b); break;
          case ASTAR_DIAG_ALWAYS: break;
          default: ok = 0; break;
          }
        }
        if (ok) m |= 1u << d;
      }
      FZ_ASSERT(g->moves[(uint32_t)(y * W + x)] == m);
    }
  }
  free(open);
  for (i = 0; i < g->ntiles; i++) {
    int32_t px = (int32_t)(i % (uint32_t)g->stride);
    int32_t py = (int32_t)(i / (uint32_t)g->stride);
    if (px == 0 || py == 0 || px == g->width + 1 || py == g->height + 1)
      FZ_ASSERT(((g->passable[i >> 6] >> (i & 63)) & 1u) == 0);
  }
}

/* astar_grid_min_cost is "the cheapest stored cost over all tiles (blocked
 * ones included)" as of the last astar_grid_prepare: between an edit and
 * the next prepare it may be stale, so prepare the grid's own layer (O(1)
 * when nothing is stale) and compare then. */
static inline void fz_check_min(astar_grid *g) {
  int32_t x, y;
  float m = astar_grid_get_cost(g, 0, 0);
  FZ_ASSERT(astar_grid_prepare(g, 0, 0) == ASTAR_OK);
  for (y = 0; y < g->height; y++)
    for (x = 0; x < g->width; x++)
      if (astar_grid_get_cost(g, x, y) < m) m = astar_grid_get_cost(g, x, y);
  FZ_ASSERT(astar_grid_min_cost(g) == m);
}

/* ---- reference text model ---- */

typedef struct {
  size_t off, len;
} fz_line;

/* Lines split by LF, a CR before the LF (or at the very end) dropped, one
 * final LF optional.  Fills at most cap lines; returns how many there are. */
static inline size_t fz_split(const char *s, size_t n, fz_line *out,
                              size_t cap) {
  size_t count = 0, start = 0, i;
  if (n == 0) return 0;
  for (i = 0; i <= n; i++) {
    if (i == n || s[i] == '\n') {
      size_t len;
      if (i == n && start == n) break; /* a final LF starts no line */
      len = i - start;
      if (len > 0 && s[start + len - 1] == '\r') len--;
      if (count < cap) {
        out[count].off = start;
        out[count].len = len;
      }
      count++;
      start = i + 1;
    }
  }
  return count;
}

/* A unit class as astar.h defines it, for the reference models of
 * fuzz_search.c and fuzz_field.c: terrain multipliers (0: impassable) for
 * FZ_NTERRAIN terrains, climb / descend costs per unit of rise / drop,
 * and the largest rise and drop a step may take. */
#define FZ_NTERRAIN 4
typedef struct {
  int defined;
  float mult[FZ_NTERRAIN];
  double climb, descend, max_climb, max_drop;
} fz_unit_model;

typedef struct {
  int rc, code;
  int32_t line, column, expected, got;
} fz_expect;

static inline int fz_padded_ok(int64_t w, int64_t h) {
  if (w < 1 || h < 1 || w > ASTAR_MAX_SIDE || h > ASTAR_MAX_SIDE) return 0;
  return (w + 2) * (h + 2) <= (int64_t)ASTAR_MAX_PADDED_TILES;
}

/* What astar_text_shape must answer. */
static inline fz_expect fz_ref_shape(const fz_line *lines, size_t count,
                                     int32_t *w, int32_t *h) {
  fz_expect e;
  size_t i;
  memset(&e, 0, sizeof e);
  e.rc = ASTAR_EPARSE;
  if (count == 0) {
    e.code = ASTAR_PERR_EMPTY;
    return e;
  }
  if (lines[0].len == 0) {
    e.code = ASTAR_PERR_EMPTY;
    e.line = 1;
    return e;
  }
  if (lines[0].len > ASTAR_MAX_SIDE) {
    e.code = ASTAR_PERR_TOO_BIG;
    e.line = 1;
    return e;
  }
  for (i = 1; i < count; i++) {
    if (lines[i].len != lines[0].len) {
      e.code = ASTAR_PERR_ROW_LENGTH;
      e.line = (int32_t)i + 1;
      e.expected = (int32_t)lines[0].len;
      e.got = (int32_t)lines[i].len;
      return e;
    }
  }
  if (!fz_padded_ok((int64_t)lines[0].len, (int64_t)count)) {
    e.code = ASTAR_PERR_TOO_BIG;
    return e;
  }
  e.rc = ASTAR_OK;
  *w = (int32_t)lines[0].len;
  *h = (int32_t)count;
  return e;
}

/* What astar_grid_load_text must answer for a width x height grid. */
static inline fz_expect fz_ref_load(const char *s, const fz_line *lines,
                                    size_t count, int32_t width,
                                    int32_t height,
                                    const astar_legend *legend) {
  fz_expect e;
  size_t i, c;
  memset(&e, 0, sizeof e);
  e.rc = ASTAR_EPARSE;
  for (i = 0; i < count; i++) {
    if (i == (size_t)height) {
      e.code = ASTAR_PERR_ROW_COUNT;
      e.line = height + 1;
      e.expected = height;
      e.got = height + 1;
      return e;
    }
    if (lines[i].len != (size_t)width) {
      e.code = ASTAR_PERR_ROW_LENGTH;
      e.line = (int32_t)i + 1;
      e.expected = width;
      e.got = (int32_t)lines[i].len;
      return e;
    }
    for (c = 0; c < lines[i].len; c++) {
      unsigned char ch = (unsigned char)s[lines[i].off + c];
      if (legend->kind[ch] == ASTAR_LEGEND_UNSET) {
        e.code = ASTAR_PERR_CHAR;
        e.line = (int32_t)i + 1;
        e.column = (int32_t)c + 1;
        e.got = ch;
        return e;
      }
    }
  }
  if (count != (size_t)height) {
    e.code = ASTAR_PERR_ROW_COUNT;
    e.line = (int32_t)count;
    e.expected = height;
    e.got = (int32_t)count;
    return e;
  }
  e.rc = ASTAR_OK;
  return e;
}

static inline void fz_check_error(const fz_expect *e, int rc,
                                  const astar_parse_error *err) {
  FZ_ASSERT(rc == e->rc);
  FZ_ASSERT(err->code == e->code);
  FZ_ASSERT(err->line == e->line);
  if (e->rc != ASTAR_OK) {
    FZ_ASSERT(err->column == e->column);
    FZ_ASSERT(err->expected == e->expected);
    FZ_ASSERT(err->got == e->got);
    FZ_ASSERT(astar_parse_error_text(err->code) != NULL);
  }
}

/* Load text (already split into lines) into g and check the outcome against
 * the reference: the status and error position; on failure not one byte of
 * the grid changed; on success every tile follows the legend (a blocked
 * character keeps the tile's stored cost), the move masks and cheapest cost
 * are right, and loading the same text again changes nothing. */
static inline int fz_load_and_check(astar_grid *g, const char *s, size_t n,
                                    const fz_line *lines, size_t count,
                                    const astar_legend *legend) {
  fz_snapshot before, again;
  astar_parse_error err;
  fz_expect e = fz_ref_load(s, lines, count, g->width, g->height, legend);
  int rc;
  memset(&err, 0x55, sizeof err);
  fz_snap(&before, g);
  rc = astar_grid_load_text(g, s, n, legend, &err);
  fz_check_error(&e, rc, &err);
  if (rc != ASTAR_OK) {
    FZ_ASSERT(fz_same(&before, g, 1));
  } else {
    int32_t x, y;
    for (y = 0; y < g->height; y++) {
      for (x = 0; x < g->width; x++) {
        unsigned char ch = (unsigned char)s[lines[y].off + (size_t)x];
        uint32_t i = astar_index(g, x, y);
        if (legend->kind[ch] == ASTAR_LEGEND_BLOCKED) {
          FZ_ASSERT(astar_grid_is_blocked(g, x, y));
          FZ_ASSERT(memcmp(&g->cost[i], &before.cost[i], sizeof(float)) ==
                    0);
        } else {
          FZ_ASSERT(legend->kind[ch] == ASTAR_LEGEND_COST);
          FZ_ASSERT(!astar_grid_is_blocked(g, x, y));
          FZ_ASSERT(astar_grid_get_cost(g, x, y) == legend->cost[ch]);
        }
      }
    }
    fz_check_moves(g);
    fz_check_min(g);
    fz_snap(&again, g);
    FZ_ASSERT(astar_grid_load_text(g, s, n, legend, NULL) == ASTAR_OK);
    FZ_ASSERT(fz_same(&again, g, 0));
    fz_unsnap(&again);
  }
  fz_unsnap(&before);
  return rc;
}

/* Give a fresh grid some history before a load: a movement rule, a few
 * costs and blocked tiles chosen by seed. */
static inline void fz_scribble(astar_grid *g, unsigned seed) {
  int32_t x, y;
  FZ_ASSERT(astar_grid_set_movement(g, (int)(seed & 3), 1.0, 1.5) ==
            ASTAR_OK);
  if ((seed & 4) == 0) return;
  for (y = 0; y < g->height; y++) {
    for (x = 0; x < g->width; x++) {
      unsigned v = (unsigned)(x * 7 + y * 13) + (seed >> 3);
      if (v % 5 == 0) astar_grid_set_cost(g, x, y, (float)(2 + v % 3));
      if (v % 3 == 0) astar_grid_set_blocked(g, x, y, 1);
    }
  }
}

#endif

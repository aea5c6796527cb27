/*
 * fuzz_text: astar_text_shape and astar_grid_load_text.
 *
 * Input layout:
 *   byte 0        k: bits 0-3 legend entries that follow; bit 4 adds the
 *                 stock entries '.' (cost 1) and '#' (blocked)
 *   k x 2 bytes   (character, spec): spec bit 7 blocked, else cost
 *                 fz_costs[spec & 7]
 *   1 byte        mode: bits 0-1 grid shape (0, 1: the text's shape, 2: one
 *                 column more or less, 3: one row more or less), bit 2 the
 *                 sign, bits 3-7 a scribble seed (prior edits)
 *   1 byte        oom: bit 7 set: first try astar_grid_init with allocation
 *                 (oom & 3) % 3 + 1 failing (bit 2: and every later one)
 *   rest          the text
 *
 * Checks: shape and load agree with a reference model written from astar.h
 * (status, error code, line, column, expected/got); a shape failure means
 * every load fails; a failed load leaves the grid byte-for-byte unchanged;
 * a successful one makes every tile follow the legend; move masks and the
 * cheapest cost stay right; a failed init returns ASTAR_ENOMEM and leaks
 * nothing; release frees every byte.
 */
#include "fuzz_common.h"

#define MAX_LOAD_SIDE 256

static const float fz_costs[8] = {
    1.0f, 2.0f, 0.5f, 3.75f, 100.0f, 1e-3f, 3e38f, 1.401298464e-45f};

static void check_shape(const char *s, size_t n, const fz_line *lines,
                        size_t count, int32_t *w, int32_t *h, int *ok) {
  astar_parse_error err;
  int32_t rw = -1, rh = -1, gw = -7, gh = -7;
  fz_expect e = fz_ref_shape(lines, count, &rw, &rh);
  int rc;
  memset(&err, 0x55, sizeof err);
  rc = astar_text_shape(s, n, &gw, &gh, &err);
  FZ_ASSERT(rc == e.rc);
  FZ_ASSERT(err.code == e.code);
  FZ_ASSERT(err.line == e.line);
  if (rc == ASTAR_OK) {
    FZ_ASSERT(gw == rw && gh == rh);
  } else {
    if (e.code == ASTAR_PERR_ROW_LENGTH) {
      FZ_ASSERT(err.expected == e.expected);
      FZ_ASSERT(err.got == e.got);
    }
  }
  /* a NULL error pointer is allowed */
  FZ_ASSERT(astar_text_shape(s, n, &rw, &rh, NULL) == rc);
  *w = gw;
  *h = gh;
  *ok = rc == ASTAR_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_reader r;
  astar_legend legend;
  unsigned k, i, mode, oom;
  const char *s;
  size_t n, count;
  fz_line *lines;
  int32_t w = 0, h = 0, gw, gh;
  int shape_ok;
  fz_heap heap;
  astar_grid g;

  r.p = data;
  r.n = size;
  memset(&legend, 0, sizeof legend);
  k = fz_byte(&r);
  if (k & 16) {
    legend.kind['.'] = ASTAR_LEGEND_COST;
    legend.cost['.'] = 1.0f;
    legend.kind['#'] = ASTAR_LEGEND_BLOCKED;
  }
  for (i = 0; i < (k & 15); i++) {
    unsigned ch = fz_byte(&r), spec = fz_byte(&r);
    if (spec & 128) {
      legend.kind[ch] = ASTAR_LEGEND_BLOCKED;
    } else {
      legend.kind[ch] = ASTAR_LEGEND_COST;
      legend.cost[ch] = fz_costs[spec & 7];
    }
  }
  mode = fz_byte(&r);
  oom = fz_byte(&r);
  s = (const char *)r.p;
  n = r.n;

  lines = (fz_line *)malloc((n + 1) * sizeof *lines);
  if (lines == NULL) abort();
  count = fz_split(s, n, lines, n + 1);
  check_shape(s, n, lines, count, &w, &h, &shape_ok);

  /* The grid to load into: the text's shape or a near miss; when the shape
   * failed, a small grid anyway (every load must then fail). */
  if (shape_ok) {
    gw = w;
    gh = h;
  } else {
    gw = (int32_t)(mode >> 3 & 3) + 1;
    gh = (int32_t)(mode >> 5 & 3) + 1;
  }
  if ((mode & 3) == 2) gw += (mode & 4) ? -1 : 1;
  if ((mode & 3) == 3) gh += (mode & 4) ? -1 : 1;
  if (gw < 1) gw = 2;
  if (gh < 1) gh = 2;
  if (gw > MAX_LOAD_SIDE || gh > MAX_LOAD_SIDE) {
    free(lines);
    return 0;
  }

  fz_heap_init(&heap);
  if (oom & 128) {
    heap.fail_at = (oom & 3) % 3 + 1; /* init makes 3 allocations */
    heap.fail_sticky = (oom & 4) != 0;
    FZ_ASSERT(astar_grid_init(&g, gw, gh, fz_alloc, &heap) == ASTAR_ENOMEM);
    FZ_ASSERT(heap.failed > 0);
    FZ_ASSERT(heap.live == 0 && heap.blocks == 0);
    fz_release_check(&g, &heap);
    heap.fail_at = 0;
  }
  FZ_ASSERT(astar_grid_init(&g, gw, gh, fz_alloc, &heap) == ASTAR_OK);
  FZ_ASSERT(heap.live == astar_grid_memory(&g));
  fz_scribble(&g, mode >> 3);
  {
    int rc = fz_load_and_check(&g, s, n, lines, count, &legend);
    if (!shape_ok) FZ_ASSERT(rc != ASTAR_OK);
    if (rc == ASTAR_OK) FZ_ASSERT(shape_ok && gw == w && gh == h);
  }
  FZ_ASSERT(heap.live == astar_grid_memory(&g));
  fz_release_check(&g, &heap);
  free(lines);
  return 0;
}

/*
 * fuzz_movingai: astar_movingai_header, then the body through
 * astar_movingai_legend and astar_grid_load_text.
 *
 * Input layout: the .map text, then one control byte (so a real .map file
 * works as a seed as it is: its final newline becomes the control byte).
 * Control byte: bits 0-4 scribble seed (prior edits before the load), bit 5
 * load into a grid one row taller (must fail; skipped at the 65534 side
 * limit), bit 7: first try
 * astar_grid_init with allocation (bit 6 ? 2 : 1) failing.
 *
 * Checks: the header is accepted exactly when it is four lines "type T",
 * "height H", "width W", "map" (words split by spaces and tabs, H and W
 * decimal 1..65534 within the tile limit) and the body has exactly H
 * rows of W bytes, with width, height and body offset right and the
 * failing line reported (counted from the top of the file); astar_movingai_legend is the
 * documented legend; the body load agrees with the reference text model
 * (see fuzz_common.h) and with astar_text_shape of the body.  Loads are
 * attempted only up to 256 x 256 tiles.
 */
#include "fuzz_common.h"

#define MAX_LOAD_TILES 65536

typedef struct {
  const char *p;
  size_t len;
} word;

/* Words of a line split by spaces and tabs; returns the count (up to 4). */
static int split_words(const char *s, size_t len, word *w) {
  int count = 0;
  size_t i = 0;
  while (i < len && count < 4) {
    size_t b;
    if (s[i] == ' ' || s[i] == '\t') {
      i++;
      continue;
    }
    b = i;
    while (i < len && s[i] != ' ' && s[i] != '\t') i++;
    w[count].p = s + b;
    w[count].len = i - b;
    count++;
  }
  return count;
}

static int is_word(const word *w, const char *lit) {
  return w->len == strlen(lit) && memcmp(w->p, lit, w->len) == 0;
}

/* 1 .. ASTAR_MAX_SIDE: the value; 0 not a positive decimal; -1 too big;
 * -2 both too big and not a number (either error code is fine). */
static int64_t side_value(const word *w) {
  int64_t v = 0;
  size_t i;
  int digits = 1, big = 0;
  for (i = 0; i < w->len; i++) {
    if (w->p[i] < '0' || w->p[i] > '9') {
      digits = 0;
      continue;
    }
    if (!big) {
      v = v * 10 + (w->p[i] - '0');
      if (v > ASTAR_MAX_SIDE) big = 1;
    }
  }
  if (big) return digits ? -1 : -2;
  if (!digits || v == 0) return 0;
  return v;
}

static void check_legend(void) {
  astar_legend l;
  unsigned c;
  memset(&l, 0x77, sizeof l);
  astar_movingai_legend(&l);
  for (c = 0; c < 256; c++) {
    if (c == '.' || c == 'G' || c == 'S') {
      FZ_ASSERT(l.kind[c] == ASTAR_LEGEND_COST && l.cost[c] == 1.0f);
    } else if (c == '@' || c == 'O' || c == 'T' || c == 'W') {
      FZ_ASSERT(l.kind[c] == ASTAR_LEGEND_BLOCKED);
    } else {
      FZ_ASSERT(l.kind[c] == ASTAR_LEGEND_UNSET);
    }
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const char *const keys[4] = {"type", "height", "width", "map"};
  const char *s = (const char *)data;
  size_t n = size > 0 ? size - 1 : 0, count, body = 0, bn, bcount;
  unsigned ctl = size > 0 ? data[size - 1] : 0;
  fz_line head[4], *lines;
  astar_parse_error err;
  int32_t w = -1, h = -1, sides[2] = {0, 0};
  size_t off = 99;
  int rc, k, exp_ok = 1, exp_line = 0, exp_code = ASTAR_PERR_NONE;
  fz_heap heap;
  astar_grid g;

  check_legend();

  /* reference header */
  count = fz_split(s, n, head, 4);
  for (k = 0; k < 4 && exp_ok; k++) {
    word wd[4];
    int nw;
    if ((size_t)k >= count) {
      exp_ok = 0;
      exp_code = ASTAR_PERR_HEADER;
      exp_line = k + 1;
      break;
    }
    nw = split_words(s + head[k].off, head[k].len, wd);
    if (nw != (k == 3 ? 1 : 2) || !is_word(&wd[0], keys[k])) {
      exp_ok = 0;
      exp_code = ASTAR_PERR_HEADER;
      exp_line = k + 1;
      break;
    }
    if (k == 1 || k == 2) {
      int64_t v = side_value(&wd[1]);
      if (v <= 0) {
        exp_ok = 0;
        exp_code = v == -1 ? ASTAR_PERR_TOO_BIG
                   : v == -2 ? -1 /* HEADER or TOO_BIG */
                             : ASTAR_PERR_HEADER;
        exp_line = k + 1;
        break;
      }
      sides[k - 1] = (int32_t)v;
    }
  }
  if (exp_ok) {
    /* the body starts after the fourth line's LF (or at the end) */
    const char *nl = memchr(s + head[3].off, '\n', n - head[3].off);
    body = nl != NULL ? (size_t)(nl - s) + 1 : n;
    if (!fz_padded_ok(sides[1], sides[0])) {
      exp_ok = 0;
      exp_code = ASTAR_PERR_TOO_BIG;
      exp_line = 0;
    }
  }
  if (exp_ok) {
    /* the header also checks the rows' shape (count and lengths) before
     * anyone allocates; line numbers count from the top of the file */
    size_t i, bc;
    fz_line *bl;
    bn = n - body;
    bl = (fz_line *)malloc((bn + 1) * sizeof *bl);
    if (bl == NULL) abort();
    bc = fz_split(s + body, bn, bl, bn + 1);
    for (i = 0; i < bc && exp_ok; i++) {
      if (i == (size_t)sides[0]) {
        exp_ok = 0;
        exp_code = ASTAR_PERR_ROW_COUNT;
        exp_line = 5 + sides[0];
      } else if (bl[i].len != (size_t)sides[1]) {
        exp_ok = 0;
        exp_code = ASTAR_PERR_ROW_LENGTH;
        exp_line = 5 + (int)i;
      }
    }
    if (exp_ok && bc != (size_t)sides[0]) {
      exp_ok = 0;
      exp_code = ASTAR_PERR_ROW_COUNT;
      exp_line = bc > 0 ? 4 + (int)bc : 0;
    }
    free(bl);
  }

  memset(&err, 0x55, sizeof err);
  rc = astar_movingai_header(s, n, &w, &h, &off, &err);
  if (!exp_ok) {
    FZ_ASSERT(rc == ASTAR_EPARSE);
    if (exp_code == -1)
      FZ_ASSERT(err.code == ASTAR_PERR_HEADER ||
                err.code == ASTAR_PERR_TOO_BIG);
    else
      FZ_ASSERT(err.code == exp_code);
    FZ_ASSERT(err.line == exp_line);
    return 0;
  }
  FZ_ASSERT(rc == ASTAR_OK);
  FZ_ASSERT(err.code == ASTAR_PERR_NONE);
  FZ_ASSERT(h == sides[0] && w == sides[1]);
  FZ_ASSERT(off == body);
  FZ_ASSERT(astar_movingai_header(s, n, &w, &h, &off, NULL) == ASTAR_OK);
  if ((ctl & 32) != 0 && h < ASTAR_MAX_SIDE) h++;
  if ((int64_t)w * h > MAX_LOAD_TILES) return 0;

  /* the body */
  bn = n - body;
  lines = (fz_line *)malloc((bn + 1) * sizeof *lines);
  if (lines == NULL) abort();
  bcount = fz_split(s + body, bn, lines, bn + 1);
  fz_heap_init(&heap);
  if (ctl & 128) {
    heap.fail_at = (ctl & 64) ? 2 : 1;
    FZ_ASSERT(astar_grid_init(&g, w, h, fz_alloc, &heap) == ASTAR_ENOMEM);
    FZ_ASSERT(heap.live == 0 && heap.blocks == 0);
    fz_release_check(&g, &heap);
    heap.fail_at = 0;
  }
  FZ_ASSERT(astar_grid_init(&g, w, h, fz_alloc, &heap) == ASTAR_OK);
  fz_scribble(&g, ctl & 31);
  {
    astar_legend legend;
    int32_t sw = 0, sh = 0;
    int lrc, src;
    astar_movingai_legend(&legend);
    lrc = fz_load_and_check(&g, s + body, bn, lines, bcount, &legend);
    src = astar_text_shape(s + body, bn, &sw, &sh, NULL);
    if (lrc == ASTAR_OK) FZ_ASSERT(src == ASTAR_OK && sw == w && sh == h);
  }
  FZ_ASSERT(heap.live == astar_grid_memory(&g));
  fz_release_check(&g, &heap);
  free(lines);
  return 0;
}

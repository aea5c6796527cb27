/*
 * Text maps: rows of characters through a legend, and the MovingAI .map
 * header.  Lines end in LF or CRLF; one final line ending is optional.
 * Loads check everything first and change the grid only when all is valid.
 */
#include "astar.h"
#include "internal.h"

#include <string.h>

static void set_error(astar_parse_error *err, int code, int32_t line,
                      int32_t column, int32_t expected, int32_t got) {
  if (err == NULL) return;
  err->code = code;
  err->line = line;
  err->column = column;
  err->expected = expected;
  err->got = got;
}

/* The next line of s[0, n) from *pos, without its LF or CRLF.  A final line
 * ending does not start another (empty) line.  Returns 0 at the end. */
static int next_line(const char *s, size_t n, size_t *pos, const char **line,
                     size_t *len) {
  size_t p = *pos, e;
  const char *nl;
  if (p >= n) return 0;
  nl = memchr(s + p, '\n', n - p);
  e = nl != NULL ? (size_t)(nl - s) : n;
  *line = s + p;
  *len = e - p;
  if (*len > 0 && s[e - 1] == '\r') (*len)--;
  *pos = nl != NULL ? e + 1 : n;
  return 1;
}

const char *astar_parse_error_text(int code) {
  switch (code) {
  case ASTAR_PERR_NONE: return "no error";
  case ASTAR_PERR_EMPTY: return "no rows";
  case ASTAR_PERR_ROW_LENGTH: return "row length differs";
  case ASTAR_PERR_ROW_COUNT: return "wrong number of rows";
  case ASTAR_PERR_CHAR: return "character not in the legend";
  case ASTAR_PERR_HEADER: return "malformed header";
  case ASTAR_PERR_TOO_BIG: return "map too big";
  default: return "unknown error";
  }
}

int astar_text_shape(const char *s, size_t n, int32_t *width,
                     int32_t *height, astar_parse_error *err) {
  size_t pos = 0, len, w = 0;
  const char *line;
  int32_t rows = 0;
  set_error(err, ASTAR_PERR_NONE, 0, 0, 0, 0);
  while (next_line(s, n, &pos, &line, &len)) {
    if (rows == 0) {
      if (len == 0) {
        set_error(err, ASTAR_PERR_EMPTY, 1, 0, 0, 0);
        return ASTAR_EPARSE;
      }
      if (len > ASTAR_MAX_SIDE) {
        set_error(err, ASTAR_PERR_TOO_BIG, 1, 0, ASTAR_MAX_SIDE,
                  len > INT32_MAX ? INT32_MAX : (int32_t)len);
        return ASTAR_EPARSE;
      }
      w = len;
    } else if (len != w) {
      set_error(err, ASTAR_PERR_ROW_LENGTH, rows + 1, 0, (int32_t)w,
                len > INT32_MAX ? INT32_MAX : (int32_t)len);
      return ASTAR_EPARSE;
    }
    if (++rows > ASTAR_MAX_SIDE) {
      set_error(err, ASTAR_PERR_TOO_BIG, rows, 0, ASTAR_MAX_SIDE, rows);
      return ASTAR_EPARSE;
    }
  }
  if (rows == 0) {
    set_error(err, ASTAR_PERR_EMPTY, 0, 0, 0, 0);
    return ASTAR_EPARSE;
  }
  if (astar_grid_bytes((int32_t)w, rows, 0) == 0) {
    set_error(err, ASTAR_PERR_TOO_BIG, 0, 0, 0, 0);
    return ASTAR_EPARSE;
  }
  *width = (int32_t)w;
  *height = rows;
  return ASTAR_OK;
}

int astar_grid_load_text(astar_grid *g, const char *s, size_t n,
                         const astar_legend *legend,
                         astar_parse_error *err) {
  size_t pos = 0, len, c;
  const char *line;
  int32_t row = 0, x;
  set_error(err, ASTAR_PERR_NONE, 0, 0, 0, 0);
  /* first pass: check everything */
  while (next_line(s, n, &pos, &line, &len)) {
    if (row == g->height) {
      set_error(err, ASTAR_PERR_ROW_COUNT, row + 1, 0, g->height, row + 1);
      return ASTAR_EPARSE;
    }
    if (len != (size_t)g->width) {
      set_error(err, ASTAR_PERR_ROW_LENGTH, row + 1, 0, g->width,
                len > INT32_MAX ? INT32_MAX : (int32_t)len);
      return ASTAR_EPARSE;
    }
    for (c = 0; c < len; c++) {
      unsigned char ch = (unsigned char)line[c];
      if (legend->kind[ch] == ASTAR_LEGEND_UNSET) {
        set_error(err, ASTAR_PERR_CHAR, row + 1, (int32_t)c + 1, 0, ch);
        return ASTAR_EPARSE;
      }
    }
    row++;
  }
  if (row != g->height) {
    set_error(err, ASTAR_PERR_ROW_COUNT, row, 0, g->height, row);
    return ASTAR_EPARSE;
  }
  /* the only allocation comes before the first write */
  for (c = 0; c < 256; c++) {
    if (legend->kind[c] != ASTAR_LEGEND_UNSET && legend->terrain[c] > 0 &&
        astar_grid_use_terrain(g) != ASTAR_OK)
      return ASTAR_ENOMEM;
    if (legend->kind[c] == ASTAR_LEGEND_HEIGHT &&
        astar_grid_use_height(g) != ASTAR_OK)
      return ASTAR_ENOMEM;
  }
  /* second pass: apply */
  pos = 0;
  row = 0;
  while (next_line(s, n, &pos, &line, &len)) {
    uint32_t base = astar_index(g, 0, row);
    for (x = 0; x < g->width; x++) {
      unsigned char ch = (unsigned char)line[x];
      uint32_t i = base + (uint32_t)x;
      if (legend->kind[ch] == ASTAR_LEGEND_BLOCKED)
        astar_grid_put(g, i, 0.0f, 0);
      else if (legend->kind[ch] == ASTAR_LEGEND_COST)
        astar_grid_put(g, i, legend->cost[ch], 1);
      else if (legend->kind[ch] == ASTAR_LEGEND_HEIGHT)
        astar_grid_put_height(g, i, legend->cost[ch]);
      if (legend->terrain[ch] > 0)
        astar_grid_put_terrain(g, i, legend->terrain[ch] - 1);
    }
    row++;
  }
  astar_grid_refresh(g);
  return ASTAR_OK;
}

/* Split a header line into at most two space/tab separated words. */
static int words(const char *line, size_t len, const char **w1, size_t *l1,
                 const char **w2, size_t *l2) {
  size_t i = 0, count = 0;
  const char *start[3];
  size_t length[3];
  while (i < len) {
    size_t b;
    while (i < len && (line[i] == ' ' || line[i] == '\t')) i++;
    if (i == len) break;
    b = i;
    while (i < len && line[i] != ' ' && line[i] != '\t') i++;
    if (count == 3) return 4;
    start[count] = line + b;
    length[count] = i - b;
    count++;
  }
  if (count >= 1) { *w1 = start[0]; *l1 = length[0]; }
  if (count >= 2) { *w2 = start[1]; *l2 = length[1]; }
  return (int)count;
}

static int word_is(const char *w, size_t len, const char *lit) {
  return len == strlen(lit) && memcmp(w, lit, len) == 0;
}

/* A decimal size 1..ASTAR_MAX_SIDE; 0 when it is not one, -1 too big. */
static int32_t parse_side(const char *w, size_t len) {
  int64_t v = 0;
  size_t i;
  if (len == 0) return 0;
  for (i = 0; i < len; i++) {
    if (w[i] < '0' || w[i] > '9') return 0;
    v = v * 10 + (w[i] - '0');
    if (v > ASTAR_MAX_SIDE) return -1;
  }
  return (int32_t)v;
}

/* The shape check of a MovingAI body: exactly h rows of exactly w bytes
 * (LF or CRLF, one final line ending optional), the error reported as
 * astar_grid_load_text reports it, with line numbers counted from the top
 * of the file (first_line: the body's first line).  Time in proportion to
 * the text, no memory. */
static int movingai_body_shape(const char *s, size_t n, int32_t w, int32_t h,
                               int32_t first_line, astar_parse_error *err) {
  size_t pos = 0, len;
  const char *line;
  int32_t row = 0;
  while (next_line(s, n, &pos, &line, &len)) {
    if (row == h) {
      set_error(err, ASTAR_PERR_ROW_COUNT, first_line + row, 0, h, row + 1);
      return ASTAR_EPARSE;
    }
    if (len != (size_t)w) {
      set_error(err, ASTAR_PERR_ROW_LENGTH, first_line + row, 0, w,
                len > INT32_MAX ? INT32_MAX : (int32_t)len);
      return ASTAR_EPARSE;
    }
    row++;
  }
  if (row != h) {
    set_error(err, ASTAR_PERR_ROW_COUNT, row > 0 ? first_line + row - 1 : 0,
              0, h, row);
    return ASTAR_EPARSE;
  }
  return ASTAR_OK;
}

int astar_movingai_header(const char *s, size_t n, int32_t *width,
                          int32_t *height, size_t *body_offset,
                          astar_parse_error *err) {
  static const char *const keys[4] = {"type", "height", "width", "map"};
  size_t pos = 0, len, l1 = 0, l2 = 0;
  const char *line, *w1 = NULL, *w2 = NULL;
  int32_t sides[2] = {0, 0};
  int k;
  set_error(err, ASTAR_PERR_NONE, 0, 0, 0, 0);
  for (k = 0; k < 4; k++) {
    int count;
    if (!next_line(s, n, &pos, &line, &len)) {
      set_error(err, ASTAR_PERR_HEADER, k + 1, 0, 0, 0);
      return ASTAR_EPARSE;
    }
    count = words(line, len, &w1, &l1, &w2, &l2);
    if (count != (k == 3 ? 1 : 2) || !word_is(w1, l1, keys[k])) {
      set_error(err, ASTAR_PERR_HEADER, k + 1, 0, 0, 0);
      return ASTAR_EPARSE;
    }
    if (k == 1 || k == 2) {
      int32_t v = parse_side(w2, l2);
      if (v <= 0) {
        set_error(err, v < 0 ? ASTAR_PERR_TOO_BIG : ASTAR_PERR_HEADER, k + 1,
                  0, 0, 0);
        return ASTAR_EPARSE;
      }
      sides[k - 1] = v;
    }
  }
  if (astar_grid_bytes(sides[1], sides[0], 0) == 0) {
    set_error(err, ASTAR_PERR_TOO_BIG, 0, 0, 0, 0);
    return ASTAR_EPARSE;
  }
  /* the rows before any allocation: a short file that announces a huge
   * map must cost what the file costs, not what the header claims */
  if (movingai_body_shape(s + pos, n - pos, sides[1], sides[0], 5, err) !=
      ASTAR_OK)
    return ASTAR_EPARSE;
  *height = sides[0];
  *width = sides[1];
  *body_offset = pos;
  return ASTAR_OK;
}

void astar_movingai_legend(astar_legend *legend) {
  const char *open = ".GS", *blocked = "@OTW", *p;
  memset(legend, 0, sizeof *legend);
  for (p = open; *p; p++) {
    legend->kind[(unsigned char)*p] = ASTAR_LEGEND_COST;
    legend->cost[(unsigned char)*p] = 1.0f;
  }
  for (p = blocked; *p; p++)
    legend->kind[(unsigned char)*p] = ASTAR_LEGEND_BLOCKED;
}

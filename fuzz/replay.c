/*
 * Replay driver: feeds files, or every file in directories (sorted, dot
 * files skipped), to LLVMFuzzerTestOneInput once each.  Linked with a
 * harness instead of libFuzzer, so the corpora and fuzz/regressions can run
 * under any compiler with ASan/UBSan.  A failing input aborts the process
 * (the harness's invariants call abort(); sanitizers report and exit).
 *
 *   replay-<harness> [-v] PATH...
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <unistd.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int verbose;
static unsigned long ran;
static const char *current; /* the input being run, named on abort */

static void on_abort(int sig) {
  static const char pre[] = "replay: failing input: ";
  if (current != NULL) {
    ssize_t ignored = write(2, pre, sizeof pre - 1);
    ignored = write(2, current, strlen(current));
    ignored = write(2, "\n", 1);
    (void)ignored;
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

static void run_file(const char *path) {
  FILE *f = fopen(path, "rb");
  uint8_t *buf = NULL, *copy;
  size_t len = 0, cap = 0, got;
  if (f == NULL) {
    fprintf(stderr, "replay: cannot open %s: %s\n", path, strerror(errno));
    exit(2);
  }
  for (;;) {
    if (len == cap) {
      cap = cap ? cap * 2 : 4096;
      buf = realloc(buf, cap);
      if (buf == NULL) abort();
    }
    got = fread(buf + len, 1, cap - len, f);
    len += got;
    if (got == 0) break;
  }
  if (ferror(f)) {
    fprintf(stderr, "replay: cannot read %s\n", path);
    exit(2);
  }
  fclose(f);
  /* an exactly sized copy, so ASan catches reads past the input's end */
  copy = malloc(len ? len : 1);
  if (copy == NULL) abort();
  if (len) memcpy(copy, buf, len);
  free(buf);
  if (verbose) fprintf(stderr, "replay: %s (%lu bytes)\n", path,
                       (unsigned long)len);
  current = path;
  LLVMFuzzerTestOneInput(copy, len);
  current = NULL;
  free(copy);
  ran++;
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run_path(const char *path) {
  struct stat st;
  DIR *d;
  struct dirent *e;
  char **names = NULL;
  size_t n = 0, cap = 0, i;
  if (stat(path, &st) != 0) {
    fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
    exit(2);
  }
  if (!S_ISDIR(st.st_mode)) {
    run_file(path);
    return;
  }
  d = opendir(path);
  if (d == NULL) {
    fprintf(stderr, "replay: cannot open directory %s\n", path);
    exit(2);
  }
  while ((e = readdir(d)) != NULL) {
    size_t len;
    if (e->d_name[0] == '.') continue;
    if (n == cap) {
      cap = cap ? cap * 2 : 64;
      names = realloc(names, cap * sizeof *names);
      if (names == NULL) abort();
    }
    len = strlen(path) + strlen(e->d_name) + 2;
    names[n] = malloc(len);
    if (names[n] == NULL) abort();
    snprintf(names[n], len, "%s/%s", path, e->d_name);
    n++;
  }
  closedir(d);
  if (n > 1) qsort(names, n, sizeof *names, by_name);
  for (i = 0; i < n; i++) {
    run_path(names[i]);
    free(names[i]);
  }
  free(names);
}

int main(int argc, char **argv) {
  int i;
  signal(SIGABRT, on_abort);
  for (i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-v") == 0)
      verbose = 1;
    else
      run_path(argv[i]);
  }
  printf("replay: %lu inputs, no failure\n", ran);
  return 0;
}

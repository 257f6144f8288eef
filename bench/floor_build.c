/*
 * floor_build.c - what every build command costs before it builds anything: the floor under
 * `otvar build` in bench/bench_build.py.
 *
 *   floor_build OUT BYTES INPUT...
 *
 * It starts as the otvar command starts (the same link: CMake gives it otvar_cli's -static-pie),
 * reads every INPUT whole (the designspace and the masters a build reads), and writes the bytes
 * of the file BYTES (the font otvar built) to OUT with the otvar command's own safe output
 * (tools/util_cli.c: a temp file, fsync, rename over an existing OUT; issue 25). No parsing,
 * no building: a command that did all of its work in no time would cost this. bench_build.py
 * runs it in the same alternation as otvar and fontTools and prints fontTools' time over this
 * one: the highest ratio any build command started and writing this way can reach.
 * Never a test.
 */
#include "cli.h"

#include <stdlib.h>

/* The whole file in a malloc'd buffer (as the command reads its inputs); NULL on failure. */
static unsigned char *slurp(const char *path, size_t *len)
{
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  unsigned char *buf = malloc(cap);
  while (buf) {
    n += fread(buf + n, 1, cap - n, f);
    if (n < cap) break;
    unsigned char *grown = realloc(buf, cap * 2);
    if (!grown) {
      free(buf);
      buf = NULL;
      break;
    }
    buf = grown;
    cap *= 2;
  }
  if (buf && ferror(f)) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  *len = n;
  return buf;
}

int main(int argc, char **argv)
{
  if (argc < 4) {
    fprintf(stderr, "usage: floor_build OUT BYTES INPUT...\n");
    return OTV_EXIT_USAGE;
  }
  size_t read_total = 0;
  for (int i = 3; i < argc; i++) {
    size_t n;
    unsigned char *in = slurp(argv[i], &n);
    if (!in) {
      perror(argv[i]);
      return OTV_EXIT_FONT;
    }
    read_total += n;
    free(in);
  }
  size_t len;
  unsigned char *bytes = slurp(argv[2], &len);
  if (!bytes) {
    perror(argv[2]);
    return OTV_EXIT_FONT;
  }
  cli_out o;
  int rc = cli_out_open("floor", argv[1], NULL, 1, &o);
  if (rc) {
    free(bytes);
    return rc;
  }
  int ok = fwrite(bytes, 1, len, o.f) == len && read_total > 0;
  free(bytes);
  return cli_out_close(&o, ok) == 0 ? OTV_EXIT_OK : OTV_EXIT_FONT;
}

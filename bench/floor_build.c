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
#include "bench_util.h"
#include "cli.h"

int main(int argc, char **argv)
{
  if (argc < 4) {
    fprintf(stderr, "usage: floor_build OUT BYTES INPUT...\n");
    return OTV_EXIT_USAGE;
  }
  for (int i = 3; i < argc; i++) { /* read whole, as the command reads its inputs */
    size_t n;
    uint8_t *in = bench_read_file(argv[i], &n);
    if (!in) {
      perror(argv[i]);
      return OTV_EXIT_FONT;
    }
    free(in);
  }
  size_t len;
  uint8_t *bytes = bench_read_file(argv[2], &len);
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
  int ok = fwrite(bytes, 1, len, o.f) == len;
  free(bytes);
  return cli_out_close(&o, ok) == 0 ? OTV_EXIT_OK : OTV_EXIT_FONT;
}

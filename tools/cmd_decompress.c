/*
 * cmd_decompress.c - `otvar decompress FONT.woff2 [-o FONT.ttf]`: a WOFF or WOFF2 file as the sfnt
 * (or TrueType Collection) it holds. Every other subcommand reads WOFF/WOFF2 directly; this one
 * writes the decoded font for tools that cannot.
 */
#include "cli.h"
#include "woff.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const char otv_cmd_decompress_summary[] = "write a WOFF/WOFF2 font as TrueType/OpenType";

static const cli_cmd decompress_cmd = {
    "decompress",
    "otvar decompress FONT.woff|FONT.woff2 [-o OUT] [--force]",
    "Writes the font a WOFF 1.0 or WOFF 2.0 file holds (glyf/loca and hmtx transforms\n"
    "undone, collections kept whole) as OUT, by default FONT with .ttf (.otf for CFF\n"
    "flavours, .ttc for collections) in place of the extension. Table checksums and a\n"
    "single font's head.checkSumAdjustment are recomputed. Other commands read WOFF and\n"
    "WOFF2 directly. FONT - reads standard input (and writes to standard output unless -o).\n",
    "Exit codes: 0 ok, 1 bad font or failed write, 2 bad usage or an existing "
    "OUT.\n" CLI_FILES_NOTE,
    "FONT",
    1,
    1};

/* The default output: FONT with .ttf, .otf or .ttc by the decoded flavour. */
static char *default_out(const char *path, const uint8_t *sfnt, size_t len)
{
  const char *ext = ".ttf";
  if (len >= 4 && !memcmp(sfnt, "OTTO", 4)) ext = ".otf";
  if (len >= 4 && !memcmp(sfnt, "ttcf", 4)) ext = ".ttc";
  return cli_with_ext(path, ext);
}

int otv_cmd_decompress(int argc, char **argv)
{
  const char *out = NULL;
  int force = 0;
  const cli_opt opts[] = {
      {NULL, 'o', CLI_OPT_VALUE, &out, "OUT", "output file (- : standard output)"},
      {"force", 0, CLI_OPT_FLAG, &force, NULL, "overwrite an existing OUT"},
      {"help", 'h', CLI_OPT_HELP, NULL, NULL, "this help"},
      CLI_OPT_END,
  };
  int rc;
  const char *path = cli_parse_one(&decompress_cmd, opts, argc, argv, &rc);
  if (!path) return rc;
  if (!out && cli_is_std(path)) out = "-"; /* as gzip: standard input to standard output */
  if ((rc = cli_check_std("decompress", path, out, true))) return rc;
  if (!cli_input_ok(path)) return OTV_EXIT_FONT;
  int woff = cli_is_woff(path);
  if (woff < 0) {
    fprintf(stderr, "otvar: %s: %s\n", cli_name(path), strerror(errno));
    return OTV_EXIT_FONT;
  }
  if (!woff) {
    fprintf(stderr, "otvar: %s: not a WOFF or WOFF2 file (no 'wOFF'/'wOF2' signature)\n",
            cli_name(path));
    return OTV_EXIT_FONT;
  }
  size_t len;
  uint8_t *sfnt = cli_woff_load(path, &len);
  if (!sfnt) return OTV_EXIT_FONT;
  char *def = out ? NULL : default_out(path, sfnt, len);
  rc = OTV_EXIT_FONT;
  if (!out && !def) {
    fprintf(stderr, "otvar: decompress: out of memory\n");
    goto done;
  }
  rc = cli_write_file("decompress", out ? out : def, path, force, sfnt, len);
done:
  free(def);
  free(sfnt);
  return rc;
}

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

static void usage(void)
{
  printf("usage: otvar decompress FONT.woff|FONT.woff2 [-o OUT] [--force]\n\n"
         "Writes the font a WOFF 1.0 or WOFF 2.0 file holds (glyf/loca and hmtx transforms\n"
         "undone, collections kept whole) as OUT, by default FONT with .ttf (.otf for CFF\n"
         "flavours, .ttc for collections) in place of the extension. Table checksums and a\n"
         "single font's head.checkSumAdjustment are recomputed. Other commands read WOFF and\n"
         "WOFF2 directly.\n"
         "Exit codes: 0 ok, 1 bad font or failed write, 2 bad usage or an existing OUT.\n");
}

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
  const char *path = NULL, *out = NULL;
  int force = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (cli_is_help(a)) {
      usage();
      return OTV_EXIT_OK;
    } else if (!strcmp(a, "-o") && i + 1 < argc) out = argv[++i];
    else if (!strcmp(a, "--force")) force = 1;
    else if (a[0] == '-' || path) {
      cli_usage_error("decompress", "unexpected argument '%s' (see --help)", a);
      return OTV_EXIT_USAGE;
    } else path = a;
  }
  if (!path) {
    cli_usage_error("decompress", "missing FONT (see --help)");
    return OTV_EXIT_USAGE;
  }
  FILE *f = fopen(path, "rb");
  uint8_t sig[4];
  int woff = f && fread(sig, 1, 4, f) == 4 && woff_is_woff(sig, 4);
  if (!f) {
    fprintf(stderr, "otvar: %s: %s\n", path, strerror(errno));
    return OTV_EXIT_FONT;
  }
  fclose(f);
  if (!woff) {
    fprintf(stderr, "otvar: %s: not a WOFF or WOFF2 file (no 'wOFF'/'wOF2' signature)\n", path);
    return OTV_EXIT_FONT;
  }
  size_t len;
  uint8_t *sfnt = cli_woff_load(path, &len);
  if (!sfnt) return OTV_EXIT_FONT;
  char *def = out ? NULL : default_out(path, sfnt, len);
  int rc = OTV_EXIT_FONT;
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

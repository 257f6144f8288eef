/*
 * cmd_compress.c - `otvar compress FONT [-o OUT.woff2] [--woff]`: a TrueType/OpenType font (or a
 * WOFF/WOFF2 one, re-encoded) as a web font: WOFF 2.0 with the glyf/loca transform by default,
 * WOFF 1.0 with --woff.
 */
#include "cli.h"
#include "woff.h"

#include <stdlib.h>
#include <string.h>

const char otv_cmd_compress_summary[] = "write a font as WOFF2 (or WOFF) for the web";

static const cli_cmd compress_cmd = {
    "compress",
    "otvar compress FONT [-o OUT] [--woff] [--force] [-q]",
    "Writes FONT as WOFF 2.0 (glyf/loca transformed, Brotli) or, with --woff, WOFF 1.0\n"
    "(zlib), as OUT, by default FONT with .woff2 (.woff) in place of its extension.\n"
    "A single font only (not a collection); DSIG is dropped (its signature would no\n"
    "longer hold).\n"
    "`otvar instance ... -o OUT.woff2` writes instances the same way.\n"
    "FONT - reads the font from standard input (and writes to standard output unless -o).\n",
    "Exit codes: 0 ok, 1 bad font or failed write, 2 bad usage or an existing "
    "OUT.\n" CLI_FILES_NOTE,
    "FONT",
    1,
    1};

int otv_cmd_compress(int argc, char **argv)
{
  const char *out = NULL;
  int force = 0, woff1 = 0, quiet = 0;
  const cli_opt opts[] = {
      {NULL, 'o', CLI_OPT_VALUE, &out, "OUT", "output file (- : standard output)"},
      {"woff", 0, CLI_OPT_FLAG, &woff1, NULL, "WOFF 1.0 instead of WOFF 2.0"},
      {"force", 0, CLI_OPT_FLAG, &force, NULL, "overwrite an existing OUT"},
      {"quiet", 'q', CLI_OPT_FLAG, &quiet, NULL, "print nothing on success"},
      {"help", 'h', CLI_OPT_HELP, NULL, NULL, "this help"},
      CLI_OPT_END,
  };
  int rc;
  const char *path = cli_parse_one(&compress_cmd, opts, argc, argv, &rc);
  if (!path) return rc;
  if (!out && cli_is_std(path)) out = "-"; /* as gzip: standard input to standard output */
  if ((rc = cli_check_std("compress", path, out, true))) return rc;
  char *def = out ? NULL : cli_with_ext(path, woff1 ? ".woff" : ".woff2");
  if (!out && !def) return OTV_EXIT_FONT;
  if (!out) out = def;
  size_t len, wlen = 0;
  uint8_t *sfnt = cli_load_sfnt(path, &len), *web = NULL;
  rc = OTV_EXIT_FONT;
  if (!sfnt) goto done;
  char msg[256];
  if ((woff1 ? woff1_encode : woff2_encode)(sfnt, len, &web, &wlen, msg, sizeof msg)) {
    fprintf(stderr, "otvar: %s: %s\n", cli_name(path), msg);
    goto done;
  }
  rc = cli_write_file("compress", out, path, force, web, wlen);
  if (!rc && !quiet && !cli_is_std(out)) /* standard output holds the font */
    printf("wrote %s: %zu bytes (%.1f%% of %zu)\n", out, wlen, 100.0 * (double)wlen / (double)len,
           len);
done:
  free(def);
  free(sfnt);
  free(web);
  return rc;
}

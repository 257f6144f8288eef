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

static void usage(void)
{
  printf("usage: otvar compress FONT [-o OUT] [--woff] [--force] [-q]\n\n"
         "Writes FONT as WOFF 2.0 (glyf/loca transformed, Brotli) or, with --woff, WOFF 1.0\n"
         "(zlib), as OUT, by default FONT with .woff2 (.woff) in place of its extension.\n"
         "A single font only (not a collection); DSIG is dropped (its signature would no\n"
         "longer hold).\n"
         "`otvar instance ... -o OUT.woff2` writes instances the same way.\n"
         "Exit codes: 0 ok, 1 bad font or failed write, 2 bad usage or an existing OUT.\n");
}

int otv_cmd_compress(int argc, char **argv)
{
  const char *path = NULL, *out = NULL;
  int force = 0, woff1 = 0, quiet = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (cli_is_help(a)) {
      usage();
      return OTV_EXIT_OK;
    } else if (!strcmp(a, "-o") && i + 1 < argc) out = argv[++i];
    else if (!strcmp(a, "--force")) force = 1;
    else if (!strcmp(a, "--woff")) woff1 = 1;
    else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) quiet = 1;
    else if (a[0] == '-' || path) {
      cli_usage_error("compress", "unexpected argument '%s' (see --help)", a);
      return OTV_EXIT_USAGE;
    } else path = a;
  }
  if (!path) {
    cli_usage_error("compress", "missing FONT (see --help)");
    return OTV_EXIT_USAGE;
  }
  char *def = out ? NULL : cli_with_ext(path, woff1 ? ".woff" : ".woff2");
  if (!out && !def) return OTV_EXIT_FONT;
  if (!out) out = def;
  size_t len, wlen = 0;
  uint8_t *sfnt = cli_load_sfnt(path, &len), *web = NULL;
  int rc = OTV_EXIT_FONT;
  if (!sfnt) goto done;
  char msg[256];
  if ((woff1 ? woff1_encode : woff2_encode)(sfnt, len, &web, &wlen, msg, sizeof msg)) {
    fprintf(stderr, "otvar: %s: %s\n", path, msg);
    goto done;
  }
  rc = cli_write_file("compress", out, path, force, web, wlen);
  if (!rc && !quiet)
    printf("wrote %s: %zu bytes (%.1f%% of %zu)\n", out, wlen, 100.0 * (double)wlen / (double)len,
           len);
done:
  free(def);
  free(sfnt);
  free(web);
  return rc;
}

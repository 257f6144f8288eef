/*
 * cmd_metrics.c - `otvar metrics FONT [--index N] [--var TAG=V,...|--named N|NAME]
 * [--glyphs LIST] [--vertical] [--round]`: per-glyph metrics at a location, one line per glyph:
 * `GID ADVANCE LSB RSB` (horizontal) or `GID ADVANCE TSB BSB ORIGIN` (vertical; synthesized as
 * HarfBuzz does for a font without vhea/vmtx). Numbers have at most 3 decimals and no trailing
 * zeros.
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>


const char otv_cmd_metrics_summary[] = "glyph advances and side bearings at a location";

void cli_metrics_num(double v, char buf[32]);

static void usage(FILE *f)
{
  fprintf(f,
          "usage: otvar metrics FONT [--index N] [--var TAG=V,...|--named N|NAME]\n"
          "                          [--glyphs all|GID,GID-GID,...] [--vertical] [--round]\n\n"
          "One line per glyph at the location (default: the font's default location):\n"
          "  horizontal: GID ADVANCE LSB RSB\n"
          "  --vertical: GID ADVANCE TSB BSB ORIGIN   (ORIGIN: y of the vertical origin)\n"
          "Advances come from hmtx/vmtx varied by HVAR/VVAR (or by the gvar phantom points when\n"
          "those are absent); side bearings from HVAR/VVAR maps (TrueType: LSB/TSB = hmtx/vmtx +\n"
          "delta, RSB/BSB = default RSB/BSB + delta) or the varied glyph bounds.\n"
          "A font without vhea/vmtx gets synthesized vertical metrics, as HarfBuzz makes them:\n"
          "advance = ascender - descender (OS/2 typo with USE_TYPO_METRICS, else hhea; MVAR\n"
          "applied), the varied glyph box centred in it (or VORG for the origin).\n"
          "Values are unrounded (at most 3 decimals) unless --round (floor(x + 0.5)).\n");
}

int otv_cmd_metrics(int argc, char **argv)
{
  const char *path = NULL, *var = NULL, *named = NULL, *glyphs = "all";
  unsigned index = 0;
  bool vertical = false, round = false;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (cli_is_help(a)) {
      usage(stdout);
      return OTV_EXIT_OK;
    } else if (!strcmp(a, "--vertical")) {
      vertical = true;
    } else if (!strcmp(a, "--round")) {
      round = true;
    } else if (!strcmp(a, "--index") || !strcmp(a, "--var") || !strcmp(a, "--named") ||
               !strcmp(a, "--glyphs")) {
      if (i + 1 >= argc) {
        cli_usage_error("metrics", "%s needs a value (see --help)", a);
        return OTV_EXIT_USAGE;
      }
      const char *v = argv[++i];
      if (!strcmp(a, "--index")) {
        if (cli_parse_index("metrics", v, &index)) return OTV_EXIT_USAGE;
      } else if (!strcmp(a, "--var")) {
        var = v;
      } else if (!strcmp(a, "--named")) {
        named = v;
      } else {
        glyphs = v;
      }
    } else if (a[0] == '-' && a[1]) {
      cli_usage_error("metrics", "unknown option '%s' (see --help)", a);
      return OTV_EXIT_USAGE;
    } else if (path) {
      cli_usage_error("metrics", "unexpected argument '%s' (see --help)", a);
      return OTV_EXIT_USAGE;
    } else {
      path = a;
    }
  }
  if (!path) {
    cli_usage_error("metrics", "missing FONT (see --help)");
    return OTV_EXIT_USAGE;
  }
  if (var && named) {
    cli_usage_error("metrics", "--var and --named cannot be combined");
    return OTV_EXIT_USAGE;
  }
  otv_face *face = cli_open_face(path, index);
  if (!face) return OTV_EXIT_FONT;
  int rc = OTV_EXIT_OK;
  otv_location *loc = NULL;
  uint32_t *gids = NULL;
  size_t n = 0;
  otv_face_info fi;
  otv_face_get_info(face, &fi);
  if (cli_parse_glyphs("metrics", glyphs, fi.glyph_count, &gids, &n)) {
    rc = OTV_EXIT_USAGE;
    goto done;
  }
  otv_error e = {0};
  if (otv_location_create(face, &loc, &e)) {
    cli_error(path, &e);
    rc = OTV_EXIT_FONT;
    goto done;
  }
  if ((rc = cli_set_location("metrics", path, face, loc, var, named)) != OTV_EXIT_OK) goto done;
  /* vertical: fonts without vhea/vmtx get synthesized metrics (otv_glyph_v_metrics) */
  unsigned flags = (round ? OTV_METRICS_ROUND : 0) | (vertical ? OTV_METRICS_SYNTHESIZE : 0);
  bool warned = false;
  for (size_t i = 0; i < n; i++) {
    otv_glyph_metrics m;
    otv_status s = vertical ? otv_glyph_v_metrics(loc, gids[i], flags, &m)
                            : otv_glyph_h_metrics(loc, gids[i], flags, &m);
    if (s == OTV_E_UNSUPPORTED && otv_location_last_error(loc)->table ==
                                      (vertical ? OTV_TAG('V', 'V', 'A', 'R') : OTV_TAG('H', 'V', 'A', 'R'))) {
      /* CFF2 without HVAR/VVAR: default metrics, said once */
      if (!warned) cli_error(path, otv_location_last_error(loc));
      warned = true;
    } else if (s) {
      cli_error(path, otv_location_last_error(loc));
      rc = OTV_EXIT_FONT;
      break;
    }
    char a[32], b[32], c[32], d[32];
    cli_metrics_num(m.advance, a);
    cli_metrics_num(m.side_a, b);
    cli_metrics_num(m.side_b, c);
    if (vertical) {
      cli_metrics_num(m.origin, d);
      printf("%u %s %s %s %s\n", gids[i], a, b, c, d);
    } else {
      printf("%u %s %s %s\n", gids[i], a, b, c);
    }
  }
done:
  free(gids);
  otv_location_destroy(loc);
  cli_close_face(face);
  return rc;
}

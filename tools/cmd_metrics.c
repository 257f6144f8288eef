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

static const cli_cmd metrics_cmd = {
    "metrics",
    "otvar metrics FONT [--index N] [--var TAG=V,...|--named N|NAME]\n"
    "                          [--glyphs all|GID,GID-GID,...] [--vertical] [--round]",
    "One line per glyph at the location (default: the font's default location):\n"
    "  horizontal: GID ADVANCE LSB RSB\n"
    "  --vertical: GID ADVANCE TSB BSB ORIGIN   (ORIGIN: y of the vertical origin)\n"
    "Advances come from hmtx/vmtx varied by HVAR/VVAR (or by the gvar phantom points when\n"
    "those are absent); side bearings from HVAR/VVAR maps (TrueType: LSB/TSB = hmtx/vmtx +\n"
    "delta, RSB/BSB = default RSB/BSB + delta) or the varied glyph bounds.\n"
    "A font without vhea/vmtx gets synthesized vertical metrics, as HarfBuzz makes them:\n"
    "advance = ascender - descender (OS/2 typo with USE_TYPO_METRICS, else hhea; MVAR\n"
    "applied), the varied glyph box centred in it (or VORG for the origin).\n"
    "Values are unrounded (at most 3 decimals) unless --round (floor(x + 0.5)).\n"
    "FONT - reads the font from standard input.\n",
    "Exit codes: 0 ok, 1 bad font, 2 bad usage.\n",
    "FONT",
    1,
    1};

/* A walk over n glyphs of the face is one whole-font operation per pass over its glyphs: the
 * location gets that many face work budgets (otvar.h, docs/limits.md "Work budgets"). */
static void arm_budget(otv_location *loc, const otv_face *face, uint32_t glyph_count, size_t n)
{
  uint64_t one = otv_face_work_budget(face);
  uint64_t passes = glyph_count && n > glyph_count ? (n + glyph_count - 1) / glyph_count : 1;
  if (one == OTV_WORK_UNLIMITED) return; /* OTV_OPT_NO_WORK_BUDGET: a location has none */
  otv_location_set_work_budget(loc, one > (OTV_WORK_UNLIMITED - 1) / passes ? OTV_WORK_UNLIMITED - 1
                                                                            : one * passes);
}

/* The report: one line per glyph of the list at the location. */
static int metrics(const char *path, unsigned index, const char *var, const char *named,
                   const char *model, const char *glyphs, int vertical, int round)
{
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
  if ((rc = cli_location_create("metrics", path, face, var, named, model, &loc)) != OTV_EXIT_OK)
    goto done;
  arm_budget(loc, face, fi.glyph_count, n);
  /* vertical: fonts without vhea/vmtx get synthesized metrics (otv_glyph_v_metrics) */
  unsigned flags = (round ? OTV_METRICS_ROUND : 0) | (vertical ? OTV_METRICS_SYNTHESIZE : 0);
  bool warned = false;
  for (size_t i = 0; i < n; i++) {
    otv_glyph_metrics m;
    otv_status s = vertical ? otv_glyph_v_metrics(loc, gids[i], flags, &m)
                            : otv_glyph_h_metrics(loc, gids[i], flags, &m);
    if (s == OTV_E_UNSUPPORTED &&
        otv_location_last_error(loc)->table ==
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

int otv_cmd_metrics(int argc, char **argv)
{
  const char *var = NULL, *named = NULL, *glyphs = NULL, *index_arg = NULL, *model = NULL;
  int vertical = 0, round = 0;
  const cli_opt opts[] = {
      {"index", 0, CLI_OPT_VALUE, &index_arg, "N", "face N of a TrueType Collection (default 0)"},
      CLI_OPT_VAR(&var, "TAG=V,..."),
      CLI_OPT_NAMED(&named),
      CLI_OPT_NORMALIZE(&model),
      CLI_OPT_GLYPHS(&glyphs),
      {"vertical", 0, CLI_OPT_FLAG, &vertical, NULL, "vertical metrics"},
      {"round", 0, CLI_OPT_FLAG, &round, NULL, "values rounded as floor(x + 0.5)"},
      {"help", 'h', CLI_OPT_HELP, NULL, NULL, "this help"},
      CLI_OPT_END,
  };
  cli_args args;
  int rc;
  unsigned index = 0;
  if (!cli_parse(&metrics_cmd, opts, argc, argv, &args, &rc)) goto out;
  const char *path = args.pos[0];
  rc = OTV_EXIT_USAGE;
  otv_norm_model m;
  if (cli_parse_face_opts("metrics", index_arg, model, var, named, &index, &m)) goto out;
  if ((rc = cli_check_std("metrics", path, NULL, false))) goto out;
  rc = metrics(path, index, var, named, model, glyphs ? glyphs : "all", vertical, round);
out:
  cli_args_free(&args);
  return rc;
}

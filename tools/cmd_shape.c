/*
 * cmd_shape.c - `otvar shape FONT --text STR`: the glyphs, clusters and positions HarfBuzz gives
 * the text at a location, printed in hb-shape's text format with hb-shape's flags, so that the
 * two can be diffed. The location is otvar's (--var through the chosen normalization, --named),
 * handed to HarfBuzz as normalized coordinates (shape.h).
 */
#include "cli.h"
#include "shape.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef OTV_HAVE_HARFBUZZ
#  include <hb.h>
#endif

const char otv_cmd_shape_summary[] = "shape text with HarfBuzz at a location (hb-shape's format)";

static const cli_cmd shape_cmd = {
    "shape",
    "otvar shape FONT --text STR [--var TAG=VALUE,...|--named N|NAME] [--features LIST]\n"
    "                  [--direction DIR] [--script ISO15924] [--language BCP47]\n"
    "                  [--font-size N] [--no-glyph-names] [--no-positions] [--no-advances]\n"
    "                  [--no-clusters] [--show-extents] [--index N]",
    "Shapes STR with HarfBuzz at the location (its normalized coordinates as otvar computes\n"
    "them) and prints one line per line of STR in hb-shape's format:\n"
    "[name=cluster+advance|name=cluster@x_offset,y_offset+advance|...], glyphs in visual\n"
    "order, clusters as code point indices, positions in font units (or at --font-size).\n"
    "`otvar shape F --text T --var wght=700 --normalize harfbuzz6` prints what\n"
    "`hb-shape F --text=T --variations=wght=700` does (HarfBuzz 6.0 normalizes user values\n"
    "its own way: docs/normalization.md).\n"
    "FONT - reads the font from standard input.\n",
    "Exit status: 0 ok, 1 bad font or built without HarfBuzz, 2 bad usage.\n",
    "FONT",
    1,
    1};

int otv_cmd_shape(int argc, char **argv)
{
  const char *text = NULL, *var = NULL, *named = NULL, *model = NULL, *index_arg = NULL;
  const char *size_arg = NULL;
  int no_names = 0, no_pos = 0, no_adv = 0, no_clusters = 0, extents = 0;
  shp_opts so = {0};
  const cli_opt opts[] = {
      {"text", 0, CLI_OPT_VALUE, &text, "STR", "the text (UTF-8; a line per newline)"},
      {"var", 0, CLI_OPT_LIST, &var, "TAG=VALUE,...", "user-space axis values"},
      CLI_OPT_NAMED(&named),
      CLI_OPT_NORMALIZE(&model),
      {"features", 0, CLI_OPT_LIST, &so.features, "LIST",
       "OpenType features as hb-shape takes them: kern,-liga,\n"
       "ss01=1,aalt[3:5]=2 (comma-separated)"},
      {"direction", 0, CLI_OPT_VALUE, &so.direction, "DIR",
       "ltr, rtl, ttb or btt (default: from the text)"},
      {"script", 0, CLI_OPT_VALUE, &so.script, "ISO15924", "the script (default: from the text)"},
      {"language", 0, CLI_OPT_VALUE, &so.language, "BCP47", "the language (default: none)"},
      {"font-size", 0, CLI_OPT_VALUE, &size_arg, "N",
       "scale positions to N units per em, as hb-shape\n"
       "--font-size (default: the font's units per em)"},
      {"no-glyph-names", 0, CLI_OPT_FLAG, &no_names, NULL, "glyph ids instead of names"},
      {"no-positions", 0, CLI_OPT_FLAG, &no_pos, NULL, "no advances and offsets"},
      {"no-advances", 0, CLI_OPT_FLAG, &no_adv, NULL, "no advances"},
      {"no-clusters", 0, CLI_OPT_FLAG, &no_clusters, NULL, "no cluster indices"},
      {"show-extents", 0, CLI_OPT_FLAG, &extents, NULL, "glyph extents <x,y,width,height>"},
      {"index", 0, CLI_OPT_VALUE, &index_arg, "N", "face N of a font collection (default 0)"},
      {"help", 'h', CLI_OPT_HELP, NULL, NULL, "this help"},
      CLI_OPT_END,
  };
  cli_args args;
  int rc;
  if (!cli_parse(&shape_cmd, opts, argc, argv, &args, &rc)) goto out;
  const char *font = args.pos[0];
  rc = OTV_EXIT_USAGE;
  unsigned index = 0;
  double font_size = 0;
  if (index_arg && cli_parse_index("shape", index_arg, &index)) goto out;
  if (size_arg) {
    if (cli_parse_number("shape", "--font-size", size_arg, &font_size)) goto out;
    if (!(font_size >= 1 && font_size <= 1e6)) {
      cli_usage_error("shape", "--font-size %g: must be between 1 and 1000000", font_size);
      goto out;
    }
  }
  otv_norm_model m;
  if (cli_parse_model("shape", model, &m)) goto out;
  if (!text) {
    cli_usage_see("shape", "missing --text STR");
    goto out;
  }
  uint32_t *cps = NULL;
  size_t ncp = 0;
  if (cli_utf8_decode(text, &cps, &ncp)) {
    cli_usage_error("shape", "--text is not valid UTF-8");
    goto out;
  }
  if ((rc = cli_check_std("shape", font, NULL, false))) {
    free(cps);
    goto out;
  }
  rc = OTV_EXIT_FONT;
  otv_face *face = cli_open_face(font, index);
  otv_location *loc = NULL;
  shp_font *sh = NULL;
  if (!face) goto done;
  rc = cli_location_create("shape", font, face, var, named, model, &loc);
  if (rc != OTV_EXIT_OK) goto done;
  if (!shp_available()) {
    fprintf(stderr,
            "otvar: shape: %s: nothing to shape with (install libharfbuzz0b, or "
            "libharfbuzz-dev and rebuild)\n",
            shp_unavailable_reason());
    rc = OTV_EXIT_FONT;
    goto done;
  }
  rc = shp_font_create("shape", face, &so, &sh);
  if (rc != OTV_EXIT_OK) goto done;
  unsigned flags = 0;
#ifdef OTV_HAVE_HARFBUZZ
  flags = (no_names ? HB_BUFFER_SERIALIZE_FLAG_NO_GLYPH_NAMES : 0) |
          (no_pos ? HB_BUFFER_SERIALIZE_FLAG_NO_POSITIONS : 0) |
          (no_adv ? HB_BUFFER_SERIALIZE_FLAG_NO_ADVANCES : 0) |
          (no_clusters ? HB_BUFFER_SERIALIZE_FLAG_NO_CLUSTERS : 0) |
          (extents ? HB_BUFFER_SERIALIZE_FLAG_GLYPH_EXTENTS : 0);
#endif
  /* one output line per line of the text, as hb-shape reads --text: a final newline ends the
   * last line, an empty line prints as one */
  for (size_t s0 = 0, i = 0; i <= ncp; i++) {
    if (i < ncp && cps[i] != '\n') continue;
    if (i == ncp && s0 == ncp) break; /* no line after a final newline (nor for "") */
    if (shp_print(sh, loc, &so, cps + s0, i - s0, flags, font_size, stdout)) {
      fprintf(stderr, "otvar: shape: out of memory\n");
      rc = OTV_EXIT_FONT;
      goto done;
    }
    s0 = i + 1;
  }
  rc = OTV_EXIT_OK;
done:
  free(cps);
  shp_font_destroy(sh);
  otv_location_destroy(loc);
  cli_close_face(face);
out:
  cli_args_free(&args);
  return rc;
}

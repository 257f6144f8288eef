/*
 * cmd_render.c - `otvar render FONT --text STR`: text at any location of the design space as an
 * anti-aliased PNG (otvar's rasterizer) or as SVG. Text is shaped by HarfBuzz at the location
 * (shape.h: FeatureVariations, GPOS, bidi runs); without HarfBuzz, the cmap layout of render.h.
 */
#include "cli.h"
#include "render.h"
#include "shape.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char otv_cmd_render_summary[] = "draw text at a location as PNG or SVG";

#define MAX_SIZE 2000.0
#define MAX_PIXELS (64u << 20)

static const cli_cmd render_cmd = {
    "render",
    "otvar render FONT --text STR [--var TAG=VALUE,...|--named N|NAME] [--size PX]\n"
    "                   [-o OUT.png|OUT.svg] [--fg RRGGBB] [--bg RRGGBB|none] [--slant S]\n"
    "                   [--features LIST] [--direction ltr|rtl] [--script ISO15924]\n"
    "                   [--language BCP47] [--no-kern] [--index N] [--force]",
    "Draws STR (UTF-8; newlines start new lines) with the font at the location: --var sets user\n"
    "coordinates (tags shorter than 4 characters are padded with spaces), --named picks a named\n"
    "instance; default: the default location. The text is shaped by HarfBuzz at the same\n"
    "normalized coordinates (ligatures, marks, kerning and FeatureVariations of the location);\n"
    "a line mixing directions is cut into runs by the bidi algorithm (FriBidi). Characters the\n"
    "font does not map draw as .notdef. Built without HarfBuzz, it says so and draws one glyph\n"
    "per character through cmap with `kern` table pairs.\n"
    "FONT - reads the font from standard input.\n",
    "Exit status: 0 ok, 1 bad font or glyph data or an output that cannot be written, 2 bad\n"
    "usage (unknown axis, a bad size or feature, an existing output without "
    "--force).\n" CLI_FILES_NOTE,
    "FONT",
    1,
    1};

static int ends_with(const char *s, const char *suf)
{
  size_t a = strlen(s), b = strlen(suf);
  if (a < b) return 0;
  for (size_t i = 0; i < b; i++) {
    char c = s[a - b + i];
    if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
    if (c != suf[i]) return 0;
  }
  return 1;
}

/* What a render is asked for: the options, checked by otv_cmd_render. */
typedef struct render_req {
  const char *font, *text, *var, *named, *model, *out, *fg_s, *bg_s;
  shp_opts shape;
  unsigned index;
  double size, slant;
  int svg, kern, force;
} render_req;

/* Draw r->text into r->out (a PNG, or SVG when r->svg). */
static int render(const render_req *r)
{
  uint32_t fg, bg = 0xFFFFFF;
  int transparent = !strcmp(r->bg_s, "none");
  if (pic_parse_color(r->fg_s, &fg) || (!transparent && pic_parse_color(r->bg_s, &bg))) {
    cli_usage_error("render", "bad colour '%s' (expected RRGGBB)",
                    pic_parse_color(r->fg_s, &fg) ? r->fg_s : r->bg_s);
    return OTV_EXIT_USAGE;
  }

  int rc = OTV_EXIT_FONT;
  otv_face *face = NULL;
  otv_location *loc = NULL;
  otv_raster *ras = NULL;
  uint32_t *cps = NULL;
  size_t ncp = 0, nlines = 0;
  txt_line *lines = NULL;
  uint8_t *cov = NULL;
  shp_font *shaper = NULL;

  face = cli_open_face(r->font, r->index);
  if (!face) goto done;
  rc = shp_font_create("render", face, &r->shape, &shaper);
  if (rc != OTV_EXIT_OK) goto done;
  rc = cli_location_create("render", r->font, face, r->var, r->named, r->model, &loc);
  if (rc != OTV_EXIT_OK) goto done;
  rc = OTV_EXIT_FONT;
  if (cli_utf8_decode(r->text, &cps, &ncp)) {
    cli_usage_error("render", "--text is not valid UTF-8");
    rc = OTV_EXIT_USAGE;
    goto done;
  }
  /* lines */
  lines = calloc(ncp + 1, sizeof *lines);
  if (!lines) goto nomem;
  for (size_t s0 = 0, i = 0; i <= ncp; i++) {
    if (i < ncp && cps[i] != '\n') continue;
    size_t end = i > s0 && cps[i - 1] == '\r' ? i - 1 : i;
    if (shp_line(shaper, loc, &r->shape, cps + s0, end - s0, &lines[nlines])) goto nomem;
    nlines++;
    s0 = i + 1;
  }

  otv_face_info info;
  otv_face_get_info(face, &info);
  double scale = r->size / (info.units_per_em ? info.units_per_em : 1000);
  float asc, desc, gap;
  txt_vmetrics(loc, &asc, &desc, &gap);
  double line_h = ceil((asc - desc + gap) * scale);
  /* pass 1: ink bounds of every line (baselines at y = asc * scale + k * line_h), united with
   * the advance boxes */
  if (otv_raster_create(NULL, &ras)) goto nomem;
  double bx0 = 0, by0 = 0, bx1 = 1, by1 = 1;
  for (size_t k = 0; k < nlines; k++) {
    double base = ceil(asc * scale) + (double)k * line_h;
    bx1 = fmax(bx1, lines[k].width * scale);
    by1 = fmax(by1, base - desc * scale);
    otv_status st = txt_draw(loc, &lines[k], scale, 0, base, r->slant, ras, NULL);
    if (st) {
      otv_error de = cli_draw_error(loc, st);
      cli_error(r->font, &de);
      goto done;
    }
    otv_raster_box b;
    if (otv_raster_bounds(ras, &b)) {
      bx0 = fmin(bx0, b.x_min);
      by0 = fmin(by0, b.y_min);
      bx1 = fmax(bx1, b.x_max);
      by1 = fmax(by1, b.y_max);
    }
    otv_raster_reset(ras);
  }
  double margin = ceil(fmax(2, r->size * 0.125));
  double fw = ceil(bx1 - bx0 + 2 * margin), fh = ceil(by1 - by0 + 2 * margin);
  if (fw > 32767 || fh > 32767 || fw * fh > MAX_PIXELS) {
    cli_usage_error("render",
                    "the picture would be %.0fx%.0f pixels: use a smaller --size or "
                    "shorter text",
                    fw, fh);
    rc = OTV_EXIT_USAGE;
    goto done;
  }
  unsigned w = (unsigned)fw, h = (unsigned)fh;
  double ox = margin - bx0, oy = margin - by0;

  cli_out o;
  rc = cli_out_open("render", r->out, r->font, r->force, &o);
  if (rc) goto done;
  rc = OTV_EXIT_FONT; /* until the picture is written */
  int ok = 1;
  if (r->svg) {
    svg_pen sp;
    memset(&sp, 0, sizeof sp);
    sp.f = o.f;
    fprintf(o.f,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%u\" "
            "viewBox=\"0 0 %u %u\">\n",
            w, h, w, h);
    if (!transparent) fprintf(o.f, "<rect width=\"%u\" height=\"%u\" fill=\"#%06X\"/>\n", w, h, bg);
    for (size_t k = 0; k < nlines && ok; k++) {
      double base = ceil(asc * scale) + (double)k * line_h;
      fprintf(o.f, "<path fill=\"#%06X\" d=\"", fg);
      if (txt_draw(loc, &lines[k], scale, ox, oy + base, r->slant, NULL, &sp)) {
        cli_error(r->font, otv_location_last_error(loc));
        ok = 0;
      }
      fprintf(o.f, "\"/>\n");
    }
    fprintf(o.f, "</svg>\n");
  } else {
    cov = calloc((size_t)w * h, 1);
    if (!cov) {
      cli_out_close(&o, 0);
      goto nomem;
    }
    for (size_t k = 0; k < nlines && ok; k++) {
      double base = ceil(asc * scale) + (double)k * line_h;
      /* announce the target: the pen then accumulates coverage as it goes (direct mode) */
      otv_status st = otv_raster_begin(ras, w, h);
      if (!st) st = txt_draw(loc, &lines[k], scale, ox, oy + base, r->slant, ras, NULL);
      if (!st) st = otv_raster_render(ras, cov, w, h, w, 0);
      if (st) {
        otv_error de = cli_draw_error(loc, st);
        cli_error(r->font, &de);
        ok = 0;
      }
    }
    pic_layer layer = {cov, fg};
    if (ok && pic_write_png(o.f, w, h, bg, transparent, &layer, 1)) ok = 0;
  }
  if (cli_out_close(&o, ok) || !ok) goto done;
  rc = OTV_EXIT_OK;
  goto done;
nomem:
  fprintf(stderr, "otvar: render: out of memory\n");
  rc = OTV_EXIT_FONT;
done:
  for (size_t k = 0; k < nlines; k++) txt_line_free(&lines[k]);
  free(lines);
  free(cps);
  free(cov);
  otv_raster_destroy(ras);
  shp_font_destroy(shaper);
  otv_location_destroy(loc);
  cli_close_face(face);
  return rc;
}

int otv_cmd_render(int argc, char **argv)
{
  const char *text = NULL, *var = NULL, *named = NULL, *out = NULL, *index_arg = NULL;
  const char *fg_s = NULL, *bg_s = NULL, *size_arg = NULL, *slant_arg = NULL, *model = NULL;
  int no_kern = 0, force = 0;
  shp_opts so = {0};
  const cli_opt opts[] = {
      {"text", 0, CLI_OPT_VALUE, &text, "STR", "the text to draw"},
      CLI_OPT_VAR(&var, "TAG=VALUE,..."),
      CLI_OPT_NAMED(&named),
      CLI_OPT_NORMALIZE(&model),
      {"size", 0, CLI_OPT_VALUE, &size_arg, "PX", "pixels per em, 1..2000 (default 64)"},
      {NULL, 'o', CLI_OPT_VALUE, &out, "FILE",
       ".svg writes vector paths, anything else a PNG (default\n"
       "render.png); written to a temp file then renamed;\n"
       "--force replaces an existing file; - writes a PNG to\n"
       "standard output"},
      {"fg", 0, CLI_OPT_VALUE, &fg_s, "RRGGBB", "text colour (default 000000)"},
      {"bg", 0, CLI_OPT_VALUE, &bg_s, "RRGGBB",
       "background colour (default ffffff); none gives a\n"
       "transparent RGBA PNG. Gray colours give an 8-bit gray PNG."},
      {"slant", 0, CLI_OPT_VALUE, &slant_arg, "S", "synthetic oblique: x += S * y (e.g. 0.2)"},
      {"features", 0, CLI_OPT_LIST, &so.features, "LIST",
       "OpenType features as hb-view takes them: kern,-liga,\n"
       "ss01=1,aalt[3:5]=2 (comma-separated)"},
      {"direction", 0, CLI_OPT_VALUE, &so.direction, "DIR",
       "ltr or rtl: one run in that direction (default: the\n"
       "bidi algorithm's runs)"},
      {"script", 0, CLI_OPT_VALUE, &so.script, "ISO15924", "the script (default: from the text)"},
      {"language", 0, CLI_OPT_VALUE, &so.language, "BCP47", "the language (default: none)"},
      {"no-kern", 0, CLI_OPT_FLAG, &no_kern, NULL,
       "no kerning (-kern; the kern table without\nHarfBuzz)"},
      {"index", 0, CLI_OPT_VALUE, &index_arg, "N", "face N of a font collection (default 0)"},
      {"force", 0, CLI_OPT_FLAG, &force, NULL, "replace an existing output"},
      {"help", 'h', CLI_OPT_HELP, NULL, NULL, "this help"},
      CLI_OPT_END,
  };
  cli_args args;
  int rc;
  double size = 64, slant = 0;
  unsigned index = 0;
  if (!cli_parse(&render_cmd, opts, argc, argv, &args, &rc)) goto out;
  const char *font = args.pos[0];
  rc = OTV_EXIT_USAGE;
  if (size_arg && cli_parse_number("render", "--size", size_arg, &size)) goto out;
  if (slant_arg && cli_parse_number("render", "--slant", slant_arg, &slant)) goto out;
  otv_norm_model m;
  if (cli_parse_face_opts("render", index_arg, model, NULL, NULL, &index, &m)) goto out;
  if (!text) {
    cli_usage_see("render", "missing --text STR");
    goto out;
  }
  if (!*text) { /* as specimen does: an empty picture is never what was meant */
    cli_usage_error("render", "--text is empty: nothing to draw");
    goto out;
  }
  if (!(size >= 1 && size <= MAX_SIZE)) {
    cli_usage_error("render", "--size %g: must be between 1 and %g pixels per em", size, MAX_SIZE);
    goto out;
  }
  if (!(fabs(slant) <= 4)) {
    cli_usage_error("render", "--slant %g: must be between -4 and 4", slant);
    goto out;
  }
  if (so.direction && (!strncmp(so.direction, "ttb", 1) || !strncmp(so.direction, "btt", 1) ||
                       !strncmp(so.direction, "TTB", 1) || !strncmp(so.direction, "BTT", 1))) {
    cli_usage_error("render", "--direction %s: vertical text is not drawn (use ltr or rtl)",
                    so.direction);
    goto out;
  }
  so.no_kern = no_kern;
  if (!out) out = "render.png";
  int svg = ends_with(out, ".svg");
  if ((rc = cli_check_std("render", font, out, !svg))) goto out;
  render_req r = {
      font,  text, var,   named, model,    out,  fg_s ? fg_s : "000000", bg_s ? bg_s : "ffffff", so,
      index, size, slant, svg,   !no_kern, force};
  rc = render(&r);
out:
  cli_args_free(&args);
  return rc;
}

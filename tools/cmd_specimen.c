/*
 * cmd_specimen.c - `otvar specimen FONT`: one picture (PNG, or SVG) showing the design space: the
 * family name and axes, a row per named instance (labelled with its name and coordinates), the
 * samples of the other scripts the font covers, for each axis a sweep from its minimum to its
 * maximum (labelled with the values) and, with --grid, a 2-D grid of two axes, in a sample text of
 * the font's own script (fonts/samples.txt, shape.h), shaped by HarfBuzz. Labels are drawn with
 * the font itself when it has every character they need, else with the bundled
 * fonts/Karla-VF.ttf (or --label-font). --html DIR writes a web page instead (util_html.c).
 */
#include "cli.h"
#include "render.h"
#include "shape.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char otv_cmd_specimen_summary[] =
    "a picture or web page of the design space: instances, sweeps";

#define MAX_AXES 64
#define MAX_INSTANCES 40
#define MAX_PIXELS (64u << 20)

static const cli_cmd specimen_cmd = {
    "specimen",
    "otvar specimen FONT [-o OUT.png|OUT.svg] [--text SAMPLE] [--size PX] [--steps N]\n"
    "                     [--grid TAG,TAG] [--fg RRGGBB] [--bg RRGGBB|none]\n"
    "                     [--label-font FILE] [--index N] [--force]\n"
    "       otvar specimen FONT --html DIR [--woff2] [--text SAMPLE] [--force]\n"
    "       otvar specimen FONT --list-samples",
    "Draws one picture of the font's design space: a row per named instance (its name and\n"
    "coordinates above it), a line in each other script the font covers, then for each axis a\n"
    "sweep of N steps from the axis minimum to its maximum, the other axes at their defaults,\n"
    "each step labelled with its value, and with --grid a grid of two axes (N by N). The sample\n"
    "text is that of the font's own script (the script of fonts/samples.txt with the most mapped\n"
    "characters, among those whose sample the font maps whole; --list-samples prints them), or\n"
    "--text, else the first characters its cmap maps. Text is shaped by HarfBuzz at each\n"
    "location. -o NAME.svg writes the same page as SVG paths. Labels use the font itself when it\n"
    "has their characters, else the bundled Karla (--label-font, $OTVAR_LABEL_FONT,\n"
    "$OTVAR_DATA_DIR, share/otvar beside an installed otvar, or fonts/ of the source tree).\n"
    "--html DIR writes DIR/index.html and the font beside it (as WOFF2 with --woff2): a page\n"
    "with a slider per axis driving font-variation-settings, the named instances, a glyph grid\n"
    "and a waterfall, for a browser.\n"
    "FONT - reads the font from standard input.\n",
    "Exit status: 0 ok, 1 bad font, 2 bad usage.\n" CLI_FILES_NOTE,
    "FONT",
    1,
    1};

/* ---- the drawing context: one pass measures, the second draws ---- */

typedef struct font_ref {
  otv_face *face;
  otv_location *loc;
  int own; /* face/loc owned (label font opened separately) */
} font_ref;

typedef struct spec {
  font_ref main, label;
  int label_skip; /* label font lacks some label characters: skip them */
  otv_raster *ras;
  uint8_t *cov_text, *cov_label; /* canvas layers (draw pass) */
  unsigned w, h;
  double width; /* widest line so far (measure pass) */
  double y;     /* top of the next line */
  double margin;
  int draw;
  const char *path;
  int failed;
  otv_error err;    /* the first drawing error */
  shp_font *shaper; /* the main font's (NULL without HarfBuzz: cmap layout) */
  shp_opts so;
  FILE *svg;        /* draw pass writing SVG paths here instead of coverage layers */
  uint32_t fg, mid; /* text and label colours (SVG) */
} spec;

/* Labels in a colour between the background and the text colour. */
static uint32_t specimen_mid(uint32_t fg, uint32_t bg)
{
  uint32_t mid = 0;
  for (int sh = 0; sh <= 16; sh += 8) {
    unsigned f = fg >> sh & 255, b = bg >> sh & 255;
    mid |= (uint32_t)((f * 5 + b * 4) / 9) << sh;
  }
  return mid;
}

/* Draw (or measure) UTF-8 text with a font at its current location: top-left at (x, S->y) of
 * the line box, `px` pixels per em. is_label: 0 sample (text colour), 1 label (label colour),
 * 2 title (label font, text colour). Returns the advance width in pixels. */
static double put_text(spec *S, font_ref *fr, const char *text, double x, double px, int is_label)
{
  uint32_t *cps;
  size_t n;
  if (cli_utf8_decode(text, &cps, &n)) return 0;
  txt_line line;
  uint32_t missing;
  int skip = is_label ? S->label_skip : 1;
  int layer_label = is_label == 1; /* 2: a label font line drawn in the text colour (title) */
  /* the samples are shaped (HarfBuzz at the location); labels are Latin in the label font */
  int bad = is_label ? txt_layout(fr->loc, cps, n, 1, skip, &line, &missing)
                     : shp_line(S->shaper, fr->loc, &S->so, cps, n, &line);
  free(cps);
  if (bad) return 0;
  otv_face_info info;
  otv_face_get_info(fr->face, &info);
  double scale = px / (info.units_per_em ? info.units_per_em : 1000);
  float asc, desc, gap;
  txt_vmetrics(fr->loc, &asc, &desc, &gap);
  double wpx = line.width * scale;
  if (S->draw && S->svg) {
    svg_pen sp;
    memset(&sp, 0, sizeof sp);
    sp.f = S->svg;
    fprintf(S->svg, "<path fill=\"#%06X\" d=\"", layer_label ? S->mid : S->fg);
    otv_status st = txt_draw(fr->loc, &line, scale, x, S->y + asc * scale, 0, NULL, &sp);
    fprintf(S->svg, "\"/>\n");
    if (st) {
      if (!S->failed) S->err = cli_draw_error(fr->loc, st);
      S->failed = 1;
    }
  } else if (S->draw) {
    otv_status st = otv_raster_begin(S->ras, S->w, S->h);
    if (!st) st = txt_draw(fr->loc, &line, scale, x, S->y + asc * scale, 0, S->ras, NULL);
    if (!st)
      st = otv_raster_render(S->ras, layer_label ? S->cov_label : S->cov_text, S->w, S->h, S->w, 0);
    if (st) {
      otv_raster_reset(S->ras);
      /* the label and sample texts draw through different locations: keep the failing one's */
      if (!S->failed) S->err = cli_draw_error(fr->loc, st);
      S->failed = 1;
    }
  } else if (x + wpx > S->width) {
    S->width = x + wpx;
  }
  txt_line_free(&line);
  return wpx;
}

/* Height of a line of `px` pixels per em in a font (ascender - descender, times 1.2). */
static double line_height(font_ref *fr, double px)
{
  otv_face_info info;
  otv_face_get_info(fr->face, &info);
  float asc, desc, gap;
  txt_vmetrics(fr->loc, &asc, &desc, &gap);
  return ceil((asc - desc) * px / (info.units_per_em ? info.units_per_em : 1000) * 1.15);
}

static void fmt_num(char *buf, size_t cap, double v)
{
  snprintf(buf, cap, "%.5g", fabs(v) < 1e-9 ? 0.0 : v);
}

typedef struct layout_in {
  const char *sample, *short_sample;
  double size;
  int steps;
  shp_sample scripts[16]; /* the scripts the font covers, its own first */
  unsigned script_count;
  int grid[2]; /* axis indices of --grid, or -1 */
  otv_axis axes[MAX_AXES];
  unsigned axis_count;
  unsigned inst_count;
  char family[128];
} layout_in;

/* The value of step k of n along an axis, minimum to maximum. */
static double step_value(const otv_axis *ax, int k, int n)
{
  return ax->min_value + (ax->max_value - ax->min_value) * k / (n - 1);
}

/* --grid A,B: the short sample at steps x steps locations, A along a row, B down the rows, the
 * other axes at their defaults; values of A above the columns, of B left of the rows. */
static void run_grid(spec *S, layout_in *L, double lab)
{
  const otv_axis *a = &L->axes[L->grid[0]], *b = &L->axes[L->grid[1]];
  char ta[5], tb[5], buf[160], val[32];
  otv_tag_to_string(a->tag, ta);
  otv_tag_to_string(b->tag, tb);
  double m = S->margin;
  S->y += lab * 0.5;
  snprintf(buf, sizeof buf, "%s across, %s down", ta, tb);
  put_text(S, &S->label, buf, m, lab, 1);
  S->y += line_height(&S->label, lab);
  /* cell: the widest cell of the grid (measured without drawing) */
  double cell = 0, save_w = S->width, head = lab * 4;
  int save = S->draw;
  S->draw = 0;
  for (int i = 0; i < L->steps; i++)
    for (int j = 0; j < L->steps; j++) {
      otv_axis_value av[2] = {{a->tag, step_value(a, i, L->steps)},
                              {b->tag, step_value(b, j, L->steps)}};
      otv_location_set_user(S->main.loc, av, 2);
      cell = fmax(cell, put_text(S, &S->main, L->short_sample, 0, L->size, 0));
    }
  S->width = save_w;
  S->draw = save;
  cell += L->size * 0.4;
  for (int i = 0; i < L->steps; i++) {
    fmt_num(val, sizeof val, step_value(a, i, L->steps));
    put_text(S, &S->label, val, m + head + i * cell, lab * 0.9, 1);
  }
  S->y += line_height(&S->label, lab);
  for (int j = 0; j < L->steps; j++) {
    double row_y = S->y;
    fmt_num(val, sizeof val, step_value(b, j, L->steps));
    S->y = row_y + line_height(&S->main, L->size) * 0.3;
    put_text(S, &S->label, val, m, lab * 0.9, 1);
    for (int i = 0; i < L->steps; i++) {
      otv_axis_value av[2] = {{a->tag, step_value(a, i, L->steps)},
                              {b->tag, step_value(b, j, L->steps)}};
      otv_location_set_user(S->main.loc, av, 2);
      S->y = row_y;
      put_text(S, &S->main, L->short_sample, m + head + i * cell, L->size, 0);
    }
    S->y = row_y + line_height(&S->main, L->size);
  }
  if (!S->draw && m + head + L->steps * cell > S->width) S->width = m + head + L->steps * cell;
  otv_location_reset(S->main.loc);
}

static void run_pass(spec *S, layout_in *L)
{
  double m = S->margin, lab = fmax(11, round(L->size * 0.3));
  S->y = m;
  char buf[512];
  /* title */
  put_text(S, &S->label, L->family, m, lab * 1.8, 2);
  S->y += line_height(&S->label, lab * 1.8);
  /* the axes, four to a line */
  size_t o = 0;
  buf[0] = 0;
  for (unsigned a = 0; a < L->axis_count; a++) {
    char tag[5], v0[32], v1[32], vd[32];
    otv_tag_to_string(L->axes[a].tag, tag);
    fmt_num(v0, sizeof v0, L->axes[a].min_value);
    fmt_num(v1, sizeof v1, L->axes[a].max_value);
    fmt_num(vd, sizeof vd, L->axes[a].default_value);
    o += (size_t)snprintf(buf + o, sizeof buf - o, "%s%s %s..%s (default %s)", a % 4 ? ", " : "",
                          tag, v0, v1, vd);
    if (a % 4 == 3 || a + 1 == L->axis_count || o > sizeof buf - 80) {
      put_text(S, &S->label, buf, m, lab, 1);
      S->y += line_height(&S->label, lab);
      o = 0;
      buf[0] = 0;
    }
  }
  if (L->axis_count == 0) {
    /* a static font is one point of a design space: show it */
    put_text(S, &S->label, "not a variable font: no fvar axes; its one instance", m, lab, 1);
    S->y += line_height(&S->label, lab);
    put_text(S, &S->main, L->sample, m, L->size, 0);
    S->y += line_height(&S->main, L->size);
  }
  S->y += line_height(&S->label, lab) * 0.6;

  /* named instances */
  unsigned shown = L->inst_count < MAX_INSTANCES ? L->inst_count : MAX_INSTANCES;
  for (unsigned i = 0; i < shown; i++) {
    otv_named_instance ni;
    unsigned one = 1;
    otv_face_named_instances(S->main.face, i, &one, &ni);
    char name[128] = "";
    if (!one || otv_face_name(S->main.face, ni.subfamily_name_id, name, sizeof name, NULL, NULL))
      snprintf(name, sizeof name, "instance %u", i);
    double coords[MAX_AXES];
    otv_face_named_instance_coords(S->main.face, i, coords, MAX_AXES, NULL);
    /* every coordinate for up to 4 axes, else those that differ from the default */
    o = (size_t)snprintf(buf, sizeof buf, "%s ", name);
    int any = 0;
    for (unsigned a = 0; a < L->axis_count && o < sizeof buf - 48; a++) {
      if (L->axis_count > 4 && coords[a] == L->axes[a].default_value) continue;
      char tag[5], v[32];
      otv_tag_to_string(L->axes[a].tag, tag);
      fmt_num(v, sizeof v, coords[a]);
      o += (size_t)snprintf(buf + o, sizeof buf - o, " %s=%s", tag, v);
      any = 1;
    }
    if (!any) snprintf(buf + o, sizeof buf - o, " (default location)");
    put_text(S, &S->label, buf, m, lab, 1);
    S->y += line_height(&S->label, lab);
    otv_location_set_named(S->main.loc, i);
    put_text(S, &S->main, L->sample, m, L->size, 0);
    S->y += line_height(&S->main, L->size) + lab * 0.5;
  }
  if (L->inst_count > shown) {
    snprintf(buf, sizeof buf, "... and %u more named instances", L->inst_count - shown);
    put_text(S, &S->label, buf, m, lab, 1);
    S->y += line_height(&S->label, lab);
  }
  otv_location_reset(S->main.loc);

  /* the other scripts the font covers, at the default location */
  for (unsigned k = 1; k < L->script_count; k++) {
    snprintf(buf, sizeof buf, "%s (%s)", L->scripts[k].name, L->scripts[k].script);
    put_text(S, &S->label, buf, m, lab, 1);
    S->y += line_height(&S->label, lab);
    put_text(S, &S->main, L->scripts[k].text, m, L->size * 0.75, 0);
    S->y += line_height(&S->main, L->size * 0.75) + lab * 0.5;
  }

  /* axis sweeps: cell width = the widest short sample over the sweep */
  for (unsigned a = 0; a < L->axis_count; a++) {
    const otv_axis *ax = &L->axes[a];
    if (ax->flags & OTV_AXIS_FLAG_HIDDEN) continue;
    char tag[5], v0[32], v1[32], axname[96] = "";
    otv_tag_to_string(ax->tag, tag);
    fmt_num(v0, sizeof v0, ax->min_value);
    fmt_num(v1, sizeof v1, ax->max_value);
    otv_face_name(S->main.face, ax->name_id, axname, sizeof axname, NULL, NULL);
    snprintf(buf, sizeof buf, "%s%s%s%s  %s .. %s", tag, *axname ? " (" : "", axname,
             *axname ? ")" : "", v0, v1);
    S->y += lab * 0.5;
    put_text(S, &S->label, buf, m, lab, 1);
    S->y += line_height(&S->label, lab);
    double cell = 0;
    int save = S->draw;
    S->draw = 0;
    double save_w = S->width;
    for (int k = 0; k < L->steps; k++) {
      double v = ax->min_value + (ax->max_value - ax->min_value) * k / (L->steps - 1);
      otv_axis_value av = {ax->tag, v};
      otv_location_set_user(S->main.loc, &av, 1);
      cell = fmax(cell, put_text(S, &S->main, L->short_sample, 0, L->size, 0));
    }
    S->width = save_w;
    S->draw = save;
    cell += L->size * 0.4;
    double row_y = S->y;
    for (int k = 0; k < L->steps; k++) {
      double v = ax->min_value + (ax->max_value - ax->min_value) * k / (L->steps - 1);
      otv_axis_value av = {ax->tag, v};
      otv_location_set_user(S->main.loc, &av, 1);
      S->y = row_y;
      put_text(S, &S->main, L->short_sample, m + k * cell, L->size, 0);
      S->y = row_y + line_height(&S->main, L->size);
      char val[32];
      fmt_num(val, sizeof val, v);
      put_text(S, &S->label, val, m + k * cell, lab * 0.9, 1);
    }
    if (!S->draw && m + L->steps * cell > S->width) S->width = m + L->steps * cell;
    S->y = row_y + line_height(&S->main, L->size) + line_height(&S->label, lab) + lab * 0.5;
    otv_location_reset(S->main.loc);
  }
  if (L->grid[0] >= 0) run_grid(S, L, lab);
  S->y += m;
}

/* The bundled label font: $OTVAR_LABEL_FONT, else Karla-VF.ttf where cli_data_file finds it. */
static int open_label_font(const char *path, font_ref *fr)
{
  char buf[4096];
  if (!path) path = getenv("OTVAR_LABEL_FONT");
  if (!path) path = cli_data_file("Karla-VF.ttf", buf, sizeof buf);
  if (!path) return -1;
  if (otv_face_open_file(path, 0, NULL, &fr->face, NULL)) return -1;
  if (otv_location_create(fr->face, &fr->loc, NULL)) {
    otv_face_close(fr->face);
    fr->face = NULL;
    return -1;
  }
  fr->own = 1;
  return 0;
}

/* A sample the font covers: a candidate, else its first mapped letters/digits. */
static void pick_sample(const otv_face *face, char *out, size_t cap, char *shrt, size_t scap)
{
  static const char *cands[] = {"Hamburgefonstiv", "The quick brown fox", "Handgloves",
                                "ABCDEFGHIJK",     "abcdefghijk",         "0123456789"};
  static const char *shorts[] = {"Ag", "Aa", "ag", "AB", "ab", "12"};
  for (size_t i = 0; i < sizeof cands / sizeof cands[0]; i++)
    if (txt_covers(face, cands[i])) {
      snprintf(out, cap, "%s", cands[i]);
      for (size_t k = 0; k < sizeof shorts / sizeof shorts[0]; k++)
        if (txt_covers(face, shorts[k])) {
          snprintf(shrt, scap, "%s", shorts[k]);
          return;
        }
      snprintf(shrt, scap, "%.2s", cands[i]);
      return;
    }
  /* first mapped code points (skipping controls and spaces), as UTF-8 */
  size_t o = 0;
  int count = 0;
  for (uint32_t cp = 0x21; cp < 0x30000 && count < 12 && o + 5 < cap; cp++) {
    if (cp >= 0xD800 && cp < 0xE000) continue;
    if (!otv_face_glyph_for_char(face, cp, 0)) continue;
    if (cp < 0x80)
      out[o++] = (char)cp;
    else if (cp < 0x800) {
      out[o++] = (char)(0xC0 | cp >> 6);
      out[o++] = (char)(0x80 | (cp & 63));
    } else if (cp < 0x10000) {
      out[o++] = (char)(0xE0 | cp >> 12);
      out[o++] = (char)(0x80 | (cp >> 6 & 63));
      out[o++] = (char)(0x80 | (cp & 63));
    } else {
      out[o++] = (char)(0xF0 | cp >> 18);
      out[o++] = (char)(0x80 | (cp >> 12 & 63));
      out[o++] = (char)(0x80 | (cp >> 6 & 63));
      out[o++] = (char)(0x80 | (cp & 63));
    }
    if (count == 1) {
      memcpy(shrt, out, o < scap ? o : scap - 1);
      shrt[o < scap ? o : scap - 1] = 0;
    }
    count++;
  }
  out[o] = 0;
  if (count == 1) {
    size_t k = o < scap ? o : scap - 1;
    memcpy(shrt, out, k);
    shrt[k] = 0;
  }
}

int otv_cmd_specimen(int argc, char **argv)
{
  const char *out = NULL, *text = NULL, *label_path = NULL, *fg_s = NULL, *bg_s = NULL;
  const char *size_arg = NULL, *steps_arg = NULL, *index_arg = NULL, *grid = NULL;
  const char *html = NULL;
  int force = 0, list = 0, woff2 = 0;
  const cli_opt opts[] = {
      {NULL, 'o', CLI_OPT_VALUE, &out, "FILE",
       "output PNG, or SVG when FILE ends in .svg (default\n"
       "specimen.png; temp file + rename; --force replaces;\n"
       "- is a PNG on standard output)"},
      {"text", 0, CLI_OPT_VALUE, &text, "SAMPLE", "the sample text"},
      {"size", 0, CLI_OPT_VALUE, &size_arg, "PX",
       "sample size in pixels per em, 8..400 (default 40)"},
      {"steps", 0, CLI_OPT_VALUE, &steps_arg, "N",
       "steps per axis sweep and grid side, 2..15 (default 7)"},
      {"grid", 0, CLI_OPT_VALUE, &grid, "TAG,TAG",
       "a grid of two axes: the first across, the second down"},
      {"html", 0, CLI_OPT_VALUE, &html, "DIR",
       "write DIR/index.html and the font beside it: a page with\n"
       "a slider per axis, the named instances, a glyph grid and\n"
       "a waterfall (DIR is created; --force replaces its files)"},
      {"woff2", 0, CLI_OPT_FLAG, &woff2, NULL, "--html: the font beside the page as WOFF2"},
      {"list-samples", 0, CLI_OPT_FLAG, &list, NULL,
       "print the scripts the font covers and their samples\n"
       "(the font's own first: SCRIPT<TAB>NAME<TAB>SAMPLE), no picture"},
      {"fg", 0, CLI_OPT_VALUE, &fg_s, "RRGGBB", "text colour (default 000000)"},
      {"bg", 0, CLI_OPT_VALUE, &bg_s, "RRGGBB",
       "background colour (default ffffff; none: transparent)"},
      {"label-font", 0, CLI_OPT_VALUE, &label_path, "FILE", "the font of the labels"},
      {"index", 0, CLI_OPT_VALUE, &index_arg, "N", "face N of a font collection (default 0)"},
      {"force", 0, CLI_OPT_FLAG, &force, NULL, "replace an existing output"},
      {"help", 'h', CLI_OPT_HELP, NULL, NULL, "this help"},
      CLI_OPT_END,
  };
  int rc;
  const char *font = cli_parse_one(&specimen_cmd, opts, argc, argv, &rc);
  if (!font) return rc;
  double size = 40, steps_d = 7;
  unsigned index = 0;
  if ((size_arg && cli_parse_number("specimen", "--size", size_arg, &size)) ||
      (steps_arg && cli_parse_number("specimen", "--steps", steps_arg, &steps_d)) ||
      (index_arg && cli_parse_index("specimen", index_arg, &index)))
    return OTV_EXIT_USAGE;
  if (out && html) {
    cli_usage_error("specimen", "-o and --html are exclusive (the page is DIR/index.html)");
    return OTV_EXIT_USAGE;
  }
  if (woff2 && !html) {
    cli_usage_error("specimen", "--woff2 goes with --html DIR");
    return OTV_EXIT_USAGE;
  }
  if (!out) out = "specimen.png";
  int svg = 0;
  {
    size_t ol = strlen(out);
    svg = ol >= 4 && (!strcmp(out + ol - 4, ".svg") || !strcmp(out + ol - 4, ".SVG"));
  }
  if (!fg_s) fg_s = "000000";
  if (!bg_s) bg_s = "ffffff";
  if (!(size >= 8 && size <= 400)) {
    cli_usage_error("specimen", "--size %g: must be between 8 and 400 pixels per em", size);
    return OTV_EXIT_USAGE;
  }
  if (!(steps_d >= 2 && steps_d <= 15) || steps_d != floor(steps_d)) {
    cli_usage_error("specimen", "--steps %g: must be a whole number from 2 to 15", steps_d);
    return OTV_EXIT_USAGE;
  }
  uint32_t fg, bg = 0xFFFFFF;
  int transparent = !strcmp(bg_s, "none");
  if (pic_parse_color(fg_s, &fg) || (!transparent && pic_parse_color(bg_s, &bg))) {
    cli_usage_error("specimen", "bad colour (expected RRGGBB)");
    return OTV_EXIT_USAGE;
  }
  if ((rc = cli_check_std("specimen", font, html || list ? NULL : out, !svg))) return rc;

  rc = OTV_EXIT_FONT;
  spec S;
  memset(&S, 0, sizeof S);
  S.fg = fg;
  S.mid = specimen_mid(fg, transparent ? 0xFFFFFF : bg);
  layout_in *L = calloc(1, sizeof *L);
  if (!L) return OTV_EXIT_FONT;
  L->size = size;
  L->steps = (int)steps_d;
  L->grid[0] = L->grid[1] = -1;
  char sample[256], shrt[64];

  S.main.face = cli_open_face(font, index);
  if (!S.main.face) goto done;
  otv_error e = {0};
  if (otv_location_create(S.main.face, &S.main.loc, &e)) {
    cli_error(font, &e);
    goto done;
  }
  otv_face_info info;
  otv_face_get_info(S.main.face, &info);
  if (info.flavour == OTV_FLAVOUR_NONE) {
    fprintf(stderr, "otvar: %s: the font has no outlines to draw\n", cli_name(font));
    goto done;
  }
  L->axis_count = info.axis_count < MAX_AXES ? info.axis_count : MAX_AXES;
  unsigned cnt = L->axis_count;
  otv_face_axes(S.main.face, 0, &cnt, L->axes);
  L->axis_count = cnt;
  L->inst_count = info.instance_count;
  if (otv_face_name(S.main.face, 16, L->family, sizeof L->family, NULL, NULL) &&
      otv_face_name(S.main.face, 1, L->family, sizeof L->family, NULL, NULL))
    snprintf(L->family, sizeof L->family, "%s", cli_name(font));
  if (grid) {
    char ta[8] = "", tb[8] = "";
    const char *comma = strchr(grid, ',');
    size_t la = comma ? (size_t)(comma - grid) : 0;
    if (comma && la > 0 && la <= 4 && strlen(comma + 1) > 0 && strlen(comma + 1) <= 4) {
      memcpy(ta, grid, la);
      snprintf(tb, sizeof tb, "%s", comma + 1);
    }
    uint32_t tags[2];
    for (int k = 0; k < 2; k++) {
      char padded[5] = "    ";
      const char *t = k ? tb : ta;
      memcpy(padded, t, strlen(t));
      tags[k] = *t ? OTV_TAG(padded[0], padded[1], padded[2], padded[3]) : 0;
      for (unsigned a = 0; a < L->axis_count && tags[k]; a++)
        if (L->axes[a].tag == tags[k]) L->grid[k] = (int)a;
    }
    if (L->grid[0] < 0 || L->grid[1] < 0 || L->grid[0] == L->grid[1]) {
      cli_usage_error("specimen",
                      "--grid %s: expected two different axes of the font (e.g. "
                      "--grid wght,wdth)",
                      grid);
      rc = OTV_EXIT_USAGE;
      goto done;
    }
  }
  L->script_count = shp_font_samples(S.main.face, L->scripts, 16);
  if (list) {
    for (unsigned k = 0; k < L->script_count; k++)
      printf("%s\t%s\t%s\n", L->scripts[k].script, L->scripts[k].name, L->scripts[k].text);
    rc = OTV_EXIT_OK;
    goto done;
  }

  if (text) {
    uint32_t *cps;
    size_t n;
    if (cli_utf8_decode(text, &cps, &n) || n == 0) {
      cli_usage_error("specimen", "--text must be non-empty UTF-8");
      rc = OTV_EXIT_USAGE;
      goto done;
    }
    free(cps);
    if (!txt_covers(S.main.face, text)) {
      cli_usage_error("specimen", "%s lacks glyphs for some characters of --text", cli_name(font));
      rc = OTV_EXIT_USAGE;
      goto done;
    }
    snprintf(sample, sizeof sample, "%s", text);
    snprintf(shrt, sizeof shrt, "%s", text);
    if (strlen(text) > 4) {
      /* the sweep cells use the first two characters */
      const unsigned char *p = (const unsigned char *)text;
      size_t k = 0;
      for (int c = 0; c < 2 && p[k]; c++) do
          k++;
        while ((p[k] & 0xC0) == 0x80);
      snprintf(shrt, sizeof shrt, "%.*s", (int)k, text);
    }
  } else if (L->script_count) {
    snprintf(sample, sizeof sample, "%s", L->scripts[0].text);
    snprintf(shrt, sizeof shrt, "%s", L->scripts[0].short_text);
  } else {
    pick_sample(S.main.face, sample, sizeof sample, shrt, sizeof shrt);
    if (!*sample) {
      fprintf(stderr, "otvar: %s: cmap maps no characters: nothing to draw\n", cli_name(font));
      goto done;
    }
  }
  L->sample = sample;
  L->short_sample = shrt;
  if (html) {
    rc = spec_html("specimen", font, S.main.face, html, woff2, force, L->sample, L->scripts,
                   L->script_count);
    goto done;
  }
  rc = shp_font_create("specimen", S.main.face, &S.so, &S.shaper);
  if (rc != OTV_EXIT_OK) goto done;
  rc = OTV_EXIT_FONT;

  /* label font: the font itself when it covers what labels need */
  if (txt_covers(S.main.face,
                 "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789=.-()")) {
    S.label = S.main;
    S.label.own = 0;
    /* its own location: the main one moves through instances */
    if (otv_location_create(S.main.face, &S.label.loc, NULL)) goto done;
    S.label.own = 2;
  } else if (open_label_font(label_path, &S.label) == 0) {
    S.label_skip = 1;
  } else {
    fprintf(stderr, "otvar: specimen: note: no label font (fonts/Karla-VF.ttf not found; "
                    "set OTVAR_LABEL_FONT or --label-font): labels use the font itself\n");
    S.label = S.main;
    if (otv_location_create(S.main.face, &S.label.loc, NULL)) goto done;
    S.label.own = 2;
    S.label_skip = 1;
  }
  S.label_skip = 1; /* instance names may hold characters a label font lacks: skip those */
  if (otv_raster_create(NULL, &S.ras)) goto done;

  /* pass 1: measure */
  S.margin = ceil(size * 0.6);
  run_pass(&S, L);
  double fw = ceil(S.width + S.margin), fh = ceil(S.y);
  if (fw > 32767 || fh > 32767 || fw * fh > MAX_PIXELS) {
    cli_usage_error("specimen", "the picture would be %.0fx%.0f pixels: use a smaller --size", fw,
                    fh);
    rc = OTV_EXIT_USAGE;
    goto done;
  }
  S.w = (unsigned)fw;
  S.h = (unsigned)fh;
  cli_out o;
  int ok = 1;
  if (svg) {
    /* pass 2 writes the paths straight into the output */
    rc = cli_out_open("specimen", out, font, force, &o);
    if (rc) goto done;
    rc = OTV_EXIT_FONT; /* until the picture is written */
    S.svg = o.f;
    fprintf(o.f,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%u\" "
            "viewBox=\"0 0 %u %u\">\n",
            S.w, S.h, S.w, S.h);
    if (!transparent)
      fprintf(o.f, "<rect width=\"%u\" height=\"%u\" fill=\"#%06X\"/>\n", S.w, S.h, bg);
    S.draw = 1;
    run_pass(&S, L);
    fprintf(o.f, "</svg>\n");
    if (S.failed) {
      cli_error(font, &S.err);
      ok = 0;
    }
    if (cli_out_close(&o, ok) || !ok) goto done;
    rc = OTV_EXIT_OK;
    goto done;
  }
  S.cov_text = calloc((size_t)S.w * S.h, 1);
  S.cov_label = calloc((size_t)S.w * S.h, 1);
  if (!S.cov_text || !S.cov_label) {
    fprintf(stderr, "otvar: specimen: out of memory\n");
    goto done;
  }
  /* pass 2: draw */
  S.draw = 1;
  run_pass(&S, L);
  if (S.failed) {
    cli_error(font, &S.err);
    goto done;
  }
  rc = cli_out_open("specimen", out, font, force, &o);
  if (rc) goto done;
  rc = OTV_EXIT_FONT; /* until the picture is written */
  pic_layer layers[2] = {{S.cov_label, S.mid}, {S.cov_text, fg}};
  ok = pic_write_png(o.f, S.w, S.h, bg, transparent, layers, 2) == 0;
  if (cli_out_close(&o, ok) || !ok) goto done;
  rc = OTV_EXIT_OK;
done:
  shp_font_destroy(S.shaper);
  otv_raster_destroy(S.ras);
  free(S.cov_text);
  free(S.cov_label);
  if (S.label.own) otv_location_destroy(S.label.loc);
  if (S.label.own == 1) otv_face_close(S.label.face);
  otv_location_destroy(S.main.loc);
  cli_close_face(S.main.face);
  free(L);
  return rc;
}

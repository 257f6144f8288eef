/*
 * cmd_outline.c - `otvar outline FONT`: glyph outlines at a location, as SVG path data (one line
 * per glyph: GID ADVANCE PATH) or as a standalone SVG.
 */
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char otv_cmd_outline_summary[] = "glyph outlines at a location (SVG path data or SVG)";

static const cli_cmd outline_cmd = {
    "outline",
    "otvar outline FONT [--var TAG=VALUE,...] [--named N|NAME] [--glyphs all|GID,GID-GID,...]\n"
    "                          [--text STR] [--format svgpath|svg] [--round] [-o FILE] [--force]\n"
    "                          [--index N]",
    "Prints the outline of each requested glyph at the location (default: the default location;\n"
    "--var sets user coordinates, tags shorter than 4 characters are padded with spaces; --named\n"
    "picks a named instance). Glyphs come from --glyphs (default: all) or from --text, mapped\n"
    "through cmap (variation selectors honoured), in request order.\n"
    "\n"
    "--format svgpath (default): one line per glyph, `GID ADVANCE PATH`. ADVANCE is the\n"
    "horizontal advance at the location (HVAR, else the gvar phantom points). PATH is SVG path\n"
    "data in font units, y up, with absolute M/L/Q/C/Z commands; numbers have at most 3 decimals\n"
    "and no trailing zeros. Contours: one M each, implied on-curve points explicit, a contour\n"
    "starting off-curve starts at its last point if on-curve, else at the midpoint of its last\n"
    "and first; composites are flattened. An empty glyph prints `GID ADVANCE` alone.\n"
    "--format svg: a standalone SVG showing the glyphs side by side (y flipped for display).\n"
    "FONT - reads the font from standard input.\n",
    "Exit status: 0 ok, 1 bad font or glyph data or a failed write, 2 bad usage.\n" CLI_FILES_NOTE,
    "FONT",
    1,
    1};

/* ---- number and path formatting ---- */

typedef struct outbuf {
  char *p;
  size_t n, cap;
} outbuf;

static void ob_putc(outbuf *b, char c)
{
  if (b->n + 1 >= b->cap) {
    b->cap = b->cap ? 2 * b->cap : 256;
    b->p = realloc(b->p, b->cap);
    if (!b->p) abort();
  }
  b->p[b->n++] = c;
  b->p[b->n] = 0;
}

static void ob_puts(outbuf *b, const char *s)
{
  while (*s) ob_putc(b, *s++);
}

/* At most 3 decimals, no trailing zeros, no "-0". */
static void fmt_num(char *buf, size_t cap, double v)
{
  double r = round(v * 1000.0) / 1000.0;
  if (r == 0) r = 0; /* -0 -> 0 */
  snprintf(buf, cap, "%.3f", r);
  char *dot = strchr(buf, '.');
  if (dot) {
    char *e = buf + strlen(buf) - 1;
    while (e > dot && *e == '0') *e-- = 0;
    if (e == dot) *e = 0;
  }
  if (!strcmp(buf, "-0")) strcpy(buf, "0");
}

static void ob_num(outbuf *b, double v)
{
  char t[64];
  fmt_num(t, sizeof t, v);
  ob_puts(b, t);
}

static void ob_cmd(outbuf *b, char c, const float *v, int n)
{
  if (b->n) ob_putc(b, ' ');
  ob_putc(b, c);
  for (int i = 0; i < n; i++) {
    if (i) ob_putc(b, ' ');
    ob_num(b, v[i]);
  }
}

static void p_move(void *ctx, float x, float y)
{
  float v[2] = {x, y};
  ob_cmd(ctx, 'M', v, 2);
}
static void p_line(void *ctx, float x, float y)
{
  float v[2] = {x, y};
  ob_cmd(ctx, 'L', v, 2);
}
static void p_quad(void *ctx, float cx, float cy, float x, float y)
{
  float v[4] = {cx, cy, x, y};
  ob_cmd(ctx, 'Q', v, 4);
}
static void p_cubic(void *ctx, float ax, float ay, float bx, float by, float x, float y)
{
  float v[6] = {ax, ay, bx, by, x, y};
  ob_cmd(ctx, 'C', v, 6);
}
static void p_close(void *ctx) { ob_cmd(ctx, 'Z', NULL, 0); }

static const otv_pen path_pen = {p_move, p_line, p_quad, p_cubic, p_close};

/* Horizontal advance: otv_glyph_h_metrics, else the TrueType phantom points. */
static int advance_of(otv_location *loc, uint32_t gid, unsigned flags, double *out)
{
  otv_glyph_metrics m;
  if (!otv_glyph_h_metrics(loc, gid, flags & OTV_OUTLINE_ROUND ? OTV_METRICS_ROUND : 0, &m)) {
    *out = m.advance;
    return 0;
  }
  otv_glyph_points gp;
  memset(&gp, 0, sizeof gp);
  otv_status s = otv_glyph_points_get(loc, gid, flags, &gp);
  if (s != OTV_E_SMALL_BUFFER && s != OTV_E_OK) return -1;
  unsigned n = gp.point_count + 4;
  gp.points = malloc(n * sizeof *gp.points);
  gp.contour_ends = malloc((gp.contour_count ? gp.contour_count : 1) * sizeof *gp.contour_ends);
  gp.point_cap = n;
  gp.contour_cap = gp.contour_count;
  s = otv_glyph_points_get(loc, gid, flags, &gp);
  otv_face_info info;
  otv_face_get_info(otv_location_face(loc), &info);
  if (!s && info.flavour == OTV_FLAVOUR_GLYF)
    *out = gp.points[gp.point_count + 1].x - gp.points[gp.point_count].x;
  else
    *out = 0;
  free(gp.points);
  free(gp.contour_ends);
  return s ? -1 : 0;
}

/* What an outline run is asked for: the options, checked by otv_cmd_outline. */
typedef struct outline_req {
  const char *path, *var, *named, *glyphs, *text, *outpath, *model;
  unsigned index, flags;
  int svg, force;
} outline_req;

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

/* The outlines of the glyphs at the location, to standard output or r->outpath. */
static int outline(const outline_req *r)
{
  otv_face *face = cli_open_face(r->path, r->index);
  if (!face) return OTV_EXIT_FONT;
  int rc = OTV_EXIT_OK;
  otv_location *loc = NULL;
  uint32_t *gids = NULL;
  size_t ngids = 0;
  outbuf b = {0};
  cli_out out = {0};
  FILE *f = stdout;
  otv_face_info info;
  otv_face_get_info(face, &info);
  rc = cli_location_create("outline", r->path, face, r->var, r->named, r->model, &loc);
  if (rc != OTV_EXIT_OK) goto done;
  if (r->text) {
    uint32_t *cps = NULL;
    size_t ncp = 0;
    if (cli_utf8_decode(r->text, &cps, &ncp) < 0) {
      cli_usage_error("outline", "--text is not valid UTF-8");
      rc = OTV_EXIT_USAGE;
      goto done;
    }
    gids = malloc((ncp ? ncp : 1) * sizeof *gids);
    for (size_t i = 0; i < ncp; i++) {
      uint32_t cp = cps[i], vs = 0;
      /* a following variation selector (U+FE00..FE0F, U+E0100..E01EF) selects a format 14 glyph */
      if (i + 1 < ncp && ((cps[i + 1] >= 0xFE00 && cps[i + 1] <= 0xFE0F) ||
                          (cps[i + 1] >= 0xE0100 && cps[i + 1] <= 0xE01EF)))
        vs = cps[++i];
      gids[ngids++] = otv_face_glyph_for_char(face, cp, vs);
    }
    free(cps);
  } else if (cli_parse_glyphs("outline", r->glyphs ? r->glyphs : "all", info.glyph_count, &gids,
                              &ngids) < 0) {
    rc = OTV_EXIT_USAGE;
    goto done;
  }
  arm_budget(loc, face, info.glyph_count, ngids);
  if (r->outpath) {
    rc = cli_out_open("outline", r->outpath, r->path, r->force, &out);
    if (rc) goto done;
    f = out.f;
  }
  double pen_x = 0, upem = info.units_per_em;
  if (r->svg) {
    double total = 0;
    for (size_t i = 0; i < ngids; i++) {
      double adv = 0;
      advance_of(loc, gids[i], r->flags, &adv);
      total += adv > 0 ? adv : upem / 2;
    }
    char w[64], h[64], y0[64];
    fmt_num(w, sizeof w, total > 0 ? total : upem);
    fmt_num(h, sizeof h, upem * 1.5);
    fmt_num(y0, sizeof y0, -upem * 1.2);
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 %s %s %s\">\n", y0, w, h);
  }
  for (size_t i = 0; i < ngids && rc == OTV_EXIT_OK; i++) {
    uint32_t g = gids[i];
    b.n = 0;
    if (b.p) b.p[0] = 0;
    otv_status s = otv_glyph_outline(loc, g, r->flags, &path_pen, &b);
    double adv = 0;
    if (!s && advance_of(loc, g, r->flags, &adv)) s = otv_location_last_error(loc)->code;
    if (s) {
      const otv_error *e = otv_location_last_error(loc);
      char where[4200];
      snprintf(where, sizeof where, "%s: glyph %u", cli_name(r->path), g);
      if (e->code)
        cli_error(where, e);
      else
        fprintf(stderr, "otvar: %s: %s\n", cli_name(where), otv_status_str(s));
      rc = OTV_EXIT_FONT;
      break;
    }
    char a[64];
    fmt_num(a, sizeof a, adv);
    if (r->svg) {
      char tx[64];
      fmt_num(tx, sizeof tx, pen_x);
      fprintf(
          f,
          "  <path transform=\"translate(%s 0) scale(1 -1)\" d=\"%s\"><title>%u</title></path>\n",
          tx, b.p ? b.p : "", g);
      pen_x += adv > 0 ? adv : upem / 2;
    } else if (b.n) {
      fprintf(f, "%u %s %s\n", g, a, b.p);
    } else {
      fprintf(f, "%u %s\n", g, a);
    }
  }
  if (r->svg && rc == OTV_EXIT_OK) fprintf(f, "</svg>\n");
  if (r->outpath && cli_out_close(&out, rc == OTV_EXIT_OK) && rc == OTV_EXIT_OK) rc = OTV_EXIT_FONT;
done:
  free(b.p);
  free(gids);
  otv_location_destroy(loc);
  cli_close_face(face);
  return rc;
}

int otv_cmd_outline(int argc, char **argv)
{
  const char *var = NULL, *named = NULL, *glyphs = NULL, *text = NULL, *format = NULL;
  const char *outpath = NULL, *index_arg = NULL, *model = NULL;
  int force = 0, round = 0;
  const cli_opt opts[] = {
      CLI_OPT_VAR(&var, "TAG=VALUE,..."),
      CLI_OPT_NAMED(&named),
      CLI_OPT_NORMALIZE(&model),
      CLI_OPT_GLYPHS(&glyphs),
      {"text", 0, CLI_OPT_VALUE, &text, "STR", "the glyphs of these characters, through cmap"},
      {"format", 0, CLI_OPT_VALUE, &format, "FMT", "svgpath (default) or svg"},
      {"round", 0, CLI_OPT_FLAG, &round, NULL,
       "coordinates rounded as a static instance stores them\n(OTV_OUTLINE_ROUND)"},
      {NULL, 'o', CLI_OPT_VALUE, &outpath, "FILE",
       "write there (temp file + rename), not to standard output;\n- is standard output"},
      {"force", 0, CLI_OPT_FLAG, &force, NULL, "replace an existing -o FILE"},
      {"index", 0, CLI_OPT_VALUE, &index_arg, "N", "face N of a TrueType Collection (default 0)"},
      {"help", 'h', CLI_OPT_HELP, NULL, NULL, "this help"},
      CLI_OPT_END,
  };
  cli_args args;
  int rc;
  unsigned index = 0;
  if (!cli_parse(&outline_cmd, opts, argc, argv, &args, &rc)) goto out;
  const char *path = args.pos[0];
  rc = OTV_EXIT_USAGE;
  otv_norm_model m;
  if (cli_parse_face_opts("outline", index_arg, model, NULL, NULL, &index, &m)) goto out;
  int svg = 0;
  if (format && !strcmp(format, "svg"))
    svg = 1;
  else if (format && strcmp(format, "svgpath")) {
    cli_usage_error("outline", "unknown --format '%s' (svgpath or svg)", format);
    goto out;
  }
  if (glyphs && text) {
    cli_usage_error("outline", "--glyphs and --text are exclusive");
    goto out;
  }
  if ((rc = cli_check_std("outline", path, outpath, false))) goto out;
  outline_req r = {
      path, var,  named, glyphs, text, outpath, model, index, round ? OTV_OUTLINE_ROUND : 0u,
      svg,  force};
  rc = outline(&r);
out:
  cli_args_free(&args);
  return rc;
}

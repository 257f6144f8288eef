/*
 * test_outline_cff.c - differential test of CFF2 and CFF outlines against HarfBuzz
 * (hb_font_get_glyph_shape at scale = upem with the same normalized coordinates) and FreeType
 * (FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING after FT_Set_Var_Blend_Coordinates), on every glyph at
 * the default location, every named instance, each axis at its extremes (and all axes at once),
 * and 200 random locations (fixed seed). Also against the fontations expected FreeType 2.13
 * outlines of cantarell_vf_trimmed.ttf.
 *
 * Paths are compared as sequences of move/line/cubic/close; a closing line_to that returns to the
 * contour start (within 1 unit) is dropped from every engine's path first, because whether it
 * appears depends on last-bit equality of the end point with the start.
 * Tolerances: 1 unit against HarfBuzz (the requirement; measured: 0.0000). FreeType
 * truncates FT_LOAD_NO_SCALE CFF coordinates to integers and drops the repeated points that
 * result, so our path is floored and de-duplicated the same way first, then compared within 1
 * unit (its 16.16 blend arithmetic can land on the other side of an integer).
 */
#include "harness.h"

#include <hb.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_MULTIPLE_MASTERS_H
#include FT_OUTLINE_H

typedef struct seg {
  char op; /* M L C Z */
  float v[6];
} seg;
typedef struct pathbuf {
  seg *s;
  size_t n, cap;
  float cx, cy; /* current point (FreeType decompose) */
  bool open;
} pathbuf;

static void p_add(pathbuf *p, char op, const float *v, int nv)
{
  if (p->n == p->cap) {
    p->cap = p->cap ? 2 * p->cap : 256;
    p->s = realloc(p->s, p->cap * sizeof *p->s);
    if (!p->s) abort();
  }
  seg *s = &p->s[p->n++];
  memset(s, 0, sizeof *s);
  s->op = op;
  for (int i = 0; i < nv; i++) s->v[i] = v[i];
}

/* Drop closing line_tos that return to the contour start within tol. */
static void p_normalize(pathbuf *p, float tol)
{
  size_t w = 0, start = 0;
  for (size_t i = 0; i < p->n; i++) {
    seg s = p->s[i];
    if (s.op == 'M') start = w;
    while (s.op == 'Z' && w > 0 && p->s[w - 1].op == 'L' && w - 1 > start) {
      const seg *l = &p->s[w - 1], *m = &p->s[start];
      if (fabsf(l->v[0] - m->v[0]) <= tol && fabsf(l->v[1] - m->v[1]) <= tol)
        w--;
      else
        break;
    }
    p->s[w++] = s;
  }
  p->n = w;
}

/* Drop zero-length line_tos (FreeType's CFF engine does not emit them; HarfBuzz and otvar do). */
static void p_drop_zero_lines(pathbuf *p)
{
  size_t w = 0;
  float cx = 0, cy = 0;
  for (size_t i = 0; i < p->n; i++) {
    seg s = p->s[i];
    if (s.op == 'L' && fabsf(s.v[0] - cx) < 0.01f && fabsf(s.v[1] - cy) < 0.01f) continue;
    if (s.op == 'M' || s.op == 'L') cx = s.v[0], cy = s.v[1];
    if (s.op == 'C') cx = s.v[4], cy = s.v[5];
    p->s[w++] = s;
  }
  p->n = w;
}

/* ---- otvar ---- */
static void o_move(void *c, float x, float y)
{
  float v[2] = {x, y};
  p_add(c, 'M', v, 2);
}
static void o_line(void *c, float x, float y)
{
  float v[2] = {x, y};
  p_add(c, 'L', v, 2);
}
static void o_cubic(void *c, float a, float b, float cc, float d, float e, float f)
{
  float v[6] = {a, b, cc, d, e, f};
  p_add(c, 'C', v, 6);
}
static void o_close(void *c) { p_add(c, 'Z', NULL, 0); }
static const otv_pen o_pen = {o_move, o_line, NULL, o_cubic, o_close};

/* ---- HarfBuzz ---- */
static void h_move(hb_draw_funcs_t *f, void *c, hb_draw_state_t *st, float x, float y, void *u)
{
  (void)f;
  (void)st;
  (void)u;
  o_move(c, x, y);
}
static void h_line(hb_draw_funcs_t *f, void *c, hb_draw_state_t *st, float x, float y, void *u)
{
  (void)f;
  (void)st;
  (void)u;
  o_line(c, x, y);
}
static void h_quad(hb_draw_funcs_t *f, void *c, hb_draw_state_t *st, float cx, float cy, float x,
                   float y, void *u)
{
  (void)f;
  (void)st;
  (void)u;
  float v[4] = {cx, cy, x, y};
  p_add(c, 'Q', v, 4);
}
static void h_cubic(hb_draw_funcs_t *f, void *c, hb_draw_state_t *st, float a, float b, float cc,
                    float d, float e, float ff, void *u)
{
  (void)f;
  (void)st;
  (void)u;
  o_cubic(c, a, b, cc, d, e, ff);
}
static void h_close(hb_draw_funcs_t *f, void *c, hb_draw_state_t *st, void *u)
{
  (void)f;
  (void)st;
  (void)u;
  o_close(c);
}

/* ---- FreeType ---- */
static void ft_close_open(pathbuf *p)
{
  if (p->open) p_add(p, 'Z', NULL, 0);
  p->open = false;
}
static int f_move(const FT_Vector *to, void *c)
{
  pathbuf *p = c;
  ft_close_open(p);
  float v[2] = {(float)to->x, (float)to->y};
  p_add(p, 'M', v, 2);
  p->open = true;
  return 0;
}
static int f_line(const FT_Vector *to, void *c)
{
  float v[2] = {(float)to->x, (float)to->y};
  p_add(c, 'L', v, 2);
  return 0;
}
static int f_conic(const FT_Vector *a, const FT_Vector *to, void *c)
{
  float v[4] = {(float)a->x, (float)a->y, (float)to->x, (float)to->y};
  p_add(c, 'Q', v, 4);
  return 0;
}
static int f_cubic(const FT_Vector *a, const FT_Vector *b, const FT_Vector *to, void *c)
{
  float v[6] = {(float)a->x, (float)a->y, (float)b->x, (float)b->y, (float)to->x, (float)to->y};
  p_add(c, 'C', v, 6);
  return 0;
}
static const FT_Outline_Funcs ft_funcs = {f_move, f_line, f_conic, f_cubic, 0, 0};

/* Max coordinate difference between two paths; -1 when the structure differs. */
static double p_diff(const pathbuf *a, const pathbuf *b)
{
  if (a->n != b->n) return -1;
  double m = 0;
  for (size_t i = 0; i < a->n; i++) {
    if (a->s[i].op != b->s[i].op) return -1;
    for (int k = 0; k < 6; k++) {
      double d = fabs((double)a->s[i].v[k] - (double)b->s[i].v[k]);
      if (d > m) m = d;
    }
  }
  return m;
}

/* As p_diff, but a line_to within 1 unit of the previous point may be skipped in either path:
 * FreeType computes blends in 16.16 and truncates, so a short line that we keep (ends on
 * 277.99 -> 277, next point 278) can collapse into a repeated point it drops, or vice versa.
 * Returns the max coordinate difference of the matched segments, -1 on a real mismatch. */
static double p_diff_skip_short(const pathbuf *a, const pathbuf *b, double tol)
{
  size_t i = 0, j = 0;
  double m = 0;
  float ax = 0, ay = 0, bx = 0, by = 0;
  while (i < a->n || j < b->n) {
    const seg *sa = i < a->n ? &a->s[i] : NULL, *sb = j < b->n ? &b->s[j] : NULL;
    if (sa && sb && sa->op == sb->op) {
      double d = 0;
      for (int k = 0; k < 6; k++) {
        double t = fabs((double)sa->v[k] - (double)sb->v[k]);
        if (t > d) d = t;
      }
      if (d <= tol) {
        if (d > m) m = d;
        if (sa->op == 'M' || sa->op == 'L')
          ax = sa->v[0], ay = sa->v[1], bx = sb->v[0], by = sb->v[1];
        if (sa->op == 'C') ax = sa->v[4], ay = sa->v[5], bx = sb->v[4], by = sb->v[5];
        i++, j++;
        continue;
      }
    }
    if (sa && sa->op == 'L' && fabsf(sa->v[0] - ax) <= 1.0f && fabsf(sa->v[1] - ay) <= 1.0f) {
      ax = sa->v[0], ay = sa->v[1];
      i++;
      continue;
    }
    if (sb && sb->op == 'L' && fabsf(sb->v[0] - bx) <= 1.0f && fabsf(sb->v[1] - by) <= 1.0f) {
      bx = sb->v[0], by = sb->v[1];
      j++;
      continue;
    }
    return -1;
  }
  return m;
}

static void p_print(const char *who, const pathbuf *p)
{
  fprintf(stderr, "  %s:", who);
  for (size_t i = 0; i < p->n && i < 40; i++) {
    const seg *s = &p->s[i];
    int nv = s->op == 'C' ? 6 : s->op == 'Q' ? 4 : s->op == 'Z' ? 0 : 2;
    fprintf(stderr, " %c", s->op);
    for (int k = 0; k < nv; k++) fprintf(stderr, "%s%.2f", k ? "," : "", s->v[k]);
  }
  fprintf(stderr, "%s\n", p->n > 40 ? " ..." : "");
}

typedef struct engines {
  otv_face *face;
  otv_location *loc;
  hb_blob_t *blob;
  hb_face_t *hface;
  hb_font_t *hfont;
  hb_draw_funcs_t *dfuncs;
  FT_Library ftlib;
  FT_Face ft;
  unsigned axes, glyphs, upem;
  bool cff2;
  double max_hb, max_ft;
  long compared, hb_mismatch, ft_mismatch, reported;
  pathbuf po, ph, pf;
} engines;

static bool engines_open(engines *e, const char *opath)
{
  memset(e, 0, sizeof *e);
  otv_error err = {0};
  if (otv_face_open_file(opath, 0, NULL, &e->face, &err)) {
    char buf[256];
    otv_error_format(&err, buf, sizeof buf);
    fprintf(stderr, "%s: otvar cannot open: %s\n", opath, buf);
    CHECK(0);
    return false;
  }
  CHECK_EQ(otv_location_create(e->face, &e->loc, NULL), OTV_E_OK);
  otv_face_info info;
  otv_face_get_info(e->face, &info);
  e->axes = info.axis_count;
  e->glyphs = info.glyph_count;
  e->upem = info.units_per_em;
  e->cff2 = info.flavour == OTV_FLAVOUR_CFF2;
  CHECK(info.flavour == OTV_FLAVOUR_CFF2 || info.flavour == OTV_FLAVOUR_CFF);
  e->blob = hb_blob_create_from_file(opath);
  e->hface = hb_face_create(e->blob, 0);
  e->hfont = hb_font_create(e->hface);
  hb_font_set_scale(e->hfont, (int)e->upem, (int)e->upem);
  e->dfuncs = hb_draw_funcs_create();
  hb_draw_funcs_set_move_to_func(e->dfuncs, h_move, NULL, NULL);
  hb_draw_funcs_set_line_to_func(e->dfuncs, h_line, NULL, NULL);
  hb_draw_funcs_set_quadratic_to_func(e->dfuncs, h_quad, NULL, NULL);
  hb_draw_funcs_set_cubic_to_func(e->dfuncs, h_cubic, NULL, NULL);
  hb_draw_funcs_set_close_path_func(e->dfuncs, h_close, NULL, NULL);
  CHECK_EQ(FT_Init_FreeType(&e->ftlib), 0);
  CHECK_EQ(FT_New_Face(e->ftlib, opath, 0, &e->ft), 0);
  return true;
}

static void engines_close(engines *e)
{
  FT_Done_Face(e->ft);
  FT_Done_FreeType(e->ftlib);
  hb_draw_funcs_destroy(e->dfuncs);
  hb_font_destroy(e->hfont);
  hb_face_destroy(e->hface);
  hb_blob_destroy(e->blob);
  otv_location_destroy(e->loc);
  otv_face_close(e->face);
  free(e->po.s);
  free(e->ph.s);
  free(e->pf.s);
}

/* Set all three engines to normalized coords c (after avar). */
static void engines_set(engines *e, const otv_f2dot14 *c)
{
  if (!e->axes) return;
  int hc[64];
  FT_Fixed fc[64];
  for (unsigned i = 0; i < e->axes; i++) {
    hc[i] = c[i];
    fc[i] = (FT_Fixed)c[i] * 4; /* F2Dot14 -> 16.16 */
  }
  CHECK_EQ(otv_location_set_normalized(e->loc, c, e->axes), OTV_E_OK);
  hb_font_set_var_coords_normalized(e->hfont, hc, e->axes);
  CHECK_EQ(FT_Set_Var_Blend_Coordinates(e->ft, e->axes, fc), 0);
}

/* FreeType's unscaled, unhinted drawing of glyph g into e->pf (appended; closed contours).
 * False when FreeType cannot load it. */
static bool ft_shape(engines *e, unsigned g)
{
  if (FT_Load_Glyph(e->ft, g, FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING)) return false;
  e->pf.open = false;
  FT_Outline_Decompose(&e->ft->glyph->outline, &ft_funcs, &e->pf);
  ft_close_open(&e->pf);
  return true;
}

/* Compare every glyph (with_ft: also against FreeType) at the current location. */
static void compare_all(engines *e, const char *font, const char *where, bool with_ft)
{
  for (unsigned g = 0; g < e->glyphs; g++) {
    e->po.n = e->ph.n = e->pf.n = 0;
    otv_status s = otv_glyph_outline(e->loc, g, 0, &o_pen, &e->po);
    if (s) {
      char buf[256];
      otv_error_format(otv_location_last_error(e->loc), buf, sizeof buf);
      fprintf(stderr, "%s %s glyph %u: %s\n", font, where, g, buf);
      CHECK(0);
      continue;
    }
    hb_font_get_glyph_shape(e->hfont, g, e->dfuncs, &e->ph);
    p_normalize(&e->po, 1.0f);
    p_normalize(&e->ph, 1.0f);
    double dh = p_diff(&e->po, &e->ph);
    e->compared++;
    if (dh < 0 || dh > 1.0) {
      e->hb_mismatch++;
      if (e->reported++ < 5) {
        fprintf(stderr, "%s %s glyph %u: differs from HarfBuzz (%g)\n", font, where, g, dh);
        p_print("otvar", &e->po);
        p_print("hb   ", &e->ph);
      }
    }
    if (dh > e->max_hb) e->max_hb = dh;
    if (!with_ft) continue;
    if (!ft_shape(e, g)) {
      fprintf(stderr, "%s %s glyph %u: FreeType cannot load\n", font, where, g);
      continue;
    }
    /* FreeType's NO_SCALE CFF outlines are truncated to integers (floor), after which
     * repeated points are dropped: do the same to ours before comparing. */
    for (size_t i = 0; i < e->po.n; i++)
      for (int k = 0; k < 6; k++) e->po.s[i].v[k] = floorf(e->po.s[i].v[k]);
    p_drop_zero_lines(&e->pf);
    p_normalize(&e->pf, 1.0f);
    p_drop_zero_lines(&e->po);
    p_normalize(&e->po, 1.0f);
    double df = p_diff_skip_short(&e->po, &e->pf, 1.0);
    if (df < 0 || df > 1.0) {
      e->ft_mismatch++;
      if (e->reported++ < 5) {
        fprintf(stderr, "%s %s glyph %u: differs from FreeType (%g)\n", font, where, g, df);
        p_print("otvar", &e->po);
        p_print("ft   ", &e->pf);
      }
    }
    if (df > e->max_ft) e->max_ft = df;
  }
}

/* The points form (otv_glyph_points_get) against FreeType's FT_Outline points at the current
 * location: same contours, same points and tags (on-curve / cubic control), coordinates within
 * 1 unit after flooring ours (FreeType truncates NO_SCALE CFF coordinates). FreeType does not
 * store zero-length lines; ours keeps every segment's end point, so repeated on-curve points are
 * removed from ours first (within a contour, not across its closing point). */
static void compare_points(engines *e, const char *font, const char *where)
{
  static otv_point pt[20000];
  static uint8_t fl[20000];
  static uint16_t ends[2000];
  long bad = 0, glyphs = 0;
  for (unsigned g = 0; g < e->glyphs; g++) {
    otv_glyph_points io = {pt, fl, ends, 20000, 2000, 0, 0, 0};
    if (otv_glyph_points_get(e->loc, g, 0, &io) != OTV_E_OK) {
      CHECK(0);
      continue;
    }
    if (FT_Load_Glyph(e->ft, g, FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING)) continue;
    const FT_Outline *o = &e->ft->glyph->outline;
    /* ours, floored, repeated on-curve points dropped */
    static float qx[20000], qy[20000];
    static uint8_t qf[20000];
    static unsigned qe[2000];
    unsigned n = 0, first = 0;
    for (unsigned c = 0; c < io.contour_count; c++) {
      unsigned start = n;
      for (unsigned i = first; i <= ends[c]; i++) {
        float x = floorf(pt[i].x), y = floorf(pt[i].y);
        bool on = fl[i] & OTV_POINT_ON_CURVE;
        if (on && n > start && (qf[n - 1] & OTV_POINT_ON_CURVE) && qx[n - 1] == x && qy[n - 1] == y)
          continue;
        qx[n] = x, qy[n] = y, qf[n] = fl[i];
        n++;
      }
      /* the closing duplicate after flooring */
      if (n - start > 1 && qx[n - 1] == qx[start] && qy[n - 1] == qy[start] &&
          (qf[n - 1] & OTV_POINT_ON_CURVE))
        n--;
      qe[c] = n - 1;
      first = ends[c] + 1u;
    }
    glyphs++;
    bool ok = (unsigned)o->n_points == n && (unsigned)o->n_contours == io.contour_count;
    for (unsigned c = 0; ok && c < io.contour_count; c++) ok = (unsigned)o->contours[c] == qe[c];
    for (unsigned i = 0; ok && i < n; i++) {
      bool on = FT_CURVE_TAG(o->tags[i]) == FT_CURVE_TAG_ON;
      bool cubic = FT_CURVE_TAG(o->tags[i]) == FT_CURVE_TAG_CUBIC;
      bool want_on = qf[i] & OTV_POINT_ON_CURVE, want_cubic = qf[i] & OTV_POINT_CUBIC;
      if (on != want_on || cubic != want_cubic || fabs((double)o->points[i].x - qx[i]) > 1.0 ||
          fabs((double)o->points[i].y - qy[i]) > 1.0)
        ok = false;
    }
    if (!ok && bad++ < 3)
      fprintf(stderr,
              "%s %s glyph %u: points differ from FreeType (%u/%d points, %u/%d contours)\n", font,
              where, g, n, o->n_points, io.contour_count, o->n_contours);
  }
  printf("%s %s: points form of %ld glyphs vs FreeType: %ld differ\n", font, where, glyphs, bad);
  CHECK_EQ(bad, 0);
}

static uint32_t rng_state = 0x12345678u;
static uint32_t rng(void)
{
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 17;
  rng_state ^= rng_state << 5;
  return rng_state;
}

/* ft_every: compare with FreeType at every n-th random location (all other locations: every
 * glyph against FreeType too). */
static void test_font(const char *fpath, const char *name, unsigned randoms, unsigned ft_every)
{
  engines e;
  if (!engines_open(&e, fpath)) return;
  otv_f2dot14 c[64] = {0};
  char where[64];
  unsigned locations = 0;
  /* default */
  engines_set(&e, c);
  compare_all(&e, name, "default", true);
  compare_points(&e, name, "default");
  locations++;
  if (e.axes) {
    otv_face_info info;
    otv_face_get_info(e.face, &info);
    for (unsigned i = 0; i < info.instance_count; i++) {
      CHECK_EQ(otv_location_set_named(e.loc, i), OTV_E_OK);
      otv_location_normalized(e.loc, c, 64);
      engines_set(&e, c);
      snprintf(where, sizeof where, "instance %u", i);
      compare_all(&e, name, where, true);
      locations++;
    }
    for (unsigned a = 0; a <= e.axes; a++) {
      for (int sgn = -1; sgn <= 1; sgn += 2) {
        for (unsigned k = 0; k < e.axes; k++)
          c[k] = (a == e.axes || k == a) ? (otv_f2dot14)(sgn * 16384) : 0;
        engines_set(&e, c);
        snprintf(where, sizeof where, "extreme axis %u %s", a, sgn < 0 ? "min" : "max");
        compare_all(&e, name, where, true);
        locations++;
      }
    }
    for (unsigned r = 0; r < randoms; r++) {
      for (unsigned k = 0; k < e.axes; k++) c[k] = (otv_f2dot14)((int)(rng() % 32769u) - 16384);
      engines_set(&e, c);
      snprintf(where, sizeof where, "random %u", r);
      compare_all(&e, name, where, r % ft_every == 0);
      locations++;
    }
  }
  printf("%s: %u glyphs x %u locations: max diff vs HarfBuzz %.6f, vs FreeType %.4f; "
         "mismatches hb %ld ft %ld\n",
         name, e.glyphs, locations, e.max_hb, e.max_ft, e.hb_mismatch, e.ft_mismatch);
  CHECK_EQ(e.hb_mismatch, 0);
  CHECK_EQ(e.ft_mismatch, 0);
  CHECK(e.compared > 0);
  engines_close(&e);
}

/* ---- fontations expected outlines (FreeType 2.13, size 0, hint mode none) ---- */

static void test_fontations(const char *font, const char *expected)
{
  size_t len;
  char *txt = (char *)h_read_file(expected, &len);
  txt = realloc(txt, len + 1);
  txt[len] = 0;
  engines e;
  if (!engines_open(&e, font)) return;
  long records = 0, bad = 0;
  double maxd = 0;
  char *save = NULL;
  char *line = strtok_r(txt, "\n", &save);
  while (line) {
    unsigned gid, ppem;
    char mode[32];
    if (sscanf(line, "glyph %u %u %31s", &gid, &ppem, mode) != 3) {
      line = strtok_r(NULL, "\n", &save);
      continue;
    }
    bool use = ppem == 0 && strcmp(mode, "none") == 0;
    otv_f2dot14 c[64] = {0};
    pathbuf want = {0};
    bool open = false;
    while ((line = strtok_r(NULL, "\n", &save)) && strcmp(line, "-") != 0) {
      if (!use) continue;
      if (!strncmp(line, "coords", 6)) {
        char *q = line + 6;
        for (unsigned k = 0; k < 64; k++) {
          char *endp;
          double v = strtod(q, &endp);
          if (endp == q) break;
          c[k] = (otv_f2dot14)lround(v * 16384.0);
          q = endp;
        }
      } else if (line[1] == ' ' &&
                 (line[0] == 'm' || line[0] == 'l' || line[0] == 'c' || line[0] == 'q')) {
        float v[6] = {0};
        int n = 0;
        char *q = line + 1;
        while (n < 6) {
          char *endp;
          double x = strtod(q, &endp);
          if (endp == q) break;
          v[n++] = (float)x;
          q = endp;
          if (*q == ',') q++;
        }
        if (line[0] == 'm') {
          if (open) p_add(&want, 'Z', NULL, 0);
          open = true;
          p_add(&want, 'M', v, 2);
        } else {
          p_add(&want, (char)(line[0] == 'l' ? 'L' : line[0] == 'c' ? 'C' : 'Q'), v, n);
        }
      }
    }
    if (use) {
      if (open) p_add(&want, 'Z', NULL, 0);
      engines_set(&e, c);
      e.po.n = 0;
      CHECK_EQ(otv_glyph_outline(e.loc, gid, 0, &o_pen, &e.po), OTV_E_OK);
      p_drop_zero_lines(&e.po);
      p_normalize(&e.po, 1.0f);
      p_drop_zero_lines(&want);
      p_normalize(&want, 1.0f);
      double d = p_diff(&e.po, &want);
      records++;
      if (d < 0 || d > 1.0) {
        if (bad++ < 5) {
          fprintf(stderr, "fontations glyph %u coords %d: diff %g\n", gid, c[0], d);
          p_print("otvar", &e.po);
          p_print("want ", &want);
        }
      }
      if (d > maxd) maxd = d;
    }
    free(want.s);
    if (!line) break;
    line = strtok_r(NULL, "\n", &save);
  }
  free(txt);
  printf("fontations %s: %ld records, max diff %.4f, %ld mismatches\n", expected, records, maxd,
         bad);
  CHECK(records > 0);
  CHECK_EQ(bad, 0);
  engines_close(&e);
}

/* FontMatrix (tests/fonts/cff_fm_*.otf, make_cff_fontmatrix.py): FreeType's NO_SCALE outline
 * applies the FontMatrix normalized to unit scale, so it agrees with otvar (FontMatrix x
 * unitsPerEm) when the matrix's scale is 1/unitsPerEm: the skew, the 1/2048 identity and the
 * offset fonts, within 1 unit (FreeType transforms its integer NO_SCALE points with 16.16
 * rounding: the skewed control point 87.5 becomes 88, the 0.01 offset 9.99). HarfBuzz 6 ignores the
 * FontMatrix: it must agree only on the identity font. cff_fm_half.otf (scale 0.0005 at upem
 * 1000) is where otvar differs from both on purpose (see otvar.h); not compared here. */
static void test_fontmatrix(void)
{
  static const char *const fonts[] = {"cff_fm_skew.otf", "cff_fm_2048.otf", "cff_fm_offset.otf"};
  for (size_t i = 0; i < sizeof fonts / sizeof fonts[0]; i++) {
    engines e;
    if (!engines_open(&e, h_font(fonts[i]))) continue;
    long ft_bad = 0, hb_bad = 0;
    for (unsigned g = 1; g < e.glyphs; g++) {
      e.po.n = e.ph.n = e.pf.n = 0;
      CHECK_EQ(otv_glyph_outline(e.loc, g, 0, &o_pen, &e.po), OTV_E_OK);
      if (i == 1) { /* identity: HarfBuzz agrees exactly */
        hb_font_get_glyph_shape(e.hfont, g, e.dfuncs, &e.ph);
        p_normalize(&e.po, 1.0f);
        p_normalize(&e.ph, 1.0f);
        double dh = p_diff(&e.po, &e.ph);
        if (dh < 0 || dh > 0) hb_bad++;
      }
      CHECK(ft_shape(&e, g));
      for (size_t k = 0; k < e.po.n; k++)
        for (int j = 0; j < 6; j++) e.po.s[k].v[j] = floorf(e.po.s[k].v[j]);
      p_normalize(&e.pf, 1.0f);
      p_normalize(&e.po, 1.0f);
      double df = p_diff(&e.po, &e.pf);
      if (df < 0 || df > 1.0) {
        ft_bad++;
        fprintf(stderr, "%s glyph %u: differs from FreeType (%g)\n", fonts[i], g, df);
        p_print("otvar", &e.po);
        p_print("ft   ", &e.pf);
      }
    }
    printf("FontMatrix %s: %u glyphs, FreeType mismatches %ld, HarfBuzz mismatches %ld\n", fonts[i],
           e.glyphs - 1, ft_bad, hb_bad);
    CHECK_EQ(ft_bad, 0);
    CHECK_EQ(hb_bad, 0);
    engines_close(&e);
  }
}

/* The contours of p in a canonical order (by their first point, then their length): for
 * comparing drawings whose contour order legitimately differs. */
static int cmp_contour(const void *a, const void *b)
{
  const pathbuf *x = a, *y = b;
  for (int k = 0; k < 2; k++)
    if (x->s[0].v[k] != y->s[0].v[k]) return x->s[0].v[k] < y->s[0].v[k] ? -1 : 1;
  return x->n < y->n ? -1 : x->n > y->n;
}
static void p_sort_contours(pathbuf *p)
{
  if (!p->n) return;
  pathbuf parts[64];
  size_t np = 0;
  for (size_t i = 0; i < p->n; i++) {
    if (p->s[i].op == 'M') {
      if (np == 64) return; /* (more than the seac fonts have: left as drawn) */
      parts[np].s = &p->s[i];
      parts[np++].n = 0;
    }
    if (np) parts[np - 1].n++;
  }
  qsort(parts, np, sizeof *parts, cmp_contour);
  seg *out = malloc(p->n * sizeof *out);
  if (!out) abort();
  size_t w = 0;
  for (size_t k = 0; k < np; k++)
    for (size_t i = 0; i < parts[k].n; i++) out[w++] = parts[k].s[i];
  memcpy(p->s, out, w * sizeof *out);
  p->n = w;
  free(out);
}

/* seac (tests/fonts/make_cff_seac.py): accented glyphs built from a base and an accent that
 * Standard Encoding codes name and the charset maps to glyphs, once per charset kind
 * (predefined ISOAdobe, format 1, format 2). Every glyph against HarfBuzz (the same drawing, base
 * first) and FreeType (the same contours; it draws the accent first, so the contours are compared
 * in a canonical order), and the seac glyph has both contours: the base's and the accent's
 * moved by (50, 210). */
static void test_seac(void)
{
  static const char *const fonts[] = {"cff_seac_iso.otf", "cff_seac_f1.otf", "cff_seac_f2.otf"};
  for (size_t i = 0; i < sizeof fonts / sizeof fonts[0]; i++) {
    engines e;
    if (!engines_open(&e, h_font(fonts[i]))) continue;
    uint32_t base = otv_face_glyph_for_char(e.face, 0x41, 0);
    uint32_t acc = otv_face_glyph_for_char(e.face, 0xB4, 0);
    uint32_t seac = otv_face_glyph_for_char(e.face, 0xC1, 0);
    CHECK(base && acc && seac);
    long hb_bad = 0, ft_bad = 0;
    for (unsigned g = 0; g < e.glyphs; g++) {
      e.po.n = e.ph.n = e.pf.n = 0;
      CHECK_EQ(otv_glyph_outline(e.loc, g, 0, &o_pen, &e.po), OTV_E_OK);
      hb_font_get_glyph_shape(e.hfont, g, e.dfuncs, &e.ph);
      p_normalize(&e.po, 1.0f);
      p_normalize(&e.ph, 1.0f);
      double dh = p_diff(&e.po, &e.ph);
      if (dh < 0 || dh > 0.0) {
        hb_bad++;
        fprintf(stderr, "%s glyph %u: differs from HarfBuzz (%g)\n", fonts[i], g, dh);
        p_print("otvar", &e.po);
        p_print("hb   ", &e.ph);
      }
      CHECK(ft_shape(&e, g));
      p_normalize(&e.pf, 1.0f);
      p_sort_contours(&e.po);
      p_sort_contours(&e.pf);
      double df = p_diff(&e.po, &e.pf); /* integer coordinates: exact in both */
      if (df < 0 || df > 0.0) {
        ft_bad++;
        fprintf(stderr, "%s glyph %u: differs from FreeType (%g)\n", fonts[i], g, df);
        p_print("otvar", &e.po);
        p_print("ft   ", &e.pf);
      }
    }
    /* by hand: the seac glyph is the base's contour, then the accent's moved by (50, 210) */
    pathbuf pb = {0}, pa = {0}, ps = {0};
    CHECK_EQ(otv_glyph_outline(e.loc, base, 0, &o_pen, &pb), OTV_E_OK);
    CHECK_EQ(otv_glyph_outline(e.loc, acc, 0, &o_pen, &pa), OTV_E_OK);
    CHECK_EQ(otv_glyph_outline(e.loc, seac, 0, &o_pen, &ps), OTV_E_OK);
    CHECK_EQ(ps.n, pb.n + pa.n);
    for (size_t k = 0; k < ps.n && k < pb.n + pa.n; k++) {
      const seg *want = k < pb.n ? &pb.s[k] : &pa.s[k - pb.n];
      CHECK_EQ(ps.s[k].op, want->op);
      for (int v = 0; v < 6; v += 2) {
        bool used = want->op == 'C' || (v == 0 && want->op != 'Z');
        float dx = k < pb.n || !used ? 0.0f : 50.0f, dy = k < pb.n || !used ? 0.0f : 210.0f;
        CHECK_EQ(ps.s[k].v[v], want->v[v] + dx);
        CHECK_EQ(ps.s[k].v[v + 1], want->v[v + 1] + dy);
      }
    }
    free(pb.s);
    free(pa.s);
    free(ps.s);
    printf("seac %s: %u glyphs, HarfBuzz mismatches %ld, FreeType mismatches %ld\n", fonts[i],
           e.glyphs, hb_bad, ft_bad);
    CHECK_EQ(hb_bad, 0);
    CHECK_EQ(ft_bad, 0);
    engines_close(&e);
  }
}

int main(void)
{
  rng_state = (uint32_t)h_seed(rng_state);
  test_fontmatrix();
  test_seac();
  static const char *const local[] = {"AdobeVFPrototype_vsindex.otf", "NotoSansJP-VF.subset.otf",
                                      "cantarell_vf_trimmed.ttf", "CFF2Instancer-VF-1.otf"};
  char opath[4096];
  for (size_t i = 0; i < sizeof local / sizeof local[0]; i++)
    test_font(h_font(local[i]), local[i], h_locations(200), 1);

  char exp[4096];
  const char *root = getenv("OTV_ROOT");
  snprintf(exp, sizeof exp, "%s/tests/expected/fontations/cantarell_vf_trimmed-glyphs.txt",
           root ? root : ".");
  test_fontations(h_font("cantarell_vf_trimmed.ttf"), exp);

  /* Real fonts from the cache (tests/fetch-fonts.sh). */
  static const char *const cached[] = {"Cantarell-VF.otf", "SourceSerif4Variable-Roman.otf",
                                       "SourceSans3VF-Upright.otf", "Karla-Regular.otf"};
  const char *cache = getenv("OTV_FONT_CACHE");
  for (size_t i = 0; i < sizeof cached / sizeof cached[0]; i++) {
    snprintf(opath, sizeof opath, "%s/%s", cache ? cache : "fonts-cache", cached[i]);
    FILE *f = fopen(opath, "rb");
    if (!f) {
      printf("SKIP %s: not in the font cache (tests/fetch-fonts.sh)\n", cached[i]);
      continue;
    }
    fclose(f);
    test_font(opath, cached[i], h_locations(200), 1);
  }
  return h_done("test_outline_cff");
}

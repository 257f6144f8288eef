/*
 * oracle_outline.c - see oracle_outline.h.
 */
#include "oracle_outline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include FT_OUTLINE_H
#include FT_MULTIPLE_MASTERS_H

/* ---- canonical paths ---- */

void oo_path_clear(oo_path *p)
{
  p->n_seg = p->n_con = 0;
  p->open = 0;
  p->cx = p->cy = 0;
}

void oo_path_free(oo_path *p)
{
  free(p->seg);
  free(p->con);
  memset(p, 0, sizeof *p);
}

static void add_seg(oo_path *p, char op, const float *v, int nv)
{
  if (!p->open) { /* a segment without move_to: start at the current point */
    if (p->n_con == p->cap_con) {
      p->cap_con = p->cap_con ? 2 * p->cap_con : 16;
      p->con = realloc(p->con, p->cap_con * sizeof *p->con);
    }
    p->con[p->n_con++] = (oo_contour){p->cx, p->cy, p->n_seg, 0};
    p->open = 1;
  }
  if (p->n_seg == p->cap_seg) {
    p->cap_seg = p->cap_seg ? 2 * p->cap_seg : 64;
    p->seg = realloc(p->seg, p->cap_seg * sizeof *p->seg);
  }
  oo_seg *s = &p->seg[p->n_seg++];
  memset(s, 0, sizeof *s);
  s->op = op;
  memcpy(s->p, v, (size_t)nv * sizeof(float));
  p->con[p->n_con - 1].n++;
  p->cx = v[nv - 2];
  p->cy = v[nv - 1];
}

/* Close the open contour: explicit closing line, drop zero-length lines, drop empty contours. */
static void close_contour(oo_path *p)
{
  if (!p->open) return;
  oo_contour *c = &p->con[p->n_con - 1];
  if (c->n && (p->cx != c->x0 || p->cy != c->y0)) {
    float v[2] = {c->x0, c->y0};
    add_seg(p, 'L', v, 2);
    c = &p->con[p->n_con - 1];
  }
  /* FreeType's FT_Outline_Decompose closes with a line_to even when the last point is the
   * start already: drop a final zero-length line (only that one: rounding in FreeType makes
   * other zero-length lines that are real segments). */
  if (c->n && p->ft_close) {
    const oo_seg *s = &p->seg[c->first + c->n - 1];
    float px = c->x0, py = c->y0;
    if (c->n >= 2) {
      const oo_seg *q = s - 1;
      px = q->op == 'L' ? q->p[0] : q->op == 'Q' ? q->p[2] : q->p[4];
      py = q->op == 'L' ? q->p[1] : q->op == 'Q' ? q->p[3] : q->p[5];
    }
    if (s->op == 'L' && s->p[0] == px && s->p[1] == py) {
      c->n--;
      p->n_seg--;
    }
  }
  if (c->n == 0) p->n_con--;
  p->open = 0;
  p->cx = c->x0;
  p->cy = c->y0;
}

void oo_path_finish(oo_path *p) { close_contour(p); }

void oo_path_drop_zero_lines(oo_path *p) { oo_path_drop_short_lines(p, 0.0f); }

void oo_path_drop_short_lines(oo_path *p, float len)
{
  size_t w = 0, wc = 0;
  for (size_t c = 0; c < p->n_con; c++) {
    oo_contour ct = p->con[c];
    float px = ct.x0, py = ct.y0;
    size_t first = w;
    for (size_t i = ct.first; i < ct.first + ct.n; i++) {
      oo_seg s = p->seg[i];
      int n = s.op == 'L' ? 2 : s.op == 'Q' ? 4 : 6;
      if (s.op == 'L' && fabsf(s.p[0] - px) <= len && fabsf(s.p[1] - py) <= len) continue;
      p->seg[w++] = s;
      px = s.p[n - 2];
      py = s.p[n - 1];
    }
    if (w == first) continue;
    p->con[wc++] = (oo_contour){ct.x0, ct.y0, first, w - first};
  }
  p->n_seg = w;
  p->n_con = wc;
}

static void p_move(oo_path *p, float x, float y)
{
  close_contour(p);
  if (p->n_con == p->cap_con) {
    p->cap_con = p->cap_con ? 2 * p->cap_con : 16;
    p->con = realloc(p->con, p->cap_con * sizeof *p->con);
  }
  p->con[p->n_con++] = (oo_contour){x, y, p->n_seg, 0};
  p->open = 1;
  p->cx = x;
  p->cy = y;
}

static void pen_move(void *ctx, float x, float y) { p_move(ctx, x, y); }
static void pen_line(void *ctx, float x, float y)
{
  float v[2] = {x, y};
  add_seg(ctx, 'L', v, 2);
}
static void pen_quad(void *ctx, float cx, float cy, float x, float y)
{
  float v[4] = {cx, cy, x, y};
  add_seg(ctx, 'Q', v, 4);
}
static void pen_cubic(void *ctx, float ax, float ay, float bx, float by, float x, float y)
{
  float v[6] = {ax, ay, bx, by, x, y};
  add_seg(ctx, 'C', v, 6);
}
static void pen_close(void *ctx) { close_contour(ctx); }

const otv_pen oo_otv_pen = {pen_move, pen_line, pen_quad, pen_cubic, pen_close};

static int nvals(char op) { return op == 'L' ? 2 : op == 'Q' ? 4 : 6; }

/* Max difference of contour ca (path a) and cb (path b) with b rotated by k segments. */
static double contour_diff(const oo_path *a, const oo_contour *ca, const oo_path *b,
                           const oo_contour *cb, size_t k)
{
  double m = 0;
  for (size_t i = 0; i < ca->n; i++) {
    const oo_seg *s = &a->seg[ca->first + i], *t = &b->seg[cb->first + (i + k) % cb->n];
    if (s->op != t->op) return -1;
    for (int j = 0; j < nvals(s->op); j++) {
      double d = fabs((double)s->p[j] - (double)t->p[j]);
      if (d > m) m = d;
    }
  }
  return m;
}

double oo_path_diff(const oo_path *a, const oo_path *b, int rotate, const char **why)
{
  if (why) *why = "";
  if (a->n_con != b->n_con) {
    if (why) *why = "contour count";
    return -1;
  }
  double m = 0;
  for (size_t c = 0; c < a->n_con; c++) {
    const oo_contour *ca = &a->con[c], *cb = &b->con[c];
    if (ca->n != cb->n) {
      if (why) *why = "segment count";
      return -1;
    }
    double best = -1;
    if (!rotate) {
      best = contour_diff(a, ca, b, cb, 0);
      if (best >= 0) {
        double d0 = fmax(fabs(ca->x0 - cb->x0), fabs(ca->y0 - cb->y0));
        if (d0 > best) best = d0;
      }
    } else {
      for (size_t k = 0; k < cb->n; k++) {
        double d = contour_diff(a, ca, b, cb, k);
        if (d >= 0 && (best < 0 || d < best)) best = d;
      }
    }
    if (best < 0) {
      if (why) *why = "segment kinds";
      return -1;
    }
    if (best > m) m = best;
  }
  return m;
}

void oo_path_print(FILE *f, const oo_path *p)
{
  for (size_t c = 0; c < p->n_con; c++) {
    const oo_contour *ct = &p->con[c];
    fprintf(f, "M%g %g", ct->x0, ct->y0);
    for (size_t i = ct->first; i < ct->first + ct->n; i++) {
      const oo_seg *s = &p->seg[i];
      fprintf(f, " %c", s->op);
      for (int j = 0; j < nvals(s->op); j++) fprintf(f, "%s%g", j ? " " : "", s->p[j]);
    }
    fprintf(f, " Z ");
  }
  fprintf(f, "\n");
}

/* ---- fonts ---- */

static void hb_move(hb_draw_funcs_t *d, void *data, hb_draw_state_t *st, float x, float y, void *u)
{
  (void)d, (void)st, (void)u;
  p_move(data, x, y);
}
static void hb_line(hb_draw_funcs_t *d, void *data, hb_draw_state_t *st, float x, float y, void *u)
{
  (void)d, (void)st, (void)u;
  pen_line(data, x, y);
}
static void hb_quad(hb_draw_funcs_t *d, void *data, hb_draw_state_t *st, float cx, float cy,
                    float x, float y, void *u)
{
  (void)d, (void)st, (void)u;
  pen_quad(data, cx, cy, x, y);
}
static void hb_cubic(hb_draw_funcs_t *d, void *data, hb_draw_state_t *st, float ax, float ay,
                     float bx, float by, float x, float y, void *u)
{
  (void)d, (void)st, (void)u;
  pen_cubic(data, ax, ay, bx, by, x, y);
}
static void hb_close(hb_draw_funcs_t *d, void *data, hb_draw_state_t *st, void *u)
{
  (void)d, (void)st, (void)u;
  close_contour(data);
}

int oo_font_open(oo_font *o, const char *path)
{
  memset(o, 0, sizeof *o);
  FILE *f = fopen(path, "rb");
  if (!f) return -2;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  o->data = malloc(n > 0 ? (size_t)n : 1);
  o->len = fread(o->data, 1, n > 0 ? (size_t)n : 0, f);
  fclose(f);
  otv_error e = {0};
  if (otv_face_open_memory(o->data, o->len, 0, NULL, &o->face, &e) ||
      otv_location_create(o->face, &o->loc, &e)) {
    char buf[256];
    otv_error_format(&e, buf, sizeof buf);
    fprintf(stderr, "%s: otvar: %s\n", path, buf);
    oo_font_close(o);
    return -1;
  }
  otv_face_info info;
  otv_face_get_info(o->face, &info);
  o->axis_count = info.axis_count;
  o->glyph_count = info.glyph_count;
  o->upem = info.units_per_em;
  o->blob =
      hb_blob_create((const char *)o->data, (unsigned)o->len, HB_MEMORY_MODE_READONLY, NULL, NULL);
  o->hb_face = hb_face_create(o->blob, 0);
  o->hb_font = hb_font_create(o->hb_face);
  hb_font_set_scale(o->hb_font, (int)o->upem, (int)o->upem);
  o->hb_draw = hb_draw_funcs_create();
  hb_draw_funcs_set_move_to_func(o->hb_draw, hb_move, NULL, NULL);
  hb_draw_funcs_set_line_to_func(o->hb_draw, hb_line, NULL, NULL);
  hb_draw_funcs_set_quadratic_to_func(o->hb_draw, hb_quad, NULL, NULL);
  hb_draw_funcs_set_cubic_to_func(o->hb_draw, hb_cubic, NULL, NULL);
  hb_draw_funcs_set_close_path_func(o->hb_draw, hb_close, NULL, NULL);
  hb_draw_funcs_make_immutable(o->hb_draw);
  if (!FT_Init_FreeType(&o->ft_lib) &&
      !FT_New_Memory_Face(o->ft_lib, o->data, (FT_Long)o->len, 0, &o->ft))
    o->ft_ok = 1;
  return 0;
}

void oo_font_close(oo_font *o)
{
  if (o->hb_draw) hb_draw_funcs_destroy(o->hb_draw);
  if (o->hb_font) hb_font_destroy(o->hb_font);
  if (o->hb_face) hb_face_destroy(o->hb_face);
  if (o->blob) hb_blob_destroy(o->blob);
  if (o->ft) FT_Done_Face(o->ft);
  if (o->ft_lib) FT_Done_FreeType(o->ft_lib);
  otv_location_destroy(o->loc);
  otv_face_close(o->face);
  free(o->data);
  memset(o, 0, sizeof *o);
}

void oo_font_set_normalized(oo_font *o, const otv_f2dot14 *coords, unsigned n)
{
  if (n > o->axis_count) n = o->axis_count;
  otv_location_set_normalized(o->loc, coords, n);
  int hc[64];
  FT_Fixed fc[64];
  unsigned m = o->axis_count < 64 ? o->axis_count : 64;
  for (unsigned i = 0; i < m; i++) {
    hc[i] = i < n ? coords[i] : 0;
    fc[i] = (FT_Fixed)hc[i] * 4; /* F2Dot14 -> 16.16 exactly */
  }
  hb_font_set_var_coords_normalized(o->hb_font, hc, m);
  if (o->ft_ok && m) FT_Set_Var_Blend_Coordinates(o->ft, m, fc);
}

int oo_otv_outline(oo_font *o, unsigned gid, unsigned flags, oo_path *p, otv_status *st)
{
  oo_path_clear(p);
  otv_status s = otv_glyph_outline(o->loc, gid, flags, &oo_otv_pen, p);
  oo_path_finish(p);
  if (st) *st = s;
  return s ? -1 : 0;
}

int oo_hb_outline(oo_font *o, unsigned gid, oo_path *p)
{
  oo_path_clear(p);
#if HB_VERSION_ATLEAST(7, 0, 0)
  hb_font_draw_glyph(o->hb_font, gid, o->hb_draw, p);
#else
  hb_font_get_glyph_shape(o->hb_font, gid, o->hb_draw, p); /* the 6.x name of draw_glyph */
#endif
  oo_path_finish(p);
  return 0;
}

static int ft_move(const FT_Vector *to, void *u)
{
  p_move(u, (float)to->x, (float)to->y);
  return 0;
}
static int ft_line(const FT_Vector *to, void *u)
{
  pen_line(u, (float)to->x, (float)to->y);
  return 0;
}
static int ft_conic(const FT_Vector *c, const FT_Vector *to, void *u)
{
  pen_quad(u, (float)c->x, (float)c->y, (float)to->x, (float)to->y);
  return 0;
}
static int ft_cubic(const FT_Vector *a, const FT_Vector *b, const FT_Vector *to, void *u)
{
  pen_cubic(u, (float)a->x, (float)a->y, (float)b->x, (float)b->y, (float)to->x, (float)to->y);
  return 0;
}

const FT_Outline *oo_ft_load(oo_font *o, unsigned gid)
{
  if (!o->ft_ok) return NULL;
  if (FT_Load_Glyph(o->ft, gid, FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING)) return NULL;
  if (o->ft->glyph->format != FT_GLYPH_FORMAT_OUTLINE) return NULL;
  return &o->ft->glyph->outline;
}

int oo_ft_outline(oo_font *o, unsigned gid, oo_path *p)
{
  static const FT_Outline_Funcs fns = {ft_move, ft_line, ft_conic, ft_cubic, 0, 0};
  oo_path_clear(p);
  const FT_Outline *ol = oo_ft_load(o, gid);
  if (!ol) return -1;
  p->ft_close = 1;
  int r = FT_Outline_Decompose((FT_Outline *)ol, &fns, p) ? -1 : 0;
  oo_path_finish(p);
  p->ft_close = 0;
  return r;
}

int oo_hb_advance(oo_font *o, unsigned gid) { return hb_font_get_glyph_h_advance(o->hb_font, gid); }

long oo_ft_advance(oo_font *o, unsigned gid)
{
  if (!o->ft_ok || FT_Load_Glyph(o->ft, gid, FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING)) return -1;
  return o->ft->glyph->metrics.horiAdvance;
}

const char *oo_cache_font(const char *name)
{
  static char buf[4096];
  const char *d = getenv("OTV_FONT_CACHE");
  if (!d || !*d) return NULL;
  snprintf(buf, sizeof buf, "%s/%s", d, name);
  return buf;
}

/*
 * test_raster_points.c - otv_raster_add_points (whole outlines as points):
 *  - real glyphs (TrueType quadratics with implied points, CFF2 cubics) at several sizes and
 *    locations give byte-identical images to the same segments drawn through the pen, in every
 *    mode of the rasterizer (stored path, direct mode dense and with block marks, outlines that
 *    leave the target). The reference decomposition below is written from the documented rule,
 *    independently of the library's;
 *  - an all-off-curve TrueType contour (no on-curve point at all) covers the exact area of its
 *    quadratic spline;
 *  - bad arguments and bad point sequences give the documented errors, and render draws nothing;
 *  - a contour longer than the rasterizer's vertex buffer: the same image, its exact area;
 *  - no allocation once the rasterizer has seen the largest outline.
 */
#include "harness.h"
#include "otvar.h"

#include <math.h>

#ifndef M_PI
#  define M_PI 3.14159265358979323846
#endif

#define TW 256 /* the widest target (block-marked direct mode beyond 192 px) */
#define TH 200

static otv_raster *R;
static const otv_pen *P;

/* ---- the reference: the documented decomposition, through the pen ---- */

static bool on(const uint8_t *f, unsigned i) { return !f || (f[i] & OTV_POINT_ON_CURVE); }
static bool cubic(const uint8_t *f, unsigned i) { return !on(f, i) && (f[i] & OTV_POINT_CUBIC); }
static otv_point mid(otv_point a, otv_point b)
{
  return (otv_point){0.5f * (a.x + b.x), 0.5f * (a.y + b.y)};
}

/* Draw the contours through the pen: FreeType's FT_Outline_Decompose rules as otvar.h states
 * them (a contour starting off the curve starts at its last point if on, else midway; implied
 * midpoints between quadratic control points; a cubic pair ends at the next point or the
 * start; closed by a line). Midpoints in float from the given (pixel) coordinates. */
static void ref_draw(const otv_point *p, const uint8_t *f, const uint16_t *ends, unsigned nc)
{
  unsigned first = 0;
  for (unsigned c = 0; c < nc; first = ends[c++] + 1u) {
    unsigned last = ends[c], i, limit = last;
    otv_point s;
    if (on(f, first)) {
      s = p[first];
      i = first + 1;
    } else if (on(f, last)) {
      s = p[last];
      i = first;
      limit = last - 1;
    } else {
      s = mid(p[first], p[last]);
      i = first;
    }
    P->move_to(R, s.x, s.y);
    bool closed = false;
    while (i <= limit && !closed) {
      if (on(f, i)) {
        P->line_to(R, p[i].x, p[i].y);
        i++;
      } else if (cubic(f, i)) {
        otv_point e = i + 2 <= limit ? p[i + 2] : s;
        P->cubic_to(R, p[i].x, p[i].y, p[i + 1].x, p[i + 1].y, e.x, e.y);
        closed = i + 2 > limit;
        i += 3;
      } else {
        otv_point ctl = p[i++];
        for (;;) {
          if (i > limit) {
            P->quad_to(R, ctl.x, ctl.y, s.x, s.y);
            closed = true;
            break;
          }
          if (on(f, i)) {
            P->quad_to(R, ctl.x, ctl.y, p[i].x, p[i].y);
            i++;
            break;
          }
          otv_point m = mid(ctl, p[i]);
          P->quad_to(R, ctl.x, ctl.y, m.x, m.y);
          ctl = p[i++];
        }
      }
    }
    if (!closed) P->line_to(R, s.x, s.y);
    P->close_path(R);
  }
}

static uint8_t img_pen[TW * TH], img_pts[TW * TH];

/* Render the outline both ways into a w x h target (direct: announced with begin) and count
 * the differing pixels. */
static long compare(const otv_glyph_points *g, unsigned w, unsigned h, bool direct, unsigned flags)
{
  memset(img_pen, 0, sizeof img_pen);
  memset(img_pts, 0x5a, sizeof img_pts); /* (CLEAR must overwrite it) */
  if (!(flags & OTV_RASTER_CLEAR)) memset(img_pts, 0, sizeof img_pts);
  if (direct) otv_raster_begin(R, w, h);
  ref_draw(g->points, g->point_flags, g->contour_ends, g->contour_count);
  CHECK_EQ(otv_raster_render(R, img_pen, w, h, w, flags), OTV_E_OK);
  if (direct) otv_raster_begin(R, w, h);
  CHECK_EQ(otv_raster_add_points(R, g), OTV_E_OK);
  CHECK_EQ(otv_raster_render(R, img_pts, w, h, w, flags), OTV_E_OK);
  long bad = 0;
  for (size_t i = 0; i < (size_t)w * h; i++) bad += img_pen[i] != img_pts[i];
  return bad;
}

/* ---- real glyphs ---- */

typedef struct stats {
  long images, differing, inked;
} stats;

static void glyphs_of(const char *file, stats *st)
{
  otv_face *face;
  otv_location *loc;
  if (otv_face_open_file(file, 0, NULL, &face, NULL)) {
    fprintf(stderr, "cannot open %s\n", file);
    h_failures++;
    return;
  }
  otv_location_create(face, &loc, NULL);
  otv_face_info info;
  otv_face_get_info(face, &info);
  enum { CAP = 4096 };
  static otv_point pts[CAP], px[CAP];
  static uint8_t fl[CAP];
  static uint16_t ends[CAP];
  unsigned glyphs = info.glyph_count < 120 ? info.glyph_count : 120;
  for (int at = 0; at < 2; at++) {
    if (at == 1) {
      /* a second location: every axis at its maximum, normalized */
      otv_f2dot14 max[16];
      for (int a = 0; a < 16; a++) max[a] = 16384;
      otv_location_set_normalized(loc, max, info.axis_count < 16 ? info.axis_count : 16);
    }
    for (uint32_t gid = 0; gid < glyphs; gid++) {
      otv_glyph_points g = {pts, fl, ends, CAP, CAP, 0, 0, 0};
      if (otv_glyph_points_get(loc, gid, 0, &g) || !g.contour_count) continue;
      float x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
      for (unsigned i = 0; i < g.point_count; i++) {
        x0 = fminf(x0, pts[i].x);
        x1 = fmaxf(x1, pts[i].x);
        y0 = fminf(y0, pts[i].y);
        y1 = fmaxf(y1, pts[i].y);
      }
      static const double sizes[] = {16, 48, 160};
      for (int s = 0; s < 3; s++) {
        double k = sizes[s] / info.units_per_em;
        /* the glyph into pixels (y down) with its box 1.25 px in from the target's corner */
        for (unsigned i = 0; i < g.point_count; i++)
          px[i] =
              (otv_point){(float)((pts[i].x - x0) * k + 1.25), (float)((y1 - pts[i].y) * k + 1.25)};
        otv_glyph_points gp = g;
        gp.points = px;
        unsigned w = (unsigned)ceil((x1 - x0) * k + 2.5), h = (unsigned)ceil((y1 - y0) * k + 2.5);
        if (w > TW || h > TH) continue;
        st->differing += compare(&gp, w, h, true, 0) != 0;  /* direct, dense or marked */
        st->differing += compare(&gp, TW, h, true, 0) != 0; /* direct with block marks */
        st->differing += compare(&gp, w, h, false, 0) != 0; /* stored path */
        st->differing += compare(&gp, w, h, true, OTV_RASTER_CLEAR) != 0;
        for (size_t i = 0; i < (size_t)w * h; i++) st->inked += img_pts[i] != 0;
        /* leaving the target: the left and top columns cut off */
        for (unsigned i = 0; i < g.point_count; i++) {
          px[i].x -= (float)(w / 3);
          px[i].y -= (float)(h / 3);
        }
        st->differing += compare(&gp, w, h, true, 0) != 0;
        st->differing += compare(&gp, w, h, false, 0) != 0;
        st->images += 6;
      }
    }
  }
  otv_location_destroy(loc);
  otv_face_close(face);
}

static void test_real_glyphs(void)
{
  stats st = {0, 0, 0};
  glyphs_of(h_font("Roboto-Variable.ABC.ttf"), &st); /* TrueType, implied points */
  glyphs_of(h_font("cantarell_vf_trimmed.ttf"), &st);
  glyphs_of(h_font("AdobeVFPrototype_vsindex.otf"), &st); /* CFF2 cubics */
  glyphs_of(h_font("SourceSerifVariable-Roman-VVAR.abc.ttf"), &st);
  printf("real glyphs: %ld images, %ld differ from the pen, %ld inked pixels\n", st.images,
         st.differing, st.inked);
  CHECK(st.images >= 500);
  CHECK(st.inked > 10000); /* the glyphs were drawn, not empty images compared */
  CHECK_EQ(st.differing, 0);
}

/* ---- an all-off-curve contour: its exact area ---- */

static void test_all_off_curve(void)
{
  /* 8 control points on a circle; the curve runs through their midpoints */
  enum { N = 8 };
  otv_point p[N];
  uint8_t f[N] = {0};
  uint16_t end = N - 1;
  double cx = 32, cy = 30, rad = 24;
  for (int i = 0; i < N; i++)
    p[i] = (otv_point){(float)(cx + rad * cos(2 * M_PI * i / N)),
                       (float)(cy + rad * sin(2 * M_PI * i / N))};
  /* exact area: the polygon through the midpoints plus, per arc, 2/3 of the triangle
   * (midpoint, control, next midpoint) */
  double area = 0;
  for (int i = 0; i < N; i++) {
    otv_point a = mid(p[(i + N - 1) % N], p[i]), c = p[i], b = mid(p[i], p[(i + 1) % N]);
    area += 0.5 * ((double)a.x * b.y - (double)b.x * a.y);
    area += 2.0 / 3.0 * 0.5 *
            fabs(((double)c.x - a.x) * (b.y - a.y) - ((double)b.x - a.x) * (c.y - a.y));
  }
  otv_glyph_points g = {p, f, &end, N, 1, N, 1, 0};
  CHECK_EQ(compare(&g, 64, 64, true, 0), 0);
  double sum = 0;
  for (int i = 0; i < 64 * 64; i++) sum += img_pts[i] / 255.0;
  printf("all off-curve: coverage %.3f, exact %.3f\n", sum, fabs(area));
  CHECK(fabs(sum - fabs(area)) <= 0.005 * fabs(area));
  /* a one-point contour (a lone control point: starts and ends at itself) draws nothing */
  uint16_t end0 = 0;
  otv_glyph_points one = {p, f, &end0, 1, 1, 1, 1, 0};
  CHECK_EQ(compare(&one, 64, 64, true, 0), 0);
  long inked = 0;
  for (int i = 0; i < 64 * 64; i++) inked += img_pts[i] != 0;
  CHECK_EQ(inked, 0);
}

/* ---- errors ---- */

static void test_errors(void)
{
  otv_point p[6] = {{1, 1}, {9, 1}, {9, 9}, {1, 9}, {5, 12}, {2, 11}};
  uint16_t ends[2] = {3, 5};
  uint8_t f[6] = {1, 1, 1, 1, 1, 1};
  uint8_t buf[16 * 16];
  otv_glyph_points g = {p, f, ends, 6, 2, 6, 2, 0};
  CHECK_EQ(otv_raster_add_points(NULL, &g), OTV_E_ARG);
  CHECK_EQ(otv_raster_add_points(R, NULL), OTV_E_ARG);
  otv_glyph_points none = {NULL, NULL, NULL, 0, 0, 0, 0, 0};
  CHECK_EQ(otv_raster_add_points(R, &none), OTV_E_OK); /* nothing to add */
  otv_glyph_points nopts = g;
  nopts.points = NULL;
  CHECK_EQ(otv_raster_add_points(R, &nopts), OTV_E_ARG);
  otv_glyph_points noends = g;
  noends.contour_ends = NULL;
  CHECK_EQ(otv_raster_add_points(R, &noends), OTV_E_ARG);
  uint16_t down[2] = {3, 3}, beyond[2] = {3, 6};
  otv_glyph_points bad = g;
  bad.contour_ends = down;
  CHECK_EQ(otv_raster_add_points(R, &bad), OTV_E_ARG);
  bad.contour_ends = beyond;
  CHECK_EQ(otv_raster_add_points(R, &bad), OTV_E_ARG);
  /* nothing was added by the argument errors: the path is still empty */
  otv_raster_box box;
  CHECK(!otv_raster_bounds(R, &box));
  /* bad sequences: kept, and render reports them and draws nothing */
  static uint8_t seqs[][6] = {
      {OTV_POINT_CUBIC, 1, 1, 1, 1, 1},               /* starts with a cubic control */
      {1, OTV_POINT_CUBIC, 1, 1, 1, 1},               /* a lone cubic control */
      {1, OTV_POINT_CUBIC, OTV_POINT_CUBIC, 0, 1, 1}, /* a cubic pair then off-curve */
      {1, 0, OTV_POINT_CUBIC, OTV_POINT_CUBIC, 1, 1}, /* quadratic next to a cubic */
      {1, 1, OTV_POINT_CUBIC, OTV_POINT_CUBIC, 1, 1}, /* fine (closes to the start) ... */
  };
  for (int k = 0; k < 5; k++) {
    otv_glyph_points s = g;
    s.point_flags = seqs[k];
    memset(buf, 0, sizeof buf);
    otv_status want = k < 4 ? OTV_E_BAD_VALUE : OTV_E_OK;
    CHECK_EQ(otv_raster_add_points(R, &s), want);
    CHECK_EQ(otv_raster_render(R, buf, 16, 16, 16, 0), want);
    long inked = 0;
    for (int i = 0; i < 16 * 16; i++) inked += buf[i] != 0;
    CHECK(k < 4 ? inked == 0 : inked > 0);
  }
  /* a non-finite point */
  otv_point nan_p[6];
  memcpy(nan_p, p, sizeof p);
  nan_p[2].x = NAN;
  otv_glyph_points n = g;
  n.points = nan_p;
  otv_raster_begin(R, 16, 16);
  CHECK_EQ(otv_raster_add_points(R, &n), OTV_E_BAD_VALUE);
  CHECK_EQ(otv_raster_render(R, buf, 16, 16, 16, 0), OTV_E_BAD_VALUE);
  /* the rasterizer is usable again after the error */
  otv_raster_begin(R, 16, 16);
  CHECK_EQ(otv_raster_add_points(R, &g), OTV_E_OK);
  CHECK_EQ(otv_raster_render(R, buf, 16, 16, 16, OTV_RASTER_CLEAR), OTV_E_OK);
  CHECK_EQ(buf[5 * 16 + 5], 255); /* inside the square */
  CHECK_EQ(buf[14 * 16 + 14], 0);
}

/* A contour the pen left open is closed first, as a move_to would. */
static void test_open_pen_contour(void)
{
  otv_point p[4] = {{20, 2}, {30, 2}, {30, 12}, {20, 12}};
  uint16_t end = 3;
  otv_glyph_points g = {p, NULL, &end, 4, 1, 4, 1, 0};
  uint8_t a[32 * 16], b[32 * 16];
  memset(a, 0, sizeof a);
  memset(b, 0, sizeof b);
  P->move_to(R, 2, 2);
  P->line_to(R, 12, 2);
  P->line_to(R, 12, 12); /* left open: the closing line makes a triangle */
  CHECK_EQ(otv_raster_add_points(R, &g), OTV_E_OK);
  CHECK_EQ(otv_raster_render(R, a, 32, 16, 32, 0), OTV_E_OK);
  P->move_to(R, 2, 2);
  P->line_to(R, 12, 2);
  P->line_to(R, 12, 12);
  P->close_path(R);
  ref_draw(p, NULL, &end, 1);
  CHECK_EQ(otv_raster_render(R, b, 32, 16, 32, 0), OTV_E_OK);
  CHECK(memcmp(a, b, sizeof a) == 0);
  CHECK_EQ(a[4 * 32 + 10], 255); /* inside the triangle */
  CHECK_EQ(a[10 * 32 + 4], 0);   /* outside it */
}

/* A contour longer than the vertex buffer (2048): it is run in pieces, the same image either
 * way in and in both modes, and the exact area of the polygon. */
static void test_long_contour(void)
{
  enum { N = 5000 };
  static otv_point p[N];
  uint16_t end = N - 1;
  double area = 0;
  for (int i = 0; i < N; i++) {
    double a = 2 * M_PI * i / N, rad = 20 + 6 * sin(7 * a); /* a wavy ring */
    p[i] = (otv_point){(float)(32 + rad * cos(a)), (float)(32 + rad * sin(a))};
  }
  for (int i = 0; i < N; i++) {
    otv_point a = p[i], b = p[(i + 1) % N];
    area += 0.5 * ((double)a.x * b.y - (double)b.x * a.y);
  }
  otv_glyph_points g = {p, NULL, &end, N, 1, N, 1, 0};
  CHECK_EQ(compare(&g, 64, 64, true, 0), 0);
  CHECK_EQ(compare(&g, 64, 64, false, 0), 0);
  double sum = 0;
  for (int i = 0; i < 64 * 64; i++) sum += img_pts[i] / 255.0;
  printf("long contour: coverage %.3f, exact %.3f\n", sum, fabs(area));
  CHECK(fabs(sum - fabs(area)) <= 0.005 * fabs(area));
  /* and the pen's direct and stored images agree (one level: x measured from other origins) */
  static uint8_t direct[64 * 64], stored[64 * 64];
  memset(direct, 0, sizeof direct);
  memset(stored, 0, sizeof stored);
  otv_raster_begin(R, 64, 64);
  ref_draw(p, NULL, &end, 1);
  CHECK_EQ(otv_raster_render(R, direct, 64, 64, 64, 0), OTV_E_OK);
  ref_draw(p, NULL, &end, 1);
  CHECK_EQ(otv_raster_render(R, stored, 64, 64, 64, 0), OTV_E_OK);
  int worst = 0;
  for (int i = 0; i < 64 * 64; i++) {
    int d = abs(direct[i] - stored[i]);
    worst = d > worst ? d : worst;
  }
  CHECK(worst <= 1);
}

/* No allocation once the buffers have grown to the largest outline. */
static void test_no_alloc_when_warm(void)
{
  h_alloc al = {0, 0, 0, 0};
  otv_options opt = {h_realloc, &al, 0};
  otv_raster *r;
  CHECK_EQ(otv_raster_create(&opt, &r), OTV_E_OK);
  enum { N = 300 };
  static otv_point p[N];
  static uint16_t ends[N / 3];
  for (int i = 0; i < N; i++) p[i] = (otv_point){(float)(i % 40) + 0.5f, (float)(i / 40) * 3.0f};
  for (int c = 0; c < N / 3; c++) ends[c] = (uint16_t)(3 * c + 2);
  otv_glyph_points g = {p, NULL, ends, N, N / 3, N, N / 3, 0};
  static uint8_t buf[64 * 64];
  long calls = 0;
  for (int round = 0; round < 3; round++) {
    if (round == 2) calls = al.calls;
    for (int k = 1; k <= 3; k++) {
      g.point_count = N * k / 3;
      g.contour_count = N / 3 * k / 3;
      otv_raster_begin(r, 64, 64);
      CHECK_EQ(otv_raster_add_points(r, &g), OTV_E_OK);
      CHECK_EQ(otv_raster_render(r, buf, 64, 64, 64, OTV_RASTER_CLEAR), OTV_E_OK);
      CHECK_EQ(otv_raster_add_points(r, &g), OTV_E_OK); /* stored path */
      CHECK_EQ(otv_raster_render(r, buf, 64, 64, 64, 0), OTV_E_OK);
    }
  }
  CHECK_EQ(al.calls - calls, 0);
  otv_raster_destroy(r);
  CHECK_EQ(al.live_blocks, 0);
}

int main(void)
{
  if (otv_raster_create(NULL, &R)) return 1;
  P = otv_raster_pen();
  test_real_glyphs();
  test_all_off_curve();
  test_errors();
  test_open_pen_contour();
  test_long_contour();
  test_no_alloc_when_warm();
  otv_raster_destroy(R);
  return h_done("test_raster_points");
}

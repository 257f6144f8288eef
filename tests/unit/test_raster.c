/*
 * test_raster.c - the rasterizer (src/raster.c) on synthetic shapes.
 *
 * Oracles, all independent of the code under test:
 *   - exact areas: squares, triangles, parallelograms by formula; Bezier shapes by the shoelace
 *     formula over a 20000-piece flattening in double (error ~1e-8 of the area);
 *   - exact per-pixel coverage of polygons: each pixel square clipped against the polygon
 *     (Sutherland-Hodgman, exact for a convex window) and measured with the shoelace formula;
 *   - coverage rules worked by hand (overlaps, holes, compositing arithmetic).
 */
#include "harness.h"
#include "raster/raster.h"

#include <math.h>

#ifndef M_PI
#  define M_PI 3.14159265358979323846
#endif

#define W 64
#define H 64

typedef struct pt {
  double x, y;
} pt;

static otv_raster *R;
static const otv_pen *P;

static double cov_sum(const uint8_t *b, int w, int h)
{
  double s = 0;
  for (int i = 0; i < w * h; i++) s += b[i];
  return s / 255.0;
}

static void poly(const pt *p, int n)
{
  P->move_to(R, (float)p[0].x, (float)p[0].y);
  for (int i = 1; i < n; i++) P->line_to(R, (float)p[i].x, (float)p[i].y);
  P->close_path(R);
}

static double shoelace(const pt *p, int n)
{
  double a = 0;
  for (int i = 0; i < n; i++) {
    const pt *q = &p[(i + 1) % n];
    a += p[i].x * q->y - q->x * p[i].y;
  }
  return a / 2;
}

/* Clip polygon against x >= x0 (side 0), x <= x1 (1), y >= y0 (2), y <= y1 (3). */
static int clip_side(const pt *in, int n, pt *out, int side, double v)
{
  int m = 0;
  for (int i = 0; i < n; i++) {
    pt a = in[i], b = in[(i + 1) % n];
    double ca = side < 2 ? a.x : a.y, cb = side < 2 ? b.x : b.y;
    bool ia = (side & 1) ? ca <= v : ca >= v, ib = (side & 1) ? cb <= v : cb >= v;
    if (ia) out[m++] = a;
    if (ia != ib) {
      double t = (v - ca) / (cb - ca);
      out[m++] = (pt){a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)};
    }
  }
  return m;
}

/* Exact coverage (0..1) of pixel (px, py) by a simple polygon (any orientation). */
static double exact_pixel(const pt *p, int n, int px, int py)
{
  static pt a[4096], b[4096];
  memcpy(a, p, (size_t)n * sizeof *p);
  n = clip_side(a, n, b, 0, px);
  n = clip_side(b, n, a, 1, px + 1);
  n = clip_side(a, n, b, 2, py);
  n = clip_side(b, n, a, 3, py + 1);
  return n < 3 ? 0 : fabs(shoelace(a, n));
}

/* Render a polygon into a zeroed W x H buffer and compare each pixel with the exact coverage.
 * Returns the largest difference in 8-bit levels. */
static int check_polygon(const pt *p, int n)
{
  static uint8_t buf[W * H];
  memset(buf, 0, sizeof buf);
  poly(p, n);
  CHECK_EQ(otv_raster_render(R, buf, W, H, W, 0), OTV_E_OK);
  int worst = 0;
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      int want = (int)(exact_pixel(p, n, x, y) * 255 + 0.5);
      int d = abs(want - buf[y * W + x]);
      if (d > worst) worst = d;
    }
  return worst;
}

/* A circle of radius rad at (cx, cy) made of four cubics (kappa 0.5522847498), device space. */
static void circle_cubic(double cx, double cy, double rad, bool clockwise)
{
  double k = 0.5522847498 * rad, s = clockwise ? -1 : 1;
  P->move_to(R, (float)(cx + rad), (float)cy);
  P->cubic_to(R, (float)(cx + rad), (float)(cy + s * k), (float)(cx + k), (float)(cy + s * rad),
              (float)cx, (float)(cy + s * rad));
  P->cubic_to(R, (float)(cx - k), (float)(cy + s * rad), (float)(cx - rad), (float)(cy + s * k),
              (float)(cx - rad), (float)cy);
  P->cubic_to(R, (float)(cx - rad), (float)(cy - s * k), (float)(cx - k), (float)(cy - s * rad),
              (float)cx, (float)(cy - s * rad));
  P->cubic_to(R, (float)(cx + k), (float)(cy - s * rad), (float)(cx + rad), (float)(cy - s * k),
              (float)(cx + rad), (float)cy);
  P->close_path(R);
}

/* Exact area of that shape: fine flattening + shoelace in double. */
static double circle_cubic_area(double rad)
{
  static pt p[4 * 5000];
  double k = 0.5522847498 * rad;
  pt c[4][4] = {{{rad, 0}, {rad, k}, {k, rad}, {0, rad}},
                {{0, rad}, {-k, rad}, {-rad, k}, {-rad, 0}},
                {{-rad, 0}, {-rad, -k}, {-k, -rad}, {0, -rad}},
                {{0, -rad}, {k, -rad}, {rad, -k}, {rad, 0}}};
  int n = 0;
  for (int s = 0; s < 4; s++)
    for (int i = 0; i < 5000; i++) {
      double t = i / 5000.0, u = 1 - t;
      double b0 = u * u * u, b1 = 3 * u * u * t, b2 = 3 * u * t * t, b3 = t * t * t;
      p[n++] = (pt){b0 * c[s][0].x + b1 * c[s][1].x + b2 * c[s][2].x + b3 * c[s][3].x,
                    b0 * c[s][0].y + b1 * c[s][1].y + b2 * c[s][2].y + b3 * c[s][3].y};
    }
  return fabs(shoelace(p, n));
}

/* Circle of 8 quadratic arcs (control points on the tangents), and its exact area. */
static void circle_quad(double cx, double cy, double rad)
{
  double step = M_PI / 4, cr = rad / cos(step / 2);
  P->move_to(R, (float)(cx + rad), (float)cy);
  for (int i = 0; i < 8; i++) {
    double a = (i + 0.5) * step, b = (i + 1) * step;
    P->quad_to(R, (float)(cx + cr * cos(a)), (float)(cy + cr * sin(a)), (float)(cx + rad * cos(b)),
               (float)(cy + rad * sin(b)));
  }
  P->close_path(R);
}

static double circle_quad_area(double rad)
{
  static pt p[8 * 2500];
  double step = M_PI / 4, cr = rad / cos(step / 2);
  int n = 0;
  for (int i = 0; i < 8; i++) {
    pt p0 = {rad * cos(i * step), rad * sin(i * step)};
    pt p1 = {cr * cos((i + 0.5) * step), cr * sin((i + 0.5) * step)};
    pt p2 = {rad * cos((i + 1) * step), rad * sin((i + 1) * step)};
    for (int j = 0; j < 2500; j++) {
      double t = j / 2500.0, u = 1 - t;
      p[n++] = (pt){u * u * p0.x + 2 * u * t * p1.x + t * t * p2.x,
                    u * u * p0.y + 2 * u * t * p1.y + t * t * p2.y};
    }
  }
  return fabs(shoelace(p, n));
}

static void rect(double x0, double y0, double x1, double y1)
{
  pt p[4] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
  poly(p, 4);
}

static void test_polygons(void)
{
  /* integer square: exact 255 inside, 0 outside */
  static uint8_t buf[W * H];
  memset(buf, 0, sizeof buf);
  rect(10, 20, 20, 30);
  CHECK_EQ(otv_raster_render(R, buf, W, H, W, 0), OTV_E_OK);
  CHECK_EQ(buf[20 * W + 10], 255);
  CHECK_EQ(buf[29 * W + 19], 255);
  CHECK_EQ(buf[19 * W + 10], 0);
  CHECK_EQ(buf[20 * W + 20], 0);
  CHECK_NEAR(cov_sum(buf, W, H), 100.0, 1e-9);

  /* fractional square: left column 3/4 covered -> 191, corner 3/4 * 1/2 -> 96 */
  memset(buf, 0, sizeof buf);
  rect(2.25, 3.5, 12.75, 9.5);
  CHECK_EQ(otv_raster_render(R, buf, W, H, W, 0), OTV_E_OK);
  CHECK_EQ(buf[5 * W + 2], 191);
  CHECK_EQ(buf[3 * W + 2], 96);
  CHECK_EQ(buf[3 * W + 5], 128);
  CHECK_EQ(buf[5 * W + 12], 191);
  CHECK_NEAR(cov_sum(buf, W, H), 10.5 * 6.0, 10.5 * 6.0 * 0.005);

  /* per-pixel exactness on polygons of every slope, both orientations */
  pt tri[3] = {{3.3, 2.7}, {58.9, 17.25}, {21.1, 61.6}};
  CHECK(check_polygon(tri, 3) <= 1);
  pt tri_r[3] = {{3.3, 2.7}, {21.1, 61.6}, {58.9, 17.25}};
  CHECK(check_polygon(tri_r, 3) <= 1);
  pt thin[3] = {{0.5, 0.5}, {63.5, 1.7}, {0.5, 2.0}};
  CHECK(check_polygon(thin, 3) <= 1);
  pt steep[4] = {{30.1, 0.2}, {31.4, 0.2}, {33.9, 63.8}, {32.2, 63.9}};
  CHECK(check_polygon(steep, 4) <= 1);
  pt concave[6] = {{5, 5}, {60, 8}, {30.5, 30.5}, {59, 59.2}, {7.7, 55}, {20.2, 31}};
  CHECK(check_polygon(concave, 6) <= 1);
  /* a 40-gon star-ish polygon crossing pixel corners at odd angles */
  pt star[40];
  for (int i = 0; i < 40; i++) {
    double a = i * 2 * M_PI / 40, rr = (i & 1) ? 13.3 : 29.1;
    star[i] = (pt){32.1 + rr * cos(a), 31.7 + rr * sin(a)};
  }
  CHECK(check_polygon(star, 40) <= 1);

  /* triangle area */
  memset(buf, 0, sizeof buf);
  poly(tri, 3);
  CHECK_EQ(otv_raster_render(R, buf, W, H, W, 0), OTV_E_OK);
  double ta = fabs(shoelace(tri, 3));
  CHECK_NEAR(cov_sum(buf, W, H), ta, ta * 0.005);
}

static void test_curves(void)
{
  static uint8_t buf[200 * 200];
  /* radii from 4 px: below that the 1/16 px flattening tolerance alone moves a dot's area by
   * up to ~1.5% (the sagitta is no longer small beside the radius) */
  double rads[] = {4.0, 7.5, 20.0, 47.9, 97.0};
  for (int i = 0; i < 5; i++) {
    double rad = rads[i];
    memset(buf, 0, sizeof buf);
    circle_cubic(100.3, 99.6, rad, i & 1);
    CHECK_EQ(otv_raster_render(R, buf, 200, 200, 200, 0), OTV_E_OK);
    double want = circle_cubic_area(rad), got = cov_sum(buf, 200, 200);
    CHECK_NEAR(got, want, want * 0.005);
    /* the circle's centre is full; far outside is empty */
    CHECK_EQ(buf[99 * 200 + 100], rad > 1.5 ? 255 : buf[99 * 200 + 100]);
    CHECK_EQ(buf[0], 0);

    memset(buf, 0, sizeof buf);
    circle_quad(100.3, 99.6, rad);
    CHECK_EQ(otv_raster_render(R, buf, 200, 200, 200, 0), OTV_E_OK);
    want = circle_quad_area(rad);
    got = cov_sum(buf, 200, 200);
    CHECK_NEAR(got, want, want * 0.005);
  }
  /* flattening tolerance: a large circle's coverage along a row through the edge is within
   * 1/16 px of the exact circle's (8-bit rounding adds half a level) */
  memset(buf, 0, sizeof buf);
  circle_cubic(100, 100, 97.0, false);
  CHECK_EQ(otv_raster_render(R, buf, 200, 200, 200, 0), OTV_E_OK);
  double sum_row = 0;
  for (int x = 0; x < 200; x++) sum_row += buf[150 * 200 + x] / 255.0;
  /* chord length of the circle x^2 + y^2 = r^2 through the row band 150..151 (centre 100):
   * integrate width 2*sqrt(r^2 - y^2) over y in [50, 51] */
  double chord = 0;
  for (int k = 0; k < 1000; k++) {
    double y = 50 + (k + 0.5) / 1000;
    chord += 2 * sqrt(97.0 * 97.0 - y * y) / 1000;
  }
  CHECK_NEAR(sum_row, chord, 2 * (1.0 / 16 + 0.5 / 255) + 0.01);
}

static void test_overlap(void)
{
  static uint8_t buf[W * H];
  /* two same-direction squares overlapping: union area, no seam where B's edge crosses A */
  memset(buf, 0, sizeof buf);
  rect(2, 2, 30, 30);
  rect(15.5, 10.3, 45.5, 20.7);
  CHECK_EQ(otv_raster_render(R, buf, W, H, W, 0), OTV_E_OK);
  double want = 28 * 28 + 30 * 10.4 - 14.5 * 10.4;
  CHECK_NEAR(cov_sum(buf, W, H), want, want * 0.005);
  CHECK_EQ(buf[15 * W + 15], 255);         /* B's left edge inside A */
  CHECK_EQ(buf[10 * W + 20], 255);         /* B's top edge inside A */
  CHECK_EQ(buf[20 * W + 20], 255);         /* B's bottom edge inside A */
  CHECK_EQ(buf[15 * W + 29], 255);         /* A's right edge inside B */
  CHECK(abs(buf[10 * W + 35] - 178) <= 1); /* B alone: 0.7 of the pixel = 178.5 */

  /* opposite directions: the overlap is a hole under non-zero */
  memset(buf, 0, sizeof buf);
  rect(2, 2, 30, 30);
  pt rev[4] = {{10, 10}, {10, 20}, {20, 20}, {20, 10}};
  poly(rev, 4);
  CHECK_EQ(otv_raster_render(R, buf, W, H, W, 0), OTV_E_OK);
  CHECK_EQ(buf[15 * W + 15], 0);
  CHECK_NEAR(cov_sum(buf, W, H), 28 * 28 - 100, 1e-6);

  /* same direction + even-odd: a hole too */
  memset(buf, 0, sizeof buf);
  rect(2, 2, 30, 30);
  rect(10, 10, 20, 20);
  CHECK_EQ(otv_raster_render(R, buf, W, H, W, OTV_RASTER_EVEN_ODD), OTV_E_OK);
  CHECK_EQ(buf[15 * W + 15], 0);
  CHECK_EQ(buf[5 * W + 5], 255);
  /* ... and non-zero: filled once */
  memset(buf, 0, sizeof buf);
  rect(2, 2, 30, 30);
  rect(10, 10, 20, 20);
  CHECK_EQ(otv_raster_render(R, buf, W, H, W, 0), OTV_E_OK);
  CHECK_EQ(buf[15 * W + 15], 255);
  CHECK_NEAR(cov_sum(buf, W, H), 28 * 28, 1e-6);

  /* an overlapping circle pair (OVERLAP_SIMPLE-like): union area by sampling */
  static uint8_t big[100 * 100];
  memset(big, 0, sizeof big);
  circle_cubic(40, 50, 25, false);
  circle_cubic(62, 50, 25, false);
  CHECK_EQ(otv_raster_render(R, big, 100, 100, 100, 0), OTV_E_OK);
  double d = 22, rr = 25;
  double lens = 2 * rr * rr * acos(d / (2 * rr)) - d / 2 * sqrt(4 * rr * rr - d * d);
  double u = 2 * circle_cubic_area(25) - lens; /* lens from true circles: ~0.03% off */
  CHECK_NEAR(cov_sum(big, 100, 100), u, u * 0.005);
  CHECK_EQ(big[50 * 100 + 51], 255);
  CHECK_EQ(big[50 * 100 + 37], 255); /* second circle's left edge at x = 37 */
  CHECK_EQ(big[50 * 100 + 65], 255); /* first circle's right edge at x = 65 */
}

static void test_transform(void)
{
  static uint8_t buf[W * H];
  /* font units, y up, scale 0.04 (1000-unit square -> 40 px), baseline at y = 50, skew 0.25 */
  otv_transform t = {0.04, 0.25 * 0.04, 0, -0.04, 5.5, 50};
  CHECK_EQ(otv_raster_set_transform(R, &t), OTV_E_OK);
  memset(buf, 0, sizeof buf);
  pt sq[4] = {{0, 0}, {1000, 0}, {1000, 1000}, {0, 1000}};
  poly(sq, 4);
  otv_raster_box bx;
  CHECK(otv_raster_bounds(R, &bx));
  CHECK_EQ(bx.x_min, 5);
  CHECK_EQ(bx.x_max, 56); /* 5.5 + 40 + 10 */
  CHECK_EQ(bx.y_min, 10);
  CHECK_EQ(bx.y_max, 50);
  CHECK_EQ(otv_raster_render(R, buf, W, H, W, 0), OTV_E_OK);
  CHECK_NEAR(cov_sum(buf, W, H), 1600, 1600 * 0.005);
  /* the same parallelogram given in device space matches pixel for pixel */
  pt dev[4] = {{5.5, 50}, {45.5, 50}, {55.5, 10}, {15.5, 10}};
  CHECK_EQ(otv_raster_set_transform(R, NULL), OTV_E_OK);
  int worst = check_polygon(dev, 4);
  CHECK(worst <= 1);
  otv_transform bad = {NAN, 0, 0, 1, 0, 0};
  CHECK_EQ(otv_raster_set_transform(R, &bad), OTV_E_ARG);
}

static void test_clipping(void)
{
  /* a shape rendered into a large buffer and into a small one shifted so that it sticks out on
   * every side must give the same pixels where they overlap */
  static uint8_t big[100 * 100], small[40 * 30];
  memset(big, 0, sizeof big);
  circle_cubic(50.2, 49.7, 33.3, false);
  rect(5.5, 45.25, 95.5, 55.75);
  CHECK_EQ(otv_raster_render(R, big, 100, 100, 100, 0), OTV_E_OK);
  memset(small, 0, sizeof small);
  circle_cubic(50.2 - 30, 49.7 - 35, 33.3, false);
  rect(5.5 - 30, 45.25 - 35, 95.5 - 30, 55.75 - 35);
  CHECK_EQ(otv_raster_render(R, small, 40, 30, 40, 0), OTV_E_OK);
  int worst = 0;
  for (int y = 0; y < 30; y++)
    for (int x = 0; x < 40; x++) {
      int d = abs(small[y * 40 + x] - big[(y + 35) * 100 + x + 30]);
      if (d > worst) worst = d;
    }
  CHECK(worst <= 1);
  /* wholly outside: nothing drawn, OK */
  memset(small, 0, sizeof small);
  rect(-50, -50, -10, -10);
  rect(100, 100, 120, 120);
  CHECK_EQ(otv_raster_render(R, small, 40, 30, 40, 0), OTV_E_OK);
  CHECK_NEAR(cov_sum(small, 40, 30), 0, 0);
  /* wholly left but spanning rows: covers nothing (the contour closes left of the buffer) */
  rect(-50, 0, -10, 30);
  CHECK_EQ(otv_raster_render(R, small, 40, 30, 40, 0), OTV_E_OK);
  CHECK_NEAR(cov_sum(small, 40, 30), 0, 0);
  /* a rectangle from far left into the buffer: columns 0..9 full */
  rect(-1000, 0, 10, 30);
  CHECK_EQ(otv_raster_render(R, small, 40, 30, 40, 0), OTV_E_OK);
  CHECK_NEAR(cov_sum(small, 40, 30), 300, 1e-6);
  /* a stride wider than the width: bytes past the width are untouched */
  static uint8_t strided[10 * 16];
  memset(strided, 7, sizeof strided);
  rect(-5, -5, 50, 50);
  CHECK_EQ(otv_raster_render(R, strided, 10, 10, 16, OTV_RASTER_REPLACE), OTV_E_OK);
  CHECK_EQ(strided[3 * 16 + 9], 255);
  CHECK_EQ(strided[3 * 16 + 10], 7);
  CHECK_EQ(strided[9 * 16 + 15], 7);
}

static void test_bands(void)
{
  /* a wide, tall shape: the accumulation is done in several bands */
  size_t w = 3000, h = 300;
  uint8_t *buf = calloc(w * h, 1);
  circle_cubic(1500, 150, 140, false);
  pt tri[3] = {{10.5, 5.25}, {2990.5, 150.5}, {10.5, 295.75}};
  poly(tri, 3);
  CHECK_EQ(otv_raster_render(R, buf, (unsigned)w, (unsigned)h, w, 0), OTV_E_OK);
  /* the circle lies inside the triangle? no: compute area of the union by supersampling a
   * coarse reference is overkill; use the triangle alone and the circle alone instead */
  double s_both = cov_sum(buf, (int)w, (int)h);
  memset(buf, 0, w * h);
  poly(tri, 3);
  CHECK_EQ(otv_raster_render(R, buf, (unsigned)w, (unsigned)h, w, 0), OTV_E_OK);
  double s_tri = cov_sum(buf, (int)w, (int)h), a_tri = fabs(shoelace(tri, 3));
  CHECK_NEAR(s_tri, a_tri, a_tri * 0.005);
  CHECK(s_both >= s_tri - 1e-6);
  CHECK(s_both <= s_tri + circle_cubic_area(140) + 1e-6);
  free(buf);
}

static void test_composite(void)
{
  uint8_t buf[16 * 16];
  memset(buf, 0, sizeof buf);
  rect(2, 2.5, 10, 10); /* row 2 half covered: 128 */
  CHECK_EQ(otv_raster_render(R, buf, 16, 16, 16, 0), OTV_E_OK);
  CHECK_EQ(buf[2 * 16 + 5], 128);
  rect(2, 2.5, 10, 10);
  CHECK_EQ(otv_raster_render(R, buf, 16, 16, 16, 0), OTV_E_OK);
  CHECK_EQ(buf[2 * 16 + 5], 128 + 128 - (128 * 128 + 127) / 255);
  CHECK_EQ(buf[5 * 16 + 5], 255);
  rect(2, 2.5, 10, 10);
  CHECK_EQ(otv_raster_render(R, buf, 16, 16, 16, OTV_RASTER_REPLACE), OTV_E_OK);
  CHECK_EQ(buf[2 * 16 + 5], 128);
}

static void test_errors(void)
{
  uint8_t buf[16 * 16] = {0};
  /* non-finite coordinates */
  P->move_to(R, 1, 1);
  P->line_to(R, NAN, 5);
  P->line_to(R, 5, 5);
  CHECK_EQ(otv_raster_render(R, buf, 16, 16, 16, 0), OTV_E_BAD_VALUE);
  P->move_to(R, INFINITY, 1);
  CHECK_EQ(otv_raster_render(R, buf, 16, 16, 16, 0), OTV_E_BAD_VALUE);
  /* the error does not stick past the render */
  rect(1, 1, 3, 3);
  CHECK_EQ(otv_raster_render(R, buf, 16, 16, 16, 0), OTV_E_OK);
  CHECK_EQ(buf[1 * 16 + 1], 255);
  rect(1, 1, 3, 3);
  CHECK_EQ(otv_raster_render(R, NULL, 16, 16, 16, 0), OTV_E_ARG);
  rect(1, 1, 3, 3);
  CHECK_EQ(otv_raster_render(R, buf, 16, 16, 8, 0), OTV_E_ARG);
  rect(1, 1, 3, 3);
  CHECK_EQ(otv_raster_render(R, buf, 0x80000000u, 1, 0x80000000u, 0), OTV_E_ARG);
  /* an empty path, a zero-size buffer */
  CHECK_EQ(otv_raster_render(R, buf, 16, 16, 16, 0), OTV_E_OK);
  rect(1, 1, 3, 3);
  CHECK_EQ(otv_raster_render(R, buf, 0, 0, 0, 0), OTV_E_OK);
  otv_raster_box bx;
  CHECK(!otv_raster_bounds(R, &bx));
  /* drawing without move_to is ignored */
  P->line_to(R, 5, 5);
  P->quad_to(R, 5, 5, 6, 9);
  P->cubic_to(R, 5, 5, 6, 9, 1, 1);
  P->close_path(R);
  CHECK(!otv_raster_bounds(R, &bx));
  /* an unclosed contour is closed by render */
  memset(buf, 0, sizeof buf);
  P->move_to(R, 4, 4);
  P->line_to(R, 8, 4);
  P->line_to(R, 8, 8);
  P->line_to(R, 4, 8);
  CHECK(otv_raster_bounds(R, &bx));
  CHECK(bx.x_min == 4 && bx.y_min == 4 && bx.x_max == 8 && bx.y_max == 8);
  CHECK_EQ(otv_raster_render(R, buf, 16, 16, 16, 0), OTV_E_OK);
  CHECK_NEAR(cov_sum(buf, 16, 16), 16, 1e-9);
  /* an open contour along its start's row adds no area: no bounds */
  P->move_to(R, 2, 3);
  P->line_to(R, 9, 3);
  P->line_to(R, 5, 3);
  CHECK(!otv_raster_bounds(R, &bx));
  otv_raster_reset(R);
  /* absurd coordinates: clamped, bounded work, no crash */
  P->move_to(R, -1e30f, -1e30f);
  P->cubic_to(R, 1e30f, -1e30f, 1e30f, 1e30f, -1e30f, 1e30f);
  P->quad_to(R, 3e38f, 0, -1e30f, -1e30f);
  P->close_path(R);
  CHECK_EQ(otv_raster_render(R, buf, 16, 16, 16, 0), OTV_E_OK);
  /* a path of more than 2^22 segments: OTV_E_LIMIT, memory bounded, the next path fine */
  {
    h_alloc la = {0, 0, 0, 0};
    otv_options lopt = {h_realloc, &la, 0};
    otv_raster *lr = NULL;
    CHECK_EQ(otv_raster_create(&lopt, &lr), OTV_E_OK);
    P->move_to(lr, 0, 0);
    for (int i = 0; i < 5000; i++) /* 5000 curves x 1024 pieces */
      P->quad_to(lr, (i & 1) ? 3e6f : -3e6f, 1e6f, (float)(i % 7), (float)(i % 5));
    P->close_path(lr);
    CHECK_EQ(otv_raster_render(lr, buf, 16, 16, 16, 0), OTV_E_LIMIT);
    /* the 2^22-segment cap (64 MiB), the fixed 16 KiB vertex buffer and the object */
    CHECK(la.live_bytes <= (64ll << 20) + (16 << 10) + 4096);
    P->move_to(lr, 1, 1);
    P->line_to(lr, 3, 1);
    P->line_to(lr, 3, 3);
    P->line_to(lr, 1, 3);
    CHECK_EQ(otv_raster_render(lr, buf, 16, 16, 16, 0), OTV_E_OK);
    otv_raster_destroy(lr);
    CHECK_EQ(la.live_blocks, 0);
  }
  otv_raster_reset(R);
  otv_raster_reset(NULL);
  otv_raster_destroy(NULL);
  CHECK_EQ(otv_raster_create(NULL, NULL), OTV_E_ARG);
}

/* Allocation: every failure point gives NOMEM or OK and no leak; no allocation after warm-up. */
static void test_alloc(void)
{
  static uint8_t buf[200 * 200];
  for (long fail = 1; fail < 40; fail++) {
    h_alloc a = {0, fail, 0, 0};
    otv_options opt = {h_realloc, &a, 0};
    otv_raster *r = NULL;
    otv_status st = otv_raster_create(&opt, &r);
    if (st == OTV_E_OK) {
      for (int k = 0; k < 3; k++) {
        P->move_to(r, 10, 10);
        for (int i = 0; i < 300; i++)
          P->line_to(r, (float)(10 + i % 7 * 20), (float)(10 + i % 11 * 15));
        P->close_path(r);
        st = otv_raster_render(r, buf, 200, 200, 200, 0);
        CHECK(st == OTV_E_OK || st == OTV_E_NOMEM);
      }
    } else {
      CHECK_EQ(st, OTV_E_NOMEM);
    }
    otv_raster_destroy(r);
    CHECK_EQ(a.live_blocks, 0);
  }
  h_alloc a = {0, 0, 0, 0};
  otv_options opt = {h_realloc, &a, 0};
  otv_raster *r = NULL;
  CHECK_EQ(otv_raster_create(&opt, &r), OTV_E_OK);
  otv_raster *save = R;
  R = r;
  circle_cubic(100, 100, 90, false);
  CHECK_EQ(otv_raster_render(r, buf, 200, 200, 200, 0), OTV_E_OK);
  long calls = a.calls;
  for (int i = 0; i < 10; i++) {
    circle_cubic(100, 100, 90 - i, i & 1);
    CHECK_EQ(otv_raster_render(r, buf, 200, 200, 200, 0), OTV_E_OK);
  }
  CHECK_EQ(a.calls, calls);
  R = save;
  otv_raster_destroy(r);
  CHECK_EQ(a.live_blocks, 0);
}

/* Shape k of a set that covers direct mode's cases: inside, across each side of a W x H or
 * 40 x 30 buffer, wholly left of it (winding still counts in column 0: here it cancels),
 * wholly outside, tiny, overlapping contours. */
static void direct_shape(int k)
{
  switch (k) {
  case 0: circle_cubic(20.3, 15.7, 11.2, false); break;
  case 1: circle_cubic(-4.2, 17.1, 9.6, true); break;
  case 2: circle_quad(37.6, 27.9, 8.7); break;
  case 3: rect(-9.5, 3.2, -2.1, 20.4); break;
  case 4: {
    pt star[5];
    for (int i = 0; i < 5; i++)
      star[i] = (pt){18 + 22 * cos(i * 4 * M_PI / 5), 3 + 22 * sin(i * 4 * M_PI / 5)};
    poly(star, 5);
    break;
  }
  case 5: {
    pt tri[3] = {{5.1, 5.2}, {5.9, 5.3}, {5.4, 6.0}};
    poly(tri, 3);
    break;
  }
  case 6: circle_quad(20, 15, 38.5); break;
  case 7: rect(70, 80, 90, 95); break;
  default:
    circle_cubic(12.5, 12.5, 9, false);
    circle_cubic(19.5, 14.5, 9, false);
    break;
  }
}

/* otv_raster_begin (direct mode) renders what the stored path renders, leaves no trace in the
 * next render, and checks its size. */
static void test_direct(void)
{
  static uint8_t a[W * H], b[W * H];
  /* block-mask readout (wider than RASTER_DENSE_MAX, 96), dense readouts */
  static const unsigned sizes[3][2] = {{120, W * H / 120}, {W, H}, {40, 30}};
  static const unsigned flag_sets[3] = {0, OTV_RASTER_EVEN_ODD, OTV_RASTER_REPLACE};
  int worst = 0;
  for (int sz = 0; sz < 3; sz++) {
    unsigned w = sizes[sz][0], h = sizes[sz][1];
    for (int f = 0; f < 3; f++)
      for (int k = 0; k < 9; k++) {
        /* a non-zero background, so compositing and REPLACE's untouched pixels are checked */
        for (unsigned i = 0; i < w * h; i++) a[i] = b[i] = (uint8_t)(i * 37 % 7 == 0 ? 90 : 0);
        direct_shape(k);
        CHECK_EQ(otv_raster_render(R, a, w, h, w, flag_sets[f]), OTV_E_OK);
        CHECK_EQ(otv_raster_begin(R, w, h), OTV_E_OK);
        direct_shape(k);
        CHECK_EQ(otv_raster_render(R, b, w, h, w, flag_sets[f]), OTV_E_OK);
        for (unsigned i = 0; i < w * h; i++) {
          int d = abs(a[i] - b[i]);
          if (d > worst) worst = d;
        }
      }
  }
  /* the same arithmetic on other coordinates (absolute vs band-relative): rounding may move a
   * level, no more */
  CHECK(worst <= 1);
  printf("direct vs stored path: largest difference %d levels\n", worst);

  /* OTV_RASTER_CLEAR on a dirty buffer: the image of a cleared buffer and a plain render, in
   * both modes, for shapes inside, across the sides, wholly outside, and an empty path */
  for (int k = -1; k < 9; k++)
    for (int direct = 0; direct < 2; direct++) {
      memset(a, 0, sizeof a);
      if (k >= 0) direct_shape(k);
      CHECK_EQ(otv_raster_render(R, a, 40, 30, 41, 0), OTV_E_OK);
      memset(b, 0xa5, sizeof b);
      if (direct) CHECK_EQ(otv_raster_begin(R, 40, 30), OTV_E_OK);
      if (k >= 0) direct_shape(k);
      CHECK_EQ(otv_raster_render(R, b, 40, 30, 41, OTV_RASTER_CLEAR), OTV_E_OK);
      for (int y = 0; y < 30; y++) CHECK_EQ(memcmp(a + y * 41, b + y * 41, 40), 0);
      for (int y = 0; y < 30; y++) CHECK_EQ(b[y * 41 + 40], 0xa5); /* past the width: untouched */
    }

  /* a size other than the announced one: OTV_E_ARG, the path is emptied, nothing is left */
  memset(a, 0, sizeof a);
  CHECK_EQ(otv_raster_begin(R, 40, 30), OTV_E_OK);
  direct_shape(0);
  CHECK_EQ(otv_raster_render(R, a, 41, 30, 41, 0), OTV_E_ARG);
  for (size_t i = 0; i < sizeof a; i++) CHECK_EQ(a[i], 0);
  /* reset discards what was accumulated; the next direct render starts clean */
  CHECK_EQ(otv_raster_begin(R, 40, 30), OTV_E_OK);
  direct_shape(6);
  otv_raster_reset(R);
  CHECK_EQ(otv_raster_begin(R, 40, 30), OTV_E_OK);
  direct_shape(5);
  CHECK_EQ(otv_raster_render(R, a, 40, 30, 40, 0), OTV_E_OK);
  memset(b, 0, sizeof b);
  direct_shape(5);
  CHECK_EQ(otv_raster_render(R, b, 40, 30, 40, 0), OTV_E_OK);
  CHECK_EQ(memcmp(a, b, 40 * 30), 0);
  /* begin again discards the previous announcement's path */
  CHECK_EQ(otv_raster_begin(R, W, H), OTV_E_OK);
  direct_shape(6);
  CHECK_EQ(otv_raster_begin(R, W, H), OTV_E_OK);
  CHECK_EQ(otv_raster_render(R, a, W, H, W, 0), OTV_E_OK); /* empty path */
  memset(a, 0, sizeof a);
  CHECK_EQ(otv_raster_begin(R, W, H), OTV_E_OK);
  direct_shape(0);
  CHECK_EQ(otv_raster_render(R, a, W, H, W, 0), OTV_E_OK);
  memset(b, 0, sizeof b);
  direct_shape(0);
  CHECK_EQ(otv_raster_render(R, b, W, H, W, 0), OTV_E_OK);
  CHECK_EQ(memcmp(a, b, sizeof a), 0);
  /* a non-finite point is BAD_VALUE in direct mode too, and leaves nothing behind */
  CHECK_EQ(otv_raster_begin(R, W, H), OTV_E_OK);
  direct_shape(0);
  P->move_to(R, 3, 3);
  P->line_to(R, NAN, 3);
  CHECK_EQ(otv_raster_render(R, a, W, H, W, 0), OTV_E_BAD_VALUE);
  memset(a, 0, sizeof a);
  CHECK_EQ(otv_raster_begin(R, W, H), OTV_E_OK);
  direct_shape(2);
  CHECK_EQ(otv_raster_render(R, a, W, H, W, 0), OTV_E_OK);
  memset(b, 0, sizeof b);
  direct_shape(2);
  CHECK_EQ(otv_raster_render(R, b, W, H, W, 0), OTV_E_OK);
  CHECK_EQ(memcmp(a, b, sizeof a), 0);
  /* arguments; 0 x 0 and a target over 2^20 pixels keep the stored path (same result) */
  CHECK_EQ(otv_raster_begin(NULL, 1, 1), OTV_E_ARG);
  CHECK_EQ(otv_raster_begin(R, 0x80000000u, 1), OTV_E_ARG);
  CHECK_EQ(otv_raster_begin(R, 0, 0), OTV_E_OK);
  static uint8_t big[1100 * 1000], big2[1100 * 1000];
  CHECK_EQ(otv_raster_begin(R, 1100, 1000), OTV_E_OK);
  circle_cubic(600.5, 500.25, 420, false);
  CHECK_EQ(otv_raster_render(R, big, 1100, 1000, 1100, 0), OTV_E_OK);
  circle_cubic(600.5, 500.25, 420, false);
  CHECK_EQ(otv_raster_render(R, big2, 1100, 1000, 1100, 0), OTV_E_OK);
  CHECK_EQ(memcmp(big, big2, sizeof big), 0);
  CHECK_NEAR(cov_sum(big, 1100, 1000), circle_cubic_area(420), circle_cubic_area(420) * 0.005);

  /* allocation failures in begin: NOMEM or OK, the rasterizer stays usable, nothing leaks */
  for (long fail = 1; fail < 8; fail++) {
    h_alloc al = {0, fail, 0, 0};
    otv_options opt = {h_realloc, &al, 0};
    otv_raster *r = NULL;
    otv_status st = otv_raster_create(&opt, &r);
    if (st == OTV_E_OK) {
      otv_raster *save = R;
      R = r;
      for (int k = 0; k < 3; k++) {
        st = otv_raster_begin(r, W, H);
        CHECK(st == OTV_E_OK || st == OTV_E_NOMEM);
        direct_shape(k);
        st = otv_raster_render(r, a, W, H, W, 0);
        CHECK(st == OTV_E_OK || st == OTV_E_NOMEM);
      }
      R = save;
    }
    otv_raster_destroy(r);
    CHECK_EQ(al.live_blocks, 0);
  }
}

/* The readout exists twice (SSE2 and, chosen at run time, AVX2; otv_raster_use_sse2 forces the
 * first): both must give the same bytes, for every row width 1..40 and some wide ones (dense
 * and block-mask readouts, the partial last group of 1..7 pixels), each flag, stored and direct
 * mode, over a non-zero background. Also, for the narrow widths, the coverage sum of a shape
 * against its exact area. On a CPU without AVX2 both rasterizers take the SSE2 copy. */
static void test_readout_copies(void)
{
  static uint8_t a[200 * 60], b[200 * 60];
  otv_raster *R2 = NULL, *save = R;
  CHECK_EQ(otv_raster_create(NULL, &R2), OTV_E_OK);
  otv_raster_use_sse2(R2);
  static const unsigned flag_sets[4] = {0, OTV_RASTER_REPLACE, OTV_RASTER_CLEAR,
                                        OTV_RASTER_EVEN_ODD};
  long differ = 0, images = 0;
  for (unsigned w = 1; w <= 200; w += w < 40 ? 1 : 37) {
    unsigned h = 60;
    for (int f = 0; f < 4; f++)
      for (int direct = 0; direct < 2; direct++)
        for (int k = 0; k < 3; k++) {
          for (int which = 0; which < 2; which++) {
            uint8_t *buf = which ? b : a;
            R = which ? R2 : save;
            for (unsigned i = 0; i < w * h; i++) buf[i] = (uint8_t)(i * 37 % 11 == 0 ? 200 : 0);
            if (direct) CHECK_EQ(otv_raster_begin(R, w, h), OTV_E_OK);
            double cx = w * 0.5 + 0.3, r = w * 0.5 - 0.2;
            if (k == 0) circle_cubic(cx, 30.4, r < 0.3 ? 0.3 : r, false);
            if (k == 1) circle_quad(cx + 0.1, 29.7, r < 0.3 ? 0.3 : r + 0.05);
            if (k == 2) rect(0.35, 2.6, w - 0.2, 57.3);
            CHECK_EQ(otv_raster_render(R, buf, w, h, w, flag_sets[f]), OTV_E_OK);
          }
          images++;
          if (memcmp(a, b, w * h)) differ++;
          if (f == 2 && k == 2) {
            /* the exact area of the rectangle (CLEAR: the image is the coverage alone) */
            double area = (w - 0.2 - 0.35) * (57.3 - 2.6);
            CHECK_NEAR(cov_sum(a, (int)w, (int)h), area, area * 0.002 + 0.01);
          }
        }
  }
  R = save;
  otv_raster_destroy(R2);
  CHECK_EQ(differ, 0);
  printf("readout copies: %ld images, %ld differ\n", images, differ);
}

int main(void)
{
  CHECK_EQ(otv_raster_create(NULL, &R), OTV_E_OK);
  P = otv_raster_pen();
  test_polygons();
  test_curves();
  test_overlap();
  test_transform();
  test_clipping();
  test_bands();
  test_composite();
  test_errors();
  test_alloc();
  test_direct();
  test_readout_copies();
  otv_raster_destroy(R);
  return h_done("test_raster");
}

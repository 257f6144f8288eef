/*
 * raster.c - the anti-aliased scanline rasterizer (public API in otvar.h, "Rasterizer").
 *
 * Method: exact area coverage by signed-area accumulation. Every line segment of the (flattened)
 * path adds, for each pixel row it crosses, its signed height `d` split between two cells of a
 * dense accumulation row: the cell of the pixel it passes through gets d * (1 - m) and the next
 * cell d * m, where m is the mean x position of the segment inside that pixel. A running sum along
 * the row then yields, for each pixel, the signed area covered (the winding-weighted area to the
 * left of the edges), whose magnitude clamped to 1 is the coverage under the non-zero rule: the
 * same definition as FreeType's smooth rasterizer, so overlapping contours of one direction add up
 * and clamp to full coverage, with no seam and no double coverage.
 *
 * Curves are transformed to device space (affine maps commute with Bezier evaluation) and cut
 * into n uniform pieces with n from Wang's bound: the distance from a degree-d Bezier to the
 * polyline through n + 1 uniform samples is at most d(d-1)/8 * max|second difference| / n^2, so
 * n = ceil(sqrt(d(d-1)/8 * L / tol)) with tol = 1/16 pixel keeps the flattening error below
 * 1/16 pixel.
 *
 * shift_note: chords of a convex arc all lie on its inner side, so a plain polyline loses area
 * systematically (2/3 * chord * sagitta per piece: a few percent of a small dot). The sagitta of
 * a piece of parameter length h is -h^2/8 B''(t); moving each interior vertex by two thirds of it,
 * -h^2/12 B''(t), restores the area to leading order while the polyline stays within 2/3 of the
 * sagitta (so within the tolerance) of the curve. End points stay on the curve.
 *
 * Memory: the path's segments and the accumulation rows live in buffers owned by the rasterizer
 * that only grow; rows are processed in bands so the accumulation buffer stays small however
 * large the target buffer is.
 */
#include "internal.h"

#include <float.h>

#define RASTER_TOL (1.0 / 16.0)     /* flattening tolerance, pixels */
#define RASTER_MAX_PIECES 1024      /* most line pieces per curve (a curve ~1e5 px long) */
#define RASTER_COORD_LIMIT 4194304.0 /* |device coordinate| clamp (2^22): keeps float math sane */
#define RASTER_BAND_CELLS 65536     /* accumulation cells per band (256 KiB of floats) */

typedef struct seg {
  float x0, y0, x1, y1;
} seg;

struct otv_raster {
  otv_alloc al;
  otv_transform t;
  seg *segs;
  size_t seg_count, seg_cap;
  float *acc;
  size_t acc_cap;
  float min_x, min_y, max_x, max_y; /* bounds of segment end points (device space) */
  float start_x, start_y, cur_x, cur_y; /* device space */
  bool open;                        /* a contour is open (move_to seen, not closed) */
  otv_status status;                /* sticky error of the current path */
};

/* ---- path building ---- */

static void path_clear(otv_raster *r)
{
  r->seg_count = 0;
  r->open = false;
  r->status = OTV_E_OK;
  r->min_x = r->min_y = FLT_MAX;
  r->max_x = r->max_y = -FLT_MAX;
}

static float clampc(double v)
{
  if (v > RASTER_COORD_LIMIT) v = RASTER_COORD_LIMIT;
  if (v < -RASTER_COORD_LIMIT) v = -RASTER_COORD_LIMIT;
  return (float)v;
}

/* Transform a point; false (and a sticky BAD_VALUE) for non-finite input. */
static bool xform(otv_raster *r, float x, float y, float *ox, float *oy)
{
  double px = r->t.xx * x + r->t.xy * y + r->t.dx;
  double py = r->t.yx * x + r->t.yy * y + r->t.dy;
  if (!isfinite(px) || !isfinite(py)) {
    if (!r->status) r->status = OTV_E_BAD_VALUE;
    return false;
  }
  *ox = clampc(px);
  *oy = clampc(py);
  return true;
}

static void add_seg(otv_raster *r, float x0, float y0, float x1, float y1)
{
  if (y0 == y1) return; /* horizontal: adds no area */
  if (r->seg_count == r->seg_cap) {
    if (r->status) return;
    void *p = r->segs;
    if (otv_mem_reserve(&r->al, &p, &r->seg_cap, r->seg_count + 1, sizeof(seg))) {
      r->status = OTV_E_NOMEM;
      return;
    }
    r->segs = p;
  }
  seg *s = &r->segs[r->seg_count++];
  s->x0 = x0;
  s->y0 = y0;
  s->x1 = x1;
  s->y1 = y1;
  if (x0 < r->min_x) r->min_x = x0;
  if (x0 > r->max_x) r->max_x = x0;
  if (x1 < r->min_x) r->min_x = x1;
  if (x1 > r->max_x) r->max_x = x1;
  if (y0 < r->min_y) r->min_y = y0;
  if (y0 > r->max_y) r->max_y = y0;
  if (y1 < r->min_y) r->min_y = y1;
  if (y1 > r->max_y) r->max_y = y1;
}

static void line_dev(otv_raster *r, float x, float y)
{
  add_seg(r, r->cur_x, r->cur_y, x, y);
  r->cur_x = x;
  r->cur_y = y;
}

static void close_contour(otv_raster *r)
{
  if (r->open && (r->cur_x != r->start_x || r->cur_y != r->start_y))
    line_dev(r, r->start_x, r->start_y);
  r->open = false;
}

static void pen_move(void *ctx, float x, float y)
{
  otv_raster *r = ctx;
  float px, py;
  close_contour(r);
  if (!xform(r, x, y, &px, &py)) return;
  r->start_x = r->cur_x = px;
  r->start_y = r->cur_y = py;
  r->open = true;
}

static void pen_line(void *ctx, float x, float y)
{
  otv_raster *r = ctx;
  float px, py;
  if (!r->open || !xform(r, x, y, &px, &py)) return;
  line_dev(r, px, py);
}

static unsigned pieces_for(double l, double k)
{
  /* n = ceil(sqrt(k * L / tol)), at least 1 */
  double n = ceil(sqrt(k * l / RASTER_TOL));
  if (!(n >= 1)) return 1;
  if (n > RASTER_MAX_PIECES) return RASTER_MAX_PIECES;
  return (unsigned)n;
}

static void pen_quad(void *ctx, float cx, float cy, float x, float y)
{
  otv_raster *r = ctx;
  float x1, y1, x2, y2;
  if (!r->open || !xform(r, cx, cy, &x1, &y1) || !xform(r, x, y, &x2, &y2)) return;
  double x0 = r->cur_x, y0 = r->cur_y;
  double ddx = x0 - 2.0 * x1 + x2, ddy = y0 - 2.0 * y1 + y2;
  unsigned n = pieces_for(sqrt(ddx * ddx + ddy * ddy), 0.25);
  /* B(t) = (ddx t + 2 (x1 - x0)) t + x0. Interior vertices move by -h^2/12 B'' (B'' = 2 dd):
   * two thirds of each piece's sagitta, so the polyline keeps the curve's area (see
   * shift_note) */
  double bx = 2.0 * (x1 - x0), by = 2.0 * (y1 - y0), inv = 1.0 / n;
  double sx = -ddx * inv * inv / 6.0, sy = -ddy * inv * inv / 6.0;
  for (unsigned i = 1; i < n; i++) {
    double t = i * inv;
    line_dev(r, (float)((ddx * t + bx) * t + x0 + sx), (float)((ddy * t + by) * t + y0 + sy));
  }
  line_dev(r, x2, y2);
}

static void pen_cubic(void *ctx, float c1x, float c1y, float c2x, float c2y, float x, float y)
{
  otv_raster *r = ctx;
  float x1, y1, x2, y2, x3, y3;
  if (!r->open || !xform(r, c1x, c1y, &x1, &y1) || !xform(r, c2x, c2y, &x2, &y2) ||
      !xform(r, x, y, &x3, &y3))
    return;
  double x0 = r->cur_x, y0 = r->cur_y;
  double ax = x0 - 2.0 * x1 + x2, ay = y0 - 2.0 * y1 + y2;
  double bx = x1 - 2.0 * x2 + x3, by = y1 - 2.0 * y2 + y3;
  double l = fmax(sqrt(ax * ax + ay * ay), sqrt(bx * bx + by * by));
  unsigned n = pieces_for(l, 0.75);
  /* power basis: B(t) = ((px t + qx) t + rx) t + x0, B''(t) = 6 px t + 2 qx; interior vertices
   * move by -h^2/12 B''(t) (see shift_note) */
  double px = x3 - x0 + 3.0 * (x1 - x2), py = y3 - y0 + 3.0 * (y1 - y2);
  double qx = 3.0 * ax, qy = 3.0 * ay;
  double rx = 3.0 * (x1 - x0), ry = 3.0 * (y1 - y0), inv = 1.0 / n, k = -inv * inv / 12.0;
  for (unsigned i = 1; i < n; i++) {
    double t = i * inv;
    double sx = k * (6.0 * px * t + 2.0 * qx), sy = k * (6.0 * py * t + 2.0 * qy);
    line_dev(r, (float)(((px * t + qx) * t + rx) * t + x0 + sx),
             (float)(((py * t + qy) * t + ry) * t + y0 + sy));
  }
  line_dev(r, x3, y3);
}

static void pen_close(void *ctx) { close_contour(ctx); }

static const otv_pen raster_pen = {pen_move, pen_line, pen_quad, pen_cubic, pen_close};

const otv_pen *otv_raster_pen(void) { return &raster_pen; }

/* ---- accumulation ---- */

/* Add a piece of edge lying inside one pixel row, from x = xa to x = xb (either order), of
 * signed height d, to the accumulation row a (cells 0..w+1). Parts left of 0 count as lying on
 * x = 0 (they cover the whole row to their right); parts right of w cover nothing visible. */
static void acc_span(float *a, float w, float xa, float xb, float d)
{
  if (xa > xb) {
    float t = xa;
    xa = xb;
    xb = t;
  }
  if (xb <= 0.0f) {
    a[0] += d;
    return;
  }
  if (xa >= w) return;
  if (xa < 0.0f || xb > w) {
    float len = xb - xa;
    if (xa < 0.0f) {
      float dl = d * (-xa / len);
      a[0] += dl;
      d -= dl;
      len = xb;
      xa = 0.0f;
    }
    if (xb > w) {
      d *= (w - xa) / len;
      xb = w;
    }
  }
  int ia = (int)xa, ib = (int)xb;
  if (ib == ia || (ib == ia + 1 && (float)ib == xb)) {
    /* within one pixel (xb may sit on the pixel's right border) */
    float m = 0.5f * (xa + xb) - (float)ia;
    a[ia] += d * (1.0f - m);
    a[ia + 1] += d * m;
    return;
  }
  float dydx = d / (xb - xa);
  /* first pixel: from xa to ia + 1 */
  float f = (float)(ia + 1) - xa;
  float d1 = dydx * f, m1 = 1.0f - 0.5f * f;
  a[ia] += d1 * (1.0f - m1);
  float carry = d1 * m1, half = 0.5f * dydx;
  for (int i = ia + 1; i < ib; i++) {
    a[i] += carry + half;
    carry = half;
  }
  /* last pixel: from ib to xb */
  float g = xb - (float)ib;
  float dl = dydx * g, ml = 0.5f * g;
  a[ib] += carry + dl * (1.0f - ml);
  a[ib + 1] += dl * ml;
}

/* Accumulate one segment (coordinates relative to the band: rows 0..rows-1, columns 0..w-1). */
static void acc_seg(float *acc, size_t row_len, float w, int rows, float x0, float y0, float x1,
                    float y1)
{
  float dir = 1.0f;
  if (y0 > y1) {
    float t = x0;
    x0 = x1;
    x1 = t;
    t = y0;
    y0 = y1;
    y1 = t;
    dir = -1.0f;
  }
  float fr = (float)rows;
  if (y1 <= 0.0f || y0 >= fr || y0 == y1) return;
  float dxdy = (x1 - x0) / (y1 - y0);
  float ys = y0 < 0.0f ? 0.0f : y0, ye = y1 > fr ? fr : y1;
  int row = (int)ys, last = (int)ceilf(ye) - 1;
  if (row == last) {
    acc_span(acc + (size_t)row * row_len, w, x0 + (ys - y0) * dxdy, x0 + (ye - y0) * dxdy,
             dir * (ye - ys));
    return;
  }
  float ya = ys, xa = x0 + (ys - y0) * dxdy;
  for (; row <= last; row++) {
    float yb = row == last ? ye : (float)(row + 1);
    float xb = row == last ? x0 + (ye - y0) * dxdy : x0 + (yb - y0) * dxdy;
    acc_span(acc + (size_t)row * row_len, w, xa, xb, dir * (yb - ya));
    ya = yb;
    xa = xb;
  }
}

static inline unsigned cov8(float s, bool even_odd)
{
  float c = fabsf(s);
  if (even_odd) {
    c = fmodf(c, 2.0f);
    if (c > 1.0f) c = 2.0f - c;
  } else if (c > 1.0f) {
    c = 1.0f;
  }
  return (unsigned)(c * 255.0f + 0.5f);
}

otv_status otv_raster_render(otv_raster *r, uint8_t *buf, unsigned width, unsigned height,
                             size_t stride, unsigned flags)
{
  if (!r) return OTV_E_ARG;
  close_contour(r);
  otv_status st = r->status;
  if (!st && (!buf || stride < width) && width && height) st = OTV_E_ARG;
  if (st || r->seg_count == 0 || !width || !height || width > INT32_MAX || height > INT32_MAX) {
    path_clear(r);
    return st;
  }
  /* region: the path's pixel bounds clipped to the buffer. Parts left of the buffer still count
   * (in column 0); parts right of it, above or below it do not. */
  double fx0 = floor(r->min_x), fy0 = floor(r->min_y), fx1 = ceil(r->max_x), fy1 = ceil(r->max_y);
  long rx0 = fx0 < 0 ? 0 : (long)fx0, ry0 = fy0 < 0 ? 0 : (long)fy0;
  long rx1 = fx1 > width ? (long)width : (long)fx1, ry1 = fy1 > height ? (long)height : (long)fy1;
  if (fx1 <= 0) rx1 = 1; /* wholly left of the buffer: winding may still cover column 0 */
  if (rx0 >= rx1 || ry0 >= ry1 || rx0 >= (long)width) {
    path_clear(r);
    return OTV_E_OK;
  }
  size_t w = (size_t)(rx1 - rx0), row_len = w + 2;
  size_t band = RASTER_BAND_CELLS / row_len;
  if (band < 1) band = 1;
  if (band > (size_t)(ry1 - ry0)) band = (size_t)(ry1 - ry0);
  size_t need = band * row_len;
  if (need > r->acc_cap) {
    size_t old = r->acc_cap;
    float *p = otv_mem_realloc(&r->al, r->acc, old * sizeof(float), need * sizeof(float));
    if (!p) {
      path_clear(r);
      return OTV_E_NOMEM;
    }
    /* invariant: the accumulation buffer is all zeros between renders */
    memset(p + old, 0, (need - old) * sizeof(float));
    r->acc = p;
    r->acc_cap = need;
  }
  bool even_odd = (flags & OTV_RASTER_EVEN_ODD) != 0, replace = (flags & OTV_RASTER_REPLACE) != 0;
  float fw = (float)w, ox = (float)rx0;
  for (long by = ry0; by < ry1; by += (long)band) {
    int rows = (int)(ry1 - by < (long)band ? ry1 - by : (long)band);
    float oy = (float)by, fby1 = oy + (float)rows;
    for (size_t i = 0; i < r->seg_count; i++) {
      const seg *s = &r->segs[i];
      if ((s->y0 >= fby1 && s->y1 >= fby1) || (s->y0 <= oy && s->y1 <= oy)) continue;
      acc_seg(r->acc, row_len, fw, rows, s->x0 - ox, s->y0 - oy, s->x1 - ox, s->y1 - oy);
    }
    for (int y = 0; y < rows; y++) {
      float *a = r->acc + (size_t)y * row_len;
      uint8_t *d = buf + (size_t)(by + y) * stride + (size_t)rx0;
      float sum = 0.0f;
      if (replace) {
        for (size_t x = 0; x < w; x++) {
          sum += a[x];
          a[x] = 0.0f;
          d[x] = (uint8_t)cov8(sum, even_odd);
        }
      } else {
        for (size_t x = 0; x < w; x++) {
          sum += a[x];
          a[x] = 0.0f;
          unsigned c = cov8(sum, even_odd);
          if (c) {
            unsigned o = d[x];
            d[x] = (uint8_t)(o + c - (o * c + 127) / 255);
          }
        }
      }
      a[w] = 0.0f;
      a[w + 1] = 0.0f;
    }
  }
  path_clear(r);
  return OTV_E_OK;
}

/* ---- object ---- */

otv_status otv_raster_create(const otv_options *opt, otv_raster **out)
{
  if (!out) return OTV_E_ARG;
  *out = NULL;
  otv_alloc al;
  otv_alloc_init(&al, opt);
  otv_raster *r = otv_mem_calloc(&al, 1, sizeof *r);
  if (!r) return OTV_E_NOMEM;
  r->al = al;
  r->t = (otv_transform){1, 0, 0, 1, 0, 0};
  path_clear(r);
  *out = r;
  return OTV_E_OK;
}

void otv_raster_destroy(otv_raster *r)
{
  if (!r) return;
  otv_alloc al = r->al;
  otv_mem_free(&al, r->segs, r->seg_cap * sizeof(seg));
  otv_mem_free(&al, r->acc, r->acc_cap * sizeof(float));
  otv_mem_free(&al, r, sizeof *r);
}

otv_status otv_raster_set_transform(otv_raster *r, const otv_transform *t)
{
  if (!r) return OTV_E_ARG;
  if (!t) {
    r->t = (otv_transform){1, 0, 0, 1, 0, 0};
    return OTV_E_OK;
  }
  if (!isfinite(t->xx) || !isfinite(t->xy) || !isfinite(t->yx) || !isfinite(t->yy) ||
      !isfinite(t->dx) || !isfinite(t->dy))
    return OTV_E_ARG;
  r->t = *t;
  return OTV_E_OK;
}

bool otv_raster_bounds(const otv_raster *r, otv_raster_box *out)
{
  if (!r || !out) return false;
  float x0 = r->min_x, y0 = r->min_y, x1 = r->max_x, y1 = r->max_y;
  bool any = r->seg_count > 0;
  if (r->open && r->cur_y != r->start_y) {
    /* the segment that will close the open contour */
    any = true;
    x0 = fminf(x0, fminf(r->cur_x, r->start_x));
    x1 = fmaxf(x1, fmaxf(r->cur_x, r->start_x));
    y0 = fminf(y0, fminf(r->cur_y, r->start_y));
    y1 = fmaxf(y1, fmaxf(r->cur_y, r->start_y));
  }
  if (!any) {
    *out = (otv_raster_box){0, 0, 0, 0};
    return false;
  }
  out->x_min = (int32_t)floorf(x0);
  out->y_min = (int32_t)floorf(y0);
  out->x_max = (int32_t)ceilf(x1);
  out->y_max = (int32_t)ceilf(y1);
  if (out->x_max == out->x_min) out->x_max++;
  return true;
}

void otv_raster_reset(otv_raster *r)
{
  if (r) path_clear(r);
}

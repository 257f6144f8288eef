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
 * and clamp to full coverage, with no seam and no double coverage inside. (Only a pixel crossed
 * by the edges of both contours can exceed their union's area there, as in FreeType.)
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
 * Memory: the path's segments, the accumulation rows and the transformed points of
 * otv_raster_add_points live in buffers owned by the rasterizer that only grow, plus one fixed
 * buffer of 2048 vertices (16 KiB) for the open contour; rows are processed in bands so the
 * accumulation buffer stays small however large the target buffer is.
 */
#include "raster/raster.h"

#include <float.h>
#if OTV_SSE2
#  include <emmintrin.h>
#endif
/* An AVX2 copy of the readout, chosen at run time (GCC or clang on x86-64) */
#if OTV_SSE2 && defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#  define RASTER_AVX2 1
#else
#  define RASTER_AVX2 0
#endif

#define RASTER_TOL (1.0 / 16.0)      /* flattening tolerance, pixels */
#define RASTER_MAX_PIECES 1024       /* most line pieces per curve (a curve ~1e5 px long) */
#define RASTER_COORD_LIMIT 4194304.0 /* |device coordinate| clamp (2^22): keeps float math sane */
#define RASTER_BAND_CELLS 65536      /* accumulation cells per band (256 KiB of floats) */
#define RASTER_DIRECT_CELLS ((size_t)1 << 20) /* largest target of direct mode (4 MiB of floats) */
#define RASTER_BLOCK_SHIFT 2                  /* cells per mask bit: 4 (one SSE2 group) */
#define RASTER_DENSE_MAX 192                  /* widest region read out densely (no block mask) */
#ifndef RASTER_ZERO_RUNS_MIN
#  define RASTER_ZERO_RUNS_MIN 64 /* narrowest dense region tested for runs of zero cells */
#endif
#define RASTER_VB_CAP 2048 /* vertices buffered per run (> RASTER_MAX_PIECES + 1) */
#define RASTER_MAX_SEGS                                                                            \
  ((size_t)1 << 22) /* line segments per path (64 MiB): OTV_E_LIMIT beyond;
                                             a power of two so the doubling capacity meets it */

/* vb_room keeps room for a whole curve and the closing line after the run's first vertex */
_Static_assert(RASTER_VB_CAP >= RASTER_MAX_PIECES + 2, "vertex buffer too small for a curve");

typedef struct seg {
  float x0, y0, x1, y1;
} seg;

/* The band being accumulated: `rows` rows of row_len cells (a multiple of 8, at least w + 2),
 * and per row a bit mask of the 4-cell blocks that received something, so the readout can skip
 * untouched runs (constant coverage: empty, or full inside a stem). */
typedef struct band {
  float *acc;
  uint64_t *mask;
  size_t row_len, mwords;
  float w;
  int rows;
} band;

struct otv_raster {
  otv_alloc al;
  otv_transform t;
  seg *segs;
  size_t seg_count, seg_cap;
  float *acc;
  size_t acc_cap;
  uint64_t *mask;
  size_t mask_cap;
  float *pts;                           /* otv_raster_add_points: the points transformed (x, y) */
  size_t pts_cap;                       /* in points */
  float *vb;                            /* the open contour's vertices (x, y), RASTER_VB_CAP of
                                       them (allocated on first use) */
  unsigned vb_n;                        /* vertices in vb (the contour's start first) */
  float min_x, min_y, max_x, max_y;     /* bounds of segment end points (device space) */
  float start_x, start_y, cur_x, cur_y; /* device space */
  bool open;                            /* a contour is open (move_to seen, not closed) */
  otv_status status;                    /* sticky error of the current path */
  float fxx, fxy, fyx, fyy, fdx, fdy;   /* the transform in float */
  bool axis_aligned;                    /* fxy == fyx == 0 */
  float xf_m[4], xf_c[4], xf_d[4];      /* the same, for two points at once (x, y, x, y): products
                                       (fxx, fyy, ..), cross products (fxy, fyx, ..), offsets */
  /* direct mode (otv_raster_begin): the pen accumulates every segment at once into acc, laid out
   * as the whole target (tgt_h rows of dir_row_len cells, absolute pixel columns); seg_count
   * then only counts the segments, none is stored */
  bool direct, dir_mask; /* direct mode; mark blocks for the sparse readout */
  unsigned tgt_w, tgt_h;
  band D; /* the whole target as one band (direct mode) */
  float dir_h;
  bool avx2; /* read out with the AVX2 copy */
};

/* ---- accumulation ---- */

static inline void mark(uint64_t *m, size_t c0, size_t c1)
{
  size_t b0 = c0 >> RASTER_BLOCK_SHIFT, b1 = c1 >> RASTER_BLOCK_SHIFT;
  if ((b0 >> 6) == (b1 >> 6)) {
    /* blocks b0..b1 in one word: (2 << 63) - 1 wraps to all ones, as it should */
    m[b0 >> 6] |= (((uint64_t)2 << (b1 - b0)) - 1) << (b0 & 63);
    return;
  }
  for (size_t b = b0; b <= b1; b++) m[b >> 6] |= (uint64_t)1 << (b & 63);
}

#define RASTER_INLINE static OTV_ALWAYS_INLINE

/* Add a piece of edge lying inside one pixel row, from x = xa to x = xb (either order), of
 * signed height d, to the accumulation row a (cells 0..w+1). With clip, parts left of 0 count as
 * lying on x = 0 (they cover the whole row to their right) and parts right of w are dropped;
 * without, 0 <= x <= w is known (the path lies inside the buffer). With use_mask, the 4-cell
 * blocks touched are marked in m for the sparse readout. */
RASTER_INLINE void acc_span(float *a, uint64_t *m, float w, float xa, float xb, float d, bool clip,
                            bool use_mask)
{
  if (!clip) {
    int i0 = (int)xa;
    if (i0 == (int)xb && (unsigned)i0 <= (unsigned)(int)w) {
      /* within one pixel: the common case of short edges. Unclipped, x is in [0, w] but for the
       * rounding of a point interpolated at a row boundary: within (-1, w + 1) truncation picks
       * a cell 0..w, whose right neighbour exists, and the two cells get the same total d (a
       * mean a rounding error outside [0, 1] moves a part of d as tiny as that error); farther
       * out (huge coordinates) the clamping path below takes it */
      float m0 = 0.5f * (xa + xb) - (float)i0;
      float dm0 = d * m0;
      a[i0] += d - dm0;
      a[i0 + 1] += dm0;
      if (use_mask) mark(m, (size_t)i0, (size_t)i0 + 1);
      return;
    }
  }
  if (xa > xb) {
    float t = xa;
    xa = xb;
    xb = t;
  }
  if (!clip) {
    /* 0 <= x <= w up to rounding: keep it so whatever the geometry (cells 0..w+1 exist) */
    xa = xa < 0.0f ? 0.0f : xa;
    xb = xb > w ? w : xb;
  } else {
    if (xb <= 0.0f) {
      a[0] += d;
      if (use_mask) mark(m, 0, 0);
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
  }
  int ia = (int)xa, ib = (int)xb;
  if (ib == ia || (ib == ia + 1 && (float)ib == xb)) {
    /* within one pixel (xb may sit on the pixel's right border) */
    float m1 = 0.5f * (xa + xb) - (float)ia;
    float dm = d * m1;
    a[ia] += d - dm;
    a[ia + 1] += dm;
    if (use_mask) mark(m, (size_t)ia, (size_t)ia + 1);
    return;
  }
  if (use_mask) mark(m, (size_t)ia, (size_t)ib + 1);
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
RASTER_INLINE void acc_seg(const band *B, float x0, float y0, float x1, float y1, bool clip,
                           bool use_mask)
{
  /* locals: stores into the float cells may alias the band's float fields for the compiler */
  float *const acc = B->acc, w = B->w, fr = (float)B->rows;
  uint64_t *const mask = B->mask;
  const size_t row_len = B->row_len, mwords = B->mwords;
  if (y0 >= 0.0f && y1 >= 0.0f && y0 < fr && y1 < fr) {
    int r0 = (int)y0; /* y >= 0: truncation is floor */
    if (r0 == (int)y1) {
      /* inside one row: no clipping in y, direction carried by the sign of the height */
      acc_span(acc + (size_t)r0 * row_len, mask + (size_t)r0 * mwords, w, x0, x1, y1 - y0, clip,
               use_mask);
      return;
    }
  }
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
  if (y1 <= 0.0f || y0 >= fr || y0 == y1) return;
  float ys = y0 < 0.0f ? 0.0f : y0, ye = y1 > fr ? fr : y1;
  int row = (int)ys, last = (int)ye; /* ys, ye >= 0: truncation is floor */
  if ((float)last == ye) last--;     /* ye on a row boundary belongs to the row above */
  if (row == last && ys == y0 && ye == y1) {
    acc_span(acc + (size_t)row * row_len, mask + (size_t)row * mwords, w, x0, x1, dir * (y1 - y0),
             clip, use_mask);
    return;
  }
  float dxdy = (x1 - x0) / (y1 - y0);
  float ya = ys, xa = ys == y0 ? x0 : x0 + (ys - y0) * dxdy;
  float xe = ye == y1 ? x1 : x0 + (ye - y0) * dxdy;
  float *a = acc + (size_t)row * row_len;
  uint64_t *m = mask + (size_t)row * mwords;
  for (; row < last; row++) {
    float yb = (float)(row + 1);
    float xb = x0 + (yb - y0) * dxdy;
    acc_span(a, m, w, xa, xb, dir * (yb - ya), clip, use_mask);
    ya = yb;
    xa = xb;
    a += row_len;
    m += mwords;
  }
  acc_span(a, m, w, xa, xe, dir * (ye - ya), clip, use_mask);
}

/* All segments of the path crossing the band, with the span variant fixed at compile time. */
RASTER_INLINE void acc_all(const otv_raster *r, const band *B, float ox, float oy, bool clip,
                           bool use_mask)
{
  float fby1 = oy + (float)B->rows;
  for (size_t i = 0; i < r->seg_count; i++) {
    const seg *s = &r->segs[i];
    if ((s->y0 >= fby1 && s->y1 >= fby1) || (s->y0 <= oy && s->y1 <= oy)) continue;
    acc_seg(B, s->x0 - ox, s->y0 - oy, s->x1 - ox, s->y1 - oy, clip, use_mask);
  }
}

/* One segment of a path lying wholly inside a single band (0 <= y <= rows, 0 <= x <= w up to
 * rounding, which acc_span's unclipped variant absorbs): no clipping or band test in y. */
RASTER_INLINE void acc_seg_in(const band *B, float x0, float y0, float x1, float y1, bool use_mask)
{
  float *const acc = B->acc, w = B->w;
  uint64_t *const mask = B->mask;
  const size_t row_len = B->row_len, mwords = B->mwords;
  int r0 = (int)y0, r1 = (int)y1; /* y >= 0: truncation is floor */
  if (r0 == r1) {
    /* inside one row (y0 != y1 here, else both would be on the last boundary: r0 < rows) */
    acc_span(acc + (size_t)r0 * row_len, mask + (size_t)r0 * mwords, w, x0, x1, y1 - y0, false,
             use_mask);
    return;
  }
  float dir = 1.0f;
  if (y0 > y1) {
    float t = x0;
    x0 = x1;
    x1 = t;
    t = y0;
    y0 = y1;
    y1 = t;
    int ti = r0;
    r0 = r1;
    r1 = ti;
    dir = -1.0f;
  }
  int row = r0, last = r1;
  if ((float)last == y1) last--; /* y1 on a row boundary belongs to the row above */
  if (row == last) {
    acc_span(acc + (size_t)row * row_len, mask + (size_t)row * mwords, w, x0, x1, dir * (y1 - y0),
             false, use_mask);
    return;
  }
  float *a = acc + (size_t)row * row_len;
  uint64_t *m = mask + (size_t)row * mwords;
  int i0 = (int)x0;
  if (x1 == x0 && (unsigned)i0 <= (unsigned)(int)w) {
    /* vertical (stems): every row splits its height between the same two cells at the same
     * ratio, and the full rows all have height dir; the values acc_span would add */
    float m0 = x0 - (float)i0; /* 0.5f * (x0 + x0) - i0, exactly */
    float d = dir * ((float)(row + 1) - y0), dm = d * m0;
    a[i0] += d - dm;
    a[i0 + 1] += dm;
    if (use_mask) mark(m, (size_t)i0, (size_t)i0 + 1);
    float full1 = dir * m0, full0 = dir - full1;
    for (row++; row < last; row++) {
      a += row_len;
      m += mwords;
      a[i0] += full0;
      a[i0 + 1] += full1;
      if (use_mask) mark(m, (size_t)i0, (size_t)i0 + 1);
    }
    a += row_len;
    m += mwords;
    d = dir * (y1 - (float)last);
    dm = d * m0;
    a[i0] += d - dm;
    a[i0 + 1] += dm;
    if (use_mask) mark(m, (size_t)i0, (size_t)i0 + 1);
    return;
  }
  /* first row partial, then full rows of height dir whose x advances by dxdy each (a running
   * sum: its rounding drifts by an ulp or so per row, far below what a pixel's coverage
   * resolves, and the last row ends exactly at x1), then the last row partial */
  float dxdy = (x1 - x0) / (y1 - y0);
  float yb = (float)(row + 1), xb = x0 + (yb - y0) * dxdy;
  acc_span(a, m, w, x0, xb, dir * (yb - y0), false, use_mask);
  float xa = xb;
  for (row++; row < last; row++) {
    a += row_len;
    m += mwords;
    xb = xa + dxdy;
    acc_span(a, m, w, xa, xb, dir, false, use_mask);
    xa = xb;
  }
  a += row_len;
  m += mwords;
  acc_span(a, m, w, xa, x1, dir * (y1 - (float)last), false, use_mask);
}

/* ---- path building ---- */

static void direct_discard(otv_raster *r);

/* Empty the path (and end direct mode, zeroing what it accumulated). */
static void path_clear(otv_raster *r)
{
  if (r->direct) direct_discard(r);
  r->seg_count = 0;
  r->open = false;
  r->vb_n = 0;
  r->status = OTV_E_OK;
  r->min_x = r->min_y = FLT_MAX;
  r->max_x = r->max_y = -FLT_MAX;
}

/* Transform a point (float math: device coordinates are clamped to +-2^22, where a float still
 * resolves 1/2 pixel, and glyph-sized ones resolve far below 1/256 pixel). A non-finite result
 * (an overflow included) records BAD_VALUE, which render reports, and is stored as 0; the clamp
 * bounds every other point, so later arithmetic stays finite. */
static void xform_slow(otv_raster *r, float *px, float *py)
{
  const float lim = (float)RASTER_COORD_LIMIT;
  float *v[2] = {px, py};
  for (int i = 0; i < 2; i++) {
    if (!isfinite(*v[i])) {
      if (!r->status) r->status = OTV_E_BAD_VALUE;
      *v[i] = 0.0f;
    } else if (*v[i] > lim) {
      *v[i] = lim;
    } else if (*v[i] < -lim) {
      *v[i] = -lim;
    }
  }
}

#if !OTV_SSE2
static inline void xform(otv_raster *r, float x, float y, float *ox, float *oy)
{
  float px, py;
  if (r->axis_aligned) {
    /* no skew or rotation (the common case): the same values, two products fewer (a finite
     * coordinate times the zero entry adds +-0) */
    px = r->fxx * x + r->fdx;
    py = r->fyy * y + r->fdy;
  } else {
    px = r->fxx * x + r->fxy * y + r->fdx;
    py = r->fyx * x + r->fyy * y + r->fdy;
  }
  const float lim = (float)RASTER_COORD_LIMIT;
  if (!(fabsf(px) <= lim && fabsf(py) <= lim)) xform_slow(r, &px, &py);
  *ox = px;
  *oy = py;
}
#endif

#if OTV_SSE2
/* Two points (x0, y0, x1, y1) transformed at once: the values of xform, in the same order of
 * operations (((xx x) + (xy y)) + dx; the sum of two products commutes exactly); one test of
 * the four magnitudes (a NaN fails it too) sends any out-of-range value to xform_slow. */
static inline __m128 xform2(otv_raster *r, __m128 v)
{
  __m128 p = _mm_mul_ps(v, _mm_loadu_ps(r->xf_m));
  if (!r->axis_aligned)
    p = _mm_add_ps(
        p, _mm_mul_ps(_mm_shuffle_ps(v, v, _MM_SHUFFLE(2, 3, 0, 1)), _mm_loadu_ps(r->xf_c)));
  p = _mm_add_ps(p, _mm_loadu_ps(r->xf_d));
  __m128 mag = _mm_andnot_ps(_mm_set1_ps(-0.0f), p);
  if (_mm_movemask_ps(_mm_cmpnle_ps(mag, _mm_set1_ps((float)RASTER_COORD_LIMIT)))) {
    float q[4];
    _mm_storeu_ps(q, p);
    xform_slow(r, &q[0], &q[1]);
    xform_slow(r, &q[2], &q[3]);
    p = _mm_loadu_ps(q);
  }
  return p;
}
#  define RASTER_LANE(v, i) _mm_cvtss_f32(_mm_shuffle_ps(v, v, _MM_SHUFFLE(i, i, i, i)))
#endif

static inline void bbox_add(otv_raster *r, float x, float y)
{
  if (x < r->min_x) r->min_x = x;
  if (x > r->max_x) r->max_x = x;
  if (y < r->min_y) r->min_y = y;
  if (y > r->max_y) r->max_y = y;
}

/* A segment that leaves the target in direct mode: the clipping variant, out of line (rare). */
static void direct_clip(otv_raster *r, float x0, float y0, float x1, float y1)
{
  if (r->dir_mask)
    acc_seg(&r->D, x0, y0, x1, y1, true, true);
  else
    acc_seg(&r->D, x0, y0, x1, y1, true, false);
}

/* Direct mode: accumulate the segment now, in absolute pixel coordinates (the target is the
 * band). Inside the target (0 <= x <= w, 0 <= y <= h) it needs no clipping; the path's bounds
 * so far, which hold both end points, tell with four compares instead of eight (once they
 * leave the target, every later segment takes the clipping variant: correct, slower). */
RASTER_INLINE void direct_seg(otv_raster *r, float x0, float y0, float x1, float y1, bool use_mask)
{
  r->seg_count++;
  if (r->min_x >= 0.0f && r->min_y >= 0.0f && r->max_x <= r->D.w && r->max_y <= r->dir_h) {
    acc_seg_in(&r->D, x0, y0, x1, y1, use_mask);
  } else {
    direct_clip(r, x0, y0, x1, y1);
  }
}

/* ---- path building ----
 *
 * Both ways in, the pen and otv_raster_add_points, collect a contour's vertices (points, and
 * curves flattened: quad_vertices, cubic_vertices) in r->vb; when the contour closes (or the
 * buffer fills) one loop turns them into segments. Flattening and accumulation thus each have
 * one copy of their code, which stays small, and in direct mode a run whose vertices lie inside
 * the target (with the path so far) goes through a loop with no test per segment, the current
 * point in registers. */

/* How line_dev's segments go: stored, or accumulated at once (direct mode) into dense rows or
 * with block marks. A compile-time constant inside each variant. */
enum { MODE_STORE, MODE_DIRECT, MODE_DIRECT_MASK };

static inline int pen_mode(const otv_raster *r)
{
  return r->direct ? (r->dir_mask ? MODE_DIRECT_MASK : MODE_DIRECT) : MODE_STORE;
}

/* Append the segment from the current point to (x, y), which becomes the current point (in
 * direct mode: accumulate it, testing it against the target). The bounds take every end
 * point. */
RASTER_INLINE void line_dev(otv_raster *r, float x, float y, int mode)
{
  float x0 = r->cur_x, y0 = r->cur_y;
  r->cur_x = x;
  r->cur_y = y;
  bbox_add(r, x, y);
  if (y0 == y) return; /* horizontal: adds no area */
  if (mode != MODE_STORE) {
    direct_seg(r, x0, y0, x, y, mode == MODE_DIRECT_MASK);
    return;
  }
  if (r->seg_count == r->seg_cap) {
    if (r->status) return;
    if (r->seg_cap >= RASTER_MAX_SEGS) {
      r->status = OTV_E_LIMIT;
      return;
    }
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
  s->x1 = x;
  s->y1 = y;
}

/* Segments from v[0] through v[1..m-1] (x, y pairs) through line_dev (v[0] is the current point:
 * a contour's start, or the previous run's last vertex). */
RASTER_INLINE void run_lines(otv_raster *r, const float *v, unsigned m, int mode)
{
  r->cur_x = v[0];
  r->cur_y = v[1];
  bbox_add(r, v[0], v[1]);
  for (unsigned j = 1; j < m; j++) line_dev(r, v[2 * j], v[2 * j + 1], mode);
}

/* The same in direct mode with every vertex inside the target: line_dev's accumulation without
 * its test, in a local copy of the band (which the cell stores cannot alias). Returns the number
 * of segments (the non-horizontal ones). */
RASTER_INLINE size_t run_inside(band B, const float *v, unsigned m, bool use_mask)
{
  float x0 = v[0], y0 = v[1];
  size_t segs = 0;
  for (unsigned j = 1; j < m; j++) {
    float x = v[2 * j], y = v[2 * j + 1];
    if (y != y0) {
      segs++;
      acc_seg_in(&B, x0, y0, x, y, use_mask);
    }
    x0 = x;
    y0 = y;
  }
  return segs;
}

/* Take the bounds of the m vertices v into lo, hi (x, y). */
static inline void vb_bounds(const float *v, unsigned m, float lo[2], float hi[2])
{
#if OTV_SSE2
  __m128 l = _mm_loadl_pi(_mm_setzero_ps(), (const __m64 *)(const void *)lo), h;
  h = _mm_loadl_pi(_mm_setzero_ps(), (const __m64 *)(const void *)hi);
  l = _mm_movelh_ps(l, l);
  h = _mm_movelh_ps(h, h);
  unsigned j = 0;
  for (; j + 2 <= m; j += 2) {
    __m128 p = _mm_loadu_ps(v + 2 * j);
    l = _mm_min_ps(l, p);
    h = _mm_max_ps(h, p);
  }
  if (j < m) {
    __m128 p = _mm_loadl_pi(_mm_setzero_ps(), (const __m64 *)(const void *)(v + 2 * j));
    p = _mm_movelh_ps(p, p);
    l = _mm_min_ps(l, p);
    h = _mm_max_ps(h, p);
  }
  l = _mm_min_ps(l, _mm_movehl_ps(l, l));
  h = _mm_max_ps(h, _mm_movehl_ps(h, h));
  _mm_storel_pi((__m64 *)(void *)lo, l);
  _mm_storel_pi((__m64 *)(void *)hi, h);
#else
  for (unsigned j = 0; j < m; j++) {
    float x = v[2 * j], y = v[2 * j + 1];
    lo[0] = x < lo[0] ? x : lo[0];
    lo[1] = y < lo[1] ? y : lo[1];
    hi[0] = x > hi[0] ? x : hi[0];
    hi[1] = y > hi[1] ? y : hi[1];
  }
#endif
}

/* Segments from v[0] through v[1..m-1]. In direct mode, when these vertices and the path so far
 * lie inside the target, without a test per segment (the same values: acc_seg_in is what
 * line_dev's test picks for them); otherwise segment by segment, as the pen always did. */
static void run(otv_raster *r, const float *v, unsigned m)
{
  if (r->direct) {
    float lo[2] = {r->min_x, r->min_y}, hi[2] = {r->max_x, r->max_y};
    vb_bounds(v, m, lo, hi);
    if (lo[0] >= 0.0f && lo[1] >= 0.0f && hi[0] <= r->D.w && hi[1] <= r->dir_h) {
      r->min_x = lo[0];
      r->min_y = lo[1];
      r->max_x = hi[0];
      r->max_y = hi[1];
      r->cur_x = v[2 * m - 2];
      r->cur_y = v[2 * m - 1];
      r->seg_count += r->dir_mask ? run_inside(r->D, v, m, true) : run_inside(r->D, v, m, false);
      return;
    }
  }
  switch (pen_mode(r)) {
  case MODE_STORE: run_lines(r, v, m, MODE_STORE); break;
  case MODE_DIRECT: run_lines(r, v, m, MODE_DIRECT); break;
  default: run_lines(r, v, m, MODE_DIRECT_MASK); break;
  }
}

/* Make room for a curve's vertices (at most RASTER_MAX_PIECES) and the closing line after the m
 * buffered ones: when full, run them and keep the last as the next run's start. Returns the new
 * count. */
static inline unsigned vb_room(otv_raster *r, unsigned m)
{
  if (m + RASTER_MAX_PIECES + 1 <= RASTER_VB_CAP) return m;
  run(r, r->vb, m);
  r->vb[0] = r->vb[2 * m - 2];
  r->vb[1] = r->vb[2 * m - 1];
  return 1;
}

/* The vertex buffer, allocated on first use (NOMEM recorded). */
static bool vb_ready(otv_raster *r)
{
  if (r->vb) return true;
  r->vb = otv_mem_realloc(&r->al, NULL, 0, RASTER_VB_CAP * 2 * sizeof(float));
  if (r->vb) return true;
  if (!r->status) r->status = OTV_E_NOMEM;
  return false;
}

/* Start a contour at (x, y), device space. False when the buffer cannot be allocated. */
static bool contour_start(otv_raster *r, float x, float y)
{
  if (!vb_ready(r)) return false;
  r->start_x = r->vb[0] = x;
  r->start_y = r->vb[1] = y;
  r->vb_n = 1;
  r->open = true;
  return true;
}

/* Close the open contour: a line back to its start when it is elsewhere, then run its vertices
 * (out of line: the test in close_contour stays cheap inline). */
static void contour_end(otv_raster *r)
{
  unsigned m = r->vb_n;
  float *vb = r->vb;
  if (vb[2 * m - 2] != r->start_x || vb[2 * m - 1] != r->start_y) {
    vb[2 * m] = r->start_x; /* (vb_room left room for it) */
    vb[2 * m + 1] = r->start_y;
    m++;
  }
  run(r, vb, m);
  r->vb_n = 0;
  r->open = false;
}

static inline void close_contour(otv_raster *r)
{
  if (r->open) contour_end(r);
}

/* 1/n, a cubic's shift factor -(1/n)^2/12 (folded by the compiler with the same float
 * operations as the run-time expression, so the same values) and a quadratic's -(1/n)^2/6 (the
 * correctly rounded constant) for n = 1..32: no division on the way to the first vertex */
#define RASTER_INV(n) (1.0f / (float)(n))
#define RASTER_KC(n) (-RASTER_INV(n) * RASTER_INV(n) / 12.0f)
#define RASTER_KQ(n) ((float)(-1.0 / (6.0 * (n) * (n))))
static const float inv_tab[33] = {
    0.0f,           RASTER_INV(1),  RASTER_INV(2),  RASTER_INV(3),  RASTER_INV(4),  RASTER_INV(5),
    RASTER_INV(6),  RASTER_INV(7),  RASTER_INV(8),  RASTER_INV(9),  RASTER_INV(10), RASTER_INV(11),
    RASTER_INV(12), RASTER_INV(13), RASTER_INV(14), RASTER_INV(15), RASTER_INV(16), RASTER_INV(17),
    RASTER_INV(18), RASTER_INV(19), RASTER_INV(20), RASTER_INV(21), RASTER_INV(22), RASTER_INV(23),
    RASTER_INV(24), RASTER_INV(25), RASTER_INV(26), RASTER_INV(27), RASTER_INV(28), RASTER_INV(29),
    RASTER_INV(30), RASTER_INV(31), RASTER_INV(32)};
static const float kc_tab[33] = {
    0.0f,          RASTER_KC(1),  RASTER_KC(2),  RASTER_KC(3),  RASTER_KC(4),  RASTER_KC(5),
    RASTER_KC(6),  RASTER_KC(7),  RASTER_KC(8),  RASTER_KC(9),  RASTER_KC(10), RASTER_KC(11),
    RASTER_KC(12), RASTER_KC(13), RASTER_KC(14), RASTER_KC(15), RASTER_KC(16), RASTER_KC(17),
    RASTER_KC(18), RASTER_KC(19), RASTER_KC(20), RASTER_KC(21), RASTER_KC(22), RASTER_KC(23),
    RASTER_KC(24), RASTER_KC(25), RASTER_KC(26), RASTER_KC(27), RASTER_KC(28), RASTER_KC(29),
    RASTER_KC(30), RASTER_KC(31), RASTER_KC(32)};
static const float kq_tab[33] = {
    0.0f,          RASTER_KQ(1),  RASTER_KQ(2),  RASTER_KQ(3),  RASTER_KQ(4),  RASTER_KQ(5),
    RASTER_KQ(6),  RASTER_KQ(7),  RASTER_KQ(8),  RASTER_KQ(9),  RASTER_KQ(10), RASTER_KQ(11),
    RASTER_KQ(12), RASTER_KQ(13), RASTER_KQ(14), RASTER_KQ(15), RASTER_KQ(16), RASTER_KQ(17),
    RASTER_KQ(18), RASTER_KQ(19), RASTER_KQ(20), RASTER_KQ(21), RASTER_KQ(22), RASTER_KQ(23),
    RASTER_KQ(24), RASTER_KQ(25), RASTER_KQ(26), RASTER_KQ(27), RASTER_KQ(28), RASTER_KQ(29),
    RASTER_KQ(30), RASTER_KQ(31), RASTER_KQ(32)};

/* Store the vertex (x, y) at v as one 8-byte store where SSE2 has it: the pen reads a curve's
 * end back as its next start, and a load of both floats cannot be forwarded from two separate
 * 4-byte stores (it waits for them to reach the cache). */
static inline void put_vertex(float *v, float x, float y)
{
#if OTV_SSE2
  _mm_storel_pi((__m64 *)(void *)v, _mm_setr_ps(x, y, 0.0f, 0.0f));
#else
  v[0] = x;
  v[1] = y;
#endif
}

/* Pieces for a curve of degree-dependent factor k and largest second difference sqrt(l2):
 * n = ceil(sqrt(k * L / tol)), i.e. the least n with n^4 >= k^2 * l2 / tol^2. */
static inline unsigned pieces_for(float l2, float k)
{
  float q = k * k * l2 * (float)(1.0 / (RASTER_TOL * RASTER_TOL));
  if (q <= 1.0f) return 1;
  if (q <= 16.0f) return 2;
  if (q <= 81.0f) return 3;
  if (q <= 256.0f) return 4;
  float n = ceilf(sqrtf(sqrtf(q)));
  if (!(n <= RASTER_MAX_PIECES)) return RASTER_MAX_PIECES;
  return (unsigned)n;
}

/* The vertices after the current point (x0, y0) of the quadratic through (x1, y1) to (x2, y2)
 * into v (x, y pairs). Returns their count (at most RASTER_MAX_PIECES). */
static inline unsigned quad_vertices(float *v, float x0, float y0, float x1, float y1, float x2,
                                     float y2)
{
  float ddx = x0 - 2.0f * x1 + x2, ddy = y0 - 2.0f * y1 + y2;
  unsigned n = pieces_for(ddx * ddx + ddy * ddy, 0.25f);
  if (n == 2) {
    /* the common case at text sizes: the loop below for i = 1, t = 1/2 (the same values) */
    float sx = ddx * kq_tab[2], sy = ddy * kq_tab[2];
    v[0] = (ddx * 0.5f + 2.0f * (x1 - x0)) * 0.5f + x0 + sx;
    v[1] = (ddy * 0.5f + 2.0f * (y1 - y0)) * 0.5f + y0 + sy;
  } else if (n > 1) {
    /* B(t) = (dd t + 2 (p1 - p0)) t + p0. Interior vertices move by -h^2/12 B'' (B'' = 2 dd):
     * two thirds of each piece's sagitta, so the polyline keeps the curve's area (shift_note) */
    float bx = 2.0f * (x1 - x0), by = 2.0f * (y1 - y0);
    float inv = n <= 32 ? inv_tab[n] : 1.0f / (float)n;
    float kq = n <= 32 ? kq_tab[n] : -inv * inv / 6.0f; /* (a product: no division per curve) */
    float sx = ddx * kq, sy = ddy * kq;
    for (unsigned i = 1; i < n; i++) {
      float t = (float)i * inv;
      v[2 * i - 2] = (ddx * t + bx) * t + x0 + sx;
      v[2 * i - 1] = (ddy * t + by) * t + y0 + sy;
    }
  }
  put_vertex(v + 2 * n - 2, x2, y2);
  return n;
}

/* The same for the cubic with controls (x1, y1), (x2, y2) to (x3, y3). */
static inline unsigned cubic_vertices(float *v, float x0, float y0, float x1, float y1, float x2,
                                      float y2, float x3, float y3)
{
  float ax = x0 - 2.0f * x1 + x2, ay = y0 - 2.0f * y1 + y2;
  float bx = x1 - 2.0f * x2 + x3, by = y1 - 2.0f * y2 + y3;
  float la = ax * ax + ay * ay, lb = bx * bx + by * by;
  unsigned n = pieces_for(la > lb ? la : lb, 0.75f);
  if (n > 1) {
    /* power basis: B(t) = ((p t + q) t + s) t + p0, B''(t) = 6 p t + 2 q; interior vertices
     * move by -h^2/12 B''(t) (shift_note) */
    float px = x3 - x0 + 3.0f * (x1 - x2), py = y3 - y0 + 3.0f * (y1 - y2);
    float qx = 3.0f * ax, qy = 3.0f * ay;
    float rx = 3.0f * (x1 - x0), ry = 3.0f * (y1 - y0);
    float inv = n <= 32 ? inv_tab[n] : 1.0f / (float)n;
    float kc = n <= 32 ? kc_tab[n] : -inv * inv / 12.0f;
    for (unsigned i = 1; i < n; i++) {
      float t = (float)i * inv;
      float sx = kc * (6.0f * px * t + 2.0f * qx), sy = kc * (6.0f * py * t + 2.0f * qy);
      v[2 * i - 2] = ((px * t + qx) * t + rx) * t + x0 + sx;
      v[2 * i - 1] = ((py * t + qy) * t + ry) * t + y0 + sy;
    }
  }
  put_vertex(v + 2 * n - 2, x3, y3);
  return n;
}

/* ---- the pen ---- */

static void pen_move(void *ctx, float x, float y)
{
  otv_raster *r = ctx;
  float px, py;
  close_contour(r);
#if OTV_SSE2
  __m128 p = xform2(r, _mm_setr_ps(x, y, 0.0f, 0.0f));
  px = _mm_cvtss_f32(p);
  py = RASTER_LANE(p, 1);
#else
  xform(r, x, y, &px, &py);
#endif
  contour_start(r, px, py);
}

static void pen_line(void *ctx, float x, float y)
{
  otv_raster *r = ctx;
  if (!r->open) return;
  unsigned m = vb_room(r, r->vb_n);
  float *v = r->vb + 2 * (size_t)m;
#if OTV_SSE2
  __m128 p = xform2(r, _mm_setr_ps(x, y, 0.0f, 0.0f));
  _mm_storel_pi((__m64 *)(void *)v, p);
#else
  xform(r, x, y, &v[0], &v[1]);
#endif
  r->vb_n = m + 1;
}

static void pen_quad(void *ctx, float cx, float cy, float x, float y)
{
  otv_raster *r = ctx;
  float x1, y1, x2, y2;
  if (!r->open) return;
#if OTV_SSE2
  __m128 p = xform2(r, _mm_setr_ps(cx, cy, x, y));
  x1 = _mm_cvtss_f32(p);
  y1 = RASTER_LANE(p, 1);
  x2 = RASTER_LANE(p, 2);
  y2 = RASTER_LANE(p, 3);
#else
  xform(r, cx, cy, &x1, &y1);
  xform(r, x, y, &x2, &y2);
#endif
  unsigned m = vb_room(r, r->vb_n);
  float *v = r->vb + 2 * (size_t)m;
  r->vb_n = m + quad_vertices(v, v[-2], v[-1], x1, y1, x2, y2);
}

static void pen_cubic(void *ctx, float c1x, float c1y, float c2x, float c2y, float x, float y)
{
  otv_raster *r = ctx;
  float x1, y1, x2, y2, x3, y3;
  if (!r->open) return;
#if OTV_SSE2
  __m128 p = xform2(r, _mm_setr_ps(c1x, c1y, c2x, c2y));
  __m128 q = xform2(r, _mm_setr_ps(x, y, 0.0f, 0.0f));
  x1 = _mm_cvtss_f32(p);
  y1 = RASTER_LANE(p, 1);
  x2 = RASTER_LANE(p, 2);
  y2 = RASTER_LANE(p, 3);
  x3 = _mm_cvtss_f32(q);
  y3 = RASTER_LANE(q, 1);
#else
  xform(r, c1x, c1y, &x1, &y1);
  xform(r, c2x, c2y, &x2, &y2);
  xform(r, x, y, &x3, &y3);
#endif
  unsigned m = vb_room(r, r->vb_n);
  float *v = r->vb + 2 * (size_t)m;
  r->vb_n = m + cubic_vertices(v, v[-2], v[-1], x1, y1, x2, y2, x3, y3);
}

static void pen_close(void *ctx) { close_contour(ctx); }

static const otv_pen raster_pen = {pen_move, pen_line, pen_quad, pen_cubic, pen_close};

const otv_pen *otv_raster_pen(void) { return &raster_pen; }

/* ---- whole outlines (otv_raster_add_points) ---- */

/* Point kinds of otv_raster_add_points: on the curve, a quadratic control point, a cubic one. */
enum { PT_ON, PT_QUAD, PT_CUBIC };

static inline int pt_kind(const uint8_t *flags, unsigned i)
{
  if (!flags || (flags[i] & OTV_POINT_ON_CURVE)) return PT_ON;
  return (flags[i] & OTV_POINT_CUBIC) ? PT_CUBIC : PT_QUAD;
}

/* One contour, points first..last of the transformed points p (x, y pairs): the segments
 * FreeType's FT_Outline_Decompose gives for the same tags, in its order. A contour that starts
 * with a quadratic control point starts at its last point when that is on the curve, else
 * midway between its first and last points; two quadratic control points in a row imply the
 * on-curve point midway; a pair of cubic control points is followed by an on-curve point or
 * ends the contour; the contour closes with a line. Returns false on a bad sequence: a cubic
 * control point first, alone, or followed by anything but an on-curve point, or a quadratic
 * control point next to a cubic one (what came before it is drawn; the caller records the
 * error, so render draws nothing). */
static bool contour(otv_raster *r, const float *p, const uint8_t *flags, unsigned first,
                    unsigned last)
{
  float sx = p[2 * (size_t)first], sy = p[2 * (size_t)first + 1];
  unsigned i = first + 1, limit = last;
  int kind = pt_kind(flags, first);
  if (kind != PT_ON) {
    if (kind == PT_CUBIC) return false;
    if (pt_kind(flags, last) == PT_ON) {
      sx = p[2 * (size_t)last];
      sy = p[2 * (size_t)last + 1];
      limit--;
    } else {
      sx = 0.5f * (sx + p[2 * (size_t)last]);
      sy = 0.5f * (sy + p[2 * (size_t)last + 1]);
    }
    i = first;
  }
  if (!contour_start(r, sx, sy)) return true; /* (NOMEM is recorded) */
  float *vb = r->vb;
  unsigned m = 1; /* vertices buffered; vb[2m-2], vb[2m-1] is the current point */
  /* the current point also in registers: reading it back from the buffer just after its two
   * float stores would make the compiler's paired 8-byte load wait for them (no forwarding) */
  float cx0 = sx, cy0 = sy;
  bool ok = true;
  while (i <= limit) {
    m = vb_room(r, m);
    const float *q = p + 2 * (size_t)i;
    float *v = vb + 2 * (size_t)m;
    kind = pt_kind(flags, i);
    if (kind == PT_ON) {
      v[0] = cx0 = q[0];
      v[1] = cy0 = q[1];
      m++;
      i++;
      continue;
    }
    if (kind == PT_CUBIC) {
      if (i + 1 > limit || pt_kind(flags, i + 1) != PT_CUBIC ||
          (i + 2 <= limit && pt_kind(flags, i + 2) != PT_ON)) {
        ok = false;
        break;
      }
      /* the end: the next point, or the start when the pair ends the contour */
      float ex = i + 2 <= limit ? q[4] : sx, ey = i + 2 <= limit ? q[5] : sy;
      m += cubic_vertices(v, cx0, cy0, q[0], q[1], q[2], q[3], ex, ey);
      cx0 = ex;
      cy0 = ey;
      i += 3;
      continue;
    }
    /* quadratic control points: each one's end is the next point if on the curve, else the
     * midpoint with it, or the start after the last point */
    float cx = q[0], cy = q[1];
    for (;;) {
      float ex, ey;
      int next = ++i > limit ? PT_ON : pt_kind(flags, i);
      if (next == PT_CUBIC) {
        ok = false;
        break;
      }
      if (i > limit) {
        ex = sx;
        ey = sy;
      } else if (next == PT_ON) {
        ex = p[2 * (size_t)i];
        ey = p[2 * (size_t)i + 1];
      } else {
        ex = 0.5f * (cx + p[2 * (size_t)i]);
        ey = 0.5f * (cy + p[2 * (size_t)i + 1]);
      }
      m = vb_room(r, m);
      v = vb + 2 * (size_t)m;
      m += quad_vertices(v, cx0, cy0, cx, cy, ex, ey);
      cx0 = ex;
      cy0 = ey;
      if (i > limit) break;
      if (next == PT_ON) {
        i++;
        break;
      }
      cx = p[2 * (size_t)i];
      cy = p[2 * (size_t)i + 1];
    }
    if (!ok) break;
  }
  r->vb_n = m;
  contour_end(r); /* (a curve that ended on the start leaves no closing line) */
  return ok;
}

/* Transform the n points into r->pts (x, y pairs), with xform2's values (those the pen gets).
 * False when r->pts cannot grow. */
static bool transform_points(otv_raster *r, const otv_point *pts, unsigned n)
{
  void *buf = r->pts;
  if (otv_mem_reserve(&r->al, &buf, &r->pts_cap, n, 2 * sizeof(float))) return false;
  r->pts = buf;
  float *out = r->pts;
#if OTV_SSE2
  unsigned i = 0;
  for (; i + 2 <= n; i += 2) /* otv_point is two floats: two points are 4 consecutive floats */
    _mm_storeu_ps(out + 2 * (size_t)i, xform2(r, _mm_loadu_ps(&pts[i].x)));
  if (i < n) {
    __m128 v = xform2(r, _mm_setr_ps(pts[i].x, pts[i].y, 0.0f, 0.0f));
    _mm_storel_pi((__m64 *)(void *)(out + 2 * (size_t)i), v);
  }
#else
  for (unsigned i = 0; i < n; i++)
    xform(r, pts[i].x, pts[i].y, &out[2 * (size_t)i], &out[2 * (size_t)i + 1]);
#endif
  return true;
}

otv_status otv_raster_add_points(otv_raster *r, const otv_glyph_points *outline)
{
  if (!r || !outline) return OTV_E_ARG;
  unsigned n = outline->point_count, contours = outline->contour_count;
  if (!contours) return OTV_E_OK;
  if (!outline->points || !outline->contour_ends) return OTV_E_ARG;
  const uint16_t *ends = outline->contour_ends;
  for (unsigned c = 0; c < contours; c++)
    if (ends[c] >= n || (c && ends[c] <= ends[c - 1])) return OTV_E_ARG;
  close_contour(r);
  if (r->status) return r->status;
  /* only the points the contours use (phantom points and anything after them are ignored) */
  n = (unsigned)ends[contours - 1] + 1;
  if (!transform_points(r, outline->points, n)) {
    r->status = OTV_E_NOMEM;
    return OTV_E_NOMEM;
  }
  if (r->status) return r->status; /* a non-finite point */
  bool ok = true;
  for (unsigned c = 0, first = 0; c < contours && ok && !r->status; first = (unsigned)ends[c++] + 1)
    ok = contour(r, r->pts, outline->point_flags, first, ends[c]);
  if (!ok && !r->status) r->status = OTV_E_BAD_VALUE;
  return r->status;
}

/* The whole path in one band, inside the buffer. */
RASTER_INLINE void acc_all_in(const otv_raster *r, const band *B, float ox, float oy, bool use_mask)
{
  const seg *s = r->segs, *end = s + r->seg_count;
  for (; s < end; s++) acc_seg_in(B, s->x0 - ox, s->y0 - oy, s->x1 - ox, s->y1 - oy, use_mask);
}

static void acc_in_sparse(const otv_raster *r, const band *B, float ox, float oy)
{
  acc_all_in(r, B, ox, oy, true);
}
static void acc_in_dense(const otv_raster *r, const band *B, float ox, float oy)
{
  acc_all_in(r, B, ox, oy, false);
}

static void acc_clip(const otv_raster *r, const band *B, float ox, float oy)
{
  acc_all(r, B, ox, oy, true, true);
}
static void acc_sparse(const otv_raster *r, const band *B, float ox, float oy)
{
  acc_all(r, B, ox, oy, false, true);
}
static void acc_dense(const otv_raster *r, const band *B, float ox, float oy)
{
  acc_all(r, B, ox, oy, false, false);
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

/* dst "over" coverage: d + c - round(d * c / 255) (exact division trick for t <= 65025+128) */
static inline unsigned blend(unsigned d, unsigned c)
{
  unsigned t = d * c + 128;
  return d + c - ((t + (t >> 8)) >> 8);
}

/* A run of n pixels of one coverage c (no edge in it). */
/* n bytes (n < 64) of value c, without a call: short runs (stems, gaps) are the common case */
static inline void set_short(uint8_t *d, size_t n, unsigned c)
{
#if OTV_SSE2
  if (n >= 16) {
    __m128i v = _mm_set1_epi8((char)c);
    for (size_t i = 0; i + 16 <= n; i += 16) _mm_storeu_si128((__m128i *)(void *)(d + i), v);
    _mm_storeu_si128((__m128i *)(void *)(d + n - 16), v); /* the tail, overlapping */
    return;
  }
#endif
  uint64_t v8 = 0x0101010101010101u * (uint64_t)c;
  if (n >= 8) {
    for (size_t i = 0; i + 8 <= n; i += 8) memcpy(d + i, &v8, 8);
    memcpy(d + n - 8, &v8, 8); /* the tail, overlapping */
  } else if (n >= 4) {
    uint32_t v4 = (uint32_t)v8;
    memcpy(d, &v4, 4);
    memcpy(d + n - 4, &v4, 4);
  } else {
    for (size_t i = 0; i < n; i++) d[i] = (uint8_t)c;
  }
}

/* n zero cells (floats), without a call for the few cells of a block's tail */
static inline void zero_cells(float *a, size_t n)
{
  if (n > 16) {
    memset(a, 0, n * sizeof(float));
    return;
  }
  for (size_t i = 0; i < n; i++) a[i] = 0.0f;
}

RASTER_INLINE void fill_run(uint8_t *d, size_t n, unsigned c, bool replace)
{
  if (replace || c == 255) {
    if (n < 64)
      set_short(d, n, c);
    else
      memset(d, (int)c, n);
  } else if (c) {
    for (size_t i = 0; i < n; i++) d[i] = (uint8_t)blend(d[i], c);
  }
}

#if OTV_SSE2
/* Non-zero coverage of 4 cells (zeroed) after the running sum *carry, composited over the 4
 * bytes `old` (0: written as is): the arithmetic of block() and cov8/blend. */
RASTER_INLINE uint32_t group4(float *a, __m128 *carry, uint32_t old)
{
  const __m128 sign = _mm_set1_ps(-0.0f), one = _mm_set1_ps(1.0f);
  const __m128 k255 = _mm_set1_ps(255.0f), half = _mm_set1_ps(0.5f);
  const __m128i zero = _mm_setzero_si128(), k128 = _mm_set1_epi16(128);
  __m128 v = _mm_loadu_ps(a);
  _mm_storeu_ps(a, _mm_setzero_ps());
  v = _mm_add_ps(v, _mm_castsi128_ps(_mm_slli_si128(_mm_castps_si128(v), 4)));
  v = _mm_add_ps(v, _mm_castsi128_ps(_mm_slli_si128(_mm_castps_si128(v), 8)));
  v = _mm_add_ps(v, *carry);
  *carry = _mm_shuffle_ps(v, v, _MM_SHUFFLE(3, 3, 3, 3));
  __m128 c = _mm_min_ps(_mm_andnot_ps(sign, v), one);
  __m128i ci = _mm_cvttps_epi32(_mm_add_ps(_mm_mul_ps(c, k255), half));
  __m128i c16 = _mm_packs_epi32(ci, zero);
  if (!old) return (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(c16, zero));
  __m128i o16 = _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)old), zero);
  __m128i t = _mm_add_epi16(_mm_mullo_epi16(o16, c16), k128);
  t = _mm_srli_epi16(_mm_add_epi16(t, _mm_srli_epi16(t, 8)), 8);
  __m128i res = _mm_sub_epi16(_mm_add_epi16(o16, c16), t);
  return (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(res, zero));
}

/* The same for 8 cells: two prefix sums, one pack, one 8-byte store (fewer instructions per
 * cell than two group4 calls). */
RASTER_INLINE uint64_t group8(float *a, __m128 *carry, uint64_t old)
{
  const __m128 sign = _mm_set1_ps(-0.0f), one = _mm_set1_ps(1.0f);
  const __m128 k255 = _mm_set1_ps(255.0f), half = _mm_set1_ps(0.5f);
  const __m128i zero = _mm_setzero_si128(), k128 = _mm_set1_epi16(128);
  __m128 v0 = _mm_loadu_ps(a), v1 = _mm_loadu_ps(a + 4);
  _mm_storeu_ps(a, _mm_setzero_ps());
  _mm_storeu_ps(a + 4, _mm_setzero_ps());
  v0 = _mm_add_ps(v0, _mm_castsi128_ps(_mm_slli_si128(_mm_castps_si128(v0), 4)));
  v1 = _mm_add_ps(v1, _mm_castsi128_ps(_mm_slli_si128(_mm_castps_si128(v1), 4)));
  v0 = _mm_add_ps(v0, _mm_castsi128_ps(_mm_slli_si128(_mm_castps_si128(v0), 8)));
  v1 = _mm_add_ps(v1, _mm_castsi128_ps(_mm_slli_si128(_mm_castps_si128(v1), 8)));
  v0 = _mm_add_ps(v0, *carry);
  v1 = _mm_add_ps(v1, _mm_shuffle_ps(v0, v0, _MM_SHUFFLE(3, 3, 3, 3)));
  *carry = _mm_shuffle_ps(v1, v1, _MM_SHUFFLE(3, 3, 3, 3));
  __m128 c0 = _mm_min_ps(_mm_andnot_ps(sign, v0), one);
  __m128 c1 = _mm_min_ps(_mm_andnot_ps(sign, v1), one);
  __m128i i0 = _mm_cvttps_epi32(_mm_add_ps(_mm_mul_ps(c0, k255), half));
  __m128i i1 = _mm_cvttps_epi32(_mm_add_ps(_mm_mul_ps(c1, k255), half));
  __m128i c16 = _mm_packs_epi32(i0, i1);
  uint64_t out;
  if (!old) {
    _mm_storel_epi64((__m128i *)(void *)&out, _mm_packus_epi16(c16, zero));
    return out;
  }
  __m128i o16 = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(const void *)&old), zero);
  __m128i t = _mm_add_epi16(_mm_mullo_epi16(o16, c16), k128);
  t = _mm_srli_epi16(_mm_add_epi16(t, _mm_srli_epi16(t, 8)), 8);
  __m128i res = _mm_sub_epi16(_mm_add_epi16(o16, c16), t);
  _mm_storel_epi64((__m128i *)(void *)&out, _mm_packus_epi16(res, zero));
  return out;
}
#endif

#if defined(__GNUC__)
#  define CTZ64(v) ((unsigned)__builtin_ctzll(v))
#else
static unsigned CTZ64(uint64_t v)
{
  unsigned n = 0;
  while (!(v & 1)) v >>= 1, n++;
  return n;
}
#endif

/* The readout, with the SSE2 8-cell group (or the scalar code without SSE2). */
#if OTV_SSE2
/* Whether the 8 cells a[0..7] are all zero (-0 included). */
RASTER_INLINE bool zero8(const float *a)
{
  const __m128 z = _mm_setzero_ps();
  __m128 ne = _mm_or_ps(_mm_cmpneq_ps(_mm_loadu_ps(a), z), _mm_cmpneq_ps(_mm_loadu_ps(a + 4), z));
  return _mm_movemask_ps(ne) == 0;
}
#endif
#define RO(name) name
#define RO_GROUP8 group8
#define RO_ZERO8 zero8
#include "raster_readout.h"
#undef RO
#undef RO_GROUP8
#undef RO_ZERO8

#if RASTER_AVX2
/* The same readout compiled for AVX2 (one 8-lane prefix sum per 8 cells instead of two 4-lane
 * ones), used when the CPU has it (otv_raster_create asks once). */
OTV_TARGET_AVX2_BEGIN
#  include <immintrin.h>
/* group8 in one 8-lane register, the same sums in the same order: the low 4 cells get their
 * prefix sum plus the carry, the high 4 their prefix sum plus the low group's last total (which
 * holds the carry), as group8 adds them; then the coverage and compositing of group8. */
RASTER_INLINE uint64_t group8_avx2(float *a, __m128 *carry, uint64_t old)
{
  const __m256 sign = _mm256_set1_ps(-0.0f), one = _mm256_set1_ps(1.0f);
  const __m256 k255 = _mm256_set1_ps(255.0f), half = _mm256_set1_ps(0.5f);
  const __m128i zero = _mm_setzero_si128(), k128 = _mm_set1_epi16(128);
  __m256 v = _mm256_loadu_ps(a);
  _mm256_storeu_ps(a, _mm256_setzero_ps());
  v = _mm256_add_ps(v, _mm256_castsi256_ps(_mm256_slli_si256(_mm256_castps_si256(v), 4)));
  v = _mm256_add_ps(v, _mm256_castsi256_ps(_mm256_slli_si256(_mm256_castps_si256(v), 8)));
  /* + carry in the low lane (+0 in the high one: exact) */
  v = _mm256_add_ps(v, _mm256_zextps128_ps256(*carry));
  /* + the low lane's last sum in the high lane (+0 in the low one) */
  __m256 t = _mm256_permutevar8x32_ps(v, _mm256_set1_epi32(3));
  v = _mm256_add_ps(v, _mm256_blend_ps(_mm256_setzero_ps(), t, 0xF0));
  *carry = _mm256_castps256_ps128(_mm256_permutevar8x32_ps(v, _mm256_set1_epi32(7)));
  __m256 c = _mm256_min_ps(_mm256_andnot_ps(sign, v), one);
  __m256i ci = _mm256_cvttps_epi32(_mm256_add_ps(_mm256_mul_ps(c, k255), half));
  __m128i c16 = _mm_packs_epi32(_mm256_castsi256_si128(ci), _mm256_extracti128_si256(ci, 1));
  uint64_t out;
  if (!old) {
    _mm_storel_epi64((__m128i *)(void *)&out, _mm_packus_epi16(c16, zero));
    return out;
  }
  __m128i o16 = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(const void *)&old), zero);
  __m128i tt = _mm_add_epi16(_mm_mullo_epi16(o16, c16), k128);
  tt = _mm_srli_epi16(_mm_add_epi16(tt, _mm_srli_epi16(tt, 8)), 8);
  __m128i res = _mm_sub_epi16(_mm_add_epi16(o16, c16), tt);
  _mm_storel_epi64((__m128i *)(void *)&out, _mm_packus_epi16(res, zero));
  return out;
}
RASTER_INLINE bool zero8_avx2(const float *a)
{
  __m256 ne = _mm256_cmp_ps(_mm256_loadu_ps(a), _mm256_setzero_ps(), _CMP_NEQ_UQ);
  return _mm256_movemask_ps(ne) == 0;
}
#  define RO(name) name##_avx2
#  define RO_GROUP8 group8_avx2
#  define RO_ZERO8 zero8_avx2
#  include "raster_readout.h"
#  undef RO
#  undef RO_GROUP8
#  undef RO_ZERO8
OTV_TARGET_AVX2_END
#endif

/* The readout function f, in its AVX2 copy when the CPU has AVX2. */
#if RASTER_AVX2
#  define READOUT(r, f) ((r)->avx2 ? f##_avx2 : f)
#else
#  define READOUT(r, f) f
#endif

static otv_status grow(otv_raster *r, void **p, size_t *cap, size_t need, size_t elem)
{
  if (need <= *cap) return OTV_E_OK;
  size_t old = *cap;
  uint8_t *q = otv_mem_realloc(&r->al, *p, old * elem, need * elem);
  if (!q) return OTV_E_NOMEM;
  /* invariant: accumulation cells and masks are all zero between renders */
  memset(q + old * elem, 0, (need - old) * elem);
  *p = q;
  *cap = need;
  return OTV_E_OK;
}

/* OTV_RASTER_CLEAR: zero every pixel of the buffer outside the region x0..x1-1, y0..y1-1 (an
 * empty region: the whole buffer); the region itself is written by the readout. */
static void clear_outside(uint8_t *buf, unsigned width, unsigned height, size_t stride, long x0,
                          long y0, long x1, long y1)
{
  if (x0 >= x1 || y0 >= y1) x0 = x1 = y0 = y1 = 0;
  for (long y = 0; y < (long)height; y++) {
    uint8_t *d = buf + (size_t)y * stride;
    if (y < y0 || y >= y1) {
      memset(d, 0, width);
    } else {
      if (x0 > 0) memset(d, 0, (size_t)x0);
      if (x1 < (long)width) memset(d + x1, 0, (size_t)((long)width - x1));
    }
  }
}

/* Floor and ceiling of a bound (finite, within +-2^22: the transform clamps) without libm's
 * double rounding. */
static inline long floor_l(float v)
{
  long i = (long)v;
  return i - (v < (float)i);
}
static inline long ceil_l(float v)
{
  long i = (long)v;
  return i + (v > (float)i);
}

otv_status otv_raster_render(otv_raster *r, uint8_t *buf, unsigned width, unsigned height,
                             size_t stride, unsigned flags)
{
  if (!r) return OTV_E_ARG;
  close_contour(r);
  otv_status st = r->status;
  if (!st && width && height && (!buf || stride < width || width > INT32_MAX || height > INT32_MAX))
    st = OTV_E_ARG;
  if (!st && r->direct && (width != r->tgt_w || height != r->tgt_h)) st = OTV_E_ARG;
  bool clear = (flags & OTV_RASTER_CLEAR) != 0;
  if (st || r->seg_count == 0 || !width || !height) {
    if (!st && clear && width && height) clear_outside(buf, width, height, stride, 0, 0, 0, 0);
    path_clear(r);
    return st;
  }
  /* region: the path's pixel bounds clipped to the buffer. Parts left of the buffer still count
   * (in column 0); parts right of it, above or below it do not. */
  long fx0 = floor_l(r->min_x), fy0 = floor_l(r->min_y), fx1 = ceil_l(r->max_x);
  long fy1 = ceil_l(r->max_y);
  long rx0 = fx0 < 0 ? 0 : fx0, ry0 = fy0 < 0 ? 0 : fy0;
  long rx1 = fx1 > (long)width ? (long)width : fx1, ry1 = fy1 > (long)height ? (long)height : fy1;
  if (fx1 <= 0) rx1 = 1; /* wholly left of the buffer: winding may still cover column 0 */
  if (rx0 >= rx1 || ry0 >= ry1 || rx0 >= (long)width) {
    if (clear) clear_outside(buf, width, height, stride, 0, 0, 0, 0);
    path_clear(r);
    return OTV_E_OK;
  }
  size_t w = (size_t)(rx1 - rx0);
  bool even_odd = (flags & OTV_RASTER_EVEN_ODD) != 0;
  bool replace = (flags & (OTV_RASTER_REPLACE | OTV_RASTER_CLEAR)) != 0;
  if (clear) clear_outside(buf, width, height, stride, rx0, ry0, rx1, ry1);
  if (r->direct) {
    /* the coverage is accumulated already: read the region out of the target-sized rows */
    const band *D = &r->D;
    if (!r->dir_mask) {
      float *a = D->acc + (size_t)ry0 * D->row_len;
      /* an interpolated x rounded an ulp below x_min can reach cell rx0 - 1 (a rounding-sized
       * value): zeroed, not read */
      if (rx0 > 0)
        for (long y = ry0; y < ry1; y++) D->acc[(size_t)y * D->row_len + (size_t)rx0 - 1] = 0.0f;
      READOUT(r, readout_dense_rows)
      (a + rx0, D->row_len, buf + (size_t)ry0 * stride + (size_t)rx0, stride, (int)(ry1 - ry0), w,
       w + 2, even_odd, replace);
      r->direct = false; /* everything it touched is zero again */
      path_clear(r);
      return OTV_E_OK;
    }
    READOUT(r, sparse_rows)
    (D->acc + (size_t)ry0 * D->row_len, D->row_len, D->mask + (size_t)ry0 * D->mwords, D->mwords,
     buf + (size_t)ry0 * stride, stride, ry1 - ry0, (size_t)rx0, (size_t)rx1, even_odd, replace);
    r->direct = false; /* everything it touched is zero again */
    path_clear(r);
    return OTV_E_OK;
  }
  band B;
  B.row_len = (w + 2 + 7) & ~(size_t)7;
  B.mwords = ((B.row_len >> RASTER_BLOCK_SHIFT) + 63) / 64;
  B.w = (float)w;
  size_t rows = RASTER_BAND_CELLS / B.row_len;
  if (rows < 1) rows = 1;
  if (rows > (size_t)(ry1 - ry0)) rows = (size_t)(ry1 - ry0);
  if (grow(r, (void **)&r->acc, &r->acc_cap, rows * B.row_len, sizeof(float)) ||
      grow(r, (void **)&r->mask, &r->mask_cap, rows * B.mwords, sizeof(uint64_t))) {
    path_clear(r);
    return OTV_E_NOMEM;
  }
  B.acc = r->acc;
  B.mask = r->mask;
  float ox = (float)rx0;
  /* no clipping in x when the path lies inside the buffer's columns; narrow regions are read out
   * densely (marking blocks would cost more than it saves) */
  bool clip = fx0 < 0 || fx1 > (long)width, dense = !clip && w <= RASTER_DENSE_MAX;
  /* the whole path in one band inside the buffer: y - oy is then in [0, rows] (oy = floor of the
   * least y, rows = ceil of the largest minus oy; float subtraction rounds monotonically) */
  bool inside = !clip && fy0 >= 0 && fy1 <= (long)height && rows == (size_t)(ry1 - ry0);
  for (long by = ry0; by < ry1; by += (long)rows) {
    B.rows = (int)(ry1 - by < (long)rows ? ry1 - by : (long)rows);
    float oy = (float)by;
    if (clip)
      acc_clip(r, &B, ox, oy);
    else if (inside)
      (dense ? acc_in_dense : acc_in_sparse)(r, &B, ox, oy);
    else if (dense)
      acc_dense(r, &B, ox, oy);
    else
      acc_sparse(r, &B, ox, oy);
    if (dense) {
      READOUT(r, readout_dense_rows)
      (B.acc, B.row_len, buf + (size_t)by * stride + (size_t)rx0, stride, B.rows, w, B.row_len,
       even_odd, replace);
      continue;
    }
    READOUT(r, sparse_rows)
    (B.acc, B.row_len, B.mask, B.mwords, buf + (size_t)by * stride + (size_t)rx0, stride, B.rows, 0,
     w, even_odd, replace);
  }
  path_clear(r);
  return OTV_E_OK;
}

/* ---- direct mode ---- */

/* Zero the rows the path of direct mode may have touched (its bounds' rows in the target) and
 * end direct mode. */
static void direct_discard(otv_raster *r)
{
  r->direct = false;
  if (!(r->min_y <= r->max_y)) return; /* nothing drawn */
  double fy0 = floor(r->min_y), fy1 = ceil(r->max_y);
  size_t y0 = fy0 < 0 ? 0 : fy0 > r->tgt_h ? r->tgt_h : (size_t)fy0;
  size_t y1 = fy1 < 0 ? 0 : fy1 > r->tgt_h ? r->tgt_h : (size_t)fy1;
  if (y0 >= y1) return;
  memset(r->D.acc + y0 * r->D.row_len, 0, (y1 - y0) * r->D.row_len * sizeof(float));
  memset(r->D.mask + y0 * r->D.mwords, 0, (y1 - y0) * r->D.mwords * sizeof(uint64_t));
}

otv_status otv_raster_begin(otv_raster *r, unsigned width, unsigned height)
{
  if (!r) return OTV_E_ARG;
  path_clear(r);
  if (width > INT32_MAX || height > INT32_MAX) return OTV_E_ARG;
  if (!width || !height) return OTV_E_OK;
  /* cells 0..width+1 take coverage; the dense readout reads up to 8 cells from each column,
   * so up to width+7 */
  size_t row_len = ((size_t)width + 7 + 7) & ~(size_t)7;
  if ((uint64_t)height * row_len > RASTER_DIRECT_CELLS) return OTV_E_OK; /* large: stored path */
  size_t mwords = ((row_len >> RASTER_BLOCK_SHIFT) + 63) / 64;
  if (grow(r, (void **)&r->acc, &r->acc_cap, row_len * height, sizeof(float)) ||
      grow(r, (void **)&r->mask, &r->mask_cap, mwords * height, sizeof(uint64_t)))
    return OTV_E_NOMEM;
  r->D.acc = r->acc;
  r->D.mask = r->mask;
  r->D.row_len = row_len;
  r->D.mwords = mwords;
  r->D.w = (float)width;
  r->D.rows = (int)height;
  r->dir_h = (float)height;
  r->dir_mask = width > RASTER_DENSE_MAX;
  r->tgt_w = width;
  r->tgt_h = height;
  r->direct = true;
  return OTV_E_OK;
}

/* ---- object ---- */

static void set_float(otv_raster *r)
{
  r->fxx = (float)r->t.xx;
  r->fxy = (float)r->t.xy;
  r->fyx = (float)r->t.yx;
  r->fyy = (float)r->t.yy;
  r->fdx = (float)r->t.dx;
  r->fdy = (float)r->t.dy;
  r->axis_aligned = r->fxy == 0.0f && r->fyx == 0.0f;
  for (int i = 0; i < 4; i += 2) {
    r->xf_m[i] = r->fxx;
    r->xf_m[i + 1] = r->fyy;
    r->xf_c[i] = r->fxy;
    r->xf_c[i + 1] = r->fyx;
    r->xf_d[i] = r->fdx;
    r->xf_d[i + 1] = r->fdy;
  }
}

#if RASTER_AVX2
#  include <cpuid.h>
/* Whether the CPU and the OS run AVX2: CPUID leaf 1 (OSXSAVE and AVX), XCR0 (the XMM and YMM
 * states saved by the OS) and leaf 7 (AVX2). Asked at the first rasterizer's creation, not by
 * __builtin_cpu_supports: that pulls libgcc's constructor (__cpu_indicator_init) into every
 * program linking the library, which probes the CPU before main (CPUID traps to the hypervisor
 * on virtual machines) whether anything is drawn or not. The answer is cached (0 not asked yet,
 * 1 no, 2 yes); threads racing on the first call store the same value (relaxed atomics). */
static bool cpu_has_avx2(void)
{
  static int cached;
  int c = __atomic_load_n(&cached, __ATOMIC_RELAXED);
  if (!c) {
    unsigned a, b, cx, d;
    bool yes = false;
    if (__get_cpuid(1, &a, &b, &cx, &d) && (cx & (1u << 27)) && (cx & (1u << 28))) {
      unsigned lo, hi;
      __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
      (void)hi;
      if ((lo & 6u) == 6u && __get_cpuid_count(7, 0, &a, &b, &cx, &d) && (b & (1u << 5)))
        yes = true;
    }
    c = yes ? 2 : 1;
    __atomic_store_n(&cached, c, __ATOMIC_RELAXED);
  }
  return c == 2;
}
#endif

void otv_raster_use_sse2(otv_raster *r)
{
  if (r) r->avx2 = false;
}

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
  set_float(r);
  path_clear(r);
#if RASTER_AVX2
  r->avx2 = cpu_has_avx2();
#endif
  *out = r;
  return OTV_E_OK;
}

void otv_raster_destroy(otv_raster *r)
{
  if (!r) return;
  otv_alloc al = r->al;
  otv_mem_free(&al, r->segs, r->seg_cap * sizeof(seg));
  otv_mem_free(&al, r->acc, r->acc_cap * sizeof(float));
  otv_mem_free(&al, r->mask, r->mask_cap * sizeof(uint64_t));
  otv_mem_free(&al, r->pts, r->pts_cap * 2 * sizeof(float));
  otv_mem_free(&al, r->vb, RASTER_VB_CAP * 2 * sizeof(float));
  otv_mem_free(&al, r, sizeof *r);
}

otv_status otv_raster_set_transform(otv_raster *r, const otv_transform *t)
{
  if (!r) return OTV_E_ARG;
  if (!t) {
    r->t = (otv_transform){1, 0, 0, 1, 0, 0};
    set_float(r);
    return OTV_E_OK;
  }
  if (!isfinite(t->xx) || !isfinite(t->xy) || !isfinite(t->yx) || !isfinite(t->yy) ||
      !isfinite(t->dx) || !isfinite(t->dy))
    return OTV_E_ARG;
  r->t = *t;
  set_float(r);
  return OTV_E_OK;
}

bool otv_raster_bounds(const otv_raster *r, otv_raster_box *out)
{
  if (!r || !out) return false;
  float x0 = r->min_x, y0 = r->min_y, x1 = r->max_x, y1 = r->max_y;
  bool any = r->seg_count > 0;
  if (r->open && r->vb_n) {
    /* the open contour's vertices, not run yet: its segments (closing line included) add area
     * unless every vertex lies on the start's row */
    float lo[2] = {r->vb[0], r->vb[1]}, hi[2] = {r->vb[0], r->vb[1]};
    vb_bounds(r->vb, r->vb_n, lo, hi);
    any |= lo[1] != r->start_y || hi[1] != r->start_y;
    x0 = fminf(x0, lo[0]);
    y0 = fminf(y0, lo[1]);
    x1 = fmaxf(x1, hi[0]);
    y1 = fmaxf(y1, hi[1]);
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

/*
 * build/tvs.c - the tuple variation stores of a build (spec: otvarcommonformats "Tuple Variation
 * Store"; gvar; cvar): per glyph the masters' points (phantom points included), the model's
 * deltas rounded half to even, IUP optimisation (a point is left out when the interpolation of
 * the listed rounded deltas gives it within 0.5 of its own rounded delta, as fontTools'
 * iup_delta_optimize with its default tolerance), and the encodings chosen for the fewest bytes:
 * shared tuples for peaks used by more than one glyph, per glyph the shared point numbers that
 * save the most, short (offset / 2) or long glyph offsets, whichever table is smaller.
 */
#include "build/master.h"
#include "build/tables.h"
#include "tuple.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#if OTV_SSE2
#  include <emmintrin.h>
#endif

#define EMBEDDED_PEAK 0x8000u
#define INTERMEDIATE 0x4000u
#define PRIVATE_POINTS 0x2000u
#define SHARED_POINTS 0x8000u
#define MAX_SHARED_TUPLES 4095u
#define IUP_TOL 0.5
#define IUP_LOOKBACK 64u
#define IUP_SEARCH_WORK ((size_t)1 << 16) /* len x lookback past which one start is tried */

/* ---- IUP (spec: gvar "Inferred deltas for un-referenced point numbers") ---- */

typedef struct iup {
  const double *ox, *oy;
  const int32_t *rx, *ry;
  unsigned a, b;
  /* When every coordinate and delta is an integer small enough for the line test's products
   * to be exact (coordinates within 2^20, deltas within 2^30: below 2^53), the glyph's contours
   * twice over (contour [a, b] of length len at [2a, 2a + 2 len): point a + k at 2a + k and
   * 2a + k + len, so a gap never wraps), x and y side by side (point q's at 2q and 2q + 1: one
   * SSE2 operation tests both axes): coordinates g2 (per glyph) and scratch for the deltas r2
   * (per tuple) and the forced points fz; else g2 is NULL. */
  const double *g2;
  double *r2;
  uint8_t *fz;
} iup;

static unsigned nxt(const iup *c, unsigned k) { return k == c->b ? c->a : k + 1; }

/* The line IUP draws on one axis between references j and i (spec: gvar "Inferred deltas"):
 * below x1 the delta d1, above x2 d2, linear in between; equal coordinates: d1 when the deltas
 * are equal, else 0 (otv_iup_infer). Tested without a division: inside (x1, x2) the value
 * d1 + (x - x1) (d2 - d1) / (x2 - x1) is within IUP_TOL of r when
 * |(d1 - r) (x2 - x1) + (x - x1) (d2 - d1)| <= IUP_TOL (x2 - x1), exact for the integer
 * coordinates and deltas of glyphs (the products stay far below 2^53) where the quotient
 * rounded (the division was the IUP search's largest single cost). */
typedef struct iup_line {
  double x1, x2, d1, d2, dx, dd, tol;
  bool flat;
} iup_line;

static iup_line line_of(const double *o, const int32_t *r, unsigned j, unsigned i)
{
  iup_line l;
  double x1 = o[j], x2 = o[i], d1 = r[j], d2 = r[i];
  if (x1 > x2) {
    double t = x1;
    x1 = x2, x2 = t;
    t = d1, d1 = d2, d2 = t;
  }
  l.x1 = x1, l.x2 = x2, l.d1 = d1, l.d2 = d2;
  l.flat = x1 == x2;
  if (l.flat) l.d1 = l.d2 = d1 == d2 ? d1 : 0;
  l.dx = x2 - x1;
  l.dd = l.d2 - l.d1;
  l.tol = IUP_TOL * l.dx;
  return l;
}

/* Whether the line's value at x is further than IUP_TOL from the delta r. */
static OTV_ALWAYS_INLINE bool line_off(const iup_line *l, double x, double r)
{
  if (l->flat || x <= l->x1) return fabs(l->d1 - r) > IUP_TOL;
  if (x >= l->x2) return fabs(l->d2 - r) > IUP_TOL;
  return fabs((l->d1 - r) * l->dx + (x - l->x1) * l->dd) > l->tol;
}

/* Two doubles, x and y (v2), and a mask of two lanes (v2m): SSE2 where the compiler targets it,
 * else the same operations lane by lane. On the integer values the doubled contours hold every
 * operation is exact, so both give the same answers. */
#if OTV_SSE2
typedef __m128d v2;
typedef __m128d v2m;
static OTV_ALWAYS_INLINE v2 v2_ld(const double *p) { return _mm_loadu_pd(p); }
static OTV_ALWAYS_INLINE v2 v2_set(double x, double y) { return _mm_set_pd(y, x); }
static OTV_ALWAYS_INLINE v2 v2_min(v2 a, v2 b) { return _mm_min_pd(a, b); }
static OTV_ALWAYS_INLINE v2 v2_max(v2 a, v2 b) { return _mm_max_pd(a, b); }
static OTV_ALWAYS_INLINE v2 v2_add(v2 a, v2 b) { return _mm_add_pd(a, b); }
static OTV_ALWAYS_INLINE v2 v2_sub(v2 a, v2 b) { return _mm_sub_pd(a, b); }
static OTV_ALWAYS_INLINE v2 v2_mul(v2 a, v2 b) { return _mm_mul_pd(a, b); }
static OTV_ALWAYS_INLINE v2 v2_abs(v2 a) { return _mm_andnot_pd(_mm_set1_pd(-0.0), a); }
static OTV_ALWAYS_INLINE v2m v2_lt(v2 a, v2 b) { return _mm_cmplt_pd(a, b); }
static OTV_ALWAYS_INLINE v2m v2_gt(v2 a, v2 b) { return _mm_cmpgt_pd(a, b); }
static OTV_ALWAYS_INLINE v2m v2_eq(v2 a, v2 b) { return _mm_cmpeq_pd(a, b); }
static OTV_ALWAYS_INLINE v2m v2_ne(v2 a, v2 b) { return _mm_cmpneq_pd(a, b); }
static OTV_ALWAYS_INLINE v2m v2m_and(v2m a, v2m b) { return _mm_and_pd(a, b); }
static OTV_ALWAYS_INLINE v2m v2_le(v2 a, v2 b) { return _mm_cmple_pd(a, b); }
static OTV_ALWAYS_INLINE v2m v2m_or(v2m a, v2m b) { return _mm_or_pd(a, b); }
static OTV_ALWAYS_INLINE v2m v2m_xor(v2m a, v2m b) { return _mm_xor_pd(a, b); }
/* !a && b */
static OTV_ALWAYS_INLINE v2m v2m_andnot(v2m a, v2m b) { return _mm_andnot_pd(a, b); }
/* m ? a : b */
static OTV_ALWAYS_INLINE v2m v2m_sel(v2m m, v2m a, v2m b)
{
  return _mm_or_pd(_mm_and_pd(m, a), _mm_andnot_pd(m, b));
}
static OTV_ALWAYS_INLINE bool v2m_any(v2m m) { return _mm_movemask_pd(m) != 0; }
/* m ? a : b, lane by lane */
static OTV_ALWAYS_INLINE v2 v2_sel(v2m m, v2 a, v2 b)
{
  return _mm_or_pd(_mm_and_pd(m, a), _mm_andnot_pd(m, b));
}
/* m ? 0 : a */
static OTV_ALWAYS_INLINE v2 v2_zero_if(v2m m, v2 a) { return _mm_andnot_pd(m, a); }
/* m ? a : -a */
static OTV_ALWAYS_INLINE v2 v2_neg_unless(v2m m, v2 a)
{
  return _mm_xor_pd(a, _mm_andnot_pd(m, _mm_set1_pd(-0.0)));
}
/* m ? 1 : 0 */
static OTV_ALWAYS_INLINE v2 v2_one_if(v2m m) { return _mm_and_pd(m, _mm_set1_pd(1.0)); }
#else
typedef struct v2 {
  double v[2];
} v2;
typedef struct v2m {
  bool m[2];
} v2m;
static OTV_ALWAYS_INLINE v2 v2_ld(const double *p) { return (v2){{p[0], p[1]}}; }
static OTV_ALWAYS_INLINE v2 v2_set(double x, double y) { return (v2){{x, y}}; }
static OTV_ALWAYS_INLINE v2 v2_min(v2 a, v2 b)
{
  return (v2){{a.v[0] < b.v[0] ? a.v[0] : b.v[0], a.v[1] < b.v[1] ? a.v[1] : b.v[1]}};
}
static OTV_ALWAYS_INLINE v2 v2_max(v2 a, v2 b)
{
  return (v2){{a.v[0] > b.v[0] ? a.v[0] : b.v[0], a.v[1] > b.v[1] ? a.v[1] : b.v[1]}};
}
static OTV_ALWAYS_INLINE v2 v2_add(v2 a, v2 b) { return (v2){{a.v[0] + b.v[0], a.v[1] + b.v[1]}}; }
static OTV_ALWAYS_INLINE v2 v2_sub(v2 a, v2 b) { return (v2){{a.v[0] - b.v[0], a.v[1] - b.v[1]}}; }
static OTV_ALWAYS_INLINE v2 v2_mul(v2 a, v2 b) { return (v2){{a.v[0] * b.v[0], a.v[1] * b.v[1]}}; }
static OTV_ALWAYS_INLINE v2 v2_abs(v2 a) { return (v2){{fabs(a.v[0]), fabs(a.v[1])}}; }
static OTV_ALWAYS_INLINE v2m v2_lt(v2 a, v2 b) { return (v2m){{a.v[0] < b.v[0], a.v[1] < b.v[1]}}; }
static OTV_ALWAYS_INLINE v2m v2_gt(v2 a, v2 b) { return (v2m){{a.v[0] > b.v[0], a.v[1] > b.v[1]}}; }
static OTV_ALWAYS_INLINE v2m v2_eq(v2 a, v2 b)
{
  return (v2m){{a.v[0] == b.v[0], a.v[1] == b.v[1]}};
}
static OTV_ALWAYS_INLINE v2m v2_ne(v2 a, v2 b)
{
  return (v2m){{a.v[0] != b.v[0], a.v[1] != b.v[1]}};
}
static OTV_ALWAYS_INLINE v2m v2m_and(v2m a, v2m b)
{
  return (v2m){{a.m[0] && b.m[0], a.m[1] && b.m[1]}};
}
static OTV_ALWAYS_INLINE v2m v2_le(v2 a, v2 b)
{
  return (v2m){{a.v[0] <= b.v[0], a.v[1] <= b.v[1]}};
}
static OTV_ALWAYS_INLINE v2m v2m_or(v2m a, v2m b)
{
  return (v2m){{a.m[0] || b.m[0], a.m[1] || b.m[1]}};
}
static OTV_ALWAYS_INLINE v2m v2m_xor(v2m a, v2m b)
{
  return (v2m){{a.m[0] != b.m[0], a.m[1] != b.m[1]}};
}
static OTV_ALWAYS_INLINE v2m v2m_andnot(v2m a, v2m b)
{
  return (v2m){{!a.m[0] && b.m[0], !a.m[1] && b.m[1]}};
}
static OTV_ALWAYS_INLINE v2m v2m_sel(v2m m, v2m a, v2m b)
{
  return (v2m){{m.m[0] ? a.m[0] : b.m[0], m.m[1] ? a.m[1] : b.m[1]}};
}
static OTV_ALWAYS_INLINE bool v2m_any(v2m m) { return m.m[0] || m.m[1]; }
static OTV_ALWAYS_INLINE v2 v2_sel(v2m m, v2 a, v2 b)
{
  return (v2){{m.m[0] ? a.v[0] : b.v[0], m.m[1] ? a.v[1] : b.v[1]}};
}
static OTV_ALWAYS_INLINE v2 v2_zero_if(v2m m, v2 a)
{
  return (v2){{m.m[0] ? 0 : a.v[0], m.m[1] ? 0 : a.v[1]}};
}
static OTV_ALWAYS_INLINE v2 v2_one_if(v2m m) { return (v2){{m.m[0] ? 1 : 0, m.m[1] ? 1 : 0}}; }
static OTV_ALWAYS_INLINE v2 v2_neg_unless(v2m m, v2 a)
{
  return (v2){{m.m[0] ? a.v[0] : -a.v[0], m.m[1] ? a.v[1] : -a.v[1]}};
}
#endif

/* The line of between_ok on both axes of the doubled contour (iup.g2) without a branch per
 * point: the coordinate clamped to [x1, x2] makes line_off's three cases one test (at x1 the
 * value is d1, at x2 d2; a flat line gets dx 1 and dd 0, its value d1 everywhere, or 0 when its
 * ends' deltas differ): the same answers on the integer values g2 and r2 hold, where every
 * product is exact. */
typedef struct wline {
  v2 x1, x2, c0, dx, dd, tol; /* c0 = d1 dx - x1 dd: the test is |c0 + x dd - r dx| > tol */
} wline;

/* The line from reference (a1, e1) to (a2, e2), on each axis. */
static OTV_ALWAYS_INLINE wline wline_of(v2 a1, v2 e1, v2 a2, v2 e2)
{
  wline l;
  v2m sw = v2_gt(a1, a2), flat = v2_eq(a1, a2);
  v2 f = v2_sel(sw, e2, e1), t = v2_sel(sw, e1, e2); /* the deltas at x1 and x2 */
  l.x1 = v2_min(a1, a2), l.x2 = v2_max(a1, a2);
  /* flat (no swap there): e1 when the deltas are equal, else 0 */
  v2 d1 = v2_zero_if(v2m_and(flat, v2_ne(e1, e2)), f);
  l.dx = v2_add(v2_sub(l.x2, l.x1), v2_one_if(flat));
  l.dd = v2_zero_if(flat, v2_sub(t, f));
  l.c0 = v2_sub(v2_mul(d1, l.dx), v2_mul(l.x1, l.dd));
  l.tol = v2_mul(v2_set(IUP_TOL, IUP_TOL), l.dx);
  return l;
}

/* Whether the line's value at xy (point's coordinates) is further than IUP_TOL from the delta
 * r on either axis: |(d1 - r) dx + (x - x1) dd| > tol written as |c0 + x dd - r dx| > tol, the
 * same integer (coordinates within 2^20, deltas within 2^30: every term and partial sum stays
 * within 2^53, so exact in any order). */
static OTV_ALWAYS_INLINE bool wline_off(const wline *l, const double *xy, const double *r)
{
  v2 x = v2_min(v2_max(v2_ld(xy), l->x1), l->x2);
  v2 v = v2_sub(v2_add(l->c0, v2_mul(x, l->dd)), v2_mul(v2_ld(r), l->dx));
  return v2m_any(v2_gt(v2_abs(v), l->tol));
}

static bool between_ok(const iup *c, unsigned j, unsigned i)
{
  iup_line lx = line_of(c->ox, c->rx, j, i), ly = line_of(c->oy, c->ry, j, i);
  for (unsigned k = nxt(c, j); k != i; k = nxt(c, k))
    if (line_off(&lx, c->ox[k], c->rx[k]) || line_off(&ly, c->oy[k], c->ry[k])) return false;
  return true;
}

static void iup_choose(unsigned a, unsigned len, unsigned L, uint8_t *keep, int *cost, int *prev,
                       const uint8_t *ok, const int *reach);

/* Whether IUP cannot give delta dj at coordinate cj from any references, on each axis, from its
 * neighbours (c1, d1) and (c2, d2) (see iup_contour; with c1 <= c2 after a swap): at c1 == c2,
 * when |d1 - d2| > tol and |dj| > tol; between c1 and c2, when dj leaves [min - tol, max + tol]
 * of d1 and d2; outside, when d1 != d2, |dj| > tol, |dj - the nearer delta| > tol and dj lies on
 * the side that interpolation does not extend to. Every case is computed and the one that
 * applies selected (no branch): the same answers as iup_contour's loop on the integer values of
 * the doubled contours. */
static OTV_ALWAYS_INLINE v2m forced_v(v2 c1, v2 c2, v2 d1, v2 d2, v2 cj, v2 dj)
{
  v2 tol = v2_set(IUP_TOL, IUP_TOL);
  v2m sw = v2_gt(c1, c2);
  v2 lo = v2_min(c1, c2), hi = v2_max(c1, c2); /* c1, c2 after the swap */
  v2 e1 = v2_sel(sw, d2, d1), e2 = v2_sel(sw, d1, d2);
  v2 dmin = v2_min(e1, e2), dmax = v2_max(e1, e2);
  v2m bigj = v2_gt(v2_abs(dj), tol);
  v2m f_eq = v2m_and(v2_gt(v2_sub(dmax, dmin), tol), bigj);
  v2m inside = v2m_and(v2_le(lo, cj), v2_le(cj, hi));
  v2m f_in = v2m_or(v2_lt(dj, v2_sub(dmin, tol)), v2_gt(dj, v2_add(dmax, tol)));
  /* outside: t the nearer neighbour's delta less dj; below, dj - tol < e1 is t > -tol; above,
   * e2 < dj + tol is -t > -tol (exact on integers) */
  v2m below = v2_lt(cj, lo);
  v2 t = v2_sub(v2_sel(below, e1, e2), dj);
  v2m side = v2_gt(v2_neg_unless(below, t), v2_set(-IUP_TOL, -IUP_TOL));
  v2m f_out = v2m_andnot(
      v2_eq(e1, e2), v2m_and(v2m_and(bigj, v2_gt(v2_abs(t), tol)), v2m_xor(side, v2_lt(e1, e2))));
  return v2m_sel(v2_eq(lo, hi), f_eq, v2m_sel(inside, f_in, f_out));
}

/* iup_contour's rows (ok, reach: reach[] set to 1 by the caller) on the doubled contour
 * (c->g2): the same forced points and the same gaps as its loops over the contour, without
 * wrapping indices, with the clamped line test (wline) and the point that failed the row's
 * last gap tested first (it often fails the next one too). */
static void iup_rows_w(const iup *c, unsigned len, unsigned L, uint8_t *ok, int *reach)
{
  size_t o2 = 2 * (size_t)c->a;
  const double *G = c->g2 + 2 * o2; /* point q: G[2q], G[2q + 1] */
  double *R = c->r2 + 2 * o2;
  uint8_t *F = c->fz + o2;
  unsigned k0 = 0;
  const int32_t *rx = c->rx + c->a, *ry = c->ry + c->a;
#if OTV_SSE2
  for (; k0 + 2 <= len; k0 += 2) { /* two points: (x, y) pairs converted and stored twice */
    __m128d x = _mm_cvtepi32_pd(_mm_loadl_epi64((const __m128i *)(const void *)(rx + k0)));
    __m128d y = _mm_cvtepi32_pd(_mm_loadl_epi64((const __m128i *)(const void *)(ry + k0)));
    __m128d p0 = _mm_unpacklo_pd(x, y), p1 = _mm_unpackhi_pd(x, y);
    _mm_storeu_pd(R + 2 * k0, p0), _mm_storeu_pd(R + 2 * k0 + 2, p1);
    _mm_storeu_pd(R + 2 * (k0 + len), p0), _mm_storeu_pd(R + 2 * (k0 + len) + 2, p1);
  }
#endif
  for (unsigned k = k0; k < len; k++) {
    R[2 * k] = R[2 * (k + len)] = rx[k];
    R[2 * k + 1] = R[2 * (k + len) + 1] = ry[k];
  }
  for (unsigned k = 1; k <= len; k++) { /* point k % len, its neighbours k - 1 and k + 1 */
    bool f =
        v2m_any(forced_v(v2_ld(G + 2 * (k - 1)), v2_ld(G + 2 * (k + 1)), v2_ld(R + 2 * (k - 1)),
                         v2_ld(R + 2 * (k + 1)), v2_ld(G + 2 * k), v2_ld(R + 2 * k)));
    unsigned q = k == len ? 0 : k;
    F[q] = F[q + len] = f;
  }
  for (unsigned p = 0; p < len; p++) {
    uint8_t *o = ok + (size_t)p * (L + 1);
    unsigned n = 1, P = p + len, wit = 0;
    o[1] = 1;
    v2 pv = v2_ld(R + 2 * P), pg = v2_ld(G + 2 * P);
    v2 lo = v2_set(HUGE_VAL, HUGE_VAL), hi = v2_set(-HUGE_VAL, -HUGE_VAL);
    for (unsigned g = 2; g <= L; g++) {
      unsigned in = P - g + 1, J = P - g; /* the point now between, the reference */
      if (F[in]) break;
      v2 v = v2_ld(R + 2 * in);
      lo = v2_min(v, lo), hi = v2_max(v, hi);
      if (v2m_any(v2m_and(v2_lt(lo, pv), v2_gt(hi, pv)))) break;
      v2 jv = v2_ld(R + 2 * J);
      if (v2m_any(v2m_or(v2_lt(lo, v2_min(jv, pv)), v2_gt(hi, v2_max(jv, pv))))) continue;
      wline l = wline_of(v2_ld(G + 2 * J), jv, pg, pv);
      if (wit > J && wline_off(&l, G + 2 * wit, R + 2 * wit)) continue;
      unsigned k = J + 1;
      while (k < P && !wline_off(&l, G + 2 * k, R + 2 * k)) k++;
      if (k < P) {
        wit = k;
        continue;
      }
      o[++n] = (uint8_t)g;
      unsigned j = J >= len ? J - len : J;
      if ((int)g > reach[j]) reach[j] = (int)g;
    }
    o[0] = (uint8_t)n;
  }
}

/* keep[] for contour [a, b]: none when every delta is 0, one point when all are equal, else
 * the fewest points such that every gap between two consecutive kept points (at most
 * IUP_LOOKBACK apart, around the contour) is inferable. The contour is a cycle: a solution
 * can start anywhere. Every solution keeps a point of W_p = {p} + {j : a gap from j can span p}
 * for every point p, so a linear dynamic program is run from each start in the smallest W_p
 * (often one point, one whose delta nothing can infer) and the best is kept: the optimum.
 * Scratch: cost and prev (len + 1 each), ok (len x (L + 1)), reach (len + 1). */
static void iup_contour(const iup *c, uint8_t *keep, int *cost, int *prev, uint8_t *ok, int *reach)
{
  unsigned a = c->a, b = c->b, len = b - a + 1;
  /* (bitwise: a loop without exits, vectorized) */
  int32_t any = 0, diff = 0, rxa = c->rx[a], rya = c->ry[a];
  for (unsigned k = a; k <= b; k++) {
    any |= c->rx[k] | c->ry[k];
    diff |= (c->rx[k] ^ rxa) | (c->ry[k] ^ rya);
  }
  bool zero = !any, same = !diff;
  if (zero || same || len <= 2) memset(keep + a, 0, len); /* else iup_choose sets every flag */
  if (zero) return;
  if (same || len <= 2) {
    keep[a] = 1;
    if (!same) keep[b] = 1;
    return;
  }
  unsigned L = len - 1 < IUP_LOOKBACK ? len - 1 : IUP_LOOKBACK;
  for (unsigned p = 0; p < len; p++) reach[p] = 1;
  if (c->g2) {
    iup_rows_w(c, len, L, ok, reach);
    iup_choose(a, len, L, keep, cost, prev, ok, reach);
    return;
  }
  /* row p of ok (L + 1 bytes): the gaps g such that the points between p - g and p (around
   * the contour) are inferable from those two; reach[j]: the longest such gap starting at j */
  /* keep[] holds, until the search below sets it, the points no gap can pass over: those IUP
   * cannot give from any references, decided from the point and its two neighbours (fontTools'
   * _iup_contour_bound_forced_set: between its neighbours' coordinates a point's delta must lie
   * between theirs; outside them it must equal the nearer one's or lie on the side their
   * interpolation extends to; at equal neighbour coordinates with unequal deltas it must be 0).
   * A gap reaching one stops the row: fewer gaps tried, the rows as before (fontTools'
   * proof that such points are forced; a gap passed over would only cost points, never
   * exactness). */
  for (unsigned k = 0; k < len; k++) {
    unsigned pk = a + (k ? k - 1 : len - 1), nk = a + (k + 1 == len ? 0 : k + 1), q = a + k;
    bool force = false;
    for (int ax = 0; ax < 2 && !force; ax++) {
      const double *o = ax ? c->oy : c->ox;
      const int32_t *r = ax ? c->ry : c->rx;
      double c1 = o[pk], c2 = o[nk], d1 = r[pk], d2 = r[nk], cj = o[q], dj = r[q];
      if (c1 > c2) {
        double t = c1;
        c1 = c2, c2 = t;
        t = d1, d1 = d2, d2 = t;
      }
      if (c1 == c2)
        force = fabs(d1 - d2) > IUP_TOL && fabs(dj) > IUP_TOL;
      else if (c1 <= cj && cj <= c2)
        force = !((d1 < d2 ? d1 : d2) - IUP_TOL <= dj && dj <= (d1 > d2 ? d1 : d2) + IUP_TOL);
      else if (d1 != d2 && cj < c1)
        force = fabs(dj) > IUP_TOL && fabs(dj - d1) > IUP_TOL && ((dj - IUP_TOL < d1) != (d1 < d2));
      else if (d1 != d2)
        force = fabs(dj) > IUP_TOL && fabs(dj - d2) > IUP_TOL && ((d2 < dj + IUP_TOL) != (d1 < d2));
    }
    keep[q] = force;
  }
  /* IUP's value between two references lies between their deltas, so a gap whose points'
   * deltas leave that range (by more than the tolerance) fails without interpolating, and
   * once the points between straddle p's own delta no longer gap to p can pass (two
   * references at one coordinate with unequal deltas infer 0, outside that range: such rare
   * gaps may be passed over; the result stays exact, only perhaps not the fewest points) */
  for (unsigned p = 0; p < len; p++) {
    /* row p: the count, then the gaps g that pass in increasing order (g = 1 always) */
    uint8_t *o = ok + (size_t)p * (L + 1);
    unsigned n = 1;
    o[1] = 1;
    int32_t px = c->rx[a + p], py = c->ry[a + p];
    int32_t lox = INT32_MAX, hix = INT32_MIN, loy = INT32_MAX, hiy = INT32_MIN;
    unsigned j = p ? p - 1 : len - 1; /* stepped back around the contour, no division */
    for (unsigned g = 2; g <= L; g++) {
      unsigned in = a + j;     /* the point now between: p - g + 1 */
      if (keep[in]) break;     /* forced: no gap over it */
      j = j ? j - 1 : len - 1; /* the reference: p - g */
      if (c->rx[in] < lox) lox = c->rx[in];
      if (c->rx[in] > hix) hix = c->rx[in];
      if (c->ry[in] < loy) loy = c->ry[in];
      if (c->ry[in] > hiy) hiy = c->ry[in];
      if ((lox < px && hix > px) || (loy < py && hiy > py)) break; /* integers: beyond 0.5 */
      int32_t jx = c->rx[a + j], jy = c->ry[a + j];
      if (lox < (jx < px ? jx : px) || hix > (jx > px ? jx : px) || loy < (jy < py ? jy : py) ||
          hiy > (jy > py ? jy : py))
        continue;
      if (!between_ok(c, a + j, a + p)) continue;
      o[++n] = (uint8_t)g;
      if ((int)g > reach[j]) reach[j] = (int)g;
    }
    o[0] = (uint8_t)n;
  }
  iup_choose(a, len, L, keep, cost, prev, ok, reach);
}

/* The choice from the rows (ok, reach) of contour [a, a + len): the starts in the smallest W_p,
 * a dynamic program from each, the fewest points kept. */
static void iup_choose(unsigned a, unsigned len, unsigned L, uint8_t *keep, int *cost, int *prev,
                       const uint8_t *ok, const int *reach)
{
  unsigned b = a + len - 1;
  /* (keep[a..b] is written whole when the first start's result is taken: it always is) */
  /* |W_p| for every p (difference array over the spans (j, j + reach[j])), the smallest */
  int *wcount = cost; /* reused: len + 1 */
  for (unsigned p = 0; p <= len; p++) wcount[p] = 0;
  for (unsigned j = 0; j < len; j++) {
    if (reach[j] < 2) continue;
    unsigned lo = j + 1, hi = j + (unsigned)reach[j]; /* p in [lo, hi) around the contour */
    if (hi <= len) {
      wcount[lo]++, wcount[hi]--;
    } else {
      wcount[lo]++, wcount[len]--;
      wcount[0]++, wcount[hi - len]--;
    }
  }
  unsigned bestp = 0;
  int run = 0, bestw = INT32_MAX;
  for (unsigned p = 0; p < len; p++) {
    run += wcount[p];
    if (run < bestw) bestw = run, bestp = p;
  }
  int best = INT32_MAX;
  for (unsigned t = 0; t < len && best > 2; t++) {
    if (t > 0 && bestw == 0) break;       /* no gap spans bestp: no other start */
    unsigned s = (bestp + len - t) % len; /* bestp itself, then the j whose gaps span it */
    if (t > 0 && (t > (unsigned)reach[s] - 1u || reach[s] < 2)) continue;
    if (t > L) break;
    /* long contours (hostile ones) get the first start only: bounded work, still exact */
    if (t > 0 && (size_t)len * L > IUP_SEARCH_WORK) break;
    cost[0] = 0;
    unsigned pq = s;
    for (unsigned q = 1; q <= len; q++) {
      pq = pq + 1 == len ? 0 : pq + 1; /* (s + q) % len */
      const uint8_t *o = ok + (size_t)pq * (L + 1);
      int bq = INT32_MAX;
      for (unsigned t2 = 1; t2 <= o[0]; t2++) { /* the gaps that pass, shortest first */
        unsigned g = o[t2];
        if (g > q) break;
        if (cost[q - g] + 1 < bq) /* (every cost is finite: the gap of 1 always passes) */
          bq = cost[q - g] + 1, prev[q] = (int)(q - g);
      }
      cost[q] = bq;
    }
    if (cost[len] < best) {
      best = cost[len];
      for (unsigned k = a; k <= b; k++) keep[k] = 0;
      keep[a + s] = 1;
      for (int q = prev[len]; q > 0; q = prev[q]) { /* point (s + q) % len, no division */
        unsigned x = s + (unsigned)q;
        keep[a + (x >= len ? x - len : x)] = 1;
      }
    }
  }
}

/* ---- one store: headers and data ---- */

typedef struct enc {
  otv_buf pts;    /* every tuple's packed points, concatenated */
  size_t *pts_at; /* tuple t: [pts_at[t], pts_at[t+1]) */
  size_t pts_at_cap;
  otv_buf dat; /* every tuple's packed deltas */
  size_t *dat_at;
  size_t dat_at_cap;
  int32_t *tmp; /* one tuple's listed deltas, kept from store to store */
  size_t tmp_cap;
} enc;

/* Append a store (tupleVariationCount, dataOffset, headers, shared points, data) to out.
 * data_base: what dataOffset counts from, as an offset back from the store's start (gvar 0,
 * cvar 4). */
static otv_status write_store(otv_builder *b, enc *e, const otv_btuple *t, unsigned tc, unsigned n,
                              unsigned dims, unsigned ac, bool allow_shared_points,
                              size_t data_base, otv_buf *out)
{
  e->pts.len = e->dat.len = 0;
  if (OTV_RESERVE(&b->al, &e->pts_at, &e->pts_at_cap, (size_t)tc + 1, sizeof(size_t)) ||
      OTV_RESERVE(&b->al, &e->dat_at, &e->dat_at_cap, (size_t)tc + 1, sizeof(size_t)))
    return OTV_FAIL(b->err, NOMEM, 0, 0, "tuple store");
  for (unsigned i = 0; i < tc; i++) {
    e->pts_at[i] = e->pts.len;
    otv_tuple_pack_points(&e->pts, t[i].keep, n, t[i].kept);
    e->dat_at[i] = e->dat.len;
    for (unsigned dim = 0; dim < dims; dim++) {
      const int32_t *src = t[i].d + (size_t)dim * n;
      if (t[i].kept == n) {
        otv_tuple_pack_deltas(&e->dat, src, n);
        continue;
      }
      if (OTV_RESERVE(&b->al, &e->tmp, &e->tmp_cap, n, sizeof *e->tmp))
        return OTV_FAIL(b->err, NOMEM, 0, 0, "tuple store");
      unsigned m = 0;
      for (unsigned k = 0; k < n; k++)
        if (t[i].keep[k]) e->tmp[m++] = src[k];
      otv_tuple_pack_deltas(&e->dat, e->tmp, m);
    }
  }
  e->pts_at[tc] = e->pts.len;
  e->dat_at[tc] = e->dat.len;
  if (e->pts.failed || e->dat.failed) return OTV_FAIL(b->err, NOMEM, 0, 0, "tuple store");
  /* the shared point numbers that save the most bytes (none when none saves) */
  int sh = -1;
  long best = 0;
  for (unsigned i = 0; allow_shared_points && i < tc; i++) {
    size_t li = e->pts_at[i + 1] - e->pts_at[i];
    long save = -(long)li;
    for (unsigned j = 0; j < tc; j++) {
      size_t lj = e->pts_at[j + 1] - e->pts_at[j];
      if (lj == li && !memcmp(e->pts.p + e->pts_at[i], e->pts.p + e->pts_at[j], li))
        save += (long)li;
    }
    if (save > best) best = save, sh = (int)i;
  }
  size_t start = out->len, hdr_len = 0;
  for (unsigned i = 0; i < tc; i++)
    hdr_len +=
        4 + (t[i].shared < 0 ? 2 * (size_t)ac : 0) + (t[i].intermediate ? 4 * (size_t)ac : 0);
  otv_buf_u16(out, (uint16_t)((sh >= 0 ? SHARED_POINTS : 0) | tc));
  otv_buf_u16(out, (uint16_t)(data_base + 4 + hdr_len));
  const uint8_t *shp = sh >= 0 ? e->pts.p + e->pts_at[sh] : NULL;
  size_t shl = sh >= 0 ? e->pts_at[sh + 1] - e->pts_at[sh] : 0;
  for (unsigned i = 0; i < tc; i++) {
    size_t pl = e->pts_at[i + 1] - e->pts_at[i];
    bool priv = !(shp && pl == shl && !memcmp(e->pts.p + e->pts_at[i], shp, shl));
    size_t size = (priv ? pl : 0) + e->dat_at[i + 1] - e->dat_at[i];
    if (size > 0xFFFF) return OTV_FAIL(b->err, LIMIT, 0, 0, "tuple data over 65535 bytes");
    otv_buf_u16(out, (uint16_t)size);
    unsigned idx = (t[i].shared < 0 ? EMBEDDED_PEAK : (unsigned)t[i].shared) |
                   (t[i].intermediate ? INTERMEDIATE : 0) | (priv ? PRIVATE_POINTS : 0);
    otv_buf_u16(out, (uint16_t)idx);
    if (t[i].shared < 0)
      for (unsigned a = 0; a < ac; a++) otv_buf_u16(out, (uint16_t)t[i].peak[a]);
    if (t[i].intermediate) {
      for (unsigned a = 0; a < ac; a++) otv_buf_u16(out, (uint16_t)t[i].start[a]);
      for (unsigned a = 0; a < ac; a++) otv_buf_u16(out, (uint16_t)t[i].end[a]);
    }
  }
  if (shp) otv_buf_bytes(out, shp, shl);
  for (unsigned i = 0; i < tc; i++) {
    size_t pl = e->pts_at[i + 1] - e->pts_at[i];
    bool priv = !(shp && pl == shl && !memcmp(e->pts.p + e->pts_at[i], shp, shl));
    if (priv) otv_buf_bytes(out, e->pts.p + e->pts_at[i], pl);
    otv_buf_bytes(out, e->dat.p + e->dat_at[i], e->dat_at[i + 1] - e->dat_at[i]);
  }
  (void)start;
  return out->failed ? OTV_FAIL(b->err, NOMEM, 0, 0, "tuple store") : OTV_E_OK;
}

/* The region of model position i as F2Dot14 (intermediate when it is not the one implied by
 * its peak). */
static void tuple_region(const otv_vmodel *md, unsigned i, otv_btuple *t)
{
  unsigned ac = md->axis_count;
  t->intermediate = false;
  for (unsigned a = 0; a < ac; a++) {
    const double *r = md->support + ((size_t)i * ac + a) * 3;
    t->start[a] = (int16_t)otv_build_f2(r[0]);
    t->peak[a] = (int16_t)otv_build_f2(r[1]);
    t->end[a] = (int16_t)otv_build_f2(r[2]);
    int16_t is = t->peak[a] < 0 ? t->peak[a] : 0, ie = t->peak[a] > 0 ? t->peak[a] : 0;
    if (t->start[a] != is || t->end[a] != ie) t->intermediate = true;
  }
}

/* ---- gvar ---- */

typedef struct peak_tab {
  int16_t *v; /* count x ac */
  unsigned *uses;
  unsigned count, cap;
} peak_tab;

static int peak_find(const peak_tab *p, const int16_t *peak, unsigned ac)
{
  for (unsigned i = 0; i < p->count; i++)
    if (!memcmp(p->v + (size_t)i * ac, peak, ac * sizeof *peak)) return (int)i;
  return -1;
}

typedef struct gscratch {
  int32_t *d;    /* tuples x 2n rounded deltas */
  uint8_t *keep; /* tuples x n */
  int *cost;     /* IUP scratch 2 x (n + 2) */
  otv_btuple *t;
  size_t d_cap, keep_cap, cost_cap, t_cap;
  uint8_t *ok;     /* IUP: n x (IUP_LOOKBACK + 1) */
  double *g2, *r2; /* IUP: 4 n each, the contours doubled, x and y side by side (iup.g2) */
  uint8_t *fz;     /* IUP: 2 n */
  size_t g2_cap, r2_cap, fz_cap;
  int *reach; /* IUP: n + 1 */
  size_t ok_cap, reach_cap;
  otv_buf sizer;   /* one tuple encoded, to measure it */
  int32_t *listed; /* one tuple's listed deltas */
  size_t listed_cap;
  double *acc, *fill; /* the glyph at a master's location; per tuple its deltas after IUP */
  size_t acc_cap, fill_cap;
  uint8_t *filled; /* per tuple: fill holds its deltas after IUP */
  size_t filled_cap;
  /* The regions of the last sub-model used (rc_mask: its masters; most glyphs use the full
   * model): region of model position i (F2Dot14, as written) in rc_t[i], its scalar at master
   * k in rc_sc[i * mc + k]; the model position of each tuple of the glyph in pos. */
  otv_mset rc_mask;
  bool rc_valid;
  otv_btuple *rc_t;
  double *rc_sc;
  unsigned *pos;
  size_t rc_t_cap, rc_sc_cap, pos_cap;
} gscratch;

/* The deltas IUP gives every point of contour [a, b] from the kept ones (spec: gvar "Inferred
 * deltas for un-referenced point numbers"), one axis: out[k] for k in [a, b]. */
static void iup_fill(const double *o, const int32_t *r, const uint8_t *keep, unsigned a, unsigned b,
                     double *out)
{
  unsigned first = UINT32_MAX, touched = 0;
  for (unsigned k = a; k <= b; k++)
    if (keep[k]) touched++, first = first == UINT32_MAX ? k : first;
  for (unsigned k = a; k <= b; k++) out[k] = touched == 1 ? r[first] : keep[k] ? r[k] : 0;
  if (touched < 2) return;
  /* each gap between consecutive kept points j and i (around the contour), walked once */
  unsigned j = first;
  do {
    unsigned i = j == b ? a : j + 1;
    while (!keep[i]) i = i == b ? a : i + 1;
    for (unsigned k = j == b ? a : j + 1; k != i; k = k == b ? a : k + 1)
      out[k] = otv_iup_infer(o, r, j, i, k);
    j = i;
  } while (j != first);
}

/* floor(v), inline where libm's is a call (no SSE4.1 in the baseline): the same value (a
 * signed zero aside, which compares equal) */
static OTV_ALWAYS_INLINE double ffloor(double v)
{
  if (!(fabs(v) < 4503599627370496.0)) return floor(v); /* 2^52 and beyond, NaN */
  double f = (double)(long long)v;
  return f > v ? f - 1 : f;
}

/* The bytes otv_tuple_pack_deltas (src/tuple.c) writes for d[0..n), counted without writing
 * them: the same runs (otv_delta_run_at). */
static size_t deltas_len(const int32_t *d, unsigned n)
{
  size_t len = 0;
  unsigned i = 0;
  while (i < n) {
    unsigned kind, j = otv_delta_run_at(d, i, n, &kind);
    len += kind == OTV_DELTA_ZEROS ? 1 : 1 + ((size_t)(j - i) << otv_delta_kind_shift(kind));
    i = j;
  }
  return len;
}

/* The bytes otv_tuple_pack_points writes for the m points with keep set (m < n), counted: runs
 * of up to 128 points, words when a step in the run exceeds 255. */
static size_t points_len(const uint8_t *keep, unsigned n, unsigned m)
{
  size_t len = m <= OTV_POINT_RUN_COUNT_MASK ? 1 : 2;
  unsigned last = 0, k = 0;
  while (k < n) {
    unsigned cnt = 0, prevp = last;
    bool words = false;
    for (; k < n && cnt < 128; k++) {
      if (!keep[k]) continue;
      if (k - prevp > 0xFF) words = true;
      cnt++;
      prevp = k;
    }
    if (!cnt) break;
    len += 1 + (size_t)cnt * (words ? 2 : 1);
    last = prevp;
  }
  return len;
}

/* The bytes of one tuple's points and deltas (x then y) listing the kept points (keep NULL:
 * all n), counted as the packers would write them. */
static size_t tuple_len(gscratch *s, const uint8_t *keep, unsigned n, unsigned kept,
                        const int32_t *d)
{
  if (!keep) return 1 + deltas_len(d, n) + deltas_len(d + n, n);
  if (OTV_RESERVE(s->sizer.al, &s->listed, &s->listed_cap, 2 * (size_t)n, sizeof *s->listed)) {
    s->sizer.failed = true;
    return 0;
  }
  unsigned m = 0;
  for (unsigned k = 0; k < n; k++)
    if (keep[k]) s->listed[m] = d[k], s->listed[kept + m] = d[n + k], m++;
  return points_len(keep, n, kept) + deltas_len(s->listed, kept) +
         deltas_len(s->listed + kept, kept);
}

/* The tuples of glyph gid: *tc tuples in s->t (their deltas and kept points in s). Every tuple
 * with a delta keeps a point whatever IUP does. */
static otv_status glyph_tuples(otv_builder *b, gscratch *s, uint32_t gid, unsigned *tc,
                               bool *composite)
{
  unsigned mc = b->mc;
  *tc = 0;
  for (unsigned k = 0; k < mc; k++) {
    otv_status st = otv_bglyph_load(b, k, gid, &b->g[k]);
    if (st) return st;
  }
  const otv_bglyph *dg = &b->g[b->base];
  *composite = dg->composite;
  otv_mset mask = otv_mset_first(0);
  for (unsigned k = 0; k < mc; k++) {
    const otv_bglyph *g = &b->g[k];
    if (g->missing || (!dg->empty && g->empty)) continue; /* sparse master for this glyph */
    otv_mset_add(&mask, k);
    if (k == b->base) continue;
    const char *mn = b->m[k].name;
    if (g->composite != dg->composite)
      return OTV_FAIL(b->err, BAD_VALUE, OTV_T_GLYF, 0,
                      "glyph %u: master %s has a %s glyph, the default master a %s one", gid, mn,
                      g->composite ? "composite" : "simple",
                      dg->composite ? "composite" : "simple");
    if (g->n != dg->n)
      return OTV_FAIL(b->err, BAD_VALUE, OTV_T_GLYF, 0,
                      "glyph %u: master %s has %u %s, the default master %u", gid, mn, g->n - 4,
                      g->composite ? "components" : "points", dg->n - 4);
    if (g->end_count != dg->end_count ||
        (g->end_count && memcmp(g->ends, dg->ends, g->end_count * sizeof *g->ends)))
      return OTV_FAIL(b->err, BAD_VALUE, OTV_T_GLYF, 0,
                      "glyph %u: master %s has contours of other lengths than the default master",
                      gid, mn);
    for (unsigned c = 0; c < g->comp_count; c++)
      if (dg->comp[c] >= b->m[b->base].glyph_count || g->comp[c] != b->m[k].gid_of[dg->comp[c]])
        return OTV_FAIL(b->err, BAD_VALUE, OTV_T_GLYF, 0,
                        "glyph %u: master %s: component %u is another glyph than in the default "
                        "master",
                        gid, mn, c);
  }
  const otv_vmodel *md;
  otv_status st = otv_build_submodel(b, &mask, &md);
  if (st) return st;
  unsigned n = dg->n, w = 2 * n, cnt = md->count;
  if (OTV_BRESERVE(b, b->vals, b->vals_cap, (size_t)mc * w) ||
      OTV_BRESERVE(b, b->deltas, b->deltas_cap, (size_t)cnt * w) ||
      OTV_BRESERVE(b, s->d, s->d_cap, (size_t)cnt * w) ||
      OTV_BRESERVE(b, s->keep, s->keep_cap, (size_t)cnt * n) ||
      OTV_BRESERVE(b, s->cost, s->cost_cap, 2 * ((size_t)n + 2)) ||
      OTV_BRESERVE(b, s->ok, s->ok_cap, (size_t)n * (IUP_LOOKBACK + 1)) ||
      OTV_BRESERVE(b, s->reach, s->reach_cap, (size_t)n + 1) ||
      OTV_BRESERVE(b, s->g2, s->g2_cap, 4 * (size_t)n) ||
      OTV_BRESERVE(b, s->r2, s->r2_cap, 4 * (size_t)n) ||
      OTV_BRESERVE(b, s->fz, s->fz_cap, 2 * (size_t)n) || OTV_BRESERVE(b, s->t, s->t_cap, cnt) ||
      OTV_BRESERVE(b, s->pos, s->pos_cap, cnt))
    return OTV_FAIL(b->err, NOMEM, 0, 0, "glyph deltas");
  unsigned row = 0;
  for (unsigned k = 0; k < mc; k++) {
    if (!otv_mset_has(&mask, k)) continue;
    memcpy(b->vals + (size_t)row * w, b->g[k].x, n * sizeof(double));
    memcpy(b->vals + (size_t)row * w + n, b->g[k].y, n * sizeof(double));
    row++;
  }
  otv_vmodel_deltas(md, b->vals, w, w, b->deltas);
  /* the contours doubled for the IUP search, when their coordinates are small integers */
  bool ints = true;
  unsigned pts = dg->end_count ? dg->ends[dg->end_count - 1] + 1u : 0;
  for (unsigned k = 0; k < pts && ints; k++)
    ints = fabs(dg->x[k]) <= 1048576.0 && fabs(dg->y[k]) <= 1048576.0 &&
           dg->x[k] == (double)(int32_t)dg->x[k] && dg->y[k] == (double)(int32_t)dg->y[k];
  for (unsigned e = 0, a = 0; e < dg->end_count && ints; a = dg->ends[e++] + 1u) {
    unsigned len = dg->ends[e] + 1u - a;
    for (unsigned k = 0; k < len; k++) {
      double *q = s->g2 + 2 * (2 * (size_t)a + k);
      q[0] = q[2 * len] = dg->x[a + k];
      q[1] = q[2 * len + 1] = dg->y[a + k];
    }
  }
  if (!s->rc_valid || !otv_mset_eq(&s->rc_mask, &mask)) {
    if (OTV_BRESERVE(b, s->rc_t, s->rc_t_cap, cnt) ||
        OTV_BRESERVE(b, s->rc_sc, s->rc_sc_cap, (size_t)cnt * mc))
      return OTV_FAIL(b->err, NOMEM, 0, 0, "glyph deltas");
    for (unsigned i = 1; i < cnt; i++) {
      otv_btuple *t = &s->rc_t[i];
      memset(t, 0, sizeof *t);
      tuple_region(md, i, t);
      for (unsigned k = 0; k < mc; k++) {
        if (!otv_mset_has(&mask, k)) continue;
        const double *loc = b->norm + (size_t)k * b->ac;
        double sc = 1;
        for (unsigned a = 0; a < b->ac && sc != 0; a++) {
          double lo = t->start[a] / 16384.0, pk = t->peak[a] / 16384.0, hi = t->end[a] / 16384.0;
          double reg[3] = {lo, pk, hi};
          sc *= otv_vmodel_scalar(reg, loc + a, 1);
        }
        s->rc_sc[(size_t)i * mc + k] = sc;
      }
    }
    s->rc_mask = mask;
    s->rc_valid = true;
  }
  for (unsigned i = 1; i < cnt; i++) {
    int32_t *d = s->d + (size_t)*tc * w;
    const double *dv = b->deltas + (size_t)i * w;
    /* the range checked, then converted: three loops without exits, vectorized (the checks
     * count in doubles: a form compilers vectorize) */
    double large = 0, big = 0; /* (beyond 2^31 only if beyond 2^30) */
    for (unsigned q = 0; q < w; q++) large += fabs(dv[q]) > 1073741824.0 ? 1.0 : 0.0;
    for (unsigned q = 0; q < w && large != 0; q++) big += fabs(dv[q]) > 2147483647.0 ? 1.0 : 0.0;
    if (big != 0)
      return OTV_FAIL(b->err, LIMIT, OTV_T_GVAR, 0, "glyph %u: delta out of range", gid);
    bool small = large == 0;
    for (unsigned q = 0; q < w; q++) d[q] = (int32_t)dv[q];
    unsigned nz = 0; /* the nonzero deltas */
    for (unsigned q = 0; q < w; q++) nz += d[q] != 0;
    if (!nz) continue;
    otv_btuple *t = &s->t[*tc];
    *t = s->rc_t[i];
    s->pos[*tc] = i;
    uint8_t *keep = s->keep + (size_t)*tc * n;
    /* IUP per contour; composites' offsets and the phantom points each stand alone */
    iup c = {dg->x, dg->y, d, d + n, 0, 0, ints && small ? s->g2 : NULL, s->r2, s->fz};
    unsigned a = 0;
    for (unsigned e = 0; e < dg->end_count; e++) {
      c.a = a, c.b = dg->ends[e];
      iup_contour(&c, keep, s->cost, s->cost + n + 2, s->ok, s->reach);
      a = dg->ends[e] + 1u;
    }
    for (unsigned k = a; k < n; k++) keep[k] = d[k] != 0 || d[n + k] != 0;
    unsigned kept = 0;
    for (unsigned k = 0; k < n; k++) kept += keep[k];
    if (!kept) continue;
    /* listing every point may still be smaller (no point numbers, runs of zeros are cheap);
     * it is not when the kept points' bytes are below its least: a run header per 64 values
     * and a byte per nonzero delta, besides the points' 0 */
    if (kept < n) {
      size_t some = tuple_len(s, keep, n, kept, d);
      if (some >= 1 + 2 * (((size_t)n + 63) / 64) + nz && some >= tuple_len(s, NULL, n, n, d)) {
        memset(keep, 1, n);
        kept = n;
      }
    }
    if (s->sizer.failed) return OTV_FAIL(b->err, NOMEM, 0, 0, "glyph deltas");
    t->keep = keep;
    t->kept = kept;
    t->d = d;
    t->shared = -1;
    ++*tc;
  }
  /* exact at every master: the font drawn at each master's location (IUP as a reader does it,
   * rounded half up) must give the master's points; else this glyph lists every point */
  bool exact = true;
  unsigned row2 = 0;
  /* each tuple's deltas after IUP, filled at its first use (a tuple counts at several masters) */
  if (OTV_BRESERVE(b, s->acc, s->acc_cap, 2 * (size_t)n) ||
      OTV_BRESERVE(b, s->fill, s->fill_cap, (size_t)*tc * w) ||
      OTV_BRESERVE(b, s->filled, s->filled_cap, *tc))
    return OTV_FAIL(b->err, NOMEM, 0, 0, "glyph deltas");
  if (*tc) memset(s->filled, 0, *tc);
  for (unsigned k = 0; k < mc && exact; k++) {
    if (!otv_mset_has(&mask, k)) continue;
    const double *want = b->vals + (size_t)row2++ * w;
    memcpy(s->acc, dg->x, n * sizeof *s->acc);
    memcpy(s->acc + n, dg->y, n * sizeof *s->acc);
    for (unsigned ti = 0; ti < *tc; ti++) {
      const otv_btuple *t = &s->t[ti];
      double sc = s->rc_sc[(size_t)s->pos[ti] * mc + k];
      if (sc == 0) continue;
      double *fill = s->fill + (size_t)ti * w;
      if (!s->filled[ti]) {
        s->filled[ti] = 1;
        if (t->kept == n) { /* every point listed: nothing inferred */
          for (unsigned q = 0; q < w; q++) fill[q] = t->d[q];
        } else {
          unsigned a0 = 0;
          for (unsigned e = 0; e < dg->end_count; e++) {
            iup_fill(dg->x, t->d, t->keep, a0, dg->ends[e], fill);
            iup_fill(dg->y, t->d + n, t->keep, a0, dg->ends[e], fill + n);
            a0 = dg->ends[e] + 1u;
          }
          for (unsigned q = a0; q < n; q++) {
            fill[q] = t->keep[q] ? t->d[q] : 0;
            fill[n + q] = t->keep[q] ? t->d[n + q] : 0;
          }
        }
      }
      for (unsigned q = 0; q < w; q++) s->acc[q] += sc * fill[q];
    }
    /* floor(v + 0.5) == want when 0 <= v + 0.5 - want < 1 (the difference's sign and its
     * comparison with 1 survive rounding; want, a master's coordinate, is an integer): a loop
     * without exits, vectorized; any miss is decided again with floor (NaN, infinities) */
    double miss = 0;
    for (unsigned q = 0; q < w; q++) {
      double e = s->acc[q] + 0.5 - want[q];
      miss += e >= 0 && e < 1 ? 0.0 : 1.0;
    }
    for (unsigned q = 0; q < w && exact && miss != 0; q++)
      if (ffloor(s->acc[q] + 0.5) != want[q]) exact = false;
  }
  if (!exact)
    for (unsigned ti = 0; ti < *tc; ti++) {
      memset((uint8_t *)s->t[ti].keep, 1, n);
      s->t[ti].kept = n;
    }
  return OTV_E_OK;
}

/* The per-glyph scratch (the masters' glyphs, the model's rows, the IUP search's arrays) sized
 * once for the font's largest glyph as the default master's maxp 1.0 gives it (points, or
 * components, and 4 phantom points; at most GVAR_PRESIZE_MAX, a hint only: a larger glyph, or a
 * maxp that understates, grows them as before), instead of doubling from 16 elements through the
 * first glyphs: fewer allocations and copies, and fewer fresh heap pages touched by the buffers
 * each doubling leaves behind (docs/build.md "Start-up, sixth pass"). Capacities only: the same
 * bytes are built. */
#define GVAR_PRESIZE_MAX 4096u
static otv_status gvar_presize(otv_builder *b, gscratch *s)
{
  otv_span maxp = otv_sfnt_find(&b->m[b->base].sfnt, OTV_T_MAXP);
  if (maxp.len < 32 || otv_peek_u32(maxp.p) != 0x00010000u) return OTV_E_OK;
  size_t pts = otv_peek_u16(maxp.p + 6), ends = otv_peek_u16(maxp.p + 8),
         comps = otv_peek_u16(maxp.p + 28); /* in range: 32 bytes checked */
  size_t n = (pts > comps ? pts : comps) + 4, mc = b->mc, cnt = mc, w = 2 * n;
  if (n > GVAR_PRESIZE_MAX || ends > GVAR_PRESIZE_MAX) return OTV_E_OK;
  for (unsigned k = 0; k < b->mc; k++)
    if (otv_bglyph_reserve(b, &b->g[k], n + 1, ends)) return OTV_E_NOMEM;
  if (OTV_BRESERVE(b, b->vals, b->vals_cap, mc * w) ||
      OTV_BRESERVE(b, b->deltas, b->deltas_cap, cnt * w) ||
      OTV_BRESERVE(b, s->d, s->d_cap, cnt * w) || OTV_BRESERVE(b, s->keep, s->keep_cap, cnt * n) ||
      OTV_BRESERVE(b, s->cost, s->cost_cap, 2 * (n + 2)) ||
      OTV_BRESERVE(b, s->ok, s->ok_cap, n * (IUP_LOOKBACK + 1)) ||
      OTV_BRESERVE(b, s->reach, s->reach_cap, n + 1) || OTV_BRESERVE(b, s->g2, s->g2_cap, 4 * n) ||
      OTV_BRESERVE(b, s->r2, s->r2_cap, 4 * n) || OTV_BRESERVE(b, s->fz, s->fz_cap, 2 * n) ||
      OTV_BRESERVE(b, s->t, s->t_cap, cnt) || OTV_BRESERVE(b, s->pos, s->pos_cap, cnt) ||
      OTV_BRESERVE(b, s->acc, s->acc_cap, 2 * n) ||
      OTV_BRESERVE(b, s->fill, s->fill_cap, cnt * w) ||
      OTV_BRESERVE(b, s->filled, s->filled_cap, cnt) ||
      OTV_BRESERVE(b, s->listed, s->listed_cap, 2 * n))
    return OTV_FAIL(b->err, NOMEM, 0, 0, "glyph deltas");
  return OTV_E_OK;
}

otv_status otv_build_gvar(otv_builder *b)
{
  otv_bmaster *dm = &b->m[b->base];
  uint32_t gc = dm->glyph_count;
  unsigned ac = b->ac;
  gscratch s;
  memset(&s, 0, sizeof s);
  otv_buf_init(&s.sizer, &b->al);
  peak_tab pk = {0};
  enc e;
  memset(&e, 0, sizeof e);
  otv_buf_init(&e.pts, &b->al);
  otv_buf_init(&e.dat, &b->al);
  otv_buf data;
  otv_buf_init(&data, &b->al);
  uint32_t *off = otv_mem_calloc(&b->al, (size_t)gc + 1, sizeof *off);
  otv_status st = off ? gvar_presize(b, &s) : OTV_FAIL(b->err, NOMEM, 0, 0, "gvar offsets");
  /* One pass over the glyphs: each glyph's store written with its peaks embedded (the shared
   * tuples are known only once every glyph's peaks are counted), the peak of each tuple noted
   * (tid); then the headers are written again with the shared tuples' indices (the serialized
   * data stays as it is). The glyphs are loaded, modelled and IUP-optimized once. */
  uint32_t *tid = NULL;
  size_t tid_n = 0, tid_cap = 0;
  for (uint32_t g = 0; !st && g < gc; g++) {
    unsigned tc;
    bool comp;
    off[g] = (uint32_t)data.len;
    if ((st = glyph_tuples(b, &s, g, &tc, &comp))) break;
    if (!tc) continue;
    if (OTV_RESERVE(&b->al, &tid, &tid_cap, tid_n + tc, sizeof *tid)) {
      st = OTV_FAIL(b->err, NOMEM, 0, 0, "gvar peaks");
      break;
    }
    for (unsigned i = 0; i < tc; i++) {
      int f = peak_find(&pk, s.t[i].peak, ac);
      if (f < 0) {
        if (pk.count == pk.cap) {
          unsigned ncap = pk.cap ? 2 * pk.cap : 16;
          int16_t *nv = otv_mem_realloc(&b->al, pk.v, (size_t)pk.cap * ac * sizeof *nv,
                                        (size_t)ncap * ac * sizeof *nv);
          if (!nv) {
            st = OTV_FAIL(b->err, NOMEM, 0, 0, "gvar peaks");
            break;
          }
          pk.v = nv;
          unsigned *nu = otv_mem_realloc(&b->al, pk.uses, pk.cap * sizeof *nu, ncap * sizeof *nu);
          if (!nu) {
            st = OTV_FAIL(b->err, NOMEM, 0, 0, "gvar peaks");
            break;
          }
          pk.uses = nu;
          pk.cap = ncap;
        }
        memcpy(pk.v + (size_t)pk.count * ac, s.t[i].peak, ac * sizeof(int16_t));
        pk.uses[pk.count] = 0;
        f = (int)pk.count++;
      }
      pk.uses[f]++;
      tid[tid_n++] = (uint32_t)f;
      s.t[i].shared = -1;
    }
    if (st) break;
    if ((st = write_store(b, &e, s.t, tc, b->g[b->base].n, 2, ac, true, 0, &data))) break;
    if (data.len > UINT32_MAX / 2) st = OTV_FAIL(b->err, LIMIT, OTV_T_GVAR, 0, "gvar over 2 GiB");
  }
  if (!st) off[gc] = (uint32_t)data.len;
  /* shared tuples: the peaks used more than once, most used first */
  unsigned *order = NULL, shared_n = 0;
  if (!st && pk.count) {
    order = otv_mem_calloc(&b->al, pk.count, sizeof *order);
    if (!order) st = OTV_FAIL(b->err, NOMEM, 0, 0, "gvar peaks");
    for (unsigned i = 0; !st && i < pk.count; i++) {
      if (pk.uses[i] < 2) continue;
      unsigned p = shared_n++;
      while (p > 0 && pk.uses[order[p - 1]] < pk.uses[i]) order[p] = order[p - 1], p--;
      order[p] = i;
    }
    if (shared_n > MAX_SHARED_TUPLES) shared_n = MAX_SHARED_TUPLES;
  }
  /* the stores again, each tuple of a shared peak naming it by index */
  otv_buf data2;
  otv_buf_init(&data2, &b->al);
  int *shared_of = NULL;
  if (!st && pk.count) {
    shared_of = otv_mem_alloc(&b->al, pk.count * sizeof *shared_of);
    if (!shared_of) st = OTV_FAIL(b->err, NOMEM, 0, 0, "gvar peaks");
    for (unsigned i = 0; !st && i < pk.count; i++) shared_of[i] = -1;
    for (unsigned q = 0; !st && q < shared_n; q++) shared_of[order[q]] = (int)q;
  }
  for (uint32_t g = 0, ti = 0; !st && g < gc; g++) {
    size_t len = off[g + 1] - off[g], q = 4, hdr = 0;
    size_t at = off[g];
    off[g] = (uint32_t)data2.len;
    if (!len) continue; /* (data.p is NULL when no glyph has data) */
    const uint8_t *p = data.p + at;
    unsigned cnt = otv_peek_u16(p), tc = cnt & 0x0FFFu;
    for (unsigned i = 0; i < tc; i++) { /* the new header's length */
      unsigned idx = otv_peek_u16(p + q + 2);
      bool sh = shared_of[tid[ti + i]] >= 0;
      hdr += 4 + (sh ? 0 : 2 * (size_t)ac) + (idx & INTERMEDIATE ? 4 * (size_t)ac : 0);
      q += 4 + 2 * (size_t)ac + (idx & INTERMEDIATE ? 4 * (size_t)ac : 0);
    }
    otv_buf_u16(&data2, (uint16_t)cnt);
    otv_buf_u16(&data2, (uint16_t)(4 + hdr));
    q = 4;
    for (unsigned i = 0; i < tc; i++, ti++) {
      unsigned size = otv_peek_u16(p + q), idx = otv_peek_u16(p + q + 2);
      int sh = shared_of[tid[ti]];
      otv_buf_u16(&data2, (uint16_t)size);
      otv_buf_u16(&data2, (uint16_t)(sh >= 0 ? (idx & ~EMBEDDED_PEAK) | (unsigned)sh : idx));
      q += 4;
      if (sh < 0) otv_buf_bytes(&data2, p + q, 2 * (size_t)ac);
      q += 2 * (size_t)ac;
      if (idx & INTERMEDIATE) {
        otv_buf_bytes(&data2, p + q, 4 * (size_t)ac);
        q += 4 * (size_t)ac;
      }
    }
    otv_buf_bytes(&data2, p + q, len - q);
    if (data2.len > UINT32_MAX / 2) st = OTV_FAIL(b->err, LIMIT, OTV_T_GVAR, 0, "gvar over 2 GiB");
  }
  if (!st && data2.failed) st = OTV_FAIL(b->err, NOMEM, 0, 0, "gvar");
  if (!st) {
    otv_buf tmp = data;
    data = data2, data2 = tmp;
  }
  if (shared_of) otv_mem_free(&b->al, shared_of, pk.count * sizeof *shared_of);
  otv_mem_free(&b->al, tid, tid_cap * sizeof *tid);
  otv_buf_free(&data2);
  if (!st) {
    off[gc] = (uint32_t)data.len;
    /* short offsets pad each glyph's data to an even length: count what that costs */
    size_t pad = 0;
    for (uint32_t g = 0; g < gc; g++) pad += (off[g + 1] - off[g]) & 1;
    bool lng = data.len + pad > 2 * 0xFFFFu || 4 * ((size_t)gc + 1) < 2 * ((size_t)gc + 1) + pad;
    otv_buf *t = otv_build_table(b, OTV_T_GVAR);
    if (!t) st = OTV_E_NOMEM;
    size_t offs_len = (lng ? 4 : 2) * ((size_t)gc + 1);
    size_t shared_off = 20 + offs_len;
    size_t data_off = shared_off + 2 * (size_t)ac * shared_n;
    if (!st) {
      otv_buf_u16(t, 1);
      otv_buf_u16(t, 0);
      otv_buf_u16(t, (uint16_t)ac);
      otv_buf_u16(t, (uint16_t)shared_n);
      otv_buf_u32(t, (uint32_t)shared_off);
      otv_buf_u16(t, (uint16_t)gc);
      otv_buf_u16(t, lng ? 1 : 0);
      otv_buf_u32(t, (uint32_t)data_off);
      size_t at = 0;
      for (uint32_t g = 0; g <= gc; g++) {
        if (lng)
          otv_buf_u32(t, off[g]);
        else
          otv_buf_u16(t, (uint16_t)(at / 2));
        if (g < gc) at += off[g + 1] - off[g] + ((off[g + 1] - off[g]) & 1);
      }
      for (unsigned q = 0; q < shared_n; q++)
        for (unsigned a = 0; a < ac; a++) otv_buf_u16(t, (uint16_t)pk.v[(size_t)order[q] * ac + a]);
      for (uint32_t g = 0; g < gc; g++) {
        if (off[g + 1] > off[g]) otv_buf_bytes(t, data.p + off[g], off[g + 1] - off[g]);
        if (!lng && ((off[g + 1] - off[g]) & 1)) otv_buf_u8(t, 0);
      }
      if (t->failed) st = OTV_FAIL(b->err, NOMEM, 0, 0, "gvar");
    }
  }
  if (order) otv_mem_free(&b->al, order, pk.count * sizeof *order);
  otv_mem_free(&b->al, pk.v, (size_t)pk.cap * ac * sizeof *pk.v);
  otv_mem_free(&b->al, pk.uses, pk.cap * sizeof *pk.uses);
  otv_mem_free(&b->al, off, ((size_t)gc + 1) * sizeof *off);
  otv_mem_free(&b->al, s.d, s.d_cap * sizeof *s.d);
  otv_mem_free(&b->al, s.keep, s.keep_cap);
  otv_mem_free(&b->al, s.cost, s.cost_cap * sizeof *s.cost);
  otv_mem_free(&b->al, s.ok, s.ok_cap);
  otv_mem_free(&b->al, s.reach, s.reach_cap * sizeof *s.reach);
  otv_mem_free(&b->al, s.g2, s.g2_cap * sizeof *s.g2);
  otv_mem_free(&b->al, s.r2, s.r2_cap * sizeof *s.r2);
  otv_mem_free(&b->al, s.fz, s.fz_cap);
  otv_mem_free(&b->al, s.t, s.t_cap * sizeof *s.t);
  otv_mem_free(&b->al, s.listed, s.listed_cap * sizeof *s.listed);
  otv_buf_free(&s.sizer);
  otv_mem_free(&b->al, s.acc, s.acc_cap * sizeof *s.acc);
  otv_mem_free(&b->al, s.fill, s.fill_cap * sizeof *s.fill);
  otv_mem_free(&b->al, s.filled, s.filled_cap);
  otv_mem_free(&b->al, s.rc_t, s.rc_t_cap * sizeof *s.rc_t);
  otv_mem_free(&b->al, s.rc_sc, s.rc_sc_cap * sizeof *s.rc_sc);
  otv_mem_free(&b->al, s.pos, s.pos_cap * sizeof *s.pos);
  otv_mem_free(&b->al, e.pts_at, e.pts_at_cap * sizeof(size_t));
  otv_mem_free(&b->al, e.dat_at, e.dat_at_cap * sizeof(size_t));
  otv_mem_free(&b->al, e.tmp, e.tmp_cap * sizeof *e.tmp);
  otv_buf_free(&e.pts);
  otv_buf_free(&e.dat);
  otv_buf_free(&data);
  return st;
}

/* ---- cvar (spec: cvar): the masters' cvt values; points that do not move are left out when
 * that is smaller (cvar has no IUP: unlisted values get no delta) ---- */
otv_status otv_build_cvar(otv_builder *b)
{
  unsigned mc = b->mc, ac = b->ac;
  otv_span dcvt = otv_sfnt_find(&b->m[b->base].sfnt, OTV_T_CVT);
  if (dcvt.len < 2) return OTV_E_OK;
  unsigned n = (unsigned)(dcvt.len / 2);
  otv_mset mask = otv_mset_first(0);
  for (unsigned k = 0; k < mc; k++) {
    otv_span c = otv_sfnt_find(&b->m[k].sfnt, OTV_T_CVT);
    if (!c.len) continue;
    if (c.len / 2 != n)
      return OTV_FAIL(b->err, BAD_VALUE, OTV_T_CVT, 0,
                      "master %s has %zu cvt values, the default master %u", b->m[k].name,
                      c.len / 2, n);
    otv_mset_add(&mask, k);
  }
  const otv_vmodel *md;
  otv_status st = otv_build_submodel(b, &mask, &md);
  if (st) return st;
  unsigned cnt = md->count;
  if (OTV_BRESERVE(b, b->vals, b->vals_cap, (size_t)mc * n) ||
      OTV_BRESERVE(b, b->deltas, b->deltas_cap, (size_t)cnt * n))
    return OTV_FAIL(b->err, NOMEM, 0, 0, "cvar");
  unsigned row = 0;
  for (unsigned k = 0; k < mc; k++) {
    if (!otv_mset_has(&mask, k)) continue;
    otv_span c = otv_sfnt_find(&b->m[k].sfnt, OTV_T_CVT);
    /* in range: c.len / 2 == n checked above */
    for (unsigned i = 0; i < n; i++)
      b->vals[(size_t)row * n + i] = otv_peek_i16(c.p + 2 * (size_t)i);
    row++;
  }
  otv_vmodel_deltas(md, b->vals, n, n, b->deltas);
  int32_t *d = otv_mem_calloc(&b->al, (size_t)cnt * n + 1, sizeof *d);
  uint8_t *keep = otv_mem_calloc(&b->al, (size_t)cnt * n + 1, 1);
  otv_btuple *t = otv_mem_calloc(&b->al, cnt, sizeof *t);
  enc e;
  memset(&e, 0, sizeof e);
  otv_buf_init(&e.pts, &b->al);
  otv_buf_init(&e.dat, &b->al);
  unsigned tc = 0;
  if (!d || !keep || !t) st = OTV_FAIL(b->err, NOMEM, 0, 0, "cvar");
  for (unsigned i = 1; !st && i < cnt; i++) {
    int32_t *dd = d + (size_t)tc * n;
    uint8_t *kk = keep + (size_t)tc * n;
    unsigned kept = 0;
    for (unsigned q = 0; q < n; q++) {
      dd[q] = (int32_t)b->deltas[(size_t)i * n + q];
      kk[q] = dd[q] != 0;
      kept += kk[q];
    }
    if (!kept) continue;
    /* listing every value costs 1 byte of points; listing the moving ones more, saves zeros */
    otv_buf all, some;
    otv_buf_init(&all, &b->al);
    otv_buf_init(&some, &b->al);
    otv_tuple_pack_points(&all, kk, n, n);
    otv_tuple_pack_deltas(&all, dd, n);
    otv_tuple_pack_points(&some, kk, n, kept);
    int32_t *tmp = otv_mem_alloc(&b->al, (size_t)n * sizeof *tmp);
    if (tmp) {
      unsigned m2 = 0;
      for (unsigned q = 0; q < n; q++)
        if (kk[q]) tmp[m2++] = dd[q];
      otv_tuple_pack_deltas(&some, tmp, m2);
      otv_mem_free(&b->al, tmp, (size_t)n * sizeof *tmp);
    }
    if (!tmp || all.failed || some.failed) st = OTV_FAIL(b->err, NOMEM, 0, 0, "cvar");
    if (all.len <= some.len) {
      memset(kk, 1, n);
      kept = n;
    }
    otv_buf_free(&all);
    otv_buf_free(&some);
    tuple_region(md, i, &t[tc]);
    t[tc].shared = -1;
    t[tc].keep = kk;
    t[tc].kept = kept;
    t[tc].d = dd;
    tc++;
  }
  if (!st && tc) {
    otv_buf *out = otv_build_table(b, OTV_T_CVAR);
    if (!out) st = OTV_E_NOMEM;
    if (!st) {
      otv_buf_u16(out, 1);
      otv_buf_u16(out, 0);
      st = write_store(b, &e, t, tc, n, 1, ac, true, 4, out);
    }
  }
  otv_mem_free(&b->al, d, ((size_t)cnt * n + 1) * sizeof *d);
  otv_mem_free(&b->al, keep, (size_t)cnt * n + 1);
  otv_mem_free(&b->al, t, cnt * sizeof *t);
  otv_mem_free(&b->al, e.pts_at, e.pts_at_cap * sizeof(size_t));
  otv_mem_free(&b->al, e.dat_at, e.dat_at_cap * sizeof(size_t));
  otv_mem_free(&b->al, e.tmp, e.tmp_cap * sizeof *e.tmp);
  otv_buf_free(&e.pts);
  otv_buf_free(&e.dat);
  return st;
}

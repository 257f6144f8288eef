/*
 * instance/region.c - the factors of a variation region at an instance's pinned location (see
 * instance/region.h), for full and partial instances alike.
 */
#include "instance/region.h"

/* spec: an ill-formed region axis (start > peak, peak > end, or crossing zero) is ignored */
static bool ill_formed(int s, int p, int e) { return s > p || p > e || (s < 0 && e > 0); }

/* The factor of axis value c in [s, p, e] (c strictly inside, c != p). */
static double factor(int c, int s, int p, int e)
{
  double v = c / 16384.0, lo = s / 16384.0, pk = p / 16384.0, hi = e / 16384.0;
  return c < p ? (v - lo) / (pk - lo) : (hi - v) / (hi - pk);
}

int otv_pin_factors(const otv_pin *pin, const int16_t *start, const int16_t *peak,
                    const int16_t *end, double *out)
{
  int k = 0;
  for (unsigned i = 0; i < pin->axis_count; i++) {
    unsigned a = pin->axis_order[i];
    int p = peak[a], s = start[a], e = end[a];
    if (p == 0 || ill_formed(s, p, e)) continue;
    int c = pin->coords[a];
    if (c == p) continue;
    if (c <= s || c >= e) return -1;
    out[k++] = factor(c, s, p, e);
  }
  return k;
}

int otv_pin_factors_partial(const otv_pin *pin, const int16_t *start, const int16_t *peak,
                            const int16_t *end, double *out, bool *kept)
{
  int k = 0;
  bool dead = false;
  *kept = false;
  for (unsigned i = 0; i < pin->axis_count; i++) {
    unsigned a = pin->axis_order[i];
    int p = peak[a], s = start[a], e = end[a];
    if (p == 0 || ill_formed(s, p, e)) continue;
    if (pin->keep[a]) {
      *kept = true;
      continue;
    }
    int c = pin->coords[a];
    if (c == p) continue;
    if (c <= s || c >= e) {
      dead = true;
      continue;
    }
    out[k++] = factor(c, s, p, e);
  }
  return dead ? -1 : k;
}

void otv_pin_kept_region(const otv_pin *pin, const int16_t *start, const int16_t *peak,
                         const int16_t *end, int16_t *ns, int16_t *np, int16_t *ne)
{
  for (unsigned a = 0; a < pin->axis_count; a++) {
    if (!pin->keep[a]) continue;
    unsigned j = pin->new_index[a];
    int p = peak[a], s = start[a], e = end[a];
    if (p == 0 || ill_formed(s, p, e)) s = p = e = 0;
    ns[j] = (int16_t)s, np[j] = (int16_t)p, ne[j] = (int16_t)e;
  }
}

/* ---- regions over limited axes ----
 * On a kept axis limited to [lo, hi] with the new default d (old normalized coordinates), the
 * new coordinate of x is y = (x - d) / (hi - d) above d and (x - d) / (d - lo) below (linear on
 * each side: the new fvar range normalizes this way, and the new avar absorbs the rest). A
 * region's factor f on that axis is a function of x; over [lo, hi], as a function of y, it is
 * f(d) (a constant: the axis leaves the region) plus tents in y. */

/* One axis's share of a region: a coefficient and a tent in new coordinates (p 0: constant). */
typedef struct axis_piece {
  double coef;
  int16_t s, p, e;
} axis_piece;

#define AXIS_PIECES_MAX 9 /* constant + up to 4 nodes a side (3 tent points and the bound) */

/* The spec's factor of x (normalized, as a double) in the well-formed tent [s, p, e], p != 0. */
static double tent_at(double x, double s, double p, double e)
{
  if (x < s || x > e) return 0;
  if (x == p) return 1;
  return x < p ? (x - s) / (p - s) : (e - x) / (e - p);
}

static int16_t to_f2(double v)
{
  double t = floor(v * 16384.0 + 0.5);
  return (int16_t)(t < -32768 ? -32768 : t > 32767 ? 32767 : t);
}

/* The tents of g(y) = f(x(y)) - c on one side of the new default: nodes (new coordinates, from
 * 0 outward, the last the bound at +-1) with g's values; the hat of node i rises from node i-1
 * (0 for the first) and falls to node i+1 (the last ends at the bound). */
static unsigned side_hats(const double *node, const double *val, unsigned m, axis_piece *out)
{
  unsigned n = 0;
  for (unsigned i = 0; i < m; i++) {
    if (fabs(val[i]) < 1e-12) continue;
    double lo = i ? node[i - 1] : 0, hi = i + 1 < m ? node[i + 1] : node[i];
    int16_t a = to_f2(lo), b = to_f2(node[i]), c = to_f2(hi);
    if (b == 0) continue; /* a node that rounds onto the default: below F2Dot14 precision */
    out[n].coef = val[i];
    /* negative side: nodes run outward, so the tent is [hi, node, lo] */
    if (node[i] < 0)
      out[n].s = c, out[n].p = b, out[n].e = a;
    else
      out[n].s = a, out[n].p = b, out[n].e = c;
    n++;
  }
  return n;
}

/* The pieces of the tent [s, p, e] (F2Dot14, well-formed, p != 0) on a kept axis limited to
 * [lo, d, hi]. */
static unsigned axis_pieces(int s16, int p16, int e16, int lo16, int d16, int hi16, axis_piece *out)
{
  double s = s16 / 16384.0, p = p16 / 16384.0, e = e16 / 16384.0;
  double lo = lo16 / 16384.0, d = d16 / 16384.0, hi = hi16 / 16384.0;
  double up = hi - d, down = d - lo; /* the new unit on each side (0: that side is gone) */
#define Y(x) ((x) > d ? ((x)-d) / up : (x) < d ? ((x)-d) / down : 0.0)
  unsigned n = 0;
  if (s >= d && up > 0) {
    /* the tent lies on the side above the new default, where y is one linear map */
    if (s >= hi) return 0;
    double ys = Y(s), yp = Y(p), ye = Y(e);
    if (yp > 1) {
      /* only its rising edge is in range: a tent from ys to the bound, scaled by f(hi) */
      out[0] = (axis_piece){tent_at(hi, s, p, e), to_f2(ys), 16384, 16384};
      return out[0].coef != 0 && out[0].s < 16384;
    }
    /* the same tent rescaled, when it ends inside the range (at its peak when that is the
     * bound: beyond it nothing is reached; sanitizers refuse coordinates past 1) */
    if (yp >= 1 - 0.5 / 16384 || ye <= 1 + 0.5 / 16384) {
      out[0] = (axis_piece){1, to_f2(ys), to_f2(yp), to_f2(ye > 1 ? 1 : ye)};
      if (out[0].p == 16384) out[0].e = 16384;
      return out[0].p != 0;
    }
  } else if (e <= d && down > 0) {
    if (e <= lo) return 0;
    double ys = Y(s), yp = Y(p), ye = Y(e);
    if (yp < -1) {
      out[0] = (axis_piece){tent_at(lo, s, p, e), -16384, -16384, to_f2(ye)};
      return out[0].coef != 0 && out[0].e > -16384;
    }
    if (yp <= -1 + 0.5 / 16384 || ys >= -1 - 0.5 / 16384) {
      out[0] = (axis_piece){1, to_f2(ys < -1 ? -1 : ys), to_f2(yp), to_f2(ye)};
      if (out[0].p == -16384) out[0].s = -16384;
      return out[0].p != 0;
    }
  }
  /* general: a constant, then hats at the tent's corners inside each side and at its bound */
  double c = tent_at(d, s, p, e);
  if (c != 0) out[n++] = (axis_piece){c, 0, 0, 0};
  double pts[3] = {s, p, e};
  for (int side = 1; side >= -1; side -= 2) {
    if ((side > 0 ? up : down) <= 0) continue;
    double node[4], val[4];
    unsigned m = 0;
    for (unsigned i = 0; i < 3; i++) {
      double x = pts[side > 0 ? i : 2 - i]; /* outward order */
      if (side > 0 ? (x > d && x < hi) : (x < d && x > lo)) {
        double y = Y(x);
        if (m && y == node[m - 1]) continue;
        node[m] = y, val[m] = tent_at(x, s, p, e) - c, m++;
      }
    }
    double bound = side > 0 ? hi : lo;
    node[m] = side, val[m] = tent_at(bound, s, p, e) - c, m++;
    n += side_hats(node, val, m, out + n);
  }
#undef Y
  return n;
}

int otv_pin_pieces(const otv_pin *pin, const int16_t *start, const int16_t *peak,
                   const int16_t *end, double *factors, int *k, otv_piece *out, unsigned cap)
{
  bool kept;
  *k = otv_pin_factors_partial(pin, start, peak, end, factors, &kept);
  if (*k < 0) return -1;
  if (!kept) return 0;
  if (!cap) return -2;
  memset(&out[0], 0, sizeof out[0]);
  out[0].coef = 1;
  otv_pin_kept_region(pin, start, peak, end, out[0].s, out[0].p, out[0].e);
  unsigned n = 1;
  /* each limited kept axis in the region multiplies the pieces by its own */
  for (unsigned a = 0; a < pin->axis_count; a++) {
    if (!pin->keep[a] || !pin->limited[a]) continue;
    unsigned j = pin->new_index[a];
    if (out[0].p[j] == 0) continue; /* not in the region (or ill-formed: ignored) */
    axis_piece ap[AXIS_PIECES_MAX];
    unsigned m = axis_pieces(out[0].s[j], out[0].p[j], out[0].e[j], pin->lim_lo[a], pin->lim_def[a],
                             pin->lim_hi[a], ap);
    if (!m) return 0;
    if ((size_t)n * m > cap) return -2;
    /* piece i x axis piece q at slot q * n + i (the existing pieces copied first) */
    for (unsigned q = m; q-- > 0;)
      for (unsigned i = 0; i < n; i++) {
        otv_piece *o = &out[q * n + i];
        if (q) *o = out[i];
        o->coef *= ap[q].coef;
        o->s[j] = ap[q].s, o->p[j] = ap[q].p, o->e[j] = ap[q].e;
      }
    n *= m;
  }
  /* the piece with no kept axis left is the constant part: in the default already */
  unsigned w = 0;
  for (unsigned i = 0; i < n; i++) {
    bool any = false;
    for (unsigned j = 0; j < pin->kept_count; j++)
      if (out[i].p[j]) any = true;
    if (!any || out[i].coef == 0) continue;
    if (w != i) out[w] = out[i];
    w++;
  }
  return (int)w;
}

/*
 * build/model.c - the variation model (build/model.h): master order, regions with their
 * intermediate cuts, delta weights, and the deltas of master values.
 * Spec: otvaroverview "Variation data", otvarcommonformats "Algorithm for interpolation of
 * instance values". The order and the cuts follow fontTools' VariationModel (4.38, the
 * reference builder): the same masters give the same regions, so fonts built by either agree
 * tuple for tuple (tests/oracle/test_build.py compares the results at the masters and at random
 * locations).
 */
#include "build/model.h"

#include <math.h>

/* Sort key of one location (fontTools' getMasterLocationsSortKeyFunc): returns <0, 0, >0. */
typedef struct key_ctx {
  const double *locs;
  unsigned ac, n;
} key_ctx;

static bool on_axis_value(const key_ctx *c, unsigned axis, double v)
{
  /* v is one of the values of the masters that lie on this axis alone */
  for (unsigned k = 0; k < c->n; k++) {
    const double *l = c->locs + (size_t)k * c->ac;
    unsigned nz = 0;
    for (unsigned a = 0; a < c->ac; a++) nz += l[a] != 0;
    if (nz == 1 && l[axis] != 0 && l[axis] == v) return true;
  }
  return false;
}

static void key_of(const key_ctx *c, unsigned k, unsigned *rank, unsigned *on)
{
  const double *l = c->locs + (size_t)k * c->ac;
  *rank = *on = 0;
  for (unsigned a = 0; a < c->ac; a++) {
    if (l[a] == 0) continue;
    ++*rank;
    if (on_axis_value(c, a, l[a])) ++*on;
  }
}

static int key_cmp(const key_ctx *c, unsigned i, unsigned j)
{
  unsigned ri, oi, rj, oj;
  key_of(c, i, &ri, &oi);
  key_of(c, j, &rj, &oj);
  if (ri != rj) return ri < rj ? -1 : 1;
  if (oi != oj) return oi > oj ? -1 : 1; /* more on-axis values first */
  const double *a = c->locs + (size_t)i * c->ac, *b = c->locs + (size_t)j * c->ac;
  /* the non-zero axes in axis order, compared as index tuples (equal ranks: equal lengths) */
  unsigned pa = 0, pb = 0;
  for (unsigned q = 0; q < ri; q++) {
    while (a[pa] == 0) pa++;
    while (b[pb] == 0) pb++;
    if (pa != pb) return pa < pb ? -1 : 1;
    pa++, pb++;
  }
  for (unsigned pass = 0; pass < 2; pass++)
    for (unsigned ax = 0; ax < c->ac; ax++) {
      if (a[ax] == 0) continue; /* same non-zero axes by now */
      double x = pass ? fabs(a[ax]) : (a[ax] > 0) - (a[ax] < 0);
      double y = pass ? fabs(b[ax]) : (b[ax] > 0) - (b[ax] < 0);
      if (x != y) return x < y ? -1 : 1;
    }
  return 0;
}

double otv_vmodel_scalar(const double *region, const double *loc, unsigned axis_count)
{
  double scalar = 1;
  for (unsigned a = 0; a < axis_count; a++) {
    double lo = region[3 * a], peak = region[3 * a + 1], hi = region[3 * a + 2];
    if (peak == 0 || lo > peak || peak > hi || (lo < 0 && hi > 0)) continue;
    double v = loc[a];
    if (v == peak) continue;
    if (v <= lo || hi <= v) return 0;
    scalar *= v < peak ? (v - lo) / (peak - lo) : (v - hi) / (peak - hi);
  }
  return scalar;
}

otv_status otv_vmodel_init(otv_vmodel *m, const double *locs, unsigned n, unsigned ac,
                           const otv_alloc *al, otv_error *err)
{
  memset(m, 0, sizeof *m);
  if (!n || n > OTV_BUILD_MAX_MASTERS)
    return OTV_FAIL(err, LIMIT, 0, 0, "%u masters (1 to %u)", n, OTV_BUILD_MAX_MASTERS);
  m->axis_count = ac;
  m->count = n;
  unsigned base = UINT32_MAX;
  for (unsigned k = 0; k < n; k++) {
    bool zero = true;
    for (unsigned a = 0; a < ac; a++) zero &= locs[(size_t)k * ac + a] == 0;
    if (zero && base == UINT32_MAX) base = k;
    for (unsigned j = 0; j < k; j++)
      if (!memcmp(locs + (size_t)k * ac, locs + (size_t)j * ac, ac * sizeof *locs))
        return OTV_FAIL(err, BAD_VALUE, 0, 0, "masters %u and %u are at the same location", j, k);
  }
  if (base == UINT32_MAX)
    return OTV_FAIL(err, BAD_VALUE, 0, 0, "no master at the default location");
  /* stable insertion sort by the key */
  key_ctx kc = {locs, ac, n};
  for (unsigned k = 0; k < n; k++) {
    unsigned p = k;
    while (p > 0 && key_cmp(&kc, m->order[p - 1], k) > 0) {
      m->order[p] = m->order[p - 1];
      p--;
    }
    m->order[p] = k;
  }
  size_t sup_n = (size_t)n * (ac ? ac : 1) * 3;
  m->support = otv_mem_calloc(al, sup_n, sizeof *m->support);
  m->weight = otv_mem_calloc(al, (size_t)n * n, sizeof *m->weight);
  if (!m->support || !m->weight) {
    otv_vmodel_free(m, al);
    return OTV_FAIL(err, NOMEM, 0, 0, "variation model");
  }
  /* regions: (0, v, max) or (min, v, 0) over the range of the masters' values */
  for (unsigned a = 0; a < ac; a++) {
    double lo = 0, hi = 0;
    for (unsigned k = 0; k < n; k++) {
      double v = locs[(size_t)k * ac + a];
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    for (unsigned i = 0; i < n; i++) {
      double v = locs[(size_t)m->order[i] * ac + a], *r = m->support + ((size_t)i * ac + a) * 3;
      if (v > 0) r[0] = 0, r[1] = v, r[2] = hi;
      if (v < 0) r[0] = lo, r[1] = v, r[2] = 0;
    }
  }
  /* cut each region by the earlier masters on the same axes that lie inside it */
  for (unsigned i = 0; i < n; i++) {
    double *r = m->support + (size_t)i * ac * 3;
    for (unsigned j = 0; j < i; j++) {
      const double *pr = m->support + (size_t)j * ac * 3;
      bool same_axes = true, inside = true;
      for (unsigned a = 0; a < ac; a++) {
        if ((pr[3 * a + 1] != 0) != (r[3 * a + 1] != 0)) same_axes = false;
        if (r[3 * a + 1] == 0) continue;
        double pv = pr[3 * a + 1];
        if (!(pv == r[3 * a + 1] || (r[3 * a] < pv && pv < r[3 * a + 2]))) inside = false;
      }
      if (!same_axes || !inside) continue;
      double best = -1, cut_lo[OTV_MAX_AXES], cut_hi[OTV_MAX_AXES];
      bool cut[OTV_MAX_AXES] = {0};
      for (unsigned a = 0; a < ac && a < OTV_MAX_AXES; a++) {
        double val = pr[3 * a + 1], lo = r[3 * a], v = r[3 * a + 1], hi = r[3 * a + 2];
        if (val == 0) continue;
        double ratio, nlo = lo, nhi = hi;
        if (val < v)
          nlo = val, ratio = (val - v) / (lo - v);
        else if (v < val)
          nhi = val, ratio = (val - v) / (hi - v);
        else
          continue;
        if (ratio > best) {
          best = ratio;
          memset(cut, 0, sizeof cut);
        }
        if (ratio == best) cut[a] = true, cut_lo[a] = nlo, cut_hi[a] = nhi;
      }
      for (unsigned a = 0; a < ac && a < OTV_MAX_AXES; a++)
        if (cut[a]) r[3 * a] = cut_lo[a], r[3 * a + 2] = cut_hi[a];
    }
  }
  /* weights: the earlier regions' scalars at each master */
  for (unsigned i = 0; i < n; i++)
    for (unsigned j = 0; j < i; j++)
      m->weight[(size_t)i * n + j] =
          otv_vmodel_scalar(m->support + (size_t)j * ac * 3, locs + (size_t)m->order[i] * ac, ac);
  return OTV_E_OK;
}

void otv_vmodel_free(otv_vmodel *m, const otv_alloc *al)
{
  if (m->support)
    otv_mem_free(al, m->support,
                 (size_t)m->count * (m->axis_count ? m->axis_count : 1) * 3 * sizeof *m->support);
  if (m->weight) otv_mem_free(al, m->weight, (size_t)m->count * m->count * sizeof *m->weight);
  m->support = m->weight = NULL;
}

void otv_vmodel_deltas(const otv_vmodel *m, const double *values, size_t stride, size_t width,
                       double *out)
{
  unsigned n = m->count;
  /* row by row (each earlier row's deltas subtracted from the whole row: loops the compiler
   * vectorizes), each value getting the same subtractions in the same order as one by one */
  for (unsigned i = 0; i < n; i++) {
    const double *v = values + (size_t)m->order[i] * stride;
    double *restrict o = out + (size_t)i * width;
    for (size_t c = 0; c < width; c++) o[c] = v[c];
    for (unsigned j = 0; j < i; j++) {
      double w = m->weight[(size_t)i * n + j];
      const double *restrict oj = out + (size_t)j * width;
      if (w == 1)
        for (size_t c = 0; c < width; c++) o[c] -= oj[c];
      else if (w != 0)
        for (size_t c = 0; c < width; c++) o[c] -= oj[c] * w;
    }
    for (size_t c = 0; c < width; c++) o[c] = nearbyint(o[c]); /* half to even: Python's round */
  }
}

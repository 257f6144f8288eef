/*
 * avar.c - the axis variations table (spec: avar), versions 1 and 2.
 *
 * Version 1: one SegmentMaps per axis, piecewise-linear maps of F2Dot14 normalized values.
 *   spec: "All of the axisValueMaps records for a given axis must have different fromCoordinate
 *   values, and axisValueMaps records must be arranged in increasing order of the fromCoordinate
 *   value. If the fromCoordinate value of a record is less than or equal to the fromCoordinate
 *   value of a previous record in the array, then the given record may be ignored." We ignore it.
 *   A non-empty map must contain the mappings -1 -> -1, 0 -> 0 and +1 -> +1; a map without them
 *   is invalid and ignored (the default normalization is used for that axis), as the spec
 *   prescribes. Such fallbacks are applied, not reported.
 * Version 2: after the segment maps, an axisIndexMap (DeltaSetIndexMap, optional: implicit
 *   index = axis index) and an ItemVariationStore whose deltas, evaluated at the v1 output, are
 *   added to it (rounded to F2Dot14, halves up) and clamped to [-1, +1] (src/ivs.c does the store).
 *
 * avar.axisCount must equal fvar.axisCount (spec); a mismatch is reported as BAD_VALUE.
 *
 * Where this differs from HarfBuzz 6.0 (the oracle of tests/oracle/test_normalize.c, which
 * agrees exactly on every test font): HarfBuzz applies invalid segment maps as they are and
 * maps the first min(avar, fvar) axes on an axisCount mismatch; we follow the spec. No test
 * font has either defect.
 */
#include "avar.h"

#define F2_ONE 16384

void otv_avar_free(const otv_alloc *al, otv_avar *fv)
{
  if (fv->seg) otv_mem_free(al, fv->seg, (size_t)fv->axis_count * sizeof *fv->seg);
  if (fv->seg_pool) otv_mem_free(al, fv->seg_pool, fv->seg_pool_len * sizeof *fv->seg_pool);
  fv->seg = NULL;
  fv->seg_pool = NULL;
  fv->seg_pool_len = 0;
  otv_ivs_free(al, &fv->ivs);
  memset(&fv->map, 0, sizeof fv->map);
}

/* Keep the records whose fromCoordinate increases (spec: the others may be ignored) as pairs
 * into out (room for n pairs); returns how many were kept. maps: n records of 4 bytes, in range
 * (checked by the caller). */
static unsigned keep_increasing(const uint8_t *maps, unsigned n, int16_t *out)
{
  int last = INT32_MIN;
  unsigned k = 0;
  for (unsigned i = 0; i < n; i++) {
    int fr = otv_peek_i16(maps + 4 * (size_t)i), to = otv_peek_i16(maps + 4 * (size_t)i + 2);
    if (fr <= last) continue;
    last = fr;
    out[2 * k] = (int16_t)fr;
    out[2 * k + 1] = (int16_t)to;
    k++;
  }
  return k;
}

/* A map is valid when its kept records hold the three required mappings. */
static bool seg_valid(const int16_t *m, unsigned n)
{
  bool m1 = false, z = false, p1 = false;
  for (unsigned i = 0; i < n; i++) {
    int fr = m[2 * i], to = m[2 * i + 1];
    if (fr == -F2_ONE && to == -F2_ONE) m1 = true;
    if (fr == 0 && to == 0) z = true;
    if (fr == F2_ONE && to == F2_ONE) p1 = true;
  }
  return m1 && z && p1;
}

/* The pair index i with from[i-1] < v < from[i], or -1 when v equals from[i] (*hit = i) or lies
 * outside the map (never for a valid map: it holds -1 and +1, and v is in [-1, +1]).
 * Comparisons on F2Dot14 x scale, so that one search serves the 16.16 and F2Dot14 maps. */
static int segment_of(const otv_avar_seg *s, int64_t v, int scale, int *hit)
{
  const int16_t *m = s->map;
  unsigned n = s->count, i = 0;
  *hit = -1;
  while (i < n && (int64_t)m[2 * i] * scale < v) i++;
  if (i == n) return -1;
  if ((int64_t)m[2 * i] * scale == v) return *hit = (int)i, -1;
  return i == 0 ? -1 : (int)i;
}

int otv_avar_map_v1_float(const otv_avar_seg *s, int v, float *real)
{
  const int16_t *m = s->map;
  int hit = -1, i = s->count ? segment_of(s, v, 1, &hit) : -1;
  if (i < 0 && hit >= 0) *real = m[2 * hit + 1] / 16384.0f;
  if (i < 0) return hit >= 0 ? m[2 * hit + 1] : v;
  int pf = m[2 * i - 2], pt = m[2 * i - 1], fr = m[2 * i], to = m[2 * i + 1];
  /* to[i-1] + (to[i] - to[i-1]) * (v - from[i-1]) / (from[i] - from[i-1]) in binary32, rounded
   * halves up: HarfBuzz 6.0's evaluation (tests/oracle/test_normalize.c: identical). */
  float d = (float)(to - pt) * (float)(v - pf);
  float r = (float)pt + d / (float)(fr - pf);
  *real = r / 16384.0f;
  return otv_round_half_up(r);
}

int32_t otv_avar_map_v1_fixed(const otv_avar_seg *s, int32_t v)
{
  const int16_t *m = s->map;
  int hit = -1, i = s->count ? segment_of(s, v, 4, &hit) : -1;
  if (i < 0) return hit >= 0 ? m[2 * hit + 1] * 4 : v;
  int64_t pf = m[2 * i - 2] * 4, pt = m[2 * i - 1] * 4, fr = m[2 * i] * 4, to = m[2 * i + 1] * 4;
  /* (to[i] - to[i-1]) * (v - from[i-1]) / (from[i] - from[i-1]) on the magnitudes, rounded to
   * nearest with halves away from zero, then signed (FT_MulDiv's rounding): |product| < 2^36. */
  int64_t num = (to - pt) * (v - pf), den = fr - pf; /* den > 0: from increases */
  int64_t q = ((num < 0 ? -num : num) + den / 2) / den;
  return (int32_t)(pt + (num < 0 ? -q : q));
}

float otv_avar_map_v1_binary32(const otv_avar_seg *s, float v)
{
  const int16_t *m = s->map;
  unsigned n = s->count;
  /* the map's values as binary32 (exact), an exact match first, then the segment */
  for (unsigned i = 0; i < n; i++)
    if (v == m[2 * i] / 16384.0f) return m[2 * i + 1] / 16384.0f;
  if (!n) return v;
  unsigned i = 0;
  while (i < n && !(v < m[2 * i] / 16384.0f)) i++;
  if (i == 0) return v - m[0] / 16384.0f + m[1] / 16384.0f;
  if (i == n) return v - m[2 * n - 2] / 16384.0f + m[2 * n - 1] / 16384.0f;
  float bf = m[2 * i - 2] / 16384.0f, bt = m[2 * i - 1] / 16384.0f;
  float af = m[2 * i] / 16384.0f, at = m[2 * i + 1] / 16384.0f;
  return bt + ((at - bt) * (v - bf)) / (af - bf);
}

double otv_avar_map_v1_double(const otv_avar_seg *s, double v)
{
  const int16_t *m = s->map;
  unsigned n = s->count;
  /* fontTools' piecewiseLinearMap on the map's exact values */
  for (unsigned i = 0; i < n; i++)
    if (m[2 * i] / 16384.0 == v) return m[2 * i + 1] / 16384.0;
  if (!n) return v;
  double k = m[0] / 16384.0;
  if (v < k) return v + m[1] / 16384.0 - k;
  k = m[2 * n - 2] / 16384.0;
  if (v > k) return v + m[2 * n - 1] / 16384.0 - k;
  unsigned i = 1;
  while (m[2 * i] / 16384.0 < v) i++; /* stops: v < last from */
  double a = m[2 * i - 2] / 16384.0, b = m[2 * i] / 16384.0;
  double va = m[2 * i - 1] / 16384.0, vb = m[2 * i + 1] / 16384.0;
  return va + (vb - va) * (v - a) / (b - a);
}

otv_status otv_avar_parse(otv_span tab, uint16_t fvar_axes, const otv_alloc *al, otv_avar *fv,
                          otv_error *err)
{
  memset(fv, 0, sizeof *fv);
  fv->axis_count = fvar_axes;
  if (!tab.p) return OTV_E_OK;
  otv_rd r = otv_rd_init(tab, 0);
  uint16_t major = otv_rd_u16(&r);
  uint16_t minor = otv_rd_u16(&r);
  otv_rd_skip(&r, 2); /* reserved */
  uint16_t axis_count = otv_rd_u16(&r);
  if (!otv_rd_ok(&r)) return OTV_FAIL_RD(err, OTV_T_AVAR, 0, &r, "avar header");
  if (major != 1 && major != 2)
    return OTV_FAIL(err, UNSUPPORTED, OTV_T_AVAR, 0, "avar version %u.%u", major, minor);
  if (axis_count != fv->axis_count)
    return OTV_FAIL(err, BAD_VALUE, OTV_T_AVAR, 6, "axisCount %u, fvar has %u axes", axis_count,
                    fv->axis_count);
  /* First pass: check the extents and count the records. */
  size_t total = 0;
  size_t maps_start = r.pos;
  for (unsigned a = 0; a < axis_count; a++) {
    size_t at = r.pos;
    uint16_t n = otv_rd_u16(&r);
    otv_rd_skip(&r, (size_t)n * 4);
    if (!otv_rd_ok(&r))
      return OTV_FAIL(err, TRUNCATED, OTV_T_AVAR, at, "segment map of axis %u (%u records)", a, n);
    total += n;
  }
  if (axis_count) {
    fv->seg = otv_mem_calloc(al, axis_count, sizeof *fv->seg);
    if (!fv->seg) return OTV_FAIL(err, NOMEM, OTV_T_AVAR, 0, "segment maps");
  }
  if (total) {
    fv->seg_pool = otv_mem_calloc(al, 2 * total, sizeof *fv->seg_pool);
    if (!fv->seg_pool) {
      otv_avar_free(al, fv);
      return OTV_FAIL(err, NOMEM, OTV_T_AVAR, 0, "segment maps");
    }
    fv->seg_pool_len = 2 * total;
  }
  /* Second pass: decode the kept records; an invalid map is ignored (spec). */
  size_t pos = maps_start, used = 0;
  for (unsigned a = 0; a < axis_count; a++) {
    /* in range: every map's extent was checked in the first pass */
    unsigned n = otv_peek_u16(tab.p + pos);
    /* no pool when every map is empty: never offset a null pointer */
    int16_t *out = fv->seg_pool ? fv->seg_pool + 2 * used : NULL;
    unsigned kept = n && out ? keep_increasing(tab.p + pos + 2, n, out) : 0;
    fv->seg[a].raw = tab.p + pos;
    if (kept && seg_valid(out, kept)) {
      fv->seg[a].map = out;
      fv->seg[a].count = (uint16_t)kept;
      used += kept;
    }
    pos += 2 + 4 * (size_t)n;
  }
  if (major == 2) {
    size_t at = r.pos;
    uint32_t map_off = otv_rd_u32(&r);
    uint32_t store_off = otv_rd_u32(&r);
    if (!otv_rd_ok(&r)) {
      otv_avar_free(al, fv);
      return OTV_FAIL_RD(err, OTV_T_AVAR, 0, &r, "avar 2 offsets");
    }
    otv_status s = OTV_E_OK;
    if (map_off) {
      if (map_off >= tab.len)
        s = OTV_FAIL(err, BAD_OFFSET, OTV_T_AVAR, at, "axisIndexMapOffset 0x%x past the end (%zu)",
                     map_off, tab.len);
      else
        s = otv_dsim_parse(tab, OTV_T_AVAR, map_off, &fv->map, err);
    }
    if (!s && store_off) {
      if (store_off >= tab.len)
        s = OTV_FAIL(err, BAD_OFFSET, OTV_T_AVAR, at + 4, "varStoreOffset 0x%x past the end (%zu)",
                     store_off, tab.len);
      else
        s = otv_ivs_parse(al, tab, OTV_T_AVAR, store_off, fv->axis_count, &fv->ivs, err);
    }
    if (s) {
      otv_avar_free(al, fv);
      return s;
    }
  }
  fv->version = major;
  return OTV_E_OK;
}

void otv_avar_v2_deltas(const otv_avar *fv, const int32_t *q, float *scratch, float *delta)
{
  const otv_ivs *ivs = &fv->ivs;
  /* Every delta is evaluated at the v1 output: compute all region scalars first. */
  otv_ivs_region_scalars(ivs, q, fv->axis_count, scratch);
  for (unsigned a = 0; a < fv->axis_count; a++) {
    uint32_t outer, inner;
    otv_dsim_map(&fv->map, a, &outer, &inner);
    delta[a] = ivs->present ? otv_ivs_delta(ivs, scratch, outer, inner) : 0.0f;
  }
}

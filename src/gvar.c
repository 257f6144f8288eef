/*
 * gvar.c - glyph variations (spec: gvar, and otvarcommonformats "Tuple variation store" for the
 * tuple headers, packed point numbers and packed deltas): the header, shared tuples, per-glyph
 * GlyphVariationData, the region scalar of every tuple, and inference of deltas for untouched
 * points (IUP) per contour.
 *
 * The header, the offsets array and the shared tuples are checked at open; each glyph's
 * variation data is checked when it is used. Deltas accumulate in float.
 */
#include "gvar.h"
#include "tuple.h"

#if OTV_SSE2
#  include <emmintrin.h>
#endif

#define T_GVAR OTV_T_GVAR

otv_status otv_gvar_parse(otv_span tab, uint16_t fvar_axes, otv_gvar *out, otv_error *err)
{
  otv_gvar *g = out;
  memset(g, 0, sizeof *g);
  if (!tab.p) return OTV_E_OK;
  otv_rd r = otv_rd_init(tab, 0);
  uint16_t major = otv_rd_u16(&r);
  otv_rd_skip(&r, 2); /* minorVersion */
  uint16_t axis_count = otv_rd_u16(&r);
  uint16_t shared_count = otv_rd_u16(&r);
  uint32_t shared_off = otv_rd_u32(&r);
  uint16_t glyph_count = otv_rd_u16(&r);
  uint16_t flags = otv_rd_u16(&r);
  uint32_t data_off = otv_rd_u32(&r);
  if (!otv_rd_ok(&r)) return OTV_FAIL_RD(err, T_GVAR, 0, &r, "gvar header");
  if (major != 1) return OTV_FAIL(err, BAD_VALUE, T_GVAR, 0, "majorVersion %u", major);
  if (axis_count != fvar_axes)
    return OTV_FAIL(err, BAD_VALUE, T_GVAR, 4, "axisCount %u, fvar has %u", axis_count, fvar_axes);
  g->long_offsets = (flags & 1u) != 0;
  otv_span offs;
  if (!otv_span_array(tab, 20, (size_t)glyph_count + 1, g->long_offsets ? 4 : 2, &offs))
    return OTV_FAIL(err, TRUNCATED, T_GVAR, 20, "%u glyph variation data offsets",
                    glyph_count + 1u);
  otv_span shared;
  if (!otv_span_array(tab, shared_off, (size_t)shared_count * axis_count, 2, &shared))
    return OTV_FAIL(err, TRUNCATED, T_GVAR, 8, "%u shared tuples of %u axes at 0x%x", shared_count,
                    axis_count, shared_off);
  if (data_off > tab.len)
    return OTV_FAIL(err, BAD_OFFSET, T_GVAR, 16, "glyphVariationDataArrayOffset 0x%x", data_off);
  g->present = true;
  g->axis_count = axis_count;
  g->shared_tuple_count = shared_count;
  g->glyph_count = glyph_count;
  g->tab = tab;
  g->shared_tuples = shared.p;
  g->offsets = offs.p;
  g->data_off = data_off;
  return OTV_E_OK;
}

void otv_gvar_loc_init(otv_gvar_loc *c, const otv_gvar *g, otv_locctx x)
{
  memset(c, 0, sizeof *c);
  c->x = x;
  c->g = g;
}

void otv_gvar_loc_free(otv_gvar_loc *c)
{
  const otv_alloc *al = c->x.al;
  if (!al) return; /* never initialised */
  otv_mem_free(al, c->shared_scalars, c->shared_cap * sizeof(float));
  otv_mem_free(al, c->acc, c->acc_cap * sizeof(otv_point));
  otv_mem_free(al, c->td, c->td_cap * sizeof(otv_point));
  otv_mem_free(al, c->touched, c->touched_cap);
  otv_mem_free(al, c->pn_shared, c->pn_shared_cap * sizeof(uint16_t));
  otv_mem_free(al, c->pn_priv, c->pn_priv_cap * sizeof(uint16_t));
  otv_mem_free(al, c->dl, c->dl_cap * sizeof(otv_point));
  otv_mem_free(al, c->act, c->act_cap * sizeof *c->act);
  otv_mem_free(al, c->refs, c->refs_cap * sizeof(uint16_t));
  otv_mem_free(al, c->dacc, c->dacc_cap * sizeof(float));
  otv_mem_free(al, c->dz, c->dz_cap * sizeof(float));
  otv_gvar_loc_init(c, c->g, c->x);
}

/* The per-point scratch (deltas, point numbers, IUP) is first allocated for SCRATCH_PTS
 * points: one allocation each for most glyphs of a new location, not a doubling series
 * from 16. */
#define SCRATCH_PTS 256u
static inline size_t at_least(size_t n, size_t min) { return n < min ? min : n; }
/* OTV_RESERVE growing to at least min elements: the test of the common case unchanged. */
#define RESERVE_MIN(al, buf, cap, need, elem, min)                                                 \
  ((need) <= *(cap)                                                                                \
       ? OTV_E_OK                                                                                  \
       : otv_mem_reserve((al), (void **)(buf), (cap), at_least((need), (min)), (elem)))

/* Scalar of a tuple (spec: "Algorithm for calculating the scalar for a region"). peak, start,
 * end point at axis_count F2Dot14 values (in range: checked by the caller); start/end NULL for a
 * tuple without an intermediate region (start = min(0, peak), end = max(0, peak)). coords are
 * 16.16 (coords.h): the region's values are scaled to 16.16 (x 4, exact), and the quotients of
 * the scaled integers are the same floats as of the F2Dot14 ones. */
static float tuple_scalar(const int32_t *coords, unsigned axis_count, const uint8_t *peak,
                          const uint8_t *start, const uint8_t *end)
{
  float s = 1.0f;
  for (unsigned a = 0; a < axis_count; a++) {
    int p = otv_peek_i16(peak + 2 * a) * 4;
    if (p == 0) continue;
    int c = coords[a];
    if (c == p) continue;
    int lo, hi;
    if (start) {
      lo = otv_peek_i16(start + 2 * a) * 4;
      hi = otv_peek_i16(end + 2 * a) * 4;
    } else {
      lo = p < 0 ? p : 0;
      hi = p < 0 ? 0 : p;
    }
    float f = otv_axis_scalar(c, lo, p, hi);
    if (f == 0.0f) return 0.0f;
    s *= f;
  }
  return s;
}

/* tuple_scalar without an intermediate region (start = min(0, peak), end = max(0, peak)):
 * the factor of an axis is c / peak for c strictly between 0 and peak (the spec's
 * (c - start) / (peak - start) or (end - c) / (end - peak), the same float quotient: negating
 * both operands is exact), 1 at the peak, else 0. */
static float peak_scalar(const int32_t *coords, unsigned axis_count, const uint8_t *peak)
{
  float s = 1.0f;
  for (unsigned a = 0; a < axis_count; a++) {
    int p = otv_peek_i16(peak + 2 * a) * 4;
    int c = coords[a];
    if (p == 0 || c == p) continue;
    if (p > 0 ? c <= 0 || c >= p : c >= 0 || c <= p) return 0.0f;
    s *= (float)c / (float)p;
  }
  return s;
}

/* The scalar of a tuple with shared peak si and an intermediate region at start/end (end =
 * start + 2 x axes bytes: the region is 4 x axes bytes at start, checked by the caller),
 * through the location's small cache of such regions (the same few recur in every glyph; a
 * shared peak mostly comes with one region), direct-mapped by the peak index. Fonts of 1 or 2
 * axes: the region's 4 or 8 bytes are the key. Entries are of the location c->serial names:
 * callers have run shared_scalars, which brings it up to date. */
static float cached_scalar_small(otv_gvar_loc *c, unsigned si, const uint8_t *peak,
                                 const uint8_t *start, const uint8_t *end)
{
  unsigned axes = c->g->axis_count;
  uint64_t key = 0;
  uint32_t w;
  if (axes == 2) {
    memcpy(&key, start, 8); /* in range: start and end, 8 bytes (checked by the caller) */
  } else {
    memcpy(&w, start, 4); /* in range: start and end, 4 bytes */
    key = w;
  }
  struct otv_gvar_iscal *e = &c->iscal[si & (OTV_GVAR_ISCAL_SLOTS - 1u)];
  if (e->serial != c->serial || e->si != si || e->key != key) {
    e->s = tuple_scalar(c->x.at->q, axes, peak, start, end);
    e->serial = c->serial;
    e->si = si;
    e->key = key;
  }
  return e->s;
}

/* As cached_scalar_small for 3 or more axes: entries keep a pointer to the region's bytes in
 * the gvar table (the face outlives the location), compared 8 and 4 bytes at a time. The hit
 * inline, the miss out of line: the drawing loop keeps its registers on a hit. */
static OTV_NOINLINE float cached_scalar_big_miss(otv_gvar_loc *c, struct otv_gvar_iscal *e,
                                                 unsigned si, const uint8_t *peak,
                                                 const uint8_t *start, const uint8_t *end)
{
  e->s = tuple_scalar(c->x.at->q, c->g->axis_count, peak, start, end);
  e->serial = c->serial;
  e->si = si;
  e->region = start;
  return e->s;
}

static OTV_ALWAYS_INLINE float cached_scalar_big(otv_gvar_loc *c, unsigned si, const uint8_t *peak,
                                                 const uint8_t *start, const uint8_t *end)
{
  size_t kl = 2 * (size_t)(end - start); /* 4 bytes per axis, >= 12 */
  struct otv_gvar_iscal *e = &c->iscal[si & (OTV_GVAR_ISCAL_SLOTS - 1u)];
  if (e->serial == c->serial && e->si == si) { /* the font's axis count picks one kind */
    const uint8_t *r = e->region;
    size_t k = 0;
    bool same = true;
    /* in range: both hold kl bytes (a multiple of 4) */
    for (; k + 8 <= kl && same; k += 8) {
      uint64_t a, b;
      memcpy(&a, r + k, 8);
      memcpy(&b, start + k, 8);
      same = a == b;
    }
    if (same && k < kl) {
      uint32_t a, b;
      memcpy(&a, r + k, 4);
      memcpy(&b, start + k, 4);
      same = a == b;
    }
    if (same) return e->s;
  }
  return cached_scalar_big_miss(c, e, si, peak, start, end);
}

/* The shared tuple scalars at the location, recomputed only when the coordinates changed
 * (shared_scalars: the test inlined, the computation apart). */
static OTV_NOINLINE const float *shared_scalars_fill(otv_gvar_loc *c)
{
  const otv_gvar *g = c->g;
  const otv_coords *at = c->x.at;
  size_t need = g->shared_tuple_count ? g->shared_tuple_count : 1;
  if (OTV_RESERVE(c->x.al, &c->shared_scalars, &c->shared_cap, need, sizeof(float))) return NULL;
  for (unsigned t = 0; t < g->shared_tuple_count; t++)
    /* in range: shared tuples span checked in otv_gvar_parse */
    c->shared_scalars[t] =
        peak_scalar(at->q, g->axis_count, g->shared_tuples + (size_t)t * g->axis_count * 2);
  c->serial = at->serial;
  return c->shared_scalars;
}
static inline const float *shared_scalars(otv_gvar_loc *c)
{
  if (c->serial == c->x.at->serial && c->shared_scalars) return c->shared_scalars;
  return shared_scalars_fill(c);
}

/* Packed point numbers at [*q, end) (tuple.h) into *buf (grown): the count, 0 with *all set
 * for every point, or -1 when they run past end (*st TRUNCATED) or memory runs out (*st
 * NOMEM). The common case first: a single 0 byte, every point. */
static inline long read_points(otv_gvar_loc *c, const uint8_t **q, const uint8_t *end,
                               uint16_t **buf, size_t *cap, bool *all, otv_status *st)
{
  if (*q < end && **q == 0) {
    ++*q;
    *all = true;
    return 0;
  }
  unsigned count;
  if (!otv_points_count(q, end, &count)) {
    *st = OTV_E_TRUNCATED;
    return -1;
  }
  *all = count == 0;
  if (count == 0) return 0;
  if (RESERVE_MIN(c->x.al, buf, cap, count, sizeof(uint16_t), SCRATCH_PTS)) {
    *st = OTV_E_NOMEM;
    return -1;
  }
  if (!otv_points_read(q, end, count, *buf)) {
    *st = OTV_E_TRUNCATED;
    return -1;
  }
  return (long)count;
}

/* The point numbers a tuple's deltas apply to: its private ones, read at the start of its
 * serialized data [*q, end) into pn_priv (*q moved past them), or the glyph's shared ones
 * (read before into pn_shared: shared_count, shared_all). Sets *pn and *all and returns the
 * count as read_points does. */
static inline long tuple_points(otv_gvar_loc *c, unsigned tidx, const uint8_t **q,
                                const uint8_t *end, long shared_count, bool shared_all,
                                const uint16_t **pn, bool *all, otv_status *st)
{
  if (!(tidx & OTV_TUPLE_PRIVATE_POINTS)) {
    *pn = c->pn_shared;
    *all = shared_all;
    return shared_count;
  }
  long count = read_points(c, q, end, &c->pn_priv, &c->pn_priv_cap, all, st);
  *pn = c->pn_priv;
  return count;
}

/* Decode `count` packed deltas (spec: "Packed deltas") from [*qp, end) into out[0..count) as
 * floats; a run may not cross count (as HarfBuzz: malformed). Returns false on truncation.
 *
 * fast: the 8 bytes after end are inside the gvar table (checked by the caller) and out has
 * DELTA_PAD spare floats after out[count - 1]. Then one check per run covers the control byte
 * and the run's bytes (a control byte read at end lies in the slack; the run then fails the
 * check), a run crossing count is written into the spare floats and reported after the loop,
 * and byte and word runs are converted 4 deltas at a time with SSE2 (baseline on x86-64): a
 * group may read up to 7 bytes past its run (inside the table) and write up to 3 floats past
 * it, which the next run or the spare floats absorb. Without fast, checked scalar loops.
 * lim (not NULL): the 8 bytes after end are NOT all inside the table, lim is 8 bytes before
 * its end: the control byte is checked against end, and a run reaching past lim is read with
 * exact-size scalar loads (the glyph whose data ends the table). */
#define DELTA_PAD 68 /* a 64-delta run starting at count - 1, plus a group of 4 */
static OTV_ALWAYS_INLINE bool decode_deltas(const uint8_t **qp, const uint8_t *end, unsigned count,
                                            float *out, bool fast, const uint8_t *lim)
{
  const uint8_t *q = *qp;
  unsigned i = 0;
#if OTV_SSE2
  if (fast) {
    while (i < count) {
      if (lim && q >= end) return false; /* guarded: no slack after end */
      unsigned ctl = *q++;               /* in range: q <= end here, and end has 8 bytes of slack */
      unsigned run = otv_delta_run_len(ctl);
      float *o = out + i; /* in range: i < count, run <= 64: within the DELTA_PAD floats */
      i += run;
      unsigned kind = ctl >> 6;
      if (lim && kind != OTV_DELTA_ZEROS &&
          lim - q < ((ptrdiff_t)run << otv_delta_kind_shift(kind))) {
        /* guarded, a run within 8 bytes of the table end: exact-size reads */
        size_t bytes = (size_t)run << otv_delta_kind_shift(kind);
        if ((size_t)(end - q) < bytes) return false;
        /* in range: bytes checked just above */
        for (unsigned k = 0; k < run; k++)
          o[k] = kind == OTV_DELTA_BYTES   ? (float)(int8_t)q[k]
                 : kind == OTV_DELTA_WORDS ? (float)otv_peek_i16(q + 2 * k)
                                           : (float)otv_peek_i32(q + 4 * k);
        q += bytes;
        continue;
      }
      /* tested by frequency (bytes, zeros, words, 32-bit), not a jump table */
      if (kind == OTV_DELTA_BYTES) {
        if (end - q < (ptrdiff_t)run) return false;
        for (unsigned k = 0; k < run; k += 8) { /* in range: see fast above */
          __m128i v = _mm_loadl_epi64((const __m128i *)(const void *)(q + k));
          v = _mm_unpacklo_epi8(v, v);
          _mm_storeu_ps(o + k, _mm_cvtepi32_ps(_mm_srai_epi32(_mm_unpacklo_epi16(v, v), 24)));
          _mm_storeu_ps(o + k + 4, _mm_cvtepi32_ps(_mm_srai_epi32(_mm_unpackhi_epi16(v, v), 24)));
        }
        q += run;
      } else if (kind == OTV_DELTA_ZEROS) { /* a control byte read at end fails here */
        if (q > end) return false;
        __m128 z = _mm_setzero_ps();
#  if defined(__GNUC__)
        /* hidden from the compiler, which would otherwise make the loop a memset or a
         * "rep stos" (tens of cycles to start, for runs of a few floats) */
        __asm__("" : "+x"(z));
#  endif
        for (unsigned k = 0; k < run; k += 4) _mm_storeu_ps(o + k, z);
      } else if (kind == OTV_DELTA_WORDS) {
        if (end - q < 2 * (ptrdiff_t)run) return false;
        for (unsigned k = 0; k < run; k += 4) {
          __m128i v = _mm_loadl_epi64((const __m128i *)(const void *)(q + 2 * k));
          v = _mm_or_si128(_mm_slli_epi16(v, 8), _mm_srli_epi16(v, 8)); /* big-endian */
          v = _mm_srai_epi32(_mm_unpacklo_epi16(v, v), 16);
          _mm_storeu_ps(o + k, _mm_cvtepi32_ps(v));
        }
        q += 2 * (size_t)run;
      } else { /* 32-bit deltas */
        if (end - q < 4 * (ptrdiff_t)run) return false;
        for (unsigned k = 0; k < run; k++) o[k] = (float)otv_peek_i32(q + 4 * k);
        q += 4 * (size_t)run;
      }
    }
    *qp = q;
    return i == count; /* a run past count is malformed */
  }
#else
  (void)fast, (void)lim, (void)i, (void)q;
#endif
  return otv_deltas_read_f32(qp, end, count, out); /* the portable path (tuple.c) */
}

/* The x then y deltas of count points (dx, dy: DELTA_PAD spare floats each), unguarded or
 * guarded (see decode_deltas). */
static bool decode_xy_deltas_fast(const uint8_t **qp, const uint8_t *end, unsigned count, float *dx,
                                  float *dy, bool fast)
{
  return decode_deltas(qp, end, count, dx, fast, NULL) &&
         decode_deltas(qp, end, count, dy, fast, NULL);
}
static bool decode_xy_deltas_guard(const uint8_t **qp, const uint8_t *end, unsigned count,
                                   float *dx, float *dy, const uint8_t *lim)
{
  return decode_deltas(qp, end, count, dx, true, lim) &&
         decode_deltas(qp, end, count, dy, true, lim);
}

#if OTV_SSE2
/* As the fast decode_deltas, but acc[i] += s * delta: zero runs cost nothing, and the lanes of
 * a group past its run are masked (they add +0). acc has DELTA_PAD spare floats. lim (a
 * compile-time NULL in decode_add_fast): the glyph's data ends less than 8 bytes before the
 * table's end; runs reaching past lim (8 bytes before the end) are read exactly. */
static const uint32_t lane_mask[5][4] = {
    {0, 0, 0, 0}, {~0u, 0, 0, 0}, {~0u, ~0u, 0, 0}, {~0u, ~0u, ~0u, 0}, {~0u, ~0u, ~0u, ~0u}};
static inline __m128i load4_i8(const uint8_t *q)
{
  uint32_t w;
  memcpy(&w, q, 4); /* in range: see decode_deltas */
  __m128i v = _mm_cvtsi32_si128((int)w);
  v = _mm_unpacklo_epi8(v, v);
  return _mm_srai_epi32(_mm_unpacklo_epi16(v, v), 24);
}
static inline __m128i load4_i16(const uint8_t *q)
{
  __m128i v = _mm_loadl_epi64((const __m128i *)(const void *)q); /* in range: as load4_i8 */
  v = _mm_or_si128(_mm_slli_epi16(v, 8), _mm_srli_epi16(v, 8));  /* big-endian */
  return _mm_srai_epi32(_mm_unpacklo_epi16(v, v), 16);
}
/* 8 deltas at q as two vectors of 4 int32: lo (the first 4), returned, and *hi. */
static inline __m128i load8_i8(const uint8_t *q, __m128i *hi)
{
  __m128i v = _mm_loadl_epi64((const __m128i *)(const void *)q); /* in range: as load4_i8 */
  v = _mm_unpacklo_epi8(v, v);
  *hi = _mm_srai_epi32(_mm_unpackhi_epi16(v, v), 24);
  return _mm_srai_epi32(_mm_unpacklo_epi16(v, v), 24);
}
static inline __m128i load8_i16(const uint8_t *q, __m128i *hi)
{
  __m128i v = _mm_loadu_si128((const __m128i *)(const void *)q); /* in range: as load4_i8 */
  v = _mm_or_si128(_mm_slli_epi16(v, 8), _mm_srli_epi16(v, 8));  /* big-endian */
  *hi = _mm_srai_epi32(_mm_unpackhi_epi16(v, v), 16);
  return _mm_srai_epi32(_mm_unpacklo_epi16(v, v), 16);
}
/* o[0, 8) += s x the 8 deltas lo, hi. */
static inline void add8(float *o, __m128i lo, __m128i hi, __m128 vs)
{
  _mm_storeu_ps(o, _mm_add_ps(_mm_loadu_ps(o), _mm_mul_ps(_mm_cvtepi32_ps(lo), vs)));
  _mm_storeu_ps(o + 4, _mm_add_ps(_mm_loadu_ps(o + 4), _mm_mul_ps(_mm_cvtepi32_ps(hi), vs)));
}
static OTV_ALWAYS_INLINE bool decode_add_impl(const uint8_t **qp, const uint8_t *end,
                                              unsigned count, float *acc, float s,
                                              const uint8_t *lim)
{
  const uint8_t *q = *qp;
  unsigned i = 0;
  __m128 vs = _mm_set1_ps(s);
  while (i < count) {
    if (lim && q >= end) return false; /* guarded: no slack after end */
    unsigned ctl = *q++;               /* in range: q <= end here, and end has 8 bytes of slack */
    unsigned run = otv_delta_run_len(ctl);
    float *o = acc + i; /* in range: i < count, run <= 64: within the DELTA_PAD floats */
    i += run;
    unsigned kind = ctl >> 6;
    if (lim && kind != OTV_DELTA_ZEROS &&
        lim - q < ((ptrdiff_t)run << otv_delta_kind_shift(kind))) {
      size_t bytes = (size_t)run << otv_delta_kind_shift(kind);
      if ((size_t)(end - q) < bytes) return false;
      /* in range: bytes checked just above */
      for (unsigned k = 0; k < run; k++)
        o[k] += s * (kind == OTV_DELTA_BYTES   ? (float)(int8_t)q[k]
                     : kind == OTV_DELTA_WORDS ? (float)otv_peek_i16(q + 2 * k)
                                               : (float)otv_peek_i32(q + 4 * k));
      q += bytes;
      continue;
    }
    unsigned k = 0;
    /* tested by frequency (bytes, zeros, words, 32-bit), not a jump table */
    if (kind == OTV_DELTA_BYTES) {
      if (end - q < (ptrdiff_t)run) return false;
      for (; k + 8 <= run; k += 8) {
        __m128i hi, lo = load8_i8(q + k, &hi);
        add8(o + k, lo, hi, vs);
      }
      if (k + 4 <= run) {
        _mm_storeu_ps(o + k, _mm_add_ps(_mm_loadu_ps(o + k),
                                        _mm_mul_ps(_mm_cvtepi32_ps(load4_i8(q + k)), vs)));
        k += 4;
      }
      if (k < run) {
        __m128 d = _mm_and_ps(_mm_mul_ps(_mm_cvtepi32_ps(load4_i8(q + k)), vs),
                              _mm_loadu_ps((const float *)(const void *)lane_mask[run - k]));
        _mm_storeu_ps(o + k, _mm_add_ps(_mm_loadu_ps(o + k), d));
      }
      q += run;
    } else if (kind == OTV_DELTA_ZEROS) { /* nothing to add; a control byte read at end */
      if (q > end) return false;
    } else if (kind == OTV_DELTA_WORDS) {
      if (end - q < 2 * (ptrdiff_t)run) return false;
      for (; k + 8 <= run; k += 8) {
        __m128i hi, lo = load8_i16(q + 2 * k, &hi);
        add8(o + k, lo, hi, vs);
      }
      if (k + 4 <= run) {
        _mm_storeu_ps(o + k, _mm_add_ps(_mm_loadu_ps(o + k),
                                        _mm_mul_ps(_mm_cvtepi32_ps(load4_i16(q + 2 * k)), vs)));
        k += 4;
      }
      if (k < run) {
        __m128 d = _mm_and_ps(_mm_mul_ps(_mm_cvtepi32_ps(load4_i16(q + 2 * k)), vs),
                              _mm_loadu_ps((const float *)(const void *)lane_mask[run - k]));
        _mm_storeu_ps(o + k, _mm_add_ps(_mm_loadu_ps(o + k), d));
      }
      q += 2 * (size_t)run;
    } else { /* 32-bit deltas */
      if (end - q < 4 * (ptrdiff_t)run) return false;
      for (; k < run; k++) o[k] += s * (float)otv_peek_i32(q + 4 * k);
      q += 4 * (size_t)run;
    }
  }
  *qp = q;
  return i == count; /* a run past count is malformed */
}
static bool decode_add_fast(const uint8_t **qp, const uint8_t *end, unsigned count, float *acc,
                            float s)
{
  return decode_add_impl(qp, end, count, acc, s, NULL);
}
static bool decode_add_guard(const uint8_t **qp, const uint8_t *end, unsigned count, float *acc,
                             float s, const uint8_t *lim)
{
  return decode_add_impl(qp, end, count, acc, s, lim);
}
#endif

/* pts[p] += s * (dx[p], dy[p]) for p < n. */
static inline void add_scaled(otv_point *pts, const float *dx, const float *dy, unsigned n, float s)
{
  unsigned p = 0;
#if OTV_SSE2
  __m128 vs = _mm_set1_ps(s);
  float *o = &pts[0].x;
#  define ADD4(p)                                                                                  \
    do {                                                                                           \
      __m128 x = _mm_mul_ps(vs, _mm_loadu_ps(dx + (p))),                                           \
             y = _mm_mul_ps(vs, _mm_loadu_ps(dy + (p)));                                           \
      _mm_storeu_ps(o + 2 * (p), _mm_add_ps(_mm_loadu_ps(o + 2 * (p)), _mm_unpacklo_ps(x, y)));    \
      _mm_storeu_ps(o + 2 * (p) + 4,                                                               \
                    _mm_add_ps(_mm_loadu_ps(o + 2 * (p) + 4), _mm_unpackhi_ps(x, y)));             \
    } while (0)
  for (; p + 8 <= n; p += 8) { /* 8 points per iteration: half the loop overhead */
    ADD4(p);
    ADD4(p + 4);
  }
  if (p + 4 <= n) {
    ADD4(p);
    p += 4;
  }
#  undef ADD4
#endif
  for (; p < n; p++) {
    pts[p].x += s * dx[p];
    pts[p].y += s * dy[p];
  }
}

/* One coordinate of the points strictly between two touched points r1 and r2 of a contour
 * (spec: "Inferred deltas for un-referenced point numbers"): c1/c2 their default coordinates,
 * d1/d2 their deltas. Interpolated between them, else the delta of the nearer side; coincident
 * reference coordinates: their delta when equal, else 0. */
typedef struct iup_seg {
  float c1, c2, d1, d2, scale;
  int mode; /* 0: interpolate, 1: constant d1 */
} iup_seg;

static inline iup_seg iup_prep(float c1, float c2, float d1, float d2)
{
  iup_seg g;
  if (c1 > c2) {
    float t = c1;
    c1 = c2;
    c2 = t;
    t = d1;
    d1 = d2;
    d2 = t;
  }
  g.c1 = c1;
  g.c2 = c2;
  g.d1 = d1;
  g.d2 = d2;
  g.scale = 0.0f;
  g.mode = c1 == c2;
  if (g.mode)
    g.d1 = d1 == d2 ? d1 : 0.0f;
  else
    g.scale = (d2 - d1) / (c2 - c1);
  return g;
}

static inline float iup_at(const iup_seg *g, float c)
{
  if (g->mode) return g->d1;
  return c <= g->c1 ? g->d1 : c >= g->c2 ? g->d2 : g->d1 + (c - g->c1) * g->scale;
}

/* Points a..b (inclusive, a <= b) between the touched points r1 and r2, both coordinates. */
static inline void iup_run(const otv_point *orig, otv_point *td, unsigned a, unsigned b,
                           const iup_seg *gx, const iup_seg *gy)
{
  for (unsigned p = a; p <= b; p++) {
    td[p].x = iup_at(gx, orig[p].x);
    td[p].y = iup_at(gy, orig[p].y);
  }
}

/* IUP over all contours of a simple glyph for the current tuple (td/touched); ends minus
 * ends_base index td. refs: scratch for the touched point indices of one contour (n entries). */
static void iup(const otv_point *orig, otv_point *td, const uint8_t *touched, const uint16_t *ends,
                unsigned end_count, unsigned ends_base, uint16_t *refs)
{
  unsigned first = 0;
  for (unsigned c = 0; c < end_count; c++) {
    unsigned last = ends[c] - ends_base;
    if (last < first) break; /* checked increasing by the caller; defensive */
    unsigned nref = 0;
    for (unsigned p = first; p <= last; p++) {
      refs[nref] = (uint16_t)p;
      nref += touched[p];
    }
    if (nref == 0) {
      for (unsigned p = first; p <= last; p++) td[p].x = td[p].y = 0.0f;
    } else if (nref == 1) {
      /* spec: one touched point: every point of the contour moves by its delta */
      otv_point v = td[refs[0]];
      for (unsigned p = first; p <= last; p++) td[p] = v;
    } else if (nref <= last - first) {
      /* from each touched point to the next, cyclically */
      for (unsigned k = 0; k < nref; k++) {
        unsigned r1 = refs[k], r2 = refs[k + 1 < nref ? k + 1 : 0];
        if (r2 == r1 + 1 || (r2 == first && r1 == last)) continue; /* nothing between */
        iup_seg gx = iup_prep(orig[r1].x, orig[r2].x, td[r1].x, td[r2].x);
        iup_seg gy = iup_prep(orig[r1].y, orig[r2].y, td[r1].y, td[r2].y);
        if (r2 > r1) {
          iup_run(orig, td, r1 + 1, r2 - 1, &gx, &gy);
        } else { /* wraps around the contour's end */
          if (r1 < last) iup_run(orig, td, r1 + 1, last, &gx, &gy);
          if (r2 > first) iup_run(orig, td, first, r2 - 1, &gx, &gy);
        }
      }
    }
    first = last + 1;
  }
}

/* Grow the per-point delta scratch (acc, td, touched) to n entries (first SCRATCH_PTS). */
static bool grow_points(otv_gvar_loc *c, unsigned n)
{
  const otv_alloc *al = c->x.al;
  return !RESERVE_MIN(al, &c->acc, &c->acc_cap, n, sizeof(otv_point), SCRATCH_PTS) &&
         !RESERVE_MIN(al, &c->td, &c->td_cap, n, sizeof(otv_point), SCRATCH_PTS) &&
         !RESERVE_MIN(al, &c->touched, &c->touched_cap, n, 1, SCRATCH_PTS) &&
         !RESERVE_MIN(al, &c->refs, &c->refs_cap, n, sizeof(uint16_t), SCRATCH_PTS);
}

typedef struct otv_gvar_act act_t;

/* The record of a tuple that applies at the location (scalar s), for the fast lane and the
 * checked cursor alike. */
static inline act_t applying(const otv_tuple *t, float s)
{
  act_t a = {.off = t->data_at, .len = t->size, .s = s, .tidx = t->tidx, .t = t->index};
  return a;
}

int otv_gvar_glyph_data(const otv_gvar *g, uint32_t gid, otv_span *data, size_t *base)
{
  if (!g->present || gid >= g->glyph_count) return 0;
  size_t o0, o1;
  /* in range: the offsets array (glyph_count + 1 entries) is checked in otv_gvar_parse */
  if (g->long_offsets) {
    o0 = otv_peek_u32(g->offsets + 4 * (size_t)gid);
    o1 = otv_peek_u32(g->offsets + 4 * (size_t)gid + 4);
  } else {
    o0 = 2 * (size_t)otv_peek_u16(g->offsets + 2 * (size_t)gid);
    o1 = 2 * (size_t)otv_peek_u16(g->offsets + 2 * (size_t)gid + 2);
  }
  if (o1 == o0) return 0; /* no variation data */
  if (o1 < o0 || !otv_span_sub(g->tab, g->data_off + o0, o1 - o0, data)) {
    *base = 20 + (size_t)gid * (g->long_offsets ? 4 : 2);
    return -1;
  }
  *base = g->data_off + o0;
  return 1;
}

/* The scalar of a tuple at the location: shared peaks without an intermediate region from the
 * shared scalars, shared peaks with one through the small region cache, the rest computed. */
static OTV_ALWAYS_INLINE float tuple_at(otv_gvar_loc *c, unsigned tidx, const uint8_t *peak,
                                        const uint8_t *start, const uint8_t *end,
                                        const float *shared)
{
  if (!(tidx & (OTV_TUPLE_EMBEDDED_PEAK | OTV_TUPLE_INTERMEDIATE)))
    return shared[tidx & OTV_TUPLE_INDEX_MASK]; /* in range: checked by tuple.h */
  if ((tidx & (OTV_TUPLE_EMBEDDED_PEAK | OTV_TUPLE_INTERMEDIATE)) == OTV_TUPLE_INTERMEDIATE)
    return end - start <= 4 /* 2 bytes per axis: 1 or 2 axes */
               ? cached_scalar_small(c, tidx & OTV_TUPLE_INDEX_MASK, peak, start, end)
               : cached_scalar_big(c, tidx & OTV_TUPLE_INDEX_MASK, peak, start, end);
  return tuple_scalar(c->x.at->q, c->g->axis_count, peak, start, end);
}

/* Pass 1's tuple headers through tuple.h's fast lane (tv just opened, its shared points
 * read): the tuples that apply into act; their count n and their tuple indices or-ed, or n -1
 * on an anomaly or when the lane's end check fails (the caller then goes over them with the
 * checked cursor, which reports it). Returned by value: two registers. */
typedef struct lane_found {
  long n;
  unsigned any_tidx;
} lane_found;
static OTV_ALWAYS_INLINE lane_found lane_scan(otv_gvar_loc *c, const otv_tvs *tv,
                                              const float *shared, act_t *restrict act)
{
  lane_found bad = {-1, 0};
  otv_tvs_lane l;
  if (!otv_tvs_lane_begin(tv, &l)) return bad;
  unsigned n_act = 0, any = 0, count = tv->count;
  for (unsigned i = 0; i < count; i++) {
    otv_tuple u;
    if (!otv_tvs_lane_next(tv, &l, i, &u)) return bad;
    float s = tuple_at(c, u.tidx, u.peak, u.start, u.end, shared);
    if (s == 0.0f) continue;
    any |= u.tidx;
    act[n_act++] = applying(&u, s);
  }
  if (!otv_tvs_lane_end(tv, &l)) return bad;
  lane_found f = {(long)n_act, any};
  return f;
}

/* The same, not inlined, for glyphs of many tuples (many-axis fonts). Inlined in pass 1, GCC
 * keeps the loop counter, the data offset and the and-ed indices on the stack (3 instructions
 * more a tuple); apart, with few values live, in registers. The store's fields come by value
 * (its address taken, pass 1 would keep the whole store in memory for every glyph), and for
 * a few tuples inlined is cheaper than the call. */
#define LANE_APART_MIN 24u
static OTV_NOINLINE lane_found lane_scan_apart(otv_gvar_loc *c, otv_span data, size_t hdr_pos,
                                               size_t data_pos, unsigned count, bool shared_points,
                                               const float *shared, act_t *restrict act)
{
  const otv_gvar *g = c->g;
  otv_tvs tv = {.data = data,
                .axis_count = g->axis_count,
                .shared_tuples = g->shared_tuples,
                .shared_tuple_count = g->shared_tuples ? g->shared_tuple_count : 0,
                .count = count,
                .shared_points = shared_points,
                .hdr_pos = hdr_pos,
                .data_pos = data_pos};
  return lane_scan(c, &tv, shared, act);
}

/* Pass 1 of glyph gid's deltas for n points (otv_gvar_apply, otv_gvar_begin): the tuples
 * that apply into c->act, and what pass 2 needs into *pre (mode OTV_GVAR_NONE: none applies). */
static OTV_ALWAYS_INLINE otv_status pass1(otv_gvar_loc *c, uint32_t gid, unsigned n,
                                          otv_gvar_pre *pre)
{
  const otv_gvar *g = c->g;
  pre->mode = OTV_GVAR_NONE;
  if (!g->present || c->x.at->is_default || gid >= g->glyph_count) return OTV_E_OK;
  otv_error *err = c->x.err;
  otv_span data;
  size_t base;
  int k = otv_gvar_glyph_data(g, gid, &data, &base);
  if (k == 0) return OTV_E_OK;
  if (k < 0)
    return OTV_FAIL(err, BAD_OFFSET, T_GVAR, base,
                    "glyph %u: variation data offsets out of order or past the table end", gid);
  otv_tvs tv;
  otv_status st = otv_tvs_open(&tv, data, 0, g->axis_count, g->shared_tuples, g->shared_tuple_count,
                               err, T_GVAR, base, gid);
  if (st) return st;
  unsigned tuple_count = tv.count;
  if (tuple_count == 0) return OTV_E_OK;

  const float *shared = shared_scalars(c);
  if (!shared || RESERVE_MIN(c->x.al, &c->act, &c->act_cap, tuple_count, sizeof(act_t), 32))
    return OTV_FAIL(err, NOMEM, T_GVAR, 0, "glyph %u: delta scratch", gid);

  long shared_count = 0;
  bool shared_all = false;
  const uint8_t *dp = data.p, *dend = data.p + data.len;
  if (tv.shared_points) {
    const uint8_t *q = dp + tv.data_pos;
    shared_count = read_points(c, &q, dend, &c->pn_shared, &c->pn_shared_cap, &shared_all, &st);
    if (shared_count < 0)
      return st == OTV_E_NOMEM ? OTV_FAIL(err, NOMEM, T_GVAR, 0, "point numbers")
                               : otv_tvs_fail(&tv, st, tv.data_pos, "shared point numbers");
    tv.data_pos = (size_t)(q - dp);
  }

  /* Pass 1: the tuple headers, their scalars, and the data of the tuples that apply (scalar
   * not 0). Through tuple.h's fast lane first (the tuples' data checked once after the loop,
   * the sparse test reading it then); on an anomaly over again with the checked cursor, which
   * reports it. */
  act_t *restrict act = c->act;
  unsigned n_act = 0;
  bool sparse = false; /* a tuple that applies lists only some points */
  otv_tuple t;
  lane_found f = tuple_count >= LANE_APART_MIN
                     ? lane_scan_apart(c, tv.data, tv.hdr_pos, tv.data_pos, tuple_count,
                                       tv.shared_points, shared, act)
                     : lane_scan(c, &tv, shared, act);
  if (f.n >= 0) {
    unsigned any_tidx = f.any_tidx; /* the tuple indices of the applying tuples, or-ed */
    n_act = (unsigned)f.n;
    /* only tuples with private point numbers, or shared ones not "all points", are sparse */
    if ((any_tidx & OTV_TUPLE_PRIVATE_POINTS) || !shared_all)
      for (unsigned a = 0; a < n_act; a++)
        /* private point numbers that are not the single byte 0 (every point) are sparse */
        if (act[a].tidx & OTV_TUPLE_PRIVATE_POINTS ? act[a].len == 0 || dp[act[a].off] != 0
                                                   : !shared_all)
          sparse = true;
    goto applied;
  }
  n_act = 0;
  while ((k = otv_tvs_next(&tv, &t)) > 0) {
    float s = tuple_at(c, t.tidx, t.peak, t.start, t.end, shared);
    if (s == 0.0f) continue;
    /* private point numbers that are not the single byte 0 (every point) are sparse */
    if (t.tidx & OTV_TUPLE_PRIVATE_POINTS ? t.size == 0 || t.p[0] != 0 : !shared_all) sparse = true;
    act[n_act++] = applying(&t, s);
  }
  if (k < 0) return tv.status;
applied:
  /* the work (core/budget.h): the bytes read and the points x tuples applied */
  if (!otv_budget_charge(c->x.work, data.len + (uint64_t)n * n_act))
    return OTV_FAIL(err, LIMIT, T_GVAR, base, "glyph %u: work budget of %llu units spent", gid,
                    (unsigned long long)c->x.work->limit);
  if (n_act == 0) return OTV_E_OK;
  pre->data = data;
  pre->base = base;
  pre->shared_count = shared_count;
  pre->shared_all = shared_all;
  pre->sparse = sparse;
  pre->n_act = n_act;
  pre->mode = OTV_GVAR_LATER;
  return OTV_E_OK;
}

/* Pass 2 (after pass1 found tuples that apply): their deltas added to pts[0, n). */
static OTV_ALWAYS_INLINE otv_status pass2(otv_gvar_loc *c, uint32_t gid, const otv_gvar_pre *pre,
                                          otv_point *pts, unsigned n, const uint16_t *ends,
                                          unsigned end_count, unsigned ends_base, bool phantoms)
{
  const otv_gvar *g = c->g;
  otv_error *err = c->x.err;
  otv_status st = OTV_E_OK;
  otv_span data = pre->data;
  size_t base = pre->base;
  long shared_count = pre->shared_count;
  bool shared_all = pre->shared_all, sparse = pre->sparse;
  unsigned n_act = pre->n_act;
  const act_t *act = c->act;
  const uint8_t *dp = data.p;

  /* Pass 2: the deltas. The fast decoder may read 8 bytes past a tuple's data: fine when they
   * are inside the table (all glyphs but one whose data ends the table). That one is decoded
   * guarded (lim: its runs within 8 bytes of the table's end are read exactly). The gvar
   * table holds at least its 20-byte header, so lim stays inside it. */
#if OTV_SSE2
  const bool fast = true;
#else
  const bool fast = false;
#endif
  const uint8_t *lim = otv_span_has(g->tab, base + data.len, 8) ? NULL : g->tab.p + g->tab.len - 8;
  if (!sparse && n_act <= 2) {
    /* the common case, apart: one or two tuples, each listing every point (shared numbers, or
     * private ones that are the single byte 0): x and y deltas into dl, added to the points */
    if (RESERVE_MIN(c->x.al, &c->dl, &c->dl_cap, (size_t)n + DELTA_PAD / 2, sizeof(otv_point),
                    SCRATCH_PTS))
      return OTV_FAIL(err, NOMEM, T_GVAR, 0, "delta list");
    float *dx = &c->dl[0].x, *dy = dx + n;
    /* drawing to a pen (phantoms false) the phantom points are not used: the outline
     * points rounded up to a multiple of 4 (at most 3 phantoms, which get their deltas; dx/dy
     * hold n deltas) take the 4-wide loop without a scalar tail */
    unsigned n_add = phantoms ? n : (n - 1) & ~3u;
    for (unsigned a = 0; a < n_act; a++) {
      const act_t *ta = &act[a];
      const uint8_t *tp = dp + ta->off, *tend = tp + ta->len; /* in range: checked in pass 1 */
      /* in range: not sparse, so private point numbers are one 0 byte (checked in pass 1) */
      const uint8_t *q = tp + (ta->tidx & OTV_TUPLE_PRIVATE_POINTS ? 1 : 0);
      if (lim ? !decode_xy_deltas_guard(&q, tend, n, dx, dy, lim)
              : !decode_xy_deltas_fast(&q, tend, n, dx, dy, fast))
        return OTV_FAIL(err, TRUNCATED, T_GVAR, base + (size_t)(q - dp),
                        "glyph %u: tuple %u deltas for %u points", gid, ta->t, n);
      add_scaled(pts, dx, dy, n_add, ta->s);
    }
    return OTV_E_OK;
  }
  /* IUP needs the default coordinates of a simple glyph: kept in c->acc when a sparse tuple
   * applies (deltas go straight into pts). */
  const otv_point *orig = pts;
  if (end_count && sparse) { /* the IUP scratch (acc, td, touched, refs) */
    if (!grow_points(c, n)) return OTV_FAIL(err, NOMEM, T_GVAR, 0, "glyph %u: delta scratch", gid);
    memcpy(c->acc, pts, n * sizeof *pts);
    orig = c->acc;
  }
  otv_point *td = c->td;
  uint8_t *touched = c->touched;
  /* With 3 or more tuples (fast decoder; for the glyph decoded guarded only without IUP:
   * Handjet's one big sparse glyph ends its table and adds faster straight into pts): the
   * points in planar form, x in dacc[0, n) and y in dacc[n, 2n) (DELTA_PAD spare), every
   * tuple adding scale x delta there in the same order as into pts (the sums are identical,
   * HarfBuzz's order), then written back once. Zero runs then cost nothing. */
  float *dacc = NULL;
#if OTV_SSE2
  if (fast && n_act > 2 && (!lim || !sparse)) {
    if (RESERVE_MIN(c->x.al, &c->dacc, &c->dacc_cap, 2 * (size_t)n + DELTA_PAD, sizeof(float),
                    2 * SCRATCH_PTS))
      return OTV_FAIL(err, NOMEM, T_GVAR, 0, "glyph %u: delta scratch", gid);
    dacc = c->dacc;
    unsigned p = 0;
    for (const float *o = &pts[0].x; p + 4 <= n; p += 4) {
      __m128 a = _mm_loadu_ps(o + 2 * p), b = _mm_loadu_ps(o + 2 * p + 4);
      _mm_storeu_ps(dacc + p, _mm_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0)));
      _mm_storeu_ps(dacc + n + p, _mm_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1)));
    }
    for (; p < n; p++) {
      dacc[p] = pts[p].x;
      dacc[n + p] = pts[p].y;
    }
  }
#endif
  for (unsigned a = 0; a < n_act; a++) {
    const act_t *ta = &act[a];
    const uint8_t *tp = dp + ta->off, *tend = tp + ta->len; /* in range: checked in pass 1 */
    const uint8_t *q = tp;
    const uint16_t *pn;
    long count;
    bool all;
    float s = ta->s;
    count = tuple_points(c, ta->tidx, &q, tend, shared_count, shared_all, &pn, &all, &st);
    if (count < 0)
      return st == OTV_E_NOMEM ? OTV_FAIL(err, NOMEM, T_GVAR, 0, "point numbers")
                               : OTV_FAIL(err, TRUNCATED, T_GVAR, base + (size_t)(q - dp),
                                          "glyph %u: tuple %u point numbers", gid, ta->t);
    unsigned m = all ? n : (unsigned)count;
#if OTV_SSE2
    if (all && dacc) {
      if (lim ? !decode_add_guard(&q, tend, n, dacc, s, lim) ||
                    !decode_add_guard(&q, tend, n, dacc + n, s, lim)
              : !decode_add_fast(&q, tend, n, dacc, s) ||
                    !decode_add_fast(&q, tend, n, dacc + n, s))
        return OTV_FAIL(err, TRUNCATED, T_GVAR, base + (size_t)(q - dp),
                        "glyph %u: tuple %u deltas for %u points", gid, ta->t, n);
      continue;
    }
#endif
    /* x deltas at dl[0..m), y deltas at dl[m..2m), DELTA_PAD spare floats (fast decoder) */
    if (RESERVE_MIN(c->x.al, &c->dl, &c->dl_cap, (size_t)m + DELTA_PAD / 2, sizeof(otv_point),
                    SCRATCH_PTS))
      return OTV_FAIL(err, NOMEM, T_GVAR, 0, "delta list");
    float *dx = &c->dl[0].x, *dy = dx + m;
    if (lim ? !decode_xy_deltas_guard(&q, tend, m, dx, dy, lim)
            : !decode_xy_deltas_fast(&q, tend, m, dx, dy, fast))
      return OTV_FAIL(err, TRUNCATED, T_GVAR, base + (size_t)(q - dp),
                      "glyph %u: tuple %u deltas for %u points", gid, ta->t, m);
    if (all) {
      /* drawing to a pen (phantoms false) the phantom points are not used: the outline
       * points rounded up to a multiple of 4 (at most 3 phantoms, which get their deltas;
       * dx/dy hold n deltas) take the 4-wide loop without a scalar tail */
      add_scaled(pts, dx, dy, phantoms ? n : (n - 1) & ~3u, s);
      continue;
    }
    /* sparse: the deltas of the listed points, in list order */
    if (end_count == 0) {
      /* composite (or no contours): no inference, untouched points do not move */
      for (unsigned i = 0; i < m; i++) {
        unsigned p = pn[i];
        if (p >= n) continue;
        if (dacc) {
          dacc[p] += s * dx[i];
          dacc[n + p] += s * dy[i];
        } else {
          pts[p].x += s * dx[i];
          pts[p].y += s * dy[i];
        }
      }
      continue;
    }
    memset(td, 0, n * sizeof *td);
    memset(touched, 0, n);
    for (unsigned i = 0; i < m; i++) {
      unsigned p = pn[i];
      if (p < n) {
        td[p].x += dx[i];
        td[p].y += dy[i];
        touched[p] = 1;
      }
    }
    iup(orig, td, touched, ends, end_count, ends_base, c->refs);
    if (dacc) {
      for (unsigned p = 0; p < n; p++) {
        dacc[p] += s * td[p].x;
        dacc[n + p] += s * td[p].y;
      }
    } else {
      for (unsigned p = 0; p < n; p++) {
        pts[p].x += s * td[p].x;
        pts[p].y += s * td[p].y;
      }
    }
  }
#if OTV_SSE2
  if (dacc) {
    unsigned p = 0;
    for (float *o = &pts[0].x; p + 4 <= n; p += 4) {
      __m128 x = _mm_loadu_ps(dacc + p), y = _mm_loadu_ps(dacc + n + p);
      _mm_storeu_ps(o + 2 * p, _mm_unpacklo_ps(x, y));
      _mm_storeu_ps(o + 2 * p + 4, _mm_unpackhi_ps(x, y));
    }
    for (; p < n; p++) {
      pts[p].x = dacc[p];
      pts[p].y = dacc[n + p];
    }
  }
#endif
  return OTV_E_OK;
}

otv_status otv_gvar_apply(otv_gvar_loc *c, uint32_t gid, otv_point *pts, unsigned n,
                          const uint16_t *ends, unsigned end_count, unsigned ends_base,
                          bool phantoms)
{
  otv_gvar_pre pre;
  otv_status st = pass1(c, gid, n, &pre);
  if (st || pre.mode == OTV_GVAR_NONE) return st;
  return pass2(c, gid, &pre, pts, n, ends, end_count, ends_base, phantoms);
}

otv_status otv_gvar_begin(otv_gvar_loc *c, uint32_t gid, unsigned n, otv_gvar_pre *pre)
{
  otv_status st = pass1(c, gid, n, pre);
  if (st || pre->mode == OTV_GVAR_NONE) return st;
#if OTV_SSE2
  const otv_gvar *g = c->g;
  unsigned n_act = pre->n_act;
  /* planar: every tuple lists every point, at most OTV_GVAR_PLANAR_MAX of them (with more,
   * the dacc path that skips zero runs costs less: many-axis fonts), and the data not decoded
   * guarded (8 bytes of slack after it inside the table) */
  if (pre->sparse || n_act > OTV_GVAR_PLANAR_MAX ||
      !otv_span_has(g->tab, pre->base + pre->data.len, 8))
    return OTV_E_OK;
  unsigned stride = (n + DELTA_PAD + 3u) & ~3u;
  if (RESERVE_MIN(c->x.al, &c->dz, &c->dz_cap, 2 * (size_t)n_act * stride, sizeof(float),
                  4 * (size_t)(SCRATCH_PTS + DELTA_PAD)))
    return OTV_FAIL(c->x.err, NOMEM, T_GVAR, 0, "glyph %u: delta scratch", gid);
  const uint8_t *dp = pre->data.p;
  for (unsigned a = 0; a < n_act; a++) {
    const act_t *ta = &c->act[a];
    const uint8_t *tp = dp + ta->off, *tend = tp + ta->len; /* in range: checked in pass 1 */
    /* in range: not sparse, so private point numbers are one 0 byte (checked in pass 1) */
    const uint8_t *q = tp + (ta->tidx & OTV_TUPLE_PRIVATE_POINTS ? 1 : 0);
    float *dx = c->dz + 2 * (size_t)a * stride;
    if (!decode_xy_deltas_fast(&q, tend, n, dx, dx + stride, true))
      return OTV_FAIL(c->x.err, TRUNCATED, T_GVAR, pre->base + (size_t)(q - dp),
                      "glyph %u: tuple %u deltas for %u points", gid, ta->t, n);
    pre->s[a] = ta->s;
  }
  pre->dz = c->dz;
  pre->stride = stride;
  pre->mode = OTV_GVAR_PLANAR;
#endif
  return OTV_E_OK;
}

otv_status otv_gvar_finish(otv_gvar_loc *c, uint32_t gid, const otv_gvar_pre *pre, otv_point *pts,
                           unsigned n, const uint16_t *ends, unsigned end_count, unsigned ends_base,
                           bool phantoms)
{
  return pass2(c, gid, pre, pts, n, ends, end_count, ends_base, phantoms);
}

/* ---- glyph cache support (glyf.c "Glyph cache") ---- */

long otv_gvar_tuple_count(const otv_gvar *g, uint32_t gid)
{
  otv_span data;
  size_t base;
  int k = otv_gvar_glyph_data(g, gid, &data, &base);
  if (k <= 0) return k;
  if (data.len < 4) return -1;
  return (long)(otv_peek_u16(data.p) & OTV_TVS_COUNT_MASK); /* in range: 4 bytes checked */
}

bool otv_gvar_decode_all(otv_gvar_loc *c, uint32_t gid, const otv_point *orig, unsigned np,
                         const uint16_t *ends, unsigned end_count, otv_gvar_tup *tup, unsigned m,
                         otv_point *d, unsigned stride)
{
  const otv_gvar *g = c->g;
  otv_span data;
  size_t base = 0;
  memset(d, 0, (size_t)m * stride * sizeof *d);
  int k = otv_gvar_glyph_data(g, gid, &data, &base);
  if (k <= 0) return k == 0 && m == 0;
  /* errors are not reported here (the glyph is then drawn the usual way, which reports them) */
  otv_tvs tv;
  if (otv_tvs_open(&tv, data, 0, g->axis_count, g->shared_tuples, g->shared_tuple_count, NULL,
                   T_GVAR, base, gid) ||
      tv.count != m)
    return false;
  if (m == 0) return true;
  unsigned n = np + 4; /* the deltas cover the 4 phantom points too */
  /* the work (core/budget.h); past the budget the glyph is drawn the usual way, which says so */
  if (!otv_budget_charge(c->x.work, data.len + (uint64_t)n * m)) return false;
  otv_status st = OTV_E_OK;
  long shared_count = 0;
  bool shared_all = false;
  const uint8_t *dp = data.p, *dend = data.p + data.len;
  if (tv.shared_points) {
    const uint8_t *q = dp + tv.data_pos;
    shared_count = read_points(c, &q, dend, &c->pn_shared, &c->pn_shared_cap, &shared_all, &st);
    if (shared_count < 0) return false;
    tv.data_pos = (size_t)(q - dp);
  }
  if (!grow_points(c, n) || RESERVE_MIN(c->x.al, &c->dl, &c->dl_cap, (size_t)n + DELTA_PAD / 2,
                                        sizeof(otv_point), SCRATCH_PTS))
    return false;
#if OTV_SSE2
  const bool fast = true;
#else
  const bool fast = false;
#endif
  const uint8_t *lim = otv_span_has(g->tab, base + data.len, 8) ? NULL : g->tab.p + g->tab.len - 8;
  otv_tuple t;
  while ((k = otv_tvs_next(&tv, &t)) > 0) {
    tup[t.index].peak = t.peak;
    tup[t.index].start = t.start;
    tup[t.index].end = t.end;
    tup[t.index].tidx = t.tidx;
    tup[t.index].pad_ = 0;
    /* the deltas, decoded as otv_gvar_apply decodes them */
    const uint8_t *q = t.p;
    const uint16_t *pn;
    bool all;
    long count = tuple_points(c, t.tidx, &q, t.pend, shared_count, shared_all, &pn, &all, &st);
    if (count < 0) return false;
    unsigned cnt = all ? n : (unsigned)count;
    if (OTV_RESERVE(c->x.al, &c->dl, &c->dl_cap, (size_t)cnt + DELTA_PAD / 2, sizeof(otv_point)))
      return false;
    float *dx = &c->dl[0].x, *dy = dx + cnt;
    if (lim ? !decode_xy_deltas_guard(&q, t.pend, cnt, dx, dy, lim)
            : !decode_xy_deltas_fast(&q, t.pend, cnt, dx, dy, fast))
      return false;
    otv_point *o = d + (size_t)t.index * stride;
    if (all) {
      for (unsigned i = 0; i < np; i++) {
        o[i].x = dx[i];
        o[i].y = dy[i];
      }
      continue;
    }
    otv_point *td = c->td;
    memset(td, 0, n * sizeof *td);
    memset(c->touched, 0, n);
    for (unsigned i = 0; i < cnt; i++) {
      unsigned pt = pn[i];
      if (pt < n) {
        td[pt].x += dx[i];
        td[pt].y += dy[i];
        c->touched[pt] = 1;
      }
    }
    if (end_count) iup(orig, td, c->touched, ends, end_count, 0, c->refs);
    memcpy(o, td, np * sizeof *o);
  }
  return k == 0;
}

bool otv_gvar_apply_cached(otv_gvar_loc *c, const otv_gvar_tup *tup, unsigned m,
                           const otv_point *p0, const otv_point *d, unsigned stride, otv_point *out)
{
  const float *src = &p0[0].x;
  float *o = &out[0].x;
  const unsigned nf = 2 * stride; /* floats, a multiple of 4 */
  bool first = true;
  if (m && !c->x.at->is_default) {
    const float *shared = shared_scalars(c);
    if (!shared) return false;
    for (unsigned t = 0; t < m; t++) {
      /* the scalar as otv_gvar_apply computes it */
      float s = tuple_at(c, tup[t].tidx, tup[t].peak, tup[t].start, tup[t].end, shared);
      if (s == 0.0f) continue;
      const float *dt = &d[(size_t)t * stride].x;
      const float *a = first ? src : o; /* points + s x deltas, as pts[p] += s * d[p] */
      unsigned i = 0;
#if OTV_SSE2
      __m128 vs = _mm_set1_ps(s);
      for (; i + 8 <= nf; i += 8) {
        _mm_storeu_ps(o + i, _mm_add_ps(_mm_loadu_ps(a + i), _mm_mul_ps(vs, _mm_loadu_ps(dt + i))));
        _mm_storeu_ps(o + i + 4, _mm_add_ps(_mm_loadu_ps(a + i + 4),
                                            _mm_mul_ps(vs, _mm_loadu_ps(dt + i + 4))));
      }
#endif
      for (; i < nf; i++) o[i] = a[i] + s * dt[i];
      first = false;
    }
  }
  if (first) memcpy(o, src, nf * sizeof(float));
  return true;
}

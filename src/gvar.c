/*
 * gvar.c - glyph variations (spec: gvar, and otvarcommonformats "Tuple variation store" for the
 * tuple headers, packed point numbers and packed deltas): the header, shared tuples, per-glyph
 * GlyphVariationData, the region scalar of every tuple, and inference of deltas for untouched
 * points (IUP) per contour.
 *
 * The header, the offsets array and the shared tuples are checked at open; each glyph's
 * variation data is checked when it is used. Deltas accumulate in float.
 */
#include "internal.h"

#define T_GVAR OTV_T_GVAR

/* spec: tupleVariationCount flags / mask */
#define SHARED_POINT_NUMBERS 0x8000u
#define COUNT_MASK 0x0FFFu
/* spec: tupleIndex flags / mask */
#define EMBEDDED_PEAK_TUPLE 0x8000u
#define INTERMEDIATE_REGION 0x4000u
#define PRIVATE_POINT_NUMBERS 0x2000u
#define TUPLE_INDEX_MASK 0x0FFFu
/* spec: packed point numbers control byte */
#define POINTS_ARE_WORDS 0x80u
#define POINT_RUN_COUNT_MASK 0x7Fu
/* spec: packed deltas control byte; both high bits set is the 32-bit run type */
#define DELTAS_ARE_ZERO 0x80u
#define DELTAS_ARE_WORDS 0x40u
#define DELTA_RUN_COUNT_MASK 0x3Fu

otv_status otv_gvar_parse(otv_face *f, otv_error *err)
{
  otv_gvar *g = &f->glyf.gvar;
  memset(g, 0, sizeof *g);
  otv_span tab = otv_face_span(f, T_GVAR);
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
  if (axis_count != f->fvar.axis_count)
    return OTV_FAIL(err, BAD_VALUE, T_GVAR, 4, "axisCount %u, fvar has %u", axis_count,
                    f->fvar.axis_count);
  g->long_offsets = (flags & 1u) != 0;
  otv_span offs;
  if (!otv_span_array(tab, 20, (size_t)glyph_count + 1, g->long_offsets ? 4 : 2, &offs))
    return OTV_FAIL(err, TRUNCATED, T_GVAR, 20, "%u glyph variation data offsets",
                    glyph_count + 1u);
  otv_span shared;
  if (!otv_span_array(tab, shared_off, (size_t)shared_count * axis_count, 2, &shared))
    return OTV_FAIL(err, TRUNCATED, T_GVAR, 8, "%u shared tuples of %u axes at 0x%x",
                    shared_count, axis_count, shared_off);
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

void otv_gvar_loc_free(otv_location *loc)
{
  otv_glyf_loc *c = &loc->glyf;
  const otv_alloc *al = &loc->al;
  otv_mem_free(al, c->shared_scalars, c->shared_cap * sizeof(float));
  otv_mem_free(al, c->acc, c->acc_cap * sizeof(otv_point));
  otv_mem_free(al, c->td, c->td_cap * sizeof(otv_point));
  otv_mem_free(al, c->touched, c->touched_cap);
  otv_mem_free(al, c->pn_shared, c->pn_shared_cap * sizeof(uint16_t));
  otv_mem_free(al, c->pn_priv, c->pn_priv_cap * sizeof(uint16_t));
  otv_mem_free(al, c->dl, c->dl_cap * sizeof(otv_point));
  c->dl = NULL;
  c->dl_cap = 0;
  c->shared_scalars = NULL;
  c->acc = c->td = NULL;
  c->touched = NULL;
  c->pn_shared = c->pn_priv = NULL;
  c->shared_cap = c->acc_cap = c->td_cap = c->touched_cap = c->pn_shared_cap = c->pn_priv_cap = 0;
}

/* Scalar of a tuple (spec: "Algorithm for calculating the scalar for a region"). peak, start,
 * end point at axis_count F2Dot14 values (in range: checked by the caller); start/end NULL for a
 * tuple without an intermediate region (start = min(0, peak), end = max(0, peak)). */
static float tuple_scalar(const otv_f2dot14 *coords, unsigned axis_count, const uint8_t *peak,
                          const uint8_t *start, const uint8_t *end)
{
  float s = 1.0f;
  for (unsigned a = 0; a < axis_count; a++) {
    int p = otv_peek_i16(peak + 2 * a);
    if (p == 0) continue;
    int c = coords[a];
    if (c == p) continue;
    int lo, hi;
    if (start) {
      lo = otv_peek_i16(start + 2 * a);
      hi = otv_peek_i16(end + 2 * a);
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

/* The shared tuple scalars at the location, recomputed only when the coordinates changed. */
static const float *shared_scalars(otv_location *loc)
{
  otv_glyf_loc *c = &loc->glyf;
  const otv_gvar *g = &loc->face->glyf.gvar;
  if (c->serial == loc->serial && c->shared_scalars) return c->shared_scalars;
  size_t need = g->shared_tuple_count ? g->shared_tuple_count : 1;
  if (OTV_RESERVE(&loc->al, &c->shared_scalars, &c->shared_cap, need,
                      sizeof(float)))
    return NULL;
  for (unsigned t = 0; t < g->shared_tuple_count; t++)
    /* in range: shared tuples span checked in otv_gvar_parse */
    c->shared_scalars[t] = tuple_scalar(loc->coords, g->axis_count,
                                        g->shared_tuples + (size_t)t * g->axis_count * 2, NULL,
                                        NULL);
  c->serial = loc->serial;
  return c->shared_scalars;
}

/* Decode packed point numbers at r (spec: "Packed point numbers"). Returns the count (0 with
 * *all set: every point), or -1 on truncation / NOMEM (*st says which). */
static inline long read_points(otv_location *loc, otv_rd *r, uint16_t **buf, size_t *cap,
                               bool *all, otv_status *st)
{
  /* the common case first: a single 0 byte, every point (in range: pos < len checked) */
  if (r->pos < r->s.len && r->s.p[r->pos] == 0) {
    r->pos++;
    *all = true;
    return 0;
  }
  unsigned b = otv_rd_u8(r);
  unsigned count = b;
  if (b & 0x80u) count = (b & 0x7Fu) << 8 | otv_rd_u8(r);
  if (!otv_rd_ok(r)) {
    *st = OTV_E_TRUNCATED;
    return -1;
  }
  *all = count == 0;
  if (count == 0) return 0;
  if (OTV_RESERVE(&loc->al, buf, cap, count, sizeof(uint16_t))) {
    *st = OTV_E_NOMEM;
    return -1;
  }
  uint16_t *out = *buf;
  unsigned i = 0, prev = 0;
  while (i < count) {
    unsigned ctl = otv_rd_u8(r);
    unsigned run = (ctl & POINT_RUN_COUNT_MASK) + 1;
    if (run > count - i) run = count - i; /* a run past the count: the count rules */
    if (ctl & POINTS_ARE_WORDS) {
      const uint8_t *q = otv_rd_take(r, 2 * (size_t)run);
      if (!q) break;
      for (unsigned k = 0; k < run; k++) {
        prev = (prev + otv_peek_u16(q + 2 * k)) & 0xFFFFu;
        out[i++] = (uint16_t)prev;
      }
    } else {
      const uint8_t *q = otv_rd_take(r, run);
      if (!q) break;
      for (unsigned k = 0; k < run; k++) {
        prev = (prev + q[k]) & 0xFFFFu;
        out[i++] = (uint16_t)prev;
      }
    }
  }
  if (!otv_rd_ok(r)) {
    *st = OTV_E_TRUNCATED;
    return -1;
  }
  return (long)count;
}

/* Decode `count` packed deltas (spec: "Packed deltas") and hand each to the caller through
 * out[i] (float). Returns false on truncation. */
static bool read_deltas(otv_rd *r, unsigned count, float *out, size_t stride)
{
  unsigned i = 0;
  while (i < count) {
    const uint8_t *c = otv_rd_take(r, 1);
    if (!c) return false;
    unsigned ctl = *c;
    unsigned run = (ctl & DELTA_RUN_COUNT_MASK) + 1;
    if (run > count - i) return false; /* a run past the point count is malformed */
    switch (ctl & (DELTAS_ARE_ZERO | DELTAS_ARE_WORDS)) {
    case DELTAS_ARE_ZERO:
      for (unsigned k = 0; k < run; k++, i++) out[i * stride] = 0.0f;
      break;
    case DELTAS_ARE_WORDS: {
      const uint8_t *q = otv_rd_take(r, 2 * (size_t)run);
      if (!q) return false;
      for (unsigned k = 0; k < run; k++, i++) out[i * stride] = (float)otv_peek_i16(q + 2 * k);
      break;
    }
    case DELTAS_ARE_ZERO | DELTAS_ARE_WORDS: { /* 32-bit deltas */
      const uint8_t *q = otv_rd_take(r, 4 * (size_t)run);
      if (!q) return false;
      for (unsigned k = 0; k < run; k++, i++) out[i * stride] = (float)otv_peek_i32(q + 4 * k);
      break;
    }
    default: {
      const uint8_t *q = otv_rd_take(r, run);
      if (!q) return false;
      for (unsigned k = 0; k < run; k++, i++) out[i * stride] = (float)(int8_t)q[k];
      break;
    }
    }
  }
  return true;
}

/* As read_deltas, adding scale x delta to acc[i * stride] (zero runs are skipped). The hot path
 * for tuples that cover every point: no intermediate buffer. */
static bool add_deltas(otv_rd *r, unsigned count, float *acc, size_t stride, float scale)
{
  /* raw pointers into the reader's span; every read is checked against end */
  const uint8_t *q = r->s.p + r->pos, *end = r->s.p + r->s.len;
  unsigned i = 0;
  bool ok = true;
  while (i < count) {
    if (q >= end) {
      ok = false;
      break;
    }
    unsigned ctl = *q++;
    unsigned run = (ctl & DELTA_RUN_COUNT_MASK) + 1;
    if (run > count - i) {
      ok = false;
      break;
    }
    float *o = acc + i * stride;
    unsigned kind = ctl & (DELTAS_ARE_ZERO | DELTAS_ARE_WORDS);
    size_t bytes = kind == DELTAS_ARE_ZERO ? 0 : kind == DELTAS_ARE_WORDS ? 2 * (size_t)run
                   : kind ? 4 * (size_t)run : run;
    if ((size_t)(end - q) < bytes) {
      ok = false;
      break;
    }
    /* in range: bytes checked just above */
    switch (kind) {
    case DELTAS_ARE_ZERO:
      break;
    case DELTAS_ARE_WORDS:
      for (unsigned k = 0; k < run; k++) o[k * stride] += scale * (float)otv_peek_i16(q + 2 * k);
      break;
    case DELTAS_ARE_ZERO | DELTAS_ARE_WORDS: /* 32-bit deltas */
      for (unsigned k = 0; k < run; k++) o[k * stride] += scale * (float)otv_peek_i32(q + 4 * k);
      break;
    default: {
      unsigned k = 0;
      for (; k + 4 <= run; k += 4) {
        float a = (float)(int8_t)q[k], b = (float)(int8_t)q[k + 1];
        float e = (float)(int8_t)q[k + 2], f = (float)(int8_t)q[k + 3];
        o[k * stride] += scale * a;
        o[(k + 1) * stride] += scale * b;
        o[(k + 2) * stride] += scale * e;
        o[(k + 3) * stride] += scale * f;
      }
      for (; k < run; k++) o[k * stride] += scale * (float)(int8_t)q[k];
      break;
    }
    }
    q += bytes;
    i += run;
  }
  r->pos = (size_t)(q - r->s.p);
  if (!ok && r->bad_at == SIZE_MAX) r->bad_at = r->pos;
  return ok;
}

/* Infer the deltas of untouched points of one contour [first, last] for one coordinate
 * (spec: "Inferred deltas for un-referenced point numbers"). orig is the default coordinate of
 * each point (x or y of pts, stride 2 floats), d the tuple's deltas (same stride). */
static void iup_axis(const float *orig, float *d, const uint8_t *touched, unsigned first,
                     unsigned last, unsigned ref_first)
{
  /* Walk the contour from one touched point to the next, cyclically. */
  unsigned r1 = ref_first;
  for (;;) {
    unsigned r2 = r1 == last ? first : r1 + 1;
    while (!touched[r2]) r2 = r2 == last ? first : r2 + 1;
    /* points strictly between r1 and r2 (cyclically) are untouched */
    unsigned p = r1 == last ? first : r1 + 1;
    if (p != r2) {
      float c1 = orig[2 * r1], c2 = orig[2 * r2];
      float d1 = d[2 * r1], d2 = d[2 * r2];
      if (c1 > c2) {
        float t = c1;
        c1 = c2;
        c2 = t;
        t = d1;
        d1 = d2;
        d2 = t;
      }
      if (c1 == c2) {
        /* spec: coincident reference coordinates: their delta when equal, else 0 */
        float v = d1 == d2 ? d1 : 0.0f;
        for (; p != r2; p = p == last ? first : p + 1) d[2 * p] = v;
      } else {
        float scale = (d2 - d1) / (c2 - c1);
        for (; p != r2; p = p == last ? first : p + 1) {
          float c = orig[2 * p];
          d[2 * p] = c <= c1 ? d1 : c >= c2 ? d2 : d1 + (c - c1) * scale;
        }
      }
    }
    if (r2 == ref_first) break; /* back at the first reference: the contour is done */
    r1 = r2;
  }
}

/* IUP over all contours of a simple glyph for the current tuple (td/touched). */
static void iup(const otv_point *pts, otv_point *td, const uint8_t *touched,
                const uint16_t *ends, unsigned end_count)
{
  unsigned first = 0;
  for (unsigned c = 0; c < end_count; c++) {
    unsigned last = ends[c];
    if (last < first) break; /* checked increasing by the caller; defensive */
    unsigned ref_first = last + 1, refs = 0;
    for (unsigned p = first; p <= last; p++)
      if (touched[p]) {
        if (refs++ == 0) ref_first = p;
      }
    if (refs == 0) {
      for (unsigned p = first; p <= last; p++) td[p].x = td[p].y = 0.0f;
    } else if (refs == 1) {
      /* spec: one touched point: every point of the contour moves by its delta */
      otv_point v = td[ref_first];
      for (unsigned p = first; p <= last; p++) td[p] = v;
    } else if (refs <= last - first) {
      iup_axis(&pts[0].x, &td[0].x, touched, first, last, ref_first);
      iup_axis(&pts[0].y, &td[0].y, touched, first, last, ref_first);
    }
    first = last + 1;
  }
}

/* Grow the per-point delta scratch (acc, td, touched) to n entries. */
static bool grow_points(otv_location *loc, unsigned n)
{
  otv_glyf_loc *c = &loc->glyf;
  return !OTV_RESERVE(&loc->al, &c->acc, &c->acc_cap, n, sizeof(otv_point)) &&
         !OTV_RESERVE(&loc->al, &c->td, &c->td_cap, n, sizeof(otv_point)) &&
         !OTV_RESERVE(&loc->al, &c->touched, &c->touched_cap, n, 1);
}

otv_status otv_gvar_apply(otv_location *loc, uint32_t gid, otv_point *pts, unsigned n,
                          const uint16_t *ends, unsigned end_count)
{
  const otv_gvar *g = &loc->face->glyf.gvar;
  if (!g->present || loc->is_default || gid >= g->glyph_count) return OTV_E_OK;
  size_t o0, o1;
  /* in range: offsets array (glyph_count + 1 entries) checked in otv_gvar_parse */
  if (g->long_offsets) {
    o0 = otv_peek_u32(g->offsets + 4 * (size_t)gid);
    o1 = otv_peek_u32(g->offsets + 4 * (size_t)gid + 4);
  } else {
    o0 = 2 * (size_t)otv_peek_u16(g->offsets + 2 * (size_t)gid);
    o1 = 2 * (size_t)otv_peek_u16(g->offsets + 2 * (size_t)gid + 2);
  }
  size_t offs_at = 20 + (size_t)gid * (g->long_offsets ? 4 : 2);
  if (o1 <= o0) {
    if (o1 < o0)
      return otv_loc_fail(loc, OTV_E_BAD_OFFSET, T_GVAR, offs_at,
                          "glyph %u: variation data offsets decrease (0x%zx, 0x%zx)", gid, o0, o1);
    return OTV_E_OK; /* no variation data */
  }
  otv_span data;
  if (!otv_span_sub(g->tab, g->data_off + o0, o1 - o0, &data))
    return otv_loc_fail(loc, OTV_E_BAD_OFFSET, T_GVAR, offs_at,
                        "glyph %u: %zu bytes of variation data past the table end", gid, o1 - o0);
  size_t base = g->data_off + o0; /* table offset of the glyph's data, for errors */
  otv_rd h = otv_rd_init(data, 0);
  unsigned tvc = otv_rd_u16(&h);
  size_t ser = otv_rd_u16(&h);
  if (!otv_rd_ok(&h))
    return otv_loc_fail(loc, OTV_E_TRUNCATED, T_GVAR, base, "glyph %u: header", gid);
  unsigned tuple_count = tvc & COUNT_MASK;
  if (tuple_count == 0) return OTV_E_OK;

  const float *shared = shared_scalars(loc);
  if (!shared || !grow_points(loc, n))
    return otv_loc_fail(loc, OTV_E_NOMEM, T_GVAR, 0, "glyph %u: delta scratch", gid);
  otv_glyf_loc *c = &loc->glyf;
  otv_point *td = c->td;
  uint8_t *touched = c->touched;

  otv_status st = OTV_E_OK;
  long shared_count = 0;
  bool shared_all = false;
  if (ser > data.len)
    return otv_loc_fail(loc, OTV_E_BAD_OFFSET, T_GVAR, base + 2,
                        "glyph %u: serialized data offset 0x%zx", gid, ser);
  if (tvc & SHARED_POINT_NUMBERS) {
    otv_rd sr = otv_rd_init(data, ser);
    shared_count = read_points(loc, &sr, &c->pn_shared, &c->pn_shared_cap, &shared_all, &st);
    if (shared_count < 0)
      return st == OTV_E_NOMEM ? otv_loc_fail(loc, st, T_GVAR, 0, "point numbers")
                               : otv_loc_fail(loc, st, T_GVAR, base + sr.bad_at,
                                              "glyph %u: shared point numbers", gid);
    ser = sr.pos;
  }
  /* Deltas go straight into pts. IUP needs the default coordinates of a simple glyph: they are
   * kept in c->acc (one copy per glyph, cheaper than finding out whether a sparse tuple
   * applies). */
  otv_point *acc = pts;
  const otv_point *orig = pts;
  if (end_count) {
    memcpy(c->acc, pts, n * sizeof *pts);
    orig = c->acc;
  }
  unsigned axes = g->axis_count;
  const uint8_t *none = NULL;
  for (unsigned t = 0; t < tuple_count; t++) {
    size_t hdr_at = h.pos;
    size_t size = otv_rd_u16(&h);
    unsigned tidx = otv_rd_u16(&h);
    const uint8_t *peak = none, *start = none, *end = none;
    if (tidx & EMBEDDED_PEAK_TUPLE) peak = otv_rd_take(&h, 2 * (size_t)axes);
    if (tidx & INTERMEDIATE_REGION) {
      start = otv_rd_take(&h, 2 * (size_t)axes);
      end = otv_rd_take(&h, 2 * (size_t)axes);
    }
    if (!otv_rd_ok(&h))
      return otv_loc_fail(loc, OTV_E_TRUNCATED, T_GVAR, base + h.bad_at,
                          "glyph %u: tuple variation header %u", gid, t);
    /* the tuple's serialized data: [ser, ser + size) */
    otv_span tdata;
    if (!otv_span_sub(data, ser, size, &tdata))
      return otv_loc_fail(loc, OTV_E_TRUNCATED, T_GVAR, base + hdr_at,
                          "glyph %u: tuple %u data (%zu bytes at 0x%zx) past the glyph's data",
                          gid, t, size, ser);
    size_t tdata_at = base + ser;
    ser += size;
    float s;
    if (!(tidx & EMBEDDED_PEAK_TUPLE)) {
      unsigned si = tidx & TUPLE_INDEX_MASK;
      if (si >= g->shared_tuple_count)
        return otv_loc_fail(loc, OTV_E_BAD_VALUE, T_GVAR, base + hdr_at + 2,
                            "glyph %u: shared tuple index %u of %u", gid, si,
                            g->shared_tuple_count);
      if (!(tidx & INTERMEDIATE_REGION)) {
        s = shared[si];
      } else {
        peak = g->shared_tuples + (size_t)si * axes * 2; /* in range: checked at parse */
        s = tuple_scalar(loc->coords, axes, peak, start, end);
      }
    } else {
      s = tuple_scalar(loc->coords, axes, peak, start, end);
    }
    if (s == 0.0f) continue;

    otv_rd tr = otv_rd_init(tdata, 0);
    const uint16_t *pn;
    long count;
    bool all;
    if (tidx & PRIVATE_POINT_NUMBERS) {
      count = read_points(loc, &tr, &c->pn_priv, &c->pn_priv_cap, &all, &st);
      if (count < 0)
        return st == OTV_E_NOMEM ? otv_loc_fail(loc, st, T_GVAR, 0, "point numbers")
                                 : otv_loc_fail(loc, st, T_GVAR, tdata_at + tr.bad_at,
                                                "glyph %u: tuple %u point numbers", gid, t);
      pn = c->pn_priv;
    } else if (tvc & SHARED_POINT_NUMBERS) {
      count = shared_count;
      all = shared_all;
      pn = c->pn_shared;
    } else {
      return otv_loc_fail(loc, OTV_E_BAD_VALUE, T_GVAR, base + hdr_at + 2,
                          "glyph %u: tuple %u has no point numbers", gid, t);
    }
    if (all) {
      if (!add_deltas(&tr, n, &acc[0].x, 2, s) || !add_deltas(&tr, n, &acc[0].y, 2, s))
        return otv_loc_fail(loc, OTV_E_TRUNCATED, T_GVAR, tdata_at + tr.pos,
                            "glyph %u: tuple %u deltas for %u points", gid, t, n);
      continue;
    }
    /* sparse: the deltas of the listed points, in list order */
    if (OTV_RESERVE(&loc->al, &c->dl, &c->dl_cap, (size_t)count, sizeof(otv_point)))
      return otv_loc_fail(loc, OTV_E_NOMEM, T_GVAR, 0, "delta list");
    otv_point *dl = c->dl;
    if (!read_deltas(&tr, (unsigned)count, &dl[0].x, 2) ||
        !read_deltas(&tr, (unsigned)count, &dl[0].y, 2))
      return otv_loc_fail(loc, OTV_E_TRUNCATED, T_GVAR, tdata_at + tr.pos,
                          "glyph %u: tuple %u deltas for %ld points", gid, t, count);
    if (end_count == 0) {
      /* composite (or no contours): no inference, untouched points do not move */
      for (long i = 0; i < count; i++) {
        unsigned p = pn[i];
        if (p < n) {
          acc[p].x += s * dl[i].x;
          acc[p].y += s * dl[i].y;
        }
      }
      continue;
    }
    memset(td, 0, n * sizeof *td);
    memset(touched, 0, n);
    for (long i = 0; i < count; i++) {
      unsigned p = pn[i];
      if (p < n) {
        td[p].x += dl[i].x;
        td[p].y += dl[i].y;
        touched[p] = 1;
      }
    }
    iup(orig, td, touched, ends, end_count);
    for (unsigned p = 0; p < n; p++) {
      acc[p].x += s * td[p].x;
      acc[p].y += s * td[p].y;
    }
  }
  return OTV_E_OK;
}

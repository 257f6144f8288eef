/*
 * ivs.c - ItemVariationStore, VariationRegionList and DeltaSetIndexMap
 * (spec: otvarcommonformats, "Item variation store" and "Associating target items to
 * variation data"). Parsed once per face; two evaluators of its deltas: in float with
 * per-location region scalars (drawing and metrics: otv_ivs_delta, specialized loops per column
 * width), and exact in double in fontTools' order (static instances: otv_ivs_exact_*).
 */
#include "ivs.h"

otv_status otv_ivs_parse(const otv_alloc *al, otv_span tab, uint32_t tag, size_t off,
                         uint16_t axis_count, otv_ivs *out, otv_error *err)
{
  memset(out, 0, sizeof *out);
  otv_rd r = otv_rd_init(tab, off);
  uint16_t format = otv_rd_u16(&r);
  uint32_t region_list_off = otv_rd_u32(&r);
  uint16_t data_count = otv_rd_u16(&r);
  if (!otv_rd_ok(&r)) return OTV_FAIL_RD(err, tag, 0, &r, "ItemVariationStore header");
  if (format != 1)
    return OTV_FAIL(err, BAD_VALUE, tag, off, "ItemVariationStore format %u", format);
  otv_span offsets;
  if (!otv_span_array(tab, r.pos, data_count, 4, &offsets))
    return OTV_FAIL(err, TRUNCATED, tag, r.pos, "ItemVariationStore: %u data offsets", data_count);

  if (region_list_off) {
    size_t rl = off + (size_t)region_list_off;
    otv_rd rr = otv_rd_init(tab, rl);
    uint16_t region_axes = otv_rd_u16(&rr);
    uint16_t region_count = otv_rd_u16(&rr);
    if (!otv_rd_ok(&rr)) return OTV_FAIL_RD(err, tag, 0, &rr, "VariationRegionList header");
    /* spec: axisCount must equal fvar's. A store naming more axes than the font has is not
     * something we can evaluate meaningfully. */
    if (region_axes > axis_count)
      return OTV_FAIL(err, BAD_VALUE, tag, rl, "VariationRegionList has %u axes, fvar %u",
                      region_axes, axis_count);
    otv_span regs;
    if (!otv_span_array(tab, rr.pos, (size_t)region_count * region_axes, 6, &regs))
      return OTV_FAIL(err, TRUNCATED, tag, rr.pos, "VariationRegionList: %u regions x %u axes",
                      region_count, region_axes);
    out->axis_count = region_axes;
    out->region_count = region_count;
    out->regions = regs.p;
  }

  if (data_count) {
    out->data = otv_mem_calloc(al, data_count, sizeof *out->data);
    if (!out->data) return OTV_FAIL(err, NOMEM, tag, off, "ItemVariationStore");
  }
  out->data_count = data_count;
  for (unsigned i = 0; i < data_count; i++) {
    /* in range: offsets span checked above */
    uint32_t d_off = otv_peek_u32(offsets.p + 4 * i);
    if (!d_off) continue; /* NULL subtable: no items */
    size_t d = off + (size_t)d_off;
    otv_rd dr = otv_rd_init(tab, d);
    uint16_t item_count = otv_rd_u16(&dr);
    uint16_t word_delta_count = otv_rd_u16(&dr);
    uint16_t region_index_count = otv_rd_u16(&dr);
    if (!otv_rd_ok(&dr)) {
      otv_ivs_free(al, out);
      return OTV_FAIL_RD(err, tag, 0, &dr, "ItemVariationData header");
    }
    otv_ivd *v = &out->data[i];
    v->long_words = (word_delta_count & OTV_IVD_LONG_WORDS) != 0;
    v->word_count = (uint16_t)(word_delta_count & OTV_IVD_WORD_COUNT_MASK);
    v->item_count = item_count;
    v->region_index_count = region_index_count;
    if (v->word_count > region_index_count) {
      unsigned wc = v->word_count; /* v dies with out->data */
      otv_ivs_free(al, out);
      return OTV_FAIL(err, BAD_VALUE, tag, d,
                      "ItemVariationData: wordDeltaCount %u > "
                      "regionIndexCount %u",
                      wc, region_index_count);
    }
    otv_span idx;
    if (!otv_span_array(tab, dr.pos, region_index_count, 2, &idx)) {
      otv_ivs_free(al, out);
      return OTV_FAIL(err, TRUNCATED, tag, dr.pos, "ItemVariationData: %u region indexes",
                      region_index_count);
    }
    v->region_indexes = idx.p;
    unsigned big = v->long_words ? 4 : 2, small = v->long_words ? 2 : 1;
    v->row_len = (uint32_t)(v->word_count * big + (region_index_count - v->word_count) * small);
    otv_span rows;
    if (!otv_span_array(tab, dr.pos + idx.len, item_count, v->row_len, &rows)) {
      uint32_t row_len = v->row_len; /* v dies with out->data */
      otv_ivs_free(al, out);
      return OTV_FAIL(err, TRUNCATED, tag, dr.pos + idx.len,
                      "ItemVariationData: %u rows of %u bytes", item_count, row_len);
    }
    v->rows = rows.p;
  }
  out->present = true;
  return OTV_E_OK;
}

size_t otv_ivs_end(const otv_ivs *ivs, otv_span tab, size_t off)
{
  /* in range: every part was checked against tab in otv_ivs_parse */
  size_t end = off + 8 + 4 * (size_t)ivs->data_count;
  size_t regions = ivs->regions ? (size_t)(ivs->regions - tab.p) +
                                      (size_t)ivs->region_count * ivs->axis_count * 6
                                : 0;
  if (regions > end) end = regions;
  for (unsigned i = 0; i < ivs->data_count; i++) {
    const otv_ivd *v = &ivs->data[i];
    size_t e = v->region_indexes
                   ? (size_t)(v->region_indexes - tab.p) + 2 * (size_t)v->region_index_count
                   : 0;
    if (e > end) end = e;
    e = v->rows ? (size_t)(v->rows - tab.p) + (size_t)v->item_count * v->row_len : 0;
    if (e > end) end = e;
  }
  return end;
}

void otv_ivs_free(const otv_alloc *al, otv_ivs *ivs)
{
  if (ivs->data) otv_mem_free(al, ivs->data, (size_t)ivs->data_count * sizeof *ivs->data);
  memset(ivs, 0, sizeof *ivs);
}

/* The region scalars at coordinates given either as F2Dot14 (f2) or as 16.16 (q; the region
 * values are then scaled by 4: coords.h). Always inlined into the two entry points below, each
 * with one of the two a constant NULL, so each compiles to its own loop without a branch. */
static OTV_ALWAYS_INLINE void region_scalars(const otv_ivs *ivs, const otv_f2dot14 *f2,
                                             const int32_t *q, unsigned axis_count, float *scalars)
{
  unsigned axes = ivs->axis_count;
  int k = q ? 4 : 1;
  for (unsigned r = 0; r < ivs->region_count; r++) {
    /* in range: regions span (region_count x axis_count x 6) checked in otv_ivs_parse */
    const uint8_t *p = ivs->regions + (size_t)r * axes * 6;
    float s = 1.0f;
    for (unsigned a = 0; a < axes && s != 0.0f; a++, p += 6) {
      int coord = a >= axis_count ? 0 : q ? q[a] : f2[a];
      s *= otv_axis_scalar(coord, otv_peek_i16(p) * k, otv_peek_i16(p + 2) * k,
                           otv_peek_i16(p + 4) * k);
    }
    scalars[r] = s;
  }
}

void otv_ivs_region_scalars(const otv_ivs *ivs, const int32_t *coords, unsigned axis_count,
                            float *scalars)
{
  region_scalars(ivs, NULL, coords, axis_count, scalars);
}

void otv_ivs_region_scalars_f2(const otv_ivs *ivs, const otv_f2dot14 *coords, unsigned axis_count,
                               float *scalars)
{
  region_scalars(ivs, coords, NULL, axis_count, scalars);
}

float otv_ivs_delta(const otv_ivs *ivs, const float *scalars, uint32_t outer, uint32_t inner)
{
  if (outer >= ivs->data_count) return 0.0f;
  const otv_ivd *v = &ivs->data[outer];
  if (inner >= v->item_count) return 0.0f;
  /* in range: rows span checked in otv_ivs_parse */
  const uint8_t *row = v->rows + (size_t)inner * v->row_len;
  const uint8_t *ri = v->region_indexes;
  unsigned wc = v->word_count, n = v->region_index_count, rc = ivs->region_count;
  float sum = 0.0f;
  unsigned i = 0;
  if (v->long_words) {
    for (; i < wc; i++, row += 4) {
      unsigned reg = otv_peek_u16(ri + 2 * i);
      if (reg < rc) sum += scalars[reg] * (float)otv_peek_i32(row);
    }
    for (; i < n; i++, row += 2) {
      unsigned reg = otv_peek_u16(ri + 2 * i);
      if (reg < rc) sum += scalars[reg] * (float)otv_peek_i16(row);
    }
  } else {
    for (; i < wc; i++, row += 2) {
      unsigned reg = otv_peek_u16(ri + 2 * i);
      if (reg < rc) sum += scalars[reg] * (float)otv_peek_i16(row);
    }
    for (; i < n; i++, row += 1) {
      unsigned reg = otv_peek_u16(ri + 2 * i);
      if (reg < rc) sum += scalars[reg] * (float)(int8_t)row[0];
    }
  }
  return sum;
}

const float *otv_ivs_cache_fill(const otv_locctx *x, const otv_ivs *ivs, otv_ivs_cache *c)
{
  if (ivs->region_count > c->cap) {
    float *n = otv_mem_realloc(x->al, c->scalars, c->cap * sizeof(float),
                               ivs->region_count * sizeof(float));
    if (!n) {
      OTV_FAIL(x->err, NOMEM, 0, 0, "region scalars");
      return NULL;
    }
    c->scalars = n;
    c->cap = ivs->region_count;
  }
  if (!c->scalars) {
    /* A store without regions: hand out a valid pointer without allocating. */
    static const float none[1] = {0.0f};
    return none;
  }
  /* coordinates between F2Dot14 steps (the freetype model) need the 16.16 evaluation; the
   * others are F2Dot14 values, evaluated as they are (the same floats, fewer operations) */
  if (x->at->fine)
    otv_ivs_region_scalars(ivs, x->at->q, x->at->axis_count, c->scalars);
  else
    otv_ivs_region_scalars_f2(ivs, x->at->v, x->at->axis_count, c->scalars);
  c->serial = x->at->serial;
  return c->scalars;
}

void otv_ivs_cache_free(const otv_alloc *al, otv_ivs_cache *c)
{
  if (c->scalars) otv_mem_free(al, c->scalars, c->cap * sizeof(float));
  memset(c, 0, sizeof *c);
}

/* ---- the exact evaluator (static instances) ---- */

otv_status otv_ivs_exact_init(const otv_alloc *al, const otv_ivs *ivs, unsigned stride,
                              otv_ivs_exact *e)
{
  memset(e, 0, sizeof *e);
  e->ivs = ivs;
  e->stride = stride ? stride : 1;
  unsigned rc = ivs->region_count, dc = ivs->data_count;
  e->k = otv_mem_calloc(al, rc ? rc : 1, sizeof *e->k);
  e->s = otv_mem_calloc(al, (size_t)(rc ? rc : 1) * e->stride, sizeof *e->s);
  e->memo = otv_mem_calloc(al, dc ? dc : 1, sizeof *e->memo);
  e->order = otv_mem_calloc(al, dc ? dc : 1, sizeof *e->order);
  if (!e->k || !e->s || !e->memo || !e->order) return OTV_E_NOMEM;
  /* per ItemVariationData: columns in region-list order (the order fontTools sums them) */
  for (unsigned d = 0; d < dc; d++) {
    const otv_ivd *v = &ivs->data[d];
    unsigned n = v->region_index_count;
    uint16_t *o = otv_mem_alloc(al, (n ? n : 1) * sizeof *o);
    if (!o) return OTV_E_NOMEM;
    e->order[d] = o;
    for (unsigned j = 0; j < n; j++) o[j] = (uint16_t)j;
    for (unsigned j = 1; j < n; j++) /* stable insertion sort by region index */
      for (unsigned q = j; q > 0 && otv_ivd_region(v, o[q - 1]) > otv_ivd_region(v, o[q]); q--) {
        uint16_t t = o[q];
        o[q] = o[q - 1];
        o[q - 1] = t;
      }
  }
  return OTV_E_OK;
}

void otv_ivs_exact_fini(const otv_alloc *al, otv_ivs_exact *e)
{
  const otv_ivs *ivs = e->ivs;
  if (!ivs) return;
  unsigned rc = ivs->region_count, dc = ivs->data_count;
  if (e->k) otv_mem_free(al, e->k, (rc ? rc : 1) * sizeof *e->k);
  if (e->s) otv_mem_free(al, e->s, (size_t)(rc ? rc : 1) * e->stride * sizeof *e->s);
  for (unsigned d = 0; d < dc; d++) {
    unsigned items = ivs->data[d].item_count ? ivs->data[d].item_count : 1;
    unsigned cols = ivs->data[d].region_index_count ? ivs->data[d].region_index_count : 1;
    if (e->memo && e->memo[d]) otv_mem_free(al, e->memo[d], items * sizeof **e->memo);
    if (e->order && e->order[d]) otv_mem_free(al, e->order[d], cols * sizeof **e->order);
  }
  if (e->memo) otv_mem_free(al, e->memo, (dc ? dc : 1) * sizeof *e->memo);
  if (e->order) otv_mem_free(al, e->order, (dc ? dc : 1) * sizeof *e->order);
  memset(e, 0, sizeof *e);
}

double otv_ivs_exact_get(const otv_alloc *al, otv_ivs_exact *e, uint32_t outer, uint32_t inner)
{
  const otv_ivs *ivs = e->ivs;
  if (!ivs || outer >= ivs->data_count) return 0;
  const otv_ivd *v = &ivs->data[outer];
  if (inner >= v->item_count) return 0;
  if (!e->memo[outer]) {
    double *m = otv_mem_alloc(al, v->item_count * sizeof *m);
    if (m) {
      for (unsigned i = 0; i < v->item_count; i++) m[i] = NAN;
      e->memo[outer] = m;
    }
  }
  if (e->memo[outer] && !isnan(e->memo[outer][inner])) return e->memo[outer][inner];
  /* in range: rows and region indexes checked in otv_ivs_parse */
  const uint8_t *row = v->rows + (size_t)inner * v->row_len;
  double sum = 0;
  for (unsigned q = 0; q < v->region_index_count; q++) {
    unsigned j = e->order[outer][q];
    unsigned r = otv_ivd_region(v, j);
    if (r >= ivs->region_count || e->k[r] < 0) continue;
    int32_t d = otv_ivd_delta(v, row, j);
    if (!d) continue;
    double x = d;
    const double *s = e->s + (size_t)r * e->stride;
    for (int f = 0; f < e->k[r]; f++) x *= s[f];
    sum += x;
  }
  if (e->memo[outer]) e->memo[outer][inner] = sum;
  return sum;
}

/* ---- DeltaSetIndexMap ---- */

otv_status otv_dsim_parse(otv_span tab, uint32_t tag, size_t off, otv_dsim *out, otv_error *err)
{
  memset(out, 0, sizeof *out);
  otv_rd r = otv_rd_init(tab, off);
  uint8_t format = otv_rd_u8(&r);
  uint8_t entry_format = otv_rd_u8(&r);
  uint32_t map_count = 0;
  if (format == 0)
    map_count = otv_rd_u16(&r);
  else if (format == 1)
    map_count = otv_rd_u32(&r);
  else
    return OTV_FAIL(err, BAD_VALUE, tag, off, "DeltaSetIndexMap format %u", format);
  if (!otv_rd_ok(&r)) return OTV_FAIL_RD(err, tag, 0, &r, "DeltaSetIndexMap header");
  out->entry_size = (uint8_t)(((entry_format >> 4) & 3) + 1);
  out->inner_bits = (uint8_t)((entry_format & 0xF) + 1);
  otv_span e;
  if (!otv_span_array(tab, r.pos, map_count, out->entry_size, &e))
    return OTV_FAIL(err, TRUNCATED, tag, r.pos, "DeltaSetIndexMap: %u entries of %u bytes",
                    map_count, out->entry_size);
  out->map_count = map_count;
  out->entries = e.p;
  out->end_off = r.pos + e.len;
  out->present = true;
  return OTV_E_OK;
}

void otv_dsim_map(const otv_dsim *m, uint32_t idx, uint32_t *outer, uint32_t *inner)
{
  if (!m->present) {
    *outer = 0;
    *inner = idx;
    return;
  }
  if (m->map_count == 0) {
    *outer = idx >> 16;
    *inner = idx & 0xFFFFu;
    return;
  }
  if (idx >= m->map_count) idx = m->map_count - 1; /* spec: use the last entry */
  /* in range: entries span checked in otv_dsim_parse */
  const uint8_t *p = m->entries + (size_t)idx * m->entry_size;
  uint32_t v = 0;
  for (unsigned i = 0; i < m->entry_size; i++) v = v << 8 | p[i];
  *outer = v >> m->inner_bits;
  *inner = v & ((1u << m->inner_bits) - 1u);
}

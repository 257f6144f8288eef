/*
 * instance/store.c - ItemVariationStores in static and partial instances (see
 * instance/store.h; spec: otvarcommonformats "Item variation store").
 */
#include "instance/store.h"

#include <stdlib.h>

/* ---- deltas at the pin ---- */

otv_status otv_inst_ivs_init(const otv_ictx *cx, const otv_ivs *ivs, otv_inst_ivs *e)
{
  unsigned ac = cx->pin->axis_count;
  otv_status st = otv_ivs_exact_init(cx->al, ivs, ac, e);
  if (st) return st;
  int16_t s[OTV_MAX_AXES], p[OTV_MAX_AXES], en[OTV_MAX_AXES];
  for (unsigned r = 0; r < ivs->region_count; r++) {
    otv_ivs_region(ivs, r, ac, s, p, en);
    e->k[r] = otv_pin_factors(cx->pin, s, p, en, e->s + (size_t)r * e->stride);
  }
  return OTV_E_OK;
}

double otv_inst_ivs_get(const otv_ictx *cx, otv_inst_ivs *e, uint32_t outer, uint32_t inner)
{
  return otv_ivs_exact_get(cx->al, e, outer, inner);
}

void otv_inst_ivs_fini(const otv_ictx *cx, otv_inst_ivs *e) { otv_ivs_exact_fini(cx->al, e); }

/* ---- ItemVariationStore, in place ---- */

/* In place: the layout kept, the region list shortened, every delta scaled (see the top). */
typedef struct span2 {
  size_t a, b; /* [a, b) */
} span2;

static int cmp_span2(const void *x, const void *y)
{
  const span2 *p = x, *q = y;
  return p->a < q->a ? -1 : p->a > q->a;
}

/* Whether the store's structures (header and offsets, region list, each ItemVariationData's
 * header and region indexes, its rows) overlap: rewriting one in place would then change
 * another (hostile fonts share bytes between them). */
static otv_status ivs_overlaps(const otv_ictx *cx, otv_span src, size_t ivs_off, const otv_ivs *ivs,
                               bool *overlap)
{
  *overlap = false;
  size_t n = 2 + 2 * (size_t)ivs->data_count, k = 0;
  span2 *v = otv_mem_alloc(cx->al, n * sizeof *v);
  if (!v) return OTV_FAIL(cx->err, NOMEM, 0, 0, "store layout");
  v[k++] = (span2){ivs_off, ivs_off + 8 + 4 * (size_t)ivs->data_count};
  uint32_t list_off = otv_peek_u32(src.p + ivs_off + 2); /* in range: parsed */
  if (list_off)
    v[k++] = (span2){ivs_off + list_off,
                     ivs_off + list_off + 4 + (size_t)ivs->region_count * ivs->axis_count * 6};
  for (unsigned d = 0; d < ivs->data_count; d++) {
    const otv_ivd *iv = &ivs->data[d];
    size_t h = (size_t)(iv->region_indexes - src.p) - 6, r = (size_t)(iv->rows - src.p);
    v[k++] = (span2){h, h + 6 + 2 * (size_t)iv->region_index_count};
    if (iv->item_count && iv->row_len)
      v[k++] = (span2){r, r + (size_t)iv->item_count * iv->row_len};
  }
  qsort(v, k, sizeof *v, cmp_span2);
  for (size_t i = 1; i < k; i++)
    if (v[i].a < v[i - 1].b) *overlap = true;
  otv_mem_free(cx->al, v, n * sizeof *v);
  return OTV_E_OK;
}

static otv_status ivs_in_place(const otv_ictx *cx, otv_span src, uint8_t *dst, uint32_t tag,
                               size_t ivs_off, otv_ivs ivs)
{
  bool overlap;
  otv_status st = ivs_overlaps(cx, src, ivs_off, &ivs, &overlap);
  if (st) return st;
  if (overlap)
    return OTV_FAIL(cx->err, UNSUPPORTED, tag, ivs_off,
                    "ItemVariationStore whose structures overlap (cannot be rewritten in place)");
  unsigned rc = ivs.region_count, sac = ivs.axis_count, kc = cx->pin->kept_count;
  double *scal = NULL;
  int *k = NULL;
  /* the header was read by otv_ivs_parse: format, then the region list offset */
  uint32_t list_off = otv_peek_u32(src.p + ivs_off + 2);
  size_t list_at = ivs_off + list_off;
  if (!rc) {
    /* no regions: nothing varies, but the list must name the new axis count */
    if (list_off && list_at + 2 <= src.len) otv_put_u16(dst + list_at, (uint16_t)kc);
    goto done;
  }
  if (kc > sac) {
    st = OTV_FAIL(cx->err, UNSUPPORTED, tag, ivs_off, "region list of %u axes, %u kept", sac, kc);
    goto done;
  }
  scal = otv_mem_alloc(cx->al, (size_t)rc * OTV_MAX_AXES * sizeof *scal);
  k = otv_mem_alloc(cx->al, rc * sizeof *k);
  if (!scal || !k) {
    st = OTV_FAIL(cx->err, NOMEM, tag, ivs_off, "region scalars");
    goto done;
  }
  size_t reg_at = (size_t)(ivs.regions - src.p); /* in range: regions lie inside src */
  /* the scalars first (the new list overwrites the old one in dst, never read from there) */
  int16_t s[OTV_MAX_AXES], p[OTV_MAX_AXES], e[OTV_MAX_AXES];
  int16_t ns[OTV_MAX_AXES], np[OTV_MAX_AXES], ne[OTV_MAX_AXES];
  size_t w = reg_at;
  for (unsigned r = 0; r < rc; r++) {
    otv_ivs_region(&ivs, r, cx->pin->axis_count, s, p, e);
    bool kept;
    k[r] = otv_pin_factors_partial(cx->pin, s, p, e, scal + (size_t)r * OTV_MAX_AXES, &kept);
    if (!kept) k[r] = -1; /* folded into the default: its column is zeroed */
    otv_pin_kept_region(cx->pin, s, p, e, ns, np, ne);
    for (unsigned j = 0; j < kc; j++) {
      /* in range: kc <= sac, so the new list is not longer than the old */
      otv_put_u16(dst + w, (uint16_t)ns[j]);
      otv_put_u16(dst + w + 2, (uint16_t)np[j]);
      otv_put_u16(dst + w + 4, (uint16_t)ne[j]);
      w += 6;
    }
  }
  memset(dst + w, 0, reg_at + (size_t)rc * sac * 6 - w);
  otv_put_u16(dst + list_at, (uint16_t)kc);
  for (unsigned d = 0; d < ivs.data_count; d++) {
    const otv_ivd *v = &ivs.data[d];
    unsigned nr = v->region_index_count;
    for (unsigned it = 0; it < v->item_count; it++) {
      /* in range: rows checked in otv_ivs_parse; dst is a copy of src of the same length */
      size_t row_at = (size_t)(v->rows - src.p) + (size_t)it * v->row_len;
      for (unsigned j = 0; j < nr; j++) {
        unsigned r = otv_ivd_region(v, j), size;
        size_t at = row_at + otv_ivd_column(v, j, &size);
        int32_t dv = otv_ivd_delta(v, src.p + row_at, j);
        int32_t nv = 0;
        if (r < rc && k[r] >= 0 && dv)
          nv = otv_inst_round(otv_pin_scale(dv, scal + (size_t)r * OTV_MAX_AXES, k[r]));
        if (r >= rc) nv = dv; /* out-of-range region: contributes nothing, kept as it is */
        if (size == 4)
          otv_put_u32(dst + at, (uint32_t)nv);
        else if (size == 2)
          otv_put_u16(dst + at, (uint16_t)(int16_t)nv);
        else
          dst[at] = (uint8_t)(int8_t)nv;
      }
    }
  }
done:
  if (scal) otv_mem_free(cx->al, scal, (size_t)rc * OTV_MAX_AXES * sizeof *scal);
  if (k) otv_mem_free(cx->al, k, rc * sizeof *k);
  return st;
}

/* ---- ItemVariationStore, compacted ----
 * When the store's structures fill the end of their table without gaps (as compilers write
 * them), nothing else lives there and the store can be written anew, smaller: per
 * ItemVariationData, the columns whose regions become one region summed (exactly, then
 * rounded once), columns without deltas and regions nobody uses dropped, each column as narrow
 * as its values allow. Items keep their order, so every (outer, inner) reference stays valid. */

/* The end of the store's structures, or 0 when they are not one gap-free block. */
static size_t store_block_end(otv_span src, size_t ivs_off, const otv_ivs *ivs)
{
  uint32_t list_off = otv_peek_u32(src.p + ivs_off + 2); /* in range: parsed */
  size_t end = ivs_off + 8 + 4 * (size_t)ivs->data_count, sum = end - ivs_off;
  if (list_off) {
    size_t l = ivs_off + list_off, le = l + 4 + (size_t)ivs->region_count * ivs->axis_count * 6;
    sum += le - l;
    if (le > end) end = le;
  }
  for (unsigned d = 0; d < ivs->data_count; d++) {
    const otv_ivd *v = &ivs->data[d];
    size_t at = (size_t)(v->region_indexes - src.p) - 6; /* in range: parsed */
    size_t e = (size_t)(v->rows - src.p) + (size_t)v->item_count * v->row_len;
    sum += e - at;
    if (e > end) end = e;
  }
  return sum == end - ivs_off ? end : 0;
}

typedef struct cregion {
  int16_t s[OTV_MAX_AXES], p[OTV_MAX_AXES], e[OTV_MAX_AXES];
} cregion;

static otv_status ivs_compact(const otv_ictx *cx, otv_buf *out, uint32_t tag, size_t ivs_off,
                              const otv_ivs *ivs)
{
  unsigned rc = ivs->region_count, kc = cx->pin->kept_count;
  otv_status st = OTV_E_OK;
  double *scal = NULL;
  int *k = NULL;
  uint32_t *newreg = NULL; /* per original region: its compact region + 1, 0: none yet */
  cregion *regs = NULL, *kr = NULL;
  unsigned nregs = 0;
  otv_buf data;
  otv_buf_init(&data, cx->al);
  size_t base = out->len;
  scal = otv_mem_alloc(cx->al, (size_t)(rc ? rc : 1) * OTV_MAX_AXES * sizeof *scal);
  k = otv_mem_alloc(cx->al, (rc ? rc : 1) * sizeof *k);
  kr = otv_mem_alloc(cx->al, (rc ? rc : 1) * sizeof *kr);
  regs = otv_mem_alloc(cx->al, (rc ? rc : 1) * sizeof *regs);
  newreg = otv_mem_calloc(cx->al, rc ? rc : 1, sizeof *newreg);
  if (!scal || !k || !kr || !regs || !newreg) goto nomem;
  int16_t s[OTV_MAX_AXES], p[OTV_MAX_AXES], e[OTV_MAX_AXES];
  for (unsigned r = 0; r < rc; r++) {
    otv_ivs_region(ivs, r, cx->pin->axis_count, s, p, e);
    bool kept;
    k[r] = otv_pin_factors_partial(cx->pin, s, p, e, scal + (size_t)r * OTV_MAX_AXES, &kept);
    if (!kept) k[r] = -1;
    memset(&kr[r], 0, sizeof kr[r]);
    otv_pin_kept_region(cx->pin, s, p, e, kr[r].s, kr[r].p, kr[r].e);
  }
  /* the data subtables (the region list follows them, once its regions are known) */
  unsigned dc = ivs->data_count;
  size_t hdr = 8 + 4 * (size_t)dc;
  size_t *doff = otv_mem_alloc(cx->al, (dc ? dc : 1) * sizeof *doff);
  if (!doff) goto nomem;
  for (unsigned d = 0; d < dc && !st; d++) {
    const otv_ivd *v = &ivs->data[d];
    unsigned nr = v->region_index_count, items = v->item_count;
    /* columns: original column -> compact column (by kept region), -1 dropped */
    int *cm = otv_mem_alloc(cx->al, (nr ? nr : 1) * sizeof *cm);
    unsigned *creg =
        otv_mem_alloc(cx->al, (nr ? nr : 1) * sizeof *creg); /* compact column -> kr index */
    unsigned ncol = 0;
    if (!cm || !creg) {
      if (cm) otv_mem_free(cx->al, cm, (nr ? nr : 1) * sizeof *cm);
      if (creg) otv_mem_free(cx->al, creg, (nr ? nr : 1) * sizeof *creg);
      otv_mem_free(cx->al, doff, (dc ? dc : 1) * sizeof *doff);
      goto nomem;
    }
    for (unsigned j = 0; j < nr; j++) {
      unsigned r = otv_ivd_region(v, j);
      cm[j] = -1;
      if (r >= rc || k[r] < 0) continue;
      unsigned c = 0;
      while (c < ncol && memcmp(&kr[creg[c]], &kr[r], sizeof kr[r])) c++;
      if (c == ncol) creg[ncol++] = r;
      cm[j] = (int)c;
    }
    double *m = otv_mem_calloc(cx->al, (size_t)(items ? items : 1) * (ncol ? ncol : 1), sizeof *m);
    int32_t *vals =
        otv_mem_alloc(cx->al, (size_t)(items ? items : 1) * (ncol ? ncol : 1) * sizeof *vals);
    uint8_t *width = otv_mem_calloc(cx->al, ncol ? ncol : 1, 1);
    unsigned *order = otv_mem_alloc(cx->al, (ncol ? ncol : 1) * sizeof *order);
    if (!m || !vals || !width || !order) st = OTV_FAIL(cx->err, NOMEM, tag, ivs_off, "store");
    for (unsigned it = 0; it < items && !st; it++) {
      const uint8_t *row = v->rows + (size_t)it * v->row_len; /* in range: parsed */
      for (unsigned j = 0; j < nr; j++) {
        if (cm[j] < 0) continue;
        unsigned r = otv_ivd_region(v, j);
        int32_t dv = otv_ivd_delta(v, row, j);
        if (dv)
          m[(size_t)it * ncol + (unsigned)cm[j]] +=
              otv_pin_scale(dv, scal + (size_t)r * OTV_MAX_AXES, k[r]);
      }
    }
    unsigned live = 0, nbig = 0;
    bool lng = false;
    if (!st) {
      for (size_t i = 0; i < (size_t)items * ncol; i++) vals[i] = otv_inst_round(m[i]);
      for (unsigned c = 0; c < ncol; c++) {
        for (unsigned it = 0; it < items; it++) {
          int32_t x = vals[(size_t)it * ncol + c];
          unsigned w = x == 0 ? 0 : x >= -128 && x <= 127 ? 1 : x >= -32768 && x <= 32767 ? 2 : 4;
          if (w > width[c]) width[c] = (uint8_t)w;
        }
        if (width[c] == 4) lng = true;
      }
      /* the wide columns first, then the narrow ones; empty columns dropped */
      unsigned wide = lng ? 4 : 2;
      for (unsigned c = 0; c < ncol; c++)
        if (width[c] >= wide) order[live++] = c;
      nbig = live;
      for (unsigned c = 0; c < ncol; c++)
        if (width[c] && width[c] < wide) order[live++] = c;
      doff[d] = data.len;
      otv_buf_u16(&data, (uint16_t)items);
      otv_buf_u16(&data, (uint16_t)(nbig | (lng ? OTV_IVD_LONG_WORDS : 0)));
      otv_buf_u16(&data, (uint16_t)live);
      for (unsigned q = 0; q < live; q++) {
        unsigned r = creg[order[q]];
        if (!newreg[r]) {
          /* a region used for the first time: the same kept region may exist already */
          unsigned g = 0;
          while (g < nregs && memcmp(&regs[g], &kr[r], sizeof kr[r])) g++;
          if (g == nregs) regs[nregs++] = kr[r];
          newreg[r] = g + 1;
        }
        otv_buf_u16(&data, (uint16_t)(newreg[r] - 1));
      }
      unsigned bw = lng ? 4 : 2, sw = lng ? 2 : 1;
      for (unsigned it = 0; it < items; it++)
        for (unsigned q = 0; q < live; q++) {
          int32_t x = vals[(size_t)it * ncol + order[q]];
          unsigned w = q < nbig ? bw : sw;
          if (w == 4)
            otv_buf_u32(&data, (uint32_t)x);
          else if (w == 2)
            otv_buf_u16(&data, (uint16_t)(int16_t)x);
          else
            otv_buf_u8(&data, (uint8_t)(int8_t)x);
        }
    }
    otv_mem_free(cx->al, cm, (nr ? nr : 1) * sizeof *cm);
    otv_mem_free(cx->al, creg, (nr ? nr : 1) * sizeof *creg);
    if (m) otv_mem_free(cx->al, m, (size_t)(items ? items : 1) * (ncol ? ncol : 1) * sizeof *m);
    if (vals)
      otv_mem_free(cx->al, vals, (size_t)(items ? items : 1) * (ncol ? ncol : 1) * sizeof *vals);
    if (width) otv_mem_free(cx->al, width, ncol ? ncol : 1);
    if (order) otv_mem_free(cx->al, order, (ncol ? ncol : 1) * sizeof *order);
  }
  if (!st) {
    /* header, region list, data */
    size_t list_size = 4 + (size_t)nregs * kc * 6;
    otv_buf_u16(out, 1);
    otv_buf_u32(out, (uint32_t)hdr);
    otv_buf_u16(out, (uint16_t)dc);
    for (unsigned d = 0; d < dc; d++) otv_buf_u32(out, (uint32_t)(hdr + list_size + doff[d]));
    otv_buf_u16(out, (uint16_t)kc);
    otv_buf_u16(out, (uint16_t)nregs);
    for (unsigned g = 0; g < nregs; g++)
      for (unsigned j = 0; j < kc; j++) {
        otv_buf_u16(out, (uint16_t)regs[g].s[j]);
        otv_buf_u16(out, (uint16_t)regs[g].p[j]);
        otv_buf_u16(out, (uint16_t)regs[g].e[j]);
      }
    otv_buf_bytes(out, data.p, data.len);
    if (out->failed || data.failed) st = OTV_FAIL(cx->err, NOMEM, tag, ivs_off, "store");
    if (out->len - base > 0xFFFFFFFFu)
      st = OTV_FAIL(cx->err, LIMIT, tag, ivs_off, "store past 4 GiB");
  }
  otv_mem_free(cx->al, doff, (dc ? dc : 1) * sizeof *doff);
  goto done;
nomem:
  st = OTV_FAIL(cx->err, NOMEM, tag, ivs_off, "store");
done:
  otv_buf_free(&data);
  if (scal) otv_mem_free(cx->al, scal, (size_t)(rc ? rc : 1) * OTV_MAX_AXES * sizeof *scal);
  if (k) otv_mem_free(cx->al, k, (rc ? rc : 1) * sizeof *k);
  if (kr) otv_mem_free(cx->al, kr, (rc ? rc : 1) * sizeof *kr);
  if (regs) otv_mem_free(cx->al, regs, (rc ? rc : 1) * sizeof *regs);
  if (newreg) otv_mem_free(cx->al, newreg, (rc ? rc : 1) * sizeof *newreg);
  return st;
}

otv_status otv_store_partial(const otv_ictx *cx, otv_span src, otv_buf *b, uint32_t tag,
                             size_t ivs_off, bool may_compact)
{
  otv_ivs ivs;
  memset(&ivs, 0, sizeof ivs);
  otv_status st =
      otv_ivs_parse(cx->al, src, tag, ivs_off, (uint16_t)cx->pin->axis_count, &ivs, cx->err);
  if (st) return st;
  size_t end = store_block_end(src, ivs_off, &ivs);
  if (may_compact && end == src.len && b->len == src.len && ivs_off > 0) {
    b->len = ivs_off; /* the store was the table's tail: written anew */
    st = ivs_compact(cx, b, tag, ivs_off, &ivs);
  } else {
    st = ivs_in_place(cx, src, b->p, tag, ivs_off, ivs);
  }
  otv_ivs_free(cx->al, &ivs);
  return st;
}

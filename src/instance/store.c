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

/* ---- where each region goes: its pinned factors and its pieces in the new space ---- */

typedef struct rplan {
  unsigned rc, kc;
  int *k;          /* per region: pinned factor count, -1: gone */
  double *scal;    /* per region: OTV_MAX_AXES pinned factors */
  uint32_t *first; /* per region: its first piece; rc + 1 entries */
  double *coef;    /* per piece */
  int16_t *reg;    /* per piece: kc x (start, peak, end) */
  size_t pieces, coef_cap, reg_cap;
  bool split; /* some region has more than one piece */
} rplan;

static void rplan_free(const otv_ictx *cx, rplan *rp)
{
  unsigned n = rp->rc ? rp->rc : 1;
  if (rp->k) otv_mem_free(cx->al, rp->k, n * sizeof *rp->k);
  if (rp->scal) otv_mem_free(cx->al, rp->scal, (size_t)n * OTV_MAX_AXES * sizeof *rp->scal);
  if (rp->first) otv_mem_free(cx->al, rp->first, ((size_t)n + 1) * sizeof *rp->first);
  otv_mem_free(cx->al, rp->coef, rp->coef_cap * sizeof *rp->coef);
  otv_mem_free(cx->al, rp->reg, rp->reg_cap * sizeof *rp->reg);
  memset(rp, 0, sizeof *rp);
}

static otv_status rplan_init(const otv_ictx *cx, const otv_ivs *ivs, uint32_t tag, size_t ivs_off,
                             rplan *rp)
{
  memset(rp, 0, sizeof *rp);
  unsigned rc = ivs->region_count, n = rc ? rc : 1, kc = cx->pin->kept_count;
  rp->rc = rc, rp->kc = kc;
  rp->k = otv_mem_alloc(cx->al, n * sizeof *rp->k);
  rp->scal = otv_mem_alloc(cx->al, (size_t)n * OTV_MAX_AXES * sizeof *rp->scal);
  rp->first = otv_mem_alloc(cx->al, ((size_t)n + 1) * sizeof *rp->first);
  otv_piece *pc = otv_mem_alloc(cx->al, OTV_PIECES_MAX * sizeof *pc);
  otv_status st = OTV_E_OK;
  if (!rp->k || !rp->scal || !rp->first || !pc) {
    st = OTV_FAIL(cx->err, NOMEM, tag, ivs_off, "region pieces");
    goto done;
  }
  int16_t s[OTV_MAX_AXES], p[OTV_MAX_AXES], e[OTV_MAX_AXES];
  size_t tri = 3 * (size_t)(kc ? kc : 1);
  for (unsigned r = 0; r < rc; r++) {
    rp->first[r] = (uint32_t)rp->pieces;
    otv_ivs_region(ivs, r, cx->pin->axis_count, s, p, e);
    int np = otv_pin_pieces(cx->pin, s, p, e, rp->scal + (size_t)r * OTV_MAX_AXES, &rp->k[r], pc,
                            OTV_PIECES_MAX);
    if (np == -2) {
      st = OTV_FAIL(cx->err, LIMIT, tag, ivs_off,
                    "region %u: more than %u regions in the new space", r, OTV_PIECES_MAX);
      goto done;
    }
    if (np <= 0) {
      rp->k[r] = -1; /* gone, or folded into the default: its column is zeroed */
      continue;
    }
    if (np > 1) rp->split = true;
    if (otv_mem_reserve(cx->al, (void **)&rp->coef, &rp->coef_cap, rp->pieces + np,
                        sizeof *rp->coef) ||
        otv_mem_reserve(cx->al, (void **)&rp->reg, &rp->reg_cap, (rp->pieces + np) * tri,
                        sizeof *rp->reg)) {
      st = OTV_FAIL(cx->err, NOMEM, tag, ivs_off, "region pieces");
      goto done;
    }
    for (int i = 0; i < np; i++, rp->pieces++) {
      rp->coef[rp->pieces] = pc[i].coef;
      int16_t *g = rp->reg + rp->pieces * tri;
      for (unsigned j = 0; j < kc; j++)
        g[3 * j] = pc[i].s[j], g[3 * j + 1] = pc[i].p[j], g[3 * j + 2] = pc[i].e[j];
    }
  }
  rp->first[rc] = (uint32_t)rp->pieces;
done:
  if (pc) otv_mem_free(cx->al, pc, OTV_PIECES_MAX * sizeof *pc);
  return st;
}

/* A delta of region r scaled for piece i of it (the pinned factors in fontTools' order, then
 * the piece's coefficient, which is 1 without limits). */
static double rplan_scale(const rplan *rp, unsigned r, size_t i, double d)
{
  double v = otv_pin_scale(d, rp->scal + (size_t)r * OTV_MAX_AXES, rp->k[r]);
  double c = rp->coef[i];
  return c == 1 ? v : v * c;
}

static const int16_t *rplan_region(const rplan *rp, size_t i)
{
  return rp->reg + i * 3 * (size_t)(rp->kc ? rp->kc : 1);
}

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

/* In place, each region one piece at most (rp->split false). */
static otv_status ivs_in_place(const otv_ictx *cx, otv_span src, uint8_t *dst, uint32_t tag,
                               size_t ivs_off, otv_ivs ivs, const rplan *rp)
{
  bool overlap;
  otv_status st = ivs_overlaps(cx, src, ivs_off, &ivs, &overlap);
  if (st) return st;
  if (overlap)
    return OTV_FAIL(cx->err, UNSUPPORTED, tag, ivs_off,
                    "ItemVariationStore whose structures overlap (cannot be rewritten in place)");
  unsigned rc = ivs.region_count, sac = ivs.axis_count, kc = cx->pin->kept_count;
  /* the header was read by otv_ivs_parse: format, then the region list offset */
  uint32_t list_off = otv_peek_u32(src.p + ivs_off + 2);
  size_t list_at = ivs_off + list_off;
  if (!rc) {
    /* no regions: nothing varies, but the list must name the new axis count */
    if (list_off && list_at + 2 <= src.len) otv_put_u16(dst + list_at, (uint16_t)kc);
    return OTV_E_OK;
  }
  if (kc > sac)
    return OTV_FAIL(cx->err, UNSUPPORTED, tag, ivs_off, "region list of %u axes, %u kept", sac, kc);
  size_t reg_at = (size_t)(ivs.regions - src.p); /* in range: regions lie inside src */
  /* the new list overwrites the old one in dst, never read from there */
  size_t w = reg_at;
  for (unsigned r = 0; r < rc; r++) {
    const int16_t *g = rp->k[r] >= 0 ? rplan_region(rp, rp->first[r]) : NULL;
    for (unsigned j = 0; j < kc; j++) {
      /* in range: kc <= sac, so the new list is not longer than the old */
      for (unsigned c = 0; c < 3; c++) otv_put_u16(dst + w + 2 * c, g ? (uint16_t)g[3 * j + c] : 0);
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
        if (r < rc && rp->k[r] >= 0 && dv)
          nv = otv_inst_round(rplan_scale(rp, r, rp->first[r], dv));
        if (r >= rc) nv = dv; /* out-of-range region: contributes nothing, kept as it is */
        if (size == 4)
          otv_put_u32(dst + at, (uint32_t)nv);
        else if (size == 2)
          otv_put_u16(dst + at, (uint16_t)(int16_t)(nv < -32768  ? -32768
                                                    : nv > 32767 ? 32767
                                                                 : nv));
        else
          dst[at] = (uint8_t)(int8_t)(nv < -128 ? -128 : nv > 127 ? 127 : nv);
      }
    }
  }
  return OTV_E_OK;
}

/* ---- which items still vary ---- */

struct otv_store_rows {
  const otv_ivs *ivs;
  rplan rp;
  uint32_t *group; /* per piece: its new region, numbered */
  double *acc;     /* per new region: one item's sum */
  uint32_t *touched;
  size_t ngroups, ntouched_cap;
};

otv_status otv_store_rows_init(const otv_ictx *cx, const otv_ivs *ivs, uint32_t tag,
                               otv_store_rows **out)
{
  *out = NULL;
  otv_store_rows *sr = otv_mem_calloc(cx->al, 1, sizeof *sr);
  if (!sr) return OTV_FAIL(cx->err, NOMEM, tag, 0, "store rows");
  sr->ivs = ivs;
  otv_status st = rplan_init(cx, ivs, tag, 0, &sr->rp);
  size_t np = sr->rp.pieces ? sr->rp.pieces : 1, tri = 3 * (size_t)sr->rp.kc;
  if (!st) {
    sr->group = otv_mem_alloc(cx->al, np * sizeof *sr->group);
    sr->acc = otv_mem_calloc(cx->al, np, sizeof *sr->acc);
    sr->touched = otv_mem_alloc(cx->al, np * sizeof *sr->touched);
    if (!sr->group || !sr->acc || !sr->touched) st = OTV_FAIL(cx->err, NOMEM, tag, 0, "store rows");
  }
  /* pieces with the same new region share a group (a column of the rewritten store) */
  for (size_t i = 0; !st && i < sr->rp.pieces; i++) {
    size_t j = 0;
    while (j < i &&
           memcmp(rplan_region(&sr->rp, j), rplan_region(&sr->rp, i), tri * sizeof(int16_t)))
      j++;
    sr->group[i] = j < i ? sr->group[j] : (uint32_t)sr->ngroups++;
  }
  *out = sr;
  if (st) otv_store_rows_free(cx, sr), *out = NULL;
  return st;
}

bool otv_store_row_varies(otv_store_rows *sr, uint32_t outer, uint32_t inner)
{
  const otv_ivs *ivs = sr->ivs;
  const rplan *rp = &sr->rp;
  if (outer >= ivs->data_count || inner >= ivs->data[outer].item_count) return false;
  const otv_ivd *v = &ivs->data[outer];
  const uint8_t *row = v->rows + (size_t)inner * v->row_len; /* in range: parsed */
  size_t nt = 0;
  for (unsigned j = 0; j < v->region_index_count; j++) {
    unsigned r = otv_ivd_region(v, j);
    int32_t d = otv_ivd_delta(v, row, j);
    if (r >= rp->rc || rp->k[r] < 0 || !d) continue;
    for (size_t i = rp->first[r]; i < rp->first[r + 1]; i++) {
      uint32_t g = sr->group[i];
      if (sr->acc[g] == 0) sr->touched[nt++] = g;
      sr->acc[g] += rplan_scale(rp, r, i, d);
      if (sr->acc[g] == 0) sr->acc[g] = 1e-300; /* stays "touched" (listed once) */
    }
  }
  bool varies = false;
  for (size_t t = 0; t < nt; t++) {
    if (otv_inst_round(sr->acc[sr->touched[t]]) != 0) varies = true;
    sr->acc[sr->touched[t]] = 0;
  }
  return varies;
}

void otv_store_rows_free(const otv_ictx *cx, otv_store_rows *sr)
{
  if (!sr) return;
  size_t np = sr->rp.pieces ? sr->rp.pieces : 1;
  if (sr->group) otv_mem_free(cx->al, sr->group, np * sizeof *sr->group);
  if (sr->acc) otv_mem_free(cx->al, sr->acc, np * sizeof *sr->acc);
  if (sr->touched) otv_mem_free(cx->al, sr->touched, np * sizeof *sr->touched);
  rplan_free(cx, &sr->rp);
  otv_mem_free(cx->al, sr, sizeof *sr);
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

static otv_status ivs_compact(const otv_ictx *cx, otv_buf *out, uint32_t tag, size_t ivs_off,
                              const otv_ivs *ivs, const rplan *rp)
{
  unsigned rc = ivs->region_count, kc = cx->pin->kept_count;
  size_t tri = 3 * (size_t)kc, np = rp->pieces ? rp->pieces : 1;
  otv_status st = OTV_E_OK;
  /* per piece: its region in the new list + 1 (0: not used yet); the new list, as piece indexes */
  uint32_t *newreg = otv_mem_calloc(cx->al, np, sizeof *newreg);
  size_t *regs = otv_mem_alloc(cx->al, np * sizeof *regs);
  unsigned nregs = 0;
  otv_buf data;
  otv_buf_init(&data, cx->al);
  size_t base = out->len;
  unsigned dc = ivs->data_count;
  size_t hdr = 8 + 4 * (size_t)dc;
  size_t *doff = otv_mem_alloc(cx->al, (dc ? dc : 1) * sizeof *doff);
  if (!newreg || !regs || !doff) {
    st = OTV_FAIL(cx->err, NOMEM, tag, ivs_off, "store");
    goto done;
  }
  for (unsigned d = 0; d < dc && !st; d++) {
    const otv_ivd *v = &ivs->data[d];
    unsigned nr = v->region_index_count, items = v->item_count;
    /* contributions: (original column, piece) -> compact column; creg: a compact column's
     * piece (whose region it has) */
    size_t ncon = 0;
    for (unsigned j = 0; j < nr; j++) {
      unsigned r = otv_ivd_region(v, j);
      if (r < rc && rp->k[r] >= 0) ncon += rp->first[r + 1] - rp->first[r];
    }
    size_t nc1 = ncon ? ncon : 1, ni1 = items ? items : 1;
    int *cm = otv_mem_alloc(cx->al, nc1 * sizeof *cm);
    size_t *creg = otv_mem_alloc(cx->al, nc1 * sizeof *creg);
    double *m = otv_mem_calloc(cx->al, ni1 * nc1, sizeof *m);
    int32_t *vals = otv_mem_alloc(cx->al, ni1 * nc1 * sizeof *vals);
    uint8_t *width = otv_mem_calloc(cx->al, nc1, 1);
    unsigned *order = otv_mem_alloc(cx->al, nc1 * sizeof *order);
    unsigned ncol = 0;
    if (!cm || !creg || !m || !vals || !width || !order)
      st = OTV_FAIL(cx->err, NOMEM, tag, ivs_off, "store");
    size_t q = 0;
    for (unsigned j = 0; j < nr && !st; j++) {
      unsigned r = otv_ivd_region(v, j);
      if (r >= rc || rp->k[r] < 0) continue;
      for (size_t i = rp->first[r]; i < rp->first[r + 1]; i++, q++) {
        unsigned c = 0;
        while (c < ncol &&
               memcmp(rplan_region(rp, creg[c]), rplan_region(rp, i), tri * sizeof(int16_t)))
          c++;
        if (c == ncol) creg[ncol++] = i;
        cm[q] = (int)c;
      }
    }
    for (unsigned it = 0; it < items && !st; it++) {
      const uint8_t *row = v->rows + (size_t)it * v->row_len; /* in range: parsed */
      q = 0;
      for (unsigned j = 0; j < nr; j++) {
        unsigned r = otv_ivd_region(v, j);
        if (r >= rc || rp->k[r] < 0) continue;
        int32_t dv = otv_ivd_delta(v, row, j);
        for (size_t i = rp->first[r]; i < rp->first[r + 1]; i++, q++)
          if (dv) m[(size_t)it * ncol + (unsigned)cm[q]] += rplan_scale(rp, r, i, dv);
      }
    }
    if (!st) {
      unsigned live = 0, nbig = 0;
      bool lng = false;
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
      for (unsigned o = 0; o < live; o++) {
        size_t i = creg[order[o]];
        if (!newreg[i]) {
          /* a region used for the first time: the same new region may exist already */
          unsigned g = 0;
          while (g < nregs &&
                 memcmp(rplan_region(rp, regs[g]), rplan_region(rp, i), tri * sizeof(int16_t)))
            g++;
          if (g == nregs) regs[nregs++] = i;
          newreg[i] = g + 1;
        }
        otv_buf_u16(&data, (uint16_t)(newreg[i] - 1));
      }
      unsigned bw = lng ? 4 : 2, sw = lng ? 2 : 1;
      for (unsigned it = 0; it < items; it++)
        for (unsigned o = 0; o < live; o++) {
          int32_t x = vals[(size_t)it * ncol + order[o]];
          unsigned w = o < nbig ? bw : sw;
          if (w == 4)
            otv_buf_u32(&data, (uint32_t)x);
          else if (w == 2)
            otv_buf_u16(&data, (uint16_t)(int16_t)x);
          else
            otv_buf_u8(&data, (uint8_t)(int8_t)x);
        }
    }
    if (cm) otv_mem_free(cx->al, cm, nc1 * sizeof *cm);
    if (creg) otv_mem_free(cx->al, creg, nc1 * sizeof *creg);
    if (m) otv_mem_free(cx->al, m, ni1 * nc1 * sizeof *m);
    if (vals) otv_mem_free(cx->al, vals, ni1 * nc1 * sizeof *vals);
    if (width) otv_mem_free(cx->al, width, nc1);
    if (order) otv_mem_free(cx->al, order, nc1 * sizeof *order);
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
    for (unsigned g = 0; g < nregs; g++) {
      const int16_t *reg = rplan_region(rp, regs[g]);
      for (size_t j = 0; j < tri; j++) otv_buf_u16(out, (uint16_t)reg[j]);
    }
    otv_buf_bytes(out, data.p, data.len);
    if (out->failed || data.failed) st = OTV_FAIL(cx->err, NOMEM, tag, ivs_off, "store");
    if (out->len - base > 0xFFFFFFFFu)
      st = OTV_FAIL(cx->err, LIMIT, tag, ivs_off, "store past 4 GiB");
  }
done:
  otv_buf_free(&data);
  if (doff) otv_mem_free(cx->al, doff, (dc ? dc : 1) * sizeof *doff);
  if (newreg) otv_mem_free(cx->al, newreg, np * sizeof *newreg);
  if (regs) otv_mem_free(cx->al, regs, np * sizeof *regs);
  return st;
}

otv_status otv_store_partial(const otv_ictx *cx, otv_span src, otv_buf *b, uint32_t tag,
                             size_t ivs_off, bool may_compact)
{
  return otv_store_partial_at(cx, src, b, tag, ivs_off, may_compact, 0, 0);
}

otv_status otv_store_partial_at(const otv_ictx *cx, otv_span src, otv_buf *b, uint32_t tag,
                                size_t ivs_off, bool may_compact, size_t field_at,
                                unsigned field_size)
{
  otv_ivs ivs;
  memset(&ivs, 0, sizeof ivs);
  otv_status st =
      otv_ivs_parse(cx->al, src, tag, ivs_off, (uint16_t)cx->pin->axis_count, &ivs, cx->err);
  if (st) return st;
  rplan rp;
  if ((st = rplan_init(cx, &ivs, tag, ivs_off, &rp))) goto done;
  size_t end = store_block_end(src, ivs_off, &ivs);
  if (may_compact && end == src.len && b->len == src.len && ivs_off > 0) {
    b->len = ivs_off; /* the store was the table's tail: written anew */
    st = ivs_compact(cx, b, tag, ivs_off, &ivs, &rp);
  } else if (!rp.split) {
    st = ivs_in_place(cx, src, b->p, tag, ivs_off, ivs, &rp);
  } else if (field_size) {
    /* regions split by axis limits need more columns: the store is written anew at the end of
     * the table and the table's offset to it repointed (the old one stays, unused) */
    size_t at = b->len;
    if (field_size == 2 && at > 0xFFFF)
      st = OTV_FAIL(cx->err, LIMIT, tag, ivs_off, "store past the 16-bit offset's reach");
    else if (!(st = ivs_compact(cx, b, tag, ivs_off, &ivs, &rp))) {
      if (field_size == 4)
        otv_put_u32(b->p + field_at, (uint32_t)at);
      else
        otv_put_u16(b->p + field_at, (uint16_t)at);
    }
  } else {
    st =
        OTV_FAIL(cx->err, UNSUPPORTED, tag, ivs_off,
                 "axis limits that split a region of this store (it cannot be rewritten in place)");
  }
done:
  rplan_free(cx, &rp);
  otv_ivs_free(cx->al, &ivs);
  return st;
}

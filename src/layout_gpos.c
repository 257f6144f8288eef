/*
 * layout_gpos.c - GPOS sub-tables for the layout writer (layout_walk.h): value records (deltas
 * of VariationIndex devices added, formats narrowed in static instances), anchors, GDEF caret
 * values and BASE coordinates with their devices. Spec: GPOS, GDEF, BASE, chapter2.
 */
#include "layout_gpos.h"

#include <stdlib.h>

/* ---- value records (spec: GPOS "Value record") ---- */

typedef struct vrec {
  int v[4];      /* XPlacement, YPlacement, XAdvance, YAdvance with their deltas added */
  unsigned d[4]; /* the devices kept (offsets from the record's base; 0: none) */
} vrec;

static unsigned vr_size(unsigned fmt)
{
  unsigned n = 0;
  for (unsigned b = 0; b < 8; b++) n += (fmt >> b) & 1;
  return 2 * n;
}

/* A device field of a record: its delta added to value k (VariationIndex tables; dropped from
 * a static instance), a Device table kept, other formats ignored. */
static OTV_ALWAYS_INLINE void vr_device(otv_lw *w, size_t base, unsigned off, unsigned k, vrec *r)
{
  int delta;
  switch (otv_lw_dev(w, base, off, &delta)) {
  case DEV_VAR:
    r->v[k] = clamp16((long)r->v[k] + delta);
    r->d[k] = off;
    break;
  case DEV_FIXED: r->v[k] = clamp16((long)r->v[k] + delta); break;
  case DEV_HINT: r->d[k] = off; break;
  default: break;
  }
}

/* The record at `at` (its vr_size(fmt) bytes checked by the caller); devices from `base`. The
 * fields come in the order of their bits: the values (bits 0-3), then the devices (4-7). */
static OTV_ALWAYS_INLINE void vr_decode(otv_lw *w, size_t at, unsigned fmt, size_t base, vrec *r)
{
  const uint8_t *p = w->t.p + at;
  unsigned vals = fmt & 0x0Fu, devs = fmt >> 4 & 0x0Fu;
  for (unsigned k = 0; k < 4; k++) r->v[k] = 0, r->d[k] = 0;
  for (unsigned k = 0; vals; k++, vals >>= 1)
    if (vals & 1) r->v[k] = otv_peek_i16(p), p += 2;
  for (unsigned k = 0; devs; k++, devs >>= 1) {
    if (!(devs & 1)) continue;
    unsigned off = otv_peek_u16(p);
    p += 2;
    if (off) vr_device(w, base, off, k, r);
  }
}

/* The ValueFormat written for a sub-table read with `in` whose records need `needed`. Static
 * instances: just the fields needed; a valueFormat2 (or SinglePos format) that was not 0 stays
 * not 0 (a PairPos valueFormat2 of 0 changes which glyph the next pair starts at). Otherwise
 * the fields read, plus the values that deltas made non-zero. */
static unsigned vr_format(const otv_lw *w, unsigned in, unsigned needed, bool keep_nonzero)
{
  in &= VALUE_FORMAT_FIELDS;
  if (!w->xf->static_instance) return (in & 0x0Fu) | needed; /* devices: those still kept */
  if (needed || !in || !keep_nonzero) return needed;
  unsigned v = (in | in >> 4) & 0x0Fu;
  return v & (0u - v); /* its lowest value field */
}

static void vr_write(otv_lw *w, otv_buf *b, const vrec *r, unsigned fmt, size_t base)
{
  unsigned vals = fmt & 0x0Fu, devs = fmt >> 4 & 0x0Fu;
  for (unsigned k = 0; vals; k++, vals >>= 1)
    if (vals & 1) otv_buf_u16(b, (uint16_t)r->v[k]);
  for (unsigned k = 0; devs; k++, devs >>= 1)
    if (devs & 1) otv_lw_off16(w, b, r->d[k] ? otv_lw_child_at(w, base + r->d[k], K_DEVICE, 0) : 0);
}

/* Whether a writer keeps the device at `off` from `base`: a Device table (hinting) always, a
 * VariationIndex table in a partial instance (an offset out of range fails the table). */
static bool vr_device_kept(otv_lw *w, size_t base, unsigned off)
{
  int delta;
  unsigned kind = otv_lw_dev(w, base, off, &delta);
  return kind == DEV_HINT || kind == DEV_VAR;
}

/* Where each field of a ValueFormat is in its record, worked out once per sub-table: by field
 * (v, d: byte offset, -1 absent), and as lists of the fields present (the values: index k and
 * offset, then the devices). */
typedef struct vr_plan {
  int8_t v[4], d[4];
  uint8_t nv, nd;
  uint8_t vk[4], vo[4], dk[4], dof[4];
} vr_plan;

static vr_plan vr_plan_of(unsigned fmt)
{
  vr_plan q;
  uint8_t at = 0;
  q.nv = q.nd = 0;
  for (unsigned b = 0; b < 8; b++) {
    bool has = fmt & 1u << b;
    if (b < 4)
      q.v[b] = has ? (int8_t)at : -1;
    else
      q.d[b - 4] = has ? (int8_t)at : -1;
    if (!has) continue;
    if (b < 4)
      q.vk[q.nv] = (uint8_t)b, q.vo[q.nv++] = at;
    else
      q.dk[q.nd] = (uint8_t)(b - 4), q.dof[q.nd++] = at;
    at = (uint8_t)(at + 2);
  }
  return q;
}

/* The fields a record at p (plan q) needs, from its raw bytes (no delta looked up): a value
 * field when its value or its device is not 0 (a delta may land there), a device field when
 * its device is kept. A superset of what the values at the instance need (a zero value whose
 * device adds 0 keeps its field), so the formats written from it hold every record. */
static OTV_ALWAYS_INLINE unsigned vr_raw_needed(otv_lw *w, const uint8_t *p, const vr_plan *q,
                                                size_t base)
{
  unsigned m = 0;
  for (unsigned i = 0; i < q->nv; i++)
    if (otv_peek_u16(p + q->vo[i])) m |= 1u << q->vk[i];
  for (unsigned i = 0; i < q->nd; i++) {
    unsigned off = otv_peek_u16(p + q->dof[i]), k = q->dk[i];
    if (off) m |= (1u << k) | (vr_device_kept(w, base, off) ? 0x10u << k : 0);
  }
  return m;
}

/* Records of two formats: what each needs, over n records of rs bytes from `at` (checked by
 * the caller; `skip` bytes before each record's values). */
static void vr_scan(otv_lw *w, size_t at, size_t n, size_t rs, size_t skip, unsigned f1,
                    unsigned f2, size_t base, unsigned *need1, unsigned *need2)
{
  size_t s1 = vr_size(f1);
  w->work += n * rs; /* the records are decoded again when written: counted here too */
  if (w->work > w->budget) {
    otv_lw_fail(w, OTV_E_LIMIT, at, "layout work budget exceeded (shared sub-tables fan out)");
    return;
  }
  const uint8_t *rec = w->t.p + at + skip;
  vr_plan q1 = vr_plan_of(f1), q2 = vr_plan_of(f2);
  unsigned n1 = 0, n2 = 0;
  for (size_t i = 0; i < n; i++, rec += rs) {
    n1 |= vr_raw_needed(w, rec, &q1, base);
    if (f2) n2 |= vr_raw_needed(w, rec + s1, &q2, base);
  }
  *need1 |= n1, *need2 |= n2;
}

/* The values of the record at p (read with positions `in`, devices from `base`) that format
 * `out` holds, written at q (reserved); out has no device field (a static instance whose
 * sub-table keeps no Device table). Returns the end. The hot path of class matrices and
 * PairSets: a VariationIndex delta comes from the cache when seen before. */
static OTV_ALWAYS_INLINE uint8_t *vr_put_fast(otv_lw *w, uint8_t *q, const uint8_t *p,
                                              const vr_plan *in, unsigned out, size_t base,
                                              unsigned *seen, bool *hint)
{
  for (unsigned k = 0; out; k++, out >>= 1) {
    if (!(out & 1)) continue;
    long v = in->v[k] >= 0 ? otv_peek_i16(p + in->v[k]) : 0;
    bool any = v != 0;
    if (in->d[k] >= 0) {
      unsigned off = otv_peek_u16(p + in->d[k]);
      int delta = 0;
      if (off) {
        unsigned kind = otv_lw_dev(w, base, off, &delta);
        if (kind != DEV_VAR && kind != DEV_FIXED) *hint |= kind == DEV_HINT, delta = 0;
        any = true;
      }
      v += delta;
    }
    *seen |= (unsigned)any << k;
    otv_put_u16(q, (uint16_t)clamp16(v));
    q += 2;
  }
  return q;
}

/* ---- anchors, carets, base coordinates: a coordinate or two and their devices ---- */

/* Anchor format 3, CaretValue format 3, BaseCoord format 3: `fmt3` at `at`, ncoords
 * coordinates (at + 2), then `extra` bytes copied, then ncoords device offsets; written as
 * `fmt1` (just format and coordinates) when no device is left. */
static otv_obj with_devices(otv_lw *w, size_t at, unsigned ncoords, unsigned fmt1, unsigned kind)
{
  size_t devs = at + 2 + 2 * (size_t)ncoords;
  if (!otv_lw_need(w, at, 2 + 4 * (size_t)ncoords, kind)) return OTV_OBJ_NONE;
  int v[2];
  unsigned d[2];
  bool any = false;
  for (unsigned k = 0; k < ncoords; k++) {
    int delta;
    v[k] = (int16_t)u16(w, at + 2 + 2 * k);
    d[k] = u16(w, devs + 2 * k);
    switch (otv_lw_device_kind(w, at, d[k], &delta)) {
    case DEV_VAR: v[k] = clamp16((long)v[k] + delta); break;
    case DEV_FIXED:
      v[k] = clamp16((long)v[k] + delta);
      d[k] = 0;
      break;
    case DEV_HINT: break;
    default: d[k] = 0; break;
    }
    any |= d[k] != 0;
  }
  otv_buf *b = otv_lw_open(w);
  if (!b) return OTV_OBJ_NONE;
  otv_buf_u16(b, (uint16_t)(any ? u16(w, at) : fmt1));
  for (unsigned k = 0; k < ncoords; k++) otv_buf_u16(b, (uint16_t)v[k]);
  if (any)
    for (unsigned k = 0; k < ncoords; k++)
      otv_lw_off16(w, b, d[k] ? otv_lw_child_at(w, at + d[k], K_DEVICE, 0) : 0);
  return otv_lw_close(w, b);
}

/* spec: Anchor formats 1 (x, y), 2 (+ anchorPoint), 3 (+ xDevice, yDevice). */
otv_obj otv_lw_anchor(otv_lw *w, size_t at)
{
  if (!otv_lw_need(w, at, 6, K_ANCHOR)) return OTV_OBJ_NONE;
  switch (u16(w, at)) {
  case 1: return otv_lw_leaf(w, at, 6, K_ANCHOR);
  case 2: return otv_lw_leaf(w, at, 8, K_ANCHOR);
  case 3: return with_devices(w, at, 2, 1, K_ANCHOR);
  default: return otv_lw_fail(w, OTV_E_BAD_VALUE, at, "Anchor of an unknown format");
  }
}

/* spec: CaretValue formats 1 (coordinate), 2 (caretValuePointIndex), 3 (+ device); BaseCoord
 * formats 1 (coordinate), 2 (+ referenceGlyph, baseCoordPoint), 3 (+ device). */
otv_obj otv_lw_caret_or_coord(otv_lw *w, size_t at, unsigned kind)
{
  if (!otv_lw_need(w, at, 4, kind)) return OTV_OBJ_NONE;
  switch (u16(w, at)) {
  case 1: return otv_lw_leaf(w, at, 4, kind);
  case 2: return otv_lw_leaf(w, at, kind == K_BASE_COORD ? 8 : 4, kind);
  case 3: return with_devices(w, at, 1, 1, kind);
  default:
    return otv_lw_fail(w, OTV_E_BAD_VALUE, at, "CaretValue or BaseCoord of an unknown format");
  }
}

/* ---- GPOS sub-tables ---- */

/* SinglePos formats 1 and 2. */
otv_obj otv_lw_single_pos(otv_lw *w, size_t at, unsigned fmt)
{
  if (!otv_lw_need(w, at, 6, K_SUBTABLE)) return OTV_OBJ_NONE;
  unsigned vf = u16(w, at + 4) & VALUE_FORMAT_FIELDS;
  size_t s = vr_size(vf), n = 1, recs = at + 6;
  if (fmt == 2) {
    if (!otv_lw_need(w, at, 8, K_SUBTABLE)) return OTV_OBJ_NONE;
    n = u16(w, at + 6), recs = at + 8;
  }
  if (!otv_lw_need_array(w, recs, n, s, K_SUBTABLE)) return OTV_OBJ_NONE;
  unsigned need1 = 0, unused = 0;
  vr_scan(w, recs, n, s, 0, vf, 0, at, &need1, &unused);
  unsigned out = vr_format(w, vf, need1, true);
  otv_buf *b = otv_lw_open(w);
  if (!b) return OTV_OBJ_NONE;
  otv_buf_u16(b, (uint16_t)fmt);
  otv_lw_off16(w, b, otv_lw_child(w, at, u16(w, at + 2), K_COVERAGE, 0));
  otv_buf_u16(b, (uint16_t)out);
  if (fmt == 2) otv_buf_u16(b, (uint16_t)n);
  for (size_t i = 0; i < n && !w->st; i++) {
    vrec r;
    vr_decode(w, recs + i * s, vf, at, &r);
    vr_write(w, b, &r, out, at);
  }
  return otv_lw_close(w, b);
}

/* A PairSet's context: its formats as read and as written. */
static uint64_t pair_ctx(unsigned f1, unsigned f2, unsigned o1, unsigned o2)
{
  return (uint64_t)f1 | (uint64_t)f2 << 8 | (uint64_t)o1 << 16 | (uint64_t)o2 << 24;
}

static bool pair_set_extent(otv_lw *w, size_t ps, unsigned f1, unsigned f2, size_t *n)
{
  if (!otv_lw_need(w, ps, 2, K_PAIR_SET)) return false;
  *n = u16(w, ps);
  return otv_lw_need_array(w, ps + 2, *n, 2 + (size_t)vr_size(f1) + vr_size(f2), K_PAIR_SET);
}

/* spec: PairSet (pairValueCount, PairValueRecord {secondGlyph, valueRecord1, valueRecord2});
 * device offsets from the PairSet. */
otv_obj otv_lw_pair_set(otv_lw *w, size_t ps, uint64_t ctx)
{
  unsigned f1 = ctx & 0xFF, f2 = ctx >> 8 & 0xFF, o1 = ctx >> 16 & 0xFF, o2 = ctx >> 24 & 0xFF;
  size_t n, s1 = vr_size(f1), rs = 2 + s1 + vr_size(f2);
  if (!pair_set_extent(w, ps, f1, f2, &n)) return OTV_OBJ_NONE;
  otv_buf *b = otv_lw_open(w);
  if (!b) return OTV_OBJ_NONE;
  otv_buf_u16(b, (uint16_t)n);
  size_t out_rs = 2 + vr_size(o1) + vr_size(o2);
  if (w->xf->static_instance && !((o1 | o2) & 0xF0u) && otv_buf_reserve(b, n * out_rs)) {
    /* values only: written straight into reserved bytes (pair_pos chose the formats) */
    vr_plan pos1 = vr_plan_of(f1), pos2 = vr_plan_of(f2);
    uint8_t *q = b->p + b->len;
    const uint8_t *p = w->t.p + ps + 2;
    unsigned seen[2] = {0, 0};
    bool hint = false;
    for (size_t i = 0; i < n; i++, p += rs) {
      q[0] = p[0], q[1] = p[1], q += 2; /* secondGlyph */
      q = vr_put_fast(w, q, p + 2, &pos1, o1, ps, &seen[0], &hint);
      q = vr_put_fast(w, q, p + 2 + s1, &pos2, o2, ps, &seen[1], &hint);
    }
    b->len = (size_t)(q - b->p);
    return otv_lw_close(w, b);
  }
  for (size_t i = 0; i < n && !w->st; i++) {
    size_t rec = ps + 2 + i * rs;
    vrec r;
    copy(w, b, rec, 2);
    vr_decode(w, rec + 2, f1, ps, &r);
    vr_write(w, b, &r, o1, ps);
    vr_decode(w, rec + 2 + s1, f2, ps, &r);
    vr_write(w, b, &r, o2, ps);
  }
  return otv_lw_close(w, b);
}

otv_obj otv_lw_pair_pos(otv_lw *w, size_t at, unsigned fmt)
{
  if (!otv_lw_need(w, at, 10, K_SUBTABLE)) return OTV_OBJ_NONE;
  unsigned f1 = u16(w, at + 4) & VALUE_FORMAT_FIELDS, f2 = u16(w, at + 6) & VALUE_FORMAT_FIELDS;
  size_t s1 = vr_size(f1), s2 = vr_size(f2);
  unsigned n1 = 0, n2 = 0;
  if (fmt == 1) {
    size_t n = u16(w, at + 8);
    if (!otv_lw_need_array(w, at + 10, n, 2, K_SUBTABLE)) return OTV_OBJ_NONE;
    for (size_t i = 0; i < n && !w->st; i++) {
      size_t off = u16(w, at + 10 + 2 * i), cnt;
      if (!off) continue;
      if (off >= w->t.len - at) return otv_lw_need(w, w->t.len, 1, K_PAIR_SET), OTV_OBJ_NONE;
      if (pair_set_extent(w, at + off, f1, f2, &cnt))
        vr_scan(w, at + off + 2, cnt, 2 + s1 + s2, 2, f1, f2, at + off, &n1, &n2);
    }
    unsigned o1 = vr_format(w, f1, n1, false), o2 = vr_format(w, f2, n2, true);
    otv_buf *b = otv_lw_open(w);
    if (!b) return OTV_OBJ_NONE;
    otv_buf_u16(b, 1);
    otv_lw_off16(w, b, otv_lw_child(w, at, u16(w, at + 2), K_COVERAGE, 0));
    otv_buf_u16(b, (uint16_t)o1);
    otv_buf_u16(b, (uint16_t)o2);
    otv_buf_u16(b, (uint16_t)n);
    otv_lw_off16_array(w, b, at, at + 10, n, K_PAIR_SET, pair_ctx(f1, f2, o1, o2));
    return otv_lw_close(w, b);
  }
  /* format 2: class1Count x class2Count records {valueRecord1, valueRecord2}, devices from the
   * sub-table */
  if (!otv_lw_need(w, at, 16, K_SUBTABLE)) return OTV_OBJ_NONE;
  size_t c1 = u16(w, at + 12), c2 = u16(w, at + 14), rs = s1 + s2, n = c1 * c2;
  if (!otv_lw_need_array(w, at + 16, n, rs, K_SUBTABLE)) return OTV_OBJ_NONE;
  if (rs) vr_scan(w, at + 16, n, rs, 0, f1, f2, at, &n1, &n2);
  unsigned o1 = vr_format(w, f1, n1, false), o2 = vr_format(w, f2, n2, true);
  otv_buf *b = otv_lw_open(w);
  if (!b) return OTV_OBJ_NONE;
  otv_buf_u16(b, 2);
  otv_lw_off16(w, b, otv_lw_child(w, at, u16(w, at + 2), K_COVERAGE, 0));
  otv_buf_u16(b, (uint16_t)o1);
  otv_buf_u16(b, (uint16_t)o2);
  otv_lw_off16(w, b, otv_lw_child(w, at, u16(w, at + 8), K_CLASS_DEF, 0));
  otv_lw_off16(w, b, otv_lw_child(w, at, u16(w, at + 10), K_CLASS_DEF, 0));
  otv_buf_u16(b, (uint16_t)c1);
  otv_buf_u16(b, (uint16_t)c2);
  /* no field read: none written either (o1 = o2 = 0), and the records are empty */
  for (size_t i = 0; rs && i < n && !w->st; i++) {
    vrec r;
    vr_decode(w, at + 16 + i * rs, f1, at, &r);
    vr_write(w, b, &r, o1, at);
    vr_decode(w, at + 16 + i * rs + s1, f2, at, &r);
    vr_write(w, b, &r, o2, at);
  }
  return otv_lw_close(w, b);
}

/* spec: CursivePos format 1 (coverage, entryExitCount, {entryAnchor, exitAnchor}). */
otv_obj otv_lw_cursive_pos(otv_lw *w, size_t at)
{
  if (!otv_lw_need(w, at, 6, K_SUBTABLE)) return OTV_OBJ_NONE;
  size_t n = u16(w, at + 4);
  if (!otv_lw_need_array(w, at + 6, n, 4, K_SUBTABLE)) return OTV_OBJ_NONE;
  otv_buf *b = otv_lw_open(w);
  if (!b) return OTV_OBJ_NONE;
  otv_buf_u16(b, 1);
  otv_lw_off16(w, b, otv_lw_child(w, at, u16(w, at + 2), K_COVERAGE, 0));
  otv_buf_u16(b, (uint16_t)n);
  otv_lw_off16_array(w, b, at, at + 6, 2 * n, K_ANCHOR, 0);
  return otv_lw_close(w, b);
}

/* spec: MarkBasePos, MarkLigPos, MarkMarkPos format 1 (two coverages, markClassCount,
 * MarkArray, BaseArray / LigatureArray / Mark2Array). */
otv_obj otv_lw_mark_pos(otv_lw *w, size_t at, unsigned type)
{
  if (!otv_lw_need(w, at, 12, K_SUBTABLE)) return OTV_OBJ_NONE;
  unsigned classes = u16(w, at + 6);
  otv_buf *b = otv_lw_open(w);
  if (!b) return OTV_OBJ_NONE;
  otv_buf_u16(b, 1);
  otv_lw_off16(w, b, otv_lw_child(w, at, u16(w, at + 2), K_COVERAGE, 0));
  otv_lw_off16(w, b, otv_lw_child(w, at, u16(w, at + 4), K_COVERAGE, 0));
  otv_buf_u16(b, (uint16_t)classes);
  otv_lw_off16(w, b, otv_lw_child(w, at, u16(w, at + 8), K_MARK_ARRAY, 0));
  otv_lw_off16(w, b,
               otv_lw_child(w, at, u16(w, at + 10),
                            type == GPOS_MARK_TO_LIGATURE ? K_LIGATURE_ARRAY : K_ANCHOR_MATRIX,
                            classes));
  return otv_lw_close(w, b);
}

/* spec: MarkArray (markCount, {markClass, markAnchorOffset}). */
otv_obj otv_lw_mark_array(otv_lw *w, size_t at)
{
  if (!otv_lw_need(w, at, 2, K_MARK_ARRAY)) return OTV_OBJ_NONE;
  size_t n = u16(w, at);
  if (!otv_lw_need_array(w, at + 2, n, 4, K_MARK_ARRAY)) return OTV_OBJ_NONE;
  otv_buf *b = otv_lw_open(w);
  if (!b) return OTV_OBJ_NONE;
  otv_buf_u16(b, (uint16_t)n);
  for (size_t i = 0; i < n && !w->st; i++) {
    copy(w, b, at + 2 + 4 * i, 2);
    otv_lw_off16(w, b, otv_lw_child(w, at, u16(w, at + 4 + 4 * i), K_ANCHOR, 0));
  }
  return otv_lw_close(w, b);
}

/* BaseArray, Mark2Array, LigatureAttach: count rows of `per` anchor offsets. */
otv_obj otv_lw_anchor_matrix(otv_lw *w, size_t at, uint64_t per)
{
  if (!otv_lw_need(w, at, 2, K_ANCHOR_MATRIX)) return OTV_OBJ_NONE;
  size_t rows = u16(w, at), n = rows * (size_t)per;
  if (!otv_lw_need_array(w, at + 2, n, 2, K_ANCHOR_MATRIX)) return OTV_OBJ_NONE;
  otv_buf *b = otv_lw_open(w);
  if (!b) return OTV_OBJ_NONE;
  otv_buf_u16(b, (uint16_t)rows);
  otv_lw_off16_array(w, b, at, at + 2, n, K_ANCHOR, 0);
  return otv_lw_close(w, b);
}

/* ---- class-pair sub-tables merged (static instances) ----
 * fontTools' instancer merges the PairPos format 2 sub-tables of a lookup and splits the result
 * again where 16-bit offsets require; fewer sub-tables mean fewer copies of the ClassDef2 they
 * share and fewer, denser Coverage and ClassDef1 tables. Here: a run of consecutive format 2
 * sub-tables with the same value formats, class2Count and ClassDef2 becomes one class matrix
 * whose rows are (sub-table, class1) pairs; a first glyph takes the row of the first sub-table
 * that covers it (as a client finds it: the first sub-table covering the glyph applies), then
 * the rows are cut into sub-tables greedily, each as large as its offsets allow. */

typedef struct pm_glyph {
  uint16_t gid;
  uint32_t row;
} pm_glyph;

typedef struct pm_row {
  size_t st;      /* its sub-table (absolute; devices are from there) */
  size_t at;      /* the row's first record (absolute) */
  uint32_t count; /* glyphs in it */
  uint32_t local; /* its class in its output sub-table */
  uint32_t devs;  /* bytes of the distinct device tables its records keep */
} pm_row;

typedef struct pm {
  pm_glyph *g;
  size_t ng, gcap;
  pm_row *r;
  size_t nr, rcap;
  uint32_t *row_of; /* per source class of the sub-table being read: row + 1 (0: none yet) */
  size_t row_of_cap;
  uint8_t seen[65536 / 8]; /* first glyphs taken by an earlier sub-table */
} pm;

/* The class of glyph g in the ClassDef at `cd` (0: not listed; checked extents). */
static unsigned class_of(otv_lw *w, size_t cd, unsigned g)
{
  if (!cd || !otv_lw_need(w, cd, 4, K_CLASS_DEF)) return 0;
  unsigned fmt = u16(w, cd);
  if (fmt == 1) {
    if (!otv_lw_need(w, cd, 6, K_CLASS_DEF)) return 0;
    unsigned start = u16(w, cd + 2), n = u16(w, cd + 4);
    if (!otv_lw_need_array(w, cd + 6, n, 2, K_CLASS_DEF)) return 0;
    return g >= start && g - start < n ? u16(w, cd + 6 + 2 * (size_t)(g - start)) : 0;
  }
  if (fmt != 2) return 0;
  size_t n = u16(w, cd + 2), lo = 0, hi = n;
  if (!otv_lw_need_array(w, cd + 4, n, 6, K_CLASS_DEF)) return 0;
  while (lo < hi) { /* ranges sorted by start glyph (spec) */
    size_t mid = (lo + hi) / 2, rec = cd + 4 + 6 * mid;
    if (g < u16(w, rec))
      hi = mid;
    else if (g > u16(w, rec + 2))
      lo = mid + 1;
    else
      return u16(w, rec + 4);
  }
  return 0;
}

/* Two sub-tables (absolute) that can share a class matrix. */
bool otv_lw_pair_mergeable(otv_lw *w, size_t a, size_t b)
{
  if (!a || !b || !otv_lw_need(w, a, 16, K_SUBTABLE) || !otv_lw_need(w, b, 16, K_SUBTABLE))
    return false;
  if (u16(w, a) != 2 || u16(w, b) != 2) return false;
  if (((u16(w, a + 4) ^ u16(w, b + 4)) | (u16(w, a + 6) ^ u16(w, b + 6))) & VALUE_FORMAT_FIELDS)
    return false;
  if (u16(w, a + 14) != u16(w, b + 14)) return false;
  /* the same ClassDef2 content: the same object once deduplicated */
  otv_obj ca = otv_lw_child(w, a, u16(w, a + 10), K_CLASS_DEF, 0);
  otv_obj cb = otv_lw_child(w, b, u16(w, b + 10), K_CLASS_DEF, 0);
  return ca && ca == cb;
}

static bool pm_add_glyph(otv_lw *w, pm *m, size_t st, unsigned g, unsigned c1, unsigned c2,
                         size_t rs)
{
  if (m->seen[g >> 3] & (1u << (g & 7))) return true;
  m->seen[g >> 3] |= (uint8_t)(1u << (g & 7));
  if (!m->row_of[c1]) {
    if (OTV_RESERVE(w->al, &m->r, &m->rcap, m->nr + 1, sizeof *m->r)) return false;
    m->r[m->nr] = (pm_row){st, st + 16 + (size_t)c1 * c2 * rs, 0, 0, 0};
    m->row_of[c1] = (uint32_t)++m->nr;
  }
  if (OTV_RESERVE(w->al, &m->g, &m->gcap, m->ng + 1, sizeof *m->g)) return false;
  m->g[m->ng++] = (pm_glyph){(uint16_t)g, m->row_of[c1] - 1};
  m->r[m->row_of[c1] - 1].count++;
  return true;
}

/* The first glyphs of sub-table `st` not taken before, each with its row. */
static bool pm_read(otv_lw *w, pm *m, size_t st, unsigned c2, size_t rs)
{
  size_t c1 = u16(w, st + 12), cov = u16(w, st + 2), cd1 = u16(w, st + 8);
  if (!otv_lw_need_array(w, st + 16, c1 * c2, rs, K_SUBTABLE)) return false;
  if (!cov || cov >= w->t.len - st) return otv_lw_need(w, w->t.len, 1, K_COVERAGE), false;
  cov += st;
  cd1 = cd1 && cd1 < w->t.len - st ? st + cd1 : 0;
  if (OTV_RESERVE(w->al, &m->row_of, &m->row_of_cap, c1 + 1, sizeof *m->row_of)) return false;
  memset(m->row_of, 0, (c1 + 1) * sizeof *m->row_of);
  if (!otv_lw_need(w, cov, 4, K_COVERAGE)) return false;
  unsigned fmt = u16(w, cov);
  size_t n = u16(w, cov + 2);
  if (fmt != 1 && fmt != 2) return otv_lw_fail(w, OTV_E_BAD_VALUE, cov, "Coverage format"), false;
  if (!otv_lw_need_array(w, cov + 4, n, fmt == 1 ? 2 : 6, K_COVERAGE)) return false;
  for (size_t i = 0; i < n && !w->st; i++) {
    unsigned lo = u16(w, cov + 4 + (fmt == 1 ? 2 : 6) * i),
             hi = fmt == 1 ? lo : u16(w, cov + 6 + 6 * i);
    w->work += hi >= lo ? hi - lo + 1u : 0u;
    if (w->work > w->budget)
      return otv_lw_fail(w, OTV_E_LIMIT, cov, "layout work budget exceeded"), false;
    for (unsigned g = lo; g <= hi && g <= 0xFFFF; g++) {
      unsigned c = class_of(w, cd1, g);
      /* a class past class1Count: the sub-table does not apply to the glyph (a later one may) */
      if (c < c1 && !pm_add_glyph(w, m, st, g, c, c2, rs))
        return otv_lw_fail(w, OTV_E_NOMEM, st, "class-pair merge"), false;
      if (g == 0xFFFF) break;
    }
  }
  return !w->st;
}

static int pm_cmp_gid(const void *a, const void *b)
{
  const pm_glyph *x = a, *y = b;
  return (x->gid > y->gid) - (x->gid < y->gid);
}

/* The glyphs of one output sub-table, in glyph order, with their classes there. */
typedef struct pm_out {
  uint16_t *gid, *cls;
  size_t n;
} pm_out;

/* Coverage of o's glyphs, in the smaller format (spec: Coverage formats 1 and 2). */
static otv_obj pm_coverage(otv_lw *w, const pm_out *o)
{
  size_t ranges = 0;
  for (size_t i = 0; i < o->n; i++) ranges += !i || o->gid[i] != o->gid[i - 1] + 1;
  otv_buf *b = otv_lw_open(w);
  if (!b) return OTV_OBJ_NONE;
  if (6 * ranges < 2 * o->n) {
    otv_buf_u16(b, 2);
    otv_buf_u16(b, (uint16_t)ranges);
    for (size_t i = 0, j; i < o->n; i = j) {
      for (j = i + 1; j < o->n && o->gid[j] == o->gid[j - 1] + 1;) j++;
      otv_buf_u16(b, o->gid[i]);
      otv_buf_u16(b, o->gid[j - 1]);
      otv_buf_u16(b, (uint16_t)i); /* startCoverageIndex */
    }
  } else {
    otv_buf_u16(b, 1);
    otv_buf_u16(b, (uint16_t)o->n);
    for (size_t i = 0; i < o->n; i++) otv_buf_u16(b, o->gid[i]);
  }
  return otv_lw_close(w, b);
}

/* ClassDef of o's glyphs with a class other than 0, in the smaller format (spec: ClassDef
 * formats 1 and 2). */
static otv_obj pm_class_def(otv_lw *w, const pm_out *o)
{
  size_t first = SIZE_MAX, last = 0, ranges = 0;
  for (size_t i = 0; i < o->n; i++) {
    if (!o->cls[i]) continue;
    if (first == SIZE_MAX)
      first = i, ranges = 1;
    else if (o->gid[i] != o->gid[last] + 1 || o->cls[i] != o->cls[last])
      ranges++;
    last = i;
  }
  otv_buf *b = otv_lw_open(w);
  if (!b) return OTV_OBJ_NONE;
  size_t span = first == SIZE_MAX ? 0 : (size_t)o->gid[last] - o->gid[first] + 1;
  if (first == SIZE_MAX || 4 + 6 * ranges <= 6 + 2 * span) {
    otv_buf_u16(b, 2);
    otv_buf_u16(b, (uint16_t)ranges);
    for (size_t i = first; first != SIZE_MAX && i <= last;) {
      size_t j = i + 1;
      while (j <= last && o->cls[j] && o->gid[j] == o->gid[j - 1] + 1 && o->cls[j] == o->cls[i])
        j++;
      otv_buf_u16(b, o->gid[i]);
      otv_buf_u16(b, o->gid[j - 1]);
      otv_buf_u16(b, o->cls[i]);
      for (i = j; i <= last && !o->cls[i];) i++;
    }
  } else {
    otv_buf_u16(b, 1);
    otv_buf_u16(b, o->gid[first]);
    otv_buf_u16(b, (uint16_t)span);
    size_t k = first;
    for (size_t g = o->gid[first]; g <= o->gid[last]; g++) {
      while (k <= last && o->gid[k] < g) k++;
      otv_buf_u16(b, k <= last && o->gid[k] == g ? o->cls[k] : 0);
    }
  }
  return otv_lw_close(w, b);
}

static int cmp_size(const void *a, const void *b)
{
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  return (x > y) - (x < y);
}

/* row->devs: the bytes of the distinct device tables the row's records keep (they are the
 * sub-table's children too, within reach of its offsets). */
static void pm_row_devices(otv_lw *w, pm_row *row, size_t c2, size_t rs, unsigned f1, unsigned f2)
{
  size_t cap = 8 * c2, n = 0, s1 = vr_size(f1);
  size_t *v = cap ? otv_mem_alloc(w->al, cap * sizeof *v) : NULL;
  if (cap && !v) {
    otv_lw_fail(w, OTV_E_NOMEM, row->at, "class-pair merge");
    return;
  }
  for (size_t c = 0; c < c2; c++)
    for (unsigned half = 0; half < 2; half++) {
      vrec r;
      vr_decode(w, row->at + c * rs + (half ? s1 : 0), half ? f2 : f1, row->st, &r);
      for (unsigned k = 0; k < 4; k++)
        if (r.d[k]) v[n++] = row->st + r.d[k];
    }
  if (n) qsort(v, n, sizeof *v, cmp_size);
  size_t bytes = 0;
  for (size_t i = 0; i < n; i++) {
    if (i && v[i] == v[i - 1]) continue;
    bytes += otv_lw_device_len(w, v[i]); /* header checked by otv_lw_device_kind */
  }
  row->devs = (uint32_t)(bytes < UINT32_MAX ? bytes : UINT32_MAX);
  if (v) otv_mem_free(w->al, v, cap * sizeof *v);
}

/* The row of [r0, r1) with the most glyphs: it becomes class 0 (its glyphs need no ClassDef1
 * entry). */
static size_t pm_zero_row(const pm *m, size_t r0, size_t r1)
{
  size_t zero = r0;
  for (size_t r = r0; r < r1; r++)
    if (m->r[r].count > m->r[zero].count) zero = r;
  return zero;
}

/* The bytes of the Coverage and ClassDef1 that rows [r0, r1) would get (as pm_coverage and
 * pm_class_def write them). */
static size_t pm_children_len(const pm *m, size_t r0, size_t r1)
{
  size_t zero = pm_zero_row(m, r0, r1), n = 0, cov_ranges = 0, cd_ranges = 0, nz = 0;
  long prev = -2, prev_nz = -2;
  uint32_t prev_row = UINT32_MAX;
  unsigned first = 0, last = 0;
  for (size_t i = 0; i < m->ng; i++) {
    const pm_glyph *g = &m->g[i];
    if (g->row < r0 || g->row >= r1) continue;
    cov_ranges += g->gid != prev + 1;
    prev = g->gid, n++;
    if (g->row == zero) continue;
    if (!nz++) first = g->gid;
    cd_ranges += g->gid != prev_nz + 1 || g->row != prev_row;
    prev_nz = g->gid, prev_row = g->row, last = g->gid;
  }
  size_t devs = 0; /* the devices rows keep (a device shared by rows counted for each) */
  for (size_t r = r0; r < r1; r++) devs += m->r[r].devs;
  size_t cov = 4 + (6 * cov_ranges < 2 * n ? 6 * cov_ranges : 2 * n) + devs;
  size_t f2 = 4 + 6 * cd_ranges, f1 = nz ? 6 + 2 * ((size_t)last - first + 1) : f2;
  return cov + (f2 <= f1 ? f2 : f1);
}

/* One output sub-table: rows [r0, r1) of m, the one with most glyphs as class 0. */
static otv_obj pm_subtable(otv_lw *w, pm *m, pm_out *o, size_t r0, size_t r1, const size_t *fmt,
                           otv_obj cd2, unsigned *seen, bool *hint)
{
  unsigned f1 = (unsigned)fmt[0], f2 = (unsigned)fmt[1], o1 = (unsigned)fmt[2],
           o2 = (unsigned)fmt[3];
  size_t c2 = fmt[4], s1 = vr_size(f1), rs = s1 + vr_size(f2), zero = pm_zero_row(m, r0, r1);
  vr_plan pos1 = vr_plan_of(f1), pos2 = vr_plan_of(f2);
  uint32_t next = 1;
  for (size_t r = r0; r < r1; r++) m->r[r].local = r == zero ? 0 : next++;
  o->n = 0;
  for (size_t i = 0; i < m->ng; i++) {
    const pm_glyph *g = &m->g[i];
    if (g->row < r0 || g->row >= r1) continue;
    o->gid[o->n] = g->gid;
    o->cls[o->n++] = (uint16_t)m->r[g->row].local;
  }
  otv_obj cov = pm_coverage(w, o), cd1 = pm_class_def(w, o);
  otv_buf *b = otv_lw_open(w);
  if (!b) return OTV_OBJ_NONE;
  otv_buf_u16(b, 2);
  otv_lw_off16(w, b, cov);
  otv_buf_u16(b, (uint16_t)o1);
  otv_buf_u16(b, (uint16_t)o2);
  otv_lw_off16(w, b, cd1);
  otv_lw_off16(w, b, cd2);
  otv_buf_u16(b, (uint16_t)(r1 - r0));
  otv_buf_u16(b, (uint16_t)c2);
  /* rows in class order: the class 0 row first, then the others as numbered */
  for (size_t k = 0; k < r1 - r0 && !w->st; k++) {
    size_t r = zero;
    if (k) { /* the k-th row of [r0, r1) other than the class 0 one */
      r = r0 + k - 1;
      if (r >= zero) r++;
    }
    const pm_row *row = &m->r[r];
    if (w->xf->static_instance && !((o1 | o2) & 0xF0u) &&
        otv_buf_reserve(b, c2 * (vr_size(o1) + vr_size(o2)))) {
      /* values only: written straight into the row's bytes */
      uint8_t *q = b->p + b->len;
      const uint8_t *p = w->t.p + row->at;
      for (size_t c = 0; c < c2; c++, p += rs) {
        q = vr_put_fast(w, q, p, &pos1, o1, row->st, &seen[0], hint);
        q = vr_put_fast(w, q, p + s1, &pos2, o2, row->st, &seen[1], hint);
      }
      b->len = (size_t)(q - b->p);
      continue;
    }
    for (size_t c = 0; c < c2 && !w->st; c++) {
      vrec v;
      vr_decode(w, row->at + c * rs, f1, row->st, &v);
      vr_write(w, b, &v, o1, row->st);
      vr_decode(w, row->at + c * rs + s1, f2, row->st, &v);
      vr_write(w, b, &v, o2, row->st);
    }
  }
  return otv_lw_close(w, b);
}

static void pm_free(otv_lw *w, pm *m, pm_out *o)
{
  if (m->g) otv_mem_free(w->al, m->g, m->gcap * sizeof *m->g);
  if (m->r) otv_mem_free(w->al, m->r, m->rcap * sizeof *m->r);
  if (m->row_of) otv_mem_free(w->al, m->row_of, m->row_of_cap * sizeof *m->row_of);
  if (o->gid) otv_mem_free(w->al, o->gid, m->ng * sizeof *o->gid);
  if (o->cls) otv_mem_free(w->al, o->cls, m->ng * sizeof *o->cls);
  otv_mem_free(w->al, m, sizeof *m);
}

/* The run at[0..n) of mergeable sub-tables (absolute offsets, otv_lw_pair_mergeable pairwise
 * in order) as few sub-tables as offsets allow, each passed to emit. False, with nothing
 * emitted, when one row alone is too large for a sub-table (the run is then written as it
 * was). */
bool otv_lw_pair_merge(otv_lw *w, const size_t *at, size_t n,
                       void (*emit)(otv_lw *w, otv_obj st, void *ud), void *ud)
{
  unsigned f1 = u16(w, at[0] + 4) & VALUE_FORMAT_FIELDS,
           f2 = u16(w, at[0] + 6) & VALUE_FORMAT_FIELDS;
  size_t c2 = u16(w, at[0] + 14), rs = vr_size(f1) + vr_size(f2);
  pm *m = otv_mem_calloc(w->al, 1, sizeof *m);
  pm_out o = {NULL, NULL, 0};
  if (!m) return otv_lw_fail(w, OTV_E_NOMEM, at[0], "class-pair merge"), false;
  for (size_t j = 0; j < n && !w->st; j++) pm_read(w, m, at[j], (unsigned)c2, rs);
  otv_obj cd2 = otv_lw_child(w, at[0], u16(w, at[0] + 10), K_CLASS_DEF, 0);
  /* its length, for the room left under 64 KiB (checked: it was read) */
  size_t cd2_len = cd2 ? otv_lw_class_def_len(w, at[0] + u16(w, at[0] + 10)) : 0;
  if (m->ng) qsort(m->g, m->ng, sizeof *m->g, pm_cmp_gid);
  o.gid = m->ng ? otv_mem_alloc(w->al, m->ng * sizeof *o.gid) : NULL;
  o.cls = m->ng ? otv_mem_alloc(w->al, m->ng * sizeof *o.cls) : NULL;
  otv_obj *built = m->nr ? otv_mem_alloc(w->al, m->nr * sizeof *built) : NULL;
  if (m->ng && (!o.gid || !o.cls || !built)) otv_lw_fail(w, OTV_E_NOMEM, at[0], "class-pair merge");
  /* The value formats. A static instance first writes every value field its records have (or
   * a device varies), noting while it writes whether some field is never used or a Device
   * table turns up; only then are the formats chosen from one pass over the raw records and
   * the rows written again (the same bytes either way: the formats are those of that pass). */
  bool optimistic = w->xf->static_instance, ok = false;
  size_t nb = 0;
  for (int pass = 0; pass < 2 && !w->st; pass++) {
    unsigned o1, o2;
    if (optimistic) {
      o1 = vr_format(w, f1, (f1 | f1 >> 4) & 0x0Fu, false);
      o2 = vr_format(w, f2, (f2 | f2 >> 4) & 0x0Fu, true);
    } else {
      unsigned n1 = 0, n2 = 0;
      for (size_t r = 0; r < m->nr && !w->st && rs; r++)
        vr_scan(w, m->r[r].at, c2, rs, 0, f1, f2, m->r[r].st, &n1, &n2);
      o1 = vr_format(w, f1, n1, false), o2 = vr_format(w, f2, n2, true);
      /* a partial instance keeps its devices: its sub-tables are only re-cut when their
       * records grew (value fields added for the deltas), else written as they were */
      if (!w->xf->static_instance && o1 == f1 && o2 == f2) break;
      if ((o1 | o2) & 0xF0u)
        for (size_t r = 0; r < m->nr && !w->st; r++) pm_row_devices(w, &m->r[r], c2, rs, f1, f2);
    }
    size_t row_bytes = c2 * (vr_size(o1) + vr_size(o2));
    /* rows cut greedily: the sub-table's header and matrix, then (at most) its Coverage
     * (format 1), ClassDef1 (format 2) and the ClassDef2, all within reach of 16-bit offsets */
    size_t limit = 0xFFFF;
    ok = !w->st && m->nr > 0 && m->nr <= 0xFFFF;
    for (size_t r = 0; ok && r < m->nr; r++)
      ok = 16 + row_bytes + 4 + 2 * (size_t)m->r[r].count + 4 + 6 * (size_t)m->r[r].count +
               cd2_len + m->r[r].devs <=
           limit;
    if (!ok) break;
    size_t fmt[5] = {f1, f2, o1, o2, c2};
    unsigned seen[2] = {0, 0};
    bool hint = false;
    nb = 0;
    for (size_t r0 = 0, r1; r0 < m->nr && !w->st; r0 = r1) {
      /* the most rows that fit (sizes exact; a binary search: they grow with the rows) */
      size_t lo = r0 + 1, hi = m->nr - r0 > 0xFFFF ? r0 + 0xFFFF : m->nr;
      while (lo < hi) {
        size_t mid = lo + (hi - lo + 1) / 2;
        w->work += m->ng;
        if (16 + (mid - r0) * row_bytes + pm_children_len(m, r0, mid) + cd2_len <= limit)
          lo = mid;
        else
          hi = mid - 1;
      }
      r1 = lo;
      built[nb++] = pm_subtable(w, m, &o, r0, r1, fmt, cd2, seen, &hint);
    }
    if (!optimistic ||
        (!hint && vr_format(w, f1, seen[0], false) == o1 && vr_format(w, f2, seen[1], true) == o2))
      break;
    optimistic = false; /* the objects written stay unreferenced in the graph */
  }
  ok = ok && !w->st;
  for (size_t i = 0; ok && i < nb; i++)
    if (built[i]) emit(w, built[i], ud);
  if (built) otv_mem_free(w->al, built, m->nr * sizeof *built);
  pm_free(w, m, &o);
  return ok;
}

/*
 * layout_gpos.c - GPOS sub-tables for the layout writer (layout_walk.h): value records (deltas
 * of VariationIndex devices added, formats narrowed in static instances), anchors, GDEF caret
 * values and BASE coordinates with their devices. Spec: GPOS, GDEF, BASE, chapter2.
 */
#include "layout_gpos.h"

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

/* The record at `at` (its vr_size(fmt) bytes checked by the caller); devices from `base`. */
static void vr_decode(otv_lw *w, size_t at, unsigned fmt, size_t base, vrec *r)
{
  const uint8_t *p = w->t.p + at;
  for (unsigned b = 0; b < 8; b++) {
    unsigned x = 0;
    if (fmt & 1u << b) x = otv_peek_u16(p), p += 2;
    if (b < 4)
      r->v[b] = (int16_t)x;
    else
      r->d[b - 4] = x;
  }
  for (unsigned k = 0; k < 4; k++) {
    int delta;
    switch (otv_lw_device_kind(w, base, r->d[k], &delta)) {
    case DEV_VAR:
      r->v[k] = clamp16((long)r->v[k] + delta);
      if (w->xf->static_instance) r->d[k] = 0;
      break;
    case DEV_HINT: break;
    default: r->d[k] = 0; break;
    }
  }
}

/* The ValueFormat bits a record needs. */
static unsigned vr_needed(const vrec *r)
{
  unsigned m = 0;
  for (unsigned k = 0; k < 4; k++) {
    if (r->v[k]) m |= 1u << k;
    if (r->d[k]) m |= 0x10u << k;
  }
  return m;
}

/* The ValueFormat written for a sub-table read with `in` whose records need `needed`. Static
 * instances: just the fields needed; a valueFormat2 (or SinglePos format) that was not 0 stays
 * not 0 (a PairPos valueFormat2 of 0 changes which glyph the next pair starts at). Otherwise
 * the fields read, plus the values that deltas made non-zero. */
static unsigned vr_format(const otv_lw *w, unsigned in, unsigned needed, bool keep_nonzero)
{
  in &= VALUE_FORMAT_FIELDS;
  if (!w->xf->static_instance) return in | (needed & 0x0Fu);
  if (needed || !in || !keep_nonzero) return needed;
  unsigned v = (in | in >> 4) & 0x0Fu;
  return v & (0u - v); /* its lowest value field */
}

static void vr_write(otv_lw *w, otv_buf *b, const vrec *r, unsigned fmt, size_t base)
{
  for (unsigned k = 0; k < 4; k++)
    if (fmt & 1u << k) otv_buf_u16(b, (uint16_t)r->v[k]);
  for (unsigned k = 0; k < 4; k++)
    if (fmt & 0x10u << k)
      otv_lw_off16(w, b, r->d[k] ? otv_lw_child_at(w, base + r->d[k], K_DEVICE, 0) : 0);
}

/* Records of two formats: what each needs, over n records of rs bytes from `at`. */
static void vr_scan(otv_lw *w, size_t at, size_t n, size_t rs, size_t skip, unsigned f1,
                    unsigned f2, size_t base, unsigned *need1, unsigned *need2)
{
  size_t s1 = vr_size(f1);
  w->work += n * rs; /* the records are decoded again when written: counted here too */
  if (w->work > w->budget) {
    otv_lw_fail(w, OTV_E_LIMIT, at, "layout work budget exceeded (shared sub-tables fan out)");
    return;
  }
  for (size_t i = 0; i < n && !w->st; i++) {
    vrec r;
    size_t rec = at + i * rs + skip;
    vr_decode(w, rec, f1, base, &r);
    *need1 |= vr_needed(&r);
    vr_decode(w, rec + s1, f2, base, &r);
    *need2 |= vr_needed(&r);
  }
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
    case DEV_VAR:
      v[k] = clamp16((long)v[k] + delta);
      if (w->xf->static_instance) d[k] = 0;
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

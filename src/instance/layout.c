/*
 * instance/layout.c - GDEF/GPOS/GSUB of a static or partial instance.
 *
 * Spec: GDEF ("Item variation store", "Caret value format 3"), GPOS ("Value record", "Anchor
 * format 3"), chapter2 ("Device and VariationIndex tables", "FeatureVariations table",
 * "ConditionSet", "FeatureTableSubstitution").
 *
 * - Every VariationIndex device table reached from a GPOS value record, a GPOS anchor or a GDEF
 *   caret adds round(delta) (delta summed in double, as fontTools) to the value it varies, and
 *   its offset is set to NULL (the record layout is kept, so the tables are patched in place;
 *   fontTools instead drops the device fields from ValueFormat). A value varied by a device but
 *   absent from the record (ValueFormat without it) cannot receive the delta in place: it is
 *   left at 0, which only fonts not made by the usual tools have.
 * - GDEF's ItemVariationStore is dropped (version back to 1.2 or 1.0).
 * - FeatureVariations: the first FeatureVariationRecord whose ConditionSet matches the location
 *   has its feature substitutions applied to the FeatureList; the FeatureVariations are then
 *   removed and the version set back to 1.0. The table is rebuilt as a new header, a new
 *   FeatureList and the old table body (every other offset is relative to a sub-table, so the
 *   body is valid as it is, moved by a constant).
 */
#include "instance/store.h"
#include "instance/inst.h"

/* spec: the header fields of GSUB/GPOS (version 1.0: 10 bytes; 1.1: + FeatureVariations) and
 * GDEF (1.2: + MarkGlyphSetsDef, 1.3: + ItemVariationStore) */
#define LAYOUT_MINOR_VERSION 2
#define LAYOUT_SCRIPT_LIST 4
#define LAYOUT_FEATURE_LIST 6
#define LAYOUT_LOOKUP_LIST 8
#define LAYOUT_FEATURE_VARIATIONS 10
#define LAYOUT_V1_0_LEN 10
#define LAYOUT_V1_1_LEN 14
#define GDEF_LIG_CARET_LIST 8
#define GDEF_MARK_GLYPH_SETS 12
#define GDEF_ITEM_VAR_STORE 14
#define GDEF_V1_3_LEN 18
#define GDEF_MINOR_MARK_GLYPH_SETS 2 /* version 1.2 */
#define GDEF_MINOR_VAR_STORE 3       /* version 1.3 */
/* spec: GPOS lookup types */
enum {
  GPOS_SINGLE = 1,
  GPOS_PAIR = 2,
  GPOS_CURSIVE = 3,
  GPOS_MARK_TO_BASE = 4,
  GPOS_MARK_TO_LIGATURE = 5,
  GPOS_MARK_TO_MARK = 6,
  GPOS_EXTENSION = 9
};
/* spec: Device and VariationIndex tables, ValueFormat, Anchor and CaretValue formats */
#define DELTA_FORMAT_VARIATION_INDEX 0x8000u
#define VALUE_FORMAT_DEVICES 0x00F0u /* X/Y placement and advance devices (bits 4-7) */
#define ANCHOR_FORMAT_COORDS 1
#define ANCHOR_FORMAT_DEVICE 3
#define CARET_FORMAT_COORDINATE 1
#define CARET_FORMAT_DEVICE 3

#define T_GDEF OTV_T_GDEF
#define T_GPOS OTV_T_GPOS
#define T_GSUB OTV_T_GSUB

typedef struct lay {
  otv_inst *in;
  otv_buf *b;       /* the table copy being patched */
  otv_ivs ivs;      /* GDEF's store (present false: none) */
  otv_inst_ivs *ev; /* its deltas at the location */
  uint8_t *seen;    /* one bit per byte offset: structure already patched */
  size_t seen_len;
  uint32_t tag;
  /* direct-mapped cache of device tables already evaluated (tables are widely shared) */
  uint32_t dkey[1024]; /* device offset + 1; 0: empty */
  int dval[1024];
  bool dvar[1024];
} lay;

static bool has(const lay *l, size_t off, size_t n)
{
  return off <= l->b->len && n <= l->b->len - off;
}
static unsigned u16(const lay *l, size_t off)
{
  return has(l, off, 2) ? otv_peek_u16(l->b->p + off) : 0;
}
static uint32_t u32(const lay *l, size_t off)
{
  return has(l, off, 4) ? otv_peek_u32(l->b->p + off) : 0;
}
static void put16(lay *l, size_t off, unsigned v)
{
  if (has(l, off, 2)) otv_put_u16(l->b->p + off, (uint16_t)v);
}

/* First visit of a structure at off (false when it was patched already). */
static bool first_visit(lay *l, size_t off)
{
  if (off >= 8 * l->seen_len) return false;
  uint8_t m = (uint8_t)(1u << (off & 7));
  if (l->seen[off >> 3] & m) return false;
  l->seen[off >> 3] |= m;
  return true;
}

/* Delta of the device table at dev (0 when it is not a VariationIndex table). */
static int device_delta_uncached(lay *l, size_t dev, bool *is_var);
static int device_delta(lay *l, size_t dev, bool *is_var)
{
  unsigned h = (unsigned)(dev * 2654435761u) >> 22 & 1023;
  if (dev < UINT32_MAX && l->dkey[h] == dev + 1) {
    *is_var = l->dvar[h];
    return l->dval[h];
  }
  int d = device_delta_uncached(l, dev, is_var);
  if (dev < UINT32_MAX) {
    l->dkey[h] = (uint32_t)dev + 1;
    l->dval[h] = d;
    l->dvar[h] = *is_var;
  }
  return d;
}

static int device_delta_uncached(lay *l, size_t dev, bool *is_var)
{
  *is_var = false;
  if (!has(l, dev, 6) || u16(l, dev + 4) != DELTA_FORMAT_VARIATION_INDEX) return 0;
  *is_var = true;
  if (!l->ivs.present) return 0;
  double d = otv_inst_ivs_get(&l->in->cx, l->ev, u16(l, dev), u16(l, dev + 2));
  return otv_inst_round(d);
}

/* spec: ValueRecord fields in order; value bits 0-3, device bits 4-7 */
static unsigned vr_size(unsigned fmt)
{
  unsigned n = 0;
  for (unsigned b = 0; b < 8; b++)
    if (fmt & (1u << b)) n += 2;
  return n;
}

/* Number of ValueFormat bits set below bit b (the fields before field b). */
static unsigned bits_below(unsigned fmt, unsigned b)
{
  static const uint8_t pc[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
  unsigned m = fmt & ((1u << b) - 1);
  return pc[m & 15] + pc[(m >> 4) & 15];
}

/* Where the device fields of a ValueFormat are, worked out once per subtable (a class-pair
 * subtable has tens of thousands of records of one format): byte offset of each device field
 * in the record and of the value it varies (0xFF: that value is absent from the record). */
typedef struct vr_plan {
  unsigned n;
  uint8_t dev[4], val[4];
} vr_plan;

static vr_plan vr_plan_of(unsigned fmt)
{
  vr_plan pl = {0, {0}, {0}};
  for (unsigned b = 4; b < 8; b++) {
    if (!(fmt & (1u << b))) continue;
    pl.dev[pl.n] = (uint8_t)(2 * bits_below(fmt, b));
    pl.val[pl.n] = (fmt & (1u << (b - 4))) ? (uint8_t)(2 * bits_below(fmt, b - 4)) : 0xFF;
    pl.n++;
  }
  return pl;
}

/* The caller has checked that the whole record (vr_size(fmt) bytes at rec) is in the table. */
static inline void patch_value_record(lay *l, size_t rec, const vr_plan *pl, size_t base)
{
  uint8_t *p = l->b->p + rec;
  for (unsigned k = 0; k < pl->n; k++) {
    /* in range: the record was checked by the caller */
    unsigned off = otv_peek_u16(p + pl->dev[k]);
    if (!off) continue;
    bool var;
    int d = device_delta(l, base + off, &var);
    if (!var) continue;
    if (d && pl->val[k] != 0xFF)
      otv_put_u16(p + pl->val[k], (uint16_t)(otv_peek_i16(p + pl->val[k]) + d));
    if (!l->in->pin.partial) otv_put_u16(p + pl->dev[k], 0);
  }
}

/* How many records of `size` bytes from `at` (at most n) are inside the table. */
static size_t fit(const lay *l, size_t at, size_t n, size_t size)
{
  if (!size || at > l->b->len) return size ? 0 : n;
  size_t room = (l->b->len - at) / size;
  return n < room ? n : room;
}

static void patch_anchor(lay *l, size_t a)
{
  if (!has(l, a, 10) || u16(l, a) != ANCHOR_FORMAT_DEVICE || !first_visit(l, a)) return;
  for (unsigned k = 0; k < 2; k++) {
    unsigned off = u16(l, a + 6 + 2 * k);
    if (!off) continue;
    bool var;
    int d = device_delta(l, a + off, &var);
    if (!var) continue;
    if (d) put16(l, a + 2 + 2 * k, (unsigned)(otv_peek_i16(l->b->p + a + 2 + 2 * k) + d));
    if (!l->in->pin.partial) put16(l, a + 6 + 2 * k, 0);
  }
  /* no device left: an Anchor format 1 (its first 6 bytes are the same fields) */
  if (!u16(l, a + 6) && !u16(l, a + 8)) put16(l, a, ANCHOR_FORMAT_COORDS);
}

/* Anchors of a MarkArray (markCount, {class, anchorOffset}). */
static void patch_mark_array(lay *l, size_t ma)
{
  if (!ma || !first_visit(l, ma)) return;
  unsigned n = u16(l, ma);
  for (unsigned i = 0; i < n && has(l, ma + 2 + 4 * (size_t)i, 4); i++) {
    unsigned off = u16(l, ma + 2 + 4 * (size_t)i + 2);
    if (off) patch_anchor(l, ma + off);
  }
}

/* An array of records of `per` anchor offsets (BaseArray, Mark2Array, LigatureAttach). */
static void patch_anchor_matrix(lay *l, size_t arr, unsigned per)
{
  if (!arr || !first_visit(l, arr)) return;
  unsigned n = u16(l, arr);
  for (size_t i = 0; i < (size_t)n * per && has(l, arr + 2 + 2 * i, 2); i++) {
    unsigned off = u16(l, arr + 2 + 2 * i);
    if (off) patch_anchor(l, arr + off);
  }
}

static void patch_gpos_subtable(lay *l, unsigned type, size_t st, unsigned depth)
{
  if (!has(l, st, 2) || depth > 2 || !first_visit(l, st)) return;
  unsigned fmt = u16(l, st);
  switch (type) {
  case GPOS_SINGLE: {
    unsigned vf = u16(l, st + 4);
    if (!(vf & VALUE_FORMAT_DEVICES)) break; /* no device fields */
    vr_plan pl = vr_plan_of(vf);
    size_t sz = vr_size(vf);
    if (fmt == 1) {
      if (has(l, st + 6, sz)) patch_value_record(l, st + 6, &pl, st);
    } else if (fmt == 2) {
      size_t n = fit(l, st + 8, u16(l, st + 6), sz);
      for (size_t i = 0; i < n; i++) patch_value_record(l, st + 8 + i * sz, &pl, st);
    }
    break;
  }
  case GPOS_PAIR: {
    unsigned vf1 = u16(l, st + 4), vf2 = u16(l, st + 6);
    if (!((vf1 | vf2) & VALUE_FORMAT_DEVICES)) break; /* no device fields in the whole subtable */
    unsigned s1 = vr_size(vf1), s2 = vr_size(vf2);
    vr_plan p1 = vr_plan_of(vf1), p2 = vr_plan_of(vf2);
    if (fmt == 1) {
      unsigned n = u16(l, st + 8);
      for (unsigned i = 0; i < n && has(l, st + 10 + 2 * (size_t)i, 2); i++) {
        size_t ps = st + u16(l, st + 10 + 2 * (size_t)i);
        if (!first_visit(l, ps)) continue;
        size_t rs = 2 + (size_t)s1 + s2;
        size_t pc = fit(l, ps + 2, u16(l, ps), rs);
        /* device offsets in a PairSet's value records are from the PairSet (as HarfBuzz and
         * fontTools read them) */
        for (size_t k = 0; k < pc; k++) {
          if (p1.n) patch_value_record(l, ps + 2 + k * rs + 2, &p1, ps);
          if (p2.n) patch_value_record(l, ps + 2 + k * rs + 2 + s1, &p2, ps);
        }
      }
    } else if (fmt == 2) {
      size_t c1 = u16(l, st + 12), c2 = u16(l, st + 14), rs = (size_t)s1 + s2;
      size_t n = fit(l, st + 16, c1 * c2, rs);
      /* most cells of a class matrix have no device: scan the device fields of both records
       * and patch only the records that have one */
      uint8_t dpos[8];
      unsigned nd = 0;
      for (unsigned k = 0; k < p1.n; k++) dpos[nd++] = p1.dev[k];
      for (unsigned k = 0; k < p2.n; k++) dpos[nd++] = (uint8_t)(s1 + p2.dev[k]);
      const uint8_t *cell = l->b->p + st + 16; /* in range: n records fit (above) */
      for (size_t i = 0; i < n; i++, cell += rs) {
        unsigned any = (unsigned)cell[dpos[0]] | cell[dpos[0] + 1]; /* nd >= 1: devices above */
        for (unsigned k = 1; k < nd; k++) any |= (unsigned)cell[dpos[k]] | cell[dpos[k] + 1];
        if (!any) continue;
        if (p1.n) patch_value_record(l, st + 16 + i * rs, &p1, st);
        if (p2.n) patch_value_record(l, st + 16 + i * rs + s1, &p2, st);
      }
    }
    break;
  }
  case GPOS_CURSIVE: {
    unsigned n = u16(l, st + 4);
    for (unsigned i = 0; i < n && has(l, st + 6 + 4 * (size_t)i, 4); i++)
      for (unsigned k = 0; k < 2; k++) {
        unsigned off = u16(l, st + 6 + 4 * (size_t)i + 2 * k);
        if (off) patch_anchor(l, st + off);
      }
    break;
  }
  case GPOS_MARK_TO_BASE:
  case GPOS_MARK_TO_MARK: {
    unsigned classes = u16(l, st + 6);
    unsigned ma = u16(l, st + 8), ba = u16(l, st + 10);
    if (ma) patch_mark_array(l, st + ma);
    if (ba) patch_anchor_matrix(l, st + ba, classes);
    break;
  }
  case GPOS_MARK_TO_LIGATURE: {
    unsigned classes = u16(l, st + 6);
    unsigned ma = u16(l, st + 8), la = u16(l, st + 10);
    if (ma) patch_mark_array(l, st + ma);
    if (la && first_visit(l, st + la)) {
      size_t arr = st + la;
      unsigned n = u16(l, arr);
      for (unsigned i = 0; i < n && has(l, arr + 2 + 2 * (size_t)i, 2); i++) {
        unsigned off = u16(l, arr + 2 + 2 * (size_t)i);
        if (off) patch_anchor_matrix(l, arr + off, classes);
      }
    }
    break;
  }
  case GPOS_EXTENSION:
    if (fmt == 1) {
      unsigned t = u16(l, st + 2);
      uint32_t off = u32(l, st + 4);
      if (t != GPOS_EXTENSION && off) patch_gpos_subtable(l, t, st + off, depth + 1);
    }
    break;
  default: break;
  }
}

static void patch_gpos(lay *l)
{
  size_t ll = u16(l, LAYOUT_LOOKUP_LIST);
  if (!ll) return;
  unsigned n = u16(l, ll);
  for (unsigned i = 0; i < n && has(l, ll + 2 + 2 * (size_t)i, 2); i++) {
    size_t lk = ll + u16(l, ll + 2 + 2 * (size_t)i);
    unsigned type = u16(l, lk), sc = u16(l, lk + 4);
    for (unsigned k = 0; k < sc && has(l, lk + 6 + 2 * (size_t)k, 2); k++)
      patch_gpos_subtable(l, type, lk + u16(l, lk + 6 + 2 * (size_t)k), 0);
  }
}

static void patch_gdef_carets(lay *l)
{
  size_t lc = u16(l, GDEF_LIG_CARET_LIST);
  if (!lc) return;
  unsigned n = u16(l, lc + 2);
  for (unsigned i = 0; i < n && has(l, lc + 4 + 2 * (size_t)i, 2); i++) {
    size_t lg = lc + u16(l, lc + 4 + 2 * (size_t)i);
    unsigned cc = u16(l, lg);
    for (unsigned k = 0; k < cc && has(l, lg + 2 + 2 * (size_t)k, 2); k++) {
      size_t cv = lg + u16(l, lg + 2 + 2 * (size_t)k);
      if (u16(l, cv) != CARET_FORMAT_DEVICE || !first_visit(l, cv)) continue;
      unsigned off = u16(l, cv + 4);
      if (!off) continue;
      bool var;
      int d = device_delta(l, cv + off, &var);
      if (!var) continue;
      if (d) put16(l, cv + 2, (unsigned)(otv_peek_i16(l->b->p + cv + 2) + d));
      /* a CaretValue format 1 (format, coordinate): OTS rejects format 3 with a NULL device */
      if (!l->in->pin.partial) put16(l, cv, CARET_FORMAT_COORDINATE);
    }
  }
}

/* ---- FeatureVariations (spec: chapter2 "FeatureVariations table", "ConditionSet",
 * "Condition table format 1") ----
 * FeatureVariations: version (4 bytes), featureVariationRecordCount (u32), then records of
 * {conditionSetOffset, featureTableSubstitutionOffset} (Offset32 from the FeatureVariations).
 * ConditionSet: conditionCount (u16), conditionOffsets (Offset32 from the set). Condition
 * format 1: format, axisIndex, filterRangeMinValue, filterRangeMaxValue (F2Dot14). Read from a
 * span (the table, or the copy being patched), lenient like the rest of this file: a field past
 * the end reads 0. */
#define FV_RECORDS 8 /* where the records start */
#define FV_RECORD_LEN 8
#define CONDITION_FORMAT_AXIS_RANGE 1

static unsigned s16(otv_span t, size_t o)
{
  return otv_span_has(t, o, 2) ? otv_peek_u16(t.p + o) : 0;
}
static uint32_t s32(otv_span t, size_t o)
{
  return otv_span_has(t, o, 4) ? otv_peek_u32(t.p + o) : 0;
}

/* FeatureVariationRecord i of the FeatureVariations at fv: its ConditionSet (absolute offset,
 * 0: none) and FeatureTableSubstitution (absolute, 0: none). */
static void fv_record(otv_span t, size_t fv, uint32_t i, size_t *set, size_t *subst)
{
  size_t rec = fv + FV_RECORDS + FV_RECORD_LEN * (size_t)i;
  uint32_t cs = s32(t, rec), ts = s32(t, rec + 4);
  *set = cs ? fv + cs : 0;
  *subst = ts ? fv + ts : 0;
}

/* Condition k of the ConditionSet at set: its offset (absolute), format, axis and range. */
typedef struct fv_condition {
  size_t at;
  unsigned format, axis;
  int lo, hi;
} fv_condition;

static fv_condition fv_condition_at(otv_span t, size_t set, unsigned k)
{
  fv_condition c;
  c.at = set + s32(t, set + 2 + 4 * (size_t)k);
  c.format = s16(t, c.at);
  c.axis = s16(t, c.at + 2);
  c.lo = (int16_t)s16(t, c.at + 4);
  c.hi = (int16_t)s16(t, c.at + 6);
  return c;
}

/* The FeatureVariationRecord matching the location: its FeatureTableSubstitution offset
 * (absolute in the table), or 0. */
static size_t matching_substitution(lay *l, size_t fv)
{
  otv_inst *in = l->in;
  otv_span t = otv_span_of(l->b->p, l->b->len);
  uint32_t n = s32(t, fv + 4);
  for (uint32_t i = 0; i < n && has(l, fv + FV_RECORDS + FV_RECORD_LEN * (size_t)i, 8); i++) {
    size_t set, subst;
    fv_record(t, fv, i, &set, &subst);
    bool match = true;
    unsigned cc = set ? s16(t, set) : 0;
    for (unsigned k = 0; k < cc && match; k++) {
      fv_condition c = fv_condition_at(t, set, k);
      /* spec: an unknown condition format does not match */
      int v = c.axis < in->pin.axis_count ? in->pin.coords[c.axis] : 0;
      if (c.format != CONDITION_FORMAT_AXIS_RANGE || v < c.lo || v > c.hi) match = false;
    }
    if (match) return subst;
  }
  return 0;
}

/* Partial instances: the FeatureVariations of the copy in l->b edited in place. A record whose
 * conditions on pinned axes fail at the pins can never match: it is removed. The conditions on
 * pinned axes that hold are removed from their ConditionSet (an empty set matches everywhere),
 * and the others get their axis's new index. src is the face's table (read; l->b is written). */
static otv_status partial_feature_variations(lay *l, const uint8_t *src, size_t len)
{
  otv_inst *in = l->in;
  const otv_pin *pin = &in->pin;
  otv_span t = otv_span_of(src, len);
  size_t fv = u32(l, LAYOUT_FEATURE_VARIATIONS);
  uint32_t n = s32(t, fv + 4), kept = 0;
  for (uint32_t i = 0; i < n && fv + FV_RECORDS + FV_RECORD_LEN * (size_t)i + 8 <= len; i++) {
    size_t set, subst;
    fv_record(t, fv, i, &set, &subst);
    bool possible = true;
    unsigned cc = set ? s16(t, set) : 0;
    for (unsigned k = 0; k < cc && possible; k++) {
      fv_condition c = fv_condition_at(t, set, k);
      if (c.format != CONDITION_FORMAT_AXIS_RANGE || c.axis >= pin->axis_count || pin->keep[c.axis])
        continue;
      int v = pin->coords[c.axis];
      if (v < c.lo || v > c.hi) possible = false;
    }
    if (!possible) continue;
    /* keep the record (moved down over removed ones) */
    if (has(l, fv + FV_RECORDS + FV_RECORD_LEN * (size_t)kept, FV_RECORD_LEN))
      memcpy(l->b->p + fv + FV_RECORDS + FV_RECORD_LEN * (size_t)kept,
             src + fv + FV_RECORDS + FV_RECORD_LEN * (size_t)i, FV_RECORD_LEN);
    kept++;
    if (!set || !first_visit(l, set)) continue;
    unsigned w = 0;
    for (unsigned k = 0; k < cc; k++) {
      uint32_t co = s32(t, set + 2 + 4 * (size_t)k);
      fv_condition c = fv_condition_at(t, set, k);
      bool axis_range = c.format == CONDITION_FORMAT_AXIS_RANGE;
      if (axis_range && c.axis < pin->axis_count && !pin->keep[c.axis])
        continue; /* holds: dropped */
      if (has(l, set + 2 + 4 * (size_t)w, 4)) otv_put_u32(l->b->p + set + 2 + 4 * (size_t)w, co);
      w++;
      if (axis_range && c.axis < pin->axis_count && first_visit(l, c.at))
        put16(l, c.at + 2, pin->new_index[c.axis]);
    }
    put16(l, set, w);
  }
  if (has(l, fv + 4, 4)) otv_put_u32(l->b->p + fv + 4, kept);
  return OTV_E_OK;
}

/* Resolve FeatureVariations of a GSUB/GPOS copy in l->b: rebuilds it into out. */
static otv_status resolve_feature_variations(lay *l, otv_buf *out)
{
  otv_inst *in = l->in;
  size_t fv = u32(l, LAYOUT_FEATURE_VARIATIONS);
  size_t fl = u16(l, LAYOUT_FEATURE_LIST);
  size_t subst = fv ? matching_substitution(l, fv) : 0;
  unsigned nf = fl ? u16(l, fl) : 0;
  size_t F = 2 + 6 * (size_t)nf;
  size_t shift = LAYOUT_V1_0_LEN + F;
  unsigned sl = u16(l, LAYOUT_SCRIPT_LIST), ll = u16(l, LAYOUT_LOOKUP_LIST);
  if ((sl && shift + sl > 0xFFFF) || (ll && shift + ll > 0xFFFF))
    return OTV_FAIL(in->err, LIMIT, l->tag, 4, "table too large to drop FeatureVariations");
  otv_buf_u16(out, 1);
  otv_buf_u16(out, 0);
  otv_buf_u16(out, (uint16_t)(sl ? shift + sl : 0));
  otv_buf_u16(out, (uint16_t)(fl ? 10 : 0));
  otv_buf_u16(out, (uint16_t)(ll ? shift + ll : 0));
  otv_buf_u16(out, (uint16_t)nf);
  for (unsigned i = 0; i < nf; i++) {
    size_t rec = fl + 2 + 6 * (size_t)i;
    if (!has(l, rec, 6)) return OTV_FAIL(in->err, TRUNCATED, l->tag, rec, "feature record %u", i);
    size_t target = fl + u16(l, rec + 4); /* absolute in the old table */
    if (subst) {
      unsigned sc = u16(l, subst + 4);
      for (unsigned k = 0; k < sc && has(l, subst + 6 + 6 * (size_t)k, 6); k++)
        if (u16(l, subst + 6 + 6 * (size_t)k) == i)
          target = subst + u32(l, subst + 6 + 6 * (size_t)k + 2);
    }
    if (!has(l, target, 4))
      return OTV_FAIL(in->err, BAD_OFFSET, l->tag, rec, "feature %u table past the end", i);
    size_t rel = F + target; /* from the new FeatureList at 10 to the old table moved by 10 + F */
    if (rel > 0xFFFF)
      return OTV_FAIL(in->err, LIMIT, l->tag, rec, "feature %u too far to reference", i);
    otv_buf_bytes(out, l->b->p + rec, 4);
    otv_buf_u16(out, (uint16_t)rel);
  }
  otv_buf_bytes(out, l->b->p, l->b->len);
  if (out->failed) return OTV_FAIL(in->err, NOMEM, l->tag, 0, "layout buffer");
  return OTV_E_OK;
}

static otv_status do_table(otv_inst *in, uint32_t tag, otv_buf *dst, const otv_ivs *ivs,
                           otv_inst_ivs *ev)
{
  size_t len = 0;
  const uint8_t *p = otv_face_table(in->face, tag, &len);
  if (!p || len < LAYOUT_V1_0_LEN) return OTV_E_OK;
  uint16_t minor = otv_peek_u16(p + LAYOUT_MINOR_VERSION);
  bool fv = tag != T_GDEF && minor >= 1 && len >= LAYOUT_V1_1_LEN &&
            otv_peek_u32(p + LAYOUT_FEATURE_VARIATIONS);
  bool dev = (tag == T_GPOS || tag == T_GDEF) && ivs->present;
  bool gdef_store = tag == T_GDEF && minor >= GDEF_MINOR_VAR_STORE && len >= GDEF_V1_3_LEN;
  if (!fv && !dev && !(tag == T_GDEF && minor >= GDEF_MINOR_VAR_STORE)) return OTV_E_OK;
  /* without FeatureVariations the copy is patched where it goes (dst, empty so far); with
   * them, in a work copy that resolve_feature_variations rebuilds into dst */
  otv_buf work;
  otv_buf_init(&work, in->al);
  otv_buf *b = fv || dst->len ? &work : dst;
  otv_buf_bytes(b, p, len);
  lay l;
  memset(&l, 0, sizeof l);
  l.in = in, l.b = b, l.ivs = *ivs, l.ev = ev, l.tag = tag;
  l.seen_len = len / 8 + 1;
  l.seen = otv_mem_calloc(in->al, l.seen_len, 1);
  otv_status st = OTV_E_OK;
  if (b->failed || !l.seen) {
    st = OTV_FAIL(in->err, NOMEM, tag, 0, "layout copy");
    goto done;
  }
  if (tag == T_GPOS && dev) patch_gpos(&l);
  if (tag == T_GDEF) {
    if (dev) patch_gdef_carets(&l);
    if (gdef_store && in->pin.partial) {
      /* the store with the pinned axes applied and removed */
      if (otv_peek_u32(p + GDEF_ITEM_VAR_STORE)) {
        /* compacted only when every other GDEF subtable (the Offset16s of the header, from the
         * glyph class definitions to MarkGlyphSetsDef) starts before the store */
        size_t so = otv_peek_u32(p + GDEF_ITEM_VAR_STORE);
        bool before = true;
        for (size_t h = 4; h <= GDEF_MARK_GLYPH_SETS; h += 2) before &= otv_peek_u16(p + h) < so;
        st = otv_store_partial(&in->cx, (otv_span){p, len}, b, T_GDEF, so, before);
      }
    } else if (gdef_store) {
      /* drop the ItemVariationStore: version 1.2 with MarkGlyphSetsDef, else 1.0 */
      otv_put_u32(b->p + GDEF_ITEM_VAR_STORE, 0);
      otv_put_u16(
          b->p + LAYOUT_MINOR_VERSION,
          (uint16_t)(otv_peek_u16(b->p + GDEF_MARK_GLYPH_SETS) ? GDEF_MINOR_MARK_GLYPH_SETS : 0));
    }
  }
  if (st) {
    /* failed above */
  } else if (fv && in->pin.partial) {
    st = partial_feature_variations(&l, p, len);
    if (!st) otv_buf_bytes(dst, b->p, b->len);
    if (!st && dst->failed) st = OTV_FAIL(in->err, NOMEM, tag, 0, "layout buffer");
  } else if (fv) {
    st = resolve_feature_variations(&l, dst);
  } else if (b != dst) {
    otv_buf_bytes(dst, work.p, work.len);
    if (dst->failed) st = OTV_FAIL(in->err, NOMEM, tag, 0, "layout buffer");
  }
done:
  if (l.seen) otv_mem_free(in->al, l.seen, l.seen_len);
  otv_buf_free(&work);
  return st;
}

otv_status otv_inst_layout(otv_inst *in)
{
  otv_ivs ivs;
  memset(&ivs, 0, sizeof ivs);
  otv_span gdef = otv_face_span(in->face, T_GDEF);
  if (gdef.len >= GDEF_V1_3_LEN &&
      otv_peek_u16(gdef.p + LAYOUT_MINOR_VERSION) >= GDEF_MINOR_VAR_STORE &&
      otv_peek_u32(gdef.p + GDEF_ITEM_VAR_STORE)) {
    otv_status st = otv_ivs_parse(in->al, gdef, T_GDEF, otv_peek_u32(gdef.p + GDEF_ITEM_VAR_STORE),
                                  (uint16_t)in->pin.axis_count, &ivs, in->err);
    if (st) return st;
  }
  otv_inst_ivs ev;
  otv_status st = OTV_E_OK;
  if (otv_inst_ivs_init(&in->cx, &ivs, &ev))
    st = OTV_FAIL(in->err, NOMEM, T_GDEF, 0, "GDEF deltas");
  if (!st) st = do_table(in, T_GDEF, &in->gdef, &ivs, &ev);
  if (!st) st = do_table(in, T_GPOS, &in->gpos, &ivs, &ev);
  if (!st) st = do_table(in, T_GSUB, &in->gsub, &ivs, &ev);
  otv_inst_ivs_fini(&in->cx, &ev);
  otv_ivs_free(in->al, &ivs);
  return st;
}

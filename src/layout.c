/*
 * layout.c - GSUB, GPOS, GDEF and BASE decoded into an object graph and written back (see
 * layout.h; the files it is made of: layout_walk.h). One builder per kind of sub-table: it
 * checks the sub-table's extent, opens an object, copies its fields, builds each child it has
 * an offset to (otv_lw_child, which decodes an (offset, kind, context) once) and links it, and
 * closes the object. Here: contextual lookups, GSUB sub-tables, lookups and Extension, the
 * ScriptList and FeatureList, GDEF and BASE, the dispatch by kind and the tables' headers.
 *
 * Spec: chapter2, GSUB, GPOS, GDEF, BASE (field names below are the spec's).
 */
#include "layout.h"
#include "ivs.h"
#include "layout_fv.h"
#include "layout_gpos.h"

/* ---- contextual lookups (GSUB 5/6, GPOS 7/8) and the rest of GSUB ---- */

/* n SequenceLookupRecords (sequenceIndex, lookupListIndex) at `at` (checked), renumbered. */
static void seq_lookup_records(otv_lw *w, otv_buf *b, size_t at, size_t n)
{
  for (size_t k = 0; k < n; k++) {
    copy(w, b, at + 4 * k, 2);
    otv_buf_u16(b, (uint16_t)lookup_index(w, u16(w, at + 4 * k + 2)));
  }
}

/* spec: SequenceRule (glyphCount, seqLookupCount, inputSequence[glyphCount - 1],
 * seqLookupRecords) and ClassSequenceRule (the same with classes). */
static otv_obj rule(otv_lw *w, size_t at)
{
  if (!otv_lw_need(w, at, 4, K_RULE)) return OTV_OBJ_NONE;
  size_t gc = u16(w, at), sl = u16(w, at + 2), head = 4 + 2 * (gc ? gc - 1 : 0);
  if (!otv_lw_need(w, at, head + 4 * sl, K_RULE)) return OTV_OBJ_NONE;
  otv_buf *b = otv_lw_open(w);
  if (!b) return OTV_OBJ_NONE;
  copy(w, b, at, head);
  seq_lookup_records(w, b, at + head, sl);
  return otv_lw_close(w, b);
}

/* spec: ChainedSequenceRule: backtrack, input (minus the first), lookahead, seqLookupRecords. */
static otv_obj chain_rule(otv_lw *w, size_t at)
{
  size_t pos = at;
  for (unsigned part = 0; part < 4; part++) {
    if (!otv_lw_need(w, pos, 2, K_CHAIN_RULE)) return OTV_OBJ_NONE;
    size_t n = u16(w, pos);
    if (part == 1 && n) n--;
    if (part < 3) pos += 2 + 2 * n;
  }
  size_t sl = u16(w, pos);
  if (!otv_lw_need(w, pos + 2, 4 * sl, K_CHAIN_RULE)) return OTV_OBJ_NONE;
  otv_buf *b = otv_lw_open(w);
  if (!b) return OTV_OBJ_NONE;
  copy(w, b, at, pos + 2 - at);
  seq_lookup_records(w, b, pos + 2, sl);
  return otv_lw_close(w, b);
}

/* SequenceContext / ChainedSequenceContext formats 1-3. */
static otv_obj context(otv_lw *w, size_t at, bool chain)
{
  if (!otv_lw_need(w, at, 6, K_SUBTABLE)) return OTV_OBJ_NONE;
  unsigned fmt = u16(w, at);
  uint64_t rules = chain ? K_CHAIN_RULE : K_RULE;
  otv_buf *b = NULL;
  if (fmt == 1 || fmt == 2) {
    size_t cds = fmt == 1 ? 0 : chain ? 3 : 1, head = 4 + 2 * cds;
    if (!otv_lw_need(w, at, head + 2, K_SUBTABLE)) return OTV_OBJ_NONE;
    size_t n = u16(w, at + head);
    if (!otv_lw_need_array(w, at + head + 2, n, 2, K_SUBTABLE)) return OTV_OBJ_NONE;
    if (!(b = otv_lw_open(w))) return OTV_OBJ_NONE;
    otv_buf_u16(b, (uint16_t)fmt);
    otv_lw_off16(w, b, otv_lw_child(w, at, u16(w, at + 2), K_COVERAGE, 0));
    for (size_t k = 0; k < cds; k++)
      otv_lw_off16(w, b, otv_lw_child(w, at, u16(w, at + 4 + 2 * k), K_CLASS_DEF, 0));
    otv_buf_u16(b, (uint16_t)n);
    otv_lw_off16_array(w, b, at, at + head + 2, n, K_RULE_SET, rules);
    return otv_lw_close(w, b);
  }
  if (fmt != 3) return OTV_OBJ_NONE; /* spec: an unknown format is ignored */
  if (!chain) {
    /* glyphCount, seqLookupCount, coverageOffsets[glyphCount], seqLookupRecords */
    size_t gc = u16(w, at + 2), sl = u16(w, at + 4);
    if (!otv_lw_need(w, at + 6, 2 * gc + 4 * sl, K_SUBTABLE) || !(b = otv_lw_open(w)))
      return OTV_OBJ_NONE;
    copy(w, b, at, 6);
    otv_lw_off16_array(w, b, at, at + 6, gc, K_COVERAGE, 0);
    seq_lookup_records(w, b, at + 6 + 2 * gc, sl);
    return otv_lw_close(w, b);
  }
  /* backtrack, input and lookahead coverage arrays, then seqLookupRecords */
  size_t pos = at + 2, arr[3], cnt[3];
  for (unsigned k = 0; k < 3; k++) {
    if (!otv_lw_need(w, pos, 2, K_SUBTABLE)) return OTV_OBJ_NONE;
    cnt[k] = u16(w, pos), arr[k] = pos + 2;
    pos += 2 + 2 * cnt[k];
  }
  if (!otv_lw_need(w, pos, 2, K_SUBTABLE)) return OTV_OBJ_NONE;
  size_t sl = u16(w, pos);
  if (!otv_lw_need(w, pos + 2, 4 * sl, K_SUBTABLE) || !(b = otv_lw_open(w))) return OTV_OBJ_NONE;
  otv_buf_u16(b, 3);
  for (unsigned k = 0; k < 3; k++) {
    otv_buf_u16(b, (uint16_t)cnt[k]);
    otv_lw_off16_array(w, b, at, arr[k], cnt[k], K_COVERAGE, 0);
  }
  copy(w, b, pos, 2);
  seq_lookup_records(w, b, pos + 2, sl);
  return otv_lw_close(w, b);
}

/* spec: SingleSubst 1 (delta) and 2 (substitutes); MultipleSubst, AlternateSubst 1
 * (sequences); LigatureSubst 1 (ligature sets). */
static otv_obj gsub_simple(otv_lw *w, size_t at, unsigned type, unsigned fmt)
{
  if (!otv_lw_need(w, at, 6, K_SUBTABLE)) return OTV_OBJ_NONE;
  if (type == GSUB_SINGLE && fmt == 1) {
    otv_buf *b = otv_lw_open(w);
    if (!b) return OTV_OBJ_NONE;
    otv_buf_u16(b, 1);
    otv_lw_off16(w, b, otv_lw_child(w, at, u16(w, at + 2), K_COVERAGE, 0));
    copy(w, b, at + 4, 2);
    return otv_lw_close(w, b);
  }
  if (fmt != (type == GSUB_SINGLE ? 2u : 1u)) return OTV_OBJ_NONE;
  size_t n = u16(w, at + 4);
  if (!otv_lw_need_array(w, at + 6, n, 2, K_SUBTABLE)) return OTV_OBJ_NONE;
  otv_buf *b = otv_lw_open(w);
  if (!b) return OTV_OBJ_NONE;
  otv_buf_u16(b, (uint16_t)fmt);
  otv_lw_off16(w, b, otv_lw_child(w, at, u16(w, at + 2), K_COVERAGE, 0));
  otv_buf_u16(b, (uint16_t)n);
  if (type == GSUB_SINGLE)
    copy(w, b, at + 6, 2 * n);
  else
    otv_lw_off16_array(w, b, at, at + 6, n, type == GSUB_LIGATURE ? K_LIGATURE_SET : K_U16_ARRAY,
                       0);
  return otv_lw_close(w, b);
}

/* spec: ReverseChainSingleSubst 1 (coverage, backtrack and lookahead coverages,
 * substitutes). */
static otv_obj reverse_chain(otv_lw *w, size_t at)
{
  if (!otv_lw_need(w, at, 6, K_SUBTABLE) || u16(w, at) != 1) return OTV_OBJ_NONE;
  size_t bc = u16(w, at + 4), la = at + 6 + 2 * bc;
  if (!otv_lw_need(w, la, 2, K_SUBTABLE)) return OTV_OBJ_NONE;
  size_t lc = u16(w, la), sub = la + 2 + 2 * lc;
  if (!otv_lw_need(w, sub, 2, K_SUBTABLE)) return OTV_OBJ_NONE;
  size_t gc = u16(w, sub);
  if (!otv_lw_need_array(w, sub + 2, gc, 2, K_SUBTABLE)) return OTV_OBJ_NONE;
  otv_buf *b = otv_lw_open(w);
  if (!b) return OTV_OBJ_NONE;
  otv_buf_u16(b, 1);
  otv_lw_off16(w, b, otv_lw_child(w, at, u16(w, at + 2), K_COVERAGE, 0));
  otv_buf_u16(b, (uint16_t)bc);
  otv_lw_off16_array(w, b, at, at + 6, bc, K_COVERAGE, 0);
  otv_buf_u16(b, (uint16_t)lc);
  otv_lw_off16_array(w, b, at, la + 2, lc, K_COVERAGE, 0);
  copy(w, b, sub, 2 + 2 * gc);
  return otv_lw_close(w, b);
}

/* A lookup sub-table of `type` (not Extension); unknown types and formats: no object (a client
 * ignores them). */
static otv_obj subtable(otv_lw *w, size_t at, unsigned type)
{
  if (!otv_lw_need(w, at, 2, K_SUBTABLE)) return OTV_OBJ_NONE;
  unsigned fmt = u16(w, at);
  if (is_gsub(w)) {
    switch (type) {
    case GSUB_SINGLE:
    case GSUB_MULTIPLE:
    case GSUB_ALTERNATE:
    case GSUB_LIGATURE: return gsub_simple(w, at, type, fmt);
    case GSUB_CONTEXT: return context(w, at, false);
    case GSUB_CHAIN_CONTEXT: return context(w, at, true);
    case GSUB_REVERSE_CHAIN: return reverse_chain(w, at);
    default: return OTV_OBJ_NONE;
    }
  }
  switch (type) {
  case GPOS_SINGLE: return fmt == 1 || fmt == 2 ? otv_lw_single_pos(w, at, fmt) : OTV_OBJ_NONE;
  case GPOS_PAIR: return fmt == 1 || fmt == 2 ? otv_lw_pair_pos(w, at, fmt) : OTV_OBJ_NONE;
  case GPOS_CURSIVE: return fmt == 1 ? otv_lw_cursive_pos(w, at) : OTV_OBJ_NONE;
  case GPOS_MARK_TO_BASE:
  case GPOS_MARK_TO_LIGATURE:
  case GPOS_MARK_TO_MARK: return fmt == 1 ? otv_lw_mark_pos(w, at, type) : OTV_OBJ_NONE;
  case GPOS_CONTEXT: return context(w, at, false);
  case GPOS_CHAIN_CONTEXT: return context(w, at, true);
  default: return OTV_OBJ_NONE;
  }
}

/* An Extension sub-table (format 1, extensionLookupType, Offset32 to the sub-table) around the
 * sub-table object st of `type`. */
static otv_obj extension_of(otv_lw *w, unsigned type, otv_obj st)
{
  if (!st) return OTV_OBJ_NONE;
  otv_buf *b = otv_lw_open(w);
  if (!b) return OTV_OBJ_NONE;
  otv_buf_u16(b, 1);
  otv_buf_u16(b, (uint16_t)type);
  otv_lw_off32(w, b, st);
  return otv_lw_close(w, b);
}

/* The Extension sub-table at `at` of an Extension lookup. *type: the type it extends. */
static otv_obj extension(otv_lw *w, size_t at)
{
  if (!otv_lw_need(w, at, 8, K_EXTENSION) || u16(w, at) != 1) return OTV_OBJ_NONE;
  unsigned type = u16(w, at + 2);
  if (type == extension_type(w))
    return otv_lw_fail(w, OTV_E_BAD_VALUE, at, "Extension of an Extension");
  uint32_t off = u32(w, at + 4);
  return extension_of(w, type, otv_lw_child(w, at, off, K_SUBTABLE, type));
}

/* Where the sub-tables of a lookup go (for emit_subtable). */
typedef struct lookup_out {
  otv_buf *b;
  size_t *kept;
  bool ext; /* each wrapped in an Extension sub-table */
} lookup_out;

static void emit_subtable(otv_lw *w, otv_obj st, void *ud)
{
  lookup_out *o = ud;
  if (o->ext) st = extension_of(w, GPOS_PAIR, st);
  if (!st) return;
  otv_lw_off16(w, o->b, st);
  (*o->kept)++;
}

/* Whether the PairPos sub-tables of the lookup at `at` go through the class-pair merge
 * (compact writes: runs of class-pair sub-tables share a matrix, and a sub-table that grew,
 * e.g. value fields added for a partial instance's deltas, is cut to fit its offsets). */
static bool merge_pairs(const otv_lw *w, size_t at, unsigned type, size_t n)
{
  if (is_gsub(w) || !w->xf->compact || !n) return false;
  if (type == GPOS_PAIR) return true;
  /* an Extension lookup: its first sub-table says what it extends (all must be the same) */
  size_t off = u16(w, at + 6); /* in range: the caller checked the offsets */
  return type == GPOS_EXTENSION && off && off < w->t.len - at && otv_span_has(w->t, at + off, 8) &&
         u16(w, at + off + 2) == GPOS_PAIR;
}

/* The absolute offsets of the lookup's PairPos sub-tables (0 where a sub-table is not one, or
 * is out of range), through Extension sub-tables when ext. NULL: out of memory (recorded). */
static size_t *pair_subtables(otv_lw *w, size_t at, bool ext, size_t n)
{
  size_t *v = otv_mem_calloc(w->al, n, sizeof *v);
  if (!v) return otv_lw_fail(w, OTV_E_NOMEM, at, "class-pair merge"), NULL;
  for (size_t i = 0; i < n; i++) {
    size_t off = u16(w, at + 6 + 2 * i), st = at + off;
    if (!off || off >= w->t.len - at) continue;
    if (ext) {
      if (!otv_span_has(w->t, st, 8) || u16(w, st) != 1 || u16(w, st + 2) != GPOS_PAIR) continue;
      uint32_t eo = u32(w, st + 4);
      if (!eo || eo >= w->t.len - st) continue;
      st += eo;
    }
    v[i] = st;
  }
  return v;
}

/* The type every Extension sub-table of the Extension lookup at `at` extends (spec: they must
 * all extend one type), or 0 when they do not, or one is NULL or broken (kept as Extension: the
 * builders report what is wrong). */
static unsigned extended_type(otv_lw *w, size_t at, size_t n)
{
  unsigned type = 0;
  for (size_t i = 0; i < n; i++) {
    size_t off = u16(w, at + 6 + 2 * i); /* in range: the caller checked the offsets */
    if (!off || off >= w->t.len - at || !otv_span_has(w->t, at + off, 8)) return 0;
    size_t st = at + off;
    unsigned t = u16(w, st + 2);
    uint32_t eo = u32(w, st + 4);
    if (u16(w, st) != 1 || !t || t == extension_type(w) || (type && t != type)) return 0;
    if (!eo || eo >= w->t.len - st) return 0;
    type = t;
  }
  return type;
}

/* spec: Lookup (lookupType, lookupFlag, subTableCount, subtableOffsets, markFilteringSet). */
static otv_obj lookup(otv_lw *w, size_t at)
{
  if (!otv_lw_need(w, at, 6, K_LOOKUP)) return OTV_OBJ_NONE;
  unsigned type = u16(w, at), flag = u16(w, at + 2);
  size_t n = u16(w, at + 4);
  bool mfs = flag & LOOKUP_USE_MARK_FILTERING_SET;
  if (!otv_lw_need_array(w, at + 6, n + mfs, 2, K_LOOKUP)) return OTV_OBJ_NONE;
  bool ext = type == extension_type(w), wrap = w->ext_mode == OTV_LW_EXT_PROMOTE && !ext;
  /* first attempt of a compact write: an Extension lookup written as the lookup it extends
   * (8 bytes less per sub-table), unless offsets then cannot reach */
  unsigned inner = ext && w->ext_mode == OTV_LW_EXT_UNWRAP ? extended_type(w, at, n) : 0;
  otv_buf *b = otv_lw_open(w);
  if (!b) return OTV_OBJ_NONE;
  otv_buf_u16(b, (uint16_t)(inner ? inner : wrap ? extension_type(w) : type));
  otv_buf_u16(b, (uint16_t)flag);
  size_t count_at = b->len, kept = 0;
  otv_buf_u16(b, 0);
  size_t *pairs = merge_pairs(w, at, type, n) ? pair_subtables(w, at, ext, n) : NULL;
  lookup_out out = {b, &kept, wrap || (ext && !inner)};
  for (size_t i = 0, j; i < n && !w->st; i = j) {
    /* a run of class-pair sub-tables that can share a class matrix: merged */
    for (j = i + 1; pairs && j < n && otv_lw_pair_mergeable(w, pairs[j - 1], pairs[j]);) j++;
    if (pairs && otv_lw_pair_mergeable(w, pairs[i], pairs[i]) &&
        otv_lw_pair_merge(w, pairs + i, j - i, emit_subtable, &out))
      continue;
    j = i + 1; /* or just this one, as it is */
    size_t off = u16(w, at + 6 + 2 * i);
    otv_obj st;
    if (inner) /* the extended sub-table itself (extended_type checked the Extension) */
      st = otv_lw_child(w, at + off, u32(w, at + off + 4), K_SUBTABLE, inner);
    else
      st = otv_lw_child(w, at, off, ext ? K_EXTENSION : K_SUBTABLE, type);
    if (wrap) st = extension_of(w, type, st);
    if (!st) continue; /* NULL, or a sub-table clients ignore */
    otv_lw_off16(w, b, st);
    kept++;
  }
  if (pairs) otv_mem_free(w->al, pairs, n * sizeof *pairs);
  if (!b->failed) otv_buf_put_u16(b, count_at, (uint16_t)kept);
  if (mfs) copy(w, b, at + 6 + 2 * n, 2);
  return otv_lw_close(w, b);
}

/* ---- ScriptList, FeatureList, Feature ---- */

static otv_obj script(otv_lw *w, size_t at)
{
  if (!otv_lw_need(w, at, 4, K_SCRIPT)) return OTV_OBJ_NONE;
  size_t n = u16(w, at + 2);
  if (!otv_lw_need_array(w, at + 4, n, 6, K_SCRIPT)) return OTV_OBJ_NONE;
  otv_buf *b = otv_lw_open(w);
  if (!b) return OTV_OBJ_NONE;
  otv_obj def = otv_lw_child(w, at, u16(w, at), K_LANGSYS, 0);
  otv_lw_off16(w, b, def);
  size_t count_at = b->len, kept = 0;
  otv_buf_u16(b, 0);
  for (size_t i = 0; i < n && !w->st; i++) {
    otv_obj ls = otv_lw_child(w, at, u16(w, at + 8 + 6 * i), K_LANGSYS, 0);
    /* spec: a language without a LangSys record uses DefaultLangSys: a record equal to it
     * (the same object once deduplicated) says nothing */
    if (w->xf->compact && def && ls == def) continue;
    copy(w, b, at + 4 + 6 * i, 4);
    otv_lw_off16(w, b, ls);
    kept++;
  }
  if (!b->failed) otv_buf_put_u16(b, count_at, (uint16_t)kept);
  return otv_lw_close(w, b);
}

static bool tag_is(uint32_t tag, char a, char b, unsigned lo, unsigned hi)
{
  unsigned c = tag >> 8 & 0xFF, d = tag & 0xFF;
  if ((tag >> 24) != (unsigned char)a || (tag >> 16 & 0xFF) != (unsigned char)b) return false;
  if (c < '0' || c > '9' || d < '0' || d > '9') return false;
  unsigned v = (c - '0') * 10 + (d - '0');
  return v >= lo && v <= hi;
}

/* spec: FeatureParams of 'size' (5 uint16), 'ss01'-'ss20' (version, UINameID), 'cv01'-'cv99'
 * (7 uint16, then characters as uint24); other features have none (the offset is dropped). */
static otv_obj feature_params(otv_lw *w, size_t at, uint32_t tag)
{
  if (tag == OTV_TAG('s', 'i', 'z', 'e')) return otv_lw_leaf(w, at, 10, K_FEATURE_PARAMS);
  if (tag_is(tag, 's', 's', 1, 20)) return otv_lw_leaf(w, at, 4, K_FEATURE_PARAMS);
  if (tag_is(tag, 'c', 'v', 1, 99) && otv_lw_need(w, at, 14, K_FEATURE_PARAMS))
    return otv_lw_leaf(w, at, 14 + 3 * (size_t)u16(w, at + 12), K_FEATURE_PARAMS);
  return OTV_OBJ_NONE;
}

/* spec: Feature (featureParamsOffset, lookupIndexCount, lookupListIndices). */
static otv_obj feature(otv_lw *w, size_t at, uint32_t tag)
{
  if (!otv_lw_need(w, at, 4, K_FEATURE)) return OTV_OBJ_NONE;
  size_t n = u16(w, at + 2);
  if (!otv_lw_need_array(w, at + 4, n, 2, K_FEATURE)) return OTV_OBJ_NONE;
  otv_buf *b = otv_lw_open(w);
  if (!b) return OTV_OBJ_NONE;
  otv_lw_off16(w, b, otv_lw_child(w, at, u16(w, at), K_FEATURE_PARAMS, tag));
  size_t count_at = b->len, kept = 0;
  otv_buf_u16(b, 0);
  for (size_t k = 0; k < n; k++) {
    unsigned i = lookup_index(w, u16(w, at + 4 + 2 * k));
    if (i != PRUNED) otv_buf_u16(b, (uint16_t)i), kept++;
  }
  if (!b->failed) otv_buf_put_u16(b, count_at, (uint16_t)kept);
  return otv_lw_close(w, b);
}

/* The FeatureList, each feature replaced by its substitute where FeatureVariations apply. */
static otv_obj feature_list(otv_lw *w, size_t at)
{
  if (!otv_lw_need(w, at, 2, K_FEATURE_LIST)) return OTV_OBJ_NONE;
  size_t n = u16(w, at);
  if (!otv_lw_need_array(w, at + 2, n, 6, K_FEATURE_LIST)) return OTV_OBJ_NONE;
  otv_buf *b = otv_lw_open(w);
  if (!b) return OTV_OBJ_NONE;
  size_t count_at = b->len, kept = 0;
  otv_buf_u16(b, 0);
  for (size_t i = 0; i < n && !w->st; i++) {
    size_t rec = at + 2 + 6 * i;
    uint32_t tag = u32(w, rec);
    /* pruned, or a duplicate of a feature written before (new indices are given in order) */
    if (feature_index(w, (unsigned)i) != kept) continue;
    kept++;
    copy(w, b, rec, 4);
    if (w->subst && i < w->feature_count && w->subst[i])
      otv_lw_off16(w, b, otv_lw_child_at(w, w->subst[i], K_FEATURE, tag));
    else
      otv_lw_off16(w, b, otv_lw_child(w, at, u16(w, rec + 4), K_FEATURE, tag));
  }
  if (!b->failed) otv_buf_put_u16(b, count_at, (uint16_t)kept);
  return otv_lw_close(w, b);
}

/* ---- GDEF ---- */

/* spec: AttachList (coverage, glyphCount, attachPointOffsets) and LigCaretList (coverage,
 * ligGlyphCount, ligGlyphOffsets): coverage, count, Offset16 to `kind`. */
static otv_obj coverage_list(otv_lw *w, size_t at, unsigned self, unsigned kind)
{
  if (!otv_lw_need(w, at, 4, self)) return OTV_OBJ_NONE;
  size_t n = u16(w, at + 2);
  if (!otv_lw_need_array(w, at + 4, n, 2, self)) return OTV_OBJ_NONE;
  otv_buf *b = otv_lw_open(w);
  if (!b) return OTV_OBJ_NONE;
  otv_lw_off16(w, b, otv_lw_child(w, at, u16(w, at), K_COVERAGE, 0));
  otv_buf_u16(b, (uint16_t)n);
  otv_lw_off16_array(w, b, at, at + 4, n, kind, 0);
  return otv_lw_close(w, b);
}

/* spec: MarkGlyphSets (format 1, markGlyphSetCount, Offset32 coverageOffsets). */
static otv_obj mark_glyph_sets(otv_lw *w, size_t at)
{
  if (!otv_lw_need(w, at, 4, K_MARK_GLYPH_SETS)) return OTV_OBJ_NONE;
  if (u16(w, at) != 1)
    return otv_lw_fail(w, OTV_E_BAD_VALUE, at, "MarkGlyphSets of an unknown format");
  size_t n = u16(w, at + 2);
  if (!otv_lw_need_array(w, at + 4, n, 4, K_MARK_GLYPH_SETS)) return OTV_OBJ_NONE;
  otv_buf *b = otv_lw_open(w);
  if (!b) return OTV_OBJ_NONE;
  copy(w, b, at, 4);
  for (size_t i = 0; i < n && !w->st; i++)
    otv_lw_off32(w, b, otv_lw_child(w, at, u32(w, at + 4 + 4 * i), K_COVERAGE, 0));
  return otv_lw_close(w, b);
}

/* ---- BASE ---- */

/* spec: BaseScript (baseValuesOffset, defaultMinMaxOffset, baseLangSysCount, {tag, minMax}). */
static otv_obj base_script(otv_lw *w, size_t at)
{
  if (!otv_lw_need(w, at, 6, K_BASE_SCRIPT)) return OTV_OBJ_NONE;
  size_t n = u16(w, at + 4);
  if (!otv_lw_need_array(w, at + 6, n, 6, K_BASE_SCRIPT)) return OTV_OBJ_NONE;
  otv_buf *b = otv_lw_open(w);
  if (!b) return OTV_OBJ_NONE;
  otv_lw_off16(w, b, otv_lw_child(w, at, u16(w, at), K_BASE_VALUES, 0));
  otv_lw_off16(w, b, otv_lw_child(w, at, u16(w, at + 2), K_MIN_MAX, 0));
  otv_buf_u16(b, (uint16_t)n);
  for (size_t i = 0; i < n && !w->st; i++) {
    copy(w, b, at + 6 + 6 * i, 4);
    otv_lw_off16(w, b, otv_lw_child(w, at, u16(w, at + 10 + 6 * i), K_MIN_MAX, 0));
  }
  return otv_lw_close(w, b);
}

/* spec: BaseValues (defaultBaselineIndex, baseCoordCount, baseCoordOffsets). */
static otv_obj base_values(otv_lw *w, size_t at)
{
  if (!otv_lw_need(w, at, 4, K_BASE_VALUES)) return OTV_OBJ_NONE;
  size_t n = u16(w, at + 2);
  if (!otv_lw_need_array(w, at + 4, n, 2, K_BASE_VALUES)) return OTV_OBJ_NONE;
  otv_buf *b = otv_lw_open(w);
  if (!b) return OTV_OBJ_NONE;
  copy(w, b, at, 4);
  otv_lw_off16_array(w, b, at, at + 4, n, K_BASE_COORD, 0);
  return otv_lw_close(w, b);
}

/* spec: MinMax (minCoord, maxCoord, featMinMaxCount, {tag, minCoord, maxCoord}). */
static otv_obj min_max(otv_lw *w, size_t at)
{
  if (!otv_lw_need(w, at, 6, K_MIN_MAX)) return OTV_OBJ_NONE;
  size_t n = u16(w, at + 4);
  if (!otv_lw_need_array(w, at + 6, n, 8, K_MIN_MAX)) return OTV_OBJ_NONE;
  otv_buf *b = otv_lw_open(w);
  if (!b) return OTV_OBJ_NONE;
  otv_lw_off16_array(w, b, at, at, 2, K_BASE_COORD, 0);
  otv_buf_u16(b, (uint16_t)n);
  for (size_t i = 0; i < n && !w->st; i++) {
    copy(w, b, at + 6 + 8 * i, 4);
    otv_lw_off16_array(w, b, at, at + 10 + 8 * i, 2, K_BASE_COORD, 0);
  }
  return otv_lw_close(w, b);
}

/* spec: Axis (baseTagListOffset, baseScriptListOffset). */
static otv_obj base_axis(otv_lw *w, size_t at)
{
  if (!otv_lw_need(w, at, 4, K_BASE_AXIS)) return OTV_OBJ_NONE;
  otv_buf *b = otv_lw_open(w);
  if (!b) return OTV_OBJ_NONE;
  otv_lw_off16(w, b, otv_lw_child(w, at, u16(w, at), K_BASE_TAG_LIST, 0));
  otv_lw_off16(w, b, otv_lw_child(w, at, u16(w, at + 2), K_BASE_SCRIPT_LIST, 0));
  return otv_lw_close(w, b);
}

/* ---- dispatch ---- */

static otv_obj build(otv_lw *w, size_t at, unsigned kind, uint64_t ctx)
{
  switch (kind) {
  case K_SCRIPT_LIST: return otv_lw_tagged_list(w, at, K_SCRIPT_LIST, K_SCRIPT);
  case K_SCRIPT: return script(w, at);
  case K_LANGSYS: return otv_lw_langsys(w, at);
  case K_FEATURE_LIST: return feature_list(w, at);
  case K_FEATURE: return feature(w, at, (uint32_t)ctx);
  case K_FEATURE_PARAMS: return feature_params(w, at, (uint32_t)ctx);
  case K_LOOKUP_LIST: return otv_lw_lookup_list(w, at);
  case K_LOOKUP: return lookup(w, at);
  case K_SUBTABLE: return subtable(w, at, (unsigned)ctx);
  case K_EXTENSION: return extension(w, at);
  case K_COVERAGE: return otv_lw_coverage(w, at);
  case K_CLASS_DEF: return otv_lw_class_def(w, at);
  case K_DEVICE: return otv_lw_device(w, at);
  case K_U16_ARRAY:
    return otv_lw_need(w, at, 2, kind) ? otv_lw_leaf(w, at, 2 + 2 * (size_t)u16(w, at), kind)
                                       : OTV_OBJ_NONE;
  case K_LIGATURE_SET: return otv_lw_offset_list(w, at, K_LIGATURE_SET, K_LIGATURE, 0);
  case K_LIGATURE:
    if (!otv_lw_need(w, at, 4, kind)) return OTV_OBJ_NONE;
    return otv_lw_leaf(w, at, 4 + 2 * (u16(w, at + 2) ? (size_t)u16(w, at + 2) - 1 : 0), kind);
  case K_RULE_SET: return otv_lw_offset_list(w, at, K_RULE_SET, (unsigned)ctx, 0);
  case K_RULE: return rule(w, at);
  case K_CHAIN_RULE: return chain_rule(w, at);
  case K_PAIR_SET: return otv_lw_pair_set(w, at, ctx);
  case K_ANCHOR: return otv_lw_anchor(w, at);
  case K_MARK_ARRAY: return otv_lw_mark_array(w, at);
  case K_ANCHOR_MATRIX: return otv_lw_anchor_matrix(w, at, ctx);
  case K_LIGATURE_ARRAY: return otv_lw_offset_list(w, at, K_LIGATURE_ARRAY, K_ANCHOR_MATRIX, ctx);
  case K_FEATURE_SUBST: return otv_lw_feature_subst(w, at);
  case K_ATTACH_LIST: return coverage_list(w, at, K_ATTACH_LIST, K_U16_ARRAY);
  case K_LIG_CARET_LIST: return coverage_list(w, at, K_LIG_CARET_LIST, K_LIG_GLYPH);
  case K_LIG_GLYPH: return otv_lw_offset_list(w, at, K_LIG_GLYPH, K_CARET, 0);
  case K_CARET: return otv_lw_caret_or_coord(w, at, K_CARET);
  case K_MARK_GLYPH_SETS: return mark_glyph_sets(w, at);
  case K_BASE_AXIS: return base_axis(w, at);
  case K_BASE_TAG_LIST:
    return otv_lw_need(w, at, 2, kind) ? otv_lw_leaf(w, at, 2 + 4 * (size_t)u16(w, at), kind)
                                       : OTV_OBJ_NONE;
  case K_BASE_SCRIPT_LIST: return otv_lw_tagged_list(w, at, K_BASE_SCRIPT_LIST, K_BASE_SCRIPT);
  case K_BASE_SCRIPT: return base_script(w, at);
  case K_BASE_VALUES: return base_values(w, at);
  case K_MIN_MAX: return min_max(w, at);
  case K_BASE_COORD: return otv_lw_caret_or_coord(w, at, K_BASE_COORD);
  default: return otv_lw_fail(w, OTV_E_BAD_VALUE, at, "layout object of no kind"); /* not reached */
  }
}

/* ---- the tables ---- */

/* The ItemVariationStore at `off` of GDEF or BASE: the caller's (dropped, rewritten), or its
 * bytes as they are (every offset inside a store is from its start and points forward, so the
 * bytes from its start to its end hold it whole). */
static otv_obj item_variation_store(otv_lw *w, size_t off)
{
  if (!off || w->st) return OTV_OBJ_NONE;
  if (off >= w->t.len) return otv_lw_need(w, off, 1, K_STORE), OTV_OBJ_NONE;
  if (!w->xf->store) {
    otv_ivs ivs;
    otv_status st = otv_ivs_parse(w->al, w->t, w->tag, off, UINT16_MAX, &ivs, w->err);
    if (st) {
      if (!w->st) w->st = st;
      return OTV_OBJ_NONE;
    }
    size_t end = otv_ivs_end(&ivs, w->t, off);
    otv_ivs_free(w->al, &ivs);
    return otv_lw_leaf(w, off, end - off, K_STORE);
  }
  otv_obj id = OTV_OBJ_NONE;
  otv_status st = w->xf->store(w->xf->ud, w->g, w->t, off, &id, w->err);
  if (st && !w->st) w->st = st;
  return id;
}

/* GSUB/GPOS: version, ScriptList, FeatureList, LookupList, [FeatureVariations]. */
static otv_obj gsub_gpos(otv_lw *w)
{
  if (!otv_lw_need(w, 0, 10, K_SCRIPT_LIST)) return OTV_OBJ_NONE;
  if (u16(w, 0) != 1) return otv_lw_fail(w, OTV_E_UNSUPPORTED, 0, "major version not 1");
  size_t fl = u16(w, 6);
  uint32_t fv = u16(w, 2) >= 1 && otv_lw_need(w, 0, 14, K_SCRIPT_LIST) ? u32(w, 10) : 0;
  if (w->st) return OTV_OBJ_NONE;
  if (fl && otv_lw_need(w, fl, 2, K_FEATURE_LIST)) {
    w->feature_list = fl;
    w->feature_count = u16(w, fl);
    if (!otv_lw_need_array(w, fl + 2, w->feature_count, 6, K_FEATURE_LIST)) return OTV_OBJ_NONE;
  }
  otv_obj fvo = OTV_OBJ_NONE;
  if (fv && fl) {
    w->subst = otv_mem_calloc(w->al, w->feature_count + 1, sizeof *w->subst);
    if (!w->subst) return otv_lw_fail(w, OTV_E_NOMEM, fv, "feature substitutions");
    if (fv >= w->t.len) return otv_lw_need(w, fv, 1, K_FEATURE_SUBST), OTV_OBJ_NONE;
    otv_lw_fv_plan(w, fv);
  }
  /* the plans first (which records stay, which lookups and features), then the objects */
  if (w->xf->compact && fl) otv_lw_prune_plan(w, u16(w, 4), u16(w, 8), fv);
  if (fv && fl) fvo = otv_lw_feature_variations(w, fv);
  otv_obj sl = otv_lw_child(w, 0, u16(w, 4), K_SCRIPT_LIST, 0);
  otv_obj flo = otv_lw_child(w, 0, fl, K_FEATURE_LIST, 0);
  otv_obj ll = otv_lw_child(w, 0, u16(w, 8), K_LOOKUP_LIST, 0);
  otv_buf *b = otv_lw_open(w);
  if (!b) return OTV_OBJ_NONE;
  otv_buf_u16(b, 1);
  otv_buf_u16(b, fvo ? 1 : 0);
  otv_lw_off16(w, b, sl);
  otv_lw_off16(w, b, flo);
  otv_lw_off16(w, b, ll);
  if (fvo) otv_lw_off32(w, b, fvo);
  return otv_lw_close(w, b);
}

/* Whether every mark glyph set at `at` (MarkGlyphSets format 1) is empty: a lookup filtering
 * by an empty set skips every mark, as it does when the set is absent, so the table says
 * nothing. */
static bool mark_sets_empty(otv_lw *w, size_t at)
{
  if (!at || !otv_span_has(w->t, at, 4) || u16(w, at) != 1) return false;
  size_t n = u16(w, at + 2);
  if (!otv_span_has(w->t, at + 4, 4 * n)) return false;
  for (size_t i = 0; i < n; i++) {
    uint32_t off = u32(w, at + 4 + 4 * i);
    if (!off) continue;
    if (off >= w->t.len - at || !otv_span_has(w->t, at + off, 4)) return false;
    unsigned fmt = u16(w, at + off);
    if ((fmt != 1 && fmt != 2) || u16(w, at + off + 2)) return false;
  }
  return true;
}

/* GDEF: version, GlyphClassDef, AttachList, LigCaretList, MarkAttachClassDef, [1.2:
 * MarkGlyphSetsDef], [1.3: ItemVariationStore]; written at the lowest version that holds what
 * is left. */
static otv_obj gdef(otv_lw *w)
{
  if (!otv_lw_need(w, 0, 12, K_CLASS_DEF)) return OTV_OBJ_NONE;
  if (u16(w, 0) != 1) return otv_lw_fail(w, OTV_E_UNSUPPORTED, 0, "major version not 1");
  unsigned minor = u16(w, 2);
  size_t mgs = minor >= 2 && otv_lw_need(w, 0, 14, K_MARK_GLYPH_SETS) ? u16(w, 12) : 0;
  size_t ivs = minor >= 3 && otv_lw_need(w, 0, 18, K_MARK_GLYPH_SETS) ? u32(w, 14) : 0;
  otv_obj gc = otv_lw_child(w, 0, u16(w, 4), K_CLASS_DEF, 0);
  otv_obj al = otv_lw_child(w, 0, u16(w, 6), K_ATTACH_LIST, 0);
  otv_obj lc = otv_lw_child(w, 0, u16(w, 8), K_LIG_CARET_LIST, 0);
  otv_obj mc = otv_lw_child(w, 0, u16(w, 10), K_CLASS_DEF, 0);
  otv_obj mg = w->xf->compact && mark_sets_empty(w, mgs)
                   ? OTV_OBJ_NONE
                   : otv_lw_child(w, 0, mgs, K_MARK_GLYPH_SETS, 0);
  otv_obj st = item_variation_store(w, ivs);
  unsigned out_minor = st ? 3 : mg ? 2 : 0;
  otv_buf *b = otv_lw_open(w);
  if (!b) return OTV_OBJ_NONE;
  otv_buf_u16(b, 1);
  otv_buf_u16(b, (uint16_t)out_minor);
  otv_lw_off16(w, b, gc);
  otv_lw_off16(w, b, al);
  otv_lw_off16(w, b, lc);
  otv_lw_off16(w, b, mc);
  if (out_minor >= 2) otv_lw_off16(w, b, mg);
  if (out_minor >= 3) otv_lw_off32(w, b, st);
  return otv_lw_close(w, b);
}

/* BASE: version, HorizAxis, VertAxis, [1.1: ItemVariationStore]. */
static otv_obj base(otv_lw *w)
{
  if (!otv_lw_need(w, 0, 8, K_BASE_AXIS)) return OTV_OBJ_NONE;
  if (u16(w, 0) != 1) return otv_lw_fail(w, OTV_E_UNSUPPORTED, 0, "major version not 1");
  size_t ivs = u16(w, 2) >= 1 && otv_lw_need(w, 0, 12, K_BASE_AXIS) ? u32(w, 8) : 0;
  otv_obj h = otv_lw_child(w, 0, u16(w, 4), K_BASE_AXIS, 0);
  otv_obj v = otv_lw_child(w, 0, u16(w, 6), K_BASE_AXIS, 0);
  otv_obj st = item_variation_store(w, ivs);
  otv_buf *b = otv_lw_open(w);
  if (!b) return OTV_OBJ_NONE;
  otv_buf_u16(b, 1);
  otv_buf_u16(b, st ? 1 : 0);
  otv_lw_off16(w, b, h);
  otv_lw_off16(w, b, v);
  if (st) otv_lw_off32(w, b, st);
  return otv_lw_close(w, b);
}

static void wk_fini(otv_lw *w)
{
  if (w->memo) otv_mem_free(w->al, w->memo, w->memo_cap * sizeof *w->memo);
  if (w->subst) otv_mem_free(w->al, w->subst, ((size_t)w->feature_count + 1) * sizeof *w->subst);
  if (w->fv_keep) otv_mem_free(w->al, w->fv_keep, ((size_t)w->fv_count + 1) * sizeof *w->fv_keep);
  if (w->lmap) otv_mem_free(w->al, w->lmap, ((size_t)w->lookup_count + 1) * sizeof *w->lmap);
  if (w->fmap) otv_mem_free(w->al, w->fmap, ((size_t)w->feature_count + 1) * sizeof *w->fmap);
  if (w->dkey) otv_mem_free(w->al, w->dkey, DEV_SLOTS * sizeof *w->dkey);
  if (w->dval) otv_mem_free(w->al, w->dval, DEV_SLOTS * sizeof *w->dval);
  if (w->dkind) otv_mem_free(w->al, w->dkind, DEV_SLOTS);
  if (w->fseen) otv_mem_free(w->al, w->fseen, ((size_t)w->feature_count + 1) / 8 + 1);
  otv_graph_free(w->g);
}

otv_status otv_layout_write(const otv_alloc *al, uint32_t tag, otv_span table,
                            const otv_layout_xform *xf, otv_buf *out, otv_error *err)
{
  static const otv_layout_xform as_read = {0};
  bool lookups = tag == OTV_T_GSUB || tag == OTV_T_GPOS;
  if (!lookups && tag != OTV_T_GDEF && tag != OTV_T_BASE)
    return OTV_FAIL(err, ARG, tag, 0, "not a layout table");
  /* again, with more Extension lookups, while 16-bit offsets cannot reach (layout_walk.h) */
  /* Extension lookups unwrapped first only where that can fit: a table of 64 KiB or more would
   * build and place everything once in vain */
  unsigned first =
      xf && xf->compact && table.len <= 0xFFFF ? OTV_LW_EXT_UNWRAP : OTV_LW_EXT_AS_READ;
  for (unsigned mode = first; mode <= OTV_LW_EXT_PROMOTE; mode++) {
    otv_lw w;
    memset(&w, 0, sizeof w);
    w.al = al, w.t = table, w.tag = tag, w.xf = xf ? xf : &as_read, w.err = err;
    w.ext_mode = mode;
    w.build = build;
    w.budget = table.len > (SIZE_MAX - (1u << 20)) / OTV_LAYOUT_WORK_FACTOR
                   ? SIZE_MAX
                   : OTV_LAYOUT_WORK_FACTOR * table.len + (1u << 20);
    w.g = otv_graph_new(al);
    if (!w.g) return OTV_FAIL(err, NOMEM, tag, 0, "layout graph");
    otv_obj root = lookups ? gsub_gpos(&w) : tag == OTV_T_GDEF ? gdef(&w) : base(&w);
    otv_status st = w.st;
    if (!st && !root) st = OTV_FAIL(err, NOMEM, tag, 0, "layout graph");
    otv_graph_overflow ov = {0, 0, 0};
    if (!st) st = otv_graph_write(w.g, root, out, &ov);
    wk_fini(&w);
    if (st == OTV_E_LIMIT && !w.st) {
      if (lookups && mode < OTV_LW_EXT_PROMOTE) continue;
      return OTV_FAIL(err, LIMIT, tag, 0,
                      "sub-tables cannot be placed so that 16-bit offsets reach them (object %u "
                      "to %u)",
                      (unsigned)ov.parent, (unsigned)ov.child);
    }
    if (st == OTV_E_NOMEM && !w.st) return OTV_FAIL(err, NOMEM, tag, 0, "writing the table");
    return st;
  }
  return OTV_E_OK; /* not reached */
}

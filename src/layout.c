/*
 * layout.c - GSUB, GPOS, GDEF and BASE decoded into an object graph and written back (see
 * layout.h). One builder per kind of sub-table: it checks the sub-table's extent, opens an
 * object, copies its fields, builds each child it has an offset to (through child(), which
 * decodes a (offset, kind, context) once) and links it, and closes the object.
 *
 * Spec: chapter2, GSUB, GPOS, GDEF, BASE (field names below are the spec's).
 */
#include "layout.h"

/* ---- the spec's numbers ---- */
enum {
  GSUB_SINGLE = 1,
  GSUB_MULTIPLE = 2,
  GSUB_ALTERNATE = 3,
  GSUB_LIGATURE = 4,
  GSUB_CONTEXT = 5,
  GSUB_CHAIN_CONTEXT = 6,
  GSUB_EXTENSION = 7,
  GSUB_REVERSE_CHAIN = 8,
  GPOS_SINGLE = 1,
  GPOS_PAIR = 2,
  GPOS_CURSIVE = 3,
  GPOS_MARK_TO_BASE = 4,
  GPOS_MARK_TO_LIGATURE = 5,
  GPOS_MARK_TO_MARK = 6,
  GPOS_CONTEXT = 7,
  GPOS_CHAIN_CONTEXT = 8,
  GPOS_EXTENSION = 9
};
#define LOOKUP_USE_MARK_FILTERING_SET 0x0010u
#define DELTA_FORMAT_VARIATION_INDEX 0x8000u
#define CONDITION_FORMAT_AXIS_RANGE 1
#define VALUE_FORMAT_FIELDS 0x00FFu /* bits 0-3 values, 4-7 devices; the rest reserved */

/* ---- the kinds of object ---- */
enum {
  K_SCRIPT_LIST = 1,
  K_SCRIPT,
  K_LANGSYS,
  K_FEATURE_LIST,
  K_FEATURE,        /* ctx: the feature's tag (for its FeatureParams) */
  K_FEATURE_PARAMS, /* ctx: the feature's tag */
  K_LOOKUP_LIST,
  K_LOOKUP,
  K_SUBTABLE,  /* ctx: lookup type */
  K_EXTENSION, /* an Extension sub-table of an Extension lookup */
  K_COVERAGE,
  K_CLASS_DEF,
  K_DEVICE,
  K_U16_ARRAY, /* count + count uint16: Sequence, AlternateSet, AttachPoint */
  K_LIGATURE_SET,
  K_LIGATURE,
  K_RULE_SET, /* ctx: K_RULE or K_CHAIN_RULE */
  K_RULE,
  K_CHAIN_RULE,
  K_PAIR_SET, /* ctx: value formats in and out (see pair_ctx) */
  K_ANCHOR,
  K_MARK_ARRAY,
  K_ANCHOR_MATRIX,  /* BaseArray, Mark2Array, LigatureAttach; ctx: anchors per row */
  K_LIGATURE_ARRAY, /* ctx: markClassCount */
  K_CONDITION_SET,
  K_FEATURE_SUBST,
  K_ATTACH_LIST,
  K_LIG_CARET_LIST,
  K_LIG_GLYPH,
  K_CARET,
  K_MARK_GLYPH_SETS,
  K_BASE_AXIS,
  K_BASE_TAG_LIST,
  K_BASE_SCRIPT_LIST,
  K_BASE_SCRIPT,
  K_BASE_VALUES,
  K_MIN_MAX,
  K_BASE_COORD,
  K_STORE,
  K_COUNT
};
static const char *const KIND_NAME[K_COUNT] = {
    [K_SCRIPT_LIST] = "ScriptList",
    [K_SCRIPT] = "Script",
    [K_LANGSYS] = "LangSys",
    [K_FEATURE_LIST] = "FeatureList",
    [K_FEATURE] = "Feature",
    [K_FEATURE_PARAMS] = "FeatureParams",
    [K_LOOKUP_LIST] = "LookupList",
    [K_LOOKUP] = "Lookup",
    [K_SUBTABLE] = "lookup sub-table",
    [K_EXTENSION] = "Extension sub-table",
    [K_COVERAGE] = "Coverage",
    [K_CLASS_DEF] = "ClassDef",
    [K_DEVICE] = "Device",
    [K_U16_ARRAY] = "glyph array",
    [K_LIGATURE_SET] = "LigatureSet",
    [K_LIGATURE] = "Ligature",
    [K_RULE_SET] = "rule set",
    [K_RULE] = "rule",
    [K_CHAIN_RULE] = "chained rule",
    [K_PAIR_SET] = "PairSet",
    [K_ANCHOR] = "Anchor",
    [K_MARK_ARRAY] = "MarkArray",
    [K_ANCHOR_MATRIX] = "anchor array",
    [K_LIGATURE_ARRAY] = "LigatureArray",
    [K_CONDITION_SET] = "ConditionSet",
    [K_FEATURE_SUBST] = "FeatureTableSubstitution",
    [K_ATTACH_LIST] = "AttachList",
    [K_LIG_CARET_LIST] = "LigCaretList",
    [K_LIG_GLYPH] = "LigGlyph",
    [K_CARET] = "CaretValue",
    [K_MARK_GLYPH_SETS] = "MarkGlyphSets",
    [K_BASE_AXIS] = "BASE Axis",
    [K_BASE_TAG_LIST] = "BaseTagList",
    [K_BASE_SCRIPT_LIST] = "BaseScriptList",
    [K_BASE_SCRIPT] = "BaseScript",
    [K_BASE_VALUES] = "BaseValues",
    [K_MIN_MAX] = "MinMax",
    [K_BASE_COORD] = "BaseCoord",
    [K_STORE] = "ItemVariationStore",
};

typedef struct memo_slot {
  uint64_t key, ctx; /* key: offset << 6 | kind (0: empty) */
  otv_obj id;
} memo_slot;

#define DEV_CACHE 256

typedef struct wk {
  const otv_alloc *al;
  otv_graph *g;
  otv_span t;
  uint32_t tag;
  const otv_layout_xform *xf;
  otv_error *err;
  otv_status st;
  bool promote; /* every lookup written as an Extension lookup */
  size_t work, budget;
  memo_slot *memo;
  size_t memo_cap, memo_count;
  /* FeatureList: where, how many features, and per feature the Feature table that replaces it
   * (absolute offset; 0: its own), from the FeatureVariationRecord applied */
  size_t feature_list;
  unsigned feature_count;
  size_t *subst;
  /* deltas of VariationIndex devices already seen (device tables are widely shared) */
  size_t dkey[DEV_CACHE]; /* offset + 1; 0: empty */
  int dval[DEV_CACHE];
} wk;

/* ---- failing and reading ---- */

static otv_obj fail(wk *w, otv_status code, size_t at, const char *what)
{
  if (!w->st) w->st = otv_fail(w->err, code, w->tag, at, "%s", what);
  return OTV_OBJ_NONE;
}

/* n bytes at `at` are in the table (else the first failure is recorded, naming `kind`). */
static bool need(wk *w, size_t at, size_t n, unsigned kind)
{
  if (w->st) return false;
  if (otv_span_has(w->t, at, n)) return true;
  if (!w->st)
    w->st = otv_fail(w->err, OTV_E_TRUNCATED, w->tag, at, "%s runs past the end of the table",
                     KIND_NAME[kind]);
  return false;
}
/* count elements of elem bytes at `at` (overflow-checked). */
static bool need_array(wk *w, size_t at, size_t count, size_t elem, unsigned kind)
{
  otv_span s;
  if (w->st) return false;
  if (otv_span_array(w->t, at, count, elem, &s)) return true;
  return need(w, at, SIZE_MAX, kind);
}
/* Unchecked: only where need() covered the bytes. */
static unsigned u16(const wk *w, size_t at) { return otv_peek_u16(w->t.p + at); }
static uint32_t u32(const wk *w, size_t at) { return otv_peek_u32(w->t.p + at); }

/* ---- objects ---- */

static otv_buf *open_obj(wk *w)
{
  if (w->st) return NULL;
  otv_buf *b = otv_graph_push(w->g);
  if (!b)
    fail(w, otv_graph_status(w->g) == OTV_E_NOMEM ? OTV_E_NOMEM : OTV_E_LIMIT, 0, "layout nesting");
  return b;
}

/* Close the open object (dropped after a failure, so the graph's stack stays balanced). */
static otv_obj close_obj(wk *w, otv_buf *b)
{
  if (!b) return OTV_OBJ_NONE;
  w->work += b->len;
  if (!w->st && w->work > w->budget)
    fail(w, OTV_E_LIMIT, 0, "layout work budget exceeded (shared sub-tables fan out)");
  if (!w->st && b->failed) fail(w, OTV_E_NOMEM, 0, "layout object");
  if (w->st) {
    otv_graph_discard(w->g);
    return OTV_OBJ_NONE;
  }
  otv_obj id = otv_graph_pop(w->g);
  if (!id)
    fail(w, otv_graph_status(w->g) == OTV_E_LIMIT ? OTV_E_LIMIT : OTV_E_NOMEM, 0, "layout graph");
  return id;
}

/* An object that is the n bytes at `at` as they are. */
static otv_obj leaf(wk *w, size_t at, size_t n, unsigned kind)
{
  if (!need(w, at, n, kind)) return OTV_OBJ_NONE;
  otv_buf *b = open_obj(w);
  if (b) otv_buf_bytes(b, w->t.p + at, n);
  return close_obj(w, b);
}

static void put_off16(wk *w, otv_buf *b, otv_obj child)
{
  size_t pos = b->len;
  otv_buf_u16(b, 0);
  if (child && !b->failed) otv_graph_link(w->g, pos, 2, child);
}
static void put_off32(wk *w, otv_buf *b, otv_obj child)
{
  size_t pos = b->len;
  otv_buf_u32(b, 0);
  if (child && !b->failed) otv_graph_link(w->g, pos, 4, child);
}
/* Copy n bytes from the table (the caller checked them). */
static void copy(wk *w, otv_buf *b, size_t at, size_t n) { otv_buf_bytes(b, w->t.p + at, n); }

/* ---- decoding each (offset, kind, context) once ---- */

static otv_obj build(wk *w, size_t at, unsigned kind, uint64_t ctx);

static uint64_t memo_hash(uint64_t key, uint64_t ctx)
{
  uint64_t h = key * 0x9E3779B97F4A7C15u ^ ctx * 0xC2B2AE3D27D4EB4Fu;
  return h ^ h >> 29;
}

static memo_slot *memo_find(wk *w, uint64_t key, uint64_t ctx)
{
  size_t mask = w->memo_cap - 1, i = (size_t)memo_hash(key, ctx) & mask;
  while (w->memo[i].key && (w->memo[i].key != key || w->memo[i].ctx != ctx)) i = (i + 1) & mask;
  return &w->memo[i];
}

static bool memo_grow(wk *w)
{
  size_t cap = w->memo_cap ? 2 * w->memo_cap : 1024;
  memo_slot *old = w->memo;
  size_t old_cap = w->memo_cap;
  w->memo = otv_mem_calloc(w->al, cap, sizeof *w->memo);
  if (!w->memo) {
    w->memo = old;
    return false;
  }
  w->memo_cap = cap;
  for (size_t i = 0; i < old_cap; i++)
    if (old[i].key) *memo_find(w, old[i].key, old[i].ctx) = old[i];
  otv_mem_free(w->al, old, old_cap * sizeof *old);
  return true;
}

/* The object of `kind` at absolute offset `at`. */
static otv_obj child_at(wk *w, size_t at, unsigned kind, uint64_t ctx)
{
  if (w->st) return OTV_OBJ_NONE;
  if (at >= w->t.len) return need(w, at, 1, kind) ? OTV_OBJ_NONE : OTV_OBJ_NONE;
  uint64_t key = (uint64_t)at << 6 | kind;
  if (2 * (w->memo_count + 1) > w->memo_cap && !memo_grow(w))
    return fail(w, OTV_E_NOMEM, at, "layout memo");
  memo_slot *s = memo_find(w, key, ctx);
  if (s->key) return s->id;
  otv_obj id = build(w, at, kind, ctx);
  if (w->st) return OTV_OBJ_NONE;
  s = memo_find(w, key, ctx); /* the table may have grown meanwhile */
  s->key = key, s->ctx = ctx, s->id = id;
  w->memo_count++;
  return id;
}

/* The object of `kind` at offset `off` from `base` (off 0: none). */
static otv_obj child(wk *w, size_t base, size_t off, unsigned kind, uint64_t ctx)
{
  if (!off || w->st) return OTV_OBJ_NONE;
  if (off >= w->t.len - base) return need(w, w->t.len, 1, kind), OTV_OBJ_NONE;
  return child_at(w, base + off, kind, ctx);
}

/* An array of n Offset16 at `arr` (checked by the caller), each from `base`, to `kind`. */
static void off16_array(wk *w, otv_buf *b, size_t base, size_t arr, size_t n, unsigned kind,
                        uint64_t ctx)
{
  for (size_t i = 0; i < n && !w->st; i++)
    put_off16(w, b, child(w, base, u16(w, arr + 2 * i), kind, ctx));
}

/* A table of count + count Offset16 to `kind` (ScriptList-less lists: LookupList, LigatureSet,
 * rule sets, LigatureArray...). */
static otv_obj offset_list(wk *w, size_t at, unsigned self, unsigned kind, uint64_t ctx)
{
  if (!need(w, at, 2, self)) return OTV_OBJ_NONE;
  size_t n = u16(w, at);
  if (!need_array(w, at + 2, n, 2, self)) return OTV_OBJ_NONE;
  otv_buf *b = open_obj(w);
  if (!b) return OTV_OBJ_NONE;
  otv_buf_u16(b, (uint16_t)n);
  off16_array(w, b, at, at + 2, n, kind, ctx);
  return close_obj(w, b);
}

/* A table of count + count {Tag, Offset16} (ScriptList, FeatureList without substitutions,
 * BaseScriptList). */
static otv_obj tagged_list(wk *w, size_t at, unsigned self, unsigned kind)
{
  if (!need(w, at, 2, self)) return OTV_OBJ_NONE;
  size_t n = u16(w, at);
  if (!need_array(w, at + 2, n, 6, self)) return OTV_OBJ_NONE;
  otv_buf *b = open_obj(w);
  if (!b) return OTV_OBJ_NONE;
  otv_buf_u16(b, (uint16_t)n);
  for (size_t i = 0; i < n && !w->st; i++) {
    size_t rec = at + 2 + 6 * i;
    copy(w, b, rec, 4);
    put_off16(w, b, child(w, at, u16(w, rec + 4), kind, 0));
  }
  return close_obj(w, b);
}

/* ---- leaves whose length a field gives ---- */

static otv_obj coverage(wk *w, size_t at)
{
  if (!need(w, at, 4, K_COVERAGE)) return OTV_OBJ_NONE;
  unsigned fmt = u16(w, at), n = u16(w, at + 2);
  if (fmt == 1) return leaf(w, at, 4 + 2 * (size_t)n, K_COVERAGE);
  if (fmt == 2) return leaf(w, at, 4 + 6 * (size_t)n, K_COVERAGE);
  return fail(w, OTV_E_BAD_VALUE, at, "Coverage of an unknown format");
}

static otv_obj class_def(wk *w, size_t at)
{
  if (!need(w, at, 4, K_CLASS_DEF)) return OTV_OBJ_NONE;
  unsigned fmt = u16(w, at);
  if (fmt == 1 && need(w, at, 6, K_CLASS_DEF))
    return leaf(w, at, 6 + 2 * (size_t)u16(w, at + 4), K_CLASS_DEF);
  if (fmt == 2) return leaf(w, at, 4 + 6 * (size_t)u16(w, at + 2), K_CLASS_DEF);
  return fail(w, OTV_E_BAD_VALUE, at, "ClassDef of an unknown format");
}

/* spec: Device (deltaFormat 1-3: startSize, endSize, packed deltas of 2/4/8 bits) and
 * VariationIndex (deltaFormat 0x8000) tables; other formats are ignored (no object). */
static otv_obj device(wk *w, size_t at)
{
  if (!need(w, at, 6, K_DEVICE)) return OTV_OBJ_NONE;
  unsigned start = u16(w, at), end = u16(w, at + 2), fmt = u16(w, at + 4);
  if (fmt == DELTA_FORMAT_VARIATION_INDEX) return leaf(w, at, 6, K_DEVICE);
  if (fmt < 1 || fmt > 3) return OTV_OBJ_NONE;
  size_t count = end >= start ? (size_t)end - start + 1 : 0;
  size_t words = (count * (1u << fmt) + 15) / 16;
  return leaf(w, at, 6 + 2 * words, K_DEVICE);
}

/* What a device offset from `base` is: 0 none (or of an unknown format), 1 a Device table
 * (kept), 2 a VariationIndex table (*delta: its delta at the instance). */
enum { DEV_NONE, DEV_HINT, DEV_VAR };
static unsigned device_kind(wk *w, size_t base, unsigned off, int *delta)
{
  *delta = 0;
  if (!off) return DEV_NONE;
  if (off >= w->t.len - base) return need(w, w->t.len, 1, K_DEVICE), DEV_NONE;
  size_t at = base + off;
  if (!need(w, at, 6, K_DEVICE)) return DEV_NONE;
  unsigned fmt = u16(w, at + 4);
  if (fmt >= 1 && fmt <= 3) return DEV_HINT;
  if (fmt != DELTA_FORMAT_VARIATION_INDEX) return DEV_NONE;
  unsigned h = (unsigned)(at * 2654435761u) % DEV_CACHE;
  if (w->dkey[h] == at + 1) {
    *delta = w->dval[h];
  } else {
    *delta = w->xf->delta ? w->xf->delta(w->xf->ud, u16(w, at), u16(w, at + 2)) : 0;
    w->dkey[h] = at + 1, w->dval[h] = *delta;
  }
  return DEV_VAR;
}

static int clamp16(long v) { return v < -32768 ? -32768 : v > 32767 ? 32767 : (int)v; }

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
static void vr_decode(wk *w, size_t at, unsigned fmt, size_t base, vrec *r)
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
    switch (device_kind(w, base, r->d[k], &delta)) {
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
static unsigned vr_format(const wk *w, unsigned in, unsigned needed, bool keep_nonzero)
{
  in &= VALUE_FORMAT_FIELDS;
  if (!w->xf->static_instance) return in | (needed & 0x0Fu);
  if (needed || !in || !keep_nonzero) return needed;
  unsigned v = (in | in >> 4) & 0x0Fu;
  return v & (0u - v); /* its lowest value field */
}

static void vr_write(wk *w, otv_buf *b, const vrec *r, unsigned fmt, size_t base)
{
  for (unsigned k = 0; k < 4; k++)
    if (fmt & 1u << k) otv_buf_u16(b, (uint16_t)r->v[k]);
  for (unsigned k = 0; k < 4; k++)
    if (fmt & 0x10u << k) put_off16(w, b, r->d[k] ? child_at(w, base + r->d[k], K_DEVICE, 0) : 0);
}

/* Records of two formats: what each needs, over n records of rs bytes from `at`. */
static void vr_scan(wk *w, size_t at, size_t n, size_t rs, size_t skip, unsigned f1, unsigned f2,
                    size_t base, unsigned *need1, unsigned *need2)
{
  size_t s1 = vr_size(f1);
  w->work += n * rs; /* the records are decoded again when written: counted here too */
  if (w->work > w->budget) {
    fail(w, OTV_E_LIMIT, at, "layout work budget exceeded (shared sub-tables fan out)");
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
static otv_obj with_devices(wk *w, size_t at, unsigned ncoords, unsigned fmt1, unsigned kind)
{
  size_t devs = at + 2 + 2 * (size_t)ncoords;
  if (!need(w, at, 2 + 4 * (size_t)ncoords, kind)) return OTV_OBJ_NONE;
  int v[2];
  unsigned d[2];
  bool any = false;
  for (unsigned k = 0; k < ncoords; k++) {
    int delta;
    v[k] = (int16_t)u16(w, at + 2 + 2 * k);
    d[k] = u16(w, devs + 2 * k);
    switch (device_kind(w, at, d[k], &delta)) {
    case DEV_VAR:
      v[k] = clamp16((long)v[k] + delta);
      if (w->xf->static_instance) d[k] = 0;
      break;
    case DEV_HINT: break;
    default: d[k] = 0; break;
    }
    any |= d[k] != 0;
  }
  otv_buf *b = open_obj(w);
  if (!b) return OTV_OBJ_NONE;
  otv_buf_u16(b, (uint16_t)(any ? u16(w, at) : fmt1));
  for (unsigned k = 0; k < ncoords; k++) otv_buf_u16(b, (uint16_t)v[k]);
  if (any)
    for (unsigned k = 0; k < ncoords; k++)
      put_off16(w, b, d[k] ? child_at(w, at + d[k], K_DEVICE, 0) : 0);
  return close_obj(w, b);
}

/* spec: Anchor formats 1 (x, y), 2 (+ anchorPoint), 3 (+ xDevice, yDevice). */
static otv_obj anchor(wk *w, size_t at)
{
  if (!need(w, at, 6, K_ANCHOR)) return OTV_OBJ_NONE;
  switch (u16(w, at)) {
  case 1: return leaf(w, at, 6, K_ANCHOR);
  case 2: return leaf(w, at, 8, K_ANCHOR);
  case 3: return with_devices(w, at, 2, 1, K_ANCHOR);
  default: return fail(w, OTV_E_BAD_VALUE, at, "Anchor of an unknown format");
  }
}

/* spec: CaretValue formats 1 (coordinate), 2 (caretValuePointIndex), 3 (+ device); BaseCoord
 * formats 1 (coordinate), 2 (+ referenceGlyph, baseCoordPoint), 3 (+ device). */
static otv_obj caret_or_coord(wk *w, size_t at, unsigned kind)
{
  if (!need(w, at, 4, kind)) return OTV_OBJ_NONE;
  switch (u16(w, at)) {
  case 1: return leaf(w, at, 4, kind);
  case 2: return leaf(w, at, kind == K_BASE_COORD ? 8 : 4, kind);
  case 3: return with_devices(w, at, 1, 1, kind);
  default: return fail(w, OTV_E_BAD_VALUE, at, "CaretValue or BaseCoord of an unknown format");
  }
}

/* ---- GPOS sub-tables ---- */

/* SinglePos formats 1 and 2. */
static otv_obj single_pos(wk *w, size_t at, unsigned fmt)
{
  if (!need(w, at, 6, K_SUBTABLE)) return OTV_OBJ_NONE;
  unsigned vf = u16(w, at + 4) & VALUE_FORMAT_FIELDS;
  size_t s = vr_size(vf), n = 1, recs = at + 6;
  if (fmt == 2) {
    if (!need(w, at, 8, K_SUBTABLE)) return OTV_OBJ_NONE;
    n = u16(w, at + 6), recs = at + 8;
  }
  if (!need_array(w, recs, n, s, K_SUBTABLE)) return OTV_OBJ_NONE;
  unsigned need1 = 0, unused = 0;
  vr_scan(w, recs, n, s, 0, vf, 0, at, &need1, &unused);
  unsigned out = vr_format(w, vf, need1, true);
  otv_buf *b = open_obj(w);
  if (!b) return OTV_OBJ_NONE;
  otv_buf_u16(b, (uint16_t)fmt);
  put_off16(w, b, child(w, at, u16(w, at + 2), K_COVERAGE, 0));
  otv_buf_u16(b, (uint16_t)out);
  if (fmt == 2) otv_buf_u16(b, (uint16_t)n);
  for (size_t i = 0; i < n && !w->st; i++) {
    vrec r;
    vr_decode(w, recs + i * s, vf, at, &r);
    vr_write(w, b, &r, out, at);
  }
  return close_obj(w, b);
}

/* A PairSet's context: its formats as read and as written. */
static uint64_t pair_ctx(unsigned f1, unsigned f2, unsigned o1, unsigned o2)
{
  return (uint64_t)f1 | (uint64_t)f2 << 8 | (uint64_t)o1 << 16 | (uint64_t)o2 << 24;
}

static bool pair_set_extent(wk *w, size_t ps, unsigned f1, unsigned f2, size_t *n)
{
  if (!need(w, ps, 2, K_PAIR_SET)) return false;
  *n = u16(w, ps);
  return need_array(w, ps + 2, *n, 2 + (size_t)vr_size(f1) + vr_size(f2), K_PAIR_SET);
}

/* spec: PairSet (pairValueCount, PairValueRecord {secondGlyph, valueRecord1, valueRecord2});
 * device offsets from the PairSet. */
static otv_obj pair_set(wk *w, size_t ps, uint64_t ctx)
{
  unsigned f1 = ctx & 0xFF, f2 = ctx >> 8 & 0xFF, o1 = ctx >> 16 & 0xFF, o2 = ctx >> 24 & 0xFF;
  size_t n, s1 = vr_size(f1), rs = 2 + s1 + vr_size(f2);
  if (!pair_set_extent(w, ps, f1, f2, &n)) return OTV_OBJ_NONE;
  otv_buf *b = open_obj(w);
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
  return close_obj(w, b);
}

static otv_obj pair_pos(wk *w, size_t at, unsigned fmt)
{
  if (!need(w, at, 10, K_SUBTABLE)) return OTV_OBJ_NONE;
  unsigned f1 = u16(w, at + 4) & VALUE_FORMAT_FIELDS, f2 = u16(w, at + 6) & VALUE_FORMAT_FIELDS;
  size_t s1 = vr_size(f1), s2 = vr_size(f2);
  unsigned n1 = 0, n2 = 0;
  if (fmt == 1) {
    size_t n = u16(w, at + 8);
    if (!need_array(w, at + 10, n, 2, K_SUBTABLE)) return OTV_OBJ_NONE;
    for (size_t i = 0; i < n && !w->st; i++) {
      size_t off = u16(w, at + 10 + 2 * i), cnt;
      if (!off) continue;
      if (off >= w->t.len - at) return need(w, w->t.len, 1, K_PAIR_SET), OTV_OBJ_NONE;
      if (pair_set_extent(w, at + off, f1, f2, &cnt))
        vr_scan(w, at + off + 2, cnt, 2 + s1 + s2, 2, f1, f2, at + off, &n1, &n2);
    }
    unsigned o1 = vr_format(w, f1, n1, false), o2 = vr_format(w, f2, n2, true);
    otv_buf *b = open_obj(w);
    if (!b) return OTV_OBJ_NONE;
    otv_buf_u16(b, 1);
    put_off16(w, b, child(w, at, u16(w, at + 2), K_COVERAGE, 0));
    otv_buf_u16(b, (uint16_t)o1);
    otv_buf_u16(b, (uint16_t)o2);
    otv_buf_u16(b, (uint16_t)n);
    off16_array(w, b, at, at + 10, n, K_PAIR_SET, pair_ctx(f1, f2, o1, o2));
    return close_obj(w, b);
  }
  /* format 2: class1Count x class2Count records {valueRecord1, valueRecord2}, devices from the
   * sub-table */
  if (!need(w, at, 16, K_SUBTABLE)) return OTV_OBJ_NONE;
  size_t c1 = u16(w, at + 12), c2 = u16(w, at + 14), rs = s1 + s2, n = c1 * c2;
  if (!need_array(w, at + 16, n, rs, K_SUBTABLE)) return OTV_OBJ_NONE;
  if (rs) vr_scan(w, at + 16, n, rs, 0, f1, f2, at, &n1, &n2);
  unsigned o1 = vr_format(w, f1, n1, false), o2 = vr_format(w, f2, n2, true);
  otv_buf *b = open_obj(w);
  if (!b) return OTV_OBJ_NONE;
  otv_buf_u16(b, 2);
  put_off16(w, b, child(w, at, u16(w, at + 2), K_COVERAGE, 0));
  otv_buf_u16(b, (uint16_t)o1);
  otv_buf_u16(b, (uint16_t)o2);
  put_off16(w, b, child(w, at, u16(w, at + 8), K_CLASS_DEF, 0));
  put_off16(w, b, child(w, at, u16(w, at + 10), K_CLASS_DEF, 0));
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
  return close_obj(w, b);
}

/* spec: CursivePos format 1 (coverage, entryExitCount, {entryAnchor, exitAnchor}). */
static otv_obj cursive_pos(wk *w, size_t at)
{
  if (!need(w, at, 6, K_SUBTABLE)) return OTV_OBJ_NONE;
  size_t n = u16(w, at + 4);
  if (!need_array(w, at + 6, n, 4, K_SUBTABLE)) return OTV_OBJ_NONE;
  otv_buf *b = open_obj(w);
  if (!b) return OTV_OBJ_NONE;
  otv_buf_u16(b, 1);
  put_off16(w, b, child(w, at, u16(w, at + 2), K_COVERAGE, 0));
  otv_buf_u16(b, (uint16_t)n);
  off16_array(w, b, at, at + 6, 2 * n, K_ANCHOR, 0);
  return close_obj(w, b);
}

/* spec: MarkBasePos, MarkLigPos, MarkMarkPos format 1 (two coverages, markClassCount,
 * MarkArray, BaseArray / LigatureArray / Mark2Array). */
static otv_obj mark_pos(wk *w, size_t at, unsigned type)
{
  if (!need(w, at, 12, K_SUBTABLE)) return OTV_OBJ_NONE;
  unsigned classes = u16(w, at + 6);
  otv_buf *b = open_obj(w);
  if (!b) return OTV_OBJ_NONE;
  otv_buf_u16(b, 1);
  put_off16(w, b, child(w, at, u16(w, at + 2), K_COVERAGE, 0));
  put_off16(w, b, child(w, at, u16(w, at + 4), K_COVERAGE, 0));
  otv_buf_u16(b, (uint16_t)classes);
  put_off16(w, b, child(w, at, u16(w, at + 8), K_MARK_ARRAY, 0));
  put_off16(w, b,
            child(w, at, u16(w, at + 10),
                  type == GPOS_MARK_TO_LIGATURE ? K_LIGATURE_ARRAY : K_ANCHOR_MATRIX, classes));
  return close_obj(w, b);
}

/* spec: MarkArray (markCount, {markClass, markAnchorOffset}). */
static otv_obj mark_array(wk *w, size_t at)
{
  if (!need(w, at, 2, K_MARK_ARRAY)) return OTV_OBJ_NONE;
  size_t n = u16(w, at);
  if (!need_array(w, at + 2, n, 4, K_MARK_ARRAY)) return OTV_OBJ_NONE;
  otv_buf *b = open_obj(w);
  if (!b) return OTV_OBJ_NONE;
  otv_buf_u16(b, (uint16_t)n);
  for (size_t i = 0; i < n && !w->st; i++) {
    copy(w, b, at + 2 + 4 * i, 2);
    put_off16(w, b, child(w, at, u16(w, at + 4 + 4 * i), K_ANCHOR, 0));
  }
  return close_obj(w, b);
}

/* BaseArray, Mark2Array, LigatureAttach: count rows of `per` anchor offsets. */
static otv_obj anchor_matrix(wk *w, size_t at, uint64_t per)
{
  if (!need(w, at, 2, K_ANCHOR_MATRIX)) return OTV_OBJ_NONE;
  size_t rows = u16(w, at), n = rows * (size_t)per;
  if (!need_array(w, at + 2, n, 2, K_ANCHOR_MATRIX)) return OTV_OBJ_NONE;
  otv_buf *b = open_obj(w);
  if (!b) return OTV_OBJ_NONE;
  otv_buf_u16(b, (uint16_t)rows);
  off16_array(w, b, at, at + 2, n, K_ANCHOR, 0);
  return close_obj(w, b);
}

/* ---- contextual lookups (GSUB 5/6, GPOS 7/8) and the rest of GSUB ---- */

/* spec: SequenceRule (glyphCount, seqLookupCount, inputSequence[glyphCount - 1],
 * seqLookupRecords) and ClassSequenceRule (the same with classes). */
static otv_obj rule(wk *w, size_t at)
{
  if (!need(w, at, 4, K_RULE)) return OTV_OBJ_NONE;
  size_t gc = u16(w, at), sl = u16(w, at + 2);
  return leaf(w, at, 4 + 2 * (gc ? gc - 1 : 0) + 4 * sl, K_RULE);
}

/* spec: ChainedSequenceRule: backtrack, input (minus the first), lookahead, seqLookupRecords. */
static otv_obj chain_rule(wk *w, size_t at)
{
  size_t pos = at;
  for (unsigned part = 0; part < 4; part++) {
    if (!need(w, pos, 2, K_CHAIN_RULE)) return OTV_OBJ_NONE;
    size_t n = u16(w, pos);
    if (part == 1 && n) n--;
    pos += 2 + (part == 3 ? 4 : 2) * n;
  }
  return leaf(w, at, pos - at, K_CHAIN_RULE);
}

/* SequenceContext / ChainedSequenceContext formats 1-3. */
static otv_obj context(wk *w, size_t at, bool chain)
{
  if (!need(w, at, 6, K_SUBTABLE)) return OTV_OBJ_NONE;
  unsigned fmt = u16(w, at);
  uint64_t rules = chain ? K_CHAIN_RULE : K_RULE;
  otv_buf *b = NULL;
  if (fmt == 1 || fmt == 2) {
    size_t cds = fmt == 1 ? 0 : chain ? 3 : 1, head = 4 + 2 * cds;
    if (!need(w, at, head + 2, K_SUBTABLE)) return OTV_OBJ_NONE;
    size_t n = u16(w, at + head);
    if (!need_array(w, at + head + 2, n, 2, K_SUBTABLE)) return OTV_OBJ_NONE;
    if (!(b = open_obj(w))) return OTV_OBJ_NONE;
    otv_buf_u16(b, (uint16_t)fmt);
    put_off16(w, b, child(w, at, u16(w, at + 2), K_COVERAGE, 0));
    for (size_t k = 0; k < cds; k++)
      put_off16(w, b, child(w, at, u16(w, at + 4 + 2 * k), K_CLASS_DEF, 0));
    otv_buf_u16(b, (uint16_t)n);
    off16_array(w, b, at, at + head + 2, n, K_RULE_SET, rules);
    return close_obj(w, b);
  }
  if (fmt != 3) return OTV_OBJ_NONE; /* spec: an unknown format is ignored */
  if (!chain) {
    /* glyphCount, seqLookupCount, coverageOffsets[glyphCount], seqLookupRecords */
    size_t gc = u16(w, at + 2), sl = u16(w, at + 4);
    if (!need(w, at + 6, 2 * gc + 4 * sl, K_SUBTABLE) || !(b = open_obj(w))) return OTV_OBJ_NONE;
    copy(w, b, at, 6);
    off16_array(w, b, at, at + 6, gc, K_COVERAGE, 0);
    copy(w, b, at + 6 + 2 * gc, 4 * sl);
    return close_obj(w, b);
  }
  /* backtrack, input and lookahead coverage arrays, then seqLookupRecords */
  size_t pos = at + 2, arr[3], cnt[3];
  for (unsigned k = 0; k < 3; k++) {
    if (!need(w, pos, 2, K_SUBTABLE)) return OTV_OBJ_NONE;
    cnt[k] = u16(w, pos), arr[k] = pos + 2;
    pos += 2 + 2 * cnt[k];
  }
  if (!need(w, pos, 2, K_SUBTABLE)) return OTV_OBJ_NONE;
  size_t sl = u16(w, pos);
  if (!need(w, pos + 2, 4 * sl, K_SUBTABLE) || !(b = open_obj(w))) return OTV_OBJ_NONE;
  otv_buf_u16(b, 3);
  for (unsigned k = 0; k < 3; k++) {
    otv_buf_u16(b, (uint16_t)cnt[k]);
    off16_array(w, b, at, arr[k], cnt[k], K_COVERAGE, 0);
  }
  copy(w, b, pos, 2 + 4 * sl);
  return close_obj(w, b);
}

/* spec: SingleSubst 1 (delta) and 2 (substitutes); MultipleSubst, AlternateSubst 1
 * (sequences); LigatureSubst 1 (ligature sets). */
static otv_obj gsub_simple(wk *w, size_t at, unsigned type, unsigned fmt)
{
  if (!need(w, at, 6, K_SUBTABLE)) return OTV_OBJ_NONE;
  if (type == GSUB_SINGLE && fmt == 1) {
    otv_buf *b = open_obj(w);
    if (!b) return OTV_OBJ_NONE;
    otv_buf_u16(b, 1);
    put_off16(w, b, child(w, at, u16(w, at + 2), K_COVERAGE, 0));
    copy(w, b, at + 4, 2);
    return close_obj(w, b);
  }
  if (fmt != (type == GSUB_SINGLE ? 2u : 1u)) return OTV_OBJ_NONE;
  size_t n = u16(w, at + 4);
  if (!need_array(w, at + 6, n, 2, K_SUBTABLE)) return OTV_OBJ_NONE;
  otv_buf *b = open_obj(w);
  if (!b) return OTV_OBJ_NONE;
  otv_buf_u16(b, (uint16_t)fmt);
  put_off16(w, b, child(w, at, u16(w, at + 2), K_COVERAGE, 0));
  otv_buf_u16(b, (uint16_t)n);
  if (type == GSUB_SINGLE)
    copy(w, b, at + 6, 2 * n);
  else
    off16_array(w, b, at, at + 6, n, type == GSUB_LIGATURE ? K_LIGATURE_SET : K_U16_ARRAY, 0);
  return close_obj(w, b);
}

/* spec: ReverseChainSingleSubst 1 (coverage, backtrack and lookahead coverages,
 * substitutes). */
static otv_obj reverse_chain(wk *w, size_t at)
{
  if (!need(w, at, 6, K_SUBTABLE) || u16(w, at) != 1) return OTV_OBJ_NONE;
  size_t bc = u16(w, at + 4), la = at + 6 + 2 * bc;
  if (!need(w, la, 2, K_SUBTABLE)) return OTV_OBJ_NONE;
  size_t lc = u16(w, la), sub = la + 2 + 2 * lc;
  if (!need(w, sub, 2, K_SUBTABLE)) return OTV_OBJ_NONE;
  size_t gc = u16(w, sub);
  if (!need_array(w, sub + 2, gc, 2, K_SUBTABLE)) return OTV_OBJ_NONE;
  otv_buf *b = open_obj(w);
  if (!b) return OTV_OBJ_NONE;
  otv_buf_u16(b, 1);
  put_off16(w, b, child(w, at, u16(w, at + 2), K_COVERAGE, 0));
  otv_buf_u16(b, (uint16_t)bc);
  off16_array(w, b, at, at + 6, bc, K_COVERAGE, 0);
  otv_buf_u16(b, (uint16_t)lc);
  off16_array(w, b, at, la + 2, lc, K_COVERAGE, 0);
  copy(w, b, sub, 2 + 2 * gc);
  return close_obj(w, b);
}

static bool is_gsub(const wk *w) { return w->tag == OTV_T_GSUB; }
static unsigned extension_type(const wk *w) { return is_gsub(w) ? GSUB_EXTENSION : GPOS_EXTENSION; }

/* A lookup sub-table of `type` (not Extension); unknown types and formats: no object (a client
 * ignores them). */
static otv_obj subtable(wk *w, size_t at, unsigned type)
{
  if (!need(w, at, 2, K_SUBTABLE)) return OTV_OBJ_NONE;
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
  case GPOS_SINGLE: return fmt == 1 || fmt == 2 ? single_pos(w, at, fmt) : OTV_OBJ_NONE;
  case GPOS_PAIR: return fmt == 1 || fmt == 2 ? pair_pos(w, at, fmt) : OTV_OBJ_NONE;
  case GPOS_CURSIVE: return fmt == 1 ? cursive_pos(w, at) : OTV_OBJ_NONE;
  case GPOS_MARK_TO_BASE:
  case GPOS_MARK_TO_LIGATURE:
  case GPOS_MARK_TO_MARK: return fmt == 1 ? mark_pos(w, at, type) : OTV_OBJ_NONE;
  case GPOS_CONTEXT: return context(w, at, false);
  case GPOS_CHAIN_CONTEXT: return context(w, at, true);
  default: return OTV_OBJ_NONE;
  }
}

/* An Extension sub-table (format 1, extensionLookupType, Offset32 to the sub-table) around the
 * sub-table object st of `type`. */
static otv_obj extension_of(wk *w, unsigned type, otv_obj st)
{
  if (!st) return OTV_OBJ_NONE;
  otv_buf *b = open_obj(w);
  if (!b) return OTV_OBJ_NONE;
  otv_buf_u16(b, 1);
  otv_buf_u16(b, (uint16_t)type);
  put_off32(w, b, st);
  return close_obj(w, b);
}

/* The Extension sub-table at `at` of an Extension lookup. *type: the type it extends. */
static otv_obj extension(wk *w, size_t at)
{
  if (!need(w, at, 8, K_EXTENSION) || u16(w, at) != 1) return OTV_OBJ_NONE;
  unsigned type = u16(w, at + 2);
  if (type == extension_type(w)) return fail(w, OTV_E_BAD_VALUE, at, "Extension of an Extension");
  uint32_t off = u32(w, at + 4);
  return extension_of(w, type, child(w, at, off, K_SUBTABLE, type));
}

/* spec: Lookup (lookupType, lookupFlag, subTableCount, subtableOffsets, markFilteringSet). */
static otv_obj lookup(wk *w, size_t at)
{
  if (!need(w, at, 6, K_LOOKUP)) return OTV_OBJ_NONE;
  unsigned type = u16(w, at), flag = u16(w, at + 2);
  size_t n = u16(w, at + 4);
  bool mfs = flag & LOOKUP_USE_MARK_FILTERING_SET;
  if (!need_array(w, at + 6, n + mfs, 2, K_LOOKUP)) return OTV_OBJ_NONE;
  bool ext = type == extension_type(w), wrap = w->promote && !ext;
  otv_buf *b = open_obj(w);
  if (!b) return OTV_OBJ_NONE;
  otv_buf_u16(b, (uint16_t)(wrap ? extension_type(w) : type));
  otv_buf_u16(b, (uint16_t)flag);
  size_t count_at = b->len, kept = 0;
  otv_buf_u16(b, 0);
  for (size_t i = 0; i < n && !w->st; i++) {
    size_t off = u16(w, at + 6 + 2 * i);
    otv_obj st = child(w, at, off, ext ? K_EXTENSION : K_SUBTABLE, type);
    if (wrap) st = extension_of(w, type, st);
    if (!st) continue; /* NULL, or a sub-table clients ignore */
    put_off16(w, b, st);
    kept++;
  }
  if (!b->failed) otv_buf_put_u16(b, count_at, (uint16_t)kept);
  if (mfs) copy(w, b, at + 6 + 2 * n, 2);
  return close_obj(w, b);
}

/* ---- ScriptList, FeatureList, Feature ---- */

static otv_obj script(wk *w, size_t at)
{
  if (!need(w, at, 4, K_SCRIPT)) return OTV_OBJ_NONE;
  size_t n = u16(w, at + 2);
  if (!need_array(w, at + 4, n, 6, K_SCRIPT)) return OTV_OBJ_NONE;
  otv_buf *b = open_obj(w);
  if (!b) return OTV_OBJ_NONE;
  put_off16(w, b, child(w, at, u16(w, at), K_LANGSYS, 0));
  otv_buf_u16(b, (uint16_t)n);
  for (size_t i = 0; i < n && !w->st; i++) {
    copy(w, b, at + 4 + 6 * i, 4);
    put_off16(w, b, child(w, at, u16(w, at + 8 + 6 * i), K_LANGSYS, 0));
  }
  return close_obj(w, b);
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
static otv_obj feature_params(wk *w, size_t at, uint32_t tag)
{
  if (tag == OTV_TAG('s', 'i', 'z', 'e')) return leaf(w, at, 10, K_FEATURE_PARAMS);
  if (tag_is(tag, 's', 's', 1, 20)) return leaf(w, at, 4, K_FEATURE_PARAMS);
  if (tag_is(tag, 'c', 'v', 1, 99) && need(w, at, 14, K_FEATURE_PARAMS))
    return leaf(w, at, 14 + 3 * (size_t)u16(w, at + 12), K_FEATURE_PARAMS);
  return OTV_OBJ_NONE;
}

/* spec: Feature (featureParamsOffset, lookupIndexCount, lookupListIndices). */
static otv_obj feature(wk *w, size_t at, uint32_t tag)
{
  if (!need(w, at, 4, K_FEATURE)) return OTV_OBJ_NONE;
  size_t n = u16(w, at + 2);
  if (!need_array(w, at + 4, n, 2, K_FEATURE)) return OTV_OBJ_NONE;
  otv_buf *b = open_obj(w);
  if (!b) return OTV_OBJ_NONE;
  put_off16(w, b, child(w, at, u16(w, at), K_FEATURE_PARAMS, tag));
  copy(w, b, at + 2, 2 + 2 * n);
  return close_obj(w, b);
}

/* The FeatureList, each feature replaced by its substitute where FeatureVariations apply. */
static otv_obj feature_list(wk *w, size_t at)
{
  if (!need(w, at, 2, K_FEATURE_LIST)) return OTV_OBJ_NONE;
  size_t n = u16(w, at);
  if (!need_array(w, at + 2, n, 6, K_FEATURE_LIST)) return OTV_OBJ_NONE;
  otv_buf *b = open_obj(w);
  if (!b) return OTV_OBJ_NONE;
  otv_buf_u16(b, (uint16_t)n);
  for (size_t i = 0; i < n && !w->st; i++) {
    size_t rec = at + 2 + 6 * i;
    uint32_t tag = u32(w, rec);
    copy(w, b, rec, 4);
    if (w->subst && i < w->feature_count && w->subst[i])
      put_off16(w, b, child_at(w, w->subst[i], K_FEATURE, tag));
    else
      put_off16(w, b, child(w, at, u16(w, rec + 4), K_FEATURE, tag));
  }
  return close_obj(w, b);
}

static uint32_t feature_tag(const wk *w, unsigned index)
{
  if (index >= w->feature_count) return 0;
  return u32(w, w->feature_list + 2 + 6 * (size_t)index); /* in range: checked in fv_plan */
}

/* ---- FeatureVariations (spec: chapter2) ---- */

/* spec: FeatureTableSubstitution (version, substitutionCount, {featureIndex, Offset32
 * alternateFeatureOffset}), Offset32s from the FeatureTableSubstitution. */
static otv_obj feature_subst(wk *w, size_t at)
{
  if (!need(w, at, 6, K_FEATURE_SUBST)) return OTV_OBJ_NONE;
  size_t n = u16(w, at + 4);
  if (!need_array(w, at + 6, n, 6, K_FEATURE_SUBST)) return OTV_OBJ_NONE;
  otv_buf *b = open_obj(w);
  if (!b) return OTV_OBJ_NONE;
  copy(w, b, at, 6);
  for (size_t i = 0; i < n && !w->st; i++) {
    size_t rec = at + 6 + 6 * i;
    unsigned index = u16(w, rec);
    copy(w, b, rec, 2);
    put_off32(w, b, child(w, at, u32(w, rec + 2), K_FEATURE, feature_tag(w, index)));
  }
  return close_obj(w, b);
}

/* What a ConditionSet is at the instance: -1 never holds, 1 always holds, 0 depends on the
 * kept axes. */
static int condition_set_state(wk *w, size_t set)
{
  if (!need(w, set, 2, K_CONDITION_SET)) return -1;
  size_t n = u16(w, set);
  if (!need_array(w, set + 2, n, 4, K_CONDITION_SET)) return -1;
  int state = 1;
  for (size_t k = 0; k < n && !w->st; k++) {
    uint32_t off = u32(w, set + 2 + 4 * k);
    if (!off || off >= w->t.len - set) return need(w, w->t.len, 1, K_CONDITION_SET), -1;
    size_t c = set + off;
    if (!need(w, c, 2, K_CONDITION_SET)) return -1;
    /* spec: a condition of a format the client does not know never holds */
    if (u16(w, c) != CONDITION_FORMAT_AXIS_RANGE || !need(w, c, 8, K_CONDITION_SET)) return -1;
    if (!w->xf->condition) {
      state = 0;
      continue;
    }
    int r =
        w->xf->condition(w->xf->ud, u16(w, c + 2), (int16_t)u16(w, c + 4), (int16_t)u16(w, c + 6));
    if (r == OTV_LAYOUT_COND_FALSE) return -1;
    if (r != OTV_LAYOUT_COND_TRUE) state = 0;
  }
  return state;
}

/* A ConditionSet with the conditions that still depend on the instance (axes renumbered). */
static otv_obj condition_set(wk *w, size_t set)
{
  size_t n = u16(w, set); /* in range: condition_set_state checked the set and its conditions */
  otv_buf *b = open_obj(w);
  if (!b) return OTV_OBJ_NONE;
  size_t count_at = b->len, kept = 0;
  otv_buf_u16(b, 0);
  for (size_t k = 0; k < n && !w->st; k++) {
    size_t c = set + u32(w, set + 2 + 4 * k);
    unsigned axis = u16(w, c + 2);
    int r = w->xf->condition
                ? w->xf->condition(w->xf->ud, axis, (int16_t)u16(w, c + 4), (int16_t)u16(w, c + 6))
                : (int)axis;
    if (r < 0) continue; /* always holds (a failing one dropped the whole record) */
    otv_buf *cb = open_obj(w);
    if (cb) {
      otv_buf_u16(cb, CONDITION_FORMAT_AXIS_RANGE);
      otv_buf_u16(cb, (uint16_t)r);
      copy(w, cb, c + 4, 4);
    }
    put_off32(w, b, close_obj(w, cb));
    kept++;
  }
  if (!b->failed) otv_buf_put_u16(b, count_at, (uint16_t)kept);
  return close_obj(w, b);
}

/* The FeatureVariations at `fv`: records that can still match, up to the first that always
 * matches. That one, when first, is applied to the FeatureList (w->subst) and the table is
 * dropped (OTV_OBJ_NONE); also when no record is left. */
static otv_obj feature_variations(wk *w, size_t fv)
{
  if (!need(w, fv, 8, K_FEATURE_SUBST)) return OTV_OBJ_NONE;
  uint32_t n = u32(w, fv + 4);
  if (!need_array(w, fv + 8, n, 8, K_FEATURE_SUBST)) return OTV_OBJ_NONE;
  otv_buf *b = open_obj(w);
  if (!b) return OTV_OBJ_NONE;
  otv_buf_u32(b, 0x00010000u);
  otv_buf_u32(b, 0);
  uint32_t kept = 0;
  for (uint32_t i = 0; i < n && !w->st; i++) {
    size_t rec = fv + 8 + 8 * (size_t)i;
    uint32_t cs = u32(w, rec), ts = u32(w, rec + 4);
    if (cs && cs >= w->t.len - fv) return need(w, w->t.len, 1, K_CONDITION_SET), close_obj(w, b);
    /* spec: a record without a ConditionSet matches everywhere */
    int state = cs ? condition_set_state(w, fv + cs) : 1;
    if (state < 0) continue;
    if (state > 0 && kept == 0) {
      /* applied: each substitution replaces its feature in the FeatureList */
      if (ts) {
        if (ts >= w->t.len - fv) return need(w, w->t.len, 1, K_FEATURE_SUBST), close_obj(w, b);
        size_t at = fv + ts;
        if (!need(w, at, 6, K_FEATURE_SUBST)) break;
        size_t sn = u16(w, at + 4);
        if (!need_array(w, at + 6, sn, 6, K_FEATURE_SUBST)) break;
        for (size_t k = 0; k < sn; k++) {
          unsigned index = u16(w, at + 6 + 6 * k);
          uint32_t off = u32(w, at + 8 + 6 * k);
          if (!off || index >= w->feature_count) continue;
          if (off >= w->t.len - at) return need(w, w->t.len, 1, K_FEATURE), close_obj(w, b);
          w->subst[index] = at + off;
        }
      }
      break;
    }
    otv_buf_u32(b, 0); /* the ConditionSet, linked below */
    size_t pos = b->len - 4;
    otv_obj set = cs ? condition_set(w, fv + cs) : OTV_OBJ_NONE;
    if (set && !b->failed) otv_graph_link(w->g, pos, 4, set);
    put_off32(w, b, child(w, fv, ts, K_FEATURE_SUBST, 0));
    kept++;
    if (state > 0) break; /* records after one that always matches are never reached */
  }
  if (!kept) {
    if (b) otv_graph_discard(w->g);
    return OTV_OBJ_NONE;
  }
  if (!b->failed) otv_buf_put_u32(b, 4, kept);
  return close_obj(w, b);
}

/* ---- GDEF ---- */

/* spec: AttachList (coverage, glyphCount, attachPointOffsets) and LigCaretList (coverage,
 * ligGlyphCount, ligGlyphOffsets): coverage, count, Offset16 to `kind`. */
static otv_obj coverage_list(wk *w, size_t at, unsigned self, unsigned kind)
{
  if (!need(w, at, 4, self)) return OTV_OBJ_NONE;
  size_t n = u16(w, at + 2);
  if (!need_array(w, at + 4, n, 2, self)) return OTV_OBJ_NONE;
  otv_buf *b = open_obj(w);
  if (!b) return OTV_OBJ_NONE;
  put_off16(w, b, child(w, at, u16(w, at), K_COVERAGE, 0));
  otv_buf_u16(b, (uint16_t)n);
  off16_array(w, b, at, at + 4, n, kind, 0);
  return close_obj(w, b);
}

/* spec: MarkGlyphSets (format 1, markGlyphSetCount, Offset32 coverageOffsets). */
static otv_obj mark_glyph_sets(wk *w, size_t at)
{
  if (!need(w, at, 4, K_MARK_GLYPH_SETS)) return OTV_OBJ_NONE;
  if (u16(w, at) != 1) return fail(w, OTV_E_BAD_VALUE, at, "MarkGlyphSets of an unknown format");
  size_t n = u16(w, at + 2);
  if (!need_array(w, at + 4, n, 4, K_MARK_GLYPH_SETS)) return OTV_OBJ_NONE;
  otv_buf *b = open_obj(w);
  if (!b) return OTV_OBJ_NONE;
  copy(w, b, at, 4);
  for (size_t i = 0; i < n && !w->st; i++)
    put_off32(w, b, child(w, at, u32(w, at + 4 + 4 * i), K_COVERAGE, 0));
  return close_obj(w, b);
}

/* ---- BASE ---- */

/* spec: BaseScript (baseValuesOffset, defaultMinMaxOffset, baseLangSysCount, {tag, minMax}). */
static otv_obj base_script(wk *w, size_t at)
{
  if (!need(w, at, 6, K_BASE_SCRIPT)) return OTV_OBJ_NONE;
  size_t n = u16(w, at + 4);
  if (!need_array(w, at + 6, n, 6, K_BASE_SCRIPT)) return OTV_OBJ_NONE;
  otv_buf *b = open_obj(w);
  if (!b) return OTV_OBJ_NONE;
  put_off16(w, b, child(w, at, u16(w, at), K_BASE_VALUES, 0));
  put_off16(w, b, child(w, at, u16(w, at + 2), K_MIN_MAX, 0));
  otv_buf_u16(b, (uint16_t)n);
  for (size_t i = 0; i < n && !w->st; i++) {
    copy(w, b, at + 6 + 6 * i, 4);
    put_off16(w, b, child(w, at, u16(w, at + 10 + 6 * i), K_MIN_MAX, 0));
  }
  return close_obj(w, b);
}

/* spec: BaseValues (defaultBaselineIndex, baseCoordCount, baseCoordOffsets). */
static otv_obj base_values(wk *w, size_t at)
{
  if (!need(w, at, 4, K_BASE_VALUES)) return OTV_OBJ_NONE;
  size_t n = u16(w, at + 2);
  if (!need_array(w, at + 4, n, 2, K_BASE_VALUES)) return OTV_OBJ_NONE;
  otv_buf *b = open_obj(w);
  if (!b) return OTV_OBJ_NONE;
  copy(w, b, at, 4);
  off16_array(w, b, at, at + 4, n, K_BASE_COORD, 0);
  return close_obj(w, b);
}

/* spec: MinMax (minCoord, maxCoord, featMinMaxCount, {tag, minCoord, maxCoord}). */
static otv_obj min_max(wk *w, size_t at)
{
  if (!need(w, at, 6, K_MIN_MAX)) return OTV_OBJ_NONE;
  size_t n = u16(w, at + 4);
  if (!need_array(w, at + 6, n, 8, K_MIN_MAX)) return OTV_OBJ_NONE;
  otv_buf *b = open_obj(w);
  if (!b) return OTV_OBJ_NONE;
  off16_array(w, b, at, at, 2, K_BASE_COORD, 0);
  otv_buf_u16(b, (uint16_t)n);
  for (size_t i = 0; i < n && !w->st; i++) {
    copy(w, b, at + 6 + 8 * i, 4);
    off16_array(w, b, at, at + 10 + 8 * i, 2, K_BASE_COORD, 0);
  }
  return close_obj(w, b);
}

/* spec: Axis (baseTagListOffset, baseScriptListOffset). */
static otv_obj base_axis(wk *w, size_t at)
{
  if (!need(w, at, 4, K_BASE_AXIS)) return OTV_OBJ_NONE;
  otv_buf *b = open_obj(w);
  if (!b) return OTV_OBJ_NONE;
  put_off16(w, b, child(w, at, u16(w, at), K_BASE_TAG_LIST, 0));
  put_off16(w, b, child(w, at, u16(w, at + 2), K_BASE_SCRIPT_LIST, 0));
  return close_obj(w, b);
}

/* ---- dispatch ---- */

static otv_obj build(wk *w, size_t at, unsigned kind, uint64_t ctx)
{
  switch (kind) {
  case K_SCRIPT_LIST: return tagged_list(w, at, K_SCRIPT_LIST, K_SCRIPT);
  case K_SCRIPT: return script(w, at);
  case K_LANGSYS:
    return need(w, at, 6, K_LANGSYS) ? leaf(w, at, 6 + 2 * (size_t)u16(w, at + 4), K_LANGSYS)
                                     : OTV_OBJ_NONE;
  case K_FEATURE_LIST: return feature_list(w, at);
  case K_FEATURE: return feature(w, at, (uint32_t)ctx);
  case K_FEATURE_PARAMS: return feature_params(w, at, (uint32_t)ctx);
  case K_LOOKUP_LIST: return offset_list(w, at, K_LOOKUP_LIST, K_LOOKUP, 0);
  case K_LOOKUP: return lookup(w, at);
  case K_SUBTABLE: return subtable(w, at, (unsigned)ctx);
  case K_EXTENSION: return extension(w, at);
  case K_COVERAGE: return coverage(w, at);
  case K_CLASS_DEF: return class_def(w, at);
  case K_DEVICE: return device(w, at);
  case K_U16_ARRAY:
    return need(w, at, 2, kind) ? leaf(w, at, 2 + 2 * (size_t)u16(w, at), kind) : OTV_OBJ_NONE;
  case K_LIGATURE_SET: return offset_list(w, at, K_LIGATURE_SET, K_LIGATURE, 0);
  case K_LIGATURE:
    if (!need(w, at, 4, kind)) return OTV_OBJ_NONE;
    return leaf(w, at, 4 + 2 * (u16(w, at + 2) ? (size_t)u16(w, at + 2) - 1 : 0), kind);
  case K_RULE_SET: return offset_list(w, at, K_RULE_SET, (unsigned)ctx, 0);
  case K_RULE: return rule(w, at);
  case K_CHAIN_RULE: return chain_rule(w, at);
  case K_PAIR_SET: return pair_set(w, at, ctx);
  case K_ANCHOR: return anchor(w, at);
  case K_MARK_ARRAY: return mark_array(w, at);
  case K_ANCHOR_MATRIX: return anchor_matrix(w, at, ctx);
  case K_LIGATURE_ARRAY: return offset_list(w, at, K_LIGATURE_ARRAY, K_ANCHOR_MATRIX, ctx);
  case K_FEATURE_SUBST: return feature_subst(w, at);
  case K_ATTACH_LIST: return coverage_list(w, at, K_ATTACH_LIST, K_U16_ARRAY);
  case K_LIG_CARET_LIST: return coverage_list(w, at, K_LIG_CARET_LIST, K_LIG_GLYPH);
  case K_LIG_GLYPH: return offset_list(w, at, K_LIG_GLYPH, K_CARET, 0);
  case K_CARET: return caret_or_coord(w, at, K_CARET);
  case K_MARK_GLYPH_SETS: return mark_glyph_sets(w, at);
  case K_BASE_AXIS: return base_axis(w, at);
  case K_BASE_TAG_LIST:
    return need(w, at, 2, kind) ? leaf(w, at, 2 + 4 * (size_t)u16(w, at), kind) : OTV_OBJ_NONE;
  case K_BASE_SCRIPT_LIST: return tagged_list(w, at, K_BASE_SCRIPT_LIST, K_BASE_SCRIPT);
  case K_BASE_SCRIPT: return base_script(w, at);
  case K_BASE_VALUES: return base_values(w, at);
  case K_MIN_MAX: return min_max(w, at);
  case K_BASE_COORD: return caret_or_coord(w, at, K_BASE_COORD);
  default: return fail(w, OTV_E_BAD_VALUE, at, "layout object of no kind"); /* not reached */
  }
}

/* ---- the tables ---- */

/* The ItemVariationStore at `off` of GDEF or BASE: the caller's (dropped, rewritten), or the
 * bytes from it to the end of the table (every offset inside a store is from its start and
 * points forward, so they hold it whole). */
static otv_obj item_variation_store(wk *w, size_t off)
{
  if (!off || w->st) return OTV_OBJ_NONE;
  if (off >= w->t.len) return need(w, off, 1, K_STORE), OTV_OBJ_NONE;
  if (!w->xf->store) return leaf(w, off, w->t.len - off, K_STORE);
  otv_obj id = OTV_OBJ_NONE;
  otv_status st = w->xf->store(w->xf->ud, w->g, w->t, off, &id, w->err);
  if (st && !w->st) w->st = st;
  return id;
}

/* GSUB/GPOS: version, ScriptList, FeatureList, LookupList, [FeatureVariations]. */
static otv_obj gsub_gpos(wk *w)
{
  if (!need(w, 0, 10, K_SCRIPT_LIST)) return OTV_OBJ_NONE;
  if (u16(w, 0) != 1) return fail(w, OTV_E_UNSUPPORTED, 0, "major version not 1");
  size_t fl = u16(w, 6);
  uint32_t fv = u16(w, 2) >= 1 && need(w, 0, 14, K_SCRIPT_LIST) ? u32(w, 10) : 0;
  if (w->st) return OTV_OBJ_NONE;
  if (fl && need(w, fl, 2, K_FEATURE_LIST)) {
    w->feature_list = fl;
    w->feature_count = u16(w, fl);
    if (!need_array(w, fl + 2, w->feature_count, 6, K_FEATURE_LIST)) return OTV_OBJ_NONE;
  }
  otv_obj fvo = OTV_OBJ_NONE;
  if (fv && fl) {
    w->subst = otv_mem_calloc(w->al, w->feature_count + 1, sizeof *w->subst);
    if (!w->subst) return fail(w, OTV_E_NOMEM, fv, "feature substitutions");
    if (fv >= w->t.len) return need(w, fv, 1, K_FEATURE_SUBST), OTV_OBJ_NONE;
    fvo = feature_variations(w, fv);
  }
  otv_obj sl = child(w, 0, u16(w, 4), K_SCRIPT_LIST, 0);
  otv_obj flo = child(w, 0, fl, K_FEATURE_LIST, 0);
  otv_obj ll = child(w, 0, u16(w, 8), K_LOOKUP_LIST, 0);
  otv_buf *b = open_obj(w);
  if (!b) return OTV_OBJ_NONE;
  otv_buf_u16(b, 1);
  otv_buf_u16(b, fvo ? 1 : 0);
  put_off16(w, b, sl);
  put_off16(w, b, flo);
  put_off16(w, b, ll);
  if (fvo) put_off32(w, b, fvo);
  return close_obj(w, b);
}

/* GDEF: version, GlyphClassDef, AttachList, LigCaretList, MarkAttachClassDef, [1.2:
 * MarkGlyphSetsDef], [1.3: ItemVariationStore]; written at the lowest version that holds what
 * is left. */
static otv_obj gdef(wk *w)
{
  if (!need(w, 0, 12, K_CLASS_DEF)) return OTV_OBJ_NONE;
  if (u16(w, 0) != 1) return fail(w, OTV_E_UNSUPPORTED, 0, "major version not 1");
  unsigned minor = u16(w, 2);
  size_t mgs = minor >= 2 && need(w, 0, 14, K_MARK_GLYPH_SETS) ? u16(w, 12) : 0;
  size_t ivs = minor >= 3 && need(w, 0, 18, K_MARK_GLYPH_SETS) ? u32(w, 14) : 0;
  otv_obj gc = child(w, 0, u16(w, 4), K_CLASS_DEF, 0);
  otv_obj al = child(w, 0, u16(w, 6), K_ATTACH_LIST, 0);
  otv_obj lc = child(w, 0, u16(w, 8), K_LIG_CARET_LIST, 0);
  otv_obj mc = child(w, 0, u16(w, 10), K_CLASS_DEF, 0);
  otv_obj mg = child(w, 0, mgs, K_MARK_GLYPH_SETS, 0);
  otv_obj st = item_variation_store(w, ivs);
  unsigned out_minor = st ? 3 : mg ? 2 : 0;
  otv_buf *b = open_obj(w);
  if (!b) return OTV_OBJ_NONE;
  otv_buf_u16(b, 1);
  otv_buf_u16(b, (uint16_t)out_minor);
  put_off16(w, b, gc);
  put_off16(w, b, al);
  put_off16(w, b, lc);
  put_off16(w, b, mc);
  if (out_minor >= 2) put_off16(w, b, mg);
  if (out_minor >= 3) put_off32(w, b, st);
  return close_obj(w, b);
}

/* BASE: version, HorizAxis, VertAxis, [1.1: ItemVariationStore]. */
static otv_obj base(wk *w)
{
  if (!need(w, 0, 8, K_BASE_AXIS)) return OTV_OBJ_NONE;
  if (u16(w, 0) != 1) return fail(w, OTV_E_UNSUPPORTED, 0, "major version not 1");
  size_t ivs = u16(w, 2) >= 1 && need(w, 0, 12, K_BASE_AXIS) ? u32(w, 8) : 0;
  otv_obj h = child(w, 0, u16(w, 4), K_BASE_AXIS, 0);
  otv_obj v = child(w, 0, u16(w, 6), K_BASE_AXIS, 0);
  otv_obj st = item_variation_store(w, ivs);
  otv_buf *b = open_obj(w);
  if (!b) return OTV_OBJ_NONE;
  otv_buf_u16(b, 1);
  otv_buf_u16(b, st ? 1 : 0);
  put_off16(w, b, h);
  put_off16(w, b, v);
  if (st) put_off32(w, b, st);
  return close_obj(w, b);
}

static void wk_fini(wk *w)
{
  if (w->memo) otv_mem_free(w->al, w->memo, w->memo_cap * sizeof *w->memo);
  if (w->subst) otv_mem_free(w->al, w->subst, ((size_t)w->feature_count + 1) * sizeof *w->subst);
  otv_graph_free(w->g);
}

otv_status otv_layout_write(const otv_alloc *al, uint32_t tag, otv_span table,
                            const otv_layout_xform *xf, otv_buf *out, otv_error *err)
{
  static const otv_layout_xform as_read = {0};
  bool lookups = tag == OTV_T_GSUB || tag == OTV_T_GPOS;
  if (!lookups && tag != OTV_T_GDEF && tag != OTV_T_BASE)
    return OTV_FAIL(err, ARG, tag, 0, "not a layout table");
  /* a second attempt, every lookup an Extension lookup, when 16-bit offsets cannot reach */
  for (int attempt = 0; attempt < 2; attempt++) {
    wk w;
    memset(&w, 0, sizeof w);
    w.al = al, w.t = table, w.tag = tag, w.xf = xf ? xf : &as_read, w.err = err;
    w.promote = attempt == 1;
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
      if (lookups && attempt == 0) continue;
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

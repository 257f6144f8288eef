/*
 * layout_walk.c - the layout writer's walker (layout_walk.h): bounds checks that fail naming the
 * table and offset, objects opened and closed in the graph under a work budget, and children
 * decoded once per (offset, kind, context).
 */
#include "layout_walk.h"

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

/* ---- failing and reading ---- */

otv_obj otv_lw_fail(otv_lw *w, otv_status code, size_t at, const char *what)
{
  if (!w->st) w->st = otv_fail(w->err, code, w->tag, at, "%s", what);
  return OTV_OBJ_NONE;
}

/* n bytes at `at` are in the table (else the first failure is recorded, naming `kind`). */
bool otv_lw_need(otv_lw *w, size_t at, size_t n, unsigned kind)
{
  if (w->st) return false;
  if (otv_span_has(w->t, at, n)) return true;
  if (!w->st)
    w->st = otv_fail(w->err, OTV_E_TRUNCATED, w->tag, at, "%s runs past the end of the table",
                     KIND_NAME[kind]);
  return false;
}
/* count elements of elem bytes at `at` (overflow-checked). */
bool otv_lw_need_array(otv_lw *w, size_t at, size_t count, size_t elem, unsigned kind)
{
  otv_span s;
  if (w->st) return false;
  if (otv_span_array(w->t, at, count, elem, &s)) return true;
  return otv_lw_need(w, at, SIZE_MAX, kind);
}

/* ---- objects ---- */

otv_buf *otv_lw_open(otv_lw *w)
{
  if (w->st) return NULL;
  otv_buf *b = otv_graph_push(w->g);
  if (!b)
    otv_lw_fail(w, otv_graph_status(w->g) == OTV_E_NOMEM ? OTV_E_NOMEM : OTV_E_LIMIT, 0,
                "layout nesting");
  return b;
}

/* Close the open object (dropped after a failure, so the graph's stack stays balanced). */
otv_obj otv_lw_close(otv_lw *w, otv_buf *b)
{
  if (!b) return OTV_OBJ_NONE;
  w->work += b->len;
  if (!w->st && w->work > w->budget)
    otv_lw_fail(w, OTV_E_LIMIT, 0, "layout work budget exceeded (shared sub-tables fan out)");
  if (!w->st && b->failed) otv_lw_fail(w, OTV_E_NOMEM, 0, "layout object");
  if (w->st) {
    otv_graph_discard(w->g);
    return OTV_OBJ_NONE;
  }
  otv_obj id = otv_graph_pop(w->g);
  if (!id)
    otv_lw_fail(w, otv_graph_status(w->g) == OTV_E_LIMIT ? OTV_E_LIMIT : OTV_E_NOMEM, 0,
                "layout graph");
  return id;
}

/* An object that is the n bytes at `at` as they are. */
otv_obj otv_lw_leaf(otv_lw *w, size_t at, size_t n, unsigned kind)
{
  if (!otv_lw_need(w, at, n, kind)) return OTV_OBJ_NONE;
  otv_buf *b = otv_lw_open(w);
  if (b) otv_buf_bytes(b, w->t.p + at, n);
  return otv_lw_close(w, b);
}

void otv_lw_off16(otv_lw *w, otv_buf *b, otv_obj child)
{
  size_t pos = b->len;
  otv_buf_u16(b, 0);
  if (child && !b->failed) otv_graph_link(w->g, pos, 2, child);
}
void otv_lw_off32(otv_lw *w, otv_buf *b, otv_obj child)
{
  size_t pos = b->len;
  otv_buf_u32(b, 0);
  if (child && !b->failed) otv_graph_link(w->g, pos, 4, child);
}

/* ---- decoding each (offset, kind, context) once ---- */

static uint64_t memo_hash(uint64_t key, uint64_t ctx)
{
  uint64_t h = key * 0x9E3779B97F4A7C15u ^ ctx * 0xC2B2AE3D27D4EB4Fu;
  return h ^ h >> 29;
}

static memo_slot *memo_find(otv_lw *w, uint64_t key, uint64_t ctx)
{
  size_t mask = w->memo_cap - 1, i = (size_t)memo_hash(key, ctx) & mask;
  while (w->memo[i].key && (w->memo[i].key != key || w->memo[i].ctx != ctx)) i = (i + 1) & mask;
  return &w->memo[i];
}

static bool memo_grow(otv_lw *w)
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
otv_obj otv_lw_child_at(otv_lw *w, size_t at, unsigned kind, uint64_t ctx)
{
  if (w->st) return OTV_OBJ_NONE;
  if (at >= w->t.len) {
    otv_lw_need(w, at, 1, kind); /* fails: past the end */
    return OTV_OBJ_NONE;
  }
  uint64_t key = (uint64_t)at << 6 | kind;
  if (2 * (w->memo_count + 1) > w->memo_cap && !memo_grow(w))
    return otv_lw_fail(w, OTV_E_NOMEM, at, "layout memo");
  memo_slot *s = memo_find(w, key, ctx);
  if (s->key) return s->id;
  otv_obj id = w->build(w, at, kind, ctx);
  if (w->st) return OTV_OBJ_NONE;
  s = memo_find(w, key, ctx); /* the table may have grown meanwhile */
  s->key = key, s->ctx = ctx, s->id = id;
  w->memo_count++;
  return id;
}

/* The object of `kind` at offset `off` from `base` (off 0: none). */
otv_obj otv_lw_child(otv_lw *w, size_t base, size_t off, unsigned kind, uint64_t ctx)
{
  if (!off || w->st) return OTV_OBJ_NONE;
  if (off >= w->t.len - base) return otv_lw_need(w, w->t.len, 1, kind), OTV_OBJ_NONE;
  return otv_lw_child_at(w, base + off, kind, ctx);
}

/* An array of n Offset16 at `arr` (checked by the caller), each from `base`, to `kind`. */
void otv_lw_off16_array(otv_lw *w, otv_buf *b, size_t base, size_t arr, size_t n, unsigned kind,
                        uint64_t ctx)
{
  for (size_t i = 0; i < n && !w->st; i++)
    otv_lw_off16(w, b, otv_lw_child(w, base, u16(w, arr + 2 * i), kind, ctx));
}

/* A table of count + count Offset16 to `kind` (ScriptList-less lists: LookupList, LigatureSet,
 * rule sets, LigatureArray...). */
otv_obj otv_lw_offset_list(otv_lw *w, size_t at, unsigned self, unsigned kind, uint64_t ctx)
{
  if (!otv_lw_need(w, at, 2, self)) return OTV_OBJ_NONE;
  size_t n = u16(w, at);
  if (!otv_lw_need_array(w, at + 2, n, 2, self)) return OTV_OBJ_NONE;
  otv_buf *b = otv_lw_open(w);
  if (!b) return OTV_OBJ_NONE;
  otv_buf_u16(b, (uint16_t)n);
  otv_lw_off16_array(w, b, at, at + 2, n, kind, ctx);
  return otv_lw_close(w, b);
}

/* A table of count + count {Tag, Offset16} (ScriptList, FeatureList without substitutions,
 * BaseScriptList). */
otv_obj otv_lw_tagged_list(otv_lw *w, size_t at, unsigned self, unsigned kind)
{
  if (!otv_lw_need(w, at, 2, self)) return OTV_OBJ_NONE;
  size_t n = u16(w, at);
  if (!otv_lw_need_array(w, at + 2, n, 6, self)) return OTV_OBJ_NONE;
  otv_buf *b = otv_lw_open(w);
  if (!b) return OTV_OBJ_NONE;
  otv_buf_u16(b, (uint16_t)n);
  for (size_t i = 0; i < n && !w->st; i++) {
    size_t rec = at + 2 + 6 * i;
    copy(w, b, rec, 4);
    otv_lw_off16(w, b, otv_lw_child(w, at, u16(w, rec + 4), kind, 0));
  }
  return otv_lw_close(w, b);
}

/* ---- leaves whose length a field gives ---- */

otv_obj otv_lw_coverage(otv_lw *w, size_t at)
{
  if (!otv_lw_need(w, at, 4, K_COVERAGE)) return OTV_OBJ_NONE;
  unsigned fmt = u16(w, at), n = u16(w, at + 2);
  if (fmt == 1) return otv_lw_leaf(w, at, 4 + 2 * (size_t)n, K_COVERAGE);
  if (fmt == 2) return otv_lw_leaf(w, at, 4 + 6 * (size_t)n, K_COVERAGE);
  return otv_lw_fail(w, OTV_E_BAD_VALUE, at, "Coverage of an unknown format");
}

otv_obj otv_lw_class_def(otv_lw *w, size_t at)
{
  if (!otv_lw_need(w, at, 4, K_CLASS_DEF)) return OTV_OBJ_NONE;
  unsigned fmt = u16(w, at);
  if ((fmt == 1 && otv_lw_need(w, at, 6, K_CLASS_DEF)) || fmt == 2)
    return otv_lw_leaf(w, at, otv_lw_class_def_len(w, at), K_CLASS_DEF);
  return otv_lw_fail(w, OTV_E_BAD_VALUE, at, "ClassDef of an unknown format");
}

/* spec: Device (deltaFormat 1-3: startSize, endSize, packed deltas of 2/4/8 bits) and
 * VariationIndex (deltaFormat 0x8000) tables; other formats are ignored (no object). */
otv_obj otv_lw_device(otv_lw *w, size_t at)
{
  if (!otv_lw_need(w, at, 6, K_DEVICE)) return OTV_OBJ_NONE;
  unsigned fmt = u16(w, at + 4);
  if (fmt != DELTA_FORMAT_VARIATION_INDEX && (fmt < 1 || fmt > 3)) return OTV_OBJ_NONE;
  return otv_lw_leaf(w, at, otv_lw_device_len(w, at), K_DEVICE);
}

/* What a device offset from `base` is (DEV_*; *delta: a VariationIndex's delta at the
 * instance). */
unsigned otv_lw_device_kind(otv_lw *w, size_t base, unsigned off, int *delta)
{
  *delta = 0;
  if (!off) return DEV_NONE;
  if (off >= w->t.len - base) return otv_lw_need(w, w->t.len, 1, K_DEVICE), DEV_NONE;
  size_t at = base + off;
  if (!otv_lw_need(w, at, 6, K_DEVICE)) return DEV_NONE;
  if (!w->dkey) {
    w->dkey = otv_mem_calloc(w->al, DEV_SLOTS, sizeof *w->dkey);
    w->dval = otv_mem_alloc(w->al, DEV_SLOTS * sizeof *w->dval);
    w->dkind = otv_mem_alloc(w->al, DEV_SLOTS);
    if (!w->dkey || !w->dval || !w->dkind)
      return otv_lw_fail(w, OTV_E_NOMEM, at, "device deltas"), DEV_NONE;
  }
  size_t h = at & (DEV_SLOTS - 1);
  if (w->dkey[h] == at + 1) {
    *delta = w->dval[h];
    return w->dkind[h];
  }
  unsigned fmt = u16(w, at + 4), kind = DEV_NONE;
  if (fmt >= 1 && fmt <= 3) kind = DEV_HINT;
  if (fmt == DELTA_FORMAT_VARIATION_INDEX) {
    unsigned outer = u16(w, at), inner = u16(w, at + 2);
    kind = w->xf->static_instance || (w->xf->varies && !w->xf->varies(w->xf->ud, outer, inner))
               ? DEV_FIXED
               : DEV_VAR;
    *delta = w->xf->delta ? w->xf->delta(w->xf->ud, outer, inner) : 0;
  }
  w->dkey[h] = at + 1, w->dkind[h] = (uint8_t)kind, w->dval[h] = *delta;
  return kind;
}

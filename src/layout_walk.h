/*
 * layout_walk.h - inside the layout writer (layout.h): the walker's state, the kinds of object, and
 * the functions the layout files share. layout_walk.c holds the walker (bounds checks, objects,
 * decoding each sub-table once), layout_gpos.c (.h) the GPOS sub-tables and the values with devices
 * (GDEF carets, BASE coordinates too), layout_fv.c (.h) FeatureVariations and pruning, and layout.c
 * the rest of GSUB/GPOS, GDEF, BASE and the dispatch by kind. Private to them.
 */
#ifndef OTV_LAYOUT_WALK_H
#define OTV_LAYOUT_WALK_H

#include "layout_xform.h"
#include "core/writer.h"

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

typedef struct memo_slot {
  uint64_t key, ctx; /* key: offset << 6 | kind (0: empty) */
  otv_obj id;
} memo_slot;

#define DEV_SLOTS 4096 /* a power of 2 */
#define PRUNED 0xFFFFu /* a lookup or feature index removed by pruning */

/* How lookups are written, one attempt after the other until 16-bit offsets reach: Extension
 * lookups written as the lookup they extend (compact writes only), then lookups as they were
 * read, then every lookup an Extension lookup. */
enum { OTV_LW_EXT_UNWRAP, OTV_LW_EXT_AS_READ, OTV_LW_EXT_PROMOTE };

typedef struct otv_lw otv_lw;
/* Builds the object of `kind` at `at` (layout.c's dispatch; called through the walker so the
 * files below layout.c do not call up into it). */
typedef otv_obj (*otv_lw_build_fn)(otv_lw *w, size_t at, unsigned kind, uint64_t ctx);

struct otv_lw {
  otv_lw_build_fn build;
  const otv_alloc *al;
  otv_graph *g;
  otv_span t;
  uint32_t tag;
  const otv_layout_xform *xf;
  otv_error *err;
  otv_status st;
  unsigned ext_mode; /* OTV_LW_EXT_*: how lookups use Extension sub-tables in this attempt */
  size_t work, budget;
  memo_slot *memo;
  size_t memo_cap, memo_count;
  /* FeatureList: where, how many features, and per feature the Feature table that replaces it
   * (absolute offset; 0: its own), from the FeatureVariationRecord applied */
  size_t feature_list;
  unsigned feature_count;
  size_t *subst;
  /* the FeatureVariationRecords kept (indices), from fv_plan */
  uint32_t *fv_keep;
  uint32_t fv_kept, fv_count;
  /* pruning (see prune_plan): old lookup / feature index -> new (PRUNED: removed); NULL: no
   * pruning */
  uint16_t *lmap, *fmap;
  uint8_t *fseen; /* (feature_count + 1) / 8 bytes: new feature indices a LangSys lists */
  size_t lookup_list;
  unsigned lookup_count;
  /* what the devices seen are (device tables are widely shared): slot `at % DEV_SLOTS` of the
   * device at absolute offset `at` holds dkey = at + 1 (0: empty), dkind (DEV_*) and dval, the
   * delta of a VariationIndex table; allocated at the first device */
  size_t *dkey;
  int32_t *dval;
  uint8_t *dkind;
};

/* ---- small readers and helpers (reads unchecked: only where otv_lw_need covered them) ---- */
static inline unsigned u16(const otv_lw *w, size_t at) { return otv_peek_u16(w->t.p + at); }
static inline uint32_t u32(const otv_lw *w, size_t at) { return otv_peek_u32(w->t.p + at); }
/* Copy n bytes of the table (checked by the caller) into the object being written. */
static inline void copy(const otv_lw *w, otv_buf *b, size_t at, size_t n)
{
  otv_buf_bytes(b, w->t.p + at, n);
}
static inline int clamp16(long v) { return v < -32768 ? -32768 : v > 32767 ? 32767 : (int)v; }
static inline bool is_gsub(const otv_lw *w) { return w->tag == OTV_T_GSUB; }
static inline unsigned extension_type(const otv_lw *w)
{
  return is_gsub(w) ? GSUB_EXTENSION : GPOS_EXTENSION;
}
/* The new index of lookup i (as it is without pruning, or for an index out of range). */
static inline unsigned lookup_index(const otv_lw *w, unsigned i)
{
  return w->lmap && i < w->lookup_count ? w->lmap[i] : i;
}
/* The new index of feature i (PRUNED: removed; out of range: removed too when pruning). */
static inline unsigned feature_index(const otv_lw *w, unsigned i)
{
  if (!w->fmap) return i;
  return i < w->feature_count ? w->fmap[i] : PRUNED;
}
/* The tag of feature `index` (0: none). */
static inline uint32_t feature_tag(const otv_lw *w, unsigned index)
{
  if (index >= w->feature_count) return 0;
  return u32(w, w->feature_list + 2 + 6 * (size_t)index); /* in range: checked in gsub_gpos */
}

/* spec: Device tables (deltaFormat 1-3: startSize, endSize, deltas packed 2/4/8 bits each):
 * the bytes of the one at `at` (its 6-byte header checked by the caller); 6 for a
 * VariationIndex table or a format clients ignore. */
static inline size_t otv_lw_device_len(const otv_lw *w, size_t at)
{
  unsigned start = u16(w, at), end = u16(w, at + 2), fmt = u16(w, at + 4);
  if (fmt < 1 || fmt > 3 || end < start) return 6;
  size_t bits = ((size_t)end - start + 1) << fmt; /* 2, 4 or 8 bits per size */
  return 6 + 2 * ((bits + 15) / 16);
}

/* spec: ClassDef format 1 (startGlyphID, glyphCount, classValues) or 2 (classRangeCount,
 * ranges): the bytes of the one at `at` (format 1: 6 bytes checked, else 4). */
static inline size_t otv_lw_class_def_len(const otv_lw *w, size_t at)
{
  return u16(w, at) == 1 ? 6 + 2 * (size_t)u16(w, at + 4) : 4 + 6 * (size_t)u16(w, at + 2);
}

/* What a device offset is (otv_lw_device_kind): none, a Device table (hinting, kept), a
 * VariationIndex that still varies in the instance (kept, its default delta added), or one
 * that does not (a static instance, or a partial one where its item has no delta left: its
 * delta added, the device dropped). */
enum { DEV_NONE, DEV_HINT, DEV_VAR, DEV_FIXED };

/* ---- layout_walk.c: failing, reading, objects, children decoded once ---- */
/* Record the first failure; returns OTV_OBJ_NONE. */
otv_obj otv_lw_fail(otv_lw *w, otv_status code, size_t at, const char *what);
/* n bytes at `at` are in the table (else TRUNCATED naming `kind`). */
bool otv_lw_need(otv_lw *w, size_t at, size_t n, unsigned kind);
/* count elements of elem bytes at `at` (overflow-checked). */
bool otv_lw_need_array(otv_lw *w, size_t at, size_t count, size_t elem, unsigned kind);
/* Open an object (NULL after a failure); close it (its id; dropped after a failure). */
otv_buf *otv_lw_open(otv_lw *w);
otv_obj otv_lw_close(otv_lw *w, otv_buf *b);
/* An object that is the n bytes at `at` as they are. */
otv_obj otv_lw_leaf(otv_lw *w, size_t at, size_t n, unsigned kind);
/* Append an Offset16 / Offset32 field to child (0 for none). */
void otv_lw_off16(otv_lw *w, otv_buf *b, otv_obj child);
void otv_lw_off32(otv_lw *w, otv_buf *b, otv_obj child);
/* The object of `kind` at absolute `at`, or at `off` from `base` (0: none); decoded once per
 * (offset, kind, ctx). */
otv_obj otv_lw_child_at(otv_lw *w, size_t at, unsigned kind, uint64_t ctx);
otv_obj otv_lw_child(otv_lw *w, size_t base, size_t off, unsigned kind, uint64_t ctx);
/* n Offset16 at `arr` (checked), from `base`, to `kind`, appended as links. */
void otv_lw_off16_array(otv_lw *w, otv_buf *b, size_t base, size_t arr, size_t n, unsigned kind,
                        uint64_t ctx);
/* count + count Offset16 to `kind`; count + count {Tag, Offset16} to `kind`. */
otv_obj otv_lw_offset_list(otv_lw *w, size_t at, unsigned self, unsigned kind, uint64_t ctx);
otv_obj otv_lw_tagged_list(otv_lw *w, size_t at, unsigned self, unsigned kind);
/* Coverage, ClassDef, Device/VariationIndex tables. */
otv_obj otv_lw_coverage(otv_lw *w, size_t at);
otv_obj otv_lw_class_def(otv_lw *w, size_t at);
otv_obj otv_lw_device(otv_lw *w, size_t at);
/* The device at `off` from `base`: DEV_NONE (none, or a format clients ignore), DEV_HINT, or
 * DEV_VAR / DEV_FIXED with *delta its delta at the instance. */
unsigned otv_lw_device_kind(otv_lw *w, size_t base, unsigned off, int *delta);
/* otv_lw_device_kind, from the table when the device was seen before: the hot path of value
 * records. */
static inline unsigned otv_lw_dev(otv_lw *w, size_t base, unsigned off, int *delta)
{
  size_t at = base + off, h = at & (DEV_SLOTS - 1);
  if (w->dkey && off && off < w->t.len - base && w->dkey[h] == at + 1) {
    *delta = w->dval[h];
    return w->dkind[h];
  }
  return otv_lw_device_kind(w, base, off, delta);
}

#endif /* OTV_LAYOUT_WALK_H */

/*
 * instance/layout.c - GDEF, GPOS, GSUB and BASE of a static or partial instance, written anew by
 * the layout writer (layout.h) with the instance's changes:
 *
 * - VariationIndex device tables (GPOS value records and anchors, GDEF caret values, BASE
 *   coordinates) add round(delta) (summed in double, as fontTools) to the value they vary. A
 *   static instance drops them and narrows every ValueFormat to the fields its records need; a
 *   partial one keeps them (the store keeps its (outer, inner) numbering).
 * - The ItemVariationStores of GDEF and BASE: dropped from a static instance (the table's
 *   version lowered), rewritten for the kept axes in a partial one (instance/store.c).
 * - FeatureVariations: a condition on a pinned axis holds or fails at the pin; records that fail
 *   are dropped, conditions that hold removed, kept axes renumbered; the first record that holds
 *   everywhere is applied to the FeatureList when no record precedes it (always, in a static
 *   instance), and the FeatureVariations dropped when nothing is left.
 *
 * - Every table is written anew (compact: unreachable lookups and features, duplicate features
 *   and LangSys records equal to their script's default dropped), varying or not.
 * Spec: GDEF, GPOS, GSUB, BASE, chapter2 ("Device and VariationIndex tables",
 * "FeatureVariations table").
 */
#include "instance/store.h"
#include "instance/inst.h"
#include "layout.h"

#define T_GDEF OTV_T_GDEF
#define T_GPOS OTV_T_GPOS
#define T_GSUB OTV_T_GSUB
#define T_BASE OTV_T_BASE

/* spec: the header fields that say whether a table varies */
#define LAYOUT_MINOR_VERSION 2
#define LAYOUT_FEATURE_VARIATIONS 10 /* GSUB/GPOS version 1.1 */
#define GDEF_ITEM_VAR_STORE 14       /* version 1.3 */
#define BASE_ITEM_VAR_STORE 8        /* version 1.1 */

/* One store's deltas at the instance, for the writer's hooks. */
typedef struct lay {
  otv_inst *in;
  uint32_t tag;
  otv_ivs ivs; /* present false: none */
  otv_inst_ivs ev;
  bool ev_ready;
  otv_store_rows *rows; /* partial: which items still vary */
} lay;

/* The ItemVariationStore offset of GDEF (1.3) or BASE (1.1) (0: none). */
static size_t store_offset(otv_span t, uint32_t tag)
{
  size_t field = tag == T_GDEF ? GDEF_ITEM_VAR_STORE : BASE_ITEM_VAR_STORE;
  unsigned minor_needed = tag == T_GDEF ? 3 : 1;
  if (t.len < field + 4 || otv_peek_u16(t.p + LAYOUT_MINOR_VERSION) < minor_needed) return 0;
  return otv_peek_u32(t.p + field);
}

static bool hook_varies(void *ud, unsigned outer, unsigned inner)
{
  lay *l = ud;
  return l->rows && otv_store_row_varies(l->rows, outer, inner);
}

static int hook_delta(void *ud, unsigned outer, unsigned inner)
{
  lay *l = ud;
  if (!l->ivs.present) return 0;
  return otv_inst_round(otv_inst_ivs_get(&l->in->cx, &l->ev, outer, inner));
}

/* A condition on axis over [lo, hi] at the pin; an axis the font does not have is at its
 * default, 0. */
static int hook_condition(void *ud, unsigned axis, int *lo, int *hi)
{
  const otv_pin *pin = &((lay *)ud)->in->pin;
  if (axis < pin->axis_count && pin->partial && pin->keep[axis]) {
    if (!pin->limited[axis]) return pin->new_index[axis];
    /* a limited axis: the range clipped to the axis's new one and rebased onto it, as
     * fontTools' instancer does (a range that covers it all always holds) */
    int l = pin->lim_lo[axis], d = pin->lim_def[axis], h = pin->lim_hi[axis];
    if (*lo > *hi || *lo > h || *hi < l) return OTV_LAYOUT_COND_FALSE;
    int v[2] = {*lo < l ? l : *lo, *hi > h ? h : *hi};
    for (int i = 0; i < 2; i++) {
      double y = v[i] < d   ? (double)(v[i] - d) / (d - l)
                 : v[i] > d ? (double)(v[i] - d) / (h - d)
                            : 0;
      v[i] = (int)floor(y * 16384 + 0.5);
    }
    if (v[0] == -16384 && v[1] == 16384) return OTV_LAYOUT_COND_TRUE;
    *lo = v[0], *hi = v[1];
    return pin->new_index[axis];
  }
  int v = axis < pin->axis_count ? pin->coords[axis] : 0;
  return v >= *lo && v <= *hi ? OTV_LAYOUT_COND_TRUE : OTV_LAYOUT_COND_FALSE;
}

/* Static: the store is dropped. Partial: rewritten for the kept axes and linked as one object.
 * The store was parsed into l->ivs (the hook is called for GDEF's and BASE's own store): the
 * table up to its end is copied, so the rewrite finds the store at the end and compacts it
 * (folded columns removed) wherever it sat in the font; errors name the table's offsets. */
static otv_status hook_store(void *ud, otv_graph *g, otv_span t, size_t off, otv_obj *obj,
                             otv_error *err)
{
  lay *l = ud;
  otv_inst *in = l->in;
  *obj = OTV_OBJ_NONE;
  if (!in->pin.partial || !l->ivs.present) return OTV_E_OK;
  otv_span upto = otv_span_of(t.p, otv_ivs_end(&l->ivs, t, off));
  otv_buf b;
  otv_buf_init(&b, in->al);
  otv_buf_bytes(&b, upto.p, upto.len);
  otv_status st = b.failed ? OTV_FAIL(err, NOMEM, l->tag, off, "store copy") : OTV_E_OK;
  if (!st) st = otv_store_partial(&in->cx, upto, &b, l->tag, off, true);
  if (!st) {
    /* compacted or rewritten in place: either way the store is all of b from off */
    otv_buf *o = otv_graph_push(g);
    if (o) otv_buf_bytes(o, b.p + off, b.len - off);
    *obj = o ? otv_graph_pop(g) : OTV_OBJ_NONE;
    if (!*obj) st = OTV_FAIL(err, NOMEM, l->tag, off, "store object");
  }
  otv_buf_free(&b);
  return st;
}

/* The store of GDEF or BASE parsed, its deltas at the pin ready (none: l->ivs.present false). */
static otv_status lay_init(lay *l, otv_inst *in, uint32_t tag)
{
  memset(l, 0, sizeof *l);
  l->in = in, l->tag = tag;
  otv_span t = otv_face_span(in->face, tag);
  size_t off = store_offset(t, tag);
  if (!off) return OTV_E_OK;
  otv_status st =
      otv_ivs_parse(in->al, t, tag, off, (uint16_t)in->pin.axis_count, &l->ivs, in->err);
  if (st) return st;
  /* fini undoes a failed init too */
  l->ev_ready = true;
  if (otv_inst_ivs_init(&in->cx, &l->ivs, &l->ev))
    return OTV_FAIL(in->err, NOMEM, tag, off, "deltas at the instance");
  if (in->pin.partial) return otv_store_rows_init(&in->cx, &l->ivs, tag, &l->rows);
  return OTV_E_OK;
}

static void lay_fini(lay *l)
{
  if (l->ev_ready) otv_inst_ivs_fini(&l->in->cx, &l->ev);
  otv_store_rows_free(&l->in->cx, l->rows);
  otv_ivs_free(l->in->al, &l->ivs);
}

static bool has_feature_variations(otv_span t)
{
  return t.len >= LAYOUT_FEATURE_VARIATIONS + 4 && otv_peek_u16(t.p + LAYOUT_MINOR_VERSION) >= 1 &&
         otv_peek_u32(t.p + LAYOUT_FEATURE_VARIATIONS);
}

/* Whether the instance changes what `tag` says (variation data to resolve or rewrite). */
static bool varies(uint32_t tag, otv_span t, const lay *l)
{
  switch (tag) {
  case T_GSUB: return has_feature_variations(t);
  case T_GPOS: return l->ivs.present || has_feature_variations(t);
  default: return store_offset(t, tag) != 0; /* GDEF, BASE */
  }
}

/* Write `tag` (when the font has it) into dst, with the deltas of store l. */
static otv_status do_table(otv_inst *in, uint32_t tag, lay *l, otv_buf *dst)
{
  otv_span t = otv_face_span(in->face, tag);
  if (!t.len) return OTV_E_OK;
  otv_layout_xform xf;
  memset(&xf, 0, sizeof xf);
  xf.ud = l;
  xf.static_instance = !in->pin.partial;
  xf.compact = true;
  xf.delta = hook_delta;
  xf.varies = hook_varies;
  xf.condition = hook_condition;
  xf.store = hook_store;
  if (varies(tag, t, l)) return otv_layout_write(in->al, tag, t, &xf, dst, in->err);
  /* nothing to resolve: written compact when it can be, else copied as it is (a table the
   * instance has no reason to read cannot make it fail) */
  otv_error own = {0};
  otv_status st = otv_layout_write(in->al, tag, t, &xf, dst, &own);
  if (st == OTV_E_NOMEM) return OTV_FAIL(in->err, NOMEM, tag, 0, "layout table");
  if (st) dst->len = 0;
  return OTV_E_OK;
}

otv_status otv_inst_layout(otv_inst *in)
{
  lay gdef, base;
  otv_status st = lay_init(&gdef, in, T_GDEF);
  if (!st)
    st = lay_init(&base, in, T_BASE);
  else
    memset(&base, 0, sizeof base), base.in = in;
  if (!st) st = do_table(in, T_GDEF, &gdef, &in->gdef);
  if (!st) st = do_table(in, T_GPOS, &gdef, &in->gpos);
  if (!st) {
    lay none;
    memset(&none, 0, sizeof none);
    none.in = in, none.tag = T_GSUB;
    st = do_table(in, T_GSUB, &none, &in->gsub);
  }
  if (!st) st = do_table(in, T_BASE, &base, &in->base);
  lay_fini(&gdef);
  lay_fini(&base);
  return st;
}

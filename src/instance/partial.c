/*
 * instance/partial.c - the variation tables of a partial instance: some axes pinned, the others
 * kept variable with their full ranges (fontTools' varLib.instancer "L2" instancing). The glyph
 * data (instance/glyf.c through instance/tvs.c) and the stores (instance/store.c) are rewritten
 * by their own files; this one writes fvar, avar, gvar around them and copies HVAR, VVAR and MVAR
 * with their stores rewritten.
 *
 * Spec: otvarcommonformats ("Algorithm for interpolation of instance values", "Tuple Variation
 * Store", "Item Variation Store"), gvar, cvar, fvar, avar, HVAR, VVAR, MVAR.
 *
 * The new default is the font at the pinned coordinates with the kept axes at their defaults,
 * which is what the full instancer computes at that location (glyf, hmtx, cvt, MVAR fields, GPOS
 * values). A variation region's scalar is the product of per-axis factors, so at any location
 * of the new font
 *   scalar(region) = scalar(pinned axes at the pins) x scalar(kept axes).
 * A region with no kept axis has the constant factor of its pinned axes: it is folded into the
 * default. Every other region keeps its kept axes, and its deltas are multiplied by the pinned
 * factor (regions whose pinned factor is 0 disappear). Deltas are rounded with floor(x + 0.5).
 *
 * Tuple variation stores (gvar, cvar) are rewritten: the kept tuples, summed per kept region,
 * with shared peaks (gvar) and private point numbers. A sparse tuple is made explicit first, by
 * IUP against the ORIGINAL default outline (the new default is different, so the same sparse
 * points would infer other deltas); then the points IUP can infer again, from the new default,
 * within the rounding's 0.5 of the exact delta are left out. ItemVariationStores (HVAR, VVAR, MVAR, GDEF) keep their layout: the region list
 * is rewritten in place with fewer axes and each delta is replaced by its scaled value, which
 * never needs a wider field, so no DeltaSetIndexMap, VariationIndex or MVAR record changes.
 */
#include "instance/store.h"
#include "instance/inst.h"

/* ---- HVAR, VVAR, MVAR: copies with the store rewritten ---- */

/* A copy of the table with its store rewritten (instance/store.c); compacted only when the
 * table's other structures (MVAR records, HVAR/VVAR maps, from the face's parse) end before it. */
static otv_status store_table(otv_inst *in, uint32_t tag, otv_buf *b)
{
  otv_span t = otv_face_span(in->face, tag);
  if (!t.p) return OTV_E_OK;
  otv_buf_bytes(b, t.p, t.len);
  if (b->failed) return OTV_FAIL(in->err, NOMEM, tag, 0, "table copy");
  const otv_metrics *m = &in->face->met;
  size_t off, others; /* the store, and where the table's other structures end */
  if (tag == OTV_T_MVAR) {
    off = m->mvar.ivs_off; /* read at open (also when MVAR has no records) */
    others = 12 + (size_t)m->mvar.record_size * m->mvar.record_count; /* the value records */
  } else {
    const otv_xvar *x = tag == OTV_T_VVAR ? &m->vvar : &m->hvar;
    if (!x->present) return OTV_E_OK;
    off = x->ivs_off;
    others = x->header_len;
    const otv_dsim *maps[4] = {&x->adv, &x->side_a, &x->side_b, &x->vorg};
    for (unsigned k = 0; k < 4; k++)
      if (maps[k]->present && maps[k]->end_off > others) others = maps[k]->end_off;
  }
  if (!off) return OTV_E_OK;
  return otv_store_partial(&in->cx, t, b, tag, off, others <= off);
}

/* ---- fvar ---- */

static otv_status build_fvar(otv_inst *in)
{
  const otv_face *f = in->face;
  const otv_fvar *fv = &f->fvar;
  unsigned ac = in->pin.axis_count, kc = in->pin.kept_count;
  size_t isz_new = 4 + 4 * (size_t)kc;
  bool ps = fv->instance_size >= 6 + 4 * (size_t)ac;
  if (ps) isz_new += 2;
  otv_buf *b = &in->fvar;
  otv_buf_u16(b, 1);  /* majorVersion */
  otv_buf_u16(b, 0);  /* minorVersion */
  otv_buf_u16(b, 16); /* axesArrayOffset: after this header */
  otv_buf_u16(b, 2);  /* reserved */
  otv_buf_u16(b, (uint16_t)kc);
  otv_buf_u16(b, 20); /* axisSize */
  size_t count_at = b->len;
  otv_buf_u16(b, 0);
  otv_buf_u16(b, (uint16_t)isz_new);
  for (unsigned a = 0; a < ac; a++) {
    if (!in->pin.keep[a]) continue;
    /* in range: axis records checked at open (axis_count x axisSize) */
    otv_buf_bytes(b, fv->axes + (size_t)a * fv->axis_size, 20);
  }
  /* named instances on the pinned coordinates, without the pinned axes */
  double user[OTV_MAX_AXES];
  otv_norm_result norm[OTV_MAX_AXES];
  unsigned kept_instances = 0;
  for (unsigned i = 0; i < fv->instance_count; i++) {
    const uint8_t *rec =
        fv->instances + (size_t)i * fv->instance_size; /* in range: checked at open */
    otv_error e = {0};
    if (otv_fvar_instance_coords(fv, i, user, ac, &e) ||
        otv_fvar_normalize(fv, in->loc->model, user, norm, in->al, &e))
      return OTV_FAIL(in->err, NOMEM, OTV_T_FVAR, 0, "normalizing instance %u", i);
    bool on = true;
    for (unsigned a = 0; a < ac; a++)
      if (!in->pin.keep[a] && norm[a].f2 != in->pin.coords[a]) on = false;
    if (!on) continue;
    otv_buf_bytes(b, rec, 4);
    for (unsigned a = 0; a < ac; a++)
      if (in->pin.keep[a]) otv_buf_bytes(b, rec + 4 + 4 * a, 4);
    if (ps) otv_buf_bytes(b, rec + 4 + 4 * (size_t)ac, 2);
    kept_instances++;
  }
  if (b->failed) return OTV_FAIL(in->err, NOMEM, OTV_T_FVAR, 0, "fvar buffer");
  otv_buf_put_u16(b, count_at, (uint16_t)kept_instances);
  return OTV_E_OK;
}

/* ---- avar (version 1): the kept axes' segment maps ---- */

static otv_status build_avar(otv_inst *in)
{
  const otv_fvar *fv = &in->face->fvar;
  if (!fv->avar.version) return OTV_E_OK;
  if (fv->avar.version != 1)
    return OTV_FAIL(in->err, UNSUPPORTED, OTV_T_AVAR, 0, "partial instances of avar version %u",
                    fv->avar.version);
  otv_buf *b = &in->avar;
  otv_buf_u16(b, 1); /* majorVersion */
  otv_buf_u16(b, 0); /* minorVersion */
  otv_buf_u16(b, 0); /* reserved */
  otv_buf_u16(b, (uint16_t)in->pin.kept_count);
  for (unsigned a = 0; a < in->pin.axis_count; a++) {
    if (!in->pin.keep[a]) continue;
    /* the SegmentMaps record as stored (in range: its extent was checked at open) */
    const uint8_t *raw = fv->avar.seg[a].raw;
    otv_buf_bytes(b, raw, 2 + 4 * (size_t)otv_peek_u16(raw));
  }
  if (b->failed) return OTV_FAIL(in->err, NOMEM, OTV_T_AVAR, 0, "avar buffer");
  return OTV_E_OK;
}

/* ---- gvar: header, offsets, the glyph data written by otv_inst_glyf ---- */

static otv_status build_gvar(otv_inst *in)
{
  if (!otv_face_span(in->face, OTV_T_GVAR).p) return OTV_E_OK;
  uint32_t n = in->glyph_count;
  in->gvar_offs[n] = (uint32_t)in->gvar_data.len;
  bool lng = in->gvar_data.len / 2 > 0xFFFF;
  size_t shared_at = 20 + ((size_t)n + 1) * (lng ? 4 : 2);
  const otv_tvs_work *w = &in->tvs;
  size_t data_at = shared_at + 2 * (size_t)w->peak_count * in->pin.kept_count;
  otv_buf *b = &in->gvar;
  otv_buf_u16(b, 1);
  otv_buf_u16(b, 0);
  otv_buf_u16(b, (uint16_t)in->pin.kept_count);
  otv_buf_u16(b, (uint16_t)w->peak_count);
  otv_buf_u32(b, (uint32_t)shared_at);
  otv_buf_u16(b, (uint16_t)n);
  otv_buf_u16(b, lng ? 1 : 0);
  otv_buf_u32(b, (uint32_t)data_at);
  for (uint32_t g = 0; g <= n; g++) {
    if (lng)
      otv_buf_u32(b, in->gvar_offs[g]);
    else
      otv_buf_u16(b, (uint16_t)(in->gvar_offs[g] / 2));
  }
  for (size_t i = 0; i < (size_t)w->peak_count * in->pin.kept_count; i++)
    otv_buf_u16(b, (uint16_t)w->peaks[i]);
  otv_buf_bytes(b, in->gvar_data.p, in->gvar_data.len);
  if (b->failed) return OTV_FAIL(in->err, NOMEM, OTV_T_GVAR, 0, "gvar buffer");
  return OTV_E_OK;
}

/* ---- cvar ---- */

static otv_status build_cvar(otv_inst *in)
{
  otv_span cvar = otv_face_span(in->face, OTV_T_CVAR);
  size_t cvt_len = 0;
  otv_face_table(in->face, OTV_T_CVT, &cvt_len);
  if (!cvar.p || cvt_len < 2) return OTV_E_OK;
  otv_tvs_in store;
  otv_status st = otv_tvs_cvar(&in->cx, cvar, (unsigned)(cvt_len / 2), &store);
  if (st) return st;
  otv_buf *b = &in->cvar;
  otv_buf_u16(b, 1); /* majorVersion */
  otv_buf_u16(b, 0); /* minorVersion */
  st = otv_tvs_partial(&in->cx, &in->tvs, &store, NULL, NULL, false, b, 0);
  if (st) return st;
  if (b->len == 4) { /* no tuple left: an empty store */
    otv_buf_u16(b, 0);
    otv_buf_u16(b, 8);
  }
  if (b->failed) return OTV_FAIL(in->err, NOMEM, OTV_T_CVAR, 0, "cvar buffer");
  return OTV_E_OK;
}

otv_status otv_part_tables(otv_inst *in)
{
  otv_status st;
  if ((st = build_fvar(in)) || (st = build_avar(in)) || (st = build_gvar(in)) ||
      (st = build_cvar(in)) || (st = store_table(in, OTV_T_HVAR, &in->hvar)) ||
      (st = store_table(in, OTV_T_VVAR, &in->vvar)) ||
      (st = store_table(in, OTV_T_MVAR, &in->mvar)))
    return st;
  return OTV_E_OK;
}

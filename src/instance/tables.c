/*
 * instance/tables.c - the small tables of a static instance: head, hhea, vhea, maxp, OS/2, post
 * and cvt (cvar).
 *
 * Spec: head, hhea, vhea, maxp, OS/2, post; MVAR ("Value tags": which field each tag
 * varies), cvar. Values recomputed from the instanced glyphs follow what fontTools' compiler
 * recalculates (head bbox and flags bit 1, hhea/vhea extents, maxp maxima); MVAR deltas are summed
 * in double and rounded with floor(x + 0.5) before being added; OS/2 usWeightClass/usWidthClass
 * and post.italicAngle come from the wght/wdth/slnt user values as fontTools'
 * set_default_weight_width_slant does.
 */
#include "instance/store.h"
#include "instance/inst.h"
#include "mvar.h"
#include "fields.h"

#include <stdio.h>
#include <stdlib.h>

static bool copy_table(otv_inst *in, uint32_t tag, otv_buf *b)
{
  size_t len = 0;
  const uint8_t *p = otv_face_table(in->face, tag, &len);
  if (!p) return false;
  otv_buf_bytes(b, p, len);
  return true;
}

/* ---- MVAR ---- */

/* Every field an MVAR record varies (the face's parsed MVAR, mvar.h's table of fields) gets
 * round(delta) added; the gasp tags are not applied, as fontTools does not. */
static otv_status apply_mvar(otv_inst *in)
{
  const otv_mvar *mv = &in->face->met.mvar;
  if (!mv->present) return OTV_E_OK;
  otv_inst_ivs ev;
  if (otv_inst_ivs_init(&in->cx, &mv->ivs, &ev)) {
    otv_inst_ivs_fini(&in->cx, &ev);
    return OTV_FAIL(in->err, NOMEM, OTV_T_MVAR, 0, "MVAR deltas");
  }
  for (int k = 0; k < OTV_MVAR_FIRST_GASP; k++) {
    if (!mv->has[k]) continue;
    double d = otv_inst_ivs_get(&in->cx, &ev, mv->outer[k], mv->inner[k]);
    if (d == 0) continue;
    otv_mvar_field fld;
    otv_mvar_field_of(k, &fld);
    otv_buf *b = fld.table == OTV_T_OS2    ? &in->os2
                 : fld.table == OTV_T_HHEA ? &in->hhea
                 : fld.table == OTV_T_VHEA ? &in->vhea
                                           : &in->post;
    size_t off = fld.off;
    if (off + 2 <= b->len) {
      int base = fld.is_unsigned ? (int)otv_peek_u16(b->p + off) : otv_buf_get_i16(b, off);
      otv_buf_set_16(b, off, base + otv_inst_round(d));
    }
  }
  otv_inst_ivs_fini(&in->cx, &ev);
  return OTV_E_OK;
}

/* ---- cvt / cvar ---- */

static otv_status apply_cvar(otv_inst *in)
{
  otv_span cvar = otv_face_span(in->face, OTV_T_CVAR);
  if (!cvar.p || !in->cvt.len) return OTV_E_OK;
  unsigned n = (unsigned)(in->cvt.len / 2);
  otv_tvs_in store;
  otv_status st = otv_tvs_cvar(&in->cx, cvar, n, &store);
  if (st) return st;
  double *acc = otv_mem_calloc(in->al, n ? n : 1, sizeof *acc);
  if (!acc) return OTV_FAIL(in->err, NOMEM, OTV_T_CVAR, 0, "cvt deltas");
  st = otv_tvs_sum(&in->cx, &in->tvs, &store, acc, NULL);
  if (!st)
    for (unsigned i = 0; i < n; i++)
      if (acc[i] != 0)
        otv_buf_set_16(&in->cvt, 2 * (size_t)i,
                       otv_buf_get_i16(&in->cvt, 2 * (size_t)i) + otv_inst_round(acc[i]));
  otv_mem_free(in->al, acc, (n ? n : 1) * sizeof *acc);
  return st;
}

/* ---- wght / wdth / slnt ---- */

static bool user_value(const otv_inst *in, uint32_t tag, double *v)
{
  for (unsigned a = 0; a < in->pin.axis_count; a++)
    if (in->pin.axis_tags[a] == tag) {
      if (in->pin.keep[a]) return false; /* still variable: the default's value stays */
      *v = in->loc->user[a];
      return true;
    }
  return false;
}

static void weight_width_slant(otv_inst *in)
{
  double v;
  if (in->os2.len >= OS2_US_WIDTH_CLASS + 2 && user_value(in, OTV_T('w', 'g', 'h', 't'), &v)) {
    double w = v < 1 ? 1 : v > 1000 ? 1000 : v;
    otv_buf_set_16(&in->os2, OS2_US_WEIGHT_CLASS, (int)floor(w + 0.5));
  }
  if (in->os2.len >= OS2_US_WIDTH_CLASS + 2 && user_value(in, OTV_T('w', 'd', 't', 'h'), &v)) {
    /* OS/2 usWidthClass: piecewise linear through the spec's width percentages */
    static const double pct[9] = {50, 62.5, 75, 87.5, 100, 112.5, 125, 150, 200};
    double w = v < 50 ? 50 : v > 200 ? 200 : v, cls = 9;
    for (int i = 0; i < 8; i++)
      if (w <= pct[i + 1]) {
        cls = (i + 1) + (w - pct[i]) / (pct[i + 1] - pct[i]);
        break;
      }
    otv_buf_set_16(&in->os2, OS2_US_WIDTH_CLASS, (int)floor(cls + 0.5));
  }
  if (in->post.len >= POST_ITALIC_ANGLE + 4 && user_value(in, OTV_T('s', 'l', 'n', 't'), &v)) {
    double a = v < -90 ? -90 : v > 90 ? 90 : v;
    otv_put_u32(in->post.p + POST_ITALIC_ANGLE, (uint32_t)(int32_t)floor(a * 65536.0 + 0.5));
  }
}

/* ---- head / hhea / vhea / maxp ---- */

static void recalc(otv_inst *in)
{
  uint32_t n = in->glyph_count;
  int xmin = 0, ymin = 0, xmax = 0, ymax = 0;
  bool any = false, all_lsb = true;
  int max_adv = 0, min_lsb = 0, min_rsb = 0, max_ext = 0;
  int max_advh = 0, min_tsb = 0, min_bsb = 0, max_vext = 0;
  for (uint32_t g = 0; g < n; g++) {
    if (in->adv_w[g] > max_adv) max_adv = in->adv_w[g];
    if (in->has_vmtx && in->adv_h[g] > max_advh) max_advh = in->adv_h[g];
    if (!in->has_outline[g]) continue;
    const int16_t *bb = in->bbox[g];
    if (in->lsb[g] != bb[0]) all_lsb = false;
    int w = bb[2] - bb[0], lsb = in->lsb[g];
    int rsb = in->adv_w[g] - lsb - w, ext = lsb + w;
    if (!any) {
      xmin = bb[0], ymin = bb[1], xmax = bb[2], ymax = bb[3];
      min_lsb = lsb, min_rsb = rsb, max_ext = ext;
    } else {
      if (bb[0] < xmin) xmin = bb[0];
      if (bb[1] < ymin) ymin = bb[1];
      if (bb[2] > xmax) xmax = bb[2];
      if (bb[3] > ymax) ymax = bb[3];
      if (lsb < min_lsb) min_lsb = lsb;
      if (rsb < min_rsb) min_rsb = rsb;
      if (ext > max_ext) max_ext = ext;
    }
    if (in->has_vmtx) {
      int h = bb[3] - bb[1], tsb = in->tsb[g];
      int bsb = in->adv_h[g] - tsb - h, vext = tsb + h;
      if (!any)
        min_tsb = tsb, min_bsb = bsb, max_vext = vext;
      else {
        if (tsb < min_tsb) min_tsb = tsb;
        if (bsb < min_bsb) min_bsb = bsb;
        if (vext > max_vext) max_vext = vext;
      }
    }
    any = true;
  }
  otv_buf *h = &in->head;
  otv_buf_set_16(h, HEAD_X_MIN, xmin);
  otv_buf_set_16(h, HEAD_Y_MIN, ymin);
  otv_buf_set_16(h, HEAD_X_MAX, xmax);
  otv_buf_set_16(h, HEAD_Y_MAX, ymax);
  if (h->len >= HEAD_FLAGS + 2) {
    int flags = (uint16_t)otv_buf_get_i16(h, HEAD_FLAGS);
    flags =
        all_lsb ? (int)(flags | HEAD_FLAG_LSB_AT_X_MIN) : (int)(flags & ~HEAD_FLAG_LSB_AT_X_MIN);
    otv_buf_set_16(h, HEAD_FLAGS, flags);
  }
  otv_buf_set_16(h, HEAD_INDEX_TO_LOC_FORMAT, in->loca_format);
  otv_buf *hh = &in->hhea;
  otv_buf_set_16(hh, HHEA_ADVANCE_MAX, max_adv);
  otv_buf_set_16(hh, HHEA_MIN_LEADING_BEARING, min_lsb);
  otv_buf_set_16(hh, HHEA_MIN_TRAILING_BEARING, min_rsb);
  otv_buf_set_16(hh, HHEA_MAX_EXTENT, max_ext);
  otv_buf_set_16(hh, HHEA_NUMBER_OF_LONG_METRICS, in->num_h_metrics);
  if (in->has_vmtx && in->vhea.len) {
    otv_buf *vh = &in->vhea;
    otv_buf_set_16(vh, HHEA_ADVANCE_MAX, max_advh);
    otv_buf_set_16(vh, HHEA_MIN_LEADING_BEARING, min_tsb);
    otv_buf_set_16(vh, HHEA_MIN_TRAILING_BEARING, min_bsb);
    otv_buf_set_16(vh, HHEA_MAX_EXTENT, max_vext);
    otv_buf_set_16(vh, HHEA_NUMBER_OF_LONG_METRICS, in->num_v_metrics);
  }
  otv_buf *m = &in->maxp;
  if (m->len >= MAXP_V1_LEN && otv_peek_u32(m->p) == MAXP_VERSION_TRUETYPE) {
    otv_buf_set_16(m, MAXP_MAX_POINTS, (int)in->max_points);
    otv_buf_set_16(m, MAXP_MAX_CONTOURS, (int)in->max_contours);
    otv_buf_set_16(m, MAXP_MAX_COMPOSITE_POINTS, (int)in->max_comp_points);
    otv_buf_set_16(m, MAXP_MAX_COMPOSITE_CONTOURS, (int)in->max_comp_contours);
    otv_buf_set_16(m, MAXP_MAX_COMPONENT_ELEMENTS, (int)in->max_comp_elements);
    otv_buf_set_16(m, MAXP_MAX_COMPONENT_DEPTH, in->max_comp_depth);
  }
}

otv_status otv_inst_tables(otv_inst *in)
{
  copy_table(in, OTV_T_HEAD, &in->head);
  copy_table(in, OTV_T_HHEA, &in->hhea);
  copy_table(in, OTV_T_MAXP, &in->maxp);
  copy_table(in, OTV_T_OS2, &in->os2);
  copy_table(in, OTV_T_POST, &in->post);
  if (in->has_vmtx) copy_table(in, OTV_T_VHEA, &in->vhea);
  copy_table(in, OTV_T_CVT, &in->cvt);
  otv_buf *bufs[] = {&in->head, &in->hhea, &in->maxp, &in->os2, &in->post, &in->vhea, &in->cvt};
  for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
    if (bufs[i]->failed) return OTV_FAIL(in->err, NOMEM, 0, 0, "table copies");
  if (in->head.len < HEAD_LEN)
    return OTV_FAIL(in->err, TRUNCATED, OTV_T_HEAD, 0, "head of %zu bytes", in->head.len);
  otv_status st;
  if ((st = apply_mvar(in))) return st;
  if ((st = apply_cvar(in))) return st;
  weight_width_slant(in);
  recalc(in);
  return OTV_E_OK;
}

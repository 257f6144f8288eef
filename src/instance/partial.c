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
 * Tuple variation stores (gvar, cvar) are rewritten: the kept tuples, summed per kept region, with
 * shared peaks (gvar) and private point numbers. A sparse tuple is made explicit first, by IUP
 * against the ORIGINAL default outline (the new default is different, so the same sparse points
 * would infer other deltas); then the points IUP can infer again, from the new default, within the
 * rounding's 0.5 of the exact delta are left out. ItemVariationStores (HVAR, VVAR, MVAR, GDEF) keep
 * their layout: the region list is rewritten in place with fewer axes and each delta is replaced by
 * its scaled value, which never needs a wider field, so no DeltaSetIndexMap, VariationIndex or MVAR
 * record changes.
 */
#include "instance/store.h"
#include "instance/inst.h"

/* ---- HVAR, VVAR, MVAR: copies with the store rewritten ---- */

/* HVAR/VVAR written anew: the header, the DeltaSetIndexMaps as they are, then the store
 * compacted at the end (its items keep their order, so the maps stay valid), as fontTools
 * writes these tables. */
static otv_status xvar_rewrite(otv_inst *in, uint32_t tag, otv_span t, otv_buf *b)
{
  const otv_metrics *m = &in->face->met;
  const otv_xvar *x = tag == OTV_T_VVAR ? &m->vvar : &m->hvar;
  const otv_dsim *maps[4] = {&x->adv, &x->side_a, &x->side_b, &x->vorg};
  size_t hl = x->header_len;
  b->len = 0;
  otv_buf_bytes(b, t.p, hl); /* in range: the header was read at open */
  for (unsigned k = 0; k < 4 && 8 + 4 * k + 4 <= hl; k++) {
    size_t field = 8 + 4 * (size_t)k;
    if (!maps[k]->present) {
      otv_buf_put_u32(b, field, 0);
      continue;
    }
    /* in range: the map [its offset, end_off) was checked at open */
    size_t at = otv_peek_u32(t.p + field);
    otv_buf_put_u32(b, field, (uint32_t)b->len);
    otv_buf_bytes(b, t.p + at, maps[k]->end_off - at);
  }
  size_t store_at = b->len, end = otv_ivs_end(&x->ivs, t, x->ivs_off);
  otv_buf_put_u32(b, 4, (uint32_t)store_at);
  otv_buf_bytes(b, t.p + x->ivs_off, end - x->ivs_off);
  if (b->failed) return OTV_FAIL(in->err, NOMEM, tag, 0, "table copy");
  /* the store is now the table's tail: compacted where it is gap-free */
  otv_buf src;
  otv_buf_init(&src, in->al);
  otv_buf_bytes(&src, b->p, b->len);
  otv_status st = src.failed ? OTV_FAIL(in->err, NOMEM, tag, 0, "table copy")
                             : otv_store_partial_at(&in->cx, otv_span_of(src.p, src.len), b, tag,
                                                    store_at, true, 4, 4);
  otv_buf_free(&src);
  return st;
}

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
  if (tag != OTV_T_MVAR) return xvar_rewrite(in, tag, t, b);
  /* regions split by axis limits may need the store appended: HVAR/VVAR's Offset32 at 4,
   * MVAR's Offset16 at 10 */
  return otv_store_partial_at(&in->cx, t, b, tag, off, others <= off, tag == OTV_T_MVAR ? 10 : 4,
                              tag == OTV_T_MVAR ? 2 : 4);
}

/* ---- fvar ---- */

/* A user value as 16.16, rounded (fvar's Fixed fields). */
static int32_t to_fixed(double v)
{
  double t = floor(v * 65536.0 + 0.5);
  return (int32_t)(t < -2147483648.0 ? -2147483648.0 : t > 2147483647.0 ? 2147483647.0 : t);
}

/* Whether named instance i lies on the pinned coordinates and inside the limited ranges. */
static otv_status instance_kept(otv_inst *in, unsigned i, bool *on)
{
  const otv_fvar *fv = &in->face->fvar;
  unsigned ac = in->pin.axis_count;
  double user[OTV_MAX_AXES];
  otv_norm_result norm[OTV_MAX_AXES];
  otv_error e = {0};
  if (otv_fvar_instance_coords(fv, i, user, ac, &e) ||
      otv_fvar_normalize(fv, in->loc->model, user, norm, in->al, &e))
    return OTV_FAIL(in->err, NOMEM, OTV_T_FVAR, 0, "normalizing instance %u", i);
  *on = true;
  for (unsigned a = 0; a < ac; a++) {
    if (!in->pin.keep[a] && norm[a].f2 != in->pin.coords[a]) *on = false;
    /* a limited axis: only the instances inside its new range (user coordinates) */
    if (in->pin.limited[a] && (user[a] < in->lim_user[a][0] || user[a] > in->lim_user[a][2]))
      *on = false;
  }
  return OTV_E_OK;
}

static otv_status build_fvar(otv_inst *in)
{
  const otv_face *f = in->face;
  const otv_fvar *fv = &f->fvar;
  unsigned ac = in->pin.axis_count, kc = in->pin.kept_count, ic = fv->instance_count;
  uint16_t *kept = otv_mem_alloc(in->al, (ic ? ic : 1) * sizeof *kept);
  if (!kept) return OTV_FAIL(in->err, NOMEM, OTV_T_FVAR, 0, "named instances");
  unsigned nk = 0;
  otv_status st = OTV_E_OK;
  /* postScriptNameIDs: written when some kept instance has one (as fontTools compiles fvar) */
  bool had_ps = fv->instance_size >= 6 + 4 * (size_t)ac, ps = false;
  for (unsigned i = 0; i < ic && !st; i++) {
    bool on;
    if ((st = instance_kept(in, i, &on)) || !on) continue;
    kept[nk++] = (uint16_t)i;
    /* in range: instance records checked at open */
    const uint8_t *rec = fv->instances + (size_t)i * fv->instance_size;
    if (had_ps && otv_peek_u16(rec + 4 + 4 * (size_t)ac) != 0xFFFF) ps = true;
  }
  size_t isz_new = 4 + 4 * (size_t)kc + (ps ? 2 : 0);
  otv_buf *b = &in->fvar;
  otv_buf_u16(b, 1);  /* majorVersion */
  otv_buf_u16(b, 0);  /* minorVersion */
  otv_buf_u16(b, 16); /* axesArrayOffset: after this header */
  otv_buf_u16(b, 2);  /* reserved */
  otv_buf_u16(b, (uint16_t)kc);
  otv_buf_u16(b, 20); /* axisSize */
  otv_buf_u16(b, (uint16_t)nk);
  otv_buf_u16(b, (uint16_t)isz_new);
  for (unsigned a = 0; a < ac; a++) {
    if (!in->pin.keep[a]) continue;
    /* in range: axis records checked at open (axis_count x axisSize) */
    const uint8_t *rec = fv->axes + (size_t)a * fv->axis_size;
    if (!in->pin.limited[a]) {
      otv_buf_bytes(b, rec, 20);
      continue;
    }
    /* a limited axis: its new range and default (16.16) */
    otv_buf_bytes(b, rec, 4);
    for (unsigned v = 0; v < 3; v++) otv_buf_u32(b, (uint32_t)to_fixed(in->lim_user[a][v]));
    otv_buf_bytes(b, rec + 16, 4);
  }
  /* the named instances kept, without the pinned axes */
  for (unsigned k = 0; k < nk; k++) {
    const uint8_t *rec = fv->instances + (size_t)kept[k] * fv->instance_size;
    otv_buf_bytes(b, rec, 4);
    for (unsigned a = 0; a < ac; a++)
      if (in->pin.keep[a]) otv_buf_bytes(b, rec + 4 + 4 * a, 4);
    if (ps) otv_buf_bytes(b, rec + 4 + 4 * (size_t)ac, 2);
  }
  otv_mem_free(in->al, kept, (ic ? ic : 1) * sizeof *kept);
  if (!st && b->failed) st = OTV_FAIL(in->err, NOMEM, OTV_T_FVAR, 0, "fvar buffer");
  return st;
}

/* ---- avar (version 1): the kept axes' segment maps ---- */

/* v on [lo, d, hi] rescaled to [-1, 0, 1], clamped (a hostile map's point may fall outside,
 * or on a side of no width). */
static double rebase(double v, double lo, double d, double hi)
{
  if (v < d) return v <= lo ? -1 : (v - d) / (d - lo);
  if (v > d) return v >= hi ? 1 : (v - d) / (hi - d);
  return 0;
}

/* The new segment map of a limited axis, as fontTools' instancer remaps avar: in the old
 * default-normalized coordinates (F2Dot14), the new range is [nmin, nmax] with the new default
 * at ndef; each point of the old map inside it (the identity's -1, 0, 1 without one: 0 is where
 * the old normalization bends when the default moves) goes from its user value normalized over
 * the new range to its to-coordinate rebased to the new normalized range [lo, def, hi] (what the
 * re-normalized regions are in); -1, 0 and 1 map to themselves. pairs: (from, to) F2Dot14. */
static otv_status limited_map(otv_inst *in, unsigned a, int16_t *pairs, unsigned *count)
{
  const otv_fvar *fv = &in->face->fvar;
  const otv_fvar_axis *ax = &fv->axis[a];
  double umin = ax->nmin, udef = ax->ndef, umax = ax->nmax;
  /* the default normalization (no avar) of the new range, F2Dot14 as fontTools quantizes it */
  int nr[3];
  for (unsigned k = 0; k < 3; k++) {
    double u = in->lim_user[a][k];
    double v = u < udef ? (u - udef) / (udef - umin) : u > udef ? (u - udef) / (umax - udef) : 0;
    nr[k] = (int)floor(v * 16384 + 0.5);
  }
  static const int16_t identity[6] = {-16384, -16384, 0, 0, 16384, 16384};
  const otv_avar_seg *seg = fv->avar.version == 1 ? &fv->avar.seg[a] : NULL;
  const int16_t *map = seg && seg->count ? seg->map : identity;
  unsigned mc = seg && seg->count ? seg->count : 3;
  double lo = in->pin.lim_lo[a], def = in->pin.lim_def[a], hi = in->pin.lim_hi[a];
  unsigned n = 0;
  for (unsigned i = 0; i < 3; i++)
    pairs[2 * n] = identity[2 * i], pairs[2 * n + 1] = identity[2 * i + 1], n++;
  for (unsigned i = 0; i < mc && n < 68; i++) {
    int f = map[2 * i], t = map[2 * i + 1];
    if (f < nr[0] || f > nr[2]) continue;
    /* from: the user value of f, normalized over the new range (where the old normalization
     * bends at the old default, the new one does not: rescaling f itself would not do) */
    double u = f < 0 ? udef + f / 16384.0 * (udef - umin) : udef + f / 16384.0 * (umax - udef);
    double from =
        f == nr[1] ? 0 : rebase(u, in->lim_user[a][0], in->lim_user[a][1], in->lim_user[a][2]);
    double to = rebase(t, lo, def, hi);
    int f2 = (int)floor(from * 16384 + 0.5), t2 = (int)floor(to * 16384 + 0.5);
    /* inserted in from order; -1, 0, 1 and a repeated from keep the first value */
    unsigned j = 0;
    while (j < n && pairs[2 * j] < f2) j++;
    if (j < n && pairs[2 * j] == f2) continue;
    memmove(pairs + 2 * j + 2, pairs + 2 * j, (n - j) * 2 * sizeof *pairs);
    pairs[2 * j] = (int16_t)f2, pairs[2 * j + 1] = (int16_t)t2;
    n++;
  }
  *count = n;
  return OTV_E_OK;
}

static bool identity_map(const int16_t *pairs, unsigned n)
{
  for (unsigned i = 0; i < n; i++)
    if (pairs[2 * i] != pairs[2 * i + 1]) return false;
  return true;
}

/* ---- avar version 2 ----
 * The avar 2 deltas of every axis are an ItemVariationStore over the coordinates after the
 * segment maps (spec: avar "Version 2"). Pinning axes pins those coordinates: the kept axes'
 * rows become a store over the kept axes (regions restricted, deltas scaled by the pinned
 * factors), as any store of a partial instance. This expresses the instance only when a
 * pinned axis's final coordinate does not vary with the kept axes (the glyph data is pinned at
 * it) and the kept axes' final coordinates stay 0 at the new default (the glyph data keeps its
 * default there); anything else is OTV_E_UNSUPPORTED, naming the axes. */

static void tag_text(uint32_t tag, char *t)
{
  for (int i = 0; i < 4; i++) t[i] = (char)(tag >> (24 - 8 * i));
  t[4] = 0;
}

/* The rows of the pinned and kept axes checked (see above), pin2 holding the coordinates
 * after the segment maps. */
static otv_status avar2_check(otv_inst *in, const otv_pin *pin2)
{
  const otv_avar *av = &in->face->fvar.avar;
  const otv_ivs *ivs = &av->ivs;
  unsigned ac = in->pin.axis_count;
  int16_t s[OTV_MAX_AXES], p[OTV_MAX_AXES], e[OTV_MAX_AXES];
  double fac[OTV_MAX_AXES];
  char t[5], u[5];
  for (unsigned a = 0; a < ac; a++) {
    uint32_t outer, inner;
    otv_dsim_map(&av->map, a, &outer, &inner);
    if (outer >= ivs->data_count || inner >= ivs->data[outer].item_count) continue;
    const otv_ivd *v = &ivs->data[outer];
    const uint8_t *row = v->rows + (size_t)inner * v->row_len; /* in range: parsed */
    double at_default = 0;
    for (unsigned j = 0; j < v->region_index_count; j++) {
      unsigned r = otv_ivd_region(v, j);
      int32_t d = otv_ivd_delta(v, row, j);
      if (r >= ivs->region_count || !d) continue;
      otv_ivs_region(ivs, r, ac, s, p, e);
      bool kept;
      int k = otv_pin_factors_partial(pin2, s, p, e, fac, &kept);
      if (k < 0) continue;
      if (!in->pin.keep[a] && kept) {
        /* which kept axis it follows, for the message */
        unsigned b = 0;
        while (b < ac && !(in->pin.keep[b] && p[b] != 0)) b++;
        tag_text(in->pin.axis_tags[a], t);
        tag_text(b < ac ? in->pin.axis_tags[b] : 0, u);
        return OTV_FAIL(in->err, UNSUPPORTED, OTV_T_AVAR, 0,
                        "avar 2 maps pinned axis '%s' from kept axis '%s' (region %u)", t, u, r);
      }
      if (in->pin.limited[a]) {
        tag_text(in->pin.axis_tags[a], t);
        return OTV_FAIL(in->err, UNSUPPORTED, OTV_T_AVAR, 0,
                        "avar 2 moves restricted axis '%s' with the others (region %u): its range "
                        "cannot be rebased",
                        t, r);
      }
      /* the kept axes' coordinates at the new default (limited ones at their new defaults,
       * where the avar 2 rows of a restricted axis leave it as the segment maps put it) */
      if (in->pin.keep[a]) {
        double s0[OTV_MAX_AXES];
        int k0 = otv_pin_factors(pin2, s, p, e, s0);
        if (k0 >= 0) at_default += otv_pin_scale(d, s0, k0);
      }
    }
    if (in->pin.keep[a] && fabs(at_default) >= 0.5) {
      tag_text(in->pin.axis_tags[a], t);
      return OTV_FAIL(in->err, UNSUPPORTED, OTV_T_AVAR, 0,
                      "avar 2 moves kept axis '%s' off its default at these pins (by %g)", t,
                      at_default / 16384.0);
    }
  }
  return OTV_E_OK;
}

static otv_status build_avar2(otv_inst *in)
{
  const otv_fvar *fv = &in->face->fvar;
  const otv_avar *av = &fv->avar;
  unsigned ac = in->pin.axis_count, kc = in->pin.kept_count;
  /* the pins after the segment maps only (the coordinates the store is read at) */
  otv_fvar v1 = *fv;
  v1.avar.ivs.present = false;
  otv_norm_result norm[OTV_MAX_AXES];
  otv_status st = otv_fvar_normalize(&v1, in->loc->model, in->loc->user, norm, in->al, in->err);
  if (st) return st;
  otv_f2dot14 c[OTV_MAX_AXES];
  for (unsigned a = 0; a < ac; a++)
    c[a] = !in->pin.keep[a] ? norm[a].f2 : in->pin.limited[a] ? in->pin.lim_def[a] : 0;
  otv_pin pin2 = in->pin;
  pin2.coords = c;
  if (av->ivs.present && (st = avar2_check(in, &pin2))) return st;
  otv_span t = otv_face_span(in->face, OTV_T_AVAR);
  otv_buf *b = &in->avar;
  otv_buf_u16(b, 2); /* majorVersion */
  otv_buf_u16(b, 0); /* minorVersion */
  otv_buf_u16(b, 0); /* reserved */
  otv_buf_u16(b, (uint16_t)kc);
  for (unsigned a = 0; a < ac; a++) {
    if (!in->pin.keep[a]) continue;
    if (in->pin.limited[a]) { /* a restricted axis: its map remapped (as avar 1's) */
      int16_t pairs[2 * 68];
      unsigned np = 0;
      if ((st = limited_map(in, a, pairs, &np))) return st;
      otv_buf_u16(b, (uint16_t)np);
      for (unsigned i = 0; i < 2 * np; i++) otv_buf_u16(b, (uint16_t)pairs[i]);
      continue;
    }
    const uint8_t *raw = av->seg[a].raw; /* in range: its extent was checked at open */
    otv_buf_bytes(b, raw, 2 + 4 * (size_t)otv_peek_u16(raw));
  }
  size_t offs_at = b->len;
  otv_buf_u32(b, 0);
  otv_buf_u32(b, 0);
  if (!av->ivs.present) goto done;
  /* axisIndexMap: format 0, 4-byte entries (outer << 16 | inner), one per kept axis */
  otv_buf_put_u32(b, offs_at, (uint32_t)b->len);
  otv_buf_u8(b, 0);
  otv_buf_u8(b, 0x3F);
  otv_buf_u16(b, (uint16_t)kc);
  for (unsigned a = 0; a < ac; a++) {
    if (!in->pin.keep[a]) continue;
    uint32_t outer, inner;
    otv_dsim_map(&av->map, a, &outer, &inner);
    otv_buf_u32(b, outer << 16 | (inner & 0xFFFF));
  }
  /* the store over the kept axes: rewritten in a copy of the table up to its end (compacted
   * there when gap-free), then taken from where it starts */
  size_t pos = 8; /* past the header and every segment map: the two offsets (read at open) */
  for (unsigned a = 0; a < ac; a++) pos += 2 + 4 * (size_t)otv_peek_u16(av->seg[a].raw);
  size_t store_off = otv_peek_u32(t.p + pos + 4);
  otv_span upto = otv_span_of(t.p, otv_ivs_end(&av->ivs, t, store_off));
  otv_buf copy;
  otv_buf_init(&copy, in->al);
  otv_buf_bytes(&copy, upto.p, upto.len);
  otv_ictx cx2 = {&pin2, in->al, in->err};
  st = copy.failed ? OTV_FAIL(in->err, NOMEM, OTV_T_AVAR, 0, "avar copy")
                   : otv_store_partial(&cx2, upto, &copy, OTV_T_AVAR, store_off, true);
  if (!st) {
    otv_buf_put_u32(b, offs_at + 4, (uint32_t)b->len);
    otv_buf_bytes(b, copy.p + store_off, copy.len - store_off);
  }
  otv_buf_free(&copy);
  if (st) return st;
done:
  if (b->failed) return OTV_FAIL(in->err, NOMEM, OTV_T_AVAR, 0, "avar buffer");
  return OTV_E_OK;
}

static otv_status build_avar(otv_inst *in)
{
  const otv_fvar *fv = &in->face->fvar;
  if (fv->avar.version == 2) return build_avar2(in);
  if (fv->avar.version > 2)
    return OTV_FAIL(in->err, UNSUPPORTED, OTV_T_AVAR, 0, "partial instances of avar version %u",
                    fv->avar.version);
  /* the maps of the limited axes first: a font without avar may need one now */
  static const int16_t identity[6] = {-16384, -16384, 0, 0, 16384, 16384};
  int16_t(*maps)[2 * 68] = NULL;
  unsigned *counts = NULL;
  otv_status st = OTV_E_OK;
  bool needed = fv->avar.version == 1;
  unsigned ac = in->pin.axis_count;
  maps = otv_mem_alloc(in->al, (ac ? ac : 1) * sizeof *maps);
  counts = otv_mem_calloc(in->al, ac ? ac : 1, sizeof *counts);
  if (!maps || !counts) {
    st = OTV_FAIL(in->err, NOMEM, OTV_T_AVAR, 0, "avar maps");
    goto done;
  }
  for (unsigned a = 0; a < ac && !st; a++) {
    if (!in->pin.keep[a] || !in->pin.limited[a]) continue;
    st = limited_map(in, a, maps[a], &counts[a]);
    if (!st && !identity_map(maps[a], counts[a])) needed = true;
  }
  if (st || !needed) goto done;
  otv_buf *b = &in->avar;
  otv_buf_u16(b, 1); /* majorVersion */
  otv_buf_u16(b, 0); /* minorVersion */
  otv_buf_u16(b, 0); /* reserved */
  otv_buf_u16(b, (uint16_t)in->pin.kept_count);
  for (unsigned a = 0; a < ac; a++) {
    if (!in->pin.keep[a]) continue;
    if (in->pin.limited[a] && !identity_map(maps[a], counts[a])) {
      otv_buf_u16(b, (uint16_t)counts[a]);
      for (unsigned i = 0; i < 2 * counts[a]; i++) otv_buf_u16(b, (uint16_t)maps[a][i]);
    } else if (fv->avar.version == 1 && !in->pin.limited[a]) {
      /* the SegmentMaps record as stored (in range: its extent was checked at open) */
      const uint8_t *raw = fv->avar.seg[a].raw;
      otv_buf_bytes(b, raw, 2 + 4 * (size_t)otv_peek_u16(raw));
    } else {
      otv_buf_u16(b, 3);
      for (unsigned i = 0; i < 6; i++) otv_buf_u16(b, (uint16_t)identity[i]);
    }
  }
  if (b->failed) st = OTV_FAIL(in->err, NOMEM, OTV_T_AVAR, 0, "avar buffer");
done:
  if (maps) otv_mem_free(in->al, maps, (ac ? ac : 1) * sizeof *maps);
  if (counts) otv_mem_free(in->al, counts, (ac ? ac : 1) * sizeof *counts);
  return st;
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

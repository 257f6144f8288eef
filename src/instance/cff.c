/*
 * instance/cff.c - a static CFF2 table (no VariationStore) from a CFF2 variable font, and the
 * hmtx/vmtx that go with it.
 *
 * Spec: CFF2 ("Header", "Top DICT", "FDArray", "Private DICT", "blend", "vsindex", charstring
 * number encoding), OpenType "CFF2 table" notes. Output choice: CFF2 without a VariationStore
 * (see docs/instance.md): the smallest change from the source that every CFF2-capable renderer
 * reads, and what the font's own tools expect; CFF2 is supported by every current renderer
 * (FreeType, HarfBuzz, DirectWrite, CoreText), while a CFF 1 conversion would need glyph names
 * or a CID-keyed rewrite.
 *
 * Each glyph's outline is taken at the location from otvar's own charstring interpreter
 * (blends resolved, unrounded; subroutines flattened), every absolute point is rounded with
 * floor(x + 0.5) and the contours are re-encoded as rmoveto / rlineto / rrcurveto of the
 * differences of rounded points. Rounding the points rather than each blended operand (the
 * relative moves) keeps every point within 0.5 unit of the true outline (rounded operands let
 * errors add up along a contour), and is what hb-subset does. Hints are not carried over (the
 * interpreter does not keep them). Each
 * Private DICT is copied with its blends resolved and its vsindex and Subrs removed.
 * Advances come from HVAR (rounded with floor(x + 0.5)); left side bearings and the head/hhea
 * extents from the outlines' control boxes (floor of minima, ceiling of maxima).
 * The source table is read as the face parsed it at open (cff.h: INDEXes, Font DICTs and their
 * Private DICTs, FDSelect, VariationStore); the Private DICTs are read again through the DICT
 * cursor of cff_data.h, which resolves their blends here; everything is written through
 * cff_write.h.
 */
#include "instance/store.h"
#include "instance/inst.h"
#include "cff_write.h"
#include "instance/cff1.h"

#define OTV_INST_MAX_FDS 256 /* Font DICTs an instance writes (their Private DICT positions) */

/* The operand that moves *cur to target. Two int16 coordinates can be up to 65535 apart, beyond
 * an operand: the step is then clamped and *cur follows what was written, so the later operands
 * stay exact (only a glyph spanning more than the int16 range is distorted). */
/* The error record as it was before a refusal that the writer recovered from. */
static void forget_error(otv_error *err)
{
  memset(err, 0, sizeof *err);
  err->code = OTV_E_OK;
}

static uint8_t *put_cs_rel(uint8_t *w, long target, long *cur)
{
  long d = target - *cur;
  d = d < INT16_MIN ? INT16_MIN : d > INT16_MAX ? INT16_MAX : d;
  *cur += d;
  return otv_cff_put_int(w, d);
}

/* A static charstring from rounded absolute points: rmoveto / rlineto / rrcurveto of their
 * differences, appended to cs. False when cs could not grow. */
static bool encode_points(otv_buf *cs, const otv_point *pts, const uint8_t *fl,
                          const uint16_t *ends, unsigned point_count, unsigned contour_count)
{
  /* a line: 2 numbers (at most 3 bytes each) and an operator per point; a curve: 19 bytes for
   * 3 points, or for 1 point once per contour (when it closes on the start point); a move per
   * contour (the bound below is loose) */
  if (!otv_buf_reserve(cs, (size_t)point_count * 11 + (size_t)contour_count * 48 + 16))
    return false;
  uint8_t *w = cs->p + cs->len;
  long cx = 0, cy = 0;
  unsigned start = 0;
  for (unsigned c = 0; c < contour_count; c++) {
    unsigned end = ends[c];
    if (end < start || end >= point_count) break;
    w = put_cs_rel(w, (long)pts[start].x, &cx);
    w = put_cs_rel(w, (long)pts[start].y, &cy);
    *w++ = OTV_CS_RMOVETO;
    unsigned i = start + 1;
    while (i <= end) {
      if (fl[i] & OTV_POINT_CUBIC) {
        /* two control points then the end point (the contour start when it was dropped) */
        otv_point c1 = pts[i], c2 = i + 1 <= end ? pts[i + 1] : pts[start];
        otv_point e = i + 2 <= end ? pts[i + 2] : pts[start];
        w = put_cs_rel(w, (long)c1.x, &cx), w = put_cs_rel(w, (long)c1.y, &cy);
        w = put_cs_rel(w, (long)c2.x, &cx), w = put_cs_rel(w, (long)c2.y, &cy);
        w = put_cs_rel(w, (long)e.x, &cx), w = put_cs_rel(w, (long)e.y, &cy);
        *w++ = OTV_CS_RRCURVETO;
        i += 3;
      } else {
        w = put_cs_rel(w, (long)pts[i].x, &cx);
        w = put_cs_rel(w, (long)pts[i].y, &cy);
        *w++ = OTV_CS_RLINETO;
        i++;
      }
    }
    start = end + 1;
  }
  cs->len = (size_t)(w - cs->p);
  return true;
}

/* The blend scalar of column col of ItemVariationData vsindex at the instancer's location
 * (otv_cff_blend_fn: ud is the store's exact evaluator, its region factors at the pin). */
static double blend_scalar(void *ud, unsigned vsindex, unsigned col)
{
  const otv_inst_ivs *ev = ud;
  const otv_ivs *ivs = ev->ivs;
  if (!ivs || vsindex >= ivs->data_count) return 0;
  const otv_ivd *v = &ivs->data[vsindex];
  if (col >= v->region_index_count) return 0;
  unsigned r = otv_ivd_region(v, col);
  if (r >= ivs->region_count || ev->k[r] < 0) return 0;
  return otv_pin_scale(1.0, ev->s + (size_t)r * ev->stride, ev->k[r]);
}

/* Copy Font DICT fd's Private DICT with its blends resolved at the location; vsindex and Subrs
 * dropped. */
static otv_status copy_private(otv_inst *in, otv_inst_ivs *ev, const otv_cff_fd *fd, otv_buf *out)
{
  const otv_cff *c = &in->face->cff;
  otv_cff_dict d;
  /* in range: the span was checked by the face's parse */
  otv_cff_dict_init(&d, c->tab, c->tag, (size_t)(fd->priv.p - c->tab.p), fd->priv.len, true,
                    &c->ivs);
  d.scalar = blend_scalar;
  d.scalar_ud = ev;
  for (;;) {
    int op = otv_cff_dict_next(&d, in->err);
    if (op == OTV_DICT_ERROR) return in->err ? in->err->code : OTV_E_BAD_VALUE;
    if (op == OTV_DICT_END) return OTV_E_OK;
    /* vsindex: the blends are resolved; Subrs: the charstrings are flattened (a partial
     * instance writes its own Subrs operator) */
    if (op == OTV_DICT_VSINDEX || op == OTV_DICT_SUBRS) continue;
    /* a full instance: integer values rounded as FreeType reads the variable font's (cff1.h) */
    bool whole = !in->pin.partial && otv_cff_private_int(op);
    for (unsigned i = 0; i < d.n; i++)
      otv_cff_dict_put_num(out, whole ? floor(d.args[i] + 0.5) : d.args[i]);
    otv_cff_put_op(out, op);
  }
}

/* A partial instance's extra state: a location at the new default, the blend region modes, and
 * the VariationStore (length + ItemVariationStore) with its regions over the kept axes. On
 * failure everything it made is freed. */
static void partial_free(otv_inst *in, otv_location **ploc, int8_t **mode, double **factor,
                         otv_buf *vstore)
{
  unsigned rc = in->face->cff.ivs.region_count ? in->face->cff.ivs.region_count : 1;
  if (*ploc) otv_location_destroy(*ploc);
  if (*mode) otv_mem_free(in->al, *mode, rc);
  if (*factor) otv_mem_free(in->al, *factor, 2 * (size_t)rc * sizeof **factor);
  otv_part_remap_free(in);
  otv_buf_free(vstore);
  *ploc = NULL, *mode = NULL, *factor = NULL;
}

static otv_status partial_setup(otv_inst *in, otv_location **ploc, int8_t **mode, double **factor,
                                otv_buf *vstore)
{
  const otv_face *f = in->face;
  otv_status st = OTV_E_OK;
  otv_error le = {0};
  if (otv_location_create(f, ploc, &le) ||
      otv_location_set_normalized(*ploc, in->pcoords, in->pin.axis_count)) {
    st = OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "location");
    goto fail;
  }
  if ((st = otv_part_cff_modes(in, mode, factor))) goto fail;
  otv_span vs = f->cff.vstore; /* the ItemVariationStore, after its u16 length */
  if (vs.p && in->cff_remap) {
    /* axis limits split regions: the store anew, with the blends' new columns */
    if ((st = otv_part_cff_store(in, vstore))) goto fail;
  } else if (vs.p) {
    otv_buf_u16(vstore, (uint16_t)vs.len);
    otv_buf_bytes(vstore, vs.p, vs.len);
    if (vstore->failed) {
      st = OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "VariationStore");
      goto fail;
    }
    /* the store in a buffer of its own, rewritten in place: every blend keeps its column count */
    otv_buf ivs_copy = {vstore->p + 2, vs.len, vs.len, in->al, false};
    if ((st = otv_store_partial(&in->cx, vs, &ivs_copy, OTV_T_CFF2, 0, false))) goto fail;
  }
  return OTV_E_OK;
fail:
  partial_free(in, ploc, mode, factor, vstore);
  return st;
}

otv_status otv_inst_cff(otv_inst *in)
{
  const otv_face *f = in->face;
  const otv_cff *fc = &f->cff; /* parsed at open: header, DICTs, INDEXes, FDSelect */
  uint32_t n = in->glyph_count;
  /* a full instance is a CFF (version 1) table unless CFF2 is asked for (instance/cff1.c) */
  bool cff1 = !in->pin.partial && !(in->flags & OTV_INSTANCE_CFF2);
  size_t budget = otv_cff_instance_budget(fc->tab.len);
  if (!fc->present || !fc->cff2) return OTV_FAIL(in->err, BAD_VALUE, OTV_T_CFF2, 0, "CFF2 header");
  bool has_fds = fc->has_fdselect;
  bool has_fm = fc->top_has_matrix;
  double fm[6];
  memcpy(fm, fc->top_matrix, sizeof fm);
  uint32_t fd_count = fc->fd_count; /* >= 1: a CFF2 table without FDArray does not open */
  if (fd_count > OTV_INST_MAX_FDS)
    return OTV_FAIL(in->err, BAD_VALUE, OTV_T_CFF2, 0, "FDArray: %u Font DICTs", fd_count);

  otv_inst_ivs ev;
  otv_status st = otv_inst_ivs_init(&in->cx, &f->cff.ivs, &ev);
  if (st) {
    otv_inst_ivs_fini(&in->cx, &ev);
    return OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "blend scalars");
  }
  /* a partial instance: charstrings rewritten (instance/cff_partial.c), the VariationStore kept
   * with its regions over the kept axes, and outlines and metrics of the new default taken at a
   * location of its own (the pins, kept axes at their defaults) */
  otv_location *L = in->loc, *ploc = NULL;
  int8_t *mode = NULL;
  double *factor = NULL;
  otv_buf vstore;
  otv_buf_init(&vstore, in->al);
  if (in->pin.partial && (st = partial_setup(in, &ploc, &mode, &factor, &vstore))) {
    otv_inst_ivs_fini(&in->cx, &ev);
    return st;
  }
  /* The FreeType model draws at 16.16 coordinates; an instance is made at the F2Dot14 ones in
   * every model (as the glyf instancer and the static font's data), on a location of its own. */
  if (!in->pin.partial && L->model == OTV_NORM_FREETYPE) {
    otv_error le = {0};
    if (otv_location_create(f, &ploc, &le) ||
        otv_location_set_normalized(ploc, in->pin.coords, in->pin.axis_count)) {
      partial_free(in, &ploc, &mode, &factor, &vstore);
      otv_inst_ivs_fini(&in->cx, &ev);
      return OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "location");
    }
  }
  if (ploc) L = ploc;
  /* A full CFF2 instance is written by the partial instancer's walker in its full mode (as the
   * CFF one, instance/cff1.c): subroutines and hints kept, every blend resolved (mode 0: every
   * region folded at its factor at the location). A font with a non-identity FontMatrix is
   * flattened instead (the interpreter's points are in font units), as is one whose
   * charstrings the walker cannot rewrite (a glyph it refuses is flattened alone). */
  bool any_xf = false;
  for (uint32_t k = 0; k < fd_count; k++) any_xf |= fc->fds[k].xf_on;
  bool full_walk = !in->pin.partial && !cff1 && !any_xf;
  bool walk = in->pin.partial || full_walk; /* charstrings from the walker */
  bool subrs = fc->gsubrs.count != 0;
  for (uint32_t k = 0; k < fd_count; k++) subrs |= fc->fds[k].subrs.count != 0;
  if (full_walk) {
    unsigned rc = fc->ivs.region_count ? fc->ivs.region_count : 1;
    mode = otv_mem_calloc(in->al, rc, 1);
    factor = otv_mem_calloc(in->al, 2 * (size_t)rc, sizeof *factor);
    if (!mode || !factor) {
      partial_free(in, &ploc, &mode, &factor, &vstore);
      otv_inst_ivs_fini(&in->cx, &ev);
      return OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "blend regions");
    }
    bool ft = (in->flags & OTV_INST_CFF_FT_BLEND) != 0; /* (cff_ft.h: a test's) */
    for (unsigned r = 0; r < fc->ivs.region_count; r++)
      factor[r] = ft ? otv_inst_cff_ft_scalar(&fc->ivs, r, in->pin.coords, in->pin.axis_count)
                  : ev.k[r] < 0 ? 0
                                : otv_pin_scale(1.0, ev.s + (size_t)r * ev.stride, ev.k[r]);
  }
  otv_buf cs, privs, fds, gsub;
  otv_buf_init(&cs, in->al);
  otv_buf_init(&privs, in->al);
  otv_buf_init(&fds, in->al);
  otv_buf_init(&gsub, in->al);
  uint32_t *gsub_offs = NULL;
  otv_part_subrs ps;
  memset(&ps, 0, sizeof ps);
  ps.full = full_walk;
  uint32_t *cs_offs = otv_mem_alloc(in->al, ((size_t)n + 1) * sizeof *cs_offs);
  uint32_t priv_at[OTV_INST_MAX_FDS], priv_len[OTV_INST_MAX_FDS];
  otv_point *pts = NULL;
  uint8_t *fl = NULL;
  uint16_t *ends = NULL;
  unsigned pcap = 0, ccap = 0;
  in->adv_w = otv_mem_calloc(in->al, n ? n : 1, sizeof *in->adv_w);
  in->lsb = otv_mem_calloc(in->al, n ? n : 1, sizeof *in->lsb);
  in->bbox = otv_mem_calloc(in->al, n ? n : 1, sizeof *in->bbox);
  in->has_outline = otv_mem_calloc(in->al, n ? n : 1, 1);
  in->has_vmtx = otv_face_has(f, OTV_T_VMTX) && otv_face_has(f, OTV_T_VHEA);
  if (in->has_vmtx) {
    in->adv_h = otv_mem_calloc(in->al, n ? n : 1, sizeof *in->adv_h);
    in->tsb = otv_mem_calloc(in->al, n ? n : 1, sizeof *in->tsb);
  }
  /* a partial instance keeps the subroutines when each can be rewritten on its own; a full one
   * that cannot be analysed (a charstring the walker refuses) is flattened */
  if (in->pin.partial && (st = otv_part_cff_analyse(in, mode, factor, &ps))) goto done;
  /* a refusal that a fallback recovers from is forgotten (the first error is kept: a later
   * failure must not be reported as the refusal) unless the caller's record held one already */
  bool err_clear = in->err && in->err->code == OTV_E_OK;
  if (full_walk && subrs && (st = otv_part_cff_analyse(in, mode, factor, &ps))) {
    if (st != OTV_E_UNSUPPORTED) goto done;
    otv_part_subrs_free(in, &ps);
    full_walk = walk = false, st = OTV_E_OK;
    if (err_clear) forget_error(in->err);
  }
  if (!cs_offs || !in->adv_w || !in->lsb || !in->bbox || !in->has_outline ||
      (in->has_vmtx && (!in->adv_h || !in->tsb))) {
    st = OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "glyph arrays");
    goto done;
  }
  /* charstrings */
  for (uint32_t g = 0; g < n; g++) {
    cs_offs[g] = (uint32_t)cs.len;
    bool flat = !walk && !cff1; /* this glyph re-encoded from its points */
    if (walk && (st = otv_part_cff_glyph(in, g, mode, factor, &ps, &cs))) {
      if (!full_walk || st != OTV_E_UNSUPPORTED) goto done;
      cs.len = cs_offs[g], flat = true, st = OTV_E_OK; /* self-contained: no subroutine call */
      if (err_clear) forget_error(in->err);
    }
    /* the outline drawn by the interpreter, for its box (and a flattened glyph's charstring);
     * a full instance written by the walker (CFF, or CFF2) takes its boxes from the table */
    bool drawn = !(full_walk || cff1) || flat;
    otv_glyph_points io;
    memset(&io, 0, sizeof io);
    while (drawn) {
      memset(&io, 0, sizeof io);
      io.points = pts, io.point_flags = fl, io.contour_ends = ends;
      io.point_cap = pcap, io.contour_cap = ccap;
      st = otv_glyph_points_get(L, g, 0, &io);
      if (st != OTV_E_SMALL_BUFFER) break;
      unsigned np = io.point_count + 4 > pcap ? io.point_count + 64 : pcap;
      unsigned nc = io.contour_count > ccap ? io.contour_count + 16 : ccap;
      if (!nc) nc = 1;
      /* new blocks, then the old ones freed: every block keeps the size it is freed with */
      otv_point *p2 = otv_mem_alloc(in->al, np * sizeof *p2);
      uint8_t *f2 = otv_mem_alloc(in->al, np);
      uint16_t *e2 = otv_mem_alloc(in->al, nc * sizeof *e2);
      if (!p2 || !f2 || !e2) {
        if (p2) otv_mem_free(in->al, p2, np * sizeof *p2);
        if (f2) otv_mem_free(in->al, f2, np);
        if (e2) otv_mem_free(in->al, e2, nc * sizeof *e2);
        goto nomem;
      }
      if (pts) otv_mem_free(in->al, pts, pcap * sizeof *pts);
      if (fl) otv_mem_free(in->al, fl, pcap);
      if (ends) otv_mem_free(in->al, ends, ccap * sizeof *ends);
      pts = p2, fl = f2, ends = e2;
      pcap = np, ccap = nc;
    }
    if (st) {
      const otv_error *le = otv_location_last_error(L);
      st = otv_fail(in->err, st, le->table ? le->table : OTV_T_CFF2, le->offset, "glyph %u: %s", g,
                    le->msg);
      goto done;
    }
    /* the absolute points, rounded and clamped to int16 (as the glyf instancer keeps them):
     * relative operands are differences of these */
    for (unsigned i = 0; i < io.point_count; i++) {
      pts[i].x = (float)otv_inst_round16(pts[i].x);
      pts[i].y = (float)otv_inst_round16(pts[i].y);
    }
    /* the box of the (rounded) points; a flattened glyph is re-encoded from them */
    double xmin = 0, ymin = 0, xmax = 0, ymax = 0;
    bool any = false;
    for (unsigned c = 0, start = 0; c < io.contour_count; c++) {
      unsigned end = ends[c];
      if (end < start || end >= io.point_count) break;
      for (unsigned i = start; i <= end; i++) {
        double x = pts[i].x, y = pts[i].y;
        if (!any) xmin = xmax = x, ymin = ymax = y, any = true;
        if (x < xmin) xmin = x;
        if (x > xmax) xmax = x;
        if (y < ymin) ymin = y;
        if (y > ymax) ymax = y;
      }
      start = end + 1;
    }
    if (flat && !encode_points(&cs, pts, fl, ends, io.point_count, io.contour_count)) goto nomem;
    if (cs.len > budget) { /* before the memory is spent: a glyph adds at most 65535 points */
      st = OTV_FAIL(in->err, LIMIT, OTV_T_CFF2, 0,
                    "CFF2 instance over its budget of %zu bytes at glyph %u (%u x the CFF2 table "
                    "+ %zu)",
                    budget, g, OTV_CFF_INSTANCE_FACTOR, (size_t)OTV_CFF_INSTANCE_FLOOR);
      goto done;
    }
    in->has_outline[g] = any;
    int16_t bb[4] = {0, 0, 0, 0};
    if (any) {
      /* (integers in the int16 range: the points are) */
      bb[0] = (int16_t)xmin, bb[1] = (int16_t)ymin, bb[2] = (int16_t)xmax, bb[3] = (int16_t)ymax;
    }
    memcpy(in->bbox[g], bb, sizeof bb);
    /* the advance alone: otv_glyph_h_metrics would run the charstring again for the side
     * bearings of a font without an HVAR LSB map, and the lsb is the outline's xMin here */
    float adv = 0;
    otv_glyph_metrics m;
    memset(&m, 0, sizeof m);
    if ((st = otv_glyph_advances(L, &g, 1, OTV_METRICS_ROUND, &adv)) ||
        (!any && drawn && (st = otv_glyph_h_metrics(L, g, OTV_METRICS_ROUND, &m)))) {
      const otv_error *le = otv_location_last_error(L);
      st = otv_fail(in->err, st, le->table ? le->table : OTV_T_HMTX, le->offset,
                    "glyph %u metrics: %s", g, le->msg);
      goto done;
    }
    in->adv_w[g] = (uint16_t)(adv < 0 ? 0 : adv > 65535 ? 65535 : adv);
    in->lsb[g] =
        any ? bb[0] : (int16_t)otv_inst_round16(m.side_a); /* empty glyph: the varied hmtx value */
    if (in->has_vmtx) {
      otv_glyph_metrics vm;
      otv_status vs = otv_glyph_v_metrics(L, g, OTV_METRICS_ROUND, &vm);
      if (vs == OTV_E_NOMEM) {
        st = OTV_FAIL(in->err, NOMEM, OTV_T_VMTX, 0, "glyph %u vertical metrics", g);
        goto done;
      }
      if (!vs) {
        in->adv_h[g] = (uint16_t)(vm.advance < 0 ? 0 : vm.advance > 65535 ? 65535 : vm.advance);
        in->tsb[g] = (int16_t)otv_inst_round16(vm.side_a);
      }
    }
  }
  cs_offs[n] = (uint32_t)cs.len;
  if (cs.failed) goto nomem;
  if (cff1) { /* (it reads its boxes back itself: the Top DICT's FontBBox is their union) */
    if ((st = otv_inst_cff1(in))) goto done;
    goto boxes;
  }
  /* Private DICTs */
  for (uint32_t i = 0; i < fd_count; i++) {
    priv_at[i] = (uint32_t)privs.len;
    if (fc->fds[i].priv.p && (st = copy_private(in, &ev, &fc->fds[i], &privs))) goto done;
    uint32_t nsub = walk ? fc->fds[i].subrs.count : 0;
    if (nsub) {
      /* Subrs, right after this Private DICT (its offset counts from the DICT's start): after
       * this operand and the operator */
      otv_cff_dict_put_offset(&privs,
                              (uint32_t)(privs.len + OTV_CFF_DICT_OFFSET_LEN + 1 - priv_at[i]));
      otv_cff_put_op(&privs, OTV_DICT_SUBRS);
    }
    priv_len[i] = (uint32_t)privs.len - priv_at[i];
    if (nsub) {
      otv_buf data;
      otv_buf_init(&data, in->al);
      uint32_t *offs = otv_mem_alloc(in->al, ((size_t)nsub + 1) * sizeof *offs);
      if (!offs)
        st = OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "subroutines");
      else
        st = otv_part_cff_subrs(in, mode, factor, &ps, (int)i, &data, offs);
      if (!st) otv_cff2_put_index(&privs, &data, offs, nsub);
      if (offs) otv_mem_free(in->al, offs, ((size_t)nsub + 1) * sizeof *offs);
      otv_buf_free(&data);
      if (st) goto done;
    }
  }
  /* the global subroutines of an instance that keeps them */
  uint32_t ngs = walk ? fc->gsubrs.count : 0;
  if (ngs) {
    gsub_offs = otv_mem_alloc(in->al, ((size_t)ngs + 1) * sizeof *gsub_offs);
    if (!gsub_offs) goto nomem;
    if ((st = otv_part_cff_subrs(in, mode, factor, &ps, -1, &gsub, gsub_offs))) goto done;
  }
  if (cs.len + privs.len + gsub.len > budget) { /* (the subroutines, each written once) */
    st = OTV_FAIL(in->err, LIMIT, OTV_T_CFF2, 0,
                  "CFF2 instance over its budget of %zu bytes in its subroutines (%u x the CFF2 "
                  "table + %zu)",
                  budget, OTV_CFF_INSTANCE_FACTOR, (size_t)OTV_CFF_INSTANCE_FLOOR);
    goto done;
  }
  /* FDSelect: copied as it is, as the face's parse found it (format, range count, then the
   * data whose size that parse checked) */
  if (has_fds) {
    otv_buf_u8(&fds, fc->fdselect_format);
    if (fc->fdselect_format == 3)
      otv_buf_u16(&fds, (uint16_t)fc->fdselect_ranges);
    else if (fc->fdselect_format == 4)
      otv_buf_u32(&fds, fc->fdselect_ranges);
    otv_buf_bytes(&fds, fc->fdselect.p, fc->fdselect.len);
  }
  /* layout: header(5) | Top DICT | GlobalSubrs (empty) | CharStrings | FDSelect | FDArray |
   * Private DICTs. Offsets in DICTs use the 5-byte form so sizes are known in advance: an
   * offset and its operator (escaped: 2 bytes) */
  {
    otv_buf *o = &in->cff2;
    const size_t off_op = OTV_CFF_DICT_OFFSET_LEN + 1, off_esc = OTV_CFF_DICT_OFFSET_LEN + 2;
    size_t top_size = off_op /* CharStrings */ + off_esc /* FDArray */ + (has_fds ? off_esc : 0) +
                      (vstore.len ? off_op /* vstore */ : 0);
    otv_buf topd;
    otv_buf_init(&topd, in->al);
    if (has_fm) {
      /* The charstrings are written from our outlines, which are already in font units (the
       * interpreter applies a non-identity FontMatrix): the instance's matrix must then be
       * the plain 1/unitsPerEm one, or the transform would apply twice. */
      if (any_xf && !walk) { /* the walker copies the charstrings: the same matrix */
        double s = f->units_per_em ? 1.0 / f->units_per_em : 0.001;
        double plain[6] = {s, 0, 0, s, 0, 0};
        memcpy(fm, plain, sizeof fm);
      }
      for (int k = 0; k < 6; k++) otv_cff_dict_put_num(&topd, fm[k]);
      otv_cff_put_op(&topd, OTV_DICT_FONTMATRIX);
    }
    if (topd.failed || privs.failed || fds.failed) {
      otv_buf_free(&topd);
      goto nomem;
    }
    size_t fm_len = topd.len;
    top_size += fm_len;
    size_t gsubr_at = OTV_CFF2_HEADER_SIZE + top_size;
    size_t gsubr_size = otv_cff2_index_len(ngs, gsub.len); /* ngs 0: an empty INDEX */
    size_t cs_at = gsubr_at + gsubr_size;
    size_t cs_size = otv_cff2_index_len(n, cs.len);
    size_t fds_at = cs_at + cs_size;
    size_t fda_at = fds_at + fds.len;
    /* FDArray: Font DICTs "size offset Private" with 5-byte ints */
    size_t fd_data = (size_t)fd_count * (2 * OTV_CFF_DICT_OFFSET_LEN + 1);
    size_t fda_size = otv_cff2_index_len(fd_count, fd_data);
    size_t priv_base = fda_at + fda_size;
    otv_buf_u8(o, OTV_CFF2_MAJOR);
    otv_buf_u8(o, 0); /* minorVersion */
    otv_buf_u8(o, OTV_CFF2_HEADER_SIZE);
    otv_buf_u16(o, (uint16_t)top_size);
    otv_buf_bytes(o, topd.p, topd.len);
    otv_buf_free(&topd);
    otv_cff_dict_put_offset(o, (uint32_t)cs_at);
    otv_cff_put_op(o, OTV_DICT_CHARSTRINGS);
    otv_cff_dict_put_offset(o, (uint32_t)fda_at);
    otv_cff_put_op(o, OTV_DICT_FDARRAY);
    if (has_fds) {
      otv_cff_dict_put_offset(o, (uint32_t)fds_at);
      otv_cff_put_op(o, OTV_DICT_FDSELECT);
    }
    if (vstore.len) { /* after the Private DICTs */
      otv_cff_dict_put_offset(o, (uint32_t)(priv_base + privs.len));
      otv_cff_put_op(o, OTV_DICT_VSTORE);
    }
    otv_cff2_put_index(o, &gsub, gsub_offs, ngs); /* ngs 0: the empty Global Subr INDEX */
    otv_cff2_put_index(o, &cs, cs_offs, n);
    otv_buf_bytes(o, fds.p, fds.len);
    otv_buf fdd;
    otv_buf_init(&fdd, in->al);
    uint32_t fdo[OTV_INST_MAX_FDS + 1];
    for (uint32_t i = 0; i < fd_count; i++) {
      fdo[i] = (uint32_t)fdd.len;
      otv_cff_dict_put_offset(&fdd, priv_len[i]);
      otv_cff_dict_put_offset(&fdd, (uint32_t)(priv_base + priv_at[i]));
      otv_cff_put_op(&fdd, OTV_DICT_PRIVATE);
    }
    fdo[fd_count] = (uint32_t)fdd.len;
    bool fdd_failed = fdd.failed;
    otv_cff2_put_index(o, &fdd, fdo, fd_count);
    otv_buf_free(&fdd);
    if (fdd_failed) goto nomem;
    otv_buf_bytes(o, privs.p, privs.len);
    if (o->failed) goto nomem;
    if (o->len != priv_base + privs.len) {
      st = OTV_FAIL(in->err, BAD_VALUE, OTV_T_CFF2, 0, "internal: CFF2 layout %zu != %zu", o->len,
                    priv_base + privs.len);
      goto done;
    }
    otv_buf_bytes(o, vstore.p, vstore.len);
    if (o->failed) goto nomem;
  }
  /* a full instance whose charstrings come from the walker: the boxes of what it wrote */
  if (full_walk && (st = otv_inst_cff_boxes(in, true))) goto done;
boxes:
  for (uint32_t g = 0; g < n && (full_walk || cff1); g++) { /* empty glyphs: the hmtx value */
    otv_glyph_metrics m;
    if (in->has_outline[g]) continue;
    if ((st = otv_glyph_h_metrics(L, g, OTV_METRICS_ROUND, &m))) {
      const otv_error *le = otv_location_last_error(L);
      st = otv_fail(in->err, st, le->table ? le->table : OTV_T_HMTX, le->offset,
                    "glyph %u metrics: %s", g, le->msg);
      goto done;
    }
    in->lsb[g] = (int16_t)otv_inst_round16(m.side_a);
  }
  /* hmtx / vmtx */
  {
    uint32_t keep = n;
    while (keep > 1 && in->adv_w[keep - 1] == in->adv_w[keep - 2]) keep--;
    in->num_h_metrics = (uint16_t)keep;
    for (uint32_t i = 0; i < n; i++) {
      if (i < keep) otv_buf_u16(&in->hmtx, in->adv_w[i]);
      otv_buf_u16(&in->hmtx, (uint16_t)in->lsb[i]);
    }
    if (in->has_vmtx) {
      keep = n;
      while (keep > 1 && in->adv_h[keep - 1] == in->adv_h[keep - 2]) keep--;
      in->num_v_metrics = (uint16_t)keep;
      for (uint32_t i = 0; i < n; i++) {
        if (i < keep) otv_buf_u16(&in->vmtx, in->adv_h[i]);
        otv_buf_u16(&in->vmtx, (uint16_t)in->tsb[i]);
      }
    }
    if (in->hmtx.failed || in->vmtx.failed) goto nomem;
  }
  in->loca_format = f->index_to_loc_format;
  st = OTV_E_OK;
  goto done;
nomem:
  st = OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "CFF2 buffers");
done:
  if (cs_offs) otv_mem_free(in->al, cs_offs, ((size_t)n + 1) * sizeof *cs_offs);
  if (pts) otv_mem_free(in->al, pts, pcap * sizeof *pts);
  if (fl) otv_mem_free(in->al, fl, pcap);
  if (ends) otv_mem_free(in->al, ends, ccap * sizeof *ends);
  otv_buf_free(&cs);
  otv_buf_free(&privs);
  otv_buf_free(&fds);
  partial_free(in, &ploc, &mode, &factor, &vstore);
  otv_part_subrs_free(in, &ps);
  otv_buf_free(&gsub);
  if (gsub_offs)
    otv_mem_free(in->al, gsub_offs, ((size_t)f->cff.gsubrs.count + 1) * sizeof *gsub_offs);
  otv_inst_ivs_fini(&in->cx, &ev);
  return st;
}

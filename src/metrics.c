/*
 * metrics.c - glyph metrics at a location (spec: hmtx, hhea, vmtx, vhea, VORG, and the
 * "Glyph metrics" notes of the HVAR/VVAR and gvar chapters): the default values of hmtx/vmtx,
 * varied through HVAR/VVAR (hvar.c) or, when those are absent, through the gvar phantom points
 * (spec: gvar "Phantom points"; glyf.c computes them). Side bearings that no table varies are
 * derived from the glyph's varied bounds, as the spec describes for fonts without LSB/RSB maps;
 * HVAR/VVAR side-bearing maps apply to the hmtx/vmtx side bearing (near side) and to the default
 * far side bearing computed from the glyf header box (spec: hvar, vvar). Fonts without
 * vhea/vmtx get synthesized vertical metrics on request (OTV_METRICS_SYNTHESIZE), as HarfBuzz
 * derives them from the font-wide ascender and descender.
 */
#include "internal.h"

/* ---- parsing ---------------------------------------------------------------------------- */

/* hhea + hmtx (vertical = false) or vhea + vmtx. Both headers keep the long-metrics count at
 * byte 34 (numberOfHMetrics / numOfLongVerMetrics). */
static otv_status parse_mtx(const otv_face *f, bool vertical, otv_mtx *out, otv_error *err)
{
  memset(out, 0, sizeof *out);
  uint32_t hea_tag = vertical ? OTV_T_VHEA : OTV_T_HHEA;
  uint32_t mtx_tag = vertical ? OTV_T_VMTX : OTV_T_HMTX;
  otv_span hea = otv_face_span(f, hea_tag), mtx = otv_face_span(f, mtx_tag);
  if (!hea.p || !mtx.p) return OTV_E_OK; /* no metrics of this direction */
  otv_rd r = otv_rd_init(hea, 34);
  uint32_t n = otv_rd_u16(&r);
  if (!otv_rd_ok(&r))
    return OTV_FAIL_RD(err, hea_tag, 0, &r,
                       vertical ? "vhea is shorter than 36 bytes"
                                : "hhea is shorter than 36 bytes");
  if (n > f->glyph_count) n = f->glyph_count; /* extra records are unused */
  if (n == 0 && f->glyph_count)
    return OTV_FAIL(err, BAD_VALUE, hea_tag, 34, "%s is 0",
                    vertical ? "numOfLongVerMetrics" : "numberOfHMetrics");
  otv_span longs;
  if (!otv_span_array(mtx, 0, n, 4, &longs))
    return OTV_FAIL(err, TRUNCATED, mtx_tag, 0, "%u long metrics records need %zu bytes, have %zu",
                    n, (size_t)n * 4, mtx.len);
  /* Leniency: a table that ends before the last trailing side bearing is read as if the missing
   * ones were 0 (real fonts have this; FreeType and HarfBuzz accept it). */
  size_t room = (mtx.len - longs.len) / 2;
  uint32_t want = f->glyph_count - n;
  out->long_count = n;
  out->side_count = room < want ? (uint32_t)room : want;
  out->longs = longs.p;
  out->sides = mtx.p + longs.len;
  out->present = true;
  return OTV_E_OK;
}

static otv_status parse_vorg(const otv_face *f, otv_metrics *m, otv_error *err)
{
  otv_span t = otv_face_span(f, OTV_T_VORG);
  if (!t.p) return OTV_E_OK;
  otv_rd r = otv_rd_init(t, 0);
  uint16_t major = otv_rd_u16(&r);
  otv_rd_skip(&r, 2);
  int16_t def = otv_rd_i16(&r);
  uint16_t count = otv_rd_u16(&r);
  if (!otv_rd_ok(&r)) return OTV_FAIL_RD(err, OTV_T_VORG, 0, &r, "VORG header");
  if (major != 1) return OTV_FAIL(err, UNSUPPORTED, OTV_T_VORG, 0, "majorVersion %u", major);
  otv_span recs;
  if (!otv_span_array(t, 8, count, 4, &recs))
    return OTV_FAIL(err, TRUNCATED, OTV_T_VORG, 8, "%u vertOriginYMetrics records", count);
  m->vorg_present = true;
  m->vorg_default = def;
  m->vorg_count = count;
  m->vorg_recs = recs.p;
  return OTV_E_OK;
}

otv_status otv_metrics_parse(otv_face *f, otv_error *err)
{
  otv_metrics *m = &f->met;
  memset(m, 0, sizeof *m);
  m->os2 = otv_face_span(f, OTV_T_OS2);
  m->hhea = otv_face_span(f, OTV_T_HHEA);
  m->vhea = otv_face_span(f, OTV_T_VHEA);
  m->post = otv_face_span(f, OTV_T_POST);
  m->gasp = otv_face_span(f, OTV_TAG('g', 'a', 's', 'p'));
  m->head = otv_face_span(f, OTV_T_HEAD);
  otv_status s;
  if ((s = parse_mtx(f, false, &m->h, err))) goto fail;
  if ((s = parse_mtx(f, true, &m->v, err))) goto fail;
  if ((s = parse_vorg(f, m, err))) goto fail;
  if ((s = otv_xvar_parse(f, false, &m->hvar, err))) goto fail;
  if ((s = otv_xvar_parse(f, true, &m->vvar, err))) goto fail;
  if ((s = otv_mvar_parse(f, &m->mvar, err))) goto fail;
  m->present = m->h.present;
  return OTV_E_OK;
fail:
  otv_metrics_free(f);
  return s;
}

void otv_metrics_free(otv_face *f)
{
  otv_xvar_free(&f->al, &f->met.hvar);
  otv_xvar_free(&f->al, &f->met.vvar);
  otv_mvar_free(&f->al, &f->met.mvar);
}

void otv_metrics_loc_free(otv_location *loc)
{
  otv_ivs_cache_free(&loc->al, &loc->met.hvar);
  otv_ivs_cache_free(&loc->al, &loc->met.vvar);
  otv_ivs_cache_free(&loc->al, &loc->met.mvar);
}

/* ---- default values ----------------------------------------------------------------------- */

/* spec: glyphs past the long metrics repeat the last advance and take their side bearing from
 * the trailing array. */
static inline unsigned mtx_advance(const otv_mtx *m, uint32_t gid)
{
  uint32_t i = gid < m->long_count ? gid : m->long_count - 1;
  /* in range: longs span (long_count x 4) checked in parse_mtx; long_count >= 1 here */
  return otv_peek_u16(m->longs + 4 * (size_t)i);
}

static inline int mtx_side(const otv_mtx *m, uint32_t gid)
{
  if (gid < m->long_count) return otv_peek_i16(m->longs + 4 * (size_t)gid + 2);
  uint32_t i = gid - m->long_count;
  /* in range: sides span (side_count x 2) checked in parse_mtx */
  return i < m->side_count ? otv_peek_i16(m->sides + 2 * (size_t)i) : 0;
}

static int vorg_y(const otv_metrics *m, uint32_t gid)
{
  uint32_t lo = 0, hi = m->vorg_count;
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    /* in range: vorg_recs span checked in parse_vorg */
    const uint8_t *p = m->vorg_recs + 4 * (size_t)mid;
    uint32_t g = otv_peek_u16(p);
    if (g == gid) return otv_peek_i16(p + 2);
    if (g < gid)
      lo = mid + 1;
    else
      hi = mid;
  }
  return m->vorg_default;
}

/* ---- control box of the varied outline ---------------------------------------------------- */

typedef struct cbox {
  float x_min, y_min, x_max, y_max;
  bool any;
} cbox;

static void cb_pt(cbox *b, float x, float y)
{
  if (!b->any) {
    b->x_min = b->x_max = x;
    b->y_min = b->y_max = y;
    b->any = true;
    return;
  }
  if (x < b->x_min) b->x_min = x;
  if (x > b->x_max) b->x_max = x;
  if (y < b->y_min) b->y_min = y;
  if (y > b->y_max) b->y_max = y;
}
static void cb_move(void *c, float x, float y) { cb_pt(c, x, y); }
static void cb_quad(void *c, float x1, float y1, float x, float y)
{
  cb_pt(c, x1, y1);
  cb_pt(c, x, y);
}
static void cb_cubic(void *c, float x1, float y1, float x2, float y2, float x, float y)
{
  cb_pt(c, x1, y1);
  cb_pt(c, x2, y2);
  cb_pt(c, x, y);
}
static const otv_pen cbox_pen = {cb_move, cb_move, cb_quad, cb_cubic, NULL};

/* The control box (every point, on- and off-curve) of the glyph at the location: the box the
 * glyf header stores at the default location and that HarfBuzz/FreeType use for extents. */
static otv_status glyph_cbox(otv_location *loc, uint32_t gid, cbox *b)
{
  memset(b, 0, sizeof *b);
  return otv_glyph_outline(loc, gid, 0, &cbox_pen, b);
}

/* ---- glyph metrics ------------------------------------------------------------------------ */

static otv_status no_table(otv_location *loc, bool vertical)
{
  return otv_loc_fail(loc, OTV_E_NO_TABLE, vertical ? OTV_T_VMTX : OTV_T_HMTX, 0,
                      vertical ? "the font has no vhea/vmtx" : "the font has no hhea/hmtx");
}

static otv_status cff2_no_var(otv_location *loc, bool vertical)
{
  return otv_loc_fail(loc, OTV_E_UNSUPPORTED, vertical ? OTV_T_VVAR : OTV_T_HVAR, 0,
                      "CFF2 font without %s: metrics do not vary (the spec requires it); "
                      "default values returned",
                      vertical ? "VVAR" : "HVAR");
}

static inline float maybe_round(float v, unsigned flags)
{
  return (flags & OTV_METRICS_ROUND) ? otv_round(v) : v;
}

/* The bounding box stored in the glyf header of a TrueType glyph (xMin, yMin, xMax, yMax), the
 * box the spec's default RSB/BSB are defined with. false for an empty glyph, or when the header
 * cannot be read (drawing the outline then reports that error). */
static bool glyf_header_box(const otv_face *f, uint32_t gid, float box[4])
{
  const otv_glyf *g = &f->glyf;
  if (!g->present) return false;
  size_t a, b;
  /* in range: loca holds glyph_count + 1 entries (checked in otv_glyf_parse); gid checked by
   * the caller against glyph_count */
  if (g->loca_long) {
    a = otv_peek_u32(g->loca.p + 4 * (size_t)gid);
    b = otv_peek_u32(g->loca.p + 4 * (size_t)gid + 4);
  } else {
    a = 2 * (size_t)otv_peek_u16(g->loca.p + 2 * (size_t)gid);
    b = 2 * (size_t)otv_peek_u16(g->loca.p + 2 * (size_t)gid + 2);
  }
  if (b <= a) return false;
  otv_rd r = otv_rd_init(g->glyf, a);
  otv_rd_skip(&r, 2); /* numberOfContours */
  for (int i = 0; i < 4; i++) box[i] = (float)otv_rd_i16(&r);
  return otv_rd_ok(&r) && r.pos <= b;
}

/* Default far side bearing of a TrueType glyph (spec: hvar/vvar, side bearings "obtained from
 * the 'hmtx' table and glyph bounding box"): RSB = advance - (LSB + xMax - xMin), BSB = advance
 * height - (TSB + yMax - yMin), from hmtx/vmtx and the glyf header. */
static float default_far_side(const otv_location *loc, const otv_mtx *mtx, uint32_t gid,
                              bool vertical)
{
  float box[4] = {0, 0, 0, 0};
  float extent = 0.0f;
  if (glyf_header_box(loc->face, gid, box)) extent = vertical ? box[3] - box[1] : box[2] - box[0];
  return (float)mtx_advance(mtx, gid) - (float)mtx_side(mtx, gid) - extent;
}

/* Vertical metrics of a font without vhea/vmtx (OTV_METRICS_SYNTHESIZE), as HarfBuzz
 * synthesizes them: advance height = ascender - descender of the font at the location
 * (otv_metrics_ascent_descent: OS/2 typo or hhea, MVAR applied); the vertical origin from VORG
 * (+ VVAR origin delta) when the font has it, else the varied glyph box centred in the advance:
 * TSB = BSB = (advance - box height) / 2. Rounded (OTV_METRICS_ROUND): advance = round(asc) -
 * round(desc); centred: TSB = floor((advance - (round(yMax) - round(yMin))) / 2), the odd unit
 * going to the bottom, as HarfBuzz's integer arithmetic does. */
static otv_status synth_v_metrics(otv_location *loc, uint32_t gid, unsigned flags,
                                  otv_glyph_metrics *out)
{
  const otv_face *f = loc->face;
  const otv_metrics *m = &f->met;
  float asc, desc;
  if (otv_metrics_ascent_descent(loc, &asc, &desc)) return OTV_E_NOMEM;
  cbox b;
  memset(&b, 0, sizeof b);
  if (f->flavour != OTV_FLAVOUR_NONE) {
    otv_status s = glyph_cbox(loc, gid, &b);
    if (s) return s;
  }
  bool round = (flags & OTV_METRICS_ROUND) != 0;
  /* a box of zero width or height (every point on a line) has no ink: centred as empty, as
   * HarfBuzz reports no extents for it */
  bool ink = b.any && b.x_max > b.x_min && b.y_max > b.y_min;
  float y_max = ink ? b.y_max : 0.0f, y_min = ink ? b.y_min : 0.0f;
  if (round) {
    asc = otv_round(asc);
    desc = otv_round(desc);
    y_max = otv_round(y_max);
    y_min = otv_round(y_min);
  }
  float adv = asc - desc, height = y_max - y_min, tsb, origin;
  if (m->vorg_present) {
    origin = (float)vorg_y(m, gid);
    float d;
    if (m->vvar.present && !loc->is_default) {
      const float *sc = otv_ivs_cache_get(loc, &m->vvar.ivs, &loc->met.vvar);
      if (!sc) return OTV_E_NOMEM;
      if (otv_xvar_delta(&m->vvar, sc, 3, gid, &d)) origin += d;
    }
    if (round) origin = otv_round(origin);
    tsb = origin - y_max;
  } else {
    tsb = round ? floorf((adv - height) * 0.5f) : (adv - height) * 0.5f;
    origin = y_max + tsb;
  }
  out->advance = adv;
  out->side_a = tsb;
  out->side_b = adv - height - tsb;
  out->origin = origin;
  return OTV_E_OK;
}

/*
 * Where each value comes from (varied = not the default location, or a TrueType VF without
 * HVAR/VVAR, whose metrics always come from the phantom points):
 *   advance: hmtx/vmtx + HVAR/VVAR advance delta (implicit glyph-id mapping when there is no
 *            advance map); TrueType without HVAR/VVAR: right - left (top - bottom) phantom
 *            point; CFF2 without HVAR/VVAR: the default, with OTV_E_UNSUPPORTED.
 *   near side bearing (LSB/TSB), TrueType: at the default, hmtx/vmtx; varied with an LSB/TSB
 *            map, hmtx/vmtx + its delta; else the varied control box minus the left (top)
 *            phantom point. CFF/CFF2: LSB = xMin of the varied control box (origin at x = 0;
 *            the spec gives side-bearing maps for TrueType outlines); TSB = VORG origin - yMax,
 *            or without VORG vmtx TSB (+ TSB delta when varied). No outlines: hmtx/vmtx.
 *   far side bearing (RSB/BSB), TrueType varied with an RSB/BSB map: the default far side
 *            bearing (advance - near - glyf header box extent) + its delta; else advance - near
 *            side bearing - varied box extent.
 *   origin (vertical): VORG + VVAR origin delta when the font has VORG; else the top phantom
 *            point (TrueType, TSB derived from the phantoms), else yMax + TSB.
 */
static otv_status glyph_metrics(otv_location *loc, uint32_t gid, unsigned flags, bool vertical,
                                otv_glyph_metrics *out)
{
  if (!loc || !out) return OTV_E_ARG;
  memset(out, 0, sizeof *out);
  const otv_face *f = loc->face;
  const otv_metrics *m = &f->met;
  if (gid >= f->glyph_count)
    return otv_loc_fail(loc, OTV_E_ARG, 0, 0, "glyph %u: the font has %u glyphs", gid,
                        f->glyph_count);
  const otv_mtx *mtx = vertical ? &m->v : &m->h;
  if (!mtx->present) {
    if (vertical && (flags & OTV_METRICS_SYNTHESIZE)) return synth_v_metrics(loc, gid, flags, out);
    return no_table(loc, vertical);
  }
  const otv_xvar *xv = vertical ? &m->vvar : &m->hvar;
  otv_ivs_cache *cache = vertical ? &loc->met.vvar : &loc->met.hvar;
  bool glyf = f->flavour == OTV_FLAVOUR_GLYF;
  /* A variable TrueType font without HVAR/VVAR takes its metrics from the phantom points even
   * at the default location, as FreeType and HarfBuzz do once coordinates are set: they differ
   * from hmtx for composites with USE_MY_METRICS (spec: the component's metrics are used). */
  bool phantom = !xv->present && glyf && f->fvar.axis_count;
  bool varied = !loc->is_default || phantom;
  otv_status late = OTV_E_OK; /* an error reported after filling `out` with defaults */

  float adv = (float)mtx_advance(mtx, gid);
  float side = (float)mtx_side(mtx, gid);
  bool side_known = true; /* `side` is the near side bearing at this location */
  bool far_known = false; /* `far` is the far side bearing at this location */
  float far = 0.0f;
  bool have_ph = false;
  otv_point ph[4];
  const float *sc = NULL;
  if (varied) {
    if (xv->present) {
      sc = otv_ivs_cache_get(loc, &xv->ivs, cache);
      if (!sc) return OTV_E_NOMEM;
      float d;
      if (otv_xvar_delta(xv, sc, 0, gid, &d)) adv += d;
      /* side-bearing maps: TrueType outlines (spec: hvar, vvar), or no outlines at all. A CFF
       * glyph's bearings come from its varied bounds, except the TSB of a font without VORG:
       * there vmtx TSB (+ its delta) places the vertical origin above the box. */
      bool sb_maps = glyf || f->flavour == OTV_FLAVOUR_NONE;
      bool near_map = sb_maps || (vertical && !m->vorg_present);
      if (near_map && otv_xvar_delta(xv, sc, 1, gid, &d))
        side += d;
      else
        side_known = false;
      if (sb_maps && otv_xvar_delta(xv, sc, 2, gid, &d)) {
        far = default_far_side(loc, mtx, gid, vertical) + d;
        far_known = true;
      }
    } else {
      side_known = false;
    }
    if (glyf && (!xv->present || !side_known)) {
      otv_status s = otv_glyf_phantoms(loc, gid, ph);
      if (s) return s;
      have_ph = true;
      if (!xv->present) adv = vertical ? ph[2].y - ph[3].y : ph[1].x - ph[0].x;
    } else if (f->flavour == OTV_FLAVOUR_CFF2 && !xv->present) {
      late = cff2_no_var(loc, vertical);
    }
  }

  /* Without outlines there are no bounds to derive a bearing from: the default stays. CFF
   * outlines have their origin at x = 0 and no phantom points: hmtx/vmtx side bearings are only
   * informational there (and often stale), so the varied bounds decide. */
  if (f->flavour == OTV_FLAVOUR_NONE) side_known = true;
  bool cff = f->flavour == OTV_FLAVOUR_CFF || f->flavour == OTV_FLAVOUR_CFF2;
  if (cff) side_known = false;

  /* Bounds: needed for the far side bearing, and for the near one when nothing varies it. */
  cbox b;
  memset(&b, 0, sizeof b);
  if (f->flavour != OTV_FLAVOUR_NONE && (!side_known || !far_known || vertical)) {
    otv_status s = glyph_cbox(loc, gid, &b);
    if (s) return s;
  } /* a font without outlines (bitmap-only): every glyph is empty */
  float origin = 0.0f;
  if (!vertical) {
    if (!side_known) {
      /* LSB = xMin - x of the left phantom point (the glyph origin; 0 for CFF2). */
      float ox = have_ph ? ph[0].x : 0.0f;
      side = b.any ? b.x_min - ox : -ox;
    }
    if (!far_known) far = adv - side - (b.any ? b.x_max - b.x_min : 0.0f);
  } else {
    float y_max = b.any ? b.y_max : 0.0f;
    if (m->vorg_present) {
      origin = (float)vorg_y(m, gid);
      float d;
      if (sc && otv_xvar_delta(xv, sc, 3, gid, &d)) origin += d;
      if (!side_known) side = origin - y_max;
    } else if (!side_known) {
      /* the top phantom point is the vertical origin (at the default: yMax + TSB) */
      origin = have_ph ? ph[2].y : y_max + side;
      side = origin - y_max;
    } else {
      origin = y_max + side;
    }
    if (!far_known) far = adv - side - (b.any ? b.y_max - b.y_min : 0.0f);
  }
  out->advance = maybe_round(adv, flags);
  out->side_a = maybe_round(side, flags);
  out->side_b = maybe_round(far, flags);
  out->origin = vertical ? maybe_round(origin, flags) : 0.0f;
  return late;
}

otv_status otv_glyph_h_metrics(otv_location *loc, uint32_t gid, unsigned flags,
                               otv_glyph_metrics *out)
{
  return glyph_metrics(loc, gid, flags, false, out);
}

otv_status otv_glyph_v_metrics(otv_location *loc, uint32_t gid, unsigned flags,
                               otv_glyph_metrics *out)
{
  return glyph_metrics(loc, gid, flags, true, out);
}

otv_status otv_glyph_advances(otv_location *loc, const uint32_t *gids, size_t n, unsigned flags,
                              float *out)
{
  if (!loc || (n && (!gids || !out))) return OTV_E_ARG;
  const otv_face *f = loc->face;
  const otv_metrics *m = &f->met;
  bool vertical = (flags & OTV_METRICS_VERTICAL) != 0;
  const otv_mtx *mtx = vertical ? &m->v : &m->h;
  bool round = (flags & OTV_METRICS_ROUND) != 0;
  otv_status first = OTV_E_OK;
  uint32_t glyph_count = f->glyph_count;
  if (!mtx->present && vertical && (flags & OTV_METRICS_SYNTHESIZE)) {
    /* synthesized: one advance height for every glyph (synth_v_metrics) */
    float asc, desc;
    if (otv_metrics_ascent_descent(loc, &asc, &desc)) return OTV_E_NOMEM;
    float a = round ? otv_round(asc) - otv_round(desc) : asc - desc;
    for (size_t i = 0; i < n; i++) {
      out[i] = gids[i] < glyph_count ? a : 0.0f;
      if (gids[i] >= glyph_count && !first)
        first = otv_loc_fail(loc, OTV_E_ARG, 0, 0, "glyph %u: the font has %u glyphs", gids[i],
                             glyph_count);
    }
    return first;
  }
  if (!mtx->present) return no_table(loc, vertical);
  const otv_xvar *xv = vertical ? &m->vvar : &m->hvar;

  bool phantom = !xv->present && f->flavour == OTV_FLAVOUR_GLYF && f->fvar.axis_count;
  if ((loc->is_default && !phantom) || (!xv->present && !phantom)) {
    if (!loc->is_default && f->flavour == OTV_FLAVOUR_CFF2) first = cff2_no_var(loc, vertical);
    for (size_t i = 0; i < n; i++) {
      uint32_t g = gids[i];
      if (g >= glyph_count) {
        out[i] = 0.0f;
        if (!first)
          first = otv_loc_fail(loc, OTV_E_ARG, 0, 0, "glyph %u: the font has %u glyphs", g,
                               glyph_count);
        continue;
      }
      out[i] = (float)mtx_advance(mtx, g);
    }
    return first;
  }

  if (xv->present) {
    const float *sc = otv_ivs_cache_get(loc, &xv->ivs, vertical ? &loc->met.vvar : &loc->met.hvar);
    if (!sc) return OTV_E_NOMEM;
    for (size_t i = 0; i < n; i++) {
      uint32_t g = gids[i];
      if (g >= glyph_count) {
        out[i] = 0.0f;
        if (!first)
          first = otv_loc_fail(loc, OTV_E_ARG, 0, 0, "glyph %u: the font has %u glyphs", g,
                               glyph_count);
        continue;
      }
      uint32_t outer, inner;
      otv_dsim_map(&xv->adv, g, &outer, &inner);
      float a = (float)mtx_advance(mtx, g) + otv_ivs_delta(&xv->ivs, sc, outer, inner);
      out[i] = round ? otv_round(a) : a;
    }
    return first;
  }

  /* TrueType without HVAR/VVAR: the phantom points. */
  for (size_t i = 0; i < n; i++) {
    uint32_t g = gids[i];
    otv_point ph[4];
    otv_status s = g < glyph_count
                       ? otv_glyf_phantoms(loc, g, ph)
                       : otv_loc_fail(loc, OTV_E_ARG, 0, 0, "glyph %u: the font has %u glyphs", g,
                                      glyph_count);
    if (s) {
      out[i] = 0.0f;
      if (!first) first = s;
      continue;
    }
    float a = vertical ? ph[2].y - ph[3].y : ph[1].x - ph[0].x;
    out[i] = round ? otv_round(a) : a;
  }
  return first;
}

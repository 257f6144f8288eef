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
#include "face.h"
#include "fields.h"

/* The region scalars of a store at the location (NULL on NOMEM, recorded in the location). */
static const float *scalars(otv_location *loc, const otv_ivs *ivs, otv_ivs_cache *c)
{
  return otv_ivs_cache_get(&loc->x, ivs, c);
}

static otv_status ascent_descent(otv_location *loc, float *asc, float *desc);

/* Rows with more columns than this go through the location's row memo. */
#define MEMO_MIN_COLUMNS 32u

/* Delta `which` (OTV_XVAR_*) of glyph gid in HVAR/VVAR at the location's scalars sc, its work
 * charged to the location's budget (core/budget.h): *has false when the table maps no such
 * value; OTV_E_LIMIT past the budget. A row of many regions is read once per location: a font
 * can map every glyph to one row of 65535 regions, which would cost glyphs x regions; the memo
 * (16 direct-mapped entries per table, of the location's serial) returns the delta it computed,
 * the same float. */
static otv_status xdelta(otv_location *loc, const otv_xvar *xv, const float *sc, bool vertical,
                         unsigned which, uint32_t gid, float *d, bool *has)
{
  uint32_t outer, inner;
  *has = false;
  if (!otv_xvar_row(xv, which, gid, &outer, &inner)) return OTV_E_OK;
  uint64_t cost = otv_xvar_row_cost(xv, outer);
  otv_xvar_memo *e = NULL;
  bool hit = false;
  if (cost > OTV_WORK_ROW + MEMO_MIN_COLUMNS) {
    otv_xvar_memo *memo = vertical ? loc->met.vmemo : loc->met.hmemo;
    e = &memo[(outer * 31u + inner) & (OTV_XVAR_MEMO - 1u)];
    hit = e->serial == loc->at.serial && e->outer == outer && e->inner == inner;
    if (hit) cost = OTV_WORK_ROW;
  }
  if (!otv_budget_charge(&loc->work, cost))
    return otv_loc_fail(loc, OTV_E_LIMIT, vertical ? OTV_T_VVAR : OTV_T_HVAR, 0,
                        "glyph %u: work budget of %llu units spent", gid,
                        (unsigned long long)loc->work.limit);
  if (hit) {
    *d = e->delta;
  } else {
    *d = otv_ivs_delta(&xv->ivs, sc, outer, inner);
    if (e) *e = (otv_xvar_memo){loc->at.serial, outer, inner, *d};
  }
  *has = true;
  return OTV_E_OK;
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

/* Default far side bearing of a TrueType glyph (spec: hvar/vvar, side bearings "obtained from
 * the 'hmtx' table and glyph bounding box"): RSB = advance - (LSB + xMax - xMin), BSB = advance
 * height - (TSB + yMax - yMin), from hmtx/vmtx and the glyf header. */
static float default_far_side(const otv_location *loc, const otv_mtx *mtx, uint32_t gid,
                              bool vertical)
{
  int box[4] = {0, 0, 0, 0};
  float extent = 0.0f;
  if (otv_glyf_header_box(&loc->face->glyf, gid, box))
    extent = (float)(vertical ? box[3] - box[1] : box[2] - box[0]);
  return (float)otv_mtx_advance(mtx, gid) - (float)otv_mtx_side(mtx, gid) - extent;
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
  if (ascent_descent(loc, &asc, &desc)) return OTV_E_NOMEM;
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
  if (m->vorg.present) {
    origin = (float)otv_vorg_y(&m->vorg, gid);
    float d;
    if (m->vvar.present && !loc->at.is_default) {
      const float *sc = scalars(loc, &m->vvar.ivs, &loc->met.vvar);
      if (!sc) return OTV_E_NOMEM;
      bool has;
      otv_status s = xdelta(loc, &m->vvar, sc, true, OTV_XVAR_VORG, gid, &d, &has);
      if (s) return s;
      if (has) origin += d;
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
  bool varied = !loc->at.is_default || phantom;
  otv_status late = OTV_E_OK; /* an error reported after filling `out` with defaults */

  float adv = (float)otv_mtx_advance(mtx, gid);
  float side = (float)otv_mtx_side(mtx, gid);
  bool side_known = true; /* `side` is the near side bearing at this location */
  bool far_known = false; /* `far` is the far side bearing at this location */
  float far = 0.0f;
  bool have_ph = false;
  otv_point ph[4];
  const float *sc = NULL;
  if (varied) {
    if (xv->present) {
      sc = scalars(loc, &xv->ivs, cache);
      if (!sc) return OTV_E_NOMEM;
      float d;
      bool has;
      otv_status s = xdelta(loc, xv, sc, vertical, OTV_XVAR_ADVANCE, gid, &d, &has);
      if (s) return s;
      if (has) adv += d;
      /* side-bearing maps: TrueType outlines (spec: hvar, vvar), or no outlines at all. A CFF
       * glyph's bearings come from its varied bounds, except the TSB of a font without VORG:
       * there vmtx TSB (+ its delta) places the vertical origin above the box. */
      bool sb_maps = glyf || f->flavour == OTV_FLAVOUR_NONE;
      bool near_map = sb_maps || (vertical && !m->vorg.present);
      has = false;
      if (near_map && (s = xdelta(loc, xv, sc, vertical, OTV_XVAR_SIDE_A, gid, &d, &has))) return s;
      if (has)
        side += d;
      else
        side_known = false;
      has = false;
      if (sb_maps && (s = xdelta(loc, xv, sc, vertical, OTV_XVAR_SIDE_B, gid, &d, &has))) return s;
      if (has) {
        far = default_far_side(loc, mtx, gid, vertical) + d;
        far_known = true;
      }
    } else {
      side_known = false;
    }
    if (glyf && (!xv->present || !side_known)) {
      otv_status s = otv_glyf_phantoms(&loc->glyf, gid, ph);
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
    if (m->vorg.present) {
      origin = (float)otv_vorg_y(&m->vorg, gid);
      float d;
      bool has = false;
      otv_status s = sc ? xdelta(loc, xv, sc, true, OTV_XVAR_VORG, gid, &d, &has) : OTV_E_OK;
      if (s) return s;
      if (has) origin += d;
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
    if (ascent_descent(loc, &asc, &desc)) return OTV_E_NOMEM;
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
  if ((loc->at.is_default && !phantom) || (!xv->present && !phantom)) {
    if (!loc->at.is_default && f->flavour == OTV_FLAVOUR_CFF2) first = cff2_no_var(loc, vertical);
    for (size_t i = 0; i < n; i++) {
      uint32_t g = gids[i];
      if (g >= glyph_count) {
        out[i] = 0.0f;
        if (!first)
          first = otv_loc_fail(loc, OTV_E_ARG, 0, 0, "glyph %u: the font has %u glyphs", g,
                               glyph_count);
        continue;
      }
      out[i] = (float)otv_mtx_advance(mtx, g);
    }
    return first;
  }

  if (xv->present) {
    const float *sc = scalars(loc, &xv->ivs, vertical ? &loc->met.vvar : &loc->met.hvar);
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
      float d = 0.0f;
      bool has;
      otv_status s = xdelta(loc, xv, sc, vertical, OTV_XVAR_ADVANCE, g, &d, &has);
      if (s) { /* past the budget */
        out[i] = 0.0f;
        if (!first) first = s;
        continue;
      }
      float a = (float)otv_mtx_advance(mtx, g) + d; /* the advance is always mapped */
      out[i] = round ? otv_round(a) : a;
    }
    return first;
  }

  /* TrueType without HVAR/VVAR: the phantom points. */
  for (size_t i = 0; i < n; i++) {
    uint32_t g = gids[i];
    otv_point ph[4];
    otv_status s = g < glyph_count
                       ? otv_glyf_phantoms(&loc->glyf, g, ph)
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

/* ---- font-wide values ---- */

/* otvar's own tags (upper case, so never a registered MVAR tag) for font-wide values that no
 * MVAR record varies: hhea ascender/descender/lineGap, head unitsPerEm and bounding box, post
 * italicAngle. kind: 0 int16, 1 uint16, 2 Fixed 16.16. */
static const struct extra_src {
  uint32_t tag;
  uint8_t table; /* 0 hhea, 1 head, 2 post */
  uint8_t kind;
  uint16_t off;
} extras[] = {
    {OTV_TAG('H', 'A', 'S', 'C'), 0, 0, 4},  {OTV_TAG('H', 'D', 'S', 'C'), 0, 0, 6},
    {OTV_TAG('H', 'L', 'G', 'P'), 0, 0, 8},  {OTV_TAG('U', 'P', 'E', 'M'), 1, 1, 18},
    {OTV_TAG('X', 'M', 'I', 'N'), 1, 0, 36}, {OTV_TAG('Y', 'M', 'I', 'N'), 1, 0, 38},
    {OTV_TAG('X', 'M', 'A', 'X'), 1, 0, 40}, {OTV_TAG('Y', 'M', 'A', 'X'), 1, 0, 42},
    {OTV_TAG('I', 'T', 'A', 'L'), 2, 2, 4},
};

static bool extra_value(const otv_metrics *m, uint32_t tag, float *out)
{
  for (size_t i = 0; i < sizeof extras / sizeof *extras; i++) {
    if (extras[i].tag != tag) continue;
    otv_span t = extras[i].table == 0   ? m->bases.hhea
                 : extras[i].table == 1 ? m->head
                                        : m->bases.post;
    unsigned size = extras[i].kind == 2 ? 4 : 2;
    if (!t.p || !otv_span_has(t, extras[i].off, size)) return false;
    /* in range: otv_span_has just above */
    const uint8_t *p = t.p + extras[i].off;
    if (extras[i].kind == 0)
      *out = (float)otv_peek_i16(p);
    else if (extras[i].kind == 1)
      *out = (float)otv_peek_u16(p);
    else
      *out = (float)((double)otv_peek_i32(p) / 65536.0);
    return true;
  }
  return false;
}

otv_status otv_font_metric(otv_location *loc, uint32_t tag, unsigned flags, float *out)
{
  if (!loc || !out) return OTV_E_ARG;
  const otv_metrics *m = &loc->face->met;
  int k = otv_mvar_tag_index(tag);
  float v = 0.0f;
  if (k < 0 && extra_value(m, tag, &v)) {
    *out = (flags & OTV_METRICS_ROUND) ? otv_round(v) : v;
    return OTV_E_OK;
  }
  if (k < 0 || !otv_mvar_base_value(&m->bases, k, &v)) {
    char s[5];
    otv_tag_to_string(tag, s);
    return otv_loc_fail(loc, OTV_E_NOT_FOUND, OTV_T_MVAR, 0, "no base value for '%s'", s);
  }
  if (m->mvar.present && m->mvar.has[k] && !loc->at.is_default) {
    const float *sc = scalars(loc, &m->mvar.ivs, &loc->met.mvar);
    if (!sc) return OTV_E_NOMEM;
    v += otv_ivs_delta(&m->mvar.ivs, sc, m->mvar.outer[k], m->mvar.inner[k]);
  }
  *out = (flags & OTV_METRICS_ROUND) ? otv_round(v) : v;
  return OTV_E_OK;
}

/* The font-wide ascender and descender that HarfBuzz uses for synthesized vertical metrics
 * (hb_font_get_h_extents): OS/2 sTypoAscender/sTypoDescender when fsSelection has
 * USE_TYPO_METRICS (bit 7) and OS/2 is at least the 78 bytes of version 0, else hhea
 * ascender/descender; either way plus the MVAR 'hasc'/'hdsc' delta (HarfBuzz applies those
 * deltas to the hhea values too, as its instancer does), then the ascender made >= 0 and the
 * descender <= 0. Without hhea: 0.8 em and 0.8 em - 1 em, unvaried. */
static otv_status ascent_descent(otv_location *loc, float *asc, float *desc)
{
  const otv_face *f = loc->face;
  const otv_metrics *m = &f->met;
  float a, d;
  /* in range: each branch checks its span first */
  otv_span os2 = m->bases.os2, hhea = m->bases.hhea;
  if (otv_span_has(os2, 0, OS2_V0_LEN) &&
      (otv_peek_u16(os2.p + OS2_FS_SELECTION) & OS2_FS_SELECTION_USE_TYPO_METRICS)) {
    a = (float)otv_peek_i16(os2.p + OS2_S_TYPO_ASCENDER);
    d = (float)otv_peek_i16(os2.p + OS2_S_TYPO_DESCENDER);
  } else if (otv_span_has(hhea, 0, HHEA_LINE_GAP)) {
    a = (float)otv_peek_i16(hhea.p + HHEA_ASCENDER);
    d = (float)otv_peek_i16(hhea.p + HHEA_DESCENDER);
  } else {
    /* HarfBuzz's fallback: int(0.8 * upem) and that minus upem */
    *asc = (float)(int)(f->units_per_em * 0.8);
    *desc = *asc - (float)f->units_per_em;
    return OTV_E_OK;
  }
  if (m->mvar.present && !loc->at.is_default &&
      (m->mvar.has[OTV_MVAR_HASC] || m->mvar.has[OTV_MVAR_HDSC])) {
    const float *sc = scalars(loc, &m->mvar.ivs, &loc->met.mvar);
    if (!sc) return OTV_E_NOMEM;
    if (m->mvar.has[OTV_MVAR_HASC])
      a += otv_ivs_delta(&m->mvar.ivs, sc, m->mvar.outer[OTV_MVAR_HASC],
                         m->mvar.inner[OTV_MVAR_HASC]);
    if (m->mvar.has[OTV_MVAR_HDSC])
      d += otv_ivs_delta(&m->mvar.ivs, sc, m->mvar.outer[OTV_MVAR_HDSC],
                         m->mvar.inner[OTV_MVAR_HDSC]);
  }
  *asc = fabsf(a);
  *desc = -fabsf(d);
  return OTV_E_OK;
}

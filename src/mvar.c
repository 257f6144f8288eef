/*
 * mvar.c - MVAR (spec: mvar) and the font-wide values it varies: OS/2, hhea, vhea, post and
 * gasp fields named by the registered value tags (spec: mvar "Value tags").
 *
 * MVAR header: majorVersion, minorVersion, reserved, valueRecordSize, valueRecordCount,
 * itemVariationStoreOffset (Offset16), then valueRecordCount records of valueRecordSize bytes
 * (>= 8): valueTag, deltaSetOuterIndex, deltaSetInnerIndex. Unknown tags are ignored (spec:
 * "unrecognized tags should be ignored"); when a tag occurs twice the first record wins.
 */
#include "internal.h"

#define T(s) OTV_TAG(s[0], s[1], s[2], s[3])

/* Where the base value of each tag lives. is_unsigned: uint16 field (usWin*, rangeMaxPPEM). */
enum { SRC_OS2, SRC_HHEA, SRC_VHEA, SRC_POST, SRC_GASP };
typedef struct mvar_src {
  uint8_t table;
  uint8_t is_unsigned;
  uint16_t off; /* byte offset of the field in its table */
} mvar_src;

const uint32_t otv_mvar_tags[OTV_MVAR_TAG_COUNT] = {
    T("hasc"), T("hdsc"), T("hlgp"), T("hcla"), T("hcld"), T("vasc"), T("vdsc"), T("vlgp"),
    T("hcrs"), T("hcrn"), T("hcof"), T("vcrs"), T("vcrn"), T("vcof"), T("xhgt"), T("cpht"),
    T("sbxs"), T("sbys"), T("sbxo"), T("sbyo"), T("spxs"), T("spys"), T("spxo"), T("spyo"),
    T("strs"), T("stro"), T("unds"), T("undo"), T("gsp0"), T("gsp1"), T("gsp2"), T("gsp3"),
    T("gsp4"), T("gsp5"), T("gsp6"), T("gsp7"), T("gsp8"), T("gsp9"),
};

static const mvar_src srcs[OTV_MVAR_TAG_COUNT] = {
    {SRC_OS2, 0, 68},  /* hasc sTypoAscender */
    {SRC_OS2, 0, 70},  /* hdsc sTypoDescender */
    {SRC_OS2, 0, 72},  /* hlgp sTypoLineGap */
    {SRC_OS2, 1, 74},  /* hcla usWinAscent */
    {SRC_OS2, 1, 76},  /* hcld usWinDescent */
    {SRC_VHEA, 0, 4},  /* vasc vertTypoAscender */
    {SRC_VHEA, 0, 6},  /* vdsc vertTypoDescender */
    {SRC_VHEA, 0, 8},  /* vlgp vertTypoLineGap */
    {SRC_HHEA, 0, 18}, /* hcrs caretSlopeRise */
    {SRC_HHEA, 0, 20}, /* hcrn caretSlopeRun */
    {SRC_HHEA, 0, 22}, /* hcof caretOffset */
    {SRC_VHEA, 0, 18}, /* vcrs caretSlopeRise */
    {SRC_VHEA, 0, 20}, /* vcrn caretSlopeRun */
    {SRC_VHEA, 0, 22}, /* vcof caretOffset */
    {SRC_OS2, 0, 86},  /* xhgt sxHeight (OS/2 version >= 2) */
    {SRC_OS2, 0, 88},  /* cpht sCapHeight (OS/2 version >= 2) */
    {SRC_OS2, 0, 10},  /* sbxs ySubscriptXSize */
    {SRC_OS2, 0, 12},  /* sbys ySubscriptYSize */
    {SRC_OS2, 0, 14},  /* sbxo ySubscriptXOffset */
    {SRC_OS2, 0, 16},  /* sbyo ySubscriptYOffset */
    {SRC_OS2, 0, 18},  /* spxs ySuperscriptXSize */
    {SRC_OS2, 0, 20},  /* spys ySuperscriptYSize */
    {SRC_OS2, 0, 22},  /* spxo ySuperscriptXOffset */
    {SRC_OS2, 0, 24},  /* spyo ySuperscriptYOffset */
    {SRC_OS2, 0, 26},  /* strs yStrikeoutSize */
    {SRC_OS2, 0, 28},  /* stro yStrikeoutPosition */
    {SRC_POST, 0, 10}, /* unds underlineThickness */
    {SRC_POST, 0, 8},  /* undo underlinePosition */
    {SRC_GASP, 1, 4},  {SRC_GASP, 1, 8},  {SRC_GASP, 1, 12}, {SRC_GASP, 1, 16}, /* gsp0..3 */
    {SRC_GASP, 1, 20}, {SRC_GASP, 1, 24}, {SRC_GASP, 1, 28}, {SRC_GASP, 1, 32}, /* gsp4..7 */
    {SRC_GASP, 1, 36}, {SRC_GASP, 1, 40},                                       /* gsp8..9 */
};

int otv_mvar_tag_index(uint32_t tag)
{
  for (int i = 0; i < OTV_MVAR_TAG_COUNT; i++)
    if (otv_mvar_tags[i] == tag) return i;
  return -1;
}

otv_status otv_mvar_parse(const otv_face *f, otv_mvar *out, otv_error *err)
{
  memset(out, 0, sizeof *out);
  uint32_t tag = OTV_T_MVAR;
  otv_span tab = otv_face_span(f, tag);
  if (!tab.p || !f->fvar.axis_count) return OTV_E_OK; /* nothing to vary without fvar */
  otv_rd r = otv_rd_init(tab, 0);
  uint16_t major = otv_rd_u16(&r);
  otv_rd_skip(&r, 4); /* minorVersion, reserved */
  uint16_t rec_size = otv_rd_u16(&r);
  uint16_t rec_count = otv_rd_u16(&r);
  uint16_t ivs_off = otv_rd_u16(&r);
  if (!otv_rd_ok(&r)) return OTV_FAIL_RD(err, tag, 0, &r, "MVAR header");
  if (major != 1) return OTV_FAIL(err, UNSUPPORTED, tag, 0, "majorVersion %u", major);
  if (!rec_count) return OTV_E_OK; /* spec: no records, the store offset may be NULL */
  if (rec_size < 8)
    return OTV_FAIL(err, BAD_VALUE, tag, 6, "valueRecordSize %u is less than 8", rec_size);
  otv_span recs;
  if (!otv_span_array(tab, r.pos, rec_count, rec_size, &recs))
    return OTV_FAIL(err, TRUNCATED, tag, r.pos, "%u value records of %u bytes", rec_count,
                    rec_size);
  if (!ivs_off)
    return OTV_FAIL(err, BAD_OFFSET, tag, 10, "itemVariationStoreOffset is NULL with %u records",
                    rec_count);
  if (ivs_off >= tab.len)
    return OTV_FAIL(err, BAD_OFFSET, tag, 10, "itemVariationStoreOffset 0x%x past the end",
                    ivs_off);
  otv_status s = otv_ivs_parse(&f->al, tab, tag, ivs_off, f->fvar.axis_count, &out->ivs, err);
  if (s) return s;
  for (unsigned i = 0; i < rec_count; i++) {
    /* in range: recs checked above (rec_size >= 8) */
    const uint8_t *p = recs.p + (size_t)i * rec_size;
    int k = otv_mvar_tag_index(otv_peek_u32(p));
    if (k < 0 || out->has[k]) continue;
    out->has[k] = true;
    out->outer[k] = otv_peek_u16(p + 4);
    out->inner[k] = otv_peek_u16(p + 6);
  }
  out->present = true;
  return OTV_E_OK;
}

void otv_mvar_free(const otv_alloc *al, otv_mvar *m)
{
  otv_ivs_free(al, &m->ivs);
  memset(m, 0, sizeof *m);
}

/* Base value of tag index k, false when the font has no such field. */
static bool base_value(const otv_metrics *m, int k, float *out)
{
  const mvar_src *s = &srcs[k];
  otv_span t;
  switch (s->table) {
  case SRC_OS2: t = m->os2; break;
  case SRC_HHEA: t = m->hhea; break;
  case SRC_VHEA: t = m->vhea; break;
  case SRC_POST: t = m->post; break;
  default: t = m->gasp; break;
  }
  if (!t.p || !otv_span_has(t, s->off, 2)) return false;
  if (s->table == SRC_OS2 && s->off >= 86) {
    /* sxHeight and sCapHeight exist from OS/2 version 2 on. */
    if (otv_span_has(t, 0, 2) && otv_peek_u16(t.p) < 2) return false;
  }
  if (s->table == SRC_GASP) {
    /* gspN exists when gasp has more than N ranges. */
    if (!otv_span_has(t, 2, 2)) return false;
    unsigned ranges = otv_peek_u16(t.p + 2);
    if ((unsigned)(s->off - 4) / 4 >= ranges) return false;
  }
  /* in range: otv_span_has(t, off, 2) above */
  const uint8_t *p = t.p + s->off;
  *out = s->is_unsigned ? (float)otv_peek_u16(p) : (float)otv_peek_i16(p);
  return true;
}

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
    otv_span t = extras[i].table == 0 ? m->hhea : extras[i].table == 1 ? m->head : m->post;
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
  if (k < 0 || !base_value(m, k, &v)) {
    char s[5];
    otv_tag_to_string(tag, s);
    return otv_loc_fail(loc, OTV_E_NOT_FOUND, OTV_T_MVAR, 0, "no base value for '%s'", s);
  }
  if (m->mvar.present && m->mvar.has[k] && !loc->is_default) {
    const float *sc = otv_ivs_cache_get(loc, &m->mvar.ivs, &loc->met.mvar);
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
otv_status otv_metrics_ascent_descent(otv_location *loc, float *asc, float *desc)
{
  const otv_face *f = loc->face;
  const otv_metrics *m = &f->met;
  float a, d;
  /* in range: each branch checks its span first */
  if (otv_span_has(m->os2, 0, 78) && (otv_peek_u16(m->os2.p + 62) & 0x80)) {
    a = (float)otv_peek_i16(m->os2.p + 68);
    d = (float)otv_peek_i16(m->os2.p + 70);
  } else if (otv_span_has(m->hhea, 0, 8)) {
    a = (float)otv_peek_i16(m->hhea.p + 4);
    d = (float)otv_peek_i16(m->hhea.p + 6);
  } else {
    /* HarfBuzz's fallback: int(0.8 * upem) and that minus upem */
    *asc = (float)(int)(f->units_per_em * 0.8);
    *desc = *asc - (float)f->units_per_em;
    return OTV_E_OK;
  }
  if (m->mvar.present && !loc->is_default && (m->mvar.has[0] || m->mvar.has[1])) {
    const float *sc = otv_ivs_cache_get(loc, &m->mvar.ivs, &loc->met.mvar);
    if (!sc) return OTV_E_NOMEM;
    /* otv_mvar_tags[0] = hasc, [1] = hdsc */
    if (m->mvar.has[0]) a += otv_ivs_delta(&m->mvar.ivs, sc, m->mvar.outer[0], m->mvar.inner[0]);
    if (m->mvar.has[1]) d += otv_ivs_delta(&m->mvar.ivs, sc, m->mvar.outer[1], m->mvar.inner[1]);
  }
  *asc = fabsf(a);
  *desc = -fabsf(d);
  return OTV_E_OK;
}

/*
 * mvar.c - MVAR (spec: mvar) and the font-wide values it varies: OS/2, hhea, vhea, post and
 * gasp fields named by the registered value tags (spec: mvar "Value tags").
 *
 * MVAR header: majorVersion, minorVersion, reserved, valueRecordSize, valueRecordCount,
 * itemVariationStoreOffset (Offset16), then valueRecordCount records of valueRecordSize bytes
 * (>= 8): valueTag, deltaSetOuterIndex, deltaSetInnerIndex. Unknown tags are ignored (spec:
 * "unrecognized tags should be ignored"); when a tag occurs twice the first record wins.
 */
#include "mvar.h"

#define T(s) OTV_TAG(s[0], s[1], s[2], s[3])

/* Where the base value of each tag lives. is_unsigned: uint16 field (usWin*, rangeMaxPPEM). */
enum { SRC_OS2, SRC_HHEA, SRC_VHEA, SRC_POST, SRC_GASP };
typedef struct mvar_src {
  uint8_t table;
  uint8_t is_unsigned;
  uint16_t off; /* byte offset of the field in its table */
} mvar_src;
static const uint32_t src_tags[] = {OTV_T_OS2, OTV_T_HHEA, OTV_T_VHEA, OTV_T_POST, OTV_T_GASP};

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

otv_status otv_mvar_parse(otv_span tab, uint16_t axis_count, const otv_alloc *al, otv_mvar *out,
                          otv_error *err)
{
  memset(out, 0, sizeof *out);
  uint32_t tag = OTV_T_MVAR;
  if (!tab.p || !axis_count) return OTV_E_OK; /* nothing to vary without fvar */
  otv_rd r = otv_rd_init(tab, 0);
  uint16_t major = otv_rd_u16(&r);
  otv_rd_skip(&r, 4); /* minorVersion, reserved */
  uint16_t rec_size = otv_rd_u16(&r);
  uint16_t rec_count = otv_rd_u16(&r);
  uint16_t ivs_off = otv_rd_u16(&r);
  if (!otv_rd_ok(&r)) return OTV_FAIL_RD(err, tag, 0, &r, "MVAR header");
  if (major != 1) return OTV_FAIL(err, UNSUPPORTED, tag, 0, "majorVersion %u", major);
  out->record_size = rec_size;
  out->record_count = rec_count;
  out->ivs_off = ivs_off;
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
  otv_status s = otv_ivs_parse(al, tab, tag, ivs_off, axis_count, &out->ivs, err);
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

void otv_mvar_field_of(int k, otv_mvar_field *out)
{
  const mvar_src *src = &srcs[k];
  out->table = src_tags[src->table];
  out->off = src->off;
  out->is_unsigned = src->is_unsigned != 0;
}

bool otv_mvar_base_value(const otv_mvar_bases *b, int k, float *out)
{
  const mvar_src *s = &srcs[k];
  otv_span t;
  switch (s->table) {
  case SRC_OS2: t = b->os2; break;
  case SRC_HHEA: t = b->hhea; break;
  case SRC_VHEA: t = b->vhea; break;
  case SRC_POST: t = b->post; break;
  default: t = b->gasp; break;
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

/*
 * hmtx.c - hhea/hmtx, vhea/vmtx and VORG, parsed at open (spec: hhea, hmtx, vhea, vmtx, VORG).
 */
#include "hmtx.h"
#include "fields.h"

otv_status otv_mtx_parse(otv_span hea, otv_span mtx, bool vertical, uint32_t glyph_count,
                         otv_mtx *out, otv_error *err)
{
  memset(out, 0, sizeof *out);
  uint32_t hea_tag = vertical ? OTV_T_VHEA : OTV_T_HHEA;
  uint32_t mtx_tag = vertical ? OTV_T_VMTX : OTV_T_HMTX;
  if (!hea.p || !mtx.p) return OTV_E_OK; /* no metrics of this direction */
  otv_rd r = otv_rd_init(hea, HHEA_NUMBER_OF_LONG_METRICS);
  uint32_t n = otv_rd_u16(&r);
  if (!otv_rd_ok(&r))
    return OTV_FAIL_RD(err, hea_tag, 0, &r,
                       vertical ? "vhea is shorter than 36 bytes"
                                : "hhea is shorter than 36 bytes");
  if (n > glyph_count) n = glyph_count; /* extra records are unused */
  if (n == 0 && glyph_count)
    return OTV_FAIL(err, BAD_VALUE, hea_tag, 34, "%s is 0",
                    vertical ? "numOfLongVerMetrics" : "numberOfHMetrics");
  otv_span longs;
  if (!otv_span_array(mtx, 0, n, 4, &longs))
    return OTV_FAIL(err, TRUNCATED, mtx_tag, 0, "%u long metrics records need %zu bytes, have %zu",
                    n, (size_t)n * 4, mtx.len);
  size_t room = (mtx.len - longs.len) / 2;
  uint32_t want = glyph_count - n;
  out->long_count = n;
  out->side_count = room < want ? (uint32_t)room : want;
  out->longs = longs.p;
  out->sides = mtx.p + longs.len;
  out->present = true;
  return OTV_E_OK;
}

otv_status otv_vorg_parse(otv_span t, otv_vorg *out, otv_error *err)
{
  memset(out, 0, sizeof *out);
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
  out->present = true;
  out->default_y = def;
  out->count = count;
  out->recs = recs.p;
  return OTV_E_OK;
}

int otv_vorg_y(const otv_vorg *v, uint32_t gid)
{
  uint32_t lo = 0, hi = v->count;
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    /* in range: recs span checked in otv_vorg_parse */
    const uint8_t *p = v->recs + 4 * (size_t)mid;
    uint32_t g = otv_peek_u16(p);
    if (g == gid) return otv_peek_i16(p + 2);
    if (g < gid)
      lo = mid + 1;
    else
      hi = mid;
  }
  return v->default_y;
}

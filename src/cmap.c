/*
 * cmap.c - Unicode to glyph (spec: cmap). Nominal mapping from the best Unicode subtable
 * (format 12 for the full repertoire: (3,10), (0,4), (0,6); else format 4: (3,1), (0,3), (0,2),
 * (0,1), (0,0)), and Unicode Variation Sequences from format 14 ((0,5)).
 * The chosen subtables' headers and arrays are checked at open, so lookups read them unchecked.
 */
#include "cmap.h"

#define T_CMAP OTV_T_CMAP

/* Rank of an encoding record for a nominal subtable of format fmt (higher is better; 0:
 * unusable). */
static int rank(unsigned platform, unsigned encoding, unsigned fmt)
{
  if (fmt == 12 &&
      ((platform == 3 && encoding == 10) || (platform == 0 && (encoding == 4 || encoding == 6))))
    return 3;
  if (fmt == 4 && ((platform == 3 && encoding == 1) || (platform == 0 && encoding <= 3))) return 2;
  return 0;
}

static otv_status check_sub(otv_span tab, size_t off, unsigned fmt, otv_cmap *c, otv_error *err)
{
  otv_rd r = otv_rd_init(tab, off);
  otv_span s;
  if (fmt == 4) {
    otv_rd_skip(&r, 2);
    uint16_t len = otv_rd_u16(&r);
    otv_rd_skip(&r, 2);
    uint16_t seg2 = otv_rd_u16(&r);
    if (!otv_rd_ok(&r)) return OTV_FAIL_RD(err, T_CMAP, 0, &r, "format 4 header");
    if (seg2 & 1) return OTV_FAIL(err, BAD_VALUE, T_CMAP, off + 6, "segCountX2 %u is odd", seg2);
    /* lenient on `length` (fonts in the wild get it wrong): the arrays must fit the table */
    (void)len;
    size_t need = 14 + 4 * (size_t)seg2 + 2;
    if (!otv_span_sub(tab, off, need, &s))
      return OTV_FAIL(err, TRUNCATED, T_CMAP, off, "format 4 with %u segments", seg2 / 2u);
    s = otv_span_from(tab, off); /* glyphIdArray runs to the end of the table at most */
    c->count = seg2 / 2u;
  } else {
    otv_rd_skip(&r, 4);
    uint32_t len = otv_rd_u32(&r);
    otv_rd_skip(&r, 4);
    uint32_t n = otv_rd_u32(&r);
    if (!otv_rd_ok(&r)) return OTV_FAIL_RD(err, T_CMAP, 0, &r, "format 12 header");
    (void)len;
    if (!otv_span_array(tab, off + 16, n, 12, &s))
      return OTV_FAIL(err, TRUNCATED, T_CMAP, off + 12, "format 12 with %u groups", n);
    s = otv_span_from(tab, off);
    c->count = n;
  }
  c->sub = s;
  c->format = (uint16_t)fmt;
  return OTV_E_OK;
}

otv_status otv_cmap_parse(otv_span tab, otv_cmap *out, otv_error *err)
{
  otv_cmap *c = out;
  memset(c, 0, sizeof *c);
  if (!tab.p) return OTV_E_OK;
  otv_rd r = otv_rd_init(tab, 0);
  otv_rd_skip(&r, 2);
  uint16_t n = otv_rd_u16(&r);
  otv_span recs;
  if (!otv_rd_ok(&r) || !otv_span_array(tab, 4, n, 8, &recs))
    return OTV_FAIL(err, TRUNCATED, T_CMAP, 0, "%u encoding records", n);
  int best = 0;
  size_t best_off = 0;
  unsigned best_fmt = 0;
  for (unsigned i = 0; i < n; i++) {
    /* in range: recs checked above */
    const uint8_t *e = recs.p + 8 * i;
    unsigned pl = otv_peek_u16(e), enc = otv_peek_u16(e + 2);
    size_t off = otv_peek_u32(e + 4);
    otv_rd sr = otv_rd_init(tab, off);
    unsigned fmt = otv_rd_u16(&sr);
    if (!otv_rd_ok(&sr))
      return OTV_FAIL(err, BAD_OFFSET, T_CMAP, 8 + 8 * (size_t)i, "subtable offset 0x%zx", off);
    if (fmt == 14 && pl == 0 && enc == 5 && !c->uvs.p) {
      otv_rd ur = otv_rd_init(tab, off + 6);
      uint32_t nv = otv_rd_u32(&ur);
      otv_span vr;
      if (!otv_rd_ok(&ur) || !otv_span_array(tab, off + 10, nv, 11, &vr))
        return OTV_FAIL(err, TRUNCATED, T_CMAP, off, "format 14 with %u records", nv);
      c->uvs = otv_span_from(tab, off);
      c->uvs_count = nv;
      continue;
    }
    int k = rank(pl, enc, fmt);
    if (k > best) {
      best = k;
      best_off = off;
      best_fmt = fmt;
    }
  }
  if (best) {
    otv_status s = check_sub(tab, best_off, best_fmt, c, err);
    if (s) return s;
  }
  c->present = true;
  return OTV_E_OK;
}

static uint32_t lookup4(const otv_cmap *c, uint32_t cp)
{
  if (cp > 0xFFFF) return 0;
  /* in range: 14 + 4 * segCount + 2 bytes checked in check_sub */
  const uint8_t *p = c->sub.p;
  unsigned segs = c->count;
  const uint8_t *end_codes = p + 14, *start_codes = end_codes + 2 * segs + 2;
  const uint8_t *deltas = start_codes + 2 * segs, *ranges = deltas + 2 * segs;
  unsigned lo = 0, hi = segs;
  while (lo < hi) { /* first segment with endCode >= cp */
    unsigned mid = (lo + hi) / 2;
    if (otv_peek_u16(end_codes + 2 * mid) < cp)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo >= segs) return 0;
  unsigned start = otv_peek_u16(start_codes + 2 * lo);
  if (cp < start) return 0;
  unsigned delta = otv_peek_u16(deltas + 2 * lo), ro = otv_peek_u16(ranges + 2 * lo);
  if (ro == 0) return (cp + delta) & 0xFFFFu;
  /* spec: glyphId = *(idRangeOffset[i]/2 + (c - startCode[i]) + &idRangeOffset[i]) */
  size_t at = (size_t)(ranges + 2 * lo - p) + ro + 2 * (size_t)(cp - start);
  if (!otv_span_has(c->sub, at, 2)) return 0;
  unsigned g = otv_peek_u16(p + at);
  return g ? (g + delta) & 0xFFFFu : 0;
}

static uint32_t lookup12(const otv_cmap *c, uint32_t cp)
{
  /* in range: count groups of 12 bytes at 16 checked in check_sub */
  const uint8_t *g = c->sub.p + 16;
  uint32_t lo = 0, hi = c->count;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    const uint8_t *e = g + 12 * (size_t)mid;
    if (otv_peek_u32(e + 4) < cp)
      lo = mid + 1;
    else if (otv_peek_u32(e) > cp)
      hi = mid;
    else
      return otv_peek_u32(e + 8) + (cp - otv_peek_u32(e));
  }
  return 0;
}

/* Format 14: 1 = default (use the nominal glyph), 2 = *gid set, 0 = not listed. */
static int lookup14(const otv_cmap *c, uint32_t cp, uint32_t vs, uint32_t *gid)
{
  const uint8_t *recs = c->uvs.p + 10; /* in range: uvs_count x 11 bytes checked at parse */
  uint32_t lo = 0, hi = c->uvs_count;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    const uint8_t *e = recs + 11 * (size_t)mid;
    uint32_t v = otv_peek_u24(e);
    if (v < vs) {
      lo = mid + 1;
    } else if (v > vs) {
      hi = mid;
    } else {
      size_t def = otv_peek_u32(e + 3), nondef = otv_peek_u32(e + 7);
      otv_rd r;
      if (def) { /* DefaultUVS: ranges (startUnicodeValue u24, additionalCount u8) */
        r = otv_rd_init(c->uvs, def);
        uint32_t n = otv_rd_u32(&r);
        otv_span a;
        if (otv_rd_ok(&r) && otv_span_array(c->uvs, def + 4, n, 4, &a)) {
          uint32_t l = 0, h = n;
          while (l < h) {
            uint32_t m = l + (h - l) / 2;
            uint32_t s = otv_peek_u24(a.p + 4 * (size_t)m), cnt = a.p[4 * (size_t)m + 3];
            if (s + cnt < cp)
              l = m + 1;
            else if (s > cp)
              h = m;
            else
              return 1;
          }
        }
      }
      if (nondef) { /* NonDefaultUVS: mappings (unicodeValue u24, glyphID u16) */
        r = otv_rd_init(c->uvs, nondef);
        uint32_t n = otv_rd_u32(&r);
        otv_span a;
        if (otv_rd_ok(&r) && otv_span_array(c->uvs, nondef + 4, n, 5, &a)) {
          uint32_t l = 0, h = n;
          while (l < h) {
            uint32_t m = l + (h - l) / 2;
            uint32_t u = otv_peek_u24(a.p + 5 * (size_t)m);
            if (u < cp)
              l = m + 1;
            else if (u > cp)
              h = m;
            else {
              *gid = otv_peek_u16(a.p + 5 * (size_t)m + 3);
              return 2;
            }
          }
        }
      }
      return 0;
    }
  }
  return 0;
}

uint32_t otv_cmap_lookup(const otv_cmap *c, uint32_t cp, uint32_t vs, uint32_t glyph_count)
{
  uint32_t g = 0;
  if (vs && c->uvs.p && lookup14(c, cp, vs, &g) == 2) return g < glyph_count ? g : 0;
  /* a default variation sequence, an unlisted one, or no vs: the nominal glyph */
  if (c->format == 4)
    g = lookup4(c, cp);
  else if (c->format == 12)
    g = lookup12(c, cp);
  return g < glyph_count ? g : 0;
}

/*
 * hmtx.h - the metrics tables read as they are stored: hhea + hmtx, vhea + vmtx (spec: hmtx,
 * vmtx: long metrics then trailing side bearings) and VORG. The one reader of these tables: the
 * metrics API (metrics.c), the phantom points of glyf.c and the instancers use it. Implemented
 * in hmtx.c; the accessors are inline (hot paths).
 */
#ifndef OTV_HMTX_H
#define OTV_HMTX_H

#include "core/core.h"

/* One metrics table with its header: hmtx + hhea, or vmtx + vhea. */
typedef struct otv_mtx {
  bool present;         /* both the header and the metrics table exist */
  const uint8_t *longs; /* long_count records {u16 advance, i16 side bearing} (checked) */
  const uint8_t *sides; /* side_count trailing i16 side bearings (checked; may be fewer than
                           glyph_count - long_count in a truncated table: the rest read 0) */
  uint32_t long_count;  /* number(Of)HMetrics / numOfLongVerMetrics, clamped to glyph_count */
  uint32_t side_count;
} otv_mtx;

/* VORG: the vertical origin of CFF glyphs. */
typedef struct otv_vorg {
  bool present;
  int16_t default_y; /* defaultVertOriginY */
  uint16_t count;
  const uint8_t *recs; /* count {u16 glyphIndex, i16 vertOriginY} (checked) */
} otv_vorg;

/* hea + mtx (either may be empty: no metrics of that direction, present stays false). Both
 * headers keep the long-metrics count at byte 34. vertical: names the tables in errors. A count
 * of 0 with glyphs is BAD_VALUE; a table that ends before its trailing side bearings is read
 * as if the missing ones were 0 (real fonts have this; FreeType and HarfBuzz accept it). */
otv_status otv_mtx_parse(otv_span hea, otv_span mtx, bool vertical, uint32_t glyph_count,
                         otv_mtx *out, otv_error *err);
otv_status otv_vorg_parse(otv_span tab, otv_vorg *out, otv_error *err);

/* spec: glyphs past the long metrics repeat the last advance and take their side bearing from
 * the trailing array. m->present, gid < glyph_count. */
static inline unsigned otv_mtx_advance(const otv_mtx *m, uint32_t gid)
{
  uint32_t i = gid < m->long_count ? gid : m->long_count - 1;
  /* in range: longs span (long_count x 4) checked in otv_mtx_parse; long_count >= 1 */
  return otv_peek_u16(m->longs + 4 * (size_t)i);
}

static inline int otv_mtx_side(const otv_mtx *m, uint32_t gid)
{
  if (gid < m->long_count) return otv_peek_i16(m->longs + 4 * (size_t)gid + 2);
  uint32_t i = gid - m->long_count;
  /* in range: sides span (side_count x 2) checked in otv_mtx_parse */
  return i < m->side_count ? otv_peek_i16(m->sides + 2 * (size_t)i) : 0;
}

/* The vertical origin of a glyph (VORG present). */
int otv_vorg_y(const otv_vorg *v, uint32_t gid);

#endif /* OTV_HMTX_H */

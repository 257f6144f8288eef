/*
 * outline.c - the public outline calls, dispatched to the TrueType (glyf.c) or CFF (cff.c)
 * implementation by the face's flavour.
 */
#include "face.h"

otv_status otv_glyph_outline(otv_location *loc, uint32_t gid, unsigned flags, const otv_pen *pen,
                             void *ctx)
{
  static const otv_pen null_pen = {0};
  if (!loc) return OTV_E_ARG;
  if (!pen) pen = &null_pen;
  if (gid >= loc->face->glyph_count)
    return otv_loc_fail(loc, OTV_E_ARG, 0, 0, "glyph %u: the font has %u glyphs", gid,
                        loc->face->glyph_count);
  switch (loc->face->flavour) {
  case OTV_FLAVOUR_GLYF: return otv_glyf_outline(&loc->glyf, gid, flags, pen, ctx);
  case OTV_FLAVOUR_CFF:
  case OTV_FLAVOUR_CFF2: return otv_cff_outline(&loc->cff, gid, flags, pen, ctx);
  case OTV_FLAVOUR_NONE: break;
  }
  return otv_loc_fail(loc, OTV_E_NO_TABLE, 0, 0, "the font has no glyf, CFF or CFF2 outlines");
}

otv_status otv_glyph_points_get(otv_location *loc, uint32_t gid, unsigned flags,
                                otv_glyph_points *io)
{
  if (!loc || !io) return OTV_E_ARG;
  if (gid >= loc->face->glyph_count)
    return otv_loc_fail(loc, OTV_E_ARG, 0, 0, "glyph %u: the font has %u glyphs", gid,
                        loc->face->glyph_count);
  switch (loc->face->flavour) {
  case OTV_FLAVOUR_GLYF: return otv_glyf_points(&loc->glyf, gid, flags, io);
  case OTV_FLAVOUR_CFF:
  case OTV_FLAVOUR_CFF2: return otv_cff_points(&loc->cff, gid, flags, io);
  case OTV_FLAVOUR_NONE: break;
  }
  return otv_loc_fail(loc, OTV_E_NO_TABLE, 0, 0, "the font has no glyf, CFF or CFF2 outlines");
}

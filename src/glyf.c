/* glyf.c - placeholder until the glyf/gvar module lands (issue 3). */
#include "internal.h"
otv_status otv_glyf_parse(otv_face *f, otv_error *err) { (void)f; (void)err; return OTV_E_OK; }
void otv_glyf_free(otv_face *f) { (void)f; }
void otv_glyf_loc_free(otv_location *loc) { (void)loc; }
otv_status otv_glyf_outline(otv_location *loc, uint32_t gid, unsigned flags, const otv_pen *pen, void *ctx)
{ (void)flags; (void)pen; (void)ctx; return otv_loc_fail(loc, OTV_E_UNSUPPORTED, OTV_T_GLYF, 0, "glyph %u", gid); }
otv_status otv_glyf_points(otv_location *loc, uint32_t gid, unsigned flags, otv_glyph_points *io)
{ (void)flags; (void)io; return otv_loc_fail(loc, OTV_E_UNSUPPORTED, OTV_T_GLYF, 0, "glyph %u", gid); }
otv_status otv_glyf_phantoms(otv_location *loc, uint32_t gid, otv_point ph[4])
{ (void)ph; return otv_loc_fail(loc, OTV_E_UNSUPPORTED, OTV_T_GLYF, 0, "glyph %u", gid); }

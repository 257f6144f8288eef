/* cff.c - placeholder until the CFF/CFF2 module lands (issue 5). */
#include "internal.h"
otv_status otv_cff_parse(otv_face *f, otv_error *err) { (void)f; (void)err; return OTV_E_OK; }
void otv_cff_free(otv_face *f) { (void)f; }
void otv_cff_loc_free(otv_location *loc) { (void)loc; }
otv_status otv_cff_outline(otv_location *loc, uint32_t gid, unsigned flags, const otv_pen *pen, void *ctx)
{ (void)flags; (void)pen; (void)ctx; return otv_loc_fail(loc, OTV_E_UNSUPPORTED, OTV_T_CFF2, 0, "glyph %u", gid); }
otv_status otv_cff_points(otv_location *loc, uint32_t gid, unsigned flags, otv_glyph_points *io)
{ (void)flags; (void)io; return otv_loc_fail(loc, OTV_E_UNSUPPORTED, OTV_T_CFF2, 0, "glyph %u", gid); }

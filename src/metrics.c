/* metrics.c - placeholder until the metrics module lands (issue 4). */
#include "internal.h"
otv_status otv_metrics_parse(otv_face *f, otv_error *err) { (void)f; (void)err; return OTV_E_OK; }
void otv_metrics_free(otv_face *f) { (void)f; }
void otv_metrics_loc_free(otv_location *loc) { (void)loc; }
otv_status otv_glyph_h_metrics(otv_location *loc, uint32_t gid, unsigned flags, otv_glyph_metrics *out)
{ (void)flags; (void)out; return otv_loc_fail(loc, OTV_E_UNSUPPORTED, OTV_T_HMTX, 0, "glyph %u", gid); }
otv_status otv_glyph_v_metrics(otv_location *loc, uint32_t gid, unsigned flags, otv_glyph_metrics *out)
{ (void)flags; (void)out; return otv_loc_fail(loc, OTV_E_UNSUPPORTED, OTV_T_VMTX, 0, "glyph %u", gid); }
otv_status otv_glyph_advances(otv_location *loc, const uint32_t *gids, size_t n, unsigned flags, float *out)
{ (void)gids; (void)n; (void)flags; (void)out; return otv_loc_fail(loc, OTV_E_UNSUPPORTED, OTV_T_HMTX, 0, "advances"); }
otv_status otv_font_metric(otv_location *loc, uint32_t tag, unsigned flags, float *out)
{ (void)tag; (void)flags; (void)out; return otv_loc_fail(loc, OTV_E_UNSUPPORTED, OTV_T_MVAR, 0, "metric"); }

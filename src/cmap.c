/* cmap.c - placeholder until the cmap module lands (issue 3). */
#include "internal.h"
otv_status otv_cmap_parse(otv_face *f, otv_error *err) { (void)f; (void)err; return OTV_E_OK; }
void otv_cmap_free(otv_face *f) { (void)f; }
uint32_t otv_face_glyph_for_char(const otv_face *f, uint32_t cp, uint32_t vs) { (void)f; (void)cp; (void)vs; return 0; }

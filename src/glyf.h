/*
 * glyf.h - TrueType outlines: glyf/loca and gvar (tuple variations, IUP, phantom points,
 * composites). Implemented in glyf.c and gvar.c.
 */
#ifndef OTV_GLYF_H
#define OTV_GLYF_H
typedef struct otv_glyf {
  bool present;
} otv_glyf;
typedef struct otv_glyf_loc {
  int unused;
} otv_glyf_loc;
otv_status otv_glyf_parse(otv_face *f, otv_error *err);
void otv_glyf_free(otv_face *f);
void otv_glyf_loc_free(otv_location *loc);
otv_status otv_glyf_outline(otv_location *loc, uint32_t gid, unsigned flags, const otv_pen *pen,
                            void *ctx);
otv_status otv_glyf_points(otv_location *loc, uint32_t gid, unsigned flags,
                           otv_glyph_points *io);
/* The 4 phantom points of a glyph at the location (left origin, advance, top origin, bottom),
 * for metrics when HVAR/VVAR are absent. */
otv_status otv_glyf_phantoms(otv_location *loc, uint32_t gid, otv_point ph[4]);
#endif

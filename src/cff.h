/*
 * cff.h - CFF and CFF2 outlines: INDEXes, DICTs, FDSelect, the Type 2 charstring interpreter with
 * blend and vsindex. Implemented in cff.c (tables) and charstring.c (interpreter).
 */
#ifndef OTV_CFF_H
#define OTV_CFF_H
typedef struct otv_cff {
  bool present;
} otv_cff;
typedef struct otv_cff_loc {
  int unused;
} otv_cff_loc;
otv_status otv_cff_parse(otv_face *f, otv_error *err);
void otv_cff_free(otv_face *f);
void otv_cff_loc_free(otv_location *loc);
otv_status otv_cff_outline(otv_location *loc, uint32_t gid, unsigned flags, const otv_pen *pen,
                           void *ctx);
otv_status otv_cff_points(otv_location *loc, uint32_t gid, unsigned flags, otv_glyph_points *io);
#endif

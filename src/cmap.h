/* cmap.h - character to glyph mapping (formats 4, 12, 14). Implemented in cmap.c. */
#ifndef OTV_CMAP_H
#define OTV_CMAP_H
typedef struct otv_cmap {
  bool present;
} otv_cmap;
otv_status otv_cmap_parse(otv_face *f, otv_error *err);
void otv_cmap_free(otv_face *f);
#endif

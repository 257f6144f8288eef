/*
 * cmap.h - character to glyph mapping: formats 4 and 12 (nominal) and 14 (variation sequences).
 * Implemented in cmap.c. Subtables are chosen and their arrays checked at open.
 */
#ifndef OTV_CMAP_H
#define OTV_CMAP_H
typedef struct otv_cmap {
  bool present;
  uint16_t format;    /* 4 or 12 (0: no usable Unicode subtable) */
  otv_span sub;       /* the chosen nominal subtable (arrays checked at parse) */
  uint32_t count;     /* format 4: segCount; format 12: numGroups */
  otv_span uvs;       /* format 14 subtable (records checked at parse; empty: none) */
  uint32_t uvs_count; /* numVarSelectorRecords */
} otv_cmap;
otv_status otv_cmap_parse(otv_face *f, otv_error *err);
void otv_cmap_free(otv_face *f);
#endif

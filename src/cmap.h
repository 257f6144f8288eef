/*
 * cmap.h - character to glyph mapping: formats 4 and 12 (nominal) and 14 (variation sequences).
 * Implemented in cmap.c. Subtables are chosen and their arrays checked at open.
 */
#ifndef OTV_CMAP_H
#define OTV_CMAP_H

#include "core/core.h"

typedef struct otv_cmap {
  bool present;
  uint16_t format;    /* 4 or 12 (0: no usable Unicode subtable) */
  otv_span sub;       /* the chosen nominal subtable (arrays checked at parse) */
  uint32_t count;     /* format 4: segCount; format 12: numGroups */
  otv_span uvs;       /* format 14 subtable (records checked at parse; empty: none) */
  uint32_t uvs_count; /* numVarSelectorRecords */
} otv_cmap;
/* tab may be empty (no cmap: present stays false). */
otv_status otv_cmap_parse(otv_span tab, otv_cmap *out, otv_error *err);
/* The glyph of code point cp (variation selector vs, 0: none) as otv_face_glyph_for_char
 * (otvar.h); glyph ids >= glyph_count read as 0. */
uint32_t otv_cmap_lookup(const otv_cmap *c, uint32_t cp, uint32_t vs, uint32_t glyph_count);
#endif

/*
 * hvar.h - HVAR and VVAR (spec: hvar, vvar): an ItemVariationStore and the DeltaSetIndexMaps of
 * the advance, the two side bearings and (VVAR) the vertical origin of each glyph. Implemented
 * in hvar.c.
 */
#ifndef OTV_HVAR_H
#define OTV_HVAR_H

#include "ivs.h"

/* Which value of a glyph (otv_xvar_delta). */
enum { OTV_XVAR_ADVANCE = 0, OTV_XVAR_SIDE_A = 1, OTV_XVAR_SIDE_B = 2, OTV_XVAR_VORG = 3 };

/* HVAR or VVAR: an ItemVariationStore and its DeltaSetIndexMaps. */
typedef struct otv_xvar {
  bool present;
  otv_ivs ivs;
  otv_dsim adv;      /* advance mapping (absent: implicit outer 0 / inner = glyph id) */
  otv_dsim side_a;   /* LSB (HVAR) / TSB (VVAR) mapping; absent: no side bearing deltas. Used
                      for TrueType outlines only (metrics.c): the delta applies to hmtx/vmtx */
  otv_dsim side_b;   /* RSB / BSB mapping (TrueType only): the delta applies to the default
                      RSB/BSB, advance - side bearing - glyf header box width/height */
  otv_dsim vorg;     /* VVAR only: vertical origin mapping */
  uint32_t ivs_off;  /* itemVariationStoreOffset */
  size_t header_len; /* 20 (HVAR) or 24 (VVAR) */
} otv_xvar;

/* tab may be empty, and is ignored without axes (present stays false). vertical: VVAR. */
otv_status otv_xvar_parse(otv_span tab, bool vertical, uint16_t axis_count, const otv_alloc *al,
                          otv_xvar *out, otv_error *err);
void otv_xvar_free(const otv_alloc *al, otv_xvar *x);
/* Deltas at the location's scalars. which: OTV_XVAR_*. Returns false when the table has no
 * mapping for that value (side bearings and origin). */
bool otv_xvar_delta(const otv_xvar *x, const float *scalars, unsigned which, uint32_t gid,
                    float *delta);
/* The row of value `which` of glyph gid: false when the table has no mapping for it (as
 * otv_xvar_delta). */
bool otv_xvar_row(const otv_xvar *x, unsigned which, uint32_t gid, uint32_t *outer,
                  uint32_t *inner);
/* The work (core/budget.h) of reading row (outer, inner): OTV_WORK_ROW + its columns. */
uint64_t otv_xvar_row_cost(const otv_xvar *x, uint32_t outer);

#endif /* OTV_HVAR_H */

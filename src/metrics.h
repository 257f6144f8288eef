/*
 * metrics.h - hmtx/hhea, vmtx/vhea, HVAR, VVAR, MVAR, VORG, and font-wide metrics.
 * Implemented in metrics.c (hmtx/vmtx/VORG readers, glyph metrics API), hvar.c (HVAR/VVAR) and
 * mvar.c (MVAR and the font-wide values of OS/2, hhea, vhea, post and gasp).
 */
#ifndef OTV_METRICS_H
#define OTV_METRICS_H

/* One metrics table with its header: hmtx + hhea, or vmtx + vhea. */
typedef struct otv_mtx {
  bool present;         /* both the header and the metrics table exist */
  const uint8_t *longs; /* long_count records {u16 advance, i16 side bearing} (checked) */
  const uint8_t *sides; /* side_count trailing i16 side bearings (checked; may be fewer than
                            glyph_count - long_count in a truncated table: the rest read 0) */
  uint32_t long_count;  /* number(Of)HMetrics / numOfLongVerMetrics, clamped to glyph_count */
  uint32_t side_count;
} otv_mtx;

/* HVAR or VVAR: an ItemVariationStore and its DeltaSetIndexMaps. */
typedef struct otv_xvar {
  bool present;
  otv_ivs ivs;
  otv_dsim adv;    /* advance mapping (absent: implicit outer 0 / inner = glyph id) */
  otv_dsim side_a; /* LSB (HVAR) / TSB (VVAR) mapping; absent: no side bearing deltas. Used
                      for TrueType outlines only (metrics.c): the delta applies to hmtx/vmtx */
  otv_dsim side_b; /* RSB / BSB mapping (TrueType only): the delta applies to the default
                      RSB/BSB, advance - side bearing - glyf header box width/height */
  otv_dsim vorg;   /* VVAR only: vertical origin mapping */
} otv_xvar;

/* The MVAR value tags we know: the registered ones of the MVAR chapter. Index = position in
 * otv_mvar_tags[] (mvar.c). */
#define OTV_MVAR_TAG_COUNT 38
extern const uint32_t otv_mvar_tags[OTV_MVAR_TAG_COUNT];

typedef struct otv_mvar {
  bool present;
  otv_ivs ivs;
  /* Per known tag (index as in otv_mvar_tags): its delta-set index, when MVAR has a record. */
  uint32_t outer[OTV_MVAR_TAG_COUNT];
  uint32_t inner[OTV_MVAR_TAG_COUNT];
  bool has[OTV_MVAR_TAG_COUNT];
} otv_mvar;

typedef struct otv_metrics {
  bool present;
  otv_mtx h, v;
  otv_xvar hvar, vvar;
  otv_mvar mvar;
  /* VORG */
  bool vorg_present;
  int16_t vorg_default;
  uint16_t vorg_count;
  const uint8_t *vorg_recs; /* vorg_count {u16 glyphIndex, i16 vertOriginY} (checked) */
  /* Font-wide tables (spans into the font; empty when absent). */
  otv_span os2, hhea, vhea, post, gasp, head;
} otv_metrics;

typedef struct otv_metrics_loc {
  otv_ivs_cache hvar, vvar, mvar;
} otv_metrics_loc;

otv_status otv_metrics_parse(otv_face *f, otv_error *err);
void otv_metrics_free(otv_face *f);
void otv_metrics_loc_free(otv_location *loc);

/* hvar.c: parse HVAR (vertical = false) or VVAR at open. */
otv_status otv_xvar_parse(const otv_face *f, bool vertical, otv_xvar *out, otv_error *err);
void otv_xvar_free(const otv_alloc *al, otv_xvar *x);
/* Deltas at the location's scalars. which: 0 advance, 1 side a, 2 side b, 3 vertical origin.
 * Returns false when the table has no mapping for that value (side bearings and origin). */
bool otv_xvar_delta(const otv_xvar *x, const float *scalars, unsigned which, uint32_t gid,
                    float *delta);

/* mvar.c */
otv_status otv_mvar_parse(const otv_face *f, otv_mvar *out, otv_error *err);
void otv_mvar_free(const otv_alloc *al, otv_mvar *m);
/* Index of a tag in otv_mvar_tags[], or -1. */
int otv_mvar_tag_index(uint32_t tag);
/* HarfBuzz's font-wide ascender (>= 0) and descender (<= 0) at the location, MVAR applied:
 * the basis of synthesized vertical metrics (OTV_METRICS_SYNTHESIZE). OTV_E_NOMEM only. */
otv_status otv_metrics_ascent_descent(otv_location *loc, float *asc, float *desc);

#endif

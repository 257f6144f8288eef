/*
 * metrics.h - what the metrics API (metrics.c: otv_glyph_h_metrics and friends, otv_font_metric)
 * reads: the face's metrics tables (hmtx.h, hvar.h, mvar.h) and the location's region-scalar
 * caches of their stores.
 */
#ifndef OTV_METRICS_H
#define OTV_METRICS_H

#include "hmtx.h"
#include "hvar.h"
#include "mvar.h"

typedef struct otv_metrics {
  bool present;
  otv_mtx h, v;
  otv_xvar hvar, vvar;
  otv_mvar mvar;
  otv_vorg vorg;
  /* Font-wide tables (spans into the font; empty when absent). */
  otv_mvar_bases bases; /* OS/2, hhea, vhea, post, gasp */
  otv_span head;
} otv_metrics;

typedef struct otv_metrics_loc {
  otv_ivs_cache hvar, vvar, mvar;
} otv_metrics_loc;

#endif /* OTV_METRICS_H */

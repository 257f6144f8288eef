/*
 * metrics.h - hmtx/hhea, vmtx/vhea, HVAR, VVAR, MVAR, VORG, and font-wide metrics.
 * Implemented in metrics.c, hvar.c and mvar.c.
 */
#ifndef OTV_METRICS_H
#define OTV_METRICS_H
typedef struct otv_metrics {
  bool present;
} otv_metrics;
typedef struct otv_metrics_loc {
  int unused;
} otv_metrics_loc;
otv_status otv_metrics_parse(otv_face *f, otv_error *err);
void otv_metrics_free(otv_face *f);
void otv_metrics_loc_free(otv_location *loc);
#endif

/*
 * avar.h - the axis variations table (spec: avar), versions 1 and 2: per-axis segment maps and
 * the avar 2 axisIndexMap and ItemVariationStore, parsed at open, and the two mappings.
 * Implemented in avar.c; fvar.h holds the face's avar in its otv_fvar.
 */
#ifndef OTV_AVAR_H
#define OTV_AVAR_H

#include "ivs.h"

/* One avar v1 SegmentMaps record (per axis), decoded at open: only the records the spec keeps
 * (strictly increasing fromCoordinate), as (from, to) pairs. */
typedef struct otv_avar_seg {
  const int16_t *map; /* count (fromCoordinate, toCoordinate) pairs, in the face's seg_pool */
  uint16_t count;     /* 0: identity (no map, or an invalid map ignored per spec) */
  const uint8_t *raw; /* the SegmentMaps record as stored (positionMapCount, then the maps) */
} otv_avar_seg;

typedef struct otv_avar {
  uint16_t version;    /* 0: no avar */
  otv_avar_seg *seg;   /* axis_count segment maps when avar is present (face allocator) */
  uint16_t axis_count; /* == fvar's (checked) */
  int16_t *seg_pool;   /* the decoded pairs of every segment map (face allocator) */
  size_t seg_pool_len; /* int16_t entries in seg_pool */
  otv_dsim map;        /* avar v2 axisIndexMap (present = false: implicit i -> i) */
  otv_ivs ivs;         /* avar v2 ItemVariationStore (present = false: no v2 deltas) */
} otv_avar;

/* Round to nearest with halves up, floor(x + 0.5), the rounding of every F2Dot14 conversion of
 * the normalization pipeline (see normalize.c). For |x| < 2^30. */
static inline int otv_round_half_up(float x)
{
  float t = x + 0.5f;
  int i = (int)t; /* truncates toward zero */
  return i - (t < (float)i);
}

/* Parse avar (tab may be empty: version stays 0) against fvar's axis count. */
otv_status otv_avar_parse(otv_span tab, uint16_t axis_count, const otv_alloc *al, otv_avar *out,
                          otv_error *err);
void otv_avar_free(const otv_alloc *al, otv_avar *av);
/* avar v1: map one default-normalized value through a segment map (identity without one), in
 * the arithmetic of each normalization model (normalize.c says which uses which):
 * _float: F2Dot14 in binary32, rounded halves up (*real: the unrounded result, set only when
 * interpolated); _fixed: 16.16 in integers; _double: fontTools' piecewiseLinearMap;
 * _binary32: current HarfBuzz's (see there). */
int otv_avar_map_v1_float(const otv_avar_seg *seg, int v, float *real);
int32_t otv_avar_map_v1_fixed(const otv_avar_seg *seg, int32_t v);
double otv_avar_map_v1_double(const otv_avar_seg *seg, double v);
/* current HarfBuzz's: on binary32 normalized values, the result unrounded */
float otv_avar_map_v1_binary32(const otv_avar_seg *seg, float v);
/* avar v2: the ItemVariationStore delta of every axis (F2Dot14 units, not rounded) at the
 * coordinates q (axis_count values in 16.16) into delta[axis_count]. scratch holds
 * ivs.region_count floats. */
void otv_avar_v2_deltas(const otv_avar *av, const int32_t *q, float *scratch, float *delta);

#endif /* OTV_AVAR_H */

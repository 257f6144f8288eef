/*
 * fvar.h - fvar (axes, named instances) and avar (v1 segment maps, v2 axisIndexMap + IVS), and
 * the user -> normalized coordinate pipeline. Implemented in fvar.c (fvar parsing and the
 * accessors behind the public ones), avar.c (avar parsing and mapping) and normalize.c (the
 * normalization pipeline).
 */
#ifndef OTV_FVAR_H
#define OTV_FVAR_H

#include "ivs.h"

/* One decoded VariationAxisRecord. */
typedef struct otv_fvar_axis {
  uint32_t tag;
  otv_fixed min_value, default_value, max_value; /* raw 16.16 fields */
  uint16_t flags;
  uint16_t name_id;
  /* The range used for normalization, in binary32 as the reference implementations evaluate it:
   * min is lowered to default and max raised to default when the font has them out of order
   * (spec: minValue <= defaultValue <= maxValue). */
  float nmin, ndef, nmax;
} otv_fvar_axis;

/* One avar v1 SegmentMaps record (per axis), decoded at open: only the records the spec keeps
 * (strictly increasing fromCoordinate), as (from, to) pairs. */
typedef struct otv_avar_seg {
  const int16_t *map; /* count (fromCoordinate, toCoordinate) pairs, in the face's seg_pool */
  uint16_t count;     /* 0: identity (no map, or an invalid map ignored per spec) */
  const uint8_t *raw; /* the SegmentMaps record as stored (positionMapCount, then the maps) */
} otv_avar_seg;

typedef struct otv_fvar {
  bool present;
  uint16_t axis_count;
  uint16_t instance_count;
  uint16_t instance_size;
  uint16_t axis_size;       /* axisSize (>= 20) */
  const uint8_t *axes;      /* axis records (stride axisSize >= 20; use `axis` instead) */
  const uint8_t *instances; /* instance_count x instance_size bytes (checked) */
  uint16_t avar_version;    /* 0: no avar */
  otv_fvar_axis *axis;      /* axis_count decoded records (face allocator) */
  otv_avar_seg *seg;        /* axis_count segment maps when avar is present (face allocator) */
  int16_t *seg_pool;        /* the decoded pairs of every segment map (face allocator) */
  size_t seg_pool_len;      /* int16_t entries in seg_pool */
  otv_dsim avar_map;        /* avar v2 axisIndexMap (present = false: implicit i -> i) */
  otv_ivs avar_ivs;         /* avar v2 ItemVariationStore (present = false: no v2 deltas) */
} otv_fvar;

/* Round to nearest with halves up, floor(x + 0.5), the rounding of every F2Dot14 conversion of
 * the normalization pipeline (see coords.c). For |x| < 2^30. */
static inline int otv_round_half_up(float x)
{
  float t = x + 0.5f;
  int i = (int)t; /* truncates toward zero */
  return i - (t < (float)i);
}

/* fvar then avar (avar may be empty; it is ignored without fvar). */
otv_status otv_fvar_parse(otv_span fvar, otv_span avar, const otv_alloc *al, otv_fvar *out,
                          otv_error *err);
void otv_fvar_free(const otv_alloc *al, otv_fvar *fv);
uint32_t otv_fvar_axis_tag(const otv_fvar *fv, unsigned axis);
double otv_fvar_axis_default(const otv_fvar *fv, unsigned axis);
/* The accessors behind otv_face_axes, otv_face_named_instances, otv_face_named_instance_coords
 * (otvar.h says what they return). */
unsigned otv_fvar_axes(const otv_fvar *fv, unsigned start, unsigned *count, otv_axis *out);
unsigned otv_fvar_named_instances(const otv_fvar *fv, unsigned start, unsigned *count,
                                  otv_named_instance *out);
otv_status otv_fvar_instance_coords(const otv_fvar *fv, unsigned instance, double *coords,
                                    unsigned cap, otv_error *err);
/* normalize.c: user[axis_count] -> out[axis_count]: clamp, default normalization, avar v1,
 * avar v2. */
otv_status otv_fvar_normalize(const otv_fvar *fv, const double *user, otv_f2dot14 *out,
                              const otv_alloc *al, otv_error *err);

/* avar.c: parse avar against the already parsed fvar (absent avar leaves avar_version 0). */
otv_status otv_avar_parse(otv_span avar, const otv_alloc *al, otv_fvar *fv, otv_error *err);
void otv_avar_free(const otv_alloc *al, otv_fvar *fv);
/* avar v1: map one default-normalized F2Dot14 value through a segment map. */
int otv_avar_map_v1(const otv_avar_seg *seg, int v);
/* avar v2: coords[axis_count] holds the v1 output on entry, the final coordinates on return.
 * scratch holds avar_ivs.region_count floats. */
void otv_avar_apply_v2(const otv_fvar *fv, otv_f2dot14 *coords, float *scratch);

#endif

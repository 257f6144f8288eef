/*
 * fvar.h - fvar (axes, named instances, with the face's avar: avar.h), and the user ->
 * normalized coordinate pipeline. Implemented in fvar.c (fvar parsing and the accessors behind
 * the public ones) and normalize.c (the normalization pipeline).
 */
#ifndef OTV_FVAR_H
#define OTV_FVAR_H

#include "avar.h"

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

typedef struct otv_fvar {
  bool present;
  uint16_t axis_count;
  uint16_t instance_count;
  uint16_t instance_size;
  uint16_t axis_size;       /* axisSize (>= 20) */
  const uint8_t *axes;      /* axis records (stride axisSize >= 20; use `axis` instead) */
  const uint8_t *instances; /* instance_count x instance_size bytes (checked) */
  otv_fvar_axis *axis;      /* axis_count decoded records (face allocator) */
  otv_avar avar;            /* avar (avar.h; version 0: none) */
} otv_fvar;

/* fvar then avar (avar may be empty; it is ignored without fvar: avar.version stays 0). */
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
/* One axis normalized (normalize.c; otv_face_normalize says what each field is). draw: the
 * 16.16 coordinate the location evaluates with (F2Dot14 x 4, or the 16.16 value for
 * OTV_NORM_FREETYPE). */
typedef struct otv_norm_result {
  int32_t fixed;
  int32_t draw;
  otv_f2dot14 f2;
  double real;
} otv_norm_result;

/* normalize.c: user[axis_count] -> out[axis_count] in a model: clamp, default normalization,
 * avar v1, avar v2. OTV_E_ARG for a NaN or an unknown model. */
otv_status otv_fvar_normalize(const otv_fvar *fv, otv_norm_model model, const double *user,
                              otv_norm_result *out, const otv_alloc *al, otv_error *err);

#endif

/*
 * coords.h - a location as the table modules see it: its normalized coordinates (with a serial
 * that changes whenever they change, which per-location caches compare), the allocator and
 * where its errors go; and the scalar of one region axis at a coordinate (spec:
 * otvarcommonformats, "Algorithm for interpolation of instance values"). Header only.
 *
 * The location object (face.h) holds one otv_coords and hands each table module an
 * otv_locctx when it is created, so that a module's per-location state needs its own header and
 * this one, not the face or the location.
 */
#ifndef OTV_COORDS_H
#define OTV_COORDS_H

#include "core/core.h"
#include "core/budget.h"

typedef struct otv_coords {
  const otv_f2dot14 *v; /* final normalized coordinates (after avar), axis_count entries */
  /* The same in 16.16, what every scalar is computed from: v x 4, except in the FreeType
   * normalization model, which evaluates at the 16.16 values (normalize.c). Region values
   * (F2Dot14) are scaled by 4 to compare: exact, and for v x 4 the scalars are the same floats. */
  const int32_t *q;
  unsigned axis_count;
  uint32_t serial; /* bumped whenever v changes; 0 is never a location's serial */
  bool is_default; /* every coordinate is 0 (in q) */
  bool fine;       /* some q is not a multiple of 4 (between F2Dot14 steps: the freetype model) */
} otv_coords;

/* What a module's per-location state evaluates with (set at location creation). Errors go
 * into *err with first-error-wins (otv_fail), as every call on a location records them. */
typedef struct otv_locctx {
  const otv_coords *at;
  const otv_alloc *al;
  otv_error *err;
  otv_budget *work; /* the location's work budget (core/budget.h); NULL: not counted */
} otv_locctx;

/* Scalar of one region axis (spec: otvarcommonformats "Algorithm for interpolation of
 * instance values"), all four values on one scale (16.16 here). An ill-formed axis (start >
 * peak > end, or crossing zero) counts as 1. */
static inline float otv_axis_scalar(int coord, int start, int peak, int end)
{
  if (start > peak || peak > end) return 1.0f;
  if (start < 0 && end > 0 && peak != 0) return 1.0f;
  if (peak == 0 || coord == peak) return 1.0f;
  if (coord <= start || coord >= end) return 0.0f;
  if (coord < peak) return (float)(coord - start) / (float)(peak - start);
  return (float)(end - coord) / (float)(end - peak);
}

#endif /* OTV_COORDS_H */

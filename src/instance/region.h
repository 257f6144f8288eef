/*
 * instance/region.h - where an instance is (the "pin"): its normalized coordinates, the axes kept
 * variable (partial instances) and the order fontTools pins axes in; and the scalars of a
 * variation region there, as factors per axis in that order (spec: otvarcommonformats
 * "Algorithm for interpolation of instance values"). Implemented in instance/region.c; the
 * bottom of src/instance/.
 */
#ifndef OTV_INSTANCE_REGION_H
#define OTV_INSTANCE_REGION_H

#include "core/core.h"

typedef struct otv_pin {
  unsigned axis_count;
  const otv_f2dot14 *coords; /* the pinned location (partial: kept axes at 0) */
  uint32_t axis_tags[OTV_MAX_AXES];
  uint8_t axis_order[OTV_MAX_AXES]; /* axis indices sorted by tag (fontTools' pinning order) */
  bool partial;
  bool keep[OTV_MAX_AXES];         /* partial: the axes kept variable */
  uint8_t new_index[OTV_MAX_AXES]; /* partial: a kept axis's index in the new fvar */
  unsigned kept_count;
} otv_pin;

/* What the instancer's format code (instance/tvs.c, instance/store.c) works with. */
typedef struct otv_ictx {
  const otv_pin *pin;
  const otv_alloc *al;
  otv_error *err;
} otv_ictx;

/* The per-axis factors of a region at the pin, for the axes whose peak is not 0, in axis-tag
 * order (as fontTools pins them) and without the factors equal to 1: a delta is then scaled by
 * multiplying it by each in turn, as fontTools does, so that its rounding matches. Returns the
 * number of factors, or -1 when the region does not apply (a factor is 0). An ill-formed axis
 * (start > peak, peak > end, or crossing zero) is ignored (spec). start/peak/end: axis_count
 * F2Dot14 values each. */
int otv_pin_factors(const otv_pin *pin, const int16_t *start, const int16_t *peak,
                    const int16_t *end, double *out);
/* As otv_pin_factors over the pinned axes only (partial instances); *kept: some kept axis has a
 * (well-formed) non-zero peak, so the region stays variable. -1 when a pinned factor is 0. */
int otv_pin_factors_partial(const otv_pin *pin, const int16_t *start, const int16_t *peak,
                            const int16_t *end, double *out, bool *kept);
/* The region restricted to the kept axes, in their new order (ill-formed axes written as 0, as
 * they are ignored). */
void otv_pin_kept_region(const otv_pin *pin, const int16_t *start, const int16_t *peak,
                         const int16_t *end, int16_t *ns, int16_t *np, int16_t *ne);

/* A delta times factors[0..k), multiplied in turn (fontTools' order). */
static inline double otv_pin_scale(double d, const double *factors, int k)
{
  for (int j = 0; j < k; j++) d *= factors[j];
  return d;
}

/* floor(v + 0.5) clamped to int16 (NaN: -32768), without a libm call (floor is not inlined
 * without SSE4.1): the coordinates, boxes and side bearings the instancers write. */
static inline int otv_inst_round16(double v)
{
  double t = v + 0.5;
  if (!(t > -32768.0)) return -32768; /* also NaN */
  if (t >= 32767.0) return 32767;
  int i = (int)t; /* truncates toward zero */
  return (double)i > t ? i - 1 : i;
}

/* floor(d + 0.5) as an int, clamped to +-2^24 (NaN: 0). The values it gives are added to 16-bit
 * fields; a hostile ItemVariationStore can sum 32-bit deltas over 65535 regions past the int
 * range, whose conversion would be undefined. */
static inline int otv_inst_round(double d)
{
  double t = floor(d + 0.5);
  if (!(t >= -16777216.0)) return t != t ? 0 : -16777216;
  if (t > 16777216.0) return 16777216;
  return (int)t;
}

#endif /* OTV_INSTANCE_REGION_H */

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
  /* partial, axis limits ("L3"/"L4"): a kept axis's new range and default in the old normalized
   * (after avar) coordinates, F2Dot14; limited[a] false: [-1, 0, 1], the region kept as it is */
  bool limited[OTV_MAX_AXES];
  int16_t lim_lo[OTV_MAX_AXES], lim_def[OTV_MAX_AXES], lim_hi[OTV_MAX_AXES];
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

/* One piece of a region in a partial instance: a region over the kept axes (their new order,
 * in the new normalized coordinates) and the coefficient its deltas are multiplied by after
 * the pinned axes' factors. A region of the old font is a sum of pieces over the new space
 * (plus a constant part, folded into the new default). */
typedef struct otv_piece {
  double coef;
  int16_t s[OTV_MAX_AXES], p[OTV_MAX_AXES], e[OTV_MAX_AXES];
} otv_piece;

#define OTV_PIECES_MAX 64 /* pieces of one region; more is OTV_E_LIMIT */

/* The pieces of a region in a partial instance: the pinned factors as otv_pin_factors_partial
 * gives them (*k of them in factors), and the region over the kept axes, split where a kept
 * axis is limited (spec: otvarcommonformats "Algorithm for interpolation of instance values":
 * the per-axis factor of a region is piecewise linear in the coordinate; restricted to the new
 * range and rescaled to [-1, 1] around the new default it is a constant plus a sum of tents).
 * Without limits a region gives one piece (coefficient 1, otv_pin_kept_region). Returns the
 * number of pieces (0: the region is folded into the default, or is 0 over the new range), -1
 * when a pinned factor is 0, -2 when there would be more than cap pieces. */
int otv_pin_pieces(const otv_pin *pin, const int16_t *start, const int16_t *peak,
                   const int16_t *end, double *factors, int *k, otv_piece *out, unsigned cap);

/* Whether the pin limits some kept axis (regions may then split into several pieces). */
static inline bool otv_pin_limited(const otv_pin *pin)
{
  for (unsigned a = 0; a < pin->axis_count; a++)
    if (pin->partial && pin->keep[a] && pin->limited[a]) return true;
  return false;
}

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

/*
 * normalize.c - user -> normalized coordinates (spec: otvaroverview "Coordinate scales and
 * normalization", then avar).
 *
 *   1. clamp the user value to [min, max] of the axis;
 *   2. default normalization: -(default - v) / (default - min) below the default,
 *      (v - default) / (max - default) above it, 0 at it;
 *   3. convert to F2Dot14: round to nearest, halves up (floor(x * 16384 + 0.5));
 *   4. avar v1 segment map (avar.c), on the F2Dot14 value;
 *   5. avar v2: add the rounded ItemVariationStore delta evaluated at the v1 output, clamp to
 *      [-1, +1].
 *
 * Precision: steps 1-3 are evaluated in binary32 from the 16.16 fields and the user value
 * converted to binary32, and every rounding to F2Dot14 (here, in the avar v1 interpolation and
 * of the avar v2 delta) is to nearest with halves up: floor(x + 0.5). The spec leaves the
 * intermediate precision and the tie direction open; these are HarfBuzz's choices, measured
 * with the differential test (tests/oracle/test_normalize.c: halves away from zero, or double
 * precision, disagree with it on ~3% of values near half steps), and matching them makes our
 * F2Dot14 results identical to HarfBuzz's.
 */
#include "fvar.h"

#include <float.h>

static int default_normalize(const otv_fvar_axis *x, double user)
{
  /* Values beyond the float range only clamp: bound them so the conversion is defined. */
  if (user > FLT_MAX) user = FLT_MAX;
  if (user < -FLT_MAX) user = -FLT_MAX;
  float v = (float)user;
  if (v < x->nmin) v = x->nmin;
  if (v > x->nmax) v = x->nmax;
  if (v == x->ndef) return 0;
  float n = v < x->ndef ? (v - x->ndef) / (x->ndef - x->nmin) : (v - x->ndef) / (x->nmax - x->ndef);
  /* |n| <= 1 here: v is inside the clamped range */
  return otv_round_half_up(n * 16384.0f);
}

otv_status otv_fvar_normalize(const otv_fvar *fv, const double *user, otv_f2dot14 *out,
                              const otv_alloc *al, otv_error *err)
{
  /* Work on a copy: `out` is only written on success. */
  otv_f2dot14 tmp[OTV_MAX_AXES];
  for (unsigned a = 0; a < fv->axis_count; a++) {
    double u = user[a];
    if (u != u) return OTV_FAIL(err, ARG, 0, 0, "coordinate %u is NaN", a);
    int v = default_normalize(&fv->axis[a], u);
    if (fv->avar.seg) v = otv_avar_map_v1(&fv->avar.seg[a], v);
    if (v < -16384) v = -16384;
    if (v > 16384) v = 16384;
    tmp[a] = (otv_f2dot14)v;
  }
  if (fv->avar.ivs.present && fv->avar.ivs.region_count) {
    /* Region scalars: on the stack for the usual store sizes, allocated beyond. */
    size_t n = fv->avar.ivs.region_count;
    float stack[256];
    float *scratch = stack;
    if (n > sizeof stack / sizeof stack[0]) {
      scratch = otv_mem_alloc(al, n * sizeof *scratch);
      if (!scratch) return OTV_FAIL(err, NOMEM, OTV_T_AVAR, 0, "avar 2 region scalars");
    }
    otv_avar_apply_v2(&fv->avar, tmp, scratch);
    if (scratch != stack) otv_mem_free(al, scratch, n * sizeof *scratch);
  }
  memcpy(out, tmp, (size_t)fv->axis_count * sizeof *out);
  return OTV_E_OK;
}

/*
 * normalize.c - user -> normalized coordinates (spec: otvaroverview "Coordinate scales and
 * normalization", avar), in the four models of otv_norm_model (otvar.h).
 *
 * OTV_NORM_SPEC, the spec's algorithm. The spec: "The user coordinate value should be converted
 * if necessary to a fixed-point 16.16 value. All arithmetic manipulation must be done using
 * fixed-point 16.16 values", and the final value converted to F2Dot14 once. Step by step, each
 * with its rounding (all integers are 16.16 unless named F2Dot14):
 *   1. u = the user value in 16.16: round(user x 65536), to nearest, halves away from zero (a
 *      value from fvar, a named instance's, is exact). Values beyond the 16.16 range only clamp.
 *   2. clamp u to [min, max] of the axis (min lowered and max raised to the default when the
 *      font has them out of order: fvar.c).
 *   3. default normalization: "If the user value is less than the defaultValue, then the
 *      normalized value should be set to -(axisDefault - userValue) / (axisDefault - axisMin);
 *      if it is more than the defaultValue, then (userValue - axisDefault) / (axisMax -
 *      axisDefault); else, it is set to zero." Each quotient is a 16.16 division of the
 *      magnitudes, (a x 65536 + b / 2) / b in integers: to nearest, halves away from zero, the
 *      sign applied after (FT_DivFix's rounding). The result is in [-1, +1] (65536).
 *   4. avar v1: "If an AxisValueMap entry has a fromCoordinate equal to the current normalized
 *      value v, then return its toCoordinate. Otherwise, find the segment a with the largest
 *      fromCoordinate strictly lower than v and the segment b with the smallest fromCoordinate
 *      strictly higher than v. The normalized value is then set to a.toCoordinate +
 *      (b.toCoordinate - a.toCoordinate) x (v - a.fromCoordinate) / (b.fromCoordinate -
 *      a.fromCoordinate)", with the F2Dot14 map values converted to 16.16 (x 4), the product and
 *      quotient in 64-bit integers rounded once to nearest, halves away from zero (FT_MulDiv's).
 *   5. avar v2: every axis's delta is the ItemVariationStore's at the v1 output of all axes
 *      (converted to F2Dot14 as in step 6: the store's regions are F2Dot14), in F2Dot14 units:
 *      the binary32 sum converted to 16.16 (x 4, to nearest, halves away from zero), added to
 *      the v1 value, clamped to [-1, +1].
 *   6. "Finally the 16.16 value should be converted to an F2DOT14 by adding 0x00000002, and
 *      shifting the value to the right by 2 with sign extension": floor((v + 2) / 4).
 * OTV_NORM_FREETYPE: steps 1-5 (FreeType 2.12's FT_DivFix/FT_MulDiv arithmetic is the same),
 *   and the location draws with the 16.16 values; step 6 gives the F2Dot14 the API reports.
 *   FreeType clamps the quotient, not the user value (step 2 after 3): the same, except beyond
 *   an empty side of an axis (min or max at the default), where its division by zero makes the
 *   coordinate -1 or +1 (measured: tests/oracle/test_normalize.c).
 *   FreeType 2.12 has no avar 2: it is applied as in the spec model (as FreeType 2.13 does).
 * OTV_NORM_HARFBUZZ, current HarfBuzz (>= 11.4; measured with tests/oracle/test_outline_hbjs.py):
 *   step 3 in binary32 on the user value as binary32 (as harfbuzz6), the quotient rounded to
 *   16.16 (x 65536, to nearest with halves up: floor(x + 0.5) in binary32, HarfBuzz's rounding
 *   everywhere); step 4 on binary32 values (the 16.16 value / 65536, the map's F2Dot14 / 16384:
 *   to + ((to' - to) x (v - from)) / (from' - from)), rounded to 16.16 the same way; step 5
 *   with the store read at the 16.16 values / 4 rounded so (the same as step 6's conversion)
 *   and the binary32 delta x 4 rounded so; step 6 as the spec. It differs from the spec model
 *   only where binary32 error or a halves-up tie moves a value across a rounding boundary.
 * OTV_NORM_FONTTOOLS, fontTools' varLib.instancer (normalizeValue, piecewiseLinearMap,
 *   floatToFixedToFloat): steps 2-4 in double precision on the user value as given, the avar
 *   map's F2Dot14 values as exact doubles, then one rounding to F2Dot14, floor(x x 16384 + 0.5).
 *   avar v2 (fontTools 4.38 has none): the store's delta at the F2Dot14 v1 output, rounded the
 *   same way, added and clamped.
 * OTV_NORM_HARFBUZZ6, HarfBuzz 6.0 (measured with tests/oracle/test_normalize.c: identical):
 *   steps 2-3 in binary32 from the user value converted to binary32, rounded to F2Dot14
 *   (floor(x + 0.5)); the avar v1 interpolation on F2Dot14 integers in binary32, rounded the
 *   same way; avar v2 at the F2Dot14 v1 output, the float delta rounded so, added and clamped.
 */
#include "fvar.h"

#include <float.h>

#define FX_ONE 65536

/* ---- 16.16 arithmetic ---- */

/* Round a double to the nearest integer, halves away from zero; |x| < 2^31. */
static int64_t round_away(double x) { return (int64_t)(x < 0 ? x - 0.5 : x + 0.5); }

/* a / b in 16.16 for a >= 0, b > 0: to nearest, halves away from zero (the caller signs). */
static int32_t div_fixed(int64_t a, int64_t b) { return (int32_t)(((a << 16) + b / 2) / b); }

/* F2Dot14 of a 16.16 value: floor((v + 2) / 4) (spec step 6), for |v| <= 2^30. */
static int f2_of_fixed(int32_t v)
{
  int32_t t = v + 2;
  return t >= 0 ? t / 4 : -((-t + 3) / 4);
}

/* ---- the models, one axis ---- */

/* Steps 1-3 of the spec model. */
static int32_t spec_default(const otv_fvar_axis *x, double user)
{
  int32_t lo = x->min_value < x->default_value ? x->min_value : x->default_value;
  int32_t hi = x->max_value > x->default_value ? x->max_value : x->default_value;
  int32_t def = x->default_value;
  /* beyond the 16.16 range a value only clamps: bound it so the conversion is defined */
  if (user > 32768.0) user = 32768.0;
  if (user < -32768.0) user = -32768.0;
  int64_t u = round_away(user * 65536.0);
  if (u < lo) u = lo;
  if (u > hi) u = hi;
  if (u < def) return -div_fixed((int64_t)def - u, (int64_t)def - lo);
  if (u > def) return div_fixed(u - def, (int64_t)hi - def);
  return 0;
}

/* FreeType 2.12's steps 1-3: the quotient of the unclamped 16.16 value, clamped after. Where a
 * side of the axis is empty (min or max at the default) a value beyond it divides by zero, which
 * FT_DivFix answers with its largest value: the coordinate is -1 or +1, not 0. */
static int32_t freetype_default(const otv_fvar_axis *x, double user)
{
  if (user > 32768.0) user = 32768.0;
  if (user < -32768.0) user = -32768.0;
  int64_t u = round_away(user * 65536.0), def = x->default_value, q;
  if (u == def) return 0;
  /* FT_DivFix on magnitudes, the sign applied after; a zero divisor gives 0x7FFFFFFF */
  int64_t a = u < def ? def - u : u - def, b = u < def ? def - x->min_value : x->max_value - def;
  int64_t mag = b == 0 ? 0x7FFFFFFF : ((a << 16) + (b < 0 ? -b : b) / 2) / (b < 0 ? -b : b);
  q = (b < 0) != (u < def) ? -mag : mag;
  return (int32_t)(q < -FX_ONE ? -FX_ONE : q > FX_ONE ? FX_ONE : q);
}

/* fontTools' normalizeValue on the clamped value, in double. */
static double fonttools_default(const otv_fvar_axis *x, double user)
{
  double lo = (x->min_value < x->default_value ? x->min_value : x->default_value) / 65536.0;
  double hi = (x->max_value > x->default_value ? x->max_value : x->default_value) / 65536.0;
  double def = x->default_value / 65536.0;
  double v = user < lo ? lo : user > hi ? hi : user;
  if (v == def || lo == hi) return 0.0;
  return v < def ? (v - def) / (def - lo) : (v - def) / (hi - def);
}

/* HarfBuzz's default normalization in binary32 (both models), unrounded. */
static float binary32_default(const otv_fvar_axis *x, double user)
{
  /* values beyond the float range only clamp: bound them so the conversion is defined */
  if (user > FLT_MAX) user = FLT_MAX;
  if (user < -FLT_MAX) user = -FLT_MAX;
  float v = (float)user;
  if (v < x->nmin) v = x->nmin;
  if (v > x->nmax) v = x->nmax;
  if (v == x->ndef) return 0.0f;
  return v < x->ndef ? (v - x->ndef) / (x->ndef - x->nmin) : (v - x->ndef) / (x->nmax - x->ndef);
}

/* HarfBuzz 6.0's: the binary32 quotient rounded to F2Dot14 (halves up); |n| <= 1. */
static int harfbuzz6_default(const otv_fvar_axis *x, double user, float *real)
{
  *real = binary32_default(x, user);
  return otv_round_half_up(*real * 16384.0f);
}

/* Current HarfBuzz's steps 3-4 (header comment), in 16.16. */
static int32_t harfbuzz_v1(const otv_fvar_axis *x, const otv_avar_seg *seg, double user)
{
  int32_t v = otv_round_half_up(binary32_default(x, user) * 65536.0f);
  if (seg && seg->count)
    v = otv_round_half_up(otv_avar_map_v1_binary32(seg, (float)v / 65536.0f) * 65536.0f);
  return v;
}

static int clamp_f2(long v) { return v < -16384 ? -16384 : v > 16384 ? 16384 : (int)v; }

/* floor(x + 0.5) in double (fontTools' otRound), for |x| well inside the int range. */
static long ot_round(double x) { return (long)floor(x + 0.5); }

/* ---- the pipeline ---- */

/* The avar 2 deltas at coordinates q (16.16), in F2Dot14 units, into delta[axis_count]. */
static otv_status avar2_deltas(const otv_fvar *fv, const int32_t *q, float *delta,
                               const otv_alloc *al, otv_error *err)
{
  size_t n = fv->avar.ivs.region_count;
  float stack[256];
  float *scratch = stack;
  if (n > sizeof stack / sizeof stack[0]) {
    scratch = otv_mem_alloc(al, n * sizeof *scratch);
    if (!scratch) return OTV_FAIL(err, NOMEM, OTV_T_AVAR, 0, "avar 2 region scalars");
  }
  otv_avar_v2_deltas(&fv->avar, q, scratch, delta);
  if (scratch != stack) otv_mem_free(al, scratch, n * sizeof *scratch);
  return OTV_E_OK;
}

otv_status otv_fvar_normalize(const otv_fvar *fv, otv_norm_model model, const double *user,
                              otv_norm_result *out, const otv_alloc *al, otv_error *err)
{
  unsigned ac = fv->axis_count;
  if ((unsigned)model >= OTV_NORM_MODEL_COUNT)
    return OTV_FAIL(err, ARG, 0, 0, "normalization model %d", (int)model);
  for (unsigned a = 0; a < ac; a++)
    if (user[a] != user[a]) return OTV_FAIL(err, ARG, 0, 0, "coordinate %u is NaN", a);
  /* Work on copies: `out` is only written on success. */
  int32_t fx[OTV_MAX_AXES];  /* 16.16 (spec, freetype) */
  int f2[OTV_MAX_AXES];      /* F2Dot14 (fonttools, harfbuzz6) */
  double real[OTV_MAX_AXES]; /* the value rounded last */
  bool v2 = fv->avar.ivs.present && fv->avar.ivs.region_count;
  bool hb = model == OTV_NORM_HARFBUZZ;
  bool fixed_model = model == OTV_NORM_SPEC || model == OTV_NORM_FREETYPE || hb;
  for (unsigned a = 0; a < ac; a++) {
    const otv_fvar_axis *x = &fv->axis[a];
    const otv_avar_seg *seg = fv->avar.seg ? &fv->avar.seg[a] : NULL;
    if (hb) {
      fx[a] = harfbuzz_v1(x, seg, user[a]);
    } else if (fixed_model) {
      fx[a] = model == OTV_NORM_FREETYPE ? freetype_default(x, user[a]) : spec_default(x, user[a]);
      if (seg) fx[a] = otv_avar_map_v1_fixed(seg, fx[a]);
    } else if (model == OTV_NORM_FONTTOOLS) {
      double v = fonttools_default(x, user[a]);
      if (seg) v = otv_avar_map_v1_double(seg, v);
      real[a] = v;
      f2[a] = clamp_f2(ot_round(v * 16384.0));
    } else {
      float r;
      int v = harfbuzz6_default(x, user[a], &r);
      if (seg && seg->count) v = otv_avar_map_v1_float(seg, v, &r);
      real[a] = r;
      f2[a] = clamp_f2(v);
    }
  }
  /* A valid avar maps [-1, +1] into itself; a map whose toCoordinates leave it (up to +-2) is
   * clamped here, so that every later step works on [-1, +1] (the F2Dot14 models clamp too). */
  for (unsigned a = 0; fixed_model && a < ac; a++)
    fx[a] = fx[a] < -FX_ONE ? -FX_ONE : fx[a] > FX_ONE ? FX_ONE : fx[a];
  if (v2) {
    float delta[OTV_MAX_AXES];
    int32_t q[OTV_MAX_AXES];
    /* the store is read at F2Dot14 coordinates (x 4: the 16.16 scale of otv_ivs) */
    for (unsigned a = 0; a < ac; a++) q[a] = 4 * (fixed_model ? f2_of_fixed(fx[a]) : f2[a]);
    otv_status s = avar2_deltas(fv, q, delta, al, err);
    if (s) return s;
    for (unsigned a = 0; a < ac; a++) {
      /* A delta beyond +-4 can only clamp: bound it first so the rounding stays in range. */
      double d = delta[a] > 65536.0f ? 65536.0 : delta[a] < -65536.0f ? -65536.0 : delta[a];
      if (fixed_model) {
        int64_t v = fx[a] + (hb ? otv_round_half_up((float)d * 4.0f) : round_away(d * 4.0));
        fx[a] = (int32_t)(v < -FX_ONE ? -FX_ONE : v > FX_ONE ? FX_ONE : v);
      } else if (model == OTV_NORM_FONTTOOLS) {
        real[a] = f2[a] / 16384.0 + d / 16384.0;
        f2[a] = clamp_f2(f2[a] + ot_round(d));
      } else {
        real[a] = (f2[a] + (double)delta[a]) / 16384.0;
        f2[a] = clamp_f2(f2[a] + otv_round_half_up((float)d));
      }
    }
  }
  for (unsigned a = 0; a < ac; a++) {
    otv_norm_result *o = &out[a];
    if (fixed_model) {
      o->fixed = fx[a];
      o->f2 = (otv_f2dot14)f2_of_fixed(fx[a]);
      o->real = fx[a] / 65536.0;
      o->draw = model == OTV_NORM_FREETYPE ? fx[a] : o->f2 * 4;
    } else {
      o->f2 = (otv_f2dot14)f2[a];
      o->real = real[a];
      o->fixed = model == OTV_NORM_FONTTOOLS ? (int32_t)round_away(real[a] * 65536.0) : f2[a] * 4;
      o->draw = o->f2 * 4;
    }
  }
  return OTV_E_OK;
}

/*
 * test_region.c - regions of a partial instance with axis limits (instance/region.c,
 * otv_pin_pieces): hand-computed splits, and a property test: over the new range, the pieces
 * evaluated with the spec's region scalar (otvarcommonformats "Algorithm for interpolation of
 * instance values") plus the constant part add up to the old region's scalar at the matching
 * old coordinate, for random tents and limits, within F2Dot14 rounding.
 */
#include "harness.h"
#include "instance/region.h"

#define F(x) ((int16_t)((x) < 0 ? (x)*16384 - 0.5 : (x)*16384 + 0.5))

static otv_pin one_axis(double lo, double def, double hi)
{
  otv_pin pin;
  memset(&pin, 0, sizeof pin);
  static otv_f2dot14 coords[2];
  pin.axis_count = 1;
  pin.coords = coords;
  pin.partial = true;
  pin.keep[0] = true;
  pin.kept_count = 1;
  pin.limited[0] = !(lo == -1 && def == 0 && hi == 1);
  pin.lim_lo[0] = F(lo), pin.lim_def[0] = F(def), pin.lim_hi[0] = F(hi);
  coords[0] = F(def);
  return pin;
}

/* The spec's factor of x in [s, p, e] (peak 0 or ill-formed: 1). */
static double spec_factor(double x, double s, double p, double e)
{
  if (p == 0 || s > p || p > e || (s < 0 && e > 0)) return 1;
  if (x < s || x > e) return 0;
  if (x == p) return 1;
  return x < p ? (x - s) / (p - s) : (e - x) / (e - p);
}

static otv_piece pc[OTV_PIECES_MAX];

static int pieces1(const otv_pin *pin, double s, double p, double e)
{
  int16_t S = F(s), P = F(p), E = F(e);
  double fac[OTV_MAX_AXES];
  int k;
  return otv_pin_pieces(pin, &S, &P, &E, fac, &k, pc, OTV_PIECES_MAX);
}

#define CHECK_PIECE(i, C, S, P, E)                                                                 \
  do {                                                                                             \
    CHECK_NEAR(pc[i].coef, C, 1e-9);                                                               \
    CHECK_EQ(pc[i].s[0], F(S));                                                                    \
    CHECK_EQ(pc[i].p[0], F(P));                                                                    \
    CHECK_EQ(pc[i].e[0], F(E));                                                                    \
  } while (0)

static void hand_computed(void)
{
  /* no limits: the region itself */
  otv_pin pin = one_axis(-1, 0, 1);
  CHECK_EQ(pieces1(&pin, 0, 0.5, 1), 1);
  CHECK_PIECE(0, 1, 0, 0.5, 1);
  /* max 0.5: the tent (0, 1, 1) is read up to x = 0.5, where it is 0.5; y = x / 0.5 */
  pin = one_axis(-1, 0, 0.5);
  CHECK_EQ(pieces1(&pin, 0, 1, 1), 1);
  CHECK_PIECE(0, 0.5, 0, 1, 1);
  /* max 0.75 over (0, 0.5, 1): peak at y = 2/3, then down to f(0.75) = 0.5 at y = 1 */
  pin = one_axis(-1, 0, 0.75);
  CHECK_EQ(pieces1(&pin, 0, 0.5, 1), 2);
  CHECK_PIECE(0, 1, 0, 2.0 / 3, 1);
  CHECK_PIECE(1, 0.5, 2.0 / 3, 1, 1);
  /* an intermediate tent past the new max: nothing left */
  CHECK_EQ(pieces1(&pin, 0.8, 0.9, 1), 0);
  /* min -0.5 over (-1, -1, 0): y = x / 0.5 below 0; f(-0.5) = 0.5 */
  pin = one_axis(-0.5, 0, 1);
  CHECK_EQ(pieces1(&pin, -1, -1, 0), 1);
  CHECK_PIECE(0, 0.5, -1, -1, 0);
  /* the tent inside the positive side, untouched by a restricted negative side */
  CHECK_EQ(pieces1(&pin, 0, 0.5, 1), 1);
  CHECK_PIECE(0, 1, 0, 0.5, 1);
  /* a default moved to 0.5 over (0, 1, 1), range [0, 1]: constant 0.5 (folded), then -0.5 at
   * y = -1 (x = 0) and +0.5 at y = 1 (x = 1) */
  pin = one_axis(0, 0.5, 1);
  CHECK_EQ(pieces1(&pin, 0, 1, 1), 2);
  CHECK_PIECE(0, 0.5, 0, 1, 1);
  CHECK_PIECE(1, -0.5, -1, -1, 0);
  /* the same default over the whole axis: below the new default f falls from 0.5 to 0 at x = 0
   * (y = -1/3) and stays 0 down to x = -1: hats at y = -1/3 and y = -1, both -0.5 */
  pin = one_axis(-1, 0.5, 1);
  CHECK_EQ(pieces1(&pin, 0, 1, 1), 3);
  CHECK_PIECE(0, 0.5, 0, 1, 1);
  CHECK_PIECE(1, -0.5, -1, -1.0 / 3, 0);
  CHECK_PIECE(2, -0.5, -1, -1, -1.0 / 3);
  /* an axis not in the region (peak 0) is not split */
  CHECK_EQ(pieces1(&pin, 0, 0, 0), 0); /* folded: no kept axis in the region */
}

/* Random tents and limits: sum of pieces + constant == the old factor. */
static void property(void)
{
  uint32_t seed = 12345;
#define RND() (seed = seed * 1103515245u + 12345u, (double)(seed >> 8) / 16777216.0)
  int worst_n = 0;
  double worst = 0;
  for (int it = 0; it < 4000; it++) {
    double lo = -RND(), hi = RND(), def = lo + (hi - lo) * RND();
    if (it % 3 == 0) def = 0;
    if (it % 7 == 0) lo = -1;
    /* a well-formed tent on one side of 0 */
    double a = RND(), b = RND(), c = RND(), t;
    if (a > b) t = a, a = b, b = t;
    if (b > c) t = b, b = c, c = t;
    if (a > b) t = a, a = b, b = t;
    if (it % 5 == 0) a = 0;
    if (it % 11 == 0) b = c = 1;
    double s = a, p = b, e = c;
    if (it % 2) s = -c, p = -b, e = -a;
    if (F(p) == 0 || F(s) == F(p) || F(p) == F(e)) continue;
    otv_pin pin = one_axis(lo, def, hi);
    double qlo = pin.lim_lo[0] / 16384.0, qdef = pin.lim_def[0] / 16384.0,
           qhi = pin.lim_hi[0] / 16384.0;
    double qs = F(s) / 16384.0, qp = F(p) / 16384.0, qe = F(e) / 16384.0;
    int n = pieces1(&pin, s, p, e);
    CHECK(n >= 0);
    if (n > worst_n) worst_n = n;
    double c0 = spec_factor(qdef, qs, qp, qe);
    for (int k = 0; k <= 40; k++) {
      double y = -1 + k / 20.0, x;
      if (y < 0) {
        if (qdef == qlo) continue;
        x = qdef + y * (qdef - qlo);
      } else {
        if (qhi == qdef) continue;
        x = qdef + y * (qhi - qdef);
      }
      double want = spec_factor(x, qs, qp, qe), got = c0;
      for (int i = 0; i < n; i++)
        got += pc[i].coef *
               spec_factor(y, pc[i].s[0] / 16384.0, pc[i].p[0] / 16384.0, pc[i].e[0] / 16384.0);
      /* new tent corners are rounded to F2Dot14: a slope of at most 1 / (smallest tent
       * side) moves the value by that much per 1/32768 */
      double side = fmin(qp - qs, qe - qp) * fmin(qhi - qdef > 0 ? 1 / (qhi - qdef) : 1e9,
                                                  qdef - qlo > 0 ? 1 / (qdef - qlo) : 1e9);
      double tol = 1e-9 + (side > 0 ? 3.0 / 32768 / side : 1);
      if (fabs(got - want) > worst) worst = fabs(got - want);
      if (fabs(got - want) > tol) {
        CHECK(fabs(got - want) <= tol);
        fprintf(stderr, "  tent (%g %g %g) limits (%g %g %g) y %g: %g vs %g\n", qs, qp, qe, qlo,
                qdef, qhi, y, got, want);
      }
    }
  }
  printf("property: most pieces %d, worst difference %g\n", worst_n, worst);
}

/* Two limited axes: the pieces of a two-axis region are the products of each axis's. */
static void two_axes(void)
{
  otv_pin pin;
  memset(&pin, 0, sizeof pin);
  otv_f2dot14 coords[2] = {0, 0};
  pin.axis_count = 2;
  pin.coords = coords;
  pin.partial = true;
  pin.keep[0] = pin.keep[1] = true;
  pin.kept_count = 2;
  pin.new_index[1] = 1;
  pin.axis_order[1] = 1;
  pin.limited[0] = pin.limited[1] = true;
  pin.lim_lo[0] = F(-1), pin.lim_hi[0] = F(0.75); /* axis 0: two pieces for (0, 0.5, 1) */
  pin.lim_lo[1] = F(-1), pin.lim_hi[1] = F(0.5);  /* axis 1: one piece for (0, 1, 1) */
  int16_t s[2] = {0, 0}, p[2] = {F(0.5), F(1)}, e[2] = {F(1), F(1)};
  double fac[OTV_MAX_AXES];
  int k;
  CHECK_EQ(otv_pin_pieces(&pin, s, p, e, fac, &k, pc, OTV_PIECES_MAX), 2);
  CHECK_NEAR(pc[0].coef, 0.5, 1e-9);
  CHECK_NEAR(pc[1].coef, 0.25, 1e-9);
  CHECK_EQ(pc[0].p[1], F(1));
  CHECK_EQ(pc[1].s[0], F(2.0 / 3));
  /* too many pieces for the room given */
  CHECK_EQ(otv_pin_pieces(&pin, s, p, e, fac, &k, pc, 1), -2);
  /* a pinned axis whose factor is 0 removes the region */
  pin.keep[1] = false;
  pin.kept_count = 1;
  coords[1] = F(-0.5);
  CHECK_EQ(otv_pin_pieces(&pin, s, p, e, fac, &k, pc, OTV_PIECES_MAX), -1);
}

int main(void)
{
  hand_computed();
  two_axes();
  property();
  return h_done("test_region");
}

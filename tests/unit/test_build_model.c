/*
 * test_build_model.c - the variation model of otv_build (src/build/model.c) on small hand-computed
 * cases: master order, regions (supports, intermediate ones cut by an earlier master inside
 * them), region scalars, deltas (rounded half to even, each from the rounded earlier ones) and
 * the values they give back at every master; errors (no default master, two equal masters);
 * the allocation-failure loop.
 * Expected values are worked by hand from the spec's interpolation algorithm
 * (otvarcommonformats) and the ordering rules of build/model.h; the comment of each case shows
 * the arithmetic.
 */
#include "build/model.h"
#include "harness.h"

static otv_alloc al;

/* The value the model gives at location loc: sum of scalar(region i) * delta i. */
static double eval(const otv_vmodel *m, const double *deltas, const double *loc)
{
  double v = 0;
  for (unsigned i = 0; i < m->count; i++)
    v += otv_vmodel_scalar(m->support + (size_t)i * m->axis_count * 3, loc, m->axis_count) *
         deltas[i];
  return v;
}

static const double *sup(const otv_vmodel *m, unsigned i, unsigned axis)
{
  return m->support + ((size_t)i * m->axis_count + axis) * 3;
}

#define CHECK_REGION(m, i, axis, lo, pk, hi)                                                       \
  do {                                                                                             \
    const double *r_ = sup(m, i, axis);                                                            \
    CHECK_NEAR(r_[0], lo, 1e-12);                                                                  \
    CHECK_NEAR(r_[1], pk, 1e-12);                                                                  \
    CHECK_NEAR(r_[2], hi, 1e-12);                                                                  \
  } while (0)

/* One axis, masters 0, 0.5, 1 (values 100, 150, 300).
 * Order by magnitude: 0, 0.5, 1. Regions: 0.5 -> (0, 0.5, 1) (max of the masters on the axis);
 * 1 -> (0, 1, 1) holds the earlier peak 0.5 strictly inside, cut to (0.5, 1, 1).
 * Deltas: 100; 150 - 100 = 50; at 1 the region (0, 0.5, 1) is 0, so 300 - 100 = 200. */
static void test_one_axis_intermediate(void)
{
  const double locs[] = {0, 0.5, 1};
  otv_vmodel m;
  CHECK_EQ(otv_vmodel_init(&m, locs, 3, 1, &al, NULL), OTV_E_OK);
  CHECK_EQ(m.count, 3);
  CHECK_EQ(m.order[0], 0);
  CHECK_EQ(m.order[1], 1);
  CHECK_EQ(m.order[2], 2);
  CHECK_REGION(&m, 1, 0, 0, 0.5, 1);
  CHECK_REGION(&m, 2, 0, 0.5, 1, 1);
  const double vals[] = {100, 150, 300};
  double d[3];
  otv_vmodel_deltas(&m, vals, 1, 1, d);
  CHECK_NEAR(d[0], 100, 0);
  CHECK_NEAR(d[1], 50, 0);
  CHECK_NEAR(d[2], 200, 0);
  /* between the masters: at 0.75 region 1 gives (1 - 0.75) / 0.5 = 0.5, region 2
   * (0.75 - 0.5) / 0.5 = 0.5: 100 + 25 + 100 = 225 (the line from 150 to 300) */
  double at = 0.75;
  CHECK_NEAR(eval(&m, d, &at), 225, 1e-9);
  for (unsigned k = 0; k < 3; k++) CHECK_NEAR(eval(&m, d, &locs[k]), vals[k], 1e-9);
  otv_vmodel_free(&m, &al);
}

/* One axis, masters 0, 1, -1 given in that order (values 100, 150, 30): the negative side sorts
 * first (sign), so model order is 0, -1, 1 = given indices 0, 2, 1. Regions (-1, -1, 0) and
 * (0, 1, 1). Deltas 100, 30 - 100 = -70, 150 - 100 = 50. */
static void test_one_axis_both_sides(void)
{
  const double locs[] = {0, 1, -1};
  otv_vmodel m;
  CHECK_EQ(otv_vmodel_init(&m, locs, 3, 1, &al, NULL), OTV_E_OK);
  CHECK_EQ(m.order[0], 0);
  CHECK_EQ(m.order[1], 2);
  CHECK_EQ(m.order[2], 1);
  CHECK_REGION(&m, 1, 0, -1, -1, 0);
  CHECK_REGION(&m, 2, 0, 0, 1, 1);
  const double vals[] = {100, 150, 30};
  double d[3];
  otv_vmodel_deltas(&m, vals, 1, 1, d);
  CHECK_NEAR(d[0], 100, 0);
  CHECK_NEAR(d[1], -70, 0);
  CHECK_NEAR(d[2], 50, 0);
  double at = -0.25; /* 100 - 0.25 * 70 */
  CHECK_NEAR(eval(&m, d, &at), 82.5, 1e-9);
  otv_vmodel_free(&m, &al);
}

/* Two axes, the four corners (a, b) = (0,0) (1,0) (0,1) (1,1), values 10, 20, 40, 100, two
 * columns (the second the first times -1, stride 2): order 0, (1,0) (axis order), (0,1),
 * (1,1) (two axes last). Deltas 10; 20 - 10 = 10; 40 - 10 = 30; at (1,1) both single-axis
 * regions are 1: 100 - 10 - 10 - 30 = 50. At (0.5, 0.5): 10 + 5 + 15 + 0.25 * 50 = 42.5. */
static void test_two_axes_corners(void)
{
  const double locs[] = {0, 0, 1, 0, 0, 1, 1, 1};
  otv_vmodel m;
  CHECK_EQ(otv_vmodel_init(&m, locs, 4, 2, &al, NULL), OTV_E_OK);
  for (unsigned i = 0; i < 4; i++) CHECK_EQ(m.order[i], i);
  CHECK_EQ(sup(&m, 1, 1)[1], 0); /* (1,0) does not use axis b */
  CHECK_REGION(&m, 1, 0, 0, 1, 1);
  CHECK_EQ(sup(&m, 2, 0)[1], 0);
  CHECK_REGION(&m, 2, 1, 0, 1, 1);
  CHECK_REGION(&m, 3, 0, 0, 1, 1);
  CHECK_REGION(&m, 3, 1, 0, 1, 1);
  const double vals[] = {10, -10, 20, -20, 40, -40, 100, -100};
  double d[8];
  otv_vmodel_deltas(&m, vals, 2, 2, d);
  const double want[] = {10, 10, 30, 50};
  for (unsigned i = 0; i < 4; i++) {
    CHECK_NEAR(d[2 * i], want[i], 0);
    CHECK_NEAR(d[2 * i + 1], -want[i], 0);
  }
  double col[4];
  for (unsigned i = 0; i < 4; i++) col[i] = d[2 * i];
  const double mid[2] = {0.5, 0.5};
  CHECK_NEAR(eval(&m, col, mid), 42.5, 1e-9);
  /* the scalar of the corner region alone: 0.5 * 0.5 */
  CHECK_NEAR(otv_vmodel_scalar(m.support + 3 * 2 * 3, mid, 2), 0.25, 1e-12);
  otv_vmodel_free(&m, &al);
}

/* Rounding: masters (0,0) (1,0) (0,1) (0.5,0.5) with values 0, 1, 2, v. The diagonal master's
 * region is (0, 0.5, 1) on both axes (no earlier master strictly inside); at (0.5, 0.5) the
 * single-axis regions are 0.5 each: delta = v - 0 - 0.5 * 1 - 0.5 * 2 = v - 1.5.
 * v = 0: -1.5 rounds half to even to -2; v = 1: -0.5 to -0 (0); v = 3: 1.5 to 2. */
static void test_round_half_even(void)
{
  const double locs[] = {0, 0, 1, 0, 0, 1, 0.5, 0.5};
  otv_vmodel m;
  CHECK_EQ(otv_vmodel_init(&m, locs, 4, 2, &al, NULL), OTV_E_OK);
  CHECK_REGION(&m, 3, 0, 0, 0.5, 1);
  CHECK_REGION(&m, 3, 1, 0, 0.5, 1);
  const double v[3] = {0, 1, 3}, want[3] = {-2, 0, 2};
  for (unsigned c = 0; c < 3; c++) {
    const double vals[] = {0, 1, 2, v[c]};
    double d[4];
    otv_vmodel_deltas(&m, vals, 1, 1, d);
    CHECK_NEAR(d[3], want[c], 0);
    CHECK_NEAR(d[1], 1, 0);
    CHECK_NEAR(d[2], 2, 0);
  }
  otv_vmodel_free(&m, &al);
}

/* Negative side with an intermediate master: 0, -0.5, -1 -> regions (-1, -0.5, 0) and
 * (-1, -1, -0.5); values 0, -10, -40: deltas 0, -10, -40 (region 1 is 0 at -1). */
static void test_negative_intermediate(void)
{
  const double locs[] = {-1, 0, -0.5};
  otv_vmodel m;
  CHECK_EQ(otv_vmodel_init(&m, locs, 3, 1, &al, NULL), OTV_E_OK);
  CHECK_EQ(m.order[0], 1);
  CHECK_EQ(m.order[1], 2);
  CHECK_EQ(m.order[2], 0);
  CHECK_REGION(&m, 1, 0, -1, -0.5, 0);
  CHECK_REGION(&m, 2, 0, -1, -1, -0.5);
  const double vals[] = {-40, 0, -10}; /* given order: -1, 0, -0.5 */
  double d[3];
  otv_vmodel_deltas(&m, vals, 1, 1, d);
  CHECK_NEAR(d[0], 0, 0);
  CHECK_NEAR(d[1], -10, 0);
  CHECK_NEAR(d[2], -40, 0);
  double at = -0.75; /* region 1: 0.5, region 2: 0.5 -> -5 - 20 */
  CHECK_NEAR(eval(&m, d, &at), -25, 1e-9);
  otv_vmodel_free(&m, &al);
}

static void test_errors(void)
{
  otv_vmodel m;
  otv_error e = {0};
  const double nodef[] = {0.5, 1};
  CHECK_EQ(otv_vmodel_init(&m, nodef, 2, 1, &al, &e), OTV_E_BAD_VALUE);
  const double twice[] = {0, 1, 1};
  e = (otv_error){0};
  CHECK_EQ(otv_vmodel_init(&m, twice, 3, 1, &al, &e), OTV_E_BAD_VALUE);
  CHECK(e.msg[0] != 0);
  const double two_defaults[] = {0, 0};
  CHECK(otv_vmodel_init(&m, two_defaults, 2, 1, &al, NULL) != OTV_E_OK);
  /* a single master: the default alone */
  const double one[] = {0};
  CHECK_EQ(otv_vmodel_init(&m, one, 1, 1, &al, NULL), OTV_E_OK);
  CHECK_EQ(m.count, 1);
  otv_vmodel_free(&m, &al);
}

static void test_alloc_fail(void)
{
  const double locs[] = {0, 0, 1, 0, 0, 1, 1, 1};
  for (long n = 1; n < 64; n++) {
    h_alloc ha = {0, n, 0, 0};
    otv_options opt = {h_realloc, &ha, 0};
    otv_alloc fa;
    otv_alloc_init(&fa, &opt);
    otv_vmodel m;
    otv_status st = otv_vmodel_init(&m, locs, 4, 2, &fa, NULL);
    CHECK(st == OTV_E_OK || st == OTV_E_NOMEM);
    if (st == OTV_E_OK) otv_vmodel_free(&m, &fa);
    CHECK_EQ(ha.live_blocks, 0);
    if (st == OTV_E_OK) break;
  }
}

int main(void)
{
  otv_alloc_init(&al, NULL);
  test_one_axis_intermediate();
  test_one_axis_both_sides();
  test_two_axes_corners();
  test_round_half_even();
  test_negative_intermediate();
  test_errors();
  test_alloc_fail();
  return h_done("test_build_model");
}

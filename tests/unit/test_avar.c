/*
 * test_avar.c - avar v1 segment maps (interpolation and its rounding, invalid maps ignored per
 * spec, non-increasing records ignored, empty maps) and avar v2 (implicit and explicit
 * axisIndexMap, ItemVariationStore deltas at the v1 output, rounding, clamping), all with values
 * computed by hand from the spec's formulas; validation errors, truncation and offset sweeps.
 * The fvar axes of the fixtures run -1..0..+1, so a user value k/16384 normalizes to k. The
 * tables of test_v1/test_v2 were computed for HarfBuzz 6.0's rounding (the harfbuzz6 model);
 * test_models computes cases by hand for every model (docs/normalization.md), where they differ.
 */
#include "harness.h"

/* ---- fixture builder: an sfnt with head, maxp and the given tables ---- */
#include "sfnt_fixture.h"

/* fvar with n axes T0..Tn, each -1 / 0 / +1, no instances. */
static void build_fvar(bb *b, unsigned n)
{
  b->n = 0;
  b16(b, 1), b16(b, 0), b16(b, 16), b16(b, 2), b16(b, n), b16(b, 20), b16(b, 0), b16(b, n * 4 + 4);
  for (unsigned a = 0; a < n; a++) {
    b32(b, OTV_TAG('T', 'S', 'T', '0' + a));
    bfix(b, -1), bfix(b, 0), bfix(b, 1);
    b16(b, 0), b16(b, 256);
  }
}

static otv_status open_avar(const bb *fvar, const uint8_t *avar, size_t len, otv_face **f,
                            otv_error *e)
{
  static uint8_t font[8192];
  tbl t[2] = {{OTV_T_AVAR, avar, len}, {OTV_T_FVAR, fvar->b, fvar->n}};
  size_t n = avar ? build_font(font, sizeof font, t, 2) : build_font(font, sizeof font, t + 1, 1);
  *f = NULL;
  return otv_face_open_memory(font, n, 0, NULL, f, e);
}

/* Normalize default-normalized values k[] (as user values k/16384) in the harfbuzz6 model, in
 * which the tables below were computed, and return the result. */
static void norm(otv_face *f, const int *k, unsigned n, otv_f2dot14 *out)
{
  otv_location *loc = NULL;
  double u[8];
  for (unsigned a = 0; a < n; a++) u[a] = k[a] / 16384.0;
  CHECK_EQ(otv_location_create(f, &loc, NULL), OTV_E_OK);
  if (!loc) return;
  CHECK_EQ(otv_location_set_model(loc, OTV_NORM_HARFBUZZ6), OTV_E_OK);
  CHECK_EQ(otv_location_set_user_coords(loc, u, n), OTV_E_OK);
  otv_location_normalized(loc, out, n);
  otv_location_destroy(loc);
}

static void seg(bb *b, const int (*m)[2], unsigned n)
{
  b16(b, n);
  for (unsigned i = 0; i < n; i++)
    b16(b, (unsigned)(uint16_t)m[i][0]), b16(b, (unsigned)(uint16_t)m[i][1]);
}

static void build_v1(bb *b)
{
  b->n = 0;
  b16(b, 1), b16(b, 0), b16(b, 0), b16(b, 4); /* version 1.0, reserved, axisCount 4 */
  /* axis 0: a valid map */
  static const int m0[][2] = {{-16384, -16384}, {-8192, -12288}, {0, 0},
                              {2, 1},           {8192, 4096},    {16384, 16384}};
  seg(b, m0, 6);
  /* axis 1: no 0 -> 0 mapping: invalid, ignored (identity) */
  static const int m1[][2] = {{-16384, -16384}, {0, 5000}, {16384, 16384}};
  seg(b, m1, 3);
  /* axis 2: records whose fromCoordinate does not increase are ignored */
  static const int m2[][2] = {{-16384, -16384}, {0, 0},       {-100, 3000},
                              {8192, 4096},     {4096, 9999}, {16384, 16384}};
  seg(b, m2, 6);
  /* axis 3: empty map: identity */
  b16(b, 0);
}

static void test_v1(void)
{
  bb fv, av;
  build_fvar(&fv, 4);
  build_v1(&av);
  otv_face *f;
  otv_error e = {0};
  CHECK_EQ(open_avar(&fv, av.b, av.n, &f, &e), OTV_E_OK);
  if (!f) return;
  otv_face_info info;
  otv_face_get_info(f, &info);
  CHECK_EQ(info.avar_version, 1);
  /* {input on axis 0..3} -> {expected} */
  static const struct {
    int in[4];
    int out[4];
  } cases[] = {
      {{0, 0, 0, 0}, {0, 0, 0, 0}},
      {{-16384, -16384, -16384, -16384}, {-16384, -16384, -16384, -16384}},
      {{16384, 16384, 16384, 16384}, {16384, 16384, 16384, 16384}},
      /* on records */
      {{-8192, 0, 8192, 8192}, {-12288, 0, 4096, 8192}},
      /* -12288 + 12288 * 4096 / 8192 = -6144; identity; (0,0)-(8192,4096): 3072 */
      {{-4096, 8192, 6144, 123}, {-6144, 8192, 3072, 123}},
      /* 0 + 1 * 1 / 2 = 0.5 -> 1 (halves up); -12288 + 12288 * 8191 / 8192 = -1.5 -> -1 */
      {{1, 1, 1, 1}, {1, 1, 1, 1}},
      {{-1, -1, -1, -1}, {-1, -1, -1, -1}},
      /* 1 + 4095 * 4094 / 8190 = 2048 */
      {{4096, -4096, -8192, -16383}, {2048, -4096, -8192, -16383}},
      /* (8192,4096)-(16384,16384): 4096 + 12288 * 4096 / 8192 = 10240 */
      {{12288, 12288, 12288, 12288}, {10240, 12288, 10240, 12288}},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    otv_f2dot14 o[4] = {0};
    norm(f, cases[i].in, 4, o);
    for (int a = 0; a < 4; a++) {
      if (o[a] != cases[i].out[a]) fprintf(stderr, "  case %zu axis %d\n", i, a);
      CHECK_EQ(o[a], cases[i].out[a]);
    }
  }
  /* -1 on axis 0 is a tie at -1.5: halves up gives -1 (checked above). In 16.16 the segment
   * (0,0)-(8,4) halves exactly: 4 -> 2, 5 -> (4 x 5 + 4) / 8 = 3 (2.5 away from zero), -4 on
   * the segment (-32768,-49152)-(0,0) -> -49152 + 49146 = -6; axis 1's map is invalid and
   * ignored; axis 3's is empty: identity. */
  CHECK_EQ(otv_avar_map_v1_fixed(&f->fvar.avar.seg[0], 4), 2);
  CHECK_EQ(otv_avar_map_v1_fixed(&f->fvar.avar.seg[0], 5), 3);
  CHECK_EQ(otv_avar_map_v1_fixed(&f->fvar.avar.seg[0], -4), -6);
  CHECK_EQ(f->fvar.avar.seg[1].count, 0);
  CHECK_EQ(otv_avar_map_v1_fixed(&f->fvar.avar.seg[3], -77), -77);
  otv_face_close(f);
}

/* avar 2: 2 axes, empty v1 maps; one region peaking at axis 0 = +1; item 0 delta +16383,
 * item 1 delta -16383. with_map: a format 1 axisIndexMap swapping the items. */
static void build_v2(bb *b, bool with_map)
{
  b->n = 0;
  b16(b, 2), b16(b, 0), b16(b, 0), b16(b, 2); /* version 2.0, axisCount 2 */
  b16(b, 0), b16(b, 0);                       /* two empty segment maps */
  size_t dsim_off = 20, ivs_off = with_map ? 28 : 20;
  b32(b, with_map ? (uint32_t)dsim_off : 0); /* axisIndexMapOffset */
  b32(b, (uint32_t)ivs_off);                 /* varStoreOffset */
  if (with_map) {                            /* DeltaSetIndexMap at 20 */
    b->b[b->n++] = 1;                        /* format 1 */
    b->b[b->n++] = 0x00;                     /* entryFormat: 1-byte entries, 1 inner bit */
    b32(b, 2);                               /* mapCount */
    b->b[b->n++] = 1;                        /* axis 0 -> (0, 1) */
    b->b[b->n++] = 0;                        /* axis 1 -> (0, 0) */
  }
  /* ItemVariationStore at ivs_off */
  b16(b, 1), b32(b, 12), b16(b, 1), b32(b, 28); /* format, regionListOffset, dataCount, data */
  b16(b, 2), b16(b, 1);                         /* region list: axisCount 2, regionCount 1 */
  b16(b, 0), b16(b, 16384), b16(b, 16384);      /* axis 0: start 0, peak 1, end 1 */
  b16(b, 0), b16(b, 0), b16(b, 0);              /* axis 1: no constraint */
  b16(b, 2), b16(b, 1), b16(b, 1), b16(b, 0);   /* itemCount 2, wordDeltaCount 1, 1 region: 0 */
  b16(b, 16383), b16(b, (unsigned)(uint16_t)-16383);
}

static void test_v2(void)
{
  bb fv, av;
  build_fvar(&fv, 2);
  build_v2(&av, false);
  otv_face *f;
  otv_error e = {0};
  CHECK_EQ(open_avar(&fv, av.b, av.n, &f, &e), OTV_E_OK);
  if (f) {
    otv_face_info info;
    otv_face_get_info(f, &info);
    CHECK_EQ(info.avar_version, 2);
    static const struct {
      int in[2];
      int out[2];
    } cases[] = {
        {{0, 0}, {0, 0}},
        {{0, 5000}, {0, 5000}},     /* scalar 0: unchanged */
        {{-8192, 77}, {-8192, 77}}, /* below the region: scalar 0 */
        /* scalar 0.5: +8191.5 -> +8192 (halves up); -8191.5 -> -8191 */
        {{8192, 0}, {16384, -8191}},
        /* scalar 0.25: 4095.75 -> 4096; -4095.75 -> -4096 */
        {{4096, 0}, {8192, -4096}},
        /* scalar 1: clamped to +1; 100 - 16383 */
        {{16384, 100}, {16384, -16283}},
        {{16384, -16384}, {16384, -16384}}, /* clamped to -1 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
      otv_f2dot14 o[2] = {0};
      norm(f, cases[i].in, 2, o);
      CHECK_EQ(o[0], cases[i].out[0]);
      CHECK_EQ(o[1], cases[i].out[1]);
    }
    otv_face_close(f);
  }
  build_v2(&av, true);
  CHECK_EQ(open_avar(&fv, av.b, av.n, &f, &e), OTV_E_OK);
  if (f) {
    otv_f2dot14 o[2] = {0};
    norm(f, (const int[]){8192, 0}, 2, o);
    CHECK_EQ(o[0], 8192 - 8191); /* axis 0 takes item 1: -8191.5 -> -8191 */
    CHECK_EQ(o[1], 8192);        /* axis 1 takes item 0: +8191.5 -> +8192 */
    otv_face_close(f);
  }
}

static void put16at(uint8_t *p, size_t at, unsigned v)
{
  p[at] = (uint8_t)(v >> 8);
  p[at + 1] = (uint8_t)v;
}
static void put32at(uint8_t *p, size_t at, uint32_t v)
{
  put16at(p, at, v >> 16);
  put16at(p, at + 2, v & 0xFFFF);
}

static void test_errors(void)
{
  bb fv, av;
  build_fvar(&fv, 2);
  build_v2(&av, true);
  uint8_t p[256];
  otv_face *f;
  otv_error e = {0};

  memcpy(p, av.b, av.n);
  put16at(p, 0, 3);
  CHECK_EQ(open_avar(&fv, p, av.n, &f, &e), OTV_E_UNSUPPORTED);
  CHECK_EQ(e.table, OTV_T_AVAR);
  memset(&e, 0, sizeof e);
  memcpy(p, av.b, av.n);
  put16at(p, 6, 3);
  CHECK_EQ(open_avar(&fv, p, av.n, &f, &e), OTV_E_BAD_VALUE);
  CHECK_EQ(e.table, OTV_T_AVAR);
  CHECK_EQ(e.offset, 6);

  /* truncation sweep: every prefix fails and names avar */
  for (size_t n = 0; n < av.n; n++) {
    memset(&e, 0, sizeof e);
    CHECK(open_avar(&fv, av.b, n, &f, &e) != OTV_E_OK);
    CHECK_EQ(e.table, OTV_T_AVAR);
    CHECK(f == NULL);
  }
  bb v1;
  build_fvar(&fv, 4);
  build_v1(&v1);
  for (size_t n = 0; n < v1.n; n++) {
    memset(&e, 0, sizeof e);
    CHECK(open_avar(&fv, v1.b, n, &f, &e) != OTV_E_OK);
    CHECK_EQ(e.table, OTV_T_AVAR);
  }

  /* bad-offset sweep on both v2 offsets: out of range is an error naming avar; any offset
   * inside the table either parses or fails cleanly */
  build_fvar(&fv, 2);
  const uint32_t bad[] = {(uint32_t)av.n, (uint32_t)av.n + 1, 0xFFFF, 0xFFFFFFFFu, 0x80000000u};
  for (int which = 0; which < 2; which++) {
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
      memcpy(p, av.b, av.n);
      put32at(p, 12 + 4 * (size_t)which, bad[i]);
      memset(&e, 0, sizeof e);
      CHECK(open_avar(&fv, p, av.n, &f, &e) != OTV_E_OK);
      CHECK_EQ(e.table, OTV_T_AVAR);
    }
    for (uint32_t o = 1; o < av.n; o++) {
      memcpy(p, av.b, av.n);
      put32at(p, 12 + 4 * (size_t)which, o);
      memset(&e, 0, sizeof e);
      otv_status s = open_avar(&fv, p, av.n, &f, &e);
      if (s) {
        CHECK_EQ(e.table, OTV_T_AVAR);
      } else {
        otv_f2dot14 out[2];
        norm(f, (const int[]){8192, -8192}, 2, out);
        otv_face_close(f);
      }
    }
  }
  /* a store whose regions name more axes than fvar has */
  memcpy(p, av.b, av.n);
  put16at(p, 28 + 12, 3);
  memset(&e, 0, sizeof e);
  CHECK_EQ(open_avar(&fv, p, av.n, &f, &e), OTV_E_BAD_VALUE);
  CHECK_EQ(e.table, OTV_T_AVAR);
}

/* ---- the normalization models, by hand (normalize.c's header gives each step) ---- */

enum { SPEC, FONTTOOLS, HB6, FREETYPE, HB, NMODELS };

/* user[n] in every model: f2 and fixed16 per model and axis. */
static void norm_models(otv_face *f, const double *user, unsigned n, int f2[NMODELS][2],
                        int32_t fx[NMODELS][2])
{
  static const otv_norm_model m[NMODELS] = {OTV_NORM_SPEC, OTV_NORM_FONTTOOLS, OTV_NORM_HARFBUZZ6,
                                            OTV_NORM_FREETYPE, OTV_NORM_HARFBUZZ};
  for (int i = 0; i < NMODELS; i++) {
    otv_f2dot14 c[8] = {0}; /* the face's axis count (up to 4 here): every output has one each */
    otv_fixed x[8] = {0};
    CHECK_EQ(otv_face_normalize(f, m[i], user, n, x, c, NULL, NULL), OTV_E_OK);
    for (unsigned a = 0; a < n; a++) f2[i][a] = c[a], fx[i][a] = x[a];
  }
}

/* fvar with one axis wght 100 / 400 / 900 (16.16: def - min = 300 x 65536 = 19660800, max - def
 * = 32768000), no instances. */
static void build_fvar_wght(bb *b)
{
  b->n = 0;
  b16(b, 1), b16(b, 0), b16(b, 16), b16(b, 2), b16(b, 1), b16(b, 20), b16(b, 0), b16(b, 8);
  b32(b, OTV_TAG('w', 'g', 'h', 't')), bfix(b, 100), bfix(b, 400), bfix(b, 900);
  b16(b, 0), b16(b, 256);
}

/* The models on the wght axis of build_fvar_wght, no avar. */
static void test_models_default(void)
{
  bb fv;
  build_fvar_wght(&fv);
  otv_face *f;
  CHECK_EQ(open_avar(&fv, NULL, 0, &f, NULL), OTV_E_OK);
  if (!f) return;
  static const struct {
    double user;
    int f2[NMODELS]; /* spec, fonttools, harfbuzz6, freetype, harfbuzz */
    int32_t spec_fixed;
  } cases[] = {
      {400, {0, 0, 0, 0, 0}, 0},
      {900, {16384, 16384, 16384, 16384, 16384}, 65536},
      {1000, {16384, 16384, 16384, 16384, 16384}, 65536},    /* clamped */
      {0, {-16384, -16384, -16384, -16384, -16384}, -65536}, /* clamped */
      /* half a step above the default: 1000 / 65536 above; 16.16: 1000 x 65536 / 32768000 = 2
       * exactly; F2Dot14 floor((2 + 2) / 4) = 1; the real value 0.5 rounds up in every model */
      {400 + 1000 / 65536.0, {1, 1, 1, 1, 1}, 2},
      /* half a step below: 600 x 65536 / 19660800 = 2 exactly -> -2; floor(0 / 4) = 0 (halves
       * up); fontTools and HarfBuzz 6.0 -0.5 -> 0 */
      {400 - 600 / 65536.0, {0, 0, 0, 0, 0}, -2},
      /* 900 / 65536 above: the 16.16 quotient 1.8 rounds to 2 -> F2Dot14 1; the exact value
       * 0.45 of a step rounds to 0 in double (fontTools) and binary32 (HarfBuzz 6.0); current
       * HarfBuzz rounds the binary32 quotient to 16.16 first: 1 */
      {400 + 900 / 65536.0, {1, 0, 0, 1, 1}, 2},
      /* 700 / 65536 below: 2.333 -> -2 -> floor(0 / 4) = 0; exact -0.583 of a step -> -1 */
      {400 - 700 / 65536.0, {0, -1, -1, 0, 0}, -2},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int f2[NMODELS][2];
    int32_t fx[NMODELS][2];
    norm_models(f, &cases[i].user, 1, f2, fx);
    for (int m = 0; m < NMODELS; m++) {
      if (f2[m][0] != cases[i].f2[m]) fprintf(stderr, "  case %zu model %d\n", i, m);
      CHECK_EQ(f2[m][0], cases[i].f2[m]);
    }
    CHECK_EQ(fx[SPEC][0], cases[i].spec_fixed);
    CHECK_EQ(fx[FREETYPE][0], cases[i].spec_fixed);
  }
  otv_face_close(f);
}

static void test_models_avar(void)
{
  bb fv, av;
  build_fvar(&fv, 4);
  build_v1(&av);
  otv_face *f;
  CHECK_EQ(open_avar(&fv, av.b, av.n, &f, NULL), OTV_E_OK);
  if (!f) return;
  int f2[NMODELS][2];
  int32_t fx[NMODELS][2];
  /* on a segment point: -0.5 -> -0.75 (-12288) in every model */
  norm_models(f, (const double[]){-0.5}, 1, f2, fx);
  for (int m = 0; m < NMODELS; m++) CHECK_EQ(f2[m][0], -12288);
  CHECK_EQ(fx[SPEC][0], -49152);
  /* user -5/65536 on axis 0, in the segment (-32768, -49152)..(0, 0) (16.16): spec: -5 ->
   * -49152 + (49152 x 32763 + 16384) / 32768 = -49152 + 49145 = -7 -> floor(-5 / 4) = -2;
   * fontTools: -0.75 + 0.75 x 0.49992371 / 0.5 = -0.00011444 -> x 16384 = -1.875 -> -2;
   * current HarfBuzz: the same in binary32, exactly -7.5 in 16.16 -> floor(-7) -> -2;
   * HarfBuzz 6.0: -5/65536 x 16384 = -1.25 -> -1 first, then -12288 + 12288 x 8191 / 8192 =
   * -1.5 -> -1 */
  norm_models(f, (const double[]){-5 / 65536.0}, 1, f2, fx);
  CHECK_EQ(f2[SPEC][0], -2);
  CHECK_EQ(fx[SPEC][0], -7);
  CHECK_EQ(f2[FONTTOOLS][0], -2);
  CHECK_EQ(f2[HB6][0], -1);
  CHECK_EQ(f2[FREETYPE][0], -2);
  CHECK_EQ(f2[HB][0], -2);
  CHECK_EQ(fx[HB][0], -7);
  otv_face_close(f);
}

static void test_models_avar2(void)
{
  bb fv, av;
  build_fvar(&fv, 2);
  build_v2(&av, false);
  otv_face *f;
  CHECK_EQ(open_avar(&fv, av.b, av.n, &f, NULL), OTV_E_OK);
  if (!f) return;
  int f2[NMODELS][2];
  int32_t fx[NMODELS][2];
  /* axis 0 at 16386/65536: spec: 16.16 16386, read at F2Dot14 floor(16388 / 4) = 4097: scalar
   * 4097/16384, delta 16383 x 0.25006104 = 4096.75 (binary32) -> x 4 = 16387 -> 16386 + 16387 =
   * 32773 -> floor(32775 / 4) = 8193; axis 1: -16387 -> floor(-16385 / 4) = -4097. fontTools
   * and HarfBuzz 6.0 round axis 0 to F2Dot14 first (4096.5 -> 4097) and the delta to a whole
   * step (4097): 8194; axis 1: -4096.75 -> -4097. */
  norm_models(f, (const double[]){16386 / 65536.0, 0}, 2, f2, fx);
  static const int want0[NMODELS] = {8193, 8194, 8194, 8193, 8193};
  for (int m = 0; m < NMODELS; m++) {
    CHECK_EQ(f2[m][0], want0[m]);
    CHECK_EQ(f2[m][1], -4097);
  }
  CHECK_EQ(fx[SPEC][0], 32773);
  CHECK_EQ(fx[SPEC][1], -16387);
  otv_face_close(f);
}

/* The location follows its model: set_model normalizes the user values again; coordinates set
 * as normalized ones stay. */
static void test_location_model(void)
{
  bb fv;
  build_fvar_wght(&fv);
  otv_face *f;
  CHECK_EQ(open_avar(&fv, NULL, 0, &f, NULL), OTV_E_OK);
  if (!f) return;
  otv_location *loc = NULL;
  CHECK_EQ(otv_location_create(f, &loc, NULL), OTV_E_OK);
  if (loc) {
    CHECK_EQ(otv_location_model(loc), OTV_NORM_SPEC);
    otv_f2dot14 c = 0;
    otv_fixed x = 0;
    double u = 400 + 900 / 65536.0;
    CHECK_EQ(otv_location_set_user_coords(loc, &u, 1), OTV_E_OK);
    otv_location_normalized(loc, &c, 1);
    CHECK_EQ(c, 1);
    CHECK_EQ(otv_location_set_model(loc, OTV_NORM_FONTTOOLS), OTV_E_OK);
    otv_location_normalized(loc, &c, 1);
    CHECK_EQ(c, 0);
    CHECK_EQ(otv_location_set_model(loc, (otv_norm_model)99), OTV_E_ARG);
    CHECK_EQ(otv_location_model(loc), OTV_NORM_FONTTOOLS);
    otv_f2dot14 set = 77;
    CHECK_EQ(otv_location_set_normalized(loc, &set, 1), OTV_E_OK);
    CHECK_EQ(otv_location_set_model(loc, OTV_NORM_SPEC), OTV_E_OK);
    otv_location_normalized(loc, &c, 1);
    otv_location_normalized_fixed(loc, &x, 1);
    CHECK_EQ(c, 77);
    CHECK_EQ(x, 77 * 4);
    otv_location_destroy(loc);
  }
  /* names both ways */
  for (int m = 0; m < OTV_NORM_MODEL_COUNT; m++) {
    otv_norm_model back;
    const char *name = otv_norm_model_name((otv_norm_model)m);
    CHECK(name != NULL);
    CHECK(otv_norm_model_from_name(name, &back) && back == (otv_norm_model)m);
  }
  CHECK(otv_norm_model_name((otv_norm_model)OTV_NORM_MODEL_COUNT) == NULL);
  CHECK(!otv_norm_model_from_name("Spec", NULL));
  CHECK_EQ(otv_face_normalize(f, OTV_NORM_SPEC, (const double[]){NAN}, 1, NULL, NULL, NULL, NULL),
           OTV_E_ARG);
  otv_face_close(f);
}

int main(void)
{
  test_v1();
  test_v2();
  test_models_default();
  test_models_avar();
  test_models_avar2();
  test_location_model();
  test_errors();
  return h_done("test_avar");
}

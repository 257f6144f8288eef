/*
 * test_avar.c - avar v1 segment maps (interpolation and its rounding, invalid maps ignored per
 * spec, non-increasing records ignored, empty maps) and avar v2 (implicit and explicit
 * axisIndexMap, ItemVariationStore deltas at the v1 output, rounding, clamping), all with values
 * computed by hand from the spec's formulas; validation errors, truncation and offset sweeps.
 * The fvar axes of the fixtures run -1..0..+1, so a user value k/16384 normalizes to k.
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
  size_t n = build_font(font, sizeof font, t, 2);
  *f = NULL;
  return otv_face_open_memory(font, n, 0, NULL, f, e);
}

/* Normalize default-normalized values k[] (as user values k/16384) and return the result. */
static void norm(otv_face *f, const int *k, unsigned n, otv_f2dot14 *out)
{
  otv_location *loc = NULL;
  double u[8];
  for (unsigned a = 0; a < n; a++) u[a] = k[a] / 16384.0;
  CHECK_EQ(otv_location_create(f, &loc, NULL), OTV_E_OK);
  if (!loc) return;
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
  /* -1 on axis 0 is a tie at -1.5: halves up gives -1 (checked above); on axis 2 (2 records
   * ignored) the map is (-16384,-16384)-(0,0): identity. */
  CHECK_EQ(otv_avar_map_v1(&f->fvar.avar.seg[0], 1), 1);
  CHECK_EQ(f->fvar.avar.seg[1].count, 0);
  CHECK_EQ(otv_avar_map_v1(&f->fvar.avar.seg[3], -77), -77);
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

int main(void)
{
  test_v1();
  test_v2();
  test_errors();
  return h_done("test_avar");
}

/*
 * test_fvar.c - fvar parsing and accessors (axes, named instances, postScriptNameID by
 * instanceSize), validation errors, truncation and bad-offset sweeps, the default normalization
 * (hand-computed from the spec formula, including the tie rule), and allocation failures.
 */
#include <math.h>
#include "harness.h"

/* ---- fixture builder: an sfnt with head, maxp and the given tables ---- */
#include "sfnt_fixture.h"

static otv_status open_with(const uint8_t *fvar, size_t len, otv_face **f, otv_error *e)
{
  static uint8_t font[8192];
  tbl t = {OTV_T_FVAR, fvar, len};
  size_t n = build_font(font, sizeof font, &t, 1);
  *f = NULL;
  return otv_face_open_memory(font, n, 0, NULL, f, e);
}

/* fvar with wght 100/400/900 and wdth (hidden) 75/100/125, three instances. ps: instanceSize
 * with postScriptNameID. */
static size_t build_fvar(bb *b, bool ps)
{
  b->n = 0;
  b16(b, 1), b16(b, 0); /* version 1.0 */
  b16(b, 16);           /* axesArrayOffset */
  b16(b, 2);            /* reserved */
  b16(b, 2);            /* axisCount */
  b16(b, 20);           /* axisSize */
  b16(b, 3);            /* instanceCount */
  b16(b, ps ? 14 : 12); /* instanceSize: 2 * 4 + 4 (+ 2) */
  b32(b, OTV_TAG('w', 'g', 'h', 't'));
  bfix(b, 100), bfix(b, 400), bfix(b, 900);
  b16(b, 0), b16(b, 256);
  b32(b, OTV_TAG('w', 'd', 't', 'h'));
  bfix(b, 75), bfix(b, 100), bfix(b, 125.5);
  b16(b, 1), b16(b, 257); /* HIDDEN_AXIS */
  const double co[3][2] = {{100, 75}, {400, 100}, {900.25, 125.5}};
  for (int i = 0; i < 3; i++) {
    b16(b, 258 + (unsigned)i), b16(b, 0);
    bfix(b, co[i][0]), bfix(b, co[i][1]);
    if (ps) b16(b, i == 1 ? 0xFFFF : 300 + (unsigned)i);
  }
  return b->n;
}

static void test_axes_instances(void)
{
  bb b;
  size_t len = build_fvar(&b, true);
  otv_face *f;
  otv_error e = {0};
  CHECK_EQ(open_with(b.b, len, &f, &e), OTV_E_OK);
  if (!f) return;
  otv_face_info info;
  otv_face_get_info(f, &info);
  CHECK_EQ(info.axis_count, 2);
  CHECK_EQ(info.instance_count, 3);
  CHECK_EQ(info.avar_version, 0);
  otv_axis ax[4];
  unsigned cnt = 4;
  CHECK_EQ(otv_face_axes(f, 0, &cnt, ax), 2);
  CHECK_EQ(cnt, 2);
  CHECK_EQ(ax[0].tag, OTV_TAG('w', 'g', 'h', 't'));
  CHECK(ax[0].min_value == 100 && ax[0].default_value == 400 && ax[0].max_value == 900);
  CHECK_EQ(ax[0].flags, 0);
  CHECK_EQ(ax[0].name_id, 256);
  CHECK_EQ(ax[1].flags, OTV_AXIS_FLAG_HIDDEN);
  CHECK(ax[1].max_value == 125.5);
  CHECK_EQ(ax[1].index, 1);
  /* paging */
  cnt = 1;
  CHECK_EQ(otv_face_axes(f, 1, &cnt, ax), 2);
  CHECK_EQ(cnt, 1);
  CHECK_EQ(ax[0].tag, OTV_TAG('w', 'd', 't', 'h'));
  cnt = 4;
  CHECK_EQ(otv_face_axes(f, 5, &cnt, ax), 2);
  CHECK_EQ(cnt, 0);
  CHECK_EQ(otv_face_axes(f, 0, NULL, NULL), 2);

  otv_named_instance ni[4];
  cnt = 4;
  CHECK_EQ(otv_face_named_instances(f, 0, &cnt, ni), 3);
  CHECK_EQ(cnt, 3);
  CHECK_EQ(ni[0].subfamily_name_id, 258);
  CHECK_EQ(ni[0].postscript_name_id, 300);
  CHECK_EQ(ni[1].postscript_name_id, 0xFFFF);
  CHECK_EQ(ni[2].postscript_name_id, 302);
  CHECK_EQ(ni[2].index, 2);
  double c[3] = {-1, -1, -1};
  CHECK_EQ(otv_face_named_instance_coords(f, 2, c, 3, NULL), OTV_E_OK);
  CHECK(c[0] == 900.25 && c[1] == 125.5 && c[2] == -1); /* writes min(cap, axis_count) */
  c[0] = c[1] = -1;
  CHECK_EQ(otv_face_named_instance_coords(f, 0, c, 1, NULL), OTV_E_OK);
  CHECK(c[0] == 100 && c[1] == -1);
  otv_error e2 = {0};
  CHECK_EQ(otv_face_named_instance_coords(f, 3, c, 3, &e2), OTV_E_NOT_FOUND);
  CHECK_EQ(e2.table, OTV_T_FVAR);
  CHECK_EQ(otv_fvar_axis_tag(&f->fvar, 1), OTV_TAG('w', 'd', 't', 'h'));
  CHECK_EQ(otv_fvar_axis_tag(&f->fvar, 2), 0);
  CHECK(otv_fvar_axis_default(&f->fvar, 1) == 100);

  /* named instance -> location */
  otv_location *loc = NULL;
  CHECK_EQ(otv_location_create(f, &loc, NULL), OTV_E_OK);
  if (loc) {
    CHECK_EQ(otv_location_set_named(loc, 2), OTV_E_OK);
    otv_f2dot14 n[2];
    otv_location_normalized(loc, n, 2);
    CHECK_EQ(n[0], 16384); /* 900.25 clamps to 900 */
    CHECK_EQ(n[1], 16384);
    CHECK_EQ(otv_location_set_named(loc, 3), OTV_E_NOT_FOUND);
    otv_location_destroy(loc);
  }
  otv_face_close(f);

  /* instanceSize without postScriptNameID */
  len = build_fvar(&b, false);
  CHECK_EQ(open_with(b.b, len, &f, &e), OTV_E_OK);
  if (f) {
    cnt = 4;
    otv_face_named_instances(f, 0, &cnt, ni);
    CHECK_EQ(cnt, 3);
    CHECK_EQ(ni[0].postscript_name_id, 0xFFFF);
    CHECK_EQ(ni[2].subfamily_name_id, 260);
    CHECK_EQ(otv_face_named_instance_coords(f, 2, c, 2, NULL), OTV_E_OK);
    CHECK(c[0] == 900.25);
    otv_face_close(f);
  }
}

/* Default normalization from the spec's formula, rounded to F2Dot14 with halves up. */
static void test_normalize(void)
{
  bb b;
  size_t len = build_fvar(&b, true);
  otv_face *f;
  CHECK_EQ(open_with(b.b, len, &f, NULL), OTV_E_OK);
  if (!f) return;
  otv_location *loc = NULL;
  CHECK_EQ(otv_location_create(f, &loc, NULL), OTV_E_OK);
  const struct {
    double wght;
    int want;
  } cases[] = {
      {400, 0},
      {100, -16384},
      {900, 16384},
      {250, -8192},
      {650, 8192},
      {50, -16384},
      {1e9, 16384},
      {-1e300, -16384},
      {1e300, 16384},
      /* 400 + 500 * 1.5/16384: exactly 1.5 steps -> 2; 400 - 300 * 1.5/16384: -1.5 -> -1 */
      {400.0457763671875, 2},
      {399.9725341796875, -1},
      /* 2.5 and -2.5 steps: 3 and -2 */
      {400.0762939453125, 3},
      {399.9542236328125, -2},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0] && loc; i++) {
    otv_axis_value v = {OTV_TAG('w', 'g', 'h', 't'), cases[i].wght};
    CHECK_EQ(otv_location_set_user(loc, &v, 1), OTV_E_OK);
    otv_f2dot14 n[2] = {99, 99};
    CHECK_EQ(otv_location_normalized(loc, n, 2), 2);
    if (n[0] != cases[i].want) fprintf(stderr, "  wght=%.17g\n", cases[i].wght);
    CHECK_EQ(n[0], cases[i].want);
    CHECK_EQ(n[1], 0); /* unlisted: default */
  }
  if (loc) {
    /* unknown tags are ignored; the last of duplicate tags wins; NaN is ARG */
    otv_axis_value v[3] = {{OTV_TAG('x', 'x', 'x', 'x'), 5},
                           {OTV_TAG('w', 'd', 't', 'h'), 75},
                           {OTV_TAG('w', 'd', 't', 'h'), 125.5}};
    CHECK_EQ(otv_location_set_user(loc, v, 3), OTV_E_OK);
    otv_f2dot14 n[2];
    otv_location_normalized(loc, n, 2);
    CHECK_EQ(n[0], 0);
    CHECK_EQ(n[1], 16384);
    v[0].value = NAN;
    CHECK_EQ(otv_location_set_user(loc, v, 1), OTV_E_ARG);
    double u[2] = {900, 87.5}; /* wdth: (87.5 - 100) / 25 = -0.5 */
    CHECK_EQ(otv_location_set_user_coords(loc, u, 2), OTV_E_OK);
    otv_location_normalized(loc, n, 2);
    CHECK_EQ(n[0], 16384);
    CHECK_EQ(n[1], -8192);
    otv_location_destroy(loc);
  }
  otv_face_close(f);

  /* min > default: the range below the default is empty (values clamp to the default) */
  b.b[16 + 4 + 0] = 0x01, b.b[16 + 4 + 1] = 0xF4; /* minValue = 500.0 (0x01F4.0000) */
  CHECK_EQ(open_with(b.b, len, &f, NULL), OTV_E_OK);
  if (f) {
    otv_axis ax;
    unsigned one = 1;
    otv_face_axes(f, 0, &one, &ax);
    CHECK(ax.min_value == 500); /* reported as stored */
    CHECK_EQ(otv_location_create(f, &loc, NULL), OTV_E_OK);
    double u[1] = {300};
    otv_f2dot14 n[2];
    if (loc) {
      CHECK_EQ(otv_location_set_user_coords(loc, u, 1), OTV_E_OK);
      otv_location_normalized(loc, n, 2);
      CHECK_EQ(n[0], 0);
      u[0] = 650;
      CHECK_EQ(otv_location_set_user_coords(loc, u, 1), OTV_E_OK);
      otv_location_normalized(loc, n, 2);
      CHECK_EQ(n[0], 8192);
      otv_location_destroy(loc);
    }
    otv_face_close(f);
  }
}

static void put16at(uint8_t *p, size_t at, unsigned v)
{
  p[at] = (uint8_t)(v >> 8);
  p[at + 1] = (uint8_t)v;
}

static void expect_fail(const uint8_t *p, size_t len, otv_status want, const char *what)
{
  otv_face *f;
  otv_error e = {0};
  otv_status s = open_with(p, len, &f, &e);
  if (s != want) fprintf(stderr, "  case: %s (got %d)\n", what, s);
  CHECK_EQ(s, want);
  CHECK_EQ(e.table, OTV_T_FVAR);
  CHECK(f == NULL);
  otv_face_close(f);
}

static void test_errors(void)
{
  bb b;
  size_t len = build_fvar(&b, true);
  uint8_t p[512];
  memcpy(p, b.b, len);
  put16at(p, 0, 2);
  expect_fail(p, len, OTV_E_UNSUPPORTED, "version 2");
  memcpy(p, b.b, len);
  put16at(p, 8, OTV_MAX_AXES + 1);
  expect_fail(p, len, OTV_E_LIMIT, "too many axes");
  memcpy(p, b.b, len);
  put16at(p, 10, 16);
  expect_fail(p, len, OTV_E_BAD_VALUE, "axisSize 16");
  memcpy(p, b.b, len);
  put16at(p, 14, 11);
  expect_fail(p, len, OTV_E_BAD_VALUE, "instanceSize 11");
  memcpy(p, b.b, len);
  put16at(p, 8, 3); /* 3 axes need instanceSize >= 16 */
  expect_fail(p, len, OTV_E_BAD_VALUE, "axisCount 3");
  memcpy(p, b.b, len);
  put16at(p, 8, 3), put16at(p, 14, 18); /* consistent sizes, but the records run past the end */
  expect_fail(p, len, OTV_E_TRUNCATED, "axisCount 3, instanceSize 18");
  memcpy(p, b.b, len);
  put16at(p, 12, 0xFFFF);
  expect_fail(p, len, OTV_E_TRUNCATED, "instanceCount 0xFFFF");

  /* bad-offset sweep on axesArrayOffset */
  const unsigned offs[] = {0, 4, 15, (unsigned)len, (unsigned)len + 1, 0xFFFF, 17};
  for (size_t i = 0; i < sizeof offs / sizeof offs[0]; i++) {
    memcpy(p, b.b, len);
    put16at(p, 4, offs[i]);
    otv_face *f;
    otv_error e = {0};
    CHECK(open_with(p, len, &f, &e) != OTV_E_OK);
    CHECK_EQ(e.table, OTV_T_FVAR);
  }

  /* truncation sweep: every prefix fails and names fvar */
  for (size_t n = 0; n < len; n++) {
    otv_face *f;
    otv_error e = {0};
    CHECK(open_with(b.b, n, &f, &e) != OTV_E_OK);
    CHECK_EQ(e.table, OTV_T_FVAR);
    CHECK(f == NULL);
  }

  /* larger axisSize (extension) is strided over */
  bb w;
  w.n = 0;
  b16(&w, 1), b16(&w, 0), b16(&w, 16), b16(&w, 2), b16(&w, 1), b16(&w, 24), b16(&w, 1), b16(&w, 8);
  b32(&w, OTV_TAG('o', 'p', 's', 'z'));
  bfix(&w, 8), bfix(&w, 12), bfix(&w, 72);
  b16(&w, 0), b16(&w, 256), b32(&w, 0xDEADBEEF); /* 4 bytes of extension */
  b16(&w, 258), b16(&w, 0), bfix(&w, 36);
  otv_face *f;
  CHECK_EQ(open_with(w.b, w.n, &f, NULL), OTV_E_OK);
  if (f) {
    double c;
    CHECK_EQ(otv_face_named_instance_coords(f, 0, &c, 1, NULL), OTV_E_OK);
    CHECK(c == 36);
    otv_face_close(f);
  }
  /* no fvar: not variable */
  static uint8_t font[512];
  size_t n = build_font(font, sizeof font, NULL, 0);
  CHECK_EQ(otv_face_open_memory(font, n, 0, NULL, &f, NULL), OTV_E_OK);
  if (f) {
    CHECK_EQ(otv_face_axes(f, 0, NULL, NULL), 0);
    CHECK_EQ(otv_face_named_instances(f, 0, NULL, NULL), 0);
    otv_location *loc;
    CHECK_EQ(otv_location_create(f, &loc, NULL), OTV_E_OK);
    if (loc) {
      CHECK_EQ(otv_location_set_user(loc, NULL, 0), OTV_E_OK);
      CHECK(otv_location_is_default(loc));
      /* errors: a setter starts afresh; other calls keep the first error until it is cleared,
       * then the next call's own error shows */
      otv_axis_value nan_value = {OTV_TAG('w', 'g', 'h', 't'), NAN};
      CHECK(otv_location_set_user(loc, &nan_value, 1) != OTV_E_OK);
      CHECK_EQ(otv_location_last_error(loc)->code, OTV_E_ARG);
      CHECK_EQ(otv_location_set_user(loc, NULL, 0), OTV_E_OK);
      CHECK_EQ(otv_location_last_error(loc)->code, OTV_E_OK);
      otv_glyph_metrics gm;
      CHECK(otv_glyph_h_metrics(loc, 60000, 0, &gm) != OTV_E_OK);
      char first[sizeof otv_location_last_error(loc)->msg];
      snprintf(first, sizeof first, "%s", otv_location_last_error(loc)->msg);
      CHECK(first[0] != 0);
      CHECK(otv_glyph_outline(loc, 0, 0, NULL, NULL) != OTV_E_OK);
      CHECK(strcmp(otv_location_last_error(loc)->msg, first) == 0);
      otv_location_clear_error(loc);
      CHECK_EQ(otv_location_last_error(loc)->code, OTV_E_OK);
      CHECK(otv_glyph_outline(loc, 0, 0, NULL, NULL) != OTV_E_OK);
      CHECK(otv_location_last_error(loc)->code != OTV_E_OK);
      CHECK(strcmp(otv_location_last_error(loc)->msg, first) != 0);
      otv_location_clear_error(NULL);
      otv_location_destroy(loc);
    }
    otv_face_close(f);
  }
}

/* Allocation failures on a real font with fvar + avar v2: NOMEM or OK, never a leak. */
static void test_alloc_failures(void)
{
  size_t len;
  uint8_t *data = h_read_file(h_font("Amstelvar-avar2.A.ttf"), &len);
  for (long n = 1; n < 300; n++) {
    h_alloc a = {0, n, 0, 0};
    otv_options opt = {h_realloc, &a, 0};
    otv_face *f = NULL;
    otv_status s = otv_face_open_memory(data, len, 0, &opt, &f, NULL);
    CHECK(s == OTV_E_OK || s == OTV_E_NOMEM);
    if (!s) {
      otv_location *loc = NULL;
      otv_status ls = otv_location_create(f, &loc, NULL);
      CHECK(ls == OTV_E_OK || ls == OTV_E_NOMEM);
      if (!ls) {
        otv_axis_value v = {OTV_TAG('w', 'g', 'h', 't'), 700};
        otv_status us = otv_location_set_user(loc, &v, 1);
        CHECK(us == OTV_E_OK || us == OTV_E_NOMEM);
        if (us == OTV_E_NOMEM) CHECK_EQ(otv_location_last_error(loc)->code, OTV_E_NOMEM);
        otv_location_destroy(loc);
      }
      otv_face_close(f);
    }
    CHECK_EQ(a.live_blocks, 0);
    if (!s && a.calls < n) break; /* every allocation has been failed once */
  }
  free(data);
}

int main(void)
{
  test_axes_instances();
  test_normalize();
  test_errors();
  test_alloc_failures();
  return h_done("test_fvar");
}

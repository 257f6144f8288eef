/*
 * test_gvar.c - gvar on hand-built fonts (tests/unit/glyf_fixture.h): every point-number and
 * delta-run encoding, embedded / shared / intermediate tuples, IUP (one touched point, two,
 * none, coincident reference points, interpolation and extrapolation), phantom point deltas,
 * composite offset deltas, OTV_OUTLINE_ROUND, the scalar cache, truncation and bad-offset sweeps,
 * and allocation failures. Expected values are worked out by hand from the spec.
 *
 * The test outline (glyph "SQ"): contour 0 = p0 (0,0) p1 (100,0) p2 (100,100) p3 (0,100), all
 * on-curve; contour 1 = p4 (200,0) p5 (300,0) on, p6 (250,100) off. Phantoms (advance 400, lsb 0,
 * hhea ascender 800, descender -200): p7 (0,0) p8 (400,0) p9 (0,800) p10 (0,-200).
 */
#include "harness.h"
#include "glyf_fixture.h"

static const int SQ_X[11] = {0, 100, 100, 0, 200, 300, 250, 0, 400, 0, 0};
static const int SQ_Y[11] = {0, 0, 100, 100, 0, 0, 100, 0, 0, 800, -200};

static void sq_glyph(fx_buf *b)
{
  static const int dx[7] = {0, 100, 0, -100, 200, 100, -50}, dy[7] = {0, 0, 100, 0, -100, 0, 100};
  b->n = 0;
  fx_i16(b, 2), fx_i16(b, 0), fx_i16(b, 0), fx_i16(b, 300), fx_i16(b, 100); /* header */
  fx_u16(b, 3), fx_u16(b, 6), fx_u16(b, 0); /* endPtsOfContours, instructionLength */
  for (int i = 0; i < 7; i++) fx_u8(b, i < 6 ? 0x01 : 0x00); /* flags: int16 x and y */
  for (int i = 0; i < 7; i++) fx_i16(b, dx[i]);
  for (int i = 0; i < 7; i++) fx_i16(b, dy[i]);
}

/* One tuple of a GlyphVariationData. */
typedef struct tup {
  unsigned index; /* tupleIndex incl. flags */
  int peak, start, end;
  const uint8_t *data;
  size_t len;
} tup;

#define EMBEDDED 0x8000u
#define INTERMEDIATE 0x4000u
#define PRIVATE 0x2000u

static void gvdata(fx_buf *b, unsigned count_flags, const uint8_t *shared, size_t shared_len,
                   const tup *t, int n)
{
  b->n = 0;
  size_t hdr = 4;
  for (int i = 0; i < n; i++)
    hdr += 4 + (t[i].index & EMBEDDED ? 2 : 0) + (t[i].index & INTERMEDIATE ? 4 : 0);
  fx_u16(b, count_flags | (unsigned)n), fx_u16(b, (unsigned)hdr);
  for (int i = 0; i < n; i++) {
    fx_u16(b, (unsigned)t[i].len), fx_u16(b, t[i].index);
    if (t[i].index & EMBEDDED) fx_i16(b, t[i].peak);
    if (t[i].index & INTERMEDIATE) fx_i16(b, t[i].start), fx_i16(b, t[i].end);
  }
  if (shared_len) fx_bytes(b, shared, shared_len);
  for (int i = 0; i < n; i++) fx_bytes(b, t[i].data, t[i].len);
}

static fx_font F;
static fx_buf glyphs[16], gv[16], composite;
static const int16_t shared_tuples[2] = {16384, -16384};

enum {
  G_EMPTY,
  G_BYTES,
  G_WORDS,
  G_COINC_DIFF,
  G_IUP,
  G_ONE,
  G_SHARED,
  G_PHANTOM,
  G_COMP,
  G_MULTI,
  G_PLAIN,
  G_COUNT
};

static void build(void)
{
  memset(&F, 0, sizeof F);
  F.glyph_count = G_COUNT;
  F.variable = 1;
  F.shared_tuples = shared_tuples;
  F.shared_count = 2;
  for (int g = 1; g < G_COUNT; g++) {
    sq_glyph(&glyphs[g]);
    F.glyph[g] = &glyphs[g];
    F.advance[g] = 400;
  }
  F.advance[0] = 500;

  /* G_BYTES: embedded peak +1, all points; x: one byte run of 11 x 10; y: one zero run of 11 */
  static const uint8_t d1[] = {0x00, 0x0A, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 0x8A};
  tup t1 = {EMBEDDED | PRIVATE, 16384, 0, 0, d1, sizeof d1};
  gvdata(&gv[G_BYTES], 0, NULL, 0, &t1, 1);

  /* G_WORDS: x: 6 words of 1000 then 5 32-bit deltas of 70000; y: 11 bytes of -3 */
  static uint8_t d2[64];
  size_t n2 = 0;
  d2[n2++] = 0x00;     /* all points */
  d2[n2++] = 0x40 | 5; /* 6 words */
  for (int i = 0; i < 6; i++) d2[n2++] = 0x03, d2[n2++] = 0xE8;
  d2[n2++] = 0xC0 | 4; /* 5 longs */
  for (int i = 0; i < 5; i++) d2[n2++] = 0x00, d2[n2++] = 0x01, d2[n2++] = 0x11, d2[n2++] = 0x70;
  d2[n2++] = 10; /* 11 bytes */
  for (int i = 0; i < 11; i++) d2[n2++] = 0xFD;
  tup t2 = {EMBEDDED | PRIVATE, 16384, 0, 0, d2, n2};
  gvdata(&gv[G_WORDS], 0, NULL, 0, &t2, 1);

  /* G_COINC_DIFF: points 1, 2 (byte run); x deltas 10, 20 (coincident x = 100, different
   * deltas: untouched p0, p3 get 0); y deltas 0, 0 */
  static const uint8_t d3[] = {0x02, 0x01, 1, 1, 0x01, 10, 20, 0x81};
  tup t3 = {EMBEDDED | PRIVATE, 16384, 0, 0, d3, sizeof d3};
  gvdata(&gv[G_COINC_DIFF], 0, NULL, 0, &t3, 1);

  /* G_IUP: points 1, 2, 4, 5; x 10, 10, 10, 30; y 5, 15, 0, 0 */
  static const uint8_t d4[] = {0x04, 0x03, 1, 1, 2, 1, 0x03, 10, 10, 10, 30, 0x01, 5, 15, 0x81};
  tup t4 = {EMBEDDED | PRIVATE, 16384, 0, 0, d4, sizeof d4};
  gvdata(&gv[G_IUP], 0, NULL, 0, &t4, 1);

  /* G_ONE: one point (2) as a word run; delta (7, -7); negative peak -1 */
  static const uint8_t d5[] = {0x01, 0x80, 0x00, 0x02, 0x00, 7, 0x00, 0xF9};
  tup t5 = {EMBEDDED | PRIVATE, -16384, 0, 0, d5, sizeof d5};
  gvdata(&gv[G_ONE], 0, NULL, 0, &t5, 1);

  /* G_SHARED: shared points 0, 3; tuple 1 = shared tuple 0 (+1) with intermediate region
   * 0.5..1: x 8, 8; tuple 2 = shared tuple 1 (-1): y 4, 4 */
  static const uint8_t sp[] = {0x02, 0x01, 0, 3};
  static const uint8_t d6a[] = {0x01, 8, 8, 0x81};
  static const uint8_t d6b[] = {0x81, 0x01, 4, 4};
  tup t6[2] = {{INTERMEDIATE | 0, 0, 8192, 16384, d6a, sizeof d6a}, {1, 0, 0, 0, d6b, sizeof d6b}};
  gvdata(&gv[G_SHARED], 0x8000, sp, sizeof sp, t6, 2);

  /* G_PHANTOM: point 8 (the advance phantom) x + 50 */
  static const uint8_t d7[] = {0x01, 0x00, 8, 0x00, 50, 0x80};
  tup t7 = {EMBEDDED | PRIVATE, 16384, 0, 0, d7, sizeof d7};
  gvdata(&gv[G_PHANTOM], 0, NULL, 0, &t7, 1);

  /* G_COMP: composite of G_PLAIN at offset (20, 30); gvar: all 5 points (1 offset + 4
   * phantoms): x 100, 0, 0, 0, 0; y -10, 0... */
  fx_buf *c = &composite;
  c->n = 0;
  fx_i16(c, -1), fx_i16(c, 20), fx_i16(c, 30), fx_i16(c, 320), fx_i16(c, 130);
  fx_u16(c, 0x0001 | 0x0002 | 0x0200), fx_u16(c, G_PLAIN), fx_i16(c, 20), fx_i16(c, 30);
  F.glyph[G_COMP] = c;
  static const uint8_t d8[] = {0x00, 0x00, 100, 0x83, 0x00, 0xF6, 0x83};
  tup t8 = {EMBEDDED | PRIVATE, 16384, 0, 0, d8, sizeof d8};
  gvdata(&gv[G_COMP], 0, NULL, 0, &t8, 1);

  /* G_MULTI (the last glyph with variation data): 4 tuples with peak +1, applied in order:
   *   1. all points: x 11 bytes of 2, y a zero run;
   *   2. points 1, 2, 4, 5 as G_IUP (IUP gives ix, iy below);
   *   3. all points: x 11 words of -4, y 11 bytes of 6;
   *   4. all points: x a zero run, y 11 32-bit deltas of 1.
   * At +1: x + ix - 2, y + iy + 7; at +0.5 half that. */
  static uint8_t m1[16], m3[40], m4[64];
  size_t n1 = 0, n3 = 0, n4 = 0;
  m1[n1++] = 0x00, m1[n1++] = 10;
  for (int i = 0; i < 11; i++) m1[n1++] = 2;
  m1[n1++] = 0x8A;
  m3[n3++] = 0x00, m3[n3++] = 0x40 | 10;
  for (int i = 0; i < 11; i++) m3[n3++] = 0xFF, m3[n3++] = 0xFC;
  m3[n3++] = 10;
  for (int i = 0; i < 11; i++) m3[n3++] = 6;
  m4[n4++] = 0x00, m4[n4++] = 0x8A, m4[n4++] = 0xC0 | 10;
  for (int i = 0; i < 11; i++) m4[n4++] = 0, m4[n4++] = 0, m4[n4++] = 0, m4[n4++] = 1;
  tup tm[4] = {{EMBEDDED | PRIVATE, 16384, 0, 0, m1, n1},
               {EMBEDDED | PRIVATE, 16384, 0, 0, d4, sizeof d4},
               {EMBEDDED | PRIVATE, 16384, 0, 0, m3, n3},
               {EMBEDDED | PRIVATE, 16384, 0, 0, m4, n4}};
  gvdata(&gv[G_MULTI], 0, NULL, 0, tm, 4);

  for (int g = 0; g < G_COUNT; g++)
    if (gv[g].n && g != G_PLAIN && g != G_EMPTY) F.gvar_glyph[g] = &gv[g];
  fx_build(&F);
}

static otv_point pts[64];
static uint8_t pfl[64];
static uint16_t ends[8];

/* Points of glyph g at normalized coordinate c (flags as otv_glyph_points_get). */
static otv_status get(otv_location *loc, uint32_t g, int c, unsigned flags, otv_glyph_points *io)
{
  otv_f2dot14 v = (otv_f2dot14)c;
  otv_location_set_normalized(loc, &v, 1);
  memset(io, 0, sizeof *io);
  io->points = pts;
  io->point_flags = pfl;
  io->contour_ends = ends;
  io->point_cap = 64;
  io->contour_cap = 8;
  return otv_glyph_points_get(loc, g, flags, io);
}

/* Check all 11 points against SQ + (dx[i], dy[i]). */
static void expect(const char *what, const otv_glyph_points *io, const float *dx, const float *dy)
{
  CHECK_EQ(io->point_count, 7);
  for (int i = 0; i < 11; i++) {
    float ex = (float)SQ_X[i] + (dx ? dx[i] : 0), ey = (float)SQ_Y[i] + (dy ? dy[i] : 0);
    if (fabsf(pts[i].x - ex) > 1e-3f || fabsf(pts[i].y - ey) > 1e-3f) {
      fprintf(stderr, "%s: point %d = (%g, %g), expected (%g, %g)\n", what, i, pts[i].x, pts[i].y,
              ex, ey);
      CHECK(!"point");
    } else {
      CHECK(1);
    }
  }
}

static void test_values(void)
{
  otv_face *face = NULL;
  otv_error err = {0};
  CHECK_EQ(otv_face_open_memory(F.out.d, F.out.n, 0, NULL, &face, &err), OTV_E_OK);
  if (!face) {
    fprintf(stderr, "open: %s\n", err.msg);
    return;
  }
  otv_location *loc = NULL;
  CHECK_EQ(otv_location_create(face, &loc, NULL), OTV_E_OK);
  otv_glyph_points io;

  /* the default: every glyph is SQ */
  for (uint32_t g = 1; g < G_COUNT; g++)
    if (g != G_COMP) {
      CHECK_EQ(get(loc, g, 0, 0, &io), OTV_E_OK);
      expect("default", &io, NULL, NULL);
    }
  CHECK_EQ(io.contour_count, 2);
  CHECK_EQ(ends[0], 3);
  CHECK_EQ(ends[1], 6);
  CHECK_EQ(pfl[6] & OTV_POINT_ON_CURVE, 0);
  CHECK_EQ(pfl[5] & OTV_POINT_ON_CURVE, OTV_POINT_ON_CURVE);

  float dx[11], dy[11];
  /* byte deltas at +0.5: scalar 0.5, x + 5 everywhere (phantoms too), y + 0 */
  for (int i = 0; i < 11; i++) dx[i] = 5, dy[i] = 0;
  CHECK_EQ(get(loc, G_BYTES, 8192, 0, &io), OTV_E_OK);
  expect("bytes +0.5", &io, dx, dy);
  /* at -0.5 the tuple (peak +1) does not apply */
  CHECK_EQ(get(loc, G_BYTES, -8192, 0, &io), OTV_E_OK);
  expect("bytes -0.5", &io, NULL, NULL);
  /* OTV_OUTLINE_ROUND at 1/3 (5461): 10 x 5461/16384 = 3.3331 -> 3 */
  for (int i = 0; i < 11; i++) dx[i] = 3;
  CHECK_EQ(get(loc, G_BYTES, 5461, OTV_OUTLINE_ROUND, &io), OTV_E_OK);
  expect("bytes round", &io, dx, dy);
  for (int i = 0; i < 11; i++) dx[i] = 10.0f * 5461.0f / 16384.0f;
  CHECK_EQ(get(loc, G_BYTES, 5461, 0, &io), OTV_E_OK);
  expect("bytes unrounded", &io, dx, dy);

  /* words and 32-bit deltas at +1 */
  for (int i = 0; i < 11; i++) dx[i] = i < 6 ? 1000 : 70000, dy[i] = -3;
  CHECK_EQ(get(loc, G_WORDS, 16384, 0, &io), OTV_E_OK);
  expect("words/longs", &io, dx, dy);

  /* coincident references with different deltas: p0, p3 get 0; contour 1 untouched */
  memset(dx, 0, sizeof dx), memset(dy, 0, sizeof dy);
  dx[1] = 10, dx[2] = 20;
  CHECK_EQ(get(loc, G_COINC_DIFF, 16384, 0, &io), OTV_E_OK);
  expect("coincident different", &io, dx, dy);

  /* IUP: contour 0 touched at p1 (100,0; d 10,5) and p2 (100,100; d 10,15):
   *   x coincident (100) with equal deltas -> p0, p3 get 10;
   *   y: p3 (y 100 >= 100) gets 15, p0 (y 0 <= 0) gets 5.
   * contour 1 touched at p4 (200; d 10) and p5 (300; d 30): p6 x 250 -> 10 + 50 x 20/100 = 20;
   *   y: p4, p5 both y 0 with deltas 0 -> 0. Half scalar at +0.5. */
  static const float ix[11] = {10, 10, 10, 10, 10, 30, 20, 0, 0, 0, 0};
  static const float iy[11] = {5, 5, 15, 15, 0, 0, 0, 0, 0, 0, 0};
  CHECK_EQ(get(loc, G_IUP, 16384, 0, &io), OTV_E_OK);
  expect("iup", &io, ix, iy);
  for (int i = 0; i < 11; i++) dx[i] = ix[i] / 2, dy[i] = iy[i] / 2;
  CHECK_EQ(get(loc, G_IUP, 8192, 0, &io), OTV_E_OK);
  expect("iup half", &io, dx, dy);

  /* one touched point (word run, negative peak): the whole contour 0 moves by it at -1 */
  memset(dx, 0, sizeof dx), memset(dy, 0, sizeof dy);
  for (int i = 0; i < 4; i++) dx[i] = 7, dy[i] = -7;
  CHECK_EQ(get(loc, G_ONE, -16384, 0, &io), OTV_E_OK);
  expect("one point -1", &io, dx, dy);
  for (int i = 0; i < 4; i++) dx[i] = 3.5f, dy[i] = -3.5f;
  CHECK_EQ(get(loc, G_ONE, -8192, 0, &io), OTV_E_OK);
  expect("one point -0.5", &io, dx, dy);
  CHECK_EQ(get(loc, G_ONE, 8192, 0, &io), OTV_E_OK);
  expect("one point +0.5", &io, NULL, NULL);

  /* shared points + shared tuples + intermediate region 0.5..1 (peak 1) */
  memset(dx, 0, sizeof dx), memset(dy, 0, sizeof dy);
  CHECK_EQ(get(loc, G_SHARED, 8192, 0, &io), OTV_E_OK); /* at the region start: 0 */
  expect("shared 0.5", &io, dx, dy);
  for (int i = 0; i < 4; i++) dx[i] = 4; /* at 0.75: (0.75 - 0.5) / 0.5 = 0.5 x 8 */
  CHECK_EQ(get(loc, G_SHARED, 12288, 0, &io), OTV_E_OK);
  expect("shared 0.75", &io, dx, dy);
  for (int i = 0; i < 4; i++) dx[i] = 8;
  CHECK_EQ(get(loc, G_SHARED, 16384, 0, &io), OTV_E_OK);
  expect("shared 1", &io, dx, dy);
  for (int i = 0; i < 4; i++) dx[i] = 0, dy[i] = 1; /* at -0.25: shared tuple -1 x 0.25 x 4 */
  CHECK_EQ(get(loc, G_SHARED, -4096, 0, &io), OTV_E_OK);
  expect("shared -0.25", &io, dx, dy);
  /* the cached shared scalars follow the coordinates */
  for (int i = 0; i < 4; i++) dx[i] = 8, dy[i] = 0;
  CHECK_EQ(get(loc, G_SHARED, 16384, 0, &io), OTV_E_OK);
  expect("shared 1 again", &io, dx, dy);

  /* phantom point deltas: advance + 50 */
  memset(dx, 0, sizeof dx), memset(dy, 0, sizeof dy);
  dx[8] = 50;
  CHECK_EQ(get(loc, G_PHANTOM, 16384, 0, &io), OTV_E_OK);
  expect("phantom", &io, dx, dy);

  /* composite: component offset (20, 30) + delta (100, -10) at +1 */
  CHECK_EQ(get(loc, G_COMP, 16384, 0, &io), OTV_E_OK);
  CHECK_EQ(io.point_count, 7);
  CHECK(io.glyph_flags & OTV_GLYPH_COMPOSITE);
  for (int i = 0; i < 7; i++) {
    CHECK_NEAR(pts[i].x, SQ_X[i] + 120, 1e-3);
    CHECK_NEAR(pts[i].y, SQ_Y[i] + 20, 1e-3);
  }
  /* its phantoms: USE_MY_METRICS copies the component's (advance 400) */
  CHECK_NEAR(pts[8].x - pts[7].x, 400, 1e-3);
  CHECK_EQ(get(loc, G_COMP, 8192, 0, &io), OTV_E_OK);
  CHECK_NEAR(pts[0].x, 70, 1e-3);
  CHECK_NEAR(pts[0].y, 25, 1e-3);

  /* small buffers: SMALL_BUFFER with the needed counts */
  memset(&io, 0, sizeof io);
  CHECK_EQ(otv_glyph_points_get(loc, G_IUP, 0, &io), OTV_E_SMALL_BUFFER);
  CHECK_EQ(io.point_count, 7);
  CHECK_EQ(io.contour_count, 2);
  io.points = pts, io.point_cap = 10, io.contour_ends = ends, io.contour_cap = 2;
  CHECK_EQ(otv_glyph_points_get(loc, G_IUP, 0, &io), OTV_E_SMALL_BUFFER); /* needs 7 + 4 */
  CHECK_EQ(otv_location_last_error(loc)->code, OTV_E_OK); /* a size query records nothing */
  io.point_cap = 11;
  CHECK_EQ(otv_glyph_points_get(loc, G_IUP, 0, &io), OTV_E_OK);
  /* the empty glyph: phantoms only (advance 500) */
  CHECK_EQ(get(loc, G_EMPTY, 16384, 0, &io), OTV_E_OK);
  CHECK_EQ(io.point_count, 0);
  CHECK_EQ(io.contour_count, 0);
  CHECK_NEAR(pts[1].x - pts[0].x, 500, 1e-3);

  otv_location_destroy(loc);
  otv_face_close(face);
}

/* Every outline call on a damaged font: OK or an error naming gvar/glyf/loca; never a crash. */
static long outline_all(const uint8_t *d, size_t n, long *errors, uint32_t *bad_table)
{
  otv_face *face = NULL;
  otv_error err = {0};
  if (otv_face_open_memory(d, n, 0, NULL, &face, &err)) return -1;
  otv_location *loc = NULL;
  otv_location_create(face, &loc, NULL);
  long ok = 0;
  static const int coords[] = {0, 16384, -16384, 12288, 5461};
  for (int c = 0; c < 5; c++)
    for (uint32_t g = 0; g < G_COUNT; g++) {
      otv_glyph_points io;
      otv_status s = get(loc, g, coords[c], 0, &io);
      if (s == OTV_E_OK) {
        ok++;
      } else {
        (*errors)++;
        uint32_t t = otv_location_last_error(loc)->table;
        if (t != OTV_T_GVAR && t != OTV_T_GLYF && t != OTV_T_LOCA) *bad_table = t;
      }
      otv_glyph_outline(loc, g, 0, NULL, NULL);
    }
  otv_location_destroy(loc);
  otv_face_close(face);
  return ok;
}

static void test_sweeps(void)
{
  static uint8_t copy[1 << 16];
  long errors = 0;
  uint32_t bad_table = 0;
  /* truncation: the gvar table cut at every length */
  for (size_t len = 0; len < F.gvar_len; len++) {
    memcpy(copy, F.out.d, F.out.n);
    fx_font *f = &F;
    memcpy(F.out.d, copy, F.out.n);
    fx_set_table_len(f, OTV_T_GVAR, (uint32_t)len);
    otv_face *face = NULL;
    otv_error err = {0};
    if (otv_face_open_memory(F.out.d, F.out.n, 0, NULL, &face, &err)) {
      CHECK_EQ(err.table, OTV_T_GVAR);
    } else {
      otv_face_close(face);
      outline_all(F.out.d, F.out.n, &errors, &bad_table);
    }
    memcpy(F.out.d, copy, F.out.n);
  }
  CHECK(errors > 0);
  CHECK_EQ(bad_table, 0);
  fx_set_table_len(&F, OTV_T_GVAR, (uint32_t)F.gvar_len);
  /* the glyf table cut at every length */
  errors = 0;
  for (size_t len = 0; len < F.glyf_len; len++) {
    fx_set_table_len(&F, OTV_T_GLYF, (uint32_t)len);
    outline_all(F.out.d, F.out.n, &errors, &bad_table);
  }
  CHECK(errors > 0);
  CHECK_EQ(bad_table, 0);
  fx_set_table_len(&F, OTV_T_GLYF, (uint32_t)F.glyf_len);
  /* bad offsets and bytes: every byte of the gvar table set to 0x00, 0x7F, 0x80, 0xFF */
  errors = 0;
  static const uint8_t vals[] = {0x00, 0x7F, 0x80, 0xFF};
  for (size_t i = 0; i < F.gvar_len; i++)
    for (int v = 0; v < 4; v++) {
      uint8_t keep = F.out.d[F.gvar_off + i];
      F.out.d[F.gvar_off + i] = vals[v];
      otv_face *face = NULL;
      otv_error err = {0};
      if (otv_face_open_memory(F.out.d, F.out.n, 0, NULL, &face, &err)) {
        CHECK_EQ(err.table, OTV_T_GVAR);
      } else {
        otv_face_close(face);
        outline_all(F.out.d, F.out.n, &errors, &bad_table);
      }
      F.out.d[F.gvar_off + i] = keep;
    }
  CHECK(errors > 0);
  CHECK_EQ(bad_table, 0);
  /* and every byte of glyf */
  for (size_t i = 0; i < F.glyf_len; i++)
    for (int v = 0; v < 4; v++) {
      uint8_t keep = F.out.d[F.glyf_off + i];
      F.out.d[F.glyf_off + i] = vals[v];
      outline_all(F.out.d, F.out.n, &errors, &bad_table);
      F.out.d[F.glyf_off + i] = keep;
    }
  CHECK_EQ(bad_table, 0);
  /* the intact font still works */
  long e2 = 0;
  CHECK_EQ(outline_all(F.out.d, F.out.n, &e2, &bad_table), 5 * G_COUNT);
  CHECK_EQ(e2, 0);
}

/* Allocation failures: each run is NOMEM or OK, and nothing leaks. */
static void test_alloc(void)
{
  for (long n = 1; n < 200; n++) {
    h_alloc a = {0, n, 0, 0};
    otv_options opt = {h_realloc, &a, 0};
    otv_face *face = NULL;
    otv_status s = otv_face_open_memory(F.out.d, F.out.n, 0, &opt, &face, NULL);
    int done = 0;
    if (!s) {
      otv_location *loc = NULL;
      s = otv_location_create(face, &loc, NULL);
      if (!s) {
        done = 1;
        for (uint32_t g = 0; g < G_COUNT; g++) {
          otv_glyph_points io;
          otv_status r = get(loc, g, 12288, 0, &io);
          CHECK(r == OTV_E_OK || r == OTV_E_NOMEM);
          if (r) done = 0;
        }
        otv_location_destroy(loc);
      }
      otv_face_close(face);
    } else {
      CHECK_EQ(s, OTV_E_NOMEM);
    }
    CHECK_EQ(a.live_blocks, 0);
    if (done && a.calls < n) break;
  }
}

/* G_MULTI: several tuples, dense and sparse, every delta run type. Checked with the glyph's
 * data ending the gvar table (checked scalar decoding) and with spare bytes after it (the
 * vector decoders that read past a run, and the planar accumulation of 3+ tuples). */
static void test_multi(const char *what)
{
  otv_face *face = NULL;
  CHECK_EQ(otv_face_open_memory(F.out.d, F.out.n, 0, NULL, &face, NULL), OTV_E_OK);
  otv_location *loc = NULL;
  CHECK_EQ(otv_location_create(face, &loc, NULL), OTV_E_OK);
  if (!loc) {
    otv_face_close(face);
    return;
  }
  static const float ix[11] = {10, 10, 10, 10, 10, 30, 20, 0, 0, 0, 0};
  static const float iy[11] = {5, 5, 15, 15, 0, 0, 0, 0, 0, 0, 0};
  float dx[11], dy[11];
  otv_glyph_points io;
  for (int i = 0; i < 11; i++) dx[i] = ix[i] - 2, dy[i] = iy[i] + 7;
  CHECK_EQ(get(loc, G_MULTI, 16384, 0, &io), OTV_E_OK);
  expect(what, &io, dx, dy);
  for (int i = 0; i < 11; i++) dx[i] = (ix[i] - 2) / 2, dy[i] = (iy[i] + 7) / 2;
  CHECK_EQ(get(loc, G_MULTI, 8192, 0, &io), OTV_E_OK);
  expect(what, &io, dx, dy);
  /* the words/longs glyph too */
  for (int i = 0; i < 11; i++) dx[i] = i < 6 ? 1000 : 70000, dy[i] = -3;
  CHECK_EQ(get(loc, G_WORDS, 16384, 0, &io), OTV_E_OK);
  expect(what, &io, dx, dy);
  otv_location_destroy(loc);
  otv_face_close(face);
}

/* Glyph g's variation data: its offset in the gvar table (from the table's own offsets). */
static size_t glyph_data_at(uint32_t g)
{
  const uint8_t *t = F.out.d + F.gvar_off;
  unsigned flags = (unsigned)(t[14] << 8 | t[15]);
  size_t data_off = (size_t)t[16] << 24 | (size_t)t[17] << 16 | (size_t)t[18] << 8 | t[19];
  size_t o = flags & 1 ? (size_t)t[20 + 4 * g] << 24 | (size_t)t[21 + 4 * g] << 16 |
                             (size_t)t[22 + 4 * g] << 8 | t[23 + 4 * g]
                       : 2 * (size_t)(t[20 + 2 * g] << 8 | t[21 + 2 * g]);
  return data_off + o;
}

/* Malformed tuple variation stores: drawing G_SHARED at +1 fails with the error that names the
 * problem, its table and offset (base: the glyph's data). The drawing path reads the headers
 * through tuple.h's fast lane and, on an anomaly, over again with the checked cursor: these
 * are the errors of the second. */
static void expect_malformed(const char *what, otv_status code, size_t at, const char *msg)
{
  fx_build(&F);
  otv_face *face = NULL;
  CHECK_EQ(otv_face_open_memory(F.out.d, F.out.n, 0, NULL, &face, NULL), OTV_E_OK);
  otv_location *loc = NULL;
  CHECK_EQ(otv_location_create(face, &loc, NULL), OTV_E_OK);
  if (!loc) {
    otv_face_close(face);
    return;
  }
  size_t base = glyph_data_at(G_SHARED);
  otv_glyph_points io;
  CHECK_EQ(get(loc, G_SHARED, 16384, 0, &io), code);
  const otv_error *e = otv_location_last_error(loc);
  CHECK_EQ(e->code, code);
  CHECK_EQ(e->table, OTV_T_GVAR);
  CHECK_EQ(e->offset, (uint64_t)(base + at));
  if (!strstr(e->msg, msg)) {
    fprintf(stderr, "%s: message \"%s\", expected \"%s\"\n", what, e->msg, msg);
    CHECK(!"message");
  }
  /* the default location reads no variation data */
  CHECK_EQ(get(loc, G_SHARED, 0, 0, &io), OTV_E_OK);
  otv_location_destroy(loc);
  otv_face_close(face);
}

static void test_malformed(void)
{
  static const uint8_t sp[] = {0x02, 0x01, 0, 3};
  static const uint8_t d[] = {0x01, 8, 8, 0x81};
  fx_buf keep = gv[G_SHARED];
  /* a tuple without point numbers: no private ones, no shared ones (header at 4) */
  tup t1[2] = {{PRIVATE | 1, 0, 0, 0, d, 0}, {0, 0, 0, 0, d, sizeof d}};
  gvdata(&gv[G_SHARED], 0, NULL, 0, t1, 2);
  expect_malformed("no points", OTV_E_BAD_VALUE, 8 + 2, "tuple 1 has no point numbers");
  /* shared tuple index 5 of 2 */
  tup t2[2] = {{1, 0, 0, 0, d, sizeof d}, {5, 0, 0, 0, d, sizeof d}};
  gvdata(&gv[G_SHARED], 0x8000, sp, sizeof sp, t2, 2);
  expect_malformed("shared index", OTV_E_BAD_VALUE, 8 + 2, "shared tuple index 5 of 2");
  /* the second tuple's data runs past the glyph's data */
  tup t3[2] = {{1, 0, 0, 0, d, sizeof d}, {0, 0, 0, 0, d, sizeof d}};
  gvdata(&gv[G_SHARED], 0x8000, sp, sizeof sp, t3, 2);
  gv[G_SHARED].d[8] = 0, gv[G_SHARED].d[9] = 9; /* size 9, 4 there */
  expect_malformed("data past the end", OTV_E_TRUNCATED, 8, "tuple 1 data (9 bytes at 0x14)");
  /* an embedded peak and intermediate region (10 header bytes) in 6: the serialized data
   * offset (4) inside the data, the header past it */
  tup t4 = {EMBEDDED | INTERMEDIATE | PRIVATE, 16384, 0, 16384, d, sizeof d};
  gvdata(&gv[G_SHARED], 0, NULL, 0, &t4, 1);
  gv[G_SHARED].n = 10;
  gv[G_SHARED].d[2] = 0, gv[G_SHARED].d[3] = 4;
  expect_malformed("header past the end", OTV_E_TRUNCATED, 10, "tuple variation header 0");
  gv[G_SHARED] = keep;
  fx_build(&F);
}

int main(void)
{
  build();
  test_multi("multi, data at the table end");
  F.gvar_tail = 8;
  fx_build(&F);
  test_multi("multi, spare bytes after the data");
  F.gvar_tail = 0;
  fx_build(&F);
  test_values();
  test_sweeps();
  test_alloc();
  test_malformed();
  return h_done("test_gvar");
}

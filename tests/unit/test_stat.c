/*
 * test_stat.c - STAT: header versions 1.0-1.2, design axes (with a larger designAxisSize),
 * axis value tables formats 1-4 and an unknown format, the format 4 records, paging, validation
 * errors (axisIndex range, sizes, NULL and out-of-range offsets), truncation and bad-offset
 * sweeps, and a real font.
 */
#include "harness.h"

/* ---- fixture builder: an sfnt with head, maxp and the given tables ---- */
#include "sfnt_fixture.h"

/* The fixture: minor version 2 (or 0: no elidedFallbackNameID), 2 design axes of 12 bytes,
 * 5 axis values: format 1, 2, 3, 4 and an unknown format 7. */
static void build_stat(bb *b, unsigned minor)
{
  b->n = 0;
  unsigned hdr = minor ? 20 : 18;
  unsigned values = hdr + 24;
  b16(b, 1), b16(b, minor), b16(b, 12), b16(b, 2), b32(b, hdr), b16(b, 5), b32(b, values);
  if (minor) b16(b, 2);
  b32(b, OTV_TAG('w', 'g', 'h', 't')), b16(b, 256), b16(b, 0), b32(b, 0xCAFEF00D);
  b32(b, OTV_TAG('i', 't', 'a', 'l')), b16(b, 257), b16(b, 1), b32(b, 0xCAFEF00D);
  b16(b, 10), b16(b, 22), b16(b, 42), b16(b, 58), b16(b, 78); /* from the offsets array */
  b16(b, 1), b16(b, 0), b16(b, 2), b16(b, 258), bfix(b, 400);
  b16(b, 2), b16(b, 0), b16(b, 0), b16(b, 259), bfix(b, 700), bfix(b, 650), bfix(b, 750.5);
  b16(b, 3), b16(b, 1), b16(b, 2), b16(b, 260), bfix(b, 0), bfix(b, 1);
  b16(b, 4), b16(b, 2), b16(b, 1), b16(b, 261), b16(b, 0), bfix(b, 700), b16(b, 1), bfix(b, 1);
  b16(b, 7);
}

static otv_status open_stat(const uint8_t *p, size_t len, otv_face **f, otv_error *e)
{
  static uint8_t font[8192];
  tbl t = {OTV_T_STAT, p, len};
  size_t n = build_font(font, sizeof font, &t, 1);
  *f = NULL;
  return otv_face_open_memory(font, n, 0, NULL, f, e);
}

static void test_values(void)
{
  for (unsigned minor = 0; minor <= 2; minor += 2) {
    bb b;
    build_stat(&b, minor);
    CHECK_EQ(b.n, minor ? 124 : 122);
    otv_face *f;
    otv_error e = {0};
    CHECK_EQ(open_stat(b.b, b.n, &f, &e), OTV_E_OK);
    if (!f) continue;
    otv_stat_info st;
    otv_face_stat(f, &st);
    CHECK(st.present);
    CHECK_EQ(st.minor_version, minor);
    CHECK_EQ(st.design_axis_count, 2);
    CHECK_EQ(st.axis_value_count, 5);
    CHECK_EQ(st.elided_fallback_name_id, minor ? 2 : 0xFFFF);
    otv_stat_axis ax[3];
    unsigned cnt = 3;
    CHECK_EQ(otv_face_stat_axes(f, 0, &cnt, ax), 2);
    CHECK_EQ(cnt, 2);
    CHECK_EQ(ax[0].tag, OTV_TAG('w', 'g', 'h', 't'));
    CHECK_EQ(ax[1].tag, OTV_TAG('i', 't', 'a', 'l'));
    CHECK_EQ(ax[1].name_id, 257);
    CHECK_EQ(ax[1].ordering, 1);
    cnt = 1;
    CHECK_EQ(otv_face_stat_axes(f, 1, &cnt, ax), 2);
    CHECK_EQ(cnt, 1);
    CHECK_EQ(ax[0].name_id, 257);
    otv_stat_value v[6];
    cnt = 6;
    CHECK_EQ(otv_face_stat_values(f, 0, &cnt, v), 5);
    CHECK_EQ(cnt, 5);
    CHECK_EQ(v[0].format, 1);
    CHECK_EQ(v[0].axis_index, 0);
    CHECK_EQ(v[0].flags, OTV_STAT_ELIDABLE_AXIS_VALUE_NAME);
    CHECK_EQ(v[0].name_id, 258);
    CHECK(v[0].value == 400);
    CHECK_EQ(v[1].format, 2);
    CHECK(v[1].value == 700 && v[1].range_min == 650 && v[1].range_max == 750.5);
    CHECK_EQ(v[2].format, 3);
    CHECK_EQ(v[2].axis_index, 1);
    CHECK(v[2].value == 0 && v[2].linked_value == 1);
    CHECK_EQ(v[3].format, 4);
    CHECK_EQ(v[3].record_count, 2);
    CHECK_EQ(v[3].flags, OTV_STAT_OLDER_SIBLING_FONT_ATTRIBUTE);
    CHECK_EQ(v[3].name_id, 261);
    CHECK_EQ(v[4].format, 7);
    CHECK_EQ(v[4].name_id, 0);
    CHECK_EQ(v[4].index, 4);
    otv_stat_axis_value_record rr[3];
    cnt = 3;
    CHECK_EQ(otv_face_stat_value_records(f, 3, 0, &cnt, rr), 2);
    CHECK_EQ(cnt, 2);
    CHECK(rr[0].axis_index == 0 && rr[0].value == 700);
    CHECK(rr[1].axis_index == 1 && rr[1].value == 1);
    cnt = 3;
    CHECK_EQ(otv_face_stat_value_records(f, 3, 1, &cnt, rr), 2);
    CHECK_EQ(cnt, 1);
    CHECK(rr[0].value == 1);
    cnt = 3;
    CHECK_EQ(otv_face_stat_value_records(f, 0, 0, &cnt, rr), 0); /* not format 4 */
    CHECK_EQ(cnt, 0);
    cnt = 3;
    CHECK_EQ(otv_face_stat_value_records(f, 9, 0, &cnt, rr), 0); /* bad index */
    CHECK_EQ(cnt, 0);
    cnt = 2;
    CHECK_EQ(otv_face_stat_values(f, 3, &cnt, v), 5);
    CHECK_EQ(cnt, 2);
    CHECK_EQ(v[0].format, 4);
    CHECK_EQ(v[0].index, 3);
    otv_face_close(f);
  }
  /* no STAT */
  static uint8_t font[512];
  size_t n = build_font(font, sizeof font, NULL, 0);
  otv_face *f;
  CHECK_EQ(otv_face_open_memory(font, n, 0, NULL, &f, NULL), OTV_E_OK);
  if (f) {
    otv_stat_info st;
    otv_face_stat(f, &st);
    CHECK(!st.present);
    CHECK_EQ(st.elided_fallback_name_id, 0xFFFF);
    CHECK_EQ(otv_face_stat_axes(f, 0, NULL, NULL), 0);
    CHECK_EQ(otv_face_stat_values(f, 0, NULL, NULL), 0);
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

static void expect(const uint8_t *p, size_t len, otv_status want, const char *what)
{
  otv_face *f;
  otv_error e = {0};
  otv_status s = open_stat(p, len, &f, &e);
  if (s != want) fprintf(stderr, "  case: %s (got %d: %s)\n", what, s, e.msg);
  CHECK_EQ(s, want);
  CHECK_EQ(e.table, OTV_T_STAT);
  otv_face_close(f);
}

static void test_errors(void)
{
  bb b;
  build_stat(&b, 2);
  uint8_t p[256];
  const size_t vals = 44, tables = 54;
#define RESET() memcpy(p, b.b, b.n)
  RESET(), put16at(p, 0, 2);
  expect(p, b.n, OTV_E_UNSUPPORTED, "major 2");
  RESET(), put16at(p, 4, 6);
  expect(p, b.n, OTV_E_BAD_VALUE, "designAxisSize 6");
  RESET(), put32at(p, 8, 0);
  expect(p, b.n, OTV_E_BAD_OFFSET, "designAxesOffset 0");
  RESET(), put32at(p, 14, 3);
  expect(p, b.n, OTV_E_BAD_OFFSET, "offsetToAxisValueOffsets 3");
  RESET(), put16at(p, vals + 4, 0);
  expect(p, b.n, OTV_E_BAD_OFFSET, "NULL axis value offset");
  RESET(), put16at(p, tables + 2, 2);
  expect(p, b.n, OTV_E_BAD_VALUE, "format 1 axisIndex 2");
  RESET(), put16at(p, 102 + 8 + 6, 5);
  expect(p, b.n, OTV_E_BAD_VALUE, "format 4 record axisIndex 5");
  RESET(), put16at(p, 102 + 2, 3);
  expect(p, b.n, OTV_E_TRUNCATED, "format 4 axisCount 3");
  RESET(), put16at(p, 6, 0x7FFF);
  expect(p, b.n, OTV_E_TRUNCATED, "designAxisCount");
  RESET(), put16at(p, 12, 0x7FFF);
  expect(p, b.n, OTV_E_TRUNCATED, "axisValueCount");

  /* bad-offset sweep: out of range is an error naming STAT */
  const uint32_t bad[] = {(uint32_t)b.n, (uint32_t)b.n + 1, 0xFFFF, 0xFFFFFFFFu};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    RESET(), put32at(p, 8, bad[i]);
    expect(p, b.n, OTV_E_TRUNCATED, "designAxesOffset out of range");
    RESET(), put32at(p, 14, bad[i]);
    expect(p, b.n, OTV_E_TRUNCATED, "offsetToAxisValueOffsets out of range");
    for (unsigned k = 0; k < 5 && bad[i] <= 0xFFFF; k++) {
      RESET(), put16at(p, vals + 2 * k, bad[i]);
      otv_face *f;
      otv_error e = {0};
      CHECK(open_stat(p, b.n, &f, &e) != OTV_E_OK);
      CHECK_EQ(e.table, OTV_T_STAT);
    }
  }
  /* every in-range offset of each axis value: parses or fails cleanly; accessors stay safe */
  for (unsigned k = 0; k < 5; k++)
    for (unsigned o = 0; o < b.n; o++) {
      RESET(), put16at(p, vals + 2 * k, o);
      otv_face *f;
      otv_error e = {0};
      if (open_stat(p, b.n, &f, &e) == OTV_E_OK) {
        otv_stat_value v[5];
        unsigned cnt = 5;
        otv_face_stat_values(f, 0, &cnt, v);
        for (unsigned i = 0; i < cnt; i++) {
          otv_stat_axis_value_record rr[8];
          unsigned rc = 8;
          otv_face_stat_value_records(f, i, 0, &rc, rr);
        }
        otv_face_close(f);
      } else {
        CHECK_EQ(e.table, OTV_T_STAT);
      }
    }
  /* truncation sweep: every prefix fails and names STAT */
  for (unsigned minor = 0; minor <= 2; minor += 2) {
    build_stat(&b, minor);
    for (size_t n = 0; n < b.n; n++) {
      otv_face *f;
      otv_error e = {0};
      CHECK(open_stat(b.b, n, &f, &e) != OTV_E_OK);
      CHECK_EQ(e.table, OTV_T_STAT);
      CHECK(f == NULL);
    }
  }
#undef RESET
}

static void test_real(void)
{
  otv_face *f = NULL;
  CHECK_EQ(otv_face_open_file(h_font("STATInstancerTest.ttf"), 0, NULL, &f, NULL), OTV_E_OK);
  if (!f) return;
  otv_stat_info st;
  otv_face_stat(f, &st);
  CHECK(st.present);
  CHECK_EQ(st.design_axis_count, 3);
  otv_stat_axis ax[3];
  unsigned cnt = 3;
  otv_face_stat_axes(f, 0, &cnt, ax);
  CHECK_EQ(ax[0].tag, OTV_TAG('w', 'g', 'h', 't'));
  CHECK_EQ(ax[2].tag, OTV_TAG('i', 't', 'a', 'l'));
  otv_face_close(f);
}

int main(void)
{
  test_values();
  test_errors();
  test_real();
  return h_done("test_stat");
}

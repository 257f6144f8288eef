/*
 * test_sfnt.c - the table directory, TTC and head/maxp checks on hand-built fonts, plus the
 * truncation sweep and allocation-failure loop on a real font.
 */
#include "harness.h"

/* Append helpers for building fixtures. */
static size_t put16(uint8_t *p, size_t at, unsigned v)
{
  p[at] = (uint8_t)(v >> 8);
  p[at + 1] = (uint8_t)v;
  return at + 2;
}
static size_t put32(uint8_t *p, size_t at, uint32_t v)
{
  at = put16(p, at, v >> 16);
  return put16(p, at, v & 0xFFFF);
}

/* A minimal sfnt: directory with head (54 bytes) and maxp (6 bytes). */
static size_t build_minimal(uint8_t *buf, uint16_t upem, uint32_t head_len)
{
  memset(buf, 0, 256);
  size_t at = put32(buf, 0, 0x00010000);
  at = put16(buf, at, 2);  /* numTables */
  at = put16(buf, at, 32); /* searchRange */
  at = put16(buf, at, 1);  /* entrySelector */
  at = put16(buf, at, 0);  /* rangeShift */
  /* records sorted: head, maxp */
  at = put32(buf, at, OTV_T_HEAD);
  at = put32(buf, at, 0);
  at = put32(buf, at, 44);
  at = put32(buf, at, head_len);
  at = put32(buf, at, OTV_T_MAXP);
  at = put32(buf, at, 0);
  at = put32(buf, at, 100);
  at = put32(buf, at, 6);
  /* head at 44 */
  put32(buf, 44, 0x00010000);
  put32(buf, 44 + 12, 0x5F0F3CF5);
  put16(buf, 44 + 18, upem);
  /* maxp at 100 */
  put32(buf, 100, 0x00005000);
  put16(buf, 104, 7);
  return 106;
}

static void test_minimal(void)
{
  uint8_t buf[256];
  size_t len = build_minimal(buf, 1000, 54);
  otv_face *f = NULL;
  otv_error e = {0};
  CHECK_EQ(otv_face_open_memory(buf, len, 0, NULL, &f, &e), OTV_E_OK);
  if (!f) return;
  otv_face_info info;
  otv_face_get_info(f, &info);
  CHECK_EQ(info.glyph_count, 7);
  CHECK_EQ(info.units_per_em, 1000);
  CHECK_EQ(info.table_count, 2);
  CHECK_EQ(info.flavour, OTV_FLAVOUR_NONE);
  size_t tl = 0;
  CHECK(otv_face_table(f, OTV_T_MAXP, &tl) == buf + 100);
  CHECK_EQ(tl, 6);
  CHECK(otv_face_table(f, OTV_T_GLYF, &tl) == NULL);
  CHECK_EQ(tl, 0);
  otv_face_close(f);
  /* a second face index of a plain sfnt does not exist */
  memset(&e, 0, sizeof e);
  CHECK_EQ(otv_face_open_memory(buf, len, 1, NULL, &f, &e), OTV_E_NOT_FOUND);
  CHECK_EQ(otv_font_face_count(buf, len), 1);
}

static void test_truncation_sweep(void)
{
  uint8_t buf[256];
  size_t len = build_minimal(buf, 1000, 54);
  for (size_t n = 0; n < len; n++) {
    otv_face *f = NULL;
    otv_error e = {0};
    otv_status s = otv_face_open_memory(buf, n, 0, NULL, &f, &e);
    CHECK(s != OTV_E_OK);
    CHECK(f == NULL);
    CHECK(e.code == s);
  }
}

static void test_bad_values(void)
{
  uint8_t buf[256];
  otv_face *f = NULL;
  otv_error e = {0};
  size_t len = build_minimal(buf, 8, 54); /* unitsPerEm below 16 */
  CHECK_EQ(otv_face_open_memory(buf, len, 0, NULL, &f, &e), OTV_E_BAD_VALUE);
  CHECK_EQ(e.table, OTV_T_HEAD);
  CHECK_EQ(e.offset, 18);

  memset(&e, 0, sizeof e);
  len = build_minimal(buf, 1000, 40); /* head too short */
  CHECK_EQ(otv_face_open_memory(buf, len, 0, NULL, &f, &e), OTV_E_TRUNCATED);
  CHECK_EQ(e.table, OTV_T_HEAD);

  /* a table length that overflows offset + length */
  memset(&e, 0, sizeof e);
  len = build_minimal(buf, 1000, 54);
  put32(buf, 12 + 16 + 12, 0xFFFFFFF0u);
  CHECK_EQ(otv_face_open_memory(buf, len, 0, NULL, &f, &e), OTV_E_BAD_OFFSET);
  CHECK_EQ(e.table, 0);
  CHECK_EQ(e.offset, 12 + 16 + 8);

  /* duplicate tag */
  memset(&e, 0, sizeof e);
  len = build_minimal(buf, 1000, 54);
  put32(buf, 12 + 16, OTV_T_HEAD);
  CHECK_EQ(otv_face_open_memory(buf, len, 0, NULL, &f, &e), OTV_E_BAD_VALUE);

  /* a bad tag byte */
  memset(&e, 0, sizeof e);
  len = build_minimal(buf, 1000, 54);
  buf[12] = 0x01;
  CHECK_EQ(otv_face_open_memory(buf, len, 0, NULL, &f, &e), OTV_E_BAD_VALUE);

  /* WOFF and WOFF2 are named */
  memset(&e, 0, sizeof e);
  memcpy(buf, "wOF2", 4);
  CHECK_EQ(otv_face_open_memory(buf, len, 0, NULL, &f, &e), OTV_E_UNSUPPORTED);
  CHECK(strstr(e.msg, "WOFF2") != NULL);
  memset(&e, 0, sizeof e);
  memcpy(buf, "wOFF", 4);
  CHECK_EQ(otv_face_open_memory(buf, len, 0, NULL, &f, &e), OTV_E_UNSUPPORTED);

  char text[200];
  otv_error_format(&e, text, sizeof text);
  CHECK(strstr(text, "not supported") != NULL);
}

static void test_ttc(void)
{
  uint8_t font[256];
  size_t flen = build_minimal(font, 2048, 54);
  /* TTC with two faces that both point at one directory at 20 (offsets are file-relative) */
  uint8_t buf[512];
  memset(buf, 0, sizeof buf);
  size_t at = put32(buf, 0, 0x74746366);
  at = put16(buf, at, 1);
  at = put16(buf, at, 0);
  at = put32(buf, at, 2);
  at = put32(buf, at, 20);
  at = put32(buf, at, 20);
  /* copy the font at 20 and rebase table offsets by 20 */
  memcpy(buf + 20, font, flen);
  put32(buf, 20 + 12 + 8, 44 + 20);
  put32(buf, 20 + 28 + 8, 100 + 20);
  size_t len = 20 + flen;
  CHECK_EQ(otv_font_face_count(buf, len), 2);
  otv_face *f = NULL;
  otv_error e = {0};
  CHECK_EQ(otv_face_open_memory(buf, len, 1, NULL, &f, &e), OTV_E_OK);
  if (f) {
    otv_face_info info;
    otv_face_get_info(f, &info);
    CHECK_EQ(info.units_per_em, 2048);
    otv_face_close(f);
  }
  memset(&e, 0, sizeof e);
  CHECK_EQ(otv_face_open_memory(buf, len, 2, NULL, &f, &e), OTV_E_NOT_FOUND);
  /* numFonts larger than the file */
  put32(buf, 8, 0x10000000u);
  memset(&e, 0, sizeof e);
  CHECK(otv_face_open_memory(buf, len, 5, NULL, &f, &e) != OTV_E_OK);
}

static void test_real_font_and_alloc_failures(void)
{
  size_t len;
  uint8_t *data = h_read_file(h_font("Roboto-Variable.ABC.ttf"), &len);
  otv_face *f = NULL;
  otv_error e = {0};
  CHECK_EQ(otv_face_open_memory(data, len, 0, NULL, &f, &e), OTV_E_OK);
  otv_face_info info = {0};
  if (f) otv_face_get_info(f, &info);
  CHECK_EQ(info.flavour, OTV_FLAVOUR_GLYF);
  CHECK(info.glyph_count > 0);
  otv_face_close(f);
  /* every allocation failure is an error, never a leak */
  for (long n = 1; n < 200; n++) {
    h_alloc a = {0, n, 0, 0};
    otv_options opt = {h_realloc, &a, 0};
    otv_error e2 = {0};
    f = NULL;
    otv_status s = otv_face_open_memory(data, len, 0, &opt, &f, &e2);
    CHECK(s == OTV_E_OK || s == OTV_E_NOMEM);
    if (s == OTV_E_OK) {
      otv_location *loc = NULL;
      otv_status ls = otv_location_create(f, &loc, NULL);
      CHECK(ls == OTV_E_OK || ls == OTV_E_NOMEM);
      otv_location_destroy(loc);
      otv_face_close(f);
    }
    CHECK_EQ(a.live_blocks, 0);
    if (s == OTV_E_OK && a.calls < n) break;
  }
  /* the file path: mmap */
  memset(&e, 0, sizeof e);
  CHECK_EQ(otv_face_open_file(h_font("Roboto-Variable.ABC.ttf"), 0, NULL, &f, &e), OTV_E_OK);
  otv_face_close(f);
  memset(&e, 0, sizeof e);
  CHECK_EQ(otv_face_open_file("/nonexistent/font.ttf", 0, NULL, &f, &e), OTV_E_IO);
  free(data);
}

int main(void)
{
  test_minimal();
  test_truncation_sweep();
  test_bad_values();
  test_ttc();
  test_real_font_and_alloc_failures();
  return h_done("test_sfnt");
}

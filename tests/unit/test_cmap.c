/*
 * test_cmap.c - cmap formats 4 (delta and idRangeOffset segments), 12 and 14 (default and
 * non-default UVS) on a hand-built table; subtable choice ((3,10) format 12 over (3,1) format 4);
 * truncation and byte sweeps (open fails naming cmap, or lookups stay in range).
 */
#include "harness.h"
#include "glyf_fixture.h"

static fx_buf cmap, sq;
static fx_font F;

static void f4(fx_buf *b)
{
  size_t at = b->n;
  fx_u16(b, 4), fx_u16(b, 0 /* length, patched */), fx_u16(b, 0), fx_u16(b, 6);
  fx_u16(b, 4), fx_u16(b, 1), fx_u16(b, 2);
  fx_u16(b, 0x43), fx_u16(b, 0x62), fx_u16(b, 0xFFFF);          /* endCode */
  fx_u16(b, 0);                                                 /* reservedPad */
  fx_u16(b, 0x41), fx_u16(b, 0x61), fx_u16(b, 0xFFFF);          /* startCode */
  fx_u16(b, (1u - 0x41u) & 0xFFFF), fx_u16(b, 0), fx_u16(b, 1); /* idDelta */
  fx_u16(b, 0), fx_u16(b, 4), fx_u16(b, 0); /* idRangeOffset: seg 1 -> array[0] */
  fx_u16(b, 5), fx_u16(b, 0);               /* glyphIdArray */
  size_t len = b->n - at;
  b->d[at + 2] = (uint8_t)(len >> 8), b->d[at + 3] = (uint8_t)len;
}

static void f12(fx_buf *b)
{
  fx_u16(b, 12), fx_u16(b, 0), fx_u32(b, 16 + 3 * 12), fx_u32(b, 0), fx_u32(b, 3);
  fx_u32(b, 0x41), fx_u32(b, 0x43), fx_u32(b, 1);
  fx_u32(b, 0x61), fx_u32(b, 0x61), fx_u32(b, 5);
  fx_u32(b, 0x1F600), fx_u32(b, 0x1F601), fx_u32(b, 7);
}

static void u24(fx_buf *b, uint32_t v) { fx_u8(b, v >> 16 & 0xFF), fx_u16(b, v & 0xFFFF); }

static void f14(fx_buf *b)
{
  /* header 10 + 1 record (11) = 21; DefaultUVS at 21 (4 + 4); NonDefaultUVS at 29 (4 + 5) */
  fx_u16(b, 14), fx_u32(b, 38), fx_u32(b, 1);
  u24(b, 0xFE00), fx_u32(b, 21), fx_u32(b, 29);
  fx_u32(b, 1), u24(b, 0x41), fx_u8(b, 0);  /* default: U+0041 */
  fx_u32(b, 1), u24(b, 0x42), fx_u16(b, 9); /* non-default: U+0042 -> 9 */
}

static void build(int with12)
{
  fx_buf *b = &cmap;
  b->n = 0;
  int n = with12 ? 3 : 2;
  fx_u16(b, 0), fx_u16(b, (unsigned)n);
  size_t rec = b->n;
  for (int i = 0; i < n; i++) fx_u32(b, 0), fx_u32(b, 0);
  size_t o14 = b->n;
  f14(b);
  size_t o4 = b->n;
  f4(b);
  size_t o12 = b->n;
  if (with12) f12(b);
  fx_buf r = {.n = 0};
  fx_u16(&r, 0), fx_u16(&r, 5), fx_u32(&r, (uint32_t)o14);
  fx_u16(&r, 3), fx_u16(&r, 1), fx_u32(&r, (uint32_t)o4);
  if (with12) fx_u16(&r, 3), fx_u16(&r, 10), fx_u32(&r, (uint32_t)o12);
  memcpy(b->d + rec, r.d, r.n);
  memset(&F, 0, sizeof F);
  F.glyph_count = 10;
  F.cmap = &cmap;
  sq.n = 0;
  for (int g = 0; g < 10; g++) F.advance[g] = 500;
  fx_build(&F);
}

int main(void)
{
  for (int with12 = 0; with12 <= 1; with12++) {
    build(with12);
    otv_face *f = NULL;
    otv_error err = {0};
    CHECK_EQ(otv_face_open_memory(F.out.d, F.out.n, 0, NULL, &f, &err), OTV_E_OK);
    if (!f) {
      fprintf(stderr, "%s\n", err.msg);
      continue;
    }
    CHECK_EQ(otv_face_glyph_for_char(f, 'A', 0), 1);
    CHECK_EQ(otv_face_glyph_for_char(f, 'C', 0), 3);
    CHECK_EQ(otv_face_glyph_for_char(f, 'D', 0), 0);
    CHECK_EQ(otv_face_glyph_for_char(f, '@', 0), 0);
    CHECK_EQ(otv_face_glyph_for_char(f, 'a', 0), 5);
    CHECK_EQ(otv_face_glyph_for_char(f, 'b', 0), 0); /* glyphIdArray 0 (f4) / unmapped (f12) */
    CHECK_EQ(otv_face_glyph_for_char(f, 0xFFFF, 0), 0);
    CHECK_EQ(otv_face_glyph_for_char(f, 0x1F600, 0), with12 ? 7 : 0);
    CHECK_EQ(otv_face_glyph_for_char(f, 0x1F601, 0), with12 ? 8 : 0);
    CHECK_EQ(otv_face_glyph_for_char(f, 0x1F602, 0), 0);
    CHECK_EQ(otv_face_glyph_for_char(f, 0x110000, 0), 0);
    /* format 14 */
    CHECK_EQ(otv_face_glyph_for_char(f, 'A', 0xFE00), 1); /* default UVS -> nominal */
    CHECK_EQ(otv_face_glyph_for_char(f, 'B', 0xFE00), 9); /* non-default */
    CHECK_EQ(otv_face_glyph_for_char(f, 'B', 0), 2);
    CHECK_EQ(otv_face_glyph_for_char(f, 'C', 0xFE00), 3); /* not listed -> nominal */
    CHECK_EQ(otv_face_glyph_for_char(f, 'B', 0xFE01), 2); /* unknown selector -> nominal */
    otv_face_close(f);

    /* sweeps: every prefix of the cmap table, every byte set to 0x00 / 0xFF */
    size_t off = 0, len = cmap.n;
    /* cmap is the first table: its offset is in the first record */
    off = (size_t)F.out.d[20] << 24 | (size_t)F.out.d[21] << 16 | (size_t)F.out.d[22] << 8 |
          F.out.d[23];
    for (size_t n = 0; n < len; n++) {
      fx_set_table_len(&F, OTV_T_CMAP, (uint32_t)n);
      otv_error e = {0};
      if (otv_face_open_memory(F.out.d, F.out.n, 0, NULL, &f, &e)) {
        CHECK_EQ(e.table, OTV_T_CMAP);
        continue;
      }
      for (uint32_t cp = 0x3F; cp < 0x66; cp++) CHECK(otv_face_glyph_for_char(f, cp, 0xFE00) < 10);
      otv_face_close(f);
    }
    fx_set_table_len(&F, OTV_T_CMAP, (uint32_t)len);
    for (size_t i = 0; i < len; i++)
      for (int v = 0; v < 2; v++) {
        uint8_t keep = F.out.d[off + i];
        F.out.d[off + i] = v ? 0xFF : 0x00;
        otv_error e = {0};
        if (!otv_face_open_memory(F.out.d, F.out.n, 0, NULL, &f, &e)) {
          for (uint32_t cp = 0x3F; cp < 0x66; cp++) otv_face_glyph_for_char(f, cp, 0xFE00);
          otv_face_glyph_for_char(f, 0x1F600, 0);
          otv_face_close(f);
        } else {
          CHECK_EQ(e.table, OTV_T_CMAP);
        }
        F.out.d[off + i] = keep;
      }
  }
  return h_done("test_cmap");
}

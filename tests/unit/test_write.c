/*
 * test_write.c - the byte buffer and sfnt writer: checksums by hand, directory fields from the
 * spec formulas, sorting, padding, head.checkSumAdjustment, and a round trip of every table of a
 * real font through otv_face_open_memory.
 */
#include "harness.h"
#include "face.h"
#include "core/sfnt.h"
#include "core/writer.h"

static uint32_t rd32(const uint8_t *p) { return otv_peek_u32(p); }
static uint16_t rd16(const uint8_t *p) { return otv_peek_u16(p); }

static void test_checksum(void)
{
  /* spec: sum of uint32 words; a trailing partial word is zero-padded */
  const uint8_t a[8] = {0, 0, 0, 1, 0, 0, 0, 2};
  CHECK_EQ(otv_sfnt_checksum(a, 8), 3);
  const uint8_t b[5] = {0xFF, 0xFF, 0xFF, 0xFF, 0x01};
  /* 0xFFFFFFFF + 0x01000000 wraps modulo 2^32 */
  CHECK_EQ(otv_sfnt_checksum(b, 5), 0x00FFFFFFu);
  CHECK_EQ(otv_sfnt_checksum(b, 0), 0);
  const uint8_t c[3] = {0x12, 0x34, 0x56};
  CHECK_EQ(otv_sfnt_checksum(c, 3), 0x12345600u);
}

static void test_buf(void)
{
  otv_alloc al;
  otv_alloc_init(&al, NULL);
  otv_buf b;
  otv_buf_init(&b, &al);
  otv_buf_u8(&b, 0xAB);
  otv_buf_u16(&b, 0x1234);
  otv_buf_u32(&b, 0xDEADBEEF);
  CHECK_EQ(b.len, 7);
  otv_buf_pad4(&b);
  CHECK_EQ(b.len, 8);
  CHECK_EQ(b.p[0], 0xAB);
  CHECK_EQ(rd16(b.p + 1), 0x1234);
  CHECK_EQ(rd32(b.p + 3), 0xDEADBEEFu);
  CHECK_EQ(b.p[7], 0);
  otv_buf_put_u16(&b, 1, 0x5678);
  CHECK_EQ(rd16(b.p + 1), 0x5678);
  for (int i = 0; i < 10000; i++) otv_buf_u16(&b, (uint16_t)i);
  CHECK_EQ(b.len, 8 + 20000);
  CHECK_EQ(rd16(b.p + 8 + 2 * 9999), 9999);
  CHECK(!b.failed);
  otv_buf_free(&b);

  /* allocation failure is sticky */
  h_alloc ha = {0};
  ha.fail_at = 2;
  otv_options o = {h_realloc, &ha, 0};
  otv_alloc_init(&al, &o);
  otv_buf_init(&b, &al);
  for (int i = 0; i < 1000; i++) otv_buf_u32(&b, 1);
  CHECK(b.failed);
  CHECK(b.len < 4000);
  otv_buf_free(&b);
  CHECK_EQ(ha.live_blocks, 0);
}

/* Three small tables given out of order: directory sorted, offsets aligned, padding zero. */
static void test_small_sfnt(void)
{
  otv_alloc al;
  otv_alloc_init(&al, NULL);
  uint8_t head[54] = {0};
  head[0] = 0, head[1] = 1;                   /* version 1.0 */
  head[8] = 0x11, head[9] = 0x22;             /* junk in checkSumAdjustment: must be replaced */
  otv_put_u32(head + 12, 0x5F0F3CF5);         /* magicNumber */
  otv_put_u16(head + 18, 1000);               /* unitsPerEm */
  uint8_t maxp[6] = {0, 0, 0x50, 0, 0, 3};    /* version 0.5, numGlyphs 3 */
  uint8_t odd[5] = {1, 2, 3, 4, 5};
  otv_sfnt_table t[5] = {
      {OTV_TAG('z', 'z', 'z', 'z'), odd, 5},
      {OTV_T_MAXP, maxp, 6},
      {OTV_T_HEAD, head, 54},
      {OTV_TAG('O', 'S', '/', '2'), odd, 3},
      {OTV_TAG('c', 'v', 't', ' '), odd, 0},
  };
  otv_buf b;
  otv_buf_init(&b, &al);
  otv_error e = {0};
  CHECK_EQ(otv_sfnt_write(&b, 0x00010000, t, 5, &e), OTV_E_OK);
  CHECK_EQ(rd32(b.p), 0x00010000u);
  CHECK_EQ(rd16(b.p + 4), 5);
  /* spec: searchRange = 2^floor(log2 5) * 16 = 64, entrySelector 2, rangeShift 80 - 64 */
  CHECK_EQ(rd16(b.p + 6), 64);
  CHECK_EQ(rd16(b.p + 8), 2);
  CHECK_EQ(rd16(b.p + 10), 16);
  /* tags ascending as uint32: 'OS/2' < 'cvt ' < 'head' < 'maxp' < 'zzzz' */
  uint32_t want[5] = {OTV_TAG('O', 'S', '/', '2'), OTV_TAG('c', 'v', 't', ' '), OTV_T_HEAD,
                      OTV_T_MAXP, OTV_TAG('z', 'z', 'z', 'z')};
  size_t expect_off = 12 + 5 * 16;
  uint32_t head_sum = 0;
  for (int i = 0; i < 5; i++) {
    const uint8_t *r = b.p + 12 + 16 * i;
    CHECK_EQ(rd32(r), want[i]);
    uint32_t off = rd32(r + 8), len = rd32(r + 12);
    CHECK_EQ(off % 4, 0);
    CHECK_EQ(off, expect_off);
    expect_off += (len + 3) & ~3u;
    for (uint32_t k = len; k < ((len + 3) & ~3u); k++) CHECK_EQ(b.p[off + k], 0);
    if (want[i] == OTV_T_HEAD) {
      head_sum = rd32(r + 4);
      /* the head checksum is taken with checkSumAdjustment = 0 */
      uint8_t h0[54];
      memcpy(h0, head, 54);
      memset(h0 + 8, 0, 4);
      CHECK_EQ(head_sum, otv_sfnt_checksum(h0, 54));
      CHECK_EQ(rd32(b.p + off + 12), 0x5F0F3CF5u);
    } else if (len) {
      CHECK_EQ(rd32(r + 4), otv_sfnt_checksum(b.p + off, len));
    }
  }
  CHECK_EQ(b.len, expect_off);
  /* whole file: with the adjustment in place the sum is 0xB1B0AFBA */
  CHECK_EQ(otv_sfnt_checksum(b.p, b.len), 0xB1B0AFBAu);
  /* the input tables were not modified except being sorted */
  CHECK_EQ(head[8], 0x11);
  otv_face *f = NULL;
  CHECK_EQ(otv_face_open_memory(b.p, b.len, 0, NULL, &f, &e), OTV_E_OK);
  if (f) {
    size_t n = 0;
    const uint8_t *z = otv_face_table(f, OTV_TAG('z', 'z', 'z', 'z'), &n);
    CHECK_EQ(n, 5);
    CHECK(z && !memcmp(z, odd, 5));
    otv_face_close(f);
  }
  otv_buf_free(&b);

  /* duplicate tags and a short head are rejected */
  otv_sfnt_table d[2] = {{OTV_T_MAXP, maxp, 6}, {OTV_T_MAXP, maxp, 6}};
  otv_buf_init(&b, &al);
  e = (otv_error){0};
  CHECK_EQ(otv_sfnt_write(&b, 0x00010000, d, 2, &e), OTV_E_ARG);
  otv_sfnt_table sh[1] = {{OTV_T_HEAD, head, 10}};
  CHECK_EQ(otv_sfnt_write(&b, 0x00010000, sh, 1, NULL), OTV_E_ARG);
  otv_buf_free(&b);

  /* searchRange for 1 and 16 tables */
  otv_sfnt_table one[1] = {{OTV_T_MAXP, maxp, 6}};
  otv_buf_init(&b, &al);
  CHECK_EQ(otv_sfnt_write(&b, 0x4F54544F, one, 1, NULL), OTV_E_OK);
  CHECK_EQ(rd16(b.p + 6), 16);
  CHECK_EQ(rd16(b.p + 8), 0);
  CHECK_EQ(rd16(b.p + 10), 0);
  otv_buf_free(&b);
  otv_sfnt_table many[16];
  for (int i = 0; i < 16; i++) many[i] = (otv_sfnt_table){OTV_TAG('t', 'a', 'b', 'A' + i), odd, 5};
  otv_buf_init(&b, &al);
  CHECK_EQ(otv_sfnt_write(&b, 0x00010000, many, 16, NULL), OTV_E_OK);
  CHECK_EQ(rd16(b.p + 6), 256);
  CHECK_EQ(rd16(b.p + 8), 4);
  CHECK_EQ(rd16(b.p + 10), 0);
  otv_buf_free(&b);
}

/* Re-write every table of a real font: same bytes per table, valid checksums. */
static void test_roundtrip(const char *name)
{
  size_t len;
  uint8_t *data = h_read_file(h_font(name), &len);
  otv_face *f = NULL;
  otv_error e = {0};
  CHECK_EQ(otv_face_open_memory(data, len, 0, NULL, &f, &e), OTV_E_OK);
  if (!f) {
    free(data);
    return;
  }
  unsigned n = otv_face_tables(f, 0, NULL, NULL);
  otv_table_record *recs = calloc(n, sizeof *recs);
  otv_sfnt_table *t = calloc(n, sizeof *t);
  unsigned cnt = n;
  otv_face_tables(f, 0, &cnt, recs);
  for (unsigned i = 0; i < cnt; i++) {
    t[cnt - 1 - i].tag = recs[i].tag; /* reversed: the writer must sort */
    t[cnt - 1 - i].data = otv_face_table(f, recs[i].tag, &t[cnt - 1 - i].len);
  }
  otv_alloc al;
  otv_alloc_init(&al, NULL);
  otv_buf b;
  otv_buf_init(&b, &al);
  CHECK_EQ(otv_sfnt_write(&b, 0x00010000, t, cnt, &e), OTV_E_OK);
  CHECK_EQ(otv_sfnt_checksum(b.p, b.len), 0xB1B0AFBAu);
  otv_face *g = NULL;
  CHECK_EQ(otv_face_open_memory(b.p, b.len, 0, NULL, &g, &e), OTV_E_OK);
  if (g) {
    otv_table_record *r2 = calloc(n, sizeof *r2);
    unsigned c2 = n;
    CHECK_EQ(otv_face_tables(g, 0, &c2, r2), n);
    for (unsigned i = 0; i < c2; i++) {
      size_t l1 = 0, l2 = 0;
      const uint8_t *p1 = otv_face_table(f, r2[i].tag, &l1);
      const uint8_t *p2 = otv_face_table(g, r2[i].tag, &l2);
      CHECK_EQ(r2[i].tag, recs[i].tag);
      CHECK_EQ(l1, l2);
      if (r2[i].tag == OTV_T_HEAD) {
        CHECK(!memcmp(p1, p2, 8) && !memcmp(p1 + 12, p2 + 12, l1 - 12));
      } else {
        CHECK(l1 == l2 && !memcmp(p1, p2, l1));
        CHECK_EQ(r2[i].checksum, otv_sfnt_checksum(p2, l2));
        /* fonts made by fontTools have correct checksums: ours must agree */
        CHECK_EQ(r2[i].checksum, recs[i].checksum);
      }
    }
    free(r2);
    otv_face_close(g);
  }
  otv_buf_free(&b);
  free(recs);
  free(t);
  otv_face_close(f);
  free(data);
}

int main(void)
{
  test_checksum();
  test_buf();
  test_small_sfnt();
  test_roundtrip("PartialInstancerTest2-VF.ttf");
  test_roundtrip("Roboto-Variable.ABC.ttf");
  return h_done("test_write");
}

/*
 * test_write.c - the byte buffer and sfnt writer: checksums by hand, directory fields from the
 * spec formulas, sorting, padding, head.checkSumAdjustment, and a round trip of every table of a
 * real font through otv_face_open_memory; the faces writer (otv_sfnt_write_faces): a single
 * font in a table order of its own, a TrueType Collection sharing tables, its errors and an
 * allocation-failure loop.
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
  head[0] = 0, head[1] = 1;                /* version 1.0 */
  head[8] = 0x11, head[9] = 0x22;          /* junk in checkSumAdjustment: must be replaced */
  otv_put_u32(head + 12, 0x5F0F3CF5);      /* magicNumber */
  otv_put_u16(head + 18, 1000);            /* unitsPerEm */
  uint8_t maxp[6] = {0, 0, 0x50, 0, 0, 3}; /* version 0.5, numGlyphs 3 */
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

/* A head of 54 bytes with junk in checkSumAdjustment, and a maxp of numGlyphs 3. */
static void make_head_maxp(uint8_t head[54], uint8_t maxp[6])
{
  memset(head, 0, 54);
  head[1] = 1;                                       /* version 1.0 */
  otv_put_u32(head + 8, 0x11223344);                 /* checkSumAdjustment: junk */
  otv_put_u32(head + 12, OTV_HEAD_MAGIC);            /* magicNumber */
  otv_put_u16(head + 18, 1000);                      /* unitsPerEm */
  static const uint8_t m[6] = {0, 0, 0x50, 0, 0, 3}; /* version 0.5, numGlyphs 3 */
  memcpy(maxp, m, 6);
}

static void test_table_checksum(void)
{
  uint8_t head[54], maxp[6];
  make_head_maxp(head, maxp);
  uint8_t h0[54];
  memcpy(h0, head, 54);
  memset(h0 + 8, 0, 4);
  /* head: checkSumAdjustment counts as 0; any other tag: the plain sum */
  CHECK_EQ(otv_sfnt_table_checksum(OTV_T_HEAD, head, 54), otv_sfnt_checksum(h0, 54));
  CHECK_EQ(otv_sfnt_table_checksum(OTV_T_MAXP, head, 54), otv_sfnt_checksum(head, 54));
  /* a head too short for the field: summed as it is */
  CHECK_EQ(otv_sfnt_table_checksum(OTV_T_HEAD, head, 11), otv_sfnt_checksum(head, 11));
}

/* The record of `tag` in the directory at dir (NULL when absent). */
static const uint8_t *record(const uint8_t *dir, uint32_t tag)
{
  unsigned n = rd16(dir + 4);
  for (unsigned i = 0; i < n; i++)
    if (rd32(dir + 12 + 16 * i) == tag) return dir + 12 + 16 * i;
  return NULL;
}

/* A single font whose tables are laid out in the order given (not by tag), after 4 bytes
 * already in the buffer: directory sorted, offsets from the font's start, data in file order. */
static void test_faces_single(void)
{
  otv_alloc al;
  otv_alloc_init(&al, NULL);
  uint8_t head[54], maxp[6];
  make_head_maxp(head, maxp);
  uint8_t odd[5] = {1, 2, 3, 4, 5};
  const otv_sfnt_table t[4] = {
      {OTV_TAG('z', 'z', 'z', 'z'), odd, 5},
      {OTV_T_MAXP, maxp, 6},
      {OTV_T_HEAD, head, 54},
      {OTV_T_OS2, odd, 3},
  };
  uint16_t idx[4] = {0, 1, 2, 3};
  otv_sfnt_face face = {OTV_SFNT_TRUETYPE, idx, 4};
  otv_buf b;
  otv_buf_init(&b, &al);
  otv_buf_u32(&b, 0xAAAAAAAA); /* the font starts at 4 */
  otv_error e = {0};
  CHECK_EQ(otv_sfnt_write_faces(&b, t, 4, &face, 1, false, &e), OTV_E_OK);
  CHECK_EQ(b.len, 4 + otv_sfnt_file_len(t, 4, &face, 1, false));
  CHECK_EQ(otv_sfnt_file_len(t, 4, &face, 1, false), 12 + 4 * 16 + 8 + 8 + 56 + 4);
  const uint8_t *f = b.p + 4;
  size_t flen = b.len - 4;
  CHECK_EQ(rd32(b.p), 0xAAAAAAAAu);
  CHECK_EQ(rd32(f), OTV_SFNT_TRUETYPE);
  CHECK_EQ(rd16(f + 4), 4);
  CHECK_EQ(rd16(f + 6), 64); /* searchRange */
  CHECK_EQ(rd16(f + 8), 2);  /* entrySelector */
  CHECK_EQ(rd16(f + 10), 0); /* rangeShift */
  /* idx sorted by tag: OS/2 (3), head (2), maxp (1), zzzz (0) */
  CHECK(idx[0] == 3 && idx[1] == 2 && idx[2] == 1 && idx[3] == 0);
  /* records by tag, data in the order of t: zzzz at 76, maxp at 84, head at 92, OS/2 at 148 */
  uint32_t want_tag[4] = {OTV_T_OS2, OTV_T_HEAD, OTV_T_MAXP, OTV_TAG('z', 'z', 'z', 'z')};
  uint32_t want_off[4] = {148, 92, 84, 76}, want_len[4] = {3, 54, 6, 5};
  for (int i = 0; i < 4; i++) {
    const uint8_t *r = f + 12 + 16 * i;
    CHECK_EQ(rd32(r), want_tag[i]);
    CHECK_EQ(rd32(r + 8), want_off[i]);
    CHECK_EQ(rd32(r + 12), want_len[i]);
    CHECK_EQ(rd32(r + 4), otv_sfnt_table_checksum(want_tag[i], f + want_off[i], want_len[i]));
  }
  CHECK_EQ(f[76 + 5], 0); /* padding */
  CHECK_EQ(f[151], 0);
  CHECK_EQ(otv_sfnt_checksum(f, flen), OTV_HEAD_CHECKSUM_BASE);
  CHECK_EQ(rd32(head + 8), 0x11223344u); /* the input is not modified */
  otv_face *face_out = NULL;
  CHECK_EQ(otv_face_open_memory(f, flen, 0, NULL, &face_out, &e), OTV_E_OK);
  if (face_out) {
    size_t n = 0;
    const uint8_t *z = otv_face_table(face_out, OTV_TAG('z', 'z', 'z', 'z'), &n);
    CHECK(n == 5 && z && !memcmp(z, odd, 5));
    otv_face_close(face_out);
  }
  otv_buf_free(&b);

  /* NULL indices: the tables sorted already, the same bytes as otv_sfnt_write */
  otv_sfnt_table sorted[4] = {t[3], t[2], t[1], t[0]};
  otv_sfnt_face all = {OTV_SFNT_TRUETYPE, NULL, 4};
  otv_buf c;
  otv_buf_init(&b, &al);
  otv_buf_init(&c, &al);
  CHECK_EQ(otv_sfnt_write_faces(&b, sorted, 4, &all, 1, false, NULL), OTV_E_OK);
  CHECK_EQ(otv_sfnt_write(&c, OTV_SFNT_TRUETYPE, sorted, 4, NULL), OTV_E_OK);
  CHECK(b.len == c.len && !memcmp(b.p, c.p, b.len));
  otv_buf_free(&b);
  otv_buf_free(&c);
}

/* Two faces sharing head and maxp: TTC header, both directories, each table once. */
static otv_status write_ttc(otv_buf *b, const otv_alloc *al, otv_error *e)
{
  static uint8_t head[54], maxp[6];
  static const uint8_t a[5] = {'a', 'a', 'a', 'a', 'a'}, z[7] = {'z', 'z', 'z', 'z', 'z', 'z', 'z'};
  make_head_maxp(head, maxp);
  const otv_sfnt_table t[4] = {
      {OTV_T_HEAD, head, 54},
      {OTV_TAG('a', 'a', 'a', 'a'), a, 5},
      {OTV_T_MAXP, maxp, 6},
      {OTV_TAG('z', 'z', 'z', 'z'), z, 7},
  };
  uint16_t i0[3] = {2, 1, 0}, i1[3] = {3, 0, 2};
  otv_sfnt_face faces[2] = {{OTV_SFNT_TRUETYPE, i0, 3}, {OTV_SFNT_TRUETYPE, i1, 3}};
  otv_buf_init(b, al);
  return otv_sfnt_write_faces(b, t, 4, faces, 2, true, e);
}

static void test_faces_collection(void)
{
  otv_alloc al;
  otv_alloc_init(&al, NULL);
  otv_buf b;
  otv_error e = {0};
  CHECK_EQ(write_ttc(&b, &al, &e), OTV_E_OK);
  /* TTC header 1.0: 12 bytes, 2 offsets; directories of 12 + 3 * 16 bytes; then head (56),
   * aaaa (8), maxp (8), zzzz (8) */
  CHECK_EQ(b.len, 20 + 2 * 60 + 56 + 8 + 8 + 8);
  CHECK_EQ(rd32(b.p), OTV_SFNT_TTCF);
  CHECK_EQ(rd32(b.p + 4), OTV_TTC_VERSION_1_0);
  CHECK_EQ(rd32(b.p + 8), 2);
  CHECK_EQ(rd32(b.p + 12), 20);
  CHECK_EQ(rd32(b.p + 16), 80);
  CHECK_EQ(otv_font_face_count(b.p, b.len), 2);
  const uint8_t *d0 = b.p + 20, *d1 = b.p + 80;
  CHECK_EQ(rd32(d0), OTV_SFNT_TRUETYPE);
  CHECK_EQ(rd16(d0 + 4), 3);
  CHECK_EQ(rd16(d0 + 6), 32); /* searchRange for 3 */
  CHECK_EQ(rd16(d0 + 8), 1);
  CHECK_EQ(rd16(d0 + 10), 16);
  /* records sorted by tag in each directory */
  CHECK_EQ(rd32(d0 + 12), OTV_TAG('a', 'a', 'a', 'a'));
  CHECK_EQ(rd32(d0 + 28), OTV_T_HEAD);
  CHECK_EQ(rd32(d0 + 44), OTV_T_MAXP);
  CHECK_EQ(rd32(d1 + 12), OTV_T_HEAD);
  CHECK_EQ(rd32(d1 + 28), OTV_T_MAXP);
  CHECK_EQ(rd32(d1 + 44), OTV_TAG('z', 'z', 'z', 'z'));
  /* shared tables: one copy, the same record in both directories */
  const uint8_t *h0 = record(d0, OTV_T_HEAD), *h1 = record(d1, OTV_T_HEAD);
  CHECK(h0 && h1 && !memcmp(h0, h1, 16));
  CHECK(!memcmp(record(d0, OTV_T_MAXP), record(d1, OTV_T_MAXP), 16));
  CHECK_EQ(rd32(h0 + 8), 140); /* the first table, after both directories */
  CHECK_EQ(rd32(record(d0, OTV_TAG('a', 'a', 'a', 'a')) + 8), 196);
  CHECK_EQ(rd32(record(d1, OTV_T_MAXP) + 8), 204);
  CHECK_EQ(rd32(record(d1, OTV_TAG('z', 'z', 'z', 'z')) + 8), 212);
  /* head: checkSumAdjustment kept as given, its checksum taken with the field as 0 */
  CHECK_EQ(rd32(b.p + 140 + 8), 0x11223344u);
  CHECK_EQ(rd32(h0 + 4), otv_sfnt_table_checksum(OTV_T_HEAD, b.p + 140, 54));
  CHECK_EQ(rd32(record(d1, OTV_TAG('z', 'z', 'z', 'z')) + 4),
           otv_sfnt_checksum((const uint8_t *)"zzzzzzz", 7));
  for (unsigned i = 0; i < 2; i++) {
    otv_face *f = NULL;
    CHECK_EQ(otv_face_open_memory(b.p, b.len, i, NULL, &f, &e), OTV_E_OK);
    if (!f) continue;
    size_t n = 0;
    const uint8_t *p =
        otv_face_table(f, i ? OTV_TAG('z', 'z', 'z', 'z') : OTV_TAG('a', 'a', 'a', 'a'), &n);
    CHECK(p && n == (i ? 7u : 5u) && p[0] == (i ? 'z' : 'a'));
    CHECK(!otv_face_table(f, i ? OTV_TAG('a', 'a', 'a', 'a') : OTV_TAG('z', 'z', 'z', 'z'), &n));
    otv_face_close(f);
  }
  otv_buf_free(&b);
}

static void test_faces_errors(void)
{
  otv_alloc al;
  otv_alloc_init(&al, NULL);
  uint8_t head[54], maxp[6];
  make_head_maxp(head, maxp);
  const otv_sfnt_table t[3] = {
      {OTV_T_MAXP, maxp, 6}, {OTV_T_HEAD, head, 54}, {OTV_T_MAXP, maxp, 6}};
  otv_buf b;
  otv_buf_init(&b, &al);
  otv_error e = {0};
  /* one tag twice in face 1 of a collection: named */
  uint16_t ok[2] = {0, 1}, dup[2] = {2, 0};
  otv_sfnt_face two[2] = {{OTV_SFNT_TRUETYPE, ok, 2}, {OTV_SFNT_TRUETYPE, dup, 2}};
  CHECK_EQ(otv_sfnt_write_faces(&b, t, 3, two, 2, true, &e), OTV_E_ARG);
  CHECK_STR(e.msg, "face 1: table 'maxp' given twice");
  CHECK_EQ(b.len, 0); /* nothing written */
  /* an index past the tables */
  uint16_t past[1] = {3};
  otv_sfnt_face pf = {OTV_SFNT_TRUETYPE, past, 1};
  e = (otv_error){0};
  CHECK_EQ(otv_sfnt_write_faces(&b, t, 3, &pf, 1, true, &e), OTV_E_ARG);
  CHECK_STR(e.msg, "face 0: table index 3 of 3");
  /* a single font must list every table, and be one face; a collection at least one */
  otv_sfnt_face some = {OTV_SFNT_TRUETYPE, ok, 2};
  CHECK_EQ(otv_sfnt_write_faces(&b, t, 3, &some, 1, false, NULL), OTV_E_ARG);
  CHECK_EQ(otv_sfnt_write_faces(&b, t, 2, two, 2, false, NULL), OTV_E_ARG);
  CHECK_EQ(otv_sfnt_write_faces(&b, t, 2, two, 0, true, NULL), OTV_E_ARG);
  /* NULL indices: the tables must be sorted, with no tag twice */
  otv_sfnt_face all = {OTV_SFNT_TRUETYPE, NULL, 2};
  CHECK_EQ(otv_sfnt_write_faces(&b, t, 2, &all, 1, false, NULL), OTV_E_ARG);
  CHECK_EQ(otv_sfnt_write_faces(&b, t + 1, 2, &all, 1, false, NULL), OTV_E_OK); /* head, maxp */
  otv_buf_free(&b);
  /* more than 65535 tables in a face */
  otv_sfnt_face big = {OTV_SFNT_TRUETYPE, ok, 70000};
  otv_buf_init(&b, &al);
  CHECK_EQ(otv_sfnt_write_faces(&b, t, 2, &big, 1, true, NULL), OTV_E_LIMIT);
  /* a font must start 4-byte aligned in the buffer */
  otv_buf_u16(&b, 0);
  otv_sfnt_face hm = {OTV_SFNT_TRUETYPE, NULL, 2};
  CHECK_EQ(otv_sfnt_write_faces(&b, t + 1, 2, &hm, 1, false, NULL), OTV_E_ARG);
  otv_buf_free(&b);
  /* a head too short for checkSumAdjustment: written and summed as it is */
  otv_sfnt_table sh[1] = {{OTV_T_HEAD, head, 10}};
  otv_sfnt_face one = {OTV_SFNT_TRUETYPE, NULL, 1};
  otv_buf_init(&b, &al);
  CHECK_EQ(otv_sfnt_write_faces(&b, sh, 1, &one, 1, false, NULL), OTV_E_OK);
  CHECK_EQ(b.len, 12 + 16 + 12);
  CHECK(!memcmp(b.p + 28, head, 10));
  CHECK_EQ(rd32(b.p + 16), otv_sfnt_checksum(head, 10));
  otv_buf_free(&b);
}

/* Fail the Nth allocation for N = 1, 2, ... until the write succeeds: NOMEM each time, nothing
 * left allocated, and the bytes of the run that succeeds are those of a plain run. */
static void test_faces_alloc_failures(void)
{
  otv_alloc plain;
  otv_alloc_init(&plain, NULL);
  otv_buf want;
  CHECK_EQ(write_ttc(&want, &plain, NULL), OTV_E_OK);
  long n = 1;
  for (; n < 100; n++) {
    h_alloc ha = {0};
    ha.fail_at = n;
    otv_options o = {h_realloc, &ha, 0};
    otv_alloc al;
    otv_alloc_init(&al, &o);
    otv_buf b;
    otv_status st = write_ttc(&b, &al, NULL);
    if (st == OTV_E_OK)
      CHECK(b.len == want.len && !memcmp(b.p, want.p, b.len));
    else
      CHECK_EQ(st, OTV_E_NOMEM);
    otv_buf_free(&b);
    CHECK_EQ(ha.live_blocks, 0);
    if (st == OTV_E_OK) break;
  }
  CHECK_EQ(n, 3); /* two allocations: the sort keys and table places, the file */
  otv_buf_free(&want);
}

int main(void)
{
  test_checksum();
  test_buf();
  test_small_sfnt();
  test_roundtrip("PartialInstancerTest2-VF.ttf");
  test_roundtrip("Roboto-Variable.ABC.ttf");
  test_table_checksum();
  test_faces_single();
  test_faces_collection();
  test_faces_errors();
  test_faces_alloc_failures();
  return h_done("test_write");
}

/*
 * test_ivs.c - the shared ItemVariationStore and DeltaSetIndexMap (src/ivs.c) on hand-built
 * stores: region scalars (the spec's per-axis rules, intermediate regions, invalid regions),
 * 8/16-bit and 16/32-bit ("long") delta rows, NULL subtables, out-of-range region and item
 * indices, DeltaSetIndexMap formats 0 and 1 with every entry size and inner bit count, the
 * last-entry rule, truncation and bad-offset sweeps, allocation failure.
 * Expected values are computed by hand from the spec's formulas (otvarcommonformats).
 */
#include "harness.h"

#define TAG_T OTV_TAG('T', 'E', 'S', 'T')

typedef struct bb {
  uint8_t b[1024];
  size_t n;
} bb;
static void b8(bb *b, unsigned v) { b->b[b->n++] = (uint8_t)v; }
static void b16(bb *b, int v)
{
  b->b[b->n++] = (uint8_t)((unsigned)v >> 8);
  b->b[b->n++] = (uint8_t)v;
}
static void b32(bb *b, int64_t v)
{
  b16(b, (int)(((uint32_t)v) >> 16));
  b16(b, (int)(((uint32_t)v) & 0xFFFF));
}

static void test_axis_scalar(void)
{
  /* spec: peak 0 -> 1; coord == peak -> 1; outside (start, end) -> 0; linear in between */
  CHECK(otv_axis_scalar(5000, 0, 0, 0) == 1.0f);
  CHECK(otv_axis_scalar(16384, 0, 16384, 16384) == 1.0f);
  CHECK(otv_axis_scalar(0, 0, 16384, 16384) == 0.0f);
  CHECK(otv_axis_scalar(-1, 0, 16384, 16384) == 0.0f);
  CHECK(otv_axis_scalar(4096, 0, 16384, 16384) == 0.25f);
  CHECK(otv_axis_scalar(12288, 0, 8192, 16384) == 0.5f);
  CHECK(otv_axis_scalar(16384, 0, 8192, 16384) == 0.0f);
  CHECK(otv_axis_scalar(-8192, -16384, -16384, 0) == 0.5f);
  /* invalid regions: start > peak or peak > end -> the axis is ignored (1) */
  CHECK(otv_axis_scalar(100, 8192, 4096, 16384) == 1.0f);
  CHECK(otv_axis_scalar(100, 0, 16384, 8192) == 1.0f);
  /* start < 0 < end with a non-zero peak -> ignored (1) */
  CHECK(otv_axis_scalar(-5000, -16384, 8192, 16384) == 1.0f);
}

/* The store described in the file comment of each field below. */
static void build_store(bb *b)
{
  b->n = 0;
  b16(b, 1);                         /* format */
  b32(b, 20);                        /* regionListOffset */
  b16(b, 3);                         /* itemVariationDataCount */
  b32(b, 60), b32(b, 80), b32(b, 0); /* third subtable NULL */
  /* region list at 20: 2 axes, 3 regions */
  b16(b, 2), b16(b, 3);
  b16(b, 0), b16(b, 16384), b16(b, 16384), b16(b, 0), b16(b, 0), b16(b, 0);        /* r0 */
  b16(b, 0), b16(b, 0), b16(b, 0), b16(b, -16384), b16(b, -16384), b16(b, 0);      /* r1 */
  b16(b, 0), b16(b, 8192), b16(b, 16384), b16(b, 0), b16(b, 16384), b16(b, 16384); /* r2 */
  /* data 0 at 60: 2 items, 1 word column, 3 regions (the third index is out of range) */
  b16(b, 2), b16(b, 1), b16(b, 3), b16(b, 0), b16(b, 1), b16(b, 5);
  b16(b, 1000), b8(b, (uint8_t)-3), b8(b, 7);
  b16(b, -32768), b8(b, 127), b8(b, (uint8_t)-128);
  /* data 1 at 80: 1 item, long words (0x8001: one 32-bit column then 16-bit), regions 2, 0 */
  b16(b, 1), b16(b, 0x8001), b16(b, 2), b16(b, 2), b16(b, 0);
  b32(b, 100000), b16(b, -300);
}

static void test_store(void)
{
  bb b;
  build_store(&b);
  CHECK_EQ(b.n, 96);
  otv_alloc al;
  otv_alloc_init(&al, NULL);
  otv_ivs ivs;
  otv_error e = {0};
  CHECK_EQ(otv_ivs_parse(&al, otv_span_of(b.b, b.n), TAG_T, 0, 2, &ivs, &e), OTV_E_OK);
  CHECK(ivs.present);
  CHECK_EQ(ivs.region_count, 3);
  CHECK_EQ(ivs.data_count, 3);
  CHECK(ivs.data[1].long_words);
  CHECK_EQ(ivs.data[2].item_count, 0);
  float sc[3];
  int32_t c1[2] = {8192 * 4, -8192 * 4}; /* 16.16 */
  otv_ivs_region_scalars(&ivs, c1, 2, sc);
  CHECK(sc[0] == 0.5f && sc[1] == 0.5f && sc[2] == 0.0f);
  CHECK(otv_ivs_delta(&ivs, sc, 0, 0) == 498.5f);    /* 0.5*1000 + 0.5*-3 (region 5 ignored) */
  CHECK(otv_ivs_delta(&ivs, sc, 0, 1) == -16320.5f); /* 0.5*-32768 + 0.5*127 */
  CHECK(otv_ivs_delta(&ivs, sc, 1, 0) == -150.0f);   /* 0*100000 + 0.5*-300 */
  CHECK(otv_ivs_delta(&ivs, sc, 2, 0) == 0.0f);      /* NULL subtable */
  CHECK(otv_ivs_delta(&ivs, sc, 3, 0) == 0.0f);      /* outer out of range */
  CHECK(otv_ivs_delta(&ivs, sc, 0, 2) == 0.0f);      /* inner out of range */
  CHECK(otv_ivs_delta(&ivs, sc, 0xFFFF, 0xFFFF) == 0.0f);
  int32_t c2[2] = {12288 * 4, 16384 * 4};
  otv_ivs_region_scalars(&ivs, c2, 2, sc);
  CHECK(sc[0] == 0.75f && sc[1] == 0.0f && sc[2] == 0.5f);
  CHECK(otv_ivs_delta(&ivs, sc, 1, 0) == 49775.0f); /* 0.5*100000 + 0.75*-300 */
  CHECK(otv_ivs_delta(&ivs, sc, 0, 0) == 750.0f);
  /* fewer coordinates than region axes: the missing ones are 0 */
  int32_t c3[1] = {16384 * 4};
  otv_ivs_region_scalars(&ivs, c3, 1, sc);
  CHECK(sc[0] == 1.0f && sc[1] == 0.0f && sc[2] == 0.0f);
  otv_ivs_free(&al, &ivs);
  CHECK(!ivs.present && ivs.data == NULL);

  /* a store evaluated against fewer fvar axes than its regions name */
  memset(&e, 0, sizeof e);
  CHECK_EQ(otv_ivs_parse(&al, otv_span_of(b.b, b.n), TAG_T, 0, 1, &ivs, &e), OTV_E_BAD_VALUE);
  CHECK_EQ(e.table, TAG_T);

  /* the store at a non-zero offset inside a table */
  uint8_t shifted[200];
  memset(shifted, 0xAB, 10);
  memcpy(shifted + 10, b.b, b.n);
  CHECK_EQ(otv_ivs_parse(&al, otv_span_of(shifted, b.n + 10), TAG_T, 10, 2, &ivs, NULL), OTV_E_OK);
  otv_ivs_region_scalars(&ivs, c1, 2, sc);
  CHECK(otv_ivs_delta(&ivs, sc, 0, 0) == 498.5f);
  otv_ivs_free(&al, &ivs);
}

static void test_store_errors(void)
{
  bb b;
  build_store(&b);
  otv_alloc al;
  otv_alloc_init(&al, NULL);
  otv_ivs ivs;
  uint8_t p[128];
  /* truncation sweep: every prefix fails and names the table */
  for (size_t n = 0; n < b.n; n++) {
    otv_error e = {0};
    CHECK(otv_ivs_parse(&al, otv_span_of(b.b, n), TAG_T, 0, 2, &ivs, &e) != OTV_E_OK);
    CHECK_EQ(e.table, TAG_T);
    CHECK(ivs.data == NULL);
  }
  /* bad offsets: region list and data offsets */
  const int64_t bad[] = {96, 97, 0xFFFF, 0xFFFFFFFF, 95};
  const size_t fields[] = {2, 8, 12};
  for (size_t fi = 0; fi < 3; fi++)
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
      memcpy(p, b.b, b.n);
      bb w = {{0}, 0};
      b32(&w, bad[i]);
      memcpy(p + fields[fi], w.b, 4);
      otv_error e = {0};
      CHECK(otv_ivs_parse(&al, otv_span_of(p, b.n), TAG_T, 0, 2, &ivs, &e) != OTV_E_OK);
      CHECK_EQ(e.table, TAG_T);
    }
  /* every offset inside the table: parses or fails cleanly, never reads outside */
  for (size_t fi = 0; fi < 3; fi++)
    for (int64_t o = 1; o < 96; o++) {
      memcpy(p, b.b, b.n);
      bb w = {{0}, 0};
      b32(&w, o);
      memcpy(p + fields[fi], w.b, 4);
      otv_error e = {0};
      if (otv_ivs_parse(&al, otv_span_of(p, b.n), TAG_T, 0, 2, &ivs, &e) == OTV_E_OK) {
        float sc[256];
        int32_t c[2] = {8192 * 4, -8192 * 4};
        if (ivs.region_count <= 256) {
          otv_ivs_region_scalars(&ivs, c, 2, sc);
          for (unsigned k = 0; k < ivs.data_count; k++) (void)otv_ivs_delta(&ivs, sc, k, 0);
        }
        otv_ivs_free(&al, &ivs);
      } else {
        CHECK_EQ(e.table, TAG_T);
      }
    }
  /* format 2 */
  memcpy(p, b.b, b.n);
  p[1] = 2;
  otv_error e = {0};
  CHECK_EQ(otv_ivs_parse(&al, otv_span_of(p, b.n), TAG_T, 0, 2, &ivs, &e), OTV_E_BAD_VALUE);
  /* wordDeltaCount > regionIndexCount */
  memcpy(p, b.b, b.n);
  p[60 + 3] = 4;
  memset(&e, 0, sizeof e);
  CHECK_EQ(otv_ivs_parse(&al, otv_span_of(p, b.n), TAG_T, 0, 2, &ivs, &e), OTV_E_BAD_VALUE);
  CHECK_EQ(e.offset, 60);
  /* item count past the end */
  memcpy(p, b.b, b.n);
  p[80 + 1] = 2;
  memset(&e, 0, sizeof e);
  CHECK_EQ(otv_ivs_parse(&al, otv_span_of(p, b.n), TAG_T, 0, 2, &ivs, &e), OTV_E_TRUNCATED);
  /* allocation failure: NOMEM, nothing left allocated */
  h_alloc ha = {0, 1, 0, 0};
  otv_options opt = {h_realloc, &ha, 0};
  otv_alloc fal;
  otv_alloc_init(&fal, &opt);
  memset(&e, 0, sizeof e);
  CHECK_EQ(otv_ivs_parse(&fal, otv_span_of(b.b, b.n), TAG_T, 0, 2, &ivs, &e), OTV_E_NOMEM);
  CHECK_EQ(ha.live_blocks, 0);
  /* and with the allocation succeeding, freeing leaves nothing */
  ha.fail_at = 0;
  CHECK_EQ(otv_ivs_parse(&fal, otv_span_of(b.b, b.n), TAG_T, 0, 2, &ivs, NULL), OTV_E_OK);
  otv_ivs_free(&fal, &ivs);
  CHECK_EQ(ha.live_blocks, 0);
}

/* DeltaSetIndexMap: every entry size (1-4 bytes) and inner bit count (1-16) that fits, both
 * formats. Entries: value = outer << bits | inner for three known pairs. */
static void test_dsim(void)
{
  for (int format = 0; format <= 1; format++)
    for (unsigned size = 1; size <= 4; size++)
      for (unsigned bits = 1; bits <= 16; bits++) {
        if (bits > size * 8) continue;
        unsigned outer_bits = size * 8 - bits;
        uint32_t outer_max = outer_bits >= 16 ? 0xFFFF : (1u << outer_bits) - 1;
        uint32_t inner_max = (1u << bits) - 1;
        uint32_t want[3][2] = {{0, 0}, {outer_max, inner_max}, {outer_max / 2, inner_max / 3}};
        bb b = {{0}, 0};
        b8(&b, (unsigned)format);
        b8(&b, ((size - 1) << 4) | (bits - 1));
        if (format == 0)
          b16(&b, 3);
        else
          b32(&b, 3);
        for (int i = 0; i < 3; i++) {
          uint32_t v = want[i][0] << bits | want[i][1];
          for (int k = (int)size - 1; k >= 0; k--) b8(&b, (v >> (8 * k)) & 0xFF);
        }
        otv_dsim m;
        otv_error e = {0};
        CHECK_EQ(otv_dsim_parse(otv_span_of(b.b, b.n), TAG_T, 0, &m, &e), OTV_E_OK);
        CHECK_EQ(m.entry_size, size);
        CHECK_EQ(m.inner_bits, bits);
        CHECK_EQ(m.map_count, 3);
        for (uint32_t i = 0; i < 5; i++) {
          uint32_t o, in;
          otv_dsim_map(&m, i, &o, &in);
          uint32_t k = i < 3 ? i : 2; /* past the end: the last entry (spec) */
          CHECK_EQ(o, want[k][0]);
          CHECK_EQ(in, want[k][1]);
        }
        /* truncation sweep */
        for (size_t n = 0; n < b.n; n++) {
          otv_error e2 = {0};
          CHECK(otv_dsim_parse(otv_span_of(b.b, n), TAG_T, 0, &m, &e2) != OTV_E_OK);
          CHECK_EQ(e2.table, TAG_T);
        }
      }
  /* an empty map: indices pass through as outer << 16 | inner */
  uint8_t empty[4] = {0, 0x10, 0, 0};
  otv_dsim m;
  CHECK_EQ(otv_dsim_parse(otv_span_of(empty, 4), TAG_T, 0, &m, NULL), OTV_E_OK);
  uint32_t o, in;
  otv_dsim_map(&m, 0x00030005u, &o, &in);
  CHECK_EQ(o, 3);
  CHECK_EQ(in, 5);
  /* no map: implicit (0, idx) */
  otv_dsim none;
  memset(&none, 0, sizeof none);
  otv_dsim_map(&none, 7, &o, &in);
  CHECK_EQ(o, 0);
  CHECK_EQ(in, 7);
  /* bad format; a huge format 1 count */
  uint8_t bad[8] = {2, 0, 0, 1, 0, 0, 0, 0};
  otv_error e = {0};
  CHECK_EQ(otv_dsim_parse(otv_span_of(bad, 8), TAG_T, 0, &m, &e), OTV_E_BAD_VALUE);
  CHECK_EQ(e.table, TAG_T);
  uint8_t huge[10] = {1, 0x30, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0};
  memset(&e, 0, sizeof e);
  CHECK_EQ(otv_dsim_parse(otv_span_of(huge, 10), TAG_T, 0, &m, &e), OTV_E_TRUNCATED);
  /* offset past the end */
  memset(&e, 0, sizeof e);
  CHECK(otv_dsim_parse(otv_span_of(huge, 10), TAG_T, 11, &m, &e) != OTV_E_OK);
  CHECK_EQ(e.table, TAG_T);
}

/* otv_ivs_region_scalars on 16.16 coordinates gives the very floats of
 * otv_ivs_region_scalars_f2 on the F2Dot14 ones (x 4): random regions (well- and ill-formed) at
 * their own points and random places. */
static void test_region_scalars_16_16(void)
{
  uint64_t st = 0x2545F4914F6CDD1Dull;
  long compared = 0, differ = 0;
  for (int it = 0; it < 2000; it++) {
    uint8_t b[256];
    size_t n = 0;
    /* an ItemVariationStore with one 2-axis region list of 8 regions, one empty data */
    b[n++] = 0, b[n++] = 1, b[n++] = 0, b[n++] = 0, b[n++] = 0, b[n++] = 8; /* format, regions@8 */
    b[n++] = 0, b[n++] = 0;                                                 /* dataCount 0 */
    b[n++] = 0, b[n++] = 2, b[n++] = 0, b[n++] = 8;                         /* 2 axes, 8 regions */
    int pts[8 * 2 * 3];
    for (int r = 0; r < 8 * 2; r++) {
      int v[3];
      for (int k = 0; k < 3; k++) v[k] = (int)(h_xorshift64star(&st) % 32769) - 16384;
      if ((it + r) % 4) { /* mostly ordered, as fonts have them */
        for (int i = 0; i < 3; i++)
          for (int j = i + 1; j < 3; j++)
            if (v[j] < v[i]) {
              int t = v[i];
              v[i] = v[j];
              v[j] = t;
            }
      }
      for (int k = 0; k < 3; k++) {
        pts[r * 3 + k] = v[k];
        b[n++] = (uint8_t)((unsigned)v[k] >> 8), b[n++] = (uint8_t)v[k];
      }
    }
    otv_ivs ivs;
    otv_alloc al;
    otv_alloc_init(&al, NULL);
    if (otv_ivs_parse(&al, (otv_span){b, n}, 0, 0, 2, &ivs, NULL)) {
      CHECK(0);
      continue;
    }
    for (int k = 0; k < 16; k++) {
      otv_f2dot14 c2[2];
      for (int a = 0; a < 2; a++)
        c2[a] = (otv_f2dot14)(k < 8 ? pts[(k * 2 + a) * 3 + 1]
                                    : (int)(h_xorshift64star(&st) % 32769) - 16384);
      int32_t c16[2] = {c2[0] * 4, c2[1] * 4};
      float s2[8], s16[8];
      otv_ivs_region_scalars_f2(&ivs, c2, 2, s2);
      otv_ivs_region_scalars(&ivs, c16, 2, s16);
      compared += 8;
      differ += memcmp(s2, s16, sizeof s2) != 0;
    }
    otv_ivs_free(&al, &ivs);
  }
  CHECK(compared > 100000);
  CHECK_EQ(differ, 0);
}

int main(void)
{
  test_axis_scalar();
  test_region_scalars_16_16();
  test_store();
  test_store_errors();
  test_dsim();
  return h_done("test_ivs");
}

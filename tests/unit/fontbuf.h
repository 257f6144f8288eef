/*
 * fontbuf.h - a growing byte buffer and an sfnt wrapper for the unit tests that build hostile
 * fonts in memory (test_limits, test_work_budget, test_cff1_limits): big-endian writers, the
 * tables they share (head, hhea, hmtx, maxp, name, fvar; gvar's header and tuples; a CFF2 table
 * and its INDEX, DICT and charstring numbers), and an sfnt from tables given in tag order
 * (checksums 0: otvar does not check them). Allocation failure exits 2 (the test cannot go on).
 */
#ifndef OTV_TEST_FONTBUF_H
#define OTV_TEST_FONTBUF_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct bb {
  uint8_t *p;
  size_t n, cap;
} bb;

static inline void bb_need(bb *b, size_t k)
{
  if (b->n + k <= b->cap) return;
  size_t c = b->cap ? b->cap : 4096;
  while (c < b->n + k) c *= 2;
  b->p = realloc(b->p, c);
  if (!b->p) exit(2);
  b->cap = c;
}
static inline void put8(bb *b, unsigned v)
{
  bb_need(b, 1);
  b->p[b->n++] = (uint8_t)v;
}
static inline void put16(bb *b, unsigned v)
{
  put8(b, v >> 8);
  put8(b, v);
}
static inline void put32(bb *b, uint32_t v)
{
  put16(b, v >> 16);
  put16(b, v & 0xFFFF);
}
static inline void putb(bb *b, const void *d, size_t k)
{
  if (!k) return;
  bb_need(b, k);
  memcpy(b->p + b->n, d, k);
  b->n += k;
}
static inline void pad4(bb *b)
{
  while (b->n % 4) put8(b, 0);
}
static inline void set32(bb *b, size_t at, uint32_t v)
{
  b->p[at] = (uint8_t)(v >> 24);
  b->p[at + 1] = (uint8_t)(v >> 16);
  b->p[at + 2] = (uint8_t)(v >> 8);
  b->p[at + 3] = (uint8_t)v;
}

typedef struct tbl {
  const char *tag;
  bb d;
} tbl;

/* An sfnt (sfntVersion `version`) from n tables given in tag order; frees their data. */
static inline uint8_t *sfnt(tbl *t, unsigned n, uint32_t version, size_t *len)
{
  bb o = {0};
  put32(&o, version);
  put16(&o, n);
  put16(&o, 16);
  put16(&o, 0);
  put16(&o, 0);
  size_t off = 12 + 16 * (size_t)n;
  for (unsigned i = 0; i < n; i++) {
    putb(&o, t[i].tag, 4);
    put32(&o, 0);
    put32(&o, (uint32_t)off);
    put32(&o, (uint32_t)t[i].d.n);
    off += (t[i].d.n + 3) & ~(size_t)3;
  }
  for (unsigned i = 0; i < n; i++) {
    putb(&o, t[i].d.p, t[i].d.n);
    pad4(&o);
    free(t[i].d.p);
  }
  *len = o.n;
  return o.p;
}

/* head: version 1.0, unitsPerEm 1000, box 0,0 1000,1000, indexToLocFormat 1 (long). */
static inline void head_tbl(bb *b)
{
  put32(b, 0x00010000);
  put32(b, 0x00010000);
  put32(b, 0);
  put32(b, 0x5F0F3CF5);
  put16(b, 0);
  put16(b, 1000); /* unitsPerEm */
  for (int i = 0; i < 16; i++) put8(b, 0);
  put16(b, 0);
  put16(b, 0);
  put16(b, 1000);
  put16(b, 1000);
  put16(b, 0);
  put16(b, 8);
  put16(b, 2);
  put16(b, 1); /* indexToLocFormat: long */
  put16(b, 0);
}

/* hhea: ascender 800, descender -200, advanceWidthMax 1000, nhm long metrics. */
static inline void hhea_tbl(bb *b, unsigned nhm)
{
  put32(b, 0x00010000);
  put16(b, 800);
  put16(b, (uint16_t)-200);
  put16(b, 0);
  put16(b, 1000);
  for (int i = 0; i < 22; i++) put8(b, 0);
  put16(b, nhm); /* numberOfHMetrics */
}

/* fvar: one axis, wght 100..400..900, no named instance. */
static inline void fvar_tbl(bb *b)
{
  put16(b, 1);
  put16(b, 0);
  put16(b, 16);
  put16(b, 2);
  put16(b, 1);
  put16(b, 20);
  put16(b, 0);
  put16(b, 8);
  putb(b, "wght", 4);
  put32(b, 100u << 16);
  put32(b, 400u << 16);
  put32(b, 900u << 16);
  put16(b, 0);
  put16(b, 256);
}

/* hmtx for numberOfHMetrics 1: glyph 0's advance, then every left side bearing 0. */
static inline void hmtx_tbl(bb *b, unsigned advance, unsigned glyphs)
{
  put16(b, advance);
  put16(b, 0);
  for (unsigned g = 1; g < glyphs; g++) put16(b, 0);
}

/* maxp 1.0 (TrueType), all zero but maxComponentDepth 16. */
static inline void maxp_tbl(bb *b, unsigned glyphs)
{
  put32(b, 0x00010000);
  put16(b, glyphs);
  for (int i = 0; i < 13; i++) put16(b, i == 12 ? 16 : 0);
}

/* maxp 0.5 (CFF and CFF2). */
static inline void maxp_cff_tbl(bb *b, unsigned glyphs)
{
  put32(b, 0x00005000);
  put16(b, glyphs);
}

/* name: format 0, no records. */
static inline void name_tbl(bb *b)
{
  put16(b, 0);
  put16(b, 0);
  put16(b, 6);
}

/* A simple glyph of one contour of `points` on-curve points, up to its coordinates (the caller
 * writes them: short positive x deltas, then y deltas): box 0,0 xmax,ymax, no instructions, and
 * the flags, one byte repeated (REPEAT_FLAG) for up to 256 points at a time. */
static inline void simple_glyph_start(bb *glyf, unsigned points, unsigned xmax, unsigned ymax)
{
  put16(glyf, 1);
  put16(glyf, 0);
  put16(glyf, 0);
  put16(glyf, xmax);
  put16(glyf, ymax);
  put16(glyf, points - 1);
  put16(glyf, 0); /* no instructions */
  for (unsigned left = points; left;) {
    unsigned k = left > 256 ? 256 : left;
    put8(glyf, 0x01 | 0x02 | 0x04 | 0x10 | 0x20 | (k > 1 ? 0x08 : 0));
    if (k > 1) put8(glyf, k - 1);
    left -= k;
  }
}

/* gvar header (one axis, no shared tuples, long offsets) and its glyphs + 1 offsets, all 0:
 * *offs_at is where they are; returns the start of the glyph variation data. */
static inline size_t gvar_begin(bb *gvar, unsigned glyphs, size_t *offs_at)
{
  put16(gvar, 1);
  put16(gvar, 0);
  put16(gvar, 1);
  put16(gvar, 0);
  put32(gvar, 0);
  put16(gvar, glyphs);
  put16(gvar, 1); /* long offsets */
  size_t data_off_at = gvar->n;
  put32(gvar, 0);
  *offs_at = gvar->n;
  for (unsigned g = 0; g <= glyphs; g++) put32(gvar, 0);
  size_t data0 = gvar->n;
  set32(gvar, data_off_at, (uint32_t)data0);
  return data0;
}

/* A tuple's serialized data for every point of a glyph of `points` points and its 4 phantom
 * points: private point numbers "all", then the x and the y deltas in runs of at most 64 bytes,
 * delta i of a run cycle[i % cycle_len]. */
static inline bb gvar_tuple_all_points(unsigned points, const uint8_t *cycle, unsigned cycle_len)
{
  bb one = {0};
  put8(&one, 0); /* private point numbers: all */
  for (int xy = 0; xy < 2; xy++)
    for (unsigned left = points + 4; left;) {
      unsigned k = left > 64 ? 64 : left;
      put8(&one, k - 1); /* k byte deltas */
      for (unsigned i = 0; i < k; i++) put8(&one, cycle[i % cycle_len]);
      left -= k;
    }
  return one;
}

/* One glyph's variation data: `count` tuples of serialized data `one`, with embedded peaks
 * spread over (0, 1] in sixteenths and private point numbers; padded to an even length. */
static inline void gvar_tuples(bb *gvar, const bb *one, unsigned count)
{
  put16(gvar, count);
  put16(gvar, 4 + count * 6);
  for (unsigned tpl = 0; tpl < count; tpl++) {
    put16(gvar, (unsigned)one->n);
    put16(gvar, 0x8000 | 0x2000);              /* EMBEDDED_PEAK_TUPLE | PRIVATE_POINT_NUMBERS */
    put16(gvar, 16384u * (tpl % 16 + 1) / 16); /* peak */
  }
  for (unsigned tpl = 0; tpl < count; tpl++) putb(gvar, one->p, one->n);
  if (gvar->n % 2) put8(gvar, 0);
}

/* ---- CFF2 ---- */

/* A charstring number: one byte for -107..107, else 28 and an int16. */
static inline void cs_num(bb *b, int v)
{
  if (v >= -107 && v <= 107)
    put8(b, (unsigned)(v + 139));
  else {
    put8(b, 28);
    put16(b, (uint16_t)v);
  }
}

/* A CFF2 INDEX (32-bit count) of n items, with the smallest offSize. */
static inline void index2(bb *b, bb *items, unsigned n)
{
  size_t total = 1;
  for (unsigned i = 0; i < n; i++) total += items[i].n;
  unsigned osz = total < 0x100 ? 1 : total < 0x10000 ? 2 : total < 0x1000000 ? 3 : 4;
  put32(b, n);
  put8(b, osz);
  size_t o = 1;
  for (unsigned i = 0; i <= n; i++) {
    for (int k = (int)osz - 1; k >= 0; k--) put8(b, (unsigned)(o >> (8 * k)));
    if (i < n) o += items[i].n;
  }
  for (unsigned i = 0; i < n; i++) putb(b, items[i].p, items[i].n);
}

/* A DICT integer in its 5-byte form (29, int32), so that offsets can be computed ahead. */
static inline void dict_int(bb *b, int32_t v)
{
  put8(b, 29);
  put32(b, (uint32_t)v);
}

/* A CFF2 table: header | Top DICT (CharStrings, FDArray, and vstore when vstore is not NULL) |
 * the Global Subr INDEX gsubrs | the CharStrings INDEX charstrings | an FDArray of one Font DICT
 * | vstore (the VariationStore: its length, then the ItemVariationStore). The Font DICT's
 * Private DICT is empty, at the end of the table. */
static inline bb cff2_tbl(const bb *gsubrs, const bb *charstrings, const bb *vstore)
{
  size_t top_len = 6 + 7 + (vstore ? 6 : 0), off_cs = 5 + top_len + gsubrs->n;
  size_t off_fda = off_cs + charstrings->n, fda_len = 4 + 1 + 2 + 11;
  size_t off_vs = off_fda + fda_len, vs_len = vstore ? vstore->n : 0;
  bb fd = {0};
  dict_int(&fd, 0);
  dict_int(&fd, (int32_t)(off_vs + vs_len));
  put8(&fd, 18);
  bb fda = {0};
  index2(&fda, &fd, 1);
  if (fda.n != fda_len) exit(3);
  bb cff = {0};
  put8(&cff, 2);
  put8(&cff, 0);
  put8(&cff, 5);
  put16(&cff, (unsigned)top_len);
  dict_int(&cff, (int32_t)off_cs);
  put8(&cff, 17);
  dict_int(&cff, (int32_t)off_fda);
  put8(&cff, 12);
  put8(&cff, 36);
  if (vstore) {
    dict_int(&cff, (int32_t)off_vs);
    put8(&cff, 24);
  }
  putb(&cff, gsubrs->p, gsubrs->n);
  putb(&cff, charstrings->p, charstrings->n);
  putb(&cff, fda.p, fda.n);
  if (vstore) putb(&cff, vstore->p, vstore->n);
  free(fd.p);
  free(fda.p);
  return cff;
}

#endif /* OTV_TEST_FONTBUF_H */

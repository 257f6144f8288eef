/*
 * fontbuf.h - a growing byte buffer and an sfnt wrapper for the unit tests that build hostile
 * fonts in memory (test_limits, test_work_budget, test_cff1_limits): big-endian writers, the
 * head, hhea and fvar they share, and an sfnt from tables given in tag order (checksums 0:
 * otvar does not check them). Allocation failure exits 2 (the test cannot go on).
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

#endif /* OTV_TEST_FONTBUF_H */

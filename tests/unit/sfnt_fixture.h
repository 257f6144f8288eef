/*
 * sfnt_fixture.h - building small fonts in memory for the unit tests of the table parsers:
 * a big-endian byte builder (bb) and build_font(), which wraps the given tables, plus a minimal
 * head and maxp, into an sfnt with a table directory.
 */
#ifndef OTV_SFNT_FIXTURE_H
#define OTV_SFNT_FIXTURE_H

#include <math.h>
#include <stdint.h>
#include <string.h>

typedef struct bb {
  uint8_t b[4096];
  size_t n;
} bb;
static void b16(bb *b, unsigned v)
{
  b->b[b->n++] = (uint8_t)(v >> 8);
  b->b[b->n++] = (uint8_t)v;
}
static void b32(bb *b, uint32_t v)
{
  b16(b, v >> 16);
  b16(b, v & 0xFFFF);
}
static void bfix(bb *b, double v) { b32(b, (uint32_t)(int32_t)lround(v * 65536.0)); }

typedef struct tbl {
  uint32_t tag;
  const uint8_t *p;
  size_t len;
} tbl;

/* Tables are laid out in the order given (tags must be sorted for the directory). */
static size_t build_font(uint8_t *out, size_t cap, const tbl *extra, int n_extra)
{
  static uint8_t head[54], maxp[6];
  memset(head, 0, sizeof head);
  head[0] = 0, head[1] = 1;
  head[12] = 0x5F, head[13] = 0x0F, head[14] = 0x3C, head[15] = 0xF5;
  head[18] = 1000 >> 8, head[19] = 1000 & 0xFF;
  memset(maxp, 0, sizeof maxp);
  maxp[1] = 0x00, maxp[2] = 0x50, maxp[5] = 1;
  tbl all[16];
  int n = 0;
  for (int i = 0; i < n_extra; i++) all[n++] = extra[i];
  all[n++] = (tbl){OTV_T_HEAD, head, sizeof head};
  all[n++] = (tbl){OTV_T_MAXP, maxp, sizeof maxp};
  size_t at = 12 + 16 * (size_t)n;
  memset(out, 0, cap);
  out[1] = 1;
  out[5] = (uint8_t)n;
  for (int i = 0; i < n; i++) {
    uint8_t *r = out + 12 + 16 * i;
    for (int k = 0; k < 4; k++) r[k] = (uint8_t)(all[i].tag >> (24 - 8 * k));
    r[8] = (uint8_t)(at >> 24), r[9] = (uint8_t)(at >> 16), r[10] = (uint8_t)(at >> 8),
    r[11] = (uint8_t)at;
    r[12] = (uint8_t)(all[i].len >> 24), r[13] = (uint8_t)(all[i].len >> 16);
    r[14] = (uint8_t)(all[i].len >> 8), r[15] = (uint8_t)all[i].len;
    if (at + all[i].len > cap) return 0;
    memcpy(out + at, all[i].p, all[i].len);
    at += (all[i].len + 3) & ~(size_t)3;
  }
  return at;
}

#endif

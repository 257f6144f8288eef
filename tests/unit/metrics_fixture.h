/*
 * metrics_fixture.h - hand-built fonts for the metrics unit tests (test_hvar.c, test_mvar.c,
 * test_metrics.c): a byte writer and an sfnt assembler. Each table is written field by field
 * with the spec's field names in comments at the call sites.
 */
#ifndef OTV_METRICS_FIXTURE_H
#define OTV_METRICS_FIXTURE_H

#include <stdint.h>
#include <string.h>

typedef struct fx_buf {
  uint8_t b[4096];
  size_t n;
} fx_buf;

static inline void fx8(fx_buf *w, unsigned v) { w->b[w->n++] = (uint8_t)v; }
static inline void fx16(fx_buf *w, unsigned v)
{
  fx8(w, (v >> 8) & 0xFF);
  fx8(w, v & 0xFF);
}
static inline void fx32(fx_buf *w, uint32_t v)
{
  fx16(w, v >> 16);
  fx16(w, v & 0xFFFF);
}
static inline void fxn(fx_buf *w, unsigned v, unsigned bytes)
{
  for (unsigned i = bytes; i-- > 0;) fx8(w, (v >> (8 * i)) & 0xFF);
}
/* Overwrite a u16/u32 already written at `at`. */
static inline void fx16_at(fx_buf *w, size_t at, unsigned v)
{
  w->b[at] = (uint8_t)(v >> 8);
  w->b[at + 1] = (uint8_t)v;
}
static inline void fx32_at(fx_buf *w, size_t at, uint32_t v)
{
  fx16_at(w, at, v >> 16);
  fx16_at(w, at + 2, v & 0xFFFF);
}

typedef struct fx_table {
  uint32_t tag;
  const uint8_t *p;
  size_t len;
} fx_table;

/* Assemble an sfnt ('true' flavour 0x00010000) from tables; returns its length. Table data is
 * 4-byte aligned; out must have room. */
static inline size_t fx_sfnt(const fx_table *t, unsigned n, uint8_t *out, size_t cap)
{
  size_t at = 12 + 16 * (size_t)n;
  memset(out, 0, cap);
  out[0] = 0;
  out[1] = 1;
  out[2] = 0;
  out[3] = 0;
  out[4] = (uint8_t)(n >> 8);
  out[5] = (uint8_t)n;
  for (unsigned i = 0; i < n; i++) {
    uint8_t *r = out + 12 + 16 * (size_t)i;
    uint32_t vals[4] = {t[i].tag, 0, (uint32_t)at, (uint32_t)t[i].len};
    for (int k = 0; k < 4; k++) {
      r[4 * k] = (uint8_t)(vals[k] >> 24);
      r[4 * k + 1] = (uint8_t)(vals[k] >> 16);
      r[4 * k + 2] = (uint8_t)(vals[k] >> 8);
      r[4 * k + 3] = (uint8_t)vals[k];
    }
    if (at + t[i].len > cap) return 0;
    memcpy(out + at, t[i].p, t[i].len);
    at += (t[i].len + 3) & ~(size_t)3;
  }
  return at;
}

/* head (54 bytes): magicNumber at 12, unitsPerEm 1000 at 18. */
static inline void fx_head(fx_buf *w)
{
  w->n = 0;
  fx32(w, 0x00010000);
  for (int i = 0; i < 2; i++) fx32(w, 0);
  fx32(w, 0x5F0F3CF5);
  fx16(w, 0);    /* flags */
  fx16(w, 1000); /* unitsPerEm */
  while (w->n < 54) fx8(w, 0);
}

/* maxp version 0.5 with numGlyphs. */
static inline void fx_maxp(fx_buf *w, unsigned glyphs)
{
  w->n = 0;
  fx32(w, 0x00005000);
  fx16(w, glyphs);
}

/* fvar with one axis 'wght' 100..400..900 and no instances. */
static inline void fx_fvar(fx_buf *w)
{
  w->n = 0;
  fx16(w, 1);
  fx16(w, 0);          /* version 1.0 */
  fx16(w, 16);         /* axesArrayOffset */
  fx16(w, 2);          /* reserved */
  fx16(w, 1);          /* axisCount */
  fx16(w, 20);         /* axisSize */
  fx16(w, 0);          /* instanceCount */
  fx16(w, 8);          /* instanceSize */
  fx32(w, 0x77676874); /* 'wght' */
  fx32(w, 100u << 16); /* minValue */
  fx32(w, 400u << 16); /* defaultValue */
  fx32(w, 900u << 16); /* maxValue */
  fx16(w, 0);          /* flags */
  fx16(w, 256);        /* axisNameID */
}

/* hhea/vhea (36 bytes) with ascender, descender, lineGap, caret fields and the long metrics
 * count at 34. */
static inline void fx_hea(fx_buf *w, int asc, int desc, int gap, int rise, int run, int off,
                          unsigned long_count)
{
  w->n = 0;
  fx16(w, 1);
  fx16(w, 0);                       /* version 1.0 */
  fx16(w, (unsigned)asc & 0xFFFF);  /* ascender */
  fx16(w, (unsigned)desc & 0xFFFF); /* descender */
  fx16(w, (unsigned)gap & 0xFFFF);  /* lineGap */
  fx16(w, 0);
  fx16(w, 0);
  fx16(w, 0);
  fx16(w, 0);                             /* advanceMax, minLSB, minRSB, xMaxExtent */
  fx16(w, (unsigned)rise & 0xFFFF);       /* caretSlopeRise */
  fx16(w, (unsigned)run & 0xFFFF);        /* caretSlopeRun */
  fx16(w, (unsigned)off & 0xFFFF);        /* caretOffset */
  for (int i = 0; i < 4; i++) fx16(w, 0); /* reserved */
  fx16(w, 0);                             /* metricDataFormat */
  fx16(w, long_count);                    /* numberOfHMetrics */
}

/* An ItemVariationStore for one axis with one region (peak +1: start 0, peak 1, end 1) and
 * `data_count` ItemVariationData of byte deltas (wordDeltaCount 0), data[k] has counts[k] items
 * with deltas vals[k][i]. Written at the current position; offsets are relative to its start. */
static inline void fx_ivs(fx_buf *w, unsigned data_count, const unsigned *counts,
                          const int vals[][8])
{
  size_t base = w->n;
  fx16(w, 1); /* format */
  size_t rl_at = w->n;
  fx32(w, 0);          /* variationRegionListOffset (patched) */
  fx16(w, data_count); /* itemVariationDataCount */
  size_t offs_at = w->n;
  for (unsigned k = 0; k < data_count; k++) fx32(w, 0);
  fx32_at(w, rl_at, (uint32_t)(w->n - base));
  fx16(w, 1); /* axisCount */
  fx16(w, 1); /* regionCount */
  fx16(w, 0);
  fx16(w, 0x4000);
  fx16(w, 0x4000); /* start, peak, end */
  for (unsigned k = 0; k < data_count; k++) {
    fx32_at(w, offs_at + 4 * k, (uint32_t)(w->n - base));
    fx16(w, counts[k]); /* itemCount */
    fx16(w, 0);         /* wordDeltaCount */
    fx16(w, 1);         /* regionIndexCount */
    fx16(w, 0);         /* regionIndexes[0] */
    for (unsigned i = 0; i < counts[k]; i++) fx8(w, (unsigned)vals[k][i] & 0xFF);
  }
}

#endif

/*
 * glyf_fixture.h - builds small TrueType variable fonts in memory for the glyf/gvar/cmap unit
 * tests: head, hhea, hmtx, maxp, loca (long), glyf, and optionally fvar (one axis 'wght'
 * 100..400..900), gvar and cmap, from hand-written table bytes.
 */
#ifndef OTV_GLYF_FIXTURE_H
#define OTV_GLYF_FIXTURE_H

#include <stdint.h>
#include <string.h>

typedef struct fx_buf {
  uint8_t d[1 << 16];
  size_t n;
} fx_buf;

static inline void fx_u8(fx_buf *b, unsigned v) { b->d[b->n++] = (uint8_t)v; }
static inline void fx_u16(fx_buf *b, unsigned v)
{
  fx_u8(b, v >> 8 & 0xFF);
  fx_u8(b, v & 0xFF);
}
static inline void fx_i16(fx_buf *b, int v) { fx_u16(b, (unsigned)(uint16_t)(int16_t)v); }
static inline void fx_u32(fx_buf *b, uint32_t v)
{
  fx_u16(b, v >> 16);
  fx_u16(b, v & 0xFFFF);
}
static inline void fx_bytes(fx_buf *b, const void *p, size_t n)
{
  memcpy(b->d + b->n, p, n);
  b->n += n;
}
static inline void fx_pad4(fx_buf *b)
{
  while (b->n & 3) fx_u8(b, 0);
}

#define FX_MAX_GLYPHS 64

typedef struct fx_font {
  /* inputs */
  unsigned glyph_count;
  fx_buf *glyph[FX_MAX_GLYPHS];    /* glyf data per glyph (NULL: empty glyph) */
  uint16_t advance[FX_MAX_GLYPHS]; /* hmtx */
  int16_t lsb[FX_MAX_GLYPHS];
  int variable;                      /* add fvar (wght 100..400..900) */
  fx_buf *gvar_glyph[FX_MAX_GLYPHS]; /* GlyphVariationData per glyph (NULL: none) */
  const int16_t *shared_tuples;      /* shared_count x 1 axis */
  unsigned shared_count;
  fx_buf *cmap;       /* whole cmap table (NULL: none) */
  unsigned gvar_tail; /* zero bytes after the last GlyphVariationData */
  /* output */
  fx_buf out;
  size_t gvar_off, gvar_len, glyf_off, glyf_len; /* where those tables landed in out */
} fx_font;

static inline void fx_build(fx_font *f)
{
  static fx_buf t[10];
  uint32_t tags[10];
  int nt = 0;
  /* sorted by tag: cmap fvar glyf gvar head hhea hmtx loca maxp */
  if (f->cmap) {
    tags[nt] = 0x636d6170u;
    t[nt] = *f->cmap;
    nt++;
  }
  if (f->variable) {
    fx_buf *b = &t[nt];
    b->n = 0;
    tags[nt++] = 0x66766172u; /* fvar */
    fx_u16(b, 1), fx_u16(b, 0), fx_u16(b, 16), fx_u16(b, 2), fx_u16(b, 1), fx_u16(b, 20);
    fx_u16(b, 0), fx_u16(b, 8);
    fx_u32(b, 0x77676874u), fx_u32(b, 100u << 16), fx_u32(b, 400u << 16), fx_u32(b, 900u << 16);
    fx_u16(b, 0), fx_u16(b, 256);
  }
  fx_buf *glyf = &t[nt];
  glyf->n = 0;
  tags[nt++] = 0x676c7966u;
  uint32_t loca[FX_MAX_GLYPHS + 1];
  for (unsigned g = 0; g < f->glyph_count; g++) {
    loca[g] = (uint32_t)glyf->n;
    if (f->glyph[g]) fx_bytes(glyf, f->glyph[g]->d, f->glyph[g]->n);
  }
  loca[f->glyph_count] = (uint32_t)glyf->n;
  int gvar_index = -1;
  if (f->variable) {
    fx_buf *b = &t[nt];
    b->n = 0;
    gvar_index = nt;
    tags[nt++] = 0x67766172u; /* gvar */
    size_t shared_off = 20 + 4 * (f->glyph_count + 1);
    size_t data_off = shared_off + 2 * f->shared_count;
    fx_u16(b, 1), fx_u16(b, 0), fx_u16(b, 1), fx_u16(b, f->shared_count);
    fx_u32(b, (uint32_t)shared_off), fx_u16(b, f->glyph_count), fx_u16(b, 1);
    fx_u32(b, (uint32_t)data_off);
    uint32_t o = 0;
    for (unsigned g = 0; g <= f->glyph_count; g++) {
      fx_u32(b, o);
      if (g < f->glyph_count && f->gvar_glyph[g]) o += (uint32_t)f->gvar_glyph[g]->n;
    }
    for (unsigned i = 0; i < f->shared_count; i++) fx_i16(b, f->shared_tuples[i]);
    for (unsigned g = 0; g < f->glyph_count; g++)
      if (f->gvar_glyph[g]) fx_bytes(b, f->gvar_glyph[g]->d, f->gvar_glyph[g]->n);
    for (unsigned i = 0; i < f->gvar_tail; i++) fx_u8(b, 0);
  }
  {
    fx_buf *b = &t[nt];
    b->n = 0;
    tags[nt++] = 0x68656164u; /* head */
    fx_u32(b, 0x00010000u), fx_u32(b, 0), fx_u32(b, 0), fx_u32(b, 0x5F0F3CF5u);
    fx_u16(b, 0), fx_u16(b, 1000);
    for (int i = 0; i < 16; i++) fx_u8(b, 0);
    fx_i16(b, 0), fx_i16(b, 0), fx_i16(b, 0), fx_i16(b, 0);
    fx_u16(b, 0), fx_u16(b, 8), fx_i16(b, 2), fx_i16(b, 1 /* long loca */), fx_i16(b, 0);
  }
  {
    fx_buf *b = &t[nt];
    b->n = 0;
    tags[nt++] = 0x68686561u; /* hhea */
    fx_u32(b, 0x00010000u), fx_i16(b, 800), fx_i16(b, -200), fx_i16(b, 0);
    for (int i = 0; i < 24; i++) fx_u8(b, 0);
    fx_u16(b, f->glyph_count);
  }
  {
    fx_buf *b = &t[nt];
    b->n = 0;
    tags[nt++] = 0x686d7478u; /* hmtx */
    for (unsigned g = 0; g < f->glyph_count; g++) fx_u16(b, f->advance[g]), fx_i16(b, f->lsb[g]);
  }
  {
    fx_buf *b = &t[nt];
    b->n = 0;
    tags[nt++] = 0x6c6f6361u; /* loca */
    for (unsigned g = 0; g <= f->glyph_count; g++) fx_u32(b, loca[g]);
  }
  {
    fx_buf *b = &t[nt];
    b->n = 0;
    tags[nt++] = 0x6d617870u; /* maxp */
    fx_u32(b, 0x00005000u), fx_u16(b, f->glyph_count);
  }
  fx_buf *o = &f->out;
  o->n = 0;
  fx_u32(o, 0x00010000u), fx_u16(o, (unsigned)nt), fx_u16(o, 0), fx_u16(o, 0), fx_u16(o, 0);
  size_t off = 12 + 16 * (size_t)nt;
  for (int i = 0; i < nt; i++) {
    fx_u32(o, tags[i]), fx_u32(o, 0), fx_u32(o, (uint32_t)off), fx_u32(o, (uint32_t)t[i].n);
    if (i == gvar_index) f->gvar_off = off, f->gvar_len = t[i].n;
    if (tags[i] == 0x676c7966u) f->glyf_off = off, f->glyf_len = t[i].n;
    off += (t[i].n + 3) & ~(size_t)3;
  }
  for (int i = 0; i < nt; i++) {
    fx_bytes(o, t[i].d, t[i].n);
    fx_pad4(o);
  }
}

/* Set the length field of table `tag` in the built font's directory. */
static inline void fx_set_table_len(fx_font *f, uint32_t tag, uint32_t len)
{
  unsigned nt = (unsigned)f->out.d[4] << 8 | f->out.d[5];
  for (unsigned i = 0; i < nt; i++) {
    uint8_t *r = f->out.d + 12 + 16 * i;
    uint32_t t = (uint32_t)r[0] << 24 | (uint32_t)r[1] << 16 | (uint32_t)r[2] << 8 | r[3];
    if (t == tag) {
      r[12] = (uint8_t)(len >> 24), r[13] = (uint8_t)(len >> 16);
      r[14] = (uint8_t)(len >> 8), r[15] = (uint8_t)len;
    }
  }
}

#endif

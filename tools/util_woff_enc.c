/*
 * util_woff_enc.c - WOFF 1.0 and WOFF 2.0 encoding of a single sfnt, for the CLI (`otvar compress`
 * and `otvar instance -o X.woff2`).
 *
 * WOFF 2.0 output applies the glyf/loca transform (section 5.1 of the W3C Recommendation): glyphs
 * split into seven streams, points as triplets, bounding boxes stored only where they differ from
 * the points', loca dropped; OVERLAP_SIMPLE is kept in the overlap bitmap of the 2022 correction.
 * Every other table is stored as is (DSIG is dropped: a signature no longer holds once the font
 * is re-encoded). One Brotli stream (quality 11, font mode) holds the table data.
 *
 * The input is read with the bounds-checked reader of src/reader.h: a font the encoder cannot
 * parse (bad directory, glyph data past its table) is an error naming the table and glyph.
 */
#include "woff.h"

#include "core/reader.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(OTV_HAVE_ZLIB)
#include <zlib.h>
#endif
#if defined(OTV_HAVE_BROTLI_ENC)
#include <brotli/encode.h>
#endif

#define TAG4(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))

typedef struct enc_ctx {
  char *err;
  size_t err_len;
} enc_ctx;

static int efail(enc_ctx *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static int efail(enc_ctx *c, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  if (c->err_len) vsnprintf(c->err, c->err_len, fmt, ap);
  va_end(ap);
  return -1;
}

/* A growable byte buffer. */
typedef struct wbuf {
  uint8_t *p;
  size_t len, cap;
  bool oom;
} wbuf;

static void wb_bytes(wbuf *b, const void *src, size_t n)
{
  if (b->oom || !n) return;
  if (n > b->cap - b->len) {
    size_t cap = b->cap ? b->cap : 1024;
    while (cap - b->len < n) {
      if (cap > WOFF_MAX_SFNT) {
        b->oom = true;
        return;
      }
      cap *= 2;
    }
    uint8_t *p = realloc(b->p, cap);
    if (!p) {
      b->oom = true;
      return;
    }
    b->p = p;
    b->cap = cap;
  }
  memcpy(b->p + b->len, src, n);
  b->len += n;
}
static void wb_u8(wbuf *b, unsigned v)
{
  uint8_t x = (uint8_t)v;
  wb_bytes(b, &x, 1);
}
static void wb_u16(wbuf *b, unsigned v)
{
  uint8_t x[2] = {(uint8_t)(v >> 8), (uint8_t)v};
  wb_bytes(b, x, 2);
}
static void wb_u32(wbuf *b, uint32_t v)
{
  uint8_t x[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
  wb_bytes(b, x, 4);
}
/* 255UInt16: one byte below 253, then the two one-byte escapes, then a word. */
static void wb_255u16(wbuf *b, unsigned v)
{
  if (v < 253) wb_u8(b, v);
  else if (v < 506) wb_u8(b, 255), wb_u8(b, v - 253);
  else if (v < 762) wb_u8(b, 254), wb_u8(b, v - 506);
  else wb_u8(b, 253), wb_u16(b, v);
}
/* UIntBase128: 7 bits per byte, most significant first, no leading zero bytes. */
static void wb_base128(wbuf *b, uint32_t v)
{
  uint8_t x[5];
  int n = 0;
  do {
    x[4 - n] = (uint8_t)(v & 0x7F) | (n ? 0x80 : 0);
    v >>= 7;
    n++;
  } while (v);
  wb_bytes(b, x + 5 - n, (size_t)n);
}

/* ---- the input font ---- */

typedef struct in_table {
  uint32_t tag;
  otv_span data;
} in_table;

typedef struct in_font {
  uint32_t flavor;
  unsigned count;
  in_table t[256];
} in_font;

static int read_sfnt(enc_ctx *c, const uint8_t *p, size_t len, in_font *f)
{
  otv_span s = otv_span_of(p, len);
  otv_rd r = otv_rd_init(s, 0);
  f->flavor = otv_rd_u32(&r);
  unsigned n = otv_rd_u16(&r);
  if (!otv_rd_ok(&r)) return efail(c, "not a font: %zu bytes", len);
  if (f->flavor == TAG4('t', 't', 'c', 'f'))
    return efail(c, "a font collection: compress its fonts one by one");
  if (f->flavor != 0x00010000 && f->flavor != TAG4('O', 'T', 'T', 'O') && f->flavor != TAG4('t', 'r', 'u', 'e'))
    return efail(c, "not a TrueType/OpenType font (sfnt version 0x%08x)", f->flavor);
  if (n == 0 || n > 256) return efail(c, "table directory: %u tables", n);
  f->count = 0;
  for (unsigned i = 0; i < n; i++) {
    otv_rd e = otv_rd_init(s, 12 + 16 * (size_t)i);
    uint32_t tag = otv_rd_u32(&e);
    otv_rd_skip(&e, 4);
    uint32_t off = otv_rd_u32(&e), tlen = otv_rd_u32(&e);
    otv_span d;
    if (!otv_rd_ok(&e) || !otv_span_sub(s, off, tlen, &d))
      return efail(c, "table directory entry %u (offset %zu): table out of the file's %zu bytes", i,
                   12 + 16 * (size_t)i, len);
    if (tag == TAG4('D', 'S', 'I', 'G')) continue; /* dropped: see the file comment */
    f->t[f->count].tag = tag;
    f->t[f->count].data = d;
    f->count++;
  }
  return 0;
}

static int by_tag(const void *a, const void *b)
{
  uint32_t x = ((const in_table *)a)->tag, y = ((const in_table *)b)->tag;
  return x < y ? -1 : x > y;
}

/* Sort the tables by tag; two with one tag are an error (decoders refuse them too). */
static int sort_tables(enc_ctx *c, in_font *f)
{
  qsort(f->t, f->count, sizeof f->t[0], by_tag);
  for (unsigned i = 1; i < f->count; i++)
    if (f->t[i].tag == f->t[i - 1].tag)
      return efail(c, "table directory: two tables with the tag 0x%08x", f->t[i].tag);
  return 0;
}

/* The font's tables, sorted by tag (malloc'd: 5 KiB off the stack, as instances run in
 * threads), or NULL with the error set. */
static in_font *load_font(enc_ctx *c, const uint8_t *sfnt, size_t len)
{
  in_font *f = malloc(sizeof *f);
  if (!f) {
    efail(c, "out of memory");
    return NULL;
  }
  if (read_sfnt(c, sfnt, len, f) || sort_tables(c, f)) {
    free(f);
    return NULL;
  }
  return f;
}

static const in_table *find(const in_font *f, uint32_t tag)
{
  for (unsigned i = 0; i < f->count; i++)
    if (f->t[i].tag == tag) return &f->t[i];
  return NULL;
}

static uint32_t sum32(otv_span d)
{
  uint32_t s = 0;
  size_t i = 0;
  for (; i + 4 <= d.len; i += 4) s += otv_peek_u32(d.p + i);
  if (i < d.len) {
    uint8_t last[4] = {0};
    memcpy(last, d.p + i, d.len - i);
    s += otv_peek_u32(last);
  }
  return s;
}


/* ---- WOFF 1.0 ---- */

int woff1_encode(const uint8_t *sfnt, size_t len, uint8_t **out, size_t *out_len, char *err,
                 size_t err_len)
{
  enc_ctx c = {err, err_len};
  *out = NULL;
#ifndef OTV_HAVE_ZLIB
  (void)sfnt, (void)len, (void)out_len;
  return efail(&c, "this build of otvar has no zlib");
#else
  in_font *f = load_font(&c, sfnt, len);
  if (!f) return -1;
  wbuf hdr = {0}, data = {0};
  size_t dir_end = 44 + 20 * (size_t)f->count, sfnt_size = 12 + 16 * (size_t)f->count;
  uint8_t *z = NULL;
  int rc = -1;
  for (unsigned i = 0; i < f->count; i++) sfnt_size += (f->t[i].data.len + 3) & ~(size_t)3;
  wb_u32(&hdr, TAG4('w', 'O', 'F', 'F'));
  wb_u32(&hdr, f->flavor);
  wb_u32(&hdr, 0); /* length: patched below */
  wb_u16(&hdr, f->count);
  wb_u16(&hdr, 0);
  wb_u32(&hdr, (uint32_t)sfnt_size);
  wb_u16(&hdr, 1), wb_u16(&hdr, 0);                   /* WOFF file version 1.0 */
  for (int k = 0; k < 5; k++) wb_u32(&hdr, 0);         /* no metadata, no private data */
  for (unsigned i = 0; i < f->count; i++) {
    otv_span d = f->t[i].data;
    uLongf zlen = compressBound((uLong)d.len);
    free(z);
    z = malloc(zlen);
    if (!z || compress2(z, &zlen, d.p, (uLong)d.len, 9) != Z_OK) {
      rc = efail(&c, "zlib could not compress a table of %zu bytes", d.len);
      goto done;
    }
    bool packed = zlen < d.len;
    size_t off = dir_end + data.len;
    wb_u32(&hdr, f->t[i].tag);
    wb_u32(&hdr, (uint32_t)off);
    wb_u32(&hdr, (uint32_t)(packed ? zlen : d.len));
    wb_u32(&hdr, (uint32_t)d.len);
    uint32_t cs = sum32(d);
    if (f->t[i].tag == TAG4('h', 'e', 'a', 'd') && d.len >= 12) cs -= otv_peek_u32(d.p + 8);
    wb_u32(&hdr, cs);
    wb_bytes(&data, packed ? z : d.p, packed ? zlen : d.len);
    static const uint8_t zero[3] = {0};
    wb_bytes(&data, zero, (4 - data.len % 4) % 4); /* the last too: OTS checks the file length */
  }
  if (hdr.oom || data.oom) {
    rc = efail(&c, "out of memory");
    goto done;
  }
  wb_bytes(&hdr, data.p, data.len);
  if (hdr.oom) {
    rc = efail(&c, "out of memory");
    goto done;
  }
  hdr.p[8] = (uint8_t)(hdr.len >> 24), hdr.p[9] = (uint8_t)(hdr.len >> 16);
  hdr.p[10] = (uint8_t)(hdr.len >> 8), hdr.p[11] = (uint8_t)hdr.len;
  *out = hdr.p;
  *out_len = hdr.len;
  hdr.p = NULL;
  rc = 0;
done:
  free(f);
  free(z);
  free(hdr.p);
  free(data.p);
  return rc;
#endif
}

/* ---- WOFF 2.0 ---- */

#ifdef OTV_HAVE_BROTLI_ENC


enum { NC, NP, FL, GL, CO, BB, IN, NSTREAMS };

typedef struct glyf_out {
  wbuf s[NSTREAMS];
  uint8_t *bbox_bits, *overlap_bits;
  bool any_overlap;
  int32_t *x, *y;
  uint8_t *on;
  size_t points_cap;
} glyf_out;

/* The triplet of one point (the inverse of the decoder's table): the smallest encoding of the
 * deltas. The flag byte (top bit set: off the curve) goes to the flag stream, the rest to the
 * glyph stream. */
static void put_triplet(glyf_out *o, bool on, int dx, int dy)
{
  unsigned ax = (unsigned)(dx < 0 ? -dx : dx), ay = (unsigned)(dy < 0 ? -dy : dy);
  unsigned on_bit = on ? 0 : 0x80, xs = dx >= 0 ? 1 : 0, ys = dy >= 0 ? 2 : 0; /* 0: "positive" */
  wbuf *g = &o->s[GL];
  if (dx == 0 && ay < 1280) {
    wb_u8(&o->s[FL], on_bit + ((ay >> 8) << 1) + (dy >= 0 ? 1 : 0));
    wb_u8(g, ay & 0xFF);
  } else if (dy == 0 && ax < 1280) {
    wb_u8(&o->s[FL], on_bit + 10 + ((ax >> 8) << 1) + xs);
    wb_u8(g, ax & 0xFF);
  } else if (ax && ay && ax <= 64 && ay <= 64) {
    unsigned bx = ax - 1, by = ay - 1;
    wb_u8(&o->s[FL], on_bit + 20 + (bx & 0x30) + ((by & 0x30) >> 2) + xs + ys);
    wb_u8(g, (bx & 0x0F) << 4 | (by & 0x0F));
  } else if (ax && ay && ax <= 768 && ay <= 768) {
    unsigned bx = ax - 1, by = ay - 1;
    wb_u8(&o->s[FL], on_bit + 84 + 12 * (bx >> 8) + ((by >> 8) << 2) + xs + ys);
    wb_u8(g, bx & 0xFF);
    wb_u8(g, by & 0xFF);
  } else if (ax < 4096 && ay < 4096) {
    wb_u8(&o->s[FL], on_bit + 120 + xs + ys);
    wb_u8(g, ax >> 4);
    wb_u8(g, (ax & 0x0F) << 4 | ay >> 8);
    wb_u8(g, ay & 0xFF);
  } else {
    wb_u8(&o->s[FL], on_bit + 124 + xs + ys);
    wb_u16(g, ax);
    wb_u16(g, ay);
  }
}

static int glyph_fail(enc_ctx *c, unsigned g, const char *what)
{
  return efail(c, "'glyf' glyph %u: %s", g, what);
}

/* One simple glyph (d: its glyf record, numberOfContours nc > 0). */
static int put_simple(enc_ctx *c, glyf_out *o, otv_span d, unsigned g, unsigned nc)
{
  otv_rd r = otv_rd_init(d, 2);
  int bb[4];
  for (int k = 0; k < 4; k++) bb[k] = otv_rd_i16(&r);
  const uint8_t *ends = otv_rd_take(&r, 2 * (size_t)nc);
  unsigned ilen = otv_rd_u16(&r);
  const uint8_t *ins = otv_rd_take(&r, ilen);
  if (!otv_rd_ok(&r)) return glyph_fail(c, g, "header, contour ends or instructions past its data");
  unsigned prev = 0;
  wb_u16(&o->s[NC], nc);
  for (unsigned k = 0; k < nc; k++) {
    unsigned e = otv_peek_u16(ends + 2 * (size_t)k) + 1u; /* in range: ends taken above */
    if (e <= prev && k > 0) return glyph_fail(c, g, "contour ends out of order");
    wb_255u16(&o->s[NP], e - prev);
    prev = e;
  }
  unsigned n = prev;
  if (n > o->points_cap) {
    int32_t *x = realloc(o->x, n * sizeof *x);
    if (x) o->x = x;
    int32_t *y = x ? realloc(o->y, n * sizeof *y) : NULL;
    if (y) o->y = y;
    uint8_t *on = y ? realloc(o->on, n) : NULL;
    if (!on) return efail(c, "out of memory");
    o->on = on;
    o->points_cap = n;
  }
  /* flags, with repeats; then the x and y deltas they describe */
  uint8_t first = 0;
  for (unsigned i = 0; i < n;) {
    unsigned f = otv_rd_u8(&r), rep = (f & 0x08) ? otv_rd_u8(&r) : 0;
    if (!otv_rd_ok(&r)) return glyph_fail(c, g, "flags past its data");
    if (i == 0) first = (uint8_t)f;
    for (unsigned k = 0; k <= rep && i < n; k++) o->on[i++] = (uint8_t)f;
  }
  for (int axis = 0; axis < 2; axis++) {
    unsigned short_bit = axis ? 0x04 : 0x02, same_bit = axis ? 0x20 : 0x10;
    int32_t *v = axis ? o->y : o->x, at = 0;
    for (unsigned i = 0; i < n; i++) {
      unsigned f = o->on[i];
      if (f & short_bit) {
        int b = otv_rd_u8(&r);
        at += (f & same_bit) ? b : -b;
      } else if (!(f & same_bit)) {
        at += otv_rd_i16(&r);
      }
      if (at < -32768 || at > 32767) /* as the decoder: triplets rebuild int16 coordinates */
        return efail(c, "'glyf' glyph %u: point %u has %c = %d, outside the int16 range", g, i,
                     axis ? 'y' : 'x', (int)at);
      v[i] = at;
    }
  }
  if (!otv_rd_ok(&r)) return glyph_fail(c, g, "coordinates past its data");
  int px = 0, py = 0, lo_x = 0, lo_y = 0, hi_x = 0, hi_y = 0;
  for (unsigned i = 0; i < n; i++) {
    put_triplet(o, o->on[i] & 1, o->x[i] - px, o->y[i] - py);
    px = o->x[i], py = o->y[i];
    if (i == 0 || px < lo_x) lo_x = px;
    if (i == 0 || px > hi_x) hi_x = px;
    if (i == 0 || py < lo_y) lo_y = py;
    if (i == 0 || py > hi_y) hi_y = py;
  }
  wb_255u16(&o->s[GL], ilen);
  wb_bytes(&o->s[IN], ins, ilen);
  if (bb[0] != lo_x || bb[1] != lo_y || bb[2] != hi_x || bb[3] != hi_y) { /* kept as given */
    o->bbox_bits[g >> 3] |= (uint8_t)(0x80 >> (g & 7));
    for (int k = 0; k < 4; k++) wb_u16(&o->s[BB], (unsigned)(uint16_t)(int16_t)bb[k]);
  }
  if (first & 0x40) { /* OVERLAP_SIMPLE */
    o->overlap_bits[g >> 3] |= (uint8_t)(0x80 >> (g & 7));
    o->any_overlap = true;
  }
  return 0;
}

static int put_composite(enc_ctx *c, glyf_out *o, otv_span d, unsigned g)
{
  otv_rd r = otv_rd_init(d, 2);
  const uint8_t *bb = otv_rd_take(&r, 8);
  size_t start = r.pos;
  unsigned flags;
  bool instructions = false;
  do { /* bounded: each component takes 6 bytes at least */
    flags = otv_rd_u16(&r);
    size_t n = 2 + ((flags & 0x0001) ? 4 : 2);
    if (flags & 0x0008) n += 2;
    else if (flags & 0x0040) n += 4;
    else if (flags & 0x0080) n += 8;
    otv_rd_skip(&r, n);
    if (!otv_rd_ok(&r)) return glyph_fail(c, g, "components past its data");
    if (flags & 0x0100) instructions = true;
  } while (flags & 0x0020);
  wb_u16(&o->s[NC], 0xFFFF);
  wb_bytes(&o->s[CO], d.p + start, r.pos - start);
  if (instructions) {
    unsigned ilen = otv_rd_u16(&r);
    const uint8_t *ins = otv_rd_take(&r, ilen);
    if (!otv_rd_ok(&r)) return glyph_fail(c, g, "instructions past its data");
    wb_255u16(&o->s[GL], ilen);
    wb_bytes(&o->s[IN], ins, ilen);
  }
  o->bbox_bits[g >> 3] |= (uint8_t)(0x80 >> (g & 7)); /* composites always carry theirs */
  wb_bytes(&o->s[BB], bb, 8);
  return 0;
}

/* The transformed glyf table of the font (into *xf). */
static int transform_glyf(enc_ctx *c, const in_font *f, wbuf *xf, unsigned *glyph_count)
{
  const in_table *glyf = find(f, TAG4('g', 'l', 'y', 'f')), *loca = find(f, TAG4('l', 'o', 'c', 'a'));
  const in_table *head = find(f, TAG4('h', 'e', 'a', 'd')), *maxp = find(f, TAG4('m', 'a', 'x', 'p'));
  if (!loca || !head || !maxp || head->data.len < 54 || maxp->data.len < 6)
    return efail(c, "'glyf' without a complete loca, head and maxp");
  unsigned n = otv_peek_u16(maxp->data.p + 4), fmt = otv_peek_u16(head->data.p + 50) ? 1 : 0;
  *glyph_count = n;
  otv_span offs;
  if (!otv_span_array(loca->data, 0, (size_t)n + 1, fmt ? 4 : 2, &offs))
    return efail(c, "'loca' of %zu bytes for %u glyphs", loca->data.len, n);
  glyf_out o = {0};
  size_t bits = (((size_t)n + 31) >> 5) << 2, obits = ((size_t)n + 7) >> 3;
  o.bbox_bits = calloc(bits ? bits : 1, 1);
  o.overlap_bits = calloc(obits ? obits : 1, 1);
  int rc = -1;
  if (!o.bbox_bits || !o.overlap_bits) {
    rc = efail(c, "out of memory");
    goto done;
  }
  for (unsigned g = 0; g < n; g++) {
    size_t a = fmt ? otv_peek_u32(offs.p + 4 * (size_t)g) : 2 * (size_t)otv_peek_u16(offs.p + 2 * (size_t)g);
    size_t b = fmt ? otv_peek_u32(offs.p + 4 * (size_t)g + 4) : 2 * (size_t)otv_peek_u16(offs.p + 2 * (size_t)g + 2);
    otv_span d;
    if (b < a || !otv_span_sub(glyf->data, a, b - a, &d)) {
      rc = glyph_fail(c, g, "loca offsets out of order or past 'glyf'");
      goto done;
    }
    if (d.len == 0) {
      wb_u16(&o.s[NC], 0);
      continue;
    }
    if (d.len < 10) {
      rc = glyph_fail(c, g, "shorter than its header");
      goto done;
    }
    int nc = otv_peek_i16(d.p);
    if (nc > 0) rc = put_simple(c, &o, d, g, (unsigned)nc);
    else if (nc < 0) rc = put_composite(c, &o, d, g);
    else { /* a header without contours: empty */
      wb_u16(&o.s[NC], 0);
      rc = 0;
    }
    if (rc) goto done;
  }
  wb_u16(xf, 0);
  wb_u16(xf, o.any_overlap ? 1 : 0); /* optionFlags: the overlap bitmap follows */
  wb_u16(xf, n);
  /* indexFormat 1 whatever the source's: decoders pad glyphs as they like (4 bytes is usual), so
   * a short loca could overflow; loca is not stored, so the long one costs nothing here (head's
   * indexToLocFormat is set to match in woff2_encode) */
  wb_u16(xf, 1);
  for (int k = 0; k < NSTREAMS; k++) wb_u32(xf, (uint32_t)(o.s[k].len + (k == BB ? bits : 0)));
  for (int k = 0; k < NSTREAMS; k++) {
    if (k == BB) wb_bytes(xf, o.bbox_bits, bits);
    wb_bytes(xf, o.s[k].p, o.s[k].len);
  }
  if (o.any_overlap) wb_bytes(xf, o.overlap_bits, obits);
  rc = 0;
  for (int k = 0; k < NSTREAMS; k++)
    if (o.s[k].oom) rc = efail(c, "out of memory");
  if (xf->oom) rc = efail(c, "out of memory");
done:
  for (int k = 0; k < NSTREAMS; k++) free(o.s[k].p);
  free(o.bbox_bits);
  free(o.overlap_bits);
  free(o.x);
  free(o.y);
  free(o.on);
  return rc;
}

int woff2_encode(const uint8_t *sfnt, size_t len, uint8_t **out, size_t *out_len, char *err,
                 size_t err_len)
{
  enc_ctx c = {err, err_len};
  *out = NULL;
  in_font *f = load_font(&c, sfnt, len);
  if (!f) return -1;
  const in_table *glyf = find(f, TAG4('g', 'l', 'y', 'f'));
  wbuf xf = {0}, stream = {0}, dir = {0}, file = {0};
  uint8_t *head_copy = NULL, *comp = NULL;
  int rc = -1;
  unsigned glyph_count = 0;
  if (glyf && transform_glyf(&c, f, &xf, &glyph_count)) goto done;
  /* table order: by tag, loca right after glyf (as decoders of collections expect) */
  unsigned order[256], k = 0;
  for (unsigned i = 0; i < f->count; i++) {
    if (f->t[i].tag == TAG4('l', 'o', 'c', 'a') && glyf) continue;
    order[k++] = i;
    if (f->t[i].tag == TAG4('g', 'l', 'y', 'f'))
      for (unsigned j = 0; j < f->count; j++)
        if (f->t[j].tag == TAG4('l', 'o', 'c', 'a')) order[k++] = j;
  }
  size_t sfnt_size = 12 + 16 * (size_t)f->count;
  for (unsigned i = 0; i < k; i++) {
    const in_table *t = &f->t[order[i]];
    bool is_glyf = t->tag == TAG4('g', 'l', 'y', 'f');
    bool is_loca = glyf && t->tag == TAG4('l', 'o', 'c', 'a'); /* transformed with glyf */
    bool plain_loca = !glyf && t->tag == TAG4('l', 'o', 'c', 'a'); /* a loca without glyf */
    unsigned idx = 63;
    for (unsigned q = 0; q < 63; q++)
      if (woff2_known_tags[q] == t->tag) idx = q;
    /* transform version 0: glyf/loca transformed, the others stored; a stored loca is version 3 */
    wb_u8(&dir, idx | (plain_loca ? 0xC0 : 0));
    if (idx == 63) wb_u32(&dir, t->tag);
    /* the decoded loca is long (see transform_glyf): its origLength says so */
    size_t orig = is_loca ? 4 * ((size_t)glyph_count + 1) : t->data.len;
    wb_base128(&dir, (uint32_t)orig);
    if (is_glyf) wb_base128(&dir, (uint32_t)xf.len);
    if (is_loca) wb_base128(&dir, 0);
    sfnt_size += (orig + 3) & ~(size_t)3;
    if (is_glyf) wb_bytes(&stream, xf.p, xf.len);
    else if (is_loca) continue;
    else if (t->tag == TAG4('h', 'e', 'a', 'd') && glyf && t->data.len >= 54) {
      /* head.flags bit 11: the font went through a lossless modifying transform (WOFF2 5.1);
       * indexToLocFormat 1, as the transformed glyf says */
      head_copy = malloc(t->data.len);
      if (!head_copy) {
        rc = efail(&c, "out of memory");
        goto done;
      }
      memcpy(head_copy, t->data.p, t->data.len);
      head_copy[16] |= 0x08;
      head_copy[50] = 0;
      head_copy[51] = 1;
      wb_bytes(&stream, head_copy, t->data.len);
    } else {
      wb_bytes(&stream, t->data.p, t->data.len);
    }
  }
  if (stream.oom || dir.oom) {
    rc = efail(&c, "out of memory");
    goto done;
  }
  /* quality 11 in font mode, as Google's encoder: the same size to within a few hundred bytes
   * (trying the generic mode too wins 0.1-0.3% on some fonts and loses on others, for twice the
   * time) */
  size_t comp_len = BrotliEncoderMaxCompressedSize(stream.len);
  if (!comp_len) comp_len = stream.len + 1024;
  comp = malloc(comp_len);
  if (comp && !BrotliEncoderCompress(BROTLI_MAX_QUALITY, BROTLI_MAX_WINDOW_BITS, BROTLI_MODE_FONT,
                                     stream.len, stream.p, &comp_len, comp))
    comp_len = 0;
  if (!comp || !comp_len) {
    rc = efail(&c, "Brotli could not compress %zu bytes of table data", stream.len);
    goto done;
  }
  /* the compressed block ends on a 4-byte boundary (WOFF2 section 3: decoders check the length) */
  size_t total = 48 + dir.len + comp_len, pad = (4 - total % 4) % 4;
  total += pad;
  wb_u32(&file, TAG4('w', 'O', 'F', '2'));
  wb_u32(&file, f->flavor);
  wb_u32(&file, (uint32_t)total);
  wb_u16(&file, f->count);
  wb_u16(&file, 0);
  wb_u32(&file, (uint32_t)sfnt_size);
  wb_u32(&file, (uint32_t)comp_len);
  wb_u16(&file, 1), wb_u16(&file, 0); /* WOFF file version 1.0 */
  for (int q = 0; q < 5; q++) wb_u32(&file, 0); /* no metadata, no private data */
  wb_bytes(&file, dir.p, dir.len);
  wb_bytes(&file, comp, comp_len);
  static const uint8_t zero[3] = {0};
  wb_bytes(&file, zero, pad);
  if (file.oom) {
    rc = efail(&c, "out of memory");
    goto done;
  }
  *out = file.p;
  *out_len = file.len;
  file.p = NULL;
  rc = 0;
done:
  free(f);
  free(xf.p);
  free(stream.p);
  free(dir.p);
  free(file.p);
  free(head_copy);
  free(comp);
  return rc;
}

#else

int woff2_encode(const uint8_t *sfnt, size_t len, uint8_t **out, size_t *out_len, char *err,
                 size_t err_len)
{
  enc_ctx c = {err, err_len};
  (void)sfnt, (void)len, (void)out_len;
  *out = NULL;
  return efail(&c, "this build of otvar has no Brotli encoder");
}

#endif /* OTV_HAVE_BROTLI_ENC */

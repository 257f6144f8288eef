/*
 * util_woff.c - WOFF 1.0 (zlib) and WOFF 2.0 (Brotli) decoding into an sfnt, for the CLI.
 *
 * WOFF 1.0: each table is stored or zlib-compressed on its own; decoding is inflating each one.
 * WOFF 2.0 (W3C Recommendation, with its 2022 corrections): one Brotli stream holds every table,
 * and three tables may be transformed: glyf/loca (split into seven streams, coordinates as
 * "triplets", loca dropped and rebuilt from the glyph sizes) and hmtx (side bearings dropped
 * where they equal the glyph's xMin). Collections share one directory of tables.
 *
 * Every read goes through the bounds-checked reader of src/reader.h; every size a header
 * announces is checked against the bytes present and against WOFF_MAX_SFNT before anything is
 * allocated for it, and every loop is bounded by a stream's length.
 */
#include "woff.h"

#include "core/reader.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef OTV_HAVE_ZLIB
#include <zlib.h>
#endif
#ifdef OTV_HAVE_BROTLI
#include <brotli/decode.h>
#endif

#define TAG4(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))
#define TAG_WOFF TAG4('w', 'O', 'F', 'F')
#define TAG_WOF2 TAG4('w', 'O', 'F', '2')
#define TAG_TTCF TAG4('t', 't', 'c', 'f')
#define TAG_GLYF TAG4('g', 'l', 'y', 'f')
#define TAG_LOCA TAG4('l', 'o', 'c', 'a')
#define TAG_HMTX TAG4('h', 'm', 't', 'x')
#define TAG_HHEA TAG4('h', 'h', 'e', 'a')
#define TAG_HEAD TAG4('h', 'e', 'a', 'd')

#define WOFF1_HEADER_LEN 44
#define WOFF1_ENTRY_LEN 20
#define WOFF2_HEADER_LEN 48
#define GLYF_XFORM_HEADER_LEN 36
#define MAX_GLYPH_POINTS 65535 /* endPtsOfContours are uint16 */

typedef struct ctx {
  char *err;
  size_t err_len;
} ctx;

typedef struct table {
  uint32_t tag;
  const uint8_t *data; /* the sfnt bytes of the table (into the input, the stream or owned) */
  size_t len;
  uint8_t *owned;      /* inflated or reconstructed bytes, freed at the end */
  /* WOFF2 */
  bool transformed;    /* still in its transformed form (data/len not yet valid) */
  bool xform_in;       /* stored transformed in the file */
  uint32_t orig_len;
  size_t src_off, src_len; /* the stored (maybe transformed) bytes in the decompressed stream */
  int16_t *xmin;       /* glyf: every glyph's xMin (for the hmtx transform) */
  unsigned glyph_count;
  int loca_partner;    /* glyf: the loca rebuilt with it */
  size_t out_off;      /* offset in the output */
} table;

typedef struct font {
  uint32_t flavor;
  unsigned count;
  uint16_t *idx; /* table indices, sorted by tag when written */
} font;

static int fail(ctx *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static int fail(ctx *c, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  if (c->err_len) vsnprintf(c->err, c->err_len, fmt, ap);
  va_end(ap);
  return -1;
}

static void tag_str(uint32_t tag, char s[5])
{
  for (int i = 0; i < 4; i++) {
    unsigned ch = (tag >> (24 - 8 * i)) & 0xFF;
    s[i] = (char)(ch >= 32 && ch < 127 ? ch : '?');
  }
  s[4] = 0;
}

static void put16(uint8_t *p, unsigned v)
{
  p[0] = (uint8_t)(v >> 8);
  p[1] = (uint8_t)v;
}
static void put32(uint8_t *p, uint32_t v)
{
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

bool woff_is_woff(const uint8_t *in, size_t len)
{
  if (len < 4) return false;
  uint32_t sig = otv_peek_u32(in);
  return sig == TAG_WOFF || sig == TAG_WOF2;
}

/* ---- the sfnt writer (shared by both formats) ---- */

/* Sum of big-endian uint32 words over len bytes (len a multiple of 4: tables are zero-padded). */
static uint32_t checksum(const uint8_t *p, size_t len)
{
  uint32_t sum = 0;
  for (size_t i = 0; i + 4 <= len; i += 4) sum += otv_peek_u32(p + i);
  return sum;
}

static size_t pad4(size_t n) { return (n + 3) & ~(size_t)3; }

static void sort_by_tag(uint16_t *idx, unsigned n, const table *t)
{
  for (unsigned i = 1; i < n; i++) { /* insertion sort: a font has a few dozen tables */
    uint16_t v = idx[i];
    unsigned j = i;
    while (j > 0 && t[idx[j - 1]].tag > t[v].tag) {
      idx[j] = idx[j - 1];
      j--;
    }
    idx[j] = v;
  }
}

static void offset_table(uint8_t *p, uint32_t flavor, unsigned n)
{
  unsigned sel = 0;
  while ((2u << sel) <= n) sel++;
  put32(p, flavor);
  put16(p + 4, n);
  put16(p + 6, 16u << sel);
  put16(p + 8, sel);
  put16(p + 10, n * 16 - (16u << sel));
}

/* Lay out the fonts (a collection when collection is set) and their tables, each table once, in
 * directory order. A single font's head.checkSumAdjustment is recomputed for this layout; in a
 * collection head tables may be shared and no whole-file sum applies, so they are left as they
 * are. */
static int write_sfnt(ctx *c, table *t, unsigned nt, font *fonts, unsigned nf, bool collection,
                      uint8_t **out, size_t *out_len)
{
  bool fix_adjust = !collection;
  size_t off = collection ? 12 + 4 * (size_t)nf : 0;
  for (unsigned f = 0; f < nf; f++) {
    sort_by_tag(fonts[f].idx, fonts[f].count, t);
    for (unsigned k = 1; k < fonts[f].count; k++)
      if (t[fonts[f].idx[k]].tag == t[fonts[f].idx[k - 1]].tag) {
        char s[5];
        tag_str(t[fonts[f].idx[k]].tag, s);
        return fail(c, "font %u has two '%s' tables", f, s);
      }
    off += 12 + 16 * (size_t)fonts[f].count;
  }
  for (unsigned i = 0; i < nt; i++) {
    t[i].out_off = off;
    if (t[i].len > WOFF_MAX_SFNT || pad4(t[i].len) > WOFF_MAX_SFNT - off)
      return fail(c, "the decoded font would exceed %zu MiB", WOFF_MAX_SFNT >> 20);
    off += pad4(t[i].len);
  }
  uint8_t *o = calloc(1, off ? off : 1); /* zeroed: padding and the directories' gaps */
  if (!o) return fail(c, "out of memory for a decoded font of %zu bytes", off);
  uint32_t *sums = malloc((nt ? nt : 1) * sizeof *sums);
  if (!sums) {
    free(o);
    return fail(c, "out of memory");
  }
  for (unsigned i = 0; i < nt; i++) {
    if (t[i].len) memcpy(o + t[i].out_off, t[i].data, t[i].len);
    /* head's sum counts checkSumAdjustment as 0 (OpenType, "Calculating checksums") */
    if (t[i].tag == TAG_HEAD && t[i].len >= 12 && fix_adjust) put32(o + t[i].out_off + 8, 0);
    sums[i] = checksum(o + t[i].out_off, pad4(t[i].len));
    if (t[i].tag == TAG_HEAD && t[i].len >= 12 && !fix_adjust)
      sums[i] -= otv_peek_u32(o + t[i].out_off + 8);
  }
  size_t dir = 0;
  if (collection) {
    put32(o, TAG_TTCF);
    put32(o + 4, 0x00010000);
    put32(o + 8, nf);
    dir = 12 + 4 * (size_t)nf;
  }
  for (unsigned f = 0; f < nf; f++) {
    if (collection) put32(o + 12 + 4 * (size_t)f, (uint32_t)dir);
    offset_table(o + dir, fonts[f].flavor, fonts[f].count);
    for (unsigned k = 0; k < fonts[f].count; k++) {
      const table *e = &t[fonts[f].idx[k]];
      uint8_t *p = o + dir + 12 + 16 * (size_t)k;
      put32(p, e->tag);
      put32(p + 4, sums[fonts[f].idx[k]]);
      put32(p + 8, (uint32_t)e->out_off);
      put32(p + 12, (uint32_t)e->len);
    }
    dir += 12 + 16 * (size_t)fonts[f].count;
  }
  if (fix_adjust)
    for (unsigned i = 0; i < nt; i++)
      if (t[i].tag == TAG_HEAD && t[i].len >= 12)
        put32(o + t[i].out_off + 8, 0xB1B0AFBAu - checksum(o, off));
  free(sums);
  *out = o;
  *out_len = off;
  return 0;
}

static void free_tables(table *t, unsigned n)
{
  if (!t) return;
  for (unsigned i = 0; i < n; i++) {
    free(t[i].owned);
    free(t[i].xmin);
  }
  free(t);
}

/* The known-tag table of WOFF 2.0 (section 5.2): flags & 63 indexes it; 63 means a tag follows. */
const uint32_t woff2_known_tags[63] = {
    TAG4('c', 'm', 'a', 'p'), TAG4('h', 'e', 'a', 'd'), TAG4('h', 'h', 'e', 'a'), TAG4('h', 'm', 't', 'x'),
    TAG4('m', 'a', 'x', 'p'), TAG4('n', 'a', 'm', 'e'), TAG4('O', 'S', '/', '2'), TAG4('p', 'o', 's', 't'),
    TAG4('c', 'v', 't', ' '), TAG4('f', 'p', 'g', 'm'), TAG4('g', 'l', 'y', 'f'), TAG4('l', 'o', 'c', 'a'),
    TAG4('p', 'r', 'e', 'p'), TAG4('C', 'F', 'F', ' '), TAG4('V', 'O', 'R', 'G'), TAG4('E', 'B', 'D', 'T'),
    TAG4('E', 'B', 'L', 'C'), TAG4('g', 'a', 's', 'p'), TAG4('h', 'd', 'm', 'x'), TAG4('k', 'e', 'r', 'n'),
    TAG4('L', 'T', 'S', 'H'), TAG4('P', 'C', 'L', 'T'), TAG4('V', 'D', 'M', 'X'), TAG4('v', 'h', 'e', 'a'),
    TAG4('v', 'm', 't', 'x'), TAG4('B', 'A', 'S', 'E'), TAG4('G', 'D', 'E', 'F'), TAG4('G', 'P', 'O', 'S'),
    TAG4('G', 'S', 'U', 'B'), TAG4('E', 'B', 'S', 'C'), TAG4('J', 'S', 'T', 'F'), TAG4('M', 'A', 'T', 'H'),
    TAG4('C', 'B', 'D', 'T'), TAG4('C', 'B', 'L', 'C'), TAG4('C', 'O', 'L', 'R'), TAG4('C', 'P', 'A', 'L'),
    TAG4('S', 'V', 'G', ' '), TAG4('s', 'b', 'i', 'x'), TAG4('a', 'c', 'n', 't'), TAG4('a', 'v', 'a', 'r'),
    TAG4('b', 'd', 'a', 't'), TAG4('b', 'l', 'o', 'c'), TAG4('b', 's', 'l', 'n'), TAG4('c', 'v', 'a', 'r'),
    TAG4('f', 'd', 's', 'c'), TAG4('f', 'e', 'a', 't'), TAG4('f', 'm', 't', 'x'), TAG4('f', 'v', 'a', 'r'),
    TAG4('g', 'v', 'a', 'r'), TAG4('h', 's', 't', 'y'), TAG4('j', 'u', 's', 't'), TAG4('l', 'c', 'a', 'r'),
    TAG4('m', 'o', 'r', 't'), TAG4('m', 'o', 'r', 'x'), TAG4('o', 'p', 'b', 'd'), TAG4('p', 'r', 'o', 'p'),
    TAG4('t', 'r', 'a', 'k'), TAG4('Z', 'a', 'p', 'f'), TAG4('S', 'i', 'l', 'f'), TAG4('G', 'l', 'a', 't'),
    TAG4('G', 'l', 'o', 'c'), TAG4('F', 'e', 'a', 't'), TAG4('S', 'i', 'l', 'l'),
};

/* ---- WOFF 1.0 ---- */

static int decode_woff1(ctx *c, otv_span in, uint8_t **out, size_t *out_len)
{
#ifndef OTV_HAVE_ZLIB
  (void)in, (void)out, (void)out_len;
  return fail(c, "WOFF: this build of otvar has no zlib (decompress the font with a WOFF tool)");
#else
  otv_rd r = otv_rd_init(in, 4);
  uint32_t flavor = otv_rd_u32(&r), length = otv_rd_u32(&r);
  unsigned num_tables = otv_rd_u16(&r), reserved = otv_rd_u16(&r);
  if (!otv_rd_ok(&r) || in.len < WOFF1_HEADER_LEN)
    return fail(c, "WOFF header: the file's %zu bytes are fewer than the 44-byte header", in.len);
  if (length != in.len)
    return fail(c, "WOFF header (offset 8): length %u, but the file has %zu bytes", length, in.len);
  if (reserved != 0) return fail(c, "WOFF header (offset 14): reserved is %u, not 0", reserved);
  if (num_tables == 0) return fail(c, "WOFF header (offset 12): no tables");
  if (flavor == TAG_TTCF) return fail(c, "WOFF header (offset 4): WOFF 1.0 cannot hold a collection");
  otv_span dir;
  if (!otv_span_array(in, WOFF1_HEADER_LEN, num_tables, WOFF1_ENTRY_LEN, &dir))
    return fail(c, "WOFF table directory: %u entries of 20 bytes run past the file's %zu bytes",
                num_tables, in.len);
  table *t = calloc(num_tables, sizeof *t);
  uint16_t *idx = calloc(num_tables, sizeof *idx);
  int rc = -1;
  if (!t || !idx) {
    rc = fail(c, "out of memory");
    goto done;
  }
  size_t total = 0;
  for (unsigned i = 0; i < num_tables; i++) {
    const uint8_t *e = dir.p + WOFF1_ENTRY_LEN * (size_t)i; /* in range: dir checked above */
    uint32_t tag = otv_peek_u32(e), off = otv_peek_u32(e + 4), comp = otv_peek_u32(e + 8),
             orig = otv_peek_u32(e + 12);
    size_t at = WOFF1_HEADER_LEN + WOFF1_ENTRY_LEN * (size_t)i;
    char s[5];
    tag_str(tag, s);
    t[i].tag = tag;
    idx[i] = (uint16_t)i;
    if (!otv_span_has(in, off, comp)) {
      rc = fail(c, "WOFF table '%s' (directory entry at offset %zu): %u bytes at offset %u run past "
                   "the file's %zu bytes", s, at, comp, off, in.len);
      goto done;
    }
    if (comp > orig) {
      rc = fail(c, "WOFF table '%s' (directory entry at offset %zu): compressed length %u exceeds "
                   "the original length %u", s, at, comp, orig);
      goto done;
    }
    if (orig > WOFF_MAX_SFNT - total) {
      rc = fail(c, "WOFF table '%s' (directory entry at offset %zu): the tables' original lengths "
                   "exceed %zu MiB", s, at, WOFF_MAX_SFNT >> 20);
      goto done;
    }
    total += orig;
    t[i].len = orig;
    if (comp == orig) {
      t[i].data = in.p + off; /* stored: borrowed from the input */
      continue;
    }
    t[i].owned = malloc(orig);
    if (!t[i].owned) {
      rc = fail(c, "out of memory for WOFF table '%s' (%u bytes)", s, orig);
      goto done;
    }
    uLongf got = orig;
    if (uncompress(t[i].owned, &got, in.p + off, comp) != Z_OK || got != orig) {
      rc = fail(c, "WOFF table '%s' (data at offset %u): zlib data does not inflate to its %u bytes",
                s, off, orig);
      goto done;
    }
    t[i].data = t[i].owned;
  }
  font f = {flavor, num_tables, idx};
  /* the original checkSumAdjustment held for the original table layout, not for this one */
  rc = write_sfnt(c, t, num_tables, &f, 1, false, out, out_len);
done:
  free_tables(t, num_tables);
  free(idx);
  return rc;
#endif
}

/* ---- WOFF 2.0 ---- */

#ifdef OTV_HAVE_BROTLI


/* UIntBase128 (section 4.1): at most 5 bytes, no leading zero byte, no value above 2^32-1. */
static bool rd_base128(otv_rd *r, uint32_t *v)
{
  uint32_t acc = 0;
  for (int i = 0; i < 5; i++) {
    unsigned b = otv_rd_u8(r);
    if (!otv_rd_ok(r) || (i == 0 && b == 0x80) || (acc & 0xFE000000u)) return false;
    acc = acc << 7 | (b & 0x7F);
    if (!(b & 0x80)) {
      *v = acc;
      return true;
    }
  }
  return false;
}

/* 255UInt16 (section 4.2). */
static bool rd_255u16(otv_rd *r, unsigned *v)
{
  unsigned code = otv_rd_u8(r);
  if (code == 253) *v = otv_rd_u16(r);
  else if (code == 255) *v = 253 + otv_rd_u8(r);
  else if (code == 254) *v = 506 + otv_rd_u8(r);
  else *v = code;
  return otv_rd_ok(r);
}

/* One point of the glyph stream (section 5.2, the triplet encoding): the flag's low 7 bits
 * choose how many bytes follow and how the two deltas are packed; bit 0 is the sign of x (or of
 * the only delta), bit 1 the sign of y, set meaning positive. */
static bool triplet(otv_rd *g, unsigned f, int *dx, int *dy)
{
  int x, y;
  if (f < 20) { /* one delta of 8 bits plus 256 x (0..4) */
    int v = (int)(((f % 10) & 14) << 7) + otv_rd_u8(g);
    if (!(f & 1)) v = -v;
    x = f < 10 ? 0 : v;
    y = f < 10 ? v : 0;
  } else if (f < 84) { /* 4 bits each, one byte, biases 1/17/33/49 */
    unsigned b0 = f - 20, b1 = otv_rd_u8(g);
    x = 1 + (int)(b0 & 0x30) + (int)(b1 >> 4);
    y = 1 + (int)((b0 & 0x0C) << 2) + (int)(b1 & 0x0F);
    if (!(f & 1)) x = -x;
    if (!(f & 2)) y = -y;
  } else if (f < 120) { /* 8 bits each, biases 1/257/513 */
    unsigned b0 = f - 84, bx = otv_rd_u8(g), by = otv_rd_u8(g);
    x = 1 + (int)((b0 / 12) << 8) + (int)bx;
    y = 1 + (int)(((b0 % 12) >> 2) << 8) + (int)by;
    if (!(f & 1)) x = -x;
    if (!(f & 2)) y = -y;
  } else if (f < 124) { /* 12 bits each in three bytes */
    unsigned a = otv_rd_u8(g), b = otv_rd_u8(g), d = otv_rd_u8(g);
    x = (int)(a << 4 | b >> 4);
    y = (int)((b & 0x0F) << 8 | d);
    if (!(f & 1)) x = -x;
    if (!(f & 2)) y = -y;
  } else { /* 16 bits each */
    x = otv_rd_u16(g);
    y = otv_rd_u16(g);
    if (!(f & 1)) x = -x;
    if (!(f & 2)) y = -y;
  }
  *dx = x;
  *dy = y;
  return otv_rd_ok(g);
}

/* A growable byte buffer for the rebuilt glyf table. */
typedef struct obuf {
  uint8_t *p;
  size_t len, cap;
} obuf;

static bool ob_room(obuf *b, size_t n)
{
  if (n <= b->cap - b->len) return true;
  if (n > WOFF_MAX_SFNT - b->len) return false;
  size_t cap = b->cap ? b->cap : 4096;
  while (cap - b->len < n) cap *= 2;
  uint8_t *p = realloc(b->p, cap);
  if (!p) return false;
  b->p = p;
  b->cap = cap;
  return true;
}

/* Per-glyph scratch, grown to the largest glyph. */
typedef struct scratch {
  uint16_t *end_pts;
  int32_t *x, *y;
  uint8_t *flag;
  size_t contours_cap, points_cap;
} scratch;

static bool scratch_fit(scratch *s, size_t contours, size_t points)
{
  if (contours > s->contours_cap) {
    uint16_t *e = realloc(s->end_pts, contours * sizeof *e);
    if (!e) return false;
    s->end_pts = e;
    s->contours_cap = contours;
  }
  if (points > s->points_cap) {
    int32_t *x = realloc(s->x, points * sizeof *x);
    if (x) s->x = x;
    int32_t *y = x ? realloc(s->y, points * sizeof *y) : NULL;
    if (y) s->y = y;
    uint8_t *f = y ? realloc(s->flag, points) : NULL;
    if (!f) return false;
    s->flag = f;
    s->points_cap = points;
  }
  return true;
}

enum { S_NCONTOUR, S_NPOINTS, S_FLAG, S_GLYPH, S_COMPOSITE, S_BBOX, S_INSTRUCTION, S_COUNT };
static const char *const stream_name[S_COUNT] = {"nContour", "nPoints", "flag", "glyph",
                                                 "composite", "bbox", "instruction"};

typedef struct glyf_in {
  otv_rd s[S_COUNT];
  const uint8_t *bbox_bits, *overlap_bits; /* bit g (MSB first) is glyph g's */
} glyf_in;

static bool bit(const uint8_t *bits, unsigned g) { return bits && (bits[g >> 3] & (0x80 >> (g & 7))); }

static int stream_end(ctx *c, const glyf_in *in, int k, unsigned g)
{
  return fail(c, "WOFF2 'glyf' glyph %u: the %s stream ends (at byte %zu of %zu)", g,
              stream_name[k], in->s[k].pos, in->s[k].s.len);
}

/* Write a simple glyph's points as glyf stores them: flags (with repeats), then x and y deltas,
 * each in one byte when it fits, none when zero. */
static void put_points(obuf *o, const scratch *s, unsigned n, bool overlap)
{
  int px = 0, py = 0;
  uint8_t *fl = s->flag;
  for (unsigned i = 0; i < n; i++) {
    int dx = s->x[i] - px, dy = s->y[i] - py;
    unsigned f = fl[i]; /* bit 0: on curve, set by the caller */
    if (dx == 0) f |= 0x10;
    else if (dx >= -255 && dx <= 255) f |= 0x02 | (dx > 0 ? 0x10 : 0);
    if (dy == 0) f |= 0x20;
    else if (dy >= -255 && dy <= 255) f |= 0x04 | (dy > 0 ? 0x20 : 0);
    if (i == 0 && overlap) f |= 0x40; /* OVERLAP_SIMPLE */
    fl[i] = (uint8_t)f;
    px = s->x[i];
    py = s->y[i];
  }
  for (unsigned i = 0; i < n;) {
    unsigned run = 1;
    while (i + run < n && fl[i + run] == fl[i] && run < 256) run++;
    if (run >= 3) {
      o->p[o->len++] = fl[i] | 0x08; /* REPEAT_FLAG */
      o->p[o->len++] = (uint8_t)(run - 1);
    } else {
      for (unsigned k = 0; k < run; k++) o->p[o->len++] = fl[i];
    }
    i += run;
  }
  for (int axis = 0; axis < 2; axis++) {
    const int32_t *v = axis ? s->y : s->x;
    unsigned short_bit = axis ? 0x04 : 0x02, same_bit = axis ? 0x20 : 0x10;
    int prev = 0;
    for (unsigned i = 0; i < n; i++) {
      int d = v[i] - prev;
      prev = v[i];
      if (fl[i] & short_bit) o->p[o->len++] = (uint8_t)(d < 0 ? -d : d);
      else if (!(fl[i] & same_bit)) {
        put16(o->p + o->len, (unsigned)(uint16_t)(int16_t)d);
        o->len += 2;
      }
    }
  }
}

static int simple_glyph(ctx *c, glyf_in *in, scratch *s, unsigned g, unsigned n_contours,
                        obuf *o, int16_t *xmin)
{
  if (!scratch_fit(s, n_contours, 0)) return fail(c, "out of memory");
  unsigned total = 0;
  for (unsigned k = 0; k < n_contours; k++) {
    unsigned np;
    if (!rd_255u16(&in->s[S_NPOINTS], &np)) return stream_end(c, in, S_NPOINTS, g);
    total += np;
    if (total == 0 || total > MAX_GLYPH_POINTS)
      return fail(c, "WOFF2 'glyf' glyph %u: contour %u ends at point %d (must be 0..%d)", g, k,
                  (int)total - 1, MAX_GLYPH_POINTS - 1);
    s->end_pts[k] = (uint16_t)(total - 1);
  }
  if (!scratch_fit(s, n_contours, total)) return fail(c, "out of memory");
  int x = 0, y = 0;
  for (unsigned i = 0; i < total; i++) {
    unsigned f = otv_rd_u8(&in->s[S_FLAG]);
    if (!otv_rd_ok(&in->s[S_FLAG])) return stream_end(c, in, S_FLAG, g);
    int dx, dy;
    if (!triplet(&in->s[S_GLYPH], f & 0x7F, &dx, &dy)) return stream_end(c, in, S_GLYPH, g);
    x += dx;
    y += dy;
    if (x < -32768 || x > 32767 || y < -32768 || y > 32767)
      return fail(c, "WOFF2 'glyf' glyph %u: point %u at (%d, %d) is outside the int16 range", g,
                  i, x, y);
    s->x[i] = x;
    s->y[i] = y;
    s->flag[i] = (f & 0x80) ? 0 : 1; /* the flag's top bit clear: on the curve */
  }
  unsigned ilen;
  if (!rd_255u16(&in->s[S_GLYPH], &ilen)) return stream_end(c, in, S_GLYPH, g);
  const uint8_t *ins = otv_rd_take(&in->s[S_INSTRUCTION], ilen);
  if (!ins && ilen) return stream_end(c, in, S_INSTRUCTION, g);
  int bb[4];
  if (bit(in->bbox_bits, g)) {
    for (int k = 0; k < 4; k++) bb[k] = otv_rd_i16(&in->s[S_BBOX]);
    if (!otv_rd_ok(&in->s[S_BBOX])) return stream_end(c, in, S_BBOX, g);
  } else {
    bb[0] = bb[2] = s->x[0];
    bb[1] = bb[3] = s->y[0];
    for (unsigned i = 1; i < total; i++) {
      if (s->x[i] < bb[0]) bb[0] = s->x[i];
      if (s->x[i] > bb[2]) bb[2] = s->x[i];
      if (s->y[i] < bb[1]) bb[1] = s->y[i];
      if (s->y[i] > bb[3]) bb[3] = s->y[i];
    }
  }
  *xmin = (int16_t)bb[0];
  size_t need = 10 + 2 * (size_t)n_contours + 2 + ilen + 5 * (size_t)total + 3;
  if (!ob_room(o, need)) return fail(c, "the rebuilt 'glyf' would exceed %zu MiB", WOFF_MAX_SFNT >> 20);
  uint8_t *p = o->p + o->len;
  put16(p, n_contours);
  for (int k = 0; k < 4; k++) put16(p + 2 + 2 * k, (unsigned)(uint16_t)(int16_t)bb[k]);
  p += 10;
  for (unsigned k = 0; k < n_contours; k++, p += 2) put16(p, s->end_pts[k]);
  put16(p, ilen);
  p += 2;
  if (ilen) memcpy(p, ins, ilen);
  o->len = (size_t)(p + ilen - o->p);
  put_points(o, s, total, bit(in->overlap_bits, g));
  return 0;
}

static int composite_glyph(ctx *c, glyf_in *in, unsigned g, obuf *o, int16_t *xmin)
{
  if (!bit(in->bbox_bits, g))
    return fail(c, "WOFF2 'glyf' glyph %u: a composite glyph without a bounding box", g);
  uint8_t bb[8];
  const uint8_t *b = otv_rd_take(&in->s[S_BBOX], 8);
  if (!b) return stream_end(c, in, S_BBOX, g);
  memcpy(bb, b, 8);
  otv_rd *cs = &in->s[S_COMPOSITE];
  size_t start = cs->pos;
  unsigned flags;
  bool instructions = false;
  do { /* each component takes 6 bytes at least: bounded by the stream */
    flags = otv_rd_u16(cs);
    size_t n = 2 + ((flags & 0x0001) ? 4 : 2); /* glyphIndex, ARG_1_AND_2_ARE_WORDS */
    if (flags & 0x0008) n += 2;                /* WE_HAVE_A_SCALE */
    else if (flags & 0x0040) n += 4;           /* WE_HAVE_AN_X_AND_Y_SCALE */
    else if (flags & 0x0080) n += 8;           /* WE_HAVE_A_TWO_BY_TWO */
    otv_rd_skip(cs, n);
    if (!otv_rd_ok(cs)) return stream_end(c, in, S_COMPOSITE, g);
    if (flags & 0x0100) instructions = true;   /* WE_HAVE_INSTRUCTIONS */
  } while (flags & 0x0020);                    /* MORE_COMPONENTS */
  size_t clen = cs->pos - start;
  unsigned ilen = 0;
  const uint8_t *ins = NULL;
  if (instructions) {
    if (!rd_255u16(&in->s[S_GLYPH], &ilen)) return stream_end(c, in, S_GLYPH, g);
    ins = otv_rd_take(&in->s[S_INSTRUCTION], ilen);
    if (!ins && ilen) return stream_end(c, in, S_INSTRUCTION, g);
  }
  *xmin = (int16_t)otv_peek_u16(bb);
  if (!ob_room(o, 10 + clen + 2 + ilen + 3))
    return fail(c, "the rebuilt 'glyf' would exceed %zu MiB", WOFF_MAX_SFNT >> 20);
  put16(o->p + o->len, 0xFFFF); /* numberOfContours -1 */
  memcpy(o->p + o->len + 2, bb, 8);
  memcpy(o->p + o->len + 10, cs->s.p + start, clen);
  o->len += 10 + clen;
  if (instructions) {
    put16(o->p + o->len, ilen);
    if (ilen) memcpy(o->p + o->len + 2, ins, ilen);
    o->len += 2 + ilen;
  }
  return 0;
}

/* Rebuild glyf and loca from the transformed glyf table (section 5.1). */
static int glyf_rebuild(ctx *c, table *glyf, table *loca, const uint8_t *src)
{
  otv_span t = otv_span_of(src, glyf->src_len);
  otv_rd h = otv_rd_init(t, 2); /* after reserved */
  unsigned option_flags = otv_rd_u16(&h), n = otv_rd_u16(&h), index_format = otv_rd_u16(&h);
  uint32_t size[S_COUNT];
  for (int k = 0; k < S_COUNT; k++) size[k] = otv_rd_u32(&h);
  if (!otv_rd_ok(&h))
    return fail(c, "WOFF2 'glyf': the transformed table's %zu bytes are fewer than its 36-byte "
                   "header", t.len);
  if (index_format > 1)
    return fail(c, "WOFF2 'glyf' (offset 6): indexFormat %u (must be 0 or 1)", index_format);
  glyf_in in = {0};
  size_t off = GLYF_XFORM_HEADER_LEN;
  for (int k = 0; k < S_COUNT; k++) {
    otv_span s;
    if (!otv_span_sub(t, off, size[k], &s))
      return fail(c, "WOFF2 'glyf': the %s stream (%u bytes at offset %zu) runs past the table's "
                     "%zu bytes", stream_name[k], size[k], off, t.len);
    in.s[k] = otv_rd_init(s, 0);
    off += size[k];
  }
  size_t bits_len = (((size_t)n + 31) >> 5) << 2;
  if (size[S_BBOX] < bits_len)
    return fail(c, "WOFF2 'glyf': the bbox stream's %u bytes cannot hold its %zu-byte bitmap",
                size[S_BBOX], bits_len);
  in.bbox_bits = in.s[S_BBOX].s.p;
  in.s[S_BBOX].pos = bits_len;
  if (option_flags & 1) { /* overlapSimpleBitmap */
    otv_span ov;
    if (!otv_span_sub(t, off, ((size_t)n + 7) >> 3, &ov))
      return fail(c, "WOFF2 'glyf': the overlap bitmap (%zu bytes at offset %zu) runs past the "
                     "table's %zu bytes", ((size_t)n + 7) >> 3, off, t.len);
    in.overlap_bits = ov.p;
  }
  size_t loca_len = ((size_t)n + 1) * (index_format ? 4 : 2);
  if (loca->orig_len != loca_len)
    return fail(c, "WOFF2 'loca': origLength %u, but %u glyphs in format %u take %zu bytes",
                loca->orig_len, n, index_format, loca_len);
  uint32_t *offs = malloc(((size_t)n + 1) * sizeof *offs);
  glyf->xmin = calloc(n ? n : 1, sizeof *glyf->xmin);
  obuf o = {0};
  scratch s = {0};
  int rc = -1;
  if (!offs || !glyf->xmin) {
    rc = fail(c, "out of memory");
    goto done;
  }
  size_t align = index_format ? 4 : 2; /* short offsets count 2-byte words */
  for (unsigned g = 0; g < n; g++) {
    offs[g] = (uint32_t)o.len;
    int nc = otv_rd_i16(&in.s[S_NCONTOUR]);
    if (!otv_rd_ok(&in.s[S_NCONTOUR])) {
      rc = stream_end(c, &in, S_NCONTOUR, g);
      goto done;
    }
    if (nc == 0) {
      if (bit(in.bbox_bits, g)) {
        rc = fail(c, "WOFF2 'glyf' glyph %u: an empty glyph with a bounding box", g);
        goto done;
      }
      continue;
    }
    if (nc > 0) rc = simple_glyph(c, &in, &s, g, (unsigned)nc, &o, &glyf->xmin[g]);
    else if (nc == -1) rc = composite_glyph(c, &in, g, &o, &glyf->xmin[g]);
    else rc = fail(c, "WOFF2 'glyf' glyph %u: numberOfContours %d", g, nc);
    if (rc) goto done;
    while (o.len % align) o.p[o.len++] = 0; /* room: every glyph reserved 3 bytes more */
  }
  offs[n] = (uint32_t)o.len;
  if (!index_format && o.len > 0x1FFFE) {
    rc = fail(c, "WOFF2 'glyf': the rebuilt table's %zu bytes do not fit short loca offsets", o.len);
    goto done;
  }
  loca->owned = malloc(loca_len);
  if (!loca->owned) {
    rc = fail(c, "out of memory");
    goto done;
  }
  for (unsigned g = 0; g <= n; g++) {
    if (index_format) put32(loca->owned + 4 * (size_t)g, offs[g]);
    else put16(loca->owned + 2 * (size_t)g, offs[g] / 2);
  }
  loca->data = loca->owned;
  loca->len = loca_len;
  loca->transformed = false;
  glyf->owned = o.p;
  o.p = NULL;
  glyf->data = glyf->owned;
  glyf->len = o.len;
  glyf->glyph_count = n;
  glyf->transformed = false;
  rc = 0;
done:
  free(offs);
  free(o.p);
  free(s.end_pts);
  free(s.x);
  free(s.y);
  free(s.flag);
  return rc;
}

/* Rebuild hmtx from its transformed form (section 5.4): side bearings left out are the glyphs'
 * xMin. */
static int hmtx_rebuild(ctx *c, table *hmtx, const table *hhea, const table *glyf, const uint8_t *src)
{
  if (!glyf || glyf->transformed || !glyf->xmin)
    return fail(c, "WOFF2 'hmtx': transformed, but the font's 'glyf' is not (the transform takes "
                   "side bearings from glyf)");
  if (!hhea || hhea->transformed || hhea->len < 36)
    return fail(c, "WOFF2 'hmtx': transformed, but the font has no complete 'hhea'");
  unsigned nh = otv_peek_u16(hhea->data + 34); /* in range: len >= 36 checked */
  unsigned n = glyf->glyph_count;
  if (nh == 0 || nh > n)
    return fail(c, "WOFF2 'hmtx': hhea.numberOfHMetrics %u with %u glyphs", nh, n);
  otv_rd r = otv_rd_init(otv_span_of(src, hmtx->src_len), 0);
  unsigned flags = otv_rd_u8(&r);
  if ((flags & 0xFC) || !(flags & 3))
    return fail(c, "WOFF2 'hmtx' (offset 0): transform flags 0x%02x", flags);
  const uint8_t *adv = otv_rd_take(&r, 2 * (size_t)nh);
  const uint8_t *lsb = (flags & 1) ? NULL : otv_rd_take(&r, 2 * (size_t)nh);
  const uint8_t *lsb2 = (flags & 2) ? NULL : otv_rd_take(&r, 2 * (size_t)(n - nh));
  if (!otv_rd_ok(&r))
    return fail(c, "WOFF2 'hmtx': the transformed table's %zu bytes end at %zu, inside its arrays",
                r.s.len, r.bad_at);
  size_t len = 4 * (size_t)nh + 2 * (size_t)(n - nh);
  hmtx->owned = malloc(len ? len : 1);
  if (!hmtx->owned) return fail(c, "out of memory");
  uint8_t *p = hmtx->owned;
  for (unsigned g = 0; g < n; g++) {
    unsigned side;
    if (g < nh) {
      memcpy(p, adv + 2 * (size_t)g, 2); /* in range: adv holds nh entries */
      p += 2;
      side = lsb ? otv_peek_u16(lsb + 2 * (size_t)g) : (uint16_t)glyf->xmin[g];
    } else {
      side = lsb2 ? otv_peek_u16(lsb2 + 2 * (size_t)(g - nh)) : (uint16_t)glyf->xmin[g];
    }
    put16(p, side);
    p += 2;
  }
  hmtx->data = hmtx->owned;
  hmtx->len = len;
  hmtx->transformed = false;
  return 0;
}

static int find_tag(const table *t, const font *f, uint32_t tag)
{
  for (unsigned k = 0; k < f->count; k++)
    if (t[f->idx[k]].tag == tag) return f->idx[k];
  return -1;
}

/* Undo the transforms each font's tables carry. */
static int untransform(ctx *c, table *t, unsigned nt, font *fonts, unsigned nf, const uint8_t *stream)
{
  for (unsigned f = 0; f < nf; f++) {
    int gi = find_tag(t, &fonts[f], TAG_GLYF), li = find_tag(t, &fonts[f], TAG_LOCA);
    bool gx = gi >= 0 && t[gi].xform_in, lx = li >= 0 && t[li].xform_in;
    if (gx != lx)
      return fail(c, "WOFF2 font %u: 'glyf' and 'loca' must both be transformed or neither", f);
    if (!gx) continue;
    if (t[gi].loca_partner == li) continue; /* a collection's fonts sharing the pair */
    if (t[gi].loca_partner >= 0 || !t[li].transformed)
      return fail(c, "WOFF2 font %u: its transformed 'glyf' and 'loca' are paired differently in "
                     "another font", f);
    if (glyf_rebuild(c, &t[gi], &t[li], stream + t[gi].src_off)) return -1;
    t[gi].loca_partner = li;
  }
  for (unsigned f = 0; f < nf; f++) {
    int mi = find_tag(t, &fonts[f], TAG_HMTX);
    if (mi >= 0 && t[mi].transformed) {
      int hi = find_tag(t, &fonts[f], TAG_HHEA), gi = find_tag(t, &fonts[f], TAG_GLYF);
      if (hmtx_rebuild(c, &t[mi], hi >= 0 ? &t[hi] : NULL, gi >= 0 ? &t[gi] : NULL,
                       stream + t[mi].src_off))
        return -1;
    }
  }
  for (unsigned i = 0; i < nt; i++)
    if (t[i].transformed) {
      char s[5];
      tag_str(t[i].tag, s);
      return fail(c, "WOFF2 table '%s' (directory entry %u): transformed, but no font of the file "
                     "lets it be rebuilt", s, i);
    }
  return 0;
}

/* The table directory (section 5): fills t, returns the offset after it, or 0 on error. */
static size_t read_directory(ctx *c, otv_span in, table *t, unsigned n, size_t *stream_len)
{
  otv_rd r = otv_rd_init(in, WOFF2_HEADER_LEN);
  size_t total = 0;
  for (unsigned i = 0; i < n; i++) {
    size_t at = r.pos;
    unsigned flags = otv_rd_u8(&r);
    uint32_t tag = (flags & 63) == 63 ? otv_rd_u32(&r) : woff2_known_tags[flags & 63];
    unsigned version = flags >> 6;
    uint32_t orig = 0, xlen = 0;
    char s[5];
    tag_str(tag, s);
    if (!otv_rd_ok(&r) || !rd_base128(&r, &orig)) {
      fail(c, "WOFF2 table directory entry %u (offset %zu): truncated or a bad UIntBase128", i, at);
      return 0;
    }
    bool glyf_loca = tag == TAG_GLYF || tag == TAG_LOCA;
    bool xf = glyf_loca ? version == 0 : version != 0;
    if ((glyf_loca && version != 0 && version != 3) || (!glyf_loca && version > 1) ||
        (!glyf_loca && version == 1 && tag != TAG_HMTX)) {
      fail(c, "WOFF2 table '%s' (directory entry %u, offset %zu): unknown transform version %u", s,
           i, at, version);
      return 0;
    }
    if (xf && !rd_base128(&r, &xlen)) {
      fail(c, "WOFF2 table '%s' (directory entry %u, offset %zu): truncated or a bad "
              "transformLength", s, i, at);
      return 0;
    }
    if (xf && tag == TAG_LOCA && xlen != 0) {
      fail(c, "WOFF2 table 'loca' (directory entry %u, offset %zu): transformLength %u (must be 0)",
           i, at, xlen);
      return 0;
    }
    size_t stored = xf ? xlen : orig;
    if (orig > WOFF_MAX_SFNT || stored > WOFF_MAX_SFNT - total) {
      fail(c, "WOFF2 table '%s' (directory entry %u, offset %zu): the tables' lengths exceed %zu MiB",
           s, i, at, WOFF_MAX_SFNT >> 20);
      return 0;
    }
    t[i].tag = tag;
    t[i].transformed = xf;
    t[i].xform_in = xf;
    t[i].orig_len = orig;
    t[i].src_off = total;
    t[i].src_len = stored;
    t[i].loca_partner = -1;
    total += stored;
  }
  *stream_len = total;
  return r.pos;
}

/* The collection directory (section 5.3): the fonts and their table indices. Returns the offset
 * after it, or 0 on error. */
static size_t read_collection(ctx *c, otv_span in, size_t at, unsigned nt, font **out, unsigned *nf)
{
  otv_rd r = otv_rd_init(in, at);
  uint32_t version = otv_rd_u32(&r);
  unsigned n;
  if (!rd_255u16(&r, &n) || (version != 0x00010000 && version != 0x00020000) || n == 0) {
    fail(c, "WOFF2 collection directory (offset %zu): truncated, version 0x%08x or %u fonts", at,
         version, otv_rd_ok(&r) ? n : 0);
    return 0;
  }
  font *f = calloc(n, sizeof *f);
  if (!f) {
    fail(c, "out of memory");
    return 0;
  }
  *out = f;
  *nf = n;
  for (unsigned i = 0; i < n; i++) {
    size_t fat = r.pos;
    unsigned count;
    bool ok = rd_255u16(&r, &count);
    f[i].flavor = otv_rd_u32(&r);
    if (!ok || !otv_rd_ok(&r) || count == 0 || count > nt) {
      fail(c, "WOFF2 collection font %u (offset %zu): truncated or %u tables of %u", i, fat,
           ok ? count : 0, nt);
      return 0;
    }
    f[i].idx = calloc(count, sizeof *f[i].idx);
    if (!f[i].idx) {
      fail(c, "out of memory");
      return 0;
    }
    f[i].count = count;
    for (unsigned k = 0; k < count; k++) {
      unsigned v;
      if (!rd_255u16(&r, &v) || v >= nt) {
        fail(c, "WOFF2 collection font %u (offset %zu): table index %u of %u", i, fat, v, nt);
        return 0;
      }
      f[i].idx[k] = (uint16_t)v;
    }
  }
  return r.pos;
}

static int decode_woff2(ctx *c, otv_span in, uint8_t **out, size_t *out_len)
{
  otv_rd r = otv_rd_init(in, 4);
  uint32_t flavor = otv_rd_u32(&r), length = otv_rd_u32(&r);
  unsigned num_tables = otv_rd_u16(&r), reserved = otv_rd_u16(&r);
  (void)otv_rd_u32(&r); /* totalSfntSize: a hint, not trusted */
  uint32_t compressed = otv_rd_u32(&r);
  if (!otv_rd_ok(&r) || in.len < WOFF2_HEADER_LEN)
    return fail(c, "WOFF2 header: the file's %zu bytes are fewer than the 48-byte header", in.len);
  if (length != in.len)
    return fail(c, "WOFF2 header (offset 8): length %u, but the file has %zu bytes", length, in.len);
  if (reserved != 0) return fail(c, "WOFF2 header (offset 14): reserved is %u, not 0", reserved);
  if (num_tables == 0) return fail(c, "WOFF2 header (offset 12): no tables");
  table *t = calloc(num_tables, sizeof *t);
  font *fonts = NULL;
  unsigned nf = 0;
  uint8_t *stream = NULL;
  int rc = -1;
  if (!t) {
    rc = fail(c, "out of memory");
    goto done;
  }
  size_t stream_len = 0;
  size_t at = read_directory(c, in, t, num_tables, &stream_len);
  if (!at) goto done;
  bool collection = flavor == TAG_TTCF;
  if (collection) {
    at = read_collection(c, in, at, num_tables, &fonts, &nf);
    if (!at) goto done;
  } else {
    fonts = calloc(1, sizeof *fonts);
    uint16_t *idx = calloc(num_tables, sizeof *idx);
    if (!fonts || !idx) {
      free(idx);
      rc = fail(c, "out of memory");
      goto done;
    }
    nf = 1;
    fonts[0] = (font){flavor, num_tables, idx};
    for (unsigned i = 0; i < num_tables; i++) idx[i] = (uint16_t)i;
  }
  if (!otv_span_has(in, at, compressed)) {
    rc = fail(c, "WOFF2 compressed data: %u bytes at offset %zu run past the file's %zu bytes",
              compressed, at, in.len);
    goto done;
  }
  stream = malloc(stream_len ? stream_len : 1);
  if (!stream) {
    rc = fail(c, "out of memory for %zu bytes of WOFF2 table data", stream_len);
    goto done;
  }
  size_t got = stream_len;
  if (BrotliDecoderDecompress(compressed, in.p + at, &got, stream) != BROTLI_DECODER_RESULT_SUCCESS ||
      got != stream_len) {
    rc = fail(c, "WOFF2 compressed data (offset %zu, %u bytes): not a Brotli stream of the %zu "
                 "bytes the table directory announces", at, compressed, stream_len);
    goto done;
  }
  for (unsigned i = 0; i < num_tables; i++)
    if (!t[i].transformed) {
      t[i].data = stream + t[i].src_off;
      t[i].len = t[i].src_len;
    }
  if (untransform(c, t, num_tables, fonts, nf, stream)) goto done;
  rc = write_sfnt(c, t, num_tables, fonts, nf, collection, out, out_len);
done:
  free_tables(t, num_tables);
  for (unsigned f = 0; fonts && f < nf; f++) free(fonts[f].idx);
  free(fonts);
  free(stream);
  return rc;
}

#endif /* OTV_HAVE_BROTLI */

int woff_decode(const uint8_t *in, size_t len, uint8_t **out, size_t *out_len, char *err,
                size_t err_len)
{
  ctx c = {err, err_len};
  if (err_len) err[0] = 0;
  *out = NULL;
  *out_len = 0;
  if (!woff_is_woff(in, len)) return fail(&c, "not a WOFF or WOFF2 file");
  otv_span s = otv_span_of(in, len);
  if (otv_peek_u32(in) == TAG_WOFF) return decode_woff1(&c, s, out, out_len);
#ifdef OTV_HAVE_BROTLI
  return decode_woff2(&c, s, out, out_len);
#else
  return fail(&c, "WOFF2: this build of otvar has no Brotli (decompress the font with woff2_decompress)");
#endif
}

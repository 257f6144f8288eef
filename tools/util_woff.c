/*
 * util_woff.c - WOFF 1.0 (zlib) and WOFF 2.0 (Brotli) decoding into an sfnt, for the CLI.
 *
 * WOFF 1.0: each table is stored or zlib-compressed on its own; decoding is inflating each one.
 * WOFF 2.0 (W3C Recommendation, with its 2022 corrections): one Brotli stream holds every table,
 * and three tables may be transformed: glyf/loca (split into seven streams, coordinates as
 * "triplets", loca dropped and rebuilt from the glyph sizes) and hmtx (side bearings dropped
 * where they equal the glyph's xMin). Collections share one directory of tables.
 *
 * Every read goes through the bounds-checked reader of core/reader.h; every size a header
 * announces is checked against the bytes present and against the decoding cap (woff.h: 64 x the
 * input + 1 MiB, within WOFF_MAX_SFNT) before anything is allocated for it: totalSfntSize, the
 * sums of origLength and of the stored lengths, and the rebuilt glyf/loca/hmtx as they are made.
 * Every loop is bounded by a stream's length. Composite glyph records are
 * read by glyf.h's otv_glyf_read_comp; the sfnt (or collection) is written by core/sfnt.h's
 * otv_sfnt_write_faces, tables in the WOFF file's order.
 */
#include "woff.h"

#include "core/reader.h"
#include "core/sfnt.h"
#include "core/writer.h"
#include "glyf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef OTV_HAVE_ZLIB
#  include <zlib.h>
#endif
#ifdef OTV_HAVE_BROTLI
#  include <brotli/decode.h>
#endif

#define MAX_GLYPH_POINTS 65535 /* endPtsOfContours are uint16 */
/* spec (OpenType loca): short offsets hold offset / 2 in a uint16 */
#define SHORT_LOCA_MAX_GLYF (2u * 0xFFFFu)
/* spec (OpenType hhea): numberOfHMetrics, the uint16 at byte 34 of the 36-byte table */
#define HHEA_NUMBER_OF_HMETRICS_OFF 34u
#define HHEA_LEN 36u
/* spec (WOFF2 "Transformed hmtx table format"): flags */
#define HMTX_NO_LSB 0x01u               /* bit 0: the proportional glyphs' lsb[] is absent */
#define HMTX_NO_LEFT_SIDE_BEARING 0x02u /* bit 1: the monospaced glyphs' leftSideBearing[] is */
#define HMTX_RESERVED_FLAGS 0xFCu

typedef struct table {
  uint32_t tag;
  const uint8_t *data; /* the sfnt bytes of the table (into the input, the stream or owned) */
  size_t len;
  uint8_t *owned; /* inflated or reconstructed bytes, freed at the end */
  /* WOFF2 */
  bool transformed; /* still in its transformed form (data/len not yet valid) */
  bool xform_in;    /* stored transformed in the file */
  uint32_t orig_len;
  size_t src_off, src_len; /* the stored (maybe transformed) bytes in the decompressed stream */
  int16_t *xmin;           /* glyf: every glyph's xMin (for the hmtx transform) */
  unsigned glyph_count;
  int loca_partner; /* glyf: the loca rebuilt with it */
} table;

int woff_fail(woff_ctx *c, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  if (c->err_len) vsnprintf(c->err, c->err_len, fmt, ap);
  va_end(ap);
  return -1;
}

/* An error for a size past the decoding cap: "<what> is more than 64 x the N-byte input + 1 MiB"
 * (or "... more than 256 MiB" for inputs large enough to meet the absolute limit). */
static int over_cap(woff_ctx *c, const char *fmt, ...) OTV_PRINTF(2, 3);
static int over_cap(woff_ctx *c, const char *fmt, ...)
{
  char what[160];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  if (c->cap < WOFF_MAX_SFNT)
    return woff_fail(c, "%s is more than %u x the %zu-byte input + %zu MiB (the decoding cap)",
                     what, WOFF_MAX_RATIO, c->in_len, WOFF_CAP_FLOOR >> 20);
  return woff_fail(c, "%s is more than %zu MiB (the decoding cap)", what, WOFF_MAX_SFNT >> 20);
}

/* Charge n bytes of a rebuilt table against the cap, before allocating them. */
OTV_MAYBE_UNUSED static int charge(woff_ctx *c, const char *tag, size_t n)
{
  if (!woff_add_len(&c->made, n, false, c->cap))
    return over_cap(c, "WOFF2 '%s': %zu rebuilt bytes after %zu of other rebuilt tables", tag, n,
                    c->made);
  return 0;
}

bool woff_is_woff(const uint8_t *in, size_t len)
{
  if (len < 4) return false;
  uint32_t sig = otv_peek_u32(in);
  return sig == OTV_SFNT_WOFF || sig == OTV_SFNT_WOF2;
}

/* ---- the sfnt (shared by both formats) ---- */

/* Write the fonts (a collection when `collection`) with core/sfnt.c: every table once, in the
 * WOFF directory's order, each font's directory sorted by tag. A single font's
 * head.checkSumAdjustment is recomputed for this layout; in a collection head tables may be
 * shared and no whole-file sum applies, so they are left as they are. what: the directory
 * the fonts come from, for errors. */
OTV_MAYBE_UNUSED static int write_sfnt(woff_ctx *c, const char *what, const table *t, unsigned nt,
                                       otv_sfnt_face *fonts, unsigned nf, bool collection,
                                       uint8_t **out, size_t *out_len)
{
  otv_sfnt_table *st = malloc((nt ? nt : 1) * sizeof *st);
  if (!st) return woff_fail(c, "out of memory");
  for (unsigned i = 0; i < nt; i++) st[i] = (otv_sfnt_table){t[i].tag, t[i].data, t[i].len};
  uint64_t size = otv_sfnt_file_len(st, nt, fonts, nf, collection); /* 64-bit: cannot wrap */
  if (size > c->cap) {
    free(st);
    return over_cap(c, "%s: the decoded font's %llu bytes", what, (unsigned long long)size);
  }
  otv_buf b;
  otv_buf_init(&b, &c->al);
  otv_error e = {0};
  otv_status rc = otv_sfnt_write_faces(&b, st, nt, fonts, nf, collection, &e);
  free(st);
  if (rc) {
    otv_buf_free(&b);
    if (rc == OTV_E_NOMEM)
      return woff_fail(c, "out of memory for a decoded font of %llu bytes",
                       (unsigned long long)size);
    return woff_fail(c, "%s: %s", what, e.msg);
  }
  *out = b.p; /* allocated by libc (c->al): the caller free()s it */
  *out_len = b.len;
  return 0;
}

OTV_MAYBE_UNUSED static void free_tables(table *t, unsigned n)
{
  if (!t) return;
  for (unsigned i = 0; i < n; i++) {
    free(t[i].owned);
    free(t[i].xmin);
  }
  free(t);
}

/* The known-tag table of WOFF 2.0 ("Table Directory"): flags & 63 indexes it; 63 means a tag
 * follows. */
const uint32_t woff2_known_tags[WOFF2_TAG_FOLLOWS] = {
    OTV_TAG('c', 'm', 'a', 'p'), OTV_TAG('h', 'e', 'a', 'd'), OTV_TAG('h', 'h', 'e', 'a'),
    OTV_TAG('h', 'm', 't', 'x'), OTV_TAG('m', 'a', 'x', 'p'), OTV_TAG('n', 'a', 'm', 'e'),
    OTV_TAG('O', 'S', '/', '2'), OTV_TAG('p', 'o', 's', 't'), OTV_TAG('c', 'v', 't', ' '),
    OTV_TAG('f', 'p', 'g', 'm'), OTV_TAG('g', 'l', 'y', 'f'), OTV_TAG('l', 'o', 'c', 'a'),
    OTV_TAG('p', 'r', 'e', 'p'), OTV_TAG('C', 'F', 'F', ' '), OTV_TAG('V', 'O', 'R', 'G'),
    OTV_TAG('E', 'B', 'D', 'T'), OTV_TAG('E', 'B', 'L', 'C'), OTV_TAG('g', 'a', 's', 'p'),
    OTV_TAG('h', 'd', 'm', 'x'), OTV_TAG('k', 'e', 'r', 'n'), OTV_TAG('L', 'T', 'S', 'H'),
    OTV_TAG('P', 'C', 'L', 'T'), OTV_TAG('V', 'D', 'M', 'X'), OTV_TAG('v', 'h', 'e', 'a'),
    OTV_TAG('v', 'm', 't', 'x'), OTV_TAG('B', 'A', 'S', 'E'), OTV_TAG('G', 'D', 'E', 'F'),
    OTV_TAG('G', 'P', 'O', 'S'), OTV_TAG('G', 'S', 'U', 'B'), OTV_TAG('E', 'B', 'S', 'C'),
    OTV_TAG('J', 'S', 'T', 'F'), OTV_TAG('M', 'A', 'T', 'H'), OTV_TAG('C', 'B', 'D', 'T'),
    OTV_TAG('C', 'B', 'L', 'C'), OTV_TAG('C', 'O', 'L', 'R'), OTV_TAG('C', 'P', 'A', 'L'),
    OTV_TAG('S', 'V', 'G', ' '), OTV_TAG('s', 'b', 'i', 'x'), OTV_TAG('a', 'c', 'n', 't'),
    OTV_TAG('a', 'v', 'a', 'r'), OTV_TAG('b', 'd', 'a', 't'), OTV_TAG('b', 'l', 'o', 'c'),
    OTV_TAG('b', 's', 'l', 'n'), OTV_TAG('c', 'v', 'a', 'r'), OTV_TAG('f', 'd', 's', 'c'),
    OTV_TAG('f', 'e', 'a', 't'), OTV_TAG('f', 'm', 't', 'x'), OTV_TAG('f', 'v', 'a', 'r'),
    OTV_TAG('g', 'v', 'a', 'r'), OTV_TAG('h', 's', 't', 'y'), OTV_TAG('j', 'u', 's', 't'),
    OTV_TAG('l', 'c', 'a', 'r'), OTV_TAG('m', 'o', 'r', 't'), OTV_TAG('m', 'o', 'r', 'x'),
    OTV_TAG('o', 'p', 'b', 'd'), OTV_TAG('p', 'r', 'o', 'p'), OTV_TAG('t', 'r', 'a', 'k'),
    OTV_TAG('Z', 'a', 'p', 'f'), OTV_TAG('S', 'i', 'l', 'f'), OTV_TAG('G', 'l', 'a', 't'),
    OTV_TAG('G', 'l', 'o', 'c'), OTV_TAG('F', 'e', 'a', 't'), OTV_TAG('S', 'i', 'l', 'l'),
};

/* The header checks WOFF 1.0 and 2.0 share ("WOFF Header"): the file holds the header_len-byte
 * header (header_read: its fields were read), its length field is the file's, reserved is 0 and
 * there are tables. name: "WOFF" or "WOFF2", for the messages. Returns 0 or -1 (woff_fail). */
OTV_MAYBE_UNUSED static int check_header(woff_ctx *c, const char *name, size_t file_len,
                                         bool header_read, unsigned header_len, uint32_t length,
                                         unsigned reserved, unsigned num_tables)
{
  if (!header_read || file_len < header_len)
    return woff_fail(c, "%s header: the file's %zu bytes are fewer than the %u-byte header", name,
                     file_len, header_len);
  if (length != file_len)
    return woff_fail(c, "%s header (offset 8): length %u, but the file has %zu bytes", name, length,
                     file_len);
  if (reserved != 0)
    return woff_fail(c, "%s header (offset 14): reserved is %u, not 0", name, reserved);
  if (num_tables == 0) return woff_fail(c, "%s header (offset 12): no tables", name);
  return 0;
}

/* ---- WOFF 1.0 ---- */

static int decode_woff1(woff_ctx *c, otv_span in, uint8_t **out, size_t *out_len)
{
#ifndef OTV_HAVE_ZLIB
  (void)in, (void)out, (void)out_len;
  return woff_fail(c,
                   "WOFF: this build of otvar has no zlib (decompress the font with a WOFF tool)");
#else
  otv_rd r = otv_rd_init(in, 4);
  uint32_t flavor = otv_rd_u32(&r), length = otv_rd_u32(&r);
  unsigned num_tables = otv_rd_u16(&r), reserved = otv_rd_u16(&r);
  uint32_t total_sfnt = otv_rd_u32(&r);
  if (check_header(c, "WOFF", in.len, otv_rd_ok(&r), WOFF1_HEADER_LEN, length, reserved,
                   num_tables))
    return -1;
  if (flavor == OTV_SFNT_TTCF)
    return woff_fail(c, "WOFF header (offset 4): WOFF 1.0 cannot hold a collection");
  if (total_sfnt > c->cap)
    return over_cap(c, "WOFF header (offset 16): totalSfntSize %u", total_sfnt);
  otv_span dir;
  if (!otv_span_array(in, WOFF1_HEADER_LEN, num_tables, WOFF1_ENTRY_LEN, &dir))
    return woff_fail(c,
                     "WOFF table directory: %u entries of %u bytes run past the file's %zu bytes",
                     num_tables, WOFF1_ENTRY_LEN, in.len);
  table *t = calloc(num_tables, sizeof *t);
  uint16_t *idx = calloc(num_tables, sizeof *idx);
  int rc = -1;
  if (!t || !idx) {
    rc = woff_fail(c, "out of memory");
    goto done;
  }
  /* the decoded font: header, directory, then each table padded to 4 bytes */
  size_t total = OTV_SFNT_HEADER_LEN + OTV_SFNT_RECORD_LEN * (size_t)num_tables;
  for (unsigned i = 0; i < num_tables; i++) {
    const uint8_t *e = dir.p + WOFF1_ENTRY_LEN * (size_t)i; /* in range: dir checked above */
    uint32_t tag = otv_peek_u32(e), off = otv_peek_u32(e + 4), comp = otv_peek_u32(e + 8),
             orig = otv_peek_u32(e + 12);
    size_t at = WOFF1_HEADER_LEN + WOFF1_ENTRY_LEN * (size_t)i;
    char s[5];
    otv_tag_to_string(tag, s);
    t[i].tag = tag;
    idx[i] = (uint16_t)i;
    if (!otv_span_has(in, off, comp)) {
      rc = woff_fail(
          c,
          "WOFF table '%s' (directory entry at offset %zu): %u bytes at offset %u run past "
          "the file's %zu bytes",
          s, at, comp, off, in.len);
      goto done;
    }
    if (comp > orig) {
      rc =
          woff_fail(c,
                    "WOFF table '%s' (directory entry at offset %zu): compressed length %u exceeds "
                    "the original length %u",
                    s, at, comp, orig);
      goto done;
    }
    size_t before = total;
    if (!woff_add_len(&total, orig, true, c->cap)) { /* before anything is inflated */
      rc = over_cap(c,
                    "WOFF table '%s' (directory entry at offset %zu): origLength %u after %zu "
                    "bytes of font",
                    s, at, orig, before);
      goto done;
    }
    t[i].len = orig;
    if (comp == orig) {
      t[i].data = in.p + off; /* stored: borrowed from the input */
      continue;
    }
    t[i].owned = malloc(orig);
    if (!t[i].owned) {
      rc = woff_fail(c, "out of memory for WOFF table '%s' (%u bytes)", s, orig);
      goto done;
    }
    uLongf got = orig;
    if (uncompress(t[i].owned, &got, in.p + off, comp) != Z_OK || got != orig) {
      rc = woff_fail(
          c, "WOFF table '%s' (data at offset %u): zlib data does not inflate to its %u bytes", s,
          off, orig);
      goto done;
    }
    t[i].data = t[i].owned;
  }
  otv_sfnt_face f = {flavor, idx, num_tables};
  /* the original checkSumAdjustment held for the original table layout, not for this one */
  rc = write_sfnt(c, "WOFF table directory", t, num_tables, &f, 1, false, out, out_len);
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
  for (int i = 0; i < WOFF2_BASE128_MAX_BYTES; i++) {
    unsigned b = otv_rd_u8(r);
    /* a first byte of 0x80 is a leading zero; 7 more bits must not push bits out of acc */
    if (!otv_rd_ok(r) || (i == 0 && b == WOFF2_BASE128_MORE) || acc > UINT32_MAX >> 7) return false;
    acc = acc << 7 | (b & WOFF2_BASE128_BITS);
    if (!(b & WOFF2_BASE128_MORE)) {
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
  if (code == WOFF2_WORD_CODE)
    *v = otv_rd_u16(r);
  else if (code == WOFF2_ONE_MORE_BYTE_CODE1)
    *v = WOFF2_LOWEST_U_CODE + otv_rd_u8(r);
  else if (code == WOFF2_ONE_MORE_BYTE_CODE2)
    *v = 2 * WOFF2_LOWEST_U_CODE + otv_rd_u8(r);
  else
    *v = code;
  return otv_rd_ok(r);
}

/* One point of the glyph stream (section 5.2, the triplet encoding): the flag's low 7 bits
 * choose how many bytes follow and how the two deltas are packed (woff.h names the groups);
 * WOFF2_X_POSITIVE is the sign of x or of the only delta, WOFF2_Y_POSITIVE the sign of y. */
static bool triplet(otv_rd *g, unsigned f, int *dx, int *dy)
{
  int x, y;
  if (f < WOFF2_TRIPLET_4_4) { /* one delta of 8 bits plus 256 x (0..4) */
    int v = (int)(((f % 10) & 14) << 7) + otv_rd_u8(g);
    if (!(f & WOFF2_X_POSITIVE)) v = -v;
    *dx = f < WOFF2_TRIPLET_DX ? 0 : v;
    *dy = f < WOFF2_TRIPLET_DX ? v : 0;
    return otv_rd_ok(g);
  }
  if (f < WOFF2_TRIPLET_8_8) { /* 4 bits each, one byte, biases 1/17/33/49 */
    unsigned b0 = f - WOFF2_TRIPLET_4_4, b1 = otv_rd_u8(g);
    x = 1 + (int)(b0 & 0x30) + (int)(b1 >> 4);
    y = 1 + (int)((b0 & 0x0C) << 2) + (int)(b1 & 0x0F);
  } else if (f < WOFF2_TRIPLET_12_12) { /* 8 bits each, biases 1/257/513 */
    unsigned b0 = f - WOFF2_TRIPLET_8_8, bx = otv_rd_u8(g), by = otv_rd_u8(g);
    x = 1 + (int)((b0 / 12) << 8) + (int)bx;
    y = 1 + (int)(((b0 % 12) >> 2) << 8) + (int)by;
  } else if (f < WOFF2_TRIPLET_16_16) { /* 12 bits each in three bytes */
    unsigned a = otv_rd_u8(g), b = otv_rd_u8(g), d = otv_rd_u8(g);
    x = (int)(a << 4 | b >> 4);
    y = (int)((b & 0x0F) << 8 | d);
  } else { /* 16 bits each */
    x = otv_rd_u16(g);
    y = otv_rd_u16(g);
  }
  *dx = (f & WOFF2_X_POSITIVE) ? x : -x;
  *dy = (f & WOFF2_Y_POSITIVE) ? y : -y;
  return otv_rd_ok(g);
}

/* Room for n more bytes of the rebuilt glyf table in o, within the cap (with the other rebuilt
 * tables: c->made). */
static int glyf_room(woff_ctx *c, otv_buf *o, size_t n)
{
  size_t sum = c->made;
  if (!woff_add_len(&sum, o->len, false, c->cap) || !woff_add_len(&sum, n, false, c->cap))
    return over_cap(c, "WOFF2 'glyf': %zu rebuilt bytes after %zu of other rebuilt tables",
                    o->len + n, c->made);
  if (!otv_buf_reserve(o, n)) return woff_fail(c, "out of memory for the rebuilt 'glyf'");
  return 0;
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

static const char *const stream_name[WOFF2_STREAMS] = {
    "nContour", "nPoints", "flag", "glyph", "composite", "bbox", "instruction"};

typedef struct glyf_in {
  otv_rd s[WOFF2_STREAMS];
  const uint8_t *bbox_bits, *overlap_bits; /* woff2_bit(bits, g) is glyph g's */
} glyf_in;

static int stream_end(woff_ctx *c, const glyf_in *in, int k, unsigned g)
{
  return woff_fail(c, "WOFF2 'glyf' glyph %u: the %s stream ends (at byte %zu of %zu)", g,
                   stream_name[k], in->s[k].pos, in->s[k].s.len);
}

/* Write a simple glyph's points as glyf stores them: flags (with repeats), then x and y deltas,
 * each in one byte when it fits, none when zero. o has room for 5 bytes a point. */
static void put_points(otv_buf *o, const scratch *s, unsigned n, bool overlap)
{
  int px = 0, py = 0;
  uint8_t *fl = s->flag;
  for (unsigned i = 0; i < n; i++) {
    int dx = s->x[i] - px, dy = s->y[i] - py;
    unsigned f = fl[i]; /* ON_CURVE_POINT, set by the caller */
    if (dx == 0)
      f |= OTV_X_IS_SAME_OR_POSITIVE;
    else if (dx >= -255 && dx <= 255)
      f |= OTV_X_SHORT_VECTOR | (dx > 0 ? OTV_X_IS_SAME_OR_POSITIVE : 0);
    if (dy == 0)
      f |= OTV_Y_IS_SAME_OR_POSITIVE;
    else if (dy >= -255 && dy <= 255)
      f |= OTV_Y_SHORT_VECTOR | (dy > 0 ? OTV_Y_IS_SAME_OR_POSITIVE : 0);
    if (i == 0 && overlap) f |= OTV_OVERLAP_SIMPLE;
    fl[i] = (uint8_t)f;
    px = s->x[i];
    py = s->y[i];
  }
  /* in range: the caller reserved 5 bytes a point (a flag, two of x, two of y) */
  uint8_t *p = o->p + o->len;
  for (unsigned i = 0; i < n;) {
    unsigned run = 1;
    while (i + run < n && fl[i + run] == fl[i] && run < 256) run++;
    if (run >= 3) {
      *p++ = fl[i] | OTV_REPEAT_FLAG;
      *p++ = (uint8_t)(run - 1); /* the number of repeats */
    } else {
      for (unsigned k = 0; k < run; k++) *p++ = fl[i];
    }
    i += run;
  }
  for (int axis = 0; axis < 2; axis++) {
    const int32_t *v = axis ? s->y : s->x;
    unsigned short_bit = axis ? OTV_Y_SHORT_VECTOR : OTV_X_SHORT_VECTOR;
    unsigned same_bit = axis ? OTV_Y_IS_SAME_OR_POSITIVE : OTV_X_IS_SAME_OR_POSITIVE;
    int prev = 0;
    for (unsigned i = 0; i < n; i++) {
      int d = v[i] - prev;
      prev = v[i];
      if (fl[i] & short_bit)
        *p++ = (uint8_t)(d < 0 ? -d : d);
      else if (!(fl[i] & same_bit)) {
        otv_put_u16(p, (uint16_t)(int16_t)d);
        p += 2;
      }
    }
  }
  o->len = (size_t)(p - o->p);
}

static int simple_glyph(woff_ctx *c, glyf_in *in, scratch *s, unsigned g, unsigned n_contours,
                        otv_buf *o, int16_t *xmin)
{
  if (!scratch_fit(s, n_contours, 0)) return woff_fail(c, "out of memory");
  unsigned total = 0;
  for (unsigned k = 0; k < n_contours; k++) {
    unsigned np;
    if (!rd_255u16(&in->s[WOFF2_N_POINTS], &np)) return stream_end(c, in, WOFF2_N_POINTS, g);
    total += np;
    if (total == 0 || total > MAX_GLYPH_POINTS)
      return woff_fail(c, "WOFF2 'glyf' glyph %u: contour %u ends at point %d (must be 0..%d)", g,
                       k, (int)total - 1, MAX_GLYPH_POINTS - 1);
    s->end_pts[k] = (uint16_t)(total - 1);
  }
  if (!scratch_fit(s, n_contours, total)) return woff_fail(c, "out of memory");
  int x = 0, y = 0;
  for (unsigned i = 0; i < total; i++) {
    unsigned f = otv_rd_u8(&in->s[WOFF2_FLAG]);
    if (!otv_rd_ok(&in->s[WOFF2_FLAG])) return stream_end(c, in, WOFF2_FLAG, g);
    int dx, dy;
    if (!triplet(&in->s[WOFF2_GLYPH], f & WOFF2_FLAG_TRIPLET, &dx, &dy))
      return stream_end(c, in, WOFF2_GLYPH, g);
    x += dx;
    y += dy;
    if (x < -32768 || x > 32767 || y < -32768 || y > 32767)
      return woff_fail(c, "WOFF2 'glyf' glyph %u: point %u at (%d, %d) is outside the int16 range",
                       g, i, x, y);
    s->x[i] = x;
    s->y[i] = y;
    s->flag[i] = (f & WOFF2_FLAG_OFF_CURVE) ? 0 : (uint8_t)OTV_ON_CURVE_POINT;
  }
  unsigned ilen;
  if (!rd_255u16(&in->s[WOFF2_GLYPH], &ilen)) return stream_end(c, in, WOFF2_GLYPH, g);
  const uint8_t *ins = otv_rd_take(&in->s[WOFF2_INSTRUCTION], ilen);
  if (!ins && ilen) return stream_end(c, in, WOFF2_INSTRUCTION, g);
  int bb[4];
  if (woff2_bit(in->bbox_bits, g)) {
    for (int k = 0; k < 4; k++) bb[k] = otv_rd_i16(&in->s[WOFF2_BBOX]);
    if (!otv_rd_ok(&in->s[WOFF2_BBOX])) return stream_end(c, in, WOFF2_BBOX, g);
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
  /* header, contour ends, instructions, 5 bytes a point at most, 3 of padding */
  size_t need = 10 + 2 * (size_t)n_contours + 2 + ilen + 5 * (size_t)total + 3;
  if (glyf_room(c, o, need)) return -1;
  uint8_t *p = o->p + o->len; /* in range: reserved just above */
  otv_put_u16(p, (uint16_t)n_contours);
  for (int k = 0; k < 4; k++) otv_put_u16(p + 2 + 2 * k, (uint16_t)(int16_t)bb[k]);
  p += 10;
  for (unsigned k = 0; k < n_contours; k++, p += 2) otv_put_u16(p, s->end_pts[k]);
  otv_put_u16(p, (uint16_t)ilen);
  p += 2;
  if (ilen) memcpy(p, ins, ilen);
  o->len = (size_t)(p + ilen - o->p);
  put_points(o, s, total, woff2_bit(in->overlap_bits, g));
  return 0;
}

static int composite_glyph(woff_ctx *c, glyf_in *in, unsigned g, otv_buf *o, int16_t *xmin)
{
  if (!woff2_bit(in->bbox_bits, g))
    return woff_fail(c, "WOFF2 'glyf' glyph %u: a composite glyph without a bounding box", g);
  uint8_t bb[8];
  const uint8_t *b = otv_rd_take(&in->s[WOFF2_BBOX], 8);
  if (!b) return stream_end(c, in, WOFF2_BBOX, g);
  memcpy(bb, b, 8);
  otv_rd *cs = &in->s[WOFF2_COMPOSITE];
  size_t start = cs->pos;
  otv_glyf_comp comp;
  bool instructions = false;
  do { /* each record takes 6 bytes at least: bounded by the stream */
    if (!otv_glyf_read_comp(cs, &comp)) return stream_end(c, in, WOFF2_COMPOSITE, g);
    if (comp.flags & OTV_WE_HAVE_INSTRUCTIONS) instructions = true;
  } while (comp.flags & OTV_MORE_COMPONENTS);
  size_t clen = cs->pos - start;
  unsigned ilen = 0;
  const uint8_t *ins = NULL;
  if (instructions) {
    if (!rd_255u16(&in->s[WOFF2_GLYPH], &ilen)) return stream_end(c, in, WOFF2_GLYPH, g);
    ins = otv_rd_take(&in->s[WOFF2_INSTRUCTION], ilen);
    if (!ins && ilen) return stream_end(c, in, WOFF2_INSTRUCTION, g);
  }
  *xmin = (int16_t)otv_peek_u16(bb);
  if (glyf_room(c, o, 10 + clen + 2 + ilen + 3)) return -1;
  /* in range: reserved just above */
  otv_put_u16(o->p + o->len, (uint16_t)WOFF2_COMPOSITE_N_CONTOURS);
  memcpy(o->p + o->len + 2, bb, 8);
  memcpy(o->p + o->len + 10, cs->s.p + start, clen);
  o->len += 10 + clen;
  if (instructions) {
    otv_put_u16(o->p + o->len, (uint16_t)ilen);
    if (ilen) memcpy(o->p + o->len + 2, ins, ilen);
    o->len += 2 + ilen;
  }
  return 0;
}

/* Rebuild glyf and loca from the transformed glyf table (section 5.1). */
static int glyf_rebuild(woff_ctx *c, table *glyf, table *loca, const uint8_t *src)
{
  otv_span t = otv_span_of(src, glyf->src_len);
  otv_rd h = otv_rd_init(t, 2); /* after reserved */
  unsigned option_flags = otv_rd_u16(&h), n = otv_rd_u16(&h), index_format = otv_rd_u16(&h);
  uint32_t size[WOFF2_STREAMS];
  for (int k = 0; k < WOFF2_STREAMS; k++) size[k] = otv_rd_u32(&h);
  if (!otv_rd_ok(&h))
    return woff_fail(c,
                     "WOFF2 'glyf': the transformed table's %zu bytes are fewer than its %u-byte "
                     "header",
                     t.len, WOFF2_GLYF_HEADER_LEN);
  if (index_format > 1)
    return woff_fail(c, "WOFF2 'glyf' (offset 6): indexFormat %u (must be 0 or 1)", index_format);
  glyf_in in = {0};
  size_t off = WOFF2_GLYF_HEADER_LEN;
  for (int k = 0; k < WOFF2_STREAMS; k++) {
    otv_span s;
    if (!otv_span_sub(t, off, size[k], &s))
      return woff_fail(c,
                       "WOFF2 'glyf': the %s stream (%u bytes at offset %zu) runs past the table's "
                       "%zu bytes",
                       stream_name[k], size[k], off, t.len);
    in.s[k] = otv_rd_init(s, 0);
    off += size[k];
  }
  size_t bits_len = (((size_t)n + 31) >> 5) << 2; /* spec: 4 * floor((numGlyphs + 31) / 32) */
  if (size[WOFF2_BBOX] < bits_len)
    return woff_fail(c, "WOFF2 'glyf': the bbox stream's %u bytes cannot hold its %zu-byte bitmap",
                     size[WOFF2_BBOX], bits_len);
  in.bbox_bits = in.s[WOFF2_BBOX].s.p;
  in.s[WOFF2_BBOX].pos = bits_len;
  if (option_flags & WOFF2_OVERLAP_SIMPLE_BITMAP) {
    otv_span ov;
    if (!otv_span_sub(t, off, ((size_t)n + 7) >> 3, &ov))
      return woff_fail(c,
                       "WOFF2 'glyf': the overlap bitmap (%zu bytes at offset %zu) runs past the "
                       "table's %zu bytes",
                       ((size_t)n + 7) >> 3, off, t.len);
    in.overlap_bits = ov.p;
  }
  size_t loca_len = ((size_t)n + 1) * (index_format ? 4 : 2);
  if (loca->orig_len != loca_len)
    return woff_fail(c, "WOFF2 'loca': origLength %u, but %u glyphs in format %u take %zu bytes",
                     loca->orig_len, n, index_format, loca_len);
  uint32_t *offs = malloc(((size_t)n + 1) * sizeof *offs);
  glyf->xmin = calloc(n ? n : 1, sizeof *glyf->xmin);
  otv_buf o;
  otv_buf_init(&o, &c->al);
  scratch s = {0};
  int rc = -1;
  if (!offs || !glyf->xmin) {
    rc = woff_fail(c, "out of memory");
    goto done;
  }
  size_t align = index_format ? 4 : 2; /* short offsets count 2-byte words */
  for (unsigned g = 0; g < n; g++) {
    offs[g] = (uint32_t)o.len;
    int nc = otv_rd_i16(&in.s[WOFF2_N_CONTOUR]);
    if (!otv_rd_ok(&in.s[WOFF2_N_CONTOUR])) {
      rc = stream_end(c, &in, WOFF2_N_CONTOUR, g);
      goto done;
    }
    if (nc == 0) {
      if (woff2_bit(in.bbox_bits, g)) {
        rc = woff_fail(c, "WOFF2 'glyf' glyph %u: an empty glyph with a bounding box", g);
        goto done;
      }
      continue;
    }
    if (nc > 0)
      rc = simple_glyph(c, &in, &s, g, (unsigned)nc, &o, &glyf->xmin[g]);
    else if (nc == (int16_t)WOFF2_COMPOSITE_N_CONTOURS)
      rc = composite_glyph(c, &in, g, &o, &glyf->xmin[g]);
    else
      rc = woff_fail(c, "WOFF2 'glyf' glyph %u: numberOfContours %d", g, nc);
    if (rc) goto done;
    while (o.len % align) o.p[o.len++] = 0; /* in range: every glyph reserved 3 bytes more */
  }
  offs[n] = (uint32_t)o.len;
  if (!index_format && o.len > SHORT_LOCA_MAX_GLYF) {
    rc = woff_fail(c, "WOFF2 'glyf': the rebuilt table's %zu bytes do not fit short loca offsets",
                   o.len);
    goto done;
  }
  if (charge(c, "glyf", o.len) || charge(c, "loca", loca_len)) goto done;
  loca->owned = malloc(loca_len);
  if (!loca->owned) {
    rc = woff_fail(c, "out of memory");
    goto done;
  }
  for (unsigned g = 0; g <= n; g++) {
    if (index_format)
      otv_put_u32(loca->owned + 4 * (size_t)g, offs[g]);
    else
      otv_put_u16(loca->owned + 2 * (size_t)g, (uint16_t)(offs[g] / 2));
  }
  loca->data = loca->owned;
  loca->len = loca_len;
  loca->transformed = false;
  glyf->owned = o.p; /* allocated by libc (c->al): freed with the tables */
  o.p = NULL;
  glyf->data = glyf->owned;
  glyf->len = o.len;
  glyf->glyph_count = n;
  glyf->transformed = false;
  rc = 0;
done:
  free(offs);
  otv_buf_free(&o);
  free(s.end_pts);
  free(s.x);
  free(s.y);
  free(s.flag);
  return rc;
}

/* Rebuild hmtx from its transformed form (section 5.4): side bearings left out are the glyphs'
 * xMin. */
static int hmtx_rebuild(woff_ctx *c, table *hmtx, const table *hhea, const table *glyf,
                        const uint8_t *src)
{
  if (!glyf || glyf->transformed || !glyf->xmin)
    return woff_fail(c,
                     "WOFF2 'hmtx': transformed, but the font's 'glyf' is not (the transform takes "
                     "side bearings from glyf)");
  if (!hhea || hhea->transformed || hhea->len < HHEA_LEN)
    return woff_fail(c, "WOFF2 'hmtx': transformed, but the font has no complete 'hhea'");
  /* in range: hhea's length checked just above */
  unsigned nh = otv_peek_u16(hhea->data + HHEA_NUMBER_OF_HMETRICS_OFF);
  unsigned n = glyf->glyph_count;
  if (nh == 0 || nh > n)
    return woff_fail(c, "WOFF2 'hmtx': hhea.numberOfHMetrics %u with %u glyphs", nh, n);
  otv_rd r = otv_rd_init(otv_span_of(src, hmtx->src_len), 0);
  unsigned flags = otv_rd_u8(&r);
  /* spec: reserved bits 0; with neither array left out, the transform must not be used */
  if ((flags & HMTX_RESERVED_FLAGS) || !(flags & (HMTX_NO_LSB | HMTX_NO_LEFT_SIDE_BEARING)))
    return woff_fail(c, "WOFF2 'hmtx' (offset 0): transform flags 0x%02x", flags);
  const uint8_t *adv = otv_rd_take(&r, 2 * (size_t)nh);
  const uint8_t *lsb = (flags & HMTX_NO_LSB) ? NULL : otv_rd_take(&r, 2 * (size_t)nh);
  const uint8_t *lsb2 =
      (flags & HMTX_NO_LEFT_SIDE_BEARING) ? NULL : otv_rd_take(&r, 2 * (size_t)(n - nh));
  if (!otv_rd_ok(&r))
    return woff_fail(
        c, "WOFF2 'hmtx': the transformed table's %zu bytes end at %zu, inside its arrays", r.s.len,
        r.bad_at);
  size_t len = 4 * (size_t)nh + 2 * (size_t)(n - nh);
  /* 3 stored bytes can stand for 128 KiB of hmtx: charged, so that many hmtx tables sharing one
   * glyf cannot make work and memory grow as (tables x glyphs) */
  if (charge(c, "hmtx", len)) return -1;
  hmtx->owned = malloc(len ? len : 1);
  if (!hmtx->owned) return woff_fail(c, "out of memory");
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
    otv_put_u16(p, (uint16_t)side);
    p += 2;
  }
  hmtx->data = hmtx->owned;
  hmtx->len = len;
  hmtx->transformed = false;
  return 0;
}

static int find_tag(const table *t, const otv_sfnt_face *f, uint32_t tag)
{
  for (unsigned k = 0; k < f->table_count; k++)
    if (t[f->table_idx[k]].tag == tag) return f->table_idx[k];
  return -1;
}

/* Undo the transforms each font's tables carry. */
static int untransform(woff_ctx *c, table *t, unsigned nt, const otv_sfnt_face *fonts, unsigned nf,
                       const uint8_t *stream)
{
  for (unsigned f = 0; f < nf; f++) {
    int gi = find_tag(t, &fonts[f], OTV_T_GLYF), li = find_tag(t, &fonts[f], OTV_T_LOCA);
    bool gx = gi >= 0 && t[gi].xform_in, lx = li >= 0 && t[li].xform_in;
    if (gx != lx)
      return woff_fail(c, "WOFF2 font %u: 'glyf' and 'loca' must both be transformed or neither",
                       f);
    if (!gx) continue;
    if (t[gi].loca_partner == li) continue; /* a collection's fonts sharing the pair */
    if (t[gi].loca_partner >= 0 || !t[li].transformed)
      return woff_fail(c,
                       "WOFF2 font %u: its transformed 'glyf' and 'loca' are paired differently in "
                       "another font",
                       f);
    if (glyf_rebuild(c, &t[gi], &t[li], stream + t[gi].src_off)) return -1;
    t[gi].loca_partner = li;
  }
  for (unsigned f = 0; f < nf; f++) {
    int mi = find_tag(t, &fonts[f], OTV_T_HMTX);
    if (mi >= 0 && t[mi].transformed) {
      int hi = find_tag(t, &fonts[f], OTV_T_HHEA), gi = find_tag(t, &fonts[f], OTV_T_GLYF);
      if (hmtx_rebuild(c, &t[mi], hi >= 0 ? &t[hi] : NULL, gi >= 0 ? &t[gi] : NULL,
                       stream + t[mi].src_off))
        return -1;
    }
  }
  for (unsigned i = 0; i < nt; i++)
    if (t[i].transformed) {
      char s[5];
      otv_tag_to_string(t[i].tag, s);
      return woff_fail(
          c,
          "WOFF2 table '%s' (directory entry %u): transformed, but no font of the file "
          "lets it be rebuilt",
          s, i);
    }
  return 0;
}

/* The table directory (section 5): fills t, returns the offset after it, or 0 on error.
 * *stream_len: the decompressed stream's size (the stored lengths); *sfnt_len: the tables'
 * origLengths, each padded to 4, added to it. Both sums are checked against the cap here, before
 * anything is allocated for them. */
static size_t read_directory(woff_ctx *c, otv_span in, table *t, unsigned n, size_t *stream_len,
                             size_t *sfnt_len)
{
  otv_rd r = otv_rd_init(in, WOFF2_HEADER_LEN);
  size_t total = 0;
  for (unsigned i = 0; i < n; i++) {
    size_t at = r.pos;
    unsigned flags = otv_rd_u8(&r), known = flags & WOFF2_TAG_INDEX_MASK;
    uint32_t tag = known == WOFF2_TAG_FOLLOWS ? otv_rd_u32(&r) : woff2_known_tags[known];
    unsigned version = flags >> WOFF2_XFORM_SHIFT;
    uint32_t orig = 0, xlen = 0;
    char s[5];
    otv_tag_to_string(tag, s);
    if (!otv_rd_ok(&r) || !rd_base128(&r, &orig)) {
      woff_fail(c, "WOFF2 table directory entry %u (offset %zu): truncated or a bad UIntBase128", i,
                at);
      return 0;
    }
    bool glyf_loca = tag == OTV_T_GLYF || tag == OTV_T_LOCA;
    bool hmtx_xform = version == WOFF2_XFORM_HMTX && tag == OTV_T_HMTX;
    bool known_version = glyf_loca ? version == WOFF2_XFORM_GLYF || version == WOFF2_XFORM_GLYF_NULL
                                   : version == WOFF2_XFORM_NULL || hmtx_xform;
    bool xf = glyf_loca ? version == WOFF2_XFORM_GLYF : version == WOFF2_XFORM_HMTX;
    if (!known_version) {
      woff_fail(c,
                "WOFF2 table '%s' (directory entry %u, offset %zu): unknown transform version %u",
                s, i, at, version);
      return 0;
    }
    if (xf && !rd_base128(&r, &xlen)) {
      woff_fail(c,
                "WOFF2 table '%s' (directory entry %u, offset %zu): truncated or a bad "
                "transformLength",
                s, i, at);
      return 0;
    }
    if (xf && tag == OTV_T_LOCA && xlen != 0) {
      woff_fail(
          c, "WOFF2 table 'loca' (directory entry %u, offset %zu): transformLength %u (must be 0)",
          i, at, xlen);
      return 0;
    }
    size_t stored = xf ? xlen : orig;
    size_t before = *sfnt_len;
    if (!woff_add_len(sfnt_len, orig, true, c->cap)) {
      over_cap(c,
               "WOFF2 table '%s' (directory entry %u, offset %zu): origLength %u after %zu bytes",
               s, i, at, orig, before);
      return 0;
    }
    size_t src_off = total;
    if (!woff_add_len(&total, stored, false, c->cap)) {
      over_cap(c,
               "WOFF2 table '%s' (directory entry %u, offset %zu): %zu stored bytes after %zu of "
               "table data",
               s, i, at, stored, total);
      return 0;
    }
    t[i].tag = tag;
    t[i].transformed = xf;
    t[i].xform_in = xf;
    t[i].orig_len = orig;
    t[i].src_off = src_off;
    t[i].src_len = stored;
    t[i].loca_partner = -1;
  }
  *stream_len = total;
  return r.pos;
}

/* The collection directory (section 5.3): the fonts and their table indices. Returns the offset
 * after it, or 0 on error. */
static size_t read_collection(woff_ctx *c, otv_span in, size_t at, unsigned nt, otv_sfnt_face **out,
                              unsigned *nf, size_t *sfnt_len)
{
  otv_rd r = otv_rd_init(in, at);
  uint32_t version = otv_rd_u32(&r); /* the TTC header's version */
  unsigned n;
  if (!rd_255u16(&r, &n) || (version != OTV_TTC_VERSION_1_0 && version != OTV_TTC_VERSION_2_0) ||
      n == 0) {
    woff_fail(c, "WOFF2 collection directory (offset %zu): truncated, version 0x%08x or %u fonts",
              at, version, otv_rd_ok(&r) ? n : 0);
    return 0;
  }
  otv_sfnt_face *f = calloc(n, sizeof *f);
  if (!f) {
    woff_fail(c, "out of memory");
    return 0;
  }
  *out = f;
  *nf = n;
  for (unsigned i = 0; i < n; i++) {
    size_t fat = r.pos;
    unsigned count;
    bool ok = rd_255u16(&r, &count);
    f[i].version = otv_rd_u32(&r); /* flavor */
    if (!ok || !otv_rd_ok(&r) || count == 0 || count > nt) {
      woff_fail(c, "WOFF2 collection font %u (offset %zu): truncated or %u tables of %u", i, fat,
                ok ? count : 0, nt);
      return 0;
    }
    f[i].table_idx = calloc(count, sizeof *f[i].table_idx);
    if (!f[i].table_idx) {
      woff_fail(c, "out of memory");
      return 0;
    }
    f[i].table_count = count;
    /* the TTC header's offset to it and its directory in the decoded collection */
    if (!woff_add_len(sfnt_len, 4 + OTV_SFNT_HEADER_LEN + OTV_SFNT_RECORD_LEN * (uint64_t)count,
                      false, c->cap)) {
      over_cap(c, "WOFF2 collection font %u (offset %zu): a directory of %u tables after %zu bytes",
               i, fat, count, *sfnt_len);
      return 0;
    }
    for (unsigned k = 0; k < count; k++) {
      unsigned v;
      if (!rd_255u16(&r, &v) || v >= nt) {
        woff_fail(c, "WOFF2 collection font %u (offset %zu): table index %u of %u", i, fat, v, nt);
        return 0;
      }
      f[i].table_idx[k] = (uint16_t)v;
    }
  }
  return r.pos;
}

static int decode_woff2(woff_ctx *c, otv_span in, uint8_t **out, size_t *out_len)
{
  otv_rd r = otv_rd_init(in, 4);
  uint32_t flavor = otv_rd_u32(&r), length = otv_rd_u32(&r);
  unsigned num_tables = otv_rd_u16(&r), reserved = otv_rd_u16(&r);
  uint32_t total_sfnt = otv_rd_u32(&r); /* a hint: checked against the cap, not trusted */
  uint32_t compressed = otv_rd_u32(&r);
  if (check_header(c, "WOFF2", in.len, otv_rd_ok(&r), WOFF2_HEADER_LEN, length, reserved,
                   num_tables))
    return -1;
  if (total_sfnt > c->cap)
    return over_cap(c, "WOFF2 header (offset 16): totalSfntSize %u", total_sfnt);
  table *t = calloc(num_tables, sizeof *t);
  otv_sfnt_face *fonts = NULL;
  unsigned nf = 0;
  uint8_t *stream = NULL;
  int rc = -1;
  if (!t) {
    rc = woff_fail(c, "out of memory");
    goto done;
  }
  bool collection = flavor == OTV_SFNT_TTCF;
  /* the decoded font's size as announced: the TTC header or the one font's directory, then the
   * tables (read_directory) and a collection's directories (read_collection) */
  size_t stream_len = 0,
         sfnt_len = collection ? OTV_TTC_HEADER_LEN
                               : OTV_SFNT_HEADER_LEN + OTV_SFNT_RECORD_LEN * (size_t)num_tables;
  size_t at = read_directory(c, in, t, num_tables, &stream_len, &sfnt_len);
  if (!at) goto done;
  if (collection) {
    at = read_collection(c, in, at, num_tables, &fonts, &nf, &sfnt_len);
    if (!at) goto done;
  } else {
    fonts = calloc(1, sizeof *fonts);
    uint16_t *idx = calloc(num_tables, sizeof *idx);
    if (!fonts || !idx) {
      free(idx);
      rc = woff_fail(c, "out of memory");
      goto done;
    }
    nf = 1;
    fonts[0] = (otv_sfnt_face){flavor, idx, num_tables};
    for (unsigned i = 0; i < num_tables; i++) idx[i] = (uint16_t)i;
  }
  if (!otv_span_has(in, at, compressed)) {
    rc = woff_fail(c, "WOFF2 compressed data: %u bytes at offset %zu run past the file's %zu bytes",
                   compressed, at, in.len);
    goto done;
  }
  stream = malloc(stream_len ? stream_len : 1);
  if (!stream) {
    rc = woff_fail(c, "out of memory for %zu bytes of WOFF2 table data", stream_len);
    goto done;
  }
  size_t got = stream_len;
  if (BrotliDecoderDecompress(compressed, in.p + at, &got, stream) !=
          BROTLI_DECODER_RESULT_SUCCESS ||
      got != stream_len) {
    rc = woff_fail(c,
                   "WOFF2 compressed data (offset %zu, %u bytes): not a Brotli stream of the %zu "
                   "bytes the table directory announces",
                   at, compressed, stream_len);
    goto done;
  }
  for (unsigned i = 0; i < num_tables; i++)
    if (!t[i].transformed) {
      t[i].data = stream + t[i].src_off;
      t[i].len = t[i].src_len;
    }
  if (untransform(c, t, num_tables, fonts, nf, stream)) goto done;
  rc = write_sfnt(c, collection ? "WOFF2 collection directory" : "WOFF2 table directory", t,
                  num_tables, fonts, nf, collection, out, out_len);
done:
  free_tables(t, num_tables);
  for (unsigned f = 0; fonts && f < nf; f++) free(fonts[f].table_idx);
  free(fonts);
  free(stream);
  return rc;
}

#endif /* OTV_HAVE_BROTLI */

int woff_decode(const uint8_t *in, size_t len, uint8_t **out, size_t *out_len, char *err,
                size_t err_len)
{
  woff_ctx c;
  woff_ctx_init(&c, err, err_len);
  *out = NULL;
  *out_len = 0;
  if (!woff_is_woff(in, len)) return woff_fail(&c, "not a WOFF or WOFF2 file");
  otv_span s = otv_span_of(in, len);
  c.in_len = len;
  c.cap = woff_decode_cap(len);
  if (otv_peek_u32(in) == OTV_SFNT_WOFF) return decode_woff1(&c, s, out, out_len);
#ifdef OTV_HAVE_BROTLI
  return decode_woff2(&c, s, out, out_len);
#else
  return woff_fail(&c, "WOFF2: this build of otvar has no Brotli (decompress the font with "
                       "woff2_decompress)");
#endif
}

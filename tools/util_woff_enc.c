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
 * The input's table directory is read by core/sfnt.h's otv_sfnt_open (an error is the library's
 * message), its loca by glyf.h's otv_glyf_parse and otv_loca_get, simple glyphs by
 * otv_glyf_load_default, composite glyph records by otv_glyf_read_comp; table checksums are
 * core/sfnt.h's. A glyph the encoder cannot parse (data past its table) is an error naming the
 * table and glyph. Output grows in core/writer.h's
 * otv_buf.
 */
#include "woff.h"

#include "core/reader.h"
#include "core/sfnt.h"
#include "core/writer.h"
#include "glyf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(OTV_HAVE_ZLIB)
#  include <zlib.h>
#endif
#if defined(OTV_HAVE_BROTLI_ENC)
#  include <brotli/encode.h>
#endif

/* The encoder's limit on the input's table directory (DSIG included): real fonts have a few
 * dozen tables. */
#define MAX_TABLES 256
/* spec (OpenType head, maxp): the fields the glyf transform reads or sets */
#define HEAD_LEN 54u
#define HEAD_FLAGS_OFF 16u                   /* uint16 flags */
#define HEAD_FLAG_LOSSLESS_TRANSFORM 0x0800u /* bit 11: "lossless" after an optimizing transform */
#define HEAD_INDEX_TO_LOC_FORMAT_OFF 50u     /* int16 indexToLocFormat */
#define LOCA_LONG 1u                         /* indexToLocFormat 1: Offset32 */
#define MAXP_MIN_LEN 6u
#define MAXP_NUM_GLYPHS_OFF 4u /* uint16 numGlyphs */

/* 255UInt16: one byte below 253, then the two one-byte escapes, then a word. */
OTV_MAYBE_UNUSED static void wb_255u16(otv_buf *b, unsigned v)
{
  if (v < WOFF2_LOWEST_U_CODE) {
    otv_buf_u8(b, (uint8_t)v);
  } else if (v < 2 * WOFF2_LOWEST_U_CODE) {
    otv_buf_u8(b, WOFF2_ONE_MORE_BYTE_CODE1);
    otv_buf_u8(b, (uint8_t)(v - WOFF2_LOWEST_U_CODE));
  } else if (v < 2 * WOFF2_LOWEST_U_CODE + 256) {
    otv_buf_u8(b, WOFF2_ONE_MORE_BYTE_CODE2);
    otv_buf_u8(b, (uint8_t)(v - 2 * WOFF2_LOWEST_U_CODE));
  } else {
    otv_buf_u8(b, WOFF2_WORD_CODE);
    otv_buf_u16(b, (uint16_t)v);
  }
}
/* UIntBase128: 7 bits per byte, most significant first, no leading zero bytes. */
OTV_MAYBE_UNUSED static void wb_base128(otv_buf *b, uint32_t v)
{
  uint8_t x[WOFF2_BASE128_MAX_BYTES];
  int n = 0;
  do {
    x[WOFF2_BASE128_MAX_BYTES - 1 - n] =
        (uint8_t)((v & WOFF2_BASE128_BITS) | (n ? WOFF2_BASE128_MORE : 0));
    v >>= 7;
    n++;
  } while (v);
  otv_buf_bytes(b, x + WOFF2_BASE128_MAX_BYTES - n, (size_t)n);
}

/* ---- the input font ---- */

typedef struct in_font {
  otv_sfnt sfnt; /* the input's table directory: checked, sorted by tag */
  uint32_t flavor;
  unsigned count; /* tables kept: all but DSIG, sorted by tag */
  otv_sfnt_table t[MAX_TABLES];
} in_font;

static void free_font(woff_ctx *c, in_font *f)
{
  if (!f) return;
  otv_sfnt_close(&f->sfnt, &c->al);
  free(f);
}

/* The font's tables, sorted by tag (malloc'd: 6 KiB off the stack, as instances run in
 * threads), or NULL with the error set. The input may not exceed WOFF_MAX_SFNT (the decoder's
 * limit: what it could not decode is not encoded). */
OTV_MAYBE_UNUSED static in_font *load_font(woff_ctx *c, const uint8_t *sfnt, size_t len)
{
  if (len > WOFF_MAX_SFNT) {
    woff_fail(c, "a font of %zu bytes (at most %zu MiB)", len, WOFF_MAX_SFNT >> 20);
    return NULL;
  }
  if (len >= 4 && otv_peek_u32(sfnt) == OTV_SFNT_TTCF) {
    woff_fail(c, "a font collection: compress its fonts one by one");
    return NULL;
  }
  in_font *f = malloc(sizeof *f);
  if (!f) {
    woff_fail(c, "out of memory");
    return NULL;
  }
  otv_error e = {0};
  unsigned n;
  if (otv_sfnt_open(&f->sfnt, otv_span_of(sfnt, len), 0, &c->al, &e)) {
    otv_error_format(&e, c->err, c->err_len); /* as the CLI prints the library's errors */
  } else if ((n = f->sfnt.table_count) == 0 || n > MAX_TABLES) {
    woff_fail(c, "table directory: %u tables", n);
  } else {
    f->flavor = f->sfnt.version;
    f->count = 0;
    /* the font as written (header, directory, tables padded to 4): table records may overlap,
     * so 256 records of one 17 MiB table would sum past 4 GiB and wrap the 32-bit sizes of the
     * WOFF header and directory. Checked sum, within WOFF_MAX_SFNT. */
    size_t sum = OTV_SFNT_HEADER_LEN + OTV_SFNT_RECORD_LEN * (size_t)n;
    bool fits = true;
    for (unsigned i = 0; i < n && fits; i++) {
      uint32_t tag = f->sfnt.tables[i].tag;
      if (tag == OTV_T_DSIG) continue; /* dropped: see the file comment */
      otv_span d = otv_sfnt_find(&f->sfnt, tag);
      f->t[f->count++] = (otv_sfnt_table){tag, d.p, d.len};
      size_t before = sum;
      if (!woff_add_len(&sum, d.len, true, WOFF_MAX_SFNT)) {
        char s[5];
        otv_tag_to_string(tag, s);
        woff_fail(
            c,
            "table directory: table '%s' (%zu bytes) after %zu bytes of tables: more than %zu "
            "MiB (overlapping tables?)",
            s, d.len, before, WOFF_MAX_SFNT >> 20);
        fits = false;
      }
    }
    if (fits && f->count) return f;
    if (!fits) {
      free_font(c, f);
      return NULL;
    }
    /* a WOFF file without tables is no font: decoders refuse it */
    woff_fail(c, "table directory: no table but DSIG");
  }
  free_font(c, f);
  return NULL;
}

/* The input's table `tag` (p NULL when absent). */
OTV_MAYBE_UNUSED static otv_span find(const in_font *f, uint32_t tag)
{
  return otv_sfnt_find(&f->sfnt, tag);
}

/* ---- WOFF 1.0 ---- */

/* The WOFF header both formats start with, up to totalSfntSize (length patched at the end). */
OTV_MAYBE_UNUSED static void put_header_start(otv_buf *b, uint32_t signature, const in_font *f,
                                              uint32_t sfnt_size)
{
  otv_buf_u32(b, signature);
  otv_buf_u32(b, f->flavor);
  otv_buf_u32(b, 0); /* length: patched at the end */
  otv_buf_u16(b, (uint16_t)f->count);
  otv_buf_u16(b, 0); /* reserved */
  otv_buf_u32(b, sfnt_size);
}

/* majorVersion, minorVersion and no metadata, no private data: the WOFF header's last fields. */
OTV_MAYBE_UNUSED static void put_header_end(otv_buf *b)
{
  otv_buf_u16(b, WOFF_FILE_MAJOR_VERSION);
  otv_buf_u16(b, WOFF_FILE_MINOR_VERSION);
  otv_buf_zeros(b, 5 * 4); /* metaOffset, metaLength, metaOrigLength, privOffset, privLength */
}

/* Hand the finished file over: its length field set, *out (allocated by libc, c->al: the caller
 * free()s it) and *out_len. Returns 0, or -1 when a buffer of it ran out of memory (failed). */
OTV_MAYBE_UNUSED static int hand_over(woff_ctx *c, otv_buf *file, bool failed, uint8_t **out,
                                      size_t *out_len)
{
  if (failed || file->failed) return woff_fail(c, "out of memory");
  otv_buf_put_u32(file, WOFF_LENGTH_OFF, (uint32_t)file->len);
  *out = file->p;
  *out_len = file->len;
  file->p = NULL;
  return 0;
}

int woff1_encode(const uint8_t *sfnt, size_t len, uint8_t **out, size_t *out_len, char *err,
                 size_t err_len)
{
  woff_ctx c;
  woff_ctx_init(&c, err, err_len);
  *out = NULL;
#ifndef OTV_HAVE_ZLIB
  (void)sfnt, (void)len, (void)out_len;
  return woff_fail(&c, "this build of otvar has no zlib");
#else
  in_font *f = load_font(&c, sfnt, len);
  if (!f) return -1;
  otv_buf hdr, data;
  otv_buf_init(&hdr, &c.al);
  otv_buf_init(&data, &c.al);
  size_t dir_end = WOFF1_HEADER_LEN + WOFF1_ENTRY_LEN * (size_t)f->count;
  otv_sfnt_face face = {f->flavor, NULL, f->count};
  uint64_t sfnt_size = otv_sfnt_file_len(f->t, f->count, &face, 1, false);
  uint8_t *z = NULL;
  int rc = -1;
  put_header_start(&hdr, OTV_SFNT_WOFF, f, (uint32_t)sfnt_size);
  put_header_end(&hdr);
  for (unsigned i = 0; i < f->count; i++) {
    const otv_sfnt_table *t = &f->t[i];
    uLongf zlen = compressBound((uLong)t->len);
    free(z);
    z = malloc(zlen);
    if (!z || compress2(z, &zlen, t->data, (uLong)t->len, Z_BEST_COMPRESSION) != Z_OK) {
      rc = woff_fail(&c, "zlib could not compress a table of %zu bytes", t->len);
      goto done;
    }
    bool packed = zlen < t->len;
    size_t off = dir_end + data.len;
    otv_buf_u32(&hdr, t->tag);
    otv_buf_u32(&hdr, (uint32_t)off);
    otv_buf_u32(&hdr, (uint32_t)(packed ? zlen : t->len)); /* compLength */
    otv_buf_u32(&hdr, (uint32_t)t->len);                   /* origLength */
    otv_buf_u32(&hdr, otv_sfnt_table_checksum(t->tag, t->data, t->len));
    otv_buf_bytes(&data, packed ? z : t->data, packed ? zlen : t->len);
    otv_buf_pad4(&data); /* the last too: OTS checks the file length */
  }
  otv_buf_bytes(&hdr, data.p, data.len);
  rc = hand_over(&c, &hdr, data.failed, out, out_len);
done:
  free_font(&c, f);
  free(z);
  otv_buf_free(&hdr);
  otv_buf_free(&data);
  return rc;
#endif
}

/* ---- WOFF 2.0 ---- */

#ifdef OTV_HAVE_BROTLI_ENC

typedef struct glyf_out {
  otv_buf s[WOFF2_STREAMS];
  uint8_t *bbox_bits, *overlap_bits;
  bool any_overlap;
} glyf_out;

/* The triplet of one point (the inverse of the decoder's table): the smallest encoding of the
 * deltas. The flag byte (WOFF2_FLAG_OFF_CURVE: off the curve) goes to the flag stream, the rest
 * to the glyph stream. */
static void put_triplet(glyf_out *o, bool on, int dx, int dy)
{
  unsigned ax = (unsigned)(dx < 0 ? -dx : dx), ay = (unsigned)(dy < 0 ? -dy : dy);
  unsigned on_bit = on ? 0 : WOFF2_FLAG_OFF_CURVE;
  unsigned xs = dx >= 0 ? WOFF2_X_POSITIVE : 0, ys = dy >= 0 ? WOFF2_Y_POSITIVE : 0;
  otv_buf *fl = &o->s[WOFF2_FLAG], *g = &o->s[WOFF2_GLYPH];
  if (dx == 0 && ay < 1280) {
    /* the only delta's sign is WOFF2_X_POSITIVE's bit */
    otv_buf_u8(fl, (uint8_t)(on_bit + WOFF2_TRIPLET_DY + ((ay >> 8) << 1) + (dy >= 0 ? 1 : 0)));
    otv_buf_u8(g, (uint8_t)(ay & 0xFF));
  } else if (dy == 0 && ax < 1280) {
    otv_buf_u8(fl, (uint8_t)(on_bit + WOFF2_TRIPLET_DX + ((ax >> 8) << 1) + xs));
    otv_buf_u8(g, (uint8_t)(ax & 0xFF));
  } else if (ax && ay && ax <= 64 && ay <= 64) {
    unsigned bx = ax - 1, by = ay - 1;
    unsigned high = (bx & 0x30) + ((by & 0x30) >> 2); /* the deltas' bits 4-5 */
    otv_buf_u8(fl, (uint8_t)(on_bit + WOFF2_TRIPLET_4_4 + high + xs + ys));
    otv_buf_u8(g, (uint8_t)((bx & 0x0F) << 4 | (by & 0x0F)));
  } else if (ax && ay && ax <= 768 && ay <= 768) {
    unsigned bx = ax - 1, by = ay - 1;
    unsigned high = 12 * (bx >> 8) + ((by >> 8) << 2); /* the deltas' bits 8-9 */
    otv_buf_u8(fl, (uint8_t)(on_bit + WOFF2_TRIPLET_8_8 + high + xs + ys));
    otv_buf_u8(g, (uint8_t)(bx & 0xFF));
    otv_buf_u8(g, (uint8_t)(by & 0xFF));
  } else if (ax < 4096 && ay < 4096) {
    otv_buf_u8(fl, (uint8_t)(on_bit + WOFF2_TRIPLET_12_12 + xs + ys));
    otv_buf_u8(g, (uint8_t)(ax >> 4));
    otv_buf_u8(g, (uint8_t)((ax & 0x0F) << 4 | ay >> 8));
    otv_buf_u8(g, (uint8_t)(ay & 0xFF));
  } else {
    otv_buf_u8(fl, (uint8_t)(on_bit + WOFF2_TRIPLET_16_16 + xs + ys));
    otv_buf_u16(g, (uint16_t)ax);
    otv_buf_u16(g, (uint16_t)ay);
  }
}

static int glyph_fail(woff_ctx *c, unsigned g, const char *what)
{
  return woff_fail(c, "'glyf' glyph %u: %s", g, what);
}

/* One simple glyph (d: its glyf record, numberOfContours nc > 0), decoded by glyf.c's
 * otv_glyf_load_default (ld: a default location's glyf state over the font's glyf and loca):
 * its points are exact there (int16 sums in float), its flag bytes as stored. */
static int put_simple(woff_ctx *c, glyf_out *o, otv_glyf_loc *ld, otv_span d, unsigned g,
                      unsigned nc)
{
  if (otv_glyf_load_default(ld, g)) return woff_fail(c, "'glyf' %s", ld->x.err->msg);
  otv_span ins;
  if (!otv_glyf_simple_instructions(d, nc, &ins)) /* checked by otv_glyf_load_default */
    return glyph_fail(c, g, "header or instructions past its data");
  unsigned n = ld->n_pts - 4; /* without the phantom points */
  otv_buf_u16(&o->s[WOFF2_N_CONTOUR], (uint16_t)nc);
  for (unsigned k = 0, prev = 0; k < ld->n_ends; k++) { /* increasing (otv_glyf_load_default) */
    unsigned e = ld->ends[k] + 1u;
    wb_255u16(&o->s[WOFF2_N_POINTS], e - prev);
    prev = e;
  }
  int px = 0, py = 0, lo_x = 0, lo_y = 0, hi_x = 0, hi_y = 0;
  for (unsigned i = 0; i < n; i++) {
    float fx = ld->pts[i].x, fy = ld->pts[i].y;
    /* as the decoder: triplets rebuild int16 coordinates */
    if (fx < -32768 || fx > 32767 || fy < -32768 || fy > 32767)
      return woff_fail(c, "'glyf' glyph %u: point %u at (%.0f, %.0f) is outside the int16 range", g,
                       i, fx, fy);
    int x = (int)fx, y = (int)fy;
    put_triplet(o, ld->tags[i] & OTV_ON_CURVE_POINT, x - px, y - py);
    px = x, py = y;
    if (i == 0 || x < lo_x) lo_x = x;
    if (i == 0 || x > hi_x) hi_x = x;
    if (i == 0 || y < lo_y) lo_y = y;
    if (i == 0 || y > hi_y) hi_y = y;
  }
  wb_255u16(&o->s[WOFF2_GLYPH], (unsigned)ins.len);
  otv_buf_bytes(&o->s[WOFF2_INSTRUCTION], ins.p, ins.len);
  int bb[4];
  for (int k = 0; k < 4; k++) bb[k] = otv_peek_i16(d.p + 2 + 2 * k); /* in range: d.len >= 10 */
  if (bb[0] != lo_x || bb[1] != lo_y || bb[2] != hi_x || bb[3] != hi_y) { /* kept as given */
    woff2_set_bit(o->bbox_bits, g);
    for (int k = 0; k < 4; k++) otv_buf_u16(&o->s[WOFF2_BBOX], (uint16_t)(int16_t)bb[k]);
  }
  if (n && (ld->tags[0] & OTV_OVERLAP_SIMPLE)) {
    woff2_set_bit(o->overlap_bits, g);
    o->any_overlap = true;
  }
  return 0;
}

static int put_composite(woff_ctx *c, glyf_out *o, otv_span d, unsigned g)
{
  otv_rd r = otv_rd_init(d, 2);
  const uint8_t *bb = otv_rd_take(&r, 8);
  size_t start = r.pos;
  otv_glyf_comp comp;
  bool instructions = false;
  do { /* bounded: each component takes 6 bytes at least */
    if (!otv_glyf_read_comp(&r, &comp)) return glyph_fail(c, g, "components past its data");
    if (comp.flags & OTV_WE_HAVE_INSTRUCTIONS) instructions = true;
  } while (comp.flags & OTV_MORE_COMPONENTS);
  otv_buf_u16(&o->s[WOFF2_N_CONTOUR], WOFF2_COMPOSITE_N_CONTOURS);
  otv_buf_bytes(&o->s[WOFF2_COMPOSITE], d.p + start, r.pos - start);
  if (instructions) {
    unsigned ilen = otv_rd_u16(&r);
    const uint8_t *ins = otv_rd_take(&r, ilen);
    if (!otv_rd_ok(&r)) return glyph_fail(c, g, "instructions past its data");
    wb_255u16(&o->s[WOFF2_GLYPH], ilen);
    otv_buf_bytes(&o->s[WOFF2_INSTRUCTION], ins, ilen);
  }
  woff2_set_bit(o->bbox_bits, g); /* composites always carry theirs */
  otv_buf_bytes(&o->s[WOFF2_BBOX], bb, 8);
  return 0;
}

/* The transformed glyf table of the font (into *xf). */
static int transform_glyf(woff_ctx *c, const in_font *f, otv_buf *xf, unsigned *glyph_count)
{
  otv_span glyf = find(f, OTV_T_GLYF), loca = find(f, OTV_T_LOCA);
  otv_span head = find(f, OTV_T_HEAD), maxp = find(f, OTV_T_MAXP);
  if (!loca.p || !head.p || !maxp.p || head.len < HEAD_LEN || maxp.len < MAXP_MIN_LEN)
    return woff_fail(c, "'glyf' without a complete loca, head and maxp");
  /* in range: head's and maxp's lengths checked just above */
  unsigned n = otv_peek_u16(maxp.p + MAXP_NUM_GLYPHS_OFF);
  /* any indexToLocFormat but 0 is read as long offsets */
  int loc_format = otv_peek_i16(head.p + HEAD_INDEX_TO_LOC_FORMAT_OFF) ? 1 : 0;
  *glyph_count = n;
  otv_glyf gl;
  if (otv_glyf_parse(glyf, loca, loc_format, n, &gl, NULL))
    return woff_fail(c, "'loca' of %zu bytes for %u glyphs", loca.len, n);
  glyf_out o = {0};
  for (int k = 0; k < WOFF2_STREAMS; k++) otv_buf_init(&o.s[k], &c->al);
  /* simple glyphs are decoded by glyf.c, at the default location (no gvar, no phantoms) */
  static const otv_coords at_default = {
      .v = NULL, .q = NULL, .axis_count = 0, .serial = 1, .is_default = true};
  otv_error lerr = {0};
  otv_glyf_loc ld;
  otv_glyf_loc_init(&ld, &gl, (otv_locctx){&at_default, &c->al, &lerr, NULL});
  /* spec: bboxBitmap is 4 * floor((numGlyphs + 31) / 32) bytes, overlapSimpleBitmap
   * floor((numGlyphs + 7) / 8) */
  size_t bits = (((size_t)n + 31) >> 5) << 2, obits = ((size_t)n + 7) >> 3;
  o.bbox_bits = calloc(bits ? bits : 1, 1);
  o.overlap_bits = calloc(obits ? obits : 1, 1);
  int rc = -1;
  if (!o.bbox_bits || !o.overlap_bits) {
    rc = woff_fail(c, "out of memory");
    goto done;
  }
  for (unsigned g = 0; g < n; g++) {
    size_t a, b;
    if (!otv_loca_get(&gl, g, &a, &b)) {
      rc = glyph_fail(c, g, "loca offsets out of order or past 'glyf'");
      goto done;
    }
    /* in range: otv_loca_get checked a <= b <= glyf's length */
    otv_span d = {gl.glyf.p + a, b - a};
    if (d.len == 0) {
      otv_buf_u16(&o.s[WOFF2_N_CONTOUR], 0);
      continue;
    }
    if (d.len < 10) {
      rc = glyph_fail(c, g, "shorter than its header");
      goto done;
    }
    int nc = otv_peek_i16(d.p); /* in range: 10 bytes at least */
    if (nc > 0)
      rc = put_simple(c, &o, &ld, d, g, (unsigned)nc);
    else if (nc < 0)
      rc = put_composite(c, &o, d, g);
    else { /* a header without contours: empty */
      otv_buf_u16(&o.s[WOFF2_N_CONTOUR], 0);
      rc = 0;
    }
    if (rc) goto done;
  }
  otv_buf_u16(xf, 0);                                               /* reserved */
  otv_buf_u16(xf, o.any_overlap ? WOFF2_OVERLAP_SIMPLE_BITMAP : 0); /* optionFlags */
  otv_buf_u16(xf, (uint16_t)n);
  /* indexFormat 1 whatever the source's: decoders pad glyphs as they like (4 bytes is usual), so
   * a short loca could overflow; loca is not stored, so the long one costs nothing here (head's
   * indexToLocFormat is set to match in woff2_encode) */
  otv_buf_u16(xf, LOCA_LONG);
  for (int k = 0; k < WOFF2_STREAMS; k++)
    otv_buf_u32(xf, (uint32_t)(o.s[k].len + (k == WOFF2_BBOX ? bits : 0)));
  for (int k = 0; k < WOFF2_STREAMS; k++) {
    if (k == WOFF2_BBOX) otv_buf_bytes(xf, o.bbox_bits, bits);
    otv_buf_bytes(xf, o.s[k].p, o.s[k].len);
  }
  if (o.any_overlap) otv_buf_bytes(xf, o.overlap_bits, obits);
  rc = 0;
  for (int k = 0; k < WOFF2_STREAMS; k++)
    if (o.s[k].failed) rc = woff_fail(c, "out of memory");
  if (xf->failed) rc = woff_fail(c, "out of memory");
done:
  for (int k = 0; k < WOFF2_STREAMS; k++) otv_buf_free(&o.s[k]);
  free(o.bbox_bits);
  free(o.overlap_bits);
  otv_glyf_loc_free(&ld);
  return rc;
}

/* The flags byte of a WOFF2 table directory entry (and the tag after it, when not known). */
static void put_entry_tag(otv_buf *dir, uint32_t tag, unsigned xform)
{
  unsigned idx = WOFF2_TAG_FOLLOWS;
  for (unsigned q = 0; q < WOFF2_TAG_FOLLOWS; q++)
    if (woff2_known_tags[q] == tag) idx = q;
  otv_buf_u8(dir, (uint8_t)(idx | xform << WOFF2_XFORM_SHIFT));
  if (idx == WOFF2_TAG_FOLLOWS) otv_buf_u32(dir, tag);
}

int woff2_encode(const uint8_t *sfnt, size_t len, uint8_t **out, size_t *out_len, char *err,
                 size_t err_len)
{
  woff_ctx c;
  woff_ctx_init(&c, err, err_len);
  *out = NULL;
  in_font *f = load_font(&c, sfnt, len);
  if (!f) return -1;
  bool has_glyf = find(f, OTV_T_GLYF).p != NULL;
  otv_buf xf, stream, dir, file;
  otv_buf_init(&xf, &c.al);
  otv_buf_init(&stream, &c.al);
  otv_buf_init(&dir, &c.al);
  otv_buf_init(&file, &c.al);
  uint8_t *head_copy = NULL, *comp = NULL;
  otv_sfnt_table *decoded = NULL;
  int rc = -1;
  unsigned glyph_count = 0;
  if (has_glyf && transform_glyf(&c, f, &xf, &glyph_count)) goto done;
  /* table order: by tag, loca right after glyf (as decoders of collections expect) */
  unsigned order[MAX_TABLES], k = 0;
  for (unsigned i = 0; i < f->count; i++) {
    if (f->t[i].tag == OTV_T_LOCA && has_glyf) continue;
    order[k++] = i;
    if (f->t[i].tag == OTV_T_GLYF)
      for (unsigned j = 0; j < f->count; j++)
        if (f->t[j].tag == OTV_T_LOCA) order[k++] = j;
  }
  /* the tables as a decoder rebuilds them, for totalSfntSize */
  decoded = malloc((k ? k : 1) * sizeof *decoded);
  if (!decoded) {
    rc = woff_fail(&c, "out of memory");
    goto done;
  }
  for (unsigned i = 0; i < k; i++) {
    const otv_sfnt_table *t = &f->t[order[i]];
    bool is_glyf = t->tag == OTV_T_GLYF;
    bool is_loca = has_glyf && t->tag == OTV_T_LOCA;     /* transformed with glyf */
    bool plain_loca = !has_glyf && t->tag == OTV_T_LOCA; /* a loca without glyf */
    /* glyf and loca transformed, the others stored (null transform): for a loca, version 3 */
    unsigned xform = is_glyf || is_loca ? WOFF2_XFORM_GLYF
                     : plain_loca       ? WOFF2_XFORM_GLYF_NULL
                                        : WOFF2_XFORM_NULL;
    put_entry_tag(&dir, t->tag, xform);
    /* the decoded loca is long (see transform_glyf): its origLength says so */
    size_t orig = is_loca ? 4 * ((size_t)glyph_count + 1) : t->len;
    decoded[i] = (otv_sfnt_table){t->tag, NULL, orig};
    wb_base128(&dir, (uint32_t)orig);
    if (is_glyf) wb_base128(&dir, (uint32_t)xf.len); /* transformLength */
    if (is_loca) wb_base128(&dir, 0);
    if (is_glyf)
      otv_buf_bytes(&stream, xf.p, xf.len);
    else if (is_loca)
      continue;
    else if (t->tag == OTV_T_HEAD && has_glyf && t->len >= HEAD_LEN) {
      /* head.flags bit 11: the font went through a lossless modifying transform (WOFF2 5.1);
       * indexToLocFormat 1, as the transformed glyf says */
      head_copy = malloc(t->len);
      if (!head_copy) {
        rc = woff_fail(&c, "out of memory");
        goto done;
      }
      memcpy(head_copy, t->data, t->len);
      /* in range: t->len >= HEAD_LEN */
      uint16_t flags = otv_peek_u16(head_copy + HEAD_FLAGS_OFF);
      otv_put_u16(head_copy + HEAD_FLAGS_OFF, flags | HEAD_FLAG_LOSSLESS_TRANSFORM);
      otv_put_u16(head_copy + HEAD_INDEX_TO_LOC_FORMAT_OFF, LOCA_LONG);
      otv_buf_bytes(&stream, head_copy, t->len);
    } else {
      otv_buf_bytes(&stream, t->data, t->len);
    }
  }
  otv_sfnt_face face = {f->flavor, NULL, k};
  uint64_t sfnt_size = otv_sfnt_file_len(decoded, k, &face, 1, false);
  if (stream.failed || dir.failed) {
    rc = woff_fail(&c, "out of memory");
    goto done;
  }
  /* quality 11 in font mode, as Google's encoder: the same size to within a few hundred bytes
   * (trying the generic mode too wins 0.1-0.3% on some fonts and loses on others, for twice the
   * time: done for small inputs, below) */
  size_t cap = BrotliEncoderMaxCompressedSize(stream.len);
  if (!cap) cap = stream.len + 1024;
  size_t comp_len = cap;
  comp = malloc(cap);
  if (comp && !BrotliEncoderCompress(BROTLI_MAX_QUALITY, BROTLI_MAX_WINDOW_BITS, BROTLI_MODE_FONT,
                                     stream.len, stream.p, &comp_len, comp))
    comp_len = 0;
  /* Table data up to 32 KiB (a Brotli pass over it takes a few milliseconds): the smallest of
   * qualities 11 and 10, the font and generic modes and windows of the smallest size covering
   * the data and the two below it. On inputs of a few KiB these choices move the size by up to
   * 2% either way (the encoder's block splitting and context modelling), and varLib's test
   * fonts come out up to 2% smaller than with one pass (docs/build.md); never larger, as the
   * first pass stays a candidate. */
  uint8_t *alt = comp && comp_len && stream.len <= 32u * 1024 ? malloc(cap) : NULL;
  if (alt) {
    int fit = 10;
    while (fit < BROTLI_MAX_WINDOW_BITS && ((size_t)1 << fit) - 16 < stream.len) fit++;
    for (int q = BROTLI_MAX_QUALITY; q >= BROTLI_MAX_QUALITY - 1; q--)
      for (int mode = 0; mode < 2; mode++)
        for (int lg = fit - 2 < 10 ? 10 : fit - 2; lg <= fit; lg++) {
          size_t n = cap;
          if (BrotliEncoderCompress(q, lg, mode ? BROTLI_MODE_GENERIC : BROTLI_MODE_FONT,
                                    stream.len, stream.p, &n, alt) &&
              n && n < comp_len) {
            uint8_t *t = comp;
            comp = alt, alt = t, comp_len = n;
          }
        }
    free(alt);
  }
  if (!comp || !comp_len) {
    rc = woff_fail(&c, "Brotli could not compress %zu bytes of table data", stream.len);
    goto done;
  }
  /* the compressed block ends on a 4-byte boundary (WOFF2 section 3: decoders check the length) */
  put_header_start(&file, OTV_SFNT_WOF2, f, (uint32_t)sfnt_size);
  otv_buf_u32(&file, (uint32_t)comp_len); /* totalCompressedSize */
  put_header_end(&file);
  otv_buf_bytes(&file, dir.p, dir.len);
  otv_buf_bytes(&file, comp, comp_len);
  otv_buf_pad4(&file);
  rc = hand_over(&c, &file, false, out, out_len);
done:
  free_font(&c, f);
  otv_buf_free(&xf);
  otv_buf_free(&stream);
  otv_buf_free(&dir);
  otv_buf_free(&file);
  free(head_copy);
  free(comp);
  free(decoded);
  return rc;
}

#else

int woff2_encode(const uint8_t *sfnt, size_t len, uint8_t **out, size_t *out_len, char *err,
                 size_t err_len)
{
  woff_ctx c;
  woff_ctx_init(&c, err, err_len);
  (void)sfnt, (void)len, (void)out_len;
  *out = NULL;
  return woff_fail(&c, "this build of otvar has no Brotli encoder");
}

#endif /* OTV_HAVE_BROTLI_ENC */

/*
 * woff.h - WOFF 1.0 and WOFF 2.0 input for the command line: the web's compressed fonts decoded
 * into an ordinary sfnt (or TrueType Collection) in memory, which the library then opens as any
 * font. The library itself stays libc-only; decompression (zlib, Brotli) lives here. Decoding in
 * util_woff.c, encoding in util_woff_enc.c; the sfnt side of both (directory, checksums, the
 * writer) is the library's core/sfnt.h, composite glyph records glyf.h's.
 */
#ifndef OTV_WOFF_H
#define OTV_WOFF_H

#include "core/alloc.h"
#include "core/compiler.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The absolute limit: no decoded font, and no font given to the encoder, exceeds this (a
 * hostile header can announce any size; Brotli's ratio can exceed 1000:1). Real web fonts are
 * far below: the largest CJK families are ~20 MiB. */
#define WOFF_MAX_SFNT ((size_t)256 << 20)

/* The decoding cap, relative to the input: the decoded font, and every buffer on the way (the
 * Brotli or zlib output, the rebuilt glyf/loca/hmtx), stays within WOFF_MAX_RATIO x the input's
 * length + WOFF_CAP_FLOOR (and WOFF_MAX_SFNT). Measured (docs/woff.md): the 43 real fonts of
 * tests/fonts and build-test/fonts-cache, encoded by fontTools, decode to at most 4.83x their
 * WOFF2 size (Handjet.ttf; 3.74x as WOFF 1.0), so 64 leaves a 13x margin. The floor lets tiny
 * files with large empty tables (a 65535-glyph loca and hmtx: 512 KiB) decode. */
#define WOFF_MAX_RATIO 64u
#define WOFF_CAP_FLOOR ((size_t)1 << 20)

static inline size_t woff_decode_cap(size_t in_len)
{
  if (in_len > (WOFF_MAX_SFNT - WOFF_CAP_FLOOR) / WOFF_MAX_RATIO) return WOFF_MAX_SFNT;
  return WOFF_MAX_RATIO * in_len + WOFF_CAP_FLOOR;
}

/* *sum += n (padded to 4 bytes when pad4) if the result stays <= cap (cap <= WOFF_MAX_SFNT,
 * *sum <= cap); false, *sum unchanged, otherwise. Written so that nothing can wrap. */
static inline bool woff_add_len(size_t *sum, uint64_t n, bool pad4, size_t cap)
{
  if (n > cap) return false;
  size_t len = (size_t)n + (pad4 ? (size_t)(-n & 3u) : 0); /* n <= cap: no wrap */
  if (len > cap - *sum) return false;
  *sum += len;
  return true;
}

/* True when the bytes start with a WOFF ('wOFF') or WOFF2 ('wOF2') signature. */
bool woff_is_woff(const uint8_t *in, size_t len);

/* Decode WOFF 1.0 (zlib) or WOFF 2.0 (Brotli, with the glyf/loca and hmtx transforms and
 * collections) into a malloc'd sfnt: *out (free() it) and *out_len. Table checksums are
 * recomputed, and so is head.checkSumAdjustment of a single font (tables are laid out afresh, in
 * directory order, and WOFF2's transforms change glyf/loca bytes). Returns 0, or -1 with a
 * one-line message in err naming the structure and offset.
 * Extended metadata and private data are not decoded (nothing in an sfnt holds them). */
int woff_decode(const uint8_t *in, size_t len, uint8_t **out, size_t *out_len, char *err,
                size_t err_len);

/* Encode a single TrueType/OpenType font (not a collection) as WOFF 1.0 (each table zlib-compressed
 * when that is smaller) or WOFF 2.0 (glyf/loca transformed, with the overlap bitmap when a glyph
 * has OVERLAP_SIMPLE; one Brotli stream at quality 11). DSIG is dropped. A malloc'd file in
 * *out and *out_len; returns 0, or -1 with a one-line message in err. Thread-safe. */
int woff1_encode(const uint8_t *sfnt, size_t len, uint8_t **out, size_t *out_len, char *err,
                 size_t err_len);
int woff2_encode(const uint8_t *sfnt, size_t len, uint8_t **out, size_t *out_len, char *err,
                 size_t err_len);

/* ---- shared by the decoder and the encoder ---- */

/* One call's context: where its error message goes, and the allocator (libc: what is handed to
 * the caller is free()d) of the library buffers it uses. */
typedef struct woff_ctx {
  char *err;
  size_t err_len;
  otv_alloc al;
  size_t in_len; /* the decoder's input, for the cap's messages */
  size_t cap;    /* woff_decode_cap(in_len): the decoder's limit on any buffer */
  size_t made;   /* bytes of rebuilt tables (glyf, loca, hmtx) so far: <= cap */
} woff_ctx;

/* Every error of a decode or encode call: the message (printf format) into c->err. Returns -1.
 * In util_woff.c. */
int woff_fail(woff_ctx *c, const char *fmt, ...) OTV_PRINTF(2, 3);

static inline void woff_ctx_init(woff_ctx *c, char *err, size_t err_len)
{
  c->err = err;
  c->err_len = err_len;
  otv_alloc_init(&c->al, NULL);
  c->in_len = 0;
  c->cap = WOFF_MAX_SFNT;
  c->made = 0;
  if (err_len) err[0] = 0;
}

/* WOFF 1.0 and WOFF 2.0: "WOFF Header", "Table Directory" */
#define WOFF_LENGTH_OFF 8u /* UInt32 length: the size of the whole file */
#define WOFF1_HEADER_LEN 44u
#define WOFF1_ENTRY_LEN 20u /* tag, offset, compLength, origLength, origChecksum */
#define WOFF2_HEADER_LEN 48u
#define WOFF_FILE_MAJOR_VERSION 1u /* majorVersion.minorVersion of the files we write */
#define WOFF_FILE_MINOR_VERSION 0u

/* WOFF2 TableDirectoryEntry.flags ("Table Directory"): bits 0-5 index the known-tag table, the
 * value 63 meaning that the tag follows; bits 6-7 are the preprocessing transformation version. */
#define WOFF2_TAG_INDEX_MASK 0x3Fu
#define WOFF2_TAG_FOLLOWS 63u
#define WOFF2_XFORM_SHIFT 6
/* spec: for glyf and loca, version 0 is the glyf/loca transform and 3 the null transform; for
 * every other table 0 is the null transform, and hmtx's version 1 the hmtx transform */
#define WOFF2_XFORM_GLYF 0u
#define WOFF2_XFORM_GLYF_NULL 3u
#define WOFF2_XFORM_NULL 0u
#define WOFF2_XFORM_HMTX 1u

/* WOFF 2.0's known-tag table: a directory entry's flags & 63 index it. */
extern const uint32_t woff2_known_tags[WOFF2_TAG_FOLLOWS];

/* 255UInt16 ("Data Types"), with the spec's names of its codes */
#define WOFF2_WORD_CODE 253u           /* a UInt16 follows */
#define WOFF2_ONE_MORE_BYTE_CODE2 254u /* a byte follows: value 2 * 253 + byte */
#define WOFF2_ONE_MORE_BYTE_CODE1 255u /* a byte follows: value 253 + byte */
#define WOFF2_LOWEST_U_CODE 253u
/* UIntBase128 ("Data Types"): 7 bits a byte, most significant first, the high bit set on every
 * byte but the last; at most 5 bytes */
#define WOFF2_BASE128_MORE 0x80u
#define WOFF2_BASE128_BITS 0x7Fu
#define WOFF2_BASE128_MAX_BYTES 5

/* The transformed glyf table ("Transformed glyf table format"): a 36-byte header (reserved,
 * optionFlags, numGlyphs, indexFormat, then the seven stream sizes), the streams in this order,
 * then the overlap bitmap when optionFlags says so. */
#define WOFF2_GLYF_HEADER_LEN 36u
#define WOFF2_OVERLAP_SIMPLE_BITMAP 0x0001u /* optionFlags bit 0 */
enum woff2_stream {
  WOFF2_N_CONTOUR,
  WOFF2_N_POINTS,
  WOFF2_FLAG,
  WOFF2_GLYPH,
  WOFF2_COMPOSITE,
  WOFF2_BBOX,
  WOFF2_INSTRUCTION,
  WOFF2_STREAMS
};
/* glyf's numberOfContours of a composite glyph (-1), as stored */
#define WOFF2_COMPOSITE_N_CONTOURS 0xFFFFu

/* "Triplet Encoding": a point's flag byte. Bit 7 set: off the curve. The low 7 bits
 * select a row of the triplet table; the rows come in groups by the size of the deltas. In every
 * group, bit 0 set means x (or the only delta) is positive, bit 1 that y is. */
#define WOFF2_FLAG_OFF_CURVE 0x80u
#define WOFF2_FLAG_TRIPLET 0x7Fu
#define WOFF2_TRIPLET_DY 0u      /* 0-9: dx 0, dy 0..1279 in one byte (8 bits + 256 per 2 rows) */
#define WOFF2_TRIPLET_DX 10u     /* 10-19: dy 0, dx likewise */
#define WOFF2_TRIPLET_4_4 20u    /* 20-83: dx, dy 1..64, 4 bits each in one byte */
#define WOFF2_TRIPLET_8_8 84u    /* 84-119: dx, dy 1..768, a byte each */
#define WOFF2_TRIPLET_12_12 120u /* 120-123: dx, dy 0..4095, 12 bits each in three bytes */
#define WOFF2_TRIPLET_16_16 124u /* 124-127: dx, dy in 16 bits each */
#define WOFF2_X_POSITIVE 1u
#define WOFF2_Y_POSITIVE 2u

/* The glyph bitmaps of the transformed glyf (bboxBitmap, overlapSimpleBitmap): glyph g is bit
 * 7 - g % 8 of byte g / 8 (most significant first). */
static inline bool woff2_bit(const uint8_t *bits, unsigned g)
{
  return bits && (bits[g >> 3] & (0x80u >> (g & 7)));
}
static inline void woff2_set_bit(uint8_t *bits, unsigned g)
{
  bits[g >> 3] |= (uint8_t)(0x80u >> (g & 7));
}

#endif /* OTV_WOFF_H */

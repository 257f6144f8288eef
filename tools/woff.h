/*
 * woff.h - WOFF 1.0 and WOFF 2.0 input for the command line: the web's compressed fonts decoded
 * into an ordinary sfnt (or TrueType Collection) in memory, which the library then opens as any
 * font. The library itself stays libc-only; decompression (zlib, Brotli) lives here.
 */
#ifndef OTV_WOFF_H
#define OTV_WOFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The decoded font may not exceed this (a hostile header can announce any size; Brotli's ratio
 * can exceed 1000:1). Real web fonts are far below: the largest CJK families are ~20 MiB. */
#define WOFF_MAX_SFNT ((size_t)256 << 20)

/* WOFF 2.0's known-tag table (section 5.2): a directory entry's flags & 63 index it, 63 meaning
 * an explicit tag follows. */
extern const uint32_t woff2_known_tags[63];

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

#endif /* OTV_WOFF_H */

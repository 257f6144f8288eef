/*
 * core/sfnt.h - the sfnt container: the table directory of a font (or of one face of a
 * collection), read once and checked against the file, and the sfnt writer with table
 * checksums. Implemented in core/sfnt.c.
 */
#ifndef OTV_CORE_SFNT_H
#define OTV_CORE_SFNT_H

#include "core/core.h"
#include "core/writer.h"

/* sfntVersion values and the other magic numbers a font file starts with */
#define OTV_SFNT_TRUETYPE 0x00010000u
#define OTV_SFNT_TRUE 0x74727565u /* 'true' (Apple) */
#define OTV_SFNT_OTTO 0x4F54544Fu /* 'OTTO': CFF or CFF2 outlines */
#define OTV_SFNT_TTCF 0x74746366u /* 'ttcf': a TrueType Collection */
#define OTV_SFNT_WOFF 0x774F4646u /* 'wOFF' */
#define OTV_SFNT_WOF2 0x774F4632u /* 'wOF2' */
/* head.magicNumber, and the constant checkSumAdjustment is computed from */
#define OTV_HEAD_MAGIC 0x5F0F3CF5u
#define OTV_HEAD_CHECKSUM_BASE 0xB1B0AFBAu

/* One face's table directory. */
typedef struct otv_sfnt {
  otv_span file;            /* the whole file */
  uint32_t version;         /* sfntVersion of the face */
  otv_table_record *tables; /* sorted by tag; every table inside the file (checked) */
  uint16_t table_count;
} otv_sfnt;

bool otv_sfnt_is_version(uint32_t v);
/* Read the directory of face `index` (0 for a plain font). Tags must be printable and unique,
 * every table inside the file. */
otv_status otv_sfnt_open(otv_sfnt *s, otv_span file, unsigned index, const otv_alloc *al,
                         otv_error *err);
void otv_sfnt_close(otv_sfnt *s, const otv_alloc *al);
/* The bytes of a table (an empty span with p == NULL when absent). */
otv_span otv_sfnt_find(const otv_sfnt *s, uint32_t tag);

/* Table checksum (spec: otff "Calculating Checksums"): sum of big-endian uint32 words, the last
 * one zero-padded. */
uint32_t otv_sfnt_checksum(const uint8_t *p, size_t len);

typedef struct otv_sfnt_table {
  uint32_t tag;
  const uint8_t *data; /* len bytes; for 'head' the checkSumAdjustment field is rewritten */
  size_t len;
} otv_sfnt_table;

/* Write an sfnt with the given tables into out (appended to an empty buffer): header with
 * searchRange/entrySelector/rangeShift, directory sorted by tag, each table 4-byte aligned and
 * zero-padded, checksums, and head.checkSumAdjustment = 0xB1B0AFBA - whole-file sum (computed
 * with the field zeroed). Duplicate tags, more than 0xFFFF tables, a 'head' shorter than 12
 * bytes or a file past 4 GiB are OTV_E_ARG / OTV_E_LIMIT. `tables` is sorted in place. */
otv_status otv_sfnt_write(otv_buf *out, uint32_t sfnt_version, otv_sfnt_table *tables,
                          unsigned count, otv_error *err);

#endif /* OTV_CORE_SFNT_H */

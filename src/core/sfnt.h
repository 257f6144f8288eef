/*
 * core/sfnt.h - the sfnt container: the table directory of a font (or of one face of a
 * collection), read once and checked against the file, and the writer of sfnt files and
 * TrueType Collections with table checksums. Implemented in core/sfnt.c.
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
/* the offset of head.checkSumAdjustment (uint32) */
#define OTV_HEAD_CHECKSUM_ADJUSTMENT_OFF 8u
/* spec: otff "TTC Header": majorVersion 1, minorVersion 0 (no DSIG fields) */
#define OTV_TTC_VERSION_1_0 0x00010000u
#define OTV_TTC_VERSION_2_0 0x00020000u /* with DSIG fields */
/* spec: otff, the sizes of the TableDirectory header, of one TableRecord and of the TTC header
 * version 1.0 before its tableDirectoryOffsets */
#define OTV_SFNT_HEADER_LEN 12u
#define OTV_SFNT_RECORD_LEN 16u
#define OTV_TTC_HEADER_LEN 12u

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
/* The checksum a table directory records for a table: otv_sfnt_checksum, with head's
 * checkSumAdjustment (OTV_HEAD_CHECKSUM_ADJUSTMENT_OFF) counted as 0. A head too short to hold
 * the field is summed as it is. */
uint32_t otv_sfnt_table_checksum(uint32_t tag, const uint8_t *p, size_t len);

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

/* One face of a file written by otv_sfnt_write_faces: its sfntVersion and the tables its
 * directory lists, as indices into the file's table array. */
typedef struct otv_sfnt_face {
  uint32_t version;
  uint16_t *table_idx; /* table_count indices, sorted by tag in place by the writer; NULL: every
                          table of the file, which must then be sorted by tag already */
  unsigned table_count;
} otv_sfnt_face;

/* The size of the file otv_sfnt_write_faces writes for these tables and faces: the TTC header
 * (collection), each face's directory, then every table once, padded to 4 bytes. Callers with a
 * size limit of their own check it with this before writing. */
uint64_t otv_sfnt_file_len(const otv_sfnt_table *tables, unsigned table_count,
                           const otv_sfnt_face *faces, unsigned face_count, bool collection);

/* Write a font file at the end of out (its length a multiple of 4, else OTV_E_ARG; an empty
 * buffer gets exactly the file's size, and offsets count from where the file starts): with
 * `collection`, a TrueType Collection (TTC header 1.0) of face_count >= 1 faces, else one sfnt
 * (face_count 1, listing every table). Every table is written once, in the order of `tables`,
 * 4-byte aligned and zero-padded, however many faces list it (collections share tables so);
 * each face's directory has searchRange/entrySelector/rangeShift and its records sorted by tag,
 * with table checksums. head's checksum is taken with checkSumAdjustment as 0; in a single font
 * that field becomes 0xB1B0AFBA - the whole-file sum, in a collection it is kept as given (a
 * shared head belongs to several fonts: no one whole-file sum applies). A 'head' shorter than 12
 * bytes has no such field and is written and summed as it is (the tables may come from a
 * container being decoded; otv_sfnt_write refuses one). A face listing a tag twice or an index
 * past table_count, or a single font not listing every table, is OTV_E_ARG; more than 65535
 * tables in a face or a file past 4 GiB OTV_E_LIMIT. `tables` is not modified. */
otv_status otv_sfnt_write_faces(otv_buf *out, const otv_sfnt_table *tables, unsigned table_count,
                                otv_sfnt_face *faces, unsigned face_count, bool collection,
                                otv_error *err);

#endif /* OTV_CORE_SFNT_H */

/* name.h - the name table, decoded to UTF-8 on request. Implemented in name.c. */
#ifndef OTV_NAME_H
#define OTV_NAME_H

#include "core/core.h"

typedef struct otv_name {
  bool present;
  uint16_t version;       /* 0 or 1 */
  uint16_t count;         /* name records */
  const uint8_t *records; /* count x 12 bytes (in range: checked in otv_name_parse) */
  uint16_t lang_count;    /* version 1: language-tag records */
  const uint8_t *langs;   /* lang_count x 4 bytes (checked) */
  otv_span storage;       /* string storage; every record's and tag's string is inside it */
} otv_name;

/* spec: a NameRecord (12 bytes) and a LangTagRecord (4 bytes) */
#define OTV_NAME_RECORD_LEN 12
#define OTV_NAME_PLATFORM 0
#define OTV_NAME_ENCODING 2
#define OTV_NAME_LANGUAGE 4
#define OTV_NAME_ID 6
#define OTV_NAME_LENGTH 8
#define OTV_NAME_OFFSET 10
#define OTV_LANG_TAG_RECORD_LEN 4

/* The string of record i (i < count; in range: checked in otv_name_parse). */
static inline otv_span otv_name_string(const otv_name *nm, unsigned i)
{
  const uint8_t *p = nm->records + (size_t)i * OTV_NAME_RECORD_LEN;
  otv_span s = {nm->storage.p + otv_peek_u16(p + OTV_NAME_OFFSET),
                otv_peek_u16(p + OTV_NAME_LENGTH)};
  return s;
}
/* The string of language-tag record i (i < lang_count; in range: checked in otv_name_parse). */
static inline otv_span otv_name_lang_string(const otv_name *nm, unsigned i)
{
  const uint8_t *p = nm->langs + (size_t)i * OTV_LANG_TAG_RECORD_LEN;
  otv_span s = {nm->storage.p + otv_peek_u16(p + 2), otv_peek_u16(p)};
  return s;
}
/* tab may be empty (no name table: present stays false). */
otv_status otv_name_parse(otv_span tab, otv_name *out, otv_error *err);
/* The string of name_id in the lookup order of otv_face_name (otvar.h), as UTF-8. */
otv_status otv_name_get(const otv_name *nm, uint16_t name_id, char *buf, size_t cap,
                        size_t *out_len, otv_error *err);
/* Decode one string to UTF-8 (UTF-16BE for platforms 0 and 3, Mac Roman for platform 1
 * encoding 0, Latin-1-like bytes otherwise). Writes at most cap-1 bytes + NUL, never splitting a
 * sequence; returns the full length needed. */
size_t otv_name_decode(uint16_t platform, uint16_t encoding, otv_span s, char *buf, size_t cap);
#endif

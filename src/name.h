/* name.h - the name table, decoded to UTF-8 on request. Implemented in name.c. */
#ifndef OTV_NAME_H
#define OTV_NAME_H

#include "core/core.h"

typedef struct otv_name {
  bool present;
  uint16_t count;         /* name records */
  const uint8_t *records; /* count x 12 bytes (in range: checked in otv_name_parse) */
  otv_span storage;       /* string storage; every record's string is inside it (checked) */
} otv_name;
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

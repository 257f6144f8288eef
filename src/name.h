/* name.h - the name table, decoded to UTF-8 on request. Implemented in name.c. */
#ifndef OTV_NAME_H
#define OTV_NAME_H
typedef struct otv_name {
  bool present;
  uint16_t count;         /* name records */
  const uint8_t *records; /* count x 12 bytes (in range: checked in otv_name_parse) */
  otv_span storage;       /* string storage; every record's string is inside it (checked) */
} otv_name;
otv_status otv_name_parse(otv_face *f, otv_error *err);
void otv_name_free(otv_face *f);
/* Decode one string to UTF-8 (UTF-16BE for platforms 0 and 3, Mac Roman for platform 1
 * encoding 0, Latin-1-like bytes otherwise). Writes at most cap-1 bytes + NUL, never splitting a
 * sequence; returns the full length needed. */
size_t otv_name_decode(uint16_t platform, uint16_t encoding, otv_span s, char *buf, size_t cap);
#endif

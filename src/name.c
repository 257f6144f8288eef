/*
 * name.c - the naming table (spec: name), versions 0 and 1, and name lookup as UTF-8.
 *
 * Validated at open: the header, the name record array, the language-tag records (version 1)
 * and every record's string range inside the table; a string outside the table is BAD_OFFSET
 * naming the record. Strings are decoded on request:
 *   platform 0 (Unicode) and 3 (Windows, encodings 0/1/10): UTF-16BE with surrogate pairs;
 *     unpaired surrogates and a trailing odd byte become U+FFFD;
 *   platform 1 encoding 0 (Mac Roman): through the Mac OS Roman table;
 *   anything else: bytes as Latin-1 (never used by the lookup order below).
 * Lookup order (otvar.h): Windows Unicode English (US), any English, any Windows Unicode
 * language, Unicode platform, Mac Roman English.
 */
#include "name.h"

#define NAME_RECORD_LEN OTV_NAME_RECORD_LEN

otv_status otv_name_parse(otv_span tab, otv_name *out, otv_error *err)
{
  otv_name *nm = out;
  memset(nm, 0, sizeof *nm);
  if (!tab.p) return OTV_E_OK;
  otv_rd r = otv_rd_init(tab, 0);
  uint16_t version = otv_rd_u16(&r);
  uint16_t count = otv_rd_u16(&r);
  uint16_t storage_off = otv_rd_u16(&r);
  if (!otv_rd_ok(&r)) return OTV_FAIL_RD(err, OTV_T_NAME, 0, &r, "name header");
  if (version > 1) return OTV_FAIL(err, UNSUPPORTED, OTV_T_NAME, 0, "name version %u", version);
  otv_span recs;
  if (!otv_span_array(tab, 6, count, NAME_RECORD_LEN, &recs))
    return OTV_FAIL(err, TRUNCATED, OTV_T_NAME, 6, "%u name records", count);
  otv_span langs = {NULL, 0};
  uint16_t lang_count = 0;
  if (version == 1) {
    otv_rd lr = otv_rd_init(tab, 6 + recs.len);
    lang_count = otv_rd_u16(&lr);
    if (!otv_rd_ok(&lr) || !otv_span_array(tab, lr.pos, lang_count, 4, &langs))
      return OTV_FAIL(err, TRUNCATED, OTV_T_NAME, 6 + recs.len, "language-tag records");
    for (unsigned i = 0; i < lang_count; i++) {
      /* in range: langs checked just above */
      uint16_t len = otv_peek_u16(langs.p + 4 * (size_t)i);
      uint16_t off = otv_peek_u16(langs.p + 4 * (size_t)i + 2);
      if (!otv_span_has(tab, (size_t)storage_off + off, len))
        return OTV_FAIL(err, BAD_OFFSET, OTV_T_NAME, (size_t)(langs.p - tab.p) + 4 * i,
                        "language tag %u: %u bytes at storage+%u past the end (%zu)", i, len, off,
                        tab.len);
    }
  }
  if (storage_off > tab.len)
    return OTV_FAIL(err, BAD_OFFSET, OTV_T_NAME, 4, "storageOffset %u past the end (%zu)",
                    storage_off, tab.len);
  otv_span storage = otv_span_from(tab, storage_off);
  for (unsigned i = 0; i < count; i++) {
    /* in range: recs checked above */
    const uint8_t *p = recs.p + (size_t)i * NAME_RECORD_LEN;
    uint16_t len = otv_peek_u16(p + 8), off = otv_peek_u16(p + 10);
    if (!otv_span_has(storage, off, len))
      return OTV_FAIL(err, BAD_OFFSET, OTV_T_NAME, 6 + (size_t)i * NAME_RECORD_LEN + 8,
                      "record %u (platform %u, name %u): %u bytes at storage+%u past the end "
                      "(%zu)",
                      i, otv_peek_u16(p), otv_peek_u16(p + 6), len, off, storage.len);
  }
  nm->present = true;
  nm->version = version;
  nm->count = count;
  nm->records = recs.p;
  nm->lang_count = lang_count;
  nm->langs = langs.p;
  nm->storage = storage;
  return OTV_E_OK;
}

/* Mac OS Roman 0x80..0xFF (Unicode mapping from the Apple ROMAN.TXT table). */
static const uint16_t mac_roman[128] = {
    0x00C4, 0x00C5, 0x00C7, 0x00C9, 0x00D1, 0x00D6, 0x00DC, 0x00E1, 0x00E0, 0x00E2, 0x00E4, 0x00E3,
    0x00E5, 0x00E7, 0x00E9, 0x00E8, 0x00EA, 0x00EB, 0x00ED, 0x00EC, 0x00EE, 0x00EF, 0x00F1, 0x00F3,
    0x00F2, 0x00F4, 0x00F6, 0x00F5, 0x00FA, 0x00F9, 0x00FB, 0x00FC, 0x2020, 0x00B0, 0x00A2, 0x00A3,
    0x00A7, 0x2022, 0x00B6, 0x00DF, 0x00AE, 0x00A9, 0x2122, 0x00B4, 0x00A8, 0x2260, 0x00C6, 0x00D8,
    0x221E, 0x00B1, 0x2264, 0x2265, 0x00A5, 0x00B5, 0x2202, 0x2211, 0x220F, 0x03C0, 0x222B, 0x00AA,
    0x00BA, 0x03A9, 0x00E6, 0x00F8, 0x00BF, 0x00A1, 0x00AC, 0x221A, 0x0192, 0x2248, 0x2206, 0x00AB,
    0x00BB, 0x2026, 0x00A0, 0x00C0, 0x00C3, 0x00D5, 0x0152, 0x0153, 0x2013, 0x2014, 0x201C, 0x201D,
    0x2018, 0x2019, 0x00F7, 0x25CA, 0x00FF, 0x0178, 0x2044, 0x20AC, 0x2039, 0x203A, 0xFB01, 0xFB02,
    0x2021, 0x00B7, 0x201A, 0x201E, 0x2030, 0x00C2, 0x00CA, 0x00C1, 0x00CB, 0x00C8, 0x00CD, 0x00CE,
    0x00CF, 0x00CC, 0x00D3, 0x00D4, 0xF8FF, 0x00D2, 0x00DA, 0x00DB, 0x00D9, 0x0131, 0x02C6, 0x02DC,
    0x00AF, 0x02D8, 0x02D9, 0x02DA, 0x00B8, 0x02DD, 0x02DB, 0x02C7,
};

/* Append code point c as UTF-8: counts every byte in *len, stores only whole sequences that fit
 * in cap-1. Once one sequence did not fit, nothing more is stored (*full). */
static void put_cp(uint32_t c, char *buf, size_t cap, size_t *len, size_t *stored, bool *full)
{
  uint8_t u[4];
  size_t n;
  if (c < 0x80) {
    u[0] = (uint8_t)c;
    n = 1;
  } else if (c < 0x800) {
    u[0] = (uint8_t)(0xC0 | c >> 6);
    u[1] = (uint8_t)(0x80 | (c & 0x3F));
    n = 2;
  } else if (c < 0x10000) {
    u[0] = (uint8_t)(0xE0 | c >> 12);
    u[1] = (uint8_t)(0x80 | (c >> 6 & 0x3F));
    u[2] = (uint8_t)(0x80 | (c & 0x3F));
    n = 3;
  } else {
    u[0] = (uint8_t)(0xF0 | c >> 18);
    u[1] = (uint8_t)(0x80 | (c >> 12 & 0x3F));
    u[2] = (uint8_t)(0x80 | (c >> 6 & 0x3F));
    u[3] = (uint8_t)(0x80 | (c & 0x3F));
    n = 4;
  }
  *len += n;
  if (*full || !cap) return;
  if (*stored + n > cap - 1) {
    *full = true;
    return;
  }
  memcpy(buf + *stored, u, n);
  *stored += n;
}

size_t otv_name_decode(uint16_t platform, uint16_t encoding, otv_span s, char *buf, size_t cap)
{
  size_t len = 0, stored = 0;
  bool full = false;
  if (platform == 0 || platform == 3) {
    size_t i = 0;
    while (i + 1 < s.len) {
      /* in range: i + 1 < s.len */
      uint32_t c = otv_peek_u16(s.p + i);
      i += 2;
      if (c >= 0xD800 && c < 0xDC00) {
        if (i + 1 < s.len) {
          uint32_t lo = otv_peek_u16(s.p + i);
          if (lo >= 0xDC00 && lo < 0xE000) {
            c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
            i += 2;
          } else {
            c = 0xFFFD;
          }
        } else {
          c = 0xFFFD;
        }
      } else if (c >= 0xDC00 && c < 0xE000) {
        c = 0xFFFD;
      }
      put_cp(c, buf, cap, &len, &stored, &full);
    }
    if (i < s.len) put_cp(0xFFFD, buf, cap, &len, &stored, &full); /* odd trailing byte */
  } else {
    bool roman = platform == 1 && encoding == 0;
    for (size_t i = 0; i < s.len; i++) {
      uint32_t b = s.p[i];
      put_cp(roman && b >= 0x80 ? mac_roman[b - 0x80] : b, buf, cap, &len, &stored, &full);
    }
  }
  if (cap) buf[stored] = '\0';
  return len;
}

/* Rank of a record for the lookup order (lower is better); -1: never used. */
static int rank(uint16_t platform, uint16_t encoding, uint16_t language)
{
  if (platform == 3 && (encoding == 1 || encoding == 10)) {
    if (language == 0x0409) return 0;
    if ((language & 0x3FF) == 0x09) return 1;
    return 2;
  }
  if (platform == 0) return 3;
  if (platform == 1 && encoding == 0 && language == 0) return 4;
  return -1;
}

otv_status otv_name_get(const otv_name *nm, uint16_t name_id, char *buf, size_t cap,
                        size_t *out_len, otv_error *err)
{
  if (out_len) *out_len = 0;
  if (cap && !buf) return OTV_FAIL(err, ARG, 0, 0, "buf is NULL");
  if (cap) buf[0] = '\0';
  int best = -1, best_rank = 99;
  for (unsigned i = 0; i < nm->count; i++) {
    /* in range: records span checked in otv_name_parse */
    const uint8_t *p = nm->records + (size_t)i * NAME_RECORD_LEN;
    if (otv_peek_u16(p + 6) != name_id) continue;
    int rk = rank(otv_peek_u16(p), otv_peek_u16(p + 2), otv_peek_u16(p + 4));
    if (rk >= 0 && rk < best_rank) {
      best_rank = rk;
      best = (int)i;
    }
  }
  if (best < 0)
    return OTV_FAIL(err, NOT_FOUND, OTV_T_NAME, 0, "no usable record for name ID %u", name_id);
  const uint8_t *p = nm->records + (size_t)best * NAME_RECORD_LEN;
  otv_span s;
  /* in range: every record's string was checked against the storage in otv_name_parse */
  s.p = nm->storage.p + otv_peek_u16(p + 10);
  s.len = otv_peek_u16(p + 8);
  size_t len = otv_name_decode(otv_peek_u16(p), otv_peek_u16(p + 2), s, buf, cap);
  if (out_len) *out_len = len;
  return OTV_E_OK;
}

/*
 * core/error.c - status strings, the first-error helper, error formatting and tag strings.
 */
#include "core/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* OTV_VERSION_STRING: CMake's project(VERSION) (CMakeLists.txt); other builds (the WebAssembly
 * script) pass it too, or get the header's. */
#ifndef OTV_VERSION_STRING
#  define OTV_STR2(x) #  x
#  define OTV_STR(x) OTV_STR2(x)
#  define OTV_VERSION_STRING                                                                       \
    OTV_STR(OTV_VERSION_MAJOR) "." OTV_STR(OTV_VERSION_MINOR) "." OTV_STR(OTV_VERSION_PATCH)
#endif
const char *otv_version(void) { return OTV_VERSION_STRING; }

const char *otv_status_str(otv_status s)
{
  switch (s) {
#define OTV_X_(name, val, str)                                                                     \
  case OTV_E_##name: return str;
    OTV_STATUS_LIST(OTV_X_)
#undef OTV_X_
  }
  return "unknown error";
}

static void fill(otv_error *e, otv_status code, uint32_t table, uint64_t offset, const char *fmt,
                 va_list ap)
{
  e->code = code;
  e->table = table;
  e->offset = offset;
  vsnprintf(e->msg, sizeof e->msg, fmt, ap);
}

otv_status otv_fail(otv_error *err, otv_status code, uint32_t table, uint64_t offset,
                    const char *fmt, ...)
{
  if (err && err->code == OTV_E_OK) {
    va_list ap;
    va_start(ap, fmt);
    fill(err, code, table, offset, fmt, ap);
    va_end(ap);
  }
  return code;
}

size_t otv_error_format(const otv_error *e, char *buf, size_t cap)
{
  char tag[5];
  int n;
  if (!e) return 0;
  if (e->table) {
    otv_tag_to_string(e->table, tag);
    n = snprintf(buf, cap, "%s+0x%llx: %s%s%s%s", tag, (unsigned long long)e->offset,
                 otv_status_str(e->code), e->msg[0] ? " (" : "", e->msg, e->msg[0] ? ")" : "");
  } else {
    n = snprintf(buf, cap, "%s%s%s%s", otv_status_str(e->code), e->msg[0] ? " (" : "", e->msg,
                 e->msg[0] ? ")" : "");
  }
  return n < 0 ? 0 : (size_t)n;
}

bool otv_tag_from_string(const char *s, uint32_t *out)
{
  size_t n = s ? strlen(s) : 0;
  if (n == 0 || n > 4) return false;
  uint32_t t = 0;
  for (size_t i = 0; i < 4; i++) {
    unsigned char c = i < n ? (unsigned char)s[i] : ' ';
    if (c < 0x20 || c > 0x7E) return false;
    t = t << 8 | c;
  }
  *out = t;
  return true;
}

void otv_tag_to_string(uint32_t tag, char buf[5])
{
  for (int i = 0; i < 4; i++) {
    unsigned char c = (unsigned char)(tag >> (24 - 8 * i));
    buf[i] = (char)(c >= 0x20 && c <= 0x7E ? c : '?');
  }
  buf[4] = '\0';
}

/*
 * reader.h - the one way into font bytes: a bounds-checked big-endian reader.
 *
 * Two tiers (see STYLE.md section 3):
 *   otv_rd_*   checked cursor used while parsing. Errors are sticky: past the end it returns 0 and
 *              remembers the first bad position in bad_at.
 *   otv_peek_* unchecked loads, only on bytes that an otv_span_has/otv_span_array check already
 *              proved in range (the caller comments where).
 */
#ifndef OTV_READER_H
#define OTV_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct otv_span {
  const uint8_t *p;
  size_t len;
} otv_span;

static inline otv_span otv_span_of(const void *p, size_t len)
{
  otv_span s = {(const uint8_t *)p, len};
  return s;
}

/* Written so it cannot overflow: off + n is never computed. */
static inline bool otv_span_has(otv_span s, size_t off, size_t n)
{
  return off <= s.len && n <= s.len - off;
}

/* count * elem bytes at off, overflow-checked. */
static inline bool otv_span_array(otv_span s, size_t off, size_t count, size_t elem, otv_span *out)
{
  if (elem && count > SIZE_MAX / elem) return false;
  if (!otv_span_has(s, off, count * elem)) return false;
  out->p = s.p + off;
  out->len = count * elem;
  return true;
}

/* The count + 1 offsets of elem (>= 1) bytes at off of an array of count items (a CFF INDEX).
 * A count the span cannot hold is refused before count + 1 is formed: at 0xFFFFFFFF it would
 * wrap a 32-bit size_t to 0 and pass. */
static inline bool otv_span_offsets(otv_span s, size_t off, uint32_t count, size_t elem,
                                    otv_span *out)
{
  if (count >= s.len) return false; /* every offset takes a byte at least */
  return otv_span_array(s, off, (size_t)count + 1, elem, out);
}

/* The bytes from off to the end (empty span when off is past the end). */
static inline otv_span otv_span_from(otv_span s, size_t off)
{
  otv_span r = {s.p, 0};
  if (off <= s.len) {
    r.p = s.p + off;
    r.len = s.len - off;
  }
  return r;
}

/* Sub-span [off, off+n): false when it does not fit. */
static inline bool otv_span_sub(otv_span s, size_t off, size_t n, otv_span *out)
{
  if (!otv_span_has(s, off, n)) return false;
  out->p = s.p + off;
  out->len = n;
  return true;
}

/* ---- unchecked loads: only on proven ranges ---- */
static inline uint8_t otv_peek_u8(const uint8_t *p) { return p[0]; }
static inline uint16_t otv_peek_u16(const uint8_t *p)
{
  return (uint16_t)((unsigned)p[0] << 8 | p[1]);
}
static inline int16_t otv_peek_i16(const uint8_t *p) { return (int16_t)otv_peek_u16(p); }
static inline uint32_t otv_peek_u24(const uint8_t *p)
{
  return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}
static inline uint32_t otv_peek_u32(const uint8_t *p)
{
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static inline int32_t otv_peek_i32(const uint8_t *p) { return (int32_t)otv_peek_u32(p); }

/* ---- checked cursor ---- */
typedef struct otv_rd {
  otv_span s;
  size_t pos;
  size_t bad_at; /* SIZE_MAX: ok; else the position of the first read past the end */
} otv_rd;

static inline otv_rd otv_rd_init(otv_span s, size_t pos)
{
  otv_rd r = {s, pos, SIZE_MAX};
  return r;
}

static inline bool otv_rd_ok(const otv_rd *r) { return r->bad_at == SIZE_MAX; }

/* Reserve n bytes: returns a pointer to them, or NULL (and marks the reader bad). */
static inline const uint8_t *otv_rd_take(otv_rd *r, size_t n)
{
  if (!otv_span_has(r->s, r->pos, n)) {
    if (r->bad_at == SIZE_MAX) r->bad_at = r->pos;
    return NULL;
  }
  const uint8_t *q = r->s.p + r->pos;
  r->pos += n;
  return q;
}

static inline uint8_t otv_rd_u8(otv_rd *r)
{
  const uint8_t *q = otv_rd_take(r, 1);
  return q ? q[0] : 0;
}
static inline uint16_t otv_rd_u16(otv_rd *r)
{
  const uint8_t *q = otv_rd_take(r, 2);
  return q ? otv_peek_u16(q) : 0;
}
static inline int16_t otv_rd_i16(otv_rd *r) { return (int16_t)otv_rd_u16(r); }
static inline uint32_t otv_rd_u24(otv_rd *r)
{
  const uint8_t *q = otv_rd_take(r, 3);
  return q ? otv_peek_u24(q) : 0;
}
static inline uint32_t otv_rd_u32(otv_rd *r)
{
  const uint8_t *q = otv_rd_take(r, 4);
  return q ? otv_peek_u32(q) : 0;
}
static inline int32_t otv_rd_i32(otv_rd *r) { return (int32_t)otv_rd_u32(r); }
static inline void otv_rd_skip(otv_rd *r, size_t n) { (void)otv_rd_take(r, n); }

#endif /* OTV_READER_H */

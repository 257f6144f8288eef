/*
 * core/writer.h - writing big-endian data: a growable byte buffer with sticky failure, and the
 * unchecked stores. Implemented in core/writer.c. Used by everything that writes a table.
 */
#ifndef OTV_CORE_WRITER_H
#define OTV_CORE_WRITER_H

#include "core/alloc.h"

#include <stdbool.h>

/* Errors are sticky: after a failed growth every append is a no-op and failed is set. */
typedef struct otv_buf {
  uint8_t *p;
  size_t len, cap;
  const otv_alloc *al;
  bool failed;
} otv_buf;

void otv_buf_init(otv_buf *b, const otv_alloc *al);
void otv_buf_free(otv_buf *b);
bool otv_buf_reserve(otv_buf *b, size_t extra);
void otv_buf_u8(otv_buf *b, uint8_t v);
void otv_buf_u16(otv_buf *b, uint16_t v);
void otv_buf_u32(otv_buf *b, uint32_t v);
void otv_buf_bytes(otv_buf *b, const void *p, size_t n);
void otv_buf_zeros(otv_buf *b, size_t n);
/* Pad with zeros to a multiple of 4 bytes. */
void otv_buf_pad4(otv_buf *b);
/* Overwrite already-written bytes (off + 2/4 <= len: internal invariant). */
void otv_buf_put_u16(otv_buf *b, size_t off, uint16_t v);
void otv_buf_put_u32(otv_buf *b, size_t off, uint32_t v);

/* A 16-bit field of a table being patched: read (signed; 0 past the end) and written (nothing
 * past the end). For tables copied from a font and edited in place. */
static inline int otv_buf_get_i16(const otv_buf *b, size_t off);
static inline void otv_buf_set_16(otv_buf *b, size_t off, int v);

/* ---- unchecked stores: only into bytes the caller has reserved ---- */
static inline void otv_put_u16(uint8_t *p, uint16_t v)
{
  p[0] = (uint8_t)(v >> 8);
  p[1] = (uint8_t)v;
}
static inline void otv_put_u32(uint8_t *p, uint32_t v)
{
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

static inline int otv_buf_get_i16(const otv_buf *b, size_t off)
{
  return off + 2 <= b->len ? (int16_t)((unsigned)b->p[off] << 8 | b->p[off + 1]) : 0;
}
static inline void otv_buf_set_16(otv_buf *b, size_t off, int v)
{
  if (off + 2 <= b->len) otv_put_u16(b->p + off, (uint16_t)v);
}

#endif /* OTV_CORE_WRITER_H */

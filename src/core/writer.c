/*
 * core/writer.c - the growable big-endian byte buffer every table writer appends to.
 */
#include "core/writer.h"
#include "core/compiler.h"

#include <stdint.h>
#include <string.h>

void otv_buf_init(otv_buf *b, const otv_alloc *al)
{
  memset(b, 0, sizeof *b);
  b->al = al;
}

void otv_buf_free(otv_buf *b)
{
  if (b->p) otv_mem_free(b->al, b->p, b->cap);
  b->p = NULL;
  b->len = b->cap = 0;
  b->failed = false;
}

bool otv_buf_reserve(otv_buf *b, size_t extra)
{
  if (b->failed) return false;
  if (extra <= b->cap - b->len) return true;
  if (extra > SIZE_MAX / 2 - b->len) {
    b->failed = true;
    return false;
  }
  size_t need = b->len + extra;
  size_t ncap = b->cap ? b->cap : 256;
  while (ncap < need) ncap *= 2;
  uint8_t *np = otv_mem_realloc(b->al, b->p, b->cap, ncap);
  if (!np) {
    b->failed = true;
    return false;
  }
  b->p = np;
  b->cap = ncap;
  return true;
}

void otv_buf_u8(otv_buf *b, uint8_t v)
{
  if (!otv_buf_reserve(b, 1)) return;
  b->p[b->len++] = v;
}

void otv_buf_u16(otv_buf *b, uint16_t v)
{
  if (!otv_buf_reserve(b, 2)) return;
  otv_put_u16(b->p + b->len, v);
  b->len += 2;
}

void otv_buf_u32(otv_buf *b, uint32_t v)
{
  if (!otv_buf_reserve(b, 4)) return;
  otv_put_u32(b->p + b->len, v);
  b->len += 4;
}

void otv_buf_bytes(otv_buf *b, const void *p, size_t n)
{
  if (!n || !otv_buf_reserve(b, n)) return;
  memcpy(b->p + b->len, p, n);
  b->len += n;
}

void otv_buf_zeros(otv_buf *b, size_t n)
{
  if (!n || !otv_buf_reserve(b, n)) return;
  memset(b->p + b->len, 0, n);
  b->len += n;
}

void otv_buf_pad4(otv_buf *b) { otv_buf_zeros(b, (4 - (b->len & 3)) & 3); }

void otv_buf_put_u16(otv_buf *b, size_t off, uint16_t v)
{
  if (b->failed || OTV_NEVER(off > b->len || b->len - off < 2)) return;
  otv_put_u16(b->p + off, v);
}

void otv_buf_put_u32(otv_buf *b, size_t off, uint32_t v)
{
  if (b->failed || OTV_NEVER(off > b->len || b->len - off < 4)) return;
  otv_put_u32(b->p + off, v);
}

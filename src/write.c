/*
 * write.c - the big-endian byte buffer and sfnt assembly for written fonts (static instances).
 * Spec: otff "Organization of an OpenType Font" (table directory, searchRange, entrySelector,
 * rangeShift, 4-byte table alignment) and "Calculating Checksums" (table checksums and
 * head.checkSumAdjustment = 0xB1B0AFBA - sum of the whole font).
 */
#include "instance.h"

#include <stdlib.h>

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

uint32_t otv_sfnt_checksum(const uint8_t *p, size_t len)
{
  /* The sum of big-endian uint32s mod 2^32 is sum(byte k of each word) << (24 - 8k) mod 2^32:
   * four byte-lane sums, which compilers vectorize (the word-at-a-time loop does not). Blocks of
   * 2^16 words keep each lane sum below 2^24, so 32-bit lanes never overflow. */
  uint32_t sum = 0;
  size_t i = 0;
  while (len - i >= 4) {
    size_t words = (len - i) / 4;
    if (words > 65536) words = 65536;
    uint32_t l0 = 0, l1 = 0, l2 = 0, l3 = 0;
    const uint8_t *q = p + i;
    for (size_t w = 0; w < words; w++) {
      l0 += q[4 * w], l1 += q[4 * w + 1], l2 += q[4 * w + 2], l3 += q[4 * w + 3];
    }
    sum += (l0 << 24) + (l1 << 16) + (l2 << 8) + l3;
    i += 4 * words;
  }
  if (i < len) {
    uint8_t last[4] = {0, 0, 0, 0};
    memcpy(last, p + i, len - i);
    sum += otv_peek_u32(last);
  }
  return sum;
}

static int cmp_tables(const void *a, const void *b)
{
  uint32_t x = ((const otv_sfnt_table *)a)->tag, y = ((const otv_sfnt_table *)b)->tag;
  return x < y ? -1 : x > y;
}

otv_status otv_sfnt_write(otv_buf *out, uint32_t sfnt_version, otv_sfnt_table *tables,
                          unsigned count, otv_error *err)
{
  if (count > 0xFFFF) return OTV_FAIL(err, LIMIT, 0, 0, "%u tables (at most 65535)", count);
  if (count) qsort(tables, count, sizeof *tables, cmp_tables);
  size_t head_at = SIZE_MAX;
  uint64_t total = 12 + 16 * (uint64_t)count;
  for (unsigned i = 0; i < count; i++) {
    if (i && tables[i].tag == tables[i - 1].tag) {
      char t[5];
      otv_tag_to_string(tables[i].tag, t);
      return OTV_FAIL(err, ARG, 0, 0, "table '%s' given twice", t);
    }
    if (tables[i].tag == OTV_T_HEAD && tables[i].len < 12)
      return OTV_FAIL(err, ARG, OTV_T_HEAD, 0, "head of %zu bytes", tables[i].len);
    total += ((uint64_t)tables[i].len + 3) & ~(uint64_t)3;
  }
  if (total > UINT32_MAX) return OTV_FAIL(err, LIMIT, 0, 0, "font larger than 4 GiB");
  if (!out->p && total) {
    /* an empty buffer gets exactly the font's size: no growth, no slack to trim later */
    out->p = otv_mem_alloc(out->al, (size_t)total);
    if (!out->p) {
      out->failed = true;
      return OTV_FAIL(err, NOMEM, 0, 0, "font buffer");
    }
    out->cap = (size_t)total;
  }
  if (!otv_buf_reserve(out, (size_t)total)) return OTV_FAIL(err, NOMEM, 0, 0, "font buffer");
  size_t base = out->len;

  /* spec: searchRange = (largest power of 2 <= numTables) * 16, entrySelector = log2 of it,
   * rangeShift = numTables * 16 - searchRange. */
  unsigned pow2 = 1, sel = 0;
  while (count && pow2 * 2 <= count) pow2 *= 2, sel++;
  unsigned search_range = count ? pow2 * 16 : 0;
  otv_buf_u32(out, sfnt_version);
  otv_buf_u16(out, (uint16_t)count);
  otv_buf_u16(out, (uint16_t)search_range);
  otv_buf_u16(out, (uint16_t)(count ? sel : 0));
  otv_buf_u16(out, (uint16_t)(count * 16 - search_range));
  size_t dir = out->len;
  otv_buf_zeros(out, 16 * (size_t)count);
  uint32_t tables_sum = 0;
  for (unsigned i = 0; i < count; i++) {
    size_t at = out->len;
    otv_buf_bytes(out, tables[i].data, tables[i].len);
    if (tables[i].tag == OTV_T_HEAD) {
      head_at = at;
      otv_buf_put_u32(out, at + 8, 0); /* checkSumAdjustment is 0 while summing */
    }
    uint32_t sum = otv_sfnt_checksum(out->p + at, tables[i].len);
    tables_sum += sum;
    otv_buf_pad4(out);
    uint8_t *rec = out->p + dir + 16 * (size_t)i;
    otv_put_u32(rec, tables[i].tag);
    otv_put_u32(rec + 4, sum);
    otv_put_u32(rec + 8, (uint32_t)(at - base));
    otv_put_u32(rec + 12, (uint32_t)tables[i].len);
  }
  if (out->failed) return OTV_FAIL(err, NOMEM, 0, 0, "font buffer");
  if (head_at != SIZE_MAX) {
    /* every table starts 4-byte aligned and is zero-padded, so the whole-font sum is the sum of
     * the header and directory plus the table checksums (head's taken with the field zeroed) */
    uint32_t sum = otv_sfnt_checksum(out->p + base, dir - base + 16 * (size_t)count) + tables_sum;
    otv_buf_put_u32(out, head_at + 8, 0xB1B0AFBAu - sum);
  }
  return OTV_E_OK;
}

/*
 * core/sfnt.c - the sfnt container (spec: otff "Organization of an OpenType Font"): reading the
 * table directory of a font or of one face of a TrueType Collection, and writing an sfnt
 * (table directory with searchRange/entrySelector/rangeShift, 4-byte aligned tables,
 * "Calculating Checksums": table checksums and head.checkSumAdjustment = 0xB1B0AFBA - sum of the
 * whole font). Knows no table but head's checkSumAdjustment field.
 */
#include "core/sfnt.h"

#include <stdlib.h>

#define MAX_FACES_IN_TTC 65536u

bool otv_sfnt_is_version(uint32_t v)
{
  return v == OTV_SFNT_TRUETYPE || v == OTV_SFNT_TRUE || v == OTV_SFNT_OTTO;
}

unsigned otv_font_face_count(const void *data, size_t len)
{
  otv_rd r = otv_rd_init(otv_span_of(data, len), 0);
  uint32_t magic = otv_rd_u32(&r);
  if (!otv_rd_ok(&r)) return 0;
  if (otv_sfnt_is_version(magic)) return 1;
  if (magic != OTV_SFNT_TTCF) return 0;
  otv_rd_skip(&r, 4);
  uint32_t n = otv_rd_u32(&r);
  if (!otv_rd_ok(&r) || n > MAX_FACES_IN_TTC) return 0;
  otv_span offs;
  if (!otv_span_array(r.s, r.pos, n, 4, &offs)) return 0;
  return (unsigned)n;
}

/* Find the offset of the table directory of face `index`. */
static otv_status find_directory(otv_span file, unsigned index, size_t *dir_off, otv_error *err)
{
  otv_rd r = otv_rd_init(file, 0);
  uint32_t magic = otv_rd_u32(&r);
  if (!otv_rd_ok(&r)) return OTV_FAIL(err, TRUNCATED, 0, 0, "file shorter than 4 bytes");
  if (magic == OTV_SFNT_WOFF || magic == OTV_SFNT_WOF2)
    return OTV_FAIL(err, UNSUPPORTED, 0, 0, "%s is not supported yet: decompress it first",
                    magic == OTV_SFNT_WOFF ? "WOFF" : "WOFF2");
  if (otv_sfnt_is_version(magic)) {
    if (index != 0)
      return OTV_FAIL(err, NOT_FOUND, 0, 0, "face index %u: the file has one face", index);
    *dir_off = 0;
    return OTV_E_OK;
  }
  if (magic != OTV_SFNT_TTCF)
    return OTV_FAIL(err, BAD_VALUE, 0, 0, "not an OpenType font (magic 0x%08x)", magic);
  uint16_t major = otv_rd_u16(&r);
  otv_rd_skip(&r, 2);
  uint32_t num_fonts = otv_rd_u32(&r);
  if (!otv_rd_ok(&r)) return OTV_FAIL(err, TRUNCATED, 0, r.bad_at, "TTC header");
  if (major != 1 && major != 2) return OTV_FAIL(err, UNSUPPORTED, 0, 4, "TTC version %u", major);
  if (index >= num_fonts)
    return OTV_FAIL(err, NOT_FOUND, 0, 8, "face index %u: the collection has %u faces", index,
                    num_fonts);
  otv_span offs;
  if (!otv_span_array(file, 12, num_fonts, 4, &offs))
    return OTV_FAIL(err, TRUNCATED, 0, 12, "TTC offset table (%u faces)", num_fonts);
  /* in range: offs checked just above */
  *dir_off = otv_peek_u32(offs.p + 4 * (size_t)index);
  otv_rd d = otv_rd_init(file, *dir_off);
  uint32_t v = otv_rd_u32(&d);
  if (!otv_rd_ok(&d))
    return OTV_FAIL(err, BAD_OFFSET, 0, 12 + 4 * (uint64_t)index, "TTC face %u offset", index);
  if (!otv_sfnt_is_version(v))
    return OTV_FAIL(err, BAD_VALUE, 0, *dir_off, "TTC face %u: bad sfnt version 0x%08x", index, v);
  return OTV_E_OK;
}

static int cmp_records(const void *a, const void *b)
{
  uint32_t x = ((const otv_table_record *)a)->tag, y = ((const otv_table_record *)b)->tag;
  return x < y ? -1 : x > y;
}

static otv_status read_directory(otv_sfnt *f, size_t dir_off, const otv_alloc *al, otv_error *err)
{
  otv_rd r = otv_rd_init(f->file, dir_off + 4);
  uint16_t num_tables = otv_rd_u16(&r);
  otv_rd_skip(&r, 6); /* searchRange, entrySelector, rangeShift: advisory, recomputed on write */
  if (!otv_rd_ok(&r)) return OTV_FAIL(err, TRUNCATED, 0, r.bad_at, "table directory header");
  otv_span recs;
  if (!otv_span_array(f->file, r.pos, num_tables, 16, &recs))
    return OTV_FAIL(err, TRUNCATED, 0, r.pos, "table directory: %u records", num_tables);
  f->tables = otv_mem_calloc(al, num_tables ? num_tables : 1, sizeof *f->tables);
  if (!f->tables) return OTV_FAIL(err, NOMEM, 0, 0, "table directory");
  f->table_count = num_tables;
  for (unsigned i = 0; i < num_tables; i++) {
    /* in range: recs checked above */
    const uint8_t *p = recs.p + 16 * (size_t)i;
    otv_table_record *t = &f->tables[i];
    t->tag = otv_peek_u32(p);
    t->checksum = otv_peek_u32(p + 4);
    t->offset = otv_peek_u32(p + 8);
    t->length = otv_peek_u32(p + 12);
    size_t at = (size_t)(p - f->file.p);
    for (int k = 0; k < 4; k++) {
      unsigned char c = (unsigned char)(t->tag >> (24 - 8 * k));
      if (c < 0x20 || c > 0x7E)
        return OTV_FAIL(err, BAD_VALUE, 0, at, "table record %u: bad tag 0x%08x", i, t->tag);
    }
    if (!otv_span_has(f->file, t->offset, t->length)) {
      char tag[5];
      otv_tag_to_string(t->tag, tag);
      return OTV_FAIL(err, BAD_OFFSET, 0, at + 8,
                      "table '%s' at 0x%x length %u runs past the end of the file (%zu bytes)", tag,
                      t->offset, t->length, f->file.len);
    }
  }
  qsort(f->tables, num_tables, sizeof *f->tables, cmp_records);
  for (unsigned i = 1; i < num_tables; i++)
    if (f->tables[i].tag == f->tables[i - 1].tag) {
      char tag[5];
      otv_tag_to_string(f->tables[i].tag, tag);
      return OTV_FAIL(err, BAD_VALUE, 0, dir_off, "table '%s' listed twice", tag);
    }
  return OTV_E_OK;
}

otv_status otv_sfnt_open(otv_sfnt *s, otv_span file, unsigned index, const otv_alloc *al,
                         otv_error *err)
{
  memset(s, 0, sizeof *s);
  s->file = file;
  size_t dir_off = 0;
  otv_status st = find_directory(file, index, &dir_off, err);
  if (!st) {
    /* in range: find_directory read the sfnt version there */
    s->version = otv_peek_u32(file.p + dir_off);
    st = read_directory(s, dir_off, al, err);
  }
  return st;
}

void otv_sfnt_close(otv_sfnt *s, const otv_alloc *al)
{
  if (s->tables)
    otv_mem_free(al, s->tables, (s->table_count ? s->table_count : 1) * sizeof *s->tables);
  memset(s, 0, sizeof *s);
}

otv_span otv_sfnt_find(const otv_sfnt *f, uint32_t tag)
{
  size_t lo = 0, hi = f->table_count;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    uint32_t t = f->tables[mid].tag;
    if (t == tag) {
      /* in range: every record was checked against the file size in read_directory */
      otv_span s = {f->file.p + f->tables[mid].offset, f->tables[mid].length};
      return s;
    }
    if (t < tag)
      lo = mid + 1;
    else
      hi = mid;
  }
  otv_span none = {NULL, 0};
  return none;
}

/* ---- writing ---- */

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
    otv_buf_put_u32(out, head_at + 8, OTV_HEAD_CHECKSUM_BASE - sum);
  }
  return OTV_E_OK;
}

/*
 * core/sfnt.c - the sfnt container (spec: otff "Organization of an OpenType Font"): reading the
 * table directory of a font or of one face of a TrueType Collection, and writing an sfnt or a
 * collection (TTC header 1.0, table directories with searchRange/entrySelector/rangeShift,
 * 4-byte aligned tables written once however many faces list them, "Calculating Checksums":
 * table checksums and a single font's head.checkSumAdjustment = 0xB1B0AFBA - sum of the whole
 * font). Knows no table but head's checkSumAdjustment field. The library's instancers write
 * through otv_sfnt_write; the CLI's WOFF/WOFF2 decoder through otv_sfnt_write_faces (table
 * order of the WOFF file, collections).
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
  if (!otv_span_array(file, OTV_TTC_HEADER_LEN, num_fonts, 4, &offs))
    return OTV_FAIL(err, TRUNCATED, 0, OTV_TTC_HEADER_LEN, "TTC offset table (%u faces)",
                    num_fonts);
  /* in range: offs checked just above */
  *dir_off = otv_peek_u32(offs.p + 4 * (size_t)index);
  otv_rd d = otv_rd_init(file, *dir_off);
  uint32_t v = otv_rd_u32(&d);
  if (!otv_rd_ok(&d))
    return OTV_FAIL(err, BAD_OFFSET, 0, OTV_TTC_HEADER_LEN + 4 * (uint64_t)index,
                    "TTC face %u offset", index);
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
  if (!otv_span_array(f->file, r.pos, num_tables, OTV_SFNT_RECORD_LEN, &recs))
    return OTV_FAIL(err, TRUNCATED, 0, r.pos, "table directory: %u records", num_tables);
  f->tables = otv_mem_calloc(al, num_tables ? num_tables : 1, sizeof *f->tables);
  if (!f->tables) return OTV_FAIL(err, NOMEM, 0, 0, "table directory");
  f->table_count = num_tables;
  for (unsigned i = 0; i < num_tables; i++) {
    /* in range: recs checked above */
    const uint8_t *p = recs.p + OTV_SFNT_RECORD_LEN * (size_t)i;
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

uint32_t otv_sfnt_table_checksum(uint32_t tag, const uint8_t *p, size_t len)
{
  uint32_t sum = otv_sfnt_checksum(p, len);
  if (tag == OTV_T_HEAD && len >= OTV_HEAD_CHECKSUM_ADJUSTMENT_OFF + 4)
    sum -= otv_peek_u32(p + OTV_HEAD_CHECKSUM_ADJUSTMENT_OFF); /* summed as 0 */
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
  for (unsigned i = 0; i < count; i++)
    if (tables[i].tag == OTV_T_HEAD && tables[i].len < OTV_HEAD_CHECKSUM_ADJUSTMENT_OFF + 4)
      return OTV_FAIL(err, ARG, OTV_T_HEAD, 0, "head of %zu bytes", tables[i].len);
  otv_sfnt_face face = {sfnt_version, NULL, count};
  return otv_sfnt_write_faces(out, tables, count, &face, 1, false, err);
}

uint64_t otv_sfnt_file_len(const otv_sfnt_table *tables, unsigned table_count,
                           const otv_sfnt_face *faces, unsigned face_count, bool collection)
{
  uint64_t total = collection ? OTV_TTC_HEADER_LEN + 4 * (uint64_t)face_count : 0;
  for (unsigned f = 0; f < face_count; f++)
    total += OTV_SFNT_HEADER_LEN + OTV_SFNT_RECORD_LEN * (uint64_t)faces[f].table_count;
  for (unsigned i = 0; i < table_count; i++) total += ((uint64_t)tables[i].len + 3) & ~(uint64_t)3;
  return total;
}

static otv_status twice(otv_error *err, bool collection, unsigned face, uint32_t tag)
{
  char t[5];
  otv_tag_to_string(tag, t);
  if (collection) return OTV_FAIL(err, ARG, 0, 0, "face %u: table '%s' given twice", face, t);
  return OTV_FAIL(err, ARG, 0, 0, "table '%s' given twice", t);
}

static int cmp_keys(const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* Put face fi's table indices in directory order (by tag) and check them: in range, no tag
 * twice. keys: room for the face's table_count sort keys (tag << 32 | index). */
static otv_status sort_face(const otv_sfnt_table *tables, unsigned table_count, otv_sfnt_face *face,
                            unsigned fi, bool collection, uint64_t *keys, otv_error *err)
{
  unsigned n = face->table_count;
  if (!face->table_idx) { /* every table, in the order given: already sorted */
    if (n != table_count)
      return OTV_FAIL(err, ARG, 0, 0, "face %u: %u tables listed as all %u", fi, n, table_count);
    for (unsigned i = 1; i < n; i++) {
      if (tables[i].tag == tables[i - 1].tag) return twice(err, collection, fi, tables[i].tag);
      if (tables[i].tag < tables[i - 1].tag)
        return OTV_FAIL(err, ARG, 0, 0, "face %u: tables not sorted by tag (%u)", fi, i);
    }
    return OTV_E_OK;
  }
  for (unsigned k = 0; k < n; k++) {
    unsigned i = face->table_idx[k];
    if (i >= table_count)
      return OTV_FAIL(err, ARG, 0, 0, "face %u: table index %u of %u", fi, i, table_count);
    keys[k] = (uint64_t)tables[i].tag << 32 | i;
  }
  if (n) qsort(keys, n, sizeof *keys, cmp_keys);
  for (unsigned k = 0; k < n; k++) {
    face->table_idx[k] = (uint16_t)keys[k];
    if (k && keys[k] >> 32 == keys[k - 1] >> 32)
      return twice(err, collection, fi, (uint32_t)(keys[k] >> 32));
  }
  return OTV_E_OK;
}

/* spec: searchRange = (largest power of 2 <= numTables) * 16, entrySelector = log2 of it,
 * rangeShift = numTables * 16 - searchRange (all 0 for no table). */
static void put_dir_header(otv_buf *out, uint32_t version, unsigned count)
{
  unsigned pow2 = 1, sel = 0;
  while (count && pow2 * 2 <= count) pow2 *= 2, sel++;
  unsigned search_range = count ? pow2 * OTV_SFNT_RECORD_LEN : 0;
  otv_buf_u32(out, version);
  otv_buf_u16(out, (uint16_t)count);
  otv_buf_u16(out, (uint16_t)search_range);
  otv_buf_u16(out, (uint16_t)(count ? sel : 0));
  otv_buf_u16(out, (uint16_t)(count * OTV_SFNT_RECORD_LEN - search_range));
}

static void put_record(uint8_t *rec, uint32_t tag, uint32_t sum, uint32_t off, size_t len)
{
  /* in range: the caller's directory was written in full before the tables */
  otv_put_u32(rec, tag);
  otv_put_u32(rec + 4, sum);
  otv_put_u32(rec + 8, off);
  otv_put_u32(rec + 12, (uint32_t)len);
}

otv_status otv_sfnt_write_faces(otv_buf *out, const otv_sfnt_table *tables, unsigned table_count,
                                otv_sfnt_face *faces, unsigned face_count, bool collection,
                                otv_error *err)
{
  if (collection ? face_count == 0 : face_count != 1)
    return OTV_FAIL(err, ARG, 0, 0, "%u faces in %s", face_count,
                    collection ? "a collection" : "a single font");
  if (out->len & 3)
    return OTV_FAIL(err, ARG, 0, 0, "a font written at %zu, not a multiple of 4", out->len);
  if (!collection && faces[0].table_count != table_count)
    return OTV_FAIL(err, ARG, 0, 0, "a single font listing %u of its %u tables",
                    faces[0].table_count, table_count);
  /* a single font listing its tables in file order gets its records as the tables are written;
   * otherwise scratch holds the sort keys, then each table's offset and checksum */
  bool direct = !collection && !faces[0].table_idx;
  size_t scratch_len = direct ? 0 : table_count;
  for (unsigned f = 0; f < face_count; f++) {
    unsigned n = faces[f].table_count;
    if (n > 0xFFFF) {
      if (collection) return OTV_FAIL(err, LIMIT, 0, 0, "face %u: %u tables (at most 65535)", f, n);
      return OTV_FAIL(err, LIMIT, 0, 0, "%u tables (at most 65535)", n);
    }
    if (faces[f].table_idx && scratch_len < n) scratch_len = n;
  }
  uint64_t *scratch = NULL;
  if (scratch_len) {
    scratch = otv_mem_calloc(out->al, scratch_len, sizeof *scratch);
    if (!scratch) return OTV_FAIL(err, NOMEM, 0, 0, "%zu table places", scratch_len);
  }
  otv_status st = OTV_E_OK;
  for (unsigned f = 0; f < face_count && !st; f++)
    st = sort_face(tables, table_count, &faces[f], f, collection, scratch, err);
  uint64_t total = otv_sfnt_file_len(tables, table_count, faces, face_count, collection);
  if (!st && total > UINT32_MAX) st = OTV_FAIL(err, LIMIT, 0, 0, "font larger than 4 GiB");
  if (!st && !out->p && total) {
    /* an empty buffer gets exactly the font's size: no growth, no slack to trim later */
    out->p = otv_mem_alloc(out->al, (size_t)total);
    if (!out->p)
      out->failed = true;
    else
      out->cap = (size_t)total;
  }
  if (!st && !otv_buf_reserve(out, (size_t)total))
    st = OTV_FAIL(err, NOMEM, 0, 0, "font buffer of %llu bytes", (unsigned long long)total);
  if (st) {
    if (scratch) otv_mem_free(out->al, scratch, scratch_len * sizeof *scratch);
    return st;
  }

  /* the TTC header and every directory, records zeroed until the tables are placed */
  size_t base = out->len;
  if (collection) {
    otv_buf_u32(out, OTV_SFNT_TTCF);
    otv_buf_u32(out, OTV_TTC_VERSION_1_0);
    otv_buf_u32(out, face_count);
    size_t dir = OTV_TTC_HEADER_LEN + 4 * (size_t)face_count;
    for (unsigned f = 0; f < face_count; f++) {
      otv_buf_u32(out, (uint32_t)dir);
      dir += OTV_SFNT_HEADER_LEN + OTV_SFNT_RECORD_LEN * (size_t)faces[f].table_count;
    }
  }
  for (unsigned f = 0; f < face_count; f++) {
    put_dir_header(out, faces[f].version, faces[f].table_count);
    otv_buf_zeros(out, OTV_SFNT_RECORD_LEN * (size_t)faces[f].table_count);
  }
  size_t dirs_end = out->len;

  /* the tables, each once */
  size_t head_at = SIZE_MAX;
  uint32_t tables_sum = 0;
  for (unsigned i = 0; i < table_count; i++) {
    size_t at = out->len;
    otv_buf_bytes(out, tables[i].data, tables[i].len);
    /* in range: the reservation above holds every table */
    uint32_t sum = otv_sfnt_table_checksum(tables[i].tag, out->p + at, tables[i].len);
    if (!collection && tables[i].tag == OTV_T_HEAD &&
        tables[i].len >= OTV_HEAD_CHECKSUM_ADJUSTMENT_OFF + 4) {
      head_at = at + OTV_HEAD_CHECKSUM_ADJUSTMENT_OFF;
      otv_buf_put_u32(out, head_at, 0); /* 0 while the whole file is summed */
    }
    tables_sum += sum;
    otv_buf_pad4(out);
    if (direct)
      put_record(out->p + base + OTV_SFNT_HEADER_LEN + OTV_SFNT_RECORD_LEN * (size_t)i,
                 tables[i].tag, sum, (uint32_t)(at - base), tables[i].len);
    else
      scratch[i] = (uint64_t)(at - base) << 32 | sum;
  }
  if (!direct) {
    size_t dir = base + (collection ? OTV_TTC_HEADER_LEN + 4 * (size_t)face_count : 0);
    for (unsigned f = 0; f < face_count; f++) {
      for (unsigned k = 0; k < faces[f].table_count; k++) {
        unsigned i = faces[f].table_idx ? faces[f].table_idx[k] : k;
        put_record(out->p + dir + OTV_SFNT_HEADER_LEN + OTV_SFNT_RECORD_LEN * (size_t)k,
                   tables[i].tag, (uint32_t)scratch[i], (uint32_t)(scratch[i] >> 32),
                   tables[i].len);
      }
      dir += OTV_SFNT_HEADER_LEN + OTV_SFNT_RECORD_LEN * (size_t)faces[f].table_count;
    }
  }
  if (scratch) otv_mem_free(out->al, scratch, scratch_len * sizeof *scratch);
  if (OTV_NEVER(out->failed)) return OTV_FAIL(err, NOMEM, 0, 0, "font buffer");
  if (head_at != SIZE_MAX) {
    /* every table starts 4-byte aligned and is zero-padded, so the whole-font sum is the sum of
     * the header and directory plus the table checksums (head's taken with the field zeroed) */
    uint32_t sum = otv_sfnt_checksum(out->p + base, dirs_end - base) + tables_sum;
    otv_buf_put_u32(out, head_at, OTV_HEAD_CHECKSUM_BASE - sum);
  }
  return OTV_E_OK;
}

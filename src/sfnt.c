/*
 * sfnt.c - opening a face: file mapping, the sfnt table directory and TrueType Collections
 * (spec: otff "Organization of an OpenType Font"), head and maxp, then every table module.
 */
#include "internal.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define SFNT_TRUE 0x74727565u /* 'true' */
#define SFNT_OTTO 0x4F54544Fu /* 'OTTO' */
#define SFNT_TTCF 0x74746366u /* 'ttcf' */
#define SFNT_WOFF 0x774F4646u /* 'wOFF' */
#define SFNT_WOF2 0x774F4632u /* 'wOF2' */
#define MAX_FACES_IN_TTC 65536u

static bool is_sfnt_version(uint32_t v)
{
  return v == 0x00010000u || v == SFNT_TRUE || v == SFNT_OTTO;
}

unsigned otv_font_face_count(const void *data, size_t len)
{
  otv_rd r = otv_rd_init(otv_span_of(data, len), 0);
  uint32_t magic = otv_rd_u32(&r);
  if (!otv_rd_ok(&r)) return 0;
  if (is_sfnt_version(magic)) return 1;
  if (magic != SFNT_TTCF) return 0;
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
  if (magic == SFNT_WOFF || magic == SFNT_WOF2)
    return OTV_FAIL(err, UNSUPPORTED, 0, 0, "%s is not supported yet: decompress it first",
                    magic == SFNT_WOFF ? "WOFF" : "WOFF2");
  if (is_sfnt_version(magic)) {
    if (index != 0)
      return OTV_FAIL(err, NOT_FOUND, 0, 0, "face index %u: the file has one face", index);
    *dir_off = 0;
    return OTV_E_OK;
  }
  if (magic != SFNT_TTCF)
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
  if (!is_sfnt_version(v))
    return OTV_FAIL(err, BAD_VALUE, 0, *dir_off, "TTC face %u: bad sfnt version 0x%08x", index, v);
  return OTV_E_OK;
}

static int cmp_records(const void *a, const void *b)
{
  uint32_t x = ((const otv_table_record *)a)->tag, y = ((const otv_table_record *)b)->tag;
  return x < y ? -1 : x > y;
}

static otv_status read_directory(otv_face *f, size_t dir_off, otv_error *err)
{
  otv_rd r = otv_rd_init(f->file, dir_off + 4);
  uint16_t num_tables = otv_rd_u16(&r);
  otv_rd_skip(&r, 6); /* searchRange, entrySelector, rangeShift: advisory, recomputed on write */
  if (!otv_rd_ok(&r)) return OTV_FAIL(err, TRUNCATED, 0, r.bad_at, "table directory header");
  otv_span recs;
  if (!otv_span_array(f->file, r.pos, num_tables, 16, &recs))
    return OTV_FAIL(err, TRUNCATED, 0, r.pos, "table directory: %u records", num_tables);
  f->tables = otv_mem_calloc(&f->al, num_tables ? num_tables : 1, sizeof *f->tables);
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

otv_span otv_face_span(const otv_face *f, uint32_t tag)
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

static otv_status read_head_maxp(otv_face *f, otv_error *err)
{
  otv_span head = otv_face_span(f, OTV_T_HEAD);
  if (head.p) {
    otv_rd r = otv_rd_init(head, 12);
    uint32_t magic = otv_rd_u32(&r);
    otv_rd_skip(&r, 2);
    uint16_t upem = otv_rd_u16(&r);
    r.pos = 50;
    int16_t loc_format = otv_rd_i16(&r);
    if (!otv_rd_ok(&r)) return OTV_FAIL_RD(err, OTV_T_HEAD, 0, &r, "head is shorter than 54 bytes");
    if (magic != 0x5F0F3CF5u)
      return OTV_FAIL(err, BAD_VALUE, OTV_T_HEAD, 12, "magicNumber 0x%08x", magic);
    if (upem < 16 || upem > 16384)
      return OTV_FAIL(err, BAD_VALUE, OTV_T_HEAD, 18, "unitsPerEm %u outside 16..16384", upem);
    f->units_per_em = upem;
    f->index_to_loc_format = loc_format;
  } else {
    f->units_per_em = 1000; /* spec default for fonts without head (CFF-only collections) */
  }
  otv_span maxp = otv_face_span(f, OTV_T_MAXP);
  if (!maxp.p) return OTV_FAIL(err, NO_TABLE, OTV_T_MAXP, 0, "maxp is required");
  otv_rd r = otv_rd_init(maxp, 4);
  f->glyph_count = otv_rd_u16(&r);
  if (!otv_rd_ok(&r)) return OTV_FAIL_RD(err, OTV_T_MAXP, 0, &r, "maxp header");
  if (otv_face_has(f, OTV_T_GLYF))
    f->flavour = OTV_FLAVOUR_GLYF;
  else if (otv_face_has(f, OTV_T_CFF2))
    f->flavour = OTV_FLAVOUR_CFF2;
  else if (otv_face_has(f, OTV_T_CFF))
    f->flavour = OTV_FLAVOUR_CFF;
  if (f->flavour != OTV_FLAVOUR_NONE && !head.p)
    return OTV_FAIL(err, NO_TABLE, OTV_T_HEAD, 0, "head is required in a font with outlines");
  return OTV_E_OK;
}

/* Each table module, in dependency order: fvar (axis count) first, then the tables whose
 * variation data is checked against it. */
static otv_status parse_tables(otv_face *f, otv_error *err)
{
  otv_status s;
  if ((s = read_head_maxp(f, err))) return s;
  if ((s = otv_fvar_parse(f, err))) return s;
  if ((s = otv_name_parse(f, err))) return s;
  if ((s = otv_stat_parse(f, err))) return s;
  if ((s = otv_cmap_parse(f, err))) return s;
  if ((s = otv_glyf_parse(f, err))) return s;
  if ((s = otv_cff_parse(f, err))) return s;
  if ((s = otv_metrics_parse(f, err))) return s;
  return OTV_E_OK;
}

static otv_status open_common(otv_face *f, unsigned index, otv_error *err)
{
  size_t dir_off = 0;
  otv_status s = find_directory(f->file, index, &dir_off, err);
  if (!s) s = read_directory(f, dir_off, err);
  if (!s) s = parse_tables(f, err);
  return s;
}

otv_status otv_face_open_memory(const void *data, size_t len, unsigned index,
                                const otv_options *opt, otv_face **out, otv_error *err)
{
  if (!out) return OTV_FAIL(err, ARG, 0, 0, "out is NULL");
  *out = NULL;
  if (!data && len) return OTV_FAIL(err, ARG, 0, 0, "data is NULL");
  otv_alloc al;
  otv_alloc_init(&al, opt);
  otv_face *f = otv_mem_calloc(&al, 1, sizeof *f);
  if (!f) return OTV_FAIL(err, NOMEM, 0, 0, "face");
  f->al = al;
  f->file = otv_span_of(data, len);
  otv_status s = open_common(f, index, err);
  if (s) {
    otv_face_close(f);
    return s;
  }
  *out = f;
  return OTV_E_OK;
}

otv_status otv_face_open_file(const char *path, unsigned index, const otv_options *opt,
                              otv_face **out, otv_error *err)
{
  if (!out || !path) return OTV_FAIL(err, ARG, 0, 0, "path or out is NULL");
  *out = NULL;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return OTV_FAIL(err, IO, 0, 0, "cannot open '%s'", path);
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return OTV_FAIL(err, IO, 0, 0, "'%s' is not a regular file", path);
  }
  size_t len = (size_t)st.st_size;
  void *map = NULL;
  if (len > 0) {
    map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map == MAP_FAILED) {
      close(fd);
      return OTV_FAIL(err, IO, 0, 0, "cannot map '%s'", path);
    }
  }
  close(fd);
  static const uint8_t empty[1] = {0};
  otv_status s = otv_face_open_memory(map ? map : empty, len, index, opt, out, err);
  if (s) {
    if (map) munmap(map, len);
    return s;
  }
  (*out)->map = map;
  (*out)->map_len = len;
  return OTV_E_OK;
}

void otv_face_close(otv_face *f)
{
  if (!f) return;
  otv_metrics_free(f);
  otv_cff_free(f);
  otv_glyf_free(f);
  otv_cmap_free(f);
  otv_stat_free(f);
  otv_name_free(f);
  otv_fvar_free(f);
  if (f->tables)
    otv_mem_free(&f->al, f->tables, (f->table_count ? f->table_count : 1) * sizeof *f->tables);
  if (f->map) munmap(f->map, f->map_len);
  otv_alloc al = f->al;
  otv_mem_free(&al, f, sizeof *f);
}

void otv_face_get_info(const otv_face *f, otv_face_info *out)
{
  memset(out, 0, sizeof *out);
  out->flavour = f->flavour;
  out->glyph_count = f->glyph_count;
  out->units_per_em = f->units_per_em;
  out->axis_count = f->fvar.axis_count;
  out->instance_count = f->fvar.instance_count;
  out->avar_version = f->fvar.avar_version;
  out->table_count = f->table_count;
}

unsigned otv_face_tables(const otv_face *f, unsigned start, unsigned *count, otv_table_record *out)
{
  unsigned n = 0;
  if (count) {
    for (unsigned i = start; i < f->table_count && n < *count; i++) out[n++] = f->tables[i];
    *count = n;
  }
  return f->table_count;
}

const uint8_t *otv_face_table(const otv_face *f, uint32_t tag, size_t *len)
{
  otv_span s = otv_face_span(f, tag);
  if (len) *len = s.len;
  return s.p;
}

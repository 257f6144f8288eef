/*
 * face.c - the face: opening a font (the file mapping, the table directory of core/sfnt.c, head
 * and maxp, then each table module, in the order below), closing it, and the public accessors
 * of a face, which hand over to the modules' own (otvar.h documents them).
 */
#include "face.h"
#include "fields.h"

#include <stdio.h>
#include <stdlib.h>
#if !defined(__wasi__)
#  include <fcntl.h>
#  include <sys/mman.h>
#  include <sys/stat.h>
#  include <unistd.h>
#endif

static otv_status read_head_maxp(otv_face *f, otv_error *err)
{
  otv_span head = otv_face_span(f, OTV_T_HEAD);
  if (head.p) {
    otv_rd r = otv_rd_init(head, HEAD_MAGIC_NUMBER);
    uint32_t magic = otv_rd_u32(&r);
    otv_rd_skip(&r, 2);
    uint16_t upem = otv_rd_u16(&r);
    r.pos = HEAD_INDEX_TO_LOC_FORMAT;
    int16_t loc_format = otv_rd_i16(&r);
    if (!otv_rd_ok(&r)) return OTV_FAIL_RD(err, OTV_T_HEAD, 0, &r, "head is shorter than 54 bytes");
    if (magic != OTV_HEAD_MAGIC)
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
  otv_rd r = otv_rd_init(maxp, MAXP_NUM_GLYPHS);
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

/* The table of contents: every table module, in dependency order (fvar's axis count first,
 * then the tables whose variation data is checked against it). */
static otv_status parse_tables(otv_face *f, otv_error *err)
{
  otv_status s;
  const otv_alloc *al = &f->al;
  otv_metrics *m = &f->met;
  if ((s = read_head_maxp(f, err))) return s;
  if ((s = otv_fvar_parse(otv_face_span(f, OTV_T_FVAR), otv_face_span(f, OTV_T_AVAR), al, &f->fvar,
                          err)))
    return s;
  uint16_t axes = f->fvar.axis_count;
  if ((s = otv_name_parse(otv_face_span(f, OTV_T_NAME), &f->name, err))) return s;
  if ((s = otv_stat_parse(otv_face_span(f, OTV_T_STAT), &f->stat, err))) return s;
  if ((s = otv_cmap_parse(otv_face_span(f, OTV_T_CMAP), &f->cmap, err))) return s;
  if (f->flavour == OTV_FLAVOUR_GLYF &&
      ((s = otv_glyf_parse(otv_face_span(f, OTV_T_GLYF), otv_face_span(f, OTV_T_LOCA),
                           f->index_to_loc_format, f->glyph_count, &f->glyf, err)) ||
       (s = otv_gvar_parse(otv_face_span(f, OTV_T_GVAR), axes, &f->glyf.gvar, err))))
    return s;
  if (f->flavour == OTV_FLAVOUR_CFF || f->flavour == OTV_FLAVOUR_CFF2) {
    bool cff2 = f->flavour == OTV_FLAVOUR_CFF2;
    if ((s = otv_cff_parse(otv_face_span(f, cff2 ? OTV_T_CFF2 : OTV_T_CFF), cff2, f->units_per_em,
                           axes, al, &f->cff, err)))
      return s;
  }
  m->bases.os2 = otv_face_span(f, OTV_T_OS2);
  m->bases.hhea = otv_face_span(f, OTV_T_HHEA);
  m->bases.vhea = otv_face_span(f, OTV_T_VHEA);
  m->bases.post = otv_face_span(f, OTV_T_POST);
  m->bases.gasp = otv_face_span(f, OTV_T_GASP);
  m->head = otv_face_span(f, OTV_T_HEAD);
  if ((s = otv_mtx_parse(m->bases.hhea, otv_face_span(f, OTV_T_HMTX), false, f->glyph_count, &m->h,
                         err)) ||
      (s = otv_mtx_parse(m->bases.vhea, otv_face_span(f, OTV_T_VMTX), true, f->glyph_count, &m->v,
                         err)) ||
      (s = otv_vorg_parse(otv_face_span(f, OTV_T_VORG), &m->vorg, err)) ||
      (s = otv_xvar_parse(otv_face_span(f, OTV_T_HVAR), false, axes, al, &m->hvar, err)) ||
      (s = otv_xvar_parse(otv_face_span(f, OTV_T_VVAR), true, axes, al, &m->vvar, err)) ||
      (s = otv_mvar_parse(otv_face_span(f, OTV_T_MVAR), axes, al, &m->mvar, err)))
    return s;
  /* glyf's phantom points default to hmtx/vmtx */
  if (f->glyf.present) otv_glyf_set_metrics(&f->glyf, &m->h, &m->v, m->bases.os2, m->bases.hhea);
  m->present = m->h.present;
  return OTV_E_OK;
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
  f->opt_flags = opt ? opt->flags : 0;
  f->outline_cache_max = opt ? (size_t)(opt->flags >> 8) * 1024u : 0;
  otv_status s = otv_sfnt_open(&f->sfnt, otv_span_of(data, len), index, &al, err);
  if (!s) s = parse_tables(f, err);
  if (s) {
    otv_face_close(f);
    return s;
  }
  *out = f;
  return OTV_E_OK;
}

#if defined(__wasi__)
/* wasi-libc has no mmap (only an opt-in emulation that copies the file), and the WebAssembly
 * build (scripts/build-wasm.sh, docs/web.md) gets its fonts as bytes from the browser: there the
 * file API says it is not supported and callers use otv_face_open_memory. */
otv_status otv_face_open_file(const char *path, unsigned index, const otv_options *opt,
                              otv_face **out, otv_error *err)
{
  (void)index;
  (void)opt;
  if (!out || !path) return OTV_FAIL(err, ARG, 0, 0, "path or out is NULL");
  *out = NULL;
  return OTV_FAIL(err, UNSUPPORTED, 0, 0, "no file mapping on WASI: use otv_face_open_memory");
}
#else
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
#endif

void otv_face_close(otv_face *f)
{
  if (!f) return;
  const otv_alloc *al = &f->al;
  otv_xvar_free(al, &f->met.hvar);
  otv_xvar_free(al, &f->met.vvar);
  otv_mvar_free(al, &f->met.mvar);
  otv_cff_free(al, &f->cff);
  otv_fvar_free(al, &f->fvar);
  otv_sfnt_close(&f->sfnt, al);
#if !defined(__wasi__) /* WASI faces never own a mapping: see otv_face_open_file */
  if (f->map) munmap(f->map, f->map_len);
#endif
  otv_alloc a = f->al;
  otv_mem_free(&a, f, sizeof *f);
}

/* ---- accessors ---- */

void otv_face_get_info(const otv_face *f, otv_face_info *out)
{
  if (!out) return;
  memset(out, 0, sizeof *out);
  out->flavour = f->flavour;
  out->glyph_count = f->glyph_count;
  out->units_per_em = f->units_per_em;
  out->axis_count = f->fvar.axis_count;
  out->instance_count = f->fvar.instance_count;
  out->avar_version = f->fvar.avar.version;
  out->table_count = f->sfnt.table_count;
}

/* Paged lists (otvar.h): without an output array a call only returns the total (and says, in
 * *count, that it wrote nothing), so that a caller can ask for the size first. */
static unsigned *paged(unsigned *count, const void *out)
{
  if (count && !out) {
    *count = 0;
    return NULL;
  }
  return count;
}

unsigned otv_face_tables(const otv_face *f, unsigned start, unsigned *count, otv_table_record *out)
{
  unsigned n = 0;
  count = paged(count, out);
  if (count) {
    for (unsigned i = start; i < f->sfnt.table_count && n < *count; i++)
      out[n++] = f->sfnt.tables[i];
    *count = n;
  }
  return f->sfnt.table_count;
}

const uint8_t *otv_face_table(const otv_face *f, uint32_t tag, size_t *len)
{
  otv_span s = otv_face_span(f, tag);
  if (len) *len = s.len;
  return s.p;
}

unsigned otv_face_axes(const otv_face *f, unsigned start, unsigned *count, otv_axis *out)
{
  return otv_fvar_axes(&f->fvar, start, paged(count, out), out);
}

unsigned otv_face_named_instances(const otv_face *f, unsigned start, unsigned *count,
                                  otv_named_instance *out)
{
  return otv_fvar_named_instances(&f->fvar, start, paged(count, out), out);
}

otv_status otv_face_named_instance_coords(const otv_face *f, unsigned instance, double *coords,
                                          unsigned cap, otv_error *err)
{
  return otv_fvar_instance_coords(&f->fvar, instance, coords, cap, err);
}

void otv_face_stat(const otv_face *f, otv_stat_info *out)
{
  if (out) otv_stat_get_info(&f->stat, out);
}

unsigned otv_face_stat_axes(const otv_face *f, unsigned start, unsigned *count, otv_stat_axis *out)
{
  return otv_stat_axes(&f->stat, start, paged(count, out), out);
}

unsigned otv_face_stat_values(const otv_face *f, unsigned start, unsigned *count,
                              otv_stat_value *out)
{
  return otv_stat_values(&f->stat, start, paged(count, out), out);
}

unsigned otv_face_stat_value_records(const otv_face *f, unsigned value_index, unsigned start,
                                     unsigned *count, otv_stat_axis_value_record *out)
{
  return otv_stat_value_records(&f->stat, value_index, start, paged(count, out), out);
}

otv_status otv_face_name(const otv_face *f, uint16_t name_id, char *buf, size_t cap,
                         size_t *out_len, otv_error *err)
{
  return otv_name_get(&f->name, name_id, buf, cap, out_len, err);
}

uint32_t otv_face_glyph_for_char(const otv_face *f, uint32_t cp, uint32_t vs)
{
  if (!f) return 0;
  return otv_cmap_lookup(&f->cmap, cp, vs, f->glyph_count);
}

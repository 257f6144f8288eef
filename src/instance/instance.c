/*
 * instance/instance.c - static and partial instances: otv_instance_create runs the steps
 * (instance/inst.h) and assembles the sfnt (core/sfnt.h). Which tables are rebuilt, copied or
 * dropped is decided here.
 *
 * Reference behaviour: fontTools' varLib.instancer making a full instance (every axis pinned);
 * spec pages: otvaroverview ("Variation data tables and miscellaneous requirements").
 */
#include "instance/store.h"
#include "instance/inst.h"

#define POST_V3 0x00030000u
#define POST_V3_LEN 32 /* the post header (version .. maxMemType1) */

/* Tables that only exist for variations: dropped from a static instance. */
static bool is_variation_table(uint32_t tag)
{
  switch (tag) {
  case OTV_T_FVAR:
  case OTV_T_GVAR:
  case OTV_T_AVAR:
  case OTV_T_HVAR:
  case OTV_T_VVAR:
  case OTV_T_MVAR:
  case OTV_T_CVAR:
  case OTV_T_STAT: return true;
  default: return false;
  }
}

static void inst_free(otv_inst *in)
{
  const otv_alloc *al = in->al;
  size_t n = in->glyph_count ? in->glyph_count : 1;
  if (in->adv_w) otv_mem_free(al, in->adv_w, n * sizeof *in->adv_w);
  if (in->adv_h) otv_mem_free(al, in->adv_h, n * sizeof *in->adv_h);
  if (in->lsb) otv_mem_free(al, in->lsb, n * sizeof *in->lsb);
  if (in->tsb) otv_mem_free(al, in->tsb, n * sizeof *in->tsb);
  if (in->bbox) otv_mem_free(al, in->bbox, n * sizeof *in->bbox);
  if (in->has_outline) otv_mem_free(al, in->has_outline, n);
  otv_buf *bufs[] = {&in->glyf, &in->loca, &in->hmtx, &in->vmtx, &in->head,
                     &in->hhea, &in->vhea, &in->maxp, &in->os2,  &in->post,
                     &in->cvt,  &in->name, &in->gdef, &in->gpos, &in->gsub,
                     &in->base, &in->cff2, &in->gvar, &in->cvar, &in->fvar,
                     &in->avar, &in->hvar, &in->vvar, &in->mvar, &in->gvar_data};
  for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++) otv_buf_free(bufs[i]);
  if (in->gvar_offs)
    otv_mem_free(al, in->gvar_offs, ((size_t)in->glyph_count + 1) * sizeof *in->gvar_offs);
  otv_tvs_work_free(&in->tvs, al, in->pin.axis_count);
}

/* The rebuilt version of a table, or NULL to copy it as it is. */
static otv_buf *rebuilt(otv_inst *in, uint32_t tag)
{
  switch (tag) {
  case OTV_T_GLYF: return &in->glyf;
  case OTV_T_LOCA: return &in->loca;
  case OTV_T_HMTX: return &in->hmtx;
  case OTV_T_VMTX: return in->has_vmtx ? &in->vmtx : NULL;
  case OTV_T_HEAD: return &in->head;
  case OTV_T_HHEA: return &in->hhea;
  case OTV_T_VHEA: return in->vhea.len ? &in->vhea : NULL;
  case OTV_T_MAXP: return in->maxp.len ? &in->maxp : NULL;
  case OTV_T_OS2: return in->os2.len ? &in->os2 : NULL;
  case OTV_T_POST: return in->post.len ? &in->post : NULL;
  case OTV_T_CVT: return in->cvt.len ? &in->cvt : NULL;
  case OTV_T_NAME: return in->name.len ? &in->name : NULL;
  case OTV_T_GDEF: return in->gdef.len ? &in->gdef : NULL;
  case OTV_T_GPOS: return in->gpos.len ? &in->gpos : NULL;
  case OTV_T_GSUB: return in->gsub.len ? &in->gsub : NULL;
  case OTV_T_BASE: return in->base.len ? &in->base : NULL;
  case OTV_T_CFF2: return in->cff2.len ? &in->cff2 : NULL;
  default: return NULL;
  }
}

/* A partial instance's variation tables: *b set to the rebuilt one, false to drop the table.
 * Other tables keep what rebuilt() gave (STAT is copied). */
static bool partial_table(otv_inst *in, uint32_t tag, otv_buf **b)
{
  switch (tag) {
  case OTV_T_FVAR: *b = &in->fvar; return true;
  case OTV_T_AVAR: *b = &in->avar; return in->avar.len != 0;
  case OTV_T_GVAR: *b = &in->gvar; return true;
  case OTV_T_CVAR: *b = &in->cvar; return in->cvar.len != 0;
  case OTV_T_HVAR: *b = &in->hvar; return true;
  case OTV_T_VVAR: *b = &in->vvar; return true;
  case OTV_T_MVAR: *b = &in->mvar; return true;
  default: return true;
  }
}

static int cmp_axis(const void *a, const void *b, const uint32_t *tags)
{
  uint32_t x = tags[*(const uint8_t *)a], y = tags[*(const uint8_t *)b];
  return x < y ? -1 : x > y;
}

static otv_status run(otv_inst *in, uint8_t **out, size_t *out_len)
{
  const otv_face *f = in->face;
  if (!f->fvar.present || !f->fvar.axis_count)
    return OTV_FAIL(in->err, UNSUPPORTED, OTV_T_FVAR, 0, "not a variable font (no fvar)");
  if (f->flavour != OTV_FLAVOUR_GLYF && f->flavour != OTV_FLAVOUR_CFF2)
    return OTV_FAIL(in->err, UNSUPPORTED, 0, 0, "instancing needs glyf or CFF2 outlines");
  in->pin.axis_count = in->loc->at.axis_count;
  if (in->pin.axis_count > OTV_MAX_AXES) return OTV_FAIL(in->err, LIMIT, OTV_T_FVAR, 0, "axes");
  in->pin.coords = in->loc->coords;
  in->glyph_count = f->glyph_count;
  for (unsigned i = 0; i < in->pin.axis_count; i++) {
    in->pin.axis_tags[i] = otv_fvar_axis_tag(&f->fvar, i);
    in->pin.axis_order[i] = (uint8_t)i;
  }
  /* insertion sort by tag (stable: duplicate tags keep font order) */
  for (unsigned i = 1; i < in->pin.axis_count; i++)
    for (unsigned j = i; j > 0 && cmp_axis(&in->pin.axis_order[j - 1], &in->pin.axis_order[j],
                                           in->pin.axis_tags) > 0;
         j--) {
      uint8_t t = in->pin.axis_order[j];
      in->pin.axis_order[j] = in->pin.axis_order[j - 1];
      in->pin.axis_order[j - 1] = t;
    }
  if (in->pin.partial) {
    if (in->flags & OTV_INSTANCE_UPDATE_NAMES)
      return OTV_FAIL(in->err, UNSUPPORTED, OTV_T_NAME, 0, "name updates of partial instances");
    if (f->fvar.avar.version > 1)
      return OTV_FAIL(in->err, UNSUPPORTED, OTV_T_AVAR, 0, "partial instances of avar version %u",
                      f->fvar.avar.version);
    /* the kept axes at their defaults: the new default location */
    in->pin.kept_count = 0;
    for (unsigned a = 0; a < in->pin.axis_count; a++) {
      in->pcoords[a] = in->pin.keep[a] ? 0 : in->loc->coords[a];
      if (in->pin.keep[a]) in->pin.new_index[a] = (uint8_t)in->pin.kept_count++;
    }
    in->pin.coords = in->pcoords;
    in->gvar_offs = otv_mem_calloc(in->al, (size_t)in->glyph_count + 1, sizeof *in->gvar_offs);
    if (!in->gvar_offs) return OTV_FAIL(in->err, NOMEM, OTV_T_GVAR, 0, "gvar offsets");
  }
  otv_status st = f->flavour == OTV_FLAVOUR_CFF2 ? otv_inst_cff(in) : otv_inst_glyf(in);
  if (st) return st;
  /* a partial instance's variation tables first: the name table keeps what the new fvar uses */
  if (in->pin.partial && (st = otv_part_tables(in))) return st;
  if ((st = otv_inst_tables(in))) return st;
  if (in->cff1_names && in->post.len >= POST_V3_LEN) {
    /* the glyph names are in the CFF table: post version 3.0, its header only (OpenType
     * "post": the version CFF fonts use) */
    otv_put_u32(in->post.p, POST_V3);
    in->post.len = POST_V3_LEN;
  }
  if ((st = otv_inst_names(in))) return st;
  if ((st = otv_inst_layout(in))) return st;

  /* assemble */
  otv_sfnt_table tabs[256];
  unsigned n = 0;
  unsigned total = otv_face_tables(f, 0, NULL, NULL);
  for (unsigned i = 0; i < total; i++) {
    otv_table_record rec;
    unsigned one = 1;
    otv_face_tables(f, i, &one, &rec);
    if (!one || (!in->pin.partial && is_variation_table(rec.tag))) continue;
    if (n == sizeof tabs / sizeof *tabs)
      return OTV_FAIL(in->err, LIMIT, 0, 0, "more than %u tables", n);
    otv_buf *b = rebuilt(in, rec.tag);
    if (in->pin.partial && !partial_table(in, rec.tag, &b)) continue;
    /* a full instance of a CFF2 font writes its outlines as CFF (instance/cff1.c) */
    tabs[n].tag = rec.tag == OTV_T_CFF2 && in->cff1 ? OTV_T_CFF : rec.tag;
    if (b) {
      tabs[n].data = b->p;
      tabs[n].len = b->len;
    } else {
      tabs[n].data = otv_face_table(f, rec.tag, &tabs[n].len);
    }
    n++;
  }
  otv_buf font;
  otv_buf_init(&font, in->al);
  st = otv_sfnt_write(&font, f->flavour == OTV_FLAVOUR_CFF2 ? OTV_SFNT_OTTO : OTV_SFNT_TRUETYPE,
                      tabs, n, in->err);
  if (st) {
    otv_buf_free(&font);
    return st;
  }
  *out = font.p;
  *out_len = font.len;
  /* the caller frees with the buffer's capacity unknown: shrink to the exact length */
  if (font.cap != font.len) {
    uint8_t *p = otv_mem_realloc(in->al, font.p, font.cap, font.len ? font.len : 1);
    if (p)
      *out = p;
    else {
      /* keep the larger block: free it with its capacity now and fail */
      otv_buf_free(&font);
      return OTV_FAIL(in->err, NOMEM, 0, 0, "font buffer");
    }
  }
  return OTV_E_OK;
}

static otv_status create(otv_location *loc, unsigned flags, const uint32_t *keep_tags,
                         unsigned keep_count, uint8_t **out, size_t *out_len);

otv_status otv_instance_create(otv_location *loc, unsigned flags, uint8_t **out, size_t *out_len)
{
  return create(loc, flags, NULL, 0, out, out_len);
}

otv_status otv_instance_create_partial(otv_location *loc, const uint32_t *keep_tags,
                                       unsigned keep_count, unsigned flags, uint8_t **out,
                                       size_t *out_len)
{
  if (!loc || (keep_count && !keep_tags)) return OTV_E_ARG;
  return create(loc, flags, keep_tags, keep_count, out, out_len);
}

static otv_status create(otv_location *loc, unsigned flags, const uint32_t *keep_tags,
                         unsigned keep_count, uint8_t **out, size_t *out_len)
{
  if (!loc || !out || !out_len) return OTV_E_ARG;
  *out = NULL;
  *out_len = 0;
  otv_inst in;
  memset(&in, 0, sizeof in);
  otv_error err = {0};
  in.loc = loc;
  in.face = loc->face;
  in.al = &loc->al;
  in.err = &err;
  in.flags = flags;
  otv_buf *bufs[] = {&in.glyf, &in.loca, &in.hmtx, &in.vmtx,     &in.head, &in.hhea, &in.vhea,
                     &in.maxp, &in.os2,  &in.post, &in.cvt,      &in.name, &in.gdef, &in.gpos,
                     &in.gsub, &in.base, &in.cff2, &in.gvar,     &in.cvar, &in.fvar, &in.avar,
                     &in.hvar, &in.vvar, &in.mvar, &in.gvar_data};
  for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++) otv_buf_init(bufs[i], in.al);
  otv_tvs_work_init(&in.tvs, in.al);
  in.cx.pin = &in.pin;
  in.cx.al = in.al;
  in.cx.err = &err;
  otv_status st = OTV_E_OK;
  if (keep_count) {
    /* every tag must name an axis; an axis named twice is kept once */
    in.pin.partial = true;
    unsigned ac = loc->at.axis_count < OTV_MAX_AXES ? loc->at.axis_count : OTV_MAX_AXES;
    for (unsigned i = 0; i < keep_count && !st; i++) {
      bool found = false;
      for (unsigned a = 0; a < ac; a++)
        if (otv_fvar_axis_tag(&in.face->fvar, a) == keep_tags[i]) in.pin.keep[a] = found = true;
      if (!found)
        st = OTV_FAIL(&err, NOT_FOUND, OTV_T_FVAR, 0, "no axis '%c%c%c%c' to keep variable",
                      (char)(keep_tags[i] >> 24), (char)(keep_tags[i] >> 16),
                      (char)(keep_tags[i] >> 8), (char)keep_tags[i]);
    }
  }
  if (!st) st = run(&in, out, out_len);
  inst_free(&in);
  if (st) {
    *out = NULL;
    *out_len = 0;
    if (err.code == OTV_E_OK) err.code = st;
    /* the report is this call's (otvar.h): not an error an earlier call left in the location */
    otv_location_clear_error(loc);
    return otv_loc_fail(loc, err.code, err.table, err.offset, "%s", err.msg);
  }
  return OTV_E_OK;
}

void otv_instance_free(otv_location *loc, uint8_t *data, size_t len)
{
  if (!loc || !data) return;
  otv_mem_free(&loc->al, data, len ? len : 1);
}

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
  case OTV_T_CVAR: return true;
  default: return false; /* STAT stays, with the axis values the instance keeps (stat.c) */
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
  otv_buf *bufs[] = {&in->glyf,      &in->loca, &in->hmtx, &in->vmtx, &in->head, &in->hhea,
                     &in->vhea,      &in->maxp, &in->os2,  &in->post, &in->cvt,  &in->name,
                     &in->gdef,      &in->gpos, &in->gsub, &in->base, &in->cff2, &in->gvar,
                     &in->cvar,      &in->fvar, &in->avar, &in->hvar, &in->vvar, &in->mvar,
                     &in->gvar_data, &in->stat};
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
  case OTV_T_STAT: return in->stat.len ? &in->stat : NULL;
  default: return NULL;
  }
}

/* A partial instance's variation tables: *b set to the rebuilt one, false to drop the table.
 * Other tables keep what rebuilt() gave. */
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
    if (f->fvar.avar.version > 2)
      return OTV_FAIL(in->err, UNSUPPORTED, OTV_T_AVAR, 0, "partial instances of avar version %u",
                      f->fvar.avar.version);
    /* the kept axes at their defaults: the new default location */
    in->pin.kept_count = 0;
    for (unsigned a = 0; a < in->pin.axis_count; a++) {
      in->pcoords[a] = !in->pin.keep[a]     ? in->loc->coords[a]
                       : in->pin.limited[a] ? in->pin.lim_def[a]
                                            : 0;
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
  if ((st = otv_inst_stat(in))) return st;
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
  /* a table the font did not have: avar, when a moved default needs one */
  if (in->pin.partial && in->avar.len && !otv_face_span(f, OTV_T_AVAR).p) {
    if (n == sizeof tabs / sizeof *tabs)
      return OTV_FAIL(in->err, LIMIT, 0, 0, "more than %u tables", n);
    tabs[n].tag = OTV_T_AVAR;
    tabs[n].data = in->avar.p;
    tabs[n].len = in->avar.len;
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
                         unsigned keep_count, const otv_axis_limits *limits, unsigned limit_count,
                         uint8_t **out, size_t *out_len);

otv_status otv_instance_create(otv_location *loc, unsigned flags, uint8_t **out, size_t *out_len)
{
  return create(loc, flags, NULL, 0, NULL, 0, out, out_len);
}

otv_status otv_instance_create_partial(otv_location *loc, const uint32_t *keep_tags,
                                       unsigned keep_count, unsigned flags, uint8_t **out,
                                       size_t *out_len)
{
  if (!loc || (keep_count && !keep_tags)) return OTV_E_ARG;
  return create(loc, flags, keep_tags, keep_count, NULL, 0, out, out_len);
}

otv_status otv_instance_create_limits(otv_location *loc, const otv_axis_limits *limits,
                                      unsigned count, unsigned flags, uint8_t **out,
                                      size_t *out_len)
{
  if (!loc || (count && !limits)) return OTV_E_ARG;
  return create(loc, flags, NULL, 0, limits, count, out, out_len);
}

static void tag_str(uint32_t tag, char *s)
{
  for (int i = 0; i < 4; i++) s[i] = (char)(tag >> (24 - 8 * i));
  s[4] = 0;
}

/* The normalized coordinate of user value u on axis a, the others as in user[] (avar 1 maps
 * each axis alone). */
static otv_status norm_one(otv_inst *in, double *user, unsigned a, double u, int16_t *f2)
{
  otv_norm_result norm[OTV_MAX_AXES];
  double keep = user[a];
  user[a] = u;
  otv_status st = otv_fvar_normalize(&in->face->fvar, in->loc->model, user, norm, in->al, in->err);
  user[a] = keep;
  *f2 = norm[a].f2;
  return st;
}

otv_status otv_inst_norm_one(otv_inst *in, unsigned a, double u, int16_t *f2)
{
  double user[OTV_MAX_AXES];
  unsigned ac = in->pin.axis_count;
  for (unsigned i = 0; i < ac; i++) user[i] = in->loc->user[i];
  return norm_one(in, user, a, u, f2);
}

/* Axis limits (otv_instance_create_limits): each checked against its axis; pins collected in
 * pin_user (NaN: not pinned by a limit), kept axes marked, limited ones with their range in
 * normalized coordinates. */
static otv_status apply_limits(otv_inst *in, const otv_axis_limits *limits, unsigned count,
                               double *pin_user)
{
  const otv_fvar *fv = &in->face->fvar;
  unsigned ac = in->loc->at.axis_count < OTV_MAX_AXES ? in->loc->at.axis_count : OTV_MAX_AXES;
  bool seen[OTV_MAX_AXES] = {false};
  for (unsigned a = 0; a < ac; a++) pin_user[a] = NAN;
  char t[5];
  for (unsigned i = 0; i < count; i++) {
    const otv_axis_limits *l = &limits[i];
    tag_str(l->tag, t);
    unsigned a = 0;
    while (a < ac && otv_fvar_axis_tag(fv, a) != l->tag) a++;
    if (a == ac) return OTV_FAIL(in->err, NOT_FOUND, OTV_T_FVAR, 0, "no axis '%s' to limit", t);
    if (seen[a]) return OTV_FAIL(in->err, ARG, OTV_T_FVAR, 0, "axis '%s' limited twice", t);
    seen[a] = true;
    double lo = fv->axis[a].min_value / 65536.0;
    double hi = fv->axis[a].max_value / 65536.0;
    double def = fv->axis[a].default_value / 65536.0;
    if (l->min != l->min || l->max != l->max || (l->min != l->max && l->def != l->def))
      return OTV_FAIL(in->err, ARG, OTV_T_FVAR, 0, "axis '%s': a limit is NaN", t);
    if (l->min > l->max)
      return OTV_FAIL(in->err, ARG, OTV_T_FVAR, 0, "axis '%s': minimum %g > maximum %g", t, l->min,
                      l->max);
    if (l->min < lo || l->max > hi)
      return OTV_FAIL(in->err, ARG, OTV_T_FVAR, 0, "axis '%s': %g..%g is outside the axis (%g..%g)",
                      t, l->min, l->max, lo, hi);
    if (l->min == l->max) {
      pin_user[a] = l->min;
      continue;
    }
    if (l->def < l->min || l->def > l->max)
      return OTV_FAIL(in->err, ARG, OTV_T_FVAR, 0, "axis '%s': default %g outside %g..%g", t,
                      l->def, l->min, l->max);
    in->pin.keep[a] = true;
    in->pin.partial = true;
    in->lim_user[a][0] = l->min, in->lim_user[a][1] = l->def, in->lim_user[a][2] = l->max;
    if (l->min == lo && l->def == def && l->max == hi) continue; /* the full axis: kept as is */
    in->pin.limited[a] = true;
  }
  /* the normalized range of each limited axis (at the location's other coordinates) */
  double user[OTV_MAX_AXES];
  for (unsigned a = 0; a < ac; a++)
    user[a] = pin_user[a] == pin_user[a] ? pin_user[a] : in->loc->user[a];
  for (unsigned a = 0; a < ac; a++) {
    if (!in->pin.limited[a]) continue;
    otv_status st;
    if ((st = norm_one(in, user, a, in->lim_user[a][0], &in->pin.lim_lo[a])) ||
        (st = norm_one(in, user, a, in->lim_user[a][1], &in->pin.lim_def[a])) ||
        (st = norm_one(in, user, a, in->lim_user[a][2], &in->pin.lim_hi[a])))
      return st;
    if (in->pin.lim_lo[a] == -16384 && in->pin.lim_def[a] == 0 && in->pin.lim_hi[a] == 16384)
      in->pin.limited[a] = false; /* the same normalized range: nothing changes */
  }
  return OTV_E_OK;
}

static otv_status create(otv_location *loc, unsigned flags, const uint32_t *keep_tags,
                         unsigned keep_count, const otv_axis_limits *limits, unsigned limit_count,
                         uint8_t **out, size_t *out_len)
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
  otv_buf *bufs[] = {&in.glyf, &in.loca, &in.hmtx, &in.vmtx,      &in.head, &in.hhea, &in.vhea,
                     &in.maxp, &in.os2,  &in.post, &in.cvt,       &in.name, &in.gdef, &in.gpos,
                     &in.gsub, &in.base, &in.cff2, &in.gvar,      &in.cvar, &in.fvar, &in.avar,
                     &in.hvar, &in.vvar, &in.mvar, &in.gvar_data, &in.stat};
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
  otv_location *tmp = NULL;
  if (!st && limit_count) {
    double pin_user[OTV_MAX_AXES];
    st = apply_limits(&in, limits, limit_count, pin_user);
    /* axes pinned by a limit: the instance is made at a location of its own */
    unsigned ac = loc->at.axis_count < OTV_MAX_AXES ? loc->at.axis_count : OTV_MAX_AXES;
    bool moved = false;
    double user[OTV_MAX_AXES];
    for (unsigned a = 0; a < ac; a++) {
      user[a] = pin_user[a] == pin_user[a] ? pin_user[a] : loc->user[a];
      if (user[a] != loc->user[a]) moved = true;
    }
    if (!st && moved) {
      otv_error e2 = {0};
      if (otv_location_create(loc->face, &tmp, &e2) || otv_location_set_model(tmp, loc->model) ||
          otv_location_set_user_coords(tmp, user, ac))
        st = OTV_FAIL(&err, NOMEM, OTV_T_FVAR, 0, "a location at the pinned axes");
      else
        in.loc = tmp;
    }
  }
  /* one whole-font operation: under the face's work budget (otvar.h), the caller's restored */
  otv_budget caller_work = loc->work;
  otv_location_set_work_budget(in.loc, OTV_WORK_FONT);
  if (!st) st = run(&in, out, out_len);
  loc->work = caller_work;
  inst_free(&in);
  otv_location_destroy(tmp);
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

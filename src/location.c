/*
 * location.c - the location object: a point of the design space bound to a face, holding the
 * normalized coordinates and every per-location cache. Setting coordinates bumps `serial`, which
 * is how the table modules' caches know they are stale.
 */
#include "face.h"

otv_status otv_location_create(const otv_face *face, otv_location **out, otv_error *err)
{
  if (!face || !out) return OTV_FAIL(err, ARG, 0, 0, "face or out is NULL");
  *out = NULL;
  otv_location *loc = otv_mem_calloc(&face->al, 1, sizeof *loc);
  if (!loc) return OTV_FAIL(err, NOMEM, 0, 0, "location");
  loc->face = face;
  loc->al = face->al;
  unsigned axes = face->fvar.axis_count;
  loc->at.axis_count = axes;
  loc->coords = otv_mem_calloc(&loc->al, axes ? axes : 1, sizeof *loc->coords);
  loc->fixed = otv_mem_calloc(&loc->al, axes ? axes : 1, sizeof *loc->fixed);
  loc->q = otv_mem_calloc(&loc->al, axes ? axes : 1, sizeof *loc->q);
  loc->user = otv_mem_calloc(&loc->al, axes ? axes : 1, sizeof *loc->user);
  loc->at.v = loc->coords;
  loc->at.q = loc->q;
  loc->model = OTV_NORM_SPEC;
  /* each module's per-location state, bound to this location */
  loc->work.limit = UINT64_MAX; /* counted, never refused until a budget is armed */
  loc->x = (otv_locctx){&loc->at, &loc->al, &loc->last_error, &loc->work};
  otv_glyf_loc_init(&loc->glyf, &face->glyf, loc->x);
  otv_cff_loc_init(&loc->cff, &face->cff, loc->x);
  /* otv_options: no outline caches, or smaller bounds (nothing is allocated for them here) */
  if (face->opt_flags & OTV_OPT_NO_OUTLINE_CACHES) {
    loc->glyf.gc_off = loc->glyf.cc_off = true;
    loc->cff.comp_off = loc->cff.sub_off = true;
  } else if (face->outline_cache_max) {
    size_t m = face->outline_cache_max;
    if (m < loc->glyf.gc_max) loc->glyf.gc_max = m;
    if (m < loc->glyf.cc_max) loc->glyf.cc_max = m;
    loc->cff.cells_max = m / sizeof(otv_cs_cell);
  }
  if (!loc->coords || !loc->fixed || !loc->q || !loc->user) {
    otv_location_destroy(loc);
    return OTV_FAIL(err, NOMEM, 0, 0, "location coordinates");
  }
  otv_location_reset(loc);
  *out = loc;
  return OTV_E_OK;
}

void otv_location_destroy(otv_location *loc)
{
  if (!loc) return;
  otv_ivs_cache_free(&loc->al, &loc->met.hvar);
  otv_ivs_cache_free(&loc->al, &loc->met.vvar);
  otv_ivs_cache_free(&loc->al, &loc->met.mvar);
  otv_cff_loc_free(&loc->cff);
  otv_glyf_loc_free(&loc->glyf);
  size_t n = loc->at.axis_count ? loc->at.axis_count : 1;
  otv_mem_free(&loc->al, loc->coords, n * sizeof *loc->coords);
  otv_mem_free(&loc->al, loc->fixed, n * sizeof *loc->fixed);
  otv_mem_free(&loc->al, loc->q, n * sizeof *loc->q);
  otv_mem_free(&loc->al, loc->user, n * sizeof *loc->user);
  otv_alloc al = loc->al;
  otv_mem_free(&al, loc, sizeof *loc);
}

const otv_face *otv_location_face(const otv_location *loc) { return loc->face; }

const otv_error *otv_location_last_error(const otv_location *loc) { return &loc->last_error; }

void otv_location_clear_error(otv_location *loc)
{
  if (loc) memset(&loc->last_error, 0, sizeof loc->last_error);
}

uint64_t otv_face_work_budget(const otv_face *face)
{
  if (!face || (face->opt_flags & OTV_OPT_NO_WORK_BUDGET)) return OTV_WORK_UNLIMITED;
  unsigned k = (face->opt_flags >> 2) & 31u;
  if (!k) k = OTV_WORK_FACTOR_LOG2;
  uint64_t len = face->sfnt.file.len;
  /* len x 2^k + floor, saturated below OTV_WORK_UNLIMITED (which would mean "no budget") */
  if (len > ((UINT64_MAX - 1 - OTV_WORK_FLOOR) >> k)) return UINT64_MAX - 1;
  return (len << k) + OTV_WORK_FLOOR;
}

void otv_location_set_work_budget(otv_location *loc, uint64_t budget)
{
  if (!loc) return;
  loc->work.used = 0;
  loc->work.limit = budget == OTV_WORK_FONT ? otv_face_work_budget(loc->face) : budget;
}

uint64_t otv_location_work_used(const otv_location *loc) { return loc ? loc->work.used : 0; }

/* The coordinates changed: invalidate every cache. serial 0 is reserved for "never computed". */
static void changed_to(otv_location *loc, bool is_default, bool fine)
{
  loc->at.serial++;
  if (loc->at.serial == 0) loc->at.serial = 1;
  loc->at.is_default = is_default;
  loc->at.fine = fine;
  memset(&loc->last_error, 0, sizeof loc->last_error);
}

static void changed(otv_location *loc)
{
  bool is_default = true, fine = false;
  for (unsigned i = 0; i < loc->at.axis_count; i++) {
    if (loc->q[i]) is_default = false;
    if (loc->q[i] & 3) fine = true;
  }
  changed_to(loc, is_default, fine);
}

void otv_location_reset(otv_location *loc)
{
  for (unsigned i = 0; i < loc->at.axis_count; i++) {
    loc->coords[i] = 0;
    loc->fixed[i] = 0;
    loc->q[i] = 0;
    loc->user[i] = otv_fvar_axis_default(&loc->face->fvar, i);
  }
  loc->from_user = true;
  changed(loc);
}

/* Normalize loc->user into the coordinates with the location's model (normalize.c). */
static otv_status apply_user(otv_location *loc)
{
  memset(&loc->last_error, 0, sizeof loc->last_error);
  otv_norm_result r[OTV_MAX_AXES];
  otv_status s =
      otv_fvar_normalize(&loc->face->fvar, loc->model, loc->user, r, &loc->al, &loc->last_error);
  if (s) return s;
  for (unsigned a = 0; a < loc->at.axis_count; a++) {
    loc->coords[a] = r[a].f2;
    loc->fixed[a] = r[a].fixed;
    loc->q[a] = r[a].draw;
  }
  loc->from_user = true;
  otv_error keep = loc->last_error;
  changed(loc);
  loc->last_error = keep;
  return OTV_E_OK;
}

otv_status otv_location_set_user(otv_location *loc, const otv_axis_value *vals, size_t n)
{
  if (n && !vals) return otv_loc_fail(loc, OTV_E_ARG, 0, 0, "vals is NULL");
  for (size_t i = 0; i < n; i++)
    if (vals[i].value != vals[i].value)
      return otv_loc_fail(loc, OTV_E_ARG, 0, 0, "value %zu is NaN", i);
  const otv_fvar_axis *axis = loc->face->fvar.axis;
  for (unsigned a = 0; a < loc->at.axis_count; a++) {
    loc->user[a] = otv_fvar_axis_default(&loc->face->fvar, a);
    /* the last setting of a tag wins: scan the settings backwards */
    for (size_t i = n; i-- > 0;)
      if (vals[i].tag == axis[a].tag) {
        loc->user[a] = vals[i].value;
        break;
      }
  }
  return apply_user(loc);
}

otv_status otv_location_set_user_coords(otv_location *loc, const double *coords, unsigned n)
{
  if (n && !coords) return otv_loc_fail(loc, OTV_E_ARG, 0, 0, "coords is NULL");
  for (unsigned a = 0; a < n && a < loc->at.axis_count; a++)
    if (coords[a] != coords[a])
      return otv_loc_fail(loc, OTV_E_ARG, 0, 0, "coordinate %u is NaN", a);
  for (unsigned a = 0; a < loc->at.axis_count; a++)
    loc->user[a] = a < n ? coords[a] : otv_fvar_axis_default(&loc->face->fvar, a);
  return apply_user(loc);
}

otv_status otv_location_set_named(otv_location *loc, unsigned instance)
{
  memset(&loc->last_error, 0, sizeof loc->last_error);
  otv_status s = otv_face_named_instance_coords(loc->face, instance, loc->user, loc->at.axis_count,
                                                &loc->last_error);
  if (s) return s;
  return apply_user(loc);
}

otv_status otv_location_set_normalized(otv_location *loc, const otv_f2dot14 *coords, unsigned n)
{
  if (n && !coords) return otv_loc_fail(loc, OTV_E_ARG, 0, 0, "coords is NULL");
  const otv_fvar_axis *axis = loc->face->fvar.axis; /* loc->at.axis_count of them */
  int any = 0; /* one pass: the renderer's way of moving a location, kept cheap */
  for (unsigned a = 0, ac = loc->at.axis_count; a < ac; a++) {
    int v = a < n ? coords[a] : 0;
    if (v < -16384) v = -16384;
    if (v > 16384) v = 16384;
    any |= v;
    loc->coords[a] = (otv_f2dot14)v;
    loc->q[a] = v * 4;                              /* fixed: see otv_location_normalized_fixed */
    loc->user[a] = axis[a].default_value / 65536.0; /* otv_fvar_axis_default */
  }
  loc->from_user = false;
  changed_to(loc, any == 0, false);
  return OTV_E_OK;
}

unsigned otv_location_normalized(const otv_location *loc, otv_f2dot14 *out, unsigned cap)
{
  for (unsigned a = 0; out && a < cap && a < loc->at.axis_count; a++) out[a] = loc->coords[a];
  return loc->at.axis_count;
}

bool otv_location_is_default(const otv_location *loc) { return loc->at.is_default; }

unsigned otv_location_normalized_fixed(const otv_location *loc, otv_fixed *out, unsigned cap)
{
  /* set_normalized leaves fixed alone (moving a location stays cheap): there it is coords x 4 */
  for (unsigned a = 0; out && a < cap && a < loc->at.axis_count; a++)
    out[a] = loc->from_user ? loc->fixed[a] : loc->coords[a] * 4;
  return loc->at.axis_count;
}

otv_status otv_location_set_model(otv_location *loc, otv_norm_model model)
{
  if ((unsigned)model >= OTV_NORM_MODEL_COUNT)
    return otv_loc_fail(loc, OTV_E_ARG, 0, 0, "normalization model %d", (int)model);
  if (model == loc->model) return OTV_E_OK;
  loc->model = model;
  return loc->from_user ? apply_user(loc) : OTV_E_OK;
}

otv_norm_model otv_location_model(const otv_location *loc) { return loc->model; }

static const char *const model_names[OTV_NORM_MODEL_COUNT] = {"spec", "fonttools", "harfbuzz6",
                                                              "freetype", "harfbuzz"};

const char *otv_norm_model_name(otv_norm_model model)
{
  return (unsigned)model < OTV_NORM_MODEL_COUNT ? model_names[model] : NULL;
}

bool otv_norm_model_from_name(const char *name, otv_norm_model *out)
{
  for (unsigned m = 0; name && m < OTV_NORM_MODEL_COUNT; m++)
    if (!strcmp(name, model_names[m])) {
      if (out) *out = (otv_norm_model)m;
      return true;
    }
  return false;
}

otv_status otv_face_normalize(const otv_face *face, otv_norm_model model, const double *user,
                              unsigned n, otv_fixed *fixed16, otv_f2dot14 *f2dot14, double *real,
                              otv_error *err)
{
  if (!face) return OTV_FAIL(err, ARG, 0, 0, "face is NULL");
  if (n && !user) return OTV_FAIL(err, ARG, 0, 0, "user is NULL");
  const otv_fvar *fv = &face->fvar;
  double u[OTV_MAX_AXES];
  for (unsigned a = 0; a < fv->axis_count; a++)
    u[a] = a < n ? user[a] : otv_fvar_axis_default(fv, a);
  otv_norm_result r[OTV_MAX_AXES];
  otv_status s = otv_fvar_normalize(fv, model, u, r, &face->al, err);
  if (s) return s;
  for (unsigned a = 0; a < fv->axis_count; a++) {
    if (fixed16) fixed16[a] = r[a].fixed;
    if (f2dot14) f2dot14[a] = r[a].f2;
    if (real) real[a] = r[a].real;
  }
  return OTV_E_OK;
}

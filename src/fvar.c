/*
 * fvar.c - the font variations table: axes and named instances (spec: fvar), and the public
 * accessors for them. avar is parsed from here (avar.c) because it depends on the axis count.
 *
 * Leniencies, each deliberate:
 *   - an axis with minValue > defaultValue or defaultValue > maxValue is kept as the font has it
 *     (the API reports the raw fields); normalization uses min(min, default) and
 *     max(max, default), which is what HarfBuzz does and keeps the math well-defined.
 *   - axisSize larger than 20 is accepted (records are strided by axisSize, the spec's
 *     extension mechanism); smaller is an error.
 *   - instanceSize must be at least axisCount * 4 + 4; postScriptNameID is read only when it is
 *     exactly axisCount * 4 + 6, as the spec defines the two sizes.
 */
#include "fvar.h"

#define FVAR_HEADER_LEN 16
#define AXIS_RECORD_LEN 20

static float fixed_to_float(otv_fixed v) { return (float)v / 65536.0f; }

otv_status otv_fvar_parse(otv_span tab, otv_span avar, const otv_alloc *al, otv_fvar *out,
                          otv_error *err)
{
  otv_fvar *fv = out;
  memset(fv, 0, sizeof *fv);
  if (!tab.p) return OTV_E_OK;
  otv_rd r = otv_rd_init(tab, 0);
  uint16_t major = otv_rd_u16(&r);
  uint16_t minor = otv_rd_u16(&r);
  uint16_t axes_off = otv_rd_u16(&r);
  otv_rd_skip(&r, 2); /* reserved */
  uint16_t axis_count = otv_rd_u16(&r);
  uint16_t axis_size = otv_rd_u16(&r);
  uint16_t instance_count = otv_rd_u16(&r);
  uint16_t instance_size = otv_rd_u16(&r);
  if (!otv_rd_ok(&r)) return OTV_FAIL_RD(err, OTV_T_FVAR, 0, &r, "fvar header");
  (void)minor;
  if (major != 1)
    return OTV_FAIL(err, UNSUPPORTED, OTV_T_FVAR, 0, "fvar version %u.%u", major, minor);
  if (axis_count > OTV_MAX_AXES)
    return OTV_FAIL(err, LIMIT, OTV_T_FVAR, 8, "%u axes (at most %u supported)", axis_count,
                    OTV_MAX_AXES);
  if (axis_size < AXIS_RECORD_LEN)
    return OTV_FAIL(err, BAD_VALUE, OTV_T_FVAR, 10, "axisSize %u (expected 20)", axis_size);
  if (axes_off < FVAR_HEADER_LEN)
    return OTV_FAIL(err, BAD_OFFSET, OTV_T_FVAR, 4, "axesArrayOffset %u inside the header",
                    axes_off);
  otv_span axes;
  if (!otv_span_array(tab, axes_off, axis_count, axis_size, &axes))
    return OTV_FAIL(err, TRUNCATED, OTV_T_FVAR, axes_off, "%u axis records of %u bytes", axis_count,
                    axis_size);
  size_t min_inst = (size_t)axis_count * 4 + 4;
  if (instance_count && instance_size < min_inst)
    return OTV_FAIL(err, BAD_VALUE, OTV_T_FVAR, 14, "instanceSize %u < %zu for %u axes",
                    instance_size, min_inst, axis_count);
  otv_span inst;
  size_t inst_off = axes_off + axes.len;
  if (!otv_span_array(tab, inst_off, instance_count, instance_size, &inst))
    return OTV_FAIL(err, TRUNCATED, OTV_T_FVAR, inst_off, "%u instance records of %u bytes",
                    instance_count, instance_size);

  if (axis_count) {
    fv->axis = otv_mem_calloc(al, axis_count, sizeof *fv->axis);
    if (!fv->axis) return OTV_FAIL(err, NOMEM, OTV_T_FVAR, 0, "axes");
  }
  for (unsigned a = 0; a < axis_count; a++) {
    /* in range: axes span checked above (axis_count x axis_size, axis_size >= 20) */
    const uint8_t *p = axes.p + (size_t)a * axis_size;
    otv_fvar_axis *x = &fv->axis[a];
    x->tag = otv_peek_u32(p);
    x->min_value = otv_peek_i32(p + 4);
    x->default_value = otv_peek_i32(p + 8);
    x->max_value = otv_peek_i32(p + 12);
    x->flags = otv_peek_u16(p + 16);
    x->name_id = otv_peek_u16(p + 18);
    x->ndef = fixed_to_float(x->default_value);
    float mn = fixed_to_float(x->min_value), mx = fixed_to_float(x->max_value);
    x->nmin = mn < x->ndef ? mn : x->ndef;
    x->nmax = mx > x->ndef ? mx : x->ndef;
  }
  fv->present = true;
  fv->axis_count = axis_count;
  fv->instance_count = instance_count;
  fv->instance_size = instance_size;
  fv->axis_size = axis_size;
  fv->axes = axes.p;
  fv->instances = inst.p;
  otv_status s = fv->present ? otv_avar_parse(avar, axis_count, al, &fv->avar, err) : OTV_E_OK;
  if (s) otv_fvar_free(al, fv);
  return s;
}

void otv_fvar_free(const otv_alloc *al, otv_fvar *fv)
{
  otv_avar_free(al, &fv->avar);
  if (fv->axis) otv_mem_free(al, fv->axis, (size_t)fv->axis_count * sizeof *fv->axis);
  fv->axis = NULL;
}

uint32_t otv_fvar_axis_tag(const otv_fvar *fv, unsigned axis)
{
  return axis < fv->axis_count ? fv->axis[axis].tag : 0;
}

double otv_fvar_axis_default(const otv_fvar *fv, unsigned axis)
{
  return axis < fv->axis_count ? fv->axis[axis].default_value / 65536.0 : 0.0;
}

unsigned otv_fvar_axes(const otv_fvar *fv, unsigned start, unsigned *count, otv_axis *out)
{
  if (count) {
    unsigned n = 0;
    for (unsigned a = start; a < fv->axis_count && n < *count; a++, n++) {
      const otv_fvar_axis *x = &fv->axis[a];
      otv_axis *o = &out[n];
      memset(o, 0, sizeof *o);
      o->tag = x->tag;
      o->min_value = x->min_value / 65536.0;
      o->default_value = x->default_value / 65536.0;
      o->max_value = x->max_value / 65536.0;
      o->flags = x->flags;
      o->name_id = x->name_id;
      o->index = (uint16_t)a;
    }
    *count = n;
  }
  return fv->axis_count;
}

unsigned otv_fvar_named_instances(const otv_fvar *fv, unsigned start, unsigned *count,
                                  otv_named_instance *out)
{
  if (count) {
    unsigned n = 0;
    bool has_ps = fv->instance_size == (size_t)fv->axis_count * 4 + 6;
    for (unsigned i = start; i < fv->instance_count && n < *count; i++, n++) {
      /* in range: instances span (instance_count x instance_size) checked in otv_fvar_parse,
       * and instance_size >= axis_count * 4 + 4 (+ 2 when has_ps) */
      const uint8_t *p = fv->instances + (size_t)i * fv->instance_size;
      otv_named_instance *o = &out[n];
      o->subfamily_name_id = otv_peek_u16(p);
      o->flags = otv_peek_u16(p + 2);
      o->postscript_name_id = has_ps ? otv_peek_u16(p + 4 + 4 * (size_t)fv->axis_count) : 0xFFFF;
      o->index = (uint16_t)i;
    }
    *count = n;
  }
  return fv->instance_count;
}

otv_status otv_fvar_instance_coords(const otv_fvar *fv, unsigned instance, double *coords,
                                    unsigned cap, otv_error *err)
{
  if (instance >= fv->instance_count)
    return OTV_FAIL(err, NOT_FOUND, OTV_T_FVAR, 0, "named instance %u (the font has %u)", instance,
                    fv->instance_count);
  if (cap && !coords) return OTV_FAIL(err, ARG, 0, 0, "coords is NULL");
  /* in range: see otv_fvar_named_instances */
  const uint8_t *p = fv->instances + (size_t)instance * fv->instance_size + 4;
  for (unsigned a = 0; a < cap && a < fv->axis_count; a++)
    coords[a] = otv_peek_i32(p + 4 * (size_t)a) / 65536.0;
  return OTV_E_OK;
}

/*
 * stat.c - the style attributes table (spec: STAT), versions 1.0-1.2: design axis records and
 * axis value tables formats 1-4, exposed through otv_face_stat* (face.c).
 *
 * Validated at open: header, design axis array (designAxisSize >= 8, strided by it), the axis
 * value offset array, and every axis value table's extent for its format; axisIndex values
 * must be < designAxisCount (spec: "Must be less than designAxisCount"). Axis value tables
 * of an unknown format (the spec defines 1-4) are kept in the list with only `format` set,
 * so that a newer STAT does not make the font unreadable. A major version other than 1 is
 * UNSUPPORTED.
 */
#include "stat.h"

#define AXIS_RECORD_MIN 8

/* Bytes an axis value table of this format needs (0: unknown format). */
static size_t value_len(otv_span tab, size_t off, uint16_t format)
{
  switch (format) {
  case 1: return 12;
  case 2: return 20;
  case 3: return 16;
  case 4: {
    otv_rd r = otv_rd_init(tab, off + 2);
    uint16_t n = otv_rd_u16(&r);
    return otv_rd_ok(&r) ? 8 + 6 * (size_t)n : 8;
  }
  default: return 0;
  }
}

otv_status otv_stat_parse(otv_span tab, otv_stat *out, otv_error *err)
{
  otv_stat *st = out;
  memset(st, 0, sizeof *st);
  if (!tab.p) return OTV_E_OK;
  otv_rd r = otv_rd_init(tab, 0);
  uint16_t major = otv_rd_u16(&r);
  uint16_t minor = otv_rd_u16(&r);
  uint16_t axis_size = otv_rd_u16(&r);
  uint16_t axis_count = otv_rd_u16(&r);
  uint32_t axes_off = otv_rd_u32(&r);
  uint16_t value_count = otv_rd_u16(&r);
  uint32_t values_off = otv_rd_u32(&r);
  uint16_t elided = 0xFFFF;
  if (minor >= 1) elided = otv_rd_u16(&r);
  if (!otv_rd_ok(&r)) return OTV_FAIL_RD(err, OTV_T_STAT, 0, &r, "STAT header");
  if (major != 1)
    return OTV_FAIL(err, UNSUPPORTED, OTV_T_STAT, 0, "STAT version %u.%u", major, minor);
  otv_span axes = {NULL, 0};
  if (axis_count) {
    if (axis_size < AXIS_RECORD_MIN)
      return OTV_FAIL(err, BAD_VALUE, OTV_T_STAT, 4, "designAxisSize %u < 8", axis_size);
    if (axes_off < r.pos)
      return OTV_FAIL(err, BAD_OFFSET, OTV_T_STAT, 8, "designAxesOffset 0x%x inside the header",
                      axes_off);
    if (!otv_span_array(tab, axes_off, axis_count, axis_size, &axes))
      return OTV_FAIL(err, TRUNCATED, OTV_T_STAT, axes_off, "%u design axes of %u bytes",
                      axis_count, axis_size);
  }
  otv_span offs = {NULL, 0};
  if (value_count) {
    if (values_off < r.pos)
      return OTV_FAIL(err, BAD_OFFSET, OTV_T_STAT, 14,
                      "offsetToAxisValueOffsets 0x%x inside the header", values_off);
    if (!otv_span_array(tab, values_off, value_count, 2, &offs))
      return OTV_FAIL(err, TRUNCATED, OTV_T_STAT, values_off, "%u axis value offsets", value_count);
  }
  for (unsigned i = 0; i < value_count; i++) {
    /* in range: offs checked above */
    uint16_t o = otv_peek_u16(offs.p + 2 * (size_t)i);
    size_t at = (size_t)values_off + 2 * i;
    if (!o) return OTV_FAIL(err, BAD_OFFSET, OTV_T_STAT, at, "axis value %u: NULL offset", i);
    size_t v = (size_t)values_off + o;
    otv_rd vr = otv_rd_init(tab, v);
    uint16_t format = otv_rd_u16(&vr);
    if (!otv_rd_ok(&vr))
      return OTV_FAIL(err, BAD_OFFSET, OTV_T_STAT, at, "axis value %u at 0x%zx past the end", i, v);
    size_t need = value_len(tab, v, format);
    if (!otv_span_has(tab, v, need))
      return OTV_FAIL(err, TRUNCATED, OTV_T_STAT, v, "axis value %u (format %u): %zu bytes", i,
                      format, need);
    if (format >= 1 && format <= 3) {
      uint16_t axis = otv_peek_u16(tab.p + v + 2); /* in range: need >= 12 checked */
      if (axis >= axis_count)
        return OTV_FAIL(err, BAD_VALUE, OTV_T_STAT, v + 2,
                        "axis value %u: axisIndex %u >= designAxisCount %u", i, axis, axis_count);
    } else if (format == 4) {
      unsigned n = otv_peek_u16(tab.p + v + 2);
      for (unsigned k = 0; k < n; k++) {
        /* in range: 8 + 6n bytes checked above */
        uint16_t axis = otv_peek_u16(tab.p + v + 8 + 6 * (size_t)k);
        if (axis >= axis_count)
          return OTV_FAIL(err, BAD_VALUE, OTV_T_STAT, v + 8 + 6 * (size_t)k,
                          "axis value %u record %u: axisIndex %u >= designAxisCount %u", i, k, axis,
                          axis_count);
      }
    }
  }
  st->present = true;
  st->minor_version = minor;
  st->design_axis_size = axis_size;
  st->design_axis_count = axis_count;
  st->axis_value_count = value_count;
  st->elided_fallback_name_id = elided;
  st->tab = tab;
  st->design_axes = axes.p;
  st->value_offsets = offs.p;
  st->value_base = values_off;
  return OTV_E_OK;
}

void otv_stat_get_info(const otv_stat *st, otv_stat_info *out)
{
  memset(out, 0, sizeof *out);
  out->present = st->present;
  out->minor_version = st->minor_version;
  out->design_axis_count = st->design_axis_count;
  out->axis_value_count = st->axis_value_count;
  out->elided_fallback_name_id = st->present ? st->elided_fallback_name_id : 0xFFFF;
}

unsigned otv_stat_axes(const otv_stat *st, unsigned start, unsigned *count, otv_stat_axis *out)
{
  if (count) {
    unsigned n = 0;
    for (unsigned i = start; i < st->design_axis_count && n < *count; i++, n++) {
      /* in range: design axes span checked in otv_stat_parse */
      const uint8_t *p = st->design_axes + (size_t)i * st->design_axis_size;
      out[n].tag = otv_peek_u32(p);
      out[n].name_id = otv_peek_u16(p + 4);
      out[n].ordering = otv_peek_u16(p + 6);
    }
    *count = n;
  }
  return st->design_axis_count;
}

/* The table of axis value i (in range: every value table was checked in otv_stat_parse). */
static const uint8_t *value_at(const otv_stat *st, unsigned i)
{
  return st->tab.p + st->value_base + otv_peek_u16(st->value_offsets + 2 * (size_t)i);
}

static double fixed(const uint8_t *p) { return otv_peek_i32(p) / 65536.0; }

unsigned otv_stat_values(const otv_stat *st, unsigned start, unsigned *count, otv_stat_value *out)
{
  if (count) {
    unsigned n = 0;
    for (unsigned i = start; i < st->axis_value_count && n < *count; i++, n++) {
      const uint8_t *p = value_at(st, i);
      otv_stat_value *o = &out[n];
      memset(o, 0, sizeof *o);
      o->format = otv_peek_u16(p);
      o->index = (uint16_t)i;
      if (o->format < 1 || o->format > 4) continue; /* unknown format: only format is known */
      o->flags = otv_peek_u16(p + 4);
      o->name_id = otv_peek_u16(p + 6);
      if (o->format == 4) {
        o->record_count = otv_peek_u16(p + 2);
        continue;
      }
      o->axis_index = otv_peek_u16(p + 2);
      o->value = fixed(p + 8);
      if (o->format == 2) {
        o->range_min = fixed(p + 12);
        o->range_max = fixed(p + 16);
      } else if (o->format == 3) {
        o->linked_value = fixed(p + 12);
      }
    }
    *count = n;
  }
  return st->axis_value_count;
}

unsigned otv_stat_value_records(const otv_stat *st, unsigned value_index, unsigned start,
                                unsigned *count, otv_stat_axis_value_record *out)
{
  unsigned total = 0;
  const uint8_t *p = NULL;
  if (value_index < st->axis_value_count) {
    p = value_at(st, value_index);
    if (otv_peek_u16(p) == 4) total = otv_peek_u16(p + 2);
  }
  if (count) {
    unsigned n = 0;
    for (unsigned k = start; k < total && n < *count; k++, n++) {
      /* in range: 8 + 6 * axisCount bytes checked in otv_stat_parse */
      out[n].axis_index = otv_peek_u16(p + 8 + 6 * (size_t)k);
      out[n].value = fixed(p + 10 + 6 * (size_t)k);
    }
    *count = n;
  }
  return total;
}

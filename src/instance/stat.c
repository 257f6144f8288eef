/*
 * instance/stat.c - the STAT table of a static or partial instance, as fontTools' instancer
 * writes it (spec: STAT): the design axes kept as they are; an axis value on a pinned axis only
 * at the pinned value, on a restricted axis only inside its new range (format 2: its nominal
 * value), a format 4 value only when each of its records is; values of unknown formats dropped.
 */
#include "instance/inst.h"
#include "stat.h"

/* spec: STAT axis value table sizes (format 4: 8 + 6 per record) */
static size_t value_size(const otv_stat_value *v)
{
  switch (v->format) {
  case 1: return 12;
  case 2: return 20;
  case 3: return 16;
  case 4: return 8 + 6 * (size_t)v->record_count;
  default: return 0;
  }
}

/* A user value as fvar and STAT store it (16.16), so typed values compare as fontTools'. */
static int32_t fixed_of(double v)
{
  double t = floor(v * 65536.0 + 0.5);
  return (int32_t)(t < -2147483648.0 ? -2147483648.0 : t > 2147483647.0 ? 2147483647.0 : t);
}

/* Whether value u on the STAT design axis `tag` survives the instance. */
static bool value_kept(const otv_inst *in, uint32_t tag, double u)
{
  for (unsigned a = 0; a < in->pin.axis_count; a++) {
    if (in->pin.axis_tags[a] != tag) continue;
    if (!in->pin.partial || !in->pin.keep[a]) return fixed_of(u) == fixed_of(in->loc->user[a]);
    if (in->pin.limited[a])
      return fixed_of(u) >= fixed_of(in->lim_user[a][0]) &&
             fixed_of(u) <= fixed_of(in->lim_user[a][2]);
    return true;
  }
  return true; /* not an fvar axis: nothing changes on it */
}

otv_status otv_inst_stat(otv_inst *in)
{
  const otv_stat *st = &in->face->stat;
  if (!st->present) return OTV_E_OK;
  otv_buf *b = &in->stat;
  unsigned dac = st->design_axis_count, avc = st->axis_value_count;
  uint32_t tags[256];
  if (dac > 256) dac = 256; /* values on axes past it are kept: nothing varies on them */
  for (unsigned i = 0; i < dac; i++) {
    otv_stat_axis ax;
    unsigned one = 1;
    otv_stat_axes(st, i, &one, &ax);
    tags[i] = ax.tag;
  }
  size_t hdr = st->minor_version >= 1 ? 20 : 18;
  size_t axes_len = (size_t)st->design_axis_count * st->design_axis_size;
  /* header, design axes, then the offsets and the kept values */
  otv_buf_u16(b, 1);
  otv_buf_u16(b, st->minor_version);
  otv_buf_u16(b, st->design_axis_size);
  otv_buf_u16(b, st->design_axis_count);
  otv_buf_u32(b, axes_len ? (uint32_t)hdr : 0);
  size_t count_at = b->len;
  otv_buf_u16(b, 0);
  size_t offs_at = b->len;
  otv_buf_u32(b, 0);
  if (st->minor_version >= 1) otv_buf_u16(b, st->elided_fallback_name_id);
  if (axes_len) otv_buf_bytes(b, st->design_axes, axes_len); /* in range: checked at parse */
  size_t base = b->len;
  unsigned kept = 0;
  uint16_t *keep = otv_mem_alloc(in->al, (avc ? avc : 1) * sizeof *keep);
  if (!keep) return OTV_FAIL(in->err, NOMEM, OTV_T_STAT, 0, "axis values");
  for (unsigned i = 0; i < avc; i++) {
    otv_stat_value v;
    unsigned one = 1;
    otv_stat_values(st, i, &one, &v);
    bool ok = value_size(&v) != 0;
    if (ok && v.format <= 3 && v.axis_index < dac) ok = value_kept(in, tags[v.axis_index], v.value);
    for (unsigned k = 0; ok && v.format == 4 && k < v.record_count; k++) {
      otv_stat_axis_value_record rec;
      unsigned one_rec = 1;
      otv_stat_value_records(st, i, k, &one_rec, &rec);
      if (rec.axis_index < dac) ok = value_kept(in, tags[rec.axis_index], rec.value);
    }
    if (ok) keep[kept++] = (uint16_t)i;
  }
  if (kept) {
    otv_buf_put_u16(b, count_at, (uint16_t)kept);
    otv_buf_put_u32(b, offs_at, (uint32_t)base);
    size_t at = 2 * (size_t)kept;
    for (unsigned k = 0; k < kept; k++) {
      otv_stat_value v;
      unsigned one = 1;
      otv_stat_values(st, keep[k], &one, &v);
      otv_buf_u16(b, (uint16_t)at);
      at += value_size(&v);
    }
    for (unsigned k = 0; k < kept; k++) {
      otv_stat_value v;
      unsigned one = 1;
      otv_stat_values(st, keep[k], &one, &v);
      /* in range: each value table's extent was checked at parse */
      size_t off = st->value_base + otv_peek_u16(st->value_offsets + 2 * (size_t)keep[k]);
      otv_buf_bytes(b, st->tab.p + off, value_size(&v));
    }
  }
  otv_mem_free(in->al, keep, (avc ? avc : 1) * sizeof *keep);
  if (b->len - base > 0xFFFF)
    return OTV_FAIL(in->err, LIMIT, OTV_T_STAT, 0, "axis values past 64 KiB");
  if (b->failed) return OTV_FAIL(in->err, NOMEM, OTV_T_STAT, 0, "STAT buffer");
  return OTV_E_OK;
}

/*
 * tuple.c - the out-of-line half of the tuple variation store decoder (tuple.h): opening a store
 * and its errors, and plain decoders of a run of packed deltas.
 */
#include "tuple.h"

#include <stdarg.h>
#include <stdio.h>

otv_status otv_tvs_fail(const otv_tvs *tv, otv_status code, size_t at, const char *fmt, ...)
{
  char msg[96];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (tv->gid != UINT32_MAX)
    return otv_fail(tv->err, code, tv->tag, (uint64_t)tv->base + at, "glyph %u: %s", tv->gid, msg);
  return otv_fail(tv->err, code, tv->tag, (uint64_t)tv->base + at, "%s", msg);
}

otv_status otv_tvs_open(otv_tvs *tv, otv_span data, size_t hdr, unsigned axis_count,
                        const uint8_t *shared_tuples, unsigned shared_tuple_count, otv_error *err,
                        uint32_t tag, size_t base, uint32_t gid)
{
  tv->data = data;
  tv->axis_count = axis_count;
  tv->shared_tuples = shared_tuples;
  tv->shared_tuple_count = shared_tuples ? shared_tuple_count : 0;
  tv->err = err;
  tv->tag = tag;
  tv->base = base;
  tv->gid = gid;
  tv->next = tv->count = 0;
  tv->status = OTV_E_OK;
  tv->shared_points = false;
  if (!otv_span_has(data, hdr, 4))
    return otv_tvs_fail(tv, OTV_E_TRUNCATED, data.len, "tuple variation store header");
  /* in range: 4 bytes checked above */
  unsigned tvc = otv_peek_u16(data.p + hdr);
  size_t data_off = otv_peek_u16(data.p + hdr + 2);
  tv->count = tvc & OTV_TVS_COUNT_MASK;
  tv->shared_points = (tvc & OTV_TVS_SHARED_POINT_NUMBERS) != 0;
  tv->hdr_pos = hdr + 4;
  if (tv->count && data_off > data.len)
    return otv_tvs_fail(tv, OTV_E_BAD_OFFSET, hdr + 2, "serialized data offset 0x%zx", data_off);
  tv->data_pos = data_off;
  return OTV_E_OK;
}

bool otv_deltas_read_f32(const uint8_t **q, const uint8_t *end, unsigned count, float *out)
{
  unsigned i = 0;
  while (i < count) {
    otv_delta_run run;
    if (!otv_delta_run_next(q, end, count - i, &run)) return false;
    float *o = out + i;
    /* in range: the run's bytes were checked by otv_delta_run_next */
    switch (run.kind) {
    case OTV_DELTA_BYTES:
      for (unsigned k = 0; k < run.len; k++) o[k] = (float)(int8_t)run.p[k];
      break;
    case OTV_DELTA_WORDS:
      for (unsigned k = 0; k < run.len; k++) o[k] = (float)otv_peek_i16(run.p + 2 * k);
      break;
    case OTV_DELTA_ZEROS:
      for (unsigned k = 0; k < run.len; k++) o[k] = 0.0f;
      break;
    default:
      for (unsigned k = 0; k < run.len; k++) o[k] = (float)otv_peek_i32(run.p + 4 * k);
      break;
    }
    i += run.len;
  }
  return true;
}

bool otv_deltas_read_f64(const uint8_t **q, const uint8_t *end, unsigned count, double *out)
{
  unsigned i = 0;
  while (i < count) {
    otv_delta_run run;
    if (!otv_delta_run_next(q, end, count - i, &run)) return false;
    double *o = out + i;
    /* in range: the run's bytes were checked by otv_delta_run_next */
    switch (run.kind) {
    case OTV_DELTA_BYTES:
      for (unsigned k = 0; k < run.len; k++) o[k] = (int8_t)run.p[k];
      break;
    case OTV_DELTA_WORDS:
      for (unsigned k = 0; k < run.len; k++) o[k] = otv_peek_i16(run.p + 2 * k);
      break;
    case OTV_DELTA_ZEROS:
      for (unsigned k = 0; k < run.len; k++) o[k] = 0;
      break;
    default:
      for (unsigned k = 0; k < run.len; k++) o[k] = otv_peek_i32(run.p + 4 * k);
      break;
    }
    i += run.len;
  }
  return true;
}

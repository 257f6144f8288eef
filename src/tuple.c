/*
 * tuple.c - the out-of-line half of the tuple variation store code (tuple.h): the errors of a
 * store, plain decoders of packed deltas, and the encoders of packed deltas and point
 * numbers.
 */
#include "tuple.h"

#include <stdarg.h>
#include <stdio.h>

otv_status otv_tvs_report(otv_error *err, uint32_t tag, size_t base, uint32_t gid, otv_status code,
                          size_t at, const char *fmt, ...)
{
  char msg[96];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (gid != UINT32_MAX)
    return otv_fail(err, code, tag, (uint64_t)base + at, "glyph %u: %s", gid, msg);
  return otv_fail(err, code, tag, (uint64_t)base + at, "%s", msg);
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

/* ---- writing ---- */

/* Both packers reserve their worst case once and store the bytes unchecked (they were a
 * checked append per byte): deltas at most 5 bytes a value (a run of one long and its
 * header), point numbers at most 2 + 3 per point (the count; a header and a word a point). */
void otv_tuple_pack_deltas(otv_buf *b, const int32_t *d, unsigned n)
{
  if (!n || !otv_buf_reserve(b, 5 * (size_t)n)) return;
  uint8_t *o = b->p + b->len; /* in range: 5 n bytes reserved, at most 5 written a value */
  unsigned i = 0;
  while (i < n) {
    unsigned kind, j = otv_delta_run_at(d, i, n, &kind);
    switch (kind) {
    case OTV_DELTA_ZEROS: *o++ = (uint8_t)(OTV_DELTAS_ARE_ZERO | (j - i - 1)); break;
    case OTV_DELTA_BYTES:
      *o++ = (uint8_t)(j - i - 1);
      for (unsigned q = i; q < j; q++) *o++ = (uint8_t)(int8_t)d[q];
      break;
    case OTV_DELTA_WORDS:
      *o++ = (uint8_t)(OTV_DELTAS_ARE_WORDS | (j - i - 1));
      for (unsigned q = i; q < j; q++, o += 2) otv_put_u16(o, (uint16_t)(int16_t)d[q]);
      break;
    default:
      *o++ = (uint8_t)(OTV_DELTAS_ARE_ZERO | OTV_DELTAS_ARE_WORDS | (j - i - 1));
      for (unsigned q = i; q < j; q++, o += 4) otv_put_u32(o, (uint32_t)d[q]);
      break;
    }
    i = j;
  }
  b->len = (size_t)(o - b->p);
}

/* Packed point numbers (spec: otvarcommonformats "Packed point numbers") of the m points with
 * keep set, or "all points" (a single 0) when m == n. */
void otv_tuple_pack_points(otv_buf *b, const uint8_t *keep, unsigned n, unsigned m)
{
  if (m == n) {
    otv_buf_u8(b, 0);
    return;
  }
  if (!otv_buf_reserve(b, 2 + 3 * (size_t)n)) return;
  uint8_t *o = b->p + b->len; /* in range: 2 + 3 n bytes reserved */
  if (m <= OTV_POINT_RUN_COUNT_MASK) {
    *o++ = (uint8_t)m;
  } else {
    otv_put_u16(o, (uint16_t)(OTV_POINTS_ARE_WORDS << 8 | m));
    o += 2;
  }
  unsigned last = 0, k = 0;
  while (k < n) {
    /* a run of up to 128 listed points, words when some step needs them */
    unsigned pts[128], cnt = 0;
    bool words = false;
    unsigned prevp = last;
    for (; k < n && cnt < 128; k++) {
      if (!keep[k]) continue;
      if (k - prevp > 0xFF) words = true;
      pts[cnt++] = k;
      prevp = k;
    }
    if (!cnt) break;
    *o++ = (uint8_t)((words ? OTV_POINTS_ARE_WORDS : 0) | (cnt - 1));
    for (unsigned q = 0; q < cnt; q++) {
      unsigned d = pts[q] - last;
      if (words) {
        otv_put_u16(o, (uint16_t)d);
        o += 2;
      } else {
        *o++ = (uint8_t)d;
      }
      last = pts[q];
    }
  }
  b->len = (size_t)(o - b->p);
}

/*
 * tuple.h - the tuple variation store (spec: otvarcommonformats "Tuple Variation Store"), the
 * format of a gvar glyph's variation data and of cvar: the store header, the tuple variation
 * headers, packed point numbers and packed deltas.
 *
 * This is the one decoder of the format. gvar.c evaluates what it yields in float for drawing
 * (with SSE2 expansions of the delta runs it reads), instance/tvs.c in double in the order of
 * fontTools' instancer. Malformed data means the same to both: a header or tuple data past the
 * end, a shared tuple index out of range, a tuple without point numbers, a point-number or delta
 * run past the end or a delta run past the count are errors (HarfBuzz rejects the same); point
 * numbers past the glyph's points are ignored where they are applied.
 *
 * The cursor functions are inline: the drawing path runs them for every tuple of every glyph
 * (through the fast lane below, the checked cursor's twin for well-formed data).
 * Out-of-line helpers are in tuple.c.
 */
#ifndef OTV_TUPLE_H
#define OTV_TUPLE_H

#include "core/core.h"
#include "core/writer.h"

/* spec: tupleVariationCount flags / mask */
#define OTV_TVS_SHARED_POINT_NUMBERS 0x8000u
#define OTV_TVS_COUNT_MASK 0x0FFFu
/* spec: tupleIndex flags / mask */
#define OTV_TUPLE_EMBEDDED_PEAK 0x8000u
#define OTV_TUPLE_INTERMEDIATE 0x4000u
#define OTV_TUPLE_PRIVATE_POINTS 0x2000u
#define OTV_TUPLE_INDEX_MASK 0x0FFFu
/* spec: packed point numbers, control byte of a run */
#define OTV_POINTS_ARE_WORDS 0x80u
#define OTV_POINT_RUN_COUNT_MASK 0x7Fu
/* spec: packed deltas, control byte of a run; both high bits: 32-bit deltas (DELTAS_ARE_LONGS) */
#define OTV_DELTAS_ARE_ZERO 0x80u
#define OTV_DELTAS_ARE_WORDS 0x40u
#define OTV_DELTA_RUN_COUNT_MASK 0x3Fu
/* The kind of a delta run is its control byte >> 6: */
enum { OTV_DELTA_BYTES = 0, OTV_DELTA_WORDS = 1, OTV_DELTA_ZEROS = 2, OTV_DELTA_LONGS = 3 };

/* log2 of the bytes per delta of a run kind (zeros take none: see otv_delta_run_bytes). */
static inline unsigned otv_delta_kind_shift(unsigned kind) { return (0x2010u >> (4 * kind)) & 3u; }
static inline unsigned otv_delta_run_len(unsigned ctl)
{
  return (ctl & OTV_DELTA_RUN_COUNT_MASK) + 1;
}
static inline size_t otv_delta_run_bytes(unsigned ctl)
{
  unsigned kind = ctl >> 6;
  return kind == OTV_DELTA_ZEROS ? 0 : (size_t)otv_delta_run_len(ctl) << otv_delta_kind_shift(kind);
}

/* One store being read: its header checked by otv_tvs_open, then a cursor over the tuples. */
typedef struct otv_tvs {
  otv_span data;                /* the bytes its offsets count from */
  unsigned count;               /* tuples */
  unsigned axis_count;          /* F2Dot14 values per tuple */
  bool shared_points;           /* shared point numbers start the serialized data */
  const uint8_t *shared_tuples; /* gvar's shared tuples (checked at open), NULL for cvar */
  unsigned shared_tuple_count;
  /* where errors go: tag, table offset of data, and the glyph (UINT32_MAX: not a glyph) */
  otv_error *err;
  uint32_t tag;
  size_t base;
  uint32_t gid;
  otv_status status; /* why otv_tvs_next returned -1 */
  /* cursor */
  unsigned next;   /* index of the next tuple */
  size_t hdr_pos;  /* offset of its header in data */
  size_t data_pos; /* offset of its serialized data in data (first: the shared points) */
} otv_tvs;

/* One tuple variation header, decoded, and where its data is. */
typedef struct otv_tuple {
  unsigned index;
  unsigned tidx;              /* tupleIndex with its flags */
  const uint8_t *peak;        /* axis_count F2Dot14 (embedded, or a gvar shared tuple) */
  const uint8_t *start, *end; /* the intermediate region; NULL: implied by the peak */
  const uint8_t *p, *pend;    /* its serialized data: [private point numbers] deltas (the
                                 fast lane leaves them NULL: see there) */
  size_t data_at, size;       /* the same as offset in the store's data and length */
  size_t hdr_at;              /* offset of the header in the store's data (for errors) */
} otv_tuple;

/* Record an error of a store (code, offset at in its data at table offset base) with "glyph N: "
 * before the message when it belongs to a glyph (gid != UINT32_MAX). Returns code. The store's
 * fields are passed by value: the cursor's hot loop never gives its address away. */
otv_status otv_tvs_report(otv_error *err, uint32_t tag, size_t base, uint32_t gid, otv_status code,
                          size_t at, const char *fmt, ...) OTV_PRINTF(7, 8);
#define otv_tvs_fail(tv, code, at, ...)                                                            \
  otv_tvs_report((tv)->err, (tv)->tag, (tv)->base, (tv)->gid, (code), (at), __VA_ARGS__)

/* Open the store whose tupleVariationCount is at hdr of data (gvar: 0 of the glyph's variation
 * data; cvar: 4 of the table). shared_tuples: gvar's, NULL for cvar. Checks the header and the
 * data offset; OTV_E_OK or the error (recorded). Inline, as otv_tvs_next: a cursor whose address
 * is never taken stays in registers. */
static inline otv_status otv_tvs_open(otv_tvs *tv, otv_span data, size_t hdr, unsigned axis_count,
                                      const uint8_t *shared_tuples, unsigned shared_tuple_count,
                                      otv_error *err, uint32_t tag, size_t base, uint32_t gid)
{
  tv->data = data;
  tv->axis_count = axis_count;
  tv->shared_tuples = shared_tuples;
  tv->shared_tuple_count = shared_tuples ? shared_tuple_count : 0;
  tv->err = err;
  tv->tag = tag;
  tv->base = base;
  tv->gid = gid;
  tv->status = OTV_E_OK;
  tv->next = tv->count = 0;
  tv->shared_points = false;
  tv->hdr_pos = tv->data_pos = 0;
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

/* ---- packed point numbers (spec: "Packed point numbers") ---- */

/* The count that starts packed point numbers at *q (q < end): 0 means every point. Moves q
 * past it; false when it runs past end. */
static OTV_ALWAYS_INLINE bool otv_points_count(const uint8_t **q, const uint8_t *end,
                                               unsigned *count)
{
  const uint8_t *p = *q;
  if (p >= end) return false;
  unsigned c = *p++;
  if (c & OTV_POINTS_ARE_WORDS) {
    if (p >= end) return false;
    c = (c & OTV_POINT_RUN_COUNT_MASK) << 8 | *p++;
  }
  *count = c;
  *q = p;
  return true;
}

/* The count point numbers after the count (count > 0), as absolute numbers into out[count].
 * A run past the count stops at it (the count rules). false when the runs pass end. */
static inline bool otv_points_read(const uint8_t **q, const uint8_t *end, unsigned count,
                                   uint16_t *out)
{
  const uint8_t *p = *q;
  unsigned i = 0, prev = 0;
  while (i < count) {
    if (p >= end) return false;
    unsigned ctl = *p++;
    unsigned run = (ctl & OTV_POINT_RUN_COUNT_MASK) + 1;
    if (run > count - i) run = count - i;
    size_t bytes = ctl & OTV_POINTS_ARE_WORDS ? 2 * (size_t)run : run;
    if ((size_t)(end - p) < bytes) return false;
    /* in range: bytes checked just above */
    if (ctl & OTV_POINTS_ARE_WORDS) {
      for (unsigned k = 0; k < run; k++) {
        prev = (prev + otv_peek_u16(p + 2 * k)) & 0xFFFFu;
        out[i++] = (uint16_t)prev;
      }
    } else {
      for (unsigned k = 0; k < run; k++) {
        prev = (prev + p[k]) & 0xFFFFu;
        out[i++] = (uint16_t)prev;
      }
    }
    p += bytes;
  }
  *q = p;
  return true;
}

/* ---- the tuples ---- */

/* The next tuple into *t: 1, 0 after the last one, -1 when the store is malformed (the error
 * is recorded, tv->status says which). The shared point numbers (tv->shared_points) must have been
 * read first, and tv->data_pos moved past them. */
static OTV_ALWAYS_INLINE int otv_tvs_next(otv_tvs *tv, otv_tuple *t)
{
  if (tv->next >= tv->count) return 0;
  const size_t dlen = tv->data.len, axes2 = 2 * (size_t)tv->axis_count;
  const uint8_t *dp = tv->data.p;
  size_t h = tv->hdr_pos;
  /* hdr_pos <= dlen and data_pos <= dlen hold throughout (both start inside, checked in
   * otv_tvs_open, and grow only by checked amounts): one subtraction checks each */
  if (dlen - h < 4) goto header;
  const uint8_t *hp = dp + h; /* in range: 4 bytes checked above */
  size_t size = otv_peek_u16(hp);
  unsigned tidx = otv_peek_u16(hp + 2);
  const uint8_t *x = hp + 4;
  const uint8_t *start = NULL, *end = NULL;
  if (tidx & (OTV_TUPLE_EMBEDDED_PEAK | OTV_TUPLE_INTERMEDIATE)) {
    size_t hl = 4 + (tidx & OTV_TUPLE_EMBEDDED_PEAK ? axes2 : 0) +
                (tidx & OTV_TUPLE_INTERMEDIATE ? 2 * axes2 : 0);
    if (dlen - h < hl) goto header;
    /* in range: the hl header bytes checked above */
    if (tidx & OTV_TUPLE_EMBEDDED_PEAK) {
      t->peak = x;
      x += axes2;
    }
    if (tidx & OTV_TUPLE_INTERMEDIATE) {
      start = x;
      end = x + axes2;
      x += 2 * axes2;
    }
  }
  if (!(tidx & OTV_TUPLE_EMBEDDED_PEAK)) {
    unsigned si = tidx & OTV_TUPLE_INDEX_MASK;
    if (si >= tv->shared_tuple_count) {
      tv->status = otv_tvs_fail(tv, OTV_E_BAD_VALUE, h + 2, "shared tuple index %u of %u", si,
                                tv->shared_tuple_count);
      return -1;
    }
    t->peak = tv->shared_tuples + si * axes2; /* in range: checked where they were parsed */
  }
  if (!(tidx & OTV_TUPLE_PRIVATE_POINTS) && !tv->shared_points) {
    tv->status =
        otv_tvs_fail(tv, OTV_E_BAD_VALUE, h + 2, "tuple %u has no point numbers", tv->next);
    return -1;
  }
  size_t ser = tv->data_pos;
  if (dlen - ser < size) {
    tv->status =
        otv_tvs_fail(tv, OTV_E_TRUNCATED, h, "tuple %u data (%zu bytes at 0x%zx) past the end",
                     tv->next, size, ser);
    return -1;
  }
  t->index = tv->next++;
  t->tidx = tidx;
  t->start = start;
  t->end = end;
  t->p = dp + ser;
  t->pend = dp + ser + size;
  t->data_at = ser;
  t->size = size;
  t->hdr_at = h;
  tv->hdr_pos = (size_t)(x - dp);
  tv->data_pos = ser + size;
  return 1;
header:
  tv->status = otv_tvs_fail(tv, OTV_E_TRUNCATED, dlen, "tuple variation header %u", tv->next);
  return -1;
}

/* ---- the tuples, fast lane ----
 *
 * The drawing path reads every tuple header of every glyph at every location. It does so
 * through this lane, which decodes the same headers with fewer checks per tuple: when every
 * header fits at 4 bytes, 4-byte headers need no check each (room: the bytes left for longer
 * ones, whose extra length is checked against it), and the tuples' data is checked once at the
 * end (data_pos only grows: its last value bounds them all). So the lane gives a tuple's data
 * as data_at and size only (p and pend NULL), known to be inside the data once
 * otv_tvs_lane_end says so.
 * otv_tvs_lane_next and otv_tvs_lane_end return false on anything the checked cursor would
 * reject (or when the headers may not all fit); the caller then starts over with otv_tvs_next
 * from the same opened store, which finds and reports the problem exactly. */
typedef struct otv_tvs_lane {
  size_t h;          /* offset of the next tuple's header */
  size_t ser;        /* offset of its data (may pass the end: see above) */
  size_t room;       /* header bytes beyond 4 per tuple still inside the data */
  unsigned all_tidx; /* the tuple indices and-ed: do they all have private point numbers? */
} otv_tvs_lane;

/* Start the lane at the cursor of a store just opened (and its shared points read). */
static OTV_ALWAYS_INLINE bool otv_tvs_lane_begin(const otv_tvs *tv, otv_tvs_lane *l)
{
  size_t left = tv->data.len - tv->hdr_pos; /* hdr_pos <= len: checked in otv_tvs_open */
  if (left / 4 < tv->count) return false;
  l->h = tv->hdr_pos;
  l->ser = tv->data_pos;
  l->room = left - 4 * (size_t)tv->count;
  l->all_tidx = OTV_TUPLE_PRIVATE_POINTS;
  return true;
}

/* The next tuple, i (the caller counts them: 0 to tv->count - 1), into *t: false on an anomaly
 * (see above). The common tuple (a shared peak, no intermediate region: a 4-byte header) goes
 * first. */
static OTV_ALWAYS_INLINE bool otv_tvs_lane_next(const otv_tvs *tv, otv_tvs_lane *l, unsigned i,
                                                otv_tuple *t)
{
  const uint8_t *dp = tv->data.p;
  const uint8_t *hp = dp + l->h; /* in range: 4 bytes, see room */
  size_t size = otv_peek_u16(hp);
  unsigned tidx = otv_peek_u16(hp + 2);
  t->index = i;
  t->tidx = tidx;
  t->p = t->pend = NULL; /* the data is not checked yet: see otv_tvs_lane_end */
  t->data_at = l->ser;
  t->size = size;
  t->hdr_at = l->h;
  l->ser += size;
  l->all_tidx &= tidx; /* a tuple without point numbers: see otv_tvs_lane_end */
  const size_t axes2 = 2 * (size_t)tv->axis_count;
  unsigned si = tidx & OTV_TUPLE_INDEX_MASK;
  if (!(tidx & (OTV_TUPLE_EMBEDDED_PEAK | OTV_TUPLE_INTERMEDIATE))) {
    if (si >= tv->shared_tuple_count) return false;
    t->peak = tv->shared_tuples + si * axes2; /* in range: checked at parse */
    t->start = t->end = NULL;
    l->h += 4;
    return true;
  }
  size_t extra = (tidx & OTV_TUPLE_EMBEDDED_PEAK ? axes2 : 0) +
                 (tidx & OTV_TUPLE_INTERMEDIATE ? 2 * axes2 : 0);
  if (extra > l->room) return false;
  l->room -= extra; /* in range: the extra header bytes read below */
  const uint8_t *x = hp + 4;
  if (tidx & OTV_TUPLE_EMBEDDED_PEAK) {
    t->peak = x;
    x += axes2;
  } else {
    if (si >= tv->shared_tuple_count) return false;
    t->peak = tv->shared_tuples + si * axes2; /* in range: checked at parse */
  }
  t->start = t->end = NULL;
  if (tidx & OTV_TUPLE_INTERMEDIATE) {
    t->start = x;
    t->end = x + axes2;
  }
  l->h += 4 + extra;
  return true;
}

/* After the last tuple: true when every tuple's data is inside the store's data and every
 * tuple has point numbers (private ones, or the shared ones). */
static OTV_ALWAYS_INLINE bool otv_tvs_lane_end(const otv_tvs *tv, const otv_tvs_lane *l)
{
  return l->ser <= tv->data.len && (tv->shared_points || (l->all_tidx & OTV_TUPLE_PRIVATE_POINTS));
}

/* ---- packed deltas (spec: "Packed deltas") ---- */

/* One run of packed deltas, its bytes checked. */
typedef struct otv_delta_run {
  unsigned kind; /* OTV_DELTA_* */
  unsigned len;
  const uint8_t *p; /* len << otv_delta_kind_shift(kind) bytes (none for zeros) */
} otv_delta_run;

/* The next run at *q of at most `left` deltas (left > 0): false when it passes end or the
 * count (malformed). */
static inline bool otv_delta_run_next(const uint8_t **q, const uint8_t *end, unsigned left,
                                      otv_delta_run *run)
{
  const uint8_t *p = *q;
  if (p >= end) return false;
  unsigned ctl = *p++;
  run->kind = ctl >> 6;
  run->len = otv_delta_run_len(ctl);
  if (run->len > left) return false;
  size_t bytes = otv_delta_run_bytes(ctl);
  if ((size_t)(end - p) < bytes) return false;
  run->p = p;
  *q = p + bytes;
  return true;
}

/* Delta i of a run (i < len; in range: the run's bytes were checked by otv_delta_run_next). */
static inline int32_t otv_delta_at(const otv_delta_run *run, unsigned i)
{
  switch (run->kind) {
  case OTV_DELTA_BYTES: return (int8_t)run->p[i];
  case OTV_DELTA_WORDS: return otv_peek_i16(run->p + 2 * (size_t)i);
  case OTV_DELTA_ZEROS: return 0;
  default: return otv_peek_i32(run->p + 4 * (size_t)i);
  }
}

/* count packed deltas at *q into out, as floats or doubles (exact either way for the 16-bit
 * deltas; 32-bit deltas beyond 2^24 round in float). false when malformed (see above). */
bool otv_deltas_read_f32(const uint8_t **q, const uint8_t *end, unsigned count, float *out);
bool otv_deltas_read_f64(const uint8_t **q, const uint8_t *end, unsigned count, double *out);

/* ---- writing (the partial instancer; spec: the same sections) ---- */

/* n deltas as packed deltas: runs of zeros, bytes, words or 32-bit values, at most 64 each; a
 * byte run goes on through single zeros, a word run stops at a zero and at two byte-sized
 * values (the smallest encoding of each stretch). */
void otv_tuple_pack_deltas(otv_buf *b, const int32_t *d, unsigned n);
/* The run otv_tuple_pack_deltas writes from d[i] (i < n): its kind (OTV_DELTA_*), returning
 * where it ends (exclusive; at most 64 values). Shared with the builder's byte count
 * (build/tvs.c), so both choose the same runs. */
static inline unsigned otv_delta_run_at(const int32_t *d, unsigned i, unsigned n, unsigned *kind)
{
  unsigned j = i, end = n - i > 64 ? i + 64 : n;
  /* (uint32_t)v + 128 <= 255: v fits a byte; + 32768 <= 65535: a word */
  if (d[i] == 0) {
    while (j < end && d[j] == 0) j++;
    *kind = OTV_DELTA_ZEROS;
  } else if ((uint32_t)d[i] + 128u <= 255u) {
    /* a byte run goes on through single zeros (cheaper than a zero run) */
    for (; j < end; j++) {
      if ((uint32_t)d[j] + 128u > 255u) break;
      if (d[j] == 0 && j + 1 < n && d[j + 1] == 0) break;
    }
    *kind = OTV_DELTA_BYTES;
  } else if ((uint32_t)d[i] + 32768u <= 65535u) {
    /* a word run stops at a zero and at two byte-sized values */
    for (; j < end; j++) {
      if ((uint32_t)d[j] + 32768u > 65535u || d[j] == 0) break;
      if ((uint32_t)d[j] + 128u <= 255u && j + 1 < n && (uint32_t)d[j + 1] + 128u <= 255u) break;
    }
    *kind = OTV_DELTA_WORDS;
  } else {
    while (j < end && (uint32_t)d[j] + 32768u > 65535u) j++;
    *kind = OTV_DELTA_LONGS;
  }
  return j;
}
/* The point numbers of the m points with keep set, or "all points" (a single 0) when m == n. */
void otv_tuple_pack_points(otv_buf *b, const uint8_t *keep, unsigned n, unsigned m);

/* The delta IUP infers for point k on one axis from reference points j and i (spec: gvar
 * "Inferred deltas for un-referenced point numbers"): o the original coordinates, r the
 * references' deltas. Shared by the instancer's and the builder's point choice. */
static inline double otv_iup_infer(const double *o, const int32_t *r, unsigned j, unsigned i,
                                   unsigned k)
{
  double x1 = o[j], x2 = o[i], d1 = r[j], d2 = r[i];
  if (x1 == x2) return d1 == d2 ? d1 : 0;
  if (x1 > x2) {
    double t = x1;
    x1 = x2, x2 = t;
    t = d1, d1 = d2, d2 = t;
  }
  double x = o[k];
  return x <= x1 ? d1 : x >= x2 ? d2 : d1 + (x - x1) * (d2 - d1) / (x2 - x1);
}

#endif /* OTV_TUPLE_H */

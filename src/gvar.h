/*
 * gvar.h - glyph variations (spec: gvar): the table parsed at open, and the deltas of a glyph's
 * points at a location, evaluated in float (tuple scalars, the tuple variation store decoded by
 * tuple.h, inferred deltas of untouched points). Implemented in gvar.c; glyf.c calls it for
 * every glyph it loads.
 */
#ifndef OTV_GVAR_H
#define OTV_GVAR_H

#include "coords.h"

/* gvar, parsed at open (header, offsets array and shared tuples checked). */
typedef struct otv_gvar {
  bool present;
  bool long_offsets;
  uint16_t axis_count; /* == fvar axis count (checked) */
  uint16_t shared_tuple_count;
  uint32_t glyph_count;         /* glyphCount (may be < maxp.numGlyphs: the rest have no data) */
  otv_span tab;                 /* the whole table */
  const uint8_t *shared_tuples; /* shared_tuple_count x axis_count F2Dot14 (checked at parse) */
  const uint8_t *offsets;       /* glyph_count + 1 offsets (checked at parse) */
  size_t data_off;              /* glyphVariationDataArrayOffset */
} otv_gvar;

/* tab may be empty (no gvar: present stays false). axis_count: fvar's; gvar must agree. */
otv_status otv_gvar_parse(otv_span tab, uint16_t axis_count, otv_gvar *out, otv_error *err);

/* Glyph gid's variation data: 1 (*data, and its table offset in *base), 0 none, -1 when its
 * offsets are out of order or past the table (*base: the offending offset array entry). */
int otv_gvar_glyph_data(const otv_gvar *g, uint32_t gid, otv_span *data, size_t *base);

/* One gvar tuple whose scalar is not 0 at the location. Its data as an offset and length:
 * tuple.h's fast lane checks them only after the last tuple. */
struct otv_gvar_act {
  size_t off, len;  /* its serialized data in the glyph's variation data */
  float s;          /* its scalar */
  unsigned tidx, t; /* its tupleIndex with flags, and its index (for errors) */
};

#define OTV_GVAR_ISCAL_SLOTS 64u

/* One tuple of a glyph in the glyph cache (glyf.c "Glyph cache"): what its scalar needs.
 * peak/start/end point into the face's gvar table (start/end NULL: no intermediate region). */
typedef struct otv_gvar_tup {
  const uint8_t *peak, *start, *end;
  uint32_t tidx;
  uint32_t pad_;
} otv_gvar_tup;

/* Per-location state: the location it evaluates at, and scratch grown with OTV_RESERVE, never
 * shrunk, freed with the location. */
typedef struct otv_gvar_loc {
  otv_locctx x;
  const otv_gvar *g;
  /* shared tuple scalars (non-intermediate use), valid while serial == x.at->serial */
  float *shared_scalars;
  size_t shared_cap;
  uint32_t serial;
  /* accumulated deltas, one tuple's deltas, touched marks, point numbers */
  otv_point *acc;
  otv_point *td;
  uint8_t *touched;
  size_t acc_cap, td_cap, touched_cap;
  uint16_t *refs; /* IUP: the touched points of one contour */
  size_t refs_cap;
  float *dacc; /* the points being varied, planar: x then y */
  size_t dacc_cap;
  float *dz; /* otv_gvar_begin's planar deltas: per tuple, x deltas then y deltas */
  size_t dz_cap;
  uint16_t *pn_shared, *pn_priv;
  size_t pn_shared_cap, pn_priv_cap;
  otv_point *dl; /* one tuple's x deltas then y deltas (floats), in point-number order */
  size_t dl_cap;
  struct otv_gvar_act *act; /* the tuples that apply to one glyph */
  size_t act_cap;
  /* scalars of tuples with a shared peak and an intermediate region (the same few regions
   * recur in every glyph), direct-mapped by peak index; valid while serial == x.at->serial */
  struct otv_gvar_iscal {
    const uint8_t *region; /* the start and end tuples where first seen (the face's gvar) */
    uint64_t key;          /* fonts of 1 or 2 axes: those 4 or 8 bytes, zero-padded */
    uint32_t serial;
    uint32_t si;
    float s;
  } iscal[OTV_GVAR_ISCAL_SLOTS];
} otv_gvar_loc;

void otv_gvar_loc_init(otv_gvar_loc *c, const otv_gvar *g, otv_locctx x);
void otv_gvar_loc_free(otv_gvar_loc *c);

/* Add the gvar deltas of glyph gid at the location to pts[0..n) (n includes the 4 phantom
 * points, which are last). For a simple glyph, ends[0..end_count) are its contour ends (indices
 * into pts, plus ends_base) and untouched points get inferred deltas (IUP); a composite passes
 * end_count 0 (its points are component offsets: untouched ones get no delta). phantoms: the
 * phantom points are used (else up to 3 of them may be left without their deltas). pts must not
 * point into c's scratch. Errors are recorded in the location. */
otv_status otv_gvar_apply(otv_gvar_loc *c, uint32_t gid, otv_point *pts, unsigned n,
                          const uint16_t *ends, unsigned end_count, unsigned ends_base,
                          bool phantoms);

/* The same in two steps around a simple glyph's decode, so that its coordinates can take
 * their deltas as they are decoded. otv_gvar_begin (before the decode; n points with the 4
 * phantoms) finds the tuples that apply; *pre gets mode OTV_GVAR_NONE (none: nothing more to
 * do), OTV_GVAR_PLANAR (SSE2: 1 to OTV_GVAR_PLANAR_MAX tuples apply, each listing every
 * point; their deltas are decoded: tuple a's x deltas at pre->dz[2 a stride, + n), its y
 * deltas stride floats further, its scalar pre->s[a]; point p is then varied as
 * ((p + s[0] d0) + s[1] d1) + ..., the float operations of otv_gvar_apply in the same order)
 * or OTV_GVAR_LATER (call otv_gvar_finish with the decoded points: otv_gvar_apply's second
 * half). pre->dz is c's scratch, valid until the next call on c. Errors are recorded in the
 * location. */
#define OTV_GVAR_PLANAR_MAX 3u
enum { OTV_GVAR_NONE, OTV_GVAR_PLANAR, OTV_GVAR_LATER };
typedef struct otv_gvar_pre {
  int mode;
  unsigned n_act;               /* the tuples that apply */
  unsigned stride;              /* PLANAR: floats from a tuple's x deltas to its y deltas */
  const float *dz;              /* PLANAR: the deltas */
  float s[OTV_GVAR_PLANAR_MAX]; /* PLANAR: the scalars */
  /* LATER: pass 1's findings for otv_gvar_finish */
  otv_span data;
  size_t base;
  long shared_count;
  bool shared_all, sparse;
} otv_gvar_pre;
otv_status otv_gvar_begin(otv_gvar_loc *c, uint32_t gid, unsigned n, otv_gvar_pre *pre);
otv_status otv_gvar_finish(otv_gvar_loc *c, uint32_t gid, const otv_gvar_pre *pre, otv_point *pts,
                           unsigned n, const uint16_t *ends, unsigned end_count, unsigned ends_base,
                           bool phantoms);
/* Glyph cache support (glyf.c "Glyph cache"). otv_gvar_tuple_count: the number of tuples of
 * glyph gid (0: no variation data), -1 when its data is bad (the caller then draws it without
 * the cache, which reports the error). otv_gvar_decode_all: every tuple's descriptor into tup
 * (m = otv_gvar_tuple_count entries) and its deltas for the np outline points (unscaled, IUP
 * applied from orig, which holds np + 4 default points) into d[t * stride + p], points past np
 * zero; false when anything is wrong (no error reported). otv_gvar_apply_cached: out[0..stride)
 * = p0 + the sum of scalar x deltas of the tuples that apply at the location, in tuple order
 * (the same float operations as otv_gvar_apply); false only when out of memory. stride even. */
long otv_gvar_tuple_count(const otv_gvar *g, uint32_t gid);
bool otv_gvar_decode_all(otv_gvar_loc *c, uint32_t gid, const otv_point *orig, unsigned np,
                         const uint16_t *ends, unsigned end_count, otv_gvar_tup *tup, unsigned m,
                         otv_point *d, unsigned stride);
bool otv_gvar_apply_cached(otv_gvar_loc *c, const otv_gvar_tup *tup, unsigned m,
                           const otv_point *p0, const otv_point *d, unsigned stride,
                           otv_point *out);

#endif /* OTV_GVAR_H */

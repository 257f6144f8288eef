/*
 * glyf.h - TrueType outlines: glyf/loca and gvar (tuple variations, IUP, phantom points,
 * composites). Implemented in glyf.c (glyf/loca decoding, composites, pen output, phantom
 * defaults from hmtx/vmtx) and gvar.c (gvar parsing, tuple scalars, packed points/deltas, IUP).
 *
 * Output conventions:
 *   - Pen: one move_to per contour; implied on-curve midpoints explicit; a contour that starts
 *     off-curve starts at its last point when that is on-curve, else at the midpoint of last and
 *     first (FreeType's FT_Outline_Decompose order); line_to back to the start when the last
 *     point drawn differs from it (HarfBuzz's draw semantics), then close_path.
 *   - Points: the flattened outline points, then the 4 phantom points.
 */
#ifndef OTV_GLYF_H
#define OTV_GLYF_H

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

typedef struct otv_glyf {
  bool present;
  bool loca_long; /* head.indexToLocFormat == 1 */
  otv_span glyf;
  otv_span loca; /* (glyph_count + 1) entries (checked at parse) */
  otv_gvar gvar;
  /* hmtx/hhea and vmtx/vhea, read minimally for the phantom point defaults */
  otv_span hmtx, vmtx;
  uint16_t num_h_metrics, num_v_metrics;
  bool has_vmtx;
  int16_t v_ascender, v_descender; /* OS/2 typo (else hhea) ascender/descender: vertical default */
  bool hmtx_full, vmtx_full;       /* the table holds every glyph's entry: reads need no check */
} otv_glyf;

/* One gvar tuple whose scalar is not 0 at the location: its serialized data [p, end). */
struct otv_gvar_act {
  const uint8_t *p, *end;
  float s;
  unsigned tidx, t;
  size_t at; /* table offset of p, for errors */
};

#define OTV_GVAR_ISCAL_SLOTS 64u

/* One tuple of a glyph in the glyph cache (glyf.c "Glyph cache"): what its scalar needs.
 * peak/start/end point into the face's gvar table (start/end NULL: no intermediate region). */
typedef struct otv_gvar_tup {
  const uint8_t *peak, *start, *end;
  uint32_t tidx;
  uint32_t pad_;
} otv_gvar_tup;

/* Glyph cache bounds: 4096 slots of 8 bytes and a 1 MiB arena per location. */
#define OTV_GLYF_GC_SLOTS 4096u
#define OTV_GLYF_GC_BYTES (1024u * 1024u)
struct otv_glyf_gent {
  uint32_t gid1; /* gid + 1 (0: empty) */
  uint32_t off;  /* in gc_mem; UINT32_MAX: the glyph is drawn without the cache */
};

/* Component cache bounds: 1024 slots of 20 bytes and a 256 KiB arena per location. */
#define OTV_GLYF_CC_SLOTS 1024u
#define OTV_GLYF_CC_BYTES (256u * 1024u)
struct otv_glyf_cent {
  uint32_t gen; /* == cc_gen: valid (0: never used) */
  uint32_t gid;
  uint32_t off; /* in cc_mem: n points, nc contour ends (relative), n point flags */
  uint32_t n;   /* points, the 4 phantoms included */
  uint16_t nc;
  uint8_t bits; /* CC_PHANTOMS | CC_ROUND | CC_OVERLAP (glyf.c) */
};

/* Per-location cache and scratch. Grown with otv_mem_reserve, never shrunk; freed with the
 * location. */
typedef struct otv_glyf_loc {
  /* shared tuple scalars (non-intermediate use), valid while serial == loc->serial */
  float *shared_scalars;
  size_t shared_cap;
  uint32_t serial;
  /* the flattened glyph being built */
  otv_point *pts;
  uint8_t *tags;
  size_t pts_cap, tags_cap;
  uint16_t *ends;
  size_t ends_cap;
  uint8_t *xy_pad; /* a glyph's x and y arrays copied with 2 spare bytes (glyf.c decode_xy) */
  size_t xy_pad_cap;
  /* composite own points (component offsets + phantoms), a stack across nesting levels */
  otv_point *cstk;
  size_t cstk_cap;
  /* decoded component records of the composites being loaded, a stack like cstk */
  struct otv_glyf_comp *comps;
  size_t comps_cap;
  unsigned comps_top;
  /* gvar scratch: accumulated deltas, one tuple's deltas, touched marks, point numbers */
  otv_point *acc;
  otv_point *td;
  uint8_t *touched;
  size_t acc_cap, td_cap, touched_cap;
  uint16_t *refs; /* IUP: the touched points of one contour */
  size_t refs_cap;
  float *dacc; /* the points being varied, planar: x then y (gvar.c) */
  size_t dacc_cap;
  uint16_t *pn_shared, *pn_priv;
  size_t pn_shared_cap, pn_priv_cap;
  otv_point *dl; /* one tuple's x deltas then y deltas (floats), in point-number order */
  size_t dl_cap;
  struct otv_gvar_act *act; /* the tuples that apply to one glyph (gvar.c) */
  size_t act_cap;
  /* scalars of tuples with a shared peak and an intermediate region (the same few regions
   * recur in every glyph), direct-mapped by peak index; valid while serial == loc->serial
   * (gvar.c) */
  struct otv_gvar_iscal {
    const uint8_t *region; /* the start and end tuples where first seen (the face's gvar) */
    uint64_t key;          /* fonts of 1 or 2 axes: those 4 or 8 bytes, zero-padded */
    uint32_t serial;
    uint32_t si;
    float s;
  } iscal[OTV_GVAR_ISCAL_SLOTS];
  /* a simple component used again later in the same composite (e.g. Handjet's dots): its
   * varied points, flags and contour ends (relative) kept for the rest of one top-level call */
  otv_point *memo_pts;
  uint8_t *memo_tags;
  uint16_t *memo_ends;
  size_t memo_pts_cap, memo_tags_cap, memo_ends_cap;
  uint32_t memo_gid; /* UINT32_MAX: none */
  unsigned memo_n, memo_nc;
  bool memo_phantoms; /* the memorized glyph has its real phantom points */
  /* component cache (glyf.c, "Component cache"): varied simple glyphs loaded as components,
   * kept across top-level calls while the coordinates stay the same. Direct-mapped by glyph
   * id into OTV_GLYF_CC_SLOTS slots; the data (points, contour ends, flags) lives in one
   * arena of OTV_GLYF_CC_BYTES bytes allocated on first use; both bounded, nothing allocated
   * after that. Stale when cc_serial != loc->serial; cc_gen invalidates every slot at once. */
  struct otv_glyf_cent *cc_slots;
  uint8_t *cc_mem;
  size_t cc_used;
  uint32_t cc_serial, cc_gen;
  /* glyph cache (glyf.c "Glyph cache"): simple glyphs drawn to a pen, decoded once with every
   * tuple's deltas (unscaled, after IUP), independent of the coordinates (never dropped).
   * Direct-mapped by glyph id, first come first kept; the arena fills in order and then stays
   * as it is. The slots are allocated at the first outline call, the arena grows (by doubling,
   * from 64 KiB) only when an entry is added: once per glyph at most. */
  struct otv_glyf_gent *gc_slots;
  uint8_t *gc_mem; /* the arena, grown by doubling as entries are added, <= OTV_GLYF_GC_BYTES */
  size_t gc_used, gc_cap;
  bool gc_off;        /* disabled (benchmarks and tests compare with and without it) */
  bool gc_failed;     /* its allocation failed: run without it */
  bool gc_full;       /* the arena is full: no new entries */
  bool gc_no_gvar;    /* load_simple leaves the default coordinates (filling an entry) */
  bool cc_off;        /* disabled (benchmarks and tests compare with and without it) */
  bool cc_failed;     /* its allocation failed: run without it */
  bool last_simple;   /* the last load() was a simple glyph */
  bool want_phantoms; /* the glyph being loaded needs its phantom points (else zeros) */
  bool need_phantoms; /* this top-level call returns phantom points (not drawing to a pen) */
  /* state of one top-level call */
  unsigned n_pts, n_ends, cstk_top, budget;
  uint32_t glyph_flags;
  uint32_t gid_stack[OTV_MAX_COMPONENT_DEPTH + 2]; /* gids of the nesting levels 0..depth */
} otv_glyf_loc;

otv_status otv_glyf_parse(otv_face *f, otv_error *err);
void otv_glyf_free(otv_face *f);
void otv_glyf_loc_free(otv_location *loc);
otv_status otv_glyf_outline(otv_location *loc, uint32_t gid, unsigned flags, const otv_pen *pen,
                            void *ctx);
otv_status otv_glyf_points(otv_location *loc, uint32_t gid, unsigned flags, otv_glyph_points *io);
/* The 4 phantom points of a glyph at the location (left origin, advance, top origin, bottom),
 * for metrics when HVAR/VVAR are absent. */
otv_status otv_glyf_phantoms(otv_location *loc, uint32_t gid, otv_point ph[4]);

/* otv_mem_reserve with the common "already big enough" case inline (hot paths). */
#define OTV_RESERVE(al, buf, cap, need, elem)                                                      \
  ((need) <= *(cap) ? OTV_E_OK : otv_mem_reserve((al), (void **)(buf), (cap), (need), (elem)))

/* ---- gvar.c ---- */
otv_status otv_gvar_parse(otv_face *f, otv_error *err);
/* Add the gvar deltas of glyph gid at the location to pts[0..n) (n includes the 4 phantom
 * points, which are last). For a simple glyph, ends[0..end_count) are its contour ends (indices
 * into pts, plus ends_base) and untouched points get inferred deltas (IUP); a composite passes end_count 0
 * (its points are component offsets: untouched ones get no delta). Uses only the gvar scratch
 * of loc->glyf (pts must not point into it). */
otv_status otv_gvar_apply(otv_location *loc, uint32_t gid, otv_point *pts, unsigned n,
                          const uint16_t *ends, unsigned end_count, unsigned ends_base);
/* Glyph cache support (glyf.c "Glyph cache"). otv_gvar_tuple_count: the number of tuples of
 * glyph gid (0: no variation data), -1 when its data is bad (the caller then draws it without
 * the cache, which reports the error). otv_gvar_decode_all: every tuple's descriptor into tup
 * (m = otv_gvar_tuple_count entries) and its deltas for the np outline points (unscaled, IUP
 * applied from orig, which holds np + 4 default points) into d[t * stride + p], points past np
 * zero; false when anything is wrong (no error reported). otv_gvar_apply_cached: out[0..stride)
 * = p0 + the sum of scalar x deltas of the tuples that apply at the location, in tuple order
 * (the same float operations as otv_gvar_apply); false only when out of memory. stride even. */
long otv_gvar_tuple_count(otv_location *loc, uint32_t gid);
bool otv_gvar_decode_all(otv_location *loc, uint32_t gid, const otv_point *orig, unsigned np,
                         const uint16_t *ends, unsigned end_count, otv_gvar_tup *tup, unsigned m,
                         otv_point *d, unsigned stride);
bool otv_gvar_apply_cached(otv_location *loc, const otv_gvar_tup *tup, unsigned m,
                           const otv_point *p0, const otv_point *d, unsigned stride,
                           otv_point *out);
/* Free the gvar part of the location scratch. */
void otv_gvar_loc_free(otv_location *loc);

#endif

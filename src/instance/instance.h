/*
 * instance.h - static instances: the big-endian writer and sfnt assembly (write.c), and the
 * pieces of the instancer (instance.c orchestration, instance_glyf.c, instance_tables.c,
 * instance_layout.c, instance_cff.c).
 */
#ifndef OTV_INSTANCE_H
#define OTV_INSTANCE_H

#include "face.h"
#include "core/sfnt.h"
#include "core/writer.h"

/* ---- tuple variation stores (gvar, cvar) summed at a location (instance_glyf.c) ---- */
/* Scratch for decoding one store; grown, never shrunk. */
typedef struct otv_tvs_scratch {
  uint16_t *shared_pts, *pts;
  size_t shared_cap, pts_cap;
  double *dx, *dy; /* one tuple's deltas (scaled) */
  uint8_t *has;    /* point has an explicit delta in this tuple */
  size_t d_cap;
  double *tx, *ty; /* a sparse tuple's deltas before scattering (t_cap each) */
  size_t t_cap;
  /* gvar shared tuples with implied regions: scalars precomputed (sk: count or -1) */
  const uint8_t *shared_src;
  int *sk;
  double *ss; /* sn x axis_count */
  unsigned sn;
} otv_tvs_scratch;
struct otv_inst;
/* Sum the deltas of a tuple variation store at the instancer's location into acc_x/acc_y
 * (n entries; acc_y NULL for cvar, whose values are one-dimensional). `data` is the whole
 * GlyphVariationData (gvar) or the cvar table; `hdr` the offset of tupleVariationCount.
 * shared: the gvar shared tuples (axis_count F2Dot14 each; NULL for cvar). For gvar, orig_x/y are
 * the default coordinates and ends[end_count] the contour ends of a simple glyph (IUP); points a
 * tuple leaves out of a composite or cvar get no delta. Deltas are scaled and summed in double
 * in the order fontTools' instancer uses, so that rounding the result matches it. */
otv_status otv_inst_tvs_sum(struct otv_inst *in, otv_span data, size_t hdr, uint32_t tag,
                            size_t tab_off, const uint8_t *shared, uint16_t shared_count,
                            unsigned n, const double *orig_x, const double *orig_y,
                            const uint16_t *ends, unsigned end_count, double *acc_x, double *acc_y);
/* The per-axis tent scalars (spec: otvarcommonformats, "Algorithm for interpolation of
 * instance values") of a region at the instancer's location, for the axes whose peak is not 0,
 * in axis-tag order (as fontTools pins them) and without the scalars equal to 1: a delta is then
 * scaled by multiplying it by each in turn, as fontTools does, so that its rounding matches.
 * Returns the number of scalars, or -1 when the region does not apply (some scalar is 0).
 * start/peak/end: axis_count F2Dot14 values each. */
int otv_inst_region_scalars(const struct otv_inst *in, const int16_t *start, const int16_t *peak,
                            const int16_t *end, double *out);
/* floor(v + 0.5) clamped to int16 (NaN: -32768), without a libm call (floor is not inlined
 * without SSE4.1): the coordinates, boxes and side bearings both instancers write. */
static inline int otv_inst_round16(double v)
{
  double t = v + 0.5;
  if (!(t > -32768.0)) return -32768; /* also NaN */
  if (t >= 32767.0) return 32767;
  int i = (int)t; /* truncates toward zero */
  return (double)i > t ? i - 1 : i;
}

/* floor(d + 0.5) as an int, clamped to +-2^24 (NaN: 0). The values it gives are added to 16-bit
 * fields; a hostile ItemVariationStore can sum 32-bit deltas over 65535 regions past the int
 * range, whose conversion would be undefined. */
static inline int otv_inst_round(double d)
{
  double t = floor(d + 0.5);
  if (!(t >= -16777216.0)) return t != t ? 0 : -16777216;
  if (t > 16777216.0) return 16777216;
  return (int)t;
}

static inline double otv_inst_scale(double d, const double *s, int k)
{
  for (int j = 0; j < k; j++) d *= s[j];
  return d;
}

/* The instancer's working state (instance.c). */
typedef struct otv_inst {
  otv_location *loc;
  const otv_face *face;
  const otv_alloc *al;
  otv_error *err;
  unsigned flags; /* OTV_INSTANCE_* */
  unsigned axis_count;
  const otv_f2dot14 *coords; /* final normalized coordinates of the location */
  uint32_t axis_tags[OTV_MAX_AXES];
  uint8_t axis_order[OTV_MAX_AXES]; /* axis indices sorted by tag (fontTools' pinning order) */
  uint32_t glyph_count;
  /* outputs of otv_inst_glyf */
  uint16_t *adv_w, *adv_h; /* glyph_count each (adv_h: only with vmtx) */
  int16_t *lsb, *tsb;
  int16_t (*bbox)[4];   /* xMin yMin xMax yMax per glyph */
  uint8_t *has_outline; /* numberOfContours != 0 */
  uint32_t max_points, max_contours, max_comp_points, max_comp_contours, max_comp_elements;
  uint16_t max_comp_depth;
  otv_buf glyf, loca, hmtx, vmtx;
  int16_t loca_format;
  uint16_t num_h_metrics, num_v_metrics;
  bool has_vmtx;
  /* replaced tables (instance_tables.c, instance_layout.c) */
  otv_buf head, hhea, vhea, maxp, os2, post, cvt, name, gdef, gpos, gsub, cff2;
  bool drop_gdef_store;
  otv_tvs_scratch tvs;
  /* partial instances (instance_partial.c): the axes kept variable (their coordinate is 0 in
   * `coords`), their new indices, and the rebuilt variation tables */
  bool partial;
  bool keep[OTV_MAX_AXES];
  uint8_t new_index[OTV_MAX_AXES];
  unsigned kept_count;
  otv_f2dot14 pcoords[OTV_MAX_AXES];
  otv_buf gvar, cvar, fvar, avar, hvar, vvar, mvar;
  uint32_t *gvar_offs; /* glyph_count + 1 offsets into the glyph data (gvar_data) */
  otv_buf gvar_data;
  double *pd;  /* kept tuples' deltas, summed per kept region */
  int32_t *pq; /* one of them rounded */
  int *pdp;    /* IUP point choice: dynamic programming scratch */
  void *pkt;   /* one store's kept tuples (pkt_cap bytes) */
  size_t pkt_cap;
  otv_buf ppacked;   /* their packed point numbers and deltas */
  double *pnx, *pny; /* a glyph's new default coordinates */
  size_t pnx_cap, pny_cap;
  int16_t *shp; /* gvar shared tuples (peaks over the kept axes), shn of them */
  unsigned shn;
  uint16_t *shh;               /* their hash table (OTV_PART_SHARED_SLOTS, index + 1) */
  double *px, *py, *ptx, *pty; /* one tuple's deltas for every point, and its sparse ones */
  uint8_t *phas;
  uint16_t *ppts, *pshared; /* its point numbers, the store's shared ones */
  size_t shp_cap, pd_cap, pq_cap, pdp_cap, px_cap, py_cap, ptx_cap, pty_cap, phas_cap, ppts_cap,
      pshared_cap;
} otv_inst;

/* Region r of a store as start/peak/end over the instancer's axis_count axes (axes past the
 * store's own count are 0) (instance_tables.c). */
void otv_inst_region(const otv_inst *in, const otv_ivs *ivs, unsigned r, int16_t *start,
                     int16_t *peak, int16_t *end);

/* ItemVariationStore deltas at the location (instance_tables.c): region scalars computed once,
 * items summed in double with the regions in region-list order (as fontTools' instancer sums
 * them) and memoized. 0 for indices out of range. */
typedef struct otv_inst_ivs {
  const otv_ivs *ivs;
  int *k;           /* per region: number of scalars, -1 when the region does not apply */
  double *s;        /* per region: its scalars (axis_count slots) */
  double **memo;    /* per ItemVariationData: item deltas, NaN until computed */
  uint16_t **order; /* per ItemVariationData: columns sorted by region index */
} otv_inst_ivs;
otv_status otv_inst_ivs_init(otv_inst *in, const otv_ivs *ivs, otv_inst_ivs *c);
double otv_inst_ivs_get(otv_inst *in, otv_inst_ivs *c, uint32_t outer, uint32_t inner);
void otv_inst_ivs_fini(otv_inst *in, otv_inst_ivs *c);

/* ---- packed data of tuple variation stores (instance_glyf.c, shared with the partial
 * instancer) ---- */
/* Packed point numbers at r; *count = 0 means all points. *nomem on allocation failure. */
bool otv_inst_read_points(otv_rd *r, otv_inst *in, uint16_t **buf, size_t *cap, unsigned *count,
                          bool *nomem);
/* A tuple's region after its tupleIndex ti (spec: otvarcommonformats "TupleVariationHeader"):
 * the peak embedded or shared, start/end embedded (intermediate) or implied, over ac axes.
 * False when the reader ran out (r not ok) or the shared index is out of range (r ok). */
bool otv_inst_read_tuple_region(otv_rd *r, unsigned ti, unsigned ac, const uint8_t *shared,
                                uint16_t shared_count, int16_t *start, int16_t *peak, int16_t *end);
/* count packed deltas into out. */
bool otv_inst_read_deltas(otv_rd *r, unsigned count, double *out);
/* Inferred deltas (IUP) of contour [a, b] of one axis: d has explicit values where has[i]. */
void otv_inst_iup_axis(const double *orig, double *d, const uint8_t *has, unsigned a, unsigned b);

/* ---- partial instances (instance_partial.c) ---- */
/* The kept tuples of one tuple variation store (a glyph's GlyphVariationData or cvar) at the
 * pinned axes, appended to out as a new store: every tuple's region restricted to the kept
 * axes, its deltas made explicit for all n points (IUP against orig_x/orig_y for simple glyphs),
 * scaled by the pinned axes' scalars and rounded; tuples whose region has no kept axis are left
 * out (the default glyph or cvt has them folded in). rel_base: where in out the store's offsets
 * count from. new_x/new_y: the new default outline (rounded), which IUP will use in the output,
 * so points it infers within 0.5 of their exact delta are left out. Arguments as
 * otv_inst_tvs_sum; two_dim false for cvar. */
otv_status otv_part_tvs(otv_inst *in, otv_span data, size_t hdr, uint32_t tag, size_t tab_off,
                        const uint8_t *shared, uint16_t shared_count, unsigned n,
                        const double *orig_x, const double *orig_y, const double *new_x,
                        const double *new_y, const uint16_t *ends, unsigned end_count, bool two_dim,
                        otv_buf *out, size_t rel_base);
#define OTV_PART_SHARED_SLOTS 8192u /* > 2 x 4095, the most shared tuples gvar can index */
/* fvar, avar, gvar, cvar, HVAR, VVAR, MVAR of a partial instance (after otv_inst_glyf). */
otv_status otv_part_tables(otv_inst *in);
/* Rewrite the ItemVariationStore at ivs_off of table `src` in b (a copy of src): regions
 * restricted to the kept axes, delta columns scaled by the pinned axes' scalars and rounded,
 * columns folded into the default (no kept axis) dropped. When the store fills the end of the
 * table without gaps it is written anew, compacted, in place of the old one; otherwise it is
 * rewritten in place with its layout (the folded columns zeroed). (outer, inner) references stay
 * valid either way. */
otv_status otv_part_ivs(otv_inst *in, otv_span src, otv_buf *b, uint32_t tag, size_t ivs_off,
                        bool may_compact);
/* CFF2 (instance_cff_partial.c): per VariationStore region, -1 (its pinned factor is 0), 0 (no
 * kept axis: folded into the defaults) or 1 (kept), and the pinned factor; then one glyph's
 * charstring for the partial instance (subroutines inlined, blends rewritten) appended to out. */
otv_status otv_part_cff_modes(otv_inst *in, int8_t **mode, double **factor);
/* How each subroutine is entered (first call) and whether that varies. */
typedef struct otv_part_subr {
  uint32_t stems, depth;
  uint16_t vsindex;
  uint8_t seen, has_mask, has_blend, differ_stems, differ_vs;
  uint8_t inl; /* written inline where it is called */
} otv_part_subr;
typedef struct otv_part_subrs {
  void *w;               /* the charstring walker, allocated once per instance */
  otv_part_subr *global; /* per global subroutine */
  otv_part_subr **local; /* per Font DICT, per local subroutine */
} otv_part_subrs;
/* First pass over every glyph: fills ps (which subroutines are inlined). */
otv_status otv_part_cff_analyse(otv_inst *in, const int8_t *mode, const double *factor,
                                otv_part_subrs *ps);
void otv_part_subrs_free(otv_inst *in, otv_part_subrs *ps);
/* One glyph's charstring (calls to inl subroutines inlined, the others kept) appended to out. */
otv_status otv_part_cff_glyph(otv_inst *in, uint32_t gid, const int8_t *mode, const double *factor,
                              otv_part_subrs *ps, otv_buf *out);
/* Every subroutine of the global INDEX (fd -1) or of Font DICT fd, rewritten, into data with
 * offs[count + 1] offsets. */
otv_status otv_part_cff_subrs(otv_inst *in, const int8_t *mode, const double *factor,
                              otv_part_subrs *ps, int fd, otv_buf *data, uint32_t *offs);
/* The scalars of a region's pinned axes (as otv_inst_region_scalars) and whether any kept axis
 * has a (well-formed) non-zero peak. */
int otv_part_region_scalars(const otv_inst *in, const int16_t *start, const int16_t *peak,
                            const int16_t *end, double *out, bool *kept);

/* glyf + loca (+ hmtx/vmtx from phantom points) at the location (instance_glyf.c). On success the
 * outputs are in the inst. */
otv_status otv_inst_glyf(otv_inst *in);
/* CFF2 without VariationStore + hmtx/vmtx (instance_cff.c). */
otv_status otv_inst_cff(otv_inst *in);
/* head/hhea/vhea/maxp/OS2/post/cvt/name (instance_tables.c). */
otv_status otv_inst_tables(otv_inst *in);
/* GDEF/GPOS/GSUB (instance_layout.c). */
otv_status otv_inst_layout(otv_inst *in);

#endif

/*
 * cff.h - CFF and CFF2 outlines: INDEXes, DICTs, FDSelect, the Type 2 charstring interpreter with
 * blend and vsindex. Implemented in cff.c (tables) and charstring.c (interpreter).
 *
 * Output conventions (both flavours):
 *   - Coordinates are in font units (head.unitsPerEm per em): each point is mapped through the
 *     FontMatrix (for CID-keyed CFF the Font DICT's, concatenated with the Top DICT's when that
 *     has one) and then scaled by unitsPerEm. The usual matrix [1/upem 0 0 1/upem 0 0] is the
 *     identity and is skipped.
 *   - OTV_OUTLINE_ROUND rounds each blend result (CFF2) with floor(x + 0.5), which is what a
 *     static instance stores (charstrings stay relative: rounding absolute coordinates instead
 *     would not reproduce the instance). Operands that are not blended are kept as they are
 *     (16.16 operands stay fractional); CFF (v1) outlines are not changed by the flag.
 *   - Pen: one move_to per contour, line_to / cubic_to per segment, and when the last point of a
 *     contour differs from its first an explicit line_to back to the start, then close_path
 *     (HarfBuzz's draw semantics). A moveto with no segment after it draws nothing.
 *   - Points (otv_glyph_points_get): per contour the start point (OTV_POINT_ON_CURVE), then per
 *     segment its points: cubic control points flagged OTV_POINT_CUBIC, end points
 *     OTV_POINT_ON_CURVE. When the last point of a contour equals its first it is dropped, as
 *     FreeType's outline does. CFF glyphs have NO phantom points: point_cap must hold
 *     point_count (the +4 of TrueType is not needed, though it does no harm).
 */
#ifndef OTV_CFF_H
#define OTV_CFF_H

/* An INDEX (CFF: u16 count; CFF2: u32 count). Header and offset array checked at parse; element
 * offsets are checked when an element is fetched. */
typedef struct otv_cff_index {
  uint32_t count;
  uint32_t bias;          /* subroutine number bias for this count (107, 1131 or 32768) */
  uint8_t off_size;       /* 1..4 */
  const uint8_t *offsets; /* (count + 1) * off_size bytes (checked at parse) */
  const uint8_t *data;    /* element data: offsets are 1-based from data - 1 */
  uint32_t data_len;      /* last offset - 1 (checked to fit the table at parse) */
  size_t end;             /* table offset just past the INDEX */
} otv_cff_index;

/* One Font DICT (CFF2, CID-keyed CFF) or the Top DICT's Private (name-keyed CFF). */
typedef struct otv_cff_fd {
  otv_cff_index subrs; /* local Subrs (count 0: none) */
  uint16_t vsindex;    /* Private DICT vsindex (CFF2), default 0 */
  bool has_matrix;     /* the Font DICT has a FontMatrix (CID-keyed CFF) */
  bool xf_on;          /* xf is not the identity */
  double matrix[6];    /* that FontMatrix */
  double xf[6];        /* charstring space -> font units: FontMatrix(es) x unitsPerEm */
} otv_cff_fd;

typedef struct otv_cff {
  bool present;
  bool cff2;
  uint32_t tag; /* OTV_T_CFF or OTV_T_CFF2, for errors */
  otv_span tab;
  otv_cff_index charstrings;
  otv_cff_index gsubrs;
  uint32_t fd_count;
  otv_cff_fd *fds;         /* fd_count entries, face allocator */
  uint8_t fdselect_format; /* 0: none (every glyph uses FD 0); else 0/3/4 with has_fdselect */
  bool has_fdselect;
  otv_span fdselect;        /* the FDSelect data after its format byte (sizes checked at parse) */
  uint32_t fdselect_ranges; /* format 3/4: number of ranges */
  otv_ivs ivs;              /* CFF2 VariationStore (present false when absent) */
  uint32_t *vs_off;         /* ivs.data_count + 1 offsets into the per-location vs scalars */
  /* seac support (name-keyed CFF): charset */
  bool cid;               /* CID-keyed CFF */
  bool top_has_matrix;    /* the Top DICT has a FontMatrix */
  double top_matrix[6];   /* Top DICT FontMatrix (default 0.001 0 0 0.001 0 0) */
  uint8_t charset_format; /* 0, 1, 2; 255: predefined ISOAdobe (id 0) or none */
  otv_span charset;       /* data after the format byte */
} otv_cff;

/* Per location: the region scalars of the VariationStore and, per vsindex, the scalars of that
 * ItemVariationData's regions in column order, so that blend is a plain dot product. */
/* A decoded CFF2 subroutine or glyph (charstring.c) is a list of items: a header cell {n
 * operands, byte offset of their first byte}, an operator cell {byte offset of the operator after
 * them (or OTV_CS_NO_OP at the end), the operator byte, for hintmask/cntrmask the mask length
 * the decoder assumed}, then the n operand values. */
typedef union otv_cs_cell {
  double v;
  struct {
    uint32_t n, off;
  } h;
  struct {
    uint32_t off;
    uint8_t op, mask, pad[2];
  } o;
} otv_cs_cell;
#define OTV_CS_NO_OP UINT32_MAX
#define OTV_CS_CELL_SLACK 8 /* cells allocated past cell_cap: replay copies eight at a time */

/* Per subroutine slot of the decoded-subroutine cache: one record, one cache line per call. */
typedef struct otv_cs_slot {
  uint32_t state;    /* 0 not decoded yet, 1 interpreted from bytes, else first cell + 2 */
  uint32_t end;      /* cell after the last item */
  uint32_t off, len; /* its bytes: table offset and length */
} otv_cs_slot;

typedef struct otv_cff_loc {
  otv_ivs_cache regions;
  double *vs; /* vs_off[data_count] entries (double: blend sums are in double) */
  size_t vs_cap;
  uint8_t *vs_nz; /* per ItemVariationData: 1 when one of its scalars is not 0 */
  size_t vs_nz_cap;
  uint32_t serial; /* location serial vs belongs to; 0: never computed */
  bool zero;       /* every scalar is 0 (default location): blend drops the deltas */
  /* Decoded-subroutine cache (CFF2, charstring.c): set up on the location's first CFF2 outline,
   * independent of the coordinates. Optional: when its allocation fails, subroutines are
   * interpreted from their bytes. */
  bool sub_tried;        /* set-up attempted */
  bool comp_off;         /* no compiled glyphs (benchmarks: OTV_CFF_NO_COMPILE in bench_outline) */
  otv_cs_slot *sub;      /* per slot: global subroutines, each Font DICT's local ones, then
                             * the glyphs (glyph_slot + gid) */
  size_t glyph_slot;     /* slot of glyph 0 */
  uint32_t *sub_fd_base; /* per Font DICT: slot of its local subroutine 0 (globals first) */
  size_t sub_slots;
  otv_cs_cell *cells;
  size_t cell_cap, cell_used;
  /* Compiled glyphs (charstring.c, comp_build): per glyph 0 (not compiled yet), 1 (interpreted)
   * or its first cell + 2 in the arena. A compiled glyph is {number of coordinates, number of
   * segments}, {regions with deltas, regions reserved}, the segment kinds (8 per cell), one cell
   * per region (its index), then the coordinates at the default (all scalars 0) and per region
   * the coordinate deltas at scalar 1: the outline is affine in the region scalars. */
  uint32_t *comp;
  size_t comp_count;
  double *comp_scratch;     /* one block: recorded coordinates, drawn coordinates, control
                             * values (2 runs), forced blend scalars, then bytes: segment kinds
                             * (2 runs), forced per-vsindex nonzero flags */
  size_t comp_scratch_size; /* bytes */
} otv_cff_loc;

otv_status otv_cff_parse(otv_face *f, otv_error *err);
void otv_cff_free(otv_face *f);
void otv_cff_loc_free(otv_location *loc);
otv_status otv_cff_outline(otv_location *loc, uint32_t gid, unsigned flags, const otv_pen *pen,
                           void *ctx);
otv_status otv_cff_points(otv_location *loc, uint32_t gid, unsigned flags, otv_glyph_points *io);

/* ---- shared between cff.c and charstring.c ---- */
/* Element i of an INDEX: false when its offsets are out of order or out of range. */
static inline bool otv_cff_index_get(const otv_cff_index *ix, uint32_t i, otv_span *out)
{
  if (i >= ix->count) return false;
  /* in range: i + 1 <= count, offsets span (count + 1) * off_size checked in index_parse */
  const uint8_t *q = ix->offsets + (size_t)i * ix->off_size;
  uint32_t a, b;
  switch (ix->off_size) {
  case 1: a = q[0], b = q[1]; break;
  case 2: a = otv_peek_u16(q), b = otv_peek_u16(q + 2); break;
  case 3: a = otv_peek_u24(q), b = otv_peek_u24(q + 3); break;
  default: a = otv_peek_u32(q), b = otv_peek_u32(q + 4); break;
  }
  if (a < 1 || a > b || b - 1 > ix->data_len) return false;
  out->p = ix->data + (a - 1);
  out->len = b - a;
  return true;
}
/* Font DICT index of a glyph (FDSelect); false when FDSelect names a missing FD. */
bool otv_cff_fd_of(const otv_cff *c, uint32_t gid, uint32_t *fd);
/* Per-vsindex scalars at the location (NULL on NOMEM, recorded in the location). */
const double *otv_cff_vs_scalars(otv_location *loc);
/* Glyph id of a Standard Encoding code through the charset (seac); false when absent. */
bool otv_cff_seac_glyph(const otv_cff *c, unsigned code, uint32_t *gid);

/* Charstring output sink. */
typedef struct otv_cs_sink {
  const otv_pen *pen; /* pen mode when non-NULL */
  void *ctx;
  otv_glyph_points *io; /* points mode when pen is NULL */
  bool round;
  bool open;              /* a contour has a segment */
  bool moved;             /* a moveto is pending (position below) */
  float start_x, start_y; /* first point of the open contour */
  float last_x, last_y;   /* last emitted point */
  unsigned points, contours, contour_first;
} otv_cs_sink;

/* Run glyph gid's charstring into the sink. */
otv_status otv_cs_run(otv_location *loc, uint32_t gid, otv_cs_sink *sink);

#endif

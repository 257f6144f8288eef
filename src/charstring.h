/*
 * charstring.h - CFF and CFF2 glyphs at a location: the Type 2 charstring interpreter with blend
 * and vsindex (spec: CFF2 "CharString format"; Adobe TN 5177 for CFF), its decoded-subroutine
 * cache and compiled glyphs, drawing to a pen or to caller buffers. Implemented in
 * charstring.c, on the tables of cff.h.
 */
#ifndef OTV_CHARSTRING_H
#define OTV_CHARSTRING_H

#include "cff.h"

/* Per location: the region scalars of the VariationStore and, per vsindex, the scalars of that
 * ItemVariationData's regions in column order, so that blend is a plain dot product. */
/* A decoded CFF2 subroutine or glyph (charstring.c) is a list of items: a header cell {n
 * operands, byte offset of their first byte}, an operator cell {byte offset of the operator after
 * them (or OTV_CS_NO_OP at the end), the operator byte, for hintmask/cntrmask the mask length
 * the decoder assumed, the last operand when it is an integer of int16 range (else INT16_MIN)},
 * then the n operand values. */
typedef union otv_cs_cell {
  double v;
  struct {
    uint32_t n, off;
  } h;
  struct {
    uint32_t off;
    uint8_t op, mask;
    int16_t last;
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
  otv_locctx x;
  const otv_cff *c;
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
  bool sub_tried;        /* set-up attempted (at the first glyph drawn twice: drawn) */
  uint8_t *drawn;        /* one bit per glyph: drawn once, before the set-up */
  bool comp_off;         /* no compiled glyphs (benchmarks: OTV_CFF_NO_COMPILE in bench_outline) */
  bool sub_off;          /* no decoded-subroutine cache either (OTV_OPT_NO_OUTLINE_CACHES) */
  size_t cells_max;      /* the arena's bound in cells (0: CS_MAX_CELLS; otv_options) */
  size_t cell_bound;     /* the arena grows by doubling up to this many cells (charstring.c) */
  bool cell_want;        /* a decode found no room below cell_bound: grow at the next call */
  otv_cs_slot *sub;      /* per slot: global subroutines, each Font DICT's local ones, then
                             * the glyphs (glyph_slot + gid) */
  size_t glyph_slot;     /* slot of glyph 0 */
  uint32_t *sub_fd_base; /* per Font DICT: slot of its local subroutine 0 (globals first) */
  size_t sub_slots;
  otv_cs_cell *cells;
  size_t cell_cap, cell_used;
  /* Compiled glyphs (charstring.c, comp_build): per glyph 0 (never drawn), UINT32_MAX - k
   * (drawn k times, not compiled yet: CS_COMP_DRAWS), 1 (interpreted) or its first cell + 2 in
   * the arena. A compiled glyph is {number of coordinates, number of
   * segments}, {regions with deltas, regions reserved}, the segment kinds (8 per cell), one cell
   * per region (its index), then the coordinates at the default (all scalars 0) and per region
   * the coordinate deltas at scalar 1: the outline is affine in the region scalars. The values
   * are doubles, or floats (two a cell) or int16 (four a cell) when they all convert exactly
   * (comp_build). */
  uint32_t *comp;
  size_t comp_count;
  bool comp_narrow;         /* compiled glyphs as int16 when they can be (the arena's bound is
                             * below the font's need: charstring.c sub_cache_setup) */
  unsigned comp_draws;      /* interpreted draws before a glyph is compiled (0: set from the font at
                        * the set-up, charstring.c CS_COMP_DRAWS) */
  double *comp_scratch;     /* one block: recorded coordinates, drawn coordinates, control
                             * values (2 runs), forced blend scalars, then bytes: segment kinds
                             * (2 runs), forced per-vsindex nonzero flags */
  size_t comp_scratch_size; /* bytes */
} otv_cff_loc;

void otv_cff_loc_init(otv_cff_loc *l, const otv_cff *c, otv_locctx x);
void otv_cff_loc_free(otv_cff_loc *l);
/* Per-vsindex scalars at the location (NULL on NOMEM, recorded in the location). */
const double *otv_cff_vs_scalars(otv_cff_loc *l);
/* gid < glyph_count (checked by the caller). Errors are recorded in the location. */
otv_status otv_cff_outline(otv_cff_loc *l, uint32_t gid, unsigned flags, const otv_pen *pen,
                           void *ctx);
otv_status otv_cff_points(otv_cff_loc *l, uint32_t gid, unsigned flags, otv_glyph_points *io);

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
otv_status otv_cs_run(otv_cff_loc *l, uint32_t gid, otv_cs_sink *sink);

#endif /* OTV_CHARSTRING_H */

/*
 * cff.h - the CFF and CFF2 tables parsed at open: INDEXes, DICTs, FDSelect, charset, the CFF2
 * VariationStore, and the transforms of the Font DICTs. Implemented in cff.c, on the INDEX and
 * DICT decoders of cff_data.h. The charstring interpreter that draws glyphs at a location is
 * charstring.h.
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

#include "cff_data.h"

/* otv_cff.charset_format of the predefined ISOAdobe charset (charset offset 0), or of none */
#define OTV_CFF_CHARSET_PREDEFINED 255

/* the most subroutine offsets decoded at open, over every INDEX of a font (4 bytes each) */
#define OTV_CFF_MAX_OFFS 262144u

/* One Font DICT (CFF2, CID-keyed CFF) or the Top DICT's Private (name-keyed CFF). */
typedef struct otv_cff_fd {
  otv_cff_index subrs;       /* local Subrs (count 0: none) */
  const uint32_t *subr_offs; /* subrs' element offsets from subrs.data, decoded and checked
                              * (otv_cff.offs_block; NULL: read the INDEX) */
  otv_span priv;             /* its Private DICT (p NULL: none) */
  uint16_t vsindex;          /* Private DICT vsindex (CFF2), default 0 */
  bool has_matrix;           /* the Font DICT has a FontMatrix (CID-keyed CFF) */
  bool xf_on;                /* xf is not the identity */
  double matrix[6];          /* that FontMatrix */
  double xf[6];              /* charstring space -> font units: FontMatrix(es) x unitsPerEm */
} otv_cff_fd;

typedef struct otv_cff {
  bool present;
  bool cff2;
  uint32_t tag; /* OTV_T_CFF or OTV_T_CFF2, for errors */
  otv_span tab;
  otv_cff_index charstrings;
  otv_cff_index gsubrs;
  const uint32_t *gsubr_offs; /* as otv_cff_fd.subr_offs, for gsubrs */
  /* The subroutine INDEXes' offsets decoded at open (callsubr: two loads, no check): element
   * i of an INDEX is data + offs[i], offs[i + 1] - offs[i] bytes. One block for every INDEX
   * whose offsets are all in order and in range (others are read from their bytes); a font
   * with more than OTV_CFF_MAX_OFFS in all, or when the allocation fails, reads them all from
   * their bytes (the same spans). Face allocator. */
  uint32_t *offs_block;
  size_t offs_n;
  uint32_t fd_count;
  otv_cff_fd *fds;         /* fd_count entries, face allocator */
  uint8_t fdselect_format; /* 0: none (every glyph uses FD 0); else 0/3/4 with has_fdselect */
  bool has_fdselect;
  otv_span fdselect;        /* the FDSelect data after its format byte (sizes checked at parse) */
  uint32_t fdselect_ranges; /* format 3/4: number of ranges */
  otv_span vstore;          /* CFF2 VariationStore: its ItemVariationStore (p NULL: none) */
  otv_ivs ivs;              /* CFF2 VariationStore (present false when absent) */
  uint32_t *vs_off;         /* ivs.data_count + 1 offsets into the per-location vs scalars */
  /* seac support (name-keyed CFF): charset */
  bool cid;               /* CID-keyed CFF */
  bool top_has_matrix;    /* the Top DICT has a FontMatrix */
  double top_matrix[6];   /* Top DICT FontMatrix (default 0.001 0 0 0.001 0 0) */
  uint8_t charset_format; /* 0, 1, 2, or OTV_CFF_CHARSET_PREDEFINED */
  otv_span charset;       /* data after the format byte */
  otv_cff_index strings;  /* CFF (v1): the String INDEX (custom glyph names); CFF2: empty */
} otv_cff;

/* The table (tab: 'CFF ' when cff2 is false, else CFF2) with units_per_em for the Font DICT
 * transforms and fvar's axis count for the VariationStore. */
otv_status otv_cff_parse(otv_span tab, bool cff2, uint16_t units_per_em, uint16_t axis_count,
                         const otv_alloc *al, otv_cff *out, otv_error *err);
void otv_cff_free(const otv_alloc *al, otv_cff *c);

/* ---- accessors (INDEX elements: otv_cff_index_get, cff_data.h) ---- */
/* Font DICT index of a glyph (FDSelect); false when FDSelect names a missing FD. */
bool otv_cff_fd_of(const otv_cff *c, uint32_t gid, uint32_t *fd);
/* Glyph id of a Standard Encoding code through the charset (seac); false when absent. */
bool otv_cff_seac_glyph(const otv_cff *c, unsigned code, uint32_t *gid);
/* Per glyph its SID (name-keyed) or CID (CID-keyed) through the charset, for out[0..n); the
 * predefined charsets give glyph i SID i. False when the charset ends before n glyphs. */
bool otv_cff_charset_sids(const otv_cff *c, uint32_t *out, uint32_t n);

#endif

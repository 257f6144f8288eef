/*
 * glyf.h - TrueType outlines at a location: glyf/loca (simple and composite glyphs, phantom
 * points with their hmtx/vmtx defaults), varied by gvar (gvar.h). Implemented in glyf.c, which
 * also holds the one reader of loca entries and of composite glyph records (the instancers and
 * the CLI's WOFF2 code use them).
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

#include "gvar.h"
#include "hmtx.h"

/* glyf + loca, parsed at open (loca's extent checked), with what the phantom points' defaults
 * need. */
typedef struct otv_glyf {
  bool present;
  bool loca_long; /* head.indexToLocFormat == 1 */
  uint32_t glyph_count;
  otv_span glyf;
  otv_span loca; /* (glyph_count + 1) entries (checked at parse) */
  otv_gvar gvar;
  /* the phantom points' defaults: hmtx/vmtx, and without vmtx the vertical ascender/descender
   * (OS/2 typo, else hhea), as FreeType */
  otv_mtx h, v;
  int16_t v_ascender, v_descender;
} otv_glyf;

/* glyf may be empty (no TrueType outlines: present stays false); then loca is not needed. */
otv_status otv_glyf_parse(otv_span glyf, otv_span loca, int index_to_loc_format,
                          uint32_t glyph_count, otv_glyf *out, otv_error *err);
/* What the phantom points' defaults are read from (copies of the face's parsed tables). */
void otv_glyf_set_metrics(otv_glyf *g, const otv_mtx *h, const otv_mtx *v, otv_span os2,
                          otv_span hhea);

/* The bytes of glyph gid (gid < glyph_count): its [*start, *end) offsets in glyf from loca.
 * False when the offsets decrease or pass the glyf table (both offsets still set). */
static inline bool otv_loca_get(const otv_glyf *g, uint32_t gid, size_t *start, size_t *end)
{
  /* in range: loca holds glyph_count + 1 entries (checked in otv_glyf_parse) */
  if (g->loca_long) {
    *start = otv_peek_u32(g->loca.p + 4 * (size_t)gid);
    *end = otv_peek_u32(g->loca.p + 4 * (size_t)gid + 4);
  } else {
    *start = 2 * (size_t)otv_peek_u16(g->loca.p + 2 * (size_t)gid);
    *end = 2 * (size_t)otv_peek_u16(g->loca.p + 2 * (size_t)gid + 2);
  }
  return *start <= *end && *end <= g->glyf.len;
}

/* The bounding box stored in the glyf header of glyph gid (xMin, yMin, xMax, yMax): false for
 * an empty glyph or a header that cannot be read. */
bool otv_glyf_header_box(const otv_glyf *g, uint32_t gid, int box[4]);

/* spec: glyf "Composite glyph description", component flags */
#define OTV_ARG_1_AND_2_ARE_WORDS 0x0001u
#define OTV_ARGS_ARE_XY_VALUES 0x0002u
#define OTV_ROUND_XY_TO_GRID 0x0004u
#define OTV_WE_HAVE_A_SCALE 0x0008u
#define OTV_NON_OVERLAPPING 0x0010u /* bit 4: Apple's, reserved in OpenType */
#define OTV_MORE_COMPONENTS 0x0020u
#define OTV_WE_HAVE_AN_X_AND_Y_SCALE 0x0040u
#define OTV_WE_HAVE_A_TWO_BY_TWO 0x0080u
#define OTV_WE_HAVE_INSTRUCTIONS 0x0100u
#define OTV_USE_MY_METRICS 0x0200u
#define OTV_OVERLAP_COMPOUND 0x0400u
#define OTV_SCALED_COMPONENT_OFFSET 0x0800u
#define OTV_UNSCALED_COMPONENT_OFFSET 0x1000u
/* spec: glyf "Simple glyph description", flags */
#define OTV_ON_CURVE_POINT 0x01u
#define OTV_X_SHORT_VECTOR 0x02u
#define OTV_Y_SHORT_VECTOR 0x04u
#define OTV_REPEAT_FLAG 0x08u
#define OTV_X_IS_SAME_OR_POSITIVE 0x10u
#define OTV_Y_IS_SAME_OR_POSITIVE 0x20u
#define OTV_OVERLAP_SIMPLE 0x40u

/* One component record of a composite glyph, decoded. */
typedef struct otv_glyf_comp {
  unsigned flags;
  uint32_t gid;
  int arg1, arg2;           /* signed when ARGS_ARE_XY_VALUES, else point numbers */
  unsigned scale_count;     /* F2Dot14 values of the transform: 0, 1, 2 or 4 */
  int16_t scale[4];         /* scale; or x and y scale; or the 2x2 matrix xx, yx, xy, yy */
  const uint8_t *transform; /* the scale_count values as stored (2 bytes each) */
} otv_glyf_comp;

/* The number of F2Dot14 transform values a component with these flags has: 0, 1, 2 or 4. */
static inline unsigned otv_glyf_comp_scales(unsigned flags)
{
  return flags & OTV_WE_HAVE_A_SCALE            ? 1
         : flags & OTV_WE_HAVE_AN_X_AND_Y_SCALE ? 2
         : flags & OTV_WE_HAVE_A_TWO_BY_TWO     ? 4
                                                : 0;
}

/* otv_glyf_read_comp field by field: where a record runs past the end, bad_at says which
 * field. */
bool otv_glyf_read_comp_checked(otv_rd *r, otv_glyf_comp *out);

/* The component record at r (checked); false when it runs past the end (or r was bad). Inline,
 * one check for the whole record: composite glyphs are drawn component by component. */
static inline bool otv_glyf_read_comp(otv_rd *r, otv_glyf_comp *o)
{
  size_t left = r->pos <= r->s.len ? r->s.len - r->pos : 0;
  if (left < 4) return otv_glyf_read_comp_checked(r, o);
  const uint8_t *p = r->s.p + r->pos; /* in range: 4 bytes checked above */
  unsigned flags = otv_peek_u16(p);
  unsigned words = flags & OTV_ARG_1_AND_2_ARE_WORDS;
  unsigned scales = otv_glyf_comp_scales(flags);
  size_t size = 4 + (words ? 4 : 2) + 2 * (size_t)scales;
  if (left < size) return otv_glyf_read_comp_checked(r, o);
  /* in range: the record's size bytes checked above */
  o->flags = flags;
  o->gid = otv_peek_u16(p + 2);
  if (words) {
    o->arg1 = otv_peek_u16(p + 4);
    o->arg2 = otv_peek_u16(p + 6);
    if (flags & OTV_ARGS_ARE_XY_VALUES) o->arg1 = (int16_t)o->arg1, o->arg2 = (int16_t)o->arg2;
  } else {
    o->arg1 = p[4];
    o->arg2 = p[5];
    if (flags & OTV_ARGS_ARE_XY_VALUES) o->arg1 = (int8_t)o->arg1, o->arg2 = (int8_t)o->arg2;
  }
  o->scale_count = scales;
  o->transform = p + (words ? 8 : 6);
  for (unsigned i = 0; i < scales; i++) o->scale[i] = otv_peek_i16(o->transform + 2 * i);
  r->pos += size;
  return otv_rd_ok(r);
}

/* The instructions of a simple glyph of nc contours whose record is d (spec: glyf "Simple
 * Glyph Description": header, endPtsOfContours[nc], instructionLength, instructions): false when
 * they or the header run past d. */
static inline bool otv_glyf_simple_instructions(otv_span d, unsigned nc, otv_span *ins)
{
  size_t at = 10 + 2 * (size_t)nc; /* instructionLength */
  if (d.len < at + 2) return false;
  size_t n = otv_peek_u16(d.p + at); /* in range: checked just above */
  if (d.len - at - 2 < n) return false;
  ins->p = d.p + at + 2;
  ins->len = n;
  return true;
}

/* Glyph cache bounds: 4096 slots of 8 bytes (fewer for fonts of fewer glyphs: the power of
 * two at or above the glyph count) and a 1 MiB arena per location. */
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

/* Per-location state: the location it draws at, caches and scratch. Grown with
 * OTV_RESERVE, never shrunk; freed with the location. */
typedef struct otv_glyf_loc {
  otv_locctx x;
  const otv_glyf *g;
  otv_gvar_loc gv; /* gvar's per-location scratch and scalar caches */
  /* the flattened glyph being built */
  otv_point *pts;
  uint8_t *tags;
  size_t pts_cap, tags_cap;
  uint16_t *ends;
  size_t ends_cap;
  /* a glyph's x and y arrays copied with a byte before and 2 after (glyf.c decode_xy) */
  uint8_t *xy_pad;
  size_t xy_pad_cap;
  /* composite own points (component offsets + phantoms), a stack across nesting levels */
  otv_point *cstk;
  size_t cstk_cap;
  /* decoded component records of the composites being loaded, a stack like cstk */
  struct otv_glyf_comp_m *comps;
  size_t comps_cap;
  unsigned comps_top;
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
   * kept across top-level calls while the coordinates stay the same. Direct-mapped by glyph id into
   * cc_mask + 1 slots (the power of two at or above the glyph count, 64 to OTV_GLYF_CC_SLOTS); the
   * data (points, contour ends, flags) lives in one arena of at most OTV_GLYF_CC_BYTES bytes, from
   * 16 KiB at first use, grown by doubling when full (at most 5 times); both bounded. Stale when
   * cc_serial != x.at->serial; cc_gen invalidates every slot at once. */
  struct otv_glyf_cent *cc_slots;
  uint8_t *cc_mem;
  size_t cc_used;
  uint32_t cc_serial, cc_gen;
  uint32_t cc_mask; /* slots - 1 (set with cc_slots) */
  /* glyph cache (glyf.c "Glyph cache"): simple glyphs drawn to a pen, decoded once with every
   * tuple's deltas (unscaled, after IUP), independent of the coordinates (never dropped).
   * Direct-mapped by glyph id, first come first kept; the arena fills in order and then stays
   * as it is. Filled lazily: a glyph is entered on its second draw (gc_seen, one bit per
   * glyph, allocated at the first outline call, marks the first); the slots are allocated at
   * the first entry, the arena grows (by doubling, from 64 KiB) only when an entry is added. */
  struct otv_glyf_gent *gc_slots;
  uint8_t *gc_seen; /* (glyph_count + 7) / 8 bytes: the glyph was drawn once */
  uint32_t gc_mask; /* slots - 1 (a power of two <= OTV_GLYF_GC_SLOTS) */
  size_t gc_max;    /* the arena's bound: OTV_GLYF_GC_BYTES, or less (otv_options) */
  size_t cc_cap;    /* the component cache arena's size (grown by doubling) */
  size_t cc_max;    /* its bound: OTV_GLYF_CC_BYTES, or less (otv_options) */
  uint8_t *gc_mem;  /* the arena, grown by doubling as entries are added, <= OTV_GLYF_GC_BYTES */
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

void otv_glyf_loc_init(otv_glyf_loc *c, const otv_glyf *g, otv_locctx x);
void otv_glyf_loc_free(otv_glyf_loc *c);
/* gid < glyph_count (checked by the caller). Errors are recorded in the location. */
otv_status otv_glyf_outline(otv_glyf_loc *c, uint32_t gid, unsigned flags, const otv_pen *pen,
                            void *ctx);
otv_status otv_glyf_points(otv_glyf_loc *c, uint32_t gid, unsigned flags, otv_glyph_points *io);
/* The default outline of simple glyph gid, not varied, for the instancers (which vary it in
 * double): its points in c->pts[0..n_pts - 4) (then 4 zero phantom points), flag bytes in
 * c->tags, contour ends in c->ends[0..n_ends). A composite is OTV_E_ARG. */
otv_status otv_glyf_load_default(otv_glyf_loc *c, uint32_t gid);
/* The 4 phantom points of a glyph at the location (left origin, advance, top origin, bottom),
 * for metrics when HVAR/VVAR are absent. */
otv_status otv_glyf_phantoms(otv_glyf_loc *c, uint32_t gid, otv_point ph[4]);

#endif

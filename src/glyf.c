/*
 * glyf.c - TrueType outlines at a location (spec: glyf, loca, gvar "Phantom points",
 * hmtx/vmtx for the phantom point defaults). Decodes simple and composite glyphs into the
 * location's scratch arrays, applies gvar deltas (gvar.c) at every level of a composite, then
 * hands the flattened outline to a pen or to caller buffers.
 *
 * Flattening (one top-level call): points are appended to c->pts. Each glyph level
 * appends its outline points followed by its 4 phantom points; a composite loads each component
 * (recursively) at the end of the array, keeps the component's phantoms when OTV_USE_MY_METRICS,
 * drops them, transforms and offsets the component's points, and finally appends its own 4
 * phantom points. A composite's own "points" (component offsets, then phantoms: what its gvar
 * deltas move) live on a separate stack (cstk) so nesting needs no allocation per glyph.
 */
#include "glyf.h"
#include "fields.h"

#include <stdlib.h>

#if OTV_SSE2
#  include <emmintrin.h>
#endif

#define T_GLYF OTV_T_GLYF
#define T_LOCA OTV_T_LOCA

/* spec flag names (glyf.h) */
#define ON_CURVE_POINT OTV_ON_CURVE_POINT
#define X_SHORT_VECTOR OTV_X_SHORT_VECTOR
#define Y_SHORT_VECTOR OTV_Y_SHORT_VECTOR
#define REPEAT_FLAG OTV_REPEAT_FLAG
#define X_IS_SAME_OR_POSITIVE OTV_X_IS_SAME_OR_POSITIVE
#define Y_IS_SAME_OR_POSITIVE OTV_Y_IS_SAME_OR_POSITIVE
#define OVERLAP_SIMPLE OTV_OVERLAP_SIMPLE

/* Components processed in one top-level call: bounds the work of a deep tree that references
 * the same glyphs many times (depth alone allows 2^16 loads). */
#define MAX_COMPONENT_LOADS 65536u

/* One component record as the loader uses it: the transform in float. */
typedef struct otv_glyf_comp_m {
  unsigned flags;
  uint32_t gid;
  int arg1, arg2;
  float m[4]; /* xx, yx (scale01), xy (scale10), yy */
  bool has_matrix;
} comp;

otv_status otv_glyf_parse(otv_span glyf, otv_span loca, int index_to_loc_format,
                          uint32_t glyph_count, otv_glyf *out, otv_error *err)
{
  otv_glyf *g = out;
  memset(g, 0, sizeof *g);
  if (!glyf.p) return OTV_E_OK;
  g->glyf = glyf;
  g->glyph_count = glyph_count;
  if (!loca.p) return OTV_FAIL(err, NO_TABLE, T_LOCA, 0, "loca is required with glyf");
  if (index_to_loc_format != 0 && index_to_loc_format != 1)
    return OTV_FAIL(err, BAD_VALUE, OTV_T_HEAD, 50, "indexToLocFormat %d", index_to_loc_format);
  g->loca_long = index_to_loc_format == 1;
  if (!otv_span_array(loca, 0, (size_t)glyph_count + 1, g->loca_long ? 4 : 2, &g->loca))
    return OTV_FAIL(err, TRUNCATED, T_LOCA, 0, "loca: %u entries of %u bytes", glyph_count + 1,
                    g->loca_long ? 4u : 2u);
  g->present = true;
  return OTV_E_OK;
}

void otv_glyf_set_metrics(otv_glyf *g, const otv_mtx *h, const otv_mtx *v, otv_span os2,
                          otv_span hhea)
{
  g->h = *h;
  g->v = *v;
  /* Without vmtx the vertical phantoms follow FreeType's convention: top origin at the
   * ascender, advance height ascender - descender, from OS/2 typo values else hhea. */
  otv_rd r = otv_rd_init(os2, OS2_S_TYPO_ASCENDER);
  int16_t tasc = otv_rd_i16(&r), tdesc = otv_rd_i16(&r);
  otv_rd hr = otv_rd_init(hhea, HHEA_ASCENDER);
  int16_t hasc = otv_rd_i16(&hr), hdesc = otv_rd_i16(&hr);
  bool typo = os2.p && otv_rd_ok(&r);
  g->v_ascender = typo ? tasc : hasc;
  g->v_descender = typo ? tdesc : hdesc;
}

void otv_glyf_loc_init(otv_glyf_loc *c, const otv_glyf *g, otv_locctx x)
{
  memset(c, 0, sizeof *c);
  c->x = x;
  c->g = g;
  c->gc_max = OTV_GLYF_GC_BYTES;
  c->cc_max = OTV_GLYF_CC_BYTES;
  otv_gvar_loc_init(&c->gv, &g->gvar, x);
}

void otv_glyf_loc_free(otv_glyf_loc *c)
{
  const otv_alloc *al = c->x.al;
  if (!al) return; /* never initialised */
  otv_gvar_loc_free(&c->gv);
  otv_mem_free(al, c->pts, c->pts_cap * sizeof(otv_point));
  otv_mem_free(al, c->tags, c->tags_cap);
  otv_mem_free(al, c->ends, c->ends_cap * sizeof(uint16_t));
  otv_mem_free(al, c->xy_pad, c->xy_pad_cap);
  otv_mem_free(al, c->cstk, c->cstk_cap * sizeof(otv_point));
  otv_mem_free(al, c->comps, c->comps_cap * sizeof *c->comps);
  otv_mem_free(al, c->memo_pts, c->memo_pts_cap * sizeof(otv_point));
  otv_mem_free(al, c->memo_tags, c->memo_tags_cap);
  otv_mem_free(al, c->memo_ends, c->memo_ends_cap * sizeof(uint16_t));
  otv_mem_free(al, c->cc_slots, c->cc_slots ? ((size_t)c->cc_mask + 1) * sizeof *c->cc_slots : 0);
  otv_mem_free(al, c->cc_mem, c->cc_cap);
  otv_mem_free(al, c->gc_slots, c->gc_slots ? ((size_t)c->gc_mask + 1) * sizeof *c->gc_slots : 0);
  otv_mem_free(al, c->gc_seen, c->gc_seen ? ((size_t)c->g->glyph_count + 7) / 8 : 0);
  otv_mem_free(al, c->gc_mem, c->gc_cap);
  size_t gc_max = c->gc_max, cc_max = c->cc_max;
  bool gc_off = c->gc_off, cc_off = c->cc_off;
  otv_glyf_loc_init(c, c->g, c->x);
  c->gc_max = gc_max, c->cc_max = cc_max, c->gc_off = gc_off, c->cc_off = cc_off;
}

/* ---- hmtx / vmtx defaults of the phantom points ---- */

/* The advance and side bearing of a glyph in hmtx/vmtx (0 and 0 without the table). */
static void long_metric(const otv_mtx *m, uint32_t gid, int *adv, int *side)
{
  if (!m->present) {
    *adv = *side = 0;
    return;
  }
  *adv = (int)otv_mtx_advance(m, gid);
  *side = otv_mtx_side(m, gid);
}

static void default_phantoms(const otv_glyf *g, uint32_t gid, int x_min, int y_max, otv_point ph[4])
{
  int adv, lsb, vadv, tsb;
  long_metric(&g->h, gid, &adv, &lsb);
  if (g->v.present) {
    long_metric(&g->v, gid, &vadv, &tsb);
  } else {
    vadv = abs((int)g->v_ascender - (int)g->v_descender);
    tsb = g->v_ascender - y_max;
  }
  float left = (float)(x_min - lsb), top = (float)(y_max + tsb);
  ph[0].x = left;
  ph[0].y = 0.0f;
  ph[1].x = left + (float)adv;
  ph[1].y = 0.0f;
  ph[2].x = 0.0f;
  ph[2].y = top;
  ph[3].x = 0.0f;
  ph[3].y = top - (float)vadv;
}

/* ---- work budget (core/budget.h) ---- */

/* Charge n units of work on glyph gid (at: its data offset in glyf). */
static otv_status charge(otv_glyf_loc *c, uint32_t gid, uint64_t n, size_t at)
{
  if (otv_budget_charge(c->x.work, n)) return OTV_E_OK;
  return OTV_FAIL(c->x.err, LIMIT, T_GLYF, at, "glyph %u: work budget of %llu units spent", gid,
                  (unsigned long long)c->x.work->limit);
}

/* ---- glyph data ---- */

static otv_status glyph_data(otv_glyf_loc *c, uint32_t gid, otv_span *out)
{
  const otv_glyf *g = c->g;
  size_t a, b;
  if (!otv_loca_get(g, gid, &a, &b))
    return OTV_FAIL(c->x.err, BAD_OFFSET, T_LOCA, (size_t)gid * (g->loca_long ? 4 : 2),
                    b < a ? "glyph %u: offsets decrease (0x%zx, 0x%zx)"
                          : "glyph %u: data 0x%zx..0x%zx past the glyf end",
                    gid, a, b);
  out->p = g->glyf.p + a; /* in range: otv_loca_get checked a <= b <= glyf.len */
  out->len = b - a;
  return OTV_E_OK;
}

bool otv_glyf_header_box(const otv_glyf *g, uint32_t gid, int box[4])
{
  size_t a, b;
  if (!g->present || gid >= g->glyph_count || !otv_loca_get(g, gid, &a, &b) || b - a < 10)
    return false;
  /* in range: 10 header bytes inside glyf (otv_loca_get) */
  const uint8_t *p = g->glyf.p + a + 2; /* after numberOfContours */
  for (int i = 0; i < 4; i++) box[i] = otv_peek_i16(p + 2 * i);
  return true;
}

bool otv_glyf_read_comp_checked(otv_rd *r, otv_glyf_comp *o)
{
  o->flags = otv_rd_u16(r);
  o->gid = otv_rd_u16(r);
  if (o->flags & OTV_ARG_1_AND_2_ARE_WORDS) {
    if (o->flags & OTV_ARGS_ARE_XY_VALUES) {
      o->arg1 = otv_rd_i16(r);
      o->arg2 = otv_rd_i16(r);
    } else {
      o->arg1 = otv_rd_u16(r);
      o->arg2 = otv_rd_u16(r);
    }
  } else if (o->flags & OTV_ARGS_ARE_XY_VALUES) {
    o->arg1 = (int8_t)otv_rd_u8(r);
    o->arg2 = (int8_t)otv_rd_u8(r);
  } else {
    o->arg1 = otv_rd_u8(r);
    o->arg2 = otv_rd_u8(r);
  }
  o->scale_count = otv_glyf_comp_scales(o->flags);
  o->transform = otv_rd_take(r, 2 * (size_t)o->scale_count);
  for (unsigned i = 0; i < o->scale_count && o->transform; i++)
    o->scale[i] = otv_peek_i16(o->transform + 2 * i); /* in range: taken just above */
  return otv_rd_ok(r);
}

/* The point scratch is first allocated for SCRATCH_PTS points (contour ends SCRATCH_ENDS,
 * components SCRATCH_COMPS): one allocation each for most glyphs of a new location, not a
 * doubling series from 16. */
#define SCRATCH_PTS 256u
#define SCRATCH_ENDS 64u
#define SCRATCH_COMPS 16u
static inline size_t at_least(size_t n, size_t min) { return n < min ? min : n; }
/* OTV_RESERVE growing to at least min elements: the test of the common case unchanged. */
#define RESERVE_MIN(al, buf, cap, need, elem, min)                                                 \
  ((need) <= *(cap)                                                                                \
       ? OTV_E_OK                                                                                  \
       : otv_mem_reserve((al), (void **)(buf), (cap), at_least((need), (min)), (elem)))

#define TAGS_SPARE 16u
static bool reserve_pts(otv_glyf_loc *c, size_t need)
{
  /* tags: TAGS_SPARE bytes past need (decode_flags writes and reads 16 bytes at a time) */
  return !RESERVE_MIN(c->x.al, &c->pts, &c->pts_cap, need, sizeof(otv_point), SCRATCH_PTS) &&
         !RESERVE_MIN(c->x.al, &c->tags, &c->tags_cap, need + TAGS_SPARE, 1,
                      SCRATCH_PTS + TAGS_SPARE);
}

static inline void round_points(otv_point *p, unsigned n)
{
  for (unsigned i = 0; i < n; i++) {
    p[i].x = otv_round(p[i].x);
    p[i].y = otv_round(p[i].y);
  }
}

static otv_status load(otv_glyf_loc *c, uint32_t gid, unsigned depth, unsigned flags);

/* clang-format off */
/* Per flag byte: the x byte size | the y byte size << 32 (one add sums both array lengths).
 * A coordinate's size: 1 with its SHORT_VECTOR bit, else 0 with its IS_SAME bit, else 2. */
#define XSZ_(f) ((f) & X_SHORT_VECTOR ? 1u : (f) & X_IS_SAME_OR_POSITIVE ? 0u : 2u)
#define YSZ_(f) ((f) & Y_SHORT_VECTOR ? 1u : (f) & Y_IS_SAME_OR_POSITIVE ? 0u : 2u)
#define KI_(f) ((uint64_t)XSZ_(f) | (uint64_t)YSZ_(f) << 32)
#define K4I_(f) KI_(f), KI_((f) + 1), KI_((f) + 2), KI_((f) + 3)
#define K16I_(f) K4I_(f), K4I_((f) + 4), K4I_((f) + 8), K4I_((f) + 12)
#define K64I_(f) K16I_(f), K16I_((f) + 16), K16I_((f) + 32), K16I_((f) + 48)
static const uint64_t flag_sizes[256] = {K64I_(0), K64I_(64), K64I_(128), K64I_(192)};
#undef KI_
#undef K4I_
#undef K16I_
#undef K64I_
#if !OTV_SSE2
/* Decoding one coordinate from w, the big-endian int16 at its position plus off: (w & msk) *
 * mul, then advance by size. int16: w (off 0, msk -1, mul 1); short: the byte at the position,
 * the low byte of the int16 one byte before it (off -1, msk 0xFF), times 1
 * (IS_SAME_OR_POSITIVE) or -1; same as previous: 0 (msk 0, size 0). No shift by a variable
 * count (3 micro-ops on many x86 cores): the offset goes into the load's address. Indexed by
 * the flag byte (only its XY_BITS matter): both coordinates' operations in one 32-byte entry. */
#define XY_BITS (X_SHORT_VECTOR | Y_SHORT_VECTOR | X_IS_SAME_OR_POSITIVE | Y_IS_SAME_OR_POSITIVE)
typedef struct xy_op {
  int32_t xmsk, xmul, ymsk, ymul;
  int8_t xoff, yoff;
  uint8_t xsz, ysz;
  uint8_t pad[12];
} xy_op;
#define MSK_(s, p) ((s) ? 0xFF : (p) ? 0 : -1)
#define MUL_(s, p) ((s) && !(p) ? -1 : 1)
#define OP_(f)                                                                                 \
  {MSK_((f) & X_SHORT_VECTOR, (f) & X_IS_SAME_OR_POSITIVE),                                    \
   MUL_((f) & X_SHORT_VECTOR, (f) & X_IS_SAME_OR_POSITIVE),                                    \
   MSK_((f) & Y_SHORT_VECTOR, (f) & Y_IS_SAME_OR_POSITIVE),                                    \
   MUL_((f) & Y_SHORT_VECTOR, (f) & Y_IS_SAME_OR_POSITIVE),                                    \
   (f) & X_SHORT_VECTOR ? -1 : 0, (f) & Y_SHORT_VECTOR ? -1 : 0, XSZ_(f), YSZ_(f), {0}}
#define OP4_(f) OP_(f), OP_((f) + 1), OP_((f) + 2), OP_((f) + 3)
#define OP16_(f) OP4_(f), OP4_((f) + 4), OP4_((f) + 8), OP4_((f) + 12)
#define OP64_(f) OP16_(f), OP16_((f) + 16), OP16_((f) + 32), OP16_((f) + 48)
static const xy_op xy_ops[256] = {OP64_(0), OP64_(64), OP64_(128), OP64_(192)};
#undef OP64_
#undef OP16_
#undef OP4_
#undef OP_
#undef MUL_
#undef MSK_
#endif
#undef XSZ_
#undef YSZ_
/* clang-format on */

/* The x and y array sizes of np flag bytes: x sizes | y sizes << 32. */
static uint64_t flag_array_sizes(const uint8_t *tags, unsigned np)
{
  uint64_t xylen = 0;
  unsigned i = 0;
#if OTV_SSE2
  /* 16 flags at a time: per byte, a coordinate's size is 2 - 2 (short | same) + short (1, 0
   * or 2, as flag_sizes), summed by psadbw; the last block is masked to the np flags (its
   * bytes past np are read inside the TAGS_SPARE bytes) */
  static const uint8_t tail_mask[32] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
  const __m128i one = _mm_set1_epi8(1), two = _mm_set1_epi8(2), zero = _mm_setzero_si128();
  __m128i sx = zero, sy = zero;
  for (; i < np; i += 16) {
    __m128i t = _mm_loadu_si128((const __m128i *)(const void *)(tags + i));
    __m128i xs = _mm_and_si128(_mm_srli_epi16(t, 1), one); /* X_SHORT_VECTOR */
    __m128i ys = _mm_and_si128(_mm_srli_epi16(t, 2), one); /* Y_SHORT_VECTOR */
    __m128i xp = _mm_and_si128(_mm_srli_epi16(t, 4), one); /* X_IS_SAME_OR_POSITIVE */
    __m128i yp = _mm_and_si128(_mm_srli_epi16(t, 5), one); /* Y_IS_SAME_OR_POSITIVE */
    __m128i xo = _mm_or_si128(xs, xp), yo = _mm_or_si128(ys, yp);
    __m128i xz = _mm_add_epi8(_mm_sub_epi8(two, _mm_add_epi8(xo, xo)), xs);
    __m128i yz = _mm_add_epi8(_mm_sub_epi8(two, _mm_add_epi8(yo, yo)), ys);
    if (np - i < 16) {
      __m128i m = _mm_loadu_si128((const __m128i *)(const void *)(tail_mask + 16 - (np - i)));
      xz = _mm_and_si128(xz, m);
      yz = _mm_and_si128(yz, m);
    }
    sx = _mm_add_epi64(sx, _mm_sad_epu8(xz, zero));
    sy = _mm_add_epi64(sy, _mm_sad_epu8(yz, zero));
  }
  sx = _mm_add_epi64(sx, _mm_unpackhi_epi64(sx, sx));
  sy = _mm_add_epi64(sy, _mm_unpackhi_epi64(sy, sy));
  xylen = (uint64_t)(uint32_t)_mm_cvtsi128_si32(sx) | (uint64_t)(uint32_t)_mm_cvtsi128_si32(sy)
                                                          << 32;
#else
  for (; i < np; i++) xylen += flag_sizes[tags[i]];
#endif
  return xylen;
}

/* Index of the lowest set bit's byte in w (w != 0). */
static inline unsigned low_byte(uint64_t w)
{
#if defined(__GNUC__)
  return (unsigned)__builtin_ctzll(w) >> 3;
#else
  unsigned k = 0;
  while (!(w & 0xFFu)) w >>= 8, k++;
  return k;
#endif
}

/* The flags of np points from [*qp, qend) into tags (the flag bytes as they are), with repeats
 * (spec: repeats past the last point are ignored). Returns the number of points whose flags
 * were there (np unless truncated); *xylen gets the x and y array sizes. tags has TAGS_SPARE
 * bytes after np. */
static unsigned decode_flags(const uint8_t **qp, const uint8_t *qend, uint8_t *tags, unsigned np,
                             uint64_t *xylen_out)
{
  const uint8_t *q = *qp;
  uint64_t xylen = 0;
  unsigned i = 0;
  if ((size_t)(qend - q) >= 2 * (size_t)np) {
    /* in range: every point takes at most 2 bytes (a flag and its repeat count), so while
     * i < np the bytes read lie in the first 2 np; with 8 points left, 16 bytes are left */
    const uint64_t ones = 0x0101010101010101u;
    while (i < np) {
      if (np - i >= 8) {
        /* 8 flag bytes: copied up to the first that repeats (all 8 when none does; the bytes
         * copied past it are overwritten next) */
        uint64_t w, m;
        memcpy(&w, q, 8);
        memcpy(tags + i, &w, 8);
        m = w & ones * REPEAT_FLAG;
        if (!m) {
          q += 8;
          i += 8;
          continue;
        }
        unsigned k = low_byte(m);
        q += k;
        i += k;
        /* q[0] repeats: its run (i < np: the byte that repeats is one of the 8) */
        unsigned fl = *q++;
        tags[i++] = (uint8_t)fl;
        unsigned rep = *q++;
        if (rep > np - i) rep = np - i;
        /* in range: up to 15 bytes past np (the first 16 written whatever rep: most runs
         * are short, no loop test for them), inside the TAGS_SPARE bytes */
        uint64_t v = ones * fl;
        memcpy(tags + i, &v, 8);
        memcpy(tags + i + 8, &v, 8);
        for (unsigned j = 16; j < rep; j += 8) memcpy(tags + i + j, &v, 8);
        i += rep;
        continue;
      }
      unsigned fl = *q++;
      tags[i++] = (uint8_t)fl;
      if (fl & REPEAT_FLAG) {
        unsigned rep = *q++;
        if (rep > np - i) rep = np - i;
        /* in range: up to 15 bytes past np, inside the TAGS_SPARE bytes (as above) */
        uint64_t v = ones * fl;
        memcpy(tags + i, &v, 8);
        memcpy(tags + i + 8, &v, 8);
        for (unsigned k = 16; k < rep; k += 8) memcpy(tags + i + k, &v, 8);
        i += rep;
      }
    }
    xylen = flag_array_sizes(tags, np);
  } else {
    while (i < np && q < qend) {
      unsigned fl = *q++;
      if (!(fl & REPEAT_FLAG)) {
        xylen += flag_sizes[fl];
        tags[i++] = (uint8_t)fl;
        continue;
      }
      if (q >= qend) break;
      unsigned rep = 1u + *q++;
      if (rep > np - i) rep = np - i;
      xylen += flag_sizes[fl] * rep;
      for (unsigned k = 0; k < rep; k++) tags[i + k] = (uint8_t)fl;
      i += rep;
    }
  }
  *qp = q;
  *xylen_out = xylen;
  return i;
}

#if OTV_SSE2
/* Per flag byte: the x byte size, the y byte size. */
#  define XSZ8_(f) ((f)&X_SHORT_VECTOR ? 1u : (f)&X_IS_SAME_OR_POSITIVE ? 0u : 2u)
#  define YSZ8_(f) ((f)&Y_SHORT_VECTOR ? 1u : (f)&Y_IS_SAME_OR_POSITIVE ? 0u : 2u)
#  define S_(f)                                                                                    \
    {                                                                                              \
      XSZ8_(f), YSZ8_(f)                                                                           \
    }
#  define S4_(f) S_(f), S_((f) + 1), S_((f) + 2), S_((f) + 3)
#  define S16_(f) S4_(f), S4_((f) + 4), S4_((f) + 8), S4_((f) + 12)
#  define S64_(f) S16_(f), S16_((f) + 16), S16_((f) + 32), S16_((f) + 48)
static const uint8_t xy_sizes[256][2] = {S64_(0), S64_(64), S64_(128), S64_(192)};
#  undef S64_
#  undef S16_
#  undef S4_
#  undef S_
#  undef YSZ8_
#  undef XSZ8_

/* The x and y arrays of np points (flag bytes in tags) into pts, in two passes. 1: each
 * point's raw words (the two bytes at its x and at its y position, whatever its sizes) are
 * gathered into the upper half of pts[0, np4) (np4: np rounded up to a multiple of 4), 4
 * bytes a point: loads, stores and the positions' sums only. 2: 4 points at a time (8 16-bit
 * lanes x0 y0 x1 y1 ..., each with its point's flag byte), the deltas from the raw words and
 * the flags, their running sums (a pair of lanes per point: x and y summed at once) from the
 * previous block's last point, converted and stored as points; a block's points overwrite
 * only raw words already read. The sums are the int ones of the scalar decode, converted the
 * same way (cvtdq2ps), so the points are the same floats.
 * In range: the arrays hold the sizes the flags give (checked by the caller) and are
 * followed by 2 readable bytes (a point at an array's end reads 2 bytes there); pts holds
 * np4 points; tags has TAGS_SPARE bytes after np (the last block's lanes past np are computed
 * from them and from the raw words there, and land in pts[np, np4)). */
static OTV_ALWAYS_INLINE void decode_xy_impl(const uint8_t *xs, const uint8_t *ys, otv_point *pts,
                                             const uint8_t *tags, unsigned np,
                                             const otv_gvar_pre *pre, unsigned nk)
{
  unsigned np4 = (np + 3u) & ~3u;
  uint8_t *const raw0 = (uint8_t *)(void *)pts + 4 * (size_t)np4;
  uint8_t *raw = raw0;
  const uint8_t *tg = tags, *te = tags + np;
#  define RAW_STEP(k)                                                                              \
    do {                                                                                           \
      const uint8_t *sz = xy_sizes[tg[k]];                                                         \
      memcpy(raw + 4 * (k), xs, 2);                                                                \
      memcpy(raw + 4 * (k) + 2, ys, 2);                                                            \
      xs += sz[0];                                                                                 \
      ys += sz[1];                                                                                 \
    } while (0)
  for (; te - tg >= 4; tg += 4, raw += 16) {
    RAW_STEP(0);
    RAW_STEP(1);
    RAW_STEP(2);
    RAW_STEP(3);
  }
  for (; tg < te; tg++, raw += 4) RAW_STEP(0);
#  undef RAW_STEP
  /* per lane (x, y alternating): the SHORT_VECTOR and the IS_SAME_OR_POSITIVE bit */
  const __m128i sb = _mm_set_epi16(Y_SHORT_VECTOR, X_SHORT_VECTOR, Y_SHORT_VECTOR, X_SHORT_VECTOR,
                                   Y_SHORT_VECTOR, X_SHORT_VECTOR, Y_SHORT_VECTOR, X_SHORT_VECTOR);
  const __m128i pb = _mm_set_epi16(
      Y_IS_SAME_OR_POSITIVE, X_IS_SAME_OR_POSITIVE, Y_IS_SAME_OR_POSITIVE, X_IS_SAME_OR_POSITIVE,
      Y_IS_SAME_OR_POSITIVE, X_IS_SAME_OR_POSITIVE, Y_IS_SAME_OR_POSITIVE, X_IS_SAME_OR_POSITIVE);
  const __m128i low = _mm_set1_epi16(0xFF), zero = _mm_setzero_si128();
  __m128i carry = zero; /* the previous point's x, y in lanes 0, 1 and 2, 3 */
  float *out = &pts[0].x;
  raw = raw0;
  __m128 vs[OTV_GVAR_PLANAR_MAX];
  unsigned n_act = pre ? nk : 0; /* a constant: unrolled */
  for (unsigned t = 0; t < n_act; t++) vs[t] = _mm_set1_ps(pre->s[t]);
  for (unsigned i = 0; i < np; i += 4, raw += 16, out += 8) {
    __m128i r = _mm_loadu_si128((const __m128i *)(const void *)raw);
    uint32_t t4;
    memcpy(&t4, tags + i, 4);
    __m128i t = _mm_cvtsi32_si128((int)t4);
    t = _mm_unpacklo_epi8(t, t);
    t = _mm_unpacklo_epi16(t, t); /* each lane: its point's flag byte (twice) */
    __m128i s = _mm_cmpeq_epi16(_mm_and_si128(t, sb), sb);   /* short */
    __m128i n = _mm_cmpeq_epi16(_mm_and_si128(t, pb), zero); /* not same-or-positive */
    __m128i sv = _mm_and_si128(r, low);                      /* short: the byte, */
    sv = _mm_sub_epi16(_mm_xor_si128(sv, n), n);             /* negated without the bit */
    __m128i w = _mm_or_si128(_mm_slli_epi16(r, 8), _mm_srli_epi16(r, 8)); /* big-endian */
    __m128i d = _mm_or_si128(_mm_and_si128(s, sv), _mm_and_si128(_mm_andnot_si128(s, n), w));
    __m128i a = _mm_srai_epi32(_mm_unpacklo_epi16(d, d), 16); /* points 0, 1 in 32 bits */
    __m128i b = _mm_srai_epi32(_mm_unpackhi_epi16(d, d), 16); /* points 2, 3 */
    a = _mm_add_epi32(_mm_add_epi32(a, _mm_slli_si128(a, 8)), carry);
    carry = _mm_shuffle_epi32(a, _MM_SHUFFLE(3, 2, 3, 2));
    b = _mm_add_epi32(_mm_add_epi32(b, _mm_slli_si128(b, 8)), carry);
    carry = _mm_shuffle_epi32(b, _MM_SHUFFLE(3, 2, 3, 2));
    __m128 fa = _mm_cvtepi32_ps(a), fb = _mm_cvtepi32_ps(b);
    if (pre) { /* + s x delta per tuple, x and y deltas interleaved as the points */
      const float *dz = pre->dz + i;
      for (unsigned u = 0; u < n_act; u++, dz += 2 * (size_t)pre->stride) {
        __m128 dx = _mm_loadu_ps(dz), dy = _mm_loadu_ps(dz + pre->stride);
        fa = _mm_add_ps(fa, _mm_mul_ps(_mm_unpacklo_ps(dx, dy), vs[u]));
        fb = _mm_add_ps(fb, _mm_mul_ps(_mm_unpackhi_ps(dx, dy), vs[u]));
      }
    }
    _mm_storeu_ps(out, fa);
    _mm_storeu_ps(out + 4, fb);
  }
}
static OTV_NOINLINE void decode_xy(const uint8_t *xs, const uint8_t *ys, otv_point *pts,
                                   const uint8_t *tags, unsigned np)
{
  decode_xy_impl(xs, ys, pts, tags, np, NULL, 0);
}
/* As decode_xy, each point also varied by pre's planar deltas of 1, 2 or 3 tuples
 * (otv_gvar_begin: pre->dz holds at least np4 deltas per tuple and coordinate), unrolled */
static OTV_NOINLINE void decode_xy_var1(const uint8_t *xs, const uint8_t *ys, otv_point *pts,
                                        const uint8_t *tags, unsigned np, const otv_gvar_pre *pre)
{
  decode_xy_impl(xs, ys, pts, tags, np, pre, 1);
}
static OTV_NOINLINE void decode_xy_var2(const uint8_t *xs, const uint8_t *ys, otv_point *pts,
                                        const uint8_t *tags, unsigned np, const otv_gvar_pre *pre)
{
  decode_xy_impl(xs, ys, pts, tags, np, pre, 2);
}
static OTV_NOINLINE void decode_xy_var3(const uint8_t *xs, const uint8_t *ys, otv_point *pts,
                                        const uint8_t *tags, unsigned np, const otv_gvar_pre *pre)
{
  decode_xy_impl(xs, ys, pts, tags, np, pre, 3);
}
#  define DECODE_XY_PTS(np) (((np) + 3u) & ~3u) /* the points decode_xy writes */
#else
/* The x and y arrays of np points (flag bytes in tags) into pts. In range: the arrays hold the
 * sizes the flags give (checked by the caller), are preceded by 1 readable byte and followed
 * by 2, so every point may read 2 bytes from each array at its position or one before it
 * (using 0, 1 or 2 of them). Not inlined: in its own
 * function the loop keeps every pointer in a register. */
static OTV_NOINLINE void decode_xy(const uint8_t *xs, const uint8_t *ys, otv_point *pts,
                                   const uint8_t *tags, unsigned np)
{
  int x = 0, y = 0;
  unsigned i = 0;
#  define XY_STEP(k)                                                                               \
    do {                                                                                           \
      const xy_op *o = &xy_ops[tags[k]];                                                           \
      int wx = otv_peek_i16(xs + o->xoff), wy = otv_peek_i16(ys + o->yoff);                        \
      x += (wx & o->xmsk) * o->xmul;                                                               \
      y += (wy & o->ymsk) * o->ymul;                                                               \
      xs += o->xsz;                                                                                \
      ys += o->ysz;                                                                                \
      pts[k].x = (float)x;                                                                         \
      pts[k].y = (float)y;                                                                         \
    } while (0)
  for (; i + 2 <= np; i += 2) { /* two points per iteration: half the loop overhead */
    XY_STEP(i);
    XY_STEP(i + 1);
  }
  if (i < np) XY_STEP(i);
#  undef XY_STEP
}
#  define DECODE_XY_PTS(np) (np)
#endif

static otv_status load_simple(otv_glyf_loc *c, uint32_t gid, otv_span d, int contours,
                              unsigned flags)
{
  const otv_glyf *g = c->g;
  size_t glyph_at = (size_t)(d.p - g->glyf.p);
  unsigned base = c->n_pts, ebase = c->n_ends;
  otv_rd r = otv_rd_init(d, 0);
  int x_min = 0, y_max = 0;
  unsigned np = 0, nc = (unsigned)contours;
  const uint8_t *endp = NULL;
  otv_span ins;
  if (otv_glyf_simple_instructions(d, nc, &ins)) {
    /* in range: the whole header and the instructions fit (checked just above) */
    x_min = otv_peek_i16(d.p + 2);
    y_max = otv_peek_i16(d.p + 8);
    endp = d.p + 10;
    r.pos = (size_t)(ins.p - d.p) + ins.len;
    if (nc) np = (unsigned)otv_peek_u16(endp + 2 * (nc - 1)) + 1u;
  } else if (d.len) {
    otv_rd_skip(&r, 2);
    x_min = otv_rd_i16(&r);
    otv_rd_skip(&r, 2);
    otv_rd_skip(&r, 2);
    y_max = otv_rd_i16(&r);
    endp = otv_rd_take(&r, 2 * (size_t)nc);
    unsigned ilen = otv_rd_u16(&r);
    otv_rd_skip(&r, ilen);
    if (!otv_rd_ok(&r))
      return OTV_FAIL(c->x.err, TRUNCATED, T_GLYF, glyph_at + r.bad_at,
                      "glyph %u: header of %u contours", gid, nc);
    if (nc) np = (unsigned)otv_peek_u16(endp + 2 * (nc - 1)) + 1u;
  }
  if ((size_t)base + np > OTV_MAX_POINTS)
    return OTV_FAIL(c->x.err, LIMIT, T_GLYF, glyph_at, "glyph %u: more than %u points", gid,
                    OTV_MAX_POINTS);
  if (!reserve_pts(c, (size_t)base + (np + 4 > DECODE_XY_PTS(np) ? np + 4 : DECODE_XY_PTS(np))) ||
      RESERVE_MIN(c->x.al, &c->ends, &c->ends_cap, (size_t)ebase + nc + 1, sizeof(uint16_t),
                  SCRATCH_ENDS))
    return OTV_FAIL(c->x.err, NOMEM, T_GLYF, 0, "glyph %u: point scratch", gid);
  otv_point *pts = c->pts + base;
  uint8_t *tags = c->tags + base;
  uint16_t *ends = c->ends + ebase;
  /* contour ends, strictly increasing (spec); compared as read, not as stored: a middle end
   * above the last one would wrap when the component's base is added */
  for (unsigned i = 0, prev = 0; i < nc; i++) {
    unsigned e = otv_peek_u16(endp + 2 * i); /* in range: taken above */
    if (i > 0 && e <= prev)
      return OTV_FAIL(c->x.err, BAD_VALUE, T_GLYF, glyph_at + 10 + 2 * i,
                      "glyph %u: endPtsOfContours[%u] = %u not increasing", gid, i, e);
    prev = e;
    ends[i] = (uint16_t)(e + base); /* fits: e <= np - 1 (increasing to the last end) and
                                       base + np <= OTV_MAX_POINTS */
  }
  const uint8_t *xs = NULL, *ys = NULL;
  if (np) {
    /* flags, with repeats; then the byte sizes of the x and y arrays */
    uint64_t xylen = 0; /* x array bytes | y array bytes << 32 (each < 2^18) */
    const uint8_t *q = d.p + r.pos, *qend = d.p + d.len;
    if (q < qend && (*q & OVERLAP_SIMPLE)) c->glyph_flags |= OTV_GLYPH_OVERLAP_SIMPLE;
    unsigned i = decode_flags(&q, qend, tags, np, &xylen);
    size_t xlen = (size_t)(xylen & 0xFFFFFFFFu), ylen = (size_t)(xylen >> 32);
    r.pos = (size_t)(q - d.p);
    if (i < np || !(xs = otv_rd_take(&r, xlen)) || !(ys = otv_rd_take(&r, ylen)))
      return OTV_FAIL(c->x.err, TRUNCATED, T_GLYF,
                      glyph_at + (i < np ? (size_t)(q - d.p) : r.bad_at),
                      "glyph %u: flags and coordinates of %u points", gid, np);
    /* in range: xs/ys spans of xlen/ylen bytes were taken above from the flags' sizes. The
     * branch-free loop reads 2 bytes for every point at its position (SSE2) or at its position
     * or one byte before it (the portable loop; using 0, 1 or 2 of them): the byte before the
     * x array is the last flag (np >= 1), the byte before the y array the last x byte or that
     * flag; it needs two spare bytes after the y array (the arrays follow each other) inside
     * the glyf table, which all glyphs but a last one at the very end of the table have; that
     * one is decoded from a copy with a zero byte before it and 2 after it. */
    size_t end_at = (size_t)(ys + ylen - g->glyf.p);
    if (!otv_span_has(g->glyf, end_at, 2)) {
      if (OTV_RESERVE(c->x.al, &c->xy_pad, &c->xy_pad_cap, xlen + ylen + 3, 1))
        return OTV_FAIL(c->x.err, NOMEM, T_GLYF, 0, "glyph %u: point scratch", gid);
      c->xy_pad[0] = 0;
      memcpy(c->xy_pad + 1, xs, xlen + ylen);
      c->xy_pad[xlen + ylen + 1] = c->xy_pad[xlen + ylen + 2] = 0;
      xs = c->xy_pad + 1;
      ys = xs + xlen;
    }
  }
  /* the deltas: with every point listed by every tuple (SSE2), decoded first and added to
   * the coordinates as they are decoded; else added to the decoded points */
  otv_gvar_pre pre;
  pre.mode = OTV_GVAR_NONE;
  if (!c->gc_no_gvar) {
    otv_status s = otv_gvar_begin(&c->gv, gid, np + 4, &pre);
    if (s) return s;
  }
#if OTV_SSE2
  if (np) {
    if (pre.mode != OTV_GVAR_PLANAR)
      decode_xy(xs, ys, pts, tags, np);
    else if (pre.n_act == 1)
      decode_xy_var1(xs, ys, pts, tags, np, &pre);
    else if (pre.n_act == 2)
      decode_xy_var2(xs, ys, pts, tags, np, &pre);
    else
      decode_xy_var3(xs, ys, pts, tags, np, &pre);
  }
#else
  if (np) decode_xy(xs, ys, pts, tags, np);
#endif
  if (c->want_phantoms)
    default_phantoms(g, gid, x_min, y_max, pts + np);
  else
    memset(pts + np, 0, 4 * sizeof *pts); /* a component's phantoms, dropped by its parent */
  memset(tags + np, 0, 4);
  if (pre.mode == OTV_GVAR_PLANAR && c->want_phantoms) {
    /* the phantoms' deltas, in the same order (not wanted: they stay zeros, unused) */
    for (unsigned t = 0; t < pre.n_act; t++) {
      const float *dx = pre.dz + 2 * (size_t)t * pre.stride, *dy = dx + pre.stride;
      for (unsigned p = np; p < np + 4; p++) {
        pts[p].x += pre.s[t] * dx[p];
        pts[p].y += pre.s[t] * dy[p];
      }
    }
  } else if (pre.mode == OTV_GVAR_LATER) {
    otv_status s =
        otv_gvar_finish(&c->gv, gid, &pre, pts, np + 4, ends, nc, base, c->need_phantoms);
    if (s) return s;
  }
  if ((flags & OTV_OUTLINE_ROUND) && !c->x.at->is_default) round_points(pts, np + 4);
  c->n_pts = base + np + 4;
  c->n_ends = ebase + nc;
  return OTV_E_OK;
}

/* A component record (otv_glyf_read_comp) with its transform in float. */
static bool read_comp(otv_rd *r, comp *o)
{
  otv_glyf_comp k;
  bool ok = otv_glyf_read_comp(r, &k);
  o->flags = k.flags;
  o->gid = k.gid;
  o->arg1 = k.arg1;
  o->arg2 = k.arg2;
  o->has_matrix = k.scale_count != 0;
  if (!ok) return false;
  if (!o->has_matrix) return true; /* m is read only with a matrix */
  o->m[1] = o->m[2] = 0.0f;
  o->m[0] = o->m[3] = 1.0f;
  switch (k.scale_count) {
  case 1: o->m[0] = o->m[3] = (float)k.scale[0] / 16384.0f; break;
  case 2:
    o->m[0] = (float)k.scale[0] / 16384.0f;
    o->m[3] = (float)k.scale[1] / 16384.0f;
    break;
  case 4:
    for (int i = 0; i < 4; i++) o->m[i] = (float)k.scale[i] / 16384.0f;
    break;
  default: break;
  }
  return true;
}

/* Does a component after i (among the next few) refer to the same glyph as component i? */
static bool used_again(const comp *cs, unsigned i, unsigned k)
{
  unsigned stop = k - i > 64 ? i + 64 : k; /* bounded look-ahead */
  for (unsigned j = i + 1; j < stop; j++)
    if (cs[j].gid == cs[i].gid) return true;
  return false;
}

/* Keep the simple glyph just loaded at pts[m..n_pts) for reuse in this top-level call: its
 * points do not depend on where it is used (transforms are applied after the load). */
static otv_status memo_put(otv_glyf_loc *c, uint32_t gid, unsigned m)
{
  unsigned n = c->n_pts - m, nc = 0;
  while (nc < c->n_ends && c->ends[c->n_ends - 1 - nc] >= m) nc++;
  if (OTV_RESERVE(c->x.al, &c->memo_pts, &c->memo_pts_cap, n, sizeof(otv_point)) ||
      OTV_RESERVE(c->x.al, &c->memo_tags, &c->memo_tags_cap, n, 1) ||
      OTV_RESERVE(c->x.al, &c->memo_ends, &c->memo_ends_cap, nc ? nc : 1, sizeof(uint16_t)))
    return OTV_FAIL(c->x.err, NOMEM, T_GLYF, 0, "glyph %u: component scratch", gid);
  memcpy(c->memo_pts, c->pts + m, n * sizeof(otv_point));
  memcpy(c->memo_tags, c->tags + m, n);
  for (unsigned j = 0; j < nc; j++) c->memo_ends[j] = (uint16_t)(c->ends[c->n_ends - nc + j] - m);
  c->memo_gid = gid;
  c->memo_phantoms = c->want_phantoms;
  c->memo_n = n;
  c->memo_nc = nc;
  return OTV_E_OK;
}

/* Append the memorized simple glyph at the end of the flattened points, as load() would. */
static otv_status memo_get(otv_glyf_loc *c, uint32_t gid)
{
  unsigned m = c->n_pts, n = c->memo_n, nc = c->memo_nc;
  if (!reserve_pts(c, (size_t)m + n) ||
      OTV_RESERVE(c->x.al, &c->ends, &c->ends_cap, (size_t)c->n_ends + nc + 1, sizeof(uint16_t)))
    return OTV_FAIL(c->x.err, NOMEM, T_GLYF, 0, "glyph %u: point scratch", gid);
  if ((size_t)m + n - 4 > OTV_MAX_POINTS) /* as load_simple: n counts 4 phantoms */
    return OTV_FAIL(c->x.err, LIMIT, T_GLYF, 0, "glyph %u: more than %u points", gid,
                    OTV_MAX_POINTS);
  memcpy(c->pts + m, c->memo_pts, n * sizeof(otv_point));
  memcpy(c->tags + m, c->memo_tags, n);
  for (unsigned j = 0; j < nc; j++) c->ends[c->n_ends + j] = (uint16_t)(c->memo_ends[j] + m);
  c->n_ends += nc;
  c->n_pts = m + n;
  return OTV_E_OK;
}

/* ---- Component cache ----
 * A simple glyph loaded as a component (depth >= 1) is the same at every use while the coordinates
 * stay the same: its varied points do not depend on the composite (the transform and offset are
 * applied after the load). The cache keeps, per glyph id, the varied points (the 4 phantoms
 * included), point flags and contour ends (relative to the glyph) as load() leaves them, plus
 * whether its phantoms are the real ones (a component whose parent drops them gets zeros + deltas),
 * whether OTV_OUTLINE_ROUND was applied, and the OVERLAP_SIMPLE bit. A hit appends a copy, exactly
 * as memo_get does. Composites are not cached, nor glyphs drawn at the top level. Bounds: up to
 * OTV_GLYF_CC_SLOTS direct-mapped slots (the glyph count rounded up to a power of two, at least 64;
 * a later glyph of the same slot replaces the earlier one) and one OTV_GLYF_CC_BYTES arena filled
 * in order; when it is full every entry is dropped (cc_gen++) and it fills again. A glyph bigger
 * than a quarter of the arena is not cached. Setting coordinates bumps c->x.at->serial; the next
 * top-level call sees cc_serial differ and drops every entry. If allocating the slots or the arena
 * fails, the location runs without the cache (the outline is the same, only slower). */
#define CC_PHANTOMS 1u
#define CC_ROUND 2u
#define CC_OVERLAP 4u

/* Drop every entry. */
static void cc_clear(otv_glyf_loc *c)
{
  c->cc_used = 0;
  if (++c->cc_gen == 0) { /* wrapped: gen 0 would match never-used slots */
    memset(c->cc_slots, 0, ((size_t)c->cc_mask + 1) * sizeof *c->cc_slots);
    c->cc_gen = 1;
  }
}

/* At the start of a top-level call: drop the entries of other coordinates. */
static inline void cc_sync(otv_glyf_loc *c)
{
  if (c->cc_serial != c->x.at->serial && c->cc_slots) {
    cc_clear(c);
    c->cc_serial = c->x.at->serial;
  }
}

/* The cached glyph gid appended as load() would: 1 hit (*s set), 0 miss. */
static int cc_get(otv_glyf_loc *c, uint32_t gid, bool want_ph, unsigned flags, otv_status *s)
{
  if (!c->cc_slots || c->cc_off) return 0;
  const struct otv_glyf_cent *e = &c->cc_slots[gid & c->cc_mask];
  unsigned round = (flags & OTV_OUTLINE_ROUND) ? CC_ROUND : 0u;
  if (e->gen != c->cc_gen || e->gid != gid || (e->bits & CC_ROUND) != round ||
      (want_ph && !(e->bits & CC_PHANTOMS)))
    return 0;
  unsigned m = c->n_pts, n = e->n, nc = e->nc;
  if (!reserve_pts(c, (size_t)m + n) ||
      OTV_RESERVE(c->x.al, &c->ends, &c->ends_cap, (size_t)c->n_ends + nc + 1, sizeof(uint16_t))) {
    *s = OTV_FAIL(c->x.err, NOMEM, T_GLYF, 0, "glyph %u: point scratch", gid);
    return 1;
  }
  if ((size_t)m + n - 4 > OTV_MAX_POINTS) { /* as load_simple: n counts 4 phantoms */
    *s = OTV_FAIL(c->x.err, LIMIT, T_GLYF, 0, "glyph %u: more than %u points", gid, OTV_MAX_POINTS);
    return 1;
  }
  /* in the arena: put by cc_put at off, n * 8 + nc * 2 + n bytes */
  const uint8_t *q = c->cc_mem + e->off;
  memcpy(c->pts + m, q, n * sizeof(otv_point));
  q += n * sizeof(otv_point);
  uint16_t *ends = c->ends + c->n_ends;
  for (unsigned j = 0; j < nc; j++) { /* copied and moved to m in one pass (nc is small) */
    uint16_t v;
    memcpy(&v, q + 2 * j, 2);
    ends[j] = (uint16_t)(v + m);
  }
  q += nc * sizeof(uint16_t);
  memcpy(c->tags + m, q, n);
  if (e->bits & CC_OVERLAP) c->glyph_flags |= OTV_GLYPH_OVERLAP_SIMPLE;
  c->n_ends += nc;
  c->n_pts = m + n;
  *s = OTV_E_OK;
  return 1;
}

/* Keep the simple glyph just loaded at pts[m..n_pts) (overlap: its OVERLAP_SIMPLE bit). */
static void cc_put(otv_glyf_loc *c, uint32_t gid, unsigned m, unsigned flags, bool overlap)
{
  if (c->cc_off || c->cc_failed) return;
  if (!c->cc_slots) { /* first use: the slots, once per location */
    /* the power of two at or above the glyph count, 64..OTV_GLYF_CC_SLOTS: a small font
     * zeroes only what it can use (and has no two glyphs in one slot) */
    uint32_t slots = 64;
    while (slots < OTV_GLYF_CC_SLOTS && slots < c->g->glyph_count) slots *= 2;
    c->cc_slots = otv_mem_calloc(c->x.al, slots, sizeof *c->cc_slots);
    if (!c->cc_slots) {
      c->cc_failed = true;
      return;
    }
    c->cc_mask = slots - 1;
    c->cc_gen = 1;
    c->cc_used = 0;
    c->cc_serial = c->x.at->serial;
  }
  unsigned n = c->n_pts - m, nc = 0;
  while (nc < c->n_ends && c->ends[c->n_ends - 1 - nc] >= m) nc++;
  size_t need = ((size_t)n * sizeof(otv_point) + nc * sizeof(uint16_t) + n + 7u) & ~(size_t)7u;
  if (need > c->cc_max / 4) return;
  if (need > c->cc_cap - c->cc_used) {
    /* the arena grows by doubling from 16 KiB up to cc_max (entries keep their offsets);
     * at its bound, or when it cannot grow, every entry is dropped and it fills again */
    size_t want = c->cc_cap ? 2 * c->cc_cap : 16384u;
    if (want > c->cc_max) want = c->cc_max;
    if (want >= c->cc_used + need && want > c->cc_cap) {
      uint8_t *mem = otv_mem_realloc(c->x.al, c->cc_mem, c->cc_cap, want);
      if (mem) c->cc_mem = mem, c->cc_cap = want;
    }
    if (need > c->cc_cap - c->cc_used) cc_clear(c);
    if (need > c->cc_cap) return; /* no arena (its first allocation failed) */
  }
  struct otv_glyf_cent *e = &c->cc_slots[gid & c->cc_mask];
  uint8_t *q = c->cc_mem + c->cc_used;
  e->gen = c->cc_gen;
  e->gid = gid;
  e->off = (uint32_t)c->cc_used; /* < cc_max <= OTV_GLYF_CC_BYTES */
  e->n = n;
  e->nc = (uint16_t)nc; /* nc <= points <= OTV_MAX_POINTS */
  e->bits = (uint8_t)((c->want_phantoms ? CC_PHANTOMS : 0u) |
                      ((flags & OTV_OUTLINE_ROUND) ? CC_ROUND : 0u) | (overlap ? CC_OVERLAP : 0u));
  memcpy(q, c->pts + m, n * sizeof(otv_point));
  q += n * sizeof(otv_point);
  for (unsigned j = 0; j < nc; j++) {
    uint16_t v = (uint16_t)(c->ends[c->n_ends - nc + j] - m);
    memcpy(q + 2 * j, &v, 2);
  }
  q += nc * sizeof(uint16_t);
  memcpy(q, c->tags + m, n);
  c->cc_used += need;
}

static otv_status load_composite(otv_glyf_loc *c, uint32_t gid, otv_span d, unsigned depth,
                                 unsigned flags)
{
  const otv_glyf *g = c->g;
  size_t glyph_at = (size_t)(d.p - g->glyf.p);
  otv_rd r = otv_rd_init(d, 2);
  int x_min = otv_rd_i16(&r);
  otv_rd_skip(&r, 4);
  int y_max = otv_rd_i16(&r);
  /* first pass: decode and validate the component records onto the comps stack */
  unsigned k = 0, cbase = c->comps_top;
  comp cp;
  do {
    size_t at = r.pos;
    if (!read_comp(&r, &cp))
      return OTV_FAIL(c->x.err, TRUNCATED, T_GLYF, glyph_at + r.bad_at, "glyph %u: component %u",
                      gid, k);
    if (cp.gid >= g->glyph_count)
      return OTV_FAIL(c->x.err, BAD_VALUE, T_GLYF, glyph_at + at + 2,
                      "glyph %u: component glyph %u of %u", gid, cp.gid, g->glyph_count);
    if (cp.flags & OTV_OVERLAP_COMPOUND) c->glyph_flags |= OTV_GLYPH_OVERLAP_COMPOUND;
    if (RESERVE_MIN(c->x.al, &c->comps, &c->comps_cap, (size_t)cbase + k + 1, sizeof(comp),
                    SCRATCH_COMPS))
      return OTV_FAIL(c->x.err, NOMEM, T_GLYF, 0, "glyph %u: component scratch", gid);
    c->comps[cbase + k] = cp;
    k++;
  } while (cp.flags & OTV_MORE_COMPONENTS);
  c->comps_top = cbase + k;

  /* own points: component offsets then phantoms, varied by this glyph's gvar data */
  unsigned own = c->cstk_top;
  if (RESERVE_MIN(c->x.al, &c->cstk, &c->cstk_cap, (size_t)own + k + 4, sizeof(otv_point),
                  SCRATCH_COMPS + 4))
    return OTV_FAIL(c->x.err, NOMEM, T_GLYF, 0, "glyph %u: component scratch", gid);
  c->cstk_top = own + k + 4;
  for (unsigned i = 0; i < k; i++) {
    const comp *cq = &c->comps[cbase + i];
    bool xy = (cq->flags & OTV_ARGS_ARE_XY_VALUES) != 0;
    c->cstk[own + i].x = xy ? (float)cq->arg1 : 0.0f;
    c->cstk[own + i].y = xy ? (float)cq->arg2 : 0.0f;
  }
  if (c->want_phantoms)
    default_phantoms(g, gid, x_min, y_max, c->cstk + own + k);
  else
    memset(c->cstk + own + k, 0, 4 * sizeof(otv_point));
  otv_status s = otv_gvar_apply(&c->gv, gid, c->cstk + own, k + 4, NULL, 0, 0, c->need_phantoms);
  if (s) return s;
  if ((flags & OTV_OUTLINE_ROUND) && !c->x.at->is_default) round_points(c->cstk + own, k + 4);

  /* second pass: load, transform and place each component */
  unsigned first = c->n_pts; /* this composite's first flattened point */
  for (unsigned i = 0; i < k; i++) {
    /* nested loads may move the comps array (never the entries below comps_top): cq is
     * taken again after them */
    const comp *cq = &c->comps[cbase + i];
    if (++c->budget > MAX_COMPONENT_LOADS)
      return OTV_FAIL(c->x.err, LIMIT, T_GLYF, glyph_at, "glyph %u: more than %u component loads",
                      gid, MAX_COMPONENT_LOADS);
    for (unsigned a = 0; a <= depth; a++)
      if (c->gid_stack[a] == cq->gid)
        return OTV_FAIL(c->x.err, BAD_VALUE, T_GLYF, glyph_at,
                        "glyph %u: component %u refers back to glyph %u", gid, i, cq->gid);
    c->gid_stack[depth + 1] = cq->gid;
    unsigned m = c->n_pts;
    /* the component's phantom points matter only when they become this glyph's */
    bool want_ph = c->need_phantoms && (cq->flags & OTV_USE_MY_METRICS);
    if (cq->gid == c->memo_gid && (c->memo_phantoms || !want_ph)) {
      s = memo_get(c, gid);
    } else if (!cc_get(c, cq->gid, want_ph, flags, &s)) {
      c->want_phantoms = want_ph;
      uint32_t had_overlap = c->glyph_flags & OTV_GLYPH_OVERLAP_SIMPLE;
      c->glyph_flags &= ~(uint32_t)OTV_GLYPH_OVERLAP_SIMPLE;
      s = load(c, cq->gid, depth + 1, flags);
      bool overlap = (c->glyph_flags & OTV_GLYPH_OVERLAP_SIMPLE) != 0;
      c->glyph_flags |= had_overlap;
      if (!s && c->last_simple) {
        cc_put(c, cq->gid, m, flags, overlap);
        if (used_again(c->comps + cbase, i, k)) s = memo_put(c, cq->gid, m);
      }
    }
    if (s || (s = charge(c, gid, OTV_WORK_GLYPH_LOAD + (c->n_pts - m), glyph_at))) return s;
    cq = &c->comps[cbase + i];
    unsigned n = c->n_pts - m - 4; /* the component's outline points */
    otv_point *p = c->pts + m;
    if (cq->flags & OTV_USE_MY_METRICS) memcpy(c->cstk + own + k, p + n, 4 * sizeof *p);
    if (cq->has_matrix) {
      const float m0 = cq->m[0], m1 = cq->m[1], m2 = cq->m[2], m3 = cq->m[3];
      for (unsigned j = 0; j < n; j++) {
        float x = p[j].x, y = p[j].y;
        p[j].x = m0 * x + m2 * y;
        p[j].y = m1 * x + m3 * y;
      }
    }
    float dx, dy;
    if (cq->flags & OTV_ARGS_ARE_XY_VALUES) {
      dx = c->cstk[own + i].x;
      dy = c->cstk[own + i].y;
      /* OTV_SCALED_COMPONENT_OFFSET (and not UNSCALED): the offset goes through the matrix too */
      if (cq->has_matrix &&
          (cq->flags & (OTV_SCALED_COMPONENT_OFFSET | OTV_UNSCALED_COMPONENT_OFFSET)) ==
              OTV_SCALED_COMPONENT_OFFSET) {
        float x = dx, y = dy;
        dx = cq->m[0] * x + cq->m[2] * y;
        dy = cq->m[1] * x + cq->m[3] * y;
      }
      /* OTV_ROUND_XY_TO_GRID rounds to the pixel grid when hinting; in font units without hinting
       * (as FreeType's NO_SCALE|NO_HINTING and HarfBuzz draw) the offset is kept as is. */
    } else {
      /* point matching: parent point arg1 (flattened so far) meets component point arg2 */
      unsigned p1 = (unsigned)cq->arg1, p2 = (unsigned)cq->arg2;
      if (p1 >= m - first || p2 >= n)
        return OTV_FAIL(c->x.err, BAD_VALUE, T_GLYF, glyph_at,
                        "glyph %u: component %u matches points %u and %u of %u and %u", gid, i, p1,
                        p2, m - first, n);
      dx = c->pts[first + p1].x - p[p2].x;
      dy = c->pts[first + p1].y - p[p2].y;
    }
    if (dx != 0.0f || dy != 0.0f)
      for (unsigned j = 0; j < n; j++) {
        p[j].x += dx;
        p[j].y += dy;
      }
    c->n_pts = m + n; /* drop the component's phantoms */
  }
  if (!reserve_pts(c, (size_t)c->n_pts + 4))
    return OTV_FAIL(c->x.err, NOMEM, T_GLYF, 0, "glyph %u: point scratch", gid);
  memcpy(c->pts + c->n_pts, c->cstk + own + k, 4 * sizeof(otv_point));
  memset(c->tags + c->n_pts, 0, 4);
  c->n_pts += 4;
  c->cstk_top = own;
  c->comps_top = cbase;
  return OTV_E_OK;
}

static otv_status load(otv_glyf_loc *c, uint32_t gid, unsigned depth, unsigned flags)
{
  if (depth > OTV_MAX_COMPONENT_DEPTH)
    return OTV_FAIL(c->x.err, LIMIT, T_GLYF, 0, "glyph %u: components nested deeper than %u", gid,
                    OTV_MAX_COMPONENT_DEPTH);
  otv_span d = {NULL, 0};
  otv_status s = glyph_data(c, gid, &d);
  if (s) return s;
  if ((s = charge(c, gid, OTV_WORK_GLYPH_LOAD + d.len, (size_t)(d.p - c->g->glyf.p)))) return s;
  int contours = 0;
  if (d.len) {
    if (d.len < 10)
      return OTV_FAIL(c->x.err, TRUNCATED, T_GLYF, (size_t)(d.p - c->g->glyf.p),
                      "glyph %u: %zu bytes, header needs 10", gid, d.len);
    contours = otv_peek_i16(d.p); /* in range: d.len >= 10 */
  }
  if (contours < 0) {
    if (depth == 0) c->glyph_flags |= OTV_GLYPH_COMPOSITE;
    s = load_composite(c, gid, d, depth, flags);
    c->last_simple = false;
    return s;
  }
  c->last_simple = true;
  return load_simple(c, gid, d, contours, flags);
}

/* Flatten glyph gid into c->pts (outline points then 4 phantoms; without phantoms, as
 * for a pen, those are zeros plus their deltas). */
static otv_status load_top(otv_glyf_loc *c, uint32_t gid, unsigned flags, bool phantoms)
{
  if (!c->g->present) return OTV_FAIL(c->x.err, NO_TABLE, T_GLYF, 0, "no glyf table");
  c->n_pts = c->n_ends = c->cstk_top = c->comps_top = c->budget = 0;
  c->glyph_flags = 0;
  c->memo_gid = UINT32_MAX;
  /* a pen draws no phantom points: their hmtx/vmtx defaults are skipped (zeros + deltas) */
  c->want_phantoms = c->need_phantoms = phantoms;
  cc_sync(c);
  c->gid_stack[0] = gid;
  otv_status s = load(c, gid, 0, flags);
  if (s) return s;
  if (OTV_NEVER(c->n_pts < 4)) return OTV_E_ARG;
  return OTV_E_OK;
}

/* ---- output ---- */

static void nop_pt(void *ctx, float x, float y) { (void)ctx, (void)x, (void)y; }
static void nop_quad(void *ctx, float a, float b, float x, float y)
{
  (void)ctx, (void)a, (void)b, (void)x, (void)y;
}
static void nop_close(void *ctx) { (void)ctx; }

static void emit(const otv_point *pts, const uint8_t *tags, const uint16_t *ends, unsigned n_ends,
                 const otv_pen *pen, void *ctx)
{
  /* callbacks in locals (NULL ones replaced by no-ops): no reload or test per segment */
  void (*move_to)(void *, float, float) = pen->move_to;
  void (*line_to)(void *, float, float) = pen->line_to;
  void (*quad_to)(void *, float, float, float, float) = pen->quad_to;
  void (*close_path)(void *) = pen->close_path;
  if (!move_to || !line_to || !quad_to || !close_path) {
    if (!move_to) move_to = nop_pt;
    if (!line_to) line_to = nop_pt;
    if (!quad_to) quad_to = nop_quad;
    if (!close_path) close_path = nop_close;
  }
  unsigned first = 0;
  for (unsigned ci = 0; ci < n_ends; ci++) {
    unsigned last = ends[ci];
    if (last < first) continue; /* defensive: ends are increasing */
    otv_point start = pts[first];
    unsigned i = first, limit = last;
    if (!(tags[first] & ON_CURVE_POINT)) {
      if (tags[last] & ON_CURVE_POINT) {
        start = pts[last];
        limit = last - 1;
      } else {
        start.x = (pts[first].x + pts[last].x) * 0.5f;
        start.y = (pts[first].y + pts[last].y) * 0.5f;
      }
    } else {
      i = first + 1;
    }
    move_to(ctx, start.x, start.y);
    /* i..limit: on-curve points draw a line (or end the pending quad), off-curve ones make
     * the pending control point (after a quad to the implied midpoint when one is pending).
     * Two loops, one per state (no control point pending / one pending), so no per-point test
     * of the state. Pointers, not floats, live across the pen calls (no float register
     * survives a call). */
    const otv_point *pp = pts + i, *pe = pts + limit + 1, *ctrl = NULL;
    const uint8_t *tg = tags + i;
    bool drew = pp < pe; /* limit = last - 1 only when last > first: no underflow */
    for (;;) {
      for (; pp < pe && (*tg & ON_CURVE_POINT); pp++, tg++) line_to(ctx, pp->x, pp->y);
      if (pp >= pe) break;
      ctrl = pp++;
      tg++;
      for (; pp < pe && !(*tg & ON_CURVE_POINT); pp++, tg++) {
        quad_to(ctx, ctrl->x, ctrl->y, (ctrl->x + pp->x) * 0.5f, (ctrl->y + pp->y) * 0.5f);
        ctrl = pp;
      }
      if (pp >= pe) break;
      quad_to(ctx, ctrl->x, ctrl->y, pp->x, pp->y);
      ctrl = NULL;
      pp++;
      tg++;
    }
    /* back to the start: the pending quad, else a line when the last point drawn (the last
     * on-curve point, pts[limit], when the loop ran) differs from the start */
    if (ctrl) {
      quad_to(ctx, ctrl->x, ctrl->y, start.x, start.y);
    } else if (drew && (pts[limit].x != start.x || pts[limit].y != start.y)) {
      line_to(ctx, start.x, start.y);
    }
    close_path(ctx);
    first = last + 1;
  }
}

/* ---- Glyph cache ----
 * A simple glyph drawn to a pen is decoded once per location and kept: its default outline
 * points (P0), flags and contour ends, and for every gvar tuple the scalar's inputs (peak and
 * region in the gvar table) and its deltas for every outline point, unscaled, after IUP. None
 * of that depends on the coordinates, so the cache is never dropped: at any location the glyph
 * is P0 + scalar x deltas, summed tuple by tuple in the tuple order with the same float
 * operations as otv_gvar_apply (which adds scalar x delta to the points tuple after tuple:
 * an inferred delta is computed from the unscaled deltas there too), so the outline is
 * bit-identical. Not cached: composites, glyphs drawn through the points API or rounded, a
 * glyph whose data has any error (it is drawn the usual way, which reports it).
 * Bounds: OTV_GLYF_GC_SLOTS slots (direct-mapped by glyph id, the first glyph of a slot keeps
 * it) and one OTV_GLYF_GC_BYTES arena filled in order; an entry bigger than an eighth of it is
 * not cached; when the arena is full no entry is added (nothing is dropped: the glyphs
 * already there stay valid). The slots are allocated at the first outline call (if that fails
 * the location runs without the cache); the arena grows by doubling when an entry is added
 * (if that fails, no entry is added any more). */
static void gc_draw_fail(otv_glyf_loc *c, struct otv_glyf_gent *e, uint32_t gid)
{
  e->gid1 = gid + 1;
  e->off = UINT32_MAX;
  c->gc_no_gvar = false;
}

/* Fill slot e (empty) with glyph gid; false: draw it the usual way. */
static bool gc_fill(otv_glyf_loc *c, uint32_t gid, struct otv_glyf_gent *e)
{
  otv_span d = {NULL, 0};
  /* composites and bad glyph data are drawn the usual way (which reports the error) */
  if (glyph_data(c, gid, &d) || (d.len && (d.len < 10 || otv_peek_i16(d.p) < 0))) {
    gc_draw_fail(c, e, gid);
    return false;
  }
  long m = otv_gvar_tuple_count(&c->g->gvar, gid);
  if (m < 0) {
    gc_draw_fail(c, e, gid);
    return false;
  }
  c->gc_no_gvar = true;
  otv_status s = load_top(c, gid, 0, false); /* the default points, flags, contour ends */
  c->gc_no_gvar = false;
  if (s || !c->last_simple) {
    gc_draw_fail(c, e, gid);
    return false;
  }
  unsigned np = c->n_pts - 4, nc = c->n_ends, stride = (np + 1u) & ~1u;
  /* header (np, nc, m, stride), m tuples, P0 and m delta arrays of stride points, contour
   * ends, flags; 16-byte multiples */
  size_t need = 16 + (size_t)m * sizeof(otv_gvar_tup) +
                ((size_t)m + 1) * stride * sizeof(otv_point) + nc * sizeof(uint16_t) + np;
  need = (need + 15u) & ~(size_t)15u;
  if (need > c->gc_max / 8) {
    gc_draw_fail(c, e, gid);
    return false;
  }
  if (need > c->gc_max - c->gc_used) {
    c->gc_full = true;
    return false;
  }
  /* the arena grows by doubling (powers of two from 64 KiB: never past OTV_GLYF_GC_BYTES, a
   * power of two); if that fails the entries kept so far stay and no more are added */
  size_t want = c->gc_used + need < 65536u ? 65536u : c->gc_used + need;
  if (want > c->gc_max) want = c->gc_max; /* >= gc_used + need (checked above) */
  if (OTV_RESERVE(c->x.al, &c->gc_mem, &c->gc_cap, want, 1)) {
    c->gc_full = true;
    return false;
  }
  uint8_t *q = c->gc_mem + c->gc_used;
  uint32_t hdr[4] = {np, nc, (uint32_t)m, stride};
  memcpy(q, hdr, 16);
  otv_gvar_tup *tup = (otv_gvar_tup *)(void *)(q + 16);
  otv_point *p0 = (otv_point *)(void *)(q + 16 + (size_t)m * sizeof(otv_gvar_tup));
  otv_point *dd = p0 + stride;
  memcpy(p0, c->pts, np * sizeof *p0);
  if (stride > np) p0[np].x = p0[np].y = 0.0f;
  if (!otv_gvar_decode_all(&c->gv, gid, c->pts, np, c->ends, nc, tup, (unsigned)m, dd, stride)) {
    gc_draw_fail(c, e, gid);
    return false;
  }
  uint8_t *r = (uint8_t *)(dd + (size_t)m * stride);
  memcpy(r, c->ends, nc * sizeof(uint16_t));
  memcpy(r + nc * sizeof(uint16_t), c->tags, np);
  e->gid1 = gid + 1;
  e->off = (uint32_t)c->gc_used; /* < gc_max <= OTV_GLYF_GC_BYTES */
  c->gc_used += need;
  return true;
}

/* A glyph not in the cache is drawn: true when it is its second draw (enter it now), false on
 * its first (mark it: a glyph drawn once per location, the common case when a location is new,
 * costs no cache work) or when there is no room. Allocates the marks at the first call and the
 * slots at the first entry; if either fails the location runs without the cache. */
static OTV_NOINLINE bool gc_second(otv_glyf_loc *c, uint32_t gid)
{
  if (c->gc_failed || c->gc_full) return false;
  if (!c->gc_seen) {
    c->gc_seen = otv_mem_calloc(c->x.al, ((size_t)c->g->glyph_count + 7) / 8, 1);
    if (!c->gc_seen) {
      c->gc_failed = true;
      return false;
    }
  }
  uint8_t *b = &c->gc_seen[gid >> 3], bit = (uint8_t)(1u << (gid & 7));
  if (!(*b & bit)) {
    *b |= bit;
    return false;
  }
  if (!c->gc_slots) {
    uint32_t slots = 64; /* the power of two at or above the glyph count, 64..4096 */
    while (slots < OTV_GLYF_GC_SLOTS && slots < c->g->glyph_count) slots *= 2;
    c->gc_slots = otv_mem_calloc(c->x.al, slots, sizeof *c->gc_slots);
    if (!c->gc_slots) {
      c->gc_failed = true;
      return false;
    }
    c->gc_mask = slots - 1;
    c->gc_used = 0;
  }
  return true;
}

/* Draw glyph gid from the cache: true when drawn, false: draw it the usual way. */
static bool gc_draw(otv_glyf_loc *c, uint32_t gid, const otv_pen *pen, void *ctx)
{
  struct otv_glyf_gent *e = c->gc_slots ? &c->gc_slots[gid & c->gc_mask] : NULL;
  if (!e || e->gid1 != gid + 1) {
    if (!gc_second(c, gid)) return false;
    e = &c->gc_slots[gid & c->gc_mask];
    if (e->gid1 != 0 || !gc_fill(c, gid, e)) return false;
  }
  if (e->off == UINT32_MAX) return false;
  const uint8_t *q = c->gc_mem + e->off;
  uint32_t hdr[4];
  memcpy(hdr, q, 16);
  unsigned nc = hdr[1], m = hdr[2], stride = hdr[3]; /* hdr[0] (np): the contour ends say it */
  /* the work of a draw from the cache: points x (tuples + 1); past the budget the glyph is
   * drawn the usual way, which reports it */
  if (!otv_budget_charge(c->x.work, OTV_WORK_GLYPH_LOAD + (uint64_t)stride * (m + 1))) return false;
  if (!reserve_pts(c, (size_t)stride + 4)) return false;
  const otv_gvar_tup *tup = (const otv_gvar_tup *)(const void *)(q + 16);
  const otv_point *p0 = (const otv_point *)(const void *)(q + 16 + (size_t)m * sizeof *tup);
  const otv_point *dd = p0 + stride;
  if (!otv_gvar_apply_cached(&c->gv, tup, m, p0, dd, stride, c->pts)) return false;
  const uint8_t *r = (const uint8_t *)(dd + (size_t)m * stride);
  const uint16_t *ends = (const uint16_t *)(const void *)r;
  emit(c->pts, r + nc * sizeof(uint16_t), ends, nc, pen, ctx);
  return true;
}

otv_status otv_glyf_outline(otv_glyf_loc *c, uint32_t gid, unsigned flags, const otv_pen *pen,
                            void *ctx)
{
  if (!c->gc_off && !(flags & OTV_OUTLINE_ROUND) && c->g->present && gc_draw(c, gid, pen, ctx))
    return OTV_E_OK;
  otv_status s = load_top(c, gid, flags, false);
  if (s) return s;
  emit(c->pts, c->tags, c->ends, c->n_ends, pen, ctx);
  return OTV_E_OK;
}

otv_status otv_glyf_points(otv_glyf_loc *c, uint32_t gid, unsigned flags, otv_glyph_points *io)
{
  otv_status s = load_top(c, gid, flags, true);
  if (s) return s;

  unsigned n = c->n_pts - 4;
  io->point_count = n;
  io->contour_count = c->n_ends;
  io->glyph_flags = c->glyph_flags;
  if (io->point_cap < c->n_pts || !io->points || io->contour_cap < c->n_ends ||
      (c->n_ends && !io->contour_ends))
    return OTV_E_SMALL_BUFFER;
  memcpy(io->points, c->pts, c->n_pts * sizeof(otv_point));
  if (io->point_flags) /* tags hold the glyf flag bytes: keep ON_CURVE_POINT */
    for (unsigned i = 0; i < c->n_pts; i++) io->point_flags[i] = c->tags[i] & ON_CURVE_POINT;
  if (c->n_ends) memcpy(io->contour_ends, c->ends, c->n_ends * sizeof(uint16_t));
  return OTV_E_OK;
}

otv_status otv_glyf_load_default(otv_glyf_loc *c, uint32_t gid)
{
  if (gid >= c->g->glyph_count)
    return OTV_FAIL(c->x.err, ARG, 0, 0, "glyph %u: the font has %u glyphs", gid,
                    c->g->glyph_count);
  c->gc_no_gvar = true; /* load_simple leaves the default coordinates */
  otv_status s = load_top(c, gid, 0, false);
  c->gc_no_gvar = false;
  if (!s && !c->last_simple)
    return OTV_FAIL(c->x.err, ARG, OTV_T_GLYF, 0, "glyph %u: composite", gid);
  return s;
}

otv_status otv_glyf_phantoms(otv_glyf_loc *c, uint32_t gid, otv_point ph[4])
{
  if (gid >= c->g->glyph_count)
    return OTV_FAIL(c->x.err, ARG, 0, 0, "glyph %u: the font has %u glyphs", gid,
                    c->g->glyph_count);
  otv_status s = load_top(c, gid, 0, true);
  if (s) return s;
  memcpy(ph, c->pts + c->n_pts - 4, 4 * sizeof(otv_point));
  return OTV_E_OK;
}

/*
 * charstring.c - the Type 2 charstring interpreter for 'CFF ' and CFF2 glyphs.
 * Spec: Adobe TN 5177 (Type 2 Charstring Format) and OpenType "CFF2 Charstring Format".
 *
 * One interpreter for both flavours. CFF2 differences: no width, no endchar/return (a charstring
 * or subroutine ends with its data), operand stack of 513, vsindex and blend. CFF differences:
 * the optional width operand before the first stack-clearing operator, endchar (with seac),
 * return, the arithmetic / storage / conditional operators (TN 5177 4.4-4.6, with a 32-element
 * transient array and a deterministic random), operand stack of 48. Points leave through the
 * FontMatrix transform (cff.c) when it is not the identity in font units.
 *
 * Blend is a dot product with per-vsindex scalars computed once per location (otv_cff_vs_scalars,
 * below). Operators are the names of cff_data.h, operands decoded by its helpers. Every loop
 * is bounded by the data; subroutine calls by OTV_MAX_SUBR_DEPTH, and the whole glyph by a
 * budget of subroutine bytes entered (nested subroutines could otherwise multiply the work).
 * Errors name the table and the byte offset inside it. CFF2 subroutines and glyphs are decoded
 * once per location into operand runs and operators and replayed from there (sub_decode): the
 * decoded form does not depend on the coordinates.
 */
#include "charstring.h"

#if OTV_SSE2
#  include <emmintrin.h>
#endif

/* Subroutine bytes entered per glyph. Type 2 has no jumps, so a glyph interprets at most its own
 * bytes plus the bytes of the subroutines it calls: charging each call with the callee's length
 * bounds the whole work (nested calls could otherwise multiply it without bound). Real glyphs
 * call a few kilobytes; HarfBuzz stops at 10000 operators. */
#define CS_MAX_SUBR_BYTES 400000u

/* Compiled glyphs (comp_build): recording limits. */
#define CS_COMP_MAX_VS 8         /* vsindexes one glyph may use */
#define CS_COMP_MAX_REGIONS 64   /* regions with deltas */
#define CS_COMP_MAX_COORDS 4096u /* coordinates (2 per point) */
#define CS_COMP_MAX_SEGS 2048u   /* segments (move, line, curve): one point each at least */
#define CS_COMP_MAX_CTL 512u     /* control values */
/* A glyph is compiled on its draw after T interpreted ones (otv_cff_loc.comp_draws). Compiling
 * runs the interpreter 1 + R times (R regions with deltas) to save ~2/3 of a draw each time
 * after: it pays back only after ~1.5 (1 + R) draws, so T grows with the font's regions: T =
 * max(CS_COMP_DRAWS, (1 + K) + (1 + K) / 4), K the most regions one ItemVariationData has
 * (a blend's k): 4 for Source Sans 3 and Cantarell (K = 2), 11 for Source Serif 4 (K = 8,
 * where compiling costs ~9 draws: at 4 a location drawing each glyph 5-12 times paid more
 * than it saved). A glyph drawn at a few locations (a page shown at one or a few settings) is
 * never compiled. Until then the glyph's state (otv_cff_loc.comp) counts its draws down from
 * UINT32_MAX: UINT32_MAX - k after k draws, far above any cell index + 2 (the arena has at
 * most CS_MAX_CELLS cells). */
#define CS_COMP_DRAWS 4u
#define CS_COMP_MAX_DRAWS 64u
#define CS_COMP_COUNTED (UINT32_MAX - CS_COMP_MAX_DRAWS)
enum { CS_SEG_MOVE, CS_SEG_LINE, CS_SEG_CURVE };
#define CS_COMP_FLOAT 0x80000000u /* compiled coordinates stored as floats (exact) */
#define CS_COMP_I16 0x40000000u   /* compiled coordinates stored as int16 (integers) */

typedef struct cs_frame {
  const uint8_t *p, *end;
  const otv_cs_cell *it, *it_end; /* replaying a decoded subroutine (it != NULL) */
} cs_frame;

/* A subroutine INDEX and the cache slot of its subroutine 0. */
typedef struct cs_subrs {
  const otv_cff_index *ix;
  const uint32_t *offs; /* its offsets decoded (otv_cff.offs_block; NULL: from the INDEX) */
  size_t slot;
} cs_subrs;

typedef struct cs {
  otv_cff_loc *l; /* the location's state: where errors go, its caches */
  const otv_cff *c;
  otv_cs_sink *out;
  uint32_t gid;
  double x, y;       /* current point (before translation) */
  const double *xf;  /* charstring space -> output: FontMatrix in font units, and the seac
                     * accent offset (NULL: identity, the usual case) */
  double xf_seac[6]; /* the composed transform of a seac accent */
  unsigned max;
  unsigned nstems;
  bool width_done;
  bool cff2;
  bool plain;   /* drawing to a pen with both segment callbacks, no transform, not recording:
               * line_to and curve_to take their short path (run_glyph) */
  bool zero;    /* blend scalars all zero */
  bool vs_zero; /* the current vsindex's scalars are all zero (or it has no regions) */
  const double *vs_all;
  const double *vs;     /* scalars of the current vsindex */
  const uint8_t *vs_nz; /* per vsindex: a scalar is not 0 (with vs_all) */
  unsigned vs_k;
  cs_subrs subrs[2];  /* callgsubr's, callsubr's (the glyph's Font DICT) */
  otv_cff_loc *cache; /* decoded-subroutine cache (NULL: none) */
  bool seac;
  double seac_args[4];
  uint32_t rnd;           /* random state (CFF), seeded per charstring run */
  uint32_t transient_set; /* bit i: transient[i] was put */
  double transient[32];   /* TN 5177 Appendix B: 32 transient array elements */
  /* compiling a glyph (comp_build): segments are recorded (kind, transformed double points)
   * instead of drawn, and the values that steer the control flow (subroutine numbers, blend
   * counts, vsindex, flex1's test) are recorded to be compared between runs */
  double *rec; /* coordinates (NULL: drawing, the usual case) */
  unsigned rec_n, nk, nctl;
  uint8_t *kinds;
  double *ctl;
  bool rec_bad;        /* a buffer overflowed: not compilable */
  uint64_t rec_dhash;  /* hash of the blends' delta operands (rec_deltas) */
  uint32_t subr_bytes; /* subroutine bytes a finished run entered (its work, run_glyph) */
  unsigned n_used_vs;
  uint16_t used_vs[CS_COMP_MAX_VS]; /* vsindexes set during the run */
  /* double: 16.16 operands and sums stay exact; 4 more for the four-wide copies of decoded
   * operand runs */
  double st[OTV_MAX_STACK_CFF2 + OTV_CS_CELL_SLACK];
} cs;

/* ---- output ---- */

/* line_to and curve_to inlined into the operators: -3 % instructions on Source Sans 3 */
#define CS_INLINE inline __attribute__((always_inline))

/* Output point: through the transform when there is one (OTV_OUTLINE_ROUND does not round
 * here: see blend). */
static inline void opt(const cs *s, double x, double y, float *ox, float *oy)
{
  if (s->xf) {
    const double *m = s->xf;
    double x2 = m[0] * x + m[2] * y + m[4];
    y = m[1] * x + m[3] * y + m[5];
    x = x2;
  }
  *ox = (float)x;
  *oy = (float)y;
}

static otv_status put_point(cs *s, float x, float y, uint8_t flag)
{
  otv_cs_sink *o = s->out;
  otv_glyph_points *io = o->io;
  if (o->points >= OTV_MAX_POINTS)
    return otv_fail(s->l->x.err, OTV_E_LIMIT, s->c->tag, 0, "glyph %u: more than %u points", s->gid,
                    OTV_MAX_POINTS);
  if (io && o->points < io->point_cap && io->points) {
    io->points[o->points].x = x;
    io->points[o->points].y = y;
    if (io->point_flags) io->point_flags[o->points] = flag;
  }
  o->points++;
  return OTV_E_OK;
}

static void sink_close(otv_cs_sink *o)
{
  if (!o->open) return;
  o->open = false;
  if (o->pen) {
    if (o->last_x != o->start_x || o->last_y != o->start_y) {
      if (o->pen->line_to) o->pen->line_to(o->ctx, o->start_x, o->start_y);
    }
    if (o->pen->close_path) o->pen->close_path(o->ctx);
    return;
  }
  otv_glyph_points *io = o->io;
  /* FreeType's convention: a last point equal to the first (always on-curve here) is dropped */
  if (o->points - o->contour_first > 1 && o->last_x == o->start_x && o->last_y == o->start_y)
    o->points--;
  if (o->contours < io->contour_cap && io->contour_ends)
    io->contour_ends[o->contours] = (uint16_t)(o->points - 1);
  o->contours++;
}

static otv_status sink_open(cs *s)
{
  otv_cs_sink *o = s->out;
  if (o->open) return OTV_E_OK;
  o->open = true;
  o->last_x = o->start_x;
  o->last_y = o->start_y;
  if (o->pen) {
    if (o->pen->move_to) o->pen->move_to(o->ctx, o->start_x, o->start_y);
    return OTV_E_OK;
  }
  o->contour_first = o->points;
  return put_point(s, o->start_x, o->start_y, OTV_POINT_ON_CURVE);
}

/* ---- recording (compiling a glyph) ---- */

static __attribute__((noinline)) void rec_seg(cs *s, unsigned kind, const double *xy, unsigned npts)
{
  if (s->nk >= CS_COMP_MAX_SEGS || s->rec_n + 2 * npts > CS_COMP_MAX_COORDS) {
    s->rec_bad = true;
    return;
  }
  s->kinds[s->nk++] = (uint8_t)kind;
  for (unsigned i = 0; i < npts; i++) {
    double x = xy[2 * i], y = xy[2 * i + 1];
    if (s->xf) {
      const double *m = s->xf;
      double x2 = m[0] * x + m[2] * y + m[4];
      y = m[1] * x + m[3] * y + m[5];
      x = x2;
    }
    s->rec[s->rec_n++] = x;
    s->rec[s->rec_n++] = y;
  }
}

static __attribute__((noinline)) void ctl_put(cs *s, double v)
{
  if (s->nctl >= CS_COMP_MAX_CTL) {
    s->rec_bad = true;
    return;
  }
  s->ctl[s->nctl++] = v;
}
/* The delta operands of a blend, hashed (comp_build): a glyph is affine in the scalars only
 * when every delta operand is the same in every recording run. A delta operand that is itself a
 * blend's result (CFF2 allows it) makes the outline quadratic in the scalars: its hash differs
 * between runs and the glyph stays with the interpreter. */
static __attribute__((noinline)) void rec_deltas(cs *s, const double *d, unsigned count)
{
  uint64_t h = s->rec_dhash;
  for (unsigned i = 0; i < count; i++) {
    uint64_t b;
    memcpy(&b, &d[i], sizeof b);
    h = (h ^ b) * 0x100000001b3u; /* FNV-1a over the doubles' bits */
  }
  s->rec_dhash = h;
}

/* a control value recorded (comp_build). In run_impl: only its instance with the replay
 * records (run: recording runs take it), run_bytes tests nothing per blend or callsubr */
#define CS_CTL_RUN(s, v)                                                                           \
  do {                                                                                             \
    if (cached && (s)->rec) ctl_put((s), (v));                                                     \
  } while (0)

static void move_to(cs *s, double x, double y)
{
  otv_cs_sink *o = s->out;
  if (s->rec) {
    double xy[2] = {x, y};
    s->x = x, s->y = y;
    rec_seg(s, CS_SEG_MOVE, xy, 1);
    return;
  }
  sink_close(o);
  s->x = x;
  s->y = y;
  opt(s, x, y, &o->start_x, &o->start_y);
}

static CS_INLINE otv_status line_to(cs *s, double x, double y)
{
  otv_cs_sink *o = s->out;
  if (s->plain) {                     /* one test instead of four per segment */
    if (!o->open) (void)sink_open(s); /* pen mode: no error */
    s->x = x;
    s->y = y;
    float fx = (float)x, fy = (float)y;
    o->last_x = fx;
    o->last_y = fy;
    o->pen->line_to(o->ctx, fx, fy);
    return OTV_E_OK;
  }
  if (s->rec) {
    double xy[2] = {x, y};
    s->x = x, s->y = y;
    rec_seg(s, CS_SEG_LINE, xy, 1);
    return OTV_E_OK;
  }
  otv_status st = sink_open(s);
  if (st) return st;
  s->x = x;
  s->y = y;
  float ox, oy;
  opt(s, x, y, &ox, &oy);
  o->last_x = ox;
  o->last_y = oy;
  if (o->pen) {
    if (o->pen->line_to) o->pen->line_to(o->ctx, ox, oy);
    return OTV_E_OK;
  }
  return put_point(s, ox, oy, OTV_POINT_ON_CURVE);
}

static CS_INLINE otv_status curve_to(cs *s, double x1, double y1, double x2, double y2, double x3,
                                     double y3)
{
  otv_cs_sink *o = s->out;
  if (s->plain) {
    if (!o->open) (void)sink_open(s);
    s->x = x3;
    s->y = y3;
    float e = (float)x3, f = (float)y3;
    o->last_x = e;
    o->last_y = f;
    o->pen->cubic_to(o->ctx, (float)x1, (float)y1, (float)x2, (float)y2, e, f);
    return OTV_E_OK;
  }
  if (s->rec) {
    double xy[6] = {x1, y1, x2, y2, x3, y3};
    s->x = x3, s->y = y3;
    rec_seg(s, CS_SEG_CURVE, xy, 3);
    return OTV_E_OK;
  }
  otv_status st = sink_open(s);
  if (st) return st;
  s->x = x3;
  s->y = y3;
  float a, b, c, d, e, f;
  opt(s, x1, y1, &a, &b);
  opt(s, x2, y2, &c, &d);
  opt(s, x3, y3, &e, &f);
  o->last_x = e;
  o->last_y = f;
  if (o->pen) {
    if (o->pen->cubic_to) o->pen->cubic_to(o->ctx, a, b, c, d, e, f);
    return OTV_E_OK;
  }
  if ((st = put_point(s, a, b, OTV_POINT_CUBIC))) return st;
  if ((st = put_point(s, c, d, OTV_POINT_CUBIC))) return st;
  return put_point(s, e, f, OTV_POINT_ON_CURVE);
}

/* ---- operators ---- */

#define TRY(x)                                                                                     \
  do {                                                                                             \
    otv_status t_ = (x);                                                                           \
    if (t_) return t_;                                                                             \
  } while (0)

/* A curve from the current point with relative offsets. */
static otv_status rcurve(cs *s, double dxa, double dya, double dxb, double dyb, double dxc,
                         double dyc)
{
  double x1 = s->x + dxa, y1 = s->y + dya;
  double x2 = x1 + dxb, y2 = y1 + dyb;
  return curve_to(s, x1, y1, x2, y2, x2 + dxc, y2 + dyc);
}

/* hvcurveto / vhcurveto: curves alternating between horizontal and vertical tangents; the last
 * one takes an optional fifth operand. */
static CS_INLINE otv_status alt_curves(cs *s, unsigned sp, bool h)
{
  unsigned i = 0;
  const double *a = s->st;
  while (sp - i >= 4) {
    double extra = (sp - i == 5) ? a[i + 4] : 0.0;
    if (h) {
      double x1 = s->x + a[i], y1 = s->y;
      double x2 = x1 + a[i + 1], y2 = y1 + a[i + 2];
      TRY(curve_to(s, x1, y1, x2, y2, x2 + extra, y2 + a[i + 3]));
    } else {
      double x1 = s->x, y1 = s->y + a[i];
      double x2 = x1 + a[i + 1], y2 = y1 + a[i + 2];
      TRY(curve_to(s, x1, y1, x2, y2, x2 + a[i + 3], y2 + extra));
    }
    i += 4;
    h = !h;
  }
  return OTV_E_OK;
}

/* The optional CFF width operand: true (and drop it) when this is the first stack-clearing
 * operator and the operand count says there is one more than the operator takes. */
static unsigned width_base(cs *s, bool extra)
{
  if (s->cff2 || s->width_done) return 0;
  s->width_done = true;
  return extra ? 1 : 0;
}

static otv_status fail_at(cs *s, const uint8_t *at, otv_status code, const char *what)
{
  return otv_fail(s->l->x.err, code, s->c->tag, (uint64_t)(at - s->c->tab.p), "glyph %u: %s",
                  s->gid, what);
}

static void set_vsindex(cs *s, unsigned vsindex)
{
  const otv_cff *c = s->c;
  if (s->rec) {
    unsigned i = 0;
    while (i < s->n_used_vs && s->used_vs[i] != vsindex) i++;
    if (i == s->n_used_vs) {
      if (i < CS_COMP_MAX_VS)
        s->used_vs[s->n_used_vs++] = (uint16_t)vsindex;
      else
        s->rec_bad = true;
    }
  }
  s->vs_k = c->ivs.data[vsindex].region_index_count;
  s->vs = s->vs_all && !s->zero ? s->vs_all + c->vs_off[vsindex] : NULL;
  /* blend adds nothing when every region of this ItemVariationData is inactive here (e.g. the
   * other side of a one-axis font's default): flagged once per location (otv_cff_vs_scalars),
   * not per blend */
  s->vs_zero = !s->vs || !s->vs_nz[vsindex];
}

/* Values of the 1-byte operands 32..246 (otv_cff_int1: b0 - 139), read from a table: one load
 * instead of a subtraction and an int-to-double conversion per operand. */
/* clang-format off */
#define OB4(b) (b) - (double)OTV_CFF_INT1_BIAS, (b) + 1 - (double)OTV_CFF_INT1_BIAS, \
               (b) + 2 - (double)OTV_CFF_INT1_BIAS, (b) + 3 - (double)OTV_CFF_INT1_BIAS
/* clang-format on */
#define OB16(b) OB4(b), OB4((b) + 4), OB4((b) + 8), OB4((b) + 12)
static const double one_byte[256] = {
    OB16(0),   OB16(16),  OB16(32),  OB16(48),  OB16(64),  OB16(80),  OB16(96),  OB16(112),
    OB16(128), OB16(144), OB16(160), OB16(176), OB16(192), OB16(208), OB16(224), OB16(240)};
#undef OB16
#undef OB4

/* otv_cff_int2 without a branch on the sign (b0 247..254): the sign of a 2-byte operand (a blend
 * delta, a coordinate offset) follows the data, not a pattern a predictor learns. */
static OTV_ALWAYS_INLINE int cs_int2(unsigned b0, unsigned b1)
{
  int t = (int)((b0 - OTV_CFF_POS2_FIRST) & 3u) * 256 + (int)b1 + OTV_CFF_INT2_BIAS;
  int m = -(int)(b0 >= OTV_CFF_NEG2_FIRST);
  return (t ^ m) - m;
}

/* Type 2 random (TN 5177 section 4.4: "a pseudo random number in the range (0, 1]"): xorshift32
 * seeded per charstring run from the glyph id, so that a glyph always draws the same outline
 * (and a face shared by threads has no generator state): the top 24 bits r give (r + 1) / 2^24.
 */
static double cs_random(cs *s)
{
  uint32_t x = s->rnd;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  s->rnd = x;
  return (double)((x >> 8) + 1u) / 16777216.0;
}

#define CS_SEED_MUL 2654435761u /* random's seed per glyph (run_glyph) */
#define CS_SEED_XOR 0x9e3779b9u

/* Largest magnitude an arithmetic result may have: far beyond any coordinate (Type 2 numbers
 * are 16.16), small enough that sums of such values stay exact enough and finite. */
#define CS_ARITH_MAX 1073741824.0

/* The Type 2 arithmetic, storage and conditional operators (TN 5177 sections 4.4 to 4.6),
 * CFF (v1) only. Cases the spec leaves undefined are errors: division by zero, the square root
 * of a negative number, an index or roll count beyond the stack, a transient array index out
 * of 0..31, and results beyond CS_ARITH_MAX (repeated mul could otherwise reach infinity).
 * A get before any put of that element returns 0 (undefined in the spec). */
static otv_status arith(cs *s, int op, unsigned *spp, const uint8_t *at)
{
  double *st = s->st;
  unsigned sp = *spp;
  /* operands each takes, by escape byte (op - OTV_CFF_ESC(0)) */
#define ESC_BYTE(op) ((op)-OTV_CFF_ESC(0))
  static const uint8_t need[ESC_BYTE(OTV_CS_ROLL) + 1] = {
      [ESC_BYTE(OTV_CS_AND)] = 2,    [ESC_BYTE(OTV_CS_OR)] = 2,     [ESC_BYTE(OTV_CS_NOT)] = 1,
      [ESC_BYTE(OTV_CS_ABS)] = 1,    [ESC_BYTE(OTV_CS_ADD)] = 2,    [ESC_BYTE(OTV_CS_SUB)] = 2,
      [ESC_BYTE(OTV_CS_DIV)] = 2,    [ESC_BYTE(OTV_CS_NEG)] = 1,    [ESC_BYTE(OTV_CS_EQ)] = 2,
      [ESC_BYTE(OTV_CS_DROP)] = 1,   [ESC_BYTE(OTV_CS_PUT)] = 2,    [ESC_BYTE(OTV_CS_GET)] = 1,
      [ESC_BYTE(OTV_CS_IFELSE)] = 4, [ESC_BYTE(OTV_CS_RANDOM)] = 0, [ESC_BYTE(OTV_CS_MUL)] = 2,
      [ESC_BYTE(OTV_CS_SQRT)] = 1,   [ESC_BYTE(OTV_CS_DUP)] = 1,    [ESC_BYTE(OTV_CS_EXCH)] = 2,
      [ESC_BYTE(OTV_CS_INDEX)] = 1,  [ESC_BYTE(OTV_CS_ROLL)] = 2};
  if (sp < need[ESC_BYTE(op)])
    return fail_at(s, at, OTV_E_BAD_VALUE, "arithmetic operator: stack underflow");
#undef ESC_BYTE
  double r;
  switch (op) {
  case OTV_CS_AND: r = (st[sp - 2] != 0 && st[sp - 1] != 0) ? 1 : 0, sp -= 2; break;
  case OTV_CS_OR: r = (st[sp - 2] != 0 || st[sp - 1] != 0) ? 1 : 0, sp -= 2; break;
  case OTV_CS_NOT: r = st[sp - 1] == 0 ? 1 : 0, sp -= 1; break;
  case OTV_CS_ABS: r = fabs(st[sp - 1]), sp -= 1; break;
  case OTV_CS_ADD: r = st[sp - 2] + st[sp - 1], sp -= 2; break;
  case OTV_CS_SUB: r = st[sp - 2] - st[sp - 1], sp -= 2; break;
  case OTV_CS_DIV:
    if (st[sp - 1] == 0) return fail_at(s, at, OTV_E_BAD_VALUE, "div by zero");
    r = st[sp - 2] / st[sp - 1], sp -= 2;
    break;
  case OTV_CS_NEG: r = -st[sp - 1], sp -= 1; break;
  case OTV_CS_EQ: r = st[sp - 2] == st[sp - 1] ? 1 : 0, sp -= 2; break;
  case OTV_CS_DROP: *spp = sp - 1; return OTV_E_OK;
  case OTV_CS_PUT: /* val i */
  case OTV_CS_GET: /* i */
  {
    double i = st[sp - 1];
    if (!(i >= 0 && i < 32)) return fail_at(s, at, OTV_E_BAD_VALUE, "put/get: index not 0..31");
    unsigned k = (unsigned)i;
    if (op == OTV_CS_PUT) {
      s->transient[k] = st[sp - 2];
      s->transient_set |= 1u << k;
      *spp = sp - 2;
      return OTV_E_OK;
    }
    r = (s->transient_set >> k & 1u) ? s->transient[k] : 0.0, sp -= 1;
    break;
  }
  case OTV_CS_IFELSE: /* s1 s2 v1 v2 -> v1 <= v2 ? s1 : s2 */
    r = st[sp - 2] <= st[sp - 1] ? st[sp - 4] : st[sp - 3], sp -= 4;
    break;
  case OTV_CS_RANDOM: r = cs_random(s); break;
  case OTV_CS_MUL: r = st[sp - 2] * st[sp - 1], sp -= 2; break;
  case OTV_CS_SQRT:
    if (st[sp - 1] < 0) return fail_at(s, at, OTV_E_BAD_VALUE, "sqrt of a negative number");
    r = sqrt(st[sp - 1]), sp -= 1;
    break;
  case OTV_CS_DUP: r = st[sp - 1]; break;
  case OTV_CS_EXCH: r = st[sp - 2], st[sp - 2] = st[sp - 1], sp -= 1; break;
  case OTV_CS_INDEX: /* numX .. num0 i -> numX .. num0 num_i; i < 0 copies the top */
  {
    double i = st[sp - 1];
    sp -= 1;                          /* the elements num0.. are below i */
    if (sp == 0 || !(i < (double)sp)) /* also: nothing below i to copy */
      return fail_at(s, at, OTV_E_BAD_VALUE, "index: beyond the stack");
    r = i < 0 ? st[sp - 1] : st[sp - 1 - (unsigned)i];
    break;
  }
  case OTV_CS_ROLL: /* num(N-1) .. num0 N J: circular shift by J, positive J upward */
  {
    double nd = st[sp - 2], jd = st[sp - 1];
    sp -= 2;
    if (!(nd >= 0 && nd <= (double)sp) || !(jd > -1e9 && jd < 1e9))
      return fail_at(s, at, OTV_E_BAD_VALUE, "roll: bad count");
    unsigned n = (unsigned)nd;
    *spp = sp;
    if (n < 2) return OTV_E_OK;
    long j = (long)jd % (long)n; /* upward by j == downward by n - j */
    if (j < 0) j += (long)n;
    /* element num_m (m from the top, 0-based) moves to num_((m + j) mod n): rotate the block
     * st[sp-n .. sp-1] (bottom to top) towards the top by j, through the reverse trick */
    double *b = st + (sp - n);
    unsigned jj = (unsigned)j;
    for (unsigned a = 0, z = n - 1; a < z; a++, z--) {
      double t = b[a];
      b[a] = b[z];
      b[z] = t;
    }
    for (unsigned a = 0, z = jj - 1; jj && a < z; a++, z--) {
      double t = b[a];
      b[a] = b[z];
      b[z] = t;
    }
    for (unsigned a = jj, z = n - 1; a < z; a++, z--) {
      double t = b[a];
      b[a] = b[z];
      b[z] = t;
    }
    return OTV_E_OK;
  }
  default: return fail_at(s, at, OTV_E_BAD_VALUE, "reserved escaped operator");
  }
  if (!(fabs(r) <= CS_ARITH_MAX)) return fail_at(s, at, OTV_E_LIMIT, "arithmetic result too large");
  if (sp >= s->max) return fail_at(s, at, OTV_E_LIMIT, "operand stack overflow");
  st[sp++] = r;
  *spp = sp;
  return OTV_E_OK;
}

/* ---- decoded-subroutine cache (CFF2) ----
 * Source Sans 3 and Cantarell interpret three quarters of their bytes in subroutines, each
 * called 12-14 times per location: decoding a subroutine once (operands to doubles, operators
 * located) turns operand decoding into copies, with no data-dependent branch per byte. Glyphs
 * are decoded too, on their second draw (a glyph is drawn once per location by a benchmark, many
 * times by an animation). Blend stays at run time, so the cache does not depend on the
 * coordinates. Subroutines and glyphs with hintmask/cntrmask (their mask length depends on the
 * stems counted at run time) or bytes that do not decode are interpreted from their bytes, as
 * are those past the arena's capacity: errors keep their offsets and messages. */

/* Arena cells at most (8 bytes each: 4 MiB). A subroutine or glyph of len bytes takes at most
 * 2 len + 2 cells (each operand or operator takes a byte at least; an item is 2 header cells).
 * The arena starts at CS_FIRST_CELLS (128 KiB) and doubles up to its bound (cell_bound: the
 * font's subroutines and glyphs, at most CS_MAX_CELLS, or less by otv_options): a decode that
 * finds no room below the bound asks for more (cell_want) and is retried at a later call; the
 * arena grows at the start of the next outline call (cells_grow), when no replay holds a pointer
 * into it (items are referred to by index). */
#define CS_MAX_CELLS 524288u
#define CS_FIRST_CELLS 16384u

static void sub_cache_setup(otv_cff_loc *l, const otv_cff *c)
{
  l->sub_tried = true;
  if (!c->cff2 || c->tab.len >= UINT32_MAX || l->sub_off) return; /* cells: 32-bit offsets */
  size_t slots = c->gsubrs.count;
  size_t cells = 2u * ((size_t)c->gsubrs.data_len + c->gsubrs.count);
  for (uint32_t i = 0; i < c->fd_count; i++) {
    slots += c->fds[i].subrs.count;
    cells += 2u * ((size_t)c->fds[i].subrs.data_len + c->fds[i].subrs.count);
  }
  /* the glyphs too (decoded on a glyph's second draw): replaying decoded operand runs takes
   * about as many instructions as decoding the bytes, but without the data-dependent branch per
   * operand byte (1-byte, 2-byte, operator), which is where the time goes on this code:
   * Source Sans 3 +17 %, Source Serif 4 +11 % glyphs/s (CPU time) at the same instructions */
  l->glyph_slot = slots;
  slots += c->charstrings.count;
  cells += 2u * ((size_t)c->charstrings.data_len + c->charstrings.count);
  if (slots == 0) return;
  size_t want = cells;
  if (cells > CS_MAX_CELLS) cells = CS_MAX_CELLS;
  if (l->cells_max && cells > l->cells_max) cells = l->cells_max; /* otv_options */
  /* the bound is below what the font's decoded forms may take (Source Serif 4: 2.8 M cells
   * for a bound of 0.5 M): compiled glyphs in their narrowest form (comp_build) */
  l->comp_narrow = cells < want;
  if (cells < 16) return; /* a bound too small to hold anything: no cache */
  l->sub = otv_mem_calloc(l->x.al, slots, sizeof *l->sub);
  l->sub_fd_base = otv_mem_alloc(l->x.al, c->fd_count * sizeof *l->sub_fd_base);
  l->cell_bound = cells;
  if (cells > CS_FIRST_CELLS) cells = CS_FIRST_CELLS;
  cells += OTV_CS_CELL_SLACK;
  /* not zeroed (cells are written before they are read; the replay's eight-at-a-time copies
   * past an item's end copy values it never uses): a fresh mapping's pages are touched only
   * as the arena fills, so a location that draws a few glyphs does not pay for 4 MiB */
  l->cells = otv_mem_alloc(l->x.al, cells * sizeof *l->cells);
  l->sub_slots = slots;
  l->cell_cap = cells - OTV_CS_CELL_SLACK;
  l->cell_used = 0;
  if (!l->sub || !l->sub_fd_base || !l->cells) {
    /* optional: without it subroutines are interpreted from their bytes */
    if (l->sub) otv_mem_free(l->x.al, l->sub, slots * sizeof *l->sub);
    if (l->sub_fd_base) otv_mem_free(l->x.al, l->sub_fd_base, c->fd_count * sizeof *l->sub_fd_base);
    if (l->cells) otv_mem_free(l->x.al, l->cells, cells * sizeof *l->cells);
    l->sub = NULL;
    l->sub_fd_base = NULL;
    l->cells = NULL;
    l->sub_slots = l->cell_cap = 0;
    return;
  }
  size_t slot = c->gsubrs.count;
  for (uint32_t i = 0; i < c->fd_count; i++) {
    l->sub_fd_base[i] = (uint32_t)slot; /* slots <= total INDEX counts: fits */
    slot += c->fds[i].subrs.count;
  }
  /* compiled glyphs (comp_build): optional too */
  size_t nvs = c->ivs.present ? c->vs_off[c->ivs.data_count] : 0;
  size_t nd = c->ivs.present ? c->ivs.data_count : 0;
  size_t bytes = (2u * CS_COMP_MAX_COORDS + 2u * CS_COMP_MAX_CTL + nvs) * sizeof(double) +
                 2u * CS_COMP_MAX_SEGS + nd;
  /* comp_off: no compiled glyphs, for A/B measurements (set before the first outline) */
  if (c->charstrings.count == 0 || l->comp_off) return;
  /* set up with the rest (at a location's second pen draw of a glyph: second_draw), so that
   * every block of the caches exists once the first glyph is drawn again */
  l->comp = otv_mem_calloc(l->x.al, c->charstrings.count, sizeof *l->comp);
  l->comp_scratch = otv_mem_calloc(l->x.al, 1, bytes);
  if (!l->comp || !l->comp_scratch) {
    if (l->comp) otv_mem_free(l->x.al, l->comp, c->charstrings.count * sizeof *l->comp);
    if (l->comp_scratch) otv_mem_free(l->x.al, l->comp_scratch, bytes);
    l->comp = NULL;
    l->comp_scratch = NULL;
    return;
  }
  l->comp_count = c->charstrings.count;
  l->comp_scratch_size = bytes;
  if (!l->comp_draws) { /* 0: from the font (tests may set it before the first outline) */
    unsigned k = 0;
    for (uint32_t i = 0; c->ivs.present && i < c->ivs.data_count; i++)
      if (c->ivs.data[i].region_index_count > k) k = c->ivs.data[i].region_index_count;
    unsigned t = (1 + k) + (1 + k) / 4;
    l->comp_draws = t < CS_COMP_DRAWS       ? CS_COMP_DRAWS
                    : t > CS_COMP_MAX_DRAWS ? CS_COMP_MAX_DRAWS
                                            : t;
  }
}

/* Double the arena (up to cell_bound) at the start of an outline call, when no replay points
 * into it; if that fails it stays as it is, and stops growing. */
static void cells_grow(otv_cff_loc *l)
{
  l->cell_want = false;
  size_t cap = 2 * l->cell_cap < l->cell_bound ? 2 * l->cell_cap : l->cell_bound;
  otv_cs_cell *cells =
      otv_mem_realloc(l->x.al, l->cells, (l->cell_cap + OTV_CS_CELL_SLACK) * sizeof *l->cells,
                      (cap + OTV_CS_CELL_SLACK) * sizeof *l->cells);
  if (!cells) {
    l->cell_bound = l->cell_cap;
    return;
  }
  l->cells = cells;
  l->cell_cap = cap;
}

/* The last operand of an item as the operator cell keeps it: an integer of int16 range
 * (a blend count, a subroutine number), else CS_NO_LAST. */
#define CS_NO_LAST INT16_MIN
static int16_t cs_last(double v)
{
  if (v > -32768.0 && v < 32768.0 && v == (double)(int)v) return (int16_t)v;
  return CS_NO_LAST;
}

/* Decode subroutine `sub` into the arena: items of {operand count, offset of the first operand
 * byte}, {offset of the operator, or OTV_CS_NO_OP at the end}, then the operands. Returns the
 * slot's new state: 1 (interpret from bytes) or the first cell + 2. */
static uint32_t sub_decode(cs *s, otv_span sub, size_t slot, unsigned sp0)
{
  otv_cff_loc *l = s->cache;
  const uint8_t *t0 = s->c->tab.p;
  l->sub[slot].state = 1;
  size_t room = l->cell_cap - l->cell_used;
  if (room < 2 || sub.len > (room - 2) / 2) { /* needs 2 len + 2 cells at most */
    if (l->cell_cap >= l->cell_bound) return 1;
    l->cell_want = true; /* interpreted this time, decoded at a later call */
    return l->sub[slot].state = 0;
  }
  otv_cs_cell *first = l->cells + l->cell_used, *o = first;
  const uint8_t *p = sub.p, *end = sub.p + sub.len;
  otv_cs_cell *h = o;
  o += 2;
  uint32_t n = 0;
  /* hint masks: their length depends on the stems counted at run time, so the decoder guesses
   * it by following the stack depth and stem count from this call's entry (sp0, s->nstems);
   * the replay checks each mask's length against the guess and goes on from the bytes when they
   * differ (hintmask in run) */
  unsigned gsp = sp0, gstems = s->nstems, gk = s->vs_k;
  h->h.off = (uint32_t)(p - t0); /* the table is < 4 GiB (sub_cache_setup) */
  while (p < end) {
    if (otv_cff_is_int1(*p)) { /* in range: p < end; the common operand, from the table */
      (o++)->v = one_byte[*p++];
      n++;
      gsp++;
      continue;
    }
    int op;
    double v;
    size_t len = otv_cs_token(p, end, &op, &v);
    if (!len) return 1; /* an operand or escape cut off by the end: the interpreter reports it */
    if (op == OTV_CS_NUMBER) {
      p += len;
      (o++)->v = v;
      n++;
      gsp++;
      continue;
    }
    /* an operator: the CFF-only return/endchar stay with the byte interpreter, and so does a
     * hint mask cut off by the end */
    if (op == OTV_CS_RETURN || op == OTV_CS_ENDCHAR) return 1;
    unsigned mask = 0;
    switch (op) {
    case OTV_CS_HSTEM:
    case OTV_CS_VSTEM:
    case OTV_CS_HSTEMHM:
    case OTV_CS_VSTEMHM:
      gstems += gsp / 2;
      gsp = 0;
      break;
    case OTV_CS_HINTMASK:
    case OTV_CS_CNTRMASK: /* the operands before are vstems */
      gstems += gsp / 2;
      gsp = 0;
      mask = (gstems + 7) / 8;
      if (mask > UINT8_MAX || (size_t)(end - p - 1) < mask) return 1;
      break;
    case OTV_CS_BLEND: { /* n (k + 1) + 1 operands -> n */
      double nv = n ? o[-1].v : 0.0;
      double drop = nv >= 0 && nv < 65536.0 ? (double)(unsigned)nv * gk + 1 : (double)gsp;
      gsp = (double)gsp > drop ? gsp - (unsigned)drop : 0;
      break;
    }
    case OTV_CS_VSINDEX: {
      double vi = n ? o[-1].v : -1.0;
      if (s->c->ivs.present && vi >= 0 && vi < (double)s->c->ivs.data_count)
        gk = s->c->ivs.data[(unsigned)vi].region_index_count;
      gsp = 0;
      break;
    }
    case OTV_CS_CALLSUBR:
    case OTV_CS_CALLGSUBR: /* the number is popped (what the callee does is a guess) */
      gsp = gsp ? gsp - 1 : 0;
      break;
    default: gsp = 0; break;
    }
    h[0].h.n = n;
    h[1].o.off = (uint32_t)(p - t0);
    h[1].o.op =
        *p; /* the operator's first byte (OTV_CFF_ESCAPE when escaped): run dispatches on it */
    h[1].o.mask = (uint8_t)mask;
    h[1].o.last = n ? cs_last(o[-1].v) : CS_NO_LAST;
    p += len + mask;
    h = o;
    o += 2;
    n = 0;
    h->h.off = (uint32_t)(p - t0);
  }
  if (n) {
    h[0].h.n = n;
    h[1].o.off = OTV_CS_NO_OP;
    h[1].o.op = 0;
    h[1].o.mask = 0;
    h[1].o.last = CS_NO_LAST;
  } else {
    o -= 2; /* no operands after the last operator */
  }
  uint32_t state = (uint32_t)(first - l->cells) + 2; /* cells <= CS_MAX_CELLS: fits */
  otv_cs_slot *e = &l->sub[slot];
  e->state = state;
  e->end = (uint32_t)(o - l->cells);
  e->off = (uint32_t)(sub.p - t0);
  e->len = (uint32_t)sub.len; /* sub.len < the table: fits */
  l->cell_used = (size_t)(o - l->cells);
  return state;
}

/* Copy n operand values from decoded cells: eight at a time with no loop for the usual short
 * runs (copies past n land in the stack's slack and come from the next item or the arena's
 * slack). */
#define CS_COPY(dst, v, n)                                                                         \
  do {                                                                                             \
    uint32_t i_ = 0;                                                                               \
    do {                                                                                           \
      double a0 = v[i_].v, a1 = v[i_ + 1].v, a2 = v[i_ + 2].v, a3 = v[i_ + 3].v;                   \
      double a4 = v[i_ + 4].v, a5 = v[i_ + 5].v, a6 = v[i_ + 6].v, a7 = v[i_ + 7].v;               \
      dst[i_] = a0, dst[i_ + 1] = a1, dst[i_ + 2] = a2, dst[i_ + 3] = a3;                          \
      dst[i_ + 4] = a4, dst[i_ + 5] = a5, dst[i_ + 6] = a6, dst[i_ + 7] = a7;                      \
      i_ += 8;                                                                                     \
    } while (i_ < (n));                                                                            \
  } while (0)

/* Interpret one glyph's charstring into the sink. cached: with the decoded-subroutine cache
 * (s->cache); false compiles the interpreter without the replay (run below), which a location
 * drawing each glyph once runs: fewer live values in the loop, fewer spilled. */
static CS_INLINE otv_status run_impl(cs *s, otv_span glyph, uint32_t gid, const bool cached)
{
  cs_frame fr[OTV_MAX_SUBR_DEPTH + 1];
  unsigned depth = 0;
  const uint8_t *p = glyph.p, *end = glyph.p + glyph.len;
  double *st = s->st;
  /* hot state in locals (the stack depth): s is only touched by operators */
  unsigned sp = 0;
  const unsigned max = s->max;
  const bool round = s->out->round;
  uint32_t budget = 0;
  const otv_cs_cell *it = NULL, *it_end = NULL;
  const uint8_t *const t0 = s->c->tab.p;
  unsigned b0, item_mask = 0;
  /* the last 1-byte operand decoded (its byte) and the last 2-byte one (its value): blend's
   * count and a subroutine number are usually the operand just decoded, known at once from
   * its bytes where converting the double from the stack waits for the load and the
   * conversion; each use checks it against the value on the stack (a stale one takes the
   * general way) */
  unsigned lastb = OTV_CFF_INT1_BIAS;
  int last2 = 0;
  otv_cff_loc *gl = cached ? s->cache : NULL;
  /* the glyph's own decoded items: decoded on its second draw (end = 1 marks the first), unless
   * it is to be compiled (pen drawing, not rounded: otv_cs_run), which then replaces them: its
   * interpreted draws until then read its bytes, and the arena keeps room for the compiled form
   * (subroutines are decoded in any case) */
  if (gl && !s->rec &&
      !(gl->comp && gid < gl->comp_count && gl->comp[gid] != 1 && s->out->pen && !s->out->round)) {
    otv_cff_loc *l = gl;
    size_t slot = l->glyph_slot + gid; /* in range: gid < CharStrings count (run_glyph) */
    otv_cs_slot *e = &l->sub[slot];
    uint32_t state = e->state;
    if (state == 0) {
      if (e->end == 0)
        e->end = 1;
      else
        state = sub_decode(s, glyph, slot, 0);
    }
    if (state >= 2) it = l->cells + (state - 2), it_end = l->cells + e->end;
  }
  for (;;) {
    if (it) {
      /* replaying a decoded subroutine: an operand run, then its operator (see sub_decode) */
      if (it == it_end) {
        if (depth == 0) break; /* the end of the glyph's own items */
        depth--;
        p = fr[depth].p, end = fr[depth].end;
        it = fr[depth].it, it_end = fr[depth].it_end;
        continue;
      }
      uint32_t n = it[0].h.n, op = it[1].o.off;
      b0 = it[1].o.op;
      item_mask = it[1].o.mask;
      /* the run's last operand as an integer (sub_decode), for blend and callsubr, as the byte
       * interpreter's last2 */
      last2 = it[1].o.last;
      const otv_cs_cell *v = it + 2;
      if (n) { /* items without operands (an operator after a blend) skip all this */
        if (n > max - sp) {
          /* the stack overflows in this run: interpret the rest of the subroutine from its
           * bytes, which fails at the same byte with the same error */
          p = t0 + it[0].h.off;
          it = NULL;
          continue;
        }
        if (b0 == OTV_CS_BLEND) {
          /* a blend whose count and deltas are all in this run (the usual case): the deltas
           * are read from the arena instead of being copied to the stack first. The same
           * arithmetic as blend below, on the same values; anything else (bases short, a count
           * that does not fit) goes the general way and fails there as it would from the
           * bytes. */
          double nv = v[n - 1].v;
          CS_CTL_RUN(s, nv);
          unsigned k = s->vs_k;
          if (last2 >= 0 && (unsigned)last2 < n) { /* last2 == nv (sub_decode) */
            unsigned nb = (unsigned)last2;         /* nb < n */
            uint64_t nd = (uint64_t)nb * k;
            if (nd < n && nb <= sp + (n - 1 - (unsigned)nd)) {
              unsigned m = n - 1 - (unsigned)nd;
              double *dst = st + sp;
              CS_COPY(dst, v, m);
              sp += m;
              double *r = st + (sp - nb);
              if (!s->vs_zero) {
                const otv_cs_cell *d = v + m;
                const double *vs = s->vs;
                if (k == 1) {
                  double v0 = vs[0];
                  for (unsigned i = 0; i < nb; i++) r[i] += d[i].v * v0;
                } else if (k == 2) {
                  double v0 = vs[0], v1 = vs[1];
                  for (unsigned i = 0; i < nb; i++, d += 2) r[i] += d[0].v * v0 + d[1].v * v1;
                } else {
                  for (unsigned i = 0; i < nb; i++, d += k) {
                    double acc = 0.0;
                    for (unsigned j = 0; j < k; j++) acc += d[j].v * vs[j];
                    r[i] += acc;
                  }
                }
              }
              if (round)
                for (unsigned i = 0; i < nb; i++) r[i] = floor(r[i] + 0.5);
              it = v + n;
              continue;
            }
          }
        }
        /* four at a time (runs are short): up to 3 copies past the run land in the stack's
         * slack and come from the arena's slack or the next item */
        double *dst = st + sp;
        CS_COPY(dst, v, n);
        sp += n;
      }
      it = v + n;
      if (op == OTV_CS_NO_OP) continue;
      p = t0 + op; /* in range: the operator byte b0 inside this subroutine */
      goto dispatch;
    }
    if (p >= end) {
      if (depth == 0) break;
      depth--;
      p = fr[depth].p, end = fr[depth].end;
      if (cached) it = fr[depth].it, it_end = fr[depth].it_end;
      continue;
    }
    b0 = *p; /* in range: p < end, end within the charstring's INDEX element */
    if (b0 >= OTV_CFF_INT1_FIRST && b0 != OTV_CFF_FIXED) {
      /* A run of the common operands (1 and 2 bytes), decoded in a tight loop: blend deltas
       * make most of a CFF2 charstring. Every operand takes at least one byte, so stopping at
       * lim = p + (stack room) bounds the pushes by the room left: one pointer test per operand
       * covers both the end of the data and stack overflow. */
      if (sp >= max) return fail_at(s, p, OTV_E_LIMIT, "operand stack overflow");
      const uint8_t *lim = (size_t)(end - p) > max - sp ? p + (max - sp) : end;
      double *q = st + sp;
      do {
        b0 = *p; /* in range: p < lim <= end */
        if (otv_cff_is_int1(b0)) {
          *q++ = one_byte[b0];
          lastb = b0;
          p++;
        } else if (otv_cff_is_int2(b0)) {
          if (end - p < 2) return fail_at(s, p, OTV_E_TRUNCATED, "operand");
          last2 = cs_int2(b0, p[1]); /* in range: p + 2 <= end */
          *q++ = last2;
          p += 2;
        } else {
          break;
        }
      } while (p < lim);
      sp = (unsigned)(q - st);
      /* stopped at lim: back to the top (end of data, or the stack is full); else b0 = *p is
       * an operator (or a 3- or 5-byte operand) and is dispatched at once */
      if (p >= lim) continue;
    }
  dispatch:;
    const uint8_t *at = p++;
    unsigned b = 0;
    /* blend and callsubr are most of a CFF2 glyph's operators (Source Sans 3's glyph
     * charstrings: callsubr 37 %, blend 30 %): a direct branch predicts better than the
     * switch's indirect jump */
    if (b0 == OTV_CS_BLEND) goto blend;
    if (b0 == OTV_CS_CALLSUBR) goto callsubr;
    switch (b0) {
    case OTV_CFF_SHORTINT: /* 16-bit operand */
    case OTV_CFF_FIXED:    /* 16.16 fixed operand */
    {
      double v;
      if (b0 == OTV_CFF_SHORTINT) {
        if (end - p < 2) return fail_at(s, at, OTV_E_TRUNCATED, "operand");
        v = otv_peek_i16(p); /* in range: p + 2 <= end */
        p += 2;
      } else {
        if (end - p < 4) return fail_at(s, at, OTV_E_TRUNCATED, "operand");
        v = otv_cff_fixed(p); /* in range: p + 4 <= end */
        p += 4;
      }
      if (sp >= max) return fail_at(s, at, OTV_E_LIMIT, "operand stack overflow");
      st[sp++] = v;
      continue;
    }
    case OTV_CS_HSTEM:
    case OTV_CS_VSTEM:
    case OTV_CS_HSTEMHM:
    case OTV_CS_VSTEMHM:
      b = width_base(s, (sp & 1) != 0);
      s->nstems += (sp - b) / 2;
      break;
    case OTV_CS_HINTMASK:
    case OTV_CS_CNTRMASK: {
      b = width_base(s, (sp & 1) != 0);
      s->nstems += (sp - b) / 2; /* operands here are implicit vstem hints */
      size_t bytes = (s->nstems + 7) / 8;
      if ((size_t)(end - p) < bytes) return fail_at(s, at, OTV_E_TRUNCATED, "hintmask bytes");
      p += bytes;
      /* replaying: the decoder guessed the mask's length; when the stems counted here say
       * otherwise, the items after it are not this charstring's: go on from the bytes */
      if (it && bytes != item_mask) it = NULL;
      break;
    }
    case OTV_CS_RMOVETO:
      b = width_base(s, sp > 2);
      if (sp - b < 2) return fail_at(s, at, OTV_E_BAD_VALUE, "rmoveto: stack underflow");
      move_to(s, s->x + st[b], s->y + st[b + 1]);
      break;
    case OTV_CS_HMOVETO:
    case OTV_CS_VMOVETO:
      b = width_base(s, sp > 1);
      if (sp - b < 1) return fail_at(s, at, OTV_E_BAD_VALUE, "moveto: stack underflow");
      if (b0 == OTV_CS_HMOVETO)
        move_to(s, s->x + st[b], s->y);
      else
        move_to(s, s->x, s->y + st[b]);
      break;
    case OTV_CS_RLINETO:
      if (sp < 2) return fail_at(s, at, OTV_E_BAD_VALUE, "rlineto: stack underflow");
      for (unsigned i = 0; i + 2 <= sp; i += 2) TRY(line_to(s, s->x + st[i], s->y + st[i + 1]));
      break;
    case OTV_CS_HLINETO:
    case OTV_CS_VLINETO: {
      if (sp < 1) return fail_at(s, at, OTV_E_BAD_VALUE, "hlineto/vlineto: stack underflow");
      bool h = b0 == OTV_CS_HLINETO;
      for (unsigned i = 0; i < sp; i++, h = !h) {
        if (h)
          TRY(line_to(s, s->x + st[i], s->y));
        else
          TRY(line_to(s, s->x, s->y + st[i]));
      }
      break;
    }
    case OTV_CS_RRCURVETO:
      if (sp < 6) return fail_at(s, at, OTV_E_BAD_VALUE, "rrcurveto: stack underflow");
      for (unsigned i = 0; i + 6 <= sp; i += 6)
        TRY(rcurve(s, st[i], st[i + 1], st[i + 2], st[i + 3], st[i + 4], st[i + 5]));
      break;
    case OTV_CS_RCURVELINE: {
      if (sp < 8) return fail_at(s, at, OTV_E_BAD_VALUE, "rcurveline: stack underflow");
      unsigned i = 0;
      for (; sp - i >= 8; i += 6)
        TRY(rcurve(s, st[i], st[i + 1], st[i + 2], st[i + 3], st[i + 4], st[i + 5]));
      TRY(line_to(s, s->x + st[i], s->y + st[i + 1]));
      break;
    }
    case OTV_CS_RLINECURVE: {
      if (sp < 8) return fail_at(s, at, OTV_E_BAD_VALUE, "rlinecurve: stack underflow");
      unsigned i = 0;
      for (; sp - i >= 8; i += 2) TRY(line_to(s, s->x + st[i], s->y + st[i + 1]));
      TRY(rcurve(s, st[i], st[i + 1], st[i + 2], st[i + 3], st[i + 4], st[i + 5]));
      break;
    }
    case OTV_CS_VVCURVETO: /* dx1? {dya dxb dyb dyc}+ */
    case OTV_CS_HHCURVETO: /* dy1? {dxa dxb dyb dxc}+ */
    {
      if (sp < 4) return fail_at(s, at, OTV_E_BAD_VALUE, "vvcurveto/hhcurveto: stack underflow");
      unsigned i = 0;
      double d1 = 0;
      if (sp & 1) d1 = st[i++];
      for (; sp - i >= 4; i += 4, d1 = 0) {
        if (b0 == OTV_CS_VVCURVETO)
          TRY(rcurve(s, d1, st[i], st[i + 1], st[i + 2], 0, st[i + 3]));
        else
          TRY(rcurve(s, st[i], d1, st[i + 1], st[i + 2], st[i + 3], 0));
      }
      break;
    }
    case OTV_CS_VHCURVETO:
    case OTV_CS_HVCURVETO:
      if (sp < 4) return fail_at(s, at, OTV_E_BAD_VALUE, "vhcurveto/hvcurveto: stack underflow");
      TRY(alt_curves(s, sp, b0 == OTV_CS_HVCURVETO));
      break;
    case OTV_CS_CALLSUBR:
    case OTV_CS_CALLGSUBR:
    callsubr : {
      const cs_subrs *x = &s->subrs[b0 == OTV_CS_CALLSUBR];
      if (sp < 1) return fail_at(s, at, OTV_E_BAD_VALUE, "callsubr: stack underflow");
      double v = st[--sp];
      CS_CTL_RUN(s, v);
      otv_span sub;
      /* the number is truncated to an integer, then biased; |v| < 2^31 checked before the
       * conversion */
      uint32_t si = 0, state = 0;
      otv_cs_slot *e = NULL;
      if (v == (double)last2) { /* the operand just decoded: |last2| <= 1131 */
        if ((si = (uint32_t)((int64_t)last2 + x->ix->bias)) >= x->ix->count) goto no_subr;
      } else if (v == one_byte[lastb]) {
        if ((si = (uint32_t)((int64_t)lastb - OTV_CFF_INT1_BIAS + x->ix->bias)) >= x->ix->count)
          goto no_subr;
      } else if (!(v > -2147483648.0 && v < 2147483648.0) ||
                 (si = (uint32_t)((int64_t)v + x->ix->bias)) >= x->ix->count) {
        goto no_subr;
      }
      if (cached && s->cache) {
        /* in range: si < count, slots cover every INDEX */
        e = &s->cache->sub[x->slot + si];
        state = e->state;
      }
      if (state >= 2) {
        /* decoded: its bytes were found by otv_cff_index_get then (the INDEX does not
         * change) */
        sub.p = t0 + e->off;
        sub.len = e->len;
      } else if (x->offs) {
        /* in range: si < count, count + 1 offsets checked in order within the data */
        uint32_t a = x->offs[si];
        sub.p = x->ix->data + a;
        sub.len = x->offs[si + 1] - a;
      } else if (!otv_cff_index_get(x->ix, si, &sub)) {
      no_subr:
        return fail_at(s, at, OTV_E_BAD_VALUE,
                       b0 == OTV_CS_CALLSUBR ? "callsubr: no such local subroutine"
                                             : "callgsubr: no such global subroutine");
      }
      if (depth >= OTV_MAX_SUBR_DEPTH)
        return fail_at(s, at, OTV_E_LIMIT, "subroutines nested more than 10 deep");
      size_t cost = sub.len ? sub.len : 1; /* budget <= CS_MAX_SUBR_BYTES: no overflow below */
      if (cost > CS_MAX_SUBR_BYTES - budget)
        return fail_at(s, at, OTV_E_LIMIT, "charstring runs too long (subroutine fan-out)");
      budget += (uint32_t)cost;
      fr[depth].p = p, fr[depth].end = end;
      if (cached) fr[depth].it = it, fr[depth].it_end = it_end;
      depth++;
      p = sub.p;
      end = sub.p + sub.len;
      it = NULL;
      if (e) {
        if (state == 0) state = sub_decode(s, sub, x->slot + si, sp);
        if (state >= 2) it = s->cache->cells + (state - 2), it_end = s->cache->cells + e->end;
      }
      continue; /* the stack is not cleared */
    }
    case OTV_CS_RETURN: /* CFF only */
      if (s->cff2) return fail_at(s, at, OTV_E_BAD_VALUE, "return is not a CFF2 operator");
      if (depth == 0) goto done;
      depth--;
      p = fr[depth].p, end = fr[depth].end;
      if (cached) it = fr[depth].it, it_end = fr[depth].it_end;
      continue;
    case OTV_CS_ENDCHAR: /* CFF only */
      if (s->cff2) return fail_at(s, at, OTV_E_BAD_VALUE, "endchar is not a CFF2 operator");
      b = width_base(s, sp == 1 || sp == 5);
      if (sp - b == 4) { /* seac: adx ady bchar achar */
        s->seac = true;
        for (unsigned i = 0; i < 4; i++) s->seac_args[i] = st[b + i];
      }
      goto done;
    case OTV_CS_VSINDEX: { /* CFF2 only */
      if (!s->cff2) return fail_at(s, at, OTV_E_BAD_VALUE, "vsindex is a CFF2 operator");
      if (sp < 1) return fail_at(s, at, OTV_E_BAD_VALUE, "vsindex: stack underflow");
      double v = st[sp - 1];
      CS_CTL_RUN(s, v);
      if (!s->c->ivs.present || !(v >= 0 && v < (double)s->c->ivs.data_count))
        return fail_at(s, at, OTV_E_BAD_VALUE, "vsindex: no such ItemVariationData");
      set_vsindex(s, (unsigned)v);
      break;
    }
    case OTV_CS_BLEND: /* CFF2 only: n*(k+1)+1 operands -> n */
    blend : {
      if (!s->cff2) return fail_at(s, at, OTV_E_BAD_VALUE, "blend is a CFF2 operator");
      if (sp < 1) return fail_at(s, at, OTV_E_BAD_VALUE, "blend: stack underflow");
      double nv = st[--sp];
      CS_CTL_RUN(s, nv);
      unsigned k = s->vs_k;
      unsigned n;
      if (nv == one_byte[lastb] && lastb >= OTV_CFF_INT1_BIAS) { /* the operand just decoded */
        n = lastb - OTV_CFF_INT1_BIAS;                           /* 0..107 */
        if (n > sp) return fail_at(s, at, OTV_E_BAD_VALUE, "blend: stack underflow");
      } else {
        if (!(nv >= 0 && nv <= (double)sp))
          return fail_at(s, at, OTV_E_BAD_VALUE, "blend: stack underflow");
        n = (unsigned)nv; /* n <= 513, k < 65536: no overflow below */
      }
      if (n * (k + 1) > sp) return fail_at(s, at, OTV_E_BAD_VALUE, "blend: stack underflow");
      unsigned base = sp - n * (k + 1);
      if (cached && s->rec) rec_deltas(s, st + base + n, n * k);
      if (!s->vs_zero) {
        const double *d = st + base + n;
        const double *vs = s->vs;
        if (k == 1) { /* one region (a single axis, one master each side): no inner loop */
          double v0 = vs[0];
          for (unsigned i = 0; i < n; i++) st[base + i] += d[i] * v0;
        } else if (k == 2) {
          double v0 = vs[0], v1 = vs[1];
          for (unsigned i = 0; i < n; i++, d += 2) st[base + i] += d[0] * v0 + d[1] * v1;
        } else {
          for (unsigned i = 0; i < n; i++, d += k) {
            double acc = 0.0;
            for (unsigned j = 0; j < k; j++) acc += d[j] * vs[j];
            st[base + i] += acc;
          }
        }
      }
      /* OTV_OUTLINE_ROUND: a static instance stores each blend result as an integer operand
       * (the charstring stays relative), so the results are rounded here, with floor(x + 0.5);
       * the coordinates are then exact sums of integers, as the instance draws them. */
      if (round)
        for (unsigned i = 0; i < n; i++) st[base + i] = floor(st[base + i] + 0.5);
      sp = base + n;
      continue; /* results stay on the stack */
    }
    case OTV_CFF_ESCAPE: {
      if (p >= end) return fail_at(s, at, OTV_E_TRUNCATED, "escape operator");
      int op = OTV_CFF_ESC(*p++); /* in range: p < end */
      switch (op) {
      case OTV_CS_DOTSECTION: /* deprecated: ignored */ break;
      case OTV_CS_FLEX: /* 12 operands + fd */
        if (sp < 13) return fail_at(s, at, OTV_E_BAD_VALUE, "flex: stack underflow");
        TRY(rcurve(s, st[0], st[1], st[2], st[3], st[4], st[5]));
        TRY(rcurve(s, st[6], st[7], st[8], st[9], st[10], st[11]));
        break;
      case OTV_CS_HFLEX: /* dx1 dx2 dy2 dx3 dx4 dx5 dx6 */
      {
        if (sp < 7) return fail_at(s, at, OTV_E_BAD_VALUE, "hflex: stack underflow");
        double y0 = s->y;
        double x1 = s->x + st[0], x2 = x1 + st[1], y2 = y0 + st[2], x3 = x2 + st[3];
        TRY(curve_to(s, x1, y0, x2, y2, x3, y2));
        double x4 = x3 + st[4], x5 = x4 + st[5], x6 = x5 + st[6];
        TRY(curve_to(s, x4, y2, x5, y0, x6, y0));
        break;
      }
      case OTV_CS_HFLEX1: /* dx1 dy1 dx2 dy2 dx3 dx4 dx5 dy5 dx6 */
      {
        if (sp < 9) return fail_at(s, at, OTV_E_BAD_VALUE, "hflex1: stack underflow");
        double y0 = s->y;
        double x1 = s->x + st[0], y1 = y0 + st[1];
        double x2 = x1 + st[2], y2 = y1 + st[3];
        double x3 = x2 + st[4];
        TRY(curve_to(s, x1, y1, x2, y2, x3, y2));
        double x4 = x3 + st[5], x5 = x4 + st[6], y5 = y2 + st[7];
        TRY(curve_to(s, x4, y2, x5, y5, x5 + st[8], y0));
        break;
      }
      case OTV_CS_FLEX1: /* dx1 dy1 ... dx5 dy5 d6 */
      {
        if (sp < 11) return fail_at(s, at, OTV_E_BAD_VALUE, "flex1: stack underflow");
        double x0 = s->x, y0 = s->y;
        double x1 = x0 + st[0], y1 = y0 + st[1];
        double x2 = x1 + st[2], y2 = y1 + st[3];
        double x3 = x2 + st[4], y3 = y2 + st[5];
        double x4 = x3 + st[6], y4 = y3 + st[7];
        double x5 = x4 + st[8], y5 = y4 + st[9];
        double dx = x5 - x0, dy = y5 - y0;
        /* the test is not affine in the scalars: compiled only when dx and dy do not vary */
        CS_CTL_RUN(s, dx);
        CS_CTL_RUN(s, dy);
        double x6, y6;
        if (fabs(dx) > fabs(dy)) {
          x6 = x5 + st[10];
          y6 = y0;
        } else {
          x6 = x0;
          y6 = y5 + st[10];
        }
        TRY(curve_to(s, x1, y1, x2, y2, x3, y3));
        TRY(curve_to(s, x4, y4, x5, y5, x6, y6));
        break;
      }
      case OTV_CS_AND:
      case OTV_CS_OR:
      case OTV_CS_NOT:
      case OTV_CS_ABS:
      case OTV_CS_ADD:
      case OTV_CS_SUB:
      case OTV_CS_DIV:
      case OTV_CS_NEG:
      case OTV_CS_EQ:
      case OTV_CS_DROP:
      case OTV_CS_PUT:
      case OTV_CS_GET:
      case OTV_CS_IFELSE:
      case OTV_CS_RANDOM:
      case OTV_CS_MUL:
      case OTV_CS_SQRT:
      case OTV_CS_DUP:
      case OTV_CS_EXCH:
      case OTV_CS_INDEX:
      case OTV_CS_ROLL:
        /* arithmetic, storage and conditional operators: Type 2 only (the CFF2 CharString
         * format removed them, Appendix C); they do not clear the stack */
        if (s->cff2) return fail_at(s, at, OTV_E_BAD_VALUE, "not a CFF2 operator");
        TRY(arith(s, op, &sp, at));
        continue;
      default: return fail_at(s, at, OTV_E_BAD_VALUE, "reserved escaped operator");
      }
      break;
    }
    default: return fail_at(s, at, OTV_E_BAD_VALUE, "reserved operator");
    }
    sp = 0; /* every other operator clears the stack */
  }
done:
  s->subr_bytes = budget;
  return OTV_E_OK;
}

static OTV_NOINLINE otv_status run_cached(cs *s, otv_span glyph, uint32_t gid)
{
  return run_impl(s, glyph, gid, true);
}

static OTV_NOINLINE otv_status run_bytes(cs *s, otv_span glyph, uint32_t gid)
{
  return run_impl(s, glyph, gid, false);
}

static otv_status run(cs *s, otv_span glyph, uint32_t gid)
{
  /* recording (comp_build) happens with the cache set up; run_bytes records nothing */
  return s->cache || s->rec ? run_cached(s, glyph, gid) : run_bytes(s, glyph, gid);
}

static otv_status run_glyph(cs *s, uint32_t gid, double tx, double ty)
{
  const otv_cff *c = s->c;
  otv_span glyph;
  if (!otv_cff_index_get(&c->charstrings, gid, &glyph))
    return otv_fail(s->l->x.err, OTV_E_BAD_OFFSET, c->tag, 0,
                    "glyph %u: no charstring (CharStrings INDEX has %u, or bad offsets)", gid,
                    c->charstrings.count);
  uint32_t fd = 0;
  if (!otv_cff_fd_of(c, gid, &fd))
    return otv_fail(s->l->x.err, OTV_E_BAD_VALUE, c->tag, 0,
                    "glyph %u: FDSelect names a missing "
                    "Font DICT",
                    gid);
  s->subrs[0].ix = &c->gsubrs;
  s->subrs[0].offs = c->gsubr_offs;
  s->subrs[0].slot = 0;
  s->subrs[1].ix = &c->fds[fd].subrs;
  s->subrs[1].offs = c->fds[fd].subr_offs;
  s->subrs[1].slot = s->cache ? s->cache->sub_fd_base[fd] : 0;
  s->xf = c->fds[fd].xf_on ? c->fds[fd].xf : NULL;
  s->x = s->y = 0;
  if (tx != 0 || ty != 0) {
    /* seac accent: the offset is in charstring space, before the FontMatrix: M(p + t) */
    static const double ident[6] = {1, 0, 0, 1, 0, 0};
    const double *m = s->xf ? s->xf : ident;
    memcpy(s->xf_seac, m, sizeof s->xf_seac);
    s->xf_seac[4] += m[0] * tx + m[2] * ty;
    s->xf_seac[5] += m[1] * tx + m[3] * ty;
    s->xf = s->xf_seac;
  }
  s->plain = !s->rec && !s->xf && s->out->pen && s->out->pen->line_to && s->out->pen->cubic_to;
  s->nstems = 0;
  s->width_done = false;
  s->seac = false;
  s->transient_set = 0;
  /* seed from the glyph id (Knuth's multiplicative hash: 2^32 / the golden ratio, and its
   * 32-bit fraction); xorshift must not start at 0 */
  s->rnd = (gid * CS_SEED_MUL) ^ CS_SEED_XOR;
  if (!s->rnd) s->rnd = 1;
  s->vs = NULL;
  s->vs_k = 0;
  s->vs_zero = true;
  if (s->cff2 && c->ivs.present) {
    unsigned vsi = c->fds[fd].vsindex;
    if (vsi < c->ivs.data_count) set_vsindex(s, vsi);
  }
  s->subr_bytes = 0;
  otv_status st = run(s, glyph, gid);
  if (!s->rec) sink_close(s->out);
  /* the work budget of a whole-font operation (core/budget.h): one glyph load, its bytes and
   * the subroutine bytes it entered (at most CS_MAX_SUBR_BYTES a glyph, 65535 glyphs) */
  if (!st && !otv_budget_charge(s->l->x.work, OTV_WORK_GLYPH_LOAD + glyph.len + s->subr_bytes))
    return otv_fail(s->l->x.err, OTV_E_LIMIT, c->tag, (size_t)(glyph.p - c->tab.p),
                    "glyph %u: work budget of %llu units spent", gid,
                    (unsigned long long)s->l->x.work->limit);
  return st;
}

/* ---- compiled glyphs (CFF2) ----
 * A CFF2 outline is affine in the region scalars: there are no arithmetic operators, blend adds
 * scalar x delta, and hint masks move no point; so once the control flow does not depend on the
 * location (subroutine numbers, blend counts, vsindex and flex1's test are the same with every
 * scalar 0 and with each region's scalar alone at 1), every point is P0 + sum_r s_r D_r. A glyph
 * is compiled on its draw after T interpreted ones (CS_COMP_DRAWS) into segment kinds, P0 and
 * the nonzero D_r (run 1 + R times through the interpreter in recording mode, once; the values
 * stored as double, float or int16, comp_build); a draw is then an axpy per region whose
 * scalar is not 0 and the segments, with no per-operand work. Only pen drawing without
 * OTV_OUTLINE_ROUND uses it (rounding is per blend result, not affine; the points API and so
 * the instancer keep the interpreter). Anything else (errors, control values that vary, too many
 * points or vsindexes, a full arena) stays with the interpreter: errors come from it. The sums
 * are in another order than the interpreter's: the coordinates agree to ~1e-12 relative before
 * the conversion to float, so a float may differ by one unit in the last place. */

/* Compile glyph gid into the arena; returns its comp state (1: interpret, else cell + 2). */
static uint32_t comp_build(cs *s, uint32_t gid)
{
  otv_cff_loc *l = s->l;
  const otv_cff *c = s->c;
  double *rec = l->comp_scratch, *ctl0 = rec + 2 * CS_COMP_MAX_COORDS;
  double *ctl1 = ctl0 + CS_COMP_MAX_CTL, *fvs = ctl1 + CS_COMP_MAX_CTL;
  size_t nvs = c->ivs.present ? c->vs_off[c->ivs.data_count] : 0;
  uint8_t *k0 = (uint8_t *)(fvs + nvs), *k1 = k0 + CS_COMP_MAX_SEGS;
  uint8_t *fnz = k1 + CS_COMP_MAX_SEGS;
  otv_error saved = *l->x.err; /* the recording runs' errors are not the draw's */
  uint32_t result = 1;
  unsigned regs[CS_COMP_MAX_REGIONS], nrc = 0;
  unsigned ncoord = 0, nseg = 0, nctl = 0;
  otv_cs_cell *g = NULL;
  size_t room = l->cell_cap - l->cell_used;

  s->rec = rec, s->kinds = k0, s->ctl = ctl0;
  s->rec_n = s->nk = s->nctl = 0, s->rec_bad = false, s->n_used_vs = 0;
  s->rec_dhash = 0xcbf29ce484222325u;
  s->vs_all = fvs, s->vs_nz = fnz, s->zero = true; /* every scalar 0 */
  if (run_glyph(s, gid, 0, 0) || s->rec_bad) goto out;
  uint64_t dhash = s->rec_dhash;
  ncoord = s->rec_n, nseg = s->nk, nctl = s->nctl;
  /* the regions of the vsindexes used */
  for (unsigned i = 0; i < s->n_used_vs; i++) {
    const otv_ivd *v = &c->ivs.data[s->used_vs[i]];
    for (unsigned j = 0; j < v->region_index_count; j++) {
      unsigned ri = otv_peek_u16(v->region_indexes + 2 * j); /* checked in otv_ivs_parse */
      if (ri >= c->ivs.region_count) continue;               /* scalar 0 everywhere */
      unsigned q = 0;
      while (q < nrc && regs[q] != ri) q++;
      if (q < nrc) continue;
      if (nrc == CS_COMP_MAX_REGIONS) goto out;
      regs[nrc++] = ri;
    }
  }
  size_t kcells = (nseg + 7u) / 8u, need = 2u + kcells + nrc + (size_t)ncoord * (1u + nrc);
  if (need > room) {
    if (l->cell_cap < l->cell_bound) { /* compiled at the next draw, once the arena grew */
      l->cell_want = true;
      result = UINT32_MAX - l->comp_draws;
    }
    goto out;
  }
  g = l->cells + l->cell_used;
  memcpy(g + 2, k0, nseg); /* the kind bytes (cells are 8 bytes) */
  otv_cs_cell *ri_cells = g + 2 + kcells, *p0 = ri_cells + nrc, *d = p0 + ncoord;
  for (unsigned i = 0; i < ncoord; i++) p0[i].v = rec[i];
  unsigned nreg = 0;
  unsigned n_used = s->n_used_vs;
  uint16_t used[CS_COMP_MAX_VS];
  memcpy(used, s->used_vs, sizeof used);
  for (unsigned q = 0; q < nrc; q++) {
    /* scalars: region regs[q] at 1, every other 0 */
    for (unsigned i = 0; i < n_used; i++) {
      const otv_ivd *v = &c->ivs.data[used[i]];
      double *dst = fvs + c->vs_off[used[i]];
      fnz[used[i]] = 0;
      for (unsigned j = 0; j < v->region_index_count; j++) {
        dst[j] = otv_peek_u16(v->region_indexes + 2 * j) == regs[q] ? 1.0 : 0.0;
        if (dst[j] != 0) fnz[used[i]] = 1;
      }
    }
    s->rec = rec, s->kinds = k1, s->ctl = ctl1;
    s->rec_n = s->nk = s->nctl = 0, s->rec_bad = false, s->n_used_vs = 0;
    s->rec_dhash = 0xcbf29ce484222325u;
    s->zero = false;
    otv_status st = run_glyph(s, gid, 0, 0);
    for (unsigned i = 0; i < n_used; i++) { /* back to all 0 */
      const otv_ivd *v = &c->ivs.data[used[i]];
      memset(fvs + c->vs_off[used[i]], 0, v->region_index_count * sizeof *fvs);
      fnz[used[i]] = 0;
    }
    /* a subroutine decoded during this run (a path the base run did not take) would have
     * been placed over g: the control values differ then too, but check the arena itself */
    if (st || s->rec_bad || l->cells + l->cell_used != g || s->rec_n != ncoord || s->nk != nseg ||
        s->nctl != nctl || s->rec_dhash != dhash || memcmp(k0, k1, nseg) != 0)
      goto out;
    for (unsigned i = 0; i < nctl; i++)
      if (ctl0[i] != ctl1[i]) goto out; /* a control value varies: not affine */
    /* without a branch per coordinate (whether a delta is 0 follows the data) */
    unsigned any = 0;
    for (unsigned i = 0; i < ncoord; i++) {
      double dv = rec[i] - p0[i].v;
      d[i].v = dv;
      any |= (unsigned)(dv != 0);
    }
    if (!any) continue;
    ri_cells[nreg].h.n = regs[q];
    ri_cells[nreg].h.off = 0;
    nreg++;
    d += ncoord;
  }
  g[0].h.n = ncoord;
  g[0].h.off = nseg;
  g[1].h.n = nreg;
  g[1].h.off = nrc;
  /* float storage when every value is a float exactly (the usual case: sums of integer deltas
   * and 16.16 operands below 2^24 / 2^8): half the memory, the same sums. When the arena's
   * bound is below what the font may need (comp_narrow), int16 when every value is an integer
   * of int16 range (coordinates and deltas are sums of integer operands): a quarter of the
   * memory, each value converting to the same double. Source Serif 4's compiled glyphs take
   * 2.6 MB as int16, 5.3 MB as float, which did not fit the default 4 MiB bound: most of its
   * glyphs stayed interpreted. Not for every font: the conversion from int16 takes more
   * instructions a draw than from float (Source Sans 3 CFF2 warm +2 %). */
  size_t nv = (size_t)ncoord * (1u + nreg);
  unsigned inexact = 0, wide = !l->comp_narrow; /* the test only where it is used: it costs */
  for (size_t i = 0; !wide && i < nv; i++) {
    /* not an integer, out of range (NaN included: the comparison is false), or -0 (which the
     * float form keeps); w: v where the conversion to int32 is defined */
    double v = p0[i].v, w = fabs(v) <= 32767.0 ? v : 0.5;
    wide |= (unsigned)(w != v) | (unsigned)((double)(int32_t)w != w) |
            (unsigned)(v == 0.0 && signbit(v));
  }
  if (wide)
    for (size_t i = 0; i < nv; i++) inexact |= (unsigned)((double)(float)p0[i].v != p0[i].v);
  if (!wide) {
    int16_t *pi = (int16_t *)(void *)p0; /* forward, in place: int16 i ends before double i */
    for (size_t i = 0; i < nv; i++) {
      double v = p0[i].v;
      pi[i] = (int16_t)v;
    }
    d = p0 + (nv + 3) / 4;
    g[1].h.off = nrc | CS_COMP_I16;
  } else if (!inexact) {
    float *pf = (float *)(void *)p0; /* forward, in place: float i ends before double i */
    for (size_t i = 0; i < nv; i++) {
      double v = p0[i].v;
      pf[i] = (float)v;
    }
    d = p0 + (nv + 1) / 2;
    g[1].h.off = nrc | CS_COMP_FLOAT;
  }
  l->cell_used = (size_t)(d - l->cells);
  result = (uint32_t)(g - l->cells) + 2; /* cells <= CS_MAX_CELLS: fits */
out:
  s->rec = NULL, s->kinds = NULL, s->ctl = NULL;
  *l->x.err = saved;
  return result;
}

/* The blend sums of a compiled glyph whose values are stored as float or as int16 (i16; always a
 * constant where these are called, so each storage gets its own loops): q[i] = b[i] + s x d[i]
 * (comp_set), q[i] += s x d[i] (comp_add) and two regions in one pass (comp_add2: one load and
 * store of q for both), in double, the same operations in the same order as the plain loops.
 * An int16 value converts to the same double as its float form would (comp_build stores int16
 * only when every value is an integer of int16 range, -0 excluded). SSE2: four a step. */
static OTV_ALWAYS_INLINE double comp_val(const void *p, size_t i, bool i16)
{
  return i16 ? (double)((const int16_t *)p)[i] : (double)((const float *)p)[i];
}

#if OTV_SSE2
/* Values i..i+3 at p as two pairs of doubles. */
static OTV_ALWAYS_INLINE void comp_load4(const void *p, size_t i, bool i16, __m128d *lo,
                                         __m128d *hi)
{
  if (i16) {
    __m128i w = _mm_loadl_epi64((const __m128i *)(const void *)((const int16_t *)p + i));
    __m128i x = _mm_srai_epi32(_mm_unpacklo_epi16(w, w), 16); /* sign-extended to int32 */
    *lo = _mm_cvtepi32_pd(x);
    *hi = _mm_cvtepi32_pd(_mm_shuffle_epi32(x, 0xee));
  } else {
    const float *f = (const float *)p + i;
    *lo = _mm_cvtps_pd(_mm_loadl_pi(_mm_setzero_ps(), (const __m64 *)(const void *)f));
    *hi = _mm_cvtps_pd(_mm_loadl_pi(_mm_setzero_ps(), (const __m64 *)(const void *)(f + 2)));
  }
}
#endif

static OTV_ALWAYS_INLINE void comp_set(double *restrict q, const void *b, const void *d, double s,
                                       size_t n, bool i16)
{
  size_t i = 0;
#if OTV_SSE2
  const __m128d vs = _mm_set1_pd(s);
  for (; i + 4 <= n; i += 4) {
    __m128d b0, b1, d0, d1;
    comp_load4(b, i, i16, &b0, &b1);
    comp_load4(d, i, i16, &d0, &d1);
    _mm_storeu_pd(q + i, _mm_add_pd(b0, _mm_mul_pd(vs, d0)));
    _mm_storeu_pd(q + i + 2, _mm_add_pd(b1, _mm_mul_pd(vs, d1)));
  }
#endif
  for (; i < n; i++) q[i] = comp_val(b, i, i16) + s * comp_val(d, i, i16);
}

static OTV_ALWAYS_INLINE void comp_add(double *restrict q, const void *d, double s, size_t n,
                                       bool i16)
{
  size_t i = 0;
#if OTV_SSE2
  const __m128d vs = _mm_set1_pd(s);
  for (; i + 4 <= n; i += 4) {
    __m128d d0, d1;
    comp_load4(d, i, i16, &d0, &d1);
    _mm_storeu_pd(q + i, _mm_add_pd(_mm_loadu_pd(q + i), _mm_mul_pd(vs, d0)));
    _mm_storeu_pd(q + i + 2, _mm_add_pd(_mm_loadu_pd(q + i + 2), _mm_mul_pd(vs, d1)));
  }
#endif
  for (; i < n; i++) q[i] += s * comp_val(d, i, i16);
}

static OTV_ALWAYS_INLINE void comp_add2(double *restrict q, const void *d, double s, const void *e,
                                        double t, size_t n, bool i16)
{
  size_t i = 0;
#if OTV_SSE2
  const __m128d vs = _mm_set1_pd(s), vt = _mm_set1_pd(t);
  for (; i + 4 <= n; i += 4) {
    __m128d d0, d1, e0, e1;
    comp_load4(d, i, i16, &d0, &d1);
    comp_load4(e, i, i16, &e0, &e1);
    __m128d x0 = _mm_add_pd(_mm_loadu_pd(q + i), _mm_mul_pd(vs, d0));
    __m128d x1 = _mm_add_pd(_mm_loadu_pd(q + i + 2), _mm_mul_pd(vs, d1));
    _mm_storeu_pd(q + i, _mm_add_pd(x0, _mm_mul_pd(vt, e0)));
    _mm_storeu_pd(q + i + 2, _mm_add_pd(x1, _mm_mul_pd(vt, e1)));
  }
#endif
  for (; i < n; i++) q[i] = (q[i] + s * comp_val(d, i, i16)) + t * comp_val(e, i, i16);
}

/* q = P0 + sum s_r D_r over the na regions whose scalar is not 0 (sc, their rows rr), the
 * values stored as float or int16 (i16), ncoord per row. */
static OTV_ALWAYS_INLINE void comp_blend(double *restrict q, const void *p0, unsigned ncoord,
                                         const double *sc, const unsigned *rr, unsigned na,
                                         bool i16)
{
  const char *b = p0;
  size_t row = (size_t)ncoord * (i16 ? sizeof(int16_t) : sizeof(float));
  if (na == 0) {
    for (unsigned i = 0; i < ncoord; i++) q[i] = comp_val(b, i, i16);
    return;
  }
  comp_set(q, b, b + row * rr[0], sc[0], ncoord, i16);
  unsigned r = 1;
  for (; r + 2 <= na; r += 2)
    comp_add2(q, b + row * rr[r], sc[r], b + row * rr[r + 1], sc[r + 1], ncoord, i16);
  if (r < na) comp_add(q, b + row * rr[r], sc[r], ncoord, i16);
}

/* Draw a compiled glyph into the pen (s->out, pen mode). */
static otv_status comp_draw(cs *s, const otv_cs_cell *g)
{
  otv_cff_loc *l = s->l;
  unsigned ncoord = g[0].h.n, nseg = g[0].h.off, nreg = g[1].h.n;
  unsigned nrc = g[1].h.off & ~(CS_COMP_FLOAT | CS_COMP_I16);
  bool fl = (g[1].h.off & CS_COMP_FLOAT) != 0, i16 = (g[1].h.off & CS_COMP_I16) != 0;
  const uint8_t *kinds = (const uint8_t *)(g + 2);
  const otv_cs_cell *ri = g + 2 + (nseg + 7u) / 8u, *p0 = ri + nrc;
  double sc[CS_COMP_MAX_REGIONS];
  unsigned rr[CS_COMP_MAX_REGIONS];
  unsigned na = 0;
  if (!l->zero) {
    const float *reg = l->regions.scalars; /* this location's (otv_cff_vs_scalars) */
    for (unsigned r = 0; r < nreg; r++) {
      double v = reg[ri[r].h.n]; /* in range: < region_count (comp_build) */
      if (v != 0) sc[na] = v, rr[na] = r + 1, na++;
    }
  }
  double *q = l->comp_scratch + CS_COMP_MAX_COORDS; /* ncoord <= CS_COMP_MAX_COORDS */
  /* q = P0 + sum s_r D_r over the regions whose scalar is not 0 (branch-free loops) */
  if (i16) {
    comp_blend(q, p0, ncoord, sc, rr, na, true);
  } else if (fl) {
    comp_blend(q, p0, ncoord, sc, rr, na, false);
  } else {
    const double *b = &p0->v;
    if (na == 0) {
      for (unsigned i = 0; i < ncoord; i++) q[i] = b[i];
    } else {
      const double *d0 = b + (size_t)ncoord * rr[0];
      double s0 = sc[0];
      for (unsigned i = 0; i < ncoord; i++) q[i] = b[i] + s0 * d0[i];
      for (unsigned r = 1; r < na; r++) {
        const double *dr = b + (size_t)ncoord * rr[r];
        double sr = sc[r];
        for (unsigned i = 0; i < ncoord; i++) q[i] += sr * dr[i];
      }
    }
  }
  otv_cs_sink *o = s->out;
  const otv_pen *pen = o->pen;
  for (unsigned k = 0; k < nseg; k++) {
    switch (kinds[k]) {
    case CS_SEG_MOVE:
      sink_close(o);
      o->start_x = (float)q[0];
      o->start_y = (float)q[1];
      q += 2;
      break;
    case CS_SEG_LINE: {
      float x = (float)q[0], y = (float)q[1];
      q += 2;
      if (!o->open) (void)sink_open(s); /* pen mode: no error */
      o->last_x = x, o->last_y = y;
      if (pen->line_to) pen->line_to(o->ctx, x, y);
      break;
    }
    default: {
      float a = (float)q[0], b = (float)q[1], cc = (float)q[2], dd = (float)q[3];
      float e = (float)q[4], f = (float)q[5];
      q += 6;
      if (!o->open) (void)sink_open(s);
      o->last_x = e, o->last_y = f;
      if (pen->cubic_to) pen->cubic_to(o->ctx, a, b, cc, dd, e, f);
      break;
    }
    }
  }
  sink_close(o);
  return OTV_E_OK;
}

/* A glyph that is not compiled (state cst: 0, 1 or counting, otv_cff_loc.comp) is drawn: count
 * the draw, or compile it after comp_draws (its new state; 0 or 1: interpret it). */
static OTV_NOINLINE uint32_t comp_state(cs *s, uint32_t gid, uint32_t cst)
{
  otv_cff_loc *l = s->l;
  if (cst == 1) return 1;
  uint32_t drawn = cst ? UINT32_MAX - cst : 0;
  if (drawn < l->comp_draws) {
    l->comp[gid] = UINT32_MAX - (drawn + 1);
    return 0;
  }
  if (l->cell_want) cells_grow(l);
  const double *va = s->vs_all;
  const uint8_t *vn = s->vs_nz;
  bool z = s->zero;
  cst = l->comp[gid] = comp_build(s, gid);
  s->vs_all = va, s->vs_nz = vn, s->zero = z;
  return cst >= CS_COMP_COUNTED ? 0 : cst; /* no room yet: interpreted, compiled later */
}

/* Drawing to a pen, the decoded-subroutine cache is set up at the first glyph drawn a second
 * time (one bit per glyph marks the first draws): a location that draws every glyph once (a new
 * setting, one page) interprets from the bytes, which by CPU time is ~1.5x faster there than
 * decoding every subroutine it calls into a fresh arena (same instructions, but the arena's pages
 * are new at every location); one that draws again gets the cache from then on. */
static OTV_NOINLINE bool second_draw(otv_cff_loc *l, uint32_t gid)
{
  size_t n = l->c->charstrings.count;
  if (l->sub_off) {
    l->sub_tried = true; /* never */
    return false;
  }
  if (gid >= n) return false;
  if (!l->drawn) {
    l->drawn = otv_mem_calloc(l->x.al, (n + 7) / 8, 1);
    if (!l->drawn) return true; /* set it up now (it is optional too) */
  }
  uint8_t *b = &l->drawn[gid >> 3], bit = (uint8_t)(1u << (gid & 7));
  if (*b & bit) return true;
  *b |= bit;
  return false;
}

otv_status otv_cs_run(otv_cff_loc *l, uint32_t gid, otv_cs_sink *sink)
{
  const otv_cff *c = l->c;
  if (!c->present) return OTV_FAIL(l->x.err, NO_TABLE, OTV_T_CFF2, 0, "no CFF or CFF2 outlines");
  cs s;
  s.l = l;
  s.c = c;
  s.out = sink;
  s.gid = gid;
  s.cff2 = c->cff2;
  s.max = c->cff2 ? OTV_MAX_STACK_CFF2 : OTV_MAX_STACK_CFF;
  s.vs_all = NULL;
  s.vs_nz = NULL;
  s.zero = true;
  s.cache = NULL;
  if (c->cff2) {
    /* pen drawing: at the second draw of a glyph; the points API (and so the instancers, which
     * draw every glyph of an instance) at once, as before */
    if (!l->sub_tried && (!sink->pen || second_draw(l, gid))) sub_cache_setup(l, c);
    if (l->cells) s.cache = l;
  }
  if (c->cff2 && c->ivs.present) {
    s.vs_all = otv_cff_vs_scalars(l);
    if (!s.vs_all && !l->zero) return OTV_E_NOMEM;
    s.zero = l->zero;
    s.vs_nz = l->vs_nz;
  }
  s.rec = NULL;
  if (s.cache && l->comp && sink->pen && !sink->round && gid < l->comp_count) {
    /* compiled glyphs: compiled on the draw after comp_draws interpreted ones */
    uint32_t cst = l->comp[gid];
    if (cst - 2u >= CS_COMP_COUNTED - 2u) cst = comp_state(&s, gid, cst);
    if (cst >= 2) return comp_draw(&s, l->cells + (cst - 2));
  }
  if (l->cell_want) cells_grow(l); /* before a decode: no replay points into the arena */
  otv_status st = run_glyph(&s, gid, 0, 0);
  if (st || !s.seac) return st;
  /* seac (CFF): the base and accent glyphs by Standard Encoding code, accent offset by
   * (adx, ady). The charset maps the codes' standard names to glyphs. */
  double adx = s.seac_args[0], ady = s.seac_args[1];
  double bc = s.seac_args[2], ac = s.seac_args[3];
  uint32_t base, accent;
  if (!(bc >= 0 && bc < 256 && ac >= 0 && ac < 256) ||
      !otv_cff_seac_glyph(c, (unsigned)bc, &base) || !otv_cff_seac_glyph(c, (unsigned)ac, &accent))
    return otv_fail(l->x.err, OTV_E_BAD_VALUE, c->tag, 0, "glyph %u: seac components not found",
                    gid);
  if ((st = run_glyph(&s, base, 0, 0))) return st;
  if (s.seac) return otv_fail(l->x.err, OTV_E_BAD_VALUE, c->tag, 0, "glyph %u: nested seac", gid);
  if ((st = run_glyph(&s, accent, adx, ady))) return st;
  if (s.seac) return otv_fail(l->x.err, OTV_E_BAD_VALUE, c->tag, 0, "glyph %u: nested seac", gid);
  return OTV_E_OK;
}

/* ---- the location's state and the entry points ---- */

void otv_cff_loc_init(otv_cff_loc *l, const otv_cff *c, otv_locctx x)
{
  memset(l, 0, sizeof *l);
  l->x = x;
  l->c = c;
}

void otv_cff_loc_free(otv_cff_loc *l)
{
  const otv_alloc *al = l->x.al;
  if (!al) return; /* never initialised */
  otv_ivs_cache_free(al, &l->regions);
  if (l->vs) otv_mem_free(al, l->vs, l->vs_cap * sizeof *l->vs);
  if (l->sub) otv_mem_free(al, l->sub, l->sub_slots * sizeof *l->sub);
  if (l->sub_fd_base) otv_mem_free(al, l->sub_fd_base, l->c->fd_count * sizeof *l->sub_fd_base);
  if (l->cells) otv_mem_free(al, l->cells, (l->cell_cap + OTV_CS_CELL_SLACK) * sizeof *l->cells);
  if (l->vs_nz) otv_mem_free(al, l->vs_nz, l->vs_nz_cap);
  if (l->comp) otv_mem_free(al, l->comp, l->comp_count * sizeof *l->comp);
  if (l->comp_scratch) otv_mem_free(al, l->comp_scratch, l->comp_scratch_size);
  if (l->drawn) otv_mem_free(al, l->drawn, ((size_t)l->c->charstrings.count + 7) / 8);
  otv_cff_loc_init(l, l->c, l->x);
}

/* otv_cff_vs_scalars when the location moved since they were computed */
static OTV_NOINLINE const double *vs_scalars_compute(otv_cff_loc *l)
{
  const otv_cff *c = l->c;
  const otv_coords *at = l->x.at;
  const otv_alloc *al = l->x.al;
  if (!c->ivs.present || at->is_default) {
    /* no store, or the default location: every scalar is 0 (peaks are never 0) */
    l->zero = true;
    l->serial = at->serial;
    return l->vs;
  }
  l->zero = false;
  const float *reg = otv_ivs_cache_get(&l->x, &c->ivs, &l->regions);
  if (!reg) return NULL;
  size_t need = c->vs_off[c->ivs.data_count];
  if (need > l->vs_cap) {
    double *n = otv_mem_realloc(al, l->vs, l->vs_cap * sizeof *l->vs, need * sizeof *n);
    if (!n) {
      OTV_FAIL(l->x.err, NOMEM, c->tag, 0, "blend scalars");
      return NULL;
    }
    l->vs = n;
    l->vs_cap = need;
  }
  if (c->ivs.data_count > l->vs_nz_cap) {
    uint8_t *n = otv_mem_realloc(al, l->vs_nz, l->vs_nz_cap, c->ivs.data_count);
    if (!n) {
      OTV_FAIL(l->x.err, NOMEM, c->tag, 0, "blend scalars");
      return NULL;
    }
    l->vs_nz = n;
    l->vs_nz_cap = c->ivs.data_count;
  }
  bool zero = true;
  for (unsigned i = 0; i < c->ivs.data_count; i++) {
    const otv_ivd *v = &c->ivs.data[i];
    l->vs_nz[i] = 0;
    if (!v->region_index_count) continue; /* l->vs may be NULL when no data has a region */
    double *dst = l->vs + c->vs_off[i];
    for (unsigned j = 0; j < v->region_index_count; j++) {
      /* in range: region_indexes checked in otv_ivs_parse */
      unsigned ri = otv_peek_u16(v->region_indexes + 2 * j);
      dst[j] = ri < c->ivs.region_count ? (double)reg[ri] : 0.0;
      if (dst[j] != 0.0) zero = false, l->vs_nz[i] = 1;
    }
  }
  l->zero = zero;
  l->serial = at->serial;
  return l->vs;
}

/* Called for every glyph drawn: the check that the scalars are current is all it costs then. */
const double *otv_cff_vs_scalars(otv_cff_loc *l)
{
  if (l->serial == l->x.at->serial && l->serial) return l->vs;
  return vs_scalars_compute(l);
}

/* ---- public entry points ---- */

otv_status otv_cff_outline(otv_cff_loc *l, uint32_t gid, unsigned flags, const otv_pen *pen,
                           void *ctx)
{
  otv_cs_sink sink;
  memset(&sink, 0, sizeof sink);
  sink.pen = pen;
  sink.ctx = ctx;
  sink.round = (flags & OTV_OUTLINE_ROUND) != 0;
  return otv_cs_run(l, gid, &sink);
}

otv_status otv_cff_points(otv_cff_loc *l, uint32_t gid, unsigned flags, otv_glyph_points *io)
{
  static const otv_pen none = {0};
  otv_cs_sink sink;
  memset(&sink, 0, sizeof sink);
  sink.pen = NULL;
  sink.io = io;
  sink.round = (flags & OTV_OUTLINE_ROUND) != 0;
  (void)none;
  io->point_count = 0;
  io->contour_count = 0;
  io->glyph_flags = 0;
  otv_status s = otv_cs_run(l, gid, &sink);
  if (s) return s;
  io->point_count = sink.points;
  io->contour_count = sink.contours;
  /* a size query, not a failure: nothing recorded in the location (as glyf.c) */
  if (sink.points > io->point_cap || sink.contours > io->contour_cap) return OTV_E_SMALL_BUFFER;
  return OTV_E_OK;
}

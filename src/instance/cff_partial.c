/*
 * instance/cff_partial.c - the charstrings of a partial instance of a CFF2 font.
 *
 * Spec: CFF2 ("CharString operators": blend, vsindex, hintmask, callsubr/callgsubr and their
 * bias; "Number encoding"). Every blend is rewritten for the kept axes: with regions of column j
 * of the current ItemVariationData,
 *   - a region whose pinned factor is 0 loses its deltas;
 *   - a region with no kept axis is folded: default += delta x factor, delta = 0;
 *   - any other region keeps its delta x factor.
 * The column count of every ItemVariationData stays (the store is rewritten in place), so
 * operand counts do not change; a blend left without a delta is replaced by its defaults. Values
 * that are not integers are written as 16.16 fixed numbers (1/65536 unit), so the outline is
 * exact to that. A blend taking earlier blends' results is rewritten with them: as one blend
 * (their results as its defaults, a chain; or as its deltas where the kept axes fold the
 * product away), or as a blend of blends (its new deltas from an inner blend; see blend()). A
 * charstring that starts in a Font DICT with a vsindex gets an explicit one
 * (the Private DICTs are written without it). Hints are copied (stems counted for hintmask).
 *
 * Subroutines are kept where each can be rewritten on its own. A first pass walks every glyph,
 * following calls, and marks for inlining every subroutine call that stands between a blend and
 * an operand it takes (or a subroutine number) pushed in another call, and every subroutine
 * with a hint mask entered with different stem counts or stack depths, or with a blend entered
 * with different vsindex values. The other called subroutines are rewritten once from their
 * entry state and keep their numbers (so the bias stays); marked ones are written inline where
 * they are called.
 */
#include "instance/store.h"
#include "instance/inst.h"
#include "instance/cff_ft.h"
#include "cff_write.h"

#include <limits.h>

#define CS_STACK OTV_MAX_STACK_CFF2
#define CS_DEPTH OTV_MAX_SUBR_DEPTH
#define NOT_WRITTEN (SIZE_MAX - 1)
#define NO_KEY UINT_MAX
/* operands + operators per glyph (or rewritten subroutine) over all calls, so that a subroutine
 * fan-out cannot take exponential time (HarfBuzz stops at 10000 operators per glyph) */
#define CS_WORK 100000u

typedef struct csw {
  otv_inst *in;
  const otv_cff *c;
  otv_buf *out;
  otv_part_subrs *ps;    /* subroutine states (analysis and kept-subroutine writing) */
  bool analyse;          /* first pass: record entry states, check blends; out is scratch */
  bool keep;             /* keep subroutine calls (all but inl ones): write only level 0, follow
                         * calls for their state; false in the analysis, which inlines all */
  unsigned level;        /* subroutine nesting below the stream being written */
  unsigned frame;        /* id of the current call (analysis) */
  unsigned frames;       /* ids handed out */
  otv_part_subr *cur;    /* the subroutine being walked (analysis), NULL in a glyph */
  unsigned work;         /* operands and operators so far (CS_WORK) */
  unsigned *fparent;     /* per frame: its caller's frame (0: none) (analysis) */
  otv_part_subr **fsubr; /* per frame: its subroutine (NULL: a glyph) */
  size_t fparent_cap, fsubr_cap;
  /* a full instance: per channel (x, y), the sum of the exact and of the written relative
   * coordinates of this stream's path operators (diffuse) */
  double ce[2], cw[2];
  /* ... and per calling stream (level), its sums while a kept call runs: each path operator
   * credits the streams whose own writing knows its operands (pushed at their level or
   * deeper), as each such stream's standalone writing does */
  double ae[CS_DEPTH + 2][2], aw[CS_DEPTH + 2][2];
  /* ... the pen of the glyph being written, exact and written (every level), and the largest
   * distance between them at a point since err was last cleared (NAN: a point not known) */
  double pe[2], pw[2], err;
  double se[2], sw[2]; /* ... at the start of the current contour */
  /* a glyph's contours (full instance): ncon movetos so far; the ncon at the kept call of the
   * glyph's own stream that is running (call_key) and at the one that wrote the current
   * contour's moveto (start_key, NO_KEY: the glyph's own stream); the keys of the contours
   * found to close in exact arithmetic but not as written (det, det_n of them: the calls made
   * while they were drawn are written inline in the next walk of the glyph, cmap; all of
   * them when inl_all) */
  unsigned ncon, call_key, start_key, det_n;
  unsigned inl_depth; /* ... those calls made at most this deep in inlined subroutines */
  bool inl_all;
  /* flat subroutines (a full instance): the level of the stream that is a flat subroutine's
   * (its calls are inlined; NO_KEY: none); the glyph's own kept calls counted (call_seq), the
   * one running (call_fi, its flat index, and call_e) and the one the current contour started
   * in (start_seq); detect: the glyph's first walk, which notes the subroutines that may be
   * made flat (cand_*, flat 2) */
  unsigned flat_level, call_seq, start_seq, cand_n;
  size_t call_fi, cand_fi[8];
  otv_part_subr *call_e, *cand_e[8];
  bool detect;
  size_t marked_n;      /* subroutines this walk of the glyph marked called (marked) */
  const int8_t *mode;   /* per region: -1 dead, 0 folded, 1 scaled, 2 both (inst.h) */
  const double *factor; /* per region (and, for mode 2, its folded part at rc + region) */
  double v[CS_STACK];
  size_t at[CS_STACK]; /* output offset of a literal operand; NOT_WRITTEN: a literal of a
                         * kept call's subroutine; SIZE_MAX: a blend result or an operand of
                         * unknown value */
  unsigned frame_of[CS_STACK];
  uint32_t bgrp[CS_STACK]; /* a blend result that kept deltas: 1 + the stack entry its blend
                            * begins at (0: none); its deltas are pd's row */
  size_t bout[CS_STACK];   /* ... the output offset that blend's operands begin at */
  uint8_t lvl[CS_STACK];   /* the level (w->level) the entry was pushed at; UINT8_MAX: a
                            * value not known here (the caller's) */
  bool rnd[CS_STACK];      /* a full instance's blend result: written rounded */
  bool nest[CS_STACK];     /* the result of a blend of blends (not a linear form: no later
                            * blend takes it) */
  unsigned n;
  unsigned max_n; /* deepest stack at an operator (cff1 analysis) */
  bool cleared;   /* a stack-clearing operator was seen in this glyph (its width) */
  bool moved;     /* a moveto was seen in this glyph (CFF draws nothing before one) */
  unsigned stems;
  unsigned vsindex;
  uint32_t gid;
  double *pd; /* per stack entry, the k deltas of a blend result (bgrp); not reset per glyph */
  size_t pd_cap;
  double *nd; /* a remapped blend's deltas (in->cff_remap), cnt x the new column count */
  size_t nd_cap;
  unsigned *det; /* (above; not reset per glyph) */
  size_t det_cap;
  uint8_t *cmap; /* per contour key of the glyph (cmap_len of them): 1 in det, 2 inline */
  size_t cmap_cap, cmap_len;
  /* per subroutine (the global ones, then each Font DICT's local ones from flat_at[fd]):
   * flat (1), a subroutine a contour of which closes in exact arithmetic but not as written:
   * it is written with its calls inline (its contour then in its own stream, closed); 2: a
   * candidate of the glyph being walked */
  uint8_t *flat;
  size_t flat_n;
  uint32_t *flat_at;
  size_t flat_at_n;
  otv_part_subr **marked; /* the subroutines whose seen this walk set to 2, and their */
  uint8_t *marked_was;    /* ... earlier value (undone where the walk is undone) */
  size_t marked_cap, marked_was_cap;
  /* the glyph's last path operator, when written diffused in its own stream and no path
   * operator came after it (close_contour): its bytes [start, end), operator, operands */
  struct {
    bool valid;
    int op;
    unsigned n;
    size_t start, end;
    double v[OTV_MAX_STACK_CFF2];
  } last;
  /* the state before a kept call of a glyph, to walk it again inline (try_call) */
  struct {
    bool last_valid;
    double v[CS_STACK];
    size_t at[CS_STACK];
    unsigned frame_of[CS_STACK];
    uint8_t lvl[CS_STACK];
    bool rnd[CS_STACK];
    double ce[2], cw[2], ae[CS_DEPTH + 2][2], aw[CS_DEPTH + 2][2], pe[2], pw[2];
    unsigned n, stems, vsindex, ncon, call_key, start_key, det_n;
    bool cleared, moved;
    size_t out_len, marked_n;
    double se[2], sw[2];
  } snap;
} csw;

/* A full instance writes its values rounded to a quantum, the rounding carried along each
 * contour (diffuse()): integers, or with OTV_INSTANCE_CFF_EXACT 1/65536 (16.16 fixed numbers
 * where they are not integers), which keeps a contour that closes in exact arithmetic closed. */
static bool rounds(const csw *w) { return w->ps && w->ps->full; }
static double quant(const csw *w, double x)
{
  if (!(w->in->flags & OTV_INSTANCE_CFF_EXACT)) return floor(x + 0.5);
  return floor(x * OTV_CFF_FIXED_ONE + 0.5) / OTV_CFF_FIXED_ONE;
}

/* Whether this level writes (a kept call's subroutine is walked for its state only). */
static bool writing(const csw *w) { return !w->keep || w->level == 0; }

static unsigned regions_of(const otv_cff *c, unsigned vsindex)
{
  return vsindex < c->ivs.data_count ? c->ivs.data[vsindex].region_index_count : 0;
}

/* A new call frame (analysis): its parent is the current frame, its subroutine e. */
static otv_status new_frame(csw *w, otv_part_subr *e)
{
  otv_inst *in = w->in;
  unsigned id = ++w->frames;
  if (otv_mem_reserve(in->al, (void **)&w->fparent, &w->fparent_cap, (size_t)id + 1,
                      sizeof *w->fparent) ||
      otv_mem_reserve(in->al, (void **)&w->fsubr, &w->fsubr_cap, (size_t)id + 1, sizeof *w->fsubr))
    return OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "subroutine frames");
  w->fparent[id] = w->frame;
  w->fsubr[id] = e;
  w->frame = id;
  return OTV_E_OK;
}

/* A blend in frame b takes an operand pushed in frame a: every subroutine call between the two
 * (below their common caller) is inlined, so that the operands and the blend are written in one
 * stream. Frames nest at most CS_DEPTH + 1 deep. */
static void inline_between(csw *w, unsigned a, unsigned b)
{
  unsigned ca[CS_DEPTH + 2], cb[CS_DEPTH + 2], na = 0, nb = 0;
  for (unsigned x = a; x && na < CS_DEPTH + 2; x = w->fparent[x]) ca[na++] = x;
  for (unsigned x = b; x && nb < CS_DEPTH + 2; x = w->fparent[x]) cb[nb++] = x;
  /* strip the common ancestors (the chains end at the same glyph frame) */
  while (na && nb && ca[na - 1] == cb[nb - 1]) na--, nb--;
  for (unsigned i = 0; i < na; i++)
    if (w->fsubr[ca[i]]) w->fsubr[ca[i]]->inl = 1;
  for (unsigned i = 0; i < nb; i++)
    if (w->fsubr[cb[i]]) w->fsubr[cb[i]]->inl = 1;
}

/* Old column j of the current ItemVariationData, at the instance: the part of its scalar that
 * is constant over the new space (folded into the defaults)... */
static double col_fold(const csw *w, unsigned j)
{
  const otv_part_remap *rm = w->in->cff_remap;
  if (rm) return w->vsindex < rm->data_count ? rm->fold[w->vsindex][j] : 0;
  const otv_ivd *v = &w->c->ivs.data[w->vsindex]; /* (vsindex checked where it was set) */
  /* in range: j < region_index_count, parsed */
  unsigned r = otv_peek_u16(v->region_indexes + 2 * j), rc = w->c->ivs.region_count;
  if (r >= rc) return 0;
  int m = w->mode[r];
  return m == 0 ? w->factor[r] : m == 2 ? w->factor[rc + r] : 0;
}

/* ... and its weight on new column c (the remap's, or the region's own column scaled). */
static double col_w(const csw *w, unsigned j, unsigned c)
{
  const otv_part_remap *rm = w->in->cff_remap;
  if (rm)
    return w->vsindex < rm->data_count ? rm->w[w->vsindex][(size_t)j * rm->kn[w->vsindex] + c] : 0;
  if (c != j) return 0;
  const otv_ivd *v = &w->c->ivs.data[w->vsindex];
  /* in range: j < region_index_count, parsed */
  unsigned r = otv_peek_u16(v->region_indexes + 2 * j), rc = w->c->ivs.region_count;
  if (r >= rc) return 0;
  int m = w->mode[r];
  return m == 1 || m == 2 ? w->factor[r] : 0;
}

/* Whether stack entry i is a number this walk knows (a literal, or a blend result where it is
 * written, or, in a full instance, where a kept call's subroutine is followed for its state:
 * the blend resolved at the location, as the subroutine's own writing writes it). */
static bool is_number(const csw *w, unsigned i)
{
  if (w->at[i] != SIZE_MAX) return true;
  return w->ps && w->ps->full && !writing(w) && w->lvl[i] != UINT8_MAX && !w->bgrp[i] &&
         !w->nest[i];
}

/* v + delta x scalar: exact, or, for a full instance with OTV_INST_CFF_FT_BLEND (cff_ft.h, a
 * test's), as FreeType adds each product of a delta and its 16.16 scalar rounded to 16.16. */
static double fold_add(const csw *w, double v, double delta, double scalar)
{
  if (!(w->in->flags & OTV_INST_CFF_FT_BLEND) || w->in->pin.partial) return v + delta * scalar;
  int32_t s = otv_ft_mulfix(otv_ft_fixed(scalar), otv_ft_fixed(delta));
  return (double)(otv_ft_fixed(v) + (int64_t)s) / 65536.0; /* exact: below 2^53 */
}

static otv_status blend(csw *w, size_t at)
{
  otv_inst *in = w->in;
  if (!w->n || !is_number(w, w->n - 1))
    return OTV_FAIL(in->err, UNSUPPORTED, OTV_T_CFF2, at, "glyph %u: blend count not a number",
                    w->gid);
  double cv = w->v[w->n - 1];
  if (cv < 0 || cv != floor(cv))
    return OTV_FAIL(in->err, BAD_VALUE, OTV_T_CFF2, at, "glyph %u: blend count", w->gid);
  unsigned cnt = (unsigned)cv, k = regions_of(w->c, w->vsindex);
  size_t need = (size_t)cnt * (k + 1) + 1;
  if (need > w->n)
    return OTV_FAIL(in->err, BAD_VALUE, OTV_T_CFF2, at, "glyph %u: blend operands", w->gid);
  unsigned base = w->n - (unsigned)need;
  if (w->analyse) {
    /* subroutines can be kept only when every blend's operands come from its own call */
    for (unsigned i = base; i < w->n; i++)
      if (w->frame_of[i] != w->frame) inline_between(w, w->frame_of[i], w->frame);
    if (w->cur) w->cur->has_blend = 1;
  }
  if (!writing(w)) { /* a kept call's subroutine: only its effect on the stack */
    bool known = w->ps && w->ps->full && k; /* full: the values, for diffuse() */
    for (unsigned i = base; i < w->n && known; i++) known = w->lvl[i] == w->level;
    const otv_ivd *kv = known ? &w->c->ivs.data[w->vsindex] : NULL;
    for (unsigned j = 0; known && j < k; j++) {
      unsigned r = otv_peek_u16(kv->region_indexes + 2 * j); /* in range: parsed */
      unsigned rc = w->c->ivs.region_count;
      double fac = r < rc ? (w->mode[r] == 2 ? w->factor[rc + r] : w->factor[r]) : 0;
      for (unsigned i = 0; i < cnt; i++)
        w->v[base + i] = fold_add(w, w->v[base + i], w->v[base + cnt + (size_t)i * k + j], fac);
    }
    for (unsigned i = 0; i < cnt; i++) {
      w->at[base + i] = SIZE_MAX, w->frame_of[base + i] = w->frame, w->bgrp[base + i] = 0;
      w->nest[base + i] = false;
      w->lvl[base + i] = (uint8_t)(known ? w->level : UINT8_MAX);
      w->rnd[base + i] = true;
    }
    w->n = base + cnt;
    return OTV_E_OK;
  }
  /* Every operand is a linear form in the new store's columns c (ko of them) at the location:
   * its constant (w->v) plus, for a blend result that kept deltas (bgrp), its row of deltas
   * (pd). With old column j's scalar = fold_j + sum_c W(j, c) x new scalar c (col_w), the result
   * of value i, default D_i and delta operands X_ij, is
   *   D_i + sum_j X_ij fold_j + sum_c new scalar c x (sum_j X_ij W(j, c))
   * A default that is a blend result (a chain) adds its deltas to the new deltas; a delta
   * operand that is a blend result (X_ij = a + sum_m b_m new scalar m) makes each new delta a
   * linear form itself: its constant a W(j, c) plus the chain's b fold_j, and its deltas
   * W(j, c) b_m. Written as one blend (with every value pushed in between, zero deltas) from
   * where the first earlier blend's operands began; when a new delta has deltas of its own, its
   * values come from an inner blend written just before (a blend of blends, as the source). */
  unsigned from = base; /* the first stack entry written again */
  for (unsigned i = base; i < w->n; i++) {
    if (w->nest[i])
      return OTV_FAIL(in->err, UNSUPPORTED, OTV_T_CFF2, at,
                      "glyph %u: a blend operand is the result of a blend of blends", w->gid);
    if (w->bgrp[i]) {
      if (w->bgrp[i] - 1 < from) from = w->bgrp[i] - 1;
    } else if (w->at[i] >= NOT_WRITTEN) {
      return OTV_FAIL(in->err, UNSUPPORTED, OTV_T_CFF2, at,
                      "glyph %u: a blend operand comes from another subroutine", w->gid);
    }
  }
  for (unsigned i = from; i < base; i++)
    if (w->nest[i] || (!w->bgrp[i] && w->at[i] >= NOT_WRITTEN))
      return OTV_FAIL(in->err, UNSUPPORTED, OTV_T_CFF2, at,
                      "glyph %u: a blend chained over a value of another subroutine", w->gid);
  size_t total = base + cnt - from; /* entries of the blend written */
  /* the deltas written: k per value, or, when limits split regions, the remap's new columns */
  const otv_part_remap *rm = in->cff_remap;
  unsigned ko = k;
  if (rm && k) ko = w->vsindex < rm->data_count ? rm->kn[w->vsindex] : 0;
  /* g: total x ko new deltas (constants); h: total x ko x ko, their own deltas (only where a
   * delta operand is a blend result, and at most what one stack could write) */
  bool nested = false;
  for (unsigned i = base + cnt; i < w->n; i++) nested |= w->bgrp[i] != 0;
  size_t ng = total * ko, nh = nested ? ng * ko : 0;
  if (nh > (size_t)CS_STACK * CS_STACK)
    return OTV_FAIL(in->err, LIMIT, OTV_T_CFF2, at,
                    "glyph %u: a blend of blends of %zu values over %u regions", w->gid, total, ko);
  if (ko &&
      (otv_mem_reserve(in->al, (void **)&w->pd, &w->pd_cap, (size_t)CS_STACK * ko, sizeof *w->pd) ||
       otv_mem_reserve(in->al, (void **)&w->nd, &w->nd_cap, ng + nh, sizeof *w->nd)))
    return OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, at, "blend deltas");
  double *g = w->nd, *h = g ? g + ng : NULL; /* (ko 0: no deltas, nothing reserved) */
  for (size_t i = 0; i < ng + nh; i++) g[i] = 0;
  bool any_g = false, any_h = false;
  /* entries below base: chain values, their own deltas */
  for (unsigned i = from; i < base; i++)
    for (unsigned c = 0; c < ko; c++)
      if (w->bgrp[i]) g[(size_t)(i - from) * ko + c] = w->pd[(size_t)i * ko + c];
  for (unsigned i = 0; i < cnt; i++) {
    unsigned e = base + i;
    size_t row = (size_t)(e - from) * ko;
    if (w->bgrp[e])
      for (unsigned c = 0; c < ko; c++) g[row + c] = w->pd[(size_t)e * ko + c];
    for (unsigned j = 0; j < k; j++) {
      unsigned x = base + cnt + i * k + j; /* the delta operand */
      double fold = col_fold(w, j), a = w->v[x];
      const double *b = w->bgrp[x] ? w->pd + (size_t)x * ko : NULL; /* (ko > 0: it kept some) */
      w->v[e] = fold_add(w, w->v[e], a, fold);
      for (unsigned c = 0; c < ko; c++) {
        double wc = col_w(w, j, c);
        g[row + c] += a * wc;
        if (b) g[row + c] += b[c] * fold;
        if (b && wc != 0)
          for (unsigned m = 0; m < ko; m++) h[(row + c) * ko + m] += wc * b[m];
      }
    }
  }
  for (size_t i = 0; i < ng; i++) any_g |= g[i] != 0;
  for (size_t i = 0; i < nh; i++) any_h |= h[i] != 0;
  /* the stack of the instance: the entries below, the defaults, the inner blend's operands */
  size_t depth = from + total + (any_h ? ng * (ko + 1) + 1 : any_g ? ng + 1 : 0);
  if (depth > CS_STACK)
    return OTV_FAIL(in->err, LIMIT, OTV_T_CFF2, at,
                    "glyph %u: chained blends of %zu values, more than %u operands", w->gid, total,
                    CS_STACK);
  /* the operands are written again, from the first one (or the earlier blend's first) */
  size_t out_at = w->bgrp[from] ? w->bout[from] : w->at[from];
  w->out->len = out_at;
  /* a static instance stores integers: the results are written rounded, and kept exact on the
   * stack, where a path operator taking them all from this stream writes them again (diffuse) */
  bool full = rounds(w);
  if (!any_g && !any_h) {
    for (unsigned i = from; i < base + cnt; i++) {
      w->at[i] = w->out->len;
      w->bgrp[i] = 0;
      otv_cs_put_num(w->out, full ? quant(w, w->v[i]) : w->v[i]);
    }
  } else {
    for (unsigned i = from; i < base + cnt; i++) otv_cs_put_num(w->out, w->v[i]);
    if (any_h) { /* the new deltas from an inner blend of ng values */
      for (size_t i = 0; i < ng; i++) otv_cs_put_num(w->out, g[i]);
      for (size_t i = 0; i < nh; i++) otv_cs_put_num(w->out, h[i]);
      otv_cs_put_num(w->out, (double)ng);
      otv_cff_put_op(w->out, OTV_CS_BLEND);
    } else {
      for (size_t i = 0; i < ng; i++) otv_cs_put_num(w->out, g[i]);
    }
    otv_cs_put_num(w->out, (double)total);
    otv_cff_put_op(w->out, OTV_CS_BLEND);
    for (unsigned i = from; i < base + cnt; i++) {
      for (unsigned c = 0; c < ko; c++) w->pd[(size_t)i * ko + c] = g[(size_t)(i - from) * ko + c];
      w->at[i] = SIZE_MAX, w->bout[i] = out_at;
      /* a blend of blends is no linear form: a later blend taking it is refused */
      w->bgrp[i] = any_h ? 0 : from + 1, w->nest[i] = any_h;
    }
  }
  for (unsigned i = 0; i < cnt; i++)
    w->frame_of[base + i] = w->frame, w->lvl[base + i] = (uint8_t)w->level, w->rnd[base + i] = full;
  w->n = base + cnt;
  return OTV_E_OK;
}

/* The stack limit of the instance at a stack-clearing operator: CFF's 48, one less before the
 * first one of a glyph (the width may stand below its operands). */
static unsigned cff1_limit(const csw *w) { return OTV_MAX_STACK_CFF - (w->cleared ? 0u : 1u); }

/* A path or stem operator whose w->n operands exceed CFF's stack, written again as several
 * operators of at most cff1_limit() operands each (TN 5177: the operand groups of each
 * operator): the lines and curves in groups that keep the operator (an even count of
 * h/vlineto arguments and of hv/vhcurveto curves keeps the orientation), rcurveline and
 * rlinecurve as rrcurveto/rlineto runs and a last rcurveline/rlinecurve, stems with the first
 * edge of each later operator made absolute, and a hint mask's implicit vstem as vstemhm
 * operators before it. Every operand was written in this stream (the analysis inlined the
 * calls between them). */
static otv_status split_op(csw *w, int op, size_t at)
{
  otv_inst *in = w->in;
  unsigned n = w->n, lim = cff1_limit(w);
  for (unsigned i = 0; i < n; i++)
    if (w->at[i] >= NOT_WRITTEN)
      return OTV_FAIL(in->err, UNSUPPORTED, OTV_T_CFF2, at,
                      "glyph %u: %u operands from several subroutines, more than CFF's %u", w->gid,
                      n, OTV_MAX_STACK_CFF);
  unsigned unit = 2, head = 0;
  int chunk_op = op, last_op = op;
  bool stems = false;
  switch (op) {
  case OTV_CS_RRCURVETO: unit = 6; break;
  case OTV_CS_RCURVELINE: unit = 6, chunk_op = OTV_CS_RRCURVETO; break;
  case OTV_CS_RLINECURVE: chunk_op = OTV_CS_RLINETO; break;
  case OTV_CS_VVCURVETO:
  case OTV_CS_HHCURVETO: unit = 4, head = n % 4 ? 1 : 0; break;
  case OTV_CS_VHCURVETO:
  case OTV_CS_HVCURVETO: unit = 8; break;
  case OTV_CS_HSTEM:
  case OTV_CS_VSTEM:
  case OTV_CS_HSTEMHM:
  case OTV_CS_VSTEMHM: stems = true; break;
  case OTV_CS_HINTMASK:
  case OTV_CS_CNTRMASK: stems = true, chunk_op = last_op = OTV_CS_VSTEMHM; break;
  case OTV_CS_RLINETO:
  case OTV_CS_HLINETO:
  case OTV_CS_VLINETO: break;
  default:
    return OTV_FAIL(in->err, UNSUPPORTED, OTV_T_CFF2, at,
                    "glyph %u: operator %d with %u operands, more than CFF's %u", w->gid, op, n,
                    OTV_MAX_STACK_CFF);
  }
  w->out->len = w->at[0];
  if (rounds(w)) /* integers, as a static instance stores (lines and curves: already) */
    for (unsigned k = 0; k < n; k++) w->v[k] = quant(w, w->v[k]);
  double edge = 0; /* stems: the sum of the values written so far */
  unsigned i = 0;
  while (n - i > lim) {
    unsigned c = i == 0 ? head + (lim - head) / unit * unit : lim / unit * unit;
    for (unsigned k = i; k < i + c; k++) {
      double v = w->v[k];
      if (stems && k == i && i) v += edge; /* the first edge, absolute */
      otv_cs_put_num(w->out, v);
    }
    for (unsigned k = i; k < i + c; k++) edge += w->v[k];
    otv_cff_put_op(w->out, chunk_op);
    i += c;
  }
  unsigned rest = n - i;
  if (op == OTV_CS_RCURVELINE && rest == 2) last_op = OTV_CS_RLINETO;   /* no curve left */
  if (op == OTV_CS_RLINECURVE && rest == 6) last_op = OTV_CS_RRCURVETO; /* no line left */
  for (unsigned k = i; k < n; k++) {
    double v = w->v[k];
    if (stems && k == i && i) v += edge;
    otv_cs_put_num(w->out, v);
  }
  if (rest) otv_cff_put_op(w->out, last_op);
  return OTV_E_OK;
}

/* Whether n operands are what a CFF charstring operator takes (TN 5177; a CFF reader finds
 * the width by the count, so a count CFF2 readers tolerate cannot be carried over). */
static bool cff1_count_ok(int op, unsigned n)
{
  switch (op) {
  case OTV_CS_RMOVETO: return n == 2;
  case OTV_CS_HMOVETO:
  case OTV_CS_VMOVETO: return n == 1;
  case OTV_CS_RLINETO: return n >= 2 && n % 2 == 0;
  case OTV_CS_HLINETO:
  case OTV_CS_VLINETO: return n >= 1;
  case OTV_CS_RRCURVETO: return n >= 6 && n % 6 == 0;
  case OTV_CS_HHCURVETO:
  case OTV_CS_VVCURVETO: return n >= 4 && n % 4 <= 1;
  case OTV_CS_HVCURVETO:
  case OTV_CS_VHCURVETO: return n >= 4 && n % 4 <= 1;
  case OTV_CS_RCURVELINE: return n >= 8 && (n - 2) % 6 == 0;
  case OTV_CS_RLINECURVE: return n >= 8 && n % 2 == 0;
  case OTV_CS_FLEX: return n == 13;
  case OTV_CS_HFLEX: return n == 7;
  case OTV_CS_HFLEX1: return n == 9;
  case OTV_CS_FLEX1: return n == 11;
  case OTV_CS_HSTEM:
  case OTV_CS_VSTEM:
  case OTV_CS_HSTEMHM:
  case OTV_CS_VSTEMHM: return n >= 2 && n % 2 == 0;
  case OTV_CS_HINTMASK:
  case OTV_CS_CNTRMASK: return n % 2 == 0;
  default: return true; /* unknown operators fail in walk() */
  }
}

/* The coordinate operand i of n of a path operator stands for (TN 5177 operand lists): 0 x,
 * 1 y, 2 neither (flex depth); -1 for the operators whose last point is implied (hflex,
 * hflex1, flex1) and for anything else. */
static int channel(int op, unsigned i, unsigned n)
{
  switch (op) {
  case OTV_CS_RMOVETO:
  case OTV_CS_RLINETO:
  case OTV_CS_RRCURVETO:
  case OTV_CS_RCURVELINE:
  case OTV_CS_RLINECURVE:
  case OTV_CS_HLINETO: return (int)(i & 1);
  case OTV_CS_VLINETO: return (int)!(i & 1);
  case OTV_CS_HMOVETO: return 0;
  case OTV_CS_VMOVETO: return 1;
  case OTV_CS_HHCURVETO: /* dy1? {dxa dxb dyb dxc}+ */
    if ((n & 1) && i == 0) return 1;
    return (i - (n & 1)) % 4 == 2 ? 1 : 0;
  case OTV_CS_VVCURVETO: /* dx1? {dya dxb dyb dyc}+ */
    if ((n & 1) && i == 0) return 0;
    return (i - (n & 1)) % 4 == 1 ? 0 : 1;
  case OTV_CS_HVCURVETO:
  case OTV_CS_VHCURVETO: {
    /* curves alternate between "dx dx dy dy" (starting horizontally) and "dy dx dy dx"; a
     * last odd operand is the last curve's final dx (after a vertical end) or dy */
    bool hv = op == OTV_CS_HVCURVETO;
    if (n % 4 == 1 && i == n - 1) return hv ^ ((((n - 1) / 4 - 1) & 1) != 0) ? 0 : 1;
    bool horiz = hv ^ (((i / 4) & 1) != 0);
    unsigned k = i % 4;
    return horiz ? (k < 2 ? 0 : 1) : (k == 0 || k == 2 ? 1 : 0);
  }
  case OTV_CS_FLEX: return i == 12 ? 2 : (int)(i & 1);
  default: return -1;
  }
}

/* The exact and the written moves (x, y) of path operator op whose operands are all known
 * here (written: rounded where an operand is a blend result). The flex operators whose last
 * point is implied come back to their start height (hflex, hflex1) or, for flex1, move along
 * the axis its readers choose from what they read. False for another operator. */
static bool moves(const csw *w, int op, double e[2], double wr[2])
{
  unsigned n = w->n;
  double ev[11], wv[11];
  e[0] = e[1] = wr[0] = wr[1] = 0;
  bool flex = op == OTV_CS_HFLEX || op == OTV_CS_HFLEX1 || op == OTV_CS_FLEX1;
  if (flex && n > 11) return false; /* (counts checked: 7, 9, 11) */
  if (!flex && (!n || channel(op, 0, n) < 0)) return false;
  for (unsigned i = 0; flex && i < n; i++)
    ev[i] = w->v[i], wv[i] = w->rnd[i] ? quant(w, w->v[i]) : w->v[i];
  if (op == OTV_CS_HFLEX || op == OTV_CS_HFLEX1) {
    /* hflex: dx1 dx2 dy2 dx3 dx4 dx5 dx6; hflex1: dx1 dy1 dx2 dy2 dx3 dx4 dx5 dy5 dx6 */
    static const uint8_t hx[7] = {0, 1, 3, 4, 5, 6, 255}, h1x[7] = {0, 2, 4, 5, 6, 8, 255};
    const uint8_t *xs = op == OTV_CS_HFLEX ? hx : h1x;
    for (int k = 0; xs[k] != 255; k++)
      if (xs[k] < n) e[0] += ev[xs[k]], wr[0] += wv[xs[k]];
  } else if (op == OTV_CS_FLEX1) {
    double sx = 0, sy = 0, sxw = 0, syw = 0;
    for (unsigned i = 0; i + 1 < n && i < 10; i += 2)
      sx += ev[i], sy += ev[i + 1], sxw += wv[i], syw += wv[i + 1];
    int ch = fabs(sxw) > fabs(syw) ? 0 : 1;
    e[ch] = (ch ? sy : sx) + (n == 11 ? ev[10] : 0);
    wr[ch] = (ch ? syw : sxw) + (n == 11 ? wv[10] : 0);
  } else {
    for (unsigned i = 0; i < n; i++) {
      int ch = channel(op, i, n);
      if (ch == 0 || ch == 1) e[ch] += w->v[i], wr[ch] += w->rnd[i] ? quant(w, w->v[i]) : w->v[i];
    }
  }
  return true;
}

/* A move (exact e, written wr) on channel ch of an operator whose operands were pushed at
 * level low or deeper: credited to the calling streams at levels up to low (the others'
 * writing does not know it). */
static void credit(csw *w, unsigned low, int ch, double e, double wr)
{
  for (unsigned f = 0; f < w->level && f <= low; f++) w->ae[f][ch] += e, w->aw[f][ch] += wr;
}

/* A point on channel ch: how far the written pen is from the exact one. */
static void point(csw *w, int ch)
{
  double d = fabs(w->pw[ch] - w->pe[ch]);
  if (d > w->err) w->err = d; /* (NAN stays) */
}

/* The pen through a path operator that is written as it stands (moves() gave e and wr when
 * m): each operand's point where the operator has one per operand, else its end point. */
static void track(csw *w, int op, bool m, const double e[2], const double wr[2])
{
  if (!m) {
    w->err = NAN;
    return;
  }
  if (channel(w->n ? op : -1, 0, w->n) < 0 || op == OTV_CS_FLEX) {
    for (int ch = 0; ch < 2; ch++) w->pe[ch] += e[ch], w->pw[ch] += wr[ch], point(w, ch);
    return;
  }
  for (unsigned i = 0; i < w->n; i++) {
    int ch = channel(op, i, w->n);
    if (ch != 0 && ch != 1) continue;
    w->pe[ch] += w->v[i], w->pw[ch] += w->rnd[i] ? quant(w, w->v[i]) : w->v[i];
    point(w, ch);
  }
}

/* Whether stack entry i was pushed in the stream being written at this level (its value can
 * be written again here). */
static bool mine(const csw *w, unsigned i)
{
  return w->level ? w->lvl[i] == w->level : w->at[i] < NOT_WRITTEN;
}

/* A path operator whose operands come from this stream and from kept calls it made (every
 * value known here): the operands pushed here are written again as diffuse() does, the others
 * stay as their subroutines write them (each one's rounding is made up by the next operand
 * of this stream on its channel). Where the stream is being written, its bytes from the first
 * such operand on are written again (the calls in between copied). False: not such an
 * operator. */
static bool mixed(csw *w, int op)
{
  unsigned n = w->n, first = n;
  if (!n || channel(op, 0, n) < 0) return false;
  for (unsigned i = 0; i < n; i++) {
    if (w->bgrp[i]) return false;
    if (first == n && mine(w, i)) first = i;
  }
  if (first == n) return false;
  for (unsigned i = 0; i < n; i++) {
    int ch = channel(op, i, n);
    bool m = mine(w, i);
    if (ch != 0 && ch != 1) {
      if (m) w->v[i] = quant(w, w->v[i]);
      continue;
    }
    w->ce[ch] += w->v[i];
    double t = m ? quant(w, w->ce[ch]) - w->cw[ch] : w->rnd[i] ? quant(w, w->v[i]) : w->v[i];
    w->pe[ch] += w->v[i], w->pw[ch] += t;
    point(w, ch);
    credit(w, w->level, ch, w->v[i], t); /* (here: every operand from this level or deeper) */
    w->cw[ch] += t;
    if (m) w->v[i] = t;
  }
  if (!writing(w)) return true;
  otv_buf *out = w->out;
  size_t start = w->at[first], end = out->len;
  unsigned j = first;
  for (size_t p = start; p < end && !out->failed;) {
    int o;
    double val;
    size_t len = otv_cs_token(out->p + p, out->p + end, &o, &val);
    if (!len || len > 8) { /* (not expected: numbers and calls) the rest as it stands */
      uint8_t tok[8];
      for (size_t q = p; q < end && !out->failed; q++) {
        tok[0] = out->p[q];
        otv_buf_bytes(out, tok, 1);
      }
      break;
    }
    while (j < n && !mine(w, j)) j++;
    if (j < n && w->at[j] == p) {
      otv_cs_put_num(out, w->v[j++]);
    } else {
      uint8_t tok[8];
      memcpy(tok, out->p + p, len); /* (out may move as it grows) */
      otv_buf_bytes(out, tok, len);
    }
    p += len;
  }
  if (!out->failed) {
    memmove(out->p + start, out->p + end, out->len - end);
    out->len = start + (out->len - end);
  }
  return true;
}

/* A full instance's stem operands (hstem/vstem/hstemhm/vstemhm, a hint mask's implicit vstem),
 * every one pushed in this stream: written again so that each edge is the exact running sum
 * rounded (the written operand is quant(sum) - the written sum), as points are (diffuse()),
 * instead of a sum of rounded operands, whose errors add up along the list: an edge the
 * variable font places exactly on an alignment zone's boundary (Source Serif 4's baseline
 * stems, 0 in exact arithmetic and in FreeType's blend) was written 1/65536 above it, out of
 * the zone, and hinted a pixel off. True when done: w->v holds the operands, written again by
 * the caller (from w->at[0]). */
static bool diffuse_stems(csw *w)
{
  if (!rounds(w) || w->analyse || !w->n) return false;
  for (unsigned i = 0; i < w->n; i++)
    if (!mine(w, i) || w->bgrp[i]) return false;
  double e = 0, wr = 0;
  for (unsigned i = 0; i < w->n; i++) {
    e += w->v[i];
    double t = quant(w, e) - wr;
    wr += t;
    w->v[i] = t;
  }
  return true;
}

/* The operands of a stem operator diffused (diffuse_stems) written again, when the stream is
 * written and the operator is not split (split_op writes w->v itself). */
static void rewrite_stems(csw *w, bool diffused)
{
  if (!diffused || !writing(w)) return;
  w->out->len = w->at[0];
  for (unsigned i = 0; i < w->n; i++) otv_cs_put_num(w->out, w->v[i]);
}

/* A full instance's path operator. Two pairs of sums per stream (x, y):
 *   - ce/cw, the exact and written coordinates so far as this stream's own writing knows them
 *     (what a kept subroutine knows when it is written on its own: from its start, without its
 *     callers' values), which decide how its operands are written;
 *   - me/mw, what the stream really moved, exact and written, which a caller adds to its ce/cw
 *     after a kept call.
 * When every operand was pushed in this stream, the operands are written again so that each
 * point's coordinate is the rounded exact running sum (the written operand is round(ce) - cw),
 * instead of a sum of rounded operands, whose errors add up along a contour: true. Otherwise
 * the operands stay as they were written (false) and the sums take the moves where they are
 * known, or restart. */
static bool diffuse(csw *w, int op)
{
  bool ok = w->n > 0, known = true, here = true;
  for (unsigned i = 0; i < w->n; i++) {
    bool mine = w->level ? w->lvl[i] == w->level : w->at[i] < NOT_WRITTEN;
    ok = ok && mine && !w->bgrp[i] && channel(op, i, w->n) >= 0;
    known = known && w->lvl[i] != UINT8_MAX;
    here = here && w->lvl[i] != UINT8_MAX && w->lvl[i] >= w->level;
  }
  if (!ok) {
    if (here && mixed(w, op)) return false;
    double e[2], wr[2];
    bool m = known && moves(w, op, e, wr);
    track(w, op, m, e, wr);
    unsigned low = UINT8_MAX; /* the lowest level an operand was pushed at */
    for (unsigned i = 0; i < w->n; i++)
      if (w->lvl[i] < low) low = w->lvl[i];
    for (int ch = 0; ch < 2 && m && low != UINT8_MAX; ch++) credit(w, low, ch, e[ch], wr[ch]);
    if (m && here)
      for (int ch = 0; ch < 2; ch++) w->ce[ch] += e[ch], w->cw[ch] += wr[ch];
    else
      w->ce[0] = w->ce[1] = w->cw[0] = w->cw[1] = 0;
    return false;
  }
  for (unsigned i = 0; i < w->n; i++) {
    int ch = channel(op, i, w->n);
    if (ch == 2) {
      w->v[i] = quant(w, w->v[i]);
      continue;
    }
    w->ce[ch] += w->v[i];
    double t = quant(w, w->ce[ch]) - w->cw[ch];
    w->pe[ch] += w->v[i], w->pw[ch] += t;
    point(w, ch);
    credit(w, w->level, ch, w->v[i], t);
    w->v[i] = t;
    w->cw[ch] += t;
  }
  if (writing(w)) w->out->len = w->at[0];
  return true;
}

/* A full instance at a kept subroutine call: whether this stream's written coordinates are
 * more than half a unit off its exact ones (in x or y). A kept subroutine writes its points
 * rounded from its own start, so each is off by the caller's drift at the call plus at most
 * half a unit; calls in a row would add their drifts up (a caller compensates a call's drift
 * only in its next operator). Such a call is written inline instead: its operators take this
 * stream's sums. The sums are the stream's own (a subroutine's from its start, the same in
 * its standalone writing and where it is walked in a caller), so the choice is too. */
static bool drifted(const csw *w)
{
  if (!rounds(w) || w->analyse) return false;
  for (int ch = 0; ch < 2; ch++)
    if (fabs(w->cw[ch] - w->ce[ch]) > 0.5 + 1e-9) return true;
  return false;
}

/* The operand of the last point of path operator op (n operands) on channel ch, when that
 * operand moves that point alone; -1 otherwise. */
static int final_operand(int op, unsigned n, int ch)
{
  switch (op) {
  case OTV_CS_RLINETO:
  case OTV_CS_RRCURVETO:
  case OTV_CS_RCURVELINE:
  case OTV_CS_RLINECURVE: return (int)n - 2 + ch;
  case OTV_CS_HLINETO:
  case OTV_CS_VLINETO:
  case OTV_CS_HHCURVETO:
  case OTV_CS_VVCURVETO:
  case OTV_CS_HVCURVETO:
  case OTV_CS_VHCURVETO:
    if (channel(op, n - 1, n) == ch) return (int)n - 1;
    /* a curve's last point with an extra operand: its other coordinate just before */
    if ((op == OTV_CS_HVCURVETO || op == OTV_CS_VHCURVETO) && n % 4 == 1 &&
        channel(op, n - 2, n) == ch)
      return (int)n - 2;
    return -1;
  default: return -1;
  }
}

/* A glyph's contour ends (a moveto or the end of the glyph): where it closes in exact
 * arithmetic (its last point is its start) but its written last point is not its written start
 * (the start was written in a kept subroutine), the glyph's last operator, when it is its own
 * and written last, is written again ending on the written start, so that no closing line
 * appears. Its last point then stands at most as far off as the start does. */
static void close_contour(csw *w)
{
  if (!w->last.valid || !rounds(w) || w->analyse || w->level || w->gid == UINT32_MAX) return;
  w->last.valid = false;
  double d[2];
  int at[2];
  for (int ch = 0; ch < 2; ch++) {
    if (fabs(w->pe[ch] - w->se[ch]) > 1e-6) return; /* open in the variable font too */
    d[ch] = w->sw[ch] - w->pw[ch];
    at[ch] = d[ch] != 0 ? final_operand(w->last.op, w->last.n, ch) : 0;
    if (fabs(d[ch]) > 1 + 1e-9 || at[ch] < 0) return;
  }
  if (d[0] == 0 && d[1] == 0) return;
  otv_buf *out = w->out;
  size_t tail = out->len - w->last.end; /* hints, calls and operands written since */
  if (tail > 256) return;
  uint8_t keep[256];
  memcpy(keep, out->p + w->last.end, tail);
  out->len = w->last.start;
  for (int ch = 0; ch < 2; ch++) w->last.v[at[ch]] += d[ch];
  for (unsigned i = 0; i < w->last.n; i++) otv_cs_put_num(out, w->last.v[i]);
  otv_cff_put_op(out, w->last.op);
  size_t end = out->len;
  otv_buf_bytes(out, keep, tail);
  if (out->failed) return;
  for (unsigned i = 0; i < w->n; i++) /* the operands written since moved */
    if (w->at[i] < NOT_WRITTEN && w->at[i] >= w->last.end) w->at[i] = w->at[i] - w->last.end + end;
  for (int ch = 0; ch < 2; ch++) w->cw[ch] += d[ch], w->pw[ch] += d[ch];
}

/* Whether the walk writes a glyph of a full instance (at any level of its calls). */
static bool glyph_walk(const csw *w) { return rounds(w) && !w->analyse && w->gid != UINT32_MAX; }

/* Adds contour key to det (once); false: out of memory. */
static bool det_add(csw *w, unsigned key)
{
  if (key >= w->cmap_len) {
    if (otv_mem_reserve(w->in->al, (void **)&w->cmap, &w->cmap_cap, (size_t)key + 1, 1))
      return false;
    memset(w->cmap + w->cmap_len, 0, (size_t)key + 1 - w->cmap_len);
    w->cmap_len = (size_t)key + 1;
  }
  if (w->cmap[key] & 1) return true;
  if (otv_mem_reserve(w->in->al, (void **)&w->det, &w->det_cap, (size_t)w->det_n + 1,
                      sizeof *w->det))
    return false;
  w->cmap[key] |= 1;
  w->det[w->det_n++] = key;
  return true;
}

/* A glyph's contour ends (after close_contour): one that closes in exact arithmetic but not as
 * written (its start or its end written in a kept subroutine, each rounded from the
 * subroutine's own start) would gain a closing line a unit long. Its key, and that of the
 * kept call that wrote its start, are noted (det): the glyph is walked again with the calls
 * made while they were drawn written inline (otv_part_cff_glyph), where the glyph's own
 * stream writes every point as the exact one rounded, its end as its start. In the glyph's
 * first walk, a contour that lies wholly in one kept call of the glyph also makes that call's
 * subroutine a candidate for flat (written with its calls inline, once for all callers). */
static void contour_end(csw *w)
{
  if (!glyph_walk(w) || !w->ncon) return;
  double tol = (w->in->flags & OTV_INSTANCE_CFF_EXACT) ? 1e-9 : 1e-6;
  for (int ch = 0; ch < 2; ch++)
    if (fabs(w->pe[ch] - w->se[ch]) > 1e-6) return; /* open in the variable font too */
  if (fabs(w->pw[0] - w->sw[0]) <= tol && fabs(w->pw[1] - w->sw[1]) <= tol) return;
  if (w->detect && w->level && w->start_seq == w->call_seq && w->call_fi < w->flat_n &&
      !w->flat[w->call_fi] && w->cand_n < 8) {
    /* the contour lies in one kept call of the glyph: its subroutine's fault */
    w->flat[w->call_fi] = 2;
    w->cand_fi[w->cand_n] = w->call_fi, w->cand_e[w->cand_n++] = w->call_e;
  }
  bool ok = det_add(w, w->ncon);
  if (ok && w->start_key != NO_KEY) ok = det_add(w, w->start_key);
  if (!ok) w->out->failed = true; /* (reported as out of memory by the caller) */
}

/* Whether a call of the glyph's own stream (depth subroutines deep, all inlined) is written
 * inline for the contours (contour_end). */
static bool inline_for_contour(const csw *w, unsigned depth)
{
  if (!glyph_walk(w) || w->level || !writing(w)) return false;
  if (w->inl_all) return true;
  if (depth > w->inl_depth) return false;
  return w->ncon < w->cmap_len && (w->cmap[w->ncon] & 2);
}

/* Whether a kept call is tried (a glyph's own stream: the choice is this glyph's alone). */
static bool try_call(const csw *w)
{
  return rounds(w) && !w->analyse && w->level == 0 && writing(w) && w->gid != UINT32_MAX;
}

/* After a tried call: whether it left values it rounded on the stack (blend results, which
 * the operator taking them here could not write again). */
static bool left_rounded(const csw *w)
{
  if (w->in->flags & OTV_INSTANCE_CFF_EXACT) return false; /* (1/65536 off at most) */
  for (unsigned i = 0; i < w->n; i++)
    if (w->lvl[i] > w->level && w->lvl[i] != UINT8_MAX && w->rnd[i] && quant(w, w->v[i]) != w->v[i])
      return true;
  return false;
}

/* The state at a tried call (its subroutine number popped) and back. */
static void snap_save(csw *w)
{
  unsigned k = w->n + 1; /* (the popped subroutine number too) */
  memcpy(w->snap.v, w->v, k * sizeof *w->v);
  memcpy(w->snap.at, w->at, k * sizeof *w->at);
  memcpy(w->snap.frame_of, w->frame_of, k * sizeof *w->frame_of);
  memcpy(w->snap.lvl, w->lvl, k * sizeof *w->lvl);
  memcpy(w->snap.rnd, w->rnd, k * sizeof *w->rnd);
  for (int ch = 0; ch < 2; ch++) {
    w->snap.ce[ch] = w->ce[ch], w->snap.cw[ch] = w->cw[ch];
    w->snap.pe[ch] = w->pe[ch], w->snap.pw[ch] = w->pw[ch];
  }
  memcpy(w->snap.ae, w->ae, sizeof w->ae), memcpy(w->snap.aw, w->aw, sizeof w->aw);
  w->snap.n = w->n, w->snap.stems = w->stems, w->snap.vsindex = w->vsindex;
  w->snap.cleared = w->cleared, w->snap.moved = w->moved, w->snap.last_valid = w->last.valid;
  w->snap.out_len = w->out->len;
  w->snap.ncon = w->ncon, w->snap.call_key = w->call_key, w->snap.start_key = w->start_key;
  w->snap.det_n = w->det_n, w->snap.marked_n = w->marked_n;
  for (int ch = 0; ch < 2; ch++) w->snap.se[ch] = w->se[ch], w->snap.sw[ch] = w->sw[ch];
}

/* The subroutines marked called since the walk's marked count was k, unmarked. */
static void unmark(csw *w, size_t k)
{
  while (w->marked_n > k) {
    w->marked_n--;
    w->marked[w->marked_n]->seen = w->marked_was[w->marked_n];
  }
}

static void snap_restore(csw *w)
{
  unsigned k = w->snap.n + 1;
  memcpy(w->v, w->snap.v, k * sizeof *w->v);
  memcpy(w->at, w->snap.at, k * sizeof *w->at);
  memcpy(w->frame_of, w->snap.frame_of, k * sizeof *w->frame_of);
  memcpy(w->lvl, w->snap.lvl, k * sizeof *w->lvl);
  memcpy(w->rnd, w->snap.rnd, k * sizeof *w->rnd);
  for (unsigned i = 0; i < k; i++) w->bgrp[i] = 0, w->nest[i] = false; /* (full: none) */
  for (int ch = 0; ch < 2; ch++) {
    w->ce[ch] = w->snap.ce[ch], w->cw[ch] = w->snap.cw[ch];
    w->pe[ch] = w->snap.pe[ch], w->pw[ch] = w->snap.pw[ch];
  }
  memcpy(w->ae, w->snap.ae, sizeof w->ae), memcpy(w->aw, w->snap.aw, sizeof w->aw);
  w->n = w->snap.n, w->stems = w->snap.stems, w->vsindex = w->snap.vsindex;
  w->cleared = w->snap.cleared, w->moved = w->snap.moved; /* (work stays charged) */
  w->last.valid = w->snap.last_valid;
  w->out->len = w->snap.out_len;
  w->ncon = w->snap.ncon, w->call_key = w->snap.call_key, w->start_key = w->snap.start_key;
  for (unsigned i = w->snap.det_n; i < w->det_n; i++) w->cmap[w->det[i]] &= (uint8_t)~1u;
  w->det_n = w->snap.det_n;
  unmark(w, w->snap.marked_n);
  for (int ch = 0; ch < 2; ch++) w->se[ch] = w->snap.se[ch], w->sw[ch] = w->snap.sw[ch];
}

/* Whether an operator of w->n operands must be split for CFF (split_op). */
static bool must_split(const csw *w)
{
  return w->ps && w->ps->cff1 && writing(w) && w->n > cff1_limit(w);
}

static otv_status walk(csw *w, otv_span s, size_t s_off, uint32_t fd, unsigned depth)
{
  otv_inst *in = w->in;
  const otv_cff *c = w->c;
  if (depth > CS_DEPTH)
    return OTV_FAIL(in->err, LIMIT, OTV_T_CFF2, s_off,
                    "glyph %u: subroutines nested deeper than %u", w->gid, CS_DEPTH);
  size_t pos = 0;
  while (pos < s.len) {
    size_t here = pos;
    if (++w->work > CS_WORK)
      return OTV_FAIL(
          in->err, LIMIT, OTV_T_CFF2, s_off + here,
          "glyph %u: more than %u charstring operands and operators (subroutine fan-out)", w->gid,
          CS_WORK);
    int op;
    double val = 0;
    size_t len = otv_cs_token(s.p + pos, s.p + s.len, &op, &val);
    if (!len)
      return OTV_FAIL(in->err, TRUNCATED, OTV_T_CFF2, s_off + here, "glyph %u: charstring", w->gid);
    pos += len;
    if (op == OTV_CS_NUMBER) {
      if (w->n == CS_STACK)
        return OTV_FAIL(in->err, LIMIT, OTV_T_CFF2, s_off + here, "glyph %u: more than %u operands",
                        w->gid, CS_STACK);
      w->v[w->n] = val;
      w->frame_of[w->n] = w->frame;
      w->bgrp[w->n] = 0, w->rnd[w->n] = false, w->nest[w->n] = false;
      w->lvl[w->n] = (uint8_t)w->level;
      if (writing(w)) {
        w->at[w->n++] = w->out->len;
        otv_buf_bytes(w->out, s.p + here, len); /* as it was written */
      } else {
        w->at[w->n++] = NOT_WRITTEN;
      }
      continue;
    }
    bool clears = op != OTV_CS_CALLSUBR && op != OTV_CS_CALLGSUBR && op != OTV_CS_RETURN &&
                  op != OTV_CS_VSINDEX && op != OTV_CS_BLEND;
    if (clears && w->ps && w->ps->cff1 && !cff1_count_ok(op, w->n))
      return OTV_FAIL(in->err, BAD_VALUE, OTV_T_CFF2, s_off + here,
                      "glyph %u: charstring operator %d with %u operands (not valid in CFF)",
                      w->gid, op, w->n);
    if (op == OTV_CS_RMOVETO || op == OTV_CS_HMOVETO || op == OTV_CS_VMOVETO) w->moved = true;
    if (clears && w->ps && w->ps->cff1 && !w->moved && op != OTV_CS_HSTEM && op != OTV_CS_VSTEM &&
        op != OTV_CS_HSTEMHM && op != OTV_CS_VSTEMHM && op != OTV_CS_HINTMASK &&
        op != OTV_CS_CNTRMASK)
      return OTV_FAIL(in->err, BAD_VALUE, OTV_T_CFF2, s_off + here,
                      "glyph %u: a path operator before any moveto (not valid in CFF)", w->gid);
    bool deep = false; /* more operands than CFF's stack holds here */
    if (w->analyse && w->ps->cff1 && op != OTV_CS_BLEND) {
      /* CFF keeps at most 48 operands; the stack of the instance is this one with the blends
       * resolved (the analysis inlines every call), plus the width before the first operator
       * that clears the stack. Such an operator is split where it is written (split_op), in
       * the glyph's own stream: the subroutines it stands in are inlined, and a call made
       * with a deep stack too. */
      unsigned stack = w->n + (clears && !w->cleared ? 1u : 0u);
      if (stack > w->max_n) w->max_n = stack;
      if (stack > OTV_MAX_STACK_CFF) {
        deep = true;
        for (unsigned x = w->frame; x; x = w->fparent[x])
          if (w->fsubr[x]) w->fsubr[x]->inl = 1;
        for (unsigned i = 0; i < w->n; i++) /* operands left by calls that returned */
          if (w->frame_of[i] != w->frame) inline_between(w, w->frame_of[i], w->frame);
      }
    }
    switch (op) {
    case OTV_CS_CALLSUBR:
    case OTV_CS_CALLGSUBR: {
      if (!w->n || !is_number(w, w->n - 1))
        return OTV_FAIL(in->err, UNSUPPORTED, OTV_T_CFF2, s_off + here,
                        "glyph %u: subroutine number not a number", w->gid);
      if (w->analyse && w->frame_of[w->n - 1] != w->frame) /* numbered by another call */
        inline_between(w, w->frame_of[w->n - 1], w->frame);
      bool local = op == OTV_CS_CALLSUBR;
      const otv_cff_index *ix = local ? &c->fds[fd].subrs : &c->gsubrs;
      double sv = w->v[--w->n] + ix->bias;
      otv_span sub;
      if (sv < 0 || sv != floor(sv) || !otv_cff_index_get(ix, (uint32_t)sv, &sub))
        return OTV_FAIL(in->err, BAD_VALUE, OTV_T_CFF2, s_off + here, "glyph %u: subroutine %g",
                        w->gid, sv);
      otv_part_subr *e =
          w->ps ? (local ? &w->ps->local[fd][(uint32_t)sv] : &w->ps->global[(uint32_t)sv]) : NULL;
      if (deep && e) e->inl = 1;
      /* a kept call stays with its number; an inlined one loses it */
      size_t fi = !w->flat ? SIZE_MAX
                  : local  ? (size_t)w->flat_at[fd] + (uint32_t)sv
                           : (uint32_t)sv;
      bool kept = w->keep && !(e && e->inl) && !inline_for_contour(w, depth) &&
                  w->flat_level != w->level; /* (a flat subroutine's calls are inlined) */
      /* a glyph's kept call is tried: written inline instead where its points would stand
       * more than a unit off (try_call); a subroutine's where its stream has drifted */
      bool trial = kept && try_call(w);
      if (kept && !trial && drifted(w)) kept = false;
      double serr = w->err;
      if (trial) snap_save(w), w->err = 0;
    again:
      if (kept && e && !w->analyse && rounds(w) && e->seen != 2) {
        /* called from a glyph of a full instance (otv_part_cff_subrs); undone with the walk */
        if (otv_mem_reserve(in->al, (void **)&w->marked, &w->marked_cap, w->marked_n + 1,
                            sizeof *w->marked) ||
            otv_mem_reserve(in->al, (void **)&w->marked_was, &w->marked_was_cap, w->marked_n + 1,
                            sizeof *w->marked_was))
          return OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, s_off + here, "subroutine states");
        w->marked[w->marked_n] = e, w->marked_was[w->marked_n++] = e->seen;
        e->seen = 2;
      }
      if (kept && w->level == 0) /* (the glyph's own call) */
        w->call_key = w->ncon, w->call_seq++, w->call_fi = fi, w->call_e = e;
      if (kept) {
        if (writing(w)) otv_cff_put_op(w->out, op);
      } else if (writing(w)) {
        if (w->at[w->n] >= NOT_WRITTEN)
          return OTV_FAIL(in->err, UNSUPPORTED, OTV_T_CFF2, s_off + here,
                          "glyph %u: subroutine number from another subroutine", w->gid);
        w->out->len = w->at[w->n];
      }
      otv_part_subr *saved_cur = w->cur;
      unsigned saved_frame = w->frame;
      if (w->analyse) {
        if (!e->seen) {
          e->seen = 1, e->stems = w->stems, e->depth = w->n, e->vsindex = (uint16_t)w->vsindex;
        } else {
          if (e->stems != w->stems || e->depth != w->n) e->differ_stems = 1;
          if (e->vsindex != w->vsindex) e->differ_vs = 1;
        }
        otv_status fs = new_frame(w, e);
        if (fs) return fs;
        w->cur = e;
      }
      /* a kept subroutine is written from sums of its own (0 at its start): what it moves
       * exactly and as written adds to this stream's sums after it */
      unsigned saved_flat = w->flat_level;
      if (kept) {
        w->level++;
        if (fi < w->flat_n && w->flat[fi] == 1) w->flat_level = w->level;
        for (int ch = 0; ch < 2; ch++) {
          w->ae[w->level - 1][ch] = w->ce[ch], w->aw[w->level - 1][ch] = w->cw[ch];
          w->ce[ch] = w->cw[ch] = 0;
        }
      }
      otv_status st = walk(w, sub, (size_t)(sub.p - c->tab.p), fd, depth + 1);
      if (kept) {
        w->flat_level = saved_flat;
        w->level--;
        for (int ch = 0; ch < 2; ch++) {
          w->ce[ch] = w->ae[w->level][ch], w->cw[ch] = w->aw[w->level][ch];
        }
      }
      if (trial) {
        trial = false;
        if (!st && (w->err > 1 + 1e-9 || left_rounded(w))) { /* (NAN: not known, kept) */
          snap_restore(w);
          kept = false;
          goto again;
        }
        w->err = isnan(serr) || isnan(w->err) ? NAN : fmax(serr, w->err);
      }
      if (w->analyse && saved_cur) { /* what a subroutine contains, its callers contain */
        saved_cur->has_mask |= e->has_mask;
        saved_cur->has_blend |= e->has_blend;
      }
      w->cur = saved_cur;
      w->frame = saved_frame;
      if (st) return st;
      break;
    }
    case OTV_CS_RETURN: /* CFF2 has none, but a subroutine ending with it ends there */
      /* (a full instance's subroutine writer ends each with its own) */
      if (w->keep && writing(w) && !(w->ps && w->ps->full)) otv_cff_put_op(w->out, OTV_CS_RETURN);
      return OTV_E_OK;
    case OTV_CS_VSINDEX:
      if (!w->n || w->at[w->n - 1] == SIZE_MAX || w->v[w->n - 1] < 0 ||
          w->v[w->n - 1] >= c->ivs.data_count)
        return OTV_FAIL(in->err, BAD_VALUE, OTV_T_CFF2, s_off + here, "glyph %u: vsindex", w->gid);
      /* an operand pushed by another call (tests/fonts/cff2_vsindex_subr.otf: a subroutine
       * pushes it): every call between the two is inlined, so that a full instance, which
       * drops the vsindex, drops its operand with it */
      if (w->analyse && w->frame_of[w->n - 1] != w->frame)
        inline_between(w, w->frame_of[w->n - 1], w->frame);
      w->vsindex = (unsigned)w->v[w->n - 1];
      if (writing(w) && w->ps && w->ps->full && w->at[w->n - 1] >= NOT_WRITTEN)
        return OTV_FAIL(in->err, UNSUPPORTED, OTV_T_CFF2, s_off + here,
                        "glyph %u: vsindex operand from another subroutine", w->gid);
      if (writing(w) && w->ps && w->ps->full)
        w->out->len = w->at[w->n - 1]; /* every blend is resolved: no vsindex */
      else if (writing(w))
        otv_cff_put_op(w->out, OTV_CS_VSINDEX);
      w->n = 0;
      break;
    case OTV_CS_BLEND: {
      otv_status st = blend(w, s_off + here);
      if (st) return st;
      break;
    }
    case OTV_CS_HSTEM:
    case OTV_CS_VSTEM:
    case OTV_CS_HSTEMHM:
    case OTV_CS_VSTEMHM: {
      bool diffused = diffuse_stems(w);
      if (must_split(w)) {
        otv_status st = split_op(w, op, s_off + here);
        if (st) return st;
      } else if (writing(w)) {
        rewrite_stems(w, diffused);
        otv_cff_put_op(w->out, op);
      }
      w->stems += w->n / 2;
      w->n = 0;
      break;
    }
    case OTV_CS_HINTMASK:
    case OTV_CS_CNTRMASK: { /* an implicit vstem first, then the mask */
      bool diffused = diffuse_stems(w);
      if (must_split(w)) {
        otv_status st = split_op(w, op, s_off + here);
        if (st) return st;
      } else {
        rewrite_stems(w, diffused);
      }
      w->stems += w->n / 2;
      w->n = 0;
      if (w->analyse && w->cur) w->cur->has_mask = 1;
      if (writing(w)) otv_cff_put_op(w->out, op);
      size_t mlen = (w->stems + 7) / 8;
      if (mlen > s.len - pos)
        return OTV_FAIL(in->err, TRUNCATED, OTV_T_CFF2, s_off + here, "glyph %u: hint mask",
                        w->gid);
      if (writing(w)) otv_buf_bytes(w->out, s.p + pos, mlen); /* in range: checked above */
      pos += mlen;
      break;
    }
    case OTV_CS_VMOVETO:
    case OTV_CS_RLINETO:
    case OTV_CS_HLINETO:
    case OTV_CS_VLINETO:
    case OTV_CS_RRCURVETO:
    case OTV_CS_RMOVETO:
    case OTV_CS_HMOVETO:
    case OTV_CS_RCURVELINE:
    case OTV_CS_RLINECURVE:
    case OTV_CS_VVCURVETO:
    case OTV_CS_HHCURVETO:
    case OTV_CS_VHCURVETO:
    case OTV_CS_HVCURVETO:
    case OTV_CS_HFLEX:
    case OTV_CS_FLEX:
    case OTV_CS_HFLEX1:
    case OTV_CS_FLEX1: {
      /* (in a kept call's subroutine too: its sums are what its own stream writes) */
      bool mv = op == OTV_CS_RMOVETO || op == OTV_CS_HMOVETO || op == OTV_CS_VMOVETO;
      if (mv) close_contour(w), contour_end(w);
      bool diffused = rounds(w) && !w->analyse && diffuse(w, op) && writing(w);
      w->last.valid = false;
      if (must_split(w)) {
        otv_status st = split_op(w, op, s_off + here);
        if (st) return st;
      } else if (diffused) {
        size_t start = w->out->len;
        for (unsigned i = 0; i < w->n; i++) otv_cs_put_num(w->out, w->v[i]);
        otv_cff_put_op(w->out, op);
        if (!mv && w->level == 0 && w->gid != UINT32_MAX) {
          w->last.valid = true, w->last.op = op, w->last.n = w->n;
          w->last.start = start, w->last.end = w->out->len;
          memcpy(w->last.v, w->v, w->n * sizeof *w->v);
        }
      } else if (writing(w)) {
        otv_cff_put_op(w->out, op);
      }
      if (mv) { /* (the pen after the move: where the contour starts) */
        for (int ch = 0; ch < 2; ch++) w->se[ch] = w->pe[ch], w->sw[ch] = w->pw[ch];
        w->ncon++;
        w->start_key = w->level ? w->call_key : NO_KEY;
        w->start_seq = w->level ? w->call_seq : NO_KEY;
      }
      w->n = 0;
      break;
    }
    default:
      return OTV_FAIL(in->err, BAD_VALUE, OTV_T_CFF2, s_off + here,
                      "glyph %u: charstring operator %d", w->gid, op);
    }
    if (clears) w->cleared = true;
  }
  return OTV_E_OK;
}

void otv_part_remap_free(otv_inst *in)
{
  otv_part_remap *m = in->cff_remap;
  if (!m) return;
  const otv_alloc *al = in->al;
  for (unsigned d = 0; d < m->data_count; d++) {
    size_t k = m->k ? m->k[d] : 0, kn = m->kn ? m->kn[d] : 0;
    if (m->w && m->w[d]) otv_mem_free(al, m->w[d], ((k && kn) ? k * kn : 1) * sizeof **m->w);
    if (m->fold && m->fold[d]) otv_mem_free(al, m->fold[d], (k ? k : 1) * sizeof **m->fold);
    if (m->cols && m->cols[d]) otv_mem_free(al, m->cols[d], (kn ? kn : 1) * sizeof **m->cols);
  }
  size_t dc = m->data_count ? m->data_count : 1;
  if (m->k) otv_mem_free(al, m->k, dc * sizeof *m->k);
  if (m->kn) otv_mem_free(al, m->kn, dc * sizeof *m->kn);
  if (m->w) otv_mem_free(al, m->w, dc * sizeof *m->w);
  if (m->fold) otv_mem_free(al, m->fold, dc * sizeof *m->fold);
  if (m->cols) otv_mem_free(al, m->cols, dc * sizeof *m->cols);
  if (m->regs) otv_mem_free(al, m->regs, m->regs_cap * sizeof *m->regs);
  otv_mem_free(al, m, sizeof *m);
  in->cff_remap = NULL;
}

/* The index of region g (kept_count triples) in the remap's new region list, added when new. */
static int remap_region(otv_inst *in, otv_part_remap *m, const int16_t *g)
{
  size_t tri = 3 * (size_t)m->kept_count;
  for (unsigned i = 0; i < m->nregs; i++)
    if (!memcmp(m->regs + i * tri, g, tri * sizeof *g)) return (int)i;
  if (m->nregs >= 0xFFFF || otv_mem_reserve(in->al, (void **)&m->regs, &m->regs_cap,
                                            (m->nregs + 1) * (tri ? tri : 1), sizeof *m->regs))
    return -1;
  memcpy(m->regs + m->nregs * tri, g, tri * sizeof *g);
  return (int)m->nregs++;
}

/* Regions split by axis limits: the remap of every ItemVariationData (inst.h). */
static otv_status build_remap(otv_inst *in, otv_piece *pc)
{
  const otv_ivs *ivs = &in->face->cff.ivs;
  unsigned dc = ivs->data_count, kc = in->pin.kept_count, ac = in->pin.axis_count;
  otv_part_remap *m = otv_mem_calloc(in->al, 1, sizeof *m);
  if (!m) return OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "blend remap");
  in->cff_remap = m;
  m->kept_count = kc;
  size_t n = dc ? dc : 1;
  m->k = otv_mem_calloc(in->al, n, sizeof *m->k);
  m->kn = otv_mem_calloc(in->al, n, sizeof *m->kn);
  m->w = otv_mem_calloc(in->al, n, sizeof *m->w);
  m->fold = otv_mem_calloc(in->al, n, sizeof *m->fold);
  m->cols = otv_mem_calloc(in->al, n, sizeof *m->cols);
  if (!m->k || !m->kn || !m->w || !m->fold || !m->cols) goto nomem;
  m->data_count = dc;
  int16_t s[OTV_MAX_AXES], p[OTV_MAX_AXES], e[OTV_MAX_AXES], g[3 * OTV_MAX_AXES];
  double sc[OTV_MAX_AXES], s0[OTV_MAX_AXES];
  for (unsigned d = 0; d < dc; d++) {
    const otv_ivd *v = &ivs->data[d];
    unsigned k = v->region_index_count;
    /* the new columns: at most OTV_PIECES_MAX per old one */
    size_t cap = (size_t)k * OTV_PIECES_MAX;
    int *col = otv_mem_alloc(in->al, (cap ? cap : 1) * sizeof *col);
    double *wt = otv_mem_alloc(in->al, (cap ? cap : 1) * sizeof *wt);
    uint16_t *uniq = otv_mem_alloc(in->al, (cap ? cap : 1) * sizeof *uniq);
    m->fold[d] = otv_mem_calloc(in->al, k ? k : 1, sizeof **m->fold);
    m->k[d] = k;
    unsigned kn = 0;
    otv_status st = OTV_E_OK;
    if (!col || !wt || !uniq || !m->fold[d]) st = OTV_E_NOMEM;
    size_t ne = 0; /* (old column, new column, weight) entries, old column j at [j * P, ...) */
    unsigned *count = NULL;
    if (!st && !(count = otv_mem_calloc(in->al, k ? k : 1, sizeof *count))) st = OTV_E_NOMEM;
    for (unsigned j = 0; j < k && !st; j++) {
      unsigned r = otv_ivd_region(v, j);
      if (r >= ivs->region_count) continue;
      otv_ivs_region(ivs, r, ac, s, p, e);
      int kp, np = otv_pin_pieces(&in->pin, s, p, e, sc, &kp, pc, OTV_PIECES_MAX);
      int k0 = otv_pin_factors(&in->pin, s, p, e, s0);
      m->fold[d][j] = k0 < 0 ? 0 : otv_pin_scale(1.0, s0, k0);
      if (np == -2) {
        st = OTV_E_LIMIT;
        break;
      }
      double pinned = kp < 0 ? 0 : otv_pin_scale(1.0, sc, kp);
      for (int i = 0; i < np; i++) {
        for (unsigned q = 0; q < kc; q++)
          g[3 * q] = pc[i].s[q], g[3 * q + 1] = pc[i].p[q], g[3 * q + 2] = pc[i].e[q];
        int gi = remap_region(in, m, g);
        if (gi < 0) {
          st = OTV_E_NOMEM;
          break;
        }
        unsigned c = 0;
        while (c < kn && uniq[c] != (uint16_t)gi) c++;
        if (c == kn) uniq[kn++] = (uint16_t)gi;
        col[(size_t)j * OTV_PIECES_MAX + count[j]] = (int)c;
        wt[(size_t)j * OTV_PIECES_MAX + count[j]] = pinned * pc[i].coef;
        count[j]++;
        ne++;
      }
    }
    if (!st) {
      m->kn[d] = kn;
      m->w[d] = otv_mem_calloc(in->al, (k && kn) ? (size_t)k * kn : 1, sizeof **m->w);
      m->cols[d] = otv_mem_alloc(in->al, (kn ? kn : 1) * sizeof **m->cols);
      if (!m->w[d] || !m->cols[d]) st = OTV_E_NOMEM;
    }
    if (!st) {
      memcpy(m->cols[d], uniq, kn * sizeof *uniq);
      for (unsigned j = 0; j < k; j++)
        for (unsigned i = 0; i < count[j]; i++)
          m->w[d][(size_t)j * kn + (unsigned)col[(size_t)j * OTV_PIECES_MAX + i]] +=
              wt[(size_t)j * OTV_PIECES_MAX + i];
    }
    (void)ne;
    if (col) otv_mem_free(in->al, col, (cap ? cap : 1) * sizeof *col);
    if (wt) otv_mem_free(in->al, wt, (cap ? cap : 1) * sizeof *wt);
    if (uniq) otv_mem_free(in->al, uniq, (cap ? cap : 1) * sizeof *uniq);
    if (count) otv_mem_free(in->al, count, (k ? k : 1) * sizeof *count);
    if (st == OTV_E_LIMIT)
      return OTV_FAIL(in->err, LIMIT, OTV_T_CFF2, 0,
                      "ItemVariationData %u: a region split into more than %u", d, OTV_PIECES_MAX);
    if (st) goto nomem;
  }
  return OTV_E_OK;
nomem:
  return OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "blend remap");
}

otv_status otv_part_cff_modes(otv_inst *in, int8_t **mode, double **factor)
{
  const otv_ivs *ivs = &in->face->cff.ivs;
  unsigned rc = ivs->region_count, n = rc ? rc : 1;
  *mode = otv_mem_alloc(in->al, n);
  *factor = otv_mem_calloc(in->al, 2 * (size_t)n, sizeof **factor);
  otv_piece *pc = otv_mem_alloc(in->al, OTV_PIECES_MAX * sizeof *pc);
  otv_status st = OTV_E_OK;
  if (!*mode || !*factor || !pc) {
    st = OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "blend regions");
    goto done;
  }
  int16_t s[OTV_MAX_AXES], p[OTV_MAX_AXES], e[OTV_MAX_AXES];
  double sc[OTV_MAX_AXES];
  bool split = false;
  for (unsigned r = 0; r < rc; r++) {
    otv_ivs_region(ivs, r, in->pin.axis_count, s, p, e);
    int k, np = otv_pin_pieces(&in->pin, s, p, e, sc, &k, pc, OTV_PIECES_MAX);
    double pinned = k < 0 ? 0 : otv_pin_scale(1.0, sc, k);
    /* the part of the region that is constant over the new space: its scalar at the new
     * default (the pinned factor alone for a region without a kept axis, 0 for one whose kept
     * axes are whole: their defaults are 0) */
    double s0[OTV_MAX_AXES];
    int k0 = otv_pin_factors(&in->pin, s, p, e, s0);
    double fold = k0 < 0 ? 0 : otv_pin_scale(1.0, s0, k0);
    if (np < -1 || np > 1) {
      split = true; /* the blends are remapped instead (build_remap) */
      continue;
    }
    if (np < 0) {
      (*mode)[r] = -1;
    } else if (np == 0) {
      (*mode)[r] = 0, (*factor)[r] = fold; /* without a kept axis: the pinned factor */
    } else {
      double keep = pc[0].coef == 1 ? pinned : pinned * pc[0].coef;
      (*mode)[r] = (int8_t)(fold != 0 ? 2 : 1);
      (*factor)[r] = keep;
      (*factor)[n + r] = fold;
    }
  }
  if (split) st = build_remap(in, pc);
done:
  if (pc) otv_mem_free(in->al, pc, OTV_PIECES_MAX * sizeof *pc);
  return st;
}

otv_status otv_part_cff_store(otv_inst *in, otv_buf *out)
{
  const otv_part_remap *m = in->cff_remap;
  unsigned dc = m->data_count, kc = m->kept_count;
  size_t start = out->len;
  otv_buf_u16(out, 0); /* length, set below */
  size_t hdr = 8 + 4 * (size_t)dc, list = 4 + (size_t)m->nregs * kc * 6;
  otv_buf_u16(out, 1); /* format */
  otv_buf_u32(out, (uint32_t)hdr);
  otv_buf_u16(out, (uint16_t)dc);
  size_t at = hdr + list;
  for (unsigned d = 0; d < dc; d++) {
    otv_buf_u32(out, (uint32_t)at);
    at += 6 + 2 * (size_t)m->kn[d];
  }
  otv_buf_u16(out, (uint16_t)kc);
  otv_buf_u16(out, (uint16_t)m->nregs);
  for (size_t i = 0; i < (size_t)m->nregs * kc * 3; i++) otv_buf_u16(out, (uint16_t)m->regs[i]);
  for (unsigned d = 0; d < dc; d++) {
    otv_buf_u16(out, 0); /* itemCount: CFF2 keeps its deltas in the charstrings */
    otv_buf_u16(out, 0); /* wordDeltaCount */
    otv_buf_u16(out, (uint16_t)m->kn[d]);
    for (unsigned c = 0; c < m->kn[d]; c++) otv_buf_u16(out, m->cols[d][c]);
  }
  size_t len = out->len - start - 2;
  if (len > 0xFFFF)
    return OTV_FAIL(in->err, LIMIT, OTV_T_CFF2, 0, "VariationStore of %zu bytes (past 64 KiB)",
                    len);
  if (out->failed) return OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "VariationStore");
  otv_buf_put_u16(out, start, (uint16_t)len);
  return OTV_E_OK;
}

/* The walker of this instance: allocated once (its stacks are 10 KiB) and kept in ps, reset
 * for each glyph or subroutine INDEX. */
static csw *csw_get(otv_inst *in, const int8_t *mode, const double *factor, otv_part_subrs *ps,
                    otv_buf *out)
{
  csw *w = ps->w;
  if (!w) {
    w = otv_mem_alloc(in->al, sizeof *w);
    if (!w) return NULL;
    w->pd = NULL, w->pd_cap = 0;
    w->nd = NULL, w->nd_cap = 0;
    w->det = NULL, w->det_cap = 0;
    w->cmap = NULL, w->cmap_cap = w->cmap_len = 0;
    w->marked = NULL, w->marked_was = NULL, w->marked_cap = w->marked_was_cap = 0;
    w->flat = NULL, w->flat_n = 0, w->flat_at = NULL, w->flat_at_n = 0;
    ps->w = w;
  }
  memset(w, 0, offsetof(csw, v)); /* the stack arrays are filled as they are pushed */
  w->in = in, w->c = &in->face->cff, w->out = out, w->mode = mode, w->factor = factor, w->ps = ps;
  w->n = 0, w->stems = 0, w->vsindex = 0, w->gid = 0, w->work = 0, w->max_n = 0;
  w->cleared = false, w->moved = false, w->last.valid = false;
  w->start_key = w->call_key = w->flat_level = w->start_seq = NO_KEY;
  w->call_fi = SIZE_MAX;
  return w;
}

otv_status otv_part_cff_glyph(otv_inst *in, uint32_t gid, const int8_t *mode, const double *factor,
                              otv_part_subrs *ps, otv_buf *out)
{
  const otv_cff *c = &in->face->cff;
  uint32_t fd = 0;
  otv_span s;
  if (!otv_cff_fd_of(c, gid, &fd) || !otv_cff_index_get(&c->charstrings, gid, &s))
    return OTV_FAIL(in->err, BAD_VALUE, OTV_T_CFF2, 0, "glyph %u: charstring or Font DICT", gid);
  size_t start = out->len;
  otv_status st = OTV_E_OK;
  /* a full instance whose contours close as written only with some calls inline (contour_end)
   * is walked again with them inline: the glyph's own calls made while those contours were
   * drawn, then, where a contour still does not close, also the calls in those calls, at last
   * every call of the glyph's own stream (at most 4 walks) */
  const unsigned last = 3;
  bool first = true; /* (the walk that may find flat subroutines) */
  for (unsigned pass = 0; pass <= last; pass++) {
    csw *w = csw_get(in, mode, factor, ps, out);
    if (!w) return OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "charstring stack");
    w->gid = gid;
    w->keep = true;
    w->vsindex = c->fds[fd].vsindex;
    if (!pass) w->cmap_len = 0; /* (the glyph's contour keys) */
    w->detect = first && w->flat;
    w->inl_depth = pass ? pass - 1 : 0, w->inl_all = pass == last;
    if (w->vsindex && !ps->full) { /* the Private DICT's vsindex, which the instance's Private
                                      * DICT drops */
      otv_cs_put_num(out, w->vsindex);
      otv_cff_put_op(out, OTV_CS_VSINDEX);
    }
    st = walk(w, s, (size_t)(s.p - c->tab.p), fd, 0);
    if (!st && ps->full) close_contour(w), contour_end(w); /* the last contour */
    bool again = !st && w->det_n && pass < last && !out->failed;
    if (again) unmark(w, 0), out->len = start;
    /* a candidate no earlier glyph's walk followed kept (no glyph written so far depends on
     * how it is written) is made flat, and the glyph walked again with it */
    bool made = false;
    for (unsigned i = 0; i < w->cand_n; i++) {
      bool ok = again && w->cand_e[i] && w->cand_e[i]->seen != 2;
      w->flat[w->cand_fi[i]] = ok ? 1 : 0;
      made |= ok;
    }
    w->detect = first = false;
    if (!again) break;
    if (made) {
      pass = UINT_MAX; /* (the first walk again: pass 0 after the increment) */
      continue;
    }
    for (unsigned i = 0; i < w->det_n; i++) w->cmap[w->det[i]] = 2;
  }
  if (!st && out->failed) st = OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "charstrings");
  return st;
}

void otv_part_subrs_free(otv_inst *in, otv_part_subrs *ps)
{
  const otv_cff *c = &in->face->cff;
  if (ps->w) {
    csw *w = ps->w;
    if (w->pd) otv_mem_free(in->al, w->pd, w->pd_cap * sizeof *w->pd);
    if (w->nd) otv_mem_free(in->al, w->nd, w->nd_cap * sizeof *w->nd);
    if (w->det) otv_mem_free(in->al, w->det, w->det_cap * sizeof *w->det);
    if (w->cmap) otv_mem_free(in->al, w->cmap, w->cmap_cap);
    if (w->marked) otv_mem_free(in->al, w->marked, w->marked_cap * sizeof *w->marked);
    if (w->marked_was) otv_mem_free(in->al, w->marked_was, w->marked_was_cap);
    if (w->flat) otv_mem_free(in->al, w->flat, w->flat_n ? w->flat_n : 1);
    if (w->flat_at) otv_mem_free(in->al, w->flat_at, w->flat_at_n * sizeof *w->flat_at);
    otv_mem_free(in->al, w, sizeof(csw));
  }
  if (ps->global)
    otv_mem_free(in->al, ps->global, (c->gsubrs.count ? c->gsubrs.count : 1) * sizeof *ps->global);
  if (ps->local) {
    for (uint32_t f = 0; f < c->fd_count; f++)
      if (ps->local[f])
        otv_mem_free(in->al, ps->local[f],
                     (c->fds[f].subrs.count ? c->fds[f].subrs.count : 1) * sizeof **ps->local);
    otv_mem_free(in->al, ps->local, (c->fd_count ? c->fd_count : 1) * sizeof *ps->local);
  }
  memset(ps, 0, sizeof *ps);
}

/* A full instance: the flat marks of every subroutine (otv_part_cff_glyph sets them). */
static otv_status flat_alloc(otv_inst *in, const int8_t *mode, const double *factor,
                             otv_part_subrs *ps)
{
  const otv_cff *c = &in->face->cff;
  otv_buf scratch;
  otv_buf_init(&scratch, in->al);
  csw *w = csw_get(in, mode, factor, ps, &scratch);
  if (!w) return OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "charstring stack");
  size_t n = c->gsubrs.count;
  w->flat_at_n = c->fd_count;
  w->flat_at = otv_mem_alloc(in->al, (c->fd_count ? c->fd_count : 1) * sizeof *w->flat_at);
  if (!w->flat_at) return OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "subroutine states");
  for (uint32_t f = 0; f < c->fd_count; f++)
    w->flat_at[f] = (uint32_t)n, n += c->fds[f].subrs.count;
  w->flat_n = n;
  w->flat = otv_mem_calloc(in->al, n ? n : 1, 1);
  if (!w->flat) return OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "subroutine states");
  return OTV_E_OK;
}

otv_status otv_part_cff_analyse(otv_inst *in, const int8_t *mode, const double *factor,
                                otv_part_subrs *ps)
{
  const otv_cff *c = &in->face->cff;
  bool full = ps->full, cff1 = ps->cff1;
  memset(ps, 0, sizeof *ps);
  ps->full = full, ps->cff1 = cff1;
  ps->global = otv_mem_calloc(in->al, c->gsubrs.count ? c->gsubrs.count : 1, sizeof *ps->global);
  ps->local = otv_mem_calloc(in->al, c->fd_count ? c->fd_count : 1, sizeof *ps->local);
  if (!ps->global || !ps->local) goto nomem;
  for (uint32_t f = 0; f < c->fd_count; f++) {
    ps->local[f] = otv_mem_calloc(in->al, c->fds[f].subrs.count ? c->fds[f].subrs.count : 1,
                                  sizeof **ps->local);
    if (!ps->local[f]) goto nomem;
  }
  otv_buf scratch;
  otv_buf_init(&scratch, in->al);
  csw *w = csw_get(in, mode, factor, ps, &scratch);
  if (!w) goto nomem;
  w->analyse = true;
  otv_status st = OTV_E_OK;
  for (uint32_t g = 0; g < c->charstrings.count && !st; g++) {
    uint32_t fd = 0;
    otv_span s;
    if (!otv_cff_fd_of(c, g, &fd) || !otv_cff_index_get(&c->charstrings, g, &s)) {
      st = OTV_FAIL(in->err, BAD_VALUE, OTV_T_CFF2, 0, "glyph %u: charstring or Font DICT", g);
      break;
    }
    w->gid = g, w->n = 0, w->stems = 0, w->level = 0, w->cur = NULL, w->work = 0;
    w->cleared = false, w->moved = false;
    w->vsindex = c->fds[fd].vsindex;
    w->frame = 0, w->frames = 0; /* frame ids are per glyph: the chains end at its frame */
    if ((st = new_frame(w, NULL))) break;
    scratch.len = 0;
    st = walk(w, s, (size_t)(s.p - c->tab.p), fd, 0);
  }
  if (w->fparent) otv_mem_free(in->al, w->fparent, w->fparent_cap * sizeof *w->fparent);
  if (w->fsubr) otv_mem_free(in->al, w->fsubr, w->fsubr_cap * sizeof *w->fsubr);
  bool failed = scratch.failed;
  otv_buf_free(&scratch);
  if (st) return st;
  if (failed) goto nomem;
  /* a subroutine whose hint masks or blends depend on how it is entered, entered in different
   * ways, is inlined too */
  for (uint32_t i = 0; i < c->gsubrs.count; i++) {
    otv_part_subr *e = &ps->global[i];
    if ((e->has_mask && e->differ_stems) || (e->has_blend && e->differ_vs)) e->inl = 1;
  }
  for (uint32_t f = 0; f < c->fd_count; f++)
    for (uint32_t i = 0; i < c->fds[f].subrs.count; i++) {
      otv_part_subr *e = &ps->local[f][i];
      if ((e->has_mask && e->differ_stems) || (e->has_blend && e->differ_vs)) e->inl = 1;
    }
  return full ? flat_alloc(in, mode, factor, ps) : OTV_E_OK;
nomem:
  return OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "subroutine states");
}

otv_status otv_part_cff_subrs(otv_inst *in, const int8_t *mode, const double *factor,
                              otv_part_subrs *ps, int fd, otv_buf *data, uint32_t *offs)
{
  const otv_cff *c = &in->face->cff;
  const otv_cff_index *ix = fd < 0 ? &c->gsubrs : &c->fds[fd].subrs;
  const otv_part_subr *states = fd < 0 ? ps->global : ps->local[fd];
  csw *w = csw_get(in, mode, factor, ps, data);
  if (!w) return OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "charstring stack");
  w->keep = true;
  otv_status st = OTV_E_OK;
  for (uint32_t i = 0; i < ix->count && !st; i++) {
    otv_span s;
    offs[i] = (uint32_t)data->len;
    if (!otv_cff_index_get(ix, i, &s)) {
      st = OTV_FAIL(in->err, BAD_VALUE, OTV_T_CFF2, 0, "subroutine %u", i);
      break;
    }
    const otv_part_subr *e = &states[i];
    /* never called through the INDEX (a full instance: by no glyph's writing, which may write
     * a call inline; seen 2 where one did not): copied, which keeps the numbering */
    if (!e->seen || e->inl || (ps->full && e->seen != 2)) {
      if (ps->cff1) /* (its blends would not be CFF; nothing calls it) */
        otv_cff_put_op(data, OTV_CS_RETURN);
      else if (!ps->full)
        otv_buf_bytes(data, s.p, s.len);
      continue;
    }
    /* rewritten from its entry state: the caller's operands are unknown values (a flat one
     * with its calls inline) */
    size_t fi = fd < 0 ? i : (w->flat ? (size_t)w->flat_at[fd] + i : SIZE_MAX);
    w->flat_level = fi < w->flat_n && w->flat[fi] == 1 ? 0 : NO_KEY;
    w->gid = UINT32_MAX, w->level = 0, w->stems = e->stems, w->vsindex = e->vsindex, w->work = 0;
    w->moved = true; /* (the glyphs that call it were checked: the analysis walks them) */
    for (int ch = 0; ch < 2; ch++) w->ce[ch] = w->cw[ch] = 0;
    w->n = 0;
    for (uint32_t k = 0; k < e->depth && w->n < CS_STACK; k++) {
      w->v[w->n] = 0;
      w->frame_of[w->n] = 0;
      w->bgrp[w->n] = 0, w->nest[w->n] = false;
      w->lvl[w->n] = UINT8_MAX, w->rnd[w->n] = false; /* the caller's: not this stream's */
      w->at[w->n++] = SIZE_MAX;
    }
    st = walk(w, s, (size_t)(s.p - c->tab.p), fd < 0 ? 0 : (uint32_t)fd, 0);
    if (ps->cff1) otv_cff_put_op(data, OTV_CS_RETURN); /* CFF subroutines end with it */
  }
  offs[ix->count] = (uint32_t)data->len;
  if (!st && data->failed) st = OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "subroutines");
  return st;
}

/*
 * build/cff2.c - CFF (or CFF2) masters merged into a variable CFF2 table (spec: CFF2 "Variation
 * data operators", "CharString operators", "VariationStore Data"; Adobe TN 5176 and TN 5177 for
 * the CFF masters).
 *
 * Per glyph, every master's charstring is run (subroutines inlined, the CFF width dropped,
 * flex and the h/v forms written out) into one list of commands: stems (as declared), hint and
 * counter masks, and one moveto, lineto or curveto per segment. The masters' lists must agree
 * (command by command, operand counts, mask bytes); otherwise the build fails naming the
 * glyph, the master and what differs. A master whose glyph is missing, or empty where the
 * default's is not, is sparse: the glyph uses the model of the masters that have it (a VarData
 * of its own, chosen by vsindex). Each operand gets the model's deltas (rounded half to even);
 * one that moves becomes a blend. The commands are then specialized as fontTools' cffLib
 * specializer does (h/v forms, zero-length lines dropped, runs joined up to the stack limit),
 * a vstem before the first hintmask is left implicit, and runs of blended operands share one
 * blend. The masters' subroutines are inlined; contour bodies repeated across glyphs become
 * global subroutines when that makes the table smaller (fontTools 4.38 keeps none).
 *
 * Private DICTs (one per Font DICT of the default master, matched to each master's through
 * the glyphs that use it): the blue zones and stems whose operands differ are blended (their
 * DICT operands are already relative, so they blend operand by operand), the rest is the
 * default's; CFF-only operators are dropped. Top DICT: FontMatrix (when not the default),
 * CharStrings, FDArray, FDSelect (several Font DICTs), vstore. Also maxp 0.5 and post (2 with
 * the default master's glyph names when it has them, else 3). The
 * masters themselves (parsing, charsets, glyph matching) are build/cff2_master.c.
 */
#include "build/cff2.h"
#include "cff_strings.h"
#include "cff_write.h"
#include "post_names.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#define CFF2_STACK OTV_MAX_STACK_CFF2
#define POST_HEADER_LEN 32u

/* ---- charstrings into commands ---- */

enum { C_HSTEM, C_HSTEMHM, C_VSTEM, C_VSTEMHM, C_HINTMASK, C_CNTRMASK, C_MOVE, C_LINE, C_CURVE };
static const char *const cmd_name[] = {"hstem",    "hstemhm", "vstem",  "vstemhm", "hintmask",
                                       "cntrmask", "moveto",  "lineto", "curveto"};

typedef struct bcmd {
  uint8_t op;
  uint32_t a, n; /* operands v[a..a+n) (masks: bytes mk[a..a+n)) */
} bcmd;

/* One master's glyph as commands. */
typedef struct cglyph {
  bcmd *c;
  size_t cn, ccap;
  double *v;
  size_t vn, vcap;
  uint8_t *mk;
  size_t mn, mcap;
} cglyph;

typedef struct runner {
  otv_builder *b;
  unsigned k;   /* master */
  uint32_t gid; /* default glyph id, for errors */
  const otv_cff *c;
  const otv_cff_index *lsubrs;
  cglyph *g;
  double st[CFF2_STACK];
  unsigned sp, stems, max_stack;
  bool width_done, ended;
  unsigned vsindex;
} runner;

static otv_status rfail(runner *r, const char *what)
{
  return OTV_FAIL(r->b->err, BAD_VALUE, r->c->tag, 0, "glyph %u: master %s: %s", r->gid,
                  r->b->m[r->k].name, what);
}

static otv_status add_cmd(runner *r, unsigned op, const double *v, unsigned n)
{
  cglyph *g = r->g;
  otv_builder *b = r->b;
  if (OTV_RESERVE(&b->al, &g->c, &g->ccap, g->cn + 1, sizeof *g->c) ||
      OTV_RESERVE(&b->al, &g->v, &g->vcap, g->vn + n + 1, sizeof *g->v))
    return OTV_FAIL(b->err, NOMEM, 0, 0, "charstring commands");
  g->c[g->cn++] = (bcmd){(uint8_t)op, (uint32_t)g->vn, n};
  if (n) memcpy(g->v + g->vn, v, n * sizeof *v);
  g->vn += n;
  return OTV_E_OK;
}

static otv_status seg(runner *r, unsigned op, double a, double b2, double c, double d, double e,
                      double f)
{
  double v[6] = {a, b2, c, d, e, f};
  return add_cmd(r, op, v, op == C_CURVE ? 6 : 2);
}

/* CFF (v1): the first stack-clearing operator may carry the width first; drop it. */
static void drop_width(runner *r, bool extra)
{
  if (r->width_done) return; /* CFF2 masters too: fontTools writes widths into them */
  r->width_done = true;
  if (extra && r->sp) {
    memmove(r->st, r->st + 1, (r->sp - 1) * sizeof *r->st);
    r->sp--;
  }
}

static otv_status run_cs(runner *r, otv_span cs, unsigned depth)
{
  if (depth > OTV_MAX_SUBR_DEPTH) return rfail(r, "subroutines nested too deep");
  const uint8_t *p = cs.p, *end = cs.p + cs.len;
  otv_status s = OTV_E_OK;
  double *st = r->st;
  while (p < end && !r->ended) {
    int op;
    double v;
    size_t n = otv_cs_token(p, end, &op, &v);
    if (!n) return rfail(r, "charstring ends inside a number");
    p += n;
    if (op == OTV_CS_NUMBER) {
      if (r->sp >= r->max_stack) return rfail(r, "operand stack overflow");
      st[r->sp++] = v;
      continue;
    }
    unsigned sp = r->sp, i = 0;
    switch (op) {
    case OTV_CS_HSTEM:
    case OTV_CS_VSTEM:
    case OTV_CS_HSTEMHM:
    case OTV_CS_VSTEMHM:
      drop_width(r, sp & 1);
      sp = r->sp;
      if (sp & 1) return rfail(r, "odd stem operands");
      r->stems += sp / 2;
      s = add_cmd(r,
                  op == OTV_CS_HSTEM     ? C_HSTEM
                  : op == OTV_CS_HSTEMHM ? C_HSTEMHM
                  : op == OTV_CS_VSTEM   ? C_VSTEM
                                         : C_VSTEMHM,
                  st, sp);
      break;
    case OTV_CS_HINTMASK:
    case OTV_CS_CNTRMASK: {
      drop_width(r, sp & 1);
      sp = r->sp;
      if (sp) {
        if (sp & 1) return rfail(r, "odd stem operands");
        r->stems += sp / 2;
        if ((s = add_cmd(r, C_VSTEMHM, st, sp))) return s;
      }
      size_t mb = (r->stems + 7) / 8;
      if ((size_t)(end - p) < mb) return rfail(r, "hintmask bytes cut off");
      cglyph *g = r->g;
      if ((s = add_cmd(r, op == OTV_CS_HINTMASK ? C_HINTMASK : C_CNTRMASK, NULL, 0))) return s;
      if (OTV_RESERVE(&r->b->al, &g->mk, &g->mcap, g->mn + mb + 1, 1))
        return OTV_FAIL(r->b->err, NOMEM, 0, 0, "hintmask");
      g->c[g->cn - 1].a = (uint32_t)g->mn;
      g->c[g->cn - 1].n = (uint32_t)mb;
      memcpy(g->mk + g->mn, p, mb);
      g->mn += mb;
      p += mb;
      break;
    }
    case OTV_CS_RMOVETO:
      drop_width(r, sp > 2);
      if (r->sp != 2) return rfail(r, "rmoveto operands");
      s = seg(r, C_MOVE, st[0], st[1], 0, 0, 0, 0);
      break;
    case OTV_CS_HMOVETO:
    case OTV_CS_VMOVETO:
      drop_width(r, sp > 1);
      if (r->sp != 1) return rfail(r, "hmoveto/vmoveto operands");
      s = op == OTV_CS_HMOVETO ? seg(r, C_MOVE, st[0], 0, 0, 0, 0, 0)
                               : seg(r, C_MOVE, 0, st[0], 0, 0, 0, 0);
      break;
    case OTV_CS_RLINETO:
      if (!sp || sp & 1) return rfail(r, "rlineto operands");
      for (; !s && i < sp; i += 2) s = seg(r, C_LINE, st[i], st[i + 1], 0, 0, 0, 0);
      break;
    case OTV_CS_HLINETO:
    case OTV_CS_VLINETO: {
      if (!sp) return rfail(r, "hlineto/vlineto operands");
      bool h = op == OTV_CS_HLINETO;
      for (; !s && i < sp; i++, h = !h)
        s = h ? seg(r, C_LINE, st[i], 0, 0, 0, 0, 0) : seg(r, C_LINE, 0, st[i], 0, 0, 0, 0);
      break;
    }
    case OTV_CS_RRCURVETO:
      if (!sp || sp % 6) return rfail(r, "rrcurveto operands");
      for (; !s && i < sp; i += 6)
        s = seg(r, C_CURVE, st[i], st[i + 1], st[i + 2], st[i + 3], st[i + 4], st[i + 5]);
      break;
    case OTV_CS_RCURVELINE:
      if (sp < 8 || (sp - 2) % 6) return rfail(r, "rcurveline operands");
      for (; !s && i + 2 < sp; i += 6)
        s = seg(r, C_CURVE, st[i], st[i + 1], st[i + 2], st[i + 3], st[i + 4], st[i + 5]);
      if (!s) s = seg(r, C_LINE, st[i], st[i + 1], 0, 0, 0, 0);
      break;
    case OTV_CS_RLINECURVE:
      if (sp < 8 || (sp - 6) % 2) return rfail(r, "rlinecurve operands");
      for (; !s && i + 6 < sp; i += 2) s = seg(r, C_LINE, st[i], st[i + 1], 0, 0, 0, 0);
      if (!s) s = seg(r, C_CURVE, st[i], st[i + 1], st[i + 2], st[i + 3], st[i + 4], st[i + 5]);
      break;
    case OTV_CS_HHCURVETO:
    case OTV_CS_VVCURVETO: {
      if (sp < 4 || (sp - (sp & 1)) % 4) return rfail(r, "hhcurveto/vvcurveto operands");
      double d1 = 0;
      if (sp & 1) d1 = st[i++];
      for (; !s && i < sp; i += 4, d1 = 0)
        s = op == OTV_CS_HHCURVETO ? seg(r, C_CURVE, st[i], d1, st[i + 1], st[i + 2], st[i + 3], 0)
                                   : seg(r, C_CURVE, d1, st[i], st[i + 1], st[i + 2], 0, st[i + 3]);
      break;
    }
    case OTV_CS_HVCURVETO:
    case OTV_CS_VHCURVETO: {
      if (sp < 4 || (sp - (sp & 1)) % 4) return rfail(r, "hvcurveto/vhcurveto operands");
      bool h = op == OTV_CS_HVCURVETO;
      for (; !s && i + 4 <= sp; h = !h) {
        bool last = sp - i == 5;
        double f = last ? st[i + 4] : 0;
        s = h ? seg(r, C_CURVE, st[i], 0, st[i + 1], st[i + 2], f, st[i + 3])
              : seg(r, C_CURVE, 0, st[i], st[i + 1], st[i + 2], st[i + 3], f);
        i += last ? 5 : 4;
      }
      break;
    }
    case OTV_CS_FLEX:
      if (sp != 13) return rfail(r, "flex operands");
      s = seg(r, C_CURVE, st[0], st[1], st[2], st[3], st[4], st[5]);
      if (!s) s = seg(r, C_CURVE, st[6], st[7], st[8], st[9], st[10], st[11]);
      break;
    case OTV_CS_HFLEX:
      if (sp != 7) return rfail(r, "hflex operands");
      s = seg(r, C_CURVE, st[0], 0, st[1], st[2], st[3], 0);
      if (!s) s = seg(r, C_CURVE, st[4], 0, st[5], -st[2], st[6], 0);
      break;
    case OTV_CS_HFLEX1:
      if (sp != 9) return rfail(r, "hflex1 operands");
      s = seg(r, C_CURVE, st[0], st[1], st[2], st[3], st[4], 0);
      if (!s) s = seg(r, C_CURVE, st[5], 0, st[6], st[7], st[8], -(st[1] + st[3] + st[7]));
      break;
    case OTV_CS_FLEX1: {
      if (sp != 11) return rfail(r, "flex1 operands");
      double dx = st[0] + st[2] + st[4] + st[6] + st[8], dy = st[1] + st[3] + st[5] + st[7] + st[9];
      bool hz = fabs(dx) > fabs(dy);
      s = seg(r, C_CURVE, st[0], st[1], st[2], st[3], st[4], st[5]);
      if (!s) s = seg(r, C_CURVE, st[6], st[7], st[8], st[9], hz ? st[10] : -dx, hz ? -dy : st[10]);
      break;
    }
    case OTV_CS_ENDCHAR:
      if (r->c->cff2) return rfail(r, "endchar in CFF2");
      drop_width(r, sp == 1 || sp == 5);
      if (r->sp >= 4)
        return OTV_FAIL(r->b->err, UNSUPPORTED, r->c->tag, 0,
                        "glyph %u: master %s: seac (endchar accent) not supported", r->gid,
                        r->b->m[r->k].name);
      r->ended = true;
      break;
    case OTV_CS_RETURN:
      if (r->c->cff2) return rfail(r, "return in CFF2");
      /* the operands a subroutine leaves stay for its caller (Type 2 charstrings) */
      return depth ? OTV_E_OK : rfail(r, "return outside a subroutine");
    case OTV_CS_CALLSUBR:
    case OTV_CS_CALLGSUBR: {
      if (!sp) return rfail(r, "callsubr without operand");
      const otv_cff_index *ix = op == OTV_CS_CALLSUBR ? r->lsubrs : &r->c->gsubrs;
      double idx = st[--r->sp] + (ix ? ix->bias : 0);
      otv_span sub;
      if (!ix || idx < 0 || idx >= ix->count || !otv_cff_index_get(ix, (uint32_t)idx, &sub))
        return rfail(r, "subroutine out of range");
      if ((s = run_cs(r, sub, depth + 1))) return s;
      continue; /* the stack carries on */
    }
    case OTV_CS_VSINDEX:
      if (!r->c->cff2 || !sp || !(st[sp - 1] >= 0 && st[sp - 1] <= UINT16_MAX))
        return rfail(r, "vsindex");
      r->vsindex = (unsigned)st[sp - 1];
      break;
    case OTV_CS_BLEND: {
      /* a variable master: its default (the deltas dropped) */
      if (!r->c->cff2 || !sp || !(st[sp - 1] >= 0 && st[sp - 1] <= CFF2_STACK))
        return rfail(r, "blend");
      unsigned nb = (unsigned)st[sp - 1];
      unsigned rk = r->c->ivs.present && r->vsindex < r->c->ivs.data_count
                        ? r->c->ivs.data[r->vsindex].region_index_count
                        : 0;
      size_t need = (size_t)nb * (rk + 1) + 1;
      if (need > sp) return rfail(r, "blend operands");
      r->sp = (unsigned)(sp - need + nb);
      continue;
    }
    case OTV_CS_DOTSECTION: break;
    default:
      return OTV_FAIL(r->b->err, UNSUPPORTED, r->c->tag, 0,
                      "glyph %u: master %s: charstring operator %d not supported", r->gid,
                      r->b->m[r->k].name, op);
    }
    if (s) return s;
    r->sp = 0;
    if (op != OTV_CS_DOTSECTION && op != OTV_CS_VSINDEX) r->width_done = true;
  }
  return s;
}

static otv_status load_glyph(otv_builder *b, unsigned k, uint32_t gid, cglyph *g, runner *r)
{
  g->cn = g->vn = g->mn = 0;
  otv_bmaster *m = &b->m[k];
  uint32_t mg = m->gid_of[gid];
  if (mg == UINT32_MAX) return OTV_E_OK;
  const otv_cff *c = &m->cff->cff;
  otv_span cs;
  if (!otv_cff_index_get(&c->charstrings, mg, &cs))
    return OTV_FAIL(b->err, BAD_OFFSET, c->tag, c->charstrings.end,
                    "master %s: charstring %u out of range", m->name, mg);
  uint32_t fd = 0;
  if (c->fd_count && !otv_cff_fd_of(c, mg, &fd))
    return OTV_FAIL(b->err, BAD_VALUE, c->tag, 0, "master %s: FDSelect of glyph %u", m->name, mg);
  memset(r, 0, offsetof(runner, st));
  r->b = b, r->k = k, r->gid = gid, r->c = c, r->g = g;
  r->lsubrs = fd < c->fd_count ? &c->fds[fd].subrs : NULL;
  r->vsindex = fd < c->fd_count ? c->fds[fd].vsindex : 0;
  r->max_stack = c->cff2 ? OTV_MAX_STACK_CFF2 : OTV_MAX_STACK_CFF;
  r->sp = r->stems = 0;
  r->width_done = r->ended = false;
  return run_cs(r, cs, 0);
}

/* ---- specializing (the forms of fontTools' cffLib specializer, as the CFF2 spec allows) ---- */

/* An operand slot: value[slot * (rk + 1) + 0] the default, then rk deltas; blended[slot]. */
typedef struct spec {
  otv_builder *b;
  unsigned rk;
  double *val;
  uint8_t *bl;
  size_t slots, vcap, bcap;
} spec;

enum { K_MOVE, K_LINE, K_CURVE, K_RLINECURVE, K_RCURVELINE, K_HINT, K_MASK };

typedef struct scmd {
  uint8_t kind, k0, k1; /* categories 'r' 'h' 'v' '0' (curves: start, end; else k0) */
  uint8_t hop;          /* K_HINT / K_MASK: the command's op (C_...) */
  uint32_t first, n;    /* operand slots sl[first..first+n) (masks: mask bytes) */
} scmd;

static bool is_zero(const spec *s, uint32_t slot)
{
  return !s->bl[slot] && s->val[(size_t)slot * (s->rk + 1)] == 0;
}

static uint32_t new_slot(spec *s)
{
  size_t w = s->rk + 1;
  if (OTV_RESERVE(&s->b->al, &s->val, &s->vcap, (s->slots + 1) * w, sizeof *s->val) ||
      OTV_RESERVE(&s->b->al, &s->bl, &s->bcap, s->slots + 1, 1))
    return UINT32_MAX;
  memset(s->val + s->slots * w, 0, w * sizeof *s->val);
  s->bl[s->slots] = 0;
  return (uint32_t)s->slots++;
}

static uint32_t add_slots(spec *s, uint32_t a, uint32_t c)
{
  uint32_t n = new_slot(s);
  if (n == UINT32_MAX) return n;
  size_t w = s->rk + 1;
  for (size_t i = 0; i < w; i++)
    s->val[n * w + i] = s->val[(size_t)a * w + i] + s->val[(size_t)c * w + i];
  s->bl[n] = s->bl[a] || s->bl[c];
  return n;
}

static unsigned cost(const spec *s, const uint32_t *sl, uint32_t first, uint32_t n)
{
  unsigned c = 0;
  for (uint32_t i = 0; i < n; i++) c += s->bl[sl[first + i]] ? s->rk + 1 : 1;
  return c;
}

static char merge_cat(char a, char c)
{
  if (a == '0') return c;
  if (c == '0') return a;
  return a == c ? a : 0;
}
static char neg_cat(char a) { return a == 'h' ? 'v' : a == 'v' ? 'h' : a; }

/* ---- the build ---- */

#define CFF2_MAX_VD (OTV_BUILD_MAX_MASTERS * 4u) /* VarDatas (sets of masters) at most */

typedef struct cffb {
  otv_builder *b;
  cglyph *mg;  /* per master */
  runner *run; /* one runner (large stack) */
  spec sp;
  scmd *sc;
  size_t sc_cap;
  uint32_t *sl, *sl2; /* operand slots of the commands (working, packed) */
  size_t sl_cap, sl2_cap;
  uint32_t *cs_off; /* glyph_count + 1 */
  otv_buf cs;       /* charstring data */
  /* regions and VarData (one per set of masters, vsindex in order of first use) */
  int16_t *reg;
  unsigned reg_count, reg_cap;
  /* on the heap, grown as VarDatas are added (up to CFF2_MAX_VD): as arrays in this struct, 44
   * KB of fresh stack zeroed in every build (docs/build.md "Start-up, sixth pass") */
  struct cvd {
    otv_mset mask;
    uint16_t *reg;
    unsigned rc;
  } * vd;
  unsigned vd_count;
  size_t vd_cap;
  uint64_t *drop; /* master << 32 | glyph: empty where the default's is not (sparse) */
  size_t drop_count, drop_cap;
  /* the Private DICTs (built before the charstrings: a charstring's vsindex defaults to its
   * Private DICT's) */
  otv_buf priv;
  uint32_t *poff;    /* fd_count + 1 offsets into priv */
  uint16_t *priv_vs; /* per Font DICT: its Private DICT's vsindex */
  uint32_t fd_count;
  /* contour bodies (subroutines): the charstring bytes after each moveto up to the next
   * moveto, hint or mask, shared as global subroutines when that makes CFF2 smaller */
  struct cbody *bd;
  size_t bd_n, bd_cap;
  otv_buf gs;       /* Global Subr INDEX data */
  uint32_t *gs_off; /* gs_n + 1 */
  uint32_t gs_n;
} cffb;

typedef struct cbody {
  const uint8_t *p; /* set once every charstring is written */
  uint32_t at, len; /* in cffb.cs */
  uint32_t vs;      /* the vsindex in effect (a blend's operand count depends on it) */
  uint32_t subr;    /* UINT32_MAX: kept in place */
} cbody;

static unsigned region_index(cffb *x, const otv_vmodel *md, unsigned i)
{
  otv_builder *b = x->b;
  unsigned ac = b->ac;
  int16_t r[3 * OTV_MAX_AXES];
  for (unsigned a = 0; a < ac; a++)
    for (unsigned q = 0; q < 3; q++)
      r[3 * a + q] = (int16_t)otv_build_f2(md->support[((size_t)i * ac + a) * 3 + q]);
  for (unsigned k = 0; k < x->reg_count; k++)
    if (!memcmp(x->reg + (size_t)k * ac * 3, r, 3 * ac * sizeof *r)) return k;
  if (x->reg_count >= 0xFFFF) return UINT32_MAX;
  size_t cap = x->reg_cap;
  if (OTV_RESERVE(&b->al, &x->reg, &cap, (size_t)(x->reg_count + 1) * ac * 3, sizeof *x->reg))
    return UINT32_MAX;
  x->reg_cap = (unsigned)cap;
  memcpy(x->reg + (size_t)x->reg_count * ac * 3, r, 3 * ac * sizeof *r);
  return x->reg_count++;
}

/* The vsindex of the masters in mask (a VarData added at its first use). */
static otv_status vsindex_of(cffb *x, const otv_mset *mask, const otv_vmodel *md, unsigned *out)
{
  for (unsigned i = 0; i < x->vd_count; i++)
    if (otv_mset_eq(&x->vd[i].mask, mask)) {
      *out = i;
      return OTV_E_OK;
    }
  otv_builder *b = x->b;
  if (x->vd_count >= CFF2_MAX_VD)
    return OTV_FAIL(b->err, LIMIT, OTV_T_CFF2, 0, "too many sets of sparse masters");
  if (OTV_BRESERVE(b, x->vd, x->vd_cap, (size_t)x->vd_count + 1))
    return OTV_FAIL(b->err, NOMEM, 0, 0, "VarData");
  unsigned rc = md->count - 1;
  uint16_t *ri = otv_mem_calloc(&b->al, rc + 1, sizeof *ri);
  if (!ri) return OTV_FAIL(b->err, NOMEM, 0, 0, "VarData");
  for (unsigned i = 1; i < md->count; i++) {
    unsigned r = region_index(x, md, i);
    if (r == UINT32_MAX) {
      otv_mem_free(&b->al, ri, (rc + 1) * sizeof *ri);
      return OTV_FAIL(b->err, NOMEM, 0, 0, "regions");
    }
    ri[i - 1] = (uint16_t)r;
  }
  x->vd[x->vd_count].mask = *mask;
  x->vd[x->vd_count].reg = ri;
  x->vd[x->vd_count].rc = rc;
  *out = x->vd_count++;
  return OTV_E_OK;
}

static bool sc_reserve(cffb *x, size_t n)
{
  return !OTV_RESERVE(&x->b->al, &x->sc, &x->sc_cap, n + 1, sizeof *x->sc);
}

/* Compare master k's commands with the default's. */
static otv_status check_compat(cffb *x, uint32_t gid, unsigned k)
{
  otv_builder *b = x->b;
  const cglyph *d = &x->mg[b->base], *g = &x->mg[k];
  const char *mn = b->m[k].name;
  uint32_t tag = b->m[k].cff->cff.tag;
  if (g->cn != d->cn)
    return OTV_FAIL(b->err, BAD_VALUE, tag, 0,
                    "glyph %u: master %s has %zu charstring commands, the default master %zu", gid,
                    mn, g->cn, d->cn);
  for (size_t i = 0; i < d->cn; i++) {
    const bcmd *p = &d->c[i], *q = &g->c[i];
    if (p->op != q->op)
      return OTV_FAIL(b->err, BAD_VALUE, tag, 0,
                      "glyph %u: master %s: command %zu is %s, the default master's %s", gid, mn, i,
                      cmd_name[q->op], cmd_name[p->op]);
    if (p->n != q->n)
      return OTV_FAIL(b->err, BAD_VALUE, tag, 0,
                      "glyph %u: master %s: %s %zu has %u operands, the default master's %u", gid,
                      mn, cmd_name[p->op], i, q->n, p->n);
    if ((p->op == C_HINTMASK || p->op == C_CNTRMASK) && memcmp(d->mk + p->a, g->mk + q->a, p->n))
      return OTV_FAIL(b->err, BAD_VALUE, tag, 0,
                      "glyph %u: master %s: %s %zu differs from the default master's", gid, mn,
                      cmd_name[p->op], i);
  }
  return OTV_E_OK;
}

static void put_args(cffb *x, otv_buf *o, const uint32_t *sl, uint32_t first, uint32_t n)
{
  spec *s = &x->sp;
  size_t w = s->rk + 1;
  uint32_t i = 0;
  unsigned depth = 0;
  while (i < n) {
    uint32_t a = sl[first + i];
    if (!s->bl[a]) {
      otv_cs_put_num(o, s->val[(size_t)a * w]);
      depth++;
      i++;
      continue;
    }
    uint32_t j = i;
    unsigned use = depth + 1;
    while (j < n && s->bl[sl[first + j]] && use + w <= CFF2_STACK) use += (unsigned)w, j++;
    for (uint32_t q = i; q < j; q++) otv_cs_put_num(o, s->val[(size_t)sl[first + q] * w]);
    for (uint32_t q = i; q < j; q++)
      for (size_t r = 1; r < w; r++) otv_cs_put_num(o, s->val[(size_t)sl[first + q] * w + r]);
    otv_cs_put_num(o, j - i);
    otv_cff_put_op(o, OTV_CS_BLEND);
    depth += j - i;
    i = j;
  }
}

/* The contour body open since *open ends at end: recorded (3 bytes at least: shorter ones
 * never pay for a call). */
static otv_status body_close(cffb *x, size_t *open, size_t end, unsigned vs)
{
  size_t at = *open;
  *open = SIZE_MAX;
  if (at == SIZE_MAX || end < at + 3 || end > UINT32_MAX) return OTV_E_OK;
  if (OTV_RESERVE(&x->b->al, &x->bd, &x->bd_cap, x->bd_n + 1, sizeof *x->bd))
    return OTV_FAIL(x->b->err, NOMEM, 0, 0, "contour bodies");
  x->bd[x->bd_n++] = (cbody){NULL, (uint32_t)at, (uint32_t)(end - at), vs, UINT32_MAX};
  return OTV_E_OK;
}

/* One glyph: commands of the masters present merged, specialized, written to x->cs. */
static otv_status glyph(cffb *x, uint32_t gid)
{
  otv_builder *b = x->b;
  otv_status s;
  otv_mset mask = otv_mset_first(0);
  for (unsigned k = 0; k < b->mc; k++) {
    if ((s = load_glyph(b, k, gid, &x->mg[k], x->run))) return s;
    if (b->m[k].gid_of[gid] != UINT32_MAX) otv_mset_add(&mask, k);
  }
  const cglyph *d = &x->mg[b->base];
  /* sparse: an empty glyph where the default's has commands */
  for (unsigned k = 0; k < b->mc; k++)
    if (otv_mset_has(&mask, k) && k != b->base && d->cn && !x->mg[k].cn) {
      otv_mset_del(&mask, k);
      if (OTV_RESERVE(&b->al, &x->drop, &x->drop_cap, x->drop_count + 1, sizeof *x->drop))
        return OTV_FAIL(b->err, NOMEM, 0, 0, "sparse glyphs");
      x->drop[x->drop_count++] = (uint64_t)k << 32 | gid;
    }
  for (unsigned k = 0; k < b->mc; k++)
    if (otv_mset_has(&mask, k) && k != b->base && (s = check_compat(x, gid, k))) return s;
  const otv_vmodel *md;
  if ((s = otv_build_submodel(b, &mask, &md))) return s;
  unsigned rk = md->count - 1;
  size_t A = d->vn;
  /* master values (present masters, in master order) and the model's deltas */
  size_t need = (size_t)md->count * (A + 1);
  if (OTV_BRESERVE(b, b->vals, b->vals_cap, need) ||
      OTV_BRESERVE(b, b->deltas, b->deltas_cap, need))
    return OTV_FAIL(b->err, NOMEM, 0, 0, "charstring values");
  unsigned q = 0;
  for (unsigned k = 0; k < b->mc; k++) {
    if (!otv_mset_has(&mask, k)) continue;
    if (A) memcpy(b->vals + (size_t)q * A, x->mg[k].v, A * sizeof *b->vals);
    q++;
  }
  /* The path's operands are relative: their deltas are those of the absolute coordinates,
   * rounded, then differenced again, so that rounding does not add up along a contour (each
   * point of each master within 0.5 at its location, as a glyf master is). */
  for (unsigned r = 0; r < md->count; r++) {
    double at[2] = {0, 0};
    double *row = b->vals + (size_t)r * A;
    for (size_t i = 0; i < d->cn; i++) {
      const bcmd *c = &d->c[i];
      if (c->op != C_MOVE && c->op != C_LINE && c->op != C_CURVE) continue;
      for (uint32_t j = 0; j < c->n; j++) row[c->a + j] = at[j & 1] += row[c->a + j];
    }
  }
  if (A) otv_vmodel_deltas(md, b->vals, A, A, b->deltas);
  for (unsigned r = 1; r < md->count; r++) {
    double last[2] = {0, 0};
    double *row = b->deltas + (size_t)r * A;
    for (size_t i = 0; i < d->cn; i++) {
      const bcmd *c = &d->c[i];
      if (c->op != C_MOVE && c->op != C_LINE && c->op != C_CURVE) continue;
      for (uint32_t j = 0; j < c->n; j++) {
        double t = row[c->a + j];
        row[c->a + j] = t - last[j & 1];
        last[j & 1] = t;
      }
    }
  }
  spec *sp = &x->sp;
  sp->rk = rk;
  sp->slots = 0;
  bool any_blend = false;
  for (size_t j = 0; j < A; j++) {
    uint32_t sl = new_slot(sp);
    if (sl == UINT32_MAX) return OTV_FAIL(b->err, NOMEM, 0, 0, "charstring values");
    double *v = sp->val + (size_t)sl * (rk + 1);
    v[0] = d->v[j]; /* the default master's operand (relative) */
    for (unsigned i = 1; i <= rk; i++) {
      v[i] = b->deltas[(size_t)i * A + j];
      if (v[i] != 0) sp->bl[sl] = 1;
    }
    any_blend |= sp->bl[sl];
  }
  uint32_t zero = new_slot(sp);
  if (zero == UINT32_MAX) return OTV_FAIL(b->err, NOMEM, 0, 0, "charstring values");
  /* commands, categorized (steps 1 and 2 of the specializer) */
  size_t n = 0;
  if (!sc_reserve(x, d->cn) ||
      OTV_RESERVE(&b->al, &x->sl, &x->sl_cap, A + 6 * d->cn + 1, sizeof *x->sl))
    return OTV_FAIL(b->err, NOMEM, 0, 0, "charstring commands");
  size_t sn = 0;
  uint32_t *sl = x->sl;
  for (size_t i = 0; i < d->cn; i++) {
    const bcmd *c = &d->c[i];
    scmd *o = &x->sc[n];
    memset(o, 0, sizeof *o);
    if (c->op <= C_VSTEMHM || c->op == C_HINTMASK || c->op == C_CNTRMASK) {
      bool mk = c->op == C_HINTMASK || c->op == C_CNTRMASK;
      o->kind = mk ? K_MASK : K_HINT;
      o->hop = c->op;
      o->first = mk ? c->a : (uint32_t)sn;
      o->n = c->n;
      if (!mk)
        for (uint32_t j = 0; j < c->n; j++) sl[sn++] = c->a + j;
      n++;
      continue;
    }
    uint32_t a = c->a;
    if (c->op == C_MOVE && n && x->sc[n - 1].kind == K_MOVE) {
      /* successive movetos: one (the earlier's operands are categorized already: re-sum) */
      scmd *pm = &x->sc[n - 1];
      uint32_t px = pm->k0 == 'v' ? zero : sl[pm->first];
      uint32_t py = pm->k0 == 'r' ? sl[pm->first + 1] : pm->k0 == 'v' ? sl[pm->first] : zero;
      uint32_t nx = add_slots(sp, px, a), ny = add_slots(sp, py, a + 1);
      if (nx == UINT32_MAX || ny == UINT32_MAX) return OTV_FAIL(b->err, NOMEM, 0, 0, "moveto");
      n--;
      sn = pm->first;
      o = &x->sc[n];
      memset(o, 0, sizeof *o);
      o->kind = K_MOVE;
      o->first = (uint32_t)sn;
      bool zx = is_zero(sp, nx), zy = is_zero(sp, ny);
      o->k0 = zx ? (zy ? '0' : 'v') : (zy ? 'h' : 'r');
      if (o->k0 == 'r')
        sl[sn++] = nx, sl[sn++] = ny;
      else
        sl[sn++] = o->k0 == 'v' ? ny : nx;
      o->n = o->k0 == 'r' ? 2 : 1;
      n++;
      continue;
    }
    o->first = (uint32_t)sn;
    if (c->op == C_MOVE || c->op == C_LINE) {
      o->kind = c->op == C_MOVE ? K_MOVE : K_LINE;
      bool zx = is_zero(sp, a), zy = is_zero(sp, a + 1);
      o->k0 = zx ? (zy ? '0' : 'v') : (zy ? 'h' : 'r');
      if (o->k0 == 'r')
        sl[sn++] = a, sl[sn++] = a + 1;
      else
        sl[sn++] = o->k0 == 'v' ? a + 1 : a;
    } else {
      o->kind = K_CURVE;
      bool zx = is_zero(sp, a), zy = is_zero(sp, a + 1);
      o->k0 = zx ? (zy ? '0' : 'v') : (zy ? 'h' : 'r');
      if (o->k0 == 'r')
        sl[sn++] = a, sl[sn++] = a + 1;
      else
        sl[sn++] = o->k0 == 'v' ? a + 1 : a;
      sl[sn++] = a + 2, sl[sn++] = a + 3;
      zx = is_zero(sp, a + 4), zy = is_zero(sp, a + 5);
      o->k1 = zx ? (zy ? '0' : 'v') : (zy ? 'h' : 'r');
      if (o->k1 == 'r')
        sl[sn++] = a + 4, sl[sn++] = a + 5;
      else
        sl[sn++] = o->k1 == 'v' ? a + 5 : a + 4;
    }
    o->n = (uint32_t)sn - o->first;
    n++;
  }
  scmd *sc = x->sc;
  /* step 3: 00curveto -> lineto, 0lineto dropped, adjacent hlineto/vlineto summed */
  for (size_t i = n; i-- > 0;) {
    scmd *o = &sc[i];
    if (o->kind == K_CURVE && o->k0 == '0' && o->k1 == '0') {
      uint32_t ax = sl[o->first + 1], ay = sl[o->first + 2];
      bool zx = is_zero(sp, ax), zy = is_zero(sp, ay);
      o->kind = K_LINE;
      o->k0 = zx ? (zy ? '0' : 'v') : (zy ? 'h' : 'r');
      o->k1 = 0;
      if (o->k0 == 'r')
        sl[o->first] = ax, sl[o->first + 1] = ay, o->n = 2;
      else
        sl[o->first] = o->k0 == 'v' ? ay : ax, o->n = 1;
    }
    if (o->kind == K_LINE && o->k0 == '0') {
      memmove(sc + i, sc + i + 1, (n - i - 1) * sizeof *sc);
      n--;
      continue;
    }
    if (i && o->kind == K_LINE && (o->k0 == 'h' || o->k0 == 'v') && sc[i - 1].kind == K_LINE &&
        sc[i - 1].k0 == o->k0) {
      uint32_t sum = add_slots(sp, sl[sc[i - 1].first], sl[o->first]);
      if (sum == UINT32_MAX) return OTV_FAIL(b->err, NOMEM, 0, 0, "lineto");
      sl[sc[i - 1].first] = sum;
      memmove(sc + i, sc + i + 1, (n - i - 1) * sizeof *sc);
      n--;
    }
  }
  /* pack the operands in command order (room for one more per command: step 4) */
  if (OTV_RESERVE(&b->al, &x->sl2, &x->sl2_cap, sn + n + 1, sizeof *x->sl2))
    return OTV_FAIL(b->err, NOMEM, 0, 0, "charstring commands");
  uint32_t *p2 = x->sl2;
  size_t pn = 0;
  for (size_t i = 0; i < n; i++) {
    scmd *o = &sc[i];
    bool rl = o->kind == K_LINE && o->k0 != 'r' && i && i + 1 < n && sc[i - 1].kind == K_LINE &&
              sc[i - 1].k0 == 'r' && sc[i + 1].kind == K_LINE && sc[i + 1].k0 == 'r';
    bool rc = o->kind == K_CURVE && o->n == 5 && i && i + 1 < n && sc[i - 1].kind == K_CURVE &&
              sc[i - 1].k0 == 'r' && sc[i - 1].k1 == 'r' && sc[i + 1].kind == K_CURVE &&
              sc[i + 1].k0 == 'r' && sc[i + 1].k1 == 'r';
    uint32_t f = (uint32_t)pn;
    if (o->kind == K_MASK) {
      continue;
    } else if (rl) { /* step 4: an h/v line between rlinetos becomes one */
      uint32_t v = sl[o->first];
      p2[pn++] = o->k0 == 'v' ? zero : v;
      p2[pn++] = o->k0 == 'v' ? v : zero;
      o->k0 = 'r';
    } else if (rc) { /* likewise a curve between rrcurvetos */
      unsigned pos = o->k0 == 'v' ? 0 : o->k0 != 'r' ? 1 : o->k1 == 'v' ? 4 : 5;
      for (unsigned j = 0, q2 = 0; j < 6; j++) p2[pn++] = j == pos ? zero : sl[o->first + q2++];
      o->k0 = o->k1 = 'r';
    } else {
      for (uint32_t j = 0; j < o->n; j++) p2[pn++] = sl[o->first + j];
    }
    o->first = f;
    o->n = (uint32_t)pn - f;
  }
  /* step 5: adjacent commands joined (right to left) within the stack limit */
  for (size_t i = n; i-- > 1;) {
    scmd *o1 = &sc[i - 1], *o2 = &sc[i];
    int nk = -1;
    char n0 = 0, n1 = 0;
    bool rl1 = o1->kind == K_LINE && o1->k0 == 'r', rl2 = o2->kind == K_LINE && o2->k0 == 'r';
    bool rr1 = o1->kind == K_CURVE && o1->k0 == 'r' && o1->k1 == 'r';
    bool rr2 = o2->kind == K_CURVE && o2->k0 == 'r' && o2->k1 == 'r';
    if ((rl1 || rr1) && (rl2 || rr2)) {
      if (rl1 == rl2)
        nk = o1->kind, n0 = o1->k0, n1 = o1->k1;
      else if (rr2 && o2->n == 6)
        nk = K_RLINECURVE;
      else if (rl2 && o2->n == 2)
        nk = K_RCURVELINE;
    } else if ((rl1 && o2->kind == K_RLINECURVE) || (rr1 && o2->kind == K_RCURVELINE)) {
      nk = o2->kind;
    } else if (o1->kind == K_LINE && o2->kind == K_LINE &&
               ((o1->k0 == 'h' && o2->k0 == 'v') || (o1->k0 == 'v' && o2->k0 == 'h'))) {
      nk = K_LINE, n0 = o1->k0;
    } else if (o1->kind == K_CURVE && o2->kind == K_CURVE) {
      char d0 = (char)o1->k0, d1 = (char)o1->k1, d2 = (char)o2->k0, d3 = (char)o2->k1;
      if (d1 == 'r' || d2 == 'r' || (d0 == 'r' && d3 == 'r')) continue;
      char dd = merge_cat(d1, d2);
      if (!dd) continue;
      if (d0 == 'r') {
        dd = merge_cat(dd, d3);
        if (!dd) continue;
        n0 = 'r', n1 = dd;
      } else if (d3 == 'r') {
        d0 = merge_cat(d0, neg_cat(dd));
        if (!d0) continue;
        n0 = d0, n1 = 'r';
      } else {
        d0 = merge_cat(d0, d3);
        if (!d0) continue;
        n0 = d0, n1 = dd;
      }
      nk = K_CURVE;
    }
    if (nk < 0) continue;
    if (cost(sp, p2, o1->first, o1->n) + cost(sp, p2, o2->first, o2->n) + 1 >= CFF2_STACK) continue;
    o1->kind = (uint8_t)nk, o1->k0 = (uint8_t)n0, o1->k1 = (uint8_t)n1;
    o1->n += o2->n;
    memmove(sc + i, sc + i + 1, (n - i - 1) * sizeof *sc);
    n--;
  }
  /* write: vsindex, commands (step 6: the operators resolved), blends (step 7) */
  otv_buf *o = &x->cs;
  /* the vsindex in effect (the Private DICT's unless the glyph sets its own) */
  uint32_t fd = 0;
  const otv_cff *dc = &b->m[b->base].cff->cff;
  if (dc->fd_count && !otv_cff_fd_of(dc, gid, &fd)) fd = 0;
  unsigned vs_priv = fd < x->fd_count ? x->priv_vs[fd] : 0u, vs_eff = vs_priv;
  if (any_blend) {
    if ((s = vsindex_of(x, &mask, md, &vs_eff))) return s;
    if (vs_eff != vs_priv) {
      otv_cs_put_num(o, vs_eff);
      otv_cff_put_op(o, OTV_CS_VSINDEX);
    }
  }
  bool has_mask = false;
  size_t open = SIZE_MAX; /* where the current contour body starts */
  for (size_t i = 0; i < n; i++) has_mask |= sc[i].kind == K_MASK && sc[i].hop == C_HINTMASK;
  for (size_t i = 0; i < n; i++) {
    scmd *c = &sc[i];
    if (c->kind == K_MASK || c->kind == K_HINT || c->kind == K_MOVE) {
      if ((s = body_close(x, &open, o->len, vs_eff))) return s;
    }
    if (c->kind == K_MASK) {
      otv_cff_put_op(o, c->hop == C_HINTMASK ? OTV_CS_HINTMASK : OTV_CS_CNTRMASK);
      otv_buf_bytes(o, d->mk + c->first, c->n);
      continue;
    }
    int op = 0;
    bool implied = false;
    switch (c->kind) {
    case K_HINT: {
      bool v = c->hop == C_VSTEM || c->hop == C_VSTEMHM;
      /* a vstem just before the first mask is implied by it (CFF2 "hintmask") */
      if (v && i + 1 < n && sc[i + 1].kind == K_MASK) {
        implied = true;
        for (size_t j = 0; j < i; j++) implied &= sc[j].kind != K_MASK;
      }
      op = v ? (has_mask ? OTV_CS_VSTEMHM : OTV_CS_VSTEM)
             : (has_mask ? OTV_CS_HSTEMHM : OTV_CS_HSTEM);
      break;
    }
    case K_MOVE:
      op = c->k0 == 'r' ? OTV_CS_RMOVETO : c->k0 == 'v' ? OTV_CS_VMOVETO : OTV_CS_HMOVETO;
      break;
    case K_LINE:
      op = c->k0 == 'r' ? OTV_CS_RLINETO : c->k0 == 'v' ? OTV_CS_VLINETO : OTV_CS_HLINETO;
      break;
    case K_RLINECURVE: op = OTV_CS_RLINECURVE; break;
    case K_RCURVELINE: op = OTV_CS_RCURVELINE; break;
    default: {
      char c0 = (char)c->k0, c1 = (char)c->k1;
      if (c0 == 'r' && c1 == 'r') {
        op = OTV_CS_RRCURVETO;
        break;
      }
      if (c0 == '0') c0 = 'h';
      if (c1 == '0') c1 = 'h';
      if (c0 == 'r') c0 = c1;
      if (c1 == 'r') c1 = neg_cat(c0);
      uint32_t *a = p2 + c->first, t;
      if (c->n & 1) { /* the odd operand where the operator expects it */
        if (c0 != c1 && ((c0 == 'h') ^ (c->n % 8 == 1)))
          t = a[c->n - 1], a[c->n - 1] = a[c->n - 2], a[c->n - 2] = t;
        else if (c0 == c1 && c0 == 'h')
          t = a[0], a[0] = a[1], a[1] = t;
      }
      op = c0 == 'h' ? (c1 == 'h' ? OTV_CS_HHCURVETO : OTV_CS_HVCURVETO)
                     : (c1 == 'v' ? OTV_CS_VVCURVETO : OTV_CS_VHCURVETO);
      break;
    }
    }
    put_args(x, o, p2, c->first, c->n);
    if (!implied) otv_cff_put_op(o, op);
    if (c->kind == K_MOVE) open = o->len;
  }
  if ((s = body_close(x, &open, o->len, vs_eff))) return s;
  return o->failed ? OTV_FAIL(b->err, NOMEM, 0, 0, "charstrings") : OTV_E_OK;
}

/* ---- Private DICTs ---- */

static bool blendable(int op)
{
  switch (op) {
  case OTV_DICT_BLUEVALUES:
  case OTV_DICT_OTHERBLUES:
  case OTV_DICT_FAMILYBLUES:
  case OTV_DICT_FAMILYOTHERBLUES:
  case OTV_DICT_STDHW:
  case OTV_DICT_STDVW:
  case OTV_DICT_BLUESCALE:
  case OTV_DICT_BLUESHIFT:
  case OTV_DICT_BLUEFUZZ:
  case OTV_DICT_STEMSNAPH:
  case OTV_DICT_STEMSNAPV: return true;
  default: return false;
  }
}

/* Operands of operator op in master k's Private DICT of Font DICT fd into v (at most max);
 * returns their count, -1 when the DICT has no such operator. */
static int private_get(otv_builder *b, unsigned k, uint32_t fd, int op, double *v, unsigned max)
{
  const otv_cff *c = &b->m[k].cff->cff;
  if (fd >= c->fd_count || !c->fds[fd].priv.p) return -1;
  otv_span pv = c->fds[fd].priv;
  otv_cff_dict dd;
  if (!otv_cff_dict_init(&dd, c->tab, c->tag, (size_t)(pv.p - c->tab.p), pv.len, c->cff2, &c->ivs))
    return -1;
  for (;;) {
    int o = otv_cff_dict_next(&dd, NULL);
    if (o == OTV_DICT_END || o == OTV_DICT_ERROR) return -1;
    if (o != op) continue;
    unsigned n = dd.n < max ? dd.n : max;
    memcpy(v, dd.args, n * sizeof *v);
    return (int)dd.n;
  }
}

/* The model's deltas of vals (one per location given to md), unrounded (DICT values may be
 * reals), integral ones snapped. */
static void deltas_exact(const otv_vmodel *md, const double *vals, double *out)
{
  for (unsigned i = 0; i < md->count; i++) {
    double v = vals[md->order[i]];
    for (unsigned j = 0; j < i; j++) v -= md->weight[(size_t)i * md->count + j] * out[j];
    double r = floor(v + 0.5);
    out[i] = fabs(v - r) < 1e-9 ? r : v;
  }
}

/* A DICT number as otv_cff_dict_put_num writes it, but a real between -1 and 1 without its
 * leading zero ("0.0625" as ".0625": one nibble, often a byte, less). */
static void dict_num(otv_buf *o, double v)
{
  char t[64];
  if (v == floor(v) || fabs(v) >= 1) {
    otv_cff_dict_put_num(o, v);
    return;
  }
  snprintf(t, sizeof t, "%.8g", v);
  const char *c = t;
  if (strchr(t, 'e') || !(c[0] == '0' || (c[0] == '-' && c[1] == '0'))) {
    otv_cff_dict_put_num(o, v);
    return;
  }
  uint8_t nib[80];
  size_t k = 0;
  if (*c == '-') nib[k++] = OTV_CFF_NIB_MINUS, c++;
  c++; /* the leading 0 */
  for (; *c && k < 76; c++) nib[k++] = *c == '.' ? OTV_CFF_NIB_POINT : (uint8_t)(*c - '0');
  nib[k++] = OTV_CFF_NIB_END;
  if (k & 1) nib[k++] = OTV_CFF_NIB_END;
  otv_buf_u8(o, OTV_CFF_REAL);
  for (size_t i = 0; i < k; i += 2) otv_buf_u8(o, (uint8_t)(nib[i] << 4 | nib[i + 1]));
}

#define PRIV_MAX 96 /* operands of one Private DICT operator (the blue arrays: 14) */

/* Font DICT f's Private DICT (CFF2): the blendable values blended over the masters whose
 * matching Font DICT has them (fdm: per master its Font DICT, UINT32_MAX: none). */
static otv_status private_build(cffb *x, uint32_t f, const uint32_t *fdm, otv_buf *o)
{
  otv_builder *b = x->b;
  const otv_cff *dc = &b->m[b->base].cff->cff;
  if (f >= dc->fd_count || !dc->fds[f].priv.p) return OTV_E_OK;
  otv_mset mask = otv_mset_first(0);
  for (unsigned k = 0; k < b->mc; k++)
    if (k == b->base || fdm[k] != UINT32_MAX) otv_mset_add(&mask, k);
  const otv_vmodel *md;
  otv_status s = otv_build_submodel(b, &mask, &md);
  if (s) return s;
  otv_span pv = dc->fds[f].priv;
  otv_cff_dict dd;
  if (!otv_cff_dict_init(&dd, dc->tab, dc->tag, (size_t)(pv.p - dc->tab.p), pv.len, dc->cff2,
                         &dc->ivs))
    return OTV_FAIL(b->err, BAD_OFFSET, dc->tag, 0, "Private DICT");
  /* per master present PRIV_MAX values, then per value its deltas (on the heap: up to
   * OTV_BUILD_MAX_MASTERS masters) */
  size_t vn = (size_t)b->mc * PRIV_MAX * 2;
  double *vbuf = otv_mem_calloc(&b->al, vn, sizeof *vbuf);
  if (!vbuf) return OTV_FAIL(b->err, NOMEM, 0, 0, "Private DICT");
  double(*vals)[PRIV_MAX] = (double(*)[PRIV_MAX])vbuf;
  double *deltas = vbuf + (size_t)b->mc * PRIV_MAX; /* [value * mc + model position] */
  otv_buf body;
  otv_buf_init(&body, &b->al);
  bool any_blend = false;
  int cnt[OTV_BUILD_MAX_MASTERS];
  double col[OTV_BUILD_MAX_MASTERS], dl[OTV_BUILD_MAX_MASTERS];
  for (;;) {
    int op = otv_cff_dict_next(&dd, b->err);
    if (op == OTV_DICT_ERROR) {
      otv_buf_free(&body);
      otv_mem_free(&b->al, vbuf, vn * sizeof *vbuf);
      return b->err ? b->err->code : OTV_E_BAD_VALUE;
    }
    if (op == OTV_DICT_END) break;
    bool keep = op == OTV_DICT_LANGUAGEGROUP || op == OTV_DICT_EXPANSIONFACTOR;
    if (!blendable(op) && !keep) continue;
    unsigned nv = dd.n;
    if (nv > PRIV_MAX) nv = PRIV_MAX;
    bool differ = false;
    unsigned q = 0;
    for (unsigned k = 0; k < b->mc; k++) {
      if (!otv_mset_has(&mask, k)) continue;
      if (k == b->base) {
        memcpy(vals[q], dd.args, nv * sizeof(double));
        cnt[q] = (int)nv;
      } else {
        cnt[q] = keep ? -1 : private_get(b, k, fdm[k], op, vals[q], PRIV_MAX);
        if (cnt[q] >= 0 && (unsigned)cnt[q] != nv) {
          otv_buf_free(&body);
          otv_mem_free(&b->al, vbuf, vn * sizeof *vbuf);
          return OTV_FAIL(
              b->err, BAD_VALUE, OTV_T_CFF2, 0,
              "Private DICT operator %d: master %s has %d values, the default master %u", op,
              b->m[k].name, cnt[q], nv);
        }
        if (cnt[q] < 0) { /* not in that master: the default's (as fontTools) */
          memcpy(vals[q], dd.args, nv * sizeof(double));
          cnt[q] = (int)nv;
        }
        for (unsigned i = 0; i < nv; i++) differ |= vals[q][i] != dd.args[i];
      }
      q++;
    }
    if (!differ) {
      for (unsigned i = 0; i < nv; i++) dict_num(&body, dd.args[i]);
    } else {
      any_blend = true;
      for (unsigned i = 0; i < nv; i++) {
        for (unsigned r = 0; r < q; r++) col[r] = vals[r][i];
        deltas_exact(md, col, dl);
        memcpy(deltas + (size_t)i * b->mc, dl, md->count * sizeof *dl);
      }
      for (unsigned i = 0; i < nv; i++) dict_num(&body, dd.args[i]);
      for (unsigned i = 0; i < nv; i++)
        for (unsigned r = 1; r < md->count; r++) dict_num(&body, deltas[(size_t)i * b->mc + r]);
      dict_num(&body, nv);
      otv_cff_put_op(&body, OTV_DICT_BLEND);
    }
    otv_cff_put_op(&body, op);
  }
  otv_mem_free(&b->al, vbuf, vn * sizeof *vbuf);
  if (any_blend) {
    unsigned vi;
    if ((s = vsindex_of(x, &mask, md, &vi))) {
      otv_buf_free(&body);
      return s;
    }
    if (vi) {
      dict_num(o, vi);
      otv_cff_put_op(o, OTV_DICT_VSINDEX);
      x->priv_vs[f] = (uint16_t)vi;
    }
  }
  otv_buf_bytes(o, body.p, body.len);
  bool failed = body.failed;
  otv_buf_free(&body);
  return failed ? OTV_FAIL(b->err, NOMEM, 0, 0, "Private DICT") : OTV_E_OK;
}

/* ---- the table ---- */

/* The bytes of integer v as a DICT operand (otv_cff_dict_put_num's shortest form). */
static size_t int_len(size_t v)
{
  return v <= OTV_CFF_INT1_MAX ? 1 : v <= OTV_CFF_INT2_MAX ? 2 : v <= INT16_MAX ? 3 : 5;
}

static void put_store(cffb *x, otv_buf *o)
{
  unsigned ac = x->b->ac;
  size_t start = o->len;
  otv_buf_u16(o, 0); /* length, patched */
  size_t ivs = o->len;
  otv_buf_u16(o, 1);
  size_t rl_at = o->len;
  otv_buf_u32(o, 0);
  otv_buf_u16(o, (uint16_t)x->vd_count);
  size_t offs = o->len;
  otv_buf_zeros(o, 4 * (size_t)x->vd_count);
  otv_buf_put_u32(o, rl_at, (uint32_t)(o->len - ivs));
  otv_buf_u16(o, (uint16_t)ac);
  otv_buf_u16(o, (uint16_t)x->reg_count);
  for (size_t i = 0; i < (size_t)x->reg_count * ac * 3; i++) otv_buf_u16(o, (uint16_t)x->reg[i]);
  for (unsigned v = 0; v < x->vd_count; v++) {
    otv_buf_put_u32(o, offs + 4 * (size_t)v, (uint32_t)(o->len - ivs));
    otv_buf_u16(o, 0); /* itemCount: CFF2 keeps its deltas in the charstrings */
    otv_buf_u16(o, 0);
    otv_buf_u16(o, (uint16_t)x->vd[v].rc);
    for (unsigned r = 0; r < x->vd[v].rc; r++) otv_buf_u16(o, x->vd[v].reg[r]);
  }
  otv_buf_put_u16(o, start, (uint16_t)(o->len - ivs));
}

static int body_key_cmp(const void *pa, const void *pb)
{
  const cbody *a = pa, *c = pb;
  if (a->vs != c->vs) return a->vs < c->vs ? -1 : 1;
  if (a->len != c->len) return a->len < c->len ? -1 : 1;
  int r = memcmp(a->p, c->p, a->len);
  if (r) return r;
  return a->at < c->at ? -1 : a->at > c->at;
}

static int body_at_cmp(const void *pa, const void *pb)
{
  const cbody *a = pa, *c = pb;
  return a->at < c->at ? -1 : a->at > c->at;
}

typedef struct sgroup {
  uint32_t first, count, len; /* in the sorted bodies */
} sgroup;

static int group_cmp(const void *pa, const void *pb)
{
  const sgroup *a = pa, *c = pb;
  if (a->count != c->count) return a->count > c->count ? -1 : 1; /* the most used first */
  if (a->len != c->len) return a->len > c->len ? -1 : 1;
  return a->first < c->first ? -1 : a->first > c->first;
}

static unsigned subr_bias(uint32_t n) { return n < 1240 ? 107 : n < 33900 ? 1131 : 32768; }

/* Subroutines (spec: CFF2 "Subroutine operators"): each contour body (the operators after a
 * moveto, up to the next moveto, hint, mask or the end: relative, so the same bytes draw the
 * same wherever the contour starts) found in several glyphs with the same vsindex, where the
 * calls save more than the subroutine costs, becomes a global subroutine, the most used
 * first (the shortest index operands). Kept only when CharStrings and Global Subr INDEX
 * together come out smaller than the CharStrings alone. Exact: the same operators run. */
static otv_status subroutinize(cffb *x, uint32_t gc)
{
  otv_builder *b = x->b;
  size_t n = x->bd_n;
  if (n < 2 || x->cs.failed || (b->ds->flags & OTV_BUILD_NO_SUBRS)) return OTV_E_OK;
  for (size_t i = 0; i < n; i++) x->bd[i].p = x->cs.p + x->bd[i].at;
  qsort(x->bd, n, sizeof *x->bd, body_key_cmp);
  sgroup *gr = otv_mem_alloc(&b->al, n * sizeof *gr);
  if (!gr) return OTV_FAIL(b->err, NOMEM, 0, 0, "subroutines");
  uint32_t ng = 0;
  for (size_t i = 0; i < n;) {
    size_t j = i + 1;
    while (j < n && x->bd[j].vs == x->bd[i].vs && x->bd[j].len == x->bd[i].len &&
           !memcmp(x->bd[j].p, x->bd[i].p, x->bd[i].len))
      j++;
    /* c calls of 2-3 bytes against the body once and its INDEX offset */
    size_t c = j - i, len = x->bd[i].len;
    if (c > 1 && c * len > c * 3 + len + 3)
      gr[ng++] = (sgroup){(uint32_t)i, (uint32_t)c, (uint32_t)len};
    i = j;
  }
  qsort(gr, ng, sizeof *gr, group_cmp);
  if (ng > 65535) ng = 65535;
  otv_status s = OTV_E_OK;
  otv_buf gs, cs;
  otv_buf_init(&gs, &b->al);
  otv_buf_init(&cs, &b->al);
  uint32_t *gs_off = ng ? otv_mem_alloc(&b->al, ((size_t)ng + 1) * sizeof *gs_off) : NULL;
  uint32_t *cs_off = ng ? otv_mem_alloc(&b->al, ((size_t)gc + 1) * sizeof *cs_off) : NULL;
  if (ng && (!gs_off || !cs_off)) s = OTV_FAIL(b->err, NOMEM, 0, 0, "subroutines");
  for (uint32_t k = 0; !s && k < ng; k++) {
    gs_off[k] = (uint32_t)gs.len;
    otv_buf_bytes(&gs, x->bd[gr[k].first].p, gr[k].len);
    for (uint32_t i = 0; i < gr[k].count; i++) x->bd[gr[k].first + i].subr = k;
  }
  if (!s && ng) {
    gs_off[ng] = (uint32_t)gs.len;
    qsort(x->bd, n, sizeof *x->bd, body_at_cmp);
    long bias = (long)subr_bias(ng);
    size_t j = 0;
    for (uint32_t g = 0; g < gc; g++) {
      size_t pos = x->cs_off[g], end = x->cs_off[g + 1];
      cs_off[g] = (uint32_t)cs.len;
      for (; j < n && x->bd[j].at < end; j++) {
        const cbody *d = &x->bd[j];
        if (d->subr == UINT32_MAX) continue;
        otv_buf_bytes(&cs, x->cs.p + pos, d->at - pos);
        otv_cs_put_num(&cs, (double)((long)d->subr - bias));
        otv_cff_put_op(&cs, OTV_CS_CALLGSUBR);
        pos = (size_t)d->at + d->len;
      }
      otv_buf_bytes(&cs, x->cs.p + pos, end - pos);
    }
    cs_off[gc] = (uint32_t)cs.len;
    if (gs.failed || cs.failed || cs.len > UINT32_MAX)
      s = OTV_FAIL(b->err, NOMEM, 0, 0, "subroutines");
  }
  if (!s && ng &&
      otv_cff2_index_len(gc, cs.len) + otv_cff2_index_len(ng, gs.len) <
          otv_cff2_index_len(gc, x->cs.len) + otv_cff2_index_len(0, 0)) {
    otv_buf t = x->cs;
    x->cs = cs, cs = t;
    memcpy(x->cs_off, cs_off, ((size_t)gc + 1) * sizeof *cs_off);
    x->gs = gs, x->gs_off = gs_off, x->gs_n = ng;
    otv_buf_init(&gs, &b->al);
    gs_off = NULL;
  }
  otv_buf_free(&gs);
  otv_buf_free(&cs);
  if (gs_off) otv_mem_free(&b->al, gs_off, ((size_t)ng + 1) * sizeof *gs_off);
  if (cs_off) otv_mem_free(&b->al, cs_off, ((size_t)gc + 1) * sizeof *cs_off);
  otv_mem_free(&b->al, gr, n * sizeof *gr);
  return s;
}

static otv_status write_table(cffb *x, uint32_t fd_count)
{
  otv_builder *b = x->b;
  const otv_bmaster *dm = &b->m[b->base];
  const otv_cff *dc = &dm->cff->cff;
  uint32_t gc = dm->glyph_count;
  otv_status s = OTV_E_OK;
  const otv_buf priv = x->priv;
  const uint32_t *poff = x->poff;
  unsigned vi;
  otv_mset all = otv_mset_first(b->mc);
  if (!s && !x->vd_count) s = vsindex_of(x, &all, &b->model, &vi);
  /* FontMatrix: the default's transform (one for every Font DICT) */
  otv_buf top;
  otv_buf_init(&top, &b->al);
  otv_span head = otv_sfnt_find(&dm->sfnt, OTV_T_HEAD);
  double upem = head.len >= 20 ? otv_peek_u16(head.p + 18) : 1000; /* in range: checked */
  if (upem == 0) upem = 1000;
  for (uint32_t f = 1; !s && f < dc->fd_count; f++)
    if (memcmp(dc->fds[f].xf, dc->fds[0].xf, sizeof dc->fds[0].xf))
      s = OTV_FAIL(b->err, UNSUPPORTED, dc->tag, 0, "Font DICTs with different FontMatrix");
  if (!s && dc->fd_count) {
    /* written unless it is CFF2's default [0.001 0 0 0.001 0 0] */
    static const double def[6] = {0.001, 0, 0, 0.001, 0, 0};
    double fm[6];
    bool other = false;
    for (int i = 0; i < 6; i++) {
      fm[i] = dc->fds[0].xf_on ? dc->fds[0].xf[i] / upem : (i == 0 || i == 3) / upem;
      other |= fabs(fm[i] - def[i]) > 1e-12;
    }
    for (int i = 0; other && i < 6; i++) otv_cff_dict_put_num(&top, fm[i]);
    if (other) otv_cff_put_op(&top, OTV_DICT_FONTMATRIX);
  }
  /* FDSelect: format 3 or 0, the smaller */
  otv_buf fds;
  otv_buf_init(&fds, &b->al);
  if (!s && fd_count > 1) {
    uint32_t ranges = 0, prev = UINT32_MAX;
    for (uint32_t g = 0; g < gc; g++) {
      uint32_t f = 0;
      otv_cff_fd_of(dc, g, &f);
      if (f != prev) ranges++, prev = f;
    }
    if (5 + 3 * (size_t)ranges < 1 + (size_t)gc) {
      otv_buf_u8(&fds, 3);
      otv_buf_u16(&fds, (uint16_t)ranges);
      prev = UINT32_MAX;
      for (uint32_t g = 0; g < gc; g++) {
        uint32_t f = 0;
        otv_cff_fd_of(dc, g, &f);
        if (f != prev) otv_buf_u16(&fds, (uint16_t)g), otv_buf_u8(&fds, (uint8_t)f), prev = f;
      }
      otv_buf_u16(&fds, (uint16_t)gc);
    } else {
      otv_buf_u8(&fds, 0);
      for (uint32_t g = 0; g < gc; g++) {
        uint32_t f = 0;
        otv_cff_fd_of(dc, g, &f);
        otv_buf_u8(&fds, (uint8_t)f);
      }
    }
  }
  otv_buf vs;
  otv_buf_init(&vs, &b->al);
  if (!s) put_store(x, &vs);
  if (!s && vs.len - 2 > 0xFFFF)
    s = OTV_FAIL(b->err, LIMIT, OTV_T_CFF2, 0, "VariationStore over 64 KiB");
  /* layout: header, Top DICT, GlobalSubrs, VariationStore, FDSelect, FDArray, CharStrings,
   * Private DICTs (OTS refuses a Private DICT before the CharStrings) */
  /* every offset in its shortest form: the lengths grow with the offsets, the offsets with
   * the lengths, so a few rounds reach the fixed point */
  size_t top_len = 0, at = 0, gsubrs_at = 0, vs_at = 0, fds_at = 0, fdarray_at = 0, cs_at = 0,
         priv_at = 0, fd_dict_len = 0;
  for (unsigned round = 0; round < 16; round++) {
    size_t tl = top.len + int_len(cs_at) + 1 + (fd_count > 1 ? int_len(fds_at) + 2 : 0) +
                int_len(fdarray_at) + 2 + int_len(vs_at) + 1;
    size_t fl = 0;
    for (uint32_t f = 0; f < fd_count; f++)
      fl += int_len(poff[f + 1] - poff[f]) + int_len(priv_at + poff[f]) + 1;
    bool same = round && tl == top_len && fl == fd_dict_len;
    top_len = tl, fd_dict_len = fl;
    at = OTV_CFF2_HEADER_SIZE + top_len;
    gsubrs_at = at;
    at += otv_cff2_index_len(x->gs_n, x->gs.len);
    vs_at = at;
    at += vs.len;
    fds_at = at;
    at += fds.len;
    fdarray_at = at;
    at += otv_cff2_index_len(fd_count, fd_dict_len);
    cs_at = at;
    at += otv_cff2_index_len(gc, x->cs.len);
    priv_at = at;
    at += priv.len;
    if (same) break;
  }
  if (!s && (at > UINT32_MAX || top_len > 0xFFFF))
    s = OTV_FAIL(b->err, LIMIT, OTV_T_CFF2, 0, "CFF2 over 4 GiB");
  otv_buf *t = s ? NULL : otv_build_table(b, OTV_T_CFF2);
  if (!s && !t) s = OTV_FAIL(b->err, LIMIT, 0, 0, "too many tables");
  if (!s) {
    otv_buf_u8(t, OTV_CFF2_MAJOR);
    otv_buf_u8(t, 0);
    otv_buf_u8(t, OTV_CFF2_HEADER_SIZE);
    otv_buf_u16(t, (uint16_t)top_len);
    otv_buf_bytes(t, top.p, top.len);
    otv_cff_dict_put_num(t, (double)cs_at);
    otv_cff_put_op(t, OTV_DICT_CHARSTRINGS);
    if (fd_count > 1) {
      otv_cff_dict_put_num(t, (double)fds_at);
      otv_cff_put_op(t, OTV_DICT_FDSELECT);
    }
    otv_cff_dict_put_num(t, (double)fdarray_at);
    otv_cff_put_op(t, OTV_DICT_FDARRAY);
    otv_cff_dict_put_num(t, (double)vs_at);
    otv_cff_put_op(t, OTV_DICT_VSTORE);
    if (OTV_NEVER(!t->failed && t->len != gsubrs_at))
      s = OTV_FAIL(b->err, LIMIT, OTV_T_CFF2, 0, "CFF2 layout");
    otv_cff2_put_index(t, x->gs_n ? &x->gs : NULL, x->gs_off, x->gs_n);
    otv_buf_bytes(t, vs.p, vs.len);
    otv_buf_bytes(t, fds.p, fds.len);
    /* FDArray: one Font DICT per default Font DICT, its Private */
    otv_buf fdd;
    otv_buf_init(&fdd, &b->al);
    uint32_t *fo = otv_mem_calloc(&b->al, (size_t)fd_count + 1, sizeof *fo);
    if (!fo) s = OTV_FAIL(b->err, NOMEM, 0, 0, "FDArray");
    for (uint32_t f = 0; !s && f < fd_count; f++) {
      fo[f] = (uint32_t)fdd.len;
      otv_cff_dict_put_num(&fdd, poff[f + 1] - poff[f]);
      otv_cff_dict_put_num(&fdd, (double)(priv_at + poff[f]));
      otv_cff_put_op(&fdd, OTV_DICT_PRIVATE);
    }
    if (!s) {
      fo[fd_count] = (uint32_t)fdd.len;
      otv_cff2_put_index(t, &fdd, fo, fd_count);
      otv_cff2_put_index(t, &x->cs, x->cs_off, gc);
      otv_buf_bytes(t, priv.p, priv.len);
      if (OTV_NEVER(!t->failed && t->len != at))
        s = OTV_FAIL(b->err, LIMIT, OTV_T_CFF2, 0, "CFF2 layout did not settle");
    }
    if (fo) otv_mem_free(&b->al, fo, ((size_t)fd_count + 1) * sizeof *fo);
    otv_buf_free(&fdd);
    if (!s && (t->failed || x->cs.failed || priv.failed || top.failed || fds.failed || vs.failed))
      s = OTV_FAIL(b->err, NOMEM, 0, 0, "CFF2");
  }
  otv_buf_free(&top);
  otv_buf_free(&fds);
  otv_buf_free(&vs);
  return s;
}

/* A glyph's name for post 2.0: bytes, and its standard Macintosh index (or -1). */
typedef struct pname {
  const uint8_t *p;
  uint32_t len, gid;
  int32_t mac;
} pname;

static int pname_cmp(const void *pa, const void *pb)
{
  const pname *a = pa, *c = pb;
  uint32_t n = a->len < c->len ? a->len : c->len;
  int r = n ? memcmp(a->p, c->p, n) : 0;
  if (r) return r;
  if (a->len != c->len) return a->len < c->len ? -1 : 1;
  return a->gid < c->gid ? -1 : a->gid > c->gid;
}

/* Glyph g's name in a name-keyed CFF (v1) master: a standard string (*std) or the String
 * INDEX's bytes (*str); false for CFF2 and CID-keyed masters, or a SID past the strings. */
static bool cff_glyph_name(const otv_bcff *x, uint32_t g, const char **std, otv_span *str)
{
  if (!x->sid || x->cff.cid) return false;
  uint32_t sid = x->sid[g];
  if (sid < OTV_CFF_STD_STRINGS) {
    *std = otv_cff_std_strings[sid];
    return true;
  }
  return otv_cff_index_get(&x->cff.strings, sid - OTV_CFF_STD_STRINGS, str);
}

/* The default master's glyph names into names[]: its CFF charset's; a CFF2 or CID-keyed master
 * (no names in the charset): its own post 2.0 names. False when a glyph has none or one is too
 * long for a Pascal string. */
static bool post_names_of(otv_builder *b, pname *names, bool *nomem)
{
  const otv_bmaster *dm = &b->m[b->base];
  uint32_t gc = dm->glyph_count;
  otv_post_names pn;
  bool cff2 = !dm->cff->sid || dm->cff->cff.cid, ok = true;
  if (cff2) {
    otv_status st = OTV_E_OK;
    if (!otv_post_names_open(otv_sfnt_find(&dm->sfnt, OTV_T_POST), gc, &b->al, &pn, &st)) {
      *nomem = st == OTV_E_NOMEM;
      return false;
    }
  }
  for (uint32_t g = 0; ok && g < gc; g++) {
    const char *std = NULL;
    otv_span str = {NULL, 0};
    ok = cff2 ? otv_post_name(&pn, g, &std, &str) : cff_glyph_name(dm->cff, g, &std, &str);
    if (ok && std) str = (otv_span){(const uint8_t *)std, strlen(std)};
    ok = ok && str.len && str.len <= 255;
    if (ok) names[g] = (pname){str.p, (uint32_t)str.len, g, -1};
  }
  if (cff2) otv_post_names_free(&pn, &b->al);
  return ok;
}

static int bytes_cmp(const void *pa, const void *pb)
{
  const pname *a = pa, *c = pb;
  uint32_t n = a->len < c->len ? a->len : c->len;
  int r = n ? memcmp(a->p, c->p, n) : 0;
  return r ? r : a->len < c->len ? -1 : a->len > c->len;
}

/* post version 2.0 (spec: post) after the header: glyphNameIndex (a standard Macintosh name by
 * its index, 258 + i the i-th Pascal string), then the strings, each distinct name once in the
 * order of its first glyph (as fontTools writes them). names[] is sorted here (work[] as large
 * holds the glyphs' indices). False when the indices do not fit (then post 3). */
static bool post2_body(otv_buf *p, pname *names, uint32_t *idx, uint32_t gc)
{
  pname mac[OTV_POST_STD_NAMES];
  for (uint32_t i = 0; i < OTV_POST_STD_NAMES; i++)
    mac[i] = (pname){(const uint8_t *)otv_post_std_names[i],
                     (uint32_t)strlen(otv_post_std_names[i]), i, (int32_t)i};
  qsort(mac, OTV_POST_STD_NAMES, sizeof *mac, bytes_cmp);
  qsort(names, gc, sizeof *names, pname_cmp); /* by bytes, then glyph */
  /* idx[g]: a standard index, SAME + the first glyph of the same name, or OWN (a string) */
  const uint32_t SAME = 0x80000000u, OWN = 0xFFFFFFFFu;
  for (uint32_t i = 0, head = 0; i < gc; i++) {
    const pname *n = &names[i];
    if (i && !bytes_cmp(n, &names[i - 1])) {
      uint32_t h = idx[names[head].gid];
      idx[n->gid] = h < OTV_POST_STD_NAMES ? h : SAME + names[head].gid;
      continue;
    }
    head = i;
    const pname *hit = bsearch(n, mac, OTV_POST_STD_NAMES, sizeof *mac, bytes_cmp);
    idx[n->gid] = hit ? (uint32_t)hit->mac : OWN;
  }
  /* the strings in glyph order: a glyph whose name came first gets the next index */
  uint32_t next = OTV_POST_STD_NAMES;
  for (uint32_t g = 0; g < gc; g++) {
    if (idx[g] == OWN)
      idx[g] = next++;
    else if (idx[g] >= SAME)
      idx[g] = idx[idx[g] - SAME];      /* an earlier glyph: resolved */
    if (idx[g] > 0x7FFFu) return false; /* 32768.. were reserved: readers may refuse them */
  }
  otv_buf_u16(p, (uint16_t)gc);
  for (uint32_t g = 0; g < gc; g++) otv_buf_u16(p, (uint16_t)idx[g]);
  /* names[] sorted: find each string's bytes by the glyph that introduced it */
  uint32_t *first = idx + gc; /* string i -> position in names[] */
  for (uint32_t i = 0; i < gc; i++)
    if (idx[names[i].gid] >= OTV_POST_STD_NAMES && (!i || bytes_cmp(&names[i], &names[i - 1])))
      first[idx[names[i].gid] - OTV_POST_STD_NAMES] = i;
  for (uint32_t i = 0; i < next - OTV_POST_STD_NAMES; i++) {
    const pname *n = &names[first[i]];
    otv_buf_u8(p, (uint8_t)n->len);
    otv_buf_bytes(p, n->p, n->len);
  }
  return true;
}

/* maxp version 0.5 and post: version 2.0 with the default master's glyph names when it has
 * them for every glyph (CFF2 keeps no names: post is the only place they survive), else 3.0 */
static otv_status write_maxp_post(otv_builder *b)
{
  const otv_bmaster *dm = &b->m[b->base];
  uint32_t gc = dm->glyph_count;
  otv_buf *t = otv_build_table(b, OTV_T_MAXP);
  if (!t) return OTV_FAIL(b->err, LIMIT, 0, 0, "too many tables");
  otv_buf_u32(t, 0x00005000u);
  otv_buf_u16(t, (uint16_t)gc);
  otv_span post = otv_sfnt_find(&dm->sfnt, OTV_T_POST);
  if (post.len >= POST_HEADER_LEN) {
    otv_buf *p = otv_build_table(b, OTV_T_POST);
    if (!p) return OTV_FAIL(b->err, LIMIT, 0, 0, "too many tables");
    pname *names = otv_mem_calloc(&b->al, (size_t)gc + 1, sizeof *names);
    uint32_t *idx = otv_mem_calloc(&b->al, 2 * (size_t)gc + 1, sizeof *idx);
    bool nomem = !names || !idx, named = false;
    size_t at = p->len;
    if (!nomem && gc && post_names_of(b, names, &nomem)) {
      otv_buf_u32(p, 0x00020000u);
      otv_buf_bytes(p, post.p + 4, POST_HEADER_LEN - 4); /* in range: length checked */
      named = post2_body(p, names, idx, gc);
      if (!named) p->len = at;
    }
    if (names) otv_mem_free(&b->al, names, ((size_t)gc + 1) * sizeof *names);
    if (idx) otv_mem_free(&b->al, idx, (2 * (size_t)gc + 1) * sizeof *idx);
    if (nomem) return OTV_FAIL(b->err, NOMEM, 0, 0, "post names");
    if (!named) {
      otv_buf_u32(p, 0x00030000u);
      otv_buf_bytes(p, post.p + 4, POST_HEADER_LEN - 4); /* in range: length checked */
    }
    if (p->failed) return OTV_FAIL(b->err, NOMEM, 0, 0, "post");
  }
  return t->failed ? OTV_FAIL(b->err, NOMEM, 0, 0, "maxp") : OTV_E_OK;
}

otv_status otv_build_cff2(otv_builder *b)
{
  cffb x;
  memset(&x, 0, sizeof x);
  x.b = b;
  x.sp.b = b;
  otv_buf_init(&x.cs, &b->al);
  const otv_bmaster *dm = &b->m[b->base];
  const otv_cff *dc = &dm->cff->cff;
  uint32_t gc = dm->glyph_count;
  uint32_t fd_count = dc->fd_count ? dc->fd_count : 1;
  otv_status s = OTV_E_OK;
  /* The model of the masters at their F2Dot14 locations, the coordinates a renderer evaluates
   * at: the regions' peaks and bounds are then exactly those stored, so the blend at a master's
   * location reproduces it within the rounding of its own delta (0.5). With the exact
   * locations, masters close together (TestSparseCFF2VF: 889 and 890) put the stored regions
   * off by up to 1/32768 where deltas are steep, and a master came out 2 units off. */
  bool moved = false;
  for (size_t i = 0; i < (size_t)b->mc * b->ac; i++) {
    double q = otv_build_f2(b->norm[i]) / 16384.0;
    moved |= q != b->norm[i];
    b->norm[i] = q;
  }
  if (moved) {
    otv_vmodel_free(&b->model, &b->al);
    for (unsigned i = 0; i < b->sub_count; i++) otv_vmodel_free(&b->subs[i].model, &b->al);
    b->sub_count = 0;
    if ((s = otv_vmodel_init(&b->model, b->norm, b->mc, b->ac, &b->al, b->err))) return s;
  }
  x.mg = otv_mem_calloc(&b->al, b->mc, sizeof *x.mg);
  x.run = otv_mem_alloc(&b->al, sizeof *x.run);
  x.cs_off = otv_mem_calloc(&b->al, (size_t)gc + 1, sizeof *x.cs_off);
  uint32_t *fdm = otv_mem_calloc(&b->al, (size_t)fd_count * b->mc + 1, sizeof *fdm);
  if (!x.mg || !x.run || !x.cs_off || !fdm) s = OTV_FAIL(b->err, NOMEM, 0, 0, "CFF2");
  /* each default Font DICT's match in every master: the Font DICT of the first glyph using
   * it that the master has */
  if (!s)
    for (size_t i = 0; i < (size_t)fd_count * b->mc; i++) fdm[i] = UINT32_MAX;
  for (uint32_t g = 0; !s && g < gc; g++) {
    uint32_t df = 0;
    if (dc->fd_count && !otv_cff_fd_of(dc, g, &df)) df = 0;
    if (df >= fd_count) continue;
    for (unsigned k = 0; k < b->mc; k++) {
      uint32_t mg = b->m[k].gid_of[g], mf = 0;
      const otv_cff *mc = &b->m[k].cff->cff;
      if (mg == UINT32_MAX || fdm[(size_t)df * b->mc + k] != UINT32_MAX) continue;
      if (mc->fd_count && !otv_cff_fd_of(mc, mg, &mf)) continue;
      fdm[(size_t)df * b->mc + k] = mf;
    }
  }
  /* the Private DICTs first (they may add VarData, and set the charstrings' vsindex) */
  otv_buf_init(&x.priv, &b->al);
  x.fd_count = fd_count;
  x.poff = s ? NULL : otv_mem_calloc(&b->al, (size_t)fd_count + 1, sizeof *x.poff);
  x.priv_vs = s ? NULL : otv_mem_calloc(&b->al, (size_t)fd_count + 1, sizeof *x.priv_vs);
  if (!s && (!x.poff || !x.priv_vs)) s = OTV_FAIL(b->err, NOMEM, 0, 0, "Private DICTs");
  for (uint32_t f = 0; !s && f < fd_count; f++) {
    x.poff[f] = (uint32_t)x.priv.len;
    s = private_build(&x, f, fdm + (size_t)f * b->mc, &x.priv);
  }
  if (!s) x.poff[fd_count] = (uint32_t)x.priv.len;
  for (uint32_t g = 0; !s && g < gc; g++) {
    x.cs_off[g] = (uint32_t)x.cs.len;
    s = glyph(&x, g);
  }
  otv_buf_init(&x.gs, &b->al);
  if (!s) {
    x.cs_off[gc] = (uint32_t)x.cs.len;
    s = subroutinize(&x, gc);
  }
  if (!s) s = write_table(&x, fd_count);
  if (!s) s = write_maxp_post(b);
  /* a glyph empty in a master where the default's is not is missing there for the other
   * tables too (HVAR, VVAR: its advance is not a master value, as fontTools' sparse masters) */
  for (size_t i = 0; !s && i < x.drop_count; i++)
    b->m[x.drop[i] >> 32].gid_of[(uint32_t)x.drop[i]] = UINT32_MAX;
  otv_mem_free(&b->al, x.drop, x.drop_cap * sizeof *x.drop);
  if (x.mg)
    for (unsigned k = 0; k < b->mc; k++) {
      cglyph *g = &x.mg[k];
      otv_mem_free(&b->al, g->c, g->ccap * sizeof *g->c);
      otv_mem_free(&b->al, g->v, g->vcap * sizeof *g->v);
      otv_mem_free(&b->al, g->mk, g->mcap);
    }
  otv_mem_free(&b->al, x.mg, b->mc * sizeof *x.mg);
  if (x.run) otv_mem_free(&b->al, x.run, sizeof *x.run);
  otv_mem_free(&b->al, x.cs_off, ((size_t)gc + 1) * sizeof *x.cs_off);
  otv_mem_free(&b->al, fdm, ((size_t)fd_count * b->mc + 1) * sizeof *fdm);
  otv_mem_free(&b->al, x.sp.val, x.sp.vcap * sizeof *x.sp.val);
  otv_mem_free(&b->al, x.sp.bl, x.sp.bcap);
  otv_mem_free(&b->al, x.sc, x.sc_cap * sizeof *x.sc);
  otv_mem_free(&b->al, x.sl, x.sl_cap * sizeof *x.sl);
  otv_mem_free(&b->al, x.sl2, x.sl2_cap * sizeof *x.sl2);
  otv_mem_free(&b->al, x.reg, (size_t)x.reg_cap * sizeof *x.reg);
  for (unsigned v = 0; v < x.vd_count; v++)
    otv_mem_free(&b->al, x.vd[v].reg, (x.vd[v].rc + 1) * sizeof *x.vd[v].reg);
  otv_mem_free(&b->al, x.vd, x.vd_cap * sizeof *x.vd);
  otv_buf_free(&x.cs);
  otv_buf_free(&x.gs);
  if (x.gs_off) otv_mem_free(&b->al, x.gs_off, ((size_t)x.gs_n + 1) * sizeof *x.gs_off);
  otv_mem_free(&b->al, x.bd, x.bd_cap * sizeof *x.bd);
  otv_buf_free(&x.priv);
  if (x.poff) otv_mem_free(&b->al, x.poff, ((size_t)fd_count + 1) * sizeof *x.poff);
  if (x.priv_vs) otv_mem_free(&b->al, x.priv_vs, ((size_t)fd_count + 1) * sizeof *x.priv_vs);
  return s;
}

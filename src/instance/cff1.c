/*
 * instance/cff1.c - a static instance of a CFF2 font as a CFF (version 1) table, the form every
 * application, printer driver and PDF tool accepts as an OpenType/CFF font.
 *
 * Spec: Adobe TN 5176 (CFF: header, INDEX, Top/Font/Private DICTs, charsets, FDSelect, CID-keyed
 * fonts), TN 5177 (Type 2 charstrings: endchar, return, the width operand, the 48-entry stack),
 * OpenType "CFF2" (what differs from CFF) and "post" (format 2.0 glyph names).
 *
 * Charstrings and subroutines come from instance/cff_partial.c's walker in its full mode: every
 * blend is resolved at the pin, coordinates are written as integers with the rounding carried
 * forward (diffuse() there: each point is the exact one rounded where the operands and their
 * operator are in one charstring), vsindex dropped, hints (hstem/vstem/hintmask/cntrmask) copied
 * with their values rounded. A subroutine keeps its number (so its INDEX and its bias are the
 * source's): one without blends is copied as it is, one with blends is written once from its entry
 * state and shared, and a call that stands between a blend and its operands is inlined (the
 * analysis pass marks those). Unused subroutines become a bare return. What CFF adds to a CFF2
 * charstring: the width (hmtx advance - nominalWidthX) first, unless the advance is the Font DICT's
 * defaultWidthX; endchar at the end of every glyph; return at the end of every subroutine; and a
 * stack of at most 48 operands (an operator with more is split into several, cff_partial.c's
 * split_op; the analysis inlines the calls that stand in the way). Operand counts CFF does not take
 * and paths before a moveto are refused; Private DICT entries with the wrong operand count are
 * dropped.
 *
 * Keying: name-keyed (glyph names from post 2.0, standard strings by SID) when the font has one
 * Font DICT and post 2.0 names every glyph with a valid PostScript name; otherwise CID-keyed
 * (ROS Adobe-Identity-0, CID = glyph id, FDArray and FDSelect carried over). widths: per Font
 * DICT, defaultWidthX is the most frequent advance and nominalWidthX the median of the others.
 *
 * The glyph boxes (head, hhea, hmtx side bearings, FontBBox) are those of the table written,
 * read back and drawn (otv_inst_cff_boxes), then the table is laid out again with FontBBox.
 *
 * Layout: header | Name INDEX | Top DICT INDEX | String INDEX | Global Subr INDEX | charset |
 * FDSelect | CharStrings INDEX | FDArray INDEX | per Font DICT: Private DICT, local Subrs. DICT
 * offsets use the 5-byte form so the Top DICT's size does not depend on their values.
 */
#include "instance/cff1.h"
#include "cff_strings.h"
#include "instance/store.h"
#include "cff_write.h"
#include "charstring.h"
#include "name.h"
#include "post_names.h"

#include <stdlib.h>

#define CFF1_MAJOR 1
#define CFF1_HEADER_SIZE 4
#define CFF1_MAX_FDS 256              /* FDSelect stores a Font DICT index in a byte */
#define CFF1_NAME_MAX 63              /* TN 5176 "Name INDEX": at most 127; PostScript names 63 */
#define SID_ADOBE OTV_CFF_STD_STRINGS /* the first custom string of a CID-keyed instance */

typedef struct fd_out {
  otv_buf priv;      /* the Private DICT */
  otv_buf subrs;     /* local Subrs data */
  uint32_t *offs;    /* subrs.count + 1 offsets */
  uint32_t nsub;     /* local subroutine count */
  long def_w, nom_w; /* defaultWidthX, nominalWidthX */
} fd_out;

typedef struct cff1 {
  otv_inst *in;
  const otv_cff *c;
  int8_t *mode;
  double *factor;
  unsigned rc;
  otv_part_subrs ps;
  fd_out fd[CFF1_MAX_FDS];
  otv_buf cs, gsub, strs, charset, fdsel;
  uint32_t *cs_offs, *gs_offs, *str_offs;
  uint32_t nstr;
  size_t budget;
  /* name-keyed: the post table's names */
  bool named;
  otv_post_names post; /* its post 2.0 names (post_names.h) */
  char ps_name[CFF1_NAME_MAX + 1];
} cff1;

/* ---- blend scalars at the pin, and the Private DICTs ---- */

/* Per region: folded into the defaults (mode 0) with its factor at the pin. */
static otv_status region_factors(cff1 *x)
{
  otv_inst *in = x->in;
  const otv_ivs *ivs = &x->c->ivs;
  x->rc = ivs->region_count ? ivs->region_count : 1;
  x->mode = otv_mem_calloc(in->al, x->rc, 1);
  x->factor = otv_mem_calloc(in->al, x->rc, sizeof *x->factor);
  if (!x->mode || !x->factor) return OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "blend regions");
  otv_inst_ivs ev;
  if (otv_inst_ivs_init(&in->cx, ivs, &ev)) {
    otv_inst_ivs_fini(&in->cx, &ev);
    return OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "blend scalars");
  }
  bool ft = (in->flags & OTV_INST_CFF_FT_BLEND) != 0;
  for (unsigned r = 0; r < ivs->region_count; r++)
    x->factor[r] = ft ? otv_inst_cff_ft_scalar(ivs, r, in->pin.coords, in->pin.axis_count)
                   : ev.k[r] < 0 ? 0
                                 : otv_pin_scale(1.0, ev.s + (size_t)r * ev.stride, ev.k[r]);
  otv_inst_ivs_fini(&in->cx, &ev);
  return OTV_E_OK;
}

double otv_inst_cff_ft_scalar(const otv_ivs *ivs, unsigned r, const otv_f2dot14 *coords,
                              unsigned axis_count)
{
  if (r >= ivs->region_count || axis_count > OTV_MAX_AXES) return 0;
  int16_t st[OTV_MAX_AXES], pk[OTV_MAX_AXES], en[OTV_MAX_AXES];
  otv_ivs_region(ivs, r, axis_count, st, pk, en);
  int32_t bv = 0x10000;
  for (unsigned a = 0; a < axis_count; a++) {
    int32_t s = st[a] * 4, p = pk[a] * 4, e = en[a] * 4, c = coords[a] * 4, k;
    if (s > p || p > e || (s < 0 && e > 0 && p != 0) || p == 0)
      k = 0x10000; /* an invalid range, or an axis the region ignores */
    else if (c < s || c > e)
      k = 0;
    else if (c == p)
      k = 0x10000;
    else
      k = c < p ? otv_ft_divfix(c - s, p - s) : otv_ft_divfix(e - c, e - p);
    bv = otv_ft_mulfix(bv, k);
  }
  return bv / 65536.0;
}

/* otv_cff_blend_fn: the factor of column col of ItemVariationData vsindex. */
static double dict_scalar(void *ud, unsigned vsindex, unsigned col)
{
  const cff1 *x = ud;
  const otv_ivs *ivs = &x->c->ivs;
  if (vsindex >= ivs->data_count) return 0;
  const otv_ivd *v = &ivs->data[vsindex];
  if (col >= v->region_index_count) return 0;
  unsigned r = otv_ivd_region(v, col);
  return r < ivs->region_count ? x->factor[r] : 0;
}

/* Whether a Private DICT entry has the operand count its operator takes (TN 5176 Table 23): a
 * malformed entry that CFF2 readers skip is dropped rather than carried into the CFF table. */
static bool private_entry_ok(int op, unsigned n)
{
  switch (op) {
  case OTV_DICT_BLUEVALUES:
  case OTV_DICT_OTHERBLUES:
  case OTV_DICT_FAMILYBLUES:
  case OTV_DICT_FAMILYOTHERBLUES: return n % 2 == 0; /* pairs */
  case OTV_DICT_STEMSNAPH:
  case OTV_DICT_STEMSNAPV: return true; /* a delta array of any length */
  case OTV_DICT_STDHW:
  case OTV_DICT_STDVW:
  case OTV_DICT_BLUESCALE:
  case OTV_DICT_BLUESHIFT:
  case OTV_DICT_BLUEFUZZ:
  case OTV_DICT_FORCEBOLD:
  case OTV_DICT_LANGUAGEGROUP:
  case OTV_DICT_EXPANSIONFACTOR:
  case OTV_DICT_INITIALRANDOMSEED: return n == 1;
  default: return false; /* not a Private DICT operator of CFF */
  }
}

/* Font DICT i's Private DICT with blends resolved; vsindex, Subrs and the widths dropped, then
 * the widths and (with local subroutines) a Subrs offset written for the CFF layout. */
static otv_status write_private(cff1 *x, uint32_t i)
{
  otv_inst *in = x->in;
  const otv_cff *c = x->c;
  const otv_cff_fd *fd = &c->fds[i];
  otv_buf *out = &x->fd[i].priv;
  if (fd->priv.p) {
    otv_cff_dict d;
    /* in range: the span was checked by the face's parse */
    otv_cff_dict_init(&d, c->tab, c->tag, (size_t)(fd->priv.p - c->tab.p), fd->priv.len, true,
                      &c->ivs);
    d.scalar = dict_scalar;
    d.scalar_ud = x;
    for (;;) {
      int op = otv_cff_dict_next(&d, in->err);
      if (op == OTV_DICT_ERROR) return in->err ? in->err->code : OTV_E_BAD_VALUE;
      if (op == OTV_DICT_END) break;
      if (op == OTV_DICT_VSINDEX || op == OTV_DICT_SUBRS || op == OTV_DICT_DEFAULTWIDTHX ||
          op == OTV_DICT_NOMINALWIDTHX || !private_entry_ok(op, d.n))
        continue;
      bool whole = otv_cff_private_int(op);
      for (unsigned k = 0; k < d.n; k++)
        otv_cff_dict_put_num(out, whole ? floor(d.args[k] + 0.5) : d.args[k]);
      otv_cff_put_op(out, op);
    }
  }
  otv_cff_dict_put_num(out, (double)x->fd[i].def_w);
  otv_cff_put_op(out, OTV_DICT_DEFAULTWIDTHX);
  otv_cff_dict_put_num(out, (double)x->fd[i].nom_w);
  otv_cff_put_op(out, OTV_DICT_NOMINALWIDTHX);
  if (x->fd[i].nsub) {
    /* Subrs right after this DICT (the offset counts from its start): this operand and the
     * operator follow */
    otv_cff_dict_put_offset(out, (uint32_t)(out->len + OTV_CFF_DICT_OFFSET_LEN + 1));
    otv_cff_put_op(out, OTV_DICT_SUBRS);
  }
  return out->failed ? OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "Private DICT") : OTV_E_OK;
}

/* ---- widths ---- */

static int cmp_u16(const void *a, const void *b)
{
  unsigned x = *(const uint16_t *)a, y = *(const uint16_t *)b;
  return x < y ? -1 : x > y;
}

/* Per Font DICT: defaultWidthX the most frequent advance, nominalWidthX the median of the
 * others (so most width operands are one or two bytes). */
static otv_status choose_widths(cff1 *x)
{
  otv_inst *in = x->in;
  uint32_t n = in->glyph_count;
  uint16_t *w = otv_mem_alloc(in->al, (n ? n : 1) * sizeof *w);
  if (!w) return OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "widths");
  for (uint32_t f = 0; f < x->c->fd_count; f++) {
    uint32_t m = 0;
    for (uint32_t g = 0; g < n; g++) {
      uint32_t gf = 0;
      if (otv_cff_fd_of(x->c, g, &gf) && gf == f) w[m++] = in->adv_w[g];
    }
    x->fd[f].def_w = x->fd[f].nom_w = 0;
    if (!m) continue;
    qsort(w, m, sizeof *w, cmp_u16);
    uint32_t best = 0, best_run = 0;
    for (uint32_t i = 0, j; i < m; i = j) {
      for (j = i; j < m && w[j] == w[i]; j++) {}
      if (j - i > best_run) best_run = j - i, best = w[i];
    }
    /* the median of the advances that are not the default */
    uint32_t others = m - best_run, k = 0, target = others / 2;
    long nom = (long)best;
    for (uint32_t i = 0; i < m && others; i++) {
      if (w[i] == best) continue;
      if (k++ == target) {
        nom = w[i];
        break;
      }
    }
    x->fd[f].def_w = (long)best;
    x->fd[f].nom_w = nom;
  }
  otv_mem_free(in->al, w, (n ? n : 1) * sizeof *w);
  return OTV_E_OK;
}

/* ---- names ---- */

/* A PostScript name: printable ASCII without the delimiters (TN 5176 "Name INDEX"). */
static bool ps_char_ok(uint8_t ch)
{
  return ch > 32 && ch < 127 && ch != '[' && ch != ']' && ch != '(' && ch != ')' && ch != '{' &&
         ch != '}' && ch != '<' && ch != '>' && ch != '/' && ch != '%';
}

/* The fvar postScriptNameID of the named instance at the instance's location, or 6 (the font's
 * PostScript name) when there is none. */
static uint16_t ps_name_id(const otv_inst *in)
{
  const otv_face *f = in->face;
  unsigned count = otv_face_named_instances(f, 0, NULL, NULL);
  otv_location *l = NULL;
  uint16_t id = 6;
  if (!count || in->pin.partial || otv_location_create(f, &l, NULL)) return id;
  otv_f2dot14 c[OTV_MAX_AXES];
  for (unsigned i = 0; i < count && id == 6; i++) {
    otv_named_instance ni;
    unsigned one = 1;
    otv_face_named_instances(f, i, &one, &ni);
    if (!one || ni.postscript_name_id == 0xFFFF || otv_location_set_named(l, i)) continue;
    unsigned na = otv_location_normalized(l, c, OTV_MAX_AXES);
    bool same = na == in->pin.axis_count;
    for (unsigned a = 0; a < na && same; a++) same = c[a] == in->pin.coords[a];
    if (same) id = ni.postscript_name_id;
  }
  otv_location_destroy(l);
  return id;
}

/* The Name INDEX's one name: the PostScript name of the named instance at the location, else
 * the font's (name ID 6), else "Instance". */
static void font_name(cff1 *x)
{
  char buf[256];
  size_t len = 0;
  size_t k = 0;
  uint16_t id = ps_name_id(x->in);
  if (otv_name_get(&x->in->face->name, id, buf, sizeof buf, &len, NULL)) id = 6, len = 0;
  if (id == 6 && !len && otv_name_get(&x->in->face->name, 6, buf, sizeof buf, &len, NULL)) len = 0;
  if (len)
    for (size_t i = 0; i < len && i < sizeof buf && k < CFF1_NAME_MAX; i++)
      if (ps_char_ok((uint8_t)buf[i])) x->ps_name[k++] = buf[i];
  if (!k) memcpy(x->ps_name, "Instance", 9), k = 8;
  x->ps_name[k] = 0;
}

/* Glyph g's name from post 2.0 (x->named): false when it has none. */
static bool glyph_name(const cff1 *x, uint32_t g, const char **std, otv_span *s)
{
  return otv_post_name(&x->post, g, std, s);
}

/* Whether post 2.0 names every glyph with a valid name; sets up glyph_name(). */
static otv_status post_setup(cff1 *x)
{
  otv_inst *in = x->in;
  x->named = false;
  if (x->c->fd_count != 1) return OTV_E_OK;
  otv_status st;
  if (!otv_post_names_open(otv_face_span(in->face, OTV_T_POST), in->glyph_count, in->al, &x->post,
                           &st))
    return st ? OTV_FAIL(in->err, NOMEM, OTV_T_POST, 0, "glyph names") : OTV_E_OK;
  uint32_t n = in->glyph_count;
  for (uint32_t g = 1; g < n; g++) { /* glyph 0 is .notdef in a CFF charset */
    const char *std = NULL;
    otv_span s = {NULL, 0};
    if (!glyph_name(x, g, &std, &s)) return OTV_E_OK;
    const uint8_t *q = std ? (const uint8_t *)std : s.p;
    size_t ql = std ? strlen(std) : s.len;
    if (!ql || ql > CFF1_NAME_MAX) return OTV_E_OK;
    for (size_t i = 0; i < ql; i++)
      if (!ps_char_ok(q[i])) return OTV_E_OK;
  }
  x->named = true;
  return OTV_E_OK;
}

/* A custom string appended to the String INDEX; its SID. */
static uint32_t add_string(cff1 *x, const void *s, size_t len)
{
  x->str_offs[x->nstr] = (uint32_t)x->strs.len;
  otv_buf_bytes(&x->strs, s, len);
  return OTV_CFF_STD_STRINGS + x->nstr++;
}

/* The charset (and String INDEX): name-keyed, each glyph's SID; CID-keyed, CID = glyph id. Both
 * as format 2 ranges (first, nLeft u16) or format 0 (a SID per glyph), whichever is shorter. */
static otv_status write_charset(cff1 *x)
{
  otv_inst *in = x->in;
  uint32_t n = in->glyph_count;
  x->str_offs = otv_mem_alloc(in->al, ((size_t)n + 3) * sizeof *x->str_offs);
  uint16_t *sid = otv_mem_alloc(in->al, (n ? n : 1) * sizeof *sid);
  if (!x->str_offs || !sid) {
    if (sid) otv_mem_free(in->al, sid, (n ? n : 1) * sizeof *sid);
    return OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "charset");
  }
  otv_status st = OTV_E_OK;
  if (!x->named) {
    add_string(x, "Adobe", 5);
    add_string(x, "Identity", 8);
    for (uint32_t g = 0; g < n; g++) sid[g] = (uint16_t)g;
  } else {
    for (uint32_t g = 1; g < n; g++) {
      const char *std = NULL;
      otv_span s = {NULL, 0};
      if (!glyph_name(x, g, &std, &s)) { /* post_setup checked every glyph */
        st = OTV_FAIL(in->err, BAD_VALUE, OTV_T_POST, 0, "internal: glyph %u has no name", g);
        break;
      }
      const char *q = std ? std : (const char *)s.p;
      size_t ql = std ? strlen(std) : s.len;
      uint32_t k = 0;
      for (; k < OTV_CFF_STD_STRINGS; k++) /* (the first byte first: ql >= 1) */
        if (otv_cff_std_strings[k][0] == q[0] && !strncmp(otv_cff_std_strings[k], q, ql) &&
            !otv_cff_std_strings[k][ql])
          break;
      if (k == OTV_CFF_STD_STRINGS) {
        if (x->nstr >= 65535u - OTV_CFF_STD_STRINGS) {
          st = OTV_FAIL(in->err, LIMIT, OTV_T_POST, 0, "more than 65535 glyph names");
          break;
        }
        k = add_string(x, q, ql);
      }
      sid[g] = (uint16_t)k;
    }
  }
  x->str_offs[x->nstr] = (uint32_t)x->strs.len;
  if (!st && n > 1) {
    size_t ranges = 1;
    for (uint32_t g = 2; g < n; g++)
      if (sid[g] != sid[g - 1] + 1) ranges++;
    if (ranges * 4 < (size_t)(n - 1) * 2) {
      otv_buf_u8(&x->charset, 2);
      for (uint32_t g = 1; g < n;) {
        uint32_t e = g;
        while (e + 1 < n && sid[e + 1] == sid[e] + 1 && e - g < 65535) e++;
        otv_buf_u16(&x->charset, sid[g]);
        otv_buf_u16(&x->charset, (uint16_t)(e - g));
        g = e + 1;
      }
    } else {
      otv_buf_u8(&x->charset, 0);
      for (uint32_t g = 1; g < n; g++) otv_buf_u16(&x->charset, sid[g]);
    }
  } else if (!st) {
    otv_buf_u8(&x->charset, 0); /* .notdef only */
  }
  otv_mem_free(in->al, sid, (n ? n : 1) * sizeof *sid);
  if (!st && (x->charset.failed || x->strs.failed))
    st = OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "charset");
  return st;
}

/* FDSelect format 3 (CID-keyed): the glyphs' Font DICTs as ranges. */
static otv_status write_fdselect(cff1 *x)
{
  uint32_t n = x->in->glyph_count;
  otv_buf *b = &x->fdsel;
  otv_buf_u8(b, 3);
  size_t count_at = b->len;
  otv_buf_u16(b, 0);
  unsigned ranges = 0, prev = UINT32_MAX;
  for (uint32_t g = 0; g < n; g++) {
    uint32_t f = 0;
    if (!otv_cff_fd_of(x->c, g, &f) || f >= x->c->fd_count)
      return OTV_FAIL(x->in->err, BAD_VALUE, OTV_T_CFF2, 0, "glyph %u: FDSelect", g);
    if (f != prev) {
      otv_buf_u16(b, (uint16_t)g);
      otv_buf_u8(b, (uint8_t)f);
      ranges++, prev = f;
    }
  }
  otv_buf_u16(b, (uint16_t)n); /* sentinel */
  if (b->failed) return OTV_FAIL(x->in->err, NOMEM, OTV_T_CFF2, 0, "FDSelect");
  otv_buf_put_u16(b, count_at, (uint16_t)ranges);
  return OTV_E_OK;
}

/* ---- charstrings ---- */

static otv_status over_budget(cff1 *x, uint32_t g)
{
  return OTV_FAIL(x->in->err, LIMIT, OTV_T_CFF2, 0,
                  "CFF2 instance over its budget of %zu bytes at glyph %u (%u x the CFF2 table + "
                  "%zu; subroutine fan-out)",
                  x->budget, g, OTV_CFF_INSTANCE_FACTOR, (size_t)OTV_CFF_INSTANCE_FLOOR);
}

static otv_status write_charstrings(cff1 *x)
{
  otv_inst *in = x->in;
  uint32_t n = in->glyph_count;
  x->cs_offs = otv_mem_alloc(in->al, ((size_t)n + 1) * sizeof *x->cs_offs);
  if (!x->cs_offs) return OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "charstrings");
  for (uint32_t g = 0; g < n; g++) {
    uint32_t f = 0;
    otv_cff_fd_of(x->c, g, &f); /* (otv_part_cff_glyph fails when it is missing) */
    x->cs_offs[g] = (uint32_t)x->cs.len;
    if (f < CFF1_MAX_FDS && in->adv_w[g] != x->fd[f].def_w) {
      long d = (long)in->adv_w[g] - x->fd[f].nom_w;
      otv_cs_put_num(&x->cs, (double)(d < INT16_MIN ? INT16_MIN : d > INT16_MAX ? INT16_MAX : d));
    }
    otv_status st = otv_part_cff_glyph(in, g, x->mode, x->factor, &x->ps, &x->cs);
    if (st) return st;
    otv_cff_put_op(&x->cs, OTV_CS_ENDCHAR);
    if (x->cs.len > x->budget) return over_budget(x, g);
    if (x->cs.failed) return OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "charstrings");
  }
  x->cs_offs[n] = (uint32_t)x->cs.len;
  return OTV_E_OK;
}

static otv_status write_subrs(cff1 *x)
{
  otv_inst *in = x->in;
  const otv_cff *c = x->c;
  size_t total = x->cs.len;
  if (c->gsubrs.count) {
    x->gs_offs = otv_mem_alloc(in->al, ((size_t)c->gsubrs.count + 1) * sizeof *x->gs_offs);
    if (!x->gs_offs) return OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "subroutines");
    otv_status st = otv_part_cff_subrs(in, x->mode, x->factor, &x->ps, -1, &x->gsub, x->gs_offs);
    if (st) return st;
    total += x->gsub.len;
  }
  for (uint32_t f = 0; f < c->fd_count; f++) {
    fd_out *o = &x->fd[f];
    o->nsub = c->fds[f].subrs.count;
    if (!o->nsub) continue;
    if (total > x->budget) return over_budget(x, UINT32_MAX);
    o->offs = otv_mem_alloc(in->al, ((size_t)o->nsub + 1) * sizeof *o->offs);
    if (!o->offs) return OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "subroutines");
    otv_status st = otv_part_cff_subrs(in, x->mode, x->factor, &x->ps, (int)f, &o->subrs, o->offs);
    if (st) return st;
    total += o->subrs.len;
  }
  return total > x->budget ? over_budget(x, UINT32_MAX) : OTV_E_OK;
}

/* ---- the table ---- */

/* A CFF INDEX of count elements (offs[count + 1] into data) at the end of b. */
static void put_index(otv_buf *b, const uint8_t *data, size_t data_len, const uint32_t *offs,
                      uint32_t count)
{
  otv_buf_u16(b, (uint16_t)count);
  if (!count) return;
  unsigned os = otv_cff_off_size(data_len + 1);
  otv_buf_u8(b, (uint8_t)os);
  for (uint32_t i = 0; i <= count; i++) {
    uint32_t o = offs[i] + 1;
    for (unsigned k = os; k-- > 0;) otv_buf_u8(b, (uint8_t)(o >> (8 * k)));
  }
  otv_buf_bytes(b, data, data_len);
}

static size_t index_len(uint32_t count, size_t data_len)
{
  return count ? 2 + 1 + ((size_t)count + 1) * otv_cff_off_size(data_len + 1) + data_len : 2;
}

/* The Top DICT with the section offsets given (all 5-byte, so its size does not depend on them). */
static void top_dict(cff1 *x, otv_buf *t, size_t charset_at, size_t cs_at, size_t fdsel_at,
                     size_t fda_at, size_t priv_at)
{
  otv_inst *in = x->in;
  const otv_cff *c = x->c;
  if (!x->named) {
    otv_cff_dict_put_num(t, SID_ADOBE);
    otv_cff_dict_put_num(t, SID_ADOBE + 1);
    otv_cff_dict_put_num(t, 0);
    otv_cff_put_op(t, OTV_DICT_ROS);
    otv_cff_dict_put_num(t, in->glyph_count);
    otv_cff_put_op(t, OTV_DICT_CIDCOUNT);
  }
  /* FontBBox: the union of the glyphs' boxes */
  int bb[4] = {0, 0, 0, 0};
  bool any = false;
  for (uint32_t g = 0; g < in->glyph_count; g++) {
    if (!in->has_outline[g]) continue;
    const int16_t *b = in->bbox[g];
    if (!any) bb[0] = b[0], bb[1] = b[1], bb[2] = b[2], bb[3] = b[3], any = true;
    if (b[0] < bb[0]) bb[0] = b[0];
    if (b[1] < bb[1]) bb[1] = b[1];
    if (b[2] > bb[2]) bb[2] = b[2];
    if (b[3] > bb[3]) bb[3] = b[3];
  }
  for (int k = 0; k < 4; k++) otv_cff_dict_put_num(t, bb[k]);
  otv_cff_put_op(t, OTV_DICT_FONTBBOX);
  if (c->top_has_matrix) {
    for (int k = 0; k < 6; k++) otv_cff_dict_put_num(t, c->top_matrix[k]);
    otv_cff_put_op(t, OTV_DICT_FONTMATRIX);
  }
  otv_cff_dict_put_offset(t, (uint32_t)charset_at);
  otv_cff_put_op(t, OTV_DICT_CHARSET);
  otv_cff_dict_put_offset(t, (uint32_t)cs_at);
  otv_cff_put_op(t, OTV_DICT_CHARSTRINGS);
  if (x->named) {
    otv_cff_dict_put_offset(t, (uint32_t)x->fd[0].priv.len);
    otv_cff_dict_put_offset(t, (uint32_t)priv_at);
    otv_cff_put_op(t, OTV_DICT_PRIVATE);
  } else {
    otv_cff_dict_put_offset(t, (uint32_t)fda_at);
    otv_cff_put_op(t, OTV_DICT_FDARRAY);
    otv_cff_dict_put_offset(t, (uint32_t)fdsel_at);
    otv_cff_put_op(t, OTV_DICT_FDSELECT);
  }
}

static otv_status assemble(cff1 *x)
{
  otv_inst *in = x->in;
  const otv_cff *c = x->c;
  uint32_t nfd = c->fd_count;
  otv_buf *o = &in->cff2;
  otv_buf top;
  otv_buf_init(&top, in->al);
  top_dict(x, &top, 0, 0, 0, 0, 0);
  size_t top_len = top.len;
  size_t name_len = strlen(x->ps_name);
  size_t at = CFF1_HEADER_SIZE;
  at += index_len(1, name_len);
  at += index_len(1, top_len);
  at += index_len(x->nstr, x->strs.len);
  at += index_len(c->gsubrs.count, x->gsub.len);
  size_t charset_at = at;
  at += x->charset.len;
  size_t fdsel_at = at;
  at += x->named ? 0 : x->fdsel.len;
  size_t cs_at = at;
  at += index_len(in->glyph_count, x->cs.len);
  /* FDArray: Font DICTs "size offset Private" */
  size_t fda_at = at;
  size_t fd_dict = 2 * OTV_CFF_DICT_OFFSET_LEN + 1;
  if (!x->named) at += index_len(nfd, nfd * fd_dict);
  size_t priv_base = at;
  size_t priv_at[CFF1_MAX_FDS];
  for (uint32_t f = 0; f < nfd; f++) {
    priv_at[f] = at;
    at += x->fd[f].priv.len;
    if (x->fd[f].nsub) at += index_len(x->fd[f].nsub, x->fd[f].subrs.len);
  }
  if (at > UINT32_MAX) {
    otv_buf_free(&top);
    return OTV_FAIL(in->err, LIMIT, OTV_T_CFF2, 0, "CFF table of %zu bytes", at);
  }
  top.len = 0;
  top_dict(x, &top, charset_at, cs_at, fdsel_at, fda_at, priv_base);
  if (!otv_buf_reserve(o, at)) {
    otv_buf_free(&top);
    return OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "CFF table");
  }
  otv_buf_u8(o, CFF1_MAJOR);
  otv_buf_u8(o, 0); /* minor */
  otv_buf_u8(o, CFF1_HEADER_SIZE);
  otv_buf_u8(o, 4); /* offSize: of absolute offsets, unused by readers */
  uint32_t one[2] = {0, (uint32_t)name_len};
  put_index(o, (const uint8_t *)x->ps_name, name_len, one, 1);
  one[1] = (uint32_t)top.len;
  put_index(o, top.p, top.len, one, 1);
  bool top_failed = top.failed || top.len != top_len;
  otv_buf_free(&top);
  put_index(o, x->strs.p, x->strs.len, x->str_offs, x->nstr);
  put_index(o, x->gsub.p, x->gsub.len, x->gs_offs, c->gsubrs.count);
  otv_buf_bytes(o, x->charset.p, x->charset.len);
  if (!x->named) otv_buf_bytes(o, x->fdsel.p, x->fdsel.len);
  put_index(o, x->cs.p, x->cs.len, x->cs_offs, in->glyph_count);
  if (!x->named) {
    otv_buf fdd;
    otv_buf_init(&fdd, in->al);
    uint32_t fdo[CFF1_MAX_FDS + 1];
    for (uint32_t f = 0; f < nfd; f++) {
      fdo[f] = (uint32_t)fdd.len;
      otv_cff_dict_put_offset(&fdd, (uint32_t)x->fd[f].priv.len);
      otv_cff_dict_put_offset(&fdd, (uint32_t)priv_at[f]);
      otv_cff_put_op(&fdd, OTV_DICT_PRIVATE);
    }
    fdo[nfd] = (uint32_t)fdd.len;
    put_index(o, fdd.p, fdd.len, fdo, nfd);
    top_failed |= fdd.failed;
    otv_buf_free(&fdd);
  }
  for (uint32_t f = 0; f < nfd; f++) {
    otv_buf_bytes(o, x->fd[f].priv.p, x->fd[f].priv.len);
    if (x->fd[f].nsub)
      put_index(o, x->fd[f].subrs.p, x->fd[f].subrs.len, x->fd[f].offs, x->fd[f].nsub);
  }
  if (o->failed || top_failed) return OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "CFF table");
  if (o->len != at)
    return OTV_FAIL(in->err, BAD_VALUE, OTV_T_CFF2, 0, "internal: CFF layout %zu != %zu", o->len,
                    at);
  in->cff1 = true;
  in->cff1_names = x->named;
  return OTV_E_OK;
}

static void cff1_free(cff1 *x)
{
  otv_inst *in = x->in;
  const otv_alloc *al = in->al;
  uint32_t n = in->glyph_count;
  if (x->mode) otv_mem_free(al, x->mode, x->rc);
  if (x->factor) otv_mem_free(al, x->factor, x->rc * sizeof *x->factor);
  otv_part_subrs_free(in, &x->ps);
  for (uint32_t f = 0; f < CFF1_MAX_FDS; f++) {
    otv_buf_free(&x->fd[f].priv);
    otv_buf_free(&x->fd[f].subrs);
    if (x->fd[f].offs)
      otv_mem_free(al, x->fd[f].offs, ((size_t)x->c->fds[f].subrs.count + 1) * sizeof(uint32_t));
  }
  otv_buf *bufs[] = {&x->cs, &x->gsub, &x->strs, &x->charset, &x->fdsel};
  for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++) otv_buf_free(bufs[i]);
  if (x->cs_offs) otv_mem_free(al, x->cs_offs, ((size_t)n + 1) * sizeof *x->cs_offs);
  if (x->gs_offs)
    otv_mem_free(al, x->gs_offs, ((size_t)x->c->gsubrs.count + 1) * sizeof *x->gs_offs);
  if (x->str_offs) otv_mem_free(al, x->str_offs, ((size_t)n + 3) * sizeof *x->str_offs);
  otv_post_names_free(&x->post, al);
}

otv_status otv_inst_cff1(otv_inst *in)
{
  cff1 *x = otv_mem_calloc(in->al, 1, sizeof *x);
  if (!x) return OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "CFF writer");
  x->in = in;
  x->c = &in->face->cff;
  uint32_t fd_count = x->c->fd_count;
  if (fd_count > CFF1_MAX_FDS) { /* (instance/cff.c refuses them first) */
    otv_mem_free(in->al, x, sizeof *x);
    return OTV_FAIL(in->err, LIMIT, OTV_T_CFF2, 0, "FDArray: %u Font DICTs", fd_count);
  }
  x->budget = otv_cff_instance_budget(x->c->tab.len);
  /* a CFF INDEX counts its elements in 16 bits, CFF2's in 32 */
  bool too_many = x->c->gsubrs.count > UINT16_MAX || in->glyph_count > UINT16_MAX;
  for (uint32_t f = 0; f < x->c->fd_count; f++) too_many |= x->c->fds[f].subrs.count > UINT16_MAX;
  if (!in->glyph_count) {
    /* spec (TN 5176): CharStrings holds at least .notdef (an FDSelect needs a range) */
    otv_mem_free(in->al, x, sizeof *x);
    return OTV_FAIL(in->err, BAD_VALUE, OTV_T_CFF2, 0, "no glyphs: a CFF font needs .notdef");
  }
  if (too_many) {
    otv_mem_free(in->al, x, sizeof *x);
    return OTV_FAIL(in->err, LIMIT, OTV_T_CFF2, 0,
                    "more than 65535 glyphs or subroutines in an INDEX: not possible in CFF "
                    "(--cff2 keeps CFF2)");
  }
  for (uint32_t f = 0; f < CFF1_MAX_FDS; f++) {
    otv_buf_init(&x->fd[f].priv, in->al);
    otv_buf_init(&x->fd[f].subrs, in->al);
  }
  otv_buf *bufs[] = {&x->cs, &x->gsub, &x->strs, &x->charset, &x->fdsel};
  for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++) otv_buf_init(bufs[i], in->al);
  x->ps.full = x->ps.cff1 = true;
  otv_status st;
  /* the analysis decides which subroutine calls are inlined: a font without subroutines
   * (Source Serif 4) needs none, and its charstrings are walked once */
  bool subrs = x->c->gsubrs.count != 0;
  for (uint32_t f = 0; f < x->c->fd_count; f++) subrs |= x->c->fds[f].subrs.count != 0;
  if ((st = region_factors(x)) ||
      (subrs && (st = otv_part_cff_analyse(in, x->mode, x->factor, &x->ps))) ||
      (st = choose_widths(x)) || (st = write_charstrings(x)) || (st = write_subrs(x)))
    goto done;
  for (uint32_t f = 0; f < x->c->fd_count; f++)
    if ((st = write_private(x, f))) goto done;
  font_name(x);
  if ((st = post_setup(x)) || (st = write_charset(x))) goto done;
  if (!x->named && (st = write_fdselect(x))) goto done;
  /* the glyph boxes of what was written (read back), then the table again with their union as
   * FontBBox (the first one had the boxes of nothing) */
  if (!(st = assemble(x)) && !(st = otv_inst_cff_boxes(in, false))) {
    in->cff2.len = 0;
    st = assemble(x);
  }
done:
  cff1_free(x);
  otv_mem_free(in->al, x, sizeof *x);
  return st;
}

/* ---- the boxes of what was written ---- */

typedef struct box_pen {
  double x0, y0, x1, y1;
  bool any;
} box_pen;

static void box_pt(box_pen *b, float x, float y)
{
  if (!b->any) b->x0 = b->x1 = x, b->y0 = b->y1 = y, b->any = true;
  if (x < b->x0) b->x0 = x;
  if (x > b->x1) b->x1 = x;
  if (y < b->y0) b->y0 = y;
  if (y > b->y1) b->y1 = y;
}
static void box_move(void *c, float x, float y) { box_pt(c, x, y); }
static void box_quad(void *c, float cx, float cy, float x, float y)
{
  box_pt(c, cx, cy), box_pt(c, x, y);
}
static void box_cubic(void *c, float ax, float ay, float bx, float by, float x, float y)
{
  box_pt(c, ax, ay), box_pt(c, bx, by), box_pt(c, x, y);
}
static void box_close(void *c) { (void)c; }

otv_status otv_inst_cff_boxes(otv_inst *in, bool cff2)
{
  static const otv_pen pen = {box_move, box_move, box_quad, box_cubic, box_close};
  const otv_face *f = in->face;
  otv_span tab = {in->cff2.p, in->cff2.len};
  otv_cff oc;
  otv_error err = {0};
  otv_status st = otv_cff_parse(tab, cff2, f->units_per_em, 0, in->al, &oc, &err);
  if (st) {
    otv_cff_free(in->al, &oc);
    return otv_fail(in->err, st, cff2 ? OTV_T_CFF2 : OTV_T_CFF, err.offset,
                    "internal: the instance's table does not read back: %s", err.msg);
  }
  otv_coords at;
  memset(&at, 0, sizeof at);
  at.serial = 1, at.is_default = true;
  otv_cff_loc l;
  otv_cff_loc_init(&l, &oc, (otv_locctx){&at, in->al, &err, NULL});
  for (uint32_t g = 0; g < in->glyph_count && g < oc.charstrings.count && !st; g++) {
    box_pen b = {0, 0, 0, 0, false};
    if ((st = otv_cff_outline(&l, g, 0, &pen, &b))) {
      st = otv_fail(in->err, st, cff2 ? OTV_T_CFF2 : OTV_T_CFF, err.offset,
                    "internal: glyph %u of the instance: %s", g, err.msg);
      break;
    }
    in->has_outline[g] = b.any;
    int16_t bb[4] = {0, 0, 0, 0};
    if (b.any) {
      /* floor of the minima, ceiling of the maxima (integers already, but for exact values) */
      bb[0] = (int16_t)otv_inst_round16(floor(b.x0)),
      bb[1] = (int16_t)otv_inst_round16(floor(b.y0));
      bb[2] = (int16_t)otv_inst_round16(ceil(b.x1)), bb[3] = (int16_t)otv_inst_round16(ceil(b.y1));
      in->lsb[g] = bb[0];
    }
    memcpy(in->bbox[g], bb, sizeof bb);
  }
  otv_cff_loc_free(&l);
  otv_cff_free(in->al, &oc);
  return st;
}

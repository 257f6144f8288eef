/*
 * cff.c - the 'CFF ' and CFF2 tables: header, INDEXes, Top/Font/Private DICTs (with vsindex and
 * blend in CFF2 DICTs), FDSelect formats 0/3/4, charset (for seac), the CFF2 VariationStore and
 * its per-location scalars, and the public outline entry points. The charstring interpreter is in
 * charstring.c.
 * Spec: Adobe TN 5176 (CFF), OpenType "CFF2 - Compact Font Format (CFF) Version 2".
 * Validated at open: header, INDEX headers and offset arrays, DICTs, FDSelect sizes, Private
 * DICTs and local Subrs INDEXes. Per glyph (on use): INDEX element offsets, FDSelect results.
 */
#include "cff.h"

/* ---- INDEX ---- */

static otv_status index_parse(otv_span tab, uint32_t tag, size_t off, bool cff2, otv_cff_index *ix,
                              const char *what, otv_error *err)
{
  memset(ix, 0, sizeof *ix);
  otv_rd r = otv_rd_init(tab, off);
  uint32_t count = cff2 ? otv_rd_u32(&r) : otv_rd_u16(&r);
  if (!otv_rd_ok(&r)) return OTV_FAIL(err, TRUNCATED, tag, off, "%s INDEX count", what);
  if (count == 0) {
    ix->bias = 107;
    ix->end = r.pos;
    return OTV_E_OK;
  }
  uint8_t off_size = otv_rd_u8(&r);
  if (!otv_rd_ok(&r)) return OTV_FAIL(err, TRUNCATED, tag, r.pos, "%s INDEX offSize", what);
  if (off_size < 1 || off_size > 4)
    return OTV_FAIL(err, BAD_VALUE, tag, r.pos - 1, "%s INDEX offSize %u", what, off_size);
  otv_span offs;
  if (!otv_span_offsets(tab, r.pos, count, off_size, &offs))
    return OTV_FAIL(err, TRUNCATED, tag, r.pos, "%s INDEX: %u offsets of %u bytes", what, count,
                    off_size);
  /* in range: offs checked just above */
  const uint8_t *q = offs.p + (size_t)count * off_size;
  uint32_t last = 0;
  for (unsigned i = 0; i < off_size; i++) last = last << 8 | q[i];
  size_t data_off = r.pos + offs.len;
  if (last < 1 || !otv_span_has(tab, data_off, (size_t)last - 1))
    return OTV_FAIL(err, BAD_OFFSET, tag, r.pos + (size_t)count * off_size,
                    "%s INDEX: last offset %u, %zu bytes left", what, last,
                    data_off <= tab.len ? tab.len - data_off : 0);
  ix->count = count;
  ix->bias = count < 1240 ? 107u : count < 33900 ? 1131u : 32768u; /* spec: subroutine bias */
  ix->off_size = off_size;
  ix->offsets = offs.p;
  ix->data = tab.p + data_off;
  ix->data_len = last - 1;
  ix->end = data_off + (last - 1);
  return OTV_E_OK;
}

/* ---- DICT ---- */

#define DICT_MAX_ARGS OTV_MAX_STACK_CFF2

typedef struct dict_rd {
  otv_span tab;    /* the table, for error offsets */
  size_t pos, end; /* table offsets of the DICT data */
  bool cff2;
  const otv_cff *c; /* for blend: region counts of the VariationStore */
  unsigned vsindex;
  double args[DICT_MAX_ARGS];
  unsigned n;
} dict_rd;

/* A real number (operand 30): BCD nibbles up to 0xf. Only an approximate value is needed (the
 * FontMatrix is the only real operand we read); the point is to skip it correctly. */
static bool dict_real(dict_rd *d, double *out)
{
  double mant = 0, scale = 1;
  int exp = 0, exp_sign = 1;
  bool neg = false, frac = false, in_exp = false;
  while (d->pos < d->end) {
    uint8_t b = d->tab.p[d->pos++]; /* in range: pos < end <= tab.len */
    for (int h = 0; h < 2; h++) {
      unsigned nib = h == 0 ? b >> 4 : b & 15u;
      if (nib <= 9) {
        if (in_exp) {
          if (exp < 1000) exp = exp * 10 + (int)nib;
        } else if (frac) {
          scale /= 10;
          mant += nib * scale;
        } else {
          mant = mant * 10 + nib;
        }
      } else if (nib == 0xa) {
        frac = true;
      } else if (nib == 0xb || nib == 0xc) {
        in_exp = true;
        exp_sign = nib == 0xb ? 1 : -1;
      } else if (nib == 0xe) {
        neg = true;
      } else if (nib == 0xf) {
        double v = mant * pow(10.0, exp_sign * exp);
        *out = neg ? -v : v;
        return true;
      } /* 0xd is reserved: ignored */
    }
  }
  return false;
}

/* Read operands up to the next operator. Returns the operator (0..21, 1200 + b1 for escaped),
 * -1 at the end of the DICT, -2 on an error (recorded). */
static int dict_next(dict_rd *d, uint32_t tag, otv_error *err)
{
  d->n = 0;
  while (d->pos < d->end) {
    size_t at = d->pos;
    /* in range: pos < end <= tab.len (end checked by the caller) */
    uint8_t b0 = d->tab.p[d->pos++];
    double v;
    /* 0..27 are operators (22..27 reserved in CFF, 25..27 in CFF2: returned and ignored, as
     * the spec asks readers to skip unknown operators); 28..30 and 32..254 operands */
    if (b0 <= 27) {
      int op = b0;
      if (b0 == 12) {
        if (d->pos >= d->end) {
          OTV_FAIL(err, TRUNCATED, tag, at, "DICT: escape at the end");
          return -2;
        }
        op = 1200 + d->tab.p[d->pos++];
      }
      if (d->cff2 && op == 23) { /* blend: n*(k+1)+1 operands -> n (the default values) */
        if (d->n < 1) {
          OTV_FAIL(err, BAD_VALUE, tag, at, "DICT blend: no operands");
          return -2;
        }
        double nv = d->args[--d->n];
        unsigned k = 0;
        if (d->c && d->c->ivs.present && d->vsindex < d->c->ivs.data_count)
          k = d->c->ivs.data[d->vsindex].region_index_count;
        if (!(nv >= 0 && nv <= (double)d->n) || (size_t)nv * (k + 1) > d->n) {
          OTV_FAIL(err, BAD_VALUE, tag, at, "DICT blend: %g values, %u operands", nv, d->n);
          return -2;
        }
        /* At the default location the deltas are dropped; DICT values we use (offsets) are
         * never blended, so the default is all we need. */
        unsigned nn = (unsigned)nv;
        unsigned base = d->n - nn * (k + 1);
        d->n = base + nn;
        continue;
      }
      if (d->cff2 && op == 22) { /* vsindex */
        if (d->n < 1 || !(d->args[0] >= 0 && d->args[0] < 65536)) {
          OTV_FAIL(err, BAD_VALUE, tag, at, "DICT vsindex");
          return -2;
        }
        d->vsindex = (unsigned)d->args[0];
      }
      return op;
    }
    if (b0 >= 32 && b0 <= 246) {
      v = (int)b0 - 139;
    } else if (b0 >= 247 && b0 <= 254) {
      if (d->pos >= d->end) goto trunc;
      int b1 = d->tab.p[d->pos++];
      v = b0 <= 250 ? ((int)b0 - 247) * 256 + b1 + 108 : -((int)b0 - 251) * 256 - b1 - 108;
    } else if (b0 == 28) {
      if (d->end - d->pos < 2) goto trunc;
      v = otv_peek_i16(d->tab.p + d->pos);
      d->pos += 2;
    } else if (b0 == 29) {
      if (d->end - d->pos < 4) goto trunc;
      v = otv_peek_i32(d->tab.p + d->pos);
      d->pos += 4;
    } else if (b0 == 30) {
      if (!dict_real(d, &v)) goto trunc;
    } else {
      OTV_FAIL(err, BAD_VALUE, tag, at, "DICT: reserved byte %u", b0);
      return -2;
    }
    if (d->n >= (d->cff2 ? DICT_MAX_ARGS : OTV_MAX_STACK_CFF)) {
      OTV_FAIL(err, LIMIT, tag, at, "DICT: more than %u operands", d->n);
      return -2;
    }
    d->args[d->n++] = v;
    continue;
  trunc:
    OTV_FAIL(err, TRUNCATED, tag, at, "DICT operand");
    return -2;
  }
  return -1;
}

static bool dict_init(dict_rd *d, otv_span tab, size_t off, size_t len, bool cff2, const otv_cff *c)
{
  d->tab = tab;
  d->pos = off;
  d->cff2 = cff2;
  d->c = c;
  d->vsindex = 0;
  d->n = 0;
  if (!otv_span_has(tab, off, len)) return false;
  d->end = off + len;
  return true;
}

/* An operand that must be a table offset (or size): integer in [0, tab.len]. */
static bool dict_offset(const dict_rd *d, unsigned i, size_t *out)
{
  if (i >= d->n) return false;
  double v = d->args[i];
  if (!(v >= 0 && v <= (double)d->tab.len) || v != floor(v)) return false;
  *out = (size_t)v;
  return true;
}

/* FontMatrix (12 7): six numbers. Returns false (error recorded) when malformed. */
static bool dict_matrix(const dict_rd *d, uint32_t tag, size_t at, double m[6], otv_error *err)
{
  if (d->n != 6) {
    OTV_FAIL(err, BAD_VALUE, tag, at, "FontMatrix with %u operands", d->n);
    return false;
  }
  for (unsigned i = 0; i < 6; i++) {
    if (!(fabs(d->args[i]) <= 1e9)) { /* also NaN */
      OTV_FAIL(err, BAD_VALUE, tag, at, "FontMatrix value %u out of range", i);
      return false;
    }
    m[i] = d->args[i];
  }
  return true;
}

/* Private DICT at [off, off+len): local Subrs and (CFF2) vsindex. */
static otv_status private_parse(otv_cff *c, size_t off, size_t len, otv_cff_fd *fd, otv_error *err)
{
  dict_rd *d = NULL;
  dict_rd local;
  d = &local;
  if (!dict_init(d, c->tab, off, len, c->cff2, c))
    return OTV_FAIL(err, BAD_OFFSET, c->tag, off, "Private DICT: %zu bytes at %zu", len, off);
  for (;;) {
    size_t at = d->pos;
    int op = dict_next(d, c->tag, err);
    if (op == -2) return err ? err->code : OTV_E_BAD_VALUE;
    if (op == -1) break;
    if (op == 19) { /* Subrs: offset from the start of the Private DICT */
      size_t so;
      if (!dict_offset(d, d->n - 1, &so) || so > c->tab.len - off)
        return OTV_FAIL(err, BAD_OFFSET, c->tag, at, "Private DICT Subrs offset");
      otv_status s = index_parse(c->tab, c->tag, off + so, c->cff2, &fd->subrs, "Subrs", err);
      if (s) return s;
    } else if (op == 22 && c->cff2) {
      if (c->ivs.present && d->vsindex >= c->ivs.data_count)
        return OTV_FAIL(err, BAD_VALUE, c->tag, at, "Private DICT vsindex %u, %u data", d->vsindex,
                        c->ivs.data_count);
      fd->vsindex = (uint16_t)d->vsindex;
    }
  }
  return OTV_E_OK;
}

/* A DICT whose Private operator (18: size offset) we follow. */
static otv_status font_dict_parse(otv_cff *c, otv_span dict, otv_cff_fd *fd, otv_error *err)
{
  dict_rd local, *d = &local;
  size_t off = (size_t)(dict.p - c->tab.p);
  dict_init(d, c->tab, off, dict.len, c->cff2, c); /* dict is inside tab */
  for (;;) {
    size_t at = d->pos;
    int op = dict_next(d, c->tag, err);
    if (op == -2) return err ? err->code : OTV_E_BAD_VALUE;
    if (op == -1) break;
    if (op == 18) {
      size_t psize, poff;
      if (d->n < 2 || !dict_offset(d, d->n - 2, &psize) || !dict_offset(d, d->n - 1, &poff))
        return OTV_FAIL(err, BAD_OFFSET, c->tag, at, "Private operator");
      otv_status s = private_parse(c, poff, psize, fd, err);
      if (s) return s;
    } else if (op == 1207 && !c->cff2) { /* FontMatrix of a CID-keyed font's Font DICT */
      if (!dict_matrix(d, c->tag, at, fd->matrix, err)) return err ? err->code : OTV_E_BAD_VALUE;
      fd->has_matrix = true;
    }
  }
  return OTV_E_OK;
}

/* ---- FDSelect ---- */

static otv_status fdselect_parse(otv_cff *c, size_t off, otv_error *err)
{
  otv_rd r = otv_rd_init(c->tab, off);
  uint8_t format = otv_rd_u8(&r);
  if (!otv_rd_ok(&r)) return OTV_FAIL(err, TRUNCATED, c->tag, off, "FDSelect format");
  size_t need;
  uint32_t nranges = 0;
  if (format == 0) {
    need = c->charstrings.count;
  } else if (format == 3) {
    nranges = otv_rd_u16(&r);
    need = (size_t)nranges * 3 + 2;
  } else if (format == 4 && c->cff2) {
    nranges = otv_rd_u32(&r);
    /* (6 bytes a range: more than the table holds is truncated, and cannot wrap size_t) */
    need = nranges > c->tab.len / 6 ? SIZE_MAX : (size_t)nranges * 6 + 4;
  } else {
    return OTV_FAIL(err, BAD_VALUE, c->tag, off, "FDSelect format %u", format);
  }
  if (!otv_rd_ok(&r)) return OTV_FAIL(err, TRUNCATED, c->tag, off + 1, "FDSelect ranges");
  if ((format == 3 || format == 4) && nranges == 0)
    return OTV_FAIL(err, BAD_VALUE, c->tag, off, "FDSelect format %u with no ranges", format);
  if (!otv_span_sub(c->tab, r.pos, need, &c->fdselect))
    return OTV_FAIL(err, TRUNCATED, c->tag, r.pos, "FDSelect format %u: %zu bytes", format, need);
  c->fdselect_format = format;
  c->fdselect_ranges = nranges;
  c->has_fdselect = true;
  return OTV_E_OK;
}

bool otv_cff_fd_of(const otv_cff *c, uint32_t gid, uint32_t *fd)
{
  uint32_t v = 0;
  if (!c->has_fdselect) {
    v = 0;
  } else if (c->fdselect_format == 0) {
    if (gid >= c->fdselect.len) return false;
    v = c->fdselect.p[gid]; /* in range: fdselect span = glyph count bytes */
  } else {
    /* Ranges sorted by first glyph; binary search for the last range with first <= gid. The
     * sentinel follows the last range. in range: fdselect span checked in fdselect_parse. */
    bool f4 = c->fdselect_format == 4;
    size_t rec = f4 ? 6 : 3;
    const uint8_t *p = c->fdselect.p;
    uint32_t lo = 0, hi = c->fdselect_ranges;
    uint32_t first0 = f4 ? otv_peek_u32(p) : otv_peek_u16(p);
    const uint8_t *sp = p + (size_t)c->fdselect_ranges * rec;
    uint32_t sentinel = f4 ? otv_peek_u32(sp) : otv_peek_u16(sp);
    if (gid < first0 || gid >= sentinel) return false;
    while (hi - lo > 1) {
      uint32_t mid = lo + (hi - lo) / 2;
      const uint8_t *q = p + (size_t)mid * rec;
      uint32_t first = f4 ? otv_peek_u32(q) : otv_peek_u16(q);
      if (first <= gid)
        lo = mid;
      else
        hi = mid;
    }
    const uint8_t *q = p + (size_t)lo * rec;
    v = f4 ? otv_peek_u16(q + 4) : q[2];
  }
  if (v >= c->fd_count) return false;
  *fd = v;
  return true;
}

/* ---- charset and Standard Encoding (seac) ---- */

/* Standard Encoding (CFF spec Appendix B): codes 32..126 are SIDs 1..95; the rest below. */
static const uint8_t std_enc_hi[][2] = {
    {161, 96},  {162, 97},  {163, 98},  {164, 99},  {165, 100}, {166, 101}, {167, 102}, {168, 103},
    {169, 104}, {170, 105}, {171, 106}, {172, 107}, {173, 108}, {174, 109}, {175, 110}, {177, 111},
    {178, 112}, {179, 113}, {180, 114}, {182, 115}, {183, 116}, {184, 117}, {185, 118}, {186, 119},
    {187, 120}, {188, 121}, {189, 122}, {191, 123}, {193, 124}, {194, 125}, {195, 126}, {196, 127},
    {197, 128}, {198, 129}, {199, 130}, {200, 131}, {202, 132}, {203, 133}, {205, 134}, {206, 135},
    {207, 136}, {208, 137}, {225, 138}, {227, 139}, {232, 140}, {233, 141}, {234, 142}, {235, 143},
    {241, 144}, {245, 145}, {248, 146}, {249, 147}, {250, 148}, {251, 149}};

static unsigned std_enc_sid(unsigned code)
{
  if (code >= 32 && code <= 126) return code - 31;
  for (size_t i = 0; i < sizeof std_enc_hi / sizeof std_enc_hi[0]; i++)
    if (std_enc_hi[i][0] == code) return std_enc_hi[i][1];
  return 0;
}

bool otv_cff_seac_glyph(const otv_cff *c, unsigned code, uint32_t *gid)
{
  unsigned sid = std_enc_sid(code);
  if (!sid || c->cid || c->cff2) return false;
  uint32_t n = c->charstrings.count;
  if (c->charset_format == 255) {
    /* predefined ISOAdobe charset: glyph i has SID i (up to 228) */
    if (sid < n && sid <= 228) {
      *gid = sid;
      return true;
    }
    return false;
  }
  /* in range: charset span checked (format 0: n - 1 u16; formats 1/2 walked with checks) */
  const uint8_t *p = c->charset.p;
  size_t len = c->charset.len;
  if (c->charset_format == 0) {
    for (uint32_t g = 1; g < n && (size_t)(g - 1) * 2 + 2 <= len; g++)
      if (otv_peek_u16(p + (size_t)(g - 1) * 2) == sid) {
        *gid = g;
        return true;
      }
    return false;
  }
  size_t rec = c->charset_format == 1 ? 3 : 4;
  uint32_t g = 1;
  for (size_t at = 0; g < n && at + rec <= len; at += rec) {
    unsigned first = otv_peek_u16(p + at);
    unsigned left = rec == 3 ? p[at + 2] : otv_peek_u16(p + at + 2);
    if (sid >= first && sid <= first + left && g + (sid - first) < n) {
      *gid = g + (sid - first);
      return true;
    }
    g += left + 1;
  }
  return false;
}

static void charset_parse(otv_cff *c, size_t off)
{
  /* charset is only used by seac; a bad one makes seac fail on use, not the font. */
  c->charset_format = 255;
  if (off <= 2) return; /* predefined: 0 ISOAdobe (1/2 Expert sets: seac needs StdEnc glyphs) */
  if (off >= c->tab.len) return;
  uint8_t format = c->tab.p[off];
  if (format > 2) return;
  c->charset_format = format;
  c->charset = otv_span_from(c->tab, off + 1);
}

/* ---- FontMatrix ---- */

/* The transform from charstring space to font units of one Font DICT. A matrix [a b c d e f]
 * maps (x, y) to (a x + c y + e, b x + d y + f), in ems; times unitsPerEm gives font units.
 * CID-keyed CFF: a Font DICT's FontMatrix maps glyph space to the CIDFont's space, which the
 * Top DICT's FontMatrix maps to ems (the PostScript CIDFont model), so the two concatenate (the
 * Font DICT's first). A CIDFont's own matrix is normally the identity and carries no scale, so
 * when the Top DICT states none, the Font DICT's is used alone (concatenating with the 0.001
 * default would shrink the glyphs a thousandfold). A Font DICT without FontMatrix uses the Top
 * DICT's. The usual result [1/upem 0 0 1/upem 0 0] is the identity in font units: skipped. */
static void fd_transform(const otv_cff *c, otv_cff_fd *fd, unsigned upem)
{
  const double *t = c->top_matrix;
  double m[6];
  if (c->cid && fd->has_matrix && c->top_has_matrix) {
    const double *g = fd->matrix;
    m[0] = t[0] * g[0] + t[2] * g[1];
    m[1] = t[1] * g[0] + t[3] * g[1];
    m[2] = t[0] * g[2] + t[2] * g[3];
    m[3] = t[1] * g[2] + t[3] * g[3];
    m[4] = t[0] * g[4] + t[2] * g[5] + t[4];
    m[5] = t[1] * g[4] + t[3] * g[5] + t[5];
  } else if (c->cid && fd->has_matrix) {
    memcpy(m, fd->matrix, sizeof m);
  } else {
    memcpy(m, t, sizeof m);
  }
  for (int i = 0; i < 6; i++) fd->xf[i] = m[i] * upem;
  const double eps = 1e-9;
  fd->xf_on = !(fabs(fd->xf[0] - 1) < eps && fabs(fd->xf[3] - 1) < eps && fabs(fd->xf[1]) < eps &&
                fabs(fd->xf[2]) < eps && fabs(fd->xf[4]) < eps && fabs(fd->xf[5]) < eps);
}

/* ---- Top DICT and table ---- */

typedef struct top_info {
  size_t charstrings, fdarray, fdselect, vstore, charset;
  size_t priv_size, priv_off;
  bool has_charstrings, has_fdarray, has_fdselect, has_vstore, has_private, cid;
  int charstring_type;
} top_info;

static otv_status top_parse(otv_cff *c, size_t off, size_t len, top_info *t, otv_error *err)
{
  dict_rd local, *d = &local;
  memset(t, 0, sizeof *t);
  t->charstring_type = 2;
  if (!dict_init(d, c->tab, off, len, c->cff2, NULL))
    return OTV_FAIL(err, TRUNCATED, c->tag, off, "Top DICT: %zu bytes", len);
  for (;;) {
    size_t at = d->pos;
    int op = dict_next(d, c->tag, err);
    if (op == -2) return err ? err->code : OTV_E_BAD_VALUE;
    if (op == -1) break;
    size_t *dst = NULL;
    bool *flag = NULL;
    switch (op) {
    case 17:
      dst = &t->charstrings;
      flag = &t->has_charstrings;
      break;
    case 1236:
      dst = &t->fdarray;
      flag = &t->has_fdarray;
      break;
    case 1237:
      dst = &t->fdselect;
      flag = &t->has_fdselect;
      break;
    case 24:
      if (c->cff2) {
        dst = &t->vstore;
        flag = &t->has_vstore;
      }
      break;
    case 15:
      if (!c->cff2) dst = &t->charset;
      break;
    case 1230:
      if (!c->cff2) t->cid = true;
      break;
    case 1207: /* FontMatrix */
      if (!dict_matrix(d, c->tag, at, c->top_matrix, err)) return err ? err->code : OTV_E_BAD_VALUE;
      c->top_has_matrix = true;
      break;
    case 1206:
      if (d->n >= 1) t->charstring_type = d->args[0] == 2 ? 2 : 0;
      break;
    case 18:
      if (!c->cff2) {
        if (d->n < 2 || !dict_offset(d, d->n - 2, &t->priv_size) ||
            !dict_offset(d, d->n - 1, &t->priv_off))
          return OTV_FAIL(err, BAD_OFFSET, c->tag, at, "Top DICT Private");
        t->has_private = true;
      }
      break;
    default: break;
    }
    if (dst) {
      if (!dict_offset(d, d->n - 1, dst) || d->n < 1)
        return OTV_FAIL(err, BAD_OFFSET, c->tag, at, "Top DICT operator %d offset", op);
      if (flag) *flag = true;
    }
  }
  return OTV_E_OK;
}

static otv_status cff_parse(otv_cff *c, uint16_t upem, uint16_t axis_count, const otv_alloc *al,
                            otv_error *err)
{
  otv_span tab = c->tab;
  uint32_t tag = c->tag;
  otv_rd r = otv_rd_init(tab, 0);
  uint8_t major = otv_rd_u8(&r);
  otv_rd_u8(&r);
  uint8_t hdr_size = otv_rd_u8(&r);
  uint16_t top_len = 0;
  if (c->cff2)
    top_len = otv_rd_u16(&r);
  else
    otv_rd_u8(&r); /* offSize */
  if (!otv_rd_ok(&r)) return OTV_FAIL_RD(err, tag, 0, &r, "header");
  if (major != (c->cff2 ? 2 : 1))
    return OTV_FAIL(err, UNSUPPORTED, tag, 0, "major version %u", major);
  if (hdr_size < r.pos) return OTV_FAIL(err, BAD_VALUE, tag, 2, "headerSize %u", hdr_size);

  top_info t;
  otv_status s;
  size_t gsubr_off;
  static const double def_matrix[6] = {0.001, 0, 0, 0.001, 0, 0}; /* CFF and CFF2 default */
  memcpy(c->top_matrix, def_matrix, sizeof def_matrix);
  if (c->cff2) {
    s = top_parse(c, hdr_size, top_len, &t, err);
    if (s) return s;
    gsubr_off = (size_t)hdr_size + top_len;
  } else {
    otv_cff_index names, tops, strings;
    if ((s = index_parse(tab, tag, hdr_size, false, &names, "Name", err))) return s;
    if ((s = index_parse(tab, tag, names.end, false, &tops, "Top DICT", err))) return s;
    if ((s = index_parse(tab, tag, tops.end, false, &strings, "String", err))) return s;
    otv_span top;
    if (!otv_cff_index_get(&tops, 0, &top))
      return OTV_FAIL(err, BAD_VALUE, tag, names.end, "Top DICT INDEX: no usable entry");
    if ((s = top_parse(c, (size_t)(top.p - tab.p), top.len, &t, err))) return s;
    gsubr_off = strings.end;
    if (t.charstring_type != 2)
      return OTV_FAIL(err, UNSUPPORTED, tag, (size_t)(top.p - tab.p), "CharstringType not 2");
  }
  if ((s = index_parse(tab, tag, gsubr_off, c->cff2, &c->gsubrs, "Global Subrs", err))) return s;
  if (!t.has_charstrings) return OTV_FAIL(err, BAD_VALUE, tag, 0, "Top DICT: no CharStrings");
  if ((s = index_parse(tab, tag, t.charstrings, c->cff2, &c->charstrings, "CharStrings", err)))
    return s;

  if (c->cff2 && t.has_vstore && t.vstore) {
    /* spec (CFF2 VariationStore): u16 length, then an ItemVariationStore */
    otv_rd vr = otv_rd_init(tab, t.vstore);
    uint16_t vlen = otv_rd_u16(&vr);
    otv_span vs;
    if (!otv_rd_ok(&vr) || !otv_span_sub(tab, t.vstore + 2, vlen, &vs))
      return OTV_FAIL(err, TRUNCATED, tag, t.vstore, "VariationStore length");
    if ((s = otv_ivs_parse(al, tab, tag, t.vstore + 2, axis_count, &c->ivs, err))) return s;
    c->vs_off = otv_mem_calloc(al, (size_t)c->ivs.data_count + 1, sizeof *c->vs_off);
    if (!c->vs_off) return OTV_FAIL(err, NOMEM, tag, t.vstore, "VariationStore");
    uint32_t acc = 0;
    for (unsigned i = 0; i < c->ivs.data_count; i++) {
      c->vs_off[i] = acc;
      acc += c->ivs.data[i].region_index_count;
    }
    c->vs_off[c->ivs.data_count] = acc;
  }

  c->cid = t.cid;
  if (t.has_fdarray && (c->cff2 || t.cid)) {
    otv_cff_index fda;
    if ((s = index_parse(tab, tag, t.fdarray, c->cff2, &fda, "FDArray", err))) return s;
    if (fda.count == 0) return OTV_FAIL(err, BAD_VALUE, tag, t.fdarray, "FDArray is empty");
    c->fds = otv_mem_calloc(al, fda.count, sizeof *c->fds);
    if (!c->fds) return OTV_FAIL(err, NOMEM, tag, t.fdarray, "FDArray");
    c->fd_count = fda.count;
    for (uint32_t i = 0; i < fda.count; i++) {
      otv_span dict;
      if (!otv_cff_index_get(&fda, i, &dict))
        return OTV_FAIL(err, BAD_OFFSET, tag, t.fdarray, "FDArray entry %u", i);
      if ((s = font_dict_parse(c, dict, &c->fds[i], err))) return s;
    }
    if (t.has_fdselect) {
      if ((s = fdselect_parse(c, t.fdselect, err))) return s;
    } else if (c->fd_count > 1) {
      return OTV_FAIL(err, BAD_VALUE, tag, t.fdarray, "%u Font DICTs and no FDSelect", c->fd_count);
    }
  } else {
    if (c->cff2) return OTV_FAIL(err, BAD_VALUE, tag, 0, "Top DICT: no FDArray");
    if (t.cid) return OTV_FAIL(err, BAD_VALUE, tag, 0, "CID-keyed font without FDArray");
    c->fds = otv_mem_calloc(al, 1, sizeof *c->fds);
    if (!c->fds) return OTV_FAIL(err, NOMEM, tag, 0, "Private DICT");
    c->fd_count = 1;
    if (t.has_private && t.priv_size) {
      if ((s = private_parse(c, t.priv_off, t.priv_size, &c->fds[0], err))) return s;
    }
    charset_parse(c, t.charset);
  }
  for (uint32_t i = 0; i < c->fd_count; i++) fd_transform(c, &c->fds[i], upem);
  return OTV_E_OK;
}

otv_status otv_cff_parse(otv_span tab, bool cff2, uint16_t units_per_em, uint16_t axis_count,
                         const otv_alloc *al, otv_cff *out, otv_error *err)
{
  otv_cff *c = out;
  memset(c, 0, sizeof *c);
  if (!tab.p) return OTV_E_OK;
  c->cff2 = cff2;
  c->tag = c->cff2 ? OTV_T_CFF2 : OTV_T_CFF;
  c->tab = tab;
  otv_status s = cff_parse(c, units_per_em, axis_count, al, err);
  if (s) {
    otv_cff_free(al, c);
    return s;
  }
  c->present = true;
  return OTV_E_OK;
}

void otv_cff_free(const otv_alloc *al, otv_cff *c)
{
  if (c->vs_off) otv_mem_free(al, c->vs_off, ((size_t)c->ivs.data_count + 1) * sizeof *c->vs_off);
  otv_ivs_free(al, &c->ivs);
  if (c->fds) otv_mem_free(al, c->fds, (size_t)c->fd_count * sizeof *c->fds);
  memset(c, 0, sizeof *c);
}

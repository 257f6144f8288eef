/*
 * cff.c - the 'CFF ' and CFF2 tables at open: header, the Top DICT, the Font DICTs and Private
 * DICTs (local Subrs, vsindex, FontMatrix), FDSelect formats 0/3/4, charset (for seac), the
 * CFF2 VariationStore and the Font DICT transforms. INDEXes and DICTs are decoded by cff_data.c;
 * the charstring interpreter and the per-location blend scalars are in charstring.c.
 * Spec: Adobe TN 5176 (CFF), OpenType "CFF2 - Compact Font Format (CFF) Version 2".
 * Validated at open: header, INDEX headers and offset arrays, DICTs, FDSelect sizes, Private
 * DICTs and local Subrs INDEXes. Per glyph (on use): INDEX element offsets, FDSelect results.
 */
#include "cff.h"

/* The status of a DICT record that failed (OTV_DICT_ERROR: recorded into err). */
static otv_status dict_failed(const otv_error *err) { return err ? err->code : OTV_E_BAD_VALUE; }

/* Private DICT at [off, off+len): local Subrs and (CFF2) vsindex. */
static otv_status private_parse(otv_cff *c, size_t off, size_t len, otv_cff_fd *fd, otv_error *err)
{
  otv_cff_dict local, *d = &local;
  if (!otv_cff_dict_init(d, c->tab, c->tag, off, len, c->cff2, &c->ivs))
    return OTV_FAIL(err, BAD_OFFSET, c->tag, off, "Private DICT: %zu bytes at %zu", len, off);
  fd->priv = otv_span_of(c->tab.p + off, len); /* in range: checked by otv_cff_dict_init */
  for (;;) {
    int op = otv_cff_dict_next(d, err);
    if (op == OTV_DICT_ERROR) return dict_failed(err);
    if (op == OTV_DICT_END) break;
    if (op == OTV_DICT_SUBRS) { /* offset from the start of the Private DICT */
      size_t so;
      if (!otv_cff_dict_offset(d, d->n - 1, &so) || so > c->tab.len - off)
        return OTV_FAIL(err, BAD_OFFSET, c->tag, d->at, "Private DICT Subrs offset");
      otv_status s =
          otv_cff_index_parse(c->tab, c->tag, off + so, c->cff2, &fd->subrs, "Subrs", err);
      if (s) return s;
    } else if (op == OTV_DICT_VSINDEX && c->cff2) {
      if (c->ivs.present && d->vsindex >= c->ivs.data_count)
        return OTV_FAIL(err, BAD_VALUE, c->tag, d->at, "Private DICT vsindex %u, %u data",
                        d->vsindex, c->ivs.data_count);
      fd->vsindex = (uint16_t)d->vsindex;
    }
  }
  return OTV_E_OK;
}

/* A Font DICT: the Private DICT it points to, and (CID-keyed CFF) its FontMatrix. */
static otv_status font_dict_parse(otv_cff *c, otv_span dict, otv_cff_fd *fd, otv_error *err)
{
  otv_cff_dict local, *d = &local;
  size_t off = (size_t)(dict.p - c->tab.p);
  otv_cff_dict_init(d, c->tab, c->tag, off, dict.len, c->cff2, &c->ivs); /* dict is inside tab */
  for (;;) {
    int op = otv_cff_dict_next(d, err);
    if (op == OTV_DICT_ERROR) return dict_failed(err);
    if (op == OTV_DICT_END) break;
    if (op == OTV_DICT_PRIVATE) {
      size_t psize, poff;
      if (d->n < 2 || !otv_cff_dict_offset(d, d->n - 2, &psize) ||
          !otv_cff_dict_offset(d, d->n - 1, &poff))
        return OTV_FAIL(err, BAD_OFFSET, c->tag, d->at, "Private operator");
      otv_status s = private_parse(c, poff, psize, fd, err);
      if (s) return s;
    } else if (op == OTV_DICT_FONTMATRIX && !c->cff2) { /* a CID-keyed font's Font DICT */
      if (!otv_cff_dict_matrix(d, fd->matrix, err)) return dict_failed(err);
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
  if (c->charset_format == OTV_CFF_CHARSET_PREDEFINED) {
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

bool otv_cff_charset_sids(const otv_cff *c, uint32_t *out, uint32_t n)
{
  for (uint32_t g = 0; g < n; g++) out[g] = g; /* predefined ISOAdobe: glyph i has SID i */
  if (c->charset_format == OTV_CFF_CHARSET_PREDEFINED || c->cff2) return true;
  otv_rd r = otv_rd_init(c->charset, 0);
  uint32_t g = 1;
  if (c->charset_format == 0) {
    while (g < n && otv_rd_ok(&r)) out[g++] = otv_rd_u16(&r);
  } else {
    while (g < n && otv_rd_ok(&r)) {
      uint32_t first = otv_rd_u16(&r);
      uint32_t left = c->charset_format == 1 ? otv_rd_u8(&r) : otv_rd_u16(&r);
      for (uint32_t i = 0; i <= left && g < n; i++) out[g++] = first + i;
    }
  }
  return otv_rd_ok(&r);
}

static void charset_parse(otv_cff *c, size_t off)
{
  /* a bad charset fails its users (seac, otv_cff_charset_sids) on use, not the font */
  c->charset_format = OTV_CFF_CHARSET_PREDEFINED;
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
  otv_cff_dict local, *d = &local;
  memset(t, 0, sizeof *t);
  t->charstring_type = OTV_CFF_CHARSTRING_TYPE2; /* the default */
  /* no VariationStore yet (the Top DICT names it): a CFF2 Top DICT has no blend */
  if (!otv_cff_dict_init(d, c->tab, c->tag, off, len, c->cff2, NULL))
    return OTV_FAIL(err, TRUNCATED, c->tag, off, "Top DICT: %zu bytes", len);
  for (;;) {
    int op = otv_cff_dict_next(d, err);
    if (op == OTV_DICT_ERROR) return dict_failed(err);
    if (op == OTV_DICT_END) break;
    size_t *dst = NULL;
    bool *flag = NULL;
    switch (op) {
    case OTV_DICT_CHARSTRINGS:
      dst = &t->charstrings;
      flag = &t->has_charstrings;
      break;
    case OTV_DICT_FDARRAY:
      dst = &t->fdarray;
      flag = &t->has_fdarray;
      break;
    case OTV_DICT_FDSELECT:
      dst = &t->fdselect;
      flag = &t->has_fdselect;
      break;
    case OTV_DICT_VSTORE:
      if (c->cff2) {
        dst = &t->vstore;
        flag = &t->has_vstore;
      }
      break;
    case OTV_DICT_CHARSET:
      if (!c->cff2) dst = &t->charset;
      break;
    case OTV_DICT_ROS:
      if (!c->cff2) t->cid = true;
      break;
    case OTV_DICT_FONTMATRIX:
      if (!otv_cff_dict_matrix(d, c->top_matrix, err)) return dict_failed(err);
      c->top_has_matrix = true;
      break;
    case OTV_DICT_CHARSTRINGTYPE:
      if (d->n >= 1)
        t->charstring_type = d->args[0] == OTV_CFF_CHARSTRING_TYPE2 ? OTV_CFF_CHARSTRING_TYPE2 : 0;
      break;
    case OTV_DICT_PRIVATE:
      if (!c->cff2) {
        if (d->n < 2 || !otv_cff_dict_offset(d, d->n - 2, &t->priv_size) ||
            !otv_cff_dict_offset(d, d->n - 1, &t->priv_off))
          return OTV_FAIL(err, BAD_OFFSET, c->tag, d->at, "Top DICT Private");
        t->has_private = true;
      }
      break;
    default: break;
    }
    if (dst) {
      if (!otv_cff_dict_offset(d, d->n - 1, dst) || d->n < 1)
        return OTV_FAIL(err, BAD_OFFSET, c->tag, d->at, "Top DICT operator %d offset", op);
      if (flag) *flag = true;
    }
  }
  return OTV_E_OK;
}

/* Decode ix's count + 1 offsets into o (0-based from ix->data): false when one element is not
 * one otv_cff_index_get would return (then the INDEX stays read from its bytes). */
static bool offs_decode(const otv_cff_index *ix, uint32_t *o)
{
  uint32_t prev = 1;
  for (uint32_t i = 0; i <= ix->count; i++) {
    /* in range: (count + 1) * off_size bytes checked at parse */
    const uint8_t *q = ix->offsets + (size_t)i * ix->off_size;
    uint32_t a;
    switch (ix->off_size) {
    case 1: a = q[0]; break;
    case 2: a = otv_peek_u16(q); break;
    case 3: a = otv_peek_u24(q); break;
    default: a = otv_peek_u32(q); break;
    }
    /* otv_cff_index_get's tests, for every element: 1 <= a <= b, b - 1 <= data_len */
    if (a < prev || a - 1 > ix->data_len) return false;
    o[i] = a - 1;
    prev = a;
  }
  return true;
}

/* The subroutine INDEXes' offsets decoded once (otv_cff.offs_block). An allocation failure
 * or a font past the bound only leaves them read from their bytes (the same results). */
static void subr_offs_build(otv_cff *c, const otv_alloc *al)
{
  size_t n = 0;
  bool fits = true;
  for (uint32_t i = 0; i <= c->fd_count && fits; i++) {
    const otv_cff_index *ix = i == c->fd_count ? &c->gsubrs : &c->fds[i].subrs;
    if (ix->count == 0) continue;
    if ((size_t)ix->count + 1 > OTV_CFF_MAX_OFFS - n)
      fits = false;
    else
      n += (size_t)ix->count + 1;
  }
  if (!fits || n == 0) return;
  uint32_t *o = otv_mem_calloc(al, n, sizeof *o);
  if (!o) return;
  c->offs_block = o;
  c->offs_n = n;
  for (uint32_t i = 0; i <= c->fd_count; i++) {
    const otv_cff_index *ix = i == c->fd_count ? &c->gsubrs : &c->fds[i].subrs;
    if (ix->count == 0) continue;
    if (offs_decode(ix, o)) {
      if (i == c->fd_count)
        c->gsubr_offs = o;
      else
        c->fds[i].subr_offs = o;
    }
    o += (size_t)ix->count + 1;
  }
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
  if (major != (c->cff2 ? OTV_CFF2_MAJOR : OTV_CFF_MAJOR))
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
    otv_cff_index names, tops, *strings = &c->strings;
    if ((s = otv_cff_index_parse(tab, tag, hdr_size, false, &names, "Name", err))) return s;
    if ((s = otv_cff_index_parse(tab, tag, names.end, false, &tops, "Top DICT", err))) return s;
    if ((s = otv_cff_index_parse(tab, tag, tops.end, false, strings, "String", err))) return s;
    otv_span top;
    if (!otv_cff_index_get(&tops, 0, &top))
      return OTV_FAIL(err, BAD_VALUE, tag, names.end, "Top DICT INDEX: no usable entry");
    if ((s = top_parse(c, (size_t)(top.p - tab.p), top.len, &t, err))) return s;
    gsubr_off = strings->end;
    if (t.charstring_type != OTV_CFF_CHARSTRING_TYPE2)
      return OTV_FAIL(err, UNSUPPORTED, tag, (size_t)(top.p - tab.p), "CharstringType not 2");
  }
  if ((s = otv_cff_index_parse(tab, tag, gsubr_off, c->cff2, &c->gsubrs, "Global Subrs", err)))
    return s;
  if (!t.has_charstrings) return OTV_FAIL(err, BAD_VALUE, tag, 0, "Top DICT: no CharStrings");
  if ((s = otv_cff_index_parse(tab, tag, t.charstrings, c->cff2, &c->charstrings, "CharStrings",
                               err)))
    return s;

  if (c->cff2 && t.has_vstore && t.vstore) {
    /* spec (CFF2 VariationStore): u16 length, then an ItemVariationStore */
    otv_rd vr = otv_rd_init(tab, t.vstore);
    uint16_t vlen = otv_rd_u16(&vr);
    otv_span vs;
    if (!otv_rd_ok(&vr) || !otv_span_sub(tab, t.vstore + 2, vlen, &vs))
      return OTV_FAIL(err, TRUNCATED, tag, t.vstore, "VariationStore length");
    if ((s = otv_ivs_parse(al, tab, tag, t.vstore + 2, axis_count, &c->ivs, err))) return s;
    c->vstore = vs;
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
    if ((s = otv_cff_index_parse(tab, tag, t.fdarray, c->cff2, &fda, "FDArray", err))) return s;
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
  }
  if (!c->cff2) charset_parse(c, t.charset); /* seac (name-keyed), glyph names and CIDs */
  for (uint32_t i = 0; i < c->fd_count; i++) fd_transform(c, &c->fds[i], upem);
  subr_offs_build(c, al);
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
  if (c->offs_block) otv_mem_free(al, c->offs_block, c->offs_n * sizeof *c->offs_block);
  memset(c, 0, sizeof *c);
}

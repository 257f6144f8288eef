/*
 * cff_data.c - INDEX and DICT of 'CFF ' and CFF2 (cff_data.h): the INDEX header and offset
 * array, and the DICT cursor with its real numbers and CFF2 vsindex/blend.
 * Spec: Adobe TN 5176 (CFF) sections 4 and 5 and Tables 3-5; OpenType "CFF2" ("INDEX data",
 * "DICT data", "Variation data operators").
 */
#include "cff_data.h"

/* ---- INDEX ---- */

otv_status otv_cff_index_parse(otv_span tab, uint32_t tag, size_t off, bool cff2, otv_cff_index *ix,
                               const char *what, otv_error *err)
{
  memset(ix, 0, sizeof *ix);
  otv_rd r = otv_rd_init(tab, off);
  uint32_t count = cff2 ? otv_rd_u32(&r) : otv_rd_u16(&r);
  if (!otv_rd_ok(&r)) return OTV_FAIL(err, TRUNCATED, tag, off, "%s INDEX count", what);
  if (count == 0) {
    ix->bias = OTV_CFF_BIAS_SMALL;
    ix->end = r.pos;
    return OTV_E_OK;
  }
  uint8_t off_size = otv_rd_u8(&r);
  if (!otv_rd_ok(&r)) return OTV_FAIL(err, TRUNCATED, tag, r.pos, "%s INDEX offSize", what);
  if (off_size < 1 || off_size > OTV_CFF_OFF_SIZE_MAX)
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
  ix->bias = count < OTV_CFF_BIAS_MEDIUM_FROM  ? OTV_CFF_BIAS_SMALL
             : count < OTV_CFF_BIAS_LARGE_FROM ? OTV_CFF_BIAS_MEDIUM
                                               : OTV_CFF_BIAS_LARGE;
  ix->off_size = off_size;
  ix->offsets = offs.p;
  ix->data = tab.p + data_off;
  ix->data_len = last - 1;
  ix->end = data_off + (last - 1);
  return OTV_E_OK;
}

/* ---- DICT ---- */

/* The powers of ten a double holds exactly (10^22 is the last). */
static const double exact_pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
#define REAL_MAX_DIGITS 19      /* significant digits kept: 10^19 - 1 < 2^64 */
#define REAL_MAX_EXP 100000     /* larger exponents (either part) are all 0 or infinity */
#define REAL_EXACT (1ull << 53) /* integers up to 2^53 are exact doubles */

/* A real number (after OTV_CFF_REAL): BCD nibbles up to OTV_CFF_NIB_END. The digits are
 * gathered into an integer and a decimal exponent; when the integer is below 2^53 and the
 * exponent within +-22 (every real in the fonts we know: FontMatrix 0.001 or 0.000488281,
 * BlueScale 0.039625 ...) the value is the integer times or divided by an exact power of ten,
 * which rounds once: the nearest double, what strtod gives, without depending on the C
 * locale's decimal point. Longer or larger ones are approximate (within a few units in the
 * last place; digits past 19 are dropped). Returns false (error recorded) when the DICT ends
 * first or on the reserved nibble. */
static bool dict_real(otv_cff_dict *d, size_t at, double *out, otv_error *err)
{
  uint64_t mant = 0;
  unsigned digits = 0;
  long e10 = 0, exp = 0, exp_sign = 1;
  bool neg = false, frac = false, in_exp = false;
  while (d->pos < d->end) {
    size_t here = d->pos;
    uint8_t b = d->tab.p[d->pos++]; /* in range: pos < end <= tab.len */
    for (int h = 0; h < 2; h++) {
      unsigned nib = h == 0 ? b >> 4 : b & 15u;
      if (nib <= 9) {
        if (in_exp) {
          if (exp < REAL_MAX_EXP) exp = exp * 10 + (long)nib;
        } else if (digits < REAL_MAX_DIGITS && (mant != 0 || nib != 0)) {
          mant = mant * 10 + nib;
          digits++;
          if (frac) e10--;
        } else if (mant == 0) {
          if (frac && e10 > -REAL_MAX_EXP) e10--; /* a leading zero of the fraction */
        } else if (!frac && e10 < REAL_MAX_EXP) {
          e10++; /* an integer digit past the 19 kept */
        }
      } else if (nib == OTV_CFF_NIB_POINT) {
        frac = true;
      } else if (nib == OTV_CFF_NIB_EXP || nib == OTV_CFF_NIB_NEGEXP) {
        in_exp = true;
        exp_sign = nib == OTV_CFF_NIB_EXP ? 1 : -1;
      } else if (nib == OTV_CFF_NIB_MINUS) {
        neg = true;
      } else if (nib == OTV_CFF_NIB_END) {
        long e = e10 + exp_sign * exp;
        double v;
        if (mant == 0)
          v = 0;
        else if (mant <= REAL_EXACT && e >= 0 && e <= 22)
          v = (double)mant * exact_pow10[e];
        else if (mant <= REAL_EXACT && e < 0 && e >= -22)
          v = (double)mant / exact_pow10[-e];
        else
          v = (double)mant * pow(10.0, (double)e);
        *out = neg ? -v : v;
        return true;
      } else {
        OTV_FAIL(err, BAD_VALUE, d->tag, here, "DICT real: reserved nibble");
        return false;
      }
    }
  }
  OTV_FAIL(err, TRUNCATED, d->tag, at, "DICT operand");
  return false;
}

/* blend (CFF2): n*(k+1)+1 operands -> n, k the region count of the current vsindex. */
static bool dict_blend(otv_cff_dict *d, size_t at, otv_error *err)
{
  if (d->n < 1) {
    OTV_FAIL(err, BAD_VALUE, d->tag, at, "DICT blend: no operands");
    return false;
  }
  double nv = d->args[--d->n];
  unsigned k = 0;
  if (d->ivs && d->ivs->present && d->vsindex < d->ivs->data_count)
    k = d->ivs->data[d->vsindex].region_index_count;
  if (!(nv >= 0 && nv <= (double)d->n) || (size_t)nv * (k + 1) > d->n) {
    OTV_FAIL(err, BAD_VALUE, d->tag, at, "DICT blend: %g values, %u operands", nv, d->n);
    return false;
  }
  unsigned nn = (unsigned)nv;
  unsigned base = d->n - nn * (k + 1);
  if (d->scalar) {
    /* default + the deltas times their region's scalar, in column order */
    const double *delta = d->args + base + nn;
    for (unsigned i = 0; i < nn; i++) {
      double val = d->args[base + i];
      for (unsigned j = 0; j < k; j++)
        val += delta[(size_t)i * k + j] * d->scalar(d->scalar_ud, d->vsindex, j);
      d->args[base + i] = val;
    }
  }
  d->n = base + nn;
  return true;
}

bool otv_cff_dict_init(otv_cff_dict *d, otv_span tab, uint32_t tag, size_t off, size_t len,
                       bool cff2, const otv_ivs *ivs)
{
  d->tab = tab;
  d->tag = tag;
  d->pos = d->at = off;
  d->end = off;
  d->cff2 = cff2;
  d->ivs = ivs;
  d->scalar = NULL;
  d->scalar_ud = NULL;
  d->vsindex = 0;
  d->n = 0;
  if (!otv_span_has(tab, off, len)) return false;
  d->end = off + len;
  return true;
}

int otv_cff_dict_next(otv_cff_dict *d, otv_error *err)
{
  d->n = 0;
  d->at = d->pos;
  const unsigned max = d->cff2 ? OTV_MAX_STACK_CFF2 : OTV_MAX_STACK_CFF;
  while (d->pos < d->end) {
    size_t at = d->pos;
    /* in range: pos < end <= tab.len (otv_cff_dict_init) */
    unsigned b0 = d->tab.p[d->pos++];
    double v;
    if (b0 <= OTV_DICT_OP_LAST) {
      int op = (int)b0;
      if (b0 == OTV_CFF_ESCAPE) {
        if (d->pos >= d->end) {
          OTV_FAIL(err, TRUNCATED, d->tag, at, "DICT: escape at the end");
          return OTV_DICT_ERROR;
        }
        op = OTV_CFF_ESC(d->tab.p[d->pos++]);
      }
      if (d->cff2 && op == OTV_DICT_BLEND) { /* applied here: its results stay operands */
        if (!dict_blend(d, at, err)) return OTV_DICT_ERROR;
        continue;
      }
      if (d->cff2 && op == OTV_DICT_VSINDEX) {
        if (d->n < 1 || !(d->args[0] >= 0 && d->args[0] < 65536)) {
          OTV_FAIL(err, BAD_VALUE, d->tag, at, "DICT vsindex");
          return OTV_DICT_ERROR;
        }
        d->vsindex = (unsigned)d->args[0];
      }
      return op;
    }
    if (otv_cff_is_int1(b0)) {
      v = otv_cff_int1(b0);
    } else if (otv_cff_is_int2(b0)) {
      if (d->pos >= d->end) goto trunc;
      v = otv_cff_int2(b0, d->tab.p[d->pos++]);
    } else if (b0 == OTV_CFF_SHORTINT) {
      if (d->end - d->pos < 2) goto trunc;
      v = otv_peek_i16(d->tab.p + d->pos);
      d->pos += 2;
    } else if (b0 == OTV_CFF_LONGINT) {
      if (d->end - d->pos < 4) goto trunc;
      v = otv_peek_i32(d->tab.p + d->pos);
      d->pos += 4;
    } else if (b0 == OTV_CFF_REAL) {
      if (!dict_real(d, at, &v, err)) return OTV_DICT_ERROR;
    } else {
      OTV_FAIL(err, BAD_VALUE, d->tag, at, "DICT: reserved byte %u", b0);
      return OTV_DICT_ERROR;
    }
    if (d->n >= max) {
      OTV_FAIL(err, LIMIT, d->tag, at, "DICT: more than %u operands", d->n);
      return OTV_DICT_ERROR;
    }
    d->args[d->n++] = v;
    continue;
  trunc:
    OTV_FAIL(err, TRUNCATED, d->tag, at, "DICT operand");
    return OTV_DICT_ERROR;
  }
  return OTV_DICT_END;
}

bool otv_cff_dict_offset(const otv_cff_dict *d, unsigned i, size_t *out)
{
  if (i >= d->n) return false;
  double v = d->args[i];
  if (!(v >= 0 && v <= (double)d->tab.len) || v != floor(v)) return false;
  *out = (size_t)v;
  return true;
}

bool otv_cff_dict_matrix(const otv_cff_dict *d, double m[6], otv_error *err)
{
  if (d->n != 6) {
    OTV_FAIL(err, BAD_VALUE, d->tag, d->at, "FontMatrix with %u operands", d->n);
    return false;
  }
  for (unsigned i = 0; i < 6; i++) {
    if (!(fabs(d->args[i]) <= 1e9)) { /* also NaN */
      OTV_FAIL(err, BAD_VALUE, d->tag, d->at, "FontMatrix value %u out of range", i);
      return false;
    }
    m[i] = d->args[i];
  }
  return true;
}

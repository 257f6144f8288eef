/*
 * instance_cff_partial.c - the charstrings of a partial instance of a CFF2 font.
 *
 * Spec: CFF2 ("CharString operators": blend, vsindex, hintmask, callsubr/callgsubr and their
 * bias; "Number encoding"). Each glyph's charstring is copied with its subroutines inlined (so
 * that a blend's operands, which may be pushed partly in a subroutine, are in one stream), and
 * every blend is rewritten for the kept axes: with regions of column j of the current
 * ItemVariationData,
 *   - a region whose pinned factor is 0 loses its deltas;
 *   - a region with no kept axis is folded: default += delta x factor, delta = 0;
 *   - any other region keeps its delta x factor.
 * The column count of every ItemVariationData stays (the store is rewritten in place), so
 * operand counts do not change; a blend left without a delta is replaced by its defaults. Values
 * that are not integers are written as 16.16 fixed numbers (1/65536 unit), so the outline is
 * exact to that. A charstring that starts in a Font DICT with a vsindex gets an explicit one
 * (the Private DICTs are written without it). Hints are copied (stems counted for hintmask).
 */
#include "instance.h"

#define CS_STACK 513
#define CS_DEPTH 10

typedef struct csw {
  otv_inst *in;
  const otv_cff *c;
  otv_buf *out;
  const int8_t *mode;   /* per region: -1 dead, 0 folded, 1 scaled */
  const double *factor; /* per region */
  double v[CS_STACK];
  size_t at[CS_STACK];  /* output offset of a literal operand, SIZE_MAX: a blend result */
  unsigned n;
  unsigned stems;
  unsigned vsindex;
  uint32_t gid;
} csw;

static void put_num(otv_buf *b, double v)
{
  double r = floor(v + 0.5);
  if (fabs(v - r) < 1e-9 && r >= -32768 && r <= 32767) {
    long i = (long)r;
    if (i >= -107 && i <= 107) otv_buf_u8(b, (uint8_t)(i + 139));
    else if (i >= 108 && i <= 1131) {
      otv_buf_u8(b, (uint8_t)(((i - 108) >> 8) + 247));
      otv_buf_u8(b, (uint8_t)((i - 108) & 0xFF));
    } else if (i >= -1131 && i <= -108) {
      otv_buf_u8(b, (uint8_t)(((-i - 108) >> 8) + 251));
      otv_buf_u8(b, (uint8_t)((-i - 108) & 0xFF));
    } else {
      otv_buf_u8(b, 28);
      otv_buf_u16(b, (uint16_t)(int16_t)i);
    }
    return;
  }
  double f = floor(v * 65536.0 + 0.5);
  if (f > 2147483647.0) f = 2147483647.0;
  if (f < -2147483648.0) f = -2147483648.0;
  otv_buf_u8(b, 255);
  otv_buf_u32(b, (uint32_t)(int32_t)f);
}

static unsigned regions_of(const otv_cff *c, unsigned vsindex)
{
  return vsindex < c->ivs.data_count ? c->ivs.data[vsindex].region_index_count : 0;
}

static otv_status blend(csw *w, size_t at)
{
  otv_inst *in = w->in;
  if (!w->n || w->at[w->n - 1] == SIZE_MAX)
    return OTV_FAIL(in->err, UNSUPPORTED, OTV_T_CFF2, at, "glyph %u: blend count not a number", w->gid);
  double cv = w->v[w->n - 1];
  if (cv < 0 || cv != floor(cv)) return OTV_FAIL(in->err, BAD_VALUE, OTV_T_CFF2, at, "glyph %u: blend count", w->gid);
  unsigned cnt = (unsigned)cv, k = regions_of(w->c, w->vsindex);
  size_t need = (size_t)cnt * (k + 1) + 1;
  if (need > w->n) return OTV_FAIL(in->err, BAD_VALUE, OTV_T_CFF2, at, "glyph %u: blend operands", w->gid);
  unsigned base = w->n - (unsigned)need;
  for (unsigned i = base; i < w->n; i++)
    if (w->at[i] == SIZE_MAX)
      return OTV_FAIL(in->err, UNSUPPORTED, OTV_T_CFF2, at,
                      "glyph %u: a blend operand is the result of another blend", w->gid);
  const otv_ivd *v = k ? &w->c->ivs.data[w->vsindex] : NULL;
  bool any = false;
  double *d = w->v + base, *dl = w->v + base + cnt;
  for (unsigned j = 0; j < k; j++) {
    unsigned r = otv_peek_u16(v->region_indexes + 2 * j); /* in range: parsed */
    int m = r < w->c->ivs.region_count ? w->mode[r] : -1;
    double fac = r < w->c->ivs.region_count ? w->factor[r] : 0;
    for (unsigned i = 0; i < cnt; i++) {
      double *x = &dl[(size_t)i * k + j];
      if (m == 0) d[i] += *x * fac;
      *x = m == 1 ? *x * fac : 0;
      if (*x != 0) any = true;
    }
  }
  w->out->len = w->at[base]; /* the operands are written again */
  if (!any) {
    for (unsigned i = 0; i < cnt; i++) {
      w->at[base + i] = w->out->len;
      put_num(w->out, d[i]);
    }
  } else {
    for (size_t i = 0; i < (size_t)cnt * (k + 1); i++) put_num(w->out, w->v[base + i]);
    put_num(w->out, cnt);
    otv_buf_u8(w->out, 16);
    for (unsigned i = 0; i < cnt; i++) w->at[base + i] = SIZE_MAX;
  }
  w->n = base + cnt;
  return OTV_E_OK;
}

static otv_status walk(csw *w, otv_span s, size_t s_off, uint32_t fd, unsigned depth)
{
  otv_inst *in = w->in;
  const otv_cff *c = w->c;
  if (depth > CS_DEPTH)
    return OTV_FAIL(in->err, LIMIT, OTV_T_CFF2, s_off, "glyph %u: subroutines nested deeper than %u", w->gid, CS_DEPTH);
  otv_rd r = otv_rd_init(s, 0);
  while (r.pos < s.len) {
    size_t here = r.pos;
    unsigned b0 = otv_rd_u8(&r);
    double val;
    bool num = true;
    if (b0 >= 32 && b0 <= 246) val = (int)b0 - 139;
    else if (b0 >= 247 && b0 <= 250) val = ((int)b0 - 247) * 256 + otv_rd_u8(&r) + 108;
    else if (b0 >= 251 && b0 <= 254) val = -((int)b0 - 251) * 256 - otv_rd_u8(&r) - 108;
    else if (b0 == 28) val = otv_rd_i16(&r);
    else if (b0 == 255) val = (int32_t)otv_rd_u32(&r) / 65536.0;
    else num = false, val = 0;
    if (!otv_rd_ok(&r)) return OTV_FAIL(in->err, TRUNCATED, OTV_T_CFF2, s_off + here, "glyph %u: charstring", w->gid);
    if (num) {
      if (w->n == CS_STACK) return OTV_FAIL(in->err, LIMIT, OTV_T_CFF2, s_off + here, "glyph %u: more than %u operands", w->gid, CS_STACK);
      w->v[w->n] = val;
      w->at[w->n++] = w->out->len;
      otv_buf_bytes(w->out, s.p + here, r.pos - here);
      continue;
    }
    unsigned op = b0;
    if (b0 == 12) {
      op = 1200 + otv_rd_u8(&r);
      if (!otv_rd_ok(&r)) return OTV_FAIL(in->err, TRUNCATED, OTV_T_CFF2, s_off + here, "glyph %u: charstring", w->gid);
    }
    switch (op) {
    case 10: /* callsubr */
    case 29: { /* callgsubr */
      if (!w->n || w->at[w->n - 1] == SIZE_MAX)
        return OTV_FAIL(in->err, UNSUPPORTED, OTV_T_CFF2, s_off + here, "glyph %u: subroutine number not a number", w->gid);
      const otv_cff_index *ix = op == 10 ? &c->fds[fd].subrs : &c->gsubrs;
      double sv = w->v[--w->n] + ix->bias;
      w->out->len = w->at[w->n];
      otv_span sub;
      if (sv < 0 || sv != floor(sv) || !otv_cff_index_get(ix, (uint32_t)sv, &sub))
        return OTV_FAIL(in->err, BAD_VALUE, OTV_T_CFF2, s_off + here, "glyph %u: subroutine %g", w->gid, sv);
      otv_status st = walk(w, sub, (size_t)(sub.p - c->tab.p), fd, depth + 1);
      if (st) return st;
      break;
    }
    case 11: /* return: CFF2 has none, but a subroutine ending with it ends there */
      return OTV_E_OK;
    case 15: /* vsindex */
      if (!w->n || w->at[w->n - 1] == SIZE_MAX || w->v[w->n - 1] < 0 ||
          w->v[w->n - 1] >= c->ivs.data_count)
        return OTV_FAIL(in->err, BAD_VALUE, OTV_T_CFF2, s_off + here, "glyph %u: vsindex", w->gid);
      w->vsindex = (unsigned)w->v[w->n - 1];
      otv_buf_u8(w->out, 15);
      w->n = 0;
      break;
    case 16: { /* blend */
      otv_status st = blend(w, s_off + here);
      if (st) return st;
      break;
    }
    case 1: case 3: case 18: case 23: /* stems */
      w->stems += w->n / 2;
      w->n = 0;
      otv_buf_u8(w->out, (uint8_t)op);
      break;
    case 19: case 20: { /* hintmask, cntrmask: an implicit vstem first, then the mask */
      w->stems += w->n / 2;
      w->n = 0;
      otv_buf_u8(w->out, (uint8_t)op);
      size_t mlen = (w->stems + 7) / 8;
      const uint8_t *m = otv_rd_take(&r, mlen);
      if (!m && mlen) return OTV_FAIL(in->err, TRUNCATED, OTV_T_CFF2, s_off + here, "glyph %u: hint mask", w->gid);
      otv_buf_bytes(w->out, m, mlen);
      break;
    }
    case 4: case 5: case 6: case 7: case 8: case 21: case 22: case 24: case 25: case 26:
    case 27: case 30: case 31: case 1234: case 1235: case 1236: case 1237:
      w->n = 0;
      if (op >= 1200) {
        otv_buf_u8(w->out, 12);
        otv_buf_u8(w->out, (uint8_t)(op - 1200));
      } else {
        otv_buf_u8(w->out, (uint8_t)op);
      }
      break;
    default:
      return OTV_FAIL(in->err, BAD_VALUE, OTV_T_CFF2, s_off + here, "glyph %u: charstring operator %u", w->gid, op);
    }
  }
  return OTV_E_OK;
}

otv_status otv_part_cff_modes(otv_inst *in, int8_t **mode, double **factor)
{
  const otv_ivs *ivs = &in->face->cff.ivs;
  unsigned rc = ivs->region_count, sac = ivs->axis_count;
  *mode = otv_mem_alloc(in->al, rc ? rc : 1);
  *factor = otv_mem_alloc(in->al, (rc ? rc : 1) * sizeof **factor);
  if (!*mode || !*factor) return OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "blend regions");
  int16_t s[OTV_MAX_AXES], p[OTV_MAX_AXES], e[OTV_MAX_AXES];
  double sc[OTV_MAX_AXES];
  for (unsigned r = 0; r < rc; r++) {
    const uint8_t *rg = ivs->regions + (size_t)r * sac * 6;
    for (unsigned a = 0; a < in->axis_count; a++) {
      /* in range: regions checked in otv_ivs_parse */
      s[a] = a < sac ? otv_peek_i16(rg + 6 * a) : 0;
      p[a] = a < sac ? otv_peek_i16(rg + 6 * a + 2) : 0;
      e[a] = a < sac ? otv_peek_i16(rg + 6 * a + 4) : 0;
    }
    bool kept;
    int k = otv_part_region_scalars(in, s, p, e, sc, &kept);
    (*mode)[r] = (int8_t)(k < 0 ? -1 : kept ? 1 : 0);
    (*factor)[r] = k < 0 ? 0 : otv_inst_scale(1.0, sc, k);
  }
  return OTV_E_OK;
}

otv_status otv_part_cff_glyph(otv_inst *in, uint32_t gid, const int8_t *mode,
                              const double *factor, otv_buf *out)
{
  const otv_cff *c = &in->face->cff;
  uint32_t fd = 0;
  otv_span s;
  if (!otv_cff_fd_of(c, gid, &fd) || !otv_cff_index_get(&c->charstrings, gid, &s))
    return OTV_FAIL(in->err, BAD_VALUE, OTV_T_CFF2, 0, "glyph %u: charstring or Font DICT", gid);
  csw *w = otv_mem_alloc(in->al, sizeof *w);
  if (!w) return OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "charstring stack");
  memset(w, 0, offsetof(csw, v));
  w->in = in, w->c = c, w->out = out, w->mode = mode, w->factor = factor, w->gid = gid;
  w->n = 0, w->stems = 0;
  w->vsindex = c->fds[fd].vsindex;
  if (w->vsindex) { /* the Private DICT's vsindex, which the instance's Private DICT drops */
    put_num(out, w->vsindex);
    otv_buf_u8(out, 15);
  }
  otv_status st = walk(w, s, (size_t)(s.p - c->tab.p), fd, 0);
  otv_mem_free(in->al, w, sizeof *w);
  if (!st && out->failed) st = OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "charstrings");
  return st;
}

/*
 * instance_cff.c - a static CFF2 table (no VariationStore) from a CFF2 variable font, and the
 * hmtx/vmtx that go with it.
 *
 * Spec: CFF2 ("Header", "Top DICT", "FDArray", "Private DICT", "blend", "vsindex", charstring
 * number encoding), OpenType "CFF2 table" notes. Output choice: CFF2 without a VariationStore
 * (see docs/instance.md): the smallest change from the source that every CFF2-capable renderer
 * reads, and what the font's own tools expect; CFF2 is supported by every current renderer
 * (FreeType, HarfBuzz, DirectWrite, CoreText), while a CFF 1 conversion would need glyph names
 * or a CID-keyed rewrite.
 *
 * Each glyph's outline is taken at the location from otvar's own charstring interpreter
 * (blends resolved, unrounded; subroutines flattened), every absolute point is rounded with
 * floor(x + 0.5) and the contours are re-encoded as rmoveto / rlineto / rrcurveto of the
 * differences of rounded points. Rounding the points rather than each blended operand (the
 * relative moves) keeps every point within 0.5 unit of the true outline (rounded operands let
 * errors add up along a contour), and is what hb-subset does. Hints are not carried over (the
 * interpreter does not keep them). Each
 * Private DICT is copied with its blends resolved and its vsindex and Subrs removed.
 * Advances come from HVAR (rounded with floor(x + 0.5)); left side bearings and the head/hhea
 * extents from the outlines' control boxes (floor of minima, ceiling of maxima).
 */
#include "instance/store.h"
#include "instance/inst.h"

#include <stdio.h>
#include <stdlib.h>

/* ---- DICT and INDEX reading ---- */

typedef struct cff_index {
  uint32_t count;
  unsigned off_size;
  size_t offsets; /* position of the offset array */
  size_t data;    /* position of byte "1" of the data */
  size_t end;
} cff_index;

static bool read_index(otv_span t, size_t at, cff_index *ix)
{
  otv_rd r = otv_rd_init(t, at);
  ix->count = otv_rd_u32(&r);
  if (!otv_rd_ok(&r)) return false;
  if (!ix->count) {
    ix->end = r.pos;
    ix->off_size = 0;
    return true;
  }
  ix->off_size = otv_rd_u8(&r);
  if (!otv_rd_ok(&r) || ix->off_size < 1 || ix->off_size > 4) return false;
  ix->offsets = r.pos;
  otv_span sp;
  if (!otv_span_offsets(t, r.pos, ix->count, ix->off_size, &sp)) return false;
  ix->data = r.pos + ((size_t)ix->count + 1) * ix->off_size - 1;
  size_t last = 0;
  for (unsigned k = 0; k < ix->off_size; k++)
    last = last << 8 | sp.p[(size_t)ix->count * ix->off_size + k];
  if (last > t.len - ix->data) return false; /* (ix->data <= t.len: within sp) */
  ix->end = ix->data + last;
  return true;
}

static bool index_item(otv_span t, const cff_index *ix, uint32_t i, otv_span *out)
{
  if (i >= ix->count) return false;
  size_t a = 0, b = 0;
  /* in range: the offset array was checked in read_index */
  for (unsigned k = 0; k < ix->off_size; k++) {
    a = a << 8 | t.p[ix->offsets + (size_t)i * ix->off_size + k];
    b = b << 8 | t.p[ix->offsets + ((size_t)i + 1) * ix->off_size + k];
  }
  if (a < 1 || b < a) return false;
  return otv_span_sub(t, ix->data + a, b - a, out);
}

/* A DICT operand; *is_op set for an operator (value = op, 12 x as 1200 + x). */
static bool dict_token(otv_rd *r, double *v, bool *is_op)
{
  unsigned b0 = otv_rd_u8(r);
  *is_op = false;
  if (!otv_rd_ok(r)) return false;
  if (b0 <= 24) {
    *is_op = true;
    *v = b0 == 12 ? 1200.0 + otv_rd_u8(r) : (double)b0;
  } else if (b0 == 28) {
    *v = otv_rd_i16(r);
  } else if (b0 == 29) {
    *v = otv_rd_i32(r);
  } else if (b0 == 30) {
    char buf[64];
    size_t k = 0;
    for (;;) {
      unsigned byte = otv_rd_u8(r);
      if (!otv_rd_ok(r)) return false;
      unsigned nib[2] = {byte >> 4, byte & 15};
      bool end = false;
      for (int q = 0; q < 2 && !end; q++) {
        unsigned n = nib[q];
        const char *add = n <= 9     ? NULL
                          : n == 0xa ? "."
                          : n == 0xb ? "E"
                          : n == 0xc ? "E-"
                          : n == 0xe ? "-"
                                     : "";
        if (n == 0xf)
          end = true;
        else if (n == 0xd)
          return false;
        else if (k + 3 < sizeof buf) {
          if (!add)
            buf[k++] = (char)('0' + n);
          else
            for (const char *c = add; *c; c++) buf[k++] = *c;
        }
      }
      if (end) break;
    }
    buf[k] = 0;
    *v = strtod(buf, NULL);
  } else if (b0 >= 32 && b0 <= 246) {
    *v = (double)b0 - 139;
  } else if (b0 >= 247 && b0 <= 250) {
    *v = (double)((b0 - 247) * 256 + otv_rd_u8(r) + 108);
  } else if (b0 >= 251 && b0 <= 254) {
    *v = -(double)((b0 - 251) * 256 + otv_rd_u8(r) + 108);
  } else {
    return false;
  }
  return otv_rd_ok(r);
}

/* Find an operator's first operand(s) in a DICT (no blends expected in the Top/Font DICT). */
static bool dict_find(otv_span d, unsigned op, double *a, double *b)
{
  otv_rd r = otv_rd_init(d, 0);
  double st[48];
  unsigned n = 0;
  while (r.pos < d.len) {
    double v;
    bool is_op;
    if (!dict_token(&r, &v, &is_op)) return false;
    if (!is_op) {
      if (n < 48) st[n++] = v;
      continue;
    }
    if ((unsigned)v == op) {
      if (n < 1) return false;
      *a = st[0];
      if (b) {
        if (n < 2) return false;
        *b = st[1];
      }
      return true;
    }
    n = 0;
  }
  return false;
}

/* ---- writing ---- */

static void put_dict_num(otv_buf *b, double v)
{
  if (v == floor(v) && v >= -2147483648.0 && v <= 2147483647.0) {
    long i = (long)v;
    if (i >= -107 && i <= 107)
      otv_buf_u8(b, (uint8_t)(i + 139));
    else if (i >= 108 && i <= 1131) {
      otv_buf_u8(b, (uint8_t)(((i - 108) >> 8) + 247));
      otv_buf_u8(b, (uint8_t)((i - 108) & 0xFF));
    } else if (i >= -1131 && i <= -108) {
      otv_buf_u8(b, (uint8_t)(((-i - 108) >> 8) + 251));
      otv_buf_u8(b, (uint8_t)((-i - 108) & 0xFF));
    } else if (i >= -32768 && i <= 32767) {
      otv_buf_u8(b, 28);
      otv_buf_u16(b, (uint16_t)(int16_t)i);
    } else {
      otv_buf_u8(b, 29);
      otv_buf_u32(b, (uint32_t)(int32_t)i);
    }
    return;
  }
  /* real: nibbles of "%.8g" */
  char s[64];
  snprintf(s, sizeof s, "%.8g", v);
  uint8_t nib[80];
  size_t k = 0;
  for (const char *c = s; *c && k < 76; c++) {
    if (*c >= '0' && *c <= '9')
      nib[k++] = (uint8_t)(*c - '0');
    else if (*c == '.')
      nib[k++] = 0xa;
    else if (*c == '-')
      nib[k++] = 0xe;
    else if (*c == 'e' || *c == 'E') {
      if (c[1] == '-')
        nib[k++] = 0xc, c++;
      else {
        nib[k++] = 0xb;
        if (c[1] == '+') c++;
      }
    }
  }
  nib[k++] = 0xf;
  if (k & 1) nib[k++] = 0xf;
  otv_buf_u8(b, 30);
  for (size_t i = 0; i < k; i += 2) otv_buf_u8(b, (uint8_t)(nib[i] << 4 | nib[i + 1]));
}

static void put_op(otv_buf *b, unsigned op)
{
  if (op >= 1200) {
    otv_buf_u8(b, 12);
    otv_buf_u8(b, (uint8_t)(op - 1200));
  } else {
    otv_buf_u8(b, (uint8_t)op);
  }
}

/* The operand that moves *cur to target. Two int16 coordinates can be up to 65535 apart, beyond
 * an operand: the step is then clamped and *cur follows what was written, so the later operands
 * stay exact (only a glyph spanning more than the int16 range is distorted). */
static uint8_t *put_cs_rel(uint8_t *w, long target, long *cur)
{
  long d = target - *cur;
  d = d < -32768 ? -32768 : d > 32767 ? 32767 : d;
  *cur += d;
  return otv_cs_put_int(w, d);
}

/* A static charstring from rounded absolute points: rmoveto / rlineto / rrcurveto of their
 * differences, appended to cs. False when cs could not grow. */
static bool encode_points(otv_buf *cs, const otv_point *pts, const uint8_t *fl,
                          const uint16_t *ends, unsigned point_count, unsigned contour_count)
{
  /* a line: 2 numbers (at most 3 bytes each) and an operator per point; a curve: 19 bytes for
   * 3 points, or for 1 point once per contour (when it closes on the start point); a move per
   * contour (the bound below is loose) */
  if (!otv_buf_reserve(cs, (size_t)point_count * 11 + (size_t)contour_count * 48 + 16))
    return false;
  uint8_t *w = cs->p + cs->len;
  long cx = 0, cy = 0;
  unsigned start = 0;
  for (unsigned c = 0; c < contour_count; c++) {
    unsigned end = ends[c];
    if (end < start || end >= point_count) break;
    w = put_cs_rel(w, (long)pts[start].x, &cx);
    w = put_cs_rel(w, (long)pts[start].y, &cy);
    *w++ = 21; /* rmoveto */
    unsigned i = start + 1;
    while (i <= end) {
      if (fl[i] & OTV_POINT_CUBIC) {
        /* two control points then the end point (the contour start when it was dropped) */
        otv_point c1 = pts[i], c2 = i + 1 <= end ? pts[i + 1] : pts[start];
        otv_point e = i + 2 <= end ? pts[i + 2] : pts[start];
        w = put_cs_rel(w, (long)c1.x, &cx), w = put_cs_rel(w, (long)c1.y, &cy);
        w = put_cs_rel(w, (long)c2.x, &cx), w = put_cs_rel(w, (long)c2.y, &cy);
        w = put_cs_rel(w, (long)e.x, &cx), w = put_cs_rel(w, (long)e.y, &cy);
        *w++ = 8; /* rrcurveto */
        i += 3;
      } else {
        w = put_cs_rel(w, (long)pts[i].x, &cx);
        w = put_cs_rel(w, (long)pts[i].y, &cy);
        *w++ = 5; /* rlineto */
        i++;
      }
    }
    start = end + 1;
  }
  cs->len = (size_t)(w - cs->p);
  return true;
}

static void put_index(otv_buf *b, const otv_buf *data, const uint32_t *offs, uint32_t count)
{
  otv_buf_u32(b, count);
  if (!count) return;
  size_t last = data->len + 1;
  unsigned os = last <= 0xFF ? 1 : last <= 0xFFFF ? 2 : last <= 0xFFFFFF ? 3 : 4;
  otv_buf_u8(b, (uint8_t)os);
  for (uint32_t i = 0; i <= count; i++) {
    uint32_t o = offs[i] + 1;
    for (unsigned k = os; k-- > 0;) otv_buf_u8(b, (uint8_t)(o >> (8 * k)));
  }
  otv_buf_bytes(b, data->p, data->len);
}

/* Region scalar products of the CFF2 store at the location, per ItemVariationData column. */
static double blend_scalar(const otv_inst_ivs *ev, unsigned vsindex, unsigned col)
{
  const otv_ivs *ivs = ev->ivs;
  if (!ivs || vsindex >= ivs->data_count) return 0;
  const otv_ivd *v = &ivs->data[vsindex];
  if (col >= v->region_index_count) return 0;
  unsigned r = otv_peek_u16(v->region_indexes + 2 * col);
  if (r >= ivs->region_count || ev->k[r] < 0) return 0;
  return otv_pin_scale(1.0, ev->s + (size_t)r * ev->stride, ev->k[r]);
}

/* Copy a Private DICT with blends resolved; vsindex and Subrs dropped. */
static otv_status copy_private(otv_inst *in, otv_inst_ivs *ev, otv_span d, otv_buf *out)
{
  otv_rd r = otv_rd_init(d, 0);
  double st[513];
  unsigned n = 0, vsindex = 0;
  while (r.pos < d.len) {
    double v;
    bool is_op;
    if (!dict_token(&r, &v, &is_op))
      return OTV_FAIL(in->err, BAD_VALUE, OTV_T_CFF2, r.pos, "Private DICT");
    if (!is_op) {
      if (n == 513) return OTV_FAIL(in->err, LIMIT, OTV_T_CFF2, r.pos, "Private DICT stack");
      st[n++] = v;
      continue;
    }
    unsigned op = (unsigned)v;
    if (op == 22) { /* vsindex */
      vsindex = n ? (unsigned)st[0] : 0;
      n = 0;
    } else if (op == 23) { /* blend: n defaults, n*k deltas, n */
      if (!n) return OTV_FAIL(in->err, BAD_VALUE, OTV_T_CFF2, r.pos, "blend without count");
      unsigned cnt = (unsigned)st[n - 1];
      unsigned k =
          ev->ivs && vsindex < ev->ivs->data_count ? ev->ivs->data[vsindex].region_index_count : 0;
      size_t need = (size_t)cnt * (k + 1) + 1;
      if (need > n) return OTV_FAIL(in->err, BAD_VALUE, OTV_T_CFF2, r.pos, "blend operands");
      size_t base = n - need;
      for (unsigned i = 0; i < cnt; i++) {
        double val = st[base + i];
        for (unsigned j = 0; j < k; j++)
          val += st[base + cnt + (size_t)i * k + j] * blend_scalar(ev, vsindex, j);
        st[base + i] = val;
      }
      n = (unsigned)(base + cnt);
    } else {
      if (op != 19) { /* Subrs: the charstrings are flattened */
        for (unsigned i = 0; i < n; i++) put_dict_num(out, st[i]);
        put_op(out, op);
      }
      n = 0;
    }
  }
  return OTV_E_OK;
}

/* A partial instance's extra state: a location at the new default, the blend region modes, and
 * the VariationStore (length + ItemVariationStore) with its regions over the kept axes. On
 * failure everything it made is freed. */
static void partial_free(otv_inst *in, otv_location **ploc, int8_t **mode, double **factor,
                         otv_buf *vstore)
{
  unsigned rc = in->face->cff.ivs.region_count ? in->face->cff.ivs.region_count : 1;
  if (*ploc) otv_location_destroy(*ploc);
  if (*mode) otv_mem_free(in->al, *mode, rc);
  if (*factor) otv_mem_free(in->al, *factor, rc * sizeof **factor);
  otv_buf_free(vstore);
  *ploc = NULL, *mode = NULL, *factor = NULL;
}

static otv_status partial_setup(otv_inst *in, otv_span t, otv_span top, otv_location **ploc,
                                int8_t **mode, double **factor, otv_buf *vstore)
{
  const otv_face *f = in->face;
  double vs_off = 0;
  otv_status st = OTV_E_OK;
  otv_error le = {0};
  if (otv_location_create(f, ploc, &le) ||
      otv_location_set_normalized(*ploc, in->pcoords, in->pin.axis_count)) {
    st = OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "location");
    goto fail;
  }
  if ((st = otv_part_cff_modes(in, mode, factor))) goto fail;
  if (dict_find(top, 24, &vs_off, NULL) && vs_off > 0) {
    otv_span vs;
    if (!otv_span_sub(t, (size_t)vs_off, 2, &vs) ||
        !otv_span_sub(t, (size_t)vs_off + 2, otv_peek_u16(vs.p), &vs)) {
      st = OTV_FAIL(in->err, BAD_OFFSET, OTV_T_CFF2, (uint64_t)vs_off, "VariationStore");
      goto fail;
    }
    otv_buf_u16(vstore, (uint16_t)vs.len);
    otv_buf_bytes(vstore, vs.p, vs.len);
    if (vstore->failed) {
      st = OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "VariationStore");
      goto fail;
    }
    /* the store in a buffer of its own, rewritten in place: every blend keeps its column count */
    otv_buf ivs_copy = {vstore->p + 2, vs.len, vs.len, in->al, false};
    if ((st = otv_store_partial(&in->cx, vs, &ivs_copy, OTV_T_CFF2, 0, false))) goto fail;
  }
  return OTV_E_OK;
fail:
  partial_free(in, ploc, mode, factor, vstore);
  return st;
}

otv_status otv_inst_cff(otv_inst *in)
{
  const otv_face *f = in->face;
  otv_span t = otv_face_span(f, OTV_T_CFF2);
  uint32_t n = in->glyph_count;
  otv_rd r = otv_rd_init(t, 0);
  uint8_t major = otv_rd_u8(&r);
  otv_rd_skip(&r, 1);
  uint8_t hdr = otv_rd_u8(&r);
  uint16_t top_len = otv_rd_u16(&r);
  otv_span top;
  if (!otv_rd_ok(&r) || major != 2 || !otv_span_sub(t, hdr, top_len, &top))
    return OTV_FAIL(in->err, BAD_VALUE, OTV_T_CFF2, 0, "CFF2 header");
  double cs_off = 0, fda_off = 0, fds_off = 0, a, b2;
  if (!dict_find(top, 17, &cs_off, NULL) || !dict_find(top, 1236, &fda_off, NULL))
    return OTV_FAIL(in->err, BAD_VALUE, OTV_T_CFF2, hdr, "Top DICT without CharStrings/FDArray");
  bool has_fds = dict_find(top, 1237, &fds_off, NULL);
  double fm[6];
  bool has_fm = false;
  {
    /* FontMatrix (12 7): six operands */
    otv_rd q = otv_rd_init(top, 0);
    double st[48];
    unsigned k = 0;
    while (q.pos < top.len) {
      double v;
      bool is_op;
      if (!dict_token(&q, &v, &is_op)) break;
      if (!is_op) {
        if (k < 48) st[k++] = v;
        continue;
      }
      if ((unsigned)v == 1207 && k == 6) {
        memcpy(fm, st, sizeof fm);
        has_fm = true;
      }
      k = 0;
    }
  }
  cff_index fda;
  if (!read_index(t, (size_t)fda_off, &fda) || !fda.count || fda.count > 256)
    return OTV_FAIL(in->err, BAD_VALUE, OTV_T_CFF2, (uint64_t)fda_off, "FDArray");
  (void)a, (void)b2;

  otv_inst_ivs ev;
  otv_status st = otv_inst_ivs_init(&in->cx, &f->cff.ivs, &ev);
  if (st) {
    otv_inst_ivs_fini(&in->cx, &ev);
    return OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "blend scalars");
  }
  /* a partial instance: charstrings rewritten (instance_cff_partial.c), the VariationStore kept
   * with its regions over the kept axes, and outlines and metrics of the new default taken at a
   * location of its own (the pins, kept axes at their defaults) */
  otv_location *L = in->loc, *ploc = NULL;
  int8_t *mode = NULL;
  double *factor = NULL;
  otv_buf vstore;
  otv_buf_init(&vstore, in->al);
  if (in->pin.partial && (st = partial_setup(in, t, top, &ploc, &mode, &factor, &vstore))) {
    otv_inst_ivs_fini(&in->cx, &ev);
    return st;
  }
  if (ploc) L = ploc;
  otv_buf cs, privs, fds, gsub;
  otv_buf_init(&cs, in->al);
  otv_buf_init(&privs, in->al);
  otv_buf_init(&fds, in->al);
  otv_buf_init(&gsub, in->al);
  uint32_t *gsub_offs = NULL;
  otv_part_subrs ps;
  memset(&ps, 0, sizeof ps);
  uint32_t *cs_offs = otv_mem_alloc(in->al, ((size_t)n + 1) * sizeof *cs_offs);
  uint32_t priv_at[257], priv_len[257];
  otv_point *pts = NULL;
  uint8_t *fl = NULL;
  uint16_t *ends = NULL;
  unsigned pcap = 0, ccap = 0;
  in->adv_w = otv_mem_calloc(in->al, n ? n : 1, sizeof *in->adv_w);
  in->lsb = otv_mem_calloc(in->al, n ? n : 1, sizeof *in->lsb);
  in->bbox = otv_mem_calloc(in->al, n ? n : 1, sizeof *in->bbox);
  in->has_outline = otv_mem_calloc(in->al, n ? n : 1, 1);
  in->has_vmtx = otv_face_has(f, OTV_T_VMTX) && otv_face_has(f, OTV_T_VHEA);
  if (in->has_vmtx) {
    in->adv_h = otv_mem_calloc(in->al, n ? n : 1, sizeof *in->adv_h);
    in->tsb = otv_mem_calloc(in->al, n ? n : 1, sizeof *in->tsb);
  }
  /* a partial instance keeps the subroutines when each can be rewritten on its own */
  if (in->pin.partial && (st = otv_part_cff_analyse(in, mode, factor, &ps))) goto done;
  if (!cs_offs || !in->adv_w || !in->lsb || !in->bbox || !in->has_outline ||
      (in->has_vmtx && (!in->adv_h || !in->tsb))) {
    st = OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "glyph arrays");
    goto done;
  }
  /* charstrings */
  for (uint32_t g = 0; g < n; g++) {
    otv_glyph_points io;
    for (;;) {
      memset(&io, 0, sizeof io);
      io.points = pts, io.point_flags = fl, io.contour_ends = ends;
      io.point_cap = pcap, io.contour_cap = ccap;
      st = otv_glyph_points_get(L, g, 0, &io);
      if (st != OTV_E_SMALL_BUFFER) break;
      unsigned np = io.point_count + 4 > pcap ? io.point_count + 64 : pcap;
      unsigned nc = io.contour_count > ccap ? io.contour_count + 16 : ccap;
      if (!nc) nc = 1;
      /* new blocks, then the old ones freed: every block keeps the size it is freed with */
      otv_point *p2 = otv_mem_alloc(in->al, np * sizeof *p2);
      uint8_t *f2 = otv_mem_alloc(in->al, np);
      uint16_t *e2 = otv_mem_alloc(in->al, nc * sizeof *e2);
      if (!p2 || !f2 || !e2) {
        if (p2) otv_mem_free(in->al, p2, np * sizeof *p2);
        if (f2) otv_mem_free(in->al, f2, np);
        if (e2) otv_mem_free(in->al, e2, nc * sizeof *e2);
        goto nomem;
      }
      if (pts) otv_mem_free(in->al, pts, pcap * sizeof *pts);
      if (fl) otv_mem_free(in->al, fl, pcap);
      if (ends) otv_mem_free(in->al, ends, ccap * sizeof *ends);
      pts = p2, fl = f2, ends = e2;
      pcap = np, ccap = nc;
    }
    if (st) {
      const otv_error *le = otv_location_last_error(L);
      st = otv_fail(in->err, st, le->table ? le->table : OTV_T_CFF2, le->offset, "glyph %u: %s", g,
                    le->msg);
      goto done;
    }
    cs_offs[g] = (uint32_t)cs.len;
    if (in->pin.partial && (st = otv_part_cff_glyph(in, g, mode, factor, &ps, &cs))) goto done;
    /* the absolute points, rounded and clamped to int16 (as the glyf instancer keeps them):
     * relative operands are differences of these */
    for (unsigned i = 0; i < io.point_count; i++) {
      pts[i].x = (float)otv_inst_round16(pts[i].x);
      pts[i].y = (float)otv_inst_round16(pts[i].y);
    }
    /* the box of the (rounded) points; a full instance also re-encodes them (a partial one
     * wrote its charstring above) */
    double xmin = 0, ymin = 0, xmax = 0, ymax = 0;
    bool any = false;
    for (unsigned c = 0, start = 0; c < io.contour_count; c++) {
      unsigned end = ends[c];
      if (end < start || end >= io.point_count) break;
      for (unsigned i = start; i <= end; i++) {
        double x = pts[i].x, y = pts[i].y;
        if (!any) xmin = xmax = x, ymin = ymax = y, any = true;
        if (x < xmin) xmin = x;
        if (x > xmax) xmax = x;
        if (y < ymin) ymin = y;
        if (y > ymax) ymax = y;
      }
      start = end + 1;
    }
    if (!in->pin.partial && !encode_points(&cs, pts, fl, ends, io.point_count, io.contour_count))
      goto nomem;
    in->has_outline[g] = any;
    int16_t bb[4] = {0, 0, 0, 0};
    if (any) {
      /* (integers in the int16 range: the points are) */
      bb[0] = (int16_t)xmin, bb[1] = (int16_t)ymin, bb[2] = (int16_t)xmax, bb[3] = (int16_t)ymax;
    }
    memcpy(in->bbox[g], bb, sizeof bb);
    /* the advance alone: otv_glyph_h_metrics would run the charstring again for the side
     * bearings of a font without an HVAR LSB map, and the lsb is the outline's xMin here */
    float adv = 0;
    otv_glyph_metrics m;
    memset(&m, 0, sizeof m);
    if ((st = otv_glyph_advances(L, &g, 1, OTV_METRICS_ROUND, &adv)) ||
        (!any && (st = otv_glyph_h_metrics(L, g, OTV_METRICS_ROUND, &m)))) {
      const otv_error *le = otv_location_last_error(L);
      st = otv_fail(in->err, st, le->table ? le->table : OTV_T_HMTX, le->offset,
                    "glyph %u metrics: %s", g, le->msg);
      goto done;
    }
    in->adv_w[g] = (uint16_t)(adv < 0 ? 0 : adv > 65535 ? 65535 : adv);
    in->lsb[g] =
        any ? bb[0] : (int16_t)otv_inst_round16(m.side_a); /* empty glyph: the varied hmtx value */
    if (in->has_vmtx) {
      otv_glyph_metrics vm;
      otv_status vs = otv_glyph_v_metrics(L, g, OTV_METRICS_ROUND, &vm);
      if (vs == OTV_E_NOMEM) {
        st = OTV_FAIL(in->err, NOMEM, OTV_T_VMTX, 0, "glyph %u vertical metrics", g);
        goto done;
      }
      if (!vs) {
        in->adv_h[g] = (uint16_t)(vm.advance < 0 ? 0 : vm.advance > 65535 ? 65535 : vm.advance);
        in->tsb[g] = (int16_t)otv_inst_round16(vm.side_a);
      }
    }
  }
  cs_offs[n] = (uint32_t)cs.len;
  if (cs.failed) goto nomem;
  /* Private DICTs */
  for (uint32_t i = 0; i < fda.count; i++) {
    otv_span fd;
    double psize = 0, poff = 0;
    priv_at[i] = (uint32_t)privs.len;
    if (index_item(t, &fda, i, &fd) && dict_find(fd, 18, &psize, &poff)) {
      otv_span pd;
      if (!otv_span_sub(t, (size_t)poff, (size_t)psize, &pd)) {
        st = OTV_FAIL(in->err, BAD_OFFSET, OTV_T_CFF2, (uint64_t)poff, "Private DICT %u", i);
        goto done;
      }
      if ((st = copy_private(in, &ev, pd, &privs))) goto done;
    }
    uint32_t nsub = in->pin.partial && i < f->cff.fd_count ? f->cff.fds[i].subrs.count : 0;
    if (nsub) {
      /* Subrs, right after this Private DICT (its offset counts from the DICT's start) */
      otv_buf_u8(&privs, 29);
      otv_buf_u32(&privs, (uint32_t)(privs.len + 5 - priv_at[i]));
      otv_buf_u8(&privs, 19);
    }
    priv_len[i] = (uint32_t)privs.len - priv_at[i];
    if (nsub) {
      otv_buf data;
      otv_buf_init(&data, in->al);
      uint32_t *offs = otv_mem_alloc(in->al, ((size_t)nsub + 1) * sizeof *offs);
      if (!offs)
        st = OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "subroutines");
      else
        st = otv_part_cff_subrs(in, mode, factor, &ps, (int)i, &data, offs);
      if (!st) put_index(&privs, &data, offs, nsub);
      if (offs) otv_mem_free(in->al, offs, ((size_t)nsub + 1) * sizeof *offs);
      otv_buf_free(&data);
      if (st) goto done;
    }
  }
  /* the global subroutines of a partial instance that keeps them */
  uint32_t ngs = in->pin.partial ? f->cff.gsubrs.count : 0;
  if (ngs) {
    gsub_offs = otv_mem_alloc(in->al, ((size_t)ngs + 1) * sizeof *gsub_offs);
    if (!gsub_offs) goto nomem;
    if ((st = otv_part_cff_subrs(in, mode, factor, &ps, -1, &gsub, gsub_offs))) goto done;
  }
  /* FDSelect: copied as it is, as the face's parse found it (format, range count, then the
   * data whose size that parse checked) */
  if (has_fds) {
    const otv_cff *fc = &f->cff;
    if (!fc->has_fdselect) {
      st = OTV_FAIL(in->err, BAD_VALUE, OTV_T_CFF2, (uint64_t)fds_off, "FDSelect");
      goto done;
    }
    otv_buf_u8(&fds, fc->fdselect_format);
    if (fc->fdselect_format == 3)
      otv_buf_u16(&fds, (uint16_t)fc->fdselect_ranges);
    else if (fc->fdselect_format == 4)
      otv_buf_u32(&fds, fc->fdselect_ranges);
    otv_buf_bytes(&fds, fc->fdselect.p, fc->fdselect.len);
  }
  /* layout: header(5) | Top DICT | GlobalSubrs (empty) | CharStrings | FDSelect | FDArray |
   * Private DICTs. Offsets in DICTs use the 5-byte form so sizes are known in advance. */
  {
    otv_buf *o = &in->cff2;
    size_t top_size = 6 + 7 + (has_fds ? 7 : 0) + (vstore.len ? 6 : 0);
    otv_buf topd;
    otv_buf_init(&topd, in->al);
    if (has_fm) {
      /* The charstrings are written from our outlines, which are already in font units (the
       * interpreter applies a non-identity FontMatrix): the instance's matrix must then be
       * the plain 1/unitsPerEm one, or the transform would apply twice. */
      bool any_xf = false;
      for (uint32_t k = 0; k < f->cff.fd_count; k++) any_xf |= f->cff.fds[k].xf_on;
      if (any_xf && !in->pin.partial) { /* a partial instance copies the charstrings: same matrix */
        double s = f->units_per_em ? 1.0 / f->units_per_em : 0.001;
        double plain[6] = {s, 0, 0, s, 0, 0};
        memcpy(fm, plain, sizeof fm);
      }
      for (int k = 0; k < 6; k++) put_dict_num(&topd, fm[k]);
      put_op(&topd, 1207);
    }
    if (topd.failed || privs.failed || fds.failed) {
      otv_buf_free(&topd);
      goto nomem;
    }
    size_t fm_len = topd.len;
    top_size += fm_len;
    size_t gsubr_at = 5 + top_size;
    size_t gsubr_size = 4;
    if (ngs) {
      size_t last = gsub.len + 1;
      unsigned os = last <= 0xFF ? 1 : last <= 0xFFFF ? 2 : last <= 0xFFFFFF ? 3 : 4;
      gsubr_size = 4 + 1 + ((size_t)ngs + 1) * os + gsub.len;
    }
    size_t cs_at = gsubr_at + gsubr_size;
    size_t cs_size = 4 + 1 + ((size_t)n + 1) * 4 + cs.len; /* upper bound, fixed below */
    /* exact CharStrings INDEX size */
    {
      size_t last = cs.len + 1;
      unsigned os = last <= 0xFF ? 1 : last <= 0xFFFF ? 2 : last <= 0xFFFFFF ? 3 : 4;
      cs_size = n ? 4 + 1 + ((size_t)n + 1) * os + cs.len : 4;
    }
    size_t fds_at = cs_at + cs_size;
    size_t fda_at = fds_at + fds.len;
    /* FDArray: Font DICTs "size offset Private" with 5-byte ints: 11 bytes each */
    size_t fd_data = (size_t)fda.count * 11;
    size_t last = fd_data + 1;
    unsigned fos = last <= 0xFF ? 1 : last <= 0xFFFF ? 2 : 3;
    size_t fda_size = 4 + 1 + ((size_t)fda.count + 1) * fos + fd_data;
    size_t priv_base = fda_at + fda_size;
    otv_buf_u8(o, 2);
    otv_buf_u8(o, 0);
    otv_buf_u8(o, 5);
    otv_buf_u16(o, (uint16_t)top_size);
    otv_buf_bytes(o, topd.p, topd.len);
    otv_buf_free(&topd);
    otv_buf_u8(o, 29);
    otv_buf_u32(o, (uint32_t)cs_at);
    otv_buf_u8(o, 17);
    otv_buf_u8(o, 29);
    otv_buf_u32(o, (uint32_t)fda_at);
    put_op(o, 1236);
    if (has_fds) {
      otv_buf_u8(o, 29);
      otv_buf_u32(o, (uint32_t)fds_at);
      put_op(o, 1237);
    }
    if (vstore.len) { /* after the Private DICTs */
      otv_buf_u8(o, 29);
      otv_buf_u32(o, (uint32_t)(priv_base + privs.len));
      put_op(o, 24);
    }
    if (ngs)
      put_index(o, &gsub, gsub_offs, ngs);
    else
      otv_buf_u32(o, 0); /* Global Subr INDEX: empty */
    put_index(o, &cs, cs_offs, n);
    otv_buf_bytes(o, fds.p, fds.len);
    otv_buf fdd;
    otv_buf_init(&fdd, in->al);
    uint32_t fdo[258];
    for (uint32_t i = 0; i < fda.count; i++) {
      fdo[i] = (uint32_t)fdd.len;
      otv_buf_u8(&fdd, 29);
      otv_buf_u32(&fdd, priv_len[i]);
      otv_buf_u8(&fdd, 29);
      otv_buf_u32(&fdd, (uint32_t)(priv_base + priv_at[i]));
      otv_buf_u8(&fdd, 18);
    }
    fdo[fda.count] = (uint32_t)fdd.len;
    bool fdd_failed = fdd.failed;
    put_index(o, &fdd, fdo, fda.count);
    otv_buf_free(&fdd);
    if (fdd_failed) goto nomem;
    otv_buf_bytes(o, privs.p, privs.len);
    if (o->failed) goto nomem;
    if (o->len != priv_base + privs.len) {
      st = OTV_FAIL(in->err, BAD_VALUE, OTV_T_CFF2, 0, "internal: CFF2 layout %zu != %zu", o->len,
                    priv_base + privs.len);
      goto done;
    }
    otv_buf_bytes(o, vstore.p, vstore.len);
    if (o->failed) goto nomem;
  }
  /* hmtx / vmtx */
  {
    uint32_t keep = n;
    while (keep > 1 && in->adv_w[keep - 1] == in->adv_w[keep - 2]) keep--;
    in->num_h_metrics = (uint16_t)keep;
    for (uint32_t i = 0; i < n; i++) {
      if (i < keep) otv_buf_u16(&in->hmtx, in->adv_w[i]);
      otv_buf_u16(&in->hmtx, (uint16_t)in->lsb[i]);
    }
    if (in->has_vmtx) {
      keep = n;
      while (keep > 1 && in->adv_h[keep - 1] == in->adv_h[keep - 2]) keep--;
      in->num_v_metrics = (uint16_t)keep;
      for (uint32_t i = 0; i < n; i++) {
        if (i < keep) otv_buf_u16(&in->vmtx, in->adv_h[i]);
        otv_buf_u16(&in->vmtx, (uint16_t)in->tsb[i]);
      }
    }
    if (in->hmtx.failed || in->vmtx.failed) goto nomem;
  }
  in->loca_format = f->index_to_loc_format;
  st = OTV_E_OK;
  goto done;
nomem:
  st = OTV_FAIL(in->err, NOMEM, OTV_T_CFF2, 0, "CFF2 buffers");
done:
  if (cs_offs) otv_mem_free(in->al, cs_offs, ((size_t)n + 1) * sizeof *cs_offs);
  if (pts) otv_mem_free(in->al, pts, pcap * sizeof *pts);
  if (fl) otv_mem_free(in->al, fl, pcap);
  if (ends) otv_mem_free(in->al, ends, ccap * sizeof *ends);
  otv_buf_free(&cs);
  otv_buf_free(&privs);
  otv_buf_free(&fds);
  partial_free(in, &ploc, &mode, &factor, &vstore);
  otv_part_subrs_free(in, &ps);
  otv_buf_free(&gsub);
  if (gsub_offs)
    otv_mem_free(in->al, gsub_offs, ((size_t)f->cff.gsubrs.count + 1) * sizeof *gsub_offs);
  otv_inst_ivs_fini(&in->cx, &ev);
  return st;
}

/*
 * instance_glyf.c - glyf/loca and hmtx/vmtx of a static instance, and the tuple variation store
 * decoder shared with cvar.
 *
 * Spec: glyf ("Simple glyph description", "Composite glyph description"), loca, gvar ("Tuple
 * variation store", "Packed point numbers", "Packed deltas", "Inferred deltas for un-referenced
 * point numbers", phantom points), otvarcommonformats ("Algorithm for interpolation").
 *
 * The result follows fontTools' varLib.instancer (the reference static instancer) exactly where
 * the spec leaves a choice: every tuple's deltas are scaled in double, axis by axis in tag
 * order; inferred deltas (IUP) are computed on the scaled deltas of each tuple; the tuples are
 * summed in order and added to the default coordinates; a coordinate is then rounded with
 * floor(x + 0.5). Bounding boxes are those of the unrounded coordinates, rounded (for a simple
 * glyph this equals the box of the rounded points); advance = round(right - left phantom x),
 * lsb = round(xMin - left phantom x). Composites stay composite with rounded varied offsets.
 */
#include "instance.h"

/* ---- region scalars ---- */

int otv_inst_region_scalars(const otv_inst *in, const int16_t *start, const int16_t *peak,
                            const int16_t *end, double *out)
{
  int k = 0;
  for (unsigned i = 0; i < in->axis_count; i++) {
    unsigned a = in->axis_order[i];
    int p = peak[a], s = start[a], e = end[a];
    if (p == 0) continue;
    /* spec: an ill-formed region axis (start > peak, peak > end, or crossing zero) is ignored */
    if (s > p || p > e || (s < 0 && e > 0)) continue;
    int c = in->coords[a];
    if (c == p) continue;
    if (c <= s || c >= e) return -1;
    double v = c / 16384.0, lo = s / 16384.0, pk = p / 16384.0, hi = e / 16384.0;
    out[k++] = c < p ? (v - lo) / (pk - lo) : (hi - v) / (hi - pk);
  }
  return k;
}

/* ---- tuple variation store ---- */

/* Grow two double arrays (and an optional byte array) sharing one capacity to >= need. On
 * failure the old arrays are left as they were (so they are freed with the right size). */
static bool grow_d2(const otv_alloc *al, double **a, double **b, uint8_t **c, size_t *cap,
                    size_t need)
{
  if (need <= *cap) return true;
  size_t nc = *cap ? *cap : 64;
  while (nc < need) nc *= 2;
  double *na = otv_mem_alloc(al, nc * sizeof(double));
  double *nb = otv_mem_alloc(al, nc * sizeof(double));
  uint8_t *ncp = c ? otv_mem_alloc(al, nc) : NULL;
  if (!na || !nb || (c && !ncp)) {
    if (na) otv_mem_free(al, na, nc * sizeof(double));
    if (nb) otv_mem_free(al, nb, nc * sizeof(double));
    if (ncp) otv_mem_free(al, ncp, nc);
    return false;
  }
  if (*cap) {
    memcpy(na, *a, *cap * sizeof(double));
    memcpy(nb, *b, *cap * sizeof(double));
    if (c) memcpy(ncp, *c, *cap);
    otv_mem_free(al, *a, *cap * sizeof(double));
    otv_mem_free(al, *b, *cap * sizeof(double));
    if (c) otv_mem_free(al, *c, *cap);
  }
  *a = na, *b = nb;
  if (c) *c = ncp;
  *cap = nc;
  return true;
}

/* Packed point numbers at r; *count = 0 means all points. Numbers >= n are kept (ignored when
 * applied). */
bool otv_inst_read_points(otv_rd *r, otv_inst *in, uint16_t **buf, size_t *cap, unsigned *count,
                          bool *nomem)
{
  *nomem = false;
  unsigned c = otv_rd_u8(r);
  if (c & 0x80) c = (c & 0x7F) << 8 | otv_rd_u8(r);
  if (!otv_rd_ok(r)) return false;
  *count = c;
  if (!c) return true;
  if (otv_mem_reserve(in->al, (void **)buf, cap, c, sizeof **buf)) {
    *nomem = true;
    return false;
  }
  unsigned got = 0, last = 0;
  while (got < c) {
    unsigned ctl = otv_rd_u8(r);
    unsigned run = (ctl & 0x7F) + 1;
    if (!otv_rd_ok(r)) return false;
    for (unsigned i = 0; i < run && got < c; i++) {
      unsigned d = (ctl & 0x80) ? otv_rd_u16(r) : otv_rd_u8(r);
      last = (last + d) & 0xFFFF;
      (*buf)[got++] = (uint16_t)last;
    }
    if (!otv_rd_ok(r)) return false;
  }
  return true;
}

/* One packed-delta run header of at most `left` deltas: its length (a run past the count is cut,
 * as it ends), bytes per delta (0, 1, 2 or 4) and its data, taken (checked) from r. */
static inline bool delta_run(otv_rd *r, unsigned left, unsigned *run, unsigned *size,
                             const uint8_t **p)
{
  unsigned ctl = otv_rd_u8(r);
  if (!otv_rd_ok(r)) return false;
  *run = (ctl & 0x3F) + 1;
  if (*run > left) *run = left;
  *size = (ctl & 0xC0) == 0x80 ? 0 : (ctl & 0xC0) == 0x40 ? 2 : (ctl & 0xC0) ? 4 : 1;
  *p = otv_rd_take(r, (size_t)*run * *size);
  return *p || !*size;
}

/* count packed deltas into out. Each run's bytes are checked once, then read unchecked. */
bool otv_inst_read_deltas(otv_rd *r, unsigned count, double *out)
{
  unsigned got = 0;
  while (got < count) {
    unsigned run, size;
    const uint8_t *p;
    if (!delta_run(r, count - got, &run, &size, &p)) return false;
    /* in range: run * size bytes taken just above */
    switch (size) {
    case 0:
      for (unsigned i = 0; i < run; i++) out[got + i] = 0;
      break;
    case 1:
      for (unsigned i = 0; i < run; i++) out[got + i] = (int8_t)p[i];
      break;
    case 2:
      for (unsigned i = 0; i < run; i++) out[got + i] = otv_peek_i16(p + 2 * i);
      break;
    default:
      for (unsigned i = 0; i < run; i++) out[got + i] = otv_peek_i32(p + 4 * i);
      break;
    }
    got += run;
  }
  return true;
}

/* read_deltas for a tuple that has every point, fused with the sum: acc[i] += the delta scaled
 * (the same operations in the same order as decoding, then scaling, then adding). */
static bool read_deltas_acc(otv_rd *r, unsigned count, double *acc, const double *s, int k)
{
  unsigned got = 0;
  while (got < count) {
    unsigned run, size;
    const uint8_t *p;
    if (!delta_run(r, count - got, &run, &size, &p)) return false;
    double *a = acc + got;
    /* in range: run * size bytes taken just above; zero deltas add nothing */
    if (k == 1) {
      double s0 = s[0];
      switch (size) {
      case 0: break;
      case 1:
        for (unsigned i = 0; i < run; i++) a[i] += (double)(int8_t)p[i] * s0;
        break;
      case 2:
        for (unsigned i = 0; i < run; i++) a[i] += (double)otv_peek_i16(p + 2 * i) * s0;
        break;
      default:
        for (unsigned i = 0; i < run; i++) a[i] += (double)otv_peek_i32(p + 4 * i) * s0;
        break;
      }
    } else {
      switch (size) {
      case 0: break;
      case 1:
        for (unsigned i = 0; i < run; i++) a[i] += otv_inst_scale((int8_t)p[i], s, k);
        break;
      case 2:
        for (unsigned i = 0; i < run; i++) a[i] += otv_inst_scale(otv_peek_i16(p + 2 * i), s, k);
        break;
      default:
        for (unsigned i = 0; i < run; i++) a[i] += otv_inst_scale(otv_peek_i32(p + 4 * i), s, k);
        break;
      }
    }
    got += run;
  }
  return true;
}

/* Inferred deltas of one contour [a, b] of one axis (fontTools' iup_contour / iup_segment
 * arithmetic, which the spec's description matches). */
void otv_inst_iup_axis(const double *orig, double *d, const uint8_t *has, unsigned a, unsigned b)
{
  unsigned first = UINT32_MAX;
  for (unsigned i = a; i <= b; i++)
    if (has[i]) {
      first = i;
      break;
    }
  if (first == UINT32_MAX) {
    for (unsigned i = a; i <= b; i++) d[i] = 0;
    return;
  }
  unsigned prev = first;
  unsigned i = first;
  unsigned len = b - a + 1;
  for (unsigned step = 0; step < len; step++) {
    unsigned j = i == b ? a : i + 1; /* walk forward cyclically from first */
    i = j;
    if (!has[i] && i != first) continue;
    /* reference points prev and i (i may be first again: wrap) */
    unsigned q = prev == b ? a : prev + 1;
    if (q != i) {
      double x1 = orig[prev], x2 = orig[i], d1 = d[prev], d2 = d[i];
      if (x1 == x2) {
        double v = d1 == d2 ? d1 : 0;
        for (; q != i; q = q == b ? a : q + 1) d[q] = v;
      } else {
        if (x1 > x2) {
          double t = x1;
          x1 = x2, x2 = t;
          t = d1, d1 = d2, d2 = t;
        }
        double scale = (d2 - d1) / (x2 - x1);
        for (; q != i; q = q == b ? a : q + 1) {
          double x = orig[q];
          d[q] = x <= x1 ? d1 : x >= x2 ? d2 : d1 + (x - x1) * scale;
        }
      }
    }
    prev = i;
    if (i == first) break;
  }
}

bool otv_inst_read_tuple_region(otv_rd *r, unsigned ti, unsigned ac, const uint8_t *shared,
                                uint16_t shared_count, int16_t *start, int16_t *peak, int16_t *end)
{
  if (ti & 0x8000) {
    const uint8_t *pp = otv_rd_take(r, 2 * (size_t)ac);
    /* in range: taken just above */
    for (unsigned a = 0; a < ac && pp; a++) peak[a] = otv_peek_i16(pp + 2 * a);
  } else {
    unsigned idx = ti & 0x0FFF;
    if (!shared || idx >= shared_count) return false;
    /* in range: shared tuples checked by the caller (shared_count x axis_count) */
    for (unsigned a = 0; a < ac; a++) peak[a] = otv_peek_i16(shared + 2 * ((size_t)idx * ac + a));
  }
  if (ti & 0x4000) {
    const uint8_t *pp = otv_rd_take(r, 4 * (size_t)ac);
    /* in range: taken just above */
    for (unsigned a = 0; a < ac && pp; a++) {
      start[a] = otv_peek_i16(pp + 2 * a);
      end[a] = otv_peek_i16(pp + 2 * ((size_t)ac + a));
    }
  } else {
    for (unsigned a = 0; a < ac; a++) {
      start[a] = peak[a] < 0 ? peak[a] : 0;
      end[a] = peak[a] > 0 ? peak[a] : 0;
    }
  }
  return otv_rd_ok(r);
}

otv_status otv_inst_tvs_sum(otv_inst *in, otv_span data, size_t hdr, uint32_t tag, size_t tab_off,
                            const uint8_t *shared, uint16_t shared_count, unsigned n,
                            const double *orig_x, const double *orig_y, const uint16_t *ends,
                            unsigned end_count, double *acc_x, double *acc_y)
{
  otv_tvs_scratch *sc = &in->tvs;
  unsigned ac = in->axis_count;
  otv_rd r = otv_rd_init(data, hdr);
  uint16_t tvc = otv_rd_u16(&r);
  uint16_t data_off = otv_rd_u16(&r);
  if (!otv_rd_ok(&r)) return OTV_FAIL_RD(in->err, tag, tab_off, &r, "tuple variation header");
  unsigned count = tvc & 0x0FFF;
  if (!count) return OTV_E_OK;
  if (!grow_d2(in->al, &sc->dx, &sc->dy, &sc->has, &sc->d_cap, n ? n : 1))
    return OTV_FAIL(in->err, NOMEM, tag, tab_off, "deltas");

  otv_rd dr = otv_rd_init(data, data_off);
  unsigned shared_n = 0;
  bool shared_all = false;
  if (tvc & 0x8000) {
    bool nomem;
    if (!otv_inst_read_points(&dr, in, &sc->shared_pts, &sc->shared_cap, &shared_n, &nomem))
      return nomem ? OTV_FAIL(in->err, NOMEM, tag, tab_off, "point numbers")
                   : OTV_FAIL(in->err, TRUNCATED, tag,
                              tab_off + (dr.bad_at == SIZE_MAX ? dr.pos : dr.bad_at),
                              "shared point numbers");
    shared_all = shared_n == 0;
  }
  int16_t peak[OTV_MAX_AXES], start[OTV_MAX_AXES], end[OTV_MAX_AXES];
  double sc_ax[OTV_MAX_AXES];
  for (unsigned t = 0; t < count; t++) {
    size_t hdr_at = r.pos;
    uint16_t size = otv_rd_u16(&r);
    uint16_t ti = otv_rd_u16(&r);
    int k;
    bool cached = false;
    if (!(ti & 0xC000) && shared && sc->sk && sc->shared_src == shared && (ti & 0x0FFF) < sc->sn) {
      /* a shared tuple with its implied region: scalars computed once per instance */
      unsigned idx = ti & 0x0FFF;
      k = sc->sk[idx];
      if (k > 0) memcpy(sc_ax, sc->ss + (size_t)idx * ac, (size_t)k * sizeof *sc_ax);
      cached = true;
    } else if (otv_rd_ok(&r) &&
               !otv_inst_read_tuple_region(&r, ti, ac, shared, shared_count, start, peak, end)) {
      return otv_rd_ok(&r)
                 ? OTV_FAIL(in->err, BAD_VALUE, tag, tab_off + hdr_at,
                            "tuple %u: shared tuple %u of %u", t, ti & 0x0FFFu, shared_count)
                 : OTV_FAIL_RD(in->err, tag, tab_off, &r, "tuple variation header");
    }
    if (!otv_rd_ok(&r)) return OTV_FAIL_RD(in->err, tag, tab_off, &r, "tuple variation header");
    size_t body = dr.pos;
    otv_span tuple;
    if (!otv_span_sub(data, body, size, &tuple))
      return OTV_FAIL(in->err, BAD_OFFSET, tag, tab_off + hdr_at,
                      "tuple %u: %u bytes of data past the end", t, size);
    dr.pos = body + size;
    if (!cached) k = otv_inst_region_scalars(in, start, peak, end, sc_ax);
    if (k < 0) continue;
    otv_rd tr = otv_rd_init(tuple, 0);
    const uint16_t *pts = sc->shared_pts;
    unsigned pn = shared_n;
    bool all = shared_all || !(tvc & 0x8000);
    if (ti & 0x2000) {
      bool nomem;
      if (!otv_inst_read_points(&tr, in, &sc->pts, &sc->pts_cap, &pn, &nomem))
        return nomem
                   ? OTV_FAIL(in->err, NOMEM, tag, tab_off, "point numbers")
                   : OTV_FAIL(in->err, TRUNCATED, tag, tab_off + body, "tuple %u point numbers", t);
      pts = sc->pts;
      all = pn == 0;
    } else if (!(tvc & 0x8000)) {
      return OTV_FAIL(in->err, BAD_VALUE, tag, tab_off + hdr_at,
                      "tuple %u has no point numbers (neither private nor shared)", t);
    }
    unsigned nd = all ? n : pn;
    if (all) {
      /* decoded, scaled and summed in one pass (the same operations, in the same order) */
      if (!read_deltas_acc(&tr, nd, acc_x, sc_ax, k) ||
          (acc_y && !read_deltas_acc(&tr, nd, acc_y, sc_ax, k)))
        return OTV_FAIL(in->err, TRUNCATED, tag, tab_off + body, "tuple %u deltas", t);
      continue;
    } else {
      /* sparse: decode into scratch rows then scatter (a later duplicate point wins) */
      if (!grow_d2(in->al, &sc->tx, &sc->ty, NULL, &sc->t_cap, nd ? nd : 1))
        return OTV_FAIL(in->err, NOMEM, tag, tab_off, "deltas");
      double *tx = sc->tx, *ty = sc->ty;
      if (!otv_inst_read_deltas(&tr, nd, tx) || (acc_y && !otv_inst_read_deltas(&tr, nd, ty)))
        return OTV_FAIL(in->err, TRUNCATED, tag, tab_off + body, "tuple %u deltas", t);
      memset(sc->has, 0, n);
      for (unsigned i = 0; i < n; i++) sc->dx[i] = sc->dy[i] = 0;
      for (unsigned i = 0; i < nd; i++) {
        unsigned p = pts[i];
        if (p >= n) continue;
        sc->has[p] = 1;
        sc->dx[p] = otv_inst_scale(tx[i], sc_ax, k);
        if (acc_y) sc->dy[p] = otv_inst_scale(ty[i], sc_ax, k);
      }
      if (orig_x && end_count) {
        /* simple glyph: IUP per contour; the 4 phantom points are one-point contours */
        unsigned a = 0;
        for (unsigned c = 0; c < end_count; c++) {
          unsigned b = ends[c];
          if (b < a || b >= n) break;
          otv_inst_iup_axis(orig_x, sc->dx, sc->has, a, b);
          otv_inst_iup_axis(orig_y, sc->dy, sc->has, a, b);
          a = b + 1;
        }
      }
    }
    for (unsigned i = 0; i < n; i++) {
      acc_x[i] += sc->dx[i];
      if (acc_y) acc_y[i] += sc->dy[i];
    }
  }
  return OTV_E_OK;
}

/* ---- glyf ---- */

enum { G_EMPTY = 0, G_SIMPLE = 1, G_COMPOSITE = 2 };

/* composite flags (spec: glyf "Composite glyph description") */
#define C_ARG_WORDS 0x0001u
#define C_ARGS_XY 0x0002u
#define C_ROUND_XY 0x0004u
#define C_SCALE 0x0008u
#define C_MORE 0x0020u
#define C_XY_SCALE 0x0040u
#define C_2X2 0x0080u
#define C_INSTR 0x0100u
#define C_MY_METRICS 0x0200u
#define C_OVERLAP 0x0400u
#define C_SCALED_OFF 0x0800u
#define C_UNSCALED_OFF 0x1000u

typedef struct gstate {
  uint8_t kind;
  uint8_t state; /* composites: 0 to do, 1 in progress, 2 done */
  uint16_t n;    /* points (simple) or components (composite) */
  uint32_t at;   /* first entry in the coordinate arrays */
  double fb[4];  /* bbox of the unrounded flattened coordinates (valid when has_pts) */
  bool has_pts;
  double ph[4]; /* varied phantoms: left x, right x, top y, bottom y */
  uint32_t flat_pts, flat_contours;
  uint16_t depth;
} gstate;

typedef struct gctx {
  otv_inst *in;
  otv_span glyf, loca, gvar, hmtx, vmtx;
  bool loca_long;
  unsigned nhm, nvm;
  /* gvar */
  bool gvar_long;
  uint16_t shared_count, gvar_glyphs;
  const uint8_t *shared, *gvar_offs;
  size_t gvar_data;
  gstate *g;
  double *x, *y; /* varied coordinates of every glyph (points, or component offsets) */
  uint8_t *on;   /* on-curve flags (simple glyphs) */
  size_t cap, used;
  /* per-glyph scratch */
  double *ox, *oy;
  size_t o_cap;
  uint16_t *ends;
  size_t ends_cap;
  uint32_t *offs; /* glyph offsets in the output glyf (glyph_count + 1) */
  int32_t *rxy;   /* one glyph's rounded coordinates (x, y pairs) */
  size_t rxy_cap;
  /* flattening scratch for transformed composites */
  double *fx, *fy;
  size_t f_cap;
} gctx;

static bool glyph_span(const gctx *c, uint32_t gid, otv_span *out, size_t *off)
{
  size_t a, b;
  /* in range: loca size checked in otv_inst_glyf */
  if (c->loca_long) {
    a = otv_peek_u32(c->loca.p + 4 * (size_t)gid);
    b = otv_peek_u32(c->loca.p + 4 * (size_t)gid + 4);
  } else {
    a = 2 * (size_t)otv_peek_u16(c->loca.p + 2 * (size_t)gid);
    b = 2 * (size_t)otv_peek_u16(c->loca.p + 2 * (size_t)gid + 2);
  }
  *off = a;
  if (b <= a) {
    out->p = c->glyf.p;
    out->len = 0;
    return b == a || true;
  }
  return otv_span_sub(c->glyf, a, b - a, out);
}

static void h_metric(const gctx *c, uint32_t gid, bool vert, int *adv, int *sb)
{
  otv_span t = vert ? c->vmtx : c->hmtx;
  unsigned nm = vert ? c->nvm : c->nhm;
  *adv = 0, *sb = 0;
  if (!nm) return;
  size_t i = gid < nm ? gid : nm - 1;
  /* in range: metrics spans checked in otv_inst_glyf */
  *adv = otv_peek_u16(t.p + 4 * i);
  if (gid < nm)
    *sb = otv_peek_i16(t.p + 4 * (size_t)gid + 2);
  else if (4 * (size_t)nm + 2 * (size_t)(gid - nm) + 2 <= t.len)
    *sb = otv_peek_i16(t.p + 4 * (size_t)nm + 2 * (size_t)(gid - nm));
}

static otv_status reserve_coords(gctx *c, size_t extra)
{
  return grow_d2(c->in->al, &c->x, &c->y, &c->on, &c->cap, c->used + extra) ? OTV_E_OK
                                                                            : OTV_E_NOMEM;
}

/* Apply gvar of gid to (ox, oy)[n] (phantoms last). */
static otv_status apply_gvar(gctx *c, uint32_t gid, unsigned n, const uint16_t *ends,
                             unsigned end_count, double *ax, double *ay, bool encode)
{
  for (unsigned i = 0; i < n; i++) ax[i] = ay[i] = 0;
  otv_inst *in = c->in;
  if (encode && in->partial) in->gvar_offs[gid] = (uint32_t)in->gvar_data.len;
  if (!c->gvar.p || gid >= c->gvar_glyphs) return OTV_E_OK;
  size_t a, b;
  /* in range: gvar offsets checked in otv_inst_glyf */
  if (c->gvar_long) {
    a = otv_peek_u32(c->gvar_offs + 4 * (size_t)gid);
    b = otv_peek_u32(c->gvar_offs + 4 * (size_t)gid + 4);
  } else {
    a = 2 * (size_t)otv_peek_u16(c->gvar_offs + 2 * (size_t)gid);
    b = 2 * (size_t)otv_peek_u16(c->gvar_offs + 2 * (size_t)gid + 2);
  }
  if (b <= a) return OTV_E_OK;
  otv_span d;
  if (a > SIZE_MAX - c->gvar_data || !otv_span_sub(c->gvar, c->gvar_data + a, b - a, &d))
    return OTV_FAIL(c->in->err, BAD_OFFSET, OTV_T_GVAR, c->gvar_data + a,
                    "glyph %u variation data (%zu bytes) past the end", gid, b - a);
  /* the simple-glyph contour ends plus the 4 phantom points as one-point contours */
  unsigned ec = 0;
  if (end_count) {
    for (unsigned i = 0; i < end_count; i++) c->ends[i] = ends[i];
    ec = end_count;
    for (unsigned k = 0; k < 4; k++) c->ends[ec++] = (uint16_t)(n - 4 + k);
  }
  otv_status st = otv_inst_tvs_sum(in, d, 0, OTV_T_GVAR, c->gvar_data + a, c->shared,
                                   c->shared_count, n, c->ox, c->oy, c->ends, ec, ax, ay);
  if (st || !encode || !in->partial) return st;
  /* a partial instance keeps the tuples of the axes left variable, for the same points; its
   * default outline is this one rounded (as encode_simple writes it) */
  if (otv_mem_reserve(in->al, (void **)&in->pnx, &in->pnx_cap, n, sizeof *in->pnx) ||
      otv_mem_reserve(in->al, (void **)&in->pny, &in->pny_cap, n, sizeof *in->pny))
    return OTV_FAIL(in->err, NOMEM, OTV_T_GVAR, 0, "coordinates");
  for (unsigned i = 0; i < n; i++) {
    in->pnx[i] = otv_inst_round16(c->ox[i] + ax[i]);
    in->pny[i] = otv_inst_round16(c->oy[i] + ay[i]);
  }
  st = otv_part_tvs(in, d, 0, OTV_T_GVAR, c->gvar_data + a, c->shared, c->shared_count, n, c->ox,
                    c->oy, in->pnx, in->pny, c->ends, ec, true, &in->gvar_data, in->gvar_data.len);
  if (!st && (in->gvar_data.len & 1)) otv_buf_u8(&in->gvar_data, 0);
  return st;
}

static void fb_add(gstate *s, double x, double y)
{
  if (!s->has_pts) {
    s->fb[0] = s->fb[2] = x;
    s->fb[1] = s->fb[3] = y;
    s->has_pts = true;
    return;
  }
  if (x < s->fb[0]) s->fb[0] = x;
  if (y < s->fb[1]) s->fb[1] = y;
  if (x > s->fb[2]) s->fb[2] = x;
  if (y > s->fb[3]) s->fb[3] = y;
}

static void encode_simple(gctx *c, uint32_t gid, otv_span gs, const int16_t bb[4]);
static otv_status encode_composite(gctx *c, uint32_t gid, otv_span gs, size_t goff,
                                   const int16_t bb[4]);

/* Pass 1 (encode set): one glyph's default coordinates, varied, then encoded at the end of the
 * output glyf: simple glyphs completely (their points are then dropped: the scratch is reused),
 * composites with a bounding box patched in later (their varied offsets are kept). Without
 * encode (flattening a transformed composite) a simple glyph's points are decoded again into
 * the scratch after the kept offsets. */
static otv_status load_glyph(gctx *c, uint32_t gid, bool encode)
{
  otv_inst *in = c->in;
  gstate *s = &c->g[gid];
  otv_span gs;
  size_t goff;
  if (!glyph_span(c, gid, &gs, &goff))
    return OTV_FAIL(in->err, BAD_OFFSET, OTV_T_LOCA, 0, "glyph %u data past the end of glyf", gid);
  int adv, lsb, vadv = 0, tsb = 0;
  h_metric(c, gid, false, &adv, &lsb);
  if (c->vmtx.p) h_metric(c, gid, true, &vadv, &tsb);
  int16_t hx_min = 0, hy_max = 0;
  int nc = 0;
  otv_rd r = otv_rd_init(gs, 0);
  if (gs.len) {
    nc = otv_rd_i16(&r);
    hx_min = otv_rd_i16(&r);
    otv_rd_skip(&r, 4);
    hy_max = otv_rd_i16(&r);
    if (!otv_rd_ok(&r)) return OTV_FAIL_RD(in->err, OTV_T_GLYF, goff, &r, "glyph header");
  }
  unsigned n = 0, end_count = 0;
  const uint8_t *ends_raw = NULL;
  s->at = (uint32_t)c->used;
  if (nc > 0) {
    s->kind = G_SIMPLE;
    end_count = (unsigned)nc;
    const uint8_t *e = otv_rd_take(&r, 2 * (size_t)nc);
    uint16_t ilen = otv_rd_u16(&r);
    otv_rd_skip(&r, ilen);
    if (!otv_rd_ok(&r)) return OTV_FAIL_RD(in->err, OTV_T_GLYF, goff, &r, "glyph %u contours");
    ends_raw = e;
    int prev = -1;
    for (int i = 0; i < nc; i++) {
      int v = otv_peek_u16(e + 2 * i);
      if (v <= prev)
        return OTV_FAIL(in->err, BAD_VALUE, OTV_T_GLYF, goff + 10 + 2 * (size_t)i,
                        "glyph %u: contour ends not increasing", gid);
      prev = v;
    }
    n = (unsigned)prev + 1;
  } else if (nc < 0) {
    s->kind = G_COMPOSITE;
    unsigned flags;
    do {
      flags = otv_rd_u16(&r);
      otv_rd_skip(&r, 2);
      otv_rd_skip(&r, (flags & C_ARG_WORDS) ? 4 : 2);
      otv_rd_skip(&r, (flags & C_SCALE) ? 2 : (flags & C_XY_SCALE) ? 4 : (flags & C_2X2) ? 8 : 0);
      if (!otv_rd_ok(&r)) return OTV_FAIL_RD(in->err, OTV_T_GLYF, goff, &r, "composite glyph");
      n++;
      if (n > 0xFFFF - 4)
        return OTV_FAIL(in->err, LIMIT, OTV_T_GLYF, goff, "glyph %u: too many components", gid);
    } while (flags & C_MORE);
  }
  unsigned np = n + 4;
  if (!grow_d2(in->al, &c->ox, &c->oy, NULL, &c->o_cap, np))
    return OTV_FAIL(in->err, NOMEM, OTV_T_GLYF, 0, "glyph scratch");
  if (otv_mem_reserve(in->al, (void **)&c->ends, &c->ends_cap, end_count + 4, sizeof(uint16_t)))
    return OTV_FAIL(in->err, NOMEM, OTV_T_GLYF, 0, "glyph scratch");
  if (reserve_coords(c, 2 * (size_t)np))
    return OTV_FAIL(in->err, NOMEM, OTV_T_GLYF, 0, "coordinates");
  /* decode into the coordinate arrays at `at`; deltas accumulate at `at + np` */
  double *X = c->x + s->at, *Y = c->y + s->at;
  uint8_t *ON = c->on + s->at;
  if (s->kind == G_SIMPLE) {
    /* flags */
    size_t fpos = r.pos;
    unsigned i = 0;
    otv_rd fr = r;
    while (i < n) {
      uint8_t f = otv_rd_u8(&fr);
      unsigned rep = (f & 0x08) ? otv_rd_u8(&fr) : 0;
      if (!otv_rd_ok(&fr)) return OTV_FAIL_RD(in->err, OTV_T_GLYF, goff, &fr, "glyph flags");
      unsigned m = rep + 1 < n - i ? rep + 1 : n - i; /* a repeat past the count is cut */
      for (unsigned k = 0; k < m; k++) ON[i + k] = f;
      i += m;
    }
    (void)fpos;
    int v = 0;
    for (i = 0; i < n; i++) {
      uint8_t f = ON[i];
      if (f & 0x02)
        v += (f & 0x10) ? otv_rd_u8(&fr) : -(int)otv_rd_u8(&fr);
      else if (!(f & 0x10))
        v += otv_rd_i16(&fr);
      X[i] = v;
    }
    v = 0;
    for (i = 0; i < n; i++) {
      uint8_t f = ON[i];
      if (f & 0x04)
        v += (f & 0x20) ? otv_rd_u8(&fr) : -(int)otv_rd_u8(&fr);
      else if (!(f & 0x20))
        v += otv_rd_i16(&fr);
      Y[i] = v;
    }
    if (!otv_rd_ok(&fr)) return OTV_FAIL_RD(in->err, OTV_T_GLYF, goff, &fr, "glyph coordinates");
    for (i = 0; i < n; i++) ON[i] &= 0x01;
  } else if (s->kind == G_COMPOSITE) {
    otv_rd cr = otv_rd_init(gs, 10);
    for (unsigned i = 0; i < n; i++) {
      unsigned flags = otv_rd_u16(&cr);
      otv_rd_skip(&cr, 2);
      int a1, a2;
      if (flags & C_ARG_WORDS) {
        a1 = otv_rd_i16(&cr), a2 = otv_rd_i16(&cr);
      } else {
        a1 = (int8_t)otv_rd_u8(&cr), a2 = (int8_t)otv_rd_u8(&cr);
      }
      otv_rd_skip(&cr, (flags & C_SCALE) ? 2 : (flags & C_XY_SCALE) ? 4 : (flags & C_2X2) ? 8 : 0);
      /* anchored components have no offset: their gvar "point" is (0, 0) and is ignored */
      X[i] = (flags & C_ARGS_XY) ? a1 : 0;
      Y[i] = (flags & C_ARGS_XY) ? a2 : 0;
      ON[i] = 0;
    }
  }
  /* phantoms (fontTools' _getPhantomPoints: from the glyph header's xMin / yMax) */
  double lsx = (double)hx_min - lsb;
  X[n] = lsx, Y[n] = 0;
  X[n + 1] = lsx + adv, Y[n + 1] = 0;
  double top = c->vmtx.p ? (double)tsb + hy_max : 0, bot = c->vmtx.p ? top - vadv : 0;
  X[n + 2] = 0, Y[n + 2] = top;
  X[n + 3] = 0, Y[n + 3] = bot;
  for (unsigned i = 0; i < np; i++) c->ox[i] = X[i], c->oy[i] = Y[i];
  double *ax = X + np, *ay = Y + np;
  /* contour ends as host values */
  if (otv_mem_reserve(in->al, (void **)&c->ends, &c->ends_cap, 2 * (end_count + 4),
                      sizeof(uint16_t)))
    return OTV_FAIL(in->err, NOMEM, OTV_T_GLYF, 0, "glyph scratch");
  uint16_t *host_ends = c->ends + end_count + 4;
  for (unsigned i = 0; i < end_count; i++) host_ends[i] = otv_peek_u16(ends_raw + 2 * i);
  otv_status st =
      apply_gvar(c, gid, np, host_ends, s->kind == G_SIMPLE ? end_count : 0, ax, ay, encode);
  if (st) return st;
  for (unsigned i = 0; i < np; i++) {
    X[i] += ax[i];
    Y[i] += ay[i];
  }
  for (unsigned k = 0; k < 4; k++) s->ph[k] = k < 2 ? X[n + k] : Y[n + k];
  s->n = (uint16_t)n;
  s->has_pts = false;
  if (s->kind == G_COMPOSITE) c->used += n; /* offsets are kept for pass 2 */
  if (s->kind == G_SIMPLE) {
    for (unsigned i = 0; i < n; i++) fb_add(s, X[i], Y[i]);
    s->flat_pts = n;
    s->flat_contours = end_count;
    s->state = 2;
  }
  if (!encode) return OTV_E_OK;
  c->offs[gid] = (uint32_t)in->glyf.len;
  int16_t bb[4] = {0, 0, 0, 0};
  if (s->has_pts)
    for (int k = 0; k < 4; k++) bb[k] = (int16_t)otv_inst_round16(s->fb[k]);
  if (s->kind == G_SIMPLE)
    encode_simple(c, gid, gs, bb);
  else if (s->kind == G_COMPOSITE) {
    otv_status st2 = encode_composite(c, gid, gs, goff, bb);
    if (st2) return st2;
  }
  if (in->glyf.len & 1) otv_buf_u8(&in->glyf, 0); /* even offsets for the short loca */
  return OTV_E_OK;
}

/* Component records of a composite, decoded. */
typedef struct comp {
  unsigned flags;
  uint32_t gid;
  int a1, a2;
  double m[4]; /* xx, xy(scale01), yx(scale10), yy */
  bool transform;
  const uint8_t *raw_transform;
  unsigned raw_transform_len;
} comp;

static bool read_comp(otv_rd *r, comp *k)
{
  k->flags = otv_rd_u16(r);
  k->gid = otv_rd_u16(r);
  if (k->flags & C_ARG_WORDS) {
    if (k->flags & C_ARGS_XY)
      k->a1 = otv_rd_i16(r), k->a2 = otv_rd_i16(r);
    else
      k->a1 = otv_rd_u16(r), k->a2 = otv_rd_u16(r);
  } else {
    if (k->flags & C_ARGS_XY)
      k->a1 = (int8_t)otv_rd_u8(r), k->a2 = (int8_t)otv_rd_u8(r);
    else
      k->a1 = otv_rd_u8(r), k->a2 = otv_rd_u8(r);
  }
  k->transform = true;
  k->m[1] = k->m[2] = 0;
  k->raw_transform = r->s.p + r->pos;
  if (k->flags & C_SCALE) {
    k->raw_transform_len = 2;
    k->m[0] = k->m[3] = otv_rd_i16(r) / 16384.0;
  } else if (k->flags & C_XY_SCALE) {
    k->raw_transform_len = 4;
    k->m[0] = otv_rd_i16(r) / 16384.0;
    k->m[3] = otv_rd_i16(r) / 16384.0;
  } else if (k->flags & C_2X2) {
    k->raw_transform_len = 8;
    k->m[0] = otv_rd_i16(r) / 16384.0;
    k->m[1] = otv_rd_i16(r) / 16384.0;
    k->m[2] = otv_rd_i16(r) / 16384.0;
    k->m[3] = otv_rd_i16(r) / 16384.0;
  } else {
    k->raw_transform_len = 0;
    k->transform = false;
    k->m[0] = k->m[3] = 1;
  }
  return otv_rd_ok(r);
}

static otv_status composite_done(gctx *c, uint32_t gid, unsigned depth);

/* Append the flattened unrounded points of gid to (fx, fy) from index *np. */
static otv_status flatten(gctx *c, uint32_t gid, unsigned depth, size_t *np)
{
  otv_inst *in = c->in;
  if (depth > OTV_MAX_COMPONENT_DEPTH)
    return OTV_FAIL(in->err, LIMIT, OTV_T_GLYF, 0, "glyph %u: components nested too deep", gid);
  gstate *s = &c->g[gid];
  if (s->kind == G_SIMPLE) {
    otv_status st0 = load_glyph(c, gid, false); /* its points, into the scratch */
    if (st0) return st0;
    if (!grow_d2(in->al, &c->fx, &c->fy, NULL, &c->f_cap, *np + s->n))
      return OTV_FAIL(in->err, NOMEM, OTV_T_GLYF, 0, "flatten");
    memcpy(c->fx + *np, c->x + s->at, s->n * sizeof(double));
    memcpy(c->fy + *np, c->y + s->at, s->n * sizeof(double));
    *np += s->n;
    return OTV_E_OK;
  }
  if (s->kind != G_COMPOSITE) return OTV_E_OK;
  otv_span gs;
  size_t goff;
  glyph_span(c, gid, &gs, &goff);
  otv_rd r = otv_rd_init(gs, 10);
  size_t base = *np;
  for (unsigned i = 0; i < s->n; i++) {
    comp k;
    if (!read_comp(&r, &k)) return OTV_FAIL_RD(in->err, OTV_T_GLYF, goff, &r, "component");
    if (k.gid >= in->glyph_count)
      return OTV_FAIL(in->err, BAD_VALUE, OTV_T_GLYF, goff, "glyph %u: component %u", gid, k.gid);
    size_t from = *np;
    otv_status st = flatten(c, k.gid, depth + 1, np);
    if (st) return st;
    double *fx = c->fx, *fy = c->fy;
    double ox = c->x[s->at + i], oy = c->y[s->at + i];
    if (!(k.flags & C_ARGS_XY)) {
      for (size_t p = from; p < *np; p++) {
        double x = fx[p], y = fy[p];
        fx[p] = x * k.m[0] + y * k.m[2];
        fy[p] = x * k.m[1] + y * k.m[3];
      }
      size_t p1 = base + (size_t)k.a1, p2 = from + (size_t)k.a2;
      if (p1 >= from || p2 >= *np)
        return OTV_FAIL(in->err, BAD_VALUE, OTV_T_GLYF, goff, "glyph %u: anchor point out of range",
                        gid);
      double mx = fx[p1] - fx[p2], my = fy[p1] - fy[p2];
      for (size_t p = from; p < *np; p++) fx[p] += mx, fy[p] += my;
    } else if (!k.transform) {
      for (size_t p = from; p < *np; p++) fx[p] += ox, fy[p] += oy;
    } else if (k.flags & C_SCALED_OFF) {
      /* the Apple way: move, then scale */
      for (size_t p = from; p < *np; p++) {
        double x = fx[p] + ox, y = fy[p] + oy;
        fx[p] = x * k.m[0] + y * k.m[2];
        fy[p] = x * k.m[1] + y * k.m[3];
      }
    } else {
      for (size_t p = from; p < *np; p++) {
        double x = fx[p], y = fy[p];
        fx[p] = x * k.m[0] + y * k.m[2] + ox;
        fy[p] = x * k.m[1] + y * k.m[3] + oy;
      }
    }
  }
  return OTV_E_OK;
}

/* Pass 2: bounding box, flattened counts and depth of a composite. */
static otv_status composite_done(gctx *c, uint32_t gid, unsigned depth)
{
  otv_inst *in = c->in;
  gstate *s = &c->g[gid];
  if (s->kind != G_COMPOSITE || s->state == 2) return OTV_E_OK;
  if (s->state == 1 || depth > OTV_MAX_COMPONENT_DEPTH)
    return OTV_FAIL(in->err, BAD_VALUE, OTV_T_GLYF, 0, "glyph %u: recursive or too deep components",
                    gid);
  s->state = 1;
  otv_span gs;
  size_t goff;
  glyph_span(c, gid, &gs, &goff);
  otv_rd r = otv_rd_init(gs, 10);
  bool simple_path = true;
  s->has_pts = false;
  s->flat_pts = s->flat_contours = 0;
  s->depth = 1;
  for (unsigned i = 0; i < s->n; i++) {
    comp k;
    if (!read_comp(&r, &k)) return OTV_FAIL_RD(in->err, OTV_T_GLYF, goff, &r, "component");
    if (k.gid >= in->glyph_count)
      return OTV_FAIL(in->err, BAD_VALUE, OTV_T_GLYF, goff, "glyph %u: component glyph %u of %u",
                      gid, k.gid, in->glyph_count);
    gstate *cs = &c->g[k.gid];
    otv_status st = composite_done(c, k.gid, depth + 1);
    if (st) return st;
    s->flat_pts += cs->flat_pts;
    s->flat_contours += cs->flat_contours;
    if (cs->kind == G_COMPOSITE && cs->depth + 1u > s->depth) s->depth = (uint16_t)(cs->depth + 1);
    if (k.transform || !(k.flags & C_ARGS_XY)) simple_path = false;
    if (simple_path && cs->has_pts) {
      double ox = c->x[s->at + i], oy = c->y[s->at + i];
      fb_add(s, cs->fb[0] + ox, cs->fb[1] + oy);
      fb_add(s, cs->fb[2] + ox, cs->fb[3] + oy);
    }
  }
  if (!simple_path) {
    size_t np = 0;
    otv_status st = flatten(c, gid, depth, &np);
    if (st) return st;
    s->has_pts = false;
    for (size_t p = 0; p < np; p++) fb_add(s, c->fx[p], c->fy[p]);
  }
  s->state = 2;
  return OTV_E_OK;
}

/* Pass 3: encode one simple glyph. */
static void encode_simple(gctx *c, uint32_t gid, otv_span gs, const int16_t bb[4])
{
  otv_inst *in = c->in;
  otv_buf *b = &in->glyf;
  gstate *s = &c->g[gid];
  int nc = otv_peek_i16(gs.p); /* in range: header read in load_glyph */
  otv_buf_u16(b, (uint16_t)nc);
  for (int k = 0; k < 4; k++) otv_buf_u16(b, (uint16_t)bb[k]);
  /* endPtsOfContours, instructionLength and instructions are copied as they are */
  size_t ilen_at = 10 + 2 * (size_t)nc;
  size_t ilen = otv_peek_u16(gs.p + ilen_at);
  otv_buf_bytes(b, gs.p + 10, 2 * (size_t)nc + 2 + ilen);
  unsigned n = s->n;
  const double *X = c->x + s->at, *Y = c->y + s->at;
  const uint8_t *ON = c->on + s->at;
  if (!otv_buf_reserve(b, 5 * (size_t)n)) return;
  /* flags, then x bytes, then y bytes: build flags first with the deltas */
  size_t flag_at = b->len;
  /* every coordinate rounded once */
  if (otv_mem_reserve(in->al, (void **)&c->rxy, &c->rxy_cap, 2 * (size_t)n, sizeof *c->rxy)) {
    b->failed = true;
    return;
  }
  int32_t *R = c->rxy;
  for (unsigned i = 0; i < n; i++) {
    R[2 * i] = otv_inst_round16(X[i]);
    R[2 * i + 1] = otv_inst_round16(Y[i]);
  }
  /* at most 5 bytes per point: written directly */
  if (!otv_buf_reserve(b, 5 * (size_t)n)) return;
  uint8_t *w = b->p + b->len, *last_flag = NULL;
  int px = 0, py = 0;
  uint8_t last = 0;
  unsigned rep = 0;
  for (unsigned i = 0; i < n; i++) {
    int x = R[2 * i], y = R[2 * i + 1];
    int dx = x - px, dy = y - py;
    px = x, py = y;
    uint8_t f = ON[i] & 1;
    if (dx == 0)
      f |= 0x10;
    else if (dx >= -255 && dx <= 255)
      f |= (uint8_t)(0x02 | (dx > 0 ? 0x10 : 0));
    if (dy == 0)
      f |= 0x20;
    else if (dy >= -255 && dy <= 255)
      f |= (uint8_t)(0x04 | (dy > 0 ? 0x20 : 0));
    if (i == 0 && !(in->flags & OTV_INSTANCE_NO_OVERLAP_FLAGS)) f |= 0x40; /* OVERLAP_SIMPLE */
    if (i > 0 && f == last && rep < 255) {
      /* spec: REPEAT_FLAG, then the number of additional repeats */
      if (rep == 0) {
        *last_flag |= 0x08;
        *w++ = 1;
      } else {
        w[-1] = (uint8_t)(rep + 1);
      }
      rep++;
      continue;
    }
    last_flag = w;
    *w++ = f;
    last = f;
    rep = 0;
  }
  (void)flag_at;
  px = 0;
  for (unsigned i = 0; i < n; i++) {
    int x = R[2 * i], dx = x - px;
    px = x;
    if (dx == 0) continue;
    if (dx >= -255 && dx <= 255)
      *w++ = (uint8_t)(dx < 0 ? -dx : dx);
    else
      otv_put_u16(w, (uint16_t)(int16_t)dx), w += 2;
  }
  py = 0;
  for (unsigned i = 0; i < n; i++) {
    int y = R[2 * i + 1], dy = y - py;
    py = y;
    if (dy == 0) continue;
    if (dy >= -255 && dy <= 255)
      *w++ = (uint8_t)(dy < 0 ? -dy : dy);
    else
      otv_put_u16(w, (uint16_t)(int16_t)dy), w += 2;
  }
  b->len = (size_t)(w - b->p);
}

static otv_status encode_composite(gctx *c, uint32_t gid, otv_span gs, size_t goff,
                                   const int16_t bb[4])
{
  otv_inst *in = c->in;
  otv_buf *b = &in->glyf;
  gstate *s = &c->g[gid];
  otv_buf_u16(b, 0xFFFF);
  for (int k = 0; k < 4; k++) otv_buf_u16(b, (uint16_t)bb[k]);
  otv_rd r = otv_rd_init(gs, 10);
  bool instr = false;
  for (unsigned i = 0; i < s->n; i++) {
    comp k;
    if (!read_comp(&r, &k)) return OTV_FAIL_RD(in->err, OTV_T_GLYF, goff, &r, "component");
    if (k.flags & C_INSTR) instr = true;
    unsigned f = k.flags & (C_ROUND_XY | C_MY_METRICS | C_SCALED_OFF | C_UNSCALED_OFF | C_OVERLAP |
                            C_SCALE | C_XY_SCALE | C_2X2);
    f |= k.flags & 0x0010u; /* bit 4 (Apple's NON_OVERLAPPING) kept, as fontTools does */
    if (i + 1 < s->n) f |= C_MORE;
    if (i == 0 && !(in->flags & OTV_INSTANCE_NO_OVERLAP_FLAGS)) f |= C_OVERLAP;
    int a1, a2;
    if (k.flags & C_ARGS_XY) {
      f |= C_ARGS_XY;
      a1 = otv_inst_round16(c->x[s->at + i]);
      a2 = otv_inst_round16(c->y[s->at + i]);
      if (a1 < -128 || a1 > 127 || a2 < -128 || a2 > 127) f |= C_ARG_WORDS;
    } else {
      a1 = k.a1, a2 = k.a2;
      if (a1 > 255 || a2 > 255) f |= C_ARG_WORDS;
    }
    size_t flags_at = b->len;
    otv_buf_u16(b, (uint16_t)f);
    otv_buf_u16(b, (uint16_t)k.gid);
    if (f & C_ARG_WORDS) {
      otv_buf_u16(b, (uint16_t)a1);
      otv_buf_u16(b, (uint16_t)a2);
    } else {
      otv_buf_u8(b, (uint8_t)a1);
      otv_buf_u8(b, (uint8_t)a2);
    }
    otv_buf_bytes(b, k.raw_transform, k.raw_transform_len);
    if (i + 1 == s->n && instr) {
      otv_buf_put_u16(b, flags_at, (uint16_t)(f | C_INSTR));
    }
  }
  if (instr) {
    uint16_t ilen = otv_rd_u16(&r);
    const uint8_t *ip = otv_rd_take(&r, ilen);
    if (!ip) return OTV_FAIL_RD(in->err, OTV_T_GLYF, goff, &r, "composite instructions");
    otv_buf_u16(b, ilen);
    otv_buf_bytes(b, ip, ilen);
  }
  return OTV_E_OK;
}

static otv_status read_gvar(gctx *c)
{
  otv_inst *in = c->in;
  c->gvar = otv_face_span(in->face, OTV_T_GVAR);
  if (!c->gvar.p) return OTV_E_OK;
  otv_rd r = otv_rd_init(c->gvar, 0);
  uint16_t major = otv_rd_u16(&r);
  otv_rd_skip(&r, 2);
  uint16_t ac = otv_rd_u16(&r);
  c->shared_count = otv_rd_u16(&r);
  uint32_t shared_off = otv_rd_u32(&r);
  c->gvar_glyphs = otv_rd_u16(&r);
  uint16_t flags = otv_rd_u16(&r);
  c->gvar_data = otv_rd_u32(&r);
  if (!otv_rd_ok(&r)) return OTV_FAIL_RD(in->err, OTV_T_GVAR, 0, &r, "gvar header");
  if (major != 1) return OTV_FAIL(in->err, UNSUPPORTED, OTV_T_GVAR, 0, "gvar version %u", major);
  if (ac != in->axis_count)
    return OTV_FAIL(in->err, BAD_VALUE, OTV_T_GVAR, 4, "axisCount %u, fvar has %u", ac,
                    in->axis_count);
  c->gvar_long = flags & 1;
  otv_span sp;
  if (!otv_span_array(c->gvar, shared_off, (size_t)c->shared_count * ac, 2, &sp))
    return OTV_FAIL(in->err, BAD_OFFSET, OTV_T_GVAR, 8, "shared tuples");
  c->shared = sp.p;
  if (!otv_span_array(c->gvar, 20, (size_t)c->gvar_glyphs + 1, c->gvar_long ? 4 : 2, &sp))
    return OTV_FAIL(in->err, TRUNCATED, OTV_T_GVAR, 20, "glyph variation data offsets");
  c->gvar_offs = sp.p;
  if (c->gvar_glyphs > in->glyph_count) c->gvar_glyphs = (uint16_t)in->glyph_count;
  /* scalars of every shared tuple with its implied region (the common case), once */
  otv_tvs_scratch *sc = &in->tvs;
  unsigned n = c->shared_count, acn = ac ? ac : 1;
  sc->sk = otv_mem_alloc(in->al, (n ? n : 1) * sizeof *sc->sk);
  if (!sc->sk) return OTV_FAIL(in->err, NOMEM, OTV_T_GVAR, 0, "shared tuple scalars");
  sc->sn = n; /* the sizes the blocks are freed with */
  sc->ss = otv_mem_alloc(in->al, (size_t)(n ? n : 1) * acn * sizeof *sc->ss);
  if (!sc->ss) return OTV_FAIL(in->err, NOMEM, OTV_T_GVAR, 0, "shared tuple scalars");
  sc->shared_src = c->shared;
  int16_t pk[OTV_MAX_AXES], st[OTV_MAX_AXES], en[OTV_MAX_AXES];
  for (unsigned i = 0; i < n; i++) {
    for (unsigned a = 0; a < ac; a++) {
      /* in range: shared tuples checked above */
      pk[a] = otv_peek_i16(c->shared + 2 * ((size_t)i * ac + a));
      st[a] = pk[a] < 0 ? pk[a] : 0;
      en[a] = pk[a] > 0 ? pk[a] : 0;
    }
    sc->sk[i] = otv_inst_region_scalars(in, st, pk, en, sc->ss + (size_t)i * acn);
  }
  return OTV_E_OK;
}

static otv_status write_metrics(otv_inst *in, otv_buf *b, const uint16_t *adv, const int16_t *sb,
                                uint16_t *num)
{
  uint32_t n = in->glyph_count, keep = n;
  while (keep > 1 && adv[keep - 1] == adv[keep - 2]) keep--;
  if (n == 0) keep = 0;
  *num = (uint16_t)keep;
  for (uint32_t i = 0; i < n; i++) {
    if (i < keep) otv_buf_u16(b, adv[i]);
    otv_buf_u16(b, (uint16_t)sb[i]);
  }
  return b->failed ? OTV_E_NOMEM : OTV_E_OK;
}

static void gctx_free(gctx *c)
{
  const otv_alloc *al = c->in->al;
  if (c->g) otv_mem_free(al, c->g, (c->in->glyph_count ? c->in->glyph_count : 1) * sizeof *c->g);
  if (c->x) otv_mem_free(al, c->x, c->cap * sizeof(double));
  if (c->y) otv_mem_free(al, c->y, c->cap * sizeof(double));
  if (c->on) otv_mem_free(al, c->on, c->cap);
  if (c->ox) otv_mem_free(al, c->ox, c->o_cap * sizeof(double));
  if (c->oy) otv_mem_free(al, c->oy, c->o_cap * sizeof(double));
  if (c->ends) otv_mem_free(al, c->ends, c->ends_cap * sizeof(uint16_t));
  if (c->fx) otv_mem_free(al, c->fx, c->f_cap * sizeof(double));
  if (c->fy) otv_mem_free(al, c->fy, c->f_cap * sizeof(double));
  if (c->offs) otv_mem_free(al, c->offs, ((size_t)c->in->glyph_count + 1) * sizeof *c->offs);
  if (c->rxy) otv_mem_free(al, c->rxy, c->rxy_cap * sizeof *c->rxy);
}

otv_status otv_inst_glyf(otv_inst *in)
{
  const otv_face *f = in->face;
  gctx c;
  memset(&c, 0, sizeof c);
  c.in = in;
  c.glyf = otv_face_span(f, OTV_T_GLYF);
  c.loca = otv_face_span(f, OTV_T_LOCA);
  c.hmtx = otv_face_span(f, OTV_T_HMTX);
  c.vmtx = otv_face_span(f, OTV_T_VMTX);
  otv_span hhea = otv_face_span(f, OTV_T_HHEA), vhea = otv_face_span(f, OTV_T_VHEA);
  uint32_t n = in->glyph_count;
  if (!c.glyf.p || !c.loca.p) return OTV_FAIL(in->err, NO_TABLE, OTV_T_GLYF, 0, "no glyf/loca");
  c.loca_long = f->index_to_loc_format == 1;
  otv_span sp;
  if (!otv_span_array(c.loca, 0, (size_t)n + 1, c.loca_long ? 4 : 2, &sp))
    return OTV_FAIL(in->err, TRUNCATED, OTV_T_LOCA, 0, "loca shorter than %u glyphs", n);
  if (!hhea.p || hhea.len < 36 || !c.hmtx.p)
    return OTV_FAIL(in->err, NO_TABLE, OTV_T_HHEA, 0, "no hhea/hmtx");
  c.nhm = otv_peek_u16(hhea.p + 34); /* in range: hhea.len >= 36 */
  if (c.nhm > n) c.nhm = n;
  if (c.nhm == 0 && n) return OTV_FAIL(in->err, BAD_VALUE, OTV_T_HHEA, 34, "numberOfHMetrics 0");
  if (!otv_span_array(c.hmtx, 0, c.nhm, 4, &sp))
    return OTV_FAIL(in->err, TRUNCATED, OTV_T_HMTX, 0, "hmtx shorter than %u metrics", c.nhm);
  if (c.vmtx.p && vhea.p && vhea.len >= 36) {
    c.nvm = otv_peek_u16(vhea.p + 34);
    if (c.nvm > n) c.nvm = n;
    if (c.nvm == 0 || !otv_span_array(c.vmtx, 0, c.nvm, 4, &sp)) c.vmtx = (otv_span){NULL, 0};
  } else {
    c.vmtx = (otv_span){NULL, 0};
  }
  in->has_vmtx = c.vmtx.p != NULL;
  otv_status st = read_gvar(&c);
  if (st) return st;
  c.g = otv_mem_calloc(in->al, n ? n : 1, sizeof *c.g);
  in->adv_w = otv_mem_calloc(in->al, n ? n : 1, sizeof *in->adv_w);
  in->lsb = otv_mem_calloc(in->al, n ? n : 1, sizeof *in->lsb);
  in->bbox = otv_mem_calloc(in->al, n ? n : 1, sizeof *in->bbox);
  in->has_outline = otv_mem_calloc(in->al, n ? n : 1, 1);
  if (in->has_vmtx) {
    in->adv_h = otv_mem_calloc(in->al, n ? n : 1, sizeof *in->adv_h);
    in->tsb = otv_mem_calloc(in->al, n ? n : 1, sizeof *in->tsb);
  }
  if (!c.g || !in->adv_w || !in->lsb || !in->bbox || !in->has_outline ||
      (in->has_vmtx && (!in->adv_h || !in->tsb))) {
    st = OTV_FAIL(in->err, NOMEM, OTV_T_GLYF, 0, "glyph table");
    goto done;
  }
  size_t est = c.glyf.len + c.glyf.len / 8 + 64;
  c.offs = otv_mem_alloc(in->al, ((size_t)n + 1) * sizeof *c.offs);
  if (!c.offs || !otv_buf_reserve(&in->glyf, est)) {
    st = OTV_FAIL(in->err, NOMEM, OTV_T_GLYF, 0, "glyf buffer");
    goto done;
  }
  for (uint32_t gid = 0; gid < n; gid++)
    if ((st = load_glyph(&c, gid, true))) goto done;
  for (uint32_t gid = 0; gid < n; gid++)
    if ((st = composite_done(&c, gid, 0))) goto done;

  /* metrics and encoding */
  in->max_points = in->max_contours = in->max_comp_points = in->max_comp_contours = 0;
  in->max_comp_elements = in->max_comp_depth = 0;
  uint32_t *offs = c.offs;
  for (uint32_t gid = 0; gid < n; gid++) {
    gstate *s = &c.g[gid];
    int16_t bb[4] = {0, 0, 0, 0};
    if (s->has_pts)
      for (int k = 0; k < 4; k++) bb[k] = (int16_t)otv_inst_round16(s->fb[k]);
    memcpy(in->bbox[gid], bb, sizeof bb);
    in->has_outline[gid] = s->kind != G_EMPTY;
    double aw = floor(s->ph[1] - s->ph[0] + 0.5);
    in->adv_w[gid] = (uint16_t)(aw < 0 ? 0 : aw > 65535 ? 65535 : aw);
    in->lsb[gid] = (int16_t)otv_inst_round16(bb[0] - s->ph[0]);
    if (in->has_vmtx) {
      double ah = floor(s->ph[2] - s->ph[3] + 0.5);
      in->adv_h[gid] = (uint16_t)(ah < 0 ? 0 : ah > 65535 ? 65535 : ah);
      in->tsb[gid] = (int16_t)otv_inst_round16(s->ph[2] - bb[3]);
    }
    if (s->kind == G_SIMPLE) {
      if (s->n > in->max_points) in->max_points = s->n;
      if (s->flat_contours > in->max_contours) in->max_contours = s->flat_contours;
    } else if (s->kind == G_COMPOSITE) {
      if (s->flat_pts > in->max_comp_points) in->max_comp_points = s->flat_pts;
      if (s->flat_contours > in->max_comp_contours) in->max_comp_contours = s->flat_contours;
      if (s->n > in->max_comp_elements) in->max_comp_elements = s->n;
      if (s->depth > in->max_comp_depth) in->max_comp_depth = s->depth;
    }
    if (s->kind == G_COMPOSITE) /* its bounding box was not known when it was encoded */
      for (int k = 0; k < 4; k++)
        otv_buf_put_u16(&in->glyf, offs[gid] + 2 + 2 * (size_t)k, (uint16_t)bb[k]);
  }
  offs[n] = (uint32_t)in->glyf.len;
  if (in->glyf.len / 2 <= 0xFFFF) {
    in->loca_format = 0;
    for (uint32_t i = 0; i <= n; i++) otv_buf_u16(&in->loca, (uint16_t)(offs[i] / 2));
  } else {
    in->loca_format = 1;
    for (uint32_t i = 0; i <= n; i++) otv_buf_u32(&in->loca, offs[i]);
  }
  if (in->glyf.failed || in->loca.failed) {
    st = OTV_FAIL(in->err, NOMEM, OTV_T_GLYF, 0, "glyf buffer");
    goto done;
  }
  if ((st = write_metrics(in, &in->hmtx, in->adv_w, in->lsb, &in->num_h_metrics))) {
    st = OTV_FAIL(in->err, NOMEM, OTV_T_HMTX, 0, "hmtx buffer");
    goto done;
  }
  if (in->has_vmtx && (st = write_metrics(in, &in->vmtx, in->adv_h, in->tsb, &in->num_v_metrics))) {
    st = OTV_FAIL(in->err, NOMEM, OTV_T_VMTX, 0, "vmtx buffer");
    goto done;
  }
done:
  gctx_free(&c);
  return st;
}

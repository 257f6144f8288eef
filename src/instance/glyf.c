/*
 * instance/glyf.c - glyf/loca and hmtx/vmtx of a static instance (and the gvar glyph data of a
 * partial one).
 *
 * Spec: glyf ("Simple glyph description", "Composite glyph description"), loca, gvar (phantom
 * points), hmtx/vmtx. Reads the glyphs with the library's decoders (glyf.h: loca, composite
 * records, a simple glyph's default outline; hmtx.h; gvar.h and tuple.h through
 * instance/tvs.c).
 *
 * The result follows fontTools' varLib.instancer (the reference static instancer) exactly where
 * the spec leaves a choice: every tuple's deltas are scaled in double, axis by axis in tag
 * order; inferred deltas (IUP) are computed on the scaled deltas of each tuple; the tuples are
 * summed in order and added to the default coordinates; a coordinate is then rounded with
 * floor(x + 0.5). Bounding boxes are those of the unrounded coordinates, rounded (for a simple
 * glyph this equals the box of the rounded points); advance = round(right - left phantom x),
 * lsb = round(xMin - left phantom x). Composites stay composite with rounded varied offsets.
 */
#include "instance/inst.h"

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

/* ---- glyf ---- */

enum { G_EMPTY = 0, G_SIMPLE = 1, G_COMPOSITE = 2 };

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
  const otv_glyf *glyf;    /* the face's glyf, loca and gvar */
  const otv_mtx *h, *v;    /* the face's hmtx and vmtx (v->present false: no vmtx) */
  otv_glyf_loc loader;     /* decodes a simple glyph's default outline (glyf.h) */
  otv_coords at;           /* what the loader is bound to (it reads no coordinates) */
  int32_t q[OTV_MAX_AXES]; /* at.q: the pinned coordinates in 16.16 */
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
  /* partial instances: a glyph's new default outline (rounded), what IUP infers from there */
  double *new_x, *new_y;
  size_t new_x_cap, new_y_cap;
} gctx;

/* Glyph gid's data in glyf (empty for an empty glyph) and its offset there. */
static bool glyph_span(const gctx *c, uint32_t gid, otv_span *out, size_t *off)
{
  size_t a, b;
  bool ok = otv_loca_get(c->glyf, gid, &a, &b);
  *off = a;
  out->p = c->glyf->glyf.p;
  out->len = 0;
  if (!ok) return false;
  out->p += a; /* in range: otv_loca_get checked a <= b <= glyf.len */
  out->len = b - a;
  return true;
}

/* A glyph's advance and side bearing in hmtx (vert: vmtx); 0 and 0 without the table. */
static void h_metric(const gctx *c, uint32_t gid, bool vert, int *adv, int *sb)
{
  const otv_mtx *m = vert ? c->v : c->h;
  *adv = 0, *sb = 0;
  if (!m->present) return;
  *adv = (int)otv_mtx_advance(m, gid);
  *sb = otv_mtx_side(m, gid);
}

static otv_status reserve_coords(gctx *c, size_t extra)
{
  return grow_d2(c->in->al, &c->x, &c->y, &c->on, &c->cap, c->used + extra) ? OTV_E_OK
                                                                            : OTV_E_NOMEM;
}

/* Apply gvar of gid to (ox, oy)[n] (phantoms last): the deltas summed into ax/ay; a partial
 * instance also gets the glyph's new variation data (encode). */
static otv_status apply_gvar(gctx *c, uint32_t gid, unsigned n, const uint16_t *ends,
                             unsigned end_count, double *ax, double *ay, bool encode)
{
  for (unsigned i = 0; i < n; i++) ax[i] = ay[i] = 0;
  otv_inst *in = c->in;
  bool partial = in->pin.partial;
  if (encode && partial) in->gvar_offs[gid] = (uint32_t)in->gvar_data.len;
  const otv_gvar *gv = &c->glyf->gvar;
  otv_span d;
  size_t base;
  int k = otv_gvar_glyph_data(gv, gid, &d, &base);
  if (k == 0) return OTV_E_OK;
  if (k < 0)
    return OTV_FAIL(in->err, BAD_OFFSET, OTV_T_GVAR, base,
                    "glyph %u: variation data offsets out of order or past the table end", gid);
  /* the simple-glyph contour ends plus the 4 phantom points as one-point contours */
  unsigned ec = 0;
  if (end_count) {
    for (unsigned i = 0; i < end_count; i++) c->ends[i] = ends[i];
    ec = end_count;
    for (unsigned j = 0; j < 4; j++) c->ends[ec++] = (uint16_t)(n - 4 + j);
  }
  otv_tvs_in st_in = {d,     0,     OTV_T_GVAR, base, gv->shared_tuples, gv->shared_tuple_count, n,
                      c->ox, c->oy, c->ends,    ec};
  otv_status st = otv_tvs_sum(&in->cx, &in->tvs, &st_in, ax, ay);
  if (st || !encode || !partial) return st;
  /* a partial instance keeps the tuples of the axes left variable, for the same points; its
   * default outline is this one rounded (as encode_simple writes it) */
  if (otv_mem_reserve(in->al, (void **)&c->new_x, &c->new_x_cap, n, sizeof *c->new_x) ||
      otv_mem_reserve(in->al, (void **)&c->new_y, &c->new_y_cap, n, sizeof *c->new_y))
    return OTV_FAIL(in->err, NOMEM, OTV_T_GVAR, 0, "coordinates");
  for (unsigned i = 0; i < n; i++) {
    c->new_x[i] = otv_inst_round16(c->ox[i] + ax[i]);
    c->new_y[i] = otv_inst_round16(c->oy[i] + ay[i]);
  }
  st = otv_tvs_partial(&in->cx, &in->tvs, &st_in, c->new_x, c->new_y, true, &in->gvar_data,
                       in->gvar_data.len);
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
  if (c->v->present) h_metric(c, gid, true, &vadv, &tsb);
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
  const uint16_t *loaded_ends = NULL;
  s->at = (uint32_t)c->used;
  otv_glyf_loc *ld = &c->loader;
  if (nc > 0) {
    /* the default outline, decoded as it is for drawing */
    s->kind = G_SIMPLE;
    otv_status st0 = otv_glyf_load_default(ld, gid);
    if (st0) return st0;
    n = ld->n_pts - 4;
    end_count = ld->n_ends;
    loaded_ends = ld->ends;
  } else if (nc < 0) {
    s->kind = G_COMPOSITE;
    otv_rd cr = otv_rd_init(gs, 10);
    otv_glyf_comp k;
    do {
      size_t at = cr.pos;
      if (!otv_glyf_read_comp(&cr, &k))
        return OTV_FAIL_RD(in->err, OTV_T_GLYF, goff, &cr, "composite glyph");
      /* checked before the glyph's gvar data is read, as the drawing code does */
      if (k.gid >= in->glyph_count)
        return OTV_FAIL(in->err, BAD_VALUE, OTV_T_GLYF, goff + at + 2,
                        "glyph %u: component glyph %u of %u", gid, k.gid, in->glyph_count);
      n++;
      if (n > 0xFFFF - 4)
        return OTV_FAIL(in->err, LIMIT, OTV_T_GLYF, goff, "glyph %u: too many components", gid);
    } while (k.flags & OTV_MORE_COMPONENTS);
  }
  unsigned np = n + 4;
  if (!grow_d2(in->al, &c->ox, &c->oy, NULL, &c->o_cap, np))
    return OTV_FAIL(in->err, NOMEM, OTV_T_GLYF, 0, "glyph scratch");
  if (otv_mem_reserve(in->al, (void **)&c->ends, &c->ends_cap, 2 * (end_count + 4),
                      sizeof(uint16_t)))
    return OTV_FAIL(in->err, NOMEM, OTV_T_GLYF, 0, "glyph scratch");
  if (reserve_coords(c, 2 * (size_t)np))
    return OTV_FAIL(in->err, NOMEM, OTV_T_GLYF, 0, "coordinates");
  /* the coordinate arrays at `at`; deltas accumulate at `at + np` */
  double *X = c->x + s->at, *Y = c->y + s->at;
  uint8_t *ON = c->on + s->at;
  if (s->kind == G_SIMPLE) {
    for (unsigned i = 0; i < n; i++) {
      X[i] = ld->pts[i].x; /* exact: the loader's floats hold 16-bit sums */
      Y[i] = ld->pts[i].y;
      ON[i] = ld->tags[i] & OTV_ON_CURVE_POINT;
    }
  } else if (s->kind == G_COMPOSITE) {
    otv_rd cr = otv_rd_init(gs, 10);
    for (unsigned i = 0; i < n; i++) {
      otv_glyf_comp k;
      otv_glyf_read_comp(&cr, &k); /* read above */
      /* anchored components have no offset: their gvar "point" is (0, 0) and is ignored */
      bool xy = (k.flags & OTV_ARGS_ARE_XY_VALUES) != 0;
      X[i] = xy ? k.arg1 : 0;
      Y[i] = xy ? k.arg2 : 0;
      ON[i] = 0;
    }
  }
  /* phantoms (fontTools' _getPhantomPoints: from the glyph header's xMin / yMax) */
  double lsx = (double)hx_min - lsb;
  X[n] = lsx, Y[n] = 0;
  X[n + 1] = lsx + adv, Y[n + 1] = 0;
  double top = c->v->present ? (double)tsb + hy_max : 0, bot = c->v->present ? top - vadv : 0;
  X[n + 2] = 0, Y[n + 2] = top;
  X[n + 3] = 0, Y[n + 3] = bot;
  for (unsigned i = 0; i < np; i++) c->ox[i] = X[i], c->oy[i] = Y[i];
  double *ax = X + np, *ay = Y + np;
  /* the contour ends, after the ones apply_gvar builds (phantoms included) in c->ends */
  uint16_t *host_ends = c->ends + end_count + 4;
  for (unsigned i = 0; i < end_count; i++) host_ends[i] = loaded_ends[i];
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

/* A component record (glyf.h's otv_glyf_read_comp) with its transform in double. */
typedef struct comp {
  unsigned flags;
  uint32_t gid;
  int a1, a2;
  double m[4]; /* xx, xy(scale01), yx(scale10), yy */
  bool transform;
  const uint8_t *raw_transform; /* the transform as stored, raw_transform_len bytes */
  unsigned raw_transform_len;
} comp;

static bool read_comp(otv_rd *r, comp *k)
{
  otv_glyf_comp g;
  bool ok = otv_glyf_read_comp(r, &g);
  k->flags = g.flags;
  k->gid = g.gid;
  k->a1 = g.arg1, k->a2 = g.arg2;
  k->transform = g.scale_count != 0;
  k->raw_transform = g.transform;
  k->raw_transform_len = 2 * g.scale_count;
  k->m[1] = k->m[2] = 0;
  k->m[0] = k->m[3] = 1;
  if (!ok) return false;
  switch (g.scale_count) {
  case 1: k->m[0] = k->m[3] = g.scale[0] / 16384.0; break;
  case 2:
    k->m[0] = g.scale[0] / 16384.0;
    k->m[3] = g.scale[1] / 16384.0;
    break;
  case 4:
    for (int i = 0; i < 4; i++) k->m[i] = g.scale[i] / 16384.0;
    break;
  default: break;
  }
  return true;
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
    if (!(k.flags & OTV_ARGS_ARE_XY_VALUES)) {
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
    } else if (k.flags & OTV_SCALED_COMPONENT_OFFSET) {
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
    if (k.transform || !(k.flags & OTV_ARGS_ARE_XY_VALUES)) simple_path = false;
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
      f |= OTV_X_IS_SAME_OR_POSITIVE;
    else if (dx >= -255 && dx <= 255)
      f |= (uint8_t)(OTV_X_SHORT_VECTOR | (dx > 0 ? OTV_X_IS_SAME_OR_POSITIVE : 0));
    if (dy == 0)
      f |= OTV_Y_IS_SAME_OR_POSITIVE;
    else if (dy >= -255 && dy <= 255)
      f |= (uint8_t)(OTV_Y_SHORT_VECTOR | (dy > 0 ? OTV_Y_IS_SAME_OR_POSITIVE : 0));
    if (i == 0 && !(in->flags & OTV_INSTANCE_NO_OVERLAP_FLAGS)) f |= OTV_OVERLAP_SIMPLE;
    if (i > 0 && f == last && rep < 255) {
      /* spec: REPEAT_FLAG, then the number of additional repeats */
      if (rep == 0) {
        *last_flag |= OTV_REPEAT_FLAG;
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
  otv_buf_u16(b, 0xFFFF); /* numberOfContours -1: a composite */
  for (int k = 0; k < 4; k++) otv_buf_u16(b, (uint16_t)bb[k]);
  otv_rd r = otv_rd_init(gs, 10);
  bool instr = false;
  for (unsigned i = 0; i < s->n; i++) {
    comp k;
    if (!read_comp(&r, &k)) return OTV_FAIL_RD(in->err, OTV_T_GLYF, goff, &r, "component");
    if (k.flags & OTV_WE_HAVE_INSTRUCTIONS) instr = true;
    unsigned f =
        k.flags & (OTV_ROUND_XY_TO_GRID | OTV_USE_MY_METRICS | OTV_SCALED_COMPONENT_OFFSET |
                   OTV_UNSCALED_COMPONENT_OFFSET | OTV_OVERLAP_COMPOUND | OTV_WE_HAVE_A_SCALE |
                   OTV_WE_HAVE_AN_X_AND_Y_SCALE | OTV_WE_HAVE_A_TWO_BY_TWO);
    f |= k.flags & OTV_NON_OVERLAPPING; /* kept, as fontTools does */
    if (i + 1 < s->n) f |= OTV_MORE_COMPONENTS;
    if (i == 0 && !(in->flags & OTV_INSTANCE_NO_OVERLAP_FLAGS)) f |= OTV_OVERLAP_COMPOUND;
    int a1, a2;
    if (k.flags & OTV_ARGS_ARE_XY_VALUES) {
      f |= OTV_ARGS_ARE_XY_VALUES;
      a1 = otv_inst_round16(c->x[s->at + i]);
      a2 = otv_inst_round16(c->y[s->at + i]);
      if (a1 < -128 || a1 > 127 || a2 < -128 || a2 > 127) f |= OTV_ARG_1_AND_2_ARE_WORDS;
    } else {
      a1 = k.a1, a2 = k.a2;
      if (a1 > 255 || a2 > 255) f |= OTV_ARG_1_AND_2_ARE_WORDS;
    }
    size_t flags_at = b->len;
    otv_buf_u16(b, (uint16_t)f);
    otv_buf_u16(b, (uint16_t)k.gid);
    if (f & OTV_ARG_1_AND_2_ARE_WORDS) {
      otv_buf_u16(b, (uint16_t)a1);
      otv_buf_u16(b, (uint16_t)a2);
    } else {
      otv_buf_u8(b, (uint8_t)a1);
      otv_buf_u8(b, (uint8_t)a2);
    }
    otv_buf_bytes(b, k.raw_transform, k.raw_transform_len);
    if (i + 1 == s->n && instr) {
      otv_buf_put_u16(b, flags_at, (uint16_t)(f | OTV_WE_HAVE_INSTRUCTIONS));
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
  if (c->new_x) otv_mem_free(al, c->new_x, c->new_x_cap * sizeof *c->new_x);
  if (c->new_y) otv_mem_free(al, c->new_y, c->new_y_cap * sizeof *c->new_y);
  otv_glyf_loc_free(&c->loader);
}

otv_status otv_inst_glyf(otv_inst *in)
{
  const otv_face *f = in->face;
  gctx c;
  memset(&c, 0, sizeof c);
  c.in = in;
  c.glyf = &f->glyf;
  c.h = &f->met.h;
  c.v = &f->met.v;
  for (unsigned a = 0; a < in->pin.axis_count; a++) c.q[a] = in->pin.coords[a] * 4;
  c.at.v = in->pin.coords;
  c.at.q = c.q;
  c.at.axis_count = in->pin.axis_count;
  c.at.serial = 1;
  otv_locctx lx = {&c.at, in->al, in->err, &in->loc->work};
  otv_glyf_loc_init(&c.loader, &f->glyf, lx);
  uint32_t n = in->glyph_count;
  otv_status st = OTV_E_OK;
  if (!c.glyf->present) return OTV_FAIL(in->err, NO_TABLE, OTV_T_GLYF, 0, "no glyf/loca");
  if (!c.h->present) return OTV_FAIL(in->err, NO_TABLE, OTV_T_HHEA, 0, "no hhea/hmtx");
  in->has_vmtx = c.v->present;
  const otv_gvar *gv = &f->glyf.gvar;
  if (gv->present &&
      (st = otv_tvs_shared_factors(&in->cx, &in->tvs, gv->shared_tuples, gv->shared_tuple_count)))
    return st;
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
  size_t est = c.glyf->glyf.len + c.glyf->glyf.len / 8 + 64;
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

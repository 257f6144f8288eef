/*
 * instance_partial.c - partial instances: some axes pinned, the others kept variable with their
 * full ranges (fontTools' varLib.instancer "L2" instancing).
 *
 * Spec: otvarcommonformats ("Algorithm for interpolation of instance values", "Tuple Variation
 * Store", "Item Variation Store"), gvar, cvar, fvar, avar, HVAR, VVAR, MVAR.
 *
 * The new default is the font at the pinned coordinates with the kept axes at their defaults,
 * which is what the full instancer computes at that location (glyf, hmtx, cvt, MVAR fields, GPOS
 * values). A variation region's scalar is the product of per-axis factors, so at any location
 * of the new font
 *   scalar(region) = scalar(pinned axes at the pins) x scalar(kept axes).
 * A region with no kept axis has the constant factor of its pinned axes: it is folded into the
 * default. Every other region keeps its kept axes, and its deltas are multiplied by the pinned
 * factor (regions whose pinned factor is 0 disappear). Deltas are rounded with floor(x + 0.5).
 *
 * Tuple variation stores (gvar, cvar) are rewritten: the kept tuples, summed per kept region,
 * with shared peaks (gvar) and private point numbers. A sparse tuple is made explicit first, by
 * IUP against the ORIGINAL default outline (the new default is different, so the same sparse
 * points would infer other deltas); then the points IUP can infer again, from the new default,
 * within the rounding's 0.5 of the exact delta are left out. ItemVariationStores (HVAR, VVAR, MVAR, GDEF) keep their layout: the region list
 * is rewritten in place with fewer axes and each delta is replaced by its scaled value, which
 * never needs a wider field, so no DeltaSetIndexMap, VariationIndex or MVAR record changes.
 */
#include "instance.h"

#include <stdlib.h>

/* ---- region scalars of the pinned axes ---- */

int otv_part_region_scalars(const otv_inst *in, const int16_t *start, const int16_t *peak,
                            const int16_t *end, double *out, bool *kept)
{
  int k = 0;
  bool dead = false;
  *kept = false;
  for (unsigned i = 0; i < in->axis_count; i++) {
    unsigned a = in->axis_order[i];
    int p = peak[a], s = start[a], e = end[a];
    if (p == 0) continue;
    /* spec: an ill-formed region axis (start > peak, peak > end, or crossing zero) is ignored */
    if (s > p || p > e || (s < 0 && e > 0)) continue;
    if (in->keep[a]) {
      *kept = true;
      continue;
    }
    int c = in->coords[a];
    if (c == p) continue;
    if (c <= s || c >= e) {
      dead = true;
      continue;
    }
    double v = c / 16384.0, lo = s / 16384.0, pk = p / 16384.0, hi = e / 16384.0;
    out[k++] = c < p ? (v - lo) / (pk - lo) : (hi - v) / (hi - pk);
  }
  return dead ? -1 : k;
}

/* The region restricted to the kept axes (ill-formed axes written as 0, as they are ignored). */
static void kept_region(const otv_inst *in, const int16_t *start, const int16_t *peak,
                        const int16_t *end, int16_t *ns, int16_t *np, int16_t *ne)
{
  for (unsigned a = 0; a < in->axis_count; a++) {
    if (!in->keep[a]) continue;
    unsigned j = in->new_index[a];
    int p = peak[a], s = start[a], e = end[a];
    if (p == 0 || s > p || p > e || (s < 0 && e > 0)) s = p = e = 0;
    ns[j] = (int16_t)s, np[j] = (int16_t)p, ne[j] = (int16_t)e;
  }
}

/* ---- packed deltas (spec: otvarcommonformats "Packed Deltas") ---- */

static bool fits8(int32_t v) { return v >= -128 && v <= 127; }
static bool fits16(int32_t v) { return v >= -32768 && v <= 32767; }

static void pack_deltas(otv_buf *b, const int32_t *d, unsigned n)
{
  unsigned i = 0;
  while (i < n) {
    unsigned j = i;
    if (d[i] == 0) {
      while (j < n && d[j] == 0 && j - i < 64) j++;
      otv_buf_u8(b, (uint8_t)(0x80 | (j - i - 1)));
    } else if (fits8(d[i])) {
      /* a byte run goes on through single zeros (cheaper than a zero run) */
      while (j < n && j - i < 64 && fits8(d[j]) && !(d[j] == 0 && j + 1 < n && d[j + 1] == 0)) j++;
      otv_buf_u8(b, (uint8_t)(j - i - 1));
      for (unsigned q = i; q < j; q++) otv_buf_u8(b, (uint8_t)(int8_t)d[q]);
    } else if (fits16(d[i])) {
      /* a word run stops at a zero and at two byte-sized values */
      while (j < n && j - i < 64 && fits16(d[j]) && d[j] != 0 &&
             !(fits8(d[j]) && j + 1 < n && fits8(d[j + 1])))
        j++;
      otv_buf_u8(b, (uint8_t)(0x40 | (j - i - 1)));
      for (unsigned q = i; q < j; q++) otv_buf_u16(b, (uint16_t)(int16_t)d[q]);
    } else {
      while (j < n && j - i < 64 && !fits16(d[j])) j++;
      otv_buf_u8(b, (uint8_t)(0xC0 | (j - i - 1)));
      for (unsigned q = i; q < j; q++) otv_buf_u32(b, (uint32_t)d[q]);
    }
    i = j;
  }
}

/* ---- which points a tuple must list (spec: gvar "Inferred deltas for un-referenced point
 * numbers") ----
 * A point left out of a simple glyph's tuple gets its delta by IUP from the listed points of its
 * contour. The exact (unrounded) deltas e are what the tuple should add; listing every point
 * with its rounded delta r is within 0.5 of e. A point may be left out when IUP of the listed
 * rounded deltas is within the same 0.5 of its exact delta, so leaving points out never makes
 * the instance less exact than rounding alone. (fontTools instead keeps IUP within 0.5 of the
 * rounded deltas, which can add up to 1.) */

#define IUP_TOL 0.5
#define IUP_LOOKBACK 64

/* Delta IUP gives point k from the references j and i on one axis (the arithmetic of
 * otv_inst_iup_axis). */
static double iup_one(const double *o, const int32_t *r, unsigned j, unsigned i, unsigned k)
{
  double x1 = o[j], x2 = o[i], d1 = r[j], d2 = r[i];
  if (x1 == x2) return d1 == d2 ? d1 : 0;
  if (x1 > x2) {
    double t = x1;
    x1 = x2, x2 = t;
    t = d1, d1 = d2, d2 = t;
  }
  double x = o[k];
  return x <= x1 ? d1 : x >= x2 ? d2 : d1 + (x - x1) * (d2 - d1) / (x2 - x1);
}

typedef struct iup_ctx {
  const double *ox, *oy, *ex, *ey; /* original coordinates, exact deltas */
  const int32_t *rx, *ry;          /* rounded deltas */
  unsigned a, b;                   /* the contour */
} iup_ctx;

static unsigned next_pt(const iup_ctx *c, unsigned k) { return k == c->b ? c->a : k + 1; }

/* Can every point strictly between j and i (walking forward, cyclically) be left out? */
static bool between_ok(const iup_ctx *c, unsigned j, unsigned i)
{
  for (unsigned k = next_pt(c, j); k != i; k = next_pt(c, k)) {
    if (fabs(iup_one(c->ox, c->rx, j, i, k) - c->ex[k]) > IUP_TOL) return false;
    if (fabs(iup_one(c->oy, c->ry, j, i, k) - c->ey[k]) > IUP_TOL) return false;
  }
  return true;
}

/* Mark in keep[] the points of contour [a, b] the tuple must list: none when every exact delta is
 * within the tolerance of 0; one when all are of one point's; else the fewest found by dynamic
 * programming over the contour cut open at its largest delta (which is listed), each point
 * reached from at most IUP_LOOKBACK points back. cost/prev: scratch of b - a + 2 ints. */
static void iup_choose(const iup_ctx *c, uint8_t *keep, int *cost, int *prev)
{
  unsigned a = c->a, b = c->b, len = b - a + 1, s = a;
  bool zero = true;
  double big = -1;
  for (unsigned k = a; k <= b; k++) {
    keep[k] = 0;
    if (fabs(c->ex[k]) > IUP_TOL || fabs(c->ey[k]) > IUP_TOL) zero = false;
    double m = fabs(c->ex[k]) + fabs(c->ey[k]);
    if (m > big) big = m, s = k;
  }
  if (zero) return;
  bool one = true; /* one listed point: IUP shifts the whole contour by its delta */
  for (unsigned k = a; k <= b && one; k++)
    if (fabs(c->rx[s] - c->ex[k]) > IUP_TOL || fabs(c->ry[s] - c->ey[k]) > IUP_TOL) one = false;
  keep[s] = 1;
  if (one || len <= 2) {
    if (len == 2 && !one) keep[a] = keep[b] = 1;
    return;
  }
  /* positions 0..len: point a + (s - a + p) % len; position len is s again */
  cost[0] = 0;
  for (unsigned p = 1; p <= len; p++) {
    unsigned ip = a + (s - a + p) % len;
    int best = -1;
    unsigned lo = p > IUP_LOOKBACK ? p - IUP_LOOKBACK : 0;
    for (unsigned q = p; q-- > lo;) {
      if (cost[q] < 0) continue;
      unsigned iq = a + (s - a + q) % len;
      if (q + 1 < p && !between_ok(c, iq, ip)) break; /* farther back rarely works again */
      if (best < 0 || cost[q] + 1 < best) {
        best = cost[q] + 1;
        prev[p] = (int)q;
      }
    }
    cost[p] = best;
  }
  for (int p = prev[len]; p > 0; p = prev[p]) keep[a + (s - a + (unsigned)p) % len] = 1;
}

/* Packed point numbers (spec: otvarcommonformats "Packed point numbers") of the m points with
 * keep set, or "all points" (a single 0) when m == n. */
static void pack_points(otv_buf *b, const uint8_t *keep, unsigned n, unsigned m)
{
  if (m == n) {
    otv_buf_u8(b, 0);
    return;
  }
  if (m < 0x80)
    otv_buf_u8(b, (uint8_t)m);
  else
    otv_buf_u16(b, (uint16_t)(0x8000 | m));
  unsigned last = 0, k = 0;
  while (k < n) {
    /* a run of up to 128 listed points, words when some step needs them */
    unsigned pts[128], cnt = 0;
    bool words = false;
    unsigned prevp = last;
    for (; k < n && cnt < 128; k++) {
      if (!keep[k]) continue;
      if (k - prevp > 0xFF) words = true;
      pts[cnt++] = k;
      prevp = k;
    }
    if (!cnt) break;
    otv_buf_u8(b, (uint8_t)((words ? 0x80 : 0) | (cnt - 1)));
    for (unsigned q = 0; q < cnt; q++) {
      unsigned d = pts[q] - last;
      if (words)
        otv_buf_u16(b, (uint16_t)d);
      else
        otv_buf_u8(b, (uint8_t)d);
      last = pts[q];
    }
  }
}

/* ---- tuple variation stores ---- */

typedef struct kept_tuple {
  int16_t start[OTV_MAX_AXES], peak[OTV_MAX_AXES], end[OTV_MAX_AXES];
  bool inter;
  int shared;  /* gvar shared tuple index of the peak, -1: embedded */
  size_t size; /* packed delta bytes */
} kept_tuple;

static size_t at_least_1(size_t n) { return n ? n : 1; }
#define RESERVE(ptr, cap, need)                                                                    \
  otv_mem_reserve(in->al, (void **)&(ptr), &(cap), at_least_1(need), sizeof *(ptr))

/* The gvar shared-tuple index of a peak (added when new), or -1 when the table is full (4095)
 * or memory ran out (then the peak is embedded). */
static int shared_index(otv_inst *in, const int16_t *peak)
{
  unsigned kc = in->kept_count;
  if (!in->shh) {
    in->shh = otv_mem_calloc(in->al, OTV_PART_SHARED_SLOTS, sizeof *in->shh);
    if (!in->shh) return -1;
  }
  uint32_t h = 2166136261u;
  for (unsigned j = 0; j < kc; j++) h = (h ^ (uint16_t)peak[j]) * 16777619u;
  unsigned slot = h & (OTV_PART_SHARED_SLOTS - 1);
  for (;;) {
    unsigned v = in->shh[slot];
    if (!v) break;
    if (!memcmp(in->shp + (size_t)(v - 1) * kc, peak, kc * sizeof *peak)) return (int)v - 1;
    slot = (slot + 1) & (OTV_PART_SHARED_SLOTS - 1);
  }
  if (in->shn >= 4095) return -1;
  if (otv_mem_reserve(in->al, (void **)&in->shp, &in->shp_cap,
                      ((size_t)in->shn + 1) * (kc ? kc : 1), sizeof *in->shp))
    return -1;
  memcpy(in->shp + (size_t)in->shn * kc, peak, kc * sizeof *peak);
  in->shh[slot] = (uint16_t)(++in->shn);
  return (int)in->shn - 1;
}

otv_status otv_part_tvs(otv_inst *in, otv_span data, size_t hdr, uint32_t tag, size_t tab_off,
                        const uint8_t *shared, uint16_t shared_count, unsigned n,
                        const double *orig_x, const double *orig_y, const double *new_x,
                        const double *new_y, const uint16_t *ends, unsigned end_count, bool two_dim,
                        otv_buf *out, size_t rel_base)
{
  unsigned ac = in->axis_count, kc = in->kept_count;
  otv_rd r = otv_rd_init(data, hdr);
  uint16_t tvc = otv_rd_u16(&r);
  uint16_t data_off = otv_rd_u16(&r);
  if (!otv_rd_ok(&r)) return OTV_FAIL_RD(in->err, tag, tab_off, &r, "tuple variation header");
  unsigned count = tvc & 0x0FFF;
  if (!count || !n) return OTV_E_OK;
  size_t dims = two_dim ? 2 : 1, row = (size_t)n * dims;
  if (RESERVE(in->pd, in->pd_cap, (size_t)count * row) || RESERVE(in->px, in->px_cap, n) ||
      RESERVE(in->py, in->py_cap, n) || RESERVE(in->phas, in->phas_cap, n))
    return OTV_FAIL(in->err, NOMEM, tag, tab_off, "deltas");
  /* the instance's scratch, reused from glyph to glyph */
  if (otv_mem_reserve(in->al, &in->pkt, &in->pkt_cap, (size_t)count * sizeof(kept_tuple), 1))
    return OTV_FAIL(in->err, NOMEM, tag, tab_off, "tuples");
  kept_tuple *kt = in->pkt;
  otv_buf *pk = &in->ppacked;
  pk->len = 0;
  otv_status st = OTV_E_OK;
  unsigned nk = 0;

  otv_rd dr = otv_rd_init(data, data_off);
  unsigned shared_n = 0;
  bool shared_all = false;
  if (tvc & 0x8000) {
    bool nomem;
    if (!otv_inst_read_points(&dr, in, &in->pshared, &in->pshared_cap, &shared_n, &nomem)) {
      st = nomem ? OTV_FAIL(in->err, NOMEM, tag, tab_off, "point numbers")
                 : OTV_FAIL(in->err, TRUNCATED, tag, tab_off + data_off, "shared point numbers");
      goto done;
    }
    shared_all = shared_n == 0;
  }
  int16_t peak[OTV_MAX_AXES], start[OTV_MAX_AXES], end[OTV_MAX_AXES];
  double s_ax[OTV_MAX_AXES];
  for (unsigned t = 0; t < count; t++) {
    size_t hdr_at = r.pos;
    uint16_t size = otv_rd_u16(&r), ti = otv_rd_u16(&r);
    if (!otv_rd_ok(&r) ||
        !otv_inst_read_tuple_region(&r, ti, ac, shared, shared_count, start, peak, end)) {
      st = otv_rd_ok(&r)
               ? OTV_FAIL(in->err, BAD_VALUE, tag, tab_off + hdr_at,
                          "tuple %u: shared tuple %u of %u", t, ti & 0x0FFFu, shared_count)
               : OTV_FAIL_RD(in->err, tag, tab_off, &r, "tuple variation header");
      goto done;
    }
    size_t body = dr.pos;
    otv_span tuple;
    if (!otv_span_sub(data, body, size, &tuple)) {
      st = OTV_FAIL(in->err, BAD_OFFSET, tag, tab_off + hdr_at,
                    "tuple %u: %u bytes of data past the end", t, size);
      goto done;
    }
    dr.pos = body + size;
    bool kept;
    int k = otv_part_region_scalars(in, start, peak, end, s_ax, &kept);
    if (k < 0 || !kept) continue; /* gone, or folded into the default */
    otv_rd tr = otv_rd_init(tuple, 0);
    const uint16_t *pts = in->pshared;
    unsigned pn = shared_n;
    bool all = shared_all || !(tvc & 0x8000);
    if (ti & 0x2000) {
      bool nomem;
      if (!otv_inst_read_points(&tr, in, &in->ppts, &in->ppts_cap, &pn, &nomem)) {
        st = nomem ? OTV_FAIL(in->err, NOMEM, tag, tab_off, "point numbers")
                   : OTV_FAIL(in->err, TRUNCATED, tag, tab_off + body, "tuple %u point numbers", t);
        goto done;
      }
      pts = in->ppts;
      all = pn == 0;
    } else if (!(tvc & 0x8000)) {
      st = OTV_FAIL(in->err, BAD_VALUE, tag, tab_off + hdr_at,
                    "tuple %u has no point numbers (neither private nor shared)", t);
      goto done;
    }
    double *dx = in->px, *dy = in->py;
    if (all) {
      if (!otv_inst_read_deltas(&tr, n, dx) || (two_dim && !otv_inst_read_deltas(&tr, n, dy))) {
        st = OTV_FAIL(in->err, TRUNCATED, tag, tab_off + body, "tuple %u deltas", t);
        goto done;
      }
    } else {
      if (RESERVE(in->ptx, in->ptx_cap, pn) || RESERVE(in->pty, in->pty_cap, pn)) {
        st = OTV_FAIL(in->err, NOMEM, tag, tab_off, "deltas");
        goto done;
      }
      if (!otv_inst_read_deltas(&tr, pn, in->ptx) ||
          (two_dim && !otv_inst_read_deltas(&tr, pn, in->pty))) {
        st = OTV_FAIL(in->err, TRUNCATED, tag, tab_off + body, "tuple %u deltas", t);
        goto done;
      }
      memset(in->phas, 0, n);
      for (unsigned i = 0; i < n; i++) dx[i] = dy[i] = 0;
      for (unsigned i = 0; i < pn; i++) {
        unsigned p = pts[i];
        if (p >= n) continue;
        in->phas[p] = 1;
        dx[p] = in->ptx[i];
        if (two_dim) dy[p] = in->pty[i];
      }
      if (orig_x && end_count) {
        /* simple glyph: IUP per contour against the original outline */
        unsigned a = 0;
        for (unsigned c = 0; c < end_count; c++) {
          unsigned b = ends[c];
          if (b < a || b >= n) break;
          otv_inst_iup_axis(orig_x, dx, in->phas, a, b);
          otv_inst_iup_axis(orig_y, dy, in->phas, a, b);
          a = b + 1;
        }
      }
    }
    /* tuples whose regions become the same are summed, and rounded once */
    kept_tuple cand;
    memset(&cand, 0, sizeof cand);
    kept_region(in, start, peak, end, cand.start, cand.peak, cand.end);
    unsigned slot = 0;
    while (slot < nk && !(memcmp(kt[slot].start, cand.start, kc * sizeof *cand.start) == 0 &&
                          memcmp(kt[slot].peak, cand.peak, kc * sizeof *cand.peak) == 0 &&
                          memcmp(kt[slot].end, cand.end, kc * sizeof *cand.end) == 0))
      slot++;
    double *q = in->pd + (size_t)slot * row;
    if (slot == nk) {
      kt[nk++] = cand;
      for (size_t i = 0; i < row; i++) q[i] = 0;
    }
    for (unsigned i = 0; i < n; i++) {
      q[i] += otv_inst_scale(dx[i], s_ax, k);
      if (two_dim) q[n + i] += otv_inst_scale(dy[i], s_ax, k);
    }
  }
  /* round; choose the points each tuple lists; drop the tuples left without one; pack */
  if (RESERVE(in->pq, in->pq_cap, row) || RESERVE(in->pdp, in->pdp_cap, 2 * ((size_t)n + 2)))
    goto nomem;
  unsigned live = 0;
  for (unsigned t = 0; t < nk; t++) {
    const double *q = in->pd + (size_t)t * row;
    int32_t *r32 = in->pq;
    for (size_t i = 0; i < row; i++) r32[i] = otv_inst_round(q[i]);
    uint8_t *keep = in->phas;
    unsigned m = 0;
    if (new_x && end_count) {
      /* a simple glyph: contours (and the one-point phantom contours) by IUP over the new
       * default outline */
      iup_ctx c = {new_x, new_y, q, q + n, r32, r32 + n, 0, 0};
      memset(keep, 0, n);
      unsigned a = 0;
      for (unsigned e = 0; e < end_count; e++) {
        unsigned b = ends[e];
        if (b < a || b >= n) break;
        c.a = a, c.b = b;
        iup_choose(&c, keep, in->pdp, in->pdp + n + 2);
        a = b + 1;
      }
    } else {
      /* composites and cvar: a point left out gets no delta */
      for (unsigned i = 0; i < n; i++) keep[i] = r32[i] != 0 || (two_dim && r32[n + i] != 0);
    }
    for (unsigned i = 0; i < n; i++) m += keep[i];
    if (!m) continue;
    kept_tuple *o = &kt[live++];
    if (o != &kt[t]) *o = kt[t];
    o->inter = false;
    for (unsigned j = 0; j < kc; j++)
      if (o->start[j] != (o->peak[j] < 0 ? o->peak[j] : 0) ||
          o->end[j] != (o->peak[j] > 0 ? o->peak[j] : 0))
        o->inter = true;
    size_t before = pk->len;
    /* every point (no list), then, when fewer points are listed, the sparse form if smaller */
    otv_buf_u8(pk, 0);
    /* x and y are two packed arrays: no run may cross from one into the other */
    for (unsigned dim = 0; dim < dims; dim++) pack_deltas(pk, r32 + (size_t)dim * n, n);
    if (m < n) {
      size_t all_len = pk->len - before;
      pack_points(pk, keep, n, m);
      for (unsigned dim = 0; dim < dims; dim++) {
        /* the listed points' deltas, gathered to the front of this axis's row (w <= i) */
        unsigned w = 0;
        int32_t *src = r32 + (size_t)dim * n;
        for (unsigned i = 0; i < n; i++)
          if (keep[i]) src[w++] = src[i];
        pack_deltas(pk, src, w);
      }
      size_t sparse_len = pk->len - before - all_len;
      if (!pk->failed && sparse_len < all_len) /* the sparse form replaces the full one */
        memmove(pk->p + before, pk->p + before + all_len, sparse_len);
      pk->len = before + (sparse_len < all_len ? sparse_len : all_len);
    }
    o->size = pk->len - before;
    if (o->size > 0xFFFF) {
      st = OTV_FAIL(in->err, LIMIT, tag, tab_off, "a tuple with more than 64 KiB of deltas");
      goto done;
    }
  }
  nk = live;
  if (pk->failed) goto nomem;
  if (nk) {
    /* header; tuples with private point numbers and their peaks shared (gvar) or embedded */
    size_t hsize = 4;
    for (unsigned t = 0; t < nk; t++) {
      kt[t].shared = tag == OTV_T_GVAR && kc ? shared_index(in, kt[t].peak) : -1;
      hsize += 4 + 2 * (size_t)kc * ((kt[t].shared < 0 ? 1 : 0) + (kt[t].inter ? 2 : 0));
    }
    size_t doff = out->len + hsize - rel_base;
    if (doff > 0xFFFF) {
      st = OTV_FAIL(in->err, LIMIT, tag, tab_off, "%u tuples: headers past 64 KiB", nk);
      goto done;
    }
    otv_buf_u16(out, (uint16_t)nk);
    otv_buf_u16(out, (uint16_t)doff);
    for (unsigned t = 0; t < nk; t++) {
      otv_buf_u16(out, (uint16_t)kt[t].size);
      unsigned flags = 0x2000 | (kt[t].inter ? 0x4000 : 0);
      if (kt[t].shared >= 0) {
        otv_buf_u16(out, (uint16_t)(flags | (unsigned)kt[t].shared));
      } else {
        otv_buf_u16(out, (uint16_t)(flags | 0x8000));
        for (unsigned j = 0; j < kc; j++) otv_buf_u16(out, (uint16_t)kt[t].peak[j]);
      }
      if (kt[t].inter) {
        for (unsigned j = 0; j < kc; j++) otv_buf_u16(out, (uint16_t)kt[t].start[j]);
        for (unsigned j = 0; j < kc; j++) otv_buf_u16(out, (uint16_t)kt[t].end[j]);
      }
    }
    otv_buf_bytes(out, pk->p, pk->len);
    if (out->failed) goto nomem;
  }
  goto done;
nomem:
  st = OTV_FAIL(in->err, NOMEM, tag, tab_off, "variation data");
done:
  return st;
}

/* ---- ItemVariationStore, in place ---- */

/* In place: the layout kept, the region list shortened, every delta scaled (see the top). */
typedef struct span2 {
  size_t a, b; /* [a, b) */
} span2;

static int cmp_span2(const void *x, const void *y)
{
  const span2 *p = x, *q = y;
  return p->a < q->a ? -1 : p->a > q->a;
}

/* Whether the store's structures (header and offsets, region list, each ItemVariationData's
 * header and region indexes, its rows) overlap: rewriting one in place would then change
 * another (hostile fonts share bytes between them). */
static otv_status ivs_overlaps(otv_inst *in, otv_span src, size_t ivs_off, const otv_ivs *ivs,
                               bool *overlap)
{
  *overlap = false;
  size_t n = 2 + 2 * (size_t)ivs->data_count, k = 0;
  span2 *v = otv_mem_alloc(in->al, n * sizeof *v);
  if (!v) return OTV_FAIL(in->err, NOMEM, 0, 0, "store layout");
  v[k++] = (span2){ivs_off, ivs_off + 8 + 4 * (size_t)ivs->data_count};
  uint32_t list_off = otv_peek_u32(src.p + ivs_off + 2); /* in range: parsed */
  if (list_off)
    v[k++] = (span2){ivs_off + list_off,
                     ivs_off + list_off + 4 + (size_t)ivs->region_count * ivs->axis_count * 6};
  for (unsigned d = 0; d < ivs->data_count; d++) {
    const otv_ivd *iv = &ivs->data[d];
    size_t h = (size_t)(iv->region_indexes - src.p) - 6, r = (size_t)(iv->rows - src.p);
    v[k++] = (span2){h, h + 6 + 2 * (size_t)iv->region_index_count};
    if (iv->item_count && iv->row_len)
      v[k++] = (span2){r, r + (size_t)iv->item_count * iv->row_len};
  }
  qsort(v, k, sizeof *v, cmp_span2);
  for (size_t i = 1; i < k; i++)
    if (v[i].a < v[i - 1].b) *overlap = true;
  otv_mem_free(in->al, v, n * sizeof *v);
  return OTV_E_OK;
}

static otv_status ivs_in_place(otv_inst *in, otv_span src, uint8_t *dst, uint32_t tag,
                               size_t ivs_off, otv_ivs ivs)
{
  bool overlap;
  otv_status st = ivs_overlaps(in, src, ivs_off, &ivs, &overlap);
  if (st) return st;
  if (overlap)
    return OTV_FAIL(in->err, UNSUPPORTED, tag, ivs_off,
                    "ItemVariationStore whose structures overlap (cannot be rewritten in place)");
  unsigned rc = ivs.region_count, sac = ivs.axis_count, kc = in->kept_count;
  double *scal = NULL;
  int *k = NULL;
  /* the header was read by otv_ivs_parse: format, then the region list offset */
  uint32_t list_off = otv_peek_u32(src.p + ivs_off + 2);
  size_t list_at = ivs_off + list_off;
  if (!rc) {
    /* no regions: nothing varies, but the list must name the new axis count */
    if (list_off && list_at + 2 <= src.len) otv_put_u16(dst + list_at, (uint16_t)kc);
    goto done;
  }
  if (kc > sac) {
    st = OTV_FAIL(in->err, UNSUPPORTED, tag, ivs_off, "region list of %u axes, %u kept", sac, kc);
    goto done;
  }
  scal = otv_mem_alloc(in->al, (size_t)rc * OTV_MAX_AXES * sizeof *scal);
  k = otv_mem_alloc(in->al, rc * sizeof *k);
  if (!scal || !k) {
    st = OTV_FAIL(in->err, NOMEM, tag, ivs_off, "region scalars");
    goto done;
  }
  size_t reg_at = (size_t)(ivs.regions - src.p); /* in range: regions lie inside src */
  /* the scalars first (the new list overwrites the old one in dst, never read from there) */
  int16_t s[OTV_MAX_AXES], p[OTV_MAX_AXES], e[OTV_MAX_AXES];
  int16_t ns[OTV_MAX_AXES], np[OTV_MAX_AXES], ne[OTV_MAX_AXES];
  size_t w = reg_at;
  for (unsigned r = 0; r < rc; r++) {
    otv_inst_region(in, &ivs, r, s, p, e);
    bool kept;
    k[r] = otv_part_region_scalars(in, s, p, e, scal + (size_t)r * OTV_MAX_AXES, &kept);
    if (!kept) k[r] = -1; /* folded into the default: its column is zeroed */
    kept_region(in, s, p, e, ns, np, ne);
    for (unsigned j = 0; j < kc; j++) {
      /* in range: kc <= sac, so the new list is not longer than the old */
      otv_put_u16(dst + w, (uint16_t)ns[j]);
      otv_put_u16(dst + w + 2, (uint16_t)np[j]);
      otv_put_u16(dst + w + 4, (uint16_t)ne[j]);
      w += 6;
    }
  }
  memset(dst + w, 0, reg_at + (size_t)rc * sac * 6 - w);
  otv_put_u16(dst + list_at, (uint16_t)kc);
  for (unsigned d = 0; d < ivs.data_count; d++) {
    const otv_ivd *v = &ivs.data[d];
    unsigned wc = v->word_count, nr = v->region_index_count;
    unsigned big = v->long_words ? 4 : 2, small = v->long_words ? 2 : 1;
    for (unsigned it = 0; it < v->item_count; it++) {
      /* in range: rows checked in otv_ivs_parse; dst is a copy of src of the same length */
      size_t row_at = (size_t)(v->rows - src.p) + (size_t)it * v->row_len;
      for (unsigned j = 0; j < nr; j++) {
        unsigned r = otv_peek_u16(v->region_indexes + 2 * j);
        size_t at = row_at + (j < wc ? j * big : wc * big + (j - wc) * small);
        unsigned size = j < wc ? big : small;
        const uint8_t *q = src.p + at;
        int32_t dv = size == 4 ? otv_peek_i32(q) : size == 2 ? otv_peek_i16(q) : (int8_t)q[0];
        int32_t nv = 0;
        if (r < rc && k[r] >= 0 && dv)
          nv = otv_inst_round(otv_inst_scale(dv, scal + (size_t)r * OTV_MAX_AXES, k[r]));
        if (r >= rc) nv = dv; /* out-of-range region: contributes nothing, kept as it is */
        if (size == 4)
          otv_put_u32(dst + at, (uint32_t)nv);
        else if (size == 2)
          otv_put_u16(dst + at, (uint16_t)(int16_t)nv);
        else
          dst[at] = (uint8_t)(int8_t)nv;
      }
    }
  }
done:
  if (scal) otv_mem_free(in->al, scal, (size_t)rc * OTV_MAX_AXES * sizeof *scal);
  if (k) otv_mem_free(in->al, k, rc * sizeof *k);
  return st;
}

/* ---- ItemVariationStore, compacted ----
 * When the store's structures fill the end of their table without gaps (as compilers write
 * them), nothing else lives there and the store can be written anew, smaller: per
 * ItemVariationData, the columns whose regions become one region summed (exactly, then
 * rounded once), columns without deltas and regions nobody uses dropped, each column as narrow
 * as its values allow. Items keep their order, so every (outer, inner) reference stays valid. */

/* The end of the store's structures, or 0 when they are not one gap-free block. */
static size_t store_block_end(otv_span src, size_t ivs_off, const otv_ivs *ivs)
{
  uint32_t list_off = otv_peek_u32(src.p + ivs_off + 2); /* in range: parsed */
  size_t end = ivs_off + 8 + 4 * (size_t)ivs->data_count, sum = end - ivs_off;
  if (list_off) {
    size_t l = ivs_off + list_off, le = l + 4 + (size_t)ivs->region_count * ivs->axis_count * 6;
    sum += le - l;
    if (le > end) end = le;
  }
  for (unsigned d = 0; d < ivs->data_count; d++) {
    const otv_ivd *v = &ivs->data[d];
    size_t at = (size_t)(v->region_indexes - src.p) - 6; /* in range: parsed */
    size_t e = (size_t)(v->rows - src.p) + (size_t)v->item_count * v->row_len;
    sum += e - at;
    if (e > end) end = e;
  }
  return sum == end - ivs_off ? end : 0;
}

typedef struct cregion {
  int16_t s[OTV_MAX_AXES], p[OTV_MAX_AXES], e[OTV_MAX_AXES];
} cregion;

static otv_status ivs_compact(otv_inst *in, otv_buf *out, uint32_t tag, size_t ivs_off,
                              const otv_ivs *ivs)
{
  unsigned rc = ivs->region_count, kc = in->kept_count;
  otv_status st = OTV_E_OK;
  double *scal = NULL;
  int *k = NULL;
  uint32_t *newreg = NULL; /* per original region: its compact region + 1, 0: none yet */
  cregion *regs = NULL, *kr = NULL;
  unsigned nregs = 0;
  otv_buf data;
  otv_buf_init(&data, in->al);
  size_t base = out->len;
  scal = otv_mem_alloc(in->al, (size_t)(rc ? rc : 1) * OTV_MAX_AXES * sizeof *scal);
  k = otv_mem_alloc(in->al, (rc ? rc : 1) * sizeof *k);
  kr = otv_mem_alloc(in->al, (rc ? rc : 1) * sizeof *kr);
  regs = otv_mem_alloc(in->al, (rc ? rc : 1) * sizeof *regs);
  newreg = otv_mem_calloc(in->al, rc ? rc : 1, sizeof *newreg);
  if (!scal || !k || !kr || !regs || !newreg) goto nomem;
  int16_t s[OTV_MAX_AXES], p[OTV_MAX_AXES], e[OTV_MAX_AXES];
  for (unsigned r = 0; r < rc; r++) {
    otv_inst_region(in, ivs, r, s, p, e);
    bool kept;
    k[r] = otv_part_region_scalars(in, s, p, e, scal + (size_t)r * OTV_MAX_AXES, &kept);
    if (!kept) k[r] = -1;
    memset(&kr[r], 0, sizeof kr[r]);
    kept_region(in, s, p, e, kr[r].s, kr[r].p, kr[r].e);
  }
  /* the data subtables (the region list follows them, once its regions are known) */
  unsigned dc = ivs->data_count;
  size_t hdr = 8 + 4 * (size_t)dc;
  size_t *doff = otv_mem_alloc(in->al, (dc ? dc : 1) * sizeof *doff);
  if (!doff) goto nomem;
  for (unsigned d = 0; d < dc && !st; d++) {
    const otv_ivd *v = &ivs->data[d];
    unsigned nr = v->region_index_count, items = v->item_count;
    unsigned wc = v->word_count, big = v->long_words ? 4 : 2, small = v->long_words ? 2 : 1;
    /* columns: original column -> compact column (by kept region), -1 dropped */
    int *cm = otv_mem_alloc(in->al, (nr ? nr : 1) * sizeof *cm);
    unsigned *creg =
        otv_mem_alloc(in->al, (nr ? nr : 1) * sizeof *creg); /* compact column -> kr index */
    unsigned ncol = 0;
    if (!cm || !creg) {
      if (cm) otv_mem_free(in->al, cm, (nr ? nr : 1) * sizeof *cm);
      if (creg) otv_mem_free(in->al, creg, (nr ? nr : 1) * sizeof *creg);
      otv_mem_free(in->al, doff, (dc ? dc : 1) * sizeof *doff);
      goto nomem;
    }
    for (unsigned j = 0; j < nr; j++) {
      unsigned r = otv_peek_u16(v->region_indexes + 2 * j);
      cm[j] = -1;
      if (r >= rc || k[r] < 0) continue;
      unsigned c = 0;
      while (c < ncol && memcmp(&kr[creg[c]], &kr[r], sizeof kr[r])) c++;
      if (c == ncol) creg[ncol++] = r;
      cm[j] = (int)c;
    }
    double *m = otv_mem_calloc(in->al, (size_t)(items ? items : 1) * (ncol ? ncol : 1), sizeof *m);
    int32_t *vals =
        otv_mem_alloc(in->al, (size_t)(items ? items : 1) * (ncol ? ncol : 1) * sizeof *vals);
    uint8_t *width = otv_mem_calloc(in->al, ncol ? ncol : 1, 1);
    unsigned *order = otv_mem_alloc(in->al, (ncol ? ncol : 1) * sizeof *order);
    if (!m || !vals || !width || !order) st = OTV_FAIL(in->err, NOMEM, tag, ivs_off, "store");
    for (unsigned it = 0; it < items && !st; it++) {
      const uint8_t *row = v->rows + (size_t)it * v->row_len; /* in range: parsed */
      for (unsigned j = 0; j < nr; j++) {
        if (cm[j] < 0) continue;
        unsigned r = otv_peek_u16(v->region_indexes + 2 * j);
        unsigned size = j < wc ? big : small;
        const uint8_t *q = row + (j < wc ? j * big : wc * big + (j - wc) * small);
        int32_t dv = size == 4 ? otv_peek_i32(q) : size == 2 ? otv_peek_i16(q) : (int8_t)q[0];
        if (dv)
          m[(size_t)it * ncol + (unsigned)cm[j]] +=
              otv_inst_scale(dv, scal + (size_t)r * OTV_MAX_AXES, k[r]);
      }
    }
    unsigned live = 0, nbig = 0;
    bool lng = false;
    if (!st) {
      for (size_t i = 0; i < (size_t)items * ncol; i++) vals[i] = otv_inst_round(m[i]);
      for (unsigned c = 0; c < ncol; c++) {
        for (unsigned it = 0; it < items; it++) {
          int32_t x = vals[(size_t)it * ncol + c];
          unsigned w = x == 0 ? 0 : fits8(x) ? 1 : fits16(x) ? 2 : 4;
          if (w > width[c]) width[c] = (uint8_t)w;
        }
        if (width[c] == 4) lng = true;
      }
      /* the wide columns first, then the narrow ones; empty columns dropped */
      unsigned wide = lng ? 4 : 2;
      for (unsigned c = 0; c < ncol; c++)
        if (width[c] >= wide) order[live++] = c;
      nbig = live;
      for (unsigned c = 0; c < ncol; c++)
        if (width[c] && width[c] < wide) order[live++] = c;
      doff[d] = data.len;
      otv_buf_u16(&data, (uint16_t)items);
      otv_buf_u16(&data, (uint16_t)(nbig | (lng ? 0x8000u : 0)));
      otv_buf_u16(&data, (uint16_t)live);
      for (unsigned q = 0; q < live; q++) {
        unsigned r = creg[order[q]];
        if (!newreg[r]) {
          /* a region used for the first time: the same kept region may exist already */
          unsigned g = 0;
          while (g < nregs && memcmp(&regs[g], &kr[r], sizeof kr[r])) g++;
          if (g == nregs) regs[nregs++] = kr[r];
          newreg[r] = g + 1;
        }
        otv_buf_u16(&data, (uint16_t)(newreg[r] - 1));
      }
      unsigned bw = lng ? 4 : 2, sw = lng ? 2 : 1;
      for (unsigned it = 0; it < items; it++)
        for (unsigned q = 0; q < live; q++) {
          int32_t x = vals[(size_t)it * ncol + order[q]];
          unsigned w = q < nbig ? bw : sw;
          if (w == 4)
            otv_buf_u32(&data, (uint32_t)x);
          else if (w == 2)
            otv_buf_u16(&data, (uint16_t)(int16_t)x);
          else
            otv_buf_u8(&data, (uint8_t)(int8_t)x);
        }
    }
    otv_mem_free(in->al, cm, (nr ? nr : 1) * sizeof *cm);
    otv_mem_free(in->al, creg, (nr ? nr : 1) * sizeof *creg);
    if (m) otv_mem_free(in->al, m, (size_t)(items ? items : 1) * (ncol ? ncol : 1) * sizeof *m);
    if (vals)
      otv_mem_free(in->al, vals, (size_t)(items ? items : 1) * (ncol ? ncol : 1) * sizeof *vals);
    if (width) otv_mem_free(in->al, width, ncol ? ncol : 1);
    if (order) otv_mem_free(in->al, order, (ncol ? ncol : 1) * sizeof *order);
  }
  if (!st) {
    /* header, region list, data */
    size_t list_size = 4 + (size_t)nregs * kc * 6;
    otv_buf_u16(out, 1);
    otv_buf_u32(out, (uint32_t)hdr);
    otv_buf_u16(out, (uint16_t)dc);
    for (unsigned d = 0; d < dc; d++) otv_buf_u32(out, (uint32_t)(hdr + list_size + doff[d]));
    otv_buf_u16(out, (uint16_t)kc);
    otv_buf_u16(out, (uint16_t)nregs);
    for (unsigned g = 0; g < nregs; g++)
      for (unsigned j = 0; j < kc; j++) {
        otv_buf_u16(out, (uint16_t)regs[g].s[j]);
        otv_buf_u16(out, (uint16_t)regs[g].p[j]);
        otv_buf_u16(out, (uint16_t)regs[g].e[j]);
      }
    otv_buf_bytes(out, data.p, data.len);
    if (out->failed || data.failed) st = OTV_FAIL(in->err, NOMEM, tag, ivs_off, "store");
    if (out->len - base > 0xFFFFFFFFu)
      st = OTV_FAIL(in->err, LIMIT, tag, ivs_off, "store past 4 GiB");
  }
  otv_mem_free(in->al, doff, (dc ? dc : 1) * sizeof *doff);
  goto done;
nomem:
  st = OTV_FAIL(in->err, NOMEM, tag, ivs_off, "store");
done:
  otv_buf_free(&data);
  if (scal) otv_mem_free(in->al, scal, (size_t)(rc ? rc : 1) * OTV_MAX_AXES * sizeof *scal);
  if (k) otv_mem_free(in->al, k, (rc ? rc : 1) * sizeof *k);
  if (kr) otv_mem_free(in->al, kr, (rc ? rc : 1) * sizeof *kr);
  if (regs) otv_mem_free(in->al, regs, (rc ? rc : 1) * sizeof *regs);
  if (newreg) otv_mem_free(in->al, newreg, (rc ? rc : 1) * sizeof *newreg);
  return st;
}

otv_status otv_part_ivs(otv_inst *in, otv_span src, otv_buf *b, uint32_t tag, size_t ivs_off,
                        bool may_compact)
{
  otv_ivs ivs;
  memset(&ivs, 0, sizeof ivs);
  otv_status st = otv_ivs_parse(in->al, src, tag, ivs_off, (uint16_t)in->axis_count, &ivs, in->err);
  if (st) return st;
  size_t end = store_block_end(src, ivs_off, &ivs);
  if (may_compact && end == src.len && b->len == src.len && ivs_off > 0) {
    b->len = ivs_off; /* the store was the table's tail: written anew */
    st = ivs_compact(in, b, tag, ivs_off, &ivs);
  } else {
    st = ivs_in_place(in, src, b->p, tag, ivs_off, ivs);
  }
  otv_ivs_free(in->al, &ivs);
  return st;
}

/* ---- HVAR, VVAR, MVAR: copies with the store rewritten ---- */

/* The end of a DeltaSetIndexMap at off (0 when absent or unreadable). */
static size_t dsim_end(otv_span t, size_t off)
{
  if (!off) return 0;
  otv_rd r = otv_rd_init(t, off);
  unsigned fmt = otv_rd_u8(&r), entry = otv_rd_u8(&r);
  uint32_t count = fmt == 1 ? otv_rd_u32(&r) : otv_rd_u16(&r);
  if (!otv_rd_ok(&r)) return SIZE_MAX;
  return r.pos + (size_t)count * (((entry >> 4) & 3) + 1);
}

static otv_status ivs_table(otv_inst *in, uint32_t tag, otv_buf *b)
{
  otv_span t = otv_face_span(in->face, tag);
  if (!t.p) return OTV_E_OK;
  otv_buf_bytes(b, t.p, t.len);
  if (b->failed) return OTV_FAIL(in->err, NOMEM, tag, 0, "table copy");
  size_t off, others = 0; /* where the table's other structures end */
  if (tag == OTV_T_MVAR) {
    if (t.len < 12) return OTV_FAIL(in->err, TRUNCATED, tag, 0, "MVAR header");
    off = otv_peek_u16(t.p + 10);
    others = 12 + (size_t)otv_peek_u16(t.p + 6) * otv_peek_u16(t.p + 8); /* the value records */
  } else {
    unsigned maps = tag == OTV_T_VVAR ? 4 : 3;
    if (t.len < 8 + 4 * (size_t)maps) return OTV_FAIL(in->err, TRUNCATED, tag, 0, "header");
    off = otv_peek_u32(t.p + 4);
    others = 8 + 4 * (size_t)maps;
    for (unsigned m = 0; m < maps; m++) {
      size_t e = dsim_end(t, otv_peek_u32(t.p + 8 + 4 * (size_t)m));
      if (e > others) others = e;
    }
  }
  if (!off) return OTV_E_OK;
  return otv_part_ivs(in, t, b, tag, off, others <= off);
}

/* ---- fvar ---- */

static otv_status build_fvar(otv_inst *in)
{
  const otv_face *f = in->face;
  const otv_fvar *fv = &f->fvar;
  otv_span t = otv_face_span(f, OTV_T_FVAR);
  unsigned ac = in->axis_count, kc = in->kept_count;
  size_t axis_size = t.len >= 12 ? otv_peek_u16(t.p + 10) : 0;
  size_t isz_new = 4 + 4 * (size_t)kc;
  bool ps = fv->instance_size >= 6 + 4 * (size_t)ac;
  if (ps) isz_new += 2;
  otv_buf *b = &in->fvar;
  otv_buf_u16(b, 1);
  otv_buf_u16(b, 0);
  otv_buf_u16(b, 16);
  otv_buf_u16(b, 2);
  otv_buf_u16(b, (uint16_t)kc);
  otv_buf_u16(b, 20);
  size_t count_at = b->len;
  otv_buf_u16(b, 0);
  otv_buf_u16(b, (uint16_t)isz_new);
  for (unsigned a = 0; a < ac; a++) {
    if (!in->keep[a]) continue;
    /* in range: axis records checked at open (axis_count x axisSize) */
    otv_buf_bytes(b, fv->axes + (size_t)a * axis_size, 20);
  }
  /* named instances on the pinned coordinates, without the pinned axes */
  double user[OTV_MAX_AXES];
  otv_f2dot14 norm[OTV_MAX_AXES];
  unsigned kept_instances = 0;
  for (unsigned i = 0; i < fv->instance_count; i++) {
    const uint8_t *rec =
        fv->instances + (size_t)i * fv->instance_size; /* in range: checked at open */
    for (unsigned a = 0; a < ac; a++) user[a] = otv_peek_i32(rec + 4 + 4 * a) / 65536.0;
    otv_error e = {0};
    if (otv_fvar_normalize(&f->fvar, user, norm, in->al, &e))
      return OTV_FAIL(in->err, NOMEM, OTV_T_FVAR, 0, "normalizing instance %u", i);
    bool on = true;
    for (unsigned a = 0; a < ac; a++)
      if (!in->keep[a] && norm[a] != in->coords[a]) on = false;
    if (!on) continue;
    otv_buf_bytes(b, rec, 4);
    for (unsigned a = 0; a < ac; a++)
      if (in->keep[a]) otv_buf_bytes(b, rec + 4 + 4 * a, 4);
    if (ps) otv_buf_bytes(b, rec + 4 + 4 * (size_t)ac, 2);
    kept_instances++;
  }
  if (b->failed) return OTV_FAIL(in->err, NOMEM, OTV_T_FVAR, 0, "fvar buffer");
  otv_buf_put_u16(b, count_at, (uint16_t)kept_instances);
  return OTV_E_OK;
}

/* ---- avar (version 1): the kept axes' segment maps ---- */

static otv_status build_avar(otv_inst *in)
{
  otv_span t = otv_face_span(in->face, OTV_T_AVAR);
  if (!t.p) return OTV_E_OK;
  otv_rd r = otv_rd_init(t, 0);
  uint16_t major = otv_rd_u16(&r);
  otv_rd_skip(&r, 4);
  uint16_t n = otv_rd_u16(&r);
  if (!otv_rd_ok(&r)) return OTV_FAIL_RD(in->err, OTV_T_AVAR, 0, &r, "avar header");
  if (major != 1)
    return OTV_FAIL(in->err, UNSUPPORTED, OTV_T_AVAR, 0, "partial instances of avar version %u",
                    major);
  otv_buf *b = &in->avar;
  otv_buf_u16(b, 1);
  otv_buf_u16(b, 0);
  otv_buf_u16(b, 0);
  otv_buf_u16(b, (uint16_t)in->kept_count);
  for (unsigned a = 0; a < n; a++) {
    size_t at = r.pos;
    uint16_t pc = otv_rd_u16(&r);
    const uint8_t *pairs = otv_rd_take(&r, 4 * (size_t)pc);
    if (!pairs) return OTV_FAIL(in->err, TRUNCATED, OTV_T_AVAR, at, "segment map %u", a);
    if (a >= in->axis_count || !in->keep[a]) continue;
    otv_buf_bytes(b, t.p + at, 2 + 4 * (size_t)pc);
  }
  /* a map missing for a kept axis (fewer maps than axes): an identity map keeps the count */
  for (unsigned a = n; a < in->axis_count; a++)
    if (in->keep[a]) otv_buf_u16(b, 0);
  if (b->failed) return OTV_FAIL(in->err, NOMEM, OTV_T_AVAR, 0, "avar buffer");
  return OTV_E_OK;
}

/* ---- gvar: header, offsets, the glyph data written by otv_inst_glyf ---- */

static otv_status build_gvar(otv_inst *in)
{
  if (!otv_face_span(in->face, OTV_T_GVAR).p) return OTV_E_OK;
  uint32_t n = in->glyph_count;
  in->gvar_offs[n] = (uint32_t)in->gvar_data.len;
  bool lng = in->gvar_data.len / 2 > 0xFFFF;
  size_t shared_at = 20 + ((size_t)n + 1) * (lng ? 4 : 2);
  size_t data_at = shared_at + 2 * (size_t)in->shn * in->kept_count;
  otv_buf *b = &in->gvar;
  otv_buf_u16(b, 1);
  otv_buf_u16(b, 0);
  otv_buf_u16(b, (uint16_t)in->kept_count);
  otv_buf_u16(b, (uint16_t)in->shn);
  otv_buf_u32(b, (uint32_t)shared_at);
  otv_buf_u16(b, (uint16_t)n);
  otv_buf_u16(b, lng ? 1 : 0);
  otv_buf_u32(b, (uint32_t)data_at);
  for (uint32_t g = 0; g <= n; g++) {
    if (lng)
      otv_buf_u32(b, in->gvar_offs[g]);
    else
      otv_buf_u16(b, (uint16_t)(in->gvar_offs[g] / 2));
  }
  for (size_t i = 0; i < (size_t)in->shn * in->kept_count; i++)
    otv_buf_u16(b, (uint16_t)in->shp[i]);
  otv_buf_bytes(b, in->gvar_data.p, in->gvar_data.len);
  if (b->failed) return OTV_FAIL(in->err, NOMEM, OTV_T_GVAR, 0, "gvar buffer");
  return OTV_E_OK;
}

/* ---- cvar ---- */

static otv_status build_cvar(otv_inst *in)
{
  otv_span cvar = otv_face_span(in->face, OTV_T_CVAR);
  size_t cvt_len = 0;
  otv_face_table(in->face, OTV_TAG('c', 'v', 't', ' '), &cvt_len);
  if (!cvar.p || cvt_len < 2) return OTV_E_OK;
  otv_buf *b = &in->cvar;
  otv_buf_u16(b, 1);
  otv_buf_u16(b, 0);
  otv_status st = otv_part_tvs(in, cvar, 4, OTV_T_CVAR, 0, NULL, 0, (unsigned)(cvt_len / 2), NULL,
                               NULL, NULL, NULL, NULL, 0, false, b, 0);
  if (st) return st;
  if (b->len == 4) { /* no tuple left: an empty store */
    otv_buf_u16(b, 0);
    otv_buf_u16(b, 8);
  }
  if (b->failed) return OTV_FAIL(in->err, NOMEM, OTV_T_CVAR, 0, "cvar buffer");
  return OTV_E_OK;
}

otv_status otv_part_tables(otv_inst *in)
{
  otv_status st;
  if ((st = build_fvar(in)) || (st = build_avar(in)) || (st = build_gvar(in)) ||
      (st = build_cvar(in)) || (st = ivs_table(in, OTV_T_HVAR, &in->hvar)) ||
      (st = ivs_table(in, OTV_T_VVAR, &in->vvar)) || (st = ivs_table(in, OTV_T_MVAR, &in->mvar)))
    return st;
  return OTV_E_OK;
}

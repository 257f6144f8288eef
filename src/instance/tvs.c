/*
 * instance/tvs.c - tuple variation stores (gvar glyph data, cvar) in static and partial
 * instances (spec: otvarcommonformats "Tuple Variation Store", gvar "Inferred deltas for
 * un-referenced point numbers").
 *
 * The bytes are decoded by tuple.h (the decoder the drawing code uses); this file evaluates
 * them in double, in the order of fontTools' instancer (the reference static instancer):
 *   - full instances (otv_tvs_sum): every tuple's deltas scaled axis by axis in tag order,
 *     inferred deltas (IUP) computed on each tuple's scaled deltas, the tuples summed in order;
 *   - partial instances (otv_tvs_partial): each tuple made explicit for every point (IUP on its
 *     unscaled deltas against the ORIGINAL default outline: the new default differs, so the same
 *     sparse points would infer other deltas), scaled by the pinned axes' factors and summed per
 *     kept region, rounded once, then re-encoded (tuple.h's encoders) listing only the points
 *     IUP cannot infer within the rounding's 0.5 from the new default outline.
 */
#include "instance/tvs.h"
#include "tuple.h"

static size_t at_least_1(size_t n) { return n ? n : 1; }

void otv_tvs_work_init(otv_tvs_work *w, const otv_alloc *al)
{
  memset(w, 0, sizeof *w);
  otv_buf_init(&w->packed, al);
}

void otv_tvs_work_free(otv_tvs_work *w, const otv_alloc *al, unsigned axis_count)
{
  otv_mem_free(al, w->shared_points, w->shared_points_cap * sizeof *w->shared_points);
  otv_mem_free(al, w->private_points, w->private_points_cap * sizeof *w->private_points);
  otv_mem_free(al, w->dx, w->point_cap * sizeof *w->dx);
  otv_mem_free(al, w->dy, w->point_cap * sizeof *w->dy);
  otv_mem_free(al, w->listed, w->point_cap);
  otv_mem_free(al, w->list_x, w->list_x_cap * sizeof *w->list_x);
  otv_mem_free(al, w->list_y, w->list_y_cap * sizeof *w->list_y);
  if (w->shared_k) otv_mem_free(al, w->shared_k, at_least_1(w->shared_count) * sizeof(int));
  if (w->shared_factors)
    otv_mem_free(al, w->shared_factors,
                 at_least_1(w->shared_count) * at_least_1(axis_count) * sizeof(double));
  if (w->pieces) otv_mem_free(al, w->pieces, OTV_PIECES_MAX * sizeof *w->pieces);
  otv_mem_free(al, w->kept, w->kept_cap);
  otv_mem_free(al, w->kept_deltas, w->kept_deltas_cap * sizeof *w->kept_deltas);
  otv_mem_free(al, w->rounded, w->rounded_cap * sizeof *w->rounded);
  otv_mem_free(al, w->iup_cost, w->iup_cost_cap * sizeof *w->iup_cost);
  otv_buf_free(&w->packed);
  otv_mem_free(al, w->peaks, w->peaks_cap * sizeof *w->peaks);
  if (w->peak_slots) otv_mem_free(al, w->peak_slots, OTV_TVS_PEAK_SLOTS * sizeof *w->peak_slots);
  memset(w, 0, sizeof *w);
}

/* Grow dx, dy and listed (one capacity) to >= need (their contents are not kept). On failure
 * the old arrays stay as they were, so they are freed with the right size. */
static bool grow_points(otv_tvs_work *w, const otv_alloc *al, size_t need)
{
  if (need <= w->point_cap) return true;
  size_t ncap = w->point_cap ? w->point_cap : 64;
  while (ncap < need) ncap *= 2;
  double *nx = otv_mem_alloc(al, ncap * sizeof *nx), *ny = otv_mem_alloc(al, ncap * sizeof *ny);
  uint8_t *nl = otv_mem_alloc(al, ncap);
  if (!nx || !ny || !nl) {
    if (nx) otv_mem_free(al, nx, ncap * sizeof *nx);
    if (ny) otv_mem_free(al, ny, ncap * sizeof *ny);
    if (nl) otv_mem_free(al, nl, ncap);
    return false;
  }
  otv_mem_free(al, w->dx, w->point_cap * sizeof *w->dx);
  otv_mem_free(al, w->dy, w->point_cap * sizeof *w->dy);
  otv_mem_free(al, w->listed, w->point_cap);
  w->dx = nx, w->dy = ny, w->listed = nl;
  w->point_cap = ncap;
  return true;
}

otv_status otv_tvs_shared_factors(const otv_ictx *cx, otv_tvs_work *w, const uint8_t *shared,
                                  unsigned shared_count)
{
  unsigned ac = cx->pin->axis_count, n = shared_count, stride = ac ? ac : 1;
  w->shared_k = otv_mem_alloc(cx->al, at_least_1(n) * sizeof *w->shared_k);
  if (!w->shared_k) return OTV_FAIL(cx->err, NOMEM, OTV_T_GVAR, 0, "shared tuple factors");
  w->shared_count = n; /* the sizes the blocks are freed with */
  w->shared_factors = otv_mem_alloc(cx->al, at_least_1(n) * stride * sizeof *w->shared_factors);
  if (!w->shared_factors) return OTV_FAIL(cx->err, NOMEM, OTV_T_GVAR, 0, "shared tuple factors");
  w->shared_tuples = shared;
  int16_t pk[OTV_MAX_AXES], st[OTV_MAX_AXES], en[OTV_MAX_AXES];
  for (unsigned i = 0; i < n; i++) {
    for (unsigned a = 0; a < ac; a++) {
      /* in range: the shared tuples were checked when gvar was parsed */
      pk[a] = otv_peek_i16(shared + 2 * ((size_t)i * ac + a));
      st[a] = pk[a] < 0 ? pk[a] : 0;
      en[a] = pk[a] > 0 ? pk[a] : 0;
    }
    w->shared_k[i] = otv_pin_factors(cx->pin, st, pk, en, w->shared_factors + (size_t)i * stride);
  }
  return OTV_E_OK;
}

/* ---- decoding, common to both evaluators ---- */

/* A tuple's region over ac axes (tuple.h's peak, start and end of the tuple: start and end
 * NULL when implied): the peak, and start/end given or implied by the peak. */
static void tuple_region(const uint8_t *tp, const uint8_t *ts, const uint8_t *te, unsigned ac,
                         int16_t *start, int16_t *peak, int16_t *end)
{
  /* in range: tuple.h checked axis_count values at each pointer */
  for (unsigned a = 0; a < ac; a++) peak[a] = otv_peek_i16(tp + 2 * a);
  if (ts) {
    for (unsigned a = 0; a < ac; a++) {
      start[a] = otv_peek_i16(ts + 2 * a);
      end[a] = otv_peek_i16(te + 2 * a);
    }
  } else {
    for (unsigned a = 0; a < ac; a++) {
      start[a] = peak[a] < 0 ? peak[a] : 0;
      end[a] = peak[a] > 0 ? peak[a] : 0;
    }
  }
}

/* Packed point numbers at [*q, end) into *buf (grown): count, 0 for every point. */
static otv_status read_points(const otv_ictx *cx, const uint8_t **q, const uint8_t *end,
                              uint16_t **buf, size_t *cap, unsigned *count)
{
  if (!otv_points_count(q, end, count)) return OTV_E_TRUNCATED;
  if (!*count) return OTV_E_OK;
  if (otv_mem_reserve(cx->al, (void **)buf, cap, *count, sizeof **buf)) return OTV_E_NOMEM;
  return otv_points_read(q, end, *count, *buf) ? OTV_E_OK : OTV_E_TRUNCATED;
}

/* Open the store and read its shared point numbers (*shared_n, 0: every point). */
static OTV_ALWAYS_INLINE otv_status open_store(const otv_ictx *cx, otv_tvs_work *w,
                                               const otv_tvs_in *s, otv_tvs *tv, unsigned *shared_n)
{
  otv_status st = otv_tvs_open(tv, s->data, s->hdr, cx->pin->axis_count, s->shared, s->shared_count,
                               cx->err, s->tag, s->tab_off, UINT32_MAX);
  *shared_n = 0;
  if (st || !tv->count || !tv->shared_points) return st;
  const uint8_t *q = s->data.p + tv->data_pos, *end = s->data.p + s->data.len;
  st = read_points(cx, &q, end, &w->shared_points, &w->shared_points_cap, shared_n);
  if (st == OTV_E_NOMEM) return OTV_FAIL(cx->err, NOMEM, s->tag, s->tab_off, "point numbers");
  if (st) return otv_tvs_fail(tv, st, tv->data_pos, "shared point numbers");
  tv->data_pos = (size_t)(q - s->data.p);
  return OTV_E_OK;
}

/* A tuple's point numbers (tidx: its tupleIndex, its data ends at end): its private ones (read
 * at *q) or the store's shared ones. *all: it lists every point. OTV_E_NOMEM is recorded;
 * OTV_E_TRUNCATED is left to the caller, which reports it with the store (TUPLE_POINTS_FAIL:
 * the store's cursor stays in registers when its address is never passed on). */
static otv_status tuple_points(const otv_ictx *cx, otv_tvs_work *w, const otv_tvs_in *s,
                               unsigned tidx, const uint8_t **q, const uint8_t *end,
                               unsigned shared_n, const uint16_t **pts, unsigned *count, bool *all)
{
  *pts = w->shared_points;
  *count = shared_n;
  *all = shared_n == 0;
  if (!(tidx & OTV_TUPLE_PRIVATE_POINTS)) return OTV_E_OK;
  otv_status st = read_points(cx, q, end, &w->private_points, &w->private_points_cap, count);
  if (st == OTV_E_NOMEM) return OTV_FAIL(cx->err, NOMEM, s->tag, s->tab_off, "point numbers");
  if (st) return st;
  *pts = w->private_points;
  *all = *count == 0;
  return OTV_E_OK;
}

/* the deltas of tuple t past its data (store tv) */
#define DELTAS_FAIL(tv, t)                                                                         \
  otv_tvs_fail(&(tv), OTV_E_TRUNCATED, (size_t)((t).p - (tv).data.p), "tuple %u deltas", (t).index)

/* tuple_points' error st for tuple t of store tv: NOMEM (recorded), or its point numbers past
 * its data */
#define TUPLE_POINTS_FAIL(tv, st, t)                                                               \
  ((st) == OTV_E_NOMEM ? (st)                                                                      \
                       : otv_tvs_fail(&(tv), (st), (size_t)((t).p - (tv).data.p),                  \
                                      "tuple %u point numbers", (t).index))

/* Inferred deltas (IUP) of one contour [a, b] of one axis: d has explicit values where
 * listed[i] (fontTools' iup_contour / iup_segment arithmetic, which the spec's description
 * matches). */
static void iup_axis(const double *orig, double *d, const uint8_t *listed, unsigned a, unsigned b)
{
  unsigned first = UINT32_MAX;
  for (unsigned i = a; i <= b; i++)
    if (listed[i]) {
      first = i;
      break;
    }
  if (first == UINT32_MAX) {
    for (unsigned i = a; i <= b; i++) d[i] = 0;
    return;
  }
  unsigned prev = first, i = first, len = b - a + 1;
  for (unsigned step = 0; step < len; step++) {
    i = i == b ? a : i + 1; /* walk forward cyclically from first */
    if (!listed[i] && i != first) continue;
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

/* A sparse tuple's deltas made explicit for all n points into w->dx/dy (w->listed marks the
 * listed points): the listed points' deltas times the k factors (a later duplicate wins), the
 * others inferred (IUP) for a simple glyph, else 0. Its x (and, two_dim, y) deltas are at *q
 * (its data ends at end). Full instances scale before inferring (k factors), partial ones after
 * (k = 0). NOMEM is recorded, TRUNCATED (deltas past the tuple's data) left to the caller
 * (DELTAS_FAIL). */
static otv_status expand_sparse(const otv_ictx *cx, otv_tvs_work *w, const otv_tvs_in *s,
                                const uint8_t **q, const uint8_t *end, const uint16_t *pts,
                                unsigned count, bool two_dim, const double *factors, int k)
{
  unsigned n = s->n;
  if (otv_mem_reserve(cx->al, (void **)&w->list_x, &w->list_x_cap, at_least_1(count),
                      sizeof *w->list_x) ||
      otv_mem_reserve(cx->al, (void **)&w->list_y, &w->list_y_cap, at_least_1(count),
                      sizeof *w->list_y))
    return OTV_FAIL(cx->err, NOMEM, s->tag, s->tab_off, "deltas");
  if (!otv_deltas_read_f64(q, end, count, w->list_x) ||
      (two_dim && !otv_deltas_read_f64(q, end, count, w->list_y)))
    return OTV_E_TRUNCATED; /* reported by the caller (DELTAS_FAIL) */
  double *dx = w->dx, *dy = w->dy;
  memset(w->listed, 0, n);
  for (unsigned i = 0; i < n; i++) dx[i] = dy[i] = 0;
  for (unsigned i = 0; i < count; i++) {
    unsigned p = pts[i];
    if (p >= n) continue; /* a point number past the glyph's points: ignored */
    w->listed[p] = 1;
    dx[p] = otv_pin_scale(w->list_x[i], factors, k);
    if (two_dim) dy[p] = otv_pin_scale(w->list_y[i], factors, k);
  }
  if (s->orig_x && s->end_count) {
    /* simple glyph: IUP per contour; the 4 phantom points are one-point contours */
    unsigned a = 0;
    for (unsigned c = 0; c < s->end_count; c++) {
      unsigned b = s->ends[c];
      if (b < a || b >= n) break;
      iup_axis(s->orig_x, dx, w->listed, a, b);
      iup_axis(s->orig_y, dy, w->listed, a, b);
      a = b + 1;
    }
  }
  return OTV_E_OK;
}

/* count packed deltas at *q added to acc, each scaled by the k factors as it is decoded (the
 * same operations, in the same order, as decoding, scaling, then adding). Zero deltas add
 * nothing. */
static bool read_deltas_acc(const uint8_t **q, const uint8_t *end, unsigned count, double *acc,
                            const double *s, int k)
{
/* a[i] += SCALED(delta i) over the run, one loop per kind of run (zeros add nothing) */
#define ACC_RUN(SCALED)                                                                            \
  switch (run.kind) {                                                                              \
  case OTV_DELTA_BYTES:                                                                            \
    for (unsigned i = 0; i < run.len; i++) a[i] += SCALED((int8_t)run.p[i]);                       \
    break;                                                                                         \
  case OTV_DELTA_WORDS:                                                                            \
    for (unsigned i = 0; i < run.len; i++) a[i] += SCALED(otv_peek_i16(run.p + 2 * i));            \
    break;                                                                                         \
  case OTV_DELTA_LONGS:                                                                            \
    for (unsigned i = 0; i < run.len; i++) a[i] += SCALED(otv_peek_i32(run.p + 4 * i));            \
    break;                                                                                         \
  default: break;                                                                                  \
  }
#define BY_S0(d) ((double)(d)*s0)
#define BY_FACTORS(d) otv_pin_scale((d), s, k)
  unsigned got = 0;
  const double s0 = k == 1 ? s[0] : 0;
  while (got < count) {
    otv_delta_run run;
    if (!otv_delta_run_next(q, end, count - got, &run)) return false;
    double *a = acc + got;
    /* in range: the run's bytes were checked by otv_delta_run_next */
    if (k == 1) {
      ACC_RUN(BY_S0)
    } else {
      ACC_RUN(BY_FACTORS)
    }
    got += run.len;
  }
  return true;
#undef ACC_RUN
#undef BY_S0
#undef BY_FACTORS
}

/* spec: cvar header: majorVersion, minorVersion, then the tuple variation store */
#define CVAR_STORE_AT 4

otv_status otv_tvs_cvar(const otv_ictx *cx, otv_span cvar, unsigned cvt_count, otv_tvs_in *out)
{
  memset(out, 0, sizeof *out);
  otv_rd r = otv_rd_init(cvar, 0);
  uint16_t major = otv_rd_u16(&r);
  if (!otv_rd_ok(&r)) return OTV_FAIL_RD(cx->err, OTV_T_CVAR, 0, &r, "cvar header");
  if (major != 1) return OTV_FAIL(cx->err, UNSUPPORTED, OTV_T_CVAR, 0, "cvar version %u", major);
  out->data = cvar;
  out->hdr = CVAR_STORE_AT;
  out->tag = OTV_T_CVAR;
  out->n = cvt_count;
  return OTV_E_OK;
}

/* ---- full instances ---- */

otv_status otv_tvs_sum(const otv_ictx *cx, otv_tvs_work *w, const otv_tvs_in *s, double *acc_x,
                       double *acc_y)
{
  unsigned ac = cx->pin->axis_count, n = s->n;
  otv_tvs tv;
  unsigned shared_n;
  otv_status st = open_store(cx, w, s, &tv, &shared_n);
  if (st || !tv.count) return st;
  if (!grow_points(w, cx->al, at_least_1(n)))
    return OTV_FAIL(cx->err, NOMEM, s->tag, s->tab_off, "deltas");
  int16_t peak[OTV_MAX_AXES], start[OTV_MAX_AXES], end[OTV_MAX_AXES];
  double factors_buf[OTV_MAX_AXES];
  /* the factors of the shared tuples, computed once per instance (otv_tvs_shared_factors) */
  const bool have_shared = s->shared && w->shared_k && w->shared_tuples == s->shared;
  const unsigned shared_known = have_shared ? w->shared_count : 0;
  const size_t shared_stride = ac ? ac : 1;
  otv_tuple t;
  int more;
  while ((more = otv_tvs_next(&tv, &t)) > 0) {
    int k;
    const double *factors = factors_buf;
    unsigned si = t.tidx & OTV_TUPLE_INDEX_MASK;
    if (!(t.tidx & (OTV_TUPLE_EMBEDDED_PEAK | OTV_TUPLE_INTERMEDIATE)) && si < shared_known) {
      /* a shared tuple with its implied region */
      k = w->shared_k[si];
      factors = w->shared_factors + si * shared_stride;
    } else {
      tuple_region(t.peak, t.start, t.end, ac, start, peak, end);
      k = otv_pin_factors(cx->pin, start, peak, end, factors_buf);
    }
    if (k < 0) continue;
    const uint8_t *q = t.p;
    const uint16_t *pts;
    unsigned count;
    bool all;
    if ((st = tuple_points(cx, w, s, t.tidx, &q, t.pend, shared_n, &pts, &count, &all)))
      return TUPLE_POINTS_FAIL(tv, st, t);
    if (all) {
      /* decoded, scaled and summed in one pass */
      if (!read_deltas_acc(&q, t.pend, n, acc_x, factors, k) ||
          (acc_y && !read_deltas_acc(&q, t.pend, n, acc_y, factors, k)))
        return DELTAS_FAIL(tv, t);
      continue;
    }
    if ((st = expand_sparse(cx, w, s, &q, t.pend, pts, count, acc_y != NULL, factors, k)))
      return st == OTV_E_TRUNCATED ? DELTAS_FAIL(tv, t) : st;
    for (unsigned i = 0; i < n; i++) {
      acc_x[i] += w->dx[i];
      if (acc_y) acc_y[i] += w->dy[i];
    }
  }
  return more < 0 ? tv.status : OTV_E_OK;
}

/* ---- partial instances ---- */

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
    if (fabs(otv_iup_infer(c->ox, c->rx, j, i, k) - c->ex[k]) > IUP_TOL) return false;
    if (fabs(otv_iup_infer(c->oy, c->ry, j, i, k) - c->ey[k]) > IUP_TOL) return false;
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

/* One kept tuple of a store being rewritten. */
typedef struct kept_tuple {
  int16_t start[OTV_MAX_AXES], peak[OTV_MAX_AXES], end[OTV_MAX_AXES];
  bool intermediate;
  int shared;  /* gvar shared tuple index of the peak, -1: embedded */
  size_t size; /* packed delta bytes */
} kept_tuple;

/* The new gvar's shared-tuple index of a peak (added when new), or -1 when the table is full
 * (4095) or memory ran out (then the peak is embedded). */
static int shared_index(const otv_ictx *cx, otv_tvs_work *w, const int16_t *peak)
{
  unsigned kc = cx->pin->kept_count;
  if (!w->peak_slots) {
    w->peak_slots = otv_mem_calloc(cx->al, OTV_TVS_PEAK_SLOTS, sizeof *w->peak_slots);
    if (!w->peak_slots) return -1;
  }
  uint32_t h = 2166136261u; /* FNV-1a over the peak's values */
  for (unsigned j = 0; j < kc; j++) h = (h ^ (uint16_t)peak[j]) * 16777619u;
  unsigned slot = h & (OTV_TVS_PEAK_SLOTS - 1);
  for (;;) {
    unsigned v = w->peak_slots[slot];
    if (!v) break;
    if (!memcmp(w->peaks + (size_t)(v - 1) * kc, peak, kc * sizeof *peak)) return (int)v - 1;
    slot = (slot + 1) & (OTV_TVS_PEAK_SLOTS - 1);
  }
  if (w->peak_count >= OTV_TUPLE_INDEX_MASK) return -1;
  if (otv_mem_reserve(cx->al, (void **)&w->peaks, &w->peaks_cap,
                      ((size_t)w->peak_count + 1) * (kc ? kc : 1), sizeof *w->peaks))
    return -1;
  memcpy(w->peaks + (size_t)w->peak_count * kc, peak, kc * sizeof *peak);
  w->peak_slots[slot] = (uint16_t)(++w->peak_count);
  return (int)w->peak_count - 1;
}

#define RESERVE(ptr, cap, need)                                                                    \
  otv_mem_reserve(cx->al, (void **)&(ptr), &(cap), at_least_1(need), sizeof *(ptr))

otv_status otv_tvs_partial(const otv_ictx *cx, otv_tvs_work *w, const otv_tvs_in *s,
                           const double *new_x, const double *new_y, bool two_dim, otv_buf *out,
                           size_t rel_base)
{
  const otv_pin *pin = cx->pin;
  unsigned ac = pin->axis_count, kc = pin->kept_count, n = s->n;
  uint32_t tag = s->tag;
  size_t tab_off = s->tab_off;
  otv_tvs tv;
  unsigned shared_n;
  otv_status st = open_store(cx, w, s, &tv, &shared_n);
  if (st) return st;
  unsigned count = tv.count;
  if (!count || !n) return OTV_E_OK;
  size_t dims = two_dim ? 2 : 1, row = (size_t)n * dims;
  if (!grow_points(w, cx->al, n)) return OTV_FAIL(cx->err, NOMEM, tag, tab_off, "deltas");
  if (!w->pieces && !(w->pieces = otv_mem_alloc(cx->al, OTV_PIECES_MAX * sizeof *w->pieces)))
    return OTV_FAIL(cx->err, NOMEM, tag, tab_off, "region pieces");
  otv_buf *pk = &w->packed;
  pk->len = 0;
  unsigned nk = 0;
  int16_t peak[OTV_MAX_AXES], start[OTV_MAX_AXES], end[OTV_MAX_AXES];
  double factors[OTV_MAX_AXES];
  otv_tuple t;
  int more;
  while ((more = otv_tvs_next(&tv, &t)) > 0) {
    tuple_region(t.peak, t.start, t.end, ac, start, peak, end);
    int k, np = otv_pin_pieces(pin, start, peak, end, factors, &k, w->pieces, OTV_PIECES_MAX);
    if (np == -2)
      return OTV_FAIL(cx->err, LIMIT, tag, tab_off,
                      "tuple %u: more than %u regions in the new space", t.index, OTV_PIECES_MAX);
    if (np <= 0) continue; /* gone, or folded into the default */
    const uint8_t *q = t.p;
    const uint16_t *pts;
    unsigned pn;
    bool all;
    if ((st = tuple_points(cx, w, s, t.tidx, &q, t.pend, shared_n, &pts, &pn, &all)))
      return TUPLE_POINTS_FAIL(tv, st, t);
    double *dx = w->dx, *dy = w->dy;
    if (all) {
      if (!otv_deltas_read_f64(&q, t.pend, n, dx) ||
          (two_dim && !otv_deltas_read_f64(&q, t.pend, n, dy)))
        return DELTAS_FAIL(tv, t);
    } else if ((st = expand_sparse(cx, w, s, &q, t.pend, pts, pn, two_dim, NULL, 0))) {
      return st == OTV_E_TRUNCATED ? DELTAS_FAIL(tv, t) : st;
    }
    if (otv_mem_reserve(cx->al, &w->kept, &w->kept_cap, ((size_t)nk + np) * sizeof(kept_tuple),
                        1) ||
        RESERVE(w->kept_deltas, w->kept_deltas_cap, ((size_t)nk + np) * row))
      return OTV_FAIL(cx->err, NOMEM, tag, tab_off, "tuples");
    kept_tuple *kt = w->kept;
    for (int pi = 0; pi < np; pi++) {
      const otv_piece *pc = &w->pieces[pi];
      /* tuples whose regions become the same are summed, and rounded once */
      unsigned slot = 0;
      while (slot < nk && !(memcmp(kt[slot].start, pc->s, kc * sizeof *pc->s) == 0 &&
                            memcmp(kt[slot].peak, pc->p, kc * sizeof *pc->p) == 0 &&
                            memcmp(kt[slot].end, pc->e, kc * sizeof *pc->e) == 0))
        slot++;
      double *acc = w->kept_deltas + (size_t)slot * row;
      if (slot == nk) {
        memset(&kt[nk], 0, sizeof kt[nk]);
        memcpy(kt[nk].start, pc->s, kc * sizeof *pc->s);
        memcpy(kt[nk].peak, pc->p, kc * sizeof *pc->p);
        memcpy(kt[nk].end, pc->e, kc * sizeof *pc->e);
        nk++;
        for (size_t i = 0; i < row; i++) acc[i] = 0;
      }
      /* the pinned factors in fontTools' order, then the piece's coefficient (1 without
       * limits: not multiplied, so unlimited instances round as before) */
      double cf = pc->coef;
      for (unsigned i = 0; i < n; i++) {
        double vx = otv_pin_scale(dx[i], factors, k),
               vy = two_dim ? otv_pin_scale(dy[i], factors, k) : 0;
        if (cf != 1) vx *= cf, vy *= cf;
        acc[i] += vx;
        if (two_dim) acc[n + i] += vy;
      }
    }
  }
  if (more < 0) return tv.status;
  /* round; choose the points each tuple lists; drop the tuples left without one; pack */
  if (RESERVE(w->rounded, w->rounded_cap, row) ||
      RESERVE(w->iup_cost, w->iup_cost_cap, 2 * ((size_t)n + 2)))
    goto nomem;
  kept_tuple *kt = w->kept;
  unsigned live = 0;
  for (unsigned k = 0; k < nk; k++) {
    const double *exact = w->kept_deltas + (size_t)k * row;
    int32_t *r32 = w->rounded;
    for (size_t i = 0; i < row; i++) r32[i] = otv_inst_round(exact[i]);
    uint8_t *keep = w->listed;
    unsigned m = 0;
    if (new_x && s->end_count) {
      /* a simple glyph: contours (and the one-point phantom contours) by IUP over the new
       * default outline */
      iup_ctx c = {new_x, new_y, exact, exact + n, r32, r32 + n, 0, 0};
      memset(keep, 0, n);
      unsigned a = 0;
      for (unsigned e = 0; e < s->end_count; e++) {
        unsigned b = s->ends[e];
        if (b < a || b >= n) break;
        c.a = a, c.b = b;
        iup_choose(&c, keep, w->iup_cost, w->iup_cost + n + 2);
        a = b + 1;
      }
    } else {
      /* composites and cvar: a point left out gets no delta */
      for (unsigned i = 0; i < n; i++) keep[i] = r32[i] != 0 || (two_dim && r32[n + i] != 0);
    }
    for (unsigned i = 0; i < n; i++) m += keep[i];
    if (!m) continue;
    kept_tuple *o = &kt[live++];
    if (o != &kt[k]) *o = kt[k];
    o->intermediate = false;
    for (unsigned j = 0; j < kc; j++)
      if (o->start[j] != (o->peak[j] < 0 ? o->peak[j] : 0) ||
          o->end[j] != (o->peak[j] > 0 ? o->peak[j] : 0))
        o->intermediate = true;
    size_t before = pk->len;
    /* every point (no list), then, when fewer points are listed, the sparse form if smaller */
    otv_buf_u8(pk, 0);
    /* x and y are two packed arrays: no run may cross from one into the other */
    for (unsigned dim = 0; dim < dims; dim++) otv_tuple_pack_deltas(pk, r32 + (size_t)dim * n, n);
    if (m < n) {
      size_t all_len = pk->len - before;
      otv_tuple_pack_points(pk, keep, n, m);
      for (unsigned dim = 0; dim < dims; dim++) {
        /* the listed points' deltas, gathered to the front of this axis's row (w <= i) */
        unsigned wr = 0;
        int32_t *src = r32 + (size_t)dim * n;
        for (unsigned i = 0; i < n; i++)
          if (keep[i]) src[wr++] = src[i];
        otv_tuple_pack_deltas(pk, src, wr);
      }
      size_t sparse_len = pk->len - before - all_len;
      if (!pk->failed && sparse_len < all_len) /* the sparse form replaces the full one */
        memmove(pk->p + before, pk->p + before + all_len, sparse_len);
      pk->len = before + (sparse_len < all_len ? sparse_len : all_len);
    }
    o->size = pk->len - before;
    if (o->size > 0xFFFF)
      return OTV_FAIL(cx->err, LIMIT, tag, tab_off, "a tuple with more than 64 KiB of deltas");
  }
  nk = live;
  if (pk->failed) goto nomem;
  if (nk) {
    /* header; tuples with private point numbers and their peaks shared (gvar) or embedded */
    size_t hsize = 4;
    for (unsigned k = 0; k < nk; k++) {
      kt[k].shared = tag == OTV_T_GVAR && kc ? shared_index(cx, w, kt[k].peak) : -1;
      hsize += 4 + 2 * (size_t)kc * ((kt[k].shared < 0 ? 1 : 0) + (kt[k].intermediate ? 2 : 0));
    }
    size_t doff = out->len + hsize - rel_base;
    if (doff > 0xFFFF)
      return OTV_FAIL(cx->err, LIMIT, tag, tab_off, "%u tuples: headers past 64 KiB", nk);
    otv_buf_u16(out, (uint16_t)nk);
    otv_buf_u16(out, (uint16_t)doff);
    for (unsigned k = 0; k < nk; k++) {
      otv_buf_u16(out, (uint16_t)kt[k].size);
      unsigned flags = OTV_TUPLE_PRIVATE_POINTS | (kt[k].intermediate ? OTV_TUPLE_INTERMEDIATE : 0);
      if (kt[k].shared >= 0) {
        otv_buf_u16(out, (uint16_t)(flags | (unsigned)kt[k].shared));
      } else {
        otv_buf_u16(out, (uint16_t)(flags | OTV_TUPLE_EMBEDDED_PEAK));
        for (unsigned j = 0; j < kc; j++) otv_buf_u16(out, (uint16_t)kt[k].peak[j]);
      }
      if (kt[k].intermediate) {
        for (unsigned j = 0; j < kc; j++) otv_buf_u16(out, (uint16_t)kt[k].start[j]);
        for (unsigned j = 0; j < kc; j++) otv_buf_u16(out, (uint16_t)kt[k].end[j]);
      }
    }
    otv_buf_bytes(out, pk->p, pk->len);
    if (out->failed) goto nomem;
  }
  return OTV_E_OK;
nomem:
  return OTV_FAIL(cx->err, NOMEM, tag, tab_off, "variation data");
}

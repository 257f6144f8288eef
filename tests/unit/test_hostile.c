/*
 * test_hostile.c - replays the hostile-font corpus of tests/hostile/gen_hostile.py through every
 * public entry point a user reaches with font bytes, and checks each case's outcome class
 * (valid / reject / blame / same / accept: see the generator's header), plus:
 *   - no leak: a counting allocator must show zero live blocks and bytes after close;
 *   - bounded work: a pen that counts calls jumps out of a glyph that draws more than
 *     PEN_BUDGET segments (the documented point cap makes any honest glyph far smaller);
 *   - bounded memory: the peak of live bytes stays under MEM_BUDGET(file size);
 *   - errors that say where: every error has a message, a known code, and (blame) a table tag
 *     from the allowed set.
 * Crashes and out-of-bounds reads are ASan's and UBSan's job (the test suite runs under them).
 * Then API cases the generator cannot express: NaN/Inf user values, bad arguments.
 *
 * The corpus is generated at test time into a temp directory with Debian's /usr/bin/python3
 * (OTV_HOSTILE_DIR=DIR uses an existing one; OTV_HOSTILE_FILTER=substr runs matching cases;
 * OTV_HOSTILE_SKIP="name1 name2" skips cases; OTV_HOSTILE_VERBOSE=1 prints each name first).
 */
#include "harness.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define PEN_BUDGET (8L * (OTV_MAX_POINTS + 4) + 64) /* pen calls for one glyph */
#define MAX_GLYPHS_RUN 300u                         /* glyphs drawn per location */
#define MEM_BUDGET(len) ((long long)64 << 20) + 64 * (long long)(len)

/* ---- allocator: h_peak_realloc (counts, live blocks/bytes, the peak), traced on request ---- */
static int g_trace_alloc; /* OTV_HOSTILE_TRACE: print every allocator call */
static void *t_realloc(void *ud, void *ptr, size_t old_len, size_t new_len)
{
  if (g_trace_alloc && !new_len)
    fprintf(stderr, "  realloc(%#lx, %zu -> 0)\n", (unsigned long)(uintptr_t)ptr, old_len);
  uintptr_t was = (uintptr_t)ptr;
  void *p = h_peak_realloc(ud, ptr, old_len, new_len);
  if (g_trace_alloc && new_len)
    fprintf(stderr, "  realloc(%#lx, %zu -> %zu) = %p\n", (unsigned long)was, old_len, new_len, p);
  return p;
}

/* ---- digest of everything the API answers (FNV-1a 64) ---- */
typedef struct run {
  const char *name;
  char cls[16];
  char detail[256];
  uint64_t digest;
  long pen_calls;
  long pen_calls_max;
  jmp_buf jb;
  int jumped;
  int failed;          /* this case already reported a failure */
  otv_error first_err; /* first error observed (open or later) */
  int errors;          /* errors observed */
} run;

static void dg_bytes(run *r, const void *p, size_t n)
{
  const uint8_t *b = p;
  for (size_t i = 0; i < n; i++) {
    r->digest ^= b[i];
    r->digest *= 0x100000001b3ULL;
  }
}
static void dg_u(run *r, uint64_t v) { dg_bytes(r, &v, sizeof v); }
static void dg_f(run *r, double v)
{
  if (v != v) v = -12345.678; /* NaN: one pattern */
  dg_bytes(r, &v, sizeof v);
}

static void fail_case(run *r, const char *fmt, const char *what, const otv_error *e)
{
  h_checks++;
  h_failures++;
  if (r->failed++ >= 3) return; /* the first three failures of a case are enough to read */
  char buf[200] = "";
  if (e) otv_error_format(e, buf, sizeof buf);
  fprintf(stderr, "HOSTILE FAIL %s [%s %s]: ", r->name, r->cls, r->detail);
  fprintf(stderr, fmt, what);
  if (e) fprintf(stderr, " -- error: %s (code %d)", buf, (int)e->code);
  fprintf(stderr, "\n");
}

/* Does the '|'-separated tag list allow table `t` ("*" allows any, "-" is tag 0)? */
static int allowed(const char *list, uint32_t t)
{
  if (!strcmp(list, "*")) return 1;
  const char *p = list;
  while (*p) {
    const char *q = strchr(p, '|');
    size_t n = q ? (size_t)(q - p) : strlen(p);
    if (n == 1 && p[0] == '-' && t == 0) return 1;
    if (n > 0 && n <= 4 && p[0] != '-') {
      char tag[5] = "    ";
      memcpy(tag, p, n);
      uint32_t want;
      if (otv_tag_from_string(tag, &want) && want == t) return 1;
    }
    if (!q) break;
    p = q + 1;
  }
  return 0;
}

/* Every status returned by a call goes through here. */
/* A location keeps the first error since its last successful setter, so after a failed call the
 * coordinates are re-applied (same values) to clear it: the next failure is then its own. */
static otv_location *g_loc;
static void loc_clear(void)
{
  if (!g_loc || otv_location_last_error(g_loc)->code == OTV_E_OK) return;
  unsigned n = otv_location_normalized(g_loc, NULL, 0);
  otv_f2dot14 *c = calloc(n ? n : 1, sizeof *c);
  otv_location_normalized(g_loc, c, n);
  otv_location_set_normalized(g_loc, c, n);
  free(c);
}

static void note_(run *r, otv_status s, const otv_error *e, const char *what);
static void note(run *r, otv_status s, const otv_error *e, const char *what)
{
  note_(r, s, e, what);
  loc_clear(); /* some calls leave a note even when they succeed */
}
static void note_(run *r, otv_status s, const otv_error *e, const char *what)
{
  dg_u(r, (uint64_t)s);
  if (s == OTV_E_OK) return;
  if ((int)s < 0 || (int)s > OTV_E_LIMIT) {
    fail_case(r, "%s returned an unknown status", what, e);
    return;
  }
  /* a size answer or an absent item need not be recorded as an error */
  if (!e || s == OTV_E_SMALL_BUFFER || s == OTV_E_NOT_FOUND) return;
  dg_u(r, e->table);
  if (e->code == OTV_E_OK || e->msg[0] == '\0') {
    fail_case(r, "%s failed without recording an error (code and message)", what, e);
    return;
  }
  if (r->errors++ == 0) r->first_err = *e;
  if (e->code != s) {
    /* the location keeps its FIRST error: a call that left a note (e.g. "CFF2 without HVAR")
     * and then failed for another reason reports the note. Printed, not failed: see
     * docs/limits.md "Error attribution". */
    static int printed;
    if (!printed++)
      printf("note: %s: %s returned %d but the location's error is: %s (code %d)\n", r->name, what,
             (int)s, e->msg, (int)e->code);
    return;
  }
  /* not supported yet, or an optional table the font does not have (e.g. vmtx) */
  if (s == OTV_E_UNSUPPORTED || s == OTV_E_NO_TABLE) return;
  if (!strcmp(r->cls, "valid") || !strcmp(r->cls, "accept")) {
    if (s == OTV_E_ARG) return; /* only from the deliberate out-of-range calls */
    if (!r->failed) fail_case(r, "%s failed on a well-formed font", what, e);
    return;
  }
  if (!strcmp(r->cls, "blame") && s != OTV_E_ARG && !allowed(r->detail, e->table) && !r->failed)
    fail_case(r, "%s: the error names a table outside the allowed set", what, e);
}

/* ---- pen ---- */
static run *g_run;
static void pen_tick(run *r)
{
  if (++r->pen_calls > PEN_BUDGET) {
    r->jumped = 1;
    longjmp(r->jb, 1);
  }
}
static void p_move(void *c, float x, float y)
{
  run *r = c;
  pen_tick(r);
  dg_u(r, 1);
  dg_f(r, x);
  dg_f(r, y);
}
static void p_line(void *c, float x, float y)
{
  run *r = c;
  pen_tick(r);
  dg_u(r, 2);
  dg_f(r, x);
  dg_f(r, y);
}
static void p_quad(void *c, float a, float b, float x, float y)
{
  run *r = c;
  pen_tick(r);
  dg_u(r, 3);
  dg_f(r, a);
  dg_f(r, b);
  dg_f(r, x);
  dg_f(r, y);
}
static void p_cubic(void *c, float a, float b, float d, float e, float x, float y)
{
  run *r = c;
  pen_tick(r);
  dg_u(r, 4);
  dg_f(r, a);
  dg_f(r, b);
  dg_f(r, d);
  dg_f(r, e);
  dg_f(r, x);
  dg_f(r, y);
}
static void p_close(void *c)
{
  run *r = c;
  pen_tick(r);
  dg_u(r, 5);
}
static const otv_pen PEN = {p_move, p_line, p_quad, p_cubic, p_close};

static const uint32_t METRIC_TAGS[] = {
    OTV_TAG('h', 'a', 's', 'c'), OTV_TAG('h', 'd', 's', 'c'), OTV_TAG('h', 'l', 'g', 'p'),
    OTV_TAG('x', 'h', 'g', 't'), OTV_TAG('c', 'p', 'h', 't'), OTV_TAG('u', 'n', 'd', 's'),
    OTV_TAG('u', 'n', 'd', 'o'), OTV_TAG('s', 't', 'r', 's'), OTV_TAG('s', 't', 'r', 'o'),
    OTV_TAG('v', 'a', 's', 'c'), OTV_TAG('h', 'c', 'r', 's'), OTV_TAG('z', 'z', 'z', 'z')};

/* All glyph-level calls at the current location. */
static void glyph_pass(run *r, otv_location *loc, uint32_t glyph_count, int light)
{
  uint32_t n = glyph_count < MAX_GLYPHS_RUN ? glyph_count : MAX_GLYPHS_RUN;
  /* TrueType glyphs' points are followed by 4 phantom points; CFF and CFF2 glyphs have none */
  otv_face_info info;
  otv_face_get_info(otv_location_face(loc), &info);
  const unsigned phantoms = info.flavour == OTV_FLAVOUR_GLYF ? 4 : 0;
  /* volatile: these live across setjmp (the pen's call cap longjmps out of a runaway glyph) */
  otv_point *volatile pts = NULL;
  uint8_t *volatile pf = NULL;
  uint16_t *volatile ce = NULL;
  for (volatile uint32_t i = 0; i <= n; i++) {
    /* the last round draws the last glyph (past the MAX_GLYPHS_RUN window) */
    volatile uint32_t gid = i < n ? i : (glyph_count ? glyph_count - 1 : 0);
    if (i == n && gid < n) break;
    r->pen_calls = 0;
    r->jumped = 0;
    g_run = r;
    if (setjmp(r->jb) == 0) {
      otv_status s = otv_glyph_outline(loc, gid, 0, &PEN, r);
      note(r, s, otv_location_last_error(loc), "otv_glyph_outline");
      if (!light) {
        s = otv_glyph_outline(loc, gid, OTV_OUTLINE_ROUND, &PEN, r);
        note(r, s, otv_location_last_error(loc), "otv_glyph_outline ROUND");
        s = otv_glyph_outline(loc, gid, 0, NULL, NULL);
        note(r, s, otv_location_last_error(loc), "otv_glyph_outline NULL pen");
      }
    }
    if (r->jumped && !r->failed) {
      char what[64];
      snprintf(what, sizeof what, "glyph %u", gid);
      fail_case(r, "%s: more than PEN_BUDGET pen calls (unbounded work)", what, NULL);
    }
    if (r->pen_calls > r->pen_calls_max) r->pen_calls_max = r->pen_calls;
    /* points: ask the size, then fetch into buffers of exactly that size */
    otv_glyph_points io;
    memset(&io, 0, sizeof io);
    otv_status s = otv_glyph_points_get(loc, gid, 0, &io);
    note(r, s, otv_location_last_error(loc), "otv_glyph_points_get (size query)");
    if ((s == OTV_E_OK || s == OTV_E_SMALL_BUFFER) && io.point_count <= OTV_MAX_POINTS) {
      unsigned np = io.point_count + 4, nc = io.contour_count;
      pts = realloc(pts, np * sizeof *pts);
      pf = realloc(pf, np);
      ce = realloc(ce, (nc ? nc : 1) * sizeof *ce);
      memset(&io, 0, sizeof io);
      io.points = pts;
      io.point_flags = pf;
      io.contour_ends = ce;
      io.point_cap = np;
      io.contour_cap = nc;
      s = otv_glyph_points_get(loc, gid, 0, &io);
      note(r, s, otv_location_last_error(loc), "otv_glyph_points_get");
      if (s == OTV_E_OK) {
        dg_u(r, io.point_count);
        dg_u(r, io.contour_count);
        if (io.point_count + 4 > np || io.contour_count > nc)
          fail_case(r, "%s: wrote more points or contours than the buffers hold",
                    "otv_glyph_points_get", NULL);
        else
          for (unsigned k = 0; k < io.point_count + phantoms && k < np; k++) {
            dg_f(r, pts[k].x);
            dg_f(r, pts[k].y);
          }
        for (unsigned k = 0; k < io.contour_count && k < nc; k++)
          if (ce[k] >= io.point_count && io.point_count)
            fail_case(r, "%s: contour end past the point count", "otv_glyph_points_get", NULL);
      }
    }
    otv_glyph_metrics m;
    s = otv_glyph_h_metrics(loc, gid, 0, &m);
    note(r, s, otv_location_last_error(loc), "otv_glyph_h_metrics");
    if (!s) {
      dg_f(r, m.advance);
      dg_f(r, m.side_a);
      dg_f(r, m.side_b);
    }
    if (!light) {
      s = otv_glyph_v_metrics(loc, gid, OTV_METRICS_ROUND, &m);
      note(r, s, otv_location_last_error(loc), "otv_glyph_v_metrics");
      if (!s) {
        dg_f(r, m.advance);
        dg_f(r, m.side_a);
        dg_f(r, m.side_b);
        dg_f(r, m.origin);
      }
    }
  }
  free(pts);
  free(pf);
  free(ce);
  /* advances in one call, with a few ids out of range on purpose at the end */
  uint32_t gids[MAX_GLYPHS_RUN + 1];
  float adv[MAX_GLYPHS_RUN + 1];
  for (uint32_t i = 0; i < n; i++) gids[i] = i;
  otv_status s = otv_glyph_advances(loc, gids, n, 0, adv);
  note(r, s, otv_location_last_error(loc), "otv_glyph_advances");
  if (!s)
    for (uint32_t i = 0; i < n; i++) dg_f(r, adv[i]);
  s = otv_glyph_advances(loc, gids, n, OTV_METRICS_VERTICAL | OTV_METRICS_ROUND, adv);
  note(r, s, otv_location_last_error(loc), "otv_glyph_advances vertical");
  for (size_t i = 0; i < sizeof METRIC_TAGS / sizeof *METRIC_TAGS; i++) {
    float v = 0;
    s = otv_font_metric(loc, METRIC_TAGS[i], 0, &v);
    note(r, s, otv_location_last_error(loc), "otv_font_metric");
    if (!s) dg_f(r, v);
  }
  /* out of range on purpose: must be ARG (not digested as a failure) */
  s = otv_glyph_outline(loc, glyph_count, 0, &PEN, r);
  if (s != OTV_E_ARG)
    fail_case(r, "%s: glyph id == glyph count is not OTV_E_ARG", "otv_glyph_outline",
              otv_location_last_error(loc));
  s = otv_glyph_outline(loc, UINT32_MAX, 0, &PEN, r);
  if (s != OTV_E_ARG)
    fail_case(r, "%s: glyph id 0xFFFFFFFF is not OTV_E_ARG", "otv_glyph_outline",
              otv_location_last_error(loc));
}

#ifdef OTV_RASTER_EVEN_ODD
/* The raster pen behind the pen-call budget. */
static otv_raster *g_ras;
static void rp_move(void *c, float x, float y)
{
  pen_tick(c);
  otv_raster_pen()->move_to(g_ras, x, y);
}
static void rp_line(void *c, float x, float y)
{
  pen_tick(c);
  otv_raster_pen()->line_to(g_ras, x, y);
}
static void rp_quad(void *c, float a, float b, float x, float y)
{
  pen_tick(c);
  otv_raster_pen()->quad_to(g_ras, a, b, x, y);
}
static void rp_cubic(void *c, float a, float b, float d, float e, float x, float y)
{
  pen_tick(c);
  otv_raster_pen()->cubic_to(g_ras, a, b, d, e, x, y);
}
static void rp_close(void *c)
{
  pen_tick(c);
  otv_raster_pen()->close_path(g_ras);
}
static const otv_pen RPEN = {rp_move, rp_line, rp_quad, rp_cubic, rp_close};

/* Render every drawn glyph (first 64) through the rasterizer into a 64x64 buffer. */
static void raster_pass(run *r, otv_location *loc, uint32_t glyph_count, unsigned upem)
{
  otv_raster *ras = NULL;
  if (otv_raster_create(NULL, &ras)) {
    fail_case(r, "%s failed", "otv_raster_create", NULL);
    return;
  }
  double sc = 48.0 / (upem ? upem : 1000);
  otv_transform t = {sc, 0.2 * sc, 0, -sc, 8, 52};
  otv_raster_set_transform(ras, &t);
  static uint8_t img[64 * 64];
  g_ras = ras;
  for (uint32_t g = 0; g < glyph_count && g < 64; g++) {
    r->pen_calls = 0;
    r->jumped = 0;
    volatile otv_status s = OTV_E_LIMIT;
    if (setjmp(r->jb) == 0) s = otv_glyph_outline(loc, g, 0, &RPEN, r);
    loc_clear();
    memset(img, 0, sizeof img);
    otv_status rs = otv_raster_render(ras, img, 64, 64, 64, g & 1 ? OTV_RASTER_EVEN_ODD : 0);
    if (rs != OTV_E_OK && rs != OTV_E_BAD_VALUE)
      fail_case(r, "%s: unexpected status", "otv_raster_render", NULL);
    if (!s && !rs) {
      uint64_t sum = 0;
      for (size_t i = 0; i < sizeof img; i++) sum += img[i];
      dg_u(r, sum);
    }
  }
  otv_raster_destroy(ras);
}
#endif

#ifdef OTV_INSTANCE_UPDATE_NAMES
/* An instance made by `what` (status s, out/out_len): it must open again, with no axes (static)
 * or some (partial), and draw its first 64 glyphs (a partial one at its axes' maxima). */
static void check_instance(run *r, otv_location *loc, h_peak *al, const char *what, otv_status s,
                           uint8_t *out, size_t out_len, bool partial)
{
  note(r, s, otv_location_last_error(loc), what);
  if (s) {
    if (out) fail_case(r, "%s failed but returned bytes", what, NULL);
    return;
  }
  otv_options opt = {t_realloc, al, 0};
  otv_face *f = NULL;
  otv_error e = {0};
  if (otv_face_open_memory(out, out_len, 0, &opt, &f, &e)) {
    fail_case(r, "%s: the instance does not open again", what, &e);
  } else {
    otv_location *l2 = NULL;
    if (!otv_location_create(f, &l2, NULL)) {
      otv_face_info info;
      otv_face_get_info(f, &info);
      /* a partial one: one axis, or more when fvar repeats the kept tag (each is kept) */
      if (!partial && info.axis_count) fail_case(r, "%s: the instance still has axes", what, NULL);
      if (partial && !info.axis_count) fail_case(r, "%s: the instance has no axis", what, NULL);
      otv_f2dot14 c[64];
      for (unsigned a = 0; a < 64; a++) c[a] = 16384;
      if (partial) otv_location_set_normalized(l2, c, info.axis_count < 64 ? info.axis_count : 64);
      for (volatile uint32_t g = 0; g < info.glyph_count && g < 64; g++) {
        r->pen_calls = 0;
        r->jumped = 0;
        if (setjmp(r->jb) == 0) otv_glyph_outline(l2, g, 0, &PEN, r);
      }
      otv_location_destroy(l2);
    }
    otv_face_close(f);
  }
  otv_instance_free(loc, out, out_len);
}

/* A static instance at the current location, and a partial one keeping the first axis. */
static void instance_pass(run *r, otv_location *loc, const otv_face *src, h_peak *al)
{
  uint8_t *out = NULL;
  size_t out_len = 0;
  otv_status s = otv_instance_create(loc, 0, &out, &out_len);
  check_instance(r, loc, al, "otv_instance_create", s, out, out_len, false);
  otv_axis ax;
  unsigned one = 1;
  otv_face_axes(src, 0, &one, &ax);
  if (!one) return;
  out = NULL, out_len = 0;
  s = otv_instance_create_partial(loc, &ax.tag, 1, 0, &out, &out_len);
  check_instance(r, loc, al, "otv_instance_create_partial", s, out, out_len, true);
}
#endif

/* Everything on one opened face. */
static void face_pass(run *r, otv_face *f, h_peak *al)
{
  (void)al;
  otv_face_info info;
  otv_face_get_info(f, &info);
  dg_u(r, info.flavour);
  dg_u(r, info.glyph_count);
  dg_u(r, info.units_per_em);
  dg_u(r, info.axis_count);
  dg_u(r, info.instance_count);
  dg_u(r, info.avar_version);
  unsigned cnt = 0;
  otv_face_tables(f, 0, &cnt, NULL);
  otv_table_record trec[8];
  cnt = 8;
  otv_face_tables(f, 0, &cnt, trec);
  size_t tlen;
  (void)otv_face_table(f, OTV_TAG('g', 'l', 'y', 'f'), &tlen);
  (void)otv_face_table(f, OTV_TAG('n', 'o', 'n', 'e'), NULL);

  /* axes (paged) */
  unsigned total = otv_face_axes(f, 0, NULL, NULL);
  dg_u(r, total);
  if (total != info.axis_count)
    fail_case(r, "%s: axis count differs from info.axis_count", "otv_face_axes", NULL);
  unsigned name_ids[64 + 16];
  unsigned nn = 0;
  for (unsigned start = 0; start < total; start += 16) {
    otv_axis ax[16];
    cnt = 16;
    otv_face_axes(f, start, &cnt, ax);
    if (cnt > 16) fail_case(r, "%s: wrote more than the capacity", "otv_face_axes", NULL);
    for (unsigned i = 0; i < cnt && i < 16; i++) {
      dg_u(r, ax[i].tag);
      dg_f(r, ax[i].min_value);
      dg_f(r, ax[i].default_value);
      dg_f(r, ax[i].max_value);
      if (nn < 64) name_ids[nn++] = ax[i].name_id;
    }
    if (!cnt) break;
  }
  /* named instances */
  unsigned ni_total = otv_face_named_instances(f, 0, NULL, NULL);
  dg_u(r, ni_total);
  double *coords = calloc(info.axis_count ? info.axis_count : 1, sizeof *coords);
  for (unsigned start = 0; start < ni_total && start < 512; start += 16) {
    otv_named_instance ni[16];
    cnt = 16;
    otv_face_named_instances(f, start, &cnt, ni);
    for (unsigned i = 0; i < cnt && i < 16; i++) {
      dg_u(r, ni[i].subfamily_name_id);
      dg_u(r, ni[i].postscript_name_id);
      if (nn < 80) name_ids[nn++] = ni[i].subfamily_name_id;
      otv_error e = {0};
      otv_status s = otv_face_named_instance_coords(f, start + i, coords, info.axis_count, &e);
      note(r, s, &e, "otv_face_named_instance_coords");
      for (unsigned a = 0; !s && a < info.axis_count; a++) dg_f(r, coords[a]);
    }
    if (!cnt) break;
  }
  {
    otv_error e = {0};
    otv_status s = otv_face_named_instance_coords(f, ni_total, coords, info.axis_count, &e);
    if (s != OTV_E_NOT_FOUND)
      fail_case(r, "%s: instance == count is not NOT_FOUND", "otv_face_named_instance_coords", &e);
  }
  free(coords);
  /* names: standard ids, axis and instance ids; a full and a tiny buffer */
  for (unsigned k = 0; k < 26 + nn; k++) {
    unsigned id = k < 26 ? k : name_ids[k - 26];
    char buf[256], small[5];
    size_t need = 0;
    otv_error e = {0};
    otv_status s = otv_face_name(f, (uint16_t)id, buf, sizeof buf, &need, &e);
    note(r, s, &e, "otv_face_name");
    if (!s) {
      if (strlen(buf) >= sizeof buf) fail_case(r, "%s: unterminated", "otv_face_name", NULL);
      dg_bytes(r, buf, strlen(buf));
      dg_u(r, need);
    }
    memset(&e, 0, sizeof e);
    s = otv_face_name(f, (uint16_t)id, small, sizeof small, NULL, &e);
    note(r, s, &e, "otv_face_name (5-byte buffer)");
    if (!s && memchr(small, 0, sizeof small) == NULL)
      fail_case(r, "%s: not NUL-terminated in a small buffer", "otv_face_name", NULL);
  }
  /* STAT */
  otv_stat_info st;
  otv_face_stat(f, &st);
  dg_u(r, st.present);
  dg_u(r, st.design_axis_count);
  dg_u(r, st.axis_value_count);
  unsigned sa_total = otv_face_stat_axes(f, 0, NULL, NULL);
  for (unsigned start = 0; start < sa_total && start < 1024; start += 16) {
    otv_stat_axis sa[16];
    cnt = 16;
    otv_face_stat_axes(f, start, &cnt, sa);
    for (unsigned i = 0; i < cnt && i < 16; i++) {
      dg_u(r, sa[i].tag);
      dg_u(r, sa[i].name_id);
    }
    if (!cnt) break;
  }
  unsigned sv_total = otv_face_stat_values(f, 0, NULL, NULL);
  for (unsigned start = 0; start < sv_total && start < 1024; start += 16) {
    otv_stat_value sv[16];
    cnt = 16;
    otv_face_stat_values(f, start, &cnt, sv);
    for (unsigned i = 0; i < cnt && i < 16; i++) {
      dg_u(r, sv[i].format);
      dg_f(r, sv[i].value);
      dg_u(r, sv[i].record_count);
      otv_stat_axis_value_record rec[8];
      unsigned rc = 8;
      unsigned rt = otv_face_stat_value_records(f, start + i, 0, &rc, rec);
      dg_u(r, rt);
      for (unsigned k = 0; k < rc && k < 8; k++) {
        dg_u(r, rec[k].axis_index);
        dg_f(r, rec[k].value);
      }
    }
    if (!cnt) break;
  }
  /* cmap */
  static const uint32_t extra_cp[] = {0xFFFF, 0xFFFE, 0x10000, 0x10FFFF, 0x110000, 0xFFFFFFFFu};
  for (uint32_t cp = 0; cp < 0x300; cp++) dg_u(r, otv_face_glyph_for_char(f, cp, 0));
  for (size_t i = 0; i < sizeof extra_cp / sizeof *extra_cp; i++)
    dg_u(r, otv_face_glyph_for_char(f, extra_cp[i], 0));
  dg_u(r, otv_face_glyph_for_char(f, 0x41, 0xFE0F));
  dg_u(r, otv_face_glyph_for_char(f, 0x41, 0xE0100));

  /* locations */
  otv_location *loc = NULL;
  otv_error e = {0};
  otv_status s = otv_location_create(f, &loc, &e);
  note(r, s, &e, "otv_location_create");
  if (s) return;
  g_loc = loc;
  int light = info.glyph_count > 1000;
  glyph_pass(r, loc, info.glyph_count, light);
  unsigned ac = info.axis_count;
  double *user = calloc(ac ? ac : 1, sizeof *user);
  otv_axis *axes = calloc(ac ? ac : 1, sizeof *axes);
  cnt = ac;
  otv_face_axes(f, 0, &cnt, axes);
  for (int pass = 0; pass < 6; pass++) {
    if (pass == 0)
      for (unsigned a = 0; a < cnt; a++) user[a] = axes[a].min_value;
    else if (pass == 1)
      for (unsigned a = 0; a < cnt; a++) user[a] = axes[a].max_value;
    else if (pass == 2)
      for (unsigned a = 0; a < cnt; a++) user[a] = (axes[a].default_value + axes[a].max_value) / 2;
    if (pass <= 2) {
      s = otv_location_set_user_coords(loc, user, cnt);
      note(r, s, otv_location_last_error(loc), "otv_location_set_user_coords");
    } else if (pass == 3) {
      if (ni_total == 0) continue;
      s = otv_location_set_named(loc, ni_total - 1);
      note(r, s, otv_location_last_error(loc), "otv_location_set_named");
    } else {
      otv_f2dot14 nc[64];
      for (unsigned a = 0; a < 64; a++)
        nc[a] = (otv_f2dot14)(pass == 4 ? -16384 : (a & 1 ? 16384 : -8192));
      s = otv_location_set_normalized(loc, nc, ac < 64 ? ac : 64);
      note(r, s, otv_location_last_error(loc), "otv_location_set_normalized");
    }
    if (s) continue;
    otv_f2dot14 out[64];
    unsigned got = otv_location_normalized(loc, out, 64);
    for (unsigned a = 0; a < got && a < 64; a++) {
      dg_u(r, (uint64_t)(int64_t)out[a]);
      if (out[a] < -16384 || out[a] > 16384)
        fail_case(r, "%s: normalized coordinate outside [-1, 1]", "otv_location_normalized", NULL);
    }
    if (ac && pass != 2) glyph_pass(r, loc, info.glyph_count, light || pass >= 3);
#ifdef OTV_INSTANCE_UPDATE_NAMES
    if (pass == 1 && !light) {
      instance_pass(r, loc, f, al);
    }
#endif
#ifdef OTV_RASTER_EVEN_ODD
    if (pass == 1) raster_pass(r, loc, info.glyph_count, info.units_per_em);
#endif
  }
  free(user);
  free(axes);
  g_loc = NULL;
  otv_location_destroy(loc);
}

/* Open and exercise one file; returns the digest. *opened: whether open succeeded. */
static void run_bytes(run *r, const uint8_t *data, size_t len, int *opened, otv_error *open_err,
                      h_peak *al)
{
  otv_options opt = {t_realloc, al, 0};
  otv_face *f = NULL;
  otv_error e = {0};
  r->digest = 0xcbf29ce484222325ULL;
  otv_status s = otv_face_open_memory(data, len, 0, &opt, &f, &e);
  *open_err = e;
  *opened = s == OTV_E_OK;
  if (s) {
    if (!f) { /* fine: *out is NULL on failure */
    }
    if (e.code == OTV_E_OK || e.msg[0] == '\0')
      fail_case(r, "%s failed without recording an error", "otv_face_open_memory", &e);
    if ((int)s < 0 || (int)s > OTV_E_LIMIT)
      fail_case(r, "%s returned an unknown status", "open", &e);
    return;
  }
  face_pass(r, f, al);
  otv_face_close(f);
}

typedef struct ref_digest {
  char name[128];
  uint64_t digest;
  int opened;
} ref_digest;
static ref_digest g_refs[64];
static int g_nrefs;

static uint8_t *read_case(const char *dir, const char *name, size_t *len)
{
  char path[4096];
  snprintf(path, sizeof path, "%s/%s.bin", dir, name);
  FILE *fp = fopen(path, "rb");
  if (!fp) return NULL;
  fseek(fp, 0, SEEK_END);
  long n = ftell(fp);
  fseek(fp, 0, SEEK_SET);
  /* an exact-size heap copy, so ASan sees any read past the end */
  uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
  if (!buf || fread(buf, 1, (size_t)n, fp) != (size_t)n) {
    fclose(fp);
    free(buf);
    return NULL;
  }
  fclose(fp);
  *len = (size_t)n;
  return buf;
}

static const ref_digest *reference(const char *dir, const char *name)
{
  for (int i = 0; i < g_nrefs; i++)
    if (!strcmp(g_refs[i].name, name)) return &g_refs[i];
  if (g_nrefs == 64) return NULL;
  size_t len;
  uint8_t *buf = read_case(dir, name, &len);
  if (!buf) return NULL;
  run rr;
  memset(&rr, 0, sizeof rr);
  rr.name = name;
  snprintf(rr.cls, sizeof rr.cls, "ref");
  h_peak al = {0};
  otv_error oe;
  ref_digest *d = &g_refs[g_nrefs++];
  snprintf(d->name, sizeof d->name, "%s", name);
  run_bytes(&rr, buf, len, &d->opened, &oe, &al);
  d->digest = rr.digest;
  free(buf);
  return d;
}

static int status_from_name(const char *s)
{
#define OTV_X_(name, val, str)                                                                     \
  if (!strcmp(s, #name)) return val;
  OTV_STATUS_LIST(OTV_X_)
#undef OTV_X_
  return -1;
}

static int g_class_count[5], g_class_pass[5];
static const char *CLASSES[5] = {"valid", "reject", "blame", "same", "accept"};

static int class_index(const char *cls)
{
  for (int i = 0; i < 5; i++)
    if (!strcmp(cls, CLASSES[i])) return i;
  return -1;
}

static void run_case(const char *dir, const char *name, const char *cls, const char *detail)
{
  size_t len;
  uint8_t *buf = read_case(dir, name, &len);
  run r;
  memset(&r, 0, sizeof r);
  r.name = name;
  snprintf(r.cls, sizeof r.cls, "%s", cls);
  snprintf(r.detail, sizeof r.detail, "%s", detail);
  if (!buf) {
    fail_case(&r, "%s: cannot read the case file", name, NULL);
    return;
  }
  int ci = class_index(cls);
  if (ci < 0) {
    fail_case(&r, "unknown class %s", cls, NULL);
    free(buf);
    return;
  }
  h_peak al = {0};
  int opened;
  otv_error oe;
  run_bytes(&r, buf, len, &opened, &oe, &al);
  h_checks++;
  if (al.live_blocks != 0 || al.live_bytes != 0) {
    char what[96];
    snprintf(what, sizeof what, "%ld blocks, %lld bytes", al.live_blocks, al.live_bytes);
    fail_case(&r, "leak: %s live after close", what, NULL);
  }
  if (al.peak > MEM_BUDGET(len)) {
    char what[96];
    snprintf(what, sizeof what, "%lld bytes for a %zu-byte file", al.peak, len);
    fail_case(&r, "memory: peak %s", what, NULL);
  }
  if (ci == 1) { /* reject */
    char tags[64];
    snprintf(tags, sizeof tags, "%s", detail);
    char *at = strchr(tags, '@');
    int want_code = -1;
    if (at) {
      *at = 0;
      want_code = status_from_name(at + 1);
    }
    if (opened)
      fail_case(&r, "%s: opened, but must be rejected", "otv_face_open_memory", NULL);
    else if (!allowed(tags, oe.table))
      fail_case(&r, "%s: the error names the wrong table", "otv_face_open_memory", &oe);
    else if (want_code >= 0 && (int)oe.code != want_code)
      fail_case(&r, "%s: wrong status code", "otv_face_open_memory", &oe);
  } else if (ci == 2) { /* blame: any outcome, errors name allowed tables */
    if (!opened && oe.code != OTV_E_UNSUPPORTED && oe.code != OTV_E_NOMEM &&
        !allowed(detail, oe.table))
      fail_case(&r, "%s: the error names a table outside the allowed set", "otv_face_open_memory",
                &oe);
  } else if (!opened) {
    fail_case(&r, "%s: a font of this class must open", "otv_face_open_memory", &oe);
  } else if (ci == 3) { /* same */
    const ref_digest *ref = reference(dir, detail);
    if (!ref)
      fail_case(&r, "reference case %s missing", detail, NULL);
    else if (!ref->opened || ref->digest != r.digest)
      fail_case(&r, "%s: answers differ from the reference case", detail, NULL);
  } else if (ci == 4 && detail[0]) { /* accept: norm=AXIS:USER:F2DOT14 checks */
    char spec[256];
    snprintf(spec, sizeof spec, "%s", detail);
    for (char *tok = strtok(spec, ","); tok; tok = strtok(NULL, ",")) {
      unsigned axis;
      double user;
      int want;
      if (sscanf(tok, "norm=%u:%lf:%d", &axis, &user, &want) != 3) {
        fail_case(&r, "bad check %s", tok, NULL);
        continue;
      }
      otv_options opt = {t_realloc, &al, 0};
      otv_face *f = NULL;
      otv_location *loc = NULL;
      if (otv_face_open_memory(buf, len, 0, &opt, &f, NULL) || otv_location_create(f, &loc, NULL)) {
        fail_case(&r, "%s: reopen failed", tok, NULL);
      } else {
        double u[64];
        otv_f2dot14 nc[64];
        unsigned ac = otv_location_normalized(loc, NULL, 0);
        otv_axis ax[64];
        unsigned cnt = 64;
        otv_face_axes(f, 0, &cnt, ax);
        if (axis >= ac || ac > 64) {
          /* the fvar module has not landed yet: nothing to check */
          printf("note: %s: fvar reports %u axes, check %s skipped\n", name, ac, tok);
        } else {
          for (unsigned a = 0; a < ac; a++) u[a] = ax[a].default_value;
          u[axis] = user;
          otv_status s = otv_location_set_user_coords(loc, u, ac);
          otv_location_normalized(loc, nc, 64);
          h_checks++;
          if (s || nc[axis] != want) {
            char what[160];
            snprintf(what, sizeof what, "%s gives %d (status %d)", tok, (int)nc[axis], (int)s);
            fail_case(&r, "spec fallback: %s", what, otv_location_last_error(loc));
          }
        }
      }
      otv_location_destroy(loc);
      otv_face_close(f);
    }
  }
  free(buf);
}

/* ---- API-level hostile values (no generated file needed) ---- */
static void api_cases(void)
{
  size_t len;
  uint8_t *data = h_read_file(h_font("Roboto-Variable.ABC.ttf"), &len);
  h_peak al = {0};
  otv_options opt = {t_realloc, &al, 0};
  otv_face *f = NULL;
  otv_error e = {0};
  CHECK_EQ(otv_face_open_memory(NULL, 10, 0, &opt, &f, &e), OTV_E_ARG);
  CHECK(f == NULL);
  CHECK(otv_face_open_memory(data, len, 0, &opt, NULL, NULL) == OTV_E_ARG);
  CHECK(otv_face_open_memory(data, len, 1, &opt, &f, &e) == OTV_E_NOT_FOUND);
  CHECK(otv_face_open_memory(data, len, 0xFFFFFFFFu, &opt, &f, NULL) != OTV_E_OK);
  CHECK(otv_face_open_file("/nonexistent/otvar-font.ttf", 0, &opt, &f, NULL) == OTV_E_IO);
  CHECK(otv_face_open_file("/", 0, &opt, &f, NULL) == OTV_E_IO);
  CHECK_EQ(otv_face_open_memory(data, len, 0, &opt, &f, &e), OTV_E_OK);
  otv_location *loc = NULL;
  CHECK_EQ(otv_location_create(f, &loc, &e), OTV_E_OK);
  CHECK(otv_location_create(NULL, &loc, NULL) == OTV_E_ARG);
  CHECK(loc == NULL || 1);
  otv_location_destroy(loc);
  loc = NULL;
  CHECK_EQ(otv_location_create(f, &loc, &e), OTV_E_OK);
  otv_face_info info;
  otv_face_get_info(f, &info);
  const double inf = INFINITY;
  /* NaN is an argument error wherever it is given */
  otv_axis_value nanv = {OTV_TAG('w', 'g', 'h', 't'), NAN};
  CHECK_EQ(otv_location_set_user(loc, &nanv, 1), OTV_E_ARG);
  CHECK_EQ(otv_location_last_error(loc)->code, OTV_E_ARG);
  CHECK(otv_location_set_user(loc, NULL, 1) == OTV_E_ARG);
  CHECK(otv_location_set_user_coords(loc, NULL, 1) == OTV_E_ARG);
  CHECK_EQ(otv_location_set_user(loc, NULL, 0), OTV_E_OK);
  CHECK(otv_location_is_default(loc));
  if (info.axis_count == 0) {
    printf("note: fvar reports no axes (module not landed?): NaN/Inf coordinate checks skipped\n");
  } else {
    double c[64];
    unsigned ac = info.axis_count < 64 ? info.axis_count : 64;
    for (unsigned a = 0; a < ac; a++) c[a] = NAN;
    CHECK_EQ(otv_location_set_user_coords(loc, c, ac), OTV_E_ARG);
    /* +Inf / -Inf / +-DBL_MAX clamp to the axis ends: normalized +-1 */
    double vals[4] = {inf, -inf, DBL_MAX, -DBL_MAX};
    for (int k = 0; k < 4; k++) {
      otv_axis_value v = {OTV_TAG('w', 'g', 'h', 't'), vals[k]};
      CHECK_EQ(otv_location_set_user(loc, &v, 1), OTV_E_OK);
      otv_f2dot14 n[64];
      otv_location_normalized(loc, n, 64);
      otv_axis ax[64];
      unsigned cnt = 64;
      otv_face_axes(f, 0, &cnt, ax);
      unsigned w = 0;
      for (unsigned a = 0; a < cnt; a++)
        if (ax[a].tag == OTV_TAG('w', 'g', 'h', 't')) w = a;
      CHECK_EQ(n[w], vals[k] > 0 ? 16384 : -16384);
    }
    for (unsigned a = 0; a < ac; a++) c[a] = a & 1 ? -inf : inf;
    CHECK_EQ(otv_location_set_user_coords(loc, c, ac), OTV_E_OK);
    /* denormals and -0 are the default */
    otv_axis ax[64];
    unsigned cnt = 64;
    otv_face_axes(f, 0, &cnt, ax);
    for (unsigned a = 0; a < ac; a++) c[a] = ax[a].default_value + (a & 1 ? -0.0 : 4.9e-324);
    CHECK_EQ(otv_location_set_user_coords(loc, c, ac), OTV_E_OK);
    CHECK(otv_location_is_default(loc));
    /* normalized values outside [-1, 1] clamp */
    otv_f2dot14 big[64];
    for (unsigned a = 0; a < ac; a++) big[a] = (otv_f2dot14)(a & 1 ? -32768 : 32767);
    CHECK_EQ(otv_location_set_normalized(loc, big, ac), OTV_E_OK);
    otv_f2dot14 n[64];
    otv_location_normalized(loc, n, 64);
    for (unsigned a = 0; a < ac; a++) CHECK_EQ(n[a], a & 1 ? -16384 : 16384);
    /* more coordinates than axes: the extra ones are ignored */
    double many[200];
    for (int k = 0; k < 200; k++) many[k] = 1e300;
    CHECK_EQ(otv_location_set_user_coords(loc, many, 200), OTV_E_OK);
  }
  CHECK_EQ(otv_location_set_named(loc, 0xFFFFFFFFu), OTV_E_NOT_FOUND);
  CHECK(otv_location_last_error(loc)->code == OTV_E_NOT_FOUND);
  /* unknown tags are ignored */
  otv_axis_value unk = {OTV_TAG('z', 'z', 'z', 'z'), 1e9};
  CHECK_EQ(otv_location_set_user(loc, &unk, 1), OTV_E_OK);
  CHECK(otv_location_is_default(loc));
  CHECK_EQ(otv_glyph_outline(loc, info.glyph_count, 0, NULL, NULL), OTV_E_ARG);
  CHECK_EQ(otv_glyph_outline(NULL, 0, 0, NULL, NULL), OTV_E_ARG);
  CHECK_EQ(otv_glyph_points_get(loc, 0, 0, NULL), OTV_E_ARG);
  char small[1];
  otv_status s = otv_face_name(f, 1, small, sizeof small, NULL, NULL);
  CHECK(s == OTV_E_OK || s == OTV_E_NOT_FOUND || s == OTV_E_UNSUPPORTED);
  if (s == OTV_E_OK) CHECK_EQ(small[0], 0);
  otv_location_destroy(loc);
  otv_face_close(f);
  otv_location_destroy(NULL);
  otv_face_close(NULL);
  CHECK_EQ(al.live_blocks, 0);
  CHECK_EQ(al.live_bytes, 0);
  free(data);
}

int main(void)
{
  api_cases();
  const char *dir = getenv("OTV_HOSTILE_DIR");
  char tmp[] = "/tmp/otv-hostile-XXXXXX";
  int made = 0;
  if (!dir) {
    const char *root = getenv("OTV_ROOT");
    if (!mkdtemp(tmp)) {
      perror("mkdtemp");
      return 1;
    }
    made = 1;
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 '%s/tests/hostile/gen_hostile.py' '%s'",
             root ? root : ".", tmp);
    if (system(cmd) != 0) {
      fprintf(stderr, "cannot run the generator: %s\n", cmd);
      h_failures++;
      return h_done("test_hostile");
    }
    dir = tmp;
  }
  char mpath[4096];
  snprintf(mpath, sizeof mpath, "%s/MANIFEST", dir);
  FILE *m = fopen(mpath, "r");
  if (!m) {
    fprintf(stderr, "no manifest %s\n", mpath);
    return 1;
  }
  const char *filter = getenv("OTV_HOSTILE_FILTER");
  const char *skip = getenv("OTV_HOSTILE_SKIP"); /* names (substrings of this list) to skip */
  int verbose = getenv("OTV_HOSTILE_VERBOSE") != NULL;
  g_trace_alloc = getenv("OTV_HOSTILE_TRACE") != NULL;
  char line[1024];
  int ncases = 0, ncrash = 0;
  while (fgets(line, sizeof line, m)) {
    char *name = strtok(line, "\t\n");
    char *cls = strtok(NULL, "\t\n");
    char *rest = cls ? cls + strlen(cls) + 1 : NULL;
    if (!name || !cls || !rest) continue;
    /* detail may be empty: the field runs to the next tab */
    char detail[256] = "";
    char *tab = strchr(rest, '\t');
    if (tab) {
      size_t n = (size_t)(tab - rest);
      if (n >= sizeof detail) n = sizeof detail - 1;
      memcpy(detail, rest, n);
      detail[n] = 0;
    }
    if (filter && !strstr(name, filter)) continue;
    if (skip && strstr(skip, name)) continue;
    if (verbose) {
      printf("case %s\n", name);
      fflush(stdout);
    }
    /* each case runs in a child process, so a crash (or a sanitizer report) fails that case
     * and the others still run */
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
      h_failures = 0;
      run_case(dir, name, cls, detail);
      fflush(stdout);
      fflush(stderr);
      _exit(h_failures ? 3 : 0);
    }
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) != pid) {
      perror("fork/waitpid");
      return 1;
    }
    h_checks++;
    int ci = class_index(cls);
    if (ci >= 0) g_class_count[ci]++;
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
      if (ci >= 0) g_class_pass[ci]++;
    } else {
      h_failures++;
      if (!(WIFEXITED(st) && WEXITSTATUS(st) == 3)) {
        fprintf(stderr, "HOSTILE CRASH %s [%s %s]: %s %d (sanitizer report above)\n", name, cls,
                detail, WIFSIGNALED(st) ? "signal" : "exit status",
                WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
        ncrash++;
      }
    }
    ncases++;
  }
  fclose(m);
  printf("hostile cases: %d run, %d crashed\n", ncases, ncrash);
  for (int i = 0; i < 5; i++)
    printf("  %-7s %4d cases, %4d passed\n", CLASSES[i], g_class_count[i], g_class_pass[i]);
  if (made) {
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    if (system(cmd) != 0) fprintf(stderr, "cannot remove %s\n", tmp);
  }
  return h_done("test_hostile");
}

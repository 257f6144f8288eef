/*
 * test_alloc_fail.c - allocation-failure loop (STYLE.md section 8): a counting allocator fails the
 * Nth allocation for N = 1, 2, ... until the whole scenario succeeds without reaching N. The
 * scenario is everything a user does with a face: open, location creation, setting coordinates,
 * outlines and points of every glyph, metrics, font-wide metrics, instancing (when the instancer
 * is in the API) and rendering through the rasterizer (when present). Every run must return
 * OTV_E_OK or OTV_E_NOMEM (never another code, never a crash), leave zero live blocks and bytes
 * after everything is closed, and, for a failure after open, the same call must succeed when
 * retried with a healthy allocator (no state left half-updated).
 * Two modes: only the Nth allocation fails; the Nth and every later one fail.
 */
#include "harness.h"

typedef struct fa {
  long calls, fail_at, live_blocks;
  long long live_bytes;
  int sticky; /* fail every allocation from fail_at on */
  int off;    /* temporarily healthy */
} fa;

/* OTV_ALLOC_TRACE=N: print the stack of the Nth allocation (ASan builds) to find the caller. */
void __sanitizer_print_stack_trace(void) __attribute__((weak));
static long g_trace = -1;
static const char *g_trace_font; /* OTV_ALLOC_TRACE_FONT=substr: only that font's run N */
static const char *g_font;

static void *fa_realloc(void *ud, void *ptr, size_t old_len, size_t new_len)
{
  fa *a = ud;
  int other_font = g_trace_font && g_font && !strstr(g_font, g_trace_font);
  if (g_trace >= 0 && !other_font && (a->fail_at == g_trace || !g_trace_font) &&
      (new_len == 0 || a->calls + 1 == g_trace))
    fprintf(stderr, "  alloc %ld: %p old %zu new %zu\n", new_len ? a->calls + 1 : -1, ptr, old_len,
            new_len);
  if (g_trace > 0 && new_len && a->calls + 1 == g_trace && __sanitizer_print_stack_trace &&
      (!g_trace_font || (g_font && strstr(g_font, g_trace_font) && a->fail_at == g_trace)))
    __sanitizer_print_stack_trace();
  if (new_len) {
    a->calls++;
    if (!a->off && a->fail_at && (a->sticky ? a->calls >= a->fail_at : a->calls == a->fail_at))
      return NULL;
  }
  return h_track(&a->live_blocks, &a->live_bytes, ptr, old_len, new_len);
}

static int g_bad_status; /* a status other than OK/NOMEM was seen */
static long g_n;

static int acceptable(otv_status s, const char *what)
{
  if (s == OTV_E_OK || s == OTV_E_NOMEM) return 1;
  /* a font-level answer that does not depend on memory (e.g. no vmtx) is fine as long as the
   * same call gives it with a healthy allocator: the caller checks that */
  (void)what;
  return 0;
}

/* Retry a location-level call with a healthy allocator after NOMEM: it must then give the answer
 * it gives normally (OK, or the font's own non-memory answer). */
#define STEP(call, what)                                                                           \
  do {                                                                                             \
    otv_status s_ = (call);                                                                        \
    if (s_ == OTV_E_NOMEM) {                                                                       \
      a->off = 1;                                                                                  \
      otv_status r_ = (call);                                                                      \
      a->off = 0;                                                                                  \
      if (r_ == OTV_E_NOMEM) {                                                                     \
        fprintf(stderr, "%s N=%ld: %s still NOMEM with a healthy allocator\n", g_font, g_n, what); \
        g_bad_status++;                                                                            \
      }                                                                                            \
      nomem++;                                                                                     \
    } else if (!acceptable(s_, what) && !ok_nonmem(s_, what)) {                                    \
      fprintf(stderr, "%s N=%ld: %s returned %s\n", g_font, g_n, what, otv_status_str(s_));        \
      g_bad_status++;                                                                              \
    }                                                                                              \
  } while (0)

/* Statuses the healthy run itself produced for a call (learned in the first, healthy pass). */
#define MAX_NONMEM 64
static struct {
  const char *what;
  otv_status s;
} g_nonmem[MAX_NONMEM];
static int g_n_nonmem, g_learning;

static int ok_nonmem(otv_status s, const char *what)
{
  for (int i = 0; i < g_n_nonmem; i++)
    if (g_nonmem[i].s == s && !strcmp(g_nonmem[i].what, what)) return 1;
  if (g_learning && g_n_nonmem < MAX_NONMEM) {
    g_nonmem[g_n_nonmem].what = what;
    g_nonmem[g_n_nonmem].s = s;
    g_n_nonmem++;
    return 1;
  }
  return 0;
}

#ifdef OTV_INSTANCE_UPDATE_NAMES
/* What an instancing call `what` returned: 1 for NOMEM (which must return no buffer), else 0;
 * any other failure must be the one the healthy run gave. The buffer is freed. */
static int instance_result(otv_location *loc, const char *what, otv_status is, uint8_t *inst,
                           size_t inst_len)
{
  if (is == OTV_E_NOMEM) {
    if (inst) {
      fprintf(stderr, "%s N=%ld: %s failed but returned a buffer\n", g_font, g_n, what);
      g_bad_status++;
    }
    /* the report names the cause, not a retry's "buffer too small" (CFF2 glyph sizing) */
    const otv_error *le = otv_location_last_error(loc);
    if (le->code != OTV_E_NOMEM || strstr(le->msg, "too small")) {
      fprintf(stderr, "%s N=%ld: %s failed with NOMEM but reports %s: %s\n", g_font, g_n, what,
              otv_status_str(le->code), le->msg);
      g_bad_status++;
    }
    return 1;
  }
  if (is == OTV_E_OK)
    otv_instance_free(loc, inst, inst_len);
  else if (!ok_nonmem(is, what)) {
    fprintf(stderr, "%s N=%ld: %s returned %s\n", g_font, g_n, what, otv_status_str(is));
    g_bad_status++;
  }
  return 0;
}
#endif

static void nop_move(void *c, float x, float y)
{
  (void)c;
  (void)x;
  (void)y;
}
static void nop_quad(void *c, float a, float b, float x, float y)
{
  (void)c;
  (void)a;
  (void)b;
  (void)x;
  (void)y;
}
static void nop_cubic(void *c, float a, float b, float d, float e, float x, float y)
{
  (void)c;
  (void)a;
  (void)b;
  (void)d;
  (void)e;
  (void)x;
  (void)y;
}
static void nop_close(void *c) { (void)c; }
static const otv_pen NOP_PEN = {nop_move, nop_move, nop_quad, nop_cubic, nop_close};

/* The scenario; returns OTV_E_OK when everything succeeded, OTV_E_NOMEM when an allocation failure
 * stopped it (open or location creation), after releasing everything. */
static otv_status scenario(const uint8_t *data, size_t len, fa *a, int *nomem_out)
{
  int nomem = 0;
  otv_options opt = {fa_realloc, a, 0};
  otv_face *f = NULL;
  otv_error e = {0};
  otv_status s = otv_face_open_memory(data, len, 0, &opt, &f, &e);
  if (s) {
    if (s != OTV_E_NOMEM) {
      char buf[160];
      otv_error_format(&e, buf, sizeof buf);
      fprintf(stderr, "%s N=%ld: open returned %s (%s)\n", g_font, g_n, otv_status_str(s), buf);
      g_bad_status++;
    }
    if (f) {
      fprintf(stderr, "%s N=%ld: failed open left *out set\n", g_font, g_n);
      g_bad_status++;
    }
    return s;
  }
  otv_location *loc = NULL;
  s = otv_location_create(f, &loc, &e);
  if (s) {
    if (s != OTV_E_NOMEM) {
      fprintf(stderr, "%s N=%ld: location_create returned %s\n", g_font, g_n, otv_status_str(s));
      g_bad_status++;
    }
    otv_face_close(f);
    return s;
  }
  otv_face_info info;
  otv_face_get_info(f, &info);
  /* a non-default location: every axis at 3/4 of the way to its max */
  otv_axis ax[64];
  unsigned n = 64;
  otv_face_axes(f, 0, &n, ax);
  double user[64];
  for (unsigned i = 0; i < n && i < 64; i++)
    user[i] = ax[i].default_value + 0.75 * (ax[i].max_value - ax[i].default_value);
  STEP(otv_location_set_user_coords(loc, user, n < 64 ? n : 64), "set_user_coords");
  if (info.instance_count) STEP(otv_location_set_named(loc, info.instance_count - 1), "set_named");
  STEP(otv_location_set_user_coords(loc, user, n < 64 ? n : 64), "set_user_coords 2");
  uint32_t gmax = info.glyph_count < 40 ? info.glyph_count : 40;
  otv_point pts[2048];
  uint8_t pf[2048];
  uint16_t ce[512];
  for (uint32_t g = 0; g < gmax; g++) {
    STEP(otv_glyph_outline(loc, g, 0, &NOP_PEN, NULL), "outline");
    otv_glyph_points io;
    memset(&io, 0, sizeof io);
    io.points = pts;
    io.point_flags = pf;
    io.contour_ends = ce;
    io.point_cap = 2048;
    io.contour_cap = 512;
    STEP(otv_glyph_points_get(loc, g, 0, &io), "points");
    otv_glyph_metrics m;
    STEP(otv_glyph_h_metrics(loc, g, 0, &m), "h_metrics");
    STEP(otv_glyph_v_metrics(loc, g, 0, &m), "v_metrics");
  }
  float v;
  STEP(otv_font_metric(loc, OTV_TAG('x', 'h', 'g', 't'), 0, &v), "font_metric xhgt");
  STEP(otv_font_metric(loc, OTV_TAG('h', 'a', 's', 'c'), 0, &v), "font_metric hasc");
  uint32_t gids[40];
  float adv[40];
  for (uint32_t g = 0; g < gmax; g++) gids[g] = g;
  STEP(otv_glyph_advances(loc, gids, gmax, 0, adv), "advances");
#ifdef OTV_INSTANCE_UPDATE_NAMES
  {
    uint8_t *inst = NULL;
    size_t inst_len = 0;
    otv_status is = otv_instance_create(loc, 0, &inst, &inst_len);
    nomem += instance_result(loc, "instance_create", is, inst, inst_len);
    /* a partial instance keeping the first axis */
    otv_axis ax0;
    unsigned one = 1;
    otv_face_axes(f, 0, &one, &ax0);
    if (one) {
      inst = NULL;
      is = otv_instance_create_partial(loc, &ax0.tag, 1, 0, &inst, &inst_len);
      nomem += instance_result(loc, "instance_create_partial", is, inst, inst_len);
    }
  }
#endif
#ifdef OTV_RASTER_EVEN_ODD
  {
    otv_raster *ras = NULL;
    otv_status rs = otv_raster_create(&opt, &ras);
    if (rs == OTV_E_OK) {
      double sc = 64.0 / (info.units_per_em ? info.units_per_em : 1000);
      otv_transform t = {sc, 0, 0, -sc, 8, 56};
      otv_raster_set_transform(ras, &t);
      static uint8_t img[80 * 80];
      for (uint32_t g = 0; g < gmax; g++) {
        otv_status os = otv_glyph_outline(loc, g, 0, otv_raster_pen(), ras);
        (void)os; /* outline statuses were checked above */
        memset(img, 0, sizeof img);
        otv_status r2 = otv_raster_render(ras, img, 80, 80, 80, 0);
        if (r2 == OTV_E_NOMEM)
          nomem++;
        else if (r2 != OTV_E_OK && !ok_nonmem(r2, "raster_render")) {
          fprintf(stderr, "%s N=%ld: raster_render returned %s\n", g_font, g_n, otv_status_str(r2));
          g_bad_status++;
        }
      }
      otv_raster_destroy(ras);
    } else if (rs == OTV_E_NOMEM) {
      nomem++;
      if (ras) g_bad_status++;
    } else {
      fprintf(stderr, "%s N=%ld: raster_create returned %s\n", g_font, g_n, otv_status_str(rs));
      g_bad_status++;
    }
  }
#endif
  otv_location_destroy(loc);
  otv_face_close(f);
  *nomem_out = nomem;
  return OTV_E_OK;
}

static void run_font(const char *name, int sticky)
{
  size_t len;
  uint8_t *data = h_read_file(h_font(name), &len);
  g_font = name;
  /* healthy pass: learns the font's own non-memory answers and counts allocations */
  fa a;
  memset(&a, 0, sizeof a);
  g_n = 0;
  g_learning = 1;
  g_n_nonmem = 0;
  int nomem = 0;
  otv_status s = scenario(data, len, &a, &nomem);
  g_learning = 0;
  CHECK_EQ(s, OTV_E_OK);
  CHECK_EQ(a.live_blocks, 0);
  CHECK_EQ(a.live_bytes, 0);
  long total = a.calls;
  long runs = 0, failed_runs = 0;
  for (long n = 1; n <= total + 1; n++) {
    memset(&a, 0, sizeof a);
    a.fail_at = n;
    a.sticky = sticky;
    g_n = n;
    int bad0 = g_bad_status;
    nomem = 0;
    s = scenario(data, len, &a, &nomem);
    runs++;
    CHECK(s == OTV_E_OK || s == OTV_E_NOMEM);
    if (a.live_blocks != 0 || a.live_bytes != 0) {
      fprintf(stderr, "%s N=%ld (%s): %ld blocks, %lld bytes live after close\n", name, n,
              sticky ? "sticky" : "once", a.live_blocks, a.live_bytes);
      CHECK_EQ(a.live_blocks, 0);
      CHECK_EQ(a.live_bytes, 0);
    }
    if (g_bad_status != bad0) failed_runs++;
    if (a.calls < n) break; /* the Nth allocation never happened: every point covered */
  }
  CHECK_EQ(g_bad_status, 0);
  printf("%s (%s): %ld allocations in the healthy run, %ld failing runs, %ld with problems\n", name,
         sticky ? "fail from N on" : "fail the Nth", total, runs, failed_runs);
  free(data);
}

int main(void)
{
  if (getenv("OTV_ALLOC_TRACE")) g_trace = atol(getenv("OTV_ALLOC_TRACE"));
  g_trace_font = getenv("OTV_ALLOC_TRACE_FONT");
  static const char *fonts[] = {
      "Roboto-Variable.ABC.ttf",                /* glyf + gvar + avar + HVAR + STAT */
      "Roboto-Variable.composite.ttf",          /* composites */
      "NotoSans-VF.abc.ttf",                    /* MVAR */
      "SourceSerifVariable-Roman-VVAR.abc.ttf", /* VVAR + vertical metrics */
      "Amstelvar-avar2.A.ttf",                  /* avar v2 */
      "AdobeVFPrototype_vsindex.otf",           /* CFF2 + vsindex */
      "NotoSansJP-VF.subset.otf",               /* CFF2 + FDSelect */
      "Muli-ABC.ttf",                           /* cvar */
  };
  for (size_t i = 0; i < sizeof fonts / sizeof *fonts; i++) {
    run_font(fonts[i], 0);
    run_font(fonts[i], 1);
  }
  return h_done("test_alloc_fail");
}

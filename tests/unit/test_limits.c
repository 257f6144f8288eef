/*
 * test_limits.c - resource limits (docs/limits.md): ~10 MB hostile fonts, built here in memory,
 * must be rejected or processed with bounded work and memory. Work is measured without clocks:
 *   - pen calls per glyph (a pen that counts and jumps out past PEN_BOUND, so an unbounded
 *     interpreter fails the test instead of hanging it);
 *   - allocator calls and the peak of live bytes (counting allocator), at open and per glyph.
 * Fonts:
 *   1. TrueType, 65535 glyphs: glyph 1 is a 16000-point glyph with 300 gvar tuples (~9.8 MB of
 *      deltas, legal: it must draw, exactly 16000 points); every later glyph is a composite of
 *      the previous one twice (a DAG: glyph k flattens to 2^(k-1) x 16000 points), which must stop
 *      at the documented caps (OTV_MAX_POINTS, OTV_MAX_COMPONENT_DEPTH).
 *   2. CFF2, 65535 charstrings (~10 MB): each calls a global subroutine that calls the next one 20
 *      times, 10 levels deep (20^9 lines if unbounded).
 */
#include "harness.h"

#include <setjmp.h>

#define PEN_BOUND (4L * (OTV_MAX_POINTS + 4) + 64)
#define MEM_BOUND ((long long)64 << 20)

#include "fontbuf.h"

#define NGLYPHS 65535u
#define BIG_POINTS 16000u
#define BIG_TUPLES 300u

static uint8_t *make_ttf(size_t *len)
{
  tbl t[9] = {{"fvar", {0}}, {"glyf", {0}}, {"gvar", {0}}, {"head", {0}}, {"hhea", {0}},
              {"hmtx", {0}}, {"loca", {0}}, {"maxp", {0}}, {"name", {0}}};
  bb *glyf = &t[1].d, *gvar = &t[2].d, *loca = &t[6].d;
  fvar_tbl(&t[0].d);
  /* glyf: 0 empty, 1 big simple glyph, 2.. composites of the previous glyph twice */
  put32(loca, 0);
  put32(loca, 0);
  simple_glyph_start(glyf, BIG_POINTS, 1000, 1000);
  for (unsigned i = 0; i < BIG_POINTS; i++) put8(glyf, (i % 7) + 1); /* x deltas */
  for (unsigned i = 0; i < BIG_POINTS; i++) put8(glyf, (i % 5) + 1); /* y deltas */
  pad4(glyf);
  put32(loca, (uint32_t)glyf->n);
  for (unsigned g = 2; g < NGLYPHS; g++) {
    put16(glyf, 0xFFFF);
    put16(glyf, 0);
    put16(glyf, 0);
    put16(glyf, 1000);
    put16(glyf, 1000);
    put16(glyf, 0x0001 | 0x0002 | 0x0020);
    put16(glyf, g - 1);
    put16(glyf, 0);
    put16(glyf, 0);
    put16(glyf, 0x0001 | 0x0002);
    put16(glyf, g - 1);
    put16(glyf, 1);
    put16(glyf, 0);
    put32(loca, (uint32_t)glyf->n);
  }
  /* gvar: glyph 1 has BIG_TUPLES tuples, peaks spread over (0, 1], all points, byte deltas */
  size_t offs_at, data0 = gvar_begin(gvar, NGLYPHS, &offs_at);
  static const uint8_t deltas[] = {0, 1, 2};
  bb one = gvar_tuple_all_points(BIG_POINTS, deltas, 3);
  size_t gstart = gvar->n;
  gvar_tuples(gvar, &one, BIG_TUPLES);
  free(one.p);
  size_t gend = gvar->n;
  for (unsigned g = 0; g <= NGLYPHS; g++)
    set32(gvar, offs_at + 4 * (size_t)g, (uint32_t)(g <= 1 ? 0 : gend - data0));
  set32(gvar, offs_at + 4, (uint32_t)(gstart - data0));
  set32(gvar, offs_at + 8, (uint32_t)(gend - data0));
  head_tbl(&t[3].d);
  hhea_tbl(&t[4].d, 1);
  hmtx_tbl(&t[5].d, 1000, NGLYPHS);
  maxp_tbl(&t[7].d, NGLYPHS);
  name_tbl(&t[8].d);
  return sfnt(t, 9, 0x00010000, len);
}

static uint8_t *make_cff2(size_t *len)
{
  enum { DEPTH = 10, FAN = 20 };
  bb gs[DEPTH];
  memset(gs, 0, sizeof gs);
  for (int i = 0; i < DEPTH - 1; i++)
    for (int k = 0; k < FAN; k++) {
      cs_num(&gs[i], i + 1 - 107);
      put8(&gs[i], 29);
    }
  cs_num(&gs[DEPTH - 1], 1);
  cs_num(&gs[DEPTH - 1], 0);
  put8(&gs[DEPTH - 1], 5);
  bb *cs = calloc(NGLYPHS, sizeof *cs);
  for (unsigned g = 1; g < NGLYPHS; g++) {
    cs_num(&cs[g], 0);
    cs_num(&cs[g], 0);
    put8(&cs[g], 21);
    cs_num(&cs[g], -107);
    put8(&cs[g], 29);
    for (int k = 0; k < 45; k++) {
      cs_num(&cs[g], 1);
      cs_num(&cs[g], 1);
      put8(&cs[g], 5);
    }
  }
  bb g = {0}, c = {0};
  index2(&g, gs, DEPTH);
  index2(&c, cs, NGLYPHS);
  for (int i = 0; i < DEPTH; i++) free(gs[i].p);
  for (unsigned i = 0; i < NGLYPHS; i++) free(cs[i].p);
  free(cs);
  bb cff = cff2_tbl(&g, &c, NULL);
  free(g.p);
  free(c.p);
  tbl t[6] = {{"CFF2", cff}, {"fvar", {0}}, {"head", {0}},
              {"hhea", {0}}, {"hmtx", {0}}, {"maxp", {0}}};
  fvar_tbl(&t[1].d);
  head_tbl(&t[2].d);
  hhea_tbl(&t[3].d, 1);
  hmtx_tbl(&t[4].d, 600, NGLYPHS);
  maxp_cff_tbl(&t[5].d, NGLYPHS);
  return sfnt(t, 6, 0x4F54544F, len);
}

/* ---- counting allocator and pen ---- */
typedef struct lim {
  h_peak mem; /* the allocator's counts (its ud: &mem) */
  long pen_calls;
  jmp_buf jb;
} lim;
static void tick(lim *l)
{
  if (++l->pen_calls > PEN_BOUND) longjmp(l->jb, 1);
}
static void m2(void *c, float x, float y)
{
  (void)x;
  (void)y;
  tick(c);
}
static void q4(void *c, float a, float b, float x, float y)
{
  (void)a;
  (void)b;
  (void)x;
  (void)y;
  tick(c);
}
static void c6(void *c, float a, float b, float d, float e, float x, float y)
{
  (void)a;
  (void)b;
  (void)d;
  (void)e;
  (void)x;
  (void)y;
  tick(c);
}
static void cl(void *c) { tick(c); }
static const otv_pen PEN = {m2, m2, q4, c6, cl};

/* Outline one glyph under the pen bound: 1 when the work stayed bounded. */
static int bounded_outline(lim *l, otv_location *loc, uint32_t gid, otv_status *st, long *calls)
{
  l->pen_calls = 0;
  volatile int ok = 1;
  *st = OTV_E_OK;
  if (setjmp(l->jb) == 0)
    *st = otv_glyph_outline(loc, gid, 0, &PEN, l);
  else
    ok = 0;
  *calls = l->pen_calls;
  return ok;
}

static void run(const char *what, uint8_t *data, size_t len, const uint32_t *gids, unsigned ng,
                int flavour_cff2)
{
  printf("%s: %zu bytes\n", what, len);
  CHECK(len > 9u * 1000 * 1000);
  lim l;
  memset(&l, 0, sizeof l);
  otv_options opt = {h_peak_realloc, &l.mem, 0};
  otv_face *f = NULL;
  otv_error e = {0};
  otv_status s = otv_face_open_memory(data, len, 0, &opt, &f, &e);
  long open_calls = l.mem.calls;
  long long open_peak = l.mem.peak;
  printf("  open: %s, %ld allocations, peak %lld bytes\n", otv_status_str(s), open_calls,
         open_peak);
  /* zero-copy open: memory independent of the table sizes (a few KB per table at most) */
  CHECK(open_peak < MEM_BOUND);
  CHECK(open_calls < 1000);
  if (s) { /* rejected: fine, as long as it says where */
    CHECK(e.msg[0] != 0);
    CHECK_EQ(l.mem.live_blocks, 0);
    return;
  }
  otv_location *loc = NULL;
  CHECK_EQ(otv_location_create(f, &loc, &e), OTV_E_OK);
  if (!loc) {
    otv_face_close(f);
    return;
  }
  otv_axis_value v = {OTV_TAG('w', 'g', 'h', 't'), 800};
  CHECK_EQ(otv_location_set_user(loc, &v, 1), OTV_E_OK);
  for (unsigned i = 0; i < ng; i++) {
    otv_status gs;
    long calls;
    long a0 = l.mem.calls;
    int ok = bounded_outline(&l, loc, gids[i], &gs, &calls);
    char msg[160] = "";
    if (gs) otv_error_format(otv_location_last_error(loc), msg, sizeof msg);
    printf("  glyph %u: %s, %ld pen calls, %ld allocations, peak %lld bytes %s\n", gids[i],
           ok ? otv_status_str(gs) : "UNBOUNDED (pen bound hit)", calls, l.mem.calls - a0,
           l.mem.peak, msg);
    CHECK(ok);
    CHECK(l.mem.peak < MEM_BOUND + (long long)len);
    if (!flavour_cff2 && gids[i] == 1) {
      /* the big glyph is legal: it draws all its points (move + 15999 lines + close) */
      CHECK_EQ(gs, OTV_E_OK);
      /* move + 15999 lines (+ an explicit closing line, as FreeType and HarfBuzz emit) + close */
      CHECK(calls == BIG_POINTS + 1 || calls == BIG_POINTS + 2);
    }
    if (!flavour_cff2 && gids[i] >= 8 && gids[i] < NGLYPHS) /* 2^7 x 16000 points > cap */
      CHECK(gs == OTV_E_LIMIT || gs == OTV_E_BAD_VALUE);
    if (gids[i] >= NGLYPHS) CHECK_EQ(gs, OTV_E_ARG);
    otv_glyph_metrics m;
    if (gids[i] < NGLYPHS) {
      otv_status ms = otv_glyph_h_metrics(loc, gids[i], 0, &m);
      CHECK(ms == OTV_E_OK || ms == OTV_E_LIMIT || ms == OTV_E_BAD_VALUE ||
            ms == OTV_E_UNSUPPORTED);
    }
  }
  /* a second round: no allocation once the scratch has grown */
  long a1 = l.mem.calls;
  for (unsigned i = 0; i < ng; i++) {
    otv_status gs;
    long calls;
    bounded_outline(&l, loc, gids[i], &gs, &calls);
  }
  printf("  second round: %ld allocations\n", l.mem.calls - a1);
  CHECK(l.mem.calls - a1 <= 4);
  otv_location_destroy(loc);
  otv_face_close(f);
  CHECK_EQ(l.mem.live_blocks, 0);
  CHECK_EQ(l.mem.live_bytes, 0);
}

#ifdef OTV_RASTER_EVEN_ODD
/* The rasterizer fed the largest glyph the outline calls allow (OTV_MAX_POINTS points: 32767
 * quadratic curves) with control points far outside the buffer: the memory of one path must stay
 * bounded (RASTER_MEM_BOUND) however long the curves are. A tiny font reaches this through
 * composites, so the bound cannot be "linear in the file size". */
#  define RASTER_MEM_BOUND ((long long)128 << 20)
static void raster_bomb(void)
{
  lim l;
  memset(&l, 0, sizeof l);
  otv_options opt = {h_peak_realloc, &l.mem, 0};
  otv_raster *r = NULL;
  CHECK_EQ(otv_raster_create(&opt, &r), OTV_E_OK);
  if (!r) return;
  otv_transform t = {2.0, 0, 0, -2.0, 100, 100};
  otv_raster_set_transform(r, &t);
  const otv_pen *pen = otv_raster_pen();
  pen->move_to(r, 0, 0);
  for (int i = 0; i < OTV_MAX_POINTS / 2; i++) {
    float sgn = (i & 1) ? 1.0f : -1.0f;
    pen->quad_to(r, 16000 * sgn, 16000 * sgn, (float)(i % 50), 0);
  }
  pen->close_path(r);
  static uint8_t img[256 * 256];
  otv_status s = otv_raster_render(r, img, 256, 256, 256, 0);
  printf("raster: %d curves spanning 64000 px: %s, %ld allocations, peak %lld bytes\n",
         OTV_MAX_POINTS / 2, otv_status_str(s), l.mem.calls, l.mem.peak);
  CHECK(s == OTV_E_OK || s == OTV_E_LIMIT || s == OTV_E_NOMEM);
  CHECK(l.mem.peak <= RASTER_MEM_BOUND);
  otv_raster_destroy(r);
  CHECK_EQ(l.mem.live_blocks, 0);
}
#endif

int main(void)
{
  setvbuf(stdout, NULL, _IOLBF, 0); /* keep the progress lines if a sanitizer aborts */
#ifdef OTV_RASTER_EVEN_ODD
  raster_bomb();
#endif
  size_t len;
  uint8_t *cff = make_cff2(&len);
  static const uint32_t cg[] = {0, 1, 2, NGLYPHS - 1, NGLYPHS};
  run("CFF2, 65535 charstrings, subroutine fan-out 20^9", cff, len, cg, sizeof cg / sizeof *cg, 1);
  free(cff);
  uint8_t *ttf = make_ttf(&len);
  static const uint32_t tg[] = {0, 1, 2, 3, 8, 17, 18, 40, 1000, NGLYPHS - 1, NGLYPHS};
  run("TrueType, 65535 glyphs, composite DAG, 300-tuple gvar", ttf, len, tg, sizeof tg / sizeof *tg,
      0);
  free(ttf);
  return h_done("test_limits");
}

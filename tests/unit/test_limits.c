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
  put16(glyf, 1);
  put16(glyf, 0);
  put16(glyf, 0);
  put16(glyf, 1000);
  put16(glyf, 1000);
  put16(glyf, BIG_POINTS - 1);
  put16(glyf, 0); /* no instructions */
  /* flags: on-curve, x and y short positive; repeated 255 times per pair of bytes */
  for (unsigned left = BIG_POINTS; left;) {
    unsigned k = left > 256 ? 256 : left;
    put8(glyf, 0x01 | 0x02 | 0x04 | 0x10 | 0x20 | (k > 1 ? 0x08 : 0));
    if (k > 1) put8(glyf, k - 1);
    left -= k;
  }
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
  put16(gvar, 1);
  put16(gvar, 0);
  put16(gvar, 1);
  put16(gvar, 0);
  put32(gvar, 0);
  put16(gvar, NGLYPHS);
  put16(gvar, 1);
  size_t data_off_at = gvar->n;
  put32(gvar, 0);
  size_t offs_at = gvar->n;
  for (unsigned g = 0; g <= NGLYPHS; g++) put32(gvar, 0);
  size_t data0 = gvar->n;
  set32(gvar, data_off_at, (uint32_t)data0);
  bb one = {0}; /* one tuple's serialized data: points = all, x runs, y runs */
  put8(&one, 0);
  for (int axis = 0; axis < 2; axis++)
    for (unsigned left = BIG_POINTS + 4; left;) {
      unsigned k = left > 64 ? 64 : left;
      put8(&one, k - 1); /* byte deltas */
      for (unsigned i = 0; i < k; i++) put8(&one, (uint8_t)(i % 3));
      left -= k;
    }
  size_t gstart = gvar->n;
  put16(gvar, BIG_TUPLES);
  put16(gvar, 4 + BIG_TUPLES * 6);
  for (unsigned tpl = 0; tpl < BIG_TUPLES; tpl++) {
    put16(gvar, (unsigned)one.n);
    put16(gvar, 0x8000 | 0x2000);
    put16(gvar, 16384u * (tpl % 16 + 1) / 16); /* peak */
  }
  for (unsigned tpl = 0; tpl < BIG_TUPLES; tpl++) putb(gvar, one.p, one.n);
  if (gvar->n % 2) put8(gvar, 0);
  free(one.p);
  size_t gend = gvar->n;
  for (unsigned g = 0; g <= NGLYPHS; g++)
    set32(gvar, offs_at + 4 * (size_t)g, (uint32_t)(g <= 1 ? 0 : gend - data0));
  set32(gvar, offs_at + 4, (uint32_t)(gstart - data0));
  set32(gvar, offs_at + 8, (uint32_t)(gend - data0));
  head_tbl(&t[3].d);
  hhea_tbl(&t[4].d, 1);
  put16(&t[5].d, 1000);
  put16(&t[5].d, 0);
  for (unsigned g = 1; g < NGLYPHS; g++) put16(&t[5].d, 0);
  put32(&t[7].d, 0x00010000);
  put16(&t[7].d, NGLYPHS);
  for (int i = 0; i < 13; i++) put16(&t[7].d, i == 12 ? 16 : 0);
  put16(&t[8].d, 0);
  put16(&t[8].d, 0);
  put16(&t[8].d, 6);
  return sfnt(t, 9, 0x00010000, len);
}

static void cs_num(bb *b, int v)
{
  if (v >= -107 && v <= 107)
    put8(b, (unsigned)(v + 139));
  else {
    put8(b, 28);
    put16(b, (uint16_t)v);
  }
}
static void index2(bb *b, bb *items, unsigned n)
{
  size_t total = 1;
  for (unsigned i = 0; i < n; i++) total += items[i].n;
  unsigned osz = total < 0x100 ? 1 : total < 0x10000 ? 2 : total < 0x1000000 ? 3 : 4;
  put32(b, n);
  put8(b, osz);
  size_t o = 1;
  for (unsigned i = 0; i <= n; i++) {
    for (int k = (int)osz - 1; k >= 0; k--) put8(b, (unsigned)(o >> (8 * k)));
    if (i < n) o += items[i].n;
  }
  for (unsigned i = 0; i < n; i++) putb(b, items[i].p, items[i].n);
}
static void dict_int(bb *b, int32_t v)
{
  put8(b, 29);
  put32(b, (uint32_t)v);
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
  /* header | top DICT (CharStrings, FDArray) | gsubrs | charstrings | FDArray | (empty Private) */
  size_t top_len = 6 + 7, off = 5 + top_len;
  size_t off_cs = off + g.n, off_fda = off_cs + c.n;
  /* one Font DICT: an empty Private DICT at the end of the table (size 0) */
  bb fd = {0};
  dict_int(&fd, 0);
  dict_int(&fd, (int32_t)(off_fda + 4 + 1 + 2 + 11));
  put8(&fd, 18);
  bb fda = {0};
  index2(&fda, &fd, 1);
  if (fda.n != 18) exit(3);
  bb cff = {0};
  put8(&cff, 2);
  put8(&cff, 0);
  put8(&cff, 5);
  put16(&cff, (unsigned)top_len);
  dict_int(&cff, (int32_t)off_cs);
  put8(&cff, 17);
  dict_int(&cff, (int32_t)off_fda);
  put8(&cff, 12);
  put8(&cff, 36);
  putb(&cff, g.p, g.n);
  putb(&cff, c.p, c.n);
  putb(&cff, fda.p, fda.n);
  free(g.p);
  free(c.p);
  free(fd.p);
  free(fda.p);
  tbl t[6] = {{"CFF2", cff}, {"fvar", {0}}, {"head", {0}},
              {"hhea", {0}}, {"hmtx", {0}}, {"maxp", {0}}};
  fvar_tbl(&t[1].d);
  head_tbl(&t[2].d);
  hhea_tbl(&t[3].d, 1);
  put16(&t[4].d, 600);
  put16(&t[4].d, 0);
  for (unsigned i = 1; i < NGLYPHS; i++) put16(&t[4].d, 0);
  put32(&t[5].d, 0x00005000);
  put16(&t[5].d, NGLYPHS);
  return sfnt(t, 6, 0x4F54544F, len);
}

/* ---- counting allocator and pen ---- */
typedef struct lim {
  long calls, live_blocks;
  long long live_bytes, peak;
  long pen_calls;
  jmp_buf jb;
} lim;
static void *l_realloc(void *ud, void *ptr, size_t old_len, size_t new_len)
{
  lim *a = ud;
  if (!new_len) {
    if (ptr) {
      a->live_blocks--;
      a->live_bytes -= (long long)old_len;
    }
    free(ptr);
    return NULL;
  }
  a->calls++;
  void *p = realloc(ptr, new_len);
  if (p) {
    if (!ptr) a->live_blocks++;
    a->live_bytes += (long long)new_len - (long long)(ptr ? old_len : 0);
    if (a->live_bytes > a->peak) a->peak = a->live_bytes;
  }
  return p;
}
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
  otv_options opt = {l_realloc, &l, 0};
  otv_face *f = NULL;
  otv_error e = {0};
  otv_status s = otv_face_open_memory(data, len, 0, &opt, &f, &e);
  long open_calls = l.calls;
  long long open_peak = l.peak;
  printf("  open: %s, %ld allocations, peak %lld bytes\n", otv_status_str(s), open_calls,
         open_peak);
  /* zero-copy open: memory independent of the table sizes (a few KB per table at most) */
  CHECK(open_peak < MEM_BOUND);
  CHECK(open_calls < 1000);
  if (s) { /* rejected: fine, as long as it says where */
    CHECK(e.msg[0] != 0);
    CHECK_EQ(l.live_blocks, 0);
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
    long a0 = l.calls;
    int ok = bounded_outline(&l, loc, gids[i], &gs, &calls);
    char msg[160] = "";
    if (gs) otv_error_format(otv_location_last_error(loc), msg, sizeof msg);
    printf("  glyph %u: %s, %ld pen calls, %ld allocations, peak %lld bytes %s\n", gids[i],
           ok ? otv_status_str(gs) : "UNBOUNDED (pen bound hit)", calls, l.calls - a0, l.peak, msg);
    CHECK(ok);
    CHECK(l.peak < MEM_BOUND + (long long)len);
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
  long a1 = l.calls;
  for (unsigned i = 0; i < ng; i++) {
    otv_status gs;
    long calls;
    bounded_outline(&l, loc, gids[i], &gs, &calls);
  }
  printf("  second round: %ld allocations\n", l.calls - a1);
  CHECK(l.calls - a1 <= 4);
  otv_location_destroy(loc);
  otv_face_close(f);
  CHECK_EQ(l.live_blocks, 0);
  CHECK_EQ(l.live_bytes, 0);
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
  otv_options opt = {l_realloc, &l, 0};
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
         OTV_MAX_POINTS / 2, otv_status_str(s), l.calls, l.peak);
  CHECK(s == OTV_E_OK || s == OTV_E_LIMIT || s == OTV_E_NOMEM);
  CHECK(l.peak <= RASTER_MEM_BOUND);
  otv_raster_destroy(r);
  CHECK_EQ(l.live_blocks, 0);
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

/*
 * test_glyf.c - glyf/loca decoding on hand-built fonts (tests/unit/glyf_fixture.h): flag
 * encodings (short, same, repeat, repeat past the end), composites (byte and word arguments,
 * scale, x/y scale, 2x2, SCALED_COMPONENT_OFFSET, point matching, USE_MY_METRICS, nesting depth
 * limit, cycles, OVERLAP flags), and the canonical pen decomposition (contours starting
 * off-curve, implied midpoints, closing lines). Expected values are worked out by hand.
 */
#include "harness.h"

#include <stdarg.h>
#include "glyf_fixture.h"

static const int SQ_X[7] = {0, 100, 100, 0, 200, 300, 250};
static const int SQ_Y[7] = {0, 0, 100, 100, 0, 0, 100};

enum {
  G_EMPTY,
  G_SQ,
  G_SQ_SHORT,
  G_REPEAT,
  G_OFFSTART,
  G_ALLOFF,
  G_SCALE,
  G_XYSCALE,
  G_2X2,
  G_SCALED_OFF,
  G_MATCH,
  G_MATCHW,
  G_BYTEARGS,
  G_SELF,
  G_WRAP_ENDS,
  G_WRAP_COMP,
  G_DEEP0,
  G_COUNT = G_DEEP0 + 18
};

static fx_font F;
static fx_buf B[G_COUNT];

static void sq_long(fx_buf *b)
{
  static const int dx[7] = {0, 100, 0, -100, 200, 100, -50}, dy[7] = {0, 0, 100, 0, -100, 0, 100};
  fx_i16(b, 2), fx_i16(b, 0), fx_i16(b, 0), fx_i16(b, 300), fx_i16(b, 100);
  fx_u16(b, 3), fx_u16(b, 6), fx_u16(b, 0);
  for (int i = 0; i < 7; i++) fx_u8(b, i < 6 ? 0x01 : 0x00);
  for (int i = 0; i < 7; i++) fx_i16(b, dx[i]);
  for (int i = 0; i < 7; i++) fx_i16(b, dy[i]);
}

/* A composite header + one component record. */
static void comp(fx_buf *b, unsigned flags, unsigned gid, int a1, int a2, const int *m, int nm)
{
  fx_u16(b, flags), fx_u16(b, gid);
  if (flags & 0x0001)
    fx_i16(b, a1), fx_i16(b, a2);
  else
    fx_u8(b, (unsigned)(a1 & 0xFF)), fx_u8(b, (unsigned)(a2 & 0xFF));
  for (int i = 0; i < nm; i++) fx_i16(b, m[i]);
}
static void comp_header(fx_buf *b)
{
  fx_i16(b, -1), fx_i16(b, 0), fx_i16(b, 0), fx_i16(b, 0), fx_i16(b, 0);
}

static void build(void)
{
  memset(&F, 0, sizeof F);
  F.glyph_count = G_COUNT;
  for (int g = 0; g < G_COUNT; g++) {
    F.glyph[g] = g == G_EMPTY ? NULL : &B[g];
    F.advance[g] = 400;
  }
  sq_long(&B[G_SQ]);
  /* the same outline with short / same flags (see the flag bytes' comments) */
  fx_buf *b = &B[G_SQ_SHORT];
  fx_i16(b, 2), fx_i16(b, 0), fx_i16(b, 0), fx_i16(b, 300), fx_i16(b, 100);
  fx_u16(b, 3), fx_u16(b, 6), fx_u16(b, 0);
  static const uint8_t fl[7] = {0x31 /* x same, y same */,
                                0x33 /* x +short, y same */,
                                0x35 /* x same, y +short */,
                                0x23 /* x -short, y same */,
                                0x17 /* x +short, y -short */,
                                0x33,
                                0x24 /* x word, y +short, off */};
  fx_bytes(b, fl, 7);
  fx_u8(b, 100), fx_u8(b, 100), fx_u8(b, 200), fx_u8(b, 100), fx_i16(b, -50); /* x */
  fx_u8(b, 100), fx_u8(b, 100), fx_u8(b, 100);                                /* y */
  /* repeat flag, with a count past the last point (ignored):
   * 4 points (0,0) (10,0) (10,10) (0,10) */
  b = &B[G_REPEAT];
  fx_i16(b, 1), fx_i16(b, 0), fx_i16(b, 0), fx_i16(b, 10), fx_i16(b, 10);
  fx_u16(b, 3), fx_u16(b, 0);
  fx_u8(b, 0x09), fx_u8(b, 10);
  fx_i16(b, 0), fx_i16(b, 10), fx_i16(b, 0), fx_i16(b, -10);
  fx_i16(b, 0), fx_i16(b, 0), fx_i16(b, 10), fx_i16(b, 0);
  /* contour starting off-curve: off (50,0), on (100,50), off (50,100), on (0,50) */
  b = &B[G_OFFSTART];
  fx_i16(b, 1), fx_i16(b, 0), fx_i16(b, 0), fx_i16(b, 100), fx_i16(b, 100);
  fx_u16(b, 3), fx_u16(b, 0);
  fx_u8(b, 0x00), fx_u8(b, 0x01), fx_u8(b, 0x00), fx_u8(b, 0x01);
  fx_i16(b, 50), fx_i16(b, 50), fx_i16(b, -50), fx_i16(b, -50);
  fx_i16(b, 0), fx_i16(b, 50), fx_i16(b, 50), fx_i16(b, -50);
  /* all off-curve: (0,0) (100,0) (100,100) (0,100) */
  b = &B[G_ALLOFF];
  fx_i16(b, 1), fx_i16(b, 0), fx_i16(b, 0), fx_i16(b, 100), fx_i16(b, 100);
  fx_u16(b, 3), fx_u16(b, 0);
  fx_u8(b, 0x08), fx_u8(b, 3);
  fx_i16(b, 0), fx_i16(b, 100), fx_i16(b, 0), fx_i16(b, -100);
  fx_i16(b, 0), fx_i16(b, 0), fx_i16(b, 100), fx_i16(b, 0);
  /* composites of G_SQ; flags: 1 words, 2 xy values, 8 scale, 0x40 x/y scale, 0x80 2x2,
   * 0x20 more, 0x200 use my metrics, 0x400 overlap compound, 0x800 scaled offset */
  int half[1] = {8192}, xy[2] = {32767, 8192}, rot[4] = {0, 16384, -16384, 0};
  b = &B[G_SCALE];
  comp_header(b), comp(b, 0x0001 | 0x0002 | 0x0008 | 0x0400, G_SQ, 10, 20, half, 1);
  b = &B[G_XYSCALE];
  comp_header(b), comp(b, 0x0001 | 0x0002 | 0x0040 | 0x0200, G_SQ, -10, 5, xy, 2);
  b = &B[G_2X2];
  comp_header(b), comp(b, 0x0001 | 0x0002 | 0x0080, G_SQ, 0, 0, rot, 4);
  b = &B[G_SCALED_OFF];
  comp_header(b), comp(b, 0x0001 | 0x0002 | 0x0008 | 0x0800, G_SQ, 10, 20, half, 1);
  /* point matching: SQ at (0,0), then SQ whose point 0 meets the parent's point 2 (100,100) */
  b = &B[G_MATCH];
  comp_header(b), comp(b, 0x0002 | 0x0020, G_SQ, 0, 0, NULL, 0),
      comp(b, 0x0000, G_SQ, 2, 0, NULL, 0);
  /* the same with 16-bit point numbers (ARG_1_AND_2_ARE_WORDS, ARGS_ARE_XY_VALUES clear) */
  b = &B[G_MATCHW];
  comp_header(b), comp(b, 0x0002 | 0x0020, G_SQ, 0, 0, NULL, 0),
      comp(b, 0x0001, G_SQ, 2, 0, NULL, 0);
  /* byte arguments, signed: (-5, 7) */
  b = &B[G_BYTEARGS];
  comp_header(b), comp(b, 0x0002, G_SQ, -5, 7, NULL, 0);
  /* a composite that contains itself */
  b = &B[G_SELF];
  comp_header(b), comp(b, 0x0002, G_SELF, 0, 0, NULL, 0);
  /* contour ends 65533, 3, 4: not increasing (5 points, the last end decides the count); as
   * the second component of G_WRAP_COMP (base 7) the first end plus the base wraps to 4 in
   * 16 bits, which a test of the stored ends would take for increasing */
  b = &B[G_WRAP_ENDS];
  fx_i16(b, 3), fx_i16(b, 0), fx_i16(b, 0), fx_i16(b, 10), fx_i16(b, 10);
  fx_u16(b, 65533), fx_u16(b, 3), fx_u16(b, 4), fx_u16(b, 0);
  for (int i = 0; i < 5; i++) fx_u8(b, 0x01);
  for (int i = 0; i < 5; i++) fx_i16(b, 2);
  for (int i = 0; i < 5; i++) fx_i16(b, 2);
  b = &B[G_WRAP_COMP];
  comp_header(b), comp(b, 0x0002 | 0x0020, G_SQ, 0, 0, NULL, 0),
      comp(b, 0x0002, G_WRAP_ENDS, 0, 0, NULL, 0);
  /* a chain of 18 composites: G_DEEP0 -> G_DEEP0+1 -> ... -> G_SQ (depth 18 > 16) */
  for (int i = 0; i < 18; i++) {
    b = &B[G_DEEP0 + i];
    comp_header(b), comp(b, 0x0002, i == 17 ? G_SQ : (unsigned)(G_DEEP0 + i + 1), 1, 1, NULL, 0);
  }
  F.advance[G_XYSCALE] = 999;
  F.advance[G_SCALE] = 777;
  fx_build(&F);
}

static otv_point pts[256];
static uint8_t pfl[256];
static uint16_t ends[64];

static otv_status get(otv_location *loc, uint32_t g, otv_glyph_points *io)
{
  memset(io, 0, sizeof *io);
  io->points = pts, io->point_flags = pfl, io->contour_ends = ends;
  io->point_cap = 256, io->contour_cap = 64;
  return otv_glyph_points_get(loc, g, 0, io);
}

/* ---- a recording pen ---- */
static char rec[4096];
static void r_add(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  size_t n = strlen(rec);
  vsnprintf(rec + n, sizeof rec - n, fmt, ap);
  va_end(ap);
}
static void r_move(void *c, float x, float y)
{
  (void)c;
  r_add("M%g %g ", x, y);
}
static void r_line(void *c, float x, float y)
{
  (void)c;
  r_add("L%g %g ", x, y);
}
static void r_quad(void *c, float a, float b, float x, float y)
{
  (void)c;
  r_add("Q%g %g %g %g ", a, b, x, y);
}
static void r_cubic(void *c, float a, float b, float d, float e, float x, float y)
{
  (void)c;
  r_add("C%g %g %g %g %g %g ", a, b, d, e, x, y);
}
static void r_close(void *c)
{
  (void)c;
  r_add("Z ");
}
static const otv_pen rpen = {r_move, r_line, r_quad, r_cubic, r_close};

static const char *draw(otv_location *loc, uint32_t g)
{
  rec[0] = 0;
  otv_status s = otv_glyph_outline(loc, g, 0, &rpen, NULL);
  if (s) snprintf(rec, sizeof rec, "error %d", s);
  return rec;
}

/* ---- the component cache (glyf.c "Component cache") ----
 * Roboto-Variable.composite.ttf: AEacute = glyph00002 (USE_MY_METRICS) + glyph00001, both
 * components varied by gvar. A location with the cache and one without (cc_off) must give
 * identical points, flags, contour ends, phantoms and glyph flags at every location, drawn
 * repeatedly; and moving the cached location to other coordinates must not reuse components
 * varied at the old ones (the check that fails if the invalidation were removed). */
typedef struct snap {
  otv_status s;
  unsigned n, nc;
  uint32_t flags;
  otv_point p[256];
  uint8_t f[256];
  uint16_t e[64];
} snap;

static void take(otv_location *loc, uint32_t g, unsigned oflags, snap *o)
{
  otv_glyph_points io;
  memset(&io, 0, sizeof io);
  memset(o, 0, sizeof *o);
  io.points = o->p, io.point_flags = o->f, io.contour_ends = o->e;
  io.point_cap = 256, io.contour_cap = 64;
  o->s = otv_glyph_points_get(loc, g, oflags, &io);
  o->n = io.point_count, o->nc = io.contour_count, o->flags = io.glyph_flags;
}

static bool same(const snap *a, const snap *b)
{
  return a->s == b->s && a->n == b->n && a->nc == b->nc && a->flags == b->flags &&
         !memcmp(a->p, b->p, (a->n + 4) * sizeof(otv_point)) && !memcmp(a->f, b->f, a->n + 4) &&
         !memcmp(a->e, b->e, a->nc * sizeof(uint16_t));
}

/* A cached/uncached pair: one font, two locations of it (lc keeps its caches, the caller
 * switches lu's off). false when anything failed (checked); pair_close frees what was made. */
typedef struct loc_pair {
  void *data;
  otv_face *face;
  otv_location *lc, *lu;
} loc_pair;

static bool pair_open(const char *font, loc_pair *p)
{
  size_t len = 0;
  memset(p, 0, sizeof *p);
  p->data = h_read_file(h_font(font), &len);
  CHECK(p->data != NULL);
  if (!p->data) return false;
  CHECK_EQ(otv_face_open_memory(p->data, len, 0, NULL, &p->face, NULL), OTV_E_OK);
  if (!p->face) return false;
  CHECK_EQ(otv_location_create(p->face, &p->lc, NULL), OTV_E_OK);
  CHECK_EQ(otv_location_create(p->face, &p->lu, NULL), OTV_E_OK);
  return p->lc && p->lu;
}

static void pair_close(loc_pair *p)
{
  otv_location_destroy(p->lc);
  otv_location_destroy(p->lu);
  otv_face_close(p->face);
  free(p->data);
}

static void test_component_cache(void)
{
  loc_pair P;
  if (!pair_open("Roboto-Variable.composite.ttf", &P)) goto out;
  otv_location *lc = P.lc, *lu = P.lu;
  lu->glyf.cc_off = true;
  static snap a, b, first;
  const uint32_t AE = 3; /* AEacute */
  static const otv_f2dot14 L[][2] = {{0, 0},     {16384, 0},      {-16384, -16384}, {8000, -12000},
                                     {-5000, 0}, {16384, -16384}, {0, 0},           {3000, -3000}};
  unsigned nl = sizeof L / sizeof L[0];
  for (unsigned i = 0; i < nl; i++) {
    CHECK_EQ(otv_location_set_normalized(lc, L[i], 2), OTV_E_OK);
    CHECK_EQ(otv_location_set_normalized(lu, L[i], 2), OTV_E_OK);
    for (unsigned rep = 0; rep < 3; rep++)
      for (unsigned oflags = 0; oflags <= OTV_OUTLINE_ROUND; oflags += OTV_OUTLINE_ROUND)
        for (uint32_t g = 0; g < 4; g++) {
          take(lc, g, oflags, &a);
          take(lu, g, oflags, &b);
          CHECK_EQ(a.s, OTV_E_OK);
          CHECK(same(&a, &b));
        }
    /* the composite at the first location differs from it here (else the test proves nothing) */
    take(lu, AE, 0, &b);
    if (i == 0)
      first = b;
    else if (L[i][0] || L[i][1])
      CHECK(!same(&first, &b));
  }
  /* the cache holds both components (the glyph is filled from it, not decoded again) */
  CHECK(lc->glyf.cc_slots != NULL);
  if (lc->glyf.cc_slots) {
    CHECK_EQ(lc->glyf.cc_slots[1].gen, lc->glyf.cc_gen);
    CHECK_EQ(lc->glyf.cc_slots[2].gen, lc->glyf.cc_gen);
    CHECK(lc->glyf.cc_slots[2].bits & 1u); /* USE_MY_METRICS: the real phantoms */
  }
  /* invalidation: the composite alone (no top-level draw of its components in between) at one
   * location, then at another: the second must be computed at the new coordinates */
  for (unsigned i = 1; i < nl; i++) {
    CHECK_EQ(otv_location_set_normalized(lc, L[i - 1], 2), OTV_E_OK);
    take(lc, AE, 0, &a);
    CHECK_EQ(otv_location_set_normalized(lc, L[i], 2), OTV_E_OK);
    CHECK_EQ(otv_location_set_normalized(lu, L[i], 2), OTV_E_OK);
    take(lc, AE, 0, &a);
    take(lu, AE, 0, &b);
    CHECK(same(&a, &b));
    /* the same through the user-space setter */
    otv_axis_value v = {OTV_TAG('w', 'g', 'h', 't'), 100.0 + 100.0 * i};
    CHECK_EQ(otv_location_set_user(lc, &v, 1), OTV_E_OK);
    CHECK_EQ(otv_location_set_user(lu, &v, 1), OTV_E_OK);
    take(lc, AE, 0, &a);
    take(lu, AE, 0, &b);
    CHECK(same(&a, &b));
  }
out:
  pair_close(&P);
}

/* ---- the glyph cache (glyf.c "Glyph cache") ----
 * Every glyph of real variable fonts (all-points and sparse tuples with IUP, intermediate
 * regions, embedded peaks, composites, a glyph whose data ends the gvar table) drawn at many
 * locations through a location with the glyph cache and one without: the pen calls must be
 * bit-identical (a hash of the calls and the bits of every coordinate). The cache is kept
 * across coordinate changes, so a cache holding anything location-dependent fails here. */
typedef struct gc_hash {
  uint64_t h;
} gc_hash;
static void gh_add(gc_hash *g, unsigned op, const float *v, unsigned n)
{
  uint64_t h = g->h ^ op;
  h *= 0x100000001b3u;
  for (unsigned i = 0; i < n; i++) {
    uint32_t b;
    memcpy(&b, &v[i], 4);
    h = (h ^ b) * 0x100000001b3u;
  }
  g->h = h;
}
static void gh_move(void *c, float x, float y)
{
  float v[2] = {x, y};
  gh_add(c, 1, v, 2);
}
static void gh_line(void *c, float x, float y)
{
  float v[2] = {x, y};
  gh_add(c, 2, v, 2);
}
static void gh_quad(void *c, float a, float b, float x, float y)
{
  float v[4] = {a, b, x, y};
  gh_add(c, 3, v, 4);
}
static void gh_cubic(void *c, float a, float b, float d, float e, float x, float y)
{
  float v[6] = {a, b, d, e, x, y};
  gh_add(c, 4, v, 6);
}
static void gh_close(void *c) { gh_add(c, 5, NULL, 0); }
static const otv_pen gh_pen = {gh_move, gh_line, gh_quad, gh_cubic, gh_close};

static uint64_t gh_draw(otv_location *loc, uint32_t g, otv_status *s)
{
  gc_hash h = {0xcbf29ce484222325u};
  *s = otv_glyph_outline(loc, g, 0, &gh_pen, &h);
  return h.h;
}

static void test_glyph_cache_font(const char *name)
{
  loc_pair P;
  if (!pair_open(name, &P)) goto out;
  otv_face *face = P.face;
  otv_location *lc = P.lc, *lu = P.lu;
  lu->glyf.gc_off = true;
  otv_face_info info;
  otv_face_get_info(face, &info);
  uint32_t ng = info.glyph_count < 400 ? info.glyph_count : 400;
  unsigned axes = lc->face->glyf.gvar.axis_count, moved = 0, compared = 0;
  uint32_t seed = 12345;
  for (unsigned li = 0; li < 12; li++) {
    otv_f2dot14 c[16] = {0};
    for (unsigned a = 0; a < axes && a < 16; a++) {
      seed = seed * 1103515245u + 12345u;
      int v = (int)((seed >> 8) % 32769u) - 16384;
      if (li == 1) v = 16384;
      if (li == 2) v = -16384;
      if (li == 3) v = a & 1 ? 16384 : -16384;
      if (li == 0 || li == 11) v = 0; /* the default (no tuple applies), at the end again */
      c[a] = (otv_f2dot14)v;
    }
    CHECK_EQ(otv_location_set_normalized(lc, c, axes < 16 ? axes : 16), OTV_E_OK);
    CHECK_EQ(otv_location_set_normalized(lu, c, axes < 16 ? axes : 16), OTV_E_OK);
    for (unsigned rep = 0; rep < 2; rep++)
      for (uint32_t g = 0; g < ng; g++) {
        otv_status sa, sb;
        uint64_t ha = gh_draw(lc, g, &sa), hb = gh_draw(lu, g, &sb);
        CHECK_EQ(sa, sb);
        if (ha != hb) fprintf(stderr, "%s: glyph %u location %u differs\n", name, g, li);
        CHECK(ha == hb);
        compared++;
      }
    /* outlines at this location differ from the default for some glyph */
    if (li == 1) {
      otv_location *l0 = NULL;
      if (!otv_location_create(face, &l0, NULL)) {
        for (uint32_t g = 0; g < ng; g++) {
          otv_status s0, s1;
          if (gh_draw(l0, g, &s0) != gh_draw(lc, g, &s1)) moved++;
        }
        otv_location_destroy(l0);
      }
    }
  }
  CHECK(moved > 0);
  CHECK(compared > 0);
  /* the cache holds glyphs (the comparison above went through it) */
  unsigned held = 0;
  if (lc->glyf.gc_slots)
    for (unsigned i = 0; i <= lc->glyf.gc_mask; i++)
      held += lc->glyf.gc_slots[i].gid1 != 0 && lc->glyf.gc_slots[i].off != UINT32_MAX;
  /* Handjet: composites and one glyph too big for an entry (167 tuples): none cached */
  CHECK(strcmp(name, "Handjet.ttf") ? held > 0 : held == 0);
out:
  pair_close(&P);
}

static void test_glyph_cache(void)
{
  static const char *fonts[] = {"Roboto-Variable.ABC.ttf",
                                "Roboto-Variable.composite.ttf",
                                "SparseMasters-VF.ttf",
                                "material_symbols_subset.ttf",
                                "Handjet.ttf",
                                "vazirmatn_var_trimmed.ttf",
                                "Amstelvar-avar2.A.ttf",
                                "NotoSans-VF.abc.ttf",
                                "Muli-ABC.ttf",
                                "PartialInstancerTest-VF.ttf"};
  for (unsigned i = 0; i < sizeof fonts / sizeof fonts[0]; i++) test_glyph_cache_font(fonts[i]);
}

/* otv_options: OTV_OPT_NO_OUTLINE_CACHES and outline_cache_max give the same outlines (bits),
 * without the caches' memory or within the bound; the default caches fill lazily (nothing at a
 * glyph's first draw). */
static void test_cache_options_font(const char *name)
{
  size_t len = 0;
  void *data = h_read_file(h_font(name), &len);
  CHECK(data != NULL);
  if (!data) return;
  otv_options none = {NULL, NULL, OTV_OPT_NO_OUTLINE_CACHES};
  otv_options capped = {NULL, NULL, OTV_OPT_OUTLINE_CACHE_KIB(16)};
  otv_face *fd = NULL, *fn = NULL, *fc = NULL;
  CHECK_EQ(otv_face_open_memory(data, len, 0, NULL, &fd, NULL), OTV_E_OK);
  CHECK_EQ(otv_face_open_memory(data, len, 0, &none, &fn, NULL), OTV_E_OK);
  CHECK_EQ(otv_face_open_memory(data, len, 0, &capped, &fc, NULL), OTV_E_OK);
  otv_location *ld = NULL, *ln = NULL, *lc = NULL;
  if (fd) CHECK_EQ(otv_location_create(fd, &ld, NULL), OTV_E_OK);
  if (fn) CHECK_EQ(otv_location_create(fn, &ln, NULL), OTV_E_OK);
  if (fc) CHECK_EQ(otv_location_create(fc, &lc, NULL), OTV_E_OK);
  if (!ld || !ln || !lc) goto out;
  otv_face_info info;
  otv_face_get_info(fd, &info);
  uint32_t ng = info.glyph_count < 400 ? info.glyph_count : 400;
  unsigned axes = info.axis_count < 16 ? info.axis_count : 16, compared = 0;
  uint32_t seed = 777;
  for (unsigned li = 0; li < 6; li++) {
    otv_f2dot14 c[16] = {0};
    for (unsigned a = 0; a < axes; a++) {
      seed = seed * 1103515245u + 12345u;
      c[a] = li == 1 ? 16384 : (otv_f2dot14)((int)((seed >> 8) % 32769u) - 16384);
    }
    CHECK_EQ(otv_location_set_normalized(ld, c, axes), OTV_E_OK);
    CHECK_EQ(otv_location_set_normalized(ln, c, axes), OTV_E_OK);
    CHECK_EQ(otv_location_set_normalized(lc, c, axes), OTV_E_OK);
    for (unsigned rep = 0; rep < 3; rep++) {
      for (uint32_t g = 0; g < ng; g++) {
        otv_status sd, sn, sc;
        uint64_t hd = gh_draw(ld, g, &sd), hn = gh_draw(ln, g, &sn), hc = gh_draw(lc, g, &sc);
        CHECK_EQ(sd, sn);
        CHECK_EQ(sd, sc);
        CHECK(hd == hn);
        CHECK(hd == hc);
        compared++;
      }
      /* lazy: after every glyph's first draw at a new location, no glyph cache entry yet */
      if (li == 0 && rep == 0) {
        CHECK(ld->glyf.gc_slots == NULL);
        CHECK(ld->glyf.gc_mem == NULL);
      }
    }
  }
  CHECK(compared > 0);
  /* no caches: nothing allocated for them; capped: within the bound; default: in use */
  CHECK(ln->glyf.gc_seen == NULL && ln->glyf.gc_slots == NULL && ln->glyf.gc_mem == NULL);
  CHECK(ln->glyf.cc_slots == NULL && ln->glyf.cc_mem == NULL);
  CHECK(lc->glyf.gc_cap <= 16384 && lc->glyf.cc_cap <= 16384);
  CHECK(ld->glyf.gc_slots != NULL);
  if (!strcmp(name, "NotoSans-VF.abc.ttf")) /* fills the bound (default: 4 times more) */
    CHECK(lc->glyf.gc_cap == 16384 && ld->glyf.gc_cap > 16384);
out:
  otv_location_destroy(ld);
  otv_location_destroy(ln);
  otv_location_destroy(lc);
  otv_face_close(fd);
  otv_face_close(fn);
  otv_face_close(fc);
  free(data);
}

static void test_cache_options(void)
{
  test_cache_options_font("Roboto-Variable.composite.ttf");
  test_cache_options_font("NotoSans-VF.abc.ttf");
  test_cache_options_font("SparseMasters-VF.ttf");
}

int main(void)
{
  test_cache_options();
  test_glyph_cache();
  test_component_cache();
  build();
  otv_face *face = NULL;
  otv_error err = {0};
  CHECK_EQ(otv_face_open_memory(F.out.d, F.out.n, 0, NULL, &face, &err), OTV_E_OK);
  if (!face) return h_done("test_glyf");
  otv_location *loc = NULL;
  CHECK_EQ(otv_location_create(face, &loc, NULL), OTV_E_OK);
  otv_glyph_points io;

  /* the two encodings of SQ decode to the same points */
  for (uint32_t g = G_SQ; g <= G_SQ_SHORT; g++) {
    CHECK_EQ(get(loc, g, &io), OTV_E_OK);
    CHECK_EQ(io.point_count, 7);
    for (int i = 0; i < 7; i++) {
      CHECK_EQ(pts[i].x, SQ_X[i]);
      CHECK_EQ(pts[i].y, SQ_Y[i]);
      CHECK_EQ(pfl[i] & OTV_POINT_ON_CURVE, i < 6 ? OTV_POINT_ON_CURVE : 0);
    }
    /* phantoms: lsb 0 = xMin, advance 400; vertical from hhea 800 / -200 */
    CHECK_EQ(pts[7].x, 0);
    CHECK_EQ(pts[8].x, 400);
    CHECK_EQ(pts[9].y, 800);
    CHECK_EQ(pts[10].y, -200);
  }
  CHECK_EQ(io.glyph_flags & OTV_GLYPH_OVERLAP_SIMPLE, 0);
  CHECK_STR(draw(loc, G_SQ), "M0 0 L100 0 L100 100 L0 100 L0 0 Z M200 0 L300 0 Q250 100 200 0 Z ");

  /* repeat flag, count past the end */
  CHECK_EQ(get(loc, G_REPEAT, &io), OTV_E_OK);
  CHECK_EQ(io.point_count, 4);
  CHECK_EQ(pts[2].x, 10);
  CHECK_EQ(pts[2].y, 10);
  CHECK_EQ(pts[3].x, 0);
  CHECK_EQ(pts[3].y, 10);

  /* decomposition: off-curve start with on-curve last -> start at the last point */
  CHECK_STR(draw(loc, G_OFFSTART), "M0 50 Q50 0 100 50 Q50 100 0 50 Z ");
  /* all off-curve -> start at the midpoint of last and first, implied midpoints */
  CHECK_STR(draw(loc, G_ALLOFF), "M0 50 Q0 0 50 0 Q100 0 100 50 Q100 100 50 100 Q0 100 0 50 Z ");
  /* empty glyph: nothing */
  CHECK_STR(draw(loc, G_EMPTY), "");

  /* scale 0.5 at (10, 20); OVERLAP_COMPOUND */
  CHECK_EQ(get(loc, G_SCALE, &io), OTV_E_OK);
  CHECK(io.glyph_flags & OTV_GLYPH_COMPOSITE);
  CHECK(io.glyph_flags & OTV_GLYPH_OVERLAP_COMPOUND);
  for (int i = 0; i < 7; i++) {
    CHECK_NEAR(pts[i].x, SQ_X[i] * 0.5 + 10, 1e-4);
    CHECK_NEAR(pts[i].y, SQ_Y[i] * 0.5 + 20, 1e-4);
  }
  CHECK_NEAR(pts[8].x - pts[7].x, 777, 1e-4); /* no USE_MY_METRICS: its own advance */
  /* x/y scale (32767/16384, 0.5) at (-10, 5); USE_MY_METRICS: the component's advance 400 */
  CHECK_EQ(get(loc, G_XYSCALE, &io), OTV_E_OK);
  for (int i = 0; i < 7; i++) {
    CHECK_NEAR(pts[i].x, SQ_X[i] * (32767.0 / 16384) - 10, 1e-3);
    CHECK_NEAR(pts[i].y, SQ_Y[i] * 0.5 + 5, 1e-4);
  }
  CHECK_NEAR(pts[8].x - pts[7].x, 400, 1e-4);
  CHECK_EQ(io.glyph_flags & OTV_GLYPH_OVERLAP_COMPOUND, 0);
  /* 2x2 (xscale 0, scale01 1, scale10 -1, yscale 0): x' = -y, y' = x */
  CHECK_EQ(get(loc, G_2X2, &io), OTV_E_OK);
  for (int i = 0; i < 7; i++) {
    CHECK_NEAR(pts[i].x, -SQ_Y[i], 1e-4);
    CHECK_NEAR(pts[i].y, SQ_X[i], 1e-4);
  }
  /* SCALED_COMPONENT_OFFSET: the offset (10, 20) is scaled too -> (5, 10) */
  CHECK_EQ(get(loc, G_SCALED_OFF, &io), OTV_E_OK);
  CHECK_NEAR(pts[0].x, 5, 1e-4);
  CHECK_NEAR(pts[0].y, 10, 1e-4);
  CHECK_NEAR(pts[1].x, 55, 1e-4);
  /* point matching, with 8-bit and with 16-bit point numbers */
  for (int w = 0; w < 2; w++) {
    CHECK_EQ(get(loc, w ? G_MATCHW : G_MATCH, &io), OTV_E_OK);
    CHECK_EQ(io.point_count, 14);
    CHECK_EQ(io.contour_count, 4);
    CHECK_EQ(ends[2], 10);
    CHECK_EQ(ends[3], 13);
    for (int i = 0; i < 7; i++) {
      CHECK_NEAR(pts[7 + i].x, SQ_X[i] + 100, 1e-4);
      CHECK_NEAR(pts[7 + i].y, SQ_Y[i] + 100, 1e-4);
    }
  }
  /* signed byte arguments */
  CHECK_EQ(get(loc, G_BYTEARGS, &io), OTV_E_OK);
  CHECK_NEAR(pts[0].x, -5, 1e-4);
  CHECK_NEAR(pts[0].y, 7, 1e-4);
  /* a cycle and a chain deeper than OTV_MAX_COMPONENT_DEPTH: errors naming glyf */
  CHECK_EQ(get(loc, G_SELF, &io), OTV_E_BAD_VALUE);
  CHECK_EQ(otv_location_last_error(loc)->table, OTV_T_GLYF);
  CHECK_EQ(get(loc, G_DEEP0, &io), OTV_E_LIMIT);
  CHECK_EQ(otv_location_last_error(loc)->table, OTV_T_GLYF);
  /* contour ends that are not increasing, alone and after 7 points of another component (the
   * fuzzer's case: the wrapped ends reached IUP, which wrote past its scratch) */
  for (int g = G_WRAP_ENDS; g <= G_WRAP_COMP; g++) {
    otv_location_clear_error(loc);
    CHECK_EQ(get(loc, (uint32_t)g, &io), OTV_E_BAD_VALUE);
    CHECK_EQ(otv_location_last_error(loc)->table, OTV_T_GLYF);
    CHECK(strstr(otv_location_last_error(loc)->msg, "endPtsOfContours[1] = 3 not increasing"));
  }
  /* 16 levels are fine: G_DEEP0 + 2 nests 16 composites */
  CHECK_EQ(get(loc, G_DEEP0 + 2, &io), OTV_E_OK);
  CHECK_NEAR(pts[0].x, 16, 1e-4);
  /* out of range gid */
  CHECK_EQ(get(loc, G_COUNT, &io), OTV_E_ARG);

  otv_location_destroy(loc);
  otv_face_close(face);
  return h_done("test_glyf");
}

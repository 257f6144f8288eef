/*
 * test_instance.c - otv_instance_create: the instance's glyph points equal otvar's own runtime
 * points of the variable font at that location (rounded); the output is a valid sfnt without
 * variation tables; corrupted inputs fail cleanly; allocation failures leak nothing.
 */
#include "harness.h"
#include "face.h"
#include "core/sfnt.h"
#include "core/writer.h"

static otv_face *open_buf(const uint8_t *p, size_t n, const otv_options *o)
{
  otv_face *f = NULL;
  if (otv_face_open_memory(p, n, 0, o, &f, NULL)) return NULL;
  return f;
}

typedef struct pts {
  otv_point p[4096];
  uint8_t fl[4096];
  uint16_t ends[1024];
  otv_glyph_points io;
} pts;

static otv_status get_points(otv_location *loc, uint32_t gid, unsigned flags, pts *s)
{
  memset(&s->io, 0, sizeof s->io);
  s->io.points = s->p;
  s->io.point_flags = s->fl;
  s->io.contour_ends = s->ends;
  s->io.point_cap = 4096;
  s->io.contour_cap = 1024;
  return otv_glyph_points_get(loc, gid, flags, &s->io);
}

/* Compare every glyph of the instance (at its default) with the VF at loc, rounded. Simple
 * glyphs must be equal; flattened composites within 1 unit (the runtime rounds each flattened
 * point, the instance rounds the component offset and the component's points separately). */
static void compare_outlines(const char *name, otv_location *vloc, const uint8_t *inst, size_t len)
{
  otv_face *f = open_buf(inst, len, NULL);
  CHECK(f != NULL);
  if (!f) return;
  otv_face_info info;
  otv_face_get_info(f, &info);
  CHECK_EQ(info.axis_count, 0);
  CHECK(!otv_face_has(f, OTV_T_GVAR) && !otv_face_has(f, OTV_T_FVAR) &&
        !otv_face_has(f, OTV_T_HVAR));
  otv_location *il = NULL;
  CHECK_EQ(otv_location_create(f, &il, NULL), OTV_E_OK);
  static pts a, b;
  unsigned bad = 0, composite_off = 0;
  for (uint32_t g = 0; g < info.glyph_count && il; g++) {
    /* CFF2: the instance rounds the absolute points of the unrounded outline (as hb-subset
     * does); glyf: OTV_OUTLINE_ROUND is what a static instance stores */
    bool cff = info.flavour == OTV_FLAVOUR_CFF2 || info.flavour == OTV_FLAVOUR_CFF;
    otv_status s1 = get_points(vloc, g, cff ? 0 : OTV_OUTLINE_ROUND, &a);
    if (cff && !s1)
      for (unsigned i = 0; i < a.io.point_count; i++)
        a.p[i].x = floorf(a.p[i].x + 0.5f), a.p[i].y = floorf(a.p[i].y + 0.5f);
    otv_status s2 = get_points(il, g, OTV_OUTLINE_ROUND, &b);
    if (cff && !s2) /* (the exact CFF2 instance: its 16.16 points, rounded here) */
      for (unsigned i = 0; i < b.io.point_count; i++)
        b.p[i].x = floorf(b.p[i].x + 0.5f), b.p[i].y = floorf(b.p[i].y + 0.5f);
    CHECK_EQ(s1, s2);
    if (s1 || s2) continue;
    CHECK_EQ(a.io.point_count, b.io.point_count);
    CHECK_EQ(a.io.contour_count, b.io.contour_count);
    if (a.io.point_count != b.io.point_count) continue;
    bool comp = a.io.glyph_flags & OTV_GLYPH_COMPOSITE;
    for (unsigned i = 0; i < a.io.point_count; i++) {
      float dx = fabsf(a.p[i].x - b.p[i].x), dy = fabsf(a.p[i].y - b.p[i].y);
      if (dx == 0 && dy == 0) continue;
      if (comp && dx <= 1 && dy <= 1) {
        composite_off++;
        continue;
      }
      if (bad++ < 5)
        fprintf(stderr, "%s glyph %u point %u: VF (%g, %g), instance (%g, %g)\n", name, g, i,
                a.p[i].x, a.p[i].y, b.p[i].x, b.p[i].y);
    }
    /* advances: the instance's hmtx against the VF's varied phantom points (as fontTools and
     * hb-subset make them; HVAR can disagree, e.g. for .notdef of Roboto, whose gvar has no
     * phantom deltas where HVAR has a delta) */
    unsigned np = a.io.point_count;
    if (info.flavour == OTV_FLAVOUR_CFF2 || info.flavour == OTV_FLAVOUR_CFF) {
      /* CFF: the instance's hmtx against the VF's HVAR advance, rounded */
      otv_glyph_metrics ma, mb;
      if (!otv_glyph_h_metrics(vloc, g, OTV_METRICS_ROUND, &ma) &&
          !otv_glyph_h_metrics(il, g, OTV_METRICS_ROUND, &mb) && ma.advance != mb.advance &&
          bad++ < 5)
        fprintf(stderr, "%s glyph %u advance: VF %g, instance %g\n", name, g, ma.advance,
                mb.advance);
    } else if (!get_points(vloc, g, 0, &a) && !get_points(il, g, 0, &b)) {
      float adv = floorf(a.p[np + 1].x - a.p[np].x + 0.5f);
      float adv_i = b.p[np + 1].x - b.p[np].x; /* integers in the instance */
      if (adv < 0) adv = 0;
      if (adv != adv_i && bad++ < 5)
        fprintf(stderr, "%s glyph %u advance: VF %g, instance %g\n", name, g, adv, adv_i);
    }
  }
  CHECK_EQ(bad, 0);
  if (composite_off)
    printf("%s: %u composite points off by 1 (rounding order)\n", name, composite_off);
  otv_location_destroy(il);
  otv_face_close(f);
}

static void test_font(const char *name, const char *var)
{
  size_t len;
  uint8_t *data = h_read_file(h_font(name), &len);
  otv_face *f = open_buf(data, len, NULL);
  CHECK(f != NULL);
  if (!f) {
    free(data);
    return;
  }
  otv_location *loc = NULL;
  CHECK_EQ(otv_location_create(f, &loc, NULL), OTV_E_OK);
  otv_axis axes[16];
  unsigned na = 16;
  otv_face_axes(f, 0, &na, axes);
  /* a few locations: default, each named instance up to 3, and a fixed user location */
  unsigned ni = otv_face_named_instances(f, 0, NULL, NULL);
  for (int k = -1; k < 4 && loc; k++) {
    if (k == -1)
      otv_location_reset(loc);
    else if (k < 3 && (unsigned)k < ni)
      otv_location_set_named(loc, (unsigned)k);
    else if (k == 3) {
      otv_axis_value v[16];
      for (unsigned a = 0; a < na; a++) {
        v[a].tag = axes[a].tag;
        v[a].value = axes[a].min_value + 0.3 * (axes[a].max_value - axes[a].min_value);
      }
      otv_location_set_user(loc, v, na);
    } else
      continue;
    uint8_t *out = NULL;
    size_t olen = 0;
    /* CFF2 fonts: the exact CFF2 output, whose points rounded are the rounded points compared
     * below (the integer outputs, whose rounding is carried across kept subroutine calls, are
     * checked by tests/oracle/test_instance_cff1.c) */
    otv_status st =
        otv_instance_create(loc, OTV_INSTANCE_CFF2 | OTV_INSTANCE_CFF_EXACT, &out, &olen);
    CHECK_EQ(st, OTV_E_OK);
    if (st) {
      fprintf(stderr, "%s: %s\n", name, otv_location_last_error(loc)->msg);
      continue;
    }
    CHECK_EQ(otv_sfnt_checksum(out, olen), 0xB1B0AFBAu);
    compare_outlines(name, loc, out, olen);
    otv_instance_free(loc, out, olen);
  }
  (void)var;
  otv_location_destroy(loc);
  otv_face_close(f);
  free(data);
}

/* A name table whose kept records alone pass 64 KiB (6000 records, their strings overlapping
 * them, as only a hostile font has) cannot be written: the strings' offset is 16-bit. The
 * instance fails with OTV_E_LIMIT naming name (it once wrote the offset clamped to 0xFFFF). */
static void test_name_header_limit(void)
{
  size_t len;
  uint8_t *src = h_read_file(h_font("Roboto-Variable.ABC.ttf"), &len);
  enum { RECS = 6000 };
  size_t name_len = 6 + 12 * (size_t)RECS, at = (len + 3) & ~(size_t)3;
  uint8_t *font = calloc(1, at + name_len);
  CHECK(font != NULL);
  if (!font) {
    free(src);
    return;
  }
  memcpy(font, src, len);
  uint8_t *nt = font + at;
  otv_put_u16(nt, 0);
  otv_put_u16(nt + 2, RECS);
  otv_put_u16(nt + 4, 6);
  for (size_t i = 0; i < RECS; i++) /* Windows, Unicode BMP, en-US, family name, 2 bytes at 0 */
    memcpy(nt + 6 + 12 * i, "\0\3\0\1\x04\x09\0\1\0\2\0\0", 12);
  unsigned tables = otv_peek_u16(font + 4), found = 0;
  for (unsigned i = 0; i < tables; i++) { /* point the directory's name record at it */
    uint8_t *rec = font + 12 + 16 * (size_t)i;
    if (otv_peek_u32(rec) != OTV_T_NAME) continue;
    otv_put_u32(rec + 8, (uint32_t)at);
    otv_put_u32(rec + 12, (uint32_t)name_len);
    found = 1;
  }
  CHECK(found);
  otv_face *f = open_buf(font, at + name_len, NULL);
  CHECK(f != NULL);
  otv_location *loc = NULL;
  if (f) CHECK_EQ(otv_location_create(f, &loc, NULL), OTV_E_OK);
  if (loc) {
    uint8_t *out = NULL;
    size_t olen = 0;
    CHECK_EQ(otv_instance_create(loc, 0, &out, &olen), OTV_E_LIMIT);
    CHECK(out == NULL);
    CHECK_EQ(otv_location_last_error(loc)->table, OTV_T_NAME);
    otv_instance_free(loc, out, olen);
  }
  otv_location_destroy(loc);
  otv_face_close(f);
  free(font);
  free(src);
}

/* Non-variable fonts are refused with an error in the location. */
static void test_refused(void)
{
  size_t len;
  uint8_t *data = h_read_file(h_font("Roboto-Variable.ABC.ttf"), &len);
  otv_face *f = open_buf(data, len, NULL);
  otv_location *loc = NULL;
  otv_location_create(f, &loc, NULL);
  uint8_t *out = NULL;
  size_t olen = 0;
  CHECK_EQ(otv_instance_create(loc, 0, &out, &olen), OTV_E_OK);
  otv_location_destroy(loc);
  otv_face_close(f);
  /* the instance itself is not variable */
  f = open_buf(out, olen, NULL);
  CHECK(f != NULL);
  if (f) {
    otv_location_create(f, &loc, NULL);
    uint8_t *o2 = NULL;
    size_t l2 = 0;
    CHECK_EQ(otv_instance_create(loc, 0, &o2, &l2), OTV_E_UNSUPPORTED);
    CHECK(o2 == NULL);
    CHECK_EQ(otv_location_last_error(loc)->code, OTV_E_UNSUPPORTED);
    otv_location_destroy(loc);
    otv_face_close(f);
  }
  free(out);
  free(data);
  CHECK_EQ(otv_instance_create(NULL, 0, &out, &olen), OTV_E_ARG);
}

/* Corrupt bytes inside glyf, gvar, cvar, MVAR, GPOS...: an error or a font, never a crash (run
 * under ASan/UBSan), and any font produced reopens. */
static void test_corruption(const char *name)
{
  size_t len;
  uint8_t *data = h_read_file(h_font(name), &len);
  uint8_t *copy = malloc(len);
  unsigned seed = 12345, produced = 0, failed = 0;
  for (int iter = 0; iter < 300; iter++) {
    memcpy(copy, data, len);
    for (int k = 0; k < 8; k++) {
      seed = seed * 1103515245u + 12345u;
      size_t at = 12 + (seed >> 8) % (len - 12);
      seed = seed * 1103515245u + 12345u;
      copy[at] = (uint8_t)(seed >> 16);
    }
    otv_face *f = open_buf(copy, len, NULL);
    if (!f) continue;
    otv_location *loc = NULL;
    if (otv_location_create(f, &loc, NULL) == OTV_E_OK) {
      otv_location_set_named(loc, 1);
      uint8_t *out = NULL;
      size_t olen = 0;
      if (otv_instance_create(loc, 0, &out, &olen) == OTV_E_OK) {
        produced++;
        otv_face *g = open_buf(out, olen, NULL);
        CHECK(g != NULL);
        otv_face_close(g);
        otv_instance_free(loc, out, olen);
      } else {
        failed++;
        CHECK(otv_location_last_error(loc)->code != OTV_E_OK);
      }
    }
    otv_location_destroy(loc);
    otv_face_close(f);
  }
  printf("%s corruption: %u instanced, %u refused\n", name, produced, failed);
  CHECK(produced + failed > 0);
  free(copy);
  free(data);
}

/* Fail the Nth allocation for N = 1, 2, ... until instancing succeeds: NOMEM each time, no
 * leak. */
typedef otv_status (*make_fn)(otv_location *loc, unsigned flags, uint8_t **out, size_t *len);
static void test_alloc_failures_of(const char *name, unsigned flags, make_fn make);

/* axis limits: wght restricted with a moved default, wdth restricted (PartialInstancerTest) */
static otv_status make_limits(otv_location *loc, unsigned flags, uint8_t **out, size_t *len)
{
  otv_axis_limits lim[2] = {{OTV_TAG('w', 'g', 'h', 't'), 300, 600, 800},
                            {OTV_TAG('w', 'd', 't', 'h'), 80, 100, 100}};
  return otv_instance_create_limits(loc, lim, 2, flags, out, len);
}

/* avar 2: wght and the parametric axes it drives kept (Amstelvar-avar2) */
static otv_status make_avar2(otv_location *loc, unsigned flags, uint8_t **out, size_t *len)
{
  static const char *keep[] = {"wght", "XTRA", "XOPQ", "YOPQ", "YTLC",
                               "YTUC", "YTAS", "YTDE", "YTFI"};
  uint32_t tags[9];
  for (unsigned i = 0; i < 9; i++)
    tags[i] = OTV_TAG(keep[i][0], keep[i][1], keep[i][2], keep[i][3]);
  return otv_instance_create_partial(loc, tags, 9, flags, out, len);
}

/* otv_instance_create_limits refusing what it cannot take: each with its code, no output */
static void test_limits_refused(void)
{
  size_t len;
  uint8_t *data = h_read_file(h_font("PartialInstancerTest-VF.ttf"), &len);
  otv_face *f = open_buf(data, len, NULL);
  otv_location *loc = NULL;
  otv_location_create(f, &loc, NULL);
  uint32_t W = OTV_TAG('w', 'g', 'h', 't'), Z = OTV_TAG('z', 'z', 'z', 'z');
  struct {
    otv_axis_limits l[2];
    unsigned n;
    otv_status want;
  } cases[] = {
      {{{W, 700, 400, 300}}, 1, OTV_E_ARG},                     /* min > max */
      {{{W, 50, 400, 700}}, 1, OTV_E_ARG},                      /* outside the axis */
      {{{W, 300, 800, 700}}, 1, OTV_E_ARG},                     /* default outside the range */
      {{{W, NAN, 400, 700}}, 1, OTV_E_ARG},                     /* NaN */
      {{{W, 300, NAN, 700}}, 1, OTV_E_ARG},                     /* NaN default */
      {{{W, 300, 400, 700}, {W, 400, 400, 400}}, 2, OTV_E_ARG}, /* twice */
      {{{Z, 0, 0, 1}}, 1, OTV_E_NOT_FOUND},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    uint8_t *out = (uint8_t *)1;
    size_t olen = 1;
    CHECK_EQ(otv_instance_create_limits(loc, cases[i].l, cases[i].n, 0, &out, &olen),
             cases[i].want);
    CHECK(out == NULL && olen == 0);
    CHECK_EQ(otv_location_last_error(loc)->code, cases[i].want);
  }
  uint8_t *out = NULL;
  size_t olen = 0;
  CHECK_EQ(otv_instance_create_limits(loc, NULL, 1, 0, &out, &olen), OTV_E_ARG);
  CHECK_EQ(otv_instance_create_limits(NULL, NULL, 0, 0, &out, &olen), OTV_E_ARG);
  /* no limit: the static instance at the location */
  CHECK_EQ(otv_instance_create_limits(loc, NULL, 0, 0, &out, &olen), OTV_E_OK);
  otv_face *g = out ? open_buf(out, olen, NULL) : NULL;
  CHECK(g != NULL);
  if (g) {
    otv_face_info info;
    otv_face_get_info(g, &info);
    CHECK_EQ(info.axis_count, 0);
    otv_face_close(g);
  }
  otv_instance_free(loc, out, olen);
  otv_location_destroy(loc);
  otv_face_close(f);
  free(data);
}

static otv_status make_static(otv_location *loc, unsigned flags, uint8_t **out, size_t *len)
{
  return otv_instance_create(loc, flags, out, len);
}

static void test_alloc_failures(const char *name, unsigned flags)
{
  test_alloc_failures_of(name, flags, make_static);
}

static void test_alloc_failures_of(const char *name, unsigned flags, make_fn make)
{
  size_t len;
  uint8_t *data = h_read_file(h_font(name), &len);
  h_alloc ha = {0};
  otv_options o = {h_realloc, &ha, 0};
  otv_face *f = open_buf(data, len, &o);
  CHECK(f != NULL);
  otv_location *loc = NULL;
  CHECK_EQ(otv_location_create(f, &loc, NULL), OTV_E_OK);
  otv_location_set_named(loc, 2);
  /* warm up: the location's own caches (CFF2 blend scalars, glyph scratch) are allocated on
   * first use and kept until the location is destroyed: they are not leaks */
  {
    uint8_t *w = NULL;
    size_t wl = 0;
    CHECK_EQ(make(loc, flags, &w, &wl), OTV_E_OK);
    otv_instance_free(loc, w, wl);
  }
  long base_blocks = ha.live_blocks;
  for (long n = 1; n < 100000; n++) {
    ha.calls = 0;
    ha.fail_at = n;
    uint8_t *out = NULL;
    size_t olen = 0;
    otv_status st = make(loc, flags, &out, &olen);
    ha.fail_at = 0;
    if (st == OTV_E_OK) {
      otv_instance_free(loc, out, olen);
      CHECK_EQ(ha.live_blocks, base_blocks);
      printf("%s: instancing succeeded once %ld allocations could succeed\n", name, n);
      break;
    }
    CHECK_EQ(st, OTV_E_NOMEM);
    CHECK(out == NULL);
    if (ha.live_blocks != base_blocks) {
      CHECK_EQ(ha.live_blocks, base_blocks);
      break;
    }
  }
  otv_location_destroy(loc);
  otv_face_close(f);
  CHECK_EQ(ha.live_blocks, 0);
  free(data);
}

int main(void)
{
  test_font("Roboto-Variable.ABC.ttf", NULL);
  test_font("Roboto-Variable.composite.ttf", NULL);
  test_font("NotoSans-VF.abc.ttf", NULL);
  test_font("SourceSerifVariable-Roman-VVAR.abc.ttf", NULL);
  test_font("Muli-ABC.ttf", NULL);
  test_font("Handjet.ttf", NULL);
  test_font("PartialInstancerTest-VF.ttf", NULL);
  test_font("SparseMasters-VF.ttf", NULL);
  test_font("vazirmatn_var_trimmed.ttf", NULL);
  test_font("material_symbols_subset.ttf", NULL);
  test_font("cantarell_vf_trimmed.ttf", NULL);
  test_font("AdobeVFPrototype_vsindex.otf", NULL);
  test_font("NotoSansJP-VF.subset.otf", NULL);
  test_font("CFF2Instancer-VF-1.otf", NULL);
  test_font("Amstelvar-avar2.A.ttf", NULL); /* avar 2: the instance bakes its mapping */
  test_font("avar2checker.ttf", NULL);
  test_name_header_limit();
  test_refused();
  test_corruption("PartialInstancerTest-VF.ttf");
  test_corruption("Roboto-Variable.composite.ttf");
  test_corruption("AdobeVFPrototype_vsindex.otf");
  test_alloc_failures("PartialInstancerTest-VF.ttf", 0);
  test_alloc_failures("Roboto-Variable.ABC.ttf", OTV_INSTANCE_UPDATE_NAMES);
  test_alloc_failures("NotoSansJP-VF.subset.otf", 0);
  test_limits_refused();
  test_alloc_failures_of("PartialInstancerTest-VF.ttf", 0, make_limits);
  test_alloc_failures_of("STATInstancerTest.ttf", OTV_INSTANCE_UPDATE_NAMES, make_limits);
  test_alloc_failures_of("Amstelvar-avar2.A.ttf", 0, make_avar2);
  return h_done("test_instance");
}

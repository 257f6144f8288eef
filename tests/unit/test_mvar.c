/*
 * test_mvar.c - MVAR and the font-wide values of OS/2, hhea, vhea, post and gasp, on hand-built
 * fonts (one axis wght 100..400..900, no outlines).
 *
 * MVAR has valueRecordSize 10 (2 bytes past the spec's 8, which readers must skip) and records
 * gsp0 -> (0,0), hasc -> (0,1), hcld -> (1,0), undo -> (1,3), vasc -> (0,2), xhgt -> (0,3) and an
 * unknown tag 'zzzz' -> (1,1) that must be ignored. The store has one region peaking at
 * normalized +1 and deltas outer 0: {10, 20, 30, 40}, outer 1: {-5, -6, -7, -8}. Expected
 * values are the base fields below plus those deltas times the region scalar (1 at wght 900,
 * 0.5 at wght 650), worked out by hand.
 */
#include "harness.h"
#include "metrics_fixture.h"

static const unsigned ivs_counts[2] = {4, 4};
static const int ivs_vals[2][8] = {{10, 20, 30, 40}, {-5, -6, -7, -8}};

static fx_buf t_head, t_maxp, t_fvar, t_hhea, t_hmtx, t_vhea, t_os2, t_post, t_gasp, t_mvar;

/* OS/2 version `version` with every field numbered: the value of the field at byte offset o is
 * 1000 + o, except the ones the test names below. len: 78 (v0), 86 (v1), 96 (v2..4). */
static void build_os2(unsigned version, size_t len)
{
  t_os2.n = 0;
  fx16(&t_os2, version);
  while (t_os2.n < len) fx16(&t_os2, 1000 + (unsigned)t_os2.n);
  fx16_at(&t_os2, 68, 800);                     /* sTypoAscender */
  fx16_at(&t_os2, 70, (unsigned)-200 & 0xFFFF); /* sTypoDescender */
  fx16_at(&t_os2, 74, 900);                     /* usWinAscent */
  fx16_at(&t_os2, 76, 300);                     /* usWinDescent */
  if (len >= 90) fx16_at(&t_os2, 86, 500);      /* sxHeight */
}

static void build_mvar(unsigned rec_size, bool with_records)
{
  static const struct {
    const char *tag;
    unsigned outer, inner;
  } recs[] = {
      {"gsp0", 0, 0}, {"hasc", 0, 1}, {"hcld", 1, 0}, {"undo", 1, 3},
      {"vasc", 0, 2}, {"xhgt", 0, 3}, {"zzzz", 1, 1},
  };
  unsigned n = with_records ? 7 : 0;
  fx_buf *w = &t_mvar;
  w->n = 0;
  fx16(w, 1);
  fx16(w, 0);        /* version 1.0 */
  fx16(w, 0);        /* reserved */
  fx16(w, rec_size); /* valueRecordSize */
  fx16(w, n);        /* valueRecordCount */
  fx16(w, 0);        /* itemVariationStoreOffset (patched) */
  for (unsigned i = 0; i < n; i++) {
    const char *t = recs[i].tag;
    fx32(w, OTV_TAG(t[0], t[1], t[2], t[3])); /* valueTag */
    fx16(w, recs[i].outer);                   /* deltaSetOuterIndex */
    fx16(w, recs[i].inner);                   /* deltaSetInnerIndex */
    for (unsigned k = 8; k < rec_size; k++) fx8(w, 0xEE);
  }
  if (n) {
    fx16_at(w, 10, (unsigned)w->n);
    fx_ivs(w, 2, ivs_counts, ivs_vals);
  }
}

static void build_common(void)
{
  fx_head(&t_head);
  fx_maxp(&t_maxp, 2);
  fx_fvar(&t_fvar);
  fx_hea(&t_hhea, 810, -190, 5, 1000, 200, -7, 1);
  t_hmtx.n = 0;
  fx16(&t_hmtx, 500);
  fx16(&t_hmtx, 0);
  fx16(&t_hmtx, 0);
  fx_hea(&t_vhea, 500, -500, 3, 0, 1, 4, 1);
  build_os2(4, 96);
  t_post.n = 0;
  fx32(&t_post, 0x00030000);              /* version 3.0 */
  fx32(&t_post, 0);                       /* italicAngle */
  fx16(&t_post, (unsigned)-100 & 0xFFFF); /* underlinePosition */
  fx16(&t_post, 50);                      /* underlineThickness */
  while (t_post.n < 32) fx8(&t_post, 0);
  t_gasp.n = 0;
  fx16(&t_gasp, 1);
  fx16(&t_gasp, 2); /* version, numRanges */
  fx16(&t_gasp, 8);
  fx16(&t_gasp, 2); /* rangeMaxPPEM, rangeGaspBehavior */
  fx16(&t_gasp, 0xFFFF);
  fx16(&t_gasp, 15);
  build_mvar(10, true);
}

static uint8_t font[16384];

static size_t assemble(bool with_fvar, const fx_table *override)
{
  fx_table t[10] = {
      {OTV_T_HEAD, t_head.b, t_head.n}, {OTV_T_MAXP, t_maxp.b, t_maxp.n},
      {OTV_T_HHEA, t_hhea.b, t_hhea.n}, {OTV_T_HMTX, t_hmtx.b, t_hmtx.n},
      {OTV_T_VHEA, t_vhea.b, t_vhea.n}, {OTV_T_OS2, t_os2.b, t_os2.n},
      {OTV_T_POST, t_post.b, t_post.n}, {OTV_TAG('g', 'a', 's', 'p'), t_gasp.b, t_gasp.n},
      {OTV_T_MVAR, t_mvar.b, t_mvar.n}, {OTV_T_FVAR, t_fvar.b, t_fvar.n},
  };
  for (unsigned i = 0; override && i < 10; i++)
    if (t[i].tag == override->tag) t[i] = *override;
  return fx_sfnt(t, with_fvar ? 10 : 9, font, sizeof font);
}

#define TG(s) OTV_TAG(s[0], s[1], s[2], s[3])

static float metric(otv_location *loc, const char *tag, unsigned flags, otv_status want)
{
  float v = -12345;
  otv_status s = otv_font_metric(loc, TG(tag), flags, &v);
  if (s != want) fprintf(stderr, "tag %s: status %d\n", tag, s);
  CHECK_EQ(s, want);
  return v;
}

static void set_wght(otv_location *loc, double v)
{
  otv_axis_value av = {TG("wght"), v};
  CHECK_EQ(otv_location_set_user(loc, &av, 1), OTV_E_OK);
}

static void test_values(void)
{
  size_t len = assemble(true, NULL);
  otv_face *f = NULL;
  otv_error e = {0};
  CHECK_EQ(otv_face_open_memory(font, len, 0, NULL, &f, &e), OTV_E_OK);
  if (!f) {
    fprintf(stderr, "%s\n", e.msg);
    return;
  }
  otv_location *loc = NULL;
  CHECK_EQ(otv_location_create(f, &loc, NULL), OTV_E_OK);
  /* default: the base fields */
  CHECK_EQ(metric(loc, "hasc", 0, 0), 800);
  CHECK_EQ(metric(loc, "hdsc", 0, 0), -200);
  CHECK_EQ(metric(loc, "hlgp", 0, 0), 1072);
  CHECK_EQ(metric(loc, "hcla", 0, 0), 900);
  CHECK_EQ(metric(loc, "hcld", 0, 0), 300);
  CHECK_EQ(metric(loc, "vasc", 0, 0), 500);
  CHECK_EQ(metric(loc, "vdsc", 0, 0), -500);
  CHECK_EQ(metric(loc, "vlgp", 0, 0), 3);
  CHECK_EQ(metric(loc, "hcrs", 0, 0), 1000);
  CHECK_EQ(metric(loc, "hcrn", 0, 0), 200);
  CHECK_EQ(metric(loc, "hcof", 0, 0), -7);
  CHECK_EQ(metric(loc, "vcrs", 0, 0), 0);
  CHECK_EQ(metric(loc, "vcrn", 0, 0), 1);
  CHECK_EQ(metric(loc, "vcof", 0, 0), 4);
  CHECK_EQ(metric(loc, "xhgt", 0, 0), 500);
  CHECK_EQ(metric(loc, "cpht", 0, 0), 1088);
  static const char *os2_tags[] = {"sbxs", "sbys", "sbxo", "sbyo", "spxs",
                                   "spys", "spxo", "spyo", "strs", "stro"};
  for (unsigned i = 0; i < 10; i++) CHECK_EQ(metric(loc, os2_tags[i], 0, 0), 1010 + 2 * i);
  CHECK_EQ(metric(loc, "unds", 0, 0), 50);
  CHECK_EQ(metric(loc, "undo", 0, 0), -100);
  CHECK_EQ(metric(loc, "gsp0", 0, 0), 8);
  CHECK_EQ(metric(loc, "gsp1", 0, 0), 65535);
  metric(loc, "gsp2", 0, OTV_E_NOT_FOUND); /* only two ranges */
  metric(loc, "zzzz", 0, OTV_E_NOT_FOUND); /* not a value tag */
  metric(loc, "hhea", 0, OTV_E_NOT_FOUND);
  /* otvar's tags: hhea ascender/descender/lineGap and head unitsPerEm, post italicAngle */
  CHECK_EQ(metric(loc, "HASC", 0, 0), 810);
  CHECK_EQ(metric(loc, "HDSC", 0, 0), -190);
  CHECK_EQ(metric(loc, "HLGP", 0, 0), 5);
  CHECK_EQ(metric(loc, "UPEM", 0, 0), 1000);
  CHECK_EQ(metric(loc, "ITAL", 0, 0), 0);
  CHECK_EQ(metric(loc, "XMAX", 0, 0), 0);

  set_wght(loc, 900);
  CHECK_EQ(metric(loc, "gsp0", 0, 0), 18);
  CHECK_EQ(metric(loc, "hasc", 0, 0), 820);
  CHECK_EQ(metric(loc, "hcld", 0, 0), 295);
  CHECK_EQ(metric(loc, "undo", 0, 0), -108);
  CHECK_EQ(metric(loc, "vasc", 0, 0), 530);
  CHECK_EQ(metric(loc, "xhgt", 0, 0), 540);
  CHECK_EQ(metric(loc, "hdsc", 0, 0), -200); /* no record: unchanged */
  CHECK_EQ(metric(loc, "unds", 0, 0), 50);
  CHECK_EQ(metric(loc, "HASC", 0, 0), 810); /* not varied */
  metric(loc, "zzzz", 0, OTV_E_NOT_FOUND);

  set_wght(loc, 650); /* normalized 0.5 */
  CHECK_NEAR(metric(loc, "hcld", 0, 0), 297.5, 1e-6);
  CHECK_EQ(metric(loc, "hcld", OTV_METRICS_ROUND, 0), 298); /* floor(297.5 + 0.5) */
  CHECK_EQ(metric(loc, "undo", 0, 0), -104);
  CHECK_NEAR(metric(loc, "gsp0", 0, 0), 13, 1e-6);
  set_wght(loc, 100);
  CHECK_EQ(metric(loc, "hasc", 0, 0), 800);
  CHECK_EQ(otv_font_metric(loc, TG("hasc"), 0, NULL), OTV_E_ARG);
  otv_location_destroy(loc);
  otv_face_close(f);
}

static void test_versions(void)
{
  /* OS/2 version 1 (86 bytes) and version 0 (78 bytes): no sxHeight / sCapHeight */
  for (int v = 0; v < 2; v++) {
    build_os2((unsigned)v, v ? 86 : 78);
    size_t len = assemble(true, NULL);
    otv_face *f = NULL;
    CHECK_EQ(otv_face_open_memory(font, len, 0, NULL, &f, NULL), OTV_E_OK);
    if (!f) continue;
    otv_location *loc = NULL;
    CHECK_EQ(otv_location_create(f, &loc, NULL), OTV_E_OK);
    metric(loc, "xhgt", 0, OTV_E_NOT_FOUND);
    metric(loc, "cpht", 0, OTV_E_NOT_FOUND);
    CHECK_EQ(metric(loc, "hcld", 0, 0), 300);
    otv_location_destroy(loc);
    otv_face_close(f);
  }
  build_os2(4, 96);
  /* OS/2 version 2 that is too short for sxHeight: absent, not an overread */
  build_os2(2, 86);
  {
    size_t len = assemble(true, NULL);
    otv_face *f = NULL;
    CHECK_EQ(otv_face_open_memory(font, len, 0, NULL, &f, NULL), OTV_E_OK);
    otv_location *loc = NULL;
    if (f && !otv_location_create(f, &loc, NULL)) {
      metric(loc, "xhgt", 0, OTV_E_NOT_FOUND);
      otv_location_destroy(loc);
    }
    otv_face_close(f);
  }
  build_os2(4, 96);
  /* no fvar: MVAR is ignored, base values stay */
  {
    size_t len = assemble(false, NULL);
    otv_face *f = NULL;
    CHECK_EQ(otv_face_open_memory(font, len, 0, NULL, &f, NULL), OTV_E_OK);
    otv_location *loc = NULL;
    if (f && !otv_location_create(f, &loc, NULL)) {
      CHECK_EQ(metric(loc, "hasc", 0, 0), 800);
      otv_location_destroy(loc);
    }
    otv_face_close(f);
  }
  /* valueRecordSize 8 (the spec's size) and 0 records with a NULL store */
  for (int k = 0; k < 2; k++) {
    build_mvar(8, k == 0);
    size_t len = assemble(true, NULL);
    otv_face *f = NULL;
    CHECK_EQ(otv_face_open_memory(font, len, 0, NULL, &f, NULL), OTV_E_OK);
    otv_location *loc = NULL;
    if (f && !otv_location_create(f, &loc, NULL)) {
      set_wght(loc, 900);
      CHECK_EQ(metric(loc, "xhgt", 0, 0), k == 0 ? 540 : 500);
      otv_location_destroy(loc);
    }
    otv_face_close(f);
  }
  /* valueRecordSize below 8 */
  build_mvar(10, true);
  fx_buf m = t_mvar;
  fx16_at(&m, 6, 7);
  fx_table o = {OTV_T_MVAR, m.b, m.n};
  size_t len = assemble(true, &o);
  otv_face *f = NULL;
  otv_error e = {0};
  CHECK_EQ(otv_face_open_memory(font, len, 0, NULL, &f, &e), OTV_E_BAD_VALUE);
  CHECK_EQ(e.table, OTV_T_MVAR);
  CHECK_EQ(e.offset, 6);
}

static void test_sweeps(void)
{
  build_mvar(10, true);
  /* every prefix of MVAR fails, naming MVAR */
  for (size_t n = 0; n < t_mvar.n; n++) {
    fx_table o = {OTV_T_MVAR, t_mvar.b, n};
    size_t len = assemble(true, &o);
    otv_face *f = NULL;
    otv_error e = {0};
    CHECK(otv_face_open_memory(font, len, 0, NULL, &f, &e) != OTV_E_OK);
    CHECK_EQ(e.table, OTV_T_MVAR);
    otv_face_close(f);
  }
  /* itemVariationStoreOffset: 0, len, len + 1, 0xFFFF, and inside the header/records */
  unsigned vals[] = {0, (unsigned)t_mvar.n, (unsigned)t_mvar.n + 1, 0xFFFF, 1, 12};
  for (unsigned i = 0; i < sizeof vals / sizeof *vals; i++) {
    fx_buf m = t_mvar;
    fx16_at(&m, 10, vals[i]);
    fx_table o = {OTV_T_MVAR, m.b, m.n};
    size_t len = assemble(true, &o);
    otv_face *f = NULL;
    otv_error e = {0};
    otv_status s = otv_face_open_memory(font, len, 0, NULL, &f, &e);
    CHECK(s != OTV_E_OK);
    CHECK_EQ(e.table, OTV_T_MVAR);
    otv_face_close(f);
  }
  /* truncated OS/2, post, gasp, vhea: values past the end are absent, never read */
  fx_buf *bufs[] = {&t_os2, &t_post, &t_gasp};
  uint32_t tags[] = {OTV_T_OS2, OTV_T_POST, OTV_TAG('g', 'a', 's', 'p')};
  const char *probe[] = {"hcld", "undo", "gsp1"};
  for (unsigned k = 0; k < 3; k++)
    for (size_t n = 0; n < bufs[k]->n; n++) {
      fx_table o = {tags[k], bufs[k]->b, n};
      size_t len = assemble(true, &o);
      otv_face *f = NULL;
      CHECK_EQ(otv_face_open_memory(font, len, 0, NULL, &f, NULL), OTV_E_OK);
      otv_location *loc = NULL;
      if (f && !otv_location_create(f, &loc, NULL)) {
        set_wght(loc, 900);
        float v;
        otv_status s = otv_font_metric(loc, TG(probe[k]), 0, &v);
        size_t need =
            k == 0 ? 78 : 10; /* usWinDescent at 76, underlinePosition and rangeMaxPPEM[1] at 8 */
        CHECK_EQ(s, n >= need ? OTV_E_OK : OTV_E_NOT_FOUND);
        otv_location_destroy(loc);
      }
      otv_face_close(f);
    }
}

/* xhgt at wght 900 (540), for the allocation-failure loop: OK or OTV_E_NOMEM; true when OK. */
static bool xheight_at_900(otv_location *loc, void *ctx)
{
  (void)ctx;
  otv_axis_value av = {TG("wght"), 900};
  otv_status s = otv_location_set_user(loc, &av, 1);
  float v = 0;
  if (!s) s = otv_font_metric(loc, TG("xhgt"), 0, &v);
  if (!s) CHECK_EQ(v, 540);
  CHECK(s == OTV_E_OK || s == OTV_E_NOMEM);
  return !s;
}

static void test_alloc_failures(void)
{
  build_mvar(10, true);
  size_t len = assemble(true, NULL);
  bool done = false;
  for (long n = 1; n < 100 && !done; n++) done = h_nomem_run(font, len, n, xheight_at_900, NULL);
  CHECK(done);
}

/* OTV_DUMP_FIXTURE=PATH writes the full fixture font (the fuzz seed in fuzz/corpus/metrics). */
static void dump_fixture(void)
{
  const char *path = getenv("OTV_DUMP_FIXTURE");
  if (!path) return;
  build_mvar(10, true);
  size_t len = assemble(true, NULL);
  h_write_file(path, font, len);
}

int main(void)
{
  build_common();
  dump_fixture();
  test_values();
  test_versions();
  test_sweeps();
  test_alloc_failures();
  return h_done("test_mvar");
}

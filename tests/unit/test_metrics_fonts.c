/*
 * test_metrics_fonts.c - glyph and font-wide metrics on real fonts.
 *   - Static instances made by other instancers (tests/fonts/instances: fontTools and
 *     hb-subset apply HVAR/VVAR/gvar phantoms to hmtx/vmtx and MVAR to OS/2/post and round with
 *     floor(x + 0.5)): our rounded values at the same location must equal the instance's tables.
 *   - The gvar phantom-point path against HVAR/VVAR: with HVAR hidden (its tag renamed in a copy
 *     of the font) advances come from the phantom points; in a font whose HVAR and gvar encode
 *     the same master advances they must agree (within float error) at random locations.
 *   - CFF2 without HVAR: OTV_E_UNSUPPORTED naming HVAR, default advances returned.
 *   - The batch call equals the per-glyph call; ROUND is floor(x + 0.5) of the unrounded value.
 */
#include "harness.h"

static uint64_t rng = 88172645463325252ull;
static uint32_t rnd(void) { return h_xorshift64(&rng); }

static otv_face *open_font(const char *name, uint8_t **bytes, size_t *len, uint32_t rename)
{
  *bytes = h_read_file(h_font(name), len);
  if (rename) {
    /* rename the table `rename` to 'XVAR' in the directory: the font no longer has it */
    unsigned n = (unsigned)((*bytes)[4] << 8 | (*bytes)[5]);
    for (unsigned i = 0; i < n; i++) {
      uint8_t *r = *bytes + 12 + 16 * i;
      if (otv_peek_u32(r) == rename) r[0] = 'X';
    }
  }
  otv_face *f = NULL;
  otv_error e = {0};
  CHECK_EQ(otv_face_open_memory(*bytes, *len, 0, NULL, &f, &e), OTV_E_OK);
  if (!f) fprintf(stderr, "%s: %s\n", name, e.msg);
  return f;
}

/* Horizontal (and vertical) advances of the VF at `vals` == the instance's hmtx (vmtx). */
static void check_instance(const char *vf, const char *inst, const otv_axis_value *vals, size_t nv,
                           bool vertical)
{
  uint8_t *b1, *b2;
  size_t l1, l2;
  otv_face *f = open_font(vf, &b1, &l1, 0), *g = open_font(inst, &b2, &l2, 0);
  if (f && g) {
    otv_location *lf = NULL, *lg = NULL;
    CHECK_EQ(otv_location_create(f, &lf, NULL), OTV_E_OK);
    CHECK_EQ(otv_location_create(g, &lg, NULL), OTV_E_OK);
    CHECK_EQ(otv_location_set_user(lf, vals, nv), OTV_E_OK);
    otv_face_info fi;
    otv_face_get_info(f, &fi);
    int compared = 0;
    for (uint32_t gid = 0; gid < fi.glyph_count; gid++) {
      for (int v = 0; v < (vertical ? 2 : 1); v++) {
        float a = -1, b = -2;
        unsigned fl = OTV_METRICS_ROUND | (v ? OTV_METRICS_VERTICAL : 0);
        CHECK_EQ(otv_glyph_advances(lf, &gid, 1, fl, &a), OTV_E_OK);
        CHECK_EQ(otv_glyph_advances(lg, &gid, 1, fl, &b), OTV_E_OK);
        if (a != b)
          fprintf(stderr, "%s glyph %u %s: %g vs instance %g\n", vf, gid, v ? "v" : "h", a, b);
        CHECK_EQ(a, b);
        compared++;
      }
      if (vertical) {
        otv_glyph_metrics m1, m2;
        CHECK_EQ(otv_glyph_v_metrics(lf, gid, OTV_METRICS_ROUND, &m1), OTV_E_OK);
        CHECK_EQ(otv_glyph_v_metrics(lg, gid, OTV_METRICS_ROUND, &m2), OTV_E_OK);
        CHECK_EQ(m1.origin, m2.origin); /* VORG (+ VVAR origin delta) */
      }
    }
    CHECK(compared > 0);
    otv_location_destroy(lf);
    otv_location_destroy(lg);
  }
  otv_face_close(f);
  otv_face_close(g);
  free(b1);
  free(b2);
}

static void test_instances(void)
{
  otv_axis_value a[3];
  a[0] = (otv_axis_value){OTV_TAG('w', 'g', 'h', 't'), 400};
  a[1] = (otv_axis_value){OTV_TAG('w', 'd', 't', 'h'), 100};
  check_instance("PartialInstancerTest2-VF.ttf",
                 "instances/PartialInstancerTest2-VF.fonttools-instance.wght400-wdth100.ttf", a, 2,
                 false);
  a[0].value = 100;
  a[1].value = 62.5;
  check_instance("PartialInstancerTest2-VF.ttf",
                 "instances/PartialInstancerTest2-VF.fonttools-instance.wght100-wdth62.5.ttf", a, 2,
                 false);
  a[0].value = 900;
  a[1].value = 100;
  check_instance("PartialInstancerTest2-VF.ttf",
                 "instances/PartialInstancerTest2-VF.fonttools-instance.wght900-wdth100.ttf", a, 2,
                 false);
  a[0].value = 400;
  check_instance("CFF2Instancer-VF-1.otf",
                 "instances/CFF2Instancer-VF-1.fonttools-instance.wght400.otf", a, 1, true);
  a[0] = (otv_axis_value){OTV_TAG('w', 'g', 'h', 't'), 300};
  check_instance("Muli-ABC.ttf", "instances/Muli-ABC.hb-instance.wght300.ttf", a, 1, false);

  /* MVAR applied by hb-subset to OS/2 and post: xhgt and stro at wght=150,wdth=80,CTGR=0 */
  uint8_t *b1, *b2;
  size_t l1, l2;
  otv_face *f = open_font("NotoSans-VF.abc.ttf", &b1, &l1, 0);
  otv_face *g =
      open_font("instances/NotoSans-VF.abc.hb-instance.wght150-wdth80-CTGR0.ttf", &b2, &l2, 0);
  if (f && g) {
    otv_location *lf = NULL, *lg = NULL;
    CHECK_EQ(otv_location_create(f, &lf, NULL), OTV_E_OK);
    CHECK_EQ(otv_location_create(g, &lg, NULL), OTV_E_OK);
    otv_axis_value v[3] = {{OTV_TAG('w', 'g', 'h', 't'), 150},
                           {OTV_TAG('w', 'd', 't', 'h'), 80},
                           {OTV_TAG('C', 'T', 'G', 'R'), 0}};
    CHECK_EQ(otv_location_set_user(lf, v, 3), OTV_E_OK);
    const char *tags[] = {"xhgt", "stro", "hasc", "hdsc", "cpht", "unds", "undo", "strs"};
    for (int i = 0; i < 8; i++) {
      uint32_t t = OTV_TAG(tags[i][0], tags[i][1], tags[i][2], tags[i][3]);
      float x = 0, y = 1;
      CHECK_EQ(otv_font_metric(lf, t, OTV_METRICS_ROUND, &x), OTV_E_OK);
      CHECK_EQ(otv_font_metric(lg, t, OTV_METRICS_ROUND, &y), OTV_E_OK);
      if (x != y) fprintf(stderr, "NotoSans %s: %g vs instance %g\n", tags[i], x, y);
      CHECK_EQ(x, y);
    }
    /* the instance values themselves, read with fontTools: sxHeight 528, yStrikeoutPosition 317 */
    float x;
    CHECK_EQ(otv_font_metric(lf, OTV_TAG('x', 'h', 'g', 't'), OTV_METRICS_ROUND, &x), OTV_E_OK);
    CHECK_EQ(x, 528);
    CHECK_EQ(otv_font_metric(lf, OTV_TAG('s', 't', 'r', 'o'), OTV_METRICS_ROUND, &x), OTV_E_OK);
    CHECK_EQ(x, 317);
    otv_location_destroy(lf);
    otv_location_destroy(lg);
  }
  otv_face_close(f);
  otv_face_close(g);
  free(b1);
  free(b2);
}

/* HVAR vs the gvar phantom points of the same font. */
static void test_phantoms(const char *name, bool vertical)
{
  uint8_t *b1, *b2;
  size_t l1, l2;
  uint32_t tag = vertical ? OTV_T_VVAR : OTV_T_HVAR;
  otv_face *f = open_font(name, &b1, &l1, 0), *g = open_font(name, &b2, &l2, tag);
  if (f && g) {
    CHECK(otv_face_table(g, tag, NULL) == NULL);
    otv_location *lf = NULL, *lg = NULL;
    CHECK_EQ(otv_location_create(f, &lf, NULL), OTV_E_OK);
    CHECK_EQ(otv_location_create(g, &lg, NULL), OTV_E_OK);
    otv_face_info fi;
    otv_face_get_info(f, &fi);
    otv_axis ax[16];
    unsigned na = 16;
    otv_face_axes(f, 0, &na, ax);
    uint32_t *gids = malloc(fi.glyph_count * sizeof *gids);
    float *a = malloc(fi.glyph_count * sizeof *a), *b = malloc(fi.glyph_count * sizeof *b);
    for (uint32_t i = 0; i < fi.glyph_count; i++) gids[i] = i;
    double worst = 0;
    unsigned flags = vertical ? OTV_METRICS_VERTICAL : 0;
    for (int k = 0; k < 40; k++) {
      double user[16];
      for (unsigned i = 0; i < na; i++)
        user[i] = ax[i].min_value + (rnd() / 4294967296.0) * (ax[i].max_value - ax[i].min_value);
      CHECK_EQ(otv_location_set_user_coords(lf, user, na), OTV_E_OK);
      CHECK_EQ(otv_location_set_user_coords(lg, user, na), OTV_E_OK);
      CHECK_EQ(otv_glyph_advances(lf, gids, fi.glyph_count, flags, a), OTV_E_OK);
      CHECK_EQ(otv_glyph_advances(lg, gids, fi.glyph_count, flags, b), OTV_E_OK);
      for (uint32_t i = 0; i < fi.glyph_count; i++) {
        double d = fabs((double)a[i] - b[i]);
        if (d > worst) worst = d;
        otv_glyph_metrics m;
        if (i % 7 == 0) {
          CHECK_EQ(vertical ? otv_glyph_v_metrics(lg, i, 0, &m) : otv_glyph_h_metrics(lg, i, 0, &m),
                   OTV_E_OK);
          CHECK_EQ(m.advance, b[i]);
        }
      }
    }
    printf("%s: HVAR vs phantom advances (%s): max difference %.6f\n", name,
           vertical ? "vertical" : "horizontal", worst);
    CHECK(worst < 0.01);
    free(gids);
    free(a);
    free(b);
    otv_location_destroy(lf);
    otv_location_destroy(lg);
  }
  otv_face_close(f);
  otv_face_close(g);
  free(b1);
  free(b2);
}

static void test_cff2_without_hvar(void)
{
  uint8_t *b;
  size_t l;
  otv_face *f = open_font("cantarell_vf_trimmed.ttf", &b, &l, OTV_T_HVAR);
  if (f) {
    otv_location *loc = NULL;
    CHECK_EQ(otv_location_create(f, &loc, NULL), OTV_E_OK);
    uint32_t g = 1;
    float a0 = 0, a1 = 0;
    CHECK_EQ(otv_glyph_advances(loc, &g, 1, 0, &a0), OTV_E_OK); /* default: fine */
    otv_axis_value v = {OTV_TAG('w', 'g', 'h', 't'), 800};
    CHECK_EQ(otv_location_set_user(loc, &v, 1), OTV_E_OK);
    CHECK_EQ(otv_glyph_advances(loc, &g, 1, 0, &a1), OTV_E_UNSUPPORTED);
    CHECK_EQ(otv_location_last_error(loc)->table, OTV_T_HVAR);
    CHECK_EQ(a1, a0);
    otv_glyph_metrics m;
    CHECK_EQ(otv_glyph_h_metrics(loc, g, 0, &m), OTV_E_UNSUPPORTED);
    CHECK_EQ(m.advance, a0);
    otv_location_destroy(loc);
  }
  otv_face_close(f);
  free(b);
}

static void test_batch_and_rounding(const char *name)
{
  uint8_t *b;
  size_t l;
  otv_face *f = open_font(name, &b, &l, 0);
  if (!f) {
    free(b);
    return;
  }
  otv_location *loc = NULL;
  CHECK_EQ(otv_location_create(f, &loc, NULL), OTV_E_OK);
  otv_face_info fi;
  otv_face_get_info(f, &fi);
  otv_axis ax[16];
  unsigned na = 16;
  otv_face_axes(f, 0, &na, ax);
  double user[16];
  for (unsigned i = 0; i < na; i++)
    user[i] = ax[i].min_value + 0.37 * (ax[i].max_value - ax[i].min_value);
  CHECK_EQ(otv_location_set_user_coords(loc, user, na), OTV_E_OK);
  for (uint32_t g = 0; g < fi.glyph_count; g++) {
    otv_glyph_metrics m, r;
    float a, ar;
    CHECK_EQ(otv_glyph_h_metrics(loc, g, 0, &m), OTV_E_OK);
    CHECK_EQ(otv_glyph_h_metrics(loc, g, OTV_METRICS_ROUND, &r), OTV_E_OK);
    CHECK_EQ(otv_glyph_advances(loc, &g, 1, 0, &a), OTV_E_OK);
    CHECK_EQ(otv_glyph_advances(loc, &g, 1, OTV_METRICS_ROUND, &ar), OTV_E_OK);
    CHECK_EQ(a, m.advance);
    CHECK_EQ(ar, floorf(m.advance + 0.5f));
    CHECK_EQ(r.advance, ar);
    CHECK_EQ(r.side_a, floorf(m.side_a + 0.5f));
    CHECK_EQ(r.side_b, floorf(m.side_b + 0.5f));
  }
  otv_location_destroy(loc);
  otv_face_close(f);
  free(b);
}

int main(void)
{
  test_instances();
  /* Not Roboto-Variable.ABC / NotoSans-VF.abc: their HVAR varies .notdef (and others) where
   * gvar has no data for them, so the two paths legitimately differ there (FreeType agrees with
   * us in both modes; the oracle test covers the phantom path of every font with HVAR hidden). */
  test_phantoms("SourceSerifVariable-Roman-VVAR.abc.ttf", false);
  /* Not its VVAR: it disagrees with the gvar top/bottom phantom points by up to ~54 units (a
   * test font for HarfBuzz's VVAR code); the oracle test checks both paths against HarfBuzz. */
  test_cff2_without_hvar();
  test_batch_and_rounding("Roboto-Variable.ABC.ttf");
  test_batch_and_rounding("cantarell_vf_trimmed.ttf");
  return h_done("test_metrics_fonts");
}

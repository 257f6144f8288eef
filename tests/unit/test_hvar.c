/*
 * test_hvar.c - hmtx/hhea, vmtx/vhea, HVAR, VVAR and VORG on hand-built fonts.
 *
 * The fonts have 4 glyphs, one axis (wght 100..400..900) and no outlines. hmtx holds two long
 * records {500, 10} {600, 20} and trailing LSBs {30, 40}. The ItemVariationStore has one region
 * (peak at normalized +1) and two ItemVariationData of byte deltas:
 *   outer 0: {10, 20, 30, 40}     outer 1: {-5, -6, -7, -8}
 * The HVAR advance DeltaSetIndexMap maps glyph 0 -> (1, 2), 1 -> (0, 1), 2 -> (0, 3) and has 3
 * entries, so glyph 3 uses the last one (spec: "the last entry is used"). It is written in every
 * format (0, 1), entry size (1..4 bytes) and inner bit width that can hold these indices
 * (2..16; width 1 in test_maps_inner1 with a map whose inner indices are 0 and 1).
 * TrueType side bearings: a 4-glyph glyf font with HVAR LSB + RSB maps and VVAR TSB + BSB maps
 * (test_side_bearing_maps), and synthesized vertical metrics without vmtx, with OS/2 and MVAR
 * (test_synthesized_vertical); expected values worked out by hand next to each test.
 * Expected values are worked out by hand from the spec: at wght 900 (normalized +1, scalar 1)
 * advances are 500-7, 600+20, 600+40, 600+40; at wght 650 (normalized 0.5) half the deltas.
 */
#include "harness.h"
#include "metrics_fixture.h"

static const unsigned ivs_counts[2] = {4, 4};
static const int ivs_vals[2][8] = {{10, 20, 30, 40}, {-5, -6, -7, -8}};

/* A DeltaSetIndexMap of (outer, inner) pairs. */
static void put_dsim(fx_buf *w, unsigned format, unsigned entry_size, unsigned inner_bits,
                     const unsigned (*pairs)[2], unsigned count)
{
  fx8(w, format);
  fx8(w, ((entry_size - 1) << 4) | (inner_bits - 1)); /* entryFormat */
  if (format == 0)
    fx16(w, count); /* mapCount (u16) */
  else
    fx32(w, count); /* mapCount (u32) */
  for (unsigned i = 0; i < count; i++) fxn(w, pairs[i][0] << inner_bits | pairs[i][1], entry_size);
}

static const unsigned adv_pairs[3][2] = {{1, 2}, {0, 1}, {0, 3}};
static const unsigned lsb_pairs[2][2] = {{0, 0}, {1, 1}};

typedef struct cfg {
  unsigned format, entry_size, inner_bits;
  bool adv_map, lsb_map, vertical;
} cfg;

/* HVAR: header, advance map, LSB map, store. */
static void build_hvar(fx_buf *w, const cfg *c)
{
  w->n = 0;
  fx16(w, 1);
  fx16(w, 0); /* version 1.0 */
  fx32(w, 0); /* itemVariationStoreOffset (patched) */
  fx32(w, 0); /* advanceWidthMappingOffset */
  fx32(w, 0); /* lsbMappingOffset */
  fx32(w, 0); /* rsbMappingOffset */
  if (c->adv_map) {
    fx32_at(w, 8, (uint32_t)w->n);
    put_dsim(w, c->format, c->entry_size, c->inner_bits, adv_pairs, 3);
  }
  if (c->lsb_map) {
    fx32_at(w, 12, (uint32_t)w->n);
    put_dsim(w, 0, 1, 4, lsb_pairs, 2);
  }
  fx32_at(w, 4, (uint32_t)w->n);
  fx_ivs(w, 2, ivs_counts, ivs_vals);
}

/* VVAR: implicit advance mapping, TSB map glyph g -> (0, g) (format 1, 2 bytes, 16 inner bits),
 * no BSB map, vertical-origin map g -> (0, 3 - g) (format 0, 1 byte, 8 inner bits). */
static void build_vvar(fx_buf *w)
{
  static const unsigned tsb_pairs[4][2] = {{0, 0}, {0, 1}, {0, 2}, {0, 3}};
  static const unsigned org_pairs[4][2] = {{0, 3}, {0, 2}, {0, 1}, {0, 0}};
  w->n = 0;
  fx16(w, 1);
  fx16(w, 0);
  fx32(w, 0); /* itemVariationStoreOffset */
  fx32(w, 0); /* advanceHeightMappingOffset: NULL, implicit */
  fx32(w, 0); /* tsbMappingOffset */
  fx32(w, 0); /* bsbMappingOffset */
  fx32(w, 0); /* vOrgMappingOffset */
  fx32_at(w, 12, (uint32_t)w->n);
  put_dsim(w, 1, 2, 16, tsb_pairs, 4);
  fx32_at(w, 20, (uint32_t)w->n);
  put_dsim(w, 0, 1, 8, org_pairs, 4);
  fx32_at(w, 4, (uint32_t)w->n);
  fx_ivs(w, 2, ivs_counts, ivs_vals);
}

static fx_buf t_head, t_maxp, t_fvar, t_hhea, t_hmtx, t_hvar, t_vhea, t_vmtx, t_vvar, t_vorg;

static void build_common(void)
{
  fx_head(&t_head);
  fx_maxp(&t_maxp, 4);
  fx_fvar(&t_fvar);
  fx_hea(&t_hhea, 800, -200, 0, 1, 0, 0, 2);
  t_hmtx.n = 0;
  fx16(&t_hmtx, 500);
  fx16(&t_hmtx, 10); /* longHorMetric[0] */
  fx16(&t_hmtx, 600);
  fx16(&t_hmtx, 20); /* longHorMetric[1] */
  fx16(&t_hmtx, 30);
  fx16(&t_hmtx, 40); /* leftSideBearings[2] */
  fx_hea(&t_vhea, 500, -500, 0, 0, 1, 0, 1);
  t_vmtx.n = 0;
  fx16(&t_vmtx, 1000);
  fx16(&t_vmtx, 50); /* longVerMetric[0] */
  fx16(&t_vmtx, 60);
  fx16(&t_vmtx, 70);
  fx16(&t_vmtx, 80); /* topSideBearings */
  build_vvar(&t_vvar);
  t_vorg.n = 0;
  fx16(&t_vorg, 1);
  fx16(&t_vorg, 0);   /* version 1.0 */
  fx16(&t_vorg, 880); /* defaultVertOriginY */
  fx16(&t_vorg, 2);   /* numVertOriginYMetrics */
  fx16(&t_vorg, 1);
  fx16(&t_vorg, 900);
  fx16(&t_vorg, 3);
  fx16(&t_vorg, 850);
}

/* Assemble the font; `override` replaces the table of the same tag (NULL: none). */
static size_t assemble(uint8_t *out, size_t cap, bool vertical, const fx_table *override)
{
  fx_table t[12] = {
      {OTV_T_HEAD, t_head.b, t_head.n}, {OTV_T_MAXP, t_maxp.b, t_maxp.n},
      {OTV_T_FVAR, t_fvar.b, t_fvar.n}, {OTV_T_HHEA, t_hhea.b, t_hhea.n},
      {OTV_T_HMTX, t_hmtx.b, t_hmtx.n}, {OTV_T_HVAR, t_hvar.b, t_hvar.n},
      {OTV_T_VHEA, t_vhea.b, t_vhea.n}, {OTV_T_VMTX, t_vmtx.b, t_vmtx.n},
      {OTV_T_VVAR, t_vvar.b, t_vvar.n}, {OTV_T_VORG, t_vorg.b, t_vorg.n},
  };
  unsigned n = vertical ? 10 : 6;
  for (unsigned i = 0; override && i < n; i++)
    if (t[i].tag == override->tag) t[i] = *override;
  return fx_sfnt(t, n, out, cap);
}

static uint8_t font[16384];

static void set_wght(otv_location *loc, double v)
{
  otv_axis_value av = {OTV_TAG('w', 'g', 'h', 't'), v};
  CHECK_EQ(otv_location_set_user(loc, &av, 1), OTV_E_OK);
}

static void test_maps(void)
{
  int combos = 0;
  for (unsigned format = 0; format <= 1; format++)
    for (unsigned es = 1; es <= 4; es++)
      for (unsigned ib = 2; ib <= 16; ib++) {
        if (ib + 1 > 8 * es) continue; /* outer index 1 must fit above the inner bits */
        cfg c = {format, es, ib, true, false, false};
        build_hvar(&t_hvar, &c);
        size_t len = assemble(font, sizeof font, false, NULL);
        otv_face *f = NULL;
        otv_error e = {0};
        CHECK_EQ(otv_face_open_memory(font, len, 0, NULL, &f, &e), OTV_E_OK);
        if (!f) {
          fprintf(stderr, "format %u entry %u inner %u: %s\n", format, es, ib, e.msg);
          continue;
        }
        otv_location *loc = NULL;
        CHECK_EQ(otv_location_create(f, &loc, NULL), OTV_E_OK);
        uint32_t g[4] = {0, 1, 2, 3};
        float a[4];
        CHECK_EQ(otv_glyph_advances(loc, g, 4, 0, a), OTV_E_OK);
        CHECK_EQ(a[0], 500);
        CHECK_EQ(a[1], 600);
        CHECK_EQ(a[2], 600);
        CHECK_EQ(a[3], 600);
        set_wght(loc, 900);
        CHECK_EQ(otv_glyph_advances(loc, g, 4, 0, a), OTV_E_OK);
        CHECK_EQ(a[0], 493);
        CHECK_EQ(a[1], 620);
        CHECK_EQ(a[2], 640);
        CHECK_EQ(a[3], 640);
        set_wght(loc, 650);
        CHECK_EQ(otv_glyph_advances(loc, g, 4, 0, a), OTV_E_OK);
        CHECK_NEAR(a[0], 496.5, 1e-6);
        CHECK_NEAR(a[1], 610, 1e-6);
        CHECK_NEAR(a[2], 620, 1e-6);
        CHECK_NEAR(a[3], 620, 1e-6);
        CHECK_EQ(otv_glyph_advances(loc, g, 4, OTV_METRICS_ROUND, a), OTV_E_OK);
        CHECK_EQ(a[0], 497); /* floor(496.5 + 0.5) */
        set_wght(loc, 100);  /* the region peaks at +1: no delta on the negative side */
        CHECK_EQ(otv_glyph_advances(loc, g, 4, 0, a), OTV_E_OK);
        CHECK_EQ(a[0], 500);
        CHECK_EQ(a[3], 600);
        otv_location_destroy(loc);
        otv_face_close(f);
        combos++;
      }
  CHECK_EQ(combos, 2 * (6 + 14 + 15 + 15)); /* inner bits 2..7, 2..15, 2..16, 2..16 */
}

static void test_implicit_and_lsb(void)
{
  /* No advance map: glyph g -> (0, g). LSB map: g0 -> (0,0), g1.. -> (1,1). */
  cfg c = {0, 1, 4, false, true, false};
  build_hvar(&t_hvar, &c);
  size_t len = assemble(font, sizeof font, false, NULL);
  otv_face *f = NULL;
  CHECK_EQ(otv_face_open_memory(font, len, 0, NULL, &f, NULL), OTV_E_OK);
  if (!f) return;
  otv_location *loc = NULL;
  CHECK_EQ(otv_location_create(f, &loc, NULL), OTV_E_OK);
  otv_glyph_metrics m;
  /* default: hmtx values; glyphs past numberOfHMetrics repeat the last advance */
  static const float lsb0[4] = {10, 20, 30, 40};
  for (uint32_t g = 0; g < 4; g++) {
    CHECK_EQ(otv_glyph_h_metrics(loc, g, 0, &m), OTV_E_OK);
    CHECK_EQ(m.advance, g ? 600 : 500);
    CHECK_EQ(m.side_a, lsb0[g]);
    CHECK_EQ(m.side_b, m.advance - m.side_a); /* no outline: width 0 */
  }
  set_wght(loc, 900);
  static const float adv1[4] = {510, 620, 630, 640}, lsb1[4] = {20, 14, 24, 34};
  for (uint32_t g = 0; g < 4; g++) {
    CHECK_EQ(otv_glyph_h_metrics(loc, g, 0, &m), OTV_E_OK);
    CHECK_EQ(m.advance, adv1[g]);
    CHECK_EQ(m.side_a, lsb1[g]);
  }
  set_wght(loc, 650);
  CHECK_EQ(otv_glyph_h_metrics(loc, 1, 0, &m), OTV_E_OK);
  CHECK_NEAR(m.side_a, 17, 1e-6);
  CHECK_EQ(otv_glyph_h_metrics(loc, 0, OTV_METRICS_ROUND, &m), OTV_E_OK);
  CHECK_EQ(m.advance, 505);
  CHECK_EQ(m.side_a, 15);
  /* errors: glyph out of range, no vertical tables */
  CHECK_EQ(otv_glyph_h_metrics(loc, 4, 0, &m), OTV_E_ARG);
  CHECK_EQ(otv_glyph_v_metrics(loc, 0, 0, &m), OTV_E_NO_TABLE);
  uint32_t bad[2] = {1, 9};
  float a[2];
  CHECK_EQ(otv_glyph_advances(loc, bad, 2, 0, a), OTV_E_ARG);
  CHECK_EQ(a[1], 0);
  CHECK_EQ(otv_glyph_advances(loc, NULL, 0, 0, NULL), OTV_E_OK);
  otv_location_destroy(loc);
  otv_face_close(f);
}

static void test_vertical(void)
{
  cfg c = {0, 1, 4, true, false, false};
  build_hvar(&t_hvar, &c);
  size_t len = assemble(font, sizeof font, true, NULL);
  otv_face *f = NULL;
  otv_error e = {0};
  CHECK_EQ(otv_face_open_memory(font, len, 0, NULL, &f, &e), OTV_E_OK);
  if (!f) {
    fprintf(stderr, "vertical: %s\n", e.msg);
    return;
  }
  otv_location *loc = NULL;
  CHECK_EQ(otv_location_create(f, &loc, NULL), OTV_E_OK);
  otv_glyph_metrics m;
  static const float tsb0[4] = {50, 60, 70, 80}, org0[4] = {880, 900, 880, 850};
  for (uint32_t g = 0; g < 4; g++) {
    CHECK_EQ(otv_glyph_v_metrics(loc, g, 0, &m), OTV_E_OK);
    CHECK_EQ(m.advance, 1000);
    CHECK_EQ(m.side_a, tsb0[g]);
    CHECK_EQ(m.origin, org0[g]);
  }
  set_wght(loc, 900);
  /* advance: implicit (0, g); TSB: (0, g); origin: VORG + (0, 3 - g) */
  static const float adv1[4] = {1010, 1020, 1030, 1040}, tsb1[4] = {60, 80, 100, 120},
                     org1[4] = {920, 930, 900, 860};
  uint32_t gids[4] = {0, 1, 2, 3};
  float a[4];
  CHECK_EQ(otv_glyph_advances(loc, gids, 4, OTV_METRICS_VERTICAL, a), OTV_E_OK);
  for (uint32_t g = 0; g < 4; g++) {
    CHECK_EQ(otv_glyph_v_metrics(loc, g, 0, &m), OTV_E_OK);
    CHECK_EQ(m.advance, adv1[g]);
    CHECK_EQ(a[g], adv1[g]);
    CHECK_EQ(m.side_a, tsb1[g]);
    CHECK_EQ(m.origin, org1[g]);
  }
  otv_location_destroy(loc);
  otv_face_close(f);
}

/* Inner-index width 1 (the narrowest entryFormat), in both formats and every entry size: glyph
 * 0 -> (1, 1), 1 -> (0, 1), 2 -> (0, 0); glyph 3 past the map uses the last entry (0, 0). At
 * wght 900 (scalar 1) the advances are 500 + (-6), 600 + 20, 600 + 10, 600 + 10. */
static void test_maps_inner1(void)
{
  static const unsigned pairs[3][2] = {{1, 1}, {0, 1}, {0, 0}};
  int combos = 0;
  for (unsigned format = 0; format <= 1; format++)
    for (unsigned es = 1; es <= 4; es++) {
      fx_buf *w = &t_hvar;
      w->n = 0;
      fx16(w, 1);
      fx16(w, 0);  /* version 1.0 */
      fx32(w, 0);  /* itemVariationStoreOffset (patched) */
      fx32(w, 20); /* advanceWidthMappingOffset */
      fx32(w, 0);  /* lsbMappingOffset */
      fx32(w, 0);  /* rsbMappingOffset */
      put_dsim(w, format, es, 1, pairs, 3);
      fx32_at(w, 4, (uint32_t)w->n);
      fx_ivs(w, 2, ivs_counts, ivs_vals);
      size_t len = assemble(font, sizeof font, false, NULL);
      otv_face *f = NULL;
      CHECK_EQ(otv_face_open_memory(font, len, 0, NULL, &f, NULL), OTV_E_OK);
      if (!f) continue;
      otv_location *loc = NULL;
      CHECK_EQ(otv_location_create(f, &loc, NULL), OTV_E_OK);
      set_wght(loc, 900);
      uint32_t g[4] = {0, 1, 2, 3};
      float a[4];
      CHECK_EQ(otv_glyph_advances(loc, g, 4, 0, a), OTV_E_OK);
      CHECK_EQ(a[0], 494);
      CHECK_EQ(a[1], 620);
      CHECK_EQ(a[2], 610);
      CHECK_EQ(a[3], 610);
      otv_location_destroy(loc);
      otv_face_close(f);
      combos++;
    }
  CHECK_EQ(combos, 8);
}

/* ---- side-bearing maps and synthesized vertical metrics on a TrueType font ---------------- */

/* A simple glyph: one contour (x0,y0) (x1,y0) (x1,y1), all on-curve, 16-bit deltas. */
static void put_glyph(fx_buf *w, int x0, int y0, int x1, int y1)
{
  fx16(w, 1); /* numberOfContours */
  fx16(w, (unsigned)x0 & 0xFFFF);
  fx16(w, (unsigned)y0 & 0xFFFF); /* xMin, yMin */
  fx16(w, (unsigned)x1 & 0xFFFF);
  fx16(w, (unsigned)y1 & 0xFFFF); /* xMax, yMax */
  fx16(w, 2);                     /* endPtsOfContours[0] */
  fx16(w, 0);                     /* instructionLength */
  fx8(w, 0x01);
  fx8(w, 0x01);
  fx8(w, 0x01); /* flags: ON_CURVE_POINT, int16 deltas */
  fx16(w, (unsigned)x0 & 0xFFFF);
  fx16(w, (unsigned)(x1 - x0) & 0xFFFF);
  fx16(w, 0); /* x */
  fx16(w, (unsigned)y0 & 0xFFFF);
  fx16(w, 0);
  fx16(w, (unsigned)(y1 - y0) & 0xFFFF); /* y */
  if (w->n & 1) fx8(w, 0);               /* short loca: even offsets */
}

/* Glyph boxes (xMin, yMin, xMax, yMax); glyph 3 is empty. The xMin equal hmtx's LSBs. */
static const int sb_box[3][4] = {{10, 0, 410, 700}, {20, -100, 520, 600}, {30, 0, 330, 500}};

static fx_buf t_glyf, t_loca, t_os2, t_mvar, t_hvar_sb, t_vvar_sb;

static void build_sb_tables(void)
{
  t_glyf.n = t_loca.n = 0;
  for (int g = 0; g < 4; g++) {
    fx16(&t_loca, (unsigned)(t_glyf.n / 2)); /* loca (short): offset / 2 */
    if (g < 3) put_glyph(&t_glyf, sb_box[g][0], sb_box[g][1], sb_box[g][2], sb_box[g][3]);
  }
  fx16(&t_loca, (unsigned)(t_glyf.n / 2));
  /* HVAR: advance map adv_pairs (format 0, 1 byte, 4 inner bits), LSB map lsb_pairs, RSB map
   * g0 -> (1,0) g1 -> (0,2) g2 -> (1,3) g3 -> (0,3) (format 1, 2 bytes, 8 inner bits) */
  static const unsigned rsb_pairs[4][2] = {{1, 0}, {0, 2}, {1, 3}, {0, 3}};
  fx_buf *w = &t_hvar_sb;
  w->n = 0;
  fx16(w, 1);
  fx16(w, 0);
  fx32(w, 0);
  fx32(w, 0);
  fx32(w, 0);
  fx32(w, 0);
  fx32_at(w, 8, (uint32_t)w->n);
  put_dsim(w, 0, 1, 4, adv_pairs, 3);
  fx32_at(w, 12, (uint32_t)w->n);
  put_dsim(w, 0, 1, 4, lsb_pairs, 2);
  fx32_at(w, 16, (uint32_t)w->n);
  put_dsim(w, 1, 2, 8, rsb_pairs, 4);
  fx32_at(w, 4, (uint32_t)w->n);
  fx_ivs(w, 2, ivs_counts, ivs_vals);
  /* VVAR: implicit advance, TSB map g -> (0, g), BSB map g -> (0, 3 - g), no origin map */
  static const unsigned tsb_pairs[4][2] = {{0, 0}, {0, 1}, {0, 2}, {0, 3}};
  static const unsigned bsb_pairs[4][2] = {{0, 3}, {0, 2}, {0, 1}, {0, 0}};
  w = &t_vvar_sb;
  w->n = 0;
  fx16(w, 1);
  fx16(w, 0);
  fx32(w, 0);
  fx32(w, 0);
  fx32(w, 0);
  fx32(w, 0);
  fx32(w, 0);
  fx32_at(w, 12, (uint32_t)w->n);
  put_dsim(w, 1, 1, 4, tsb_pairs, 4);
  fx32_at(w, 16, (uint32_t)w->n);
  put_dsim(w, 0, 3, 12, bsb_pairs, 4);
  fx32_at(w, 4, (uint32_t)w->n);
  fx_ivs(w, 2, ivs_counts, ivs_vals);
  /* OS/2 version 0 (78 bytes): fsSelection at 62, sTypoAscender 900 at 68, sTypoDescender
   * -300 at 70 */
  t_os2.n = 0;
  while (t_os2.n < 78) fx8(&t_os2, 0);
  fx16_at(&t_os2, 68, 900);
  fx16_at(&t_os2, 70, (unsigned)-300 & 0xFFFF);
  /* MVAR: 'hasc' -> (0, 0) = +10, 'hdsc' -> (1, 0) = -5 at scalar 1 */
  w = &t_mvar;
  w->n = 0;
  fx16(w, 1);
  fx16(w, 0);  /* version 1.0 */
  fx16(w, 0);  /* reserved */
  fx16(w, 8);  /* valueRecordSize */
  fx16(w, 2);  /* valueRecordCount */
  fx16(w, 28); /* itemVariationStoreOffset */
  fx32(w, OTV_TAG('h', 'a', 's', 'c'));
  fx16(w, 0);
  fx16(w, 0);
  fx32(w, OTV_TAG('h', 'd', 's', 'c'));
  fx16(w, 1);
  fx16(w, 0);
  fx_ivs(w, 2, ivs_counts, ivs_vals);
}

/* TrueType font: head maxp fvar hhea hmtx glyf loca HVAR [+ vhea vmtx VVAR] [+ OS/2 MVAR]. */
static otv_face *open_sb_font(bool vertical, bool os2_mvar, bool use_typo)
{
  fx_buf os2 = t_os2;
  if (use_typo) fx16_at(&os2, 62, 0x80); /* fsSelection: USE_TYPO_METRICS */
  fx_table t[14] = {
      {OTV_T_HEAD, t_head.b, t_head.n},
      {OTV_T_MAXP, t_maxp.b, t_maxp.n},
      {OTV_T_FVAR, t_fvar.b, t_fvar.n},
      {OTV_T_HHEA, t_hhea.b, t_hhea.n},
      {OTV_T_HMTX, t_hmtx.b, t_hmtx.n},
      {OTV_TAG('g', 'l', 'y', 'f'), t_glyf.b, t_glyf.n},
      {OTV_TAG('l', 'o', 'c', 'a'), t_loca.b, t_loca.n},
      {OTV_T_HVAR, t_hvar_sb.b, t_hvar_sb.n},
  };
  unsigned n = 8;
  if (vertical) {
    t[n++] = (fx_table){OTV_T_VHEA, t_vhea.b, t_vhea.n};
    t[n++] = (fx_table){OTV_T_VMTX, t_vmtx.b, t_vmtx.n};
    t[n++] = (fx_table){OTV_T_VVAR, t_vvar_sb.b, t_vvar_sb.n};
  }
  if (os2_mvar) {
    t[n++] = (fx_table){OTV_T_OS2, os2.b, os2.n};
    t[n++] = (fx_table){OTV_T_MVAR, t_mvar.b, t_mvar.n};
  }
  /* the directory must be sorted by tag */
  for (unsigned i = 1; i < n; i++)
    for (unsigned j = i; j > 0 && t[j - 1].tag > t[j].tag; j--) {
      fx_table x = t[j];
      t[j] = t[j - 1];
      t[j - 1] = x;
    }
  size_t len = fx_sfnt(t, n, font, sizeof font);
  otv_face *f = NULL;
  otv_error e = {0};
  CHECK_EQ(otv_face_open_memory(font, len, 0, NULL, &f, &e), OTV_E_OK);
  if (!f) fprintf(stderr, "side-bearing font: %s\n", e.msg);
  return f;
}

/* spec (hvar): LSB = hmtx LSB + LSB delta; RSB = default RSB + RSB delta, the default RSB being
 * advance - LSB - (xMax - xMin) of the glyf header: g0 500-10-400 = 90, g1 600-20-500 = 80,
 * g2 600-30-300 = 270, g3 (empty) 600-40 = 560. Deltas at wght 900 (scalar 1): LSB g0 +10,
 * g1..3 -6; RSB g0 -5, g1 +30, g2 -8, g3 +40; advances 493 620 640 640. Vertical (vmtx: advance
 * 1000, TSB 50 60 70 80): default BSB = 1000 - TSB - (yMax - yMin): 250 240 430 920; TSB deltas
 * +10 +20 +30 +40, BSB deltas +40 +30 +20 +10; origin (no VORG) = yMax + TSB. */
static void test_side_bearing_maps(void)
{
  otv_face *f = open_sb_font(true, false, false);
  if (!f) return;
  otv_location *loc = NULL;
  CHECK_EQ(otv_location_create(f, &loc, NULL), OTV_E_OK);
  otv_glyph_metrics m;
  static const float lsb0[4] = {10, 20, 30, 40}, rsb0[4] = {90, 80, 270, 560};
  for (uint32_t g = 0; g < 4; g++) {
    CHECK_EQ(otv_glyph_h_metrics(loc, g, 0, &m), OTV_E_OK);
    CHECK_EQ(m.side_a, lsb0[g]);
    CHECK_EQ(m.side_b, rsb0[g]);
  }
  set_wght(loc, 900);
  static const float adv1[4] = {493, 620, 640, 640}, lsb1[4] = {20, 14, 24, 34},
                     rsb1[4] = {85, 110, 262, 600};
  static const float vadv1[4] = {1010, 1020, 1030, 1040}, tsb1[4] = {60, 80, 100, 120},
                     bsb1[4] = {290, 270, 450, 930}, org1[4] = {760, 680, 600, 120};
  for (uint32_t g = 0; g < 4; g++) {
    CHECK_EQ(otv_glyph_h_metrics(loc, g, 0, &m), OTV_E_OK);
    CHECK_EQ(m.advance, adv1[g]);
    CHECK_EQ(m.side_a, lsb1[g]);
    CHECK_EQ(m.side_b, rsb1[g]);
    CHECK_EQ(otv_glyph_v_metrics(loc, g, 0, &m), OTV_E_OK);
    CHECK_EQ(m.advance, vadv1[g]);
    CHECK_EQ(m.side_a, tsb1[g]);
    CHECK_EQ(m.side_b, bsb1[g]);
    CHECK_EQ(m.origin, org1[g]);
  }
  set_wght(loc, 650); /* scalar 0.5: half the deltas; ROUND is floor(x + 0.5) per field */
  CHECK_EQ(otv_glyph_h_metrics(loc, 0, 0, &m), OTV_E_OK);
  CHECK_NEAR(m.side_b, 87.5, 1e-6);
  CHECK_EQ(otv_glyph_h_metrics(loc, 0, OTV_METRICS_ROUND, &m), OTV_E_OK);
  CHECK_EQ(m.side_b, 88);
  CHECK_EQ(otv_glyph_h_metrics(loc, 2, 0, &m), OTV_E_OK);
  CHECK_NEAR(m.side_b, 266, 1e-6);
  otv_location_destroy(loc);
  otv_face_close(f);
}

/* No vhea/vmtx: OTV_E_NO_TABLE, or with OTV_METRICS_SYNTHESIZE HarfBuzz's synthesis. hhea 800 /
 * -200; OS/2 typo 900 / -300 (used only with USE_TYPO_METRICS); MVAR hasc +10, hdsc -5 at
 * scalar 1. Centred: TSB = (advance - box height) / 2, origin = yMax + TSB. */
static void test_synthesized_vertical(void)
{
  for (int typo = 0; typo < 2; typo++) {
    otv_face *f = open_sb_font(false, true, typo);
    if (!f) return;
    otv_location *loc = NULL;
    CHECK_EQ(otv_location_create(f, &loc, NULL), OTV_E_OK);
    otv_glyph_metrics m;
    unsigned syn = OTV_METRICS_SYNTHESIZE;
    CHECK_EQ(otv_glyph_v_metrics(loc, 0, 0, &m), OTV_E_NO_TABLE);
    uint32_t g4[4] = {0, 1, 2, 3};
    float a[4];
    CHECK_EQ(otv_glyph_advances(loc, g4, 4, OTV_METRICS_VERTICAL, a), OTV_E_NO_TABLE);
    /* default: 1000 (hhea) or 1200 (typo); box heights 700 700 500 0 */
    float adv = typo ? 1200 : 1000;
    static const float h[4] = {700, 700, 500, 0}, ymax[4] = {700, 600, 500, 0};
    for (uint32_t g = 0; g < 4; g++) {
      CHECK_EQ(otv_glyph_v_metrics(loc, g, syn, &m), OTV_E_OK);
      CHECK_EQ(m.advance, adv);
      CHECK_EQ(m.side_a, (adv - h[g]) / 2);
      CHECK_EQ(m.side_b, (adv - h[g]) / 2);
      CHECK_EQ(m.origin, ymax[g] + (adv - h[g]) / 2);
    }
    CHECK_EQ(otv_glyph_advances(loc, g4, 4, OTV_METRICS_VERTICAL | syn, a), OTV_E_OK);
    CHECK_EQ(a[3], adv);
    /* wght 900: ascender +10, descender -5 */
    set_wght(loc, 900);
    adv = typo ? 1215 : 1015;
    CHECK_EQ(otv_glyph_v_metrics(loc, 1, syn, &m), OTV_E_OK);
    CHECK_EQ(m.advance, adv);
    CHECK_EQ(m.side_a, (adv - 700) / 2);
    CHECK_EQ(m.origin, 600 + (adv - 700) / 2);
    /* wght 650: ascender +5, descender -2.5 -> unrounded 1207.5 / 1007.5; rounded
     * round(905) - round(-302.5) = 905 + 302 = 1207 (typo), 805 + 202 = 1007 (hhea) */
    set_wght(loc, 650);
    CHECK_EQ(otv_glyph_advances(loc, g4, 4, OTV_METRICS_VERTICAL | syn, a), OTV_E_OK);
    CHECK_NEAR(a[0], typo ? 1207.5 : 1007.5, 1e-4);
    CHECK_EQ(otv_glyph_advances(loc, g4, 4, OTV_METRICS_VERTICAL | syn | OTV_METRICS_ROUND, a),
             OTV_E_OK);
    CHECK_EQ(a[2], typo ? 1207 : 1007);
    CHECK_EQ(otv_glyph_v_metrics(loc, 0, syn | OTV_METRICS_ROUND, &m), OTV_E_OK);
    CHECK_EQ(m.advance, typo ? 1207 : 1007);
    /* TSB = floor((1207 - 700) / 2) = 253, BSB = 254; hhea: floor(307 / 2) = 153, BSB 154 */
    CHECK_EQ(m.side_a, typo ? 253 : 153);
    CHECK_EQ(m.side_b, typo ? 254 : 154);
    CHECK_EQ(m.origin, typo ? 953 : 853);
    CHECK_EQ(otv_glyph_v_metrics(loc, 4, syn, &m), OTV_E_ARG);
    uint32_t bad[2] = {1, 7};
    CHECK_EQ(otv_glyph_advances(loc, bad, 2, OTV_METRICS_VERTICAL | syn, a), OTV_E_ARG);
    CHECK_EQ(a[1], 0);
    otv_location_destroy(loc);
    otv_face_close(f);
  }
}

/* The TrueType side-bearing font with its glyf cut at every length (loca unchanged, so glyph
 * records run past the end): every metrics call either works or fails naming glyf or loca;
 * and the allocation-failure loop over the synthesized path (MVAR scalar cache). */
/* The synthesized vertical metrics of the side-bearing font at wght 800, for the
 * allocation-failure loop: each call OK or OTV_E_NOMEM; true when all were OK. */
static bool synthesized_metrics(otv_location *loc, void *ctx)
{
  (void)ctx;
  set_wght(loc, 800);
  otv_glyph_metrics gm;
  uint32_t g[2] = {0, 1};
  float adv[2];
  otv_status s1 = otv_glyph_v_metrics(loc, 1, OTV_METRICS_SYNTHESIZE, &gm);
  otv_status s2 = otv_glyph_advances(loc, g, 2, OTV_METRICS_VERTICAL | OTV_METRICS_SYNTHESIZE, adv);
  otv_status s3 = otv_glyph_h_metrics(loc, 2, 0, &gm);
  CHECK(s1 == OTV_E_OK || s1 == OTV_E_NOMEM);
  CHECK(s2 == OTV_E_OK || s2 == OTV_E_NOMEM);
  CHECK(s3 == OTV_E_OK || s3 == OTV_E_NOMEM);
  return !s1 && !s2 && !s3;
}

static void test_sb_hostile(void)
{
  fx_buf saved = t_glyf;
  for (size_t n = 0; n < saved.n; n++) {
    t_glyf.n = n;
    otv_face *f = NULL;
    otv_error e = {0};
    fx_buf os2 = t_os2;
    fx_table t[9] = {
        {OTV_T_HEAD, t_head.b, t_head.n},
        {OTV_T_HVAR, t_hvar_sb.b, t_hvar_sb.n},
        {OTV_T_MVAR, t_mvar.b, t_mvar.n},
        {OTV_T_OS2, os2.b, os2.n},
        {OTV_T_FVAR, t_fvar.b, t_fvar.n},
        {OTV_TAG('g', 'l', 'y', 'f'), t_glyf.b, t_glyf.n},
        {OTV_T_HHEA, t_hhea.b, t_hhea.n},
        {OTV_T_HMTX, t_hmtx.b, t_hmtx.n},
        {OTV_TAG('l', 'o', 'c', 'a'), t_loca.b, t_loca.n},
    };
    fx_table m = {OTV_T_MAXP, t_maxp.b, t_maxp.n};
    fx_table all[10];
    /* sorted by tag: HVAR MVAR OS/2 fvar glyf head hhea hmtx loca maxp */
    for (int i = 0; i < 9; i++) all[i] = t[i];
    all[9] = m;
    for (int i = 1; i < 10; i++)
      for (int j = i; j > 0 && all[j - 1].tag > all[j].tag; j--) {
        fx_table x = all[j];
        all[j] = all[j - 1];
        all[j - 1] = x;
      }
    size_t len = fx_sfnt(all, 10, font, sizeof font);
    if (otv_face_open_memory(font, len, 0, NULL, &f, &e)) {
      CHECK(e.table == OTV_TAG('g', 'l', 'y', 'f') || e.table == OTV_TAG('l', 'o', 'c', 'a'));
      continue;
    }
    otv_location *loc = NULL;
    CHECK_EQ(otv_location_create(f, &loc, NULL), OTV_E_OK);
    for (int w = 0; w < 2; w++) {
      if (w) set_wght(loc, 900);
      for (uint32_t g = 0; g < 4; g++) {
        otv_glyph_metrics gm;
        otv_status st[2] = {otv_glyph_h_metrics(loc, g, 0, &gm),
                            otv_glyph_v_metrics(loc, g, OTV_METRICS_SYNTHESIZE, &gm)};
        for (int k = 0; k < 2; k++) {
          uint32_t tb = otv_location_last_error(loc)->table;
          if (st[k]) CHECK(tb == OTV_TAG('g', 'l', 'y', 'f') || tb == OTV_TAG('l', 'o', 'c', 'a'));
        }
      }
    }
    otv_location_destroy(loc);
    otv_face_close(f);
  }
  t_glyf = saved;

  bool done = false;
  for (long n = 1; n < 200 && !done; n++) {
    otv_face *probe = open_sb_font(false, true, true); /* builds `font` */
    otv_face_close(probe);
    done = h_nomem_run(font, sizeof font, n, synthesized_metrics, NULL);
  }
  CHECK(done);
}

/* Every prefix of each metrics table fails to open with an error naming that table (hmtx: the
 * trailing side bearings may be cut: that is accepted, with the missing ones read as 0). */
static void test_truncation(void)
{
  cfg c = {1, 3, 9, true, true, false};
  build_hvar(&t_hvar, &c);
  const fx_buf *bufs[] = {&t_hhea, &t_hmtx, &t_hvar, &t_vhea, &t_vmtx, &t_vvar, &t_vorg};
  const uint32_t tags[] = {OTV_T_HHEA, OTV_T_HMTX, OTV_T_HVAR, OTV_T_VHEA,
                           OTV_T_VMTX, OTV_T_VVAR, OTV_T_VORG};
  for (unsigned k = 0; k < 7; k++) {
    for (size_t n = 0; n < bufs[k]->n; n++) {
      fx_table o = {tags[k], bufs[k]->b, n};
      size_t len = assemble(font, sizeof font, true, &o);
      otv_face *f = NULL;
      otv_error e = {0};
      otv_status s = otv_face_open_memory(font, len, 0, NULL, &f, &e);
      bool lenient = (tags[k] == OTV_T_HMTX && n >= 8) || (tags[k] == OTV_T_VMTX && n >= 4);
      if (lenient) {
        CHECK_EQ(s, OTV_E_OK);
        if (f) {
          otv_location *loc = NULL;
          otv_glyph_metrics m;
          CHECK_EQ(otv_location_create(f, &loc, NULL), OTV_E_OK);
          CHECK_EQ(otv_glyph_h_metrics(loc, 3, 0, &m), OTV_E_OK);
          CHECK_EQ(m.side_a, tags[k] == OTV_T_HMTX ? (n >= 12 ? 40 : 0) : 40);
          otv_location_destroy(loc);
        }
      } else {
        CHECK(s != OTV_E_OK);
        CHECK_EQ(e.table, tags[k]);
      }
      otv_face_close(f);
    }
  }
}

/* Offsets set to 0, the table length, one past it, 0xFFFF and 0xFFFFFFFF: an error naming the
 * table or (for NULL optional maps) a font that still works; never a crash. */
static void test_bad_offsets(void)
{
  cfg c = {0, 2, 8, true, true, false};
  build_hvar(&t_hvar, &c);
  fx_buf saved_h = t_hvar, saved_v = t_vvar;
  for (int which = 0; which < 2; which++) {
    fx_buf *t = which ? &t_vvar : &t_hvar;
    const fx_buf *orig = which ? &saved_v : &saved_h;
    unsigned fields = which ? 5 : 4;
    for (unsigned fi = 0; fi < fields; fi++) {
      uint32_t vals[] = {0, (uint32_t)orig->n, (uint32_t)orig->n + 1, 0xFFFF, 0xFFFFFFFFu, 1, 3};
      for (unsigned vi = 0; vi < sizeof vals / sizeof *vals; vi++) {
        *t = *orig;
        fx32_at(t, 4 + 4 * fi, vals[vi]);
        size_t len = assemble(font, sizeof font, true, NULL);
        otv_face *f = NULL;
        otv_error e = {0};
        otv_status s = otv_face_open_memory(font, len, 0, NULL, &f, &e);
        if (s) {
          CHECK_EQ(e.table, which ? OTV_T_VVAR : OTV_T_HVAR);
        } else {
          /* a NULL map is valid; an offset into the header may decode as some map; a NULL store
           * or an offset at or past the end never opens */
          CHECK(!(fi == 0 && vals[vi] == 0));
          CHECK(vals[vi] < orig->n);
          otv_location *loc = NULL;
          CHECK_EQ(otv_location_create(f, &loc, NULL), OTV_E_OK);
          set_wght(loc, 700);
          otv_glyph_metrics m;
          CHECK_EQ(otv_glyph_h_metrics(loc, 2, 0, &m), OTV_E_OK);
          CHECK_EQ(otv_glyph_v_metrics(loc, 2, 0, &m), OTV_E_OK);
          otv_location_destroy(loc);
        }
        otv_face_close(f);
      }
    }
    *t = *orig;
  }
  /* hhea numberOfHMetrics = 0 with glyphs: an error naming hhea; larger than numGlyphs: fine */
  fx_buf h = t_hhea;
  fx16_at(&h, 34, 0);
  fx_table o = {OTV_T_HHEA, h.b, h.n};
  size_t len = assemble(font, sizeof font, false, &o);
  otv_face *f = NULL;
  otv_error e = {0};
  CHECK_EQ(otv_face_open_memory(font, len, 0, NULL, &f, &e), OTV_E_BAD_VALUE);
  CHECK_EQ(e.table, OTV_T_HHEA);
  CHECK_EQ(e.offset, 34);
  fx16_at(&h, 34, 0xFFFF);
  memset(&e, 0, sizeof e);
  len = assemble(font, sizeof font, false, &o);
  CHECK_EQ(otv_face_open_memory(font, len, 0, NULL, &f, &e), OTV_E_TRUNCATED);
  CHECK_EQ(e.table, OTV_T_HMTX);
}

/* The advances and glyph 1's vertical metrics at wght 800, for the allocation-failure loop:
 * each call OK or OTV_E_NOMEM; true when both were OK. */
static bool variable_metrics(otv_location *loc, void *ctx)
{
  (void)ctx;
  set_wght(loc, 800);
  uint32_t g[4] = {0, 1, 2, 3};
  float adv[4];
  otv_glyph_metrics m;
  otv_status s1 = otv_glyph_advances(loc, g, 4, 0, adv);
  otv_status s2 = otv_glyph_v_metrics(loc, 1, 0, &m);
  CHECK(s1 == OTV_E_OK || s1 == OTV_E_NOMEM);
  CHECK(s2 == OTV_E_OK || s2 == OTV_E_NOMEM);
  return s1 == OTV_E_OK && s2 == OTV_E_OK;
}

static void test_alloc_failures(void)
{
  cfg c = {1, 4, 16, true, true, false};
  build_hvar(&t_hvar, &c);
  size_t len = assemble(font, sizeof font, true, NULL);
  bool done = false;
  for (long n = 1; n < 200 && !done; n++) done = h_nomem_run(font, len, n, variable_metrics, NULL);
  CHECK(done);
}

/* OTV_DUMP_FIXTURE=PATH writes the full fixture font (the fuzz seed in fuzz/corpus/metrics). */
static void dump_fixture(void)
{
  const char *path = getenv("OTV_DUMP_FIXTURE");
  if (!path) return;
  cfg c = {1, 2, 9, true, true, false};
  build_hvar(&t_hvar, &c);
  size_t len = assemble(font, sizeof font, true, NULL);
  h_write_file(path, font, len);
}

int main(void)
{
  build_common();
  dump_fixture();
  test_maps();
  test_maps_inner1();
  test_implicit_and_lsb();
  test_vertical();
  build_sb_tables();
  test_side_bearing_maps();
  test_synthesized_vertical();
  test_sb_hostile();
  test_truncation();
  test_bad_offsets();
  test_alloc_failures();
  return h_done("test_hvar");
}

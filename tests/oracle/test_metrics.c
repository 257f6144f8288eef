/*
 * test_metrics.c - differential test of variable metrics against HarfBuzz and FreeType.
 *
 * For every font in tests/fonts and the real variable fonts of $OTV_FONT_CACHE, at the default,
 * every named instance, the extremes (each axis at min and max alone, all at min, all at max)
 * and 200 random user locations (fixed seed), with the SAME final normalized coordinates given
 * to every engine (hb_font_set_var_coords_normalized, FT_Set_Var_Blend_Coordinates):
 *   - horizontal advances (and vertical ones where the font has vmtx) of every glyph (random
 *     locations: a sample of up to 400 glyphs) rounded with OTV_METRICS_ROUND vs HarfBuzz at
 *     scale = upem (integers). HarfBuzz computes default + roundf(delta) in float, the same sum
 *     in the same order: must be equal, except a delta exactly halfway between integers, where
 *     roundf (half away from zero) and floor(x + 0.5) differ by design ("tie" class, counted).
 *   - horizontal advances vs FreeType (FT_Get_Advance, FT_LOAD_NO_SCALE), which sums deltas in
 *     16.16 fixed point: equal, or off by 1 only when our unrounded value is within 1/64 of a
 *     half-integer (fixed-point rounding class, counted), or a negative advance (RobotoFlex at
 *     some locations) that FreeType keeps in 16 unsigned bits (counted); anything else fails.
 *   - every MVAR value tag HarfBuzz knows (hb_ot_metrics_get_position, scale = upem) vs
 *     otv_font_metric; HarfBuzz answers hasc/hdsc/hlgp from hhea when OS/2 USE_TYPO_METRICS is
 *     clear and forces the sign of ascenders/descenders, so the expectation applies our delta to
 *     that base. Classes: a value within 1/1024 of a half-integer may round either way (float
 *     sums); a font whose MVAR records are out of tag order (PartialInstancerTest-VF: hasc last)
 *     gets no delta from HarfBuzz's binary search where our linear scan finds the record.
 *   - left side bearings vs FreeType (horiBearingX of FT_LOAD_NO_SCALE, control box of an outline
 *     whose points, component offsets and phantom points FreeType rounds to integers after gvar):
 *     within 1.5 units, when our outline call
 *     is available.
 *   - synthesized vertical metrics (OTV_METRICS_SYNTHESIZE) of every font without vmtx: the
 *     rounded advance height vs -hb_font_get_glyph_v_advance (HarfBuzz: ascender - descender of
 *     hb_font_get_h_extents, MVAR applied): equal, except a negative exact half (roundf vs
 *     floor(x + 0.5), counted). Vertical origins (a sample of up to 60 glyphs) vs HarfBuzz's own
 *     centring formula evaluated with HarfBuzz's values at the location (y_bearing +
 *     ((advance + height) >> 1) from hb_font_get_glyph_extents): equal, except a box edge on an
 *     exact half (ties) and CFF/CFF2 (HarfBuzz rounds its float CFF bounds itself: within 1,
 *     counted). hb_font_get_glyph_v_origin itself is compared too: at the default location of a
 *     TrueType font without coordinates set (a second hb_font) it must be equal; HarfBuzz 6.0
 *     answers something else in two cases, counted and explained in the summary: once
 *     coordinates are set on a TrueType font it returns the glyph's top phantom point (its
 *     default yMax, tsb 0 without vmtx, + the gvar delta), and for CFF/CFF2 the font ascender.
 *   - vertical origins of fonts with vmtx (up to 60 glyphs per location) vs
 *     hb_font_get_glyph_v_origin: VORG (+ VVAR delta), or the top phantom point, or with a VVAR
 *     TSB map roundf(yMax) + vmtx TSB + roundf(delta) (HarfBuzz rounds the parts apart).
 *   - HVAR LSB/RSB and VVAR TSB/BSB maps: no test font has them, so fontTools builds two
 *     (check_sb_fonts) and they go through all of the above (not the FreeType LSB check: their
 *     side-bearing deltas are arbitrary; tests/cli/test_metrics.sh checks them vs fontTools).
 * Every font of tests/fonts is checked a second time with HVAR and VVAR hidden (tags renamed in
 * a copy), at 25 random locations: all engines then take the gvar phantom-point path (TrueType),
 * or keep default advances (CFF2: otvar says OTV_E_UNSUPPORTED; HarfBuzz 6.0 answers 0 there,
 * skipped and counted). Fonts without HVAR/VVAR need otv_glyf_phantoms; while that call is not
 * available the test prints SKIP for them.
 */
#include "harness.h"

#include <dirent.h>
#include <unistd.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_ADVANCES_H
#include FT_MULTIPLE_MASTERS_H
#include <hb-ot.h>
#include <hb.h>

#define RANDOM_LOCATIONS h_locations(200)
#define SAMPLE_GLYPHS 400

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;
static uint32_t rnd(void) { return h_xorshift64star(&rng_state); }

static FT_Library ftlib;
static long n_adv_hb, n_adv_ft, n_tie_hb, n_fix_ft, n_mvar, n_vadv, n_lsb, n_locs;
static long n_wrap_ft, n_hb_cff2_zero, n_hidden, n_mvar_unsorted, n_mvar_tie, skipped_phantom,
    skipped_outline;
static double max_lsb_diff;
static long n_syn_adv, n_syn_tie, n_syn_org, n_syn_org_tie, n_syn_org_cff, n_syn_hb_same,
    n_syn_hb_phantom, n_syn_hb_cff_asc, n_syn_hb_default, n_syn_hb_no_extents;
static double max_syn_org_cff;
static long n_vorg_hb, n_vorg_tie, n_vorg_tsbmap, n_vorg_cff_skip, n_sb_fonts;
static long n_syn_ft, n_syn_ft_same, n_fontmatrix;
static double max_syn_ft;
static char max_syn_ft_where[160];

typedef struct ctx {
  const char *name;
  otv_face *face;
  otv_location *loc, *loc0;
  bool mvar_unsorted, hidden;
  hb_font_t *hb;
  FT_Face ft;
  uint32_t glyph_count;
  unsigned axes;
  float *adv, *advr;
  uint32_t *gids;
  bool has_vmtx, has_hvar, has_vvar, use_typo;
  bool has_vorg, tsb_map; /* VORG; VVAR with a TSB map */
  bool sb_maps;           /* a font built here with arbitrary LSB/RSB deltas: no FreeType LSB */
  int phantom_ok;         /* -1 unknown, 0 unavailable, 1 available */
  int outline_ok;
} ctx;

/* Is x (unrounded) within eps of a half-integer? */
static bool near_half(double x, double eps)
{
  double f = x - floor(x);
  return fabs(f - 0.5) <= eps;
}

#define SYNTH_ORIGIN_GLYPHS 60

/* Synthesized vertical metrics of a font without vmtx against HarfBuzz (hb: coordinates set
 * as loc's when `coords`; else a font with none, loc at the default). gids[0..n) as chosen by
 * the caller; origins of a stride sample. */
static void compare_synth(ctx *c, const char *what, otv_location *loc, hb_font_t *hb, bool coords,
                          size_t n)
{
  unsigned fl = OTV_METRICS_VERTICAL | OTV_METRICS_SYNTHESIZE;
  CHECK_EQ(otv_glyph_advances(loc, c->gids, n, fl, c->adv), OTV_E_OK);
  CHECK_EQ(otv_glyph_advances(loc, c->gids, n, fl | OTV_METRICS_ROUND, c->advr), OTV_E_OK);
  CHECK_EQ(otv_glyph_advances(loc, c->gids, n, OTV_METRICS_VERTICAL, c->adv), OTV_E_NO_TABLE);
  CHECK_EQ(otv_glyph_advances(loc, c->gids, n, fl, c->adv), OTV_E_OK);
  for (size_t i = 0; i < n; i++) {
    hb_position_t h = -hb_font_get_glyph_v_advance(hb, c->gids[i]);
    n_syn_adv++;
    if ((float)h == c->advr[i]) continue;
    /* HarfBuzz rounds ascender and descender with roundf: a descender of -x.5 goes to -(x+1) */
    if ((float)h == c->advr[i] + 1 && c->adv[i] != floorf(c->adv[i])) {
      n_syn_tie++;
      continue;
    }
    CHECK_EQ(h, c->advr[i]);
    fprintf(stderr, "  %s %s glyph %u: hb %d otvar %.4f (synthesized v advance)\n", c->name, what,
            c->gids[i], h, c->adv[i]);
  }
  bool cff = c->face->flavour != OTV_FLAVOUR_GLYF;
  if (coords) {
    /* FreeType synthesizes differently (TT_Get_VMetrics): |sTypoAscender - sTypoDescender| of
     * OS/2 whatever USE_TYPO_METRICS says (hhea without OS/2), no MVAR, then the gvar deltas of
     * the phantom points. Measured on the origin sample, not required to agree; at the default
     * location of a TrueType font it must be exactly that static value. */
    size_t len = 0;
    const uint8_t *os2 = otv_face_table(c->face, OTV_T_OS2, &len);
    const uint8_t *hh = otv_face_table(c->face, OTV_T_HHEA, NULL);
    int ft_static = os2 && len >= 72 ? abs(otv_peek_i16(os2 + 68) - otv_peek_i16(os2 + 70))
                    : hh             ? abs(otv_peek_i16(hh + 4) - otv_peek_i16(hh + 6))
                                     : 0;
    size_t fstep = n > SYNTH_ORIGIN_GLYPHS ? n / SYNTH_ORIGIN_GLYPHS : 1;
    for (size_t i = 0; i < n; i += fstep) {
      FT_Fixed fa = 0;
      if (FT_Get_Advance(c->ft, c->gids[i],
                         FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING | FT_LOAD_VERTICAL_LAYOUT, &fa))
        continue;
      n_syn_ft++;
      double d = fabs((double)fa - c->advr[i]);
      if (d == 0) n_syn_ft_same++;
      if (d > max_syn_ft) {
        max_syn_ft = d;
        snprintf(max_syn_ft_where, sizeof max_syn_ft_where,
                 "%s %s glyph %u: FreeType %ld, otvar %.0f", c->name, what, c->gids[i], (long)fa,
                 c->advr[i]);
      }
      if (!cff && otv_location_is_default(loc)) CHECK_EQ(fa, ft_static);
    }
  }
  size_t step = n > SYNTH_ORIGIN_GLYPHS ? n / SYNTH_ORIGIN_GLYPHS : 1;
  for (size_t i = 0; i < n; i += step) {
    uint32_t g = c->gids[i];
    otv_glyph_metrics m, mu;
    otv_status st = otv_glyph_v_metrics(loc, g, OTV_METRICS_SYNTHESIZE | OTV_METRICS_ROUND, &m);
    CHECK_EQ(st, OTV_E_OK);
    CHECK_EQ(otv_glyph_v_metrics(loc, g, OTV_METRICS_SYNTHESIZE, &mu), OTV_E_OK);
    if (st) return;
    /* our own invariants: origin = yMax + TSB; TSB + height + BSB = advance */
    CHECK_NEAR(mu.advance, c->adv[0], 1e-3);
    double y_max = mu.origin - mu.side_a, y_min = y_max - (mu.advance - mu.side_a - mu.side_b);
    CHECK(m.side_a <= m.side_b && m.side_b - m.side_a <= 1);
    hb_glyph_extents_t e;
    memset(&e, 0, sizeof e);
    if (!hb_font_get_glyph_extents(hb, g, &e)) {
      /* HarfBuzz 6.0 gives up on some glyphs at a location (Handjet's .notdef: a composite of
       * 55 components) */
      n_syn_hb_no_extents++;
      continue;
    }
    hb_position_t a = -hb_font_get_glyph_v_advance(hb, g), ox = 0, oy = 0;
    hb_font_get_glyph_v_origin(hb, g, &ox, &oy);
    /* HarfBuzz ignores a CFF FontMatrix that is not 1/unitsPerEm (cff_fm_*.otf): its glyph
     * box is then not ours; that is an outline difference (the outline tests own it), counted */
    if (cff &&
        (fabs(e.y_bearing - roundf((float)y_max)) > 1 ||
         fabs(e.y_bearing + e.height - roundf((float)y_min)) > 1) &&
        mu.side_a + mu.side_b < mu.advance) {
      n_fontmatrix++;
      continue;
    }
    /* HarfBuzz's centring (its glyf path without coordinates), with its own values */
    int expect = e.y_bearing + ((a + e.height) >> 1);
    n_syn_org++;
    if ((float)expect != m.origin) {
      double d = fabs((double)expect - m.origin);
      if (cff && d <= 1.0) {
        n_syn_org_cff++;
        if (d > max_syn_org_cff) max_syn_org_cff = d;
      } else if (d <= 1.0 &&
                 (near_half(y_max, 1e-3) || near_half(y_min, 1e-3) || (float)a != m.advance)) {
        n_syn_org_tie++;
      } else {
        CHECK_EQ(expect, m.origin);
        fprintf(stderr, "  %s %s glyph %u: hb centring %d otvar %.0f (box %.3f..%.3f)\n", c->name,
                what, g, expect, m.origin, y_min, y_max);
      }
    }
    /* what hb_font_get_glyph_v_origin itself answers */
    if (oy == expect) {
      n_syn_hb_same++;
      if (!coords && !cff) n_syn_hb_default++;
    } else if (cff) {
      hb_font_extents_t fe;
      hb_font_get_h_extents(hb, &fe);
      CHECK_EQ(oy, fe.ascender); /* HarfBuzz 6.0: no glyf extents -> the font ascender */
      n_syn_hb_cff_asc++;
    } else {
      CHECK(coords); /* no coordinates set: HarfBuzz centres, as we do */
      if (!coords)
        fprintf(stderr, "  %s %s glyph %u: hb v origin %d, centring %d\n", c->name, what, g, oy,
                expect);
      n_syn_hb_phantom++; /* coordinates set: the glyph's top phantom point */
    }
  }
}

static void compare_location(ctx *c, const char *what)
{
  otv_f2dot14 nc[64];
  unsigned na = otv_location_normalized(c->loc, nc, 64);
  int hbc[64];
  FT_Fixed ftc[64];
  for (unsigned a = 0; a < na; a++) {
    hbc[a] = nc[a];
    ftc[a] = (FT_Fixed)nc[a] * 4; /* F2Dot14 -> 16.16 */
  }
  hb_font_set_var_coords_normalized(c->hb, hbc, na);
  if (na) CHECK_EQ(FT_Set_Var_Blend_Coordinates(c->ft, na, ftc), 0);
  n_locs++;

  /* glyph set: all glyphs, or a fixed-stride sample at random locations */
  size_t n = 0;
  bool sample = what[0] == 'r' && c->glyph_count > SAMPLE_GLYPHS;
  uint32_t start = sample ? rnd() % 7 : 0, step = sample ? c->glyph_count / SAMPLE_GLYPHS : 1;
  for (uint32_t g = start; g < c->glyph_count; g += step) c->gids[n++] = g;

  /* ---- horizontal advances ---- */
  otv_status s1 = otv_glyph_advances(c->loc, c->gids, n, 0, c->adv);
  otv_status s2 = otv_glyph_advances(c->loc, c->gids, n, OTV_METRICS_ROUND, c->advr);
  if (!c->has_hvar && !otv_location_is_default(c->loc) && c->face->flavour == OTV_FLAVOUR_GLYF &&
      (s1 == OTV_E_UNSUPPORTED)) {
    c->phantom_ok = 0;
    return;
  }
  if (c->hidden && c->face->flavour == OTV_FLAVOUR_CFF2 && !otv_location_is_default(c->loc)) {
    /* CFF2 without HVAR: said clearly, default advances returned */
    CHECK_EQ(s1, OTV_E_UNSUPPORTED);
    CHECK_EQ(s2, OTV_E_UNSUPPORTED);
    s1 = s2 = OTV_E_OK;
  }
  CHECK_EQ(s1, OTV_E_OK);
  CHECK_EQ(s2, OTV_E_OK);
  if (s1 || s2) return;
  if (!c->has_hvar && !otv_location_is_default(c->loc)) c->phantom_ok = 1;
  for (size_t i = 0; i < n; i++) {
    uint32_t g = c->gids[i];
    CHECK_EQ(c->advr[i], floorf(c->adv[i] + 0.5f));
    hb_position_t h = hb_font_get_glyph_h_advance(c->hb, g);
    /* HarfBuzz 6.0 answers 0 for a CFF2 font without HVAR once coordinates are set */
    bool hb_cff2_zero = c->hidden && c->face->flavour == OTV_FLAVOUR_CFF2 && h == 0;
    if (hb_cff2_zero)
      n_hb_cff2_zero++;
    else
      n_adv_hb++;
    if ((float)h != c->advr[i] && !hb_cff2_zero) {
      /* roundf vs floor(x + 0.5): only a negative exact half may differ */
      double frac = c->adv[i] - floor(c->adv[i]);
      if (frac == 0.5 && (float)h == c->advr[i] - 1) {
        n_tie_hb++;
      } else {
        CHECK_EQ(h, c->advr[i]);
        fprintf(stderr, "  %s %s glyph %u: hb %d otvar %.6f (%s)\n", c->name, what, g, h, c->adv[i],
                "advance");
      }
    }
    FT_Fixed fa = 0;
    if (FT_Get_Advance(c->ft, g, FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING, &fa) == 0) {
      n_adv_ft++;
      /* a negative advance (extrapolating font data, e.g. RobotoFlex): FreeType keeps it in 16
       * unsigned bits; HarfBuzz and otvar keep the sign. Unwrapped first, so that its 16.16
       * rounding of a near half is excused as for any advance (RobotoFlex glyph 157: otvar
       * -52.5007 -> -53, FreeType -52 as 65484) */
      double ftv = (double)fa;
      if (c->advr[i] < 0 && ftv >= 32768.0) {
        ftv -= 65536.0;
        n_wrap_ft++;
      }
      if (ftv != c->advr[i]) {
        if (fabs(ftv - c->advr[i]) <= 1.0 && near_half(c->adv[i], 1.0 / 64)) {
          n_fix_ft++;
        } else {
          CHECK_EQ(fa, c->advr[i]);
          fprintf(stderr, "  %s %s glyph %u: ft %ld otvar %.6f (advance)\n", c->name, what, g,
                  (long)fa, c->adv[i]);
        }
      }
    }
  }

  /* ---- vertical advances ---- */
  if (c->has_vmtx) {
    otv_status v1 = otv_glyph_advances(c->loc, c->gids, n, OTV_METRICS_VERTICAL, c->adv);
    otv_status v2 =
        otv_glyph_advances(c->loc, c->gids, n, OTV_METRICS_VERTICAL | OTV_METRICS_ROUND, c->advr);
    if (c->hidden && c->face->flavour == OTV_FLAVOUR_CFF2 && !otv_location_is_default(c->loc)) {
      CHECK_EQ(v1, OTV_E_UNSUPPORTED);
      v1 = v2 = OTV_E_OK;
    }
    if (!c->has_vvar && !otv_location_is_default(c->loc) && c->face->flavour == OTV_FLAVOUR_GLYF &&
        v1 == OTV_E_UNSUPPORTED) {
      c->phantom_ok = 0;
    } else {
      CHECK_EQ(v1, OTV_E_OK);
      CHECK_EQ(v2, OTV_E_OK);
      for (size_t i = 0; !v1 && !v2 && i < n; i++) {
        hb_position_t h = -hb_font_get_glyph_v_advance(c->hb, c->gids[i]);
        if (c->hidden && c->face->flavour == OTV_FLAVOUR_CFF2 && h == 0) {
          n_hb_cff2_zero++; /* as for the horizontal advances */
          continue;
        }
        n_vadv++;
        if ((float)h != c->advr[i]) {
          double frac = c->adv[i] - floor(c->adv[i]);
          if (frac == 0.5 && (float)h == c->advr[i] - 1) {
            n_tie_hb++;
          } else {
            CHECK_EQ(h, c->advr[i]);
            fprintf(stderr, "  %s %s glyph %u: hb %d otvar %.6f (v advance)\n", c->name, what,
                    c->gids[i], h, c->adv[i]);
          }
        }
      }
    }
  }

  /* ---- vertical origins of fonts with vmtx vs hb_font_get_glyph_v_origin ---- */
  if (c->has_vmtx && !c->hidden) {
    bool cff = c->face->flavour != OTV_FLAVOUR_GLYF;
    size_t ostep = n > 60 ? n / 60 : 1;
    for (size_t i = 0; i < n; i += ostep) {
      uint32_t g = c->gids[i];
      otv_glyph_metrics m, mu;
      otv_status st = otv_glyph_v_metrics(c->loc, g, OTV_METRICS_ROUND, &m);
      if (st == OTV_E_UNSUPPORTED) break; /* CFF2 without VVAR */
      CHECK_EQ(st, OTV_E_OK);
      CHECK_EQ(otv_glyph_v_metrics(c->loc, g, 0, &mu), OTV_E_OK);
      if (st) break;
      if (cff && !c->has_vorg) {
        n_vorg_cff_skip++; /* HarfBuzz 6.0: no glyf extents -> the font ascender */
        continue;
      }
      hb_position_t ox = 0, oy = 0;
      hb_font_get_glyph_v_origin(c->hb, g, &ox, &oy);
      double expect = m.origin;
      if (c->tsb_map && !c->has_vorg) {
        /* HarfBuzz: roundf(varied yMax) + vmtx TSB + roundf(TSB delta): rounded apart */
        expect = roundf(mu.origin - mu.side_a) + roundf(mu.side_a);
        n_vorg_tsbmap++;
      }
      n_vorg_hb++;
      if ((double)oy == expect) continue;
      /* roundf vs floor(x + 0.5) on a negative exact half */
      if ((double)oy == expect - 1 && mu.origin - floorf(mu.origin) == 0.5f) {
        n_vorg_tie++;
        continue;
      }
      /* rounded apart: the varied yMax on a half, which HarfBuzz's own extents (summed in
       * another order) put a float step to either side (pit-sb.ttf glyphs 1 and 3 at a random
       * location of OTV_ORACLE_SEED=103: yMax 335.5, HarfBuzz 335) */
      if (c->tsb_map && !c->has_vorg && fabs((double)oy - expect) == 1.0 &&
          near_half((double)mu.origin - mu.side_a, 1.0 / 1024)) {
        n_vorg_tie++;
        continue;
      }
      CHECK_EQ(oy, expect);
      fprintf(stderr, "  %s %s glyph %u: hb v origin %d otvar %.4f (tsb %.4f)\n", c->name, what, g,
              oy, mu.origin, mu.side_a);
    }
  }

  /* ---- synthesized vertical metrics (no vmtx) ---- */
  if (!c->has_vmtx && !c->hidden) compare_synth(c, what, c->loc, c->hb, true, n);

  /* ---- MVAR / font-wide values ---- */
  static const char *tags[] = {"hasc", "hdsc", "hlgp", "hcla", "hcld", "vasc", "vdsc",
                               "vlgp", "hcrs", "hcrn", "hcof", "vcrs", "vcrn", "vcof",
                               "xhgt", "cpht", "sbxs", "sbys", "sbxo", "sbyo", "spxs",
                               "spys", "spxo", "spyo", "strs", "stro", "unds", "undo"};
  for (size_t t = 0; t < sizeof tags / sizeof *tags; t++) {
    uint32_t tag = OTV_TAG(tags[t][0], tags[t][1], tags[t][2], tags[t][3]);
    hb_position_t hp = 0;
    hb_bool_t hok = hb_ot_metrics_get_position(c->hb, (hb_ot_metrics_tag_t)tag, &hp);
    float v = 0, v0 = 0;
    otv_status st = otv_font_metric(c->loc, tag, 0, &v);
    if (st == OTV_E_OK) CHECK_EQ(otv_font_metric(c->loc0, tag, 0, &v0), OTV_E_OK);
    double expect = v, base = v0;
    bool asc_desc = t < 3 || (t >= 5 && t < 7);
    if (t < 3 && !c->use_typo) {
      /* HarfBuzz: hhea ascender/descender/lineGap + the MVAR delta of the OS/2 value */
      static const unsigned hhea_off[3] = {4, 6, 8};
      size_t len;
      const uint8_t *hh = otv_face_table(c->face, OTV_T_HHEA, &len);
      if (!hh || len < 10) continue;
      base = otv_peek_i16(hh + hhea_off[t]);
      expect = base + (st == OTV_E_OK ? v - v0 : 0.0);
      st = OTV_E_OK;
    }
    if (!hok) continue; /* HarfBuzz has no value (table missing): nothing to compare */
    if (st != OTV_E_OK) {
      /* e.g. HarfBuzz answers hasc from hhea when the font has no OS/2 */
      if (!(t < 3 && !otv_face_table(c->face, OTV_T_OS2, NULL))) {
        CHECK_EQ(st, OTV_E_OK);
        fprintf(stderr, "  %s %s: no value for %s, hb %d\n", c->name, what, tags[t], hp);
      }
      continue;
    }
    if (asc_desc) {
      expect = (t == 0 || t == 5) ? fabs(expect) : (t == 1 || t == 6) ? -fabs(expect) : expect;
      base = (t == 0 || t == 5) ? fabs(base) : (t == 1 || t == 6) ? -fabs(base) : base;
    }
    double r = roundf((float)expect); /* HarfBuzz's rounding */
    n_mvar++;
    if ((double)hp != r) {
      /* a value within 1/1024 of a half-integer: HarfBuzz's float sum may land on the other
       * side of the tie (seen: Recursive undo = -205 + 12.5) */
      if (fabs((double)hp - r) == 1.0 && near_half(expect, 1.0 / 1024)) {
        n_mvar_tie++;
        continue;
      }
      /* MVAR records out of tag order (spec: must be sorted): HarfBuzz's binary search misses
       * some and applies no delta; we search linearly */
      if (c->mvar_unsorted && (double)hp == roundf((float)base)) {
        n_mvar_unsorted++;
        continue;
      }
      CHECK_EQ(hp, (long long)r);
      fprintf(stderr, "  %s %s %s: hb %d otvar %.6f\n", c->name, what, tags[t], hp, expect);
    }
    float vr = 0;
    otv_font_metric(c->loc, tag, OTV_METRICS_ROUND, &vr);
    if (t >= 3 || c->use_typo) CHECK_EQ(vr, floor(v + 0.5));
  }

  /* ---- left side bearings vs FreeType (needs the outline call) ---- */
  if (c->outline_ok == 0 || c->sb_maps) return;
  uint32_t lsb_step = c->glyph_count > 60 ? c->glyph_count / 60 : 1;
  for (uint32_t g = 0; g < c->glyph_count; g += lsb_step) {
    otv_glyph_metrics gm;
    otv_status st = otv_glyph_h_metrics(c->loc, g, 0, &gm);
    if (st == OTV_E_UNSUPPORTED && c->hidden && c->face->flavour == OTV_FLAVOUR_CFF2) st = OTV_E_OK;
    if (st == OTV_E_UNSUPPORTED) {
      c->outline_ok = 0;
      return;
    }
    CHECK_EQ(st, OTV_E_OK);
    if (st) return;
    c->outline_ok = 1;
    if (FT_Load_Glyph(c->ft, g, FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING)) continue;
    if (c->ft->glyph->outline.n_points == 0) continue;
    double fl = (double)c->ft->glyph->metrics.horiBearingX;
    double d = fabs(fl - gm.side_a);
    if (d > 1.5 && c->face->flavour != OTV_FLAVOUR_GLYF) {
      /* a CFF FontMatrix that is not 1/unitsPerEm (tests/fonts/cff_fm_*.otf): otvar applies
       * it, FreeType applies it normalized to unit scale and HarfBuzz ignores it; when both
       * engines agree on the bearing against us (within the tolerance: at a variable
       * location each rounds its own way, tests/fonts/cff2_flat_fm.otf), that is the case,
       * counted */
      hb_glyph_extents_t he;
      if (hb_font_get_glyph_extents(c->hb, g, &he) && fabs((double)he.x_bearing - fl) <= 1.5) {
        n_fontmatrix++;
        continue;
      }
    }
    n_lsb++;
    if (d > max_lsb_diff) max_lsb_diff = d;
    if (d > 1.5) {
      CHECK(d <= 1.5);
      fprintf(stderr, "  %s %s glyph %u: ft lsb %.0f otvar %.4f\n", c->name, what, g, fl,
              gm.side_a);
    }
  }
}

/* hide: rename HVAR and VVAR in a copy of the font, so every engine takes the phantom-point
 * path. randoms: number of random locations. */
static void check_font_sb(const char *path, bool hide, int randoms, bool sb_maps)
{
  ctx c;
  memset(&c, 0, sizeof c);
  c.sb_maps = sb_maps;
  c.name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  c.phantom_ok = -1;
  c.outline_ok = -1;
  size_t flen = 0;
  uint8_t *bytes = h_read_file(path, &flen);
  if (hide) {
    unsigned nt = flen >= 6 ? (unsigned)(bytes[4] << 8 | bytes[5]) : 0;
    bool any = false;
    for (unsigned i = 0; i < nt && 12 + 16 * (size_t)i + 16 <= flen; i++) {
      uint8_t *r = bytes + 12 + 16 * (size_t)i;
      if (otv_peek_u32(r) == OTV_T_HVAR || otv_peek_u32(r) == OTV_T_VVAR) {
        r[0] = r[0] == 'H' ? 'X' : 'Y';
        any = true;
      }
    }
    if (!any) {
      free(bytes);
      return;
    }
  }
  otv_error e = {0};
  if (otv_face_open_memory(bytes, flen, 0, NULL, &c.face, &e)) {
    char buf[200];
    otv_error_format(&e, buf, sizeof buf);
    fprintf(stderr, "%s: cannot open: %s\n", c.name, buf);
    CHECK(0);
    free(bytes);
    return;
  }
  otv_face_info info;
  otv_face_get_info(c.face, &info);
  c.glyph_count = info.glyph_count;
  c.axes = info.axis_count;
  c.has_vmtx = otv_face_table(c.face, OTV_T_VMTX, NULL) && otv_face_table(c.face, OTV_T_VHEA, NULL);
  c.has_hvar = otv_face_table(c.face, OTV_T_HVAR, NULL) != NULL;
  size_t vv_len = 0;
  const uint8_t *vv = otv_face_table(c.face, OTV_T_VVAR, &vv_len);
  c.has_vvar = vv != NULL;
  c.tsb_map = vv && vv_len >= 16 && otv_peek_u32(vv + 12) != 0; /* tsbMappingOffset */
  c.has_vorg = otv_face_table(c.face, OTV_T_VORG, NULL) != NULL;
  size_t os2_len;
  const uint8_t *os2 = otv_face_table(c.face, OTV_T_OS2, &os2_len);
  c.use_typo = os2 && os2_len > 64 && (otv_peek_u16(os2 + 62) & 0x80);
  CHECK_EQ(otv_location_create(c.face, &c.loc, NULL), OTV_E_OK);
  CHECK_EQ(otv_location_create(c.face, &c.loc0, NULL), OTV_E_OK);
  size_t mv_len;
  const uint8_t *mv = otv_face_table(c.face, OTV_T_MVAR, &mv_len);
  if (mv && mv_len >= 12) {
    unsigned size = otv_peek_u16(mv + 6), count = otv_peek_u16(mv + 8);
    for (unsigned i = 1; i < count && 12 + (size_t)(i + 1) * size <= mv_len; i++)
      if (otv_peek_u32(mv + 12 + (size_t)i * size) < otv_peek_u32(mv + 12 + (size_t)(i - 1) * size))
        c.mvar_unsorted = true;
  }
  hb_blob_t *blob =
      hb_blob_create((const char *)bytes, (unsigned)flen, HB_MEMORY_MODE_READONLY, NULL, NULL);
  hb_face_t *hf = hb_face_create(blob, 0);
  c.hb = hb_font_create(hf);
  hb_font_set_scale(c.hb, (int)info.units_per_em, (int)info.units_per_em);
  CHECK_EQ(FT_New_Memory_Face(ftlib, bytes, (FT_Long)flen, 0, &c.ft), 0);
  c.hidden = hide;
  if (hide) n_hidden++;
  c.adv = calloc(c.glyph_count + 1, sizeof(float));
  c.advr = calloc(c.glyph_count + 1, sizeof(float));
  c.gids = calloc(c.glyph_count + 1, sizeof(uint32_t));

  if (!c.has_vmtx && !hide) {
    /* the default location with no coordinates set in HarfBuzz: its centring path for
     * TrueType */
    hb_font_t *hb0 = hb_font_create(hf);
    hb_font_set_scale(hb0, (int)info.units_per_em, (int)info.units_per_em);
    size_t n0 = 0;
    uint32_t step0 = c.glyph_count > SAMPLE_GLYPHS ? c.glyph_count / SAMPLE_GLYPHS : 1;
    for (uint32_t g = 0; g < c.glyph_count; g += step0) c.gids[n0++] = g;
    compare_synth(&c, "default, no hb coords", c.loc0, hb0, false, n0);
    hb_font_destroy(hb0);
  }
  compare_location(&c, "default");
  for (unsigned i = 0; i < info.instance_count; i++) {
    char what[32];
    snprintf(what, sizeof what, "named %u", i);
    CHECK_EQ(otv_location_set_named(c.loc, i), OTV_E_OK);
    compare_location(&c, what);
  }
  otv_axis axes[64];
  unsigned na = 64;
  otv_face_axes(c.face, 0, &na, axes);
  double user[64];
  for (unsigned a = 0; a < na; a++) {
    for (int side = 0; side < 2; side++) {
      for (unsigned b = 0; b < na; b++) user[b] = axes[b].default_value;
      user[a] = side ? axes[a].max_value : axes[a].min_value;
      CHECK_EQ(otv_location_set_user_coords(c.loc, user, na), OTV_E_OK);
      compare_location(&c, side ? "max" : "min");
    }
  }
  if (na) {
    for (int side = 0; side < 2; side++) {
      for (unsigned b = 0; b < na; b++) user[b] = side ? axes[b].max_value : axes[b].min_value;
      CHECK_EQ(otv_location_set_user_coords(c.loc, user, na), OTV_E_OK);
      compare_location(&c, side ? "all max" : "all min");
    }
    for (int i = 0; i < randoms; i++) {
      for (unsigned b = 0; b < na; b++)
        user[b] =
            axes[b].min_value + (rnd() / 4294967296.0) * (axes[b].max_value - axes[b].min_value);
      CHECK_EQ(otv_location_set_user_coords(c.loc, user, na), OTV_E_OK);
      compare_location(&c, "random");
    }
  }
  if (c.phantom_ok == 0) {
    printf("SKIP %s: no HVAR%s and otv_glyf_phantoms is not available yet\n", c.name,
           c.has_vmtx && !c.has_vvar ? "/VVAR" : "");
    skipped_phantom++;
  }
  if (c.outline_ok == 0) skipped_outline++;
  free(c.adv);
  free(c.advr);
  free(c.gids);
  FT_Done_Face(c.ft);
  hb_font_destroy(c.hb);
  hb_face_destroy(hf);
  hb_blob_destroy(blob);
  otv_location_destroy(c.loc);
  otv_location_destroy(c.loc0);
  otv_face_close(c.face);
  free(bytes);
}

static void check_font(const char *path, bool hide, int randoms)
{
  check_font_sb(path, hide, randoms, false);
}

/* No test font has HVAR LSB/RSB or VVAR TSB/BSB maps: fontTools (Debian's /usr/bin/python3)
 * builds copies of two test fonts whose HVAR (and VVAR) map every glyph's advance and side
 * bearings to small deltas of a new ItemVariationStore (the same construction as
 * tests/cli/test_metrics.sh, which checks the side bearings against fontTools' own reading).
 * Here HarfBuzz checks what it can see: advances (HVAR/VVAR advance maps) and, through the
 * VVAR TSB map, the vertical origins; FreeType the horizontal advances. */
static const char sb_script[] =
    "import sys\n"
    "from fontTools.ttLib import TTFont, newTable\n"
    "from fontTools.ttLib.tables import otTables as ot\n"
    "from fontTools.varLib import builder\n"
    "from fontTools.varLib.varStore import OnlineVarStoreBuilder\n"
    "fonts, out = sys.argv[1], sys.argv[2]\n"
    "SUP = [{'wght': (0, 1, 1)}, {'wdth': (-1, -1, 0)}, {'wght': (0, 0.5, 1)}]\n"
    "def table(tag, f, kinds):\n"
    "    sb = OnlineVarStoreBuilder([a.axisTag for a in f['fvar'].axes])\n"
    "    sb.setSupports(SUP)\n"
    "    order = f.getGlyphOrder()\n"
    "    t = newTable(tag)\n"
    "    t.table = getattr(ot, tag)()\n"
    "    t.table.Version = 0x00010000\n"
    "    maps = {k: [sb.storeDeltas([((g * 7 + ki * 5 + i * 3) % 23) - 11 for i in range(3)])\n"
    "                for g in range(len(order))] for ki, k in enumerate(kinds)}\n"
    "    t.table.VarStore = sb.finish()\n"
    "    allk = ('AdvWidthMap', 'LsbMap', 'RsbMap') if tag == 'HVAR' else \\\n"
    "           ('AdvHeightMap', 'TsbMap', 'BsbMap', 'VOrgMap')\n"
    "    for k in allk:\n"
    "        setattr(t.table, k, builder.buildVarIdxMap(maps[k], order) if k in maps else None)\n"
    "    return t\n"
    "for src, name, tags in (('Roboto-Variable.ABC.ttf', 'roboto-sb', ('HVAR',)),\n"
    "                        ('PartialInstancerTest-VF.ttf', 'pit-sb', ('HVAR', 'VVAR'))):\n"
    "    f = TTFont('%s/%s' % (fonts, src))\n"
    "    for tag in tags:\n"
    "        f[tag] = table(tag, f, ('AdvWidthMap', 'LsbMap', 'RsbMap') if tag == 'HVAR'\n"
    "                       else ('AdvHeightMap', 'TsbMap', 'BsbMap'))\n"
    "    f.save('%s/%s.ttf' % (out, name))\n";

static void check_sb_fonts(const char *fonts)
{
  char dir[] = "/tmp/otv_sb_XXXXXX";
  if (access("/usr/bin/python3", X_OK) != 0 || !mkdtemp(dir)) {
    printf("SKIP side-bearing-map fonts: no /usr/bin/python3 or no temporary directory\n");
    return;
  }
  char cmd[8192];
  snprintf(cmd, sizeof cmd, "/usr/bin/python3 - '%s' '%s'", fonts, dir);
  FILE *p = popen(cmd, "w");
  int rc = -1;
  if (p) {
    fputs(sb_script, p);
    rc = pclose(p);
  }
  static const char *const names[] = {"roboto-sb.ttf", "pit-sb.ttf"};
  for (size_t i = 0; i < 2; i++) {
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    if (rc == 0) {
      check_font_sb(path, false, RANDOM_LOCATIONS / 8, true);
      n_sb_fonts++;
    }
    remove(path);
  }
  rmdir(dir);
  if (rc != 0) printf("SKIP side-bearing-map fonts: fontTools could not build them\n");
}

static int check_dir(const char *dir, const char *const *only, size_t n_only, bool hide)
{
  if (!dir) return 0;
  int count = 0;
  if (only) {
    for (size_t i = 0; i < n_only; i++) {
      char path[4096];
      snprintf(path, sizeof path, "%s/%s", dir, only[i]);
      FILE *f = fopen(path, "rb");
      if (!f) {
        printf("SKIP %s: not in the font cache (tests/fetch-fonts.sh)\n", only[i]);
        continue;
      }
      fclose(f);
      check_font(path, false, RANDOM_LOCATIONS);
      count++;
    }
    return count;
  }
  DIR *d = opendir(dir);
  if (!d) return 0;
  struct dirent *de;
  while ((de = readdir(d))) {
    size_t l = strlen(de->d_name);
    if (l < 5 || (strcmp(de->d_name + l - 4, ".ttf") && strcmp(de->d_name + l - 4, ".otf")))
      continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
    check_font(path, hide, hide ? RANDOM_LOCATIONS / 8 : RANDOM_LOCATIONS);
    count++;
  }
  closedir(d);
  return count;
}

int main(void)
{
  rng_state = h_seed(rng_state);
  CHECK_EQ(FT_Init_FreeType(&ftlib), 0);
  const char *fonts = getenv("OTV_FONTS");
  CHECK(check_dir(fonts ? fonts : "tests/fonts", NULL, 0, false) > 10);
  /* again with HVAR/VVAR hidden: the gvar phantom-point path of every TrueType font (and the
   * CFF2 fallback, where all engines keep the default advances) */
  check_dir(fonts ? fonts : "tests/fonts", NULL, 0, true);
  static const char *const cached[] = {
      "Inter-roman.var.ttf",       "RobotoFlex-latin.ttf",
      "Recursive-latin.ttf",       "SourceSerif4Variable-Roman.otf",
      "SourceSans3VF-Upright.ttf", "Cantarell-VF.otf",
      "Karla-Italic-VF.ttf"};
  check_dir(getenv("OTV_FONT_CACHE"), cached, sizeof cached / sizeof *cached, false);
  check_sb_fonts(fonts ? fonts : "tests/fonts");
  FT_Done_FreeType(ftlib);
  printf("fonts with HVAR/VVAR hidden %ld (HarfBuzz CFF2 zero advances skipped %ld); locations "
         "%ld; h advances vs HarfBuzz %ld (ties %ld), vs FreeType %ld (16.16 rounding "
         "%ld, negative advance wrapped to u16 %ld); v advances %ld; MVAR values %ld (ties %ld, "
         "unsorted-MVAR misses %ld); LSB vs FreeType %ld (max diff %.4f)\n",
         n_hidden, n_hb_cff2_zero, n_locs, n_adv_hb, n_tie_hb, n_adv_ft, n_fix_ft, n_wrap_ft,
         n_vadv, n_mvar, n_mvar_tie, n_mvar_unsorted, n_lsb, max_lsb_diff);
  printf("synthesized vertical metrics (no vmtx): advances %ld (roundf ties %ld); origins %ld vs "
         "HarfBuzz's centring (ties %ld, CFF within %.0f: %ld); hb_font_get_glyph_v_origin equal "
         "%ld (TrueType without coords %ld), HarfBuzz 6.0 top phantom point once coords are set "
         "%ld, font ascender for CFF %ld; HarfBuzz without glyph extents %ld\n",
         n_syn_adv, n_syn_tie, n_syn_org, n_syn_org_tie, max_syn_org_cff, n_syn_org_cff,
         n_syn_hb_same, n_syn_hb_default, n_syn_hb_phantom, n_syn_hb_cff_asc, n_syn_hb_no_extents);
  CHECK(n_syn_hb_default > 0);
  printf("synthesized v advances vs FreeType (its own synthesis, see compare_synth): %ld, equal "
         "%ld, max difference %.0f (%s)\n",
         n_syn_ft, n_syn_ft_same, max_syn_ft, max_syn_ft_where);
  printf("vertical origins of fonts with vmtx vs HarfBuzz %ld (VVAR TSB map, rounded apart as "
         "HarfBuzz does: %ld; ties %ld; CFF without VORG skipped, HarfBuzz answers the ascender: "
         "%ld); fonts built with HVAR LSB/RSB + VVAR TSB/BSB maps: %ld\n",
         n_vorg_hb, n_vorg_tsbmap, n_vorg_tie, n_vorg_cff_skip, n_sb_fonts);
  printf("CFF glyphs skipped because HarfBuzz ignores a FontMatrix that is not 1/unitsPerEm "
         "(synthesized origins and LSBs): %ld\n",
         n_fontmatrix);
  if (skipped_outline)
    printf("SKIP side bearings of %ld fonts: otv_glyph_outline not available yet\n",
           skipped_outline);
  return h_done("test_metrics");
}

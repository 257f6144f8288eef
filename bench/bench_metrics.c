/*
 * bench_metrics.c - advances of every glyph at many locations: otvar (otv_glyph_advances, one
 * batch call per location, rounded) vs HarfBuzz (hb_font_get_glyph_h_advances at scale = upem)
 * vs FreeType (FT_Get_Advances, FT_LOAD_NO_SCALE), each including the cost of moving to the
 * location (otv_location_set_normalized / hb_font_set_var_coords_normalized /
 * FT_Set_Var_Blend_Coordinates). otvar returns unrounded floats (rounding is one floorf more).
 * The same normalized coordinates go to every engine; the results are compared (differences are
 * counted, not asserted; BENCH_VERBOSE=1 prints some).
 * Observed: HarfBuzz differs only by exact-half ties (roundf of a negative delta); FreeType 2.12
 * also differs on some glyphs at the first location set on a fresh FT_Face (HarfBuzz agrees with
 * otvar there), besides its 16.16 rounding. Ratios are
 * HarfBuzz time / otvar time (> 1: otvar faster). Also: vertical advances (synthesized, as
 * HarfBuzz does, when the font has no vmtx), and the phantom-point path (HVAR hidden) against
 * FreeType/HarfBuzz.
 *
 * usage: bench_metrics [FONT ...]   (default: real VFs in $OTV_FONT_CACHE + tests/fonts)
 * Build Release without sanitizers for meaningful numbers. Nothing here asserts on time.
 */
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_ADVANCES_H
#include FT_MULTIPLE_MASTERS_H
#include <hb-ot.h>
#include <hb.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "otvar.h"

#define LOCATIONS 200

/* shared machine: this thread's CPU time */
static double now(void) { return bench_seconds(CLOCK_THREAD_CPUTIME_ID); }

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void) { return (uint32_t)(bench_xorshift(&rng) >> 32); }

static FT_Library ftlib;

/* hide: rename HVAR/VVAR so every engine uses the phantom points. */
static void bench_font(const char *path, bool hide)
{
  size_t len;
  uint8_t *bytes = bench_read_file(path, &len);
  if (!bytes) {
    printf("SKIP %s: cannot read\n", path);
    return;
  }
  if (hide) {
    unsigned nt = (unsigned)(bytes[4] << 8 | bytes[5]);
    for (unsigned i = 0; i < nt; i++) {
      uint8_t *r = bytes + 12 + 16 * (size_t)i;
      if (!memcmp(r, "HVAR", 4)) r[0] = 'X';
      if (!memcmp(r, "VVAR", 4)) r[0] = 'Y';
    }
  }
  const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  otv_face *face = NULL;
  otv_error e = {0};
  if (otv_face_open_memory(bytes, len, 0, NULL, &face, &e)) {
    printf("SKIP %s: %s\n", name, e.msg);
    free(bytes);
    return;
  }
  otv_face_info fi;
  otv_face_get_info(face, &fi);
  if (!fi.axis_count) {
    otv_face_close(face);
    free(bytes);
    return;
  }
  bool vertical = otv_face_table(face, OTV_TAG('v', 'm', 't', 'x'), NULL) != NULL;
  otv_location *loc = NULL;
  otv_location_create(face, &loc, NULL);
  hb_blob_t *blob =
      hb_blob_create((const char *)bytes, (unsigned)len, HB_MEMORY_MODE_READONLY, NULL, NULL);
  hb_face_t *hf = hb_face_create(blob, 0);
  hb_font_t *hb = hb_font_create(hf);
  hb_font_set_scale(hb, fi.units_per_em, fi.units_per_em);
  FT_Face ft = NULL;
  FT_New_Memory_Face(ftlib, bytes, (FT_Long)len, 0, &ft);

  uint32_t n = fi.glyph_count, na = fi.axis_count;
  uint32_t *gids = malloc(n * sizeof *gids);
  float *a = malloc(n * sizeof *a);
  hb_position_t *h = malloc(n * sizeof *h);
  FT_Fixed *fa = malloc(n * sizeof *fa);
  otv_f2dot14(*coords)[64] = malloc(LOCATIONS * sizeof *coords);
  for (uint32_t g = 0; g < n; g++) gids[g] = g;
  for (int l = 0; l < LOCATIONS; l++)
    for (uint32_t x = 0; x < na && x < 64; x++)
      coords[l][x] = (otv_f2dot14)((int)(rnd() % 32769) - 16384);
  int locs = hide ? LOCATIONS / 10 : LOCATIONS; /* the phantom path loads every glyph */

  /* dir 1: vertical advances; a font without vmtx gets otvar's synthesized ones
   * (OTV_METRICS_SYNTHESIZE, HarfBuzz's ascender - descender: HarfBuzz should agree; FreeType
   * synthesizes differently and is only timed) */
  for (int dir = 0; dir < 2; dir++) {
    double t_otv = 0, t_hb = 0, t_ft = 0;
    long mismatch_hb = 0, mismatch_ft = 0, ties_hb = 0, fixed_ft = 0;
    for (int l = 0; l < locs; l++) {
      int hc[64];
      FT_Fixed fc[64];
      for (uint32_t x = 0; x < na && x < 64; x++) {
        hc[x] = coords[l][x];
        fc[x] = (FT_Fixed)coords[l][x] * 4;
      }
      double t0 = now();
      otv_location_set_normalized(loc, coords[l], na);
      otv_glyph_advances(loc, gids, n, dir ? OTV_METRICS_VERTICAL | OTV_METRICS_SYNTHESIZE : 0, a);
      double t1 = now();
      hb_font_set_var_coords_normalized(hb, hc, na);
      if (dir)
        hb_font_get_glyph_v_advances(hb, n, gids, sizeof *gids, h, sizeof *h);
      else
        hb_font_get_glyph_h_advances(hb, n, gids, sizeof *gids, h, sizeof *h);
      double t2 = now();
      FT_Set_Var_Blend_Coordinates(ft, na, fc);
      FT_Get_Advances(ft, 0, n, FT_LOAD_NO_SCALE | (dir ? FT_LOAD_VERTICAL_LAYOUT : 0), fa);
      double t3 = now();
      t_otv += t1 - t0;
      t_hb += t2 - t1;
      t_ft += t3 - t2;
      for (uint32_t g = 0; g < n; g++) {
        /* classes (see tests/oracle/test_metrics.c): an exact half rounds down in HarfBuzz
         * (roundf of a negative delta); FreeType's 16.16 sums land within 1/64 of a half */
        float r = floorf(a[g] + 0.5f), frac = a[g] - floorf(a[g]);
        float hv = (float)(dir ? -h[g] : h[g]);
        if (hv != r) {
          if (frac == 0.5f && hv == r - 1)
            ties_hb++;
          else
            mismatch_hb++;
        }
        if ((float)fa[g] != r) {
          if (fabsf(frac - 0.5f) <= 1.0f / 64 && fabsf((float)fa[g] - r) <= 1)
            fixed_ft++;
          else if (mismatch_ft++ < 3 && getenv("BENCH_VERBOSE"))
            printf("  ft differs: glyph %u location %d: otvar %.4f FreeType %ld\n", g, l, a[g],
                   (long)fa[g]);
        }
      }
    }
    double per = (double)locs * n;
    printf("%-40s %s%s %5u glyphs x %3d locations: otvar %7.1f ns/glyph, HarfBuzz %7.1f (x%.2f), "
           "FreeType %8.1f (x%.2f); differences hb %ld (+%ld ties) ft %ld (+%ld 16.16)\n",
           name, dir ? (vertical ? "v" : "v synth") : "h", hide ? " phantom" : "", n, locs,
           1e9 * t_otv / per, 1e9 * t_hb / per, t_hb / t_otv, 1e9 * t_ft / per, t_ft / t_otv,
           mismatch_hb, ties_hb, mismatch_ft, fixed_ft);
  }
  free(gids);
  free(a);
  free(h);
  free(fa);
  free(coords);
  FT_Done_Face(ft);
  hb_font_destroy(hb);
  hb_face_destroy(hf);
  hb_blob_destroy(blob);
  otv_location_destroy(loc);
  otv_face_close(face);
  free(bytes);
}

int main(int argc, char **argv)
{
  FT_Init_FreeType(&ftlib);
  if (argc > 1) {
    for (int i = 1; i < argc; i++) bench_font(argv[i], false);
  } else {
    const char *cache = getenv("OTV_FONT_CACHE");
    const char *fonts = getenv("OTV_FONTS");
    static const char *const names[] = {"Inter-roman.var.ttf", "RobotoFlex-latin.ttf",
                                        "Recursive-latin.ttf", "SourceSerif4Variable-Roman.otf",
                                        "SourceSans3VF-Upright.ttf"};
    char path[4096];
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
      snprintf(path, sizeof path, "%s/%s", cache ? cache : "fonts-cache", names[i]);
      bench_font(path, false);
    }
    snprintf(path, sizeof path, "%s/%s", cache ? cache : "fonts-cache", "Inter-roman.var.ttf");
    bench_font(path, true);
    snprintf(path, sizeof path, "%s/%s", fonts ? fonts : "tests/fonts",
             "SourceSerifVariable-Roman-VVAR.abc.ttf");
    bench_font(path, false);
    bench_font(path, true);
  }
  FT_Done_FreeType(ftlib);
  return 0;
}

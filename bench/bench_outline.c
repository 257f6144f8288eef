/*
 * bench_outline.c - glyph outline extraction at many locations: otvar vs HarfBuzz vs FreeType.
 *
 *   bench_outline [-n LOCATIONS] [-r REPEATS] [-e otvar|hb|ft] FONT...
 *
 * For each font, the same N random normalized locations (fixed seed; all axes) are used by all
 * three engines. One pass = for each location: set the coordinates, then draw every glyph's
 * outline, walking every segment into a pen that sums the coordinates:
 *   otvar     otv_location_set_normalized + otv_glyph_outline (unrounded floats)
 *   HarfBuzz  hb_font_set_var_coords_normalized + hb_font_get_glyph_shape (draw_glyph in >= 7),
 *             scale = upem
 *   FreeType  FT_Set_Var_Blend_Coordinates + FT_Load_Glyph(NO_SCALE | NO_HINTING) +
 *             FT_Outline_Decompose
 * Each engine runs REPEATS passes; the best is reported as glyphs/second, with the ratios
 * otvar/HarfBuzz and otvar/FreeType, and otvar's allocations during the timed passes.
 * -e runs one engine only (e.g. under `valgrind --tool=callgrind` to compare instruction counts,
 * which a loaded machine does not disturb).
 * Works for glyf, CFF and CFF2 fonts. Not a test: nothing asserts on time.
 */
#include "face.h" /* the component cache switch (loc->glyf.cc_off) */
#include "otvar.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_MULTIPLE_MASTERS_H
#include FT_OUTLINE_H
#include <hb.h>

typedef struct sink {
  double sum;
  long segs;
} sink;

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- otvar ---- */
static long allocs;
static void *count_realloc(void *ud, void *p, size_t old_len, size_t new_len)
{
  (void)ud;
  (void)old_len;
  if (!new_len) {
    free(p);
    return NULL;
  }
  allocs++;
  return realloc(p, new_len);
}
static void o_move(void *c, float x, float y) { ((sink *)c)->sum += x + y, ((sink *)c)->segs++; }
static void o_line(void *c, float x, float y) { ((sink *)c)->sum += x + y, ((sink *)c)->segs++; }
static void o_quad(void *c, float a, float b, float x, float y)
{
  ((sink *)c)->sum += a + b + x + y, ((sink *)c)->segs++;
}
static void o_cubic(void *c, float a, float b, float d, float e, float x, float y)
{
  ((sink *)c)->sum += a + b + d + e + x + y, ((sink *)c)->segs++;
}
static void o_close(void *c) { ((sink *)c)->segs++; }
static const otv_pen o_pen = {o_move, o_line, o_quad, o_cubic, o_close};

/* ---- HarfBuzz ---- */
static void h_move(hb_draw_funcs_t *d, void *c, hb_draw_state_t *st, float x, float y, void *u)
{
  (void)d, (void)st, (void)u;
  o_move(c, x, y);
}
static void h_line(hb_draw_funcs_t *d, void *c, hb_draw_state_t *st, float x, float y, void *u)
{
  (void)d, (void)st, (void)u;
  o_line(c, x, y);
}
static void h_quad(hb_draw_funcs_t *d, void *c, hb_draw_state_t *st, float a, float b, float x,
                   float y, void *u)
{
  (void)d, (void)st, (void)u;
  o_quad(c, a, b, x, y);
}
static void h_cubic(hb_draw_funcs_t *d, void *c, hb_draw_state_t *st, float a, float b, float e,
                    float f, float x, float y, void *u)
{
  (void)d, (void)st, (void)u;
  o_cubic(c, a, b, e, f, x, y);
}
static void h_close(hb_draw_funcs_t *d, void *c, hb_draw_state_t *st, void *u)
{
  (void)d, (void)st, (void)u;
  o_close(c);
}

/* ---- FreeType ---- */
static int f_move(const FT_Vector *to, void *c)
{
  o_move(c, (float)to->x, (float)to->y);
  return 0;
}
static int f_line(const FT_Vector *to, void *c)
{
  o_line(c, (float)to->x, (float)to->y);
  return 0;
}
static int f_conic(const FT_Vector *a, const FT_Vector *to, void *c)
{
  o_quad(c, (float)a->x, (float)a->y, (float)to->x, (float)to->y);
  return 0;
}
static int f_cubic(const FT_Vector *a, const FT_Vector *b, const FT_Vector *to, void *c)
{
  o_cubic(c, (float)a->x, (float)a->y, (float)b->x, (float)b->y, (float)to->x, (float)to->y);
  return 0;
}

static unsigned long long rng = 0x0b5e55edULL;
static int rand_coord(void)
{
  rng ^= rng >> 12;
  rng ^= rng << 25;
  rng ^= rng >> 27;
  return (int)((rng * 2685821657736338717ULL) % 32769u) - 16384;
}

static unsigned char *read_file(const char *path, size_t *len)
{
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *b = malloc(n > 0 ? (size_t)n : 1);
  *len = fread(b, 1, n > 0 ? (size_t)n : 0, f);
  fclose(f);
  return b;
}

static const char *base_name(const char *p)
{
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

static int engines = 7; /* bit 0 otvar, 1 HarfBuzz, 2 FreeType */

static int bench_font(const char *path, int nloc, int reps)
{
  size_t len;
  unsigned char *data = read_file(path, &len);
  if (!data) {
    fprintf(stderr, "bench_outline: cannot read %s\n", path);
    return 1;
  }
  otv_options opt = {count_realloc, NULL, 0};
  otv_face *face = NULL;
  otv_error err;
  if (otv_face_open_memory(data, len, 0, &opt, &face, &err)) {
    char buf[200];
    otv_error_format(&err, buf, sizeof buf);
    fprintf(stderr, "bench_outline: %s: %s\n", path, buf);
    free(data);
    return 1;
  }
  otv_face_info info;
  otv_face_get_info(face, &info);
  unsigned axes = info.axis_count, ng = info.glyph_count;
  otv_f2dot14 *loc_o = calloc((size_t)nloc * (axes ? axes : 1), sizeof *loc_o);
  int *loc_h = calloc((size_t)nloc * (axes ? axes : 1), sizeof *loc_h);
  FT_Fixed *loc_f = calloc((size_t)nloc * (axes ? axes : 1), sizeof *loc_f);
  for (int i = 0; i < nloc; i++)
    for (unsigned a = 0; a < axes; a++) {
      int v = rand_coord();
      loc_o[(size_t)i * axes + a] = (otv_f2dot14)v;
      loc_h[(size_t)i * axes + a] = v;
      loc_f[(size_t)i * axes + a] = (FT_Fixed)v * 4;
    }

  otv_location *loc = NULL;
  otv_location_create(face, &loc, NULL);
  /* OTV_BENCH_NO_CC=1: without the component cache (internal switch; README "component cache") */
  const char *no_cc = getenv("OTV_BENCH_NO_CC");
  if (loc && no_cc && *no_cc && *no_cc != '0') loc->glyf.cc_off = true;
  /* OTV_BENCH_NO_GC=1: without the glyph cache (internal switch; README "glyph cache") */
  const char *no_gc = getenv("OTV_BENCH_NO_GC");
  if (loc && no_gc && *no_gc && *no_gc != '0') loc->glyf.gc_off = true;
  /* OTV_CFF_NO_COMPILE=1: CFF2 glyphs are not compiled (internal switch; README-cff) */
  const char *no_comp = getenv("OTV_CFF_NO_COMPILE");
  if (loc && no_comp && *no_comp && *no_comp != '0') loc->cff.comp_off = true;
  hb_blob_t *blob =
      hb_blob_create((const char *)data, (unsigned)len, HB_MEMORY_MODE_READONLY, NULL, NULL);
  hb_face_t *hface = hb_face_create(blob, 0);
  hb_font_t *hfont = hb_font_create(hface);
  hb_font_set_scale(hfont, info.units_per_em, info.units_per_em);
  hb_draw_funcs_t *df = hb_draw_funcs_create();
  hb_draw_funcs_set_move_to_func(df, h_move, NULL, NULL);
  hb_draw_funcs_set_line_to_func(df, h_line, NULL, NULL);
  hb_draw_funcs_set_quadratic_to_func(df, h_quad, NULL, NULL);
  hb_draw_funcs_set_cubic_to_func(df, h_cubic, NULL, NULL);
  hb_draw_funcs_set_close_path_func(df, h_close, NULL, NULL);
  FT_Library lib;
  FT_Face ft;
  FT_Init_FreeType(&lib);
  int ft_ok = !FT_New_Memory_Face(lib, data, (FT_Long)len, 0, &ft);
  static const FT_Outline_Funcs ff = {f_move, f_line, f_conic, f_cubic, 0, 0};

  double best[3] = {1e30, 1e30, 1e30};
  sink sk[3] = {{0, 0}, {0, 0}, {0, 0}};
  long otv_errors = 0, allocs_timed = 0;
  /* warm-up pass for otvar over the locations (grows the location's scratch once) */
  for (int i = 0; i < nloc && (engines & 1); i++) {
    otv_location_set_normalized(loc, loc_o + (size_t)i * axes, axes);
    for (unsigned g = 0; g < ng; g++) otv_glyph_outline(loc, g, 0, &o_pen, &sk[0]);
  }
  for (int r = 0; r < reps; r++) {
    sink s = {0, 0};
    long a0 = allocs;
    if (!(engines & 1)) goto hb;
    double t = now();
    for (int i = 0; i < nloc; i++) {
      otv_location_set_normalized(loc, loc_o + (size_t)i * axes, axes);
      for (unsigned g = 0; g < ng; g++)
        if (otv_glyph_outline(loc, g, 0, &o_pen, &s)) otv_errors++;
    }
    t = now() - t;
    allocs_timed += allocs - a0;
    if (t < best[0]) best[0] = t;
    sk[0] = s;
  hb:
    if (!(engines & 2)) goto ft;
    s = (sink){0, 0};
    t = now();
    for (int i = 0; i < nloc; i++) {
      if (axes) hb_font_set_var_coords_normalized(hfont, loc_h + (size_t)i * axes, axes);
      for (unsigned g = 0; g < ng; g++)
#if HB_VERSION_ATLEAST(7, 0, 0)
        hb_font_draw_glyph(hfont, g, df, &s);
#else
        hb_font_get_glyph_shape(hfont, g, df, &s);
#endif
    }
    t = now() - t;
    if (t < best[1]) best[1] = t;
    sk[1] = s;
  ft:
    if (ft_ok && (engines & 4)) {
      s = (sink){0, 0};
      t = now();
      for (int i = 0; i < nloc; i++) {
        if (axes) FT_Set_Var_Blend_Coordinates(ft, axes, loc_f + (size_t)i * axes);
        for (unsigned g = 0; g < ng; g++)
          if (!FT_Load_Glyph(ft, g, FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING) &&
              ft->glyph->format == FT_GLYPH_FORMAT_OUTLINE)
            FT_Outline_Decompose(&ft->glyph->outline, &ff, &s);
      }
      t = now() - t;
      if (t < best[2]) best[2] = t;
      sk[2] = s;
    }
  }
  double n = (double)nloc * ng;
  /* an engine that did not run (-e, or FreeType unable to open the font) prints 0 glyphs/s and
   * no ratio with it */
  bool ran[3] = {(engines & 1) != 0, (engines & 2) != 0, ft_ok && (engines & 4) != 0};
  double rate[3];
  for (int e = 0; e < 3; e++) rate[e] = ran[e] ? n / best[e] : 0.0;
  char r_hb[16] = "     -", r_ft[16] = "     -";
  if (ran[0] && ran[1]) snprintf(r_hb, sizeof r_hb, "%5.2fx", best[1] / best[0]);
  if (ran[0] && ran[2]) snprintf(r_ft, sizeof r_ft, "%5.2fx", best[2] / best[0]);
  printf("%-32s %5u glyphs %2u axes %4d locs | glyphs/s: otvar %9.0f  hb %9.0f  ft %9.0f | "
         "otvar/hb %s  otvar/ft %s | otvar allocs in timed passes %ld%s\n",
         base_name(path), ng, axes, nloc, rate[0], rate[1], rate[2], r_hb, r_ft, allocs_timed,
         otv_errors ? " (otvar errors!)" : "");
  fprintf(stderr, "  segments walked: otvar %ld hb %ld ft %ld\n", sk[0].segs, sk[1].segs,
          sk[2].segs);

  if (ft_ok) FT_Done_Face(ft);
  FT_Done_FreeType(lib);
  hb_draw_funcs_destroy(df);
  hb_font_destroy(hfont);
  hb_face_destroy(hface);
  hb_blob_destroy(blob);
  otv_location_destroy(loc);
  otv_face_close(face);
  free(loc_o);
  free(loc_h);
  free(loc_f);
  free(data);
  return 0;
}

int main(int argc, char **argv)
{
  int nloc = 20, reps = 3, rc = 0, nfonts = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-n") && i + 1 < argc) {
      nloc = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "-e") && i + 1 < argc) {
      i++;
      engines = !strcmp(argv[i], "otvar") ? 1
                : !strcmp(argv[i], "hb")  ? 2
                : !strcmp(argv[i], "ft")  ? 4
                                          : 7;
    } else if (!strcmp(argv[i], "-r") && i + 1 < argc) {
      reps = atoi(argv[++i]);
    } else if (argv[i][0] == '-') {
      fprintf(stderr,
              "usage: bench_outline [-n LOCATIONS] [-r REPEATS] [-e otvar|hb|ft] FONT...\n");
      return 2;
    } else {
      rc |= bench_font(argv[i], nloc < 1 ? 1 : nloc, reps < 1 ? 1 : reps);
      nfonts++;
    }
  }
  if (!nfonts) {
    fprintf(stderr, "usage: bench_outline [-n LOCATIONS] [-r REPEATS] [-e otvar|hb|ft] FONT...\n");
    return 2;
  }
  printf("HarfBuzz %s, FreeType %d.%d.%d, otvar %s\n", hb_version_string(), FREETYPE_MAJOR,
         FREETYPE_MINOR, FREETYPE_PATCH, otv_version());
  return rc;
}

/*
 * bench_outline.c - glyph outline extraction at many locations: otvar vs HarfBuzz vs FreeType.
 *
 *   bench_outline [-n LOCATIONS] [-r REPEATS] [-e otvar|hb|ft] [-m warm|cold|first] FONT...
 *
 * For each font, the same N random normalized locations (fixed seed; all axes) are used by all
 * three engines. One pass = for each location: set the coordinates, then draw every glyph's
 * outline, walking every segment into a pen that sums the coordinates. Three scenarios (-m):
 *   warm   (default) one location object for everything; a warm-up pass over the N locations
 *          first, so the timed passes find every cache filled (the second draw and later)
 *   cold   a new location object per location (otv_location_create ... destroy; HarfBuzz: a new
 *          hb_font; FreeType has no per-location object: its face is moved), every glyph drawn
 *          once at it: what a renderer pays opening a font at a new setting
 *   first  one new location object per pass, moved through the N locations, every glyph drawn
 *          once at each; no warm-up: the first pass of warm, caches filling as it goes
 * The calls per engine:
 *   otvar     otv_location_set_normalized + otv_glyph_outline (unrounded floats)
 *   HarfBuzz  hb_font_set_var_coords_normalized + hb_font_get_glyph_shape (draw_glyph in >= 7),
 *             scale = upem
 *   FreeType  FT_Set_Var_Blend_Coordinates + FT_Load_Glyph(NO_SCALE | NO_HINTING) +
 *             FT_Outline_Decompose
 * Each engine runs REPEATS passes; the best is reported as glyphs/second, with the ratios
 * otvar/HarfBuzz and otvar/FreeType, and otvar's allocations during the timed passes; then
 * otvar's memory per location object (its peak bytes above what the face holds, and its number
 * of allocations and reallocations over its life, both from the counting allocator).
 * Under callgrind, --toggle-collect=pass_otvar (pass_hb, pass_ft) counts one engine's timed
 * passes alone (the functions are never inlined).
 * -e runs one engine only (e.g. under `valgrind --tool=callgrind` to compare instruction counts,
 * which a loaded machine does not disturb).
 * Works for glyf, CFF and CFF2 fonts. Not a test: nothing asserts on time.
 */
#include "bench_util.h"
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

/* OTV_BENCH_CPUTIME=1: the process's CPU time instead of the wall clock (a pass that loses the
 * core to another process on a busy machine then counts only what it ran) */
static clockid_t clock_id = CLOCK_MONOTONIC;
static double now(void) { return bench_seconds(clock_id); }

/* ---- otvar ---- */
/* The counting allocator: allocations (and reallocations), live bytes and their peak. */
static long allocs;
static size_t live, peak;
static void *count_realloc(void *ud, void *p, size_t old_len, size_t new_len)
{
  (void)ud;
  if (!new_len) {
    free(p);
    live -= p ? old_len : 0;
    return NULL;
  }
  allocs++;
  void *q = realloc(p, new_len);
  if (q) {
    live += new_len - (p ? old_len : 0);
    if (live > peak) peak = live;
  }
  return q;
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

static uint64_t rng = 0x0b5e55edULL;
static int rand_coord(void) { return (int)(bench_xorshift(&rng) % 32769u) - 16384; }

static const char *base_name(const char *p)
{
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

static int engines = 7; /* bit 0 otvar, 1 HarfBuzz, 2 FreeType */
enum { M_WARM, M_COLD, M_FIRST };
static int mode = M_WARM;
static const char *const mode_names[] = {"warm", "cold", "first"};

#define NOINLINE __attribute__((noinline))

/* What one font's passes share. */
typedef struct bench {
  otv_face *face;
  otv_location *loc; /* warm: the one location */
  unsigned axes, ng;
  int nloc;
  const otv_f2dot14 *loc_o;
  const int *loc_h;
  const FT_Fixed *loc_f;
  bool no_cc, no_gc, no_comp;
  long errors;
  /* otvar memory per location object: the largest peak (bytes above the face's), the sum of
   * peaks and of allocation counts, and how many objects */
  size_t mem_peak_max;
  double mem_peak_sum, mem_allocs_sum;
  long mem_objs;
  hb_face_t *hface;
  hb_font_t *hfont; /* warm: the one font */
  hb_draw_funcs_t *df;
  unsigned upem;
  FT_Face ft;
} bench;

/* The internal cache switches of the environment (OTV_BENCH_NO_CC, ...) on a new location. */
static otv_location *new_location(bench *b)
{
  otv_location *loc = NULL;
  if (otv_location_create(b->face, &loc, NULL)) return NULL;
  if (b->no_cc) loc->glyf.cc_off = true;
  if (b->no_gc) loc->glyf.gc_off = true;
  if (b->no_comp) loc->cff.comp_off = true;
  return loc;
}

static void draw_all(bench *b, otv_location *loc, int i, sink *s)
{
  otv_location_set_normalized(loc, b->loc_o + (size_t)i * b->axes, b->axes);
  for (unsigned g = 0; g < b->ng; g++)
    if (otv_glyph_outline(loc, g, 0, &o_pen, s)) b->errors++;
}

/* A location object's life starts: the allocator's peak restarts from what is live now. */
static size_t mem_begin(void)
{
  peak = live;
  return live;
}
static void mem_end(bench *b, size_t base, long allocs0)
{
  size_t p = peak - base;
  if (p > b->mem_peak_max) b->mem_peak_max = p;
  b->mem_peak_sum += (double)p;
  b->mem_allocs_sum += (double)(allocs - allocs0);
  b->mem_objs++;
}

static NOINLINE void pass_otvar(bench *b, sink *s)
{
  if (mode == M_WARM) {
    for (int i = 0; i < b->nloc; i++) draw_all(b, b->loc, i, s);
  } else if (mode == M_COLD) {
    for (int i = 0; i < b->nloc; i++) {
      size_t base = mem_begin();
      long a0 = allocs;
      otv_location *loc = new_location(b);
      if (!loc) {
        b->errors++;
        continue;
      }
      draw_all(b, loc, i, s);
      mem_end(b, base, a0);
      otv_location_destroy(loc);
    }
  } else {
    size_t base = mem_begin();
    long a0 = allocs;
    otv_location *loc = new_location(b);
    if (!loc) {
      b->errors++;
      return;
    }
    for (int i = 0; i < b->nloc; i++) draw_all(b, loc, i, s);
    mem_end(b, base, a0);
    otv_location_destroy(loc);
  }
}

static hb_font_t *hb_new_font(bench *b)
{
  hb_font_t *f = hb_font_create(b->hface);
  hb_font_set_scale(f, (int)b->upem, (int)b->upem);
  return f;
}

static void hb_draw_all(bench *b, hb_font_t *f, int i, sink *s)
{
  if (b->axes) hb_font_set_var_coords_normalized(f, b->loc_h + (size_t)i * b->axes, b->axes);
  for (unsigned g = 0; g < b->ng; g++)
#if HB_VERSION_ATLEAST(7, 0, 0)
    hb_font_draw_glyph(f, g, b->df, s);
#else
    hb_font_get_glyph_shape(f, g, b->df, s);
#endif
}

static NOINLINE void pass_hb(bench *b, sink *s)
{
  if (mode == M_WARM) {
    for (int i = 0; i < b->nloc; i++) hb_draw_all(b, b->hfont, i, s);
  } else if (mode == M_COLD) {
    for (int i = 0; i < b->nloc; i++) {
      hb_font_t *f = hb_new_font(b);
      hb_draw_all(b, f, i, s);
      hb_font_destroy(f);
    }
  } else {
    hb_font_t *f = hb_new_font(b);
    for (int i = 0; i < b->nloc; i++) hb_draw_all(b, f, i, s);
    hb_font_destroy(f);
  }
}

/* FreeType keeps the coordinates in the face: every scenario moves it. */
static NOINLINE void pass_ft(bench *b, sink *s)
{
  static const FT_Outline_Funcs ff = {f_move, f_line, f_conic, f_cubic, 0, 0};
  FT_Face ft = b->ft;
  for (int i = 0; i < b->nloc; i++) {
    if (b->axes)
      FT_Set_Var_Blend_Coordinates(ft, b->axes, (FT_Fixed *)b->loc_f + (size_t)i * b->axes);
    for (unsigned g = 0; g < b->ng; g++)
      if (!FT_Load_Glyph(ft, g, FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING) &&
          ft->glyph->format == FT_GLYPH_FORMAT_OUTLINE)
        FT_Outline_Decompose(&ft->glyph->outline, &ff, s);
  }
}

static bool env_on(const char *name)
{
  const char *v = getenv(name);
  return v && *v && *v != '0';
}

static int bench_font(const char *path, int nloc, int reps)
{
  size_t len;
  unsigned char *data = bench_read_file(path, &len);
  if (!data) {
    fprintf(stderr, "bench_outline: cannot read %s\n", path);
    return 1;
  }
  /* OTV_BENCH_OPT_FLAGS=N: otv_options.flags (e.g. 1: OTV_OPT_NO_OUTLINE_CACHES) */
  const char *of = getenv("OTV_BENCH_OPT_FLAGS");
  otv_options opt = {count_realloc, NULL, of ? (unsigned)strtoul(of, NULL, 0) : 0u};
  bench b;
  memset(&b, 0, sizeof b);
  otv_error err;
  if (otv_face_open_memory(data, len, 0, &opt, &b.face, &err)) {
    char buf[200];
    otv_error_format(&err, buf, sizeof buf);
    fprintf(stderr, "bench_outline: %s: %s\n", path, buf);
    free(data);
    return 1;
  }
  otv_face_info info;
  otv_face_get_info(b.face, &info);
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
  b.axes = axes, b.ng = ng, b.nloc = nloc, b.upem = info.units_per_em;
  b.loc_o = loc_o, b.loc_h = loc_h, b.loc_f = loc_f;
  /* internal switches (not public API): OTV_BENCH_NO_CC=1 without the component cache, _NO_GC
   * without the glyph cache (README), OTV_CFF_NO_COMPILE=1 without compiled CFF2 glyphs
   * (README-cff) */
  b.no_cc = env_on("OTV_BENCH_NO_CC");
  b.no_gc = env_on("OTV_BENCH_NO_GC");
  b.no_comp = env_on("OTV_CFF_NO_COMPILE");
  hb_blob_t *blob =
      hb_blob_create((const char *)data, (unsigned)len, HB_MEMORY_MODE_READONLY, NULL, NULL);
  b.hface = hb_face_create(blob, 0);
  b.hfont = hb_new_font(&b);
  b.df = hb_draw_funcs_create();
  hb_draw_funcs_set_move_to_func(b.df, h_move, NULL, NULL);
  hb_draw_funcs_set_line_to_func(b.df, h_line, NULL, NULL);
  hb_draw_funcs_set_quadratic_to_func(b.df, h_quad, NULL, NULL);
  hb_draw_funcs_set_cubic_to_func(b.df, h_cubic, NULL, NULL);
  hb_draw_funcs_set_close_path_func(b.df, h_close, NULL, NULL);
  FT_Library lib;
  FT_Init_FreeType(&lib);
  int ft_ok = !FT_New_Memory_Face(lib, data, (FT_Long)len, 0, &b.ft);

  double best[3] = {1e30, 1e30, 1e30};
  sink sk[3] = {{0, 0}, {0, 0}, {0, 0}};
  long allocs_timed = 0;
  if (mode == M_WARM && (engines & 1)) {
    /* warm-up pass for otvar over the locations (fills the caches, grows the scratch once) */
    size_t base = mem_begin();
    long a0 = allocs;
    b.loc = new_location(&b);
    if (!b.loc) b.errors++;
    for (int i = 0; i < nloc && b.loc; i++) draw_all(&b, b.loc, i, &sk[0]);
    mem_end(&b, base, a0);
  }
  for (int r = 0; r < reps; r++) {
    sink s = {0, 0};
    double t;
    if (engines & 1 && (mode != M_WARM || b.loc)) {
      long a0 = allocs;
      t = now();
      pass_otvar(&b, &s);
      t = now() - t;
      allocs_timed += allocs - a0;
      if (t < best[0]) best[0] = t;
      sk[0] = s;
    }
    if (engines & 2) {
      s = (sink){0, 0};
      t = now();
      pass_hb(&b, &s);
      t = now() - t;
      if (t < best[1]) best[1] = t;
      sk[1] = s;
    }
    if (ft_ok && (engines & 4)) {
      s = (sink){0, 0};
      t = now();
      pass_ft(&b, &s);
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
  printf("%-32s %5u glyphs %2u axes %4d locs %-5s | glyphs/s: otvar %9.0f  hb %9.0f  ft %9.0f | "
         "otvar/hb %s  otvar/ft %s | otvar allocs in timed passes %ld%s\n",
         base_name(path), ng, axes, nloc, mode_names[mode], rate[0], rate[1], rate[2], r_hb, r_ft,
         allocs_timed, b.errors ? " (otvar errors!)" : "");
  if (ran[0] && b.mem_objs)
    printf("  otvar memory per location object (%s, %ld objects): peak %.0f bytes mean, %zu max; "
           "%.1f allocations\n",
           mode_names[mode], b.mem_objs, b.mem_peak_sum / (double)b.mem_objs, b.mem_peak_max,
           b.mem_allocs_sum / (double)b.mem_objs);
  fprintf(stderr, "  segments walked: otvar %ld hb %ld ft %ld\n", sk[0].segs, sk[1].segs,
          sk[2].segs);

  if (ft_ok) FT_Done_Face(b.ft);
  FT_Done_FreeType(lib);
  hb_draw_funcs_destroy(b.df);
  hb_font_destroy(b.hfont);
  hb_face_destroy(b.hface);
  hb_blob_destroy(blob);
  otv_location_destroy(b.loc);
  otv_face_close(b.face);
  free(loc_o);
  free(loc_h);
  free(loc_f);
  free(data);
  return 0;
}

#define USAGE                                                                                      \
  "usage: bench_outline [-n LOCATIONS] [-r REPEATS] [-e otvar|hb|ft] [-m warm|cold|first] "        \
  "FONT...\n"

int main(int argc, char **argv)
{
  int nloc = 20, reps = 3, rc = 0, nfonts = 0;
  if (env_on("OTV_BENCH_CPUTIME")) clock_id = CLOCK_PROCESS_CPUTIME_ID;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-n") && i + 1 < argc) {
      nloc = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "-e") && i + 1 < argc) {
      i++;
      engines = !strcmp(argv[i], "otvar") ? 1
                : !strcmp(argv[i], "hb")  ? 2
                : !strcmp(argv[i], "ft")  ? 4
                                          : 7;
    } else if (!strcmp(argv[i], "-m") && i + 1 < argc) {
      i++;
      mode = !strcmp(argv[i], "cold") ? M_COLD : !strcmp(argv[i], "first") ? M_FIRST : M_WARM;
      if (mode == M_WARM && strcmp(argv[i], "warm")) {
        fprintf(stderr, USAGE);
        return 2;
      }
    } else if (!strcmp(argv[i], "-r") && i + 1 < argc) {
      reps = atoi(argv[++i]);
    } else if (argv[i][0] == '-') {
      fprintf(stderr, USAGE);
      return 2;
    } else {
      rc |= bench_font(argv[i], nloc < 1 ? 1 : nloc, reps < 1 ? 1 : reps);
      nfonts++;
    }
  }
  if (!nfonts) {
    fprintf(stderr, USAGE);
    return 2;
  }
  printf("HarfBuzz %s, FreeType %d.%d.%d, otvar %s\n", hb_version_string(), FREETYPE_MAJOR,
         FREETYPE_MINOR, FREETYPE_PATCH, otv_version());
  return rc;
}

/*
 * bench_raster.c - otvar's rasterizer vs FreeType's smooth rasterizer on the same outlines.
 *
 * Every glyph of each font (real variable fonts from $OTV_FONT_CACHE, else tests/fonts and
 * fonts/Karla-VF.ttf; or the files given as arguments) is loaded once by FreeType unscaled and
 * unhinted, scaled to 26.6 at 16, 48 and 160 px, and kept three times: as an FT_Outline, as a
 * recorded path (the same points, decomposed by FT_Outline_Decompose) and as otvar points (the
 * same points, FreeType's tags as OTV_POINT_* flags). Only rasterization is timed:
 *   FreeType:     clear the glyph's bitmap, FT_Outline_Get_Bitmap (8-bit gray, the smooth
 *                 rasterizer of FT_RENDER_MODE_NORMAL);
 *   otvar pen:    clear the glyph's bitmap, replay the path into otv_raster_pen() (curve
 *                 flattening included), otv_raster_render;
 *   otvar points: clear the glyph's bitmap, otv_raster_add_points, otv_raster_render (the call
 *                 that takes what FT_Outline_Get_Bitmap takes: a whole outline).
 * Prints glyphs/second for each and the ratios, and the allocations otvar made after warm-up.
 * Both otvar ways are also timed as "CLEAR": the same images with OTV_RASTER_CLEAR instead of
 * clearing the bitmap first (otvar writes every pixel itself; checked identical on a dirty
 * buffer).
 * Each glyph's bitmap is announced with otv_raster_begin (OTV_BENCH_STORED=1: not).
 * Times are process CPU time (OTV_BENCH_WALL=1: wall clock), best of 3 rounds
 * (OTV_BENCH_ROUNDS=N).
 * Usage: bench_raster [FONT...]
 */
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H
#include FT_BITMAP_H

#include "bench_util.h"
#include "raster/raster.h" /* otv_raster_use_sse2 (OTV_RASTER_NO_AVX2) */
#include "otvar.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { OP_MOVE, OP_LINE, OP_QUAD, OP_CUBIC, OP_CLOSE };

typedef struct path {
  uint8_t *ops;
  float *xy;
  size_t nops, nxy, cap_ops, cap_xy;
} path;

typedef struct glyph {
  FT_Outline o; /* 26.6, bitmap origin at 0,0 */
  size_t op0, op1, xy0;
  otv_glyph_points pts; /* the same points for otv_raster_add_points (into the arrays of Q) */
  size_t pt0, ct0;
  int w, h;
} glyph;

/* Every glyph's points, flags and contour ends, as otv_glyph_points_get gives them. */
static struct {
  otv_point *pts;
  uint8_t *flags;
  uint16_t *ends;
  size_t npts, nends, cap_pts, cap_ends;
} Q;

static FT_Library ft;
static path P;
static int in_contour;

static void put_op(int op)
{
  if (P.nops == P.cap_ops) {
    P.cap_ops = P.cap_ops ? 2 * P.cap_ops : 4096;
    P.ops = realloc(P.ops, P.cap_ops);
  }
  P.ops[P.nops++] = (uint8_t)op;
}
static void put_xy(const FT_Vector *v)
{
  if (P.nxy + 2 > P.cap_xy) {
    P.cap_xy = P.cap_xy ? 2 * P.cap_xy : 8192;
    P.xy = realloc(P.xy, P.cap_xy * sizeof(float));
  }
  P.xy[P.nxy++] = (float)v->x;
  P.xy[P.nxy++] = (float)v->y;
}
static int r_move(const FT_Vector *to, void *u)
{
  (void)u;
  if (in_contour) put_op(OP_CLOSE);
  put_op(OP_MOVE);
  put_xy(to);
  in_contour = 1;
  return 0;
}
static int r_line(const FT_Vector *to, void *u)
{
  (void)u;
  put_op(OP_LINE);
  put_xy(to);
  return 0;
}
static int r_conic(const FT_Vector *c, const FT_Vector *to, void *u)
{
  (void)u;
  put_op(OP_QUAD);
  put_xy(c);
  put_xy(to);
  return 0;
}
static int r_cubic(const FT_Vector *c1, const FT_Vector *c2, const FT_Vector *to, void *u)
{
  (void)u;
  put_op(OP_CUBIC);
  put_xy(c1);
  put_xy(c2);
  put_xy(to);
  return 0;
}
static const FT_Outline_Funcs rec_funcs = {r_move, r_line, r_conic, r_cubic, 0, 0};

/* CPU time of the process (the machine these runs share is loaded: time spent descheduled is
 * not counted); OTV_BENCH_WALL=1: wall clock */
static clockid_t clk = CLOCK_PROCESS_CPUTIME_ID;
static double now(void) { return bench_seconds(clk); }

typedef struct counting {
  long calls;
} counting;
static void *count_realloc(void *ud, void *p, size_t old_len, size_t new_len)
{
  (void)old_len;
  if (!new_len) {
    free(p);
    return NULL;
  }
  ((counting *)ud)->calls++;
  return realloc(p, new_len);
}

static glyph *G;
static size_t ng, capg;

static void load_font(const char *file, double px)
{
  FT_Face face;
  if (FT_New_Face(ft, file, 0, &face)) {
    fprintf(stderr, "skip %s (FreeType cannot open it)\n", file);
    return;
  }
  double scale = px / face->units_per_EM;
  for (FT_Long g = 0; g < face->num_glyphs; g++) {
    if (FT_Load_Glyph(face, (FT_UInt)g, FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING) ||
        face->glyph->format != FT_GLYPH_FORMAT_OUTLINE || face->glyph->outline.n_points == 0)
      continue;
    FT_Outline *src = &face->glyph->outline;
    if (ng == capg) {
      capg = capg ? 2 * capg : 4096;
      G = realloc(G, capg * sizeof *G);
    }
    glyph *gl = &G[ng];
    FT_Outline_New(ft, (FT_UInt)src->n_points, src->n_contours, &gl->o);
    FT_Outline_Copy(src, &gl->o);
    for (int i = 0; i < gl->o.n_points; i++) {
      gl->o.points[i].x = (FT_Pos)lround(src->points[i].x * scale * 64);
      gl->o.points[i].y = (FT_Pos)lround(src->points[i].y * scale * 64);
    }
    FT_BBox cb;
    FT_Outline_Get_CBox(&gl->o, &cb);
    FT_Pos x0 = cb.xMin & ~63, y0 = cb.yMin & ~63;
    gl->w = (int)((((cb.xMax + 63) & ~63) - x0) >> 6);
    gl->h = (int)((((cb.yMax + 63) & ~63) - y0) >> 6);
    if (gl->w <= 0 || gl->h <= 0) {
      FT_Outline_Done(ft, &gl->o);
      continue;
    }
    FT_Outline_Translate(&gl->o, -x0, -y0);
    gl->op0 = P.nops;
    gl->xy0 = P.nxy;
    in_contour = 0;
    FT_Outline_Decompose(&gl->o, &rec_funcs, NULL);
    if (in_contour) put_op(OP_CLOSE);
    gl->op1 = P.nops;
    /* the same outline as points: FreeType's tags as otvar's point flags */
    size_t np = (size_t)gl->o.n_points, nc = (size_t)gl->o.n_contours;
    if (Q.npts + np > Q.cap_pts) {
      while (Q.npts + np > Q.cap_pts) Q.cap_pts = Q.cap_pts ? 2 * Q.cap_pts : 65536;
      Q.pts = realloc(Q.pts, Q.cap_pts * sizeof *Q.pts);
      Q.flags = realloc(Q.flags, Q.cap_pts);
    }
    if (Q.nends + nc > Q.cap_ends) {
      while (Q.nends + nc > Q.cap_ends) Q.cap_ends = Q.cap_ends ? 2 * Q.cap_ends : 16384;
      Q.ends = realloc(Q.ends, Q.cap_ends * sizeof *Q.ends);
    }
    gl->pt0 = Q.npts;
    gl->ct0 = Q.nends;
    for (size_t k = 0; k < np; k++) {
      Q.pts[Q.npts + k] = (otv_point){(float)gl->o.points[k].x, (float)gl->o.points[k].y};
      int tag = FT_CURVE_TAG(gl->o.tags[k]);
      Q.flags[Q.npts + k] = tag == FT_CURVE_TAG_ON      ? OTV_POINT_ON_CURVE
                            : tag == FT_CURVE_TAG_CUBIC ? OTV_POINT_CUBIC
                                                        : 0;
    }
    for (size_t k = 0; k < nc; k++) Q.ends[Q.nends + k] = (uint16_t)gl->o.contours[k];
    Q.npts += np;
    Q.nends += nc;
    gl->pts.point_count = (unsigned)np;
    gl->pts.contour_count = (unsigned)nc;
    ng++;
  }
  FT_Done_Face(face);
}

static void replay(otv_raster *r, const glyph *gl)
{
  const otv_pen *pen = otv_raster_pen();
  const float *v = P.xy + gl->xy0;
  for (size_t i = gl->op0; i < gl->op1; i++) {
    switch (P.ops[i]) {
    case OP_MOVE:
      pen->move_to(r, v[0], v[1]);
      v += 2;
      break;
    case OP_LINE:
      pen->line_to(r, v[0], v[1]);
      v += 2;
      break;
    case OP_QUAD:
      pen->quad_to(r, v[0], v[1], v[2], v[3]);
      v += 4;
      break;
    case OP_CUBIC:
      pen->cubic_to(r, v[0], v[1], v[2], v[3], v[4], v[5]);
      v += 6;
      break;
    default: pen->close_path(r); break;
    }
  }
}

/* The 64-bit FNV-1a hash h continued over n bytes (the image hashes of OTV_BENCH_HASH). */
static uint64_t fnv1a(uint64_t h, const uint8_t *p, size_t n)
{
  for (size_t k = 0; k < n; k++) h = (h ^ p[k]) * 1099511628211u;
  return h;
}

/* The ways otvar is timed: through the pen or as points, onto a cleared bitmap or writing it
 * whole (OTV_RASTER_CLEAR); the OTV_BENCH_ONLY name of each. */
enum { WAYS = 4 };
static const struct {
  int points;
  unsigned flags;
  const char *name;
} way[WAYS] = {{0, 0, "otvar"},
               {0, OTV_RASTER_CLEAR, "otvar-clear"},
               {1, 0, "otvar-points"},
               {1, OTV_RASTER_CLEAR, "otvar-points-clear"}};

/* One image of glyph gl into buf (gl->w x gl->h) the way w, composited with `flags` (plus
 * the way's own); the bitmap is announced first unless OTV_BENCH_STORED. */
static otv_status otvar_image(otv_raster *r, otv_transform *t, glyph *gl, int direct, int w,
                              uint8_t *buf, unsigned flags)
{
  t->dy = gl->h;
  otv_raster_set_transform(r, t);
  if (direct) otv_raster_begin(r, (unsigned)gl->w, (unsigned)gl->h);
  if (way[w].points)
    otv_raster_add_points(r, &gl->pts);
  else
    replay(r, gl);
  return otv_raster_render(r, buf, (unsigned)gl->w, (unsigned)gl->h, (size_t)gl->w,
                           flags | way[w].flags);
}

static int add_dir(const char *dir, char **files, int n, int cap)
{
  DIR *d = opendir(dir);
  if (!d) return n;
  struct dirent *e;
  while ((e = readdir(d)) && n < cap) {
    size_t l = strlen(e->d_name);
    if (l < 5 || (strcmp(e->d_name + l - 4, ".ttf") && strcmp(e->d_name + l - 4, ".otf"))) continue;
    char *p = malloc(strlen(dir) + l + 2);
    sprintf(p, "%s/%s", dir, e->d_name);
    files[n++] = p;
  }
  closedir(d);
  return n;
}

static int cmp_str(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
  char *files[256];
  int nf = 0;
  for (int i = 1; i < argc && nf < 256; i++) files[nf++] = argv[i];
  if (!nf) {
    const char *cache = getenv("OTV_FONT_CACHE");
    if (cache) nf = add_dir(cache, files, nf, 256);
    if (!nf) {
      nf = add_dir("tests/fonts", files, nf, 256);
      nf = add_dir("fonts", files, nf, 256);
    }
    qsort(files, (size_t)nf, sizeof *files, cmp_str);
  }
  if (!nf) {
    fprintf(stderr, "bench_raster: no fonts (set OTV_FONT_CACHE or run from the source tree)\n");
    return 1;
  }
  if (getenv("OTV_BENCH_WALL")) clk = CLOCK_MONOTONIC;
  int rounds = getenv("OTV_BENCH_ROUNDS") ? atoi(getenv("OTV_BENCH_ROUNDS")) : 3;
  if (rounds < 1) rounds = 1;
  FT_Init_FreeType(&ft);
  printf("fonts:");
  for (int i = 0; i < nf; i++)
    printf(" %s", strrchr(files[i], '/') ? strrchr(files[i], '/') + 1 : files[i]);
  printf("\n");
  counting cnt = {0};
  otv_options opt = {count_realloc, &cnt, 0};
  otv_raster *r;
  otv_raster_create(&opt, &r);
  /* OTV_RASTER_NO_AVX2=1: otvar reads out with its SSE2 copy on an AVX2 machine */
  const char *no_avx2 = getenv("OTV_RASTER_NO_AVX2");
  if (no_avx2 && *no_avx2 && *no_avx2 != '0') otv_raster_use_sse2(r);
  otv_transform t = {1.0 / 64, 0, 0, -1.0 / 64, 0, 0};
  static double sizes[] = {16, 48, 160};
  /* announce each glyph's bitmap before drawing (otv_raster_begin: one pass); OTV_BENCH_STORED=1
   * measures the stored-path mode instead */
  int direct = !getenv("OTV_BENCH_STORED");
  /* OTV_BENCH_DUMP=FILE: every image of the warm-up, raw, one after the other (to count the
   * pixels a change that is not meant to be exact moves) */
  FILE *dump = getenv("OTV_BENCH_DUMP") ? fopen(getenv("OTV_BENCH_DUMP"), "wb") : NULL;
  size_t nsizes = 3;
  if (getenv("OTV_BENCH_SIZE")) {
    sizes[0] = atof(getenv("OTV_BENCH_SIZE"));
    nsizes = 1;
  }
  /* glyphs per second of each way and its ratio to FreeType's (> 1: otvar faster) */
  printf("%-5s %7s %10s | %17s | %17s | %17s | %17s | %s\n", "size", "glyphs", "FreeType",
         "otvar pen", "pen CLEAR", "otvar points", "points CLEAR", "otvar allocs after warm-up");
  for (size_t s = 0; s < nsizes; s++) {
    for (size_t i = 0; i < ng; i++) FT_Outline_Done(ft, &G[i].o);
    ng = 0;
    P.nops = P.nxy = 0;
    Q.npts = Q.nends = 0;
    for (int i = 0; i < nf; i++) load_font(files[i], sizes[s]);
    for (size_t i = 0; i < ng; i++) { /* (Q's arrays have stopped moving) */
      G[i].pts.points = Q.pts + G[i].pt0;
      G[i].pts.point_flags = Q.flags + G[i].pt0;
      G[i].pts.contour_ends = Q.ends + G[i].ct0;
    }
    size_t maxpix = 1;
    for (size_t i = 0; i < ng; i++)
      if ((size_t)G[i].w * G[i].h > maxpix) maxpix = (size_t)G[i].w * G[i].h;
    uint8_t *buf = malloc(maxpix), *buf2 = malloc(maxpix);
    size_t clear_bad = 0, pts_bad = 0, pts_differ = 0;
    int pts_maxdiff = 0;
    /* warm-up (and the allocation count after it); a hash of every image, so that a change
     * meant to be exact can be checked to leave every pixel as it was */
    uint64_t hash = 1469598103934665603u, phash = hash;
    for (size_t i = 0; i < ng; i++) {
      size_t len = (size_t)G[i].w * G[i].h;
      memset(buf, 0, len);
      otvar_image(r, &t, &G[i], direct, 0, buf, 0);
      hash = fnv1a(hash, buf, len);
      if (dump) fwrite(buf, 1, len, dump);
      /* OTV_RASTER_CLEAR on a dirty buffer must give the same image */
      memcpy(buf2, buf, len);
      memset(buf, 0xa5, len);
      otvar_image(r, &t, &G[i], direct, 1, buf, 0);
      if (memcmp(buf, buf2, len)) clear_bad++;
      if (getenv("OTV_BENCH_HASH")) {
        /* and composited over itself (the blending arithmetic) */
        otvar_image(r, &t, &G[i], direct, 0, buf, 0);
        hash = fnv1a(hash, buf, len);
      }
      /* the points way: the same outline; only the implied on-curve midpoints differ (computed
       * from transformed points in float, not by FreeType in 26.6 integers) */
      memset(buf, 0, len);
      if (otvar_image(r, &t, &G[i], direct, 2, buf, 0)) pts_bad++;
      int differs = 0;
      phash = fnv1a(phash, buf, len);
      for (size_t k = 0; k < len; k++) {
        int dv = abs((int)buf[k] - (int)buf2[k]);
        if (dv > pts_maxdiff) pts_maxdiff = dv;
        differs |= dv != 0;
      }
      pts_differ += (size_t)differs;
      memcpy(buf2, buf, len);
      memset(buf, 0xa5, len);
      otvar_image(r, &t, &G[i], direct, 3, buf, 0);
      if (memcmp(buf, buf2, len)) clear_bad++;
    }
    if (getenv("OTV_BENCH_HASH"))
      printf("size %g image hash %016llx, points %016llx\n", sizes[s], (unsigned long long)hash,
             (unsigned long long)phash);
    if (clear_bad)
      printf("size %g: %zu images differ with OTV_RASTER_CLEAR\n", sizes[s], clear_bad);
    if (pts_bad) printf("size %g: otv_raster_add_points failed on %zu glyphs\n", sizes[s], pts_bad);
    printf("size %g: points vs pen: %zu of %zu images differ, by at most %d/255\n", sizes[s],
           pts_differ, ng, pts_maxdiff);
    long calls0 = cnt.calls;
    int reps = sizes[s] < 20 ? 6 : sizes[s] < 100 ? 3 : 1;
    if (getenv("OTV_BENCH_REPS")) reps = atoi(getenv("OTV_BENCH_REPS")); /* e.g. 1 for callgrind */
    double best_ft = 1e30, best[WAYS] = {1e30, 1e30, 1e30, 1e30};
    const char *only = getenv("OTV_BENCH_ONLY"); /* one side only, e.g. for a profiler */
    int do_ft = !only || !strcmp(only, "freetype"), do_way[WAYS];
    for (int w = 0; w < WAYS; w++) do_way[w] = !only || !strcmp(only, way[w].name);
    for (int round = 0; round < rounds; round++) {
      double t0 = now();
      for (int k = 0; k < reps && do_ft; k++)
        for (size_t i = 0; i < ng; i++) {
          FT_Bitmap bm;
          FT_Bitmap_Init(&bm);
          bm.rows = (unsigned)G[i].h;
          bm.width = (unsigned)G[i].w;
          bm.pitch = G[i].w;
          bm.buffer = buf;
          bm.num_grays = 256;
          bm.pixel_mode = FT_PIXEL_MODE_GRAY;
          memset(buf, 0, (size_t)G[i].w * G[i].h);
          FT_Outline_Get_Bitmap(ft, &G[i].o, &bm);
        }
      t0 = now() - t0;
      if (t0 < best_ft) best_ft = t0;
      /* each way of otvar; the CLEAR ones write the whole bitmap, without the memset */
      for (int w = 0; w < WAYS; w++) {
        double tw = now();
        for (int k = 0; k < reps && do_way[w]; k++)
          for (size_t i = 0; i < ng; i++) {
            if (!way[w].flags) memset(buf, 0, (size_t)G[i].w * G[i].h);
            otvar_image(r, &t, &G[i], direct, w, buf, 0);
          }
        tw = now() - tw;
        if (tw < best[w]) best[w] = tw;
      }
    }
    double n = (double)ng * reps;
    /* (a side OTV_BENCH_ONLY left out prints "-") */
    if (do_ft)
      printf("%-5g %7zu %10.0f", sizes[s], ng, n / best_ft);
    else
      printf("%-5g %7zu %10s", sizes[s], ng, "-");
    for (int w = 0; w < WAYS; w++) {
      if (!do_way[w])
        printf(" | %9s %7s", "-", "-");
      else if (!do_ft)
        printf(" | %9.0f %7s", n / best[w], "-");
      else
        printf(" | %9.0f %6.2fx", n / best[w], best_ft / best[w]);
    }
    printf(" | %ld\n", cnt.calls - calls0);
    free(buf);
    free(buf2);
  }
  for (size_t i = 0; i < ng; i++) FT_Outline_Done(ft, &G[i].o);
  if (dump) fclose(dump);
  otv_raster_destroy(r);
  FT_Done_FreeType(ft);
  free(G);
  free(P.ops);
  free(P.xy);
  return 0;
}

/*
 * test_outline_glyf.c - TrueType outlines at many locations vs HarfBuzz (hb_font_draw_glyph,
 * scale = upem, hb_font_set_var_coords_normalized) and FreeType (FT_LOAD_NO_SCALE |
 * FT_LOAD_NO_HINTING after FT_Set_Var_Blend_Coordinates), with the same normalized coordinates in
 * all three; and vs the fontations expected files (FreeType 2.13 outlines at size 0, no hinting).
 *
 * Locations: the default, every named instance, every axis extreme (one axis at -1 or +1, the
 * others at 0), and 200 random locations (fixed seed). Every glyph at the first three kinds; at
 * the random locations every glyph of the small test fonts and a sample of the real fonts' glyphs
 * (to stay within the ASan time budget).
 *
 * Expected: same contour/segment structure as both (FreeType: same start point and order; HarfBuzz:
 * up to the contour's start point), coordinates within 1/64 unit of HarfBuzz's (both unrounded
 * float), within 1 unit of FreeType's (FreeType rounds every varied point to an integer and
 * computes its scalars in 16.16), and our OTV_OUTLINE_ROUND output within 1 unit of FreeType's
 * and equal to it for nearly all points (the 16.16 scalars can move a .5 tie; when such a tie
 * puts a point on its neighbour on one side only, the rounded outlines are compared without
 * lines of 1 unit or less, and counted).
 *
 * OTV_ORACLE_SEED / OTV_ORACLE_LOCATIONS (tests/unit/harness.h) draw other and more random
 * locations for a stress run.
 */
#include "harness.h"
#include "oracle_outline.h"

#include <dirent.h>

#define HB_TOL (1.0 / 64)
/* FreeType (NO_SCALE) rounds each glyph level's varied points to integers (<= 0.5), computes
 * implied on-curve midpoints in integer arithmetic, truncating (<= 0.5 more), a composite adds
 * its rounded varied offset to rounded component points (<= 0.5 more), and its scalars and
 * deltas are 16.16: up to 1.5 from our unrounded floats for simple glyphs. A scaled composite
 * scales those roundings: Karla-Italic's bullet = 1.824 x periodcentered(period + offset) gives
 * 1.824 x (0.5 + 0.5) + 0.5 + 0.5 = 2.8 at most (measured 2.5; HarfBuzz agrees with us within
 * 0.001 there). */
#define FT_TOL 3.0

typedef struct stats {
  double hb_max, ft_max, ftr_max;
  long outlines, hb_struct, ft_struct, ftr_off;
  long ft_fail, hb_empty, ft_degenerate, ft_tie;
} stats;

static oo_path pa, pb, pc;

static void check_glyph(oo_font *o, unsigned gid, stats *s, const char *font, const char *where)
{
  otv_status st;
  s->outlines++;
  if (oo_otv_outline(o, gid, 0, &pa, &st)) {
    fprintf(stderr, "%s %s gid %u: otvar failed: %s (%s)\n", font, where, gid, otv_status_str(st),
            otv_location_last_error(o->loc)->msg);
    CHECK(!"otv_glyph_outline failed");
    return;
  }
  const char *why;
  double d;
  if (o->ft_ok) {
    if (oo_ft_outline(o, gid, &pb)) {
      s->ft_fail++;
    } else {
      d = oo_path_diff(&pa, &pb, 0, &why);
      double d_unrounded = d;
      if (d < 0) {
        /* FreeType's integer rounding can make a line zero-length (two points 0.49 apart) that
         * its decomposition then keeps or merges differently: such outlines are compared below
         * on our rounded output, without zero-length lines */
        s->ft_degenerate++;
      } else if (d > FT_TOL) {
        if (s->ft_struct++ < 3) {
          fprintf(stderr, "%s %s gid %u: vs FreeType %g\n otv: ", font, where, gid, d);
          oo_path_print(stderr, &pa);
          fprintf(stderr, " ft:  ");
          oo_path_print(stderr, &pb);
        }
      }
      if (d > s->ft_max) s->ft_max = d;
      /* rounded output vs FreeType's integer points: same structure, within 2 units */
      oo_otv_outline(o, gid, OTV_OUTLINE_ROUND, &pc, NULL);
      oo_path_drop_zero_lines(&pc);
      oo_path_drop_zero_lines(&pb);
      d = oo_path_diff(&pc, &pb, 0, &why);
      if (d < 0 && d_unrounded >= 0 && d_unrounded <= FT_TOL) {
        /* the unrounded outline matched FreeType's in structure; a point on a .5 tie that
         * FreeType's 16.16 arithmetic rounds the other way can end 1 unit from its neighbour
         * on one side and on it (a zero-length line, dropped) on the other (RobotoFlex gid 83:
         * 323.5 and 324.39): compare once more without lines of 1 unit or less */
        oo_path_drop_short_lines(&pc, 1.0f);
        oo_path_drop_short_lines(&pb, 1.0f);
        d = oo_path_diff(&pc, &pb, 0, &why);
        if (d >= 0) s->ft_tie++;
      }
      if (d != 0) s->ftr_off++;
      if (d < 0 && s->ft_struct++ < 3) {
        fprintf(stderr, "%s %s gid %u: rounded vs FreeType %s\n otv: ", font, where, gid, why);
        oo_path_print(stderr, &pc);
        fprintf(stderr, " ft:  ");
        oo_path_print(stderr, &pb);
        fprintf(stderr, " otv unrounded: ");
        oo_path_print(stderr, &pa);
      }
      if (d > s->ftr_max || d < 0) s->ftr_max = d < 0 ? 1e9 : d;
    }
  }
  oo_hb_outline(o, gid, &pb);
  /* HarfBuzz starts contours elsewhere and may emit zero-length closing lines: compare up to
   * rotation without zero-length lines */
  oo_path_drop_zero_lines(&pa);
  oo_path_drop_zero_lines(&pb);
  d = oo_path_diff(&pa, &pb, 1, &why);
  if (d < 0 && pb.n_con == 0 && pa.n_con > 0) {
    /* HarfBuzz 6.0 draws nothing for some glyphs (e.g. Handjet's .notdef, 55 components): counted
     * and reported; FreeType must agree with us there (checked above). */
    s->hb_empty++;
    d = 0;
  } else if (d < 0 || d > HB_TOL) {
    if (s->hb_struct++ < 3) {
      fprintf(stderr, "%s %s gid %u: vs HarfBuzz %s %g\n otv: ", font, where, gid, why, d);
      oo_path_print(stderr, &pa);
      fprintf(stderr, " hb:  ");
      oo_path_print(stderr, &pb);
    }
  }
  if (d > s->hb_max) s->hb_max = d;
}

static void all_glyphs(oo_font *o, stats *s, const char *font, const char *where, unsigned step,
                       unsigned long long *rng)
{
  unsigned start = step > 1 ? (unsigned)(oo_rand(rng) % step) : 0;
  for (unsigned g = start; g < o->glyph_count; g += step) check_glyph(o, g, s, font, where);
}

/* max_glyphs_random: at random locations check about this many glyphs each (0: all). */
static void test_font(const char *path, const char *name, unsigned max_glyphs_random)
{
  oo_font o;
  int r = oo_font_open(&o, path);
  if (r == -2) {
    printf("SKIP %s: not found\n", path);
    return;
  }
  CHECK_EQ(r, 0);
  if (r) return;
  otv_face_info info;
  otv_face_get_info(o.face, &info);
  if (info.flavour != OTV_FLAVOUR_GLYF) {
    oo_font_close(&o);
    return;
  }
  stats s = {0};
  unsigned long long rng = h_seed(0x5eed0fa11ULL);
  otv_f2dot14 c[64] = {0};
  unsigned na = o.axis_count > 64 ? 64 : o.axis_count;
  oo_font_set_normalized(&o, c, na);
  all_glyphs(&o, &s, name, "default", 1, &rng);
  for (unsigned i = 0; i < info.instance_count; i++) {
    otv_location_set_named(o.loc, i);
    otv_location_normalized(o.loc, c, na);
    oo_font_set_normalized(&o, c, na);
    char where[32];
    snprintf(where, sizeof where, "named %u", i);
    all_glyphs(&o, &s, name, where, 1, &rng);
  }
  for (unsigned a = 0; a < na; a++)
    for (int sgn = -1; sgn <= 1; sgn += 2) {
      memset(c, 0, sizeof c);
      c[a] = (otv_f2dot14)(sgn * 16384);
      oo_font_set_normalized(&o, c, na);
      char where[32];
      snprintf(where, sizeof where, "axis %u %s", a, sgn < 0 ? "min" : "max");
      all_glyphs(&o, &s, name, where, 1, &rng);
    }
  unsigned step = 1;
  if (max_glyphs_random && o.glyph_count > max_glyphs_random)
    step = o.glyph_count / max_glyphs_random;
  for (int i = 0, n = (int)h_locations(200); i < n && na; i++) {
    for (unsigned a = 0; a < na; a++) c[a] = oo_rand_coord(&rng);
    oo_font_set_normalized(&o, c, na);
    char where[32];
    snprintf(where, sizeof where, "random %d", i);
    all_glyphs(&o, &s, name, where, step, &rng);
  }
  printf("%-40s %6ld outlines  max|d| HarfBuzz %.6f  FreeType %.4f  ROUND vs FreeType %.0f "
         "(%ld outlines differ)  mismatches hb %ld ft %ld%s\n",
         name, s.outlines, s.hb_max, s.ft_max, s.ftr_max, s.ftr_off, s.hb_struct, s.ft_struct,
         s.hb_empty ? "  (HarfBuzz drew nothing for some)" : "");
  if (s.ft_degenerate)
    printf("  %ld outlines compared with FreeType only when rounded (rounding made zero-length "
           "lines)\n",
           s.ft_degenerate);
  if (s.hb_empty)
    printf("  HarfBuzz drew nothing for %ld outlines (FreeType agrees with otvar)\n", s.hb_empty);
  if (s.ft_tie)
    printf("  %ld outlines matched FreeType's rounded one only without lines of 1 unit (a .5 tie "
           "rounded the other way)\n",
           s.ft_tie);
  CHECK_EQ(s.hb_struct, 0);
  CHECK_EQ(s.ft_struct, 0);
  CHECK_EQ(s.ft_fail, 0);
  CHECK(s.hb_max <= HB_TOL);
  CHECK(s.ft_max <= FT_TOL);
  CHECK(s.ftr_max <= 2.0);
  CHECK(s.hb_empty == 0 || o.ft_ok);
  oo_font_close(&o);
}

/* ---- fontations expected outlines (FreeType 2.13, size 0, hint mode none) ---- */

static void expected_file(const char *font, const char *txt)
{
  char fp[4096], tp[4096];
  const char *root = getenv("OTV_ROOT");
  snprintf(fp, sizeof fp, "%s", h_font(font));
  snprintf(tp, sizeof tp, "%s/tests/expected/fontations/%s", root ? root : ".", txt);
  FILE *f = fopen(tp, "r");
  CHECK(f != NULL);
  if (!f) return;
  oo_font o;
  CHECK_EQ(oo_font_open(&o, fp), 0);
  char line[65536];
  unsigned gid = 0;
  int want = 0;
  long records = 0, mismatches = 0;
  double maxd = 0, maxr = 0;
  while (fgets(line, sizeof line, f)) {
    if (!strncmp(line, "glyph ", 6)) {
      unsigned ppem;
      char mode[16];
      want = sscanf(line + 6, "%u %u %15s", &gid, &ppem, mode) == 3 && ppem == 0 &&
             !strcmp(mode, "none");
      oo_path_clear(&pb);
      pb.ft_close = 1; /* FT_Outline_Decompose output */
    } else if (want && !strncmp(line, "coords", 6)) {
      otv_f2dot14 c[64] = {0};
      unsigned n = 0;
      char *p = line + 6;
      while (n < 64) {
        char *e;
        double v = strtod(p, &e);
        if (e == p) break;
        c[n++] = (otv_f2dot14)lround(v * 16384.0);
        p = e;
      }
      /* one value per axis (the file sets every axis to the same value) */
      for (unsigned a = n; a < o.axis_count && a < 64; a++) c[a] = c[0];
      oo_font_set_normalized(&o, c, o.axis_count);
    } else if (want && strchr("mlqc", line[0]) && line[1] == ' ') {
      float v[6];
      int k = 0;
      char *p = line + 2;
      while (k < 6) {
        char *e;
        float x = strtof(p, &e);
        if (e == p) break;
        v[k++] = x;
        p = e;
        if (*p == ',') p++;
      }
      if (line[0] == 'm') oo_otv_pen.move_to(&pb, v[0], v[1]);
      if (line[0] == 'l') oo_otv_pen.line_to(&pb, v[0], v[1]);
      if (line[0] == 'q') oo_otv_pen.quad_to(&pb, v[0], v[1], v[2], v[3]);
      if (line[0] == 'c') oo_otv_pen.cubic_to(&pb, v[0], v[1], v[2], v[3], v[4], v[5]);
    } else if (want && line[0] == '-') {
      oo_path_finish(&pb);
      pb.ft_close = 0;
      records++;
      const char *why;
      CHECK_EQ(oo_otv_outline(&o, gid, 0, &pa, NULL), 0);
      double d = oo_path_diff(&pa, &pb, 0, &why);
      if (d < 0 || d > FT_TOL) {
        mismatches++;
        fprintf(stderr, "%s gid %u: %s %g\n otv: ", txt, gid, why, d);
        oo_path_print(stderr, &pa);
        fprintf(stderr, " exp: ");
        oo_path_print(stderr, &pb);
      }
      if (d > maxd) maxd = d;
      CHECK_EQ(oo_otv_outline(&o, gid, OTV_OUTLINE_ROUND, &pa, NULL), 0);
      d = oo_path_diff(&pa, &pb, 0, &why);
      if (d > maxr || d < 0) maxr = d < 0 ? 1e9 : d;
      want = 0;
    }
  }
  fclose(f);
  printf("%-40s %ld expected records: max|d| %.4f unrounded, %.4f rounded\n", txt, records, maxd,
         maxr);
  CHECK(records > 0);
  CHECK_EQ(mismatches, 0);
  CHECK(maxr <= 1.0);
  oo_font_close(&o);
}

static int by_name(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
  /* every TrueType test font */
  const char *dir = getenv("OTV_FONTS");
  if (!dir) dir = "tests/fonts";
  DIR *d = opendir(dir);
  CHECK(d != NULL);
  char *names[256];
  int n = 0;
  struct dirent *e;
  while (d && (e = readdir(d)) && n < 256) {
    size_t l = strlen(e->d_name);
    if (l > 4 && !strcmp(e->d_name + l - 4, ".ttf")) names[n++] = strdup(e->d_name);
  }
  if (d) closedir(d);
  qsort(names, (size_t)n, sizeof *names, by_name);
  for (int i = 0; i < n; i++) {
    char p[4096];
    snprintf(p, sizeof p, "%s/%s", dir, names[i]);
    test_font(p, names[i], 400);
    free(names[i]);
  }
  expected_file("vazirmatn_var_trimmed.ttf", "vazirmatn_var_trimmed-glyphs.txt");
  expected_file("material_symbols_subset.ttf", "material_symbols_subset-glyphs.txt");

  /* real variable fonts */
  static const char *real[] = {"Inter-roman.var.ttf",       "SourceSerif4Variable-Roman.ttf",
                               "SourceSans3VF-Upright.ttf", "RobotoFlex-latin.ttf",
                               "Recursive-latin.ttf",       "Karla-Italic-VF.ttf"};
  for (size_t i = 0; i < sizeof real / sizeof *real; i++) {
    const char *p = oo_cache_font(real[i]);
    if (!p) {
      printf("SKIP %s: OTV_FONT_CACHE unset\n", real[i]);
      continue;
    }
    test_font(p, real[i], 20);
  }
  oo_path_free(&pa);
  oo_path_free(&pb);
  oo_path_free(&pc);
  return h_done("test_outline_glyf");
}

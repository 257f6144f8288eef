/*
 * test_instance_cff1.c - static instances of CFF2 fonts written as CFF (version 1), against
 * FreeType and HarfBuzz.
 *
 * For every CFF2 font (the test fonts and, when cached, Source Serif/Sans and Cantarell) at each
 * named instance and 20 random locations: the instance I (a 'CFF ' table, no CFF2, no fvar) is
 * drawn by FreeType (FT_LOAD_NO_SCALE) and HarfBuzz, and each must match otvar drawing the
 * variable font at that location with every point rounded with floor(x + 0.5), within
 * TOL_POINTS (1 unit), and be within TOL_RAW (1 unit) of the unrounded outline at every point.
 * The instance stores integers: each path operator's operands written in one charstring carry
 * the rounding forward along the contour (0.5 at most); a kept subroutine writes its points
 * rounded from its own start, so a glyph writes a call inline where its points would stand more
 * than a unit off or where it leaves rounded values for the glyph's operators (measured over
 * every glyph at every location here: 1.000, 0.500 in Source Serif 4; 2-4 units before). A
 * contour of the instance that closes unlike the variable font's rounded outline (a closing
 * line of a unit or two that it lacks, or the other way) is counted, FreeType and HarfBuzz,
 * and none may (the writer's closing pass); such lines are then dropped before comparing the
 * points. The worst distance from the exact outline is printed.
 * Hinted outlines (FreeType, ppem 12-48) against the variable font's are counted and printed
 * (OTV_CFF1_HINTDBG=1: each glyph and ppem that differs).
 * The static CFF2 instance (OTV_INSTANCE_CFF2: the same walker, subroutines and hints kept) is
 * checked the same way at the named instances and the first CFF2_LOCATIONS random locations.
 * Also: the hmtx advances of I equal otvar's rounded advances of the variable font, and every
 * real font's instance keeps subroutines when the source has them (counted by the Python
 * oracle, test_instance_cff1.py). OTV_CFF1_FULL=1 compares every glyph of the large fonts
 * (default: every 8th).
 */
#include "harness.h"
#include "oracle_outline.h"

#include <math.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct ccase {
  const char *font;
  bool cache;
  unsigned glyph_step; /* large fonts: every Nth glyph unless OTV_CFF1_FULL=1 */
  bool hints_counted;  /* exact instances' hinting counted, not asserted (see below) */
  bool matrix; /* a FontMatrix FreeType (NO_SCALE) and HarfBuzz do not apply: the CFF instance
                * (which keeps it) drawn by otvar; the --cff2 one, flattened, by them */
} ccase;

static const ccase CASES[] = {
    {"AdobeVFPrototype_vsindex.otf", false, 1, false, false},
    {"CFF2Instancer-VF-1.otf", false, 1, false, false},
    {"NotoSansJP-VF.subset.otf", false, 1, false, false},
    {"AdobeVFPrototype_chained_blend.otf", false, 1, false, false},
    /* Source Serif 4: its exact instances' unhinted outlines equal the variable font's in
     * FreeType, but hinted, FreeType 2.12 draws some glyphs differently (0.1-24 % of the
     * glyphs): the font blends its BlueScale, which FreeType reads 1000x too small from a
     * blend: the exact instance at named instance 0 given BlueScale / 1000 hints as the
     * variable font at 12 and 24 ppem (0 glyphs differ, 423 and 421 of 1464 with the true
     * value). Counted, not asserted. (Cantarell's accented glyphs differed by a pixel until the
     * Private DICT's integer values were written rounded as FreeType reads the variable
     * font's: cff1.h, otv_cff_private_int.) */
    {"SourceSerif4Variable-Roman.otf", true, 8, true, false},
    {"SourceSans3VF-Upright.otf", true, 8, false, false},
    {"Cantarell-VF.otf", true, 8, false, false},
    /* tests/fonts/make_cff2_flatten.py: blend results as a subroutine number and a blend count
     * in kept subroutines; a FontMatrix of half units (--cff2 flattens the font) */
    {"cff2_blend_numbers.otf", false, 1, false, false},
    {"cff2_flat_fm.otf", false, 1, false, true},
};

#define RANDOM_LOCATIONS 20
#define CFF2_LOCATIONS 5 /* random locations where the --cff2 instance is checked too */
#define TOL_POINTS 1.0   /* see the header: units between the instance and the rounded outline */
#define TOL_RAW 1.001    /* units between the instance and the unrounded outline (float sums) */
#define SHORT_LINE 2.0f
#define TOL_EXACT 0.002 /* units: 16.16 values, HarfBuzz's float arithmetic */

static double worst_ft, worst_hb, worst_raw, worst_exact;

/* Drop the closing line of each contour whose last point is within len units of its start in x
 * and in y (the contour closes there but for rounding). */
static void drop_short_closing(oo_path *p, float len)
{
  size_t wr = 0;
  for (size_t c = 0; c < p->n_con; c++) {
    oo_contour *k = &p->con[c];
    size_t n = k->n;
    if (n >= 2 && p->seg[k->first + n - 1].op == 'L') {
      const oo_seg *prev = &p->seg[k->first + n - 2];
      int e = prev->op == 'L' ? 0 : prev->op == 'Q' ? 2 : 4;
      if (fabsf(prev->p[e] - k->x0) <= len && fabsf(prev->p[e + 1] - k->y0) <= len) n--;
    }
    memmove(&p->seg[wr], &p->seg[k->first], n * sizeof *p->seg);
    k->first = wr, k->n = n;
    wr += n;
  }
  p->n_seg = wr;
}

/* Whether contour c of p ends with a closing line no longer than len in x and in y (a contour
 * that closes but for rounding). */
static bool short_closing(const oo_path *p, size_t c, float len)
{
  const oo_contour *k = &p->con[c];
  if (k->n < 2 || p->seg[k->first + k->n - 1].op != 'L') return false;
  const oo_seg *prev = &p->seg[k->first + k->n - 2];
  int e = prev->op == 'L' ? 0 : prev->op == 'Q' ? 2 : 4;
  float dx = fabsf(prev->p[e] - k->x0), dy = fabsf(prev->p[e + 1] - k->y0);
  return (dx > 0 || dy > 0) && dx <= len && dy <= len;
}

/* The contours of a (the variable font rounded) and b (an instance) of which one has a short
 * closing line and the other none: the instance gained (or lost) a closing line of a unit or
 * two where rounding differences were carried across subroutine calls. (Contour counts that
 * differ are reported by the comparison.) */
static unsigned long closing_lines, closing_contours;
static unsigned closing_differs(const oo_path *a, const oo_path *b)
{
  if (a->n_con != b->n_con) return 0;
  unsigned n = 0;
  for (size_t c = 0; c < a->n_con; c++)
    n += short_closing(a, c, SHORT_LINE) != short_closing(b, c, SHORT_LINE);
  return n;
}

/* Every point of a path rounded with floor(x + 0.5): the outline an exact static instance
 * stores. */
static void round_path(oo_path *p)
{
  for (size_t i = 0; i < p->n_con; i++) {
    p->con[i].x0 = floorf(p->con[i].x0 + 0.5f);
    p->con[i].y0 = floorf(p->con[i].y0 + 0.5f);
  }
  for (size_t i = 0; i < p->n_seg; i++)
    for (int k = 0; k < 6; k++) p->seg[i].p[k] = floorf(p->seg[i].p[k] + 0.5f);
}

/* Hinted outlines (FreeType's CFF hinter): the instance's against the variable font's at the
 * same coordinates (already set in FreeType), every point within 1/64 px (one 26.6 unit), per
 * ppem. Integer instances are counted, not asserted: they store the blended stems and points
 * rounded, so an edge that the variable font places near a pixel boundary can snap the other
 * way (half a unit is 0.024 px at 48 ppem, 1000 upem: more than 1/64 px from ~31 ppem). Exact
 * instances (OTV_INSTANCE_CFF_EXACT) must be within 1/64 px everywhere. */
#define PPEM_MIN 12
#define PPEM_MAX 48
typedef struct hint_stats {
  unsigned long glyphs[PPEM_MAX + 1], same[PPEM_MAX + 1], px1[PPEM_MAX + 1];
  long worst[PPEM_MAX + 1]; /* 26.6 units */
} hint_stats;
static hint_stats hs_int, hs_exact;
static bool all_ppems; /* OTV_CFF1_FULL=1: every ppem 12-48, else every 4th */

/* The points of a hinted outline into out (o->n_points of room), each contour without a last
 * on-curve point equal to its first: FreeType keeps such a closing point where the contour's
 * end misses its start by a fraction of a unit before hinting (the variable font's 16.16 blend
 * results rounded one by one: Source Sans 3's uni030C0313 at wght=400) and drops it where they
 * are equal (the exact instance's sums), the same outline either way. */
static short canon_points(const FT_Outline *o, FT_Vector *out)
{
  short n = 0, first = 0;
  for (short c = 0; c < o->n_contours; c++) {
    short last = o->contours[c];
    for (short i = first; i <= last; i++) {
      bool dup = i == last && i > first && (o->tags[i] & 1) &&
                 o->points[i].x == o->points[first].x && o->points[i].y == o->points[first].y;
      if (!dup) out[n++] = o->points[i];
    }
    first = (short)(last + 1);
  }
  return n;
}

static void compare_hinted(oo_font *f, oo_font *p, unsigned step, hint_stats *hs)
{
  for (unsigned ppem = PPEM_MIN; ppem <= PPEM_MAX; ppem += all_ppems ? 1 : 4) {
    if (FT_Set_Pixel_Sizes(f->ft, 0, ppem) || FT_Set_Pixel_Sizes(p->ft, 0, ppem)) return;
    for (unsigned g = 0; g < f->glyph_count; g += step) {
      if (FT_Load_Glyph(f->ft, g, FT_LOAD_DEFAULT)) continue;
      FT_Outline a = f->ft->glyph->outline;
      FT_Vector *ap = malloc(sizeof *ap * (a.n_points ? (size_t)a.n_points : 1));
      if (!ap) return;
      short an = canon_points(&a, ap);
      if (FT_Load_Glyph(p->ft, g, FT_LOAD_DEFAULT)) {
        free(ap);
        continue;
      }
      FT_Outline b = p->ft->glyph->outline;
      FT_Vector *bp = malloc(sizeof *bp * (b.n_points ? (size_t)b.n_points : 1));
      if (!bp) {
        free(ap);
        return;
      }
      short bn = canon_points(&b, bp);
      hs->glyphs[ppem]++;
      long worst = 0;
      if (an != bn) {
        worst = 1 << 20;
        if (getenv("OTV_CFF1_DEBUG"))
          fprintf(stderr, "hinted ppem %u glyph %u: %d points, the variable font %d\n", ppem, g,
                  (int)bn, (int)an);
      } else {
        for (short i = 0; i < an; i++) {
          long dx = labs(ap[i].x - bp[i].x), dy = labs(ap[i].y - bp[i].y);
          if (dx > worst) worst = dx;
          if (dy > worst) worst = dy;
        }
      }
      if (worst > hs->worst[ppem]) hs->worst[ppem] = worst;
      if (worst > 1 && getenv("OTV_CFF1_HINTDBG"))
        fprintf(stderr, "HINT %s ppem %u glyph %u worst %ld/64\n",
                hs == &hs_exact ? "exact" : "int", ppem, g, worst);
      if (worst <= 1)
        hs->same[ppem]++; /* within 1/64 px */
      else if (worst <= 64)
        hs->px1[ppem]++;
      free(ap), free(bp);
    }
  }
}

static void print_hinted(const char *what, const hint_stats *hs)
{
  unsigned long g = 0, same = 0;
  printf("  hinted (FreeType, named instances), %s: ppem:within 1/64 px/compared", what);
  for (unsigned ppem = PPEM_MIN; ppem <= PPEM_MAX; ppem++) {
    if (!hs->glyphs[ppem]) continue;
    printf(" %u:%lu/%lu", ppem, hs->same[ppem], hs->glyphs[ppem]);
    g += hs->glyphs[ppem], same += hs->same[ppem];
  }
  printf(" (all: %lu/%lu)\n", same, g);
}

/* One location (already set in f.loc): instance, open, compare. */
static void check_location(oo_font *f, const char *name, const char *tmp, unsigned step,
                           const char *where, bool hinted, unsigned flags, bool matrix)
{
  uint8_t *out = NULL;
  size_t len = 0;
  otv_status st = otv_instance_create(f->loc, flags, &out, &len);
  if (st) {
    fprintf(stderr, "%s %s: instance: %s\n", name, where, otv_location_last_error(f->loc)->msg);
    CHECK_EQ(st, OTV_E_OK);
    return;
  }
  FILE *fp = fopen(tmp, "wb");
  CHECK(fp && fwrite(out, 1, len, fp) == len);
  if (fp) fclose(fp);
  otv_instance_free(f->loc, out, len);
  oo_font p;
  if (oo_font_open(&p, tmp)) {
    CHECK(!"instance opens");
    return;
  }
  size_t cff_len = 0, cff2_len = 0;
  bool cff2 = (flags & OTV_INSTANCE_CFF2) != 0; /* a static CFF2 table instead */
  bool exact = (flags & OTV_INSTANCE_CFF_EXACT) != 0;
  CHECK((otv_face_table(p.face, OTV_TAG('C', 'F', 'F', ' '), &cff_len) != NULL) == !cff2);
  CHECK((otv_face_table(p.face, OTV_TAG('C', 'F', 'F', '2'), &cff2_len) != NULL) == cff2);
  CHECK_EQ(p.axis_count, 0);
  CHECK(p.ft_ok);
  oo_path a, r, b, c;
  memset(&a, 0, sizeof a), memset(&r, 0, sizeof r), memset(&b, 0, sizeof b);
  memset(&c, 0, sizeof c);
  for (unsigned g = 0; g < f->glyph_count; g += step) {
    if (oo_otv_outline(f, g, 0, &a, NULL) || oo_otv_outline(f, g, 0, &r, NULL)) {
      CHECK(!"otvar draws the variable font");
      continue;
    }
    bool by_otvar = matrix && !cff2; /* (the instance keeps the FontMatrix) */
    if (by_otvar ? oo_otv_outline(&p, g, 0, &b, NULL) || oo_otv_outline(&p, g, 0, &c, NULL)
                 : oo_ft_outline(&p, g, &b) || oo_hb_outline(&p, g, &c)) {
      fprintf(stderr, "%s %s glyph %u: FreeType or HarfBuzz cannot draw the instance\n", name,
              where, g);
      CHECK(!"FreeType and HarfBuzz draw the instance");
      continue;
    }
    const char *why = NULL;
    if (exact) {
      /* the unrounded outline, to the 16.16 values stored */
      /* (a contour that closes in exact arithmetic can end 1/65536 off its start in the sums
       * of 16.16 values: a closing line that short is dropped) */
      oo_path_drop_zero_lines(&r), drop_short_closing(&r, (float)TOL_EXACT);
      oo_path_drop_zero_lines(&c), drop_short_closing(&c, (float)TOL_EXACT);
      double d = oo_path_diff(&r, &c, 1, &why);
      if (d < 0 || d > TOL_EXACT) {
        fprintf(stderr, "%s %s glyph %u: HarfBuzz (exact) %s %g\n", name, where, g,
                why ? why : "off by", d);
        CHECK(!"HarfBuzz draws the exact instance as otvar the variable font");
      } else if (d > worst_exact) {
        worst_exact = d;
      }
      continue;
    }
    round_path(&a);
    /* FreeType drops the zero-length lines that rounding makes (HarfBuzz some of them); a
     * contour of the instance that ends a unit or two from its start (rounding differences
     * carried across subroutine calls) has a closing line the rounded outline lacks */
    oo_path_drop_zero_lines(&a), oo_path_drop_zero_lines(&b), oo_path_drop_zero_lines(&c);
    unsigned cft = closing_differs(&a, &b), chb = closing_differs(&a, &c);
    closing_contours += a.n_con;
    if (cft || chb) {
      closing_lines += cft > chb ? cft : chb;
      fprintf(stderr,
              "%s %s glyph %u: %u contours (FreeType), %u (HarfBuzz) with a closing line "
              "the variable font lacks or the other way\n",
              name, where, g, cft, chb);
    }
    drop_short_closing(&a, SHORT_LINE), drop_short_closing(&b, SHORT_LINE);
    double dft = oo_path_diff(&a, &b, 0, &why);
    if (dft < 0 || dft > TOL_POINTS) {
      fprintf(stderr, "%s %s glyph %u: FreeType %s %g\n", name, where, g, why ? why : "off by",
              dft);
      static int printed;
      if (printed++ < 2) {
        fprintf(stderr, "otvar:    "), oo_path_print(stderr, &a);
        fprintf(stderr, "\nFreeType: "), oo_path_print(stderr, &b), fprintf(stderr, "\n");
      }
      CHECK(!"FreeType draws the instance as otvar the variable font");
    } else if (dft > worst_ft) {
      worst_ft = dft;
    }
    drop_short_closing(&c, SHORT_LINE);
    double dhb = oo_path_diff(&a, &c, 1, &why);
    oo_path_drop_zero_lines(&r), drop_short_closing(&r, SHORT_LINE);
    double draw = oo_path_diff(&r, &c, 1, NULL); /* from the exact outline */
    if (draw > worst_raw) worst_raw = draw;
    if (draw > TOL_RAW) { /* (-1: a zero-length line where the other has a short one) */
      fprintf(stderr, "%s %s glyph %u: HarfBuzz %g from the unrounded outline\n", name, where, g,
              draw);
      CHECK(!"the instance is within a unit of the variable font");
    }
    if (getenv("OTV_CFF1_DEBUG") &&
        draw > (getenv("OTV_CFF1_DRIFT") ? atof(getenv("OTV_CFF1_DRIFT")) : 1.6))
      fprintf(stderr, "DRIFT %s %s glyph %u %g\n", name, where, g, draw);
    if (getenv("OTV_CFF1_DEBUG") &&
        draw > (getenv("OTV_CFF1_DRIFT") ? atof(getenv("OTV_CFF1_DRIFT")) : 1.6) &&
        atoi(getenv("OTV_CFF1_DEBUG")) == (int)g) {
      fprintf(stderr, "exact:    "), oo_path_print(stderr, &r);
      fprintf(stderr, "\nHarfBuzz: "), oo_path_print(stderr, &c), fprintf(stderr, "\n");
    }
    if (dhb < 0 || dhb > TOL_POINTS) {
      fprintf(stderr, "%s %s glyph %u: HarfBuzz %s %g\n", name, where, g, why ? why : "off by",
              dhb);
      CHECK(!"HarfBuzz draws the instance as otvar the variable font");
    } else if (dhb > worst_hb) {
      worst_hb = dhb;
    }
    float adv = 0;
    otv_glyph_advances(f->loc, &g, 1, OTV_METRICS_ROUND, &adv);
    long fta = oo_ft_advance(&p, g);
    if (fta != (long)adv) {
      fprintf(stderr, "%s %s glyph %u: advance %ld, variable font %g\n", name, where, g, fta, adv);
      CHECK_EQ(fta, (long)adv);
    }
  }
  oo_path_free(&a), oo_path_free(&r), oo_path_free(&b), oo_path_free(&c);
  if (hinted && f->ft_ok && p.ft_ok) {
    otv_f2dot14 co[64];
    unsigned na = otv_location_normalized(f->loc, co, 64);
    oo_font_set_normalized(f, co, na);
    compare_hinted(f, &p, step, exact ? &hs_exact : &hs_int);
  }
  oo_font_close(&p);
}

static void run_case(const ccase *c, const char *dir, const char *tmp, bool full)
{
  char path[4096];
  if (c->cache) {
    const char *p = oo_cache_font(c->font);
    if (!p || access(p, R_OK)) {
      printf("SKIP %s: not in OTV_FONT_CACHE (tests/fetch-fonts.sh fetches it)\n", c->font);
      return;
    }
    snprintf(path, sizeof path, "%s", p);
  } else {
    snprintf(path, sizeof path, "%s/%s", dir, c->font);
  }
  oo_font f;
  if (oo_font_open(&f, path)) {
    CHECK(!"source font opens");
    return;
  }
  unsigned step = full ? 1 : c->glyph_step;
  worst_ft = worst_hb = worst_raw = worst_exact = 0;
  closing_lines = closing_contours = 0;
  memset(&hs_int, 0, sizeof hs_int), memset(&hs_exact, 0, sizeof hs_exact);
  unsigned named = otv_face_named_instances(f.face, 0, NULL, NULL), locations = 0;
  char where[64];
  for (unsigned i = 0; i < named; i++) {
    CHECK_EQ(otv_location_set_named(f.loc, i), OTV_E_OK);
    char where2[80];
    snprintf(where, sizeof where, "named instance %u", i);
    check_location(&f, c->font, tmp, step, where, true, 0, c->matrix);
    snprintf(where2, sizeof where2, "%s (exact)", where);
    check_location(&f, c->font, tmp, step, where2, true, OTV_INSTANCE_CFF_EXACT, c->matrix);
    snprintf(where2, sizeof where2, "%s (--cff2)", where);
    check_location(&f, c->font, tmp, step, where2, false, OTV_INSTANCE_CFF2, c->matrix);
    locations++;
  }
  unsigned long long seed = 0x2545F4914F6CDD1DULL ^ f.glyph_count;
  for (int l = 0; l < RANDOM_LOCATIONS; l++) {
    otv_f2dot14 co[64];
    for (unsigned a = 0; a < f.axis_count && a < 64; a++) co[a] = oo_rand_coord(&seed);
    otv_location_set_normalized(f.loc, co, f.axis_count);
    snprintf(where, sizeof where, "random location %d", l);
    check_location(&f, c->font, tmp, step, where, false, 0, c->matrix);
    if (l < CFF2_LOCATIONS) {
      char where2[80];
      snprintf(where2, sizeof where2, "%s (--cff2)", where);
      check_location(&f, c->font, tmp, step, where2, false, OTV_INSTANCE_CFF2, c->matrix);
    }
    locations++;
  }
  printf("%s: %u locations, every %u glyph(s): FreeType within %.4f, HarfBuzz within %.5f of "
         "the rounded variable font; %.3f of the unrounded one; exact instances (named) within "
         "%.5f of it\n",
         c->font, locations, step, worst_ft, worst_hb, worst_raw, worst_exact);
  printf("  closing lines: %lu of %lu contours (integer instances) close unlike the variable "
         "font's\n",
         closing_lines, closing_contours);
  if (closing_lines) CHECK(!"the instance's contours close as the variable font's");
  print_hinted("integers", &hs_int);
  print_hinted("exact", &hs_exact);
  for (unsigned ppem = PPEM_MIN; ppem <= PPEM_MAX && !c->hints_counted; ppem++)
    if (hs_exact.same[ppem] != hs_exact.glyphs[ppem]) {
      fprintf(stderr,
              "%s: exact instance, ppem %u: %lu of %lu hinted outlines within 1/64 px "
              "(worst %ld/64)\n",
              c->font, ppem, hs_exact.same[ppem], hs_exact.glyphs[ppem], hs_exact.worst[ppem]);
      CHECK(!"exact instances hint as the variable font");
    }
  oo_font_close(&f);
}

int main(void)
{
  const char *dir = getenv("OTV_FONTS");
  if (!dir) dir = "tests/fonts";
  const char *fl = getenv("OTV_CFF1_FULL");
  bool full = fl && *fl == '1';
  all_ppems = full;
  char tmp[] = "/tmp/otv_cff1_XXXXXX";
  int fd = mkstemp(tmp);
  if (fd < 0) return 1;
  close(fd);
  const char *only = getenv("OTV_CFF1_ONLY"); /* (debugging: one font) */
  for (size_t i = 0; i < sizeof CASES / sizeof *CASES; i++)
    if (!only || strstr(CASES[i].font, only)) run_case(&CASES[i], dir, tmp, full);
  unlink(tmp);
  return h_done("test_instance_cff1");
}

/*
 * test_instance_cff1.c - static instances of CFF2 fonts written as CFF (version 1), against
 * FreeType and HarfBuzz.
 *
 * For every CFF2 font (the test fonts and, when cached, Source Serif/Sans and Cantarell) at each
 * named instance and 20 random locations: the instance I (a 'CFF ' table, no CFF2, no fvar) is
 * drawn by FreeType (FT_LOAD_NO_SCALE) and HarfBuzz, and each must match otvar drawing the
 * variable font at that location with every point rounded with floor(x + 0.5): what the
 * instance stores where each path operator's operands are in its own charstring (the rounding
 * is carried forward along the contour). Where operands cross kept subroutine calls a shared
 * subroutine cannot make up for each caller's rounding: TOL_POINTS (4 units; measured over every
 * glyph: 0 in the test fonts, 1 in Source Serif 4 from ties at x.5, 2 in Source Sans 3, 3 in
 * Cantarell); a
 * contour that ends that close to its start has a closing line the rounded outline lacks
 * (dropped before comparing). The worst distance from the exact outline is printed.
 * Hinted outlines (FreeType, ppem 12-48) against the variable font's are counted and printed.
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
} ccase;

static const ccase CASES[] = {
    {"AdobeVFPrototype_vsindex.otf", false, 1},
    {"CFF2Instancer-VF-1.otf", false, 1},
    {"NotoSansJP-VF.subset.otf", false, 1},
    {"AdobeVFPrototype_chained_blend.otf", false, 1},
    {"SourceSerif4Variable-Roman.otf", true, 8},
    {"SourceSans3VF-Upright.otf", true, 8},
    {"Cantarell-VF.otf", true, 8},
};

#define RANDOM_LOCATIONS 20
#define TOL_POINTS 4.0 /* see the header: units between the instance and the rounded outline */
#define SHORT_LINE 2.0f

static double worst_ft, worst_hb, worst_raw;

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

/* Hinted outlines (FreeType's CFF hinter, ppem 12, 24, 36, 48): the instance's against the
 * variable font's at the same coordinates (already set in FreeType). Counted, not asserted: the
 * instance stores the blended stems rounded, so an edge that the variable font places at a
 * pixel boundary can snap the other way. */
static unsigned long hint_glyphs, hint_same, hint_1px;
static void compare_hinted(oo_font *f, oo_font *p, unsigned step)
{
  static const unsigned ppems[] = {12, 24, 36, 48};
  for (size_t k = 0; k < sizeof ppems / sizeof *ppems; k++) {
    if (FT_Set_Pixel_Sizes(f->ft, 0, ppems[k]) || FT_Set_Pixel_Sizes(p->ft, 0, ppems[k])) return;
    for (unsigned g = 0; g < f->glyph_count; g += step) {
      if (FT_Load_Glyph(f->ft, g, FT_LOAD_DEFAULT)) continue;
      FT_Outline a = f->ft->glyph->outline;
      FT_Vector *ap = malloc(sizeof *ap * (a.n_points ? (size_t)a.n_points : 1));
      if (!ap) return;
      if (a.n_points) memcpy(ap, a.points, sizeof *ap * (size_t)a.n_points);
      short an = a.n_points;
      if (FT_Load_Glyph(p->ft, g, FT_LOAD_DEFAULT)) {
        free(ap);
        continue;
      }
      FT_Outline b = p->ft->glyph->outline;
      hint_glyphs++;
      long worst = 0;
      if (an != b.n_points) {
        worst = 1 << 20;
      } else {
        for (short i = 0; i < an; i++) {
          long dx = labs(ap[i].x - b.points[i].x), dy = labs(ap[i].y - b.points[i].y);
          if (dx > worst) worst = dx;
          if (dy > worst) worst = dy;
        }
      }
      if (worst <= 1)
        hint_same++; /* within 1/64 px */
      else if (worst <= 64)
        hint_1px++;
      free(ap);
    }
  }
}

/* One location (already set in f.loc): instance, open, compare. */
static void check_location(oo_font *f, const char *name, const char *tmp, unsigned step,
                           const char *where, bool hinted)
{
  uint8_t *out = NULL;
  size_t len = 0;
  otv_status st = otv_instance_create(f->loc, 0, &out, &len);
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
  CHECK(otv_face_table(p.face, OTV_TAG('C', 'F', 'F', ' '), &cff_len) != NULL);
  CHECK(otv_face_table(p.face, OTV_TAG('C', 'F', 'F', '2'), &cff2_len) == NULL);
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
    if (oo_ft_outline(&p, g, &b) || oo_hb_outline(&p, g, &c)) {
      fprintf(stderr, "%s %s glyph %u: FreeType or HarfBuzz cannot draw the instance\n", name,
              where, g);
      CHECK(!"FreeType and HarfBuzz draw the instance");
      continue;
    }
    const char *why = NULL;
    round_path(&a);
    /* FreeType drops the zero-length lines that rounding makes (HarfBuzz some of them); a
     * contour of the instance that ends a unit or two from its start (rounding differences
     * carried across subroutine calls) has a closing line the rounded outline lacks */
    oo_path_drop_zero_lines(&a), drop_short_closing(&a, SHORT_LINE);
    oo_path_drop_zero_lines(&b), drop_short_closing(&b, SHORT_LINE);
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
    oo_path_drop_zero_lines(&c), drop_short_closing(&c, SHORT_LINE);
    double dhb = oo_path_diff(&a, &c, 1, &why);
    oo_path_drop_zero_lines(&r), drop_short_closing(&r, SHORT_LINE);
    double draw = oo_path_diff(&r, &c, 1, NULL); /* from the exact outline */
    if (draw > worst_raw) worst_raw = draw;
    if (getenv("OTV_CFF1_DEBUG") && draw > 1.6)
      fprintf(stderr, "DRIFT %s %s glyph %u %g\n", name, where, g, draw);
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
    compare_hinted(f, &p, step);
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
  worst_ft = worst_hb = worst_raw = 0;
  hint_glyphs = hint_same = hint_1px = 0;
  unsigned named = otv_face_named_instances(f.face, 0, NULL, NULL), locations = 0;
  char where[64];
  for (unsigned i = 0; i < named; i++) {
    CHECK_EQ(otv_location_set_named(f.loc, i), OTV_E_OK);
    snprintf(where, sizeof where, "named instance %u", i);
    check_location(&f, c->font, tmp, step, where, true);
    locations++;
  }
  unsigned long long seed = 0x2545F4914F6CDD1DULL ^ f.glyph_count;
  for (int l = 0; l < RANDOM_LOCATIONS; l++) {
    otv_f2dot14 co[64];
    for (unsigned a = 0; a < f.axis_count && a < 64; a++) co[a] = oo_rand_coord(&seed);
    otv_location_set_normalized(f.loc, co, f.axis_count);
    snprintf(where, sizeof where, "random location %d", l);
    check_location(&f, c->font, tmp, step, where, false);
    locations++;
  }
  printf("%s: %u locations, every %u glyph(s): FreeType within %.4f, HarfBuzz within %.5f of "
         "the rounded variable font; %.3f of the unrounded one\n",
         c->font, locations, step, worst_ft, worst_hb, worst_raw);
  if (hint_glyphs)
    printf("  hinted (FreeType, named instances, ppem 12-48): %lu of %lu outlines within 1/64 px "
           "of the variable font's, %lu more within 1 px\n",
           hint_same, hint_glyphs, hint_1px);
  oo_font_close(&f);
}

int main(void)
{
  const char *dir = getenv("OTV_FONTS");
  if (!dir) dir = "tests/fonts";
  const char *fl = getenv("OTV_CFF1_FULL");
  bool full = fl && *fl == '1';
  char tmp[] = "/tmp/otv_cff1_XXXXXX";
  int fd = mkstemp(tmp);
  if (fd < 0) return 1;
  close(fd);
  for (size_t i = 0; i < sizeof CASES / sizeof *CASES; i++) run_case(&CASES[i], dir, tmp, full);
  unlink(tmp);
  return h_done("test_instance_cff1");
}

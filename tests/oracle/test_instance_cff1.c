/*
 * test_instance_cff1.c - static instances of CFF2 fonts written as CFF (version 1), against
 * FreeType and HarfBuzz.
 *
 * For every CFF2 font (the test fonts and, when cached, Source Serif/Sans and Cantarell) at each
 * named instance and 20 random locations: the instance I (a 'CFF ' table, no CFF2, no fvar) is
 * drawn by FreeType (FT_LOAD_NO_SCALE) and HarfBuzz, and each must match otvar drawing the
 * variable font at that location with OTV_OUTLINE_ROUND: the instance stores every blend result
 * rounded with floor(x + 0.5), which is what that flag draws. Tolerance: 1/64 unit for HarfBuzz
 * (it adds the same integers in float) and 1 unit for FreeType (its NO_SCALE outline rounds
 * 16.16 sums of fractional operands to integers). Against the unrounded variable font the
 * difference is the accumulated rounding of relative operands, printed (not asserted).
 * Also: the hmtx advances of I equal otvar's rounded advances of the variable font, and every
 * real font's instance keeps subroutines when the source has them (counted by the Python
 * oracle, test_instance_cff1.py). OTV_CFF1_FULL=1 compares every glyph of the large fonts
 * (default: every 5th).
 */
#include "harness.h"
#include "oracle_outline.h"

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
    {"SourceSerif4Variable-Roman.otf", true, 5},
    {"SourceSans3VF-Upright.otf", true, 5},
    {"Cantarell-VF.otf", true, 5},
};

#define RANDOM_LOCATIONS 20

static double worst_ft, worst_hb, worst_raw;

/* One location (already set in f.loc): instance, open, compare. */
static void check_location(oo_font *f, const char *name, const char *tmp, unsigned step,
                           const char *where)
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
    if (oo_otv_outline(f, g, OTV_OUTLINE_ROUND, &a, NULL) || oo_otv_outline(f, g, 0, &r, NULL)) {
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
    double draw = oo_path_diff(&r, &a, 0, NULL); /* the rounding's drift (-1: a zero-length
                                                  * line in one of them) */
    if (draw > worst_raw) worst_raw = draw;
    /* FreeType drops the zero-length lines that rounding makes (HarfBuzz some of them) */
    oo_path_drop_zero_lines(&a);
    oo_path_drop_zero_lines(&b);
    double dft = oo_path_diff(&a, &b, 0, &why);
    if (dft < 0 || dft > 1.0) {
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
    oo_path_drop_zero_lines(&c);
    double dhb = oo_path_diff(&a, &c, 1, &why);
    if (dhb < 0 || dhb > 1.0 / 64) {
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
  unsigned named = otv_face_named_instances(f.face, 0, NULL, NULL), locations = 0;
  char where[64];
  for (unsigned i = 0; i < named; i++) {
    CHECK_EQ(otv_location_set_named(f.loc, i), OTV_E_OK);
    snprintf(where, sizeof where, "named instance %u", i);
    check_location(&f, c->font, tmp, step, where);
    locations++;
  }
  unsigned long long seed = 0x2545F4914F6CDD1DULL ^ f.glyph_count;
  for (int l = 0; l < RANDOM_LOCATIONS; l++) {
    otv_f2dot14 co[64];
    for (unsigned a = 0; a < f.axis_count && a < 64; a++) co[a] = oo_rand_coord(&seed);
    otv_location_set_normalized(f.loc, co, f.axis_count);
    snprintf(where, sizeof where, "random location %d", l);
    check_location(&f, c->font, tmp, step, where);
    locations++;
  }
  printf("%s: %u locations, every %u glyph(s): FreeType within %.4f, HarfBuzz within %.5f of "
         "the rounded variable font; %.3f of the unrounded one\n",
         c->font, locations, step, worst_ft, worst_hb, worst_raw);
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

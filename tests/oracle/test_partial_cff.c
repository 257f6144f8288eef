/*
 * test_partial_cff.c - partial instances of CFF2 fonts against HarfBuzz.
 *
 * A partial instance P of F (some axes pinned, the others kept) must draw at every location L of
 * the kept axes what F draws at PINS + L. HarfBuzz draws both (hb_font_draw_glyph at scale =
 * upem, the same normalized coordinates otvar would use): every glyph (every 4th of the large
 * real fonts) at the kept axes' defaults, extremes and 4 random locations. fontTools (Debian's
 * 4.38) cannot instance CFF2, so HarfBuzz is the oracle here.
 * Tolerances, derived: P's blends are written as 16.16 fixed numbers where they are not
 * integers, and HarfBuzz blends in float, so a point may differ by float rounding along a
 * contour: 0.05 unit. Advances come from HVAR, whose deltas are rounded: 2 units.
 * Also: P opens with the kept axes only.
 */
#include "harness.h"
#include "oracle_outline.h"

#include <math.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct pcase {
  const char *font; /* in tests/fonts, or (cache) in $OTV_FONT_CACHE */
  bool cache;
  uint32_t pin_tag; /* one pinned axis (0: none, the kept axes are all) */
  otv_f2dot14 pin;  /* its normalized coordinate */
  uint32_t keep[2];
  unsigned nkeep;
  unsigned glyph_step;
  bool limits; /* cff2_nested_blend.otf: otv_instance_create_limits, wght 100:500:900 (its new
                * default at F's normalized 0.5: F's wght = 0.5 + P's / 2) and wdth kept whole */
} pcase;

#define T(a, b, c, d) OTV_TAG(a, b, c, d)

static const pcase CASES[] = {
    /* two axes, vsindex in the charstrings */
    {"AdobeVFPrototype_vsindex.otf",
     false,
     T('C', 'N', 'T', 'R'),
     9830,
     {T('w', 'g', 'h', 't')},
     1,
     1,
     false},
    {"AdobeVFPrototype_vsindex.otf",
     false,
     T('w', 'g', 'h', 't'),
     -8192,
     {T('C', 'N', 'T', 'R')},
     1,
     1,
     false},
    /* chained blends (a blend's defaults are an earlier blend's results; made by
     * tests/fonts/make_cff2_chained_blend.py): rewritten as one blend, with a pinned axis
     * folded and with both axes kept */
    {"AdobeVFPrototype_chained_blend.otf",
     false,
     T('C', 'N', 'T', 'R'),
     9830,
     {T('w', 'g', 'h', 't')},
     1,
     1,
     false},
    {"AdobeVFPrototype_chained_blend.otf",
     false,
     0,
     0,
     {T('w', 'g', 'h', 't'), T('C', 'N', 'T', 'R')},
     2,
     1,
     false},
    /* one axis kept: the charstrings flattened, the store and metrics carried over */
    {"CFF2Instancer-VF-1.otf", false, 0, 0, {T('w', 'g', 'h', 't')}, 1, 1, false},
    {"NotoSansJP-VF.subset.otf", false, 0, 0, {T('w', 'g', 'h', 't')}, 1, 1, false},
    {"cantarell_vf_trimmed.ttf", false, 0, 0, {T('w', 'g', 'h', 't')}, 1, 1, false},
    {"SourceSerif4Variable-Roman.otf",
     true,
     T('o', 'p', 's', 'z'),
     11469,
     {T('w', 'g', 'h', 't')},
     1,
     4,
     false},
    {"SourceSans3VF-Upright.otf", true, 0, 0, {T('w', 'g', 'h', 't')}, 1, 4, false},
    {"Cantarell-VF.otf", true, 0, 0, {T('w', 'g', 'h', 't')}, 1, 4, false},
    /* blends of blends (a blend's delta operands are another blend's results; made by
     * tests/fonts/make_cff2_nested_blend.py, whose outlines are checked by hand below): wdth
     * pinned (the blend of blends stays, its wdth column folded), wght pinned (folded into one
     * blend), both kept, and limits that split the wght region */
    {"cff2_nested_blend.otf",
     false,
     T('w', 'd', 't', 'h'),
     8192,
     {T('w', 'g', 'h', 't')},
     1,
     1,
     false},
    {"cff2_nested_blend.otf",
     false,
     T('w', 'g', 'h', 't'),
     8192,
     {T('w', 'd', 't', 'h')},
     1,
     1,
     false},
    {"cff2_nested_blend.otf",
     false,
     0,
     0,
     {T('w', 'g', 'h', 't'), T('w', 'd', 't', 'h')},
     2,
     1,
     false},
    {"cff2_nested_blend.otf",
     false,
     0,
     0,
     {T('w', 'g', 'h', 't'), T('w', 'd', 't', 'h')},
     2,
     1,
     true},
};

/* otvar's outline of glyph g of o at its coordinates, drawn through a location of its own
 * (created for this draw). For cff2_nested_blend.otf: src/charstring.c compiles a glyph drawn
 * more than CS_COMP_DRAWS times through one location into coordinates affine in the region
 * scalars, which a blend of blends is not (its wght delta is itself a blend: a x a), so from the
 * fifth draw through o->loc it draws wrong outlines (issue 21's report; not the instancer's). */
static int otv_fresh(oo_font *o, unsigned g, oo_path *p)
{
  otv_location *l = NULL;
  if (otv_location_create(o->face, &l, NULL)) return -1;
  otv_f2dot14 co[64];
  unsigned n = otv_location_normalized(o->loc, co, 64);
  otv_location_set_normalized(l, co, n);
  oo_path_clear(p);
  otv_status st = otv_glyph_outline(l, g, 0, &oo_otv_pen, p);
  oo_path_finish(p);
  otv_location_destroy(l);
  return st ? -1 : 0;
}

/* cff2_nested_blend.otf by hand (tests/fonts/make_cff2_nested_blend.py), a and b its normalized
 * wght and wdth: glyph 1 ("tri") is (10, 20) (10 + W, 20) (10 + W, 220) with
 * W = 100 + (50 + 40a + 30b) a + 20b, glyph 2 ("two") (0, 0) (dx, dy) (dx, dy + 150) with
 * dx = 300 + 7a + 3b + (60 + 10a + 5b) a + (-30 + 8a - 4b) b and dy = 100 + 20a - 15b. The font
 * o (the variable font or an instance of it) at its current coordinates, which are (a, b) in
 * the variable font, must draw those points in otvar and HarfBuzz (within 0.01) and FreeType
 * (NO_SCALE: whole units, truncated: within 1). */
static void hand_check(oo_font *o, double a, double b, const char *what)
{
  a = a < 0 ? 0 : a, b = b < 0 ? 0 : b; /* the regions' scalars (the axes start at default) */
  double w = 100 + (50 + 40 * a + 30 * b) * a + 20 * b;
  double dx = 300 + 7 * a + 3 * b + (60 + 10 * a + 5 * b) * a + (-30 + 8 * a - 4 * b) * b;
  double dy = 100 + 20 * a - 15 * b;
  const double want[2][2] = {{10 + w, 20}, {dx, dy}};
  oo_path q;
  memset(&q, 0, sizeof q);
  for (unsigned g = 1; g <= 2; g++)
    for (int e = 0; e < 3; e++) {
      int r = e == 0   ? otv_fresh(o, g, &q)
              : e == 1 ? oo_hb_outline(o, g, &q)
                       : oo_ft_outline(o, g, &q);
      double tol = e == 2 ? 1 : 0.01;
      bool ok = !r && q.n_seg >= 1 && q.seg[0].op == 'L' &&
                fabs(q.seg[0].p[0] - want[g - 1][0]) <= tol &&
                fabs(q.seg[0].p[1] - want[g - 1][1]) <= tol;
      if (!ok) {
        fprintf(stderr, "%s (a %g, b %g) glyph %u %s: want (%g, %g), got ", what, a, b, g,
                e == 0   ? "otvar"
                : e == 1 ? "HarfBuzz"
                         : "FreeType",
                want[g - 1][0], want[g - 1][1]);
        oo_path_print(stderr, &q), fprintf(stderr, "\n");
      }
      CHECK(ok);
    }
  oo_path_free(&q);
}

static int axis_index(oo_font *o, uint32_t tag)
{
  otv_axis ax[64];
  unsigned n = 64;
  otv_face_axes(o->face, 0, &n, ax);
  for (unsigned i = 0; i < n; i++)
    if (ax[i].tag == tag) return (int)i;
  return -1;
}

static void run_case(const pcase *c, const char *dir, const char *tmp)
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
  otv_f2dot14 pins[64] = {0};
  int pi = c->pin_tag ? axis_index(&f, c->pin_tag) : -1;
  if (pi >= 0) pins[pi] = c->pin;
  otv_location_set_normalized(f.loc, pins, f.axis_count);
  uint8_t *out = NULL;
  size_t len = 0;
  static const otv_axis_limits lims[2] = {{T('w', 'g', 'h', 't'), 100, 500, 900},
                                          {T('w', 'd', 't', 'h'), 50, 50, 100}};
  otv_status st = c->limits ? otv_instance_create_limits(f.loc, lims, 2, 0, &out, &len)
                            : otv_instance_create_partial(f.loc, c->keep, c->nkeep, 0, &out, &len);
  if (st) {
    const otv_error *e = otv_location_last_error(f.loc);
    fprintf(stderr, "%s: partial instance: %s\n", c->font, e->msg);
  }
  CHECK_EQ(st, OTV_E_OK);
  if (st) {
    oo_font_close(&f);
    return;
  }
  FILE *fp = fopen(tmp, "wb");
  CHECK(fp && fwrite(out, 1, len, fp) == len);
  if (fp) fclose(fp);
  otv_instance_free(f.loc, out, len);
  oo_font p;
  if (oo_font_open(&p, tmp)) {
    CHECK(!"partial instance opens");
    oo_font_close(&f);
    return;
  }
  CHECK_EQ(p.axis_count, c->nkeep);
  int kidx[2];
  for (unsigned k = 0; k < c->nkeep; k++) kidx[k] = axis_index(&f, c->keep[k]);
  unsigned long long seed = 0x9E3779B97F4A7C15ULL ^ (unsigned long long)len;
  bool nested = !strcmp(c->font, "cff2_nested_blend.otf");
  oo_path a, b;
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  double worst = 0, worst_otv = 0, worst_ft = 0;
  int worst_adv = 0;
  unsigned compared = 0;
  for (int l = 0; l < 7; l++) {
    otv_f2dot14 fc[64], pc[64] = {0};
    memcpy(fc, pins, sizeof fc);
    for (unsigned k = 0; k < c->nkeep; k++) {
      otv_f2dot14 v = l == 0 ? 0 : l == 1 ? -16384 : l == 2 ? 16384 : oo_rand_coord(&seed);
      if (c->limits) v = (otv_f2dot14)(v & ~1);
      fc[kidx[k]] =
          c->limits && c->keep[k] == T('w', 'g', 'h', 't') ? (otv_f2dot14)(8192 + v / 2) : v;
      pc[k] = v; /* the kept axes keep their order */
    }
    oo_font_set_normalized(&f, fc, f.axis_count);
    oo_font_set_normalized(&p, pc, p.axis_count);
    if (nested) {
      /* (its axes: wght, wdth; the pins and the kept coordinates are in fc) */
      hand_check(&f, fc[0] / 16384.0, fc[1] / 16384.0, "variable font");
      hand_check(&p, fc[0] / 16384.0, fc[1] / 16384.0, "partial instance");
    }
    for (unsigned g = 0; g < f.glyph_count; g += c->glyph_step) {
      oo_path_clear(&a);
      oo_path_clear(&b);
      if (oo_hb_outline(&f, g, &a) || oo_hb_outline(&p, g, &b)) {
        CHECK(!"HarfBuzz draws both");
        continue;
      }
      const char *why = NULL;
      double d = oo_path_diff(&a, &b, 0, &why);
      if (d < 0 || d > 0.05) {
        fprintf(stderr, "%s glyph %u location %d: %s %g\n", c->font, g, l, why ? why : "off by", d);
        CHECK(!"same outline");
      } else if (d > worst) {
        worst = d;
      }
      /* otvar and FreeType draw both too (FreeType: integer font units, see the header) */
      if (nested ? otv_fresh(&f, g, &a) || otv_fresh(&p, g, &b)
                 : oo_otv_outline(&f, g, 0, &a, NULL) || oo_otv_outline(&p, g, 0, &b, NULL)) {
        CHECK(!"otvar draws both");
      } else {
        d = oo_path_diff(&a, &b, 0, &why);
        if (d < 0 || d > 0.05) {
          fprintf(stderr, "%s glyph %u location %d: otvar %s %g\n", c->font, g, l,
                  why ? why : "off by", d);
          CHECK(!"same outline (otvar)");
        } else if (d > worst_otv) {
          worst_otv = d;
        }
      }
      if (f.ft_ok && p.ft_ok) {
        if (oo_ft_outline(&f, g, &a) || oo_ft_outline(&p, g, &b)) {
          CHECK(!"FreeType draws both");
        } else {
          oo_path_drop_zero_lines(&a), oo_path_drop_zero_lines(&b);
          d = oo_path_diff(&a, &b, 0, &why);
          if (d < 0 || d > 1) {
            fprintf(stderr, "%s glyph %u location %d: FreeType %s %g\n", c->font, g, l,
                    why ? why : "off by", d);
            CHECK(!"same outline (FreeType)");
          } else if (d > worst_ft) {
            worst_ft = d;
          }
        }
      }
      int da = abs(oo_hb_advance(&f, g) - oo_hb_advance(&p, g));
      if (da > worst_adv) worst_adv = da;
      if (da > 2) {
        fprintf(stderr, "%s glyph %u location %d: advance off by %d\n", c->font, g, l, da);
        CHECK(da <= 2);
      }
      compared++;
    }
  }
  printf("%s: %u glyph outlines compared, points within %.5f (HarfBuzz), %.5f (otvar), %.0f "
         "(FreeType), advances within %d\n",
         c->font, compared, worst, worst_otv, worst_ft, worst_adv);
  CHECK(compared > 0); /* a case that compared nothing would prove nothing */
  oo_path_free(&a);
  oo_path_free(&b);
  oo_font_close(&p);
  oo_font_close(&f);
}

int main(void)
{
  const char *dir = getenv("OTV_FONTS");
  if (!dir) dir = "tests/fonts";
  char tmp[] = "/tmp/otv_partial_cff_XXXXXX";
  int fd = mkstemp(tmp);
  if (fd < 0) return 1;
  close(fd);
  for (size_t i = 0; i < sizeof CASES / sizeof *CASES; i++) run_case(&CASES[i], dir, tmp);
  /* a blend taking a blend of blends' result (cff2_nested_blend_taken.otf): refused where the
   * blend of blends stays (wght kept), folded where wght is pinned */
  char path[4096];
  snprintf(path, sizeof path, "%s/cff2_nested_blend_taken.otf", dir);
  oo_font f;
  if (oo_font_open(&f, path)) {
    CHECK(!"cff2_nested_blend_taken.otf opens");
  } else {
    const uint32_t wght = T('w', 'g', 'h', 't'), wdth = T('w', 'd', 't', 'h');
    uint8_t *out = NULL;
    size_t len = 0;
    CHECK_EQ(otv_instance_create_partial(f.loc, &wght, 1, 0, &out, &len), OTV_E_UNSUPPORTED);
    CHECK(strstr(otv_location_last_error(f.loc)->msg, "blend of blends") != NULL);
    CHECK_EQ(otv_instance_create_partial(f.loc, &wdth, 1, 0, &out, &len), OTV_E_OK);
    if (out) otv_instance_free(f.loc, out, len);
    oo_font_close(&f);
  }
  unlink(tmp);
  return h_done("test_partial_cff");
}

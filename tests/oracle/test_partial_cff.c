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
     1},
    {"AdobeVFPrototype_vsindex.otf",
     false,
     T('w', 'g', 'h', 't'),
     -8192,
     {T('C', 'N', 'T', 'R')},
     1,
     1},
    /* chained blends (a blend's defaults are an earlier blend's results; made by
     * tests/fonts/make_cff2_chained_blend.py): rewritten as one blend, with a pinned axis
     * folded and with both axes kept */
    {"AdobeVFPrototype_chained_blend.otf",
     false,
     T('C', 'N', 'T', 'R'),
     9830,
     {T('w', 'g', 'h', 't')},
     1,
     1},
    {"AdobeVFPrototype_chained_blend.otf",
     false,
     0,
     0,
     {T('w', 'g', 'h', 't'), T('C', 'N', 'T', 'R')},
     2,
     1},
    /* one axis kept: the charstrings flattened, the store and metrics carried over */
    {"CFF2Instancer-VF-1.otf", false, 0, 0, {T('w', 'g', 'h', 't')}, 1, 1},
    {"NotoSansJP-VF.subset.otf", false, 0, 0, {T('w', 'g', 'h', 't')}, 1, 1},
    {"cantarell_vf_trimmed.ttf", false, 0, 0, {T('w', 'g', 'h', 't')}, 1, 1},
    {"SourceSerif4Variable-Roman.otf",
     true,
     T('o', 'p', 's', 'z'),
     11469,
     {T('w', 'g', 'h', 't')},
     1,
     4},
    {"SourceSans3VF-Upright.otf", true, 0, 0, {T('w', 'g', 'h', 't')}, 1, 4},
    {"Cantarell-VF.otf", true, 0, 0, {T('w', 'g', 'h', 't')}, 1, 4},
};

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
  otv_status st = otv_instance_create_partial(f.loc, c->keep, c->nkeep, 0, &out, &len);
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
  oo_path a, b;
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  double worst = 0;
  int worst_adv = 0;
  unsigned compared = 0;
  for (int l = 0; l < 7; l++) {
    otv_f2dot14 fc[64], pc[64] = {0};
    memcpy(fc, pins, sizeof fc);
    for (unsigned k = 0; k < c->nkeep; k++) {
      otv_f2dot14 v = l == 0 ? 0 : l == 1 ? -16384 : l == 2 ? 16384 : oo_rand_coord(&seed);
      fc[kidx[k]] = v;
      pc[k] = v; /* the kept axes keep their order */
    }
    oo_font_set_normalized(&f, fc, f.axis_count);
    oo_font_set_normalized(&p, pc, p.axis_count);
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
      int da = abs(oo_hb_advance(&f, g) - oo_hb_advance(&p, g));
      if (da > worst_adv) worst_adv = da;
      if (da > 2) {
        fprintf(stderr, "%s glyph %u location %d: advance off by %d\n", c->font, g, l, da);
        CHECK(da <= 2);
      }
      compared++;
    }
  }
  printf("%s: %u glyph outlines compared, points within %.5f, advances within %d\n", c->font,
         compared, worst, worst_adv);
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
  unlink(tmp);
  return h_done("test_partial_cff");
}

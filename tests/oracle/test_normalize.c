/*
 * test_normalize.c - differential test of user -> normalized coordinates against HarfBuzz 6.0
 * (hb_font_set_variations, then hb_font_get_var_coords_normalized) with the model that
 * reproduces it, OTV_NORM_HARFBUZZ6 (otvar.h): for every test font with
 * fvar (tests/fonts, fonts/, and the cached real fonts in $OTV_FONT_CACHE), 2000 random user
 * locations with a fixed seed. Axis values are drawn from: exact min/default/max, uniform values
 * inside and outside the range (clamping), values mapping right on and one float step around
 * every avar segment boundary and around half-steps of the F2Dot14 grid, and unlisted axes
 * (default); then every named instance (hb_font_set_var_named_instance). Equality must be
 * exact. Then against FreeType 2.12 with OTV_NORM_FREETYPE: at 500 random user locations per font
 * (16.16 values, what FT_Set_Var_Design_Coordinates takes) and every named instance, the 16.16
 * normalized coordinates after avar (FT_Get_Var_Blend_Coordinates) must equal
 * otv_location_normalized_fixed exactly, and the spec model's 16.16 values too inside the axis
 * ranges (the same arithmetic; beyond an empty side of an axis FreeType divides by zero and
 * gets -1 or +1, which only the freetype model reproduces; fonts with avar 2, which FreeType 2.12
 * ignores, are left out).
 * Also checks a few hand-computed avar 2 values. OTV_ORACLE_SEED / OTV_ORACLE_LOCATIONS
 * (tests/unit/harness.h) draw other and more locations for a stress run.
 */
#include "harness.h"

#include <dirent.h>
#include <float.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_MULTIPLE_MASTERS_H
#include <hb-ot.h>
#include <hb.h>

#define LOCATIONS ((int)h_locations(2000))

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void) { return h_xorshift64star(&rng_state); }
static double unit(void) { return rnd() / 4294967296.0; }

/* User value (as float) whose default normalization is n/16384 on axis x. */
static float user_at(const otv_axis *x, double n)
{
  double lo = x->min_value < x->default_value ? x->min_value : x->default_value;
  double hi = x->max_value > x->default_value ? x->max_value : x->default_value;
  double d = x->default_value;
  return (float)(n < 0 ? d + n * (d - lo) : d + n * (hi - d));
}

static float pick_value(const otv_face *face, const otv_axis *x, unsigned a)
{
  const otv_fvar *fv = &face->fvar;
  float v;
  switch (rnd() % 8) {
  case 0: return (float)x->min_value;
  case 1: return (float)x->default_value;
  case 2: return (float)x->max_value;
  case 3: { /* outside the range: clamping */
    double span = x->max_value - x->min_value + 1;
    return (float)(rnd() & 1 ? x->max_value + unit() * span : x->min_value - unit() * span);
  }
  case 4: { /* on or next to an avar segment boundary */
    if (fv->avar.seg && fv->avar.seg[a].count) {
      const otv_avar_seg *s = &fv->avar.seg[a];
      unsigned i = rnd() % s->count;
      int from = s->map[2 * i];
      v = user_at(x, from / 16384.0);
      int step = (int)(rnd() % 5) - 2;
      for (; step < 0; step++) v = nextafterf(v, -FLT_MAX);
      for (; step > 0; step--) v = nextafterf(v, FLT_MAX);
      return v;
    }
    break;
  }
  case 5: { /* around a half step of the F2Dot14 grid: where rounding decides */
    int k = (int)(rnd() % 32769) - 16384;
    v = user_at(x, (k + 0.5) / 16384.0);
    int step = (int)(rnd() % 3) - 1;
    if (step < 0) v = nextafterf(v, -FLT_MAX);
    if (step > 0) v = nextafterf(v, FLT_MAX);
    return v;
  }
  default: break;
  }
  return (float)(x->min_value + unit() * (x->max_value - x->min_value));
}

static long compared_total;

static void check_font(const char *path)
{
  size_t len;
  uint8_t *data = h_read_file(path, &len);
  unsigned faces = otv_font_face_count(data, len);
  for (unsigned fi = 0; fi < (faces ? faces : 1); fi++) {
    otv_face *face = NULL;
    otv_error e = {0};
    if (otv_face_open_memory(data, len, fi, NULL, &face, &e)) {
      char buf[200];
      otv_error_format(&e, buf, sizeof buf);
      fprintf(stderr, "%s: cannot open: %s\n", path, buf);
      CHECK(0);
      continue;
    }
    unsigned n_axes = otv_face_axes(face, 0, NULL, NULL);
    if (!n_axes) {
      otv_face_close(face);
      continue;
    }
    otv_axis axes[OTV_MAX_AXES];
    unsigned cnt = OTV_MAX_AXES;
    otv_face_axes(face, 0, &cnt, axes);
    hb_blob_t *blob =
        hb_blob_create((const char *)data, (unsigned)len, HB_MEMORY_MODE_READONLY, NULL, NULL);
    hb_face_t *hface = hb_face_create(blob, fi);
    hb_font_t *font = hb_font_create(hface);
    CHECK_EQ(hb_ot_var_get_axis_count(hface), n_axes);
    otv_location *loc = NULL;
    CHECK_EQ(otv_location_create(face, &loc, NULL), OTV_E_OK);
    CHECK_EQ(otv_location_set_model(loc, OTV_NORM_HARFBUZZ6), OTV_E_OK);
    long compared = 0, mismatches = 0;
    for (int it = 0; it < LOCATIONS && loc; it++) {
      otv_axis_value vals[OTV_MAX_AXES];
      hb_variation_t hv[OTV_MAX_AXES];
      unsigned n = 0;
      for (unsigned a = 0; a < n_axes; a++) {
        if (it > 0 && rnd() % 6 == 0) continue; /* unlisted: default */
        float v = it == 0 ? (float)axes[a].default_value : pick_value(face, &axes[a], a);
        vals[n].tag = axes[a].tag;
        vals[n].value = v;
        hv[n].tag = axes[a].tag;
        hv[n].value = v;
        n++;
      }
      hb_font_set_variations(font, hv, n);
      unsigned hn = 0;
      const int *hc = hb_font_get_var_coords_normalized(font, &hn);
      CHECK_EQ(otv_location_set_user(loc, vals, n), OTV_E_OK);
      otv_f2dot14 oc[OTV_MAX_AXES];
      otv_location_normalized(loc, oc, OTV_MAX_AXES);
      for (unsigned a = 0; a < n_axes; a++) {
        int want = a < hn && hc ? hc[a] : 0;
        if (oc[a] != want) {
          if (mismatches++ < 10) {
            char tag[5];
            otv_tag_to_string(axes[a].tag, tag);
            double uv = axes[a].default_value;
            for (unsigned i = 0; i < n; i++)
              if (vals[i].tag == axes[a].tag) uv = vals[i].value;
            fprintf(stderr, "%s: location %d axis %s user %.9g: otvar %d, HarfBuzz %d\n", path, it,
                    tag, uv, oc[a], want);
          }
        }
      }
      compared++;
    }
    /* every named instance (hb_font_set_var_named_instance) */
    unsigned n_inst = otv_face_named_instances(face, 0, NULL, NULL);
    for (unsigned i = 0; i < n_inst && loc; i++) {
      hb_font_set_var_named_instance(font, i);
      unsigned hn = 0;
      const int *hc = hb_font_get_var_coords_normalized(font, &hn);
      CHECK_EQ(otv_location_set_named(loc, i), OTV_E_OK);
      otv_f2dot14 oc[OTV_MAX_AXES];
      otv_location_normalized(loc, oc, OTV_MAX_AXES);
      for (unsigned a = 0; a < n_axes; a++) {
        int want = a < hn && hc ? hc[a] : 0;
        if (oc[a] != want && mismatches++ < 10)
          fprintf(stderr, "%s: named instance %u axis %u: otvar %d, HarfBuzz %d\n", path, i, a,
                  oc[a], want);
      }
      compared++;
    }
    CHECK_EQ(mismatches, 0);
    printf("%s (face %u, %u axes, avar %u): %ld locations compared (%u named instances), %ld "
           "mismatches\n",
           path, fi, n_axes, face->fvar.avar.version, compared, n_inst, mismatches);
    compared_total += compared;
    otv_location_destroy(loc);
    hb_font_destroy(font);
    hb_face_destroy(hface);
    hb_blob_destroy(blob);
    otv_face_close(face);
  }
  free(data);
}

/* FreeType 2.12 against the freetype and spec models, in 16.16 (see the header). */
static long ft_compared;

static void check_font_freetype(const char *path)
{
  otv_face *face = NULL;
  if (otv_face_open_file(path, 0, NULL, &face, NULL)) return;
  unsigned na = face->fvar.axis_count;
  if (!na || face->fvar.avar.version > 1) {
    otv_face_close(face);
    return;
  }
  FT_Library lib;
  FT_Face ft;
  CHECK_EQ(FT_Init_FreeType(&lib), 0);
  if (FT_New_Face(lib, path, 0, &ft)) {
    CHECK(0);
    FT_Done_FreeType(lib);
    otv_face_close(face);
    return;
  }
  otv_axis axes[OTV_MAX_AXES];
  unsigned cnt = OTV_MAX_AXES;
  otv_face_axes(face, 0, &cnt, axes);
  otv_location *loc = NULL, *spec = NULL;
  CHECK_EQ(otv_location_create(face, &loc, NULL), OTV_E_OK);
  CHECK_EQ(otv_location_create(face, &spec, NULL), OTV_E_OK);
  CHECK_EQ(otv_location_set_model(loc, OTV_NORM_FREETYPE), OTV_E_OK);
  unsigned named = otv_face_named_instances(face, 0, NULL, NULL);
  long mismatches = 0, n = (long)h_locations(500);
  for (long it = 0; loc && spec && it < n + (long)named; it++) {
    FT_Fixed fc[OTV_MAX_AXES], got[OTV_MAX_AXES];
    double user[OTV_MAX_AXES];
    if (it < n) {
      for (unsigned a = 0; a < na; a++) {
        /* inside the range mostly, some beyond it (clamping), as 16.16 values */
        double lo = axes[a].min_value, hi = axes[a].max_value, span = hi - lo;
        double v = lo - span / 8 + unit() * span * 1.25;
        fc[a] = (FT_Fixed)lround(v * 65536.0);
      }
    } else {
      otv_face_named_instance_coords(face, (unsigned)(it - n), user, na, NULL);
      for (unsigned a = 0; a < na; a++) fc[a] = (FT_Fixed)lround(user[a] * 65536.0);
    }
    for (unsigned a = 0; a < na; a++) user[a] = fc[a] / 65536.0;
    CHECK_EQ(FT_Set_Var_Design_Coordinates(ft, na, fc), 0);
    CHECK_EQ(FT_Get_Var_Blend_Coordinates(ft, na, got), 0);
    CHECK_EQ(otv_location_set_user_coords(loc, user, na), OTV_E_OK);
    CHECK_EQ(otv_location_set_user_coords(spec, user, na), OTV_E_OK);
    otv_fixed ours[OTV_MAX_AXES], sp[OTV_MAX_AXES];
    otv_location_normalized_fixed(loc, ours, na);
    otv_location_normalized_fixed(spec, sp, na);
    bool inside = true;
    for (unsigned a = 0; a < na; a++)
      if (user[a] < axes[a].min_value || user[a] > axes[a].max_value) inside = false;
    for (unsigned a = 0; a < na; a++) {
      ft_compared++;
      if (ours[a] != got[a] || (inside && sp[a] != got[a])) {
        if (mismatches++ < 5)
          printf("FAIL %s axis %u user %.6f: FreeType %ld, freetype model %ld, spec %ld\n", path, a,
                 user[a], (long)got[a], (long)ours[a], (long)sp[a]);
        CHECK(0);
      }
    }
  }
  printf("%s: FreeType 16.16 coordinates at %ld locations, %ld mismatches\n", path, n + (long)named,
         mismatches);
  otv_location_destroy(loc);
  otv_location_destroy(spec);
  FT_Done_Face(ft);
  FT_Done_FreeType(lib);
  otv_face_close(face);
}

static int has_font_ext(const char *n)
{
  size_t l = strlen(n);
  return l > 4 &&
         (!strcmp(n + l - 4, ".ttf") || !strcmp(n + l - 4, ".otf") || !strcmp(n + l - 4, ".ttc"));
}

static int cmp_str(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static int check_dir(const char *dir)
{
  DIR *d = dir ? opendir(dir) : NULL;
  if (!d) return 0;
  char *names[512];
  int n = 0;
  struct dirent *de;
  while ((de = readdir(d)) && n < 512)
    if (has_font_ext(de->d_name)) names[n++] = strdup(de->d_name);
  closedir(d);
  qsort(names, (size_t)n, sizeof *names, cmp_str);
  for (int i = 0; i < n; i++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    check_font(path);
    check_font_freetype(path);
    free(names[i]);
  }
  return n;
}

/* Hand-computed avar 2 values on avar2checker.ttf (fontations test data). Its avar, decoded by
 * hand from the bytes (fontTools 4.38 cannot read avar 2): version 2.0, two axes AVAR and AVWK
 * (fvar: 0..100, default 0) with empty segment maps; axisIndexMap format 0, 1-byte entries with
 * 1 inner bit: axis 0 -> (0,0), axis 1 -> (0,1); one region peaking at AVAR=+1 (start 0, peak 1,
 * end 1; AVWK 0,0,0); item (0,0) delta 0, item (0,1) delta 16384 (word column). So
 * AVAR' = AVAR and AVWK' = clamp(AVWK + 16384 * AVAR/16384). */
static void test_avar2_hand(void)
{
  otv_face *face = NULL;
  if (otv_face_open_file(h_font("avar2checker.ttf"), 0, NULL, &face, NULL)) {
    CHECK(0);
    return;
  }
  CHECK_EQ(face->fvar.avar.version, 2);
  otv_location *loc = NULL;
  CHECK_EQ(otv_location_create(face, &loc, NULL), OTV_E_OK);
  struct {
    double avar, avwk;
    int want_avar, want_avwk;
  } cases[] = {
      {0, 0, 0, 0},          {100, 0, 16384, 16384}, {50, 0, 8192, 8192},
      {50, 50, 8192, 16384}, {0, 50, 0, 8192},       {25, 0, 4096, 4096},
  };
  /* no rounding is involved: every model gives these values */
  for (int m = 0; m < OTV_NORM_MODEL_COUNT && loc; m++) {
    CHECK_EQ(otv_location_set_model(loc, (otv_norm_model)m), OTV_E_OK);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
      double u[2] = {cases[i].avar, cases[i].avwk};
      CHECK_EQ(otv_location_set_user_coords(loc, u, 2), OTV_E_OK);
      otv_f2dot14 c[2];
      otv_location_normalized(loc, c, 2);
      CHECK_EQ(c[0], cases[i].want_avar);
      CHECK_EQ(c[1], cases[i].want_avwk);
    }
  }
  otv_location_destroy(loc);
  otv_face_close(face);
}

int main(void)
{
  rng_state = h_seed(rng_state);
  const char *fonts = getenv("OTV_FONTS");
  const char *root = getenv("OTV_ROOT");
  const char *cache = getenv("OTV_FONT_CACHE");
  CHECK(check_dir(fonts ? fonts : "tests/fonts") > 0);
  if (root) {
    char p[4096];
    snprintf(p, sizeof p, "%s/fonts", root);
    check_dir(p);
  }
  if (!check_dir(cache)) printf("SKIP cached real fonts: none in %s\n", cache ? cache : "(unset)");
  test_avar2_hand();
  printf("%ld locations compared in total; %ld FreeType axis values\n", compared_total,
         ft_compared);
  return h_done("test_normalize");
}

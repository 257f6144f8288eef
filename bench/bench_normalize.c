/*
 * bench_normalize.c - the normalization models side by side (docs/normalization.md): for every
 * variable font given (default: tests/fonts and the real fonts in $OTV_FONT_CACHE), at every
 * named instance and at LOCATIONS random user locations (each axis uniform over its range, as a
 * slider gives them), the F2Dot14 coordinates of each model are compared with the spec model's:
 * how many locations differ (any axis), and by how many steps at most. Also the CPU time of one
 * normalization per model next to HarfBuzz 6.0's hb_ot_var_normalize_variations. Counts are
 * measured, not asserted (the tests assert each model against its engine).
 *
 * usage: bench_normalize [-n LOCATIONS] [FONT ...]
 * Build Release without sanitizers for meaningful times. Nothing here asserts on time.
 */
#include <dirent.h>
#include <hb-ot.h>
#include <hb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "otvar.h"

#define MAX_FONTS 256
#define MAX_AXES 64 /* otvar's limit (src/core/limits.h) */
#define MODELS OTV_NORM_MODEL_COUNT

/* shared machine: this thread's CPU time */
static double now(void) { return bench_seconds(CLOCK_THREAD_CPUTIME_ID); }

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static double unit(void) { return (double)(bench_xorshift(&rng) >> 11) / 9007199254740992.0; }

typedef struct tally {
  long locs, named;
  long differ[MODELS];       /* random locations where a model's F2Dot14 differs from spec */
  long named_differ[MODELS]; /* named instances likewise */
  int max_steps[MODELS];
} tally;

static int has_ext(const char *n)
{
  size_t l = strlen(n);
  return l > 4 && (!strcmp(n + l - 4, ".ttf") || !strcmp(n + l - 4, ".otf"));
}

static int cmp_str(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static int add_dir(const char *dir, char **out, int n)
{
  DIR *d = dir ? opendir(dir) : NULL;
  if (!d) return n;
  int first = n;
  struct dirent *de;
  while ((de = readdir(d)) && n < MAX_FONTS)
    if (has_ext(de->d_name)) {
      size_t len = strlen(dir) + strlen(de->d_name) + 2;
      out[n] = malloc(len);
      if (!out[n]) break;
      snprintf(out[n++], len, "%s/%s", dir, de->d_name);
    }
  closedir(d);
  qsort(out + first, (size_t)(n - first), sizeof *out, cmp_str);
  return n;
}

/* One location in every model: counts into t (named: the named-instance counters). */
static void compare(otv_face *face, unsigned na, const double *user, tally *t, bool named)
{
  otv_f2dot14 c[MODELS][MAX_AXES];
  for (int m = 0; m < MODELS; m++)
    if (otv_face_normalize(face, (otv_norm_model)m, user, na, NULL, c[m], NULL, NULL)) return;
  for (int m = 1; m < MODELS; m++) {
    int steps = 0;
    for (unsigned a = 0; a < na; a++) {
      int d = abs(c[m][a] - c[OTV_NORM_SPEC][a]);
      if (d > steps) steps = d;
    }
    if (steps) (named ? t->named_differ : t->differ)[m]++;
    if (steps > t->max_steps[m]) t->max_steps[m] = steps;
  }
  if (named)
    t->named++;
  else
    t->locs++;
}

int main(int argc, char **argv)
{
  long locations = 20000;
  char *paths[MAX_FONTS];
  int n = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-n") && i + 1 < argc)
      locations = atol(argv[++i]);
    else if (n < MAX_FONTS)
      paths[n++] = strdup(argv[i]);
  }
  if (!n) {
    n = add_dir("tests/fonts", paths, n);
    n = add_dir(getenv("OTV_FONT_CACHE"), paths, n);
  }
  static const char *short_name[MODELS] = {"spec", "fonttools", "hb6", "freetype", "harfbuzz"};
  printf("F2Dot14 coordinates differing from the spec model's: locations (random | named "
         "instances), largest difference in steps\n");
  printf("%-40s %4s %5s %7s", "font", "axes", "avar", "named");
  for (int m = 1; m < MODELS; m++) printf(" %19s", short_name[m]);
  printf("\n");
  tally total;
  memset(&total, 0, sizeof total);
  double t_model[MODELS] = {0}, t_hb = 0;
  long calls = 0;
  for (int i = 0; i < n; i++) {
    otv_face *face = NULL;
    if (otv_face_open_file(paths[i], 0, NULL, &face, NULL)) continue;
    unsigned na = otv_face_axes(face, 0, NULL, NULL);
    otv_face_info info;
    otv_face_get_info(face, &info);
    if (!na || na > MAX_AXES) {
      otv_face_close(face);
      continue;
    }
    otv_axis axes[MAX_AXES];
    unsigned cnt = na;
    otv_face_axes(face, 0, &cnt, axes);
    tally t;
    memset(&t, 0, sizeof t);
    double user[MAX_AXES];
    unsigned named = otv_face_named_instances(face, 0, NULL, NULL);
    for (unsigned k = 0; k < named; k++) {
      otv_face_named_instance_coords(face, k, user, na, NULL);
      compare(face, na, user, &t, true);
    }
    for (long k = 0; k < locations; k++) {
      for (unsigned a = 0; a < na; a++)
        user[a] = axes[a].min_value + unit() * (axes[a].max_value - axes[a].min_value);
      compare(face, na, user, &t, false);
    }
    /* time: the same 1000 locations in each model, and HarfBuzz 6.0 */
    hb_blob_t *blob = hb_blob_create_from_file(paths[i]);
    hb_face_t *hface = hb_face_create(blob, 0);
    double us[1000][MAX_AXES];
    hb_variation_t hv[1000][MAX_AXES];
    for (int k = 0; k < 1000; k++)
      for (unsigned a = 0; a < na; a++) {
        us[k][a] = axes[a].min_value + unit() * (axes[a].max_value - axes[a].min_value);
        hv[k][a].tag = axes[a].tag;
        hv[k][a].value = (float)us[k][a];
      }
    for (int m = 0; m < MODELS; m++) {
      otv_f2dot14 c[MAX_AXES];
      double t0 = now();
      for (int rep = 0; rep < 20; rep++)
        for (int k = 0; k < 1000; k++)
          otv_face_normalize(face, (otv_norm_model)m, us[k], na, NULL, c, NULL, NULL);
      t_model[m] += now() - t0;
    }
    {
      int c[MAX_AXES];
      double t0 = now();
      for (int rep = 0; rep < 20; rep++)
        for (int k = 0; k < 1000; k++) hb_ot_var_normalize_variations(hface, hv[k], na, c, na);
      t_hb += now() - t0;
    }
    calls += 20 * 1000;
    hb_face_destroy(hface);
    hb_blob_destroy(blob);
    const char *base = strrchr(paths[i], '/');
    printf("%-40.40s %4u %5u %7ld", base ? base + 1 : paths[i], na, info.avar_version, t.named);
    for (int m = 1; m < MODELS; m++) {
      char cell[64];
      snprintf(cell, sizeof cell, "%ld | %ld, %d", t.differ[m], t.named_differ[m], t.max_steps[m]);
      printf(" %19s", cell);
      total.differ[m] += t.differ[m], total.named_differ[m] += t.named_differ[m];
      if (t.max_steps[m] > total.max_steps[m]) total.max_steps[m] = t.max_steps[m];
    }
    printf("\n");
    total.locs += t.locs, total.named += t.named;
    otv_face_close(face);
  }
  printf("%-40s %4s %5s %7ld", "total", "", "", total.named);
  for (int m = 1; m < MODELS; m++) {
    char cell[64];
    snprintf(cell, sizeof cell, "%ld | %ld, %d", total.differ[m], total.named_differ[m],
             total.max_steps[m]);
    printf(" %19s", cell);
  }
  printf("\n%ld random locations in all; share differing from spec:", total.locs);
  for (int m = 1; m < MODELS; m++)
    printf(" %s %.2f%%", short_name[m], total.locs ? 100.0 * total.differ[m] / total.locs : 0);
  printf("\nCPU time of one normalization (all axes), ns:");
  for (int m = 0; m < MODELS; m++)
    printf(" %s %.0f", short_name[m], calls ? 1e9 * t_model[m] / calls : 0);
  printf(" | HarfBuzz 6.0 hb_ot_var_normalize_variations %.0f\n", calls ? 1e9 * t_hb / calls : 0);
  for (int i = 0; i < n; i++) free(paths[i]);
  return 0;
}

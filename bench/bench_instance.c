/*
 * bench_instance.c - time to cut every named instance of real variable fonts: otvar
 * (otv_instance_create) vs HarfBuzz's hb-subset with every axis pinned (libharfbuzz-subset,
 * loaded with dlopen since the build links only libharfbuzz) vs fontTools' varLib.instancer
 * (and, for fonts with two or more axes, one partial instance: time and size against fontTools)
 * (Debian's /usr/bin/python3, timed inside Python on a few instances: it takes seconds each),
 * in one run, with ratios; then otvar's scaling over 2 threads (one location per thread).
 * CFF2 fonts: otvar's default CFF output and its --cff2 (OTV_INSTANCE_CFF2) output
 * side by side with their sizes, and hb-subset of npm harfbuzzjs (WebAssembly, node,
 * hbjs_instance_time.mjs; BENCH_NO_HBJS=1 skips it) on the first named instance.
 *
 * usage: bench_instance [FONT.ttf ...]   (default: the TrueType VFs in $OTV_FONT_CACHE)
 * Build Release without sanitizers for meaningful numbers. Nothing here asserts on time.
 */
#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <hb.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "otvar.h"

/* The machine is shared: single-threaded timings use this thread's CPU time (waiting for a
 * core is not counted for anyone); the thread-scaling figures use wall time. */
static double now(void) { return bench_seconds(CLOCK_THREAD_CPUTIME_ID); }
static double wall(void) { return bench_seconds(CLOCK_MONOTONIC); }

/* ---- hb-subset through dlopen ---- */
typedef struct hbs {
  void *lib;
  void *(*input_create)(void);
  void (*input_destroy)(void *);
  hb_set_t *(*input_set)(void *, int);
  void (*set_flags)(void *, unsigned);
  hb_bool_t (*pin)(void *, hb_face_t *, hb_tag_t, float);
  hb_face_t *(*subset)(hb_face_t *, const void *);
} hbs;

static bool hbs_load(hbs *h)
{
  h->lib = dlopen("libharfbuzz-subset.so.0", RTLD_NOW);
  if (!h->lib) return false;
  *(void **)&h->input_create = dlsym(h->lib, "hb_subset_input_create_or_fail");
  *(void **)&h->input_destroy = dlsym(h->lib, "hb_subset_input_destroy");
  *(void **)&h->input_set = dlsym(h->lib, "hb_subset_input_set");
  *(void **)&h->set_flags = dlsym(h->lib, "hb_subset_input_set_flags");
  *(void **)&h->pin = dlsym(h->lib, "hb_subset_input_pin_axis_location");
  *(void **)&h->subset = dlsym(h->lib, "hb_subset_or_fail");
  return h->input_create && h->input_destroy && h->input_set && h->set_flags && h->pin && h->subset;
}

/* One full instance with hb-subset: every glyph, every table, every name kept; all axes pinned.
 * Returns the output size (0: failed). */
static size_t hb_instance(hbs *h, hb_face_t *face, const otv_axis *axes, unsigned na,
                          const double *coords)
{
  void *in = h->input_create();
  if (!in) return 0;
  /* sets: 0 glyphs, 1 unicodes, 2 no-subset tables, 3 drop tables, 4 name ids, 5 name langs,
   * 6 layout features, 7 layout scripts */
  hb_set_add_range(h->input_set(in, 0), 0, hb_face_get_glyph_count(face) - 1);
  hb_set_invert(h->input_set(in, 1));
  hb_set_clear(h->input_set(in, 3));
  hb_set_invert(h->input_set(in, 4));
  hb_set_invert(h->input_set(in, 5));
  hb_set_invert(h->input_set(in, 6));
  h->set_flags(in, 0x0008u | 0x0010u | 0x0040u | 0x0080u | 0x0100u);
  for (unsigned a = 0; a < na; a++) h->pin(in, face, axes[a].tag, (float)coords[a]);
  hb_face_t *out = h->subset(face, in);
  size_t len = 0;
  if (out) {
    hb_blob_t *blob = hb_face_reference_blob(out);
    len = hb_blob_get_length(blob);
    hb_blob_destroy(blob);
    hb_face_destroy(out);
  }
  h->input_destroy(in);
  return len;
}

/* Runs cmd (popen) and reads what it prints: seconds, then a byte count into *bytes unless
 * bytes is NULL. -1 when it did not run or printed something else. */
static double popen_seconds(const char *cmd, size_t *bytes)
{
  FILE *p = popen(cmd, "r");
  if (!p) return -1;
  double t = -1;
  if (fscanf(p, "%lf", &t) != 1 || (bytes && fscanf(p, "%zu", bytes) != 1)) t = -1;
  pclose(p);
  return t;
}

/* The start of both fontTools scripts below: Debian's Python, quiet, with the font of argv[1]
 * loaded whole (lazy=False: loading is not timed). */
#define FONTTOOLS_SCRIPT_START                                                                     \
  "/usr/bin/python3 -c '\n"                                                                        \
  "import io, sys, time, logging\n"                                                                \
  "logging.disable(logging.CRITICAL)\n"                                                            \
  "from fontTools.ttLib import TTFont\n"                                                           \
  "from fontTools.varLib import instancer\n"                                                       \
  "f = TTFont(sys.argv[1], lazy=False)\n"

/* fontTools: seconds per instance over the first `count` named instances, timed in Python. */
static double fonttools_time(const char *path, unsigned count)
{
  char cmd[2048];
  snprintf(cmd, sizeof cmd,
           FONTTOOLS_SCRIPT_START /* then: */
           "n = min(int(sys.argv[2]), len(f[\"fvar\"].instances))\n"
           "t = 0\n"
           "for i in range(n):\n"
           "    loc = dict(f[\"fvar\"].instances[i].coordinates)\n"
           "    t0 = time.process_time()\n"
           "    inst = instancer.instantiateVariableFont(f, loc)\n"
           "    inst.save(io.BytesIO())\n"
           "    t += time.process_time() - t0\n"
           "print(t / max(n, 1))\n"
           "' '%s' %u 2>/dev/null",
           path, count);
  return popen_seconds(cmd, NULL);
}

/* fontTools' partial instance: named instance 0's coordinates with axis `keep` left out (kept
 * variable); prints seconds and bytes. */
static double fonttools_partial(const char *path, const char *keep, size_t *bytes)
{
  char cmd[2048];
  snprintf(
      cmd, sizeof cmd,
      FONTTOOLS_SCRIPT_START
      "loc = {k: v for k, v in f[\"fvar\"].instances[0].coordinates.items() if k != sys.argv[2]}\n"
      "t0 = time.process_time()\n"
      "inst = instancer.instantiateVariableFont(f, loc)\n"
      "b = io.BytesIO()\n"
      "inst.save(b)\n"
      "print(time.process_time() - t0, len(b.getvalue()))\n"
      "' '%s' '%s' 2>/dev/null",
      path, keep);
  return popen_seconds(cmd, bytes);
}

/* Partial instance: named instance 0 with the first axis kept variable, best of 3, vs
 * fontTools' with the same pins; times and output sizes. */
static void bench_partial(const otv_face *face, const char *path, const char *base,
                          const otv_axis *axes)
{
  otv_location *loc = NULL;
  if (otv_location_create(face, &loc, NULL)) return;
  otv_location_set_named(loc, 0);
  double best = 1e30;
  size_t bytes = 0;
  for (int round = 0; round < 3; round++) {
    uint8_t *out;
    size_t olen;
    double t0 = now();
    otv_status st = otv_instance_create_partial(loc, &axes[0].tag, 1, 0, &out, &olen);
    double t = now() - t0;
    if (st) {
      printf("%-32s partial: %s\n", base, otv_status_str(st));
      otv_location_destroy(loc);
      return;
    }
    bytes = olen;
    otv_instance_free(loc, out, olen);
    if (t < best) best = t;
  }
  otv_location_destroy(loc);
  char tag[5];
  otv_tag_to_string(axes[0].tag, tag);
  printf("%-32s partial (instance 0, %s kept)  otvar %8.3f ms %7zu bytes", base, tag, best * 1e3,
         bytes);
  size_t fb = 0;
  double ft = getenv("BENCH_NO_FONTTOOLS") ? -1 : fonttools_partial(path, tag, &fb);
  if (ft > 0)
    printf("  fontTools %8.1f ms (x%.0f) %7zu bytes (x%.2f)\n", ft * 1e3, ft / best, fb,
           (double)fb / (double)bytes);
  else
    printf("  fontTools n/a\n");
}

/* Every named instance made with `flags` (otv_instance_create), once per round: seconds per
 * instance of the best of `rounds` rounds; *bytes, the outputs' sizes summed over one round. */
static double time_named(otv_location *loc, unsigned ni, unsigned flags, int rounds, size_t *bytes)
{
  double best = 1e30;
  for (int round = 0; round < rounds; round++) {
    double t0 = now();
    *bytes = 0;
    for (unsigned i = 0; i < ni; i++) {
      uint8_t *out;
      size_t olen;
      otv_location_set_named(loc, i);
      if (otv_instance_create(loc, flags, &out, &olen) == OTV_E_OK) {
        *bytes += olen;
        otv_instance_free(loc, out, olen);
      }
    }
    double t = now() - t0;
    if (t < best) best = t;
  }
  return best / ni;
}

typedef struct thr {
  const otv_face *face;
  unsigned first, step, count;
  size_t bytes;
} thr;

static void *thread_main(void *arg)
{
  thr *t = arg;
  otv_location *loc = NULL;
  if (otv_location_create(t->face, &loc, NULL)) return NULL;
  for (unsigned i = t->first; i < t->count; i += t->step) {
    uint8_t *out;
    size_t len;
    otv_location_set_named(loc, i);
    if (!otv_instance_create(loc, 0, &out, &len)) {
      t->bytes += len;
      otv_instance_free(loc, out, len);
    }
  }
  otv_location_destroy(loc);
  return NULL;
}

static double all_named(const otv_face *face, unsigned count, unsigned threads)
{
  thr t[2];
  pthread_t id[2];
  double t0 = wall();
  for (unsigned k = 0; k < threads; k++) {
    t[k] = (thr){face, k, threads, count, 0};
    if (k) pthread_create(&id[k], NULL, thread_main, &t[k]);
  }
  thread_main(&t[0]);
  for (unsigned k = 1; k < threads; k++) pthread_join(id[k], NULL);
  return wall() - t0;
}

static void bench_font(const char *path, hbs *h, bool have_hb)
{
  size_t len;
  uint8_t *data = bench_read_file(path, &len);
  if (!data) {
    printf("SKIP %s: cannot read\n", path);
    return;
  }
  otv_face *face = NULL;
  otv_error e = {0};
  if (otv_face_open_memory(data, len, 0, NULL, &face, &e)) {
    printf("SKIP %s: %s\n", path, e.msg);
    free(data);
    return;
  }
  otv_face_info info;
  otv_face_get_info(face, &info);
  bool cff2 = info.flavour == OTV_FLAVOUR_CFF2;
  if ((info.flavour != OTV_FLAVOUR_GLYF && !cff2) || !info.instance_count) {
    printf("SKIP %s: not a TrueType or CFF2 variable font with named instances\n", path);
    otv_face_close(face);
    free(data);
    return;
  }
  otv_axis axes[64];
  unsigned na = 64;
  otv_face_axes(face, 0, &na, axes);
  unsigned ni = info.instance_count;
  const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;

  /* otvar: every named instance, 3 rounds, best round */
  otv_location *loc = NULL;
  otv_location_create(face, &loc, NULL);
  size_t bytes = 0;
  /* OTV_BENCH_QUICK: one round and no thread runs (for callgrind: valgrind --tool=callgrind
   * --trace-children=yes, then the inclusive counts of otv_instance_create and
   * hb_subset_or_fail) */
  bool quick = getenv("OTV_BENCH_QUICK") != NULL;
  double ot = time_named(loc, ni, 0, quick ? 1 : 3, &bytes);
  /* CFF2 fonts: the default output is CFF with subroutines and hints kept; the CFF2 output
   * (OTV_INSTANCE_CFF2) keeps them too (0.4; it flattened every glyph before): both timed,
   * with their sizes */
  size_t bytes_cff2 = 0;
  double ot_cff2 = cff2 ? time_named(loc, ni, OTV_INSTANCE_CFF2, quick ? 1 : 3, &bytes_cff2) : -1;
  otv_location_destroy(loc);

  /* hb-subset: every named instance once (its per-instance time is stable at this size) */
  double hbt = -1;
  int fds[2];
  pid_t pid = -1;
  /* CFF2: Debian's hb-subset 6.0 output is broken and its fontTools cannot instance CFF2, so
   * only otvar is timed */
  if (have_hb && !cff2 && pipe(fds) == 0 && (pid = fork()) == 0) {
    /* child: HarfBuzz 6.0's subsetter crashes on some fonts (Recursive): isolate it */
    close(fds[0]);
    hb_blob_t *blob =
        hb_blob_create((const char *)data, (unsigned)len, HB_MEMORY_MODE_READONLY, NULL, NULL);
    hb_face_t *hf = hb_face_create(blob, 0);
    double t0 = now();
    unsigned ok = 0;
    for (unsigned i = 0; i < ni; i++) {
      double c[64];
      otv_face_named_instance_coords(face, i, c, 64, NULL);
      if (hb_instance(h, hf, axes, na, c)) ok++;
    }
    hbt = ok == ni ? (now() - t0) / ni : -1;
    hb_face_destroy(hf);
    hb_blob_destroy(blob);
    if (write(fds[1], &hbt, sizeof hbt) != (ssize_t)sizeof hbt) _exit(1);
    _exit(0);
  }
  bool hb_crashed = false;
  if (pid > 0) {
    close(fds[1]);
    if (read(fds[0], &hbt, sizeof hbt) != (ssize_t)sizeof hbt) hbt = -1;
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    hb_crashed = !WIFEXITED(status);
  }
  /* CFF2: hb-subset of a current HarfBuzz (npm harfbuzzjs, WebAssembly, timed inside node by
   * hbjs_instance_time.mjs next to this file) on the first named instance */
  double hbjs = -1;
  const char *cache = getenv("OTV_FONT_CACHE");
  if (cff2 && cache && !getenv("BENCH_NO_HBJS")) {
    char dir[4096], cmd[8192], spec[2048] = "";
    snprintf(dir, sizeof dir, "%s", __FILE__);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = 0;
    double c[64];
    otv_face_named_instance_coords(face, 0, c, 64, NULL);
    for (unsigned a = 0; a < na && a < 64; a++) {
      char t[5], one[64];
      otv_tag_to_string(axes[a].tag, t);
      snprintf(one, sizeof one, "%s%s=%g", a ? "," : "", t, c[a]);
      strncat(spec, one, sizeof spec - strlen(spec) - 1);
    }
    snprintf(cmd, sizeof cmd,
             "node '%s/hbjs_instance_time.mjs' '%s/harfbuzzjs' '%s' '%s' 5 2>/dev/null",
             slash ? dir : ".", cache, path, spec);
    hbjs = popen_seconds(cmd, NULL);
  }
  /* fontTools: the first 2 named instances */
  double ftt = getenv("BENCH_NO_FONTTOOLS") || cff2 ? -1 : fonttools_time(path, 2);

  /* the machine is shared: best of 5 for each */
  double t1 = 1e30, t2 = 1e30;
  for (int k = 0; k < (quick ? 0 : 5); k++) {
    double a1 = all_named(face, ni, 1), a2 = all_named(face, ni, 2);
    if (a1 < t1) t1 = a1;
    if (a2 < t2) t2 = a2;
  }
  printf("%-32s %3u inst  otvar %8.3f ms", base, ni, ot * 1e3);
  if (ot_cff2 > 0)
    printf(" (CFF, %zu B/font; --cff2: %.3f ms, %zu B/font)", bytes / ni, ot_cff2 * 1e3,
           bytes_cff2 / ni);
  if (hbjs > 0)
    printf("  hb-subset (harfbuzzjs, 1st named) %8.3f ms (x%.1f)", hbjs, hbjs / (ot * 1e3));
  else if (hbt > 0)
    printf("  hb-subset %8.3f ms (x%.1f)", hbt * 1e3, hbt / ot);
  else
    printf("  hb-subset %-18s", hb_crashed ? "crashed (HB bug)" : "n/a");
  if (ftt > 0)
    printf("  fontTools %8.1f ms (x%.0f)", ftt * 1e3, ftt / ot);
  else
    printf("  fontTools n/a");
  if (quick)
    printf("\n");
  else
    printf("  all-named -j1 %.1f ms, -j2 %.1f ms (x%.2f)\n", t1 * 1e3, t2 * 1e3, t1 / t2);
  (void)bytes;
  if (!cff2 && na >= 2) bench_partial(face, path, base, axes);
  otv_face_close(face);
  free(data);
}

int main(int argc, char **argv)
{
  setvbuf(stdout, NULL, _IOLBF, 0);
  hbs h;
  memset(&h, 0, sizeof h);
  bool have_hb = hbs_load(&h);
  if (!have_hb) printf("note: libharfbuzz-subset.so.0 not found: no hb-subset column\n");
  printf("time per full instance (named instances), ratios = rival / otvar\n");
  if (argc > 1) {
    for (int i = 1; i < argc; i++) bench_font(argv[i], &h, have_hb);
  } else {
    const char *dir = getenv("OTV_FONT_CACHE");
    static const char *names[] = {"Inter-roman.var.ttf",       "Karla-Italic-VF.ttf",
                                  "SourceSans3VF-Upright.ttf", "SourceSerif4Variable-Roman.ttf",
                                  "RobotoFlex-latin.ttf",      "Recursive-latin.ttf",
                                  "SourceSans3VF-Upright.otf", "SourceSerif4Variable-Roman.otf",
                                  "Cantarell-VF.otf"};
    if (!dir) {
      printf("set OTV_FONT_CACHE or pass fonts\n");
      return 0;
    }
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
      char p[4096];
      snprintf(p, sizeof p, "%s/%s", dir, names[i]);
      bench_font(p, &h, have_hb);
    }
  }
  if (h.lib) dlclose(h.lib);
  return 0;
}

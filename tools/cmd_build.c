/*
 * cmd_build.c - `otvar build DESIGNSPACE -o OUT [--master-dir DIR]`: a variable TrueType font
 * from the masters of a designspace document (read by designspace.c with expat), built by
 * otv_build (src/build/). A source's filename (NAME.ufo, NAME.ttx, ...) names the binary master
 * NAME.ttf (or NAME.otf) in --master-dir, by default the designspace's directory.
 */
#include "cli.h"
#include "woff.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#ifdef OTV_HAVE_EXPAT
#  include "designspace.h"

#  include <errno.h>
#  include <fcntl.h>
#  ifdef __GLIBC__
#    include <malloc.h>
#  endif
#  include <sys/stat.h>
#  include <unistd.h>
#endif

const char otv_cmd_build_summary[] = "build a variable font from a designspace and its masters";

static const cli_cmd build_cmd = {
    "build",
    "otvar build DESIGNSPACE -o OUT [--master-dir DIR] [--force] [-q]",
    "Builds a variable TrueType font from the masters of DESIGNSPACE (format 3 to 5):\n"
    "fvar with the named instances, avar from the axis maps (version 2 from format 5\n"
    "mappings), STAT (from format 5 labels, else minimal), gvar, cvar, HVAR, VVAR, MVAR,\n"
    "GPOS and BASE merged (GDEF variation store), GSUB FeatureVariations from the rules.\n"
    "Each source's filename NAME.ufo (or any extension) is read as the binary master\n"
    "NAME.ttf (else NAME.otf) in DIR (default: the designspace's folder). Masters are\n"
    "matched by glyph name; incompatible ones are refused with the glyph, the master\n"
    "and what differs. The default master's other tables are copied. An OUT ending in\n"
    ".woff2 (.woff) is written as WOFF 2.0 (1.0).\n",
    "Exit codes: 0 ok, 1 bad designspace, master or failed write, 2 bad usage or an\n"
    "existing OUT.\n"
    "Discrete axes (format 5 <axis values=\"...\">): one variable font per combination of\n"
    "their values (as fontTools' splitInterpolable), each with the continuous axes and the\n"
    "sources, instances, rules and labels at those values; OUT is then a folder (created\n"
    "if missing) that gets NAME-VF-TAGVALUE....ttf (NAME: the designspace's file name,\n"
    "VALUE as Python prints a float: ital0.0), fontTools' names for them.\n"
    "Format 5 <variable-fonts>: each <variable-font> is built instead, over its\n"
    "<axis-subsets> (an axis whole, a user range, or one value; an axis not named is\n"
    "pinned at its default), into the folder OUT as its filename (its base name), else\n"
    "its name with .ttf (.otf for CFF2).\n" CLI_FILES_NOTE,
    "DESIGNSPACE",
    1,
    1};

#ifdef OTV_HAVE_EXPAT
/* A variable font's file name in the folder: a <variable-font>'s filename, else its name with
 * the extension; else NAME-VF-TAGVALUE... (fontTools' implicit names). 0, or -1 when the name
 * cannot be a file name in the folder. */
static int vf_file(const ds_sub *sub, const char *base, size_t stem, bool cff, char *buf,
                   size_t cap)
{
  const char *ext = cff ? "otf" : "ttf";
  int n;
  if (sub->vf_filename)
    n = snprintf(buf, cap, "%s", sub->vf_filename);
  else if (sub->vf_name)
    n = snprintf(buf, cap, "%s.%s", sub->vf_name, ext);
  else
    n = snprintf(buf, cap, "%.*s-VF%s.%s", (int)stem, base, sub->suffix, ext);
  return n <= 0 || (size_t)n >= cap || strchr(buf, '/') || !strcmp(buf, ".") || !strcmp(buf, "..")
             ? -1
             : 0;
}

/* A designspace with discrete axes or <variable-fonts>: each of its variable fonts into the
 * folder out. */
static int build_discrete(const ds_doc *d, const char *path, const char *out, int force, int quiet)
{
  unsigned n = ds_vf_count(d);
  if (n > 65536) {
    fprintf(stderr, "otvar: %s: more than 65536 combinations of discrete axis values\n",
            cli_name(path));
    return OTV_EXIT_FONT;
  }
  if (cli_is_std(out)) {
    fprintf(stderr, "otvar: build: discrete axes: -o names a folder, not -\n");
    return OTV_EXIT_USAGE;
  }
  if (mkdir(out, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "otvar: build: cannot create %s: %s\n", out, strerror(errno));
    return OTV_EXIT_FONT;
  }
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  size_t stem = strlen(base);
  const char *dot = strrchr(base, '.');
  if (dot && dot != base) stem = (size_t)(dot - base);
  char msg[512];
  char(*names)[256] = malloc((size_t)n * sizeof *names);
  if (!names) {
    fprintf(stderr, "otvar: build: out of memory\n");
    return OTV_EXIT_FONT;
  }
  for (unsigned k = 0; k < n; k++) { /* every sub-space checked before any font is written */
    ds_sub sub;
    int bad = ds_subspace(d, k, &sub, msg, sizeof msg);
    /* the extension is not known before the build: compared without it */
    if (!bad && vf_file(&sub, base, stem, false, names[k], sizeof names[k])) {
      snprintf(msg, sizeof msg, "variable font '%s': not a file name in the output folder",
               sub.vf_filename ? sub.vf_filename
               : sub.vf_name   ? sub.vf_name
                               : sub.suffix);
      bad = 1;
    }
    for (unsigned j = 0; !bad && j < k; j++)
      if (!strcmp(names[j], names[k])) {
        snprintf(msg, sizeof msg, "two variable fonts would be written to %s", names[k]);
        bad = 1;
      }
    ds_sub_free(&sub);
    if (bad) {
      fprintf(stderr, "otvar: %s: %s\n", cli_name(path), msg);
      free(names);
      return OTV_EXIT_FONT;
    }
  }
  free(names);
  for (unsigned k = 0; k < n; k++) {
    ds_sub sub;
    if (ds_subspace(d, k, &sub, msg, sizeof msg)) {
      fprintf(stderr, "otvar: %s: %s\n", cli_name(path), msg);
      ds_sub_free(&sub);
      return OTV_EXIT_FONT;
    }
    uint8_t *font = NULL;
    size_t len = 0;
    otv_error e = {0};
    if (otv_build(&sub.ds, NULL, &font, &len, &e)) {
      if (sub.vf_name)
        snprintf(msg, sizeof msg, "%s (variable font '%s')", cli_name(path), sub.vf_name);
      else
        snprintf(msg, sizeof msg, "%s (variable font%s)", cli_name(path), sub.suffix);
      cli_error(msg, &e);
      ds_sub_free(&sub);
      return OTV_EXIT_FONT;
    }
    bool cff = len >= 4 && !memcmp(font, "OTTO", 4);
    char file[4096], name[256];
    int fl = vf_file(&sub, base, stem, cff, name, sizeof name)
                 ? -1
                 : snprintf(file, sizeof file, "%s/%s", out, name);
    int rc = fl < 0 || (size_t)fl >= sizeof file
                 ? (fprintf(stderr, "otvar: build: output path too long\n"), OTV_EXIT_USAGE)
                 : cli_write_file("build", file, path, force, font, len);
    if (!rc && !quiet)
      printf("wrote %s: %zu bytes, %u axes, %u masters, %u named instances\n", file, len,
             sub.ds.axis_count, sub.ds.source_count, sub.ds.instance_count);
    otv_build_free(NULL, font, len);
    ds_sub_free(&sub);
    if (rc) return rc;
  }
  return 0;
}

/* The designspace's bytes: one open, fstat and read of the regular file (cli_load_sfnt, which
 * standard input still goes through, opens a file three times: to check it, for a WOFF
 * signature, to read it; docs/build.md "Start-up"). O_NONBLOCK: a FIFO without a writer would
 * block the open; it is refused as not a regular file, as cli_input_ok does. */
static uint8_t *load_designspace(const char *path, size_t *len)
{
  if (cli_is_std(path)) return cli_load_sfnt(path, len);
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  struct stat st = {0};
  if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
    close(fd);
    fd = -1;
    errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
  }
  if (fd < 0) {
    if (errno == EINVAL || errno == EISDIR)
      fprintf(stderr, "otvar: %s: not a regular file (otvar reads regular files and -)\n", path);
    else
      fprintf(stderr, "otvar: %s: %s\n", path, strerror(errno));
    return NULL;
  }
  size_t n = 0;
  uint8_t *buf = ds_read_fd(fd, (size_t)st.st_size, WOFF_MAX_SFNT, &n);
  int err = errno;
  close(fd);
  if (!buf) {
    fprintf(stderr, "otvar: %s: %s\n", path, strerror(err ? err : ENOMEM));
    return NULL;
  }
  *len = n;
  return buf;
}

/* Whether an sfnt's table directory lists CFF2 (a font otv_build wrote: well formed). */
static bool sfnt_has_cff2(const uint8_t *f, size_t len)
{
  unsigned n = len >= 12 ? (unsigned)f[4] << 8 | f[5] : 0;
  for (unsigned i = 0; i < n && 12 + 16 * (size_t)i + 4 <= len; i++)
    if (!memcmp(f + 12 + 16 * (size_t)i, "CFF2", 4)) return true;
  return false;
}
#endif

#ifdef OTV_HAVE_EXPAT
/* OTV_BUILD_ALLOCS=1: otv_build's first run through a counting allocator; its calls, bytes
 * asked for, peak live bytes, and the page faults and CPU of that run printed to stderr
 * (OTV_BUILD_ALLOCS=2: every call too). A diagnostic of the cold costs (docs/build.md
 * "Start-up, sixth pass"); the bytes built are the same. */
typedef struct alloc_count {
  unsigned long calls, frees;
  size_t asked, live, peak;
  bool each;
} alloc_count;

static void *counting_realloc(void *ud, void *p, size_t old_len, size_t new_len)
{
  alloc_count *c = ud;
  if (c->each) fprintf(stderr, "alloc %p %zu -> %zu\n", p, p ? old_len : 0, new_len);
  if (p) c->live -= old_len;
  if (!new_len) {
    c->frees++;
    free(p);
    return NULL;
  }
  c->calls++;
  c->asked += new_len;
  void *q = realloc(p, new_len);
  c->live += q ? new_len : p ? old_len : 0;
  if (c->live > c->peak) c->peak = c->live;
  return q;
}

static double cpu_us(const struct rusage *r)
{
  return (double)(r->ru_utime.tv_sec + r->ru_stime.tv_sec) * 1e6 +
         (double)(r->ru_utime.tv_usec + r->ru_stime.tv_usec);
}
#endif

int otv_cmd_build(int argc, char **argv)
{
  const char *out = NULL, *master_dir = NULL;
  int force = 0, quiet = 0;
  const cli_opt opts[] = {
      {NULL, 'o', CLI_OPT_VALUE, &out, "OUT", "the variable font to write"},
      {"master-dir", 0, CLI_OPT_VALUE, &master_dir, "DIR",
       "where the binary masters are (default: beside DESIGNSPACE)"},
      {"force", 0, CLI_OPT_FLAG, &force, NULL, "overwrite an existing OUT"},
      {"quiet", 'q', CLI_OPT_FLAG, &quiet, NULL, "print nothing on success"},
      {"help", 'h', CLI_OPT_HELP, NULL, NULL, "this help"},
      CLI_OPT_END,
  };
  int rc;
  const char *path = cli_parse_one(&build_cmd, opts, argc, argv, &rc);
  if (!path) return rc;
  if (!out) {
    cli_usage_see("build", "-o OUT is required");
    return OTV_EXIT_USAGE;
  }
  if ((rc = cli_check_std("build", path, out, true))) return rc;
#ifndef OTV_HAVE_EXPAT
  (void)force, (void)quiet, (void)master_dir;
  fprintf(stderr, "otvar: build: this otvar was built without expat (libexpat1-dev)\n");
  return OTV_EXIT_FONT;
#else
#  ifdef __GLIBC__
  /* One process, one build: the heap grows in steps of at least 1 MiB (glibc's default is 128
   * KiB), is never trimmed (a trim and the growth after it fault the same pages in again:
   * TestSparseCFF2VF's heap grew and shrank 5 times) and buffers up to 32 MiB come from it, not
   * from an mmap and munmap each (TestCFF2's 1 MiB one; setting the trim threshold turns off
   * glibc's dynamic mmap threshold, which would otherwise have raised it). Untouched pages cost
   * nothing; docs/build.md "Start-up, fifth pass". */
  mallopt(M_TOP_PAD, 1 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
#  endif
  size_t len = 0;
  uint8_t *xml = load_designspace(path, &len);
  if (!xml) return OTV_EXIT_FONT;
  ds_doc d;
  char msg[512];
  rc = OTV_EXIT_FONT;
  uint8_t *font = NULL;
  size_t font_len = 0;
  char *dir = strdup(path);
  if (!dir) {
    free(xml);
    return OTV_EXIT_FONT;
  }
  char *slash = strrchr(dir, '/');
  if (slash)
    *slash = 0;
  else
    strcpy(dir, ".");
  /* the document's bytes are freed once parsed (ds_doc keeps copies of its strings): their
   * pages and expat's buffer's are then reused by the masters and the build instead of fresh
   * ones faulted in (docs/build.md "Start-up, fifth pass") */
  int bad = ds_parse(&d, (const char *)xml, len, msg, sizeof msg);
  free(xml);
  xml = NULL;
  if (bad || ds_load_masters(&d, dir, master_dir, msg, sizeof msg)) {
    fprintf(stderr, "otvar: %s: %s\n", cli_name(path), msg);
    goto done;
  }
  /* format 5 discrete axes or <variable-fonts>: a folder of variable fonts */
  bool discrete = d.vf_count > 0;
  for (unsigned a = 0; a < d.ds.axis_count; a++) discrete |= d.discrete[a] != NULL;
  if (discrete) {
    rc = build_discrete(&d, path, out, force, quiet);
    goto done;
  }
  otv_error e = {0};
  const char *ac_env = getenv("OTV_BUILD_ALLOCS");
  alloc_count ac = {0};
  ac.each = ac_env && ac_env[0] == '2';
  otv_options ao = {counting_realloc, &ac, 0};
  const otv_options *bo = ac_env ? &ao : NULL;
  struct rusage r0, r1;
  if (bo) getrusage(RUSAGE_SELF, &r0);
  otv_status bs = otv_build(&d.ds, bo, &font, &font_len, &e);
  if (bo) {
    getrusage(RUSAGE_SELF, &r1);
    fprintf(stderr,
            "otv_build: %lu allocations and reallocations (%zu bytes asked), %lu frees, peak "
            "%zu bytes live; %ld page faults, %.0f us CPU\n",
            ac.calls, ac.asked, ac.frees, ac.peak, r1.ru_minflt - r0.ru_minflt,
            cpu_us(&r1) - cpu_us(&r0));
  }
  if (bs) {
    cli_error(cli_name(path), &e);
    goto done;
  }
  /* OTV_BUILD_BENCH=N (bench/bench_build.py): build N more times in process and print the best
   * time of otv_build alone (parsed designspace and masters in memory): wall time, and the
   * process's CPU time (what a shared machine's load inflates least) */
  const char *bench = getenv("OTV_BUILD_BENCH");
  long reps = bench ? strtol(bench, NULL, 10) : 0;
  double best = 1e30, best_cpu = 1e30;
  for (long i = 0; i < reps && i < 100000; i++) {
    struct timespec t0, t1, c0, c1;
    uint8_t *f2 = NULL;
    size_t l2 = 0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    otv_status st = otv_build(&d.ds, NULL, &f2, &l2, NULL);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    otv_build_free(NULL, f2, l2);
    if (st) break;
    double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
    double cms = (double)(c1.tv_sec - c0.tv_sec) * 1e3 + (double)(c1.tv_nsec - c0.tv_nsec) / 1e6;
    if (ms < best) best = ms;
    if (cms < best_cpu) best_cpu = cms;
  }
  if (reps > 0)
    fprintf(stderr, "otv_build: best %.4f ms of %ld, cpu best %.4f ms\n", best, reps, best_cpu);
  /* OUT.woff2 / OUT.woff: the web font (tools/util_woff_enc.c) */
  size_t ol = strlen(out);
  bool w2 = ol > 6 && !strcmp(out + ol - 6, ".woff2"),
       w1 = ol > 5 && !strcmp(out + ol - 5, ".woff");
  if (w1 || w2) {
    uint8_t *web = NULL;
    size_t wlen = 0;
    if ((w2 ? woff2_encode : woff1_encode)(font, font_len, &web, &wlen, msg, sizeof msg)) {
      fprintf(stderr, "otvar: %s: %s\n", cli_name(path), msg);
      goto done;
    }
    /* CFF2: Brotli may compress the charstrings without subroutines smaller; keep the smaller */
    if (w2 && sfnt_has_cff2(font, font_len)) {
      uint8_t *f2 = NULL, *web2 = NULL;
      size_t l2 = 0, wl2 = 0;
      d.ds.flags |= OTV_BUILD_NO_SUBRS;
      if (!otv_build(&d.ds, NULL, &f2, &l2, NULL) &&
          !woff2_encode(f2, l2, &web2, &wl2, msg, sizeof msg) && wl2 < wlen) {
        free(web);
        web = web2, wlen = wl2, web2 = NULL;
      }
      free(web2);
      otv_build_free(NULL, f2, l2);
    }
    otv_build_free(NULL, font, font_len);
    font = NULL;
    rc = cli_write_file("build", out, path, force, web, wlen);
    if (!rc && !quiet && !cli_is_std(out))
      printf("wrote %s: %zu bytes, %u axes, %u masters, %u named instances\n", out, wlen,
             d.ds.axis_count, d.ds.source_count, d.ds.instance_count);
    free(web);
    goto done;
  }
  rc = cli_write_file("build", out, path, force, font, font_len);
  if (!rc && !quiet && !cli_is_std(out))
    printf("wrote %s: %zu bytes, %u axes, %u masters, %u named instances\n", out, font_len,
           d.ds.axis_count, d.ds.source_count, d.ds.instance_count);
done:
  otv_build_free(NULL, font, font_len);
  ds_free(&d);
  free(dir);
  free(xml);
  return rc;
#endif
}

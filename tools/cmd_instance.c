/*
 * cmd_instance.c - `otvar instance`: cut static fonts out of a variable font.
 *
 *   otvar instance FONT [--var TAG=VALUE,...] [--named N|NAME] -o OUT [--force]
 *   otvar instance FONT --all-named -d DIR [-j N] [--force]
 *
 * Each output is written to a temp file then renamed (cli_out_open/cli_out_close): no partial
 * file is ever left, the input is never overwritten, an existing output only with --force.
 */
#include "cli.h"
#include "woff.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#ifdef __GLIBC__
#  include <malloc.h>
#endif

const char otv_cmd_instance_summary[] = "write static fonts (instances) of a variable font";

static const cli_cmd instance_cmd = {
    "instance",
    "otvar instance FONT [--var TAG=VALUE,...] [--named N|NAME] -o OUT [--force]\n"
    "       otvar instance FONT [--var TAG=VALUE,...] --keep TAG,... -o OUT [--force]\n"
    "       otvar instance FONT TAG=LIMIT... -o OUT [--force]\n"
    "       otvar instance FONT --all-named -d DIR [-j N] [--force]\n"
    "       (all take [--index N]: the face of a font collection, default 0)",
    "Writes a complete static font at a location of the variable font FONT: outlines varied\n"
    "and rounded, metrics and font-wide values updated, variation tables removed.\n"
    "FONT - reads the font from standard input (--all-named then names the files after the\n"
    "font's family); -o - writes the instance to standard output (never to a terminal).\n"
    "Axis limits, as fontTools' instancer takes them (axes not named stay variable):\n"
    "  TAG=VALUE pins the axis, TAG=drop pins it at its default, TAG=MIN:MAX restricts it\n"
    "  (its default kept when inside, else moved to the nearer bound), TAG=MIN:DEFAULT:MAX\n"
    "  also moves the default, TAG=MIN: and TAG=:MAX take the axis's own other bound.\n"
    "  The same items in --var (there, axes not named are pinned at their defaults).\n",
    "Exit status: 0 ok, 1 bad font or an instance not written (--all-named still writes\n"
    "the others and names each one that failed), 2 bad usage.\n" CLI_FILES_NOTE,
    "FONT",
    1,
    65};

static double now_ms(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* 2 when path names a WOFF2 file, 1 for WOFF, 0 otherwise (TrueType/OpenType). */
static int web_flavour(const char *path)
{
  size_t n = strlen(path);
  if (n >= 6 && !strcasecmp(path + n - 6, ".woff2")) return 2;
  if (n >= 5 && !strcasecmp(path + n - 5, ".woff")) return 1;
  return 0;
}

typedef struct job job;
static int write_job_file(job *j, const char *path, const uint8_t *data, size_t len);

/* Write one instance at loc (with axis limits lim when not NULL, else the axes keep kept) into
 * path ("-": standard output) as TrueType/OpenType, WOFF (flavour 1) or WOFF2 (2); through
 * write_job_file for --all-named (j). Returns 0, or an exit code with a message printed. */
static int write_one(otv_location *loc, unsigned flags, const uint32_t *keep, unsigned nkeep,
                     const otv_axis_limits *lim, unsigned nlim, const char *path, int flavour,
                     const char *input, int force, job *j, size_t *out_len)
{
  uint8_t *data = NULL, *web = NULL;
  size_t len = 0;
  if (lim ? otv_instance_create_limits(loc, lim, nlim, flags, &data, &len)
          : otv_instance_create_partial(loc, keep, nkeep, flags, &data, &len)) {
    cli_error(input, otv_location_last_error(loc));
    return OTV_EXIT_FONT;
  }
  if (flavour) { /* the web font of the instance */
    char msg[256];
    size_t wlen = 0;
    int bad = (flavour == 2 ? woff2_encode : woff1_encode)(data, len, &web, &wlen, msg, sizeof msg);
    otv_instance_free(loc, data, len);
    if (bad) {
      fprintf(stderr, "otvar: instance: %s: %s\n", path, msg);
      return OTV_EXIT_FONT;
    }
    data = web;
    len = wlen;
  }
  int rc = j ? write_job_file(j, path, data, len)
             : cli_write_file("instance", path, input, force, data, len);
  if (web)
    free(web);
  else
    otv_instance_free(loc, data, len);
  if (!rc) *out_len = len;
  return rc;
}

/* --keep TAG,...: axis tags of the face (1-4 characters, padded with spaces), none of them
 * also given a value with --var. */
static bool parse_keep(const otv_face *face, const char *arg, const char *var, uint32_t *keep,
                       unsigned *n)
{
  otv_axis axes[64];
  unsigned na = 64;
  otv_face_axes(face, 0, &na, axes);
  otv_axis_value vals[64];
  int nv = var ? cli_parse_var("instance", var, vals, 64) : 0;
  *n = 0;
  const char *p = arg;
  for (;;) {
    size_t len = strcspn(p, ",");
    if (len < 1 || len > 4) {
      cli_usage_error("instance", "--keep: '%.*s' is not an axis tag", (int)len, p);
      return false;
    }
    char t[5] = "    ";
    memcpy(t, p, len);
    uint32_t tag = OTV_TAG(t[0], t[1], t[2], t[3]);
    bool found = false;
    for (unsigned a = 0; a < na; a++) found |= axes[a].tag == tag;
    if (!found) {
      cli_usage_error("instance", "--keep: the font has no axis '%s'", t);
      return false;
    }
    for (int k = 0; k < nv; k++)
      if (vals[k].tag == tag) {
        cli_usage_error("instance", "--keep: axis '%s' also has a --var value", t);
        return false;
      }
    if (*n == 64) {
      cli_usage_error("instance", "--keep: more than 64 axes");
      return false;
    }
    keep[(*n)++] = tag;
    if (!p[len]) break;
    p += len + 1;
  }
  return true;
}

static void user_string(const otv_face *face, const double *user, char *buf, size_t cap)
{
  otv_axis axes[64];
  unsigned n = 64;
  otv_face_axes(face, 0, &n, axes);
  size_t at = 0;
  buf[0] = 0;
  for (unsigned a = 0; a < n && at < cap; a++) {
    char tag[5];
    otv_tag_to_string(axes[a].tag, tag);
    int k = snprintf(buf + at, cap - at, "%s%s=%g", a ? "," : "", tag, user[a]);
    if (k < 0) break;
    at += (size_t)k;
  }
}

/* ---- --all-named ---- */

struct job {
  const otv_face *face;
  const char *input, *dir, *base;
  unsigned flags;
  otv_norm_model model;
  int force, quiet, progress;
  unsigned count;
  char **paths, **names; /* per instance: the output file, the subfamily name (for messages) */
  pthread_mutex_t mu;
  unsigned next, done, written;
  struct stat *wrote; /* the files this run wrote (written of them): never replaced */
  int rc;
};

/* One --all-named file: written to its temp file and synced outside the lock (the slow part),
 * renamed under it, after checking that the target is not a file this run wrote: paths are
 * distinct (all_named), but two names may still be one file (a case-insensitive file system,
 * Unicode normalization, a symlinked -d), and --force must not let one instance replace
 * another. */
static int write_job_file(job *j, const char *path, const uint8_t *data, size_t len)
{
  cli_out o;
  int rc = cli_out_open("instance", path, j->input, j->force, &o);
  if (rc) return rc;
  int ok = fwrite(data, 1, len, o.f) == len;
  if (!ok) cli_output_error("instance", errno);
  if (ok && cli_out_flush(&o)) ok = 0;
  pthread_mutex_lock(&j->mu);
  struct stat st;
  if (ok && lstat(path, &st) == 0)
    for (unsigned k = 0; k < j->written; k++)
      if (j->wrote[k].st_dev == st.st_dev && j->wrote[k].st_ino == st.st_ino) {
        fprintf(stderr, "otvar: instance: refusing to replace '%s': this run wrote it\n", path);
        ok = 0;
        break;
      }
  rc = cli_out_close(&o, ok) || !ok ? OTV_EXIT_FONT : OTV_EXIT_OK;
  if (!rc && lstat(path, &st) == 0) j->wrote[j->written++] = st;
  pthread_mutex_unlock(&j->mu);
  return rc;
}

static void progress(job *j)
{
  /* caller holds the lock */
  if (!j->progress) return;
  unsigned w = 40, filled = j->count ? j->done * w / j->count : w;
  fprintf(stderr, "\r[");
  for (unsigned i = 0; i < w; i++) fputc(i < filled ? '#' : ' ', stderr);
  fprintf(stderr, "] %u/%u", j->done, j->count);
  if (j->done == j->count) fputc('\n', stderr);
  fflush(stderr);
}

static void *worker(void *arg)
{
  job *j = arg;
  otv_location *loc = NULL;
  otv_error e = {0};
  if (otv_location_create(j->face, &loc, &e) || otv_location_set_model(loc, j->model)) {
    pthread_mutex_lock(&j->mu);
    cli_error(j->input, &e);
    j->rc = OTV_EXIT_FONT;
    pthread_mutex_unlock(&j->mu);
    return NULL;
  }
  for (;;) {
    pthread_mutex_lock(&j->mu);
    unsigned i = j->next < j->count ? j->next++ : j->count;
    pthread_mutex_unlock(&j->mu);
    if (i >= j->count) break;
    int rc = OTV_EXIT_FONT;
    size_t len = 0;
    if (otv_location_set_named(loc, i) == OTV_E_OK)
      rc = write_one(loc, j->flags, NULL, 0, NULL, 0, j->paths[i], web_flavour(j->paths[i]),
                     j->input, j->force, j, &len);
    else
      cli_error(j->input, otv_location_last_error(loc));
    pthread_mutex_lock(&j->mu);
    if (rc) { /* the others are still written; this one is named */
      fprintf(stderr, "otvar: instance: named instance %u '%s' not written\n", i, j->names[i]);
      j->rc = OTV_EXIT_FONT;
    }
    j->done++;
    if (!rc && !j->quiet && !j->progress) printf("%s (%zu bytes)\n", j->paths[i], len);
    progress(j);
    pthread_mutex_unlock(&j->mu);
  }
  otv_location_destroy(loc);
  return NULL;
}

/* File name part from a subfamily name: letters, digits, '-' and '_' kept, the rest dropped. */
static void clean_name(const char *s, char *out, size_t cap)
{
  size_t k = 0;
  for (; *s && k + 1 < cap; s++) {
    unsigned char c = (unsigned char)*s;
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
        c == '_' || c >= 0x80)
      out[k++] = (char)c;
  }
  out[k] = 0;
}

/* Whether name (a file name in the output directory) is one of the first n of paths, ignoring
 * case: on a case-insensitive file system "Bold" and "bold" are one file. */
static bool taken(char **paths, unsigned n, const char *name)
{
  for (unsigned k = 0; k < n; k++)
    if (!strcasecmp(paths[k], name)) return true;
  return false;
}

static int all_named(const otv_face *face, const char *input, const char *dir, unsigned threads,
                     unsigned flags, otv_norm_model model, int force, int quiet,
                     const char *web_ext, unsigned *written)
{
  *written = 0;
  unsigned count = otv_face_named_instances(face, 0, NULL, NULL);
  if (!count) {
    fprintf(stderr, "otvar: instance: %s: the font has no named instances\n", input);
    return OTV_EXIT_FONT;
  }
  if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "otvar: instance: cannot create directory '%s': %s\n", dir, strerror(errno));
    return OTV_EXIT_FONT;
  }
  struct stat st;
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
    /* one line, not one per instance */
    fprintf(stderr, "otvar: instance: '%s' is not a directory\n", dir);
    return OTV_EXIT_FONT;
  }
  /* base name of the input without its extension; standard input: the family name */
  const char *slash = strrchr(input, '/');
  const char *b = slash ? slash + 1 : input;
  char base[256];
  snprintf(base, sizeof base, "%s", b);
  char *dot = strrchr(base, '.');
  if (dot && dot != base) *dot = 0;
  if (cli_is_std(input)) {
    char family[256] = "";
    if (otv_face_name(face, 16, family, sizeof family, NULL, NULL))
      otv_face_name(face, 1, family, sizeof family, NULL, NULL);
    clean_name(family, base, sizeof base);
    if (!base[0]) snprintf(base, sizeof base, "font");
  }
  otv_face_info info;
  otv_face_get_info(face, &info);
  const char *ext =
      info.flavour == OTV_FLAVOUR_CFF2 || info.flavour == OTV_FLAVOUR_CFF ? "otf" : "ttf";
  if (web_ext) ext = web_ext;
  job j;
  memset(&j, 0, sizeof j);
  j.face = face, j.input = input, j.dir = dir, j.base = base, j.flags = flags, j.model = model;
  j.force = force, j.quiet = quiet, j.count = count;
  j.progress = !quiet && isatty(2);
  j.paths = calloc(count, sizeof *j.paths);
  j.names = calloc(count, sizeof *j.names);
  j.wrote = calloc(count, sizeof *j.wrote);
  if (!j.paths || !j.names || !j.wrote) {
    j.rc = OTV_EXIT_FONT;
    goto out;
  }
  for (unsigned i = 0; i < count; i++) {
    otv_named_instance ni;
    unsigned one = 1;
    otv_face_named_instances(face, i, &one, &ni);
    char name[256] = "", clean[256] = "";
    if (one) otv_face_name(face, ni.subfamily_name_id, name, sizeof name, NULL, NULL);
    clean_name(name, clean, sizeof clean);
    if (!clean[0]) snprintf(clean, sizeof clean, "instance%u", i);
    size_t n = strlen(dir) + strlen(base) + strlen(clean) + 32;
    j.paths[i] = malloc(n);
    j.names[i] = strdup(name[0] ? name : clean);
    if (!j.paths[i] || !j.names[i]) {
      j.rc = OTV_EXIT_FONT;
      goto out;
    }
    snprintf(j.paths[i], n, "%s/%s-%s.%s", dir, base, clean, ext);
    /* a name already chosen (two instances called Bold, or one called "Bold-2"): number this one,
     * each candidate checked against every name chosen so far, until one is free (at most count
     * candidates are taken, so a free one is found within count + 2 tries) */
    for (unsigned k = 2; taken(j.paths, i, j.paths[i]); k++)
      snprintf(j.paths[i], n, "%s/%s-%s-%u.%s", dir, base, clean, k, ext);
  }
  pthread_mutex_init(&j.mu, NULL);
  if (threads < 1) threads = 1;
  if (threads > count) threads = count;
  if (threads > 64) threads = 64;
#ifdef __GLIBC__
  /* Every instance allocates and frees a few large buffers; glibc returns them to the kernel
   * (mmap'd blocks, trimmed arenas: each thread's own arena is trimmed after every instance)
   * and faults them in again for the next one: thousands of page faults per run, more with
   * threads. Keep freed memory instead (a run holds at most a few instances' buffers at a
   * time). Setting one threshold turns off glibc's dynamic thresholds, so both are set:
   * buffers up to 32 MiB (glibc's largest mmap threshold) come from the arenas. */
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
  pthread_t tids[64];
  unsigned started = 0;
  for (unsigned t = 1; t < threads; t++)
    if (pthread_create(&tids[started], NULL, worker, &j) == 0) started++;
  worker(&j);
  for (unsigned t = 0; t < started; t++) pthread_join(tids[t], NULL);
  pthread_mutex_destroy(&j.mu);
  *written = j.written;
out:
  for (unsigned i = 0; j.paths && i < count; i++) free(j.paths[i]);
  for (unsigned i = 0; j.names && i < count; i++) free(j.names[i]);
  free(j.paths);
  free(j.names);
  free(j.wrote);
  return j.rc;
}

/* What an instance run is asked for: the options, checked by otv_cmd_instance. */
typedef struct inst_req {
  const char *path, *var, *named, *keep_arg, *out, *dir, *web_ext;
  const char *const *specs; /* axis limits after FONT (fontTools' syntax) */
  unsigned spec_count;
  unsigned index, threads, flags;
  otv_norm_model model;
  int all, force, quiet;
  int flavour; /* of -o OUT: 0 TrueType/OpenType, 1 WOFF, 2 WOFF2 */
} inst_req;

/* ---- axis limits: TAG=VALUE | MIN:MAX | MIN:DEFAULT:MAX | MIN: | :MAX | drop ----
 * fontTools' instancer syntax (positional arguments after the font) and the same items in
 * --var. MIN:MAX keeps the axis's default when inside, else moves it to the nearer bound; an
 * explicit DEFAULT outside MIN..MAX, MIN > MAX, a value outside the axis or not a finite
 * number, an unknown tag and two items for one axis are usage errors. */

typedef struct limit_set {
  otv_axis axes[64];
  unsigned axis_count;
  otv_axis_limits lim[64];
  bool given[64]; /* per axis */
  unsigned count;
} limit_set;

/* One number of an item: [p, end) must be a whole finite number. */
static bool limit_number(const char *p, const char *end, double *v)
{
  char buf[64];
  size_t n = (size_t)(end - p);
  if (!n || n >= sizeof buf) return false;
  memcpy(buf, p, n);
  buf[n] = 0;
  char *e;
  errno = 0;
  *v = strtod(buf, &e);
  return !*e && !errno && isfinite(*v);
}

/* One item "TAG=..." (its length len) into ls. */
static bool parse_limit(limit_set *ls, const char *item, size_t len)
{
  char text[128];
  if (len >= sizeof text) {
    cli_usage_error("instance", "axis limit '%.*s...' too long", 20, item);
    return false;
  }
  memcpy(text, item, len);
  text[len] = 0;
  char *eq = strchr(text, '=');
  if (!eq || eq == text || eq - text > 4) {
    cli_usage_error("instance",
                    "bad axis limit '%s' (expected TAG=VALUE, TAG=MIN:MAX, "
                    "TAG=MIN:DEFAULT:MAX or TAG=drop)",
                    text);
    return false;
  }
  *eq = 0;
  uint32_t tag;
  if (!otv_tag_from_string(text, &tag)) {
    cli_usage_error("instance", "bad axis tag '%s'", text);
    return false;
  }
  unsigned a = 0;
  while (a < ls->axis_count && ls->axes[a].tag != tag) a++;
  if (a == ls->axis_count) {
    cli_usage_error("instance", "the font has no axis '%s'", text);
    return false;
  }
  if (ls->given[a]) {
    cli_usage_error("instance", "axis '%s' is given twice", text);
    return false;
  }
  const otv_axis *ax = &ls->axes[a];
  const char *v = eq + 1, *c1 = strchr(v, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
  double lo, def = ax->default_value, hi;
  bool ok = true, explicit_def = false;
  if (!strcmp(v, "drop")) {
    lo = hi = ax->default_value;
  } else if (!c1) {
    ok = limit_number(v, v + strlen(v), &lo);
    hi = lo;
  } else if (!c2) {
    /* MIN:MAX, MIN: (up to the axis's max), :MAX (from its min) */
    lo = ax->min_value, hi = ax->max_value;
    if (c1 > v) ok = limit_number(v, c1, &lo);
    if (ok && c1[1]) ok = limit_number(c1 + 1, c1 + strlen(c1), &hi);
    if (c1 == v && !c1[1]) ok = false; /* ":" alone */
  } else {
    explicit_def = true;
    ok = limit_number(v, c1, &lo) && limit_number(c1 + 1, c2, &def) &&
         limit_number(c2 + 1, c2 + strlen(c2), &hi);
  }
  if (!ok) {
    cli_usage_error("instance", "bad limits for axis '%s': '%s' (expected finite numbers)", text,
                    v);
    return false;
  }
  if (lo > hi) {
    cli_usage_error("instance", "axis '%s': minimum %g is above maximum %g", text, lo, hi);
    return false;
  }
  if (lo < ax->min_value || hi > ax->max_value) {
    cli_usage_error("instance", "axis '%s': %g..%g is outside the axis range %g..%g", text, lo, hi,
                    ax->min_value, ax->max_value);
    return false;
  }
  if (explicit_def && (def < lo || def > hi)) {
    cli_usage_error("instance", "axis '%s': default %g is outside %g..%g", text, def, lo, hi);
    return false;
  }
  if (!explicit_def) def = def < lo ? lo : def > hi ? hi : def; /* the nearer bound */
  ls->given[a] = true;
  ls->lim[ls->count++] = (otv_axis_limits){tag, lo, def, hi};
  return true;
}

/* Whether a --var list holds a range or drop (then the instance takes limits). */
static bool var_has_limits(const char *var)
{
  return var && (strchr(var, ':') || strstr(var, "drop"));
}

/* The limits of the positional items (fontTools' syntax: axes not named stay variable), or of
 * --var and --keep (otvar's: axes not named are pinned at their defaults). */
static bool build_limits(const otv_face *face, const inst_req *r, limit_set *ls)
{
  memset(ls, 0, sizeof *ls);
  ls->axis_count = 64;
  otv_face_axes(face, 0, &ls->axis_count, ls->axes);
  for (unsigned i = 0; i < r->spec_count; i++)
    if (!parse_limit(ls, r->specs[i], strlen(r->specs[i]))) return false;
  for (const char *p = r->var; p && *p;) {
    size_t len = strcspn(p, ",");
    if (len && !parse_limit(ls, p, len)) return false;
    p += len + (p[len] == ',');
  }
  for (const char *p = r->keep_arg; p && *p;) {
    size_t len = strcspn(p, ",");
    char item[64];
    snprintf(item, sizeof item, "%.*s=:", (int)(len < 8 ? len : 8), p);
    /* TAG=: is the full range (both bounds the axis's own) */
    char t[5] = {0};
    memcpy(t, p, len < 4 ? len : 4);
    uint32_t tag;
    unsigned a = 0;
    if (len >= 1 && len <= 4 && otv_tag_from_string(t, &tag))
      while (a < ls->axis_count && ls->axes[a].tag != tag) a++;
    if (len < 1 || len > 4 || a == ls->axis_count) {
      cli_usage_error("instance", "--keep: the font has no axis '%.*s'", (int)len, p);
      return false;
    }
    if (ls->given[a]) {
      cli_usage_error("instance", "--keep: axis '%s' is given twice", t);
      return false;
    }
    const otv_axis *ax = &ls->axes[a];
    ls->given[a] = true;
    ls->lim[ls->count++] = (otv_axis_limits){tag, ax->min_value, ax->default_value, ax->max_value};
    p += len + (p[len] == ',');
  }
  for (unsigned a = 0; a < ls->axis_count; a++) {
    if (ls->given[a]) continue;
    const otv_axis *ax = &ls->axes[a];
    if (r->spec_count) /* fontTools: an axis not named stays variable */
      ls->lim[ls->count++] =
          (otv_axis_limits){ax->tag, ax->min_value, ax->default_value, ax->max_value};
    else /* otvar: an axis not named is at its default */
      ls->lim[ls->count++] =
          (otv_axis_limits){ax->tag, ax->default_value, ax->default_value, ax->default_value};
  }
  return true;
}

/* One instance (or a partial one) at --var/--named into r->out, or every named instance into
 * r->dir (all). */
static int instance(const inst_req *r)
{
  uint32_t keep[64];
  unsigned nkeep = 0;
  otv_face *face = cli_open_face(r->path, r->index);
  if (!face) return OTV_EXIT_FONT;
  int rc = OTV_EXIT_OK;
  otv_location *loc = NULL;
  otv_face_info info;
  otv_face_get_info(face, &info);
  if (!info.axis_count) {
    fprintf(stderr, "otvar: instance: %s: not a variable font (no fvar table)\n",
            cli_name(r->path));
    rc = OTV_EXIT_FONT;
    goto done;
  }
  if (r->all) {
    double t0 = now_ms();
    unsigned written;
    rc = all_named(face, r->path, r->dir, r->threads, r->flags, r->model, r->force, r->quiet,
                   r->web_ext, &written);
    if (written == info.instance_count && !r->quiet) /* the files there now */
      printf("wrote %u instances into %s in %.1f ms\n", written, r->dir, now_ms() - t0);
    else if (written && !r->quiet)
      printf("wrote %u of %u instances into %s in %.1f ms\n", written, info.instance_count, r->dir,
             now_ms() - t0);
    goto done;
  }
  otv_error e = {0};
  if (otv_location_create(face, &loc, &e)) {
    cli_error(r->path, &e);
    rc = OTV_EXIT_FONT;
    goto done;
  }
  otv_location_set_model(loc, r->model); /* a valid model: checked by otv_cmd_instance */
  if (r->named) {
    int ni = cli_find_named("instance", face, r->named);
    if (ni < 0) {
      rc = OTV_EXIT_USAGE;
      goto done;
    }
    if (otv_location_set_named(loc, (unsigned)ni)) {
      cli_error(r->path, otv_location_last_error(loc));
      rc = OTV_EXIT_FONT;
      goto done;
    }
  }
  if (r->spec_count || var_has_limits(r->var)) {
    limit_set ls;
    if (!build_limits(face, r, &ls)) {
      rc = OTV_EXIT_USAGE;
      goto done;
    }
    double t0 = now_ms();
    size_t len = 0;
    rc = write_one(loc, r->flags, NULL, 0, ls.lim, ls.count, r->out, r->flavour, r->path, r->force,
                   NULL, &len);
    if (!rc && !r->quiet && !cli_is_std(r->out))
      printf("wrote %s: %u glyphs, %zu bytes, %.1f ms\n", r->out, info.glyph_count, len,
             now_ms() - t0);
    goto done;
  }
  if (r->keep_arg && !parse_keep(face, r->keep_arg, r->var, keep, &nkeep)) {
    rc = OTV_EXIT_USAGE;
    goto done;
  }
  if (r->named) {
    /* set above */
  } else if (r->var) {
    otv_axis_value vals[64];
    int n = cli_parse_var("instance", r->var, vals, 64);
    if (n < 0 || !cli_check_var("instance", face, vals, n)) {
      rc = OTV_EXIT_USAGE;
      goto done;
    }
    if (otv_location_set_user(loc, vals, (size_t)n)) {
      cli_error(r->path, otv_location_last_error(loc));
      rc = OTV_EXIT_FONT;
      goto done;
    }
  }
  double t0 = now_ms();
  size_t len = 0;
  rc = write_one(loc, r->flags, keep, nkeep, NULL, 0, r->out, r->flavour, r->path, r->force, NULL,
                 &len);
  if (!rc && !r->quiet && !cli_is_std(r->out)) { /* standard output holds the font */
    char desc[512];
    double user[64];
    unsigned na = info.axis_count < 64 ? info.axis_count : 64;
    /* user coordinates as set: named instance coords or the --var values over the defaults */
    otv_axis axes[64];
    unsigned n = 64;
    otv_face_axes(face, 0, &n, axes);
    for (unsigned a = 0; a < na; a++) user[a] = axes[a].default_value;
    if (r->named) {
      otv_face_named_instance_coords(face, (unsigned)cli_find_named("instance", face, r->named),
                                     user, na, NULL);
    } else if (r->var) {
      otv_axis_value vals[64];
      int nv = cli_parse_var("instance", r->var, vals, 64);
      for (int k = 0; k < nv; k++)
        for (unsigned a = 0; a < na; a++)
          if (axes[a].tag == vals[k].tag) user[a] = vals[k].value;
    }
    user_string(face, user, desc, sizeof desc);
    printf("wrote %s: %u glyphs at %s%s%s, %zu bytes, %.1f ms\n", r->out, info.glyph_count, desc,
           r->keep_arg ? ", variable in " : "", r->keep_arg ? r->keep_arg : "", len, now_ms() - t0);
  }
done:
  otv_location_destroy(loc);
  cli_close_face(face);
  return rc;
}

int otv_cmd_instance(int argc, char **argv)
{
  const char *var = NULL, *named = NULL, *keep_arg = NULL, *out = NULL, *dir = NULL;
  const char *jobs = NULL, *index_arg = NULL, *model = NULL;
  int all = 0, force = 0, update_names = 0, woff2 = 0, woff = 0, no_overlap = 0, quiet = 0,
      cff2 = 0, cff_exact = 0;
  const cli_opt opts[] = {
      {"var", 0, CLI_OPT_LIST, &var, "TAG=VALUE,...",
       "user-space axis values (unlisted axes: default; a tag\n"
       "given twice: the later value wins); or axis limits\n"
       "(TAG=MIN:MAX, TAG=MIN:DEFAULT:MAX, TAG=drop)"},
      CLI_OPT_NAMED(&named),
      CLI_OPT_NORMALIZE(&model),
      {"keep", 0, CLI_OPT_LIST, &keep_arg, "TAG,...",
       "a partial instance: these axes stay variable (full\n"
       "range), the others are pinned at the --var values (or\n"
       "their defaults)"},
      {NULL, 'o', CLI_OPT_VALUE, &out, "OUT", "output file (- : standard output)"},
      {"all-named", 0, CLI_OPT_FLAG, &all, NULL,
       "one file per named instance into -d DIR (created if\n"
       "missing), each with its own family/style names (from\n"
       "STAT, else from the named instance)"},
      {NULL, 'd', CLI_OPT_VALUE, &dir, "DIR", "output directory for --all-named"},
      {NULL, 'j', CLI_OPT_VALUE, &jobs, "N", "threads for --all-named (default 1)"},
      {"woff2", 0, CLI_OPT_FLAG, &woff2, NULL,
       "--all-named writes WOFF2 web fonts (and -o - does); with\n"
       "-o OUT the name's extension decides (OUT.woff2, OUT.woff)"},
      {"woff", 0, CLI_OPT_FLAG, &woff, NULL, "the same for WOFF 1.0"},
      {"index", 0, CLI_OPT_VALUE, &index_arg, "N", "face N of a font collection (.ttc; default 0)"},
      {"update-names", 0, CLI_OPT_FLAG, &update_names, NULL,
       "name table and style bits from STAT axis values"},
      {"no-overlap-flags", 0, CLI_OPT_FLAG, &no_overlap, NULL,
       "don't set the OVERLAP_SIMPLE/OVERLAP_COMPOUND glyf flags"},
      {"cff2", 0, CLI_OPT_FLAG, &cff2, NULL,
       "CFF2 fonts: a static instance keeps a CFF2 table\n(default: CFF, which every application "
       "reads)"},
      {"cff-exact", 0, CLI_OPT_FLAG, &cff_exact, NULL,
       "CFF2 fonts: a static instance stores values that are\n"
       "not integers exactly (16.16), so it hints as the\n"
       "variable font; larger (default: integers)"},
      {"force", 0, CLI_OPT_FLAG, &force, NULL, "overwrite existing outputs"},
      {"quiet", 'q', CLI_OPT_FLAG, &quiet, NULL, "print nothing on success"},
      {"help", 'h', CLI_OPT_HELP, NULL, NULL, "this help"},
      CLI_OPT_END,
  };
  cli_args args;
  int rc;
  unsigned index = 0, threads = 1;
  if (!cli_parse(&instance_cmd, opts, argc, argv, &args, &rc)) goto done;
  const char *path = args.pos[0];
  rc = OTV_EXIT_USAGE;
  if (jobs) {
    char *end;
    long v = strtol(jobs, &end, 10);
    if (*end || v < 1 || v > 64) {
      cli_usage_error("instance", "-j needs a number from 1 to 64");
      goto done;
    }
    threads = (unsigned)v;
  }
  otv_norm_model m;
  if (cli_parse_face_opts("instance", index_arg, model, NULL, NULL, &index, &m)) goto done;
  if (all ? (!dir || out || var || named) : (!out || dir)) {
    if (all)
      cli_usage_error("instance", "--all-named needs -d DIR (and no -o, --var, --named)");
    else
      cli_usage_see("instance", "missing -o OUT (or --all-named -d DIR)");
    goto done;
  }
  if (all && cli_is_std(dir)) {
    cli_usage_error("instance", "-d -: --all-named writes files, not standard output");
    goto done;
  }
  if (woff2 && woff) {
    cli_usage_error("instance", "--woff2 and --woff cannot be combined");
    goto done;
  }
  const char *web_ext = woff2 ? "woff2" : woff ? "woff" : NULL;
  if (web_ext && !all && !cli_is_std(out)) {
    cli_usage_error("instance", "--%s is for --all-named; with -o, name the output .%s", web_ext,
                    web_ext);
    goto done;
  }
  if (var && named) {
    cli_usage_error("instance", "--var and --named cannot be combined");
    goto done;
  }
  if (args.pos_count > 1 && (named || all)) {
    cli_usage_error("instance",
                    "axis limits after FONT cannot be combined with --named or --all-named");
    goto done;
  }
  if (args.pos_count > 1 && var) {
    cli_usage_error("instance", "give axis limits after FONT or in --var, not both");
    goto done;
  }
  if (var_has_limits(var) && named) {
    cli_usage_error("instance", "--var ranges cannot be combined with --named");
    goto done;
  }
  if (keep_arg && (named || all)) {
    cli_usage_error("instance", "--keep cannot be combined with --named or --all-named");
    goto done;
  }
  if ((rc = cli_check_std("instance", path, out, true))) goto done;
  inst_req r = {.path = path,
                .specs = args.pos + 1,
                .spec_count = args.pos_count - 1,
                .var = var,
                .named = named,
                .keep_arg = keep_arg,
                .out = out,
                .dir = dir,
                .web_ext = web_ext,
                .index = index,
                .threads = threads,
                .model = m,
                .all = all,
                .force = force,
                .quiet = quiet};
  /* --all-named: every file carries its own names (from STAT, else from its named instance),
   * so that installed side by side they are distinct fonts */
  r.flags = (update_names ? OTV_INSTANCE_UPDATE_NAMES
             : all        ? OTV_INSTANCE_NAME_INSTANCE
                          : 0u) |
            (no_overlap ? OTV_INSTANCE_NO_OVERLAP_FLAGS : 0u) | (cff2 ? OTV_INSTANCE_CFF2 : 0u) |
            (cff_exact ? OTV_INSTANCE_CFF_EXACT : 0u);
  r.flavour = out && !cli_is_std(out) ? web_flavour(out) : woff2 ? 2 : woff ? 1 : 0;
  rc = instance(&r);
done:
  cli_args_free(&args);
  return rc;
}

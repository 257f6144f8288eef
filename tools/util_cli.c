/*
 * util_cli.c - helpers shared by the otvar subcommands (see cli.h).
 */
#include "cli.h"
#include "woff.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

void cli_error(const char *what, const otv_error *e)
{
  char buf[256];
  otv_error_format(e, buf, sizeof buf);
  fprintf(stderr, "otvar: %s: %s\n", cli_name(what), buf);
}

otv_error cli_draw_error(const otv_location *loc, otv_status st)
{
  const otv_error *le = otv_location_last_error(loc);
  if (le && le->code) return *le;
  otv_error e;
  memset(&e, 0, sizeof e);
  e.code = st;
  snprintf(e.msg, sizeof e.msg, "rasterizing");
  return e;
}

void cli_usage_error_x(const char *cmd, bool see_help, const char *fmt, ...)
{
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (see_help)
    fprintf(stderr, "otvar: %s: %s (see 'otvar %s --help')\n", cmd, msg, cmd);
  else
    fprintf(stderr, "otvar: %s: %s\n", cmd, msg);
}

bool cli_is_std(const char *path) { return path && !strcmp(path, "-"); }

const char *cli_name(const char *path) { return cli_is_std(path) ? "stdin" : path; }

int cli_check_std(const char *cmd, const char *input, const char *output, bool binary)
{
  if (cli_is_std(input) && isatty(STDIN_FILENO)) {
    cli_usage_error(cmd, "refusing to read a font from a terminal (redirect stdin or give FONT)");
    return OTV_EXIT_USAGE;
  }
  if (binary && cli_is_std(output) && isatty(STDOUT_FILENO)) {
    cli_usage_error(cmd, "refusing to write a binary file to a terminal (redirect stdout or "
                         "give -o FILE)");
    return OTV_EXIT_USAGE;
  }
  return OTV_EXIT_OK;
}

/* Faces opened from WOFF/WOFF2 files or standard input borrow the bytes (the decoded sfnt, or
 * stdin's): kept here until cli_close_face. A command opens at most a couple of faces. */
#define CLI_DECODED_MAX 8
static struct {
  otv_face *face;
  uint8_t *bytes;
} cli_decoded[CLI_DECODED_MAX];

/* Read a whole stream (at most max bytes) and close it. Returns NULL with errno set. */
static uint8_t *read_stream(FILE *f, size_t max, size_t *len)
{
  uint8_t *buf = NULL;
  size_t n = 0, cap = 0;
  for (;;) {
    if (n == cap) {
      size_t ncap = cap ? cap * 2 : 65536;
      uint8_t *nb = cap < max ? realloc(buf, ncap) : NULL;
      if (!nb) {
        free(buf);
        fclose(f);
        errno = cap < max ? ENOMEM : EFBIG;
        return NULL;
      }
      buf = nb;
      cap = ncap;
    }
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0) break;
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    free(buf);
    errno = EIO;
    return NULL;
  }
  *len = n;
  return buf;
}

/* Standard input, read whole the first time a command asks for it ("-" as FONT): a command may
 * look at its input more than once (the signature, then the font). Freed at exit. */
static struct {
  uint8_t *bytes;
  size_t len;
  int read, err; /* err: errno of a failed read */
} cli_stdin;

static void stdin_free(void) { free(cli_stdin.bytes); }

static const uint8_t *stdin_bytes(size_t *len)
{
  if (!cli_stdin.read) {
    cli_stdin.read = 1;
    /* a stream of its own over fd 0, so that read_stream's fclose leaves stdin alone */
    int fd = dup(STDIN_FILENO);
    FILE *f = fd < 0 ? NULL : fdopen(fd, "rb");
    if (!f && fd >= 0) close(fd);
    cli_stdin.bytes = f ? read_stream(f, WOFF_MAX_SFNT, &cli_stdin.len) : NULL;
    cli_stdin.err = errno;
    if (cli_stdin.bytes) atexit(stdin_free);
  }
  if (!cli_stdin.bytes) errno = cli_stdin.err;
  *len = cli_stdin.len;
  return cli_stdin.bytes;
}

/* Open a regular file for reading, or NULL with errno set (EINVAL or EISDIR: not a regular
 * file). O_NONBLOCK: opening a FIFO without a writer would wait forever. cli_input_ok checks
 * with it up front; the readers use it again, against a file swapped in since. */
static FILE *open_input(const char *path)
{
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return NULL;
  struct stat st = {0};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || fcntl(fd, F_SETFL, 0) != 0) {
    close(fd);
    errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
    return NULL;
  }
  FILE *f = fdopen(fd, "rb");
  if (!f) close(fd);
  return f;
}

/* Read a whole file ("-": standard input) of at most max bytes into a malloc'd buffer. Returns
 * NULL with errno set. */
static uint8_t *read_file(const char *path, size_t max, size_t *len)
{
  if (cli_is_std(path)) {
    size_t n;
    const uint8_t *in = stdin_bytes(&n);
    if (!in) return NULL;
    uint8_t *copy = malloc(n ? n : 1);
    if (!copy) {
      errno = ENOMEM;
      return NULL;
    }
    memcpy(copy, in, n);
    *len = n;
    return copy;
  }
  FILE *f = open_input(path);
  return f ? read_stream(f, max, len) : NULL;
}

int cli_is_woff(const char *path)
{
  if (cli_is_std(path)) {
    size_t n;
    const uint8_t *in = stdin_bytes(&n);
    return in ? woff_is_woff(in, n) : -1;
  }
  FILE *f = open_input(path);
  if (!f) return -1;
  uint8_t sig[4];
  int r = fread(sig, 1, 4, f) == 4 && woff_is_woff(sig, 4);
  fclose(f);
  return r;
}

uint8_t *cli_woff_load(const char *path, size_t *len)
{
  size_t n;
  uint8_t *raw = read_file(path, WOFF_MAX_SFNT, &n);
  if (!raw) {
    fprintf(stderr, "otvar: %s: %s\n", cli_name(path), strerror(errno));
    return NULL;
  }
  char msg[256];
  uint8_t *sfnt;
  int rc = woff_decode(raw, n, &sfnt, len, msg, sizeof msg);
  free(raw);
  if (rc) {
    fprintf(stderr, "otvar: %s: %s\n", cli_name(path), msg);
    return NULL;
  }
  return sfnt;
}

int cli_write_file(const char *cmd, const char *path, const char *input, int force,
                   const uint8_t *data, size_t len)
{
  cli_out o;
  int rc = cli_out_open(cmd, path, input, force, &o);
  if (rc) return rc;
  /* the whole buffer in one write(2), without a copy through stdio's buffer (docs/build.md
   * "Start-up") */
  if (o.f != stdout) setvbuf(o.f, NULL, _IONBF, 0);
  int ok = fwrite(data, 1, len, o.f) == len;
  if (!ok) cli_output_error(cmd, errno);
  return cli_out_close(&o, ok) || !ok ? OTV_EXIT_FONT : OTV_EXIT_OK;
}

char *cli_with_ext(const char *path, const char *ext)
{
  size_t n = strlen(path);
  const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
  if (dot && (!slash || dot > slash) && dot != (slash ? slash + 1 : path)) n = (size_t)(dot - path);
  char *out = malloc(n + strlen(ext) + 1);
  if (out) {
    memcpy(out, path, n);
    strcpy(out + n, ext);
  }
  return out;
}

uint8_t *cli_load_sfnt(const char *path, size_t *len)
{
  if (!cli_input_ok(path)) return NULL;
  if (cli_is_woff(path) == 1) return cli_woff_load(path, len);
  uint8_t *raw = read_file(path, WOFF_MAX_SFNT, len);
  if (!raw) fprintf(stderr, "otvar: %s: %s\n", cli_name(path), strerror(errno));
  return raw;
}

/* buf = "<dir of s up to its last slash><rest>", or false when s has no slash or it does not fit */
static bool path_beside(const char *s, size_t len, const char *rest, char *buf, size_t cap)
{
  const char *slash = NULL;
  for (size_t i = 0; i < len; i++)
    if (s[i] == '/') slash = s + i;
  if (!slash) return false;
  int n = snprintf(buf, cap, "%.*s%s", (int)(slash - s), s, rest);
  return n > 0 && (size_t)n < cap;
}

const char *cli_data_file(const char *name, char *buf, size_t cap)
{
  const char *dir = getenv("OTVAR_DATA_DIR");
  if (dir && *dir) {
    int n = snprintf(buf, cap, "%s/%s", dir, name);
    if (n > 0 && (size_t)n < cap && access(buf, R_OK) == 0) return buf;
  }
  char exe[4096], rest[512];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  snprintf(rest, sizeof rest, "/../share/otvar/%s", name);
  if (n > 0 && path_beside(exe, (size_t)n, rest, buf, cap) && access(buf, R_OK) == 0) return buf;
  /* __FILE__ is tools/util_cli.c of the source tree (CMake passes absolute paths) */
  snprintf(rest, sizeof rest, "/../fonts/%s", name);
  if (path_beside(__FILE__, strlen(__FILE__), rest, buf, cap) && access(buf, R_OK) == 0) return buf;
  return NULL;
}

otv_face *cli_open_face(const char *path, unsigned index)
{
  otv_face *face = NULL;
  otv_error e = {0};
  if (!cli_input_ok(path)) return NULL;
  if (!cli_is_std(path) && cli_is_woff(path) != 1) { /* unreadable: the library says why */
    if (otv_face_open_file(path, index, NULL, &face, &e)) {
      cli_error(path, &e);
      return NULL;
    }
    return face;
  }
  /* WOFF/WOFF2 decoded, or standard input read: the face borrows bytes kept until closed */
  int slot = 0;
  while (slot < CLI_DECODED_MAX && cli_decoded[slot].face) slot++;
  if (slot == CLI_DECODED_MAX) {
    fprintf(stderr, "otvar: %s: too many fonts open\n", cli_name(path));
    return NULL;
  }
  size_t len;
  uint8_t *sfnt = cli_load_sfnt(path, &len);
  if (!sfnt) return NULL;
  if (otv_face_open_memory(sfnt, len, index, NULL, &face, &e)) {
    cli_error(path, &e);
    free(sfnt);
    return NULL;
  }
  cli_decoded[slot].face = face;
  cli_decoded[slot].bytes = sfnt;
  return face;
}

void cli_close_face(otv_face *face)
{
  if (!face) return;
  otv_face_close(face);
  for (int i = 0; i < CLI_DECODED_MAX; i++)
    if (cli_decoded[i].face == face) {
      free(cli_decoded[i].bytes);
      cli_decoded[i].face = NULL;
      cli_decoded[i].bytes = NULL;
    }
}

int cli_parse_index(const char *cmd, const char *v, unsigned *out)
{
  char *end;
  errno = 0;
  unsigned long n = strtoul(v, &end, 10);
  if (!*v || *end || errno || n > 65535 || v[0] == '-') {
    cli_usage_error(cmd, "--index needs a face number, not '%s'", v);
    return -1;
  }
  *out = (unsigned)n;
  return 0;
}

int cli_parse_var(const char *cmd, const char *spec, otv_axis_value *vals, int cap)
{
  int n = 0;
  const char *p = spec;
  while (*p) {
    while (*p == ',' || *p == ' ') p++;
    if (!*p) break;
    const char *eq = strchr(p, '=');
    if (!eq || eq == p || eq - p > 4) {
      cli_usage_error(cmd, "bad axis setting '%s' (expected TAG=VALUE)", p);
      return -1;
    }
    char tag[5] = {0};
    memcpy(tag, p, (size_t)(eq - p));
    uint32_t t;
    if (!otv_tag_from_string(tag, &t)) {
      cli_usage_error(cmd, "bad axis tag '%s'", tag);
      return -1;
    }
    char *end;
    errno = 0;
    double v = strtod(eq + 1, &end);
    /* inf is refused as 1e400 (ERANGE) is: not a coordinate, even where it would clamp */
    if (end == eq + 1 || errno || !isfinite(v) || (*end && *end != ',' && *end != ' ')) {
      cli_usage_error(cmd, "bad value for axis '%s' (expected a finite number)", tag);
      return -1;
    }
    p = end;
    int k = 0;
    while (k < n && vals[k].tag != t) k++;
    if (k < n) { /* given again (e.g. --var wght=300 --var wght=700): the later value wins */
      vals[k].value = v;
      continue;
    }
    if (n >= cap) {
      cli_usage_error(cmd, "too many axis settings");
      return -1;
    }
    vals[n].tag = t;
    vals[n].value = v;
    n++;
  }
  return n;
}

int cli_check_var(const char *cmd, const otv_face *face, const otv_axis_value *vals, int n)
{
  otv_axis axes[64];
  unsigned cnt = 64;
  otv_face_axes(face, 0, &cnt, axes);
  for (int i = 0; i < n; i++) {
    char tag[5];
    otv_tag_to_string(vals[i].tag, tag);
    unsigned a;
    for (a = 0; a < cnt; a++)
      if (axes[a].tag == vals[i].tag) break;
    if (a == cnt) {
      cli_usage_error(cmd, "the font has no axis '%s'", tag);
      return 0;
    }
    if (vals[i].value < axes[a].min_value || vals[i].value > axes[a].max_value) {
      cli_usage_error(cmd, "%s=%g is outside the axis range %g..%g", tag, vals[i].value,
                      axes[a].min_value, axes[a].max_value);
      return 0;
    }
  }
  return 1;
}

int cli_find_named(const char *cmd, const otv_face *face, const char *arg)
{
  unsigned total = otv_face_named_instances(face, 0, NULL, NULL);
  char *end;
  long v = strtol(arg, &end, 10);
  if (*arg && !*end) {
    if (v < 0 || (unsigned long)v >= total) {
      cli_usage_error(cmd, "named instance %ld: the font has %u", v, total);
      return -1;
    }
    return (int)v;
  }
  for (unsigned i = 0; i < total; i++) {
    otv_named_instance ni;
    unsigned one = 1;
    otv_face_named_instances(face, i, &one, &ni);
    char name[256];
    if (one && !otv_face_name(face, ni.subfamily_name_id, name, sizeof name, NULL, NULL) &&
        !strcasecmp(name, arg))
      return (int)i;
  }
  cli_usage_error(cmd, "no named instance called '%s'", arg);
  return -1;
}

int cli_parse_model(const char *cmd, const char *v, otv_norm_model *out)
{
  *out = OTV_NORM_SPEC;
  if (!v || otv_norm_model_from_name(v, out)) return 0;
  cli_usage_error(cmd,
                  "unknown --normalize '%s' (spec, harfbuzz, fonttools, harfbuzz6 or freetype)", v);
  return -1;
}

/* --var and --named together: the usage error, and true. */
static bool var_and_named(const char *cmd, const char *var, const char *named)
{
  if (var && named) cli_usage_error(cmd, "--var and --named cannot be combined");
  return var && named;
}

int cli_parse_face_opts(const char *cmd, const char *index_arg, const char *model, const char *var,
                        const char *named, unsigned *index, otv_norm_model *m)
{
  if (index_arg && cli_parse_index(cmd, index_arg, index)) return -1;
  if (cli_parse_model(cmd, model, m) || var_and_named(cmd, var, named)) return -1;
  return 0;
}

int cli_set_location(const char *cmd, const char *font, otv_face *face, otv_location *loc,
                     const char *var, const char *named, const char *model)
{
  if (var_and_named(cmd, var, named)) return OTV_EXIT_USAGE;
  otv_norm_model m;
  if (cli_parse_model(cmd, model, &m)) return OTV_EXIT_USAGE;
  otv_status s = otv_location_set_model(loc, m);
  if (var) {
    otv_axis_value vals[64];
    int n = cli_parse_var(cmd, var, vals, 64);
    if (n < 0 || !cli_check_var(cmd, face, vals, n)) return OTV_EXIT_USAGE;
    if (!s) s = otv_location_set_user(loc, vals, (size_t)n);
  } else if (named) {
    int ni = cli_find_named(cmd, face, named);
    if (ni < 0) return OTV_EXIT_USAGE;
    if (!s) s = otv_location_set_named(loc, (unsigned)ni);
  }
  if (s) {
    cli_error(font, otv_location_last_error(loc));
    return OTV_EXIT_FONT;
  }
  return OTV_EXIT_OK;
}

int cli_location_create(const char *cmd, const char *font, otv_face *face, const char *var,
                        const char *named, const char *model, otv_location **loc)
{
  otv_error e = {0};
  if (otv_location_create(face, loc, &e)) {
    cli_error(font, &e);
    return OTV_EXIT_FONT;
  }
  return cli_set_location(cmd, font, face, *loc, var, named, model);
}

/* Append glyph ids a..b to the growing list g. Returns false when out of memory (g freed). */
static bool push_range(uint32_t **g, size_t *len, size_t *cap, unsigned long a, unsigned long b)
{
  for (unsigned long i = a; i <= b; i++) {
    if (*len == *cap) {
      uint32_t *ng = realloc(*g, 2 * *cap * sizeof **g);
      if (!ng) {
        free(*g);
        *g = NULL;
        return false;
      }
      *g = ng;
      *cap *= 2;
    }
    (*g)[(*len)++] = (uint32_t)i;
  }
  return true;
}

int cli_parse_glyphs(const char *cmd, const char *spec, uint32_t glyph_count, uint32_t **out,
                     size_t *n)
{
  size_t cap = 64, len = 0;
  uint32_t *g = malloc(cap * sizeof *g);
  if (!g) return -1;
  const char *p = spec;
  while (*p) {
    const char *next;
    if (!strncmp(p, "all", 3) && (p[3] == ',' || !p[3])) { /* every glyph, in order */
      next = p + 3;
      if (glyph_count && !push_range(&g, &len, &cap, 0, glyph_count - 1)) return -1;
    } else {
      char *end;
      unsigned long a, b;
      errno = 0;
      a = strtoul(p, &end, 10);
      if (end == p || errno) goto bad;
      b = a;
      if (*end == '-') {
        p = end + 1;
        b = strtoul(p, &end, 10);
        if (end == p || errno) goto bad;
      }
      if (a > b || b >= glyph_count) {
        if (a > b)
          cli_usage_error(cmd, "glyph range %lu-%lu goes backwards (write %lu-%lu)", a, b, b, a);
        else
          cli_usage_error(cmd, "glyph range %lu-%lu is outside the font's %u glyphs", a, b,
                          glyph_count);
        free(g);
        return -1;
      }
      if (!push_range(&g, &len, &cap, a, b)) return -1;
      next = end;
    }
    if (*next == ',')
      next++;
    else if (*next)
      goto bad;
    p = next;
  }
  *out = g;
  *n = len;
  return 0;
bad:
  cli_usage_error(cmd, "bad glyph list '%s' (expected all or GID,GID-GID,...)", spec);
  free(g);
  return -1;
}

void cli_exact_num(double v, char *buf, size_t cap)
{
  if (v > 1e15 || v < -1e15) {
    snprintf(buf, cap, "%.17g", v);
    return;
  }
  for (int prec = 0; prec <= 40; prec++) {
    snprintf(buf, cap, "%.*f", prec, v);
    if (strtod(buf, NULL) == v) break;
  }
}

int cli_utf8_decode(const char *s, uint32_t **out, size_t *n)
{
  size_t len = strlen(s), k = 0;
  uint32_t *cps = malloc((len ? len : 1) * sizeof *cps);
  if (!cps) return -1;
  const unsigned char *p = (const unsigned char *)s;
  while (*p) {
    uint32_t c = *p++;
    int extra = 0;
    if (c >= 0xF0 && c < 0xF5) {
      c &= 0x07;
      extra = 3;
    } else if (c >= 0xE0) {
      c &= 0x0F;
      extra = 2;
      if (c > 0x0F) goto bad;
    } else if (c >= 0xC2 && c < 0xE0) {
      c &= 0x1F;
      extra = 1;
    } else if (c >= 0x80)
      goto bad;
    for (int i = 0; i < extra; i++) {
      if ((*p & 0xC0) != 0x80) goto bad;
      c = c << 6 | (*p++ & 0x3F);
    }
    if (c > 0x10FFFF || (c >= 0xD800 && c < 0xE000)) goto bad;
    cps[k++] = c;
  }
  *out = cps;
  *n = k;
  return 0;
bad:
  free(cps);
  return -1;
}

/* ---- output files ----
 * Temp files being written, kept where a signal handler can reach them: SIGINT, SIGTERM, SIGHUP
 * and SIGXFSZ unlink them before the default action ends the process. Static buffers and
 * sig_atomic_t flags only (the handler may only call async-signal-safe functions); one slot per
 * thread that writes (--all-named -j 64) and a few more. */
#define CLI_TMP_SLOTS 72
#define CLI_TMP_MAX 4096
static char tmp_slot[CLI_TMP_SLOTS][CLI_TMP_MAX];
/* Two flags a slot: owned by a writer (taken and freed under tmp_mu), and armed (its name is
 * complete: the handler may unlink it). Arming is switched off while the name is rewritten;
 * ownership stays, so no other thread can take the slot meanwhile. */
static bool tmp_owned[CLI_TMP_SLOTS];
static volatile sig_atomic_t tmp_armed[CLI_TMP_SLOTS];
/* Creating a temp file is a window the handler must not miss: the creating thread blocks the
 * signals, marks its slot pending, checks tmp_dying, creates and arms the file, clears pending,
 * unblocks. The handler (on another thread, then) sets tmp_dying, then waits for every pending
 * slot before it unlinks the armed ones. Both sides store, then load, sequentially consistent,
 * so one of them always sees the other: either the creator gives up, or the handler waits for
 * the file and removes it (the other threads run on while the handler works, and the process
 * ends as soon as it returns). */
static volatile sig_atomic_t tmp_pending[CLI_TMP_SLOTS];
static volatile sig_atomic_t tmp_dying;
static pthread_mutex_t tmp_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t tmp_once = PTHREAD_ONCE_INIT;
static const int tmp_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGXFSZ};

static void tmp_on_signal(int sig)
{
  int saved = errno;
  __atomic_store_n(&tmp_dying, 1, __ATOMIC_SEQ_CST);
  for (int i = 0; i < CLI_TMP_SLOTS; i++) {
    /* a creation in flight on another thread ends in a few instructions and one open() (a
     * bound, should that thread be stopped: then its file may stay) */
    for (long spin = 0; spin < 100000000L && __atomic_load_n(&tmp_pending[i], __ATOMIC_SEQ_CST);
         spin++)
      ;
    if (__atomic_load_n(&tmp_armed[i], __ATOMIC_SEQ_CST)) unlink(tmp_slot[i]);
  }
  /* the default action (terminate), delivered when the handler returns: the exit status still
   * says which signal ended the process */
  signal(sig, SIG_DFL);
  raise(sig);
  errno = saved;
}

static void tmp_install(void)
{
  for (size_t i = 0; i < sizeof tmp_signals / sizeof tmp_signals[0]; i++) {
    struct sigaction sa, old;
    if (sigaction(tmp_signals[i], NULL, &old) || old.sa_handler == SIG_IGN)
      continue; /* ignored (nohup): stays ignored */
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = tmp_on_signal;
    sigfillset(&sa.sa_mask); /* one handler at a time: the others wait for the re-raise */
    sigaction(tmp_signals[i], &sa, NULL);
  }
}

/* A slot for a temp path (its name is filled in by the caller), or -1 when all are taken. */
static int tmp_slot_take(void)
{
  pthread_once(&tmp_once, tmp_install);
  pthread_mutex_lock(&tmp_mu);
  int k = 0;
  while (k < CLI_TMP_SLOTS && tmp_owned[k]) k++;
  if (k < CLI_TMP_SLOTS) tmp_owned[k] = true; /* not armed until it has a name */
  pthread_mutex_unlock(&tmp_mu);
  return k < CLI_TMP_SLOTS ? k : -1;
}

static void tmp_slot_free(int k)
{
  if (k < 0) return;
  tmp_armed[k] = 0;
  pthread_mutex_lock(&tmp_mu);
  tmp_owned[k] = false;
  pthread_mutex_unlock(&tmp_mu);
}

/* Create path.tmp-XXXXXX beside path (O_EXCL, mode 0666 less the umask, as any new file) in slot
 * k. Returns the fd, or -1 with errno set. */
static int tmp_create(const char *path, int k)
{
  static unsigned long seq;
  char name[CLI_TMP_MAX];
  for (int tries = 0; tries < 100; tries++) {
    unsigned long n = __atomic_add_fetch(&seq, 1, __ATOMIC_RELAXED);
    unsigned long r =
        ((unsigned long)getpid() * 2654435761u + n * 40503u + (unsigned long)clock()) %
        2176782336ul; /* 36^6 */
    char sfx[7];
    for (int i = 0; i < 6; i++, r /= 36) sfx[i] = "0123456789abcdefghijklmnopqrstuvwxyz"[r % 36];
    sfx[6] = 0;
    int len = snprintf(name, sizeof name, "%s.tmp-%s", path, sfx);
    if (len < 0 || (size_t)len >= sizeof name) {
      errno = ENAMETOOLONG;
      return -1;
    }
    /* the name goes into the slot disarmed, and is armed once the file is ours: a signal never
     * removes a file of the same name that O_EXCL found already there */
    tmp_armed[k] = 0;
    memcpy(tmp_slot[k], name, (size_t)len + 1);
    /* the window (see tmp_pending): this thread takes no signal in it */
    sigset_t block, old;
    sigemptyset(&block);
    for (size_t i = 0; i < sizeof tmp_signals / sizeof tmp_signals[0]; i++)
      sigaddset(&block, tmp_signals[i]);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    __atomic_store_n(&tmp_pending[k], 1, __ATOMIC_SEQ_CST);
    int fd = -1, err = EINTR;
    if (!__atomic_load_n(&tmp_dying, __ATOMIC_SEQ_CST)) { /* else the process is ending */
      fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
      err = errno;
      if (fd >= 0) __atomic_store_n(&tmp_armed[k], 1, __ATOMIC_SEQ_CST);
    }
    __atomic_store_n(&tmp_pending[k], 0, __ATOMIC_SEQ_CST);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (fd >= 0) return fd;
    errno = err;
    if (errno != EEXIST) return -1;
  }
  errno = EEXIST;
  return -1;
}

/* Every failed write of an output is reported once, the same way. */
static int out_reported;

int cli_output_error(const char *cmd, int err)
{
  if (!out_reported)
    fprintf(stderr, "otvar: %s: cannot write the output: %s\n", cmd, strerror(err ? err : EIO));
  out_reported = 1;
  return OTV_EXIT_FONT;
}

int cli_finish_stdout(const char *cmd, int rc)
{
  errno = 0;
  int err = fflush(stdout) != 0 ? errno : 0;
  if (!err && ferror(stdout)) err = errno ? errno : EIO; /* an earlier write failed */
  /* closed here so a failing close (NFS, a full disk) is seen too; nothing writes after this */
  if (fclose(stdout) != 0 && !err) err = errno ? errno : EIO;
  if (!err) return rc;
  cli_output_error(cmd, err);
  return rc ? rc : OTV_EXIT_FONT;
}

int cli_input_ok(const char *path)
{
  if (cli_is_std(path)) return 1;
  FILE *f = open_input(path);
  if (f) {
    fclose(f);
    return 1;
  }
  if (errno == EINVAL || errno == EISDIR)
    fprintf(stderr, "otvar: %s: not a regular file (otvar reads regular files and -)\n", path);
  else
    fprintf(stderr, "otvar: %s: %s\n", path, strerror(errno));
  return 0;
}

/* What an existing output path is, for the refusals: NULL when it may be replaced. */
static const char *not_regular(const struct stat *st)
{
  if (S_ISLNK(st->st_mode)) return "a symbolic link";
  if (S_ISDIR(st->st_mode)) return "a directory";
  if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode)) return "a device";
  if (S_ISFIFO(st->st_mode)) return "a FIFO";
  if (S_ISSOCK(st->st_mode)) return "a socket";
  return S_ISREG(st->st_mode) ? NULL : "not a regular file";
}

int cli_out_open(const char *cmd, const char *path, const char *input, int force, cli_out *o)
{
  memset(o, 0, sizeof *o);
  o->slot = -1;
  o->cmd = cmd;
  if (cli_is_std(path)) { /* written as it comes: no temp file to rename */
    o->f = stdout;
    return 0;
  }
  struct stat st_out, st_in;
  int exists = stat(path, &st_out) == 0; /* follows symlinks: a link to the input is refused */
  if (exists && input && !cli_is_std(input) && stat(input, &st_in) == 0 &&
      st_out.st_dev == st_in.st_dev && st_out.st_ino == st_in.st_ino) {
    cli_usage_error(cmd, "refusing to overwrite the input file '%s'", path);
    return OTV_EXIT_USAGE;
  }
  /* Regular files only: the rename would replace a device node, FIFO or socket (as root, -o
   * /dev/null would delete /dev/null) or a symlink (not its target) by a plain file. */
  exists = lstat(path, &st_out) == 0;
  const char *what = exists ? not_regular(&st_out) : NULL;
  if (what) {
    cli_usage_error(cmd, "refusing to replace '%s': it is %s (outputs are regular files)", path,
                    what);
    return OTV_EXIT_USAGE;
  }
  if (!force && exists) {
    cli_usage_error(cmd, "'%s' exists (use --force to overwrite)", path);
    return OTV_EXIT_USAGE;
  }
  size_t n = strlen(path);
  o->path = malloc(n + 1);
  if (!o->path) goto fail;
  memcpy(o->path, path, n + 1);
  o->slot = tmp_slot_take();
  int fd = o->slot < 0 ? (errno = EMFILE, -1) : tmp_create(path, o->slot);
  if (fd < 0) {
    fprintf(stderr, "otvar: %s: cannot write '%s': %s\n", cmd, path, strerror(errno));
    goto fail;
  }
  o->f = fdopen(fd, "wb");
  if (!o->f) {
    close(fd);
    unlink(tmp_slot[o->slot]);
    goto fail;
  }
  return 0;
fail:
  tmp_slot_free(o->slot);
  free(o->path);
  memset(o, 0, sizeof *o);
  o->slot = -1;
  return OTV_EXIT_FONT;
}

int cli_out_flush(cli_out *o)
{
  if (!o->f || o->f == stdout) return 0;
  /* on disk before the rename: a crash then leaves the old file or the new one, never an empty
   * new one (ext4, xfs and btrfs may otherwise commit the rename first) */
  int err = fflush(o->f) != 0 || ferror(o->f) ? (errno ? errno : EIO) : 0;
  if (!err && fsync(fileno(o->f)) != 0) err = errno;
  if (fclose(o->f) != 0 && !err) err = errno ? errno : EIO;
  o->f = NULL;
  return err ? cli_output_error(o->cmd, err) : 0;
}

int cli_out_close(cli_out *o, int ok)
{
  if (o->f == stdout) {
    errno = 0;
    int err = fflush(stdout) != 0 || ferror(stdout) ? (errno ? errno : EIO) : 0;
    if (err && ok) cli_output_error(o->cmd, err);
    memset(o, 0, sizeof *o);
    return ok && !err ? 0 : -1;
  }
  int rc = 0;
  errno = 0;
  if (o->f && !ok) { /* failed already, and said why: the temp file goes */
    fclose(o->f);
    o->f = NULL;
  }
  if (o->f && cli_out_flush(o)) ok = 0, rc = -1;
  if (ok && o->slot >= 0 && rename(tmp_slot[o->slot], o->path) != 0) {
    cli_output_error(o->cmd, errno);
    ok = 0;
    rc = -1;
  }
  if (o->slot >= 0) {
    if (!ok) unlink(tmp_slot[o->slot]);
    tmp_slot_free(o->slot);
  }
  if (!ok && rc == 0) rc = -1;
  free(o->path);
  memset(o, 0, sizeof *o);
  o->slot = -1;
  return ok ? 0 : rc;
}

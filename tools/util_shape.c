/*
 * util_shape.c - text shaping for the CLI (shape.h). HarfBuzz shapes; its font reads the tables
 * straight out of the otv_face (hb_face_create_for_tables over otv_face_table: no second copy of
 * the file) and gets the location's normalized coordinates as they are (F2Dot14, after avar), so
 * the glyphs and positions are those of the location otvar draws. A line is cut into runs of one
 * embedding level (FriBidi, UAX #9) and then of one script, the runs are put in visual order
 * (UAX #9 rule L2) and each is shaped with the text around it as context.
 */
#include "shape.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#ifdef OTV_HAVE_HARFBUZZ
#  include <hb-ot.h>
#  include <hb.h>
#  ifdef OTV_HAVE_FRIBIDI
#    include <fribidi.h>
#  endif
#  include "hb_dl.h" /* OTV_HB_DLOPEN: HarfBuzz opened at first use */
#endif

bool shp_available(void)
{
#if defined(OTV_HAVE_HARFBUZZ) && defined(OTV_HB_DLOPEN)
  return otv_hb_load();
#elif defined(OTV_HAVE_HARFBUZZ)
  return true;
#else
  return false;
#endif
}

bool shp_has_bidi(void)
{
#if defined(OTV_HAVE_HARFBUZZ) && defined(OTV_HAVE_FRIBIDI)
  return shp_available();
#else
  return false;
#endif
}

const char *shp_unavailable_reason(void)
{
#if defined(OTV_HAVE_HARFBUZZ) && defined(OTV_HB_DLOPEN)
  return "HarfBuzz (" OTV_HB_SONAME ") could not be loaded";
#else
  return "this otvar was built without HarfBuzz";
#endif
}

void shp_warn_fallback(const char *cmd)
{
  static int said;
  if (shp_available() || said) return;
  said = 1;
  fprintf(stderr,
          "otvar: %s: warning: %s: text is not shaped (one glyph per "
          "character through cmap, `kern` pairs; no ligatures, marks, GPOS or right-to-left)\n",
          cmd, shp_unavailable_reason());
}

/* A line's pieces: [start, start + len) of the code points, one embedding level and script. */
typedef struct run {
  size_t start, len;
  int level;
  uint32_t script; /* hb_script_t, 0: let HarfBuzz guess */
} run;

#ifdef OTV_HAVE_HARFBUZZ

struct shp_font {
  const otv_face *face;
  hb_face_t *hface;
  hb_font_t *font;
  hb_buffer_t *buf;
  hb_feature_t *feats;
  unsigned feat_count;
  hb_direction_t dir; /* HB_DIRECTION_INVALID: from the text */
  hb_script_t script; /* HB_SCRIPT_INVALID: from the text */
  hb_language_t lang; /* NULL: the default */
  int *coords, *set;  /* the coordinates given to the font, the ones last set */
  otv_f2dot14 *norm;  /* the location's, read into here */
  unsigned axis_count;
  int coords_valid;
};

/* HarfBuzz asks for each table by tag: a span of the face's bytes (which outlive the font). */
static hb_blob_t *ref_table(hb_face_t *hface, hb_tag_t tag, void *ud)
{
  (void)hface;
  size_t len = 0;
  const uint8_t *p = tag ? otv_face_table((const otv_face *)ud, tag, &len) : NULL;
  if (!p || len > UINT_MAX) return hb_blob_get_empty();
  return hb_blob_create((const char *)p, (unsigned)len, HB_MEMORY_MODE_READONLY, NULL, NULL);
}

/* hb-view's --features: comma-separated, each as hb_feature_from_string reads it. */
static int parse_features(const char *cmd, const char *s, int no_kern, hb_feature_t **out,
                          unsigned *count)
{
  size_t cap = 2;
  for (const char *p = s; p && *p; p++) cap += *p == ',';
  hb_feature_t *f = calloc(cap, sizeof *f);
  if (!f) return OTV_EXIT_FONT;
  unsigned n = 0;
  while (s && *s) {
    const char *e = strchr(s, ',');
    size_t len = e ? (size_t)(e - s) : strlen(s);
    while (len && isspace((unsigned char)*s)) s++, len--;
    while (len && isspace((unsigned char)s[len - 1])) len--;
    if (len && !hb_feature_from_string(s, (int)len, &f[n++])) {
      cli_usage_error(cmd,
                      "bad feature '%.*s' in --features (e.g. kern, -liga, ss01=1, "
                      "aalt[3:5]=2)",
                      (int)len, s);
      free(f);
      return OTV_EXIT_USAGE;
    }
    s += len;
    while (*s && *s != ',') s++;
    if (*s == ',') s++;
  }
  if (no_kern) {
    hb_feature_from_string("-kern", -1, &f[n]);
    n++;
  }
  *out = f;
  *count = n;
  return OTV_EXIT_OK;
}

int shp_font_create(const char *cmd, const otv_face *face, const shp_opts *o, shp_font **out)
{
  *out = NULL;
  if (!shp_available()) { /* OTV_HB_DLOPEN and no libharfbuzz: the cmap layout */
    shp_warn_fallback(cmd);
    return OTV_EXIT_OK;
  }
  hb_direction_t dir = HB_DIRECTION_INVALID;
  hb_script_t script = HB_SCRIPT_INVALID;
  if (o->direction) {
    dir = hb_direction_from_string(o->direction, -1);
    if (dir == HB_DIRECTION_INVALID) {
      cli_usage_error(cmd, "--direction '%s': expected ltr, rtl, ttb or btt", o->direction);
      return OTV_EXIT_USAGE;
    }
  }
  if (o->script) {
    size_t k = strlen(o->script);
    int alpha = k == 4;
    for (size_t i = 0; i < k && alpha; i++) alpha = isalpha((unsigned char)o->script[i]) != 0;
    if (!alpha) {
      cli_usage_error(cmd, "--script '%s': expected an ISO 15924 tag of 4 letters (Latn, Arab)",
                      o->script);
      return OTV_EXIT_USAGE;
    }
    script = hb_script_from_string(o->script, -1);
  }
  if (o->language && !*o->language) {
    cli_usage_error(cmd, "--language is empty (expected a BCP 47 tag: en, ar, tr)");
    return OTV_EXIT_USAGE;
  }
  shp_font *f = calloc(1, sizeof *f);
  if (!f) goto nomem;
  int rc = parse_features(cmd, o->features, o->no_kern, &f->feats, &f->feat_count);
  if (rc) {
    free(f);
    return rc;
  }
  f->face = face;
  f->dir = dir;
  f->script = script;
  f->lang = o->language ? hb_language_from_string(o->language, -1) : NULL;
  otv_face_info info;
  otv_face_get_info(face, &info);
  f->axis_count = info.axis_count;
  f->coords = calloc(info.axis_count + 1, sizeof *f->coords);
  f->set = calloc(info.axis_count + 1, sizeof *f->set);
  f->norm = calloc(info.axis_count + 1, sizeof *f->norm);
  f->hface = hb_face_create_for_tables(ref_table, (void *)(uintptr_t)face, NULL);
  /* the tables' own count: HarfBuzz's maxp reader agrees with otvar's */
  f->font = hb_font_create(f->hface);
  f->buf = hb_buffer_create();
  if (!f->coords || !f->set || !f->norm || !hb_buffer_allocation_successful(f->buf) ||
      f->font == hb_font_get_empty()) {
    shp_font_destroy(f);
    goto nomem;
  }
  hb_ot_font_set_funcs(f->font);
  *out = f;
  return OTV_EXIT_OK;
nomem:
  fprintf(stderr, "otvar: %s: out of memory\n", cmd);
  return OTV_EXIT_FONT;
}

void shp_font_destroy(shp_font *f)
{
  if (!f) return;
  hb_buffer_destroy(f->buf);
  hb_font_destroy(f->font);
  hb_face_destroy(f->hface);
  free(f->feats);
  free(f->coords);
  free(f->set);
  free(f->norm);
  free(f);
}

/* The font at loc's normalized coordinates (set only when they changed). */
static void sync_coords(shp_font *f, const otv_location *loc)
{
  if (!f->axis_count) return;
  unsigned got = otv_location_normalized(loc, f->norm, f->axis_count);
  if (got > f->axis_count) got = f->axis_count;
  for (unsigned i = 0; i < f->axis_count; i++) f->coords[i] = i < got ? f->norm[i] : 0;
  if (f->coords_valid && !memcmp(f->coords, f->set, f->axis_count * sizeof *f->coords)) return;
  memcpy(f->set, f->coords, f->axis_count * sizeof *f->coords);
  f->coords_valid = 1;
  hb_font_set_var_coords_normalized(f->font, f->coords, f->axis_count);
}

/* Cut [0, n) into runs of one embedding level: FriBidi's paragraph levels (the paragraph
 * direction from the first strong character), else one level-0 run. *out is malloc'd. */
static int level_runs(const uint32_t *cps, size_t n, hb_direction_t forced, run **out,
                      size_t *count)
{
  run *r = malloc((n ? n : 1) * sizeof *r);
  if (!r) return -2;
  *out = r;
  *count = 0;
  if (!n) return 0;
  int base = HB_DIRECTION_IS_BACKWARD(forced) ? 1 : 0;
#  ifdef OTV_HAVE_FRIBIDI
  if (forced == HB_DIRECTION_INVALID && n <= (size_t)INT_MAX / 4) {
    FriBidiCharType *types = malloc(n * sizeof *types);
    FriBidiBracketType *brackets = malloc(n * sizeof *brackets);
    FriBidiLevel *levels = malloc(n * sizeof *levels);
    int ok = types && brackets && levels;
    if (ok) {
      FriBidiParType pdir = FRIBIDI_PAR_ON;
      fribidi_get_bidi_types(cps, (FriBidiStrIndex)n, types);
      fribidi_get_bracket_types(cps, (FriBidiStrIndex)n, types, brackets);
      ok = fribidi_get_par_embedding_levels_ex(types, brackets, (FriBidiStrIndex)n, &pdir,
                                               levels) != 0;
    }
    if (ok)
      for (size_t i = 0; i < n; i++) {
        if (*count && r[*count - 1].level == levels[i]) {
          r[*count - 1].len++;
          continue;
        }
        r[*count] = (run){i, 1, levels[i], 0};
        (*count)++;
      }
    free(types);
    free(brackets);
    free(levels);
    if (ok) return 0;
    *count = 0; /* FriBidi could not allocate: one run */
  }
#  endif
  r[0] = (run){0, n, base, 0};
  *count = 1;
  return 0;
}

/* Cut runs further where the script changes (Common and Inherited characters join the run they
 * are in: punctuation, spaces and marks do not break it). */
static int script_runs(const uint32_t *cps, run **runs, size_t *count)
{
  hb_unicode_funcs_t *uf = hb_unicode_funcs_get_default();
  size_t cap = 0;
  for (size_t k = 0; k < *count; k++) cap += (*runs)[k].len;
  run *out = malloc((cap ? cap : 1) * sizeof *out);
  if (!out) return -2;
  size_t m = 0;
  for (size_t k = 0; k < *count; k++) {
    run r = (*runs)[k];
    size_t first = m;
    hb_script_t cur = HB_SCRIPT_COMMON;
    for (size_t i = r.start; i < r.start + r.len; i++) {
      hb_script_t s = hb_unicode_script(uf, cps[i]);
      int neutral = s == HB_SCRIPT_COMMON || s == HB_SCRIPT_INHERITED || s == HB_SCRIPT_UNKNOWN;
      if (m == first || (!neutral && cur != HB_SCRIPT_COMMON && s != cur)) {
        out[m++] = (run){i, 0, r.level, 0};
        if (!neutral) cur = s;
      } else if (!neutral && cur == HB_SCRIPT_COMMON) {
        cur = s;
      }
      out[m - 1].len++;
    }
  }
  free(*runs);
  *runs = out;
  *count = m;
  return 0;
}

/* UAX #9 L2: from the highest level down to the lowest odd one, reverse every sequence of runs
 * at that level or above. */
static void visual_order(run *r, size_t n)
{
  int hi = 0, lo_odd = INT_MAX;
  for (size_t i = 0; i < n; i++) {
    if (r[i].level > hi) hi = r[i].level;
    if ((r[i].level & 1) && r[i].level < lo_odd) lo_odd = r[i].level;
  }
  for (int lv = hi; lv >= lo_odd && lv > 0; lv--)
    for (size_t i = 0; i < n;) {
      if (r[i].level < lv) {
        i++;
        continue;
      }
      size_t j = i;
      while (j < n && r[j].level >= lv) j++;
      for (size_t a = i, b = j - 1; a < b; a++, b--) {
        run t = r[a];
        r[a] = r[b];
        r[b] = t;
      }
      i = j;
    }
}

/* Shape one run into f->buf: the whole line as context, the run's direction and script. */
static void shape_run(shp_font *f, const uint32_t *cps, size_t n, const run *r)
{
  hb_buffer_clear_contents(f->buf);
  hb_buffer_add_codepoints(f->buf, cps, (int)n, (unsigned)r->start, (int)r->len);
  if (f->dir != HB_DIRECTION_INVALID)
    hb_buffer_set_direction(f->buf, f->dir);
  else if (shp_has_bidi())
    hb_buffer_set_direction(f->buf, r->level & 1 ? HB_DIRECTION_RTL : HB_DIRECTION_LTR);
  if (f->script != HB_SCRIPT_INVALID) hb_buffer_set_script(f->buf, f->script);
  if (f->lang) hb_buffer_set_language(f->buf, f->lang);
  hb_buffer_guess_segment_properties(f->buf);
  hb_shape(f->font, f->buf, f->feats, f->feat_count);
}

/* The runs of a line in visual order. */
static int line_runs(shp_font *f, const uint32_t *cps, size_t n, run **runs, size_t *count)
{
  if (level_runs(cps, n, f->dir, runs, count)) return -2;
  if (f->script == HB_SCRIPT_INVALID && script_runs(cps, runs, count)) {
    free(*runs);
    *runs = NULL;
    return -2;
  }
  visual_order(*runs, *count);
  return 0;
}

int shp_line(shp_font *f, otv_location *loc, const shp_opts *o, const uint32_t *cps, size_t n,
             txt_line *out)
{
  uint32_t missing;
  if (!f) return txt_layout(loc, cps, n, !o->no_kern, 2, out, &missing) ? -2 : 0;
  memset(out, 0, sizeof *out);
  if (n > (size_t)INT_MAX / 8) return -2;
  sync_coords(f, loc);
  /* positions in font units (shp_print may have scaled the font for --font-size) */
  unsigned upem = hb_face_get_upem(f->hface);
  hb_font_set_scale(f->font, (int)upem, (int)upem);
  run *runs = NULL;
  size_t nrun = 0;
  if (line_runs(f, cps, n, &runs, &nrun)) return -2;
  size_t cap = n + 1, used = 0;
  txt_glyph *g = malloc(cap * sizeof *g);
  if (!g) goto nomem;
  double x = 0;
  for (size_t k = 0; k < nrun; k++) {
    shape_run(f, cps, n, &runs[k]);
    unsigned gn = 0;
    const hb_glyph_info_t *gi = hb_buffer_get_glyph_infos(f->buf, &gn);
    const hb_glyph_position_t *gp = hb_buffer_get_glyph_positions(f->buf, NULL);
    if (used + gn > cap) { /* a run may grow (decompositions, inserted marks) */
      size_t ncap = used + gn + n;
      txt_glyph *ng = realloc(g, ncap * sizeof *ng);
      if (!ng) goto nomem;
      g = ng;
      cap = ncap;
    }
    for (unsigned i = 0; i < gn; i++) {
      g[used].gid = gi[i].codepoint;
      g[used].x = (float)(x + gp[i].x_offset);
      g[used].y = (float)gp[i].y_offset;
      g[used].advance = (float)gp[i].x_advance;
      x += gp[i].x_advance;
      used++;
    }
  }
  free(runs);
  out->g = g;
  out->n = used;
  out->width = (float)x;
  return 0;
nomem:
  free(runs);
  free(g);
  return -2;
}

int shp_print(shp_font *f, otv_location *loc, const shp_opts *o, const uint32_t *cps, size_t n,
              unsigned flags, double font_size, FILE *to)
{
  (void)o;
  if (!f) return -1;
  if (n > (size_t)INT_MAX / 8) return -2;
  sync_coords(f, loc);
  if (font_size > 0) {
    int s = (int)font_size; /* as hb-shape: --font-size times 2^0 subpixel bits, truncated */
    hb_font_set_scale(f->font, s, s);
  } else {
    unsigned upem = hb_face_get_upem(f->hface);
    hb_font_set_scale(f->font, (int)upem, (int)upem);
  }
  /* hb-shape shapes a line as one run: its direction and script from the text (or the options) */
  hb_buffer_clear_contents(f->buf);
  hb_buffer_add_codepoints(f->buf, cps, (int)n, 0, (int)n);
  if (f->dir != HB_DIRECTION_INVALID) hb_buffer_set_direction(f->buf, f->dir);
  if (f->script != HB_SCRIPT_INVALID) hb_buffer_set_script(f->buf, f->script);
  if (f->lang) hb_buffer_set_language(f->buf, f->lang);
  hb_buffer_guess_segment_properties(f->buf);
  hb_shape(f->font, f->buf, f->feats, f->feat_count);
  unsigned len = hb_buffer_get_length(f->buf), start = 0;
  char chunk[4096];
  /* an empty line is an empty line, as hb-shape prints it */
  while (start < len) {
    unsigned consumed = 0;
    hb_buffer_serialize_glyphs(f->buf, start, len, chunk, sizeof chunk, &consumed, f->font,
                               HB_BUFFER_SERIALIZE_FORMAT_TEXT, (hb_buffer_serialize_flags_t)flags);
    if (!consumed) break;
    fputs(chunk, to);
    start += consumed;
  }
  fputc('\n', to);
  return 0;
}

#else /* no HarfBuzz: the cmap layout */

struct shp_font {
  int unused;
};

int shp_font_create(const char *cmd, const otv_face *face, const shp_opts *o, shp_font **out)
{
  (void)face;
  (void)o;
  *out = NULL;
  shp_warn_fallback(cmd);
  return OTV_EXIT_OK;
}

void shp_font_destroy(shp_font *f) { (void)f; }

int shp_line(shp_font *f, otv_location *loc, const shp_opts *o, const uint32_t *cps, size_t n,
             txt_line *out)
{
  (void)f;
  uint32_t missing;
  return txt_layout(loc, cps, n, !o->no_kern, 2, out, &missing) ? -2 : 0;
}

int shp_print(shp_font *f, otv_location *loc, const shp_opts *o, const uint32_t *cps, size_t n,
              unsigned flags, double font_size, FILE *to)
{
  (void)f, (void)loc, (void)o, (void)cps, (void)n, (void)flags, (void)font_size, (void)to;
  return -1;
}

#endif

/* ---- samples per script (fonts/samples.txt) ---- */

/* When samples.txt is nowhere to be found: Latin and digits. */
static const char builtin_samples[] = "Latn|Latin|0041-005A,0061-007A,00C0-024F|Sphinx of black "
                                      "quartz, judge my vow|Ag\n"
                                      "Zyyy|Digits|0030-0039|0123456789|12\n";

/* Split s at '|' into at most n fields (in place); returns the count. */
static int fields(char *s, char **f, int n)
{
  int k = 0;
  while (k < n) {
    f[k++] = s;
    char *bar = strchr(s, '|');
    if (!bar) break;
    *bar = 0;
    s = bar + 1;
  }
  return k;
}

/* The number of code points of "0041-005A,0061-007A" the face maps (bounded: at most 0x30000
 * look-ups a range, ranges past U+10FFFF ignored). */
static unsigned count_ranges(const otv_face *face, const char *ranges)
{
  unsigned count = 0;
  const char *p = ranges;
  while (*p) {
    char *end;
    unsigned long lo = strtoul(p, &end, 16), hi = lo;
    if (end == p) break;
    p = end;
    if (*p == '-') {
      hi = strtoul(p + 1, &end, 16);
      p = end;
    }
    if (hi > 0x10FFFF) hi = 0x10FFFF;
    if (hi >= lo && hi - lo < 0x30000)
      for (unsigned long c = lo; c <= hi; c++)
        count += otv_face_glyph_for_char(face, (uint32_t)c, 0) != 0;
    while (*p == ',' || *p == ' ') p++;
  }
  return count;
}

unsigned shp_font_samples(const otv_face *face, shp_sample *out, unsigned cap)
{
  char path[4096];
  const char *where = cli_data_file("samples.txt", path, sizeof path);
  char *text = NULL;
  FILE *f = where ? fopen(where, "rb") : NULL;
  if (f) {
    size_t len = 0, cap_b = 0;
    char buf[4096];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0 && len < (1u << 20)) {
      if (len + got + 1 > cap_b) {
        size_t nc = (len + got + 1) * 2;
        char *nt = realloc(text, nc);
        if (!nt) break;
        text = nt;
        cap_b = nc;
      }
      memcpy(text + len, buf, got);
      len += got;
      text[len] = 0;
    }
    fclose(f);
  }
  const char *src = text ? text : builtin_samples;
  unsigned n = 0, counts[64];
  shp_sample all[64];
  const char *line = src;
  while (*line && n < 64) {
    const char *nl = strchr(line, '\n');
    size_t ll = nl ? (size_t)(nl - line) : strlen(line);
    char row[1024];
    if (ll && line[0] != '#' && ll < sizeof row) {
      memcpy(row, line, ll);
      row[ll] = 0;
      if (ll && row[ll - 1] == '\r') row[ll - 1] = 0;
      char *fl[5];
      if (fields(row, fl, 5) == 5 && strlen(fl[0]) == 4 && txt_covers(face, fl[3]) &&
          txt_covers(face, fl[4])) {
        unsigned c = count_ranges(face, fl[2]);
        shp_sample s;
        memset(&s, 0, sizeof s);
        snprintf(s.script, sizeof s.script, "%s", fl[0]);
        snprintf(s.name, sizeof s.name, "%s", fl[1]);
        snprintf(s.text, sizeof s.text, "%s", fl[3]);
        snprintf(s.short_text, sizeof s.short_text, "%s", fl[4]);
        /* insertion by count, most first; a tie keeps the file's order */
        unsigned at = n;
        while (at > 0 && counts[at - 1] < c) at--;
        memmove(all + at + 1, all + at, (n - at) * sizeof *all);
        memmove(counts + at + 1, counts + at, (n - at) * sizeof *counts);
        all[at] = s;
        counts[at] = c;
        n++;
      }
    }
    line += ll + (nl ? 1 : 0);
  }
  free(text);
  if (n > cap) n = cap;
  memcpy(out, all, n * sizeof *out);
  return n;
}

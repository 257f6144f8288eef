/*
 * cmd_info.c - `otvar info FONT [--index N] [--json] [--var TAG=V,...|--named N|NAME]
 * [--metrics]`: what the font is (flavour, glyph count, units per em, tables), its variation
 * axes with names, ranges and hidden flag, named instances with names and coordinates, avar
 * version, STAT, and optionally a location (normalized coordinates) and the font-wide metrics
 * there. The JSON form is documented in docs/info-json.md and is stable: members are only ever
 * added.
 */
#include "cli.h"

#include <errno.h>
#include "woff.h"

#include <stdlib.h>
#include <string.h>

const char otv_cmd_info_summary[] = "describe a font: axes, named instances, STAT, tables";

#define MAX_SETTINGS 256
#define INFO_JSON_VERSION 1

static const cli_cmd info_cmd = {
    "info",
    "otvar info FONT [--index N] [--json] [--var TAG=V,...] [--named N|NAME]\n"
    "                       [--metrics]",
    "Describes a font: flavour (glyf, CFF, CFF2), glyph count, units per em, tables,\n"
    "variation axes (names, min/default/max, hidden flag), named instances (names,\n"
    "coordinates), avar version and STAT (design axes, axis values formats 1-4).\n"
    "FONT - reads the font from standard input.\n",
    "Exit codes: 0 ok, 1 bad font, 2 bad usage.\n",
    "FONT",
    1,
    1};

/* ---- output helpers ---- */

/* Shortest fixed-point form that reads back as the same double (valid JSON number). */
static void put_num(double v)
{
  char buf[400];
  if (v != v) {
    fputs("null", stdout);
    return;
  }
  cli_exact_num(v, buf, sizeof buf);
  if (!strcmp(buf, "-0")) strcpy(buf, "0");
  fputs(buf, stdout);
}

/* A C1 control (U+0080..U+009F, which some terminals obey as ESC sequences) at p: its code
 * point, or 0. Names arrive as UTF-8 (otv_face_name), so C1 is the two bytes C2 80..C2 9F. */
static unsigned c1_control(const unsigned char *p)
{
  return p[0] == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F ? p[1] : 0;
}

/* JSON string: quotes, backslashes and every control character (C0, DEL, C1) escaped. */
static void put_jstr(const char *s)
{
  if (!s) {
    fputs("null", stdout);
    return;
  }
  putchar('"');
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    unsigned c1 = c1_control(p);
    if (*p == '"' || *p == '\\')
      printf("\\%c", *p);
    else if (*p < 0x20 || *p == 0x7F)
      printf("\\u%04x", *p);
    else if (c1)
      printf("\\u%04x", c1), p++;
    else
      putchar(*p);
  }
  putchar('"');
}

/* Text from the font or the command line for the terminal: control characters (C0, DEL, C1:
 * escape sequences, newlines) shown as \xNN / \uNNNN instead of acting on the terminal. */
static void put_text(const char *s)
{
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    unsigned c1 = c1_control(p);
    if (*p < 0x20 || *p == 0x7F)
      printf("\\x%02x", *p);
    else if (c1)
      printf("\\u%04x", c1), p++;
    else
      putchar(*p);
  }
}

static void put_tag_json(uint32_t tag)
{
  char t[5];
  otv_tag_to_string(tag, t);
  put_jstr(t);
}

/* A name as a malloc'd UTF-8 string, NULL when the font has none. */
static char *get_name(const otv_face *face, uint16_t id)
{
  size_t need = 0;
  char small[2];
  if (id == 0xFFFF || otv_face_name(face, id, small, sizeof small, &need, NULL)) return NULL;
  char *s = malloc(need + 1);
  if (!s) return NULL;
  otv_face_name(face, id, s, need + 1, NULL, NULL);
  return s;
}

static void put_name_json(const otv_face *face, uint16_t id)
{
  char *s = get_name(face, id);
  put_jstr(s);
  free(s);
}

static void put_name_text(const otv_face *face, uint16_t id)
{
  char *s = get_name(face, id);
  if (s) {
    putchar('"');
    put_text(s);
    putchar('"');
  } else
    printf("(name %u missing)", id);
  free(s);
}

static const char *flavour_str(otv_flavour f)
{
  switch (f) {
  case OTV_FLAVOUR_GLYF: return "glyf";
  case OTV_FLAVOUR_CFF: return "CFF";
  case OTV_FLAVOUR_CFF2: return "CFF2";
  default: return "none";
  }
}

/* Number of faces in the file (reads only the header and the TTC offset table; a WOFF or WOFF2
 * file is decoded whole; standard input was read whole already). */
static unsigned face_count(const char *path)
{
  size_t sfnt_len;
  uint8_t *sfnt;
  if (cli_is_std(path)) {
    unsigned n = (sfnt = cli_load_sfnt(path, &sfnt_len)) ? otv_font_face_count(sfnt, sfnt_len) : 1;
    free(sfnt);
    return n;
  }
  FILE *f = fopen(path, "rb");
  uint8_t sig[4];
  if (f && fread(sig, 1, 4, f) == 4 && woff_is_woff(sig, 4)) { /* decoded again: info only */
    fclose(f);
    unsigned n = (sfnt = cli_woff_load(path, &sfnt_len)) ? otv_font_face_count(sfnt, sfnt_len) : 1;
    free(sfnt);
    return n;
  }
  if (!f) return 1;
  rewind(f);
  uint8_t head[12];
  unsigned n = 1;
  if (fread(head, 1, sizeof head, f) == sizeof head && !memcmp(head, "ttcf", 4)) {
    uint32_t k =
        (uint32_t)head[8] << 24 | (uint32_t)head[9] << 16 | (uint32_t)head[10] << 8 | head[11];
    if (k <= 65536) {
      size_t len = 12 + 4 * (size_t)k;
      uint8_t *buf = malloc(len);
      if (buf) {
        memcpy(buf, head, 12);
        if (fread(buf + 12, 1, len - 12, f) == len - 12) n = otv_font_face_count(buf, len);
        free(buf);
      }
    }
  }
  fclose(f);
  return n;
}

/* ---- the report ---- */

typedef struct info {
  const char *path;
  unsigned index;
  otv_face *face;
  otv_face_info fi;
  otv_axis *axes;
  unsigned axis_count;
  otv_location *loc; /* NULL: no location requested */
  double *user;      /* user coordinates of the location */
  otv_f2dot14 *norm; /* its normalized coordinates */
  bool metrics;
} info;

static const char *axis_tag_str(const info *in, unsigned axis_index, char buf[5])
{
  if (axis_index < in->axis_count) {
    otv_tag_to_string(in->axes[axis_index].tag, buf);
    return buf;
  }
  return NULL;
}

/* STAT axis tags come from STAT's own design axes. */
static const char *stat_axis_tag(const otv_face *face, unsigned axis_index, char buf[5])
{
  otv_stat_axis sa;
  unsigned one = 1;
  otv_face_stat_axes(face, axis_index, &one, &sa);
  if (!one) return NULL;
  otv_tag_to_string(sa.tag, buf);
  return buf;
}

static void print_json(const info *in)
{
  const otv_face *face = in->face;
  char tag[5];
  printf("{\n  \"otvar_info_version\": %d,\n  \"file\": ", INFO_JSON_VERSION);
  put_jstr(in->path);
  printf(",\n  \"face_index\": %u,\n  \"face_count\": %u,\n", in->index, face_count(in->path));
  printf("  \"flavour\": \"%s\",\n  \"glyph_count\": %u,\n  \"units_per_em\": %u,\n",
         flavour_str(in->fi.flavour), in->fi.glyph_count, in->fi.units_per_em);
  printf("  \"tables\": [");
  for (unsigned i = 0; i < in->fi.table_count; i++) {
    otv_table_record t;
    unsigned one = 1;
    otv_face_tables(face, i, &one, &t);
    printf("%s\n    {\"tag\": ", i ? "," : "");
    put_tag_json(t.tag);
    printf(", \"offset\": %u, \"length\": %u, \"checksum\": %u}", t.offset, t.length, t.checksum);
  }
  printf("%s],\n", in->fi.table_count ? "\n  " : "");
  static const uint16_t ids[] = {1, 2, 4, 6, 16, 17, 25};
  printf("  \"names\": {");
  bool first = true;
  for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
    char *s = get_name(face, ids[i]);
    if (!s) continue;
    printf("%s\n    \"%u\": ", first ? "" : ",", ids[i]);
    put_jstr(s);
    free(s);
    first = false;
  }
  printf("%s},\n", first ? "" : "\n  ");
  printf("  \"variable\": %s,\n  \"avar_version\": %u,\n", in->axis_count ? "true" : "false",
         in->fi.avar_version);
  printf("  \"axes\": [");
  for (unsigned a = 0; a < in->axis_count; a++) {
    const otv_axis *x = &in->axes[a];
    printf("%s\n    {\"index\": %u, \"tag\": ", a ? "," : "", a);
    put_tag_json(x->tag);
    printf(", \"name_id\": %u, \"name\": ", x->name_id);
    put_name_json(face, x->name_id);
    printf(", \"min\": ");
    put_num(x->min_value);
    printf(", \"default\": ");
    put_num(x->default_value);
    printf(", \"max\": ");
    put_num(x->max_value);
    printf(", \"flags\": %u, \"hidden\": %s}", x->flags,
           (x->flags & OTV_AXIS_FLAG_HIDDEN) ? "true" : "false");
  }
  printf("%s],\n", in->axis_count ? "\n  " : "");
  printf("  \"named_instances\": [");
  unsigned ni_count = in->fi.instance_count;
  double *coords = calloc(in->axis_count ? in->axis_count : 1, sizeof *coords);
  for (unsigned i = 0; i < ni_count && coords; i++) {
    otv_named_instance ni;
    unsigned one = 1;
    otv_face_named_instances(face, i, &one, &ni);
    otv_face_named_instance_coords(face, i, coords, in->axis_count, NULL);
    printf("%s\n    {\"index\": %u, \"subfamily_name_id\": %u, \"name\": ", i ? "," : "", i,
           ni.subfamily_name_id);
    put_name_json(face, ni.subfamily_name_id);
    printf(", \"postscript_name_id\": ");
    if (ni.postscript_name_id == 0xFFFF)
      printf("null, \"postscript_name\": null");
    else {
      printf("%u, \"postscript_name\": ", ni.postscript_name_id);
      put_name_json(face, ni.postscript_name_id);
    }
    printf(", \"flags\": %u, \"coordinates\": [", ni.flags);
    for (unsigned a = 0; a < in->axis_count; a++) {
      if (a) printf(", ");
      put_num(coords[a]);
    }
    printf("]}");
  }
  free(coords);
  printf("%s],\n", ni_count ? "\n  " : "");

  otv_stat_info st;
  otv_face_stat(face, &st);
  printf("  \"stat\": ");
  if (!st.present) {
    printf("null");
  } else {
    printf("{\n    \"minor_version\": %u,\n    \"elided_fallback_name_id\": ", st.minor_version);
    if (st.elided_fallback_name_id == 0xFFFF)
      printf("null,\n    \"elided_fallback_name\": null,\n");
    else {
      printf("%u,\n    \"elided_fallback_name\": ", st.elided_fallback_name_id);
      put_name_json(face, st.elided_fallback_name_id);
      printf(",\n");
    }
    printf("    \"design_axes\": [");
    for (unsigned i = 0; i < st.design_axis_count; i++) {
      otv_stat_axis sa;
      unsigned one = 1;
      otv_face_stat_axes(face, i, &one, &sa);
      printf("%s\n      {\"index\": %u, \"tag\": ", i ? "," : "", i);
      put_tag_json(sa.tag);
      printf(", \"name_id\": %u, \"name\": ", sa.name_id);
      put_name_json(face, sa.name_id);
      printf(", \"ordering\": %u}", sa.ordering);
    }
    printf("%s],\n", st.design_axis_count ? "\n    " : "");
    printf("    \"axis_values\": [");
    for (unsigned i = 0; i < st.axis_value_count; i++) {
      otv_stat_value v;
      unsigned one = 1;
      otv_face_stat_values(face, i, &one, &v);
      printf("%s\n      {\"index\": %u, \"format\": %u", i ? "," : "", i, v.format);
      if (v.format >= 1 && v.format <= 4) {
        printf(", \"flags\": %u, \"name_id\": %u, \"name\": ", v.flags, v.name_id);
        put_name_json(face, v.name_id);
      }
      if (v.format >= 1 && v.format <= 3) {
        printf(", \"axis_index\": %u, \"axis_tag\": ", v.axis_index);
        put_jstr(stat_axis_tag(face, v.axis_index, tag));
        printf(", \"value\": ");
        put_num(v.value);
      }
      if (v.format == 2) {
        printf(", \"range_min\": ");
        put_num(v.range_min);
        printf(", \"range_max\": ");
        put_num(v.range_max);
      } else if (v.format == 3) {
        printf(", \"linked_value\": ");
        put_num(v.linked_value);
      } else if (v.format == 4) {
        printf(", \"records\": [");
        for (unsigned k = 0; k < v.record_count; k++) {
          otv_stat_axis_value_record rec;
          unsigned one2 = 1;
          otv_face_stat_value_records(face, i, k, &one2, &rec);
          printf("%s{\"axis_index\": %u, \"axis_tag\": ", k ? ", " : "", rec.axis_index);
          put_jstr(stat_axis_tag(face, rec.axis_index, tag));
          printf(", \"value\": ");
          put_num(rec.value);
          printf("}");
        }
        printf("]");
      }
      printf("}");
    }
    printf("%s]\n  }", st.axis_value_count ? "\n    " : "");
  }
  if (in->loc) {
    printf(",\n  \"location\": {\"user\": [");
    for (unsigned a = 0; a < in->axis_count; a++) {
      if (a) printf(", ");
      put_num(in->user[a]);
    }
    printf("], \"normalized\": [");
    for (unsigned a = 0; a < in->axis_count; a++) printf("%s%d", a ? ", " : "", in->norm[a]);
    printf("]}");
  }
  if (in->metrics) {
    printf(",\n  \"metrics\": {");
    fflush(stdout);
    cli_print_font_metrics(in->loc, stdout, 1);
    printf("}");
  }
  printf("\n}\n");
}

static void print_text(const info *in)
{
  const otv_face *face = in->face;
  char tag[5];
  unsigned faces = face_count(in->path);
  fputs("file: ", stdout);
  put_text(in->path);
  if (faces > 1) printf(" (face %u of %u)", in->index, faces);
  printf("\nflavour: %s\nglyphs: %u\nunits per em: %u\n", flavour_str(in->fi.flavour),
         in->fi.glyph_count, in->fi.units_per_em);
  char *family = get_name(face, 16);
  if (!family) family = get_name(face, 1);
  if (family) {
    fputs("family: ", stdout);
    put_text(family);
    putchar('\n');
  }
  free(family);
  printf("tables (%u):", in->fi.table_count);
  for (unsigned i = 0; i < in->fi.table_count; i++) {
    otv_table_record t;
    unsigned one = 1;
    otv_face_tables(face, i, &one, &t);
    otv_tag_to_string(t.tag, tag);
    printf(" %s", tag);
  }
  printf("\n");
  if (!in->axis_count) {
    printf("not a variable font (no fvar axes)\n");
  } else {
    printf("avar: %s\n",
           in->fi.avar_version ? (in->fi.avar_version == 2 ? "version 2" : "version 1") : "none");
    printf("axes (%u):\n", in->axis_count);
    for (unsigned a = 0; a < in->axis_count; a++) {
      const otv_axis *x = &in->axes[a];
      otv_tag_to_string(x->tag, tag);
      printf("  %-4s ", tag);
      put_name_text(face, x->name_id);
      printf(" min ");
      put_num(x->min_value);
      printf(" default ");
      put_num(x->default_value);
      printf(" max ");
      put_num(x->max_value);
      if (x->flags & OTV_AXIS_FLAG_HIDDEN) printf(" hidden");
      printf("\n");
    }
    unsigned ni_count = in->fi.instance_count;
    printf("named instances (%u):\n", ni_count);
    double *coords = calloc(in->axis_count, sizeof *coords);
    for (unsigned i = 0; i < ni_count && coords; i++) {
      otv_named_instance ni;
      unsigned one = 1;
      otv_face_named_instances(face, i, &one, &ni);
      otv_face_named_instance_coords(face, i, coords, in->axis_count, NULL);
      printf("  %u ", i);
      put_name_text(face, ni.subfamily_name_id);
      for (unsigned a = 0; a < in->axis_count; a++) {
        otv_tag_to_string(in->axes[a].tag, tag);
        printf(" %s=", tag);
        put_num(coords[a]);
      }
      if (ni.postscript_name_id != 0xFFFF) {
        printf(" ps ");
        put_name_text(face, ni.postscript_name_id);
      }
      printf("\n");
    }
    free(coords);
  }
  otv_stat_info st;
  otv_face_stat(face, &st);
  if (st.present) {
    printf("STAT: version 1.%u, %u design axes, %u axis values", st.minor_version,
           st.design_axis_count, st.axis_value_count);
    if (st.elided_fallback_name_id != 0xFFFF) {
      printf(", elided fallback ");
      put_name_text(face, st.elided_fallback_name_id);
    }
    printf("\n");
    for (unsigned i = 0; i < st.design_axis_count; i++) {
      otv_stat_axis sa;
      unsigned one = 1;
      otv_face_stat_axes(face, i, &one, &sa);
      otv_tag_to_string(sa.tag, tag);
      printf("  axis %u %-4s ", i, tag);
      put_name_text(face, sa.name_id);
      printf(" ordering %u\n", sa.ordering);
    }
    for (unsigned i = 0; i < st.axis_value_count; i++) {
      otv_stat_value v;
      unsigned one = 1;
      otv_face_stat_values(face, i, &one, &v);
      printf("  value %u format %u", i, v.format);
      if (v.format < 1 || v.format > 4) {
        printf(" (unknown format)\n");
        continue;
      }
      if (v.format <= 3) {
        const char *t = stat_axis_tag(face, v.axis_index, tag);
        printf(" %s=", t ? t : "?");
        put_num(v.value);
      }
      if (v.format == 2) {
        printf(" range ");
        put_num(v.range_min);
        printf("..");
        put_num(v.range_max);
      } else if (v.format == 3) {
        printf(" linked ");
        put_num(v.linked_value);
      } else if (v.format == 4) {
        for (unsigned k = 0; k < v.record_count; k++) {
          otv_stat_axis_value_record rec;
          unsigned one2 = 1;
          otv_face_stat_value_records(face, i, k, &one2, &rec);
          const char *t = stat_axis_tag(face, rec.axis_index, tag);
          printf("%s%s=", k ? "," : " ", t ? t : "?");
          put_num(rec.value);
        }
      }
      printf(" ");
      put_name_text(face, v.name_id);
      if (v.flags & OTV_STAT_ELIDABLE_AXIS_VALUE_NAME) printf(" elidable");
      if (v.flags & OTV_STAT_OLDER_SIBLING_FONT_ATTRIBUTE) printf(" older-sibling");
      printf("\n");
    }
  } else {
    printf("STAT: none\n");
  }
  if (in->loc) {
    printf("location:");
    for (unsigned a = 0; a < in->axis_count; a++) {
      printf(" %s=", axis_tag_str(in, a, tag) ? tag : "?");
      put_num(in->user[a]);
      printf(" (%d)", in->norm[a]);
    }
    printf("\n");
  }
  if (in->metrics) {
    printf("metrics:\n");
    fflush(stdout);
    cli_print_font_metrics(in->loc, stdout, 0);
  }
}

/* The report: the face opened, the location set (--var, --named; --metrics needs one too),
 * text or JSON printed. */
static int info_run(const char *path, unsigned index, int json, int metrics, const char *var,
                    const char *named, otv_norm_model model)
{
  info in;
  memset(&in, 0, sizeof in);
  in.path = path;
  in.index = index;
  in.metrics = metrics;
  otv_axis_value vals[MAX_SETTINGS];
  int nvals = 0;
  if (var && (nvals = cli_parse_var("info", var, vals, MAX_SETTINGS)) < 0) return OTV_EXIT_USAGE;

  in.face = cli_open_face(in.path, in.index);
  if (!in.face) return OTV_EXIT_FONT;
  int rc = OTV_EXIT_OK;
  otv_face_get_info(in.face, &in.fi);
  in.axis_count = otv_face_axes(in.face, 0, NULL, NULL);
  in.axes = calloc(in.axis_count ? in.axis_count : 1, sizeof *in.axes);
  in.user = calloc(in.axis_count ? in.axis_count : 1, sizeof *in.user);
  in.norm = calloc(in.axis_count ? in.axis_count : 1, sizeof *in.norm);
  if (!in.axes || !in.user || !in.norm) {
    fprintf(stderr, "otvar: info: out of memory\n");
    rc = OTV_EXIT_FONT;
    goto done;
  }
  unsigned cnt = in.axis_count;
  otv_face_axes(in.face, 0, &cnt, in.axes);
  for (unsigned a = 0; a < in.axis_count; a++) in.user[a] = in.axes[a].default_value;

  if (var || named || in.metrics) {
    if (var && !cli_check_var("info", in.face, vals, nvals)) {
      rc = OTV_EXIT_USAGE;
      goto done;
    }
    int inst = -1;
    if (named && (inst = cli_find_named("info", in.face, named)) < 0) {
      rc = OTV_EXIT_USAGE;
      goto done;
    }
    otv_error e = {0};
    if (otv_location_create(in.face, &in.loc, &e)) {
      cli_error(in.path, &e);
      rc = OTV_EXIT_FONT;
      goto done;
    }
    otv_status s = otv_location_set_model(in.loc, model);
    if (!s && inst >= 0) {
      s = otv_location_set_named(in.loc, (unsigned)inst);
      if (!s) otv_face_named_instance_coords(in.face, (unsigned)inst, in.user, in.axis_count, NULL);
    } else if (!s) {
      s = otv_location_set_user(in.loc, vals, (size_t)nvals);
      for (int i = 0; i < nvals; i++)
        for (unsigned a = 0; a < in.axis_count; a++)
          if (in.axes[a].tag == vals[i].tag) in.user[a] = vals[i].value;
    }
    if (s) {
      cli_error(in.path, otv_location_last_error(in.loc));
      rc = OTV_EXIT_FONT;
      goto done;
    }
    otv_location_normalized(in.loc, in.norm, in.axis_count);
  }
  if (json)
    print_json(&in);
  else
    print_text(&in);
  errno = 0;
  if (fflush(stdout) != 0 || ferror(stdout)) rc = cli_output_error("info", errno);
done:
  otv_location_destroy(in.loc);
  free(in.axes);
  free(in.user);
  free(in.norm);
  cli_close_face(in.face);
  return rc;
}

int otv_cmd_info(int argc, char **argv)
{
  unsigned face_index = 0;
  int json = 0, metrics = 0;
  const char *var = NULL, *named = NULL, *index = NULL, *model = NULL;
  const cli_opt opts[] = {
      {"index", 0, CLI_OPT_VALUE, &index, "N", "face N of a TrueType Collection (default 0)"},
      {"json", 0, CLI_OPT_FLAG, &json, NULL, "machine-readable output (schema: docs/info-json.md)"},
      {"var", 0, CLI_OPT_LIST, &var, "TAG=V,...",
       "also show a location in user units (unlisted axes:\n"
       "default; a tag given twice: the later value wins)"},
      {"named", 0, CLI_OPT_VALUE, &named, "N|NAME",
       "also show the location of a named instance (number or\nname)"},
      CLI_OPT_NORMALIZE(&model),
      {"metrics", 0, CLI_OPT_FLAG, &metrics, NULL,
       "also print the font-wide metrics (MVAR tags) at the location"},
      {"help", 'h', CLI_OPT_HELP, NULL, NULL, "this help"},
      CLI_OPT_END,
  };
  cli_args args;
  int rc;
  if (!cli_parse(&info_cmd, opts, argc, argv, &args, &rc)) goto out;
  const char *path = args.pos[0];
  rc = OTV_EXIT_USAGE;
  otv_norm_model m;
  if (cli_parse_face_opts("info", index, model, var, named, &face_index, &m)) goto out;
  if ((rc = cli_check_std("info", path, NULL, false))) goto out;
  rc = info_run(path, face_index, json, metrics, var, named, m);
out:
  cli_args_free(&args);
  return rc;
}

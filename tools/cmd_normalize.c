/*
 * cmd_normalize.c - `otvar normalize FONT [--normalize MODEL|all] [TAG=VALUE ...]`: one line per
 * axis, `TAG <user value> <F2Dot14 integer> <16.16 integer> <real>`, after clamping, avar v1 and
 * avar v2, in one normalization model or (all) one line per model with its name last.
 * Unlisted axes are at their default. Values outside an axis range are clamped (that is part of
 * normalization); an axis tag the font does not have is a usage error.
 */
#include "cli.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

const char otv_cmd_normalize_summary[] = "user axis values -> normalized coordinates (after avar)";

#define MAX_SETTINGS 256

/* Shortest fixed-point form that reads back as the same double (no exponent). */
static void print_num(double v)
{
  char buf[400];
  cli_exact_num(v, buf, sizeof buf);
  fputs(buf, stdout);
}

/* The report: settings parsed and checked against the axes, one line per axis. */
static int normalize(const char *path, const char *index_arg, const char *model_arg,
                     const char **settings, unsigned setting_count)
{
  otv_norm_model model = OTV_NORM_SPEC;
  bool all = model_arg && !strcmp(model_arg, "all");
  if (!all && cli_parse_model("normalize", model_arg, &model)) return OTV_EXIT_USAGE;
  unsigned index = 0;
  otv_axis_value vals[MAX_SETTINGS];
  int n = 0;
  if (index_arg && cli_parse_index("normalize", index_arg, &index)) return OTV_EXIT_USAGE;
  for (unsigned i = 0; i < setting_count; i++) {
    int k = cli_parse_var("normalize", settings[i], vals + n, MAX_SETTINGS - n);
    if (k < 0) return OTV_EXIT_USAGE;
    n += k;
  }
  int rc = cli_check_std("normalize", path, NULL, false);
  if (rc) return rc;
  otv_face *face = cli_open_face(path, index);
  if (!face) return OTV_EXIT_FONT;
  unsigned axis_count = otv_face_axes(face, 0, NULL, NULL);
  otv_axis *axes = calloc(axis_count ? axis_count : 1, sizeof *axes);
  otv_f2dot14 *coords = calloc(axis_count ? axis_count : 1, sizeof *coords);
  double *user = calloc(axis_count ? axis_count : 1, sizeof *user);
  double *real = calloc(axis_count ? axis_count : 1, sizeof *real);
  otv_fixed *fixed = calloc(axis_count ? axis_count : 1, sizeof *fixed);
  if (!axes || !coords || !user || !real || !fixed) {
    fprintf(stderr, "otvar: normalize: out of memory\n");
    rc = OTV_EXIT_FONT;
    goto done;
  }
  unsigned cnt = axis_count;
  otv_face_axes(face, 0, &cnt, axes);
  for (int i = 0; i < n; i++) {
    unsigned a;
    for (a = 0; a < axis_count; a++)
      if (axes[a].tag == vals[i].tag) break;
    if (a == axis_count) {
      char tag[5];
      otv_tag_to_string(vals[i].tag, tag);
      cli_usage_error("normalize", "the font has no axis '%s'", tag);
      rc = OTV_EXIT_USAGE;
      goto done;
    }
  }
  for (unsigned a = 0; a < axis_count; a++) {
    user[a] = axes[a].default_value;
    for (int i = 0; i < n; i++)
      if (vals[i].tag == axes[a].tag) user[a] = vals[i].value; /* last one wins, as the API */
  }
  for (int m = all ? 0 : (int)model; m < (all ? OTV_NORM_MODEL_COUNT : (int)model + 1); m++) {
    otv_error e = {0};
    if (otv_face_normalize(face, (otv_norm_model)m, user, axis_count, fixed, coords, real, &e)) {
      cli_error(path, &e);
      rc = OTV_EXIT_FONT;
      goto done;
    }
    for (unsigned a = 0; a < axis_count; a++) {
      char tag[5];
      otv_tag_to_string(axes[a].tag, tag);
      printf("%s ", tag);
      print_num(user[a]);
      printf(" %d %ld ", coords[a], (long)fixed[a]);
      print_num(real[a]);
      if (all) printf(" %s", otv_norm_model_name((otv_norm_model)m));
      putchar('\n');
    }
  }
done:
  free(real);
  free(fixed);
  free(axes);
  free(coords);
  free(user);
  cli_close_face(face);
  return rc;
}

static const cli_cmd normalize_cmd = {
    "normalize",
    "otvar normalize FONT [--index N] [--normalize MODEL|all] [TAG=VALUE ...]",
    "Normalizes a user location: one line per axis in font order,\n"
    "  TAG USER F2DOT14 FIXED REAL\n"
    "where USER is the value given (the default for unlisted axes), F2DOT14 the final\n"
    "coordinate (-16384..16384) after clamping, default normalization, avar v1 and avar v2,\n"
    "FIXED the 16.16 value before the conversion to F2Dot14 (an integer, 65536 = 1) and\n"
    "REAL the unrounded value the model rounds last. --normalize all: one line per model\n"
    "and axis, the model's name last. Settings may also be comma-separated\n"
    "(wght=700,wdth=80); a tag given twice takes the later value. FONT - reads the font\n"
    "from standard input.\n",
    "Exit codes: 0 ok, 1 bad font, 2 bad usage (unknown axis, malformed value).\n",
    "FONT",
    1,
    UINT_MAX};

int otv_cmd_normalize(int argc, char **argv)
{
  const char *index_arg = NULL, *model = NULL;
  const cli_opt opts[] = {
      {"index", 0, CLI_OPT_VALUE, &index_arg, "N", "face N of a TrueType Collection (default 0)"},
      {"normalize", 0, CLI_OPT_VALUE, &model, "MODEL",
       "spec (default), harfbuzz, fonttools, harfbuzz6, freetype,\nor all (docs/normalization.md)"},
      {"help", 'h', CLI_OPT_HELP, NULL, NULL, "this help"},
      CLI_OPT_END,
  };
  cli_args args;
  int rc;
  if (cli_parse(&normalize_cmd, opts, argc, argv, &args, &rc))
    rc = normalize(args.pos[0], index_arg, model, args.pos + 1, args.pos_count - 1);
  cli_args_free(&args);
  return rc;
}

/*
 * cmd_normalize.c - `otvar normalize FONT [TAG=VALUE ...]`: one line per axis,
 * `TAG <user value> <normalized F2Dot14 integer>`, after clamping, avar v1 and avar v2.
 * Unlisted axes are at their default. Values outside an axis range are clamped (that is part of
 * normalization); an axis tag the font does not have is a usage error.
 */
#include "cli.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

const char otv_cmd_normalize_summary[] = "user axis values -> normalized F2Dot14 (after avar)";

#define MAX_SETTINGS 256

/* Shortest fixed-point form that reads back as the same double (no exponent). */
static void print_num(double v)
{
  char buf[400];
  if (v > 1e15 || v < -1e15) {
    snprintf(buf, sizeof buf, "%.17g", v);
  } else {
    for (int prec = 0; prec <= 40; prec++) {
      snprintf(buf, sizeof buf, "%.*f", prec, v);
      if (strtod(buf, NULL) == v) break;
    }
  }
  fputs(buf, stdout);
}

/* The report: settings parsed and checked against the axes, one line per axis. */
static int normalize(const char *path, const char *index_arg, const char **settings,
                     unsigned setting_count)
{
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
  otv_location *loc = NULL;
  unsigned axis_count = otv_face_axes(face, 0, NULL, NULL);
  otv_axis *axes = calloc(axis_count ? axis_count : 1, sizeof *axes);
  otv_f2dot14 *coords = calloc(axis_count ? axis_count : 1, sizeof *coords);
  double *user = calloc(axis_count ? axis_count : 1, sizeof *user);
  if (!axes || !coords || !user) {
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
  otv_error e = {0};
  if (otv_location_create(face, &loc, &e)) {
    cli_error(path, &e);
    rc = OTV_EXIT_FONT;
    goto done;
  }
  if (otv_location_set_user(loc, vals, (size_t)n)) {
    cli_error(path, otv_location_last_error(loc));
    rc = OTV_EXIT_FONT;
    goto done;
  }
  otv_location_normalized(loc, coords, axis_count);
  for (unsigned a = 0; a < axis_count; a++) {
    user[a] = axes[a].default_value;
    for (int i = 0; i < n; i++)
      if (vals[i].tag == axes[a].tag) user[a] = vals[i].value; /* last one wins, as the API */
    char tag[5];
    otv_tag_to_string(axes[a].tag, tag);
    printf("%s ", tag);
    print_num(user[a]);
    printf(" %d\n", coords[a]);
  }
done:
  otv_location_destroy(loc);
  free(axes);
  free(coords);
  free(user);
  cli_close_face(face);
  return rc;
}

static const cli_cmd normalize_cmd = {
    "normalize",
    "otvar normalize FONT [--index N] [TAG=VALUE ...]",
    "Normalizes a user location: one line per axis in font order,\n"
    "  TAG USER NORMALIZED\n"
    "where USER is the value given (the default for unlisted axes) and NORMALIZED the\n"
    "F2Dot14 integer (-16384..16384) after clamping, default normalization, avar v1 and\n"
    "avar v2. Settings may also be comma-separated (wght=700,wdth=80); a tag given twice\n"
    "takes the later value. FONT - reads the font from standard input.\n",
    "Exit codes: 0 ok, 1 bad font, 2 bad usage (unknown axis, malformed value).\n",
    "FONT",
    1,
    UINT_MAX};

int otv_cmd_normalize(int argc, char **argv)
{
  const char *index_arg = NULL;
  const cli_opt opts[] = {
      {"index", 0, CLI_OPT_VALUE, &index_arg, "N", "face N of a TrueType Collection (default 0)"},
      {"help", 'h', CLI_OPT_HELP, NULL, NULL, "this help"},
      CLI_OPT_END,
  };
  cli_args args;
  int rc;
  if (cli_parse(&normalize_cmd, opts, argc, argv, &args, &rc))
    rc = normalize(args.pos[0], index_arg, args.pos + 1, args.pos_count - 1);
  cli_args_free(&args);
  return rc;
}

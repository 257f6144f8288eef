/*
 * cli.h - helpers shared by the otvar subcommands: exit codes, the option tables and their one
 * parser (util_opts.c), font opening with one-line errors, --var / --named / --glyphs parsing,
 * and safe output files (temp file + rename).
 */
#ifndef OTV_CLI_H
#define OTV_CLI_H

#include "otvar.h"

#include <stdbool.h>
#include <stdio.h>

/* Every subcommand: int otv_cmd_<name>(argc, argv) and its one-line summary. */
#define OTV_CMD(name)                                                                              \
  int otv_cmd_##name(int argc, char **argv);                                                       \
  extern const char otv_cmd_##name##_summary[];
#include "otv_cmds.h"
#undef OTV_CMD

enum { OTV_EXIT_OK = 0, OTV_EXIT_FONT = 1, OTV_EXIT_USAGE = 2 };

/* Print `otvar: <what>: <error>` on stderr. */
void cli_error(const char *what, const otv_error *e);
/* The error of a failed drawing step that returned st: the location's recorded error when it has
 * one (outlines, metrics), else st alone (the rasterizer's errors are not recorded anywhere). */
otv_error cli_draw_error(const otv_location *loc, otv_status st);
#if defined(__GNUC__)
#  define CLI_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#  define CLI_PRINTF(f, a)
#endif

/* Every usage error (exit 2) is printed by this one function: `otvar: <cmd>: <message>`, and,
 * when see_help is set (errors in the command line's shape: an unknown option, a missing value
 * or argument), ` (see 'otvar <cmd> --help')` after it. */
void cli_usage_error_x(const char *cmd, bool see_help, const char *fmt, ...) CLI_PRINTF(3, 4);
#define cli_usage_error(cmd, ...) cli_usage_error_x(cmd, false, __VA_ARGS__)
#define cli_usage_see(cmd, ...) cli_usage_error_x(cmd, true, __VA_ARGS__)

/* ---- option tables (util_opts.c) ----
 * Each subcommand declares its options in one table, next to the variables they set, and parses
 * argv with cli_parse, which also prints --help from the same table. Options and positional
 * arguments come in any order; `--opt VALUE` and `--opt=VALUE` are the same; `--` ends the
 * options. */
typedef enum cli_opt_kind {
  CLI_OPT_HELP,  /* -h, --help: print the help, exit 0 */
  CLI_OPT_FLAG,  /* no value: *(int *)to = 1 (given again: no change) */
  CLI_OPT_VALUE, /* one value: *(const char **)to; given twice is a usage error */
  CLI_OPT_LIST,  /* a comma-separated list, *(const char **)to: repeats are joined with ',' */
} cli_opt_kind;

typedef struct cli_opt {
  const char *name; /* long name without "--", or NULL */
  char letter;      /* short option letter, or 0 */
  cli_opt_kind kind;
  void *to;         /* what it sets (see cli_opt_kind) */
  const char *arg;  /* the value as --help shows it ("N", "TAG=VALUE,..."); NULL for flags */
  const char *help; /* one line of help; '\n' starts a continuation line */
} cli_opt;
/* The end of a table. */
#define CLI_OPT_END                                                                                \
  {                                                                                                \
    NULL, 0, CLI_OPT_HELP, NULL, NULL, NULL                                                        \
  }

typedef struct cli_cmd {
  const char *name;     /* "instance" */
  const char *usage;    /* synopsis after "usage: " (lines after the first indented by 7) */
  const char *about;    /* what the command does, before the options (or NULL) */
  const char *notes;    /* after the options (or NULL) */
  const char *pos_name; /* what the positional arguments are, for messages ("FONT") */
  unsigned pos_min, pos_max;
} cli_cmd;

/* Positional arguments (pointers into argv) and the joined lists; free with cli_args_free. */
typedef struct cli_args {
  const char **pos;
  unsigned pos_count;
  char **owned;
  unsigned owned_count;
} cli_args;

/* Parse argv[1..argc) against opts (ended by CLI_OPT_END). True: go on. False: return *rc, the
 * help printed (0) or a usage error printed (OTV_EXIT_USAGE; OTV_EXIT_FONT when out of memory).
 * args is valid (and must be freed) either way. */
bool cli_parse(const cli_cmd *cmd, const cli_opt *opts, int argc, char **argv, cli_args *args,
               int *rc);
void cli_args_free(cli_args *args);
/* cli_parse for a command with one positional argument (pos_min = pos_max = 1) and no list
 * option, whose values all point into argv: the args are freed here. Returns that argument, or
 * NULL when the caller returns *rc (as cli_parse). */
const char *cli_parse_one(const cli_cmd *cmd, const cli_opt *opts, int argc, char **argv, int *rc);
/* The help: usage, about, one line per option from the table, notes. */
void cli_print_help(const cli_cmd *cmd, const cli_opt *opts, FILE *f);

/* Parse a number value of option `opt` (finite, whole string). Returns 0, or -1 after a usage
 * error `bad number 'V' for OPT`. */
int cli_parse_number(const char *cmd, const char *opt, const char *v, double *out);

/* ---- standard input and output ----
 * "-" as FONT reads the font from standard input (read whole into memory, once); as an output
 * path (-o -) it writes to standard output, directly (no temp file). */
bool cli_is_std(const char *path);
/* The name of an input in messages: "stdin" for "-", else the path. */
const char *cli_name(const char *path);
/* Refuse a font read from a terminal (input "-") and a binary written to one (output "-" and
 * binary): a usage error. Returns 0 or OTV_EXIT_USAGE with the message printed. */
int cli_check_std(const char *cmd, const char *input, const char *output, bool binary);

/* Open a font file (face index; "-": standard input) or print the error and return NULL. WOFF
 * and WOFF2 files are decoded into memory first (tools/woff.h); close with cli_close_face, which
 * frees those bytes. */
otv_face *cli_open_face(const char *path, unsigned index);
void cli_close_face(otv_face *face);

/* 1 when the file ("-": standard input) starts with a WOFF or WOFF2 signature, 0 when not, -1
 * when it cannot be read (errno set). */
int cli_is_woff(const char *path);
/* The sfnt (or collection) a WOFF/WOFF2 file decodes to, malloc'd; NULL after printing the error
 * as `otvar: PATH: message`. */
uint8_t *cli_woff_load(const char *path, size_t *len);
/* A font file's bytes as an sfnt: read whole, or decoded when WOFF/WOFF2. Malloc'd; NULL after
 * printing the error. */
uint8_t *cli_load_sfnt(const char *path, size_t *len);
/* path with its extension (if any, after the last '/') replaced by ext (".woff2"): malloc'd. */
char *cli_with_ext(const char *path, const char *ext);

/* The path of a data file otvar ships (the label font "Karla-VF.ttf") into buf: the first that
 * exists of $OTVAR_DATA_DIR/NAME, share/otvar/NAME beside the binary (bin/../share/otvar, through
 * /proc/self/exe: an installed or moved prefix) and fonts/NAME of the source tree the CLI was
 * compiled from (a build tree's binary). NULL when none exists. */
const char *cli_data_file(const char *name, char *buf, size_t cap);

/* Parse a --index value (face number 0..65535). Returns 0, or -1 with a usage message. */
int cli_parse_index(const char *cmd, const char *v, unsigned *out);

/* Parse "wght=700,wdth=80" (commas or spaces; tags padded to 4) into vals (cap entries). A tag
 * given twice keeps its first place and takes the later value. Returns the count, or -1 (with a
 * message on stderr) on a malformed list. */
int cli_parse_var(const char *cmd, const char *spec, otv_axis_value *vals, int cap);

/* Check axis tags and ranges of a user location against the font: unknown tag or a value outside
 * [min, max] is a usage error (message on stderr, returns false). */
int cli_check_var(const char *cmd, const otv_face *face, const otv_axis_value *vals, int n);

/* Resolve --named N|NAME to an instance index (by number, or by subfamily name, case-insensitive).
 * Returns -1 with a message on stderr when not found. */
int cli_find_named(const char *cmd, const otv_face *face, const char *arg);

/* --var, --named and --glyphs as the commands that draw glyphs at a location offer them (info,
 * shape and instance word --var their own way). arg: how --help shows --var's value. */
#define CLI_OPT_VAR(ptr, arg)                                                                      \
  {                                                                                                \
    "var", 0, CLI_OPT_LIST, (ptr), arg,                                                            \
        "user-space axis values (unlisted axes: default; a tag\n"                                  \
        "given twice: the later value wins)"                                                       \
  }
#define CLI_OPT_NAMED(ptr)                                                                         \
  {                                                                                                \
    "named", 0, CLI_OPT_VALUE, (ptr), "N|NAME", "a named instance, by index or subfamily name"     \
  }
#define CLI_OPT_GLYPHS(ptr)                                                                        \
  {                                                                                                \
    "glyphs", 0, CLI_OPT_LIST, (ptr), "LIST", "glyph ids and ranges, in order (default: all)"      \
  }
/* The --normalize option of every command that takes a user location. */
#define CLI_OPT_NORMALIZE(ptr)                                                                     \
  {                                                                                                \
    "normalize", 0, CLI_OPT_VALUE, (ptr), "MODEL",                                                 \
        "how user values are normalized: spec (default), harfbuzz,\n"                              \
        "fonttools, harfbuzz6 or freetype (docs/normalization.md)"                                 \
  }
/* Parse a --normalize value (NULL: the spec model). Returns 0, or -1 with a usage message. */
int cli_parse_model(const char *cmd, const char *v, otv_norm_model *out);
/* The face and location options of a command, checked in this order: --index (when given),
 * --normalize (into *m), then --var with --named, which cannot be combined (var and named NULL:
 * the command leaves that check to cli_set_location). Returns 0, or -1 after a usage error. */
int cli_parse_face_opts(const char *cmd, const char *index_arg, const char *model, const char *var,
                        const char *named, unsigned *index, otv_norm_model *m);
/* Set loc's model from a --normalize value (NULL: spec), then apply --var (user coordinates,
 * checked against the axes) or --named (number or name) to loc; neither leaves the default.
 * Prints one error line; returns OTV_EXIT_OK, OTV_EXIT_USAGE (bad list, unknown axis, out of
 * range, unknown instance, both given, unknown model) or OTV_EXIT_FONT. */
int cli_set_location(const char *cmd, const char *font, otv_face *face, otv_location *loc,
                     const char *var, const char *named, const char *model);

/* Create a location of face and set it by cli_set_location. Returns OTV_EXIT_OK, or the exit
 * code with the error printed (`otvar: FONT: ...` when it cannot be created); the caller
 * destroys *loc either way. */
int cli_location_create(const char *cmd, const char *font, otv_face *face, const char *var,
                        const char *named, const char *model, otv_location **loc);

/* Parse "GID,GID-GID,all,..." into a freshly malloc'd array (*out, *n), in order, repeats kept.
 * "all" means every glyph. Returns 0, or -1 with a message on stderr. */
int cli_parse_glyphs(const char *cmd, const char *spec, uint32_t glyph_count, uint32_t **out,
                     size_t *n);

/* v in the shortest fixed-point form that reads back as the same double (no exponent up to
 * 1e15, %.17g beyond), into buf: 400 bytes hold every such form. "-0" stays. */
void cli_exact_num(double v, char *buf, size_t cap);

/* Decode UTF-8 into code points (malloc'd). Returns -1 on invalid UTF-8. */
int cli_utf8_decode(const char *s, uint32_t **out, size_t *n);

/* Safe output: write into a temp file in the target's directory, then rename over the target.
 * cli_out_open refuses to write over `input` (same file), over anything but a regular file (a
 * symlink, device, FIFO, socket or directory: never replaced, never followed) and, unless force,
 * over an existing file: OTV_EXIT_USAGE. A temp file that cannot be created (unwritable
 * directory, no space) is OTV_EXIT_FONT (a failure). Both with a message on stderr; 0 when o is
 * ready. The temp file gets mode 0666 less the umask, is fsync'd before the rename and is removed
 * when SIGINT, SIGTERM, SIGHUP or SIGXFSZ ends the process. Path "-" is standard output, written
 * directly (cli_check_std refuses binaries for a terminal first). */
/* The --help note of every command that writes files (the rules of cli_out_open). */
#define CLI_FILES_NOTE                                                                             \
  "Files: outputs are regular files, written to a temp file beside them (mode 0666 less the\n"     \
  "umask), synced, then renamed over the target; an interrupted run (SIGINT, SIGTERM, SIGHUP,\n"   \
  "SIGXFSZ) removes its temp files. A symlink, device, FIFO, socket or directory as an output\n"   \
  "is refused (never replaced, never followed), as is the input file; an existing file needs\n"    \
  "--force. Inputs are regular files or - (a FIFO or device is refused). A failed write\n"         \
  "(including to standard output) exits 1.\n"

typedef struct cli_out {
  FILE *f;
  char *path;
  const char *cmd;
  int slot; /* the temp file's name: a static slot the signal handler can see (-1: none) */
} cli_out;
int cli_out_open(const char *cmd, const char *path, const char *input, int force, cli_out *o);
/* Flush, fsync and close the temp file (the rename is left to cli_out_close): 0, or
 * OTV_EXIT_FONT with the error printed. */
int cli_out_flush(cli_out *o);
/* Flush (when not yet done) and rename (ok), or remove the temp file (!ok). Returns 0 on success;
 * a failed write is reported once, by cli_output_error. */
int cli_out_close(cli_out *o, int ok);
/* The whole of data written to path that way (cli_out_open, fwrite, cli_out_close): an exit code,
 * with the message printed. */
int cli_write_file(const char *cmd, const char *path, const char *input, int force,
                   const uint8_t *data, size_t len);

/* Print `otvar: CMD: cannot write the output: <strerror(err)>` (once per run: the first failure
 * says it) and return OTV_EXIT_FONT. */
int cli_output_error(const char *cmd, int err);
/* After every command (otvar.c): flush and close standard output. rc, or OTV_EXIT_FONT with the
 * message when a write to standard output failed (a full disk, /dev/full, a closed pipe's EPIPE
 * with SIGPIPE ignored): output that did not arrive is never a success. */
int cli_finish_stdout(const char *cmd, int rc);
/* Inputs are regular files (or "-"): 1, or 0 with `otvar: PATH: ...` printed (a FIFO, device or
 * directory; opened without blocking, so a FIFO does not hang). cli_open_face and cli_load_sfnt
 * check this. */
int cli_input_ok(const char *path);

/* Print the font-wide metrics at the location (otvar info --metrics): one `TAG VALUE` line per
 * MVAR value tag the font has a base value for, or JSON members when json is set. Owned by the
 * metrics work (tools/util_metrics.c). */
void cli_print_font_metrics(otv_location *loc, FILE *out, int json);

#endif

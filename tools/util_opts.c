/*
 * util_opts.c - the one option parser of the otvar subcommands (see cli.h). Each subcommand
 * declares its options in a table (cli_opt: long name, letter, kind, what it sets, help text);
 * cli_parse builds getopt_long's tables from it and cli_print_help prints --help from it, so the
 * help and the parser cannot drift apart.
 *
 * What getopt_long is asked for, and why:
 * - "-" first in the option string: options and positional arguments are returned in the order
 *   given (positionals as code 1), so FONT may come before or after the options, whatever
 *   POSIXLY_CORRECT says; `--` ends the options (a file named -x.ttf can follow it); a lone "-"
 *   is a positional (standard input).
 * - ":" next, and opterr = 0: getopt prints nothing; every message comes from here, through the
 *   one usage-error function (cli_usage_error_x), so all subcommands word them alike.
 * - Long options are matched exactly: glibc also accepts an unambiguous prefix (`--for` for
 *   `--force`), which the hand-written parsers never did and which breaks scripts when a later
 *   option makes the prefix ambiguous. The token getopt matched is compared with the name.
 * A value option (CLI_OPT_VALUE) given twice is a usage error: the old parsers let the second
 * replace the first silently. A list option (CLI_OPT_LIST: --var, --glyphs, --keep) given twice
 * is one list, the values joined with ','.
 */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* getopt_long's val for the long option of table entry i (above every letter). */
#define LONG_BASE 256

static unsigned opt_count(const cli_opt *opts)
{
  unsigned n = 0;
  while (opts[n].name || opts[n].letter) n++;
  return n;
}

/* How messages name an option: "--named", or "-o" for a letter-only one. */
static void opt_name(const cli_opt *o, char *buf, size_t cap)
{
  if (o->name)
    snprintf(buf, cap, "--%s", o->name);
  else
    snprintf(buf, cap, "-%c", o->letter);
}

/* The left column of --help: "-q, --quiet", "-o OUT", "--index N". */
static void opt_spec(const cli_opt *o, char *buf, size_t cap)
{
  const char *arg = o->kind == CLI_OPT_VALUE || o->kind == CLI_OPT_LIST ? o->arg : NULL;
  if (o->letter && o->name)
    snprintf(buf, cap, "-%c, --%s%s%s", o->letter, o->name, arg ? " " : "", arg ? arg : "");
  else if (o->name)
    snprintf(buf, cap, "--%s%s%s", o->name, arg ? " " : "", arg ? arg : "");
  else
    snprintf(buf, cap, "-%c%s%s", o->letter, arg ? " " : "", arg ? arg : "");
}

/* Options wider than this put their help on the next line. */
#define HELP_COLUMN_MAX 24

void cli_print_help(const cli_cmd *c, const cli_opt *opts, FILE *f)
{
  fprintf(f, "usage: %s\n", c->usage);
  if (c->about) fprintf(f, "\n%s", c->about);
  unsigned n = opt_count(opts);
  size_t col = 0;
  char spec[128], name[64];
  for (unsigned i = 0; i < n; i++) {
    opt_spec(&opts[i], spec, sizeof spec);
    size_t w = strlen(spec) + 4; /* two spaces before, at least two after */
    if (w > col && w <= HELP_COLUMN_MAX) col = w;
  }
  fprintf(f, "\noptions:\n");
  for (unsigned i = 0; i < n; i++) {
    const cli_opt *o = &opts[i];
    opt_spec(o, spec, sizeof spec);
    if (strlen(spec) + 4 > col)
      fprintf(f, "  %s\n%*s", spec, (int)col, "");
    else
      fprintf(f, "  %-*s", (int)col - 2, spec);
    for (const char *p = o->help; *p; p++) {
      fputc(*p, f);
      if (*p == '\n') fprintf(f, "%*s", (int)col, "");
    }
    fputc('\n', f);
    if (o->kind == CLI_OPT_LIST) {
      opt_name(o, name, sizeof name);
      fprintf(f, "%*srepeatable: %s A %s B is %s A,B\n", (int)col, "", name, name, name);
    }
  }
  bool lists = false;
  for (unsigned i = 0; i < n; i++) lists |= opts[i].kind == CLI_OPT_LIST;
  fprintf(f, "\n--opt VALUE and --opt=VALUE are the same; -- ends the options. %s\n",
          lists ? "A list option may\nbe repeated (the lists are joined); other options with a "
                  "value are given once."
                : "An option with a\nvalue is given once.");
  if (c->notes) fprintf(f, "%s", c->notes);
}

/* 1 when the command-line token tok ("--name" or "--name=value") spells the option's full
 * name, 0 when it is an abbreviation getopt_long accepted. */
static int spelled_out(const char *tok, const char *name)
{
  if (strncmp(tok, "--", 2)) return 0;
  size_t len = strcspn(tok + 2, "=");
  return len == strlen(name) && !strncmp(tok + 2, name, len);
}

/* Print the usage error for getopt's ':' or '?' (or an abbreviation): tok is the token it was
 * reading, code its optopt. */
static void report(const cli_cmd *c, const cli_opt *opts, int ch, int code, const char *tok)
{
  char name[64];
  if (code >= LONG_BASE && !spelled_out(tok, opts[code - LONG_BASE].name)) code = 0;
  if (code == 0) { /* an unknown (or abbreviated) long option: name it without its value */
    cli_usage_see(c->name, "unknown option '%.*s'", (int)strcspn(tok, "="), tok);
    return;
  }
  if (code < LONG_BASE) {
    unsigned i = 0;
    while ((opts[i].name || opts[i].letter) && opts[i].letter != code) i++;
    if (ch == '?' || !opts[i].letter) { /* a letter no option has */
      if (tok[0] == '-' && tok[1] == code && !tok[2])
        cli_usage_see(c->name, "unknown option '-%c'", code);
      else
        cli_usage_see(c->name, "unknown option '-%c' (in '%s')", code, tok);
      return;
    }
    snprintf(name, sizeof name, "-%c", code);
  } else {
    opt_name(&opts[code - LONG_BASE], name, sizeof name);
  }
  if (ch == ':')
    cli_usage_see(c->name, "option '%s' needs a value", name);
  else
    cli_usage_see(c->name, "option '%s' takes no value", name);
}

/* Set what option o sets from its value v (NULL for flags). seen counts its earlier uses. */
static int apply(const cli_cmd *c, const cli_opt *o, const char *v, unsigned seen, char **owned)
{
  char name[64];
  switch (o->kind) {
  case CLI_OPT_HELP: break;
  case CLI_OPT_FLAG: *(int *)o->to = 1; break;
  case CLI_OPT_VALUE:
    if (seen) {
      opt_name(o, name, sizeof name);
      cli_usage_see(c->name, "'%s' given twice", name);
      return OTV_EXIT_USAGE;
    }
    *(const char **)o->to = v;
    break;
  case CLI_OPT_LIST: {
    const char **to = o->to;
    if (!seen) {
      *to = v;
      break;
    }
    size_t a = strlen(*to), b = strlen(v);
    char *s = realloc(*owned, a + b + 2);
    if (!s) {
      fprintf(stderr, "otvar: %s: out of memory\n", c->name);
      return OTV_EXIT_FONT;
    }
    if (!*owned) memcpy(s, *to, a); /* the first value was argv's */
    s[a] = ',';
    memcpy(s + a + 1, v, b + 1);
    *owned = s;
    *to = s;
    break;
  }
  }
  return OTV_EXIT_OK;
}

bool cli_parse(const cli_cmd *c, const cli_opt *opts, int argc, char **argv, cli_args *args,
               int *rc)
{
  memset(args, 0, sizeof *args);
  bool go = false;
  unsigned n = opt_count(opts);
  struct option *lo = calloc(n + 1, sizeof *lo);
  char *shorts = malloc(2 * n + 3);
  unsigned *seen = calloc(n + 1, sizeof *seen);
  args->pos = malloc((size_t)(argc > 0 ? argc : 1) * sizeof *args->pos);
  args->owned = calloc(n + 1, sizeof *args->owned);
  *rc = OTV_EXIT_FONT;
  if (!lo || !shorts || !seen || !args->pos || !args->owned) {
    fprintf(stderr, "otvar: %s: out of memory\n", c->name);
    goto out;
  }
  args->owned_count = n;
  size_t k = 0, nl = 0;
  shorts[k++] = '-'; /* positionals in order, as code 1 */
  shorts[k++] = ':'; /* a missing value is ':', not '?' */
  for (unsigned i = 0; i < n; i++) {
    int has_arg = opts[i].kind == CLI_OPT_VALUE || opts[i].kind == CLI_OPT_LIST;
    if (opts[i].letter) {
      shorts[k++] = opts[i].letter;
      if (has_arg) shorts[k++] = ':';
    }
    if (opts[i].name) {
      lo[nl].name = opts[i].name;
      lo[nl].has_arg = has_arg ? required_argument : no_argument;
      lo[nl].val = LONG_BASE + (int)i;
      nl++;
    }
  }
  shorts[k] = 0;
  *rc = OTV_EXIT_USAGE;
  opterr = 0;
  optind = 0; /* 0, not 1: glibc starts afresh (it keeps state between calls otherwise) */
  for (;;) {
    /* the token getopt is about to read: a long option is always a token of its own, a letter
     * may be inside a cluster ("-qj2"), whose token getopt leaves only after its last letter */
    int at = optind ? optind : 1;
    int ch = getopt_long(argc, argv, shorts, lo, NULL);
    if (ch == -1) break;
    if (ch == 1) {
      args->pos[args->pos_count++] = optarg;
      continue;
    }
    const char *tok = at < argc ? argv[at] : "";
    if (ch == ':' || ch == '?') {
      report(c, opts, ch, optopt, tok);
      goto out;
    }
    unsigned i = 0;
    if (ch >= LONG_BASE) {
      i = (unsigned)(ch - LONG_BASE);
      if (!spelled_out(tok, opts[i].name)) {
        report(c, opts, '?', 0, tok);
        goto out;
      }
    } else {
      while (i < n && opts[i].letter != ch) i++;
      if (i == n) goto out; /* never: getopt returns only the letters it was given */
    }
    if (opts[i].kind == CLI_OPT_HELP) {
      cli_print_help(c, opts, stdout);
      *rc = OTV_EXIT_OK;
      goto out;
    }
    int r = apply(c, &opts[i], optarg, seen[i]++, &args->owned[i]);
    if (r) {
      *rc = r;
      goto out;
    }
  }
  while (optind < argc) args->pos[args->pos_count++] = argv[optind++]; /* after "--" */
  if (args->pos_count < c->pos_min) {
    cli_usage_see(c->name, "missing %s", c->pos_name);
    goto out;
  }
  if (args->pos_count > c->pos_max) {
    cli_usage_see(c->name, "unexpected argument '%s'", args->pos[c->pos_max]);
    goto out;
  }
  *rc = OTV_EXIT_OK;
  go = true;
out:
  free(lo);
  free(shorts);
  free(seen);
  return go;
}

void cli_args_free(cli_args *args)
{
  if (args->owned)
    for (unsigned i = 0; i < args->owned_count; i++) free(args->owned[i]);
  free(args->owned);
  free(args->pos);
  memset(args, 0, sizeof *args);
}

const char *cli_parse_one(const cli_cmd *c, const cli_opt *opts, int argc, char **argv, int *rc)
{
  cli_args args;
  bool go = cli_parse(c, opts, argc, argv, &args, rc);
  const char *arg = go ? args.pos[0] : NULL;
  cli_args_free(&args); /* arg and every value point into argv */
  return arg;
}

int cli_parse_number(const char *cmd, const char *opt, const char *v, double *out)
{
  char *end;
  errno = 0;
  double d = strtod(v, &end);
  if (end == v || *end || errno || isnan(d)) { /* infinities: the caller's range check says why */
    cli_usage_error(cmd, "bad number '%s' for %s", v, opt);
    return -1;
  }
  *out = d;
  return 0;
}

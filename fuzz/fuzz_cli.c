/*
 * fuzz_cli.c - the command line as an attack surface: each input picks a subcommand and an
 * argument vector from a dictionary of the options and values users type (and some they
 * should not: empty values, repeated options, huge numbers, NaN, unknown tags, "--"), and the rest
 * of the input is the font file those arguments name. The subcommand runs in process, as
 * `otvar` would run it, writing its outputs into a private temporary directory and its standard
 * output to /dev/null. Whatever the arguments and the bytes, it must return an exit code
 * (0, 1 or 2): no crash, leak, hang or undefined behaviour, and no file left outside the
 * directory.
 *
 * Input: byte 0 the subcommand, byte 1 the number of dictionary words (0..11), then one byte per
 * word; the font file is everything after byte 15 (fonts from the seed corpus are read as
 * their own first bytes being the choices).
 */
#include "cli.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define OTV_CMD(name) {#name, otv_cmd_##name},
static const struct {
  const char *name;
  int (*fn)(int, char **);
} cmds[] = {
#include "otv_cmds.h"
};
#undef OTV_CMD

/* Words an argument vector is made of. "IN" is the font file, "OUT" a file in the directory. */
static const char *const words[] = {
    "IN",
    "IN",
    "-o",
    "OUT.ttf",
    "-o",
    "OUT.woff2",
    "-o",
    "OUT.svg",
    "--force",
    "--var",
    "wght=350",
    "wght=1e9",
    "wght=nan",
    "wdth=80,wght=700",
    "ital=1",
    "XXXX=3",
    "--var=",
    "--named",
    "0",
    "1",
    "Bold",
    "--normalize",
    "fonttools",
    "freetype",
    "harfbuzz",
    "all",
    "--glyphs",
    "all",
    "0-5",
    "3,1,4",
    "0-4294967295",
    "--text",
    "AVATAR",
    "\xd8\xb3\xd9\x84\xd8\xa7\xd9\x85",
    "--format",
    "svg",
    "--round",
    "--keep",
    "wght",
    "wdth,wght",
    "--index",
    "1",
    "99999",
    "--json",
    "--metrics",
    "--vertical",
    "--update-names",
    "--no-overlap-flags",
    "--woff",
    "--woff2",
    "--size",
    "9",
    "0.5",
    "--slant",
    "0.3",
    "--fg",
    "00ff00",
    "--bg",
    "none",
    "--no-kern",
    "--",
    "-q",
    "--help",
    "wght=300",
    "",
    "-x",
};
#define NWORDS (sizeof words / sizeof words[0])
#define HEADER 16

static char dir[64];
static char in_path[96];

/* At exit the directory is empty (every run cleans up after itself): remove it. */
static void remove_dir(void) { rmdir(dir); }

static void setup(void)
{
  if (dir[0]) return;
  strcpy(dir, "/tmp/fuzz_cli.XXXXXX");
  if (!mkdtemp(dir)) abort();
  atexit(remove_dir);
  snprintf(in_path, sizeof in_path, "%s/in.font", dir);
  /* the subcommands print to standard output: let it go nowhere (standard error stays: the
   * fuzzer reports there) */
  int fd = open("/dev/null", O_WRONLY);
  if (fd >= 0) {
    dup2(fd, 1);
    close(fd);
  }
}

/* Remove what a run wrote into the directory (the outputs), keep the directory. */
static void clean(void)
{
  static const char *const outs[] = {"OUT.ttf", "OUT.woff2", "OUT.svg",  "in.font", "in.ttf",
                                     "in.otf",  "in.ttc",    "in.woff2", "in.woff"};
  char p[160];
  for (size_t i = 0; i < sizeof outs / sizeof outs[0]; i++) {
    snprintf(p, sizeof p, "%s/%s", dir, outs[i]);
    unlink(p);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size < HEADER) return 0;
  setup();
  FILE *f = fopen(in_path, "wb");
  if (!f) return 0;
  fwrite(data + HEADER, 1, size - HEADER, f);
  fclose(f);
  unsigned cmd = data[0] % (sizeof cmds / sizeof cmds[0]);
  /* specimen draws the whole design space: minutes of a fuzzer's time for nothing new */
  if (!strcmp(cmds[cmd].name, "specimen")) cmd = (cmd + 1) % (sizeof cmds / sizeof cmds[0]);
  char store[12][160];
  char *argv[16];
  int argc = 0;
  argv[argc++] = (char *)cmds[cmd].name;
  unsigned n = data[1] % 12;
  for (unsigned i = 0; i < n && 2 + i < HEADER; i++) {
    const char *w = words[data[2 + i] % NWORDS];
    if (!strcmp(w, "IN"))
      snprintf(store[i], sizeof store[i], "%s", in_path);
    else if (!strncmp(w, "OUT", 3))
      snprintf(store[i], sizeof store[i], "%s/%s", dir, w);
    else
      snprintf(store[i], sizeof store[i], "%s", w);
    argv[argc++] = store[i];
  }
  /* render writes render.png into the working directory unless told otherwise: not there
   * (decompress and compress write beside the input, in the directory) */
  bool has_o = false;
  for (int i = 1; i < argc; i++) has_o |= !strcmp(argv[i], "-o");
  char out_svg[160];
  if (!strcmp(cmds[cmd].name, "render") && !has_o) {
    snprintf(out_svg, sizeof out_svg, "%s/OUT.svg", dir);
    argv[argc++] = (char *)"-o";
    argv[argc++] = out_svg;
  }
  argv[argc] = NULL;
  int rc = cmds[cmd].fn(argc, argv);
  if (rc < 0 || rc > 2) abort(); /* the exit codes otvar documents */
  fflush(stdout);
  clearerr(stdout);
  clean();
  return 0;
}

/*
 * replay.c - runs a fuzz target's LLVMFuzzerTestOneInput over files and directories without
 * libFuzzer, so the normal test suite (gcc, sanitizers) replays every regression and seed.
 * Usage: replay_<target> PATH... (missing paths are skipped). Exit 0 when all inputs ran.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
  if (!buf) {
    fclose(f);
    return 0;
  }
  size_t got = fread(buf, 1, n > 0 ? (size_t)n : 0, f);
  fclose(f);
  LLVMFuzzerTestOneInput(buf, got);
  free(buf);
  return 1;
}

static int run_path(const char *path)
{
  struct stat st;
  if (stat(path, &st) != 0) return 0;
  if (!S_ISDIR(st.st_mode)) return run_file(path);
  DIR *d = opendir(path);
  if (!d) return 0;
  int count = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char sub[4096];
    snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
    count += run_path(sub);
  }
  closedir(d);
  return count;
}

int main(int argc, char **argv)
{
  int count = 0;
  for (int i = 1; i < argc; i++) count += run_path(argv[i]);
  printf("replayed %d inputs\n", count);
  return 0;
}

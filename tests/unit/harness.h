/*
 * harness.h - the unit-test harness: CHECK / CHECK_EQ print file:line and both values and count
 * failures; main() returns non-zero when any check failed. Include once per test executable.
 * Also: fixture helpers (read a test font, write a fixture), the counting allocators (one that
 * fails the Nth call, one that keeps the peak) and one run of the allocation-failure loop.
 */
#ifndef OTV_HARNESS_H
#define OTV_HARNESS_H

#include "face.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int h_checks, h_failures;

#define CHECK(cond)                                                                                \
  do {                                                                                             \
    h_checks++;                                                                                    \
    if (!(cond)) {                                                                                 \
      h_failures++;                                                                                \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);                     \
    }                                                                                              \
  } while (0)

#define CHECK_EQ(a, b)                                                                             \
  do {                                                                                             \
    long long h_a = (long long)(a), h_b = (long long)(b);                                          \
    h_checks++;                                                                                    \
    if (h_a != h_b) {                                                                              \
      h_failures++;                                                                                \
      fprintf(stderr, "%s:%d: CHECK_EQ failed: %s = %lld, %s = %lld\n", __FILE__, __LINE__, #a,    \
              h_a, #b, h_b);                                                                       \
    }                                                                                              \
  } while (0)

#define CHECK_NEAR(a, b, eps)                                                                      \
  do {                                                                                             \
    double h_a = (double)(a), h_b = (double)(b);                                                   \
    h_checks++;                                                                                    \
    if (!(h_a - h_b <= (eps) && h_b - h_a <= (eps))) {                                             \
      h_failures++;                                                                                \
      fprintf(stderr, "%s:%d: CHECK_NEAR failed: %s = %.9g, %s = %.9g\n", __FILE__, __LINE__, #a,  \
              h_a, #b, h_b);                                                                       \
    }                                                                                              \
  } while (0)

#define CHECK_STR(a, b)                                                                            \
  do {                                                                                             \
    const char *h_a = (a), *h_b = (b);                                                             \
    h_checks++;                                                                                    \
    if (strcmp(h_a, h_b)) {                                                                        \
      h_failures++;                                                                                \
      fprintf(stderr, "%s:%d: CHECK_STR failed: %s = \"%s\", %s = \"%s\"\n", __FILE__, __LINE__,   \
              #a, h_a, #b, h_b);                                                                   \
    }                                                                                              \
  } while (0)

/* Call at the end of main(). A test that checked nothing fails. */
static inline int h_done(const char *name)
{
  printf("%s: %d checks, %d failed\n", name, h_checks, h_failures);
  if (h_checks == 0) {
    fprintf(stderr, "%s: no checks ran\n", name);
    return 1;
  }
  return h_failures ? 1 : 0;
}

/* Read a whole file (malloc'd); exits the test on failure. */
static inline uint8_t *h_read_file(const char *path, size_t *len)
{
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "cannot open %s\n", path);
    exit(1);
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
  if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
    fprintf(stderr, "cannot read %s\n", path);
    exit(1);
  }
  fclose(f);
  *len = (size_t)n;
  return buf;
}

/* Path of a test font: $OTV_FONTS/name (tests/fonts). Static buffer. */
static inline const char *h_font(const char *name)
{
  static char buf[4096];
  const char *dir = getenv("OTV_FONTS");
  snprintf(buf, sizeof buf, "%s/%s", dir ? dir : "tests/fonts", name);
  return buf;
}

/* Deterministic pseudo-random numbers for tests (the state must not be 0): xorshift64 (shifts
 * 13, 7, 17) and xorshift64* (12, 25, 27, then a multiply: better high bits). */
static inline uint32_t h_xorshift64(uint64_t *s)
{
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return (uint32_t)*s;
}

static inline uint32_t h_xorshift64star(uint64_t *s)
{
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return (uint32_t)((*s * 2685821657736338717ull) >> 32);
}

/* Stress knobs of the randomized oracle tests (CI uses neither): OTV_ORACLE_SEED=N mixes N into
 * a test's fixed seed, so other random locations are drawn; OTV_ORACLE_LOCATIONS=N sets the
 * number of random locations per font. A failure message names the location, and the seed
 * reproduces it. */
static inline unsigned long long h_seed(unsigned long long fixed)
{
  const char *s = getenv("OTV_ORACLE_SEED");
  if (!s || !*s) return fixed;
  unsigned long long v = fixed ^ (strtoull(s, NULL, 0) * 0x9E3779B97F4A7C15ULL);
  return (v & 0xffffffffULL) ? v : fixed; /* xorshift states must not be 0 (32-bit ones too) */
}

static inline unsigned h_locations(unsigned fixed)
{
  const char *s = getenv("OTV_ORACLE_LOCATIONS");
  if (!s || !*s) return fixed;
  unsigned long v = strtoul(s, NULL, 0);
  return v > 0 && v < 1000000 ? (unsigned)v : fixed;
}

/* A counting allocator that fails the Nth allocation (fail_at = 0: never) and tracks live
 * blocks and bytes. */
typedef struct h_alloc {
  long calls, fail_at, live_blocks;
  long long live_bytes;
} h_alloc;

/* The counting allocators' realloc (new_len 0: free), following the live blocks and bytes. */
static inline void *h_track(long *live_blocks, long long *live_bytes, void *ptr, size_t old_len,
                            size_t new_len)
{
  if (new_len == 0) {
    if (ptr) {
      (*live_blocks)--;
      *live_bytes -= (long long)old_len;
    }
    free(ptr);
    return NULL;
  }
  void *p = realloc(ptr, new_len);
  if (p) {
    if (!ptr) (*live_blocks)++;
    *live_bytes += (long long)new_len - (long long)(ptr ? old_len : 0);
  }
  return p;
}

static inline void *h_realloc(void *ud, void *ptr, size_t old_len, size_t new_len)
{
  h_alloc *a = ud;
  if (new_len) {
    a->calls++;
    if (a->fail_at && a->calls == a->fail_at) return NULL;
  }
  return h_track(&a->live_blocks, &a->live_bytes, ptr, old_len, new_len);
}

/* One run of the allocation-failure loop: the font opened, and a location created on it, with an
 * allocator that fails its fail_at-th call, then use(loc, ctx) when both went through (use
 * checks the statuses of its own calls: OTV_E_OK or OTV_E_NOMEM). A failed open or location
 * create must be OTV_E_NOMEM, and the run leaves no live block. Returns what use returned (true:
 * the run went through, the loop can stop), false when use did not run. */
static inline bool h_nomem_run(const uint8_t *font, size_t len, long fail_at,
                               bool (*use)(otv_location *loc, void *ctx), void *ctx)
{
  h_alloc a = {0, fail_at, 0, 0};
  otv_options opt = {h_realloc, &a, 0};
  otv_face *f = NULL;
  otv_location *loc = NULL;
  bool done = false;
  otv_status s = otv_face_open_memory(font, len, 0, &opt, &f, NULL);
  if (!s) s = otv_location_create(f, &loc, NULL);
  if (s)
    CHECK_EQ(s, OTV_E_NOMEM);
  else
    done = use(loc, ctx);
  otv_location_destroy(loc);
  otv_face_close(f);
  CHECK_EQ(a.live_blocks, 0);
  return done;
}

/* Writes len bytes to path (the fixtures dumped for the fuzz corpora); false when it could not. */
static inline bool h_write_file(const char *path, const void *data, size_t len)
{
  FILE *f = fopen(path, "wb");
  if (!f) return false;
  bool ok = fwrite(data, 1, len, f) == len;
  return fclose(f) == 0 && ok;
}

/* A counting allocator that never fails and keeps the peak of the live bytes (the resource
 * limit tests: memory bounded by the input). */
typedef struct h_peak {
  long calls, live_blocks;
  long long live_bytes, peak;
} h_peak;

static inline void *h_peak_realloc(void *ud, void *ptr, size_t old_len, size_t new_len)
{
  h_peak *a = ud;
  if (new_len) a->calls++;
  void *p = h_track(&a->live_blocks, &a->live_bytes, ptr, old_len, new_len);
  if (a->live_bytes > a->peak) a->peak = a->live_bytes;
  return p;
}

#endif

/*
 * bench_util.h - what the benchmarks share: a clock read in seconds, a font file read whole,
 * and the xorshift64* step behind their fixed pseudo-random locations (each benchmark keeps its
 * own seed and its own way of turning the bits into a coordinate, so its locations stay the
 * ones its README's numbers were measured at). Included by the bench_*.c (one program each).
 */
#ifndef OTV_BENCH_UTIL_H
#define OTV_BENCH_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* The time of `clock` in seconds (each benchmark says which clock it reads, and why). */
static inline double bench_seconds(clockid_t clock)
{
  struct timespec ts;
  clock_gettime(clock, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The whole file in a malloc'd buffer of *len bytes; NULL when it cannot be opened or read. */
static inline uint8_t *bench_read_file(const char *path, size_t *len)
{
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  if (n < 0) { /* not seekable (a pipe): no size to read */
    fclose(f);
    return NULL;
  }
  uint8_t *b = malloc(n > 0 ? (size_t)n : 1); /* an empty file: a buffer all the same */
  if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
    free(b);
    b = NULL;
  }
  fclose(f);
  *len = (size_t)n;
  return b;
}

/* One step of xorshift64* (Vigna): advances *state and returns the scrambled 64 bits. */
static inline uint64_t bench_xorshift(uint64_t *state)
{
  *state ^= *state >> 12;
  *state ^= *state << 25;
  *state ^= *state >> 27;
  return *state * 2685821657736338717ull;
}

#endif /* OTV_BENCH_UTIL_H */

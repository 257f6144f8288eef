/*
 * fuzz_alloc.h - the failing allocator of the fuzz targets: an otv_options realloc_fn that
 * fails every allocation from the fail_at-th on (0: never), so inputs reach the out-of-memory
 * paths too. Included by each fuzz_*.c (one translation unit each).
 */
#ifndef OTV_FUZZ_ALLOC_H
#define OTV_FUZZ_ALLOC_H

#include <stdlib.h>

typedef struct fz_alloc {
  unsigned calls, fail_at;
} fz_alloc;

static void *fz_realloc(void *ud, void *p, size_t old_len, size_t new_len)
{
  fz_alloc *a = ud;
  (void)old_len;
  if (!new_len) {
    free(p);
    return NULL;
  }
  if (a->fail_at && ++a->calls >= a->fail_at) return NULL;
  return realloc(p, new_len);
}

#endif /* OTV_FUZZ_ALLOC_H */

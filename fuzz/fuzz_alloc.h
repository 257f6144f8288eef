/*
 * fuzz_alloc.h - the failing allocator of the fuzz targets: an otv_options realloc_fn that
 * fails every allocation from the fail_at-th on (0: never), so inputs reach the out-of-memory
 * paths too, and the usual way of switching it on from the input (fz_options, fz_open).
 * Included by the fuzz_*.c that use it (one translation unit each), for which it also declares
 * the libFuzzer entry point.
 */
#ifndef OTV_FUZZ_ALLOC_H
#define OTV_FUZZ_ALLOC_H

#include "otvar.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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

/* Options allocating through a, which the input's tail switches on: when the very last byte is
 * odd, allocations fail from the one numbered by the byte before it (times spacing: the targets
 * that allocate a lot spread the counts), else never. a must outlive what the options open. */
static inline otv_options fz_options(fz_alloc *a, const uint8_t *data, size_t size,
                                     unsigned spacing)
{
  a->calls = 0;
  a->fail_at = size >= 2 && (data[size - 1] & 1) ? 1u + data[size - 2] * spacing : 0;
  return (otv_options){fz_realloc, a, 0};
}

/* The input opened as face 0 with fz_options(a, ..., spacing), its info, and a location on it
 * in *loc; NULL (nothing left open) when the face or the location cannot be made. */
static inline otv_face *fz_open(const uint8_t *data, size_t size, unsigned spacing, fz_alloc *a,
                                otv_face_info *info, otv_location **loc)
{
  otv_options opt = fz_options(a, data, size, spacing);
  otv_face *f = NULL;
  if (otv_face_open_memory(data, size, 0, &opt, &f, NULL)) return NULL;
  *loc = NULL;
  if (otv_location_create(f, loc, NULL)) {
    otv_face_close(f);
    return NULL;
  }
  otv_face_get_info(f, info);
  return f;
}

#endif /* OTV_FUZZ_ALLOC_H */

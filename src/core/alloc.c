/*
 * core/alloc.c - the allocator behind every allocation of the library: the caller's realloc-style
 * function or libc. All sizes are overflow-checked here.
 */
#include "core/alloc.h"

#include <string.h>

#include <stdlib.h>

static void *libc_realloc(void *ud, void *ptr, size_t old_len, size_t new_len)
{
  (void)ud;
  (void)old_len;
  if (new_len == 0) {
    free(ptr);
    return NULL;
  }
  return realloc(ptr, new_len);
}

void otv_alloc_init(otv_alloc *al, const otv_options *opt)
{
  al->fn = opt && opt->realloc_fn ? opt->realloc_fn : libc_realloc;
  al->ud = opt && opt->realloc_fn ? opt->ud : NULL;
}

void *otv_mem_alloc(const otv_alloc *al, size_t n)
{
  if (n == 0) n = 1;
  return al->fn(al->ud, NULL, 0, n);
}

void *otv_mem_calloc(const otv_alloc *al, size_t count, size_t elem)
{
  if (elem && count > SIZE_MAX / elem) return NULL;
  size_t n = count * elem;
  void *p = otv_mem_alloc(al, n);
  if (p) memset(p, 0, n ? n : 1);
  return p;
}

void *otv_mem_realloc(const otv_alloc *al, void *p, size_t old_n, size_t new_n)
{
  if (new_n == 0) new_n = 1;
  return al->fn(al->ud, p, p ? old_n : 0, new_n);
}

void otv_mem_free(const otv_alloc *al, void *p, size_t n)
{
  if (p) al->fn(al->ud, p, n ? n : 1, 0);
}

otv_status otv_mem_reserve(const otv_alloc *al, void **buf, size_t *cap, size_t need, size_t elem)
{
  if (need <= *cap) return OTV_E_OK;
  size_t n = *cap ? *cap : 16;
  while (n < need) {
    if (n > SIZE_MAX / 2) return OTV_E_NOMEM;
    n *= 2;
  }
  if (elem && n > SIZE_MAX / elem) return OTV_E_NOMEM;
  void *p = otv_mem_realloc(al, *buf, *cap * elem, n * elem);
  if (!p) return OTV_E_NOMEM;
  *buf = p;
  *cap = n;
  return OTV_E_OK;
}

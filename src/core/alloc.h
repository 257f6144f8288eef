/*
 * core/alloc.h - the allocator behind every allocation of the library (the caller's
 * realloc-style otv_options.realloc_fn, or libc). Implemented in core/alloc.c.
 */
#ifndef OTV_CORE_ALLOC_H
#define OTV_CORE_ALLOC_H

#include "otvar.h"

typedef struct otv_alloc {
  otv_realloc_fn fn;
  void *ud;
} otv_alloc;

void otv_alloc_init(otv_alloc *al, const otv_options *opt);
void *otv_mem_alloc(const otv_alloc *al, size_t n);                   /* uninitialised */
void *otv_mem_calloc(const otv_alloc *al, size_t count, size_t elem); /* zeroed, checked */
void *otv_mem_realloc(const otv_alloc *al, void *p, size_t old_n, size_t new_n);
void otv_mem_free(const otv_alloc *al, void *p, size_t n);

/* Grow a buffer of elements to at least `need` elements (capacity doubles). Keeps contents. */
otv_status otv_mem_reserve(const otv_alloc *al, void **buf, size_t *cap, size_t need, size_t elem);

/* otv_mem_reserve with the common "already big enough" case inline (hot paths). */
#define OTV_RESERVE(al, buf, cap, need, elem)                                                      \
  ((need) <= *(cap) ? OTV_E_OK : otv_mem_reserve((al), (void **)(buf), (cap), (need), (elem)))

#endif /* OTV_CORE_ALLOC_H */

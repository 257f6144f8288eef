/*
 * internal.h - private declarations shared by the library's files: the face and location
 * objects, the allocator, the failure helper, and the per-table module headers.
 * Nothing here is exported (the library builds with -fvisibility=hidden).
 */
#ifndef OTV_INTERNAL_H
#define OTV_INTERNAL_H

#include "otvar.h"
#include "reader.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

/* ---- SIMD ---- */
/* The SSE2 paths (glyf, gvar, raster) where the compiler targets SSE2, unless OTV_NO_SIMD asks
 * for the portable code everywhere: how the tests run, on x86, the code other CPUs get. */
#if defined(__SSE2__) && !defined(OTV_NO_SIMD)
#  define OTV_SSE2 1
#else
#  define OTV_SSE2 0
#endif

/* ---- limits (documented in README "Resource limits") ---- */
#define OTV_MAX_AXES 64            /* fvar axes we accept; more is OTV_E_LIMIT */
#define OTV_MAX_COMPONENT_DEPTH 16 /* nested composite glyphs */
#define OTV_MAX_POINTS 65535       /* points of one glyph after flattening composites */
#define OTV_MAX_SUBR_DEPTH 10      /* CFF/CFF2 subroutine nesting (spec limit) */
#define OTV_MAX_STACK_CFF2 513     /* CFF2 operand stack (spec) */
#define OTV_MAX_STACK_CFF 48       /* CFF operand stack (spec) */

/* ---- internal invariants (never on font data) ---- */
#ifdef NDEBUG
#  define OTV_NEVER(x) (x)
#else
#  include <assert.h>
#  define OTV_NEVER(x) (assert(!(x)), (x))
#endif

/* ---- allocator ---- */
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

/* ---- errors ---- */
/* Record the first error into err (if non-NULL and still OK) and return code. */
otv_status otv_fail(otv_error *err, otv_status code, uint32_t table, uint64_t offset,
                    const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
#define OTV_FAIL(err, CODE, table, off, ...)                                                       \
  otv_fail((err), OTV_E_##CODE, (table), (off), __VA_ARGS__)

/* Fail for a checked reader that ran off the end (TRUNCATED at r->bad_at). */
#define OTV_FAIL_RD(err, table, base, rd, what)                                                    \
  otv_fail((err), OTV_E_TRUNCATED, (table), (uint64_t)(base) + (rd)->bad_at, "%s", (what))

#define OTV_T(a, b, c, d) OTV_TAG(a, b, c, d)
#define OTV_T_HEAD OTV_TAG('h', 'e', 'a', 'd')
#define OTV_T_MAXP OTV_TAG('m', 'a', 'x', 'p')
#define OTV_T_FVAR OTV_TAG('f', 'v', 'a', 'r')
#define OTV_T_AVAR OTV_TAG('a', 'v', 'a', 'r')
#define OTV_T_STAT OTV_TAG('S', 'T', 'A', 'T')
#define OTV_T_NAME OTV_TAG('n', 'a', 'm', 'e')
#define OTV_T_CMAP OTV_TAG('c', 'm', 'a', 'p')
#define OTV_T_GLYF OTV_TAG('g', 'l', 'y', 'f')
#define OTV_T_LOCA OTV_TAG('l', 'o', 'c', 'a')
#define OTV_T_GVAR OTV_TAG('g', 'v', 'a', 'r')
#define OTV_T_CFF OTV_TAG('C', 'F', 'F', ' ')
#define OTV_T_CFF2 OTV_TAG('C', 'F', 'F', '2')
#define OTV_T_HMTX OTV_TAG('h', 'm', 't', 'x')
#define OTV_T_HHEA OTV_TAG('h', 'h', 'e', 'a')
#define OTV_T_VMTX OTV_TAG('v', 'm', 't', 'x')
#define OTV_T_VHEA OTV_TAG('v', 'h', 'e', 'a')
#define OTV_T_HVAR OTV_TAG('H', 'V', 'A', 'R')
#define OTV_T_VVAR OTV_TAG('V', 'V', 'A', 'R')
#define OTV_T_MVAR OTV_TAG('M', 'V', 'A', 'R')
#define OTV_T_VORG OTV_TAG('V', 'O', 'R', 'G')
#define OTV_T_OS2 OTV_TAG('O', 'S', '/', '2')
#define OTV_T_POST OTV_TAG('p', 'o', 's', 't')
#define OTV_T_CVAR OTV_TAG('c', 'v', 'a', 'r')

/* The module headers: one per table or concern. Each declares its parsed form (held by the face)
 * and, where it has one, its per-location cache (held by the location). */
#include "ivs.h"
#include "fvar.h"
#include "stat.h"
#include "name.h"
#include "cmap.h"
#include "glyf.h"
#include "cff.h"
#include "metrics.h"

/* ---- the face: immutable after open ---- */
struct otv_face {
  otv_alloc al;
  otv_span file; /* the whole file (borrowed or mapped) */
  void *map;     /* mmap base when the face owns a mapping */
  size_t map_len;
  otv_table_record *tables; /* sorted by tag */
  uint16_t table_count;
  otv_flavour flavour;
  uint16_t units_per_em;
  int16_t index_to_loc_format;
  uint32_t glyph_count;
  otv_fvar fvar; /* fvar + avar (fvar.h) */
  otv_stat stat;
  otv_name name;
  otv_cmap cmap;
  otv_glyf glyf;   /* glyf + loca + gvar (glyf.h) */
  otv_cff cff;     /* 'CFF ' or CFF2 (cff.h) */
  otv_metrics met; /* hmtx/vmtx/HVAR/VVAR/MVAR/VORG (metrics.h) */
};

/* The span of a table (empty span with p == NULL when absent). */
otv_span otv_face_span(const otv_face *f, uint32_t tag);
/* File offset of a table (for error messages that want file offsets; 0 when absent). */
static inline bool otv_face_has(const otv_face *f, uint32_t tag)
{
  return otv_face_span(f, tag).p != NULL;
}

/* ---- the location: one thread, caches and scratch ---- */
struct otv_location {
  const otv_face *face;
  otv_alloc al;
  otv_error last_error;
  uint32_t serial; /* bumped whenever the coordinates change: caches compare it */
  uint16_t axis_count;
  bool is_default;
  otv_f2dot14 *coords; /* final normalized coordinates (after avar), axis_count entries */
  double *user;        /* user coordinates as last set (defaults after set_normalized) */
  otv_glyf_loc glyf;   /* glyf/gvar per-location cache and scratch */
  otv_cff_loc cff;     /* CFF2 blend scalars and scratch */
  otv_metrics_loc met; /* HVAR/VVAR/MVAR scalar caches */
};

/* Record an error in the location (first error wins until the next reset) and return code. */
otv_status otv_loc_fail(otv_location *loc, otv_status code, uint32_t table, uint64_t offset,
                        const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* raster.c: read out with the SSE2 copy even where the CPU has AVX2 (tests and benchmarks
 * compare the two copies; not public API). */
void otv_raster_use_sse2(otv_raster *r);

/* floor(x + 0.5): the rounding of fontTools' otRound, used by static instances. */
static inline float otv_round(float x) { return floorf(x + 0.5f); }

#endif /* OTV_INTERNAL_H */

/*
 * core/compiler.h - compiler attributes and the build switches every file may test, defined
 * once: inlining control, printf-format checking, the SSE2 switch, and OTV_NEVER for internal
 * invariants (STYLE.md section 3).
 */
#ifndef OTV_CORE_COMPILER_H
#define OTV_CORE_COMPILER_H

#if defined(__GNUC__)
#  define OTV_ALWAYS_INLINE inline __attribute__((always_inline))
#  define OTV_NOINLINE __attribute__((noinline))
#  define OTV_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
/* a helper that some build configurations do not call (e.g. WOFF without zlib or Brotli) */
#  define OTV_MAYBE_UNUSED __attribute__((unused))
#else
#  define OTV_ALWAYS_INLINE inline
#  define OTV_NOINLINE
#  define OTV_PRINTF(fmt, args)
#  define OTV_MAYBE_UNUSED
#endif

/* Functions between OTV_TARGET_AVX2_BEGIN and OTV_TARGET_AVX2_END are compiled for AVX2 (GCC or
 * clang): a second copy of a routine, chosen at run time on CPUs that have AVX2. */
#if defined(__clang__)
#  define OTV_TARGET_AVX2_BEGIN                                                                    \
    _Pragma("clang attribute push(__attribute__((target(\"avx2\"))), apply_to = function)")
#  define OTV_TARGET_AVX2_END _Pragma("clang attribute pop")
#elif defined(__GNUC__)
#  define OTV_TARGET_AVX2_BEGIN _Pragma("GCC push_options") _Pragma("GCC target(\"avx2\")")
#  define OTV_TARGET_AVX2_END _Pragma("GCC pop_options")
#endif

/* The SSE2 paths (glyf, gvar, raster) where the compiler targets SSE2, unless OTV_NO_SIMD asks
 * for the portable code everywhere: how the tests run, on x86, the code other CPUs get. */
#if defined(__SSE2__) && !defined(OTV_NO_SIMD)
#  define OTV_SSE2 1
#else
#  define OTV_SSE2 0
#endif

/* Internal invariants (never on font data): an assert in debug builds, a plain test in release
 * builds, so the defensive branch stays. */
#ifdef NDEBUG
#  define OTV_NEVER(x) (x)
#else
#  include <assert.h>
#  define OTV_NEVER(x) (assert(!(x)), (x))
#endif

#endif /* OTV_CORE_COMPILER_H */

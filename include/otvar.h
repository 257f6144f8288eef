/*
 * otvar.h - the one public header of otvar, an OpenType Font Variations engine.
 *
 * Objects and threads
 *   otv_face      an opened font: immutable after open, may be shared by any number of threads.
 *   otv_location  a point of the design space bound to one face: normalized coordinates, caches and
 *                 scratch memory. Belongs to one thread at a time. Many locations per face.
 *
 * Conventions
 *   - Every fallible call returns otv_status (OTV_E_OK == 0). Calls on a face take an
 *     `otv_error *err` (may be NULL) that receives the first error: code, table tag, byte offset
 *     inside that table, and a one-line message. Calls on a location record their error in the
 *     location (otv_location_last_error).
 *   - Lists are caller-allocated and paged: the return value is the total number of items; `*count`
 *     is the capacity of `out` on input and the number written on output.
 *   - Pointers returned by a face live as long as the face.
 *   - No global mutable state. The header compiles as C99 and as C++.
 */
#ifndef OTVAR_H
#define OTVAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#  define OTV_API __declspec(dllexport)
#elif defined(__GNUC__)
#  define OTV_API __attribute__((visibility("default")))
#else
#  define OTV_API
#endif

/* The version of this header; CMakeLists.txt's project(VERSION) must say the same (its configure
 * step checks), and otv_version() returns it as compiled into the library. */
#define OTV_VERSION_MAJOR 0
#define OTV_VERSION_MINOR 3
#define OTV_VERSION_PATCH 0
/** otv_version - "MAJOR.MINOR.PATCH" of the library actually linked. Since: 0.1 */
OTV_API const char *otv_version(void);

/* ------------------------------------------------------------------------------------------ */
/* Errors                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* The one list of status codes, expanded into the enum and into otv_status_str().
 * Codes are append-only: never renumber. */
#define OTV_STATUS_LIST(X)                                                                         \
  X(OK, 0, "ok")                                                                                   \
  X(NOMEM, 1, "out of memory")                                                                     \
  X(IO, 2, "cannot read file")                                                                     \
  X(UNSUPPORTED, 3, "not supported")                                                               \
  X(TRUNCATED, 4, "data ends early")                                                               \
  X(BAD_OFFSET, 5, "offset out of range")                                                          \
  X(BAD_VALUE, 6, "invalid value")                                                                 \
  X(NO_TABLE, 7, "table missing")                                                                  \
  X(ARG, 8, "invalid argument")                                                                    \
  X(NOT_FOUND, 9, "not found")                                                                     \
  X(SMALL_BUFFER, 10, "buffer too small")                                                          \
  X(LIMIT, 11, "resource limit exceeded")

typedef enum otv_status {
#define OTV_X_(name, val, str) OTV_E_##name = val,
  OTV_STATUS_LIST(OTV_X_)
#undef OTV_X_
} otv_status;

/** otv_error - where and why a call failed. table is a tag (0: the file as a whole); offset is
 *  the byte offset inside that table (or the file). msg is one line without trailing newline. */
typedef struct otv_error {
  otv_status code;
  uint32_t table;
  uint64_t offset;
  char msg[112];
} otv_error;
/** OTV_ERROR_INIT - an otv_error with no error, as an initializer valid in C and C++ (`= {0}` is
 *  not C++: the first member is an enum): `otv_error err = OTV_ERROR_INIT;`. Since: 0.3 */
#define OTV_ERROR_INIT                                                                             \
  {                                                                                                \
    OTV_E_OK, 0, 0, { 0 }                                                                          \
  }

/** otv_status_str - static English text for a status code ("offset out of range"). Since: 0.1 */
OTV_API const char *otv_status_str(otv_status s);

/** otv_error_format - print `gvar+0x1a2c: offset out of range (glyph 17 data)` into buf
 *  (always NUL-terminated when cap > 0). Returns the length it needed, like snprintf. Since: 0.1 */
OTV_API size_t otv_error_format(const otv_error *e, char *buf, size_t cap);

/* ------------------------------------------------------------------------------------------ */
/* Basic types                                                                                 */
/* ------------------------------------------------------------------------------------------ */

typedef int32_t otv_fixed;   /* 16.16 */
typedef int16_t otv_f2dot14; /* 2.14: normalized coordinates, -16384..16384 */

#define OTV_TAG(a, b, c, d)                                                                        \
  ((uint32_t)(uint8_t)(a) << 24 | (uint32_t)(uint8_t)(b) << 16 | (uint32_t)(uint8_t)(c) << 8 |     \
   (uint32_t)(uint8_t)(d))

/** otv_tag_from_string - "wght" -> tag; shorter strings are padded with spaces. Returns false
 *  for an empty string, one longer than 4 or with bytes outside 0x20..0x7E. Since: 0.1 */
OTV_API bool otv_tag_from_string(const char *s, uint32_t *out);
/** otv_tag_to_string - tag -> 4 chars + NUL (buf has room for 5). Since: 0.1 */
OTV_API void otv_tag_to_string(uint32_t tag, char buf[5]);

/** Allocator: one function for malloc/realloc/free. new_len 0 frees ptr (and returns NULL).
 *  old_len is the size passed when ptr was obtained (0 for a new block). */
typedef void *(*otv_realloc_fn)(void *ud, void *ptr, size_t old_len, size_t new_len);

/** otv_options.flags: the face's locations keep no outline caches (no glyph cache, no
 *  component cache, no CFF2 decoded subroutines or compiled glyphs): every outline is decoded
 *  from the font at every draw, with the least memory per location. The outlines are the same,
 *  bit for bit, with or without the caches. Since: 0.4 */
#define OTV_OPT_NO_OUTLINE_CACHES 0x1u
/** otv_options.flags: the most each of a location's outline cache arenas may grow to, in KiB
 *  (1 .. 2^24 - 1, in bits 8-31 of flags; 0: the defaults, larger values are clamped to them):
 *  the glyph cache (default 1 MiB), the component cache (256 KiB) and CFF2's decoded
 *  subroutines and compiled glyphs (4 MiB). The caches fill lazily (a glyph is entered on its
 *  second draw; a CFF2 glyph is compiled after T interpreted draws counted from the CFF2
 *  cache's set-up at the location's first glyph drawn twice, T = max(4, (1 + K) + (1 + K) / 4)
 *  where K is the most regions of one ItemVariationData: 4 for K <= 2, 11 for K = 8) and their
 *  arenas grow in steps, so a location that draws each glyph once holds almost nothing; the
 *  bound matters for long-lived locations. Small per-glyph arrays (1 bit to 16 bytes per
 *  glyph) are not counted. E.g. flags = OTV_OPT_OUTLINE_CACHE_KIB(64). Since: 0.4 */
#define OTV_OPT_OUTLINE_CACHE_KIB(kib) ((unsigned)(kib) << 8)
/** otv_options.flags: whole-font operations on the face run without a work budget (as before
 *  0.4; otv_face_work_budget returns UINT64_MAX). Since: 0.4 */
#define OTV_OPT_NO_WORK_BUDGET 0x2u
/** otv_options.flags: the work budget of a whole-font operation is font bytes x 2^n + 2^24
 *  units (n 1 .. 31, in bits 2-6 of flags; 0: the default, n = 6) instead of x 64
 *  (docs/limits.md "Work budgets"). E.g. flags = OTV_OPT_WORK_FACTOR_LOG2(8). Since: 0.4 */
#define OTV_OPT_WORK_FACTOR_LOG2(n) (((unsigned)(n)&31u) << 2)

typedef struct otv_options {
  otv_realloc_fn realloc_fn; /* NULL: libc */
  void *ud;
  unsigned flags; /* OTV_OPT_* (0: the defaults; bit 7 is reserved, 0) */
} otv_options;

/* ------------------------------------------------------------------------------------------ */
/* Face                                                                                        */
/* ------------------------------------------------------------------------------------------ */

typedef struct otv_face otv_face;
typedef struct otv_location otv_location;

/** otv_face_open_memory - open face `index` of a font (or TrueType Collection) in memory.
 *  Zero-copy: the bytes are borrowed and must stay valid and unchanged until otv_face_close.
 *  opt may be NULL. WOFF/WOFF2 are rejected with OTV_E_UNSUPPORTED (the CLI decodes them first:
 *  docs/woff.md). The table directory and every table that later calls trust are validated
 *  here; per-glyph data is validated on use.
 *  Since: 0.1 */
OTV_API otv_status otv_face_open_memory(const void *data, size_t len, unsigned index,
                                        const otv_options *opt, otv_face **out, otv_error *err);

/** otv_face_open_file - as otv_face_open_memory on the file's bytes (mapped read-only; the face
 *  owns the mapping). As with any mapping, the file must not be truncated or rewritten in place
 *  while the face is open (reading a page past a truncated end raises SIGBUS); tools that
 *  replace fonts by writing a new file and renaming it, as otvar does, are safe. Since: 0.1 */
OTV_API otv_status otv_face_open_file(const char *path, unsigned index, const otv_options *opt,
                                      otv_face **out, otv_error *err);

/** otv_face_close - free the face and everything it owns. NULL is ignored. All locations of the
 *  face must have been destroyed before. Since: 0.1 */
OTV_API void otv_face_close(otv_face *face);

/** otv_font_face_count - number of faces in a font file's bytes (1 for a plain sfnt, numFonts for
 *  a collection, 0 when the bytes are not a font). Since: 0.1 */
OTV_API unsigned otv_font_face_count(const void *data, size_t len);

typedef enum otv_flavour {
  OTV_FLAVOUR_NONE = 0, /* no outlines (e.g. bitmap-only) */
  OTV_FLAVOUR_GLYF = 1, /* TrueType glyf/loca */
  OTV_FLAVOUR_CFF = 2,  /* 'CFF ' */
  OTV_FLAVOUR_CFF2 = 3  /* 'CFF2' */
} otv_flavour;

typedef struct otv_face_info {
  otv_flavour flavour;
  uint32_t glyph_count;    /* maxp.numGlyphs */
  uint16_t units_per_em;   /* head.unitsPerEm */
  uint16_t axis_count;     /* fvar axes (0: not variable) */
  uint16_t instance_count; /* fvar named instances */
  uint16_t avar_version;   /* 0: no avar, 1 or 2 */
  uint16_t table_count;
  uint16_t reserved;
} otv_face_info;

/** otv_face_get_info - summary numbers of the face. Since: 0.1 */
OTV_API void otv_face_get_info(const otv_face *face, otv_face_info *out);

typedef struct otv_table_record {
  uint32_t tag;
  uint32_t checksum;
  uint32_t offset; /* from the start of the file */
  uint32_t length;
} otv_table_record;

/* Paged lists: f(face, start, &count, out) returns the total number of items; with count and out
 * both given it copies up to *count items from index start into out and sets *count to the
 * number copied. Without out (NULL) nothing is copied and *count becomes 0: call with out NULL
 * (or count NULL) to learn the total first. Getters of one struct ignore a NULL out. */

/** otv_face_tables - the table directory, sorted by tag (paged list). Since: 0.1 */
OTV_API unsigned otv_face_tables(const otv_face *face, unsigned start, unsigned *count,
                                 otv_table_record *out);

/** otv_face_table - bytes of a table (borrowed from the font data), or NULL with *len = 0 when
 *  the face has no such table. len may be NULL. Since: 0.1 */
OTV_API const uint8_t *otv_face_table(const otv_face *face, uint32_t tag, size_t *len);

/** otv_face_glyph_for_char - nominal glyph of a Unicode code point from cmap (formats 4 and 12,
 *  plus format 14 when vs is a variation selector; vs = 0 for none). 0 (.notdef) when unmapped.
 *  Since: 0.1 */
OTV_API uint32_t otv_face_glyph_for_char(const otv_face *face, uint32_t cp, uint32_t vs);

/* ------------------------------------------------------------------------------------------ */
/* fvar: axes and named instances                                                              */
/* ------------------------------------------------------------------------------------------ */

#define OTV_AXIS_FLAG_HIDDEN 0x0001u

typedef struct otv_axis {
  uint32_t tag;
  double min_value; /* user coordinates, exact values of the 16.16 fields */
  double default_value;
  double max_value;
  uint16_t flags;   /* OTV_AXIS_FLAG_HIDDEN */
  uint16_t name_id; /* axisNameID */
  uint16_t index;
  uint16_t reserved;
} otv_axis;

/** otv_face_axes - the fvar axes in font order (paged list). Returns the axis count. Since: 0.1 */
OTV_API unsigned otv_face_axes(const otv_face *face, unsigned start, unsigned *count,
                               otv_axis *out);

typedef struct otv_named_instance {
  uint16_t subfamily_name_id;
  uint16_t postscript_name_id; /* 0xFFFF when absent (instanceSize without the field, or 0xFFFF) */
  uint16_t flags;
  uint16_t index;
} otv_named_instance;

/** otv_face_named_instances - fvar named instances (paged list). Returns their count. Since: 0.1 */
OTV_API unsigned otv_face_named_instances(const otv_face *face, unsigned start, unsigned *count,
                                          otv_named_instance *out);

/** otv_face_named_instance_coords - user coordinates of a named instance, one per axis in axis
 *  order; writes min(cap, axis_count) values. Returns OTV_E_NOT_FOUND for a bad index.
 *  Since: 0.1 */
OTV_API otv_status otv_face_named_instance_coords(const otv_face *face, unsigned instance,
                                                  double *coords, unsigned cap, otv_error *err);

/**
 * Normalization models: how user coordinates become normalized ones. Engines differ in the
 * arithmetic, and a coordinate one F2Dot14 step apart moves outlines by a fraction of a unit and
 * static instances by one; a model reproduces one engine exactly (docs/normalization.md).
 *  OTV_NORM_SPEC       the spec's algorithm (otvaroverview, "Coordinate scales and
 *                      normalization"; avar): 16.16 fixed point throughout, converted to F2Dot14
 *                      once at the end. The default of every location.
 *  OTV_NORM_HARFBUZZ   current HarfBuzz (>= 11.4): binary32, rounded to 16.16 after the default
 *                      normalization and after the avar map, converted to F2Dot14 at the end as
 *                      the spec does; equal to OTV_NORM_SPEC but where binary32 error decides a
 *                      tie (1 location in ~10^3 with avar).
 *  OTV_NORM_FONTTOOLS  fontTools: double precision, one rounding to F2Dot14 (halves up) after
 *                      avar; static instances equal fontTools' instancer's.
 *  OTV_NORM_HARFBUZZ6  HarfBuzz 6.0: binary32, rounded to F2Dot14 after the default
 *                      normalization and again after the avar segment map.
 *  OTV_NORM_FREETYPE   FreeType 2.12: the spec's 16.16 arithmetic, and outlines, metrics and
 *                      blends evaluated at the 16.16 coordinates (no F2Dot14 step).
 * Since: 0.3
 */
typedef enum otv_norm_model {
  OTV_NORM_SPEC = 0,
  OTV_NORM_FONTTOOLS = 1,
  OTV_NORM_HARFBUZZ6 = 2,
  OTV_NORM_FREETYPE = 3,
  OTV_NORM_HARFBUZZ = 4
} otv_norm_model;
#define OTV_NORM_MODEL_COUNT 5

/** otv_norm_model_name - "spec", "fonttools", "harfbuzz6", "freetype", "harfbuzz"; NULL for
 *  another value.
 *  Since: 0.3 */
OTV_API const char *otv_norm_model_name(otv_norm_model model);
/** otv_norm_model_from_name - the model of a name otv_norm_model_name returns; false for any
 *  other string. Since: 0.3 */
OTV_API bool otv_norm_model_from_name(const char *name, otv_norm_model *out);

/** otv_face_normalize - normalize one user coordinate per axis (axis order; n may be less than
 *  the axis count: the rest take their default) with a model, without a location. Any output may
 *  be NULL; each receives axis_count values: fixed16 the 16.16 result before the conversion to
 *  F2Dot14 (fonttools: the double result rounded to 16.16; harfbuzz6: the F2Dot14 result x 4),
 *  f2dot14 the final coordinates, real the unrounded value the model rounds last (spec,
 *  freetype, harfbuzz: fixed16 / 65536). NaN is OTV_E_ARG. Since: 0.3 */
OTV_API otv_status otv_face_normalize(const otv_face *face, otv_norm_model model,
                                      const double *user, unsigned n, otv_fixed *fixed16,
                                      otv_f2dot14 *f2dot14, double *real, otv_error *err);

/* ------------------------------------------------------------------------------------------ */
/* name                                                                                        */
/* ------------------------------------------------------------------------------------------ */

/** otv_face_name - a name record as UTF-8. Prefers Windows Unicode (platform 3, encodings 1/10)
 *  English (US, then any English), then any Windows Unicode language, then Unicode platform 0,
 *  then Mac Roman English. Writes at most cap-1 bytes plus NUL (never splitting a UTF-8
 *  sequence); *out_len (may be NULL) receives the full length needed. OTV_E_NOT_FOUND when the
 *  font has no such name. Since: 0.1 */
OTV_API otv_status otv_face_name(const otv_face *face, uint16_t name_id, char *buf, size_t cap,
                                 size_t *out_len, otv_error *err);

/* ------------------------------------------------------------------------------------------ */
/* STAT                                                                                        */
/* ------------------------------------------------------------------------------------------ */

typedef struct otv_stat_info {
  bool present;
  uint16_t minor_version;
  uint16_t design_axis_count;
  uint16_t axis_value_count;
  uint16_t elided_fallback_name_id; /* 0xFFFF when absent (version 1.0) */
} otv_stat_info;

typedef struct otv_stat_axis {
  uint32_t tag;
  uint16_t name_id;
  uint16_t ordering;
} otv_stat_axis;

#define OTV_STAT_OLDER_SIBLING_FONT_ATTRIBUTE 0x0001u
#define OTV_STAT_ELIDABLE_AXIS_VALUE_NAME 0x0002u

typedef struct otv_stat_value {
  uint16_t format; /* 1..4 */
  uint16_t flags;
  uint16_t name_id;      /* valueNameID */
  uint16_t axis_index;   /* formats 1-3 */
  double value;          /* formats 1-3 (nominal value for format 2) */
  double range_min;      /* format 2 */
  double range_max;      /* format 2 */
  double linked_value;   /* format 3 */
  uint16_t record_count; /* format 4: number of (axis_index, value) records */
  uint16_t index;        /* position in the STAT axis value list */
} otv_stat_value;

typedef struct otv_stat_axis_value_record {
  uint16_t axis_index;
  double value;
} otv_stat_axis_value_record;

/** otv_face_stat - STAT header summary (present = false when there is no STAT). Since: 0.1 */
OTV_API void otv_face_stat(const otv_face *face, otv_stat_info *out);
/** otv_face_stat_axes - STAT design axes (paged list). Since: 0.1 */
OTV_API unsigned otv_face_stat_axes(const otv_face *face, unsigned start, unsigned *count,
                                    otv_stat_axis *out);
/** otv_face_stat_values - STAT axis value tables (paged list). Since: 0.1 */
OTV_API unsigned otv_face_stat_values(const otv_face *face, unsigned start, unsigned *count,
                                      otv_stat_value *out);
/** otv_face_stat_value_records - the axis value records of a format 4 value (paged list; 0 for
 *  other formats or a bad index). Since: 0.1 */
OTV_API unsigned otv_face_stat_value_records(const otv_face *face, unsigned value_index,
                                             unsigned start, unsigned *count,
                                             otv_stat_axis_value_record *out);

/* ------------------------------------------------------------------------------------------ */
/* Location                                                                                    */
/* ------------------------------------------------------------------------------------------ */

typedef struct otv_axis_value {
  uint32_t tag;
  double value;
} otv_axis_value;

/** otv_location_create - a new location at the default of every axis. The face must outlive it.
 *  Memory: a location keeps bounded caches that make repeated outline calls cheap, filled on
 *  first use and never grown past their caps (no allocation per glyph once warm):
 *   - TrueType: the varied simple glyphs that composites use, at these coordinates (<= 276 KiB,
 *     dropped when the coordinates change), and the coordinate-independent decoded data of
 *     simple glyphs drawn to a pen: default points and every tuple's post-IUP deltas
 *     (<= 1 MiB + 32 KiB, kept across coordinate changes);
 *   - CFF2: decoded subroutines and glyphs, and glyphs compiled on their second pen draw into
 *     default points + per-region deltas (one arena <= 4 MiB, plus 4 bytes per glyph and 77 KiB
 *     of scratch; kept across coordinate changes).
 *  Outlines do not depend on them (TrueType: bit-identical; CFF2 compiled glyphs: the same affine
 *  sums in another order, equal to float rounding). Use one location per thread and reuse it;
 *  destroy it to give the memory back.
 *  Since: 0.1 */
OTV_API otv_status otv_location_create(const otv_face *face, otv_location **out, otv_error *err);
/** otv_location_destroy - free a location. NULL is ignored. Since: 0.1 */
OTV_API void otv_location_destroy(otv_location *loc);
/** otv_location_face - the face a location belongs to. Since: 0.1 */
OTV_API const otv_face *otv_location_face(const otv_location *loc);
/** otv_location_last_error - the first error recorded since the last successful setter or
 *  otv_location_clear_error, or an error with code OTV_E_OK. The first one is kept because it is
 *  the innermost cause (a bad gvar run inside a composite, not the composite that failed). A
 *  caller that goes on after a failed call (one broken glyph among many) clears the error
 *  before the next call so the next report is about that call. Since: 0.1 */
OTV_API const otv_error *otv_location_last_error(const otv_location *loc);
/** otv_location_clear_error - forget the recorded error (coordinates and caches are kept).
 *  Since: 0.2 */
OTV_API void otv_location_clear_error(otv_location *loc);

/** Work budgets (docs/limits.md "Work budgets"). Every call on a location is bounded by
 *  per-call limits, but a hostile font can make each of its glyphs cost the most a call may (a
 *  composite fan-out, one gvar blob or HVAR row shared by every glyph), so that walking every
 *  glyph costs glyphs x that. A caller that walks a whole font (every glyph's outline or
 *  metrics) arms a budget on its location first: the decoding work of the calls that follow is
 *  counted (about one unit per byte read or point produced: glyf, gvar, HVAR/VVAR, CFF/CFF2
 *  charstrings with the subroutine bytes they enter) and, once past the budget, calls
 *  fail with OTV_E_LIMIT naming the table being decoded ("work budget of N units spent"),
 *  until a budget is armed again. A new location has no budget (it counts, never refuses): a
 *  renderer that draws glyphs for as long as it runs never hits one. otv_instance_create arms
 *  the face's budget for its own work. Since: 0.4 */
#define OTV_WORK_FONT 0u              /* otv_location_set_work_budget: the face's budget */
#define OTV_WORK_UNLIMITED UINT64_MAX /* otv_location_set_work_budget: no budget */
/** otv_face_work_budget - the budget of one whole-font operation on the face, in work units:
 *  the font file's bytes x 64 (otv_options: OTV_OPT_WORK_FACTOR_LOG2) + 2^24, or
 *  OTV_WORK_UNLIMITED when the face was opened with OTV_OPT_NO_WORK_BUDGET. No real font
 *  needs more than a few units per byte to walk every glyph. Since: 0.4 */
OTV_API uint64_t otv_face_work_budget(const otv_face *face);
/** otv_location_set_work_budget - arm a budget of `budget` units for the calls that follow
 *  (OTV_WORK_FONT: otv_face_work_budget; OTV_WORK_UNLIMITED: none) and restart the count at 0.
 *  A whole-font pass at one location needs one face budget; a caller that walks the glyphs n
 *  times (or at n locations) arms n x otv_face_work_budget. NULL is ignored. Since: 0.4 */
OTV_API void otv_location_set_work_budget(otv_location *loc, uint64_t budget);
/** otv_location_work_used - the units counted since the budget was last armed (or since the
 *  location was created). 0 for NULL. Since: 0.4 */
OTV_API uint64_t otv_location_work_used(const otv_location *loc);

/**
 * otv_location_set_user - set the location from user-space axis values.
 * Unlisted axes take their default; values are clamped to the axis range, normalized, mapped
 * through avar v1 then v2, and rounded to F2Dot14 as the location's model does (otv_norm_model;
 * OTV_NORM_SPEC unless otv_location_set_model chose another). Unknown tags are ignored
 * (as HarfBuzz does); a NaN value is OTV_E_ARG. When a tag appears more than once the last wins.
 * Since: 0.1
 */
OTV_API otv_status otv_location_set_user(otv_location *loc, const otv_axis_value *vals, size_t n);
/** otv_location_set_user_coords - as otv_location_set_user with one value per axis in axis order
 *  (n may be less than the axis count: the rest take their default). Since: 0.1 */
OTV_API otv_status otv_location_set_user_coords(otv_location *loc, const double *coords,
                                                unsigned n);
/** otv_location_set_named - set the location to a named instance. Since: 0.1 */
OTV_API otv_status otv_location_set_named(otv_location *loc, unsigned instance);
/** otv_location_set_normalized - set final normalized coordinates (after avar) directly, one per
 *  axis in axis order; values are clamped to [-16384, 16384]; missing axes are 0. Since: 0.1 */
OTV_API otv_status otv_location_set_normalized(otv_location *loc, const otv_f2dot14 *coords,
                                               unsigned n);
/** otv_location_reset - back to the default location. Since: 0.1 */
OTV_API void otv_location_reset(otv_location *loc);
/** otv_location_normalized - copy the final normalized coordinates (min(cap, axis count); out
 *  NULL copies nothing); returns the axis count.
 *  Since: 0.1 */
OTV_API unsigned otv_location_normalized(const otv_location *loc, otv_f2dot14 *out, unsigned cap);
/** otv_location_normalized_fixed - copy the 16.16 normalized coordinates (otv_face_normalize's
 *  fixed16; after otv_location_set_normalized: the F2Dot14 values x 4); returns the axis count.
 *  The OTV_NORM_FREETYPE model draws with these. Since: 0.3 */
OTV_API unsigned otv_location_normalized_fixed(const otv_location *loc, otv_fixed *out,
                                               unsigned cap);
/** otv_location_set_model - the normalization model of later user settings (a new location has
 *  OTV_NORM_SPEC). When the coordinates came from user values or a named instance they are
 *  normalized again with the new model; coordinates set with otv_location_set_normalized stay.
 *  OTV_E_ARG for an unknown model. Since: 0.3 */
OTV_API otv_status otv_location_set_model(otv_location *loc, otv_norm_model model);
/** otv_location_model - the location's normalization model. Since: 0.3 */
OTV_API otv_norm_model otv_location_model(const otv_location *loc);
/** otv_location_is_default - true when every normalized coordinate is 0. Since: 0.1 */
OTV_API bool otv_location_is_default(const otv_location *loc);

/* ------------------------------------------------------------------------------------------ */
/* Outlines                                                                                    */
/* ------------------------------------------------------------------------------------------ */

/** A pen receives one glyph outline in font units, y up. Every contour starts with move_to and
 *  ends with close_path; implied on-curve points are explicit. Any callback may be NULL. */
typedef struct otv_pen {
  void (*move_to)(void *ctx, float x, float y);
  void (*line_to)(void *ctx, float x, float y);
  void (*quad_to)(void *ctx, float cx, float cy, float x, float y);
  void (*cubic_to)(void *ctx, float c1x, float c1y, float c2x, float c2y, float x, float y);
  void (*close_path)(void *ctx);
} otv_pen;

/* Flags for the outline calls. */
#define OTV_OUTLINE_ROUND                                                                          \
  0x0001u /* round every varied coordinate to an integer with
                                     floor(x + 0.5), as a static instance stores it */
/* OTV_OUTLINE_ROUND in detail (TrueType): at each glyph level, every varied value - a simple
 * glyph's points, a composite's component offsets, and the 4 phantom points - becomes
 * floor(default + sum + 0.5), where sum is the float sum over tuples of scalar x delta
 * (inferred deltas included). The default is an integer, so this is default + round(sum): what
 * fontTools' instancer stores (it sums the scaled deltas per point, adds them to the integer
 * default and rounds when it writes glyf). A composite's component transform (scale, 2x2) is
 * then applied to the rounded component points, as a renderer of the static instance does, and
 * implied on-curve midpoints are computed from rounded points (they can end in .5). The advance
 * a static instance stores is round(right - left phantom) of the unrounded phantoms: use
 * otv_glyph_h_metrics with OTV_METRICS_ROUND for it. At the default location nothing moves.
 * CFF2: each blend result is rounded with floor(x + 0.5), as an instancer stores operands. */
/* CFF and CFF2 outlines:
 * - Coordinates are in font units of head.unitsPerEm: each charstring point goes through the
 *   FontMatrix, then is scaled by unitsPerEm. The usual [1/upem 0 0 1/upem 0 0] is the identity.
 *   CID-keyed CFF: a Font DICT's FontMatrix is concatenated with the Top DICT's (the Font
 *   DICT's first) when the Top DICT has one, and used alone when it has none; a Font DICT
 *   without one uses the Top DICT's. (FreeType's FT_LOAD_NO_SCALE applies the matrix
 *   normalized to unit scale, HarfBuzz ignores it: they agree with otvar when the matrix's
 *   scale is 1/unitsPerEm.)
 * - CFF (v1) Type 2 arithmetic, storage and conditional operators are supported (CFF2 removed
 *   them: there they are OTV_E_BAD_VALUE). Cases the spec leaves undefined are errors: division
 *   by zero, sqrt of a negative number, put/get outside 0..31, index/roll beyond the stack,
 *   results beyond 2^30 in magnitude (OTV_E_LIMIT). get before put returns 0. random is
 *   deterministic: per charstring run x = gid * 2654435761 ^ 0x9e3779b9 (32-bit), and each
 *   call does x ^= x << 13, x ^= x >> 17, x ^= x << 5 and returns ((x >> 8) + 1) / 2^24, in
 *   (0, 1]: a glyph always draws the same outline, and faces hold no generator state.
 * - seac (endchar with 4 operands, CFF v1 name-keyed) draws the base and accent glyphs named by
 *   their Standard Encoding codes through the charset. */

/** otv_glyph_outline - draw glyph gid at the location into the pen. Coordinates are unrounded
 *  (default + sum of scalar x delta, in float) unless flags has OTV_OUTLINE_ROUND. Composites are
 *  flattened. No allocation once the location's scratch has grown to the font's largest glyph.
 *  Since: 0.1 */
OTV_API otv_status otv_glyph_outline(otv_location *loc, uint32_t gid, unsigned flags,
                                     const otv_pen *pen, void *ctx);

typedef struct otv_point {
  float x, y;
} otv_point;

/* Point flags of otv_glyph_points. */
#define OTV_POINT_ON_CURVE 0x01u
#define OTV_POINT_CUBIC 0x80u /* off-curve point of a cubic segment (CFF/CFF2) */

/* Glyph flags of otv_glyph_points. */
#define OTV_GLYPH_COMPOSITE 0x0001u
#define OTV_GLYPH_OVERLAP_SIMPLE 0x0002u   /* glyf flag OVERLAP_SIMPLE on the first point */
#define OTV_GLYPH_OVERLAP_COMPOUND 0x0004u /* composite flag OVERLAP_COMPOUND on a component */

typedef struct otv_glyph_points {
  /* in: caller-owned buffers and their capacities (may be NULL with cap 0 to ask the size) */
  otv_point *points;      /* point_cap entries; the 4 phantom points follow the outline points */
  uint8_t *point_flags;   /* point_cap entries (may be NULL) */
  uint16_t *contour_ends; /* contour_cap entries: index of each contour's last point */
  unsigned point_cap;
  unsigned contour_cap;
  /* out */
  unsigned point_count; /* outline points, excluding TrueType's 4 phantom points */
  unsigned contour_count;
  uint32_t glyph_flags; /* OTV_GLYPH_* */
} otv_glyph_points;

/** otv_glyph_points_get - the varied points of a glyph (composites flattened) into caller
 *  buffers. TrueType glyphs: the outline points are followed by the 4 phantom points (left,
 *  right, top, bottom origin), so point_cap must hold point_count + 4. CFF/CFF2 glyphs have no
 *  phantom points (point_cap must hold point_count); cubic control points carry OTV_POINT_CUBIC.
 *  When a buffer is too small, returns OTV_E_SMALL_BUFFER with point_count and contour_count
 *  set to what is needed (a size query: nothing is recorded in the location's error).
 *  Since: 0.1 */
OTV_API otv_status otv_glyph_points_get(otv_location *loc, uint32_t gid, unsigned flags,
                                        otv_glyph_points *io);

/* ------------------------------------------------------------------------------------------ */
/* Metrics                                                                                     */
/* ------------------------------------------------------------------------------------------ */

#define OTV_METRICS_ROUND 0x0001u /* round the result with floor(x + 0.5) */

typedef struct otv_glyph_metrics {
  float advance; /* horizontal: advance width; vertical: advance height */
  float side_a;  /* horizontal: left side bearing; vertical: top side bearing */
  float side_b;  /* horizontal: right side bearing; vertical: bottom side bearing */
  float origin;  /* vertical only: y of the vertical origin (VORG / VVAR / derived) */
} otv_glyph_metrics;

/** otv_glyph_h_metrics - horizontal metrics of a glyph at the location. Sources ("varied":
 *  not the default location, or a variable TrueType font without HVAR, which takes its metrics
 *  from the gvar phantom points at every location, honouring USE_MY_METRICS):
 *  - advance: hmtx + HVAR advance delta (implicit glyph-id mapping when HVAR has no advance
 *    map); TrueType without HVAR: right - left phantom point.
 *  - LSB, TrueType: hmtx at the default; varied with an HVAR LSB map, hmtx LSB + its delta;
 *    varied without one, xMin of the control box of the varied outline - x of the left phantom
 *    point. CFF/CFF2: always xMin of the varied outline (HVAR side-bearing maps are ignored:
 *    the spec defines them for TrueType outlines). A font without outlines: hmtx (+ delta).
 *  - RSB, TrueType varied with an HVAR RSB map: the default RSB (hmtx advance - hmtx LSB -
 *    (xMax - xMin) of the glyf header) + its delta; otherwise advance - LSB - width of the
 *    control box of the outline at the location.
 *  Side bearings draw the outline (no allocation once the location's scratch has grown);
 *  otv_glyph_advances does not. A CFF2 font without HVAR cannot vary its metrics (the spec
 *  requires HVAR): at a non-default location the call fills `out` with the default metrics and
 *  returns OTV_E_UNSUPPORTED naming HVAR. No hhea/hmtx: OTV_E_NO_TABLE. Values are unrounded
 *  unless flags has OTV_METRICS_ROUND (each field rounded with floor(x + 0.5)). Since: 0.1 */
OTV_API otv_status otv_glyph_h_metrics(otv_location *loc, uint32_t gid, unsigned flags,
                                       otv_glyph_metrics *out);
/** otv_glyph_v_metrics - vertical metrics (vmtx + VVAR, VORG, or phantom points), as
 *  otv_glyph_h_metrics with TSB/BSB in place of LSB/RSB (TSB map: vmtx TSB + delta; BSB map:
 *  default BSB = vmtx advance - vmtx TSB - (yMax - yMin) of the glyf header, + delta).
 *  origin: VORG (+ VVAR origin delta) when the font has VORG, and TSB = origin - yMax of the
 *  varied outline; else the top phantom point (TrueType without a VVAR TSB map, varied) or
 *  yMax + TSB (CFF/CFF2 without VORG: vmtx TSB, + the VVAR TSB delta when varied).
 *  No vhea/vmtx: OTV_E_NO_TABLE, unless flags has OTV_METRICS_SYNTHESIZE: then the metrics are
 *  synthesized as HarfBuzz does, at the location: advance = ascender - descender of the font
 *  (OS/2 sTypoAscender/Descender when USE_TYPO_METRICS is set, else hhea ascender/descender,
 *  both plus the MVAR 'hasc'/'hdsc' deltas; ascender taken >= 0, descender <= 0; without hhea
 *  0.8 em and -0.2 em); origin = VORG (+ VVAR delta) when present, else the varied glyph box is
 *  centred: TSB = BSB = (advance - box height) / 2, origin = yMax + TSB (a glyph without ink,
 *  empty or with a box of zero width or height: TSB = BSB = origin = advance / 2). With
 *  OTV_METRICS_ROUND the parts are rounded first: advance = round(asc) - round(desc), TSB =
 *  floor((advance - (round(yMax) - round(yMin))) / 2). Since: 0.1 */
OTV_API otv_status otv_glyph_v_metrics(otv_location *loc, uint32_t gid, unsigned flags,
                                       otv_glyph_metrics *out);
/** otv_glyph_advances - advances of many glyphs at once (flags: OTV_METRICS_ROUND,
 *  OTV_METRICS_VERTICAL, OTV_METRICS_SYNTHESIZE), equal to the advance of
 *  otv_glyph_h/v_metrics. A glyph id out of range gets 0 and the call returns OTV_E_ARG after
 *  filling the rest. Since: 0.1 */
#define OTV_METRICS_VERTICAL 0x0002u
/* otv_glyph_v_metrics, otv_glyph_advances (vertical): a font without vhea/vmtx gets
 * synthesized vertical metrics (see otv_glyph_v_metrics) instead of OTV_E_NO_TABLE. Since: 0.1 */
#define OTV_METRICS_SYNTHESIZE 0x0004u
OTV_API otv_status otv_glyph_advances(otv_location *loc, const uint32_t *gids, size_t n,
                                      unsigned flags, float *out);

/** otv_font_metric - a font-wide value at the location, named by its MVAR value tag ('hasc',
 *  'xhgt', 'unds', ...): the base value from OS/2, hhea, vhea or post plus the MVAR delta.
 *  All registered tags: hasc hdsc hlgp hcla hcld (OS/2 typo/win), vasc vdsc vlgp vcrs vcrn vcof
 *  (vhea), hcrs hcrn hcof (hhea), xhgt cpht (OS/2 version >= 2), sbxs sbys sbxo sbyo spxs spys
 *  spxo spyo strs stro (OS/2), unds undo (post), gsp0..gsp9 (gasp rangeMaxPPEM of range N).
 *  OTV_E_NOT_FOUND when the font has no base value for that tag (or the tag is not one of
 *  these). MVAR records with unknown tags are ignored. Also accepts otvar's own upper-case tags
 *  for values no MVAR record varies (returned as stored): 'HASC' 'HDSC' 'HLGP' (hhea ascender,
 *  descender, lineGap), 'UPEM' 'XMIN' 'YMIN' 'XMAX' 'YMAX' (head), 'ITAL' (post italicAngle,
 *  degrees). Since: 0.1 */
OTV_API otv_status otv_font_metric(otv_location *loc, uint32_t tag, unsigned flags, float *out);

/* ------------------------------------------------------------------------------------------ */
/* Rasterizer                                                                                  */
/* ------------------------------------------------------------------------------------------ */

/* An anti-aliased scanline rasterizer: exact area coverage (signed area accumulated per pixel,
 * as FreeType's smooth rasterizer does), non-zero winding (or even-odd), quadratic and cubic
 * curves flattened to within 1/16 pixel, 8-bit coverage into a caller-owned buffer.
 *
 * Use: create one rasterizer, set a transform, draw one or more outlines into it through the pen
 * (otv_raster_pen() with the rasterizer as ctx, e.g. as the pen of otv_glyph_outline) or whole
 * (otv_raster_add_points with what otv_glyph_points_get returns: a little faster, no call per
 * segment), then otv_raster_render() composites their coverage into a buffer and empties the
 * path. Overlapping
 * contours (OVERLAP_SIMPLE glyphs, several glyphs drawn into one path) are filled once: coverage
 * is the accumulated signed area, its magnitude clamped to 1, so there are no seams and no
 * double coverage. Its buffers grow to the largest path seen and are reused: no allocation per
 * glyph after warm-up. One thread at a time; any number of rasterizers. Libc + libm only. */
typedef struct otv_raster otv_raster;

/** otv_transform - affine map from outline units to device pixels (origin at the top-left of
 *  the buffer, y down): px = xx*x + xy*y + dx, py = yx*x + yy*y + dy. For font units (y up) at
 *  `scale` pixels per unit with the baseline origin at (ox, oy): {scale, 0, 0, -scale, ox, oy};
 *  a synthetic oblique slanting by s (e.g. 0.2) sets xy = s * scale. */
typedef struct otv_transform {
  double xx, xy, yx, yy, dx, dy;
} otv_transform;

/** otv_raster_box - integer pixel bounds: x_min <= x < x_max, y_min <= y < y_max. */
typedef struct otv_raster_box {
  int32_t x_min, y_min, x_max, y_max;
} otv_raster_box;

/* Flags of otv_raster_render. */
#define OTV_RASTER_EVEN_ODD 0x0001u /* even-odd fill rule instead of non-zero winding */
#define OTV_RASTER_REPLACE                                                                         \
  0x0002u /* write coverage over the path's bounds instead of
                                       compositing (dst + c - dst*c/255) */
#define OTV_RASTER_CLEAR                                                                           \
  0x0004u /* write every pixel of the buffer: coverage over the path's
                                       bounds, 0 elsewhere (REPLACE and no need to clear the
                                       buffer first; an empty path clears it). Since: 0.1 */

/** otv_raster_create - a rasterizer with an identity transform and an empty path, allocating
 *  through opt (may be NULL: libc). Since: 0.1 */
OTV_API otv_status otv_raster_create(const otv_options *opt, otv_raster **out);
/** otv_raster_destroy - free a rasterizer. NULL is ignored. Since: 0.1 */
OTV_API void otv_raster_destroy(otv_raster *r);
/** otv_raster_set_transform - transform applied to the points given to the pen from now on
 *  (NULL: identity). Non-finite entries are OTV_E_ARG (the transform is unchanged). Since: 0.1 */
OTV_API otv_status otv_raster_set_transform(otv_raster *r, const otv_transform *t);
/** otv_raster_pen - pen callbacks that add to the rasterizer's path; pass the otv_raster as ctx.
 *  A move_to closes any open contour. The returned pointer is static. Since: 0.1 */
OTV_API const otv_pen *otv_raster_pen(void);
/**
 * otv_raster_add_points - add a whole outline given as points, as otv_glyph_points_get returns it
 * (points, point_flags, contour_ends, point_count, contour_count; the other fields and any
 * phantom points are ignored) and as FreeType's FT_Outline holds one: the same coverage as
 * drawing it through otv_raster_pen(), without a call per segment (the fast way in). The current
 * transform applies. Contour c is points (c ? contour_ends[c-1] + 1 : 0) .. contour_ends[c], and
 * is closed. A point is on the curve when its flag has OTV_POINT_ON_CURVE (point_flags NULL: all
 * are); an off-curve point is a quadratic control point, or a cubic one with OTV_POINT_CUBIC.
 * As in TrueType, two quadratic control points in a row imply the on-curve point midway, and a
 * contour may start with one (it then starts at its last point if that is on the curve, else
 * midway between its first and last points: FreeType's rule); two cubic control points are
 * followed by an on-curve point or end the contour. Any contour left open by the pen is closed
 * first. Returns OTV_E_ARG for NULL pointers with a non-zero contour count, or contour ends that
 * do not increase or reach point_count (nothing is added); OTV_E_BAD_VALUE for a bad point
 * sequence (a contour starting with a cubic control point, one alone or followed by an
 * off-curve point, a quadratic next to a cubic one) or a non-finite point, OTV_E_NOMEM when the
 * rasterizer's point buffer cannot grow: these errors are kept, as the pen's are, and the next
 * render returns them and draws nothing. No allocation once the buffer holds the largest
 * outline seen. Since: 0.1
 */
OTV_API otv_status otv_raster_add_points(otv_raster *r, const otv_glyph_points *outline);
/** otv_raster_bounds - pixel bounds of the path drawn since the last render/reset (device
 *  space, before clipping). Returns false for an empty path. Since: 0.1 */
OTV_API bool otv_raster_bounds(const otv_raster *r, otv_raster_box *out);
/** otv_raster_reset - discard the path (and any error recorded while drawing it). Since: 0.1 */
OTV_API void otv_raster_reset(otv_raster *r);
/**
 * otv_raster_begin - announce, before drawing, the size of the buffer the next otv_raster_render
 * will use (an optional speed-up: the result is the same). The pen then accumulates coverage
 * into a target-sized area as it goes, in one pass, instead of storing the path. Discards any
 * path drawn so far. The next render must pass the same width and height (else OTV_E_ARG and the
 * path is emptied); that render or a reset ends the announcement. Targets over 2^20 pixels, and
 * 0 x 0, quietly keep the stored path (the 2^22-segment cap applies only to stored paths).
 * Returns OTV_E_NOMEM when the area cannot grow (the rasterizer stays usable, without the
 * announcement), OTV_E_ARG for a side over INT32_MAX. Since: 0.1
 */
OTV_API otv_status otv_raster_begin(otv_raster *r, unsigned width, unsigned height);
/**
 * otv_raster_render - rasterize the path into buf (width x height bytes, rows `stride` bytes
 * apart, 0 = none, 255 = full coverage), clipped to the buffer, then empty the path. By default
 * coverage c is composited onto the buffer (dst + c - dst*c/255: exact c on a zeroed buffer);
 * pixels outside the path's bounds are never touched. Returns OTV_E_NOMEM when a buffer could not
 * grow while drawing or rendering, OTV_E_LIMIT when the flattened path exceeded 2^22 line
 * segments (64 MiB), OTV_E_BAD_VALUE when the pen received non-finite coordinates
 * (or ones that overflow a float once transformed; finite device coordinates beyond +-2^22 are
 * clamped), OTV_E_ARG for a NULL buffer, stride < width or a side over INT32_MAX; the path is
 * emptied in every case. Since: 0.1
 */
OTV_API otv_status otv_raster_render(otv_raster *r, uint8_t *buf, unsigned width, unsigned height,
                                     size_t stride, unsigned flags);

/* ------------------------------------------------------------------------------------------ */
/* Instancing                                                                                  */
/* ------------------------------------------------------------------------------------------ */

/* Flags of otv_instance_create. */
#define OTV_INSTANCE_UPDATE_NAMES                                                                  \
  0x0001u                                     /* name table, head.macStyle and OS/2
                                                 fsSelection from STAT axis values, as
                                                 fontTools' --update-name-table (OTV_E_NOT_FOUND
                                                 when STAT has no value for the location) */
#define OTV_INSTANCE_NO_OVERLAP_FLAGS 0x0002u /* don't set OVERLAP_SIMPLE / OVERLAP_COMPOUND */
#define OTV_INSTANCE_CFF2 0x0004u /* CFF2 fonts: a static CFF2 table instead of CFF (Since: 0.4) */
/* As OTV_INSTANCE_UPDATE_NAMES where STAT can name the instance; where it cannot (no STAT, or no
 * axis value at the location), from the fvar named instance at the location: its subfamily name
 * in the R/I/B/BI model (a "Bold" or "Italic" style keeps the family; "SemiBold" joins it), as
 * STAT's names would be. No named instance there: OTV_E_NOT_FOUND. Since: 0.4 */
#define OTV_INSTANCE_NAME_INSTANCE 0x0008u
/* CFF2 fonts, full instances (CFF, or CFF2 with OTV_INSTANCE_CFF2): every charstring value
 * whose blend is not an integer is stored exact, as a 16.16 fixed number, instead of rounded to
 * an integer (Private DICT values are stored as reals either way). The outlines and stems are
 * then the variable font's at the location to 1/65536 unit, so a hinting rasterizer draws the
 * instance as the variable font (FreeType: within 1/64 px at every size), where integer values
 * move an edge by up to half a unit (more where rounding is carried across a shared
 * subroutine); the table is larger (docs/instance.md). Since: 0.4 */
#define OTV_INSTANCE_CFF_EXACT 0x0010u
/* Bits not defined above are reserved: pass them as 0 (bit 30 selects a mode of otvar's own
 * tests, FreeType's fixed-point blend arithmetic: src/instance/cff_ft.h). */

/**
 * otv_instance_create - a complete static font (an sfnt in memory) of the location's face at
 * the location's coordinates: glyf with the varied outlines rounded with floor(x + 0.5) (as
 * fontTools' instancer), composites kept, bounding boxes, loca, hmtx/vmtx from the phantom
 * points; or, for CFF2 fonts, a CFF (version 1) table (Since: 0.4; blends resolved, integer
 * coordinates with the rounding carried forward along each contour, subroutines and hints kept,
 * name-keyed from post 2.0 names when there is one Font DICT, else CID-keyed; post becomes 3.0
 * when its names move into the CFF table), or with OTV_INSTANCE_CFF2 a CFF2 table without
 * VariationStore (the same charstrings, subroutines and hints kept, Since: 0.4; a font with a
 * non-identity FontMatrix: points rounded, charstrings flattened, hints dropped; exact values
 * instead of integers with OTV_INSTANCE_CFF_EXACT), with hmtx/vmtx from
 * HVAR/VVAR; an instance of a CFF2 font whose charstrings would exceed 8 x the CFF2 table +
 * 1 MiB is OTV_E_LIMIT (docs/limits.md); head/hhea/vhea/maxp recomputed, GPOS/GDEF device
 * deltas applied and GSUB/GPOS FeatureVariations resolved, MVAR applied to OS/2, hhea, vhea and
 * post, cvar to cvt, OS/2 usWeightClass/usWidthClass and post.italicAngle from wght/wdth/slnt,
 * and the variation tables (fvar, gvar, avar, HVAR, VVAR, MVAR, cvar) removed with the name
 * records only they used; STAT is kept with the axis values at the location (as fontTools'
 * instancer). Every other table is copied as it is. *out is allocated with the allocator
 * of the face's options; free it with otv_instance_free. The face is not modified; any number
 * of threads may instance one face, each with its own location. Fonts without fvar are
 * OTV_E_UNSUPPORTED. Errors are recorded in the location. Since: 0.1
 */
OTV_API otv_status otv_instance_create(otv_location *loc, unsigned flags, uint8_t **out,
                                       size_t *out_len);
/**
 * otv_instance_create_partial - a variable font with the axes not named in keep_tags pinned at
 * the location's coordinates and the keep_tags axes left variable with their full ranges (the
 * location's coordinates on those axes are ignored: the new default is at their defaults), as
 * fontTools' varLib.instancer does when some axes are left out of the location ("L2").
 * glyf/hmtx/cvt/OS/2/hhea/post/GPOS values become the font at the pinned coordinates; gvar and
 * cvar keep the tuples of the kept axes, their deltas scaled by the pinned axes' factors,
 * summed per kept region and rounded (sparse tuples interpolated against the original outline
 * first; then only the points IUP cannot infer within 0.5 are listed); HVAR, VVAR, MVAR and
 * GDEF stores get regions over the kept axes and scaled deltas, compacted when they end their
 * table, with item order kept (DeltaSetIndexMaps and VariationIndex tables unchanged);
 * fvar keeps the kept axes and the named instances that lie on the pinned coordinates; avar v1
 * keeps the kept axes' maps; FeatureVariations lose the records the pins exclude and the
 * conditions the pins satisfy; STAT keeps the axis values on the pinned values (as fontTools'
 * instancer) and name loses the records only the lost axes, instances and axis values used.
 * CFF2 fonts keep CFF2 with their VariationStore: charstrings (subroutines kept where each can
 * be rewritten on its own, else inlined) with blends rewritten the same way (non-integer values
 * as 16.16 numbers), Private DICT blends resolved at the new default (a blend whose defaults are
 * another blend's results is rewritten as one blend; one whose delta operands are another
 * blend's results is rewritten too, as a blend of blends where the kept axes need it, Since:
 * 0.4; a blend taking the result of a blend of blends is OTV_E_UNSUPPORTED). avar version 2:
 * the kept axes' rows of its store are rewritten over the kept axes (pinned factors applied); a
 * pinned axis whose avar 2 mapping follows a kept axis, or pins that move a kept axis off its
 * default, are OTV_E_UNSUPPORTED naming the axes.
 * OTV_INSTANCE_UPDATE_NAMES names the instance after its default (the pins, the kept axes'
 * defaults) from STAT. A tag that names no axis is OTV_E_NOT_FOUND. keep_count 0 is
 * otv_instance_create. Free *out with otv_instance_free.
 * Since: 0.2
 */
OTV_API otv_status otv_instance_create_partial(otv_location *loc, const uint32_t *keep_tags,
                                               unsigned keep_count, unsigned flags, uint8_t **out,
                                               size_t *out_len);
/** One axis's limits for otv_instance_create_limits, in user coordinates. Since: 0.4 */
typedef struct otv_axis_limits {
  uint32_t tag;         /* the axis (OTV_TAG) */
  double min, def, max; /* min == max: pinned at that value (def ignored); otherwise kept
                            variable over [min, max] with its default at def */
} otv_axis_limits;
/**
 * otv_instance_create_limits - an instance with axis limits, as fontTools' varLib.instancer
 * takes them ("L3": restricted ranges, "L4": a new default): each listed axis is pinned
 * (min == max) or kept variable over [min, max] with its new default at def (min <= def <=
 * max, all inside the axis's fvar range); axes not listed are pinned at the location's
 * coordinates (list an axis with its full range to keep it as it is). Every variation table
 * follows: gvar and cvar tuples and the HVAR/VVAR/MVAR/GDEF/BASE store regions are re-normalized
 * to the new ranges (a region whose factor is not one tent over the new range is split into
 * several, with the constant part folded into the new default), fvar gets the new ranges and
 * the named instances inside them, avar v1 segment maps are remapped (and one is added where a
 * moved default needs it), FeatureVariations conditions are clipped and remapped. With no axis
 * kept variable the result is otv_instance_create's at the pinned location. A limit that is
 * NaN, out of order or outside its axis, or an axis listed twice, is OTV_E_ARG; an unknown tag
 * OTV_E_NOT_FOUND. avar 2 fonts: an axis can be restricted when its own avar 2 row is empty (the
 * other rows' regions are rebased) and the kept axes stay at 0 at the new default; otherwise
 * OTV_E_UNSUPPORTED naming the axes. CFF2 blends follow their regions (split regions give their
 * ItemVariationData more columns). Free *out with otv_instance_free.
 * Since: 0.4
 */
OTV_API otv_status otv_instance_create_limits(otv_location *loc, const otv_axis_limits *limits,
                                              unsigned count, unsigned flags, uint8_t **out,
                                              size_t *out_len);
/** otv_instance_free - free a font returned by otv_instance_create. NULL is ignored. Since: 0.1 */
OTV_API void otv_instance_free(otv_location *loc, uint8_t *data, size_t len);

/* ---- building variable fonts from masters (issue 27) ---- */

/** One point of an axis map: user-space input -> design-space output (designspace <map>). */
typedef struct otv_build_map {
  double input, output;
} otv_build_map;

/** One axis of a designspace: tag, English name, user-space minimum/default/maximum, hidden
 *  flag (fvar flags bit 0), and its map (may be empty: design = user). Since: 0.4 */
typedef struct otv_build_axis {
  uint32_t tag;
  const char *name; /* UTF-8, NUL-terminated */
  double min_value, default_value, max_value;
  bool hidden;
  const otv_build_map *map;
  unsigned map_count;
} otv_build_axis;

/** One master: its name (for error messages), its design-space location (axis_count values in
 *  the designspace's axis order) and the bytes of the master font (a TrueType sfnt; borrowed for
 *  the call). Since: 0.4 */
typedef struct otv_build_source {
  const char *name;
  const double *location;
  const uint8_t *data;
  size_t len;
} otv_build_source;

/** One named instance: English subfamily name, PostScript name (may be NULL) and design-space
 *  location (axis_count values). Since: 0.4 */
typedef struct otv_build_instance {
  const char *style_name;
  const char *postscript_name;
  const double *location;
} otv_build_instance;

/** One avar 2 axis mapping (designspace format 5 <mappings><mapping>): an input and an output
 *  location in design space, axis_count values each; NaN: the axis is not given (an input axis
 *  not given is at its default; an output axis not given is not moved). Since: 0.4 */
typedef struct otv_build_mapping {
  const double *input, *output;
} otv_build_mapping;

/** One condition of a designspace rule: axis index, design-space minimum and maximum (NaN: not
 *  bounded on that side). Since: 0.4 */
typedef struct otv_build_condition {
  unsigned axis;
  double minimum, maximum;
} otv_build_condition;

/** One <conditionset>: the box where all its conditions hold (none: everywhere). Since: 0.4 */
typedef struct otv_build_conditionset {
  const otv_build_condition *conditions;
  unsigned condition_count;
} otv_build_conditionset;

/** One designspace rule: where it applies (any of its condition sets) and its substitutions
 *  (glyph names, UTF-8: sub_names[i] becomes sub_with[i]). Since: 0.4 */
typedef struct otv_build_rule {
  const otv_build_conditionset *sets;
  unsigned set_count;
  const char *const *sub_names;
  const char *const *sub_with;
  unsigned sub_count;
} otv_build_rule;

/** One STAT axis value label (designspace format 5 <axis><labels><label>): the axis index, its
 *  user value, range (userminimum/usermaximum; NaN: none, a format 1 value) and linked value
 *  (linkeduservalue; NaN: none), its English name and flags (bit 0 olderSibling, bit 1
 *  elidable, the STAT flags). Since: 0.4 */
typedef struct otv_build_label {
  unsigned axis;
  double value, minimum, maximum, linked;
  const char *name;
  unsigned flags;
} otv_build_label;

/** One STAT location label (designspace format 5 document-level <labels><label>, a STAT axis
 *  value of format 4, written before the labels' values in STAT version 1.2): its English name,
 *  flags (bit 0 olderSibling, bit 1 elidable) and user location (axis_count values; NaN: the
 *  axis is not part of it; the CLI gives every axis, the default where the label names none, as
 *  fontTools does). Since: 0.4 */
typedef struct otv_build_location_label {
  const char *name;
  const double *location;
  unsigned flags;
} otv_build_location_label;

/** One STAT design axis of a font built from part of a designspace (a discrete axis, one a
 *  format 5 <variable-font> pins at a value, or one the font varies): its tag, English name
 *  (used when it is not an fvar axis), AxisOrdering and the otv_designspace axis it is (index
 *  into axes, whose fvar name ID it then shares; -1: not an fvar axis, the font has one value
 *  on it). fontTools' buildVFStatTable lists every axis of the document so. Since: 0.4 */
typedef struct otv_build_stat_axis {
  uint32_t tag;
  const char *name; /* UTF-8, NUL-terminated */
  unsigned ordering;
  int axis;
} otv_build_stat_axis;

/** A designspace document already parsed (the CLI reads the XML with expat; the library only
 *  takes this plain data). mappings (may be NULL when mapping_count is 0): avar 2 mappings.
 *  rules: GSUB FeatureVariations under the feature tags rule_features (rule_feature_count; 0:
 *  'rvrn'), as fontTools' varLib builds them. labels: STAT axis values (when the default master
 *  has no STAT). Since: 0.4 */
typedef struct otv_designspace {
  const otv_build_axis *axes;
  unsigned axis_count;
  const otv_build_source *sources;
  unsigned source_count;
  const otv_build_instance *instances;
  unsigned instance_count;
  const otv_build_mapping *mappings;
  unsigned mapping_count;
  const otv_build_rule *rules;
  unsigned rule_count;
  const uint32_t *rule_features;
  unsigned rule_feature_count;
  const otv_build_label *labels;
  unsigned label_count;
  const char *elided_fallback_name; /* NULL: name ID 2 */
  const int *axis_ordering;         /* NULL, or per axis its STAT ordering (-1: its index) */
  /* STAT format 4 axis values, after the labels' (may be NULL when the count is 0; Since: 0.4) */
  const otv_build_location_label *location_labels;
  unsigned location_label_count;
  unsigned flags; /* OTV_BUILD_* (0: the defaults). Since: 0.4 */
  /* STAT's design axes when they are not the fvar axes (may be NULL when the count is 0; at
   * most 64): labels[i].axis then indexes stat_axes, location_labels[i].location has
   * stat_axis_count values, axis_ordering is not used. Since: 0.4 */
  const otv_build_stat_axis *stat_axes;
  unsigned stat_axis_count;
} otv_designspace;

/** OTV_BUILD_NO_SUBRS - otv_designspace.flags: CFF2 output without the global subroutines
 *  otv_build otherwise makes of contours repeated across glyphs (smaller sfnt; Brotli, as in
 *  WOFF2, can compress the flat charstrings smaller). Since: 0.4 */
#define OTV_BUILD_NO_SUBRS 1u

/**
 * otv_build - a variable font from the masters of a designspace (TrueType masters make a glyf
 * font with gvar; CFF or CFF2 masters, all of one kind, make a CFF2 font whose charstrings blend
 * over the same model, docs/build.md "CFF2 from CFF masters"): the default master
 * (the source at every axis's default, mapped to design space) is copied, and built: fvar (axes,
 * named instances, their names added to name), avar v1 (from the axis maps, left out when they
 * are identities; version 2 when ds has mappings: output minus input normalized in design space,
 * varied by the model of the input locations, as fontTools' varLib 5), STAT (from ds->labels,
 * else minimal; over ds->stat_axes when given; only when the default master has none), gvar
 * (per-glyph deltas of the spec's variation model as fontTools' VariationModel derives it,
 * phantom points and composite offsets included, deltas IUP infers within 0.5 left out, exact
 * at every master), cvar (from cvt), HVAR and VVAR (advance widths and heights; VVAR's
 * vOrgMapping when the masters' VORG origins differ), MVAR (the OS/2, hhea, vhea and post
 * values that differ), GPOS and GDEF (values that differ between the masters' GPOS - single
 * and pair adjustments, cursive and mark anchors - and GDEF ligature carets become VariationIndex
 * devices with GDEF 1.3's ItemVariationStore; class kerning and pair sets that differ are merged
 * as varLib does, a pair a master lacks being 0), BASE (coordinates, BASE 1.1's own store) and
 * GSUB FeatureVariations from ds->rules. Masters are matched to the default by glyph name (post
 * format 2) or, without names, by glyph id; a master that lacks a glyph or leaves it empty is a
 * sparse master for that glyph. Incompatible masters are OTV_E_BAD_VALUE with a message naming
 * the glyph, the master and what differs; GPOS whose lookups, script or feature lists differ
 * otherwise, TrueType and CFF masters mixed, seac and CFF arithmetic operators are
 * OTV_E_UNSUPPORTED naming the master. Work on hostile masters
 * is bounded (OTV_E_LIMIT). *out is allocated with opt's allocator (NULL: libc); free it with
 * otv_build_free. Thread-safe (no shared state).
 * Since: 0.4
 */
OTV_API otv_status otv_build(const otv_designspace *ds, const otv_options *opt, uint8_t **out,
                             size_t *out_len, otv_error *err);
/** otv_build_free - free a font returned by otv_build (the same opt). NULL is ignored.
 *  Since: 0.4 */
OTV_API void otv_build_free(const otv_options *opt, uint8_t *data, size_t len);

#ifdef __cplusplus
}
#endif
#endif /* OTVAR_H */

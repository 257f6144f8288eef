/*
 * hb_dl.h - HarfBuzz opened at first use (dlopen) instead of linked, when the CLI is built with
 * OTV_HB_DLOPEN (cmake/cli.cmake, the default on Linux): libharfbuzz pulls in glib, graphite2,
 * FreeType and PCRE2, whose loading and constructors were a third of every command's start-up
 * (0.45 of 1.47 ms of CPU for `otvar --version`; docs/build.md), and only render, specimen and
 * shape use it. tools/util_shape.c includes this after <hb.h>: each hb_* function it calls is
 * then a pointer filled by otv_hb_load (tools/util_hb_dl.c). Without OTV_HB_DLOPEN nothing
 * changes (linked as before).
 */
#ifndef OTV_HB_DL_H
#define OTV_HB_DL_H

#ifdef OTV_HB_DLOPEN

#  include <stdbool.h>

#  include <hb-ot.h>
#  include <hb.h>

#  ifndef OTV_HB_SONAME
#    define OTV_HB_SONAME "libharfbuzz.so.0"
#  endif

/* every HarfBuzz function the CLI calls */
#  define OTV_HB_FUNCS(X)                                                                          \
    X(hb_blob_create)                                                                              \
    X(hb_blob_get_empty)                                                                           \
    X(hb_buffer_add_codepoints)                                                                    \
    X(hb_buffer_allocation_successful)                                                             \
    X(hb_buffer_clear_contents)                                                                    \
    X(hb_buffer_create)                                                                            \
    X(hb_buffer_destroy)                                                                           \
    X(hb_buffer_get_glyph_infos)                                                                   \
    X(hb_buffer_get_glyph_positions)                                                               \
    X(hb_buffer_get_length)                                                                        \
    X(hb_buffer_guess_segment_properties)                                                          \
    X(hb_buffer_serialize_glyphs)                                                                  \
    X(hb_buffer_set_direction)                                                                     \
    X(hb_buffer_set_language)                                                                      \
    X(hb_buffer_set_script)                                                                        \
    X(hb_direction_from_string)                                                                    \
    X(hb_face_create_for_tables)                                                                   \
    X(hb_face_destroy)                                                                             \
    X(hb_face_get_upem)                                                                            \
    X(hb_feature_from_string)                                                                      \
    X(hb_font_create)                                                                              \
    X(hb_font_destroy)                                                                             \
    X(hb_font_get_empty)                                                                           \
    X(hb_font_set_scale)                                                                           \
    X(hb_font_set_var_coords_normalized)                                                           \
    X(hb_language_from_string)                                                                     \
    X(hb_ot_font_set_funcs)                                                                        \
    X(hb_script_from_string)                                                                       \
    X(hb_shape)                                                                                    \
    X(hb_unicode_funcs_get_default)                                                                \
    X(hb_unicode_script)

typedef struct otv_hb_api {
#  define OTV_HB_MEMBER_(n) __typeof__(n) *n;
  OTV_HB_FUNCS(OTV_HB_MEMBER_)
#  undef OTV_HB_MEMBER_
} otv_hb_api;

extern otv_hb_api otv_hb;

/* Open libharfbuzz (its soname, OTV_HB_SONAME) and resolve every function, once per process:
 * true when HarfBuzz can be used. Not thread-safe on the first call (the CLI shapes from its
 * main thread). */
bool otv_hb_load(void);

#  ifndef OTV_HB_DL_IMPL /* the callers see the pointers under the functions' names */
#    define hb_blob_create (otv_hb.hb_blob_create)
#    define hb_blob_get_empty (otv_hb.hb_blob_get_empty)
#    define hb_buffer_add_codepoints (otv_hb.hb_buffer_add_codepoints)
#    define hb_buffer_allocation_successful (otv_hb.hb_buffer_allocation_successful)
#    define hb_buffer_clear_contents (otv_hb.hb_buffer_clear_contents)
#    define hb_buffer_create (otv_hb.hb_buffer_create)
#    define hb_buffer_destroy (otv_hb.hb_buffer_destroy)
#    define hb_buffer_get_glyph_infos (otv_hb.hb_buffer_get_glyph_infos)
#    define hb_buffer_get_glyph_positions (otv_hb.hb_buffer_get_glyph_positions)
#    define hb_buffer_get_length (otv_hb.hb_buffer_get_length)
#    define hb_buffer_guess_segment_properties (otv_hb.hb_buffer_guess_segment_properties)
#    define hb_buffer_serialize_glyphs (otv_hb.hb_buffer_serialize_glyphs)
#    define hb_buffer_set_direction (otv_hb.hb_buffer_set_direction)
#    define hb_buffer_set_language (otv_hb.hb_buffer_set_language)
#    define hb_buffer_set_script (otv_hb.hb_buffer_set_script)
#    define hb_direction_from_string (otv_hb.hb_direction_from_string)
#    define hb_face_create_for_tables (otv_hb.hb_face_create_for_tables)
#    define hb_face_destroy (otv_hb.hb_face_destroy)
#    define hb_face_get_upem (otv_hb.hb_face_get_upem)
#    define hb_feature_from_string (otv_hb.hb_feature_from_string)
#    define hb_font_create (otv_hb.hb_font_create)
#    define hb_font_destroy (otv_hb.hb_font_destroy)
#    define hb_font_get_empty (otv_hb.hb_font_get_empty)
#    define hb_font_set_scale (otv_hb.hb_font_set_scale)
#    define hb_font_set_var_coords_normalized (otv_hb.hb_font_set_var_coords_normalized)
#    define hb_language_from_string (otv_hb.hb_language_from_string)
#    define hb_ot_font_set_funcs (otv_hb.hb_ot_font_set_funcs)
#    define hb_script_from_string (otv_hb.hb_script_from_string)
#    define hb_shape (otv_hb.hb_shape)
#    define hb_unicode_funcs_get_default (otv_hb.hb_unicode_funcs_get_default)
#    define hb_unicode_script (otv_hb.hb_unicode_script)
#  endif

#endif /* OTV_HB_DLOPEN */
#endif /* OTV_HB_DL_H */

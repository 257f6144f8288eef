/* post_names.h - the standard Macintosh glyph names (post_names.c). */
#ifndef OTV_POST_NAMES_H
#define OTV_POST_NAMES_H

#include "core/core.h"

#define OTV_POST_STD_NAMES 258u
extern const char *const otv_post_std_names[OTV_POST_STD_NAMES];

/* The glyph names of a post table of version 2.0 (spec: post): glyphNameIndex, and where each
 * Pascal string after it starts (read once, in order). */
typedef struct otv_post_names {
  otv_span index;   /* glyph_count x u16 glyphNameIndex */
  otv_span strings; /* the Pascal strings */
  uint32_t *str_at; /* offset in strings of each string a glyph refers to */
  uint32_t str_count, str_cap;
} otv_post_names;

/* Decode post (any bytes): false when it is not version 2.0 for glyph_count glyphs (no names);
 * *st OTV_E_NOMEM when out of memory. Strings past the table's end are left out (their glyphs
 * have no name). Free with otv_post_names_free. */
bool otv_post_names_open(otv_span post, uint32_t glyph_count, const otv_alloc *al,
                         otv_post_names *out, otv_status *st);
/* Glyph g's name: a standard one (*std) or a string (*s); false when it has none. */
bool otv_post_name(const otv_post_names *pn, uint32_t g, const char **std, otv_span *s);
void otv_post_names_free(otv_post_names *pn, const otv_alloc *al);

#endif /* OTV_POST_NAMES_H */

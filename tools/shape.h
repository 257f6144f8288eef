/*
 * shape.h - text shaping for `otvar render`, `otvar specimen` and `otvar shape`
 * (tools/util_shape.c): HarfBuzz shapes each run at the location's normalized coordinates
 * (FeatureVariations, GPOS variations and kerning at the location), FriBidi splits a line into
 * runs of one direction, and otvar draws the glyphs. The library itself never links either: the
 * CLI does, when they were found at build time (cmake/cli.cmake). Without HarfBuzz a line is laid
 * out through cmap (render.h's txt_layout) and the commands say so on stderr.
 */
#ifndef OTV_SHAPE_H
#define OTV_SHAPE_H

#include "otvar.h"
#include "render.h"

#include <stdbool.h>

/* Options as hb-view and hb-shape spell them (NULL: not given). */
typedef struct shp_opts {
  const char
      *features; /* "kern,-liga,ss01=1,aalt[3:5]=2": hb_feature_from_string, comma-separated */
  const char *direction; /* ltr, rtl, ttb, btt (any prefix hb_direction_from_string takes) */
  const char *script;    /* ISO 15924 ("Arab", "latn") */
  const char *language;  /* BCP 47 ("ar", "tr") */
  int no_kern;           /* add -kern (render --no-kern) */
} shp_opts;

typedef struct shp_font shp_font;

/* True when the CLI can shape: built with HarfBuzz (and, with OTV_HB_DLOPEN, it loads). */
bool shp_available(void);
/* True when the CLI was built with FriBidi (mixed-direction lines are split into runs). */
bool shp_has_bidi(void);
/* Why shp_available() is false (for messages): not built with HarfBuzz, or its library could not
 * be opened at run time (OTV_HB_DLOPEN). */
const char *shp_unavailable_reason(void);
/* Print once per process: `otvar: CMD: warning: REASON: text is not shaped ...`. */
void shp_warn_fallback(const char *cmd);

/* A shaper for face with options o, checked (a bad feature, direction or script is a usage error
 * printed as `otvar: CMD: ...`). face must outlive it. Returns OTV_EXIT_OK with *out set (NULL
 * when built without HarfBuzz: shp_line then lays out through cmap), OTV_EXIT_USAGE or
 * OTV_EXIT_FONT (out of memory, message printed). */
int shp_font_create(const char *cmd, const otv_face *face, const shp_opts *o, shp_font **out);
void shp_font_destroy(shp_font *f);

/* Shape one line of code points at loc's coordinates into out (glyphs in visual order, left to
 * right; x and y in font units). Characters the font does not map give .notdef (glyph 0), as
 * HarfBuzz does. f may be NULL (the cmap layout, with the `kern` table unless o->no_kern).
 * Returns 0, or -2 when out of memory. */
int shp_line(shp_font *f, otv_location *loc, const shp_opts *o, const uint32_t *cps, size_t n,
             txt_line *out);

/* Print one line of hb-shape's text format for cps to `to` ("[name=cluster+advance|...]\n"):
 * flags as hb_buffer_serialize_flags_t (HB_BUFFER_SERIALIZE_FLAG_*); scale 0: units per em,
 * else hb-shape's --font-size. Returns 0, -2 out of memory, -1 without HarfBuzz. */
int shp_print(shp_font *f, otv_location *loc, const shp_opts *o, const uint32_t *cps, size_t n,
              unsigned flags, double font_size, FILE *to);

/* ---- the scripts a font covers and their sample texts (fonts/samples.txt) ---- */

typedef struct shp_sample {
  char script[5];      /* ISO 15924 tag, "Latn" */
  char name[32];       /* "Latin" */
  char text[256];      /* the sample (UTF-8) */
  char short_text[32]; /* two or three characters for the sweep and grid cells */
} shp_sample;

/* The samples of the scripts face covers (every character of a sample mapped), best first: the
 * script with the most mapped sample characters first. Reads samples.txt where cli_data_file
 * finds it (else a built-in Latin/digits list). Returns the count written (at most cap). */
unsigned shp_font_samples(const otv_face *face, shp_sample *out, unsigned cap);

/* ---- the HTML specimen (util_html.c) ----
 * Write DIR/index.html (created with DIR when missing) and the font beside it (FONT's sfnt as
 * DIR/font.ttf or .otf, or DIR/font.woff2 when woff2): @font-face, a slider per axis driving
 * font-variation-settings, the named instances, a glyph grid of the mapped characters and a
 * waterfall, in sample (the font's own script) and the other scripts' samples. Existing files
 * need force. Returns an exit code, with the message printed. */
int spec_html(const char *cmd, const char *font_path, const otv_face *face, const char *dir,
              int woff2, int force, const char *sample, const shp_sample *scripts,
              unsigned script_count);

#endif

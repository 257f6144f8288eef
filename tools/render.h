/*
 * render.h - pictures for `otvar render` and `otvar specimen`: simple horizontal text layout
 * (tools/util_text.c) and PNG/SVG output (tools/util_png.c).
 *
 * Layout is deliberately simple: one glyph per code point through cmap, advances at the location
 * (HVAR or phantom points), pair kerning from a `kern` table (format 0) when the font has one.
 * No GSUB/GPOS, no bidi, no clusters: for real shaping use HarfBuzz and draw its glyph ids and
 * positions with otv_glyph_outline (docs/render.md).
 */
#ifndef OTV_RENDER_H
#define OTV_RENDER_H

#include "otvar.h"

#include <stdio.h>

/* ---- text (util_text.c) ---- */

typedef struct txt_glyph {
  uint32_t gid;
  float x;       /* pen position of the glyph origin, font units */
  float advance; /* font units */
  float y;       /* vertical offset of the glyph (shaping: marks), font units, up */
} txt_glyph;

typedef struct txt_line {
  txt_glyph *g; /* malloc'd */
  size_t n;
  float width; /* total advance, font units */
} txt_line;

/* Lay out code points in one line at the location. Code points without a glyph are an error
 * (-1, *missing set to the first such code point) unless skip_missing: 1 drops them, 2 draws
 * them as .notdef (glyph 0). The shaped layout is shp_line (shape.h).
 * Returns 0 ok, -1 missing glyph, -2 out of memory. */
int txt_layout(otv_location *loc, const uint32_t *cps, size_t n, int kern, int skip_missing,
               txt_line *out, uint32_t *missing);
void txt_line_free(txt_line *l);

/* Kerning value (font units) of the pair in the font's `kern` table (format 0 subtables that are
 * horizontal and not cross-stream; 0 when none). */
int txt_kern(const otv_face *face, uint32_t left, uint32_t right);

struct svg_pen;
/* Draw a laid-out line into a rasterizer r, or as SVG path data into svg (one of them non-NULL):
 * glyph outlines at the location, `scale` pixels per font unit, baseline origin at (ox, oy) in
 * pixels (y down), slant = synthetic oblique (0: none). */
otv_status txt_draw(otv_location *loc, const txt_line *l, double scale, double ox, double oy,
                    double slant, otv_raster *r, struct svg_pen *svg);

/* Font-wide vertical metrics at the location, font units: ascender (> 0), descender (< 0), and
 * line gap, from MVAR/hhea/OS/2 with em-based fallbacks. */
void txt_vmetrics(otv_location *loc, float *asc, float *desc, float *gap);

/* True when every code point of the UTF-8 string has a glyph in the face. */
int txt_covers(const otv_face *face, const char *utf8);

/* ---- pictures (util_png.c) ---- */

/* An 8-bit coverage layer painted in one colour (0xRRGGBB). */
typedef struct pic_layer {
  const uint8_t *cov; /* w * h bytes, rows w apart */
  uint32_t color;
} pic_layer;

/* Write layers over a background (0xRRGGBB, or transparent) as PNG: 8-bit gray when the
 * background and every colour are gray and opaque, else 8-bit RGBA. Returns 0, or -1 with a
 * message on stderr (also when the CLI was built without libpng). */
int pic_write_png(FILE *f, unsigned w, unsigned h, uint32_t bg, int transparent,
                  const pic_layer *layers, int n);

/* Parse RRGGBB (or #RRGGBB) into 0xRRGGBB; returns -1 when malformed. */
int pic_parse_color(const char *s, uint32_t *out);

/* A pen that writes SVG path data (absolute M/L/Q/C/Z, 2 decimals) of outlines transformed by
 * `t` (font units -> SVG pixels, y down) into f. */
typedef struct svg_pen {
  FILE *f;
  otv_transform t;
} svg_pen;
const otv_pen *svg_pen_funcs(void);

#endif

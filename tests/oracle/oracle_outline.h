/*
 * oracle_outline.h - shared helpers of the outline differential tests and benchmarks: open one
 * font in otvar, HarfBuzz and FreeType, set the SAME normalized coordinates in all three, get a
 * glyph outline from each as a canonical path, and compare paths. Flavour-neutral: works for glyf,
 * CFF and CFF2 fonts alike.
 *
 * Canonical path (oo_path): a list of contours; each contour is its start point and its segments
 * (L, Q, C) where the last segment ends at the start point (an explicit closing line is added
 * when a source left the contour open), FreeType's always-emitted closing line is dropped when it
 * has zero length, and contours without segments are dropped. This removes the only differences
 * between the three drawing conventions (FreeType's FT_Outline_Decompose always closes with a
 * line_to, HarfBuzz's draw session only when needed and drops lone move_tos). HarfBuzz may start
 * a contour at another point than FreeType/otvar: oo_path_diff can compare contours up to
 * rotation.
 */
#ifndef OTV_ORACLE_OUTLINE_H
#define OTV_ORACLE_OUTLINE_H

#include "otvar.h"

#include <stdio.h>

#include <ft2build.h>
#include FT_FREETYPE_H
#include <hb.h>

typedef struct oo_seg {
  char op;    /* 'L', 'Q', 'C' */
  float p[6]; /* L: end; Q: control, end; C: c1, c2, end */
} oo_seg;

typedef struct oo_contour {
  float x0, y0;    /* start (move_to) */
  size_t first, n; /* segments [first, first + n) of the path */
} oo_contour;

typedef struct oo_path {
  oo_seg *seg;
  size_t n_seg, cap_seg;
  oo_contour *con;
  size_t n_con, cap_con;
  int open;     /* a contour is being built */
  float cx, cy; /* current point */
  int ft_close; /* set while decoding FreeType: drop its final zero-length closing line */
} oo_path;

void oo_path_clear(oo_path *p);
void oo_path_free(oo_path *p);
/* Canonical form (see above); call after the last callback (the oo_* getters do). */
void oo_path_finish(oo_path *p);
/* Drop every zero-length line (for comparisons up to rotation: HarfBuzz emits some). */
void oo_path_drop_zero_lines(oo_path *p);
/* The same for lines no longer than len in x and in y (len 0: zero-length lines). */
void oo_path_drop_short_lines(oo_path *p, float len);
/* An otvar pen that appends to the oo_path given as ctx. */
extern const otv_pen oo_otv_pen;

/* Max abs coordinate difference between two canonical paths, or -1 when their structure differs
 * (contour count, segment count or segment kinds). rotate: allow each contour of b to start at
 * another segment than a's. *why (may be NULL) receives a short description of a mismatch. */
double oo_path_diff(const oo_path *a, const oo_path *b, int rotate, const char **why);
/* Print a path as an SVG-like string, for failure messages. */
void oo_path_print(FILE *f, const oo_path *p);

typedef struct oo_font {
  unsigned char *data;
  size_t len;
  otv_face *face;
  otv_location *loc;
  hb_blob_t *blob;
  hb_face_t *hb_face;
  hb_font_t *hb_font;
  hb_draw_funcs_t *hb_draw;
  FT_Library ft_lib;
  FT_Face ft;
  unsigned axis_count, glyph_count, upem;
  int ft_ok; /* FreeType opened it */
} oo_font;

/* Open path in all three (face index 0). Returns 0, or -1 with a message on stderr (a missing
 * file is -2, silently: callers print SKIP). */
int oo_font_open(oo_font *o, const char *path);
void oo_font_close(oo_font *o);
/* Set the same normalized (post-avar, F2Dot14) coordinates in otvar, HarfBuzz and FreeType. */
void oo_font_set_normalized(oo_font *o, const otv_f2dot14 *coords, unsigned n);
/* Outlines at the current coordinates. otv: otv_glyph_outline (flags as there). hb:
 * hb_font_draw_glyph at scale = upem. ft: FT_Load_Glyph(NO_SCALE | NO_HINTING) +
 * FT_Outline_Decompose. Each returns 0 or -1 (otv: the status is in *st when st != NULL). */
int oo_otv_outline(oo_font *o, unsigned gid, unsigned flags, oo_path *p, otv_status *st);
int oo_hb_outline(oo_font *o, unsigned gid, oo_path *p);
int oo_ft_outline(oo_font *o, unsigned gid, oo_path *p);
/* FreeType's loaded outline (NO_SCALE | NO_HINTING) for point-level checks; NULL on failure. */
const FT_Outline *oo_ft_load(oo_font *o, unsigned gid);
/* Horizontal advance: HarfBuzz at scale = upem; FreeType NO_SCALE (font units). */
int oo_hb_advance(oo_font *o, unsigned gid);
long oo_ft_advance(oo_font *o, unsigned gid);

/* Deterministic PRNG (xorshift64*) for random locations. */
static inline unsigned long long oo_rand(unsigned long long *s)
{
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 2685821657736338717ULL;
}
/* A random normalized coordinate in [-16384, 16384]. */
static inline otv_f2dot14 oo_rand_coord(unsigned long long *s)
{
  return (otv_f2dot14)((long)(oo_rand(s) % 32769u) - 16384);
}

/* $OTV_FONT_CACHE/name, or NULL when unset. Static buffer. */
const char *oo_cache_font(const char *name);

#endif

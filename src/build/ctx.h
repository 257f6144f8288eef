/*
 * build/ctx.h - the variable-font builder's shared state (otv_build in otvar.h): the masters opened
 * and matched to the default, the normalized locations and the variation model, and the table
 * builders. Files: build.c (orchestration, fvar, avar, STAT, name), ctx.c (this state's helpers),
 * master.c (opening the masters, glyph matching, glyph points and phantom points), tvs.c (gvar and
 * cvar), store.c (ItemVariationStore, HVAR, MVAR), model.c (the variation model).
 */
#ifndef OTV_BUILD_CTX_H
#define OTV_BUILD_CTX_H

#include "build/model.h"
#include "core/sfnt.h"
#include "core/writer.h"
#include "glyf.h"
#include "hmtx.h"

/* One master font, opened. */
typedef struct otv_bmaster {
  const char *name;
  otv_sfnt sfnt;
  uint32_t glyph_count;
  otv_glyf glyf;
  otv_mtx h, v;
  otv_vorg vorg;    /* VORG (present: false without one): VVAR's vertical origin deltas */
  uint32_t *gid_of; /* default glyph id -> this master's glyph id, UINT32_MAX: missing */
  otv_coords at;    /* no axes: the glyf loader reads default outlines */
  /* TrueType masters: the glyf loader (about 3 KB), allocated on its own: the masters' array is
   * zeroed at start, and a CFF master's entry then stays small (docs/build.md "Start-up, sixth
   * pass"); NULL: none */
  otv_glyf_loc *loader;
  struct otv_bcff *cff; /* CFF or CFF2 master (build/cff2.c), NULL: TrueType */
} otv_bmaster;

/* A glyph's points in one master: n points (the 4 phantom points last), contour ends (simple
 * glyphs; composites: none, every point stands alone) and component glyph ids (composites). */
typedef struct otv_bglyph {
  double *x, *y;
  size_t cap;
  uint8_t *on; /* on-curve flag per point (simple glyphs) */
  size_t on_cap;
  uint16_t *ends;
  size_t ends_cap;
  uint32_t *comp; /* composites: component glyph ids (default's numbering) */
  size_t comp_cap;
  unsigned n, end_count, comp_count;
  bool composite, empty, missing; /* missing: the master has no such glyph */
} otv_bglyph;

typedef struct otv_builder {
  const otv_designspace *ds;
  otv_alloc al;
  otv_error *err;
  unsigned ac;      /* axes */
  unsigned mc;      /* masters */
  unsigned base;    /* index of the default master */
  otv_bmaster *m;   /* mc masters */
  double *norm;     /* mc x ac normalized locations */
  otv_vmodel model; /* of all masters */
  /* sub-models of sparse masters, by the mask of the masters present */
  struct otv_bsub {
    otv_mset mask;
    otv_vmodel model;
  } * subs;
  unsigned sub_count, sub_cap;
  /* tables built, in out_tables order */
  otv_buf tab[16];
  uint32_t tag[16];
  unsigned tab_count;
  otv_buf name; /* the new name table */
  /* per-glyph scratch */
  otv_bglyph *g;  /* mc glyphs */
  double *vals;   /* master values, mc x width */
  double *deltas; /* model deltas, mc x width */
  size_t vals_cap, deltas_cap;
  bool cff; /* CFF or CFF2 masters: CFF2 is built instead of gvar (build/cff2.c) */
} otv_builder;

/* ctx.c: the model of the masters in mask (all: &b->model) */
otv_status otv_build_submodel(otv_builder *b, const otv_mset *mask, const otv_vmodel **out);
/* ctx.c: a new table buffer for tag */
otv_buf *otv_build_table(otv_builder *b, uint32_t tag);
/* ctx.c: F2Dot14 of a normalized value, as fontTools' fl2fi (round half up) */
int otv_build_f2(double v);

/* tvs.c: one tuple of a store being written */
typedef struct otv_btuple {
  int16_t peak[OTV_MAX_AXES], start[OTV_MAX_AXES], end[OTV_MAX_AXES];
  bool intermediate;
  int shared;          /* gvar shared tuple index, -1: embedded */
  const uint8_t *keep; /* n flags: the points listed */
  unsigned kept;
  const int32_t *d; /* dims x n deltas */
} otv_btuple;
/* A spare-capacity helper for doubles. */
#define OTV_BRESERVE(b, arr, cap, need) OTV_RESERVE(&(b)->al, &(arr), &(cap), (need), sizeof *(arr))

#endif /* OTV_BUILD_CTX_H */

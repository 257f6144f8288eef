/*
 * face.h - the two objects of the public API: the face (an opened font, immutable, shared by
 * threads) and the location (a point of its design space, one thread's caches and scratch).
 * The face holds every table module's parsed form; the location holds every module's
 * per-location state, bound to it at creation (coords.h: otv_locctx).
 *
 * Layering (docs/architecture.md): core/ knows no table; the table modules (fvar.h ... glyf.h,
 * charstring.h, metrics.h) know their tables and the shared formats below them, never the face;
 * this header and the files that implement the public API on a face or a location (face.c,
 * location.c, outline.c, metrics.c) sit on top of them; instance/ is above those.
 */
#ifndef OTV_FACE_H
#define OTV_FACE_H

#include "core/core.h"
#include "core/sfnt.h"
#include "coords.h"
#include "fvar.h"
#include "stat.h"
#include "name.h"
#include "cmap.h"
#include "glyf.h"
#include "charstring.h"
#include "hmtx.h"
#include "hvar.h"
#include "mvar.h"

/* The metrics tables the metrics API (metrics.c) reads, and the location's region-scalar caches
 * of their stores. */
typedef struct otv_metrics {
  bool present;
  otv_mtx h, v;
  otv_xvar hvar, vvar;
  otv_mvar mvar;
  otv_vorg vorg;
  /* Font-wide tables (spans into the font; empty when absent). */
  otv_mvar_bases bases; /* OS/2, hhea, vhea, post, gasp */
  otv_span head;
} otv_metrics;

/* Row memo (metrics.c xdelta): deltas of HVAR/VVAR rows of many regions at the location. */
#define OTV_XVAR_MEMO 16u
typedef struct otv_xvar_memo {
  uint32_t serial; /* the location serial the delta is of; 0: empty */
  uint32_t outer, inner;
  float delta;
} otv_xvar_memo;

typedef struct otv_metrics_loc {
  otv_ivs_cache hvar, vvar, mvar;
  otv_xvar_memo hmemo[OTV_XVAR_MEMO], vmemo[OTV_XVAR_MEMO];
} otv_metrics_loc;

/* ---- the face: immutable after open ---- */
struct otv_face {
  otv_alloc al;
  otv_sfnt sfnt; /* the file (borrowed or mapped) and the face's table directory */
  void *map;     /* mmap base when the face owns a mapping */
  size_t map_len;
  otv_flavour flavour;
  uint16_t units_per_em;
  int16_t index_to_loc_format;
  uint32_t glyph_count;
  otv_fvar fvar; /* fvar + avar (fvar.h) */
  otv_stat stat;
  otv_name name;
  otv_cmap cmap;
  otv_glyf glyf;            /* glyf + loca + gvar (glyf.h, gvar.h) */
  otv_cff cff;              /* 'CFF ' or CFF2 (cff.h) */
  otv_metrics met;          /* hmtx/vmtx/HVAR/VVAR/MVAR/VORG (above) */
  unsigned opt_flags;       /* otv_options.flags (OTV_OPT_NO_OUTLINE_CACHES) */
  size_t outline_cache_max; /* OTV_OPT_OUTLINE_CACHE_KIB in bytes (0: the defaults) */
};

/* The span of a table (empty span with p == NULL when absent). */
static inline otv_span otv_face_span(const otv_face *f, uint32_t tag)
{
  return otv_sfnt_find(&f->sfnt, tag);
}
static inline bool otv_face_has(const otv_face *f, uint32_t tag)
{
  return otv_face_span(f, tag).p != NULL;
}

/* ---- the location: one thread, caches and scratch ---- */
struct otv_location {
  const otv_face *face;
  otv_alloc al;
  otv_error last_error;
  otv_coords at;        /* the coordinates as the modules see them (at.v == coords) */
  otv_locctx x;         /* at, al and last_error, as the modules take them */
  otv_f2dot14 *coords;  /* final normalized coordinates (after avar), at.axis_count entries */
  int32_t *fixed;       /* the 16.16 normalized values (otv_location_normalized_fixed) */
  int32_t *q;           /* the 16.16 coordinates evaluated with (at.q: coords.h) */
  double *user;         /* user coordinates as last set (defaults after set_normalized) */
  otv_norm_model model; /* how user coordinates are normalized (otvar.h) */
  bool from_user;       /* coords came from user values or a named instance (not normalized) */
  otv_glyf_loc glyf;    /* glyf/gvar per-location cache and scratch */
  otv_cff_loc cff;      /* CFF2 blend scalars and scratch */
  otv_metrics_loc met;  /* HVAR/VVAR/MVAR scalar caches */
  otv_budget work;      /* work of the calls since otv_location_set_work_budget (core/budget.h) */
};

/* Record an error in the location (first error wins until the next reset) and return code. */
#define otv_loc_fail(loc, code, table, off, ...)                                                   \
  otv_fail(&(loc)->last_error, (code), (table), (off), __VA_ARGS__)

#endif /* OTV_FACE_H */

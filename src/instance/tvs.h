/*
 * instance/tvs.h - tuple variation stores (gvar glyph data, cvar) in static and partial
 * instances: decoded by tuple.h, evaluated in double in the order of fontTools' instancer.
 * Implemented in instance/tvs.c.
 */
#ifndef OTV_INSTANCE_TVS_H
#define OTV_INSTANCE_TVS_H

#include "instance/region.h"
#include "core/writer.h"

/* The scratch of the tuple store code, grown and reused from store to store, freed with the
 * instance (otv_tvs_work_free). */
typedef struct otv_tvs_work {
  /* one store: its shared and a tuple's private point numbers */
  uint16_t *shared_points, *private_points;
  size_t shared_points_cap, private_points_cap;
  /* one tuple's deltas for every point, and which points it lists (or IUP keeps) */
  double *dx, *dy;
  uint8_t *listed;
  size_t point_cap;
  /* a sparse tuple's deltas in list order, before they are scattered */
  double *list_x, *list_y;
  size_t list_x_cap, list_y_cap;
  /* gvar's shared tuples with implied regions: their factors, once per instance (full) */
  const uint8_t *shared_tuples; /* the tuples these were computed for */
  int *shared_k;                /* per shared tuple: factor count, -1: does not apply */
  double *shared_factors;       /* per shared tuple: axis_count slots */
  unsigned shared_count;
  /* partial instances: the kept tuples of one store, summed per kept region */
  otv_piece *pieces; /* OTV_PIECES_MAX: one region's pieces (otv_pin_pieces) */
  void *kept;        /* kept_cap bytes of kept-tuple records (tvs.c) */
  size_t kept_cap;
  double *kept_deltas; /* per kept tuple: n (x) then n (y) exact deltas */
  size_t kept_deltas_cap;
  int32_t *rounded; /* one kept tuple's deltas, rounded */
  size_t rounded_cap;
  int *iup_cost; /* IUP point choice: dynamic programming scratch */
  size_t iup_cost_cap;
  otv_buf packed; /* one store's packed point numbers and deltas */
  /* partial gvar: the shared tuples (peaks over the kept axes) of the new table */
  int16_t *peaks; /* peak_count x kept_count */
  size_t peaks_cap;
  unsigned peak_count;
  uint16_t *peak_slots; /* hash of the peaks (OTV_TVS_PEAK_SLOTS slots, index + 1) */
} otv_tvs_work;

#define OTV_TVS_PEAK_SLOTS 8192u /* > 2 x 4095, the most shared tuples gvar can index */

void otv_tvs_work_init(otv_tvs_work *w, const otv_alloc *al);
void otv_tvs_work_free(otv_tvs_work *w, const otv_alloc *al, unsigned axis_count);

/* The factors of every gvar shared tuple with its implied region (the common case), computed
 * once: otv_tvs_sum then reads them. */
otv_status otv_tvs_shared_factors(const otv_ictx *cx, otv_tvs_work *w, const uint8_t *shared,
                                  unsigned shared_count);

/* One store to evaluate: data and hdr as otv_tvs_open (tuple.h) takes them, its tag and the
 * table offset of data for errors, gvar's shared tuples (NULL for cvar), and the n points it
 * varies: for a simple glyph their default coordinates (orig_x/orig_y, n with the 4 phantom
 * points) and contour ends (ends[end_count], the phantoms as one-point contours), for inferred
 * deltas (IUP); composites and cvar pass NULL/0 (points a tuple leaves out get no delta). cvar
 * is one-dimensional: acc_y / two_dim false. */
typedef struct otv_tvs_in {
  otv_span data;
  size_t hdr;
  uint32_t tag;
  size_t tab_off;
  const uint8_t *shared;
  uint16_t shared_count;
  unsigned n;
  const double *orig_x, *orig_y;
  const uint16_t *ends;
  unsigned end_count;
} otv_tvs_in;

/* cvar (spec: cvar): its header checked (version 1) and the store it holds over cvt_count CVT
 * values described in *out. The cvar table is read nowhere else. */
otv_status otv_tvs_cvar(const otv_ictx *cx, otv_span cvar, unsigned cvt_count, otv_tvs_in *out);

/* Full instances: the deltas of the store at the pin, summed into acc_x/acc_y (n entries; acc_y
 * NULL for cvar): every tuple's deltas scaled in double, axis by axis in tag order, inferred
 * deltas computed on the scaled deltas of each tuple, the tuples summed in order, as fontTools'
 * instancer does, so that rounding the result matches it. */
otv_status otv_tvs_sum(const otv_ictx *cx, otv_tvs_work *w, const otv_tvs_in *s, double *acc_x,
                       double *acc_y);

/* Partial instances: the kept tuples of the store appended to out as a new store: every
 * tuple's region restricted to the kept axes, its deltas made explicit for all n points (IUP
 * against orig_x/orig_y for simple glyphs), scaled by the pinned axes' factors, summed per kept
 * region and rounded; tuples whose region has no kept axis are left out (the default has them
 * folded in). rel_base: where in out the store's offsets count from. new_x/new_y: the new
 * default outline (rounded), which IUP will use in the output, so points it infers within 0.5
 * of their exact delta are left out. gvar's new shared tuples are collected in w (peaks). */
otv_status otv_tvs_partial(const otv_ictx *cx, otv_tvs_work *w, const otv_tvs_in *s,
                           const double *new_x, const double *new_y, bool two_dim, otv_buf *out,
                           size_t rel_base);

#endif /* OTV_INSTANCE_TVS_H */

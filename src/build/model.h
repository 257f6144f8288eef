/*
 * build/model.h - the variation model of a set of masters (spec: otvaroverview "Variation data"
 * and otvarcommonformats "Algorithm for interpolation of instance values"): masters ordered,
 * one region (support) per master, and the deltas that reproduce every master's values when
 * the regions' scalars are summed. The ordering and the region splitting are those of
 * fontTools' VariationModel (4.38), so that otvar builds the same tuples from the same masters:
 *   - order: the default first, then by number of non-zero axes, by how many of those values
 *     are on-axis master values, by axis order, by sign, then by magnitude (stable otherwise);
 *   - region of a master: per non-zero axis (0, v, max) or (min, v, 0) over the masters' range,
 *     narrowed by every earlier master on the same axes that lies inside it, cutting the axes of
 *     the largest ratio so the earlier peak is outside (intermediate regions);
 *   - delta weights: the scalar of every earlier region at the master's location.
 * Implemented in build/model.c.
 */
#ifndef OTV_BUILD_MODEL_H
#define OTV_BUILD_MODEL_H

#include "core/core.h"

#include <stdbool.h>
#include <string.h>

#define OTV_BUILD_MAX_MASTERS 256u /* a multiple of 64 (Handjet's round trip: 168) */

/* A set of masters (their indexes in the builder's order): a bitset of OTV_BUILD_MAX_MASTERS. */
typedef struct otv_mset {
  uint64_t w[OTV_BUILD_MAX_MASTERS / 64];
} otv_mset;

static inline void otv_mset_add(otv_mset *s, unsigned k)
{
  s->w[k >> 6] |= (uint64_t)1 << (k & 63);
}
static inline void otv_mset_del(otv_mset *s, unsigned k)
{
  s->w[k >> 6] &= ~((uint64_t)1 << (k & 63));
}
static inline bool otv_mset_has(const otv_mset *s, unsigned k)
{
  return s->w[k >> 6] >> (k & 63) & 1;
}
static inline bool otv_mset_eq(const otv_mset *a, const otv_mset *b)
{
  return !memcmp(a->w, b->w, sizeof a->w);
}
/* The masters 0 .. n-1 (n <= OTV_BUILD_MAX_MASTERS) */
static inline otv_mset otv_mset_first(unsigned n)
{
  otv_mset s;
  memset(&s, 0, sizeof s);
  for (unsigned k = 0; k < n; k++) otv_mset_add(&s, k);
  return s;
}
static inline otv_mset otv_mset_one(unsigned k)
{
  otv_mset s;
  memset(&s, 0, sizeof s);
  otv_mset_add(&s, k);
  return s;
}
static inline unsigned otv_mset_count(const otv_mset *s)
{
  unsigned n = 0;
  for (unsigned i = 0; i < OTV_BUILD_MAX_MASTERS / 64; i++)
    for (uint64_t v = s->w[i]; v; v &= v - 1) n++;
  return n;
}

typedef struct otv_vmodel {
  unsigned axis_count;
  unsigned count;                        /* masters in the model */
  unsigned order[OTV_BUILD_MAX_MASTERS]; /* model position -> index in the locations given */
  double *support; /* count x axis_count x {start, peak, end}; peak 0: the axis is not used */
  double *weight;  /* count x count: weight[i * count + j] (j < i) of delta j in master i */
} otv_vmodel;

/* The model of n masters (n <= OTV_BUILD_MAX_MASTERS) at normalized locations locs[n][axis_count]
 * (each in [-1, 1]). Exactly one location must be the origin and no two may be equal
 * (OTV_E_BAD_VALUE naming the masters). */
otv_status otv_vmodel_init(otv_vmodel *m, const double *locs, unsigned n, unsigned axis_count,
                           const otv_alloc *al, otv_error *err);
void otv_vmodel_free(otv_vmodel *m, const otv_alloc *al);

/* The scalar of region `region` (axis_count triples) at normalized location loc (spec's
 * algorithm; an axis whose peak is 0 does not take part). */
double otv_vmodel_scalar(const double *region, const double *loc, unsigned axis_count);

/* The deltas of `width` values per master: values[k * stride + c] is value c of master k (in
 * the order of the locations given); out[i * width + c] gets delta c of model position i. Each
 * delta is rounded half to even before the next is computed (as fontTools' getDeltas with
 * Python's round), so the rounding errors do not add up along the chain. */
void otv_vmodel_deltas(const otv_vmodel *m, const double *values, size_t stride, size_t width,
                       double *out);

#endif /* OTV_BUILD_MODEL_H */

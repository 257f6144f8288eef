/*
 * ivs.h - the shared variation formats of otvarcommonformats: region scalars,
 * ItemVariationStore and DeltaSetIndexMap. Used by avar v2, HVAR, VVAR, MVAR, CFF2 and GDEF.
 */
#ifndef OTV_IVS_H
#define OTV_IVS_H

#include "coords.h"

/* spec: ItemVariationData wordDeltaCount flag / mask */
#define OTV_IVD_LONG_WORDS 0x8000u
#define OTV_IVD_WORD_COUNT_MASK 0x7FFFu

/* One ItemVariationData subtable, validated at parse. */
typedef struct otv_ivd {
  const uint8_t *rows; /* item_count rows of row_len bytes (in range: checked at parse) */
  /* region_index_count u16 (span checked at parse; an index >= region_count contributes
   * nothing, as in HarfBuzz) */
  const uint8_t *region_indexes;
  uint16_t item_count;
  uint16_t word_count; /* number of "word" (or "long" when long_words) columns */
  uint16_t region_index_count;
  bool long_words; /* wordDeltaCount & OTV_IVD_LONG_WORDS: 32-bit and 16-bit columns */
  uint32_t row_len;
} otv_ivd;

typedef struct otv_ivs {
  bool present;
  uint16_t axis_count;
  uint16_t region_count;
  const uint8_t *regions; /* region_count * axis_count * 3 F2Dot14 (checked at parse) */
  uint16_t data_count;
  otv_ivd *data; /* data_count entries, owned by the face allocator */
} otv_ivs;

/* Parse an ItemVariationStore at byte `off` of table span `tab` (tag for errors). A NULL offset
 * is the caller's business (it leaves *out zeroed). axis_count is fvar's: a store whose regions
 * name more axes is OTV_E_BAD_VALUE. */
otv_status otv_ivs_parse(const otv_alloc *al, otv_span tab, uint32_t tag, size_t off,
                         uint16_t axis_count, otv_ivs *out, otv_error *err);
void otv_ivs_free(const otv_alloc *al, otv_ivs *ivs);
/* Where the store parsed from tab at off ends: one past its last byte (header, region list,
 * every ItemVariationData's region indexes and rows). Writers copy a store as [off, end). */
size_t otv_ivs_end(const otv_ivs *ivs, otv_span tab, size_t off);

/* Column j of an ItemVariationData row: its byte offset in the row and width (1, 2 or 4:
 * wordDeltaCount's "word" columns first, 32-bit with long_words). */
static inline size_t otv_ivd_column(const otv_ivd *v, unsigned j, unsigned *width)
{
  unsigned big = v->long_words ? 4 : 2, small = v->long_words ? 2 : 1, wc = v->word_count;
  *width = j < wc ? big : small;
  return j < wc ? (size_t)j * big : (size_t)wc * big + (size_t)(j - wc) * small;
}
/* The delta in column j of a row (in range: rows checked in otv_ivs_parse, j < columns). */
static inline int32_t otv_ivd_delta(const otv_ivd *v, const uint8_t *row, unsigned j)
{
  unsigned w;
  const uint8_t *q = row + otv_ivd_column(v, j, &w);
  return w == 4 ? otv_peek_i32(q) : w == 2 ? otv_peek_i16(q) : (int8_t)q[0];
}
/* The region index of column j (may be >= region_count: such a column contributes nothing). */
static inline unsigned otv_ivd_region(const otv_ivd *v, unsigned j)
{
  return otv_peek_u16(v->region_indexes + 2 * (size_t)j); /* in range: checked at parse */
}
/* Region r (< region_count) as start/peak/end over axis_count axes; axes past the store's own
 * count are 0. */
static inline void otv_ivs_region(const otv_ivs *ivs, unsigned r, unsigned axis_count,
                                  int16_t *start, int16_t *peak, int16_t *end)
{
  /* in range: regions checked in otv_ivs_parse (r < region_count) */
  const uint8_t *rg = ivs->regions + (size_t)r * ivs->axis_count * 6;
  for (unsigned a = 0; a < axis_count; a++) {
    bool in_store = a < ivs->axis_count;
    start[a] = in_store ? otv_peek_i16(rg + 6 * a) : 0;
    peak[a] = in_store ? otv_peek_i16(rg + 6 * a + 2) : 0;
    end[a] = in_store ? otv_peek_i16(rg + 6 * a + 4) : 0;
  }
}

/* Fill scalars[region_count] for normalized coords[axis_count], in 16.16 (coords.h). */
void otv_ivs_region_scalars(const otv_ivs *ivs, const int32_t *coords, unsigned axis_count,
                            float *scalars);
/* The same for F2Dot14 coordinates (equal to the above at coords x 4, bit for bit). */
void otv_ivs_region_scalars_f2(const otv_ivs *ivs, const otv_f2dot14 *coords, unsigned axis_count,
                               float *scalars);

/* sum(scalar x delta) of item (outer, inner); 0 when the indices are out of range (as HarfBuzz
 * and FreeType do: a missing delta set means no variation). scalars from otv_ivs_region_scalars. */
float otv_ivs_delta(const otv_ivs *ivs, const float *scalars, uint32_t outer, uint32_t inner);

/* Per-location lazily computed region scalars of one store. */
typedef struct otv_ivs_cache {
  float *scalars;
  size_t cap;
  uint32_t serial; /* location serial the scalars belong to; 0: never computed */
} otv_ivs_cache;

/* otv_ivs_cache_get when the location moved since the scalars were computed. */
const float *otv_ivs_cache_fill(const otv_locctx *x, const otv_ivs *ivs, otv_ivs_cache *c);

/* Scalars of ivs at the location, recomputed only when its coordinates changed; NULL on NOMEM
 * (recorded in x->err). Inline: the metrics calls ask for every glyph run. */
static inline const float *otv_ivs_cache_get(const otv_locctx *x, const otv_ivs *ivs,
                                             otv_ivs_cache *c)
{
  if (c->serial == x->at->serial && c->scalars) return c->scalars;
  return otv_ivs_cache_fill(x, ivs, c);
}
void otv_ivs_cache_free(const otv_alloc *al, otv_ivs_cache *c);

/* The exact evaluator, for static instances: an item's delta summed in double over its columns
 * in region-list order (the order fontTools' instancer sums them), each delta multiplied in
 * turn by the k[r] factors of its region (s + r * stride; k[r] < 0: the region does not apply),
 * memoized per item. The caller fills k and s (its location's region factors) after init. */
typedef struct otv_ivs_exact {
  const otv_ivs *ivs;
  unsigned stride;
  int *k;           /* per region: number of factors, -1 when the region does not apply */
  double *s;        /* per region: its factors (stride slots) */
  double **memo;    /* per ItemVariationData: item deltas, NaN until computed */
  uint16_t **order; /* per ItemVariationData: columns sorted by region index */
} otv_ivs_exact;
otv_status otv_ivs_exact_init(const otv_alloc *al, const otv_ivs *ivs, unsigned stride,
                              otv_ivs_exact *e);
/* 0 for indices out of range. */
double otv_ivs_exact_get(const otv_alloc *al, otv_ivs_exact *e, uint32_t outer, uint32_t inner);
void otv_ivs_exact_fini(const otv_alloc *al, otv_ivs_exact *e);

/* DeltaSetIndexMap (formats 0 and 1). */
typedef struct otv_dsim {
  bool present;
  uint8_t entry_size; /* 1..4 bytes */
  uint8_t inner_bits; /* 1..16 */
  uint32_t map_count;
  const uint8_t *entries; /* map_count * entry_size (checked at parse) */
  size_t end_off;         /* table offset just past the map */
} otv_dsim;

otv_status otv_dsim_parse(otv_span tab, uint32_t tag, size_t off, otv_dsim *out, otv_error *err);
/* Map an index to (outer, inner). Past the end the last entry is used (spec); an empty map gives
 * outer = idx >> 16, inner = idx & 0xFFFF. Absent map: outer 0, inner idx (implicit mapping). */
void otv_dsim_map(const otv_dsim *m, uint32_t idx, uint32_t *outer, uint32_t *inner);

#endif /* OTV_IVS_H */

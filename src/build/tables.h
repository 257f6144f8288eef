/* build/tables.h - the variation tables of a build: gvar and cvar (tvs.c), HVAR and MVAR
 * (store.c), the store of avar 2 (store.c). */
#ifndef OTV_BUILD_TABLES_H
#define OTV_BUILD_TABLES_H

#include "build/ctx.h"

/* tvs.c */
otv_status otv_build_gvar(otv_builder *b);
otv_status otv_build_cvar(otv_builder *b);
/* store.c */
otv_status otv_build_hvar(otv_builder *b);
otv_status otv_build_vvar(otv_builder *b);
otv_status otv_build_mvar(otv_builder *b);
/* store.c: the rest of an avar version 2 table begun in t at avar_start (header and segment
 * maps written): the axisIndexMap and varStore offsets and what they point at. md: the model
 * of the mappings' input locations; vals[a * md->count + k]: axis a's delta (F2Dot14 units) at
 * input location k (the order given to md). */
otv_status otv_build_avar2(otv_builder *b, const otv_vmodel *md, const double *vals, otv_buf *t,
                           size_t avar_start);

/* store.c: an ItemVariationStore of `rows` rows appended to out: row r holds the values
 * vals[r * stride + k] of the masters k in mask (the default among them); item_of[r] gets its
 * (outer << 16 | inner). */
otv_status otv_build_store(otv_builder *b, const otv_mset *mask, const int32_t *vals, size_t stride,
                           size_t rows, uint32_t *item_of, otv_buf *out);
/* gpos.c: GPOS and GDEF merged from the masters' GPOS (values varying across masters become
 * VariationIndex devices in GDEF's store); nothing built when no value varies. */
otv_status otv_build_gpos(otv_builder *b);
/* gpos.c: BASE merged (coordinates varying across masters become VariationIndex devices in
 * BASE 1.1's own store); nothing built when none varies. */
otv_status otv_build_base(otv_builder *b);

/* gsub.c: GSUB with FeatureVariations from the designspace's rules: box_count boxes, box q
 * (normalized F2Dot14 bounds lo/hi[q * axes + a]) a condition set of rule box_rule[q]. */
otv_status otv_build_gsub(otv_builder *b, const int16_t *lo, const int16_t *hi,
                          const unsigned *box_rule, unsigned box_count);

#endif /* OTV_BUILD_TABLES_H */

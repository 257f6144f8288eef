/*
 * instance/store.h - ItemVariationStores (HVAR, VVAR, MVAR, GDEF, CFF2, avar 2) in static and
 * partial instances: their deltas at the pin, exact (ivs.h's double evaluator with the pin's
 * region factors), and a store rewritten for a partial instance. Implemented in
 * instance/store.c.
 */
#ifndef OTV_INSTANCE_STORE_H
#define OTV_INSTANCE_STORE_H

#include "instance/region.h"
#include "ivs.h"
#include "core/writer.h"

/* The deltas of a store at the pin (full instances; a partial instance's new default), region
 * factors in fontTools' order (otv_pin_factors), memoized. */
typedef otv_ivs_exact otv_inst_ivs;
otv_status otv_inst_ivs_init(const otv_ictx *cx, const otv_ivs *ivs, otv_inst_ivs *e);
double otv_inst_ivs_get(const otv_ictx *cx, otv_inst_ivs *e, uint32_t outer, uint32_t inner);
void otv_inst_ivs_fini(const otv_ictx *cx, otv_inst_ivs *e);

/* Partial instances: rewrite the ItemVariationStore at ivs_off of table `src` in b (a copy of
 * src): regions restricted to the kept axes, delta columns scaled by the pinned axes' factors and
 * rounded, columns folded into the default (no kept axis) dropped. When the store fills the end
 * of the table without gaps (and may_compact) it is written anew, compacted, in place of the old
 * one; otherwise it is rewritten in place with its layout (the folded columns zeroed); a store
 * whose structures overlap is refused. (outer, inner) references stay valid either way. */
otv_status otv_store_partial(const otv_ictx *cx, otv_span src, otv_buf *b, uint32_t tag,
                             size_t ivs_off, bool may_compact);
/* As otv_store_partial; when axis limits split regions (a store rewritten in place would need
 * more columns) and the store is not the table's tail, the store is appended to b and the
 * table's offset to it (field_size 2 or 4 bytes at field_at, counted from the table's start)
 * repointed; field_size 0: such a store is OTV_E_UNSUPPORTED. */
otv_status otv_store_partial_at(const otv_ictx *cx, otv_span src, otv_buf *b, uint32_t tag,
                                size_t ivs_off, bool may_compact, size_t field_at,
                                unsigned field_size);

/* Partial instances: which items of a store still vary once rewritten (some column of the
 * rewritten row rounds to a non-zero delta); the others are constant at the new default
 * (VariationIndex devices pointing there can go). Computed per item, allocation-free after
 * init. */
typedef struct otv_store_rows otv_store_rows;
otv_status otv_store_rows_init(const otv_ictx *cx, const otv_ivs *ivs, uint32_t tag,
                               otv_store_rows **out);
bool otv_store_row_varies(otv_store_rows *sr, uint32_t outer, uint32_t inner);
void otv_store_rows_free(const otv_ictx *cx, otv_store_rows *sr);

#endif /* OTV_INSTANCE_STORE_H */

/*
 * layout_gpos.h - the layout writer's GPOS sub-tables and values with devices (layout_gpos.c).
 */
#ifndef OTV_LAYOUT_GPOS_H
#define OTV_LAYOUT_GPOS_H

#include "layout_walk.h"

otv_obj otv_lw_single_pos(otv_lw *w, size_t at, unsigned fmt);
otv_obj otv_lw_pair_pos(otv_lw *w, size_t at, unsigned fmt);
otv_obj otv_lw_pair_set(otv_lw *w, size_t ps, uint64_t ctx);
otv_obj otv_lw_cursive_pos(otv_lw *w, size_t at);
otv_obj otv_lw_mark_pos(otv_lw *w, size_t at, unsigned type);
otv_obj otv_lw_mark_array(otv_lw *w, size_t at);
otv_obj otv_lw_anchor_matrix(otv_lw *w, size_t at, uint64_t per);
otv_obj otv_lw_anchor(otv_lw *w, size_t at);
/* CaretValue (GDEF) or BaseCoord (BASE), by kind. */
otv_obj otv_lw_caret_or_coord(otv_lw *w, size_t at, unsigned kind);

/* PairPos format 2 sub-tables (absolute offsets) that can share one class matrix: format 2,
 * the same value formats, class2Count and ClassDef2. */
bool otv_lw_pair_mergeable(otv_lw *w, size_t a, size_t b);
/* A run of such sub-tables merged and cut again into as few as 16-bit offsets allow (static
 * instances); each passed to emit. False, nothing emitted, when it cannot be. */
bool otv_lw_pair_merge(otv_lw *w, const size_t *at, size_t n,
                       void (*emit)(otv_lw *w, otv_obj st, void *ud), void *ud);

#endif /* OTV_LAYOUT_GPOS_H */

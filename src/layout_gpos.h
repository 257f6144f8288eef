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

#endif /* OTV_LAYOUT_GPOS_H */

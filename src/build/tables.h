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
otv_status otv_build_mvar(otv_builder *b);
/* store.c: the rest of an avar version 2 table begun in t at avar_start (header and segment
 * maps written): the axisIndexMap and varStore offsets and what they point at. md: the model
 * of the mappings' input locations; vals[a * md->count + k]: axis a's delta (F2Dot14 units) at
 * input location k (the order given to md). */
otv_status otv_build_avar2(otv_builder *b, const otv_vmodel *md, const double *vals, otv_buf *t,
                           size_t avar_start);

#endif /* OTV_BUILD_TABLES_H */

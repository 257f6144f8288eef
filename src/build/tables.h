/* build/tables.h - the variation tables of a build: gvar and cvar (tvs.c), HVAR and MVAR
 * (store.c). */
#ifndef OTV_BUILD_TABLES_H
#define OTV_BUILD_TABLES_H

#include "build/ctx.h"

/* tvs.c */
otv_status otv_build_gvar(otv_builder *b);
otv_status otv_build_cvar(otv_builder *b);
/* store.c */
otv_status otv_build_hvar(otv_builder *b);
otv_status otv_build_mvar(otv_builder *b);

#endif /* OTV_BUILD_TABLES_H */

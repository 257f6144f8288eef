/* build/master.h - the masters of a build: opening, glyph matching, glyph points (master.c). */
#ifndef OTV_BUILD_MASTER_H
#define OTV_BUILD_MASTER_H

#include "build/ctx.h"

/* master.c */
otv_status otv_bmaster_open(otv_builder *b, unsigned k, const otv_build_source *src);
otv_status otv_bmaster_match(otv_builder *b, unsigned k);
void otv_bmaster_close(otv_builder *b, unsigned k);
/* The points of default glyph gid in master k into *g (g->empty: missing or no outline). */
/* master.c: room for n points (phantom points included), ends contours and n components in g
 * before its first load (a capacity only; loads still grow it as needed) */
otv_status otv_bglyph_reserve(otv_builder *b, otv_bglyph *g, size_t n, size_t ends);
otv_status otv_bglyph_load(otv_builder *b, unsigned k, uint32_t gid, otv_bglyph *g);
void otv_bglyph_free(otv_bglyph *g, const otv_alloc *al);
/* The default master's glyph id of a glyph name (post format 2); false: no such glyph (or out
 * of memory). */
bool otv_bmaster_glyph_by_name(otv_builder *b, const char *name, uint32_t *gid);

#endif /* OTV_BUILD_MASTER_H */

/* build/cff2.h - CFF and CFF2 masters merged into a variable CFF2 table: opening a master's
 * CFF or CFF2 table and matching its glyphs to the default's by charset, names or CIDs
 * (cff2_master.c); building CFF2 (blended charstrings, Private DICTs, VariationStore), maxp 0.5
 * and post (cff2.c). */
#ifndef OTV_BUILD_CFF2_H
#define OTV_BUILD_CFF2_H

#include "build/ctx.h"
#include "cff.h"

/* A CFF or CFF2 master (cff2_master.c). */
typedef struct otv_bcff {
  otv_cff cff;
  uint32_t *sid; /* CFF (v1): per glyph its SID (CID-keyed: CID); NULL: CFF2 */
} otv_bcff;

/* The CFF or CFF2 table of master k (an OTTO font) parsed into b->m[k].cff. */
otv_status otv_bcff_open(otv_builder *b, unsigned k);
void otv_bcff_close(otv_builder *b, unsigned k);
/* Glyphs of master k matched to the default's through both CFF charsets (glyph names or CIDs);
 * *done false when either master has no charset (CFF2: the post names are used instead). */
otv_status otv_bcff_match(otv_builder *b, unsigned k, bool *done);
/* The default master's glyph named name through its CFF charset; *done false when it has none
 * (the post names are used instead). */
bool otv_bcff_glyph_by_name(otv_builder *b, const char *name, uint32_t *gid, bool *done);
/* CFF2 (charstrings with blend and vsindex, Private DICTs blended, the VariationStore), maxp
 * version 0.5 and post from the masters: version 2.0 with the default master's glyph names
 * (its CFF charset; a CFF2 or CID-keyed master: its own post 2.0 names), else version 3.0. */
otv_status otv_build_cff2(otv_builder *b);

#endif /* OTV_BUILD_CFF2_H */

/*
 * layout_fv.h - the layout writer's FeatureVariations and pruning (layout_fv.c).
 */
#ifndef OTV_LAYOUT_FV_H
#define OTV_LAYOUT_FV_H

#include "layout_walk.h"

/* Which records of the FeatureVariations at fv are kept, which one is applied (w->subst). */
void otv_lw_fv_plan(otv_lw *w, size_t fv);
/* w->lmap / w->fmap: lookups and features no LangSys reaches removed (ScriptList at sl,
 * LookupList at ll). */
void otv_lw_prune_plan(otv_lw *w, size_t sl, size_t ll, size_t fv);
otv_obj otv_lw_feature_variations(otv_lw *w, size_t fv);
otv_obj otv_lw_feature_subst(otv_lw *w, size_t at);
otv_obj otv_lw_langsys(otv_lw *w, size_t at);
otv_obj otv_lw_lookup_list(otv_lw *w, size_t at);

#endif /* OTV_LAYOUT_FV_H */

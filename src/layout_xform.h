/*
 * layout_xform.h - how the layout writer (layout.h) changes a table on the way: the hooks an
 * instancer gives it. A header of its own so the writer's files (layout_walk.h) need not
 * include layout.h.
 */
#ifndef OTV_LAYOUT_XFORM_H
#define OTV_LAYOUT_XFORM_H

#include "core/core.h"
#include "core/graph.h"

/* What a FeatureVariations condition is at the instance (see otv_layout_xform.condition). */
#define OTV_LAYOUT_COND_TRUE (-1)  /* holds everywhere in the instance: the condition is dropped */
#define OTV_LAYOUT_COND_FALSE (-2) /* never holds: its FeatureVariationRecord is dropped */

/* How a table changes on the way. A zeroed struct: written as read (conditions kept, stores
 * copied). */
typedef struct otv_layout_xform {
  void *ud;
  /* Static instances: VariationIndex device tables removed (their delta added to the value they
   * vary), and every ValueFormat narrowed to the fields some record of its sub-table needs. */
  bool static_instance;
  /* Drop what no shaper can reach or tell apart (instances, as fontTools' instancer and
   * hb-subset do): lookups no LangSys reaches, features left without lookups, duplicate
   * features, LangSys records equal to their script's default. */
  bool compact;
  /* The delta (rounded) a VariationIndex (outer, inner) adds to its value at the instance's
   * default; NULL: 0. */
  int (*delta)(void *ud, unsigned outer, unsigned inner);
  /* Partial instances: whether the VariationIndex (outer, inner) still varies; a device whose
   * item does not is dropped (its delta added as in a static instance). NULL: every one does. */
  bool (*varies)(void *ud, unsigned outer, unsigned inner);
  /* A Condition format 1 on axis `axis` with range [*lo, *hi] (F2Dot14): OTV_LAYOUT_COND_TRUE,
   * OTV_LAYOUT_COND_FALSE, or the axis's index in the instance (kept, with *lo and *hi set to
   * its range in the instance's coordinates); NULL: kept as it is. The
   * first FeatureVariationRecord whose conditions all hold is applied to the FeatureList (its
   * features substituted) and the records after it dropped; FeatureVariations left with no
   * record are removed (version 1.0). */
  int (*condition)(void *ud, unsigned axis, int *lo, int *hi);
  /* The ItemVariationStore at `off` in the GDEF or BASE table `table`: *obj is the object to
   * link (built in g), or OTV_OBJ_NONE to drop the store (the table's version is lowered); NULL:
   * copied as it is. A failure is recorded in err. */
  otv_status (*store)(void *ud, otv_graph *g, otv_span table, size_t off, otv_obj *obj,
                      otv_error *err);
} otv_layout_xform;

#endif /* OTV_LAYOUT_XFORM_H */

/*
 * layout.h - GSUB, GPOS, GDEF and BASE: the one decoder of the OpenType layout tables, which
 * reads a table from the face's bytes into an object graph (core/graph.h) and writes it back,
 * changed on the way as an instance needs (variation data resolved, FeatureVariations pruned or
 * applied, value formats narrowed). Implemented in layout.c.
 *
 * Spec: chapter2 (ScriptList, FeatureList, LookupList, Coverage, ClassDef, Device and
 * VariationIndex, FeatureVariations), GSUB, GPOS, GDEF, BASE.
 *
 * Every sub-table becomes one object, so shared sub-tables are written once and the serializer
 * places them so 16-bit offsets reach; when they cannot, the lookups are written as Extension
 * lookups (their 32-bit offsets reach anywhere) and the table is written again.
 *
 * Hostile tables: every read is bounds-checked (a sub-table past the end is OTV_E_TRUNCATED
 * naming the table and offset); a sub-table reached again at the same offset as the same kind
 * is decoded once (offset cycles cannot recurse: each kind nests in a fixed order); the bytes
 * decoded in total are capped at OTV_LAYOUT_WORK_FACTOR x the table's length + 1 MiB
 * (OTV_E_LIMIT), so fan-out of shared sub-tables costs linear work.
 */
#ifndef OTV_LAYOUT_H
#define OTV_LAYOUT_H

#include "core/core.h"
#include "core/graph.h"
#include "core/writer.h"

#define OTV_LAYOUT_WORK_FACTOR 16

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
  /* The delta (rounded) a VariationIndex (outer, inner) adds to its value at the instance's
   * default; NULL: 0. */
  int (*delta)(void *ud, unsigned outer, unsigned inner);
  /* A Condition format 1 on axis `axis` with range [lo, hi] (F2Dot14): OTV_LAYOUT_COND_TRUE,
   * OTV_LAYOUT_COND_FALSE, or the axis's index in the instance (kept); NULL: kept as it is. The
   * first FeatureVariationRecord whose conditions all hold is applied to the FeatureList (its
   * features substituted) and the records after it dropped; FeatureVariations left with no
   * record are removed (version 1.0). */
  int (*condition)(void *ud, unsigned axis, int lo, int hi);
  /* The ItemVariationStore at `off` in the GDEF or BASE table `table`: *obj is the object to
   * link (built in g), or OTV_OBJ_NONE to drop the store (the table's version is lowered); NULL:
   * copied as it is. A failure is recorded in err. */
  otv_status (*store)(void *ud, otv_graph *g, otv_span table, size_t off, otv_obj *obj,
                      otv_error *err);
} otv_layout_xform;

/* Decode the GSUB, GPOS, GDEF or BASE table `table` (tag) and append it, transformed by xf
 * (NULL: as read), to out. Errors name the table and the offset in it. */
otv_status otv_layout_write(const otv_alloc *al, uint32_t tag, otv_span table,
                            const otv_layout_xform *xf, otv_buf *out, otv_error *err);

#endif /* OTV_LAYOUT_H */

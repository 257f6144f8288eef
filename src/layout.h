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
#include "layout_xform.h"

#define OTV_LAYOUT_WORK_FACTOR 16

/* Decode the GSUB, GPOS, GDEF or BASE table `table` (tag) and append it, transformed by xf
 * (NULL: as read), to out. Errors name the table and the offset in it. */
otv_status otv_layout_write(const otv_alloc *al, uint32_t tag, otv_span table,
                            const otv_layout_xform *xf, otv_buf *out, otv_error *err);

#endif /* OTV_LAYOUT_H */

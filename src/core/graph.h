/*
 * core/graph.h - the object graph of a table made of sub-tables linked by offsets (OpenType
 * layout: GSUB, GPOS, GDEF, BASE), and its serializer. Implemented in core/graph.c.
 *
 * Objects are built bottom-up, each as its bytes plus links (which 2- or 4-byte field of the
 * object holds an offset to which other object; offsets count from the object's first byte, as
 * every offset of the layout tables does when each table is one object). push opens an object
 * (nested inside the open one: a child is built while its parent is open), pop closes it and
 * returns its id; a closed object identical to an earlier one (same bytes, same links) is not
 * kept: pop returns the earlier id, so shared sub-tables are written once.
 *
 * otv_graph_write places the objects reachable from a root: parents before children (offsets
 * are unsigned), each object as near its parents as the others allow (closest first, a 4-byte
 * link's sub-graph last), then checks every 2-byte offset. Where one does not fit and its child
 * is shared, the child is duplicated, one copy per run of neighbouring parents that can share
 * one within 64 KiB, and the placement is done again; where that cannot help, it reports the
 * link (OTV_E_LIMIT, *ov): the caller restructures (for layout, lookups promoted to Extension,
 * whose 4-byte offsets reach anywhere) and writes again.
 *
 * The core knows no table: a layout module decides what an object is.
 */
#ifndef OTV_CORE_GRAPH_H
#define OTV_CORE_GRAPH_H

#include "core/alloc.h"
#include "core/writer.h"

#include <stdbool.h>

typedef uint32_t otv_obj; /* an object's id; OTV_OBJ_NONE: no object (a NULL offset) */
#define OTV_OBJ_NONE 0u
#define OTV_GRAPH_MAX_DEPTH 32 /* objects open at once */

typedef struct otv_graph otv_graph;

/* NULL: out of memory. */
otv_graph *otv_graph_new(const otv_alloc *al);
void otv_graph_free(otv_graph *g);

/* Open an object inside the open one; write its bytes into the buffer returned (valid until the
 * matching pop or discard; the buffers of the objects open outside it stay valid). NULL when
 * OTV_GRAPH_MAX_DEPTH objects are open already (the graph is then failed) or the graph has
 * failed before. */
otv_buf *otv_graph_push(otv_graph *g);
/* In the open object, the `width`-byte field (2 or 4) at pos holds an offset to child (the field
 * must be inside the object when it is closed and overlap no other link's; its bytes are zeroed
 * at pop, so they take no part in the comparison of objects, and filled when the graph is
 * written). child OTV_OBJ_NONE records nothing: leave the field 0. */
void otv_graph_link(otv_graph *g, size_t pos, unsigned width, otv_obj child);
/* Close the open object: its id (never OTV_OBJ_NONE unless the graph has failed). */
otv_obj otv_graph_pop(otv_graph *g);
/* Close the open object and forget it. */
void otv_graph_discard(otv_graph *g);

/* Sticky failure: out of memory, too deep, a bad link (outside its object, overlapping another,
 * a width other than 2 or 4, a child that does not exist), pop or discard with no object open.
 * Every call after it does nothing, pop returns OTV_OBJ_NONE and write fails with OTV_E_NOMEM
 * or OTV_E_LIMIT. OTV_E_OK while none happened; OTV_E_NOMEM or OTV_E_LIMIT (the others). */
otv_status otv_graph_status(const otv_graph *g);
/* Bytes and number of the distinct objects kept so far (for a caller's work budget); the copies
 * write makes are not counted. */
size_t otv_graph_bytes(const otv_graph *g);
size_t otv_graph_count(const otv_graph *g);

/* The link that did not fit, named as built (a copy write made is named by the object it
 * copies). */
typedef struct otv_graph_overflow {
  otv_obj parent, child;
  size_t pos; /* of the offset field in parent */
} otv_graph_overflow;

/* Append the objects reachable from root (root first) to out, every link's field filled.
 * OTV_E_LIMIT (and *ov, when ov is not NULL) when a 2-byte offset (or a 4-byte one: a table
 * past 4 GiB) cannot be made to fit; OTV_E_NOMEM; OTV_E_ARG for a root that is no object. On
 * failure out is left as it was, and a write that failed for memory may be retried: the graph
 * is not failed by it. Duplicated objects stay in the graph (with ids of their own, never
 * returned by pop): write may be called again after more objects are built. */
otv_status otv_graph_write(otv_graph *g, otv_obj root, otv_buf *out, otv_graph_overflow *ov);

#endif /* OTV_CORE_GRAPH_H */

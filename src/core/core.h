/*
 * core/core.h - what every file of the library may use: the public types (otvar.h), compiler
 * attributes, limits, table tags, the bounds-checked reader, the allocator and the failure
 * helper. The core knows no table and no face: it is the bottom layer (docs/architecture.md).
 * Writing (core/writer.h) and the sfnt container (core/sfnt.h) are included where used.
 */
#ifndef OTV_CORE_CORE_H
#define OTV_CORE_CORE_H

#include "otvar.h"
#include "core/compiler.h"
#include "core/limits.h"
#include "core/tags.h"
#include "core/reader.h"
#include "core/alloc.h"
#include "core/error.h"

#include <math.h>
#include <string.h>

/* floor(x + 0.5): the rounding of fontTools' otRound, used by static instances and by
 * OTV_OUTLINE_ROUND / OTV_METRICS_ROUND. */
static inline float otv_round(float x) { return floorf(x + 0.5f); }

#endif /* OTV_CORE_CORE_H */

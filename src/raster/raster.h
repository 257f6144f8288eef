/*
 * raster/raster.h - the rasterizer's internals that tests and benchmarks reach (the public API is
 * otv_raster_* in otvar.h). Implemented in raster/raster.c, which needs only core/.
 */
#ifndef OTV_RASTER_H
#define OTV_RASTER_H

#include "core/core.h"

/* Read out with the SSE2 copy even where the CPU has AVX2 (tests and benchmarks compare the two
 * copies; not public API). */
void otv_raster_use_sse2(otv_raster *r);

#endif /* OTV_RASTER_H */

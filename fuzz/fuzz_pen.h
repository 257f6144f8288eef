/*
 * fuzz_pen.h - fz_pen, the pen of the fuzz targets that check nothing about a path: it sums
 * every coordinate into its context (a float), so each segment is drawn and the work stays
 * observable. Included by the fuzz_*.c that draw this way (one translation unit each).
 */
#ifndef OTV_FUZZ_PEN_H
#define OTV_FUZZ_PEN_H

#include "otvar.h"

static inline void fz_move(void *c, float x, float y) { *(float *)c += x + y; }
static inline void fz_quad(void *c, float a, float b, float x, float y)
{
  *(float *)c += a + b + x + y;
}
static inline void fz_cubic(void *c, float a, float b, float d, float e, float x, float y)
{
  *(float *)c += a + b + d + e + x + y;
}
static inline void fz_close(void *c) { *(float *)c += 1; }
static const otv_pen fz_pen = {fz_move, fz_move, fz_quad, fz_cubic, fz_close};

#endif /* OTV_FUZZ_PEN_H */

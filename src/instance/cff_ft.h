/*
 * instance/cff_ft.h - FreeType 2.12's 16.16 blend arithmetic, for an internal instancing mode
 * that tests/oracle/test_instance_cff1.c uses to prove that what differs between an exact static
 * instance and FreeType's rendering of the variable font is FreeType's arithmetic (the walker of
 * instance/cff_partial.c and the region scalars of instance/cff1.c and instance/cff.c).
 */
#ifndef OTV_INSTANCE_CFF_FT_H
#define OTV_INSTANCE_CFF_FT_H

#include <math.h>
#include <stdint.h>

/* Internal (tests/oracle/test_instance_cff1.c; not in otvar.h, no public behaviour): a full
 * instance's charstring blends evaluated in 16.16 fixed point as FreeType 2.12 evaluates the
 * variable font's (src/cff/cffload.c, cff_blend_build_vector: each region's scalar the product
 * of its axes' FT_DivFix ratios, FT_MulFix after FT_MulFix, from 1.0, at the coordinates x 4;
 * src/psaux/psintrp.c, cf2_doBlend: default + the sum of FT_MulFix(scalar, delta), each product
 * rounded) instead of exactly: an instance whose every blended operand is FreeType's, so that
 * its hinted outlines equal FreeType's of the variable font wherever the writer is right. */
#define OTV_INST_CFF_FT_BLEND 0x40000000u

/* FreeType's fixed-point product and quotient (16.16; ftcalc.c): the exact value rounded half
 * away from zero (the quotient's half is the divisor's floor(|b| / 2)). */
static inline int32_t otv_ft_mulfix(int32_t a, int32_t b)
{
  int64_t p = (int64_t)a * b;
  int64_t m = p < 0 ? -p : p;
  int64_t r = (m + 0x8000) >> 16;
  return (int32_t)(p < 0 ? -r : r);
}
static inline int32_t otv_ft_divfix(int32_t a, int32_t b)
{
  int64_t ma = a < 0 ? -(int64_t)a : a, mb = b < 0 ? -(int64_t)b : b;
  if (!mb) return 0x7FFFFFFF;
  int64_t q = ((ma << 16) + (mb >> 1)) / mb;
  return (int32_t)((a < 0) != (b < 0) ? -q : q);
}
/* A 16.16 value as FreeType's stack holds it: every charstring operand is one exactly. */
static inline int32_t otv_ft_fixed(double x) { return (int32_t)floor(x * 65536.0 + 0.5); }

#endif /* OTV_INSTANCE_CFF_FT_H */

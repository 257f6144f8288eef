/*
 * core/limits.h - the limits that keep time and memory linear in the input (documented in
 * docs/limits.md). Values the spec fixes say so.
 */
#ifndef OTV_CORE_LIMITS_H
#define OTV_CORE_LIMITS_H

#define OTV_MAX_AXES 64            /* fvar axes we accept; more is OTV_E_LIMIT */
#define OTV_MAX_COMPONENT_DEPTH 16 /* nested composite glyphs */
#define OTV_MAX_POINTS 65535       /* points of one glyph after flattening composites */
#define OTV_MAX_SUBR_DEPTH 10      /* CFF/CFF2 subroutine nesting (spec limit) */
#define OTV_MAX_STACK_CFF2 513     /* CFF2 operand stack (spec) */
#define OTV_MAX_STACK_CFF 48       /* CFF operand stack (spec) */

#endif /* OTV_CORE_LIMITS_H */

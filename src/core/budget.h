/*
 * core/budget.h - the work budget of a whole-font operation (docs/limits.md "Work budgets"):
 * every per-call limit keeps one call bounded, but a font can make each of its 65535 glyphs
 * cost the most one call may (composites fanning out, one big gvar blob or HVAR row shared by
 * every glyph), so an operation that walks every glyph arms a budget proportional to the font's
 * size on its location and the table modules charge their decoding work to it. A location
 * without an armed budget (the state of a new one: a renderer drawing glyphs forever) counts
 * but never refuses. Header only.
 *
 * One work unit is about one byte of font data read or one point produced, moved or varied:
 *   glyf: 16 per glyph loaded (a component too, cached or not) + its data bytes;
 *   gvar: the glyph's variation data bytes + points x tuples applied;
 *   HVAR/VVAR/MVAR: 4 + the columns of the row read.
 */
#ifndef OTV_CORE_BUDGET_H
#define OTV_CORE_BUDGET_H

#include <stdbool.h>
#include <stdint.h>

/* Default budget of a whole-font operation: (font bytes << OTV_WORK_FACTOR_LOG2) +
 * OTV_WORK_FLOOR units; otv_options can change the factor or turn the budget off. */
#define OTV_WORK_FACTOR_LOG2 6    /* 64 units per byte of the font */
#define OTV_WORK_FLOOR (1u << 24) /* for small fonts: 16 Mi units */
#define OTV_WORK_GLYPH_LOAD 16u   /* glyf: one glyph (or component) loaded */
#define OTV_WORK_ROW 4u           /* HVAR/VVAR/MVAR: one delta row read */

typedef struct otv_budget {
  uint64_t used;  /* units charged since the budget was armed */
  uint64_t limit; /* UINT64_MAX: not armed (counts, never refuses) */
} otv_budget;

/* Charge n units: false once the total is past the limit (b NULL: nothing is counted). */
static inline bool otv_budget_charge(otv_budget *b, uint64_t n)
{
  if (!b) return true;
  b->used = n > UINT64_MAX - b->used ? UINT64_MAX : b->used + n; /* saturates */
  return b->used <= b->limit;
}

#endif /* OTV_CORE_BUDGET_H */

/*
 * instance/cff1.h - a static instance of a CFF2 font written as a CFF (version 1) table
 * (instance/cff1.c).
 * Spec: Adobe TN 5176 (CFF), TN 5177 (Type 2 charstrings), OpenType "CFF2" and "post".
 */
#ifndef OTV_INSTANCE_CFF1_H
#define OTV_INSTANCE_CFF1_H

#include "instance/cff_ft.h"
#include "instance/inst.h"

/* The output budget of a static CFF2 instance (CFF or CFF2): its charstrings and subroutines
 * together at most OTV_CFF_INSTANCE_FACTOR x the source CFF2 table + OTV_CFF_INSTANCE_FLOOR
 * bytes (docs/limits.md); beyond it the instance is refused with OTV_E_LIMIT, table CFF2. */
#define OTV_CFF_INSTANCE_FACTOR 8
#define OTV_CFF_INSTANCE_FLOOR ((size_t)1 << 20)
static inline size_t otv_cff_instance_budget(size_t cff2_len)
{
  return cff2_len > (SIZE_MAX - OTV_CFF_INSTANCE_FLOOR) / OTV_CFF_INSTANCE_FACTOR
             ? SIZE_MAX
             : cff2_len * OTV_CFF_INSTANCE_FACTOR + OTV_CFF_INSTANCE_FLOOR;
}

/* Whether a Private DICT operator's operands are integers to FreeType (its parser reads them
 * as integers: a CFF2 blend result rounded, a real number truncated), which a static
 * instance then writes as its blended values rounded with floor(x + 0.5), each as stored (the
 * deltas of a delta array one by one): the values FreeType uses for the variable font, where
 * the reals would be truncated (alignment zones a unit lower, hinted edges a pixel off).
 * BlueScale and ExpansionFactor stay real. */
static inline bool otv_cff_private_int(int op)
{
  switch (op) {
  case OTV_DICT_BLUEVALUES:
  case OTV_DICT_OTHERBLUES:
  case OTV_DICT_FAMILYBLUES:
  case OTV_DICT_FAMILYOTHERBLUES:
  case OTV_DICT_STEMSNAPH:
  case OTV_DICT_STEMSNAPV:
  case OTV_DICT_STDHW:
  case OTV_DICT_STDVW:
  case OTV_DICT_BLUESHIFT:
  case OTV_DICT_BLUEFUZZ:
  case OTV_DICT_LANGUAGEGROUP: return true;
  default: return false;
  }
}

/* Region r's scalar at coords (F2Dot14, axis_count of them) in FreeType's arithmetic
 * (OTV_INST_CFF_FT_BLEND), as a double (a multiple of 1/65536). */
double otv_inst_cff_ft_scalar(const otv_ivs *ivs, unsigned r, const otv_f2dot14 *coords,
                              unsigned axis_count);

/* The CFF table of a full instance into in->cff2 (in->cff1 set): charstrings rewritten with
 * blends resolved at the pin (instance/cff_partial.c's walker), subroutines and hints kept.
 * Needs in->adv_w and in->bbox of every glyph (the outline step of instance/cff.c). */
otv_status otv_inst_cff1(otv_inst *in);

/* The glyph boxes (in->bbox, in->has_outline) and left side bearings (in->lsb, of glyphs with
 * an outline) of the table just written into in->cff2 (CFF, or CFF2 when cff2), read back and
 * drawn: what a renderer draws, which, where rounding crosses kept subroutine calls, is a unit
 * or two off the variable font's outline rounded. */
otv_status otv_inst_cff_boxes(otv_inst *in, bool cff2);

#endif /* OTV_INSTANCE_CFF1_H */

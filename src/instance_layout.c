/*
 * instance_layout.c - GDEF/GPOS/GSUB of a static instance. Spec: GDEF ("Item variation store"),
 * chapter2 ("Device and VariationIndex tables", "FeatureVariations table").
 */
#include "instance.h"

otv_status otv_inst_layout(otv_inst *in)
{
  (void)in;
  return OTV_E_OK;
}

/*
 * hvar.c - HVAR and VVAR (spec: hvar, vvar): an ItemVariationStore plus DeltaSetIndexMaps for
 * the advance, the two side bearings and (VVAR) the vertical origin of each glyph.
 *
 * HVAR header (20 bytes): majorVersion, minorVersion, itemVariationStoreOffset (Offset32),
 * advanceWidthMappingOffset, lsbMappingOffset, rsbMappingOffset (Offset32 each, may be NULL).
 * VVAR header (24 bytes): the same with advanceHeight/tsb/bsb and vOrgMappingOffset.
 * spec: without an advance mapping, glyph ids map implicitly to outer 0, inner = glyph id; a
 * NULL side bearing or origin mapping means that value has no variation data.
 */
#include "hvar.h"

otv_status otv_xvar_parse(otv_span tab, bool vertical, uint16_t axis_count, const otv_alloc *al,
                          otv_xvar *out, otv_error *err)
{
  memset(out, 0, sizeof *out);
  uint32_t tag = vertical ? OTV_T_VVAR : OTV_T_HVAR;
  /* Without fvar there is nothing to vary: the table is ignored. */
  if (!tab.p || !axis_count) return OTV_E_OK;
  otv_rd r = otv_rd_init(tab, 0);
  uint16_t major = otv_rd_u16(&r);
  otv_rd_skip(&r, 2);
  uint32_t ivs_off = otv_rd_u32(&r);
  uint32_t map_off[4] = {0, 0, 0, 0};
  unsigned maps = vertical ? 4 : 3;
  for (unsigned i = 0; i < maps; i++) map_off[i] = otv_rd_u32(&r);
  if (!otv_rd_ok(&r)) return OTV_FAIL_RD(err, tag, 0, &r, vertical ? "VVAR header" : "HVAR header");
  if (major != 1) return OTV_FAIL(err, UNSUPPORTED, tag, 0, "majorVersion %u", major);
  if (!ivs_off) return OTV_FAIL(err, BAD_OFFSET, tag, 4, "itemVariationStoreOffset is NULL");
  otv_dsim *dst[4] = {&out->adv, &out->side_a, &out->side_b, &out->vorg};
  for (unsigned i = 0; i < maps; i++) {
    if (!map_off[i]) continue;
    if (map_off[i] >= tab.len)
      return OTV_FAIL(err, BAD_OFFSET, tag, 8 + 4 * (uint64_t)i,
                      "DeltaSetIndexMap offset 0x%x past the end (%zu bytes)", map_off[i], tab.len);
    otv_status s = otv_dsim_parse(tab, tag, map_off[i], dst[i], err);
    if (s) return s;
  }
  if (ivs_off >= tab.len)
    return OTV_FAIL(err, BAD_OFFSET, tag, 4, "itemVariationStoreOffset 0x%x past the end", ivs_off);
  otv_status s = otv_ivs_parse(al, tab, tag, ivs_off, axis_count, &out->ivs, err);
  if (s) return s;
  out->ivs_off = ivs_off;
  out->header_len = r.pos;
  out->present = true;
  return OTV_E_OK;
}

void otv_xvar_free(const otv_alloc *al, otv_xvar *x)
{
  otv_ivs_free(al, &x->ivs);
  memset(x, 0, sizeof *x);
}

static const otv_dsim *map_of(const otv_xvar *x, unsigned which)
{
  switch (which) {
  case OTV_XVAR_ADVANCE: return &x->adv;
  case OTV_XVAR_SIDE_A: return &x->side_a;
  case OTV_XVAR_SIDE_B: return &x->side_b;
  default: return &x->vorg;
  }
}

bool otv_xvar_row(const otv_xvar *x, unsigned which, uint32_t gid, uint32_t *outer, uint32_t *inner)
{
  const otv_dsim *m = map_of(x, which);
  /* Only the advance has an implicit mapping. */
  if (which != OTV_XVAR_ADVANCE && !m->present) return false;
  otv_dsim_map(m, gid, outer, inner);
  return true;
}

uint64_t otv_xvar_row_cost(const otv_xvar *x, uint32_t outer)
{
  return OTV_WORK_ROW + (outer < x->ivs.data_count ? x->ivs.data[outer].region_index_count : 0u);
}

bool otv_xvar_delta(const otv_xvar *x, const float *scalars, unsigned which, uint32_t gid,
                    float *delta)
{
  uint32_t outer, inner;
  if (!otv_xvar_row(x, which, gid, &outer, &inner)) return false;
  *delta = otv_ivs_delta(&x->ivs, scalars, outer, inner);
  return true;
}

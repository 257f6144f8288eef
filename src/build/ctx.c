/*
 * build/ctx.c - helpers on the builder's state (build/ctx.h): the sub-models of sparse masters
 * (built once per set of masters present, kept for the build), the buffers of the tables built,
 * and F2Dot14 rounding as fontTools' fl2fi (floor(v * 16384 + 0.5)).
 */
#include "build/ctx.h"

#include <math.h>
#include <string.h>

/* floor inline (libm's is a call where SSE4.1 is not the baseline): below 2^31 in magnitude the
 * truncation corrected down; beyond (never a normalized coordinate) floor itself */
int otv_build_f2(double v)
{
  double x = v * 16384.0 + 0.5;
  if (!(fabs(x) < 2147483647.0)) return (int)floor(x);
  int t = (int)x;
  return (double)t > x ? t - 1 : t;
}
otv_buf *otv_build_table(otv_builder *b, uint32_t tag)
{
  if (b->tab_count >= sizeof b->tab / sizeof b->tab[0]) return NULL;
  otv_buf *t = &b->tab[b->tab_count];
  b->tag[b->tab_count++] = tag;
  otv_buf_init(t, &b->al);
  return t;
}

otv_status otv_build_submodel(otv_builder *b, const otv_mset *mask, const otv_vmodel **out)
{
  otv_mset all = otv_mset_first(b->mc);
  if (otv_mset_eq(mask, &all)) {
    *out = &b->model;
    return OTV_E_OK;
  }
  for (unsigned i = 0; i < b->sub_count; i++)
    if (otv_mset_eq(&b->subs[i].mask, mask)) {
      *out = &b->subs[i].model;
      return OTV_E_OK;
    }
  if (b->sub_count == b->sub_cap) {
    unsigned nc = b->sub_cap ? 2 * b->sub_cap : 8;
    struct otv_bsub *ns =
        otv_mem_realloc(&b->al, b->subs, b->sub_cap * sizeof *ns, nc * sizeof *ns);
    if (!ns) return OTV_FAIL(b->err, NOMEM, 0, 0, "sub-models");
    b->subs = ns;
    b->sub_cap = nc;
  }
  double locs[OTV_BUILD_MAX_MASTERS * 4];
  double *lp = b->ac * b->mc <= sizeof locs / sizeof locs[0]
                   ? locs
                   : otv_mem_alloc(&b->al, (size_t)b->mc * b->ac * sizeof *lp);
  if (!lp) return OTV_FAIL(b->err, NOMEM, 0, 0, "sub-models");
  unsigned n = 0;
  for (unsigned k = 0; k < b->mc; k++)
    if (otv_mset_has(mask, k))
      memcpy(lp + (size_t)n++ * b->ac, b->norm + (size_t)k * b->ac, b->ac * sizeof *lp);
  struct otv_bsub *sb = &b->subs[b->sub_count];
  otv_status s = otv_vmodel_init(&sb->model, lp, n, b->ac, &b->al, b->err);
  if (lp != locs) otv_mem_free(&b->al, lp, (size_t)b->mc * b->ac * sizeof *lp);
  if (s) return s;
  sb->mask = *mask;
  b->sub_count++;
  *out = &sb->model;
  return OTV_E_OK;
}

/*
 * fuzz_layout.c - the layout writer (layout.h) on GSUB, GPOS, GDEF and BASE tables. The input
 * is a font (its four tables are taken from its table directory) or, when it is not one, a bare
 * table whose tag the first byte picks. Each table is written three ways: as read, as a static
 * instance (deltas from a hash of (outer, inner), conditions holding or failing by a hash,
 * stores dropped) and as a partial one (some conditions kept and renumbered). Invariants that
 * abort: a written table must be written again without error, and a table written as read,
 * read back and written as read again, gives the same bytes (the writer is a fixed point on its
 * own output). The last byte, when odd, switches on an allocator that fails after a count
 * taken from the byte before it.
 */
#include "layout.h"
#include "core/sfnt.h"
#include "fuzz_alloc.h"

#include <stdlib.h>

static int fz_delta(void *ud, unsigned outer, unsigned inner)
{
  (void)ud;
  return (int)((outer * 31u + inner) % 7u) - 3;
}
static int fz_condition_static(void *ud, unsigned axis, int *lo, int *hi)
{
  (void)ud;
  return (axis + (unsigned)*lo + (unsigned)*hi) % 2 ? OTV_LAYOUT_COND_TRUE : OTV_LAYOUT_COND_FALSE;
}
static int fz_condition_partial(void *ud, unsigned axis, int *lo, int *hi)
{
  (void)ud;
  unsigned h = axis + (unsigned)*lo + (unsigned)*hi;
  if (h % 5 == 4) *lo = -*lo; /* a remapped range may come out in any order */
  switch (h % 3) {
  case 0: return OTV_LAYOUT_COND_TRUE;
  case 1: return OTV_LAYOUT_COND_FALSE;
  default: return (int)(axis % 4);
  }
}
static otv_status fz_store_drop(void *ud, otv_graph *g, otv_span t, size_t off, otv_obj *obj,
                                otv_error *err)
{
  (void)ud, (void)g, (void)t, (void)off, (void)err;
  *obj = OTV_OBJ_NONE;
  return OTV_E_OK;
}

static void one_table(const otv_alloc *al, uint32_t tag, otv_span t)
{
  otv_layout_xform xf[3];
  memset(xf, 0, sizeof xf);
  xf[1].static_instance = true, xf[1].delta = fz_delta, xf[1].condition = fz_condition_static;
  xf[1].store = fz_store_drop;
  xf[2].delta = fz_delta, xf[2].condition = fz_condition_partial;
  for (unsigned k = 0; k < 3; k++) {
    otv_buf out, again;
    otv_buf_init(&out, al);
    otv_buf_init(&again, al);
    otv_error err = {0};
    otv_status st = otv_layout_write(al, tag, t, k ? &xf[k] : NULL, &out, &err);
    if (!st) {
      /* the output is a valid table: written as read, it must give itself back (after one
       * more normalisation when the first write changed it) */
      otv_status st2 = otv_layout_write(al, tag, otv_span_of(out.p, out.len), NULL, &again, &err);
      if (st2 && st2 != OTV_E_NOMEM) abort();
      if (!st2 && k == 0 && (again.len != out.len || memcmp(again.p, out.p, out.len))) abort();
    }
    otv_buf_free(&out);
    otv_buf_free(&again);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  static const uint32_t tags[4] = {OTV_T_GSUB, OTV_T_GPOS, OTV_T_GDEF, OTV_T_BASE};
  fz_alloc fa = {0, 0};
  otv_options opt;
  memset(&opt, 0, sizeof opt);
  if (size >= 2 && (data[size - 1] & 1)) {
    fa.fail_at = 1u + data[size - 2] * 4u;
    opt.realloc_fn = fz_realloc;
    opt.ud = &fa;
  }
  otv_alloc al;
  otv_alloc_init(&al, &opt);
  otv_span file = otv_span_of(data, size);
  otv_sfnt s;
  if (!otv_sfnt_open(&s, file, 0, &al, NULL)) {
    for (unsigned i = 0; i < 4; i++) {
      otv_span t = otv_sfnt_find(&s, tags[i]);
      if (t.len) one_table(&al, tags[i], t);
    }
  } else if (size > 1) {
    one_table(&al, tags[data[0] & 3], otv_span_of(data + 1, size - 1));
  }
  otv_sfnt_close(&s, &al); /* also after a failed open (it may hold the directory) */
  return 0;
}

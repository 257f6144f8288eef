/*
 * test_cff1_limits.c - static instances of CFF2 fonts as CFF (instance/cff1.c) under hostile
 * subroutine fan-outs, built here in memory (docs/limits.md, "CFF2 instances"):
 *   A. 150 glyphs, each calling a global subroutine that calls the next one 20 times, 4 levels
 *      deep (8421 lines per glyph), no blends: the CFF instance keeps the subroutines, so it is
 *      about as small as the source and draws the same points; so does the CFF2 instance
 *      (OTV_INSTANCE_CFF2, the same walker), which flattened would be ~13 MB.
 *   B. the same with a blend in every subroutine taking its operands from the caller: every call
 *      must be inlined; refused with OTV_E_LIMIT (the output budget) after a few glyphs, with
 *      the peak memory within the budget; the same as CFF2.
 * A counting allocator measures the peak of live bytes; nothing is timed.
 */
#include "harness.h"

#include <stdlib.h>

#include "fontbuf.h"

#define NG 150u
#define DEPTH 4
#define FAN 20
#define LINES_PER_GLYPH 8421u /* 1 + 20 + 400 + 8000 */

enum { CS_RMOVETO = 21, CS_RLINETO = 5, CS_CALLGSUBR = 29, CS_BLEND = 16 };

/* One line: "1 0 rlineto", or with blended: "1 blend 0 rlineto" on the caller's "1 1" (the
 * default 1 and its delta 1). */
static void line(bb *b, int blended)
{
  if (blended) {
    cs_num(b, 1);
    put8(b, CS_BLEND);
  } else {
    cs_num(b, 1);
  }
  cs_num(b, 0);
  put8(b, CS_RLINETO);
}
/* A call of global subroutine i (bias 107), with "1 1" pushed first when blended. */
static void call(bb *b, int i, int blended)
{
  if (blended) cs_num(b, 1), cs_num(b, 1);
  cs_num(b, i - 107);
  put8(b, CS_CALLGSUBR);
}

static uint8_t *make_font(int blended, size_t *len, size_t *cff2_len)
{
  bb gs[DEPTH];
  memset(gs, 0, sizeof gs);
  for (int i = 0; i < DEPTH; i++) {
    line(&gs[i], blended);
    if (i < DEPTH - 1)
      for (int k = 0; k < FAN; k++) call(&gs[i], i + 1, blended);
  }
  bb cs[NG];
  memset(cs, 0, sizeof cs);
  for (unsigned g = 1; g < NG; g++) {
    cs_num(&cs[g], 0);
    cs_num(&cs[g], (int)g % 100);
    put8(&cs[g], CS_RMOVETO);
    call(&cs[g], 0, blended);
  }
  bb g = {0}, c = {0};
  index2(&g, gs, DEPTH);
  index2(&c, cs, NG);
  for (int i = 0; i < DEPTH; i++) free(gs[i].p);
  for (unsigned i = 0; i < NG; i++) free(cs[i].p);
  /* VariationStore: length, then an ItemVariationStore with one region (wght 0..1, peak 1) and
   * one ItemVariationData of no items using it */
  bb vs = {0};
  put16(&vs, 30);
  put16(&vs, 1);  /* format */
  put32(&vs, 12); /* regionListOffset */
  put16(&vs, 1);  /* itemVariationDataCount */
  put32(&vs, 22); /* its offset */
  put16(&vs, 1);  /* axisCount */
  put16(&vs, 1);  /* regionCount */
  put16(&vs, 0), put16(&vs, 16384), put16(&vs, 16384);
  put16(&vs, 0), put16(&vs, 0), put16(&vs, 1), put16(&vs, 0); /* IVD: 0 items, region 0 */
  if (vs.n != 2 + 30) exit(4);
  bb cff = cff2_tbl(&g, &c, &vs);
  free(g.p), free(c.p), free(vs.p);
  *cff2_len = cff.n;
  tbl t[7] = {{"CFF2", cff}, {"HVAR", {0}}, {"fvar", {0}}, {"head", {0}},
              {"hhea", {0}}, {"hmtx", {0}}, {"maxp", {0}}};
  /* HVAR: no mappings, one ItemVariationData with a zero delta per glyph */
  bb *h = &t[1].d;
  put16(h, 1), put16(h, 0), put32(h, 20), put32(h, 0), put32(h, 0), put32(h, 0);
  put16(h, 1), put32(h, 12), put16(h, 1), put32(h, 22);
  put16(h, 1), put16(h, 1), put16(h, 0), put16(h, 16384), put16(h, 16384);
  put16(h, NG), put16(h, 0), put16(h, 1), put16(h, 0);
  for (unsigned i = 0; i < NG; i++) put8(h, 0);
  fvar_tbl(&t[2].d);
  head_tbl(&t[3].d);
  hhea_tbl(&t[4].d, 1);
  hmtx_tbl(&t[5].d, 600, NG);
  maxp_cff_tbl(&t[6].d, NG);
  return sfnt(t, 7, 0x4F54544F, len);
}

/* The instance of the font (wght 700) with flags: its status, table, peak memory, length. */
static otv_status instance(const uint8_t *font, size_t len, unsigned flags, uint32_t *err_table,
                           long long *peak, uint8_t **out, size_t *out_len, h_peak *a)
{
  otv_options opt = {h_peak_realloc, a, 0};
  otv_face *face = NULL;
  otv_location *loc = NULL;
  CHECK_EQ(otv_face_open_memory(font, len, 0, &opt, &face, NULL), OTV_E_OK);
  CHECK_EQ(otv_location_create(face, &loc, NULL), OTV_E_OK);
  otv_axis_value v = {OTV_TAG('w', 'g', 'h', 't'), 700};
  otv_location_set_user(loc, &v, 1);
  long long before = a->live_bytes;
  a->peak = a->live_bytes;
  *out = NULL, *out_len = 0;
  otv_status st = otv_instance_create(loc, flags, out, out_len);
  *peak = a->peak - before;
  *err_table = st ? otv_location_last_error(loc)->table : 0;
  if (st) printf("  refused: %s\n", otv_location_last_error(loc)->msg);
  if (*out) { /* copied out so the face can go */
    uint8_t *copy = malloc(*out_len);
    if (copy) memcpy(copy, *out, *out_len);
    otv_instance_free(loc, *out, *out_len);
    *out = copy;
  }
  otv_location_destroy(loc);
  otv_face_close(face);
  return st;
}

/* Points output for the glyphs of these fonts (8422 points), in static buffers. */
static otv_glyph_points big_points(void)
{
  static otv_point pts[70000];
  static uint8_t fl[70000];
  static uint16_t ends[64];
  otv_glyph_points io;
  memset(&io, 0, sizeof io);
  io.points = pts, io.point_flags = fl, io.contour_ends = ends;
  io.point_cap = 70000, io.contour_cap = 64;
  return io;
}

static unsigned points_of(otv_face *f, uint32_t gid)
{
  otv_location *loc = NULL;
  if (otv_location_create(f, &loc, NULL)) return 0;
  otv_glyph_points io = big_points();
  otv_status st = otv_glyph_points_get(loc, gid, 0, &io);
  otv_location_destroy(loc);
  return st ? 0 : io.point_count;
}

int main(void)
{
  size_t len = 0, cff2_len = 0, out_len = 0;
  long long peak = 0;
  uint32_t tab = 0;
  uint8_t *out = NULL;
  const uint32_t T_CFF2 = OTV_TAG('C', 'F', 'F', '2');
  /* budget of docs/limits.md: 8 x the CFF2 table + 1 MiB */
  /* A: no blends */
  uint8_t *font = make_font(0, &len, &cff2_len);
  long long budget = 8 * (long long)cff2_len + (1 << 20);
  h_peak a = {0};
  printf("A: %zu-byte CFF2 table (%u glyphs of %u lines each), budget %lld bytes\n", cff2_len, NG,
         LINES_PER_GLYPH, budget);
  CHECK_EQ(instance(font, len, 0, &tab, &peak, &out, &out_len, &a), OTV_E_OK);
  printf("  CFF instance: %zu bytes, peak %lld bytes\n", out_len, peak);
  CHECK(out_len < 4 * len); /* the subroutines are kept: no fan-out in the output */
  CHECK(peak < budget);
  if (out) {
    otv_face *f = NULL, *v = NULL;
    CHECK_EQ(otv_face_open_memory(out, out_len, 0, NULL, &f, NULL), OTV_E_OK);
    CHECK_EQ(otv_face_open_memory(font, len, 0, NULL, &v, NULL), OTV_E_OK);
    CHECK(otv_face_has(f, OTV_TAG('C', 'F', 'F', ' ')) && !otv_face_has(f, T_CFF2));
    /* the instance draws every line: 8421 lines after the move */
    if (f && v) CHECK_EQ(points_of(f, 1), LINES_PER_GLYPH + 1);
    if (f && v) CHECK_EQ(points_of(f, NG - 1), points_of(v, NG - 1));
    otv_face_close(f);
    otv_face_close(v);
    free(out);
  }
  CHECK_EQ(a.live_blocks, 0);
  /* A as CFF2: the subroutines kept too (flattened it would be ~13 MB, over the budget) */
  otv_status st = instance(font, len, OTV_INSTANCE_CFF2, &tab, &peak, &out, &out_len, &a);
  CHECK_EQ(st, OTV_E_OK);
  printf("  CFF2 instance: %zu bytes, peak %lld bytes\n", out_len, peak);
  CHECK(out_len < 4 * len);
  CHECK(peak < budget);
  if (out) {
    otv_face *f = NULL, *v = NULL;
    CHECK_EQ(otv_face_open_memory(out, out_len, 0, NULL, &f, NULL), OTV_E_OK);
    CHECK_EQ(otv_face_open_memory(font, len, 0, NULL, &v, NULL), OTV_E_OK);
    CHECK(!otv_face_has(f, OTV_TAG('C', 'F', 'F', ' ')) && otv_face_has(f, T_CFF2));
    if (f && v) CHECK_EQ(points_of(f, 1), LINES_PER_GLYPH + 1);
    if (f && v) CHECK_EQ(points_of(f, NG - 1), points_of(v, NG - 1));
    otv_face_close(f);
    otv_face_close(v);
  }
  CHECK_EQ(a.live_blocks, 0);
  free(out);
  /* A drawn glyph after glyph with a work budget armed (core/budget.h): each glyph is charged
   * its bytes and the subroutine bytes it enters (8421 lines' worth), so a walk stops with
   * OTV_E_LIMIT in CFF2 once the budget is spent (65535 such glyphs would otherwise cost 65535 x
   * the per-glyph cap of 400000 subroutine bytes); the face's own budget (64 x the font + 2^24)
   * walks this font whole, and an unarmed location is never refused */
  {
    otv_face *v = NULL;
    otv_location *loc = NULL;
    CHECK_EQ(otv_face_open_memory(font, len, 0, NULL, &v, NULL), OTV_E_OK);
    if (v) CHECK_EQ(otv_location_create(v, &loc, NULL), OTV_E_OK);
    if (loc) {
      otv_glyph_points io = big_points();
      otv_location_set_work_budget(loc, OTV_WORK_UNLIMITED);
      CHECK_EQ(otv_glyph_points_get(loc, 1, 0, &io), OTV_E_OK);
      uint64_t per_glyph = otv_location_work_used(loc);
      CHECK(per_glyph > LINES_PER_GLYPH); /* counted: more than its 8421 lines */
      otv_location_set_work_budget(loc, 40 * per_glyph);
      uint32_t g = 1;
      for (st = OTV_E_OK; g < NG && !st; g++) st = otv_glyph_points_get(loc, g, 0, &io);
      const otv_error *e = otv_location_last_error(loc);
      printf("C: %llu units per glyph; a budget of 40 glyphs stops at glyph %u: %s\n",
             (unsigned long long)per_glyph, g - 1, e->msg);
      CHECK_EQ(st, OTV_E_LIMIT);
      CHECK_EQ(e->table, T_CFF2);
      CHECK(strstr(e->msg, "work budget") != NULL);
      CHECK_EQ(g - 1, 41); /* glyphs 1-40 within, the 41st past it */
      otv_location_set_work_budget(loc, OTV_WORK_FONT);
      otv_location_clear_error(loc);
      for (st = OTV_E_OK, g = 1; g < NG && !st; g++) st = otv_glyph_points_get(loc, g, 0, &io);
      CHECK_EQ(st, OTV_E_OK);
      CHECK(otv_location_work_used(loc) <= otv_face_work_budget(v));
      otv_location_set_work_budget(loc, OTV_WORK_UNLIMITED);
      for (int pass = 0; pass < 4; pass++)
        for (st = OTV_E_OK, g = 1; g < NG && !st; g++) st = otv_glyph_points_get(loc, g, 0, &io);
      CHECK_EQ(st, OTV_E_OK);
    }
    otv_location_destroy(loc);
    otv_face_close(v);
  }
  free(font);
  font = NULL;
  /* B: blends on the callers' operands: every call inlined, over the budget */
  font = make_font(1, &len, &cff2_len);
  budget = 8 * (long long)cff2_len + (1 << 20);
  printf("B: %zu-byte CFF2 table, blends across calls, budget %lld bytes\n", cff2_len, budget);
  st = instance(font, len, 0, &tab, &peak, &out, &out_len, &a);
  CHECK_EQ(st, OTV_E_LIMIT);
  CHECK_EQ(tab, T_CFF2);
  printf("  CFF instance: status %d, peak %lld bytes\n", (int)st, peak);
  CHECK(peak < 3 * budget);
  CHECK_EQ(a.live_blocks, 0);
  free(out);
  /* ... and as CFF2 */
  st = instance(font, len, OTV_INSTANCE_CFF2, &tab, &peak, &out, &out_len, &a);
  CHECK_EQ(st, OTV_E_LIMIT);
  CHECK_EQ(tab, T_CFF2);
  printf("  CFF2 instance: status %d, peak %lld bytes\n", (int)st, peak);
  CHECK(peak < 3 * budget);
  CHECK_EQ(a.live_blocks, 0);
  free(out);
  free(font);
  return h_done("test_cff1_limits");
}

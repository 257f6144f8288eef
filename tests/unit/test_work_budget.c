/*
 * test_work_budget.c - work budgets of whole-font operations (docs/limits.md "Work budgets"):
 * fonts where every call stays under its per-call limits but every glyph costs the most a call
 * may, so that walking the whole font (what `otvar metrics --glyphs all` does) costs glyphs x
 * that. Built here in memory:
 *   fanout: 65535 glyphs; glyph k (2..16) is a composite of glyph k-1 twice, every later glyph
 *           a composite of glyph 16: 65535 component loads per glyph (the per-call cap is 65536;
 *           4.3e9 loads for the font, 546 s before the budget);
 *   gvar:   65535 glyphs; glyph 1 has 8000 points and 64 gvar tuples (all apply at wght=420),
 *           every later glyph is a composite of it (too big for the component cache): 512,000
 *           deltas per glyph;
 *   hvar:   65535 empty glyphs whose advances all map to one HVAR row of 65535 regions.
 * For each, a location with the face's budget armed (OTV_WORK_FONT) walks every glyph's metrics:
 * every call that succeeds leaves the work counter <= the budget (font bytes x 64 + 2^24, a
 * constant x the input), and the walk either finishes or fails with OTV_E_LIMIT naming the
 * table; the counting allocator's peak stays <= MEM_FACTOR x the font + MEM_FLOOR. Without the
 * budget the counter passes the bound after a few hundred glyphs and the test fails there
 * (instead of running for minutes). The HVAR bomb goes through (its row is read once per
 * location: the row memo of metrics.c). Also: a location without a budget never refuses, the
 * otv_options factor and switch, and instancing (which arms the budget itself).
 *
 * `test_work_budget --write DIR` writes the three fonts (for the CLI: tests/hostile).
 */
#include "harness.h"

#define NG 65535u
#define MEM_FACTOR 4
#define MEM_FLOOR ((long long)16 << 20)

#include "fontbuf.h"

/* A composite glyph record of components gid (count times), offsets 0. */
static void composite(bb *glyf, uint32_t gid, unsigned count)
{
  put16(glyf, 0xFFFF);
  for (int i = 0; i < 4; i++) put16(glyf, 0);
  for (unsigned i = 0; i < count; i++) {
    /* ARG_1_AND_2_ARE_WORDS | ARGS_ARE_XY_VALUES | MORE_COMPONENTS but the last */
    put16(glyf, 0x0001 | 0x0002 | (i + 1 < count ? 0x0020 : 0));
    put16(glyf, gid);
    put16(glyf, 0);
    put16(glyf, 0);
  }
}

/* fanout: see the top of the file. */
static uint8_t *make_fanout(size_t *len)
{
  tbl t[8] = {{"fvar", {0}}, {"glyf", {0}}, {"head", {0}}, {"hhea", {0}},
              {"hmtx", {0}}, {"loca", {0}}, {"maxp", {0}}, {"name", {0}}};
  bb *glyf = &t[1].d, *loca = &t[5].d;
  fvar_tbl(&t[0].d);
  put32(loca, 0); /* glyph 0 and 1: empty */
  put32(loca, 0);
  put32(loca, 0);
  for (unsigned g = 2; g < NG; g++) {
    composite(glyf, g <= 16 ? g - 1 : 16, g <= 16 ? 2 : 1);
    put32(loca, (uint32_t)glyf->n);
  }
  head_tbl(&t[2].d);
  hhea_tbl(&t[3].d, 1);
  hmtx_tbl(&t[4].d, 500, NG);
  maxp_tbl(&t[6].d, NG);
  name_tbl(&t[7].d);
  return sfnt(t, 8, 0x00010000, len);
}

#define GV_POINTS 8000u
#define GV_TUPLES 64u

/* gvar: see the top of the file. */
static uint8_t *make_gvar(size_t *len)
{
  tbl t[9] = {{"fvar", {0}}, {"glyf", {0}}, {"gvar", {0}}, {"head", {0}}, {"hhea", {0}},
              {"hmtx", {0}}, {"loca", {0}}, {"maxp", {0}}, {"name", {0}}};
  bb *glyf = &t[1].d, *gvar = &t[2].d, *loca = &t[6].d;
  fvar_tbl(&t[0].d);
  put32(loca, 0);
  put32(loca, 0);
  /* glyph 1: one contour of GV_POINTS on-curve points, x and y +1 each */
  simple_glyph_start(glyf, GV_POINTS, GV_POINTS, GV_POINTS);
  for (unsigned i = 0; i < 2 * GV_POINTS; i++) put8(glyf, 1);
  pad4(glyf);
  put32(loca, (uint32_t)glyf->n);
  for (unsigned g = 2; g < NG; g++) {
    composite(glyf, 1, 1);
    put32(loca, (uint32_t)glyf->n);
  }
  /* gvar: glyph 1 has GV_TUPLES tuples at peaks spread over (0, 1], every point, x and y
   * deltas in runs of 64 bytes of 1 */
  size_t offs_at, data0 = gvar_begin(gvar, NG, &offs_at);
  static const uint8_t ones[] = {1};
  bb one = gvar_tuple_all_points(GV_POINTS, ones, 1);
  gvar_tuples(gvar, &one, GV_TUPLES);
  free(one.p);
  size_t gend = gvar->n;
  set32(gvar, offs_at + 4, 0);
  for (unsigned g = 2; g <= NG; g++) set32(gvar, offs_at + 4 * (size_t)g, (uint32_t)(gend - data0));
  head_tbl(&t[3].d);
  hhea_tbl(&t[4].d, 1);
  hmtx_tbl(&t[5].d, 500, NG);
  maxp_tbl(&t[7].d, NG);
  name_tbl(&t[8].d);
  return sfnt(t, 9, 0x00010000, len);
}

#define HV_REGIONS 65535u

/* hvar: see the top of the file. */
static uint8_t *make_hvar(size_t *len)
{
  tbl t[9] = {{"HVAR", {0}}, {"fvar", {0}}, {"glyf", {0}}, {"head", {0}}, {"hhea", {0}},
              {"hmtx", {0}}, {"loca", {0}}, {"maxp", {0}}, {"name", {0}}};
  bb *hv = &t[0].d;
  /* HVAR header: version 1.0, store at 20, advance map at 20 + store, no side maps */
  put16(hv, 1);
  put16(hv, 0);
  put32(hv, 20);
  size_t map_at = hv->n;
  put32(hv, 0);
  put32(hv, 0);
  put32(hv, 0);
  /* ItemVariationStore: format 1, region list at 12, one data subtable */
  size_t ivs = hv->n;
  put16(hv, 1);
  put32(hv, 12);
  put16(hv, 1);
  size_t ivd_at = hv->n;
  put32(hv, 0);
  put16(hv, 1); /* region list: 1 axis */
  put16(hv, HV_REGIONS);
  for (unsigned r = 0; r < HV_REGIONS; r++) {
    put16(hv, 0);
    put16(hv, 16384u * (r % 16 + 1) / 16);
    put16(hv, 16384);
  }
  set32(hv, ivd_at, (uint32_t)(hv->n - ivs));
  put16(hv, 1);          /* itemCount */
  put16(hv, 0);          /* wordDeltaCount */
  put16(hv, HV_REGIONS); /* regionIndexCount */
  for (unsigned r = 0; r < HV_REGIONS; r++) put16(hv, r);
  for (unsigned r = 0; r < HV_REGIONS; r++) put8(hv, 1); /* the row: +1 per region */
  /* advance map: format 0, one entry (outer 0, inner 0): every glyph uses it (the last) */
  set32(hv, map_at, (uint32_t)hv->n);
  put8(hv, 0);
  put8(hv, 0x00); /* 1-byte entries, 1 inner bit */
  put16(hv, 1);
  put8(hv, 0);
  fvar_tbl(&t[1].d);
  put32(&t[2].d, 0); /* glyf: 4 bytes, every glyph empty */
  head_tbl(&t[3].d);
  hhea_tbl(&t[4].d, 1);
  hmtx_tbl(&t[5].d, 500, NG);
  for (unsigned g = 0; g <= NG; g++) put32(&t[6].d, 0);
  maxp_tbl(&t[7].d, NG);
  name_tbl(&t[8].d);
  return sfnt(t, 9, 0x00010000, len);
}

/* ---- the walk ---- */

/* Walk every glyph's metrics at wght=wght with the face's budget armed: every successful
 * call within the budget, the walk ending or failing OTV_E_LIMIT in table `tag`. */
static void walk(const char *what, const uint8_t *data, size_t len, double wght, uint32_t tag)
{
  h_peak pa = {0, 0, 0, 0};
  otv_options opt = {h_peak_realloc, &pa, 0};
  otv_face *f = NULL;
  otv_error e = {0};
  CHECK_EQ(otv_face_open_memory(data, len, 0, &opt, &f, &e), OTV_E_OK);
  otv_location *loc = NULL;
  CHECK_EQ(otv_location_create(f, &loc, &e), OTV_E_OK);
  if (!f || !loc) return;
  otv_axis_value v = {OTV_TAG('w', 'g', 'h', 't'), wght};
  CHECK_EQ(otv_location_set_user(loc, &v, 1), OTV_E_OK);
  uint64_t budget = otv_face_work_budget(f);
  /* the documented default: 64 units per byte of the font + 2^24 */
  CHECK_EQ(budget, ((uint64_t)len << 6) + (1u << 24));
  otv_location_set_work_budget(loc, OTV_WORK_FONT);
  CHECK_EQ(otv_location_work_used(loc), 0);
  otv_status s = OTV_E_OK;
  uint32_t g = 0;
  for (; g < NG; g++) {
    otv_glyph_metrics m;
    s = otv_glyph_h_metrics(loc, g, 0, &m);
    if (s) break;
    if (otv_location_work_used(loc) > budget) { /* unbounded: stop here, failed */
      CHECK(otv_location_work_used(loc) <= budget);
      break;
    }
  }
  char msg[200] = "";
  if (s) otv_error_format(otv_location_last_error(loc), msg, sizeof msg);
  printf("%s: %zu bytes, budget %llu, used %llu, %u of %u glyphs, %s; peak %lld bytes %s\n", what,
         len, (unsigned long long)budget, (unsigned long long)otv_location_work_used(loc), g, NG,
         otv_status_str(s), pa.peak, msg);
  CHECK(s == OTV_E_OK || s == OTV_E_LIMIT);
  if (s) {
    CHECK_EQ(otv_location_last_error(loc)->table, tag);
    CHECK(strstr(msg, "work budget") != NULL);
  }
  CHECK(pa.peak <= MEM_FACTOR * (long long)len + MEM_FLOOR);
  /* armed again: the count restarts, and the first glyphs go through again */
  otv_location_set_work_budget(loc, OTV_WORK_FONT);
  otv_location_clear_error(loc);
  otv_glyph_metrics m;
  CHECK_EQ(otv_glyph_h_metrics(loc, 2, 0, &m), OTV_E_OK);
  otv_location_destroy(loc);
  otv_face_close(f);
  CHECK_EQ(pa.live_blocks, 0);
}

/* A location without a budget counts but never refuses: the fan-out's glyph drawn past the face
 * budget. */
static void unarmed(const uint8_t *data, size_t len)
{
  otv_face *f = NULL;
  otv_location *loc = NULL;
  CHECK_EQ(otv_face_open_memory(data, len, 0, NULL, &f, NULL), OTV_E_OK);
  CHECK_EQ(otv_location_create(f, &loc, NULL), OTV_E_OK);
  if (!loc) return;
  uint64_t budget = otv_face_work_budget(f);
  unsigned calls = 0;
  while (otv_location_work_used(loc) <= budget && calls < 1000) {
    otv_glyph_metrics m;
    CHECK_EQ(otv_glyph_h_metrics(loc, 17, 0, &m), OTV_E_OK);
    calls++;
  }
  CHECK(otv_location_work_used(loc) > budget);
  printf("unarmed: %u calls, %llu units > budget %llu, no refusal\n", calls,
         (unsigned long long)otv_location_work_used(loc), (unsigned long long)budget);
  otv_location_destroy(loc);
  otv_face_close(f);
}

/* The HVAR bomb's row: read once per location (the memo), the same advance every time, 500 +
 * 4095 (at wght 900, normalized 1, only the regions peaking at 1 - every 16th of 65535 - count,
 * each +1); refused when a small budget is armed and the memo is cold. */
static void hvar_row(const uint8_t *data, size_t len)
{
  otv_face *f = NULL;
  otv_location *loc = NULL;
  CHECK_EQ(otv_face_open_memory(data, len, 0, NULL, &f, NULL), OTV_E_OK);
  CHECK_EQ(otv_location_create(f, &loc, NULL), OTV_E_OK);
  if (!loc) return;
  otv_axis_value v = {OTV_TAG('w', 'g', 'h', 't'), 900};
  CHECK_EQ(otv_location_set_user(loc, &v, 1), OTV_E_OK);
  for (uint32_t g = 0; g < 3; g++) {
    float adv = 0;
    otv_glyph_metrics m;
    CHECK_EQ(otv_glyph_advances(loc, &g, 1, 0, &adv), OTV_E_OK);
    CHECK_EQ(adv, 4595);
    CHECK_EQ(otv_glyph_h_metrics(loc, g, 0, &m), OTV_E_OK);
    CHECK_EQ(m.advance, 4595);
  }
  /* 6 reads, one of them the row's 65535 columns */
  CHECK(otv_location_work_used(loc) < 65535 + 6 * 100);
  v.value = 650; /* normalized 0.5: regions peaking at 8/16..16/16 count, 0.5 / peak each */
  CHECK_EQ(otv_location_set_user(loc, &v, 1), OTV_E_OK);
  otv_location_set_work_budget(loc, 1000);
  otv_glyph_metrics m;
  CHECK_EQ(otv_glyph_h_metrics(loc, 9, 0, &m), OTV_E_LIMIT);
  CHECK_EQ(otv_location_last_error(loc)->table, OTV_TAG('H', 'V', 'A', 'R'));
  float adv = 0;
  uint32_t g = 9;
  CHECK_EQ(otv_glyph_advances(loc, &g, 1, 0, &adv), OTV_E_LIMIT);
  otv_location_set_work_budget(loc, OTV_WORK_UNLIMITED);
  CHECK_EQ(otv_glyph_h_metrics(loc, 9, 0, &m), OTV_E_OK);
  CHECK(m.advance > 500.0f);
  otv_location_destroy(loc);
  otv_face_close(f);
}

/* otv_options: the factor and the switch. */
static void options(const uint8_t *data, size_t len)
{
  otv_options opt = {NULL, NULL, OTV_OPT_WORK_FACTOR_LOG2(8)};
  otv_face *f = NULL;
  CHECK_EQ(otv_face_open_memory(data, len, 0, &opt, &f, NULL), OTV_E_OK);
  CHECK_EQ(otv_face_work_budget(f), ((uint64_t)len << 8) + (1u << 24));
  otv_face_close(f);
  opt.flags = OTV_OPT_NO_WORK_BUDGET;
  CHECK_EQ(otv_face_open_memory(data, len, 0, &opt, &f, NULL), OTV_E_OK);
  CHECK(otv_face_work_budget(f) == OTV_WORK_UNLIMITED);
  otv_location *loc = NULL;
  CHECK_EQ(otv_location_create(f, &loc, NULL), OTV_E_OK);
  otv_location_set_work_budget(loc, OTV_WORK_FONT);
  otv_glyph_metrics m;
  CHECK_EQ(otv_glyph_h_metrics(loc, 20, 0, &m), OTV_E_OK);
  otv_location_destroy(loc);
  otv_face_close(f);
  CHECK_EQ(otv_face_work_budget(NULL), OTV_WORK_UNLIMITED);
  otv_location_set_work_budget(NULL, 5);
  CHECK_EQ(otv_location_work_used(NULL), 0);
}

/* Instancing arms the face's budget for itself and leaves the caller's as it was. */
static void instancing(const uint8_t *data, size_t len)
{
  otv_face *f = NULL;
  otv_location *loc = NULL;
  CHECK_EQ(otv_face_open_memory(data, len, 0, NULL, &f, NULL), OTV_E_OK);
  CHECK_EQ(otv_location_create(f, &loc, NULL), OTV_E_OK);
  if (!loc) return;
  otv_axis_value v = {OTV_TAG('w', 'g', 'h', 't'), 700};
  CHECK_EQ(otv_location_set_user(loc, &v, 1), OTV_E_OK);
  otv_location_set_work_budget(loc, 12345);
  uint8_t *out = NULL;
  size_t out_len = 0;
  otv_status s = otv_instance_create(loc, 0, &out, &out_len);
  printf("instance: %s, %zu bytes\n", otv_status_str(s), out_len);
  CHECK(s == OTV_E_OK || s == OTV_E_LIMIT);
  CHECK_EQ(otv_location_work_used(loc), 0); /* the caller's count is untouched */
  otv_instance_free(loc, out, out_len);
  otv_location_destroy(loc);
  otv_face_close(f);
}

static void write_font(const char *dir, const char *name, const uint8_t *p, size_t n)
{
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *fp = fopen(path, "wb");
  if (!fp || fwrite(p, 1, n, fp) != n || fclose(fp)) {
    fprintf(stderr, "cannot write %s\n", path);
    exit(2);
  }
}

int main(int argc, char **argv)
{
  size_t la, lg, lh;
  uint8_t *fa = make_fanout(&la), *fg = make_gvar(&lg), *fh = make_hvar(&lh);
  if (argc == 3 && !strcmp(argv[1], "--write")) {
    write_font(argv[2], "bomb_fanout.ttf", fa, la);
    write_font(argv[2], "bomb_gvar.ttf", fg, lg);
    write_font(argv[2], "bomb_hvar.ttf", fh, lh);
    free(fa);
    free(fg);
    free(fh);
    return 0;
  } else {
    walk("fanout", fa, la, 400, OTV_TAG('g', 'l', 'y', 'f'));
    walk("gvar", fg, lg, 420, OTV_TAG('g', 'v', 'a', 'r'));
    walk("hvar", fh, lh, 900, OTV_TAG('H', 'V', 'A', 'R'));
    unarmed(fa, la);
    hvar_row(fh, lh);
    options(fh, lh);
    instancing(fa, la);
    instancing(fg, lg);
  }
  free(fa);
  free(fg);
  free(fh);
  return h_done("test_work_budget");
}

/*
 * fuzz_build.c - otv_build (src/build/) on hostile masters. The input is one master font, used
 * as the default master and again at the axis maximum (the master reader, glyph matching and
 * every table builder run on it; the deltas are 0), or, when it ends with the 8-byte trailer
 * 'B' 'S' k(u32, big-endian) flags alloc, two fonts: bytes [0, k) the default master, [k, end
 * of the trailer) the master at the maximum. flags bit 0: an allocator that fails from call
 * 1 + 4 * alloc on; bit 1: a third master (the default's bytes) at the minimum, which must be
 * refused as a duplicate of the default only when the minimum equals the default; bit 2: a
 * named instance; bit 3: an axis map; bit 4: an avar 2 mapping (design 650 -> 700, and the
 * origin moved to the next byte's value when bit 5 is set); bit 6: rules (uni0024 ->
 * uni0024.nostroke above weight 500, and uni0041 -> uni0061 in a second set below 300, so
 * the test masters' names are found); bit 7: STAT axes (otv_designspace.stat_axes: an ital
 * axis fvar lacks, as a font of a discrete axis), labels and a location label on them. A built
 * font must open again and draw its first glyphs.
 * CFF and CFF2 masters (OTTO fonts) take the CFF2 path (build/cff2.c): seeds cff-two-masters and
 * cff-cid-masters in corpus/build, regressions cff-* (sparse, CFF2 input, allocation failures).
 */
#include "face.h"
#include "fuzz_alloc.h"
#include "core/reader.h"

#include <math.h>
#include <string.h>

static void null_move(void *ctx, float x, float y) { (void)ctx, (void)x, (void)y; }
static void null_line(void *ctx, float x, float y) { (void)ctx, (void)x, (void)y; }
static void null_quad(void *ctx, float a, float b, float x, float y)
{
  (void)ctx, (void)a, (void)b, (void)x, (void)y;
}
static void null_cubic(void *ctx, float a, float b, float c, float d, float x, float y)
{
  (void)ctx, (void)a, (void)b, (void)c, (void)d, (void)x, (void)y;
}
static void null_close(void *ctx) { (void)ctx; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  const uint8_t *a = data, *b = data;
  size_t alen = size, blen = size;
  unsigned flags = 0, alloc = 0;
  if (size >= 8 && data[size - 8] == 'B' && data[size - 7] == 'S') {
    size_t k = otv_peek_u32(data + size - 6);
    flags = data[size - 2], alloc = data[size - 1];
    if (k > size - 8) return 0;
    alen = k, b = data + k, blen = size - 8 - k;
  }
  fz_alloc fa = {0, 0};
  if (flags & 1) fa.fail_at = 1u + alloc * 4u;
  otv_options opt = {fz_realloc, &fa, 0};
  static const otv_build_map map[] = {{100, 100}, {400, 250}, {900, 900}};
  otv_build_axis ax = {OTV_TAG('w', 'g', 'h', 't'), "Weight", 100, 400, 900, false, NULL, 0};
  if (flags & 8) ax.map = map, ax.map_count = 3;
  double loc_def = flags & 8 ? 250 : 400, loc_max = 900, loc_min = 100;
  otv_build_source src[3] = {
      {"default", &loc_def, a, alen}, {"max", &loc_max, b, blen}, {"min", &loc_min, a, alen}};
  otv_build_instance inst = {"Bold", "Fuzz-Bold", &loc_max};
  double m_in[2] = {650, alloc * 4.0}, m_out[2] = {700, 400};
  otv_build_mapping mp[2] = {{&m_in[0], &m_out[0]}, {&m_in[1], &m_out[1]}};
  otv_designspace ds;
  memset(&ds, 0, sizeof ds);
  ds.axes = &ax, ds.axis_count = 1, ds.sources = src, ds.source_count = flags & 2 ? 3u : 2u;
  ds.instances = &inst, ds.instance_count = flags & 4 ? 1u : 0u;
  if (flags & 16) ds.mappings = mp, ds.mapping_count = flags & 32 ? 2u : 1u;
  static const otv_build_condition cond[2] = {{0, 500, NAN}, {0, NAN, 300}};
  static const otv_build_conditionset sets[2] = {{&cond[0], 1}, {&cond[1], 1}};
  static const char *const from[2] = {"uni0024", "uni0041"}, *const to[2] = {"uni0024.nostroke",
                                                                             "uni0061"};
  static const otv_build_rule rules[2] = {{&sets[0], 1, from, to, 1},
                                          {sets, 2, from + 1, to + 1, 1}};
  if (flags & 64) ds.rules = rules, ds.rule_count = 2;
  /* bit 7: STAT axes of a font of part of a designspace (an ital axis fvar lacks), labels on
   * both and a location label */
  static const otv_build_stat_axis sax[2] = {{OTV_TAG('i', 't', 'a', 'l'), "Italic", 3, -1},
                                             {OTV_TAG('w', 'g', 'h', 't'), "Weight", 0, 0}};
  static const otv_build_label lab[3] = {{0, 1, NAN, NAN, NAN, "Italic", 0},
                                         {1, 400, NAN, 500, NAN, "Regular", 2},
                                         {1, 700, NAN, NAN, 400, "Bold", 0}};
  static const double ll_loc[2] = {1, 700};
  static const otv_build_location_label ll = {"Bold Italic", ll_loc, 1};
  if (flags & 128) {
    ds.stat_axes = sax, ds.stat_axis_count = 2;
    ds.labels = lab, ds.label_count = 3;
    ds.location_labels = &ll, ds.location_label_count = 1;
  }
  uint8_t *out = NULL;
  size_t len = 0;
  otv_error err = {0};
  if (otv_build(&ds, &opt, &out, &len, &err) != OTV_E_OK) {
    if (err.msg[0] == 0) __builtin_trap(); /* every failure says why */
    return 0;
  }
  fa.fail_at = 0;
  otv_face *f = NULL;
  if (otv_face_open_memory(out, len, 0, NULL, &f, NULL) == OTV_E_OK) {
    otv_location *loc = NULL;
    if (otv_location_create(f, &loc, NULL) == OTV_E_OK) {
      otv_axis_value v = {OTV_TAG('w', 'g', 'h', 't'), 650};
      otv_location_set_user(loc, &v, 1);
      otv_pen pen = {null_move, null_line, null_quad, null_cubic, null_close};
      for (uint32_t g = 0; g < 16; g++) otv_glyph_outline(loc, g, 0, &pen, NULL);
      otv_location_destroy(loc);
    }
    otv_face_close(f);
  }
  otv_build_free(&opt, out, len);
  return 0;
}

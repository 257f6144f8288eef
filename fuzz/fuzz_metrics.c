/*
 * fuzz_metrics.c - the metrics tables: open (hhea/hmtx, vhea/vmtx, VORG, HVAR, VVAR, MVAR are
 * validated there), then at the default and at a location taken from the input's last bytes:
 * batch advances (horizontal, vertical, synthesized vertical, rounded), per-glyph horizontal and
 * vertical metrics
 * (side bearings draw the outline), every MVAR value tag plus unknown ones. The very last byte,
 * when odd, switches on an allocator that fails after a count taken from the byte before it.
 * Invariants checked: the batch advance equals the per-glyph advance, and ROUND is
 * floor(x + 0.5) of the unrounded value.
 */
#include "face.h"
#include "fuzz_alloc.h"

#include <stdlib.h>

#define MAX_GLYPHS 64

static void run(otv_location *loc, uint32_t glyph_count)
{
  uint32_t gids[MAX_GLYPHS + 1];
  float adv[MAX_GLYPHS + 1], advr[MAX_GLYPHS + 1];
  size_t n = glyph_count < MAX_GLYPHS ? glyph_count : MAX_GLYPHS;
  for (size_t i = 0; i < n; i++) gids[i] = (uint32_t)i;
  gids[n] = glyph_count; /* one out of range: must be refused, not read */
  for (int v = 0; v < 3; v++) {
    /* v == 2: vertical with OTV_METRICS_SYNTHESIZE (fonts without vmtx) */
    unsigned mf = v == 2 ? OTV_METRICS_SYNTHESIZE : 0;
    unsigned vf = (v ? OTV_METRICS_VERTICAL : 0) | mf;
    otv_status s1 = otv_glyph_advances(loc, gids, n + 1, vf, adv);
    otv_status s2 = otv_glyph_advances(loc, gids, n + 1, vf | OTV_METRICS_ROUND, advr);
    bool synth = v == 2 && !loc->face->met.v.present;
    for (size_t i = 0; i < n && i < 8; i++) {
      otv_glyph_metrics m, mr;
      otv_status s =
          v ? otv_glyph_v_metrics(loc, gids[i], mf, &m) : otv_glyph_h_metrics(loc, gids[i], mf, &m);
      if (s == OTV_E_OK && s1 == OTV_E_ARG && s2 == OTV_E_ARG && adv[i] == adv[i] &&
          m.advance != adv[i])
        abort(); /* batch and per-glyph disagree */
      if (synth) {
        /* synthesized: round(asc) - round(desc), as the per-glyph call rounds it */
        if (s == OTV_E_OK && s2 == OTV_E_ARG &&
            otv_glyph_v_metrics(loc, gids[i], mf | OTV_METRICS_ROUND, &mr) == OTV_E_OK &&
            mr.advance == mr.advance && mr.advance != advr[i])
          abort();
      } else if (s1 == OTV_E_ARG && s2 == OTV_E_ARG && adv[i] == adv[i] &&
                 advr[i] != floorf(adv[i] + 0.5f)) {
        abort(); /* ROUND is not floor(x + 0.5) */
      }
    }
  }
  for (int k = 0; k < OTV_MVAR_TAG_COUNT; k++) {
    float x;
    otv_font_metric(loc, otv_mvar_tags[k], k & 1 ? OTV_METRICS_ROUND : 0, &x);
  }
  float x;
  otv_font_metric(loc, OTV_TAG('z', 'z', 'z', 'z'), 0, &x);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  fz_alloc a;
  otv_face_info info;
  otv_location *loc;
  otv_face *f = fz_open(data, size, 1, &a, &info, &loc);
  if (!f) return 0;
  run(loc, info.glyph_count);
  otv_f2dot14 c[8];
  for (unsigned i = 0; i < 8; i++)
    c[i] = (otv_f2dot14)(size > 16 + i ? (int8_t)data[size - 3 - i] * 128 : 0);
  otv_location_set_normalized(loc, c, 8);
  run(loc, info.glyph_count);
  otv_location_destroy(loc);
  otv_face_close(f);
  return 0;
}

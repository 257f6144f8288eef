/*
 * fuzz_designspace.c - the CLI's designspace reader (tools/designspace.c, expat) on arbitrary XML:
 * ds_parse, then every variable font of a document with discrete axes or <variable-fonts> split out
 * (ds_subspace, at most 64 of them) and its locations, rules and labels checked against the
 * sub-space's axis count (labels: its STAT axes), its maps still increasing. Masters are not read
 * (no files). Seeds and regressions in fuzz/regressions/designspace/.
 */
#include "designspace.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  ds_doc d;
  char msg[256];
  if (ds_parse(&d, (const char *)data, size, msg, sizeof msg) == 0) {
    unsigned n = ds_vf_count(&d);
    for (unsigned k = 0; k < n && k < 64; k++) {
      ds_sub sub;
      if (ds_subspace(&d, k, &sub, msg, sizeof msg) == 0) {
        const otv_designspace *s = &sub.ds;
        double sum = 0;
        for (unsigned i = 0; i < s->source_count; i++)
          for (unsigned a = 0; a < s->axis_count; a++) sum += s->sources[i].location[a];
        for (unsigned i = 0; i < s->instance_count; i++)
          for (unsigned a = 0; a < s->axis_count; a++) sum += s->instances[i].location[a];
        for (unsigned r = 0; r < s->rule_count; r++)
          for (unsigned j = 0; j < s->rules[r].set_count; j++)
            for (unsigned c = 0; c < s->rules[r].sets[j].condition_count; c++)
              if (s->rules[r].sets[j].conditions[c].axis >= s->axis_count) abort();
        /* labels index the STAT axes (every axis of the document) when there are any */
        unsigned lac = s->stat_axis_count ? s->stat_axis_count : s->axis_count;
        for (unsigned l = 0; l < s->label_count; l++)
          if (s->labels[l].axis >= lac) abort();
        for (unsigned l = 0; l < s->location_label_count; l++)
          for (unsigned a = 0; a < lac; a++) sum += s->location_labels[l].location[a];
        for (unsigned a = 0; a < s->stat_axis_count; a++)
          if (s->stat_axes[a].axis >= (int)s->axis_count) abort();
        /* a map clipped to a range stays increasing when the document's was (the STAT axes
         * are the document's, in order: stat_axes[a].axis is axis a's index in the font) */
        for (unsigned a = 0; a < s->stat_axis_count && a < d.ds.axis_count; a++) {
          const otv_build_axis *o = &d.ds.axes[a];
          bool inc = true;
          for (unsigned i = 1; i < o->map_count; i++) inc &= o->map[i].input > o->map[i - 1].input;
          int f = s->stat_axes[a].axis;
          if (!inc || f < 0) continue;
          for (unsigned i = 1; i < s->axes[f].map_count; i++)
            if (!(s->axes[f].map[i].input > s->axes[f].map[i - 1].input)) abort();
        }
        (void)sum;
      }
      ds_sub_free(&sub);
    }
  }
  ds_free(&d);
  return 0;
}

/*
 * util_metrics.c - cli_print_font_metrics (otvar info --metrics) and the number format shared
 * with `otvar metrics`: at most 3 decimals, no trailing zeros, never "-0".
 */
#include "cli.h"

#include <stdio.h>
#include <string.h>

/* Format v with at most 3 decimals, trailing zeros (and a bare '.') removed. */
void cli_metrics_num(double v, char buf[32]);
void cli_metrics_num(double v, char buf[32])
{
  snprintf(buf, 32, "%.3f", v);
  char *dot = strchr(buf, '.');
  if (dot) {
    char *end = buf + strlen(buf);
    while (end > dot && (end[-1] == '0' || end[-1] == '.')) {
      bool was_dot = end[-1] == '.';
      *--end = 0;
      if (was_dot) break;
    }
  }
  if (!strcmp(buf, "-0")) strcpy(buf, "0");
}

/* The registered MVAR value tags, in the spec's order, then otvar's own. */
static const char *const metric_tags[] = {
    "hasc",
    "hdsc",
    "hlgp",
    "hcla",
    "hcld",
    "vasc",
    "vdsc",
    "vlgp",
    "hcrs",
    "hcrn",
    "hcof",
    "vcrs",
    "vcrn",
    "vcof",
    "xhgt",
    "cpht",
    "sbxs",
    "sbys",
    "sbxo",
    "sbyo",
    "spxs",
    "spys",
    "spxo",
    "spyo",
    "strs",
    "stro",
    "unds",
    "undo",
    "gsp0",
    "gsp1",
    "gsp2",
    "gsp3",
    "gsp4",
    "gsp5",
    "gsp6",
    "gsp7",
    "gsp8",
    "gsp9",
    /* otvar's tags for values no MVAR record varies (see otv_font_metric) */
    "HASC",
    "HDSC",
    "HLGP",
    "UPEM",
    "XMIN",
    "YMIN",
    "XMAX",
    "YMAX",
    "ITAL",
};

void cli_print_font_metrics(otv_location *loc, FILE *out, int json)
{
  if (!loc) return;
  int n = 0;
  for (size_t i = 0; i < sizeof metric_tags / sizeof *metric_tags; i++) {
    const char *t = metric_tags[i];
    float v;
    if (otv_font_metric(loc, OTV_TAG(t[0], t[1], t[2], t[3]), 0, &v) != OTV_E_OK) continue;
    char num[32];
    cli_metrics_num(v, num);
    if (json)
      fprintf(out, "%s\"%s\": %s", n ? ", " : "", t, num);
    else
      fprintf(out, "  %s %s\n", t, num);
    n++;
  }
}

/* util_metrics.c - placeholder until the metrics work (issue 4) lands cli_print_font_metrics. */
#include "cli.h"
void cli_print_font_metrics(otv_location *loc, FILE *out, int json)
{
  (void)loc;
  (void)json;
  fprintf(out, "%s", json ? "" : "(font-wide metrics not available yet)\n");
}

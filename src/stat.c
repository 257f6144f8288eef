/* stat.c - placeholder until the STAT module lands (issue 2). */
#include "internal.h"
otv_status otv_stat_parse(otv_face *f, otv_error *err) { (void)f; (void)err; return OTV_E_OK; }
void otv_stat_free(otv_face *f) { (void)f; }
void otv_face_stat(const otv_face *f, otv_stat_info *out) { (void)f; memset(out, 0, sizeof *out); }
unsigned otv_face_stat_axes(const otv_face *f, unsigned start, unsigned *count, otv_stat_axis *out)
{ (void)f; (void)start; (void)out; if (count) *count = 0; return 0; }
unsigned otv_face_stat_values(const otv_face *f, unsigned start, unsigned *count, otv_stat_value *out)
{ (void)f; (void)start; (void)out; if (count) *count = 0; return 0; }
unsigned otv_face_stat_value_records(const otv_face *f, unsigned v, unsigned start, unsigned *count,
                                     otv_stat_axis_value_record *out)
{ (void)f; (void)v; (void)start; (void)out; if (count) *count = 0; return 0; }

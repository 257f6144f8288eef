/*
 * stat.h - STAT: design axes and axis value tables (formats 1-4), validated at open and read
 * through the accessors behind otv_face_stat* (otvar.h). Implemented in stat.c.
 */
#ifndef OTV_STAT_H
#define OTV_STAT_H

#include "core/core.h"

typedef struct otv_stat {
  bool present;
  uint16_t minor_version;
  uint16_t design_axis_size;
  uint16_t design_axis_count;
  uint16_t axis_value_count;
  uint16_t elided_fallback_name_id; /* 0xFFFF for version 1.0 */
  otv_span tab;
  const uint8_t *design_axes;   /* design_axis_count x design_axis_size (checked at parse) */
  const uint8_t *value_offsets; /* axis_value_count Offset16 (checked; each table checked) */
  size_t value_base;            /* offsets are from here (offsetToAxisValueOffsets) */
} otv_stat;

/* tab may be empty (no STAT: present stays false). */
otv_status otv_stat_parse(otv_span tab, otv_stat *out, otv_error *err);
void otv_stat_get_info(const otv_stat *st, otv_stat_info *out);
unsigned otv_stat_axes(const otv_stat *st, unsigned start, unsigned *count, otv_stat_axis *out);
unsigned otv_stat_values(const otv_stat *st, unsigned start, unsigned *count, otv_stat_value *out);
unsigned otv_stat_value_records(const otv_stat *st, unsigned value_index, unsigned start,
                                unsigned *count, otv_stat_axis_value_record *out);

#endif

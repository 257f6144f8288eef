/* stat.h - STAT: design axes and axis value tables (formats 1-4). Implemented in stat.c. */
#ifndef OTV_STAT_H
#define OTV_STAT_H
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
otv_status otv_stat_parse(otv_face *f, otv_error *err);
void otv_stat_free(otv_face *f);
#endif

/* stat.h - STAT: design axes and axis value tables (formats 1-4). Implemented in stat.c. */
#ifndef OTV_STAT_H
#define OTV_STAT_H
typedef struct otv_stat {
  bool present;
} otv_stat;
otv_status otv_stat_parse(otv_face *f, otv_error *err);
void otv_stat_free(otv_face *f);
#endif

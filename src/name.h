/* name.h - the name table, decoded to UTF-8 on request. Implemented in name.c. */
#ifndef OTV_NAME_H
#define OTV_NAME_H
typedef struct otv_name {
  bool present;
} otv_name;
otv_status otv_name_parse(otv_face *f, otv_error *err);
void otv_name_free(otv_face *f);
#endif

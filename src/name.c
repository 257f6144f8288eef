/* name.c - placeholder until the name module lands (issue 2). */
#include "internal.h"
otv_status otv_name_parse(otv_face *f, otv_error *err) { (void)f; (void)err; return OTV_E_OK; }
void otv_name_free(otv_face *f) { (void)f; }
otv_status otv_face_name(const otv_face *f, uint16_t id, char *buf, size_t cap, size_t *out_len,
                         otv_error *err)
{ (void)f; (void)buf; (void)cap; if (out_len) *out_len = 0; return OTV_FAIL(err, NOT_FOUND, OTV_T_NAME, 0, "name %u", id); }

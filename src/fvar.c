/* fvar.c - placeholder until the fvar/avar module lands (issue 2). */
#include "internal.h"
otv_status otv_fvar_parse(otv_face *f, otv_error *err) { (void)f; (void)err; return OTV_E_OK; }
void otv_fvar_free(otv_face *f) { (void)f; }
uint32_t otv_fvar_axis_tag(const otv_face *f, unsigned axis) { (void)f; (void)axis; return 0; }
double otv_fvar_axis_default(const otv_face *f, unsigned axis) { (void)f; (void)axis; return 0; }
otv_status otv_fvar_normalize(const otv_face *f, const double *user, otv_f2dot14 *out,
                              const otv_alloc *al, otv_error *err)
{ (void)f; (void)user; (void)out; (void)al; (void)err; return OTV_E_OK; }
unsigned otv_face_axes(const otv_face *f, unsigned start, unsigned *count, otv_axis *out)
{ (void)f; (void)start; (void)out; if (count) *count = 0; return 0; }
unsigned otv_face_named_instances(const otv_face *f, unsigned start, unsigned *count,
                                  otv_named_instance *out)
{ (void)f; (void)start; (void)out; if (count) *count = 0; return 0; }
otv_status otv_face_named_instance_coords(const otv_face *f, unsigned instance, double *coords,
                                          unsigned cap, otv_error *err)
{ (void)f; (void)coords; (void)cap; return OTV_FAIL(err, NOT_FOUND, OTV_T_FVAR, 0, "instance %u", instance); }

/*
 * fvar.h - fvar (axes, named instances) and avar (v1 segment maps, v2 axisIndexMap + IVS), and
 * the user -> normalized coordinate pipeline. Implemented in fvar.c, avar.c and coords.c.
 */
#ifndef OTV_FVAR_H
#define OTV_FVAR_H

typedef struct otv_fvar {
  bool present;
  uint16_t axis_count;
  uint16_t instance_count;
  uint16_t instance_size;
  const uint8_t *axes;      /* axis_count x 20 bytes (checked in otv_fvar_parse) */
  const uint8_t *instances; /* instance_count x instance_size bytes (checked) */
  uint16_t avar_version;    /* 0: no avar */
} otv_fvar;

otv_status otv_fvar_parse(otv_face *f, otv_error *err); /* fvar and avar */
void otv_fvar_free(otv_face *f);
uint32_t otv_fvar_axis_tag(const otv_face *f, unsigned axis);
double otv_fvar_axis_default(const otv_face *f, unsigned axis);
/* user[axis_count] -> out[axis_count]: clamp, default normalization, avar v1, avar v2. */
otv_status otv_fvar_normalize(const otv_face *f, const double *user, otv_f2dot14 *out,
                              const otv_alloc *al, otv_error *err);

#endif

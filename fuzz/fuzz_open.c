/*
 * fuzz_open.c - face open, then everything `otvar info` and `otvar normalize` read: tables, axes,
 * named instances and their coordinates, names (whole and into small buffers), STAT (design
 * axes, axis values, format 4 records), and normalization at coordinates chosen by the input's
 * last bytes, at every axis extreme, at named instances, and from normalized values. The very
 * last byte, when odd, switches on an allocator that fails after a count taken from the byte
 * before it.
 */
#include "face.h"
#include "fuzz_alloc.h"

#include <stdlib.h>

/* Record i of a paged list, asked for alone (start i, capacity 1): the paging path. */
#define RECORD_AT(list, f, i, out) ((void)list(f, i, &(unsigned){1}, out))

static void names(const otv_face *f, uint16_t id)
{
  char big[512], small[4];
  size_t len = 0;
  otv_face_name(f, id, big, sizeof big, &len, NULL);
  otv_face_name(f, id, small, sizeof small, NULL, NULL);
  otv_face_name(f, id, NULL, 0, &len, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  fz_alloc a;
  otv_options opt = fz_options(&a, data, size, 1);
  unsigned faces = otv_font_face_count(data, size);
  unsigned index = faces > 1 && size > 3 ? data[size - 3] % (faces < 4 ? faces : 4) : 0;
  otv_face *f = NULL;
  if (otv_face_open_memory(data, size, index, &opt, &f, NULL)) return 0;
  otv_face_info info;
  otv_face_get_info(f, &info);

  otv_table_record tr[8];
  unsigned n = 8;
  otv_face_tables(f, 0, &n, tr);
  for (unsigned i = 0; i < n; i++) (void)otv_face_table(f, tr[i].tag, NULL);

  otv_axis axes[OTV_MAX_AXES];
  unsigned axis_count = OTV_MAX_AXES;
  otv_face_axes(f, 0, &axis_count, axes);
  for (unsigned i = 0; i < axis_count; i++) names(f, axes[i].name_id);

  double coords[OTV_MAX_AXES];
  unsigned inst_total = otv_face_named_instances(f, 0, NULL, NULL);
  for (unsigned i = 0; i < inst_total && i < 64; i++) {
    otv_named_instance ni;
    RECORD_AT(otv_face_named_instances, f, i, &ni);
    names(f, ni.subfamily_name_id);
    if (ni.postscript_name_id != 0xFFFF) names(f, ni.postscript_name_id);
    otv_face_named_instance_coords(f, i, coords, OTV_MAX_AXES, NULL);
  }
  otv_face_named_instance_coords(f, inst_total, coords, OTV_MAX_AXES, NULL);
  for (uint16_t id = 0; id < 26; id++) names(f, id);

  otv_stat_info st;
  otv_face_stat(f, &st);
  if (st.present && st.elided_fallback_name_id != 0xFFFF) names(f, st.elided_fallback_name_id);
  unsigned sa_total = otv_face_stat_axes(f, 0, NULL, NULL);
  for (unsigned i = 0; i < sa_total && i < 64; i++) {
    otv_stat_axis sa;
    RECORD_AT(otv_face_stat_axes, f, i, &sa);
    names(f, sa.name_id);
  }
  unsigned sv_total = otv_face_stat_values(f, 0, NULL, NULL);
  for (unsigned i = 0; i < sv_total && i < 256; i++) {
    otv_stat_value sv;
    RECORD_AT(otv_face_stat_values, f, i, &sv);
    names(f, sv.name_id);
    otv_stat_axis_value_record rec[8];
    unsigned rc = 8;
    otv_face_stat_value_records(f, i, 0, &rc, rec);
  }

  otv_location *loc = NULL;
  if (!otv_location_create(f, &loc, NULL)) {
    double user[8];
    for (unsigned i = 0; i < 8; i++)
      user[i] = size > 16 + i ? (double)(int8_t)data[size - 3 - i] * 10.0 : 0.0;
    otv_f2dot14 c[OTV_MAX_AXES];
    otv_fixed fx[OTV_MAX_AXES];
    double real[OTV_MAX_AXES];
    /* every normalization model on the same values (hostile fvar ranges and avar maps) */
    for (int m = 0; m < OTV_NORM_MODEL_COUNT; m++) {
      otv_face_normalize(f, (otv_norm_model)m, user, 8, fx, c, real, NULL);
      otv_location_set_model(loc, (otv_norm_model)m);
      otv_location_set_user_coords(loc, user, 8);
    }
    otv_location_set_model(loc, (otv_norm_model)(data[0] % OTV_NORM_MODEL_COUNT));
    otv_location_normalized(loc, c, OTV_MAX_AXES);
    otv_location_normalized_fixed(loc, fx, OTV_MAX_AXES);
    /* every axis at its extremes and just outside (clamping) */
    for (unsigned i = 0; i < axis_count; i++) {
      otv_axis_value v[2] = {{axes[i].tag, axes[i].min_value}, {axes[i].tag, axes[i].max_value}};
      otv_location_set_user(loc, v, 1);
      otv_location_set_user(loc, v + 1, 1);
      v[0].value = axes[i].min_value - 1e6;
      v[1].value = axes[i].max_value + 1e300;
      otv_location_set_user(loc, v, 2);
      otv_location_normalized(loc, c, OTV_MAX_AXES);
    }
    if (inst_total) {
      otv_location_set_named(loc, data[0] % inst_total);
      otv_location_set_named(loc, inst_total - 1);
    }
    otv_f2dot14 nc[4] = {-16384, 16384, 0, 8192};
    otv_location_set_normalized(loc, nc, 4);
    otv_location_reset(loc);
    otv_location_destroy(loc);
  }
  otv_face_close(f);
  return 0;
}

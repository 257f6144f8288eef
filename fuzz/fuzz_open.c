/*
 * fuzz_open.c - face open, then everything `otvar info` and `otvar normalize` read: tables, axes,
 * named instances, names, STAT, and normalization at coordinates chosen by the input's last
 * bytes. The very last byte, when odd, switches on an allocator that fails after a count taken
 * from the byte before it.
 */
#include "internal.h"

#include <stdlib.h>

typedef struct fz_alloc { unsigned calls, fail_at; } fz_alloc;
static void *fz_realloc(void *ud, void *p, size_t old_len, size_t new_len)
{
  fz_alloc *a = ud;
  (void)old_len;
  if (!new_len) { free(p); return NULL; }
  if (a->fail_at && ++a->calls >= a->fail_at) return NULL;
  return realloc(p, new_len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  fz_alloc a = {0, 0};
  otv_options opt = {fz_realloc, &a, 0};
  if (size >= 2 && (data[size - 1] & 1)) a.fail_at = 1u + data[size - 2];
  otv_face *f = NULL;
  if (otv_face_open_memory(data, size, 0, &opt, &f, NULL)) return 0;
  otv_face_info info;
  otv_face_get_info(f, &info);
  unsigned n = 4;
  otv_axis axes[4];
  otv_face_axes(f, 0, &n, axes);
  otv_named_instance ni[4];
  n = 4;
  otv_face_named_instances(f, 0, &n, ni);
  char name[64];
  for (unsigned i = 0; i < n; i++) otv_face_name(f, ni[i].subfamily_name_id, name, sizeof name, NULL, NULL);
  otv_stat_info st;
  otv_face_stat(f, &st);
  otv_stat_value sv[4];
  n = 4;
  otv_face_stat_values(f, 0, &n, sv);
  otv_location *loc = NULL;
  if (!otv_location_create(f, &loc, NULL)) {
    double user[8];
    for (unsigned i = 0; i < 8; i++)
      user[i] = size > 16 + i ? (double)(int8_t)data[size - 3 - i] * 10.0 : 0.0;
    otv_location_set_user_coords(loc, user, 8);
    otv_f2dot14 c[8];
    otv_location_normalized(loc, c, 8);
    if (info.instance_count) otv_location_set_named(loc, data[0] % info.instance_count);
    otv_location_destroy(loc);
  }
  otv_face_close(f);
  return 0;
}

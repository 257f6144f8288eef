/*
 * test_api_null.c - the API's getters with NULL outputs (otvar.h, "Paged lists"): a paged getter
 * without an output array returns the total and copies nothing (*count = 0), a struct getter
 * ignores a NULL struct, and the coordinate getters accept a NULL array. Each call here crashed
 * before (issue: reliability round 2, case 8).
 */
#include "harness.h"

int main(void)
{
  otv_face *f = NULL;
  CHECK_EQ(otv_face_open_file(h_font("STATInstancerTest.ttf"), 0, NULL, &f, NULL), OTV_E_OK);
  if (!f) return h_done("test_api_null");
  otv_face_info info;
  otv_face_get_info(f, &info);
  otv_face_get_info(f, NULL);
  otv_face_stat(f, NULL);
  otv_stat_info st;
  otv_face_stat(f, &st);
  CHECK(st.present);

  unsigned n = 7;
  CHECK_EQ(otv_face_axes(f, 0, &n, NULL), info.axis_count);
  CHECK_EQ(n, 0);
  CHECK(info.axis_count == 3);
  n = 7;
  CHECK_EQ(otv_face_named_instances(f, 0, &n, NULL), info.instance_count);
  CHECK_EQ(n, 0);
  n = 7;
  CHECK_EQ(otv_face_tables(f, 0, &n, NULL), info.table_count);
  CHECK_EQ(n, 0);
  n = 7;
  CHECK_EQ(otv_face_stat_axes(f, 0, &n, NULL), st.design_axis_count);
  CHECK_EQ(n, 0);
  n = 7;
  CHECK_EQ(otv_face_stat_values(f, 0, &n, NULL), st.axis_value_count);
  CHECK_EQ(n, 0);
  n = 7;
  otv_face_stat_value_records(f, 0, 0, &n, NULL);
  CHECK_EQ(n, 0);
  /* and the usual call still copies */
  otv_axis axes[3];
  n = 3;
  CHECK_EQ(otv_face_axes(f, 0, &n, axes), 3);
  CHECK_EQ(n, 3);
  CHECK_EQ(axes[1].tag, OTV_TAG('w', 'd', 't', 'h'));

  otv_location *loc = NULL;
  CHECK_EQ(otv_location_create(f, &loc, NULL), OTV_E_OK);
  if (loc) {
    CHECK_EQ(otv_location_normalized(loc, NULL, 5), 3);
    CHECK_EQ(otv_location_normalized_fixed(loc, NULL, 5), 3);
    otv_location_destroy(loc);
  }
  otv_face_close(f);
  return h_done("test_api_null");
}

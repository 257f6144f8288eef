/*
 * test_models.c - the freetype normalization model evaluates at its 16.16 coordinates (otvar.h,
 * docs/normalization.md), the others at their F2Dot14 ones. Within one F2Dot14 step every value
 * that varies is linear in the coordinates (no region boundary between two adjacent steps in
 * these fonts at these locations), so at a user value whose 16.16 coordinate c lies between the
 * F2Dot14 steps k and k + 1 (c = 4k + r, 0 < r < 4), a point drawn in the freetype model must be
 * p(k) + (p(k + 1) - p(k)) x r / 4, where p(k) is the point drawn at the normalized coordinate
 * k, and the spec model's point must be p(k) or p(k + 1) as its F2Dot14 coordinate says. The
 * same for advances (HVAR) and CFF2 points (blend). One-axis fonts: TrueType with avar and
 * HVAR (Muli-ABC), CFF2 (CFF2Instancer-VF-1).
 */
#include "harness.h"

#define MAXP 512

/* The points of gid at loc into pts (with phantom points for TrueType); returns the count or 0. */
static unsigned points(otv_location *loc, uint32_t gid, otv_point *pts)
{
  uint16_t ends[64];
  otv_glyph_points io = {pts, NULL, ends, MAXP, 64, 0, 0, 0};
  if (otv_glyph_points_get(loc, gid, 0, &io)) return 0;
  return io.point_count;
}

static void check_font(const char *name, double user)
{
  otv_face *face = NULL;
  if (otv_face_open_file(h_font(name), 0, NULL, &face, NULL)) {
    CHECK(0);
    return;
  }
  otv_location *ft = NULL, *at = NULL, *spec = NULL;
  CHECK_EQ(otv_location_create(face, &ft, NULL), OTV_E_OK);
  CHECK_EQ(otv_location_create(face, &at, NULL), OTV_E_OK);
  CHECK_EQ(otv_location_create(face, &spec, NULL), OTV_E_OK);
  if (!ft || !at || !spec) goto done;
  CHECK_EQ(otv_location_set_model(ft, OTV_NORM_FREETYPE), OTV_E_OK);
  CHECK_EQ(otv_location_set_user_coords(ft, &user, 1), OTV_E_OK);
  CHECK_EQ(otv_location_set_user_coords(spec, &user, 1), OTV_E_OK);
  otv_fixed c = 0;
  otv_f2dot14 f2 = 0;
  otv_location_normalized_fixed(ft, &c, 1);
  otv_location_normalized(spec, &f2, 1);
  int k = c >= 0 ? c / 4 : -((-c + 3) / 4); /* floor(c / 4) */
  int r = c - 4 * k;
  CHECK(r > 0); /* the user value is chosen between two steps */
  CHECK(f2 == k || f2 == k + 1);
  static otv_point p_ft[MAXP], p_spec[MAXP], p0[MAXP], p1[MAXP];
  otv_f2dot14 kk = (otv_f2dot14)k, k1 = (otv_f2dot14)(k + 1);
  CHECK_EQ(otv_location_set_normalized(at, &kk, 1), OTV_E_OK);
  otv_face_info info;
  otv_face_get_info(face, &info);
  uint32_t glyphs = info.glyph_count;
  long compared = 0, moved = 0;
  for (uint32_t g = 0; g < glyphs && g < 64; g++) {
    otv_location_set_normalized(at, &kk, 1);
    unsigned n0 = points(at, g, p0);
    float a0 = 0, a1 = 0, aft = 0;
    otv_glyph_advances(at, &g, 1, 0, &a0);
    otv_location_set_normalized(at, &k1, 1);
    unsigned n1 = points(at, g, p1);
    otv_glyph_advances(at, &g, 1, 0, &a1);
    unsigned nf = points(ft, g, p_ft), ns = points(spec, g, p_spec);
    otv_glyph_advances(ft, &g, 1, 0, &aft);
    CHECK(n0 == n1 && n0 == nf && n0 == ns);
    if (n0 != n1 || n0 != nf || n0 != ns) continue;
    const otv_point *pk = f2 == k ? p0 : p1;
    for (unsigned i = 0; i < n0; i++) {
      double wx = p0[i].x + (p1[i].x - p0[i].x) * r / 4.0;
      double wy = p0[i].y + (p1[i].y - p0[i].y) * r / 4.0;
      CHECK_NEAR(p_ft[i].x, wx, 1e-3);
      CHECK_NEAR(p_ft[i].y, wy, 1e-3);
      CHECK_NEAR(p_spec[i].x, pk[i].x, 1e-4);
      CHECK_NEAR(p_spec[i].y, pk[i].y, 1e-4);
      compared++;
      if (p0[i].x != p1[i].x || p0[i].y != p1[i].y) moved++;
    }
    CHECK_NEAR(aft, a0 + (a1 - a0) * r / 4.0, 1e-3);
  }
  /* the test means something only where points move between the two steps */
  CHECK(moved > compared / 4);
  printf("%s at %g: 16.16 %ld = F2Dot14 %d + %d/4; %ld points, %ld move\n", name, user, (long)c, k,
         r, compared, moved);
done:
  otv_location_destroy(ft);
  otv_location_destroy(at);
  otv_location_destroy(spec);
  otv_face_close(face);
}

int main(void)
{
  /* wght 200..400..900 with avar: 813.7 -> 16.16 48570 = 4 x 12142 + 2, half a step (the spec
   * model rounds it up: 12143) */
  check_font("Muli-ABC.ttf", 813.7);
  /* wght 100..100..900 (CFF2, blend and HVAR): 40705 = 4 x 10176 + 1 */
  check_font("CFF2Instancer-VF-1.otf", 555.555);
  return h_done("test_models");
}

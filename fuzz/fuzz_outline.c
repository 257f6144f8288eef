/*
 * fuzz_outline.c - face open, then every glyph's outline (pen and points forms, unrounded and
 * OTV_OUTLINE_ROUND) at the default and at normalized coordinates taken from the input's last
 * bytes. The very last byte, when odd, switches on an allocator that fails after a count taken from
 * the byte before it. A second location without the component cache and the glyph cache must give
 * bit-identical points and pen calls (abort otherwise). Glyphs are capped at 4096 per input to keep
 * runs short.
 */
#include "face.h"
#include "fuzz_alloc.h"
#include "fuzz_pen.h"

#include <stdlib.h>

/* A pen hashing its calls and the bits of every coordinate (the glyph cache check). */
static void fh_add(void *c, unsigned op, const float *v, unsigned n)
{
  uint64_t h = (*(uint64_t *)c ^ op) * 0x100000001b3u;
  for (unsigned i = 0; i < n; i++) {
    uint32_t b;
    memcpy(&b, &v[i], 4);
    h = (h ^ b) * 0x100000001b3u;
  }
  *(uint64_t *)c = h;
}
static void fh_move(void *c, float x, float y)
{
  float v[2] = {x, y};
  fh_add(c, 1, v, 2);
}
static void fh_line(void *c, float x, float y)
{
  float v[2] = {x, y};
  fh_add(c, 2, v, 2);
}
static void fh_quad(void *c, float a, float b, float x, float y)
{
  float v[4] = {a, b, x, y};
  fh_add(c, 3, v, 4);
}
static void fh_cubic(void *c, float a, float b, float d, float e, float x, float y)
{
  float v[6] = {a, b, d, e, x, y};
  fh_add(c, 4, v, 6);
}
static void fh_close(void *c) { fh_add(c, 5, NULL, 0); }
static const otv_pen fh_pen = {fh_move, fh_line, fh_quad, fh_cubic, fh_close};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  fz_alloc a;
  otv_face_info info;
  otv_location *loc, *ref = NULL;
  otv_face *f = fz_open(data, size, 1, &a, &info, &loc);
  if (!f) return 0;
  /* ref: the same location without the component cache; outlines must be bit-identical */
  if (!otv_location_create(f, &ref, NULL)) ref->glyf.cc_off = ref->glyf.gc_off = true;
  uint32_t n = info.glyph_count < 4096 ? info.glyph_count : 4096;
  static otv_point pts[1024];
  static uint8_t fl[1024];
  static uint16_t ends[256];
  float sink = 0;
  /* Three passes, three locations (none repeats another's path): 0 the default location, 1 the
   * coordinates of the input's tail, 2 every axis at an extreme with the first draw rounded
   * (OTV_OUTLINE_ROUND, which bypasses the glyph cache). In each, a glyph is drawn three times on
   * purpose: fz_pen on loc (in pass 0 its first draw, which only marks it for the glyph cache),
   * fh_pen on loc (from pass 0's second draw on: the cache entry filled, then read) and fh_pen on
   * ref (no caches), whose hashes must agree. */
  for (int pass = 0; pass < 3; pass++) {
    if (pass == 1) {
      otv_f2dot14 c[16];
      for (unsigned i = 0; i < 16; i++)
        c[i] = size > 2 * i + 4 ? (otv_f2dot14)((int)((unsigned)data[size - 3 - 2 * i] << 8 |
                                                      data[size - 4 - 2 * i]) %
                                                16385 * (data[size - 3 - 2 * i] & 0x80 ? -1 : 1))
                                : 0;
      otv_location_set_normalized(loc, c, 16);
      if (ref) otv_location_set_normalized(ref, c, 16);
    } else if (pass == 2) {
      otv_f2dot14 c[16];
      for (unsigned i = 0; i < 16; i++) c[i] = (otv_f2dot14)(i & 1 ? -16384 : 16384);
      otv_location_set_normalized(loc, c, 16);
      if (ref) otv_location_set_normalized(ref, c, 16);
    }
    for (uint32_t g = 0; g < n; g++) {
      otv_glyph_outline(loc, g, pass == 2 ? OTV_OUTLINE_ROUND : 0, &fz_pen, &sink);
      if (ref) { /* the glyph cache (on in loc, off in ref) must not change an outline */
        uint64_t ha = 0xcbf29ce484222325u, hb = ha;
        otv_status sa = otv_glyph_outline(loc, g, 0, &fh_pen, &ha);
        otv_status sb = otv_glyph_outline(ref, g, 0, &fh_pen, &hb);
        if (!sa && !sb && ha != hb) abort();
      }
      otv_glyph_points io = {pts, fl, ends, 1024, 256, 0, 0, 0};
      otv_status s = otv_glyph_points_get(loc, g, 0, &io);
      if (ref && !s) {
        /* TrueType glyphs carry 4 phantom points after the outline; CFF glyphs none (the
         * slots after point_count hold whatever an earlier glyph left there) */
        unsigned ph = f->glyf.present ? 4u : 0u;
        static otv_point rpts[1024];
        static uint8_t rfl[1024];
        static uint16_t rends[256];
        otv_glyph_points ro = {rpts, rfl, rends, 1024, 256, 0, 0, 0};
        if (!otv_glyph_points_get(ref, g, 0, &ro) &&
            (ro.point_count != io.point_count || ro.contour_count != io.contour_count ||
             ro.glyph_flags != io.glyph_flags ||
             memcmp(rpts, pts, (io.point_count + ph) * sizeof *pts) ||
             memcmp(rfl, fl, io.point_count + ph) ||
             memcmp(rends, ends, io.contour_count * sizeof *ends)))
          abort(); /* the component cache changed an outline */
      }
    }
  }
  otv_location_destroy(loc);
  otv_location_destroy(ref);
  otv_face_close(f);
  volatile float keep = sink; /* keep the work observable */
  (void)keep;
  return 0;
}

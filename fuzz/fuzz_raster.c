/*
 * fuzz_raster.c - the rasterizer on arbitrary paths and on the glyphs of arbitrary fonts.
 *
 * Input that opens as a font: its first glyphs are drawn through otv_glyph_outline into the
 * rasterizer at a size and slant taken from the last bytes, then rendered into a small buffer.
 * Any other input is read as a path: a header (transform selector, buffer size, flags including
 * OTV_RASTER_CLEAR, and whether to announce the buffer first with otv_raster_begin), then
 * records of one op byte and int16 coordinates (move/line/quad/cubic/close), including
 * coordinates scaled to huge or non-finite values; with bit 1 of byte 5, records of one flag
 * byte and int16 x, y handed to otv_raster_add_points as points (the flag's bits 0 and 7 as point
 * flags, bit 6 ends a contour, bit 5 takes the contour's end from the next byte instead: any
 * order). Font glyphs go through otv_glyph_points_get and otv_raster_add_points for every
 * fourth pair. Must never crash, hang, leak or write outside
 * the buffer (ASan), whatever the path. The last byte, when odd, switches on an allocator that
 * fails after a count taken from the byte before it.
 */
#include "face.h"
#include "fuzz_alloc.h"

#include <stdlib.h>

static int16_t rd16(const uint8_t *p) { return (int16_t)(p[0] << 8 | p[1]); }

static void fuzz_path(otv_raster *r, const uint8_t *data, size_t size)
{
  if (size < 8) return;
  static const float mults[] = {1.0f, 0.01f, 0.37f, 16.0f, 1e6f, 1e30f};
  float mult = mults[data[0] % 6];
  if (data[0] >= 250) mult = data[0] == 255 ? NAN : INFINITY;
  unsigned w = 1u + data[1] % 96, h = 1u + data[2] % 96;
  unsigned flags = (data[3] & 3) | (data[3] & 0x80 ? OTV_RASTER_CLEAR : 0);
  double sk = (int8_t)data[4] / 64.0;
  otv_transform t = {1.0, sk, 0.0, data[5] & 1 ? -1.0 : 1.0, (int8_t)data[6], (int8_t)data[7]};
  otv_raster_set_transform(r, &t);
  /* bit 6: announce the buffer first (direct mode); with bit 5, a wrong height (OTV_E_ARG) */
  if (data[3] & 0x40) otv_raster_begin(r, w, h + (data[3] >> 5 & 1));
  const otv_pen *pen = otv_raster_pen();
  size_t pos = 8;
  if (data[5] & 2) {
    /* points for otv_raster_add_points */
    static otv_point pts[4096];
    static uint8_t fl[4096];
    static uint16_t ends[4096];
    unsigned n = 0, nc = 0;
    while (pos + 5 <= size && n < 4096) {
      uint8_t f = data[pos];
      pts[n] = (otv_point){rd16(data + pos + 1) / 64.0f * (f & 0x10 ? mult : 1.0f),
                           rd16(data + pos + 3) / 64.0f};
      fl[n] = f & (OTV_POINT_ON_CURVE | OTV_POINT_CUBIC);
      pos += 5;
      n++;
      if (f & 0x40)
        ends[nc++] = (uint16_t)(n - 1);
      else if ((f & 0x20) && pos < size)
        ends[nc++] = data[pos++];
    }
    otv_glyph_points g = {pts, data[4] & 1 ? NULL : fl, ends, 4096, 4096, n, nc, 0};
    otv_raster_add_points(r, &g);
  }
  while (pos < size) {
    uint8_t op = data[pos++];
    float v[6];
    size_t need = (size_t)((op % 5) == 3 ? 6 : (op % 5) == 2 ? 4 : (op % 5) == 4 ? 0 : 2);
    if (pos + need * 2 > size) break;
    for (size_t i = 0; i < need; i++)
      v[i] = rd16(data + pos + 2 * i) / 64.0f * (op & 0x80 ? mult : 1.0f);
    pos += need * 2;
    switch (op % 5) {
    case 0: pen->move_to(r, v[0], v[1]); break;
    case 1: pen->line_to(r, v[0], v[1]); break;
    case 2: pen->quad_to(r, v[0], v[1], v[2], v[3]); break;
    case 3: pen->cubic_to(r, v[0], v[1], v[2], v[3], v[4], v[5]); break;
    default: pen->close_path(r); break;
    }
  }
  otv_raster_box b;
  otv_raster_bounds(r, &b);
  size_t stride = w + (data[3] >> 2 & 7);
  uint8_t *buf = malloc(stride * h);
  if (!buf) return;
  memset(buf, data[3], stride * h);
  otv_raster_render(r, buf, w, h, stride, flags);
  free(buf);
}

static void fuzz_font(otv_raster *r, otv_face *f, const uint8_t *data, size_t size)
{
  otv_location *loc = NULL;
  if (otv_location_create(f, &loc, NULL)) return;
  otv_face_info info;
  otv_face_get_info(f, &info);
  double px = 4.0 + data[size - 3] % 120, slant = (int8_t)data[size - 4] / 128.0;
  double scale = px / (info.units_per_em ? info.units_per_em : 1000);
  static uint8_t buf[160 * 160];
  if (info.instance_count) otv_location_set_named(loc, data[0] % info.instance_count);
  for (uint32_t g = 0; g < info.glyph_count && g < 8; g++) {
    otv_transform t = {scale, slant * scale, 0, -scale, 10, px};
    otv_raster_set_transform(r, &t);
    if (g & 2) otv_raster_begin(r, 160, 160); /* direct mode for every other pair */
    otv_status st;
    if (g & 4) {
      /* the glyph's points, whole */
      static otv_point pts[2048];
      static uint8_t fl[2048];
      static uint16_t ends[2048];
      otv_glyph_points gp = {pts, fl, ends, 2048, 2048, 0, 0, 0};
      st = otv_glyph_points_get(loc, g, 0, &gp);
      if (st == OTV_E_OK) st = otv_raster_add_points(r, &gp);
    } else {
      st = otv_glyph_outline(loc, g, 0, otv_raster_pen(), r);
    }
    if (st == OTV_E_OK)
      otv_raster_render(r, buf, 160, 160, 160, g & 1 ? OTV_RASTER_EVEN_ODD : 0);
    else
      otv_raster_reset(r);
  }
  otv_location_destroy(loc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  fz_alloc a;
  otv_options opt = fz_options(&a, data, size, 1);
  otv_raster *r = NULL;
  if (otv_raster_create(&opt, &r)) return 0;
  otv_face *f = NULL;
  if (size >= 8 && otv_face_open_memory(data, size, 0, NULL, &f, NULL) == OTV_E_OK) {
    fuzz_font(r, f, data, size);
    otv_face_close(f);
  } else {
    fuzz_path(r, data, size);
  }
  otv_raster_destroy(r);
  return 0;
}

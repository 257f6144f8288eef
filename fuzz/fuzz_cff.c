/*
 * fuzz_cff.c - CFF and CFF2 outlines: open, then draw glyphs (pen form and points form, the
 * first 512 glyphs) at the default location and at normalized coordinates taken from the
 * input's last bytes. The very last byte, when odd, switches on an allocator that fails after a
 * count taken from the byte before it. Any font is accepted (glyf fonts exercise the dispatch),
 * but the interesting inputs are OpenType/CFF and CFF2 fonts.
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

typedef struct fz_pen_state { double sum; unsigned ops; } fz_pen_state;
static void fz_move(void *c, float x, float y) { fz_pen_state *s = c; s->sum += x + y; s->ops++; }
static void fz_line(void *c, float x, float y) { fz_pen_state *s = c; s->sum += x - y; s->ops++; }
static void fz_cubic(void *c, float a, float b, float d, float e, float x, float y)
{
  fz_pen_state *s = c;
  s->sum += a + b + d + e + x + y;
  s->ops++;
}
static void fz_close(void *c) { ((fz_pen_state *)c)->ops++; }
static const otv_pen fz_pen = {fz_move, fz_line, NULL, fz_cubic, fz_close};

static void draw_all(otv_location *loc, uint32_t glyphs)
{
  static otv_point pts[2048];
  static uint8_t flags[2048];
  static uint16_t ends[256];
  fz_pen_state st = {0, 0};
  for (uint32_t g = 0; g < glyphs && g < 512; g++) {
    otv_glyph_outline(loc, g, (g & 1) ? OTV_OUTLINE_ROUND : 0, &fz_pen, &st);
    otv_glyph_points io = {pts, flags, ends, 2048, 256, 0, 0, 0};
    otv_glyph_points_get(loc, g, 0, &io);
  }
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
  otv_location *loc = NULL;
  if (!otv_location_create(f, &loc, NULL)) {
    draw_all(loc, info.glyph_count);
    otv_f2dot14 c[8];
    for (unsigned i = 0; i < 8; i++) {
      int v = size > 20 + 2 * i ? (int)(int16_t)(data[size - 3 - 2 * i] << 8 | data[size - 4 - 2 * i]) : 0;
      c[i] = (otv_f2dot14)(v % 16385);
    }
    if (!otv_location_set_normalized(loc, c, 8)) draw_all(loc, info.glyph_count);
    otv_location_destroy(loc);
  }
  otv_face_close(f);
  return 0;
}

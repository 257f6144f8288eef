/*
 * fuzz_cff.c - CFF and CFF2 outlines: open, then draw glyphs (pen form and points form, the
 * first 512 glyphs) at the default location and at normalized coordinates taken from the
 * input's last bytes. The very last byte, when odd, switches on an allocator that fails after a
 * count taken from the byte before it. Any font is accepted (glyf fonts exercise the dispatch),
 * but the interesting inputs are OpenType/CFF and CFF2 fonts. At the second location every glyph
 * drawn from the decoded-subroutine cache (warm after the first pass) must be bit-identical to
 * the same glyph on a location without the cache (subroutines interpreted from their bytes):
 * points, status and error; a difference aborts. Pen drawing (compiled glyphs from the second
 * draw: P0 + sum s_r D_r) must give the same segments, status and error as the location without
 * the cache, and coordinates within 1e-6 relative (another summation order: float ulps).
 * The last byte's bit 1 bounds CFF2's decoded-subroutine arena at 16-79 cells (below what most
 * fonts may need: compiled glyphs are then stored in their narrow int16 form where they can be,
 * and the arena fills); unless its bit 2 is set, glyphs are compiled after 2 draws instead of
 * the font's T (which can exceed the passes below), so every input reaches the compiled form.
 * Before opening, the input's first 64 KiB are also read as a DICT (CFF, and CFF2 with blends
 * resolved by a callback) and as a charstring token stream: the cursor must stay inside its
 * DICT and make progress, and every number read must be written back by cff_write.h into bytes
 * that read as the same value (DICT reals: to 8 significant digits); a difference aborts.
 */
#include "face.h"
#include "cff_write.h"
#include "fuzz_alloc.h"

#include <stdlib.h>

typedef struct fz_pen_state {
  double sum;
  unsigned ops;
} fz_pen_state;
static void fz_move(void *c, float x, float y)
{
  fz_pen_state *s = c;
  s->sum += x + y;
  s->ops++;
}
static void fz_line(void *c, float x, float y)
{
  fz_pen_state *s = c;
  s->sum += x - y;
  s->ops++;
}
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

/* Pen calls as numbers: kind, then coordinates. */
typedef struct fz_rec {
  float v[16384];
  size_t n;
  bool over;
} fz_rec;
static void fr_put(fz_rec *r, float k, unsigned n, const float *xy)
{
  if (r->n + 1 + n > sizeof r->v / sizeof r->v[0]) {
    r->over = true;
    return;
  }
  r->v[r->n++] = k;
  for (unsigned i = 0; i < n; i++) r->v[r->n++] = xy[i];
}
static void fr_move(void *c, float x, float y) { fr_put(c, 0, 2, (const float[]){x, y}); }
static void fr_line(void *c, float x, float y) { fr_put(c, 1, 2, (const float[]){x, y}); }
static void fr_cubic(void *c, float a, float b, float d, float e, float x, float y)
{
  fr_put(c, 3, 6, (const float[]){a, b, d, e, x, y});
}
static void fr_close(void *c) { fr_put(c, 4, 0, NULL); }
static const otv_pen fr_pen = {fr_move, fr_line, NULL, fr_cubic, fr_close};

/* Both locations recorded the same error: code, offset and message. */
static bool same_error(otv_location *loc, otv_location *ref)
{
  const otv_error *x = otv_location_last_error(loc), *y = otv_location_last_error(ref);
  return x->code == y->code && x->offset == y->offset && strcmp(x->msg, y->msg) == 0;
}

/* Compiled (loc) vs uncached (ref) pen outlines of every glyph, within 1e-6 relative. */
static void compare_pen(otv_location *loc, otv_location *ref, uint32_t glyphs)
{
  static fz_rec ra, rb;
  for (uint32_t g = 0; g < glyphs && g < 512; g++) {
    ra.n = rb.n = 0, ra.over = rb.over = false;
    otv_location_clear_error(loc);
    otv_location_clear_error(ref);
    otv_status sa = otv_glyph_outline(loc, g, 0, &fr_pen, &ra);
    otv_status sb = otv_glyph_outline(ref, g, 0, &fr_pen, &rb);
    if (sa == OTV_E_NOMEM || sb == OTV_E_NOMEM) continue; /* the failing allocator */
    bool same = sa == sb;
    if (same && sa) {
      same = same_error(loc, ref);
    } else if (same) {
      same = ra.n == rb.n && ra.over == rb.over;
      for (size_t i = 0; same && i < ra.n; i++) {
        double x = ra.v[i], y = rb.v[i], m = fabs(y) > 1 ? fabs(y) : 1;
        same = fabs(x - y) <= 1e-6 * m || (x != x && y != y);
      }
    }
    if (!same) abort(); /* a compiled glyph differs from the interpreter */
  }
}

/* Cached (loc) vs uncached (ref) points of every glyph, bitwise. */
static void compare_cache(otv_location *loc, otv_location *ref, uint32_t glyphs)
{
  static otv_point pa[2048], pb[2048];
  static uint8_t fa[2048], fb[2048];
  static uint16_t ea[256], eb[256];
  for (uint32_t g = 0; g < glyphs && g < 512; g++) {
    unsigned fl = (g & 1) ? OTV_OUTLINE_ROUND : 0;
    otv_glyph_points a = {pa, fa, ea, 2048, 256, 0, 0, 0}, b = {pb, fb, eb, 2048, 256, 0, 0, 0};
    otv_location_clear_error(loc);
    otv_location_clear_error(ref);
    otv_status sa = otv_glyph_points_get(loc, g, fl, &a);
    otv_status sb = otv_glyph_points_get(ref, g, fl, &b);
    if (sa == OTV_E_NOMEM || sb == OTV_E_NOMEM) continue; /* the failing allocator */
    bool same = sa == sb;
    if (same && sa) {
      same = same_error(loc, ref);
    } else if (same) {
      size_t n = a.point_count < 2048 ? a.point_count : 2048;
      size_t nc = a.contour_count < 256 ? a.contour_count : 256;
      same = a.point_count == b.point_count && a.contour_count == b.contour_count &&
             memcmp(pa, pb, n * sizeof *pa) == 0 && memcmp(fa, fb, n) == 0 &&
             memcmp(ea, eb, nc * sizeof *ea) == 0;
    }
    if (!same) abort(); /* the decoded-subroutine cache changed an outline or an error */
  }
}

/* ---- the decoders and writers of cff_data.h / cff_write.h on raw bytes ---- */

static double fz_scalar(void *ud, unsigned vsindex, unsigned col)
{
  (void)ud;
  return vsindex == 0 ? 0.25 * (col + 1) : -0.5;
}

/* v, written as a DICT number and read back. */
static void dict_round_trip(const otv_alloc *al, double v)
{
  if (!(fabs(v) < 1e300)) return; /* inf and NaN: %.8g has no nibbles for them */
  otv_buf b;
  otv_buf_init(&b, al);
  otv_cff_dict_put_num(&b, v);
  otv_cff_put_op(&b, OTV_DICT_BLUESCALE);
  if (b.failed) return;
  static otv_cff_dict d;
  otv_cff_dict_init(&d, otv_span_of(b.p, b.len), OTV_T_CFF, 0, b.len, false, NULL);
  int op = otv_cff_dict_next(&d, NULL);
  bool exact = v == floor(v) && fabs(v) <= 2147483647.0;
  double w = d.n == 1 ? d.args[0] : NAN, m = fabs(v) > 1e-300 ? fabs(v) : 1e-300;
  bool same = exact ? w == v : fabs(w - v) <= 1e-7 * m; /* 8 significant digits */
  if (op != OTV_DICT_BLUESCALE || d.n != 1 || !same) abort();
  otv_buf_free(&b);
}

static void raw_dicts(const uint8_t *data, size_t size, const otv_alloc *al)
{
  static otv_ivd ivd[2];
  static otv_ivs ivs;
  ivd[0].region_index_count = 2, ivd[1].region_index_count = 3;
  ivs.present = true, ivs.data_count = 2, ivs.data = ivd;
  static otv_cff_dict d;
  for (int cff2 = 0; cff2 < 2; cff2++) {
    otv_cff_dict_init(&d, otv_span_of(data, size), OTV_T_CFF2, 0, size, cff2, &ivs);
    if (cff2) d.scalar = fz_scalar;
    unsigned checked = 0;
    for (;;) {
      size_t before = d.pos;
      otv_error e = {0};
      int op = otv_cff_dict_next(&d, &e);
      if (d.pos > d.end || d.n > OTV_MAX_STACK_CFF2 || (cff2 == 0 && d.n > OTV_MAX_STACK_CFF))
        abort();
      if (op == OTV_DICT_END) break;
      if (op == OTV_DICT_ERROR) {
        if (e.code == OTV_E_OK || e.offset < before || e.offset >= d.end) abort();
        break;
      }
      if (d.pos <= before || d.at != before) abort(); /* a record takes a byte at least */
      for (unsigned i = 0; i < d.n && checked < 256; i++, checked++) dict_round_trip(al, d.args[i]);
    }
  }
}

static void raw_charstring(const uint8_t *data, size_t size, const otv_alloc *al)
{
  otv_buf b;
  otv_buf_init(&b, al);
  const uint8_t *p = data, *end = data + size;
  while (p < end) {
    int op;
    double v = 0;
    size_t len = otv_cs_token(p, end, &op, &v);
    if (len == 0) break;
    if (len > 5 || len > (size_t)(end - p)) abort();
    p += len;
    if (op != OTV_CS_NUMBER) continue;
    /* every charstring number is an int16 or a 16.16: written back, it reads the same */
    b.len = 0;
    otv_cs_put_num(&b, v);
    if (b.failed) break;
    int op2;
    double w = 0;
    size_t len2 = otv_cs_token(b.p, b.p + b.len, &op2, &w);
    if (len2 != b.len || op2 != OTV_CS_NUMBER || w != v) abort();
  }
  otv_buf_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  bool font_t = size >= 2 && (data[size - 1] & 4);
  {
    otv_alloc al;
    otv_alloc_init(&al, NULL);
    size_t raw = size < 65536 ? size : 65536;
    raw_dicts(data, raw, &al);
    raw_charstring(data, raw, &al);
  }
  fz_alloc a;
  otv_face_info info;
  otv_location *loc;
  otv_face *f = fz_open(data, size, 1, &a, &info, &loc);
  if (!f) return 0;
  /* internal bounds, set before the first outline (charstring.h) */
  if (!font_t) loc->cff.comp_draws = 2;
  if (size >= 2 && (data[size - 1] & 2)) loc->cff.cells_max = 16u + (data[0] & 63u);
  draw_all(loc, info.glyph_count);
  otv_f2dot14 c[8];
  for (unsigned i = 0; i < 8; i++) {
    int v = size > 20 + 2 * i ? (int)(int16_t)(data[size - 3 - 2 * i] << 8 | data[size - 4 - 2 * i])
                              : 0;
    c[i] = (otv_f2dot14)(v % 16385);
  }
  if (!otv_location_set_normalized(loc, c, 8)) {
    draw_all(loc, info.glyph_count);
    otv_location *ref = NULL;
    if (!otv_location_create(f, &ref, NULL)) {
      ref->cff.sub_tried = true; /* no decoded-subroutine cache */
      if (!otv_location_set_normalized(ref, c, 8)) {
        compare_cache(loc, ref, info.glyph_count);
        /* a glyph is compiled after comp_draws draws (2 here, or the font's T, at least 4:
         * charstring.c CS_COMP_DRAWS; draw_all rounds the odd ones): 6 passes draw every
         * glyph compiled at least once when it is 2 or 4 */
        for (int k = 0; k < 6; k++) compare_pen(loc, ref, info.glyph_count);
      }
      otv_location_destroy(ref);
    }
  }
  otv_location_destroy(loc);
  otv_face_close(f);
  return 0;
}

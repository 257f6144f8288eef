/*
 * util_png.c - picture output for `otvar render` / `otvar specimen` (render.h): coverage layers
 * composited over a background and written as PNG through libpng (8-bit gray, or RGBA when a
 * colour or transparency needs it), colour parsing, and an SVG path pen.
 */
#include "render.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#ifdef OTV_HAVE_PNG
#  include <png.h>
#endif

int pic_parse_color(const char *s, uint32_t *out)
{
  if (*s == '#') s++;
  if (strlen(s) != 6) return -1;
  uint32_t v = 0;
  for (int i = 0; i < 6; i++) {
    char c = s[i];
    unsigned d;
    if (c >= '0' && c <= '9')
      d = (unsigned)(c - '0');
    else if (c >= 'a' && c <= 'f')
      d = (unsigned)(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F')
      d = (unsigned)(c - 'A' + 10);
    else
      return -1;
    v = v << 4 | d;
  }
  *out = v;
  return 0;
}

#ifdef OTV_HAVE_PNG
static int is_gray(uint32_t c)
{
  return (c >> 16 & 255) == (c >> 8 & 255) && (c >> 8 & 255) == (c & 255);
}

static void png_err(png_structp p, png_const_charp msg)
{
  /* errno: why a write failed (file too large, no space); pic_write_png clears it first */
  if (errno)
    fprintf(stderr, "otvar: png: %s: %s\n", msg, strerror(errno));
  else
    fprintf(stderr, "otvar: png: %s\n", msg);
  png_longjmp(p, 1);
}
static void png_warn(png_structp p, png_const_charp msg)
{
  (void)p;
  (void)msg;
}
#endif

int pic_write_png(FILE *f, unsigned w, unsigned h, uint32_t bg, int transparent,
                  const pic_layer *layers, int n)
{
#ifndef OTV_HAVE_PNG
  (void)f, (void)w, (void)h, (void)bg, (void)transparent, (void)layers, (void)n;
  fprintf(stderr, "otvar: PNG output needs libpng (this otvar was built without it); use .svg\n");
  return -1;
#else
  int all_gray = !transparent && is_gray(bg);
  for (int i = 0; i < n; i++)
    if (!is_gray(layers[i].color)) all_gray = 0;
  /* volatile: read after setjmp returns through libpng's longjmp */
  volatile int gray = all_gray;
  size_t chans = all_gray ? 1 : 4;
  unsigned char *volatile row = malloc((size_t)w * chans);
  if (!row) {
    fprintf(stderr, "otvar: out of memory\n");
    return -1;
  }
  png_structp p = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, png_err, png_warn);
  png_infop info = p ? png_create_info_struct(p) : NULL;
  if (!p || !info) {
    png_destroy_write_struct(&p, NULL);
    free(row);
    fprintf(stderr, "otvar: png: cannot initialise libpng\n");
    return -1;
  }
  if (setjmp(png_jmpbuf(p))) {
    png_destroy_write_struct(&p, &info);
    free(row);
    return -1;
  }
  png_init_io(p, f);
  errno = 0;
  png_set_IHDR(p, info, w, h, 8, gray ? PNG_COLOR_TYPE_GRAY : PNG_COLOR_TYPE_RGB_ALPHA,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(p, info);
  for (unsigned y = 0; y < h; y++) {
    for (unsigned x = 0; x < w; x++) {
      /* straight (non-premultiplied) colour and alpha, painted layer over layer */
      unsigned r = bg >> 16 & 255, g = bg >> 8 & 255, b = bg & 255, a = transparent ? 0 : 255;
      size_t at = (size_t)y * w + x;
      for (int i = 0; i < n; i++) {
        unsigned c = layers[i].cov[at];
        if (!c) continue;
        unsigned lr = layers[i].color >> 16 & 255, lg = layers[i].color >> 8 & 255,
                 lb = layers[i].color & 255;
        unsigned na = c + a * (255 - c) / 255; /* "over" */
        if (na) {
          r = (lr * c * 255 + r * a * (255 - c) + na * 127) / (na * 255);
          g = (lg * c * 255 + g * a * (255 - c) + na * 127) / (na * 255);
          b = (lb * c * 255 + b * a * (255 - c) + na * 127) / (na * 255);
        }
        a = na;
      }
      if (gray) {
        row[x] = (unsigned char)r;
      } else {
        row[4 * x] = (unsigned char)r;
        row[4 * x + 1] = (unsigned char)g;
        row[4 * x + 2] = (unsigned char)b;
        row[4 * x + 3] = (unsigned char)a;
      }
    }
    png_write_row(p, row);
  }
  png_write_end(p, info);
  png_destroy_write_struct(&p, &info);
  free(row);
  if (ferror(f)) {
    fprintf(stderr, "otvar: png: write error\n");
    return -1;
  }
  return 0;
#endif
}

/* ---- SVG path pen: font units -> SVG pixels through the pen's transform ---- */

static void svg_pt(svg_pen *s, float x, float y)
{
  double px = s->t.xx * x + s->t.xy * y + s->t.dx, py = s->t.yx * x + s->t.yy * y + s->t.dy;
  fprintf(s->f, " %.2f %.2f", px, py);
}
static void svg_move(void *ctx, float x, float y)
{
  svg_pen *s = ctx;
  fputs("M", s->f);
  svg_pt(s, x, y);
}
static void svg_line(void *ctx, float x, float y)
{
  svg_pen *s = ctx;
  fputs("L", s->f);
  svg_pt(s, x, y);
}
static void svg_quad(void *ctx, float cx, float cy, float x, float y)
{
  svg_pen *s = ctx;
  fputs("Q", s->f);
  svg_pt(s, cx, cy);
  svg_pt(s, x, y);
}
static void svg_cubic(void *ctx, float c1x, float c1y, float c2x, float c2y, float x, float y)
{
  svg_pen *s = ctx;
  fputs("C", s->f);
  svg_pt(s, c1x, c1y);
  svg_pt(s, c2x, c2y);
  svg_pt(s, x, y);
}
static void svg_close(void *ctx)
{
  svg_pen *s = ctx;
  fputs("Z", s->f);
}
static const otv_pen svg_funcs = {svg_move, svg_line, svg_quad, svg_cubic, svg_close};

const otv_pen *svg_pen_funcs(void) { return &svg_funcs; }

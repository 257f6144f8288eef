/* hello.c - otvar's README example: open a font, set a location, draw a glyph and measure it.
 * Compiles as C99 and as C++; build: cc hello.c $(pkg-config --cflags --libs otvar) */
#include <otvar.h>
#include <stdio.h>

static void move_to(void *ctx, float x, float y) { (void)x, (void)y, ++*(int *)ctx; }

int main(int argc, char **argv)
{
  otv_face *face = NULL;
  otv_location *loc = NULL;
  otv_error err = OTV_ERROR_INIT;
  if (argc < 2 || otv_face_open_file(argv[1], 0, NULL, &face, &err)) {
    fprintf(stderr, "hello: %s\n", argc < 2 ? "usage: hello FONT" : err.msg);
    return 1;
  }
  if (otv_location_create(face, &loc, &err)) return 1;
  otv_axis_value wght = {OTV_TAG('w', 'g', 'h', 't'), 650}; /* unknown tags are ignored */
  otv_location_set_user(loc, &wght, 1);
  uint32_t gid = otv_face_glyph_for_char(face, 'A', 0);
  otv_pen pen = {move_to, NULL, NULL, NULL, NULL}; /* any callback may be NULL */
  int contours = 0;
  otv_glyph_metrics m;
  if (otv_glyph_outline(loc, gid, 0, &pen, &contours) || otv_glyph_h_metrics(loc, gid, 0, &m))
    return 1;
  printf("otvar %s: 'A' (glyph %u) at wght=650: %d contours, advance %.2f\n", otv_version(),
         (unsigned)gid, contours, m.advance);
  otv_location_destroy(loc);
  otv_face_close(face);
  return 0;
}

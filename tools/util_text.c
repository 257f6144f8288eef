/*
 * util_text.c - simple horizontal text layout for `otvar render` / `otvar specimen` (render.h):
 * cmap, advances at the location, `kern` format 0 pair kerning, drawing through the rasterizer or
 * an SVG pen. This is the layout without HarfBuzz; the shaped one is util_shape.c.
 */
#include "render.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static uint16_t be16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }

/* kern (OpenType version 0): u16 version, u16 nTables, then subtables: u16 version, u16 length,
 * u16 coverage (format in the high byte; bit 0 horizontal, bit 1 minimum, bit 2 cross-stream),
 * format 0 body: u16 nPairs, searchRange, entrySelector, rangeShift, pairs of (u16 left, u16 right,
 * i16 value) sorted by (left, right). Apple's version 1 table is not read. */
int txt_kern(const otv_face *face, uint32_t left, uint32_t right)
{
  size_t len = 0;
  const uint8_t *k = otv_face_table(face, OTV_TAG('k', 'e', 'r', 'n'), &len);
  if (!k || len < 4 || be16(k) != 0 || left > 0xFFFF || right > 0xFFFF) return 0;
  unsigned ntables = be16(k + 2);
  size_t off = 4;
  int total = 0;
  uint32_t key = left << 16 | right;
  for (unsigned t = 0; t < ntables && off + 6 <= len; t++) {
    size_t sub_len = be16(k + off + 2);
    unsigned coverage = be16(k + off + 4);
    size_t body = off + 6;
    if (sub_len < 6) break;
    if ((coverage >> 8) == 0 && (coverage & 1) && !(coverage & 6) && body + 8 <= len) {
      size_t npairs = be16(k + body);
      /* the pairs may run past a (16-bit, overflowing) length: trust only the table's end */
      size_t first = body + 8, avail = (len - first) / 6;
      if (npairs > avail) npairs = avail;
      size_t lo = 0, hi = npairs;
      while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const uint8_t *p = k + first + mid * 6;
        uint32_t pk = (uint32_t)be16(p) << 16 | be16(p + 2);
        if (pk == key) {
          total += (int16_t)be16(p + 4);
          break;
        }
        if (pk < key)
          lo = mid + 1;
        else
          hi = mid;
      }
    }
    off += sub_len;
  }
  return total;
}

static float glyph_advance(otv_location *loc, uint32_t gid)
{
  otv_glyph_metrics m;
  if (otv_glyph_h_metrics(loc, gid, 0, &m) == OTV_E_OK) return m.advance;
  /* fall back to the phantom points: advance = right - left origin (TrueType glyphs only: CFF
   * and CFF2 glyphs have none) */
  otv_face_info info;
  otv_face_get_info(otv_location_face(loc), &info);
  if (info.flavour != OTV_FLAVOUR_GLYF) return 0;
  otv_glyph_points gp = {0};
  otv_status st = otv_glyph_points_get(loc, gid, 0, &gp);
  if (st != OTV_E_SMALL_BUFFER && st != OTV_E_OK) return 0;
  unsigned cap = gp.point_count + 4;
  otv_point *pts = malloc(cap * sizeof *pts);
  uint16_t *ends = malloc((gp.contour_count ? gp.contour_count : 1) * sizeof *ends);
  float adv = 0;
  if (pts && ends) {
    gp.points = pts;
    gp.point_cap = cap;
    gp.contour_ends = ends;
    gp.contour_cap = gp.contour_count;
    if (otv_glyph_points_get(loc, gid, 0, &gp) == OTV_E_OK)
      adv = pts[gp.point_count + 1].x - pts[gp.point_count].x;
  }
  free(pts);
  free(ends);
  return adv;
}

int txt_layout(otv_location *loc, const uint32_t *cps, size_t n, int kern, int skip_missing,
               txt_line *out, uint32_t *missing)
{
  const otv_face *face = otv_location_face(loc);
  memset(out, 0, sizeof *out);
  out->g = malloc((n ? n : 1) * sizeof *out->g);
  if (!out->g) return -2;
  float x = 0;
  for (size_t i = 0; i < n; i++) {
    uint32_t cp = cps[i];
    /* a variation selector after a base character picks a variant (cmap format 14) */
    uint32_t vs = 0;
    if (i + 1 < n && ((cps[i + 1] >= 0xFE00 && cps[i + 1] <= 0xFE0F) ||
                      (cps[i + 1] >= 0xE0100 && cps[i + 1] <= 0xE01EF)))
      vs = cps[i + 1];
    uint32_t gid = otv_face_glyph_for_char(face, cp, vs);
    if (vs) i++;
    if (!gid && skip_missing != 2) {
      if (skip_missing) continue;
      if (missing) *missing = cp;
      txt_line_free(out);
      return -1;
    }
    if (kern && out->n) x += (float)txt_kern(face, out->g[out->n - 1].gid, gid);
    float adv = glyph_advance(loc, gid);
    out->g[out->n].gid = gid;
    out->g[out->n].x = x;
    out->g[out->n].advance = adv;
    out->g[out->n].y = 0;
    out->n++;
    x += adv;
  }
  out->width = x;
  return 0;
}

void txt_line_free(txt_line *l)
{
  free(l->g);
  memset(l, 0, sizeof *l);
}

otv_status txt_draw(otv_location *loc, const txt_line *l, double scale, double ox, double oy,
                    double slant, otv_raster *r, struct svg_pen *svg)
{
  for (size_t i = 0; i < l->n; i++) {
    /* the glyph's vertical offset (marks) moves it up, and along the slant */
    double dy = l->g[i].y * scale;
    otv_transform t = {scale,  slant * scale, 0, -scale, ox + l->g[i].x * scale + slant * dy,
                       oy - dy};
    otv_status st;
    if (r) {
      otv_raster_set_transform(r, &t);
      st = otv_glyph_outline(loc, l->g[i].gid, 0, otv_raster_pen(), r);
    } else {
      svg->t = t;
      st = otv_glyph_outline(loc, l->g[i].gid, 0, svg_pen_funcs(), svg);
    }
    if (st) return st;
  }
  return OTV_E_OK;
}

void txt_vmetrics(otv_location *loc, float *asc, float *desc, float *gap)
{
  otv_face_info info;
  otv_face_get_info(otv_location_face(loc), &info);
  float upem = info.units_per_em ? info.units_per_em : 1000;
  float a = 0, d = 0, g = 0;
  if (otv_font_metric(loc, OTV_TAG('h', 'a', 's', 'c'), 0, &a) || !(a > 0)) a = 0.8f * upem;
  if (otv_font_metric(loc, OTV_TAG('h', 'd', 's', 'c'), 0, &d) || !(d < 0)) d = -0.2f * upem;
  if (otv_font_metric(loc, OTV_TAG('h', 'l', 'g', 'p'), 0, &g) || !(g >= 0)) g = 0;
  /* absurd values from a broken font: keep lines within a sane height */
  if (a > 4 * upem) a = 4 * upem;
  if (d < -4 * upem) d = -4 * upem;
  if (g > 4 * upem) g = 4 * upem;
  *asc = a;
  *desc = d;
  *gap = g;
}

int txt_covers(const otv_face *face, const char *utf8)
{
  uint32_t *cps;
  size_t n;
  if (cli_utf8_decode(utf8, &cps, &n)) return 0;
  int ok = 1;
  for (size_t i = 0; i < n && ok; i++)
    if (!otv_face_glyph_for_char(face, cps[i], 0)) ok = 0;
  free(cps);
  return ok;
}

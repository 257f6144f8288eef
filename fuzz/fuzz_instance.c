/*
 * fuzz_instance.c - open, pick a location from the input's last bytes (a named instance, the
 * extremes, or normalized values), cut a static instance (or, when the fourth byte from the end has
 * its top bit set, a partial instance keeping the axes its low bits pick; with the fifth byte's top
 * bit set too, those axes get limits: a range and default), and check that what came out opens
 * again (without axes, or with some) and its checksum adjustment is right. The very last byte, when
 * odd, switches on an allocator that fails after a count taken from the byte before it.
 */
#include "face.h"
#include "core/sfnt.h"
#include "core/writer.h"
#include "fuzz_alloc.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  fz_alloc a;
  otv_face_info info;
  otv_location *loc;
  otv_face *f = fz_open(data, size, 4, &a, &info, &loc);
  if (!f) return 0;
  unsigned sel = size >= 3 ? data[size - 3] : 0;
  if (sel % 4 == 1 && info.instance_count) {
    otv_location_set_named(loc, sel / 4 % info.instance_count);
  } else if (sel % 4 == 2) {
    otv_f2dot14 c[OTV_MAX_AXES];
    for (unsigned i = 0; i < OTV_MAX_AXES; i++)
      c[i] = (otv_f2dot14)(((sel >> (i % 8)) & 1) ? 16384 : -16384);
    otv_location_set_normalized(loc, c,
                                info.axis_count < OTV_MAX_AXES ? info.axis_count : OTV_MAX_AXES);
  } else if (sel % 4 == 3 && size >= 8) {
    otv_f2dot14 c[OTV_MAX_AXES];
    for (unsigned i = 0; i < OTV_MAX_AXES; i++)
      c[i] = (otv_f2dot14)(int16_t)otv_peek_u16(data + size - 8 + 2 * (i % 2));
    otv_location_set_normalized(loc, c,
                                info.axis_count < OTV_MAX_AXES ? info.axis_count : OTV_MAX_AXES);
  }
  uint8_t *out = NULL;
  size_t len = 0;
  unsigned flags = (sel & 0x80 ? OTV_INSTANCE_NO_OVERLAP_FLAGS : 0) |
                   (sel & 0x40 ? OTV_INSTANCE_UPDATE_NAMES : 0) |
                   (sel & 0x20 ? OTV_INSTANCE_CFF2 : 0) | /* CFF2 fonts: CFF2, else CFF output */
                   (sel & 0x10 ? OTV_INSTANCE_CFF_EXACT : 0); /* ... exact (16.16) values */
  /* byte size-4 with its top bit set: a partial instance keeping the axes of its low bits */
  uint32_t keep[OTV_MAX_AXES];
  unsigned nkeep = 0;
  unsigned km = size >= 4 ? data[size - 4] : 0;
  if (km & 0x80) {
    otv_axis ax[OTV_MAX_AXES];
    unsigned na = OTV_MAX_AXES;
    otv_face_axes(f, 0, &na, ax);
    for (unsigned i = 0; i < na; i++)
      if ((km >> (i % 7)) & 1) keep[nkeep++] = ax[i].tag;
  }
  /* byte size-5 with its top bit set: the kept axes get limits instead (a range and default
   * inside the axis, picked by that byte and the one before; otv_instance_create_limits) */
  unsigned lm = size >= 6 ? data[size - 5] : 0, lf = size >= 6 ? data[size - 6] : 0;
  otv_axis_limits lim[OTV_MAX_AXES];
  bool limits = km & 0x80 && lm & 0x80;
  if (limits) {
    otv_axis ax[OTV_MAX_AXES];
    unsigned na = OTV_MAX_AXES;
    otv_face_axes(f, 0, &na, ax);
    for (unsigned i = 0; i < nkeep; i++) {
      const otv_axis *x = &ax[0];
      for (unsigned j = 0; j < na; j++)
        if (ax[j].tag == keep[i]) x = &ax[j];
      double w = x->max_value - x->min_value, t0 = (lm & 0x7F) / 127.0, t1 = lf / 255.0;
      double lo = x->min_value + w * (t0 < t1 ? t0 : t1) / 2,
             hi = x->max_value - w * (1 - (t0 > t1 ? t0 : t1)) / 2;
      double def = (i + lm) % 3 == 0 ? x->default_value : lo + (hi - lo) * t1;
      if (def < lo) def = lo;
      if (def > hi) def = hi;
      lim[i] = (otv_axis_limits){keep[i], lo, def, hi};
    }
  }
  otv_status made = limits ? otv_instance_create_limits(loc, lim, nkeep, flags, &out, &len)
                           : otv_instance_create_partial(loc, keep, nkeep, flags, &out, &len);
  if (made == OTV_E_OK) {
    a.fail_at = 0;
    otv_face *g = NULL;
    if (otv_face_open_memory(out, len, 0, NULL, &g, NULL) != OTV_E_OK) abort();
    otv_face_info gi;
    otv_face_get_info(g, &gi);
    /* kept axes (an axis tag repeated in fvar is kept with each of its axes; a limited range
     * that is a point pins its axis) */
    if ((!limits && (nkeep ? gi.axis_count == 0 : gi.axis_count != 0)) ||
        gi.glyph_count != info.glyph_count)
      abort();
    if (otv_sfnt_checksum(out, len) != 0xB1B0AFBAu) abort();
    otv_face_close(g);
    otv_instance_free(loc, out, len);
  } else if (out) {
    abort();
  }
  otv_location_destroy(loc);
  otv_face_close(f);
  return 0;
}

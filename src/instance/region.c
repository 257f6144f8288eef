/*
 * instance/region.c - the factors of a variation region at an instance's pinned location (see
 * instance/region.h), for full and partial instances alike.
 */
#include "instance/region.h"

/* spec: an ill-formed region axis (start > peak, peak > end, or crossing zero) is ignored */
static bool ill_formed(int s, int p, int e) { return s > p || p > e || (s < 0 && e > 0); }

/* The factor of axis value c in [s, p, e] (c strictly inside, c != p). */
static double factor(int c, int s, int p, int e)
{
  double v = c / 16384.0, lo = s / 16384.0, pk = p / 16384.0, hi = e / 16384.0;
  return c < p ? (v - lo) / (pk - lo) : (hi - v) / (hi - pk);
}

int otv_pin_factors(const otv_pin *pin, const int16_t *start, const int16_t *peak,
                    const int16_t *end, double *out)
{
  int k = 0;
  for (unsigned i = 0; i < pin->axis_count; i++) {
    unsigned a = pin->axis_order[i];
    int p = peak[a], s = start[a], e = end[a];
    if (p == 0 || ill_formed(s, p, e)) continue;
    int c = pin->coords[a];
    if (c == p) continue;
    if (c <= s || c >= e) return -1;
    out[k++] = factor(c, s, p, e);
  }
  return k;
}

int otv_pin_factors_partial(const otv_pin *pin, const int16_t *start, const int16_t *peak,
                            const int16_t *end, double *out, bool *kept)
{
  int k = 0;
  bool dead = false;
  *kept = false;
  for (unsigned i = 0; i < pin->axis_count; i++) {
    unsigned a = pin->axis_order[i];
    int p = peak[a], s = start[a], e = end[a];
    if (p == 0 || ill_formed(s, p, e)) continue;
    if (pin->keep[a]) {
      *kept = true;
      continue;
    }
    int c = pin->coords[a];
    if (c == p) continue;
    if (c <= s || c >= e) {
      dead = true;
      continue;
    }
    out[k++] = factor(c, s, p, e);
  }
  return dead ? -1 : k;
}

void otv_pin_kept_region(const otv_pin *pin, const int16_t *start, const int16_t *peak,
                         const int16_t *end, int16_t *ns, int16_t *np, int16_t *ne)
{
  for (unsigned a = 0; a < pin->axis_count; a++) {
    if (!pin->keep[a]) continue;
    unsigned j = pin->new_index[a];
    int p = peak[a], s = start[a], e = end[a];
    if (p == 0 || ill_formed(s, p, e)) s = p = e = 0;
    ns[j] = (int16_t)s, np[j] = (int16_t)p, ne[j] = (int16_t)e;
  }
}

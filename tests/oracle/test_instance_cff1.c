/*
 * test_instance_cff1.c - static instances of CFF2 fonts written as CFF (version 1), against
 * FreeType and HarfBuzz.
 *
 * For every CFF2 font (the test fonts and, when cached, Source Serif/Sans and Cantarell) at each
 * named instance and 20 random locations: the instance I (a 'CFF ' table, no CFF2, no fvar) is
 * drawn by FreeType (FT_LOAD_NO_SCALE) and HarfBuzz, and each must match otvar drawing the
 * variable font at that location with every point rounded with floor(x + 0.5), within
 * TOL_POINTS (1 unit), and be within TOL_RAW (1 unit) of the unrounded outline at every point.
 * The instance stores integers: each path operator's operands written in one charstring carry
 * the rounding forward along the contour (0.5 at most); a kept subroutine writes its points
 * rounded from its own start, so a glyph writes a call inline where its points would stand more
 * than a unit off or where it leaves rounded values for the glyph's operators (measured over
 * every glyph at every location here: 1.000, 0.500 in Source Serif 4; 2-4 units before). A
 * contour of the instance that closes unlike the variable font's rounded outline (a closing
 * line of a unit or two that it lacks, or the other way) is counted, FreeType and HarfBuzz,
 * and none may (the writer's closing pass); such lines are then dropped before comparing the
 * points. The worst distance from the exact outline is printed.
 * Hinted outlines (FreeType, ppem 12-48) against the variable font's at the named instances:
 * the default (integer) instances' counted and printed, the exact ones' (--cff-exact) asserted
 * within 1/64 px, and the exact ones made with FreeType's 16.16 blend arithmetic (ft_face: every
 * operand FreeType's blend of the variable font's) asserted too; Source Serif 4's, whose
 * blended BlueScale FreeType misreads, on copies with BlueScale / 1000 at every ppem
 * (blue_copy): the one with FreeType's arithmetic asserted, the exact one counted (what differs
 * there is FreeType's arithmetic), and the instance as written counted
 * (OTV_CFF1_HINTDBG=1: each glyph and ppem that differs; OTV_CFF1_BLUEDUMP=file: the last
 * BlueScale / 1000 copy written there).
 * The static CFF2 instance (OTV_INSTANCE_CFF2: the same walker, subroutines and hints kept) is
 * checked the same way at the named instances and the first CFF2_LOCATIONS random locations.
 * Also: the hmtx advances of I equal otvar's rounded advances of the variable font, and every
 * real font's instance keeps subroutines when the source has them (counted by the Python
 * oracle, test_instance_cff1.py). OTV_CFF1_FULL=1 compares every glyph of the large fonts
 * (default: every 8th).
 */
#include "harness.h"
#include "oracle_outline.h"

#include "instance/cff1.h" /* OTV_INST_CFF_FT_BLEND */

#include <math.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct ccase {
  const char *font;
  bool cache;
  unsigned glyph_step; /* large fonts: every Nth glyph unless OTV_CFF1_FULL=1 */
  /* FreeType misreads the font's blended BlueScale: exact instances' hinting asserted on a
   * copy with BlueScale / 1000 (blue_copy), counted as written */
  bool blue1000;
  bool matrix; /* a FontMatrix FreeType (NO_SCALE) and HarfBuzz do not apply: the CFF instance
                * (which keeps it) drawn by otvar; the --cff2 one, flattened, by them */
} ccase;

static const ccase CASES[] = {
    {"AdobeVFPrototype_vsindex.otf", false, 1, false, false},
    {"CFF2Instancer-VF-1.otf", false, 1, false, false},
    {"NotoSansJP-VF.subset.otf", false, 1, false, false},
    {"AdobeVFPrototype_chained_blend.otf", false, 1, false, false},
    /* Source Serif 4 blends its Private DICTs' BlueScale, which FreeType 2.12 cannot read from
     * a CFF2 blend (see blue_copy below): its exact instances are asserted to hint as the
     * variable font with their BlueScale divided by 1000 (overshoot suppression off, as
     * FreeType has it for the variable font), and counted as written. (Cantarell's accented
     * glyphs differed by a pixel until the Private DICT's integer values were written rounded
     * as FreeType reads the variable font's: cff1.h, otv_cff_private_int.) */
    {"SourceSerif4Variable-Roman.otf", true, 8, true, false},
    {"SourceSans3VF-Upright.otf", true, 8, false, false},
    {"Cantarell-VF.otf", true, 8, false, false},
    /* tests/fonts/make_cff2_flatten.py: blend results as a subroutine number and a blend count
     * in kept subroutines; a FontMatrix of half units (--cff2 flattens the font) */
    {"cff2_blend_numbers.otf", false, 1, false, false},
    {"cff2_flat_fm.otf", false, 1, false, true},
};

#define RANDOM_LOCATIONS 20
#define CFF2_LOCATIONS 5 /* random locations where the --cff2 instance is checked too */
#define TOL_POINTS 1.0   /* see the header: units between the instance and the rounded outline */
#define TOL_RAW 1.001    /* units between the instance and the unrounded outline (float sums) */
#define SHORT_LINE 2.0f
#define TOL_EXACT 0.002 /* units: 16.16 values, HarfBuzz's float arithmetic */

static double worst_ft, worst_hb, worst_raw, worst_exact;

/* Drop the closing line of each contour whose last point is within len units of its start in x
 * and in y (the contour closes there but for rounding). */
static void drop_short_closing(oo_path *p, float len)
{
  size_t wr = 0;
  for (size_t c = 0; c < p->n_con; c++) {
    oo_contour *k = &p->con[c];
    size_t n = k->n;
    if (n >= 2 && p->seg[k->first + n - 1].op == 'L') {
      const oo_seg *prev = &p->seg[k->first + n - 2];
      int e = prev->op == 'L' ? 0 : prev->op == 'Q' ? 2 : 4;
      if (fabsf(prev->p[e] - k->x0) <= len && fabsf(prev->p[e + 1] - k->y0) <= len) n--;
    }
    memmove(&p->seg[wr], &p->seg[k->first], n * sizeof *p->seg);
    k->first = wr, k->n = n;
    wr += n;
  }
  p->n_seg = wr;
}

/* Whether contour c of p ends with a closing line no longer than len in x and in y (a contour
 * that closes but for rounding). */
static bool short_closing(const oo_path *p, size_t c, float len)
{
  const oo_contour *k = &p->con[c];
  if (k->n < 2 || p->seg[k->first + k->n - 1].op != 'L') return false;
  const oo_seg *prev = &p->seg[k->first + k->n - 2];
  int e = prev->op == 'L' ? 0 : prev->op == 'Q' ? 2 : 4;
  float dx = fabsf(prev->p[e] - k->x0), dy = fabsf(prev->p[e + 1] - k->y0);
  return (dx > 0 || dy > 0) && dx <= len && dy <= len;
}

/* The contours of a (the variable font rounded) and b (an instance) of which one has a short
 * closing line and the other none: the instance gained (or lost) a closing line of a unit or
 * two where rounding differences were carried across subroutine calls. (Contour counts that
 * differ are reported by the comparison.) */
static unsigned long closing_lines, closing_contours;
static unsigned closing_differs(const oo_path *a, const oo_path *b)
{
  if (a->n_con != b->n_con) return 0;
  unsigned n = 0;
  for (size_t c = 0; c < a->n_con; c++)
    n += short_closing(a, c, SHORT_LINE) != short_closing(b, c, SHORT_LINE);
  return n;
}

/* Every point of a path rounded with floor(x + 0.5): the outline an exact static instance
 * stores. */
static void round_path(oo_path *p)
{
  for (size_t i = 0; i < p->n_con; i++) {
    p->con[i].x0 = floorf(p->con[i].x0 + 0.5f);
    p->con[i].y0 = floorf(p->con[i].y0 + 0.5f);
  }
  for (size_t i = 0; i < p->n_seg; i++)
    for (int k = 0; k < 6; k++) p->seg[i].p[k] = floorf(p->seg[i].p[k] + 0.5f);
}

/* Hinted outlines (FreeType's CFF hinter): the instance's against the variable font's at the
 * same coordinates (already set in FreeType), every point within 1/64 px (one 26.6 unit), per
 * ppem. Integer instances are counted, not asserted: they store the blended stems and points
 * rounded, so an edge that the variable font places near a pixel boundary can snap the other
 * way (half a unit is 0.024 px at 48 ppem, 1000 upem: more than 1/64 px from ~31 ppem). Exact
 * instances (OTV_INSTANCE_CFF_EXACT) must be within 1/64 px everywhere. */
#define PPEM_MIN 12
#define PPEM_MAX 48
typedef struct hint_stats {
  unsigned long glyphs[PPEM_MAX + 1], same[PPEM_MAX + 1], px1[PPEM_MAX + 1];
  long worst[PPEM_MAX + 1]; /* 26.6 units */
} hint_stats;
static hint_stats hs_int, hs_exact, hs_blue; /* hs_blue: BlueScale / 1000 (blue_copy) */
static hint_stats hs_ft; /* the exact instance with FreeType's blend arithmetic (ft_face) */
static unsigned long blue_values; /* BlueScale values divided */
static bool all_ppems;            /* OTV_CFF1_FULL=1: every ppem 12-48, else every 4th */

/* The points of a hinted outline into out (o->n_points of room), each contour without a last
 * on-curve point within 1/64 px of its first (in x and y): FreeType keeps such a closing point
 * where the contour's end misses its start by a fraction of a unit before hinting (the
 * variable font's 16.16 blend results rounded one by one: Source Sans 3's uni030C0313 at
 * wght=400; Source Serif 4's glyphs 280, 384 and 992 at some named instances, where hinting
 * then puts it 1/64 px from the start) and drops it where they are equal (the exact instance's
 * sums), the same outline either way (within the tolerance compared). */
static short canon_points(const FT_Outline *o, FT_Vector *out)
{
  short n = 0, first = 0;
  for (short c = 0; c < o->n_contours; c++) {
    short last = o->contours[c];
    for (short i = first; i <= last; i++) {
      bool dup = i == last && i > first && (o->tags[i] & 1) &&
                 labs(o->points[i].x - o->points[first].x) <= 1 &&
                 labs(o->points[i].y - o->points[first].y) <= 1;
      if (!dup) out[n++] = o->points[i];
    }
    first = (short)(last + 1);
  }
  return n;
}

/* The hinted points of glyph g of face into *buf (grown as needed), canonical (canon_points);
 * -1 when FreeType cannot load it. */
static int hinted_points(FT_Face face, unsigned g, FT_Vector **buf, size_t *cap)
{
  if (FT_Load_Glyph(face, g, FT_LOAD_DEFAULT)) return -1;
  FT_Outline o = face->glyph->outline;
  size_t need = o.n_points > 0 ? (size_t)o.n_points : 1;
  if (need > *cap) {
    FT_Vector *nb = realloc(*buf, need * sizeof **buf);
    if (!nb) return -1;
    *buf = nb, *cap = need;
  }
  return canon_points(&o, *buf);
}

/* A face compared with the variable font's hinted outlines: counted in hs, at every ppem when
 * every (else every 4th unless all_ppems). */
typedef struct hface {
  FT_Face face;
  hint_stats *hs;
  bool every;
  const char *tag;
} hface;

/* Hinted outlines of var (the variable font, its coordinates set) against each face of hf (NULL
 * faces skipped): per glyph the worst point distance in 26.6 units. */
static void compare_hinted(FT_Face var, const hface *hf, unsigned nf, unsigned glyph_count,
                           unsigned step, const char *what)
{
  FT_Vector *ap = NULL, *bp = NULL;
  size_t acap = 0, bcap = 0;
  for (unsigned ppem = PPEM_MIN; ppem <= PPEM_MAX; ppem++) {
    bool on[4] = {false}, any = false, ok = !FT_Set_Pixel_Sizes(var, 0, ppem);
    for (unsigned k = 0; k < nf && k < 4; k++) {
      on[k] = hf[k].face && (hf[k].every || all_ppems || (ppem - PPEM_MIN) % 4 == 0);
      if (on[k]) ok = ok && !FT_Set_Pixel_Sizes(hf[k].face, 0, ppem), any = true;
    }
    if (!any) continue;
    if (!ok) break;
    for (unsigned g = 0; g < glyph_count; g += step) {
      int an = hinted_points(var, g, &ap, &acap);
      if (an < 0) continue;
      for (unsigned k = 0; k < nf && k < 4; k++) {
        if (!on[k]) continue;
        hint_stats *h = hf[k].hs;
        int bn = hinted_points(hf[k].face, g, &bp, &bcap);
        if (bn < 0) continue;
        h->glyphs[ppem]++;
        long worst = 0;
        if (an != bn) {
          worst = 1 << 20;
          if (getenv("OTV_CFF1_DEBUG"))
            fprintf(stderr, "hinted %s%s ppem %u glyph %u: %d points, the variable font %d\n", what,
                    hf[k].tag, ppem, g, bn, an);
        } else {
          for (int i = 0; i < an; i++) {
            long dx = labs(ap[i].x - bp[i].x), dy = labs(ap[i].y - bp[i].y);
            if (dx > worst) worst = dx;
            if (dy > worst) worst = dy;
          }
        }
        if (worst > h->worst[ppem]) h->worst[ppem] = worst;
        if (worst > 1 && getenv("OTV_CFF1_HINTDBG"))
          fprintf(stderr, "HINT %s%s ppem %u glyph %u worst %ld/64\n", what, hf[k].tag, ppem, g,
                  worst);
        if (worst <= 1)
          h->same[ppem]++; /* within 1/64 px */
        else if (worst <= 64)
          h->px1[ppem]++;
      }
    }
  }
  free(ap), free(bp);
}

static void print_hinted(const char *what, const hint_stats *hs)
{
  unsigned long g = 0, same = 0;
  printf("  hinted (FreeType, named instances), %s: ppem:within 1/64 px/compared", what);
  for (unsigned ppem = PPEM_MIN; ppem <= PPEM_MAX; ppem++) {
    if (!hs->glyphs[ppem]) continue;
    printf(" %u:%lu/%lu", ppem, hs->same[ppem], hs->glyphs[ppem]);
    g += hs->glyphs[ppem], same += hs->same[ppem];
  }
  printf(" (all: %lu/%lu)\n", same, g);
}

/* ---- BlueScale / 1000: what FreeType 2.12 makes of a blended BlueScale ----
 * (Debian's 2.12.1 source.) FreeType's CFF2 Private DICT parser (src/cff/cffload.c,
 * cff_blend_doBlend) blends each operand read with cff_parse_num (src/cff/cffparse.c: a real
 * number truncated to an integer: Source Serif 4's 0.0375 and its deltas read as 0) and hands
 * the result on as byte 255 and a 16.16 number, which cff_parse_num decodes; but BlueScale is
 * a cff_kind_fixed_thousand field (cfftoken.h), read by do_fixed (cffparse.c), which knows only
 * integers and reals: cff_parse_integer reads the 255 as the first byte of a negative two-byte
 * integer (-1132 or less; 0 where its bounds check fails), x 1000 overflows, and blue_scale is
 * -0x7FFFFFFF (or 0), from any blended BlueScale. The hinter (src/psaux/psblues.c,
 * cf2_blues_init) suppresses overshoots while the scale is below BlueScale (psft.c,
 * cf2_getBlueMetrics: blue_scale / 1000), which it never is then. A static instance stores the
 * true value, under which FreeType suppresses them below 37.5-47 ppem; the value / 1000 is
 * below the scale at every ppem compared, as the variable font's reading. */

static unsigned rd16(const uint8_t *p) { return (unsigned)p[0] << 8 | p[1]; }
static uint32_t rd32(const uint8_t *p)
{
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static void wr32(uint8_t *p, uint32_t v)
{
  p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
}

/* The end of the CFF INDEX at off in t[0, n) and, when i is below its count, element i's span
 * [*s, *e); 0 when it does not fit. */
static size_t cff_index(const uint8_t *t, size_t n, size_t off, unsigned i, size_t *s, size_t *e)
{
  if (off + 2 > n) return 0;
  unsigned count = rd16(t + off);
  if (!count) return off + 2;
  if (off + 3 > n) return 0;
  unsigned osz = t[off + 2];
  size_t arr = off + 3, base = arr + ((size_t)count + 1) * osz - 1;
  if (osz < 1 || osz > 4 || base + 1 > n) return 0;
  size_t ro[2];
  for (int k = 0; k < 2; k++) {
    unsigned idx = k ? count : (i < count ? i : 0);
    size_t v = 0;
    for (unsigned b = 0; b < osz; b++) v = v << 8 | t[arr + (size_t)idx * osz + b];
    ro[k] = v;
  }
  size_t end = base + ro[1];
  if (end > n) return 0;
  if (i < count) {
    size_t a = 0, z = 0;
    for (unsigned b = 0; b < osz; b++) a = a << 8 | t[arr + (size_t)i * osz + b];
    for (unsigned b = 0; b < osz; b++) z = z << 8 | t[arr + (size_t)(i + 1) * osz + b];
    if (a < 1 || z < a || base + z > end) return 0;
    *s = base + a, *e = base + z;
  }
  return end;
}

/* The DICT token at *pos in t[.., end): an operand (-1, its value in *v) or an operator (its
 * code, 12 x as 0x100 | x); -2 when malformed. */
static int dict_tok(const uint8_t *t, size_t end, size_t *pos, double *v)
{
  size_t p = *pos;
  if (p >= end) return -2;
  unsigned b = t[p];
  if (b == 12) {
    if (p + 2 > end) return -2;
    *pos = p + 2;
    return 0x100 | t[p + 1];
  }
  if (b <= 21) return *pos = p + 1, (int)b;
  if (b == 28 && p + 3 <= end) return *v = (int16_t)rd16(t + p + 1), *pos = p + 3, -1;
  if (b == 29 && p + 5 <= end) return *v = (int32_t)rd32(t + p + 1), *pos = p + 5, -1;
  if (b >= 32 && b <= 246) return *v = (double)b - 139, *pos = p + 1, -1;
  if (b >= 247 && b <= 250 && p + 2 <= end)
    return *v = (double)((b - 247) * 256 + t[p + 1] + 108), *pos = p + 2, -1;
  if (b >= 251 && b <= 254 && p + 2 <= end)
    return *v = -(double)((b - 251) * 256 + t[p + 1] + 108), *pos = p + 2, -1;
  if (b != 30) return -2;
  char s[64];
  size_t k = 0;
  for (p++;; p++) {
    if (p >= end) return -2;
    for (int h = 0; h < 2; h++) {
      unsigned nib = h ? t[p] & 15u : t[p] >> 4;
      if (nib == 15) {
        s[k] = 0;
        *v = strtod(s, NULL), *pos = p + 1;
        return -1;
      }
      const char *m = nib == 10 ? "." : nib == 11 ? "E" : nib == 12 ? "E-" : nib == 14 ? "-" : "";
      char d[2] = {(char)('0' + nib), 0};
      if (nib < 10) m = d;
      if (k + strlen(m) >= sizeof s) return -2;
      memcpy(s + k, m, strlen(m)), k += strlen(m);
    }
  }
}

/* v as a DICT real (operator 30) at out (16 bytes of room); its length. */
static size_t put_real(uint8_t *out, double v)
{
  char s[32];
  snprintf(s, sizeof s, "%.9g", v);
  uint8_t nib[40];
  size_t n = 0;
  for (const char *c = s; *c; c++) {
    if (*c >= '0' && *c <= '9')
      nib[n++] = (uint8_t)(*c - '0');
    else if (*c == '.')
      nib[n++] = 10;
    else if (*c == '-')
      nib[n++] = 14;
    else if (*c == 'e' && c[1] == '-')
      nib[n++] = 12, c++;
    else if (*c == 'e')
      nib[n++] = 11, c += c[1] == '+';
  }
  nib[n++] = 15;
  if (n & 1) nib[n++] = 15;
  out[0] = 30;
  for (size_t i = 0; i < n; i += 2) out[1 + i / 2] = (uint8_t)(nib[i] << 4 | nib[i + 1]);
  return 1 + n / 2;
}

/* In the DICT t[s, e), the table positions of the operands of "size offset Private" (18) into
 * at[0..1] (true when found, both 5-byte integers as otvar writes offsets), and the operand of
 * FDArray (12 36) into *fda (when not NULL). */
static bool find_private(const uint8_t *t, size_t s, size_t e, size_t at[2], size_t *fda)
{
  size_t pos = s, opnd[48];
  unsigned n = 0;
  bool found = false;
  double v = 0, last = 0;
  while (pos < e) {
    size_t here = pos;
    int op = dict_tok(t, e, &pos, &v);
    if (op == -2) return false;
    if (op == -1) {
      if (n < 48) opnd[n++] = here;
      last = v;
      continue;
    }
    if (op == 18 && n == 2 && t[opnd[0]] == 29 && t[opnd[1]] == 29)
      at[0] = opnd[0], at[1] = opnd[1], found = true;
    if (op == 0x124 && fda && n == 1) *fda = (size_t)last;
    n = 0;
  }
  return found;
}

/* A copy of the sfnt f (n bytes) whose CFF table's Private DICTs (the Top DICT's, or each Font
 * DICT's) have their BlueScale divided by 1000: each Private DICT rewritten (BlueScale a new
 * real, Subrs pointing after it, the other entries as they are) is appended to the table with a
 * copy of its local Subrs, and its "size offset Private" operands point there. Returns the new
 * sfnt (malloc'ed; *len) or NULL; *changed counts the BlueScale values divided. */
static uint8_t *blue_copy(const uint8_t *f, size_t n, size_t *len, unsigned *changed)
{
  *changed = 0;
  if (n < 12) return NULL;
  unsigned nt = rd16(f + 4), ci = nt;
  if (12 + 16 * (size_t)nt > n) return NULL;
  for (unsigned i = 0; i < nt; i++)
    if (!memcmp(f + 12 + 16 * i, "CFF ", 4)) ci = i;
  if (ci == nt) return NULL;
  size_t coff = rd32(f + 12 + 16 * ci + 8), cn = rd32(f + 12 + 16 * ci + 12);
  if (coff > n || cn > n - coff || cn < 4) return NULL;
  const uint8_t *t = f + coff;
  size_t ts = 0, te = 0, name_end = cff_index(t, cn, t[2], 1u << 20, &ts, &te);
  if (!name_end || !cff_index(t, cn, name_end, 0, &ts, &te)) return NULL;
  size_t refs[256][2], nref = 0, fda = 0;
  if (find_private(t, ts, te, refs[0], &fda)) nref = 1;
  unsigned nfd = fda && fda + 2 <= cn ? rd16(t + fda) : 0;
  for (unsigned i = 0; i < nfd && i < 255; i++) {
    size_t s = 0, e = 0;
    if (!cff_index(t, cn, fda, i, &s, &e)) return NULL;
    if (find_private(t, s, e, refs[nref], NULL)) nref++;
  }
  size_t cap = 2 * cn + 64 * nref + 16; /* (checked below, for each entry and Subrs copied) */
  uint8_t *c = malloc(cap);
  if (!c) return NULL;
  memcpy(c, t, cn);
  size_t cl = cn;
  for (size_t r = 0; r < nref; r++) {
    size_t size = rd32(c + refs[r][0] + 1), off = rd32(c + refs[r][1] + 1);
    if (off > cn || size > cn - off) goto fail;
    size_t at = cl, pos = off, run = off, subrs = 0;
    double v = 0, args[48];
    unsigned na = 0;
    while (pos < off + size) {
      int op = dict_tok(t, off + size, &pos, &v);
      if (op == -2 || cl + (pos - run) + 32 > cap) goto fail;
      if (op == -1) {
        if (na < 48) args[na++] = v;
        continue;
      }
      if (op == 0x109 && na == 1) { /* BlueScale */
        cl += put_real(c + cl, args[0] / 1000);
        c[cl++] = 12, c[cl++] = 9;
        ++*changed;
      } else if (op == 19 && na == 1 && args[0] > 0 && args[0] < (double)cn) { /* Subrs: last */
        subrs = off + (size_t)args[0];
      } else {
        memcpy(c + cl, t + run, pos - run), cl += pos - run;
      }
      run = pos, na = 0;
    }
    size_t sub_end = 0, s = 0, e = 0;
    if (subrs && (!(sub_end = cff_index(t, cn, subrs, 1u << 20, &s, &e)) ||
                  cl + 6 + (sub_end - subrs) > cap))
      goto fail;
    if (subrs) {
      c[cl] = 29, wr32(c + cl + 1, (uint32_t)(cl + 6 - at)), c[cl + 5] = 19, cl += 6;
    }
    wr32(c + refs[r][0] + 1, (uint32_t)(cl - at));
    wr32(c + refs[r][1] + 1, (uint32_t)at);
    memcpy(c + cl, t + subrs, sub_end - subrs), cl += sub_end - subrs;
  }
  /* the sfnt again, the CFF table replaced (tables in directory order, 4-byte aligned) */
  size_t total = 12 + 16 * (size_t)nt;
  for (unsigned i = 0; i < nt; i++) {
    size_t l = i == ci ? cl : rd32(f + 12 + 16 * i + 12);
    total += (l + 3) & ~(size_t)3;
  }
  uint8_t *o = calloc(total, 1);
  if (!o) goto fail;
  memcpy(o, f, 12 + 16 * (size_t)nt);
  size_t w = 12 + 16 * (size_t)nt;
  for (unsigned i = 0; i < nt; i++) {
    uint8_t *d = o + 12 + 16 * i;
    size_t l = i == ci ? cl : rd32(f + 12 + 16 * i + 12), so = rd32(f + 12 + 16 * i + 8);
    if (i != ci && (so > n || l > n - so)) {
      free(o);
      goto fail;
    }
    memcpy(o + w, i == ci ? c : f + so, l);
    if (i == ci) {
      uint32_t sum = 0;
      for (size_t k = 0; k < l; k += 4) sum += rd32(o + w + k); /* (zero padded) */
      wr32(d + 4, sum);
    }
    wr32(d + 8, (uint32_t)w), wr32(d + 12, (uint32_t)l);
    w += (l + 3) & ~(size_t)3;
  }
  free(c);
  *len = total;
  return o;
fail:
  free(c);
  return NULL;
}

/* The exact instance at f's location made with FreeType's 16.16 blend arithmetic
 * (OTV_INST_CFF_FT_BLEND, src/instance/cff1.h: every charstring operand FreeType's blend of the
 * variable font's, each delta's product with its 16.16 region scalar rounded), with its
 * BlueScale / 1000 when blue1000, opened in p's FreeType library; its bytes in *bytes (free
 * after the face). Its hinted outlines must equal FreeType's of the variable font: what is left
 * between the exact instance and the variable font is FreeType's arithmetic. */
static FT_Face ft_face(oo_font *f, const oo_font *p, unsigned flags, bool blue1000, uint8_t **bytes)
{
  uint8_t *out = NULL;
  size_t len = 0, clen = 0;
  *bytes = NULL;
  if (otv_instance_create(f->loc, flags | OTV_INST_CFF_FT_BLEND, &out, &len)) {
    CHECK(!"the instance with FreeType's blend arithmetic");
    return NULL;
  }
  unsigned nb = 0;
  uint8_t *c = blue1000 ? blue_copy(out, len, &clen, &nb) : malloc(len);
  if (c && !blue1000) memcpy(c, out, len), clen = len;
  otv_instance_free(f->loc, out, len);
  FT_Face face = NULL;
  if (!c || (blue1000 && !nb) || FT_New_Memory_Face(p->ft_lib, c, (FT_Long)clen, 0, &face)) {
    CHECK(!"FreeType opens the instance with FreeType's blend arithmetic");
    free(c);
    return NULL;
  }
  *bytes = c;
  return face;
}

/* One location (already set in f.loc): instance, open, compare. */
static void check_location(oo_font *f, const char *name, const char *tmp, unsigned step,
                           const char *where, bool hinted, unsigned flags, bool matrix,
                           bool blue1000)
{
  uint8_t *out = NULL;
  size_t len = 0;
  otv_status st = otv_instance_create(f->loc, flags, &out, &len);
  if (st) {
    fprintf(stderr, "%s %s: instance: %s\n", name, where, otv_location_last_error(f->loc)->msg);
    CHECK_EQ(st, OTV_E_OK);
    return;
  }
  FILE *fp = fopen(tmp, "wb");
  CHECK(fp && fwrite(out, 1, len, fp) == len);
  if (fp) fclose(fp);
  otv_instance_free(f->loc, out, len);
  oo_font p;
  if (oo_font_open(&p, tmp)) {
    CHECK(!"instance opens");
    return;
  }
  size_t cff_len = 0, cff2_len = 0;
  bool cff2 = (flags & OTV_INSTANCE_CFF2) != 0; /* a static CFF2 table instead */
  bool exact = (flags & OTV_INSTANCE_CFF_EXACT) != 0;
  CHECK((otv_face_table(p.face, OTV_TAG('C', 'F', 'F', ' '), &cff_len) != NULL) == !cff2);
  CHECK((otv_face_table(p.face, OTV_TAG('C', 'F', 'F', '2'), &cff2_len) != NULL) == cff2);
  CHECK_EQ(p.axis_count, 0);
  CHECK(p.ft_ok);
  oo_path a, r, b, c;
  memset(&a, 0, sizeof a), memset(&r, 0, sizeof r), memset(&b, 0, sizeof b);
  memset(&c, 0, sizeof c);
  for (unsigned g = 0; g < f->glyph_count; g += step) {
    if (oo_otv_outline(f, g, 0, &a, NULL) || oo_otv_outline(f, g, 0, &r, NULL)) {
      CHECK(!"otvar draws the variable font");
      continue;
    }
    bool by_otvar = matrix && !cff2; /* (the instance keeps the FontMatrix) */
    if (by_otvar ? oo_otv_outline(&p, g, 0, &b, NULL) || oo_otv_outline(&p, g, 0, &c, NULL)
                 : oo_ft_outline(&p, g, &b) || oo_hb_outline(&p, g, &c)) {
      fprintf(stderr, "%s %s glyph %u: FreeType or HarfBuzz cannot draw the instance\n", name,
              where, g);
      CHECK(!"FreeType and HarfBuzz draw the instance");
      continue;
    }
    const char *why = NULL;
    if (exact) {
      /* the unrounded outline, to the 16.16 values stored */
      /* (a contour that closes in exact arithmetic can end 1/65536 off its start in the sums
       * of 16.16 values: a closing line that short is dropped) */
      oo_path_drop_zero_lines(&r), drop_short_closing(&r, (float)TOL_EXACT);
      oo_path_drop_zero_lines(&c), drop_short_closing(&c, (float)TOL_EXACT);
      double d = oo_path_diff(&r, &c, 1, &why);
      if (d < 0 || d > TOL_EXACT) {
        fprintf(stderr, "%s %s glyph %u: HarfBuzz (exact) %s %g\n", name, where, g,
                why ? why : "off by", d);
        CHECK(!"HarfBuzz draws the exact instance as otvar the variable font");
      } else if (d > worst_exact) {
        worst_exact = d;
      }
      continue;
    }
    round_path(&a);
    /* FreeType drops the zero-length lines that rounding makes (HarfBuzz some of them); a
     * contour of the instance that ends a unit or two from its start (rounding differences
     * carried across subroutine calls) has a closing line the rounded outline lacks */
    oo_path_drop_zero_lines(&a), oo_path_drop_zero_lines(&b), oo_path_drop_zero_lines(&c);
    unsigned cft = closing_differs(&a, &b), chb = closing_differs(&a, &c);
    closing_contours += a.n_con;
    if (cft || chb) {
      closing_lines += cft > chb ? cft : chb;
      fprintf(stderr,
              "%s %s glyph %u: %u contours (FreeType), %u (HarfBuzz) with a closing line "
              "the variable font lacks or the other way\n",
              name, where, g, cft, chb);
    }
    drop_short_closing(&a, SHORT_LINE), drop_short_closing(&b, SHORT_LINE);
    double dft = oo_path_diff(&a, &b, 0, &why);
    if (dft < 0 || dft > TOL_POINTS) {
      fprintf(stderr, "%s %s glyph %u: FreeType %s %g\n", name, where, g, why ? why : "off by",
              dft);
      static int printed;
      if (printed++ < 2) {
        fprintf(stderr, "otvar:    "), oo_path_print(stderr, &a);
        fprintf(stderr, "\nFreeType: "), oo_path_print(stderr, &b), fprintf(stderr, "\n");
      }
      CHECK(!"FreeType draws the instance as otvar the variable font");
    } else if (dft > worst_ft) {
      worst_ft = dft;
    }
    drop_short_closing(&c, SHORT_LINE);
    double dhb = oo_path_diff(&a, &c, 1, &why);
    oo_path_drop_zero_lines(&r), drop_short_closing(&r, SHORT_LINE);
    double draw = oo_path_diff(&r, &c, 1, NULL); /* from the exact outline */
    if (draw > worst_raw) worst_raw = draw;
    if (draw > TOL_RAW) { /* (-1: a zero-length line where the other has a short one) */
      fprintf(stderr, "%s %s glyph %u: HarfBuzz %g from the unrounded outline\n", name, where, g,
              draw);
      CHECK(!"the instance is within a unit of the variable font");
    }
    if (getenv("OTV_CFF1_DEBUG") &&
        draw > (getenv("OTV_CFF1_DRIFT") ? atof(getenv("OTV_CFF1_DRIFT")) : 1.6))
      fprintf(stderr, "DRIFT %s %s glyph %u %g\n", name, where, g, draw);
    if (getenv("OTV_CFF1_DEBUG") &&
        draw > (getenv("OTV_CFF1_DRIFT") ? atof(getenv("OTV_CFF1_DRIFT")) : 1.6) &&
        atoi(getenv("OTV_CFF1_DEBUG")) == (int)g) {
      fprintf(stderr, "exact:    "), oo_path_print(stderr, &r);
      fprintf(stderr, "\nHarfBuzz: "), oo_path_print(stderr, &c), fprintf(stderr, "\n");
    }
    if (dhb < 0 || dhb > TOL_POINTS) {
      fprintf(stderr, "%s %s glyph %u: HarfBuzz %s %g\n", name, where, g, why ? why : "off by",
              dhb);
      CHECK(!"HarfBuzz draws the instance as otvar the variable font");
    } else if (dhb > worst_hb) {
      worst_hb = dhb;
    }
    float adv = 0;
    otv_glyph_advances(f->loc, &g, 1, OTV_METRICS_ROUND, &adv);
    long fta = oo_ft_advance(&p, g);
    if (fta != (long)adv) {
      fprintf(stderr, "%s %s glyph %u: advance %ld, variable font %g\n", name, where, g, fta, adv);
      CHECK_EQ(fta, (long)adv);
    }
  }
  oo_path_free(&a), oo_path_free(&r), oo_path_free(&b), oo_path_free(&c);
  if (hinted && f->ft_ok && p.ft_ok) {
    otv_f2dot14 co[64];
    unsigned na = otv_location_normalized(f->loc, co, 64);
    oo_font_set_normalized(f, co, na);
    /* the exact instance with its BlueScale / 1000 (blue_copy), counted; and the exact
     * instance with FreeType's blend arithmetic (ft_face), asserted by run_case */
    uint8_t *copy = NULL, *ftcopy = NULL;
    FT_Face fixed = NULL, ftf = NULL;
    if (exact && blue1000) {
      size_t clen = 0;
      unsigned nb = 0;
      copy = blue_copy(p.data, p.len, &clen, &nb);
      if (copy && getenv("OTV_CFF1_BLUEDUMP")) {
        FILE *df = fopen(getenv("OTV_CFF1_BLUEDUMP"), "wb");
        if (df) fwrite(copy, 1, clen, df), fclose(df);
      }
      CHECK(copy && nb > 0);
      if (copy && FT_New_Memory_Face(p.ft_lib, copy, (FT_Long)clen, 0, &fixed)) {
        CHECK(!"FreeType opens the instance with BlueScale / 1000");
        fixed = NULL;
      }
      blue_values += nb;
    }
    if (exact) ftf = ft_face(f, &p, flags, blue1000, &ftcopy);
    hface hf[3] = {
        {p.ft, exact ? &hs_exact : &hs_int, false, ""},
        {fixed, &hs_blue, true, " (BlueScale / 1000)"},
        {ftf, &hs_ft, blue1000, " (FreeType's blend)"},
    };
    compare_hinted(f->ft, hf, 3, f->glyph_count, step, where);
    if (fixed) FT_Done_Face(fixed);
    if (ftf) FT_Done_Face(ftf);
    free(copy), free(ftcopy);
  }
  oo_font_close(&p);
}

static void run_case(const ccase *c, const char *dir, const char *tmp, bool full)
{
  char path[4096];
  if (c->cache) {
    const char *p = oo_cache_font(c->font);
    if (!p || access(p, R_OK)) {
      printf("SKIP %s: not in OTV_FONT_CACHE (tests/fetch-fonts.sh fetches it)\n", c->font);
      return;
    }
    snprintf(path, sizeof path, "%s", p);
  } else {
    snprintf(path, sizeof path, "%s/%s", dir, c->font);
  }
  oo_font f;
  if (oo_font_open(&f, path)) {
    CHECK(!"source font opens");
    return;
  }
  unsigned step = full ? 1 : c->glyph_step;
  worst_ft = worst_hb = worst_raw = worst_exact = 0;
  closing_lines = closing_contours = 0;
  memset(&hs_int, 0, sizeof hs_int), memset(&hs_exact, 0, sizeof hs_exact);
  memset(&hs_blue, 0, sizeof hs_blue), blue_values = 0;
  memset(&hs_ft, 0, sizeof hs_ft);
  unsigned named = otv_face_named_instances(f.face, 0, NULL, NULL), locations = 0;
  char where[64];
  for (unsigned i = 0; i < named; i++) {
    CHECK_EQ(otv_location_set_named(f.loc, i), OTV_E_OK);
    char where2[80];
    snprintf(where, sizeof where, "named instance %u", i);
    check_location(&f, c->font, tmp, step, where, true, 0, c->matrix, false);
    snprintf(where2, sizeof where2, "%s (exact)", where);
    check_location(&f, c->font, tmp, step, where2, true, OTV_INSTANCE_CFF_EXACT, c->matrix,
                   c->blue1000);
    snprintf(where2, sizeof where2, "%s (--cff2)", where);
    check_location(&f, c->font, tmp, step, where2, false, OTV_INSTANCE_CFF2, c->matrix, false);
    locations++;
  }
  unsigned long long seed = 0x2545F4914F6CDD1DULL ^ f.glyph_count;
  for (int l = 0; l < RANDOM_LOCATIONS; l++) {
    otv_f2dot14 co[64];
    for (unsigned a = 0; a < f.axis_count && a < 64; a++) co[a] = oo_rand_coord(&seed);
    otv_location_set_normalized(f.loc, co, f.axis_count);
    snprintf(where, sizeof where, "random location %d", l);
    check_location(&f, c->font, tmp, step, where, false, 0, c->matrix, false);
    if (l < CFF2_LOCATIONS) {
      char where2[80];
      snprintf(where2, sizeof where2, "%s (--cff2)", where);
      check_location(&f, c->font, tmp, step, where2, false, OTV_INSTANCE_CFF2, c->matrix, false);
    }
    locations++;
  }
  printf("%s: %u locations, every %u glyph(s): FreeType within %.4f, HarfBuzz within %.5f of "
         "the rounded variable font; %.3f of the unrounded one; exact instances (named) within "
         "%.5f of it\n",
         c->font, locations, step, worst_ft, worst_hb, worst_raw, worst_exact);
  printf("  closing lines: %lu of %lu contours (integer instances) close unlike the variable "
         "font's\n",
         closing_lines, closing_contours);
  if (closing_lines) CHECK(!"the instance's contours close as the variable font's");
  print_hinted("integers", &hs_int);
  print_hinted("exact", &hs_exact);
  print_hinted("exact, FreeType's blend arithmetic", &hs_ft);
  unsigned long blue_differ = 0;
  if (c->blue1000) {
    print_hinted("exact, BlueScale / 1000", &hs_blue);
    printf("  BlueScale / 1000: %lu Private DICT values divided\n", blue_values);
    for (unsigned ppem = PPEM_MIN; ppem <= PPEM_MAX; ppem++)
      blue_differ += hs_blue.glyphs[ppem] - hs_blue.same[ppem];
    printf("  exact, BlueScale / 1000: %lu glyph-sizes differ from the variable font, every one "
           "by FreeType's blend arithmetic (its copy hints as the variable font)\n",
           blue_differ);
  }
  /* asserted: the exact instances with FreeType's blend arithmetic (Source Serif 4: with
   * BlueScale / 1000, every ppem), and the exact ones themselves but for Source Serif 4 */
  for (unsigned ppem = PPEM_MIN; ppem <= PPEM_MAX; ppem++) {
    if (c->blue1000 && named && (!hs_blue.glyphs[ppem] || !hs_ft.glyphs[ppem])) {
      fprintf(stderr, "%s: ppem %u: no hinted outline compared\n", c->font, ppem);
      CHECK(!"the BlueScale / 1000 copies are compared at every ppem");
    }
    if (hs_ft.same[ppem] != hs_ft.glyphs[ppem]) {
      fprintf(stderr,
              "%s: exact instance with FreeType's blend arithmetic%s, ppem %u: %lu of %lu hinted "
              "outlines within 1/64 px (worst %ld/64)\n",
              c->font, c->blue1000 ? " (BlueScale / 1000)" : "", ppem, hs_ft.same[ppem],
              hs_ft.glyphs[ppem], hs_ft.worst[ppem]);
      CHECK(!"exact instances with FreeType's arithmetic hint as the variable font");
    }
    if (!c->blue1000 && hs_exact.same[ppem] != hs_exact.glyphs[ppem]) {
      fprintf(stderr,
              "%s: exact instance, ppem %u: %lu of %lu hinted outlines within 1/64 px "
              "(worst %ld/64)\n",
              c->font, ppem, hs_exact.same[ppem], hs_exact.glyphs[ppem], hs_exact.worst[ppem]);
      CHECK(!"exact instances hint as the variable font");
    }
  }
  oo_font_close(&f);
}

int main(void)
{
  const char *dir = getenv("OTV_FONTS");
  if (!dir) dir = "tests/fonts";
  const char *fl = getenv("OTV_CFF1_FULL");
  bool full = fl && *fl == '1';
  all_ppems = full;
  char tmp[] = "/tmp/otv_cff1_XXXXXX";
  int fd = mkstemp(tmp);
  if (fd < 0) return 1;
  close(fd);
  const char *only = getenv("OTV_CFF1_ONLY"); /* (debugging: one font) */
  for (size_t i = 0; i < sizeof CASES / sizeof *CASES; i++)
    if (!only || strstr(CASES[i].font, only)) run_case(&CASES[i], dir, tmp, full);
  unlink(tmp);
  return h_done("test_instance_cff1");
}

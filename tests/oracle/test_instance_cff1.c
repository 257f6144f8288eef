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

#include "cff.h"
#include "cff_write.h"
#include "core/sfnt.h"
#include "core/tags.h"
#include "instance/cff_ft.h" /* OTV_INST_CFF_FT_BLEND */

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
    /* a vsindex whose operand a subroutine pushes (tests/fonts/make_cff2_flatten.py): the
     * subroutine is called inline where the instance drops the vsindex (its writer took the
     * operand's output offset from a kept subroutine: a heap overflow, before) */
    {"cff2_vsindex_subr.otf", false, 1, false, false},
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
static bool blue_checked;                    /* blue_selfcheck ran for this font */
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

/* The table offsets of the "size offset Private" records (their operands: 5-byte integers, as
 * otvar writes offsets) of the DICT [off, off + len) of tab (the Top DICT's, or one Font DICT's)
 * into *at; with fda not NULL, the FDArray offset into *fda. False when malformed. */
static bool private_record(otv_span tab, size_t off, size_t len, size_t *at, size_t *fda)
{
  otv_cff_dict d;
  otv_error err = {0};
  if (!otv_cff_dict_init(&d, tab, OTV_T_CFF, off, len, false, NULL)) return false;
  for (int op; (op = otv_cff_dict_next(&d, &err)) != OTV_DICT_END;) {
    if (op == OTV_DICT_ERROR) return false;
    if (op == OTV_DICT_PRIVATE && d.n == 2 && tab.p[d.at] == OTV_CFF_LONGINT &&
        tab.p[d.at + 5] == OTV_CFF_LONGINT)
      *at = d.at;
    if (op == OTV_DICT_FDARRAY && fda && !otv_cff_dict_offset(&d, 0, fda)) return false;
  }
  return true;
}

/* A copy of the sfnt f (n bytes) whose CFF table's Private DICTs (the Top DICT's, or each Font
 * DICT's) have their BlueScale divided by 1000: each Private DICT rewritten (BlueScale a new
 * real, Subrs pointing after it, the other entries as they are) is appended to the table with a
 * copy of its local Subrs, and its "size offset Private" operands point there; read and written
 * with otvar's own CFF readers and writers (otv_cff_parse, the DICT cursor, cff_write.h,
 * otv_sfnt_write). Returns the new sfnt (malloc'ed; *len) or NULL; *changed counts the
 * BlueScale values divided. */
static uint8_t *blue_copy(const uint8_t *f, size_t n, size_t *len, unsigned *changed)
{
  *changed = 0;
  otv_alloc al;
  otv_alloc_init(&al, NULL);
  otv_error err = {0};
  otv_sfnt sf;
  if (otv_sfnt_open(&sf, otv_span_of(f, n), 0, &al, &err)) return NULL;
  otv_span tab = otv_sfnt_find(&sf, OTV_T_CFF);
  otv_cff c;
  memset(&c, 0, sizeof c);
  otv_buf t, out;
  otv_buf_init(&t, &al), otv_buf_init(&out, &al);
  uint8_t *res = NULL;
  otv_cff_index names, tops, fda;
  otv_span top;
  if (!tab.p || tab.len < 4 || otv_cff_parse(tab, false, 1000, 0, &al, &c, &err) ||
      otv_cff_index_parse(tab, OTV_T_CFF, tab.p[2], false, &names, "Name INDEX", &err) ||
      otv_cff_index_parse(tab, OTV_T_CFF, names.end, false, &tops, "Top DICT INDEX", &err) ||
      !otv_cff_index_get(&tops, 0, &top))
    goto done;
  /* per Font DICT (the Top DICT when there is no FDArray), its Private record */
  size_t at[256], fda_off = 0;
  unsigned nfd = 0;
  at[0] = 0;
  if (!private_record(tab, (size_t)(top.p - tab.p), top.len, &at[0], &fda_off)) goto done;
  if (fda_off) {
    if (otv_cff_index_parse(tab, OTV_T_CFF, fda_off, false, &fda, "FDArray", &err) ||
        fda.count > 256 || fda.count != c.fd_count)
      goto done;
    for (unsigned i = 0; i < fda.count; i++) {
      otv_span fd;
      at[i] = 0;
      if (!otv_cff_index_get(&fda, i, &fd) ||
          !private_record(tab, (size_t)(fd.p - tab.p), fd.len, &at[i], NULL))
        goto done;
    }
    nfd = fda.count;
  } else {
    nfd = at[0] ? 1 : 0;
  }
  otv_buf_bytes(&t, tab.p, tab.len);
  for (unsigned i = 0; i < nfd; i++) {
    const otv_cff_fd *fd = &c.fds[i];
    if (!at[i] || !fd->priv.p) goto done;
    /* (the parser's Private DICT is the one the record names) */
    size_t poff = (size_t)(fd->priv.p - tab.p), here = t.len, subrs = 0;
    otv_cff_dict d;
    if (!otv_cff_dict_init(&d, tab, OTV_T_CFF, poff, fd->priv.len, false, NULL)) goto done;
    for (int op; (op = otv_cff_dict_next(&d, &err)) != OTV_DICT_END;) {
      if (op == OTV_DICT_ERROR) goto done;
      if (op == OTV_DICT_BLUESCALE && d.n == 1) {
        otv_cff_dict_put_num(&t, d.args[0] / 1000);
        otv_cff_put_op(&t, op);
        ++*changed;
      } else if (op == OTV_DICT_SUBRS && d.n == 1 && fd->subrs.count) {
        subrs = poff + (size_t)d.args[0]; /* written last, with the INDEX after it */
      } else {
        otv_buf_bytes(&t, tab.p + d.at, d.pos - d.at);
      }
    }
    if (subrs && subrs >= fd->subrs.end) goto done;
    if (subrs) {
      otv_cff_dict_put_offset(&t, (uint32_t)(t.len - here + OTV_CFF_DICT_OFFSET_LEN + 1));
      otv_cff_put_op(&t, OTV_DICT_SUBRS);
      otv_buf_bytes(&t, tab.p + subrs, fd->subrs.end - subrs);
    }
    if (t.failed) goto done;
    otv_put_u32(t.p + at[i] + 1,
                (uint32_t)(subrs ? t.len - (fd->subrs.end - subrs) - here : t.len - here));
    otv_put_u32(t.p + at[i] + 6, (uint32_t)here);
  }
  /* the sfnt again, the CFF table replaced */
  otv_sfnt_table tabs[64];
  if (sf.table_count > 64) goto done;
  for (unsigned i = 0; i < sf.table_count; i++) {
    const otv_table_record *r = &sf.tables[i];
    bool cff = r->tag == OTV_T_CFF;
    tabs[i] = (otv_sfnt_table){r->tag, cff ? t.p : f + r->offset, cff ? t.len : r->length};
  }
  if (otv_sfnt_write(&out, sf.version, tabs, sf.table_count, &err) || out.failed) goto done;
  res = malloc(out.len);
  if (res) memcpy(res, out.p, out.len), *len = out.len;
done:
  otv_buf_free(&t), otv_buf_free(&out);
  otv_cff_free(&al, &c);
  otv_sfnt_close(&sf, &al);
  return res;
}

/* blue_copy's own check on an instance of a font that is not blue1000 (its Private DICTs and
 * local Subrs moved, e.g. Cantarell's): the copy opens, and FreeType draws every step-th glyph of
 * it (unhinted, NO_SCALE) as it draws the instance's. */
static void blue_selfcheck(const oo_font *p, unsigned step)
{
  size_t clen = 0;
  unsigned nb = 0;
  uint8_t *copy = blue_copy(p->data, p->len, &clen, &nb);
  FT_Face face = NULL;
  if (!copy || FT_New_Memory_Face(p->ft_lib, copy, (FT_Long)clen, 0, &face)) {
    CHECK(!"blue_copy writes a font FreeType opens");
    free(copy);
    return;
  }
  unsigned long glyphs = 0, same = 0;
  for (unsigned g = 0; g < (unsigned)p->ft->num_glyphs; g += step) {
    if (FT_Load_Glyph(p->ft, g, FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING) ||
        FT_Load_Glyph(face, g, FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING))
      continue;
    const FT_Outline *a = &p->ft->glyph->outline, *b = &face->glyph->outline;
    glyphs++;
    bool eq = a->n_points == b->n_points && a->n_contours == b->n_contours;
    for (short i = 0; eq && i < a->n_points; i++)
      eq = a->points[i].x == b->points[i].x && a->points[i].y == b->points[i].y;
    same += eq;
  }
  printf("  blue_copy: %u BlueScale values divided, %lu of %lu glyphs drawn as the instance's\n",
         nb, same, glyphs);
  CHECK(glyphs > 0 && same == glyphs);
  FT_Done_Face(face);
  free(copy);
}

/* The exact instance at f's location made with FreeType's 16.16 blend arithmetic
 * (OTV_INST_CFF_FT_BLEND, src/instance/cff_ft.h: every charstring operand FreeType's blend of the
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
    if (exact && !blue1000 && !blue_checked && p.ft->num_glyphs > 1000)
      blue_selfcheck(&p, step), blue_checked = true;
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
  memset(&hs_ft, 0, sizeof hs_ft), blue_checked = false;
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

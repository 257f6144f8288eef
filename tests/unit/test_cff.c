/*
 * test_cff.c - CFF2 and CFF (v1) tables and the Type 2 charstring interpreter on hand-built
 * fonts. Expected points are computed by hand from the Type 2 / CFF2 charstring specs (each
 * fixture's comment shows the arithmetic). Also: blend with three regions and two
 * ItemVariationData (vsindex switches, Private DICT vsindex), subroutines and bias, hint-mask
 * byte counting, hostile charstrings (errors naming the table and an offset inside it),
 * truncation and bad-offset sweeps, and the allocation-failure loop. The decoders and writers
 * of cff_data.h and cff_write.h on their own: the DICT cursor (numbers, reals against strtod,
 * blend with and without scalars, the errors it reports), charstring tokens, and every writer
 * read back through them.
 */
#include "harness.h"
#include "cff_write.h"

/* ---- byte buffers ---- */
typedef struct buf {
  uint8_t d[16384];
  size_t n;
} buf;
static void b8(buf *b, unsigned v) { b->d[b->n++] = (uint8_t)v; }
static void b16(buf *b, unsigned v)
{
  b8(b, v >> 8);
  b8(b, v & 0xFF);
}
static void b32(buf *b, uint32_t v)
{
  b16(b, v >> 16);
  b16(b, v & 0xFFFF);
}
static void bmem(buf *b, const void *p, size_t n)
{
  memcpy(b->d + b->n, p, n);
  b->n += n;
}
static void put32(buf *b, size_t at, uint32_t v)
{
  b->d[at] = (uint8_t)(v >> 24), b->d[at + 1] = (uint8_t)(v >> 16);
  b->d[at + 2] = (uint8_t)(v >> 8), b->d[at + 3] = (uint8_t)v;
}

/* A charstring/bytes list element. */
typedef struct blob {
  const uint8_t *p;
  size_t n;
} blob;
#define BLOB(...)                                                                                  \
  {                                                                                                \
    (const uint8_t[]){__VA_ARGS__}, sizeof((const uint8_t[]){__VA_ARGS__})                         \
  }

/* INDEX (cff2: u32 count) with offSize 2. */
static void b_index(buf *b, const blob *items, size_t count, bool cff2)
{
  if (cff2)
    b32(b, (uint32_t)count);
  else
    b16(b, (unsigned)count);
  if (!count) return;
  b8(b, 2);
  unsigned off = 1;
  b16(b, off);
  for (size_t i = 0; i < count; i++) {
    off += (unsigned)items[i].n;
    b16(b, off);
  }
  for (size_t i = 0; i < count; i++) bmem(b, items[i].p, items[i].n);
}

/* DICT integer operand, always 5 bytes (29 + i32) so offsets can be patched. Returns the offset
 * of the i32. */
static size_t d_int(buf *b, int32_t v)
{
  b8(b, 29);
  size_t at = b->n;
  b32(b, (uint32_t)v);
  return at;
}

/* ---- sfnt wrapper: tables sorted by tag ---- */
typedef struct table {
  const char *tag;
  const uint8_t *p;
  size_t n;
} table;

static size_t make_sfnt(uint8_t *out, size_t cap, const table *t, unsigned count)
{
  buf *b = calloc(1, sizeof *b);
  b32(b, 0x4F54544Fu); /* 'OTTO' */
  b16(b, count);
  b16(b, 0), b16(b, 0), b16(b, 0);
  size_t off = 12 + 16 * (size_t)count;
  for (unsigned i = 0; i < count; i++) {
    bmem(b, t[i].tag, 4);
    b32(b, 0);
    b32(b, (uint32_t)off);
    b32(b, (uint32_t)t[i].n);
    off += (t[i].n + 3) & ~(size_t)3;
  }
  for (unsigned i = 0; i < count; i++) {
    bmem(b, t[i].p, t[i].n);
    while (b->n & 3) b8(b, 0);
  }
  size_t n = b->n;
  if (n > cap) abort();
  memcpy(out, b->d, n);
  free(b);
  return n;
}

static uint8_t head_tab[54], maxp_tab[6];
static void common_tables(unsigned glyphs)
{
  memset(head_tab, 0, sizeof head_tab);
  head_tab[0] = 0, head_tab[1] = 1; /* version 1.0 */
  head_tab[12] = 0x5F, head_tab[13] = 0x0F, head_tab[14] = 0x3C, head_tab[15] = 0xF5; /* magic */
  head_tab[18] = 1000 >> 8, head_tab[19] = 1000 & 0xFF;                  /* unitsPerEm */
  maxp_tab[0] = 0, maxp_tab[1] = 0, maxp_tab[2] = 0x50, maxp_tab[3] = 0; /* version 0.5 */
  maxp_tab[4] = (uint8_t)(glyphs >> 8), maxp_tab[5] = (uint8_t)glyphs;
}

/* fvar with two axes 'aaaa' and 'bbbb', each -1..0..1 (so user value = normalized value). */
static size_t make_fvar(uint8_t *out)
{
  buf b = {{0}, 0};
  b16(&b, 1), b16(&b, 0), b16(&b, 16), b16(&b, 2), b16(&b, 2), b16(&b, 20), b16(&b, 0), b16(&b, 12);
  const char *tags[2] = {"aaaa", "bbbb"};
  for (int i = 0; i < 2; i++) {
    bmem(&b, tags[i], 4);
    b32(&b, 0xFFFF0000u), b32(&b, 0), b32(&b, 0x00010000u);
    b16(&b, 0), b16(&b, 256);
  }
  memcpy(out, b.d, b.n);
  return b.n;
}

/* ---- the CFF2 fixture ---- */

/* ItemVariationStore, 2 axes, 3 regions, 2 ItemVariationData:
 *   R0: axis a tent (0, 1, 1), axis b (0,0,0)  -> scalar = a for a in (0, 1]
 *   R1: axis b tent (0, 1, 1)                  -> scalar = b
 *   R2: axis a tent (0, 0.5, 1)                -> 2a for a <= 0.5, 2 - 2a above
 *   data 0: regions [R0, R1]; data 1: regions [R2, R0, R1]. */
static void b_ivs(buf *b)
{
  size_t start = b->n;
  b16(b, 1); /* format */
  b32(b, 0); /* regionListOffset (patched) */
  b16(b, 2); /* itemVariationDataCount */
  size_t d0 = b->n;
  b32(b, 0), b32(b, 0);
  put32(b, start + 2, (uint32_t)(b->n - start));
  b16(b, 2), b16(b, 3); /* axisCount, regionCount */
  static const int16_t regs[3][2][3] = {
      {{0, 16384, 16384}, {0, 0, 0}},
      {{0, 0, 0}, {0, 16384, 16384}},
      {{0, 8192, 16384}, {0, 0, 0}},
  };
  for (int r = 0; r < 3; r++)
    for (int a = 0; a < 2; a++)
      for (int k = 0; k < 3; k++) b16(b, (uint16_t)regs[r][a][k]);
  put32(b, d0, (uint32_t)(b->n - start));
  b16(b, 0), b16(b, 0), b16(b, 2), b16(b, 0), b16(b, 1);
  put32(b, d0 + 4, (uint32_t)(b->n - start));
  b16(b, 0), b16(b, 0), b16(b, 3), b16(b, 2), b16(b, 0), b16(b, 1);
}

typedef struct cff2_fix {
  const blob *glyphs;
  size_t glyph_count;
  const blob *gsubrs;
  size_t gsubr_count;
  const blob *lsubrs;
  size_t lsubr_count;
  int priv_vsindex; /* -1: none */
  bool no_vstore;
} cff2_fix;

/* Offsets of the patchable fields (table offsets of their i32) for the bad-offset sweep. */
static size_t fld_charstrings, fld_fdarray, fld_vstore, fld_priv_size, fld_priv_off, fld_subrs;

static size_t make_cff2(const cff2_fix *fx, uint8_t *out)
{
  buf *b = calloc(1, sizeof *b);
  b8(b, 2), b8(b, 0), b8(b, 5), b16(b, 0); /* header; topDictLength patched */
  size_t top = b->n;
  fld_charstrings = d_int(b, 0), b8(b, 17);
  fld_fdarray = d_int(b, 0), b8(b, 12), b8(b, 36);
  if (!fx->no_vstore) fld_vstore = d_int(b, 0), b8(b, 24);
  size_t top_len = b->n - top;
  b->d[3] = (uint8_t)(top_len >> 8), b->d[4] = (uint8_t)top_len;
  b_index(b, fx->gsubrs, fx->gsubr_count, true);
  if (!fx->no_vstore) {
    put32(b, fld_vstore, (uint32_t)b->n);
    size_t len_at = b->n;
    b16(b, 0);
    b_ivs(b);
    size_t l = b->n - len_at - 2;
    b->d[len_at] = (uint8_t)(l >> 8), b->d[len_at + 1] = (uint8_t)l;
  }
  put32(b, fld_charstrings, (uint32_t)b->n);
  b_index(b, fx->glyphs, fx->glyph_count, true);
  put32(b, fld_fdarray, (uint32_t)b->n);
  /* FDArray: one Font DICT with Private (size, offset) */
  buf fd = {{0}, 0};
  size_t fd_size = d_int(&fd, 0), fd_off = d_int(&fd, 0);
  b8(&fd, 18);
  blob fdb = {fd.d, fd.n};
  size_t fda = b->n;
  b_index(b, &fdb, 1, true);
  size_t fd_data = fda + 4 + 1 + 4; /* count, offSize, 2 offsets */
  fld_priv_size = fd_data + fd_size;
  fld_priv_off = fd_data + fd_off;
  size_t priv = b->n;
  fld_subrs = d_int(b, 0), b8(b, 19);
  if (fx->priv_vsindex >= 0) b8(b, (unsigned)(fx->priv_vsindex + 139)), b8(b, 22);
  size_t priv_len = b->n - priv;
  put32(b, fld_priv_size, (uint32_t)priv_len);
  put32(b, fld_priv_off, (uint32_t)priv);
  put32(b, fld_subrs, (uint32_t)(b->n - priv));
  b_index(b, fx->lsubrs, fx->lsubr_count, true);
  size_t n = b->n;
  memcpy(out, b->d, n);
  free(b);
  return n;
}

static uint8_t font_buf[32768];
static size_t font_len;

static void build_cff2_font(const uint8_t *cff2, size_t cff2_len, unsigned glyphs)
{
  static uint8_t fvar[128];
  size_t fvar_len = make_fvar(fvar);
  common_tables(glyphs);
  table t[4] = {{"CFF2", cff2, cff2_len},
                {"fvar", fvar, fvar_len},
                {"head", head_tab, sizeof head_tab},
                {"maxp", maxp_tab, sizeof maxp_tab}};
  font_len = make_sfnt(font_buf, sizeof font_buf, t, 4);
}

/* A CFF (v1) font around the table: CFF, head and maxp. */
static void build_cff1_font(const uint8_t *cff, size_t cff_len, unsigned glyphs)
{
  common_tables(glyphs);
  table t[3] = {{"CFF ", cff, cff_len},
                {"head", head_tab, sizeof head_tab},
                {"maxp", maxp_tab, sizeof maxp_tab}};
  font_len = make_sfnt(font_buf, sizeof font_buf, t, 3);
}

/* Opens the font in font_buf and a location on it (both checked); prints the open error after
 * label when label is not NULL. NULL (and *loc NULL) when the face did not open. */
static otv_face *open_fixture(otv_location **loc, const char *label)
{
  otv_face *f = NULL;
  otv_error err = {0};
  *loc = NULL;
  CHECK_EQ(otv_face_open_memory(font_buf, font_len, 0, NULL, &f, &err), OTV_E_OK);
  if (!f) {
    if (label) {
      char b[200];
      otv_error_format(&err, b, sizeof b);
      fprintf(stderr, "%s: %s\n", label, b);
    }
    return NULL;
  }
  CHECK_EQ(otv_location_create(f, loc, NULL), OTV_E_OK);
  return f;
}

/* Opens the font file with opt (NULL: the defaults) and a location on it (both checked). NULL
 * (and *loc NULL) when the face did not open. */
static otv_face *open_font(const char *path, const otv_options *opt, otv_location **loc)
{
  otv_face *f = NULL;
  *loc = NULL;
  CHECK_EQ(otv_face_open_file(path, 0, opt, &f, NULL), OTV_E_OK);
  if (f) CHECK_EQ(otv_location_create(f, loc, NULL), OTV_E_OK);
  return f;
}

static void close_font(otv_face *f, otv_location *loc)
{
  otv_location_destroy(loc);
  otv_face_close(f);
}

/* ---- collecting outlines ---- */
typedef struct pts {
  otv_point p[256];
  uint8_t f[256];
  uint16_t ends[32];
  otv_glyph_points io;
} pts;

static otv_status get_points(otv_location *loc, uint32_t gid, pts *o)
{
  memset(o, 0, sizeof *o);
  o->io.points = o->p;
  o->io.point_flags = o->f;
  o->io.contour_ends = o->ends;
  o->io.point_cap = 256;
  o->io.contour_cap = 32;
  return otv_glyph_points_get(loc, gid, 0, &o->io);
}

/* expected: triples x, y, flag ('o' on-curve, 'c' cubic control) */
typedef struct ept {
  float x, y;
  char k;
} ept;

static void check_points(const pts *o, const ept *want, unsigned n, const unsigned *ends,
                         unsigned ncont, int line)
{
  h_checks++;
  bool ok = o->io.point_count == n && o->io.contour_count == ncont;
  for (unsigned i = 0; ok && i < n; i++) {
    uint8_t fl = want[i].k == 'o' ? OTV_POINT_ON_CURVE : OTV_POINT_CUBIC;
    if (fabsf(o->p[i].x - want[i].x) > 1e-3f || fabsf(o->p[i].y - want[i].y) > 1e-3f ||
        o->f[i] != fl)
      ok = false;
  }
  for (unsigned i = 0; ok && i < ncont; i++)
    if (o->ends[i] != ends[i]) ok = false;
  if (!ok) {
    h_failures++;
    fprintf(stderr, "line %d: points differ: got %u points %u contours:", line, o->io.point_count,
            o->io.contour_count);
    for (unsigned i = 0; i < o->io.point_count && i < 256; i++)
      fprintf(stderr, " (%g,%g,%c)", o->p[i].x, o->p[i].y, o->f[i] & 1 ? 'o' : 'c');
    fprintf(stderr, " ends:");
    for (unsigned i = 0; i < o->io.contour_count && i < 32; i++) fprintf(stderr, " %u", o->ends[i]);
    fprintf(stderr, "\n");
  }
}
#define CHECK_POINTS(o, want, ends)                                                                \
  check_points((o), (want), sizeof(want) / sizeof((want)[0]), (ends),                              \
               sizeof(ends) / sizeof((ends)[0]), __LINE__)
/* Glyph gid draws without error and its points are want, its contour ends ends. */
#define CHECK_GLYPH(loc, gid, want, ends)                                                          \
  do {                                                                                             \
    pts g_o;                                                                                       \
    CHECK_EQ(get_points((loc), (gid), &g_o), OTV_E_OK);                                            \
    CHECK_POINTS(&g_o, want, ends);                                                                \
  } while (0)

/* Pen recording into a string, for the pen-form checks. */
typedef struct rec {
  char s[4096];
  size_t n;
} rec;
static void r_app(rec *r, const char *fmt, double a, double b)
{
  if (r->n + 64 > sizeof r->s) return; /* long outlines (sweeps) are cut */
  r->n += (size_t)snprintf(r->s + r->n, sizeof r->s - r->n, fmt, a, b);
}
static void r_move(void *c, float x, float y) { r_app(c, "M%g,%g ", x, y); }
static void r_line(void *c, float x, float y) { r_app(c, "L%g,%g ", x, y); }
static void r_cubic(void *c, float a, float b, float cc, float d, float e, float f)
{
  r_app(c, "C%g,%g ", a, b);
  r_app(c, "%g,%g ", cc, d);
  r_app(c, "%g,%g ", e, f);
}
static void r_close(void *c) { r_app(c, "Z ", 0, 0); }
static const otv_pen r_pen = {r_move, r_line, NULL, r_cubic, r_close};
/* Glyph gid drawn with flags through r_pen succeeds and records want. */
#define CHECK_PEN(loc, gid, flags, want)                                                           \
  do {                                                                                             \
    rec p_r = {{0}, 0};                                                                            \
    CHECK_EQ(otv_glyph_outline((loc), (gid), (flags), &r_pen, &p_r), OTV_E_OK);                    \
    CHECK_STR(p_r.s, want);                                                                        \
  } while (0)

/* ---- charstring byte helpers: small ints are 1 byte (v + 139), -107..107 ---- */
#define N(v) (uint8_t)((v) + 139)
/* operators */
enum {
  HSTEM = 1,
  VSTEM = 3,
  VMOVETO = 4,
  RLINETO = 5,
  HLINETO = 6,
  VLINETO = 7,
  RRCURVETO = 8,
  CALLSUBR = 10,
  RETURN = 11,
  ENDCHAR = 14,
  VSINDEX = 15,
  BLEND = 16,
  HSTEMHM = 18,
  HINTMASK = 19,
  CNTRMASK = 20,
  RMOVETO = 21,
  HMOVETO = 22,
  VSTEMHM = 23,
  RCURVELINE = 24,
  RLINECURVE = 25,
  VVCURVETO = 26,
  HHCURVETO = 27,
  CALLGSUBR = 29,
  VHCURVETO = 30,
  HVCURVETO = 31,
  ESC = 12
};

/* glyph 0: lines. Start (10,20); rlineto +30,+40 -> (40,60); hlineto 5 6 7 -> (45,60) (45,66)
 * (52,66); vlineto 1 2 -> (52,67) (54,67). Open contour: closed by the end of the charstring. */
static const blob g_lines = BLOB(N(10), N(20), RMOVETO, N(30), N(40), RLINETO, N(5), N(6), N(7),
                                 HLINETO, N(1), N(2), VLINETO);
static const ept e_lines[] = {{10, 20, 'o'}, {40, 60, 'o'}, {45, 60, 'o'}, {45, 66, 'o'},
                              {52, 66, 'o'}, {52, 67, 'o'}, {54, 67, 'o'}};
static const unsigned c_lines[] = {6};

/* glyph 1: curves, from (0,0):
 *   rrcurveto 1 2 3 4 5 6        c(1,2) c(4,6) (9,12)
 *   hvcurveto 10 20 30 40        c(19,12) c(39,42) (39,82)
 *   vhcurveto 1 2 3 4 5          c(39,83) c(41,86) (45,91)   (5th operand: final dy... dx)
 *   hhcurveto 2 3 4 5 6 (dy1=2)  c(48,93) c(52,98) (58,98)
 *   vvcurveto 7 8 9 10 11 (dx1)  c(65,106) c(74,116) (74,127)
 *   rcurveline 1 1 2 2 3 3 4 4   c(75,128) c(77,130) (80,133) line (84,137)
 *   rlinecurve 1 0 0 1 2 2 3 3 4 4  lines (85,137) (85,138) c(87,140) c(90,143) (94,147) */
static const blob g_curves = BLOB(
    N(0), N(0), RMOVETO, N(1), N(2), N(3), N(4), N(5), N(6), RRCURVETO, N(10), N(20), N(30), N(40),
    HVCURVETO, N(1), N(2), N(3), N(4), N(5), VHCURVETO, N(2), N(3), N(4), N(5), N(6), HHCURVETO,
    N(7), N(8), N(9), N(10), N(11), VVCURVETO, N(1), N(1), N(2), N(2), N(3), N(3), N(4), N(4),
    RCURVELINE, N(1), N(0), N(0), N(1), N(2), N(2), N(3), N(3), N(4), N(4), RLINECURVE);
static const ept e_curves[] = {
    {0, 0, 'o'},    {1, 2, 'c'},    {4, 6, 'c'},    {9, 12, 'o'},   {19, 12, 'c'},
    {39, 42, 'c'},  {39, 82, 'o'},  {39, 83, 'c'},  {41, 86, 'c'},  {45, 91, 'o'},
    {48, 93, 'c'},  {52, 98, 'c'},  {58, 98, 'o'},  {65, 106, 'c'}, {74, 116, 'c'},
    {74, 127, 'o'}, {75, 128, 'c'}, {77, 130, 'c'}, {80, 133, 'o'}, {84, 137, 'o'},
    {85, 137, 'o'}, {85, 138, 'o'}, {87, 140, 'c'}, {90, 143, 'c'}, {94, 147, 'o'}};
static const unsigned c_curves[] = {24};

/* glyph 2: flex family, from (0,0):
 *   flex 10 0 10 5 10 5 10 -5 10 -5 10 0 fd=50:  c(10,0) c(20,5) (30,10) c(40,5) c(50,0) (60,0)
 *   hflex 10 10 5 10 10 10 10:   c(70,0) c(80,5) (90,5) c(100,5) c(110,0) (120,0)
 *   hflex1 10 2 10 3 10 10 10 -3 10:  c(130,2) c(140,5) (150,5) c(160,5) c(170,2) (180,0)
 *   flex1 10 1 (x5) 10: |dx|=50 > |dy|=5 -> last (240,0):
 *         c(190,1) c(200,2) (210,3) c(220,4) c(230,5) (240,0)
 *   flex1 1 10 (x5) 7: |dx|=5 < |dy|=50 -> last (x0, y5+7) = (240,57):
 *         c(241,10) c(242,20) (243,30) c(244,40) c(245,50) (240,57) */
static const blob g_flex =
    BLOB(N(0), N(0), RMOVETO, N(10), N(0), N(10), N(5), N(10), N(5), N(10), N(-5), N(10), N(-5),
         N(10), N(0), N(50), ESC, 35, N(10), N(10), N(5), N(10), N(10), N(10), N(10), ESC, 34,
         N(10), N(2), N(10), N(3), N(10), N(10), N(10), N(-3), N(10), ESC, 36, N(10), N(1), N(10),
         N(1), N(10), N(1), N(10), N(1), N(10), N(1), N(10), ESC, 37, N(1), N(10), N(1), N(10),
         N(1), N(10), N(1), N(10), N(1), N(10), N(7), ESC, 37);
static const ept e_flex[] = {
    {0, 0, 'o'},   {10, 0, 'c'},   {20, 5, 'c'},   {30, 10, 'o'},  {40, 5, 'c'},   {50, 0, 'c'},
    {60, 0, 'o'},  {70, 0, 'c'},   {80, 5, 'c'},   {90, 5, 'o'},   {100, 5, 'c'},  {110, 0, 'c'},
    {120, 0, 'o'}, {130, 2, 'c'},  {140, 5, 'c'},  {150, 5, 'o'},  {160, 5, 'c'},  {170, 2, 'c'},
    {180, 0, 'o'}, {190, 1, 'c'},  {200, 2, 'c'},  {210, 3, 'o'},  {220, 4, 'c'},  {230, 5, 'c'},
    {240, 0, 'o'}, {241, 10, 'c'}, {242, 20, 'c'}, {243, 30, 'o'}, {244, 40, 'c'}, {245, 50, 'c'},
    {240, 57, 'o'}};
static const unsigned c_flex[] = {30};

/* glyph 3: hints. hstemhm with 8 operands (4 stems), vstemhm with 6 (3 stems), then hintmask
 * with 4 operands (2 implicit vstems): 9 stems -> 2 mask bytes. The mask bytes 0x05 0x15 would
 * be rlineto/rmoveto if miscounted. Then cntrmask (no operands, still 2 bytes), two contours with
 * a moveto between (closing the first), and 28-form and 255-form (16.16) operands:
 *   rmoveto (28: 300, 255: 0.5)  -> (300, 0.5); rlineto 10 0 -> (310, 0.5); the charstring's
 *   lineto back to the start (rlineto -10 0) makes the last point equal the first: dropped.
 *   hmoveto 100 -> (400, 0.5): new contour; vlineto 20 -> (400, 20.5). */
static const blob g_hints =
    BLOB(N(1), N(2), N(3), N(4), N(5), N(6), N(7), N(8), HSTEMHM, N(1), N(2), N(3), N(4), N(5),
         N(6), VSTEMHM, N(1), N(2), N(3), N(4), HINTMASK, 0x05, 0x15, CNTRMASK, 0xFF, 0x80, 28,
         0x01, 0x2C, 255, 0x00, 0x00, 0x80, 0x00, RMOVETO, N(10), N(0), RLINETO, N(-10), N(0),
         RLINETO, HINTMASK, 0x00, 0x15, N(100), HMOVETO, N(20), VLINETO);
static const ept e_hints[] = {
    {300, 0.5f, 'o'}, {310, 0.5f, 'o'}, {400, 0.5f, 'o'}, {400, 20.5f, 'o'}};
static const unsigned c_hints[] = {1, 3};

/* glyph 4: subroutines. Local subr 0 = "10 10 rlineto"; global subr 0 = "20 0 rlineto" then calls
 * local subr 0 (-107 + bias 107 = 0). 0 0 rmoveto; callgsubr -107 -> (20,0) then (30,10);
 * callsubr -107 -> (40,20). Operands before a call stay on the stack: "5" callsubr(-106 -> local
 * 1 = "5 rlineto" needs 2 operands: 5 pushed before the call + 5 in the subr -> (45,25). */
static const blob g_subrs =
    BLOB(N(0), N(0), RMOVETO, N(-107), CALLGSUBR, N(-107), CALLSUBR, N(5), N(-106), CALLSUBR);
static const blob lsubrs[] = {BLOB(N(10), N(10), RLINETO), BLOB(N(5), RLINETO)};
static const ept e_subrs[] = {
    {0, 0, 'o'}, {20, 0, 'o'}, {30, 10, 'o'}, {40, 20, 'o'}, {45, 25, 'o'}};
static const unsigned c_subrs[] = {4};

/* glyph 5: blend with the Private DICT vsindex (0: regions R0, R1; k = 2):
 *   100 200 | 10 20 | 40 -8 | 2 blend rmoveto
 *     x = 100 + 10 s0 + 20 s1, y = 200 + 40 s0 - 8 s1
 *   then 50 | 6 4 | 1 blend hlineto: dx = 50 + 6 s0 + 4 s1 */
static const blob g_blend0 = BLOB(N(100), 28, 0, 200, N(10), N(20), N(40), N(-8), N(2), BLEND,
                                  RMOVETO, N(50), N(6), N(4), N(1), BLEND, HLINETO);
/* glyph 6: vsindex 1 (regions R2, R0, R1; k = 3):
 *   1 vsindex; 50 | 6 4 -2 | 1 blend hmoveto: x = 50 + 6 s2 + 4 s0 - 2 s1
 *   0 | 0 0 0 | 10 | 1 2 3 | 2 blend rlineto: dx = 0, dy = 10 + s2 + 2 s0 + 3 s1 */
static const blob g_blend1 =
    BLOB(N(1), VSINDEX, N(50), N(6), N(4), N(-2), N(1), BLEND, HMOVETO, N(0), N(10), N(0), N(0),
         N(0), N(1), N(2), N(3), N(2), BLEND, RLINETO);

/* hostile glyphs (7..) */
static const blob g_underflow = BLOB(N(0), N(0), RMOVETO, N(5), RLINETO);
static const blob g_recurse =
    BLOB(N(0), N(0), RMOVETO, N(-106), CALLGSUBR);     /* gsubr 1 calls itself */
static const blob g_fanout = BLOB(N(-105), CALLGSUBR); /* gsubr 2 -> 3 -> 4 */
static const blob g_trunc = BLOB(N(0), N(0), RMOVETO, 28, 0x01);
static const blob g_endchar = BLOB(N(0), N(0), RMOVETO, ENDCHAR);
static const blob g_badblend = BLOB(N(1), N(2), N(3), BLEND); /* 3 values need 9 operands */
static const blob g_badvsindex = BLOB(N(2), VSINDEX);         /* only data 0 and 1 */
static const blob g_badsubr = BLOB(N(50), CALLSUBR);          /* local subr 157 */
static const blob g_reserved = BLOB(N(0), N(0), 2);           /* operator 2 is reserved */
static const blob g_hintmask_trunc = BLOB(N(1), N(2), HSTEM, HINTMASK); /* mask byte missing */
static const blob g_nomove = BLOB(N(3), N(4), RLINETO); /* no moveto: starts at (0,0) */
static uint8_t g_overflow_bytes[520];
static uint8_t gsubr_fan[3][600];
static const blob gs_0 = BLOB(N(20), N(0), RLINETO, N(-107), CALLSUBR);
static const blob gs_1 = BLOB(N(-106), CALLGSUBR);
static const blob g_trivial = BLOB(N(0), N(0), RMOVETO);
static bool with_fanout = true; /* the fan-out glyph costs the whole budget: not in the sweeps */

static blob glyphs[20];
static blob gsubrs[5];
static size_t nglyphs, ngsubrs;

static void setup_glyphs(void)
{
  nglyphs = 0;
  glyphs[nglyphs++] = g_lines;                              /* 0 */
  glyphs[nglyphs++] = g_curves;                             /* 1 */
  glyphs[nglyphs++] = g_flex;                               /* 2 */
  glyphs[nglyphs++] = g_hints;                              /* 3 */
  glyphs[nglyphs++] = g_subrs;                              /* 4 */
  glyphs[nglyphs++] = g_blend0;                             /* 5 */
  glyphs[nglyphs++] = g_blend1;                             /* 6 */
  glyphs[nglyphs++] = g_underflow;                          /* 7 */
  glyphs[nglyphs++] = g_recurse;                            /* 8 */
  glyphs[nglyphs++] = with_fanout ? g_fanout : g_trivial;   /* 9 */
  glyphs[nglyphs++] = g_trunc;                              /* 10 */
  glyphs[nglyphs++] = g_endchar;                            /* 11 */
  glyphs[nglyphs++] = g_badblend;                           /* 12 */
  glyphs[nglyphs++] = g_badvsindex;                         /* 13 */
  glyphs[nglyphs++] = g_badsubr;                            /* 14 */
  glyphs[nglyphs++] = g_reserved;                           /* 15 */
  for (int i = 0; i < 514; i++) g_overflow_bytes[i] = N(1); /* 514 operands > 513 */
  glyphs[nglyphs++] = (blob){g_overflow_bytes, 514};        /* 16 */
  glyphs[nglyphs++] = g_hintmask_trunc;                     /* 17 */
  glyphs[nglyphs++] = g_nomove;                             /* 18 */
  ngsubrs = 0;
  gsubrs[ngsubrs++] = gs_0; /* 0 */
  gsubrs[ngsubrs++] = gs_1; /* 1: calls itself */
  /* 2 calls 3 (300 times), 3 calls 4 (300 times), 4 has 200 hstems: 18M operators, which the
   * per-glyph budget stops (depth stays at 3). */
  for (int i = 0; i < 300; i++) {
    gsubr_fan[0][2 * i] = N(-104), gsubr_fan[0][2 * i + 1] = CALLGSUBR;
    gsubr_fan[1][2 * i] = N(-103), gsubr_fan[1][2 * i + 1] = CALLGSUBR;
  }
  for (int i = 0; i < 200; i++)
    gsubr_fan[2][3 * i] = N(1), gsubr_fan[2][3 * i + 1] = N(2), gsubr_fan[2][3 * i + 2] = HSTEM;
  gsubrs[ngsubrs++] = (blob){gsubr_fan[0], 600};
  gsubrs[ngsubrs++] = (blob){gsubr_fan[1], 600};
  gsubrs[ngsubrs++] = (blob){gsubr_fan[2], 600};
}

static uint8_t cff2_tab[16384];
static size_t cff2_len;

static void build_default_cff2(void)
{
  setup_glyphs();
  cff2_fix fx = {glyphs, nglyphs, gsubrs, ngsubrs, lsubrs, 2, 0, false};
  cff2_len = make_cff2(&fx, cff2_tab);
  build_cff2_font(cff2_tab, cff2_len, (unsigned)nglyphs);
}

static void expect_error(otv_location *loc, uint32_t gid, otv_status code, uint32_t tag,
                         size_t tab_len, int line)
{
  /* last_error keeps the first error since the last setter: set the same coordinates again */
  otv_f2dot14 c[8] = {0};
  unsigned na = otv_location_normalized(loc, c, 8);
  otv_location_set_normalized(loc, c, na < 8 ? na : 8);
  pts o;
  otv_status s = get_points(loc, gid, &o);
  const otv_error *e = otv_location_last_error(loc);
  h_checks++;
  if (s != code || e->table != tag || e->offset >= tab_len) {
    h_failures++;
    char b[200];
    otv_error_format(e, b, sizeof b);
    fprintf(stderr, "line %d: glyph %u: status %d (want %d): %s\n", line, gid, s, code, b);
  }
  /* the pen form gives the same error */
  rec r = {{0}, 0};
  CHECK_EQ(otv_glyph_outline(loc, gid, 0, &r_pen, &r), code);
}

static void test_cff2_fixture(void)
{
  build_default_cff2();
  otv_location *loc;
  otv_face *f = open_fixture(&loc, "open");
  if (!f) return;
  otv_face_info info;
  otv_face_get_info(f, &info);
  CHECK_EQ(info.flavour, OTV_FLAVOUR_CFF2);
  CHECK_GLYPH(loc, 0, e_lines, c_lines);
  CHECK_GLYPH(loc, 1, e_curves, c_curves);
  CHECK_GLYPH(loc, 2, e_flex, c_flex);
  CHECK_GLYPH(loc, 3, e_hints, c_hints);
  CHECK_GLYPH(loc, 4, e_subrs, c_subrs);
  /* again: the subroutines decoded by the first draw now replay from the location's cache
   * (operands pushed before a call still reach the callee) */
  CHECK_GLYPH(loc, 4, e_subrs, c_subrs);

  /* pen form of glyph 0 (explicit closing line) and glyph 3 (no closing line: last == first) */
  CHECK_PEN(loc, 0, 0, "M10,20 L40,60 L45,60 L45,66 L52,66 L52,67 L54,67 L10,20 Z ");
  CHECK_PEN(loc, 3, 0, "M300,0.5 L310,0.5 L300,0.5 Z M400,0.5 L400,20.5 L400,0.5 Z ");
  /* ROUND rounds blend results only: unblended 16.16 operands stay as they are */
  CHECK_PEN(loc, 3, OTV_OUTLINE_ROUND,
            "M300,0.5 L310,0.5 L300,0.5 Z M400,0.5 L400,20.5 L400,0.5 Z ");
  CHECK_PEN(loc, 18, 0, "M0,0 L3,4 L0,0 Z ");

  /* blend at the default: deltas dropped */
  {
    static const ept want5[] = {{100, 200, 'o'}, {150, 200, 'o'}};
    static const ept want6[] = {{50, 0, 'o'}, {50, 10, 'o'}};
    static const unsigned ends[] = {1};
    CHECK_GLYPH(loc, 5, want5, ends);
    CHECK_GLYPH(loc, 6, want6, ends);
  }
  /* a = 0.75, b = 0.25: s0 = 0.75, s1 = 0.25, s2 = 2 - 1.5 = 0.5
   * glyph 5: x = 100 + 7.5 + 5 = 112.5, y = 200 + 30 - 2 = 228; dx = 50 + 4.5 + 1 = 55.5
   * glyph 6: x = 50 + 3 + 3 - 0.5 = 55.5; dy = 10 + 0.5 + 1.5 + 0.75 = 12.75 */
  {
    otv_f2dot14 c[2] = {12288, 4096};
    CHECK_EQ(otv_location_set_normalized(loc, c, 2), OTV_E_OK);
    static const ept want5[] = {{112.5f, 228, 'o'}, {168, 228, 'o'}};
    static const ept want6[] = {{55.5f, 0, 'o'}, {55.5f, 12.75f, 'o'}};
    static const unsigned ends[] = {1};
    CHECK_GLYPH(loc, 5, want5, ends);
    CHECK_GLYPH(loc, 6, want6, ends);
    /* OTV_OUTLINE_ROUND rounds each blend result: x = round(112.5) = 113, dx = round(55.5) = 56
     * -> 169 (rounding the absolute 168 would give 168) */
    CHECK_PEN(loc, 5, OTV_OUTLINE_ROUND, "M113,228 L169,228 L113,228 Z ");
    /* non-blend glyphs do not move */
    CHECK_GLYPH(loc, 2, e_flex, c_flex);
  }
  /* a = 0.25, b = 1: s0 = 0.25, s1 = 1, s2 = 0.5
   * glyph 5: x = 100 + 2.5 + 20 = 122.5, y = 200 + 10 - 8 = 202; dx = 50 + 1.5 + 4 = 55.5
   * glyph 6: x = 50 + 3 + 1 - 2 = 52; dy = 10 + 0.5 + 0.5 + 3 = 14 */
  {
    otv_f2dot14 c[2] = {4096, 16384};
    CHECK_EQ(otv_location_set_normalized(loc, c, 2), OTV_E_OK);
    static const ept want5[] = {{122.5f, 202, 'o'}, {178, 202, 'o'}};
    static const ept want6[] = {{52, 0, 'o'}, {52, 14, 'o'}};
    static const unsigned ends[] = {1};
    CHECK_GLYPH(loc, 5, want5, ends);
    CHECK_GLYPH(loc, 6, want6, ends);
  }
  /* a = -0.5, b = -1: every region is 0 (peaks are positive) -> the defaults */
  {
    otv_f2dot14 c[2] = {-8192, -16384};
    CHECK_EQ(otv_location_set_normalized(loc, c, 2), OTV_E_OK);
    static const ept want5[] = {{100, 200, 'o'}, {150, 200, 'o'}};
    static const unsigned ends[] = {1};
    CHECK_GLYPH(loc, 5, want5, ends);
  }

  /* too-small buffers: SMALL_BUFFER with the needed sizes */
  {
    otv_point p[3];
    uint16_t e1[1];
    otv_glyph_points io = {p, NULL, e1, 3, 1, 0, 0, 0};
    CHECK_EQ(otv_glyph_points_get(loc, 0, 0, &io), OTV_E_SMALL_BUFFER);
    CHECK_EQ(io.point_count, 7);
    CHECK_EQ(io.contour_count, 1);
    otv_glyph_points q = {NULL, NULL, NULL, 0, 0, 0, 0, 0};
    otv_location_clear_error(loc);
    CHECK_EQ(otv_glyph_points_get(loc, 1, 0, &q), OTV_E_SMALL_BUFFER);
    CHECK_EQ(q.point_count, 25);
    /* a size query, not a failure: the location records no error (as for glyf) */
    CHECK_EQ(otv_location_last_error(loc)->code, OTV_E_OK);
  }

  /* hostile charstrings: errors naming CFF2 and an offset inside it */
  uint32_t T = OTV_TAG('C', 'F', 'F', '2');
  expect_error(loc, 7, OTV_E_BAD_VALUE, T, cff2_len, __LINE__);
  expect_error(loc, 8, OTV_E_LIMIT, T, cff2_len, __LINE__);
  expect_error(loc, 9, OTV_E_LIMIT, T, cff2_len, __LINE__);
  expect_error(loc, 10, OTV_E_TRUNCATED, T, cff2_len, __LINE__);
  expect_error(loc, 11, OTV_E_BAD_VALUE, T, cff2_len, __LINE__);
  expect_error(loc, 12, OTV_E_BAD_VALUE, T, cff2_len, __LINE__);
  expect_error(loc, 13, OTV_E_BAD_VALUE, T, cff2_len, __LINE__);
  expect_error(loc, 14, OTV_E_BAD_VALUE, T, cff2_len, __LINE__);
  expect_error(loc, 15, OTV_E_BAD_VALUE, T, cff2_len, __LINE__);
  expect_error(loc, 16, OTV_E_LIMIT, T, cff2_len, __LINE__);
  expect_error(loc, 17, OTV_E_TRUNCATED, T, cff2_len, __LINE__);

  close_font(f, loc);
}

/* Private DICT vsindex 1: glyph 5's blend then uses k = 3 regions (R2, R0, R1), so its
 * 2-value blend needs 2 * 4 + 1 = 9 operands but has 7: an error; glyph 6 sets vsindex 1 itself
 * and is unchanged. A glyph written for vsindex 1 without the operator works. */
static void test_private_vsindex(void)
{
  setup_glyphs();
  /* 50 | 6 4 -2 | 1 blend hmoveto 0 10 rlineto with the Private DICT's vsindex 1:
   * a = 0.75, b = 0.25 -> x = 50 + 3 + 3 - 0.5 = 55.5 */
  blob gl[3] = {g_blend0, g_blend1,
                BLOB(N(50), N(6), N(4), N(-2), N(1), BLEND, HMOVETO, N(0), N(10), RLINETO)};
  cff2_fix fx = {gl, 3, gsubrs, ngsubrs, lsubrs, 2, 1, false};
  cff2_len = make_cff2(&fx, cff2_tab);
  build_cff2_font(cff2_tab, cff2_len, 3);
  otv_location *loc;
  otv_face *f = open_fixture(&loc, NULL);
  if (!f) return;
  otv_f2dot14 c[2] = {12288, 4096};
  CHECK_EQ(otv_location_set_normalized(loc, c, 2), OTV_E_OK);
  expect_error(loc, 0, OTV_E_BAD_VALUE, OTV_TAG('C', 'F', 'F', '2'), cff2_len, __LINE__);
  static const ept want6[] = {{55.5f, 0, 'o'}, {55.5f, 12.75f, 'o'}};
  static const ept want2[] = {{55.5f, 0, 'o'}, {55.5f, 10, 'o'}};
  static const unsigned ends[] = {1};
  CHECK_GLYPH(loc, 1, want6, ends);
  CHECK_GLYPH(loc, 2, want2, ends);
  close_font(f, loc);
}

/* Open, then draw every glyph at a location: must not crash; errors must name CFF2. */
static void open_and_draw(const uint8_t *font, size_t len, const otv_options *opt,
                          otv_status *open_status, otv_error *err)
{
  otv_face *f = NULL;
  *open_status = otv_face_open_memory(font, len, 0, opt, &f, err);
  if (*open_status) return;
  otv_location *loc = NULL;
  if (otv_location_create(f, &loc, NULL) == OTV_E_OK) {
    otv_f2dot14 c[2] = {12288, 4096};
    otv_location_set_normalized(loc, c, 2);
    otv_face_info info;
    otv_face_get_info(f, &info);
    for (uint32_t g = 0; g < info.glyph_count; g++) {
      rec r = {{0}, 0};
      otv_glyph_outline(loc, g, 0, &r_pen, &r);
      pts o;
      get_points(loc, g, &o);
    }
    otv_location_destroy(loc);
  }
  otv_face_close(f);
}

/* Truncation sweep: the font that build makes around every prefix of the table fails to open
 * or to draw, with an error naming tag. Failures are reported as "<label>truncated to N". */
static void truncation_sweep(void (*build)(const uint8_t *tab, size_t len, unsigned glyph_count),
                             const uint8_t *tab, size_t len, unsigned glyph_count, uint32_t tag,
                             const char *label)
{
  long bad = 0;
  for (size_t n = 0; n < len; n++) {
    build(tab, n, glyph_count);
    otv_error e = {0};
    otv_status s;
    open_and_draw(font_buf, font_len, NULL, &s, &e);
    if (s == OTV_E_OK || e.table != tag) {
      if (bad++ < 5)
        fprintf(stderr, "%struncated to %zu: status %d table %08x\n", label, n, s, e.table);
    }
  }
  CHECK_EQ(bad, 0);
}

static void test_sweeps(void)
{
  with_fanout = false;
  build_default_cff2();
  with_fanout = true;
  uint32_t T = OTV_TAG('C', 'F', 'F', '2');
  /* truncation sweep: every prefix of the CFF2 table fails to open, naming CFF2 */
  static uint8_t tab[16384];
  memcpy(tab, cff2_tab, cff2_len);
  size_t full = cff2_len;
  truncation_sweep(build_cff2_font, tab, full, (unsigned)nglyphs, T, "");
  /* bad-offset sweep over every offset field */
  size_t fields[6] = {fld_charstrings, fld_fdarray,  fld_vstore,
                      fld_priv_size,   fld_priv_off, fld_subrs};
  uint32_t vals[] = {0,      1,          (uint32_t)full - 1, (uint32_t)full, (uint32_t)full + 1,
                     0xFFFF, 0x7FFFFFFF, 0xFFFFFFFF,         0x80000000u};
  for (int fi = 0; fi < 6; fi++) {
    for (size_t vi = 0; vi < sizeof vals / sizeof vals[0]; vi++) {
      memcpy(tab, cff2_tab, full);
      buf b;
      memcpy(b.d, tab, full);
      b.n = full;
      put32(&b, fields[fi], vals[vi]);
      build_cff2_font(b.d, full, (unsigned)nglyphs);
      otv_error e = {0};
      otv_status s;
      open_and_draw(font_buf, font_len, NULL, &s, &e);
      h_checks++;
      if (s != OTV_E_OK && e.table != T) {
        h_failures++;
        fprintf(stderr, "field %d = %u: status %d names table %08x\n", fi, vals[vi], s, e.table);
      }
    }
  }
  /* random byte corruption of the whole table (fixed seed): no crash, errors name CFF2 */
  uint32_t seed = 0xC0FFEEu;
  for (int it = 0; it < 3000; it++) {
    memcpy(tab, cff2_tab, full);
    for (int k = 0; k < 3; k++) {
      seed = seed * 1103515245u + 12345u;
      size_t at = (seed >> 8) % full;
      seed = seed * 1103515245u + 12345u;
      tab[at] = (uint8_t)(seed >> 16);
    }
    build_cff2_font(tab, full, (unsigned)nglyphs);
    otv_error e = {0};
    otv_status s;
    open_and_draw(font_buf, font_len, NULL, &s, &e);
    if (s != OTV_E_OK) CHECK_EQ(e.table, T);
  }
}

/* Glyph 5 at a = 0.75, b = 0.25 (its points checked when it draws), for the allocation-failure
 * loop: OK or OTV_E_NOMEM; true when it drew. */
static bool blend_glyph(otv_location *loc, void *ctx)
{
  (void)ctx;
  otv_f2dot14 c[2] = {12288, 4096};
  otv_status s = otv_location_set_normalized(loc, c, 2);
  pts o;
  if (s == OTV_E_OK) s = get_points(loc, 5, &o);
  if (s == OTV_E_OK) {
    static const ept want5[] = {{112.5f, 228, 'o'}, {168, 228, 'o'}};
    static const unsigned ends[] = {1};
    CHECK_POINTS(&o, want5, ends);
  }
  CHECK(s == OTV_E_OK || s == OTV_E_NOMEM);
  return s == OTV_E_OK;
}

static void test_alloc_failures(void)
{
  build_default_cff2();
  bool done = false;
  for (long n = 1; n < 200 && !done; n++)
    done = h_nomem_run(font_buf, font_len, n, blend_glyph, NULL);
}

/* ---- CFF (v1) fixture: name-keyed, charset format 0, widths, endchar, return, seac ---- */

/* glyph 1 "A" (SID 34): width 500 then 10 20 rmoveto 100 0 rlineto 0 100 rlineto endchar
 *   -> (10,20) (110,20) (110,120)
 * glyph 2 "B" (SID 35): width 400 with hstem (3 operands: odd -> width), 5 5 rmoveto 10 hlineto
 *   -> (5,5) (15,5)
 * glyph 3 "C" (SID 36): seac 250 300 65('A') 66('B') endchar
 *   -> A's points, then B's moved by (250,300): (255,305) (265,305)
 * glyph 4 "D" (SID 37): 0 0 rmoveto -107 callsubr (local 0: 0 100 rlineto return)
 *   100 0 rlineto endchar -> (0,0) (0,100) (100,100); then an unreachable 5 5 rlineto
 * glyph 5 "E": hmoveto with width: 300 7 hmoveto 3 vlineto endchar -> (7,0) (7,3)
 * glyph 6: vsindex is not a CFF operator -> error */
static const blob c1_glyphs[] = {
    BLOB(ENDCHAR),
    BLOB(28, 0x01, 0xF4, N(10), N(20), RMOVETO, N(100), N(0), RLINETO, N(0), N(100), RLINETO,
         ENDCHAR),
    BLOB(28, 0x01, 0x90, N(0), N(50), HSTEM, N(5), N(5), RMOVETO, N(10), HLINETO, ENDCHAR),
    BLOB(28, 0x00, 0xFA, 28, 0x01, 0x2C, N(65), N(66), ENDCHAR),
    BLOB(N(0), N(0), RMOVETO, N(-107), CALLSUBR, N(100), N(0), RLINETO, ENDCHAR, N(5), N(5),
         RLINETO),
    BLOB(28, 0x01, 0x2C, N(7), HMOVETO, N(3), VLINETO, ENDCHAR),
    BLOB(N(0), VSINDEX),
};
static const blob c1_subrs[] = {BLOB(N(0), N(100), RLINETO, RETURN)};

static size_t make_cff1_with(uint8_t *out, const blob *gl, unsigned ng, const blob *sr,
                             unsigned nsubrs);
static size_t make_cff1(uint8_t *out)
{
  return make_cff1_with(out, c1_glyphs, sizeof c1_glyphs / sizeof c1_glyphs[0], c1_subrs, 1);
}

/* Name-keyed CFF with the given charstrings (charset format 0: SIDs 34.. for glyphs 1..) and
 * local Subrs. */
static size_t make_cff1_with(uint8_t *out, const blob *gl, unsigned ng, const blob *sr,
                             unsigned nsubrs)
{
  buf *b = calloc(1, sizeof *b);
  b8(b, 1), b8(b, 0), b8(b, 4), b8(b, 4); /* header */
  blob name = {(const uint8_t *)"Test", 4};
  b_index(b, &name, 1, false);
  buf top = {{0}, 0};
  size_t t_charset = d_int(&top, 0);
  b8(&top, 15);
  size_t t_cs = d_int(&top, 0);
  b8(&top, 17);
  size_t t_psize = d_int(&top, 0), t_poff = d_int(&top, 0);
  b8(&top, 18);
  blob topb = {top.d, top.n};
  size_t top_index = b->n;
  b_index(b, &topb, 1, false);
  size_t top_data = top_index + 2 + 1 + 4;
  b_index(b, NULL, 0, false); /* String INDEX */
  b_index(b, NULL, 0, false); /* Global Subr INDEX */
  put32(b, top_data + t_charset, (uint32_t)b->n);
  b8(b, 0); /* charset format 0: SIDs of glyphs 1.. */
  for (unsigned sid = 34; sid < 34 + ng - 1; sid++) b16(b, sid);
  put32(b, top_data + t_cs, (uint32_t)b->n);
  b_index(b, gl, ng, false);
  size_t priv = b->n;
  size_t p_subrs = d_int(b, 0);
  b8(b, 19);
  put32(b, top_data + t_psize, (uint32_t)(b->n - priv));
  put32(b, top_data + t_poff, (uint32_t)priv);
  put32(b, p_subrs, (uint32_t)(b->n - priv));
  b_index(b, sr, nsubrs, false);
  size_t n = b->n;
  memcpy(out, b->d, n);
  free(b);
  return n;
}

/* CID-keyed CFF: ROS, FDArray with two Font DICTs whose Private DICTs have different local
 * Subrs, FDSelect format 3 (glyphs 0-3 -> FD 0, 4-6 -> FD 1). Local subr 0 is "0 100 rlineto
 * return" in FD 0 and "0 50 rlineto return" in FD 1. */
static const blob c1_subrs_fd1[] = {BLOB(N(0), N(50), RLINETO, RETURN)};

/* DICT real number (operand 30) from a decimal string: BCD nibbles, '.' = 0xa, '-' = 0xe, end
 * 0xf. */
static void d_real(buf *b, const char *v)
{
  uint8_t nib[64];
  size_t n = 0;
  for (const char *q = v; *q; q++)
    nib[n++] = *q == '.' ? 0xa : *q == '-' ? 0xe : (uint8_t)(*q - '0');
  nib[n++] = 0xf;
  if (n & 1) nib[n++] = 0xf;
  b8(b, 30);
  for (size_t i = 0; i < n; i += 2) b8(b, (unsigned)(nib[i] << 4 | nib[i + 1]));
}
/* FontMatrix (12 7) with matrix_n (normally 6) decimal strings. */
static int matrix_n = 6;
static void d_matrix(buf *b, const char *const m[6])
{
  for (int i = 0; i < matrix_n; i++) d_real(b, m[i]);
  b8(b, 12), b8(b, 7);
}
/* FontMatrix entries for make_cff1_cid (NULL: none). */
static const char *const *cid_top_matrix, *const *cid_fd_matrix[2];

static size_t make_cff1_cid(uint8_t *out)
{
  buf *b = calloc(1, sizeof *b);
  b8(b, 1), b8(b, 0), b8(b, 4), b8(b, 4); /* header */
  blob name = {(const uint8_t *)"Test", 4};
  b_index(b, &name, 1, false);
  buf top = {{0}, 0};
  d_int(&top, 391), d_int(&top, 392), d_int(&top, 0); /* ROS: Registry, Ordering, Supplement */
  b8(&top, 12), b8(&top, 30);
  if (cid_top_matrix) d_matrix(&top, cid_top_matrix);
  size_t t_cs = d_int(&top, 0);
  b8(&top, 17);
  size_t t_fda = d_int(&top, 0);
  b8(&top, 12), b8(&top, 36);
  size_t t_fds = d_int(&top, 0);
  b8(&top, 12), b8(&top, 37);
  blob topb = {top.d, top.n};
  size_t top_index = b->n;
  b_index(b, &topb, 1, false);
  size_t top_data = top_index + 2 + 1 + 4;
  b_index(b, NULL, 0, false); /* String INDEX */
  b_index(b, NULL, 0, false); /* Global Subr INDEX */
  unsigned ng = sizeof c1_glyphs / sizeof c1_glyphs[0];
  put32(b, top_data + t_cs, (uint32_t)b->n);
  b_index(b, c1_glyphs, ng, false);
  put32(b, top_data + t_fds, (uint32_t)b->n);
  b8(b, 3), b16(b, 2); /* FDSelect format 3, 2 ranges */
  b16(b, 0), b8(b, 0); /* glyphs 0.. -> FD 0 */
  b16(b, 4), b8(b, 1); /* glyphs 4.. -> FD 1 */
  b16(b, ng);          /* sentinel */
  /* two Font DICTs: Private size/offset patched */
  buf fd0 = {{0}, 0}, fd1 = {{0}, 0};
  if (cid_fd_matrix[0]) d_matrix(&fd0, cid_fd_matrix[0]);
  if (cid_fd_matrix[1]) d_matrix(&fd1, cid_fd_matrix[1]);
  size_t f0s = d_int(&fd0, 0), f0o = d_int(&fd0, 0);
  b8(&fd0, 18);
  size_t f1s = d_int(&fd1, 0), f1o = d_int(&fd1, 0);
  b8(&fd1, 18);
  blob fds[2] = {{fd0.d, fd0.n}, {fd1.d, fd1.n}};
  size_t fda = b->n;
  put32(b, top_data + t_fda, (uint32_t)fda);
  b_index(b, fds, 2, false);
  size_t fd_data = fda + 2 + 1 + 3 * 2;
  const blob *subrs[2] = {c1_subrs, c1_subrs_fd1};
  size_t fs[2] = {fd_data + f0s, fd_data + fd0.n + f1s},
         fo[2] = {fd_data + f0o, fd_data + fd0.n + f1o};
  for (int i = 0; i < 2; i++) {
    size_t priv = b->n;
    size_t p_subrs = d_int(b, 0);
    b8(b, 19);
    put32(b, fs[i], (uint32_t)(b->n - priv));
    put32(b, fo[i], (uint32_t)priv);
    put32(b, p_subrs, (uint32_t)(b->n - priv));
    b_index(b, subrs[i], 1, false);
  }
  size_t n = b->n;
  memcpy(out, b->d, n);
  free(b);
  return n;
}

static void test_cff1_cid(void)
{
  static uint8_t cff[4096];
  size_t cff_len = make_cff1_cid(cff);
  unsigned ng = sizeof c1_glyphs / sizeof c1_glyphs[0];
  build_cff1_font(cff, cff_len, ng);
  otv_location *loc;
  otv_face *f = open_fixture(&loc, "open CID CFF");
  if (!f) return;
  static const ept wA[] = {{10, 20, 'o'}, {110, 20, 'o'}, {110, 120, 'o'}};
  static const unsigned eA[] = {2};
  CHECK_GLYPH(loc, 1, wA, eA);
  /* glyph 4 is in FD 1: its local subr 0 draws 0 50 */
  static const ept wD[] = {{0, 0, 'o'}, {0, 50, 'o'}, {100, 50, 'o'}};
  static const unsigned eD[] = {2};
  CHECK_GLYPH(loc, 4, wD, eD);
  /* seac needs Standard Encoding names: not in a CID-keyed font */
  expect_error(loc, 3, OTV_E_BAD_VALUE, OTV_TAG('C', 'F', 'F', ' '), cff_len, __LINE__);
  close_font(f, loc);
  truncation_sweep(build_cff1_font, cff, cff_len, ng, OTV_TAG('C', 'F', 'F', ' '), "CID CFF ");
}

static void test_cff1_fixture(void)
{
  static uint8_t cff[4096];
  size_t cff_len = make_cff1(cff);
  unsigned ng = sizeof c1_glyphs / sizeof c1_glyphs[0];
  build_cff1_font(cff, cff_len, ng);
  otv_location *loc;
  otv_face *f = open_fixture(&loc, "open CFF");
  if (!f) return;
  pts o;
  CHECK_EQ(get_points(loc, 0, &o), OTV_E_OK);
  CHECK_EQ(o.io.point_count, 0);
  CHECK_EQ(o.io.contour_count, 0);
  static const ept wA[] = {{10, 20, 'o'}, {110, 20, 'o'}, {110, 120, 'o'}};
  static const unsigned eA[] = {2};
  CHECK_GLYPH(loc, 1, wA, eA);
  static const ept wB[] = {{5, 5, 'o'}, {15, 5, 'o'}};
  static const unsigned eB[] = {1};
  CHECK_GLYPH(loc, 2, wB, eB);
  static const ept wC[] = {
      {10, 20, 'o'}, {110, 20, 'o'}, {110, 120, 'o'}, {255, 305, 'o'}, {265, 305, 'o'}};
  static const unsigned eC[] = {2, 4};
  CHECK_GLYPH(loc, 3, wC, eC);
  static const ept wD[] = {{0, 0, 'o'}, {0, 100, 'o'}, {100, 100, 'o'}};
  static const unsigned eD[] = {2};
  CHECK_GLYPH(loc, 4, wD, eD);
  static const ept wE[] = {{7, 0, 'o'}, {7, 3, 'o'}};
  CHECK_GLYPH(loc, 5, wE, eB);
  expect_error(loc, 6, OTV_E_BAD_VALUE, OTV_TAG('C', 'F', 'F', ' '), cff_len, __LINE__);
  CHECK_PEN(loc, 3, 0, "M10,20 L110,20 L110,120 L10,20 Z M255,305 L265,305 L255,305 Z ");
  close_font(f, loc);

  /* truncation sweep of the CFF table */
  truncation_sweep(build_cff1_font, cff, cff_len, ng, OTV_TAG('C', 'F', 'F', ' '), "CFF ");
}

/* ---- Type 2 arithmetic, storage and conditional operators (CFF v1; TN 5177 4.4-4.6) ---- */
enum {
  X_AND = 3,
  X_OR = 4,
  X_NOT = 5,
  X_ABS = 9,
  X_ADD = 10,
  X_SUB = 11,
  X_DIV = 12,
  X_NEG = 14,
  X_EQ = 15,
  X_DROP = 18,
  X_PUT = 20,
  X_GET = 21,
  X_IFELSE = 22,
  X_RANDOM = 23,
  X_MUL = 24,
  X_SQRT = 26,
  X_DUP = 27,
  X_EXCH = 28,
  X_INDEX = 29,
  X_ROLL = 30
};
#define X(op) ESC, X_##op

/* glyph 1, arithmetic (width 300 first: the operators do not clear the stack, so rmoveto sees
 * 3 operands and the first is the width):
 *   300 (10 20 add=30) 0 rmoveto           -> (30,0)
 *   (50 8 sub=42) 0 rlineto                 -> (72,0)
 *   0 (6 7 mul=42) rlineto                  -> (72,42)
 *   (7 2 div=3.5) 0 rlineto                 -> (75.5,42)
 *   (5 neg=-5) (-9 abs=9) rlineto           -> (70.5,51)
 *   (16 sqrt=4) 0 rlineto                   -> (74.5,51)
 * glyph 2, logic (results 0/1):
 *   0 0 rmoveto; (3 0 and=0) (3 -2 and=1) rlineto -> (0,1); (0 5 or=1) (0 0 or=0) -> (1,1);
 *   (0 not=1) (7 not=0) -> (2,1); (4 4 eq=1) (4 5 eq=0) -> (3,1)
 * glyph 3, stack:
 *   5 dup rmoveto -> (5,5); 1 2 exch rlineto -> (7,6); 9 3 4 drop rlineto -> (16,9);
 *   10 20 30 1 index (copies 20) rlineto -> (26,29) (56,49);
 *   1 2 3 3 1 roll (-> 3 1 2) 0 rlineto -> (59,50) (61,50);
 *   1 2 3 3 -1 roll (-> 2 3 1) 0 rlineto -> (63,53) (64,53);
 *   7 8 -1 index (copies the top: 7 8 8) 0 rlineto -> (71,61) (79,61);
 *   1 2 3 4 4 6 roll (6 mod 4 = 2: -> 3 4 1 2) rlineto -> (82,65) (83,67)
 * glyph 4, storage and ifelse:
 *   42 3 put 3 get 0 rmoveto -> (42,0); 5 get (never put: 0) 1 rlineto -> (42,1);
 *   (10 20 1 2 ifelse: 1 <= 2 -> 10) (10 20 3 2 ifelse -> 20) rlineto -> (52,21);
 *   (10 20 2 2 ifelse -> 10) 0 rlineto -> (62,21)
 * glyph 5: random 0 rmoveto random 0 rlineto -> (r1,0) (r1+r2,0), r from the documented
 *   generator (xorshift32 seeded with gid * 2654435761 ^ 0x9e3779b9, (top 24 bits + 1) / 2^24)
 * glyphs 6..: errors
 * Glyphs 1-4 were also checked against FreeType 2.12 (FT_LOAD_NO_SCALE, which rounds to integers):
 * same points. FreeType tolerates the undefined cases below (div by 0, sqrt of a negative, put/get
 * out of range, huge results, reserved 12 6) that otvar reports as errors. */
static const blob ar_glyphs[] = {
    BLOB(ENDCHAR),
    BLOB(28, 0x01, 0x2C, N(10), N(20), X(ADD), N(0), RMOVETO, N(50), N(8), X(SUB), N(0), RLINETO,
         N(0), N(6), N(7), X(MUL), RLINETO, N(7), N(2), X(DIV), N(0), RLINETO, N(5), X(NEG), N(-9),
         X(ABS), RLINETO, N(16), X(SQRT), N(0), RLINETO, ENDCHAR),
    BLOB(N(0), N(0), RMOVETO, N(3), N(0), X(AND), N(3), N(-2), X(AND), RLINETO, N(0), N(5), X(OR),
         N(0), N(0), X(OR), RLINETO, N(0), X(NOT), N(7), X(NOT), RLINETO, N(4), N(4), X(EQ), N(4),
         N(5), X(EQ), RLINETO, ENDCHAR),
    BLOB(N(5), X(DUP), RMOVETO, N(1), N(2), X(EXCH), RLINETO, N(9), N(3), N(4), X(DROP), RLINETO,
         N(10), N(20), N(30), N(1), X(INDEX), RLINETO, N(1), N(2), N(3), N(3), N(1), X(ROLL), N(0),
         RLINETO, N(1), N(2), N(3), N(3), N(-1), X(ROLL), N(0), RLINETO, N(7), N(8), N(-1),
         X(INDEX), N(0), RLINETO, N(1), N(2), N(3), N(4), N(4), N(6), X(ROLL), RLINETO, ENDCHAR),
    BLOB(N(42), N(3), X(PUT), N(3), X(GET), N(0), RMOVETO, N(5), X(GET), N(1), RLINETO, N(10),
         N(20), N(1), N(2), X(IFELSE), N(10), N(20), N(3), N(2), X(IFELSE), RLINETO, N(10), N(20),
         N(2), N(2), X(IFELSE), N(0), RLINETO, ENDCHAR),
    BLOB(X(RANDOM), N(0), RMOVETO, X(RANDOM), N(0), RLINETO, ENDCHAR),
    /* 6.. errors */
    BLOB(N(1), N(0), X(DIV), N(0), RMOVETO, ENDCHAR), /* div by zero */
    BLOB(N(-4), X(SQRT), N(0), RMOVETO, ENDCHAR),     /* sqrt of negative */
    BLOB(N(1), N(32), X(PUT), ENDCHAR),               /* put index 32 */
    BLOB(N(-1), X(GET), ENDCHAR),                     /* get index -1 */
    BLOB(N(1), N(2), N(2), X(INDEX), ENDCHAR),        /* index beyond stack */
    BLOB(N(1), N(2), N(3), N(1), X(ROLL), ENDCHAR),   /* roll N > stack */
    BLOB(N(1), X(ADD), ENDCHAR),                      /* add: underflow */
    BLOB(N(1), N(2), N(3), X(IFELSE), ENDCHAR),       /* ifelse: underflow */
    BLOB(N(100), X(DUP), X(MUL), X(DUP), X(MUL), X(DUP), X(MUL), X(DUP), X(MUL), X(DUP), X(MUL),
         ENDCHAR), /* 100^32: too large */
    BLOB(N(1), X(DUP), X(DUP), X(DUP), X(DUP), X(DUP), X(DUP), X(DUP), X(DUP), X(DUP), X(DUP),
         X(DUP), X(DUP), X(DUP), X(DUP), X(DUP), X(DUP), X(DUP), X(DUP), X(DUP), X(DUP), X(DUP),
         X(DUP), X(DUP), X(DUP), X(DUP), X(DUP), X(DUP), X(DUP), X(DUP), X(DUP), X(DUP), X(DUP),
         X(DUP), X(DUP), X(DUP), X(DUP), X(DUP), X(DUP), X(DUP), X(DUP), X(DUP), X(DUP), X(DUP),
         X(DUP), X(DUP), X(DUP), X(DUP), X(DUP), ENDCHAR), /* 49 values: > 48 */
    BLOB(N(1), ESC, 6, ENDCHAR),                           /* reserved 12 6 */
    BLOB(N(-1), X(INDEX), ENDCHAR), /* index -1 with nothing below (fuzz find) */
};
#define AR_FIRST_ERROR 6

/* The documented random generator, written from its description in include/otvar.h. */
static double doc_random(uint32_t *x)
{
  *x ^= *x << 13;
  *x ^= *x >> 17;
  *x ^= *x << 5;
  return (double)((*x >> 8) + 1u) / 16777216.0;
}

static void test_cff1_arith(void)
{
  static uint8_t cff[8192];
  unsigned ng = sizeof ar_glyphs / sizeof ar_glyphs[0];
  size_t cff_len = make_cff1_with(cff, ar_glyphs, ng, c1_subrs, 1);
  build_cff1_font(cff, cff_len, ng);
  otv_location *loc;
  otv_face *f = open_fixture(&loc, NULL);
  if (!f) return;
  static const ept w1[] = {{30, 0, 'o'},     {72, 0, 'o'},     {72, 42, 'o'},
                           {75.5f, 42, 'o'}, {70.5f, 51, 'o'}, {74.5f, 51, 'o'}};
  static const unsigned e1[] = {5};
  CHECK_GLYPH(loc, 1, w1, e1);
  static const ept w2[] = {{0, 0, 'o'}, {0, 1, 'o'}, {1, 1, 'o'}, {2, 1, 'o'}, {3, 1, 'o'}};
  static const unsigned e2[] = {4};
  CHECK_GLYPH(loc, 2, w2, e2);
  static const ept w3[] = {{5, 5, 'o'},   {7, 6, 'o'},   {16, 9, 'o'},  {26, 29, 'o'},
                           {56, 49, 'o'}, {59, 50, 'o'}, {61, 50, 'o'}, {63, 53, 'o'},
                           {64, 53, 'o'}, {71, 61, 'o'}, {79, 61, 'o'}, {82, 65, 'o'},
                           {83, 67, 'o'}};
  static const unsigned e3[] = {12};
  CHECK_GLYPH(loc, 3, w3, e3);
  static const ept w4[] = {{42, 0, 'o'}, {42, 1, 'o'}, {52, 21, 'o'}, {62, 21, 'o'}};
  static const unsigned e4[] = {3};
  CHECK_GLYPH(loc, 4, w4, e4);
  /* random: in (0, 1], from the documented per-glyph sequence, the same on every draw */
  uint32_t x = 5u * 2654435761u ^ 0x9e3779b9u;
  double r1 = doc_random(&x), r2 = doc_random(&x);
  CHECK(r1 > 0 && r1 <= 1 && r2 > 0 && r2 <= 1 && r1 != r2);
  for (int k = 0; k < 2; k++) {
    pts o;
    CHECK_EQ(get_points(loc, 5, &o), OTV_E_OK);
    CHECK_EQ(o.io.point_count, 2);
    CHECK_NEAR(o.p[0].x, r1, 1e-6);
    CHECK_NEAR(o.p[1].x, r1 + r2, 1e-6);
  }
  static const otv_status want[] = {OTV_E_BAD_VALUE, OTV_E_BAD_VALUE, OTV_E_BAD_VALUE,
                                    OTV_E_BAD_VALUE, OTV_E_BAD_VALUE, OTV_E_BAD_VALUE,
                                    OTV_E_BAD_VALUE, OTV_E_BAD_VALUE, OTV_E_LIMIT,
                                    OTV_E_LIMIT,     OTV_E_BAD_VALUE, OTV_E_BAD_VALUE};
  CHECK_EQ(sizeof want / sizeof want[0], ng - AR_FIRST_ERROR);
  for (unsigned g = AR_FIRST_ERROR; g < ng; g++)
    expect_error(loc, g, want[g - AR_FIRST_ERROR], OTV_TAG('C', 'F', 'F', ' '), cff_len,
                 __LINE__ * 1000 + (int)g);
  close_font(f, loc);
}

/* CFF2 removed the arithmetic operators (CFF2 CharString spec, Appendix C): each one is an
 * error there. */
static void test_cff2_no_arith(void)
{
  static const uint8_t ops[] = {X_AND, X_OR,   X_NOT,  X_ABS,  X_ADD,   X_SUB,    X_DIV,
                                X_NEG, X_EQ,   X_DROP, X_PUT,  X_GET,   X_IFELSE, X_RANDOM,
                                X_MUL, X_SQRT, X_DUP,  X_EXCH, X_INDEX, X_ROLL};
  for (size_t i = 0; i < sizeof ops; i++) {
    uint8_t cs[] = {N(1), N(1), N(1), N(1), ESC, ops[i], N(0), N(0), RMOVETO};
    blob g[2] = {BLOB(N(0), N(0), RMOVETO), {cs, sizeof cs}};
    cff2_fix fx = {g, 2, NULL, 0, NULL, 0, -1, true};
    static uint8_t tab[4096];
    size_t len = make_cff2(&fx, tab);
    build_cff2_font(tab, len, 2);
    otv_location *loc;
    otv_face *f = open_fixture(&loc, NULL);
    if (!f) return;
    pts o;
    CHECK_EQ(get_points(loc, 0, &o), OTV_E_OK);
    expect_error(loc, 1, OTV_E_BAD_VALUE, OTV_TAG('C', 'F', 'F', '2'), len, __LINE__);
    close_font(f, loc);
  }
}

/* ---- FontMatrix (issue 5): points in font units = FontMatrix x unitsPerEm applied ----
 * tests/fonts/cff_fm_*.otf (make_cff_fontmatrix.py): "square" is 0 0 rmoveto 100 0 rlineto
 * 0 100 rlineto -100 0 rlineto, "curve" 10 20 rmoveto 30 0 40 10 50 50 rrcurveto, mapped by hand:
 *   skew   [0.001 0 0.00025 0.001 0 0] x 1000: x' = x + y/4
 *   2048   [1/2048 0 0 1/2048 0 0] x 2048: identity
 *   half   [0.0005 0 0 0.0005 0 0] x 1000: x' = x/2, y' = y/2
 *   offset [0.001 0 0 0.001 0.01 0.02] x 1000: x' = x + 10, y' = y + 20
 * FreeType 2.12 (FT_LOAD_NO_SCALE) gives the same skew and, up to its 16.16 rounding, the same
 * offset (9,19); it keeps the charstring scale (no halving); HarfBuzz 6 ignores FontMatrix. */
static void test_fontmatrix_fonts(void)
{
  static const struct {
    const char *font;
    ept sq[4], cv[4];
  } cases[] = {
      {"cff_fm_skew.otf",
       {{0, 0, 'o'}, {100, 0, 'o'}, {125, 100, 'o'}, {25, 100, 'o'}},
       {{15, 20, 'o'}, {45, 20, 'c'}, {87.5f, 30, 'c'}, {150, 80, 'o'}}},
      {"cff_fm_2048.otf",
       {{0, 0, 'o'}, {100, 0, 'o'}, {100, 100, 'o'}, {0, 100, 'o'}},
       {{10, 20, 'o'}, {40, 20, 'c'}, {80, 30, 'c'}, {130, 80, 'o'}}},
      {"cff_fm_half.otf",
       {{0, 0, 'o'}, {50, 0, 'o'}, {50, 50, 'o'}, {0, 50, 'o'}},
       {{5, 10, 'o'}, {20, 10, 'c'}, {40, 15, 'c'}, {65, 40, 'o'}}},
      {"cff_fm_offset.otf",
       {{10, 20, 'o'}, {110, 20, 'o'}, {110, 120, 'o'}, {10, 120, 'o'}},
       {{20, 40, 'o'}, {50, 40, 'c'}, {90, 50, 'c'}, {140, 100, 'o'}}},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    otv_location *loc;
    otv_face *f = open_font(h_font(cases[i].font), NULL, &loc);
    if (!f) continue;
    static const unsigned e_sq[] = {3}, e_cv[] = {3};
    CHECK_GLYPH(loc, 1, cases[i].sq, e_sq);
    CHECK_GLYPH(loc, 2, cases[i].cv, e_cv);
    close_font(f, loc);
  }
}

/* CID-keyed: the Font DICT's FontMatrix, concatenated with the Top DICT's when it has one.
 * Glyph 4 (FD 1) draws (0,0) (0,50) (100,50); glyph 1 (FD 0) (10,20) (110,20) (110,120).
 *   A: Top [1 0 0 1 0 0], FD 0 [0.001 0 0 0.001 0 0] (identity at upem 1000),
 *      FD 1 [0.0005 0 0.0005 0.0005 0 0]: x' = (x + y)/2, y' = y/2 -> (0,0) (25,25) (75,25)
 *   B: no Top FontMatrix, FD 0 none (Top default: identity), FD 1 as in A (used alone): same
 *   C: Top [0.002 0 0 0.002 0 0], FD 1 [0.5 0 0 0.5 0 0]: 0.001 in all -> identity; FD 0 none
 *      -> the Top's: x2 -> (20,40) (220,40) (220,240) */
static void test_fontmatrix_cid(void)
{
  static const char *const one[6] = {"1", "0", "0", "1", "0", "0"};
  static const char *const milli[6] = {".001", "0", "0", ".001", "0", "0"};
  static const char *const sk[6] = {".0005", "0", ".0005", ".0005", "0", "0"};
  static const char *const two_milli[6] = {".002", "0", "0", ".002", "0", "0"};
  static const char *const half[6] = {".5", "0", "0", ".5", "0", "0"};
  static const ept w4_sk[] = {{0, 0, 'o'}, {25, 25, 'o'}, {75, 25, 'o'}};
  static const ept w4_id[] = {{0, 0, 'o'}, {0, 50, 'o'}, {100, 50, 'o'}};
  static const ept w1_id[] = {{10, 20, 'o'}, {110, 20, 'o'}, {110, 120, 'o'}};
  static const ept w1_x2[] = {{20, 40, 'o'}, {220, 40, 'o'}, {220, 240, 'o'}};
  static const unsigned e3[] = {2};
  struct {
    const char *const *top, *const *fd0, *const *fd1;
    const ept *w1, *w4;
  } cfg[] = {{one, milli, sk, w1_id, w4_sk},
             {NULL, NULL, sk, w1_id, w4_sk},
             {two_milli, NULL, half, w1_x2, w4_id}};
  unsigned ng = sizeof c1_glyphs / sizeof c1_glyphs[0];
  for (size_t i = 0; i < sizeof cfg / sizeof cfg[0]; i++) {
    cid_top_matrix = cfg[i].top;
    cid_fd_matrix[0] = cfg[i].fd0;
    cid_fd_matrix[1] = cfg[i].fd1;
    static uint8_t cff[4096];
    size_t cff_len = make_cff1_cid(cff);
    cid_top_matrix = cid_fd_matrix[0] = cid_fd_matrix[1] = NULL;
    build_cff1_font(cff, cff_len, ng);
    otv_location *loc;
    otv_face *f = open_fixture(&loc, NULL);
    if (!f) continue;
    pts o;
    CHECK_EQ(get_points(loc, 1, &o), OTV_E_OK);
    check_points(&o, cfg[i].w1, 3, e3, 1, __LINE__ * 100 + (int)i);
    CHECK_EQ(get_points(loc, 4, &o), OTV_E_OK);
    check_points(&o, cfg[i].w4, 3, e3, 1, __LINE__ * 100 + (int)i);
    close_font(f, loc);
  }
  /* a FontMatrix with 5 operands is an error naming the table */
  matrix_n = 5;
  cid_top_matrix = one;
  static uint8_t cff5[4096];
  size_t len5 = make_cff1_cid(cff5);
  matrix_n = 6;
  cid_top_matrix = NULL;
  build_cff1_font(cff5, len5, ng);
  otv_face *f5 = NULL;
  otv_error e5 = {0};
  CHECK_EQ(otv_face_open_memory(font_buf, font_len, 0, NULL, &f5, &e5), OTV_E_BAD_VALUE);
  CHECK_EQ(e5.table, OTV_TAG('C', 'F', 'F', ' '));
  otv_face_close(f5);
}

/* Real fonts: CFF2 test fonts open and draw every glyph at several locations; the points form
 * agrees with the pen form (same on-curve points in the same order). */
static void test_real_fonts(void)
{
  static const char *const fonts[] = {"AdobeVFPrototype_vsindex.otf", "NotoSansJP-VF.subset.otf",
                                      "cantarell_vf_trimmed.ttf", "CFF2Instancer-VF-1.otf"};
  for (size_t i = 0; i < sizeof fonts / sizeof fonts[0]; i++) {
    otv_location *loc;
    otv_face *f = open_font(h_font(fonts[i]), NULL, &loc);
    if (!f) continue;
    otv_face_info info;
    otv_face_get_info(f, &info);
    CHECK_EQ(info.flavour, OTV_FLAVOUR_CFF2);
    for (int l = 0; l < 3; l++) {
      otv_f2dot14 c[4] = {(otv_f2dot14)(l * 8000 - 8000), (otv_f2dot14)(l * 5000), 0, 0};
      otv_location_set_normalized(loc, c, 4);
      for (uint32_t g = 0; g < info.glyph_count; g++) {
        rec r = {{0}, 0};
        CHECK_EQ(otv_glyph_outline(loc, g, 0, &r_pen, &r), OTV_E_OK);
        static otv_point p[4096];
        static uint8_t fl[4096];
        static uint16_t ends[512];
        otv_glyph_points io = {p, fl, ends, 4096, 512, 0, 0, 0};
        CHECK_EQ(otv_glyph_points_get(loc, g, 0, &io), OTV_E_OK);
        /* every M in the pen output is a contour start in the points */
        unsigned moves = 0;
        for (size_t k = 0; k < r.n; k++) moves += r.s[k] == 'M';
        CHECK_EQ(moves, io.contour_count);
        if (io.contour_count) CHECK_EQ(ends[io.contour_count - 1], io.point_count - 1);
      }
    }
    close_font(f, loc);
  }
}

/* ---- the decoded-subroutine cache ---- */

/* The two locations' last errors are the same: code, table, offset and message. */
static bool same_error(otv_location *loc, otv_location *ref)
{
  const otv_error *x = otv_location_last_error(loc), *y = otv_location_last_error(ref);
  return x->code == y->code && x->table == y->table && x->offset == y->offset &&
         strcmp(x->msg, y->msg) == 0;
}

/* Bitwise comparison of one glyph drawn from the cache (loc) and from the bytes (ref: a location
 * whose cache is switched off): points, flags, contour ends, status and error offset. */
static bool same_as_uncached(otv_location *loc, otv_location *ref, uint32_t gid, unsigned flags)
{
  static otv_point pa[4096], pb[4096];
  static uint8_t fa[4096], fb[4096];
  static uint16_t ea[512], eb[512];
  otv_glyph_points a = {pa, fa, ea, 4096, 512, 0, 0, 0}, b = {pb, fb, eb, 4096, 512, 0, 0, 0};
  otv_location_clear_error(loc);
  otv_location_clear_error(ref);
  otv_status sa = otv_glyph_points_get(loc, gid, flags, &a);
  otv_status sb = otv_glyph_points_get(ref, gid, flags, &b);
  if (sa != sb) return false;
  if (sa) return same_error(loc, ref);
  return a.point_count == b.point_count && a.contour_count == b.contour_count &&
         memcmp(pa, pb, a.point_count * sizeof *pa) == 0 && memcmp(fa, fb, a.point_count) == 0 &&
         memcmp(ea, eb, a.contour_count * sizeof *ea) == 0;
}

/* Pen recording as numbers: kind (0 move, 1 line, 3 cubic, 4 close) then the coordinates. */
typedef struct seg_rec {
  float v[65536];
  size_t n;
  bool over;
} seg_rec;
static void sr_put(seg_rec *r, float k, unsigned n, const float *xy)
{
  if (r->n + 1 + n > sizeof r->v / sizeof r->v[0]) {
    r->over = true;
    return;
  }
  r->v[r->n++] = k;
  for (unsigned i = 0; i < n; i++) r->v[r->n++] = xy[i];
}
static void sr_move(void *c, float x, float y) { sr_put(c, 0, 2, (const float[]){x, y}); }
static void sr_line(void *c, float x, float y) { sr_put(c, 1, 2, (const float[]){x, y}); }
static void sr_cubic(void *c, float a, float b, float cc, float d, float e, float f)
{
  sr_put(c, 3, 6, (const float[]){a, b, cc, d, e, f});
}
static void sr_close(void *c) { sr_put(c, 4, 0, NULL); }
static const otv_pen sr_pen = {sr_move, sr_line, NULL, sr_cubic, sr_close};

/* Largest difference of the compiled-glyph pen output (loc: drawn there before, so compiled
 * from its fifth draw) from the same glyph interpreted from its bytes (ref); -1 when the
 * segments, status or error differ. The compiled form sums P0 + s_r D_r in another order than
 * the interpreter, so floats may differ by an ulp: the caller allows 1e-6 relative. */
static double pen_vs_uncached(otv_location *loc, otv_location *ref, uint32_t gid, double *rel)
{
  static seg_rec a, b;
  a.n = b.n = 0, a.over = b.over = false;
  otv_location_clear_error(loc);
  otv_location_clear_error(ref);
  otv_status sa = otv_glyph_outline(loc, gid, 0, &sr_pen, &a);
  otv_status sb = otv_glyph_outline(ref, gid, 0, &sr_pen, &b);
  *rel = 0;
  if (sa != sb) return -1;
  if (sa) return same_error(loc, ref) ? 0 : -1;
  if (a.n != b.n || a.over || b.over) return -1;
  double md = 0;
  for (size_t i = 0; i < a.n; i++) {
    double d = fabs((double)a.v[i] - (double)b.v[i]);
    double r = d / (fabs((double)b.v[i]) > 1 ? fabs((double)b.v[i]) : 1);
    if (d > md) md = d;
    if (r > *rel) *rel = r;
  }
  return md;
}

/* Blends inside subroutines, replayed from the decoded-subroutine cache: a blend whose count and
 * deltas are in the subroutine reads its deltas from the cache (bases from the caller, or from
 * the subroutine), any other goes through the stack; underflows fail as from the bytes.
 * vsindex 0: regions R0, R1 (k = 2); at a = 0.75, b = 0.25: s0 = 0.75, s1 = 0.25.
 *   L0 = "6 4 1 blend"          (base from the caller)
 *   L1 = "50 6 4 1 blend"       (base in the subroutine)
 *   L2 = "2 3 5 7 2 blend"      (two bases from the caller)
 *   L3 = "1 blend"              (deltas from the caller: the general way)
 *   g0: 0 0 rmoveto 100 L0 0 rlineto      -> (100 + 4.5 + 1, 0) = (105.5, 0)
 *   g1: 0 0 rmoveto 10 L1 rlineto         -> (10, 50 + 4.5 + 1) = (10, 55.5)
 *   g2: 0 0 rmoveto 30 40 L2 rlineto      -> (30 + 1.5 + 0.75, 40 + 3.75 + 1.75) = (32.25, 45.5)
 *   g3: 0 0 rmoveto 20 8 9 L3 0 rlineto   -> (20 + 6 + 2.25, 0) = (28.25, 0)
 *   g4: 0 0 rmoveto L0                    -> blend underflow (no base)
 *   g5: 1 vsindex 0 0 rmoveto 100 L0 0 rlineto -> k = 3 needs 4 operands: underflow
 *   g6: 0 0 rmoveto 100 L0 0 rlineto 0 100 L0 rlineto (L0 twice in a glyph)
 *       -> (105.5, 0) then (105.5, 105.5)
 * Hint masks (their length is the stem count rounded up to bytes, known at run time only; the
 * decoder guesses it and the replay checks it):
 *   L4 = 1..12 hstemhm (6 stems); L5 = hintmask 0x80 | 7 10 20 rmoveto
 *   g7: 1..8 hstemhm (4 stems) L4 (10 stems: the decoder's guess for the glyph says 4)
 *       hintmask FF C0 (2 bytes) 10 20 rmoveto 5 5 rlineto -> (10,20) (15,25)
 *   g8: 1..8 hstemhm (4 stems) L5: 1-byte mask, 7 10 20 rmoveto -> (7,10); 5 5 rlineto (12,15)
 *   g9: 1..24 hstemhm (12 stems) L5: 2-byte mask (0x80, 7), 10 20 rmoveto -> (10,20) (15,25)
 *       (L5 was decoded in g8 with a 1-byte mask) */
static void test_subr_blend(void)
{
  const blob ls[] = {
      BLOB(N(6), N(4), N(1), BLEND),
      BLOB(N(50), N(6), N(4), N(1), BLEND),
      BLOB(N(2), N(3), N(5), N(7), N(2), BLEND),
      BLOB(N(1), BLEND),
      BLOB(N(1), N(2), N(3), N(4), N(5), N(6), N(7), N(8), N(9), N(10), N(11), N(12), HSTEMHM),
      BLOB(HINTMASK, 0x80, N(7), N(10), N(20), RMOVETO)};
  const blob gl[] = {
      BLOB(N(0), N(0), RMOVETO, N(100), N(-107), CALLSUBR, N(0), RLINETO),
      BLOB(N(0), N(0), RMOVETO, N(10), N(-106), CALLSUBR, RLINETO),
      BLOB(N(0), N(0), RMOVETO, N(30), N(40), N(-105), CALLSUBR, RLINETO),
      BLOB(N(0), N(0), RMOVETO, N(20), N(8), N(9), N(-104), CALLSUBR, N(0), RLINETO),
      BLOB(N(0), N(0), RMOVETO, N(-107), CALLSUBR),
      BLOB(N(1), VSINDEX, N(0), N(0), RMOVETO, N(100), N(-107), CALLSUBR, N(0), RLINETO),
      BLOB(N(0), N(0), RMOVETO, N(100), N(-107), CALLSUBR, N(0), RLINETO, N(0), N(100), N(-107),
           CALLSUBR, RLINETO),
      BLOB(N(1), N(2), N(3), N(4), N(5), N(6), N(7), N(8), HSTEMHM, N(-103), CALLSUBR, HINTMASK,
           0xFF, 0xC0, N(10), N(20), RMOVETO, N(5), N(5), RLINETO),
      BLOB(N(1), N(2), N(3), N(4), N(5), N(6), N(7), N(8), HSTEMHM, N(-102), CALLSUBR, N(5), N(5),
           RLINETO),
      BLOB(N(1), N(2), N(3), N(4), N(5), N(6), N(7), N(8), N(9), N(10), N(11), N(12), N(13), N(14),
           N(15), N(16), N(17), N(18), N(19), N(20), N(21), N(22), N(23), N(24), HSTEMHM, N(-102),
           CALLSUBR, N(5), N(5), RLINETO),
      /* g10: the subroutine number is blended: -107 + 2 s0 + 0 s1 (here -105.5: L2, at the
       * default L0): the control flow depends on the location, so the glyph is not compiled */
      BLOB(N(0), N(0), RMOVETO, N(30), N(40), N(-107), N(2), N(0), N(1), BLEND, CALLSUBR, RLINETO),
      /* g11: flex1 with dx1 = 10 + 4 s0 (13 here): its |dx| > |dy| test is not affine, so the
       * glyph is not compiled: (13,0) (13,20) (13,20), (13,20) (13,0) (13 + 5, 0) */
      BLOB(N(0), N(0), RMOVETO, N(10), N(4), N(0), N(1), BLEND, N(0), N(0), N(20), N(0), N(0), N(0),
           N(0), N(0), N(-20), N(5), ESC, 37),
      /* g12: the same flex1 with dx1 = 10: compiled */
      BLOB(N(0), N(0), RMOVETO, N(10), N(0), N(0), N(20), N(0), N(0), N(0), N(0), N(0), N(-20),
           N(5), ESC, 37)};
  const blob gs[] = {BLOB(N(0), N(0), RMOVETO)};
  cff2_fix fx = {gl, 13, gs, 1, ls, 6, -1, false};
  cff2_len = make_cff2(&fx, cff2_tab);
  build_cff2_font(cff2_tab, cff2_len, 13);
  otv_location *loc, *ref = NULL;
  otv_face *f = open_fixture(&loc, NULL);
  if (!f) return;
  CHECK_EQ(otv_location_create(f, &ref, NULL), OTV_E_OK);
  if (!loc || !ref) return;
  ref->cff.sub_tried = true; /* no decoded-subroutine cache: subroutines run from their bytes */
  otv_f2dot14 c[2] = {12288, 4096};
  CHECK_EQ(otv_location_set_normalized(loc, c, 2), OTV_E_OK);
  CHECK_EQ(otv_location_set_normalized(ref, c, 2), OTV_E_OK);
  static const unsigned ends[] = {1}, ends2[] = {2};
  static const ept w0[] = {{0, 0, 'o'}, {105.5f, 0, 'o'}};
  static const ept w1[] = {{0, 0, 'o'}, {10, 55.5f, 'o'}};
  static const ept w2[] = {{0, 0, 'o'}, {32.25f, 45.5f, 'o'}};
  static const ept w3[] = {{0, 0, 'o'}, {28.25f, 0, 'o'}};
  static const ept w6[] = {{0, 0, 'o'}, {105.5f, 0, 'o'}, {105.5f, 105.5f, 'o'}};
  static const ept w7[] = {{10, 20, 'o'}, {15, 25, 'o'}};
  static const ept w8[] = {{7, 10, 'o'}, {12, 15, 'o'}};
  for (int pass = 0; pass < 2; pass++) { /* pass 1: every subroutine replays from the cache */
    CHECK_GLYPH(loc, 0, w0, ends);
    CHECK_GLYPH(loc, 1, w1, ends);
    CHECK_GLYPH(loc, 2, w2, ends);
    CHECK_GLYPH(loc, 3, w3, ends);
    expect_error(loc, 4, OTV_E_BAD_VALUE, OTV_TAG('C', 'F', 'F', '2'), cff2_len, __LINE__);
    expect_error(loc, 5, OTV_E_BAD_VALUE, OTV_TAG('C', 'F', 'F', '2'), cff2_len, __LINE__);
    CHECK_GLYPH(loc, 6, w6, ends2);
    CHECK_GLYPH(loc, 7, w7, ends);
    CHECK_GLYPH(loc, 8, w8, ends);
    CHECK_GLYPH(loc, 9, w7, ends);
    /* OTV_OUTLINE_ROUND rounds the blend result read from the cache: 105.5 -> 106 */
    CHECK_PEN(loc, 0, OTV_OUTLINE_ROUND, "M0,0 L106,0 L0,0 Z ");
    for (uint32_t g = 0; g < 13; g++) {
      CHECK(same_as_uncached(loc, ref, g, 0));
      CHECK(same_as_uncached(loc, ref, g, OTV_OUTLINE_ROUND));
    }
    CHECK_GLYPH(loc, 10, w2, ends);
  }
  /* compiled glyphs (pen drawing from the fifth draw): the same outlines, errors from the
   * interpreter; g10 (blended subroutine number) and the failing g4, g5 are not compiled */
  for (int pass = 0; pass < 3; pass++) {
    CHECK_PEN(loc, 0, 0, "M0,0 L105.5,0 L0,0 Z ");
    CHECK_PEN(loc, 2, 0, "M0,0 L32.25,45.5 L0,0 Z ");
    CHECK_PEN(loc, 10, 0, "M0,0 L32.25,45.5 L0,0 Z ");
    CHECK_PEN(loc, 6, 0, "M0,0 L105.5,0 L105.5,105.5 L0,0 Z ");
    CHECK_PEN(loc, 11, 0, "M0,0 C13,0 13,20 13,20 C13,20 13,0 18,0 L0,0 Z ");
    CHECK_PEN(loc, 12, 0, "M0,0 C10,0 10,20 10,20 C10,20 10,0 15,0 L0,0 Z ");
    for (uint32_t g = 0; g < 13; g++) {
      double rel;
      CHECK(pen_vs_uncached(loc, ref, g, &rel) == 0); /* these sums are exact */
    }
    expect_error(loc, 4, OTV_E_BAD_VALUE, OTV_TAG('C', 'F', 'F', '2'), cff2_len, __LINE__);
    expect_error(loc, 5, OTV_E_BAD_VALUE, OTV_TAG('C', 'F', 'F', '2'), cff2_len, __LINE__);
  }
  CHECK(loc->cff.comp != NULL);
  if (loc->cff.comp) {
    CHECK(loc->cff.comp[0] >= 2); /* compiled */
    CHECK(loc->cff.comp[6] >= 2);
    CHECK_EQ(loc->cff.comp[10], 1); /* control flow varies: interpreted */
    CHECK_EQ(loc->cff.comp[11], 1); /* flex1's test varies: interpreted */
    CHECK(loc->cff.comp[12] >= 2);
    CHECK_EQ(loc->cff.comp[4], 1); /* errors: interpreted */
    CHECK_EQ(loc->cff.comp[5], 1);
  }
  /* the same compiled glyphs at another location (the compiled form does not depend on it) */
  otv_f2dot14 c2[2] = {-8192, 16384};
  CHECK_EQ(otv_location_set_normalized(loc, c2, 2), OTV_E_OK);
  CHECK_EQ(otv_location_set_normalized(ref, c2, 2), OTV_E_OK);
  for (uint32_t g = 0; g < 13; g++) {
    double rel;
    CHECK(pen_vs_uncached(loc, ref, g, &rel) == 0);
  }
  otv_location_destroy(ref);
  close_font(f, loc);
}

/* The path of name in $OTV_FONT_CACHE (real fonts, fetched by tests/fetch-fonts.sh) into path;
 * false, after printing SKIP, when it is not there. */
static bool cached_font(const char *name, char *path, size_t cap)
{
  const char *cache = getenv("OTV_FONT_CACHE");
  snprintf(path, cap, "%s/%s", cache ? cache : "", name);
  FILE *fp = cache ? fopen(path, "rb") : NULL;
  if (!fp) {
    printf("SKIP %s: not in $OTV_FONT_CACHE\n", name);
    return false;
  }
  fclose(fp);
  return true;
}

/* Every glyph of the CFF2 test fonts and of the real CFF2 fonts in $OTV_FONT_CACHE (Source Sans
 * 3, Cantarell: three quarters of their bytes are in subroutines; Source Serif 4: none, long
 * glyphs) drawn with the decoded-charstring cache (subroutines, and glyphs from their second
 * draw) is bit-identical to the same glyph interpreted from its bytes, at the default, an
 * extreme and random locations, with and without OTV_OUTLINE_ROUND. */
static void test_cache_real_fonts(void)
{
  char path[4096];
  static const char *const test_fonts[] = {"AdobeVFPrototype_vsindex.otf",
                                           "NotoSansJP-VF.subset.otf", "cantarell_vf_trimmed.ttf",
                                           "CFF2Instancer-VF-1.otf"};
  static const char *const cached[] = {"SourceSans3VF-Upright.otf", "Cantarell-VF.otf",
                                       "SourceSerif4Variable-Roman.otf"};
  for (size_t i = 0; i < 7; i++) {
    if (i < 4)
      snprintf(path, sizeof path, "%s", h_font(test_fonts[i]));
    else if (!cached_font(cached[i - 4], path, sizeof path))
      continue;
    otv_location *loc, *ref = NULL;
    otv_face *f = open_font(path, NULL, &loc);
    if (!f) continue;
    otv_face_info info;
    otv_face_get_info(f, &info);
    CHECK_EQ(otv_location_create(f, &ref, NULL), OTV_E_OK);
    if (!loc || !ref) continue;
    ref->cff.sub_tried = true;
    loc->cff.comp_draws = 4; /* compiled on the fifth draw whatever the font's regions */
    uint32_t rnd = 12345;
    unsigned bad = 0, draws = 0, pen_bad = 0, pen_draws = 0;
    double pen_max = 0, pen_rel = 0;
    for (int l = 0; l < 4; l++) {
      otv_f2dot14 c[16] = {0};
      for (unsigned a = 0; a < info.axis_count && a < 16; a++) {
        rnd = rnd * 1103515245u + 12345u;
        c[a] = l == 0 ? 0 : l == 1 ? 16384 : (otv_f2dot14)((int)(rnd >> 8) % 32769 - 16384);
      }
      unsigned na = info.axis_count < 16 ? info.axis_count : 16;
      otv_location_set_normalized(loc, c, na);
      otv_location_set_normalized(ref, c, na);
      /* pen drawing first (the arena fills with compiled glyphs before decoded ones): compiled
       * glyphs (compiled on the fifth draw, replayed after) vs the bytes, within 1e-6 relative
       * (float ulps) */
      for (int pass = 0; pass < 2; pass++)
        for (uint32_t g = 0; g < info.glyph_count; g++, pen_draws++) {
          double rel, d = pen_vs_uncached(loc, ref, g, &rel);
          if (d < 0 || rel > 1e-6) {
            if (pen_bad++ < 3) fprintf(stderr, "glyph %u: compiled differs (%g, %g)\n", g, d, rel);
            continue;
          }
          if (d > pen_max) pen_max = d;
          if (rel > pen_rel) pen_rel = rel;
        }
      for (int pass = 0; pass < 2; pass++)
        for (uint32_t g = 0; g < info.glyph_count; g++, draws++)
          bad += !same_as_uncached(loc, ref, g, pass ? OTV_OUTLINE_ROUND : 0);
    }
    unsigned compiled = 0;
    for (uint32_t g = 0; loc->cff.comp && g < info.glyph_count; g++)
      compiled += loc->cff.comp[g] >= 2;
    printf("%s: %u draws from the decoded-charstring cache, %u differ from the bytes; %u pen "
           "draws, %u of %u glyphs compiled, max diff %g (relative %g), %u differ; arena %zu "
           "of %zu cells\n",
           i < 4 ? test_fonts[i] : cached[i - 4], draws, bad, pen_draws, compiled, info.glyph_count,
           pen_max, pen_rel, pen_bad, loc->cff.cell_used, loc->cff.cell_cap);
    CHECK_EQ(bad, 0);
    CHECK_EQ(pen_bad, 0);
    CHECK(compiled > 0); /* the compiled path was taken */
    otv_location_destroy(ref);
    close_font(f, loc);
  }
}

/* OTV_CFF_DUMP=DIR writes the fixture fonts there (seeds for fuzz/corpus/cff). */
static void dump(const char *dir, const char *name)
{
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  h_write_file(path, font_buf, font_len);
}

static void dump_fixtures(const char *dir)
{
  static uint8_t cff[4096];
  unsigned ng = sizeof c1_glyphs / sizeof c1_glyphs[0];
  build_cff1_font(cff, make_cff1(cff), ng);
  dump(dir, "fixture-cff1.otf");
  build_cff1_font(cff, make_cff1_cid(cff), ng);
  dump(dir, "fixture-cff1-cid.otf");
  unsigned nar = sizeof ar_glyphs / sizeof ar_glyphs[0];
  build_cff1_font(cff, make_cff1_with(cff, ar_glyphs, nar, c1_subrs, 1), nar);
  dump(dir, "fixture-cff1-arith.otf");
  with_fanout = false;
  build_default_cff2();
  with_fanout = true;
  dump(dir, "fixture-cff2.otf");
}

/* ---- cff_data.h / cff_write.h on their own ---- */

/* The nibbles of a decimal string (digits . E E- -) after OTV_CFF_REAL, padded with 0xf. */
static size_t real_bytes(const char *str, uint8_t *out)
{
  uint8_t nib[128];
  size_t k = 0;
  for (const char *c = str; *c; c++) {
    if (*c >= '0' && *c <= '9')
      nib[k++] = (uint8_t)(*c - '0');
    else if (*c == '.')
      nib[k++] = 0xa;
    else if (*c == '-')
      nib[k++] = 0xe;
    else if (*c == 'E' && c[1] == '-')
      nib[k++] = 0xc, c++;
    else if (*c == 'E')
      nib[k++] = 0xb;
  }
  nib[k++] = 0xf;
  if (k & 1) nib[k++] = 0xf;
  out[0] = 30;
  for (size_t i = 0; i < k; i += 2) out[1 + i / 2] = (uint8_t)(nib[i] << 4 | nib[i + 1]);
  return 1 + k / 2;
}

/* One DICT record: the operands of dict[0..n) up to its operator. */
static int dict_one(const uint8_t *dict, size_t n, bool cff2, otv_cff_dict *d, otv_error *e)
{
  CHECK(otv_cff_dict_init(d, otv_span_of(dict, n), OTV_T_CFF2, 0, n, cff2, NULL));
  return otv_cff_dict_next(d, e);
}

static void test_dict_numbers(void)
{
  /* 0 (139), 108 (247 0), -108 (251 0), 1131 (250 255), -1131 (254 255), 32767 (28), -32768,
   * 65536 (29), then FontMatrix (12 7) and the end */
  static const uint8_t dict[] = {139,  247, 0,    251, 0,  250, 255, 254, 255, 28, 0x7f,
                                 0xff, 28,  0x80, 0,   29, 0,   1,   0,   0,   12, 7};
  static otv_cff_dict d;
  otv_error e = {0};
  CHECK_EQ(dict_one(dict, sizeof dict, false, &d, &e), OTV_DICT_FONTMATRIX);
  CHECK_EQ(d.n, 8);
  const double want[] = {0, 108, -108, 1131, -1131, 32767, -32768, 65536};
  for (unsigned i = 0; i < 8 && i < d.n; i++) CHECK(d.args[i] == want[i]);
  CHECK_EQ(otv_cff_dict_next(&d, &e), OTV_DICT_END);
  CHECK_EQ(e.code, OTV_E_OK);
  size_t off = 1;
  CHECK(!otv_cff_dict_offset(&d, 0, &off)); /* no operands left after the end */

  /* reals: exactly what strtod reads where the digits fit (the nearest double) */
  static const char *const reals[] = {
      "0.001", "0.000488281", "0.039625", "-0.5", "1E-3",  "2.5E2",       "-2.5E-3",         "0",
      "-0",    "100",         ".5",       "1E22", "1E-22", "65535.99998", "3.14159265358979"};
  for (size_t i = 0; i < sizeof reals / sizeof reals[0]; i++) {
    uint8_t b[64];
    size_t n = real_bytes(reals[i], b);
    b[n++] = OTV_DICT_BLUESCALE >= OTV_CFF_ESC(0) ? OTV_CFF_ESCAPE : 0;
    b[n++] = OTV_DICT_BLUESCALE - OTV_CFF_ESC(0);
    otv_error e2 = {0};
    CHECK_EQ(dict_one(b, n, false, &d, &e2), OTV_DICT_BLUESCALE);
    CHECK_EQ(d.n, 1);
    double exact = strtod(reals[i], NULL); /* the C locale: '.' */
    if (d.n == 1 && d.args[0] != exact)
      fprintf(stderr, "real %s: %.17g, strtod %.17g\n", reals[i], d.args[0], exact);
    CHECK(d.n == 1 && d.args[0] == exact);
  }
  /* more than 19 digits: approximate, within a few units in the last place */
  {
    uint8_t b[64];
    size_t n = real_bytes("123456789012345678901234.5", b);
    b[n++] = 6;
    CHECK_EQ(dict_one(b, n, false, &d, &e), 6);
    CHECK_NEAR(d.args[0] / 123456789012345678901234.5, 1.0, 1e-15);
  }

  /* errors: the table and the byte at fault */
  static const struct {
    uint8_t b[8];
    size_t n;
    otv_status code;
    uint64_t offset;
  } bad[] = {
      {{0x1e, 0x1d, 0xff, 6}, 4, OTV_E_BAD_VALUE, 1}, /* the reserved nibble 0xd */
      {{139, 0x1e, 0x12}, 3, OTV_E_TRUNCATED, 1},     /* a real without its end */
      {{139, 31, 6}, 3, OTV_E_BAD_VALUE, 1},          /* reserved byte 31 */
      {{255, 6}, 2, OTV_E_BAD_VALUE, 0},              /* reserved byte 255 */
      {{139, 12}, 2, OTV_E_TRUNCATED, 1},             /* an escape at the end */
      {{139, 28, 1}, 3, OTV_E_TRUNCATED, 1},          /* shortint cut off */
      {{29, 1, 2, 3}, 4, OTV_E_TRUNCATED, 0},         /* longint cut off */
      {{139, 247}, 2, OTV_E_TRUNCATED, 1},            /* two-byte operand cut off */
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    otv_error e2 = {0};
    CHECK_EQ(dict_one(bad[i].b, bad[i].n, false, &d, &e2), OTV_DICT_ERROR);
    CHECK_EQ(e2.code, bad[i].code);
    CHECK_EQ(e2.table, OTV_T_CFF2);
    CHECK_EQ(e2.offset, bad[i].offset);
  }
  /* reserved operators 22..27 of a CFF DICT are returned (the caller skips them) */
  static const uint8_t res[] = {139, 25};
  CHECK_EQ(dict_one(res, sizeof res, false, &d, &e), 25);
  /* operand limits: 48 in CFF, 513 in CFF2 */
  static uint8_t many[600];
  memset(many, 139, sizeof many);
  many[49] = 6;
  otv_error e3 = {0};
  CHECK_EQ(dict_one(many, 50, false, &d, &e3), OTV_DICT_ERROR);
  CHECK_EQ(e3.code, OTV_E_LIMIT);
  CHECK_EQ(dict_one(many, 50, true, &d, &e), 6);
  CHECK_EQ(d.n, 49);
  many[49] = 139;
  many[514] = 6;
  otv_error e4 = {0};
  CHECK_EQ(dict_one(many, 515, true, &d, &e4), OTV_DICT_ERROR);
  CHECK_EQ(e4.code, OTV_E_LIMIT);
  /* a DICT that does not fit its table */
  CHECK(!otv_cff_dict_init(&d, otv_span_of(res, 2), OTV_T_CFF2, 1, 2, false, NULL));
}

/* Scalars 0.5 and 0.25 for the two columns of ItemVariationData 1, 0 elsewhere. */
static double test_scalar(void *ud, unsigned vsindex, unsigned col)
{
  (*(unsigned *)ud)++;
  return vsindex == 1 ? (col == 0 ? 0.5 : 0.25) : 0.0;
}

static void test_dict_blend(void)
{
  otv_ivd data[2];
  memset(data, 0, sizeof data);
  data[0].region_index_count = 1;
  data[1].region_index_count = 2;
  otv_ivs ivs;
  memset(&ivs, 0, sizeof ivs);
  ivs.present = true;
  ivs.data_count = 2;
  ivs.data = data;
  /* vsindex 1; BlueValues 10 20 with deltas (1 2) (3 4), blended; then 7 and StdHW */
  static const uint8_t dict[] = {140, 22, 149, 159, 140, 141, 142, 143, 141, 23, 146, 6, 146, 10};
  static otv_cff_dict d;
  otv_error e = {0};
  /* the default location (no scalar): the deltas dropped */
  CHECK(otv_cff_dict_init(&d, otv_span_of(dict, sizeof dict), OTV_T_CFF2, 0, sizeof dict, true,
                          &ivs));
  CHECK_EQ(otv_cff_dict_next(&d, &e), OTV_DICT_VSINDEX);
  CHECK_EQ(d.vsindex, 1);
  CHECK_EQ(otv_cff_dict_next(&d, &e), OTV_DICT_BLUEVALUES);
  CHECK_EQ(d.n, 3);
  CHECK(d.args[0] == 10 && d.args[1] == 20 && d.args[2] == 7);
  CHECK_EQ(d.at, 2); /* the record starts with the blend's operands */
  CHECK_EQ(otv_cff_dict_next(&d, &e), OTV_DICT_STDHW);
  CHECK_EQ(otv_cff_dict_next(&d, &e), OTV_DICT_END);
  /* with scalars: 10 + 1 x 0.5 + 2 x 0.25, 20 + 3 x 0.5 + 4 x 0.25 */
  unsigned calls = 0;
  CHECK(otv_cff_dict_init(&d, otv_span_of(dict, sizeof dict), OTV_T_CFF2, 0, sizeof dict, true,
                          &ivs));
  d.scalar = test_scalar;
  d.scalar_ud = &calls;
  CHECK_EQ(otv_cff_dict_next(&d, &e), OTV_DICT_VSINDEX);
  CHECK_EQ(otv_cff_dict_next(&d, &e), OTV_DICT_BLUEVALUES);
  CHECK(d.args[0] == 11 && d.args[1] == 22.5 && d.args[2] == 7);
  CHECK_EQ(calls, 4);
  CHECK_EQ(e.code, OTV_E_OK);
  /* a blend whose count asks for more operands than there are; a blend without operands; a
   * vsindex without one */
  static const uint8_t bad1[] = {140, 22, 149, 159, 140, 142, 23};
  static const uint8_t bad2[] = {23};
  static const uint8_t bad3[] = {22};
  const uint8_t *bads[] = {bad1, bad2, bad3};
  const size_t lens[] = {sizeof bad1, sizeof bad2, sizeof bad3};
  const uint64_t at[] = {6, 0, 0};
  for (int i = 0; i < 3; i++) {
    otv_error e2 = {0};
    CHECK(otv_cff_dict_init(&d, otv_span_of(bads[i], lens[i]), OTV_T_CFF2, 0, lens[i], true, &ivs));
    int op;
    while ((op = otv_cff_dict_next(&d, &e2)) >= 0) continue;
    CHECK_EQ(op, OTV_DICT_ERROR);
    CHECK_EQ(e2.code, OTV_E_BAD_VALUE);
    CHECK_EQ(e2.offset, at[i]);
  }
  /* in a CFF DICT, 22 and 23 are reserved operators, returned as they are */
  CHECK(otv_cff_dict_init(&d, otv_span_of(bad1, sizeof bad1), OTV_T_CFF, 0, sizeof bad1, false,
                          &ivs));
  CHECK_EQ(otv_cff_dict_next(&d, &e), 22);
  CHECK_EQ(otv_cff_dict_next(&d, &e), 23);
  CHECK_EQ(d.n, 4);
}

static void test_cs_tokens(void)
{
  /* rmoveto, escape flex, 0, 255 16.16 1.5, 28 -2, 247 0, and cut-off forms */
  static const uint8_t cs[] = {21, 12, 35, 139, 255, 0, 1, 0x80, 0, 28, 0xff, 0xfe, 247, 0};
  const uint8_t *p = cs, *end = cs + sizeof cs;
  const int ops[] = {OTV_CS_RMOVETO, OTV_CS_FLEX,   OTV_CS_NUMBER,
                     OTV_CS_NUMBER,  OTV_CS_NUMBER, OTV_CS_NUMBER};
  const double vals[] = {0, 0, 0, 1.5, -2, 108};
  const size_t lens[] = {1, 2, 1, 5, 3, 2};
  for (int i = 0; i < 6; i++) {
    int op = 0;
    double v = 0;
    size_t len = otv_cs_token(p, end, &op, &v);
    CHECK_EQ(len, lens[i]);
    CHECK_EQ(op, ops[i]);
    if (op == OTV_CS_NUMBER) CHECK(v == vals[i]);
    p += len;
  }
  CHECK(p == end);
  /* every multi-byte form cut off by the end */
  static const uint8_t cut[][4] = {{12}, {28, 1}, {255, 0, 0, 0}, {250}};
  static const size_t cut_len[] = {1, 2, 4, 1};
  for (int i = 0; i < 4; i++) {
    int op;
    double v;
    CHECK_EQ(otv_cs_token(cut[i], cut[i] + cut_len[i], &op, &v), 0);
  }
}

static void test_cff_writers(void)
{
  otv_alloc al;
  otv_alloc_init(&al, NULL);
  otv_buf b;
  otv_buf_init(&b, &al);
  /* every int16 in its shortest form, read back as a charstring token */
  bool ok = true;
  for (long i = -32768; i <= 32767 && ok; i++) {
    /* 5 bytes: the longest token (a 255 fixed); gcc -O2 cannot see that 3 are read */
    uint8_t w[5] = {0}, *e = otv_cff_put_int(w, i);
    size_t want = i >= -107 && i <= 107 ? 1 : i >= -1131 && i <= 1131 ? 2 : 3;
    int op;
    double v = 0;
    size_t len = otv_cs_token(w, e, &op, &v);
    ok = (size_t)(e - w) == want && len == want && op == OTV_CS_NUMBER && v == (double)i;
    if (!ok) fprintf(stderr, "otv_cff_put_int(%ld): %zu bytes, read %g\n", i, len, v);
  }
  CHECK(ok);
  /* DICT numbers: integers exact (longint past int16), reals to 8 significant digits */
  static const double nums[] = {0,        -107,   1131,         -32768,  32767,
                                65536,    -70000, 2147483647.0, 0.001,   -2.5e-3,
                                0.039625, 1e-10,  123456.789,   -1.5e20, 0.000488281};
  const size_t nn = sizeof nums / sizeof nums[0];
  for (size_t i = 0; i < nn; i++) otv_cff_dict_put_num(&b, nums[i]);
  otv_cff_put_op(&b, OTV_DICT_FONTMATRIX);
  otv_cff_dict_put_offset(&b, 123);
  otv_cff_put_op(&b, OTV_DICT_CHARSTRINGS);
  CHECK(!b.failed);
  static otv_cff_dict d;
  otv_error e = {0};
  CHECK(otv_cff_dict_init(&d, otv_span_of(b.p, b.len), OTV_T_CFF2, 0, b.len, true, NULL));
  CHECK_EQ(otv_cff_dict_next(&d, &e), OTV_DICT_FONTMATRIX);
  CHECK_EQ(d.n, nn);
  for (size_t i = 0; i < nn && i < d.n; i++) {
    if (nums[i] == floor(nums[i]) && fabs(nums[i]) < 2147483648.0)
      CHECK(d.args[i] == nums[i]);
    else
      CHECK_NEAR(d.args[i] / nums[i], 1.0, 1e-8);
  }
  size_t at = d.pos;
  CHECK_EQ(otv_cff_dict_next(&d, &e), OTV_DICT_CHARSTRINGS);
  CHECK_EQ(d.pos - at, OTV_CFF_DICT_OFFSET_LEN + 1);
  size_t off = 0;
  CHECK(otv_cff_dict_offset(&d, 0, &off) == false); /* 123 > the DICT's 'table' */
  CHECK(d.args[0] == 123);
  CHECK_EQ(otv_cff_dict_next(&d, &e), OTV_DICT_END);
  /* charstring numbers: integers, 16.16 otherwise */
  b.len = 0;
  /* (40000.5: beyond 16.16, clamped to the largest) */
  static const double csn[] = {3, 3.0000000001, 0.5, -100.25, 40000.5, -7};
  static const double csv[] = {3, 3, 0.5, -100.25, 2147483647.0 / 65536, -7};
  static const size_t csl[] = {1, 1, 5, 5, 5, 1};
  for (size_t i = 0; i < 6; i++) otv_cs_put_num(&b, csn[i]);
  otv_cff_put_op(&b, OTV_CS_HFLEX1);
  CHECK(!b.failed);
  const uint8_t *p = b.p, *end = b.p + b.len;
  for (size_t i = 0; i < 6; i++) {
    int op;
    double v = 0;
    size_t len = otv_cs_token(p, end, &op, &v);
    CHECK_EQ(len, csl[i]);
    CHECK(op == OTV_CS_NUMBER && v == csv[i]);
    p += len;
  }
  int op;
  double v;
  CHECK_EQ(otv_cs_token(p, end, &op, &v), 2);
  CHECK_EQ(op, OTV_CS_HFLEX1);
  /* CFF2 INDEXes: the length computed ahead, and read back by the parser; offSize grows */
  static const unsigned sizes[] = {0, 3, 300, 70000};
  for (int k = 0; k < 4; k++) {
    otv_buf data, ix;
    otv_buf_init(&data, &al);
    otv_buf_init(&ix, &al);
    uint32_t offs[4] = {0};
    uint32_t count = sizes[k] ? 3 : 0;
    for (uint32_t i = 0; i < count; i++) {
      offs[i] = (uint32_t)data.len;
      for (unsigned j = 0; j < sizes[k] / 3 + i; j++) otv_buf_u8(&data, (uint8_t)(i + j));
    }
    offs[count] = (uint32_t)data.len;
    otv_cff2_put_index(&ix, &data, offs, count);
    CHECK(!ix.failed);
    CHECK_EQ(ix.len, otv_cff2_index_len(count, data.len));
    otv_cff_index r;
    otv_error e2 = {0};
    CHECK_EQ(otv_cff_index_parse(otv_span_of(ix.p, ix.len), OTV_T_CFF2, 0, true, &r, "test", &e2),
             OTV_E_OK);
    CHECK_EQ(r.count, count);
    CHECK_EQ(r.end, ix.len);
    if (count) CHECK_EQ(r.off_size, otv_cff_off_size(data.len + 1));
    for (uint32_t i = 0; i < count; i++) {
      otv_span item = {0};
      CHECK(otv_cff_index_get(&r, i, &item));
      CHECK_EQ(item.len, offs[i + 1] - offs[i]);
      CHECK(item.len == 0 || !memcmp(item.p, data.p + offs[i], item.len));
    }
    otv_buf_free(&data);
    otv_buf_free(&ix);
  }
  CHECK_EQ(otv_cff_off_size(255), 1);
  CHECK_EQ(otv_cff_off_size(256), 2);
  CHECK_EQ(otv_cff_off_size(65536), 3);
  CHECK_EQ(otv_cff_off_size(16777216), 4);
  otv_buf_free(&b);
}

/* otv_options on a CFF2 font: OTV_OPT_NO_OUTLINE_CACHES (no decoded subroutines, no compiled
 * glyphs) and OTV_OPT_OUTLINE_CACHE_KIB (the arena within the bound) draw the outlines of the
 * default location (compiled glyphs within float ulps); the default sets its caches up at the
 * first glyph drawn twice and compiles a glyph on its T + 1-th draw after that, not before: T =
 * 7 for this font (its ItemVariationDatas have 5 regions each: 6 + 6 / 4, charstring.c). */
static void test_cache_options(void)
{
  otv_options none = {NULL, NULL, OTV_OPT_NO_OUTLINE_CACHES};
  otv_options capped = {NULL, NULL, OTV_OPT_OUTLINE_CACHE_KIB(16)};
  const char *path = h_font("AdobeVFPrototype_vsindex.otf");
  otv_location *ld, *ln, *lc;
  otv_face *fd = open_font(path, NULL, &ld), *fn = open_font(path, &none, &ln),
           *fc = open_font(path, &capped, &lc);
  if (!ld || !ln || !lc) goto out;
  otv_face_info info;
  otv_face_get_info(fd, &info);
  unsigned axes = info.axis_count < 16 ? info.axis_count : 16, bad = 0, draws = 0, compiled = 0;
  uint32_t ng = info.glyph_count < 300 ? info.glyph_count : 300;
  const unsigned t = 7;
  for (unsigned li = 0; li < t + 2; li++) {
    otv_f2dot14 c[16] = {0};
    for (unsigned a = 0; a < axes; a++) c[a] = (otv_f2dot14)(li & 1 ? 9000 - 3000 * (int)a : -6000);
    CHECK_EQ(otv_location_set_normalized(ld, c, axes), OTV_E_OK);
    CHECK_EQ(otv_location_set_normalized(ln, c, axes), OTV_E_OK);
    CHECK_EQ(otv_location_set_normalized(lc, c, axes), OTV_E_OK);
    for (uint32_t g = 0; g < ng; g++, draws++) {
      double rd, rc;
      bool counted = ld->cff.comp && ld->cff.comp[g] > 1;
      double dd = pen_vs_uncached(ld, ln, g, &rd), dc = pen_vs_uncached(lc, ln, g, &rc);
      if (dd < 0 || dc < 0 || rd > 1e-6 || rc > 1e-6) bad++;
      /* the first draws without the cache (set up at the first glyph drawn again: li 1),
       * then draws 1-t interpreted (counted), the next compiles (li == t + 1) */
      if (li == 0) CHECK(ld->cff.cells == NULL && ld->cff.comp == NULL);
      if (li >= 1) CHECK_EQ(ld->cff.comp_draws, t);
      if (li >= 1 && li <= t && ld->cff.comp) CHECK(ld->cff.comp[g] == UINT32_MAX - li);
      if (li == t + 1 && counted && ld->cff.comp) {
        CHECK(ld->cff.comp[g] < UINT32_MAX - t);
        compiled += ld->cff.comp[g] >= 2;
      }
    }
  }
  CHECK(draws > 0);
  CHECK(compiled > 0);
  CHECK_EQ(bad, 0);
  CHECK(ln->cff.cells == NULL && ln->cff.comp == NULL && ln->cff.comp_scratch == NULL);
  CHECK(lc->cff.cells != NULL && lc->cff.cell_cap <= 16384 / sizeof(otv_cs_cell));
  CHECK(ld->cff.cells != NULL && ld->cff.comp_scratch != NULL);
out:
  close_font(fd, ld);
  close_font(fn, ln);
  close_font(fc, lc);
}

/* A blend whose delta operands are other blends' results (cff2_nested_blend.otf, made by
 * tests/fonts/make_cff2_nested_blend.py): the outline is quadratic in the scalars, not affine,
 * so the glyph must never be compiled; every draw at a location, past the compile threshold,
 * equals the draw of a face without caches. */
static void test_nested_blend_not_compiled(void)
{
  otv_options none = {NULL, NULL, OTV_OPT_NO_OUTLINE_CACHES};
  const char *path = h_font("cff2_nested_blend.otf");
  otv_location *ld, *ln;
  otv_face *fd = open_font(path, NULL, &ld), *fn = open_font(path, &none, &ln);
  if (!ld || !ln) goto out;
  static const otv_f2dot14 at[3][2] = {{16384, 16384}, {8192, 12288}, {13000, 4096}};
  unsigned bad = 0, draws = 0;
  for (unsigned li = 0; li < 3; li++) {
    CHECK_EQ(otv_location_set_normalized(ld, at[li], 2), OTV_E_OK);
    CHECK_EQ(otv_location_set_normalized(ln, at[li], 2), OTV_E_OK);
    for (unsigned rep = 0; rep < 24; rep++)
      for (uint32_t g = 1; g < 5; g++, draws++) {
        double rel, d = pen_vs_uncached(ld, ln, g, &rel);
        if (d < 0 || rel > 1e-6) {
          if (!bad)
            fprintf(stderr, "nested blend: glyph %u draw %u at %u differs by %g\n", g, rep, li, d);
          bad++;
        }
      }
  }
  CHECK(draws == 3 * 24 * 4);
  CHECK_EQ(bad, 0);
out:
  close_font(fd, ld);
  close_font(fn, ln);
}

/* ---- the subroutine offsets decoded at open (otv_cff.offs_block) ---- */

/* Every INDEX with a table: each element as otv_cff_index_get reads it from the bytes. */
static void check_offs(const otv_cff_index *ix, const uint32_t *o)
{
  for (uint32_t i = 0; i < ix->count; i++) {
    otv_span sp;
    bool got = otv_cff_index_get(ix, i, &sp);
    CHECK(got);
    if (!got) continue;
    CHECK(sp.p == ix->data + o[i]);
    CHECK_EQ(sp.len, (size_t)(o[i + 1] - o[i]));
  }
}

static void test_subr_offs(void)
{
  /* the fixture (5 global, 2 local subroutines) and real fonts: every element the same */
  build_default_cff2();
  otv_face *f = NULL;
  CHECK_EQ(otv_face_open_memory(font_buf, font_len, 0, NULL, &f, NULL), OTV_E_OK);
  if (!f) return;
  CHECK(f->cff.gsubr_offs != NULL);
  CHECK(f->cff.fds[0].subr_offs != NULL);
  if (f->cff.gsubr_offs) check_offs(&f->cff.gsubrs, f->cff.gsubr_offs);
  if (f->cff.fds[0].subr_offs) check_offs(&f->cff.fds[0].subrs, f->cff.fds[0].subr_offs);
  otv_face_close(f);
  static const char *const fonts[] = {"AdobeVFPrototype_vsindex.otf", "NotoSansJP-VF.subset.otf",
                                      "CFF2Instancer-VF-1.otf"};
  for (size_t i = 0; i < sizeof fonts / sizeof fonts[0]; i++) {
    f = NULL;
    CHECK_EQ(otv_face_open_file(h_font(fonts[i]), 0, NULL, &f, NULL), OTV_E_OK);
    if (!f) continue;
    const otv_cff *c = &f->cff;
    CHECK(c->gsubrs.count == 0 || c->gsubr_offs != NULL);
    if (c->gsubr_offs) check_offs(&c->gsubrs, c->gsubr_offs);
    for (uint32_t d = 0; d < c->fd_count; d++) {
      CHECK(c->fds[d].subrs.count == 0 || c->fds[d].subr_offs != NULL);
      if (c->fds[d].subr_offs) check_offs(&c->fds[d].subrs, c->fds[d].subr_offs);
    }
    otv_face_close(f);
  }
  /* hostile: global subroutine 1's end offset below its start (out of order): that INDEX is
   * read from its bytes (NULL), the local one still decoded; glyph 4 (calls global and local
   * subroutines) draws as before and a glyph calling global subroutine 1 fails as before */
  build_default_cff2();
  otv_face *g = NULL;
  CHECK_EQ(otv_face_open_memory(font_buf, font_len, 0, NULL, &g, NULL), OTV_E_OK);
  size_t gs = 5 + ((size_t)cff2_tab[3] << 8 | cff2_tab[4]); /* the Global Subrs INDEX */
  unsigned osz = cff2_tab[gs + 4];
  CHECK(osz == 1 || osz == 2);
  /* offset 2 (the end of subroutine 1) set to offset 1 - 1 */
  uint8_t *o1 = &cff2_tab[gs + 5 + osz], *o2 = &cff2_tab[gs + 5 + 2 * osz];
  unsigned v1 = osz == 1 ? o1[0] : (unsigned)(o1[0] << 8 | o1[1]);
  if (osz == 1)
    o2[0] = (uint8_t)(v1 - 1);
  else
    o2[0] = (uint8_t)((v1 - 1) >> 8), o2[1] = (uint8_t)(v1 - 1);
  build_cff2_font(cff2_tab, cff2_len, (unsigned)nglyphs);
  f = NULL;
  CHECK_EQ(otv_face_open_memory(font_buf, font_len, 0, NULL, &f, NULL), OTV_E_OK);
  if (f && g) {
    CHECK(f->cff.gsubr_offs == NULL);
    CHECK(f->cff.fds[0].subr_offs != NULL);
    otv_location *a = NULL, *b = NULL;
    CHECK_EQ(otv_location_create(f, &a, NULL), OTV_E_OK);
    CHECK_EQ(otv_location_create(g, &b, NULL), OTV_E_OK);
    rec ra = {{0}, 0}, rb = {{0}, 0};
    CHECK_EQ(otv_glyph_outline(a, 4, 0, &r_pen, &ra), otv_glyph_outline(b, 4, 0, &r_pen, &rb));
    CHECK_STR(ra.s, rb.s);
    otv_span sp;
    CHECK(!otv_cff_index_get(&f->cff.gsubrs, 1, &sp));
    CHECK(otv_cff_index_get(&f->cff.gsubrs, 0, &sp));
    otv_location_destroy(a);
    otv_location_destroy(b);
  }
  if (f) otv_face_close(f);
  if (g) otv_face_close(g);
}

/* Compiled glyphs in int16 (charstring.c comp_build, comp_narrow: when the arena's bound is
 * below the font's need). NotoSansJP-VF.subset.otf with an 8 KiB bound (its need: 14 KiB): its
 * compiled glyphs are int16, and draw the same floats as the default face's float ones, bit for bit
 * (each value converts to the same double, the sums are the same). Source Serif 4 CFF2 (from
 * $OTV_FONT_CACHE): at the default 4 MiB bound every glyph compiles (as float, 5.3 MB, most of them
 * did not fit: 1192 of 1464 compiled), within float ulps of the bytes. */
static void test_compiled_narrow(void)
{
  otv_options capped = {NULL, NULL, OTV_OPT_OUTLINE_CACHE_KIB(8)};
  otv_options none = {NULL, NULL, OTV_OPT_NO_OUTLINE_CACHES};
  const char *path = h_font("NotoSansJP-VF.subset.otf");
  otv_location *ld, *lc;
  otv_face *fd = open_font(path, NULL, &ld), *fc = open_font(path, &capped, &lc);
  if (ld && lc) {
    otv_face_info info;
    otv_face_get_info(fd, &info);
    unsigned axes = info.axis_count < 16 ? info.axis_count : 16, bad = 0, both = 0, narrow = 0;
    uint32_t ng = info.glyph_count < 300 ? info.glyph_count : 300;
    for (unsigned li = 0; li < 12; li++) {
      otv_f2dot14 c[16] = {0};
      for (unsigned a = 0; a < axes; a++)
        c[a] = (otv_f2dot14)(li & 1 ? 9000 - 3000 * (int)a : -6000 + 1000 * (int)li);
      CHECK_EQ(otv_location_set_normalized(ld, c, axes), OTV_E_OK);
      CHECK_EQ(otv_location_set_normalized(lc, c, axes), OTV_E_OK);
      for (uint32_t g = 0; g < ng; g++) {
        double rel, d = pen_vs_uncached(lc, ld, g, &rel);
        if (d != 0) bad++;
        if (li == 11 && ld->cff.comp && lc->cff.comp && ld->cff.comp[g] >= 2 &&
            ld->cff.comp[g] < UINT32_MAX - 64 && lc->cff.comp[g] >= 2 &&
            lc->cff.comp[g] < UINT32_MAX - 64) {
          both++;
          /* {coordinates, segments}, {regions with deltas, reserved | storage bits} */
          CHECK_EQ(ld->cff.cells[ld->cff.comp[g] - 1].h.off & 0x40000000u, 0);
          narrow += (lc->cff.cells[lc->cff.comp[g] - 1].h.off & 0x40000000u) != 0;
        }
      }
    }
    printf("compiled narrow: %u glyphs compiled in both, %u as int16, %u draws differ\n", both,
           narrow, bad);
    CHECK(!ld->cff.comp_narrow && lc->cff.comp_narrow);
    CHECK(both > 0);
    CHECK(narrow == both);
    CHECK_EQ(bad, 0);
  }
  close_font(fd, ld);
  close_font(fc, lc);

  char sp[4096];
  if (!cached_font("SourceSerif4Variable-Roman.otf", sp, sizeof sp)) return;
  otv_location *ls, *ln;
  otv_face *fs = open_font(sp, NULL, &ls), *fn = open_font(sp, &none, &ln);
  if (ls && ln) {
    otv_face_info info;
    otv_face_get_info(fs, &info);
    static const otv_f2dot14 at[2] = {9000, -5000};
    CHECK_EQ(otv_location_set_normalized(ls, at, 2), OTV_E_OK);
    CHECK_EQ(otv_location_set_normalized(ln, at, 2), OTV_E_OK);
    /* the first draw marks, the set-up at the second, T = 11 interpreted, then compiled (at
     * the 14th draw for a few: the arena was growing at their 13th) */
    for (unsigned rep = 0; rep < 14; rep++)
      for (uint32_t g = 0; g < info.glyph_count; g++) {
        static seg_rec r;
        r.n = 0, r.over = false;
        CHECK_EQ(otv_glyph_outline(ls, g, 0, &sr_pen, &r), OTV_E_OK);
      }
    unsigned compiled = 0, bad = 0;
    double worst = 0;
    for (uint32_t g = 0; g < info.glyph_count; g++) {
      compiled += ls->cff.comp && ls->cff.comp[g] >= 2 && ls->cff.comp[g] < UINT32_MAX - 64;
      double rel, d = pen_vs_uncached(ls, ln, g, &rel);
      if (d < 0 || rel > 1e-6) bad++;
      if (rel > worst) worst = rel;
    }
    printf("SourceSerif4Variable-Roman.otf: %u of %u glyphs compiled, arena %zu of %zu cells, "
           "%u differ from the bytes (relative %g)\n",
           compiled, info.glyph_count, ls->cff.cell_used, ls->cff.cell_cap, bad, worst);
    CHECK(ls->cff.comp_narrow);
    CHECK_EQ(compiled, info.glyph_count);
    CHECK(ls->cff.cell_cap * sizeof(otv_cs_cell) <= 4u << 20);
    CHECK_EQ(bad, 0);
  }
  close_font(fs, ls);
  close_font(fn, ln);
}

int main(void)
{
  test_cache_options();
  test_compiled_narrow();
  test_nested_blend_not_compiled();
  if (getenv("OTV_CFF_DUMP")) dump_fixtures(getenv("OTV_CFF_DUMP"));
  test_cff2_fixture();
  test_private_vsindex();
  test_cff1_fixture();
  test_cff1_cid();
  test_cff1_arith();
  test_cff2_no_arith();
  test_fontmatrix_fonts();
  test_fontmatrix_cid();
  test_sweeps();
  test_alloc_failures();
  test_real_fonts();
  test_subr_blend();
  test_subr_offs();
  test_cache_real_fonts();
  test_dict_numbers();
  test_dict_blend();
  test_cs_tokens();
  test_cff_writers();
  return h_done("test_cff");
}

/*
 * test_layout.c - the layout writer (layout.h) on a GPOS built here byte by byte: one PairPos
 * lookup (not an Extension lookup) with two class-pair sub-tables of 50 KB, each with its own copy
 * of the same ClassDef2, the second covering some glyphs the first covers too. The source is valid
 * as it is laid out (the second sub-table starts 54 KB after the Lookup). Written for a static
 * instance, the two sub-tables share one class matrix that is cut again into sub-tables as large as
 * offsets allow (placed so that one Lookup still reaches them). Checked: the kerning of 4000 glyph
 * pairs (evaluated here from the bytes, as a client does: the first sub-table whose Coverage has
 * the first glyph applies) is the same in the source and in every output; the output types; a table
 * written as read and written again gives the same bytes. Then the same with records that hold only
 * a VariationIndex device: a partial instance adds the XAdvance their delta goes to, the sub-tables
 * double, are split to fit, and the lookup must be promoted.
 */
#include "harness.h"
#include "layout.h"

enum { GLYPHS = 2000, C1 = 100, C2 = 250, ROWS_GLYPHS = 10 };

typedef struct bytes {
  uint8_t *p;
  size_t len, cap;
} bytes;

static void put16(bytes *b, unsigned v)
{
  if (b->len + 2 > b->cap) {
    b->cap = b->cap ? 2 * b->cap : 4096;
    b->p = realloc(b->p, b->cap);
    if (!b->p) exit(1);
  }
  b->p[b->len++] = (uint8_t)(v >> 8);
  b->p[b->len++] = (uint8_t)v;
}
static void set16(bytes *b, size_t at, unsigned v)
{
  b->p[at] = (uint8_t)(v >> 8);
  b->p[at + 1] = (uint8_t)v;
}
static void put_tag(bytes *b, const char *t)
{
  put16(b, (unsigned)t[0] << 8 | (unsigned char)t[1]);
  put16(b, (unsigned)t[2] << 8 | (unsigned char)t[3]);
}

static unsigned class2_of(unsigned g) { return (g * 13u) % C2; }
static int value_of(unsigned sub, unsigned c1, unsigned c2)
{
  return (int)((c1 * 7 + c2 * 3 + sub * 11) % 200) - 100;
}

/* Sub-table `sub` (0 or 1): first glyphs [first, first + C1 * ROWS_GLYPHS), class1 by rows of
 * ROWS_GLYPHS glyphs, then its Coverage, ClassDef1 and its own ClassDef2 copy. Records: an
 * XAdvance, or (devices) only an XAdvDevice: a VariationIndex table, DEVICES of them after the
 * ClassDef2. */
enum { DEVICES = 8 };
static void put_pairpos(bytes *b, unsigned sub, unsigned first, bool devices)
{
  size_t at = b->len;
  put16(b, 2);
  size_t cov = b->len;
  put16(b, 0);
  put16(b, devices ? 0x0040 : 0x0004); /* XAdvDevice, or XAdvance */
  put16(b, 0);
  size_t cd1 = b->len;
  put16(b, 0);
  put16(b, 0);
  put16(b, C1);
  put16(b, C2);
  size_t matrix = b->len;
  for (unsigned r = 0; r < C1; r++)
    for (unsigned c = 0; c < C2; c++) put16(b, (unsigned)value_of(sub, r, c) & 0xFFFF);
  set16(b, cov, (unsigned)(b->len - at)); /* Coverage format 2: one range */
  put16(b, 2);
  put16(b, 1);
  put16(b, first);
  put16(b, first + C1 * ROWS_GLYPHS - 1);
  put16(b, 0);
  set16(b, cd1, (unsigned)(b->len - at)); /* ClassDef1 format 2: a range per class but 0 */
  put16(b, 2);
  put16(b, C1 - 1);
  for (unsigned r = 1; r < C1; r++) {
    put16(b, first + r * ROWS_GLYPHS);
    put16(b, first + r * ROWS_GLYPHS + ROWS_GLYPHS - 1);
    put16(b, r);
  }
  set16(b, cd1 + 2, (unsigned)(b->len - at)); /* ClassDef2 format 1 over every glyph */
  put16(b, 1);
  put16(b, 0);
  put16(b, GLYPHS);
  for (unsigned g = 0; g < GLYPHS; g++) put16(b, class2_of(g));
  if (!devices) return;
  size_t dev = b->len - at;
  for (unsigned k = 0; k < DEVICES; k++) put16(b, 0), put16(b, k), put16(b, 0x8000);
  for (unsigned r = 0; r < C1; r++) /* each record: the device of its value */
    for (unsigned c = 0; c < C2; c++) {
      size_t rec = matrix + 2 * ((size_t)r * C2 + c);
      set16(b, rec, (unsigned)(dev + 6 * ((unsigned)(value_of(sub, r, c) + 100) % DEVICES)));
    }
}

/* The delta a VariationIndex (0, inner) adds at the instance's default (the instancer's hook). */
static int test_delta(void *ud, unsigned outer, unsigned inner)
{
  (void)ud;
  return outer ? 0 : (int)inner * 3 - 10;
}

static bytes build_gpos(bool devices)
{
  bytes b = {NULL, 0, 0};
  put16(&b, 1), put16(&b, 0);
  put16(&b, 10), put16(&b, 0), put16(&b, 0); /* ScriptList at 10; the others set below */
  /* ScriptList: DFLT -> Script (default LangSys: feature 0) */
  put16(&b, 1), put_tag(&b, "DFLT"), put16(&b, 8);
  put16(&b, 4), put16(&b, 0);                                  /* Script */
  put16(&b, 0), put16(&b, 0xFFFF), put16(&b, 1), put16(&b, 0); /* LangSys */
  set16(&b, 6, (unsigned)b.len);                               /* FeatureList */
  size_t fl = b.len;
  put16(&b, 1), put_tag(&b, "kern"), put16(&b, 0);
  set16(&b, fl + 6, (unsigned)(b.len - fl));
  put16(&b, 0), put16(&b, 1), put16(&b, 0); /* Feature: lookup 0 */
  set16(&b, 8, (unsigned)b.len);            /* LookupList */
  size_t ll = b.len;
  put16(&b, 1), put16(&b, 4);
  size_t lk = b.len;
  put16(&b, 2), put16(&b, 0), put16(&b, 2), put16(&b, 0), put16(&b, 0);
  (void)ll;
  set16(&b, lk + 6, (unsigned)(b.len - lk));
  put_pairpos(&b, 0, 0, devices);
  set16(&b, lk + 8, (unsigned)(b.len - lk)); /* under 64 KiB: the source is valid */
  put_pairpos(&b, 1, 900, devices);          /* glyphs 900..999: the first sub-table's */
  return b;
}

/* ---- a client's view: the XAdvance lookup 0 gives the pair (g1, g2), or NONE ---- */
#define NONE 100000

static unsigned rd16(const uint8_t *p, size_t len, size_t at)
{
  CHECK(at + 2 <= len);
  return at + 2 <= len ? (unsigned)p[at] << 8 | p[at + 1] : 0;
}
static uint32_t rd32(const uint8_t *p, size_t len, size_t at)
{
  return (uint32_t)rd16(p, len, at) << 16 | rd16(p, len, at + 2);
}

static long coverage_index(const uint8_t *p, size_t len, size_t cov, unsigned g)
{
  unsigned fmt = rd16(p, len, cov), n = rd16(p, len, cov + 2);
  for (unsigned i = 0; i < n; i++) {
    if (fmt == 1 && rd16(p, len, cov + 4 + 2 * i) == g) return i;
    if (fmt == 2) {
      size_t r = cov + 4 + 6 * (size_t)i;
      unsigned s = rd16(p, len, r), e = rd16(p, len, r + 2);
      if (g >= s && g <= e) return (long)(rd16(p, len, r + 4) + g - s);
    }
  }
  return -1;
}

static unsigned class_of(const uint8_t *p, size_t len, size_t cd, unsigned g)
{
  unsigned fmt = rd16(p, len, cd);
  if (fmt == 1) {
    unsigned s = rd16(p, len, cd + 2), n = rd16(p, len, cd + 4);
    return g >= s && g - s < n ? rd16(p, len, cd + 6 + 2 * (size_t)(g - s)) : 0;
  }
  unsigned n = rd16(p, len, cd + 2);
  for (unsigned i = 0; i < n; i++) {
    size_t r = cd + 4 + 6 * (size_t)i;
    if (g >= rd16(p, len, r) && g <= rd16(p, len, r + 2)) return rd16(p, len, r + 4);
  }
  return 0;
}

static unsigned vr_len(unsigned fmt)
{
  unsigned n = 0;
  for (unsigned b = 0; b < 8; b++) n += (fmt >> b) & 1;
  return 2 * n;
}

static long kern(const uint8_t *p, size_t len, unsigned g1, unsigned g2, bool deltas,
                 unsigned *type_out)
{
  size_t ll = rd16(p, len, 8), lk = ll + rd16(p, len, ll + 2);
  unsigned type = rd16(p, len, lk), n = rd16(p, len, lk + 4);
  *type_out = type;
  for (unsigned i = 0; i < n; i++) {
    size_t st = lk + rd16(p, len, lk + 6 + 2 * i);
    if (type == 9) st += rd32(p, len, st + 4);
    CHECK_EQ(rd16(p, len, st), 2);
    if (coverage_index(p, len, st + rd16(p, len, st + 2), g1) < 0) continue;
    unsigned f1 = rd16(p, len, st + 4), f2 = rd16(p, len, st + 6);
    unsigned c1 = class_of(p, len, st + rd16(p, len, st + 8), g1);
    unsigned c2 = class_of(p, len, st + rd16(p, len, st + 10), g2);
    if (c1 >= rd16(p, len, st + 12) || c2 >= rd16(p, len, st + 14)) continue;
    size_t rec = st + 16 + ((size_t)c1 * rd16(p, len, st + 14) + c2) * (vr_len(f1) + vr_len(f2));
    /* the XAdvance field (after XPlacement and YPlacement when present), plus the delta of a
     * VariationIndex XAdvDevice when `deltas` (the source, seen at the instance's default) */
    long v = f1 & 4 ? (int16_t)rd16(p, len, rec + vr_len(f1 & 3)) : 0;
    if (deltas && (f1 & 0x40)) {
      size_t dev = st + rd16(p, len, rec + vr_len(f1 & 0x3F));
      if (rd16(p, len, dev + 4) == 0x8000)
        v += test_delta(NULL, rd16(p, len, dev), rd16(p, len, dev + 2));
    }
    return v;
  }
  return NONE;
}

static void check_same_kerning(const bytes *src, const otv_buf *out, const char *what,
                               unsigned *type)
{
  uint64_t s = 0x5EEDu;
  unsigned bad = 0, st;
  for (int k = 0; k < 4000; k++) {
    unsigned g1 = h_xorshift64(&s) % (GLYPHS + 100), g2 = h_xorshift64(&s) % GLYPHS;
    long a = kern(src->p, src->len, g1, g2, true, &st);
    long b = kern(out->p, out->len, g1, g2, false, type);
    if (a != b && bad++ < 5)
      fprintf(stderr, "%s: pair %u %u: source %ld, written %ld\n", what, g1, g2, a, b);
  }
  CHECK_EQ(bad, 0);
}

int main(void)
{
  bytes src = build_gpos(false);
  otv_alloc al;
  otv_alloc_init(&al, NULL);
  otv_span t = otv_span_of(src.p, src.len);
  CHECK(src.len > 0x10000); /* two 50 KB matrices */

  /* as read: every pair as in the source */
  otv_buf out;
  otv_buf_init(&out, &al);
  otv_error err = {0};
  CHECK_EQ(otv_layout_write(&al, OTV_T_GPOS, t, NULL, &out, &err), OTV_E_OK);
  unsigned type = 0;
  check_same_kerning(&src, &out, "as read", &type);
  /* written again, as read: the same bytes */
  otv_buf again;
  otv_buf_init(&again, &al);
  CHECK_EQ(otv_layout_write(&al, OTV_T_GPOS, otv_span_of(out.p, out.len), NULL, &again, &err),
           OTV_E_OK);
  CHECK(again.len == out.len && !memcmp(again.p, out.p, out.len));
  otv_buf_free(&again);

  /* a static instance: the class matrices merged, cut again, and the lookup promoted */
  otv_layout_xform xf;
  memset(&xf, 0, sizeof xf);
  xf.static_instance = true;
  xf.compact = true;
  otv_buf inst;
  otv_buf_init(&inst, &al);
  CHECK_EQ(otv_layout_write(&al, OTV_T_GPOS, t, &xf, &inst, &err), OTV_E_OK);
  check_same_kerning(&src, &inst, "static instance", &type);
  CHECK_EQ(type, 2); /* the smaller sub-table first: both within reach */
  size_t ll = rd16(inst.p, inst.len, 8), lk = ll + rd16(inst.p, inst.len, ll + 2);
  unsigned subtables = rd16(inst.p, inst.len, lk + 4);
  CHECK_EQ(subtables, 2); /* 190 rows of 500 bytes: two sub-tables under 64 KiB */
  /* one ClassDef2 per sub-table at most, and fewer bytes than the source (which had the
   * first glyphs of the overlap twice and two ClassDef1 of 99 ranges) */
  CHECK(inst.len < src.len);
  printf("source %zu bytes, as read %zu, static instance %zu (%u sub-tables)\n", src.len, out.len,
         inst.len, subtables);

  otv_buf_free(&out);
  otv_buf_free(&inst);
  free(src.p);

  /* a partial instance of sub-tables whose records are an XAdvDevice alone: each record gains
   * the XAdvance its delta goes to (and keeps its device), the 50 KB matrices become 100 KB,
   * are cut into sub-tables that fit, and those no longer fit behind one Lookup's 16-bit
   * offsets: the lookup is promoted to Extension */
  src = build_gpos(true);
  t = otv_span_of(src.p, src.len);
  xf.static_instance = false;
  xf.delta = test_delta;
  otv_buf_init(&inst, &al);
  CHECK_EQ(otv_layout_write(&al, OTV_T_GPOS, t, &xf, &inst, &err), OTV_E_OK);
  check_same_kerning(&src, &inst, "partial instance", &type);
  CHECK_EQ(type, 9);
  ll = rd16(inst.p, inst.len, 8), lk = ll + rd16(inst.p, inst.len, ll + 2);
  subtables = rd16(inst.p, inst.len, lk + 4);
  CHECK(subtables >= 4); /* 190 rows of 1000 bytes */
  printf("devices only: source %zu bytes, partial instance %zu (%u sub-tables)\n", src.len,
         inst.len, subtables);
  otv_buf_free(&inst);
  free(src.p);
  return h_done("test_layout");
}

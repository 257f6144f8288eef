/*
 * test_name.c - the name table: validation at open (records, storage, language tags), UTF-16BE
 * decoding with surrogate pairs and replacement of malformed units, Mac Roman, the lookup order
 * of otv_face_name, buffer truncation that never splits a UTF-8 sequence, truncation and
 * bad-offset sweeps.
 */
#include "harness.h"

/* ---- fixture builder: an sfnt with head, maxp and the given tables ---- */
#include "sfnt_fixture.h"

typedef struct rec {
  unsigned platform, encoding, language, name_id;
  const uint8_t *s;
  size_t len;
} rec;

/* name table version 0 (or 1 with one language tag) with the records in order. */
static void build_name(bb *b, const rec *r, unsigned n, unsigned version)
{
  b->n = 0;
  size_t storage = 6 + 12 * (size_t)n + (version ? 2 + 4 : 0);
  b16(b, version), b16(b, n), b16(b, (unsigned)storage);
  size_t off = 0;
  for (unsigned i = 0; i < n; i++) {
    b16(b, r[i].platform), b16(b, r[i].encoding), b16(b, r[i].language), b16(b, r[i].name_id);
    b16(b, (unsigned)r[i].len), b16(b, (unsigned)off);
    off += r[i].len;
  }
  if (version) b16(b, 1), b16(b, 4), b16(b, (unsigned)off); /* one tag: 4 bytes after strings */
  for (unsigned i = 0; i < n; i++) {
    memcpy(b->b + b->n, r[i].s, r[i].len);
    b->n += r[i].len;
  }
  if (version) {
    static const uint8_t en[4] = {0, 'e', 0, 'n'};
    memcpy(b->b + b->n, en, 4);
    b->n += 4;
  }
}

static otv_status open_name(const uint8_t *p, size_t len, otv_face **f, otv_error *e)
{
  static uint8_t font[8192];
  tbl t = {OTV_T_NAME, p, len};
  size_t n = build_font(font, sizeof font, &t, 1);
  *f = NULL;
  return otv_face_open_memory(font, n, 0, NULL, f, e);
}

/* UTF-16BE "Bold" */
static const uint8_t u_bold[] = {0, 'B', 0, 'o', 0, 'l', 0, 'd'};
/* "A" U+1F600 (surrogates D83D DE00) "é" (U+00E9) */
static const uint8_t u_emoji[] = {0, 'A', 0xD8, 0x3D, 0xDE, 0x00, 0x00, 0xE9};
/* unpaired high surrogate, unpaired low surrogate, odd trailing byte */
static const uint8_t u_bad[] = {0xD8, 0x00, 0, 'x', 0xDC, 0x00, 0x41};
/* Mac Roman: "Caf" 0x8E (é) 0xA5 (•) */
static const uint8_t mac[] = {'C', 'a', 'f', 0x8E, 0xA5};
static const uint8_t u_fett[] = {0, 'F', 0, 'e', 0, 't', 0, 't'};
static const uint8_t u_gb[] = {0, 'G', 0, 'B'};
static const uint8_t u_uni[] = {0, 'U'};

static void test_decode_and_lookup(void)
{
  const rec r[] = {
      {1, 0, 0, 2, mac, sizeof mac},            /* Mac Roman English */
      {0, 3, 0, 2, u_uni, sizeof u_uni},        /* Unicode platform */
      {3, 1, 0x0407, 2, u_fett, sizeof u_fett}, /* Windows German */
      {3, 1, 0x0809, 2, u_gb, sizeof u_gb},     /* Windows English (UK) */
      {3, 1, 0x0409, 2, u_bold, sizeof u_bold}, /* Windows English (US) */
      {3, 10, 0x0409, 300, u_emoji, sizeof u_emoji},
      {3, 1, 0x0409, 301, u_bad, sizeof u_bad},
      {1, 0, 0, 302, mac, sizeof mac},
      {3, 0, 0x0409, 303, u_bold, sizeof u_bold}, /* Windows Symbol: not used */
      {2, 0, 0, 304, mac, sizeof mac},            /* ISO: not used */
  };
  const unsigned n = sizeof r / sizeof r[0];
  bb b;
  char buf[64];
  size_t len;
  for (unsigned version = 0; version <= 1; version++) {
    build_name(&b, r, n, version);
    otv_face *f;
    otv_error e = {0};
    CHECK_EQ(open_name(b.b, b.n, &f, &e), OTV_E_OK);
    if (!f) return;
    CHECK_EQ(otv_face_name(f, 2, buf, sizeof buf, &len, NULL), OTV_E_OK);
    CHECK_STR(buf, "Bold");
    CHECK_EQ(len, 4);
    CHECK_EQ(otv_face_name(f, 300, buf, sizeof buf, &len, NULL), OTV_E_OK);
    CHECK_STR(buf, "A\xF0\x9F\x98\x80\xC3\xA9");
    CHECK_EQ(len, 7);
    CHECK_EQ(otv_face_name(f, 301, buf, sizeof buf, &len, NULL), OTV_E_OK);
    CHECK_STR(buf, "\xEF\xBF\xBDx\xEF\xBF\xBD\xEF\xBF\xBD");
    CHECK_EQ(otv_face_name(f, 302, buf, sizeof buf, &len, NULL), OTV_E_OK);
    CHECK_STR(buf, "Caf\xC3\xA9\xE2\x80\xA2");
    memset(&e, 0, sizeof e);
    CHECK_EQ(otv_face_name(f, 303, buf, sizeof buf, &len, &e), OTV_E_NOT_FOUND);
    CHECK_EQ(e.table, OTV_T_NAME);
    CHECK_EQ(otv_face_name(f, 304, buf, sizeof buf, &len, NULL), OTV_E_NOT_FOUND);
    CHECK_EQ(otv_face_name(f, 999, buf, sizeof buf, &len, NULL), OTV_E_NOT_FOUND);
    CHECK_EQ(len, 0);
    CHECK_STR(buf, "");

    /* truncated output never splits a sequence: "A" + 4-byte emoji needs cap 6 */
    for (size_t cap = 1; cap <= 8; cap++) {
      memset(buf, 'Z', sizeof buf);
      CHECK_EQ(otv_face_name(f, 300, buf, cap, &len, NULL), OTV_E_OK);
      CHECK_EQ(len, 7);
      const char *want = cap < 2   ? ""
                         : cap < 6 ? "A"
                         : cap < 8 ? "A\xF0\x9F\x98\x80"
                                   : "A\xF0\x9F\x98\x80\xC3\xA9";
      CHECK_STR(buf, want);
    }
    CHECK_EQ(otv_face_name(f, 300, NULL, 0, &len, NULL), OTV_E_OK);
    CHECK_EQ(len, 7);
    CHECK_EQ(otv_face_name(f, 300, NULL, 5, &len, NULL), OTV_E_ARG);
    otv_face_close(f);
  }

  /* fallbacks, dropping the best record each time: en-US, en-GB, German, Unicode, Mac */
  const char *order[] = {"Bold", "GB", "Fett", "U", "Caf\xC3\xA9\xE2\x80\xA2"};
  for (unsigned drop = 0; drop < 5; drop++) {
    rec rr[5];
    unsigned k = 0;
    for (unsigned i = 0; i < 5 - drop; i++) rr[k++] = r[i];
    build_name(&b, rr, k, 0);
    otv_face *f;
    CHECK_EQ(open_name(b.b, b.n, &f, NULL), OTV_E_OK);
    if (!f) continue;
    CHECK_EQ(otv_face_name(f, 2, buf, sizeof buf, NULL, NULL), OTV_E_OK);
    CHECK_STR(buf, order[drop]);
    otv_face_close(f);
  }
  /* Windows English of another sublanguage beats another language regardless of order */
  rec rr[2] = {r[3], r[2]};
  build_name(&b, rr, 2, 0);
  otv_face *f;
  CHECK_EQ(open_name(b.b, b.n, &f, NULL), OTV_E_OK);
  if (f) {
    CHECK_EQ(otv_face_name(f, 2, buf, sizeof buf, NULL, NULL), OTV_E_OK);
    CHECK_STR(buf, "GB");
    otv_face_close(f);
  }
}

static void put16at(uint8_t *p, size_t at, unsigned v)
{
  p[at] = (uint8_t)(v >> 8);
  p[at + 1] = (uint8_t)v;
}

static void test_errors(void)
{
  const rec r[] = {{3, 1, 0x0409, 1, u_bold, sizeof u_bold},
                   {3, 1, 0x0409, 2, u_emoji, sizeof u_emoji}};
  bb b;
  for (unsigned version = 0; version <= 1; version++) {
    build_name(&b, r, 2, version);
    /* truncation sweep: every prefix fails and names the table */
    for (size_t n = 0; n < b.n; n++) {
      otv_face *f;
      otv_error e = {0};
      CHECK(open_name(b.b, n, &f, &e) != OTV_E_OK);
      CHECK_EQ(e.table, OTV_T_NAME);
      CHECK(f == NULL);
    }
    uint8_t p[256];
    /* bad offsets: storageOffset, a string offset, a language-tag offset */
    size_t fields[3] = {4, 6 + 12 + 10, 6 + 24 + 4};
    const unsigned bad[] = {(unsigned)b.n, (unsigned)b.n + 1, 0xFFFF, 0x8000};
    for (size_t fi = 0; fi < (version ? 3u : 2u); fi++)
      for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memcpy(p, b.b, b.n);
        put16at(p, fields[fi], bad[i]);
        otv_face *f;
        otv_error e = {0};
        CHECK_EQ(open_name(p, b.n, &f, &e), fi == 0 && bad[i] == b.n ? OTV_E_BAD_OFFSET : e.code);
        CHECK(e.code == OTV_E_BAD_OFFSET || e.code == OTV_E_TRUNCATED);
        CHECK_EQ(e.table, OTV_T_NAME);
      }
    /* a count that runs past the end */
    memcpy(p, b.b, b.n);
    put16at(p, 2, 0xFFFF);
    otv_face *f;
    otv_error e = {0};
    CHECK_EQ(open_name(p, b.n, &f, &e), OTV_E_TRUNCATED);
    CHECK_EQ(e.offset, 6);
  }
  /* version 2 */
  build_name(&b, r, 2, 0);
  b.b[1] = 2;
  otv_face *f;
  otv_error e = {0};
  CHECK_EQ(open_name(b.b, b.n, &f, &e), OTV_E_UNSUPPORTED);
  /* no name table: every name is NOT_FOUND */
  static uint8_t font[512];
  size_t n = build_font(font, sizeof font, NULL, 0);
  CHECK_EQ(otv_face_open_memory(font, n, 0, NULL, &f, NULL), OTV_E_OK);
  if (f) {
    char buf[8] = "x";
    CHECK_EQ(otv_face_name(f, 1, buf, sizeof buf, NULL, NULL), OTV_E_NOT_FOUND);
    CHECK_STR(buf, "");
    otv_face_close(f);
  }
}

/* The real fonts: every name ID used by fvar resolves. */
static void test_real(void)
{
  otv_face *f = NULL;
  CHECK_EQ(otv_face_open_file(h_font("Roboto-Variable.ABC.ttf"), 0, NULL, &f, NULL), OTV_E_OK);
  if (!f) return;
  char buf[256];
  CHECK_EQ(otv_face_name(f, 1, buf, sizeof buf, NULL, NULL), OTV_E_OK);
  CHECK(strlen(buf) > 0);
  otv_axis ax[8];
  unsigned cnt = 8;
  otv_face_axes(f, 0, &cnt, ax);
  CHECK_EQ(cnt, 2);
  CHECK_EQ(otv_face_name(f, ax[0].name_id, buf, sizeof buf, NULL, NULL), OTV_E_OK);
  CHECK_STR(buf, "Weight");
  otv_face_close(f);
}

int main(void)
{
  (void)bfix; /* builder helper shared with the other fixtures */
  test_decode_and_lookup();
  test_errors();
  test_real();
  return h_done("test_name");
}

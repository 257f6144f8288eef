/*
 * post_names.c - the 258 standard Macintosh glyph names (spec: post, "Macintosh standard
 * order"): the names a post format 2 index below 258 stands for. Read by the builder's masters
 * and by the CFF instancer's charset; and the decoder of a post 2.0 table's names.
 */
#include "post_names.h"

const char *const otv_post_std_names[OTV_POST_STD_NAMES] = {
    ".notdef",
    ".null",
    "nonmarkingreturn",
    "space",
    "exclam",
    "quotedbl",
    "numbersign",
    "dollar",
    "percent",
    "ampersand",
    "quotesingle",
    "parenleft",
    "parenright",
    "asterisk",
    "plus",
    "comma",
    "hyphen",
    "period",
    "slash",
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "colon",
    "semicolon",
    "less",
    "equal",
    "greater",
    "question",
    "at",
    "A",
    "B",
    "C",
    "D",
    "E",
    "F",
    "G",
    "H",
    "I",
    "J",
    "K",
    "L",
    "M",
    "N",
    "O",
    "P",
    "Q",
    "R",
    "S",
    "T",
    "U",
    "V",
    "W",
    "X",
    "Y",
    "Z",
    "bracketleft",
    "backslash",
    "bracketright",
    "asciicircum",
    "underscore",
    "grave",
    "a",
    "b",
    "c",
    "d",
    "e",
    "f",
    "g",
    "h",
    "i",
    "j",
    "k",
    "l",
    "m",
    "n",
    "o",
    "p",
    "q",
    "r",
    "s",
    "t",
    "u",
    "v",
    "w",
    "x",
    "y",
    "z",
    "braceleft",
    "bar",
    "braceright",
    "asciitilde",
    "Adieresis",
    "Aring",
    "Ccedilla",
    "Eacute",
    "Ntilde",
    "Odieresis",
    "Udieresis",
    "aacute",
    "agrave",
    "acircumflex",
    "adieresis",
    "atilde",
    "aring",
    "ccedilla",
    "eacute",
    "egrave",
    "ecircumflex",
    "edieresis",
    "iacute",
    "igrave",
    "icircumflex",
    "idieresis",
    "ntilde",
    "oacute",
    "ograve",
    "ocircumflex",
    "odieresis",
    "otilde",
    "uacute",
    "ugrave",
    "ucircumflex",
    "udieresis",
    "dagger",
    "degree",
    "cent",
    "sterling",
    "section",
    "bullet",
    "paragraph",
    "germandbls",
    "registered",
    "copyright",
    "trademark",
    "acute",
    "dieresis",
    "notequal",
    "AE",
    "Oslash",
    "infinity",
    "plusminus",
    "lessequal",
    "greaterequal",
    "yen",
    "mu",
    "partialdiff",
    "summation",
    "product",
    "pi",
    "integral",
    "ordfeminine",
    "ordmasculine",
    "Omega",
    "ae",
    "oslash",
    "questiondown",
    "exclamdown",
    "logicalnot",
    "radical",
    "florin",
    "approxequal",
    "Delta",
    "guillemotleft",
    "guillemotright",
    "ellipsis",
    "nonbreakingspace",
    "Agrave",
    "Atilde",
    "Otilde",
    "OE",
    "oe",
    "endash",
    "emdash",
    "quotedblleft",
    "quotedblright",
    "quoteleft",
    "quoteright",
    "divide",
    "lozenge",
    "ydieresis",
    "Ydieresis",
    "fraction",
    "currency",
    "guilsinglleft",
    "guilsinglright",
    "fi",
    "fl",
    "daggerdbl",
    "periodcentered",
    "quotesinglbase",
    "quotedblbase",
    "perthousand",
    "Acircumflex",
    "Ecircumflex",
    "Aacute",
    "Edieresis",
    "Egrave",
    "Iacute",
    "Icircumflex",
    "Idieresis",
    "Igrave",
    "Oacute",
    "Ocircumflex",
    "apple",
    "Ograve",
    "Uacute",
    "Ucircumflex",
    "Ugrave",
    "dotlessi",
    "circumflex",
    "tilde",
    "macron",
    "breve",
    "dotaccent",
    "ring",
    "cedilla",
    "hungarumlaut",
    "ogonek",
    "caron",
    "Lslash",
    "lslash",
    "Scaron",
    "scaron",
    "Zcaron",
    "zcaron",
    "brokenbar",
    "Eth",
    "eth",
    "Yacute",
    "yacute",
    "Thorn",
    "thorn",
    "minus",
    "multiply",
    "onesuperior",
    "twosuperior",
    "threesuperior",
    "onehalf",
    "onequarter",
    "threequarters",
    "franc",
    "Gbreve",
    "gbreve",
    "Idotaccent",
    "Scedilla",
    "scedilla",
    "Cacute",
    "cacute",
    "Ccaron",
    "ccaron",
    "dcroat",
};

/* spec: post version 2.0: the header (version .. maxMemType1, 32 bytes), numGlyphs, then
 * glyphNameIndex[numGlyphs], then the Pascal strings */
#define POST_V2 0x00020000u
#define POST_HEADER 32

bool otv_post_names_open(otv_span post, uint32_t glyph_count, const otv_alloc *al,
                         otv_post_names *out, otv_status *st)
{
  memset(out, 0, sizeof *out);
  *st = OTV_E_OK;
  otv_rd r = otv_rd_init(post, 0);
  uint32_t version = otv_rd_u32(&r);
  r.pos = POST_HEADER;
  uint32_t n = otv_rd_u16(&r);
  if (!otv_rd_ok(&r) || version != POST_V2 || n != glyph_count ||
      !otv_span_array(post, POST_HEADER + 2, n, 2, &out->index))
    return false;
  size_t names_at = POST_HEADER + 2 + (size_t)n * 2;
  out->strings = (otv_span){post.p + names_at, post.len - names_at};
  uint32_t need = 0; /* strings the index refers to */
  for (uint32_t g = 0; g < n; g++) {
    unsigned idx = otv_peek_u16(out->index.p + 2 * (size_t)g); /* in range: the index span */
    if (idx >= OTV_POST_STD_NAMES && idx - OTV_POST_STD_NAMES + 1 > need)
      need = idx - OTV_POST_STD_NAMES + 1;
  }
  if (!need) return true;
  out->str_at = otv_mem_alloc(al, need * sizeof *out->str_at);
  if (!out->str_at) {
    *st = OTV_E_NOMEM;
    return false;
  }
  out->str_cap = need;
  size_t at = 0;
  const otv_span sp = out->strings;
  while (out->str_count < need && at < sp.len && sp.p[at] <= sp.len - at - 1) {
    out->str_at[out->str_count++] = (uint32_t)at;
    at += 1 + (size_t)sp.p[at];
  }
  return true;
}

bool otv_post_name(const otv_post_names *pn, uint32_t g, const char **std, otv_span *s)
{
  *std = NULL;
  if ((size_t)g * 2 + 2 > pn->index.len) return false;
  unsigned idx = otv_peek_u16(pn->index.p + 2 * (size_t)g); /* in range: checked above */
  if (idx < OTV_POST_STD_NAMES) {
    *std = otv_post_std_names[idx];
    return true;
  }
  idx -= OTV_POST_STD_NAMES;
  if (idx >= pn->str_count) return false;
  size_t at = pn->str_at[idx]; /* in range: a length byte scanned in otv_post_names_open */
  *s = (otv_span){pn->strings.p + at + 1, pn->strings.p[at]};
  return true;
}

void otv_post_names_free(otv_post_names *pn, const otv_alloc *al)
{
  if (pn->str_at) otv_mem_free(al, pn->str_at, pn->str_cap * sizeof *pn->str_at);
  memset(pn, 0, sizeof *pn);
}

/*
 * cff_data.h - the data formats of 'CFF ' and CFF2, decoded here and nowhere else: the operator
 * names of DICTs and charstrings, the number encodings, INDEX, and a DICT cursor that yields one
 * record (operands, operator) at a time with CFF2's vsindex and blend applied. Used by the table
 * parser (cff.c), the charstring interpreter (charstring.c) and the instancers (instance/cff.c,
 * instance/cff_partial.c); writing these formats is cff_write.h. Implemented in cff_data.c; the
 * per-byte decoders are inline (the interpreter's loop runs them).
 * Spec: Adobe TN 5176 (CFF) "DICT Data", "INDEX Data" and Tables 3-5, 9, 10 and 23; Adobe TN 5177
 * (Type 2 Charstring Format) sections 3 and 4 and Appendix A; OpenType "CFF2" ("Number
 * encoding", "INDEX data", "DICT data", "Variation data operators", "CharString operators").
 */
#ifndef OTV_CFF_DATA_H
#define OTV_CFF_DATA_H

#include "ivs.h"

/* ---- operators ----
 * A one-byte operator is its byte; an escaped one (12 x) is OTV_CFF_ESC(x) = 1200 + x, so that
 * "12 36" reads as 1236. DICTs and charstrings number their operators alike but mean different
 * things (18 is Private in a DICT and hstemhm in a charstring): OTV_DICT_ and OTV_CS_ names. */
#define OTV_CFF_ESCAPE 12           /* the escape byte: the operator is 12 and the next byte */
#define OTV_CFF_ESC(x) (1200 + (x)) /* escaped operator 12 x */

typedef enum otv_cff_op {
  /* Top DICT, Font DICT and Private DICT operators (TN 5176 Tables 9, 10 and 23; CFF2 DICT
   * Tables, which add vsindex, blend and vstore and drop the rest of the CFF-only ones). */
  OTV_DICT_VERSION = 0,
  OTV_DICT_NOTICE = 1,
  OTV_DICT_FULLNAME = 2,
  OTV_DICT_FAMILYNAME = 3,
  OTV_DICT_WEIGHT = 4,
  OTV_DICT_FONTBBOX = 5,
  OTV_DICT_BLUEVALUES = 6,
  OTV_DICT_OTHERBLUES = 7,
  OTV_DICT_FAMILYBLUES = 8,
  OTV_DICT_FAMILYOTHERBLUES = 9,
  OTV_DICT_STDHW = 10,
  OTV_DICT_STDVW = 11,
  OTV_DICT_UNIQUEID = 13,
  OTV_DICT_XUID = 14,
  OTV_DICT_CHARSET = 15,
  OTV_DICT_ENCODING = 16,
  OTV_DICT_CHARSTRINGS = 17,
  OTV_DICT_PRIVATE = 18, /* size offset */
  OTV_DICT_SUBRS = 19,   /* Private DICT: offset from the start of the Private DICT */
  OTV_DICT_DEFAULTWIDTHX = 20,
  OTV_DICT_NOMINALWIDTHX = 21,
  OTV_DICT_VSINDEX = 22, /* CFF2 Private DICT */
  OTV_DICT_BLEND = 23,   /* CFF2 Private DICT: n*(k+1)+1 operands -> n */
  OTV_DICT_VSTORE = 24,  /* CFF2 Top DICT: VariationStore offset */
  OTV_DICT_OP_LAST = 27, /* bytes 0..27 are operators (22..27 reserved in CFF) */
  OTV_DICT_COPYRIGHT = OTV_CFF_ESC(0),
  OTV_DICT_ISFIXEDPITCH = OTV_CFF_ESC(1),
  OTV_DICT_ITALICANGLE = OTV_CFF_ESC(2),
  OTV_DICT_UNDERLINEPOSITION = OTV_CFF_ESC(3),
  OTV_DICT_UNDERLINETHICKNESS = OTV_CFF_ESC(4),
  OTV_DICT_PAINTTYPE = OTV_CFF_ESC(5),
  OTV_DICT_CHARSTRINGTYPE = OTV_CFF_ESC(6),
  OTV_DICT_FONTMATRIX = OTV_CFF_ESC(7),
  OTV_DICT_STROKEWIDTH = OTV_CFF_ESC(8),
  OTV_DICT_BLUESCALE = OTV_CFF_ESC(9),
  OTV_DICT_BLUESHIFT = OTV_CFF_ESC(10),
  OTV_DICT_BLUEFUZZ = OTV_CFF_ESC(11),
  OTV_DICT_STEMSNAPH = OTV_CFF_ESC(12),
  OTV_DICT_STEMSNAPV = OTV_CFF_ESC(13),
  OTV_DICT_FORCEBOLD = OTV_CFF_ESC(14),
  OTV_DICT_LANGUAGEGROUP = OTV_CFF_ESC(17),
  OTV_DICT_EXPANSIONFACTOR = OTV_CFF_ESC(18),
  OTV_DICT_INITIALRANDOMSEED = OTV_CFF_ESC(19),
  OTV_DICT_SYNTHETICBASE = OTV_CFF_ESC(20),
  OTV_DICT_POSTSCRIPT = OTV_CFF_ESC(21),
  OTV_DICT_BASEFONTNAME = OTV_CFF_ESC(22),
  OTV_DICT_BASEFONTBLEND = OTV_CFF_ESC(23),
  OTV_DICT_ROS = OTV_CFF_ESC(30), /* CID-keyed CFF */
  OTV_DICT_CIDFONTVERSION = OTV_CFF_ESC(31),
  OTV_DICT_CIDFONTREVISION = OTV_CFF_ESC(32),
  OTV_DICT_CIDFONTTYPE = OTV_CFF_ESC(33),
  OTV_DICT_CIDCOUNT = OTV_CFF_ESC(34),
  OTV_DICT_UIDBASE = OTV_CFF_ESC(35),
  OTV_DICT_FDARRAY = OTV_CFF_ESC(36),
  OTV_DICT_FDSELECT = OTV_CFF_ESC(37),
  OTV_DICT_FONTNAME = OTV_CFF_ESC(38),

  /* Charstring operators (TN 5177 Appendix A; CFF2 "CharString operators", which drop return,
   * endchar and the arithmetic, storage and conditional ones, and add vsindex and blend). */
  OTV_CS_HSTEM = 1,
  OTV_CS_VSTEM = 3,
  OTV_CS_VMOVETO = 4,
  OTV_CS_RLINETO = 5,
  OTV_CS_HLINETO = 6,
  OTV_CS_VLINETO = 7,
  OTV_CS_RRCURVETO = 8,
  OTV_CS_CALLSUBR = 10,
  OTV_CS_RETURN = 11,  /* CFF only */
  OTV_CS_ENDCHAR = 14, /* CFF only */
  OTV_CS_VSINDEX = 15, /* CFF2 only */
  OTV_CS_BLEND = 16,   /* CFF2 only: n*(k+1)+1 operands -> n */
  OTV_CS_HSTEMHM = 18,
  OTV_CS_HINTMASK = 19, /* followed by (stems + 7) / 8 mask bytes */
  OTV_CS_CNTRMASK = 20, /* likewise */
  OTV_CS_RMOVETO = 21,
  OTV_CS_HMOVETO = 22,
  OTV_CS_VSTEMHM = 23,
  OTV_CS_RCURVELINE = 24,
  OTV_CS_RLINECURVE = 25,
  OTV_CS_VVCURVETO = 26,
  OTV_CS_HHCURVETO = 27,
  OTV_CS_CALLGSUBR = 29,
  OTV_CS_VHCURVETO = 30,
  OTV_CS_HVCURVETO = 31,
  OTV_CS_OP_LAST = 31,                /* bytes 0..31 but 28 are operators */
  OTV_CS_DOTSECTION = OTV_CFF_ESC(0), /* deprecated: ignored */
  OTV_CS_AND = OTV_CFF_ESC(3),        /* 12 3 .. 12 30: CFF only (TN 5177 4.4-4.6) */
  OTV_CS_OR = OTV_CFF_ESC(4),
  OTV_CS_NOT = OTV_CFF_ESC(5),
  OTV_CS_ABS = OTV_CFF_ESC(9),
  OTV_CS_ADD = OTV_CFF_ESC(10),
  OTV_CS_SUB = OTV_CFF_ESC(11),
  OTV_CS_DIV = OTV_CFF_ESC(12),
  OTV_CS_NEG = OTV_CFF_ESC(14),
  OTV_CS_EQ = OTV_CFF_ESC(15),
  OTV_CS_DROP = OTV_CFF_ESC(18),
  OTV_CS_PUT = OTV_CFF_ESC(20),
  OTV_CS_GET = OTV_CFF_ESC(21),
  OTV_CS_IFELSE = OTV_CFF_ESC(22),
  OTV_CS_RANDOM = OTV_CFF_ESC(23),
  OTV_CS_MUL = OTV_CFF_ESC(24),
  OTV_CS_SQRT = OTV_CFF_ESC(26),
  OTV_CS_DUP = OTV_CFF_ESC(27),
  OTV_CS_EXCH = OTV_CFF_ESC(28),
  OTV_CS_INDEX = OTV_CFF_ESC(29),
  OTV_CS_ROLL = OTV_CFF_ESC(30),
  OTV_CS_HFLEX = OTV_CFF_ESC(34),
  OTV_CS_FLEX = OTV_CFF_ESC(35),
  OTV_CS_HFLEX1 = OTV_CFF_ESC(36),
  OTV_CS_FLEX1 = OTV_CFF_ESC(37),

  OTV_CS_NUMBER = -1 /* otv_cs_token: the token is an operand, not an operator */
} otv_cff_op;

/* ---- header ---- */
#define OTV_CFF_MAJOR 1            /* 'CFF ' header majorVersion */
#define OTV_CFF2_MAJOR 2           /* CFF2 header majorVersion */
#define OTV_CFF2_HEADER_SIZE 5     /* major, minor, headerSize, u16 topDICTSize */
#define OTV_CFF_CHARSTRING_TYPE2 2 /* Top DICT CharstringType: Type 2, the only one we draw */

/* ---- number encoding (TN 5176 Table 3, TN 5177 section 3.2, CFF2 "Number encoding") ---- */
enum {
  OTV_CFF_SHORTINT = 28,   /* int16 follows (DICT and charstring) */
  OTV_CFF_LONGINT = 29,    /* DICT: int32 follows (in a charstring 29 is callgsubr) */
  OTV_CFF_REAL = 30,       /* DICT: BCD nibbles follow, up to the nibble 0xf */
  OTV_CFF_INT1_FIRST = 32, /* 32..246: b0 - 139, that is -107..107 */
  OTV_CFF_INT1_LAST = 246,
  OTV_CFF_INT1_BIAS = 139,
  OTV_CFF_INT1_MAX = 107,
  OTV_CFF_POS2_FIRST = 247, /* 247..250 b1: (b0 - 247) * 256 + b1 + 108, that is 108..1131 */
  OTV_CFF_POS2_LAST = 250,
  OTV_CFF_NEG2_FIRST = 251, /* 251..254 b1: -(b0 - 251) * 256 - b1 - 108: -1131..-108 */
  OTV_CFF_NEG2_LAST = 254,
  OTV_CFF_INT2_BIAS = 108,
  OTV_CFF_INT2_MAX = 1131,
  OTV_CFF_FIXED = 255 /* charstring: 16.16 fixed follows (reserved in a DICT) */
};
#define OTV_CFF_FIXED_ONE 65536.0 /* 16.16: 1.0 */

/* The nibbles of a real number after OTV_CFF_REAL (TN 5176 Table 5); 0..9 are digits. */
enum {
  OTV_CFF_NIB_POINT = 0xa,  /* . */
  OTV_CFF_NIB_EXP = 0xb,    /* E */
  OTV_CFF_NIB_NEGEXP = 0xc, /* E- */
  OTV_CFF_NIB_RESERVED = 0xd,
  OTV_CFF_NIB_MINUS = 0xe, /* - */
  OTV_CFF_NIB_END = 0xf    /* end of number */
};

/* b0 starts a one-byte operand (32..246). */
static OTV_ALWAYS_INLINE bool otv_cff_is_int1(unsigned b0)
{
  return b0 - (unsigned)OTV_CFF_INT1_FIRST <= (unsigned)(OTV_CFF_INT1_LAST - OTV_CFF_INT1_FIRST);
}
/* b0 starts a two-byte operand (247..254). */
static OTV_ALWAYS_INLINE bool otv_cff_is_int2(unsigned b0)
{
  return b0 - (unsigned)OTV_CFF_POS2_FIRST <= (unsigned)(OTV_CFF_NEG2_LAST - OTV_CFF_POS2_FIRST);
}
static OTV_ALWAYS_INLINE int otv_cff_int1(unsigned b0) { return (int)b0 - OTV_CFF_INT1_BIAS; }
/* The value of the two-byte operand b0 b1 (otv_cff_is_int2(b0)). */
static OTV_ALWAYS_INLINE int otv_cff_int2(unsigned b0, unsigned b1)
{
  return b0 <= OTV_CFF_POS2_LAST
             ? ((int)b0 - OTV_CFF_POS2_FIRST) * 256 + (int)b1 + OTV_CFF_INT2_BIAS
             : -((int)b0 - OTV_CFF_NEG2_FIRST) * 256 - (int)b1 - OTV_CFF_INT2_BIAS;
}
/* The 16.16 operand whose four bytes are at p (after OTV_CFF_FIXED). */
static OTV_ALWAYS_INLINE double otv_cff_fixed(const uint8_t *p)
{
  return otv_peek_i32(p) / OTV_CFF_FIXED_ONE;
}

/* The charstring token at p (p < end): an operand (*op = OTV_CS_NUMBER, *v its value) or an
 * operator (*op, an escaped one as OTV_CFF_ESC(x)). Returns its length in bytes, 0 when end cuts
 * it off. The mask bytes after hintmask and cntrmask are the caller's: their count depends on
 * the stems counted so far. */
static OTV_ALWAYS_INLINE size_t otv_cs_token(const uint8_t *p, const uint8_t *end, int *op,
                                             double *v)
{
  unsigned b0 = p[0]; /* in range: p < end */
  size_t left = (size_t)(end - p);
  *op = OTV_CS_NUMBER;
  if (otv_cff_is_int1(b0)) {
    *v = otv_cff_int1(b0);
    return 1;
  }
  if (otv_cff_is_int2(b0)) {
    if (left < 2) return 0;
    *v = otv_cff_int2(b0, p[1]); /* in range: left >= 2 */
    return 2;
  }
  if (b0 == OTV_CFF_SHORTINT) {
    if (left < 3) return 0;
    *v = otv_peek_i16(p + 1); /* in range: left >= 3 */
    return 3;
  }
  if (b0 == OTV_CFF_FIXED) {
    if (left < 5) return 0;
    *v = otv_cff_fixed(p + 1); /* in range: left >= 5 */
    return 5;
  }
  if (b0 == OTV_CFF_ESCAPE) {
    if (left < 2) return 0;
    *op = OTV_CFF_ESC(p[1]); /* in range: left >= 2 */
    return 2;
  }
  *op = (int)b0;
  return 1;
}

/* ---- INDEX (TN 5176 section 5: u16 count; CFF2 "INDEX data": u32 count) ---- */

/* Subroutine number bias by subroutine count (TN 5177 section 4.7, CFF2 "Subroutine operators"). */
#define OTV_CFF_BIAS_SMALL 107u   /* fewer than 1240 subroutines */
#define OTV_CFF_BIAS_MEDIUM 1131u /* fewer than 33900 */
#define OTV_CFF_BIAS_LARGE 32768u /* more */
#define OTV_CFF_BIAS_MEDIUM_FROM 1240u
#define OTV_CFF_BIAS_LARGE_FROM 33900u
#define OTV_CFF_OFF_SIZE_MAX 4 /* offSize 1..4 */

/* Header and offset array checked at parse; element offsets are checked when an element is
 * fetched. */
typedef struct otv_cff_index {
  uint32_t count;
  uint32_t bias;          /* subroutine number bias for this count */
  uint8_t off_size;       /* 1..4 */
  const uint8_t *offsets; /* (count + 1) * off_size bytes (checked at parse) */
  const uint8_t *data;    /* element data: offsets are 1-based from data - 1 */
  uint32_t data_len;      /* last offset - 1 (checked to fit the table at parse) */
  size_t end;             /* table offset just past the INDEX */
} otv_cff_index;

/* The INDEX at table offset off (tag and what name it in errors). */
otv_status otv_cff_index_parse(otv_span tab, uint32_t tag, size_t off, bool cff2, otv_cff_index *ix,
                               const char *what, otv_error *err);

/* Element i of an INDEX: false when its offsets are out of order or out of range. */
static inline bool otv_cff_index_get(const otv_cff_index *ix, uint32_t i, otv_span *out)
{
  if (i >= ix->count) return false;
  /* in range: i + 1 <= count, offsets span (count + 1) * off_size checked in
   * otv_cff_index_parse */
  const uint8_t *q = ix->offsets + (size_t)i * ix->off_size;
  uint32_t a, b;
  switch (ix->off_size) {
  case 1: a = q[0], b = q[1]; break;
  case 2: a = otv_peek_u16(q), b = otv_peek_u16(q + 2); break;
  case 3: a = otv_peek_u24(q), b = otv_peek_u24(q + 3); break;
  default: a = otv_peek_u32(q), b = otv_peek_u32(q + 4); break;
  }
  if (a < 1 || a > b || b - 1 > ix->data_len) return false;
  out->p = ix->data + (a - 1);
  out->len = b - a;
  return true;
}

/* ---- DICT (TN 5176 section 4, CFF2 "DICT data") ----
 * A cursor over a DICT's bytes: each otv_cff_dict_next reads the operands up to the next
 * operator and returns that operator, its operands in args[0..n). In a CFF2 DICT, vsindex sets
 * the ItemVariationData that blend uses (and is returned too); blend is applied where it stands
 * and not returned: its n*(k+1)+1 operands become n, the defaults plus, when the caller set
 * `scalar`, each delta times the scalar of its region column at the caller's location (without
 * it, the default location: deltas dropped). Errors name the table and the offset of the byte
 * at fault. Leniency, the same for every reader: operators 22..27 (reserved in CFF) are returned
 * to the caller, which skips what it does not know (as the spec asks); the reserved bytes 31
 * and 255 and the reserved nibble 0xd of a real are errors; at most 48 operands in a CFF DICT,
 * 513 in a CFF2 one (the stack limits). */

#define OTV_DICT_END (-1)   /* otv_cff_dict_next: the end of the DICT */
#define OTV_DICT_ERROR (-2) /* otv_cff_dict_next: an error (recorded) */

/* The blend scalar of region column col of ItemVariationData vsindex at the caller's location. */
typedef double (*otv_cff_blend_fn)(void *ud, unsigned vsindex, unsigned col);

typedef struct otv_cff_dict {
  otv_span tab;            /* the table: offsets in errors are table offsets */
  uint32_t tag;            /* the table's, for errors */
  size_t pos, end;         /* table offsets: the next byte, the end of the DICT */
  size_t at;               /* table offset of the record otv_cff_dict_next returned */
  bool cff2;               /* vsindex, blend and the 513-operand stack */
  const otv_ivs *ivs;      /* blend: the region count of each ItemVariationData (NULL: none) */
  otv_cff_blend_fn scalar; /* blend: NULL, the default location */
  void *scalar_ud;
  unsigned vsindex; /* the last vsindex (default 0) */
  unsigned n;       /* operands of the record */
  double args[OTV_MAX_STACK_CFF2];
} otv_cff_dict;

/* The DICT at [off, off + len) of tab: false when it does not fit. ivs may be NULL; scalar and
 * scalar_ud start NULL (the default location). */
bool otv_cff_dict_init(otv_cff_dict *d, otv_span tab, uint32_t tag, size_t off, size_t len,
                       bool cff2, const otv_ivs *ivs);
/* The next operator (an otv_cff_op), OTV_DICT_END or OTV_DICT_ERROR (recorded into err). */
int otv_cff_dict_next(otv_cff_dict *d, otv_error *err);
/* Operand i as a table offset or size: an integer in [0, tab.len]. */
bool otv_cff_dict_offset(const otv_cff_dict *d, unsigned i, size_t *out);
/* The six operands of a FontMatrix record into m: false (error recorded) when malformed. */
bool otv_cff_dict_matrix(const otv_cff_dict *d, double m[6], otv_error *err);

#endif /* OTV_CFF_DATA_H */

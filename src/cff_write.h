/*
 * cff_write.h - writing CFF2 data, the encodings of cff_data.h the other way: numbers in DICTs
 * and in charstrings, operators, and INDEXes. Used by the instancers (instance/cff.c,
 * instance/cff_partial.c). Implemented in cff_write.c; the integer writer is inline (the full
 * instancer writes every coordinate of every glyph through it).
 * Spec: Adobe TN 5176 (CFF) Table 3 and "Real Number Encoding"; OpenType "CFF2" ("Number
 * encoding", "INDEX data").
 */
#ifndef OTV_CFF_WRITE_H
#define OTV_CFF_WRITE_H

#include "cff_data.h"
#include "core/writer.h"

/* The integer i (-32768..32767) at w in its shortest form, the same in a DICT and in a
 * charstring: one byte (-107..107), two (-1131..1131) or OTV_CFF_SHORTINT and an int16. Returns
 * the end (3 bytes at most). */
static inline uint8_t *otv_cff_put_int(uint8_t *w, long i)
{
  if (i >= -OTV_CFF_INT1_MAX && i <= OTV_CFF_INT1_MAX) {
    *w++ = (uint8_t)(i + OTV_CFF_INT1_BIAS);
  } else if (i > OTV_CFF_INT1_MAX && i <= OTV_CFF_INT2_MAX) {
    *w++ = (uint8_t)(((i - OTV_CFF_INT2_BIAS) >> 8) + OTV_CFF_POS2_FIRST);
    *w++ = (uint8_t)(i - OTV_CFF_INT2_BIAS);
  } else if (i < -OTV_CFF_INT1_MAX && i >= -OTV_CFF_INT2_MAX) {
    *w++ = (uint8_t)(((-i - OTV_CFF_INT2_BIAS) >> 8) + OTV_CFF_NEG2_FIRST);
    *w++ = (uint8_t)(-i - OTV_CFF_INT2_BIAS);
  } else {
    *w++ = OTV_CFF_SHORTINT;
    *w++ = (uint8_t)((unsigned long)i >> 8);
    *w++ = (uint8_t)i;
  }
  return w;
}

/* A DICT number: an integer in its shortest form (OTV_CFF_LONGINT beyond int16), anything else
 * a real of 8 significant digits. */
void otv_cff_dict_put_num(otv_buf *b, double v);
#define OTV_CFF_DICT_OFFSET_LEN 5 /* otv_cff_dict_put_offset's bytes */
/* A DICT offset or size in the 5-byte form (OTV_CFF_LONGINT), whose length is known before its
 * value. */
void otv_cff_dict_put_offset(otv_buf *b, uint32_t v);
/* A charstring number: the nearest integer when v is within 1e-9 of an int16, else a 16.16
 * fixed number (OTV_CFF_FIXED, rounded to 1/65536, clamped to the int32 range). */
void otv_cs_put_num(otv_buf *b, double v);
/* An operator of cff_data.h (OTV_DICT_ or OTV_CS_): one byte, or OTV_CFF_ESCAPE and one. */
void otv_cff_put_op(otv_buf *b, int op);

/* The offSize (1..4) of an INDEX whose last offset is last. */
unsigned otv_cff_off_size(size_t last);
/* The length in bytes of a CFF2 INDEX of count elements and data_len bytes of data. */
size_t otv_cff2_index_len(uint32_t count, size_t data_len);
/* A CFF2 INDEX: the u32 count, then (count > 0) offSize, the count + 1 offsets offs[i] + 1 and
 * the data. */
void otv_cff2_put_index(otv_buf *b, const otv_buf *data, const uint32_t *offs, uint32_t count);

#endif /* OTV_CFF_WRITE_H */

/*
 * cff_write.c - writing CFF2 numbers, operators and INDEXes (cff_write.h).
 * Spec: Adobe TN 5176 (CFF) Table 3 and "Real Number Encoding"; OpenType "CFF2" ("Number
 * encoding", "INDEX data").
 */
#include "cff_write.h"

#include <stdio.h>

#define UINT24_MAX 0xFFFFFFu /* the largest offset of offSize 3 */

/* An integer -32768..32767 appended in its shortest form. */
static void buf_int(otv_buf *b, long i)
{
  if (otv_buf_reserve(b, 3)) b->len = (size_t)(otv_cff_put_int(b->p + b->len, i) - b->p);
}

void otv_cff_dict_put_num(otv_buf *b, double v)
{
  if (v == floor(v) && v >= (double)INT32_MIN && v <= (double)INT32_MAX) {
    long i = (long)v;
    if (i >= INT16_MIN && i <= INT16_MAX) {
      buf_int(b, i);
    } else {
      otv_buf_u8(b, OTV_CFF_LONGINT);
      otv_buf_u32(b, (uint32_t)(int32_t)i);
    }
    return;
  }
  /* a real: the nibbles of "%.8g" (digits, point, minus, exponent), then the end nibble, padded
   * to a whole byte with another */
  char s[64];
  snprintf(s, sizeof s, "%.8g", v);
  uint8_t nib[80];
  size_t k = 0;
  for (const char *c = s; *c && k < 76; c++) {
    if (*c >= '0' && *c <= '9')
      nib[k++] = (uint8_t)(*c - '0');
    else if (*c == '.')
      nib[k++] = OTV_CFF_NIB_POINT;
    else if (*c == '-')
      nib[k++] = OTV_CFF_NIB_MINUS;
    else if (*c == 'e' || *c == 'E') {
      if (c[1] == '-')
        nib[k++] = OTV_CFF_NIB_NEGEXP, c++;
      else {
        nib[k++] = OTV_CFF_NIB_EXP;
        if (c[1] == '+') c++;
      }
    }
  }
  nib[k++] = OTV_CFF_NIB_END;
  if (k & 1) nib[k++] = OTV_CFF_NIB_END;
  otv_buf_u8(b, OTV_CFF_REAL);
  for (size_t i = 0; i < k; i += 2) otv_buf_u8(b, (uint8_t)(nib[i] << 4 | nib[i + 1]));
}

void otv_cff_dict_put_offset(otv_buf *b, uint32_t v)
{
  otv_buf_u8(b, OTV_CFF_LONGINT);
  otv_buf_u32(b, v);
}

void otv_cs_put_num(otv_buf *b, double v)
{
  double r = floor(v + 0.5);
  if (fabs(v - r) < 1e-9 && r >= INT16_MIN && r <= INT16_MAX) {
    buf_int(b, (long)r);
    return;
  }
  double f = floor(v * OTV_CFF_FIXED_ONE + 0.5);
  if (f > (double)INT32_MAX) f = (double)INT32_MAX;
  if (f < (double)INT32_MIN) f = (double)INT32_MIN;
  otv_buf_u8(b, OTV_CFF_FIXED);
  otv_buf_u32(b, (uint32_t)(int32_t)f);
}

void otv_cff_put_op(otv_buf *b, int op)
{
  if (op >= OTV_CFF_ESC(0)) {
    otv_buf_u8(b, OTV_CFF_ESCAPE);
    otv_buf_u8(b, (uint8_t)(op - OTV_CFF_ESC(0)));
  } else {
    otv_buf_u8(b, (uint8_t)op);
  }
}

unsigned otv_cff_off_size(size_t last)
{
  return last <= UINT8_MAX ? 1 : last <= UINT16_MAX ? 2 : last <= UINT24_MAX ? 3 : 4;
}

size_t otv_cff2_index_len(uint32_t count, size_t data_len)
{
  if (!count) return 4;
  return 4 + 1 + ((size_t)count + 1) * otv_cff_off_size(data_len + 1) + data_len;
}

void otv_cff2_put_index(otv_buf *b, const otv_buf *data, const uint32_t *offs, uint32_t count)
{
  otv_buf_u32(b, count);
  if (!count) return;
  unsigned os = otv_cff_off_size(data->len + 1);
  otv_buf_u8(b, (uint8_t)os);
  for (uint32_t i = 0; i <= count; i++) {
    uint32_t o = offs[i] + 1;
    for (unsigned k = os; k-- > 0;) otv_buf_u8(b, (uint8_t)(o >> (8 * k)));
  }
  otv_buf_bytes(b, data->p, data->len);
}

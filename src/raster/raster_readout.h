/*
 * raster_readout.h - the readout of src/raster.c (accumulated cells to 8-bit coverage), included
 * twice by it: with the SSE2 8-cell group, and (x86 with GCC or clang) compiled for AVX2 with
 * the 8-lane group, chosen at run time. Not a header of its own: raster.c defines RO(name) (the
 * name of each function in this copy) and RO_GROUP8 (the 8-cell group) before including it.
 */
/* clang-format off */
/* Cells x0..x1-1 (whole 4-cell blocks, the last one possibly cut at the row's width) of a row:
 * running sum, coverage into d; the cells are zeroed. Returns the running sum after them. */
RASTER_INLINE float RO(block)(float *a, uint8_t *d, size_t x0, size_t x1, float sum, bool even_odd,
                   bool replace)
{
  size_t x = x0;
#if OTV_SSE2
  if (!even_odd) {
    __m128 carry = _mm_set1_ps(sum);
    for (; x + 8 <= x1; x += 8) {
      uint64_t old = 0;
      if (!replace) memcpy(&old, d + x, 8);
      uint64_t out = RO_GROUP8(a + x, &carry, old);
      memcpy(d + x, &out, 8);
    }
    if (x + 4 <= x1) {
      uint32_t old = 0;
      if (!replace) memcpy(&old, d + x, 4);
      uint32_t out = group4(a + x, &carry, old);
      memcpy(d + x, &out, 4);
      x += 4;
    }
    sum = _mm_cvtss_f32(carry);
  }
#endif
  for (; x < x1; x++) {
    sum += a[x];
    a[x] = 0.0f;
    unsigned c = cov8(sum, even_odd);
    d[x] = (uint8_t)(replace ? c : blend(d[x], c));
  }
  return sum;
}


/* Turn one accumulation row into coverage: blocks that received edges are summed cell by cell,
 * the runs between them have the constant coverage of the running sum. The row and its mask are
 * left zeroed for the next render. */
RASTER_INLINE void RO(readout_row)(float *a, uint64_t *m, size_t mwords, uint8_t *d, size_t x0,
                               size_t w, bool even_odd, bool replace)
{
  float sum = 0.0f;
  size_t x = x0;
  for (size_t wi = 0; wi < mwords; wi++) {
    uint64_t bits = m[wi];
    m[wi] = 0;
    while (bits) {
      /* a run of touched blocks: b0 .. b0 + len - 1 */
      unsigned b0 = CTZ64(bits);
      /* adding the lowest set bit carries the lowest run of ones away: t has the bit above the
       * run set (0 when the run reaches bit 63) and no bit of the run */
      uint64_t t = bits + (bits & (0 - bits));
      unsigned b1 = t ? CTZ64(t) : 64;
      bits &= t;
      size_t bx = (wi * 64 + b0) << RASTER_BLOCK_SHIFT, bend = (wi * 64 + b1) << RASTER_BLOCK_SHIFT;
      if (bx < x) {
        /* cells left of x0 (only the rounding of an interpolated x can reach them, by an ulp,
         * in direct mode): zeroed, not read */
        size_t z = bend < x ? bend : x;
        zero_cells(a + bx, z - bx);
        if (bend <= x) continue;
        bx = x;
      }
      if (bx >= w) {
        zero_cells(a + bx, bend - bx); /* cells w, w+1: nothing visible */
        continue;
      }
      if (bx > x) {
        unsigned c = cov8(sum, even_odd);
        if (c || replace) fill_run(d + x, bx - x, c, replace);
      }
      size_t end = bend < w ? bend : w;
      sum = RO(block)(a, d, bx, end, sum, even_odd, replace);
      if (end < bend) zero_cells(a + end, bend - end);
      x = end;
    }
  }
  if (x < w) {
    unsigned c = cov8(sum, even_odd);
    if (c || replace) fill_run(d + x, w - x, c, replace);
  }
}

/* readout_row over `rows` rows (row k: cells a + k * a_stride, mask m + k * mwords, pixels
 * d + k * d_stride, columns x0..w-1), specialised per rule and compositing mode. Direct mode
 * (x0 > 0) first zeroes cell x0 - 1: an interpolated x rounded an ulp below x_min can reach
 * it (a rounding-sized value), which is not read. */
RASTER_INLINE void RO(sparse_rows_v)(float *a, size_t a_stride, uint64_t *m, size_t mwords,
                                 uint8_t *d, size_t d_stride, long rows, size_t x0, size_t w,
                                 bool even_odd, bool replace)
{
  for (long y = 0; y < rows; y++, a += a_stride, m += mwords, d += d_stride) {
    if (x0 > 0) a[x0 - 1] = 0.0f;
    RO(readout_row)(a, m, mwords, d, x0, w, even_odd, replace);
  }
}

static void RO(sparse_rows)(float *a, size_t a_stride, uint64_t *m, size_t mwords, uint8_t *d,
                        size_t d_stride, long rows, size_t x0, size_t w, bool even_odd,
                        bool replace)
{
  /* constant flags where they can be: each call is its own specialized copy */
  if (even_odd) {
    RO(sparse_rows_v)(a, a_stride, m, mwords, d, d_stride, rows, x0, w, true, replace);
  } else if (replace) {
    RO(sparse_rows_v)(a, a_stride, m, mwords, d, d_stride, rows, x0, w, false, true);
  } else {
    RO(sparse_rows_v)(a, a_stride, m, mwords, d, d_stride, rows, x0, w, false, false);
  }
}

/* Dense readout of a narrow row (no mask): every cell in turn, 8-cell blocks through
 * RO(block)(); cells 0..row_len-1 are left zeroed. With SSE2, RO(readout_dense_rows) sends only
 * the even-odd rule here (the non-zero rule takes RO(dense_rows)). */
static void RO(readout_dense)(float *a, size_t row_len, uint8_t *d, size_t w, bool even_odd,
                          bool replace)
{
  float sum = 0.0f;
  for (size_t bx = 0; bx < w; bx += 8) {
    size_t end = bx + 8 < w ? bx + 8 : w;
    sum = RO(block)(a, d, bx, end, sum, even_odd, replace);
  }
  for (size_t x = w; x < row_len; x++) a[x] = 0.0f;
}

#if OTV_SSE2
/* Dense non-zero readout of `rows` rows of a narrow region at once (row k: cells a + k *
 * a_stride, pixels d + k * d_stride, w of them), 8 cells at a time: the cells up to w rounded
 * up to 8 are read and zeroed (they must exist; those past w + 1 are zero), and the 4 cells
 * after them too when they are below zero_len (cells w, w + 1 may hold a rounding-sized
 * value). A last partial group is stored with one 8-byte store that ends at pixel w - 1 and
 * rewrites the end of the previous group with the bytes it already holds (little-endian: SSE2
 * is x86), or, in a row under 8 pixels wide, with two overlapping 4-byte stores. */
RASTER_INLINE void RO(dense_rows)(float *a, size_t a_stride, uint8_t *d, size_t d_stride, int rows,
                              size_t w, size_t zero_len, bool replace, bool zero_runs)
{
  size_t w8 = (w + 7) & ~(size_t)7;
  bool zero_tail = w8 < zero_len;
  for (int y = 0; y < rows; y++, a += a_stride, d += d_stride) {
    __m128 carry = _mm_setzero_ps();
    uint64_t prev = 0;
    size_t x = 0;
    uint64_t run = 0; /* the 8 bytes of the running sum's coverage (0 at the row's start) */
    for (; x + 8 <= w; x += 8) {
      uint64_t old = 0;
      if (!replace) memcpy(&old, d + x, 8);
      if (zero_runs && !old && RO_ZERO8(a + x)) {
        /* 8 zero cells (outside the path, or inside a stem): the running sum stays, all 8
         * pixels take its coverage, the bytes group8 would compute; nothing to zero */
        prev = run;
        memcpy(d + x, &prev, 8);
        continue;
      }
      prev = RO_GROUP8(a + x, &carry, old);
      if (zero_runs) {
        /* the running sum's coverage is that of the group's last pixel (the same cov8
         * arithmetic), unless the group was composited over something */
        run = 0x0101010101010101u *
              (old ? cov8(_mm_cvtss_f32(carry), false) : (unsigned)(prev >> 56));
      }
      memcpy(d + x, &prev, 8);
    }
    if (x < w) {
      size_t n = w - x; /* 1..7 */
      uint64_t old = 0, cur;
      if (x) {
        if (!replace) {
          memcpy(&old, d + w - 8, 8);
          old >>= 8 * (8 - n);
        }
        if (zero_runs && !old && RO_ZERO8(a + x))
          cur = run; /* zero cells past the ink: the running sum's coverage, as above */
        else
          cur = RO_GROUP8(a + x, &carry, old);
        uint64_t v = (prev >> (8 * n)) | (cur << (8 * (8 - n)));
        memcpy(d + w - 8, &v, 8);
      } else if (n >= 4) {
        if (!replace) {
          uint32_t lo, hi;
          memcpy(&lo, d, 4);
          memcpy(&hi, d + n - 4, 4);
          old = lo | (((uint64_t)hi >> (8 * (8 - n))) << 32);
        }
        cur = RO_GROUP8(a, &carry, old);
        uint32_t lo4 = (uint32_t)cur, hi4 = (uint32_t)(cur >> (8 * (n - 4)));
        memcpy(d, &lo4, 4);
        memcpy(d + n - 4, &hi4, 4);
      } else {
        if (!replace)
          for (size_t k = 0; k < n; k++) old |= (uint64_t)d[k] << (8 * k);
        cur = RO_GROUP8(a, &carry, old);
        for (size_t k = 0; k < n; k++) d[k] = (uint8_t)(cur >> (8 * k));
      }
    }
    if (zero_tail) _mm_storeu_ps(a + w8, _mm_setzero_ps());
  }
}
#endif

/* The dense readout of rows rows (see dense_rows); even-odd, or without SSE2, row by row. */
static void RO(readout_dense_rows)(float *a, size_t a_stride, uint8_t *d, size_t d_stride, int rows,
                               size_t w, size_t zero_len, bool even_odd, bool replace)
{
#if OTV_SSE2
  if (!even_odd) {
    /* wide rows have long runs of zero cells (outside the path, inside stems) worth testing
     * for; narrow ones do not */
    bool zr = w >= RASTER_ZERO_RUNS_MIN;
    if (replace) {
      if (zr) RO(dense_rows)(a, a_stride, d, d_stride, rows, w, zero_len, true, true);
      else RO(dense_rows)(a, a_stride, d, d_stride, rows, w, zero_len, true, false);
    } else {
      if (zr) RO(dense_rows)(a, a_stride, d, d_stride, rows, w, zero_len, false, true);
      else RO(dense_rows)(a, a_stride, d, d_stride, rows, w, zero_len, false, false);
    }
    return;
  }
#endif
  for (int y = 0; y < rows; y++)
    RO(readout_dense)(a + (size_t)y * a_stride, zero_len, d + (size_t)y * d_stride, w, even_odd,
                  replace);
}


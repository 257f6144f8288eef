/*
 * fuzz_woff.c - the CLI's WOFF 1.0 / WOFF 2.0 decoder (tools/util_woff.c): headers, table and
 * collection directories, zlib and Brotli data, the glyf/loca and hmtx transforms; then the
 * encoder (tools/util_woff_enc.c) on the decoded font, or on the input when it is not WOFF, whose
 * output must decode again. A decoded font must be a well-formed sfnt for the library: it is
 * opened (every face of a collection) and the first glyphs are drawn, so a rebuilt glyf that the
 * library rejects is only an error, and one it misreads is a sanitizer report.
 *
 * Mutations of Brotli data rarely decompress, so they would seldom reach the transforms. A WOFF2
 * input whose reserved header field (bytes 14-15, 0 in real files) holds 'RA' is "raw": its last
 * totalCompressedSize bytes are the table data uncompressed, which this target compresses (Brotli
 * quality 0) and puts back, with reserved 0 and the lengths fixed, before decoding. Seeds of both
 * kinds are in fuzz/corpus/woff.
 */
#include "otvar.h"
#include "core/reader.h"
#include "core/sfnt.h"
#include "core/writer.h"
#include "fuzz_pen.h"
#include "woff.h"

#include <brotli/encode.h>
#include <stdlib.h>
#include <string.h>

/* WOFF2 header fields the raw form rewrites */
#define RESERVED_OFF 14u              /* UInt16 reserved: 'RA' in the raw form */
#define TOTAL_COMPRESSED_SIZE_OFF 20u /* UInt32 totalCompressedSize */

/* The raw form (see above) compressed: a malloc'd WOFF2 file, or NULL when data is not raw. */
static uint8_t *from_raw(const uint8_t *data, size_t size, size_t *out_len)
{
  if (size < WOFF2_HEADER_LEN || otv_peek_u32(data) != OTV_SFNT_WOF2 || data[RESERVED_OFF] != 'R' ||
      data[RESERVED_OFF + 1] != 'A')
    return NULL;
  /* in range: the header's 48 bytes are there */
  uint32_t raw = otv_peek_u32(data + TOTAL_COMPRESSED_SIZE_OFF);
  if (raw > size - WOFF2_HEADER_LEN) return NULL;
  size_t head = size - raw, cap = BrotliEncoderMaxCompressedSize(raw);
  if (!cap) cap = raw + 64;
  uint8_t *out = malloc(head + cap);
  if (!out) return NULL;
  memcpy(out, data, head);
  size_t comp = cap;
  if (!BrotliEncoderCompress(0, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC, raw, data + head, &comp,
                             out + head)) {
    free(out);
    return NULL;
  }
  out[RESERVED_OFF] = out[RESERVED_OFF + 1] = 0;
  otv_put_u32(out + WOFF_LENGTH_OFF, (uint32_t)(head + comp));
  otv_put_u32(out + TOTAL_COMPRESSED_SIZE_OFF, (uint32_t)comp);
  *out_len = head + comp;
  return out;
}

/* The encoder on a font: whatever it accepts must decode again. */
static void round_trip(const uint8_t *sfnt, size_t len)
{
  char err[256];
  for (int v = 1; v <= 2; v++) {
    uint8_t *web = NULL, *back = NULL;
    size_t wlen = 0, blen = 0;
    if (!(v == 1 ? woff1_encode : woff2_encode)(sfnt, len, &web, &wlen, err, sizeof err)) {
      if (woff_decode(web, wlen, &back, &blen, err, sizeof err)) abort();
      free(back);
    }
    free(web);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  size_t packed_len = 0;
  uint8_t *packed = from_raw(data, size, &packed_len);
  if (packed) {
    data = packed;
    size = packed_len;
  }
  if (!woff_is_woff(data, size)) { /* an sfnt (the test fonts, mutated): the encoder's input */
    round_trip(data, size);
    free(packed);
    return 0;
  }
  uint8_t *sfnt = NULL;
  size_t len = 0;
  char err[256];
  if (woff_decode(data, size, &sfnt, &len, err, sizeof err)) {
    if (!err[0]) abort(); /* every failure says why */
    free(packed);
    return 0;
  }
  round_trip(sfnt, len);
  unsigned faces = otv_font_face_count(sfnt, len);
  for (unsigned i = 0; i < faces && i < 4; i++) {
    otv_face *f = NULL;
    if (otv_face_open_memory(sfnt, len, i, NULL, &f, NULL)) continue;
    otv_location *loc = NULL;
    if (!otv_location_create(f, &loc, NULL)) {
      otv_face_info info;
      otv_face_get_info(f, &info);
      float sink = 0;
      for (uint32_t g = 0; g < info.glyph_count && g < 64; g++)
        otv_glyph_outline(loc, g, 0, &fz_pen, &sink);
      otv_location_destroy(loc);
    }
    otv_face_close(f);
  }
  free(sfnt);
  free(packed);
  return 0;
}

/*
 * otvar_woff.h - WOFF 1.0 and WOFF 2.0 for programs that link the separate codec library
 * libotvar_woff (built where zlib and Brotli are found; the core library stays libc-only):
 * decode a web font into an sfnt that otv_face_open_memory opens, and encode an sfnt. The same
 * code as the otvar command's (docs/woff.md). Thread-safe; no global state.
 */
#ifndef OTVAR_WOFF_H
#define OTVAR_WOFF_H

#include "otvar.h"

#ifdef __cplusplus
extern "C" {
#endif

/** otv_woff_is_woff - true when the bytes start with a WOFF or WOFF2 signature. Since: 0.3 */
OTV_API bool otv_woff_is_woff(const void *data, size_t len);
/** otv_woff_decode - a WOFF or WOFF2 file into a new sfnt (or collection): *out (free with
 *  otv_woff_free) and *out_len. Returns 0, or -1 with a one-line message in err (err_len bytes,
 *  may be 0) naming the structure and offset. Since: 0.3 */
OTV_API int otv_woff_decode(const void *data, size_t len, uint8_t **out, size_t *out_len, char *err,
                            size_t err_len);
/** otv_woff2_encode / otv_woff1_encode - one sfnt (not a collection) as WOFF2 (glyf/loca
 *  transformed, Brotli) or WOFF 1.0 (zlib); as otv_woff_decode for the result. A library built
 *  without the encoder's codec returns -1 saying so. Since: 0.3 */
OTV_API int otv_woff2_encode(const void *sfnt, size_t len, uint8_t **out, size_t *out_len,
                             char *err, size_t err_len);
OTV_API int otv_woff1_encode(const void *sfnt, size_t len, uint8_t **out, size_t *out_len,
                             char *err, size_t err_len);
/** otv_woff_free - free a buffer returned above. NULL is ignored. Since: 0.3 */
OTV_API void otv_woff_free(void *p);

#ifdef __cplusplus
}
#endif

#endif /* OTVAR_WOFF_H */

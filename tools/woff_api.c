/*
 * woff_api.c - the public face of the WOFF codec (include/otvar_woff.h), for libotvar_woff: thin
 * wrappers over woff.h, whose functions the CLI calls directly.
 */
#include "otvar_woff.h"
#include "woff.h"

#include <stdlib.h>

bool otv_woff_is_woff(const void *data, size_t len) { return data && woff_is_woff(data, len); }

int otv_woff_decode(const void *data, size_t len, uint8_t **out, size_t *out_len, char *err,
                    size_t err_len)
{
  if (!data || !out || !out_len) return -1;
  return woff_decode(data, len, out, out_len, err, err_len);
}

int otv_woff2_encode(const void *sfnt, size_t len, uint8_t **out, size_t *out_len, char *err,
                     size_t err_len)
{
  if (!sfnt || !out || !out_len) return -1;
  return woff2_encode(sfnt, len, out, out_len, err, err_len);
}

int otv_woff1_encode(const void *sfnt, size_t len, uint8_t **out, size_t *out_len, char *err,
                     size_t err_len)
{
  if (!sfnt || !out || !out_len) return -1;
  return woff1_encode(sfnt, len, out, out_len, err, err_len);
}

void otv_woff_free(void *p) { free(p); }

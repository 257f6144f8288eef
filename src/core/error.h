/*
 * core/error.h - failing through one function (STYLE.md section 4): the first error recorded
 * into an otv_error wins, with the table tag, the byte offset in that table and a reason.
 * Implemented in core/error.c (with the public status strings and error formatting).
 */
#ifndef OTV_CORE_ERROR_H
#define OTV_CORE_ERROR_H

#include "core/compiler.h"
#include "otvar.h"

/* Record the first error into err (if non-NULL and still OK) and return code. */
otv_status otv_fail(otv_error *err, otv_status code, uint32_t table, uint64_t offset,
                    const char *fmt, ...) OTV_PRINTF(5, 6);
#define OTV_FAIL(err, CODE, table, off, ...)                                                       \
  otv_fail((err), OTV_E_##CODE, (table), (off), __VA_ARGS__)

/* Fail for a checked reader that ran off the end (TRUNCATED at r->bad_at). */
#define OTV_FAIL_RD(err, table, base, rd, what)                                                    \
  otv_fail((err), OTV_E_TRUNCATED, (table), (uint64_t)(base) + (rd)->bad_at, "%s", (what))

#endif /* OTV_CORE_ERROR_H */

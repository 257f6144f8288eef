/*
 * glue.c - compiled only into the WebAssembly module (scripts/build-wasm.sh): the layout of the
 * public structs that web/otvar.js reads and writes in wasm memory with fixed byte offsets.
 *
 * The module exports the C API itself (every OTV_API function), so there is no wrapper code
 * here; what JavaScript cannot see is struct layout. These checks turn a change of a struct
 * into a failed wasm build instead of a page that reads the wrong bytes. The numbers are
 * wasm32's (4-byte size_t and pointers, 8-byte aligned doubles) and appear in otvar.js as the
 * LAYOUT table: change both together.
 */
#include "otvar.h"

#include <stddef.h>

#define CHECK_AT(type, field, off)                                                                 \
  _Static_assert(offsetof(type, field) == (off), #type "." #field " is not at " #off)
#define CHECK_SIZE(type, size) _Static_assert(sizeof(type) == (size), "sizeof " #type)

_Static_assert(sizeof(void *) == 4 && sizeof(size_t) == 4, "otvar.js assumes wasm32");

CHECK_SIZE(otv_error, 128);

CHECK_SIZE(otv_face_info, 20);
CHECK_AT(otv_face_info, flavour, 0);
CHECK_AT(otv_face_info, glyph_count, 4);
CHECK_AT(otv_face_info, units_per_em, 8);
CHECK_AT(otv_face_info, axis_count, 10);
CHECK_AT(otv_face_info, instance_count, 12);

CHECK_SIZE(otv_axis, 40);
CHECK_AT(otv_axis, tag, 0);
CHECK_AT(otv_axis, min_value, 8);
CHECK_AT(otv_axis, default_value, 16);
CHECK_AT(otv_axis, max_value, 24);
CHECK_AT(otv_axis, flags, 32);
CHECK_AT(otv_axis, name_id, 34);

CHECK_SIZE(otv_named_instance, 8);
CHECK_AT(otv_named_instance, subfamily_name_id, 0);

CHECK_SIZE(otv_transform, 48);
CHECK_AT(otv_transform, xx, 0);
CHECK_AT(otv_transform, xy, 8);
CHECK_AT(otv_transform, yx, 16);
CHECK_AT(otv_transform, yy, 24);
CHECK_AT(otv_transform, dx, 32);
CHECK_AT(otv_transform, dy, 40);

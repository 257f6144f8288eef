/*
 * mvar.h - MVAR (spec: mvar): font-wide values varied through an ItemVariationStore, one value
 * record per registered tag ("Value tags"). Parsed at open; the table of which field of OS/2,
 * hhea, vhea, post or gasp each tag varies is here too, for the metrics API and the instancers.
 * Implemented in mvar.c.
 */
#ifndef OTV_MVAR_H
#define OTV_MVAR_H

#include "ivs.h"

/* The MVAR value tags we know: the registered ones of the MVAR chapter. Index = position in
 * otv_mvar_tags[]. */
#define OTV_MVAR_TAG_COUNT 38
extern const uint32_t otv_mvar_tags[OTV_MVAR_TAG_COUNT];
/* their indices that the metrics code names */
enum {
  OTV_MVAR_HASC = 0,
  OTV_MVAR_HDSC = 1,
  OTV_MVAR_HCLA = 3,
  OTV_MVAR_HCLD = 4,
  OTV_MVAR_FIRST_GASP = 28
};

typedef struct otv_mvar {
  bool present;
  otv_ivs ivs;
  /* Per known tag (index as in otv_mvar_tags): its delta-set index, when MVAR has a record.
   * When a tag occurs twice the first record wins. */
  uint32_t outer[OTV_MVAR_TAG_COUNT];
  uint32_t inner[OTV_MVAR_TAG_COUNT];
  bool has[OTV_MVAR_TAG_COUNT];
  uint16_t record_size, record_count; /* valueRecordSize, valueRecordCount (also when not */
  uint16_t ivs_off;                   /* present: no records), itemVariationStoreOffset */
} otv_mvar;

/* tab may be empty, and is ignored without axes (present stays false). */
otv_status otv_mvar_parse(otv_span tab, uint16_t axis_count, const otv_alloc *al, otv_mvar *out,
                          otv_error *err);
void otv_mvar_free(const otv_alloc *al, otv_mvar *m);
/* Index of a tag in otv_mvar_tags[], or -1. */
int otv_mvar_tag_index(uint32_t tag);

/* The field a tag index varies: table tag, byte offset, and whether it is a uint16. */
typedef struct otv_mvar_field {
  uint32_t table;
  uint16_t off;
  bool is_unsigned;
} otv_mvar_field;
void otv_mvar_field_of(int k, otv_mvar_field *out);

/* The tables the base values live in (spans into the font; empty when absent). */
typedef struct otv_mvar_bases {
  otv_span os2, hhea, vhea, post, gasp;
} otv_mvar_bases;
/* The base value of tag index k; false when the font has no such field (a short or old OS/2,
 * gasp with fewer ranges). */
bool otv_mvar_base_value(const otv_mvar_bases *b, int k, float *out);

#endif /* OTV_MVAR_H */

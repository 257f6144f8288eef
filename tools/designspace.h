/*
 * designspace.h - reading a designspace document (format 3, 4 and 5 XML, with expat) into the
 * plain otv_designspace the library builds from (otvar.h, otv_build). Implemented in
 * designspace.c; CLI only (the library stays libc-only).
 */
#ifndef OTV_DESIGNSPACE_H
#define OTV_DESIGNSPACE_H

#include "otvar.h"

#include <stddef.h>

typedef struct ds_doc {
  otv_designspace ds;
  /* owned storage behind ds */
  otv_build_axis *axes;
  otv_build_map **maps;
  otv_build_source *sources;
  otv_build_instance *instances;
  const char *axis_keys[64]; /* per axis: its name attribute (what dimensions name) */
  char **files;              /* per source: the filename attribute */
  double **src_locs;         /* per source / instance: design coordinates */
  double **inst_locs;
  otv_build_mapping *mappings; /* format 5 <mappings> (avar 2); locations owned */
  unsigned mapping_cap;
  otv_build_rule *rules; /* <rules>: sets, conditions and substitution arrays owned */
  uint32_t rule_features[4];
  int rules_last;          /* <rules processing="last"> */
  otv_build_label *labels; /* format 5 axis labels */
  int axis_ordering[64];   /* per axis: <labels ordering>, -1: none */
  char **strings;          /* every string allocated */
  size_t string_count;
  unsigned axis_cap, source_cap, instance_cap;
  int format_major;
} ds_doc;

/* Parse the XML text (len bytes). Returns 0, or -1 with a message in msg (cap bytes) naming the
 * line. Masters are not read here: ds.sources[i].data stays NULL (see ds_load_masters). */
int ds_parse(ds_doc *d, const char *xml, size_t len, char *msg, size_t cap);
/* Read every source's master font: the binary font (.ttf, else .otf) named as the source's
 * filename without its extension, in master_dir (NULL: the designspace's own directory,
 * ds_dir). Returns 0, or -1 with a message naming the file. */
int ds_load_masters(ds_doc *d, const char *ds_dir, const char *master_dir, char *msg, size_t cap);
void ds_free(ds_doc *d);

#endif

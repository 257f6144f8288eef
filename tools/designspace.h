/*
 * designspace.h - reading a designspace document (format 3, 4 and 5 XML, with expat) into the
 * plain otv_designspace the library builds from (otvar.h, otv_build). Implemented in
 * designspace.c; CLI only (the library stays libc-only).
 */
#ifndef OTV_DESIGNSPACE_H
#define OTV_DESIGNSPACE_H

#include "otvar.h"

#include <stddef.h>
#include <stdint.h>

/* One <axis-subset> of a format 5 <variable-font>: the whole axis, a user range (userminimum,
 * userdefault, usermaximum) or one user value (uservalue: a discrete or pinned axis). */
enum { DS_SUBSET_WHOLE, DS_SUBSET_RANGE, DS_SUBSET_VALUE };
typedef struct ds_axis_subset {
  unsigned axis;
  int kind;
  double minimum, def, maximum; /* DS_SUBSET_RANGE */
  double value;                 /* DS_SUBSET_VALUE */
} ds_axis_subset;

/* One format 5 <variable-font name filename>: its subsets (first .. first + count - 1 of
 * ds_doc.subsets) and the feature tags of its <lib>'s featureVarsFeatureTag (0: the doc's). */
typedef struct ds_vf {
  const char *name, *filename; /* filename: its base name, or NULL */
  unsigned first, count;
  uint32_t rule_features[4];
  unsigned rule_feature_count;
} ds_vf;

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
  /* format 5 location labels (document-level <labels><label>: STAT format 4); locations owned */
  otv_build_location_label *loc_labels;
  unsigned loc_label_count;
  /* format 5 discrete axes (<axis values="...">): per axis its user values (NULL: continuous) */
  double *discrete[64];
  unsigned discrete_count[64];
  /* format 5 <variable-fonts> (read from format 5 on, as designspaceLib) */
  ds_vf *vfs;
  unsigned vf_count;
  ds_axis_subset *subsets;
  unsigned subset_count;
  int stat_ordering[64]; /* per axis its STAT AxisOrdering (fontTools' getStatAxes) */
} ds_doc;

/* One variable font of a document with discrete axes (fontTools' splitInterpolable): the
 * continuous axes only; the sources, instances, rules and labels at one combination of the
 * discrete axes' values, their locations without the discrete axes. ds borrows the masters'
 * bytes and the strings of the ds_doc it came from. */
typedef struct ds_sub {
  otv_designspace ds;
  otv_build_axis *axes;
  otv_build_source *sources;
  otv_build_instance *instances;
  double *locs; /* every projected location */
  otv_build_rule *rules;
  otv_build_conditionset *sets;
  otv_build_condition *conds;
  otv_build_label *labels;
  otv_build_location_label *loc_labels;
  otv_build_map *maps;               /* every kept axis's map, clipped to its range */
  otv_build_stat_axis stat_axes[64]; /* every axis of the document (fontTools' getStatAxes) */
  char suffix[256]; /* "-TAGVALUE" per discrete axis (fontTools' VariableFontDescriptor name) */
  const char *vf_name, *vf_filename; /* a <variable-font>'s name and filename (or NULL) */
} ds_sub;

/* Parse the XML text (len bytes). Returns 0, or -1 with a message in msg (cap bytes) naming the
 * line. Masters are not read here: ds.sources[i].data stays NULL (see ds_load_masters). */
int ds_parse(ds_doc *d, const char *xml, size_t len, char *msg, size_t cap);
/* Read every source's master font: the binary font (.ttf, else .otf) named as the source's
 * filename without its extension, in master_dir (NULL: the designspace's own directory,
 * ds_dir). Returns 0, or -1 with a message naming the file. */
int ds_load_masters(ds_doc *d, const char *ds_dir, const char *master_dir, char *msg, size_t cap);
void ds_free(ds_doc *d);

/* The number of variable fonts d describes: its <variable-font>s, else the product of its
 * discrete axes' value counts (1 without discrete axes). */
unsigned ds_vf_count(const ds_doc *d);
/* The k-th of them (k < ds_vf_count): the k-th <variable-font> (its region: the axis subsets,
 * an axis it does not name pinned at its default, as fontTools' getVFUserRegion), else the k-th
 * combination of discrete values (the last discrete axis varies fastest, as itertools.product
 * in fontTools) with the continuous axes whole. Sources, instances, rules and labels are
 * those in the region (fontTools' _extractSubSpace); STAT lists every axis. Returns 0, or -1
 * with a message (no source in the region, a value not on its axis, avar 2 mappings with
 * discrete or subset axes, out of memory); free sub with ds_sub_free either way. */
int ds_subspace(const ds_doc *d, unsigned k, ds_sub *sub, char *msg, size_t cap);
void ds_sub_free(ds_sub *sub);

/* The bytes of fd to its end, read into one buffer of size + 1 bytes (size: what fstat says,
 * so one read fills it and the next finds the end) that doubles while the data is longer, up to
 * max bytes. NULL with errno set (EFBIG past max, ENOMEM, a read error); free the result. */
uint8_t *ds_read_fd(int fd, size_t size, size_t max, size_t *len);

#endif

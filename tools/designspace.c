/*
 * designspace.c - designspace documents (fontTools' designspaceLib format, versions 3 to 5) read
 * with expat into otv_designspace: axes (tag, name or English labelname, minimum/default/maximum
 * in user space, hidden, <map input output>), sources (<location><dimension name xvalue> in
 * design space; a dimension missing is the axis's default; format 5 uservalue is mapped), named
 * instances (stylename, postscriptfontname, location), format 5 axis mappings (<mappings>
 * <mapping> <input>/<output> <dimension>: avar 2), rules (<rules processing>, <rule>,
 * <conditionset>, <condition name minimum maximum>, <sub name with>; the feature tags from the
 * lib key com.github.fonttools.varLib.featureVarsFeatureTag), format 5 axis labels (<labels
 * ordering>, <label uservalue userminimum usermaximum linkeduservalue name elidable
 * oldersibling>) and <axes elidedfallbackname>; format 5 discrete axes (<axis values>), split
 * into one variable font per combination of their values (ds_subspace, as fontTools'
 * splitInterpolable); format 5 location labels (<labels><label name elidable oldersibling>
 * <location><dimension name uservalue>: STAT format 4); format 5 <variable-fonts>
 * (<variable-font name filename>, <axis-subsets><axis-subset name uservalue | userminimum
 * userdefault usermaximum>, its lib's featureVarsFeatureTag), each built as a font of its own
 * (ds_subspace, as fontTools' splitVariableFonts).
 */
#include "designspace.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <expat.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifndef O_CLOEXEC
#  define O_CLOEXEC 0
#endif

typedef struct pstate {
  ds_doc *d;
  XML_Parser p;
  char *msg;
  size_t cap;
  int failed;
  int in_axis;      /* inside <axis> (index + 1) */
  int in_source;    /* inside <source> (index + 1) */
  int in_instance;  /* inside <instance> (index + 1) */
  int in_labelname; /* inside <labelname xml:lang="en"> of an axis */
  int in_location;
  int in_label;    /* inside a format 5 <label> (its labelnames are not the axis's) */
  int in_loclabel; /* inside a document-level <label> (a location label; index + 1) */
  int in_mapping;  /* inside <mappings><mapping> (index + 1) */
  int in_map_io;   /* inside its <input> (1) or <output> (2) */
  int in_rule;     /* inside <rule> (index + 1) */
  int in_cset;     /* inside <conditionset> of it */
  int lib_depth;   /* inside the document's <lib> (its nesting depth) */
  int lib_key;     /* the last <key> was varLib's featureVarsFeatureTag */
  int in_vfs;      /* inside format 5 <variable-fonts> */
  int in_vf;       /* inside its <variable-font> (index + 1) */
  int lib_vf;      /* the <lib> being read is that of <variable-font> lib_vf (index + 1) */
  int in_text;     /* collecting text of a lib <key> (1) or <string> (2) */
  char *text;
  size_t text_len;
} pstate;

static void fail(pstate *s, const char *fmt, ...)
{
  if (s->failed) return;
  s->failed = 1;
  int n = snprintf(s->msg, s->cap, "line %lu: ", (unsigned long)XML_GetCurrentLineNumber(s->p));
  va_list ap;
  va_start(ap, fmt);
  if (n > 0 && (size_t)n < s->cap) vsnprintf(s->msg + n, s->cap - (size_t)n, fmt, ap);
  va_end(ap);
  XML_StopParser(s->p, XML_FALSE);
}

/* The elements the reader acts on: each start and end tag named once (its first letter picks
 * the candidates, one strcmp each) instead of a strcmp per branch of the handlers below (a
 * <dimension>, the commonest element, went through about 20; docs/build.md "Start-up, fifth
 * pass"). */
enum {
  E_OTHER,
  E_AXES,
  E_AXIS,
  E_AXIS_SUBSET,
  E_CONDITION,
  E_CONDITIONSET,
  E_DESIGNSPACE,
  E_DIMENSION,
  E_INPUT,
  E_INSTANCE,
  E_KEY,
  E_LABEL,
  E_LABELNAME,
  E_LABELS,
  E_LIB,
  E_LOCATION,
  E_MAP,
  E_MAPPING,
  E_OUTPUT,
  E_RULE,
  E_RULES,
  E_SOURCE,
  E_STRING,
  E_SUB,
  E_VARIABLE_FONT,
  E_VARIABLE_FONTS,
};

static const char *const el_names[] = {
    [E_OTHER] = "",
    [E_AXES] = "axes",
    [E_AXIS] = "axis",
    [E_AXIS_SUBSET] = "axis-subset",
    [E_CONDITION] = "condition",
    [E_CONDITIONSET] = "conditionset",
    [E_DESIGNSPACE] = "designspace",
    [E_DIMENSION] = "dimension",
    [E_INPUT] = "input",
    [E_INSTANCE] = "instance",
    [E_KEY] = "key",
    [E_LABEL] = "label",
    [E_LABELNAME] = "labelname",
    [E_LABELS] = "labels",
    [E_LIB] = "lib",
    [E_LOCATION] = "location",
    [E_MAP] = "map",
    [E_MAPPING] = "mapping",
    [E_OUTPUT] = "output",
    [E_RULE] = "rule",
    [E_RULES] = "rules",
    [E_SOURCE] = "source",
    [E_STRING] = "string",
    [E_SUB] = "sub",
    [E_VARIABLE_FONT] = "variable-font",
    [E_VARIABLE_FONTS] = "variable-fonts",
};

_Static_assert(sizeof el_names / sizeof el_names[0] == E_VARIABLE_FONTS + 1, "el_names");

static int el_id(const char *el)
{
  int lo, hi; /* the candidates: el_names[lo .. hi], sorted, one first letter */
  switch (el[0]) {
  case 'a': lo = E_AXES, hi = E_AXIS_SUBSET; break;
  case 'c': lo = E_CONDITION, hi = E_CONDITIONSET; break;
  case 'd': lo = E_DESIGNSPACE, hi = E_DIMENSION; break;
  case 'i': lo = E_INPUT, hi = E_INSTANCE; break;
  case 'k': lo = hi = E_KEY; break;
  case 'l': lo = E_LABEL, hi = E_LOCATION; break;
  case 'm': lo = E_MAP, hi = E_MAPPING; break;
  case 'o': lo = hi = E_OUTPUT; break;
  case 'r': lo = E_RULE, hi = E_RULES; break;
  case 's': lo = E_SOURCE, hi = E_SUB; break;
  case 'v': lo = E_VARIABLE_FONT, hi = E_VARIABLE_FONTS; break;
  default: return E_OTHER;
  }
  for (int i = lo; i <= hi; i++)
    if (el[1] == el_names[i][1] && !strcmp(el + 1, el_names[i] + 1)) return i;
  return E_OTHER;
}

static const char *attr(const char **a, const char *name)
{
  for (; a && a[0]; a += 2) /* the first letters compared inline: most attributes differ there */
    if (a[0][0] == name[0] && !strcmp(a[0], name)) return a[1];
  return NULL;
}

/* whether a boolean attribute is set: "true" or "1" */
static bool is_true(const char *v) { return v && (!strcmp(v, "true") || !strcmp(v, "1")); }

/* a <label>'s STAT flags: bit 0 oldersibling, bit 1 elidable */
static unsigned label_flags(const char **a)
{
  return (is_true(attr(a, "oldersibling")) ? 1u : 0u) | (is_true(attr(a, "elidable")) ? 2u : 0u);
}

static char *keep(pstate *s, const char *v)
{
  ds_doc *d = s->d;
  /* not strdup: POSIX, undeclared where _POSIX_C_SOURCE is not set (the fuzz targets build this
   * file as C11: an implicit int strdup cut the pointer to 32 bits) */
  size_t n = v ? strlen(v) + 1 : 0;
  char *c = n ? malloc(n) : NULL;
  if (!c) return NULL;
  memcpy(c, v, n);
  /* the list grows by doubling: at counts 0, 8, 16, 32, ... (a realloc per string was a
   * tenth of the reader's own instructions) */
  size_t sc = d->string_count;
  if (sc < 8 ? sc == 0 : !(sc & (sc - 1))) {
    char **ns = sc > SIZE_MAX / (4 * sizeof *ns)
                    ? NULL
                    : realloc(d->strings, (sc ? 2 * sc : 8) * sizeof *ns);
    if (!ns) {
      free(c);
      return NULL;
    }
    d->strings = ns;
  }
  d->strings[d->string_count++] = c;
  return c;
}

static int num(pstate *s, const char *v, const char *what, double *out)
{
  if (!v) {
    fail(s, "%s missing", what);
    return -1;
  }
  char *end;
  errno = 0;
  double x = strtod(v, &end);
  if (end == v || *end || errno || x != x) {
    fail(s, "bad number '%s' for %s", v, what);
    return -1;
  }
  *out = x;
  return 0;
}

static int axis_by_name(const ds_doc *d, const char *name)
{
  for (unsigned a = 0; a < d->ds.axis_count; a++)
    if (d->axis_keys[a] && name && !strcmp(d->axis_keys[a], name)) return (int)a;
  return -1;
}

static double map_fwd(const otv_build_axis *a, double v)
{
  if (!a->map_count) return v;
  const otv_build_map *m = a->map;
  unsigned n = a->map_count;
  if (v <= m[0].input) return m[0].output + (v - m[0].input);
  if (v >= m[n - 1].input) return m[n - 1].output + (v - m[n - 1].input);
  for (unsigned i = 1; i < n; i++)
    if (v <= m[i].input)
      return m[i - 1].output +
             (v - m[i - 1].input) * (m[i].output - m[i - 1].output) / (m[i].input - m[i - 1].input);
  return v;
}

/* list (count elements of elem bytes) with one more, zeroed, at its end; NULL (list unchanged)
 * when memory is out or count has reached limit, failed with "more than <limit> <what>" */
static void *append(pstate *s, void *list, unsigned count, unsigned limit, const char *what,
                    size_t elem)
{
  if (count >= limit) {
    fail(s, "more than %u %s", limit, what);
    return NULL;
  }
  unsigned char *nl = realloc(list, (count + 1) * elem);
  if (!nl) {
    fail(s, "out of memory");
    return NULL;
  }
  memset(nl + count * elem, 0, elem);
  return nl;
}

/* Room for source or instance count: its list (returned; elem bytes an element) and the lists
 * alongside it, *locs (locations) and, for sources, *files, doubled (8 at first) when count has
 * reached *cap; the new element zeroed. NULL (list unchanged) when memory is out, failed. */
static void *append_located(pstate *s, void *list, size_t elem, unsigned count, unsigned *cap,
                            double ***locs, char ***files)
{
  if (count == *cap) {
    unsigned nc = *cap ? 2 * *cap : 8;
    double **nl = realloc(*locs, nc * sizeof *nl);
    if (nl) *locs = nl;
    char **nf = nl && files ? realloc(*files, nc * sizeof *nf) : NULL;
    if (nf) *files = nf;
    void *grown = nl && (nf || !files) ? realloc(list, nc * elem) : NULL;
    if (!grown) {
      fail(s, "out of memory");
      return NULL;
    }
    list = grown;
    *cap = nc;
  }
  memset((unsigned char *)list + count * elem, 0, elem);
  return list;
}

/* a new location of axis_count design values, every axis at its default */
static double *new_location(pstate *s)
{
  ds_doc *d = s->d;
  double *l = calloc(d->ds.axis_count ? d->ds.axis_count : 1, sizeof *l);
  if (!l) return NULL;
  for (unsigned a = 0; a < d->ds.axis_count; a++)
    l[a] = map_fwd(&d->axes[a], d->axes[a].default_value);
  return l;
}

/* The axis that nm, an element's name attribute, names; -1 when none, failed with
 * "<what> '<nm>' names no axis". */
static int named_axis(pstate *s, const char *nm, const char *what)
{
  int ai = axis_by_name(s->d, nm);
  if (ai < 0) fail(s, "%s '%s' names no axis", what, nm ? nm : "");
  return ai;
}

/* A <dimension> of a source's or instance's location or of an axis mapping's input or output
 * (what: its name in messages): the axis it names, and in *v its design value, xvalue or
 * uservalue mapped through the axis's map; -1 when it fails. */
static int design_dimension(pstate *s, const char **a, const char *what, double *v)
{
  const char *nm = attr(a, "name");
  int ai = named_axis(s, nm, what);
  if (ai < 0) return -1;
  const char *xv = attr(a, "xvalue"), *uv = attr(a, "uservalue");
  if (xv) {
    if (num(s, xv, "dimension xvalue", v)) return -1;
  } else if (uv) {
    if (num(s, uv, "dimension uservalue", v)) return -1;
    *v = map_fwd(&s->d->axes[ai], *v);
  } else {
    fail(s, "%s '%s' without xvalue", what, nm);
    return -1;
  }
  return ai;
}

static void XMLCALL on_start(void *ud, const char *el, const char **a)
{
  pstate *s = ud;
  ds_doc *d = s->d;
  if (s->failed) return;
  s->text_len = 0;
  int e = el_id(el);
  if (e == E_DESIGNSPACE) {
    const char *f = attr(a, "format");
    d->format_major = f ? atoi(f) : 3;
  } else if (e == E_AXIS && !s->in_source && !s->in_instance) {
    if (d->ds.mapping_count) {
      fail(s, "an axis after the axis mappings");
      return;
    }
    if (d->ds.source_count || d->ds.instance_count || d->loc_label_count) {
      /* their locations have no room for it */
      fail(s, "an axis after the sources or instances");
      return;
    }
    if (d->ds.axis_count == 64) {
      fail(s, "more than 64 axes");
      return;
    }
    if (d->ds.axis_count == d->axis_cap) {
      unsigned nc = d->axis_cap ? 2 * d->axis_cap : 8;
      otv_build_axis *na = realloc(d->axes, nc * sizeof *na);
      otv_build_map **nm = na ? realloc(d->maps, nc * sizeof *nm) : NULL;
      if (na) d->axes = na;
      if (!na || !nm) {
        fail(s, "out of memory");
        return;
      }
      d->maps = nm;
      d->axis_cap = nc;
    }
    otv_build_axis *ax = &d->axes[d->ds.axis_count];
    memset(ax, 0, sizeof *ax);
    d->maps[d->ds.axis_count] = NULL;
    const char *tag = attr(a, "tag"), *name = attr(a, "name");
    if (!tag || !*tag || strlen(tag) > 4) {
      fail(s, "axis without a tag of 1 to 4 characters");
      return;
    }
    char t4[5] = "    ";
    memcpy(t4, tag, strlen(tag));
    ax->tag = OTV_TAG(t4[0], t4[1], t4[2], t4[3]);
    ax->name = keep(s, name ? name : tag);
    d->axis_keys[d->ds.axis_count] = ax->name;
    /* the registered axes' lower-case names get their English names (as fontTools' varLib,
     * when no <labelname> gives one) */
    static const char *const registered[][2] = {{"weight", "Weight"},
                                                {"width", "Width"},
                                                {"slant", "Slant"},
                                                {"optical", "Optical Size"},
                                                {"italic", "Italic"}};
    for (size_t i = 0; name && i < sizeof registered / sizeof registered[0]; i++)
      if (!strcmp(name, registered[i][0])) ax->name = keep(s, registered[i][1]);
    const char *vals = attr(a, "values");
    if (vals) {
      /* a discrete axis: its user values (at most 256), minimum and maximum from them */
      unsigned ai = d->ds.axis_count, n = 0;
      double *v = malloc(256 * sizeof *v);
      if (!v) {
        fail(s, "out of memory");
        return;
      }
      d->discrete[ai] = v;
      for (const char *q = vals; *q;) {
        while (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r') q++;
        if (!*q) break;
        char *end;
        errno = 0;
        double x = strtod(q, &end);
        if (end == q || errno || x != x || (*end && !strchr(" \t\n\r", *end))) {
          fail(s, "bad axis values '%s'", vals);
          return;
        }
        if (n == 256) {
          fail(s, "more than 256 values of a discrete axis");
          return;
        }
        v[n++] = x;
        q = end;
      }
      if (!n) {
        fail(s, "discrete axis without values");
        return;
      }
      d->discrete_count[ai] = n;
      ax->min_value = ax->max_value = v[0];
      for (unsigned i = 1; i < n; i++) {
        if (v[i] < ax->min_value) ax->min_value = v[i];
        if (v[i] > ax->max_value) ax->max_value = v[i];
      }
      ax->default_value = v[0];
      const char *dv = attr(a, "default");
      if (dv && num(s, dv, "axis default", &ax->default_value)) return;
    } else if (num(s, attr(a, "minimum"), "axis minimum", &ax->min_value) ||
               num(s, attr(a, "default"), "axis default", &ax->default_value) ||
               num(s, attr(a, "maximum"), "axis maximum", &ax->max_value))
      return;
    ax->hidden = is_true(attr(a, "hidden"));
    d->ds.axis_count++;
    s->in_axis = (int)d->ds.axis_count;
  } else if (e == E_MAP && s->in_axis) {
    unsigned ai = (unsigned)s->in_axis - 1;
    otv_build_axis *ax = &d->axes[ai];
    otv_build_map *nm = realloc(d->maps[ai], (ax->map_count + 1) * sizeof *nm);
    if (!nm) {
      fail(s, "out of memory");
      return;
    }
    d->maps[ai] = nm;
    ax->map = nm; /* now: a location read before </axis> (hostile XML) maps through it */
    otv_build_map m;
    if (num(s, attr(a, "input"), "map input", &m.input) ||
        num(s, attr(a, "output"), "map output", &m.output))
      return;
    /* sorted by input */
    unsigned p = ax->map_count;
    while (p > 0 && nm[p - 1].input > m.input) nm[p] = nm[p - 1], p--;
    nm[p] = m;
    ax->map_count++;
  } else if (e == E_AXES) {
    const char *ef = attr(a, "elidedfallbackname");
    if (ef && !(d->ds.elided_fallback_name = keep(s, ef))) fail(s, "out of memory");
  } else if (e == E_LABELS && s->in_axis) {
    const char *o = attr(a, "ordering");
    double v;
    if (o && !num(s, o, "labels ordering", &v)) {
      if (v < 0 || v > 65535) {
        fail(s, "labels ordering out of range");
        return;
      }
      d->axis_ordering[s->in_axis - 1] = (int)v;
    }
  } else if (e == E_LABEL && !s->in_axis && !s->in_source && !s->in_instance && !s->in_label) {
    /* a location label (STAT format 4): name, flags, then its <location> in user values */
    s->in_label = 1;
    otv_build_location_label *nl =
        append(s, d->loc_labels, d->loc_label_count, 4096, "location labels", sizeof *nl);
    if (!nl) return;
    d->loc_labels = nl;
    otv_build_location_label *l = &nl[d->loc_label_count];
    const char *nm = attr(a, "name");
    if (!nm) {
      fail(s, "location label without a name");
      return;
    }
    double *loc = malloc((d->ds.axis_count ? d->ds.axis_count : 1) * sizeof *loc);
    if (!loc || !(l->name = keep(s, nm))) {
      free(loc);
      fail(s, "out of memory");
      return;
    }
    /* every axis: those the label does not name at their default (user value), as
     * designspace's full user location of a label */
    for (unsigned q = 0; q < d->ds.axis_count; q++) loc[q] = d->axes[q].default_value;
    l->location = loc;
    l->flags = label_flags(a);
    s->in_loclabel = (int)++d->loc_label_count;
  } else if (e == E_DIMENSION && s->in_location && s->in_loclabel) {
    const char *nm = attr(a, "name"), *uv = attr(a, "uservalue");
    int ai = named_axis(s, nm, "location label dimension");
    double v;
    if (ai < 0) return;
    if (!uv) {
      fail(s, "location label dimension '%s' without uservalue", nm);
      return;
    }
    if (num(s, uv, "dimension uservalue", &v)) return;
    ((double *)d->loc_labels[s->in_loclabel - 1].location)[ai] = v;
  } else if (e == E_LABEL) {
    s->in_label = 1;
    if (!s->in_axis) return;
    otv_build_label *nl = append(s, d->labels, d->ds.label_count, 4096, "labels", sizeof *nl);
    if (!nl) return;
    d->labels = nl;
    otv_build_label *l = &nl[d->ds.label_count];
    l->axis = (unsigned)s->in_axis - 1;
    l->minimum = l->maximum = l->linked = NAN;
    const char *uv = attr(a, "uservalue"), *mn = attr(a, "userminimum"),
               *mx = attr(a, "usermaximum"), *lk = attr(a, "linkeduservalue"),
               *nm = attr(a, "name");
    if (num(s, uv, "label uservalue", &l->value) ||
        (mn && num(s, mn, "label userminimum", &l->minimum)) ||
        (mx && num(s, mx, "label usermaximum", &l->maximum)) ||
        (lk && num(s, lk, "label linkeduservalue", &l->linked)))
      return;
    if (!nm) {
      fail(s, "label without a name");
      return;
    }
    if (!(l->name = keep(s, nm))) {
      fail(s, "out of memory");
      return;
    }
    l->flags = label_flags(a);
    d->ds.label_count++;
  } else if (e == E_LABELNAME && s->in_axis && !s->in_label) {
    const char *lang = attr(a, "xml:lang");
    s->in_labelname = lang && !strcmp(lang, "en");
  } else if (e == E_VARIABLE_FONTS && d->format_major >= 5) {
    s->in_vfs = 1;
  } else if (e == E_VARIABLE_FONT && s->in_vfs && !s->in_vf) {
    ds_vf *nv = append(s, d->vfs, d->vf_count, 4096, "variable fonts", sizeof *nv);
    if (!nv) return;
    d->vfs = nv;
    ds_vf *vf = &nv[d->vf_count];
    const char *nm = attr(a, "name"), *fn = attr(a, "filename");
    if (!nm || !*nm) {
      fail(s, "variable-font without a name");
      return;
    }
    /* only the base name of filename (as designspaceLib: no path traversal) */
    const char *slash = fn ? strrchr(fn, '/') : NULL;
    if (slash) fn = slash + 1;
    if (!(vf->name = keep(s, nm)) || (fn && !(vf->filename = keep(s, fn)))) {
      fail(s, "out of memory");
      return;
    }
    vf->first = d->subset_count;
    s->in_vf = (int)++d->vf_count;
  } else if (e == E_AXIS_SUBSET && s->in_vf) {
    ds_vf *vf = &d->vfs[s->in_vf - 1];
    const char *nm = attr(a, "name"), *uv = attr(a, "uservalue"), *mn = attr(a, "userminimum"),
               *df = attr(a, "userdefault"), *mx = attr(a, "usermaximum");
    int ai = axis_by_name(d, nm);
    if (ai < 0) {
      fail(s, "variable font '%s': axis-subset '%s' names no axis", vf->name, nm ? nm : "");
      return;
    }
    for (unsigned i = vf->first; i < d->subset_count; i++)
      if (d->subsets[i].axis == (unsigned)ai) {
        fail(s, "variable font '%s': axis '%s' subset twice", vf->name, nm);
        return;
      }
    ds_axis_subset *ns = append(s, d->subsets, d->subset_count, 65536, "axis subsets", sizeof *ns);
    if (!ns) return;
    d->subsets = ns;
    ds_axis_subset *sb = &ns[d->subset_count];
    sb->axis = (unsigned)ai;
    if (uv) {
      sb->kind = DS_SUBSET_VALUE;
      if (num(s, uv, "axis-subset uservalue", &sb->value)) return;
    } else if (mn && df && mx) {
      sb->kind = DS_SUBSET_RANGE;
      if (num(s, mn, "axis-subset userminimum", &sb->minimum) ||
          num(s, df, "axis-subset userdefault", &sb->def) ||
          num(s, mx, "axis-subset usermaximum", &sb->maximum))
        return;
    } else if (mn || df || mx) {
      fail(s,
           "variable font '%s': axis-subset '%s' needs userminimum, userdefault and "
           "usermaximum, or none",
           vf->name, nm);
      return;
    } else
      sb->kind = DS_SUBSET_WHOLE;
    if (sb->kind != DS_SUBSET_VALUE && d->discrete[ai]) {
      fail(s, "variable font '%s': a range of discrete axis '%s' (use uservalue)", vf->name, nm);
      return;
    }
    d->subset_count++;
    vf->count++;
  } else if (e == E_SOURCE) {
    unsigned k = d->ds.source_count;
    otv_build_source *ns =
        append_located(s, d->sources, sizeof *ns, k, &d->source_cap, &d->src_locs, &d->files);
    if (!ns) return;
    d->sources = ns;
    otv_build_source *src = &ns[k];
    const char *f = attr(a, "filename");
    if (!f) {
      fail(s, "source without a filename");
      return;
    }
    d->files[k] = keep(s, f);
    const char *nm = attr(a, "name");
    src->name = keep(s, nm ? nm : f);
    d->src_locs[k] = new_location(s);
    if (!d->files[k] || !src->name || !d->src_locs[k]) {
      fail(s, "out of memory");
      return;
    }
    src->location = d->src_locs[k];
    d->ds.source_count++;
    s->in_source = (int)d->ds.source_count;
  } else if (e == E_INSTANCE) {
    unsigned k = d->ds.instance_count;
    otv_build_instance *ni =
        append_located(s, d->instances, sizeof *ni, k, &d->instance_cap, &d->inst_locs, NULL);
    if (!ni) return;
    d->instances = ni;
    otv_build_instance *in = &ni[k];
    const char *sn = attr(a, "stylename"), *ps = attr(a, "postscriptfontname");
    in->style_name = sn ? keep(s, sn) : NULL;
    in->postscript_name = ps ? keep(s, ps) : NULL;
    d->inst_locs[k] = new_location(s);
    if (!d->inst_locs[k]) {
      fail(s, "out of memory");
      return;
    }
    in->location = d->inst_locs[k];
    d->ds.instance_count++;
    s->in_instance = (int)d->ds.instance_count;
  } else if (e == E_MAPPING && !s->in_axis) {
    if (d->ds.mapping_count == d->mapping_cap) {
      unsigned nc = d->mapping_cap ? 2 * d->mapping_cap : 4;
      if (nc > 4096) {
        fail(s, "more than 4096 axis mappings");
        return;
      }
      otv_build_mapping *nm = realloc(d->mappings, nc * sizeof *nm);
      if (!nm) {
        fail(s, "out of memory");
        return;
      }
      d->mappings = nm;
      d->mapping_cap = nc;
    }
    otv_build_mapping *m = &d->mappings[d->ds.mapping_count];
    double *io = malloc(2 * (d->ds.axis_count ? d->ds.axis_count : 1) * sizeof *io);
    if (!io) {
      fail(s, "out of memory");
      return;
    }
    for (unsigned q = 0; q < 2 * d->ds.axis_count; q++) io[q] = NAN;
    m->input = io, m->output = io + d->ds.axis_count;
    d->ds.mapping_count++;
    s->in_mapping = (int)d->ds.mapping_count;
  } else if (s->in_mapping && (e == E_INPUT || e == E_OUTPUT)) {
    s->in_map_io = e == E_INPUT ? 1 : 2;
  } else if (e == E_DIMENSION && s->in_map_io) {
    double v;
    int ai = design_dimension(s, a, "mapping dimension", &v);
    if (ai < 0) return;
    const otv_build_mapping *m = &d->mappings[s->in_mapping - 1];
    ((double *)(s->in_map_io == 1 ? m->input : m->output))[ai] = v;
  } else if (e == E_RULES) {
    const char *pr = attr(a, "processing");
    d->rules_last = pr && !strcmp(pr, "last");
  } else if (e == E_RULE) {
    otv_build_rule *nr = append(s, d->rules, d->ds.rule_count, 4096, "rules", sizeof *nr);
    if (!nr) return;
    d->rules = nr;
    s->in_rule = (int)++d->ds.rule_count;
    s->in_cset = 0;
  } else if (s->in_rule && (e == E_CONDITIONSET || e == E_CONDITION)) {
    otv_build_rule *r = &d->rules[s->in_rule - 1];
    /* (a set is opened too when the rule has none yet: a <condition> in a <conditionset> left
     * open by an earlier rule, hostile XML, found by fuzz_designspace) */
    if (e == E_CONDITIONSET || !s->in_cset || r->set_count == 0) {
      /* a <condition> straight in <rule> (format 3) opens a set of its own once */
      if (e == E_CONDITIONSET || r->set_count == 0) {
        otv_build_conditionset *ns =
            append(s, (void *)r->sets, r->set_count, 256, "condition sets in a rule", sizeof *ns);
        if (!ns) return;
        r->sets = ns;
        r->set_count++;
      }
      if (e == E_CONDITIONSET) {
        s->in_cset = 1;
        return;
      }
    }
    otv_build_conditionset *cs = (otv_build_conditionset *)&r->sets[r->set_count - 1];
    int ai = named_axis(s, attr(a, "name"), "condition");
    if (ai < 0) return;
    otv_build_condition cd = {(unsigned)ai, NAN, NAN};
    const char *mn = attr(a, "minimum"), *mx = attr(a, "maximum");
    if ((mn && num(s, mn, "condition minimum", &cd.minimum)) ||
        (mx && num(s, mx, "condition maximum", &cd.maximum)))
      return;
    otv_build_condition *nc = append(s, (void *)cs->conditions, cs->condition_count, 64,
                                     "conditions in a set", sizeof *nc);
    if (!nc) return;
    nc[cs->condition_count++] = cd;
    cs->conditions = nc;
  } else if (s->in_rule && e == E_SUB) {
    otv_build_rule *r = &d->rules[s->in_rule - 1];
    const char *nm = attr(a, "name"), *w = attr(a, "with");
    if (!nm || !w) {
      fail(s, "<sub> without name or with");
      return;
    }
    if (r->sub_count >= 65535) {
      fail(s, "too many substitutions");
      return;
    }
    const char **nn = realloc((void *)r->sub_names, (r->sub_count + 1) * sizeof *nn);
    if (nn) r->sub_names = nn;
    const char **nw = nn ? realloc((void *)r->sub_with, (r->sub_count + 1) * sizeof *nw) : NULL;
    if (nw) r->sub_with = nw;
    const char *kn = nw ? keep(s, nm) : NULL, *kw = kn ? keep(s, w) : NULL;
    if (!kw) {
      fail(s, "out of memory");
      return;
    }
    nn[r->sub_count] = kn, nw[r->sub_count] = kw;
    r->sub_count++;
  } else if (e == E_LIB && !s->in_source && !s->in_instance && !s->lib_depth) {
    s->lib_depth = 1;
    s->lib_vf = s->in_vf; /* a <variable-font>'s lib: its own feature tags */
  } else if (s->lib_depth && (e == E_KEY || e == E_STRING)) {
    s->in_text = e == E_KEY ? 1 : 2;
  } else if (e == E_LOCATION) {
    s->in_location = 1;
  } else if (e == E_DIMENSION && s->in_location && (s->in_source || s->in_instance)) {
    double v;
    int ai = design_dimension(s, a, "dimension", &v);
    if (ai < 0) return;
    double *loc = s->in_source ? d->src_locs[s->in_source - 1] : d->inst_locs[s->in_instance - 1];
    loc[ai] = v;
  }
}

static void XMLCALL on_end(void *ud, const char *el)
{
  pstate *s = ud;
  if (s->failed) return;
  int e = el_id(el);
  if (e == E_AXIS && s->in_axis && !s->in_source && !s->in_instance) {
    unsigned ai = (unsigned)s->in_axis - 1;
    s->d->axes[ai].map = s->d->maps[ai];
    s->in_axis = 0;
  } else if (e == E_LABELNAME && s->in_labelname) {
    if (s->text_len && s->in_axis) { /* (an <axis> closed inside it: hostile XML) */
      s->text[s->text_len] = 0;
      s->d->axes[s->in_axis - 1].name = keep(s, s->text);
    }
    s->in_labelname = 0;
  } else if (e == E_LABEL) {
    s->in_label = 0;
    s->in_loclabel = 0;
  } else if (e == E_SOURCE) {
    s->in_source = 0;
  } else if (e == E_INSTANCE) {
    s->in_instance = 0;
  } else if (e == E_LOCATION) {
    s->in_location = 0;
  } else if (e == E_RULE) {
    s->in_rule = 0;
  } else if (e == E_CONDITIONSET) {
    s->in_cset = 0;
  } else if (e == E_LIB && s->lib_depth) {
    s->lib_depth = 0;
    s->lib_vf = 0;
  } else if (e == E_VARIABLE_FONT && s->in_vf) {
    s->in_vf = 0;
  } else if (e == E_VARIABLE_FONTS) {
    s->in_vfs = 0;
  } else if (s->in_text && (e == E_KEY || e == E_STRING)) {
    const char *t = s->text_len && s->text ? (s->text[s->text_len] = 0, s->text) : "";
    if (s->in_text == 1)
      s->lib_key = !strcmp(t, "com.github.fonttools.varLib.featureVarsFeatureTag");
    else if (s->lib_key) {
      /* comma-separated feature tags (at most 4): the document's, or a variable font's */
      ds_doc *d = s->d;
      ds_vf *vf = s->lib_vf && (unsigned)s->lib_vf <= d->vf_count ? &d->vfs[s->lib_vf - 1] : NULL;
      uint32_t *tags = vf ? vf->rule_features : d->rule_features;
      unsigned *count = vf ? &vf->rule_feature_count : &d->ds.rule_feature_count;
      *count = 0;
      const char *q = t;
      while (*q && *count < 4) {
        char tg[5] = "    ";
        size_t n = strcspn(q, ",");
        if (n == 0 || n > 4) {
          fail(s, "bad feature tag list '%s'", t);
          break;
        }
        memcpy(tg, q, n);
        tags[(*count)++] = OTV_TAG(tg[0], tg[1], tg[2], tg[3]);
        q += n + (q[n] == ',');
      }
      s->lib_key = 0;
    }
    s->in_text = 0;
  } else if (e == E_MAPPING && s->in_mapping) {
    s->in_mapping = 0;
  } else if (e == E_INPUT || e == E_OUTPUT) {
    s->in_map_io = 0;
  }
  s->text_len = 0;
}

static void XMLCALL on_text(void *ud, const char *t, int len)
{
  pstate *s = ud;
  if ((!s->in_labelname && !s->in_text) || s->failed || len <= 0) return;
  char *nt = realloc(s->text, s->text_len + (size_t)len + 1);
  if (!nt) {
    fail(s, "out of memory");
    return;
  }
  s->text = nt;
  memcpy(s->text + s->text_len, t, (size_t)len);
  s->text_len += (size_t)len;
}

int ds_parse(ds_doc *d, const char *xml, size_t len, char *msg, size_t cap)
{
  memset(d, 0, sizeof *d);
  for (unsigned a = 0; a < 64; a++) d->axis_ordering[a] = -1;
  pstate s;
  memset(&s, 0, sizeof s);
  s.d = d;
  s.msg = msg;
  s.cap = cap;
  s.p = XML_ParserCreate("UTF-8");
  if (!s.p) {
    snprintf(msg, cap, "out of memory");
    return -1;
  }
  XML_SetUserData(s.p, &s);
  XML_SetElementHandler(s.p, on_start, on_end);
  XML_SetCharacterDataHandler(s.p, on_text);
  if (len > (size_t)INT32_MAX) {
    snprintf(msg, cap, "designspace too large");
    XML_ParserFree(s.p);
    return -1;
  }
  if (XML_Parse(s.p, xml, (int)len, XML_TRUE) == XML_STATUS_ERROR && !s.failed) {
    snprintf(msg, cap, "line %lu: %s", (unsigned long)XML_GetCurrentLineNumber(s.p),
             XML_ErrorString(XML_GetErrorCode(s.p)));
    s.failed = 1;
  }
  XML_ParserFree(s.p);
  free(s.text);
  for (unsigned a = 0; a < d->ds.axis_count; a++) d->axes[a].map = d->maps[a];
  d->ds.axes = d->axes;
  d->ds.sources = d->sources;
  d->ds.instances = d->instances;
  d->ds.mappings = d->mappings;
  d->ds.rules = d->rules;
  d->ds.labels = d->labels;
  /* STAT ordering as fontTools' getStatAxes: the given ones, the others after the largest
   * given one in axis order */
  int next = -1;
  for (unsigned a = 0; a < d->ds.axis_count; a++)
    if (d->axis_ordering[a] > next) next = d->axis_ordering[a];
  for (unsigned a = 0; a < d->ds.axis_count; a++)
    d->stat_ordering[a] = d->axis_ordering[a] >= 0 ? d->axis_ordering[a] : ++next;
  d->ds.axis_ordering = d->stat_ordering;
  d->ds.location_labels = d->loc_labels;
  d->ds.location_label_count = d->loc_label_count;
  if (d->ds.rule_count && !d->ds.rule_feature_count) {
    d->rule_features[0] = d->rules_last ? OTV_TAG('r', 'c', 'l', 't') : OTV_TAG('r', 'v', 'r', 'n');
    d->ds.rule_feature_count = 1;
  }
  d->ds.rule_features = d->rule_features;
  if (!s.failed && !d->ds.axis_count) snprintf(msg, cap, "no axes"), s.failed = 1;
  if (!s.failed && !d->ds.source_count) snprintf(msg, cap, "no sources"), s.failed = 1;
  return s.failed ? -1 : 0;
}

uint8_t *ds_read_fd(int fd, size_t size, size_t max, size_t *len)
{
  if (size >= max) {
    errno = EFBIG;
    return NULL;
  }
  size_t cap = size + 1, n = 0; /* + 1: the read that finds the end */
  uint8_t *buf = malloc(cap);
  while (buf) {
    if (n == cap) { /* longer than size said (a pipe, or the file grew since fstat) */
      uint8_t *nb = cap < max ? realloc(buf, 2 * cap) : (errno = EFBIG, NULL);
      if (!nb) {
        free(buf);
        return NULL;
      }
      buf = nb, cap *= 2;
    }
    ssize_t r = read(fd, buf + n, cap - n);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      free(buf);
      return NULL;
    }
    if (r == 0) break;
    n += (size_t)r;
  }
  if (buf) *len = n;
  return buf;
}

/* A master's bytes: open, fstat, one read of the file's size and the read that finds its end
 * (stdio's buffered reads of 64 KiB cost a copy and more calls). NULL if it cannot be read. */
static uint8_t *read_file(const char *path, size_t *len)
{
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return NULL;
  struct stat st;
  size_t size = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? (size_t)st.st_size : 65535;
  uint8_t *buf = ds_read_fd(fd, size, (size_t)1 << 30, len);
  close(fd);
  return buf;
}

/* Whether file names the same master as the stem base[0..stem) (its last path component up to
 * its extension: the master file ds_load_masters reads for it). */
static bool same_stem(const char *file, const char *base, size_t stem)
{
  const char *b = strrchr(file, '/');
  b = b ? b + 1 : file;
  size_t n = strlen(b);
  const char *dot = strrchr(b, '.');
  if (dot) n = (size_t)(dot - b);
  return n == stem && !memcmp(b, base, stem);
}

int ds_load_masters(ds_doc *d, const char *ds_dir, const char *master_dir, char *msg, size_t cap)
{
  const char *dir = master_dir ? master_dir : ds_dir;
  for (unsigned k = 0; k < d->ds.source_count; k++) {
    const char *f = d->files[k];
    const char *base = strrchr(f, '/');
    base = base ? base + 1 : f;
    size_t stem = strlen(base);
    const char *dot = strrchr(base, '.');
    if (dot) stem = (size_t)(dot - base);
    /* a file named by an earlier source (a layer of it: ignored) is read once, shared */
    unsigned same = 0;
    while (same < k && !same_stem(d->files[same], base, stem)) same++;
    if (same < k) {
      d->sources[k].data = d->sources[same].data;
      d->sources[k].len = d->sources[same].len;
      continue;
    }
    static const char *const exts[] = {".ttf", ".otf"};
    char path[4096];
    uint8_t *data = NULL;
    size_t len = 0;
    for (unsigned e = 0; e < 2 && !data; e++) {
      int n = snprintf(path, sizeof path, "%s/%.*s%s", dir && *dir ? dir : ".", (int)stem, base,
                       exts[e]);
      if (n < 0 || (size_t)n >= sizeof path) break;
      data = read_file(path, &len);
    }
    if (!data) {
      snprintf(msg, cap, "source %s: no %.*s.ttf or .otf in %s", d->sources[k].name, (int)stem,
               base, dir && *dir ? dir : ".");
      return -1;
    }
    d->sources[k].data = data;
    d->sources[k].len = len;
  }
  return 0;
}

void ds_free(ds_doc *d)
{
  for (unsigned k = 0; k < d->ds.source_count; k++) {
    unsigned same = 0; /* bytes shared with an earlier source are freed there */
    while (same < k && d->sources[same].data != d->sources[k].data) same++;
    if (same == k) free((void *)d->sources[k].data);
    free(d->src_locs[k]);
  }
  for (unsigned k = 0; k < d->ds.instance_count; k++) free(d->inst_locs[k]);
  for (unsigned a = 0; a < d->ds.axis_count; a++) free(d->maps[a]);
  for (unsigned a = 0; a < 64; a++) free(d->discrete[a]);
  for (unsigned i = 0; i < d->loc_label_count; i++) free((void *)d->loc_labels[i].location);
  free(d->loc_labels);
  for (unsigned i = 0; i < d->ds.mapping_count; i++) free((void *)d->mappings[i].input);
  for (unsigned i = 0; i < d->ds.rule_count; i++) {
    otv_build_rule *r = &d->rules[i];
    for (unsigned j = 0; j < r->set_count; j++) free((void *)r->sets[j].conditions);
    free((void *)r->sets);
    free((void *)r->sub_names);
    free((void *)r->sub_with);
  }
  free(d->rules);
  free(d->vfs);
  free(d->subsets);
  free(d->labels);
  free(d->mappings);
  for (size_t i = 0; i < d->string_count; i++) free(d->strings[i]);
  free(d->strings);
  free(d->axes);
  free(d->maps);
  free(d->sources);
  free(d->instances);
  free(d->files);
  free(d->src_locs);
  free(d->inst_locs);
  memset(d, 0, sizeof *d);
}

/* ---- discrete axes: one variable font per combination of their values ---- */

unsigned ds_vf_count(const ds_doc *d)
{
  if (d->vf_count) return d->vf_count;
  unsigned n = 1;
  for (unsigned a = 0; a < d->ds.axis_count; a++)
    if (d->discrete[a]) n = n > 65536 / d->discrete_count[a] ? 65537 : n * d->discrete_count[a];
  return n;
}

/* a number as Python's str(float) writes it: 0.0, 1.0, 0.5, 100.0 */
static void py_float(char *buf, size_t cap, double v)
{
  if (v == floor(v) && fabs(v) < 1e15)
    snprintf(buf, cap, "%.1f", v);
  else {
    for (int prec = 1; prec <= 17; prec++) { /* the shortest that reads back */
      snprintf(buf, cap, "%.*g", prec, v);
      if (strtod(buf, NULL) == v) break;
    }
  }
}

/* The region of one variable font, per axis of the document: a user range (minimum, default,
 * maximum) or a point (all three its value), and the same in design space. */
typedef struct ds_region {
  bool point[64];
  double umin[64], udef[64], umax[64];
  double dmin[64], ddef[64], dmax[64];
} ds_region;

static bool in_values(const ds_doc *d, unsigned a, double v)
{
  for (unsigned i = 0; i < d->discrete_count[a]; i++)
    if (d->discrete[a][i] == v) return true;
  return false;
}

/* the k-th <variable-font>'s region (fontTools' getVFUserRegion); 0, or -1 with a message */
static int vf_region(const ds_doc *d, const ds_vf *vf, ds_region *r, char *msg, size_t cap)
{
  for (unsigned a = 0; a < d->ds.axis_count; a++) { /* not named: pinned at its default */
    r->point[a] = true;
    r->umin[a] = r->udef[a] = r->umax[a] = d->axes[a].default_value;
  }
  for (unsigned i = vf->first; i < vf->first + vf->count; i++) {
    const ds_axis_subset *sb = &d->subsets[i];
    unsigned a = sb->axis;
    const otv_build_axis *ax = &d->axes[a];
    const char *an = d->axis_keys[a];
    if (sb->kind == DS_SUBSET_VALUE) {
      double v = sb->value;
      if (d->discrete[a] ? !in_values(d, a, v) : !(v >= ax->min_value && v <= ax->max_value)) {
        snprintf(msg, cap, "variable font '%s': %g is not a value of axis '%s'", vf->name, v, an);
        return -1;
      }
      r->umin[a] = r->udef[a] = r->umax[a] = v;
      continue;
    }
    r->point[a] = false;
    double lo = ax->min_value, hi = ax->max_value, df = ax->default_value;
    if (sb->kind == DS_SUBSET_RANGE) {
      lo = fmax(sb->minimum, lo), hi = fmin(sb->maximum, hi), df = sb->def;
      if (!(lo <= hi)) {
        snprintf(msg, cap, "variable font '%s': the range of axis '%s' is outside the axis",
                 vf->name, an);
        return -1;
      }
      df = fmin(fmax(df, lo), hi); /* as designspaceLib's Range */
    }
    r->umin[a] = lo, r->udef[a] = df, r->umax[a] = hi;
  }
  return 0;
}

/* whether design value v of axis a is in region r (a point: equal; fontTools compares user
 * values, mapped back) */
static bool in_region(const ds_region *r, unsigned a, double v)
{
  if (r->point[a]) return fabs(v - r->ddef[a]) <= 1e-9;
  return v >= r->dmin[a] - 1e-9 && v <= r->dmax[a] + 1e-9;
}

static bool user_in_region(const ds_region *r, unsigned a, double v)
{
  if (r->point[a]) return v == r->udef[a];
  return v >= r->umin[a] && v <= r->umax[a];
}

int ds_subspace(const ds_doc *d, unsigned k, ds_sub *sub, char *msg, size_t cap)
{
  memset(sub, 0, sizeof *sub);
  unsigned na = d->ds.axis_count, nc = 0;
  int keep_ax[64], new_ix[64];
  ds_region r;
  const ds_vf *vf = NULL;
  char what[300]; /* the font, in messages */
  if (d->vf_count) {
    if (k >= d->vf_count) {
      snprintf(msg, cap, "no variable font %u", k);
      return -1;
    }
    vf = &d->vfs[k];
    sub->vf_name = vf->name;
    sub->vf_filename = vf->filename;
    snprintf(what, sizeof what, "variable font '%s'", vf->name);
    if (vf_region(d, vf, &r, msg, cap)) return -1;
  } else {
    unsigned rest = k;
    for (unsigned a = na; a-- > 0;) { /* the last axis varies fastest */
      const otv_build_axis *ax = &d->axes[a];
      r.point[a] = d->discrete[a] != NULL;
      if (r.point[a]) {
        double v = d->discrete[a][rest % d->discrete_count[a]];
        rest /= d->discrete_count[a];
        r.umin[a] = r.udef[a] = r.umax[a] = v;
      } else
        r.umin[a] = ax->min_value, r.udef[a] = ax->default_value, r.umax[a] = ax->max_value;
    }
    size_t sl = 0;
    for (unsigned a = 0; a < na; a++)
      if (d->discrete[a]) { /* the name: -TAGVALUE in axis order */
        char t[5], v[40];
        for (int j = 0; j < 4; j++) t[j] = (char)(d->axes[a].tag >> (24 - 8 * j));
        t[4] = 0;
        for (int j = 3; j > 0 && t[j] == ' '; j--) t[j] = 0;
        py_float(v, sizeof v, r.udef[a]);
        int n = snprintf(sub->suffix + sl, sizeof sub->suffix - sl, "-%s%s", t, v);
        if (n > 0 && (size_t)n < sizeof sub->suffix - sl) sl += (size_t)n;
      }
    snprintf(what, sizeof what, "variable font *%s", sub->suffix);
  }
  bool whole = true; /* every axis varies over all of it */
  for (unsigned a = 0; a < na; a++) {
    const otv_build_axis *ax = &d->axes[a];
    r.dmin[a] = map_fwd(ax, r.umin[a]);
    r.ddef[a] = map_fwd(ax, r.udef[a]);
    r.dmax[a] = map_fwd(ax, r.umax[a]);
    keep_ax[a] = !r.point[a];
    new_ix[a] = keep_ax[a] ? (int)nc++ : -1;
    whole &= keep_ax[a] && r.umin[a] == ax->min_value && r.umax[a] == ax->max_value;
  }
  if (!nc) {
    snprintf(msg, cap, vf ? "%s: no axis varies" : "no continuous axis (every axis is discrete)",
             what);
    return -1;
  }
  if (d->ds.mapping_count && !whole) {
    snprintf(msg, cap,
             "axis mappings (avar 2) with discrete, pinned or subset axes are not "
             "supported");
    return -1;
  }
  size_t nsrc = 0, ninst = 0;
  for (int pass = 0; pass < 2; pass++) {
    /* pass 0 counts, pass 1 fills */
    nsrc = ninst = 0;
    for (int wh = 0; wh < 2; wh++) {
      unsigned count = wh ? d->ds.instance_count : d->ds.source_count;
      for (unsigned i = 0; i < count; i++) {
        const double *loc = wh ? d->instances[i].location : d->sources[i].location;
        bool in = true;
        for (unsigned a = 0; a < na && in; a++) in = in_region(&r, a, loc[a]);
        if (!in) continue;
        if (pass) {
          double *pl = sub->locs + (nsrc + ninst) * nc;
          for (unsigned a = 0; a < na; a++)
            if (keep_ax[a]) pl[new_ix[a]] = loc[a];
          if (wh) {
            sub->instances[ninst] = d->instances[i];
            sub->instances[ninst].location = pl;
          } else {
            sub->sources[nsrc] = d->sources[i];
            sub->sources[nsrc].location = pl;
          }
        }
        if (wh)
          ninst++;
        else
          nsrc++;
      }
    }
    if (pass) break;
    if (!nsrc) {
      snprintf(msg, cap,
               vf ? "%s: no source in its region" : "%s: no source at its discrete axis values",
               what);
      return -1;
    }
    sub->axes = malloc(nc * sizeof *sub->axes);
    sub->sources = malloc(nsrc * sizeof *sub->sources);
    sub->instances = malloc((ninst ? ninst : 1) * sizeof *sub->instances);
    sub->locs = malloc((nsrc + ninst) * nc * sizeof *sub->locs);
    if (!sub->axes || !sub->sources || !sub->instances || !sub->locs) {
      snprintf(msg, cap, "out of memory");
      return -1;
    }
  }
  /* the kept axes: their range, the map's points inside it, and the range's ends mapped when
   * points beyond them are dropped (fontTools keeps only the points inside, which moves the
   * design values of the ends when they fall between points; within the range this map is the
   * document's) */
  size_t nmap = 0;
  for (unsigned a = 0; a < na; a++) nmap += d->axes[a].map_count + 2;
  sub->maps = malloc((nmap ? nmap : 1) * sizeof *sub->maps);
  if (!sub->maps) {
    snprintf(msg, cap, "out of memory");
    return -1;
  }
  otv_build_map *mp = sub->maps;
  for (unsigned a = 0; a < na; a++) {
    if (!keep_ax[a]) continue;
    const otv_build_axis *ax = &d->axes[a];
    otv_build_axis *o = &sub->axes[new_ix[a]];
    *o = *ax;
    o->min_value = r.umin[a], o->default_value = r.udef[a], o->max_value = r.umax[a];
    o->map = mp;
    unsigned n = 0, m = ax->map_count;
    bool cut_lo = m && ax->map[0].input < r.umin[a], cut_hi = m && ax->map[m - 1].input > r.umax[a];
    bool has_lo = false, has_hi = false;
    for (unsigned i = 0; i < m; i++) {
      has_lo |= ax->map[i].input == r.umin[a];
      has_hi |= ax->map[i].input == r.umax[a];
    }
    if (cut_lo && !has_lo) mp[n].input = r.umin[a], mp[n++].output = r.dmin[a];
    for (unsigned i = 0; i < m; i++)
      if (ax->map[i].input >= r.umin[a] && ax->map[i].input <= r.umax[a]) mp[n++] = ax->map[i];
    if (cut_hi && !has_hi && r.umax[a] > r.umin[a])
      mp[n].input = r.umax[a], mp[n++].output = r.dmax[a];
    o->map_count = n;
    mp += n;
  }
  /* rules (fontTools' _subsetRulesBasedOnConditions): a condition on a pinned axis holds
   * (dropped) or not (its set dropped); on a kept axis it is dropped when it covers the range,
   * else cut to it (its set dropped when nothing is left); a rule whose sets all went is dropped */
  size_t nsets = 0, nconds = 0;
  for (unsigned i = 0; i < d->ds.rule_count; i++)
    for (unsigned j = 0; j < d->rules[i].set_count; j++)
      nsets++, nconds += d->rules[i].sets[j].condition_count;
  sub->rules = malloc((d->ds.rule_count ? d->ds.rule_count : 1) * sizeof *sub->rules);
  sub->sets = malloc((nsets ? nsets : 1) * sizeof *sub->sets);
  sub->conds = malloc((nconds ? nconds : 1) * sizeof *sub->conds);
  sub->labels = malloc((d->ds.label_count ? d->ds.label_count : 1) * sizeof *sub->labels);
  if (!sub->rules || !sub->sets || !sub->conds || !sub->labels) {
    snprintf(msg, cap, "out of memory");
    return -1;
  }
  unsigned nr = 0;
  size_t ns = 0, ncd = 0;
  for (unsigned i = 0; i < d->ds.rule_count; i++) {
    const otv_build_rule *ro = &d->rules[i];
    size_t s0 = ns;
    for (unsigned j = 0; j < ro->set_count; j++) {
      const otv_build_conditionset *cs = &ro->sets[j];
      size_t c0 = ncd;
      bool holds = true;
      for (unsigned c = 0; c < cs->condition_count && holds; c++) {
        const otv_build_condition *cd = &cs->conditions[c];
        if (cd->axis >= na) continue;
        unsigned a = cd->axis;
        double lo = isnan(cd->minimum) ? -INFINITY : cd->minimum,
               hi = isnan(cd->maximum) ? INFINITY : cd->maximum;
        if (r.point[a]) {
          holds = r.ddef[a] >= lo && r.ddef[a] <= hi;
        } else if (!(lo <= r.dmin[a] && r.dmax[a] <= hi)) {
          lo = fmax(lo, r.dmin[a]), hi = fmin(hi, r.dmax[a]);
          holds = lo <= hi;
          sub->conds[ncd].axis = (unsigned)new_ix[a];
          sub->conds[ncd].minimum = lo;
          sub->conds[ncd++].maximum = hi;
        }
      }
      if (!holds) {
        ncd = c0;
        continue;
      }
      for (size_t x = c0 + 1; x < ncd; x++) /* in axis order, as fontTools */
        for (size_t y = x; y > c0 && sub->conds[y - 1].axis > sub->conds[y].axis; y--) {
          otv_build_condition t = sub->conds[y];
          sub->conds[y] = sub->conds[y - 1], sub->conds[y - 1] = t;
        }
      sub->sets[ns].conditions = sub->conds + c0;
      sub->sets[ns++].condition_count = (unsigned)(ncd - c0);
    }
    if (ro->set_count && ns == s0) continue;
    sub->rules[nr] = *ro;
    sub->rules[nr].sets = sub->sets + s0;
    sub->rules[nr++].set_count = (unsigned)(ns - s0);
  }
  /* STAT: every axis of the document (fontTools' getStatAxes), the labels in the region, the
   * location labels whose full user location is in it */
  for (unsigned a = 0; a < na; a++) {
    sub->stat_axes[a].tag = d->axes[a].tag;
    sub->stat_axes[a].name = d->axes[a].name;
    sub->stat_axes[a].ordering =
        d->stat_ordering[a] > 0xFFFF ? 0xFFFFu : (unsigned)d->stat_ordering[a];
    sub->stat_axes[a].axis = new_ix[a];
  }
  unsigned nl = 0;
  for (unsigned i = 0; i < d->ds.label_count; i++)
    if (d->labels[i].axis < na && user_in_region(&r, d->labels[i].axis, d->labels[i].value))
      sub->labels[nl++] = d->labels[i];
  unsigned nll = 0;
  sub->loc_labels = malloc((d->loc_label_count ? d->loc_label_count : 1) * sizeof *sub->loc_labels);
  if (!sub->loc_labels) {
    snprintf(msg, cap, "out of memory");
    return -1;
  }
  for (unsigned i = 0; i < d->loc_label_count; i++) {
    const double *l = d->loc_labels[i].location;
    bool in = true;
    for (unsigned a = 0; a < na && in; a++) in = user_in_region(&r, a, l[a]);
    if (in) sub->loc_labels[nll++] = d->loc_labels[i];
  }
  sub->ds = d->ds;
  sub->ds.location_labels = sub->loc_labels;
  sub->ds.location_label_count = nll;
  sub->ds.axes = sub->axes;
  sub->ds.axis_count = nc;
  sub->ds.sources = sub->sources;
  sub->ds.source_count = (unsigned)nsrc;
  sub->ds.instances = sub->instances;
  sub->ds.instance_count = (unsigned)ninst;
  sub->ds.rules = sub->rules;
  sub->ds.rule_count = nr;
  sub->ds.labels = sub->labels;
  sub->ds.label_count = nl;
  sub->ds.axis_ordering = NULL;
  sub->ds.stat_axes = sub->stat_axes;
  sub->ds.stat_axis_count = na;
  if (vf && vf->rule_feature_count) {
    sub->ds.rule_features = vf->rule_features;
    sub->ds.rule_feature_count = vf->rule_feature_count;
  }
  return 0;
}

void ds_sub_free(ds_sub *sub)
{
  free(sub->axes);
  free(sub->sources);
  free(sub->instances);
  free(sub->locs);
  free(sub->maps);
  free(sub->rules);
  free(sub->sets);
  free(sub->conds);
  free(sub->labels);
  free(sub->loc_labels);
  memset(sub, 0, sizeof *sub);
}

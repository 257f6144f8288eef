/*
 * instance/names.c - the name table of a static or partial instance (spec: name, fvar, STAT):
 * the records only the dropped fvar and STAT used are removed, as fontTools' instancer prunes
 * them; with OTV_INSTANCE_UPDATE_NAMES the family, subfamily, full, PostScript and unique names
 * are rebuilt from the STAT axis values at the location, as fontTools' --update-name-table does
 * (and head.macStyle / OS/2 fsSelection from the new subfamily). Reads the face's parsed name,
 * fvar and STAT (name.h, fvar.h, stat.h).
 */
#include "instance/inst.h"
#include "fields.h"

#include <stdio.h>
#include <stdlib.h>

/* spec: name IDs */
enum {
  NAME_FAMILY = 1,
  NAME_SUBFAMILY = 2,
  NAME_UNIQUE_ID = 3,
  NAME_FULL = 4,
  NAME_VERSION = 5,
  NAME_POSTSCRIPT = 6,
  NAME_TYPO_FAMILY = 16,
  NAME_TYPO_SUBFAMILY = 17,
  NAME_VARIATIONS_PS_PREFIX = 25,
  NAME_FIRST_FONT_SPECIFIC = 256 /* IDs below are predefined: never dropped */
};
#define STAT_ELIDABLE_AXIS_VALUE_NAME 0x0002u /* spec: STAT axis value flags */
#define PLATFORM_WINDOWS 3
#define ENCODING_WINDOWS_UNICODE_BMP 1
#define LANGUAGE_ENGLISH_US 0x0409

/* ---- the records dropped with fvar and STAT ---- */

typedef struct idset {
  uint16_t ids[1024];
  unsigned n;
} idset;

static void idset_add(idset *s, unsigned id)
{
  if (id < NAME_FIRST_FONT_SPECIFIC || id == 0xFFFF || s->n == sizeof s->ids / sizeof *s->ids)
    return;
  s->ids[s->n++] = (uint16_t)id;
}
static bool idset_has(const idset *s, unsigned id)
{
  for (unsigned i = 0; i < s->n; i++)
    if (s->ids[i] == id) return true;
  return false;
}

/* Name IDs an fvar uses (axis names, instance subfamily and PostScript names). */
static void fvar_name_ids(const otv_fvar *fv, idset *s)
{
  for (unsigned a = 0; a < fv->axis_count; a++) idset_add(s, fv->axis[a].name_id);
  for (unsigned i = 0; i < fv->instance_count; i++) {
    otv_named_instance ni;
    unsigned one = 1;
    otv_fvar_named_instances(fv, i, &one, &ni);
    idset_add(s, ni.subfamily_name_id);
    idset_add(s, ni.postscript_name_id);
  }
}

/* Name IDs the face's STAT uses. */
static void stat_name_ids(const otv_stat *st, idset *s)
{
  idset_add(s, st->elided_fallback_name_id);
  for (unsigned a = 0; a < st->design_axis_count; a++) {
    otv_stat_axis ax;
    unsigned one = 1;
    otv_stat_axes(st, a, &one, &ax);
    idset_add(s, ax.name_id);
  }
  for (unsigned v = 0; v < st->axis_value_count; v++) {
    otv_stat_value val;
    unsigned one = 1;
    otv_stat_values(st, v, &one, &val);
    idset_add(s, val.name_id);
  }
}

/* The name IDs an instance drops, as fontTools' instancer prunes them: those the face's fvar
 * and STAT used that the instance's do not (a static instance has no fvar; partial.c and
 * stat.c wrote the new fvar and STAT: read back with their parsers). */
static otv_status dropped_name_ids(otv_inst *in, idset *drop)
{
  drop->n = 0;
  fvar_name_ids(&in->face->fvar, drop);
  stat_name_ids(&in->face->stat, drop);
  idset keep;
  keep.n = 0;
  otv_span none = {NULL, 0};
  otv_status st;
  if (in->pin.partial) {
    otv_fvar kept_fvar;
    st = otv_fvar_parse(otv_span_of(in->fvar.p, in->fvar.len), none, in->al, &kept_fvar, in->err);
    if (st) return st;
    fvar_name_ids(&kept_fvar, &keep);
    otv_fvar_free(in->al, &kept_fvar);
  }
  if (in->stat.len) {
    otv_stat kept_stat;
    if ((st = otv_stat_parse(otv_span_of(in->stat.p, in->stat.len), &kept_stat, in->err)))
      return st;
    stat_name_ids(&kept_stat, &keep);
  }
  unsigned w = 0;
  for (unsigned i = 0; i < drop->n; i++)
    if (!idset_has(&keep, drop->ids[i])) drop->ids[w++] = drop->ids[i];
  drop->n = w;
  return OTV_E_OK;
}

static unsigned rec_name_id(const otv_name *nm, unsigned i)
{
  /* in range: records checked in otv_name_parse */
  return otv_peek_u16(nm->records + (size_t)i * OTV_NAME_RECORD_LEN + OTV_NAME_ID);
}

/* The name table without the dropped records, strings copied per record (and per language
 * tag), so dropped strings leave no trace. */
static otv_status build_name(otv_inst *in)
{
  const otv_name *nm = &in->face->name;
  if (!nm->present) return OTV_E_OK;
  idset drop;
  otv_status st = dropped_name_ids(in, &drop);
  if (st) return st;
  unsigned count = nm->count, lang_count = nm->lang_count, kept = 0;
  for (unsigned i = 0; i < count; i++)
    if (!idset_has(&drop, rec_name_id(nm, i))) kept++;
  otv_buf *b = &in->name;
  size_t hdr = 6 + OTV_NAME_RECORD_LEN * (size_t)kept +
               (nm->version == 1 ? 2 + OTV_LANG_TAG_RECORD_LEN * (size_t)lang_count : 0);
  if (hdr > 0xFFFF) /* the strings' offset is 16-bit */
    return OTV_FAIL(in->err, LIMIT, OTV_T_NAME, 2, "%u name records and %u language tags", kept,
                    lang_count);
  otv_buf_u16(b, nm->version);
  otv_buf_u16(b, (uint16_t)kept);
  otv_buf_u16(b, (uint16_t)hdr);
  otv_buf_zeros(b, OTV_NAME_RECORD_LEN * (size_t)kept);
  if (nm->version == 1) {
    otv_buf_u16(b, (uint16_t)lang_count);
    otv_buf_zeros(b, OTV_LANG_TAG_RECORD_LEN * (size_t)lang_count);
  }
  if (b->failed) return OTV_FAIL(in->err, NOMEM, OTV_T_NAME, 0, "name buffer");
  unsigned k = 0;
  for (unsigned i = 0; i < count; i++) {
    if (idset_has(&drop, rec_name_id(nm, i))) continue;
    otv_span str = otv_name_string(nm, i);
    size_t at = b->len - hdr;
    otv_buf_bytes(b, str.p, str.len);
    if (b->failed) return OTV_FAIL(in->err, NOMEM, OTV_T_NAME, 0, "name buffer");
    if (at > 0xFFFF) return OTV_FAIL(in->err, LIMIT, OTV_T_NAME, 0, "name strings past 64 KiB");
    uint8_t *q = b->p + 6 + OTV_NAME_RECORD_LEN * (size_t)k;
    /* platform, encoding, language and name IDs as they are; length and new offset */
    memcpy(q, nm->records + (size_t)i * OTV_NAME_RECORD_LEN, OTV_NAME_LENGTH);
    otv_put_u16(q + OTV_NAME_LENGTH, (uint16_t)str.len);
    otv_put_u16(q + OTV_NAME_OFFSET, (uint16_t)at);
    k++;
  }
  for (unsigned i = 0; i < lang_count; i++) {
    otv_span str = otv_name_lang_string(nm, i);
    size_t at = b->len - hdr;
    otv_buf_bytes(b, str.p, str.len);
    if (b->failed) return OTV_FAIL(in->err, NOMEM, OTV_T_NAME, 0, "name buffer");
    if (at > 0xFFFF) return OTV_FAIL(in->err, LIMIT, OTV_T_NAME, 0, "name strings past 64 KiB");
    uint8_t *q =
        b->p + 6 + OTV_NAME_RECORD_LEN * (size_t)kept + 2 + OTV_LANG_TAG_RECORD_LEN * (size_t)i;
    otv_put_u16(q, (uint16_t)str.len);
    otv_put_u16(q + 2, (uint16_t)at);
  }
  return OTV_E_OK;
}

/* ---- name update from STAT (fontTools' instancer --update-name-table) ---- */

typedef struct nrec {
  uint16_t plat, enc, lang, id;
  uint8_t *str; /* owned copy */
  size_t len;
  bool dead;
} nrec;

typedef struct ntab {
  nrec *r;
  size_t n, cap;
  const otv_alloc *al;
} ntab;

static void ntab_free(ntab *t)
{
  for (size_t i = 0; i < t->n; i++)
    if (t->r[i].str) otv_mem_free(t->al, t->r[i].str, t->r[i].len ? t->r[i].len : 1);
  if (t->r) otv_mem_free(t->al, t->r, t->cap * sizeof *t->r);
}

static bool unicode_platform(unsigned plat, unsigned enc)
{
  return plat == 0 || (plat == 3 && (enc == 0 || enc == 1 || enc == 10));
}

/* A record's text as UTF-8 (UTF-16BE for Unicode/Windows, ASCII for Mac Roman); false when it
 * cannot be converted (non-ASCII Mac Roman, other encodings) or is too long. */
static bool rec_utf8(const nrec *r, char *out, size_t cap)
{
  size_t k = 0;
  if (unicode_platform(r->plat, r->enc)) {
    for (size_t i = 0; i + 1 < r->len; i += 2) {
      uint32_t c = otv_peek_u16(r->str + i);
      if (c >= 0xD800 && c < 0xDC00 && i + 3 < r->len) {
        uint32_t lo = otv_peek_u16(r->str + i + 2);
        c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
        i += 2;
      }
      uint8_t b[4];
      size_t nb;
      if (c < 0x80)
        b[0] = (uint8_t)c, nb = 1;
      else if (c < 0x800)
        b[0] = (uint8_t)(0xC0 | c >> 6), b[1] = (uint8_t)(0x80 | (c & 63)), nb = 2;
      else if (c < 0x10000)
        b[0] = (uint8_t)(0xE0 | c >> 12), b[1] = (uint8_t)(0x80 | ((c >> 6) & 63)),
        b[2] = (uint8_t)(0x80 | (c & 63)), nb = 3;
      else
        b[0] = (uint8_t)(0xF0 | c >> 18), b[1] = (uint8_t)(0x80 | ((c >> 12) & 63)),
        b[2] = (uint8_t)(0x80 | ((c >> 6) & 63)), b[3] = (uint8_t)(0x80 | (c & 63)), nb = 4;
      if (k + nb >= cap) return false;
      memcpy(out + k, b, nb);
      k += nb;
    }
  } else if (r->plat == 1 && r->enc == 0) {
    for (size_t i = 0; i < r->len; i++) {
      if (r->str[i] >= 0x80 || k + 1 >= cap) return false;
      out[k++] = (char)r->str[i];
    }
  } else {
    return false;
  }
  out[k] = 0;
  return true;
}

static nrec *find_rec(ntab *t, unsigned plat, unsigned enc, unsigned lang, unsigned id)
{
  for (size_t i = 0; i < t->n; i++) {
    nrec *r = &t->r[i];
    if (!r->dead && r->plat == plat && r->enc == enc && r->lang == lang && r->id == id) return r;
  }
  return NULL;
}

static bool get_name(ntab *t, unsigned plat, unsigned enc, unsigned lang, unsigned id, char *out,
                     size_t cap)
{
  nrec *r = find_rec(t, plat, enc, lang, id);
  return r && rec_utf8(r, out, cap);
}

/* Set (replace or add) a record from UTF-8 text. */
static otv_status set_name(ntab *t, unsigned plat, unsigned enc, unsigned lang, unsigned id,
                           const char *utf8)
{
  size_t n = strlen(utf8), len = 0;
  uint8_t *buf = otv_mem_alloc(t->al, 2 * n + 2);
  if (!buf) return OTV_E_NOMEM;
  const uint8_t *p = (const uint8_t *)utf8;
  for (size_t i = 0; i < n;) {
    uint32_t c = p[i];
    size_t extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
    c &= extra == 3 ? 0x07 : extra == 2 ? 0x0F : extra == 1 ? 0x1F : 0x7F;
    for (size_t k = 1; k <= extra && i + k < n; k++) c = c << 6 | (p[i + k] & 0x3F);
    i += extra + 1;
    if (unicode_platform(plat, enc)) {
      if (c >= 0x10000) {
        c -= 0x10000;
        otv_put_u16(buf + len, (uint16_t)(0xD800 + (c >> 10)));
        otv_put_u16(buf + len + 2, (uint16_t)(0xDC00 + (c & 0x3FF)));
        len += 4;
        if (len + 4 > 2 * n + 2) break;
      } else {
        otv_put_u16(buf + len, (uint16_t)c);
        len += 2;
      }
    } else {
      buf[len++] = (uint8_t)(c < 0x80 ? c : '?');
    }
  }
  nrec *r = find_rec(t, plat, enc, lang, id);
  if (!r) {
    if (otv_mem_reserve(t->al, (void **)&t->r, &t->cap, t->n + 1, sizeof *t->r)) {
      otv_mem_free(t->al, buf, 2 * n + 2);
      return OTV_E_NOMEM;
    }
    r = &t->r[t->n++];
    memset(r, 0, sizeof *r);
    r->plat = (uint16_t)plat, r->enc = (uint16_t)enc, r->lang = (uint16_t)lang,
    r->id = (uint16_t)id;
  } else if (r->str) {
    otv_mem_free(t->al, r->str, r->len ? r->len : 1);
  }
  /* keep the allocation size as the record length: shrink into an exact block */
  uint8_t *exact = otv_mem_alloc(t->al, len ? len : 1);
  if (!exact) {
    otv_mem_free(t->al, buf, 2 * n + 2);
    r->str = NULL, r->len = 0, r->dead = true;
    return OTV_E_NOMEM;
  }
  memcpy(exact, buf, len);
  otv_mem_free(t->al, buf, 2 * n + 2);
  r->str = exact;
  r->len = len;
  return OTV_E_OK;
}

/* dst = a + sep + b, truncated to cap - 1 bytes. */
static void join3(char *dst, size_t cap, const char *a, const char *sep, const char *b)
{
  size_t k = 0;
  const char *parts[3] = {a, sep, b};
  for (int i = 0; i < 3; i++)
    for (const char *c = parts[i]; *c && k + 1 < cap; c++) dst[k++] = *c;
  dst[k] = 0;
}

static bool is_ribbi(const char *s)
{
  return !strcmp(s, "Regular") || !strcmp(s, "Italic") || !strcmp(s, "Bold") ||
         !strcmp(s, "Bold Italic");
}

typedef struct statval {
  uint16_t format, flags, name_id, axis; /* axis: formats 1-3 (design axis index) */
  double value;                          /* formats 1-3 (nominal for format 2) */
  size_t off;                            /* format 4: table offset in STAT */
  uint16_t nrec;                         /* format 4 record count */
} statval;

/* The user value the instance's default has on axis a: the pin, or a kept axis's (new)
 * default (fontTools names a partial instance after its default). */
static double default_user(const otv_inst *in, unsigned a)
{
  if (!in->pin.partial || !in->pin.keep[a]) return in->loc->user[a];
  if (in->pin.limited[a]) return in->lim_user[a][1];
  return otv_fvar_axis_default(&in->face->fvar, a);
}

static int user_of_tag(const otv_inst *in, uint32_t tag, double *v)
{
  for (unsigned a = 0; a < in->pin.axis_count; a++)
    if (in->pin.axis_tags[a] == tag) {
      *v = default_user(in, a);
      return 1;
    }
  return 0;
}

/* The fvar axes (bit a) with the tag of STAT design axis `axis`. */
static uint64_t fvar_axes_of(const otv_inst *in, uint32_t tag)
{
  uint64_t m = 0;
  for (unsigned a = 0; a < in->pin.axis_count && a < 64; a++)
    if (in->pin.axis_tags[a] == tag) m |= 1ull << a;
  return m;
}

/* The STAT axis values naming the location, as fontTools' updateNameTable picks them; their
 * name IDs into ids (sorted as fontTools sorts them). */
static otv_status stat_names(otv_inst *in, uint16_t *ids, unsigned *nids, uint16_t *elided)
{
  const otv_stat *st = &in->face->stat;
  if (!st->present) return OTV_FAIL(in->err, NO_TABLE, OTV_T_STAT, 0, "updating names needs STAT");
  unsigned da_count = st->design_axis_count, av_count = st->axis_value_count;
  *elided = st->elided_fallback_name_id;
  if (!av_count) return OTV_FAIL(in->err, NOT_FOUND, OTV_T_STAT, 0, "STAT has no axis values");
  if (da_count > 64 || av_count > 1024)
    return OTV_FAIL(in->err, LIMIT, OTV_T_STAT, 0, "STAT too large to name from");
  uint32_t tags[64];
  for (unsigned a = 0; a < da_count; a++) {
    otv_stat_axis ax;
    unsigned one = 1;
    otv_stat_axes(st, a, &one, &ax);
    tags[a] = ax.tag;
  }
  otv_stat_value v[1024];
  unsigned nv = 0;
  uint64_t seen_axes = 0; /* fvar axes that some kept value names (checkAxisValuesExist) */
  for (unsigned i = 0; i < av_count; i++) {
    otv_stat_value x;
    unsigned one = 1;
    otv_stat_values(st, i, &one, &x);
    bool keep = true;
    if (x.format >= 1 && x.format <= 3) {
      double u;
      if (user_of_tag(in, tags[x.axis_index], &u)) {
        if (x.value != u)
          keep = false; /* pinned axis: only the exact value */
        else
          seen_axes |= fvar_axes_of(in, tags[x.axis_index]);
      }
    } else if (x.format == 4) {
      uint64_t matched = 0;
      for (unsigned k = 0; k < x.record_count; k++) {
        otv_stat_axis_value_record rec;
        unsigned one_rec = 1;
        otv_stat_value_records(st, i, k, &one_rec, &rec);
        double u;
        if (user_of_tag(in, tags[rec.axis_index], &u)) {
          if (rec.value != u)
            keep = false;
          else
            matched |= fvar_axes_of(in, tags[rec.axis_index]);
        }
      }
      if (keep) seen_axes |= matched;
    } else {
      keep = false; /* unknown format: ignored */
    }
    if (keep) v[nv++] = x;
  }
  for (unsigned a = 0; a < in->pin.axis_count && a < 64; a++)
    if (!(seen_axes >> a & 1)) {
      char tag[5];
      otv_tag_to_string(in->pin.axis_tags[a], tag);
      return OTV_FAIL(in->err, NOT_FOUND, OTV_T_STAT, 0, "no STAT axis value for %s=%g", tag,
                      default_user(in, a));
    }
  /* drop elidable values; format 4 first (most records first) claiming their axes, then the
   * others on axes not claimed; sorted by (smallest) axis index */
  typedef struct pick {
    unsigned key;
    uint16_t name_id;
  } pick;
  pick picks[1024];
  unsigned np = 0;
  uint64_t claimed = 0;
  for (unsigned want = 64; want > 0; want--)
    for (unsigned i = 0; i < nv; i++) {
      if (v[i].format != 4 || v[i].record_count != want ||
          (v[i].flags & STAT_ELIDABLE_AXIS_VALUE_NAME))
        continue;
      uint64_t axes = 0;
      unsigned mn = 64;
      for (unsigned k = 0; k < v[i].record_count; k++) {
        otv_stat_axis_value_record rec;
        unsigned one_rec = 1;
        otv_stat_value_records(st, v[i].index, k, &one_rec, &rec);
        axes |= 1ull << rec.axis_index;
        if (rec.axis_index < mn) mn = rec.axis_index;
      }
      if (axes & claimed) continue;
      claimed |= axes;
      picks[np++] = (pick){mn, v[i].name_id};
    }
  for (unsigned i = 0; i < nv; i++) {
    if (v[i].format == 4 || (v[i].flags & STAT_ELIDABLE_AXIS_VALUE_NAME)) continue;
    if (claimed >> v[i].axis_index & 1) continue;
    claimed |= 1ull << v[i].axis_index;
    picks[np++] = (pick){v[i].axis_index, v[i].name_id};
  }
  /* stable sort by key */
  for (unsigned i = 1; i < np; i++)
    for (unsigned j = i; j > 0 && picks[j - 1].key > picks[j].key; j--) {
      pick t2 = picks[j];
      picks[j] = picks[j - 1];
      picks[j - 1] = t2;
    }
  for (unsigned i = 0; i < np && i < 64; i++) ids[i] = picks[i].name_id;
  *nids = np < 64 ? np : 64;
  return OTV_E_OK;
}

/* The fallback of OTV_INSTANCE_NAME_INSTANCE: the subfamily name of the fvar named instance at
 * the instance's location (its default, for a partial one), as if STAT named it with one value
 * (also the elided name, used when that one has no string). */
static otv_status instance_names(otv_inst *in, uint16_t *ids, unsigned *nids, uint16_t *elided)
{
  const otv_fvar *fv = &in->face->fvar;
  unsigned ac = in->pin.axis_count;
  for (unsigned i = 0; i < fv->instance_count; i++) {
    double user[OTV_MAX_AXES];
    otv_norm_result norm[OTV_MAX_AXES];
    otv_error e = {0};
    if (otv_fvar_instance_coords(fv, i, user, ac, &e) ||
        otv_fvar_normalize(fv, in->loc->model, user, norm, in->al, &e))
      continue;
    bool at = true;
    for (unsigned a = 0; a < ac; a++)
      if (norm[a].f2 != in->pin.coords[a]) at = false;
    if (!at) continue;
    otv_named_instance ni;
    unsigned one = 1;
    otv_fvar_named_instances(fv, i, &one, &ni);
    ids[0] = ni.subfamily_name_id;
    *nids = 1;
    *elided = ni.subfamily_name_id;
    return OTV_E_OK;
  }
  return OTV_FAIL(in->err, NOT_FOUND, OTV_T_FVAR, 0,
                  "no STAT axis values and no named instance to name the instance after");
}

/* Append " "-joined names of ids on a platform to out. */
static void join_names(ntab *t, const nrec *pf, const uint16_t *ids, unsigned n, char *out,
                       size_t cap)
{
  size_t k = 0;
  out[0] = 0;
  for (unsigned i = 0; i < n; i++) {
    char s[256];
    if (!get_name(t, pf->plat, pf->enc, pf->lang, ids[i], s, sizeof s)) s[0] = 0;
    join3(out + k, cap - k, k ? " " : "", "", s);
    k += strlen(out + k);
  }
}

static otv_status update_platform(otv_inst *in, ntab *t, const nrec *pf, const char *suffix,
                                  const char *sub, const char *typo_sub)
{
  unsigned P = pf->plat, E = pf->enc, L = pf->lang;
  char fam[512], style[512];
  if (!get_name(t, P, E, L, NAME_TYPO_FAMILY, fam, sizeof fam) &&
      !get_name(t, P, E, L, NAME_FAMILY, fam, sizeof fam))
    return OTV_E_OK;
  if (!get_name(t, P, E, L, NAME_TYPO_SUBFAMILY, style, sizeof style) &&
      !get_name(t, P, E, L, NAME_SUBFAMILY, style, sizeof style))
    return OTV_E_OK;
  char n1[2100], n2[1024], n16[512], n17[1024], n4[2100], n6[300], n3[4096];
  join3(n1, sizeof n1, fam, "", "");
  join3(n2, sizeof n2, sub[0] ? sub : "Regular", "", "");
  bool typo = typo_sub && typo_sub[0];
  if (typo) {
    join3(n1, sizeof n1, fam, suffix[0] ? " " : "", suffix);
    join3(n16, sizeof n16, fam, "", "");
    join3(n17, sizeof n17, typo_sub, "", "");
  } else {
    for (size_t i = 0; i < t->n; i++)
      if (t->r[i].id == NAME_TYPO_FAMILY || t->r[i].id == NAME_TYPO_SUBFAMILY)
        t->r[i].dead = true; /* every platform */
  }
  const char *new_fam = typo ? n16 : n1, *new_style = typo ? n17 : n2;
  join3(n4, sizeof n4, new_fam, " ", new_style);
  char prefix[512];
  if (!get_name(t, P, E, L, NAME_VARIATIONS_PS_PREFIX, prefix, sizeof prefix))
    join3(prefix, sizeof prefix, new_fam, "", "");
  char ps_raw[2100];
  join3(ps_raw, sizeof ps_raw, prefix, "-", new_style);
  size_t k = 0;
  for (const char *c = ps_raw; *c && k + 1 < sizeof n6; c++)
    if ((*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') ||
        *c == '-')
      n6[k++] = *c;
  n6[k] = 0;
  if (k > 127) memcpy(n6 + 124, "...", 4);
  /* unique ID (name 3): the old full or PostScript name replaced inside it, else
   * "version;vendor;psname" */
  bool have3 = false;
  char cur3[1024];
  if (get_name(t, P, E, L, NAME_UNIQUE_ID, cur3, sizeof cur3)) {
    have3 = true;
    const char *news[2] = {n4, n6};
    unsigned ids2[2] = {NAME_FULL, NAME_POSTSCRIPT};
    bool done = false;
    for (int q = 0; q < 2 && !done; q++) {
      char old[1024];
      if (!get_name(t, P, E, L, ids2[q], old, sizeof old) || !old[0]) continue;
      if (!strstr(cur3, old)) continue;
      /* replace every occurrence */
      size_t o = 0, ol = strlen(old);
      const char *c = cur3;
      n3[0] = 0;
      while (*c && o + 1 < sizeof n3) {
        if (!strncmp(c, old, ol)) {
          join3(n3 + o, sizeof n3 - o, news[q], "", "");
          o += strlen(n3 + o);
          c += ol;
        } else {
          n3[o++] = *c++;
        }
      }
      n3[o] = 0;
      done = true;
    }
    if (!done) {
      char ver[512] = "";
      if (get_name(t, P, E, L, NAME_VERSION, ver, sizeof ver)) {
        char *semi = strchr(ver, ';');
        if (semi) *semi = 0;
        const char *v = ver;
        while (*v && strchr("Version ", *v)) v++; /* Python's lstrip("Version ") */
        memmove(ver, v, strlen(v) + 1);
        size_t vl = strlen(ver);
        while (vl && ver[vl - 1] == ' ') ver[--vl] = 0;
      } else {
        otv_span h = in->face->met.head;
        double rev =
            h.len >= HEAD_FONT_REVISION + 4 ? otv_peek_i32(h.p + HEAD_FONT_REVISION) / 65536.0 : 0;
        snprintf(ver, sizeof ver, "%.3f", rev);
      }
      char vendor[5] = "";
      otv_span os2 = in->face->met.bases.os2;
      if (os2.len >= OS2_ACH_VEND_ID + 4) {
        size_t vk = 0;
        for (int i = 0; i < 4; i++)
          if (os2.p[OS2_ACH_VEND_ID + i] < 0x80) vendor[vk++] = (char)os2.p[OS2_ACH_VEND_ID + i];
        vendor[vk] = 0;
        while (vk && vendor[vk - 1] == ' ') vendor[--vk] = 0;
        size_t lead = 0;
        while (vendor[lead] == ' ') lead++;
        memmove(vendor, vendor + lead, strlen(vendor + lead) + 1);
      }
      char vv[600];
      join3(vv, sizeof vv, ver, ";", vendor);
      join3(n3, sizeof n3, vv, ";", n6);
    }
  }
  otv_status st = set_name(t, P, E, L, NAME_FAMILY, n1);
  if (!st) st = set_name(t, P, E, L, NAME_SUBFAMILY, n2);
  if (!st && typo) st = set_name(t, P, E, L, NAME_TYPO_FAMILY, n16);
  if (!st && typo) st = set_name(t, P, E, L, NAME_TYPO_SUBFAMILY, n17);
  if (!st) st = set_name(t, P, E, L, NAME_FULL, n4);
  if (!st) st = set_name(t, P, E, L, NAME_POSTSCRIPT, n6);
  if (!st && have3) st = set_name(t, P, E, L, NAME_UNIQUE_ID, n3);
  return st;
}

static int cmp_nrec(const void *a, const void *b)
{
  const nrec *x = a, *y = b;
  if (x->plat != y->plat) return x->plat < y->plat ? -1 : 1;
  if (x->enc != y->enc) return x->enc < y->enc ? -1 : 1;
  if (x->lang != y->lang) return x->lang < y->lang ? -1 : 1;
  if (x->id != y->id) return x->id < y->id ? -1 : 1;
  return 0;
}

/* Rebuild in->name with the names updated from STAT (and head.macStyle / OS/2 fsSelection
 * from the new subfamily), as fontTools' --update-name-table does. */
static otv_status update_names(otv_inst *in)
{
  otv_buf *b = &in->name;
  const otv_name *nm = &in->face->name;
  if (b->len < 6 || !nm->present) return OTV_E_OK;
  if (nm->version != 0)
    return OTV_FAIL(in->err, UNSUPPORTED, OTV_T_NAME, 0, "name format 1 with --update-names");
  uint16_t ids[64], elided = 0xFFFF; /* set by stat_names on success */
  unsigned nids = 0;
  otv_error stat_err = {0};
  otv_error *keep_err = in->err;
  if (in->flags & OTV_INSTANCE_NAME_INSTANCE) in->err = &stat_err; /* a fallback follows */
  otv_status st = stat_names(in, ids, &nids, &elided);
  in->err = keep_err;
  if (st && (in->flags & OTV_INSTANCE_NAME_INSTANCE) && st != OTV_E_NOMEM)
    st = instance_names(in, ids, &nids, &elided);
  if (st) return st;
  idset drop;
  if ((st = dropped_name_ids(in, &drop))) return st;
  ntab t;
  memset(&t, 0, sizeof t);
  t.al = in->al;
  /* every record of the face's name table */
  for (unsigned i = 0; i < nm->count; i++) {
    /* in range: records checked in otv_name_parse */
    const uint8_t *p = nm->records + (size_t)i * OTV_NAME_RECORD_LEN;
    otv_span str = otv_name_string(nm, i);
    size_t len = str.len;
    if (otv_mem_reserve(in->al, (void **)&t.r, &t.cap, t.n + 1, sizeof *t.r)) goto nomem;
    nrec *r = &t.r[t.n];
    memset(r, 0, sizeof *r);
    r->plat = otv_peek_u16(p + OTV_NAME_PLATFORM), r->enc = otv_peek_u16(p + OTV_NAME_ENCODING);
    r->lang = otv_peek_u16(p + OTV_NAME_LANGUAGE), r->id = otv_peek_u16(p + OTV_NAME_ID);
    r->str = otv_mem_alloc(in->al, len ? len : 1);
    if (!r->str) goto nomem;
    t.n++;
    memcpy(r->str, str.p, len);
    r->len = len;
  }
  {
    /* ribbi split, by the English Windows names */
    uint16_t ribbi[64], non[64];
    unsigned nr = 0, nn = 0;
    for (unsigned i = 0; i < nids; i++) {
      char s[256];
      if (get_name(&t, PLATFORM_WINDOWS, ENCODING_WINDOWS_UNICODE_BMP, LANGUAGE_ENGLISH_US, ids[i],
                   s, sizeof s) &&
          is_ribbi(s))
        ribbi[nr++] = ids[i];
      else
        non[nn++] = ids[i];
    }
    char es[256];
    bool elided_ribbi = elided != 0xFFFF &&
                        get_name(&t, PLATFORM_WINDOWS, ENCODING_WINDOWS_UNICODE_BMP,
                                 LANGUAGE_ENGLISH_US, elided, es, sizeof es) &&
                        is_ribbi(es);
    /* every (platform, encoding, language) present, once */
    size_t n0 = t.n;
    for (size_t i = 0; i < n0; i++) {
      bool first = true;
      for (size_t j = 0; j < i; j++)
        if (t.r[j].plat == t.r[i].plat && t.r[j].enc == t.r[i].enc && t.r[j].lang == t.r[i].lang)
          first = false;
      if (!first) continue;
      nrec pf = t.r[i];
      char tmp[512];
      if (elided == 0xFFFF ||
          !get_name(&t, pf.plat, pf.enc, pf.lang, NAME_FAMILY, tmp, sizeof tmp) ||
          !get_name(&t, pf.plat, pf.enc, pf.lang, NAME_SUBFAMILY, tmp, sizeof tmp) ||
          !get_name(&t, pf.plat, pf.enc, pf.lang, elided, tmp, sizeof tmp))
        continue;
      char sub[1024], typo[1024], suffix[1024];
      join_names(&t, &pf, ribbi, nr, sub, sizeof sub);
      typo[0] = 0;
      if (nn) join_names(&t, &pf, ids, nids, typo, sizeof typo);
      if (!typo[0] && !sub[0]) {
        if (elided_ribbi)
          get_name(&t, pf.plat, pf.enc, pf.lang, elided, sub, sizeof sub);
        else
          get_name(&t, pf.plat, pf.enc, pf.lang, elided, typo, sizeof typo);
      }
      join_names(&t, &pf, non, nn, suffix, sizeof suffix);
      if ((st = update_platform(in, &t, &pf, suffix, sub, typo))) goto done;
    }
  }
  /* serialize: format 0, records sorted */
  {
    size_t live = 0;
    for (size_t i = 0; i < t.n; i++) {
      if (idset_has(&drop, t.r[i].id)) t.r[i].dead = true; /* only fvar/STAT used them */
      if (t.r[i].dead) {
        if (t.r[i].str) otv_mem_free(in->al, t.r[i].str, t.r[i].len ? t.r[i].len : 1);
        continue;
      }
      t.r[live++] = t.r[i];
    }
    t.n = live;
    if (t.n) qsort(t.r, t.n, sizeof *t.r, cmp_nrec); /* t.r may be NULL when empty */
    otv_buf_free(b);
    otv_buf_init(b, in->al);
    size_t hdr = 6 + 12 * t.n;
    otv_buf_u16(b, 0);
    otv_buf_u16(b, (uint16_t)t.n);
    otv_buf_u16(b, (uint16_t)hdr);
    size_t at = 0;
    for (size_t i = 0; i < t.n; i++) {
      otv_buf_u16(b, t.r[i].plat);
      otv_buf_u16(b, t.r[i].enc);
      otv_buf_u16(b, t.r[i].lang);
      otv_buf_u16(b, t.r[i].id);
      otv_buf_u16(b, (uint16_t)t.r[i].len);
      otv_buf_u16(b, (uint16_t)at);
      at += t.r[i].len;
    }
    if (at > 0xFFFF + (size_t)0) {
      st = OTV_FAIL(in->err, LIMIT, OTV_T_NAME, 0, "name strings past 64 KiB");
      goto done;
    }
    for (size_t i = 0; i < t.n; i++) otv_buf_bytes(b, t.r[i].str, t.r[i].len);
    if (b->failed) goto nomem;
  }
  /* style bits from the new English subfamily (fontTools' setRibbiBits) */
  {
    char s[64];
    if (get_name(&t, PLATFORM_WINDOWS, ENCODING_WINDOWS_UNICODE_BMP, LANGUAGE_ENGLISH_US,
                 NAME_SUBFAMILY, s, sizeof s)) {
      for (char *c = s; *c; c++)
        if (*c >= 'A' && *c <= 'Z') *c = (char)(*c - 'A' + 'a');
      int kind = !strcmp(s, "regular")       ? 1
                 : !strcmp(s, "bold")        ? 2
                 : !strcmp(s, "italic")      ? 3
                 : !strcmp(s, "bold italic") ? 4
                                             : 0;
      if (kind) {
        const unsigned bold = OS2_FS_SELECTION_BOLD, italic = OS2_FS_SELECTION_ITALIC;
        if (kind >= 2)
          otv_buf_set_16(&in->head, HEAD_MAC_STYLE,
                         kind == 2   ? HEAD_MAC_STYLE_BOLD
                         : kind == 3 ? HEAD_MAC_STYLE_ITALIC
                                     : HEAD_MAC_STYLE_BOLD | HEAD_MAC_STYLE_ITALIC);
        if (in->os2.len >= OS2_FS_SELECTION + 2) {
          int sel = (uint16_t)otv_buf_get_i16(&in->os2, OS2_FS_SELECTION);
          sel &= ~(int)(italic | bold | OS2_FS_SELECTION_REGULAR);
          sel |= (int)(kind == 1   ? OS2_FS_SELECTION_REGULAR
                       : kind == 2 ? bold
                       : kind == 3 ? italic
                                   : (italic | bold));
          otv_buf_set_16(&in->os2, OS2_FS_SELECTION, sel);
        }
      }
    }
  }
  st = OTV_E_OK;
  goto done;
nomem:
  st = OTV_FAIL(in->err, NOMEM, OTV_T_NAME, 0, "name records");
done:
  ntab_free(&t);
  return st;
}

otv_status otv_inst_names(otv_inst *in)
{
  otv_status st;
  if ((st = build_name(in))) return st;
  if ((in->flags & (OTV_INSTANCE_UPDATE_NAMES | OTV_INSTANCE_NAME_INSTANCE)) &&
      (st = update_names(in)))
    return st;
  return OTV_E_OK;
}

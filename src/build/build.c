/*
 * build/build.c - otv_build (otvar.h): a variable TrueType font from the masters of a
 * designspace. The steps, in order: check the designspace; map every axis's user values to
 * design values (its map) and normalize the masters' design locations; open the masters and
 * match their glyphs to the default master's; derive the variation model (build/model.c); then
 * the tables: fvar with named instances and their names (spec: fvar, name), avar v1 from the
 * maps (spec: avar; left out when every map is an identity after normalization, as fontTools
 * does), a minimal STAT (spec: STAT, version 1.1, the axes only) when the default master has
 * none, gvar and cvar (build/tvs.c), HVAR and MVAR (build/store.c); every other table of the
 * default master is copied; the sfnt is written with checksums (core/sfnt.c).
 */
#include "build/cff2.h"
#include "build/master.h"
#include "build/tables.h"

#include <math.h>
#include <string.h>

#define FVAR_HEADER_LEN 16u
#define FVAR_AXIS_LEN 20u
#define HIDDEN_AXIS 0x0001u
#define NAME_MIN_FONT_ID 256u
#define NAME_WINDOWS 3u
#define NAME_UNICODE_BMP 1u
#define NAME_EN_US 0x409u
#define STAT_HEADER_LEN 20u
#define STAT_AXIS_LEN 8u
#define NAME_ID_SUBFAMILY 2u
#define AVAR_MAX_MAP 1024u
#define OTV_BUILD_MAX_STAT_AXES 64u

static int32_t fixed(double v) { return (int32_t)floor(v * 65536.0 + 0.5); }

/* user -> design through the axis map (piecewise linear; identity without one) */
static double map_fwd(const otv_build_axis *a, double v)
{
  if (!a->map_count) return v;
  const otv_build_map *m = a->map;
  unsigned n = a->map_count;
  if (v <= m[0].input) return m[0].output + (v - m[0].input);
  if (v >= m[n - 1].input) return m[n - 1].output + (v - m[n - 1].input);
  for (unsigned i = 1; i < n; i++)
    if (v <= m[i].input) {
      if (m[i].input == m[i - 1].input) return m[i].output;
      return m[i - 1].output +
             (v - m[i - 1].input) * (m[i].output - m[i - 1].output) / (m[i].input - m[i - 1].input);
    }
  return v;
}

/* design -> user (the inverse map, for fvar instances) */
static double map_back(const otv_build_axis *a, double v)
{
  if (!a->map_count) return v;
  const otv_build_map *m = a->map;
  unsigned n = a->map_count;
  if (v <= m[0].output) return m[0].input + (v - m[0].output);
  if (v >= m[n - 1].output) return m[n - 1].input + (v - m[n - 1].output);
  for (unsigned i = 1; i < n; i++)
    if (v <= m[i].output) {
      if (m[i].output == m[i - 1].output) return m[i].input;
      return m[i - 1].input + (v - m[i - 1].output) * (m[i].input - m[i - 1].input) /
                                  (m[i].output - m[i - 1].output);
    }
  return v;
}

static double normalize(double v, double lo, double def, double hi)
{
  if (v < lo) v = lo;
  if (v > hi) v = hi;
  if (v == def || lo == hi) return 0;
  if ((v < def && lo != def) || (v > def && hi == def)) return (v - def) / (def - lo);
  return (v - def) / (hi - def);
}

/* ---- name ---- */

typedef struct nrec {
  uint16_t platform, encoding, language, id;
  const uint8_t *p;
  uint16_t len;
  bool owned;
} nrec;

typedef struct names {
  nrec *r;
  size_t n, cap;
  uint16_t version;
  otv_span langs, lang_storage;
  unsigned lang_count;
  uint16_t next_id;
} names;

static otv_status names_read(otv_builder *b, names *nm)
{
  otv_span t = otv_sfnt_find(&b->m[b->base].sfnt, OTV_T_NAME);
  nm->next_id = NAME_MIN_FONT_ID;
  if (!t.len) return OTV_E_OK;
  otv_rd r = otv_rd_init(t, 0);
  nm->version = otv_rd_u16(&r);
  unsigned count = otv_rd_u16(&r), storage = otv_rd_u16(&r);
  otv_span recs;
  if (!otv_rd_ok(&r) || nm->version > 1 || !otv_span_array(t, 6, count, 12, &recs))
    return OTV_FAIL(b->err, TRUNCATED, OTV_T_NAME, 0, "name records");
  if (OTV_RESERVE(&b->al, &nm->r, &nm->cap, (size_t)count + 8, sizeof *nm->r))
    return OTV_FAIL(b->err, NOMEM, 0, 0, "name");
  for (unsigned i = 0; i < count; i++) {
    const uint8_t *q = recs.p + 12 * (size_t)i; /* in range: recs checked */
    nrec *o = &nm->r[nm->n];
    o->platform = otv_peek_u16(q);
    o->encoding = otv_peek_u16(q + 2);
    o->language = otv_peek_u16(q + 4);
    o->id = otv_peek_u16(q + 6);
    o->len = otv_peek_u16(q + 8);
    size_t off = (size_t)storage + otv_peek_u16(q + 10);
    if (!otv_span_has(t, off, o->len))
      return OTV_FAIL(b->err, BAD_OFFSET, OTV_T_NAME, 6 + 12 * (size_t)i, "name record %u", i);
    o->p = t.p + off;
    o->owned = false;
    if (o->id >= nm->next_id) nm->next_id = (uint16_t)(o->id + 1);
    nm->n++;
  }
  if (nm->version == 1) {
    otv_rd l = otv_rd_init(t, 6 + 12 * (size_t)count);
    nm->lang_count = otv_rd_u16(&l);
    if (!otv_rd_ok(&l) || !otv_span_array(t, l.pos, nm->lang_count, 4, &nm->langs))
      return OTV_FAIL(b->err, TRUNCATED, OTV_T_NAME, l.pos, "language tags");
    nm->lang_storage = (otv_span){t.p + storage, storage <= t.len ? t.len - storage : 0};
  }
  return OTV_E_OK;
}

/* UTF-8 -> UTF-16BE (invalid bytes become U+FFFD); returns the length written (<= cap). */
static size_t utf16be(const char *s, uint8_t *out, size_t cap)
{
  size_t o = 0;
  const unsigned char *p = (const unsigned char *)s;
  while (*p) {
    uint32_t c = *p++;
    int more = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
    if (c >= 0x80 && c < 0xC0) c = 0xFFFD;
    c &= more == 3 ? 0x07 : more == 2 ? 0x0F : more == 1 ? 0x1F : 0xFF;
    for (; more > 0 && (*p & 0xC0) == 0x80; more--) c = c << 6 | (*p++ & 0x3F);
    if (more) c = 0xFFFD;
    if (c >= 0x10000) {
      c -= 0x10000;
      uint32_t hi = 0xD800 + (c >> 10), lo = 0xDC00 + (c & 0x3FF);
      if (o + 4 > cap) break;
      out[o++] = (uint8_t)(hi >> 8), out[o++] = (uint8_t)hi;
      out[o++] = (uint8_t)(lo >> 8), out[o++] = (uint8_t)lo;
    } else {
      if (o + 2 > cap) break;
      out[o++] = (uint8_t)(c >> 8), out[o++] = (uint8_t)c;
    }
  }
  return o;
}

/* The id of an English Windows name equal to s (>= min_id), added when there is none. */
static otv_status name_id(otv_builder *b, names *nm, const char *s, unsigned min_id, uint16_t *out)
{
  uint8_t tmp[1024];
  size_t len = utf16be(s, tmp, sizeof tmp);
  for (size_t i = 0; i < nm->n; i++) {
    const nrec *r = &nm->r[i];
    if (r->platform == NAME_WINDOWS && r->encoding == NAME_UNICODE_BMP &&
        r->language == NAME_EN_US && r->id >= min_id && r->len == len && !memcmp(r->p, tmp, len)) {
      *out = r->id;
      return OTV_E_OK;
    }
  }
  if (nm->next_id == 0x8000) return OTV_FAIL(b->err, LIMIT, OTV_T_NAME, 0, "no free name id");
  uint8_t *copy = otv_mem_alloc(&b->al, len ? len : 1);
  if (!copy || OTV_RESERVE(&b->al, &nm->r, &nm->cap, nm->n + 1, sizeof *nm->r)) {
    if (copy) otv_mem_free(&b->al, copy, len ? len : 1);
    return OTV_FAIL(b->err, NOMEM, 0, 0, "name");
  }
  memcpy(copy, tmp, len);
  nm->r[nm->n++] =
      (nrec){NAME_WINDOWS, NAME_UNICODE_BMP, NAME_EN_US, nm->next_id, copy, (uint16_t)len, true};
  *out = nm->next_id++;
  return OTV_E_OK;
}

static int nrec_cmp(const nrec *a, const nrec *c)
{
  uint64_t ka = (uint64_t)a->platform << 48 | (uint64_t)a->encoding << 32 |
                (uint64_t)a->language << 16 | a->id;
  uint64_t kc = (uint64_t)c->platform << 48 | (uint64_t)c->encoding << 32 |
                (uint64_t)c->language << 16 | c->id;
  return ka < kc ? -1 : ka > kc;
}

/* Where bytes p[0..len) already are in pool[0..pool_len) (at an even offset when len is even:
 * UTF-16 strings stay aligned), else SIZE_MAX. */
static size_t pool_find(const uint8_t *pool, size_t pool_len, const uint8_t *p, size_t len)
{
  if (!len) return 0;
  /* two bytes tested first: a UTF-16 string's first byte is mostly 0 */
  for (size_t o = 0; o + len <= pool_len; o += (len & 1) ? 1 : 2)
    if (pool[o] == p[0] && (len < 2 || pool[o + 1] == p[1]) && !memcmp(pool + o, p, len)) return o;
  return SIZE_MAX;
}

/* The strings (records, then language tags) share storage: each is stored once, longest
 * first, and a string found inside one already stored (equal or a part of it) points there. */
static otv_status names_write(otv_builder *b, names *nm)
{
  /* insertion sort (records mostly sorted already) */
  for (size_t i = 1; i < nm->n; i++) {
    nrec x = nm->r[i];
    size_t j = i;
    while (j > 0 && nrec_cmp(&nm->r[j - 1], &x) > 0) nm->r[j] = nm->r[j - 1], j--;
    nm->r[j] = x;
  }
  size_t sc = nm->n + (nm->version == 1 ? nm->lang_count : 0);
  const uint8_t **sp = otv_mem_calloc(&b->al, sc + 1, sizeof *sp);
  size_t *sl = otv_mem_calloc(&b->al, sc + 1, sizeof *sl),
         *so = otv_mem_calloc(&b->al, sc + 1, sizeof *so);
  size_t *ord = otv_mem_calloc(&b->al, sc + 1, sizeof *ord);
  otv_buf pool;
  otv_buf_init(&pool, &b->al);
  otv_status st = sp && sl && so && ord ? OTV_E_OK : OTV_FAIL(b->err, NOMEM, 0, 0, "name");
  for (size_t i = 0; !st && i < nm->n; i++) sp[i] = nm->r[i].p, sl[i] = nm->r[i].len;
  for (unsigned i = 0; !st && nm->version == 1 && i < nm->lang_count; i++) {
    const uint8_t *q = nm->langs.p + 4 * (size_t)i; /* in range: checked in names_read */
    size_t off = otv_peek_u16(q + 2), len = otv_peek_u16(q);
    if (!otv_span_has(nm->lang_storage, off, len))
      st = OTV_FAIL(b->err, BAD_OFFSET, OTV_T_NAME, 0, "language tag %u", i);
    else
      sp[nm->n + i] = nm->lang_storage.p + off, sl[nm->n + i] = len;
  }
  /* longest first (stable insertion sort of the indices) */
  for (size_t i = 0; !st && i < sc; i++) {
    size_t j = i;
    while (j > 0 && sl[ord[j - 1]] < sl[i]) ord[j] = ord[j - 1], j--;
    ord[j] = i;
  }
  for (size_t q = 0; !st && q < sc; q++) {
    size_t i = ord[q], at = pool_find(pool.p, pool.len, sp[i], sl[i]);
    if (at == SIZE_MAX) {
      if ((sl[i] & 1) == 0 && (pool.len & 1)) otv_buf_u8(&pool, 0);
      at = pool.len;
      otv_buf_bytes(&pool, sp[i], sl[i]);
    }
    so[i] = at;
  }
  if (!st && pool.failed) st = OTV_FAIL(b->err, NOMEM, 0, 0, "name");
  if (!st && pool.len > 0xFFFF)
    st = OTV_FAIL(b->err, LIMIT, OTV_T_NAME, 0, "name strings over 64 KiB");
  otv_buf *t = st ? NULL : otv_build_table(b, OTV_T_NAME);
  if (!st && !t) st = OTV_E_NOMEM;
  if (!st) {
    size_t storage = 6 + 12 * nm->n + (nm->version == 1 ? 2 + 4 * (size_t)nm->lang_count : 0);
    otv_buf_u16(t, nm->version);
    otv_buf_u16(t, (uint16_t)nm->n);
    otv_buf_u16(t, (uint16_t)storage);
    for (size_t i = 0; i < nm->n; i++) {
      const nrec *r = &nm->r[i];
      otv_buf_u16(t, r->platform);
      otv_buf_u16(t, r->encoding);
      otv_buf_u16(t, r->language);
      otv_buf_u16(t, r->id);
      otv_buf_u16(t, r->len);
      otv_buf_u16(t, (uint16_t)so[i]);
    }
    if (nm->version == 1) {
      otv_buf_u16(t, (uint16_t)nm->lang_count);
      for (unsigned i = 0; i < nm->lang_count; i++) {
        otv_buf_u16(t, (uint16_t)sl[nm->n + i]);
        otv_buf_u16(t, (uint16_t)so[nm->n + i]);
      }
    }
    otv_buf_bytes(t, pool.p, pool.len);
    if (t->failed) st = OTV_FAIL(b->err, NOMEM, 0, 0, "name");
  }
  otv_buf_free(&pool);
  otv_mem_free(&b->al, sp, (sc + 1) * sizeof *sp);
  otv_mem_free(&b->al, sl, (sc + 1) * sizeof *sl);
  otv_mem_free(&b->al, so, (sc + 1) * sizeof *so);
  otv_mem_free(&b->al, ord, (sc + 1) * sizeof *ord);
  return st;
}

static void names_free(otv_builder *b, names *nm)
{
  for (size_t i = 0; i < nm->n; i++)
    if (nm->r[i].owned) otv_mem_free(&b->al, (void *)nm->r[i].p, nm->r[i].len ? nm->r[i].len : 1);
  otv_mem_free(&b->al, nm->r, nm->cap * sizeof *nm->r);
}

/* ---- fvar, avar, STAT ---- */

static otv_status build_fvar(otv_builder *b, names *nm)
{
  const otv_designspace *ds = b->ds;
  bool ps = false;
  for (unsigned i = 0; i < ds->instance_count; i++) ps |= ds->instances[i].postscript_name != NULL;
  unsigned inst_size = 4 + 4 * b->ac + (ps ? 2 : 0);
  uint16_t ids[OTV_MAX_AXES];
  for (unsigned a = 0; a < b->ac; a++) {
    const otv_build_axis *ax = &ds->axes[a];
    char tagname[5] = {(char)(ax->tag >> 24), (char)(ax->tag >> 16), (char)(ax->tag >> 8),
                       (char)ax->tag, 0};
    otv_status s =
        name_id(b, nm, ax->name && *ax->name ? ax->name : tagname, NAME_MIN_FONT_ID, &ids[a]);
    if (s) return s;
  }
  otv_buf *t = otv_build_table(b, OTV_T_FVAR);
  if (!t) return OTV_E_NOMEM;
  otv_buf_u16(t, 1);
  otv_buf_u16(t, 0);
  otv_buf_u16(t, FVAR_HEADER_LEN);
  otv_buf_u16(t, 2);
  otv_buf_u16(t, (uint16_t)b->ac);
  otv_buf_u16(t, FVAR_AXIS_LEN);
  otv_buf_u16(t, (uint16_t)ds->instance_count);
  otv_buf_u16(t, (uint16_t)inst_size);
  for (unsigned a = 0; a < b->ac; a++) {
    const otv_build_axis *ax = &ds->axes[a];
    otv_buf_u32(t, ax->tag);
    otv_buf_u32(t, (uint32_t)fixed(ax->min_value));
    otv_buf_u32(t, (uint32_t)fixed(ax->default_value));
    otv_buf_u32(t, (uint32_t)fixed(ax->max_value));
    otv_buf_u16(t, ax->hidden ? HIDDEN_AXIS : 0);
    otv_buf_u16(t, ids[a]);
  }
  for (unsigned i = 0; i < ds->instance_count; i++) {
    const otv_build_instance *in = &ds->instances[i];
    uint16_t sub, psid = 0xFFFF;
    otv_status s = name_id(b, nm, in->style_name ? in->style_name : "", 0, &sub);
    if (!s && in->postscript_name) s = name_id(b, nm, in->postscript_name, NAME_MIN_FONT_ID, &psid);
    if (s) return s;
    otv_buf_u16(t, sub);
    otv_buf_u16(t, 0);
    for (unsigned a = 0; a < b->ac; a++)
      otv_buf_u32(t, (uint32_t)fixed(map_back(&ds->axes[a], in->location[a])));
    if (ps) otv_buf_u16(t, psid);
  }
  (void)NAME_ID_SUBFAMILY;
  return t->failed ? OTV_FAIL(b->err, NOMEM, 0, 0, "fvar") : OTV_E_OK;
}

/* avar 2 (spec: avar version 2) from the designspace's mappings, as fontTools' varLib 5 builds
 * it: input and output locations normalized in design space (the coordinates avar 1 gives);
 * per axis, the output minus the input in F2Dot14 units (an output axis not given: 0) is
 * varied by the model of the input locations (the origin added when no mapping has it) and
 * stored in an ItemVariationStore that the axisIndexMap points each axis at. */
static otv_status build_avar2(otv_builder *b, otv_buf *t, size_t start)
{
  const otv_designspace *ds = b->ds;
  unsigned ac = b->ac, n = ds->mapping_count;
  bool has_origin = false;
  for (unsigned i = 0; i < n && !has_origin; i++) {
    bool zero = true;
    for (unsigned a = 0; a < ac; a++) {
      const otv_build_axis *ax = &ds->axes[a];
      double v = ds->mappings[i].input[a];
      if (!isnan(v) &&
          otv_build_f2(normalize(v, map_fwd(ax, ax->min_value), map_fwd(ax, ax->default_value),
                                 map_fwd(ax, ax->max_value))) != 0)
        zero = false;
    }
    has_origin = zero;
  }
  unsigned cnt = n + (has_origin ? 0 : 1);
  if (cnt > OTV_BUILD_MAX_MASTERS)
    return OTV_FAIL(b->err, LIMIT, OTV_T_AVAR, 0, "over %u axis mappings",
                    OTV_BUILD_MAX_MASTERS - 1);
  double *locs = otv_mem_calloc(&b->al, (size_t)cnt * ac, sizeof *locs);
  double *vals = otv_mem_calloc(&b->al, (size_t)cnt * ac, sizeof *vals);
  otv_status st = locs && vals ? OTV_E_OK : OTV_FAIL(b->err, NOMEM, 0, 0, "avar");
  for (unsigned i = 0; !st && i < n; i++) {
    unsigned r = i + (has_origin ? 0 : 1);
    for (unsigned a = 0; a < ac; a++) {
      const otv_build_axis *ax = &ds->axes[a];
      double lo = map_fwd(ax, ax->min_value), def = map_fwd(ax, ax->default_value),
             hi = map_fwd(ax, ax->max_value);
      double in = ds->mappings[i].input[a], out = ds->mappings[i].output[a];
      double nin = isnan(in) ? 0 : normalize(in, lo, def, hi);
      locs[(size_t)r * ac + a] = nin;
      vals[(size_t)a * cnt + r] = isnan(out) ? 0 : otv_build_f2(normalize(out, lo, def, hi) - nin);
    }
  }
  otv_vmodel md;
  memset(&md, 0, sizeof md);
  if (!st) {
    otv_error e2 = {0};
    st = otv_vmodel_init(&md, locs, cnt, ac, &b->al, &e2);
    if (st == OTV_E_NOMEM)
      OTV_FAIL(b->err, NOMEM, 0, 0, "avar");
    else if (st)
      OTV_FAIL(b->err, BAD_VALUE, OTV_T_AVAR, 0, "axis mappings: %s", e2.msg);
  }
  if (!st) st = otv_build_avar2(b, &md, vals, t, start);
  if (md.count) otv_vmodel_free(&md, &b->al);
  otv_mem_free(&b->al, locs, (size_t)cnt * ac * sizeof *locs);
  otv_mem_free(&b->al, vals, (size_t)cnt * ac * sizeof *vals);
  return st;
}

static otv_status build_avar(otv_builder *b)
{
  const otv_designspace *ds = b->ds;
  bool interesting = false;
  /* per axis: the normalized (user, design) pairs, or none */
  for (unsigned a = 0; a < b->ac; a++) {
    const otv_build_axis *ax = &ds->axes[a];
    double dlo = map_fwd(ax, ax->min_value), ddef = map_fwd(ax, ax->default_value),
           dhi = map_fwd(ax, ax->max_value);
    for (unsigned i = 0; i < ax->map_count; i++) {
      double k = normalize(ax->map[i].input, ax->min_value, ax->default_value, ax->max_value);
      double v = normalize(ax->map[i].output, dlo, ddef, dhi);
      if (otv_build_f2(k) != otv_build_f2(v)) interesting = true;
    }
  }
  if (!interesting && !ds->mapping_count) return OTV_E_OK;
  otv_buf *t = otv_build_table(b, OTV_T_AVAR);
  if (!t) return OTV_E_NOMEM;
  size_t start = t->len;
  otv_buf_u16(t, ds->mapping_count ? 2 : 1);
  otv_buf_u16(t, 0);
  otv_buf_u16(t, 0);
  otv_buf_u16(t, (uint16_t)b->ac);
  for (unsigned a = 0; a < b->ac; a++) {
    const otv_build_axis *ax = &ds->axes[a];
    double dlo = map_fwd(ax, ax->min_value), ddef = map_fwd(ax, ax->default_value),
           dhi = map_fwd(ax, ax->max_value);
    /* (-1,-1), (0,0), (1,1) plus the map's points, sorted by input, one per input */
    int16_t from[3 + AVAR_MAX_MAP], to[3 + AVAR_MAX_MAP];
    unsigned n = 0;
    if (ax->map_count > AVAR_MAX_MAP)
      return OTV_FAIL(b->err, LIMIT, OTV_T_AVAR, 0, "axis %u: map of %u points (at most %u)", a,
                      ax->map_count, AVAR_MAX_MAP);
    const double fixedp[3] = {-1, 0, 1};
    for (unsigned i = 0; i < 3 + ax->map_count && n < 3 + AVAR_MAX_MAP; i++) {
      double k, v;
      if (i < 3)
        k = v = fixedp[i];
      else {
        k = normalize(ax->map[i - 3].input, ax->min_value, ax->default_value, ax->max_value);
        v = normalize(ax->map[i - 3].output, dlo, ddef, dhi);
      }
      int16_t fk = (int16_t)otv_build_f2(k), fv = (int16_t)otv_build_f2(v);
      unsigned p = 0;
      while (p < n && from[p] < fk) p++;
      if (p < n && from[p] == fk) {
        to[p] = fv; /* the map's point wins over the implied one */
        continue;
      }
      memmove(from + p + 1, from + p, (n - p) * sizeof *from);
      memmove(to + p + 1, to + p, (n - p) * sizeof *to);
      from[p] = fk, to[p] = fv;
      n++;
    }
    /* a point on the line through its neighbours (exactly, in F2Dot14) changes nothing: left
     * out, except -1, 0 and 1 (spec: avar requires them) */
    for (unsigned p = 1; p + 1 < n;) {
      long dx0 = from[p] - from[p - 1], dy0 = to[p] - to[p - 1];
      long dx1 = from[p + 1] - from[p - 1], dy1 = to[p + 1] - to[p - 1];
      if (from[p] != 0 && dy0 * dx1 == dy1 * dx0) {
        memmove(from + p, from + p + 1, (n - p - 1) * sizeof *from);
        memmove(to + p, to + p + 1, (n - p - 1) * sizeof *to);
        n--;
      } else
        p++;
    }
    otv_buf_u16(t, (uint16_t)n);
    for (unsigned i = 0; i < n; i++) {
      otv_buf_u16(t, (uint16_t)from[i]);
      otv_buf_u16(t, (uint16_t)to[i]);
    }
  }
  if (ds->mapping_count) return build_avar2(b, t, start);
  return t->failed ? OTV_FAIL(b->err, NOMEM, 0, 0, "avar") : OTV_E_OK;
}

/* STAT (spec: STAT, version 1.1) when the default master has none: the axes (their fvar
 * names, the designspace's ordering), and the axis values of the designspace's labels (format
 * 1: a value, 2: a range, 3: a value linked to another; flags and names as given, the names
 * added to name) and of its location labels (format 4, before them; version 1.2), as
 * fontTools' buildVFStatTable; without labels just the axes. */
static otv_status build_stat(otv_builder *b, const uint8_t *fvar, names *nm)
{
  const otv_designspace *ds = b->ds;
  if (otv_sfnt_find(&b->m[b->base].sfnt, OTV_T_STAT).len) return OTV_E_OK;
  uint16_t elided = NAME_ID_SUBFAMILY;
  if (ds->elided_fallback_name) {
    otv_status st = name_id(b, nm, ds->elided_fallback_name, NAME_MIN_FONT_ID, &elided);
    if (st) return st;
  }
  /* the design axes: the fvar axes, or ds->stat_axes (a font of part of a designspace: those
   * that are not fvar axes get a name of their own) */
  unsigned sac = ds->stat_axis_count ? ds->stat_axis_count : b->ac;
  uint16_t axis_names[OTV_BUILD_MAX_STAT_AXES];
  for (unsigned i = 0; i < sac; i++) {
    const otv_build_stat_axis *sa = ds->stat_axis_count ? &ds->stat_axes[i] : NULL;
    if (!sa || sa->axis >= 0) {
      unsigned fa = sa ? (unsigned)sa->axis : i;
      axis_names[i] = otv_peek_u16(fvar + FVAR_HEADER_LEN + FVAR_AXIS_LEN * (size_t)fa + 18);
    } else {
      otv_status st = name_id(b, nm, sa->name ? sa->name : "", NAME_MIN_FONT_ID, &axis_names[i]);
      if (st) return st;
    }
  }
  uint16_t *ids = ds->label_count ? otv_mem_calloc(&b->al, ds->label_count, sizeof *ids) : NULL;
  if (ds->label_count && !ids) return OTV_FAIL(b->err, NOMEM, 0, 0, "STAT");
  for (unsigned i = 0; i < ds->label_count; i++) {
    otv_status st =
        name_id(b, nm, ds->labels[i].name ? ds->labels[i].name : "", NAME_MIN_FONT_ID, &ids[i]);
    if (st) {
      otv_mem_free(&b->al, ids, ds->label_count * sizeof *ids);
      return st;
    }
  }
  /* format 4 (location labels) before the axes' labels, as fontTools' buildVFStatTable */
  unsigned nl = ds->location_label_count, nv = ds->label_count + nl;
  uint16_t *lids = nl ? otv_mem_calloc(&b->al, nl, sizeof *lids) : NULL;
  otv_status lst = nl && !lids ? OTV_FAIL(b->err, NOMEM, 0, 0, "STAT") : OTV_E_OK;
  for (unsigned i = 0; !lst && i < nl; i++) {
    const char *n = ds->location_labels[i].name;
    lst = name_id(b, nm, n ? n : "", NAME_MIN_FONT_ID, &lids[i]);
  }
  otv_buf *t = lst ? NULL : otv_build_table(b, OTV_T_STAT);
  if (!t) {
    if (ids) otv_mem_free(&b->al, ids, ds->label_count * sizeof *ids);
    if (lids) otv_mem_free(&b->al, lids, nl * sizeof *lids);
    return lst ? lst : OTV_E_NOMEM;
  }
  size_t axes_len = STAT_AXIS_LEN * (size_t)sac, offs = STAT_HEADER_LEN + axes_len;
  otv_buf_u16(t, 1);
  otv_buf_u16(t, nl ? 2 : 1); /* spec: format 4 axis values need version 1.2 */
  otv_buf_u16(t, STAT_AXIS_LEN);
  otv_buf_u16(t, (uint16_t)sac);
  otv_buf_u32(t, sac ? STAT_HEADER_LEN : 0);
  otv_buf_u16(t, (uint16_t)nv);
  otv_buf_u32(t, nv ? (uint32_t)offs : 0);
  otv_buf_u16(t, elided); /* elidedFallbackNameID */
  for (unsigned a = 0; a < sac; a++) {
    if (ds->stat_axis_count) {
      otv_buf_u32(t, ds->stat_axes[a].tag);
      otv_buf_u16(t, axis_names[a]);
      otv_buf_u16(t, (uint16_t)ds->stat_axes[a].ordering);
      continue;
    }
    const uint8_t *rec = fvar + FVAR_HEADER_LEN + FVAR_AXIS_LEN * (size_t)a;
    otv_buf_u32(t, otv_peek_u32(rec)); /* axisTag */
    otv_buf_u16(t, axis_names[a]);     /* axisNameID, the fvar axis's */
    int ord = ds->axis_ordering ? ds->axis_ordering[a] : -1;
    otv_buf_u16(t, (uint16_t)(ord >= 0 ? ord : (int)a));
  }
  /* offsets (from the offsets array) to the axis values, then the values */
  size_t at = 2 * (size_t)nv;
  for (unsigned i = 0; i < nl; i++) {
    unsigned given = 0;
    for (unsigned a = 0; a < sac; a++) given += !isnan(ds->location_labels[i].location[a]);
    otv_buf_u16(t, (uint16_t)at);
    at += 8 + 6 * (size_t)given; /* format 4: a header and an AxisValueRecord per axis */
  }
  for (unsigned i = 0; i < ds->label_count; i++) {
    const otv_build_label *l = &ds->labels[i];
    otv_buf_u16(t, (uint16_t)at);
    at += !isnan(l->linked) ? 16 : (!isnan(l->minimum) || !isnan(l->maximum)) ? 20 : 12;
  }
  for (unsigned i = 0; i < nl; i++) {
    const otv_build_location_label *l = &ds->location_labels[i];
    unsigned given = 0;
    for (unsigned a = 0; a < sac; a++) given += !isnan(l->location[a]);
    otv_buf_u16(t, 4);
    otv_buf_u16(t, (uint16_t)given);
    otv_buf_u16(t, (uint16_t)(l->flags & 3u));
    otv_buf_u16(t, lids[i]);
    for (unsigned a = 0; a < sac; a++) /* AxisValueRecords in axis order */
      if (!isnan(l->location[a])) {
        otv_buf_u16(t, (uint16_t)a);
        otv_buf_u32(t, (uint32_t)fixed(l->location[a]));
      }
  }
  for (unsigned i = 0; i < ds->label_count; i++) {
    const otv_build_label *l = &ds->labels[i];
    unsigned fmt = !isnan(l->linked) ? 3 : (!isnan(l->minimum) || !isnan(l->maximum)) ? 2 : 1;
    otv_buf_u16(t, (uint16_t)fmt);
    otv_buf_u16(t, (uint16_t)l->axis);
    otv_buf_u16(t, (uint16_t)(l->flags & 3u));
    otv_buf_u16(t, ids[i]);
    otv_buf_u32(t, (uint32_t)fixed(l->value));
    if (fmt == 2) { /* an open side: the Fixed extremes, as fontTools' buildStatTable */
      otv_buf_u32(t, isnan(l->minimum) ? 0x80000000u : (uint32_t)fixed(l->minimum));
      otv_buf_u32(t, isnan(l->maximum) ? 0x7FFFFFFFu : (uint32_t)fixed(l->maximum));
    } else if (fmt == 3)
      otv_buf_u32(t, (uint32_t)fixed(l->linked));
  }
  if (ids) otv_mem_free(&b->al, ids, ds->label_count * sizeof *ids);
  if (lids) otv_mem_free(&b->al, lids, nl * sizeof *lids);
  if (at > 0xFFFF) return OTV_FAIL(b->err, LIMIT, OTV_T_STAT, 0, "too many axis values");
  return t->failed ? OTV_FAIL(b->err, NOMEM, 0, 0, "STAT") : OTV_E_OK;
}

/* ---- the whole build ---- */

static otv_status check_ds(const otv_designspace *ds, otv_error *err)
{
  if (!ds || !ds->axis_count || ds->axis_count > OTV_MAX_AXES || !ds->axes)
    return OTV_FAIL(err, ARG, 0, 0, "designspace: 1 to %u axes needed", OTV_MAX_AXES);
  if (!ds->source_count || ds->source_count > OTV_BUILD_MAX_MASTERS || !ds->sources)
    return OTV_FAIL(err, ARG, 0, 0, "designspace: 1 to %u sources needed", OTV_BUILD_MAX_MASTERS);
  if (ds->instance_count > 0xFFFF || (ds->instance_count && !ds->instances))
    return OTV_FAIL(err, ARG, 0, 0, "designspace: bad instance list");
  for (unsigned a = 0; a < ds->axis_count; a++) {
    const otv_build_axis *ax = &ds->axes[a];
    if (!(ax->min_value <= ax->default_value && ax->default_value <= ax->max_value) ||
        fabs(ax->min_value) > 32767 || fabs(ax->max_value) > 32767)
      return OTV_FAIL(err, ARG, 0, 0,
                      "axis %u: minimum <= default <= maximum within +-32767 needed", a);
    if (ax->map_count > 64 || (ax->map_count && !ax->map))
      return OTV_FAIL(err, ARG, 0, 0, "axis %u: bad map (at most 64 points)", a);
    for (unsigned i = 1; i < ax->map_count; i++)
      if (!(ax->map[i].input > ax->map[i - 1].input) || ax->map[i].output < ax->map[i - 1].output)
        return OTV_FAIL(err, ARG, 0, 0, "axis %u: map inputs must increase, outputs not decrease",
                        a);
    for (unsigned b2 = 0; b2 < a; b2++)
      if (ds->axes[b2].tag == ax->tag) return OTV_FAIL(err, ARG, 0, 0, "axis %u: tag repeated", a);
  }
  for (unsigned k = 0; k < ds->source_count; k++)
    if (!ds->sources[k].data || !ds->sources[k].location)
      return OTV_FAIL(err, ARG, 0, 0, "source %u: no font data or location", k);
  for (unsigned i = 0; i < ds->instance_count; i++)
    if (!ds->instances[i].location) return OTV_FAIL(err, ARG, 0, 0, "instance %u: no location", i);
  if (ds->stat_axis_count > OTV_BUILD_MAX_STAT_AXES || (ds->stat_axis_count && !ds->stat_axes))
    return OTV_FAIL(err, ARG, 0, 0, "designspace: 0 to %u STAT axes needed",
                    OTV_BUILD_MAX_STAT_AXES);
  for (unsigned i = 0; i < ds->stat_axis_count; i++) {
    const otv_build_stat_axis *sa = &ds->stat_axes[i];
    if (sa->axis < -1 || (sa->axis >= 0 && (unsigned)sa->axis >= ds->axis_count) ||
        sa->ordering > 0xFFFF)
      return OTV_FAIL(err, ARG, 0, 0, "STAT axis %u: bad axis index or ordering", i);
  }
  /* the axes labels and location labels refer to */
  unsigned lac = ds->stat_axis_count ? ds->stat_axis_count : ds->axis_count;
  if (ds->label_count && !ds->labels) return OTV_FAIL(err, ARG, 0, 0, "designspace: bad labels");
  for (unsigned i = 0; i < ds->label_count; i++) {
    const otv_build_label *l = &ds->labels[i];
    if (l->axis >= lac || !isfinite(l->value) || isinf(l->minimum) || isinf(l->maximum) ||
        isinf(l->linked) || fabs(l->value) > 32767 || fabs(l->minimum) > 32767 ||
        fabs(l->maximum) > 32767 || fabs(l->linked) > 32767)
      return OTV_FAIL(err, ARG, 0, 0, "label %u: bad axis or value", i);
  }
  if (ds->location_label_count && !ds->location_labels)
    return OTV_FAIL(err, ARG, 0, 0, "designspace: bad location labels");
  for (unsigned i = 0; i < ds->location_label_count; i++) {
    const otv_build_location_label *l = &ds->location_labels[i];
    unsigned given = 0;
    for (unsigned a = 0; l->location && a < lac; a++) {
      double v = l->location[a];
      if (isnan(v)) continue;
      if (!isfinite(v) || fabs(v) > 32767)
        return OTV_FAIL(err, ARG, 0, 0, "location label %u: bad value", i);
      given++;
    }
    if (!l->location || !given)
      return OTV_FAIL(err, ARG, 0, 0, "location label %u: no axis value", i);
  }
  if ((ds->rule_count && !ds->rules) || ds->rule_feature_count > 4 ||
      (ds->rule_feature_count && !ds->rule_features))
    return OTV_FAIL(err, ARG, 0, 0, "designspace: bad rule list");
  for (unsigned r = 0; r < ds->rule_count; r++) {
    const otv_build_rule *ru = &ds->rules[r];
    if ((ru->set_count && !ru->sets) || (ru->sub_count && (!ru->sub_names || !ru->sub_with)))
      return OTV_FAIL(err, ARG, 0, 0, "rule %u: bad condition sets or substitutions", r);
    for (unsigned k = 0; k < ru->set_count; k++) {
      if (ru->sets[k].condition_count && !ru->sets[k].conditions)
        return OTV_FAIL(err, ARG, 0, 0, "rule %u: bad condition set", r);
      for (unsigned c = 0; c < ru->sets[k].condition_count; c++)
        if (ru->sets[k].conditions[c].axis >= ds->axis_count)
          return OTV_FAIL(err, ARG, 0, 0, "rule %u: condition on no axis", r);
    }
  }
  if (ds->mapping_count && !ds->mappings)
    return OTV_FAIL(err, ARG, 0, 0, "designspace: bad mapping list");
  for (unsigned i = 0; i < ds->mapping_count; i++) {
    const otv_build_mapping *m = &ds->mappings[i];
    if (!m->input || !m->output)
      return OTV_FAIL(err, ARG, 0, 0, "mapping %u: no input or output location", i);
    for (unsigned a = 0; a < ds->axis_count; a++)
      if (isinf(m->input[a]) || isinf(m->output[a]))
        return OTV_FAIL(err, ARG, 0, 0, "mapping %u: infinite coordinate", i);
  }
  return OTV_E_OK;
}

/* The rules' condition sets as boxes in normalized F2Dot14 (an unbounded side: -1 or 1), then
 * GSUB FeatureVariations (build/gsub.c). */
static otv_status build_rules(otv_builder *b)
{
  const otv_designspace *ds = b->ds;
  unsigned ac = b->ac, boxes = 0;
  for (unsigned r = 0; r < ds->rule_count; r++) boxes += ds->rules[r].set_count;
  if (!ds->rule_count) return OTV_E_OK;
  int16_t *lo = otv_mem_calloc(&b->al, (size_t)boxes * ac + 1, sizeof *lo);
  int16_t *hi = otv_mem_calloc(&b->al, (size_t)boxes * ac + 1, sizeof *hi);
  unsigned *rule = otv_mem_calloc(&b->al, (size_t)boxes + 1, sizeof *rule);
  otv_status st = lo && hi && rule ? OTV_E_OK : OTV_FAIL(b->err, NOMEM, 0, 0, "rules");
  unsigned q = 0;
  for (unsigned r = 0; !st && r < ds->rule_count; r++)
    for (unsigned k = 0; k < ds->rules[r].set_count; k++, q++) {
      const otv_build_conditionset *cs = &ds->rules[r].sets[k];
      rule[q] = r;
      for (unsigned a = 0; a < ac; a++)
        lo[(size_t)q * ac + a] = -16384, hi[(size_t)q * ac + a] = 16384;
      for (unsigned c = 0; c < cs->condition_count; c++) {
        const otv_build_condition *cd = &cs->conditions[c];
        const otv_build_axis *ax = &ds->axes[cd->axis];
        double dlo = map_fwd(ax, ax->min_value), ddef = map_fwd(ax, ax->default_value),
               dhi = map_fwd(ax, ax->max_value);
        int16_t *l = &lo[(size_t)q * ac + cd->axis], *h = &hi[(size_t)q * ac + cd->axis];
        if (!isnan(cd->minimum)) {
          int v = otv_build_f2(normalize(cd->minimum, dlo, ddef, dhi));
          if (v > *l) *l = (int16_t)v;
        }
        if (!isnan(cd->maximum)) {
          int v = otv_build_f2(normalize(cd->maximum, dlo, ddef, dhi));
          if (v < *h) *h = (int16_t)v;
        }
      }
    }
  if (!st) st = otv_build_gsub(b, lo, hi, rule, boxes);
  otv_mem_free(&b->al, lo, ((size_t)boxes * ac + 1) * sizeof *lo);
  otv_mem_free(&b->al, hi, ((size_t)boxes * ac + 1) * sizeof *hi);
  otv_mem_free(&b->al, rule, ((size_t)boxes + 1) * sizeof *rule);
  return st;
}

static const uint32_t replaced[] = {OTV_T_FVAR, OTV_T_AVAR, OTV_T_STAT, OTV_T_NAME,
                                    OTV_T_GVAR, OTV_T_VVAR, OTV_T_CVAR, OTV_T_HVAR,
                                    OTV_T_MVAR, OTV_T_DSIG, OTV_T_CFF};

static otv_status assemble(otv_builder *b, uint8_t **out, size_t *out_len)
{
  const otv_sfnt *d = &b->m[b->base].sfnt;
  otv_sfnt_table *t = otv_mem_calloc(&b->al, (size_t)d->table_count + b->tab_count + 1, sizeof *t);
  if (!t) return OTV_FAIL(b->err, NOMEM, 0, 0, "tables");
  unsigned n = 0;
  for (unsigned i = 0; i < d->table_count; i++) {
    uint32_t tag = d->tables[i].tag;
    bool skip = false;
    for (unsigned q = 0; q < sizeof replaced / sizeof replaced[0]; q++) skip |= replaced[q] == tag;
    /* STAT is kept when the default master has one (build_stat made none) */
    if (tag == OTV_T_STAT) {
      skip = false;
      for (unsigned q = 0; q < b->tab_count; q++) skip |= b->tag[q] == OTV_T_STAT;
    }
    for (unsigned q = 0; q < b->tab_count; q++) skip |= b->tag[q] == tag; /* rebuilt (GPOS) */
    if (skip) continue;
    otv_span s = otv_sfnt_find(d, tag);
    t[n++] = (otv_sfnt_table){tag, s.p, s.len};
  }
  for (unsigned q = 0; q < b->tab_count; q++)
    t[n++] = (otv_sfnt_table){b->tag[q], b->tab[q].p, b->tab[q].len};
  otv_buf o;
  otv_buf_init(&o, &b->al);
  otv_status s = otv_sfnt_write(&o, d->version, t, n, b->err);
  otv_mem_free(&b->al, t, ((size_t)d->table_count + b->tab_count + 1) * sizeof *t);
  if (s) {
    otv_buf_free(&o);
    return s;
  }
  if (o.failed) {
    otv_buf_free(&o);
    return OTV_FAIL(b->err, NOMEM, 0, 0, "font");
  }
  /* shrink to the exact size so that otv_build_free can be given the length */
  uint8_t *p = otv_mem_realloc(&b->al, o.p, o.cap, o.len ? o.len : 1);
  if (!p) {
    otv_buf_free(&o);
    return OTV_FAIL(b->err, NOMEM, 0, 0, "font");
  }
  *out = p;
  *out_len = o.len;
  return OTV_E_OK;
}

otv_status otv_build(const otv_designspace *ds, const otv_options *opt, uint8_t **out,
                     size_t *out_len, otv_error *err)
{
  if (!out || !out_len) return OTV_FAIL(err, ARG, 0, 0, "no output");
  *out = NULL;
  *out_len = 0;
  otv_status s = check_ds(ds, err);
  if (s) return s;
  otv_builder b;
  memset(&b, 0, sizeof b);
  otv_alloc_init(&b.al, opt);
  b.ds = ds;
  b.err = err;
  b.ac = ds->axis_count;
  b.mc = ds->source_count;
  names nm;
  memset(&nm, 0, sizeof nm);
  b.norm = otv_mem_calloc(&b.al, (size_t)b.mc * b.ac, sizeof *b.norm);
  b.m = otv_mem_calloc(&b.al, b.mc, sizeof *b.m);
  b.g = otv_mem_calloc(&b.al, b.mc, sizeof *b.g);
  if (!b.norm || !b.m || !b.g) {
    s = OTV_FAIL(err, NOMEM, 0, 0, "build");
    goto done;
  }
  /* normalized master locations; the default master is the first at the origin */
  b.base = UINT32_MAX;
  for (unsigned k = 0; k < b.mc; k++) {
    bool zero = true;
    for (unsigned a = 0; a < b.ac; a++) {
      const otv_build_axis *ax = &ds->axes[a];
      double v = normalize(ds->sources[k].location[a], map_fwd(ax, ax->min_value),
                           map_fwd(ax, ax->default_value), map_fwd(ax, ax->max_value));
      b.norm[(size_t)k * b.ac + a] = v;
      zero &= v == 0;
    }
    if (zero && b.base == UINT32_MAX) b.base = k;
  }
  if (b.base == UINT32_MAX) {
    s = OTV_FAIL(err, BAD_VALUE, 0, 0, "no source at the default location");
    goto done;
  }
  if ((s = otv_bmaster_open(&b, b.base, &ds->sources[b.base]))) goto done;
  for (unsigned k = 0; k < b.mc; k++)
    if (k != b.base && (s = otv_bmaster_open(&b, k, &ds->sources[k]))) goto done;
  for (unsigned k = 0; k < b.mc; k++)
    if ((s = otv_bmaster_match(&b, k))) goto done;
  if ((s = otv_vmodel_init(&b.model, b.norm, b.mc, b.ac, &b.al, err))) goto done;
  if ((s = names_read(&b, &nm)) || (s = build_fvar(&b, &nm)) || (s = build_avar(&b)) ||
      (s = build_stat(&b, b.tab[0].p, &nm)) || (s = names_write(&b, &nm)) ||
      (s = b.cff ? otv_build_cff2(&b) : otv_build_gvar(&b)) ||
      (s = b.cff ? OTV_E_OK : otv_build_cvar(&b)) || (s = otv_build_hvar(&b)) ||
      (s = otv_build_vvar(&b)) || (s = otv_build_mvar(&b)) || (s = otv_build_gpos(&b)) ||
      (s = otv_build_base(&b)) || (s = build_rules(&b)))
    goto done;
  s = assemble(&b, out, out_len);
done:
  names_free(&b, &nm);
  for (unsigned i = 0; i < b.tab_count; i++) otv_buf_free(&b.tab[i]);
  for (unsigned i = 0; i < b.sub_count; i++) otv_vmodel_free(&b.subs[i].model, &b.al);
  otv_mem_free(&b.al, b.subs, b.sub_cap * sizeof *b.subs);
  otv_vmodel_free(&b.model, &b.al);
  if (b.m)
    for (unsigned k = 0; k < b.mc; k++) otv_bmaster_close(&b, k);
  if (b.g)
    for (unsigned k = 0; k < b.mc; k++) otv_bglyph_free(&b.g[k], &b.al);
  otv_mem_free(&b.al, b.m, b.mc * sizeof *b.m);
  otv_mem_free(&b.al, b.g, b.mc * sizeof *b.g);
  otv_mem_free(&b.al, b.norm, (size_t)b.mc * b.ac * sizeof *b.norm);
  otv_mem_free(&b.al, b.vals, b.vals_cap * sizeof *b.vals);
  otv_mem_free(&b.al, b.deltas, b.deltas_cap * sizeof *b.deltas);
  return s;
}

void otv_build_free(const otv_options *opt, uint8_t *data, size_t len)
{
  if (!data) return;
  otv_alloc al;
  otv_alloc_init(&al, opt);
  otv_mem_free(&al, data, len ? len : 1);
}

/*
 * instance_tables.c - the small tables of a static instance: head, hhea, vhea, maxp, OS/2, post,
 * cvt (cvar) and name.
 *
 * Spec: head, hhea, vhea, maxp, OS/2, post, name; MVAR ("Value tags": which field each tag
 * varies), cvar. Values recomputed from the instanced glyphs follow what fontTools' compiler
 * recalculates (head bbox and flags bit 1, hhea/vhea extents, maxp maxima); MVAR deltas are summed
 * in double and rounded with floor(x + 0.5) before being added; OS/2 usWeightClass/usWidthClass
 * and post.italicAngle come from the wght/wdth/slnt user values as fontTools'
 * set_default_weight_width_slant does.
 */
#include "instance.h"

#include <stdio.h>
#include <stdlib.h>

#define T_CVT OTV_TAG('c', 'v', 't', ' ')

static int get16(const otv_buf *b, size_t off)
{
  return off + 2 <= b->len ? otv_peek_i16(b->p + off) : 0;
}
static void set16(otv_buf *b, size_t off, int v)
{
  if (off + 2 <= b->len) otv_put_u16(b->p + off, (uint16_t)v);
}

static bool copy_table(otv_inst *in, uint32_t tag, otv_buf *b)
{
  size_t len = 0;
  const uint8_t *p = otv_face_table(in->face, tag, &len);
  if (!p) return false;
  otv_buf_bytes(b, p, len);
  return true;
}

/* ---- MVAR ---- */

typedef struct mvar_field {
  uint32_t tag;
  uint32_t table;
  uint16_t off;
} mvar_field;

/* spec: MVAR "Value tags" (the gasp tags are not applied, as fontTools does not) */
static const mvar_field MVAR_FIELDS[] = {
    {OTV_T('h', 'a', 's', 'c'), OTV_T_OS2, 68},  {OTV_T('h', 'd', 's', 'c'), OTV_T_OS2, 70},
    {OTV_T('h', 'l', 'g', 'p'), OTV_T_OS2, 72},  {OTV_T('h', 'c', 'l', 'a'), OTV_T_OS2, 74},
    {OTV_T('h', 'c', 'l', 'd'), OTV_T_OS2, 76},  {OTV_T('v', 'a', 's', 'c'), OTV_T_VHEA, 4},
    {OTV_T('v', 'd', 's', 'c'), OTV_T_VHEA, 6},  {OTV_T('v', 'l', 'g', 'p'), OTV_T_VHEA, 8},
    {OTV_T('h', 'c', 'r', 's'), OTV_T_HHEA, 18}, {OTV_T('h', 'c', 'r', 'n'), OTV_T_HHEA, 20},
    {OTV_T('h', 'c', 'o', 'f'), OTV_T_HHEA, 22}, {OTV_T('v', 'c', 'r', 's'), OTV_T_VHEA, 18},
    {OTV_T('v', 'c', 'r', 'n'), OTV_T_VHEA, 20}, {OTV_T('v', 'c', 'o', 'f'), OTV_T_VHEA, 22},
    {OTV_T('x', 'h', 'g', 't'), OTV_T_OS2, 86},  {OTV_T('c', 'p', 'h', 't'), OTV_T_OS2, 88},
    {OTV_T('s', 'b', 'x', 's'), OTV_T_OS2, 10},  {OTV_T('s', 'b', 'y', 's'), OTV_T_OS2, 12},
    {OTV_T('s', 'b', 'x', 'o'), OTV_T_OS2, 14},  {OTV_T('s', 'b', 'y', 'o'), OTV_T_OS2, 16},
    {OTV_T('s', 'p', 'x', 's'), OTV_T_OS2, 18},  {OTV_T('s', 'p', 'y', 's'), OTV_T_OS2, 20},
    {OTV_T('s', 'p', 'x', 'o'), OTV_T_OS2, 22},  {OTV_T('s', 'p', 'y', 'o'), OTV_T_OS2, 24},
    {OTV_T('s', 't', 'r', 's'), OTV_T_OS2, 26},  {OTV_T('s', 't', 'r', 'o'), OTV_T_OS2, 28},
    {OTV_T('u', 'n', 'd', 's'), OTV_T_POST, 10}, {OTV_T('u', 'n', 'd', 'o'), OTV_T_POST, 8},
};

/* ---- ItemVariationStore deltas at the location, memoized ---- */

void otv_inst_region(const otv_inst *in, const otv_ivs *ivs, unsigned r, int16_t *start,
                     int16_t *peak, int16_t *end)
{
  /* in range: regions checked in otv_ivs_parse (r < region_count) */
  const uint8_t *rg = ivs->regions + (size_t)r * ivs->axis_count * 6;
  for (unsigned a = 0; a < in->axis_count; a++) {
    bool in_store = a < ivs->axis_count;
    start[a] = in_store ? otv_peek_i16(rg + 6 * a) : 0;
    peak[a] = in_store ? otv_peek_i16(rg + 6 * a + 2) : 0;
    end[a] = in_store ? otv_peek_i16(rg + 6 * a + 4) : 0;
  }
}

otv_status otv_inst_ivs_init(otv_inst *in, const otv_ivs *ivs, otv_inst_ivs *c)
{
  memset(c, 0, sizeof *c);
  c->ivs = ivs;
  unsigned rc = ivs->region_count, ac = in->axis_count;
  c->k = otv_mem_calloc(in->al, rc ? rc : 1, sizeof *c->k);
  c->s = otv_mem_calloc(in->al, (size_t)(rc ? rc : 1) * (ac ? ac : 1), sizeof *c->s);
  c->memo = otv_mem_calloc(in->al, ivs->data_count ? ivs->data_count : 1, sizeof *c->memo);
  c->order = otv_mem_calloc(in->al, ivs->data_count ? ivs->data_count : 1, sizeof *c->order);
  if (!c->k || !c->s || !c->memo || !c->order) return OTV_E_NOMEM;
  int16_t st[OTV_MAX_AXES], pk[OTV_MAX_AXES], en[OTV_MAX_AXES];
  for (unsigned r = 0; r < rc; r++) {
    otv_inst_region(in, ivs, r, st, pk, en);
    c->k[r] = otv_inst_region_scalars(in, st, pk, en, c->s + (size_t)r * (ac ? ac : 1));
  }
  /* per ItemVariationData: columns in region-list order (the order fontTools sums them) */
  for (unsigned d = 0; d < ivs->data_count; d++) {
    const otv_ivd *v = &ivs->data[d];
    unsigned n = v->region_index_count;
    uint16_t *o = otv_mem_alloc(in->al, (n ? n : 1) * sizeof *o);
    if (!o) return OTV_E_NOMEM;
    c->order[d] = o;
    for (unsigned j = 0; j < n; j++) o[j] = (uint16_t)j;
    for (unsigned j = 1; j < n; j++) /* stable insertion sort by region index */
      for (unsigned q = j; q > 0 && otv_peek_u16(v->region_indexes + 2 * o[q - 1]) >
                                        otv_peek_u16(v->region_indexes + 2 * o[q]);
           q--) {
        uint16_t t = o[q];
        o[q] = o[q - 1];
        o[q - 1] = t;
      }
  }
  return OTV_E_OK;
}

void otv_inst_ivs_fini(otv_inst *in, otv_inst_ivs *c)
{
  const otv_ivs *ivs = c->ivs;
  if (!ivs) return;
  unsigned rc = ivs->region_count, ac = in->axis_count;
  if (c->k) otv_mem_free(in->al, c->k, (rc ? rc : 1) * sizeof *c->k);
  if (c->s) otv_mem_free(in->al, c->s, (size_t)(rc ? rc : 1) * (ac ? ac : 1) * sizeof *c->s);
  for (unsigned d = 0; d < ivs->data_count; d++) {
    unsigned items = ivs->data[d].item_count ? ivs->data[d].item_count : 1;
    if (c->memo && c->memo[d]) otv_mem_free(in->al, c->memo[d], items * sizeof **c->memo);
    if (c->order && c->order[d])
      otv_mem_free(in->al, c->order[d],
                   (ivs->data[d].region_index_count ? ivs->data[d].region_index_count : 1) *
                       sizeof **c->order);
  }
  if (c->memo)
    otv_mem_free(in->al, c->memo, (ivs->data_count ? ivs->data_count : 1) * sizeof *c->memo);
  if (c->order)
    otv_mem_free(in->al, c->order, (ivs->data_count ? ivs->data_count : 1) * sizeof *c->order);
  memset(c, 0, sizeof *c);
}

double otv_inst_ivs_get(otv_inst *in, otv_inst_ivs *c, uint32_t outer, uint32_t inner)
{
  const otv_ivs *ivs = c->ivs;
  if (!ivs || outer >= ivs->data_count) return 0;
  const otv_ivd *v = &ivs->data[outer];
  if (inner >= v->item_count) return 0;
  if (!c->memo[outer]) {
    double *m = otv_mem_alloc(in->al, v->item_count * sizeof *m);
    if (m) {
      for (unsigned i = 0; i < v->item_count; i++) m[i] = NAN;
      c->memo[outer] = m;
    }
  }
  if (c->memo[outer] && !isnan(c->memo[outer][inner])) return c->memo[outer][inner];
  /* in range: rows and region indexes checked in otv_ivs_parse */
  const uint8_t *row = v->rows + (size_t)inner * v->row_len;
  unsigned wc = v->word_count, n = v->region_index_count, ac = in->axis_count ? in->axis_count : 1;
  unsigned big = v->long_words ? 4 : 2, small = v->long_words ? 2 : 1;
  double sum = 0;
  for (unsigned q = 0; q < n; q++) {
    unsigned j = c->order[outer][q];
    unsigned r = otv_peek_u16(v->region_indexes + 2 * j);
    if (r >= ivs->region_count || c->k[r] < 0) continue;
    const uint8_t *p = row + (j < wc ? j * big : wc * big + (j - wc) * small);
    unsigned size = j < wc ? big : small;
    int d = size == 4 ? otv_peek_i32(p) : size == 2 ? otv_peek_i16(p) : (int8_t)p[0];
    if (d) sum += otv_inst_scale(d, c->s + (size_t)r * ac, c->k[r]);
  }
  if (c->memo[outer]) c->memo[outer][inner] = sum;
  return sum;
}

static otv_status apply_mvar(otv_inst *in)
{
  otv_span t = otv_face_span(in->face, OTV_T_MVAR);
  if (!t.p) return OTV_E_OK;
  otv_rd r = otv_rd_init(t, 0);
  uint16_t major = otv_rd_u16(&r);
  otv_rd_skip(&r, 4);
  uint16_t rec_size = otv_rd_u16(&r);
  uint16_t rec_count = otv_rd_u16(&r);
  uint16_t store_off = otv_rd_u16(&r);
  if (!otv_rd_ok(&r)) return OTV_FAIL_RD(in->err, OTV_T_MVAR, 0, &r, "MVAR header");
  if (major != 1) return OTV_FAIL(in->err, UNSUPPORTED, OTV_T_MVAR, 0, "MVAR version %u", major);
  if (!rec_count || !store_off) return OTV_E_OK;
  if (rec_size < 8)
    return OTV_FAIL(in->err, BAD_VALUE, OTV_T_MVAR, 6, "valueRecordSize %u", rec_size);
  otv_span recs;
  if (!otv_span_array(t, 12, rec_count, rec_size, &recs))
    return OTV_FAIL(in->err, TRUNCATED, OTV_T_MVAR, 12, "%u value records", rec_count);
  otv_ivs ivs;
  memset(&ivs, 0, sizeof ivs);
  otv_status st =
      otv_ivs_parse(in->al, t, OTV_T_MVAR, store_off, (uint16_t)in->axis_count, &ivs, in->err);
  if (st) return st;
  otv_inst_ivs ev;
  if (otv_inst_ivs_init(in, &ivs, &ev)) {
    otv_inst_ivs_fini(in, &ev);
    otv_ivs_free(in->al, &ivs);
    return OTV_FAIL(in->err, NOMEM, OTV_T_MVAR, 0, "MVAR deltas");
  }
  for (unsigned i = 0; i < rec_count; i++) {
    /* in range: recs checked above */
    const uint8_t *p = recs.p + (size_t)i * rec_size;
    uint32_t tag = otv_peek_u32(p);
    for (size_t k = 0; k < sizeof MVAR_FIELDS / sizeof *MVAR_FIELDS; k++) {
      if (MVAR_FIELDS[k].tag != tag) continue;
      double d = otv_inst_ivs_get(in, &ev, otv_peek_u16(p + 4), otv_peek_u16(p + 6));
      if (d == 0) break;
      otv_buf *b = MVAR_FIELDS[k].table == OTV_T_OS2    ? &in->os2
                   : MVAR_FIELDS[k].table == OTV_T_HHEA ? &in->hhea
                   : MVAR_FIELDS[k].table == OTV_T_VHEA ? &in->vhea
                                                        : &in->post;
      size_t off = MVAR_FIELDS[k].off;
      if (off + 2 <= b->len) {
        int base = (tag == OTV_T('h', 'c', 'l', 'a') || tag == OTV_T('h', 'c', 'l', 'd'))
                       ? (int)otv_peek_u16(b->p + off)
                       : get16(b, off);
        set16(b, off, base + otv_inst_round(d));
      }
      break;
    }
  }
  otv_inst_ivs_fini(in, &ev);
  otv_ivs_free(in->al, &ivs);
  return OTV_E_OK;
}

/* ---- cvt / cvar ---- */

static otv_status apply_cvar(otv_inst *in)
{
  otv_span cvar = otv_face_span(in->face, OTV_T_CVAR);
  if (!cvar.p || !in->cvt.len) return OTV_E_OK;
  otv_rd r = otv_rd_init(cvar, 0);
  uint16_t major = otv_rd_u16(&r);
  if (!otv_rd_ok(&r)) return OTV_FAIL_RD(in->err, OTV_T_CVAR, 0, &r, "cvar header");
  if (major != 1) return OTV_FAIL(in->err, UNSUPPORTED, OTV_T_CVAR, 0, "cvar version %u", major);
  unsigned n = (unsigned)(in->cvt.len / 2);
  double *acc = otv_mem_calloc(in->al, n ? n : 1, sizeof *acc);
  if (!acc) return OTV_FAIL(in->err, NOMEM, OTV_T_CVAR, 0, "cvt deltas");
  otv_status st =
      otv_inst_tvs_sum(in, cvar, 4, OTV_T_CVAR, 0, NULL, 0, n, NULL, NULL, NULL, 0, acc, NULL);
  if (!st)
    for (unsigned i = 0; i < n; i++)
      if (acc[i] != 0)
        set16(&in->cvt, 2 * (size_t)i, get16(&in->cvt, 2 * (size_t)i) + otv_inst_round(acc[i]));
  otv_mem_free(in->al, acc, (n ? n : 1) * sizeof *acc);
  return st;
}

/* ---- name ---- */

typedef struct idset {
  uint16_t ids[1024];
  unsigned n;
} idset;

static void idset_add(idset *s, unsigned id)
{
  if (id <= 255 || id == 0xFFFF || s->n == sizeof s->ids / sizeof *s->ids) return;
  s->ids[s->n++] = (uint16_t)id;
}
static bool idset_has(const idset *s, unsigned id)
{
  for (unsigned i = 0; i < s->n; i++)
    if (s->ids[i] == id) return true;
  return false;
}

/* Name IDs above 255 an fvar table uses (axis names, instance subfamily and PostScript names). */
static void fvar_name_ids(otv_span fv, idset *s)
{
  otv_rd r = otv_rd_init(fv, 4);
  uint16_t axes_off = otv_rd_u16(&r);
  otv_rd_skip(&r, 2);
  uint16_t axis_count = otv_rd_u16(&r), axis_size = otv_rd_u16(&r);
  uint16_t inst_count = otv_rd_u16(&r), inst_size = otv_rd_u16(&r);
  if (otv_rd_ok(&r) && axis_size >= 20) {
    for (unsigned a = 0; a < axis_count; a++) {
      otv_rd q = otv_rd_init(fv, axes_off + (size_t)a * axis_size + 18);
      unsigned id = otv_rd_u16(&q);
      if (otv_rd_ok(&q)) idset_add(s, id);
    }
    size_t base = axes_off + (size_t)axis_count * axis_size;
    for (unsigned i = 0; i < inst_count; i++) {
      size_t at = base + (size_t)i * inst_size;
      otv_rd q = otv_rd_init(fv, at);
      unsigned sub = otv_rd_u16(&q);
      if (otv_rd_ok(&q)) idset_add(s, sub);
      if (inst_size >= 4 + 4 * (size_t)axis_count + 2) {
        otv_rd q2 = otv_rd_init(fv, at + 4 + 4 * (size_t)axis_count);
        unsigned ps = otv_rd_u16(&q2);
        if (otv_rd_ok(&q2)) idset_add(s, ps);
      }
    }
  }
}

/* Name IDs above 255 the face's STAT uses. */
static void stat_name_ids(otv_inst *in, idset *s)
{
  otv_span st = otv_face_span(in->face, OTV_T_STAT);
  otv_rd r = otv_rd_init(st, 0);
  otv_rd_skip(&r, 2);
  uint16_t minor = otv_rd_u16(&r);
  uint16_t da_size = otv_rd_u16(&r), da_count = otv_rd_u16(&r);
  uint32_t da_off = otv_rd_u32(&r);
  uint16_t av_count = otv_rd_u16(&r);
  uint32_t av_off = otv_rd_u32(&r);
  uint16_t elided = minor >= 1 ? otv_rd_u16(&r) : 0;
  if (!otv_rd_ok(&r)) return;
  if (minor >= 1) idset_add(s, elided);
  for (unsigned a = 0; a < da_count; a++) {
    otv_rd q = otv_rd_init(st, da_off + (size_t)a * da_size + 4);
    unsigned id = otv_rd_u16(&q);
    if (otv_rd_ok(&q)) idset_add(s, id);
  }
  for (unsigned v = 0; v < av_count; v++) {
    otv_rd q = otv_rd_init(st, av_off + 2 * (size_t)v);
    size_t o = otv_rd_u16(&q);
    if (!otv_rd_ok(&q)) break;
    otv_rd t = otv_rd_init(st, av_off + o + 6); /* valueNameID: +6 in every format */
    unsigned id = otv_rd_u16(&t);
    if (otv_rd_ok(&t)) idset_add(s, id);
  }
}

/* The name IDs above 255 a static instance drops: those fvar and STAT used, as fontTools'
 * instancer prunes them with those tables. A partial instance keeps STAT and a smaller fvar: it
 * drops the IDs only the old fvar used (the axes and named instances it lost). */
static void dropped_name_ids(otv_inst *in, idset *drop)
{
  drop->n = 0;
  fvar_name_ids(otv_face_span(in->face, OTV_T_FVAR), drop);
  if (!in->partial) {
    stat_name_ids(in, drop);
    return;
  }
  idset keep;
  keep.n = 0;
  fvar_name_ids((otv_span){in->fvar.p, in->fvar.len}, &keep);
  stat_name_ids(in, &keep);
  unsigned w = 0;
  for (unsigned i = 0; i < drop->n; i++)
    if (!idset_has(&keep, drop->ids[i])) drop->ids[w++] = drop->ids[i];
  drop->n = w;
}

static otv_status build_name(otv_inst *in)
{
  otv_span t = otv_face_span(in->face, OTV_T_NAME);
  if (!t.p) return OTV_E_OK;
  idset drop;
  dropped_name_ids(in, &drop);
  otv_rd r = otv_rd_init(t, 0);
  uint16_t format = otv_rd_u16(&r), count = otv_rd_u16(&r), str_off = otv_rd_u16(&r);
  if (!otv_rd_ok(&r)) return OTV_FAIL_RD(in->err, OTV_T_NAME, 0, &r, "name header");
  otv_span recs;
  if (!otv_span_array(t, 6, count, 12, &recs))
    return OTV_FAIL(in->err, TRUNCATED, OTV_T_NAME, 6, "%u name records", count);
  otv_span lang = {NULL, 0};
  uint16_t lang_count = 0;
  if (format == 1) {
    otv_rd lr = otv_rd_init(t, 6 + 12 * (size_t)count);
    lang_count = otv_rd_u16(&lr);
    if (!otv_rd_ok(&lr) || !otv_span_array(t, lr.pos, lang_count, 4, &lang))
      return OTV_FAIL(in->err, TRUNCATED, OTV_T_NAME, lr.pos, "language tag records");
  }
  otv_span storage = otv_span_from(t, str_off);
  unsigned kept = 0;
  for (unsigned i = 0; i < count; i++)
    if (!idset_has(&drop, otv_peek_u16(recs.p + 12 * (size_t)i + 6))) kept++;
  otv_buf *b = &in->name;
  size_t hdr = 6 + 12 * (size_t)kept + (format == 1 ? 2 + 4 * (size_t)lang_count : 0);
  if (hdr > 0xFFFF) /* the strings' offset is 16-bit */
    return OTV_FAIL(in->err, LIMIT, OTV_T_NAME, 2, "%u name records and %u language tags", kept,
                    lang_count);
  otv_buf_u16(b, format);
  otv_buf_u16(b, (uint16_t)kept);
  otv_buf_u16(b, (uint16_t)hdr);
  otv_buf_zeros(b, 12 * (size_t)kept);
  if (format == 1) {
    otv_buf_u16(b, lang_count);
    otv_buf_zeros(b, 4 * (size_t)lang_count);
  }
  if (b->failed) return OTV_FAIL(in->err, NOMEM, OTV_T_NAME, 0, "name buffer");
  /* strings: copied per record (and per language tag), so dropped strings leave no trace */
  unsigned k = 0;
  for (unsigned i = 0; i < count; i++) {
    const uint8_t *p = recs.p + 12 * (size_t)i;
    if (idset_has(&drop, otv_peek_u16(p + 6))) continue;
    size_t len = otv_peek_u16(p + 8), off = otv_peek_u16(p + 10);
    otv_span str;
    if (!otv_span_sub(storage, off, len, &str))
      return OTV_FAIL(in->err, BAD_OFFSET, OTV_T_NAME, 6 + 12 * (size_t)i + 10,
                      "name record %u string past the end", i);
    size_t at = b->len - hdr;
    otv_buf_bytes(b, str.p, len);
    if (b->failed) return OTV_FAIL(in->err, NOMEM, OTV_T_NAME, 0, "name buffer");
    if (at > 0xFFFF) return OTV_FAIL(in->err, LIMIT, OTV_T_NAME, 0, "name strings past 64 KiB");
    uint8_t *q = b->p + 6 + 12 * (size_t)k;
    memcpy(q, p, 8);
    otv_put_u16(q + 8, (uint16_t)len);
    otv_put_u16(q + 10, (uint16_t)at);
    k++;
  }
  for (unsigned i = 0; i < lang_count; i++) {
    const uint8_t *p = lang.p + 4 * (size_t)i;
    size_t len = otv_peek_u16(p), off = otv_peek_u16(p + 2);
    otv_span str;
    if (!otv_span_sub(storage, off, len, &str))
      return OTV_FAIL(in->err, BAD_OFFSET, OTV_T_NAME, (size_t)(p - t.p) + 2,
                      "language tag %u past the end", i);
    size_t at = b->len - hdr;
    otv_buf_bytes(b, str.p, len);
    if (b->failed) return OTV_FAIL(in->err, NOMEM, OTV_T_NAME, 0, "name buffer");
    if (at > 0xFFFF) return OTV_FAIL(in->err, LIMIT, OTV_T_NAME, 0, "name strings past 64 KiB");
    uint8_t *q = b->p + 6 + 12 * (size_t)kept + 2 + 4 * (size_t)i;
    otv_put_u16(q, (uint16_t)len);
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

/* STAT Fixed value as fontTools reads it (float of the 16.16). */
static double fixed_at(otv_span st, size_t off)
{
  otv_rd r = otv_rd_init(st, off);
  return otv_rd_i32(&r) / 65536.0;
}

static int user_of_tag(const otv_inst *in, uint32_t tag, double *v)
{
  for (unsigned a = 0; a < in->axis_count; a++)
    if (in->axis_tags[a] == tag) {
      *v = in->loc->user[a];
      return 1;
    }
  return 0;
}

/* The STAT axis values naming the location, as fontTools' updateNameTable picks them; their
 * name IDs into ids (sorted as fontTools sorts them). */
static otv_status stat_names(otv_inst *in, uint16_t *ids, unsigned *nids, uint16_t *elided)
{
  otv_span st = otv_face_span(in->face, OTV_T_STAT);
  if (!st.p) return OTV_FAIL(in->err, NO_TABLE, OTV_T_STAT, 0, "updating names needs STAT");
  otv_rd r = otv_rd_init(st, 0);
  otv_rd_skip(&r, 2);
  uint16_t minor = otv_rd_u16(&r);
  uint16_t da_size = otv_rd_u16(&r), da_count = otv_rd_u16(&r);
  uint32_t da_off = otv_rd_u32(&r);
  uint16_t av_count = otv_rd_u16(&r);
  uint32_t av_off = otv_rd_u32(&r);
  *elided = minor >= 1 ? otv_rd_u16(&r) : 0xFFFF;
  if (!otv_rd_ok(&r)) return OTV_FAIL_RD(in->err, OTV_T_STAT, 0, &r, "STAT header");
  if (!av_count) return OTV_FAIL(in->err, NOT_FOUND, OTV_T_STAT, 0, "STAT has no axis values");
  if (da_count > 64 || av_count > 1024)
    return OTV_FAIL(in->err, LIMIT, OTV_T_STAT, 0, "STAT too large to name from");
  uint32_t tags[64];
  for (unsigned a = 0; a < da_count; a++) {
    otv_rd q = otv_rd_init(st, da_off + (size_t)a * da_size);
    tags[a] = otv_rd_u32(&q);
    if (!otv_rd_ok(&q)) return OTV_FAIL_RD(in->err, OTV_T_STAT, 0, &q, "design axis");
  }
  statval v[1024];
  unsigned nv = 0;
  uint64_t seen_axes = 0; /* fvar axes that some kept value names (checkAxisValuesExist) */
  for (unsigned i = 0; i < av_count; i++) {
    otv_rd q = otv_rd_init(st, av_off + 2 * (size_t)i);
    size_t o = av_off + otv_rd_u16(&q);
    otv_rd t = otv_rd_init(st, o);
    statval x;
    memset(&x, 0, sizeof x);
    x.format = otv_rd_u16(&t);
    x.off = o;
    bool keep = true;
    if (x.format >= 1 && x.format <= 3) {
      x.axis = otv_rd_u16(&t);
      x.flags = otv_rd_u16(&t);
      x.name_id = otv_rd_u16(&t);
      x.value = fixed_at(st, t.pos);
      if (!otv_rd_ok(&q) || !otv_rd_ok(&t) || x.axis >= da_count)
        return OTV_FAIL(in->err, BAD_VALUE, OTV_T_STAT, o, "axis value %u", i);
      double u;
      if (user_of_tag(in, tags[x.axis], &u)) {
        if (x.value != u)
          keep = false; /* pinned axis: only the exact value */
        else
          for (unsigned a = 0; a < in->axis_count; a++)
            if (in->axis_tags[a] == tags[x.axis]) seen_axes |= 1ull << a;
      }
    } else if (x.format == 4) {
      x.nrec = otv_rd_u16(&t);
      x.flags = otv_rd_u16(&t);
      x.name_id = otv_rd_u16(&t);
      if (!otv_rd_ok(&t)) return OTV_FAIL(in->err, BAD_VALUE, OTV_T_STAT, o, "axis value %u", i);
      uint64_t matched = 0;
      for (unsigned k = 0; k < x.nrec; k++) {
        otv_rd e = otv_rd_init(st, o + 8 + 6 * (size_t)k);
        unsigned ax = otv_rd_u16(&e);
        double val = fixed_at(st, e.pos);
        if (!otv_rd_ok(&e) || ax >= da_count || e.pos + 4 > st.len)
          return OTV_FAIL(in->err, BAD_VALUE, OTV_T_STAT, o, "axis value %u record %u", i, k);
        double u;
        if (user_of_tag(in, tags[ax], &u)) {
          if (val != u)
            keep = false;
          else
            for (unsigned a = 0; a < in->axis_count; a++)
              if (in->axis_tags[a] == tags[ax]) matched |= 1ull << a;
        }
      }
      if (keep) seen_axes |= matched;
    } else {
      keep = false; /* unknown format: ignored */
    }
    if (keep) v[nv++] = x;
  }
  for (unsigned a = 0; a < in->axis_count && a < 64; a++)
    if (!(seen_axes >> a & 1)) {
      char tag[5];
      otv_tag_to_string(in->axis_tags[a], tag);
      return OTV_FAIL(in->err, NOT_FOUND, OTV_T_STAT, 0, "no STAT axis value for %s=%g", tag,
                      in->loc->user[a]);
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
      if (v[i].format != 4 || v[i].nrec != want % 65536 || (v[i].flags & 2)) continue;
      uint64_t axes = 0;
      unsigned mn = 64;
      for (unsigned k = 0; k < v[i].nrec; k++) {
        otv_rd e = otv_rd_init(st, v[i].off + 8 + 6 * (size_t)k);
        unsigned ax = otv_rd_u16(&e);
        axes |= 1ull << ax;
        if (ax < mn) mn = ax;
      }
      if (axes & claimed) continue;
      claimed |= axes;
      picks[np++] = (pick){mn, v[i].name_id};
    }
  for (unsigned i = 0; i < nv; i++) {
    if (v[i].format == 4 || (v[i].flags & 2)) continue;
    if (claimed >> v[i].axis & 1) continue;
    claimed |= 1ull << v[i].axis;
    picks[np++] = (pick){v[i].axis, v[i].name_id};
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
  if (!get_name(t, P, E, L, 16, fam, sizeof fam) && !get_name(t, P, E, L, 1, fam, sizeof fam))
    return OTV_E_OK;
  if (!get_name(t, P, E, L, 17, style, sizeof style) &&
      !get_name(t, P, E, L, 2, style, sizeof style))
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
      if (t->r[i].id == 16 || t->r[i].id == 17) t->r[i].dead = true; /* every platform */
  }
  const char *new_fam = typo ? n16 : n1, *new_style = typo ? n17 : n2;
  join3(n4, sizeof n4, new_fam, " ", new_style);
  char prefix[512];
  if (!get_name(t, P, E, L, 25, prefix, sizeof prefix))
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
  if (get_name(t, P, E, L, 3, cur3, sizeof cur3)) {
    have3 = true;
    const char *news[2] = {n4, n6};
    unsigned ids2[2] = {4, 6};
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
      if (get_name(t, P, E, L, 5, ver, sizeof ver)) {
        char *semi = strchr(ver, ';');
        if (semi) *semi = 0;
        const char *v = ver;
        while (*v && strchr("Version ", *v)) v++; /* Python's lstrip("Version ") */
        memmove(ver, v, strlen(v) + 1);
        size_t vl = strlen(ver);
        while (vl && ver[vl - 1] == ' ') ver[--vl] = 0;
      } else {
        otv_span h = otv_face_span(in->face, OTV_T_HEAD);
        double rev = h.len >= 8 ? otv_peek_i32(h.p + 4) / 65536.0 : 0;
        snprintf(ver, sizeof ver, "%.3f", rev);
      }
      char vendor[5] = "";
      otv_span os2 = otv_face_span(in->face, OTV_T_OS2);
      if (os2.len >= 62) {
        size_t vk = 0;
        for (int i = 0; i < 4; i++)
          if (os2.p[58 + i] < 0x80) vendor[vk++] = (char)os2.p[58 + i];
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
  otv_status st = set_name(t, P, E, L, 1, n1);
  if (!st) st = set_name(t, P, E, L, 2, n2);
  if (!st && typo) st = set_name(t, P, E, L, 16, n16);
  if (!st && typo) st = set_name(t, P, E, L, 17, n17);
  if (!st) st = set_name(t, P, E, L, 4, n4);
  if (!st) st = set_name(t, P, E, L, 6, n6);
  if (!st && have3) st = set_name(t, P, E, L, 3, n3);
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
  otv_span src = otv_face_span(in->face, OTV_T_NAME);
  if (b->len < 6 || src.len < 6) return OTV_E_OK;
  if (otv_peek_u16(src.p) != 0)
    return OTV_FAIL(in->err, UNSUPPORTED, OTV_T_NAME, 0, "name format 1 with --update-names");
  uint16_t ids[64], elided = 0xFFFF; /* set by stat_names on success */
  unsigned nids = 0;
  otv_status st = stat_names(in, ids, &nids, &elided);
  if (st) return st;
  idset drop;
  dropped_name_ids(in, &drop);
  ntab t;
  memset(&t, 0, sizeof t);
  t.al = in->al;
  /* every record of the source name table (build_name checked its records and strings) */
  unsigned count = otv_peek_u16(src.p + 2), so = otv_peek_u16(src.p + 4);
  for (unsigned i = 0; i < count; i++) {
    otv_span rec;
    if (!otv_span_sub(src, 6 + 12 * (size_t)i, 12, &rec)) break;
    const uint8_t *p = rec.p;
    size_t len = otv_peek_u16(p + 8), off = so + (size_t)otv_peek_u16(p + 10);
    otv_span str;
    if (!otv_span_sub(src, off, len, &str)) continue;
    if (otv_mem_reserve(in->al, (void **)&t.r, &t.cap, t.n + 1, sizeof *t.r)) goto nomem;
    nrec *r = &t.r[t.n];
    memset(r, 0, sizeof *r);
    r->plat = otv_peek_u16(p), r->enc = otv_peek_u16(p + 2), r->lang = otv_peek_u16(p + 4);
    r->id = otv_peek_u16(p + 6);
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
      if (get_name(&t, 3, 1, 0x409, ids[i], s, sizeof s) && is_ribbi(s))
        ribbi[nr++] = ids[i];
      else
        non[nn++] = ids[i];
    }
    char es[256];
    bool elided_ribbi =
        elided != 0xFFFF && get_name(&t, 3, 1, 0x409, elided, es, sizeof es) && is_ribbi(es);
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
      if (elided == 0xFFFF || !get_name(&t, pf.plat, pf.enc, pf.lang, 1, tmp, sizeof tmp) ||
          !get_name(&t, pf.plat, pf.enc, pf.lang, 2, tmp, sizeof tmp) ||
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
    if (get_name(&t, 3, 1, 0x409, 2, s, sizeof s)) {
      for (char *c = s; *c; c++)
        if (*c >= 'A' && *c <= 'Z') *c = (char)(*c - 'A' + 'a');
      int kind = !strcmp(s, "regular")       ? 1
                 : !strcmp(s, "bold")        ? 2
                 : !strcmp(s, "italic")      ? 3
                 : !strcmp(s, "bold italic") ? 4
                                             : 0;
      if (kind) {
        if (kind >= 2) set16(&in->head, 44, kind == 2 ? 1 : kind == 3 ? 2 : 3);
        if (in->os2.len >= 64) {
          int sel = (uint16_t)get16(&in->os2, 62);
          sel &= ~(1 | 1 << 5 | 1 << 6);
          sel |= kind == 1 ? 1 << 6 : kind == 2 ? 1 << 5 : kind == 3 ? 1 : (1 | 1 << 5);
          set16(&in->os2, 62, sel);
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

/* ---- wght / wdth / slnt ---- */

static bool user_value(const otv_inst *in, uint32_t tag, double *v)
{
  for (unsigned a = 0; a < in->axis_count; a++)
    if (in->axis_tags[a] == tag) {
      if (in->keep[a]) return false; /* still variable: the default's value stays */
      *v = in->loc->user[a];
      return true;
    }
  return false;
}

static void weight_width_slant(otv_inst *in)
{
  double v;
  if (in->os2.len >= 8 && user_value(in, OTV_T('w', 'g', 'h', 't'), &v)) {
    double w = v < 1 ? 1 : v > 1000 ? 1000 : v;
    set16(&in->os2, 4, (int)floor(w + 0.5));
  }
  if (in->os2.len >= 8 && user_value(in, OTV_T('w', 'd', 't', 'h'), &v)) {
    /* OS/2 usWidthClass: piecewise linear through the spec's width percentages */
    static const double pct[9] = {50, 62.5, 75, 87.5, 100, 112.5, 125, 150, 200};
    double w = v < 50 ? 50 : v > 200 ? 200 : v, cls = 9;
    for (int i = 0; i < 8; i++)
      if (w <= pct[i + 1]) {
        cls = (i + 1) + (w - pct[i]) / (pct[i + 1] - pct[i]);
        break;
      }
    set16(&in->os2, 6, (int)floor(cls + 0.5));
  }
  if (in->post.len >= 8 && user_value(in, OTV_T('s', 'l', 'n', 't'), &v)) {
    double a = v < -90 ? -90 : v > 90 ? 90 : v;
    otv_put_u32(in->post.p + 4, (uint32_t)(int32_t)floor(a * 65536.0 + 0.5));
  }
}

/* ---- head / hhea / vhea / maxp ---- */

static void recalc(otv_inst *in)
{
  uint32_t n = in->glyph_count;
  int xmin = 0, ymin = 0, xmax = 0, ymax = 0;
  bool any = false, all_lsb = true;
  int max_adv = 0, min_lsb = 0, min_rsb = 0, max_ext = 0;
  int max_advh = 0, min_tsb = 0, min_bsb = 0, max_vext = 0;
  for (uint32_t g = 0; g < n; g++) {
    if (in->adv_w[g] > max_adv) max_adv = in->adv_w[g];
    if (in->has_vmtx && in->adv_h[g] > max_advh) max_advh = in->adv_h[g];
    if (!in->has_outline[g]) continue;
    const int16_t *bb = in->bbox[g];
    if (in->lsb[g] != bb[0]) all_lsb = false;
    int w = bb[2] - bb[0], lsb = in->lsb[g];
    int rsb = in->adv_w[g] - lsb - w, ext = lsb + w;
    if (!any) {
      xmin = bb[0], ymin = bb[1], xmax = bb[2], ymax = bb[3];
      min_lsb = lsb, min_rsb = rsb, max_ext = ext;
    } else {
      if (bb[0] < xmin) xmin = bb[0];
      if (bb[1] < ymin) ymin = bb[1];
      if (bb[2] > xmax) xmax = bb[2];
      if (bb[3] > ymax) ymax = bb[3];
      if (lsb < min_lsb) min_lsb = lsb;
      if (rsb < min_rsb) min_rsb = rsb;
      if (ext > max_ext) max_ext = ext;
    }
    if (in->has_vmtx) {
      int h = bb[3] - bb[1], tsb = in->tsb[g];
      int bsb = in->adv_h[g] - tsb - h, vext = tsb + h;
      if (!any)
        min_tsb = tsb, min_bsb = bsb, max_vext = vext;
      else {
        if (tsb < min_tsb) min_tsb = tsb;
        if (bsb < min_bsb) min_bsb = bsb;
        if (vext > max_vext) max_vext = vext;
      }
    }
    any = true;
  }
  otv_buf *h = &in->head;
  set16(h, 36, xmin);
  set16(h, 38, ymin);
  set16(h, 40, xmax);
  set16(h, 42, ymax);
  if (h->len >= 18) {
    int flags = (uint16_t)get16(h, 16);
    flags = all_lsb ? (flags | 2) : (flags & ~2);
    set16(h, 16, flags);
  }
  set16(h, 50, in->loca_format);
  otv_buf *hh = &in->hhea;
  set16(hh, 10, max_adv);
  set16(hh, 12, min_lsb);
  set16(hh, 14, min_rsb);
  set16(hh, 16, max_ext);
  set16(hh, 34, in->num_h_metrics);
  if (in->has_vmtx && in->vhea.len) {
    otv_buf *vh = &in->vhea;
    set16(vh, 10, max_advh);
    set16(vh, 12, min_tsb);
    set16(vh, 14, min_bsb);
    set16(vh, 16, max_vext);
    set16(vh, 34, in->num_v_metrics);
  }
  otv_buf *m = &in->maxp;
  if (m->len >= 32 && otv_peek_u32(m->p) == 0x00010000u) {
    set16(m, 6, (int)in->max_points);
    set16(m, 8, (int)in->max_contours);
    set16(m, 10, (int)in->max_comp_points);
    set16(m, 12, (int)in->max_comp_contours);
    set16(m, 28, (int)in->max_comp_elements);
    set16(m, 30, in->max_comp_depth);
  }
}

otv_status otv_inst_tables(otv_inst *in)
{
  copy_table(in, OTV_T_HEAD, &in->head);
  copy_table(in, OTV_T_HHEA, &in->hhea);
  copy_table(in, OTV_T_MAXP, &in->maxp);
  copy_table(in, OTV_T_OS2, &in->os2);
  copy_table(in, OTV_T_POST, &in->post);
  if (in->has_vmtx) copy_table(in, OTV_T_VHEA, &in->vhea);
  copy_table(in, T_CVT, &in->cvt);
  otv_buf *bufs[] = {&in->head, &in->hhea, &in->maxp, &in->os2, &in->post, &in->vhea, &in->cvt};
  for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
    if (bufs[i]->failed) return OTV_FAIL(in->err, NOMEM, 0, 0, "table copies");
  if (in->head.len < 54)
    return OTV_FAIL(in->err, TRUNCATED, OTV_T_HEAD, 0, "head of %zu bytes", in->head.len);
  otv_status st;
  if ((st = apply_mvar(in))) return st;
  if ((st = apply_cvar(in))) return st;
  weight_width_slant(in);
  recalc(in);
  if ((st = build_name(in))) return st;
  if ((in->flags & OTV_INSTANCE_UPDATE_NAMES) && (st = update_names(in))) return st;
  return OTV_E_OK;
}

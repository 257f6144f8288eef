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
    /* in range: regions checked in otv_ivs_parse */
    const uint8_t *rg = ivs->regions + (size_t)r * ivs->axis_count * 6;
    for (unsigned a = 0; a < ac; a++) {
      bool in_store = a < ivs->axis_count;
      st[a] = in_store ? otv_peek_i16(rg + 6 * a) : 0;
      pk[a] = in_store ? otv_peek_i16(rg + 6 * a + 2) : 0;
      en[a] = in_store ? otv_peek_i16(rg + 6 * a + 4) : 0;
    }
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
  if (c->memo) otv_mem_free(in->al, c->memo, (ivs->data_count ? ivs->data_count : 1) * sizeof *c->memo);
  if (c->order) otv_mem_free(in->al, c->order, (ivs->data_count ? ivs->data_count : 1) * sizeof *c->order);
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
  if (rec_size < 8) return OTV_FAIL(in->err, BAD_VALUE, OTV_T_MVAR, 6, "valueRecordSize %u", rec_size);
  otv_span recs;
  if (!otv_span_array(t, 12, rec_count, rec_size, &recs))
    return OTV_FAIL(in->err, TRUNCATED, OTV_T_MVAR, 12, "%u value records", rec_count);
  otv_ivs ivs;
  memset(&ivs, 0, sizeof ivs);
  otv_status st = otv_ivs_parse(in->al, t, OTV_T_MVAR, store_off, (uint16_t)in->axis_count, &ivs,
                                in->err);
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
        set16(b, off, base + (int)floor(d + 0.5));
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
  otv_status st = otv_inst_tvs_sum(in, cvar, 4, OTV_T_CVAR, 0, NULL, 0, n, NULL, NULL, NULL, 0,
                                   acc, NULL);
  if (!st)
    for (unsigned i = 0; i < n; i++)
      if (acc[i] != 0) set16(&in->cvt, 2 * (size_t)i, get16(&in->cvt, 2 * (size_t)i) + (int)floor(acc[i] + 0.5));
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

/* Name IDs above 255 used by fvar and STAT: dropped with those tables (as fontTools' instancer
 * prunes them). */
static void variation_name_ids(otv_inst *in, idset *s)
{
  const otv_face *f = in->face;
  otv_span fv = otv_face_span(f, OTV_T_FVAR);
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
  otv_span st = otv_face_span(f, OTV_T_STAT);
  r = otv_rd_init(st, 0);
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

static otv_status build_name(otv_inst *in)
{
  otv_span t = otv_face_span(in->face, OTV_T_NAME);
  if (!t.p) return OTV_E_OK;
  idset drop;
  drop.n = 0;
  variation_name_ids(in, &drop);
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
  otv_buf_u16(b, format);
  otv_buf_u16(b, (uint16_t)kept);
  otv_buf_u16(b, (uint16_t)(hdr > 0xFFFF ? 0xFFFF : hdr));
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
      return OTV_FAIL(in->err, BAD_OFFSET, OTV_T_NAME, 0, "language tag %u past the end", i);
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

/* ---- wght / wdth / slnt ---- */

static bool user_value(const otv_inst *in, uint32_t tag, double *v)
{
  for (unsigned a = 0; a < in->axis_count; a++)
    if (in->axis_tags[a] == tag) {
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
      if (!any) min_tsb = tsb, min_bsb = bsb, max_vext = vext;
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
  if (in->head.len < 54) return OTV_FAIL(in->err, TRUNCATED, OTV_T_HEAD, 0, "head of %zu bytes", in->head.len);
  otv_status st;
  if ((st = apply_mvar(in))) return st;
  if ((st = apply_cvar(in))) return st;
  weight_width_slant(in);
  recalc(in);
  if ((st = build_name(in))) return st;
  return OTV_E_OK;
}

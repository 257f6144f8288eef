/*
 * build/master.c - the masters of a build: each font's directory and the tables the builder
 * reads (maxp, head, glyf/loca, hmtx/vmtx, post), glyphs matched to the default master by name
 * (post format 2, spec: post "Version 2.0") or by id, and a glyph's points as gvar varies them
 * (spec: gvar "Phantom points": left side, right side, top, bottom; composites: one point per
 * component offset).
 */
#include "build/master.h"
#include "build/cff2.h"
#include "post_names.h"

#include <string.h>

#define T_POST OTV_TAG('p', 'o', 's', 't')

otv_status otv_bmaster_open(otv_builder *b, unsigned k, const otv_build_source *src)
{
  otv_bmaster *m = &b->m[k];
  m->name = src->name ? src->name : "?";
  otv_error e = {0};
  otv_status s = otv_sfnt_open(&m->sfnt, otv_span_of(src->data, src->len), 0, &b->al, &e);
  if (s) return otv_fail(b->err, s, e.table, e.offset, "master %s: %s", m->name, e.msg);
  bool otto = m->sfnt.version == OTV_SFNT_OTTO;
  if (m->sfnt.version != OTV_SFNT_TRUETYPE && m->sfnt.version != OTV_SFNT_TRUE && !otto)
    return OTV_FAIL(b->err, UNSUPPORTED, 0, 0, "master %s: not a TrueType or CFF font", m->name);
  if (k == b->base) b->cff = otto;
  if (otto != b->cff)
    return OTV_FAIL(b->err, UNSUPPORTED, 0, 0,
                    "master %s: %s outlines, the default master's are %s", m->name,
                    otto ? "CFF" : "TrueType", b->cff ? "CFF" : "TrueType");
  otv_span maxp = otv_sfnt_find(&m->sfnt, OTV_T_MAXP), head = otv_sfnt_find(&m->sfnt, OTV_T_HEAD);
  if (maxp.len < 6) return OTV_FAIL(b->err, NO_TABLE, OTV_T_MAXP, 0, "master %s: no maxp", m->name);
  if (head.len < 54)
    return OTV_FAIL(b->err, NO_TABLE, OTV_T_HEAD, 0, "master %s: no head", m->name);
  m->glyph_count = otv_peek_u16(maxp.p + 4);  /* in range: 6 bytes checked */
  int loc_format = otv_peek_i16(head.p + 50); /* in range: 54 bytes checked */
  if (otto && (s = otv_bcff_open(b, k))) return s;
  if (!otto &&
      (s = otv_glyf_parse(otv_sfnt_find(&m->sfnt, OTV_T_GLYF), otv_sfnt_find(&m->sfnt, OTV_T_LOCA),
                          loc_format, m->glyph_count, &m->glyf, &e)))
    return otv_fail(b->err, s, e.table, e.offset, "master %s: %s", m->name, e.msg);
  if (!otto && !m->glyf.present)
    return OTV_FAIL(b->err, UNSUPPORTED, OTV_T_GLYF, 0,
                    "master %s: no glyf (CFF masters are not supported yet)", m->name);
  if ((s = otv_mtx_parse(otv_sfnt_find(&m->sfnt, OTV_T_HHEA), otv_sfnt_find(&m->sfnt, OTV_T_HMTX),
                         false, m->glyph_count, &m->h, &e)) ||
      (s = otv_mtx_parse(otv_sfnt_find(&m->sfnt, OTV_T_VHEA), otv_sfnt_find(&m->sfnt, OTV_T_VMTX),
                         true, m->glyph_count, &m->v, &e)) ||
      (s = otv_vorg_parse(otv_sfnt_find(&m->sfnt, OTV_T_VORG), &m->vorg, &e)))
    return otv_fail(b->err, s, e.table, e.offset, "master %s: %s", m->name, e.msg);
  otv_span hmtx = otv_sfnt_find(&m->sfnt, OTV_T_HMTX);
  if (!m->h.present && m->glyph_count && hmtx.len / 4 >= m->glyph_count) {
    /* a sparse master without hhea (fontTools' test masters): hmtx read as every glyph's long
     * metrics, as fontTools reads it */
    m->h.present = true;
    m->h.longs = hmtx.p; /* in range: glyph_count x 4 bytes checked just above */
    m->h.long_count = m->glyph_count;
    m->h.side_count = 0;
  }
  m->at.axis_count = 0;
  m->at.serial = 1;
  m->at.is_default = true;
  otv_locctx x = {&m->at, &b->al, b->err, NULL};
  if (!otto) {
    m->loader = otv_mem_alloc(&b->al, sizeof *m->loader);
    if (!m->loader) return OTV_FAIL(b->err, NOMEM, 0, 0, "master %s: glyph loader", m->name);
    otv_glyf_loc_init(m->loader, &m->glyf, x);
  }
  m->gid_of = otv_mem_calloc(&b->al, b->m[b->base].glyph_count + 1, sizeof *m->gid_of);
  if (!m->gid_of) return OTV_FAIL(b->err, NOMEM, 0, 0, "master %s: glyph map", m->name);
  return OTV_E_OK;
}

void otv_bmaster_close(otv_builder *b, unsigned k)
{
  otv_bmaster *m = &b->m[k];
  if (m->loader) {
    otv_glyf_loc_free(m->loader);
    otv_mem_free(&b->al, m->loader, sizeof *m->loader);
  }
  otv_bcff_close(b, k);
  if (m->gid_of)
    otv_mem_free(&b->al, m->gid_of, (b->m[b->base].glyph_count + 1) * sizeof *m->gid_of);
  otv_sfnt_close(&m->sfnt, &b->al);
  memset(m, 0, sizeof *m);
}

/* post format 2 glyph names: for each glyph, a key (a standard name index, or a string). */
typedef struct name_key {
  uint32_t std; /* < 258: standard name; else a custom string in s */
  otv_span s;
} name_key;

/* The names of a master (count entries), false when its post has none (format other than 2 or
 * malformed: the glyphs are then matched by id); *st OTV_E_NOMEM when out of memory. */
static bool post_names(const otv_bmaster *m, const otv_alloc *al, name_key *out, uint32_t count,
                       otv_status *st)
{
  otv_post_names pn;
  if (!otv_post_names_open(otv_sfnt_find(&m->sfnt, T_POST), count, al, &pn, st)) return false;
  bool all = true;
  for (uint32_t g = 0; g < count && all; g++) {
    const char *std;
    otv_span s = {NULL, 0};
    all = otv_post_name(&pn, g, &std, &s);
    if (std)
      out[g].std = (uint32_t)(otv_peek_u16(pn.index.p + 2 * (size_t)g)); /* in range: index */
    else
      out[g].std = UINT32_MAX, out[g].s = s;
  }
  otv_post_names_free(&pn, al);
  return all;
}

static bool key_eq(const name_key *a, const name_key *b)
{
  if (a->std != b->std) return false;
  if (a->std != UINT32_MAX) return true;
  return a->s.len == b->s.len && !memcmp(a->s.p, b->s.p, a->s.len);
}

static uint32_t key_hash(const name_key *a)
{
  uint32_t h = 2166136261u ^ a->std;
  if (a->std == UINT32_MAX)
    for (size_t i = 0; i < a->s.len; i++) h = (h ^ a->s.p[i]) * 16777619u;
  return h * 2654435761u;
}

otv_status otv_bmaster_match(otv_builder *b, unsigned k)
{
  otv_bmaster *m = &b->m[k], *d = &b->m[b->base];
  uint32_t dn = d->glyph_count, mn = m->glyph_count;
  for (uint32_t g = 0; g < dn; g++) m->gid_of[g] = g < mn ? g : UINT32_MAX;
  if (k == b->base) return OTV_E_OK;
  if (b->cff) {
    bool done;
    otv_status cs = otv_bcff_match(b, k, &done);
    if (cs || done) return cs;
  }
  name_key *dk = otv_mem_calloc(&b->al, dn + 1, sizeof *dk);
  name_key *mk = otv_mem_calloc(&b->al, mn + 1, sizeof *mk);
  size_t slots_n = 1;
  while (slots_n < 2 * (size_t)mn + 2) slots_n *= 2;
  uint32_t *slots = otv_mem_calloc(&b->al, slots_n, sizeof *slots);
  otv_status s = OTV_E_OK;
  if (!dk || !mk || !slots) {
    s = OTV_FAIL(b->err, NOMEM, 0, 0, "glyph names");
  } else if (post_names(d, &b->al, dk, dn, &s) && post_names(m, &b->al, mk, mn, &s)) {
    for (uint32_t g = 0; g < mn; g++) {
      uint32_t h = key_hash(&mk[g]) & (uint32_t)(slots_n - 1);
      while (slots[h]) h = (h + 1) & (uint32_t)(slots_n - 1);
      slots[h] = g + 1;
    }
    for (uint32_t g = 0; g < dn; g++) {
      uint32_t h = key_hash(&dk[g]) & (uint32_t)(slots_n - 1);
      m->gid_of[g] = UINT32_MAX;
      for (; slots[h]; h = (h + 1) & (uint32_t)(slots_n - 1))
        if (key_eq(&dk[g], &mk[slots[h] - 1])) {
          m->gid_of[g] = slots[h] - 1;
          break;
        }
    }
  } else if (s) {
    s = OTV_FAIL(b->err, NOMEM, T_POST, 0, "glyph names");
  } else if (mn != dn) {
    s = OTV_FAIL(b->err, BAD_VALUE, OTV_T_MAXP, 4,
                 "master %s has %u glyphs, the default master %u (and no glyph names to match)",
                 m->name, mn, dn);
  }
  otv_mem_free(&b->al, dk, (dn + 1) * sizeof *dk);
  otv_mem_free(&b->al, mk, (mn + 1) * sizeof *mk);
  otv_mem_free(&b->al, slots, slots_n * sizeof *slots);
  return s;
}

void otv_bglyph_free(otv_bglyph *g, const otv_alloc *al)
{
  otv_mem_free(al, g->x, g->cap * sizeof *g->x);
  otv_mem_free(al, g->y, g->cap * sizeof *g->y);
  otv_mem_free(al, g->on, g->on_cap);
  otv_mem_free(al, g->ends, g->ends_cap * sizeof *g->ends);
  otv_mem_free(al, g->comp, g->comp_cap * sizeof *g->comp);
  memset(g, 0, sizeof *g);
}

static otv_status grow(otv_builder *b, otv_bglyph *g, size_t n)
{
  if (n <= g->cap) return OTV_E_OK;
  size_t cap = g->cap;
  if (OTV_RESERVE(&b->al, &g->x, &cap, n, sizeof *g->x)) goto nomem;
  cap = g->cap;
  if (OTV_RESERVE(&b->al, &g->y, &cap, n, sizeof *g->y)) goto nomem;
  g->cap = cap;
  if (OTV_RESERVE(&b->al, &g->on, &g->on_cap, n, 1)) goto nomem;
  return OTV_E_OK;
nomem:
  return OTV_FAIL(b->err, NOMEM, 0, 0, "glyph points");
}

otv_status otv_bglyph_reserve(otv_builder *b, otv_bglyph *g, size_t n, size_t ends)
{
  if (grow(b, g, n) || OTV_BRESERVE(b, g->ends, g->ends_cap, ends + 1) ||
      OTV_BRESERVE(b, g->comp, g->comp_cap, n + 1))
    return OTV_FAIL(b->err, NOMEM, 0, 0, "glyph points");
  return OTV_E_OK;
}

otv_status otv_bglyph_load(otv_builder *b, unsigned k, uint32_t gid, otv_bglyph *g)
{
  otv_bmaster *m = &b->m[k];
  g->n = g->end_count = g->comp_count = 0;
  g->composite = false;
  g->empty = true;
  uint32_t mg = m->gid_of[gid];
  g->missing = mg == UINT32_MAX;
  if (g->missing) return OTV_E_OK;
  size_t start, end;
  if (!otv_loca_get(&m->glyf, mg, &start, &end))
    return OTV_FAIL(b->err, BAD_OFFSET, OTV_T_LOCA, 0, "master %s: glyph %u: loca out of range",
                    m->name, mg);
  otv_span d = {m->glyf.glyf.p + start, end - start};
  int xmin = 0, ymax = 0, nc = 0;
  if (d.len >= 10) {
    nc = otv_peek_i16(d.p); /* in range: 10 bytes checked */
    xmin = otv_peek_i16(d.p + 2);
    ymax = otv_peek_i16(d.p + 8);
  }
  unsigned n = 0;
  if (d.len >= 10 && nc > 0) {
    if (OTV_NEVER(!m->loader)) /* TrueType masters only (checked when opened) */
      return OTV_FAIL(b->err, UNSUPPORTED, OTV_T_GLYF, 0, "master %s: no glyf", m->name);
    otv_status s = otv_glyf_load_default(m->loader, mg);
    if (s) return s;
    n = m->loader->n_pts - 4;
    if (grow(b, g, n + 4)) return OTV_E_NOMEM;
    for (unsigned i = 0; i < n; i++) {
      g->x[i] = m->loader->pts[i].x;
      g->y[i] = m->loader->pts[i].y;
      g->on[i] = m->loader->tags[i] & OTV_ON_CURVE_POINT;
    }
    if (OTV_RESERVE(&b->al, &g->ends, &g->ends_cap, m->loader->n_ends + 1, sizeof *g->ends))
      return OTV_FAIL(b->err, NOMEM, 0, 0, "contour ends");
    memcpy(g->ends, m->loader->ends, m->loader->n_ends * sizeof *g->ends);
    g->end_count = m->loader->n_ends;
    g->empty = false;
  } else if (d.len >= 10 && nc < 0) {
    otv_rd r = otv_rd_init(d, 10);
    otv_glyf_comp c;
    bool more = true;
    while (more) {
      if (!otv_glyf_read_comp(&r, &c))
        return OTV_FAIL(b->err, TRUNCATED, OTV_T_GLYF, start + r.bad_at,
                        "master %s: glyph %u: component record", m->name, mg);
      if (grow(b, g, n + 5) ||
          OTV_RESERVE(&b->al, &g->comp, &g->comp_cap, (size_t)n + 1, sizeof *g->comp))
        return OTV_FAIL(b->err, NOMEM, 0, 0, "components");
      /* point-matched components have no offset to vary: gvar gives them (0, 0) */
      bool xy = c.flags & OTV_ARGS_ARE_XY_VALUES;
      g->x[n] = xy ? c.arg1 : 0;
      g->y[n] = xy ? c.arg2 : 0;
      g->on[n] = 1;
      g->comp[n] = c.gid;
      n++;
      more = c.flags & OTV_MORE_COMPONENTS;
      if (n > 0xFFFF)
        return OTV_FAIL(b->err, BAD_VALUE, OTV_T_GLYF, start, "glyph %u: too many components", mg);
    }
    g->comp_count = n;
    g->composite = true;
    g->empty = false;
  }
  if (grow(b, g, n + 4)) return OTV_E_NOMEM;
  /* phantom points (spec: gvar "Phantom points"; fontTools: without vmtx the vertical ones are
   * 0) */
  double lsb = m->h.present ? otv_mtx_side(&m->h, mg) : 0;
  double adv = m->h.present ? otv_mtx_advance(&m->h, mg) : 0;
  g->x[n] = xmin - lsb, g->y[n] = 0;
  g->x[n + 1] = g->x[n] + adv, g->y[n + 1] = 0;
  double top = 0, bottom = 0;
  if (m->v.present) {
    top = otv_mtx_side(&m->v, mg) + ymax;
    bottom = top - otv_mtx_advance(&m->v, mg);
  }
  g->x[n + 2] = 0, g->y[n + 2] = top;
  g->x[n + 3] = 0, g->y[n + 3] = bottom;
  for (unsigned i = n; i < n + 4; i++) g->on[i] = 1;
  g->n = n + 4;
  return OTV_E_OK;
}

/* The default master's glyph named `name` (post format 2 names; else "glyphN"-less: none). */
bool otv_bmaster_glyph_by_name(otv_builder *b, const char *name, uint32_t *gid)
{
  otv_bmaster *d = &b->m[b->base];
  bool cff_done;
  bool cff_hit = otv_bcff_glyph_by_name(b, name, gid, &cff_done);
  if (cff_done) return cff_hit;
  otv_post_names pn;
  otv_status st;
  if (!otv_post_names_open(otv_sfnt_find(&d->sfnt, T_POST), d->glyph_count, &b->al, &pn, &st))
    return false;
  bool found = false;
  size_t len = strlen(name);
  for (uint32_t g = 0; g < d->glyph_count && !found; g++) {
    const char *std;
    otv_span s = {NULL, 0};
    if (!otv_post_name(&pn, g, &std, &s)) continue;
    found = std ? !strcmp(std, name) : s.len == len && !memcmp(s.p, name, len);
    if (found) *gid = g;
  }
  otv_post_names_free(&pn, &b->al);
  return found;
}

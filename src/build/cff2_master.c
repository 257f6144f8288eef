/*
 * build/cff2_master.c - the CFF and CFF2 masters of a build (build/cff2.h): each master's table
 * parsed (cff.c), for CFF (v1) its charset read (TN 5176 section 13: glyph id -> SID, or CID
 * for CID-keyed fonts) and its String INDEX kept, so that glyphs are matched to the default
 * master's by name (a standard string by its SID, a custom one by its bytes) or by CID, and
 * the designspace's rules find glyphs by name (cff_strings.c: the standard strings).
 */
#include "build/cff2.h"
#include "cff_strings.h"

#include <stdlib.h>
#include <string.h>

#define STD_STRINGS OTV_CFF_STD_STRINGS /* SIDs below are the standard strings */

/* ---- masters ---- */

otv_status otv_bcff_open(otv_builder *b, unsigned k)
{
  otv_bmaster *m = &b->m[k];
  otv_span cff1 = otv_sfnt_find(&m->sfnt, OTV_T_CFF), cff2 = otv_sfnt_find(&m->sfnt, OTV_T_CFF2);
  bool is2 = !cff1.len && cff2.len;
  if (!cff1.len && !cff2.len)
    return OTV_FAIL(b->err, NO_TABLE, OTV_T_CFF, 0, "master %s: no CFF or CFF2 table", m->name);
  otv_span head = otv_sfnt_find(&m->sfnt, OTV_T_HEAD);
  uint16_t upem = head.len >= 20 ? otv_peek_u16(head.p + 18) : 1000; /* in range: checked */
  m->cff = otv_mem_calloc(&b->al, 1, sizeof *m->cff);
  if (!m->cff) return OTV_FAIL(b->err, NOMEM, 0, 0, "master %s: CFF", m->name);
  otv_bcff *x = m->cff;
  otv_error e = {0};
  otv_span fvar = otv_sfnt_find(&m->sfnt, OTV_T_FVAR); /* a variable CFF2 master: its defaults */
  uint16_t axes = fvar.len >= 6 ? otv_peek_u16(fvar.p + 4) : 0; /* in range: checked */
  otv_status s =
      otv_cff_parse(is2 ? cff2 : cff1, is2, upem ? upem : 1000, axes, &b->al, &x->cff, &e);
  if (s) return otv_fail(b->err, s, e.table, e.offset, "master %s: %s", m->name, e.msg);
  if (x->cff.charstrings.count != m->glyph_count)
    return OTV_FAIL(b->err, BAD_VALUE, x->cff.tag, 0, "master %s: %u charstrings, maxp %u glyphs",
                    m->name, x->cff.charstrings.count, m->glyph_count);
  if (is2) return OTV_E_OK;
  /* CFF (v1): glyph names through the charset (cff.c keeps the String INDEX) */
  x->sid = otv_mem_calloc(&b->al, (size_t)m->glyph_count + 1, sizeof *x->sid);
  if (!x->sid) return OTV_FAIL(b->err, NOMEM, 0, 0, "master %s: charset", m->name);
  if (!otv_cff_charset_sids(&x->cff, x->sid, m->glyph_count))
    return OTV_FAIL(b->err, BAD_VALUE, x->cff.tag, (size_t)(x->cff.charset.p - x->cff.tab.p),
                    "master %s: charset", m->name);
  return OTV_E_OK;
}

void otv_bcff_close(otv_builder *b, unsigned k)
{
  otv_bmaster *m = &b->m[k];
  if (!m->cff) return;
  if (m->cff->sid)
    otv_mem_free(&b->al, m->cff->sid, ((size_t)m->glyph_count + 1) * sizeof(uint32_t));
  otv_cff_free(&b->al, &m->cff->cff);
  otv_mem_free(&b->al, m->cff, sizeof *m->cff);
  m->cff = NULL;
}

/* A glyph's name key: a standard string or CID (the SID itself), or a custom string. */
typedef struct gkey {
  uint32_t sid; /* < STD_STRINGS or CID-keyed: compared as is; else: s */
  otv_span s;
  uint32_t gid;
} gkey;

static void key_of(const otv_bcff *x, uint32_t g, gkey *out)
{
  out->gid = g;
  out->sid = x->sid[g];
  out->s = (otv_span){NULL, 0};
  if (!x->cff.cid && out->sid >= STD_STRINGS) {
    otv_span str;
    if (otv_cff_index_get(&x->cff.strings, out->sid - STD_STRINGS, &str)) {
      out->s = str;
      out->sid = UINT32_MAX;
    }
  }
}

static int key_cmp(const void *pa, const void *pb)
{
  const gkey *a = pa, *c = pb;
  if (a->sid != c->sid) return a->sid < c->sid ? -1 : 1;
  if (a->sid != UINT32_MAX) return 0;
  size_t n = a->s.len < c->s.len ? a->s.len : c->s.len;
  int r = n ? memcmp(a->s.p, c->s.p, n) : 0;
  if (r) return r;
  return a->s.len < c->s.len ? -1 : a->s.len > c->s.len;
}

otv_status otv_bcff_match(otv_builder *b, unsigned k, bool *done)
{
  otv_bmaster *m = &b->m[k], *d = &b->m[b->base];
  *done = false;
  if (!m->cff || !d->cff || !m->cff->sid || !d->cff->sid || m->cff->cff.cid != d->cff->cff.cid)
    return OTV_E_OK;
  gkey *mk = otv_mem_calloc(&b->al, (size_t)m->glyph_count + 1, sizeof *mk);
  if (!mk) return OTV_FAIL(b->err, NOMEM, 0, 0, "glyph names");
  for (uint32_t g = 0; g < m->glyph_count; g++) key_of(m->cff, g, &mk[g]);
  qsort(mk, m->glyph_count, sizeof *mk, key_cmp);
  for (uint32_t g = 0; g < d->glyph_count; g++) {
    gkey q;
    key_of(d->cff, g, &q);
    const gkey *hit = m->glyph_count ? bsearch(&q, mk, m->glyph_count, sizeof *mk, key_cmp) : NULL;
    m->gid_of[g] = hit ? hit->gid : UINT32_MAX;
  }
  otv_mem_free(&b->al, mk, ((size_t)m->glyph_count + 1) * sizeof *mk);
  *done = true;
  return OTV_E_OK;
}

bool otv_bcff_glyph_by_name(otv_builder *b, const char *name, uint32_t *gid, bool *done)
{
  const otv_bmaster *d = &b->m[b->base];
  *done = false;
  if (!d->cff || !d->cff->sid || d->cff->cff.cid) return false;
  *done = true;
  size_t len = strlen(name);
  for (uint32_t g = 0; g < d->glyph_count; g++) {
    gkey q;
    key_of(d->cff, g, &q);
    bool hit = q.sid == UINT32_MAX
                   ? q.s.len == len && !memcmp(q.s.p, name, len)
                   : q.sid < OTV_CFF_STD_STRINGS && !strcmp(otv_cff_std_strings[q.sid], name);
    if (hit) {
      *gid = g;
      return true;
    }
  }
  return false;
}

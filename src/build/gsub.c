/*
 * build/gsub.c - GSUB FeatureVariations from the designspace's rules (spec: chapter2
 * "FeatureVariations table", "ConditionSet", "Condition table format 1", "FeatureTableSubstitution";
 * GSUB lookup type 1), as fontTools' varLib builds them: each rule's substitutions become one
 * SingleSubst lookup (format 1 when every glyph moves by one delta, else 2); the regions where rules overlap are worked out (every combination of one
 * box per rule, intersected), and each becomes a FeatureVariationRecord whose conditions are the
 * box (normalized design-space bounds in F2Dot14) and whose substitute feature lists the lookups
 * of every rule holding there, the records of more rules first, so the first record that holds
 * at a location is the one of all the rules holding there. The features (rule_features, default
 * 'rvrn') are empty in the FeatureList and in every LangSys; the masters must have no GSUB of
 * their own yet (a default master's GSUB is OTV_E_UNSUPPORTED: not merged yet).
 */
#include "build/master.h"
#include "build/tables.h"
#include "layout.h"

#include <string.h>

#define MAX_RULES 64u
#define MAX_RECORDS 4096u
#define TAG_DFLT OTV_TAG('D', 'F', 'L', 'T')

typedef struct fv_rec {
  int16_t lo[OTV_MAX_AXES], hi[OTV_MAX_AXES];
  uint64_t rules;
} fv_rec;

static unsigned bits(uint64_t v)
{
  unsigned n = 0;
  for (; v; v &= v - 1) n++;
  return n;
}

/* A Feature table (no FeatureParams) listing n lookups. */
static otv_obj feature(otv_graph *g, const uint16_t *lookups, unsigned n)
{
  otv_buf *o = otv_graph_push(g);
  if (!o) return OTV_OBJ_NONE;
  otv_buf_u16(o, 0);
  otv_buf_u16(o, (uint16_t)n);
  for (unsigned i = 0; i < n; i++) otv_buf_u16(o, lookups[i]);
  return otv_graph_pop(g);
}

/* A SingleSubst format 2 lookup of rule r (from -> to sorted by from) */
static otv_status rule_lookup(otv_builder *b, otv_graph *g, const otv_build_rule *r, otv_obj *out)
{
  uint32_t *from = otv_mem_calloc(&b->al, (size_t)r->sub_count * 2 + 1, sizeof *from);
  if (!from) return OTV_FAIL(b->err, NOMEM, 0, 0, "GSUB");
  uint32_t *to = from + r->sub_count;
  unsigned n = 0;
  otv_status st = OTV_E_OK;
  for (unsigned i = 0; i < r->sub_count && !st; i++) {
    uint32_t f, t;
    if (!r->sub_names[i] || !r->sub_with[i])
      st = OTV_FAIL(b->err, ARG, 0, 0, "rule substitution without a glyph name");
    else if (!otv_bmaster_glyph_by_name(b, r->sub_names[i], &f))
      st = OTV_FAIL(b->err, BAD_VALUE, OTV_T_POST, 0,
                    "rule: no glyph '%.60s' in the default master", r->sub_names[i]);
    else if (!otv_bmaster_glyph_by_name(b, r->sub_with[i], &t))
      st = OTV_FAIL(b->err, BAD_VALUE, OTV_T_POST, 0,
                    "rule: no glyph '%.60s' in the default master", r->sub_with[i]);
    if (st) break;
    /* sorted insert; a glyph substituted twice keeps the first */
    unsigned p = 0;
    while (p < n && from[p] < f) p++;
    if (p < n && from[p] == f) continue;
    memmove(from + p + 1, from + p, (n - p) * sizeof *from);
    memmove(to + p + 1, to + p, (n - p) * sizeof *to);
    from[p] = f, to[p] = t, n++;
  }
  if (!st) {
    otv_buf *lk = otv_graph_push(g);
    otv_buf *sub = lk ? otv_graph_push(g) : NULL;
    otv_buf *cov = sub ? otv_graph_push(g) : NULL;
    if (cov) {
      otv_buf_u16(cov, 1);
      otv_buf_u16(cov, (uint16_t)n);
      for (unsigned i = 0; i < n; i++) otv_buf_u16(cov, (uint16_t)from[i]);
      otv_obj c = otv_graph_pop(g);
      /* format 1 (one deltaGlyphID, modulo 65536) when every substitution moves alike */
      bool one = n > 0;
      for (unsigned i = 1; i < n; i++)
        one &= (uint16_t)(to[i] - from[i]) == (uint16_t)(to[0] - from[0]);
      otv_buf_u16(sub, one ? 1 : 2);
      otv_buf_u16(sub, 0);
      if (one)
        otv_buf_u16(sub, (uint16_t)(to[0] - from[0]));
      else {
        otv_buf_u16(sub, (uint16_t)n);
        for (unsigned i = 0; i < n; i++) otv_buf_u16(sub, (uint16_t)to[i]);
      }
      otv_graph_link(g, 2, 2, c);
      otv_obj s = otv_graph_pop(g);
      otv_buf_u16(lk, 1); /* spec: lookupType 1, single substitution */
      otv_buf_u16(lk, 0);
      otv_buf_u16(lk, 1);
      otv_buf_u16(lk, 0);
      otv_graph_link(g, 6, 2, s);
      *out = otv_graph_pop(g);
    }
    if (otv_graph_status(g)) st = OTV_FAIL(b->err, NOMEM, 0, 0, "GSUB");
  }
  otv_mem_free(&b->al, from, ((size_t)r->sub_count * 2 + 1) * sizeof *from);
  return st;
}

otv_status otv_build_gsub(otv_builder *b, const int16_t *lo, const int16_t *hi,
                          const unsigned *box_rule, unsigned box_count)
{
  const otv_designspace *ds = b->ds;
  if (!ds->rule_count) return OTV_E_OK;
  unsigned ac = b->ac;
  if (otv_sfnt_find(&b->m[b->base].sfnt, OTV_T_GSUB).len)
    return OTV_FAIL(b->err, UNSUPPORTED, OTV_T_GSUB, 0,
                    "rules with a GSUB in the default master: not merged yet");
  if (ds->rule_count > MAX_RULES)
    return OTV_FAIL(b->err, LIMIT, OTV_T_GSUB, 0, "over %u rules", MAX_RULES);
  unsigned nf = ds->rule_feature_count ? ds->rule_feature_count : 1;
  uint32_t tags[4] = {OTV_TAG('r', 'v', 'r', 'n')};
  for (unsigned i = 0; i < ds->rule_feature_count && i < 4; i++) tags[i] = ds->rule_features[i];
  if (nf > 4) nf = 4;
  /* the records: every combination of boxes of distinct rules, intersected */
  fv_rec *rec = otv_mem_calloc(&b->al, MAX_RECORDS, sizeof *rec);
  if (!rec) return OTV_FAIL(b->err, NOMEM, 0, 0, "GSUB");
  unsigned n = 0;
  otv_status st = OTV_E_OK;
  for (unsigned q = 0; q < box_count && !st; q++) {
    unsigned r = box_rule[q];
    if (!ds->rules[r].sub_count) continue;
    unsigned before = n;
    for (unsigned e = 0; e <= before && !st; e++) {
      fv_rec x;
      if (e == before) {
        memcpy(x.lo, lo + (size_t)q * ac, ac * sizeof *x.lo);
        memcpy(x.hi, hi + (size_t)q * ac, ac * sizeof *x.hi);
        x.rules = (uint64_t)1 << r;
      } else {
        if (rec[e].rules >> r & 1) continue;
        bool empty = false;
        for (unsigned a = 0; a < ac; a++) {
          int16_t l = lo[(size_t)q * ac + a], h = hi[(size_t)q * ac + a];
          x.lo[a] = rec[e].lo[a] > l ? rec[e].lo[a] : l;
          x.hi[a] = rec[e].hi[a] < h ? rec[e].hi[a] : h;
          empty |= x.lo[a] > x.hi[a];
        }
        if (empty) continue;
        x.rules = rec[e].rules | (uint64_t)1 << r;
      }
      bool dup = false;
      for (unsigned k = 0; k < n && !dup; k++)
        dup = rec[k].rules == x.rules && !memcmp(rec[k].lo, x.lo, ac * sizeof *x.lo) &&
              !memcmp(rec[k].hi, x.hi, ac * sizeof *x.hi);
      if (dup) continue;
      if (n == MAX_RECORDS)
        st =
            OTV_FAIL(b->err, LIMIT, OTV_T_GSUB, 0, "rules overlap in over %u regions", MAX_RECORDS);
      else
        rec[n++] = x;
    }
  }
  /* more rules first (stable) */
  for (unsigned i = 1; i < n; i++) {
    fv_rec x = rec[i];
    unsigned j = i;
    while (j > 0 && bits(rec[j - 1].rules) < bits(x.rules)) rec[j] = rec[j - 1], j--;
    rec[j] = x;
  }
  otv_graph *g = st ? NULL : otv_graph_new(&b->al);
  if (!st && !g) st = OTV_FAIL(b->err, NOMEM, 0, 0, "GSUB");
  /* lookups: one per rule with substitutions, in rule order */
  uint16_t lookup_of[MAX_RULES];
  otv_obj lookups[MAX_RULES];
  unsigned lc = 0;
  for (unsigned r = 0; r < ds->rule_count && !st; r++) {
    if (!ds->rules[r].sub_count) continue;
    lookup_of[r] = (uint16_t)lc;
    st = rule_lookup(b, g, &ds->rules[r], &lookups[lc++]);
  }
  otv_obj root = OTV_OBJ_NONE;
  otv_buf *h = st ? NULL : otv_graph_push(g);
  if (h) {
    otv_buf_u16(h, 1);
    otv_buf_u16(h, 1); /* version 1.1: FeatureVariations */
    otv_buf_zeros(h, 10);
    /* ScriptList: DFLT, its default LangSys listing every feature */
    otv_buf *sl = otv_graph_push(g);
    otv_buf *sc = sl ? otv_graph_push(g) : NULL;
    otv_buf *ls = sc ? otv_graph_push(g) : NULL;
    if (ls) {
      otv_buf_u16(ls, 0);
      otv_buf_u16(ls, 0xFFFF);
      otv_buf_u16(ls, (uint16_t)nf);
      for (unsigned f = 0; f < nf; f++) otv_buf_u16(ls, (uint16_t)f);
      otv_obj lso = otv_graph_pop(g);
      otv_buf_u16(sc, 0);
      otv_buf_u16(sc, 0);
      otv_graph_link(g, 0, 2, lso);
      otv_obj sco = otv_graph_pop(g);
      otv_buf_u16(sl, 1);
      otv_buf_u32(sl, TAG_DFLT);
      otv_buf_u16(sl, 0);
      otv_graph_link(g, 6, 2, sco);
      otv_graph_link(g, 4, 2, otv_graph_pop(g));
    }
    /* FeatureList: the features, empty (tags sorted) */
    for (unsigned i = 1; i < nf; i++)
      for (unsigned j = i; j > 0 && tags[j - 1] > tags[j]; j--) {
        uint32_t t = tags[j];
        tags[j] = tags[j - 1], tags[j - 1] = t;
      }
    otv_buf *fl = otv_graph_push(g);
    if (fl) {
      otv_buf_u16(fl, (uint16_t)nf);
      for (unsigned f = 0; f < nf; f++) {
        otv_buf_u32(fl, tags[f]);
        otv_buf_u16(fl, 0);
        otv_graph_link(g, 2 + 6 * (size_t)f + 4, 2, feature(g, NULL, 0));
      }
      otv_graph_link(g, 6, 2, otv_graph_pop(g));
    }
    /* LookupList */
    otv_buf *ll = otv_graph_push(g);
    if (ll) {
      otv_buf_u16(ll, (uint16_t)lc);
      otv_buf_zeros(ll, 2 * (size_t)lc);
      for (unsigned i = 0; i < lc; i++) otv_graph_link(g, 2 + 2 * (size_t)i, 2, lookups[i]);
      otv_graph_link(g, 8, 2, otv_graph_pop(g));
    }
    /* FeatureVariations */
    otv_buf *fv = otv_graph_push(g);
    if (fv) {
      otv_buf_u16(fv, 1);
      otv_buf_u16(fv, 0);
      otv_buf_u32(fv, n);
      otv_buf_zeros(fv, 8 * (size_t)n);
      for (unsigned i = 0; i < n; i++) {
        /* ConditionSet: the axes the box bounds */
        unsigned cc = 0;
        for (unsigned a = 0; a < ac; a++) cc += rec[i].lo[a] > -16384 || rec[i].hi[a] < 16384;
        otv_buf *cs = otv_graph_push(g);
        if (!cs) break;
        otv_buf_u16(cs, (uint16_t)cc);
        otv_buf_zeros(cs, 4 * (size_t)cc);
        unsigned k = 0;
        for (unsigned a = 0; a < ac; a++) {
          if (!(rec[i].lo[a] > -16384 || rec[i].hi[a] < 16384)) continue;
          otv_buf *cd = otv_graph_push(g);
          if (!cd) break;
          otv_buf_u16(cd, 1);
          otv_buf_u16(cd, (uint16_t)a);
          otv_buf_u16(cd, (uint16_t)rec[i].lo[a]);
          otv_buf_u16(cd, (uint16_t)rec[i].hi[a]);
          otv_graph_link(g, 2 + 4 * (size_t)k++, 4, otv_graph_pop(g));
        }
        otv_graph_link(g, 8 + 8 * (size_t)i, 4, otv_graph_pop(g));
        /* FeatureTableSubstitution: every feature gets the rules' lookups */
        uint16_t li[MAX_RULES];
        unsigned ln = 0;
        for (unsigned r = 0; r < ds->rule_count; r++)
          if (rec[i].rules >> r & 1) li[ln++] = lookup_of[r];
        otv_buf *ft = otv_graph_push(g);
        if (!ft) break;
        otv_buf_u16(ft, 1);
        otv_buf_u16(ft, 0);
        otv_buf_u16(ft, (uint16_t)nf);
        for (unsigned f = 0; f < nf; f++) {
          otv_buf_u16(ft, (uint16_t)f);
          otv_buf_u32(ft, 0);
          otv_graph_link(g, 6 + 6 * (size_t)f + 2, 4, feature(g, li, ln));
        }
        otv_graph_link(g, 8 + 8 * (size_t)i + 4, 4, otv_graph_pop(g));
      }
      otv_graph_link(g, 10, 4, otv_graph_pop(g));
    }
    root = otv_graph_pop(g);
  }
  if (!st && otv_graph_status(g)) st = OTV_FAIL(b->err, NOMEM, 0, 0, "GSUB");
  if (!st) {
    otv_buf *t = otv_build_table(b, OTV_T_GSUB);
    otv_status w = t ? otv_graph_write(g, root, t, NULL) : OTV_E_NOMEM;
    if (w) st = otv_fail(b->err, w, OTV_T_GSUB, 0, "GSUB FeatureVariations");
  }
  if (g) otv_graph_free(g);
  otv_mem_free(&b->al, rec, MAX_RECORDS * sizeof *rec);
  return st;
}

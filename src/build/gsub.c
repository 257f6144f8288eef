/*
 * build/gsub.c - GSUB FeatureVariations from the designspace's rules (spec: chapter2
 * "FeatureVariations table", "ConditionSet", "Condition table format 1",
 * "FeatureTableSubstitution"; GSUB lookup type 1), as fontTools' varLib builds them: each rule's
 * substitutions become one SingleSubst lookup (format 1 when every glyph moves by one delta, else
 * 2); the regions where rules overlap are worked out (every combination of one box per rule,
 * intersected), and each becomes a FeatureVariationRecord whose conditions are the box (normalized
 * design-space bounds in F2Dot14) and whose substitute feature lists the lookups of every rule
 * holding there, the records of more rules first, so the first record that holds at a location is
 * the one of all the rules holding there. The features (rule_features, default 'rvrn') are empty in
 * the FeatureList and in every LangSys. A default master's GSUB gets them added (existing_gsub);
 * one with FeatureVariations already is OTV_E_UNSUPPORTED.
 */
#include "build/master.h"
#include "build/tables.h"
#include "layout.h"

#include <string.h>

#define MAX_RULES 64u
#define MAX_RECORDS 4096u
#define MAX_WORK ((size_t)1 << 26) /* region comparisons */
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

/* The default master's glyph a rule names: by its post name, else fontTools' name of a glyph
 * without one, "glyph" and the glyph id in decimal (glyph00012; masters with post format 3) */
static bool rule_glyph(otv_builder *b, const char *name, uint32_t *gid)
{
  if (otv_bmaster_glyph_by_name(b, name, gid)) return true;
  if (strncmp(name, "glyph", 5) || !name[5]) return false;
  uint32_t g = 0;
  for (const char *q = name + 5; *q; q++) {
    if (*q < '0' || *q > '9' || g > 0xFFFFu) return false;
    g = g * 10 + (uint32_t)(*q - '0');
  }
  if (g >= b->m[b->base].glyph_count) return false;
  *gid = g;
  return true;
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
    else if (!rule_glyph(b, r->sub_names[i], &f))
      st = OTV_FAIL(b->err, BAD_VALUE, OTV_T_POST, 0,
                    "rule: no glyph '%.60s' in the default master", r->sub_names[i]);
    else if (!rule_glyph(b, r->sub_with[i], &t))
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

/* The FeatureVariations table: n records (rec), each substituting the features fidx[0..nf)
 * (increasing) by the lookups (lbase + lookup_of[r]) of the rules its box holds. */
static otv_obj fv_object(otv_graph *g, const fv_rec *rec, unsigned n, unsigned ac,
                         const otv_designspace *ds, const uint16_t *lookup_of, const uint16_t *fidx,
                         unsigned lbase, unsigned nf)
{
  otv_buf *fv = otv_graph_push(g);
  if (!fv) return OTV_OBJ_NONE;
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
      if (rec[i].rules >> r & 1) li[ln++] = (uint16_t)(lbase + lookup_of[r]);
    otv_buf *ft = otv_graph_push(g);
    if (!ft) break;
    otv_buf_u16(ft, 1);
    otv_buf_u16(ft, 0);
    otv_buf_u16(ft, (uint16_t)nf);
    for (unsigned f = 0; f < nf; f++) {
      otv_buf_u16(ft, fidx[f]);
      otv_buf_u32(ft, 0);
      otv_graph_link(g, 6 + 6 * (size_t)f + 2, 4, feature(g, li, ln));
    }
    otv_graph_link(g, 8 + 8 * (size_t)i + 4, 4, otv_graph_pop(g));
  }
  return otv_graph_pop(g);
}

/* The default master's GSUB d with the rules added: its LangSys tables list the new features
 * too (indices fc..fc+nf-1), the new empty features and the rules' lookups (indices lc0..) are
 * appended, and FeatureVariations added. Written as an intermediate table (header, the rebuilt
 * ScriptList, the new FeatureList and LookupList pointing into a copy of d, the new lookups,
 * the copy, FeatureVariations) that the layout writer writes again as a normal table. */
static otv_status existing_gsub(otv_builder *b, otv_graph *g, otv_span d, const fv_rec *rec,
                                unsigned n, const otv_obj *lookups, unsigned lc,
                                const uint16_t *lookup_of, const uint32_t *tags, unsigned nf,
                                otv_buf *out)
{
  const otv_designspace *ds = b->ds;
  otv_rd r = otv_rd_init(d, 0);
  unsigned major = otv_rd_u16(&r), minor = otv_rd_u16(&r);
  size_t sl = otv_rd_u16(&r), fl = otv_rd_u16(&r), ll = otv_rd_u16(&r);
  uint32_t fvo = minor >= 1 ? otv_rd_u32(&r) : 0;
  if (!otv_rd_ok(&r) || major != 1)
    return OTV_FAIL(b->err, TRUNCATED, OTV_T_GSUB, 0, "GSUB header");
  if (fvo)
    return OTV_FAIL(b->err, UNSUPPORTED, OTV_T_GSUB, 10,
                    "rules with FeatureVariations in the default master: not merged yet");
  otv_rd rf = otv_rd_init(d, fl), rl = otv_rd_init(d, ll);
  unsigned fc = fl ? otv_rd_u16(&rf) : 0, lc0 = ll ? otv_rd_u16(&rl) : 0;
  if (!otv_rd_ok(&rf) || !otv_rd_ok(&rl) || !otv_span_has(d, fl + 2, 6 * (size_t)fc) ||
      !otv_span_has(d, ll + 2, 2 * (size_t)lc0))
    return OTV_FAIL(b->err, TRUNCATED, OTV_T_GSUB, fl, "FeatureList or LookupList");
  if (fc + nf > 0xFFFF || lc0 + lc > 0xFFFF)
    return OTV_FAIL(b->err, LIMIT, OTV_T_GSUB, 0, "too many features or lookups");
  /* the new features go where their tags sort among the old ones (after equal tags), as the
   * spec asks of the FeatureList; old indices move up past them */
  uint16_t nidx[4];
  unsigned before[4];
  for (unsigned f = 0; f < nf; f++) {
    unsigned k = 0;
    while (k < fc && otv_peek_u32(d.p + fl + 2 + 6 * (size_t)k) <= tags[f]) k++;
    before[f] = k; /* old features before it */
    nidx[f] = (uint16_t)(k + f);
  }
#define OLD_TO_NEW(i)                                                                              \
  ((i) + (unsigned)((nf > 0 && before[0] <= (i)) + (nf > 1 && before[1] <= (i)) +                  \
                    (nf > 2 && before[2] <= (i)) + (nf > 3 && before[3] <= (i))))
  /* the ScriptList again, each LangSys listing the new features */
  otv_obj slo = OTV_OBJ_NONE;
  if (sl) {
    otv_rd rs = otv_rd_init(d, sl);
    unsigned sc = otv_rd_u16(&rs);
    if (!otv_rd_ok(&rs) || !otv_span_has(d, sl + 2, 6 * (size_t)sc))
      return OTV_FAIL(b->err, TRUNCATED, OTV_T_GSUB, sl, "ScriptList");
    otv_buf *o = otv_graph_push(g);
    if (!o) return OTV_FAIL(b->err, NOMEM, 0, 0, "GSUB");
    otv_buf_u16(o, (uint16_t)sc);
    otv_buf_bytes(o, d.p + sl + 2, 6 * (size_t)sc); /* in range: checked above */
    for (unsigned i = 0; i < sc; i++) {
      size_t sa = sl + otv_peek_u16(d.p + sl + 2 + 6 * (size_t)i + 4);
      otv_rd rsc = otv_rd_init(d, sa);
      unsigned dls = otv_rd_u16(&rsc), lsc = otv_rd_u16(&rsc);
      if (!otv_rd_ok(&rsc) || !otv_span_has(d, sa + 4, 6 * (size_t)lsc))
        return OTV_FAIL(b->err, TRUNCATED, OTV_T_GSUB, sa, "Script");
      otv_buf *so = otv_graph_push(g);
      if (!so) return OTV_FAIL(b->err, NOMEM, 0, 0, "GSUB");
      otv_buf_u16(so, 0);
      otv_buf_u16(so, (uint16_t)lsc);
      otv_buf_bytes(so, d.p + sa + 4, 6 * (size_t)lsc);
      for (unsigned k = 0; k <= lsc; k++) {
        size_t field = k == 0 ? 0 : 4 + 6 * (size_t)(k - 1) + 4;
        unsigned off = k == 0 ? dls : otv_peek_u16(d.p + sa + field);
        if (!off) continue;
        size_t la = sa + off;
        otv_rd rls = otv_rd_init(d, la);
        unsigned lo = otv_rd_u16(&rls), req = otv_rd_u16(&rls), cnt = otv_rd_u16(&rls);
        if (!otv_rd_ok(&rls) || !otv_span_has(d, la + 6, 2 * (size_t)cnt))
          return OTV_FAIL(b->err, TRUNCATED, OTV_T_GSUB, la, "LangSys");
        otv_buf *lo_b = otv_graph_push(g);
        if (!lo_b) return OTV_FAIL(b->err, NOMEM, 0, 0, "GSUB");
        otv_buf_u16(lo_b, (uint16_t)lo);
        otv_buf_u16(lo_b, (uint16_t)(req < fc ? OLD_TO_NEW(req) : req));
        otv_buf_u16(lo_b, (uint16_t)(cnt + nf));
        for (unsigned q = 0; q < cnt; q++) {
          unsigned fi = otv_peek_u16(d.p + la + 6 + 2 * (size_t)q);
          otv_buf_u16(lo_b, (uint16_t)(fi < fc ? OLD_TO_NEW(fi) : fi));
        }
        for (unsigned f = 0; f < nf; f++) otv_buf_u16(lo_b, nidx[f]);
        otv_graph_link(g, field, 2, otv_graph_pop(g));
      }
      otv_graph_link(g, 2 + 6 * (size_t)i + 4, 2, otv_graph_pop(g));
    }
    slo = otv_graph_pop(g);
  }
  otv_obj fvo2 = fv_object(g, rec, n, b->ac, ds, lookup_of, nidx, lc0, nf);
  if (otv_graph_status(g)) return OTV_FAIL(b->err, NOMEM, 0, 0, "GSUB");
  otv_buf slb, lkb, fvb, mid;
  otv_buf_init(&slb, &b->al);
  otv_buf_init(&lkb, &b->al);
  otv_buf_init(&fvb, &b->al);
  otv_buf_init(&mid, &b->al);
  size_t lkat[MAX_RULES];
  otv_status st = slo ? otv_graph_write(g, slo, &slb, NULL) : OTV_E_OK;
  for (unsigned i = 0; !st && i < lc; i++) {
    lkat[i] = lkb.len;
    st = otv_graph_write(g, lookups[i], &lkb, NULL);
  }
  if (!st) st = otv_graph_write(g, fvo2, &fvb, NULL);
  if (st) st = otv_fail(b->err, st, OTV_T_GSUB, 0, "GSUB rules");
  size_t p_sl = 14, p_fl = p_sl + slb.len, p_ll = p_fl + 2 + 6 * ((size_t)fc + nf) + 4 * (size_t)nf;
  size_t p_nl = p_ll + 2 + 2 * ((size_t)lc0 + lc), copy = p_nl + lkb.len, p_fv = copy + d.len;
  bool fits = p_ll <= 0xFFFF && (!sl || p_sl <= 0xFFFF);
  for (unsigned f = 0; fits && f < fc; f++)
    fits = copy + fl + otv_peek_u16(d.p + fl + 2 + 6 * (size_t)f + 4) - p_fl <= 0xFFFF;
  for (unsigned i = 0; fits && i < lc0; i++)
    fits = copy + ll + otv_peek_u16(d.p + ll + 2 + 2 * (size_t)i) - p_ll <= 0xFFFF;
  for (unsigned i = 0; fits && i < lc; i++) fits = p_nl + lkat[i] - p_ll <= 0xFFFF;
  if (!st && !fits)
    st = OTV_FAIL(b->err, LIMIT, OTV_T_GSUB, 0, "GSUB too large to add the rules to (not yet)");
  if (!st) {
    otv_buf_u16(&mid, 1);
    otv_buf_u16(&mid, 1);
    otv_buf_u16(&mid, (uint16_t)(sl ? p_sl : 0));
    otv_buf_u16(&mid, (uint16_t)p_fl);
    otv_buf_u16(&mid, (uint16_t)p_ll);
    otv_buf_u32(&mid, (uint32_t)p_fv);
    otv_buf_bytes(&mid, slb.p, slb.len);
    otv_buf_u16(&mid, (uint16_t)(fc + nf));
    for (unsigned k = 0, f = 0; k <= fc; k++) {
      for (; f < nf && before[f] == k; f++) { /* the new features sorted before old k */
        otv_buf_u32(&mid, tags[f]);
        otv_buf_u16(&mid, (uint16_t)(2 + 6 * ((size_t)fc + nf) + 4 * (size_t)f));
      }
      if (k == fc) break;
      const uint8_t *q = d.p + fl + 2 + 6 * (size_t)k;
      otv_buf_bytes(&mid, q, 4);
      otv_buf_u16(&mid, (uint16_t)(copy + fl + otv_peek_u16(q + 4) - p_fl));
    }
    otv_buf_zeros(&mid, 4 * (size_t)nf); /* the new features: no params, no lookups */
    otv_buf_u16(&mid, (uint16_t)(lc0 + lc));
    for (unsigned i = 0; i < lc0; i++)
      otv_buf_u16(&mid, (uint16_t)(copy + ll + otv_peek_u16(d.p + ll + 2 + 2 * (size_t)i) - p_ll));
    for (unsigned i = 0; i < lc; i++) otv_buf_u16(&mid, (uint16_t)(p_nl + lkat[i] - p_ll));
    otv_buf_bytes(&mid, lkb.p, lkb.len);
    otv_buf_bytes(&mid, d.p, d.len);
    otv_buf_bytes(&mid, fvb.p, fvb.len);
    if (mid.failed || mid.len > UINT32_MAX) st = OTV_FAIL(b->err, NOMEM, 0, 0, "GSUB");
  }
  if (!st) st = otv_layout_write(&b->al, OTV_T_GSUB, (otv_span){mid.p, mid.len}, NULL, out, b->err);
  otv_buf_free(&slb);
  otv_buf_free(&lkb);
  otv_buf_free(&fvb);
  otv_buf_free(&mid);
  return st;
}
#undef OLD_TO_NEW

otv_status otv_build_gsub(otv_builder *b, const int16_t *lo, const int16_t *hi,
                          const unsigned *box_rule, unsigned box_count)
{
  const otv_designspace *ds = b->ds;
  if (!ds->rule_count) return OTV_E_OK;
  unsigned ac = b->ac;
  otv_span dg = otv_sfnt_find(&b->m[b->base].sfnt, OTV_T_GSUB);
  if (ds->rule_count > MAX_RULES)
    return OTV_FAIL(b->err, LIMIT, OTV_T_GSUB, 0, "over %u rules", MAX_RULES);
  unsigned nf = ds->rule_feature_count ? ds->rule_feature_count : 1;
  uint32_t tags[4] = {OTV_TAG('r', 'v', 'r', 'n')};
  for (unsigned i = 0; i < ds->rule_feature_count && i < 4; i++) tags[i] = ds->rule_features[i];
  if (nf > 4) nf = 4;
  /* the records: every combination of boxes of distinct rules, intersected */
  /* not zeroed: only the n records written are read (zeroing the 1 MiB touched its pages) */
  fv_rec *rec = otv_mem_alloc(&b->al, MAX_RECORDS * sizeof *rec);
  if (!rec) return OTV_FAIL(b->err, NOMEM, 0, 0, "GSUB");
  unsigned n = 0;
  size_t work = 0;
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
      if ((work += n + 1) > MAX_WORK) {
        st = OTV_FAIL(b->err, LIMIT, OTV_T_GSUB, 0, "rules: too many overlapping regions");
        break;
      }
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
  for (unsigned i = 1; i < nf; i++) /* the new features' tags, sorted */
    for (unsigned j = i; j > 0 && tags[j - 1] > tags[j]; j--) {
      uint32_t t = tags[j];
      tags[j] = tags[j - 1], tags[j - 1] = t;
    }
  if (!st && dg.len) {
    otv_buf *t = otv_build_table(b, OTV_T_GSUB);
    st = t ? existing_gsub(b, g, dg, rec, n, lookups, lc, lookup_of, tags, nf, t) : OTV_E_NOMEM;
    if (g) otv_graph_free(g);
    otv_mem_free(&b->al, rec, MAX_RECORDS * sizeof *rec);
    return st;
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
    /* FeatureList: the features, empty (tags sorted above) */
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
    static const uint16_t first[4] = {0, 1, 2, 3};
    otv_graph_link(g, 10, 4, fv_object(g, rec, n, ac, ds, lookup_of, first, 0, nf));
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

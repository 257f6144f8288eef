/*
 * layout_fv.c - FeatureVariations for the layout writer (layout_walk.h): which records an
 * instance keeps or applies, the tables written for the kept ones, and the pruning of lookups
 * and features nothing reaches afterwards. Spec: chapter2 ("FeatureVariations table").
 */
#include "layout_fv.h"

/* ---- FeatureVariations (spec: chapter2) ---- */

/* spec: FeatureTableSubstitution (version, substitutionCount, {featureIndex, Offset32
 * alternateFeatureOffset}), Offset32s from the FeatureTableSubstitution. */
otv_obj otv_lw_feature_subst(otv_lw *w, size_t at)
{
  if (!otv_lw_need(w, at, 6, K_FEATURE_SUBST)) return OTV_OBJ_NONE;
  size_t n = u16(w, at + 4);
  if (!otv_lw_need_array(w, at + 6, n, 6, K_FEATURE_SUBST)) return OTV_OBJ_NONE;
  otv_buf *b = otv_lw_open(w);
  if (!b) return OTV_OBJ_NONE;
  copy(w, b, at, 4);
  size_t count_at = b->len, kept = 0;
  otv_buf_u16(b, 0);
  for (size_t i = 0; i < n && !w->st; i++) {
    size_t rec = at + 6 + 6 * i;
    unsigned index = u16(w, rec), f = feature_index(w, index);
    if (f == PRUNED) continue;
    otv_buf_u16(b, (uint16_t)f);
    otv_lw_off32(w, b, otv_lw_child(w, at, u32(w, rec + 2), K_FEATURE, feature_tag(w, index)));
    kept++;
  }
  if (!b->failed) otv_buf_put_u16(b, count_at, (uint16_t)kept);
  return otv_lw_close(w, b);
}

/* What a ConditionSet is at the instance: -1 never holds, 1 always holds, 0 depends on the
 * kept axes. */
static int condition_set_state(otv_lw *w, size_t set)
{
  if (!otv_lw_need(w, set, 2, K_CONDITION_SET)) return -1;
  size_t n = u16(w, set);
  if (!otv_lw_need_array(w, set + 2, n, 4, K_CONDITION_SET)) return -1;
  int state = 1;
  for (size_t k = 0; k < n && !w->st; k++) {
    uint32_t off = u32(w, set + 2 + 4 * k);
    if (!off || off >= w->t.len - set) return otv_lw_need(w, w->t.len, 1, K_CONDITION_SET), -1;
    size_t c = set + off;
    if (!otv_lw_need(w, c, 2, K_CONDITION_SET)) return -1;
    /* spec: a condition of a format the client does not know never holds */
    if (u16(w, c) != CONDITION_FORMAT_AXIS_RANGE || !otv_lw_need(w, c, 8, K_CONDITION_SET))
      return -1;
    if (!w->xf->condition) {
      state = 0;
      continue;
    }
    int lo = (int16_t)u16(w, c + 4), hi = (int16_t)u16(w, c + 6);
    int r = w->xf->condition(w->xf->ud, u16(w, c + 2), &lo, &hi);
    if (r == OTV_LAYOUT_COND_FALSE) return -1;
    if (r != OTV_LAYOUT_COND_TRUE) state = 0;
  }
  return state;
}

/* A ConditionSet with the conditions that still depend on the instance (axes renumbered). */
static otv_obj condition_set(otv_lw *w, size_t set)
{
  size_t n = u16(w, set); /* in range: condition_set_state checked the set and its conditions */
  otv_buf *b = otv_lw_open(w);
  if (!b) return OTV_OBJ_NONE;
  size_t count_at = b->len, kept = 0;
  otv_buf_u16(b, 0);
  for (size_t k = 0; k < n && !w->st; k++) {
    size_t c = set + u32(w, set + 2 + 4 * k);
    unsigned axis = u16(w, c + 2);
    int lo = (int16_t)u16(w, c + 4), hi = (int16_t)u16(w, c + 6);
    int r = w->xf->condition ? w->xf->condition(w->xf->ud, axis, &lo, &hi) : (int)axis;
    if (r < 0) continue; /* always holds (a failing one dropped the whole record) */
    otv_buf *cb = otv_lw_open(w);
    if (cb) {
      otv_buf_u16(cb, CONDITION_FORMAT_AXIS_RANGE);
      otv_buf_u16(cb, (uint16_t)r);
      otv_buf_u16(cb, (uint16_t)(int16_t)lo);
      otv_buf_u16(cb, (uint16_t)(int16_t)hi);
    }
    otv_lw_off32(w, b, otv_lw_close(w, cb));
    kept++;
  }
  if (!b->failed) otv_buf_put_u16(b, count_at, (uint16_t)kept);
  return otv_lw_close(w, b);
}

/* Which FeatureVariationRecords of the FeatureVariations at `fv` can still match: kept
 * (w->fv_keep), up to the first that always matches. That one, when it is the first left, is
 * applied to the FeatureList (w->subst) instead. */
void otv_lw_fv_plan(otv_lw *w, size_t fv)
{
  if (!otv_lw_need(w, fv, 8, K_FEATURE_SUBST)) return;
  uint32_t n = u32(w, fv + 4);
  if (!otv_lw_need_array(w, fv + 8, n, 8, K_FEATURE_SUBST)) return;
  w->fv_keep = otv_mem_calloc(w->al, (size_t)n + 1, sizeof *w->fv_keep);
  if (!w->fv_keep) {
    otv_lw_fail(w, OTV_E_NOMEM, fv, "FeatureVariations records");
    return;
  }
  w->fv_count = n;
  for (uint32_t i = 0; i < n && !w->st; i++) {
    size_t rec = fv + 8 + 8 * (size_t)i;
    uint32_t cs = u32(w, rec), ts = u32(w, rec + 4);
    if (cs && cs >= w->t.len - fv) {
      otv_lw_need(w, w->t.len, 1, K_CONDITION_SET);
      return;
    }
    if (ts && ts >= w->t.len - fv) {
      otv_lw_need(w, w->t.len, 1, K_FEATURE_SUBST);
      return;
    }
    /* spec: a record without a ConditionSet matches everywhere */
    int state = cs ? condition_set_state(w, fv + cs) : 1;
    if (state < 0) continue;
    if (state > 0 && w->fv_kept == 0) {
      /* applied: each substitution replaces its feature in the FeatureList */
      size_t at = fv + ts;
      if (!ts || !otv_lw_need(w, at, 6, K_FEATURE_SUBST)) return;
      size_t sn = u16(w, at + 4);
      if (!otv_lw_need_array(w, at + 6, sn, 6, K_FEATURE_SUBST)) return;
      for (size_t k = 0; k < sn; k++) {
        unsigned index = u16(w, at + 6 + 6 * k);
        uint32_t off = u32(w, at + 8 + 6 * k);
        if (!off || index >= w->feature_count) continue;
        if (off >= w->t.len - at) {
          otv_lw_need(w, w->t.len, 1, K_FEATURE);
          return;
        }
        w->subst[index] = at + off;
      }
      return;
    }
    w->fv_keep[w->fv_kept++] = i;
    if (state > 0) return; /* records after one that always matches are never reached */
  }
}

/* The FeatureVariations with the records fv_plan kept (OTV_OBJ_NONE: none). */
otv_obj otv_lw_feature_variations(otv_lw *w, size_t fv)
{
  if (!w->fv_kept || w->st) return OTV_OBJ_NONE;
  otv_buf *b = otv_lw_open(w);
  if (!b) return OTV_OBJ_NONE;
  otv_buf_u32(b, 0x00010000u);
  otv_buf_u32(b, w->fv_kept);
  for (uint32_t k = 0; k < w->fv_kept && !w->st; k++) {
    size_t rec = fv + 8 + 8 * (size_t)w->fv_keep[k]; /* in range: fv_plan */
    uint32_t cs = u32(w, rec), ts = u32(w, rec + 4);
    otv_buf_u32(b, 0); /* the ConditionSet, linked below */
    size_t pos = b->len - 4;
    otv_obj set = cs ? condition_set(w, fv + cs) : OTV_OBJ_NONE;
    if (set && !b->failed) otv_graph_link(w->g, pos, 4, set);
    otv_lw_off32(w, b, otv_lw_child(w, fv, ts, K_FEATURE_SUBST, 0));
  }
  return otv_lw_close(w, b);
}

/* ---- pruning, where FeatureVariations were resolved (as fontTools' instancer does after
 * them): lookups no feature a LangSys uses can reach (directly, through a kept
 * FeatureVariationRecord, or through a contextual lookup's SequenceLookupRecords) are removed,
 * then features left without lookups (but 'size', which holds its FeatureParams); indices are
 * renumbered everywhere. ---- */
typedef struct reach {
  uint8_t *seen;   /* per lookup */
  uint16_t *stack; /* lookups whose sub-tables are still to be scanned */
  size_t top;
  /* the Feature, Lookup and contextual sub-tables already scanned (offset * 4 + what, + 1; 0:
   * empty): tables shared by many indices are read once, so the work stays linear */
  size_t *done;
  size_t done_cap, done_n;
} reach;

/* True the first time (at, what) is met. */
static bool reach_first(otv_lw *w, reach *r, size_t at, unsigned what)
{
  size_t key = at * 4 + what + 1;
  if (2 * (r->done_n + 1) > r->done_cap) {
    size_t cap = r->done_cap ? 2 * r->done_cap : 256, *old = r->done, old_cap = r->done_cap;
    size_t *v = otv_mem_calloc(w->al, cap, sizeof *v);
    if (!v) return otv_lw_fail(w, OTV_E_NOMEM, at, "lookup pruning"), false;
    for (size_t i = 0; i < old_cap; i++) {
      if (!old[i]) continue;
      size_t h = (old[i] * 0x9E3779B97F4A7C15u) >> 7 & (cap - 1);
      while (v[h]) h = (h + 1) & (cap - 1);
      v[h] = old[i];
    }
    if (old) otv_mem_free(w->al, old, old_cap * sizeof *old);
    r->done = v, r->done_cap = cap;
  }
  size_t h = (key * 0x9E3779B97F4A7C15u) >> 7 & (r->done_cap - 1);
  for (; r->done[h]; h = (h + 1) & (r->done_cap - 1))
    if (r->done[h] == key) return false;
  r->done[h] = key, r->done_n++;
  return true;
}

static void reach_lookup(otv_lw *w, reach *r, unsigned i)
{
  if (i < w->lookup_count && !r->seen[i]) r->seen[i] = 1, r->stack[r->top++] = (uint16_t)i;
}

/* The lookups of the Feature at `at`. */
static void reach_feature(otv_lw *w, reach *r, size_t at)
{
  if (!reach_first(w, r, at, 0) || !otv_lw_need(w, at, 4, K_FEATURE)) return;
  size_t n = u16(w, at + 2);
  if (!otv_lw_need_array(w, at + 4, n, 2, K_FEATURE)) return;
  w->work += 2 * n;
  for (size_t k = 0; k < n; k++) reach_lookup(w, r, u16(w, at + 4 + 2 * k));
}

static void reach_records(otv_lw *w, reach *r, size_t at, size_t n)
{
  if (!otv_lw_need_array(w, at, n, 4, K_RULE)) return;
  w->work += 4 * n;
  for (size_t k = 0; k < n; k++) reach_lookup(w, r, u16(w, at + 4 * k + 2));
}

/* The lookups the SequenceLookupRecords of a contextual sub-table at `at` call. */
static void reach_context(otv_lw *w, reach *r, size_t at, bool chain)
{
  if (!reach_first(w, r, at, 2) || !otv_lw_need(w, at, 6, K_SUBTABLE)) return;
  unsigned fmt = u16(w, at);
  if (fmt == 3 && !chain) {
    reach_records(w, r, at + 6 + 2 * (size_t)u16(w, at + 2), u16(w, at + 4));
    return;
  }
  if (fmt == 3) {
    size_t pos = at + 2;
    for (unsigned k = 0; k < 3 && otv_lw_need(w, pos, 2, K_SUBTABLE); k++)
      pos += 2 + 2 * (size_t)u16(w, pos);
    if (otv_lw_need(w, pos, 2, K_SUBTABLE)) reach_records(w, r, pos + 2, u16(w, pos));
    return;
  }
  if (fmt != 1 && fmt != 2) return;
  size_t head = 4 + 2 * (fmt == 1 ? 0 : chain ? 3 : 1);
  if (!otv_lw_need(w, at, head + 2, K_SUBTABLE)) return;
  size_t n = u16(w, at + head);
  if (!otv_lw_need_array(w, at + head + 2, n, 2, K_SUBTABLE)) return;
  for (size_t i = 0; i < n && !w->st; i++) {
    size_t off = u16(w, at + head + 2 + 2 * i);
    if (!off) continue;
    if (off >= w->t.len - at) {
      otv_lw_need(w, w->t.len, 1, K_RULE_SET);
      return;
    }
    size_t set = at + off;
    if (!otv_lw_need(w, set, 2, K_RULE_SET)) return;
    size_t rn = u16(w, set);
    if (!otv_lw_need_array(w, set + 2, rn, 2, K_RULE_SET)) return;
    w->work += 2 * rn;
    if (w->work > w->budget) {
      otv_lw_fail(w, OTV_E_LIMIT, set, "layout work budget exceeded");
      return;
    }
    for (size_t k = 0; k < rn && !w->st; k++) {
      size_t ro = u16(w, set + 2 + 2 * k);
      if (!ro) continue;
      if (ro >= w->t.len - set) {
        otv_lw_need(w, w->t.len, 1, K_RULE);
        return;
      }
      size_t pos = set + ro;
      if (!chain) {
        if (otv_lw_need(w, pos, 4, K_RULE))
          reach_records(w, r, pos + 4 + 2 * (u16(w, pos) ? (size_t)u16(w, pos) - 1 : 0),
                        u16(w, pos + 2));
        continue;
      }
      for (unsigned part = 0; part < 3 && otv_lw_need(w, pos, 2, K_CHAIN_RULE); part++) {
        size_t c = u16(w, pos);
        pos += 2 + 2 * (part == 1 && c ? c - 1 : c);
      }
      if (otv_lw_need(w, pos, 2, K_CHAIN_RULE)) reach_records(w, r, pos + 2, u16(w, pos));
    }
  }
}

static bool is_context(const otv_lw *w, unsigned type, bool *chain)
{
  *chain = type == (is_gsub(w) ? GSUB_CHAIN_CONTEXT : GPOS_CHAIN_CONTEXT);
  return *chain || type == (is_gsub(w) ? GSUB_CONTEXT : GPOS_CONTEXT);
}

/* Lookup i's contextual sub-tables (through Extension ones too). */
static void reach_from_lookup(otv_lw *w, reach *r, unsigned i)
{
  size_t ll = w->lookup_list, off = u16(w, ll + 2 + 2 * (size_t)i); /* in range: prune_plan */
  if (!off) return;
  if (off >= w->t.len - ll) {
    otv_lw_need(w, w->t.len, 1, K_LOOKUP);
    return;
  }
  size_t lk = ll + off;
  if (!reach_first(w, r, lk, 1) || !otv_lw_need(w, lk, 6, K_LOOKUP)) return;
  unsigned type = u16(w, lk);
  size_t n = u16(w, lk + 4);
  if (!otv_lw_need_array(w, lk + 6, n, 2, K_LOOKUP)) return;
  for (size_t k = 0; k < n && !w->st; k++) {
    size_t so = u16(w, lk + 6 + 2 * k), st;
    unsigned t = type;
    bool chain;
    if (!so) continue;
    if (so >= w->t.len - lk) {
      otv_lw_need(w, w->t.len, 1, K_SUBTABLE);
      return;
    }
    st = lk + so;
    if (type == extension_type(w)) {
      if (!otv_lw_need(w, st, 8, K_EXTENSION)) return;
      t = u16(w, st + 2);
      uint32_t eo = u32(w, st + 4);
      if (!eo) continue;
      if (eo >= w->t.len - st) {
        otv_lw_need(w, w->t.len, 1, K_SUBTABLE);
        return;
      }
      st += eo;
    }
    if (is_context(w, t, &chain)) reach_context(w, r, st, chain);
  }
}

/* The Feature that feature i is at the instance (absolute offset; 0: none). */
static size_t feature_at(const otv_lw *w, unsigned i)
{
  if (w->subst && w->subst[i]) return w->subst[i];
  size_t off = u16(w, w->feature_list + 2 + 6 * (size_t)i + 4); /* in range: gsub_gpos */
  return off && off < w->t.len - w->feature_list ? w->feature_list + off : 0;
}

/* Whether the Feature at `at` keeps a lookup once pruned (or is 'size' with its parameters). */
static bool feature_kept(const otv_lw *w, size_t at, uint32_t tag)
{
  if (!at || !otv_span_has(w->t, at, 4)) return false;
  if (tag == OTV_TAG('s', 'i', 'z', 'e') && u16(w, at)) return true;
  size_t n = u16(w, at + 2);
  for (size_t k = 0; k < n && otv_span_has(w->t, at + 4 + 2 * k, 2); k++) {
    unsigned i = u16(w, at + 4 + 2 * k);
    if (i < w->lookup_count && w->lmap[i] != PRUNED) return true;
  }
  return false;
}

/* The features every LangSys uses (required ones too). */
static void used_features(otv_lw *w, size_t sl, uint8_t *used)
{
  if (!sl || !otv_lw_need(w, sl, 2, K_SCRIPT_LIST)) return;
  size_t ns = u16(w, sl);
  if (!otv_lw_need_array(w, sl + 2, ns, 6, K_SCRIPT_LIST)) return;
  for (size_t i = 0; i < ns && !w->st; i++) {
    size_t so = u16(w, sl + 2 + 6 * i + 4);
    if (!so) continue;
    if (so >= w->t.len - sl) {
      otv_lw_need(w, w->t.len, 1, K_SCRIPT);
      return;
    }
    size_t sc = sl + so;
    if (!otv_lw_need(w, sc, 4, K_SCRIPT)) return;
    size_t nl = u16(w, sc + 2);
    if (!otv_lw_need_array(w, sc + 4, nl, 6, K_SCRIPT)) return;
    for (size_t k = 0; k <= nl && !w->st; k++) {
      size_t lo = k == 0 ? u16(w, sc) : u16(w, sc + 4 + 6 * (k - 1) + 4);
      if (!lo) continue;
      if (lo >= w->t.len - sc) {
        otv_lw_need(w, w->t.len, 1, K_LANGSYS);
        return;
      }
      size_t ls = sc + lo;
      if (!otv_lw_need(w, ls, 6, K_LANGSYS)) return;
      size_t nf = u16(w, ls + 4);
      if (!otv_lw_need_array(w, ls + 6, nf, 2, K_LANGSYS)) return;
      w->work += 2 * nf + 6;
      if (w->work > w->budget) {
        otv_lw_fail(w, OTV_E_LIMIT, ls, "layout work budget exceeded");
        return;
      }
      unsigned req = u16(w, ls + 2);
      if (req < w->feature_count) used[req] = 1;
      for (size_t f = 0; f < nf; f++)
        if (u16(w, ls + 6 + 2 * f) < w->feature_count) used[u16(w, ls + 6 + 2 * f)] = 1;
    }
  }
}

/* Feature i's identity for merging: its Feature (absolute; 0: none or not mergeable). */
static size_t mergeable(const otv_lw *w, unsigned i)
{
  size_t at = feature_at(w, i);
  if (!at || !otv_span_has(w->t, at, 4) || u16(w, at)) return 0; /* FeatureParams: kept apart */
  size_t n = u16(w, at + 2);
  return otv_span_has(w->t, at + 4, 2 * n) ? at : 0;
}

static uint64_t feature_hash(const otv_lw *w, unsigned i, size_t at)
{
  uint64_t h = 0xcbf29ce484222325u ^ feature_tag(w, i);
  size_t n = u16(w, at + 2);
  for (size_t k = 0; k < n; k++) h = (h ^ lookup_index(w, u16(w, at + 4 + 2 * k))) * 0x100000001b3u;
  return h;
}

/* Features a and b (mergeable) have the same tag and the same lookups once renumbered. */
static bool same_feature(otv_lw *w, unsigned a, size_t fa, unsigned b, size_t fb)
{
  if (feature_tag(w, a) != feature_tag(w, b)) return false;
  if (fa == fb) return true; /* one Feature table */
  w->work += 2 * (size_t)u16(w, fa + 2);
  size_t na = u16(w, fa + 2), nb = u16(w, fb + 2), ka = 0, kb = 0;
  for (;;) {
    while (ka < na && lookup_index(w, u16(w, fa + 4 + 2 * ka)) == PRUNED) ka++;
    while (kb < nb && lookup_index(w, u16(w, fb + 4 + 2 * kb)) == PRUNED) kb++;
    if (ka == na || kb == nb) return ka == na && kb == nb;
    if (lookup_index(w, u16(w, fa + 4 + 2 * ka)) != lookup_index(w, u16(w, fb + 4 + 2 * kb)))
      return false;
    ka++, kb++;
  }
}

/* Features that only differ by their index (same tag, same lookups, no FeatureParams) become
 * one: no LangSys can tell them apart. Not while FeatureVariations are kept (their
 * substitutions name feature indices). w->fmap renumbered: a duplicate takes the index of the
 * first of its kind, and the others close up. */
static void merge_duplicate_features(otv_lw *w)
{
  size_t cap = 1;
  while (cap < 2 * (size_t)w->feature_count) cap <<= 1;
  uint16_t *slot = otv_mem_alloc(w->al, cap * sizeof *slot); /* feature + 1; 0: empty */
  if (!slot) {
    otv_lw_fail(w, OTV_E_NOMEM, 0, "feature merging");
    return;
  }
  memset(slot, 0, cap * sizeof *slot);
  unsigned next = 0;
  for (unsigned i = 0; i < w->feature_count; i++) {
    if (w->fmap[i] == PRUNED) continue;
    size_t at = mergeable(w, i);
    unsigned first = i;
    if (at) {
      w->work += 2 * (size_t)u16(w, at + 2);
      if (w->work > w->budget) {
        otv_lw_fail(w, OTV_E_LIMIT, at, "layout work budget exceeded");
        break;
      }
      size_t h = (size_t)feature_hash(w, i, at) & (cap - 1);
      for (; slot[h]; h = (h + 1) & (cap - 1)) {
        unsigned j = slot[h] - 1u;
        if (same_feature(w, j, mergeable(w, j), i, at)) {
          first = j;
          break;
        }
      }
      if (first == i) slot[h] = (uint16_t)(i + 1);
    }
    w->fmap[i] = first == i ? (uint16_t)next++ : w->fmap[first];
  }
  otv_mem_free(w->al, slot, cap * sizeof *slot);
}

/* The FeatureTableSubstitution of kept record k (absolute, its records checked) and *count of
 * its substitutions; 0 and 0 when it has none. */
static size_t kept_substitution(otv_lw *w, size_t fv, uint32_t k, size_t *count)
{
  *count = 0;
  uint32_t ts = u32(w, fv + 8 + 8 * (size_t)w->fv_keep[k] + 4); /* in range: fv_plan */
  if (!ts || !otv_lw_need(w, fv + ts, 6, K_FEATURE_SUBST)) return 0;
  size_t at = fv + ts, n = u16(w, at + 4);
  if (!otv_lw_need_array(w, at + 6, n, 6, K_FEATURE_SUBST)) return 0;
  *count = n;
  return at;
}

/* Substitution q of the FeatureTableSubstitution at `at`: its Feature (absolute) and the index
 * of the feature it replaces; 0 for a NULL or out-of-range offset or index. */
static size_t substitute(const otv_lw *w, size_t at, size_t q, unsigned *index)
{
  *index = u16(w, at + 6 + 6 * q);
  uint32_t off = u32(w, at + 8 + 6 * q);
  return *index < w->feature_count && off && off < w->t.len - at ? at + off : 0;
}

/* w->lmap and w->fmap for a GSUB/GPOS whose FeatureVariations fv_plan resolved. */
void otv_lw_prune_plan(otv_lw *w, size_t sl, size_t ll, size_t fv)
{
  if (!ll || !otv_lw_need(w, ll, 2, K_LOOKUP_LIST)) return;
  w->lookup_list = ll;
  w->lookup_count = u16(w, ll);
  if (!otv_lw_need_array(w, ll + 2, w->lookup_count, 2, K_LOOKUP_LIST)) return;
  size_t nl = (size_t)w->lookup_count + 1, nf = (size_t)w->feature_count + 1;
  reach r = {
      otv_mem_calloc(w->al, nl, 1), otv_mem_calloc(w->al, nl, sizeof *r.stack), 0, NULL, 0, 0};
  uint8_t *used = otv_mem_calloc(w->al, nf, 1);
  w->lmap = otv_mem_calloc(w->al, nl, sizeof *w->lmap);
  w->fmap = otv_mem_calloc(w->al, nf, sizeof *w->fmap);
  w->fseen = otv_mem_calloc(w->al, nf / 8 + 1, 1);
  if (!r.seen || !r.stack || !used || !w->lmap || !w->fmap || !w->fseen) {
    otv_lw_fail(w, OTV_E_NOMEM, 0, "lookup pruning");
  } else {
    used_features(w, sl, used);
    for (unsigned i = 0; i < w->feature_count && !w->st; i++)
      if (used[i] && feature_at(w, i)) reach_feature(w, &r, feature_at(w, i));
    /* the kept records' substitutes of the features used */
    for (uint32_t k = 0; k < w->fv_kept && !w->st; k++) {
      size_t sn, at = kept_substitution(w, fv, k, &sn);
      for (size_t q = 0; q < sn && !w->st; q++) {
        unsigned index;
        size_t f = substitute(w, at, q, &index);
        if (f && used[index]) reach_feature(w, &r, f);
      }
    }
    while (r.top && !w->st) reach_from_lookup(w, &r, r.stack[--r.top]);
    unsigned next = 0;
    for (unsigned i = 0; i < w->lookup_count; i++)
      w->lmap[i] = r.seen[i] ? (uint16_t)next++ : PRUNED;
    /* features: kept when their table at the instance, or a kept substitute, has a lookup */
    memset(used, 0, nf);
    for (unsigned i = 0; i < w->feature_count; i++)
      used[i] = feature_kept(w, feature_at(w, i), u32(w, w->feature_list + 2 + 6 * (size_t)i));
    for (uint32_t k = 0; k < w->fv_kept && !w->st; k++) {
      size_t sn, at = kept_substitution(w, fv, k, &sn);
      for (size_t q = 0; q < sn; q++) {
        unsigned index;
        size_t f = substitute(w, at, q, &index);
        if (f && feature_kept(w, f, feature_tag(w, index))) used[index] = 1;
      }
    }
    next = 0;
    for (unsigned i = 0; i < w->feature_count; i++)
      w->fmap[i] = used[i] ? (uint16_t)next++ : PRUNED;
    if (!w->fv_kept) merge_duplicate_features(w);
  }
  if (r.seen) otv_mem_free(w->al, r.seen, nl);
  if (r.stack) otv_mem_free(w->al, r.stack, nl * sizeof *r.stack);
  if (r.done) otv_mem_free(w->al, r.done, r.done_cap * sizeof *r.done);
  if (used) otv_mem_free(w->al, used, nf);
}

/* spec: LangSys (lookupOrderOffset, requiredFeatureIndex, featureIndexCount, indices). */
otv_obj otv_lw_langsys(otv_lw *w, size_t at)
{
  if (!otv_lw_need(w, at, 6, K_LANGSYS)) return OTV_OBJ_NONE;
  size_t n = u16(w, at + 4);
  if (!otv_lw_need_array(w, at + 6, n, 2, K_LANGSYS)) return OTV_OBJ_NONE;
  if (!w->fmap) return otv_lw_leaf(w, at, 6 + 2 * n, K_LANGSYS);
  otv_buf *b = otv_lw_open(w);
  if (!b) return OTV_OBJ_NONE;
  unsigned req = u16(w, at + 2);
  copy(w, b, at, 2);
  otv_buf_u16(b, (uint16_t)(req == PRUNED ? PRUNED : feature_index(w, req)));
  size_t count_at = b->len, kept = 0;
  otv_buf_u16(b, 0);
  for (size_t k = 0; k < n; k++) {
    unsigned f = feature_index(w, u16(w, at + 6 + 2 * k));
    if (f == PRUNED) continue;
    /* merged features: listed once */
    if (w->fseen[f >> 3] & (1u << (f & 7))) continue;
    w->fseen[f >> 3] |= (uint8_t)(1u << (f & 7));
    otv_buf_u16(b, (uint16_t)f);
    kept++;
  }
  for (size_t k = 0; k < n; k++) { /* the marks cleared for the next LangSys */
    unsigned f = feature_index(w, u16(w, at + 6 + 2 * k));
    if (f != PRUNED) w->fseen[f >> 3] = 0;
  }
  if (!b->failed) otv_buf_put_u16(b, count_at, (uint16_t)kept);
  return otv_lw_close(w, b);
}

/* The LookupList without the pruned lookups. */
otv_obj otv_lw_lookup_list(otv_lw *w, size_t at)
{
  if (!w->lmap) return otv_lw_offset_list(w, at, K_LOOKUP_LIST, K_LOOKUP, 0);
  size_t n = w->lookup_count; /* in range: prune_plan */
  otv_buf *b = otv_lw_open(w);
  if (!b) return OTV_OBJ_NONE;
  size_t count_at = b->len, kept = 0;
  otv_buf_u16(b, 0);
  for (size_t i = 0; i < n && !w->st; i++) {
    if (w->lmap[i] == PRUNED) continue;
    otv_lw_off16(w, b, otv_lw_child(w, at, u16(w, at + 2 + 2 * i), K_LOOKUP, 0));
    kept++;
  }
  if (!b->failed) otv_buf_put_u16(b, count_at, (uint16_t)kept);
  return otv_lw_close(w, b);
}

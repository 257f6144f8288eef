/*
 * build/store.c - ItemVariationStores of a build (spec: otvarcommonformats "Item Variation
 * Store", "DeltaSetIndexMap") and the tables made of them: HVAR (spec: hvar) and MVAR (spec:
 * mvar). Rows of deltas are collected over one region list (the supports of the model and its
 * sparse sub-models), identical rows stored once, and rows grouped into VarData subtables by the
 * regions they use and the width their deltas need; groups are then merged greedily while a
 * merge saves bytes (a subtable costs its header, region indices and offset; a row its
 * columns). HVAR keeps the smaller of a direct store (glyph id = item) and a mapped one.
 */
#include "build/tables.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_REGIONS 0x7FFFu
#define LONG_WORDS 0x8000u /* spec: wordDeltaCount flag: 32-bit and 16-bit columns */
#define WORD_COUNT_MASK 0x7FFFu
#define INNER_BITS_MASK 0x0Fu /* spec: DeltaSetIndexMap entryFormat */
#define ENTRY_SIZE_SHIFT 4

typedef struct ivsb {
  otv_builder *b;
  int16_t *reg; /* rc x ac x 3 (start, peak, end) */
  unsigned rc, rcap;
  /* rows: sparse (region, delta) pairs, row r in [row_at[r], row_at[r + 1]) */
  uint32_t *pr;
  int32_t *pd;
  size_t pn, pcap_r, pcap_d;
  size_t *row_at;
  size_t rows, row_at_cap;
  /* the region index of each model position of the last model used (rm_sup: its supports, a
   * model's own allocation for the whole build; UINT32_MAX: not looked up yet): the region
   * list only grows, so a position's index never changes */
  const double *rm_sup;
  unsigned rm_count;
  uint32_t rm_map[OTV_BUILD_MAX_MASTERS];
} ivsb;

static unsigned region_of(ivsb *s, const otv_vmodel *md, unsigned i)
{
  unsigned ac = s->b->ac;
  int16_t r[3 * OTV_MAX_AXES];
  for (unsigned a = 0; a < ac; a++)
    for (unsigned q = 0; q < 3; q++)
      r[3 * a + q] = (int16_t)otv_build_f2(md->support[((size_t)i * ac + a) * 3 + q]);
  for (unsigned k = 0; k < s->rc; k++)
    if (!memcmp(s->reg + (size_t)k * ac * 3, r, 3 * ac * sizeof *r)) return k;
  if (s->rc == s->rcap) {
    unsigned nc = s->rcap ? 2 * s->rcap : 16;
    int16_t *nr = otv_mem_realloc(&s->b->al, s->reg, (size_t)s->rcap * ac * 3 * sizeof *nr,
                                  (size_t)nc * ac * 3 * sizeof *nr);
    if (!nr) return UINT32_MAX;
    s->reg = nr;
    s->rcap = nc;
  }
  memcpy(s->reg + (size_t)s->rc * ac * 3, r, 3 * ac * sizeof *r);
  return s->rc++;
}

/* Add one row: the deltas of model md for values vals (one per location of md, in the order
 * given to it). Returns the row index, or UINT32_MAX (error recorded). */
static uint32_t add_row_model(ivsb *s, const otv_vmodel *md, const double *vals)
{
  otv_builder *b = s->b;
  double dl[OTV_BUILD_MAX_MASTERS];
  otv_vmodel_deltas(md, vals, 1, 1, dl);
  if (OTV_RESERVE(&b->al, &s->row_at, &s->row_at_cap, s->rows + 2, sizeof *s->row_at) ||
      OTV_RESERVE(&b->al, &s->pr, &s->pcap_r, s->pn + md->count, sizeof *s->pr) ||
      OTV_RESERVE(&b->al, &s->pd, &s->pcap_d, s->pn + md->count, sizeof *s->pd)) {
    OTV_FAIL(b->err, NOMEM, 0, 0, "variation store");
    return UINT32_MAX;
  }
  s->row_at[s->rows] = s->pn;
  if (s->rm_sup != md->support || s->rm_count != md->count) {
    s->rm_sup = md->support, s->rm_count = md->count;
    for (unsigned i = 0; i < md->count; i++) s->rm_map[i] = UINT32_MAX;
  }
  for (unsigned i = 1; i < md->count; i++) {
    if (dl[i] == 0) continue;
    if (fabs(dl[i]) > 2147483647.0) {
      OTV_FAIL(b->err, LIMIT, 0, 0, "delta out of range");
      return UINT32_MAX;
    }
    unsigned r = s->rm_map[i];
    if (r == UINT32_MAX) r = s->rm_map[i] = region_of(s, md, i);
    if (r == UINT32_MAX || r >= MAX_REGIONS) {
      OTV_FAIL(b->err, NOMEM, 0, 0, "variation store regions");
      return UINT32_MAX;
    }
    s->pr[s->pn] = r;
    s->pd[s->pn] = (int32_t)dl[i];
    s->pn++;
  }
  s->row_at[s->rows + 1] = s->pn;
  return (uint32_t)s->rows++;
}

/* Add one row: the deltas of master values vals (one per master; mask: the masters present,
 * the default always). Returns the row index, or UINT32_MAX (error recorded). */
static uint32_t add_row(ivsb *s, const otv_mset *mask, const double *vals)
{
  const otv_vmodel *md;
  if (otv_build_submodel(s->b, mask, &md)) return UINT32_MAX;
  return add_row_model(s, md, vals);
}

static void ivsb_free(ivsb *s)
{
  const otv_alloc *al = &s->b->al;
  otv_mem_free(al, s->reg, (size_t)s->rcap * s->b->ac * 3 * sizeof *s->reg);
  otv_mem_free(al, s->pr, s->pcap_r * sizeof *s->pr);
  otv_mem_free(al, s->pd, s->pcap_d * sizeof *s->pd);
  otv_mem_free(al, s->row_at, s->row_at_cap * sizeof *s->row_at);
}

/* ---- finishing: dedupe, group, merge, write ---- */

/* width code of a delta: 0 zero, 1 byte, 2 word, 4 long */
static unsigned wcode(int32_t v)
{
  return v == 0 ? 0 : (v >= -128 && v <= 127) ? 1 : (v >= -32768 && v <= 32767) ? 2 : 4;
}

typedef struct group {
  uint8_t *w; /* per region: the width its column needs (0: not used) */
  size_t items;
  bool live;
  uint32_t into; /* not live: the group it was merged into */
} group;

static size_t group_cost(const uint8_t *w, unsigned rc, size_t items)
{
  size_t cols = 0, row = 0;
  bool lng = false;
  for (unsigned r = 0; r < rc; r++) lng |= w[r] == 4;
  for (unsigned r = 0; r < rc; r++)
    if (w[r]) cols++, row += lng ? (w[r] >= 2 ? 4 : 2) : w[r];
  return 4 + 6 + 2 * cols + items * row;
}

/* group_cost of the widths max(a, b) (two groups merged), in one pass without writing them:
 * the same value */
static size_t merged_cost(const uint8_t *a, const uint8_t *b, unsigned rc, size_t items)
{
  size_t cols = 0, narrow = 0, wide = 0;
  unsigned lng = 0;
  for (unsigned r = 0; r < rc; r++) {
    unsigned m = a[r] > b[r] ? a[r] : b[r];
    lng |= m == 4;
    cols += m != 0;
    narrow += m;
    wide += m ? (m >= 2 ? 4 : 2) : 0;
  }
  return 4 + 6 + 2 * cols + items * (lng ? wide : narrow);
}

/* The bytes merging groups i and j saves (0: not allowed, over 65535 rows). */
static long pair_gain(const group *g, const size_t *gcost, size_t i, size_t j, unsigned rc)
{
  if (g[i].items + g[j].items > 0xFFFF) return 0;
  return (long)gcost[i] + (long)gcost[j] -
         (long)merged_cost(g[i].w, g[j].w, rc, g[i].items + g[j].items);
}

static int cmp_u64(const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* The regions renumbered in the order of the model's supports (the masters' order), those only
 * sparse sub-models have after them in the order of first use: fontTools' region lists follow
 * the model too, so equal stores come out as equal bytes (and compress alike, in WOFF2). Rows'
 * region numbers follow; calling it again changes nothing. */
static otv_status regions_in_model_order(ivsb *s)
{
  otv_builder *b = s->b;
  const otv_alloc *al = &b->al;
  unsigned rc = s->rc, ac = b->ac;
  if (rc < 2) return OTV_E_OK;
  const otv_vmodel *md = &b->model;
  uint64_t *key = otv_mem_calloc(al, rc, sizeof *key);
  uint32_t *newi = otv_mem_calloc(al, rc, sizeof *newi);
  int16_t *nr = otv_mem_calloc(al, (size_t)rc * ac * 3, sizeof *nr);
  if (!key || !newi || !nr) {
    otv_mem_free(al, key, (size_t)rc * sizeof *key);
    otv_mem_free(al, newi, (size_t)rc * sizeof *newi);
    otv_mem_free(al, nr, (size_t)rc * ac * 3 * sizeof *nr);
    return OTV_FAIL(b->err, NOMEM, 0, 0, "variation store regions");
  }
  int16_t r[3 * OTV_MAX_AXES];
  for (unsigned k = 0; k < rc; k++) key[k] = (uint64_t)(OTV_BUILD_MAX_MASTERS + k) << 32 | k;
  for (unsigned i = 1; i < md->count; i++) {
    for (unsigned a = 0; a < ac; a++)
      for (unsigned q = 0; q < 3; q++)
        r[3 * a + q] = (int16_t)otv_build_f2(md->support[((size_t)i * ac + a) * 3 + q]);
    for (unsigned k = 0; k < rc; k++)
      if (!memcmp(s->reg + (size_t)k * ac * 3, r, 3 * ac * sizeof *r)) {
        key[k] = (uint64_t)i << 32 | k;
        break;
      }
  }
  qsort(key, rc, sizeof *key, cmp_u64);
  for (unsigned j = 0; j < rc; j++) {
    unsigned k = (unsigned)(key[j] & 0xFFFFFFFFu);
    newi[k] = j;
    memcpy(nr + (size_t)j * ac * 3, s->reg + (size_t)k * ac * 3, 3 * ac * sizeof *nr);
  }
  memcpy(s->reg, nr, (size_t)rc * ac * 3 * sizeof *nr);
  for (size_t q = 0; q < s->pn; q++) s->pr[q] = newi[s->pr[q]];
  otv_mem_free(al, key, (size_t)rc * sizeof *key);
  otv_mem_free(al, newi, (size_t)rc * sizeof *newi);
  otv_mem_free(al, nr, (size_t)rc * ac * 3 * sizeof *nr);
  return OTV_E_OK;
}

/* Rows a and b of one subtable compared as their written delta lists (columns in written order,
 * kp the written position of each entry's column, entries of a row sorted by it; kd its delta):
 * the rows of a subtable are stored in this order, as fontTools' optimized stores sort them. */
static int row_cmp(const ivsb *s, const uint32_t *kp, const int32_t *kd, uint32_t a, uint32_t b)
{
  size_t i = s->row_at[a], ie = s->row_at[a + 1], j = s->row_at[b], je = s->row_at[b + 1];
  while (i < ie || j < je) {
    uint32_t pa = i < ie ? kp[i] : UINT32_MAX, pb = j < je ? kp[j] : UINT32_MAX;
    int32_t va = 0, vb = 0;
    if (pa <= pb) va = kd[i++];
    if (pb <= pa) vb = kd[j++];
    if (va != vb) return va < vb ? -1 : 1;
  }
  return 0;
}

/* The store, written to out; item_of[r] gets (outer << 16 | inner) of unique row r of the rows
 * listed in use[0..use_n) (row indices; duplicates allowed). */
static otv_status ivs_write(ivsb *s, const uint32_t *use, size_t use_n, uint32_t *item_of,
                            otv_buf *out)
{
  otv_builder *b = s->b;
  const otv_alloc *al = &b->al;
  unsigned rc = s->rc, ac = b->ac;
  size_t rows = s->rows;
  otv_status st = regions_in_model_order(s);
  if (st) return st;
  /* unique rows: canon[r] = the first identical row */
  uint32_t *canon = otv_mem_calloc(al, rows + 1, sizeof *canon);
  uint32_t *grp = otv_mem_calloc(al, rows + 1, sizeof *grp);
  group *g = otv_mem_calloc(al, rows + 1, sizeof *g);
  uint8_t *wbuf = otv_mem_calloc(al, (rows + 1) * (rc + 1), 1);
  uint8_t *wtmp = otv_mem_calloc(al, rc + 1, 1);
  size_t slots_n = 1;
  while (slots_n < 2 * rows + 2) slots_n *= 2;
  uint32_t *slots = otv_mem_calloc(al, slots_n, sizeof *slots);
  uint8_t *used = otv_mem_calloc(al, rows + 1, 1);
  size_t *gcost = NULL, gcost_n = 0; /* the groups' costs */
  long *gain = NULL;                 /* the pairs' gains (few groups) */
  size_t gain_n = 0;
  if (!canon || !grp || !g || !wbuf || !wtmp || !slots || !used) {
    st = OTV_FAIL(b->err, NOMEM, 0, 0, "variation store");
    goto done;
  }
  for (size_t u = 0; u < use_n; u++) used[use[u]] = 1;
  for (size_t r = 0; r < rows; r++) {
    canon[r] = (uint32_t)r;
    if (!used[r]) continue;
    size_t a0 = s->row_at[r], a1 = s->row_at[r + 1];
    uint32_t h = 2166136261u;
    for (size_t q = a0; q < a1; q++)
      h = (h ^ s->pr[q]) * 16777619u, h = (h ^ (uint32_t)s->pd[q]) * 16777619u;
    h = (h * 2654435761u) & (uint32_t)(slots_n - 1);
    for (; slots[h]; h = (h + 1) & (uint32_t)(slots_n - 1)) {
      size_t o = slots[h] - 1, o0 = s->row_at[o], o1 = s->row_at[o + 1];
      if (o1 - o0 == a1 - a0 && !memcmp(s->pr + o0, s->pr + a0, (a1 - a0) * sizeof *s->pr) &&
          !memcmp(s->pd + o0, s->pd + a0, (a1 - a0) * sizeof *s->pd)) {
        canon[r] = (uint32_t)o;
        break;
      }
    }
    if (!slots[h]) slots[h] = (uint32_t)r + 1;
  }
  /* one group per width signature */
  size_t gn = 0;
  for (size_t r = 0; r < rows; r++) {
    if (!used[r] || canon[r] != r) continue;
    memset(wtmp, 0, rc);
    for (size_t q = s->row_at[r]; q < s->row_at[r + 1]; q++)
      wtmp[s->pr[q]] = (uint8_t)wcode(s->pd[q]);
    size_t k = 0;
    for (; k < gn; k++)
      if (!memcmp(g[k].w, wtmp, rc)) break;
    if (k == gn) {
      g[gn].w = wbuf + gn * (rc + 1);
      memcpy(g[gn].w, wtmp, rc);
      g[gn].live = true;
      gn++;
    }
    g[k].items++;
    grp[r] = (uint32_t)k;
  }
  /* greedy merges while one saves bytes (each group's own cost kept in gcost) */
  gcost_n = gn + 1;
  gcost = otv_mem_calloc(al, gcost_n, sizeof *gcost);
  if (!gcost) {
    st = OTV_FAIL(b->err, NOMEM, 0, 0, "variation store");
    goto done;
  }
  for (size_t i = 0; i < gn; i++) gcost[i] = group_cost(g[i].w, rc, g[i].items);
  /* up to 256 groups, every pair's gain kept (gain[i * gn + j], i < j): a merge changes only
   * the pairs of the merged group; the same gains, scanned in the same order */
  if (gn >= 2 && gn <= 256) {
    gain_n = gn * gn;
    gain = otv_mem_alloc(al, gain_n * sizeof *gain);
    for (size_t i = 0; gain && i < gn; i++)
      for (size_t j = i + 1; j < gn; j++) gain[i * gn + j] = pair_gain(g, gcost, i, j, rc);
  }
  for (;;) {
    size_t bi = 0, bj = 0;
    long best = 0;
    for (size_t i = 0; i < gn; i++) {
      if (!g[i].live) continue;
      for (size_t j = i + 1; j < gn; j++) {
        if (!g[j].live) continue;
        long gv = gain ? gain[i * gn + j] : pair_gain(g, gcost, i, j, rc);
        if (gv > best) best = gv, bi = i, bj = j;
      }
    }
    if (best <= 0) break;
    for (unsigned r = 0; r < rc; r++)
      g[bi].w[r] = g[bi].w[r] > g[bj].w[r] ? g[bi].w[r] : g[bj].w[r];
    g[bi].items += g[bj].items;
    gcost[bi] = group_cost(g[bi].w, rc, g[bi].items);
    g[bj].live = false;
    for (size_t k = 0; gain && k < gn; k++)
      if (g[k].live && k != bi)
        gain[k < bi ? k * gn + bi : bi * gn + k] =
            pair_gain(g, gcost, k < bi ? k : bi, k < bi ? bi : k, rc);
    g[bj].into = (uint32_t)bi; /* its rows: relabelled once the merges are done */
  }
  for (size_t r = 0; r < rows; r++)
    if (used[r] && canon[r] == r) {
      uint32_t k = grp[r];
      while (!g[k].live) k = g[k].into; /* a chain of merges, each into a group then live */
      grp[r] = k;
    }
  /* number the live groups (outer indices) */
  size_t outer_n = 0;
  uint32_t *outer = otv_mem_calloc(al, gn + 1, sizeof *outer);
  if (!outer) {
    st = OTV_FAIL(b->err, NOMEM, 0, 0, "variation store");
    goto done;
  }
  for (size_t k = 0; k < gn; k++)
    if (g[k].live) {
      if (g[k].items > 0xFFFF) st = OTV_FAIL(b->err, LIMIT, 0, 0, "over 65535 rows in a subtable");
      outer[k] = (uint32_t)outer_n++, g[k].items = 0;
    }
  if (outer_n > 0xFFFF) st = OTV_FAIL(b->err, LIMIT, 0, 0, "too many variation subtables");
  /* the unique rows in written order: by subtable, then by their deltas (row_cmp) */
  size_t on = 0;
  uint32_t *ord = st ? NULL : otv_mem_calloc(al, 2 * (rows + 1), sizeof *ord);
  uint32_t *kp = ord ? otv_mem_calloc(al, s->pn + 1, sizeof *kp) : NULL;
  int32_t *kd = kp ? otv_mem_calloc(al, s->pn + 1, sizeof *kd) : NULL;
  if (!st && !kd) st = OTV_FAIL(b->err, NOMEM, 0, 0, "variation store");
  for (size_t r = 0; !st && r < rows; r++) {
    if (!used[r] || canon[r] != r) continue;
    ord[on++] = (uint32_t)r;
    const uint8_t *w = g[grp[r]].w;
    bool lng = false;
    for (unsigned c = 0; c < rc; c++) lng |= w[c] == 4;
    size_t a0 = s->row_at[r], a1 = s->row_at[r + 1];
    for (size_t q = a0; q < a1; q++) { /* insertion by written position (a row is short) */
      uint32_t pos = (w[s->pr[q]] >= (lng ? 4 : 2) ? 0 : rc) + s->pr[q];
      size_t t = q;
      for (; t > a0 && kp[t - 1] > pos; t--) kp[t] = kp[t - 1], kd[t] = kd[t - 1];
      kp[t] = pos, kd[t] = s->pd[q];
    }
  }
  /* bottom-up merge sort (stable) by (outer index, row_cmp) */
  for (size_t width = 1; !st && width < on; width *= 2) {
    uint32_t *src = ord, *dst = ord + rows + 1;
    for (size_t lo = 0; lo < on; lo += 2 * width) {
      size_t mid = lo + width < on ? lo + width : on,
             hi = lo + 2 * width < on ? lo + 2 * width : on;
      size_t i = lo, j = mid, o = lo;
      while (i < mid || j < hi) {
        bool take_i = j >= hi;
        if (i < mid && j < hi) {
          uint32_t oi = outer[grp[src[i]]], oj = outer[grp[src[j]]];
          take_i = oi != oj ? oi < oj : row_cmp(s, kp, kd, src[i], src[j]) <= 0;
        }
        dst[o++] = take_i ? src[i++] : src[j++];
      }
    }
    memcpy(ord, dst, on * sizeof *ord);
  }
  for (size_t j = 0; !st && j < on; j++) {
    uint32_t r = ord[j];
    item_of[r] = outer[grp[r]] << 16 | (uint32_t)g[grp[r]].items++;
  }
  for (size_t r = 0; !st && r < rows; r++)
    if (used[r]) item_of[r] = item_of[canon[r]];
  /* write: header, region list, subtables */
  if (!st) {
    size_t base = out->len;
    otv_buf_u16(out, 1);
    otv_buf_u32(out, 0); /* region list offset, patched */
    otv_buf_u16(out, (uint16_t)outer_n);
    size_t offs = out->len;
    otv_buf_zeros(out, 4 * outer_n);
    otv_buf_put_u32(out, base + 2, (uint32_t)(out->len - base));
    otv_buf_u16(out, (uint16_t)ac);
    otv_buf_u16(out, (uint16_t)rc);
    for (unsigned k = 0; k < rc; k++)
      for (unsigned a = 0; a < ac; a++)
        for (unsigned q = 0; q < 3; q++)
          otv_buf_u16(out, (uint16_t)s->reg[((size_t)k * ac + a) * 3 + q]);
    int32_t *rowv = otv_mem_calloc(al, rc + 1, sizeof *rowv);
    if (!rowv) st = OTV_FAIL(b->err, NOMEM, 0, 0, "variation store");
    for (size_t k = 0, o = 0; !st && k < gn; k++) {
      if (!g[k].live) continue;
      if (out->len - base > UINT32_MAX) st = OTV_FAIL(b->err, LIMIT, 0, 0, "store over 4 GiB");
      otv_buf_put_u32(out, offs + 4 * o++, (uint32_t)(out->len - base));
      bool lng = false;
      unsigned cols = 0, wide = 0;
      for (unsigned r = 0; r < rc; r++) {
        lng |= g[k].w[r] == 4;
        cols += g[k].w[r] != 0;
      }
      for (unsigned r = 0; r < rc; r++) wide += g[k].w[r] >= (lng ? 4 : 2);
      otv_buf_u16(out, (uint16_t)g[k].items);
      otv_buf_u16(out, (uint16_t)((lng ? LONG_WORDS : 0) | wide));
      otv_buf_u16(out, (uint16_t)cols);
      /* wide columns first, then the narrow ones (spec) */
      for (unsigned pass = 0; pass < 2; pass++)
        for (unsigned r = 0; r < rc; r++)
          if (g[k].w[r] && (g[k].w[r] >= (lng ? 4 : 2)) == !pass) otv_buf_u16(out, (uint16_t)r);
      for (size_t j = 0; j < on; j++) {
        size_t r = ord[j];
        if (grp[r] != k) continue;
        memset(rowv, 0, rc * sizeof *rowv);
        for (size_t q = s->row_at[r]; q < s->row_at[r + 1]; q++) rowv[s->pr[q]] = s->pd[q];
        for (unsigned pass = 0; pass < 2; pass++)
          for (unsigned c = 0; c < rc; c++) {
            if (!g[k].w[c] || (g[k].w[c] >= (lng ? 4 : 2)) != !pass) continue;
            if (lng && !pass)
              otv_buf_u32(out, (uint32_t)rowv[c]);
            else if (lng || !pass)
              otv_buf_u16(out, (uint16_t)(int16_t)rowv[c]);
            else
              otv_buf_u8(out, (uint8_t)(int8_t)rowv[c]);
          }
      }
    }
    if (rowv) otv_mem_free(al, rowv, (rc + 1) * sizeof *rowv);
    if (out->failed && !st) st = OTV_FAIL(b->err, NOMEM, 0, 0, "variation store");
  }
  otv_mem_free(al, outer, (gn + 1) * sizeof *outer);
  otv_mem_free(al, ord, 2 * (rows + 1) * sizeof *ord);
  otv_mem_free(al, kp, (s->pn + 1) * sizeof *kp);
  otv_mem_free(al, kd, (s->pn + 1) * sizeof *kd);
done:
  otv_mem_free(al, canon, (rows + 1) * sizeof *canon);
  otv_mem_free(al, grp, (rows + 1) * sizeof *grp);
  otv_mem_free(al, g, (rows + 1) * sizeof *g);
  otv_mem_free(al, wbuf, (rows + 1) * (rc + 1));
  otv_mem_free(al, wtmp, rc + 1);
  otv_mem_free(al, slots, slots_n * sizeof *slots);
  otv_mem_free(al, used, rows + 1);
  if (gcost) otv_mem_free(al, gcost, gcost_n * sizeof *gcost);
  if (gain) otv_mem_free(al, gain, gain_n * sizeof *gain);
  return st;
}

/* A DeltaSetIndexMap of n entries (trailing repeats of the last entry dropped: spec, glyphs past
 * mapCount use the last entry). */
static void write_map(otv_buf *out, const uint32_t *item, size_t n)
{
  while (n > 1 && item[n - 1] == item[n - 2]) n--;
  uint32_t max_inner = 0, max_outer = 0;
  for (size_t i = 0; i < n; i++) {
    if ((item[i] & 0xFFFF) > max_inner) max_inner = item[i] & 0xFFFF;
    if ((item[i] >> 16) > max_outer) max_outer = item[i] >> 16;
  }
  unsigned ib = 1, ob = 0;
  while (ib < 16 && (max_inner >> ib)) ib++;
  while (max_outer >> ob) ob++;
  unsigned size = (ib + ob + 7) / 8;
  if (!size) size = 1;
  if (n > 0xFFFF) {
    otv_buf_u8(out, 1);
    otv_buf_u8(out, (uint8_t)((size - 1) << ENTRY_SIZE_SHIFT | (ib - 1)));
    otv_buf_u32(out, (uint32_t)n);
  } else {
    otv_buf_u8(out, 0);
    otv_buf_u8(out, (uint8_t)((size - 1) << ENTRY_SIZE_SHIFT | (ib - 1)));
    otv_buf_u16(out, (uint16_t)n);
  }
  for (size_t i = 0; i < n; i++) {
    uint32_t e = (item[i] >> 16) << ib | (item[i] & 0xFFFF);
    for (unsigned q = size; q-- > 0;) otv_buf_u8(out, (uint8_t)(e >> (8 * q)));
  }
}

/* Whether the vertical origins (VORG, spec: vorg) of the masters that have one differ from the
 * default master's for some glyph (the default master must have VORG). */
static bool vorg_varies(const otv_builder *b)
{
  const otv_bmaster *dm = &b->m[b->base];
  if (!dm->vorg.present) return false;
  for (unsigned k = 0; k < b->mc; k++) {
    const otv_bmaster *m = &b->m[k];
    if (k == b->base || !m->vorg.present) continue;
    for (uint32_t g = 0; g < dm->glyph_count; g++) {
      uint32_t mg = m->gid_of[g];
      if (mg != UINT32_MAX && otv_vorg_y(&m->vorg, mg) != otv_vorg_y(&dm->vorg, g)) return true;
    }
  }
  return false;
}

/* HVAR or VVAR (spec: hvar, vvar): the advance widths or heights; VVAR's header has one more
 * offset: vOrgMapping, a DeltaSetIndexMap of the glyphs' vertical origin deltas when the
 * masters' VORG values differ (the masters with a VORG, a glyph missing in one sparse, as the
 * advances; the store then mapped), else 0 (fontTools 4.38 writes a map of zero deltas when
 * the default master has VORG: the same origins). */
static otv_status build_metrics_var(otv_builder *b, bool vertical)
{
  otv_bmaster *dm = &b->m[b->base];
  const char *what = vertical ? "VVAR" : "HVAR";
  if (!(vertical ? dm->v.present : dm->h.present)) return OTV_E_OK;
  uint32_t gc = dm->glyph_count;
  bool vorg = vertical && vorg_varies(b);
  size_t nrow = vorg ? 2 * (size_t)gc : gc; /* rows: advances, then origins */
  ivsb s;
  memset(&s, 0, sizeof s);
  s.b = b;
  const otv_alloc *al = &b->al;
  uint32_t *row = otv_mem_calloc(al, nrow + 1, sizeof *row);
  uint32_t *item = otv_mem_calloc(al, nrow + 1, sizeof *item);
  uint32_t *direct = otv_mem_calloc(al, (size_t)gc + 1, sizeof *direct);
  otv_buf st1, st2;
  otv_buf_init(&st1, al);
  otv_buf_init(&st2, al);
  otv_status st = row && item && direct ? OTV_E_OK : OTV_FAIL(b->err, NOMEM, 0, 0, "%s", what);
  double vals[OTV_BUILD_MAX_MASTERS];
  for (uint32_t g = 0; !st && g < gc; g++) {
    otv_mset mask = otv_mset_first(0);
    unsigned q = 0;
    for (unsigned k = 0; k < b->mc; k++) {
      uint32_t mg = b->m[k].gid_of[g];
      const otv_mtx *mt = vertical ? &b->m[k].v : &b->m[k].h;
      if (mg == UINT32_MAX || !mt->present) continue;
      otv_mset_add(&mask, k);
      vals[q++] = otv_mtx_advance(mt, mg);
    }
    if ((row[g] = add_row(&s, &mask, vals)) == UINT32_MAX) st = b->err ? b->err->code : OTV_E_NOMEM;
  }
  for (uint32_t g = 0; vorg && !st && g < gc; g++) {
    otv_mset mask = otv_mset_first(0);
    unsigned q = 0;
    for (unsigned k = 0; k < b->mc; k++) {
      uint32_t mg = b->m[k].gid_of[g];
      if (mg == UINT32_MAX || !b->m[k].vorg.present) continue;
      otv_mset_add(&mask, k);
      vals[q++] = otv_vorg_y(&b->m[k].vorg, mg);
    }
    if ((row[gc + g] = add_row(&s, &mask, vals)) == UINT32_MAX)
      st = b->err ? b->err->code : OTV_E_NOMEM;
  }
  /* mapped: unique rows, a DeltaSetIndexMap (two with origins) */
  if (!st) st = ivs_write(&s, row, nrow, item, &st2);
  size_t map_at = st2.len, vorg_at = 0;
  if (!st) {
    uint32_t *m = otv_mem_calloc(al, (size_t)gc + 1, sizeof *m);
    if (!m) st = OTV_FAIL(b->err, NOMEM, 0, 0, "%s", what);
    for (uint32_t g = 0; !st && g < gc; g++) m[g] = item[row[g]];
    if (!st) write_map(&st2, m, gc);
    vorg_at = st2.len;
    for (uint32_t g = 0; vorg && !st && g < gc; g++) m[g] = item[row[gc + g]];
    if (vorg && !st) write_map(&st2, m, gc);
    if (m) otv_mem_free(al, m, ((size_t)gc + 1) * sizeof *m);
  }
  /* direct: glyph id = inner index of one subtable (possible when it is one group: every row
   * kept, in glyph order; not with origins, which need a map) */
  bool direct_ok = false;
  if (!st && gc <= 0xFFFF && !vorg) {
    /* a direct store: one VarData holding every glyph's row in order; built by making the
     * rows unique per glyph (each glyph its own row) in one group */
    ivsb d = s; /* rows shared; written as one subtable below */
    (void)d;
    size_t cols = 0, wsum = 0;
    bool lng = false;
    uint8_t *w = otv_mem_calloc(al, s.rc + 1, 1);
    if (!w) st = OTV_FAIL(b->err, NOMEM, 0, 0, "%s", what);
    for (uint32_t g = 0; !st && g < gc; g++)
      for (size_t q = s.row_at[row[g]]; q < s.row_at[row[g] + 1]; q++) {
        unsigned c = wcode(s.pd[q]);
        if (c > w[s.pr[q]]) w[s.pr[q]] = (uint8_t)c;
      }
    for (unsigned r = 0; !st && r < s.rc; r++) lng |= w[r] == 4;
    for (unsigned r = 0; !st && r < s.rc; r++)
      if (w[r]) cols++, wsum += lng ? (w[r] >= 2 ? 4 : 2) : w[r];
    size_t direct_len = 8 + 4 + 4 + (size_t)s.rc * b->ac * 6 + 6 + 2 * cols + gc * wsum;
    if (!st && direct_len < st2.len) {
      direct_ok = true;
      /* write it: header, regions, one subtable */
      otv_buf_u16(&st1, 1);
      otv_buf_u32(&st1, 12);
      otv_buf_u16(&st1, 1);
      otv_buf_u32(&st1, (uint32_t)(12 + 4 + (size_t)s.rc * b->ac * 6));
      otv_buf_u16(&st1, (uint16_t)b->ac);
      otv_buf_u16(&st1, (uint16_t)s.rc);
      for (unsigned k = 0; k < s.rc; k++)
        for (unsigned a = 0; a < b->ac; a++)
          for (unsigned q = 0; q < 3; q++)
            otv_buf_u16(&st1, (uint16_t)s.reg[((size_t)k * b->ac + a) * 3 + q]);
      unsigned wide = 0;
      for (unsigned r = 0; r < s.rc; r++) wide += w[r] && w[r] >= (lng ? 4 : 2);
      otv_buf_u16(&st1, (uint16_t)gc);
      otv_buf_u16(&st1, (uint16_t)((lng ? LONG_WORDS : 0) | wide));
      otv_buf_u16(&st1, (uint16_t)cols);
      for (unsigned pass = 0; pass < 2; pass++)
        for (unsigned r = 0; r < s.rc; r++)
          if (w[r] && (w[r] >= (lng ? 4 : 2)) == !pass) otv_buf_u16(&st1, (uint16_t)r);
      int32_t *rv = otv_mem_calloc(al, s.rc + 1, sizeof *rv);
      if (!rv) st = OTV_FAIL(b->err, NOMEM, 0, 0, "%s", what);
      for (uint32_t g = 0; !st && g < gc; g++) {
        memset(rv, 0, s.rc * sizeof *rv);
        for (size_t q = s.row_at[row[g]]; q < s.row_at[row[g] + 1]; q++) rv[s.pr[q]] = s.pd[q];
        for (unsigned pass = 0; pass < 2; pass++)
          for (unsigned c = 0; c < s.rc; c++) {
            if (!w[c] || (w[c] >= (lng ? 4 : 2)) != !pass) continue;
            if (lng && !pass)
              otv_buf_u32(&st1, (uint32_t)rv[c]);
            else if (lng || !pass)
              otv_buf_u16(&st1, (uint16_t)(int16_t)rv[c]);
            else
              otv_buf_u8(&st1, (uint8_t)(int8_t)rv[c]);
          }
      }
      if (rv) otv_mem_free(al, rv, (s.rc + 1) * sizeof *rv);
    }
    if (w) otv_mem_free(al, w, s.rc + 1);
  }
  if (!st) {
    otv_buf *t = otv_build_table(b, vertical ? OTV_T_VVAR : OTV_T_HVAR);
    size_t hdr = vertical ? 24 : 20;
    if (!t) st = OTV_E_NOMEM;
    if (!st) {
      otv_buf_u16(t, 1);
      otv_buf_u16(t, 0);
      otv_buf_u32(t, (uint32_t)hdr);
      otv_buf_u32(t, direct_ok ? 0 : (uint32_t)(hdr + map_at));
      otv_buf_u32(t, 0);
      otv_buf_u32(t, 0);
      if (vertical) otv_buf_u32(t, vorg ? (uint32_t)(hdr + vorg_at) : 0);
      otv_buf *src = direct_ok ? &st1 : &st2;
      otv_buf_bytes(t, src->p, src->len);
      if (t->failed || src->failed) st = OTV_FAIL(b->err, NOMEM, 0, 0, "%s", what);
    }
  }
  otv_buf_free(&st1);
  otv_buf_free(&st2);
  otv_mem_free(al, row, (nrow + 1) * sizeof *row);
  otv_mem_free(al, item, (nrow + 1) * sizeof *item);
  otv_mem_free(al, direct, ((size_t)gc + 1) * sizeof *direct);
  ivsb_free(&s);
  return st;
}

otv_status otv_build_hvar(otv_builder *b) { return build_metrics_var(b, false); }
otv_status otv_build_vvar(otv_builder *b) { return build_metrics_var(b, true); }

/* ---- MVAR (spec: mvar "Value tags") ---- */
typedef struct mvar_field {
  char tag[5];
  uint32_t table;
  uint16_t off;
  bool is_unsigned;
  uint16_t min_len; /* the table must be at least this long for the field */
} mvar_field;

static const mvar_field mvar_fields[] = {
    /* sorted by tag (the records must be) */
    {"cpht", OTV_T_OS2, 88, false, 90},  {"hasc", OTV_T_OS2, 68, false, 70},
    {"hcla", OTV_T_OS2, 74, true, 76},   {"hcld", OTV_T_OS2, 76, true, 78},
    {"hcof", OTV_T_HHEA, 22, false, 24}, {"hcrn", OTV_T_HHEA, 20, false, 22},
    {"hcrs", OTV_T_HHEA, 18, false, 20}, {"hdsc", OTV_T_OS2, 70, false, 72},
    {"hlgp", OTV_T_OS2, 72, false, 74},  {"sbxo", OTV_T_OS2, 14, false, 16},
    {"sbxs", OTV_T_OS2, 10, false, 12},  {"sbyo", OTV_T_OS2, 16, false, 18},
    {"sbys", OTV_T_OS2, 12, false, 14},  {"spxo", OTV_T_OS2, 22, false, 24},
    {"spxs", OTV_T_OS2, 18, false, 20},  {"spyo", OTV_T_OS2, 24, false, 26},
    {"spys", OTV_T_OS2, 20, false, 22},  {"stro", OTV_T_OS2, 28, false, 30},
    {"strs", OTV_T_OS2, 26, false, 28},  {"undo", OTV_T_POST, 8, false, 10},
    {"unds", OTV_T_POST, 10, false, 12}, {"vasc", OTV_T_VHEA, 4, false, 6},
    {"vcof", OTV_T_VHEA, 26, false, 28}, {"vcrn", OTV_T_VHEA, 24, false, 26},
    {"vcrs", OTV_T_VHEA, 22, false, 24}, {"vdsc", OTV_T_VHEA, 6, false, 8},
    {"vlgp", OTV_T_VHEA, 8, false, 10},  {"xhgt", OTV_T_OS2, 86, false, 88},
};
#define MVAR_FIELD_COUNT (sizeof mvar_fields / sizeof mvar_fields[0])
/* fontTools' sentinel: a post table whose underline value is -0x8000 does not take part */
#define POST_UNDERLINE_UNSET (-0x8000)

otv_status otv_build_mvar(otv_builder *b)
{
  ivsb s;
  memset(&s, 0, sizeof s);
  s.b = b;
  uint32_t rows[MVAR_FIELD_COUNT], item[MVAR_FIELD_COUNT];
  unsigned which[MVAR_FIELD_COUNT], rn = 0;
  otv_status st = OTV_E_OK;
  double vals[OTV_BUILD_MAX_MASTERS];
  for (unsigned f = 0; !st && f < MVAR_FIELD_COUNT; f++) {
    const mvar_field *fd = &mvar_fields[f];
    if (otv_sfnt_find(&b->m[b->base].sfnt, fd->table).len < fd->min_len) continue;
    otv_mset mask = otv_mset_first(0);
    unsigned q = 0;
    bool differ = false;
    for (unsigned k = 0; k < b->mc; k++) {
      otv_span t = otv_sfnt_find(&b->m[k].sfnt, fd->table);
      if (t.len < fd->min_len) continue;
      /* in range: min_len >= off + 2 */
      int v = fd->is_unsigned ? otv_peek_u16(t.p + fd->off) : otv_peek_i16(t.p + fd->off);
      if (fd->table == OTV_T_POST && v == POST_UNDERLINE_UNSET) continue;
      otv_mset_add(&mask, k);
      vals[q] = v;
      if (q && vals[q] != vals[0]) differ = true;
      q++;
    }
    if (!differ || !otv_mset_has(&mask, b->base)) continue;
    /* vals are in master order; the default is in them */
    uint32_t r = add_row(&s, &mask, vals);
    if (r == UINT32_MAX) {
      st = b->err ? b->err->code : OTV_E_NOMEM;
      break;
    }
    rows[rn] = r;
    which[rn++] = f;
  }
  if (!st && rn) {
    otv_buf store;
    otv_buf_init(&store, &b->al);
    st = ivs_write(&s, rows, rn, item, &store);
    otv_buf *t = st ? NULL : otv_build_table(b, OTV_T_MVAR);
    if (!st && !t) st = OTV_E_NOMEM;
    if (!st) {
      size_t store_off = 12 + 8 * (size_t)rn;
      otv_buf_u16(t, 1);
      otv_buf_u16(t, 0);
      otv_buf_u16(t, 0);
      otv_buf_u16(t, 8);
      otv_buf_u16(t, (uint16_t)rn);
      otv_buf_u16(t, (uint16_t)store_off);
      for (unsigned i = 0; i < rn; i++) {
        const char *tg = mvar_fields[which[i]].tag;
        otv_buf_u32(t, OTV_TAG(tg[0], tg[1], tg[2], tg[3]));
        otv_buf_u16(t, (uint16_t)(item[rows[i]] >> 16));
        otv_buf_u16(t, (uint16_t)(item[rows[i]] & 0xFFFF));
      }
      otv_buf_bytes(t, store.p, store.len);
      if (t->failed) st = OTV_FAIL(b->err, NOMEM, 0, 0, "MVAR");
    }
    otv_buf_free(&store);
  }
  ivsb_free(&s);
  return st;
}

/* ---- avar version 2 (spec: avar, version 2): axisIndexMap and ItemVariationStore ---- */

otv_status otv_build_avar2(otv_builder *b, const otv_vmodel *md, const double *vals, otv_buf *t,
                           size_t avar_start)
{
  unsigned ac = b->ac;
  ivsb s;
  memset(&s, 0, sizeof s);
  s.b = b;
  uint32_t rows[OTV_MAX_AXES] = {0}, item[OTV_MAX_AXES] = {0}, map[OTV_MAX_AXES] = {0};
  otv_buf store;
  otv_buf_init(&store, &b->al);
  otv_status st = OTV_E_OK;
  for (unsigned a = 0; !st && a < ac; a++)
    if ((rows[a] = add_row_model(&s, md, vals + (size_t)a * md->count)) == UINT32_MAX)
      st = b->err && b->err->code ? b->err->code : OTV_E_NOMEM;
  if (!st) st = ivs_write(&s, rows, ac, item, &store);
  if (!st) {
    for (unsigned a = 0; a < ac; a++) map[a] = item[rows[a]];
    /* spec: Offset32 axisIndexMapOffset, Offset32 varStoreOffset (from the table's start) */
    size_t at = t->len - avar_start + 8;
    otv_buf_u32(t, (uint32_t)at);
    size_t map_pos = t->len;
    otv_buf_u32(t, 0);
    write_map(t, map, ac);
    otv_buf_put_u32(t, map_pos, (uint32_t)(t->len - avar_start));
    otv_buf_bytes(t, store.p, store.len);
    if (t->failed || store.failed) st = OTV_FAIL(b->err, NOMEM, 0, 0, "avar");
  }
  otv_buf_free(&store);
  ivsb_free(&s);
  return st;
}

/* ---- a store of given rows (GDEF) ---- */

otv_status otv_build_store(otv_builder *b, const otv_mset *mask, const int32_t *vals, size_t stride,
                           size_t rows, uint32_t *item_of, otv_buf *out)
{
  ivsb s;
  memset(&s, 0, sizeof s);
  s.b = b;
  otv_status st = OTV_E_OK;
  uint32_t *use = otv_mem_calloc(&b->al, rows + 1, sizeof *use);
  if (!use) st = OTV_FAIL(b->err, NOMEM, 0, 0, "variation store");
  double v[OTV_BUILD_MAX_MASTERS];
  for (size_t r = 0; !st && r < rows; r++) {
    unsigned q = 0;
    for (unsigned k = 0; k < b->mc; k++)
      if (otv_mset_has(mask, k)) v[q++] = vals[r * stride + k];
    if ((use[r] = add_row(&s, mask, v)) == UINT32_MAX)
      st = b->err && b->err->code ? b->err->code : OTV_E_NOMEM;
  }
  uint32_t *items = st ? NULL : otv_mem_calloc(&b->al, rows + 1, sizeof *items);
  if (!st && !items) st = OTV_FAIL(b->err, NOMEM, 0, 0, "variation store");
  if (!st) st = ivs_write(&s, use, rows, items, out);
  for (size_t r = 0; !st && r < rows; r++) item_of[r] = items[use[r]];
  if (items) otv_mem_free(&b->al, items, (rows + 1) * sizeof *items);
  if (use) otv_mem_free(&b->al, use, (rows + 1) * sizeof *use);
  ivsb_free(&s);
  return st;
}

/*
 * build/gpos.c - GPOS merged from the masters (spec: GPOS, GDEF, chapter2 "Device and
 * VariationIndex tables"; otvarcommonformats "Item Variation Store"). The masters' GPOS tables
 * are walked side by side: lookups (Extension resolved), and in SinglePos, PairPos (formats 1
 * and 2), CursivePos, MarkBasePos, MarkLigPos and MarkMarkPos sub-tables every structural field
 * (formats, counts, coverage and class definitions, mark classes) must be equal in every master
 * that has a GPOS (else OTV_E_UNSUPPORTED naming the master and the lookup; PairPos format 2
 * sub-tables whose coverage or classes differ are merged as fontTools' varLib does, see
 * pair2_merge, and format 1 pair sets likewise, pair1_merge), while the values
 * (ValueRecord placements and
 * advances, anchor coordinates) may differ. A value that differs gets a VariationIndex device
 * (its deltas, of the model of the masters that have a GPOS, in the GDEF ItemVariationStore);
 * its ValueFormat gains the device field (every record of the group), an anchor becomes format 3.
 *
 * Each sub-table of those types is rebuilt self-contained in an object graph (core/graph.h:
 * identical children shared); the other sub-tables (contextual ones) stay as they were. The
 * intermediate GPOS is: header, a LookupList whose lookups are Extension lookups (32-bit
 * offsets) to the rebuilt sub-tables or to the original ones in a copy of the default's table,
 * which also holds the ScriptList, FeatureList and FeatureVariations. The layout writer
 * (layout.h, compact) then writes it as a normal table (Extension lookups unwrapped where
 * 16-bit offsets reach). GDEF gets version 1.3 and the store (made when the default has none),
 * and its ligature carets merged the same way (CaretValue format 3 where a caret moves).
 */
#include "build/tables.h"
#include "layout.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define EXT_TYPE 9u
#define DEV_VARIATION_INDEX 0x8000u
/* Anchor and BaseCoord format 3: with device offsets */
#define COORD_FORMAT_DEVICES 3u
#define MAX_NEST 8u /* Extension depth checked */

typedef struct pos {
  size_t a[OTV_BUILD_MAX_MASTERS];
} pos;

typedef struct gctx {
  otv_builder *b;
  otv_span t[OTV_BUILD_MAX_MASTERS]; /* each master's GPOS (len 0: none) */
  otv_mset mask;                     /* the masters with a GPOS (the default among them) */
  unsigned lookup, sub;              /* for messages */
  otv_status st;
  bool write; /* pass 2 */
  /* pass 1: every slot's value per master; pass 2: the item of varying slots */
  int32_t *vals;
  size_t slot, slot_n, vals_cap;
  uint32_t *item; /* per slot: outer << 16 | inner, UINT32_MAX: does not vary */
  size_t item_cap;
  size_t *sgroup; /* pass 1, per slot: its value-record group << 2 | field, SIZE_MAX: anchor */
  size_t sgroup_cap;
  uint8_t *gbits; /* per value-record group: the device bits its records gain */
  size_t group, gbits_cap;
  otv_graph *g;
  uint32_t tag;        /* GPOS or BASE, for messages */
  const char *where;   /* for messages outside the lookups (NULL: lookup and sub-table) */
  size_t work, budget; /* bytes and records visited, and the most allowed (fan-out of shared
                        * sub-tables, huge class matrices: OTV_E_LIMIT) */
  /* pass 2, PairPos: the rows written, [lo, hi) (class-1 rows of format 2, pair sets of
   * format 1; 0, UINT32_MAX: all), and the sub-table's row count (set by the writers): a
   * sub-table too large for its 16-bit offsets is written as pieces of rows (split_pair) */
  uint32_t lo, hi, rows;
} gctx;

static bool bad(gctx *c, otv_status code, size_t off, const char *what, unsigned k)
{
  if (c->st) return false;
  if (c->where && code == OTV_E_UNSUPPORTED)
    c->st = otv_fail(c->b->err, code, c->tag, off, "master %s: %s differs from the default's",
                     c->b->m[k].name, c->where);
  else if (c->tag == OTV_T_BASE || c->where)
    c->st = otv_fail(c->b->err, code, c->tag, off, "master %s: %s%s%s", c->b->m[k].name,
                     c->where ? c->where : "", c->where ? ": " : "", what);
  else
    c->st = otv_fail(c->b->err, code, OTV_T_GPOS, off, "master %s: lookup %u sub-table %u: %s",
                     c->b->m[k].name, c->lookup, c->sub, what);
  return false;
}

#define EACH(c, k)                                                                                 \
  for (unsigned k = 0; k < (c)->b->mc; k++)                                                        \
    if (otv_mset_has(&(c)->mask, k))

/* n bytes at p + rel in every master */
/* Count work (each unit a byte or record visited in every master); false past the budget. */
static bool spend(gctx *c, size_t units)
{
  if (c->st) return false;
  c->work += units + 1;
  if (c->work <= c->budget) return true;
  c->st = OTV_FAIL(c->b->err, LIMIT, c->tag, 0,
                   "master tables fan out past the work budget (%u x their size)",
                   OTV_LAYOUT_WORK_FACTOR);
  return false;
}

static bool need(gctx *c, const pos *p, size_t rel, size_t n)
{
  if (!spend(c, n)) return false;
  EACH(c, k)
  if (!otv_span_has(c->t[k], p->a[k] + rel, n))
    return bad(c, OTV_E_TRUNCATED, p->a[k] + rel, "sub-table past the end", k);
  return true;
}

/* A structural uint16 (checked by need): equal in every master, else unsupported. */
static unsigned su16(gctx *c, const pos *p, size_t rel)
{
  unsigned v = otv_peek_u16(c->t[c->b->base].p + p->a[c->b->base] + rel);
  EACH(c, k)
  if (otv_peek_u16(c->t[k].p + p->a[k] + rel) != v) {
    bad(c, OTV_E_UNSUPPORTED, p->a[k] + rel, "structure differs from the default (not merged yet)",
        k);
    return v;
  }
  return v;
}

/* n structural bytes equal in every master */
static bool same_bytes(gctx *c, const pos *p, size_t rel, size_t n)
{
  if (!need(c, p, rel, n)) return false;
  const uint8_t *d = c->t[c->b->base].p + p->a[c->b->base] + rel;
  EACH(c, k)
  if (memcmp(c->t[k].p + p->a[k] + rel, d, n))
    return bad(c, OTV_E_UNSUPPORTED, p->a[k] + rel, "coverage or classes differ (not merged yet)",
               k);
  return true;
}

/* The child at offset16 field rel from base (each master its own offset); false: NULL in all
 * (a NULL in some only is a structural difference). */
static bool child(gctx *c, const pos *base, const pos *p, size_t rel, pos *out)
{
  bool any = false, none = false;
  EACH(c, k)
  {
    unsigned off = otv_peek_u16(c->t[k].p + p->a[k] + rel);
    out->a[k] = base->a[k] + off;
    if (off)
      any = true;
    else
      none = true;
  }
  if (any && none) bad(c, OTV_E_UNSUPPORTED, p->a[c->b->base] + rel, "a NULL offset differs", 0);
  return any && !none;
}

/* ---- slots: values that may vary ---- */

/* The next slot, whose per-master values are given (v[k], masters of c->mask); tag: its
 * value-record group << 2 | field, or SIZE_MAX (an anchor or other coordinate). Pass 1 records
 * the values; pass 2 returns its item (UINT32_MAX: the value does not vary). */
static uint32_t slot_vals(gctx *c, const int32_t *v, size_t tag)
{
  size_t s = c->slot++;
  if (c->write) return s < c->slot_n ? c->item[s] : UINT32_MAX;
  unsigned mc = c->b->mc;
  if (OTV_RESERVE(&c->b->al, &c->vals, &c->vals_cap, (s + 1) * mc, sizeof *c->vals) ||
      OTV_RESERVE(&c->b->al, &c->sgroup, &c->sgroup_cap, s + 1, sizeof *c->sgroup)) {
    char name[5];
    otv_tag_to_string(c->tag, name); /* GPOS or BASE: the slots serve both mergers */
    if (!c->st) c->st = OTV_FAIL(c->b->err, NOMEM, 0, 0, "%s", name);
    return UINT32_MAX;
  }
  EACH(c, k) c->vals[s * mc + k] = v[k];
  c->sgroup[s] = tag;
  return UINT32_MAX;
}

/* The slot at p + rel (int16, checked by need): slot_vals of every master's value there. */
static uint32_t slot(gctx *c, const pos *p, size_t rel, size_t tag)
{
  int32_t v[OTV_BUILD_MAX_MASTERS];
  if (!c->write) EACH(c, k) v[k] = otv_peek_i16(c->t[k].p + p->a[k] + rel);
  return slot_vals(c, v, tag);
}

static otv_obj var_device(gctx *c, uint32_t item)
{
  otv_buf *o = otv_graph_push(c->g);
  if (!o) return OTV_OBJ_NONE;
  otv_buf_u16(o, (uint16_t)(item >> 16));
  otv_buf_u16(o, (uint16_t)item);
  otv_buf_u16(o, DEV_VARIATION_INDEX);
  return otv_graph_pop(c->g);
}

/* Bytes of the default master copied as a leaf object (pass 2). */
static otv_obj leaf(gctx *c, const pos *p, size_t n)
{
  if (!c->write) return OTV_OBJ_NONE;
  otv_buf *o = otv_graph_push(c->g);
  if (!o) return OTV_OBJ_NONE;
  otv_buf_bytes(o, c->t[c->b->base].p + p->a[c->b->base], n);
  return otv_graph_pop(c->g);
}

/* A table at m of `head` bytes whose uint16 at count_at (structural) counts the rec-byte
 * records after them: *n, and (pass 2) *o its new object opened, the head and records written
 * as zeros but for the count, for the caller to fill. False: not there in every master (c->st
 * set) or, in pass 2, no memory. */
static bool open_counted(gctx *c, const pos *m, size_t head, size_t count_at, size_t rec,
                         unsigned *n, otv_buf **o)
{
  *o = NULL;
  if (!need(c, m, 0, head)) return false;
  *n = su16(c, m, count_at);
  if (!need(c, m, head, rec * *n)) return false;
  if (!c->write) return true;
  if (!(*o = otv_graph_push(c->g))) return false;
  otv_buf_zeros(*o, head + rec * *n);
  otv_buf_put_u16(*o, count_at, (uint16_t)*n);
  return true;
}

static size_t coverage_len(gctx *c, const pos *p)
{
  if (!need(c, p, 0, 4)) return 0;
  unsigned f = su16(c, p, 0), n = su16(c, p, 2);
  size_t len = f == 1 ? 4 + 2 * (size_t)n : f == 2 ? 4 + 6 * (size_t)n : 0;
  if (!len) bad(c, OTV_E_BAD_VALUE, p->a[c->b->base], "coverage format", c->b->base);
  return len;
}

static size_t classdef_len(gctx *c, const pos *p)
{
  if (!need(c, p, 0, 4)) return 0;
  unsigned f = su16(c, p, 0);
  if (f == 1) {
    if (!need(c, p, 0, 6)) return 0;
    return 6 + 2 * (size_t)su16(c, p, 4);
  }
  if (f == 2) return 4 + 6 * (size_t)su16(c, p, 2);
  bad(c, OTV_E_BAD_VALUE, p->a[c->b->base], "class definition format", c->b->base);
  return 0;
}

static size_t device_len(gctx *c, const pos *p)
{
  if (!need(c, p, 0, 6)) return 0;
  unsigned s = su16(c, p, 0), e = su16(c, p, 2), f = su16(c, p, 4);
  if (f == DEV_VARIATION_INDEX) {
    bad(c, OTV_E_UNSUPPORTED, p->a[c->b->base], "a master has variation data", c->b->base);
    return 0;
  }
  if (f < 1 || f > 3 || e < s) return 6;
  size_t bits = ((size_t)e - s + 1) << (f + 1), words = (bits + 15) / 16;
  return 6 + 2 * words;
}

/* The table (coverage, class def, device) at offset16 field rel of p (from base; the field
 * checked by need), at *q in each master: its length, 0 when NULL or not equal in every master. */
static size_t same_child(gctx *c, const pos *base, const pos *p, size_t rel,
                         size_t (*len)(gctx *, const pos *), pos *q)
{
  if (!child(c, base, p, rel, q)) return 0;
  size_t n = len(c, q);
  return n && same_bytes(c, q, 0, n) ? n : 0;
}

/* A table (coverage, class def, device) at offset16 field rel of p (from base), checked equal
 * in every master, copied as a child linked at o's byte `field` (pass 2). */
static void copy_child(gctx *c, otv_buf *o, size_t field, const pos *base, const pos *p, size_t rel,
                       size_t (*len)(gctx *, const pos *))
{
  pos q;
  if (!need(c, p, rel, 2)) return;
  size_t n = same_child(c, base, p, rel, len, &q);
  if (!n) return;
  otv_obj id = leaf(c, &q, n);
  if (o && c->write) otv_graph_link(c->g, field, 2, id);
}

static unsigned vr_size(unsigned fmt)
{
  unsigned n = 0;
  for (unsigned b = 0; b < 8; b++) n += (fmt >> b) & 1;
  return 2 * n;
}

static unsigned popcount(unsigned v)
{
  unsigned n = 0;
  for (; v; v &= v - 1) n++;
  return n;
}

/* The group of the next ValueRecords sharing one ValueFormat (pass 2: its device bits). */
static size_t new_group(gctx *c, unsigned *gained)
{
  size_t g = c->group++;
  *gained = 0;
  if (c->write && g < c->gbits_cap) *gained = c->gbits[g];
  return g;
}

/* One ValueRecord of format fin at p + rel (devices from base) in group `group` (device bits
 * `gained` added to its format in pass 2, where it is appended to o; its device fields are
 * linked in the open object, whose bytes o holds). */
static void value_record(gctx *c, otv_buf *o, unsigned fin, unsigned gained, const pos *base,
                         const pos *p, size_t rel, size_t group)
{
  fin &= 0xFFu;
  if (!need(c, p, rel, vr_size(fin))) return;
  uint32_t item[4] = {UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX};
  for (unsigned k = 0; k < 4; k++)
    if (fin >> k & 1)
      item[k] = slot(c, p, rel + 2 * popcount(fin & ((1u << k) - 1)), group << 2 | k);
  if (!c->write) {
    /* hinting devices: equal in every master */
    for (unsigned k = 0; k < 4; k++)
      if (fin >> (4 + k) & 1) {
        pos d;
        same_child(c, base, p, rel + 2 * popcount(fin & ((1u << (4 + k)) - 1)), device_len, &d);
      }
    return;
  }
  unsigned fout = fin | gained << 4;
  const uint8_t *src = c->t[c->b->base].p + p->a[c->b->base] + rel;
  for (unsigned k = 0; k < 4; k++)
    if (fout >> k & 1)
      otv_buf_u16(
          o,
          (uint16_t)(fin >> k & 1 ? otv_peek_u16(src + 2 * popcount(fin & ((1u << k) - 1))) : 0));
  for (unsigned k = 0; k < 4; k++) {
    if (!(fout >> (4 + k) & 1)) continue;
    size_t field = o->len;
    otv_buf_u16(o, 0);
    if (item[k] != UINT32_MAX)
      otv_graph_link(c->g, field, 2, var_device(c, item[k]));
    else if (fin >> (4 + k) & 1)
      copy_child(c, o, field, base, p, rel + 2 * popcount(fin & ((1u << (4 + k)) - 1)), device_len);
  }
}

/* A coordinate table at offset16 field rel of p (from base): an Anchor (2 coordinates, format 2
 * adding 1 uint16) or a BaseCoord (1 coordinate, format 2 adding 2). Formats 1-3: format,
 * coordinates, then format 2's fields or format 3's device offsets. Written (pass 2) as format 3
 * with VariationIndex devices when a coordinate varies, else as it was. Returns its object. */
static otv_obj coord_table(gctx *c, const pos *base, const pos *p, size_t rel, unsigned coords,
                           unsigned extra, const char *what)
{
  pos q;
  if (!need(c, p, rel, 2) || !child(c, base, p, rel, &q)) return OTV_OBJ_NONE;
  size_t dev = 2 + 2 * (size_t)coords; /* format 2's fields, format 3's devices */
  if (!need(c, &q, 0, dev)) return OTV_OBJ_NONE;
  unsigned f = su16(c, &q, 0);
  size_t len = f == 1 ? dev : f == 2 ? dev + 2 * (size_t)extra : f == 3 ? 2 * dev - 2 : 0;
  if (!len || !need(c, &q, 0, len)) {
    bad(c, OTV_E_BAD_VALUE, q.a[c->b->base], what, c->b->base);
    return OTV_OBJ_NONE;
  }
  for (unsigned e = 0; f == 2 && e < extra; e++) su16(c, &q, dev + 2 * (size_t)e);
  uint32_t it[2];
  bool varies = false;
  for (unsigned k = 0; k < coords; k++) {
    it[k] = slot(c, &q, 2 + 2 * (size_t)k, SIZE_MAX);
    varies |= it[k] != UINT32_MAX;
  }
  if (!c->write) {
    for (unsigned k = 0; f == 3 && k < coords; k++) {
      pos d;
      same_child(c, &q, &q, dev + 2 * (size_t)k, device_len, &d);
    }
    return OTV_OBJ_NONE;
  }
  const uint8_t *src = c->t[c->b->base].p + q.a[c->b->base];
  otv_buf *o = otv_graph_push(c->g);
  if (!o) return OTV_OBJ_NONE;
  if (!varies && f != COORD_FORMAT_DEVICES) {
    otv_buf_bytes(o, src, len);
    return otv_graph_pop(c->g);
  }
  otv_buf_u16(o, COORD_FORMAT_DEVICES);
  otv_buf_bytes(o, src + 2, 2 * (size_t)coords);
  otv_buf_zeros(o, 2 * (size_t)coords);
  for (unsigned k = 0; k < coords; k++) {
    size_t field = dev + 2 * (size_t)k;
    if (it[k] != UINT32_MAX)
      otv_graph_link(c->g, field, 2, var_device(c, it[k]));
    else if (f == COORD_FORMAT_DEVICES)
      copy_child(c, o, field, &q, &q, field, device_len);
  }
  return otv_graph_pop(c->g);
}

/* An Anchor (spec: GPOS Anchor tables, formats 1-3) at offset16 field rel of p (from base). */
static otv_obj anchor(gctx *c, const pos *base, const pos *p, size_t rel)
{
  return coord_table(c, base, p, rel, 2, 1, "anchor format");
}

/* ---- the sub-tables ---- */

static void link_anchor(gctx *c, otv_buf *o, size_t field, const pos *base, const pos *p,
                        size_t rel)
{
  otv_obj a = anchor(c, base, p, rel);
  if (o && a) otv_graph_link(c->g, field, 2, a);
}

/* SinglePos formats 1 and 2 */
static void single_pos(gctx *c, otv_buf *o, const pos *p, unsigned fmt)
{
  if (!need(c, p, 0, 6)) return;
  unsigned vf = su16(c, p, 4) & 0xFFu, gained;
  size_t grp = new_group(c, &gained);
  if (o) {
    otv_buf_u16(o, (uint16_t)fmt);
    otv_buf_u16(o, 0);
    otv_buf_u16(o, (uint16_t)(vf | gained << 4));
  }
  copy_child(c, o, 2, p, p, 2, coverage_len);
  if (fmt == 1) {
    value_record(c, o, vf, gained, p, p, 6, grp);
    return;
  }
  if (!need(c, p, 6, 2)) return;
  unsigned n = su16(c, p, 6);
  if (o) otv_buf_u16(o, (uint16_t)n);
  for (unsigned i = 0; i < n && !c->st; i++)
    value_record(c, o, vf, gained, p, p, 8 + (size_t)i * vr_size(vf), grp);
}

static bool part_classes(gctx *c, const pos *p, uint32_t lo, uint32_t hi);
static bool part_rows(gctx *c, uint32_t n, uint32_t *lo, uint32_t *hi);

/* PairPos format 1 (PairSets) and 2 (class matrix) */
static void pair_pos(gctx *c, otv_buf *o, const pos *p, unsigned fmt)
{
  if (!need(c, p, 0, 10)) return;
  unsigned f1 = su16(c, p, 4) & 0xFFu, f2 = su16(c, p, 6) & 0xFFu, g1, g2;
  size_t grp1 = new_group(c, &g1), grp2 = new_group(c, &g2);
  unsigned o1 = f1 | g1 << 4, o2 = f2 | g2 << 4;
  if (o) {
    otv_buf_u16(o, (uint16_t)fmt);
    otv_buf_u16(o, 0);
    otv_buf_u16(o, (uint16_t)o1);
    otv_buf_u16(o, (uint16_t)o2);
  }
  size_t rs = vr_size(f1) + vr_size(f2);
  if (fmt == 1) {
    copy_child(c, o, 2, p, p, 2, coverage_len);
    unsigned n = su16(c, p, 8);
    if (o) otv_buf_u16(o, (uint16_t)n);
    if (!need(c, p, 10, 2 * (size_t)n)) return;
    size_t arr = o ? o->len : 0;
    if (o) otv_buf_zeros(o, 2 * (size_t)n);
    for (unsigned i = 0; i < n && !c->st; i++) {
      pos ps;
      if (!child(c, p, p, 10 + 2 * (size_t)i, &ps) || !need(c, &ps, 0, 2)) continue;
      unsigned pc = su16(c, &ps, 0);
      if (!need(c, &ps, 2, (size_t)pc * (2 + rs))) return;
      otv_buf *q = c->write ? otv_graph_push(c->g) : NULL;
      if (c->write && !q) return;
      if (q) otv_buf_u16(q, (uint16_t)pc);
      for (unsigned r = 0; r < pc && !c->st; r++) {
        size_t at = 2 + (size_t)r * (2 + rs);
        unsigned second = su16(c, &ps, at);
        if (q) otv_buf_u16(q, (uint16_t)second);
        value_record(c, q, f1, g1, &ps, &ps, at + 2, grp1);
        value_record(c, q, f2, g2, &ps, &ps, at + 2 + vr_size(f1), grp2);
      }
      if (q) otv_graph_link(c->g, arr + 2 * (size_t)i, 2, otv_graph_pop(c->g));
    }
    return;
  }
  if (!need(c, p, 0, 16)) return;
  unsigned n1 = su16(c, p, 12), n2 = su16(c, p, 14);
  uint32_t lo, hi;
  if (part_rows(c, n1, &lo, &hi) && o && !part_classes(c, p, lo, hi)) return;
  if (o) {
    otv_buf_u16(o, 0);
    otv_buf_u16(o, 0);
    otv_buf_u16(o, (uint16_t)(hi - lo));
    otv_buf_u16(o, (uint16_t)n2);
  }
  if (hi - lo == n1) { /* (a piece's: part_classes) */
    copy_child(c, o, 2, p, p, 2, coverage_len);
    copy_child(c, o, 8, p, p, 8, classdef_len);
  }
  copy_child(c, o, 10, p, p, 10, classdef_len);
  if (!need(c, p, 16, (size_t)n1 * n2 * rs)) return;
  /* the rows left out still own their slots (pass 2 reads the items by slot) */
  size_t per = (size_t)n2 * (popcount(f1 & 0x0Fu) + popcount(f2 & 0x0Fu));
  c->slot += lo * per;
  for (size_t i = (size_t)lo * n2; i < (size_t)hi * n2 && !c->st; i++) {
    value_record(c, o, f1, g1, p, p, 16 + i * rs, grp1);
    value_record(c, o, f2, g2, p, p, 16 + i * rs + vr_size(f1), grp2);
  }
  c->slot += (n1 - hi) * per;
}

/* CursivePos format 1 */
static void cursive_pos(gctx *c, otv_buf *o, const pos *p)
{
  if (!need(c, p, 0, 6)) return;
  unsigned n = su16(c, p, 4);
  if (!need(c, p, 6, 4 * (size_t)n)) return;
  if (o) {
    otv_buf_u16(o, 1);
    otv_buf_u16(o, 0);
    otv_buf_u16(o, (uint16_t)n);
    otv_buf_zeros(o, 4 * (size_t)n);
  }
  copy_child(c, o, 2, p, p, 2, coverage_len);
  for (unsigned i = 0; i < n && !c->st; i++)
    for (unsigned e = 0; e < 2; e++)
      link_anchor(c, o, 6 + 4 * (size_t)i + 2 * e, p, p, 6 + 4 * (size_t)i + 2 * e);
}

/* MarkArray: markCount, MarkRecords (markClass, markAnchor offset from the MarkArray) */
static otv_obj mark_array(gctx *c, const pos *m)
{
  unsigned n;
  otv_buf *o;
  if (!open_counted(c, m, 2, 0, 4, &n, &o)) return OTV_OBJ_NONE;
  for (unsigned i = 0; i < n && !c->st; i++) {
    unsigned cls = su16(c, m, 2 + 4 * (size_t)i);
    if (o) otv_buf_put_u16(o, 2 + 4 * (size_t)i, (uint16_t)cls);
    link_anchor(c, o, 4 + 4 * (size_t)i, m, m, 4 + 4 * (size_t)i);
  }
  return o ? otv_graph_pop(c->g) : OTV_OBJ_NONE;
}

/* BaseArray, Mark2Array, LigatureAttach: count, then count x per anchor offsets (from it) */
static otv_obj anchor_matrix(gctx *c, const pos *m, unsigned per)
{
  unsigned n;
  otv_buf *o;
  if (!open_counted(c, m, 2, 0, 2 * (size_t)per, &n, &o)) return OTV_OBJ_NONE;
  size_t cells = (size_t)n * per;
  for (size_t i = 0; i < cells && !c->st; i++) {
    pos q;
    if (!child(c, m, m, 2 + 2 * i, &q)) continue; /* NULL anchors stay NULL */
    link_anchor(c, o, 2 + 2 * i, m, m, 2 + 2 * i);
  }
  return o ? otv_graph_pop(c->g) : OTV_OBJ_NONE;
}

/* MarkBasePos, MarkLigPos, MarkMarkPos format 1 */
static void mark_pos(gctx *c, otv_buf *o, const pos *p, unsigned type)
{
  if (!need(c, p, 0, 12)) return;
  unsigned classes = su16(c, p, 6);
  if (o) {
    otv_buf_u16(o, 1);
    otv_buf_zeros(o, 4);
    otv_buf_u16(o, (uint16_t)classes);
    otv_buf_zeros(o, 4);
  }
  copy_child(c, o, 2, p, p, 2, coverage_len);
  copy_child(c, o, 4, p, p, 4, coverage_len);
  pos m;
  if (child(c, p, p, 8, &m)) {
    otv_obj id = mark_array(c, &m);
    if (o && id) otv_graph_link(c->g, 8, 2, id);
  }
  if (!child(c, p, p, 10, &m)) return;
  if (type != 5) {
    otv_obj id = anchor_matrix(c, &m, classes);
    if (o && id) otv_graph_link(c->g, 10, 2, id);
    return;
  }
  /* LigatureArray: ligatureCount, offsets (from it) to LigatureAttach tables */
  unsigned n;
  otv_buf *la;
  if (!open_counted(c, &m, 2, 0, 2, &n, &la)) return;
  for (unsigned i = 0; i < n && !c->st; i++) {
    pos at;
    if (!child(c, &m, &m, 2 + 2 * (size_t)i, &at)) continue;
    otv_obj id = anchor_matrix(c, &at, classes);
    if (la && id) otv_graph_link(c->g, 2 + 2 * (size_t)i, 2, id);
  }
  if (la) {
    otv_obj id = otv_graph_pop(c->g);
    if (o && id) otv_graph_link(c->g, 10, 2, id);
  }
}

/* ---- PairPos format 2 whose coverage or classes differ between masters ---- */

/* As fontTools' varLib merges them: the coverage is the union of the masters'; the first
 * glyphs' classes are the groups of glyphs that every master classes alike (a glyph a master
 * does not cover is its own kind there), the largest group class 0; the second glyphs' classes
 * likewise over every glyph (class 0: the glyphs class 0 in every master); a master's value
 * for a pair of classes is its record for their glyphs (zero where it does not cover the first
 * glyph); the ValueFormats are the union of the masters'. Needs one glyph order in every master
 * (the default's). */

typedef struct kern2 {
  uint32_t gc;
  uint16_t *c1, *c2; /* mc x gc: first-glyph class (0xFFFF: not covered), second-glyph class */
  uint32_t *n1;      /* new first class per glyph (UINT32_MAX: not covered anywhere) */
  uint32_t *n2;      /* new second class per glyph */
  uint32_t *rep1, *rep2;
  uint32_t cnt1, cnt2;
  uint64_t *tmp;
} kern2;

static int cmp_u32(const void *a, const void *b)
{
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

static int cmp_u64(const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* Class arrays of master k's PairPos format 2 at p (checked): c1 (0xFFFF where not covered), c2 */
static bool kern2_read(gctx *c, const otv_span t, size_t at, uint32_t gc, uint16_t *c1,
                       uint16_t *c2, unsigned k)
{
  for (uint32_t g = 0; g < gc; g++) c1[g] = 0xFFFF, c2[g] = 0;
  if (!otv_span_has(t, at, 16)) return bad(c, OTV_E_TRUNCATED, at, "PairPos", k);
  const uint8_t *p = t.p + at;
  unsigned n1 = otv_peek_u16(p + 12), n2 = otv_peek_u16(p + 14);
  size_t offs[3] = {at + otv_peek_u16(p + 2), at + otv_peek_u16(p + 8), at + otv_peek_u16(p + 10)};
  /* coverage: covered glyphs get class 0 for now */
  for (unsigned which = 0; which < 3; which++) {
    size_t o = offs[which];
    if (which && o == at) continue; /* a NULL ClassDef: every glyph class 0 */
    if (!otv_span_has(t, o, 4)) return bad(c, OTV_E_TRUNCATED, o, "coverage or ClassDef", k);
    unsigned f = otv_peek_u16(t.p + o);
    if (which == 0 || f == 2) {
      unsigned n = otv_peek_u16(t.p + o + 2);
      size_t rec = which == 0 && f == 1 ? 2 : 6;
      if ((f != 1 && f != 2) || !otv_span_has(t, o + 4, (size_t)n * rec))
        return bad(c, OTV_E_TRUNCATED, o, "coverage or ClassDef", k);
      for (unsigned i = 0; i < n; i++) {
        const uint8_t *q = t.p + o + 4 + (size_t)i * rec;
        unsigned s = otv_peek_u16(q), e = rec == 2 ? s : otv_peek_u16(q + 2);
        unsigned v = rec == 2 ? 0 : otv_peek_u16(q + 4);
        for (uint32_t g = s; g <= e && g < gc; g++) {
          if (which == 0)
            c1[g] = 0;
          else if (which == 1) {
            if (c1[g] != 0xFFFF) c1[g] = (uint16_t)(v < n1 ? v : 0);
          } else
            c2[g] = (uint16_t)(v < n2 ? v : 0);
        }
      }
      continue;
    }
    if (f != 1 || !otv_span_has(t, o, 6)) return bad(c, OTV_E_BAD_VALUE, o, "ClassDef format", k);
    unsigned s = otv_peek_u16(t.p + o + 2), n = otv_peek_u16(t.p + o + 4);
    if (!otv_span_has(t, o + 6, 2 * (size_t)n)) return bad(c, OTV_E_TRUNCATED, o, "ClassDef", k);
    for (unsigned i = 0; i < n && s + i < gc; i++) {
      unsigned v = otv_peek_u16(t.p + o + 6 + 2 * (size_t)i);
      if (which == 1) {
        if (c1[s + i] != 0xFFFF) c1[s + i] = (uint16_t)(v < n1 ? v : 0);
      } else
        c2[s + i] = (uint16_t)(v < n2 ? v : 0);
    }
  }
  return true;
}

/* Refine classes cls (per glyph; UINT32_MAX: left out) by each master's key[k * gc + g]; the
 * new ids are dense, numbered from `first` by first glyph. Returns the count. */
static uint32_t refine(gctx *c, kern2 *m, uint32_t *cls, const uint16_t *key, uint32_t first)
{
  uint32_t gc = m->gc, count = 0;
  EACH(c, k)
  {
    size_t n = 0;
    for (uint32_t g = 0; g < gc; g++)
      if (cls[g] != UINT32_MAX)
        m->tmp[n++] = (uint64_t)cls[g] << 33 | (uint64_t)key[(size_t)k * gc + g] << 16 | g;
    qsort(m->tmp, n, sizeof *m->tmp, cmp_u64);
    count = 0;
    for (size_t i = 0; i < n; i++) {
      if (i && (m->tmp[i] >> 16) != (m->tmp[i - 1] >> 16)) count++;
      cls[m->tmp[i] & 0xFFFF] = count;
    }
    count = n ? count + 1 : 0;
  }
  /* renumber by first glyph */
  for (uint32_t i = 0; i < gc; i++) m->tmp[i] = UINT64_MAX;
  uint32_t next = first;
  for (uint32_t g = 0; g < gc; g++) {
    if (cls[g] == UINT32_MAX) continue;
    if (m->tmp[cls[g]] == UINT64_MAX) m->tmp[cls[g]] = next++;
    cls[g] = (uint32_t)m->tmp[cls[g]];
  }
  return next - first;
}

/* A Coverage (format 1 or 2, the smaller) of the glyphs g with cls[g] != UINT32_MAX. */
static otv_obj coverage_of(gctx *c, const uint32_t *cls, uint32_t gc)
{
  uint32_t n = 0, ranges = 0;
  for (uint32_t g = 0; g < gc; g++)
    if (cls[g] != UINT32_MAX) n++, ranges += g == 0 || cls[g - 1] == UINT32_MAX;
  otv_buf *o = otv_graph_push(c->g);
  if (!o) return OTV_OBJ_NONE;
  bool f2 = 6 * (size_t)ranges < 2 * (size_t)n;
  otv_buf_u16(o, f2 ? 2 : 1);
  otv_buf_u16(o, (uint16_t)(f2 ? ranges : n));
  uint32_t idx = 0;
  for (uint32_t g = 0; g < gc; g++) {
    if (cls[g] == UINT32_MAX) continue;
    if (!f2) {
      otv_buf_u16(o, (uint16_t)g);
      continue;
    }
    if (g > 0 && cls[g - 1] != UINT32_MAX) continue;
    uint32_t e = g;
    while (e + 1 < gc && cls[e + 1] != UINT32_MAX) e++;
    otv_buf_u16(o, (uint16_t)g);
    otv_buf_u16(o, (uint16_t)e);
    otv_buf_u16(o, (uint16_t)idx);
    idx += e - g + 1;
  }
  return otv_graph_pop(c->g);
}

/* A ClassDef (format 1 or 2, the smaller) of cls (0 and UINT32_MAX: class 0, not listed). */
static otv_obj classdef_of(gctx *c, const uint32_t *cls, uint32_t gc)
{
  uint32_t lo = UINT32_MAX, hi = 0, ranges = 0;
  for (uint32_t g = 0; g < gc; g++) {
    uint32_t v = cls[g] == UINT32_MAX ? 0 : cls[g];
    if (!v) continue;
    if (lo == UINT32_MAX) lo = g;
    hi = g;
    uint32_t pv = g ? (cls[g - 1] == UINT32_MAX ? 0 : cls[g - 1]) : 0;
    ranges += g == 0 || pv != v;
  }
  otv_buf *o = otv_graph_push(c->g);
  if (!o) return OTV_OBJ_NONE;
  size_t len1 = lo == UINT32_MAX ? 6 : 6 + 2 * ((size_t)hi - lo + 1), len2 = 4 + 6 * (size_t)ranges;
  if (len1 <= len2) {
    otv_buf_u16(o, 1);
    otv_buf_u16(o, (uint16_t)(lo == UINT32_MAX ? 0 : lo));
    otv_buf_u16(o, (uint16_t)(lo == UINT32_MAX ? 0 : hi - lo + 1));
    for (uint32_t g = lo; lo != UINT32_MAX && g <= hi; g++)
      otv_buf_u16(o, (uint16_t)(cls[g] == UINT32_MAX ? 0 : cls[g]));
    return otv_graph_pop(c->g);
  }
  otv_buf_u16(o, 2);
  otv_buf_u16(o, (uint16_t)ranges);
  for (uint32_t g = 0; g < gc; g++) {
    uint32_t v = cls[g] == UINT32_MAX ? 0 : cls[g];
    uint32_t pv = g ? (cls[g - 1] == UINT32_MAX ? 0 : cls[g - 1]) : 0;
    if (!v || (g && pv == v)) continue;
    uint32_t e = g;
    while (e + 1 < gc && (cls[e + 1] == UINT32_MAX ? 0 : cls[e + 1]) == v) e++;
    otv_buf_u16(o, (uint16_t)g);
    otv_buf_u16(o, (uint16_t)e);
    otv_buf_u16(o, (uint16_t)v);
  }
  return otv_graph_pop(c->g);
}

/* A piece of the default's PairPos format 2 at p (pass 2, its object open): the coverage and
 * ClassDef1 of its class-1 rows [lo, hi), renumbered from 0, linked at fields 2 and 8. */
static bool part_classes(gctx *c, const pos *p, uint32_t lo, uint32_t hi)
{
  otv_builder *b = c->b;
  const otv_alloc *al = &b->al;
  uint32_t gc = b->m[b->base].glyph_count;
  uint16_t *c1 = otv_mem_calloc(al, (size_t)gc + 1, sizeof *c1);
  uint16_t *c2 = otv_mem_calloc(al, (size_t)gc + 1, sizeof *c2);
  uint32_t *n = otv_mem_calloc(al, (size_t)gc + 1, sizeof *n);
  bool ok = c1 && c2 && n;
  if (!ok && !c->st) c->st = OTV_FAIL(b->err, NOMEM, 0, 0, "GPOS");
  if (ok) ok = kern2_read(c, c->t[b->base], p->a[b->base], gc, c1, c2, b->base);
  if (ok) {
    for (uint32_t g = 0; g < gc; g++)
      n[g] = c1[g] != 0xFFFF && c1[g] >= lo && c1[g] < hi ? c1[g] - lo : UINT32_MAX;
    otv_graph_link(c->g, 2, 2, coverage_of(c, n, gc));
    otv_graph_link(c->g, 8, 2, classdef_of(c, n, gc));
  }
  if (c1) otv_mem_free(al, c1, ((size_t)gc + 1) * sizeof *c1);
  if (c2) otv_mem_free(al, c2, ((size_t)gc + 1) * sizeof *c2);
  if (n) otv_mem_free(al, n, ((size_t)gc + 1) * sizeof *n);
  return ok && !c->st;
}

/* The class-1 rows (or pair sets) [*lo, *hi) of n that pass 2 writes (c->lo, c->hi); sets
 * c->rows. Whether they are a part only. */
static bool part_rows(gctx *c, uint32_t n, uint32_t *lo, uint32_t *hi)
{
  c->rows = n;
  *lo = 0, *hi = n;
  if (!c->write || (c->lo == 0 && c->hi >= n)) return false;
  *lo = c->lo < n ? c->lo : n, *hi = c->hi < n ? c->hi : n;
  return true;
}

static void kern2_free(gctx *c, kern2 *m)
{
  const otv_alloc *al = &c->b->al;
  size_t mg = (size_t)c->b->mc * m->gc;
  otv_mem_free(al, m->c1, mg * sizeof *m->c1);
  otv_mem_free(al, m->c2, mg * sizeof *m->c2);
  otv_mem_free(al, m->n1, m->gc * sizeof *m->n1);
  otv_mem_free(al, m->n2, m->gc * sizeof *m->n2);
  otv_mem_free(al, m->rep1, (m->gc + 1) * sizeof *m->rep1);
  otv_mem_free(al, m->rep2, (m->gc + 1) * sizeof *m->rep2);
  otv_mem_free(al, m->tmp, ((size_t)m->gc + 1) * sizeof *m->tmp);
}

/* Whether the masters' PairPos at p are all format 2 with equal formats, coverage and classes
 * (then pair_pos merges them value by value). Reads nothing it has not checked. */
static bool pair2_same(gctx *c, const pos *p)
{
  const otv_span d = c->t[c->b->base];
  size_t da = p->a[c->b->base];
  EACH(c, k)
  {
    const otv_span t = c->t[k];
    size_t a = p->a[k];
    if (!otv_span_has(t, a, 16) || !otv_span_has(d, da, 16)) return true; /* errors later */
    if (otv_peek_u16(t.p + a) != 2 || memcmp(t.p + a + 4, d.p + da + 4, 4) ||
        memcmp(t.p + a + 12, d.p + da + 12, 4))
      return false;
    for (unsigned f = 0; f < 3; f++) {
      size_t rel = f == 0 ? 2 : 6 + 2 * f;
      size_t x = a + otv_peek_u16(t.p + a + rel), y = da + otv_peek_u16(d.p + da + rel);
      if (!otv_span_has(t, x, 4) || !otv_span_has(d, y, 4)) return true;
      size_t n = 4;
      unsigned fm = otv_peek_u16(d.p + y);
      if (f == 0)
        n = fm == 1 ? 4 + 2 * (size_t)otv_peek_u16(d.p + y + 2)
                    : 4 + 6 * (size_t)otv_peek_u16(d.p + y + 2);
      else if (fm == 2)
        n = 4 + 6 * (size_t)otv_peek_u16(d.p + y + 2);
      else if (otv_span_has(d, y, 6))
        n = 6 + 2 * (size_t)otv_peek_u16(d.p + y + 4);
      if (!otv_span_has(t, x, n) || !otv_span_has(d, y, n) || memcmp(t.p + x, d.p + y, n))
        return false;
    }
  }
  return true;
}

/* Whether every master has the default's glyph order (merging by glyph id needs it); else
 * unsupported, `what` naming the merge, at the master's sub-table p. */
static bool one_glyph_order(gctx *c, const pos *p, const char *what)
{
  const otv_builder *b = c->b;
  uint32_t gc = b->m[b->base].glyph_count;
  EACH(c, k)
  {
    bool same = b->m[k].glyph_count == gc;
    for (uint32_t g = 0; same && g < gc; g++) same = b->m[k].gid_of[g] == g;
    if (!same) return bad(c, OTV_E_UNSUPPORTED, p->a[k], what, k);
  }
  return true;
}

/* Master k's values of a merged pair into v[field][k] (fields 0-3: the first ValueRecord's
 * placements and advances, 4-7: the second's), from its record rec of ValueFormats f1 and f2
 * (the low nibbles: no devices); 0 where rec is NULL (no such pair) or lacks the field. */
static void pair_values(int32_t v[8][OTV_BUILD_MAX_MASTERS], unsigned k, const uint8_t *rec,
                        unsigned f1, unsigned f2)
{
  for (unsigned f = 0; f < 8; f++) {
    unsigned fm = f < 4 ? f1 : f2, bit = f & 3;
    size_t off = (f < 4 ? 0 : vr_size(f1)) + 2 * popcount(fm & ((1u << bit) - 1));
    v[f][k] = rec && (fm >> bit & 1) ? otv_peek_i16(rec + off) : 0;
  }
}

/* The two ValueFormats of merged pair records: the union of the masters' (no devices), the
 * device bits they gain (pass 2) and their value-record groups. */
typedef struct pair_vf {
  unsigned fv[2], gained[2];
  size_t grp[2];
} pair_vf;

/* A merged pair's two ValueRecords of the values v (see pair_values): each value a slot; pass 2
 * appends them to o (the default's values, a VariationIndex device linked where one varies). */
static void pair_records(gctx *c, otv_buf *o, int32_t v[8][OTV_BUILD_MAX_MASTERS],
                         const pair_vf *vf)
{
  for (unsigned half = 0; half < 2; half++) {
    unsigned fv = vf->fv[half], gained = vf->gained[half];
    size_t grp = vf->grp[half];
    uint32_t item[4] = {UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX};
    for (unsigned f = 0; f < 4; f++)
      if (fv >> f & 1) item[f] = slot_vals(c, v[4 * half + f], grp << 2 | f);
    if (!o) continue;
    for (unsigned f = 0; f < 4; f++)
      if (fv >> f & 1) otv_buf_u16(o, (uint16_t)v[4 * half + f][c->b->base]);
    for (unsigned f = 0; f < 4; f++) {
      if (!(gained >> f & 1)) continue;
      size_t field = o->len;
      otv_buf_u16(o, 0);
      if (item[f] != UINT32_MAX) otv_graph_link(c->g, field, 2, var_device(c, item[f]));
    }
  }
}

/* The merged PairPos format 2 (see above) into o (pass 2). */
static void pair2_merge(gctx *c, otv_buf *o, const pos *p)
{
  otv_builder *b = c->b;
  kern2 m;
  memset(&m, 0, sizeof m);
  m.gc = b->m[b->base].glyph_count;
  if (!one_glyph_order(c, p, "class kerning merged across glyph orders")) return;
  const otv_alloc *al = &b->al;
  size_t mg = (size_t)b->mc * m.gc;
  m.c1 = otv_mem_calloc(al, mg + 1, sizeof *m.c1);
  m.c2 = otv_mem_calloc(al, mg + 1, sizeof *m.c2);
  m.n1 = otv_mem_calloc(al, (size_t)m.gc + 1, sizeof *m.n1);
  m.n2 = otv_mem_calloc(al, (size_t)m.gc + 1, sizeof *m.n2);
  m.rep1 = otv_mem_calloc(al, (size_t)m.gc + 1, sizeof *m.rep1);
  m.rep2 = otv_mem_calloc(al, (size_t)m.gc + 1, sizeof *m.rep2);
  m.tmp = otv_mem_calloc(al, (size_t)m.gc + 1, sizeof *m.tmp);
  if (!m.c1 || !m.c2 || !m.n1 || !m.n2 || !m.rep1 || !m.rep2 || !m.tmp) {
    if (!c->st) c->st = OTV_FAIL(b->err, NOMEM, 0, 0, "GPOS");
    kern2_free(c, &m);
    return;
  }
  unsigned fv1 = 0, fv2 = 0;
  EACH(c, k)
  {
    if (!kern2_read(c, c->t[k], p->a[k], m.gc, m.c1 + (size_t)k * m.gc, m.c2 + (size_t)k * m.gc, k))
      break;
    const uint8_t *q = c->t[k].p + p->a[k];
    unsigned f1 = otv_peek_u16(q + 4), f2 = otv_peek_u16(q + 6);
    if ((f1 | f2) & 0xF0u) {
      bad(c, OTV_E_UNSUPPORTED, p->a[k], "Device tables in class kerning", k);
      break;
    }
    size_t rs = vr_size(f1) + vr_size(f2);
    if (!otv_span_has(c->t[k], p->a[k] + 16,
                      (size_t)otv_peek_u16(q + 12) * otv_peek_u16(q + 14) * rs)) {
      bad(c, OTV_E_TRUNCATED, p->a[k], "class records", k);
      break;
    }
    fv1 |= f1 & 0x0Fu, fv2 |= f2 & 0x0Fu;
  }
  if (c->st) {
    kern2_free(c, &m);
    return;
  }
  /* first classes: over the union of the coverages, largest class 0 */
  for (uint32_t g = 0; g < m.gc; g++) {
    m.n1[g] = UINT32_MAX;
    EACH(c, k) if (m.c1[(size_t)k * m.gc + g] != 0xFFFF) m.n1[g] = 0;
  }
  m.cnt1 = refine(c, &m, m.n1, m.c1, 0);
  for (uint32_t i = 0; i <= m.gc; i++) m.rep1[i] = 0, m.rep2[i] = UINT32_MAX;
  for (uint32_t g = m.gc; g-- > 0;)
    if (m.n1[g] != UINT32_MAX) m.rep1[m.n1[g]]++; /* sizes for now */
  uint32_t big = 0;
  for (uint32_t i = 1; i < m.cnt1; i++)
    if (m.rep1[i] > m.rep1[big]) big = i;
  for (uint32_t g = 0; g < m.gc; g++)
    if (m.n1[g] != UINT32_MAX) m.n1[g] = m.n1[g] == big ? 0 : m.n1[g] == 0 ? big : m.n1[g];
  for (uint32_t i = 0; i <= m.gc; i++) m.rep1[i] = UINT32_MAX;
  for (uint32_t g = 0; g < m.gc; g++)
    if (m.n1[g] != UINT32_MAX && m.rep1[m.n1[g]] == UINT32_MAX) m.rep1[m.n1[g]] = g;
  /* second classes: the glyphs some master classes (class 0: the rest) */
  for (uint32_t g = 0; g < m.gc; g++) {
    m.n2[g] = UINT32_MAX;
    EACH(c, k) if (m.c2[(size_t)k * m.gc + g]) m.n2[g] = 0;
  }
  m.cnt2 = refine(c, &m, m.n2, m.c2, 1) + 1;
  for (uint32_t g = 0; g < m.gc; g++) {
    if (m.n2[g] == UINT32_MAX) m.n2[g] = 0;
    if (m.rep2[m.n2[g]] == UINT32_MAX) m.rep2[m.n2[g]] = g;
  }
  if (m.cnt1 > 0xFFFF || m.cnt2 > 0xFFFF) {
    bad(c, OTV_E_LIMIT, p->a[b->base], "over 65535 classes", b->base);
    kern2_free(c, &m);
    return;
  }
  unsigned g1, g2;
  size_t grp1 = new_group(c, &g1), grp2 = new_group(c, &g2);
  uint32_t lo, hi;
  bool part = part_rows(c, m.cnt1, &lo, &hi);
  if (o) {
    otv_buf_u16(o, 2);
    otv_buf_u16(o, 0);
    otv_buf_u16(o, (uint16_t)(fv1 | g1 << 4));
    otv_buf_u16(o, (uint16_t)(fv2 | g2 << 4));
    otv_buf_u32(o, 0);
    otv_buf_u16(o, (uint16_t)(hi - lo));
    otv_buf_u16(o, (uint16_t)m.cnt2);
    /* a piece: its rows' first glyphs, classes numbered from 0 */
    uint32_t *n1 = part ? otv_mem_calloc(&b->al, (size_t)m.gc + 1, sizeof *n1) : m.n1;
    if (!n1) {
      if (!c->st) c->st = OTV_FAIL(b->err, NOMEM, 0, 0, "GPOS");
      kern2_free(c, &m);
      return;
    }
    for (uint32_t g = 0; part && g < m.gc; g++)
      n1[g] = m.n1[g] != UINT32_MAX && m.n1[g] >= lo && m.n1[g] < hi ? m.n1[g] - lo : UINT32_MAX;
    otv_graph_link(c->g, 2, 2, coverage_of(c, n1, m.gc));
    otv_graph_link(c->g, 8, 2, classdef_of(c, n1, m.gc));
    otv_graph_link(c->g, 10, 2, classdef_of(c, m.n2, m.gc));
    if (part) otv_mem_free(&b->al, n1, ((size_t)m.gc + 1) * sizeof *n1);
  }
  const pair_vf vf = {{fv1, fv2}, {g1, g2}, {grp1, grp2}};
  int32_t v[8][OTV_BUILD_MAX_MASTERS];
  if (!spend(c,
             (size_t)(hi - lo) * m.cnt2 * otv_mset_count(&c->mask) + (size_t)(hi - lo) * m.cnt2)) {
    kern2_free(c, &m);
    return;
  }
  /* the rows left out still own their slots (pass 2 reads the items by slot) */
  size_t per = (size_t)m.cnt2 * (popcount(fv1) + popcount(fv2));
  c->slot += lo * per;
  for (uint32_t i = lo; i < hi && !c->st; i++)
    for (uint32_t j = 0; j < m.cnt2 && !c->st; j++) {
      EACH(c, k)
      {
        const uint8_t *q = c->t[k].p + p->a[k];
        unsigned f1 = otv_peek_u16(q + 4) & 0x0Fu, f2 = otv_peek_u16(q + 6) & 0x0Fu;
        unsigned n2 = otv_peek_u16(q + 14);
        size_t rs = vr_size(f1) + vr_size(f2);
        uint16_t a = m.c1[(size_t)k * m.gc + m.rep1[i]];
        uint16_t cb = j == 0 || m.rep2[j] == UINT32_MAX ? 0 : m.c2[(size_t)k * m.gc + m.rep2[j]];
        const uint8_t *rec = a == 0xFFFF ? NULL : q + 16 + ((size_t)a * n2 + cb) * rs;
        pair_values(v, k, rec, f1, f2);
      }
      pair_records(c, o, v, &vf);
    }
  c->slot += (m.cnt1 - hi) * per;
  kern2_free(c, &m);
}

/* PairPos format 1 in every master, merged as fontTools' varLib does: the first glyphs are the
 * union of the masters' coverages, each one's pair set the union of its second glyphs, a pair a
 * master lacks 0 in that master, the ValueFormats the union of the masters'. (Masters whose pair
 * sets agree come out as they were.) Needs one glyph order in every master. */
static void pair1_merge(gctx *c, otv_buf *o, const pos *p)
{
  otv_builder *b = c->b;
  uint32_t gc = b->m[b->base].glyph_count;
  if (!one_glyph_order(c, p, "pair kerning merged across glyph orders")) return;
  const otv_alloc *al = &b->al;
  size_t mg = (size_t)b->mc * gc;
  /* per master and glyph: the pair set's offset in that master's GPOS (0: not covered) */
  size_t *set = otv_mem_calloc(al, mg + 1, sizeof *set);
  uint32_t *first = otv_mem_calloc(al, (size_t)gc + 1, sizeof *first);
  uint8_t *second = otv_mem_calloc(al, (size_t)gc + 1, 1);
  uint32_t *list = otv_mem_calloc(al, (size_t)gc + 1, sizeof *list);
  if (!set || !first || !second || !list) {
    if (!c->st) c->st = OTV_FAIL(b->err, NOMEM, 0, 0, "GPOS");
    goto done;
  }
  unsigned fv1 = 0, fv2 = 0;
  for (uint32_t g = 0; g < gc; g++) first[g] = UINT32_MAX;
  EACH(c, k)
  {
    const otv_span t = c->t[k];
    size_t at = p->a[k];
    if (!otv_span_has(t, at, 10)) {
      bad(c, OTV_E_TRUNCATED, at, "PairPos", k);
      goto done;
    }
    unsigned f1 = otv_peek_u16(t.p + at + 4), f2 = otv_peek_u16(t.p + at + 6);
    unsigned n = otv_peek_u16(t.p + at + 8);
    if ((f1 | f2) & 0xF0u) {
      bad(c, OTV_E_UNSUPPORTED, at, "Device tables in pair kerning", k);
      goto done;
    }
    fv1 |= f1 & 0x0Fu, fv2 |= f2 & 0x0Fu;
    size_t cov = at + otv_peek_u16(t.p + at + 2);
    if (!otv_span_has(t, at + 10, 2 * (size_t)n) || !otv_span_has(t, cov, 4)) {
      bad(c, OTV_E_TRUNCATED, at, "PairPos", k);
      goto done;
    }
    unsigned cf = otv_peek_u16(t.p + cov), cn = otv_peek_u16(t.p + cov + 2);
    size_t rec = cf == 1 ? 2 : 6;
    if ((cf != 1 && cf != 2) || !otv_span_has(t, cov + 4, (size_t)cn * rec)) {
      bad(c, OTV_E_TRUNCATED, cov, "coverage", k);
      goto done;
    }
    size_t rs = 2 + vr_size(f1) + vr_size(f2);
    for (unsigned i = 0; i < cn; i++) {
      const uint8_t *q = t.p + cov + 4 + (size_t)i * rec;
      unsigned s0 = otv_peek_u16(q), e0 = rec == 2 ? s0 : otv_peek_u16(q + 2);
      unsigned idx = rec == 2 ? i : otv_peek_u16(q + 4);
      for (uint32_t g = s0; g <= e0 && g < gc; g++, idx++) {
        if (idx >= n) continue; /* a coverage index past the pair sets: no pairs */
        size_t ps = at + otv_peek_u16(t.p + at + 10 + 2 * (size_t)idx);
        if (!otv_span_has(t, ps, 2) ||
            !otv_span_has(t, ps + 2, (size_t)otv_peek_u16(t.p + ps) * rs)) {
          bad(c, OTV_E_TRUNCATED, ps, "pair set", k);
          goto done;
        }
        set[(size_t)k * gc + g] = ps;
        first[g] = 0;
      }
    }
  }
  unsigned g1, g2;
  size_t grp1 = new_group(c, &g1), grp2 = new_group(c, &g2);
  uint32_t nsets = 0;
  for (uint32_t g = 0; g < gc; g++) nsets += first[g] != UINT32_MAX;
  uint32_t lo, hi;
  bool part = part_rows(c, nsets, &lo, &hi);
  size_t arr = 0;
  if (o) {
    otv_buf_u16(o, 1);
    otv_buf_u16(o, 0);
    otv_buf_u16(o, (uint16_t)(fv1 | g1 << 4));
    otv_buf_u16(o, (uint16_t)(fv2 | g2 << 4));
    otv_buf_u16(o, (uint16_t)(hi - lo));
    arr = o->len;
    otv_buf_zeros(o, 2 * (size_t)(hi - lo));
    /* a piece: the first glyphs of its pair sets (list's room: filled again below) */
    for (uint32_t g = 0, i = 0; part && g < gc; g++) {
      list[g] = first[g] != UINT32_MAX && i >= lo && i < hi ? 0 : UINT32_MAX;
      i += first[g] != UINT32_MAX;
    }
    otv_graph_link(c->g, 2, 2, coverage_of(c, part ? list : first, gc));
  }
  uint32_t si = 0;
  const pair_vf vf = {{fv1, fv2}, {g1, g2}, {grp1, grp2}};
  int32_t v[8][OTV_BUILD_MAX_MASTERS];
  for (uint32_t a = 0; a < gc && !c->st; a++) {
    if (first[a] == UINT32_MAX) continue;
    /* the second glyphs of any master, listed once (second[] marks them), sorted */
    uint32_t pc = 0;
    EACH(c, k)
    {
      size_t ps = set[(size_t)k * gc + a];
      if (!ps) continue;
      const uint8_t *q = c->t[k].p + p->a[k];
      size_t rs = 2 + vr_size(otv_peek_u16(q + 4)) + vr_size(otv_peek_u16(q + 6));
      unsigned n = otv_peek_u16(c->t[k].p + ps);
      if (!spend(c, n)) break;
      for (unsigned r = 0; r < n; r++) {
        unsigned g = otv_peek_u16(c->t[k].p + ps + 2 + (size_t)r * rs);
        if (g < gc && !second[g]) second[g] = 1, list[pc++] = g;
      }
    }
    if (c->st) break;
    qsort(list, pc, sizeof *list, cmp_u32);
    for (uint32_t i = 0; i < pc; i++) second[list[i]] = 0;
    if (si < lo || si >= hi) { /* not in this piece: its slots skipped (pass 2) */
      c->slot += (size_t)pc * (popcount(fv1) + popcount(fv2));
      si++;
      continue;
    }
    otv_buf *q2 = c->write ? otv_graph_push(c->g) : NULL;
    if (c->write && !q2) break;
    if (q2) otv_buf_u16(q2, (uint16_t)pc);
    const uint8_t *recs[OTV_BUILD_MAX_MASTERS]; /* per master: this first glyph's records */
    EACH(c, k) recs[k] = NULL;
    for (uint32_t li = 0; li < pc && !c->st; li++) {
      uint32_t bg = list[li];
      EACH(c, k)
      {
        size_t ps = set[(size_t)k * gc + a];
        const uint8_t *q = c->t[k].p + p->a[k];
        unsigned f1 = otv_peek_u16(q + 4) & 0x0Fu, f2 = otv_peek_u16(q + 6) & 0x0Fu;
        size_t rs = 2 + vr_size(f1) + vr_size(f2);
        unsigned n = ps ? otv_peek_u16(c->t[k].p + ps) : 0;
        if (li == 0) recs[k] = ps ? c->t[k].p + ps + 2 : NULL;
        const uint8_t *rec = NULL;
        /* pair sets are sorted by second glyph (spec): binary search, then a check */
        unsigned lo2 = 0, hi2 = n;
        while (lo2 < hi2) {
          unsigned mid = (lo2 + hi2) / 2;
          if (otv_peek_u16(recs[k] + (size_t)mid * rs) < bg)
            lo2 = mid + 1;
          else
            hi2 = mid;
        }
        if (lo2 < n && otv_peek_u16(recs[k] + (size_t)lo2 * rs) == bg)
          rec = recs[k] + (size_t)lo2 * rs + 2;
        else /* not sorted (hostile or careless): a linear scan, counted */
          for (unsigned r = 0; r < n && !rec && spend(c, 1); r++)
            if (otv_peek_u16(recs[k] + (size_t)r * rs) == bg) rec = recs[k] + (size_t)r * rs + 2;
        pair_values(v, k, rec, f1, f2);
      }
      if (q2) otv_buf_u16(q2, (uint16_t)bg);
      pair_records(c, q2, v, &vf);
    }
    if (q2) otv_graph_link(c->g, arr + 2 * (size_t)(si - lo), 2, otv_graph_pop(c->g));
    si++;
  }
done:
  if (set) otv_mem_free(al, set, (mg + 1) * sizeof *set);
  if (first) otv_mem_free(al, first, ((size_t)gc + 1) * sizeof *first);
  if (second) otv_mem_free(al, second, (size_t)gc + 1);
  if (list) otv_mem_free(al, list, ((size_t)gc + 1) * sizeof *list);
}

/* Whether the sub-table at p (its format checked by need) has format fmt in every master. */
static bool all_format(gctx *c, const pos *p, unsigned fmt)
{
  bool all = true;
  EACH(c, k) all &= otv_peek_u16(c->t[k].p + p->a[k]) == fmt;
  return all;
}

/* The PairPos at p merged by `merge` (pair1_merge, pair2_merge): pass 2, its object. */
static otv_obj pair_merged(gctx *c, const pos *p, void (*merge)(gctx *, otv_buf *, const pos *))
{
  otv_buf *o = c->write ? otv_graph_push(c->g) : NULL;
  if (c->write && !o) return OTV_OBJ_NONE;
  merge(c, o, p);
  return o ? otv_graph_pop(c->g) : OTV_OBJ_NONE;
}

/* The sub-table at p of lookup type `type`: rebuilt (pass 2: its object), or OTV_OBJ_NONE for
 * the types left as they are. */
static otv_obj subtable(gctx *c, const pos *p, unsigned type)
{
  if (type < 1 || type > 6 || !need(c, p, 0, 2)) return OTV_OBJ_NONE;
  if (type == 2 && all_format(c, p, 1)) return pair_merged(c, p, pair1_merge);
  if (type == 2 && !pair2_same(c, p) && all_format(c, p, 2)) return pair_merged(c, p, pair2_merge);
  unsigned fmt = su16(c, p, 0);
  if (c->st) return OTV_OBJ_NONE;
  if ((type == 1 || type == 2) ? (fmt < 1 || fmt > 2) : fmt != 1) {
    bad(c, OTV_E_UNSUPPORTED, p->a[c->b->base], "sub-table format", c->b->base);
    return OTV_OBJ_NONE;
  }
  otv_buf *o = c->write ? otv_graph_push(c->g) : NULL;
  if (c->write && !o) return OTV_OBJ_NONE;
  switch (type) {
  case 1: single_pos(c, o, p, fmt); break;
  case 2: pair_pos(c, o, p, fmt); break;
  case 3: cursive_pos(c, o, p); break;
  default: mark_pos(c, o, p, type); break;
  }
  return o ? otv_graph_pop(c->g) : OTV_OBJ_NONE;
}

/* ---- the lookups, both passes ---- */

typedef struct sub_out {
  size_t at;       /* pass 2: where the rebuilt sub-table is in the blob, or SIZE_MAX */
  size_t orig;     /* the default's sub-table (Extension resolved), offset in its GPOS */
  unsigned type;   /* the lookup type it has (resolved) */
  unsigned lookup; /* its lookup's index (a split sub-table: several in a row) */
} sub_out;

typedef struct subs_out {
  sub_out *v;
  size_t n, cap;
} subs_out;

/* Append a sub-table to s (pass 2); false (c->st set) without memory. */
static bool sub_add(gctx *c, subs_out *s, size_t at, size_t orig, unsigned type, unsigned lookup)
{
  if (OTV_RESERVE(&c->b->al, &s->v, &s->cap, s->n + 1, sizeof *s->v)) {
    if (!c->st) c->st = OTV_FAIL(c->b->err, NOMEM, 0, 0, "GPOS");
    return false;
  }
  s->v[s->n++] = (sub_out){at, orig, type, lookup};
  return true;
}

/* A PairPos sub-table at p (pass 2) whose rebuilt object cannot be written with 16-bit offsets
 * (OTV_E_LIMIT): written again as pieces of consecutive rows (format 1: pair sets, so ranges
 * of the coverage's first glyphs; format 2: class-1 rows, each piece with its own coverage and
 * ClassDef1), each as many rows as fit: from the rows left, all, then half of them while they
 * do not fit. The pieces are sub-tables of the same lookup in a row: a first glyph is in one
 * piece only, so the lookup applies the same records (spec: the first sub-table whose coverage
 * holds the glyph applies). slot0 and group0: the counters at the sub-table's start (each piece
 * reads the same items); rows: its row count. */
static void split_pair(gctx *c, const pos *p, size_t slot0, size_t group0, uint32_t rows,
                       subs_out *subs, otv_buf *blob)
{
  size_t slot1 = c->slot, group1 = c->group;
  uint32_t lo = 0, hi = rows;
  while (lo < rows && !c->st) {
    c->slot = slot0, c->group = group0;
    c->lo = lo, c->hi = hi;
    otv_obj id = subtable(c, p, 2);
    if (c->st) break;
    if (!id || OTV_NEVER(c->slot != slot1 || c->group != group1)) { /* no id: graph memory */
      c->st = OTV_FAIL(c->b->err, NOMEM, OTV_T_GPOS, 0, "PairPos split");
      break;
    }
    size_t at = blob->len;
    otv_status st = otv_graph_write(c->g, id, blob, NULL);
    if (st == OTV_E_LIMIT && hi - lo > 1) {
      hi = lo + (hi - lo) / 2;
      continue;
    }
    if (st) {
      c->st = otv_fail(c->b->err, st, OTV_T_GPOS, 0,
                       "lookup %u sub-table %u: rebuilt (one row of PairPos past 64 KiB)",
                       c->lookup, c->sub);
      break;
    }
    if (!sub_add(c, subs, at, p->a[c->b->base], 2, c->lookup)) break;
    lo = hi, hi = rows;
  }
  c->lo = 0, c->hi = UINT32_MAX;
}

/* Walk every lookup's sub-tables; pass 2 fills subs and blob (pass 1 counts them in *sub_n). */
static void walk(gctx *c, const pos *ll, unsigned lookups, subs_out *subs, size_t *sub_n,
                 otv_buf *blob)
{
  size_t n = 0;
  for (unsigned i = 0; i < lookups && !c->st; i++) {
    pos L;
    c->lookup = i, c->sub = 0;
    if (!child(c, ll, ll, 2 + 2 * (size_t)i, &L) || !need(c, &L, 0, 6)) {
      if (!c->st) bad(c, OTV_E_BAD_OFFSET, ll->a[c->b->base], "NULL lookup", c->b->base);
      return;
    }
    unsigned type = su16(c, &L, 0), count = su16(c, &L, 4), flag = su16(c, &L, 2);
    /* spec: markFilteringSet follows the offsets when lookupFlag has useMarkFilteringSet */
    if (!need(c, &L, 6, 2 * (size_t)count + (flag & 0x10 ? 2 : 0))) return;
    if (flag & 0x10) su16(c, &L, 6 + 2 * (size_t)count);
    for (unsigned j = 0; j < count && !c->st; j++) {
      pos S;
      c->sub = j;
      if (!child(c, &L, &L, 6 + 2 * (size_t)j, &S)) {
        bad(c, OTV_E_BAD_OFFSET, L.a[c->b->base], "NULL sub-table", c->b->base);
        return;
      }
      unsigned t = type;
      if (type == EXT_TYPE) {
        if (!need(c, &S, 0, 8)) return;
        su16(c, &S, 0);
        t = su16(c, &S, 2);
        if (t == EXT_TYPE) {
          bad(c, OTV_E_BAD_VALUE, S.a[c->b->base], "Extension of an Extension", c->b->base);
          return;
        }
        EACH(c, k) S.a[k] += otv_peek_u32(c->t[k].p + S.a[k] + 4);
      }
      size_t slot0 = c->slot, group0 = c->group;
      c->rows = 0;
      otv_obj id = subtable(c, &S, t);
      n++;
      if (!c->write || c->st) continue;
      if (OTV_NEVER(!subs)) return;
      size_t at = SIZE_MAX;
      if (id) {
        at = blob->len;
        otv_status st = otv_graph_write(c->g, id, blob, NULL);
        if (st == OTV_E_LIMIT && t == 2 && c->rows > 1) {
          split_pair(c, &S, slot0, group0, c->rows, subs, blob);
          continue;
        }
        if (st) {
          c->st = otv_fail(c->b->err, st, OTV_T_GPOS, 0, "lookup %u sub-table %u: rebuilt", i, j);
          return;
        }
      }
      if (!sub_add(c, subs, at, S.a[c->b->base], t, i)) return;
    }
  }
  *sub_n = n;
}

/* The number of subs of lookup i from *si on (advanced past them). */
static size_t subs_of(const sub_out *subs, size_t sub_n, size_t *si, unsigned i)
{
  size_t n = 0;
  for (; *si < sub_n && subs[*si].lookup == i; ++*si) n++;
  return n;
}

/* The intermediate GPOS (see the top of the file) of the default's table d: each lookup's
 * sub-tables are subs (in lookup order; a split PairPos adds several). */
static otv_status intermediate(gctx *c, otv_span d, unsigned lookups, const sub_out *subs,
                               size_t sub_n, const otv_buf *blob, otv_buf *o)
{
  otv_builder *b = c->b;
  unsigned minor = otv_peek_u16(d.p + 2);
  size_t hdr = minor >= 1 ? 14 : 10, ll = hdr;
  size_t lk = ll + 2 + 2 * (size_t)lookups, ext = lk;
  size_t L = otv_peek_u16(d.p + 8);
  /* the lookups' sizes (type, flag, count, offsets, markFilteringSet) */
  size_t si = 0;
  for (unsigned i = 0; i < lookups; i++) {
    size_t at = L + otv_peek_u16(d.p + L + 2 + 2 * (size_t)i); /* in range: walked */
    unsigned flag = otv_peek_u16(d.p + at + 2);
    size_t count = subs_of(subs, sub_n, &si, i);
    if (count > 0xFFFF)
      return OTV_FAIL(b->err, LIMIT, OTV_T_GPOS, 0, "lookup %u: over 65535 sub-tables", i);
    ext += 6 + 2 * count + (flag & 0x10 ? 2 : 0);
  }
  size_t copy = ext + 8 * sub_n, after = copy + d.len;
  unsigned sl = otv_peek_u16(d.p + 4), fl = otv_peek_u16(d.p + 6);
  if (ext + 8 * sub_n > 0xFFFF || (sl && copy + sl > 0xFFFF) || (fl && copy + fl > 0xFFFF))
    return OTV_FAIL(b->err, LIMIT, OTV_T_GPOS, 0, "merged GPOS: lists past 64 KiB");
  otv_buf_u16(o, 1);
  otv_buf_u16(o, (uint16_t)minor);
  otv_buf_u16(o, (uint16_t)(sl ? copy + sl : 0));
  otv_buf_u16(o, (uint16_t)(fl ? copy + fl : 0));
  otv_buf_u16(o, (uint16_t)ll);
  if (minor >= 1) {
    uint32_t fv = d.len >= 14 ? otv_peek_u32(d.p + 10) : 0;
    otv_buf_u32(o, fv ? (uint32_t)(copy + fv) : 0);
  }
  otv_buf_u16(o, (uint16_t)lookups);
  size_t at_l = lk;
  si = 0;
  for (unsigned i = 0; i < lookups; i++) {
    size_t at = L + otv_peek_u16(d.p + L + 2 + 2 * (size_t)i);
    unsigned flag = otv_peek_u16(d.p + at + 2);
    size_t count = subs_of(subs, sub_n, &si, i);
    otv_buf_u16(o, (uint16_t)(at_l - ll));
    at_l += 6 + 2 * count + (flag & 0x10 ? 2 : 0);
  }
  size_t at_e = ext;
  at_l = lk;
  si = 0;
  for (unsigned i = 0; i < lookups; i++) {
    size_t at = L + otv_peek_u16(d.p + L + 2 + 2 * (size_t)i);
    unsigned flag = otv_peek_u16(d.p + at + 2), count0 = otv_peek_u16(d.p + at + 4);
    size_t count = subs_of(subs, sub_n, &si, i);
    otv_buf_u16(o, EXT_TYPE);
    otv_buf_u16(o, (uint16_t)flag);
    otv_buf_u16(o, (uint16_t)count);
    for (size_t j = 0; j < count; j++) otv_buf_u16(o, (uint16_t)(at_e + 8 * j - at_l));
    if (flag & 0x10) otv_buf_u16(o, otv_peek_u16(d.p + at + 6 + 2 * (size_t)count0));
    at_l += 6 + 2 * count + (flag & 0x10 ? 2 : 0);
    at_e += 8 * count;
  }
  for (si = 0; si < sub_n; si++) {
    size_t here = ext + 8 * si;
    size_t target = subs[si].at != SIZE_MAX ? after + subs[si].at : copy + subs[si].orig;
    otv_buf_u16(o, 1);
    otv_buf_u16(o, (uint16_t)subs[si].type);
    otv_buf_u32(o, (uint32_t)(target - here));
  }
  otv_buf_bytes(o, d.p, d.len);
  otv_buf_bytes(o, blob->p, blob->len);
  if (o->len > UINT32_MAX) return OTV_FAIL(b->err, LIMIT, OTV_T_GPOS, 0, "merged GPOS over 4 GiB");
  return o->failed ? OTV_FAIL(b->err, NOMEM, 0, 0, "GPOS") : OTV_E_OK;
}

/* ---- GDEF ligature carets (spec: GDEF LigCaretList, CaretValue formats 1-3): a caret
 * coordinate that differs becomes format 3 with a VariationIndex device (in the same store) ---- */

/* The masters' GDEF LigCaretList side by side (c->t swapped to the GDEF tables by the caller);
 * pass 2: the rebuilt list's object. */
static otv_obj lig_carets(gctx *c, const pos *root)
{
  pos l;
  c->where = "GDEF ligature carets";
  if (!need(c, root, 0, 12) || !child(c, root, root, 8, &l) || !need(c, &l, 0, 4)) {
    c->where = NULL;
    return OTV_OBJ_NONE;
  }
  unsigned n = su16(c, &l, 2);
  otv_buf *o = c->write ? otv_graph_push(c->g) : NULL;
  if (o) {
    otv_buf_u16(o, 0);
    otv_buf_u16(o, (uint16_t)n);
    otv_buf_zeros(o, 2 * (size_t)n);
  }
  copy_child(c, o, 0, &l, &l, 0, coverage_len);
  for (unsigned i = 0; i < n && !c->st && need(c, &l, 4, 2 * (size_t)n); i++) {
    pos g;
    if (!child(c, &l, &l, 4 + 2 * (size_t)i, &g) || !need(c, &g, 0, 2)) continue;
    unsigned cc = su16(c, &g, 0);
    if (!need(c, &g, 2, 2 * (size_t)cc)) break;
    otv_buf *lg = c->write ? otv_graph_push(c->g) : NULL;
    if (lg) {
      otv_buf_u16(lg, (uint16_t)cc);
      otv_buf_zeros(lg, 2 * (size_t)cc);
    }
    for (unsigned k = 0; k < cc && !c->st; k++) {
      pos v;
      if (!child(c, &g, &g, 2 + 2 * (size_t)k, &v) || !need(c, &v, 0, 4)) continue;
      unsigned f = su16(c, &v, 0);
      if (f == 2) { /* a point index: no coordinate to vary */
        su16(c, &v, 2);
        otv_obj id = leaf(c, &v, 4);
        if (lg && id) otv_graph_link(c->g, 2 + 2 * (size_t)k, 2, id);
        continue;
      }
      if ((f != 1 && f != 3) || !need(c, &v, 0, f == 3 ? 6 : 4)) {
        bad(c, OTV_E_BAD_VALUE, v.a[c->b->base], "CaretValue format", c->b->base);
        break;
      }
      uint32_t it = slot(c, &v, 2, SIZE_MAX);
      if (!lg) {
        pos dv;
        if (f == 3) same_child(c, &v, &v, 4, device_len, &dv);
        continue;
      }
      otv_buf *cv = otv_graph_push(c->g);
      if (!cv) break;
      otv_buf_u16(cv, it != UINT32_MAX || f == 3 ? 3 : 1);
      otv_buf_bytes(cv, c->t[c->b->base].p + v.a[c->b->base] + 2, 2);
      if (it != UINT32_MAX || f == 3) {
        otv_buf_u16(cv, 0);
        if (it != UINT32_MAX)
          otv_graph_link(c->g, 4, 2, var_device(c, it));
        else
          copy_child(c, cv, 4, &v, &v, 4, device_len);
      }
      otv_graph_link(c->g, 2 + 2 * (size_t)k, 2, otv_graph_pop(c->g));
    }
    if (lg) otv_graph_link(c->g, 4 + 2 * (size_t)i, 2, otv_graph_pop(c->g));
  }
  c->where = NULL;
  return o ? otv_graph_pop(c->g) : OTV_OBJ_NONE;
}

/* Run lig_carets over the masters' GDEF tables (those with a GPOS; each must have a GDEF with
 * a LigCaretList when the default's has one). */
static otv_obj carets(gctx *c)
{
  otv_builder *b = c->b;
  otv_span d = otv_sfnt_find(&b->m[b->base].sfnt, OTV_T_GDEF);
  if (d.len < 12 || !otv_peek_u16(d.p + 8)) return OTV_OBJ_NONE;
  otv_span saved[OTV_BUILD_MAX_MASTERS];
  memcpy(saved, c->t, sizeof saved);
  otv_mset mask = c->mask;
  EACH(c, k) c->t[k] = otv_sfnt_find(&b->m[k].sfnt, OTV_T_GDEF);
  pos root;
  memset(&root, 0, sizeof root);
  otv_obj id = lig_carets(c, &root);
  memcpy(c->t, saved, sizeof saved);
  c->mask = mask;
  return id;
}

/* GDEF version 1.3 with the store: the default's GDEF (copied after the new header, its
 * offsets moved) or an empty one, then the store. */
static otv_status gdef(gctx *c, const otv_buf *store, const otv_buf *lcl)
{
  otv_builder *b = c->b;
  otv_span d = otv_sfnt_find(&b->m[b->base].sfnt, OTV_T_GDEF);
  unsigned nf = 0;
  size_t old_hdr = 0;
  if (d.len) {
    if (d.len < 12 || otv_peek_u16(d.p) != 1)
      return OTV_FAIL(b->err, BAD_VALUE, OTV_T_GDEF, 0, "GDEF header");
    unsigned minor = otv_peek_u16(d.p + 2);
    old_hdr = minor >= 3 ? 18 : minor >= 2 ? 14 : 12;
    if (d.len < old_hdr) return OTV_FAIL(b->err, TRUNCATED, OTV_T_GDEF, 0, "GDEF header");
    if (minor >= 3 && otv_peek_u32(d.p + 14))
      return OTV_FAIL(b->err, UNSUPPORTED, OTV_T_GDEF, 14, "the default master has variation data");
    nf = minor >= 2 ? 5 : 4;
  }
  otv_buf raw;
  otv_buf_init(&raw, &b->al);
  otv_buf_u16(&raw, 1);
  otv_buf_u16(&raw, 3);
  for (unsigned f = 0; f < 5; f++) {
    size_t off = f < nf ? otv_peek_u16(d.p + 4 + 2 * (size_t)f) : 0;
    if (f == 2 && lcl && lcl->len) off = d.len; /* the rebuilt LigCaretList, after the copy */
    if (off && 18 + off > 0xFFFF) {
      otv_buf_free(&raw);
      return OTV_FAIL(b->err, LIMIT, OTV_T_GDEF, 0, "GDEF over 64 KiB");
    }
    otv_buf_u16(&raw, (uint16_t)(off ? 18 + off : 0));
  }
  otv_buf_u32(&raw, (uint32_t)(18 + d.len + (lcl ? lcl->len : 0)));
  if (d.len) otv_buf_bytes(&raw, d.p, d.len);
  if (lcl && lcl->len) otv_buf_bytes(&raw, lcl->p, lcl->len);
  otv_buf_bytes(&raw, store->p, store->len);
  otv_status st = raw.failed ? OTV_FAIL(b->err, NOMEM, 0, 0, "GDEF") : OTV_E_OK;
  /* written again by the layout writer: the old bytes no longer reached go */
  otv_buf *t = st ? NULL : otv_build_table(b, OTV_T_GDEF);
  if (!st && !t) st = OTV_E_NOMEM;
  if (!st) st = otv_layout_write(&b->al, OTV_T_GDEF, (otv_span){raw.p, raw.len}, NULL, t, b->err);
  otv_buf_free(&raw);
  return st;
}

/* A LangSys: lookupOrder, requiredFeatureIndex, featureIndexCount, featureIndices */
static void compare_langsys(gctx *c, const pos *l)
{
  if (!need(c, l, 0, 6)) return;
  su16(c, l, 2);
  unsigned n = su16(c, l, 4);
  same_bytes(c, l, 6, 2 * (size_t)n);
}

/* The ScriptList and FeatureList of every master's GPOS equal the default's in what they say
 * (tags, language systems, feature indices, lookup indices; not where they are). */
static void compare_lists(gctx *c, const pos *root)
{
  pos sl, fl;
  c->where = "ScriptList";
  if (child(c, root, root, 4, &sl) && need(c, &sl, 0, 2)) {
    unsigned n = su16(c, &sl, 0);
    for (unsigned i = 0; i < n && !c->st && need(c, &sl, 2, 6 * (size_t)n); i++) {
      pos sc, ls;
      size_t r = 2 + 6 * (size_t)i;
      if (!same_bytes(c, &sl, r, 4) || !child(c, &sl, &sl, r + 4, &sc) || !need(c, &sc, 0, 4))
        continue;
      if (child(c, &sc, &sc, 0, &ls)) compare_langsys(c, &ls);
      unsigned m = su16(c, &sc, 2);
      for (unsigned k = 0; k < m && !c->st && need(c, &sc, 4, 6 * (size_t)m); k++) {
        size_t q = 4 + 6 * (size_t)k;
        if (same_bytes(c, &sc, q, 4) && child(c, &sc, &sc, q + 4, &ls)) compare_langsys(c, &ls);
      }
    }
  }
  c->where = "FeatureList";
  if (!c->st && child(c, root, root, 6, &fl) && need(c, &fl, 0, 2)) {
    unsigned n = su16(c, &fl, 0);
    for (unsigned i = 0; i < n && !c->st && need(c, &fl, 2, 6 * (size_t)n); i++) {
      pos f;
      size_t r = 2 + 6 * (size_t)i;
      if (!same_bytes(c, &fl, r, 4) || !child(c, &fl, &fl, r + 4, &f) || !need(c, &f, 0, 4))
        continue;
      unsigned lc = su16(c, &f, 2);
      same_bytes(c, &f, 4, 2 * (size_t)lc);
    }
  }
  c->where = NULL;
}

/* ---- the entry points' common steps (GPOS, BASE) ---- */

/* c set up to merge the masters' `tag` tables side by side (c->mask: the masters that have
 * one), under a work budget of 1 MiB + OTV_LAYOUT_WORK_FACTOR x their sizes. Whether there is
 * anything to merge: not when the default has no such table or only the default has one. */
static bool gctx_begin(gctx *c, otv_builder *b, uint32_t tag)
{
  memset(c, 0, sizeof *c);
  c->b = b;
  c->hi = UINT32_MAX;
  c->tag = tag;
  for (unsigned k = 0; k < b->mc; k++) {
    c->t[k] = otv_sfnt_find(&b->m[k].sfnt, tag);
    if (c->t[k].len) otv_mset_add(&c->mask, k);
  }
  otv_mset only = otv_mset_one(b->base);
  if (!otv_mset_has(&c->mask, b->base) || otv_mset_eq(&c->mask, &only)) return false;
  c->budget = (size_t)1 << 20;
  EACH(c, k) c->budget += OTV_LAYOUT_WORK_FACTOR * c->t[k].len;
  return true;
}

/* After pass 1: the slots that vary become the store's rows (their values moved to the front
 * of c->vals, in order), c->item[s] the row of slot s for now (UINT32_MAX: does not vary).
 * Returns the row count. */
static size_t varying_rows(gctx *c)
{
  unsigned mc = c->b->mc, base = c->b->base;
  size_t rows = 0;
  for (size_t s = 0; s < c->slot_n; s++) {
    const int32_t *v = c->vals + s * mc;
    bool varies = false;
    EACH(c, k) varies |= v[k] != v[base];
    c->item[s] = UINT32_MAX;
    if (!varies) continue;
    if (rows != s) memmove(c->vals + rows * mc, v, mc * sizeof *v);
    c->item[s] = (uint32_t)rows++;
  }
  return rows;
}

/* After the store is built: each varying slot's row replaced by its item (items[row]), and
 * the device bits its value-record group gains set in c->gbits (anchor and coordinate slots
 * have no group). */
static void rows_to_items(gctx *c, const uint32_t *items)
{
  for (size_t s = 0; s < c->slot_n; s++) {
    if (c->item[s] == UINT32_MAX) continue;
    c->item[s] = items[c->item[s]];
    if (c->sgroup[s] != SIZE_MAX && (c->sgroup[s] >> 2) < c->gbits_cap)
      c->gbits[c->sgroup[s] >> 2] |= (uint8_t)(1u << (c->sgroup[s] & 3));
  }
}

/* What the passes allocated in c (graph, slots, items, group bits), freed. */
static void gctx_end(gctx *c)
{
  const otv_alloc *al = &c->b->al;
  if (c->g) otv_graph_free(c->g);
  otv_mem_free(al, c->vals, c->vals_cap * sizeof *c->vals);
  otv_mem_free(al, c->item, c->item_cap * sizeof *c->item);
  otv_mem_free(al, c->sgroup, c->sgroup_cap * sizeof *c->sgroup);
  otv_mem_free(al, c->gbits, c->gbits_cap);
}

otv_status otv_build_gpos(otv_builder *b)
{
  gctx c;
  if (!gctx_begin(&c, b, OTV_T_GPOS)) return OTV_E_OK;
  otv_span d = c.t[b->base];
  pos root, ll;
  memset(&root, 0, sizeof root);
  if (!need(&c, &root, 0, 10)) return c.st;
  su16(&c, &root, 0);
  if (c.st || !child(&c, &root, &root, 8, &ll)) return c.st; /* no LookupList: nothing varies */
  if (!need(&c, &ll, 0, 2)) return c.st;
  unsigned lookups = su16(&c, &ll, 0);
  if (c.st || !need(&c, &ll, 2, 2 * (size_t)lookups)) return c.st;
  /* the ScriptList and FeatureList must agree (the default's are kept) */
  compare_lists(&c, &root);
  if (c.st) return c.st;
  /* pass 1: every value in every master (GPOS, then GDEF's carets) */
  size_t sub_n = 0;
  walk(&c, &ll, lookups, NULL, &sub_n, NULL);
  carets(&c);
  otv_status st = c.st;
  c.slot_n = c.slot;
  size_t rows = 0, groups = c.group;
  uint32_t *items = NULL;
  if (!st && c.slot_n) {
    items = otv_mem_calloc(&b->al, c.slot_n, sizeof *items);
    if (OTV_RESERVE(&b->al, &c.item, &c.item_cap, c.slot_n, sizeof *c.item) ||
        OTV_RESERVE(&b->al, &c.gbits, &c.gbits_cap, groups + 1, 1) || !items)
      st = OTV_FAIL(b->err, NOMEM, 0, 0, "GPOS");
  }
  if (!st) rows = varying_rows(&c);
  otv_buf store, blob, mid;
  otv_buf_init(&store, &b->al);
  otv_buf_init(&blob, &b->al);
  otv_buf_init(&mid, &b->al);
  subs_out subs = {NULL, 0, 0};
  if (!st && rows) {
    st = otv_build_store(b, &c.mask, c.vals, b->mc, rows, items, &store);
    memset(c.gbits, 0, c.gbits_cap);
    if (!st) rows_to_items(&c, items);
    /* pass 2: the rebuilt sub-tables (a PairPos past 64 KiB split: more of them) */
    c.g = otv_graph_new(&b->al);
    if (!st && (OTV_RESERVE(&b->al, &subs.v, &subs.cap, sub_n + 1, sizeof *subs.v) || !c.g))
      st = OTV_FAIL(b->err, NOMEM, 0, 0, "GPOS");
    if (!st) {
      c.write = true;
      c.slot = c.group = 0;
      c.work = 0;
      size_t n2 = 0;
      walk(&c, &ll, lookups, &subs, &n2, &blob);
      st = c.st;
      if (!st && (n2 != sub_n || subs.n < sub_n || blob.failed))
        st = OTV_FAIL(b->err, NOMEM, OTV_T_GPOS, 0, "GPOS rebuilt");
    }
    otv_buf lcl;
    otv_buf_init(&lcl, &b->al);
    if (!st) {
      otv_obj cl = carets(&c);
      st = c.st;
      if (!st && cl) {
        otv_status w = otv_graph_write(c.g, cl, &lcl, NULL);
        if (w) st = otv_fail(b->err, w, OTV_T_GDEF, 0, "ligature carets");
      }
      if (!st && (c.slot != c.slot_n || lcl.failed))
        st = OTV_FAIL(b->err, NOMEM, OTV_T_GDEF, 0, "ligature carets");
    }
    if (!st) st = intermediate(&c, d, lookups, subs.v, subs.n, &blob, &mid);
    if (!st) {
      otv_buf *t = otv_build_table(b, OTV_T_GPOS);
      otv_layout_xform xf;
      memset(&xf, 0, sizeof xf);
      xf.compact = true;
      st = t ? otv_layout_write(&b->al, OTV_T_GPOS, (otv_span){mid.p, mid.len}, &xf, t, b->err)
             : OTV_E_NOMEM;
    }
    if (!st) st = gdef(&c, &store, &lcl);
    otv_buf_free(&lcl);
  }
  gctx_end(&c);
  otv_mem_free(&b->al, subs.v, subs.cap * sizeof *subs.v);
  if (items) otv_mem_free(&b->al, items, c.slot_n * sizeof *items);
  otv_buf_free(&store);
  otv_buf_free(&blob);
  otv_buf_free(&mid);
  return st;
}

/* ---- BASE (spec: BASE): coordinates that differ between masters become format 3 BaseCoords
 * with VariationIndex devices into BASE 1.1's own ItemVariationStore; the structure (tags,
 * scripts, language systems, feature min/max records) must agree, and is rebuilt whole ---- */

/* A BaseCoord at offset16 field rel of p (from base), formats 1-3. */
static otv_obj base_coord(gctx *c, const pos *base, const pos *p, size_t rel)
{
  return coord_table(c, base, p, rel, 1, 2, "BaseCoord format");
}

static void link_coord(gctx *c, otv_buf *o, size_t field, const pos *base, const pos *p, size_t rel)
{
  otv_obj id = base_coord(c, base, p, rel);
  if (o && id) otv_graph_link(c->g, field, 2, id);
}

/* MinMax: minCoord, maxCoord, featMinMaxCount, FeatMinMaxRecords (tag, min, max) */
static otv_obj base_minmax(gctx *c, const pos *m)
{
  unsigned n;
  otv_buf *o;
  if (!open_counted(c, m, 6, 4, 8, &n, &o)) return OTV_OBJ_NONE;
  for (unsigned k = 0; k < 2; k++) {
    pos q;
    if (child(c, m, m, 2 * (size_t)k, &q)) link_coord(c, o, 2 * (size_t)k, m, m, 2 * (size_t)k);
  }
  for (unsigned i = 0; i < n && !c->st; i++) {
    size_t r = 6 + 8 * (size_t)i;
    if (!same_bytes(c, m, r, 4)) break;
    if (o) memcpy(o->p + r, c->t[c->b->base].p + m->a[c->b->base] + r, 4);
    for (unsigned k = 0; k < 2; k++) {
      pos q;
      if (child(c, m, m, r + 4 + 2 * k, &q)) link_coord(c, o, r + 4 + 2 * k, m, m, r + 4 + 2 * k);
    }
  }
  return o ? otv_graph_pop(c->g) : OTV_OBJ_NONE;
}

/* BaseScript: baseValues, defaultMinMax, BaseLangSysRecords (tag, minMax) */
static otv_obj base_script(gctx *c, const pos *s)
{
  unsigned n;
  otv_buf *o;
  if (!open_counted(c, s, 6, 4, 6, &n, &o)) return OTV_OBJ_NONE;
  pos q;
  if (child(c, s, s, 0, &q) && need(c, &q, 0, 4)) {
    /* BaseValues: defaultBaselineIndex, baseCoordCount, offsets */
    unsigned def = su16(c, &q, 0), cnt = su16(c, &q, 2);
    if (need(c, &q, 4, 2 * (size_t)cnt)) {
      otv_buf *v = c->write ? otv_graph_push(c->g) : NULL;
      if (v) {
        otv_buf_u16(v, (uint16_t)def);
        otv_buf_u16(v, (uint16_t)cnt);
        otv_buf_zeros(v, 2 * (size_t)cnt);
      }
      for (unsigned i = 0; i < cnt && !c->st; i++)
        link_coord(c, v, 4 + 2 * (size_t)i, &q, &q, 4 + 2 * (size_t)i);
      if (v) otv_graph_link(c->g, 0, 2, otv_graph_pop(c->g));
    }
  }
  if (child(c, s, s, 2, &q)) {
    otv_obj id = base_minmax(c, &q);
    if (o && id) otv_graph_link(c->g, 2, 2, id);
  }
  for (unsigned i = 0; i < n && !c->st; i++) {
    size_t r = 6 + 6 * (size_t)i;
    if (!same_bytes(c, s, r, 4)) break;
    if (o) memcpy(o->p + r, c->t[c->b->base].p + s->a[c->b->base] + r, 4);
    if (child(c, s, s, r + 4, &q)) {
      otv_obj id = base_minmax(c, &q);
      if (o && id) otv_graph_link(c->g, r + 4, 2, id);
    }
  }
  return o ? otv_graph_pop(c->g) : OTV_OBJ_NONE;
}

/* Axis: BaseTagList (copied), BaseScriptList (scripts rebuilt) */
static otv_obj base_axis(gctx *c, const pos *a)
{
  if (!need(c, a, 0, 4)) return OTV_OBJ_NONE;
  otv_buf *o = c->write ? otv_graph_push(c->g) : NULL;
  if (c->write && !o) return OTV_OBJ_NONE;
  if (o) otv_buf_zeros(o, 4);
  pos q;
  if (child(c, a, a, 0, &q) && need(c, &q, 0, 2)) {
    size_t n = 2 + 4 * (size_t)su16(c, &q, 0);
    if (same_bytes(c, &q, 0, n)) {
      otv_obj id = leaf(c, &q, n);
      if (o && id) otv_graph_link(c->g, 0, 2, id);
    }
  }
  if (child(c, a, a, 2, &q) && need(c, &q, 0, 2)) {
    unsigned n = su16(c, &q, 0);
    if (need(c, &q, 2, 6 * (size_t)n)) {
      otv_buf *l = c->write ? otv_graph_push(c->g) : NULL;
      if (l) {
        otv_buf_u16(l, (uint16_t)n);
        otv_buf_zeros(l, 6 * (size_t)n);
      }
      for (unsigned i = 0; i < n && !c->st; i++) {
        size_t r = 2 + 6 * (size_t)i;
        pos sc;
        if (!same_bytes(c, &q, r, 4)) break;
        if (l) memcpy(l->p + r, c->t[c->b->base].p + q.a[c->b->base] + r, 4);
        if (!child(c, &q, &q, r + 4, &sc)) continue;
        otv_obj id = base_script(c, &sc);
        if (l && id) otv_graph_link(c->g, r + 4, 2, id);
      }
      if (l) otv_graph_link(c->g, 2, 2, otv_graph_pop(c->g));
    }
  }
  return o ? otv_graph_pop(c->g) : OTV_OBJ_NONE;
}

static otv_obj base_table(gctx *c, const otv_buf *store)
{
  pos root;
  memset(&root, 0, sizeof root);
  if (!need(c, &root, 0, 8)) return OTV_OBJ_NONE;
  su16(c, &root, 0);
  otv_buf *o = c->write ? otv_graph_push(c->g) : NULL;
  if (c->write && !o) return OTV_OBJ_NONE;
  if (o) {
    otv_buf_u16(o, 1);
    otv_buf_u16(o, 1); /* version 1.1: itemVarStoreOffset */
    otv_buf_zeros(o, 8);
  }
  for (unsigned k = 0; k < 2 && !c->st; k++) {
    pos a;
    if (!child(c, &root, &root, 4 + 2 * (size_t)k, &a)) continue;
    otv_obj id = base_axis(c, &a);
    if (o && id) otv_graph_link(c->g, 4 + 2 * (size_t)k, 2, id);
  }
  if (o && store) {
    otv_buf *v = otv_graph_push(c->g);
    if (v) {
      otv_buf_bytes(v, store->p, store->len);
      otv_graph_link(c->g, 8, 4, otv_graph_pop(c->g));
    }
  }
  return o ? otv_graph_pop(c->g) : OTV_OBJ_NONE;
}

otv_status otv_build_base(otv_builder *b)
{
  gctx c;
  if (!gctx_begin(&c, b, OTV_T_BASE)) return OTV_E_OK;
  otv_span d = c.t[b->base];
  if (d.len >= 4 && otv_peek_u16(d.p + 2) >= 1 && d.len >= 12 && otv_peek_u32(d.p + 8))
    return OTV_FAIL(b->err, UNSUPPORTED, OTV_T_BASE, 8, "the default master has variation data");
  base_table(&c, NULL); /* pass 1 */
  otv_status st = c.st;
  c.slot_n = c.slot;
  size_t rows = 0;
  uint32_t *items = NULL;
  if (!st && c.slot_n) {
    items = otv_mem_calloc(&b->al, c.slot_n, sizeof *items);
    if (OTV_RESERVE(&b->al, &c.item, &c.item_cap, c.slot_n, sizeof *c.item) || !items)
      st = OTV_FAIL(b->err, NOMEM, 0, 0, "BASE");
  }
  if (!st) rows = varying_rows(&c);
  otv_buf store;
  otv_buf_init(&store, &b->al);
  if (!st && rows) {
    st = otv_build_store(b, &c.mask, c.vals, b->mc, rows, items, &store);
    if (!st) rows_to_items(&c, items);
    c.g = st ? NULL : otv_graph_new(&b->al);
    if (!st && !c.g) st = OTV_FAIL(b->err, NOMEM, 0, 0, "BASE");
    if (!st) {
      c.write = true;
      c.slot = 0;
      c.work = 0;
      otv_obj root = base_table(&c, &store);
      st = c.st;
      if (!st && (c.slot != c.slot_n || otv_graph_status(c.g)))
        st = OTV_FAIL(b->err, NOMEM, OTV_T_BASE, 0, "BASE rebuilt");
      otv_buf *t = st ? NULL : otv_build_table(b, OTV_T_BASE);
      if (!st && !t) st = OTV_E_NOMEM;
      if (!st) {
        otv_status w = otv_graph_write(c.g, root, t, NULL);
        if (w) st = otv_fail(b->err, w, OTV_T_BASE, 0, "BASE");
      }
    }
  }
  gctx_end(&c);
  if (items) otv_mem_free(&b->al, items, c.slot_n * sizeof *items);
  otv_buf_free(&store);
  return st;
}

/*
 * core/graph.c - the object graph of a table made of sub-tables linked by offsets, and its
 * serializer (core/graph.h). The placement follows the idea of HarfBuzz's repacker
 * (hb-repacker.hh, docs/repacker.md: order by shortest distance from the root, duplicate shared
 * sub-tables whose offsets overflow, isolate 32-bit-linked sub-graphs), written afresh.
 *
 * Storage. The bytes of every kept object live in one growable byte array and their links in
 * one growable link array; an object is an (offset, length) into each. Objects being built use
 * a fixed stack of OTV_GRAPH_MAX_DEPTH buffers and link lists, reused from one object to the
 * next: building N objects allocates only the amortized growth of those arrays.
 *
 * Dedup. At pop the links are sorted by position and checked (inside the object, 2 or 4 bytes
 * wide, no two fields overlapping), the bytes of the link fields are zeroed (write overwrites
 * them, so a placeholder value must not make two equal objects differ), and the object is
 * hashed (bytes, then each link's position, width and child) into an open-addressing table of
 * ids (linear probing, load at most 1/2). An equal object already kept (same bytes, same links)
 * gives its id and nothing is copied.
 *
 * Placement, one round, O((objects + links) log objects):
 *  1. Distances from the root (Dijkstra, a binary heap with lazy deletion). A 2-byte link costs
 *     the child's size, so a small child lands near its parent. A 4-byte link costs GRAPH_FAR
 *     times its rank among the 4-byte links met so far, plus the child's size: each 4-byte-linked
 *     sub-graph (an Extension subtable) gets a band of distances of its own, after everything
 *     reachable through 2-byte links and after the bands of the earlier 4-byte links. With one
 *     constant for all of them the sub-graphs would interleave (all their heads first, then all
 *     their children) and a head's 2-byte offsets would span the other sub-graphs: HarfBuzz
 *     separates them the same way ("spaces"). A band holds distances below GRAPH_FAR as long as
 *     a path's sizes add up to less than 4 GiB, which every writable table satisfies.
 *  2. A topological order (Kahn: an object is ready once all its parents are placed), the ready
 *     object of least (distance, id) first. Offsets are unsigned: every parent before its
 *     children, whatever the distances say.
 *  3. Positions: the objects end to end in that order; then every link is checked.
 * Resolving. A child some of whose 2-byte offsets do not fit, and that has more than one parent,
 * is copied, one copy per run of parents: its parents by position, the far ones first (it is
 * placed after all of them), are cut greedily into runs that a copy placed after the run's last
 * parent likely serves, each run given one copy (every link of its parents placed at the copy);
 * the parents past them, near enough already, and those linking by 4-byte offsets only keep the
 * child. A copy's distance is the least of
 * its parents' plus its size, so it is placed once the run's last parent is, as soon as nothing
 * ready is nearer the root: the estimate of a run adds to its span now the copies planned in the
 * round at objects within it, the objects now after it no farther than the copy, and the copy's
 * size; a run that overflows all the same is split in a later round. So six PairPos sub-tables
 * of 26 to 30 KB in Extension bands sharing one ClassDef share three objects, not six. The copy
 * has the child's bytes (shared in the byte array) and links (copied), and is not in the dedup
 * table, so it stays distinct. Each round makes at most one copy per overflowing link, at most
 * GRAPH_MAX_ROUNDS rounds are made, and the copies made over the graph's life are bounded by the
 * kept objects and links (GRAPH_DUP_SLACK more): memory stays linear in the input. Every
 * allocation of a round comes before its first copy, and it takes
 * O(links * (GRAPH_WALK_MAX + log objects)). An overflow no copy can fix (one parent; a
 * 4-byte offset past 4 GiB) is reported to the caller, who restructures (layout: promotes
 * lookups to Extension).
 */
#include "core/graph.h"
#include "core/compiler.h"

#include <stdlib.h>
#include <string.h>

#define GRAPH_MAX_ROUNDS 32             /* placements per write */
#define GRAPH_FAR ((uint64_t)1 << 32)   /* distance step of a 4-byte link: past any table */
#define GRAPH_DUP_SLACK 1024            /* copies (objects + links) beyond the kept totals */
#define GRAPH_INF UINT64_MAX            /* distance of an object not reachable */
#define GRAPH_DIST_MAX (UINT64_MAX - 1) /* distances saturate here */
#define GRAPH_MAX_OFF16 0xFFFFu         /* the largest 2-byte offset */
#define GRAPH_MAX_OFF32 0xFFFFFFFFu     /* the largest 4-byte offset */
#define GRAPH_TABLE_MIN 64              /* first size of the dedup table (a power of 2) */
#define GRAPH_NOT_SETTLED ((size_t)-1)  /* sched.pos while distances are computed */
#define GRAPH_WALK_MAX 64               /* objects group_fits looks at past a run of parents */

typedef struct glink {
  size_t pos;     /* of the offset field in its object */
  otv_obj child;  /* as built: what the dedup compares */
  otv_obj target; /* as placed: child, or the copy of it write made for this parent */
  uint8_t width;  /* 2 or 4 */
} glink;

typedef struct gobj {
  size_t off, len;             /* bytes [off, off + len) of otv_graph.bytes */
  size_t link_off, link_count; /* links [link_off, + link_count) of otv_graph.links, by pos */
  uint32_t hash;               /* of the bytes and the links as built */
  otv_obj origin; /* a copy write made (not in the dedup table nor the totals): of what; else 0 */
} gobj;

typedef struct glevel {
  otv_buf buf;
  glink *links;
  size_t link_count, link_cap;
} glevel;

struct otv_graph {
  otv_alloc al; /* the level buffers point here */
  otv_status status;
  unsigned depth;
  glevel level[OTV_GRAPH_MAX_DEPTH];
  uint8_t *bytes;
  size_t bytes_len, bytes_cap;
  glink *links;
  size_t links_len, links_cap;
  gobj *objs;              /* indexed by id; [0] unused */
  size_t obj_len, obj_cap; /* obj_len: the next id */
  otv_obj *table;          /* dedup: ids, 0 empty; table_cap a power of 2 (or 0) */
  size_t table_cap, table_count;
  size_t kept_count, kept_bytes, kept_links;
  size_t dup_units; /* objects + links copied by write, over the graph's life */
};

static void fail(otv_graph *g, otv_status code)
{
  if (g->status == OTV_E_OK) g->status = code;
}

static size_t sat_add(size_t a, size_t b) { return a > SIZE_MAX - b ? SIZE_MAX : a + b; }
/* Distances saturate below GRAPH_INF: every reachable object has a distance less than it. */
static uint64_t sat_add64(uint64_t a, uint64_t b)
{
  return b >= GRAPH_DIST_MAX || a >= GRAPH_DIST_MAX - b ? GRAPH_DIST_MAX : a + b;
}

otv_graph *otv_graph_new(const otv_alloc *al)
{
  otv_alloc libc;
  if (!al) {
    otv_alloc_init(&libc, NULL);
    al = &libc;
  }
  otv_graph *g = otv_mem_calloc(al, 1, sizeof *g);
  if (!g) return NULL;
  g->al = *al;
  for (unsigned i = 0; i < OTV_GRAPH_MAX_DEPTH; i++) otv_buf_init(&g->level[i].buf, &g->al);
  g->obj_len = 1; /* ids start at 1: 0 is OTV_OBJ_NONE */
  return g;
}

void otv_graph_free(otv_graph *g)
{
  if (!g) return;
  otv_alloc al = g->al; /* g itself is freed through it */
  for (unsigned i = 0; i < OTV_GRAPH_MAX_DEPTH; i++) {
    otv_buf_free(&g->level[i].buf);
    otv_mem_free(&al, g->level[i].links, g->level[i].link_cap * sizeof(glink));
  }
  otv_mem_free(&al, g->bytes, g->bytes_cap);
  otv_mem_free(&al, g->links, g->links_cap * sizeof(glink));
  otv_mem_free(&al, g->objs, g->obj_cap * sizeof(gobj));
  otv_mem_free(&al, g->table, g->table_cap * sizeof(otv_obj));
  otv_mem_free(&al, g, sizeof *g);
}

otv_status otv_graph_status(const otv_graph *g) { return g ? g->status : OTV_E_ARG; }
size_t otv_graph_bytes(const otv_graph *g) { return g ? g->kept_bytes : 0; }
size_t otv_graph_count(const otv_graph *g) { return g ? g->kept_count : 0; }

otv_buf *otv_graph_push(otv_graph *g)
{
  if (!g || g->status != OTV_E_OK) return NULL;
  if (g->depth >= OTV_GRAPH_MAX_DEPTH) {
    fail(g, OTV_E_LIMIT);
    return NULL;
  }
  glevel *lv = &g->level[g->depth++];
  lv->buf.len = 0; /* the level's memory is kept for the next object at this depth */
  lv->buf.failed = false;
  lv->link_count = 0;
  return &lv->buf;
}

void otv_graph_link(otv_graph *g, size_t pos, unsigned width, otv_obj child)
{
  if (!g || g->status != OTV_E_OK || child == OTV_OBJ_NONE) return;
  /* a child that does not exist yet would also be the only way to make a cycle */
  if (g->depth == 0 || (width != 2 && width != 4) || child >= g->obj_len) {
    fail(g, OTV_E_LIMIT);
    return;
  }
  glevel *lv = &g->level[g->depth - 1];
  if (OTV_RESERVE(&g->al, &lv->links, &lv->link_cap, lv->link_count + 1, sizeof *lv->links)) {
    fail(g, OTV_E_NOMEM);
    return;
  }
  lv->links[lv->link_count++] = (glink){pos, child, child, (uint8_t)width};
}

static int link_cmp(const void *a, const void *b)
{
  const glink *x = a, *y = b;
  return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Sort the open object's links by position (equal objects linked in another order are equal)
 * and check each field lies inside the object and overlaps no other. */
static bool links_valid(glevel *lv)
{
  glink *l = lv->links;
  size_t n = lv->link_count, len = lv->buf.len;
  bool sorted = true;
  for (size_t i = 1; i < n && sorted; i++) sorted = l[i - 1].pos <= l[i].pos;
  if (!sorted) qsort(l, n, sizeof *l, link_cmp);
  for (size_t i = 0; i < n; i++) {
    if (l[i].pos > len || l[i].width > len - l[i].pos) return false;
    /* no overflow: the previous field was checked to end inside the object */
    if (i > 0 && l[i - 1].pos + l[i - 1].width > l[i].pos) return false;
  }
  return true;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
  h = (h ^ v) * UINT64_C(0x9E3779B97F4A7C15);
  return h ^ (h >> 29);
}

static uint32_t hash_object(const uint8_t *p, size_t len, const glink *l, size_t n)
{
  uint64_t h = mix(UINT64_C(0x243F6A8885A308D3), len);
  size_t i = 0;
  for (; len - i >= 8; i += 8) {
    uint64_t w;
    memcpy(&w, p + i, 8); /* host order: the hash never leaves the process */
    h = mix(h, w);
  }
  if (i < len) {
    uint64_t w = 0;
    for (; i < len; i++) w = w << 8 | p[i];
    h = mix(h, w);
  }
  h = mix(h, n);
  for (size_t k = 0; k < n; k++) {
    h = mix(h, l[k].pos);
    h = mix(h, (uint64_t)l[k].child << 8 | l[k].width);
  }
  return (uint32_t)(h ^ h >> 32);
}

static bool same_object(const otv_graph *g, const gobj *o, const uint8_t *p, size_t len,
                        const glink *l, size_t n)
{
  if (o->len != len || o->link_count != n) return false;
  if (len && memcmp(g->bytes + o->off, p, len)) return false;
  if (!n) return true;
  const glink *ol = g->links + o->link_off; /* links is NULL while no object has one */
  for (size_t k = 0; k < n; k++)
    if (ol[k].pos != l[k].pos || ol[k].width != l[k].width || ol[k].child != l[k].child)
      return false;
  return true;
}

static void table_put(otv_obj *t, size_t cap, uint32_t hash, otv_obj id)
{
  size_t i = hash & (cap - 1);
  while (t[i]) i = (i + 1) & (cap - 1); /* ends: the load stays below 1/2 */
  t[i] = id;
}

/* Room for one more id in the dedup table, at load at most 1/2 (short probe runs). */
static bool table_room(otv_graph *g)
{
  if (g->table_count + 1 <= g->table_cap / 2) return true;
  size_t cap = g->table_cap ? g->table_cap : GRAPH_TABLE_MIN / 2;
  if (cap > SIZE_MAX / 2 / sizeof(otv_obj)) return false;
  cap *= 2;
  otv_obj *t = otv_mem_calloc(&g->al, cap, sizeof *t);
  if (!t) return false;
  for (size_t i = 0; i < g->table_cap; i++)
    if (g->table[i]) table_put(t, cap, g->objs[g->table[i]].hash, g->table[i]);
  otv_mem_free(&g->al, g->table, g->table_cap * sizeof(otv_obj));
  g->table = t;
  g->table_cap = cap;
  return true;
}

/* Keep the open object (not equal to a kept one): every allocation first, so a failure
 * leaves the kept objects as they were. */
static otv_obj keep(otv_graph *g, glevel *lv, uint32_t hash)
{
  size_t len = lv->buf.len, n = lv->link_count;
  if (g->obj_len >= UINT32_MAX) { /* ids are 32-bit */
    fail(g, OTV_E_LIMIT);
    return OTV_OBJ_NONE;
  }
  if (len > SIZE_MAX - g->bytes_len || n > SIZE_MAX - g->links_len ||
      OTV_RESERVE(&g->al, &g->bytes, &g->bytes_cap, g->bytes_len + len, 1) ||
      OTV_RESERVE(&g->al, &g->links, &g->links_cap, g->links_len + n, sizeof(glink)) ||
      OTV_RESERVE(&g->al, &g->objs, &g->obj_cap, g->obj_len + 1, sizeof(gobj)) || !table_room(g)) {
    fail(g, OTV_E_NOMEM);
    return OTV_OBJ_NONE;
  }
  otv_obj id = (otv_obj)g->obj_len++;
  g->objs[id] = (gobj){g->bytes_len, len, g->links_len, n, hash, OTV_OBJ_NONE};
  if (len) memcpy(g->bytes + g->bytes_len, lv->buf.p, len);
  if (n) memcpy(g->links + g->links_len, lv->links, n * sizeof(glink));
  g->bytes_len += len;
  g->links_len += n;
  table_put(g->table, g->table_cap, hash, id);
  g->table_count++;
  g->kept_count++;
  g->kept_bytes += len; /* no overflow: at most bytes_len */
  g->kept_links += n;
  return id;
}

otv_obj otv_graph_pop(otv_graph *g)
{
  if (!g || g->status != OTV_E_OK) return OTV_OBJ_NONE;
  if (g->depth == 0) {
    fail(g, OTV_E_LIMIT);
    return OTV_OBJ_NONE;
  }
  glevel *lv = &g->level[--g->depth];
  otv_buf *b = &lv->buf;
  if (b->failed) {
    fail(g, OTV_E_NOMEM);
    return OTV_OBJ_NONE;
  }
  if (!links_valid(lv)) {
    fail(g, OTV_E_LIMIT);
    return OTV_OBJ_NONE;
  }
  /* in range: links_valid put every field inside the object */
  for (size_t k = 0; k < lv->link_count; k++)
    memset(b->p + lv->links[k].pos, 0, lv->links[k].width);
  uint32_t hash = hash_object(b->p, b->len, lv->links, lv->link_count);
  if (g->table_cap) {
    size_t mask = g->table_cap - 1;
    for (size_t i = hash & mask; g->table[i]; i = (i + 1) & mask) {
      const gobj *o = &g->objs[g->table[i]];
      if (o->hash == hash && same_object(g, o, b->p, b->len, lv->links, lv->link_count))
        return g->table[i];
    }
  }
  return keep(g, lv, hash);
}

void otv_graph_discard(otv_graph *g)
{
  if (!g || g->status != OTV_E_OK) return;
  if (g->depth == 0) {
    fail(g, OTV_E_LIMIT);
    return;
  }
  g->depth--;
}

/* ---- write ---- */

typedef struct hent {
  uint64_t key;
  otv_obj id;
} hent;

/* A parent in a child's list (by position); near: by a 2-byte link, not only 4-byte ones. */
typedef struct gpar {
  otv_obj obj;
  bool near;
} gpar;

/* A copy resolve will make: for the parents plist[from, to) of child. */
typedef struct gplan {
  otv_obj child;
  size_t from, to;
} gplan;

/* The scratch of one write, per id (grown as copies add ids), the heap, and resolve's lists. */
typedef struct sched {
  uint64_t *dist;  /* from the root; GRAPH_INF: not reachable */
  size_t *indeg;   /* links from parents not placed yet (Kahn) */
  size_t *parents; /* distinct reachable parents; resolve: 0 once the child is planned */
  otv_obj *stamp;  /* the last parent counted into parents */
  size_t *pos;     /* in the table written */
  otv_obj *order;  /* the reachable objects: settle order, then placement order */
  size_t dist_cap, indeg_cap, parents_cap, stamp_cap, pos_cap, order_cap;
  size_t count; /* reachable objects */
  size_t total; /* their bytes */
  hent *heap;
  size_t heap_len, heap_cap;
  /* resolve: each child's parents by position, plist[pfirst[c], pfirst[c + 1]); each object's
   * index in order; a Fenwick tree over that index of the bytes of the copies planned so far,
   * each at its group's last parent (fen[1, count]); the copies planned */
  size_t *rank, *pfirst;
  gpar *plist;
  uint64_t *fen;
  gplan *plan;
  size_t rank_cap, pfirst_cap, plist_cap, fen_cap, plan_cap, plan_len;
} sched;

static void sched_free(const otv_alloc *al, sched *s)
{
  otv_mem_free(al, s->dist, s->dist_cap * sizeof *s->dist);
  otv_mem_free(al, s->indeg, s->indeg_cap * sizeof *s->indeg);
  otv_mem_free(al, s->parents, s->parents_cap * sizeof *s->parents);
  otv_mem_free(al, s->stamp, s->stamp_cap * sizeof *s->stamp);
  otv_mem_free(al, s->pos, s->pos_cap * sizeof *s->pos);
  otv_mem_free(al, s->order, s->order_cap * sizeof *s->order);
  otv_mem_free(al, s->heap, s->heap_cap * sizeof *s->heap);
  otv_mem_free(al, s->rank, s->rank_cap * sizeof *s->rank);
  otv_mem_free(al, s->pfirst, s->pfirst_cap * sizeof *s->pfirst);
  otv_mem_free(al, s->plist, s->plist_cap * sizeof *s->plist);
  otv_mem_free(al, s->fen, s->fen_cap * sizeof *s->fen);
  otv_mem_free(al, s->plan, s->plan_cap * sizeof *s->plan);
}

static bool hent_less(hent a, hent b) { return a.key < b.key || (a.key == b.key && a.id < b.id); }

static bool heap_push(const otv_alloc *al, sched *s, uint64_t key, otv_obj id)
{
  if (OTV_RESERVE(al, &s->heap, &s->heap_cap, s->heap_len + 1, sizeof *s->heap)) return false;
  hent e = {key, id};
  size_t i = s->heap_len++;
  while (i > 0 && hent_less(e, s->heap[(i - 1) / 2])) {
    s->heap[i] = s->heap[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  s->heap[i] = e;
  return true;
}

static hent heap_pop(sched *s) /* heap_len > 0 */
{
  hent top = s->heap[0], e = s->heap[--s->heap_len];
  size_t i = 0, n = s->heap_len;
  for (;;) {
    size_t c = 2 * i + 1; /* no overflow: n fits in memory as hent, so 2n + 2 fits size_t */
    if (c >= n) break;
    if (c + 1 < n && hent_less(s->heap[c + 1], s->heap[c])) c++;
    if (!hent_less(s->heap[c], e)) break;
    s->heap[i] = s->heap[c];
    i = c;
  }
  if (n) s->heap[i] = e;
  return top;
}

/* One placement of the objects reachable from root: s->order, s->pos, s->total, and the
 * parent counts the resolving needs. */
static otv_status place(const otv_graph *g, sched *s, otv_obj root)
{
  const otv_alloc *al = &g->al;
  size_t n = g->obj_len;
  if (OTV_RESERVE(al, &s->dist, &s->dist_cap, n, sizeof *s->dist) ||
      OTV_RESERVE(al, &s->indeg, &s->indeg_cap, n, sizeof *s->indeg) ||
      OTV_RESERVE(al, &s->parents, &s->parents_cap, n, sizeof *s->parents) ||
      OTV_RESERVE(al, &s->stamp, &s->stamp_cap, n, sizeof *s->stamp) ||
      OTV_RESERVE(al, &s->pos, &s->pos_cap, n, sizeof *s->pos) ||
      OTV_RESERVE(al, &s->order, &s->order_cap, n, sizeof *s->order))
    return OTV_E_NOMEM;
  for (size_t i = 0; i < n; i++) {
    s->dist[i] = GRAPH_INF;
    s->indeg[i] = s->parents[i] = 0;
    s->stamp[i] = OTV_OBJ_NONE;
    s->pos[i] = GRAPH_NOT_SETTLED;
  }

  /* 1. distances (Dijkstra); order[] collects the reachable objects */
  uint64_t far_rank = 0;
  s->count = s->heap_len = 0;
  s->dist[root] = 0;
  if (!heap_push(al, s, 0, root)) return OTV_E_NOMEM;
  while (s->heap_len) {
    hent e = heap_pop(s);
    /* a stale entry (a shorter distance was found after it was pushed) */
    if (e.key != s->dist[e.id] || s->pos[e.id] != GRAPH_NOT_SETTLED) continue;
    s->pos[e.id] = 0;
    s->order[s->count++] = e.id; /* in range: each id settles once, and ids < n */
    const gobj *o = &g->objs[e.id];
    for (size_t k = 0; k < o->link_count; k++) {
      const glink *l = &g->links[o->link_off + k];
      uint64_t cost = g->objs[l->target].len;
      if (l->width == 4)
        cost = sat_add64(cost, ++far_rank > GRAPH_DIST_MAX / GRAPH_FAR ? GRAPH_DIST_MAX
                                                                       : far_rank * GRAPH_FAR);
      uint64_t d = sat_add64(e.key, cost);
      if (d < s->dist[l->target]) {
        s->dist[l->target] = d;
        if (!heap_push(al, s, d, l->target)) return OTV_E_NOMEM;
      }
    }
  }

  /* 2. in-degrees and distinct parents, over the reachable objects (links of one object are
   * visited together, so stamp tells a second link from the same parent) */
  for (size_t i = 0; i < s->count; i++) {
    otv_obj p = s->order[i];
    const gobj *o = &g->objs[p];
    for (size_t k = 0; k < o->link_count; k++) {
      otv_obj c = g->links[o->link_off + k].target;
      s->indeg[c]++;
      if (s->stamp[c] != p) {
        s->stamp[c] = p;
        s->parents[c]++;
      }
    }
  }

  /* 3. topological order (Kahn), least (distance, id) first; positions */
  if (OTV_NEVER(s->indeg[root] != 0)) return OTV_E_LIMIT; /* a cycle through the root */
  size_t placed = 0, total = 0;
  s->heap_len = 0;
  if (!heap_push(al, s, 0, root)) return OTV_E_NOMEM;
  while (s->heap_len) {
    otv_obj v = heap_pop(s).id;
    const gobj *o = &g->objs[v];
    if (OTV_NEVER(placed >= s->count)) return OTV_E_LIMIT;
    s->order[placed++] = v; /* overwrites only entries step 2 has read */
    s->pos[v] = total;
    if (o->len > SIZE_MAX - total) return OTV_E_LIMIT;
    total += o->len;
    for (size_t k = 0; k < o->link_count; k++) {
      otv_obj c = g->links[o->link_off + k].target;
      if (OTV_NEVER(s->indeg[c] == 0)) return OTV_E_LIMIT;
      if (--s->indeg[c] == 0 && !heap_push(al, s, s->dist[c], c)) return OTV_E_NOMEM;
    }
  }
  /* children exist before their parents and copies only re-point a link to an equal object,
   * so there is no cycle; were there one, its objects would never become ready */
  if (OTV_NEVER(placed != s->count)) return OTV_E_LIMIT;
  s->total = total;
  return OTV_E_OK;
}

/* Give the parents par[0, n) one copy of child: every link of theirs placed at child is placed
 * at the copy. The links as built (child) stay: a parent still compares equal to a rebuilt one. */
static otv_status duplicate(otv_graph *g, otv_obj child, const gpar *par, size_t n)
{
  gobj src = g->objs[child];
  size_t units = sat_add(1, src.link_count);
  size_t budget = sat_add(sat_add(g->kept_count, g->kept_links), GRAPH_DUP_SLACK);
  if (g->dup_units > budget || units > budget - g->dup_units || g->obj_len >= UINT32_MAX)
    return OTV_E_LIMIT;
  if (src.link_count > SIZE_MAX - g->links_len ||
      OTV_RESERVE(&g->al, &g->links, &g->links_cap, g->links_len + src.link_count, sizeof(glink)) ||
      OTV_RESERVE(&g->al, &g->objs, &g->obj_cap, g->obj_len + 1, sizeof(gobj)))
    return OTV_E_NOMEM;
  otv_obj id = (otv_obj)g->obj_len++;
  gobj copy = src;
  copy.link_off = g->links_len;
  copy.origin = src.origin ? src.origin : child;
  g->objs[id] = copy;
  if (src.link_count)
    memcpy(g->links + g->links_len, g->links + src.link_off, src.link_count * sizeof(glink));
  g->links_len += src.link_count;
  for (size_t q = 0; q < n; q++) {
    const gobj *p = &g->objs[par[q].obj];
    for (size_t k = 0; k < p->link_count; k++)
      if (g->links[p->link_off + k].target == child) g->links[p->link_off + k].target = id;
  }
  g->dup_units += units;
  return OTV_E_OK;
}

static otv_obj origin_of(const otv_graph *g, otv_obj id)
{
  return g->objs[id].origin ? g->objs[id].origin : id;
}

static void fen_add(sched *s, size_t r, uint64_t v)
{
  for (size_t x = r + 1; x <= s->count; x += x & (~x + 1)) s->fen[x] += v;
}

static uint64_t fen_below(const sched *s, size_t r) /* the bytes planned at order[0, r) */
{
  uint64_t sum = 0;
  for (size_t x = r; x > 0; x -= x & (~x + 1)) sum += s->fen[x];
  return sum;
}

/* Each reachable child's distinct parents in placement order (so by position), and each
 * object's index in that order. */
static otv_status parent_lists(const otv_graph *g, sched *s)
{
  const otv_alloc *al = &g->al;
  size_t n = g->obj_len, sum = 0;                      /* n: as placed */
  for (size_t i = 0; i < n; i++) sum += s->parents[i]; /* <= the links: no overflow */
  if (OTV_RESERVE(al, &s->rank, &s->rank_cap, n, sizeof *s->rank) ||
      OTV_RESERVE(al, &s->pfirst, &s->pfirst_cap, n + 1, sizeof *s->pfirst) ||
      OTV_RESERVE(al, &s->plist, &s->plist_cap, sum, sizeof *s->plist) ||
      OTV_RESERVE(al, &s->fen, &s->fen_cap, s->count + 1, sizeof *s->fen))
    return OTV_E_NOMEM;
  /* pfirst[c + 1]: the start of c's list, then (as it fills) its end, which is c + 1's start */
  s->pfirst[0] = 0;
  sum = 0;
  for (size_t i = 0; i < n; i++) {
    s->pfirst[i + 1] = sum;
    sum += s->parents[i];
  }
  for (size_t r = 0; r < s->count; r++) s->stamp[s->order[r]] = OTV_OBJ_NONE;
  for (size_t r = 0; r <= s->count; r++) s->fen[r] = 0;
  for (size_t r = 0; r < s->count; r++) {
    otv_obj p = s->order[r];
    const gobj *o = &g->objs[p];
    s->rank[p] = r;
    for (size_t k = 0; k < o->link_count; k++) {
      const glink *l = &g->links[o->link_off + k];
      size_t *end = &s->pfirst[l->target + 1];
      if (s->stamp[l->target] == p) { /* another link of p to it: in its list already */
        s->plist[*end - 1].near |= l->width == 2;
        continue;
      }
      s->stamp[l->target] = p;
      s->plist[(*end)++] = (gpar){p, l->width == 2};
    }
  }
  return OTV_E_OK;
}

/* Does one copy of c, placed for the near parents pl[i, j], likely sit within a 2-byte offset
 * of pl[i]? It becomes ready when pl[j] is placed (the last of them), and is placed once no
 * ready object is nearer the root than it (its distance d: the least of theirs plus its size).
 * So the estimate: from pl[i] to the end of pl[j] as now, the copies planned in this round at
 * the objects between (each placed after the last of its parents), the objects now after pl[j]
 * no farther than d (GRAPH_WALK_MAX of them at most, more: no), and c's size. Conservative
 * where it can be cheaply; a group that overflows all the same is split in a later round. */
static bool group_fits(const otv_graph *g, const sched *s, otv_obj c, const gpar *pl, size_t i,
                       size_t j, uint64_t d)
{
  otv_obj first = pl[i].obj, last = pl[j].obj;
  /* positions are in placement order: pos[first] <= pos[last] */
  uint64_t est = (uint64_t)s->pos[last] + g->objs[last].len - s->pos[first];
  est += fen_below(s, s->rank[last] + 1) - fen_below(s, s->rank[first]);
  est += g->objs[c].len;
  if (est > GRAPH_MAX_OFF16) return false;
  size_t r = s->rank[last] + 1;
  for (unsigned step = 0;; step++, r++) {
    if (r >= s->count) break;
    otv_obj o = s->order[r];
    if (o == c || s->dist[o] > d) break; /* a tie goes to o: the copy's id is larger */
    if (step == GRAPH_WALK_MAX) return false;
    est += g->objs[o].len;
    if (est > GRAPH_MAX_OFF16) return false;
  }
  return true;
}

/* Plan the copies of c, whose 2-byte offset from one parent or more does not fit: its near
 * parents (pl, by position) are cut into runs, each run given one copy when it likely fits
 * (group_fits), greedily from the first: parents too far from c come first (c is placed after
 * all of them), so the fewest runs cover them. The parents past them, and the parents by 4-byte
 * links only, keep c; but where no 4-byte parent is and the last run can take every parent
 * after it, that run keeps c and no copy is made for it. A run of one parent is always made
 * (the copy of one parent is placed near it); c is never planned for all its parents. */
static otv_status plan_copies(const otv_graph *g, sched *s, otv_obj c)
{
  size_t from = s->pfirst[c], all = s->pfirst[c + 1] - from, m = 0, k = 0;
  gpar *pl = s->plist + from;
  for (size_t q = 0; q < all; q++) /* the near parents first, in order */
    if (pl[q].near) pl[m++] = pl[q];
  bool far = m < all;
  size_t len = g->objs[c].len;
  while (k < m && s->pos[c] - s->pos[pl[k].obj] > GRAPH_MAX_OFF16) k++; /* c is past them all */
  for (size_t i = 0; i < k;) {
    size_t j = i;
    uint64_t d = sat_add64(s->dist[pl[i].obj], len);
    while (j + 1 < k && (i > 0 || far || j + 2 < m)) {
      uint64_t dj = sat_add64(s->dist[pl[j + 1].obj], len);
      if (!group_fits(g, s, c, pl, i, j + 1, dj < d ? dj : d)) break;
      d = dj < d ? dj : d;
      j++;
    }
    if (i > 0 && !far) {
      if (j + 1 == m) break; /* every parent left: c serves them */
      uint64_t dm = d;
      for (size_t q = j + 1; q < m; q++) {
        uint64_t dq = sat_add64(s->dist[pl[q].obj], len);
        if (dq < dm) dm = dq;
      }
      if (j + 1 == k && group_fits(g, s, c, pl, i, m - 1, dm)) break;
    }
    if (OTV_RESERVE(&g->al, &s->plan, &s->plan_cap, s->plan_len + 1, sizeof *s->plan))
      return OTV_E_NOMEM;
    s->plan[s->plan_len++] = (gplan){c, from + i, from + j + 1};
    fen_add(s, s->rank[pl[j].obj], len < GRAPH_MAX_OFF16 ? len : GRAPH_MAX_OFF16 + 1);
    i = j + 1;
  }
  return OTV_E_OK;
}

/* Check every link of the placement; copy shared children whose 2-byte offset does not fit
 * (when fix), one copy per run of parents (plan_copies). *first: the first link that does not
 * fit (parent NONE: all fit). Every allocation before the first copy: a failure for memory
 * leaves the graph as it was. */
static otv_status resolve(otv_graph *g, sched *s, bool fix, otv_graph_overflow *first,
                          size_t *fixed)
{
  *first = (otv_graph_overflow){OTV_OBJ_NONE, OTV_OBJ_NONE, 0};
  *fixed = 0;
  s->plan_len = 0;
  bool lists = false;
  for (size_t i = 0; i < s->count; i++) {
    otv_obj p = s->order[i];
    const gobj *o = &g->objs[p];
    for (size_t k = 0; k < o->link_count; k++) {
      const glink *l = &g->links[o->link_off + k];
      size_t from = s->pos[p], to = s->pos[l->target];
      size_t limit = l->width == 2 ? GRAPH_MAX_OFF16 : GRAPH_MAX_OFF32;
      if (to >= from && to - from <= limit) continue;
      if (first->parent == OTV_OBJ_NONE) /* named as the caller built them */
        *first = (otv_graph_overflow){origin_of(g, p), l->child, l->pos};
      if (!fix || l->width != 2 || s->parents[l->target] < 2) continue;
      otv_status st = lists ? OTV_E_OK : parent_lists(g, s);
      if (st == OTV_E_OK) st = plan_copies(g, s, l->target);
      if (st != OTV_E_OK) return st;
      lists = true;
      s->parents[l->target] = 0; /* planned */
    }
  }
  if (s->plan_len == 0) return OTV_E_OK;
  size_t links = 0;
  for (size_t q = 0; q < s->plan_len; q++)
    links = sat_add(links, g->objs[s->plan[q].child].link_count);
  if (links > SIZE_MAX - g->links_len || s->plan_len > SIZE_MAX - g->obj_len ||
      OTV_RESERVE(&g->al, &g->links, &g->links_cap, g->links_len + links, sizeof(glink)) ||
      OTV_RESERVE(&g->al, &g->objs, &g->obj_cap, g->obj_len + s->plan_len, sizeof(gobj)))
    return OTV_E_NOMEM;
  for (size_t q = 0; q < s->plan_len; q++) {
    const gplan *pq = &s->plan[q];
    otv_status st = duplicate(g, pq->child, s->plist + pq->from, pq->to - pq->from);
    if (st == OTV_E_NOMEM) return st; /* not reached: reserved above */
    if (st == OTV_E_OK) ++*fixed;
  }
  return OTV_E_OK;
}

/* Append the placed objects to out, every link field filled (all fit: resolve said so). */
static otv_status emit(const otv_graph *g, const sched *s, otv_buf *out)
{
  if (s->total == 0) return OTV_E_OK;
  bool was_failed = out->failed;
  if (!otv_buf_reserve(out, s->total)) {
    out->failed = was_failed; /* out as it was: the caller may retry */
    return OTV_E_NOMEM;
  }
  uint8_t *base = out->p + out->len;
  for (size_t i = 0; i < s->count; i++) {
    otv_obj v = s->order[i];
    const gobj *o = &g->objs[v];
    uint8_t *at = base + s->pos[v]; /* in range: pos + len <= total, reserved */
    if (o->len) memcpy(at, g->bytes + o->off, o->len);
    for (size_t k = 0; k < o->link_count; k++) {
      const glink *l = &g->links[o->link_off + k];
      size_t off = s->pos[l->target] - s->pos[v]; /* >= 0 and fits: checked by resolve */
      /* in range: links_valid put the field inside the object */
      if (l->width == 2)
        otv_put_u16(at + l->pos, (uint16_t)off);
      else
        otv_put_u32(at + l->pos, (uint32_t)off);
    }
  }
  out->len += s->total;
  return OTV_E_OK;
}

otv_status otv_graph_write(otv_graph *g, otv_obj root, otv_buf *out, otv_graph_overflow *ov)
{
  if (ov) *ov = (otv_graph_overflow){OTV_OBJ_NONE, OTV_OBJ_NONE, 0};
  if (!g || !out) return OTV_E_ARG;
  if (g->status != OTV_E_OK) return g->status;
  if (root == OTV_OBJ_NONE || root >= g->obj_len) return OTV_E_ARG;
  sched s;
  memset(&s, 0, sizeof s);
  otv_status st;
  for (unsigned round = 1;; round++) {
    otv_graph_overflow first = {OTV_OBJ_NONE, OTV_OBJ_NONE, 0};
    size_t fixed = 0;
    st = place(g, &s, root);
    if (st == OTV_E_OK) st = resolve(g, &s, round < GRAPH_MAX_ROUNDS, &first, &fixed);
    if (st != OTV_E_OK) break;
    if (first.parent == OTV_OBJ_NONE) {
      st = emit(g, &s, out);
      break;
    }
    if (fixed == 0) { /* every overflow is beyond a copy's help, or the rounds are spent */
      if (ov) *ov = first;
      st = OTV_E_LIMIT;
      break;
    }
  }
  sched_free(&g->al, &s);
  return st;
}

/*
 * test_graph.c - the offset-graph serializer (core/graph.c): dedup of equal objects (leaves,
 * parents with equal children, link order and placeholder bytes not mattering), written graphs
 * decoded back by following their offsets and compared with what was built, the placement
 * (parents before children, small children first, 4-byte-linked sub-graphs after everything
 * else and one after the other), an overflow fixed by duplicating a shared child and one that
 * cannot be (OTV_E_LIMIT naming the link, out unchanged), runs of parents sharing one copy (Source
 * Serif 4's six PairPos sub-tables and one ClassDef: three objects; parents too big to share
 * one: a copy each, in one round), the sticky failures (depth, bad links),
 * an allocation-failure loop (the Nth allocation failing, and every one from the Nth) and a
 * graph of 200,000 objects.
 */
#include "harness.h"
#include "core/graph.h"

static unsigned rd16(const uint8_t *p) { return (unsigned)p[0] << 8 | p[1]; }
static uint32_t rd32(const uint8_t *p)
{
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* ---- a model of what was built, to decode a written graph against ---- */

typedef struct tlink {
  size_t pos;
  unsigned width;
  otv_obj child;
} tlink;

typedef struct tobj {
  uint8_t *bytes; /* link fields zeroed */
  size_t len;
  tlink *links;
  size_t link_count;
} tobj;

typedef struct tmodel {
  tobj *o; /* by id */
  size_t cap;
} tmodel;

static void model_free(tmodel *m)
{
  for (size_t i = 0; i < m->cap; i++) {
    free(m->o[i].bytes);
    free(m->o[i].links);
  }
  free(m->o);
  memset(m, 0, sizeof *m);
}

/* One object with its bytes and links (its children built before), recorded into m (if any). */
static otv_obj build(otv_graph *g, tmodel *m, const uint8_t *bytes, size_t len, const tlink *links,
                     size_t n)
{
  otv_buf *b = otv_graph_push(g);
  if (!b) return OTV_OBJ_NONE;
  otv_buf_bytes(b, bytes, len);
  for (size_t k = 0; k < n; k++) otv_graph_link(g, links[k].pos, links[k].width, links[k].child);
  otv_obj id = otv_graph_pop(g);
  if (!m || id == OTV_OBJ_NONE) return id;
  if (id >= m->cap) {
    size_t cap = m->cap ? m->cap : 64;
    while (cap <= id) cap *= 2;
    m->o = realloc(m->o, cap * sizeof *m->o);
    if (!m->o) exit(1);
    memset(m->o + m->cap, 0, (cap - m->cap) * sizeof *m->o);
    m->cap = cap;
  }
  tobj *o = &m->o[id];
  if (o->bytes) return id; /* an equal object was built before */
  o->bytes = malloc(len + 1);
  o->links = malloc((n + 1) * sizeof *o->links);
  if (!o->bytes || !o->links) exit(1);
  memcpy(o->bytes, bytes, len);
  o->len = len;
  for (size_t k = 0; k < n; k++) {
    memset(o->bytes + links[k].pos, 0, links[k].width);
    o->links[k] = links[k];
  }
  o->link_count = n;
  return id;
}

/* Decoding a written graph: every object reached from the root is checked once (where it is
 * reached again, it must be the same object). first_pos: where each id was first found. */
typedef struct twalk {
  const tmodel *m;
  const uint8_t *p;
  size_t len;
  otv_obj *at_id; /* per byte of p: the object that starts there */
  size_t covered; /* bytes of the objects found */
  size_t *first_pos;
  bool bad;
} twalk;

static void walk(twalk *w, size_t at, otv_obj id, unsigned depth)
{
  if (w->bad) return;
  CHECK(id < w->m->cap && w->m->o[id].bytes);
  CHECK(depth < 100000);
  const tobj *o = id < w->m->cap ? &w->m->o[id] : NULL;
  if (!o || !o->bytes || depth >= 100000 || at > w->len || o->len > w->len - at) {
    CHECK(at <= w->len && o && o->len <= w->len - at);
    w->bad = true;
    return;
  }
  if (w->at_id[at]) {
    CHECK_EQ(w->at_id[at], id);
    if (w->at_id[at] != id) w->bad = true;
    return;
  }
  w->at_id[at] = id;
  w->covered += o->len;
  if (w->first_pos[id] == SIZE_MAX) w->first_pos[id] = at;
  uint8_t *copy = malloc(o->len + 1);
  if (!copy) exit(1);
  memcpy(copy, w->p + at, o->len);
  for (size_t k = 0; k < o->link_count; k++) memset(copy + o->links[k].pos, 0, o->links[k].width);
  bool same = memcmp(copy, o->bytes, o->len) == 0;
  free(copy);
  CHECK(same);
  if (!same) {
    w->bad = true;
    return;
  }
  for (size_t k = 0; k < o->link_count; k++) {
    const tlink *l = &o->links[k];
    const uint8_t *f = w->p + at + l->pos;
    size_t off = l->width == 2 ? rd16(f) : rd32(f);
    CHECK(off >= o->len); /* parents before children: the child starts past the parent */
    walk(w, at + off, l->child, depth + 1);
  }
}

/* Decode p[0, len) from the root: every object as built, every byte covered by one. Returns the
 * first position of each id (malloc'd, SIZE_MAX: not found). */
static size_t *decode(const uint8_t *p, size_t len, const tmodel *m, otv_obj root)
{
  twalk w = {m,    p, len, calloc(len + 1, sizeof(otv_obj)), 0, malloc(m->cap * sizeof(size_t)),
             false};
  if (!w.at_id || !w.first_pos) exit(1);
  for (size_t i = 0; i < m->cap; i++) w.first_pos[i] = SIZE_MAX;
  walk(&w, 0, root, 0);
  CHECK(!w.bad);
  CHECK_EQ(w.covered, len);
  free(w.at_id);
  return w.first_pos;
}

/* ---- dedup ---- */

static void test_dedup(void)
{
  otv_graph *g = otv_graph_new(NULL);
  CHECK(g != NULL);
  const uint8_t a[] = {1, 2, 3}, c[] = {1, 2, 4};
  otv_obj A = build(g, NULL, a, 3, NULL, 0);
  otv_obj A2 = build(g, NULL, a, 3, NULL, 0);
  otv_obj C = build(g, NULL, c, 3, NULL, 0);
  CHECK_EQ(A, 1); /* ids start at 1 */
  CHECK_EQ(A2, A);
  CHECK(C != A && C != OTV_OBJ_NONE);
  CHECK_EQ(otv_graph_count(g), 2);
  CHECK_EQ(otv_graph_bytes(g), 6);

  /* parents: an offset at 0, two bytes of data; the link field's bytes do not matter */
  const uint8_t p[] = {0, 0, 9, 9}, pj[] = {0xAB, 0xCD, 9, 9};
  const tlink la = {0, 2, A}, lc = {0, 2, C}, la2 = {2, 2, A}, la4 = {0, 4, A};
  otv_obj P1 = build(g, NULL, p, 4, &la, 1);
  otv_obj P2 = build(g, NULL, pj, 4, &la, 1);
  otv_obj P3 = build(g, NULL, p, 4, &lc, 1);
  otv_obj P4 = build(g, NULL, p, 4, &la2, 1);
  otv_obj P5 = build(g, NULL, p, 4, &la4, 1);
  otv_obj P6 = build(g, NULL, p, 4, NULL, 0);
  CHECK_EQ(P2, P1);
  CHECK(P3 != P1);             /* another child */
  CHECK(P4 != P1 && P4 != P3); /* the link elsewhere */
  CHECK(P5 != P1 && P5 != P4); /* a 4-byte link */
  CHECK(P6 != P1 && P6 != P5); /* no link */
  CHECK_EQ(otv_graph_count(g), 7);

  /* links recorded in another order; a NULL offset records nothing */
  const tlink two[] = {{0, 2, A}, {2, 2, C}}, owt[] = {{2, 2, C}, {0, 2, A}};
  CHECK_EQ(build(g, NULL, p, 4, two, 2), build(g, NULL, p, 4, owt, 2));
  const tlink none = {0, 2, OTV_OBJ_NONE};
  CHECK_EQ(build(g, NULL, a, 3, &none, 1), A);

  /* a small tree built twice: every object the same as the first time */
  otv_obj ids[2][4];
  size_t count = 0;
  for (int t = 0; t < 2; t++) {
    const uint8_t x[] = {7, 7}, y[] = {8, 8, 8}, mid[] = {0, 0, 0, 0, 5}, top[] = {0, 0, 0, 0};
    ids[t][0] = build(g, NULL, x, 2, NULL, 0);
    ids[t][1] = build(g, NULL, y, 3, NULL, 0);
    const tlink ml[] = {{0, 2, ids[t][0]}, {2, 2, ids[t][1]}};
    ids[t][2] = build(g, NULL, mid, 5, ml, 2);
    const tlink tl[] = {{0, 2, ids[t][2]}, {2, 2, ids[t][0]}};
    ids[t][3] = build(g, NULL, top, 4, tl, 2);
    if (t == 0) count = otv_graph_count(g);
  }
  for (int i = 0; i < 4; i++) CHECK_EQ(ids[1][i], ids[0][i]);
  CHECK_EQ(otv_graph_count(g), count);
  CHECK(otv_graph_status(g) == OTV_E_OK);

  /* discard forgets the object; the level is reused by the next push */
  otv_buf *b = otv_graph_push(g);
  otv_buf_u32(b, 0xDEADBEEF);
  otv_graph_discard(g);
  CHECK_EQ(otv_graph_count(g), count);
  CHECK_EQ(build(g, NULL, a, 3, NULL, 0), A);
  otv_graph_free(g);
  otv_graph_free(NULL);
}

/* ---- a random graph written and decoded back ---- */

static void test_roundtrip(void)
{
  otv_alloc al;
  otv_alloc_init(&al, NULL);
  otv_graph *g = otv_graph_new(&al);
  tmodel m = {0};
  uint64_t seed = 0x9E3779B97F4A7C15ull;
  otv_obj built[400];
  size_t nbuilt = 0;
  for (int i = 0; i < 400; i++) {
    tlink links[5];
    size_t n = nbuilt ? h_xorshift64(&seed) % 6 : 0, pos = 0;
    for (size_t k = 0; k < n; k++) {
      unsigned width = h_xorshift64(&seed) % 8 == 0 ? 4 : 2;
      links[k] = (tlink){pos, width, built[h_xorshift64(&seed) % nbuilt]};
      pos += width;
    }
    uint8_t bytes[64];
    size_t len = pos + 1 + h_xorshift64(&seed) % 40;
    for (size_t j = 0; j < len; j++) bytes[j] = (uint8_t)h_xorshift64(&seed);
    otv_obj id = build(g, &m, bytes, len, links, n);
    CHECK(id != OTV_OBJ_NONE);
    built[nbuilt++] = id;
  }
  /* the root: 2-byte offsets to 60 random objects, then one to the last */
  tlink rl[61];
  uint8_t rb[122 + 3] = {0};
  for (size_t k = 0; k < 61; k++)
    rl[k] = (tlink){2 * k, 2, k < 60 ? built[h_xorshift64(&seed) % nbuilt] : built[nbuilt - 1]};
  rb[122] = 0x55;
  otv_obj root = build(g, &m, rb, sizeof rb, rl, 61);
  CHECK(root != OTV_OBJ_NONE);

  /* the objects reachable from the root, each once: what the output must hold */
  bool *seen = calloc(m.cap, 1);
  otv_obj *stack = malloc(m.cap * 8 * sizeof *stack);
  size_t sp = 0, want = 0;
  stack[sp++] = root;
  while (sp) {
    otv_obj v = stack[--sp];
    if (seen[v]) continue;
    seen[v] = true;
    want += m.o[v].len;
    for (size_t k = 0; k < m.o[v].link_count; k++) stack[sp++] = m.o[v].links[k].child;
  }

  otv_buf out;
  otv_buf_init(&out, &al);
  otv_buf_bytes(&out, "abc", 3); /* offsets count from each object, not from the buffer */
  otv_graph_overflow ov = {1, 1, 1};
  CHECK_EQ(otv_graph_write(g, root, &out, &ov), OTV_E_OK);
  CHECK_EQ(ov.parent, OTV_OBJ_NONE);
  CHECK_EQ(out.len, 3 + want); /* no copies: everything fits */
  CHECK(memcmp(out.p, "abc", 3) == 0);
  size_t *at = decode(out.p + 3, out.len - 3, &m, root);
  CHECK_EQ(at[root], 0); /* the root first */
  free(at);

  /* again, from another root: a sub-graph alone */
  out.len = 0;
  otv_obj sub = built[nbuilt - 1];
  CHECK_EQ(otv_graph_write(g, sub, &out, NULL), OTV_E_OK);
  free(decode(out.p, out.len, &m, sub));

  otv_buf_free(&out);
  free(seen);
  free(stack);
  model_free(&m);
  otv_graph_free(g);
}

/* ---- placement ---- */

static void fill(uint8_t *p, size_t len, uint8_t v)
{
  for (size_t i = 0; i < len; i++) p[i] = (uint8_t)(v + i * 7);
}

static void test_order(void)
{
  otv_graph *g = otv_graph_new(NULL);
  tmodel m = {0};
  static uint8_t big[1000];
  uint8_t small[16];
  fill(big, sizeof big, 1);
  fill(small, sizeof small, 2);
  otv_obj A = build(g, &m, big, 1000, NULL, 0); /* big, linked first */
  otv_obj C = build(g, &m, small, 10, NULL, 0);
  small[0] = 0;
  small[1] = 0;
  const tlink lb = {0, 2, C};
  otv_obj B = build(g, &m, small, 10, &lb, 1); /* small, with a small child */
  otv_obj Y[2], X[2];
  for (int i = 0; i < 2; i++) {
    fill(small, sizeof small, (uint8_t)(10 + i));
    Y[i] = build(g, &m, small, 8, NULL, 0);
    const tlink lx = {2, 2, Y[i]};
    X[i] = build(g, &m, small, 6, &lx, 1); /* reached through a 4-byte offset only */
  }
  const tlink rl[] = {{0, 2, A}, {2, 2, B}, {4, 4, X[0]}, {8, 4, X[1]}};
  uint8_t rb[14] = {0};
  otv_obj root = build(g, &m, rb, sizeof rb, rl, 4);

  otv_alloc al;
  otv_alloc_init(&al, NULL);
  otv_buf out;
  otv_buf_init(&out, &al);
  CHECK_EQ(otv_graph_write(g, root, &out, NULL), OTV_E_OK);
  size_t *at = decode(out.p, out.len, &m, root);
  CHECK_EQ(at[root], 0);
  CHECK(at[B] < at[A]);       /* the small sibling first */
  CHECK(at[C] < at[A]);       /* and its small child: nearer than the big sibling */
  CHECK(at[B] < at[C]);       /* parents first */
  CHECK(at[X[0]] > at[A]);    /* 4-byte sub-graphs after everything else */
  CHECK(at[Y[0]] > at[X[0]]); /* parents first */
  CHECK(at[Y[0]] < at[X[1]]); /* one sub-graph after the other, not interleaved */
  CHECK(at[Y[1]] > at[X[1]]);
  CHECK_EQ(at[Y[1]] + 8, out.len); /* the last */
  free(at);
  otv_buf_free(&out);
  model_free(&m);
  otv_graph_free(g);
}

/* ---- overflows ---- */

/* A shared leaf L: A (at the start) and P (past 80 KiB of a chain of big objects) point to it.
 * Kahn puts L after P, out of A's reach; a copy of L for A fixes it. */
static otv_obj build_shared_far(otv_graph *g, tmodel *m, otv_obj *a, otv_obj *leaf)
{
  static uint8_t big[20000];
  const uint8_t l[] = {0x11, 0x22}, pa[] = {0, 0, 0xA0, 0xA1}, pp[] = {0, 0, 0xB0, 0xB1};
  otv_obj L = build(g, m, l, 2, NULL, 0);
  const tlink ll = {0, 2, L};
  otv_obj A = build(g, m, pa, 4, &ll, 1);
  otv_obj next = build(g, m, pp, 4, &ll, 1);
  for (int i = 0; i < 4; i++) {
    fill(big, sizeof big, (uint8_t)(0x40 + i));
    const tlink lb = {0, 2, next};
    next = build(g, m, big, sizeof big, &lb, 1);
  }
  const tlink rl[] = {{0, 2, A}, {2, 2, next}};
  const uint8_t rb[4] = {0};
  if (a) *a = A;
  if (leaf) *leaf = L;
  return build(g, m, rb, 4, rl, 2);
}

static void test_overflow_fixed(void)
{
  otv_graph *g = otv_graph_new(NULL);
  tmodel m = {0};
  otv_obj A, L;
  otv_obj root = build_shared_far(g, &m, &A, &L);
  size_t count = otv_graph_count(g), bytes = otv_graph_bytes(g);
  otv_alloc al;
  otv_alloc_init(&al, NULL);
  otv_buf out, again;
  otv_buf_init(&out, &al);
  otv_buf_init(&again, &al);
  CHECK_EQ(otv_graph_write(g, root, &out, NULL), OTV_E_OK);
  CHECK_EQ(out.len, bytes + 2);        /* one copy of the 2-byte leaf */
  CHECK_EQ(otv_graph_count(g), count); /* copies are not counted */
  CHECK_EQ(otv_graph_bytes(g), bytes);
  size_t *at = decode(out.p, out.len, &m, root);
  CHECK(at[A] < 16 && out.len > 16 && rd16(out.p + at[A]) < 16); /* A's own copy, right after */
  CHECK(out.len > 2 && out.p[out.len - 2] == 0x11 && out.p[out.len - 1] == 0x22); /* L: last */
  (void)L;
  free(at);

  /* the copy stays; a second write gives the same table, and the objects still dedup */
  CHECK_EQ(otv_graph_write(g, root, &again, NULL), OTV_E_OK);
  CHECK(again.len == out.len && memcmp(again.p, out.p, out.len) == 0);
  CHECK_EQ(build_shared_far(g, NULL, NULL, NULL), root);
  CHECK_EQ(otv_graph_count(g), count);
  otv_buf_free(&out);
  otv_buf_free(&again);
  model_free(&m);
  otv_graph_free(g);
}

static void test_overflow_limit(void)
{
  otv_graph *g = otv_graph_new(NULL);
  tmodel m = {0};
  static uint8_t big[30001];
  otv_obj B[3];
  for (int i = 0; i < 3; i++) {
    fill(big, sizeof big, (uint8_t)i);
    B[i] = build(g, &m, big, 30000, NULL, 0);
  }
  fill(big, sizeof big, 9);
  otv_obj C = build(g, &m, big, 30001, NULL, 0); /* the biggest: placed last, past 90,000 */
  const tlink rl[] = {{0, 2, B[0]}, {2, 2, B[1]}, {4, 2, B[2]}, {6, 2, C}};
  const uint8_t rb[8] = {0};
  otv_obj root = build(g, &m, rb, 8, rl, 4);

  otv_alloc al;
  otv_alloc_init(&al, NULL);
  otv_buf out;
  otv_buf_init(&out, &al);
  otv_buf_u16(&out, 0xAABB);
  uint8_t *before = out.p;
  otv_graph_overflow ov = {0, 0, 0};
  CHECK_EQ(otv_graph_write(g, root, &out, &ov), OTV_E_LIMIT);
  CHECK_EQ(ov.parent, root);
  CHECK_EQ(ov.child, C);
  CHECK_EQ(ov.pos, 6);
  CHECK_EQ(out.len, 2); /* out unchanged */
  CHECK(out.p == before && rd16(out.p) == 0xAABB && !out.failed);
  CHECK_EQ(otv_graph_write(g, root, &out, NULL), OTV_E_LIMIT); /* ov may be NULL */
  CHECK(otv_graph_status(g) == OTV_E_OK);

  /* the caller's way out: a 4-byte offset (the Extension lookups of layout) */
  const tlink rl4[] = {{0, 2, B[0]}, {2, 2, B[1]}, {4, 2, B[2]}, {6, 4, C}};
  const uint8_t rb4[10] = {0};
  otv_obj root4 = build(g, &m, rb4, 10, rl4, 4);
  CHECK_EQ(otv_graph_write(g, root4, &out, &ov), OTV_E_OK);
  CHECK_EQ(ov.parent, OTV_OBJ_NONE);
  CHECK_EQ(out.len, 2 + 10 + 3 * 30000 + 30001);
  free(decode(out.p + 2, out.len - 2, &m, root4));
  otv_buf_free(&out);
  model_free(&m);
  otv_graph_free(g);
}

/* A Lookup of Extension sub-tables: root -> n objects of 8 bytes (2-byte offsets), each with a
 * 4-byte offset to a big parent of size[i] bytes, each with a 2-byte offset (at 0) to one leaf
 * of leaf_len bytes that all share (a ClassDef shared by PairPos format 2 sub-tables). */
enum { FAN_MAX = 40 };

static otv_obj build_fan(otv_graph *g, tmodel *m, const size_t *size, size_t n, size_t leaf_len,
                         otv_obj *leaf)
{
  static uint8_t bytes[65536];
  fill(bytes, leaf_len, 0x77);
  memcpy(bytes, "LEAF", 4); /* in no parent: fill steps by 7 */
  *leaf = build(g, m, bytes, leaf_len, NULL, 0);
  otv_obj ext[FAN_MAX];
  for (size_t i = 0; i < n; i++) {
    fill(bytes, size[i], (uint8_t)(0x10 * i + 1));
    bytes[2] = (uint8_t)i; /* distinct: not merged by the dedup */
    const tlink lp = {0, 2, *leaf};
    otv_obj p = build(g, m, bytes, size[i], &lp, 1);
    const uint8_t eb[8] = {0, 1, 0, 2};
    const tlink le = {4, 4, p};
    ext[i] = build(g, m, eb, 8, &le, 1);
  }
  tlink rl[FAN_MAX];
  uint8_t rb[2 + 2 * FAN_MAX] = {0, 9};
  for (size_t i = 0; i < n; i++) rl[i] = (tlink){2 + 2 * i, 2, ext[i]};
  return build(g, m, rb, 2 + 2 * n, rl, n);
}

/* Write the fan; at[i]: where parent i is, leaf_at[i]: where its leaf is (decoded from the
 * offsets). Returns the number of leaves written (distinct positions), 0 on failure. */
static size_t write_fan(const size_t *size, size_t n, size_t leaf_len, size_t *at, size_t *leaf_at)
{
  otv_graph *g = otv_graph_new(NULL);
  tmodel m = {0};
  otv_obj leaf;
  otv_obj root = build_fan(g, &m, size, n, leaf_len, &leaf);
  CHECK(root != OTV_OBJ_NONE);
  size_t bytes = otv_graph_bytes(g), copies = 0;
  otv_alloc al;
  otv_alloc_init(&al, NULL);
  otv_buf out;
  otv_buf_init(&out, &al);
  otv_status st = otv_graph_write(g, root, &out, NULL);
  CHECK_EQ(st, OTV_E_OK);
  if (st == OTV_E_OK) {
    free(decode(out.p, out.len, &m, root)); /* every offset decoded, every byte covered */
    for (size_t i = 0; i < n; i++) {
      size_t ext = 2 + 2 * i < out.len ? rd16(out.p + 2 + 2 * i) : SIZE_MAX;
      CHECK(ext != SIZE_MAX && ext + 8 <= out.len);
      if (ext == SIZE_MAX || ext + 8 > out.len) return 0;
      at[i] = ext + rd32(out.p + ext + 4);
      CHECK(at[i] + 2 <= out.len);
      if (at[i] + 2 > out.len) return 0;
      leaf_at[i] = at[i] + rd16(out.p + at[i]);
      bool seen = false;
      for (size_t q = 0; q < i; q++) seen |= leaf_at[q] == leaf_at[i];
      copies += !seen;
    }
    CHECK_EQ(out.len, bytes + (copies - 1) * leaf_len); /* nothing else copied */
    size_t holding = 0; /* the objects holding the leaf's bytes, counted in the output */
    for (size_t q = 0; q + 4 <= out.len; q++) holding += memcmp(out.p + q, "LEAF", 4) == 0;
    CHECK_EQ(holding, copies);
  }
  otv_buf_free(&out);
  model_free(&m);
  otv_graph_free(g);
  return st == OTV_E_OK ? copies : 0;
}

/* Source Serif 4's GPOS lookup 7: six PairPos format 2 sub-tables sharing one ClassDef2. Each
 * pair of parents, with the leaf after it, fits in 64 KiB: three leaves (one copy per pair, the
 * last pair keeping the original), each placed right after the second parent of its pair. */
static void test_overflow_shared_runs(void)
{
  const size_t size[] = {26500, 27000, 27000, 29000, 30000, 15000};
  size_t at[FAN_MAX], leaf_at[FAN_MAX];
  size_t leaves = write_fan(size, 6, 2500, at, leaf_at);
  CHECK_EQ(leaves, 3);
  for (size_t i = 0; i < 6 && leaves; i += 2) {
    CHECK_EQ(leaf_at[i], leaf_at[i + 1]);
    CHECK_EQ(at[i + 1], at[i] + size[i]);          /* the pair, end to end */
    CHECK_EQ(leaf_at[i], at[i + 1] + size[i + 1]); /* its leaf right after */
  }

  /* 40 parents of 40 KB: no two fit with the leaf, each gets its own copy (the last the
   * original), right after it, all in the first round: runs too long, split one parent a round,
   * would need more rounds than there are */
  size_t big[FAN_MAX];
  for (size_t i = 0; i < FAN_MAX; i++) big[i] = 40000;
  leaves = write_fan(big, FAN_MAX, 2500, at, leaf_at);
  CHECK_EQ(leaves, FAN_MAX);
  for (size_t i = 0; i < FAN_MAX && leaves; i++) CHECK_EQ(leaf_at[i], at[i] + 40000);

  /* a run of three, one alone (it and the next two do not fit), and the last two, close enough
   * already, keep the original */
  const size_t mixed[] = {20000, 20000, 20000, 30000, 30000, 20000};
  leaves = write_fan(mixed, 6, 2500, at, leaf_at);
  CHECK_EQ(leaves, 3);
  if (leaves) {
    CHECK(leaf_at[0] == leaf_at[1] && leaf_at[1] == leaf_at[2] && leaf_at[4] == leaf_at[5]);
    CHECK_EQ(leaf_at[2], at[2] + 20000);
    CHECK_EQ(leaf_at[3], at[3] + 30000);
    CHECK_EQ(leaf_at[5], at[5] + 20000);
  }
}

/* ---- sticky failures ---- */

static void test_depth(void)
{
  /* 32 open at once: fine; a chain 32 deep written and decoded */
  otv_graph *g = otv_graph_new(NULL);
  otv_obj child = OTV_OBJ_NONE;
  for (int i = 0; i < OTV_GRAPH_MAX_DEPTH; i++) {
    otv_buf *b = otv_graph_push(g);
    CHECK(b != NULL);
    if (b) otv_buf_u32(b, (uint32_t)i); /* the link field, then i */
  }
  for (int i = OTV_GRAPH_MAX_DEPTH - 1; i >= 0; i--) {
    if (child != OTV_OBJ_NONE) otv_graph_link(g, 0, 2, child); /* into the object still open */
    child = otv_graph_pop(g);
    CHECK(child != OTV_OBJ_NONE);
  }
  otv_alloc al;
  otv_alloc_init(&al, NULL);
  otv_buf out;
  otv_buf_init(&out, &al);
  CHECK_EQ(otv_graph_write(g, child, &out, NULL), OTV_E_OK);
  CHECK_EQ(out.len, 4 * OTV_GRAPH_MAX_DEPTH);
  for (size_t i = 0; i < OTV_GRAPH_MAX_DEPTH; i++) { /* each object's child right after it */
    CHECK_EQ(rd16(out.p + 4 * i), i + 1 < OTV_GRAPH_MAX_DEPTH ? 4 : 0);
    CHECK_EQ(rd16(out.p + 4 * i + 2), i);
  }
  otv_obj root = child;

  /* one more: the graph fails, for good */
  for (int i = 0; i < OTV_GRAPH_MAX_DEPTH; i++) otv_graph_push(g);
  CHECK(otv_graph_push(g) == NULL);
  CHECK(OTV_E_OK != otv_graph_status(g));
  CHECK_EQ(otv_graph_pop(g), OTV_OBJ_NONE);
  CHECK(otv_graph_push(g) == NULL);
  size_t len = out.len;
  CHECK_EQ(otv_graph_write(g, root, &out, NULL), OTV_E_LIMIT);
  CHECK_EQ(out.len, len);
  otv_buf_free(&out);
  otv_graph_free(g);
}

static void test_bad_links(void)
{
  const uint8_t four[4] = {1, 2, 3, 4};
  enum { OUTSIDE, END, WIDTH, CHILD, OVERLAP, SAME_POS, POP_EMPTY, LINK_EMPTY, CASES };
  for (int c = 0; c < CASES; c++) {
    otv_graph *g = otv_graph_new(NULL);
    otv_obj leaf = build(g, NULL, four, 2, NULL, 0);
    CHECK_EQ(leaf, 1);
    tlink l[2] = {{0, 2, leaf}, {2, 2, leaf}};
    size_t n = 1;
    switch (c) {
    case OUTSIDE: l[0].pos = 3; break;
    case END: l[0].pos = 5; break;
    case WIDTH: l[0].width = 3; break;
    case CHILD: l[0].child = 2; break;
    case OVERLAP: l[0].width = 4, n = 2; break;
    case SAME_POS: l[1].pos = 0, n = 2; break;
    default: break;
    }
    if (c == POP_EMPTY) {
      CHECK_EQ(otv_graph_pop(g), OTV_OBJ_NONE);
    } else if (c == LINK_EMPTY) {
      otv_graph_link(g, 0, 2, leaf);
    } else {
      CHECK_EQ(build(g, NULL, four, 4, l, n), OTV_OBJ_NONE);
    }
    CHECK(OTV_E_OK != otv_graph_status(g));
    CHECK_EQ(otv_graph_count(g), 1);
    CHECK(otv_graph_push(g) == NULL);
    CHECK_EQ(build(g, NULL, four, 3, NULL, 0), OTV_OBJ_NONE);
    otv_buf out;
    otv_alloc al;
    otv_alloc_init(&al, NULL);
    otv_buf_init(&out, &al);
    CHECK_EQ(otv_graph_write(g, leaf, &out, NULL), OTV_E_LIMIT);
    CHECK_EQ(out.len, 0);
    otv_graph_free(g);
  }

  /* a fine graph: writing no object is a misuse, not a failure of the graph */
  otv_graph *g = otv_graph_new(NULL);
  otv_obj leaf = build(g, NULL, four, 4, NULL, 0);
  otv_alloc al;
  otv_alloc_init(&al, NULL);
  otv_buf out;
  otv_buf_init(&out, &al);
  CHECK_EQ(otv_graph_write(g, OTV_OBJ_NONE, &out, NULL), OTV_E_ARG);
  CHECK_EQ(otv_graph_write(g, leaf + 1, &out, NULL), OTV_E_ARG);
  CHECK_EQ(otv_graph_write(NULL, leaf, &out, NULL), OTV_E_ARG);
  CHECK(otv_graph_status(g) == OTV_E_OK);
  CHECK_EQ(otv_graph_write(g, leaf, &out, NULL), OTV_E_OK);
  CHECK(out.len == 4 && memcmp(out.p, four, 4) == 0);
  otv_buf_free(&out);
  otv_graph_free(g);
  CHECK(OTV_E_OK != otv_graph_status(NULL));
  CHECK(otv_graph_push(NULL) == NULL);
}

/* ---- allocation failure ---- */

typedef struct falloc {
  long calls, fail_at, live_blocks;
  long long live_bytes;
  bool sticky; /* every allocation from fail_at on fails */
} falloc;

static void *fa_realloc(void *ud, void *ptr, size_t old_len, size_t new_len)
{
  falloc *a = ud;
  if (new_len) {
    a->calls++;
    if (a->fail_at && (a->sticky ? a->calls >= a->fail_at : a->calls == a->fail_at)) return NULL;
  }
  return h_track(&a->live_blocks, &a->live_bytes, ptr, old_len, new_len);
}

/* Everything: dedup, nesting, an overflow fixed by a copy, write. out receives the table. */
static otv_status scenario(const otv_alloc *al, otv_buf *out, bool retry)
{
  otv_graph *g = otv_graph_new(al);
  if (!g) return OTV_E_NOMEM;
  otv_obj root = build_shared_far(g, NULL, NULL, NULL);
  /* objects built inside an open one, some equal */
  otv_buf *b = otv_graph_push(g);
  for (unsigned i = 0; b && i < 40; i++) {
    otv_buf_u16(b, 0);
    otv_buf *leaf = otv_graph_push(g);
    if (leaf) otv_buf_u16(leaf, (uint16_t)(i % 25));
    otv_graph_link(g, 2 * i, 2, otv_graph_pop(g));
  }
  otv_obj list = otv_graph_pop(g);
  b = otv_graph_push(g);
  if (b) otv_buf_zeros(b, 4);
  otv_graph_link(g, 0, 2, root);
  otv_graph_link(g, 2, 2, list);
  otv_obj top = otv_graph_pop(g);
  otv_status st =
      OTV_E_OK != otv_graph_status(g) ? OTV_E_NOMEM : otv_graph_write(g, top, out, NULL);
  if (st == OTV_E_NOMEM && otv_graph_status(g) == OTV_E_OK && retry) {
    /* a write that failed for memory leaves the graph whole: retried, it succeeds */
    CHECK_EQ(out->len, 0);
    st = otv_graph_write(g, top, out, NULL);
    CHECK_EQ(st, OTV_E_OK);
  }
  otv_graph_free(g);
  return st;
}

static void test_alloc_fail(void)
{
  otv_alloc libc;
  otv_alloc_init(&libc, NULL);
  otv_buf ref;
  otv_buf_init(&ref, &libc);
  CHECK_EQ(scenario(&libc, &ref, false), OTV_E_OK);
  CHECK(ref.len > 80000);
  for (int sticky = 0; sticky < 2; sticky++) {
    long runs = 0;
    for (long n = 1; n < 100000; n++) {
      falloc a = {0, n, 0, 0, sticky != 0};
      otv_options opt = {fa_realloc, &a, 0};
      otv_alloc al;
      otv_alloc_init(&al, &opt);
      otv_buf out;
      otv_buf_init(&out, &al);
      otv_status st = scenario(&al, &out, !sticky);
      CHECK(st == OTV_E_OK || st == OTV_E_NOMEM);
      if (st == OTV_E_OK) CHECK(out.len == ref.len && memcmp(out.p, ref.p, ref.len) == 0);
      otv_buf_free(&out);
      CHECK_EQ(a.live_blocks, 0);
      CHECK_EQ(a.live_bytes, 0);
      runs++;
      if (a.calls < n) { /* nothing failed: every allocation has had its turn */
        CHECK_EQ(st, OTV_E_OK);
        break;
      }
    }
    CHECK(runs > 10);
  }
  otv_buf_free(&ref);
}

/* ---- 200,000 objects ---- */

/* 2,000 sub-tables behind 4-byte offsets (as Extension subtables), each with a 2-byte offset to
 * a leaf all of them share and to 99 leaves of its own, built nested: the leaves while their
 * sub-table is open. */
enum { SUBS = 2000, PER = 100 };

static otv_obj build_large(otv_graph *g)
{
  otv_buf *rb = otv_graph_push(g);
  if (!rb) return OTV_OBJ_NONE;
  for (uint32_t i = 0; i < SUBS; i++) {
    otv_buf_u32(rb, 0);
    otv_buf *sb = otv_graph_push(g);
    if (!sb) return OTV_OBJ_NONE;
    for (uint32_t j = 0; j < PER; j++) {
      otv_buf_u16(sb, 0);
      otv_buf *lb = otv_graph_push(g);
      if (!lb) return OTV_OBJ_NONE;
      otv_buf_u32(lb, j == 0 ? 0xEEEEEEEEu : i * PER + j);
      otv_graph_link(g, 2 * j, 2, otv_graph_pop(g));
    }
    otv_buf_u16(sb, (uint16_t)i);
    otv_graph_link(g, 4 * i, 4, otv_graph_pop(g));
  }
  return otv_graph_pop(g);
}

static void test_large(void)
{
  otv_graph *g = otv_graph_new(NULL);
  otv_obj root = build_large(g);
  CHECK(root != OTV_OBJ_NONE);
  size_t count = otv_graph_count(g), bytes = otv_graph_bytes(g);
  CHECK_EQ(count, 1 + SUBS + 1 + SUBS * (PER - 1));
  CHECK_EQ(bytes, 4 * SUBS + SUBS * (2 * PER + 2) + 4 + 4 * SUBS * (PER - 1));
  otv_alloc al;
  otv_alloc_init(&al, NULL);
  otv_buf out;
  otv_buf_init(&out, &al);
  CHECK_EQ(otv_graph_write(g, root, &out, NULL), OTV_E_OK);
  /* the shared leaf is copied for the sub-tables it ends up too far from, one copy per run of
   * them that fits in 64 KiB (a sub-table and its leaves: 598 bytes, so 109 or so a run; 18) */
  CHECK(out.len >= bytes && out.len <= bytes + 4 * 20 && (out.len - bytes) % 4 == 0);
  size_t bad = 0;
  for (uint32_t i = 0; i < SUBS && out.len >= 4 * SUBS; i++) {
    size_t sub = rd32(out.p + 4 * i);
    if (sub < 4 * SUBS || sub > out.len - (2 * PER + 2)) {
      bad++;
      continue;
    }
    bad += rd16(out.p + sub + 2 * PER) != i;
    for (uint32_t j = 0; j < PER; j++) {
      size_t off = rd16(out.p + sub + 2 * j);
      if (off < 2 * PER + 2 || off > out.len - 4 - sub) {
        bad++;
        continue;
      }
      bad += rd32(out.p + sub + off) != (j == 0 ? 0xEEEEEEEEu : i * PER + j);
    }
  }
  CHECK_EQ(bad, 0);

  /* built again: every object equal to the first time (copies made by write included) */
  CHECK_EQ(build_large(g), root);
  CHECK_EQ(otv_graph_count(g), count);
  otv_buf again;
  otv_buf_init(&again, &al);
  CHECK_EQ(otv_graph_write(g, root, &again, NULL), OTV_E_OK);
  CHECK(again.len == out.len && memcmp(again.p, out.p, out.len) == 0);
  otv_buf_free(&again);
  otv_buf_free(&out);
  otv_graph_free(g);
}

int main(void)
{
  test_dedup();
  test_roundtrip();
  test_order();
  test_overflow_fixed();
  test_overflow_limit();
  test_overflow_shared_runs();
  test_depth();
  test_bad_links();
  test_alloc_fail();
  test_large();
  return h_done("test_graph");
}

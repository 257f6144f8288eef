/*
 * test_threads.c - one face shared by several threads, as otvar.h allows: a face is immutable
 * after open and may be shared by any number of threads; each thread uses its own locations and
 * rasterizer.
 *
 * Each font is opened once. A single-threaded pass computes, for every location of a list (named
 * instances, user values, normalized coordinates), a digest of everything the library answers
 * there: each glyph's outline (pen calls and their coordinates), its points, its horizontal and
 * vertical metrics with their status, the batch advances, font-wide MVAR metrics, coverage of
 * some glyphs through the rasterizer, and the bytes of the full static instance. Then THREADS
 * threads, each with its own location and rasterizer reused from one location to the next, do
 * the same work over the same list in different orders and rounds, and every digest must equal
 * the single-threaded one. Built with ThreadSanitizer (OTV_TSAN, run by scripts/test.sh) this
 * also shows that no call writes to the shared face.
 */
#include "harness.h"

#include <pthread.h>

#define THREADS 4
#define ROUNDS 2
#define MAX_LOCS 16
#define RASTER_GLYPHS 12
#define RASTER_PX 48

typedef struct job_loc {
  int kind; /* 0 named, 1 user values (fvar min/def/max mixes), 2 normalized */
  unsigned named;
  double user[OTV_MAX_AXES];
  otv_f2dot14 norm[OTV_MAX_AXES];
} job_loc;

typedef struct font_job {
  const char *name;
  otv_face *face;
  unsigned axes, glyphs, nlocs;
  job_loc locs[MAX_LOCS];
  uint64_t want[MAX_LOCS];
} font_job;

typedef struct worker {
  font_job *job;
  unsigned id;
  unsigned mismatches, failures;
  char first[200];
} worker;

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
  const uint8_t *b = p;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ULL;
  return h;
}

static uint64_t fnv_f(uint64_t h, float v) { return fnv(h, &v, sizeof v); }

static void hp_move(void *c, float x, float y)
{
  uint64_t *h = c;
  *h = fnv_f(fnv_f(fnv(*h, "M", 1), x), y);
}
static void hp_line(void *c, float x, float y)
{
  uint64_t *h = c;
  *h = fnv_f(fnv_f(fnv(*h, "L", 1), x), y);
}
static void hp_quad(void *c, float cx, float cy, float x, float y)
{
  uint64_t *h = c;
  *h = fnv_f(fnv_f(fnv_f(fnv_f(fnv(*h, "Q", 1), cx), cy), x), y);
}
static void hp_cubic(void *c, float ax, float ay, float bx, float by, float x, float y)
{
  uint64_t *h = c;
  *h = fnv_f(fnv_f(fnv_f(fnv_f(fnv_f(fnv_f(fnv(*h, "C", 1), ax), ay), bx), by), x), y);
}
static void hp_close(void *c)
{
  uint64_t *h = c;
  *h = fnv(*h, "Z", 1);
}
static const otv_pen hash_pen = {hp_move, hp_line, hp_quad, hp_cubic, hp_close};

typedef struct scratch {
  otv_point pts[8192];
  uint8_t flags[8192];
  uint16_t ends[2048];
  float adv[65536];
  uint32_t gids[65536];
  uint8_t img[RASTER_PX * 2 * RASTER_PX * 2];
} scratch;

static otv_status set_loc(otv_location *loc, const font_job *j, const job_loc *l)
{
  if (l->kind == 0) return otv_location_set_named(loc, l->named);
  if (l->kind == 1) return otv_location_set_user_coords(loc, l->user, j->axes);
  return otv_location_set_normalized(loc, l->norm, j->axes);
}

/* Everything the library answers at location l, digested. */
static uint64_t digest(const font_job *j, const job_loc *l, otv_location *loc, otv_raster *r,
                       scratch *s)
{
  uint64_t h = 0xcbf29ce484222325ULL;
  otv_status st = set_loc(loc, j, l);
  h = fnv(h, &st, sizeof st);
  for (uint32_t gid = 0; gid < j->glyphs; gid++) {
    st = otv_glyph_outline(loc, gid, 0, &hash_pen, &h);
    h = fnv(h, &st, sizeof st);
    st = otv_glyph_outline(loc, gid, OTV_OUTLINE_ROUND, &hash_pen, &h);
    h = fnv(h, &st, sizeof st);
    otv_glyph_points io = {s->pts, s->flags, s->ends, 8192, 2048, 0, 0, 0};
    st = otv_glyph_points_get(loc, gid, 0, &io);
    h = fnv(h, &st, sizeof st);
    if (!st) {
      h = fnv(h, s->pts, sizeof(otv_point) * io.point_count);
      h = fnv(h, s->flags, io.point_count);
      h = fnv(h, s->ends, 2 * (size_t)io.contour_count);
    }
    otv_glyph_metrics m;
    memset(&m, 0, sizeof m);
    st = otv_glyph_h_metrics(loc, gid, 0, &m);
    h = fnv(fnv(h, &st, sizeof st), &m, sizeof m);
    memset(&m, 0, sizeof m);
    st = otv_glyph_v_metrics(loc, gid, OTV_METRICS_ROUND, &m);
    h = fnv(fnv(h, &st, sizeof st), &m, sizeof m);
    s->gids[gid] = gid;
  }
  st = otv_glyph_advances(loc, s->gids, j->glyphs, 0, s->adv);
  h = fnv(fnv(h, &st, sizeof st), s->adv, sizeof(float) * j->glyphs);
  static const char *tags[] = {"hasc", "hdsc", "xhgt", "cpht", "strs", "undo", "hcrs"};
  for (unsigned k = 0; k < sizeof tags / sizeof *tags; k++) {
    uint32_t tag;
    float v = 0;
    otv_tag_from_string(tags[k], &tag);
    st = otv_font_metric(loc, tag, 0, &v);
    h = fnv_f(fnv(h, &st, sizeof st), v);
  }
  otv_face_info fi;
  otv_face_get_info(j->face, &fi);
  double scale = (double)RASTER_PX / (fi.units_per_em ? fi.units_per_em : 1000);
  otv_transform t = {scale, 0.2 * scale, 0, -scale, RASTER_PX * 0.4, RASTER_PX * 1.5};
  otv_raster_set_transform(r, &t);
  for (uint32_t gid = 0; gid < j->glyphs && gid < RASTER_GLYPHS; gid++) {
    otv_glyph_outline(loc, gid, 0, otv_raster_pen(), r);
    st =
        otv_raster_render(r, s->img, 2 * RASTER_PX, 2 * RASTER_PX, 2 * RASTER_PX, OTV_RASTER_CLEAR);
    h = fnv(fnv(h, &st, sizeof st), s->img, sizeof s->img);
  }
  if (j->axes) {
    uint8_t *out = NULL;
    size_t len = 0;
    st = otv_instance_create(loc, 0, &out, &len);
    h = fnv(h, &st, sizeof st);
    if (!st) h = fnv(h, out, len);
    otv_instance_free(loc, out, len);
  }
  return h;
}

static void *work(void *arg)
{
  worker *w = arg;
  font_job *j = w->job;
  otv_location *loc = NULL;
  otv_raster *r = NULL;
  scratch *s = malloc(sizeof *s);
  if (!s || otv_location_create(j->face, &loc, NULL) || otv_raster_create(NULL, &r)) {
    w->failures++;
    goto out;
  }
  for (unsigned round = 0; round < ROUNDS; round++)
    for (unsigned k = 0; k < j->nlocs; k++) {
      /* each thread its own order: a stride coprime to the count, from its own start */
      unsigned step = (w->id + round) % 2 ? 1u : j->nlocs - 1u;
      unsigned i = (w->id * 5u + round * 3u + k * (step ? step : 1u)) % j->nlocs;
      uint64_t got = digest(j, &j->locs[i], loc, r, s);
      if (got != j->want[i] && w->mismatches++ == 0)
        snprintf(w->first, sizeof w->first,
                 "%s: thread %u, location %u: digest %016llx, want %016llx", j->name, w->id, i,
                 (unsigned long long)got, (unsigned long long)j->want[i]);
    }
out:
  otv_raster_destroy(r);
  otv_location_destroy(loc);
  free(s);
  return NULL;
}

static uint64_t rng = 0x2545F4914F6CDD1DULL;
static uint32_t rnd(void) { return h_xorshift64(&rng); }

static void plan(font_job *j)
{
  otv_axis ax[OTV_MAX_AXES];
  unsigned n = OTV_MAX_AXES;
  j->axes = otv_face_axes(j->face, 0, &n, ax);
  unsigned named = otv_face_named_instances(j->face, 0, NULL, NULL);
  j->nlocs = 0;
  for (unsigned i = 0; i < named && i < 5; i++) {
    job_loc *l = &j->locs[j->nlocs++];
    memset(l, 0, sizeof *l);
    l->named = i;
  }
  for (unsigned k = 0; k < 4 && j->axes; k++) {
    job_loc *l = &j->locs[j->nlocs++];
    memset(l, 0, sizeof *l);
    l->kind = 1;
    for (unsigned a = 0; a < j->axes; a++) {
      double f = (rnd() % 1001) / 1000.0;
      l->user[a] = ax[a].min_value + f * (ax[a].max_value - ax[a].min_value);
    }
  }
  for (unsigned k = 0; k < 4; k++) {
    job_loc *l = &j->locs[j->nlocs++];
    memset(l, 0, sizeof *l);
    l->kind = 2;
    for (unsigned a = 0; a < j->axes; a++) l->norm[a] = (otv_f2dot14)((int)(rnd() % 32769) - 16384);
  }
}

static void run_font(const char *path, const char *name)
{
  size_t len;
  uint8_t *bytes = h_read_file(path, &len);
  font_job *j = calloc(1, sizeof *j);
  otv_error e = {0};
  CHECK(j != NULL);
  if (!j) return;
  j->name = name;
  CHECK_EQ(otv_face_open_memory(bytes, len, 0, NULL, &j->face, &e), OTV_E_OK);
  if (j->face) {
    otv_face_info fi;
    otv_face_get_info(j->face, &fi);
    j->glyphs = fi.glyph_count < 65536 ? fi.glyph_count : 65535;
    plan(j);
    /* the reference: one thread, its own location and rasterizer, the list in order */
    otv_location *loc = NULL;
    otv_raster *r = NULL;
    scratch *s = malloc(sizeof *s);
    CHECK(s && !otv_location_create(j->face, &loc, NULL) && !otv_raster_create(NULL, &r));
    for (unsigned i = 0; s && loc && r && i < j->nlocs; i++)
      j->want[i] = digest(j, &j->locs[i], loc, r, s);
    otv_raster_destroy(r);
    otv_location_destroy(loc);
    free(s);
    worker w[THREADS];
    pthread_t th[THREADS];
    for (unsigned t = 0; t < THREADS; t++) {
      w[t] = (worker){j, t, 0, 0, ""};
      CHECK_EQ(pthread_create(&th[t], NULL, work, &w[t]), 0);
    }
    unsigned bad = 0;
    for (unsigned t = 0; t < THREADS; t++) {
      pthread_join(th[t], NULL);
      CHECK_EQ(w[t].failures, 0);
      CHECK_EQ(w[t].mismatches, 0);
      if (w[t].mismatches) fprintf(stderr, "%s (%u mismatches)\n", w[t].first, w[t].mismatches);
      bad += w[t].mismatches;
    }
    printf("%s: %u glyphs, %u locations x %d threads x %d rounds, %u digests differ\n", name,
           j->glyphs, j->nlocs, THREADS, ROUNDS, bad);
    otv_face_close(j->face);
  } else {
    fprintf(stderr, "%s: %s\n", name, e.msg);
  }
  free(j);
  free(bytes);
}

int main(void)
{
  static const char *fonts[] = {
      "Roboto-Variable.ABC.ttf",       /* TrueType, avar, HVAR, GPOS/GDEF variations */
      "Roboto-Variable.composite.ttf", /* composites */
      "Amstelvar-avar2.A.ttf",         /* avar 2 */
      "NotoSansJP-VF.subset.otf",      /* CFF2, CID-keyed, VVAR/VORG */
      "AdobeVFPrototype_vsindex.otf",  /* CFF2 vsindex */
      "SourceSerifVariable-Roman-VVAR.abc.ttf",
      "NotoSans-VF.abc.ttf", /* MVAR */
      "cff_seac_f1.otf",     /* static CFF with seac: no axes */
  };
  for (size_t i = 0; i < sizeof fonts / sizeof *fonts; i++) {
    char path[4096];
    snprintf(path, sizeof path, "%s", h_font(fonts[i]));
    run_font(path, fonts[i]);
  }
  const char *root = getenv("OTV_ROOT");
  if (root) {
    char path[4096];
    snprintf(path, sizeof path, "%s/fonts/Karla-VF.ttf", root);
    run_font(path, "Karla-VF.ttf (bundled)");
  }
  return h_done("test_threads");
}

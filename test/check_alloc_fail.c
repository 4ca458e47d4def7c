/* check_alloc_fail.c - the library and the plugins' decision core when
 * memory runs out, as SQLite's malloc tests do it: every allocation the
 * code makes (malloc, calloc, realloc, strdup, strndup) goes through
 * wrappers (ld --wrap, so the library is linked unchanged), and for
 * N = 1, 2, ... the Nth fails.  Each scenario (mesh.conf, every
 * allocator's create and place, the planner, the simulator under each
 * scheduler, the victim search and the job index) must then return
 * MESH_ENOMEM or carry on, never crash, and free all it allocated: the
 * wrappers count live blocks.  N grows until a run reaches no Nth
 * allocation.  The distinct call sites reached are counted.
 */
#define _GNU_SOURCE /* dladdr: where the failed allocation was */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>

#include "testutil.h"
#include "id_index.h"
#include "jobinfo.h"
#include "victims.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t m);
void *__wrap_realloc(void *p, size_t n);
void __wrap_free(void *p);
char *__wrap_strdup(const char *s);
char *__wrap_strndup(const char *s, size_t n);

/* ------------------------------------------------ the wrappers */

#define LIVE_SLOTS (1u << 20) /* an open-addressing set of live blocks */
#define MAX_SITES 4096

static struct {
	int armed;          /* count and fail only while armed */
	unsigned long calls;
	unsigned long fail_at; /* 1-based; 0: never */
	int failed;
	void *fail_site; /* the caller of the allocation that failed */
	long live;
	void **slot;
	void *site[MAX_SITES];
	size_t n_sites;
} fa;

static size_t slot_of(const void *p)
{
	return (size_t) (((uintptr_t) p >> 4) * 0x9E3779B97F4A7C15ull >> 40) &
	       (LIVE_SLOTS - 1);
}

static void live_add(void *p)
{
	size_t i = slot_of(p);

	while (fa.slot[i])
		i = (i + 1) & (LIVE_SLOTS - 1);
	fa.slot[i] = p;
	fa.live++;
}

/* Remove p (linear probing, backward shift); RET whether it was there. */
static int live_del(void *p)
{
	size_t i = slot_of(p), j, h;

	while (fa.slot[i] && fa.slot[i] != p)
		i = (i + 1) & (LIVE_SLOTS - 1);
	if (!fa.slot[i])
		return 0;
	fa.live--;
	for (j = i;;) {
		fa.slot[i] = NULL;
		for (;;) {
			j = (j + 1) & (LIVE_SLOTS - 1);
			if (!fa.slot[j])
				return 1;
			h = slot_of(fa.slot[j]);
			if (i <= j ? (i < h && h <= j) : (i < h || h <= j))
				continue;
			fa.slot[i] = fa.slot[j];
			i = j;
			break;
		}
	}
}

static void note_site(void *caller)
{
	size_t i;

	for (i = 0; i < fa.n_sites; i++)
		if (fa.site[i] == caller)
			return;
	if (fa.n_sites < MAX_SITES)
		fa.site[fa.n_sites++] = caller;
}

/* Whether this allocation fails. */
static int should_fail(void *caller)
{
	if (!fa.armed)
		return 0;
	note_site(caller);
	if (++fa.calls == fa.fail_at) {
		fa.failed = 1;
		fa.fail_site = caller;
		errno = ENOMEM;
		return 1;
	}
	return 0;
}

static void *track(void *p)
{
	if (p && fa.armed)
		live_add(p);
	return p;
}

void *__wrap_malloc(size_t n)
{
	if (should_fail(__builtin_return_address(0)))
		return NULL;
	return track(__real_malloc(n));
}

void *__wrap_calloc(size_t n, size_t m)
{
	if (should_fail(__builtin_return_address(0)))
		return NULL;
	return track(__real_calloc(n, m));
}

void *__wrap_realloc(void *p, size_t n)
{
	void *q;
	int tracked;

	if (should_fail(__builtin_return_address(0)))
		return NULL;
	tracked = p && fa.slot && live_del(p);
	q = __real_realloc(p, n);
	if (!q && n && tracked) /* a failed realloc keeps the block */
		live_add(p);
	if (q && (tracked || (!p && fa.armed)))
		live_add(q);
	return q;
}

void __wrap_free(void *p)
{
	if (p && fa.slot)
		(void) live_del(p);
	__real_free(p);
}

char *__wrap_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p;

	if (should_fail(__builtin_return_address(0)))
		return NULL;
	p = track(__real_malloc(n));
	if (p)
		memcpy(p, s, n);
	return p;
}

char *__wrap_strndup(const char *s, size_t n)
{
	size_t k = strnlen(s, n);
	char *p;

	if (should_fail(__builtin_return_address(0)))
		return NULL;
	p = track(__real_malloc(k + 1));
	if (p) {
		memcpy(p, s, k);
		p[k] = '\0';
	}
	return p;
}

/* ------------------------------------------------ the driver */

/* A call site as FILE+OFFSET, for addr2line -e FILE OFFSET. */
static const char *site_file(void *site)
{
	Dl_info info;

	return dladdr(site, &info) && info.dli_fname ? info.dli_fname : "?";
}

static unsigned long site_offset(void *site)
{
	Dl_info info;

	if (!dladdr(site, &info))
		return (unsigned long) (uintptr_t) site;
	return (unsigned long) ((uintptr_t) site - (uintptr_t) info.dli_fbase);
}

typedef int (*scenario_fn)(int variant);

/* What a scenario answered (FNV-1a over its outputs): a run in which an
 * allocation failed but that still succeeded must answer the same. */
static uint64_t digest;

static void digest_add(const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n--)
		digest = (digest ^ *b++) * 0x100000001b3ull;
}

struct outcome {
	unsigned long runs, failures_injected, enomem, absorbed;
};

/*
 * Run s(variant) with the Nth allocation failing, for N = 1, 2, ...
 * until a run makes fewer than N allocations; each run must return 0 or
 * MESH_ENOMEM and leave no block live.
 */
static struct outcome sweep(const char *name, scenario_fn s, int variant)
{
	struct outcome o = { 0 };
	unsigned long n;
	uint64_t want;
	int rc;

	digest = 0xcbf29ce484222325ull;
	fa.fail_at = 0;
	rc = s(variant);
	ck_assert_msg(rc == 0, "%s/%d: rc %d without a failure", name, variant,
		      rc);
	want = digest;
	for (n = 1;; n++) {
		digest = 0xcbf29ce484222325ull;
		fa.calls = 0;
		fa.fail_at = n;
		fa.failed = 0;
		fa.live = 0;
		fa.armed = 1;
		rc = s(variant);
		fa.armed = 0;
		o.runs++;
		ck_assert_msg(fa.live == 0,
			      "%s/%d: allocation %lu failed: %ld block(s) leaked",
			      name, variant, n, fa.live);
		if (!fa.failed) {
			ck_assert_msg(rc == 0, "%s/%d: rc %d without a failure",
				      name, variant, rc);
			break;
		}
		o.failures_injected++;
		ck_assert_msg(rc == 0 || rc == MESH_ENOMEM,
			      "%s/%d: allocation %lu (called from %s+0x%lx) failed: rc %d (%s), not MESH_ENOMEM",
			      name, variant, n, site_file(fa.fail_site),
			      site_offset(fa.fail_site), rc, mesh_strerror(rc));
		if (rc == MESH_ENOMEM) {
			o.enomem++;
			continue;
		}
		o.absorbed++;
		ck_assert_msg(digest == want,
			      "%s/%d: allocation %lu (called from %s+0x%lx) failed, and the answer changed",
			      name, variant, n, site_file(fa.fail_site),
			      site_offset(fa.fail_site));
		if (getenv("ALLOC_FAIL_VERBOSE"))
			printf("absorbed: %s/%d: %s+0x%lx\n", name, variant,
			       site_file(fa.fail_site),
			       site_offset(fa.fail_site));
	}
	return o;
}

/* ------------------------------------------------ the scenarios */

static const char conf_text[] =
	"# every kind of key\n"
	"Dimensions=6x5\n"
	"Nodes=n[0-27]\n"
	"NodeName=extra Coord=4,4\n"
	"IONodes=0,0;5,4\n"
	"Allocator=plas\n"
	"Curve=hilbert\n"
	"DefaultMeshShape=2x2\n"
	"PlanMaxPlacements=64\n";

static int scen_conf(int variant)
{
	struct mesh_conf *c = NULL;
	struct mesh_diag d;
	int rc;

	(void) variant;
	rc = mesh_conf_parse(conf_text, sizeof(conf_text) - 1, "t.conf", &c,
			     &d);
	if (!rc) {
		uint32_t idx = 0;

		rc = mesh_conf_lookup(c, "extra", &idx);
		digest_add(&idx, sizeof(idx));
		digest_add(c->topo->io_nodes, c->topo->n_io * sizeof(uint32_t));
		digest_add(c->allocator, strlen(c->allocator));
	}
	mesh_conf_destroy(c);
	return rc;
}

static const char *const specs[] = { "6x5", "4tx4tx3t" };
static const char *const io_at[] = { "0,0", "0,0,0" };

/* Parameter sets with allocations of their own, after the defaults. */
static const struct {
	const char *name, *params;
} with_params[] = { { "contig-bf", "keep=1" },
		    { "box-first", "wait=1,keep=1" } };

#define N_ALLOC_SCENARIOS                                                      \
	(mesh_alloc_count() + sizeof(with_params) / sizeof(with_params[0]))

/* Allocator n, or past the allocators with_params's entry: its name and
 * parameters. */
static const char *alloc_name(size_t n, const char **params)
{
	size_t count = mesh_alloc_count();

	*params = n < count ? NULL : with_params[n - count].params;
	return n < count ? mesh_alloc_describe(n)->name
			 : with_params[n - count].name;
}

/* alloc_name(variant / 2) on specs[variant % 2]: create, place twice,
 * destroy. */
static int scen_alloc(int variant)
{
	const char *params, *name = alloc_name((size_t) variant / 2, &params);
	struct mesh_topo *t = NULL;
	struct mesh_allocator *a = NULL;
	struct mesh_bitmap *f = NULL;
	struct mesh_diag d;
	struct mesh_view v;
	struct mesh_request r;
	uint32_t out[64];
	double end[64];
	uint32_t i;
	int rc;

	if ((rc = mesh_topo_parse(specs[variant % 2], &t, &d)))
		return rc;
	if ((rc = mesh_topo_parse_io_nodes(t, io_at[variant % 2], &d)))
		goto done;
	if ((rc = mesh_alloc_create(t, name, params, &a, &d)))
		goto done;
	if ((rc = mesh_bitmap_create(t->nodes, &f)))
		goto done;
	for (i = 0; i < t->nodes; i++) {
		if (i % 3)
			mesh_bitmap_set(f, i);
		end[i] = 100.0 + i;
	}
	v.topo = t;
	v.free = f;
	v.end_time = end;
	v.now = 0;
	memset(&r, 0, sizeof(r));
	r.io_intensity = 0.5;
	r.comm = MESH_COMM_NEAREST;
	r.end_time = 150;
	r.seed = 3;
	for (r.nodes = 2; r.nodes <= 6 && !rc; r.nodes += 4) {
		rc = mesh_alloc_place(a, &v, &r, out);
		digest_add(&rc, sizeof(rc));
		if (!rc)
			digest_add(out, r.nodes * sizeof(*out));
		if (rc == MESH_ENOSPC)
			rc = 0; /* a refusal of this map, not a failure */
	}
done:
	mesh_bitmap_destroy(f);
	mesh_alloc_destroy(a);
	mesh_topo_destroy(t);
	return rc;
}

/* The planner: a job around three running ones, by two allocators. */
static int scen_plan(int variant)
{
	static const char *const names[] = { "hilbert-bf", "contig-ff" };
	struct mesh_topo *t = NULL;
	struct mesh_allocator *a = NULL;
	struct mesh_planner *p = NULL;
	struct mesh_bitmap *f = NULL;
	struct mesh_plan_hold run[3];
	struct mesh_plan_query q;
	struct mesh_request r;
	struct mesh_diag d;
	uint32_t held[3][8], out[64], i;
	double start;
	int rc, j;

	if ((rc = mesh_topo_parse("8x4", &t, &d)))
		return rc;
	if ((rc = mesh_alloc_create(t, names[variant], NULL, &a, &d)) ||
	    (rc = mesh_planner_create(t, &p)) ||
	    (rc = mesh_bitmap_create(t->nodes, &f)))
		goto done;
	for (i = 24; i < 32; i++)
		mesh_bitmap_set(f, i);
	for (j = 0; j < 3; j++) {
		for (i = 0; i < 8; i++)
			held[j][i] = (uint32_t) j * 8 + i;
		run[j].start = 0;
		run[j].end = 10.0 * (j + 1);
		run[j].nodes = held[j];
		run[j].n = 8;
	}
	memset(&q, 0, sizeof(q));
	q.free_now = f;
	q.running = run;
	q.n_running = 3;
	q.duration = 5;
	memset(&r, 0, sizeof(r));
	r.io_intensity = -1;
	r.nodes = 16;
	rc = mesh_plan_earliest(p, a, &q, &r, &start, out);
	if (!rc) {
		digest_add(&start, sizeof(start));
		digest_add(out, r.nodes * sizeof(*out));
	}
done:
	mesh_bitmap_destroy(f);
	mesh_planner_destroy(p);
	mesh_alloc_destroy(a);
	mesh_topo_destroy(t);
	return rc;
}

static const char swf_text[] =
	"; a small trace\n"
	"1 0 -1 100 4 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1\n"
	"2 5 -1 50 2 -1 -1 2 60 -1 1 1 1 -1 1 -1 -1 -1\n"
	"3 6 -1 80 8 -1 -1 8 100 -1 1 1 1 -1 1 -1 -1 -1\n"
	"4 7 -1 10 1 -1 -1 1 20 -1 1 1 1 -1 1 -1 -1 -1\n"
	"5 9 -1 30 3 -1 -1 3 40 -1 1 1 1 -1 1 -1 -1 -1\n"
	"6 12 -1 20 6 -1 -1 6 30 -1 1 1 1 -1 1 -1 -1 -1\n";

/* The simulator on a 4x3 mesh under scheduler variant % 4 with mc1x1 or
 * contig-ff (variant / 4), the trace read from memory. */
static int scen_sim(int variant)
{
	static const enum mesh_sched sched[] = { MESH_SCHED_FCFS,
						 MESH_SCHED_EASY,
						 MESH_SCHED_CONSERVATIVE,
						 MESH_SCHED_CONSERVATIVE_COUNT };
	static const char *const names[] = { "mc1x1", "contig-ff" };
	struct mesh_topo *t = NULL;
	struct mesh_allocator *a = NULL;
	struct mesh_swf_trace *tr = NULL;
	struct mesh_sim_result *res = NULL;
	struct mesh_sim_opts o;
	struct mesh_diag d;
	FILE *in;
	int rc;

	if (variant / 4 == 1 && variant % 4 == 3)
		return 0; /* conservative-count refuses contig-ff */
	if ((rc = mesh_topo_parse("4x3", &t, &d)))
		return rc;
	if ((rc = mesh_alloc_create(t, names[variant / 4], NULL, &a, &d)))
		goto done;
	fa.armed = 0; /* fmemopen's own buffer is libc's, kept till fclose */
	in = fmemopen((void *) swf_text, sizeof(swf_text) - 1, "r");
	fa.armed = 1;
	if (!in) {
		rc = MESH_ENOMEM;
		goto done;
	}
	rc = mesh_swf_read(in, "t.swf", &tr, &d);
	fa.armed = 0;
	fclose(in);
	fa.armed = 1;
	if (rc)
		goto done;
	mesh_sim_opts_init(&o);
	o.sched = sched[variant % 4];
	rc = mesh_sim_run(t, a, tr, &o, &res, &d);
	if (!rc) {
		digest_add(&res->n, sizeof(res->n));
		digest_add(&res->summary.mean_wait, sizeof(double));
		digest_add(&res->summary.mean_sum_pairwise, sizeof(double));
		digest_add(&res->summary.makespan, sizeof(double));
	}
done:
	mesh_sim_result_free(res);
	mesh_swf_free(tr);
	mesh_alloc_destroy(a);
	mesh_topo_destroy(t);
	return rc;
}

/* The decision core: the job index and a victim search. */
static uint32_t core_free(void *ctx, const bool *victim)
{
	uint32_t i, n = 0;

	(void) ctx;
	for (i = 0; i < 8; i++)
		n += victim[i];
	return n;
}

static int core_place(void *ctx, const bool *victim, uint64_t *spread)
{
	if (core_free(ctx, victim) < 3)
		return -1;
	if (spread)
		*spread = 1;
	return 0;
}

static int scen_core(int variant)
{
	struct smc_id_index *x;
	struct smc_victims vs;
	static const uint64_t rank[8] = { 0 };
	static const uint32_t nodes[8] = { 1, 1, 1, 1, 1, 1, 1, 1 };
	bool victim[8];
	uint32_t id;
	int rc = 0;

	(void) variant;
	if (!(x = smc_id_index_create()))
		return MESH_ENOMEM;
	for (id = 0; id < 200 && !rc; id++)
		if (smc_id_index_set(x, id, (long) id))
			rc = MESH_ENOMEM;
	smc_id_index_destroy(x);
	if (rc)
		return rc;
	memset(&vs, 0, sizeof(vs));
	vs.m = 8;
	vs.rank = rank;
	vs.nodes = nodes;
	vs.need = 3;
	vs.max_places = 1; /* through Slurm's order, which allocates */
	vs.free_nodes = core_free;
	vs.place = core_place;
	vs.victim = victim;
	/* -1 is "no victims", which a failed allocation may also give */
	if (smc_choose_victims(&vs))
		return fa.failed ? MESH_ENOMEM : -1;
	digest_add(victim, sizeof(victim));
	{
		unsigned char buf[64];
		size_t n = smc_jobinfo_encode("alloc=mc1x1", buf, sizeof(buf));
		char *p = NULL;
		long got = smc_jobinfo_decode(buf, n, &p);

		if (got == -2)
			return MESH_ENOMEM;
		digest_add(p, strlen(p));
		free(p);
	}
	return 0;
}

/* ------------------------------------------------ the tests */

static struct outcome total;
static unsigned long scenarios, skipped;

static void add(struct outcome o)
{
	total.runs += o.runs;
	total.failures_injected += o.failures_injected;
	total.enomem += o.enomem;
	total.absorbed += o.absorbed;
	scenarios++;
}

START_TEST(test_alloc_fail)
{
	size_t i;
	int v, rc;

	fa.slot = __real_calloc(LIVE_SLOTS, sizeof(*fa.slot));
	ck_assert_ptr_nonnull(fa.slot);
	add(sweep("conf", scen_conf, 0));
	for (i = 0; i < 2 * N_ALLOC_SCENARIOS; i++) {
		const char *params, *name = alloc_name(i / 2, &params);

		if ((rc = scen_alloc((int) i))) {
			/* not for this mesh (e.g. buddy sizes) */
			if (getenv("ALLOC_FAIL_VERBOSE"))
				printf("skip %s on %s: %s\n", name,
				       specs[i % 2], mesh_strerror(rc));
			skipped++;
			continue;
		}
		add(sweep(name, scen_alloc, (int) i));
	}
	for (v = 0; v < 2; v++)
		add(sweep("plan", scen_plan, v));
	for (v = 0; v < 8; v++)
		add(sweep("sim", scen_sim, v));
	add(sweep("core", scen_core, 0));
	printf("check_alloc_fail: %lu scenarios (%lu allocator/mesh pairs not "
	       "applicable), %lu runs, %lu allocations failed on purpose: %lu "
	       "gave MESH_ENOMEM, %lu were absorbed; %zu allocation call "
	       "sites reached, no leak, no crash\n",
	       scenarios, skipped, total.runs, total.failures_injected,
	       total.enomem, total.absorbed, fa.n_sites);
	ck_assert_uint_gt(fa.n_sites, 50);
	ck_assert_uint_gt(total.enomem, 0);
	__real_free(fa.slot);
	fa.slot = NULL;
}
END_TEST

int main(void)
{
	Suite *s = suite_create("alloc_fail");
	TCase *tc = tcase_create("alloc_fail");

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_alloc_fail);
	suite_add_tcase(s, tc);
	return tu_run(s);
}

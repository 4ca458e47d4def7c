/* check_plan.c - earliest-start planning (plan.h): the fast search gives
 * exactly what the definition gives (every candidate time in order, set
 * rebuilt, one placement each) on random instances, for every kind of
 * allocator, with and without reservations; plus hand-worked cases. */
#include <math.h>
#include <time.h>

#include "testutil.h"

static const char *const allocs[] = { "hilbert-bf",   "snake-ff",  "mc1x1",
				      "contig-ff",    "contig-bf", "mbs",
				      "mbs-granular", "paging",    "random",
				      "sl:hilbert-bf" };

struct instance {
	struct mesh_topo *t;
	struct mesh_bitmap *free;
	struct mesh_plan_hold run[120];
	struct mesh_plan_resv res[40];
	struct mesh_bitmap *res_map[40];
	uint32_t nodes[2048];
	size_t nrun, nres;
	struct mesh_plan_query q;
};

/* Random running jobs on disjoint nodes, ends around now = 100; some
 * reservations on random nodes later on.  Then every time t becomes
 * base + scale * t, so that the sort sees negative times, ends on both
 * sides of zero, fractions and epoch-sized values. */
static void make(struct instance *in, uint64_t *s)
{
	static const char *const specs[] = { "8x8", "6tx5t", "4x4x3", "16x8" };
	static const double bases[] = { 0, -100, -150, -1e9, 1.7e9 };
	static const double scales[] = { 1, 0.001, 1.5, 1e6 };
	double base, scale;
	uint32_t *owner, i, used = 0, spread;
	size_t r;
	int crowd;

	memset(in, 0, sizeof(*in));
	in->t = tu_topo(specs[tu_rand(s) % 4]);
	in->free = tu_all_free(in->t);
	owner = calloc(in->t->nodes, sizeof(*owner));
	/* past 32 running jobs the planner sorts by radix */
	in->nrun = 1 + tu_rand(s) % (tu_rand(s) % 2 ? 30 : 120);
	for (i = 0; i < in->t->nodes; i++)
		if (tu_rand(s) % 4)
			owner[i] = 1 + (uint32_t) (tu_rand(s) % in->nrun);
	for (r = 0; r < in->nrun; r++) {
		struct mesh_plan_hold *h = &in->run[r];

		h->nodes = in->nodes + used;
		for (i = 0; i < in->t->nodes; i++)
			if (owner[i] == r + 1) {
				in->nodes[used++] = i;
				mesh_bitmap_clear(in->free, i);
			}
		h->n = (uint32_t) (in->nodes + used - h->nodes);
		h->start = 0;
		/* ends on a coarse grid, so several jobs end together */
		h->end = 80 + 10 * (double) (tu_rand(s) % 20);
	}
	/* random nodes, so reservations at different times share some;
	 * one case in four crowds up to 40 on 12 nodes, so that a node is
	 * in many windows at once (the planner's per-node counts) */
	crowd = tu_rand(s) % 4 == 0;
	in->nres = crowd            ? 8 + tu_rand(s) % 33
		   : tu_rand(s) % 2 ? tu_rand(s) % 6
				    : 0;
	spread = crowd ? 12 : in->t->nodes;
	for (r = 0; r < in->nres; r++) {
		struct mesh_plan_resv *h = &in->res[r];
		uint32_t k = 1 + (uint32_t) (tu_rand(s) % 8);

		ck_assert_int_eq(
		    mesh_bitmap_create(in->t->nodes, &in->res_map[r]), 0);
		for (i = 0; i < k; i++)
			mesh_bitmap_set(in->res_map[r],
					(uint32_t) (tu_rand(s) % spread));
		h->nodes = in->res_map[r];
		h->start = 100 + 10 * (double) (tu_rand(s) % 15);
		/* some empty (a zero-runtime job's), some before now */
		h->end = h->start + 10 * (double) (tu_rand(s) % 11);
		if (tu_rand(s) % 8 == 0)
			h->start = h->end = 50 + 10 * (double) (tu_rand(s) % 8);
	}
	free(owner);
	base = bases[tu_rand(s) % 5];
	scale = scales[tu_rand(s) % 4];
	for (r = 0; r < in->nrun; r++)
		in->run[r].end = base + scale * in->run[r].end;
	for (r = 0; r < in->nres; r++) {
		in->res[r].start = base + scale * in->res[r].start;
		in->res[r].end = base + scale * in->res[r].end;
	}
	in->q.free_now = in->free;
	in->q.now = base + scale * 100;
	in->q.running = in->run;
	in->q.n_running = in->nrun;
	in->q.reserved = in->res;
	in->q.n_reserved = in->nres;
	/* zero durations too: a zero-runtime job's window is empty */
	in->q.duration =
	    scale * (tu_rand(s) % 5 ? 5 + 10 * (double) (tu_rand(s) % 8) : 0);
}

/* A request of 1 .. nodes/2 nodes, no hints, seed 7. */
static void random_request(struct mesh_request *req, const struct instance *in,
			   uint64_t *s)
{
	memset(req, 0, sizeof(*req));
	req->nodes = 1 + (uint32_t) (tu_rand(s) % (in->t->nodes / 2));
	req->end_time = -1;
	req->io_intensity = -1;
	req->seed = 7;
}

static void drop(struct instance *in)
{
	size_t r;

	for (r = 0; r < in->nres; r++)
		mesh_bitmap_destroy(in->res_map[r]);
	mesh_bitmap_destroy(in->free);
	mesh_topo_destroy(in->t);
}

/* A placement as select/mesh makes it: the requested count (req->nodes
 * + extra), else the fewest (req->nodes); calls counted. */
struct two_counts {
	struct mesh_allocator *a;
	uint32_t extra;
	int calls;
	uint32_t placed; /* nodes of the last placement */
	int last_rc;     /* the last call's return and time */
	double last_now;
};

static int place_two_counts(void *arg, const struct mesh_view *v,
			    const struct mesh_request *req, uint32_t *out)
{
	struct two_counts *tc = arg;
	struct mesh_request r = *req;
	int rc;

	tc->calls++;
	tc->last_now = v->now;
	r.nodes = req->nodes + tc->extra;
	tc->placed = r.nodes;
	if (r.nodes <= v->topo->nodes &&
	    (rc = mesh_alloc_place(tc->a, v, &r, out)) != MESH_ENOSPC)
		return tc->last_rc = rc;
	tc->placed = req->nodes;
	return tc->last_rc = mesh_alloc_place(tc->a, v, req, out);
}

/* One random instance, fast search against the definition, with or
 * without the two-count hook.  Returns 1 if both placed, 0 if neither
 * (or the allocator does not take the mesh). */
static int compare_once(int ai, uint64_t *s, int hook, int in_order)
{
	struct instance in;
	struct mesh_planner *p = NULL;
	struct two_counts tc = { NULL, 0, 0, 0, 0, 0 };
	struct mesh_request req;
	struct mesh_diag d;
	uint32_t o1[512], o2[512], k1;
	double t1 = -1, t2 = -1;
	int r1, r2;

	make(&in, s);
	if (mesh_alloc_create(in.t, allocs[ai], NULL, &tc.a, &d)) {
		drop(&in); /* e.g. mbs on a 3D mesh */
		return 0;
	}
	ck_assert_int_eq(mesh_planner_create(in.t, &p), 0);
	memset(&req, 0, sizeof(req));
	req.nodes = 1 + (uint32_t) (tu_rand(s) % (in.t->nodes / 2));
	req.end_time = -1;
	req.io_intensity = -1;
	req.seed = 7;
	if (hook) {
		tc.extra = 1 + (uint32_t) (tu_rand(s) % 8);
		in.q.place = place_two_counts;
		in.q.place_arg = &tc;
		in.q.in_order = in_order;
	}
	r1 = mesh_plan_earliest(p, tc.a, &in.q, &req, &t1, o1);
	k1 = hook ? tc.placed : req.nodes;
	/* plan.h's promise: the answer is the hook's last call */
	if (hook && !r1)
		ck_assert_msg(tc.last_rc == 0 && tc.last_now == t1,
			      "%s: last call rc %d at %g, answer at %g",
			      allocs[ai], tc.last_rc, tc.last_now, t1);
	r2 = mesh_plan_earliest_naive(p, tc.a, &in.q, &req, &t2, o2);
	ck_assert_int_eq(r1, r2);
	if (hook)
		ck_assert_int_gt(tc.calls, 0);
	if (!r1) {
		ck_assert_msg(t1 == t2, "%s: start %g, definition %g",
			      allocs[ai], t1, t2);
		ck_assert_uint_eq(k1, hook ? tc.placed : req.nodes);
		ck_assert_mem_eq(o1, o2, k1 * sizeof(*o1));
	} else {
		ck_assert_int_eq(r1, MESH_ENOSPC);
	}
	mesh_planner_destroy(p);
	mesh_alloc_destroy(tc.a);
	drop(&in);
	return !r1;
}

START_TEST(test_plan_equals_definition)
{
	uint64_t s = 1000 + (uint64_t) _i;
	int trial, agree = 0;

	for (trial = 0; trial < 60; trial++)
		agree += compare_once(_i, &s, 0, 0);
	ck_assert_int_gt(agree, 0);
}
END_TEST

/* One planner across calls, as backfill uses it: the running jobs' ends
 * sometimes stay (the planner keeps its order), sometimes two jobs swap
 * ends (the same times, another order) or one end moves. */
START_TEST(test_plan_reused_planner)
{
	uint64_t s = 9000 + (uint64_t) _i;
	struct instance in;
	struct mesh_planner *p = NULL;
	struct mesh_allocator *a = NULL;
	struct mesh_request req;
	struct mesh_diag d;
	uint32_t o1[512], o2[512];
	double t1, t2, e;
	size_t x, y;
	int call, r1, r2;

	make(&in, &s);
	if (mesh_alloc_create(in.t, allocs[_i], NULL, &a, &d)) {
		drop(&in);
		return;
	}
	ck_assert_int_eq(mesh_planner_create(in.t, &p), 0);
	memset(&req, 0, sizeof(req));
	req.end_time = -1;
	req.io_intensity = -1;
	req.seed = 7;
	for (call = 0; call < 40; call++) {
		x = tu_rand(&s) % in.nrun;
		y = tu_rand(&s) % in.nrun;
		switch (tu_rand(&s) % 3) {
		case 1:
			e = in.run[x].end;
			in.run[x].end = in.run[y].end;
			in.run[y].end = e;
			break;
		case 2:
			in.run[x].end += in.q.duration;
			break;
		}
		req.nodes = 1 + (uint32_t) (tu_rand(&s) % (in.t->nodes / 2));
		r1 = mesh_plan_earliest(p, a, &in.q, &req, &t1, o1);
		r2 = mesh_plan_earliest_naive(p, a, &in.q, &req, &t2, o2);
		ck_assert_int_eq(r1, r2);
		if (!r1) {
			ck_assert_msg(t1 == t2,
				      "%s, call %d: start %g, "
				      "definition %g",
				      allocs[_i], call, t1, t2);
			ck_assert_mem_eq(o1, o2, req.nodes * sizeof(*o1));
		}
	}
	mesh_planner_destroy(p);
	mesh_alloc_destroy(a);
	drop(&in);
}
END_TEST

/* With a placement hook, the fast search still gives the definition's
 * answer (both use the hook), for every kind of allocator. */
START_TEST(test_plan_hook_equals_definition)
{
	uint64_t s = 5000 + (uint64_t) _i;
	int trial, agree = 0;

	for (trial = 0; trial < 40; trial++)
		agree += compare_once(_i, &s, 1, trial % 4 == 3);
	ck_assert_int_gt(agree, 0);
}
END_TEST

/* A query at now = 0 with running jobs only. */
static void query_at_0(struct mesh_plan_query *q, const struct mesh_bitmap *f,
		       const struct mesh_plan_hold *run, size_t n_run,
		       double duration)
{
	memset(q, 0, sizeof(*q));
	q->free_now = f;
	q->running = run;
	q->n_running = n_run;
	q->duration = duration;
}

/* 8x1 line, contig-ff: nodes 0-1 and 4-5 free now; job A holds 2-3 until
 * 50, job B 6-7 until 20.  A 4-node block is first possible at 50
 * (0..3), not at 20 (4..7 would need 6-7, which is free then: 4..7 is a
 * block at 20).  So the answer is 20 on 4..7.  With a reservation of
 * node 5 over [10, 60), it becomes 50 on 0..3. */
START_TEST(test_plan_hand_worked)
{
	struct mesh_topo *t = tu_topo("8x1");
	struct mesh_bitmap *f = tu_all_free(t);
	static const uint32_t a_nodes[] = { 2, 3 }, b_nodes[] = { 6, 7 };
	struct mesh_plan_hold run[2] = { { 0, 50, a_nodes, 2 },
					 { 0, 20, b_nodes, 2 } };
	struct mesh_bitmap *r_nodes = NULL;
	struct mesh_plan_resv res[1] = { { 10, 60, NULL } };
	struct mesh_plan_query q;
	struct mesh_planner *p = NULL;
	struct mesh_allocator *a = NULL;
	struct mesh_request req;
	struct mesh_diag d;
	uint32_t out[4];
	double start;

	mesh_bitmap_clear(f, 2);
	mesh_bitmap_clear(f, 3);
	mesh_bitmap_clear(f, 6);
	mesh_bitmap_clear(f, 7);
	query_at_0(&q, f, run, 2, 30);
	memset(&req, 0, sizeof(req));
	req.nodes = 4;
	ck_assert_int_eq(mesh_alloc_create(t, "contig-ff", NULL, &a, &d), 0);
	ck_assert_int_eq(mesh_planner_create(t, &p), 0);
	ck_assert_int_eq(mesh_plan_earliest(p, a, &q, &req, &start, out), 0);
	ck_assert_double_eq(start, 20);
	ck_assert_uint_eq(out[0], 4);
	ck_assert_int_eq(mesh_bitmap_create(t->nodes, &r_nodes), 0);
	mesh_bitmap_set(r_nodes, 5);
	res[0].nodes = r_nodes;
	q.reserved = res;
	q.n_reserved = 1;
	ck_assert_int_eq(mesh_plan_earliest(p, a, &q, &req, &start, out), 0);
	ck_assert_double_eq(start, 50);
	ck_assert_uint_eq(out[0], 0);
	req.nodes = 9; /* never fits */
	ck_assert_int_eq(mesh_plan_earliest(p, a, &q, &req, &start, out),
			 MESH_ENOSPC);
	mesh_planner_destroy(p);
	mesh_alloc_destroy(a);
	mesh_bitmap_destroy(f);
	mesh_bitmap_destroy(r_nodes);
	mesh_topo_destroy(t);
}
END_TEST

/* Needs two nodes more than req->nodes says. */
static int place_plus2(void *arg, const struct mesh_view *v,
		       const struct mesh_request *req, uint32_t *out)
{
	struct two_counts *tc = arg;
	struct mesh_request r = *req;

	tc->calls++;
	r.nodes = req->nodes + 2;
	return mesh_alloc_place(tc->a, v, &r, out);
}

/* Places only at time 50: not monotone in the free set. */
static int place_at_50(void *arg, const struct mesh_view *v,
		       const struct mesh_request *req, uint32_t *out)
{
	if (v->now != 50)
		return MESH_ENOSPC;
	return mesh_alloc_place(arg, v, req, out);
}

/* 8x1 line, contig-ff, nothing free now; jobs end at 20, 50 and 80.
 * A hook that needs all 4 nodes (req->nodes 2 is only the fewest) makes
 * the count path fall back to the scan: 4 nodes first at 50.  A hook
 * that places only at 50 is found by in_order; the contiguous search
 * (first time with 2 free, 20, then bisection over 50, 80), which
 * assumes monotonicity, cannot see it. */
START_TEST(test_plan_hook_hand_worked)
{
	struct mesh_topo *t = tu_topo("8x1");
	struct mesh_bitmap *f = tu_all_free(t);
	static const uint32_t a_nodes[] = { 0, 1, 2 }, b_nodes[] = { 3, 4 };
	static const uint32_t c_nodes[] = { 5, 6, 7 };
	struct mesh_plan_hold run[3] = { { 0, 80, a_nodes, 3 },
					 { 0, 20, b_nodes, 2 },
					 { 0, 50, c_nodes, 3 } };
	struct mesh_plan_query q;
	struct mesh_planner *p = NULL;
	struct two_counts tc = { NULL, 2, 0, 0 };
	struct mesh_allocator *ff = NULL;
	struct mesh_request req;
	struct mesh_diag d;
	uint32_t out[8], i;
	double start = -1;

	mesh_bitmap_fill(f, false);
	query_at_0(&q, f, run, 3, 10);
	memset(&req, 0, sizeof(req));
	req.nodes = 2;
	req.flags = MESH_REQ_CONTIGUOUS;
	ck_assert_int_eq(mesh_alloc_create(t, "hilbert-bf", NULL, &tc.a, &d),
			 0);
	ck_assert_int_eq(mesh_alloc_create(t, "contig-ff", NULL, &ff, &d), 0);
	ck_assert_int_eq(mesh_planner_create(t, &p), 0);
	/* without the hook: 2 nodes at 20 */
	ck_assert_int_eq(mesh_plan_earliest(p, tc.a, &q, &req, &start, out), 0);
	ck_assert_double_eq(start, 20);
	/* the hook wants 4 if it can, else 2: at 20, 2 nodes (3, 4) */
	q.place = place_two_counts;
	q.place_arg = &tc;
	ck_assert_int_eq(mesh_plan_earliest(p, tc.a, &q, &req, &start, out), 0);
	ck_assert_double_eq(start, 20);
	ck_assert_uint_eq(out[0] + out[1], 7);
	/* fewest 2, but the hook only ever places 4: 3..7 at 50 */
	q.place = place_plus2;
	ck_assert_int_eq(mesh_plan_earliest(p, tc.a, &q, &req, &start, out), 0);
	ck_assert_double_eq(start, 50);
	for (i = 0; i < 4; i++)
		ck_assert_uint_ge(out[i], 3);
	/* non-monotone hook on a contiguous-only allocator */
	req.nodes = 2;
	q.place = place_at_50;
	q.place_arg = ff;
	ck_assert_int_eq(mesh_plan_earliest(p, ff, &q, &req, &start, out),
			 MESH_ENOSPC); /* the bisection assumes monotone */
	q.in_order = 1;
	ck_assert_int_eq(mesh_plan_earliest(p, ff, &q, &req, &start, out), 0);
	ck_assert_double_eq(start, 50);
	ck_assert_int_eq(mesh_plan_earliest_naive(p, ff, &q, &req, &start, out),
			 0);
	ck_assert_double_eq(start, 50);
	mesh_planner_destroy(p);
	mesh_alloc_destroy(ff);
	mesh_alloc_destroy(tc.a);
	mesh_bitmap_destroy(f);
	mesh_topo_destroy(t);
}
END_TEST

/* Ends of -0 and +0 are one time, and the order of times across zero
 * and infinities is the numeric one: 4x1, snake-ff, every node held.
 * Job A (node 0) ends at -0 and job B (node 1) at +0, both after now =
 * -1; job C (node 2) at 5; job D (node 3) at +inf.  Two nodes are free
 * at 0, three at 5, all four only at +inf.  With now = -0, A and B have
 * reached their ends but still run: they are planned to end at now + 1.
 * A NaN now is refused. */
START_TEST(test_plan_signed_zero_and_infinity)
{
	struct mesh_topo *t = tu_topo("4x1");
	struct mesh_bitmap *f = tu_all_free(t);
	static const uint32_t nodes[] = { 0, 1, 2, 3 };
	struct mesh_plan_hold run[4] = { { -9, -0.0, nodes, 1 },
					 { -9, 0.0, nodes + 1, 1 },
					 { -9, 5, nodes + 2, 1 },
					 { -9, INFINITY, nodes + 3, 1 } };
	struct mesh_plan_query q;
	struct mesh_planner *p = NULL;
	struct mesh_allocator *a = NULL;
	struct mesh_request req;
	struct mesh_diag d;
	uint32_t out[4], i, k;
	double start, want[] = { 0, 0, 5, INFINITY };
	double want_overrun[] = { 1, 1, 5, INFINITY };

	mesh_bitmap_fill(f, false);
	query_at_0(&q, f, run, 4, 1);
	ck_assert_int_eq(mesh_alloc_create(t, "snake-ff", NULL, &a, &d), 0);
	ck_assert_int_eq(mesh_planner_create(t, &p), 0);
	memset(&req, 0, sizeof(req));
	for (k = 1; k <= 4; k++) {
		req.nodes = k;
		q.now = -1;
		ck_assert_int_eq(
		    mesh_plan_earliest(p, a, &q, &req, &start, out), 0);
		ck_assert_double_eq(start, want[k - 1]);
		for (i = 0; i < k; i++)
			ck_assert_uint_eq(out[i], i);
		q.now = -0.0;
		ck_assert_int_eq(
		    mesh_plan_earliest(p, a, &q, &req, &start, out), 0);
		ck_assert_double_eq(start, want_overrun[k - 1]);
	}
	q.now = NAN;
	ck_assert_int_eq(mesh_plan_earliest(p, a, &q, &req, &start, out),
			 MESH_EINVAL);
	mesh_planner_destroy(p);
	mesh_alloc_destroy(a);
	mesh_bitmap_destroy(f);
	mesh_topo_destroy(t);
}
END_TEST

/* Where a plan may put a job, checked against the query alone: at or
 * after now; a node not free now only if its running job has ended by
 * the start, and never at now (a job past its estimated end still runs:
 * the planner must not free its nodes now); no node of a reservation
 * that overlaps [start, start + duration); distinct nodes.  Every
 * allocator, random instances in which many running jobs are past their
 * ends (make() puts ends around now). */
static void check_plan_feasible(const struct instance *in,
				const struct mesh_request *req, double start,
				const uint32_t *out, const char *name)
{
	uint32_t i, k;
	size_t r;

	ck_assert_msg(start >= in->q.now, "%s: start %g before now %g", name,
		      start, in->q.now);
	for (i = 0; i < req->nodes; i++) {
		for (k = 0; k < i; k++)
			ck_assert_msg(out[k] != out[i], "%s: node %u twice",
				      name, out[i]);
		for (r = 0; r < in->nrun; r++)
			for (k = 0; k < in->run[r].n; k++)
				if (in->run[r].nodes[k] == out[i])
					ck_assert_msg(
					    start > in->q.now &&
						start >= in->run[r].end,
					    "%s: node %u planned at %.17g, "
					    "running job ends at %.17g, now "
					    "%.17g",
					    name, out[i], start, in->run[r].end,
					    in->q.now);
		for (r = 0; r < in->nres; r++) {
			const struct mesh_plan_resv *h = &in->res[r];

			if (!(h->start < start + in->q.duration &&
			      h->end > start))
				continue;
			ck_assert_msg(!mesh_bitmap_test(h->nodes, out[i]),
				      "%s: node %u reserved over "
				      "[%g, %g), planned at %g",
				      name, out[i], h->start, h->end, start);
		}
	}
}

START_TEST(test_plan_never_holds_busy)
{
	const struct mesh_alloc_info *info = mesh_alloc_describe((size_t) _i);
	uint64_t s = 7000 + (uint64_t) _i;
	struct mesh_planner *p = NULL;
	struct mesh_allocator *a = NULL;
	struct mesh_request req;
	struct mesh_diag d;
	struct instance in;
	uint32_t out[512];
	double start;
	int trial, placed = 0, rc;

	for (trial = 0; trial < 40; trial++) {
		make(&in, &s);
		/* plas and mc-elongated (and auto) need I/O nodes */
		if (mesh_alloc_create(in.t, info->name, NULL, &a, &d) &&
		    (mesh_topo_parse_io_nodes(
			 in.t, in.t->ndims == 2 ? "0,0" : "0,0,0", &d) ||
		     mesh_alloc_create(in.t, info->name, NULL, &a, &d))) {
			drop(&in); /* e.g. mbs on a 3D mesh */
			continue;
		}
		ck_assert_int_eq(mesh_planner_create(in.t, &p), 0);
		random_request(&req, &in, &s);
		rc = mesh_plan_earliest(p, a, &in.q, &req, &start, out);
		if (!rc) {
			check_plan_feasible(&in, &req, start, out, info->name);
			placed++;
		} else {
			ck_assert_int_eq(rc, MESH_ENOSPC);
		}
		mesh_planner_destroy(p);
		mesh_alloc_destroy(a);
		drop(&in);
	}
	ck_assert_msg(placed > 0, "%s never placed", info->name);
}
END_TEST

/* A conservative backfilling pass, as meshsim makes it: each of 40
 * queued jobs is planned around the running jobs and the reservations
 * of the jobs ahead, and its answer joins them; two in three start their
 * scan at the floor the jobs before them prove (not_before), which the
 * definition does not use.  The reservations are
 * large (up to half of a 12x10x3 mesh: 360 nodes, five words and part
 * of a sixth) and many: windows hold several, and ones at different
 * times share nodes, so the planner's union of the window is rebuilt as
 * they leave.  Each answer equals the definition's, and a check written
 * from the definition alone finds every node free then: free now or
 * its running job ended, and in no reservation overlapping the job. */
START_TEST(test_plan_reservation_chain)
{
	uint64_t s = 11000 + (uint64_t) _i;
	struct mesh_topo *t = tu_topo("12x10x3");
	struct mesh_bitmap *f = tu_all_free(t), *maps[40];
	struct mesh_plan_hold run[24];
	struct mesh_plan_resv res[40];
	struct mesh_plan_query q;
	struct mesh_planner *p = NULL;
	struct mesh_allocator *a = NULL;
	struct mesh_request req;
	struct mesh_diag d;
	uint32_t nodes[360], owner[360], o1[360], o2[360], i, k, used = 0;
	uint32_t fl_nodes[40];
	double t1, t2, fl_duration[40], fl_first[40], nb;
	struct mesh_plan_stats stats;
	size_t r, j, nres = 0;
	int r1, r2, waits = 0, floors = 0;

	if (mesh_alloc_create(t, allocs[_i], NULL, &a, &d)) {
		mesh_bitmap_destroy(f);
		mesh_topo_destroy(t);
		return;
	}
	for (i = 0; i < t->nodes; i++)
		owner[i] =
		    tu_rand(&s) % 5 ? 1 + (uint32_t) (tu_rand(&s) % 24) : 0;
	for (r = 0; r < 24; r++) {
		run[r].nodes = nodes + used;
		for (i = 0; i < t->nodes; i++)
			if (owner[i] == r + 1) {
				nodes[used++] = i;
				mesh_bitmap_clear(f, i);
			}
		run[r].n = (uint32_t) (nodes + used - run[r].nodes);
		run[r].start = 0;
		run[r].end = 10 + 10 * (double) (tu_rand(&s) % 12);
	}
	memset(&q, 0, sizeof(q));
	q.free_now = f;
	q.now = 5;
	q.running = run;
	q.n_running = 24;
	q.reserved = res;
	ck_assert_int_eq(mesh_planner_create(t, &p), 0);
	memset(&req, 0, sizeof(req));
	req.end_time = -1;
	req.io_intensity = -1;
	req.seed = 7;
	q.stats = &stats;
	for (j = 0; j < 40; j++) {
		req.nodes = 1 + (uint32_t) (tu_rand(&s) % (t->nodes / 2));
		q.n_reserved = nres;
		q.duration = 5 + 10 * (double) (tu_rand(&s) % 6);
		/* as meshsim's pass: the latest first_enough of the jobs
		 * before that need no more nodes for no longer (every other
		 * job plans without, as select/mesh does) */
		nb = -INFINITY;
		for (r = 0; j % 3 && r < j; r++)
			if (fl_nodes[r] <= req.nodes &&
			    fl_duration[r] <= q.duration && fl_first[r] > nb)
				nb = fl_first[r];
		q.not_before = j % 3 ? &nb : NULL;
		floors += nb > q.now;
		r1 = mesh_plan_earliest(p, a, &q, &req, &t1, o1);
		fl_nodes[j] = req.nodes;
		fl_duration[j] = q.duration;
		fl_first[j] = r1 ? INFINITY : stats.first_enough;
		if (!r1)
			ck_assert_msg(stats.first_enough <= t1 &&
					  stats.first_enough >= q.now,
				      "%s, job %zu: first_enough %g, start %g",
				      allocs[_i], j, stats.first_enough, t1);
		r2 = mesh_plan_earliest_naive(p, a, &q, &req, &t2, o2);
		ck_assert_int_eq(r1, r2);
		if (r1) {
			ck_assert_int_eq(r1, MESH_ENOSPC);
			continue;
		}
		ck_assert_msg(t1 == t2, "%s, job %zu: start %g, definition %g",
			      allocs[_i], j, t1, t2);
		ck_assert_mem_eq(o1, o2, req.nodes * sizeof(*o1));
		for (k = 0; k < req.nodes; k++) {
			i = o1[k];
			ck_assert_msg(
			    mesh_bitmap_test(f, i) ||
				(t1 > q.now && run[owner[i] - 1].end <= t1),
			    "%s: node %u busy at %g", allocs[_i], i, t1);
			for (r = 0; r < nres; r++)
				ck_assert_msg(
				    !(res[r].start < t1 + q.duration &&
				      res[r].end > t1) ||
					!mesh_bitmap_test(res[r].nodes, i),
				    "%s: node %u reserved over [%g, %g), "
				    "planned over [%g, %g)",
				    allocs[_i], i, res[r].start, res[r].end, t1,
				    t1 + q.duration);
		}
		if (t1 == q.now)
			continue;
		waits++;
		ck_assert_int_eq(mesh_bitmap_create(t->nodes, &maps[nres]), 0);
		for (k = 0; k < req.nodes; k++)
			mesh_bitmap_set(maps[nres], o1[k]);
		res[nres].start = t1;
		res[nres].end = t1 + q.duration;
		res[nres].nodes = maps[nres];
		nres++;
	}
	ck_assert_int_gt(waits, 10);
	ck_assert_int_gt(floors, 0);
	q.not_before = NULL;
	/* The planner keeps the list it saw sorted while it only grows; an
	 * entry moved in place, or a shorter list, must be seen too. */
	for (j = 0; j < 6 && nres > 2; j++) {
		req.nodes =
		    t->nodes / 4 + (uint32_t) (tu_rand(&s) % (t->nodes / 4));
		r = (size_t) tu_rand(&s) % nres;
		t1 = res[r].end - res[r].start;
		res[r].start = j % 2 ? q.now + 1 : res[r].start + 40;
		res[r].end = res[r].start + t1;
		q.n_reserved = j == 5 ? nres - 1 : nres;
		r1 = mesh_plan_earliest(p, a, &q, &req, &t1, o1);
		r2 = mesh_plan_earliest_naive(p, a, &q, &req, &t2, o2);
		ck_assert_int_eq(r1, r2);
		if (r1)
			continue;
		ck_assert_msg(t1 == t2,
			      "%s, moved %zu: start %g, definition %g",
			      allocs[_i], r, t1, t2);
		ck_assert_mem_eq(o1, o2, req.nodes * sizeof(*o1));
	}
	for (r = 0; r < nres; r++)
		mesh_bitmap_destroy(maps[r]);
	mesh_planner_destroy(p);
	mesh_alloc_destroy(a);
	mesh_bitmap_destroy(f);
	mesh_topo_destroy(t);
}
END_TEST

/* The planner's sorted reservations are reused only while the caller's
 * list grows with its earlier entries unchanged.  4x1, all free at 0;
 * the list holds one reservation of all four nodes over [10, 20): a
 * 15 s job starts at 20.  Moved in place to [100, 110), the same list at
 * the same now: the job starts at 0; the move back, and the list cut to
 * none, are seen too.  A planner trusting its cache gives 20, then 0,
 * then 20. */
START_TEST(test_plan_cache_sees_a_moved_reservation)
{
	struct mesh_topo *t = tu_topo("4x1");
	struct mesh_bitmap *f = tu_all_free(t), *all = tu_all_free(t);
	struct mesh_plan_resv res[2] = { { 10, 20, all }, { 30, 40, all } };
	static const double starts[][3] = { /* start, end, expected */
					    { 10, 20, 20 },
					    { 100, 110, 0 },
					    { 10, 20, 20 },
					    { 0, 12, 12 }
	};
	struct mesh_plan_query q;
	struct mesh_planner *p = NULL;
	struct mesh_allocator *a = NULL;
	struct mesh_request req;
	struct mesh_diag d;
	uint32_t out[4];
	double start;
	size_t i;

	ck_assert_int_eq(mesh_alloc_create(t, "hilbert-bf", NULL, &a, &d), 0);
	ck_assert_int_eq(mesh_planner_create(t, &p), 0);
	memset(&q, 0, sizeof(q));
	memset(&req, 0, sizeof(req));
	q.free_now = f;
	q.reserved = res;
	q.n_reserved = 1;
	q.duration = 15;
	req.nodes = 4;
	req.end_time = -1;
	req.io_intensity = -1;
	for (i = 0; i < 4; i++) {
		res[0].start = starts[i][0];
		res[0].end = starts[i][1];
		ck_assert_int_eq(
		    mesh_plan_earliest(p, a, &q, &req, &start, out), 0);
		ck_assert_msg(start == starts[i][2],
			      "reservation [%g, %g): start %g, expected %g",
			      starts[i][0], starts[i][1], start, starts[i][2]);
	}
	/* Grown by one after the move: [0, 12) and [30, 40) leave [12, 27). */
	q.n_reserved = 2;
	ck_assert_int_eq(mesh_plan_earliest(p, a, &q, &req, &start, out), 0);
	ck_assert_msg(start == 12, "two reservations: start %g", start);
	res[0].start = 50;
	res[0].end = 60; /* moved again, same length of list */
	ck_assert_int_eq(mesh_plan_earliest(p, a, &q, &req, &start, out), 0);
	ck_assert_msg(start == 0, "moved to [50, 60): start %g", start);
	q.n_reserved = 0;
	ck_assert_int_eq(mesh_plan_earliest(p, a, &q, &req, &start, out), 0);
	ck_assert_msg(start == 0, "no reservation: start %g", start);
	mesh_planner_destroy(p);
	mesh_alloc_destroy(a);
	mesh_bitmap_destroy(all);
	mesh_bitmap_destroy(f);
	mesh_topo_destroy(t);
}
END_TEST

/* Refuses before time 120, then places; each call first spins for
 * spin seconds (a slow allocator). */
struct late_hook {
	struct mesh_allocator *a;
	double spin;
	int calls;
};

static int place_from_120(void *arg, const struct mesh_view *v,
			  const struct mesh_request *req, uint32_t *out)
{
	struct late_hook *h = arg;
	struct timespec t0, t1;

	h->calls++;
	if (h->spin > 0 && !clock_gettime(CLOCK_MONOTONIC, &t0))
		do
			clock_gettime(CLOCK_MONOTONIC, &t1);
		while ((double) (t1.tv_sec - t0.tv_sec) +
			   1e-9 * (double) (t1.tv_nsec - t0.tv_nsec) <
		       h->spin);
	if (v->now < 120)
		return MESH_ENOSPC;
	return mesh_alloc_place(h->a, v, req, out);
}

/* The line of test_plan_bound and test_plan_monotone: 16x1, node i < 15
 * held by a job ending at 10 (i + 1), node 15 free, an 8-node request,
 * place_from_120 over snake-ff as the hook. */
struct line15 {
	struct mesh_topo *t;
	struct mesh_bitmap *f;
	struct mesh_plan_hold run[15];
	struct mesh_plan_stats st;
	struct mesh_plan_query q;
	struct mesh_planner *p;
	struct late_hook h;
	struct mesh_request req;
};

static void line15_make(struct line15 *l)
{
	static const uint32_t nodes[15] = { 0, 1, 2,  3,  4,  5,  6, 7,
					    8, 9, 10, 11, 12, 13, 14 };
	struct mesh_diag d;
	uint32_t i;

	memset(l, 0, sizeof(*l));
	l->t = tu_topo("16x1");
	l->f = tu_all_free(l->t);
	for (i = 0; i < 15; i++) {
		l->run[i].start = 0;
		l->run[i].end = 10 * (i + 1);
		l->run[i].nodes = nodes + i;
		l->run[i].n = 1;
		mesh_bitmap_clear(l->f, i);
	}
	query_at_0(&l->q, l->f, l->run, 15, 10);
	l->q.place = place_from_120;
	l->q.place_arg = &l->h;
	l->q.stats = &l->st;
	l->req.nodes = 8;
	ck_assert_int_eq(mesh_alloc_create(l->t, "snake-ff", NULL, &l->h.a, &d),
			 0);
	ck_assert_int_eq(mesh_planner_create(l->t, &l->p), 0);
}

/* Plans the request: placed at want, the search cut or not (cut -1:
 * either). */
static void line15_expect(struct line15 *l, double want, int cut, uint32_t *out)
{
	double start = -1;

	ck_assert_int_eq(
	    mesh_plan_earliest(l->p, l->h.a, &l->q, &l->req, &start, out), 0);
	ck_assert_double_eq(start, want);
	if (cut >= 0)
		ck_assert_int_eq(l->st.truncated, cut);
}

static void line15_drop(struct line15 *l)
{
	mesh_planner_destroy(l->p);
	mesh_alloc_destroy(l->h.a);
	mesh_bitmap_destroy(l->f);
	mesh_topo_destroy(l->t);
}

/* 16x1 line: node i < 15 held by a job ending at 10 (i + 1), node 15
 * free.  8 nodes are free from 70, the hook places from 120: unbounded,
 * the scan calls it at 70, 80, ..., 120.  With max_places 3 it calls at
 * 70 and 80, then once at the latest candidate, 150, where every job
 * has ended.  A time bound (two calls of 2 ms against 3 ms) does the
 * same; a bound not reached changes nothing.  The bound counts the
 * call kept for the latest candidate: with 6, five calls (70..110)
 * then 150. */
START_TEST(test_plan_bound)
{
	struct line15 l;
	uint32_t out[8];

	line15_make(&l);
	l.q.in_order = 1;
	line15_expect(&l, 120, -1, out);
	ck_assert_int_eq(l.h.calls, 6);
	ck_assert_uint_eq(l.st.places, 6);
	ck_assert_int_eq(l.st.truncated, 0);
	l.q.max_places = 7; /* room for the six: not cut */
	line15_expect(&l, 120, 0, out);
	l.q.max_places = 6;
	line15_expect(&l, 150, -1, out);
	ck_assert_uint_eq(l.st.places, 6);
	l.q.max_places = 3;
	l.h.calls = 0;
	line15_expect(&l, 150, -1, out);
	ck_assert_int_eq(l.h.calls, 3);
	ck_assert_uint_eq(l.st.places, 3);
	ck_assert_int_eq(l.st.truncated, 1);
	l.q.max_places = 1; /* only the latest */
	l.h.calls = 0;
	line15_expect(&l, 150, -1, out);
	ck_assert_int_eq(l.h.calls, 1);
	l.q.max_places = 0;
	l.q.max_seconds = 0.003;
	l.h.spin = 0.002;
	l.h.calls = 0;
	line15_expect(&l, 150, -1, out);
	ck_assert_int_ge(l.h.calls, 2); /* 70, maybe 80, then 150 */
	ck_assert_int_le(l.h.calls, 3);
	ck_assert_int_eq(l.st.truncated, 1);
	l.q.max_seconds = 60;
	l.h.spin = 0;
	line15_expect(&l, 120, 0, out);
	line15_drop(&l);
}
END_TEST

/* Random instances scanned in order under a small placement bound: the
 * answer is never earlier than the unbounded one, and its nodes are
 * free then (check_plan_feasible); the scan keeps to the bound. */
START_TEST(test_plan_bound_random)
{
	uint64_t s = 13000 + (uint64_t) _i;
	struct mesh_planner *p = NULL;
	struct mesh_allocator *a = NULL;
	struct mesh_plan_stats st;
	struct mesh_request req;
	struct mesh_diag d;
	struct instance in;
	uint32_t o1[512], o2[512];
	double t1, t2;
	int trial, r1, r2, cut = 0;

	for (trial = 0; trial < 40; trial++) {
		make(&in, &s);
		if (mesh_alloc_create(in.t, allocs[_i], NULL, &a, &d)) {
			drop(&in);
			return;
		}
		ck_assert_int_eq(mesh_planner_create(in.t, &p), 0);
		random_request(&req, &in, &s);
		in.q.in_order = 1;
		r1 = mesh_plan_earliest(p, a, &in.q, &req, &t1, o1);
		in.q.max_places = 1 + tu_rand(&s) % 3;
		in.q.stats = &st;
		r2 = mesh_plan_earliest(p, a, &in.q, &req, &t2, o2);
		ck_assert_uint_le(st.places, in.q.max_places);
		cut += st.truncated;
		if (!r2) {
			ck_assert_int_eq(r1, 0);
			ck_assert_msg(t2 >= t1, "%s: bounded %g before %g",
				      allocs[_i], t2, t1);
			check_plan_feasible(&in, &req, t2, o2, allocs[_i]);
		} else {
			ck_assert_int_eq(r2, MESH_ENOSPC);
		}
		mesh_planner_destroy(p);
		mesh_alloc_destroy(a);
		drop(&in);
	}
	ck_assert_int_gt(cut, 0);
}
END_TEST

/* test_plan_bound's line with a hook whose refusals are monotone
 * (places from 120 on) and no in_order: the counting search's first
 * probe, at 70, refuses with 8 nodes free.  Without q.monotone a scan
 * follows, which max_places 3 cuts to 150; with it a binary search
 * finds 120 in O(log candidates) calls, under the same bound, and the
 * answer is the hook's last call (plan.h). */
START_TEST(test_plan_monotone)
{
	struct line15 l;
	uint32_t out[8], i;

	line15_make(&l);
	l.q.max_places = 3;
	line15_expect(&l, 150, 1, out);
	l.q.monotone = 1;
	l.h.calls = 0;
	line15_expect(&l, 120, 0, out);
	/* 70, then 9 candidates (80 .. 150) halved: at most 1 + 4 + 1 */
	ck_assert_int_le(l.h.calls, 6);
	ck_assert_uint_eq(l.st.places, (size_t) l.h.calls);
	for (i = 0; i < 8; i++)
		ck_assert_uint_eq(out[i], i);
	line15_drop(&l);
}
END_TEST

/* A --contiguous job as select/mesh places it (_place_k): the
 * allocator's answer if it fills its bounding box, else contig-ff's;
 * calls counted. */
struct box_hook {
	struct mesh_allocator *a, *box;
	int calls;
};

static int place_box(void *arg, const struct mesh_view *v,
		     const struct mesh_request *req, uint32_t *out)
{
	struct box_hook *h = arg;
	struct mesh_metrics m;
	int rc;

	h->calls++;
	rc = mesh_alloc_place(h->a, v, req, out);
	if (!rc && (mesh_metrics_compute(v->topo, out, req->nodes, &m) ||
		    m.nodes_affected != req->nodes))
		rc = MESH_ENOSPC;
	if (rc == MESH_ENOSPC)
		rc = mesh_alloc_place(h->box, v, req, out);
	return rc;
}

/* Random instances without reservations, a box-or-refuse hook over every
 * kind of allocator, q.monotone: the definition's start and nodes, by
 * a binary search (calls at most 2 + 2 log2 of the candidates). */
START_TEST(test_plan_monotone_equals_definition)
{
	uint64_t s = 17000 + (uint64_t) _i;
	struct mesh_planner *p = NULL;
	struct box_hook h;
	struct mesh_request req;
	struct mesh_diag d;
	struct instance in;
	uint32_t o1[512], o2[512];
	double t1, t2;
	int trial, r1, r2, placed = 0, searched = 0;

	for (trial = 0; trial < 40; trial++) {
		make(&in, &s);
		memset(&h, 0, sizeof(h));
		if (mesh_alloc_create(in.t, allocs[_i], NULL, &h.a, &d)) {
			drop(&in);
			return;
		}
		ck_assert_int_eq(
		    mesh_alloc_create(in.t, "contig-ff", NULL, &h.box, &d), 0);
		ck_assert_int_eq(mesh_planner_create(in.t, &p), 0);
		random_request(&req, &in, &s);
		in.q.n_reserved = 0;
		in.q.place = place_box;
		in.q.place_arg = &h;
		in.q.monotone = 1;
		r1 = mesh_plan_earliest(p, h.a, &in.q, &req, &t1, o1);
		ck_assert_int_le(h.calls,
				 2 + 2 * (int) ceil(log2(in.nrun + 2.0)));
		searched += h.calls > 1;
		r2 = mesh_plan_earliest_naive(p, h.a, &in.q, &req, &t2, o2);
		ck_assert_int_eq(r1, r2);
		if (!r1) {
			ck_assert_msg(t1 == t2, "%s: start %g, definition %g",
				      allocs[_i], t1, t2);
			ck_assert_mem_eq(o1, o2, req.nodes * sizeof(*o1));
			placed++;
		} else {
			ck_assert_int_eq(r1, MESH_ENOSPC);
		}
		mesh_planner_destroy(p);
		mesh_alloc_destroy(h.a);
		mesh_alloc_destroy(h.box);
		drop(&in);
	}
	ck_assert_int_gt(placed, 0);
	ck_assert_int_gt(searched, 0); /* a refusal with enough free */
}
END_TEST

int main(void)
{
	Suite *s = suite_create("plan");
	TCase *tc = tcase_create("earliest");
	SRunner *sr;
	int nf;

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_plan_equals_definition, 0,
			    (int) (sizeof(allocs) / sizeof(allocs[0])));
	tcase_add_test(tc, test_plan_hand_worked);
	tcase_add_loop_test(tc, test_plan_hook_equals_definition, 0,
			    (int) (sizeof(allocs) / sizeof(allocs[0])));
	tcase_add_test(tc, test_plan_hook_hand_worked);
	tcase_add_test(tc, test_plan_signed_zero_and_infinity);
	tcase_add_loop_test(tc, test_plan_reused_planner, 0,
			    (int) (sizeof(allocs) / sizeof(allocs[0])));
	tcase_add_loop_test(tc, test_plan_never_holds_busy, 0,
			    (int) mesh_alloc_count());
	tcase_add_test(tc, test_plan_cache_sees_a_moved_reservation);
	tcase_add_loop_test(tc, test_plan_reservation_chain, 0,
			    (int) (sizeof(allocs) / sizeof(allocs[0])));
	tcase_add_test(tc, test_plan_bound);
	tcase_add_loop_test(tc, test_plan_bound_random, 0,
			    (int) (sizeof(allocs) / sizeof(allocs[0])));
	tcase_add_test(tc, test_plan_monotone);
	tcase_add_loop_test(tc, test_plan_monotone_equals_definition, 0,
			    (int) (sizeof(allocs) / sizeof(allocs[0])));
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}

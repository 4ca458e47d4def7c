/* check_plan.c - earliest-start planning (plan.h): the fast search gives
 * exactly what the definition gives (every candidate time in order, set
 * rebuilt, one placement each) on random instances, for every kind of
 * allocator, with and without reservations; plus hand-worked cases. */
#include "testutil.h"

static const char *const allocs[] = { "hilbert-bf",   "snake-ff",  "mc1x1",
				      "contig-ff",    "contig-bf", "mbs",
				      "mbs-granular", "paging",    "random",
				      "sl:hilbert-bf" };

struct instance {
	struct mesh_topo *t;
	struct mesh_bitmap *free;
	struct mesh_plan_hold run[40], res[10];
	uint32_t nodes[2048];
	size_t nrun, nres;
	struct mesh_plan_query q;
};

/* Random running jobs on disjoint nodes, ends around now = 100; some
 * reservations on random nodes later on. */
static void make(struct instance *in, uint64_t *s)
{
	static const char *const specs[] = { "8x8", "6tx5t", "4x4x3", "16x8" };
	uint32_t *owner, i, used = 0;
	size_t r;

	memset(in, 0, sizeof(*in));
	in->t = tu_topo(specs[tu_rand(s) % 4]);
	in->free = tu_all_free(in->t);
	owner = calloc(in->t->nodes, sizeof(*owner));
	in->nrun = 1 + tu_rand(s) % 30;
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
	in->nres = tu_rand(s) % 2 ? tu_rand(s) % 6 : 0;
	for (r = 0; r < in->nres; r++) {
		struct mesh_plan_hold *h = &in->res[r];
		uint32_t k = 1 + (uint32_t) (tu_rand(s) % 8);

		h->nodes = in->nodes + used;
		for (i = 0; i < k; i++)
			in->nodes[used++] =
			    (uint32_t) (tu_rand(s) % in->t->nodes);
		h->n = k;
		h->start = 100 + 10 * (double) (tu_rand(s) % 15);
		h->end = h->start + 10 + 10 * (double) (tu_rand(s) % 10);
	}
	free(owner);
	in->q.free_now = in->free;
	in->q.now = 100;
	in->q.running = in->run;
	in->q.n_running = in->nrun;
	in->q.reserved = in->res;
	in->q.n_reserved = in->nres;
	in->q.duration = 5 + 10 * (double) (tu_rand(s) % 8);
}

static void drop(struct instance *in)
{
	mesh_bitmap_destroy(in->free);
	mesh_topo_destroy(in->t);
}

START_TEST(test_plan_equals_definition)
{
	uint64_t s = 1000 + (uint64_t) _i;
	int trial, agree = 0, never = 0;

	for (trial = 0; trial < 60; trial++) {
		struct instance in;
		struct mesh_planner *p = NULL;
		struct mesh_allocator *a = NULL;
		struct mesh_request req;
		struct mesh_diag d;
		uint32_t o1[512], o2[512];
		double t1 = -1, t2 = -1;
		int r1, r2;

		make(&in, &s);
		if (mesh_alloc_create(in.t, allocs[_i], NULL, &a, &d)) {
			drop(&in); /* e.g. mbs on a 3D mesh */
			continue;
		}
		ck_assert_int_eq(mesh_planner_create(in.t, &p), 0);
		memset(&req, 0, sizeof(req));
		req.nodes = 1 + (uint32_t) (tu_rand(&s) % (in.t->nodes / 2));
		req.end_time = -1;
		req.io_intensity = -1;
		req.seed = 7;
		r1 = mesh_plan_earliest(p, a, &in.q, &req, &t1, o1);
		r2 = mesh_plan_earliest_naive(p, a, &in.q, &req, &t2, o2);
		ck_assert_int_eq(r1, r2);
		if (!r1) {
			ck_assert_msg(t1 == t2, "%s: start %g, definition %g",
				      allocs[_i], t1, t2);
			ck_assert_mem_eq(o1, o2, req.nodes * sizeof(*o1));
			agree++;
		} else {
			ck_assert_int_eq(r1, MESH_ENOSPC);
			never++;
		}
		mesh_planner_destroy(p);
		mesh_alloc_destroy(a);
		drop(&in);
	}
	ck_assert_int_gt(agree, 0);
	(void) never;
}
END_TEST

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
	static const uint32_t r_nodes[] = { 5 };
	struct mesh_plan_hold run[2] = { { 0, 50, a_nodes, 2 },
					 { 0, 20, b_nodes, 2 } };
	struct mesh_plan_hold res[1] = { { 10, 60, r_nodes, 1 } };
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
	memset(&q, 0, sizeof(q));
	q.free_now = f;
	q.now = 0;
	q.running = run;
	q.n_running = 2;
	q.duration = 30;
	memset(&req, 0, sizeof(req));
	req.nodes = 4;
	ck_assert_int_eq(mesh_alloc_create(t, "contig-ff", NULL, &a, &d), 0);
	ck_assert_int_eq(mesh_planner_create(t, &p), 0);
	ck_assert_int_eq(mesh_plan_earliest(p, a, &q, &req, &start, out), 0);
	ck_assert_double_eq(start, 20);
	ck_assert_uint_eq(out[0], 4);
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
	mesh_topo_destroy(t);
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
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* check_sim.c - FCFS and EASY on hand-made traces whose schedules are
 * derived in the comments. */
#include <stdio.h>

#include "testutil.h"

struct jobspec {
	long id;
	double submit, run, req_time;
	long size;
};

static struct mesh_swf_trace *make_trace(const struct jobspec *js, size_t n)
{
	struct mesh_swf_trace *tr = calloc(1, sizeof(*tr));
	size_t i;

	tr->jobs = calloc(n, sizeof(*tr->jobs));
	tr->n = n;
	tr->max_nodes = tr->max_procs = -1;
	for (i = 0; i < n; i++) {
		struct mesh_swf_job *j = &tr->jobs[i];

		j->id = js[i].id;
		j->submit = js[i].submit;
		j->run = js[i].run;
		j->req_time = js[i].req_time;
		j->procs = js[i].size;
		j->req_procs = -1;
		j->line = (long) i + 1;
	}
	return tr;
}

static struct mesh_sim_result *simulate(const char *mesh, const char *alloc,
					const struct jobspec *js, size_t n,
					const struct mesh_sim_opts *o)
{
	struct mesh_topo *t = tu_topo(mesh);
	struct mesh_swf_trace *tr = make_trace(js, n);
	struct mesh_allocator *a = NULL;
	struct mesh_sim_result *r = NULL;
	struct mesh_diag d;

	ck_assert_int_eq(mesh_alloc_create(t, alloc, NULL, &a, &d), 0);
	ck_assert_int_eq(mesh_sim_run(t, a, tr, o, &r, &d), 0);
	mesh_alloc_destroy(a);
	mesh_swf_free(tr);
	mesh_topo_destroy(t);
	return r;
}

static const struct mesh_sim_job *job_of(const struct mesh_sim_result *r,
					 long id)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (r->jobs[i].id == id)
			return &r->jobs[i];
	ck_abort_msg("job %ld not started", id);
	return NULL;
}

static double start_of(const struct mesh_sim_result *r, long id)
{
	return job_of(r, id)->start;
}

/* 8 nodes.  J1 (6 nodes, 0-10) runs.  J2 (4) cannot start: shadow = 10
 * when J1 ends, extra = 8 - 4 = 4.  J3 (2 nodes, 5 s) ends at 7 <= 10:
 * backfilled at 2.  J4 (2 nodes, 20 s) arrives at 3 with nothing free;
 * at 7 (J3 done) it fits, runs past the shadow but 2 <= extra: starts at
 * 7.  At 10 J1 ends and J2 starts.
 * FCFS instead starts J2 at 10, then J3 and J4 at 10 behind it. */
static const struct jobspec easy_a[] = {
	{ 1, 0, 10, -1, 6 },
	{ 2, 1, 10, -1, 4 },
	{ 3, 2, 5, -1, 2 },
	{ 4, 3, 20, -1, 2 },
};

START_TEST(test_sim_easy_backfills_within_shadow_and_extra)
{
	struct mesh_sim_opts o;
	struct mesh_sim_result *r;

	mesh_sim_opts_init(&o);
	r = simulate("4x2", "rowmajor-freelist", easy_a, 4, &o);
	ck_assert_uint_eq(r->n, 4);
	ck_assert(start_of(r, 1) == 0);
	ck_assert(start_of(r, 3) == 2);
	ck_assert(start_of(r, 4) == 7);
	ck_assert(start_of(r, 2) == 10);
	ck_assert_double_eq_tol(r->summary.mean_wait, (0 + 9 + 0 + 4) / 4.0,
				1e-12);
	mesh_sim_result_free(r);
}
END_TEST

START_TEST(test_sim_fcfs_never_backfills)
{
	struct mesh_sim_opts o;
	struct mesh_sim_result *r;

	mesh_sim_opts_init(&o);
	o.sched = MESH_SCHED_FCFS;
	r = simulate("4x2", "rowmajor-freelist", easy_a, 4, &o);
	ck_assert(start_of(r, 1) == 0);
	ck_assert(start_of(r, 2) == 10);
	ck_assert(start_of(r, 3) == 10);
	ck_assert(start_of(r, 4) == 10);
	mesh_sim_result_free(r);
}
END_TEST

/* J1 (5 nodes, 0-10); J2 (6) blocked: shadow 10, extra 8 - 6 = 2.
 * J3 (3 nodes, 20 s) fits now but would end at 22 > 10 and 3 > extra:
 * it must wait.  J4 (2 nodes, 20 s) fits in the extra nodes: starts at
 * 3.  J2 starts at 10 (1 + 5 free); J3 waits until J2 ends at 20. */
static const struct jobspec easy_b[] = {
	{ 1, 0, 10, -1, 5 },
	{ 2, 1, 10, -1, 6 },
	{ 3, 2, 20, -1, 3 },
	{ 4, 3, 20, -1, 2 },
};

START_TEST(test_sim_easy_protects_the_reservation)
{
	struct mesh_sim_opts o;
	struct mesh_sim_result *r;

	mesh_sim_opts_init(&o);
	r = simulate("4x2", "snake-bf", easy_b, 4, &o);
	ck_assert(start_of(r, 1) == 0);
	ck_assert(start_of(r, 4) == 3);
	ck_assert(start_of(r, 2) == 10);
	ck_assert(start_of(r, 3) == 20);
	mesh_sim_result_free(r);
}
END_TEST

/* Estimates: J1 asks for 100 s but runs 10.  With clamped (requested)
 * estimates the shadow for J2 is 100, so J3 (8 s) ending at 9 can
 * backfill; J4 (50 s) too (ends 51 <= 100).  With exact estimates the
 * shadow is 10: J4 cannot start before J2. */
static const struct jobspec est[] = {
	{ 1, 0, 10, 100, 3 },
	{ 2, 1, 5, -1, 8 },
	{ 3, 1, 8, 8, 1 },
	{ 4, 1, 50, 50, 1 },
};

START_TEST(test_sim_estimate_modes)
{
	struct mesh_sim_opts o;
	struct mesh_sim_result *r;

	mesh_sim_opts_init(&o);
	r = simulate("4x2", "rowmajor-ff", est, 4, &o);
	ck_assert(start_of(r, 3) == 1);
	ck_assert(start_of(r, 4) == 1);
	ck_assert(start_of(r, 2) == 51);
	mesh_sim_result_free(r);
	o.estimate = MESH_ESTIMATE_EXACT;
	r = simulate("4x2", "rowmajor-ff", est, 4, &o);
	ck_assert(start_of(r, 3) == 1); /* ends at 9 <= shadow 10 */
	ck_assert(start_of(r, 2) == 10);
	ck_assert(start_of(r, 4) == 15);
	mesh_sim_result_free(r);
}
END_TEST

/* A job arriving exactly when another ends sees the freed nodes. */
START_TEST(test_sim_completion_before_arrival)
{
	static const struct jobspec js[] = { { 1, 0, 10, -1, 8 },
					     { 2, 10, 5, -1, 8 } };
	struct mesh_sim_opts o;
	struct mesh_sim_result *r;

	mesh_sim_opts_init(&o);
	r = simulate("4x2", "hilbert-bf", js, 2, &o);
	ck_assert(start_of(r, 2) == 10);
	ck_assert_double_eq_tol(r->summary.makespan, 15, 1e-12);
	ck_assert_double_eq_tol(r->summary.utilization, 1.0, 1e-12);
	mesh_sim_result_free(r);
}
END_TEST

START_TEST(test_sim_skips_and_zero_runtime)
{
	static const struct jobspec js[] = {
		{ 1, 0, 10, -1, 2 }, { 2, 0, -1, -1, 2 }, { 3, 0, 0, -1, 2 },
		{ 4, 0, 5, -1, -1 }, { 5, 0, 5, -1, 9 },  { 6, 0, 5, -1, 0 },
		{ 7, -1, 5, -1, 1 },
	};
	struct mesh_sim_opts o;
	struct mesh_sim_result *r;

	mesh_sim_opts_init(&o);
	r = simulate("4x2", "colsnake-ff", js, 7, &o);
	ck_assert_uint_eq(r->summary.jobs, 1);
	ck_assert_uint_eq(r->summary.skipped, 6);
	ck_assert_uint_eq(r->summary.skipped_submit, 1);
	ck_assert_uint_eq(r->summary.skipped_runtime, 2);
	ck_assert_uint_eq(r->summary.skipped_size, 2);
	ck_assert_uint_eq(r->summary.skipped_too_large, 1);
	mesh_sim_result_free(r);
	o.keep_zero_runtime = 1;
	r = simulate("4x2", "colsnake-ff", js, 7, &o);
	ck_assert_uint_eq(r->summary.jobs, 2);
	ck_assert(start_of(r, 3) == 0);
	mesh_sim_result_free(r);
}
END_TEST

/* Bounded slowdown (tau 10) and the pairwise means. */
START_TEST(test_sim_summary_metrics)
{
	static const struct jobspec js[] = {
		{ 1, 0, 4, -1, 8 },
		{ 2, 0, 20, -1, 4 },
		{ 3, 0, 20, -1, 1 },
	};
	struct mesh_sim_opts o;
	struct mesh_sim_result *r;

	mesh_sim_opts_init(&o);
	o.sched = MESH_SCHED_FCFS;
	r = simulate("4x2", "rowmajor-freelist", js, 3, &o);
	/* J1 0-4 (bsld 1), J2 4-24 (wait 4: 24/20), J3 4-24 (24/20) */
	ck_assert_double_eq_tol(r->summary.mean_bounded_slowdown,
				(1.0 + 1.2 + 1.2) / 3, 1e-12);
	/* J1 holds the whole 4x2: |dx| sums to H^2 (W^3 - W) / 6 = 40 and
	 * |dy| to W^2 (H^3 - H) / 6 = 16, 56 over 28 pairs.  J2 holds one
	 * row: 10 over 6 pairs.  J3 has one node: 0. */
	uint32_t all[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	struct mesh_topo *t = tu_topo("4x2");
	uint64_t full = mesh_metrics_sum_pairwise(t, all, 8);
	uint32_t row[4] = { 0, 1, 2, 3 };
	uint64_t half = mesh_metrics_sum_pairwise(t, row, 4);

	ck_assert_uint_eq(full, 56);
	ck_assert_uint_eq(half, 10);
	ck_assert_double_eq_tol(r->summary.mean_sum_pairwise,
				(56.0 + 10 + 0) / 3, 1e-12);
	ck_assert_double_eq_tol(r->summary.mean_avg_pairwise_multi,
				(56.0 / 28 + 10.0 / 6) / 2, 1e-12);
	mesh_topo_destroy(t);
	mesh_sim_result_free(r);
}
END_TEST

START_TEST(test_sim_load_scales_interarrival)
{
	static const struct jobspec js[] = { { 1, 100, 5, -1, 1 },
					     { 2, 110, 5, -1, 1 } };
	struct mesh_sim_opts o;
	struct mesh_sim_result *r;

	mesh_sim_opts_init(&o);
	o.load = 0.5;
	r = simulate("4x2", "snake-ff", js, 2, &o);
	ck_assert(start_of(r, 1) == 100);
	ck_assert(start_of(r, 2) == 105);
	mesh_sim_result_free(r);
}
END_TEST

/* contig-ff on 4x2: a 7-node job has no 7-node box, so it can never be
 * placed.  Found unplaceable on the idle machine at t=0, it is dropped at
 * once (counted as refused) and does not block the FCFS queue: the 1-node
 * job arriving at 1 starts at 1, not when the trace runs out at 100. */
START_TEST(test_sim_unplaceable_head_dropped_at_once)
{
	static const struct jobspec js[] = {
		{ 1, 0, 10, -1, 7 },
		{ 2, 1, 5, -1, 1 },
		{ 3, 100, 5, -1, 1 },
	};
	struct mesh_sim_opts o;
	struct mesh_sim_result *r;

	mesh_sim_opts_init(&o);
	o.sched = MESH_SCHED_FCFS;
	r = simulate("4x2", "contig-ff", js, 3, &o);
	ck_assert_uint_eq(r->summary.refused, 1);
	ck_assert_uint_eq(r->summary.jobs, 2);
	ck_assert(start_of(r, 2) == 1);
	ck_assert(start_of(r, 3) == 100);
	mesh_sim_result_free(r);
}
END_TEST

/* Contention model, all-to-all for the whole runtime.  On 4x4, snake-ff
 * puts a 4-node job on one row: its middle link carries 2 x 2 = 4 pairs
 * where a 2x2 block (the reference, and mc1x1's choice) carries 2, so it
 * runs twice as long; with half the runtime in communication, 1.5 times
 * as long.  The trace model keeps 100. */
START_TEST(test_sim_contention_row_vs_block)
{
	static const struct jobspec js[] = { { 1, 0, 100, 100, 4 } };
	struct mesh_sim_opts o;
	struct mesh_sim_result *r;

	mesh_sim_opts_init(&o);
	r = simulate("4x4", "snake-ff", js, 1, &o);
	ck_assert_double_eq(r->jobs[0].run, 100);
	mesh_sim_result_free(r);
	o.runtime_model = MESH_RUNTIME_CONTENTION;
	o.comm = MESH_COMM_ALL_TO_ALL;
	o.comm_share = 1;
	r = simulate("4x4", "snake-ff", js, 1, &o);
	ck_assert_double_eq_tol(r->jobs[0].run, 200, 1e-9);
	ck_assert_double_eq(r->jobs[0].trace_run, 100);
	ck_assert_double_eq_tol(r->summary.mean_stretch, 2, 1e-12);
	mesh_sim_result_free(r);
	r = simulate("4x4", "mc1x1", js, 1, &o);
	ck_assert_double_eq_tol(r->jobs[0].run, 100, 1e-9);
	mesh_sim_result_free(r);
	o.comm_share = 0.5;
	r = simulate("4x4", "snake-ff", js, 1, &o);
	ck_assert_double_eq_tol(r->jobs[0].run, 150, 1e-9);
	mesh_sim_result_free(r);
}
END_TEST

/* Rates change at events.  On 4x2 with rowmajor-ff, job 1 takes (0,0),
 * (1,0) and job 2 (2,0), (3,0), (0,1); job 2's route (2,0) -> (0,1)
 * runs west along row 0 over job 1's link.  With both from t = 0, job 1
 * runs at stretch s > 1: end 100 s.  If job 2 comes at t = 50, job 1
 * has done half its work alone and ends at 50 + 50 s exactly. */
START_TEST(test_sim_contention_rate_changes_at_events)
{
	struct jobspec js[] = { { 1, 0, 100, 100, 2 },
				{ 2, 0, 1000, 1000, 3 } };
	struct mesh_sim_opts o;
	struct mesh_sim_result *r;
	double s;

	mesh_sim_opts_init(&o);
	o.runtime_model = MESH_RUNTIME_CONTENTION;
	o.comm = MESH_COMM_ALL_TO_ALL;
	o.comm_share = 1;
	r = simulate("4x2", "rowmajor-ff", js, 2, &o);
	s = job_of(r, 1)->run / 100;
	ck_assert_msg(s > 1, "job 1 stretch %g", s);
	mesh_sim_result_free(r);
	js[1].submit = 50;
	r = simulate("4x2", "rowmajor-ff", js, 2, &o);
	ck_assert_double_eq_tol(job_of(r, 1)->end, 50 + 50 * s, 1e-9);
	ck_assert_double_eq(job_of(r, 2)->start, 50);
	mesh_sim_result_free(r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sim");
	TCase *tc = tcase_create("schedule");

	tcase_add_test(tc, test_sim_easy_backfills_within_shadow_and_extra);
	tcase_add_test(tc, test_sim_fcfs_never_backfills);
	tcase_add_test(tc, test_sim_easy_protects_the_reservation);
	tcase_add_test(tc, test_sim_estimate_modes);
	tcase_add_test(tc, test_sim_completion_before_arrival);
	tcase_add_test(tc, test_sim_skips_and_zero_runtime);
	tcase_add_test(tc, test_sim_summary_metrics);
	tcase_add_test(tc, test_sim_load_scales_interarrival);
	tcase_add_test(tc, test_sim_unplaceable_head_dropped_at_once);
	tcase_add_test(tc, test_sim_contention_row_vs_block);
	tcase_add_test(tc, test_sim_contention_rate_changes_at_events);
	suite_add_tcase(s, tc);
	return tu_run(s);
}

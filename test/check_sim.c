/* check_sim.c - FCFS and EASY on hand-made traces whose schedules are
 * derived in the comments (the runtime models: check_sim_runtime.c). */
#include "testutil.h"

static double start_of(const struct mesh_sim_result *r, long id)
{
	return tu_job_of(r, id)->start;
}

/* 8 nodes.  J1 (6 nodes, 0-10) runs.  J2 (4) cannot start: shadow = 10
 * when J1 ends, extra = 8 - 4 = 4.  J3 (2 nodes, 5 s) ends at 7 <= 10:
 * backfilled at 2.  J4 (2 nodes, 20 s) arrives at 3 with nothing free;
 * at 7 (J3 done) it fits, runs past the shadow but 2 <= extra: starts at
 * 7.  At 10 J1 ends and J2 starts.
 * FCFS instead starts J2 at 10, then J3 and J4 at 10 behind it. */
static const struct tu_job easy_a[] = {
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
	r = tu_simulate("4x2", "rowmajor-freelist", easy_a, 4, &o);
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
	r = tu_simulate("4x2", "rowmajor-freelist", easy_a, 4, &o);
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
static const struct tu_job easy_b[] = {
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
	r = tu_simulate("4x2", "snake-bf", easy_b, 4, &o);
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
static const struct tu_job est[] = {
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
	r = tu_simulate("4x2", "rowmajor-ff", est, 4, &o);
	ck_assert(start_of(r, 3) == 1);
	ck_assert(start_of(r, 4) == 1);
	ck_assert(start_of(r, 2) == 51);
	mesh_sim_result_free(r);
	o.estimate = MESH_ESTIMATE_EXACT;
	r = tu_simulate("4x2", "rowmajor-ff", est, 4, &o);
	ck_assert(start_of(r, 3) == 1); /* ends at 9 <= shadow 10 */
	ck_assert(start_of(r, 2) == 10);
	ck_assert(start_of(r, 4) == 15);
	mesh_sim_result_free(r);
}
END_TEST

/* A job arriving exactly when another ends sees the freed nodes. */
START_TEST(test_sim_completion_before_arrival)
{
	static const struct tu_job js[] = { { 1, 0, 10, -1, 8 },
					     { 2, 10, 5, -1, 8 } };
	struct mesh_sim_opts o;
	struct mesh_sim_result *r;

	mesh_sim_opts_init(&o);
	r = tu_simulate("4x2", "hilbert-bf", js, 2, &o);
	ck_assert(start_of(r, 2) == 10);
	ck_assert_double_eq_tol(r->summary.makespan, 15, 1e-12);
	ck_assert_double_eq_tol(r->summary.utilization, 1.0, 1e-12);
	mesh_sim_result_free(r);
}
END_TEST

START_TEST(test_sim_skips_and_zero_runtime)
{
	static const struct tu_job js[] = {
		{ 1, 0, 10, -1, 2 }, { 2, 0, -1, -1, 2 }, { 3, 0, 0, -1, 2 },
		{ 4, 0, 5, -1, -1 }, { 5, 0, 5, -1, 9 },  { 6, 0, 5, -1, 0 },
		{ 7, -1, 5, -1, 1 },
	};
	struct mesh_sim_opts o;
	struct mesh_sim_result *r;

	mesh_sim_opts_init(&o);
	ck_assert_int_eq(o.keep_zero_runtime, 1); /* the default */
	o.keep_zero_runtime = 0;
	r = tu_simulate("4x2", "colsnake-ff", js, 7, &o);
	ck_assert_uint_eq(r->summary.jobs, 1);
	ck_assert_uint_eq(r->summary.skipped, 6);
	ck_assert_uint_eq(r->summary.skipped_submit, 1);
	ck_assert_uint_eq(r->summary.skipped_runtime, 2);
	ck_assert_uint_eq(r->summary.skipped_size, 2);
	ck_assert_uint_eq(r->summary.skipped_too_large, 1);
	mesh_sim_result_free(r);
	o.keep_zero_runtime = 1;
	r = tu_simulate("4x2", "colsnake-ff", js, 7, &o);
	ck_assert_uint_eq(r->summary.jobs, 2);
	ck_assert(start_of(r, 3) == 0);
	mesh_sim_result_free(r);
}
END_TEST

/* Bounded slowdown (tau 10) and the pairwise means. */
START_TEST(test_sim_summary_metrics)
{
	static const struct tu_job js[] = {
		{ 1, 0, 4, -1, 8 },
		{ 2, 0, 20, -1, 4 },
		{ 3, 0, 20, -1, 1 },
	};
	struct mesh_sim_opts o;
	struct mesh_sim_result *r;

	mesh_sim_opts_init(&o);
	o.sched = MESH_SCHED_FCFS;
	r = tu_simulate("4x2", "rowmajor-freelist", js, 3, &o);
	/* J1 0-4 (bsld 1), J2 4-24 (wait 4: 24/20), J3 4-24 (24/20) */
	ck_assert_double_eq_tol(r->summary.mean_bounded_slowdown,
				(1.0 + 1.2 + 1.2) / 3, 1e-12);
	/* J1 holds the whole 4x2: |dx| sums to H^2 (W^3 - W) / 6 = 40 and
	 * |dy| to W^2 (H^3 - H) / 6 = 16, 56 over 28 pairs.  J2 holds one
	 * row: 10 over 6 pairs.  J3 has one node: 0. */
	uint32_t all[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	struct mesh_topo *t = tu_topo("4x2");
	uint64_t full = tu_sum_pairwise(t, all, 8);
	uint32_t row[4] = { 0, 1, 2, 3 };
	uint64_t half = tu_sum_pairwise(t, row, 4);

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

/* Tails, nearest rank: 20 jobs of the whole 2x1 mesh, all submitted at 0,
 * 10 s each, run one after another: waits 0, 10, ... 190 and bounded
 * slowdowns 1 .. 20.  p50 is the 10th value, p95 the 19th, p99 the
 * 20th (19.8 rounded up), the maximum the 20th. */
START_TEST(test_sim_tails)
{
	static const double want_wait[MESH_SIM_N_TAILS] = { 90, 180, 190, 190 };
	static const double want_bsld[MESH_SIM_N_TAILS] = { 10, 19, 20, 20 };
	struct tu_job js[20];
	struct mesh_sim_opts o;
	struct mesh_sim_result *r;
	int i;

	for (i = 0; i < 20; i++)
		js[i] = (struct tu_job){ 20 - i, 0, 10, -1, 2 };
	mesh_sim_opts_init(&o);
	o.sched = MESH_SCHED_FCFS;
	r = tu_simulate("2x1", "rowmajor-freelist", js, 20, &o);
	ck_assert_uint_eq(r->summary.jobs, 20);
	for (i = 0; i < MESH_SIM_N_TAILS; i++) {
		ck_assert_double_eq(r->summary.wait_tail[i], want_wait[i]);
		ck_assert_double_eq(r->summary.bsld_tail[i], want_bsld[i]);
	}
	ck_assert_int_eq(mesh_sim_tails[3], 100);
	mesh_sim_result_free(r);
}
END_TEST

/* --cores-per-node: 5 processors on nodes of 4 cores take 2 nodes, so two
 * such jobs run side by side on 4 nodes; one processor per node, each is
 * larger than the mesh. */
START_TEST(test_sim_cores_per_node)
{
	static const struct tu_job js[] = {
		{ 1, 0, 10, -1, 5 },
		{ 2, 0, 10, -1, 5 },
	};
	struct mesh_sim_opts o;
	struct mesh_sim_result *r;

	mesh_sim_opts_init(&o);
	ck_assert_uint_eq(o.cores_per_node, 1);
	o.cores_per_node = 4;
	r = tu_simulate("4x1", "rowmajor-freelist", js, 2, &o);
	ck_assert_uint_eq(r->summary.jobs, 2);
	ck_assert_uint_eq(tu_job_of(r, 1)->size, 2);
	ck_assert_double_eq(start_of(r, 1), 0);
	ck_assert_double_eq(start_of(r, 2), 0);
	mesh_sim_result_free(r);
	o.cores_per_node = 1;
	r = tu_simulate("4x1", "rowmajor-freelist", js, 2, &o);
	ck_assert_uint_eq(r->summary.jobs, 0);
	ck_assert_uint_eq(r->summary.skipped_too_large, 2);
	mesh_sim_result_free(r);
}
END_TEST

START_TEST(test_sim_load_scales_interarrival)
{
	static const struct tu_job js[] = { { 1, 100, 5, -1, 1 },
					     { 2, 110, 5, -1, 1 } };
	struct mesh_sim_opts o;
	struct mesh_sim_result *r;

	mesh_sim_opts_init(&o);
	o.load = 0.5;
	r = tu_simulate("4x2", "snake-ff", js, 2, &o);
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
	static const struct tu_job js[] = {
		{ 1, 0, 10, -1, 7 },
		{ 2, 1, 5, -1, 1 },
		{ 3, 100, 5, -1, 1 },
	};
	struct mesh_sim_opts o;
	struct mesh_sim_result *r;

	mesh_sim_opts_init(&o);
	o.sched = MESH_SCHED_FCFS;
	r = tu_simulate("4x2", "contig-ff", js, 3, &o);
	ck_assert_uint_eq(r->summary.refused, 1);
	ck_assert_uint_eq(r->summary.jobs, 2);
	ck_assert(start_of(r, 2) == 1);
	ck_assert(start_of(r, 3) == 100);
	mesh_sim_result_free(r);
}
END_TEST

/* Tang's loss of capacity, eq. (1).  4x1, contig-ff: A (0-100) on node
 * 0, B (0-10) on 1, C (0-100) on 2; D (2 nodes, 50 s) arrives at 5.  At
 * 10 B ends: nodes 1 and 3 are idle but not adjacent, and D fits their
 * count, so 2 nodes are lost until 100, when D starts; it ends at 150.
 * Events 0, 5, 10, 100, 150: LoC = 2 * 90 / (4 * 150) = 0.3. */
START_TEST(test_sim_loss_of_capacity)
{
	static const struct tu_job js[] = { { 1, 0, 100, 100, 1 },
					     { 2, 0, 10, 10, 1 },
					     { 3, 0, 100, 100, 1 },
					     { 4, 5, 50, 50, 2 } };
	struct mesh_sim_opts o;
	struct mesh_sim_result *r;

	mesh_sim_opts_init(&o);
	r = tu_simulate("4x1", "contig-ff", js, 4, &o);
	ck_assert_double_eq(start_of(r, 4), 100);
	ck_assert_double_eq_tol(r->summary.loss_of_capacity, 0.3, 1e-12);
	mesh_sim_result_free(r);
	/* Any placement of 2 of 4 nodes: D starts at 10, nothing is lost. */
	r = tu_simulate("4x1", "rowmajor-ff", js, 4, &o);
	ck_assert_double_eq(start_of(r, 4), 10);
	ck_assert_double_eq(r->summary.loss_of_capacity, 0);
	mesh_sim_result_free(r);
}
END_TEST

/* WFP (Tang Sec. V.B): at t = 100, when job 1 frees all 8 nodes, the keys
 * (wait/requested)^3 * nodes are 9.9^3 * 2 for J2, 0.098^3 * 2 for J3
 * and 0.97^3 * 6 for J4: J2 and J4 start (8 nodes), J3 waits for J2.
 * FCFS order starts J2 and J3, and J4 waits for J2. */
START_TEST(test_sim_wfp_order)
{
	static const struct tu_job js[] = { { 1, 0, 100, 100, 8 },
					     { 2, 1, 10, 10, 2 },
					     { 3, 2, 1000, 1000, 2 },
					     { 4, 3, 100, 100, 6 } };
	struct mesh_sim_opts o;
	struct mesh_sim_result *r;

	mesh_sim_opts_init(&o);
	o.sched = MESH_SCHED_FCFS;
	o.priority = MESH_PRIO_WFP;
	r = tu_simulate("4x2", "snake-ff", js, 4, &o);
	ck_assert_double_eq(start_of(r, 2), 100);
	ck_assert_double_eq(start_of(r, 4), 100);
	ck_assert_double_eq(start_of(r, 3), 110);
	mesh_sim_result_free(r);
	o.priority = MESH_PRIO_FCFS;
	r = tu_simulate("4x2", "snake-ff", js, 4, &o);
	ck_assert_double_eq(start_of(r, 3), 100);
	ck_assert_double_eq(start_of(r, 4), 110);
	mesh_sim_result_free(r);
}
END_TEST

/* I/O shares by job id for the Özden tests: ids 1, 2 are I/O-bound. */
static void io_by_id(void *arg, long id, struct mesh_sim_job_info *info)
{
	(void) arg;
	info->io_share = id == 1 || id == 2 ? 1.0 : 0.0;
}

/* Özden's weighted priority.  2 nodes: J0 (I/O 0) runs 0-50, J1 (I/O 1)
 * 0-100; J2 (I/O 1) and J3 (I/O 0) queue.  At 50: W = (1 + 1 + 0)/3;
 * starting J2 makes the system's mean 1 (delta 1/3), J3 makes it 1/2
 * (delta 1/6), so normalised deltas are 1 and 0 and lambdas 0 and 1.
 * wp(J2) = alpha, wp(J3) = 1 - alpha: J3 first iff alpha > 1/2 (a tie
 * at 1/2 goes to submit order). */
START_TEST(test_sim_ozden_alpha)
{
	static const struct tu_job js[] = { { 0, 0, 50, 50, 1 },
					     { 1, 0, 100, 100, 1 },
					     { 2, 10, 10, 10, 1 },
					     { 3, 20, 10, 10, 1 } };
	static const double alphas[] = { 0, 0.5, 0.6, 1 };
	static const double j3_start[] = { 60, 60, 50, 50 };
	struct mesh_sim_opts o;
	struct mesh_sim_result *r;
	int i;

	mesh_sim_opts_init(&o);
	o.priority = MESH_PRIO_OZDEN;
	o.job_info = io_by_id;
	for (i = 0; i < 4; i++) {
		o.alpha = alphas[i];
		r = tu_simulate("2x1", "rowmajor-ff", js, 4, &o);
		ck_assert_msg(start_of(r, 3) == j3_start[i],
			      "alpha %g: J3 starts at %g", alphas[i],
			      start_of(r, 3));
		mesh_sim_result_free(r);
	}
}
END_TEST

/* alpha = 0 is exactly FCFS: same starts and nodes on a random trace. */
START_TEST(test_sim_ozden_alpha0_is_fcfs)
{
	struct tu_job js[200];
	struct mesh_sim_opts o;
	struct mesh_sim_result *a, *b;
	uint64_t seed = 5;
	size_t i;
	int sched;

	for (i = 0; i < 200; i++) {
		js[i].id = (long) i;
		js[i].submit = (double) (i * 7 + tu_rand(&seed) % 5);
		js[i].run = 1 + (double) (tu_rand(&seed) % 300);
		js[i].req_time =
		    js[i].run * (1 + (double) (tu_rand(&seed) % 3));
		js[i].size = 1 + (long) (tu_rand(&seed) % 12);
	}
	for (sched = MESH_SCHED_FCFS; sched <= MESH_SCHED_EASY; sched++) {
		mesh_sim_opts_init(&o);
		o.sched = (enum mesh_sched) sched;
		a = tu_simulate("4x4", "hilbert-bf", js, 200, &o);
		o.priority = MESH_PRIO_OZDEN;
		o.alpha = 0;
		o.job_info = io_by_id;
		b = tu_simulate("4x4", "hilbert-bf", js, 200, &o);
		ck_assert_uint_eq(a->n, b->n);
		for (i = 0; i < a->n; i++) {
			ck_assert_int_eq(a->jobs[i].id, b->jobs[i].id);
			ck_assert_double_eq(a->jobs[i].start, b->jobs[i].start);
		}
		ck_assert_mem_eq(a->nodes, b->nodes,
				 a->jobs[a->n - 1].node_off * sizeof(uint32_t));
		mesh_sim_result_free(a);
		mesh_sim_result_free(b);
	}
}
END_TEST

/* Size classes: 1, 2, 3-4, 5-8, ... with per-class means. */
START_TEST(test_sim_size_classes)
{
	static const struct tu_job js[] = { { 1, 0, 10, 10, 1 },
					     { 2, 0, 10, 10, 3 },
					     { 3, 0, 10, 10, 4 },
					     { 4, 0, 10, 10, 8 } };
	struct mesh_sim_opts o;
	struct mesh_sim_result *r;

	mesh_sim_opts_init(&o);
	o.sched = MESH_SCHED_FCFS;
	r = tu_simulate("4x2", "snake-ff", js, 4, &o);
	/* J1..J3 start at 0 (8 nodes); J4 waits 10 s. */
	ck_assert_uint_eq(r->summary.n_size_classes, 3);
	ck_assert_uint_eq(r->summary.by_size[0].min, 1);
	ck_assert_uint_eq(r->summary.by_size[0].max, 1);
	ck_assert_uint_eq(r->summary.by_size[1].min, 3);
	ck_assert_uint_eq(r->summary.by_size[1].max, 4);
	ck_assert_uint_eq(r->summary.by_size[1].jobs, 2);
	ck_assert_uint_eq(r->summary.by_size[2].min, 5);
	ck_assert_uint_eq(r->summary.by_size[2].max, 8);
	ck_assert_double_eq(r->summary.by_size[2].mean_wait, 10);
	ck_assert_double_eq(r->summary.by_size[2].mean_bounded_slowdown, 2);
	ck_assert_double_eq(r->summary.by_size[1].mean_wait, 0);
	mesh_sim_result_free(r);
}
END_TEST

/* Tang's paired job filling (FCFS).  4x2: J1 (2 nodes) starts at 0
 * next to idle nodes; J2 (8 nodes) blocks the queue; J3 has J1's size and
 * estimate, so PF starts it with J1.  Without PF, J3 waits behind J2:
 * J2 runs 100-110 and J3 starts at 110. */
START_TEST(test_sim_paired_filling)
{
	static const struct tu_job js[] = { { 1, 0, 100, 100, 2 },
					     { 2, 0, 10, 10, 8 },
					     { 3, 0, 100, 100, 2 } };
	struct mesh_sim_opts o;
	struct mesh_sim_result *r;

	mesh_sim_opts_init(&o);
	o.sched = MESH_SCHED_FCFS;
	r = tu_simulate("4x2", "snake-ff", js, 3, &o);
	ck_assert_double_eq(start_of(r, 3), 110);
	mesh_sim_result_free(r);
	o.paired_filling = 1;
	r = tu_simulate("4x2", "snake-ff", js, 3, &o);
	ck_assert_double_eq(start_of(r, 3), 0);
	ck_assert_double_eq(start_of(r, 2), 100);
	mesh_sim_result_free(r);
	o.pf_max_size = 1; /* J1 is larger: no pairing */
	r = tu_simulate("4x2", "snake-ff", js, 3, &o);
	ck_assert_double_eq(start_of(r, 3), 110);
	mesh_sim_result_free(r);
}
END_TEST

/* Combo (Tang et al.): SL and PF together, FCFS on a 12x1 line with
 * contig-ff, estimates = runtimes.  At 0, A (2 nodes, 300 s), B (4, 20 s)
 * and C (1 node, 1000 s) take 0-1, 2-5 and 6 (no queued job has the size
 * of one that starts, so PF pairs none; SL has nothing to compare on the
 * empty mesh and then picks what ff picks: B beside A, C beside B).  B
 * ends at 20: free are 2-5 and 7-11.  At 25, J1 (2 nodes, ends 1000), J2
 * (12 nodes, blocks the queue until everything has ended) and J3 (J1's
 * size and estimate) arrive.
 *  - Base: J1 at ff's 2-3; J3 waits for J2 (1000-1010): starts 1010.
 *  - SL: J1's free pairs with a busy neighbour are 2-3 (A, |300 - 1000|
 *    = 700), 4-5 and 7-8 (C, 0): 4-5, the earlier of the ties.  J3 still
 *    starts at 1010.
 *  - PF: J1 at 2-3 has an idle neighbour (4), so J3 starts with it at
 *    25, by ff at 4-5.
 *  - Combo: J1 at 4-5 (SL); PF starts J3 at 25, and SL puts it at 7-8
 *    (beside C: 0) rather than 2-3 (A 700 and J1 0: mean 350). */
static void nodes_of(const struct mesh_sim_result *r, long id, uint32_t *lo,
		     uint32_t *hi)
{
	const struct mesh_sim_job *j = tu_job_of(r, id);
	const uint32_t *n = r->nodes + j->node_off;
	uint32_t i;

	*lo = UINT32_MAX;
	*hi = 0;
	for (i = 0; i < j->size; i++) {
		*lo = n[i] < *lo ? n[i] : *lo;
		*hi = n[i] > *hi ? n[i] : *hi;
	}
}

START_TEST(test_sim_combo_sl_and_pf)
{
	static const struct tu_job js[] = {
		{ 10, 0, 300, 300, 2 },   { 11, 0, 20, 20, 4 },
		{ 12, 0, 1000, 1000, 1 }, { 1, 25, 975, 975, 2 },
		{ 2, 25, 10, 10, 12 },    { 3, 25, 975, 975, 2 },
	};
	/* J1's and J3's lowest nodes and J3's start, for base, SL, PF and
	 * Combo. */
	static const struct {
		const char *alloc;
		int pf;
		uint32_t j1, j3;
		double j3_start;
	} want[] = { { "contig-ff", 0, 2, 2, 1010 },
		     { "sl:contig-ff", 0, 4, 2, 1010 },
		     { "contig-ff", 1, 2, 4, 25 },
		     { "sl:contig-ff", 1, 4, 7, 25 } };
	struct mesh_sim_opts o;
	struct mesh_sim_result *r;
	uint32_t lo, hi;
	size_t k;

	for (k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		mesh_sim_opts_init(&o);
		o.sched = MESH_SCHED_FCFS;
		o.paired_filling = want[k].pf;
		r = tu_simulate("12x1", want[k].alloc, js, 6, &o);
		ck_assert_int_eq(r->n, 6);
		nodes_of(r, 10, &lo, &hi);
		ck_assert_uint_eq(lo, 0);
		nodes_of(r, 12, &lo, &hi);
		ck_assert_uint_eq(lo, 6);
		nodes_of(r, 1, &lo, &hi);
		ck_assert_msg(lo == want[k].j1 && hi == lo + 1,
			      "case %zu: J1 at %u-%u", k, lo, hi);
		ck_assert_double_eq(start_of(r, 1), 25);
		ck_assert_double_eq(start_of(r, 3), want[k].j3_start);
		if (want[k].j3_start == 25) {
			nodes_of(r, 3, &lo, &hi);
			ck_assert_msg(lo == want[k].j3 && hi == lo + 1,
				      "case %zu: J3 at %u-%u", k, lo, hi);
			ck_assert_double_eq(start_of(r, 2), 1000);
		}
		mesh_sim_result_free(r);
	}
}
END_TEST

/* Spatial estimates.  User 7's job 1 (2 nodes) asked for 100 s and ran
 * 50; job 2 (same user and size) asks for 100 after job 1 ended:
 * AdjEst gives it 100 * 50/100 = 50, ActRun its actual 80, and the
 * user estimate stays 100.  Job 3 (another size) has no history. */
START_TEST(test_sim_spatial_estimates)
{
	struct tu_job js[] = { { 1, 0, 50, 100, 2 },
				{ 2, 60, 80, 100, 2 },
				{ 3, 60, 30, 100, 4 } };
	static const double want2[] = { 100, 50, 80 },
			    want3[] = { 100, 100, 30 };
	struct mesh_swf_trace *tr = tu_trace(js, 3);
	struct mesh_topo *t = tu_topo("4x4");
	struct mesh_allocator *a = NULL;
	struct mesh_sim_result *r = NULL;
	struct mesh_sim_opts o;
	struct mesh_diag d;
	int mode;
	size_t i;

	for (i = 0; i < 3; i++)
		tr->jobs[i].user = 7;
	ck_assert_int_eq(mesh_alloc_create(t, "sl:snake-ff", NULL, &a, &d), 0);
	for (mode = MESH_SPATIAL_USER; mode <= MESH_SPATIAL_ACTUAL; mode++) {
		mesh_sim_opts_init(&o);
		o.spatial_estimate = (enum mesh_spatial_estimate) mode;
		ck_assert_int_eq(mesh_sim_run(t, a, tr, &o, &r, &d), 0);
		ck_assert_double_eq(tu_job_of(r, 2)->spatial_estimate,
				    want2[mode]);
		ck_assert_double_eq(tu_job_of(r, 3)->spatial_estimate,
				    want3[mode]);
		ck_assert_double_eq(tu_job_of(r, 2)->estimate, 100);
		mesh_sim_result_free(r);
	}
	mesh_alloc_destroy(a);
	mesh_swf_free(tr);
	mesh_topo_destroy(t);
}
END_TEST

/* Positions outside opts.usable (holes in mesh.conf, I/O nodes) are
 * never given out; a job larger than the usable count is skipped as too
 * large; utilization counts usable nodes only.  4x1, node 2 unusable:
 * J1 (3 nodes, 10 s) gets 0, 1, 3; J2 (4 nodes) is too large. */
START_TEST(test_sim_usable_positions)
{
	static const struct tu_job js[] = { { 1, 0, 10, 10, 3 },
					     { 2, 0, 10, 10, 4 } };
	struct mesh_bitmap *u = NULL;
	struct mesh_sim_opts o;
	struct mesh_sim_result *r;

	ck_assert_int_eq(mesh_bitmap_create(4, &u), 0);
	mesh_bitmap_fill(u, true);
	mesh_bitmap_clear(u, 2);
	mesh_sim_opts_init(&o);
	o.usable = u;
	r = tu_simulate("4x1", "rowmajor-ff", js, 2, &o);
	ck_assert_uint_eq(r->n, 1);
	ck_assert_uint_eq(r->summary.skipped_too_large, 1);
	ck_assert(r->nodes[0] == 0 && r->nodes[1] == 1 && r->nodes[2] == 3);
	ck_assert_double_eq(r->summary.utilization, 1.0);
	mesh_sim_result_free(r);
	mesh_bitmap_destroy(u);
}
END_TEST

/* The requested shape reaches the allocator: on 8x8, mc gives an
 * 8-node job asking for 8x1 a full row (or column), and one asking for
 * 4x2 a 4x2 block (either orientation). */
static int want_shape[2];

static void shape_hint(void *arg, long id, struct mesh_sim_job_info *info)
{
	(void) arg;
	(void) id;
	info->shape[0] = want_shape[0];
	info->shape[1] = want_shape[1];
}

static void extents(const struct mesh_sim_result *r, int ext[2])
{
	struct mesh_topo *t = tu_topo("8x8");
	int lo[2] = { 9, 9 }, hi[2] = { -1, -1 }, c[3], i, d;

	for (i = 0; i < 8; i++) {
		mesh_topo_coords(t, r->nodes[i], c);
		for (d = 0; d < 2; d++) {
			lo[d] = c[d] < lo[d] ? c[d] : lo[d];
			hi[d] = c[d] > hi[d] ? c[d] : hi[d];
		}
	}
	ext[0] = hi[0] - lo[0] + 1;
	ext[1] = hi[1] - lo[1] + 1;
	mesh_topo_destroy(t);
}

START_TEST(test_sim_shape_reaches_allocator)
{
	static const struct tu_job js[] = { { 1, 0, 10, 10, 8 } };
	struct mesh_sim_opts o;
	struct mesh_sim_result *r;
	int e[2];

	mesh_sim_opts_init(&o);
	o.job_info = shape_hint;
	want_shape[0] = 8;
	want_shape[1] = 1;
	r = tu_simulate("8x8", "mc", js, 1, &o);
	extents(r, e);
	ck_assert_msg(e[0] * e[1] == 8 && (e[0] == 8 || e[1] == 8),
		      "8x1 asked, got %dx%d", e[0], e[1]);
	mesh_sim_result_free(r);
	want_shape[0] = 4;
	want_shape[1] = 2;
	r = tu_simulate("8x8", "mc", js, 1, &o);
	extents(r, e);
	ck_assert_msg(e[0] * e[1] == 8 && (e[0] == 4 || e[1] == 4),
		      "4x2 asked, got %dx%d", e[0], e[1]);
	mesh_sim_result_free(r);
}
END_TEST

/* Conservative vs EASY (8 nodes, rowmajor-ff).  J1 (6 nodes) runs 0-100;
 * J2 (4) waits for it; J3 needs all 8; J4 (2 nodes, 250 s) fits now.
 * EASY protects only the head J2 (shadow 100, extra 4): J4 starts at 3
 * and J3 waits until J4 ends at 253.  Conservative gives J3 a
 * reservation at 200, which J4 would overlap, so J4 waits for J3: 300. */
START_TEST(test_sim_conservative_protects_every_reservation)
{
	static const struct tu_job js[] = { { 1, 0, 100, 100, 6 },
					     { 2, 1, 100, 100, 4 },
					     { 3, 2, 100, 100, 8 },
					     { 4, 3, 250, 250, 2 } };
	struct mesh_sim_opts o;
	struct mesh_sim_result *r;

	mesh_sim_opts_init(&o);
	r = tu_simulate("4x2", "rowmajor-ff", js, 4, &o);
	ck_assert_double_eq(start_of(r, 2), 100);
	ck_assert_double_eq(start_of(r, 4), 3);
	ck_assert_double_eq(start_of(r, 3), 253);
	mesh_sim_result_free(r);
	o.sched = MESH_SCHED_CONSERVATIVE;
	r = tu_simulate("4x2", "rowmajor-ff", js, 4, &o);
	ck_assert_double_eq(start_of(r, 2), 100);
	ck_assert_double_eq(start_of(r, 3), 200);
	ck_assert_double_eq(start_of(r, 4), 300);
	mesh_sim_result_free(r);
}
END_TEST

/* Placement-aware reservations (4x1, contig-ff).  J1 (node 0) and J3
 * (node 2) run to 100, J2 (node 1) to 20; J5 takes node 3 at 6.  At 20
 * nodes 1 is free but J4 needs two adjacent nodes: the allocator can
 * place it only at 100 (0-1), and that is its reservation; a node count
 * would have said 20.  So J6 (1 node, 50 s) fits on node 1 at 20 without
 * touching J4's reservation. */
START_TEST(test_sim_conservative_is_placement_aware)
{
	static const struct tu_job js[] = {
		{ 1, 0, 100, 100, 1 }, { 2, 0, 20, 20, 1 },
		{ 3, 0, 100, 100, 1 }, { 4, 5, 10, 10, 2 },
		{ 5, 6, 200, 200, 1 }, { 6, 7, 50, 50, 1 }
	};
	struct mesh_sim_opts o;
	struct mesh_sim_result *r;

	mesh_sim_opts_init(&o);
	o.sched = MESH_SCHED_CONSERVATIVE;
	r = tu_simulate("4x1", "contig-ff", js, 6, &o);
	ck_assert_double_eq(start_of(r, 5), 6);
	ck_assert_double_eq(start_of(r, 6), 20);
	ck_assert_double_eq(start_of(r, 4), 100);
	ck_assert_uint_eq(r->summary.refused, 0);
	mesh_sim_result_free(r);
}
END_TEST

/* --limit-quantum: estimates rounded up to whole quanta, as Slurm's
 * minute-granular limits do in a replay at speed-up S (60 S s). */
START_TEST(test_sim_limit_quantum)
{
	static const struct tu_job js[] = { { 1, 0, 10, 30, 1 },
					     { 2, 0, 150, 150, 1 } };
	struct mesh_sim_opts o;
	struct mesh_sim_result *r;

	mesh_sim_opts_init(&o);
	o.limit_quantum = 100;
	r = tu_simulate("4x1", "rowmajor-ff", js, 2, &o);
	ck_assert_double_eq(tu_job_of(r, 1)->estimate, 100);
	ck_assert_double_eq(tu_job_of(r, 2)->estimate, 200);
	mesh_sim_result_free(r);
}
END_TEST

/* Without keep_nodes the run holds only the running jobs' nodes (their
 * lists moved again and again: 400 jobs of up to 12 nodes on 30), and
 * every start, end and metric is what it is with every list kept, under
 * EASY, paired filling, conservative backfilling and contention. */
static const struct {
	const char *alloc;
	enum mesh_sched sched;
	int paired;
	enum mesh_runtime_model model;
} keep_cases[] = {
	{ "mc1x1", MESH_SCHED_EASY, 0, MESH_RUNTIME_TRACE },
	{ "hilbert-bf", MESH_SCHED_EASY, 1, MESH_RUNTIME_TRACE },
	{ "snake-ff", MESH_SCHED_CONSERVATIVE, 0, MESH_RUNTIME_TRACE },
	{ "rowmajor-ff", MESH_SCHED_EASY, 0, MESH_RUNTIME_CONTENTION },
};

START_TEST(test_sim_keep_nodes_off)
{
	struct tu_job js[400];
	struct mesh_sim_result *r[2];
	struct mesh_sim_opts o;
	uint64_t seed = 11, nodes = 0;
	size_t i;

	for (i = 0; i < 400; i++) {
		js[i].id = (long) i + 1;
		js[i].submit = (double) (i * 7 + tu_rand(&seed) % 5);
		js[i].run = (double) (1 + tu_rand(&seed) % 60);
		js[i].req_time = js[i].run + (double) (tu_rand(&seed) % 30);
		js[i].size = 1 + (long) (tu_rand(&seed) % 12);
		nodes += (uint64_t) js[i].size;
	}
	ck_assert_uint_gt(nodes, 40 * 30);
	mesh_sim_opts_init(&o);
	ck_assert_int_eq(o.keep_nodes, 1);
	o.sched = keep_cases[_i].sched;
	o.paired_filling = keep_cases[_i].paired;
	o.runtime_model = keep_cases[_i].model;
	o.comm = MESH_COMM_ALL_TO_ALL;
	o.comm_share = 0.3;
	r[0] = tu_simulate("6x5", keep_cases[_i].alloc, js, 400, &o);
	o.keep_nodes = 0;
	r[1] = tu_simulate("6x5", keep_cases[_i].alloc, js, 400, &o);
	ck_assert_ptr_nonnull(r[0]->nodes);
	ck_assert_ptr_null(r[1]->nodes);
	ck_assert_uint_eq(r[0]->n, 400);
	ck_assert_uint_eq(r[1]->n, 400);
	for (i = 0; i < 400; i++) {
		const struct mesh_sim_job *a = &r[0]->jobs[i],
					  *b = &r[1]->jobs[i];

		ck_assert_int_eq(a->id, b->id);
		ck_assert(a->start == b->start && a->end == b->end &&
			  a->run == b->run && a->io_time == b->io_time);
		ck_assert_uint_eq(a->sum_pairwise, b->sum_pairwise);
		ck_assert_int_eq(a->diameter, b->diameter);
	}
	ck_assert(r[0]->summary.mean_wait == r[1]->summary.mean_wait);
	ck_assert(r[0]->summary.mean_sum_pairwise ==
		  r[1]->summary.mean_sum_pairwise);
	mesh_sim_result_free(r[0]);
	mesh_sim_result_free(r[1]);
}
END_TEST

/* A job that needs every free node takes them without the allocator
 * when nothing reads their order (keep_nodes off, ranks by index), and
 * nothing else changes: every start, end and metric is what the
 * allocator's answer gives.  Allocators that may refuse with k free
 * (the contiguous ones) are always asked, as is every allocator when the
 * lists are kept or ranks follow the allocator's order.  Half the jobs
 * need the whole 6x5 mesh, so many starts are forced. */
static const struct {
	const char *alloc;
	int forced; /* the allocator places whenever k are free */
} forced_cases[] = {
	{ "mc1x1", 1 },
	{ "hilbert-bf", 1 },
	{ "random", 1 },
	{ "sl:mc1x1", 1 },
	{ "paging", 1 },
	{ "genalg", 1 },
	{ "mbs", 1 },
	{ "contig-ff", 0 },
	{ "contig-bf", 0 },
};

START_TEST(test_sim_forced_starts)
{
	struct tu_job js[300];
	struct mesh_sim_result *r[3];
	struct mesh_sim_opts o;
	uint64_t seed = 5;
	size_t i;

	for (i = 0; i < 300; i++) {
		js[i].id = (long) i + 1;
		js[i].submit = (double) (i * 5 + tu_rand(&seed) % 5);
		js[i].run = (double) (1 + tu_rand(&seed) % 40);
		js[i].req_time = js[i].run + (double) (tu_rand(&seed) % 20);
		js[i].size = tu_rand(&seed) % 2 ? 30
						 : 1 + (long) (tu_rand(&seed) % 16);
	}
	mesh_sim_opts_init(&o);
	r[0] = tu_simulate("6x5", forced_cases[_i].alloc, js, 300, &o);
	o.keep_nodes = 0;
	r[1] = tu_simulate("6x5", forced_cases[_i].alloc, js, 300, &o);
	o.rank_order = MESH_RANKS_ALLOCATOR;
	r[2] = tu_simulate("6x5", forced_cases[_i].alloc, js, 300, &o);
	ck_assert_uint_eq(r[0]->forced_starts, 0);
	ck_assert_uint_eq(r[2]->forced_starts, 0);
	if (forced_cases[_i].forced)
		ck_assert_uint_ge(r[1]->forced_starts, 50);
	else
		ck_assert_uint_eq(r[1]->forced_starts, 0);
	ck_assert_uint_eq(r[0]->n, r[1]->n);
	ck_assert_uint_eq(r[0]->n, r[2]->n);
	ck_assert_uint_gt(r[0]->n, 250);
	for (i = 0; i < r[0]->n; i++) {
		const struct mesh_sim_job *a = &r[0]->jobs[i],
					  *b = &r[1]->jobs[i],
					  *c = &r[2]->jobs[i];

		ck_assert_int_eq(a->id, b->id);
		ck_assert_int_eq(a->id, c->id);
		ck_assert(a->start == b->start && a->end == b->end);
		ck_assert(a->start == c->start && a->end == c->end);
		ck_assert_uint_eq(a->sum_pairwise, b->sum_pairwise);
		ck_assert_int_eq(a->diameter, b->diameter);
	}
	ck_assert(r[0]->summary.mean_wait == r[1]->summary.mean_wait);
	ck_assert(r[0]->summary.mean_sum_pairwise ==
		  r[1]->summary.mean_sum_pairwise);
	for (i = 0; i < 3; i++)
		mesh_sim_result_free(r[i]);
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
	tcase_add_test(tc, test_sim_tails);
	tcase_add_test(tc, test_sim_cores_per_node);
	tcase_add_test(tc, test_sim_load_scales_interarrival);
	tcase_add_test(tc, test_sim_unplaceable_head_dropped_at_once);
	tcase_add_test(tc, test_sim_loss_of_capacity);
	tcase_add_test(tc, test_sim_wfp_order);
	tcase_add_test(tc, test_sim_ozden_alpha);
	tcase_add_test(tc, test_sim_ozden_alpha0_is_fcfs);
	tcase_add_test(tc, test_sim_size_classes);
	tcase_add_test(tc, test_sim_paired_filling);
	tcase_add_test(tc, test_sim_combo_sl_and_pf);
	tcase_add_test(tc, test_sim_spatial_estimates);
	tcase_add_test(tc, test_sim_usable_positions);
	tcase_add_test(tc, test_sim_shape_reaches_allocator);
	tcase_add_test(tc, test_sim_conservative_protects_every_reservation);
	tcase_add_test(tc, test_sim_conservative_is_placement_aware);
	tcase_add_test(tc, test_sim_limit_quantum);
	tcase_add_loop_test(tc, test_sim_keep_nodes_off, 0,
			    sizeof(keep_cases) / sizeof(keep_cases[0]));
	tcase_add_loop_test(tc, test_sim_forced_starts, 0,
			    sizeof(forced_cases) / sizeof(forced_cases[0]));
	suite_add_tcase(s, tc);
	return tu_run(s);
}

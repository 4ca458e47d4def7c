/* check_sim_runtime.c - meshsim's runtime models on hand-made traces
 * whose run times are derived in the comments: the contention model
 * (rows against blocks, rank order, rates that change at events) and the
 * parallel file system, fluid and in phased bursts. */
#include "testutil.h"

/* Contention model, the defaults (links and nodes at 12.5 GB/s).  On
 * 4x4, snake-ff puts a 4-node job on one row.  All-to-all for the whole
 * runtime: the row's middle link carries 2 x 2 = 4 flows, a 2x2 block
 * (mc1x1's choice, the best) at most 2, and every node injects 3: the
 * block runs at x = 12.5 / 3, the row at 12.5 / 4, so the row takes 4/3
 * as long: 133.3 s; with half the runtime in communication, 100 (0.5 +
 * 0.5 x 4/3) = 116.7 s.  The nearest-neighbour stencil (a 2x2 logical
 * grid) runs at 100 s on the block and on the row alike: the row's
 * middle link carries 2 flows, as many as each node injects.  The trace
 * model keeps 100. */
START_TEST(test_sim_contention_row_vs_block)
{
	static const struct tu_job js[] = { { 1, 0, 100, 100, 4 } };
	struct mesh_sim_opts o;
	struct mesh_sim_result *r;

	mesh_sim_opts_init(&o);
	r = tu_simulate("4x4", "snake-ff", js, 1, &o);
	ck_assert_double_eq(r->jobs[0].run, 100);
	mesh_sim_result_free(r);
	o.runtime_model = MESH_RUNTIME_CONTENTION;
	o.comm = MESH_COMM_ALL_TO_ALL;
	o.comm_share = 1;
	r = tu_simulate("4x4", "snake-ff", js, 1, &o);
	ck_assert_double_eq_tol(r->jobs[0].run, 400.0 / 3, 1e-9);
	ck_assert_double_eq(r->jobs[0].trace_run, 100);
	ck_assert_double_eq_tol(r->summary.mean_stretch, 4.0 / 3, 1e-12);
	ck_assert_double_eq_tol(r->summary.mean_service_time, 400.0 / 3,
				1e-9);
	/* bounded slowdown on the trace runtime: 133.3 / 100 */
	ck_assert_double_eq_tol(r->summary.mean_bounded_slowdown, 4.0 / 3,
				1e-12);
	/* useful work is the trace's: 4 x 100 over 16 x 133.3 */
	ck_assert_double_eq_tol(r->summary.utilization, 0.1875, 1e-12);
	ck_assert_double_eq_tol(r->summary.occupied_utilization, 0.25, 1e-12);
	mesh_sim_result_free(r);
	r = tu_simulate("4x4", "mc1x1", js, 1, &o);
	ck_assert_double_eq_tol(r->jobs[0].run, 100, 1e-9);
	mesh_sim_result_free(r);
	o.comm_share = 0.5;
	r = tu_simulate("4x4", "snake-ff", js, 1, &o);
	ck_assert_double_eq_tol(r->jobs[0].run, 100 * (0.5 + 0.5 * 4.0 / 3),
				1e-9);
	mesh_sim_result_free(r);
	o.comm = MESH_COMM_NEAREST;
	o.comm_share = 1;
	r = tu_simulate("8x8", "mc1x1", js, 1, &o);
	ck_assert_double_eq_tol(r->jobs[0].run, 100, 1e-9);
	mesh_sim_result_free(r);
	r = tu_simulate("8x8", "snake-ff", js, 1, &o);
	ck_assert_double_eq_tol(r->jobs[0].run, 100, 1e-9);
	mesh_sim_result_free(r);
}
END_TEST

/* Rank order.  A 16-node stencil (a 4x4 logical grid) on 8x8, links a
 * quarter of the node bandwidth, so links bind.  mc1x1 gives a 4x4
 * block; in node-index order (the default, Slurm's) its ranks are the
 * block's rows, each logical edge one link: 100 s.  In mc1x1's own
 * order (shells from the centre) neighbours land apart on the block,
 * and the same job runs longer. */
START_TEST(test_sim_rank_order)
{
	static const struct tu_job js[] = { { 1, 0, 100, 100, 16 } };
	struct mesh_sim_opts o;
	struct mesh_sim_result *r;

	mesh_sim_opts_init(&o);
	ck_assert_int_eq(o.rank_order, MESH_RANKS_INDEX);
	o.runtime_model = MESH_RUNTIME_CONTENTION;
	o.comm = MESH_COMM_NEAREST;
	o.comm_share = 1;
	o.net.link_bw = 1;
	o.net.node_bw = 4;
	r = tu_simulate("8x8", "mc1x1", js, 1, &o);
	ck_assert_double_eq_tol(r->jobs[0].run, 100, 1e-9);
	mesh_sim_result_free(r);
	o.rank_order = MESH_RANKS_ALLOCATOR;
	r = tu_simulate("8x8", "mc1x1", js, 1, &o);
	ck_assert(r->jobs[0].run > 150);
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
	struct tu_job js[] = { { 1, 0, 100, 100, 2 },
				{ 2, 0, 1000, 1000, 3 } };
	struct mesh_sim_opts o;
	struct mesh_sim_result *r;
	double s;

	mesh_sim_opts_init(&o);
	o.runtime_model = MESH_RUNTIME_CONTENTION;
	o.comm = MESH_COMM_ALL_TO_ALL;
	o.comm_share = 1;
	r = tu_simulate("4x2", "rowmajor-ff", js, 2, &o);
	s = tu_job_of(r, 1)->run / 100;
	ck_assert_msg(s > 1, "job 1 stretch %g", s);
	mesh_sim_result_free(r);
	js[1].submit = 50;
	r = tu_simulate("4x2", "rowmajor-ff", js, 2, &o);
	ck_assert_double_eq_tol(tu_job_of(r, 1)->end, 50 + 50 * s, 1e-9);
	ck_assert_double_eq(tu_job_of(r, 2)->start, 50);
	mesh_sim_result_free(r);
}
END_TEST

static double io_share_of;

static void io_share_all(void *arg, long id, struct mesh_sim_job_info *info)
{
	(void) arg;
	(void) id;
	info->io_share = io_share_of;
}

/* PFS model, B = 20 GB/s, 12.5 GB/s per node, 1-node jobs of 100 s.  All
 * I/O: one job alone is not slowed (12.5 <= 20); two meet 25 GB/s of
 * demand: s = 1.25, both end at 125.  Half I/O, three jobs: each meets
 * 12.5 + 2 * 6.25 = 25: s = 1.25, stretch 0.5 + 0.625, run 112.5, of
 * which I/O 62.5 s. */
START_TEST(test_sim_pfs_sharing)
{
	static const struct tu_job js[] = { { 1, 0, 100, 100, 1 },
					     { 2, 0, 100, 100, 1 },
					     { 3, 0, 100, 100, 1 } };
	struct mesh_sim_opts o;
	struct mesh_sim_result *r;

	mesh_sim_opts_init(&o);
	o.runtime_model = MESH_RUNTIME_PFS;
	o.net.fs_bw = 20;
	o.job_info = io_share_all;
	io_share_of = 1;
	r = tu_simulate("4x1", "rowmajor-ff", js, 1, &o);
	ck_assert_double_eq_tol(r->jobs[0].run, 100, 1e-9);
	ck_assert_double_eq_tol(r->jobs[0].io_time, 100, 1e-9);
	mesh_sim_result_free(r);
	r = tu_simulate("4x1", "rowmajor-ff", js, 2, &o);
	ck_assert_double_eq_tol(r->jobs[0].end, 125, 1e-9);
	ck_assert_double_eq_tol(r->jobs[1].end, 125, 1e-9);
	mesh_sim_result_free(r);
	io_share_of = 0.5;
	r = tu_simulate("4x1", "rowmajor-ff", js, 3, &o);
	ck_assert_double_eq_tol(r->jobs[2].run, 112.5, 1e-9);
	ck_assert_double_eq_tol(r->jobs[2].io_time, 62.5, 1e-9);
	ck_assert_double_eq_tol(r->summary.total_io_time, 3 * 62.5, 1e-9);
	mesh_sim_result_free(r);
}
END_TEST

static double phase_compute, phase_checkpoint, fluid_io;

static void phases_all(void *arg, long id, struct mesh_sim_job_info *info)
{
	(void) arg;
	(void) id;
	info->compute_phase = phase_compute;
	info->checkpoint_phase = phase_checkpoint;
	info->io_share = fluid_io;
}

/* 4x1 line, the I/O node at x = 0 (it does not compute); the
 * contention model with links, nodes and the I/O node at 1 GB/s.
 * rowmajor-ff puts job 1 on node 1 and job 2 on node 2; each writes one
 * flow to the I/O node, alone at 1 GB/s (the I/O node binds), its best.
 * Both are phased: 100 s of compute, then a 100 s checkpoint (200 s of
 * trace runtime).
 *   Together from t = 0: both checkpoint over [100, ...) and share the
 *   I/O node (and link 1 -> 0): each at half speed, so the checkpoints
 *   take 200 s and both end at 300, with 200 s of I/O each.
 *   Job 2 from t = 100: job 1 checkpoints over [100, 200) while job 2
 *   computes; job 2 checkpoints alone over [200, 300): both run 200 s,
 *   no I/O is slowed.  Bursts contend only when they meet.
 *   Fluid instead (half of the runtime in I/O, finely interleaved), both
 *   from t = 0: in its I/O phase a job meets its own 1 GB/s and the
 *   other's 0.5: slowdown 1.5, stretch 0.5 + 0.5 x 1.5 = 1.25: both end
 *   at 250. */
START_TEST(test_sim_io_bursts)
{
	struct tu_job js[] = { { 1, 0, 200, 200, 1 }, { 2, 0, 200, 200, 1 } };
	struct mesh_topo *t = tu_topo("4x1");
	struct mesh_bitmap *u = tu_all_free(t);
	struct mesh_allocator *a = NULL;
	struct mesh_swf_trace *tr;
	struct mesh_sim_result *r = NULL;
	struct mesh_sim_opts o;
	struct mesh_diag d;
	int round;

	ck_assert_int_eq(mesh_topo_parse_io_nodes(t, "0,0", &d), 0);
	mesh_bitmap_clear(u, 0);
	ck_assert_int_eq(mesh_alloc_create(t, "rowmajor-ff", NULL, &a, &d), 0);
	for (round = 0; round < 3; round++) {
		mesh_sim_opts_init(&o);
		o.runtime_model = MESH_RUNTIME_CONTENTION;
		o.net.link_bw = o.net.node_bw = o.net.ion_bw = 1;
		o.usable = u;
		o.job_info = phases_all;
		phase_compute = round < 2 ? 100 : -1;
		phase_checkpoint = round < 2 ? 100 : -1;
		fluid_io = round < 2 ? 0 : 0.5;
		js[1].submit = round == 1 ? 100 : 0;
		tr = tu_trace(js, 2);
		ck_assert_int_eq(mesh_sim_run(t, a, tr, &o, &r, &d), 0);
		if (round == 0) {
			ck_assert_double_eq_tol(tu_job_of(r, 1)->end, 300, 1e-9);
			ck_assert_double_eq_tol(tu_job_of(r, 2)->end, 300, 1e-9);
			ck_assert_double_eq_tol(tu_job_of(r, 1)->io_time, 200,
						1e-9);
		} else if (round == 1) {
			ck_assert_double_eq_tol(tu_job_of(r, 1)->end, 200, 1e-9);
			ck_assert_double_eq_tol(tu_job_of(r, 2)->end, 300, 1e-9);
			ck_assert_double_eq_tol(tu_job_of(r, 2)->run, 200, 1e-9);
			ck_assert_double_eq_tol(tu_job_of(r, 2)->io_time, 100,
						1e-9);
		} else {
			ck_assert_double_eq_tol(tu_job_of(r, 1)->end, 250, 1e-9);
			ck_assert_double_eq_tol(tu_job_of(r, 2)->end, 250, 1e-9);
		}
		mesh_sim_result_free(r);
		mesh_swf_free(tr);
	}
	mesh_alloc_destroy(a);
	mesh_bitmap_destroy(u);
	mesh_topo_destroy(t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sim_runtime");
	TCase *tc = tcase_create("runtime");

	tcase_add_test(tc, test_sim_contention_row_vs_block);
	tcase_add_test(tc, test_sim_contention_rate_changes_at_events);
	tcase_add_test(tc, test_sim_rank_order);
	tcase_add_test(tc, test_sim_pfs_sharing);
	tcase_add_test(tc, test_sim_io_bursts);
	suite_add_tcase(s, tc);
	return tu_run(s);
}

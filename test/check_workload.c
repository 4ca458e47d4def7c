/* check_workload.c - the synthetic workload models (workload.h): same
 * seed, same trace; the distributions the papers give, within sampling
 * tolerance; and output that the SWF and sidecar readers take back. */
#include <math.h>
#include <stdio.h>

#include "testutil.h"

static struct mesh_gen_job *gen(enum mesh_workload k, size_t n, uint64_t seed,
				struct mesh_workload_opts *o)
{
	struct mesh_gen_job *j = calloc(n, sizeof(*j));

	mesh_workload_defaults(k, o);
	o->jobs = n;
	o->seed = seed;
	ck_assert_int_eq(mesh_workload_generate(o, j), 0);
	return j;
}

START_TEST(test_workload_deterministic_per_seed)
{
	struct mesh_workload_opts o;
	struct mesh_gen_job *a = gen((enum mesh_workload) _i, 500, 7, &o);
	struct mesh_gen_job *b = gen((enum mesh_workload) _i, 500, 7, &o);
	struct mesh_gen_job *c = gen((enum mesh_workload) _i, 500, 8, &o);
	size_t i;

	ck_assert_mem_eq(a, b, 500 * sizeof(*a));
	ck_assert(memcmp(a, c, 500 * sizeof(*a)) != 0);
	for (i = 0; i < 500; i++) {
		ck_assert(a[i].size >= 1 && a[i].size <= o.max_nodes);
		ck_assert(a[i].run > 0 && a[i].req_time >= a[i].run);
		ck_assert(i == 0 || a[i].submit >= a[i - 1].submit);
		ck_assert(a[i].io_intensity >= 0 && a[i].io_intensity <= 1);
	}
	free(a);
	free(b);
	free(c);
}
END_TEST

/* Mache Workload I: ceil(Exp(16)) has mean 1/(1 - e^-1/16) = 16.50;
 * 20,000 samples: standard error 0.11, so +-0.5 is over 4 sigma.  The
 * inter-arrival mean is 500 s (+-3%), and runtime is 60 s per node. */
START_TEST(test_workload_mache_distribution)
{
	struct mesh_workload_opts o;
	struct mesh_gen_job *j = gen(MESH_WL_MACHE, 20000, 3, &o);
	double sum = 0;
	size_t i;

	for (i = 0; i < 20000; i++) {
		sum += j[i].size;
		ck_assert_double_eq(j[i].run, 60.0 * j[i].size);
		ck_assert_double_eq(j[i].io_intensity, 1);
	}
	ck_assert_double_eq_tol(sum / 20000, 1 / (1 - exp(-1.0 / 16)), 0.5);
	ck_assert_double_eq_tol(j[19999].submit / 20000, 500, 15);
	free(j);
}
END_TEST

/* Blue-Gene-like: size shares of Tang's Fig. 5(a) within 1.5% (3.5
 * sigma at 20,000 jobs); requests are whole quarter hours. */
START_TEST(test_workload_bluegene_shares)
{
	static const double share[] = {
		0.45, 0.20, 0.15, 0.10, 0.06, 0.03, 0.01
	};
	struct mesh_workload_opts o;
	struct mesh_gen_job *j = gen(MESH_WL_BLUEGENE, 20000, 4, &o);
	size_t i, cnt[7] = { 0 };
	int c;

	for (i = 0; i < 20000; i++) {
		for (c = 0; (1u << c) != j[i].size; c++)
			ck_assert_int_lt(c, 7);
		cnt[c]++;
		ck_assert_double_eq(fmod(j[i].req_time, 900), 0);
	}
	for (c = 0; c < 7; c++)
		ck_assert_double_eq_tol((double) cnt[c] / 20000, share[c],
					0.015);
	free(j);
}
END_TEST

/* Özden: 2-20 nodes; I/O intensity = checkpoint / (compute +
 * checkpoint); runtime = repetitions x both phases, 10-25 of them. */
START_TEST(test_workload_ozden_phases)
{
	struct mesh_workload_opts o;
	struct mesh_gen_job *j = gen(MESH_WL_OZDEN, 4000, 5, &o);
	size_t i, heavy = 0;

	for (i = 0; i < 4000; i++) {
		double cycle = j[i].compute_phase + j[i].checkpoint_phase;
		double reps = j[i].run / cycle;

		ck_assert(j[i].size >= 2 && j[i].size <= 20);
		ck_assert_double_eq_tol(j[i].io_intensity,
					j[i].checkpoint_phase / cycle, 1e-12);
		ck_assert_msg(reps > 9.99 && reps < 25.01, "reps %g", reps);
		heavy += j[i].io_volume / j[i].size / floor(reps + 0.5) >= 20;
	}
	/* 4 peaks of 5% write 20-60 GB per node per checkpoint */
	ck_assert_uint_eq(heavy, 4 * 200);
	free(j);
}
END_TEST

START_TEST(test_workload_reads_back)
{
	struct mesh_workload_opts o;
	struct mesh_gen_job *j = gen((enum mesh_workload) _i, 300, 9, &o);
	struct mesh_swf_trace *tr = NULL;
	struct mesh_job_attrs *at = NULL;
	struct mesh_diag d;
	FILE *swf = tmpfile(), *csv = tmpfile();
	size_t i;

	ck_assert_int_eq(mesh_workload_write(&o, j, swf, csv), 0);
	rewind(swf);
	rewind(csv);
	ck_assert_int_eq(mesh_swf_read(swf, "g.swf", &tr, &d), 0);
	ck_assert_int_eq(mesh_job_attrs_read(csv, "g.csv", &at, &d), 0);
	ck_assert_uint_eq(tr->n, 300);
	ck_assert_uint_eq(at->n, 300);
	ck_assert_int_eq(tr->max_procs, o.max_nodes);
	for (i = 0; i < 300; i++) {
		ck_assert_int_eq(tr->jobs[i].procs, j[i].size);
		ck_assert_double_eq(tr->jobs[i].run, round(j[i].run));
		ck_assert_ptr_nonnull(mesh_job_attrs_find(at, j[i].id));
	}
	mesh_swf_free(tr);
	mesh_job_attrs_free(at);
	fclose(swf);
	fclose(csv);
	free(j);
}
END_TEST

/* Mache's Table 9 traffic ratio: every I/O-bound job does a share R of
 * I/O and 1 - R of all-to-all communication; it reaches the sidecar. */
START_TEST(test_workload_mache_io_ratio)
{
	struct mesh_workload_opts o;
	struct mesh_gen_job j[50];
	struct mesh_job_attrs *at = NULL;
	const struct mesh_job_attr *a;
	struct mesh_diag d;
	FILE *swf = tmpfile(), *csv = tmpfile();
	size_t i;

	mesh_workload_defaults(MESH_WL_MACHE, &o);
	o.jobs = 50;
	o.io_ratio = 0.4;
	ck_assert_int_eq(mesh_workload_generate(&o, j), 0);
	for (i = 0; i < 50; i++) {
		ck_assert_double_eq(j[i].io_intensity, 0.4);
		ck_assert_double_eq(j[i].comm_share, 0.6);
		ck_assert_int_eq(j[i].comm, MESH_COMM_ALL_TO_ALL);
	}
	ck_assert_int_eq(mesh_workload_write(&o, j, swf, csv), 0);
	rewind(csv);
	ck_assert_int_eq(mesh_job_attrs_read(csv, "g.csv", &at, &d), 0);
	a = mesh_job_attrs_find(at, 7);
	ck_assert_double_eq_tol(a->comm_share, 0.6, 1e-6);
	ck_assert_double_eq_tol(a->hints.io_intensity, 0.4, 1e-6);
	ck_assert_int_eq(a->hints.comm, MESH_COMM_ALL_TO_ALL);
	mesh_job_attrs_free(at);
	fclose(swf);
	fclose(csv);
	o.kind = MESH_WL_OZDEN; /* only mache has a traffic ratio */
	ck_assert_int_eq(mesh_workload_generate(&o, j), MESH_EINVAL);
}
END_TEST

/* Özden with --io-scale 3: the same jobs, three times the checkpoint
 * volume and time, so a larger I/O intensity. */
START_TEST(test_workload_ozden_io_scale)
{
	struct mesh_workload_opts o;
	struct mesh_gen_job a[40], b[40];
	size_t i;

	mesh_workload_defaults(MESH_WL_OZDEN, &o);
	o.jobs = 40;
	o.seed = 5;
	ck_assert_int_eq(mesh_workload_generate(&o, a), 0);
	o.io_scale = 3;
	ck_assert_int_eq(mesh_workload_generate(&o, b), 0);
	for (i = 0; i < 40; i++) {
		ck_assert_uint_eq(a[i].size, b[i].size);
		ck_assert_double_eq(a[i].compute_phase, b[i].compute_phase);
		ck_assert_double_eq_tol(b[i].io_volume, 3 * a[i].io_volume,
					1e-9 * b[i].io_volume);
		ck_assert_double_eq_tol(b[i].checkpoint_phase,
					3 * a[i].checkpoint_phase, 1e-9);
		ck_assert(b[i].io_intensity > a[i].io_intensity);
	}
	o.kind = MESH_WL_MACHE; /* only ozden has checkpoint volumes */
	ck_assert_int_eq(mesh_workload_generate(&o, a), MESH_EINVAL);
}
END_TEST

/* Attributes for an existing trace's jobs: each job's draws depend only
 * on the seed and its id (the same job in a shorter trace gets the
 * same); shares stay in their ranges and sum to at most 1; a mix uses
 * every pattern; phases keep the I/O share; bad ranges are refused. */
START_TEST(test_attrgen)
{
	enum { N = 4000 };
	static long ids[N];
	static struct mesh_gen_job a[N], b[N];
	struct mesh_attrgen_opts o;
	size_t i, io = 0, seen[MESH_COMM_CHAIN + 1] = { 0 };

	for (i = 0; i < N; i++)
		ids[i] = 1000 + 3 * (long) i;
	mesh_attrgen_defaults(&o);
	o.seed = 9;
	o.comm = MESH_COMM_UNKNOWN;
	o.phases = 1;
	ck_assert_int_eq(mesh_attrgen(&o, ids, N, a), 0);
	ck_assert_int_eq(mesh_attrgen(&o, ids + 100, 10, b), 0);
	for (i = 0; i < 10; i++)
		ck_assert_mem_eq(&a[100 + i], &b[i], sizeof(b[i]));
	for (i = 0; i < N; i++) {
		ck_assert_int_eq(a[i].id, ids[i]);
		ck_assert(a[i].io_intensity == 0 ||
			  (a[i].io_intensity >= 0.05 &&
			   a[i].io_intensity <= 0.5));
		ck_assert(a[i].comm_share + a[i].io_intensity <= 1 + 1e-12);
		ck_assert((a[i].comm == MESH_COMM_NONE) ==
			  (a[i].comm_share == 0));
		seen[a[i].comm]++;
		if (a[i].io_intensity > 0) {
			io++;
			ck_assert(a[i].compute_phase >= 100 &&
				  a[i].compute_phase <= 600);
			ck_assert_double_eq_tol(
			    a[i].checkpoint_phase /
				(a[i].compute_phase + a[i].checkpoint_phase),
			    a[i].io_intensity, 1e-9);
		} else {
			ck_assert(a[i].compute_phase == 0);
		}
	}
	/* Binomial(4000, 0.5): sd 31.6; 5 sd */
	ck_assert(io > 2000 - 160 && io < 2000 + 160);
	for (i = MESH_COMM_NONE; i <= MESH_COMM_CHAIN; i++)
		ck_assert_msg(seen[i] > 600, "%s %zu", mesh_comm_name(i),
			      seen[i]);
	o.seed = 10;
	ck_assert_int_eq(mesh_attrgen(&o, ids, 10, b), 0);
	ck_assert(memcmp(a, b, 10 * sizeof(*b)));
	o.io_lo = 0.6; /* above io_hi */
	ck_assert_int_eq(mesh_attrgen(&o, ids, 10, b), MESH_EINVAL);
}
END_TEST

START_TEST(test_workload_bad_options)
{
	struct mesh_workload_opts o;
	struct mesh_gen_job j;

	mesh_workload_defaults(MESH_WL_MACHE, &o);
	o.jobs = 1;
	o.interarrival = 0;
	ck_assert_int_eq(mesh_workload_generate(&o, &j), MESH_EINVAL);
	ck_assert_int_eq(mesh_workload_parse("ozden"), MESH_WL_OZDEN);
	ck_assert_int_eq(mesh_workload_parse("Ozden"), -1);
	ck_assert_int_eq(mesh_workload_parse("pods"), MESH_WL_PODS);
	o.interarrival = 500;
	o.n_sizes = 1; /* sizes are pods' only */
	o.sizes[0] = 4;
	ck_assert_int_eq(mesh_workload_generate(&o, &j), MESH_EINVAL);
	mesh_workload_defaults(MESH_WL_PODS, &o);
	o.jobs = 1;
	o.sizes[2] = 0;
	ck_assert_int_eq(mesh_workload_generate(&o, &j), MESH_EINVAL);
	o.n_sizes = 0;
	ck_assert_int_eq(mesh_workload_generate(&o, &j), MESH_EINVAL);
}
END_TEST

/* Pods: only the listed sizes (capped to the machine), each about equally
 * often (20,000 draws over 6 sizes: 3,333 each, sd 53, so +-300 is over
 * 5 sigma); runtimes log-uniform in 61-3601 s, so half of them below
 * 60 * sqrt(60) = 465 s; requests whole minutes, 1-2 times the runtime;
 * communicating, no I/O. */
START_TEST(test_workload_pods)
{
	struct mesh_workload_opts o;
	struct mesh_gen_job *j;
	size_t count[64] = { 0 }, i, below = 0;

	mesh_workload_defaults(MESH_WL_PODS, &o);
	ck_assert_uint_eq(o.max_nodes, 64);
	o.sizes[5] = 100; /* capped to 64 */
	o.jobs = 20000;
	o.seed = 5;
	j = calloc(o.jobs, sizeof(*j));
	ck_assert_int_eq(mesh_workload_generate(&o, j), 0);
	for (i = 0; i < o.jobs; i++) {
		ck_assert_uint_le(j[i].size, 64);
		count[j[i].size - 1]++;
		ck_assert(j[i].run >= 61 && j[i].run <= 3601);
		below += j[i].run < 465;
		ck_assert(j[i].req_time >= j[i].run &&
			  j[i].req_time <= 2 * j[i].run + 60);
		ck_assert_double_eq(fmod(j[i].req_time, 60), 0);
		ck_assert_int_eq(j[i].comm, MESH_COMM_ALL_TO_ALL);
		ck_assert_double_eq(j[i].io_intensity, 0);
	}
	for (i = 0; i < 64; i++) {
		int listed = i == 0 || i == 1 || i == 3 || i == 7 || i == 15 ||
			     i == 63;

		if (listed)
			ck_assert(count[i] > 3033 && count[i] < 3633);
		else
			ck_assert_uint_eq(count[i], 0);
	}
	ck_assert(below > 9700 && below < 10300);
	free(j);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("workload");
	TCase *tc = tcase_create("models");
	SRunner *sr;
	int nf;

	tcase_set_timeout(tc, 30);
	tcase_add_loop_test(tc, test_workload_deterministic_per_seed, 0, 4);
	tcase_add_test(tc, test_workload_mache_distribution);
	tcase_add_test(tc, test_workload_mache_io_ratio);
	tcase_add_test(tc, test_workload_ozden_io_scale);
	tcase_add_test(tc, test_workload_bluegene_shares);
	tcase_add_test(tc, test_workload_ozden_phases);
	tcase_add_loop_test(tc, test_workload_reads_back, 0, 3);
	tcase_add_test(tc, test_workload_bad_options);
	tcase_add_test(tc, test_workload_pods);
	tcase_add_test(tc, test_attrgen);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}

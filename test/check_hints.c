/* check_hints.c - per-job hints (hints.h, hint_cache.h), select/mesh's
 * summary in SystemComment (comment.h) and Özden's weighted priority
 * (priority.h): the parsers every channel shares, and the formula. */
#include "testutil.h"

START_TEST(test_shape_parse)
{
	static const char *const bad[] = { "",           "4",   "4x",
					   "x2",         "0x2", "4x-2",
					   "4x2x2x2",    "4×2", "4X2",
					   "99999999x2", "4x2 " };
	struct mesh_diag d;
	int s[3];
	size_t i;

	ck_assert_int_eq(mesh_shape_parse("4x2", s, &d), 0);
	ck_assert(s[0] == 4 && s[1] == 2 && s[2] == 1);
	ck_assert_int_eq(mesh_shape_parse("2x3x4", s, &d), 0);
	ck_assert(s[0] == 2 && s[1] == 3 && s[2] == 4);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		s[0] = s[1] = s[2] = 7;
		ck_assert_msg(mesh_shape_parse(bad[i], s, &d) == MESH_EINVAL,
			      "accepted \"%s\"", bad[i]);
		ck_assert_msg(s[0] == 7 && s[1] == 7 && s[2] == 7,
			      "\"%s\" wrote %dx%dx%d", bad[i], s[0], s[1],
			      s[2]);
		ck_assert_str_eq(d.field, "shape");
		ck_assert(strstr(d.message, "expected WxH or WxHxD"));
	}
}
END_TEST

START_TEST(test_io_intensity_and_comm_parse)
{
	static const char *const bad[] = { "",    "-0.1", "1.01",
					   "nan", "0.5x", "inf" };
	struct mesh_diag d;
	enum mesh_comm c;
	double v;
	size_t i;

	ck_assert_int_eq(mesh_io_intensity_parse("0.7", &v, &d), 0);
	ck_assert_double_eq(v, 0.7);
	ck_assert_int_eq(mesh_io_intensity_parse("1", &v, &d), 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(mesh_io_intensity_parse(bad[i], &v, &d) ==
				  MESH_EINVAL,
			      "accepted \"%s\"", bad[i]);
	ck_assert_str_eq(d.field, "io-intensity");
	ck_assert_int_eq(mesh_comm_parse_checked("nearest", &c, &d), 0);
	ck_assert_int_eq(c, MESH_COMM_NEAREST);
	ck_assert_int_eq(mesh_comm_parse_checked("ring", &c, &d), MESH_EINVAL);
	ck_assert(strstr(d.message, "\"ring\""));
}
END_TEST

START_TEST(test_hints_from_env)
{
	const char *env[] = { "PATH=/bin", "MESH_SHAPE=4x2",
			      "MESH_IO_INTENSITY=0.25", "MESH_COMM=all-to-all",
			      "MESH_SHAPEX=1x1" };
	const char *bad[] = { "MESH_IO_INTENSITY=2", "MESH_SHAPE=4xz",
			      "MESH_COMM=none" };
	struct mesh_job_hints h;
	struct mesh_diag d;

	mesh_hints_init(&h);
	ck_assert(h.io_intensity < 0 && h.comm == MESH_COMM_UNKNOWN &&
		  h.shape[0] == 0);
	ck_assert_int_eq(mesh_hints_from_env(env, 5, &h, &d), 0);
	ck_assert(h.shape[0] == 4 && h.shape[1] == 2);
	ck_assert_double_eq(h.io_intensity, 0.25);
	ck_assert_int_eq(h.comm, MESH_COMM_ALL_TO_ALL);
	/* Each bad value is skipped whole (a half-read "4xz" is not 4x1);
	 * the good one after them is read; the first is reported. */
	mesh_hints_init(&h);
	ck_assert_int_eq(mesh_hints_from_env(bad, 3, &h, &d), MESH_EINVAL);
	ck_assert_int_eq(h.comm, MESH_COMM_NONE);
	ck_assert_int_eq(h.shape[0], 0);
	ck_assert(h.io_intensity < 0);
	ck_assert_str_eq(d.field, "io-intensity");
}
END_TEST

/* Parsed once, reported once: the second lookup of a job with a bad hint
 * returns 0 and the same hints even from another environment (a job's
 * environment does not change); a full cache forgets and starts again. */
START_TEST(test_hint_cache)
{
	const char *bad[] = { "MESH_SHAPE=abc", "MESH_COMM=nearest" };
	const char *good[] = { "MESH_SHAPE=2x2" };
	struct mesh_hint_cache *c = mesh_hint_cache_create(3);
	struct mesh_job_hints h;
	struct mesh_diag d;
	uint64_t k;

	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(mesh_hint_cache_get(c, 7, bad, 2, &h, &d),
			 MESH_EINVAL);
	ck_assert_str_eq(d.field, "shape");
	ck_assert(h.shape[0] == 0 && h.comm == MESH_COMM_NEAREST);
	ck_assert_int_eq(mesh_hint_cache_get(c, 7, good, 1, &h, &d), 0);
	ck_assert(h.shape[0] == 0 && h.comm == MESH_COMM_NEAREST);
	ck_assert_int_eq(mesh_hint_cache_get(c, 8, good, 1, &h, &d), 0);
	ck_assert(h.shape[0] == 2 && h.shape[1] == 2);
	ck_assert_int_eq(mesh_hint_cache_get(c, 9, NULL, 0, &h, &d), 0);
	ck_assert(h.shape[0] == 0 && h.comm == MESH_COMM_UNKNOWN);
	ck_assert_uint_eq(mesh_hint_cache_count(c), 3);
	/* A fourth job clears the table: job 7 is parsed and reported anew. */
	ck_assert_int_eq(mesh_hint_cache_get(c, 10, good, 1, &h, &d), 0);
	ck_assert_uint_eq(mesh_hint_cache_count(c), 1);
	ck_assert_int_eq(mesh_hint_cache_get(c, 7, bad, 2, &h, &d),
			 MESH_EINVAL);
	/* Many keys through a small table: each found again while held. */
	mesh_hint_cache_destroy(c);
	c = mesh_hint_cache_create(1000);
	for (k = 1; k <= 1000; k++)
		ck_assert_int_eq(
		    mesh_hint_cache_get(c, k << 32 | k, good, 1, &h, &d), 0);
	for (k = 1; k <= 1000; k++) {
		ck_assert_int_eq(
		    mesh_hint_cache_get(c, k << 32 | k, bad, 2, &h, &d), 0);
		ck_assert_int_eq(h.shape[0], 2);
	}
	ck_assert_uint_eq(mesh_hint_cache_count(c), 1000);
	mesh_hint_cache_destroy(c);
	/* Without a cache every lookup parses and reports. */
	ck_assert_int_eq(mesh_hint_cache_get(NULL, 7, bad, 2, &h, &d),
			 MESH_EINVAL);
	ck_assert_int_eq(mesh_hint_cache_get(NULL, 7, bad, 2, &h, &d),
			 MESH_EINVAL);
}
END_TEST

/* Our summary is replaced wherever it is; everything else is kept. */
START_TEST(test_comment_replace)
{
	static const char *const cases[][2] = {
		{ NULL, "mesh:v1 alloc=mc diam=1" },
		{ "", "mesh:v1 alloc=mc diam=1" },
		{ "mesh:v1 alloc=old bbox=1x1x1 diam=0",
		  "mesh:v1 alloc=mc diam=1" },
		{ "site note", "site note mesh:v1 alloc=mc diam=1" },
		{ "site note mesh:v1 alloc=old diam=0",
		  "site note mesh:v1 alloc=mc diam=1" },
		{ "mesh:v1 alloc=old sumdist=4 avgdist=1.00 diam=2 shape=ignored "
		  "checked by admin",
		  "checked by admin mesh:v1 alloc=mc diam=1" },
		{ "A mesh:v1 alloc=old diam=0 B=1 C",
		  "A B=1 C mesh:v1 alloc=mc diam=1" },
		{ "xmesh:v1 alloc=x",
		  "xmesh:v1 alloc=x mesh:v1 alloc=mc diam=1" },
	};
	size_t i, len;
	char *r;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		r = mesh_comment_replace(cases[i][0],
					 "mesh:v1 alloc=mc diam=1");
		ck_assert_ptr_nonnull(r);
		ck_assert_msg(!strcmp(r, cases[i][1]), "\"%s\" -> \"%s\"",
			      cases[i][0] ? cases[i][0] : "(null)", r);
		free(r);
	}
	ck_assert_int_eq(mesh_comment_find("a mesh:v1 alloc=mc diam=1 b", &len),
			 2);
	ck_assert_uint_eq(len, strlen("mesh:v1 alloc=mc diam=1"));
	ck_assert_int_eq(mesh_comment_find("no summary", &len), -1);
	ck_assert_int_eq(mesh_comment_find(NULL, &len), -1);
}
END_TEST

/* Özden: running mean 1 (one job), queue [I/O 1, I/O 0]: W = 2/3;
 * starting the first gives mean 1 (delta 1/3), the second 1/2 (delta
 * 1/6): normalised deltas 1, 0; lambdas 0, 1. */
START_TEST(test_ozden_priority)
{
	const double pos[] = { 10, 20 }, io[] = { 1, 0 };
	double wp[2];

	mesh_ozden_priority(0, pos, io, 2, 1, 1, wp);
	ck_assert(wp[0] == 0 && wp[1] == 1);
	mesh_ozden_priority(1, pos, io, 2, 1, 1, wp);
	ck_assert(wp[0] == 1 && wp[1] == 0);
	mesh_ozden_priority(0.6, pos, io, 2, 1, 1, wp);
	ck_assert_double_eq_tol(wp[0], 0.6, 1e-15);
	ck_assert_double_eq_tol(wp[1], 0.4, 1e-15);
	mesh_ozden_priority(0.6, pos, io, 1, 0, 0, wp);
	ck_assert(wp[0] == 0); /* one candidate, nothing running */
}
END_TEST

/* The same running job; J_io (10) and J_cpu (11) arrive one at a time
 * after a pass that saw no candidate.  J_io alone: lambda 0, delta 0.
 * J_cpu: lambda 1, workload mean 2/3, delta 1/6, the widest: wp 1.  A
 * full pass over both gives 0.8 and 0.2 (test_ozden_priority). */
START_TEST(test_ozden_add)
{
	struct mesh_ozden_agg agg;
	double wp[1];

	mesh_ozden_priority_agg(0.8, NULL, NULL, 0, 1, 1, wp, &agg);
	ck_assert(agg.n == 0 && agg.n_run == 1 && agg.io_sum == 1);
	ck_assert(mesh_ozden_add(&agg, 0.8, 10, 1) == 0);
	ck_assert(agg.n == 1 && agg.lo == 10 && agg.hi == 10);
	ck_assert_double_eq_tol(mesh_ozden_add(&agg, 0.8, 11, 0), 1, 1e-15);
	ck_assert(agg.n == 2 && agg.hi == 11 && agg.io_sum == 2);
	ck_assert_double_eq_tol(agg.dmax, 1.0 / 6, 1e-15);
	/* J_io again (scontrol release): counted already, nothing added */
	ck_assert_double_eq_tol(mesh_ozden_add(&agg, 0.8, 10, 1), 0.8, 1e-15);
	ck_assert(agg.n == 2 && agg.io_sum == 2);
}
END_TEST

/* A candidate the full pass saw gets the value the pass gave it, and
 * the aggregates do not move; a new one is counted once. */
START_TEST(test_ozden_add_matches_pass)
{
	double pos[40], io[40], wp[40], alpha;
	struct mesh_ozden_agg agg, before;
	unsigned seed = 7;
	size_t n, i, run;

	for (int round = 0; round < 200; round++) {
		n = 1 + (size_t) (rand_r(&seed) % 40);
		run = (size_t) (rand_r(&seed) % 5);
		alpha = (rand_r(&seed) % 11) / 10.0;
		for (i = 0; i < n; i++) {
			pos[i] = (double) (3 * i + (size_t) (rand_r(&seed) % 3));
			io[i] = (rand_r(&seed) % 101) / 100.0;
		}
		mesh_ozden_priority_agg(alpha, pos, io, n, 0.5 * (double) run,
					run, wp, &agg);
		before = agg;
		for (i = 0; i < n; i++)
			ck_assert_double_eq_tol(
			    mesh_ozden_add(&agg, alpha, pos[i], io[i]), wp[i],
			    1e-12);
		ck_assert(memcmp(&agg, &before, sizeof(agg)) == 0);
		wp[0] = mesh_ozden_add(&agg, alpha, pos[n - 1] + 1, 0.25);
		ck_assert(wp[0] >= 0 && wp[0] <= 1);
		ck_assert(agg.n == n + 1 && agg.hi == pos[n - 1] + 1);
		ck_assert_double_eq_tol(agg.io_sum, before.io_sum + 0.25, 1e-12);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("hints");
	TCase *tc = tcase_create("parse");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, test_shape_parse);
	tcase_add_test(tc, test_io_intensity_and_comm_parse);
	tcase_add_test(tc, test_hints_from_env);
	tcase_add_test(tc, test_hint_cache);
	tcase_add_test(tc, test_comment_replace);
	tcase_add_test(tc, test_ozden_priority);
	tcase_add_test(tc, test_ozden_add);
	tcase_add_test(tc, test_ozden_add_matches_pass);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}

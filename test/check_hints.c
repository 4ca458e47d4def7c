/* check_hints.c - per-job hints (hints.h) and Özden's weighted priority
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
		ck_assert_msg(mesh_shape_parse(bad[i], s, &d) == MESH_EINVAL,
			      "accepted \"%s\"", bad[i]);
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
	const char *bad[] = { "MESH_COMM=none", "MESH_IO_INTENSITY=2" };
	struct mesh_job_hints h;
	struct mesh_diag d;

	mesh_hints_init(&h);
	ck_assert(h.io_intensity < 0 && h.comm == MESH_COMM_UNKNOWN &&
		  h.shape[0] == 0);
	ck_assert_int_eq(mesh_hints_from_env(env, 5, &h, &d), 0);
	ck_assert(h.shape[0] == 4 && h.shape[1] == 2);
	ck_assert_double_eq(h.io_intensity, 0.25);
	ck_assert_int_eq(h.comm, MESH_COMM_ALL_TO_ALL);
	mesh_hints_init(&h);
	ck_assert_int_eq(mesh_hints_from_env(bad, 2, &h, &d), MESH_EINVAL);
	ck_assert_int_eq(h.comm, MESH_COMM_NONE); /* read before the error */
	ck_assert_str_eq(d.field, "io-intensity");
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

int main(void)
{
	Suite *s = suite_create("hints");
	TCase *tc = tcase_create("parse");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, test_shape_parse);
	tcase_add_test(tc, test_io_intensity_and_comm_parse);
	tcase_add_test(tc, test_hints_from_env);
	tcase_add_test(tc, test_ozden_priority);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}

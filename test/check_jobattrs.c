/* check_jobattrs.c - the job-attribute sidecar: columns in any order,
 * empty fields, and an error naming file:line:column for each kind of
 * bad input. */
#include <stdio.h>

#include "testutil.h"

static int read_text(const char *text, struct mesh_job_attrs **s,
		     struct mesh_diag *d)
{
	FILE *f = fmemopen((void *) text, strlen(text), "r");
	int rc;

	ck_assert_ptr_nonnull(f);
	mesh_diag_clear(d);
	rc = mesh_job_attrs_read(f, "a.csv", s, d);
	fclose(f);
	return rc;
}

START_TEST(test_jobattrs_parse)
{
	const char *text =
	    "# generated\n"
	    "job_id,io_intensity,io_volume,comm,shape,compute_phase,"
	    "checkpoint_phase\n"
	    "17,0.7,120,all-to-all,4x2,600,60\n"
	    "\n"
	    "3,,,none,,,\r\n";
	const struct mesh_job_attr *a;
	struct mesh_job_attrs *s = NULL;
	struct mesh_diag d;

	ck_assert_int_eq(read_text(text, &s, &d), 0);
	ck_assert_uint_eq(s->n, 2);
	a = mesh_job_attrs_find(s, 17);
	ck_assert_ptr_nonnull(a);
	ck_assert_double_eq(a->hints.io_intensity, 0.7);
	ck_assert_double_eq(a->io_volume, 120);
	ck_assert_int_eq(a->hints.comm, MESH_COMM_ALL_TO_ALL);
	ck_assert(a->hints.shape[0] == 4 && a->hints.shape[1] == 2);
	ck_assert_double_eq(a->compute_phase, 600);
	ck_assert_double_eq(a->checkpoint_phase, 60);
	ck_assert_int_eq(a->line, 3);
	a = mesh_job_attrs_find(s, 3);
	ck_assert(a->hints.io_intensity < 0 && a->io_volume < 0 &&
		  a->hints.shape[0] == 0 && a->hints.comm == MESH_COMM_NONE);
	ck_assert_ptr_null(mesh_job_attrs_find(s, 4));
	mesh_job_attrs_free(s);
	/* any column order, any subset with job_id */
	ck_assert_int_eq(read_text("shape,job_id\n2x2x2,9\n", &s, &d), 0);
	ck_assert_int_eq(mesh_job_attrs_find(s, 9)->hints.shape[2], 2);
	ck_assert(mesh_job_attrs_find(s, 9)->comm_share < 0);
	mesh_job_attrs_free(s);
	ck_assert_int_eq(read_text("job_id,io_intensity,comm_share\n"
				   "4,0.4,0.6\n5,,1\n",
				   &s, &d),
			 0);
	ck_assert_double_eq(mesh_job_attrs_find(s, 4)->comm_share, 0.6);
	ck_assert_double_eq(mesh_job_attrs_find(s, 5)->comm_share, 1);
	mesh_job_attrs_free(s);
}
END_TEST

static const struct {
	const char *text, *where, *msg;
} bad[] = {
	{ "", "a.csv:header", "no header line" },
	{ "io_intensity\n0.5\n", "a.csv:1:header", "no job_id column" },
	{ "job_id,iox\n", "a.csv:1:header", "unknown column \"iox\"" },
	{ "job_id,comm,comm\n", "a.csv:1:header", "given twice" },
	{ "job_id,comm\n1,ring\n", "a.csv:2:comm", "\"ring\"" },
	{ "job_id,io_intensity\n1,1.5\n", "a.csv:2:io_intensity", "0 to 1" },
	{ "job_id,shape\n1,4×2\n", "a.csv:2:shape", "WxH" },
	{ "job_id,io_volume\n1,-3\n", "a.csv:2:io_volume", ">= 0" },
	{ "job_id,compute_phase\n1,0\n", "a.csv:2:compute_phase", "> 0" },
	{ "job_id,comm_share\n1,1.5\n", "a.csv:2:comm_share", "0 to 1" },
	{ "job_id,comm_share\n1,x\n", "a.csv:2:comm_share", "\"x\"" },
	{ "job_id,comm_share,io_intensity\n1,0.6,0.5\n", "a.csv:2:comm_share",
	  "0.5 + 0.6 exceeds 1" },
	{ "job_id\nx7\n", "a.csv:2:job_id", "job number" },
	{ "job_id,comm\n1\n", "a.csv:2:line", "2 comma-separated" },
	{ "job_id\n5\n6\n5\n", "a.csv:4:job_id", "lines 2 and 4" },
	{ "job_id,comm\n1,pairs:0-1\n", "a.csv:2:comm", "\"0-1\"" },
	{ "job_id,comm\n1,pairs:0>1 2>\n", "a.csv:2:comm", "\"2>\"" },
	{ "job_id,comm\n1,pairs:\n", "a.csv:2:comm", "lists no pair" },
	{ "job_id,comm\n1,pairs:-1>0\n", "a.csv:2:comm", "\"-1>0\"" },
	/* a bad line after a pair list: nothing leaks (valgrind) */
	{ "job_id,comm,shape\n1,pairs:0>1,4x\n", "a.csv:2:shape", "WxH" },
};

/* A pair list: directed rank pairs, blanks between them. */
START_TEST(test_jobattrs_pairs)
{
	struct mesh_job_attrs *s = NULL;
	const struct mesh_job_attr *a;
	struct mesh_diag d;

	ck_assert_int_eq(read_text("job_id,comm\n4,pairs:0>3  3>0 1>2 \n",
				   &s, &d),
			 0);
	a = mesh_job_attrs_find(s, 4);
	ck_assert_int_eq(a->hints.comm, MESH_COMM_PAIRS);
	ck_assert_uint_eq(a->n_pairs, 3);
	ck_assert_uint_eq(a->pairs[0], 0);
	ck_assert_uint_eq(a->pairs[1], 3);
	ck_assert_uint_eq(a->pairs[2], 3);
	ck_assert_uint_eq(a->pairs[5], 2);
	mesh_job_attrs_free(s);
}
END_TEST

START_TEST(test_jobattrs_errors)
{
	struct mesh_job_attrs *s = NULL;
	struct mesh_diag d;
	char buf[600];

	ck_assert_int_eq(read_text(bad[_i].text, &s, &d), MESH_EPARSE);
	ck_assert_ptr_null(s);
	mesh_diag_format(&d, buf, sizeof(buf));
	ck_assert_msg(!strncmp(buf, bad[_i].where, strlen(bad[_i].where)) &&
			  strstr(buf, bad[_i].msg),
		      "case %d: got \"%s\"", _i, buf);
}
END_TEST

START_TEST(test_jobattrs_load_errors)
{
	struct mesh_job_attrs *s = NULL;
	struct mesh_diag d;

	ck_assert_int_eq(mesh_job_attrs_load("/nonexistent/a.csv", &s, &d),
			 MESH_ENOENT);
	ck_assert(strstr(d.message, "cannot open"));
	ck_assert_int_eq(mesh_job_attrs_load("/tmp", &s, &d), MESH_EIO);
	ck_assert(strstr(d.message, "is a directory"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("jobattrs");
	TCase *tc = tcase_create("sidecar");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, test_jobattrs_parse);
	tcase_add_loop_test(tc, test_jobattrs_errors, 0,
			    (int) (sizeof(bad) / sizeof(bad[0])));
	tcase_add_test(tc, test_jobattrs_load_errors);
	tcase_add_test(tc, test_jobattrs_pairs);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* check_swf.c - the SWF reader on good and malformed input. */
#include <stdio.h>

#include "testutil.h"

static const char *const good_line =
	"    1        0     -1   1451  128     -1    -1   -1     -1    -1 -1   1   1  -1 -1 -1 -1 -1";

START_TEST(test_swf_parse_good_line)
{
	struct mesh_swf_job j;
	struct mesh_diag d;

	ck_assert_int_eq(mesh_swf_parse_line(good_line, &j, &d), 0);
	ck_assert_int_eq(j.id, 1);
	ck_assert(j.submit == 0);
	ck_assert(j.run == 1451);
	ck_assert_int_eq(j.procs, 128);
	ck_assert_int_eq(j.req_procs, -1);
	ck_assert(j.req_time == -1);
	ck_assert_int_eq(j.user, 1);
}
END_TEST

START_TEST(test_swf_parse_fractional_cpu_time)
{
	struct mesh_swf_job j;
	struct mesh_diag d;

	ck_assert_int_eq(mesh_swf_parse_line("3 12 308483 30978 30 30977.54 -1 30 37980 -1 1 1 1 -1 -1 1 -1 -1\r\n",
					     &j, &d), 0);
	ck_assert_double_eq_tol(j.avg_cpu, 30977.54, 1e-9);
	ck_assert_int_eq(j.req_procs, 30);
}
END_TEST

static const struct {
	const char *line;
	const char *field;
} bad_lines[] = {
	{ "1 0 -1 10 4", "avg_cpu_time" }, /* truncated: field 6 missing */
	{ "1 0 -1 ten 4 -1 -1 -1 -1 -1 -1 1 1 -1 -1 -1 -1 -1", "run_time" },
	{ "1 0 -1 10 4.5 -1 -1 -1 -1 -1 -1 1 1 -1 -1 -1 -1 -1", "alloc_procs" },
	{ "1 0 -1 10 -7 -1 -1 -1 -1 -1 -1 1 1 -1 -1 -1 -1 -1", "alloc_procs" },
	{ "1 0 -1 10 4 -1 -1 -1 -1 -1 -1 1 1 -1 -1 -1 -1 -1 99", "line" },
	{ "1 0 -1 10 4 -1 -1 4x -1 -1 -1 1 1 -1 -1 -1 -1 -1", "req_procs" },
	{ "1 0 -1 nan 4 -1 -1 -1 -1 -1 -1 1 1 -1 -1 -1 -1 -1", "run_time" },
	{ "1 0 -1 1e999 4 -1 -1 -1 -1 -1 -1 1 1 -1 -1 -1 -1 -1", "run_time" },
};

START_TEST(test_swf_parse_bad_lines)
{
	struct mesh_swf_job j;
	struct mesh_diag d;

	mesh_diag_clear(&d);
	ck_assert_int_eq(mesh_swf_parse_line(bad_lines[_i].line, &j, &d), MESH_EPARSE);
	ck_assert_str_eq(d.field, bad_lines[_i].field);
	ck_assert(strlen(d.message) > 0);
}
END_TEST

static int read_string(const char *text, struct mesh_swf_trace **tr,
		       struct mesh_diag *d)
{
	FILE *f = fmemopen((void *) (uintptr_t) text, strlen(text), "r");
	int rc;

	ck_assert_ptr_nonnull(f);
	rc = mesh_swf_read(f, "t.swf", tr, d);
	fclose(f);
	return rc;
}

START_TEST(test_swf_read_header_and_jobs)
{
	const char *text = "; Version: 2.2\n"
			   "; MaxNodes: 128\n"
			   ";   MaxProcs: 256\n"
			   "\n"
			   "1 0 -1 10 4 -1 -1 -1 -1 -1 -1 1 1 -1 -1 -1 -1 -1\n"
			   "   \t\n"
			   "2 5 -1 20 8 2.5 -1 8 100 -1 1 1 1 -1 -1 -1 -1 -1";
	struct mesh_swf_trace *tr = NULL;
	struct mesh_diag d;

	ck_assert_int_eq(read_string(text, &tr, &d), 0);
	ck_assert_uint_eq(tr->n, 2);
	ck_assert_int_eq(tr->max_nodes, 128);
	ck_assert_int_eq(tr->max_procs, 256);
	ck_assert_int_eq(tr->jobs[0].line, 5);
	ck_assert_int_eq(tr->jobs[1].line, 7);
	ck_assert(tr->jobs[1].req_time == 100);
	mesh_swf_free(tr);
}
END_TEST

START_TEST(test_swf_read_reports_file_line_field)
{
	const char *text = "; MaxProcs: 8\n"
			   "1 0 -1 10 4 -1 -1 -1 -1 -1 -1 1 1 -1 -1 -1 -1 -1\n"
			   "2 0 -1 10 4 -1 -1 -1 abc -1 -1 1 1 -1 -1 -1 -1 -1\n";
	struct mesh_swf_trace *tr = NULL;
	struct mesh_diag d;
	char buf[300];

	ck_assert_int_eq(read_string(text, &tr, &d), MESH_EPARSE);
	ck_assert_ptr_null(tr);
	ck_assert_str_eq(mesh_diag_format(&d, buf, sizeof(buf)),
			 "t.swf:3:req_time: expected a number, got \"abc\"");
}
END_TEST

START_TEST(test_swf_read_nul_byte)
{
	static const char text[] = "1 0 -1 10 4 -1 -1 -1 -1 -1 -1 1 1 -1 -1 -1 -1 -1\n1 0\0 1\n";
	FILE *f = fmemopen((void *) (uintptr_t) text, sizeof(text) - 1, "r");
	struct mesh_swf_trace *tr = NULL;
	struct mesh_diag d;

	ck_assert_int_eq(mesh_swf_read(f, "n.swf", &tr, &d), MESH_EPARSE);
	ck_assert_int_eq(d.line, 2);
	fclose(f);
}
END_TEST

START_TEST(test_swf_load_missing_file)
{
	struct mesh_swf_trace *tr = NULL;
	struct mesh_diag d;

	ck_assert_int_eq(mesh_swf_load("/nonexistent/x.swf", &tr, &d), MESH_ENOENT);
	ck_assert_str_eq(d.file, "/nonexistent/x.swf");
}
END_TEST

/* Random byte mutations of a valid trace never crash the reader and
 * always either parse or name a line. */
START_TEST(test_swf_fuzz_mutations)
{
	static const char base[] = "; MaxProcs: 64\n"
				   "1 0 -1 10 4 -1 -1 -1 -1 -1 -1 1 1 -1 -1 -1 -1 -1\n"
				   "2 5 -1 20 8 2.5 -1 8 100 -1 1 1 1 -1 -1 -1 -1 -1\n";
	static const char alphabet[] = "0123456789 -.;\n\te+x";
	char buf[sizeof(base)];
	uint64_t seed = 7;
	int round, m;

	for (round = 0; round < 5000; round++) {
		struct mesh_swf_trace *tr = NULL;
		struct mesh_diag d;
		size_t len = sizeof(base) - 1;

		memcpy(buf, base, sizeof(base));
		for (m = 0; m < 1 + (int) (tu_rand(&seed) % 4); m++)
			buf[tu_rand(&seed) % len] =
				alphabet[tu_rand(&seed) % (sizeof(alphabet) - 1)];
		len = tu_rand(&seed) % 2 ? len : tu_rand(&seed) % len;
		FILE *f = fmemopen(buf, len ? len : 1, "r");

		mesh_diag_clear(&d);
		int rc = mesh_swf_read(f, "fuzz.swf", &tr, &d);

		fclose(f);
		ck_assert(rc == 0 || (rc == MESH_EPARSE && d.line > 0));
		mesh_swf_free(tr);
	}
}
END_TEST

/* Bytes of a binary file are escaped in the message, never echoed raw
 * (issue 40); so is a UTF-8 character, which may be invisible. */
START_TEST(test_swf_parse_escapes_bytes)
{
	struct mesh_swf_job j;
	struct mesh_diag d;
	const unsigned char *m;

	mesh_diag_clear(&d);
	ck_assert_int_eq(mesh_swf_parse_line("1\xff\x01\x1b[2J\\ 0 -1", &j, &d),
			 MESH_EPARSE);
	ck_assert_str_eq(d.message,
			 "expected a number, got \"1\\xFF\\x01\\x1B[2J\\x5C\"");
	for (m = (const unsigned char *) d.message; *m; m++)
		ck_assert(*m >= 0x20 && *m < 0x7f);
	mesh_diag_clear(&d);
	ck_assert_int_eq(mesh_swf_parse_line("1 0 -1 10 4\xe2\x88\x92 -1", &j, &d),
			 MESH_EPARSE);
	ck_assert_str_eq(d.message, "expected a number, got \"4\\xE2\\x88\\x92\"");
	mesh_diag_clear(&d);
	ck_assert_int_eq(mesh_swf_parse_line("1 0 -1 10 4 -1 -1 -1 -1 -1 -1 1 1 "
					     "-1 -1 -1 -1 -1 \x07x",
					     &j, &d),
			 MESH_EPARSE);
	ck_assert_str_eq(d.message, "more than 18 fields (extra \"\\x07x\")");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("swf");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, test_swf_parse_good_line);
	tcase_add_test(tc, test_swf_parse_fractional_cpu_time);
	tcase_add_loop_test(tc, test_swf_parse_bad_lines, 0,
			    sizeof(bad_lines) / sizeof(bad_lines[0]));
	tcase_add_test(tc, test_swf_parse_escapes_bytes);
	tcase_add_test(tc, test_swf_read_header_and_jobs);
	tcase_add_test(tc, test_swf_read_reports_file_line_field);
	tcase_add_test(tc, test_swf_read_nul_byte);
	tcase_add_test(tc, test_swf_load_missing_file);
	tcase_add_test(tc, test_swf_fuzz_mutations);
	suite_add_tcase(s, tc);
	return tu_run(s);
}

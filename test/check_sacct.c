/* check_sacct.c - sacct --parsable2 dumps to SWF jobs: every field on a
 * good dump, the counted skips, each malformed input's file:line:field,
 * and the SWF writer read back by the SWF reader. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"

#define HEADER                                                                 \
	"JobIDRaw|Submit|Start|End|ElapsedRaw|TimelimitRaw|NNodes|ReqNodes|"   \
	"AllocCPUS|ReqCPUS|TotalCPU|State|Partition|UID|GID"

static const char good_dump[] =
    HEADER "|NodeList\n"
    "101|1764777000|1764777005|1764777065|60|5|2|2|4|4|00:10.500|COMPLETED|"
    "batch|1000|1000|n[1-2]\n"
    "101.batch|1764777005|1764777005|1764777065|60||1||2|2|00:10.500|"
    "COMPLETED||1000|1000|n1\n"
    "101.0|1764777005|1764777005|1764777065|60||2||4|4|00:10.500|"
    "COMPLETED||1000|1000|n[1-2]\n"
    "103|1764777002|Unknown|1764777010|0|10|1|1|0|2|00:00:00|CANCELLED by "
    "1000|batch|1000|1000|None assigned\n"
    "104|1764777003|1764777004|Unknown|0|10|4|4|8|8|00:00:00|RUNNING|batch|"
    "1000|1000|n[3-6]\n"
    "\n"
    "102|1764777001|1764777070|1764777071|1|UNLIMITED|1|1|2|2|1-02:03:04|"
    "FAILED|debug|1001|100|n3\n"
    "105|1764777003|1764777004|1764777064|60|1|3||6|6||TIMEOUT|batch|0|0|"
    "n[4-6]\n"
    "107|1764777004|1764777004|1764777004|0|1|5|5|5|5|00:00:00|FAILED|batch|"
    "0|0|None assigned\n"
    "106|1764777003|1764777010|1764777020|10|Partition_Limit|1|1|2|2|"
    "00:00:00|CANCELLED by 0|debug|5|6|n7\n";

static FILE *open_text(const char *text)
{
	FILE *f = fmemopen((void *) (uintptr_t) text, strlen(text), "r");

	ck_assert_ptr_nonnull(f);
	return f;
}

START_TEST(test_sacct_good_dump)
{
	struct mesh_sacct_trace t;
	struct mesh_diag d;
	const struct mesh_swf_job *j;
	FILE *f = open_text(good_dump);
	int st;

	ck_assert_int_eq(
	    mesh_sacct_read(f, "dump", MESH_SACCT_NODES, &t, &d), 0);
	fclose(f);
	ck_assert_uint_eq(t.records, 9);
	ck_assert_uint_eq(t.steps, 2);
	ck_assert_uint_eq(t.unfinished, 1);
	ck_assert_uint_eq(t.never_started, 2); /* 103 cancelled, 107 refused */
	ck_assert_uint_eq(t.swf->n, 4);
	ck_assert(t.first_submit == 1764777000);
	/* submit order, ties by job number */
	ck_assert_int_eq(t.swf->jobs[0].id, 101);
	ck_assert_int_eq(t.swf->jobs[1].id, 102);
	ck_assert_int_eq(t.swf->jobs[2].id, 105);
	ck_assert_int_eq(t.swf->jobs[3].id, 106);
	j = &t.swf->jobs[0];
	ck_assert(j->submit == 1764777000 && j->wait == 5 && j->run == 60);
	ck_assert_int_eq(j->procs, 2);
	ck_assert_int_eq(j->req_procs, 2);
	ck_assert_double_eq_tol(j->avg_cpu, 10.5 / 4, 1e-12);
	ck_assert(j->req_time == 300);
	ck_assert_int_eq(j->status, 1);
	ck_assert_int_eq(j->user, 1000);
	ck_assert_int_eq(j->partition, 1);
	ck_assert_int_eq(j->line, 2);
	j = &t.swf->jobs[1];
	ck_assert(j->wait == 69 && j->run == 1 && j->req_time == -1);
	ck_assert_int_eq(j->status, 0);
	ck_assert_double_eq_tol(j->avg_cpu, (86400 + 7384) / 2.0, 1e-9);
	ck_assert_int_eq(j->partition, 2);
	ck_assert_int_eq(j->group, 100);
	j = &t.swf->jobs[2];
	ck_assert_int_eq(j->status, 0); /* TIMEOUT */
	ck_assert_int_eq(j->req_procs, -1);
	ck_assert(j->avg_cpu == -1 && j->req_time == 60);
	j = &t.swf->jobs[3];
	ck_assert_int_eq(j->status, 5);
	ck_assert(j->req_time == -1);
	ck_assert_uint_eq(t.n_partitions, 2);
	ck_assert_str_eq(t.partitions[0], "batch");
	ck_assert_str_eq(t.partitions[1], "debug");
	ck_assert_str_eq(mesh_sacct_state(0, &st), "COMPLETED");
	ck_assert_int_eq(st, 1);
	ck_assert_uint_eq(t.state_jobs[0], 1);
	ck_assert_uint_eq(t.state_jobs[1], 1);
	ck_assert_uint_eq(t.state_jobs[2], 1);
	ck_assert_uint_eq(t.state_jobs[8], 1);
	ck_assert_ptr_null(mesh_sacct_state(MESH_SACCT_STATES, &st));
	mesh_sacct_free(&t);
}
END_TEST

START_TEST(test_sacct_counts_cpus)
{
	struct mesh_sacct_trace t;
	struct mesh_diag d;
	FILE *f = open_text(good_dump);

	ck_assert_int_eq(mesh_sacct_read(f, "dump", MESH_SACCT_CPUS, &t, &d),
			 0);
	fclose(f);
	ck_assert_int_eq(t.swf->jobs[0].procs, 4);
	ck_assert_int_eq(t.swf->jobs[0].req_procs, 4);
	ck_assert_int_eq(t.swf->jobs[2].procs, 6);
	ck_assert_int_eq(t.swf->jobs[2].req_procs, 6);
	mesh_sacct_free(&t);
}
END_TEST

/* sacct's default spellings: JobID, Elapsed and Timelimit as durations,
 * times as local YYYY-MM-DDTHH:MM:SS, in any column order. */
START_TEST(test_sacct_other_spellings)
{
	static const char dump[] =
	    "state|jobid|elapsed|timelimit|nnodes|submit|start|end\n"
	    "COMPLETED|7|01:00:05|1-00:00:00|3|2026-12-03T10:00:00|"
	    "2026-12-03T10:00:30|2026-12-03T11:00:35\n"
	    "COMPLETED|8|00:00:09|30|1|2026-12-03T10:00:01|"
	    "2026-12-03T10:00:31|2026-12-03T10:00:40\n";
	struct mesh_sacct_trace t;
	struct mesh_diag d;
	FILE *f = open_text(dump);

	ck_assert_int_eq(
	    mesh_sacct_read(f, "dump", MESH_SACCT_NODES, &t, &d), 0);
	fclose(f);
	ck_assert_uint_eq(t.swf->n, 2);
	ck_assert(t.swf->jobs[0].run == 3605 && t.swf->jobs[0].wait == 30);
	ck_assert(t.swf->jobs[0].req_time == 86400);
	ck_assert(t.swf->jobs[1].submit - t.swf->jobs[0].submit == 1);
	ck_assert(t.swf->jobs[1].req_time == 1800);
	ck_assert_int_eq(t.swf->jobs[0].procs, 3);
	ck_assert_int_eq(t.swf->jobs[0].partition, -1);
	mesh_sacct_free(&t);
}
END_TEST

#define ROW(id, state) id "|100|110|170|60|5|2|2|4|4|00:01|" state "|b|1|1\n"

static const struct {
	const char *text;
	const char *where; /* the diagnostic's "file:line:field:" */
	const char *says;  /* a phrase of its message */
} bad_dumps[] = {
	{ "", "dump: empty", "no header" },
	{ "101 100 110 170\n", "dump:1:header:", "--parsable2" },
	{ "101|100|110|170|60|COMPLETED\n", "dump:1:header:", "--noheader" },
	{ "JobIDRaw|Submit|Start|End|State\n", "dump:1:header:",
	  "no NNodes field" },
	{ "JobIDRaw|Submit|Start|State|NNodes\n", "dump:1:header:",
	  "no End field" },
	{ HEADER "\n" ROW("1", "COMPLETED") "2|100|110|170|60|5|2\n",
	  "dump:3:line:", "7 fields, the header names 15" },
	{ HEADER "\n" ROW("1", "COMPLETED") ROW("x1", "COMPLETED"),
	  "dump:3:JobIDRaw:", "expected a job number, got \"x1\"" },
	{ HEADER "\n" ROW("1", "FINISHED"), "dump:2:State:",
	  "unknown job state \"FINISHED\"" },
	{ HEADER "\n" ROW("1", "CANCELLED+"), "dump:2:State:", "unknown job state" },
	{ HEADER "\n1|12/03-10:00|110|170|60|5|2|2|4|4|00:01|COMPLETED|b|1|1\n",
	  "dump:2:Submit:", "SLURM_TIME_FORMAT" },
	{ HEADER "\n1|100|110|Unknown|60|5|2|2|4|4|00:01|COMPLETED|b|1|1\n",
	  "dump:2:End:", "without an end time" },
	{ HEADER "\n1|Unknown|110|170|60|5|2|2|4|4|00:01|FAILED|b|1|1\n",
	  "dump:2:Submit:", "without a submit time" },
	{ HEADER "\n1|200|110|170|60|5|2|2|4|4|00:01|COMPLETED|b|1|1\n",
	  "dump:2:Start:", "out of order" },
	{ HEADER "\n1|100|110|170|1:00|5|2|2|4|4|00:01|COMPLETED|b|1|1\n",
	  "dump:2:ElapsedRaw:", "expected seconds" },
	{ HEADER "\n1|100|110|170|60|1-00:00:00|2|2|4|4|00:01|COMPLETED|b|1|1\n",
	  "dump:2:TimelimitRaw:", "expected minutes" },
	{ HEADER "\n1|100|110|170|60|5|0|2|4|4|00:01|COMPLETED|b|1|1\n",
	  "dump:2:NNodes:", "ran on no nodes" },
	{ HEADER "\n1|100|110|170|60|5|two|2|4|4|00:01|COMPLETED|b|1|1\n",
	  "dump:2:NNodes:", "expected a whole number" },
	{ HEADER "\n1|100|110|170|60|5|2|2|4|4|ten|COMPLETED|b|1|1\n",
	  "dump:2:TotalCPU:", "expected [D-][HH:]MM:SS" },
	{ HEADER "\n1|100|110|170|60|5|2|2|4|4|00:01|COMPLETED|b|-5|1\n",
	  "dump:2:UID:", "expected a whole number" },
	{ HEADER "\n" ROW("1", "COMPLETED") ROW("2", "FAILED") ROW("1", "FAILED"),
	  "dump:4:JobIDRaw:", "job 1 again (line 2)" },
	{ "JobID|Submit|Start|End|State|NNodes\n"
	  "5_1|100|110|170|COMPLETED|1\n",
	  "dump:2:JobID:", "use JobIDRaw" },
};

START_TEST(test_sacct_bad_dumps)
{
	struct mesh_sacct_trace t = { 0 };
	struct mesh_diag d;
	char buf[1024];
	FILE *f = fmemopen((void *) (uintptr_t) bad_dumps[_i].text,
			   strlen(bad_dumps[_i].text) ? strlen(bad_dumps[_i].text)
						      : 1,
			   "r");

	if (!*bad_dumps[_i].text)
		getc(f); /* an empty stream */
	ck_assert_int_eq(mesh_sacct_read(f, "dump", MESH_SACCT_NODES, &t, &d),
			 MESH_EPARSE);
	fclose(f);
	mesh_diag_format(&d, buf, sizeof(buf));
	ck_assert_msg(strstr(buf, bad_dumps[_i].where) == buf,
		      "case %d: \"%s\" does not start with \"%s\"", _i, buf,
		      bad_dumps[_i].where);
	ck_assert_msg(strstr(buf, bad_dumps[_i].says), "case %d: \"%s\"", _i,
		      buf);
	ck_assert_ptr_null(t.swf); /* nothing returned */
}
END_TEST

/* What mesh_swf_write_job writes, mesh_swf_read reads back unchanged. */
START_TEST(test_swf_write_reads_back)
{
	struct mesh_sacct_trace t;
	struct mesh_swf_trace *back;
	struct mesh_diag d;
	char *text = NULL;
	size_t len = 0, i;
	FILE *f = open_text(good_dump), *w = open_memstream(&text, &len);

	ck_assert_int_eq(
	    mesh_sacct_read(f, "dump", MESH_SACCT_NODES, &t, &d), 0);
	fclose(f);
	for (i = 0; i < t.swf->n; i++)
		ck_assert_int_eq(mesh_swf_write_job(w, &t.swf->jobs[i]), 0);
	fclose(w);
	f = open_text(text);
	ck_assert_int_eq(mesh_swf_read(f, "back", &back, &d), 0);
	fclose(f);
	ck_assert_uint_eq(back->n, t.swf->n);
	for (i = 0; i < back->n; i++) {
		const struct mesh_swf_job *a = &t.swf->jobs[i],
					  *b = &back->jobs[i];

		ck_assert_int_eq(a->id, b->id);
		ck_assert(a->submit == b->submit && a->wait == b->wait &&
			  a->run == b->run && a->req_time == b->req_time);
		ck_assert_double_eq_tol(a->avg_cpu, b->avg_cpu,
					1e-12 * (2 + a->avg_cpu));
		ck_assert_int_eq(a->procs, b->procs);
		ck_assert_int_eq(a->req_procs, b->req_procs);
		ck_assert_int_eq(a->status, b->status);
		ck_assert_int_eq(a->user, b->user);
		ck_assert_int_eq(a->group, b->group);
		ck_assert_int_eq(a->partition, b->partition);
		ck_assert_int_eq(b->prev_job, -1);
	}
	mesh_swf_free(back);
	mesh_sacct_free(&t);
	free(text);
}
END_TEST

/* Mutated dumps: read or refused with a located message, never a crash
 * (run under the sanitizers by make check-asan). */
START_TEST(test_sacct_mutations)
{
	char buf[sizeof(good_dump)];
	unsigned seed = 12345;
	int round, k;

	for (round = 0; round < 3000; round++) {
		struct mesh_sacct_trace t = { 0 };
		struct mesh_diag d;
		FILE *f;
		int rc;

		memcpy(buf, good_dump, sizeof(good_dump));
		for (k = 0; k < 1 + round % 4; k++) {
			seed = seed * 1103515245u + 12345u;
			buf[(seed >> 8) % (sizeof(good_dump) - 1)] =
			    "|\n0a.:-T "[(seed >> 20) % 8];
		}
		f = fmemopen(buf, strlen(buf), "r");
		rc = mesh_sacct_read(f, "m", round % 2 ? MESH_SACCT_CPUS
						       : MESH_SACCT_NODES,
				     &t, &d);
		fclose(f);
		if (rc) {
			ck_assert_int_eq(rc, MESH_EPARSE);
			ck_assert(d.message[0] && !strcmp(d.file, "m"));
		} else {
			ck_assert(t.swf->n <= t.records);
		}
		mesh_sacct_free(&t);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sacct");
	TCase *tc = tcase_create("read");

	tcase_add_test(tc, test_sacct_good_dump);
	tcase_add_test(tc, test_sacct_counts_cpus);
	tcase_add_test(tc, test_sacct_other_spellings);
	tcase_add_loop_test(tc, test_sacct_bad_dumps, 0,
			    sizeof(bad_dumps) / sizeof(bad_dumps[0]));
	tcase_add_test(tc, test_swf_write_reads_back);
	tcase_add_test(tc, test_sacct_mutations);
	suite_add_tcase(s, tc);
	return tu_run(s);
}

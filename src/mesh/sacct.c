/* sacct.c - sacct --parsable2 records to SWF jobs, with line/field
 * diagnostics. */
#include "sacct.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "error.h"
#include "input.h"

/* The columns read; each may be spelled as any of its names (sacct's
 * header spelling, matched without regard to case). */
enum col {
	C_ID,
	C_SUBMIT,
	C_START,
	C_END,
	C_STATE,
	C_ELAPSED,
	C_LIMIT,
	C_NNODES,
	C_REQNODES,
	C_ALLOCCPUS,
	C_REQCPUS,
	C_TOTALCPU,
	C_PARTITION,
	C_UID,
	C_GID,
	C_NODELIST,
	N_COLS
};

static const char *const col_names[N_COLS][2] = {
	[C_ID] = { "JobIDRaw", "JobID" },
	[C_SUBMIT] = { "Submit", NULL },
	[C_START] = { "Start", NULL },
	[C_END] = { "End", NULL },
	[C_STATE] = { "State", NULL },
	[C_ELAPSED] = { "ElapsedRaw", "Elapsed" },
	[C_LIMIT] = { "TimelimitRaw", "Timelimit" },
	[C_NNODES] = { "NNodes", NULL },
	[C_REQNODES] = { "ReqNodes", NULL },
	[C_ALLOCCPUS] = { "AllocCPUS", NULL },
	[C_REQCPUS] = { "ReqCPUS", NULL },
	[C_TOTALCPU] = { "TotalCPU", NULL },
	[C_PARTITION] = { "Partition", NULL },
	[C_UID] = { "UID", NULL },
	[C_GID] = { "GID", NULL },
	[C_NODELIST] = { "NodeList", NULL },
};

static const struct {
	const char *name;
	int swf;
} final_states[MESH_SACCT_STATES] = {
	{ "COMPLETED", 1 }, { "FAILED", 0 },        { "TIMEOUT", 0 },
	{ "NODE_FAIL", 0 }, { "OUT_OF_MEMORY", 0 }, { "BOOT_FAIL", 0 },
	{ "DEADLINE", 0 },  { "PREEMPTED", 0 },     { "CANCELLED", 5 },
};

/* States of a job that has not finished (or of an earlier run of a
 * requeued one): counted, not converted. */
static const char *const open_states[] = {
	"PENDING",      "RUNNING",      "SUSPENDED",    "REQUEUED",
	"REQUEUE_FED",  "REQUEUE_HOLD", "RESIZING",     "REVOKED",
	"SPECIAL_EXIT", "STOPPED",      "SIGNALING",    "STAGE_OUT",
	"CONFIGURING",  "COMPLETING",   "RESV_DEL_HOLD"
};

const char *mesh_sacct_state(int k, int *swf_status)
{
	if (k < 0 || k >= MESH_SACCT_STATES)
		return NULL;
	if (swf_status)
		*swf_status = final_states[k].swf;
	return final_states[k].name;
}

struct reader {
	const char *name;
	long line;
	enum mesh_sacct_count count;
	int col[N_COLS];     /* field index of each column, -1 if absent */
	int spelled[N_COLS]; /* which of its names the header used */
	int n_fields;
	char **field; /* the current record's fields (into its line) */
	struct mesh_diag *d;
};

static const char *col_label(const struct reader *r, enum col c)
{
	return col_names[c][r->spelled[c]];
}

static int fail(const struct reader *r, enum col c, const char *fmt,
		const char *text)
{
	char q[4 * 40 + 1];

	mesh_diag_quote(text, strlen(text) > 40 ? 40 : strlen(text), q,
			sizeof(q));
	return mesh_diag_set(r->d, MESH_EPARSE, r->name, r->line,
			     c < N_COLS ? col_label(r, c) : "line", fmt, q);
}

/* Split s at '|' in place (the newline dropped); the number of fields. */
static int split(char *s, char ***fields, size_t *cap)
{
	size_t n = 0;
	char *p = s;

	s[strcspn(s, "\r\n")] = '\0';
	for (;;) {
		if (n == *cap) {
			size_t ncap = *cap ? *cap * 2 : 32;
			char **nf = realloc(*fields, ncap * sizeof(*nf));

			if (!nf)
				return -1;
			*fields = nf;
			*cap = ncap;
		}
		(*fields)[n++] = p;
		p = strchr(p, '|');
		if (!p)
			break;
		*p++ = '\0';
	}
	return n > INT_MAX ? -1 : (int) n;
}

static int read_header(struct reader *r, char **fields, int n)
{
	int i, c, k;

	for (c = 0; c < N_COLS; c++)
		r->col[c] = -1;
	for (i = 0; i < n; i++)
		for (c = 0; c < N_COLS; c++)
			for (k = 0; k < 2; k++)
				if (col_names[c][k] &&
				    !strcasecmp(fields[i], col_names[c][k]) &&
				    (r->col[c] < 0 || k < r->spelled[c])) {
					r->col[c] = i;
					r->spelled[c] = k;
				}
	r->n_fields = n;
	if (r->col[C_ID] < 0 && r->col[C_SUBMIT] < 0 && n > 0 &&
	    isdigit((unsigned char) fields[0][0]))
		return mesh_diag_set(
		    r->d, MESH_EPARSE, r->name, 1, "header",
		    "the first line is a record, not the header that names "
		    "the fields: run sacct without -n/--noheader");
	for (c = 0; c < N_COLS; c++) {
		int needed = c == C_ID || c == C_SUBMIT || c == C_START ||
			     c == C_END || c == C_STATE ||
			     c == (r->count == MESH_SACCT_NODES ? C_NNODES
								: C_ALLOCCPUS);

		if (needed && r->col[c] < 0)
			return mesh_diag_set(
			    r->d, MESH_EPARSE, r->name, 1, "header",
			    "no %s field (sacct2swf(1) gives the sacct "
			    "command and its --format)",
			    col_names[c][0]);
	}
	return 0;
}

static const char *text(const struct reader *r, enum col c)
{
	return r->col[c] < 0 ? NULL : r->field[r->col[c]];
}

static int missing(const char *s)
{
	return !s || !*s || !strcasecmp(s, "Unknown") || !strcasecmp(s, "None");
}

/* A count or id: a plain non-negative decimal integer. */
static int parse_count(const char *s, long *v)
{
	char *end;

	if (!isdigit((unsigned char) *s))
		return -1;
	errno = 0;
	*v = strtol(s, &end, 10);
	return *end || errno ? -1 : 0;
}

/* Seconds since the epoch (SLURM_TIME_FORMAT=%s) or sacct's default
 * YYYY-MM-DDTHH:MM:SS, which is local time (TZ). */
static int parse_time(const char *s, double *t)
{
	struct tm tm;
	long v;
	char tail;

	if (!parse_count(s, &v)) {
		*t = (double) v;
		return 0;
	}
	memset(&tm, 0, sizeof(tm));
	if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%c", &tm.tm_year, &tm.tm_mon,
		   &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec,
		   &tail) != 6 ||
	    strlen(s) != 19 || tm.tm_mon < 1 || tm.tm_mon > 12 ||
	    tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 ||
	    tm.tm_min > 59 || tm.tm_sec > 60)
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	tm.tm_isdst = -1;
	*t = (double) mktime(&tm);
	return *t == -1 ? -1 : 0;
}

/* [D-]HH:MM:SS, MM:SS or MM:SS.mmm (sacct's Elapsed, Timelimit and
 * TotalCPU), in seconds. */
static int parse_duration(const char *s, double *v)
{
	long days = 0, part[3];
	int n = 0;
	const char *p = s;
	char *end;
	double frac = 0;

	if (strchr(s, '-')) {
		if (!isdigit((unsigned char) *s))
			return -1;
		days = strtol(s, &end, 10);
		if (*end != '-')
			return -1;
		p = end + 1;
	}
	for (;;) {
		if (!isdigit((unsigned char) *p) || n == 3)
			return -1;
		part[n++] = strtol(p, &end, 10);
		if (*end == ':') {
			p = end + 1;
			continue;
		}
		if (*end == '.' && isdigit((unsigned char) end[1])) {
			frac = strtod(end, &end);
			if (*end)
				return -1;
		} else if (*end) {
			return -1;
		}
		break;
	}
	if (n == 1)
		return -1;
	*v = (double) days * 86400 + frac +
	     (n == 3 ? part[0] * 3600.0 + part[1] * 60.0 + (double) part[2]
		     : part[0] * 60.0 + (double) part[1]);
	return 0;
}

/* An optional count: -1 if the column is absent or the value missing. */
static int opt_count(const struct reader *r, enum col c, long *v)
{
	const char *s = text(r, c);

	*v = -1;
	if (missing(s))
		return 0;
	if (parse_count(s, v))
		return fail(r, c, "expected a whole number, got \"%s\"", s);
	return 0;
}

static int job_time(const struct reader *r, enum col c, double *t)
{
	const char *s = text(r, c);

	*t = -1;
	if (missing(s))
		return 0;
	if (parse_time(s, t))
		return fail(r, c,
			    "expected seconds since the epoch "
			    "(SLURM_TIME_FORMAT=%%s) or YYYY-MM-DDTHH:MM:SS, "
			    "got \"%s\"",
			    s);
	return 0;
}

/* The requested time limit in seconds; -1 for none (UNLIMITED). */
static int time_limit(const struct reader *r, double *limit)
{
	const char *s = text(r, C_LIMIT);
	long minutes;

	*limit = -1;
	if (missing(s) || !strcasecmp(s, "UNLIMITED") ||
	    !strcasecmp(s, "Partition_Limit") || !strcasecmp(s, "INVALID"))
		return 0;
	if (r->spelled[C_LIMIT] == 0) {
		if (parse_count(s, &minutes))
			return fail(r, C_LIMIT,
				    "expected minutes or UNLIMITED, got \"%s\"",
				    s);
		*limit = 60.0 * (double) minutes;
		return 0;
	}
	if (!parse_count(s, &minutes)) /* Timelimit of minutes alone */
		*limit = 60.0 * (double) minutes;
	else if (parse_duration(s, limit))
		return fail(r, C_LIMIT,
			    "expected [D-]HH:MM:SS or UNLIMITED, got \"%s\"",
			    s);
	return 0;
}

/* State's first word ("CANCELLED by 1000" -> CANCELLED): the index of a
 * final state, -1 for an open one, -2 for a word not known. */
static int state_index(const char *s)
{
	size_t len = strcspn(s, " "), i;

	for (i = 0; i < MESH_SACCT_STATES; i++)
		if (strlen(final_states[i].name) == len &&
		    !strncasecmp(s, final_states[i].name, len))
			return (int) i;
	for (i = 0; i < sizeof(open_states) / sizeof(*open_states); i++)
		if (strlen(open_states[i]) == len &&
		    !strncasecmp(s, open_states[i], len))
			return -1;
	return -2;
}

static int partition_number(struct mesh_sacct_trace *t, const char *name,
			    long *num)
{
	size_t i;
	char **np;

	*num = -1;
	if (missing(name))
		return 0;
	for (i = 0; i < t->n_partitions; i++)
		if (!strcmp(t->partitions[i], name)) {
			*num = (long) i + 1;
			return 0;
		}
	np = realloc(t->partitions, (t->n_partitions + 1) * sizeof(*np));
	if (!np)
		return MESH_ENOMEM;
	t->partitions = np;
	np[t->n_partitions] = strdup(name);
	if (!np[t->n_partitions])
		return MESH_ENOMEM;
	*num = (long) ++t->n_partitions;
	return 0;
}

/* One record: 1 with *job filled, 0 if counted and skipped, or an
 * error. */
static int read_record(struct reader *r, struct mesh_sacct_trace *t,
		       struct mesh_swf_job *job)
{
	const char *id = text(r, C_ID), *state = text(r, C_STATE);
	double submit, start, end, cpu;
	long nodes, cpus, v;
	int k, rc;

	if (strchr(id, '.')) {
		t->steps++;
		return 0;
	}
	if (parse_count(id, &job->id))
		return fail(r, C_ID,
			    r->spelled[C_ID]
				? "expected a job number, got \"%s\" (an "
				  "array or heterogeneous job: use JobIDRaw)"
				: "expected a job number, got \"%s\"",
			    id);
	k = state_index(state);
	if (k == -2)
		return fail(r, C_STATE, "unknown job state \"%s\"", state);
	if (k == -1) {
		t->unfinished++;
		return 0;
	}
	rc = job_time(r, C_SUBMIT, &submit);
	rc = rc ? rc : job_time(r, C_START, &start);
	rc = rc ? rc : job_time(r, C_END, &end);
	if (rc)
		return rc;
	if (submit < 0)
		return fail(r, C_SUBMIT,
			    "a finished job without a submit time "
			    "(\"%s\")",
			    text(r, C_SUBMIT));
	/* A job refused at submission has a start time (its submit time)
	 * but was given no nodes. */
	if (start <= 0 || (text(r, C_NODELIST) &&
			   !strcasecmp(text(r, C_NODELIST), "None assigned"))) {
		t->never_started++;
		return 0;
	}
	if (end < 0)
		return fail(r, C_END,
			    "a finished job without an end time "
			    "(\"%s\")",
			    text(r, C_END));
	if (start < submit || end < start)
		return fail(r, start < submit ? C_START : C_END,
			    "out of order: submit, start and end must not "
			    "decrease (\"%s\")",
			    text(r, start < submit ? C_START : C_END));
	job->submit = submit;
	job->wait = start - submit;
	job->run = end - start;
	if (r->col[C_ELAPSED] >= 0) {
		const char *s = text(r, C_ELAPSED);
		int bad = r->spelled[C_ELAPSED] == 0
			      ? parse_count(s, &v)
			      : parse_duration(s, &job->run);

		if (bad)
			return fail(r, C_ELAPSED,
				    r->spelled[C_ELAPSED] == 0
					? "expected seconds, got \"%s\""
					: "expected [D-]HH:MM:SS, got \"%s\"",
				    s);
		if (r->spelled[C_ELAPSED] == 0)
			job->run = (double) v;
	}
	if ((rc = opt_count(r, C_NNODES, &nodes)) ||
	    (rc = opt_count(r, C_ALLOCCPUS, &cpus)))
		return rc;
	if (r->count == MESH_SACCT_NODES) {
		job->procs = nodes;
		rc = opt_count(r, C_REQNODES, &job->req_procs);
	} else {
		job->procs = cpus;
		rc = opt_count(r, C_REQCPUS, &job->req_procs);
	}
	if (rc)
		return rc;
	if (job->procs <= 0)
		return fail(
		    r, r->count == MESH_SACCT_NODES ? C_NNODES : C_ALLOCCPUS,
		    "a job that ran on no %s",
		    r->count == MESH_SACCT_NODES ? "nodes" : "CPUs");
	job->avg_cpu = -1;
	if (!missing(text(r, C_TOTALCPU)) && cpus > 0) {
		if (parse_duration(text(r, C_TOTALCPU), &cpu))
			return fail(r, C_TOTALCPU,
				    "expected [D-][HH:]MM:SS[.mmm], got \"%s\"",
				    text(r, C_TOTALCPU));
		job->avg_cpu = cpu / (double) cpus;
	}
	job->used_mem = job->req_mem = job->think = -1;
	if ((rc = time_limit(r, &job->req_time)))
		return rc;
	job->status = final_states[k].swf;
	if ((rc = opt_count(r, C_UID, &job->user)) ||
	    (rc = opt_count(r, C_GID, &job->group)))
		return rc;
	job->app = job->queue = job->prev_job = -1;
	rc = partition_number(t, text(r, C_PARTITION), &job->partition);
	if (rc)
		return mesh_diag_set(r->d, rc, r->name, r->line, "",
				     "out of memory");
	t->state_jobs[k]++;
	job->line = r->line;
	return 1;
}

static int by_id(const void *a, const void *b)
{
	const struct mesh_swf_job *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

static int by_submit(const void *a, const void *b)
{
	const struct mesh_swf_job *x = a, *y = b;

	if (x->submit != y->submit)
		return x->submit < y->submit ? -1 : 1;
	return by_id(a, b);
}

static int finish(struct reader *r, struct mesh_sacct_trace *t)
{
	struct mesh_swf_trace *tr = t->swf;
	size_t i;

	qsort(tr->jobs, tr->n, sizeof(*tr->jobs), by_id);
	for (i = 1; i < tr->n; i++)
		if (tr->jobs[i].id == tr->jobs[i - 1].id) {
			long a = tr->jobs[i - 1].line, b = tr->jobs[i].line;

			return mesh_diag_set(
			    r->d, MESH_EPARSE, r->name, a > b ? a : b,
			    col_label(r, C_ID),
			    "job %ld again (line %ld): one record per job; "
			    "sacct -D lists each run of a requeued job",
			    tr->jobs[i].id, a < b ? a : b);
		}
	qsort(tr->jobs, tr->n, sizeof(*tr->jobs), by_submit);
	t->first_submit = tr->n ? tr->jobs[0].submit : 0;
	return 0;
}

int mesh_sacct_read(FILE *f, const char *name, enum mesh_sacct_count count,
		    struct mesh_sacct_trace *out, struct mesh_diag *d)
{
	struct mesh_sacct_trace t = { 0 };
	struct reader r = { 0 };
	size_t bufcap = 0, fcap = 0, jcap = 0;
	char *buf = NULL;
	long len;
	int rc = 0, n;

	mesh_diag_clear(d);
	r.name = name;
	r.count = count;
	r.d = d;
	t.swf = calloc(1, sizeof(*t.swf));
	if (!t.swf)
		return MESH_ENOMEM;
	t.swf->max_nodes = t.swf->max_procs = -1;
	flockfile(f);
	while (!rc && (len = mesh__read_line(f, &buf, &bufcap)) > 0) {
		struct mesh_swf_job job;

		r.line++;
		if (memchr(buf, '\0', (size_t) len)) {
			rc = mesh_diag_set(d, MESH_EPARSE, name, r.line, "line",
					   "NUL byte in line");
			break;
		}
		if (buf[strspn(buf, " \t\r\n")] == '\0')
			continue;
		n = split(buf, &r.field, &fcap);
		if (n < 0) {
			rc = MESH_ENOMEM;
			break;
		}
		if (r.line == 1) {
			if (n == 1)
				rc = mesh_diag_set(
				    d, MESH_EPARSE, name, 1, "header",
				    "no '|' between fields: run sacct with "
				    "--parsable2");
			else
				rc = read_header(&r, r.field, n);
			continue;
		}
		if (n != r.n_fields) {
			rc = mesh_diag_set(
			    d, MESH_EPARSE, name, r.line, "line",
			    "%d fields, the header names %d (a truncated "
			    "line, or a '|' inside a field)",
			    n, r.n_fields);
			break;
		}
		t.records++;
		rc = read_record(&r, &t, &job);
		if (rc == 1)
			rc = mesh__swf_push_job(t.swf, &jcap, &job);
	}
	funlockfile(f);
	if (!rc && (len < 0 || ferror(f)))
		rc = mesh_diag_set(d, len < 0 ? MESH_ENOMEM : MESH_EIO, name,
				   r.line, "", "read error after line %ld",
				   r.line);
	if (!rc && r.line == 0)
		rc = mesh_diag_set(d, MESH_EPARSE, name, 0, "",
				   "empty: no header and no records");
	if (rc == MESH_ENOMEM && d && !d->message[0])
		mesh_diag_set(d, rc, name, r.line, "", "out of memory");
	if (!rc)
		rc = finish(&r, &t);
	free(buf);
	free(r.field);
	if (rc) {
		mesh_sacct_free(&t);
		return rc;
	}
	*out = t;
	return 0;
}

int mesh_sacct_load(const char *path, enum mesh_sacct_count count,
		    struct mesh_sacct_trace *out, struct mesh_diag *d)
{
	FILE *f;
	int rc = mesh__open_input(path, "an sacct dump", &f, d);

	if (rc)
		return rc;
	rc = mesh_sacct_read(f, path, count, out, d);
	fclose(f);
	return rc;
}

void mesh_sacct_free(struct mesh_sacct_trace *t)
{
	size_t i;

	if (!t)
		return;
	mesh_swf_free(t->swf);
	for (i = 0; i < t->n_partitions; i++)
		free(t->partitions[i]);
	free(t->partitions);
	memset(t, 0, sizeof(*t));
}

/* swf.c - Standard Workload Format reader with line/field diagnostics. */
#include "swf.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "input.h"

static const char *const field_names[MESH_SWF_FIELDS] = {
	"job_number",   "submit_time",   "wait_time", "run_time", "alloc_procs",
	"avg_cpu_time", "used_memory",   "req_procs", "req_time", "req_memory",
	"status",       "user_id",       "group_id",  "app_id",   "queue",
	"partition",    "preceding_job", "think_time"
};

/* Fields that may carry fractions: times, CPU time, memory. */
static const unsigned char field_is_real[MESH_SWF_FIELDS] = {
	0, 1, 1, 1, 0, 1, 1, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1
};

const char *mesh_swf_field_name(int i)
{
	return i >= 1 && i <= MESH_SWF_FIELDS ? field_names[i - 1] : "?";
}

static int parse_field(const char **p, int i, double *v, struct mesh_diag *d)
{
	const char *s = *p;
	char *end, q[4 * 40 + 1];
	size_t len;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '\0' || *s == '\n' || *s == '\r')
		return mesh_diag_set(
		    d, MESH_EPARSE, NULL, 0, field_names[i],
		    "missing field %d of %d (a job line has 18 fields)", i + 1,
		    MESH_SWF_FIELDS);
	len = strcspn(s, " \t\r\n");
	errno = 0;
	*v = strtod(s, &end);
	/* What is echoed is escaped: a binary file's bytes reach no
	 * terminal as they are. */
	mesh_diag_quote(s, len > 40 ? 40 : len, q, sizeof(q));
	if (end != s + len || errno || !isfinite(*v))
		return mesh_diag_set(d, MESH_EPARSE, NULL, 0, field_names[i],
				     "expected a number, got \"%s\"", q);
	if (!field_is_real[i] && (*v != floor(*v) || fabs(*v) > 9.0e15))
		return mesh_diag_set(d, MESH_EPARSE, NULL, 0, field_names[i],
				     "expected an integer, got \"%s\"", q);
	if (*v < 0 && *v != -1)
		return mesh_diag_set(
		    d, MESH_EPARSE, NULL, 0, field_names[i],
		    "negative value %s (only -1, meaning missing, is allowed)",
		    q);
	*p = s + len;
	return 0;
}

int mesh_swf_parse_line(const char *line, struct mesh_swf_job *job,
			struct mesh_diag *d)
{
	double f[MESH_SWF_FIELDS];
	const char *p = line;
	int i, rc;

	for (i = 0; i < MESH_SWF_FIELDS; i++) {
		rc = parse_field(&p, i, &f[i], d);
		if (rc)
			return rc;
	}
	while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
		p++;
	if (*p) {
		size_t n = strcspn(p, "\r\n"); /* no raw newline in quotes */
		char q[4 * 20 + 1];

		return mesh_diag_set(
		    d, MESH_EPARSE, NULL, 0, "line",
		    "more than 18 fields (extra \"%s\")",
		    mesh_diag_quote(p, n > 20 ? 20 : n, q, sizeof(q)));
	}
	job->id = (long) f[0];
	job->submit = f[1];
	job->wait = f[2];
	job->run = f[3];
	job->procs = (long) f[4];
	job->avg_cpu = f[5];
	job->used_mem = f[6];
	job->req_procs = (long) f[7];
	job->req_time = f[8];
	job->req_mem = f[9];
	job->status = (long) f[10];
	job->user = (long) f[11];
	job->group = (long) f[12];
	job->app = (long) f[13];
	job->queue = (long) f[14];
	job->partition = (long) f[15];
	job->prev_job = (long) f[16];
	job->think = f[17];
	return 0;
}

/* "; MaxProcs: 128" style header lines. */
static void parse_header(const char *line, struct mesh_swf_trace *tr)
{
	const char *p = line + 1;
	long *dst = NULL;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!strncmp(p, "MaxNodes:", 9))
		dst = &tr->max_nodes, p += 9;
	else if (!strncmp(p, "MaxProcs:", 9))
		dst = &tr->max_procs, p += 9;
	if (dst) {
		long v = strtol(p, NULL, 10);

		if (v > 0)
			*dst = v;
	}
}

static int push_job(struct mesh_swf_trace *tr, size_t *cap,
		    const struct mesh_swf_job *job)
{
	if (tr->n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 1024;
		struct mesh_swf_job *nj = realloc(tr->jobs, ncap * sizeof(*nj));

		if (!nj)
			return MESH_ENOMEM;
		tr->jobs = nj;
		*cap = ncap;
	}
	tr->jobs[tr->n++] = *job;
	return 0;
}

static int blank(const char *s)
{
	while (*s && isspace((unsigned char) *s))
		s++;
	return *s == '\0';
}

/* Read one line of any length into *buf; 0 at EOF, -1 on error. */
static long read_line(FILE *f, char **buf, size_t *cap)
{
	size_t len = 0;
	int c;

	while ((c = getc(f)) != EOF) {
		if (len + 2 > *cap) {
			size_t ncap = *cap ? *cap * 2 : 256;
			char *nb = realloc(*buf, ncap);

			if (!nb)
				return -1;
			*buf = nb;
			*cap = ncap;
		}
		(*buf)[len++] = (char) c;
		if (c == '\n')
			break;
	}
	if (*buf)
		(*buf)[len] = '\0';
	return (long) len;
}

int mesh_swf_read(FILE *f, const char *name, struct mesh_swf_trace **out,
		  struct mesh_diag *d)
{
	struct mesh_swf_trace *tr;
	struct mesh_swf_job job;
	size_t cap = 0, bufcap = 0;
	char *buf = NULL;
	long lineno = 0, len;
	int rc = 0;

	tr = calloc(1, sizeof(*tr));
	if (!tr)
		return MESH_ENOMEM;
	tr->max_nodes = tr->max_procs = -1;
	while ((len = read_line(f, &buf, &bufcap)) > 0) {
		lineno++;
		if (lineno == 1 && len >= 2 && (unsigned char) buf[0] == 0x1f &&
		    (unsigned char) buf[1] == 0x8b) {
			rc = mesh_diag_set(d, MESH_EPARSE, name, 1, "",
					   "gzip-compressed data: decompress "
					   "it first (gunzip, or zcat FILE | "
					   "meshsim ... /dev/stdin)");
			break;
		}
		if (memchr(buf, '\0', (size_t) len)) {
			rc = mesh_diag_set(d, MESH_EPARSE, name, lineno, "line",
					   "NUL byte in line");
			break;
		}
		if (buf[strspn(buf, " \t")] == ';') {
			parse_header(buf + strspn(buf, " \t"), tr);
			continue;
		}
		if (blank(buf))
			continue;
		rc = mesh_swf_parse_line(buf, &job, d);
		if (rc) {
			if (d) {
				snprintf(d->file, sizeof(d->file), "%s", name);
				d->line = lineno;
			}
			break;
		}
		job.line = lineno;
		rc = push_job(tr, &cap, &job);
		if (rc)
			break;
	}
	if (!rc && (len < 0 || ferror(f)))
		rc = mesh_diag_set(d, len < 0 ? MESH_ENOMEM : MESH_EIO, name,
				   lineno, "", "read error after line %ld",
				   lineno);
	free(buf);
	if (rc) {
		mesh_swf_free(tr);
		return rc;
	}
	*out = tr;
	return 0;
}

int mesh_swf_load(const char *path, struct mesh_swf_trace **out,
		  struct mesh_diag *d)
{
	FILE *f;
	int rc = mesh__open_input(path, "a trace file", &f, d);

	if (rc)
		return rc;
	rc = mesh_swf_read(f, path, out, d);
	fclose(f);
	return rc;
}

void mesh_swf_free(struct mesh_swf_trace *tr)
{
	if (!tr)
		return;
	free(tr->jobs);
	free(tr);
}

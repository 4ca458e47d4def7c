/* swf.c - Standard Workload Format reader with line/field diagnostics. */
#include "swf.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
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

/* The length of the field at s if it is a plain decimal integer of at
 * most 15 digits (exact in a double), its value in *v as strtod would
 * give it; else 0.  Almost every SWF field is one, and strtod costs
 * several times more. */
static size_t plain_integer(const char *s, double *v)
{
	size_t i = *s == '-', digits;
	uint64_t u = 0;

	for (digits = 0; s[i] >= '0' && s[i] <= '9'; i++, digits++)
		u = u * 10 + (uint64_t) (s[i] - '0');
	if (!digits || digits > 15 ||
	    !(s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n' ||
	      s[i] == '\0'))
		return 0;
	*v = *s == '-' ? -(double) u : (double) u;
	return i;
}

enum field_fault { NOT_A_NUMBER, NOT_AN_INTEGER, NEGATIVE };

/* The fault of field i, whose text is s[0..len), with the text escaped:
 * a binary file's bytes reach no terminal as they are.  Quoted only
 * here, on the way out, not for every field read. */
static int field_error(struct mesh_diag *d, int i, const char *s, size_t len,
		       enum field_fault f)
{
	char q[4 * 40 + 1];

	mesh_diag_quote(s, len > 40 ? 40 : len, q, sizeof(q));
	if (f == NOT_A_NUMBER)
		return mesh_diag_set(d, MESH_EPARSE, NULL, 0, field_names[i],
				     "expected a number, got \"%s\"", q);
	if (f == NOT_AN_INTEGER)
		return mesh_diag_set(d, MESH_EPARSE, NULL, 0, field_names[i],
				     "expected an integer, got \"%s\"", q);
	return mesh_diag_set(
	    d, MESH_EPARSE, NULL, 0, field_names[i],
	    "negative value %s (only -1, meaning missing, is allowed)", q);
}

static int parse_field(const char **p, int i, double *v, struct mesh_diag *d)
{
	const char *s = *p;
	char *end;
	size_t len;
	int bad = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '\0' || *s == '\n' || *s == '\r')
		return mesh_diag_set(
		    d, MESH_EPARSE, NULL, 0, field_names[i],
		    "missing field %d of %d (a job line has 18 fields)", i + 1,
		    MESH_SWF_FIELDS);
	len = plain_integer(s, v);
	if (!len) {
		len = strcspn(s, " \t\r\n");
		errno = 0;
		*v = strtod(s, &end);
		bad = end != s + len || errno || !isfinite(*v);
	}
	if (bad)
		return field_error(d, i, s, len, NOT_A_NUMBER);
	if (!field_is_real[i] && (*v != floor(*v) || fabs(*v) > 9.0e15))
		return field_error(d, i, s, len, NOT_AN_INTEGER);
	if (*v < 0 && *v != -1)
		return field_error(d, i, s, len, NEGATIVE);
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

int mesh__swf_push_job(struct mesh_swf_trace *tr, size_t *cap,
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
	flockfile(f);
	while ((len = mesh__read_line(f, &buf, &bufcap)) > 0) {
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
		rc = mesh__swf_push_job(tr, &cap, &job);
		if (rc)
			break;
	}
	funlockfile(f);
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

int mesh_swf_write_job(FILE *f, const struct mesh_swf_job *j)
{
	int n = fprintf(f,
			"%ld %.15g %.15g %.15g %ld %.15g %.15g %ld %.15g %.15g "
			"%ld %ld %ld %ld %ld %ld %ld %.15g\n",
			j->id, j->submit, j->wait, j->run, j->procs, j->avg_cpu,
			j->used_mem, j->req_procs, j->req_time, j->req_mem,
			j->status, j->user, j->group, j->app, j->queue,
			j->partition, j->prev_job, j->think);

	return n < 0 ? MESH_EIO : 0;
}

void mesh_swf_free(struct mesh_swf_trace *tr)
{
	if (!tr)
		return;
	free(tr->jobs);
	free(tr);
}

/* jobattrs.c - the job-attribute sidecar (see jobattrs.h). */
#include "jobattrs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "input.h"

enum column {
	COL_ID,
	COL_IO,
	COL_VOLUME,
	COL_COMM,
	COL_SHAPE,
	COL_COMPUTE,
	COL_CHECKPOINT,
	COL_COMM_SHARE,
	N_COLUMNS
};

static const char *const col_names[N_COLUMNS] = {
	"job_id", "io_intensity",  "io_volume",        "comm",
	"shape",  "compute_phase", "checkpoint_phase", "comm_share",
};

#define MAX_FIELDS 16

struct reader {
	const char *name;
	long line;
	int ncol;
	enum column col[MAX_FIELDS];
	struct mesh_job_attrs *s;
	size_t cap;
	struct mesh_diag *d;
};

/* Splits line at commas (in place); trailing "\r\n" dropped; returns the
 * field count, or -1 if there are more than MAX_FIELDS. */
static int split(char *line, char **field)
{
	int n = 0;
	char *p = line;

	line[strcspn(line, "\r\n")] = '\0';
	for (;;) {
		if (n == MAX_FIELDS)
			return -1;
		field[n++] = p;
		p = strchr(p, ',');
		if (!p)
			return n;
		*p++ = '\0';
	}
}

static int is_blank_or_comment(const char *l)
{
	l += strspn(l, " \t\r\n");
	return !*l || *l == '#';
}

static int fail(struct reader *r, const char *field, const char *fmt,
		const char *arg)
{
	return mesh_diag_set(r->d, MESH_EPARSE, r->name, r->line, field, fmt,
			     arg);
}

static int parse_header(struct reader *r, char *line)
{
	char *f[MAX_FIELDS];
	int n = split(line, f), i, c, seen = 0;

	if (n < 0)
		return fail(r, "header", "more than %s columns", "16");
	for (i = 0; i < n; i++) {
		for (c = 0; c < N_COLUMNS && strcmp(f[i], col_names[c]); c++)
			;
		if (c == N_COLUMNS)
			return fail(
			    r, "header",
			    "unknown column \"%.64s\" (expected job_id, "
			    "io_intensity, io_volume, comm, shape, "
			    "compute_phase, checkpoint_phase, comm_share)",
			    f[i]);
		if (seen & (1 << c))
			return fail(r, "header", "column \"%s\" given twice",
				    col_names[c]);
		seen |= 1 << c;
		r->col[i] = (enum column) c;
	}
	if (!(seen & (1 << COL_ID)))
		return fail(r, "header", "no %s column", "job_id");
	r->ncol = n;
	return 0;
}

/* A number >= lo (> lo if strict). */
static int parse_number(struct reader *r, const char *s, enum column c,
			double lo, int strict, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end || errno || v != v || v < lo ||
	    (strict && v == lo) || v > 1e15)
		return fail(r, col_names[c],
			    strict ? "expected a number > 0, got \"%.64s\""
				   : "expected a number >= 0, got \"%.64s\"",
			    s);
	*out = v;
	return 0;
}

/* Parser of hints.h: the column is the field, the message is theirs. */
static int hint_field(struct reader *r, enum column c, int rc)
{
	char msg[sizeof(r->d->message)];

	if (!rc)
		return 0;
	snprintf(msg, sizeof(msg), "%s", r->d ? r->d->message : "");
	return mesh_diag_set(r->d, MESH_EPARSE, r->name, r->line, col_names[c],
			     "%s", msg);
}

/* "pairs:S>R S>R ...": directed rank pairs, separated by blanks. */
static int parse_pairs(struct reader *r, const char *v, struct mesh_job_attr *a)
{
	size_t n = 0, cap = 0;
	uint32_t *p = NULL, *np;
	unsigned long s, d;
	char *end, tok[64];
	int len;

	while (*v == ' ')
		v++;
	while (*v) {
		len = (int) strcspn(v, " ");
		snprintf(tok, sizeof(tok), "%.*s", len, v);
		errno = 0;
		s = strtoul(v, &end, 10);
		if (end == v || *end != '>' || *v == '-' || errno ||
		    s > 1u << 22)
			goto bad;
		v = end + 1;
		d = strtoul(v, &end, 10);
		if (end == v || (*end && *end != ' ') || *v == '-' || errno ||
		    d > 1u << 22)
			goto bad;
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			np = realloc(p, 2 * cap * sizeof(*p));
			if (!np) {
				free(p);
				return MESH_ENOMEM;
			}
			p = np;
		}
		p[2 * n] = (uint32_t) s;
		p[2 * n++ + 1] = (uint32_t) d;
		for (v = end; *v == ' '; v++)
			;
	}
	if (!n) {
		free(p);
		return fail(r, "comm", "pairs: lists no pair, e.g. %s",
			    "\"pairs:0>1 1>0\"");
	}
	free(a->pairs);
	a->pairs = p;
	a->n_pairs = n;
	a->hints.comm = MESH_COMM_PAIRS;
	return 0;
bad:
	free(p);
	return fail(r, "comm",
		    "expected sender>receiver rank pairs, got \"%.64s\"", tok);
}

static int parse_field(struct reader *r, enum column c, const char *v,
		       struct mesh_job_attr *a)
{
	char *end;

	switch (c) {
	case COL_ID:
		errno = 0;
		a->id = strtol(v, &end, 10);
		if (end == v || *end || errno || a->id < 0)
			return fail(r, "job_id",
				    "expected a job number, got \"%.64s\"", v);
		return 0;
	case COL_IO:
		return hint_field(
		    r, c,
		    mesh_io_intensity_parse(v, &a->hints.io_intensity, r->d));
	case COL_COMM:
		if (!strncmp(v, "pairs:", 6))
			return parse_pairs(r, v + 6, a);
		return hint_field(
		    r, c, mesh_comm_parse_checked(v, &a->hints.comm, r->d));
	case COL_SHAPE:
		return hint_field(r, c,
				  mesh_shape_parse(v, a->hints.shape, r->d));
	case COL_VOLUME:
		return parse_number(r, v, c, 0, 0, &a->io_volume);
	case COL_COMPUTE:
		return parse_number(r, v, c, 0, 1, &a->compute_phase);
	case COL_CHECKPOINT:
		return parse_number(r, v, c, 0, 0, &a->checkpoint_phase);
	case COL_COMM_SHARE:
		if (parse_number(r, v, c, 0, 0, &a->comm_share) ||
		    a->comm_share > 1)
			return fail(r, col_names[c],
				    "expected a share from 0 to 1, got "
				    "\"%.64s\"",
				    v);
		return 0;
	case N_COLUMNS:
		break;
	}
	return MESH_EINTERNAL;
}

static int parse_row(struct reader *r, char *line)
{
	char *f[MAX_FIELDS];
	struct mesh_job_attr a;
	int n = split(line, f), i, rc;

	if (n != r->ncol) {
		char want[16];

		snprintf(want, sizeof(want), "%d", r->ncol);
		return fail(r, "line", "expected %s comma-separated fields",
			    want);
	}
	memset(&a, 0, sizeof(a));
	mesh_hints_init(&a.hints);
	a.io_volume = a.compute_phase = a.checkpoint_phase = -1;
	a.comm_share = -1;
	a.line = r->line;
	for (i = 0; i < n; i++) {
		if (!*f[i] && r->col[i] != COL_ID)
			continue; /* not given */
		rc = parse_field(r, r->col[i], f[i], &a);
		if (rc) {
			free(a.pairs);
			return rc;
		}
	}
	if (a.comm_share >= 0 && a.hints.io_intensity >= 0 &&
	    a.comm_share + a.hints.io_intensity > 1 + 1e-12) {
		char sum[64];

		snprintf(sum, sizeof(sum), "%g + %g", a.hints.io_intensity,
			 a.comm_share);
		free(a.pairs);
		return fail(r, "comm_share",
			    "io_intensity + comm_share = %s exceeds 1", sum);
	}
	if (r->s->n == r->cap) {
		size_t ncap = r->cap ? r->cap * 2 : 64;
		struct mesh_job_attr *na = realloc(r->s->a, ncap * sizeof(*na));

		if (!na) {
			free(a.pairs);
			return MESH_ENOMEM;
		}
		r->s->a = na;
		r->cap = ncap;
	}
	r->s->a[r->s->n++] = a;
	return 0;
}

static int by_id(const void *x, const void *y)
{
	const struct mesh_job_attr *a = x, *b = y;

	return (a->id > b->id) - (a->id < b->id);
}

/* Sort by id; a duplicate id is an error naming its second line. */
static int finish(struct reader *r)
{
	struct mesh_job_attrs *s = r->s;
	size_t i;

	if (s->n > 1) /* qsort(NULL, 0, ...) is undefined */
		qsort(s->a, s->n, sizeof(*s->a), by_id);
	for (i = 1; i < s->n; i++)
		if (s->a[i].id == s->a[i - 1].id) {
			long l1 = s->a[i - 1].line, l2 = s->a[i].line;
			char lines[48];

			snprintf(lines, sizeof(lines), "%ld and %ld",
				 l1 < l2 ? l1 : l2, l1 < l2 ? l2 : l1);
			r->line = l1 > l2 ? l1 : l2;
			return fail(r, "job_id",
				    "job id given twice (lines %s)", lines);
		}
	return 0;
}

int mesh_job_attrs_read(FILE *f, const char *name, struct mesh_job_attrs **out,
			struct mesh_diag *d)
{
	struct reader r;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int rc = 0;

	memset(&r, 0, sizeof(r));
	r.name = name;
	r.d = d;
	r.s = calloc(1, sizeof(*r.s));
	if (!r.s)
		return MESH_ENOMEM;
	while (!rc && (len = getline(&line, &cap, f)) >= 0) {
		r.line++;
		if (memchr(line, '\0', (size_t) len))
			rc = fail(&r, "line",
				  "NUL byte in line%s (is this a text file?)",
				  "");
		else if (is_blank_or_comment(line))
			continue;
		else if (!r.ncol)
			rc = parse_header(&r, line);
		else
			rc = parse_row(&r, line);
	}
	free(line);
	if (!rc && ferror(f))
		rc = mesh_diag_set(d, MESH_EIO, name, r.line, "", "read error");
	if (!rc && !r.ncol)
		rc = fail(&r, "header",
			  "no header line (expected job_id,...)%s", "");
	if (!rc)
		rc = finish(&r);
	if (rc) {
		mesh_job_attrs_free(r.s);
		return rc;
	}
	*out = r.s;
	return 0;
}

int mesh_job_attrs_load(const char *path, struct mesh_job_attrs **out,
			struct mesh_diag *d)
{
	FILE *f;
	int rc = mesh__open_input(path, "a sidecar file", &f, d);

	if (rc)
		return rc;
	rc = mesh_job_attrs_read(f, path, out, d);
	fclose(f);
	return rc;
}

const struct mesh_job_attr *mesh_job_attrs_find(const struct mesh_job_attrs *s,
						long id)
{
	struct mesh_job_attr key;

	if (!s || !s->n)
		return NULL;
	key.id = id;
	return bsearch(&key, s->a, s->n, sizeof(*s->a), by_id);
}

void mesh_job_attrs_free(struct mesh_job_attrs *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->n; i++)
		free(s->a[i].pairs);
	free(s->a);
	free(s);
}

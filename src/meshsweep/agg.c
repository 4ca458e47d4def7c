/* agg.c - the aggregated CSV: points that differ only in their seeds
 * (seed, workload-seed, bootstrap-seed) or their window of the trace
 * form one group; per metric, the mean and the half-width of the 95%
 * confidence interval, t(0.975, n-1) * s / sqrt(n)
 * (Student t, two-sided; empty for n = 1; exactly 0 when the values are
 * all equal, as a deterministic allocator's seeds on one trace give).
 * The variance is Welford's, so equal values leave no rounding residue.  The grouping columns are the
 * grid keys, flags and version; the run_* columns, which repeat how each
 * point ran, are left out. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "agg.h"
#include "outfile.h"
#include "tidy.h"

#define MAX_COLS 128
#define MAX_GROUPS 4096

/* t(0.975, df) for df = 1..30; 1.96 beyond. */
static double t975(size_t df)
{
	static const double t[] = { 12.706, 4.303, 3.182, 2.776, 2.571, 2.447,
				    2.365,  2.306, 2.262, 2.228, 2.201, 2.179,
				    2.160,  2.145, 2.131, 2.120, 2.110, 2.101,
				    2.093,  2.086, 2.080, 2.074, 2.069, 2.064,
				    2.060,  2.056, 2.052, 2.048, 2.045, 2.042 };

	return df >= 1 && df <= 30 ? t[df - 1] : 1.96;
}

struct stat_acc {
	double mean, m2; /* Welford: the running mean and sum of squares */
	double first;
	int all_equal;
	size_t n;
};

struct group {
	char *key;            /* the grouping columns, joined by \x1f */
	char *cols[MAX_COLS]; /* their values */
	size_t rows;
	struct stat_acc m[MAX_COLS];
};

/* One ok point's job set, for comparing allocators (jobset_warn()). */
struct jobset {
	char *key;   /* every grid key, flag and seed but the allocator */
	char *alloc; /* its allocator */
	char *jobs;  /* jobs simulated (the tidy CSV's text) */
};

struct table {
	char *header[MAX_COLS];
	int ncol, is_group[MAX_COLS], metric[MAX_COLS];
	int nmetrics, status_col, alloc_col, jobs_col;
	struct group *g;
	size_t ng;
	struct jobset *js;
	size_t njs, capjs;
};

static int metric_index(const char *name)
{
	int m;

	for (m = 0; tidy_metrics[m]; m++)
		if (!strcmp(name, tidy_metrics[m]))
			return m;
	return -1;
}

/* The grid keys whose values replicate a point (averaged over, not
 * grouped by): the seeds and the window of the trace. */
static int replication_key(const char *name)
{
	static const char *const keys[] = { "seed", "workload-seed",
					    "bootstrap-seed", "window" };
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(name, keys[i]))
			return 1;
	return 0;
}

static int read_header(struct table *t, char *line)
{
	char *f[MAX_COLS];
	int i;

	t->ncol = csv_split(line, f, MAX_COLS);
	if (t->ncol < 2)
		return -1;
	t->status_col = t->alloc_col = t->jobs_col = -1;
	for (i = 0; i < t->ncol; i++) {
		if (!strcmp(f[i], "allocator") && t->status_col < 0)
			t->alloc_col = i;
		if (!strcmp(f[i], "jobs"))
			t->jobs_col = i;
		t->header[i] = strdup(f[i]);
		t->metric[i] = metric_index(f[i]);
		t->nmetrics += t->metric[i] >= 0;
		if (!strcmp(f[i], "status") && t->status_col < 0)
			t->status_col = i;
		/* the grid keys and flags (before status) but the
		 * replication keys */
		t->is_group[i] =
		    (t->status_col < 0 && i > 0 && !replication_key(f[i])) ||
		    !strcmp(f[i], "version");
	}
	return t->status_col < 0 ? -1 : 0;
}

static struct group *find_group(struct table *t, char **f)
{
	char key[4096];
	size_t i, n = 0;
	int c;

	key[0] = '\0';
	for (c = 0; c < t->ncol && n < sizeof(key); c++)
		if (t->is_group[c])
			n += (size_t) snprintf(key + n, sizeof(key) - n,
					       "%s\x1f", f[c]);
	for (i = 0; i < t->ng; i++)
		if (!strcmp(t->g[i].key, key))
			return &t->g[i];
	if (t->ng == MAX_GROUPS)
		return NULL;
	memset(&t->g[t->ng], 0, sizeof(t->g[0]));
	t->g[t->ng].key = strdup(key);
	for (c = 0; c < t->ncol; c++)
		if (t->is_group[c])
			t->g[t->ng].cols[c] = strdup(f[c]);
	return &t->g[t->ng++];
}

static void add_value(struct stat_acc *a, double v)
{
	double d = v - a->mean;

	if (!a->n) {
		a->first = v;
		a->all_equal = 1;
	}
	a->all_equal &= v == a->first;
	a->n++;
	a->mean += d / (double) a->n;
	a->m2 += d * (v - a->mean);
}

/* Remember an ok point's job count under its key without the allocator. */
static void add_jobset(struct table *t, char **f)
{
	char key[4096];
	size_t n = 0;
	int c;

	if (t->alloc_col < 0 || t->jobs_col < 0)
		return;
	if (t->njs == t->capjs) {
		size_t cap = t->capjs ? 2 * t->capjs : 64;
		struct jobset *js = realloc(t->js, cap * sizeof(*js));

		if (!js)
			return;
		t->js = js;
		t->capjs = cap;
	}
	key[0] = '\0';
	for (c = 1; c < t->status_col && n < sizeof(key); c++)
		if (c != t->alloc_col && *f[c])
			n += (size_t) snprintf(key + n, sizeof(key) - n,
					       "%s=%s ", t->header[c], f[c]);
	if (n && n < sizeof(key))
		key[n - 1] = '\0';
	t->js[t->njs].key = strdup(key);
	t->js[t->njs].alloc = strdup(f[t->alloc_col]);
	t->js[t->njs].jobs = strdup(f[t->jobs_col]);
	if (t->js[t->njs].key && t->js[t->njs].alloc && t->js[t->njs].jobs)
		t->njs++;
}

static int cmp_jobset(const void *x, const void *y)
{
	const struct jobset *a = x, *b = y;
	int c = strcmp(a->key, b->key);

	return c ? c : strcmp(a->alloc, b->alloc);
}

/*
 * Allocators compared on the same workload (every other grid key and
 * seed equal) that simulated different numbers of jobs: one refused
 * jobs it can never place (meshsim's "refused"), so their means are
 * over different job sets.  Said on stderr, the first few in full.
 */
static void jobset_warn(struct table *t)
{
	size_t i, j, k, shown = 0, groups = 0;

	if (t->njs < 2)
		return; /* nothing to compare (and qsort wants an array) */
	qsort(t->js, t->njs, sizeof(*t->js), cmp_jobset);
	for (i = 0; i < t->njs; i = j) {
		int differ = 0;

		for (j = i + 1;
		     j < t->njs && !strcmp(t->js[j].key, t->js[i].key); j++)
			differ |= strcmp(t->js[j].jobs, t->js[i].jobs) != 0;
		if (!differ)
			continue;
		if (groups++ < 3) {
			fprintf(
			    stderr,
			    "meshsweep: warning: allocators ran different job sets (%s):",
			    t->js[i].key);
			for (k = i; k < j; k++)
				fprintf(stderr, " %s %s jobs%s", t->js[k].alloc,
					t->js[k].jobs, k + 1 < j ? "," : "\n");
			shown++;
		}
	}
	if (groups)
		fprintf(
		    stderr,
		    "meshsweep: warning: %zu workload(s) where the allocators ran different job sets (%zu shown): those that may refuse a job never placeable on the empty machine left it out (the 'refused' column), so their means are not over the same jobs\n",
		    groups, shown);
}

static void add_row(struct table *t, char **f)
{
	struct group *g;
	int c;

	if (strcmp(f[t->status_col], "ok"))
		return;
	add_jobset(t, f);
	g = find_group(t, f);
	if (!g)
		return;
	g->rows++;
	for (c = 0; c < t->ncol; c++) {
		char *end;
		double v;

		if (t->metric[c] < 0 || !*f[c])
			continue;
		errno = 0;
		v = strtod(f[c], &end);
		if (*end || errno)
			continue;
		add_value(&g->m[c], v);
	}
}

static void write_agg(const struct table *t, FILE *out)
{
	char buf[64];
	size_t i;
	int c;

	for (c = 0; c < t->ncol; c++)
		if (t->is_group[c])
			csv_field(out, t->header[c], 0);
	fputs("n", out);
	for (c = 0; c < t->ncol; c++)
		if (t->metric[c] >= 0)
			fprintf(out, ",%s_mean,%s_ci95", t->header[c],
				t->header[c]);
	fputc('\n', out);
	for (i = 0; i < t->ng; i++) {
		const struct group *g = &t->g[i];

		for (c = 0; c < t->ncol; c++)
			if (t->is_group[c])
				csv_field(out, g->cols[c], 0);
		fprintf(out, "%zu", g->rows);
		for (c = 0; c < t->ncol; c++) {
			const struct stat_acc *a = &g->m[c];
			double mean, var;

			if (t->metric[c] < 0)
				continue;
			if (!a->n) {
				fputs(",,", out);
				continue;
			}
			mean = a->all_equal ? a->first : a->mean;
			var = a->n > 1 && !a->all_equal
				  ? a->m2 / (double) (a->n - 1)
				  : 0;
			snprintf(buf, sizeof(buf), "%.10g", mean);
			fprintf(out, ",%s,", buf);
			if (a->n > 1)
				fprintf(out, "%.10g",
					t975(a->n - 1) *
					    sqrt(var > 0 ? var : 0) /
					    sqrt((double) a->n));
		}
		fputc('\n', out);
	}
}

static void free_table(struct table *t)
{
	size_t i;
	int c;

	for (i = 0; i < t->ng; i++) {
		free(t->g[i].key);
		for (c = 0; c < MAX_COLS; c++)
			free(t->g[i].cols[c]);
	}
	for (c = 0; c < t->ncol; c++)
		free(t->header[c]);
	free(t->g);
	for (i = 0; i < t->njs; i++) {
		free(t->js[i].key);
		free(t->js[i].alloc);
		free(t->js[i].jobs);
	}
	free(t->js);
}

int sweep_aggregate(const char *tidy, const char *agg)
{
	struct table t;
	char *line = NULL, *f[MAX_COLS];
	size_t cap = 0;
	FILE *in = fopen(tidy, "r");
	struct cli_outfile out = { NULL, NULL, -1 };
	int rc = 0;

	memset(&t, 0, sizeof(t));
	t.g = calloc(MAX_GROUPS, sizeof(*t.g));
	if (!in || !t.g || getline(&line, &cap, in) < 0 ||
	    read_header(&t, line)) {
		fprintf(stderr, "meshsweep: %s: not a meshsweep tidy CSV\n",
			tidy);
		rc = -1;
	}
	while (!rc && getline(&line, &cap, in) >= 0)
		if (csv_split(line, f, MAX_COLS) == t.ncol)
			add_row(&t, f);
	if (in)
		fclose(in);
	free(line);
	if (!rc)
		jobset_warn(&t);
	/* Complete or untouched, also when a signal came meanwhile. */
	if (!rc && !cli_out_open(&out, "meshsweep", "--agg", agg)) {
		write_agg(&t, out.f);
		if (cli_caught())
			cli_out_abort(&out);
		else if (cli_out_commit(&out, "meshsweep", "--agg"))
			rc = -1;
	} else {
		rc = -1;
	}
	free_table(&t);
	return rc;
}

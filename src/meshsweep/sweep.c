/* sweep.c - running the points of a grid, N meshsim processes at a time.
 *
 * HOW IT WORKS: generated workloads are made first, once per (workload,
 * seed), in a temporary directory.  Then points not yet in the tidy CSV
 * are started as meshsim processes, each writing its JSON summary to a
 * temporary file; when one exits, its row is appended (flushed at once,
 * so an interrupted sweep keeps what finished) and the next point starts.
 * Each point's rows by job-size class go to a second, long CSV (one row
 * per point and class), written before its tidy row; on a rerun, the
 * rows of points without an ok tidy row are dropped from it.
 */
#include "sweep.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agg.h"
#include "tidy.h"

#define MAX_ARGS 64
#define KEY_LEN 40

/* Storage for "--key" arguments built from grid keys. */
typedef char opt_names[MAX_ARGS][KEY_LEN];

struct slot {
	pid_t pid;
	size_t point;
	char summary[128], err[128];
};

struct runner {
	struct sweep *s;
	char meshsim[PATH_MAX], meshgen[PATH_MAX];
	char tmpdir[64];
	FILE *out, *by_size;
	char *by_size_path;
	char *done; /* per point: already in the tidy CSV */
	size_t todo, finished, failed;
	time_t t0;
	int tty;
};

/* Path of a sibling program: $ENV, next to us, in the build tree, or
 * the bare name (PATH). */
static void find_tool(const char *argv0, const char *env, const char *name,
		      const char *build_rel, char *out)
{
	const char *e = getenv(env), *slash = strrchr(argv0, '/');
	int dl = slash ? (int) (slash - argv0) : 0;

	if (e && *e) {
		snprintf(out, PATH_MAX, "%s", e);
		return;
	}
	if (slash) {
		snprintf(out, PATH_MAX, "%.*s/%s", dl, argv0, name);
		if (!access(out, X_OK))
			return;
		snprintf(out, PATH_MAX, "%.*s/%s", dl, argv0, build_rel);
		if (!access(out, X_OK))
			return;
	}
	snprintf(out, PATH_MAX, "%s", name);
}

static char *value(const struct grid *g, size_t p, const char *key)
{
	int d = grid_find(g, key);

	return d < 0 ? NULL : g->dim[d].values[grid_index(g, p, (size_t) d)];
}

/* "key=value;..." over all dimensions: a point's identity. */
static void point_key(const struct grid *g, size_t p, char *buf, size_t len)
{
	size_t d, n = 0;

	buf[0] = '\0';
	for (d = 0; d < g->ndims && n < len; d++)
		n += (size_t) snprintf(buf + n, len - n, "%s%s=%s",
				       d ? ";" : "", g->dim[d].key,
				       g->dim[d].values[grid_index(g, p, d)]);
}

static void write_header(FILE *f, const struct grid *g)
{
	size_t d;
	int m;

	fputs("point,", f);
	for (d = 0; d < g->ndims; d++)
		csv_field(f, g->dim[d].key, 0);
	fputs("flags,status,version,", f);
	for (m = 0; tidy_metrics[m]; m++)
		csv_field(f, tidy_metrics[m], !tidy_metrics[m + 1]);
}

static void write_by_size_header(FILE *f, const struct grid *g)
{
	size_t d;

	fputs("point,", f);
	for (d = 0; d < g->ndims; d++)
		csv_field(f, g->dim[d].key, 0);
	fputs("size_min,size_max,jobs,mean_wait,mean_bounded_slowdown\n", f);
}

/* The header write_header() gives this grid, in a malloc'ed string. */
static char *expected_header(const struct grid *g)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return NULL;
	write_header(m, g);
	if (fclose(m)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Keeps the by-size rows of finished points only (an interrupted or
 * failed point may have left some), then opens the file for appending. */
static int open_by_size(struct runner *r)
{
	const struct grid *g = &r->s->grid;
	size_t np = grid_points(g), p, cap = 0;
	char *line = NULL, *copy = NULL, key[2048], *f[64], tmp[PATH_MAX + 8];
	FILE *in = fopen(r->by_size_path, "r"), *keep;
	int first = 1, ok, kept = 0;

	snprintf(tmp, sizeof(tmp), "%s.tmp", r->by_size_path);
	keep = in ? fopen(tmp, "w") : NULL;
	while (keep && getline(&line, &cap, in) >= 0) {
		free(copy);
		copy = strdup(line);
		ok = first;
		if (!first && copy && csv_split(copy, f, 64) > 0)
			for (p = 0; p < np && !ok; p++) {
				point_key(g, p, key, sizeof(key));
				ok = r->done[p] && !strcmp(key, f[0]);
			}
		first = 0;
		if (ok)
			kept += fputs(line, keep) >= 0;
	}
	free(line);
	free(copy);
	if (in)
		fclose(in);
	if (in && (!keep || fclose(keep) || rename(tmp, r->by_size_path))) {
		fprintf(stderr, "meshsweep: cannot rewrite %s: %s\n",
			r->by_size_path, strerror(errno));
		return -1;
	}
	r->by_size = fopen(r->by_size_path, "a");
	if (!r->by_size) {
		fprintf(stderr, "meshsweep: cannot open %s: %s\n",
			r->by_size_path, strerror(errno));
		return -1;
	}
	if (!kept) /* a new (or empty) file */
		write_by_size_header(r->by_size, g);
	fflush(r->by_size);
	return 0;
}

/* Reads the tidy CSV (if any): marks finished points, checks the
 * columns match this grid, and opens it for appending. */
static int open_tidy(struct runner *r)
{
	const struct grid *g = &r->s->grid;
	size_t np = grid_points(g), p, cap = 0;
	char *line = NULL, key[2048], *f[64], *want = expected_header(g);
	FILE *in = fopen(r->s->out, "r");
	int n, first = 1;

	r->done = calloc(np ? np : 1, 1);
	if (!r->done || !want) {
		free(want);
		return -1;
	}
	while (in && getline(&line, &cap, in) >= 0) {
		if (first) {
			first = 0;
			if (strcmp(line, want)) {
				fprintf(
				    stderr,
				    "meshsweep: %s: its header is not the one "
				    "this meshsweep writes for this grid (an "
				    "older meshsweep's CSV has no version and "
				    "fate columns, or another grid's); give "
				    "another --out, or move the file away\n",
				    r->s->out);
				fclose(in);
				free(line);
				free(want);
				return -1;
			}
			continue;
		}
		n = csv_split(line, f, 64);
		if (n < (int) g->ndims + 3 || strcmp(f[g->ndims + 2], "ok"))
			continue;
		for (p = 0; p < np; p++) {
			point_key(g, p, key, sizeof(key));
			if (!strcmp(key, f[0]))
				r->done[p] = 1;
		}
	}
	free(line);
	free(want);
	if (in)
		fclose(in);
	r->out = fopen(r->s->out, "a");
	if (!r->out) {
		fprintf(stderr, "meshsweep: --out: cannot open %s: %s\n",
			r->s->out, strerror(errno));
		return -1;
	}
	if (first)
		write_header(r->out, g);
	fflush(r->out);
	return 0;
}

/* workload "mache:jobs=300:interarrival=1500" -> argv for meshsim-gen. */
static int gen_args(struct runner *r, const char *spec, char *seed, char *swf,
		    char *attrs, char **av, char *buf, size_t len,
		    opt_names names)
{
	char *tok, *save = NULL;
	int n = 0;

	snprintf(buf, len, "%s", spec);
	av[n++] = r->meshgen;
	av[n++] = "--workload";
	av[n++] = strtok_r(buf, ":", &save);
	while ((tok = strtok_r(NULL, ":", &save)) && n < MAX_ARGS - 10) {
		char *eq = strchr(tok, '=');

		if (!eq || strlen(tok) > KEY_LEN - 3)
			return -1;
		*eq = '\0';
		snprintf(names[n], KEY_LEN, "--%s", tok);
		av[n] = names[n];
		n++;
		av[n++] = eq + 1;
	}
	av[n++] = "--seed";
	av[n++] = seed;
	av[n++] = "--swf";
	av[n++] = swf;
	av[n++] = "--attrs";
	av[n++] = attrs;
	av[n] = NULL;
	return n;
}

static int run_wait(char **av, const char *err_path)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return -1;
	if (!pid) {
		int fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		if (fd >= 0)
			dup2(fd, 2);
		execvp(av[0], av);
		fprintf(stderr, "cannot run %s: %s\n", av[0], strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static void gen_paths(const struct runner *r, size_t w, size_t sd, char *swf,
		      char *attrs)
{
	snprintf(swf, PATH_MAX, "%s/w%zu-s%zu.swf", r->tmpdir, w, sd);
	snprintf(attrs, PATH_MAX, "%s/w%zu-s%zu.csv", r->tmpdir, w, sd);
}

/* Every (workload, seed) the remaining points need, made once. */
static int make_workloads(struct runner *r)
{
	const struct grid *g = &r->s->grid;
	int dw = grid_find(g, "workload"), ds = grid_find(g, "seed");
	size_t w, sd, ns = ds < 0 ? 1 : g->dim[ds].n;
	char swf[PATH_MAX], attrs[PATH_MAX], err[PATH_MAX], buf[512];

	for (w = 0; dw >= 0 && w < g->dim[dw].n; w++)
		for (sd = 0; sd < ns; sd++) {
			char *av[MAX_ARGS];
			opt_names names;
			int n, rc;

			if (r->s->point >= 0 &&
			    (w != grid_index(g, (size_t) r->s->point,
					     (size_t) dw) ||
			     (ds >= 0 &&
			      sd != grid_index(g, (size_t) r->s->point,
					       (size_t) ds))))
				continue; /* --point: only its workload */
			gen_paths(r, w, sd, swf, attrs);
			snprintf(err, sizeof(err), "%s/gen.err", r->tmpdir);
			n = gen_args(r, g->dim[dw].values[w],
				     ds < 0 ? "0" : g->dim[ds].values[sd], swf,
				     attrs, av, buf, sizeof(buf), names);
			rc = n < 0 ? 2 : run_wait(av, err);
			if (rc) {
				fprintf(
				    stderr,
				    "meshsweep: %s:%ld:workload: meshsim-gen "
				    "failed for \"%s\" (exit %d); see %s\n",
				    r->s->grid_path, g->dim[dw].line,
				    g->dim[dw].values[w], rc, err);
				return -1;
			}
		}
	return 0;
}

/* argv of meshsim for point p. */
static int point_args(struct runner *r, size_t p, struct slot *sl, char **av,
		      char *flagbuf, size_t len, opt_names names)
{
	const struct grid *g = &r->s->grid;
	static char swf[PATH_MAX], attrs[PATH_MAX];
	int n = 0, dw = grid_find(g, "workload"), ds = grid_find(g, "seed");
	char *tok, *save = NULL;
	size_t d;

	av[n++] = r->meshsim;
	for (d = 0; d < g->ndims; d++) {
		const char *k = g->dim[d].key;

		if (!strcmp(k, "trace") || !strcmp(k, "workload"))
			continue;
		snprintf(names[n], KEY_LEN, "--%s", k);
		av[n] = names[n];
		n++;
		av[n++] = g->dim[d].values[grid_index(g, p, d)];
	}
	snprintf(flagbuf, len, "%s", g->flags ? g->flags : "");
	for (tok = strtok_r(flagbuf, " \t", &save); tok && n < MAX_ARGS - 8;
	     tok = strtok_r(NULL, " \t", &save))
		av[n++] = tok;
	av[n++] = "--no-progress";
	av[n++] = "--summary";
	av[n++] = sl->summary;
	if (dw >= 0) {
		gen_paths(r, grid_index(g, p, (size_t) dw),
			  ds < 0 ? 0 : grid_index(g, p, (size_t) ds), swf,
			  attrs);
		av[n++] = "--job-attrs";
		av[n++] = attrs;
		av[n++] = swf;
	} else {
		av[n++] = value(g, p, "trace");
	}
	av[n] = NULL;
	return n;
}

static int start_point(struct runner *r, size_t p, struct slot *sl)
{
	char *av[MAX_ARGS], flagbuf[1024];
	opt_names names;
	int fd;
	pid_t pid;

	snprintf(sl->summary, sizeof(sl->summary), "%s/p%zu.json", r->tmpdir,
		 p);
	snprintf(sl->err, sizeof(sl->err), "%s/p%zu.err", r->tmpdir, p);
	point_args(r, p, sl, av, flagbuf, sizeof(flagbuf), names);
	pid = fork();
	if (!pid) {
		fd = open(sl->err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd >= 0) {
			dup2(fd, 2);
			dup2(fd, 1);
		}
		execvp(av[0], av);
		fprintf(stderr, "cannot run %s: %s\n", av[0], strerror(errno));
		_exit(127);
	}
	sl->pid = pid;
	sl->point = p;
	return pid < 0 ? -1 : 0;
}

/* The value of "key": in meshsim's one-key-per-line JSON, or "". */
static void json_value(const char *json, const char *key, char *out, size_t len)
{
	char pat[64];
	const char *p;
	size_t n;

	snprintf(pat, sizeof(pat), "\n  \"%s\": ", key);
	p = strstr(json, pat);
	out[0] = '\0';
	if (!p)
		return;
	p += strlen(pat);
	n = strcspn(p, ",\n}");
	if (n >= len || !strncmp(p, "null", 4))
		return;
	memcpy(out, p, n);
	out[n] = '\0';
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t) n + 1);
	if (buf && fread(buf, 1, (size_t) n, f) != (size_t) n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[n] = '\0';
	fclose(f);
	return buf;
}

/* The point's rows of meshsim's "by_size" array, one per size class. */
static void write_by_size(struct runner *r, size_t p, const char *json)
{
	const struct grid *g = &r->s->grid;
	const char *q = strstr(json, "\n  \"by_size\": [");
	char key[2048];
	unsigned lo, hi;
	size_t jobs, d;
	double w, bsd;

	if (!r->by_size || !q)
		return;
	point_key(g, p, key, sizeof(key));
	for (q = strchr(q + 1, '\n'); q && !strncmp(q, "\n    {", 6);
	     q = strchr(q + 1, '\n')) {
		if (sscanf(q,
			   "\n    {\"min\": %u, \"max\": %u, \"jobs\": %zu, "
			   "\"mean_wait\": %lg, \"mean_bounded_slowdown\": %lg",
			   &lo, &hi, &jobs, &w, &bsd) != 5)
			break;
		csv_field(r->by_size, key, 0);
		for (d = 0; d < g->ndims; d++)
			csv_field(r->by_size,
				  g->dim[d].values[grid_index(g, p, d)], 0);
		fprintf(r->by_size, "%u,%u,%zu,%.17g,%.17g\n", lo, hi, jobs, w,
			bsd);
	}
	fflush(r->by_size);
}

static void write_row(struct runner *r, size_t p, int status, const char *json)
{
	const struct grid *g = &r->s->grid;
	char key[2048], v[64];
	size_t d;
	int m;

	if (json)
		write_by_size(r, p, json);
	point_key(g, p, key, sizeof(key));
	csv_field(r->out, key, 0);
	for (d = 0; d < g->ndims; d++)
		csv_field(r->out, g->dim[d].values[grid_index(g, p, d)], 0);
	csv_field(r->out, g->flags ? g->flags : "", 0);
	csv_field(r->out, status ? "failed" : "ok", 0);
	v[0] = '\0';
	if (json) /* "x.y" -> x.y */
		json_value(json, "version", v, sizeof(v));
	csv_field(r->out, v[0] == '"' ? (v[strlen(v) - 1] = '\0', v + 1) : v,
		  0);
	for (m = 0; tidy_metrics[m]; m++) {
		v[0] = '\0';
		if (json)
			json_value(json, tidy_metrics[m], v, sizeof(v));
		csv_field(r->out, v, !tidy_metrics[m + 1]);
	}
	fflush(r->out);
}

static void progress(struct runner *r)
{
	double el = difftime(time(NULL), r->t0);
	size_t done = r->finished, w = 30, i, fill;
	double eta = done ? el * (double) (r->todo - done) / (double) done : 0;

	if (!r->tty || !r->todo)
		return;
	fill = w * done / r->todo;
	fputs("\rmeshsweep: [", stderr);
	for (i = 0; i < w; i++)
		fputc(i < fill ? '#' : '.', stderr);
	fprintf(stderr, "] %zu/%zu points, %d:%02d elapsed, ETA %d:%02d ", done,
		r->todo, (int) el / 60, (int) el % 60, (int) eta / 60,
		(int) eta % 60);
	if (done == r->todo)
		fputc('\n', stderr);
}

static void finish_point(struct runner *r, struct slot *sl, int wstatus)
{
	int rc = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128;
	char *json = rc ? NULL : slurp(sl->summary);

	if (!rc && !json)
		rc = 1;
	if (rc && ++r->failed <= 5) { /* the first few in full */
		char key[2048], *err = slurp(sl->err);

		point_key(&r->s->grid, sl->point, key, sizeof(key));
		fprintf(stderr, "%smeshsweep: point %s failed (exit %d): %s",
			r->tty ? "\n" : "", key, rc, err ? err : "\n");
		free(err);
	}
	write_row(r, sl->point, rc, json);
	free(json);
	unlink(sl->summary);
	unlink(sl->err);
	sl->pid = 0;
	r->finished++;
	progress(r);
}

static int run_points(struct runner *r)
{
	size_t np = grid_points(&r->s->grid), next = 0, busy = 0, i;
	struct slot *slots = calloc((size_t) r->s->jobs, sizeof(*slots));
	int st;
	pid_t pid;

	if (!slots)
		return -1;
	for (;;) {
		while (busy < (size_t) r->s->jobs && next < np) {
			if (r->done[next]) {
				next++;
				continue;
			}
			for (i = 0; slots[i].pid; i++)
				;
			if (start_point(r, next++, &slots[i]))
				break;
			busy++;
		}
		if (!busy)
			break;
		pid = wait(&st);
		for (i = 0; pid > 0 && i < (size_t) r->s->jobs; i++)
			if (slots[i].pid == pid) {
				finish_point(r, &slots[i], st);
				busy--;
			}
	}
	free(slots);
	return 0;
}

/* OUT.csv -> OUT-SUFFIX.csv */
static char *sibling_csv(const char *out, const char *suffix)
{
	size_t n = strlen(out);
	char *a = malloc(n + strlen(suffix) + 8);

	if (!a)
		return NULL;
	if (n > 4 && !strcmp(out + n - 4, ".csv"))
		n -= 4;
	sprintf(a, "%.*s-%s.csv", (int) n, out, suffix);
	return a;
}

static void remove_tmpdir(const char *dir)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "meshsweep: could not remove %s\n", dir);
}

/* --aggregate: every point must have an ok row; the missing and failed
 * ones are named (the first few) and counted. */
static size_t report_missing(const struct runner *r)
{
	const struct grid *g = &r->s->grid;
	size_t np = grid_points(g), p, missing = 0;
	char key[2048];

	for (p = 0; p < np; p++) {
		if (r->done[p])
			continue;
		if (++missing <= 10) {
			point_key(g, p, key, sizeof(key));
			fprintf(stderr,
				"meshsweep: %s: point %zu (%s) has no ok row\n",
				r->s->out, p, key);
		}
	}
	if (missing)
		fprintf(stderr,
			"meshsweep: %s: INCOMPLETE: %zu of %zu points missing "
			"or failed\n",
			r->s->out, missing, np);
	return missing;
}

int sweep_run(struct sweep *s, const char *argv0)
{
	struct runner r;
	char *agg;
	size_t p, np = grid_points(&s->grid);
	int rc = 1;

	memset(&r, 0, sizeof(r));
	r.s = s;
	r.t0 = time(NULL);
	r.tty = s->progress == 1 || (s->progress < 0 && isatty(2));
	find_tool(argv0, "MESHSIM", "meshsim", "../meshsim/meshsim", r.meshsim);
	find_tool(argv0, "MESHGEN", "meshsim-gen", "../meshgen/meshsim-gen",
		  r.meshgen);
	snprintf(r.tmpdir, sizeof(r.tmpdir), "/tmp/meshsweep.XXXXXX");
	r.by_size_path = sibling_csv(s->out, "by-size");
	if (!r.by_size_path || !mkdtemp(r.tmpdir) || open_tidy(&r) ||
	    (!s->aggregate && open_by_size(&r)))
		goto out;
	if (s->point >= 0 && (size_t) s->point >= np) {
		fprintf(stderr,
			"meshsweep: --point %ld: %s has %zu points "
			"(0 to %zu)\n",
			s->point, s->grid_path, np, np ? np - 1 : 0);
		rc = 2;
		goto out;
	}
	for (p = 0; p < np; p++)
		r.todo += !r.done[p] && !s->aggregate &&
			  (s->point < 0 || p == (size_t) s->point);
	if (s->aggregate && report_missing(&r))
		r.failed = 1;
	for (p = 0; p < np && (s->aggregate || s->point >= 0); p++)
		if (p != (size_t) s->point)
			r.done[p] = 1; /* run nothing else */
	if (np > r.todo && s->point < 0 && !s->aggregate)
		fprintf(stderr, "meshsweep: %zu of %zu points already in %s\n",
			np - r.todo, np, s->out);
	if (!s->aggregate && (make_workloads(&r) || run_points(&r)))
		goto out;
	fclose(r.out);
	r.out = NULL;
	if (r.by_size && fclose(r.by_size)) {
		r.by_size = NULL;
		fprintf(stderr, "meshsweep: write error on %s\n",
			r.by_size_path);
		goto out;
	}
	r.by_size = NULL;
	if (s->point >= 0) { /* one point of many: nothing to aggregate */
		rc = r.failed != 0;
		goto out;
	}
	agg = s->agg ? NULL : sibling_csv(s->out, "agg");
	rc = (!s->agg && !agg) ||
	     sweep_aggregate(s->out, s->agg ? s->agg : agg) || r.failed;
	if (r.failed && !s->aggregate)
		fprintf(stderr, "meshsweep: %zu of %zu points failed\n",
			r.failed, r.todo);
	free(agg);
out:
	if (r.out)
		fclose(r.out);
	if (r.by_size)
		fclose(r.by_size);
	free(r.by_size_path);
	free(r.done);
	if (r.tmpdir[0] && r.tmpdir[0] != 'X')
		remove_tmpdir(r.tmpdir);
	return rc;
}

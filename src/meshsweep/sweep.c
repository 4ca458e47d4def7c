/* sweep.c - running the points of a grid, N meshsim processes at a time.
 *
 * HOW IT WORKS: generated workloads are made first, once per (workload,
 * generator seed), and kept next to the tidy CSV (workloads.c).  Then
 * the points not yet in the tidy CSV are started as meshsim processes,
 * each writing its JSON summary into a temporary directory; when one
 * exits, its row is appended to the tidy CSV in one write(), so the file
 * only ever holds whole rows, and the next point starts.  Each point's
 * rows by job-size class go to a second, long CSV (one row per point and
 * class), written before its tidy row; on a rerun, the rows of points
 * without an ok tidy row are dropped from it.
 *
 * A signal (SIGINT, SIGTERM, SIGHUP) stops the sweep: the running
 * meshsim processes are stopped and reaped, the temporary directory is
 * removed, the rows of the points that finished stay (a rerun resumes
 * from them), and meshsweep exits 128 + the signal.
 */
#include "sweep.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agg.h"
#include "cli.h"
#include "outfile.h"
#include "proc.h"
#include "runner.h"
#include "tidy.h"

#define MAX_ARGS 64
#define KEY_LEN 40

/* Storage for "--key" arguments built from grid keys. */
typedef char opt_names[MAX_ARGS][KEY_LEN];

struct slot {
	pid_t pid;
	size_t point;
	struct timespec t0; /* when the run started */
	char summary[PATH_MAX + 32], err[PATH_MAX + 32];
};

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

/* point, the grid keys, flags, status, wall_s (the run's wall time),
 * version, workload_seed, the run columns, the metrics. */
static void write_header(FILE *f, const struct grid *g)
{
	size_t d;
	int m;

	fputs("point,", f);
	for (d = 0; d < g->ndims; d++)
		csv_field(f, g->dim[d].key, 0);
	fputs("flags,status,wall_s,version,workload_seed,", f);
	for (m = 0; tidy_run_keys[m]; m++)
		fprintf(f, "run_%s,", tidy_run_keys[m]);
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

/* Is the by-size row in line one of a finished point's? */
static int by_size_kept(const struct runner *r, const char *line)
{
	const struct grid *g = &r->s->grid;
	size_t np = grid_points(g), p;
	char key[2048], *copy = strdup(line), *f[64];
	int ok = 0;

	if (copy && csv_split(copy, f, 64) > 0)
		for (p = 0; p < np && !ok; p++) {
			point_key(g, p, key, sizeof(key));
			ok = r->done[p] && !strcmp(key, f[0]);
		}
	free(copy);
	return ok;
}

/* Keeps the by-size rows of finished points only (an interrupted or
 * failed point may have left some), then opens the file for appending. */
static int open_by_size(struct runner *r)
{
	struct cli_outfile keep;
	char *line = NULL;
	size_t cap = 0;
	FILE *in = fopen(r->by_size_path, "r");
	int first = 1, rc = 0;

	if (cli_out_open(&keep, "meshsweep", "by-size CSV", r->by_size_path)) {
		if (in)
			fclose(in);
		return -1;
	}
	write_by_size_header(keep.f, &r->s->grid);
	while (in && getline(&line, &cap, in) >= 0) {
		if (!first && by_size_kept(r, line))
			fputs(line, keep.f);
		first = 0;
	}
	free(line);
	if (in)
		fclose(in);
	if (cli_out_commit(&keep, "meshsweep", "by-size CSV"))
		rc = -1;
	r->by_size = rc ? NULL : fopen(r->by_size_path, "a");
	if (!rc && !r->by_size) {
		fprintf(stderr, "meshsweep: cannot open %s: %s\n",
			r->by_size_path, strerror(errno));
		rc = -1;
	}
	return rc;
}

/* Marks the point of an ok row done; counts it in *other if it was made
 * by another meshsim revision. */
static void mark_done(struct runner *r, char **f, int n, size_t *other)
{
	const struct grid *g = &r->s->grid;
	/* point, the keys, flags, then status, wall_s, version */
	size_t np = grid_points(g), p, st = g->ndims + 2, ver = st + 2;
	char key[2048];

	if (n <= (int) ver || strcmp(f[st], "ok"))
		return;
	if (r->revision[0] && strcmp(f[ver], r->revision) && ++*other <= 3)
		fprintf(stderr,
			"meshsweep: %s: point %s was run by meshsim %s, not "
			"%s\n",
			r->s->out, f[0], f[ver], r->revision);
	for (p = 0; p < np; p++) {
		point_key(g, p, key, sizeof(key));
		if (!strcmp(key, f[0]))
			r->done[p] = 1;
	}
}

/* A new tidy CSV: its header, complete or not at all. */
static int create_tidy(struct runner *r)
{
	struct cli_outfile o;

	if (cli_out_open(&o, "meshsweep", "--out", r->s->out))
		return -1;
	write_header(o.f, &r->s->grid);
	return cli_out_commit(&o, "meshsweep", "--out");
}

static int tidy_header_ok(struct runner *r, const char *line, const char *want)
{
	if (!strcmp(line, want))
		return 1;
	fprintf(stderr,
		"meshsweep: %s: its header is not the one this meshsweep "
		"writes for this grid (an older meshsweep's CSV has other "
		"columns, or it is another grid's); give another --out, or "
		"move the file away\n",
		r->s->out);
	return 0;
}

/* Reads the tidy CSV (if any): marks finished points, checks the
 * columns match this grid and the rows this meshsim's revision, and
 * opens it for appending. */
static int open_tidy(struct runner *r)
{
	const struct grid *g = &r->s->grid;
	size_t np = grid_points(g), cap = 0, other = 0;
	char *line = NULL, *f[128], *want = expected_header(g);
	FILE *in = fopen(r->s->out, "r");
	int first = 1, rc = 0;

	r->done = calloc(np ? np : 1, 1);
	if (!r->done || !want)
		rc = -1;
	while (!rc && in && getline(&line, &cap, in) >= 0) {
		if (first)
			rc = tidy_header_ok(r, line, want) ? 0 : -1;
		else
			mark_done(r, f, csv_split(line, f, 128), &other);
		first = 0;
	}
	free(line);
	free(want);
	if (in)
		fclose(in);
	if (!rc && other && !r->s->other_revision) {
		fprintf(
		    stderr,
		    "meshsweep: %s: %zu finished points were run by another "
		    "meshsim revision than %s; rerun them (give another "
		    "--out) or keep them with --resume-other-revision\n",
		    r->s->out, other, r->revision);
		rc = -1;
	}
	if (!rc && first)
		rc = create_tidy(r);
	r->out_fd = rc ? -1 : open(r->s->out, O_WRONLY | O_APPEND);
	if (!rc && r->out_fd < 0) {
		fprintf(stderr, "meshsweep: --out: cannot open %s: %s\n",
			r->s->out, strerror(errno));
		rc = -1;
	}
	return rc;
}

/* grid_value() in buf. */
static char *copy_value(const struct grid *g, size_t p, size_t d, char *buf)
{
	char tmp[PATH_MAX];

	snprintf(buf, PATH_MAX, "%s", grid_value(g, p, d, tmp, sizeof(tmp)));
	return buf;
}

/* argv of meshsim for point p. */
static void point_args(struct runner *r, size_t p, struct slot *sl, char **av,
		       char *flagbuf, size_t len, opt_names names,
		       char paths[][PATH_MAX])
{
	const struct grid *g = &r->s->grid;
	int n = 0, np = 0, dw = grid_find(g, "workload");
	char *tok, *save = NULL;
	size_t d;

	av[n++] = r->meshsim;
	for (d = 0; d < g->ndims; d++) {
		const char *k = g->dim[d].key;

		if (!strcmp(k, "trace") || !strcmp(k, "workload") ||
		    !strcmp(k, "workload-seed") || !strcmp(k, "attrs"))
			continue;
		snprintf(names[n], KEY_LEN, "--%s", k);
		av[n] = names[n];
		n++;
		av[n++] = copy_value(g, p, d, paths[np++]);
	}
	snprintf(flagbuf, len, "%s", g->flags ? g->flags : "");
	for (tok = strtok_r(flagbuf, " \t", &save); tok && n < MAX_ARGS - 8;
	     tok = strtok_r(NULL, " \t", &save))
		av[n++] = tok;
	av[n++] = "--no-progress";
	av[n++] = "--summary";
	av[n++] = sl->summary;
	if (dw >= 0) {
		workload_paths(r, p, paths[np], paths[np + 1]);
		av[n++] = "--job-attrs";
		av[n++] = paths[np + 1];
		av[n++] = paths[np];
	} else {
		if (grid_find(g, "attrs") >= 0) {
			attrs_path(r, p, paths[np + 1]);
			av[n++] = "--job-attrs";
			av[n++] = paths[np + 1];
		}
		av[n++] =
		    copy_value(g, p, (size_t) grid_find(g, "trace"), paths[np]);
	}
	av[n] = NULL;
}

static int start_point(struct runner *r, size_t p, struct slot *sl)
{
	char *av[MAX_ARGS], flagbuf[1024], paths[GRID_MAX_DIMS + 2][PATH_MAX];
	opt_names names;

	snprintf(sl->summary, sizeof(sl->summary), "%s/p%zu.json", r->tmpdir,
		 p);
	snprintf(sl->err, sizeof(sl->err), "%s/p%zu.err", r->tmpdir, p);
	point_args(r, p, sl, av, flagbuf, sizeof(flagbuf), names, paths);
	clock_gettime(CLOCK_MONOTONIC, &sl->t0);
	sl->pid = proc_start(av, sl->err, 1, r->s->limit);
	sl->point = p;
	return sl->pid < 0 ? -1 : 0;
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

/* One tidy row into f. */
static void format_row(const struct runner *r, size_t p, int status,
		       double wall, const char *json, FILE *f)
{
	const struct grid *g = &r->s->grid;
	char key[2048], v[PATH_MAX + 64];
	size_t d;
	int m;

	point_key(g, p, key, sizeof(key));
	csv_field(f, key, 0);
	for (d = 0; d < g->ndims; d++)
		csv_field(f, g->dim[d].values[grid_index(g, p, d)], 0);
	csv_field(f, g->flags ? g->flags : "", 0);
	csv_field(f, status ? "failed" : "ok", 0);
	fprintf(f, "%.3f,", wall);
	tidy_json_field(json ? json : "", "version", v, sizeof(v));
	csv_field(f, v, 0);
	csv_field(f,
		  grid_find(g, "workload") < 0 && grid_find(g, "attrs") < 0
		      ? ""
		      : workload_seed(g, p),
		  0);
	for (m = 0; tidy_run_keys[m]; m++) {
		tidy_json_field(json ? json : "", tidy_run_keys[m], v,
				sizeof(v));
		csv_field(f, v, 0);
	}
	for (m = 0; tidy_metrics[m]; m++) {
		tidy_json_field(json ? json : "", tidy_metrics[m], v,
				sizeof(v));
		csv_field(f, v, !tidy_metrics[m + 1]);
	}
}

/* The row is appended in one write(): the file holds whole rows only. */
static void write_row(struct runner *r, size_t p, int status, double wall,
		      const char *json)
{
	char *buf = NULL;
	size_t len = 0, off = 0;
	FILE *m = open_memstream(&buf, &len);
	ssize_t n;

	if (json)
		write_by_size(r, p, json);
	if (!m)
		return;
	format_row(r, p, status, wall, json, m);
	if (fclose(m)) {
		free(buf);
		return;
	}
	while (off < len && ((n = write(r->out_fd, buf + off, len - off)) > 0 ||
			     (n < 0 && errno == EINTR)))
		off += n > 0 ? (size_t) n : 0;
	if (off < len)
		fprintf(stderr, "meshsweep: --out: write error on %s: %s\n",
			r->s->out, strerror(errno));
	free(buf);
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

/* The last non-empty line of text, without its newline, in place. */
static const char *last_line(char *text)
{
	char *end = text + strlen(text), *start;

	while (end > text && (end[-1] == '\n' || end[-1] == '\r'))
		*--end = '\0';
	start = strrchr(text, '\n');
	return start ? start + 1 : text;
}

/* One line on stderr for a failed point: its key, why, and the last line
 * the run printed. */
static void report_failure(struct runner *r, struct slot *sl, int wstatus,
			   int rc)
{
	char key[2048], why[128], *err = proc_read_file(sl->err);
	const char *said = err ? last_line(err) : "";

	point_key(&r->s->grid, sl->point, key, sizeof(key));
	if (WIFSIGNALED(wstatus) && WTERMSIG(wstatus) == SIGALRM && r->s->limit)
		snprintf(why, sizeof(why),
			 "timed out after %u s (--point-timeout)", r->s->limit);
	else if (WIFSIGNALED(wstatus))
		snprintf(why, sizeof(why), "killed by signal %d",
			 WTERMSIG(wstatus));
	else if (rc && WIFEXITED(wstatus))
		snprintf(why, sizeof(why), "exit %d", rc);
	else
		snprintf(why, sizeof(why), "no summary");
	fprintf(stderr, "%smeshsweep: point %s failed (%s)%s%s\n",
		r->tty ? "\n" : "", key, why, *said ? ": " : "", said);
	free(err);
}

static void finish_point(struct runner *r, struct slot *sl, int wstatus)
{
	int rc = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128;
	char *json = rc ? NULL : proc_read_file(sl->summary);
	struct timespec t1;
	double wall;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	wall = (double) (t1.tv_sec - sl->t0.tv_sec) +
	       (double) (t1.tv_nsec - sl->t0.tv_nsec) / 1e9;
	if (!rc && !json)
		rc = 1;
	if (rc && ++r->failed <= 5) /* the first few */
		report_failure(r, sl, wstatus, rc);
	write_row(r, sl->point, rc, wall, json);
	free(json);
	unlink(sl->summary);
	unlink(sl->err);
	sl->pid = 0;
	r->finished++;
	progress(r);
}

/* After a signal: the runs still going are stopped and reaped; one that
 * ended well just before keeps its row, the others leave none. */
static void stop_points(struct runner *r, struct slot *slots, size_t n)
{
	pid_t *pids = calloc(n, sizeof(*pids));
	int *st = calloc(n, sizeof(*st));
	size_t i;

	for (i = 0; pids && st && i < n; i++)
		pids[i] = slots[i].pid;
	if (pids && st)
		proc_stop(pids, st, n);
	for (i = 0; pids && st && i < n; i++)
		if (slots[i].pid > 0 && !pids[i] && WIFEXITED(st[i]) &&
		    !WEXITSTATUS(st[i]))
			finish_point(r, &slots[i], st[i]);
	free(pids);
	free(st);
}

static int run_points(struct runner *r)
{
	size_t np = grid_points(&r->s->grid), next = 0, busy = 0, i;
	size_t nslots = (size_t) r->s->jobs;
	struct slot *slots = calloc(nslots, sizeof(*slots));
	int st;
	pid_t pid;

	if (!slots)
		return -1;
	while (!cli_caught()) {
		while (busy < nslots && next < np) {
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
		pid = proc_wait(&st);
		for (i = 0; pid > 0 && i < nslots; i++) {
			if (slots[i].pid != pid)
				continue;
			/* After a signal (a terminal's Ctrl-C reaches the
			 * runs too) only a run that ended well counts. */
			if (!cli_caught() ||
			    (WIFEXITED(st) && !WEXITSTATUS(st)))
				finish_point(r, &slots[i], st);
			slots[i].pid = 0;
			busy--;
		}
	}
	if (cli_caught())
		stop_points(r, slots, nslots);
	free(slots);
	return cli_caught() ? -1 : 0;
}

/* OUT.csv -> OUT-SUFFIX.csv (or OUT-SUFFIX with an empty extension). */
static char *sibling(const char *out, const char *suffix, const char *ext)
{
	size_t n = strlen(out);
	char *a = malloc(n + strlen(suffix) + 8);

	if (!a)
		return NULL;
	if (n > 4 && !strcmp(out + n - 4, ".csv"))
		n -= 4;
	sprintf(a, "%.*s-%s%s", (int) n, out, suffix, ext);
	return a;
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

/* meshsim's revision, as its --version reports it (the last word). */
static int meshsim_revision(struct runner *r)
{
	char *av[] = { r->meshsim, "--version", NULL }, line[256];
	const char *sp;

	if (proc_first_line(av, line, sizeof(line))) {
		fprintf(stderr, "meshsweep: cannot run %s --version\n",
			r->meshsim);
		return -1;
	}
	sp = strrchr(line, ' ');
	snprintf(r->revision, sizeof(r->revision), "%s", sp ? sp + 1 : line);
	return 0;
}

/* Paths, meshsim's revision, the temporary directory and the CSVs. */
static int prepare(struct runner *r, struct sweep *s)
{
	const char *tmp = getenv("TMPDIR");
	char dir[sizeof(r->tmpdir)];

	r->s = s;
	r->t0 = time(NULL);
	r->out_fd = -1;
	r->tty = s->progress == 1 || (s->progress < 0 && isatty(2));
	cli_find_tool("MESHSIM", "meshsim", "../meshsim/meshsim", r->meshsim);
	cli_find_tool("MESHGEN", "meshsim-gen", "../meshgen/meshsim-gen",
		      r->meshgen);
	/* r->tmpdir names the directory only once it exists: cleanup()
	 * removes whatever it names. */
	snprintf(dir, sizeof(dir), "%s/meshsweep.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	r->by_size_path = sibling(s->out, "by-size", ".csv");
	r->wl_dir = sibling(s->out, "workloads", "");
	if (!r->by_size_path || !r->wl_dir)
		return -1;
	if ((!s->aggregate && meshsim_revision(r)) || !mkdtemp(dir))
		return -1;
	memcpy(r->tmpdir, dir, sizeof(dir));
	return open_tidy(r) || (!s->aggregate && open_by_size(r)) ? -1 : 0;
}

/* The points to run: all missing ones, --point's, or none. */
static void choose_points(struct runner *r)
{
	struct sweep *s = r->s;
	size_t np = grid_points(&s->grid), p;

	for (p = 0; p < np; p++)
		r->todo += !r->done[p] && !s->aggregate &&
			   (s->point < 0 || p == (size_t) s->point);
	if (s->aggregate && report_missing(r))
		r->failed = 1;
	for (p = 0; p < np && (s->aggregate || s->point >= 0); p++)
		if (p != (size_t) s->point)
			r->done[p] = 1; /* run nothing else */
	if (np > r->todo && s->point < 0 && !s->aggregate)
		fprintf(stderr, "meshsweep: %zu of %zu points already in %s\n",
			np - r->todo, np, s->out);
}

static void cleanup(struct runner *r)
{
	if (r->out_fd >= 0)
		close(r->out_fd);
	if (r->by_size)
		fclose(r->by_size);
	free(r->by_size_path);
	free(r->wl_dir);
	free(r->done);
	if (r->tmpdir[0])
		proc_remove_tree(r->tmpdir);
}

/* The aggregated CSV of a complete run (not of one --point). */
static int aggregate(struct runner *r)
{
	struct sweep *s = r->s;
	char *agg = s->agg ? NULL : sibling(s->out, "agg", ".csv");
	int rc = (!s->agg && !agg) ||
		 sweep_aggregate(s->out, s->agg ? s->agg : agg) || r->failed;

	if (r->failed && !s->aggregate)
		fprintf(stderr, "meshsweep: %zu of %zu points failed\n",
			r->failed, r->todo);
	free(agg);
	return rc;
}

int sweep_run(struct sweep *s)
{
	struct runner r;
	size_t np = grid_points(&s->grid);
	int rc = 1;

	memset(&r, 0, sizeof(r));
	proc_init();
	if (prepare(&r, s))
		goto out;
	if (s->point >= 0 && (size_t) s->point >= np) {
		fprintf(stderr,
			"meshsweep: --point %ld: %s has %zu points "
			"(0 to %zu)\n",
			s->point, s->grid_path, np, np ? np - 1 : 0);
		rc = 2;
		goto out;
	}
	choose_points(&r);
	if (!s->aggregate && (workloads_make(&r) || run_points(&r)))
		goto out;
	if (r.by_size && fclose(r.by_size)) {
		r.by_size = NULL;
		fprintf(stderr, "meshsweep: write error on %s\n",
			r.by_size_path);
		goto out;
	}
	r.by_size = NULL;
	rc = s->point >= 0 ? r.failed != 0 : aggregate(&r);
out:
	cleanup(&r);
	if (cli_caught()) {
		fprintf(stderr,
			"%smeshsweep: interrupted: %zu of %zu points ran, "
			"their rows are in %s\n",
			r.tty ? "\n" : "", r.finished, r.todo, s->out);
		cli_exit_signal(cli_caught());
	}
	return rc;
}

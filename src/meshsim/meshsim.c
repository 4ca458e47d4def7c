/* meshsim.c - replay an SWF trace on a mesh with one allocator and
 * report the dispersal and scheduling metrics of the literature.
 *
 * A thin front end: parsing options, printing, and writing files.  The
 * simulation, allocators and metrics live in the library.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"

#include "meshsim.h"
#include "outfile.h"
#include "sha256.h"

/* Loads --mesh-conf; the options then point into *conf. */
static int load_mesh_conf(struct options *o, struct mesh_conf **conf)
{
	double *bw[4] = { &o->sim.net.link_bw, &o->sim.net.node_bw,
			  &o->sim.net.ion_bw, &o->sim.net.fs_bw };
	const double *conf_bw[4];
	int i;
	struct mesh_diag d;
	char buf[1024];

	mesh_diag_clear(&d);
	if (mesh_conf_load(o->mesh_conf, conf, &d)) {
		fprintf(stderr, "meshsim: --mesh-conf: %s\n",
			mesh_diag_format(&d, buf, sizeof(buf)));
		return EXIT_USAGE;
	}
	o->allocator = (*conf)->allocator;
	o->alloc_params = (*conf)->alloc_params;
	conf_bw[0] = &(*conf)->net.link_bw;
	conf_bw[1] = &(*conf)->net.node_bw;
	conf_bw[2] = &(*conf)->net.ion_bw;
	conf_bw[3] = &(*conf)->net.fs_bw;
	/* the mesh's capacities and cores, where the command line gives
	 * none */
	for (i = 0; i < 4; i++)
		if (((*conf)->net_set >> i & 1) && !(o->net_set >> i & 1))
			*bw[i] = *conf_bw[i];
	if ((*conf)->cores_per_node && !o->cores_set)
		o->sim.cores_per_node = (*conf)->cores_per_node;
	return 0;
}

/* Most square W x H (W >= H) with W * H == n. */
static void near_square(long n, int dim[2])
{
	long h;

	for (h = (long) sqrt((double) n); h > 1 && n % h; h--)
		;
	dim[0] = (int) (n / h);
	dim[1] = (int) h;
}

static int make_topo(const struct options *o, const struct mesh_swf_trace *tr,
		     struct mesh_topo **t)
{
	struct mesh_diag d;
	char buf[1024];
	long cores = (long) o->sim.cores_per_node;
	long procs = tr->max_procs > 0 ? (tr->max_procs + cores - 1) / cores
				       : tr->max_nodes;
	int dim[2], rc;

	mesh_diag_clear(&d);
	if (o->mesh_spec) {
		rc = mesh_topo_parse(o->mesh_spec, t, &d);
		if (rc)
			fprintf(stderr, "meshsim: --mesh: %s\n",
				mesh_diag_format(&d, buf, sizeof(buf)));
		return rc ? EXIT_USAGE : 0;
	}
	if (procs <= 0 || procs > (long) MESH_MAX_NODES) {
		fprintf(
		    stderr,
		    "meshsim: %s: no MaxProcs/MaxNodes header; give --mesh WxH\n",
		    o->trace);
		return EXIT_USAGE;
	}
	near_square(procs, dim);
	if (dim[1] == 1 && procs > 3)
		fprintf(stderr,
			"meshsim: warning: %s: MaxProcs gives %ld nodes, a "
			"prime, so the default mesh is %dx1, a line; give "
			"--mesh WxH\n",
			o->trace, procs, dim[0]);
	rc = mesh_topo_create(2, dim, NULL, t);
	return rc ? EXIT_FAILURE : 0;
}

/* --io-nodes on the mesh just made. */
static int set_io_nodes(const struct options *o, struct mesh_topo *t)
{
	struct mesh_diag d;
	char buf[1024];

	mesh_diag_clear(&d);
	if (!o->io_nodes || !mesh_topo_parse_io_nodes(t, o->io_nodes, &d))
		return 0;
	fprintf(stderr, "meshsim: --io-nodes: %s\n",
		mesh_diag_format(&d, buf, sizeof(buf)));
	return EXIT_USAGE;
}

static void progress(void *arg, size_t done, size_t total)
{
	(void) arg;
	fprintf(stderr, "\rmeshsim: %zu/%zu jobs started", done, total);
	if (done == total)
		fputc('\n', stderr);
}

/* Everything one run holds, freed by run_free(). */
struct run {
	struct mesh_swf_trace *tr;
	struct mesh_conf *conf;
	struct mesh_topo *t; /* conf->topo when conf is set */
	struct mesh_allocator *a;
	struct mesh_bitmap *usable;
	struct mesh_job_attrs *attrs;
	struct mesh_sim_result *res;
	/* Opened before the simulation so that a typo fails at once, as
	 * temporary files renamed into place when complete; "-" is
	 * stdout. */
	struct cli_outfile csv, summary;
};

static void run_free(struct run *r)
{
	mesh_sim_result_free(r->res);
	mesh_alloc_destroy(r->a);
	mesh_bitmap_destroy(r->usable);
	mesh_job_attrs_free(r->attrs);
	if (!r->conf)
		mesh_topo_destroy(r->t);
	mesh_conf_destroy(r->conf);
	mesh_swf_free(r->tr);
}

/* Positions jobs may get: the named nodes of a mesh.conf; without one,
 * every position but the I/O nodes (unless --io-nodes-compute). */
static int make_usable(const struct options *o, struct run *r)
{
	uint32_t i;

	if (mesh_bitmap_create(r->t->nodes, &r->usable))
		return EXIT_FAILURE;
	mesh_bitmap_fill(r->usable, true);
	for (i = 0; i < r->t->nodes; i++)
		if ((r->conf && !r->conf->node_name[i]) ||
		    (!r->conf && !o->io_nodes_compute &&
		     mesh_topo_is_io(r->t, i)))
			mesh_bitmap_clear(r->usable, i);
	return 0;
}

/* job_info callback: the sidecar's hints for one job. */
static void job_info_from_attrs(void *arg, long id,
				struct mesh_sim_job_info *info)
{
	const struct mesh_job_attr *a = mesh_job_attrs_find(arg, id);

	if (!a)
		return;
	if (a->hints.comm != MESH_COMM_UNKNOWN)
		info->comm = a->hints.comm;
	if (a->hints.io_intensity >= 0) {
		info->io_intensity = a->hints.io_intensity;
		info->io_share = a->hints.io_intensity;
		if (info->comm_share + info->io_share > 1)
			info->comm_share = 1 - info->io_share;
	}
	if (a->comm_share >= 0)
		info->comm_share = a->comm_share;
	memcpy(info->shape, a->hints.shape, sizeof(info->shape));
	info->pairs = a->pairs;
	info->n_pairs = a->n_pairs;
	info->compute_phase = a->compute_phase;
	info->checkpoint_phase = a->checkpoint_phase;
	info->io_volume = a->io_volume;
}

static int load_job_attrs(struct options *o, struct run *r)
{
	struct mesh_diag d;
	char buf[1024];

	if (!o->job_attrs)
		return 0;
	mesh_diag_clear(&d);
	if (mesh_job_attrs_load(o->job_attrs, &r->attrs, &d)) {
		fprintf(stderr, "meshsim: --job-attrs: %s\n",
			mesh_diag_format(&d, buf, sizeof(buf)));
		return EXIT_FAILURE;
	}
	o->sim.job_info = job_info_from_attrs;
	o->sim.job_info_arg = r->attrs;
	return 0;
}

static int by_id_line(const void *a, const void *b)
{
	const struct mesh_swf_job *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return (x->line > y->line) - (x->line < y->line);
}

/* A header whose MaxProcs is not its MaxNodes counts processors: say how
 * many per node, unless --cores-per-node already maps one to the other. */
static void warn_node_count(const struct options *o,
			    const struct mesh_swf_trace *tr)
{
	long p = tr->max_procs, n = tr->max_nodes;
	long c = (long) o->sim.cores_per_node;

	if (p <= 0 || n <= 0 || (p + c - 1) / c == n)
		return;
	if (c == 1 && p % n == 0)
		fprintf(
		    stderr,
		    "meshsim: warning: %s: MaxProcs %ld is not MaxNodes "
		    "%ld: the sizes count processors, %ld per node; meshsim "
		    "places one per node unless --cores-per-node %ld\n",
		    o->trace, p, n, p / n, p / n);
	else
		fprintf(stderr,
			"meshsim: warning: %s: MaxProcs %ld on %ld nodes "
			"(MaxNodes) is not %ld per node (--cores-per-node)\n",
			o->trace, p, n, c);
}

/* Estimates that are the runtime without the user asking for it (a
 * trace without requested times gets perfect estimates; clamp gives the
 * true runtime of a job that ran past its request): counted for the
 * summary and said on stderr. */
static void warn_estimates(struct options *o, const struct mesh_swf_trace *tr)
{
	size_t i;

	for (i = 0; i < tr->n; i++) {
		if (tr->jobs[i].req_time <= 0)
			o->est_no_request++;
		else if (tr->jobs[i].req_time < tr->jobs[i].run)
			o->est_clamped++;
	}
	if (o->sim.estimate == MESH_ESTIMATE_EXACT)
		return;
	if (o->est_no_request == tr->n)
		fprintf(stderr,
			"meshsim: warning: %s: no job has a requested time "
			"(field 9): every estimate is the job's runtime, as "
			"with --estimate exact\n",
			o->trace);
	else if (o->est_no_request)
		fprintf(stderr,
			"meshsim: warning: %s: %zu of %zu jobs have no "
			"requested time (field 9): their estimates are their "
			"runtimes\n",
			o->trace, o->est_no_request, tr->n);
	if (o->est_clamped)
		fprintf(stderr,
			"meshsim: warning: %s: %zu jobs ran past their "
			"requested time: --estimate clamp gives the scheduler "
			"their runtimes\n",
			o->trace, o->est_clamped);
}

/* An empty trace, and job ids given more than once (each line is still
 * simulated as a job of its own), are warned about with their lines. */
/* Sizes that count cores: of the jobs whose size is not a power of two
 * (node counts often are), at least 90% are multiples of some c in
 * 2..64, and there are at least 20 of them.  The largest such c. */
static long core_count_hint(const struct mesh_swf_trace *tr)
{
	size_t i, odd = 0, mult[65] = { 0 };
	long c, p;

	for (i = 0; i < tr->n; i++) {
		p = tr->jobs[i].procs > 0 ? tr->jobs[i].procs
					  : tr->jobs[i].req_procs;
		if (p < 3 || !(p & (p - 1)))
			continue;
		odd++;
		for (c = 2; c <= 64; c++)
			mult[c] += p % c == 0;
	}
	for (c = 64; odd >= 20 && c >= 2; c--)
		if (mult[c] * 10 >= odd * 9)
			return c;
	return 0;
}

static void warn_trace(struct options *o, const struct mesh_swf_trace *tr)
{
	struct mesh_swf_job *j;
	size_t i, k, dups = 0;
	long c;

	if (!tr->n) {
		fprintf(stderr,
			"meshsim: warning: %s: no job lines (only comments or "
			"blank lines): nothing to simulate\n",
			o->trace);
		return;
	}
	warn_estimates(o, tr);
	warn_node_count(o, tr);
	if (o->sim.cores_per_node == 1 && (c = core_count_hint(tr)))
		fprintf(stderr,
			"meshsim: warning: %s: the job sizes that are not "
			"powers of two are nearly all multiples of %ld, as "
			"if they counted cores on nodes of %ld; meshsim "
			"places one per node unless --cores-per-node %ld\n",
			o->trace, c, c, c);
	j = malloc(tr->n * sizeof(*j));
	if (!j)
		return;
	memcpy(j, tr->jobs, tr->n * sizeof(*j));
	qsort(j, tr->n, sizeof(*j), by_id_line);
	for (i = 0; i < tr->n; i = k) {
		for (k = i + 1; k < tr->n && j[k].id == j[i].id; k++)
			;
		if (k - i < 2 || ++dups > 5)
			continue;
		fprintf(
		    stderr,
		    "meshsim: warning: %s: job id %ld is on %zu lines (%ld, "
		    "%ld%s); each is simulated as a job\n",
		    o->trace, j[i].id, k - i, j[i].line, j[i + 1].line,
		    k - i > 2 ? ", ..." : "");
	}
	if (dups > 5)
		fprintf(stderr,
			"meshsim: warning: %s: %zu job ids in all are on more "
			"than one line\n",
			o->trace, dups);
	free(j);
}

/* Trace, mesh, usable positions, sidecar and allocator. */
static int prepare(struct options *o, struct run *r)
{
	struct mesh_diag d;
	char buf[1024];
	int status;

	mesh_diag_clear(&d);
	if (mesh_swf_load(o->trace, &r->tr, &d)) {
		fprintf(stderr, "meshsim: %s\n",
			mesh_diag_format(&d, buf, sizeof(buf)));
		return EXIT_FAILURE;
	}
	if (o->mesh_conf) { /* before warn_trace(): CoresPerNode= */
		status = load_mesh_conf(o, &r->conf);
		if (status)
			return status;
		r->t = r->conf->topo;
	}
	warn_trace(o, r->tr);
	if (!o->mesh_conf) {
		status = make_topo(o, r->tr, &r->t);
		if (!status)
			status = set_io_nodes(o, r->t);
	}
	if (!status)
		status = make_usable(o, r);
	if (!status)
		status = load_job_attrs(o, r);
	if (status)
		return status;
	o->usable_nodes = mesh_bitmap_count(r->usable);
	o->sim.usable = r->usable;
	if (mesh_alloc_create(r->t, o->allocator, o->alloc_params, &r->a, &d)) {
		fprintf(stderr, "meshsim: --allocator: %s\n",
			mesh_diag_format(&d, buf, sizeof(buf)));
		return EXIT_USAGE;
	}
	return 0;
}

/* The SHA-256 of path into hex, if it is a regular file ("" if not: a
 * pipe can be read only once); 0, or EXIT_FAILURE if it cannot be
 * read. */
static int hash_input(const char *opt, const char *path, char hex[65])
{
	struct stat st;

	hex[0] = '\0';
	if (!path || stat(path, &st) || !S_ISREG(st.st_mode))
		return 0;
	if (!cli_sha256_file(path, hex))
		return 0;
	fprintf(stderr, "meshsim: %s: cannot read %s: %s\n", opt, path,
		strerror(errno));
	return EXIT_FAILURE;
}

static int hash_inputs(struct options *o)
{
	return hash_input("trace", o->trace, o->trace_sha256) ||
		       hash_input("--job-attrs", o->job_attrs,
				  o->job_attrs_sha256) ||
		       hash_input("--mesh-conf", o->mesh_conf,
				  o->mesh_conf_sha256)
		   ? EXIT_FAILURE
		   : 0;
}

/* Offered load: the work of the simulated jobs (trace runtime times
 * size) over the usable nodes times the span of their (load-scaled)
 * submit times; -1 if the span is 0.  Above 1 the queue grows without
 * bound, and the means measure the queue, not the placement. */
static double offered_load(const struct mesh_sim_result *r, uint32_t usable)
{
	double work = 0, first = 0, last = 0;
	size_t i;

	for (i = 0; i < r->n; i++) {
		const struct mesh_sim_job *j = &r->jobs[i];

		work += j->trace_run * j->size;
		first = i && first < j->submit ? first : j->submit;
		last = i && last > j->submit ? last : j->submit;
	}
	return last > first && usable
		   ? work / ((double) usable * (last - first))
		   : -1;
}

/* One line on stderr whenever jobs did not run, so none goes unseen. */
static void warn_lost(const struct options *o, const struct mesh_sim_summary *s)
{
	if (!s->skipped && !s->refused)
		return;
	fprintf(stderr,
		"meshsim: warning: %s: %zu of %zu jobs not simulated "
		"(skipped: runtime %zu, size %zu, more than %u usable nodes "
		"%zu, submit time %zu; never placeable: %zu)\n",
		o->trace, s->skipped + s->refused,
		s->jobs + s->skipped + s->refused, s->skipped_runtime,
		s->skipped_size, o->usable_nodes, s->skipped_too_large,
		s->skipped_submit, s->refused);
}

/* Both outputs, or (on any error) neither: a file that existed is then
 * left as it was. */
static int write_outputs(const struct options *o, struct run *r)
{
	int rc = 0;

	if (o->jobs_csv)
		rc |= meshsim_write_jobs_csv(r->csv.f, o->jobs_csv, r->t,
					     r->res, meshsim_windowed(o));
	if (o->summary_json)
		rc |= meshsim_write_summary(r->summary.f, o->summary_json, o,
					    r->t, &r->res->summary);
	if (!rc && o->jobs_csv)
		rc |= cli_out_commit(&r->csv, "meshsim", "--jobs-csv");
	if (!rc && o->summary_json)
		rc |= cli_out_commit(&r->summary, "meshsim", "--summary");
	return rc ? EXIT_FAILURE : EXIT_SUCCESS;
}

static int open_outputs(const struct options *o, struct run *r)
{
	if (o->jobs_csv &&
	    cli_out_open(&r->csv, "meshsim", "--jobs-csv", o->jobs_csv))
		return EXIT_USAGE;
	if (o->summary_json &&
	    cli_out_open(&r->summary, "meshsim", "--summary", o->summary_json))
		return EXIT_USAGE;
	return 0;
}

static int run(struct options *o)
{
	struct mesh_diag d;
	struct run r;
	char buf[1024];
	int status;

	memset(&r, 0, sizeof(r));
	r.csv.slot = r.summary.slot = -1;
	status = open_outputs(o, &r);
	if (!status)
		status = hash_inputs(o);
	if (!status)
		status = prepare(o, &r);
	if (status)
		goto out;
	if (o->progress == 1 || (o->progress < 0 && isatty(STDERR_FILENO)))
		o->sim.progress = progress;
	o->sim.keep_nodes = o->jobs_csv != NULL; /* only the CSV needs them */
	mesh_diag_clear(&d);
	status = mesh_sim_run(r.t, r.a, r.tr, &o->sim, &r.res, &d);
	if (!status)
		o->offered_load = offered_load(r.res, o->usable_nodes);
	if (status) {
		fprintf(stderr, "meshsim: %s: %s\n", o->trace,
			d.message[0] ? mesh_diag_format(&d, buf, sizeof(buf))
				     : mesh_strerror(status));
		status = EXIT_FAILURE;
		goto out;
	}
	/* The table moves to stderr when stdout carries a file's data. */
	meshsim_print_table(r.csv.f == stdout || r.summary.f == stdout ? stderr
								       : stdout,
			    o, r.t, &r.res->summary);
	warn_lost(o, &r.res->summary);
	if (o->offered_load > 1)
		fprintf(
		    stderr,
		    "meshsim: warning: %s: saturated: offered load %.3f > 1 "
		    "(the jobs' work over %u usable nodes times their "
		    "submit span): the queue grows without bound, so the "
		    "means measure the queue, not the placement\n",
		    o->trace, o->offered_load, o->usable_nodes);
	if (meshsim_windowed(o) && !r.res->summary.measured)
		fprintf(stderr,
			"meshsim: warning: %s: no job measured: the warm-up "
			"and cool-down cover the whole window, so every mean "
			"reads 0\n",
			o->trace);
	status = write_outputs(o, &r);
out:
	/* A run that failed removes its temporary files (none is left if
	 * they were renamed). */
	cli_out_abort(&r.csv);
	cli_out_abort(&r.summary);
	run_free(&r);
	return status;
}

int main(int argc, char **argv)
{
	struct options o;
	int rc;

	cli_signals(0);
	rc = meshsim_parse_args(argc, argv, &o);

	if (rc >= 0)
		return rc;
	return run(&o);
}

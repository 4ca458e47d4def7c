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
#include <unistd.h>

#include "config.h"

#include "mesh.h"

#define EXIT_USAGE 2

struct options {
	const char *mesh_spec;
	const char *allocator;
	const char *alloc_params;
	const char *mesh_conf;
	const char *io_nodes;
	int allocator_set; /* --allocator or --allocator-params given */
	const char *jobs_csv;
	const char *summary_json;
	const char *trace;
	struct mesh_sim_opts sim;
	int progress; /* -1 auto (stderr is a tty), 0 off, 1 on */
};

static void usage(FILE *f)
{
	fprintf(
	    f,
	    "Usage: meshsim [OPTIONS] TRACE.swf\n"
	    "Replay a Standard Workload Format trace on a 2D/3D mesh or torus.\n\n"
	    "  --mesh WxH[xD]        mesh dimensions; 't' after a dimension = wraparound\n"
	    "                        (default: near-square 2D mesh of the trace's MaxProcs)\n"
	    "  --allocator NAME      node allocator (default colsnake-bf)\n"
	    "  --allocator-params P  allocator parameters, key=value[,key=value]\n"
	    "  --io-nodes X,Y[,Z];...  designated I/O node coordinates (for plas and\n"
	    "                        mc-elongated)\n"
	    "  --mesh-conf FILE      take mesh, I/O nodes, allocator and parameters from a\n"
	    "                        mesh.conf (see mesh.conf(5)); excludes --mesh and\n"
	    "                        --allocator/--allocator-params\n"
	    "  --scheduler fcfs|easy scheduling policy (default easy)\n"
	    "  --priority fcfs|wfp|ozden\n"
	    "                        queue order: submit order (default); WFP, highest\n"
	    "                        (wait/requested)^3 * nodes first (Tang et al.); or\n"
	    "                        Ozden et al.'s I/O-balancing weighted priority\n"
	    "  --alpha A             ozden reordering strength, 0..1 (default 0 = FCFS)\n"
	    "  --paired-filling      Tang et al.'s PF: start a queued job of the same size\n"
	    "                        and closest estimate next to a job that starts beside\n"
	    "                        idle nodes (with sl:<allocator>: Combo)\n"
	    "  --pf-max-size N       paired filling only for jobs of at most N nodes\n"
	    "  --spatial-estimate user|adjusted|actual\n"
	    "                        end time that placement (sl:*) sees: the estimate\n"
	    "                        (default), Tang's adjusted estimate (AdjEst), or the\n"
	    "                        actual runtime (ActRun)\n"
	    "  --load F              multiply inter-arrival times by F > 0 (default 1)\n"
	    "  --estimate clamp|exact\n"
	    "                        clamp: requested time, or the actual runtime when the\n"
	    "                        request is missing or shorter (default); exact: always\n"
	    "                        the actual runtime\n"
	    "  --size alloc|req      job size from allocated (default) or requested procs;\n"
	    "                        the other field is used when the first is missing\n"
	    "  --keep-zero-runtime   simulate jobs whose runtime is 0 (placed, then freed at\n"
	    "                        once) instead of skipping them, as Walker et al. do\n"
	    "  --seed N              seed for randomised allocators (default 0)\n"
	    "  --runtime-model trace|contention|pfs\n"
	    "                        trace: trace runtimes (default); contention: the\n"
	    "                        communication and I/O phases are stretched by the\n"
	    "                        link load among running jobs; pfs: the I/O phases\n"
	    "                        share one parallel file system (doc/runtime-models.md)\n"
	    "  --pfs-bandwidth GB/S  pfs: file system bandwidth (default 48)\n"
	    "  --node-bandwidth GB/S pfs: one node's I/O bandwidth (default 12.5)\n"
	    "  --comm PATTERN        contention: all-to-all, one-to-all, nearest or none\n"
	    "                        (default none)\n"
	    "  --comm-share F        contention: runtime share of communication (0..1)\n"
	    "  --io-share F          contention: runtime share of I/O (0..1; needs I/O\n"
	    "                        nodes)\n"
	    "  --jobs-csv FILE       one row per job, with node coordinates\n"
	    "  --summary FILE        JSON summary\n"
	    "  --progress / --no-progress  progress on stderr (default: if a terminal)\n"
	    "  --list-allocators     list allocators and exit\n"
	    "  --help, --version\n");
}

static int fail_usage(const char *opt, const char *val, const char *why)
{
	fprintf(stderr, "meshsim: %s: invalid value \"%s\": %s\n", opt, val,
		why);
	fprintf(stderr, "Try 'meshsim --help'.\n");
	return EXIT_USAGE;
}

static int parse_double(const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	return *s && !*end && !errno && isfinite(*out) ? 0 : -1;
}

static void list_allocators(void)
{
	size_t i, n = mesh_alloc_count();

	for (i = 0; i < n; i++) {
		const struct mesh_alloc_info *info = mesh_alloc_describe(i);

		printf("%-22s %s\n", info->name, info->summary);
	}
}

enum {
	OPT_MESH = 256,
	OPT_ALLOC,
	OPT_PARAMS,
	OPT_SCHED,
	OPT_LOAD,
	OPT_EST,
	OPT_SIZE,
	OPT_SEED,
	OPT_CSV,
	OPT_SUMMARY,
	OPT_PROGRESS,
	OPT_NOPROGRESS,
	OPT_LIST,
	OPT_HELP,
	OPT_VERSION,
	OPT_KEEP0,
	OPT_MESHCONF,
	OPT_IONODES,
	OPT_RUNTIME,
	OPT_COMM,
	OPT_COMMSHARE,
	OPT_IOSHARE,
	OPT_PRIORITY,
	OPT_ALPHA,
	OPT_PF,
	OPT_PFMAX,
	OPT_SPATIAL,
	OPT_PFSBW,
	OPT_NODEBW
};

static const struct option long_opts[] = {
	{ "mesh", required_argument, NULL, OPT_MESH },
	{ "allocator", required_argument, NULL, OPT_ALLOC },
	{ "allocator-params", required_argument, NULL, OPT_PARAMS },
	{ "mesh-conf", required_argument, NULL, OPT_MESHCONF },
	{ "io-nodes", required_argument, NULL, OPT_IONODES },
	{ "scheduler", required_argument, NULL, OPT_SCHED },
	{ "load", required_argument, NULL, OPT_LOAD },
	{ "estimate", required_argument, NULL, OPT_EST },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "keep-zero-runtime", no_argument, NULL, OPT_KEEP0 },
	{ "runtime-model", required_argument, NULL, OPT_RUNTIME },
	{ "priority", required_argument, NULL, OPT_PRIORITY },
	{ "alpha", required_argument, NULL, OPT_ALPHA },
	{ "paired-filling", no_argument, NULL, OPT_PF },
	{ "pf-max-size", required_argument, NULL, OPT_PFMAX },
	{ "spatial-estimate", required_argument, NULL, OPT_SPATIAL },
	{ "pfs-bandwidth", required_argument, NULL, OPT_PFSBW },
	{ "node-bandwidth", required_argument, NULL, OPT_NODEBW },
	{ "comm", required_argument, NULL, OPT_COMM },
	{ "comm-share", required_argument, NULL, OPT_COMMSHARE },
	{ "io-share", required_argument, NULL, OPT_IOSHARE },
	{ "jobs-csv", required_argument, NULL, OPT_CSV },
	{ "summary", required_argument, NULL, OPT_SUMMARY },
	{ "progress", no_argument, NULL, OPT_PROGRESS },
	{ "no-progress", no_argument, NULL, OPT_NOPROGRESS },
	{ "list-allocators", no_argument, NULL, OPT_LIST },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

/* --runtime-model and its parameters; -1 to continue, else a status. */
static int parse_runtime_option(int c, struct options *o)
{
	double *share =
	    c == OPT_COMMSHARE ? &o->sim.comm_share : &o->sim.io_share;

	switch (c) {
	case OPT_RUNTIME:
		if (!strcmp(optarg, "trace"))
			o->sim.runtime_model = MESH_RUNTIME_TRACE;
		else if (!strcmp(optarg, "contention"))
			o->sim.runtime_model = MESH_RUNTIME_CONTENTION;
		else if (!strcmp(optarg, "pfs"))
			o->sim.runtime_model = MESH_RUNTIME_PFS;
		else
			return fail_usage("--runtime-model", optarg,
					  "expected trace, contention or pfs");
		return -1;
	case OPT_COMM:
		o->sim.comm = mesh_comm_parse(optarg);
		if (o->sim.comm == MESH_COMM_UNKNOWN)
			return fail_usage("--comm", optarg,
					  "expected all-to-all, one-to-all, "
					  "nearest or none");
		return -1;
	case OPT_PFSBW:
	case OPT_NODEBW: {
		double *bw = c == OPT_PFSBW ? &o->sim.pfs_bandwidth
					    : &o->sim.node_bandwidth;

		if (parse_double(optarg, bw) || !(*bw > 0))
			return fail_usage(c == OPT_PFSBW ? "--pfs-bandwidth"
							 : "--node-bandwidth",
					  optarg, "expected GB/s > 0");
		return -1;
	}
	default:
		if (parse_double(optarg, share) || !(*share >= 0) || *share > 1)
			return fail_usage(
			    c == OPT_COMMSHARE ? "--comm-share" : "--io-share",
			    optarg, "expected a number in [0, 1]");
		return -1;
	}
}

static const char *const spatial_names[] = { "user", "adjusted", "actual" };

/* Tang's walltime-aware options; -1 to continue, else a status. */
static int parse_walltime_option(int c, struct options *o)
{
	unsigned long v;
	char *end;
	int i;

	switch (c) {
	case OPT_PF:
		o->sim.paired_filling = 1;
		return -1;
	case OPT_PFMAX:
		errno = 0;
		v = strtoul(optarg, &end, 10);
		if (!*optarg || *end || errno || optarg[0] == '-' ||
		    v > UINT32_MAX)
			return fail_usage("--pf-max-size", optarg,
					  "expected a node count");
		o->sim.pf_max_size = (uint32_t) v;
		return -1;
	default:
		for (i = 0; i < 3; i++)
			if (!strcmp(optarg, spatial_names[i])) {
				o->sim.spatial_estimate =
				    (enum mesh_spatial_estimate) i;
				return -1;
			}
		return fail_usage("--spatial-estimate", optarg,
				  "expected user, adjusted or actual");
	}
}

/* Returns -1 to continue, else an exit status. */
static int parse_option(int c, struct options *o)
{
	char *end;

	switch (c) {
	case OPT_MESH:
		o->mesh_spec = optarg;
		break;
	case OPT_ALLOC:
		o->allocator = optarg;
		o->allocator_set = 1;
		break;
	case OPT_PARAMS:
		o->alloc_params = optarg;
		o->allocator_set = 1;
		break;
	case OPT_MESHCONF:
		o->mesh_conf = optarg;
		break;
	case OPT_IONODES:
		o->io_nodes = optarg;
		break;
	case OPT_CSV:
		o->jobs_csv = optarg;
		break;
	case OPT_SUMMARY:
		o->summary_json = optarg;
		break;
	case OPT_PROGRESS:
		o->progress = 1;
		break;
	case OPT_KEEP0:
		o->sim.keep_zero_runtime = 1;
		break;
	case OPT_NOPROGRESS:
		o->progress = 0;
		break;
	case OPT_SCHED:
		if (!strcmp(optarg, "fcfs"))
			o->sim.sched = MESH_SCHED_FCFS;
		else if (!strcmp(optarg, "easy"))
			o->sim.sched = MESH_SCHED_EASY;
		else
			return fail_usage("--scheduler", optarg,
					  "expected fcfs or easy");
		break;
	case OPT_LOAD:
		if (parse_double(optarg, &o->sim.load) || !(o->sim.load > 0))
			return fail_usage("--load", optarg,
					  "expected a number > 0");
		break;
	case OPT_EST:
		if (!strcmp(optarg, "clamp"))
			o->sim.estimate = MESH_ESTIMATE_CLAMP;
		else if (!strcmp(optarg, "exact"))
			o->sim.estimate = MESH_ESTIMATE_EXACT;
		else
			return fail_usage("--estimate", optarg,
					  "expected clamp or exact");
		break;
	case OPT_SIZE:
		if (!strcmp(optarg, "alloc"))
			o->sim.size_field = MESH_SIZE_ALLOC;
		else if (!strcmp(optarg, "req"))
			o->sim.size_field = MESH_SIZE_REQ;
		else
			return fail_usage("--size", optarg,
					  "expected alloc or req");
		break;
	case OPT_SEED:
		errno = 0;
		o->sim.seed = strtoull(optarg, &end, 10);
		if (!*optarg || *end || errno || optarg[0] == '-')
			return fail_usage("--seed", optarg,
					  "expected a non-negative integer");
		break;
	case OPT_RUNTIME:
	case OPT_COMM:
	case OPT_COMMSHARE:
	case OPT_IOSHARE:
	case OPT_PFSBW:
	case OPT_NODEBW:
		return parse_runtime_option(c, o);
	case OPT_PF:
	case OPT_PFMAX:
	case OPT_SPATIAL:
		return parse_walltime_option(c, o);
	case OPT_PRIORITY:
		if (!strcmp(optarg, "fcfs"))
			o->sim.priority = MESH_PRIO_FCFS;
		else if (!strcmp(optarg, "wfp"))
			o->sim.priority = MESH_PRIO_WFP;
		else if (!strcmp(optarg, "ozden"))
			o->sim.priority = MESH_PRIO_OZDEN;
		else
			return fail_usage("--priority", optarg,
					  "expected fcfs, wfp or ozden");
		break;
	case OPT_ALPHA:
		if (parse_double(optarg, &o->sim.alpha) ||
		    !(o->sim.alpha >= 0 && o->sim.alpha <= 1))
			return fail_usage("--alpha", optarg,
					  "expected a number in [0, 1]");
		break;
	case OPT_LIST:
		list_allocators();
		return 0;
	case OPT_HELP:
		usage(stdout);
		return 0;
	case OPT_VERSION:
		printf("meshsim (slurm-mesh) " PACKAGE_VERSION "\n");
		return 0;
	default:
		usage(stderr);
		return EXIT_USAGE;
	}
	return -1;
}

static int parse_args(int argc, char **argv, struct options *o)
{
	int c, rc;

	memset(o, 0, sizeof(*o));
	mesh_sim_opts_init(&o->sim);
	o->allocator = "colsnake-bf";
	o->progress = -1;
	while ((c = getopt_long(argc, argv, "", long_opts, NULL)) != -1) {
		rc = parse_option(c, o);
		if (rc >= 0)
			return rc;
	}
	if (optind != argc - 1) {
		fprintf(stderr,
			"meshsim: expected exactly one trace file, got %d\n",
			argc - optind);
		fprintf(stderr, "Try 'meshsim --help'.\n");
		return EXIT_USAGE;
	}
	o->trace = argv[optind];
	if (o->mesh_conf && (o->mesh_spec || o->allocator_set || o->io_nodes)) {
		fprintf(
		    stderr,
		    "meshsim: --mesh-conf %s conflicts with %s: the file sets the mesh, its I/O nodes and the allocator\n",
		    o->mesh_conf,
		    o->mesh_spec  ? "--mesh"
		    : o->io_nodes ? "--io-nodes"
				  : "--allocator/--allocator-params");
		fprintf(stderr, "Try 'meshsim --help'.\n");
		return EXIT_USAGE;
	}
	if (o->sim.comm_share + o->sim.io_share > 1) {
		fprintf(
		    stderr,
		    "meshsim: --comm-share %g plus --io-share %g exceeds 1: "
		    "they are shares of one runtime\n",
		    o->sim.comm_share, o->sim.io_share);
		return EXIT_USAGE;
	}
	return -1;
}

/* Loads --mesh-conf; the options then point into *conf. */
static int load_mesh_conf(struct options *o, struct mesh_conf **conf)
{
	struct mesh_diag d;
	char buf[600];

	mesh_diag_clear(&d);
	if (mesh_conf_load(o->mesh_conf, conf, &d)) {
		fprintf(stderr, "meshsim: --mesh-conf: %s\n",
			mesh_diag_format(&d, buf, sizeof(buf)));
		return EXIT_USAGE;
	}
	o->allocator = (*conf)->allocator;
	o->alloc_params = (*conf)->alloc_params;
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
	char buf[512];
	long procs = tr->max_procs > 0 ? tr->max_procs : tr->max_nodes;
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
	rc = mesh_topo_create(2, dim, NULL, t);
	return rc ? EXIT_FAILURE : 0;
}

/* --io-nodes on the mesh just made. */
static int set_io_nodes(const struct options *o, struct mesh_topo *t)
{
	struct mesh_diag d;
	char buf[512];

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

static void write_coords(FILE *f, const struct mesh_topo *t,
			 const uint32_t *nodes, uint32_t n)
{
	int c[MESH_MAX_DIMS], d;
	uint32_t i;

	for (i = 0; i < n; i++) {
		mesh_topo_coords(t, nodes[i], c);
		fputs(i ? " " : "", f);
		for (d = 0; d < t->ndims; d++)
			fprintf(f, d ? ":%d" : "%d", c[d]);
	}
}

static int write_jobs_csv(const char *path, const struct mesh_topo *t,
			  const struct mesh_sim_result *r)
{
	FILE *f = fopen(path, "w");
	size_t i;

	if (!f) {
		fprintf(stderr, "meshsim: --jobs-csv: cannot open %s: %s\n",
			path, strerror(errno));
		return -1;
	}
	fprintf(
	    f,
	    "job_id,submit,start,end,wait,run,nodes,sum_pairwise,avg_pairwise,diameter,coords,trace_run,io_time\n");
	for (i = 0; i < r->n; i++) {
		const struct mesh_sim_job *j = &r->jobs[i];

		fprintf(f, "%ld,%.17g,%.17g,%.17g,%.17g,%.17g,%u,%llu,%.6f,%d,",
			j->id, j->submit, j->start, j->end,
			j->start - j->submit, j->run, j->size,
			(unsigned long long) j->sum_pairwise, j->avg_pairwise,
			j->diameter);
		write_coords(f, t, r->nodes + j->node_off, j->size);
		fprintf(f, ",%.17g,%.17g\n", j->trace_run, j->io_time);
	}
	if (fclose(f)) {
		fprintf(stderr, "meshsim: --jobs-csv: write error on %s\n",
			path);
		return -1;
	}
	return 0;
}

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if ((unsigned char) *s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static const char *const runtime_names[] = { "trace", "contention", "pfs" };

static const char *priority_name(enum mesh_priority p)
{
	return p == MESH_PRIO_WFP     ? "wfp"
	       : p == MESH_PRIO_OZDEN ? "ozden"
				      : "fcfs";
}

/* Queue policy, fragmentation, I/O balance and size classes. */
static void write_summary_policy(FILE *f, const struct options *o,
				 const struct mesh_topo *t,
				 const struct mesh_sim_summary *s)
{
	size_t i;

	fprintf(f, "  \"priority\": \"%s\",\n  \"alpha\": %.17g,\n",
		priority_name(o->sim.priority), o->sim.alpha);
	fprintf(f,
		"  \"paired_filling\": %s,\n  \"pf_max_size\": %u,\n"
		"  \"spatial_estimate\": \"%s\",\n",
		o->sim.paired_filling ? "true" : "false", o->sim.pf_max_size,
		spatial_names[o->sim.spatial_estimate]);
	fprintf(f, "  \"loss_of_capacity\": %.17g,\n", s->loss_of_capacity);
	if (t->n_io)
		fprintf(f,
			"  \"avg_balance_factor\": %.17g,\n"
			"  \"avg_max_contention\": %.17g,\n",
			s->avg_balance_factor, s->avg_max_contention);
	else
		fprintf(f, "  \"avg_balance_factor\": null,\n"
			   "  \"avg_max_contention\": null,\n");
	fprintf(f, "  \"by_size\": [");
	for (i = 0; i < s->n_size_classes; i++) {
		const struct mesh_size_class *c = &s->by_size[i];

		fprintf(f,
			"%s\n    {\"min\": %u, \"max\": %u, \"jobs\": %zu, "
			"\"mean_wait\": %.17g, \"mean_bounded_slowdown\": "
			"%.17g}",
			i ? "," : "", c->min, c->max, c->jobs, c->mean_wait,
			c->mean_bounded_slowdown);
	}
	fprintf(f, "%s],\n", s->n_size_classes ? "\n  " : "");
}

static int write_summary(const char *path, const struct options *o,
			 const struct mesh_topo *t,
			 const struct mesh_sim_summary *s)
{
	FILE *f = fopen(path, "w");
	char mesh[64];

	if (!f) {
		fprintf(stderr, "meshsim: --summary: cannot open %s: %s\n",
			path, strerror(errno));
		return -1;
	}
	fprintf(f, "{\n  \"trace\": ");
	json_string(f, o->trace);
	fprintf(f, ",\n  \"mesh\": \"%s\",\n  \"allocator\": ",
		mesh_topo_format(t, mesh, sizeof(mesh)));
	json_string(f, o->allocator);
	fprintf(f, ",\n  \"scheduler\": \"%s\",\n  \"load\": %.17g,\n",
		o->sim.sched == MESH_SCHED_EASY ? "easy" : "fcfs", o->sim.load);
	fprintf(f, "  \"estimate\": \"%s\",\n",
		o->sim.estimate == MESH_ESTIMATE_EXACT ? "exact" : "clamp");
	fprintf(f,
		"  \"runtime_model\": \"%s\",\n  \"comm\": \"%s\",\n"
		"  \"comm_share\": %.17g,\n  \"io_share\": %.17g,\n"
		"  \"mean_stretch\": %.17g,\n  \"total_io_time\": %.17g,\n",
		runtime_names[o->sim.runtime_model],
		mesh_comm_name(o->sim.comm == MESH_COMM_UNKNOWN ? MESH_COMM_NONE
								: o->sim.comm),
		o->sim.comm_share, o->sim.io_share, s->mean_stretch,
		s->total_io_time);
	fprintf(f,
		"  \"pfs_bandwidth\": %.17g,\n  \"node_bandwidth\": %.17g,\n",
		o->sim.pfs_bandwidth, o->sim.node_bandwidth);
	write_summary_policy(f, o, t, s);
	fprintf(f,
		"  \"jobs\": %zu,\n  \"skipped\": %zu,\n"
		"  \"skipped_runtime\": %zu,\n  \"skipped_size\": %zu,\n"
		"  \"skipped_too_large\": %zu,\n  \"skipped_submit\": %zu,\n"
		"  \"refused\": %zu,\n",
		s->jobs, s->skipped, s->skipped_runtime, s->skipped_size,
		s->skipped_too_large, s->skipped_submit, s->refused);
	fprintf(f,
		"  \"makespan\": %.17g,\n  \"utilization\": %.17g,\n"
		"  \"mean_wait\": %.17g,\n  \"mean_bounded_slowdown\": %.17g,\n"
		"  \"mean_sum_pairwise\": %.17g,\n"
		"  \"mean_avg_pairwise_multi\": %.17g\n}\n",
		s->makespan, s->utilization, s->mean_wait,
		s->mean_bounded_slowdown, s->mean_sum_pairwise,
		s->mean_avg_pairwise_multi);
	if (fclose(f)) {
		fprintf(stderr, "meshsim: --summary: write error on %s\n",
			path);
		return -1;
	}
	return 0;
}

static void print_table(const struct options *o, const struct mesh_topo *t,
			const struct mesh_sim_summary *s)
{
	char mesh[64];

	printf("trace                    %s\n", o->trace);
	printf("mesh                     %s (%u nodes)\n",
	       mesh_topo_format(t, mesh, sizeof(mesh)), t->nodes);
	printf("allocator                %s\n", o->allocator);
	printf("scheduler                %s\n",
	       o->sim.sched == MESH_SCHED_EASY ? "easy" : "fcfs");
	printf("jobs simulated           %zu\n", s->jobs);
	printf(
	    "jobs skipped             %zu (runtime %zu, size %zu, larger than mesh %zu, submit time %zu)\n",
	    s->skipped, s->skipped_runtime, s->skipped_size,
	    s->skipped_too_large, s->skipped_submit);
	if (s->refused)
		printf("jobs never placeable     %zu\n", s->refused);
	printf("makespan (s)             %.0f\n", s->makespan);
	printf("utilization              %.4f\n", s->utilization);
	printf("mean wait (s)            %.2f\n", s->mean_wait);
	printf("mean bounded slowdown    %.4f\n", s->mean_bounded_slowdown);
	printf("mean sum pairwise dist   %.2f\n", s->mean_sum_pairwise);
	printf("mean avg pairwise (>=2)  %.4f\n", s->mean_avg_pairwise_multi);
}

static int run(struct options *o)
{
	struct mesh_swf_trace *tr = NULL;
	struct mesh_allocator *a = NULL;
	struct mesh_sim_result *res = NULL;
	struct mesh_topo *t = NULL;
	struct mesh_conf *conf = NULL;
	struct mesh_diag d;
	char buf[600];
	int rc, status = EXIT_FAILURE;

	mesh_diag_clear(&d);
	rc = mesh_swf_load(o->trace, &tr, &d);
	if (rc) {
		fprintf(stderr, "meshsim: %s\n",
			mesh_diag_format(&d, buf, sizeof(buf)));
		return EXIT_FAILURE;
	}
	if (o->mesh_conf) {
		status = load_mesh_conf(o, &conf);
		if (!status)
			t = conf->topo;
	} else {
		status = make_topo(o, tr, &t);
		if (!status)
			status = set_io_nodes(o, t);
	}
	if (status)
		goto out;
	status = EXIT_FAILURE;
	rc = mesh_alloc_create(t, o->allocator, o->alloc_params, &a, &d);
	if (rc) {
		fprintf(stderr, "meshsim: --allocator: %s\n",
			mesh_diag_format(&d, buf, sizeof(buf)));
		status = EXIT_USAGE;
		goto out;
	}
	if (o->progress == 1 || (o->progress < 0 && isatty(STDERR_FILENO)))
		o->sim.progress = progress;
	rc = mesh_sim_run(t, a, tr, &o->sim, &res, &d);
	if (rc) {
		fprintf(stderr, "meshsim: %s: %s\n", o->trace,
			d.message[0] ? mesh_diag_format(&d, buf, sizeof(buf))
				     : mesh_strerror(rc));
		goto out;
	}
	print_table(o, t, &res->summary);
	if (o->jobs_csv && write_jobs_csv(o->jobs_csv, t, res))
		goto out;
	if (o->summary_json &&
	    write_summary(o->summary_json, o, t, &res->summary))
		goto out;
	status = EXIT_SUCCESS;
out:
	mesh_sim_result_free(res);
	mesh_alloc_destroy(a);
	if (!conf)
		mesh_topo_destroy(t);
	mesh_conf_destroy(conf);
	mesh_swf_free(tr);
	return status;
}

int main(int argc, char **argv)
{
	struct options o;
	int rc = parse_args(argc, argv, &o);

	if (rc >= 0)
		return rc;
	return run(&o);
}

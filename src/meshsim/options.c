/* options.c - meshsim's command line: usage, parsing and checks.
 * Every bad value exits 2 naming the flag and saying what was expected.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

#include "cli.h"
#include "meshsim.h"

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
	    "  --io-nodes X,Y[,Z];...  designated I/O node coordinates (for plas,\n"
	    "                        mc-elongated and the I/O metrics); they are not\n"
	    "                        compute nodes: jobs never get them\n"
	    "  --io-nodes-compute    let jobs also run on the I/O node positions\n"
	    "  --job-attrs FILE      per-job attributes (CSV keyed by job id: io_intensity,\n"
	    "                        io_volume, comm, shape, compute_phase,\n"
	    "                        checkpoint_phase; see meshsim(1))\n"
	    "  --mesh-conf FILE      take mesh, I/O nodes, allocator and parameters from a\n"
	    "                        mesh.conf (see mesh.conf(5)); excludes --mesh and\n"
	    "                        --allocator/--allocator-params\n"
	    "  --scheduler fcfs|easy|conservative|conservative-count\n"
	    "                        backfilling: none, EASY (default), conservative\n"
	    "                        with placement-aware reservations for every job,\n"
	    "                        or classic conservative on node counts (allocators\n"
	    "                        that place whenever enough nodes are free)\n"
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
	    "  --arrival-scale F     multiply inter-arrival times by F > 0 (default 1):\n"
	    "                        above 1 the offered load is lighter, below 1 heavier\n"
	    "  --load F              the same as --arrival-scale (its older name)\n"
	    "  --estimate clamp|exact\n"
	    "                        clamp: requested time, or the actual runtime when the\n"
	    "                        request is missing or shorter (default); exact: always\n"
	    "                        the actual runtime\n"
	    "  --limit-quantum S     round estimates up to multiples of S seconds (as a\n"
	    "                        Slurm replay at speed-up X does with S = 60 X)\n"
	    "  --size alloc|req      job size from allocated (default) or requested procs;\n"
	    "                        the other field is used when the first is missing\n"
	    "  --cores-per-node C    the trace's sizes count processors: a job of p takes\n"
	    "                        ceil(p / C) whole nodes, and the default mesh has\n"
	    "                        ceil(MaxProcs / C) nodes (default 1)\n"
	    "  --status LIST         only jobs of these SWF statuses: numbers (-1..5)\n"
	    "                        or completed (1), failed (0), cancelled (5)\n"
	    "  --partition LIST      only jobs of these SWF partition numbers\n");
	fprintf(
	    f,
	    "  --window I/N          one replication of the trace: cut the submit span\n"
	    "                        of its jobs into N equal parts, run only part I\n"
	    "  --bootstrap job|week  one bootstrap replication of the trace: each\n"
	    "                        arrival given a job drawn from all of them (job),\n"
	    "                        or weeks drawn with replacement, end to end (week)\n"
	    "  --bootstrap-seed N    the draw's seed (default 1)\n"
	    "  --warmup S, --cooldown S\n"
	    "                        run, but leave out of the means and tails, the\n"
	    "                        jobs submitted within S s of the window's start,\n"
	    "                        end (or the trace's, without --window)\n"
	    "  --skip-zero-runtime   skip jobs whose runtime is 0 (by default they are\n"
	    "                        placed and freed at once, as Walker et al. do;\n"
	    "                        --keep-zero-runtime is accepted for that default)\n"
	    "  --seed N              seed for randomised allocators (default 0)\n");
	fprintf(
	    f,
	    "  --runtime-model trace|contention|pfs|contention+pfs\n"
	    "                        trace: trace runtimes (default); contention: the\n"
	    "                        communication and I/O phases share the links,\n"
	    "                        nodes and I/O nodes with the running jobs; pfs: the\n"
	    "                        I/O phases share one parallel file system;\n"
	    "                        contention+pfs: both (doc/runtime-models.md)\n"
	    "  --link-bandwidth GB/S one direction of a link (default 12.5)\n"
	    "  --node-bandwidth GB/S a node's injection and ejection (default 12.5)\n"
	    "  --ion-bandwidth GB/S  an I/O node's service rate (default 12.5/6;\n"
	    "                        'inf': unlimited)\n"
	    "  --pfs-bandwidth GB/S  the parallel file system (default 48)\n"
	    "  --comm PATTERN        all-to-all, one-to-all, nearest (a stencil on the\n"
	    "                        job's logical grid), chain or none (default none)\n"
	    "  --rank-order index|allocator\n"
	    "                        which rank runs where: node-index order, as Slurm\n"
	    "                        lays tasks out (default), or the allocator's order\n"
	    "  --comm-share F        runtime share of communication (0..1)\n"
	    "  --io-share F          runtime share of I/O (0..1)\n");
	fprintf(
	    f,
	    "  --jobs-csv FILE       one row per job, with node coordinates ('-': stdout)\n"
	    "  --summary FILE        JSON summary ('-': stdout)\n"
	    "  --progress / --no-progress  progress on stderr (default: if a terminal)\n"
	    "  --list-allocators     list allocators and exit\n"
	    "  -h, --help            this help, then exit\n"
	    "  -V, --version         the source revision, then exit\n");
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

/* --status LIST: SWF statuses (-1..5) or completed, failed, cancelled. */
static int parse_status(const char *arg, unsigned *mask)
{
	static const char *const names[] = {
		"failed", "completed", NULL, NULL, NULL, "cancelled"
	};
	const char *p = arg;
	char *end;
	long v;
	int k;

	*mask = 0;
	do {
		size_t len = strcspn(p, ",");

		for (k = 0, v = -2; k < 6; k++)
			if (names[k] && strlen(names[k]) == len &&
			    !strncmp(p, names[k], len))
				v = k;
		if (v == -2) {
			errno = 0;
			v = strtol(p, &end, 10);
			if (end != p + len || !len || errno || v < -1 || v > 5)
				return fail_usage(
				    "--status", arg,
				    "expected SWF statuses -1..5 or completed, "
				    "failed, cancelled, separated by commas");
		}
		*mask |= 1u << (v + 1);
		p += len;
	} while (*p++ == ',');
	return -1;
}

/* --partition LIST: SWF partition numbers (sacct2swf's header names
 * them). */
static int parse_partitions(const char *arg, struct options *o)
{
	const char *p = arg;
	char *end;
	long v;

	o->n_partitions = 0;
	do {
		errno = 0;
		v = strtol(p, &end, 10);
		if (end == p || (*end && *end != ',') || errno || v < 1 ||
		    o->n_partitions == MESHSIM_MAX_PARTITIONS)
			return fail_usage("--partition", arg,
					  "expected up to 64 SWF partition "
					  "numbers (1, 2, ...) separated by "
					  "commas");
		o->partitions[o->n_partitions++] = v;
		p = end;
	} while (*p++ == ',');
	o->sim.partitions = o->partitions;
	o->sim.n_partitions = o->n_partitions;
	return -1;
}

/* --window I/N: part I (1..N) of N, N up to 10,000. */
static int parse_window(const char *arg, struct mesh_sim_opts *s)
{
	unsigned long i, n;
	char *end, *slash;

	errno = 0;
	i = strtoul(arg, &slash, 10);
	n = *slash == '/' ? strtoul(slash + 1, &end, 10) : 0;
	if (slash == arg || *slash != '/' || end == slash + 1 || *end ||
	    errno || arg[0] == '-' || slash[1] == '-' || n < 1 || n > 10000 ||
	    i < 1 || i > n)
		return fail_usage("--window", arg,
				  "expected I/N, part I of N equal parts of "
				  "the trace's submit span (1 <= I <= N <= "
				  "10000)");
	s->window_index = (unsigned) i;
	s->window_parts = (unsigned) n;
	return -1;
}

/* --seed N, --bootstrap-seed N: a non-negative integer. */
static int parse_seed(const char *name, const char *arg, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(arg, &end, 10);
	if (!*arg || *end || errno || arg[0] == '-')
		return fail_usage(name, arg, "expected a non-negative integer");
	return -1;
}

/* --warmup S, --cooldown S: seconds >= 0. */
static int parse_trim(const char *name, const char *arg, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(arg, &end);
	if (end == arg || *end || errno || !(*v >= 0) || isinf(*v))
		return fail_usage(name, arg, "expected seconds >= 0");
	return -1;
}

enum {
	OPT_MESH = 256,
	OPT_ALLOC,
	OPT_PARAMS,
	OPT_SCHED,
	OPT_LOAD,
	OPT_ARRIVAL,
	OPT_EST,
	OPT_SIZE,
	OPT_CORES,
	OPT_STATUS,
	OPT_PARTITION,
	OPT_WINDOW,
	OPT_BOOTSTRAP,
	OPT_BOOTSEED,
	OPT_WARMUP,
	OPT_COOLDOWN,
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
	OPT_NODEBW,
	OPT_LINKBW,
	OPT_IONBW,
	OPT_RANKS,
	OPT_SKIP0,
	OPT_QUANTUM,
	OPT_IOCOMPUTE,
	OPT_JOBATTRS
};

static const struct option long_opts[] = {
	{ "mesh", required_argument, NULL, OPT_MESH },
	{ "allocator", required_argument, NULL, OPT_ALLOC },
	{ "allocator-params", required_argument, NULL, OPT_PARAMS },
	{ "mesh-conf", required_argument, NULL, OPT_MESHCONF },
	{ "io-nodes", required_argument, NULL, OPT_IONODES },
	{ "scheduler", required_argument, NULL, OPT_SCHED },
	{ "load", required_argument, NULL, OPT_LOAD },
	{ "arrival-scale", required_argument, NULL, OPT_ARRIVAL },
	{ "estimate", required_argument, NULL, OPT_EST },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "cores-per-node", required_argument, NULL, OPT_CORES },
	{ "status", required_argument, NULL, OPT_STATUS },
	{ "partition", required_argument, NULL, OPT_PARTITION },
	{ "window", required_argument, NULL, OPT_WINDOW },
	{ "bootstrap", required_argument, NULL, OPT_BOOTSTRAP },
	{ "bootstrap-seed", required_argument, NULL, OPT_BOOTSEED },
	{ "warmup", required_argument, NULL, OPT_WARMUP },
	{ "cooldown", required_argument, NULL, OPT_COOLDOWN },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "keep-zero-runtime", no_argument, NULL, OPT_KEEP0 },
	{ "skip-zero-runtime", no_argument, NULL, OPT_SKIP0 },
	{ "limit-quantum", required_argument, NULL, OPT_QUANTUM },
	{ "io-nodes-compute", no_argument, NULL, OPT_IOCOMPUTE },
	{ "job-attrs", required_argument, NULL, OPT_JOBATTRS },
	{ "runtime-model", required_argument, NULL, OPT_RUNTIME },
	{ "priority", required_argument, NULL, OPT_PRIORITY },
	{ "alpha", required_argument, NULL, OPT_ALPHA },
	{ "paired-filling", no_argument, NULL, OPT_PF },
	{ "pf-max-size", required_argument, NULL, OPT_PFMAX },
	{ "spatial-estimate", required_argument, NULL, OPT_SPATIAL },
	{ "pfs-bandwidth", required_argument, NULL, OPT_PFSBW },
	{ "node-bandwidth", required_argument, NULL, OPT_NODEBW },
	{ "link-bandwidth", required_argument, NULL, OPT_LINKBW },
	{ "ion-bandwidth", required_argument, NULL, OPT_IONBW },
	{ "rank-order", required_argument, NULL, OPT_RANKS },
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

/* A capacity in GB/s: a number > 0, or inf (unlimited); -1 to continue,
 * else a status. */
static int parse_bandwidth(int c, struct options *o)
{
	static const char *const names[] = { "--pfs-bandwidth",
					     "--node-bandwidth",
					     "--link-bandwidth",
					     "--ion-bandwidth" };
	double *bw[] = { &o->sim.net.fs_bw, &o->sim.net.node_bw,
			 &o->sim.net.link_bw, &o->sim.net.ion_bw };
	static const int field[] = { 3, 1, 0, 2 }; /* in mesh_net_params */
	int i = c - OPT_PFSBW;

	o->net_set |= 1u << field[i];
	if (!strcmp(optarg, "inf") || !strcmp(optarg, "unlimited")) {
		*bw[i] = INFINITY;
		return -1;
	}
	if (parse_double(optarg, bw[i]) || !(*bw[i] > 0) || isinf(*bw[i]))
		return fail_usage(names[i], optarg,
				  "expected GB/s > 0, or inf for unlimited");
	return -1;
}

/* --runtime-model and its parameters; -1 to continue, else a status. */
static int parse_runtime_option(int c, struct options *o)
{
	double *share =
	    c == OPT_COMMSHARE ? &o->sim.comm_share : &o->sim.io_share;
	int m;

	switch (c) {
	case OPT_RUNTIME:
		for (m = 0; m <= MESH_RUNTIME_CONTENTION_PFS; m++)
			if (!strcmp(optarg, meshsim_runtime_names[m]))
				break;
		if (m > MESH_RUNTIME_CONTENTION_PFS)
			return fail_usage("--runtime-model", optarg,
					  "expected trace, contention, pfs or "
					  "contention+pfs");
		o->sim.runtime_model = (enum mesh_runtime_model) m;
		return -1;
	case OPT_COMM:
		o->sim.comm = mesh_comm_parse(optarg);
		if (o->sim.comm == MESH_COMM_UNKNOWN)
			return fail_usage("--comm", optarg,
					  "expected all-to-all, one-to-all, "
					  "nearest, chain or none");
		return -1;
	case OPT_PFSBW:
	case OPT_NODEBW:
	case OPT_LINKBW:
	case OPT_IONBW:
		return parse_bandwidth(c, o);
	case OPT_RANKS:
		if (strcmp(optarg, "index") && strcmp(optarg, "allocator"))
			return fail_usage("--rank-order", optarg,
					  "expected index or allocator");
		o->sim.rank_order = strcmp(optarg, "index")
					? MESH_RANKS_ALLOCATOR
					: MESH_RANKS_INDEX;
		return -1;
	default:
		if (parse_double(optarg, share) || !(*share >= 0) || *share > 1)
			return fail_usage(
			    c == OPT_COMMSHARE ? "--comm-share" : "--io-share",
			    optarg, "expected a number in [0, 1]");
		return -1;
	}
}

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
			if (!strcmp(optarg, meshsim_spatial_names[i])) {
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
	case OPT_SKIP0:
		o->sim.keep_zero_runtime = c == OPT_KEEP0;
		break;
	case OPT_IOCOMPUTE:
		o->io_nodes_compute = 1;
		break;
	case OPT_QUANTUM:
		if (parse_double(optarg, &o->sim.limit_quantum) ||
		    !(o->sim.limit_quantum > 0))
			return fail_usage("--limit-quantum", optarg,
					  "expected seconds > 0");
		break;
	case OPT_JOBATTRS:
		o->job_attrs = optarg;
		break;
	case OPT_NOPROGRESS:
		o->progress = 0;
		break;
	case OPT_SCHED:
		if (!strcmp(optarg, "fcfs"))
			o->sim.sched = MESH_SCHED_FCFS;
		else if (!strcmp(optarg, "easy"))
			o->sim.sched = MESH_SCHED_EASY;
		else if (!strcmp(optarg, "conservative"))
			o->sim.sched = MESH_SCHED_CONSERVATIVE;
		else if (!strcmp(optarg, "conservative-count"))
			o->sim.sched = MESH_SCHED_CONSERVATIVE_COUNT;
		else
			return fail_usage(
			    "--scheduler", optarg,
			    "expected fcfs, easy, conservative or "
			    "conservative-count");
		break;
	case OPT_LOAD:
	case OPT_ARRIVAL:
		if (parse_double(optarg, &o->sim.load) || !(o->sim.load > 0))
			return fail_usage(c == OPT_LOAD ? "--load"
							: "--arrival-scale",
					  optarg, "expected a number > 0");
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
	case OPT_CORES:
		errno = 0;
		o->sim.cores_per_node = (uint32_t) strtoul(optarg, &end, 10);
		if (!*optarg || *end || errno || optarg[0] == '-' ||
		    o->sim.cores_per_node < 1 ||
		    o->sim.cores_per_node > MESH_CONF_MAX_CORES)
			return fail_usage("--cores-per-node", optarg,
					  "expected a whole number from 1 to "
					  "4096");
		o->cores_set = 1;
		break;
	case OPT_STATUS:
		return parse_status(optarg, &o->sim.keep_status);
	case OPT_PARTITION:
		return parse_partitions(optarg, o);
	case OPT_WINDOW:
		return parse_window(optarg, &o->sim);
	case OPT_BOOTSTRAP:
		if (!strcmp(optarg, "job"))
			o->sim.bootstrap = MESH_BOOTSTRAP_JOB;
		else if (!strcmp(optarg, "week"))
			o->sim.bootstrap = MESH_BOOTSTRAP_WEEK;
		else
			return fail_usage("--bootstrap", optarg,
					  "expected job or week");
		break;
	case OPT_BOOTSEED:
		return parse_seed("--bootstrap-seed", optarg,
				  &o->sim.bootstrap_seed);
	case OPT_WARMUP:
	case OPT_COOLDOWN:
		return parse_trim(
		    c == OPT_WARMUP ? "--warmup" : "--cooldown", optarg,
		    c == OPT_WARMUP ? &o->sim.warmup : &o->sim.cooldown);
	case OPT_SEED:
		return parse_seed("--seed", optarg, &o->sim.seed);
	case OPT_RUNTIME:
	case OPT_COMM:
	case OPT_COMMSHARE:
	case OPT_IOSHARE:
	case OPT_PFSBW:
	case OPT_NODEBW:
	case OPT_LINKBW:
	case OPT_IONBW:
	case OPT_RANKS:
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
	case 'h':
		usage(stdout);
		return 0;
	case OPT_VERSION:
	case 'V':
		cli_print_version("meshsim");
		return 0;
	default:
		return -2; /* getopt's '?' or ':' */
	}
	return -1;
}

int meshsim_parse_args(int argc, char **argv, struct options *o)
{
	int c, rc;

	memset(o, 0, sizeof(*o));
	mesh_sim_opts_init(&o->sim);
	o->allocator = "colsnake-bf";
	o->progress = -1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hV", long_opts, NULL)) != -1) {
		rc = parse_option(c, o);
		if (rc == -2)
			return cli_bad_option("meshsim", argv, c);
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
	if (o->jobs_csv && o->summary_json && !strcmp(o->jobs_csv, "-") &&
	    !strcmp(o->summary_json, "-")) {
		fprintf(stderr, "meshsim: --jobs-csv - and --summary - both "
				"ask for stdout; give one of them a file\n");
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

/* meshsim-gen.c - write a seeded synthetic workload (SWF trace plus a
 * job-attribute sidecar) for meshsim.  The models live in the library
 * (workload.h); this is the command line. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

#include "cli.h"
#include "mesh.h"
#include "outfile.h"

#define EXIT_USAGE 2
#define NUM 256 /* getopt codes of the numeric options: NUM + index */

static void usage(FILE *f)
{
	fprintf(
	    f,
	    "Usage: meshsim-gen --workload mache|ozden|bluegene|pods [OPTIONS]\n"
	    "       meshsim-gen attrs --trace T.swf [ATTRS OPTIONS]\n"
	    "Write a seeded synthetic workload: an SWF trace and a job-attribute\n"
	    "sidecar for meshsim --job-attrs (see meshsim-gen(1), doc/workloads.md);\n"
	    "or, with attrs, a sidecar for the jobs of an existing trace.\n\n"
	    "  --workload NAME       mache: Mache's I/O-intensive Workload I;\n"
	    "                        ozden: compute + checkpoint phases (Ozden et al.);\n"
	    "                        bluegene: midplane-sized jobs for Tang et al.;\n"
	    "                        pods: communicating jobs of listed sizes\n"
	    "  --jobs N              number of jobs (default 1000)\n"
	    "  --seed N              random seed (default 0)\n"
	    "  --nodes N             machine size; sizes are capped to it (default:\n"
	    "                        352, 500, 80 midplanes, 64)\n"
	    "  --interarrival S      mean inter-arrival time in seconds (default:\n"
	    "                        500, 60, 300, 170)\n"
	    "  --sizes N,N,...       pods: the job sizes, equally likely (default\n"
	    "                        1,2,4,8,16,32)\n"
	    "  --io-fraction F       mache: share of I/O-bound jobs (default 1)\n"
	    "  --io-ratio R          mache: I/O-bound jobs do a share R of I/O and\n"
	    "                        1-R of all-to-all communication (default:\n"
	    "                        all I/O; Mache's Table 9 traffic ratio)\n"
	    "  --io-scale F          ozden: multiply checkpoint volumes (default 1)\n"
	    "  --runtime-scale F     multiply every runtime (default 1)\n"
	    "  --swf FILE            trace output (default: stdout)\n"
	    "  --attrs FILE          sidecar output (default: none; attrs: stdout)\n"
	    "attrs options (each job's draws depend on the seed and its id):\n"
	    "  --trace FILE          the SWF trace whose jobs get attributes\n"
	    "  --io-fraction F       share of jobs doing I/O (default 0.5)\n"
	    "  --io-intensity LO:HI  their I/O share, uniform (default 0.05:0.5)\n"
	    "  --comm PATTERN|mix    all-to-all (default), one-to-all, nearest,\n"
	    "                        chain, none, or mix: one of them at random\n"
	    "  --comm-share LO:HI    communication share, uniform (default\n"
	    "                        0.1:0.5), at most 1 - the I/O share\n"
	    "  --phases              I/O jobs alternate compute phases (100-600 s)\n"
	    "                        with checkpoints, keeping their I/O share\n"
	    "  -h, --help            this help, then exit\n"
	    "  -V, --version         the source revision, then exit\n");
}

static int bad(const char *opt, const char *val, const char *why)
{
	fprintf(stderr, "meshsim-gen: %s: invalid value \"%s\": %s\n", opt, val,
		why);
	fprintf(stderr, "Try 'meshsim-gen --help'.\n");
	return EXIT_USAGE;
}

static int number(const char *s, double lo, double hi, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return *s && !*end && !errno && *v >= lo && *v <= hi ? 0 : -1;
}

struct cli {
	struct mesh_workload_opts w;
	const char *swf, *attrs;
	int kind_set;
	const char *sizes; /* --sizes as given */
	/* Overrides applied after the model's defaults. */
	double nodes, interarrival, io_fraction, runtime_scale, jobs, seed;
	double io_ratio, io_scale;
};

static int parse_opt(int c, struct cli *o)
{
	static const char *const names[] = { "--jobs",        "--seed",
					     "--nodes",       "--interarrival",
					     "--io-fraction", "--runtime-scale",
					     "--io-ratio",    "--io-scale" };
	double *dst[] = { &o->jobs,         &o->seed,        &o->nodes,
			  &o->interarrival, &o->io_fraction, &o->runtime_scale,
			  &o->io_ratio,     &o->io_scale };
	static const double lo[] = { 1, 0, 1, 1e-6, 0, 1e-6, 0, 1e-6 };
	static const double hi[] = { 1e7, 9e15, MESH_MAX_NODES, 1e9, 1, 1e6,
				     1,   1e6 };
	int i = c - NUM;

	if (c == 'w') {
		o->kind_set = mesh_workload_parse(optarg) >= 0;
		if (!o->kind_set)
			return bad("--workload", optarg,
				   "expected mache, ozden, bluegene or pods");
		o->w.kind = (enum mesh_workload) mesh_workload_parse(optarg);
		return -1;
	}
	if (i < 0 || i > 7)
		return EXIT_USAGE;
	if (number(optarg, lo[i], hi[i], dst[i]) ||
	    (i < 3 && *dst[i] != floor(*dst[i])))
		return bad(names[i], optarg,
			   i == 4 || i == 6 ? "expected a number from 0 to 1"
			   : i >= 3         ? "expected a number > 0"
				    : "expected a whole number in range");
	return -1;
}

/* --help, --version and a bad option, for both command lines: a
 * status, or -1 for an option of the caller's. */
static int common_option(int c, char **argv)
{
	if (c == 'h' || c == 'H') {
		usage(stdout);
		return 0;
	}
	if (c == 'V') {
		cli_print_version("meshsim-gen");
		return 0;
	}
	if (c == '?' || c == ':')
		return cli_bad_option("meshsim-gen", argv, c);
	return -1;
}

static int parse(int argc, char **argv, struct cli *o)
{
	static const struct option opts[] = {
		{ "workload", required_argument, NULL, 'w' },
		{ "jobs", required_argument, NULL, NUM + 0 },
		{ "seed", required_argument, NULL, NUM + 1 },
		{ "nodes", required_argument, NULL, NUM + 2 },
		{ "interarrival", required_argument, NULL, NUM + 3 },
		{ "io-fraction", required_argument, NULL, NUM + 4 },
		{ "runtime-scale", required_argument, NULL, NUM + 5 },
		{ "io-ratio", required_argument, NULL, NUM + 6 },
		{ "io-scale", required_argument, NULL, NUM + 7 },
		{ "sizes", required_argument, NULL, 'z' },
		{ "swf", required_argument, NULL, 's' },
		{ "attrs", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'H' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	int c, rc;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hV", opts, NULL)) != -1) {
		rc = common_option(c, argv);
		if (rc >= 0)
			return rc;
		if (c == 'z') {
			o->sizes = optarg;
			continue;
		}
		if (c == 's' || c == 't') {
			*(c == 's' ? &o->swf : &o->attrs) = optarg;
			continue;
		}
		rc = parse_opt(c, o);
		if (rc >= 0)
			return rc;
	}
	if (optind != argc || !o->kind_set) {
		fprintf(stderr, "meshsim-gen: %s\nTry 'meshsim-gen --help'.\n",
			optind != argc ? "unexpected argument"
				       : "--workload is required");
		return EXIT_USAGE;
	}
	if (o->sizes && o->w.kind != MESH_WL_PODS) {
		fprintf(stderr, "meshsim-gen: --sizes applies to --workload "
				"pods only\nTry 'meshsim-gen --help'.\n");
		return EXIT_USAGE;
	}
	return -1;
}

/* --sizes: up to MESH_WL_MAX_SIZES whole numbers >= 1, comma-separated. */
static int parse_sizes(const char *v, struct mesh_workload_opts *w)
{
	const char *p = v;
	double n;
	char buf[32];

	w->n_sizes = 0;
	while (*p) {
		size_t len = strcspn(p, ",");

		if (w->n_sizes == MESH_WL_MAX_SIZES || !len ||
		    len >= sizeof(buf))
			goto bad;
		memcpy(buf, p, len);
		buf[len] = '\0';
		if (number(buf, 1, MESH_MAX_NODES, &n) || n != floor(n))
			goto bad;
		w->sizes[w->n_sizes++] = (uint32_t) n;
		p += len;
		if (*p == ',' && !*++p)
			goto bad;
	}
	if (w->n_sizes)
		return -1;
bad:
	return bad("--sizes", v,
		   "expected 1 to 16 whole numbers >= 1, comma-separated");
}

/* The model's defaults under the options given: -1, or a status. */
static int apply(struct cli *o)
{
	struct mesh_workload_opts w;

	mesh_workload_defaults(o->w.kind, &w);
	w.jobs = o->jobs > 0 ? (size_t) o->jobs : w.jobs;
	w.seed = (uint64_t) o->seed;
	w.max_nodes = o->nodes > 0 ? (uint32_t) o->nodes : w.max_nodes;
	w.interarrival = o->interarrival > 0 ? o->interarrival : w.interarrival;
	w.io_fraction = o->io_fraction >= 0 ? o->io_fraction : w.io_fraction;
	w.runtime_scale =
	    o->runtime_scale > 0 ? o->runtime_scale : w.runtime_scale;
	w.io_ratio = o->io_ratio;
	w.io_scale = o->io_scale > 0 ? o->io_scale : w.io_scale;
	o->w = w;
	return o->sizes ? parse_sizes(o->sizes, &o->w) : -1;
}

/* "LO:HI" (or LO-HI, as a meshsweep grid writes it) with 0 <= LO <= HI
 * <= 1. */
static int range(const char *opt, const char *v, double *lo, double *hi)
{
	char buf[64], *colon;

	snprintf(buf, sizeof(buf), "%s", v);
	colon = strchr(buf, ':');
	if (!colon && buf[0] != '-')
		colon = strchr(buf, '-');
	if (colon)
		*colon = '\0';
	if (!colon || number(buf, 0, 1, lo) || number(colon + 1, 0, 1, hi) ||
	    *lo > *hi)
		return bad(opt, v,
			   "expected LO:HI (or LO-HI) with 0 <= LO <= HI <= 1");
	return -1;
}

struct attrs_cli {
	struct mesh_attrgen_opts a;
	const char *trace, *out;
	char note[512];
};

static int attrs_opt(int c, struct attrs_cli *o)
{
	double v;

	switch (c) {
	case 'T':
		o->trace = optarg;
		return -1;
	case 't':
		o->out = optarg;
		return -1;
	case 'p':
		o->a.phases = 1;
		return -1;
	case NUM + 1:
		if (number(optarg, 0, 9e15, &v) || v != floor(v))
			return bad("--seed", optarg,
				   "expected a whole number in range");
		o->a.seed = (uint64_t) v;
		return -1;
	case NUM + 4:
		if (number(optarg, 0, 1, &o->a.io_fraction))
			return bad("--io-fraction", optarg,
				   "expected a number from 0 to 1");
		return -1;
	case 'i':
		return range("--io-intensity", optarg, &o->a.io_lo,
			     &o->a.io_hi);
	case 's':
		return range("--comm-share", optarg, &o->a.comm_lo,
			     &o->a.comm_hi);
	case 'c':
		o->a.comm = strcmp(optarg, "mix") ? mesh_comm_parse(optarg)
						  : MESH_COMM_UNKNOWN;
		if (o->a.comm == MESH_COMM_UNKNOWN && strcmp(optarg, "mix"))
			return bad("--comm", optarg,
				   "expected all-to-all, one-to-all, nearest, "
				   "chain, none or mix");
		return -1;
	}
	return EXIT_USAGE;
}

static int attrs_parse(int argc, char **argv, struct attrs_cli *o)
{
	static const struct option opts[] = {
		{ "trace", required_argument, NULL, 'T' },
		{ "seed", required_argument, NULL, NUM + 1 },
		{ "io-fraction", required_argument, NULL, NUM + 4 },
		{ "io-intensity", required_argument, NULL, 'i' },
		{ "comm", required_argument, NULL, 'c' },
		{ "comm-share", required_argument, NULL, 's' },
		{ "phases", no_argument, NULL, 'p' },
		{ "attrs", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'H' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	int c, rc;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hV", opts, NULL)) != -1) {
		rc = common_option(c, argv);
		if (rc < 0)
			rc = attrs_opt(c, o);
		if (rc >= 0)
			return rc;
	}
	if (optind != argc || !o->trace) {
		fprintf(stderr,
			"meshsim-gen: attrs: %s\nTry 'meshsim-gen --help'.\n",
			optind != argc ? "unexpected argument"
				       : "--trace is required");
		return EXIT_USAGE;
	}
	return -1;
}

/* meshsim-gen attrs: a sidecar for the jobs of an existing trace. */
static int attrs_main(int argc, char **argv)
{
	struct cli_outfile out = { NULL, NULL, -1 };
	struct mesh_swf_trace *tr = NULL;
	struct mesh_gen_job *jobs = NULL;
	struct attrs_cli o;
	struct mesh_diag d;
	char buf[1024];
	long *ids = NULL;
	size_t i;
	int rc;

	memset(&o, 0, sizeof(o));
	mesh_attrgen_defaults(&o.a);
	rc = attrs_parse(argc, argv, &o);
	if (rc >= 0)
		return rc;
	mesh_diag_clear(&d);
	if (mesh_swf_load(o.trace, &tr, &d)) {
		fprintf(stderr, "meshsim-gen: %s\n",
			mesh_diag_format(&d, buf, sizeof(buf)));
		return EXIT_FAILURE;
	}
	snprintf(o.note, sizeof(o.note),
		 "meshsim-gen attrs --trace %s --seed %llu --io-fraction %g "
		 "--io-intensity %g:%g --comm %s --comm-share %g:%g%s",
		 o.trace, (unsigned long long) o.a.seed, o.a.io_fraction,
		 o.a.io_lo, o.a.io_hi,
		 o.a.comm == MESH_COMM_UNKNOWN ? "mix"
					       : mesh_comm_name(o.a.comm),
		 o.a.comm_lo, o.a.comm_hi, o.a.phases ? " --phases" : "");
	ids = malloc((tr->n ? tr->n : 1) * sizeof(*ids));
	jobs = calloc(tr->n ? tr->n : 1, sizeof(*jobs));
	for (i = 0; ids && i < tr->n; i++)
		ids[i] = tr->jobs[i].id;
	rc = !ids || !jobs || mesh_attrgen(&o.a, ids, tr->n, jobs) ||
	     cli_out_open(&out, "meshsim-gen", "--attrs", o.out) ||
	     mesh_attrs_write(out.f, o.note, jobs, tr->n) ||
	     cli_out_commit(&out, "meshsim-gen", "--attrs");
	cli_out_abort(&out);
	free(ids);
	free(jobs);
	mesh_swf_free(tr);
	return rc ? EXIT_FAILURE : EXIT_SUCCESS;
}

int main(int argc, char **argv)
{
	struct cli_outfile swf = { NULL, NULL, -1 }, attrs = { NULL, NULL, -1 };
	struct mesh_gen_job *jobs;
	struct cli o;
	int rc;

	cli_signals(0);
	if (argc > 1 && !strcmp(argv[1], "attrs"))
		return attrs_main(argc - 1, argv + 1);
	memset(&o, 0, sizeof(o));
	o.io_fraction = o.runtime_scale = o.io_ratio = o.io_scale = -1;
	rc = parse(argc, argv, &o);
	if (rc >= 0)
		return rc;
	rc = apply(&o);
	if (rc >= 0)
		return rc;
	if (o.w.io_ratio >= 0 && o.w.kind != MESH_WL_MACHE) {
		fprintf(stderr, "meshsim-gen: --io-ratio: only the mache "
				"workload has a traffic ratio\n");
		return EXIT_USAGE;
	}
	if (o.w.io_scale != 1 && o.w.kind != MESH_WL_OZDEN) {
		fprintf(stderr, "meshsim-gen: --io-scale: only the ozden "
				"workload has checkpoint volumes\n");
		return EXIT_USAGE;
	}
	/* Both files are complete, or neither is touched. */
	jobs = calloc(o.w.jobs, sizeof(*jobs));
	rc = !jobs || cli_out_open(&swf, "meshsim-gen", "--swf", o.swf) ||
	     (o.attrs &&
	      cli_out_open(&attrs, "meshsim-gen", "--attrs", o.attrs)) ||
	     mesh_workload_generate(&o.w, jobs) ||
	     mesh_workload_write(&o.w, jobs, swf.f, o.attrs ? attrs.f : NULL) ||
	     cli_out_commit(&swf, "meshsim-gen", "--swf") ||
	     (o.attrs && cli_out_commit(&attrs, "meshsim-gen", "--attrs"));
	cli_out_abort(&swf);
	cli_out_abort(&attrs);
	free(jobs);
	return rc ? EXIT_FAILURE : EXIT_SUCCESS;
}

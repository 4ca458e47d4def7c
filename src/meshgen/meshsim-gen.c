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
	    "Usage: meshsim-gen --workload mache|ozden|bluegene [OPTIONS]\n"
	    "Write a seeded synthetic workload: an SWF trace and a job-attribute\n"
	    "sidecar for meshsim --job-attrs (see meshsim-gen(1), doc/workloads.md).\n\n"
	    "  --workload NAME       mache: Mache's I/O-intensive Workload I;\n"
	    "                        ozden: compute + checkpoint phases (Ozden et al.);\n"
	    "                        bluegene: midplane-sized jobs for Tang et al.\n"
	    "  --jobs N              number of jobs (default 1000)\n"
	    "  --seed N              random seed (default 0)\n"
	    "  --nodes N             machine size; sizes are capped to it (default:\n"
	    "                        352, 500, 80 midplanes)\n"
	    "  --interarrival S      mean inter-arrival time in seconds (default:\n"
	    "                        500, 60, 300)\n"
	    "  --io-fraction F       mache: share of I/O-bound jobs (default 1)\n"
	    "  --io-ratio R          mache: I/O-bound jobs do a share R of I/O and\n"
	    "                        1-R of all-to-all communication (default:\n"
	    "                        all I/O; Mache's Table 9 traffic ratio)\n"
	    "  --io-scale F          ozden: multiply checkpoint volumes (default 1)\n"
	    "  --runtime-scale F     multiply every runtime (default 1)\n"
	    "  --swf FILE            trace output (default: stdout)\n"
	    "  --attrs FILE          sidecar output (default: none)\n"
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
				   "expected mache, ozden or bluegene");
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
		{ "swf", required_argument, NULL, 's' },
		{ "attrs", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'H' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	int c, rc;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hV", opts, NULL)) != -1) {
		if (c == 'h' || c == 'H' || c == 'V') {
			if (c != 'V')
				usage(stdout);
			else
				cli_print_version("meshsim-gen");
			return 0;
		}
		if (c == 's' || c == 't') {
			*(c == 's' ? &o->swf : &o->attrs) = optarg;
			continue;
		}
		if (c == '?' || c == ':')
			return cli_bad_option("meshsim-gen", argv, c);
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
	return -1;
}

static void apply(struct cli *o)
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
}

int main(int argc, char **argv)
{
	struct cli_outfile swf = { NULL, NULL, -1 }, attrs = { NULL, NULL, -1 };
	struct mesh_gen_job *jobs;
	struct cli o;
	int rc;

	cli_signals(0);
	memset(&o, 0, sizeof(o));
	o.io_fraction = o.runtime_scale = o.io_ratio = o.io_scale = -1;
	rc = parse(argc, argv, &o);
	if (rc >= 0)
		return rc;
	apply(&o);
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

/* sacct2swf.c - a Slurm cluster's accounting (sacct --parsable2) as an SWF
 * trace for meshsim.  The conversion lives in the library (sacct.h);
 * this is the command line, the SWF header and the account of what was
 * skipped. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

#include "cli.h"
#include "mesh.h"
#include "outfile.h"

#define PROG "sacct2swf"

static void usage(FILE *f)
{
	fprintf(
	    f,
	    "Usage: sacct2swf [OPTIONS] [SACCT.txt|-]\n"
	    "Convert sacct --parsable2 output (standard input by default) to an\n"
	    "SWF trace for meshsim.  The sacct command to run is in sacct2swf(1):\n"
	    "  SLURM_TIME_FORMAT=%%s sacct -a -X --parsable2 -S START -E END \\\n"
	    "    --format=JobIDRaw,Submit,Start,End,ElapsedRaw,TimelimitRaw,\\\n"
	    "NNodes,ReqNodes,AllocCPUS,ReqCPUS,TotalCPU,State,Partition,UID,GID,\\\n"
	    "NodeList\n\n"
	    "  --count nodes|cpus    what the SWF processor fields count: nodes\n"
	    "                        (NNodes, ReqNodes; default) or CPUs (AllocCPUS,\n"
	    "                        ReqCPUS; then meshsim --cores-per-node)\n"
	    "  --max-nodes N         the cluster's node count (header MaxNodes)\n"
	    "  --max-procs N         its processors (header MaxProcs; with\n"
	    "                        --count nodes, the node count)\n"
	    "  --computer NAME       the header's Computer line\n"
	    "  -o, --output FILE     the trace (default: stdout)\n"
	    "  -q, --quiet           no account of the records on stderr\n"
	    "  -h, --help            this help, then exit\n"
	    "  -V, --version         the source revision, then exit\n");
}

struct opts {
	enum mesh_sacct_count count;
	long max_nodes, max_procs;
	const char *computer, *output, *input;
	int quiet;
};

static int positive(const char *opt, const char *s, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(s, &end, 10);
	if (!*s || *end || errno || *v < 1)
		return cli_usage_error(PROG,
				       "%s: invalid value \"%s\": expected a "
				       "positive whole number",
				       opt, s);
	return 0;
}

/* -1 to go on, else the exit status. */
static int parse(int argc, char **argv, struct opts *o)
{
	static const struct option longs[] = {
		{ "count", required_argument, NULL, 'c' },
		{ "max-nodes", required_argument, NULL, 'N' },
		{ "max-procs", required_argument, NULL, 'P' },
		{ "computer", required_argument, NULL, 'C' },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:qhV", longs, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (!strcmp(optarg, "nodes"))
				o->count = MESH_SACCT_NODES;
			else if (!strcmp(optarg, "cpus"))
				o->count = MESH_SACCT_CPUS;
			else
				return cli_usage_error(
				    PROG,
				    "--count: invalid value \"%s\": expected "
				    "nodes or cpus",
				    optarg);
			break;
		case 'N':
		case 'P':
			if (positive(c == 'N' ? "--max-nodes" : "--max-procs",
				     optarg,
				     c == 'N' ? &o->max_nodes : &o->max_procs))
				return 2;
			break;
		case 'C':
			o->computer = optarg;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			cli_print_version(PROG);
			return 0;
		default:
			return cli_bad_option(PROG, argv, c);
		}
	}
	if (argc - optind > 1)
		return cli_usage_error(PROG, "one input file at most (got %d)",
				       argc - optind);
	o->input = optind < argc ? argv[optind] : "-";
	if (o->count == MESH_SACCT_NODES && o->max_procs > 0 &&
	    o->max_nodes > 0 && o->max_procs != o->max_nodes)
		return cli_usage_error(
		    PROG,
		    "--max-procs %ld differs from --max-nodes %ld, but "
		    "with --count nodes a processor is a node",
		    o->max_procs, o->max_nodes);
	return -1;
}

/* "COMPLETED 9 (1), FAILED 1 (0)": the jobs per final state and the SWF
 * status each got. */
static void state_counts(const struct mesh_sacct_trace *t, char *buf,
			 size_t len)
{
	size_t n = 0;
	int k, st;

	buf[0] = '\0';
	for (k = 0; k < MESH_SACCT_STATES && n < len; k++) {
		const char *name = mesh_sacct_state(k, &st);

		if (t->state_jobs[k])
			n += (size_t) snprintf(buf + n, len - n,
					       "%s%s %zu (%d)", n ? ", " : "",
					       name, t->state_jobs[k], st);
	}
}

static int write_trace(FILE *f, const struct opts *o,
		       const struct mesh_sacct_trace *t, const char *states)
{
	const struct mesh_swf_trace *tr = t->swf;
	long procs = o->max_procs > 0               ? o->max_procs
		     : o->count == MESH_SACCT_NODES ? o->max_nodes
						    : -1;
	size_t i;

	fprintf(f, "; Version: 2.2\n; Computer: %s\n",
		o->computer ? o->computer : "a Slurm cluster");
	fprintf(f,
		"; Note: sacct2swf --count %s from %s: %zu records, %zu jobs; "
		"skipped %zu steps, %zu unfinished, %zu never started\n",
		o->count == MESH_SACCT_NODES ? "nodes" : "cpus", o->input,
		t->records, tr->n, t->steps, t->unfinished, t->never_started);
	fprintf(f, "; Note: jobs per Slurm state (SWF status): %s\n",
		tr->n ? states : "none");
	if (o->count == MESH_SACCT_NODES)
		fprintf(f, "; Note: the processor fields count nodes "
			   "(NNodes, ReqNodes)\n");
	fprintf(f, "; UnixStartTime: %.0f\n; MaxJobs: %zu\n; MaxRecords: %zu\n",
		t->first_submit, tr->n, tr->n);
	if (o->max_nodes > 0)
		fprintf(f, "; MaxNodes: %ld\n", o->max_nodes);
	if (procs > 0)
		fprintf(f, "; MaxProcs: %ld\n", procs);
	if (t->n_partitions)
		fprintf(f, "; MaxPartitions: %zu\n", t->n_partitions);
	for (i = 0; i < t->n_partitions; i++)
		fprintf(f, "; Partition: %zu %s\n", i + 1, t->partitions[i]);
	for (i = 0; i < tr->n; i++) {
		struct mesh_swf_job j = tr->jobs[i];

		j.submit -= t->first_submit;
		if (mesh_swf_write_job(f, &j))
			return -1;
	}
	return ferror(f) ? -1 : 0;
}

int main(int argc, char **argv)
{
	struct opts o = { MESH_SACCT_NODES, -1, -1, NULL, NULL, NULL, 0 };
	struct cli_outfile out = { NULL, NULL, -1 };
	struct mesh_sacct_trace t = { 0 };
	struct mesh_diag d;
	char buf[1024], states[512];
	int rc;

	cli_signals(0);
	rc = parse(argc, argv, &o);
	if (rc >= 0)
		return rc;
	if (strcmp(o.input, "-"))
		rc = mesh_sacct_load(o.input, o.count, &t, &d);
	else
		rc = mesh_sacct_read(stdin, "<stdin>", o.count, &t, &d);
	if (rc) {
		fprintf(stderr, PROG ": %s\n",
			mesh_diag_format(&d, buf, sizeof(buf)));
		return EXIT_FAILURE;
	}
	state_counts(&t, states, sizeof(states));
	rc = cli_out_open(&out, PROG, "--output", o.output) ||
	     write_trace(out.f, &o, &t, states) ||
	     cli_out_commit(&out, PROG, "--output");
	cli_out_abort(&out);
	if (!rc && !o.quiet)
		fprintf(stderr,
			PROG ": %zu records: %zu jobs written (%s); skipped "
			     "%zu steps, %zu unfinished, %zu never started\n",
			t.records, t.swf->n, t.swf->n ? states : "none",
			t.steps, t.unfinished, t.never_started);
	mesh_sacct_free(&t);
	return rc ? EXIT_FAILURE : EXIT_SUCCESS;
}

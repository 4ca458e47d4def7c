/* meshsweep.c - run a grid of meshsim experiments on all cores and write
 * one tidy CSV (a row per point: the options and every summary metric)
 * and an aggregated CSV (means and 95% confidence intervals over seeds).
 *
 * Each point is one meshsim process (fork/exec): the runs are independent
 * and a crash or bad option in one point is reported, never lost.  Points
 * already in the tidy CSV are skipped, so a sweep resumes where it
 * stopped, also after a signal.  See meshsweep(1).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "config.h"

#include "cli.h"
#include "grid.h"
#include "outfile.h"
#include "sweep.h"

/* Seconds of wall time a point may take: a real study's slowest point
 * takes minutes, a run that has not ended in an hour is stuck. */
#define DEFAULT_POINT_TIMEOUT 3600

static void usage(FILE *f)
{
	fprintf(
	    f,
	    "Usage: meshsweep [OPTIONS] GRID\n"
	    "Run every point of a meshsim experiment grid (see meshsweep(1)).\n\n"
	    "  --out FILE            tidy CSV, one row per point (appended; points\n"
	    "                        already there are skipped)\n"
	    "  --agg FILE            aggregated CSV: mean and 95%% CI over seeds\n"
	    "                        (default: the --out name with -agg.csv)\n"
	    "  -j, --jobs N          parallel runs (default: the number of cores)\n"
	    "  --point-timeout S     stop a run after S seconds of wall time and\n"
	    "                        record it as failed (default 3600; 0: none)\n"
	    "  --progress / --no-progress  progress bar (default: if a terminal)\n"
	    "  --points              print the number of points and exit\n"
	    "  --point N             run only point N (0-based, as a job array\n"
	    "                        task does); no aggregated CSV\n"
	    "  --aggregate           run nothing: name the points with no ok row\n"
	    "                        in --out, write the aggregated CSV; exit 1\n"
	    "                        if any point is missing or failed\n"
	    "  --resume-other-revision  keep the finished rows that another\n"
	    "                        meshsim revision made (by default such rows\n"
	    "                        stop the sweep before it runs anything)\n"
	    "  -h, --help            this help, then exit\n"
	    "  -V, --version         the source revision, then exit\n"
	    "Paths in the grid (trace, mesh-conf) are relative to the grid file.\n"
	    "Generated workloads are kept in OUT-workloads/.  meshsim and\n"
	    "meshsim-gen are found in $MESHSIM and $MESHGEN, next to meshsweep,\n"
	    "or on PATH.\n");
}

static int bad(const char *opt, const char *val, const char *why)
{
	return cli_usage_error("meshsweep", "%s: invalid value \"%s\": %s", opt,
			       val, why);
}

static int parse_args(int argc, char **argv, struct sweep *s)
{
	static const struct option opts[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "agg", required_argument, NULL, 'a' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "progress", no_argument, NULL, 'p' },
		{ "no-progress", no_argument, NULL, 'P' },
		{ "points", no_argument, NULL, 'n' },
		{ "point", required_argument, NULL, 'N' },
		{ "aggregate", no_argument, NULL, 'A' },
		{ "resume-other-revision", no_argument, NULL, 'R' },
		{ "point-timeout", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	char *end;
	long v;
	int c, count = 0;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":j:hV", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			s->out = optarg;
			break;
		case 'a':
			s->agg = optarg;
			break;
		case 'j':
			errno = 0;
			v = strtol(optarg, &end, 10);
			if (!*optarg || *end || errno || v < 1 || v > 256)
				return bad("--jobs", optarg,
					   "expected 1 to 256 parallel runs");
			s->jobs = (int) v;
			break;
		case 'N':
			errno = 0;
			v = strtol(optarg, &end, 10);
			if (!*optarg || *end || errno || v < 0)
				return bad("--point", optarg,
					   "expected a point number from 0");
			s->point = v;
			break;
		case 'T':
			errno = 0;
			v = strtol(optarg, &end, 10);
			if (!*optarg || *end || errno || v < 0 || v > 31536000)
				return bad("--point-timeout", optarg,
					   "expected seconds from 0 (none) to "
					   "31536000");
			s->limit = (unsigned) v;
			break;
		case 'A':
			s->aggregate = 1;
			break;
		case 'R':
			s->other_revision = 1;
			break;
		case 'n':
			count = 1;
			break;
		case 'p':
		case 'P':
			s->progress = c == 'p';
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			cli_print_version("meshsweep");
			return 0;
		default:
			return cli_bad_option("meshsweep", argv, c);
		}
	}
	if (optind != argc - 1 || (!s->out && !count))
		return cli_usage_error("meshsweep", "%s",
				       optind == argc - 1
					   ? "--out FILE is required"
					   : "expected exactly one grid file");
	if (s->point >= 0 && s->aggregate)
		return cli_usage_error(
		    "meshsweep", "--point and --aggregate exclude each other");
	s->grid_path = argv[optind];
	return count ? -2 : -1;
}

int main(int argc, char **argv)
{
	struct sweep s;
	int rc;

	cli_signals(1);
	memset(&s, 0, sizeof(s));
	s.progress = -1;
	s.point = -1;
	s.limit = DEFAULT_POINT_TIMEOUT;
	s.jobs = (int) sysconf(_SC_NPROCESSORS_ONLN);
	if (s.jobs < 1)
		s.jobs = 1;
	rc = parse_args(argc, argv, &s);
	if (rc >= 0)
		return rc;
	if (grid_load(s.grid_path, &s.grid))
		return 2;
	if (rc == -2) { /* --points */
		printf("%zu\n", grid_points(&s.grid));
		grid_free(&s.grid);
		return 0;
	}
	rc = sweep_run(&s);
	grid_free(&s.grid);
	return rc;
}

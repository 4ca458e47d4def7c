/* meshsweep.c - run a grid of meshsim experiments on all cores and write
 * one tidy CSV (a row per point: the options and every summary metric)
 * and an aggregated CSV (means and 95% confidence intervals over seeds).
 *
 * Each point is one meshsim process (fork/exec): the runs are independent
 * and a crash or bad option in one point is reported, never lost.  Points
 * already in the tidy CSV are skipped, so a sweep resumes where it
 * stopped.  See meshsweep(1).
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

#include "grid.h"
#include "sweep.h"

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
	    "  --progress / --no-progress  progress bar (default: if a terminal)\n"
	    "  --points              print the number of points and exit\n"
	    "  --point N             run only point N (0-based, as a job array\n"
	    "                        task does); no aggregated CSV\n"
	    "  --aggregate           run nothing: name the points with no ok row\n"
	    "                        in --out, write the aggregated CSV; exit 1\n"
	    "                        if any point is missing or failed\n"
	    "  --help, --version\n"
	    "meshsim and meshsim-gen are found next to meshsweep, on PATH, or in\n"
	    "$MESHSIM and $MESHGEN.\n");
}

static int bad(const char *opt, const char *val, const char *why)
{
	fprintf(stderr, "meshsweep: %s: invalid value \"%s\": %s\n", opt, val,
		why);
	fprintf(stderr, "Try 'meshsweep --help'.\n");
	return 2;
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
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	char *end;
	long v;
	int c, count = 0;

	while ((c = getopt_long(argc, argv, "j:", opts, NULL)) != -1) {
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
		case 'A':
			s->aggregate = 1;
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
			printf("meshsweep (slurm-mesh) %s\n", PACKAGE_VERSION);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc - 1 || (!s->out && !count)) {
		fprintf(stderr, "meshsweep: %s\nTry 'meshsweep --help'.\n",
			optind == argc - 1 ? "--out FILE is required"
					   : "expected exactly one grid file");
		return 2;
	}
	if (s->point >= 0 && s->aggregate) {
		fprintf(stderr, "meshsweep: --point and --aggregate exclude "
				"each other\nTry 'meshsweep --help'.\n");
		return 2;
	}
	s->grid_path = argv[optind];
	return count ? -2 : -1;
}

int main(int argc, char **argv)
{
	struct sweep s;
	int rc;

	memset(&s, 0, sizeof(s));
	s.progress = -1;
	s.point = -1;
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
	rc = sweep_run(&s, argv[0]);
	grid_free(&s.grid);
	return rc;
}

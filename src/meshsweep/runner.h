/* runner.h - the state of one meshsweep run, shared by sweep.c (the
 * points and their rows) and workloads.c (the generated workloads). */
#ifndef MESHSWEEP_RUNNER_H
#define MESHSWEEP_RUNNER_H

#include <limits.h>
#include <stdio.h>
#include <time.h>

#include "sweep.h"

struct runner {
	struct sweep *s;
	char meshsim[PATH_MAX], meshgen[PATH_MAX];
	char revision[256]; /* what meshsim --version reports */
	char tmpdir[PATH_MAX];
	char *wl_dir; /* generated workloads, kept next to --out */
	int out_fd;   /* tidy CSV, appended to a whole row at a time */
	FILE *by_size;
	char *by_size_path;
	char *done; /* per point: already in the tidy CSV */
	size_t todo, finished, failed;
	time_t t0;
	int tty;
};

/* workloads.c */

/* The generator's seed of point p ("workload-seed", else "seed", else
 * "0"). */
const char *workload_seed(const struct grid *g, size_t p);

/* The kept trace and sidecar of point p's workload, in r->wl_dir:
 * SPEC-seedN.swf and .csv, SPEC with ':' as '+' and other characters
 * but letters, digits, '=', '.' and '-' as %XX. */
void workload_paths(const struct runner *r, size_t p, char *swf, char *attrs);

/* The generated sidecar of point p with an "attrs" key (a trace's jobs'
 * attributes, meshsim-gen attrs), in r->wl_dir: TRACE+SPEC-seedN.csv,
 * TRACE the trace's file name, encoded as above. */
void attrs_path(const struct runner *r, size_t p, char *attrs);

/* Generate every (workload, generator seed) and every (trace, attrs,
 * generator seed) that the points still to run need, into r->wl_dir.
 * 0, or -1 (reported). */
int workloads_make(struct runner *r);

#endif

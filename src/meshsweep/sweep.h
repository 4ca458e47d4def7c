/* sweep.h - running the points of a grid (sweep.c). */
#ifndef MESHSWEEP_SWEEP_H
#define MESHSWEEP_SWEEP_H

#include <stdio.h>

#include "grid.h"

struct sweep {
	struct grid grid;
	const char *grid_path;
	const char *out;    /* tidy CSV */
	const char *agg;    /* aggregated CSV, or NULL for the default */
	int jobs;           /* parallel runs */
	int progress;       /* -1 auto, 0 off, 1 on */
	long point;         /* --point: run only this point, or -1 for all */
	int aggregate;      /* --aggregate: run nothing, check and aggregate */
	int other_revision; /* --resume-other-revision: keep such rows */
	unsigned limit;     /* --point-timeout: seconds per point, 0: none */
};

/* Run the grid (or only s->point, then without aggregating); 0 if every
 * point run succeeded, 1 otherwise (2: --point past the end).  On a
 * signal it stops the runs and exits 128 + the signal.  With s->aggregate, run nothing:
 * report the points with no ok row in the tidy CSV, write the aggregated
 * CSV, and return 1 if any point is missing or failed. */
int sweep_run(struct sweep *s);

#endif

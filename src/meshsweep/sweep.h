/* sweep.h - running a grid (sweep.c) and summarising it (agg.c). */
#ifndef MESHSWEEP_SWEEP_H
#define MESHSWEEP_SWEEP_H

#include <stdio.h>

#include "grid.h"

struct sweep {
	struct grid grid;
	const char *grid_path;
	const char *out; /* tidy CSV */
	const char *agg; /* aggregated CSV, or NULL for the default */
	int jobs;        /* parallel runs */
	int progress;    /* -1 auto, 0 off, 1 on */
	long point;      /* --point: run only this point, or -1 for all */
	int aggregate;   /* --aggregate: run nothing, check and aggregate */
};

/* The summary metrics copied from meshsim's JSON, in column order. */
extern const char *const sweep_metrics[];

/* Run the grid (or only s->point, then without aggregating); 0 if every
 * point run succeeded, 1 otherwise.  With s->aggregate, run nothing:
 * report the points with no ok row in the tidy CSV, write the aggregated
 * CSV, and return 1 if any point is missing or failed. */
int sweep_run(struct sweep *s, const char *argv0);

/* Write the aggregated CSV of the tidy CSV at tidy: rows grouped by every
 * column but point, seed, status and the metrics; per metric the mean and
 * the half-width of its 95% confidence interval (Student t).  0 or -1. */
int sweep_aggregate(const char *tidy, const char *agg);

/* CSV helpers shared by both. */
void csv_field(FILE *f, const char *s, int last);
int csv_split(char *line, char **field, int max);

#endif

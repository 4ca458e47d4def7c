/* agg.h - the aggregated CSV of a tidy CSV (agg.c). */
#ifndef MESHSWEEP_AGG_H
#define MESHSWEEP_AGG_H

/* Write the aggregated CSV of the tidy CSV at tidy: rows grouped by every
 * column but point, seed, status and the metrics; per metric the mean and
 * the half-width of its 95% confidence interval (Student t).  0 or -1. */
int sweep_aggregate(const char *tidy, const char *agg);

#endif

/* priority.c - Özden et al.'s I/O-balancing weighted priority.
 *
 * Decisions the slides leave open: lambda is 0 for every candidate when
 * they all share one position, and normalized(delta) is 0 for every
 * candidate when all deltas are equal (nothing to prefer).
 *
 * mesh_ozden_add() values one more candidate from a full computation's
 * aggregates.  The new job raises the highest position and moves the
 * workload mean, so every other candidate's value moves too; it is left
 * where the full computation put it (its order among the others is
 * kept), and the new job's delta is normalised over the range seen then
 * widened by its own.
 */
#include "priority.h"

#include <math.h>

/* Candidate delta: how far starting it moves the running mean from w. */
static double delta_of(double w, double run_io_sum, size_t n_run, double io)
{
	return fabs(w - (run_io_sum + io) / (double) (n_run + 1));
}

static double wp_of(double alpha, double pos, double lo, double hi, double d,
		    double dmin, double dmax)
{
	double lambda = hi > lo ? (pos - lo) / (hi - lo) : 0;
	double delta = dmax > dmin ? (d - dmin) / (dmax - dmin) : 0;

	return (1 - alpha) * lambda + alpha * delta;
}

void mesh_ozden_priority_agg(double alpha, const double *pos, const double *io,
			     size_t n, double run_io_sum, size_t n_run,
			     double *wp, struct mesh_ozden_agg *agg)
{
	double lo = INFINITY, hi = -INFINITY, dmin = INFINITY, dmax = -INFINITY;
	double sum_w = run_io_sum, w;
	size_t i;

	for (i = 0; i < n; i++) {
		sum_w += io[i];
		lo = fmin(lo, pos[i]);
		hi = fmax(hi, pos[i]);
	}
	w = n ? sum_w / (double) (n_run + n) : 0;
	for (i = 0; i < n; i++) { /* wp holds the delta until normalised */
		wp[i] = delta_of(w, run_io_sum, n_run, io[i]);
		dmin = fmin(dmin, wp[i]);
		dmax = fmax(dmax, wp[i]);
	}
	for (i = 0; i < n; i++)
		wp[i] = wp_of(alpha, pos[i], lo, hi, wp[i], dmin, dmax);
	if (agg) {
		agg->lo = lo;
		agg->hi = hi;
		agg->dmin = dmin;
		agg->dmax = dmax;
		agg->io_sum = sum_w;
		agg->run_io_sum = run_io_sum;
		agg->n = n;
		agg->n_run = n_run;
	}
}

void mesh_ozden_priority(double alpha, const double *pos, const double *io,
			 size_t n, double run_io_sum, size_t n_run, double *wp)
{
	mesh_ozden_priority_agg(alpha, pos, io, n, run_io_sum, n_run, wp, NULL);
}

double mesh_ozden_add(struct mesh_ozden_agg *agg, double alpha, double pos,
		      double io)
{
	double w, d;

	if (!agg->n || pos > agg->hi) {
		if (!agg->n) {
			agg->lo = agg->dmin = INFINITY;
			agg->dmax = -INFINITY;
		}
		agg->io_sum += io;
		agg->n++;
		agg->lo = fmin(agg->lo, pos);
		agg->hi = pos;
		w = agg->io_sum / (double) (agg->n_run + agg->n);
		d = delta_of(w, agg->run_io_sum, agg->n_run, io);
		agg->dmin = fmin(agg->dmin, d);
		agg->dmax = fmax(agg->dmax, d);
		return wp_of(alpha, pos, agg->lo, agg->hi, d, agg->dmin,
			     agg->dmax);
	}
	w = agg->io_sum / (double) (agg->n_run + agg->n);
	d = delta_of(w, agg->run_io_sum, agg->n_run, io);
	return wp_of(alpha, pos, fmin(agg->lo, pos), agg->hi, d,
		     fmin(agg->dmin, d), fmax(agg->dmax, d));
}

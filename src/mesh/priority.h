/* priority.h - queue priorities from the papers, shared by meshsim and
 * the Slurm plugins.
 *
 * Özden, Fard and Wolf (003_*): the weighted priority of a queued
 * candidate c is wp = (1 - alpha) * lambda_c + alpha * normalized(delta_c)
 * where lambda_c is c's queue position normalised to [0, 1] over the
 * candidates, and delta_c = |I(W) - I_new(S)| measures how far starting c
 * would move the running jobs' mean I/O intensity I(S) from the whole
 * workload's I(W) (running and queued).  Lower wp goes first; alpha = 0
 * is queue order.
 */
#ifndef MESH_PRIORITY_H
#define MESH_PRIORITY_H

#include <stddef.h>

/** \brief Özden's weighted priority of n queued candidates.
 *  \param alpha reordering strength in [0, 1];
 *  \param pos candidates' queue positions (any increasing measure, e.g.
 *  submit order or time); \param io their I/O intensities;
 *  \param run_io_sum, n_run sum of the running jobs' intensities and
 *  their number;
 *  \param[out] wp n values in [0, 1].  n == 0 is a no-op. */
void mesh_ozden_priority(double alpha, const double *pos, const double *io,
			 size_t n, double run_io_sum, size_t n_run, double *wp);

/* What one full computation saw, so that a job submitted after it gets
 * its wp in O(1) (site_factor/iobalance between decay passes).  The
 * other candidates' values are not moved by the new job; a full pass
 * makes them exact again. */
struct mesh_ozden_agg {
	double lo, hi;     /* the candidates' positions, lowest and highest */
	double dmin, dmax; /* their deltas */
	double io_sum;     /* the intensities of running jobs and candidates */
	double run_io_sum; /* of the running jobs */
	size_t n, n_run;   /* candidates, running jobs */
};

/** \brief mesh_ozden_priority(), and what it saw in *agg. */
void mesh_ozden_priority_agg(double alpha, const double *pos, const double *io,
			     size_t n, double run_io_sum, size_t n_run,
			     double *wp, struct mesh_ozden_agg *agg);

/** \brief The wp of a candidate at pos with intensity io, from agg.  A
 *  position above agg->hi is a new candidate: agg counts it from then on
 *  (its intensity, position and delta).  A position at or below it was a
 *  candidate when agg was taken (job ids grow with submission) and gets
 *  the value that computation gave it; agg is left as it is. */
double mesh_ozden_add(struct mesh_ozden_agg *agg, double alpha, double pos,
		      double io);

#endif

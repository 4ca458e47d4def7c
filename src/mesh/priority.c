/* priority.c - Özden et al.'s I/O-balancing weighted priority.
 *
 * Decisions the slides leave open: lambda is 0 for every candidate when
 * they all share one position, and normalized(delta) is 0 for every
 * candidate when all deltas are equal (nothing to prefer).
 */
#include "priority.h"

#include <math.h>

void mesh_ozden_priority(double alpha, const double *pos, const double *io,
			 size_t n, double run_io_sum, size_t n_run, double *wp)
{
	double lo = INFINITY, hi = -INFINITY, dmin = INFINITY, dmax = -INFINITY;
	double sum_w = run_io_sum, w;
	size_t i;

	if (!n)
		return;
	for (i = 0; i < n; i++) {
		sum_w += io[i];
		lo = fmin(lo, pos[i]);
		hi = fmax(hi, pos[i]);
	}
	w = sum_w / (double) (n_run + n);
	for (i = 0; i < n; i++) {
		/* delta, kept in wp until normalised */
		wp[i] = fabs(w - (run_io_sum + io[i]) / (double) (n_run + 1));
		dmin = fmin(dmin, wp[i]);
		dmax = fmax(dmax, wp[i]);
	}
	for (i = 0; i < n; i++) {
		double lambda = hi > lo ? (pos[i] - lo) / (hi - lo) : 0;
		double delta = dmax > dmin ? (wp[i] - dmin) / (dmax - dmin) : 0;

		wp[i] = (1 - alpha) * lambda + alpha * delta;
	}
}

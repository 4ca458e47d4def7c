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

#endif

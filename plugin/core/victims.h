/*
 * victims.h - which running jobs to preempt so that a job fits: the
 * fewest, in Slurm's order, and among equally ranked candidates the one
 * whose release lets the allocator place the job most compactly.  The
 * search is bounded (placements and elapsed time) because slurmctld
 * holds its job and node write locks around it; past the bound, the
 * victims are the shortest prefix of Slurm's order that fits.
 * Slurm-free: the caller supplies the placement as callbacks.
 */
#ifndef SMC_VICTIMS_H
#define SMC_VICTIMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct smc_victims {
	/* IN: the candidates, in Slurm's order. */
	size_t m;
	const uint64_t *rank;  /* order key: equal means equally ranked */
	const uint32_t *nodes; /* nodes each one holds */
	uint32_t need;         /* the fewest nodes the job can run on */
	/* IN: the bound on the compactness search; 0 is no bound. */
	size_t max_places;
	double max_seconds;
	/*
	 * IN: nodes free for the job once the candidates marked in victim[]
	 * are gone (a count, no placement), and a placement then: 0 when
	 * the job fits, with *spread its sum of pairwise distances unless
	 * spread is NULL (not wanted).
	 */
	uint32_t (*free_nodes)(void *ctx, const bool *victim);
	int (*place)(void *ctx, const bool *victim, uint64_t *spread);
	/*
	 * IN, optional (NULL: none): whether the job still fits on the
	 * nodes of the last place() that returned 0, once the candidates
	 * marked in victim[] are gone: a check of those nodes, no
	 * placement.  Called only after such a place(), with no place()
	 * in between.  Lets every victim that placement does not need be
	 * given back at no placement's cost, past the bound too (nodes
	 * shared by several candidates, where Slurm's order releases more
	 * of them than a node needs).
	 */
	bool (*still_fits)(void *ctx, const bool *victim);
	void *ctx;
	/* OUT */
	bool *victim;  /* m entries: the chosen set */
	size_t places; /* placements made */
	/* The bound was reached: Slurm's order decided, or some victims
	 * were not offered back. */
	bool cut;
};

/*
 * Choose vs->victim[] (cleared first).  While the job does not fit: the
 * candidate of the lowest remaining rank whose release alone lets the
 * job fit most compactly, if one does; else the first of that rank is
 * released and the search goes on.  Then each victim, highest rank
 * first, is given back if the job still fits without it: first, with
 * still_fits, every one the found placement does not need (one more
 * placement, then checks only), then by placements.  Once max_places
 * placements are made or max_seconds have passed, a search for victims
 * takes the remaining candidates in Slurm's order (a binary search for
 * the shortest prefix that fits, exact when releasing more never stops
 * a fit), those the placement does not need are given back with
 * still_fits, and the giving back by placements stops where it is.
 * Makes at most max_places + ceil(log2(m + 1)) + 2 placements.  The
 * victims so found are never more than the shortest prefix of Slurm's
 * order that fits, unless the bound cut the search.
 * RET 0 with the job fitting under victim[], or -1 with victim[] clear.
 */
int smc_choose_victims(struct smc_victims *vs);

#endif

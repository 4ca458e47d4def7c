/*
 * share.h - OverSubscribe on whole nodes, as select/linear shares them: a
 * node takes a sharing job while fewer than the partition's
 * OverSubscribe count of jobs hold it and none of them is exclusive,
 * and a sharing job of the same size as a running one takes exactly its
 * nodes (the "job mate"), so that jobs that time-slice together keep
 * one node set.  Slurm-free.
 */
#ifndef SMC_SHARE_H
#define SMC_SHARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A job holding nodes: its node indices and OverSubscribe count
 * (1: exclusive). */
struct smc_held {
	const int *idx;
	size_t n;
	uint16_t max_share;
};

/*
 * taken[i] for each of the n nodes, as a sharing job with OverSubscribe
 * m sees node i: 1 if an exclusive job holds it or busy[i] >= m jobs
 * do, or (only_shared) no job does; else 0.  busy[i] counts the jobs
 * holding node i.  Indices of jobs[] outside 0 .. n - 1 are ignored.
 */
void smc_share_taken(const struct smc_held *jobs, size_t n_jobs,
		     const uint16_t *busy, size_t n, uint16_t m,
		     bool only_shared, uint16_t *taken);

/*
 * The job mate: the first sharing job (max_share > 1) of jobs[] whose
 * size the job may take (min_nodes .. max_nodes, and req_nodes when it
 * is above min_nodes) and whose every node is usable and not taken[].
 * RET its index, or -1.
 */
long smc_share_mate(const struct smc_held *jobs, size_t n_jobs,
		    const uint16_t *taken, size_t n,
		    bool (*usable)(void *ctx, int node), void *ctx,
		    uint32_t min_nodes, uint32_t max_nodes, uint32_t req_nodes);

#endif

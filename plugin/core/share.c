/*
 * share.c - which whole nodes a sharing job may take (share.h).
 */
#include "share.h"

void smc_share_taken(const struct smc_held *jobs, size_t n_jobs,
		     const uint16_t *busy, size_t n, uint16_t m,
		     bool only_shared, uint16_t *taken)
{
	size_t i, j;

	for (i = 0; i < n; i++)
		taken[i] = 0;
	for (j = 0; j < n_jobs; j++)
		if (jobs[j].max_share <= 1) /* an exclusive holder */
			for (i = 0; i < jobs[j].n; i++)
				if (jobs[j].idx[i] >= 0 &&
				    (size_t) jobs[j].idx[i] < n)
					taken[jobs[j].idx[i]] = 1;
	for (i = 0; i < n; i++)
		taken[i] =
		    taken[i] || busy[i] >= m || (only_shared && !busy[i]);
}

static bool size_ok(size_t k, uint32_t min_nodes, uint32_t max_nodes,
		    uint32_t req_nodes)
{
	if (k < (min_nodes ? min_nodes : 1) || k > max_nodes)
		return false;
	return req_nodes <= min_nodes || k == req_nodes;
}

long smc_share_mate(const struct smc_held *jobs, size_t n_jobs,
		    const uint16_t *taken, size_t n,
		    bool (*usable)(void *ctx, int node), void *ctx,
		    uint32_t min_nodes, uint32_t max_nodes, uint32_t req_nodes)
{
	size_t i, j;
	int node;

	for (j = 0; j < n_jobs; j++) {
		if (jobs[j].max_share <= 1 ||
		    !size_ok(jobs[j].n, min_nodes, max_nodes, req_nodes))
			continue;
		for (i = 0; i < jobs[j].n; i++) {
			node = jobs[j].idx[i];
			if (node < 0 || (size_t) node >= n || taken[node] ||
			    !usable(ctx, node))
				break;
		}
		if (i == jobs[j].n)
			return (long) j;
	}
	return -1;
}

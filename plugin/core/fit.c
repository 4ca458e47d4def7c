/*
 * fit.c - whether a node can still give a job its share (fit.h).
 */
#include "fit.h"

bool smc_fit_node(const struct smc_need *need, const struct smc_node *node,
		  uint32_t *cpus)
{
	uint32_t left;
	uint64_t mem;
	size_t g;

	*cpus = 0;
	if (node->held_whole || (need->whole && node->jobs))
		return false;
	left = node->held_cpus < node->cpus ? node->cpus - node->held_cpus : 0;
	if (!need->share_cpus && left < need->cpus)
		return false;
	mem = node->real_memory - (node->mem_spec_limit < node->real_memory
				       ? node->mem_spec_limit
				       : node->real_memory);
	if (need->mem &&
	    (node->held_mem >= mem || mem - node->held_mem < need->mem))
		return false;
	for (g = 0; g < need->n_gres; g++)
		if (node->cap_gres[g] < node->held_gres[g] ||
		    node->cap_gres[g] - node->held_gres[g] < need->gres[g])
			return false;
	*cpus = need->share_cpus ? node->cpus : left;
	return true;
}

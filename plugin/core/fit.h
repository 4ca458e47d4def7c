/*
 * fit.h - whether a node can still give a job its share, as cons_tres
 * counts it, from what the node has and what the jobs on it hold: used
 * by select/mesh over cons_tres to tell the allocator which nodes it may
 * choose.  Slurm-free: the plugin reads the counts from Slurm's records.
 */
#ifndef SMC_FIT_H
#define SMC_FIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a job needs on each node it gets. */
struct smc_need {
	uint32_t cpus;   /* CPUs per node */
	uint64_t mem;    /* MB per node; 0: memory is not a resource */
	bool whole;      /* the whole node (--exclusive) */
	bool share_cpus; /* may oversubscribe CPUs (OverSubscribe) */
	size_t n_gres;
	const uint64_t *gres; /* per kind of GRES the job names: per node */
};

/* A node: what it has, and what the jobs on it hold (held_gres[g] and
 * cap_gres[g] of the need's GRES kind g). */
struct smc_node {
	uint32_t cpus;           /* CPUs configured */
	uint64_t real_memory;    /* MB */
	uint64_t mem_spec_limit; /* MB kept for the system */
	const uint64_t *cap_gres;
	uint16_t jobs;   /* jobs holding it */
	bool held_whole; /* one of them holds it whole */
	uint32_t held_cpus;
	uint64_t held_mem;
	const uint64_t *held_gres;
};

/*
 * True if the node can still give the job its need: no job holds it
 * whole, it is idle if the job wants it whole, and enough CPUs (unless
 * the job may oversubscribe them), memory and each GRES remain.
 * *cpus: the CPUs the job could get there (all of them when it may
 * oversubscribe; 0 when it does not fit).
 */
bool smc_fit_node(const struct smc_need *need, const struct smc_node *node,
		  uint32_t *cpus);

#endif

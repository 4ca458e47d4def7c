/*
 * tiers.h - node Weight tiers, as cons_tres honours Weight: a job is
 * placed within the lowest tier of usable nodes that can hold it, the
 * tier widening to the next weight until one does.  Slurm-free; used by
 * select/mesh and topology/mesh.
 */
#ifndef SMC_TIERS_H
#define SMC_TIERS_H

#include <stddef.h>
#include <stdint.h>

/*
 * The distinct values of weight[0 .. n - 1], lowest first, into
 * tiers[] (room for n).  weight and tiers may be the same array.
 * RET how many were written (0 when n is 0).
 */
size_t smc_weight_tiers(const uint64_t *weight, size_t n, uint64_t *tiers);

#endif

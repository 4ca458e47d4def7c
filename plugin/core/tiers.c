/*
 * tiers.c - node Weight tiers: the distinct weights, lowest first.
 */
#include <stdlib.h>
#include <string.h>

#include "tiers.h"

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *) x, b = *(const uint64_t *) y;

	return (a > b) - (a < b);
}

size_t smc_weight_tiers(const uint64_t *weight, size_t n, uint64_t *tiers)
{
	size_t i, t = 0;

	if (!n)
		return 0;
	if (tiers != weight)
		memcpy(tiers, weight, n * sizeof(*tiers));
	qsort(tiers, n, sizeof(*tiers), cmp_u64);
	for (i = 0; i < n; i++)
		if (!t || tiers[t - 1] != tiers[i])
			tiers[t++] = tiers[i];
	return t;
}

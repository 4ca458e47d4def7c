/* pairsum.h - an incrementally built node set whose sum of pairwise
 * distances is kept up to date (private; never installed).  mm-inc's
 * swaps use it. */
#ifndef MESH_PAIRSUM_H
#define MESH_PAIRSUM_H

#include <stdint.h>

#include "topo.h"

struct mesh__pairsum {
	const struct mesh_topo *topo;
	int64_t *cnt[MESH_MAX_DIMS]; /* Fenwick trees, 1-based */
	int64_t *sum[MESH_MAX_DIMS];
	uint32_t n;
	uint64_t total; /* sum over unordered pairs */
};

int mesh__pairsum_init(struct mesh__pairsum *p, const struct mesh_topo *t);
void mesh__pairsum_free(struct mesh__pairsum *p);
/* Sum of distances from the point c to every member. */
uint64_t mesh__pairsum_dist_to(const struct mesh__pairsum *p, const int c[3]);
/* Insert (sign = +1) or remove (sign = -1) the point c; total follows. */
void mesh__pairsum_update(struct mesh__pairsum *p, const int c[3], int sign);

#endif

/* metrics.h - per-job dispersal metrics.
 *
 * Mache, dissertation Ch. IV ("Dispersal metrics"): summed distance,
 * average distance, diameter, distance from centre, nodes_affected and
 * links_affected; Lee distance on wrapped dimensions.
 * Unlike Mache's double sum over ordered pairs, sum_pairwise counts each
 * unordered pair once (the quantity of Walker et al. Fig. 9).
 */
#ifndef MESH_METRICS_H
#define MESH_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "topo.h"

struct mesh_metrics {
	uint32_t nodes;
	uint64_t sum_pairwise; /* over unordered pairs */
	double avg_pairwise;   /* over distinct pairs; 0 for 1 node */
	int diameter;
	uint64_t distance_from_center; /* min over allocated l of sum d(l,m) */
	uint64_t nodes_affected;       /* nodes in the enclosing box */
	uint64_t links_affected;
	int bbox[MESH_MAX_DIMS]; /* enclosing box side lengths */
};

/** \brief Compute all metrics of the node set (n >= 1, distinct nodes).
 *  \return 0, MESH_EINVAL or MESH_ENOMEM (m untouched). */
int mesh_metrics_compute(const struct mesh_topo *t, const uint32_t *nodes,
			 size_t n, struct mesh_metrics *m);

/** \brief Sum of pairwise distances only, in O(n + sum of dims).
 *  Used in hot loops of allocators. */
uint64_t mesh_metrics_sum_pairwise(const struct mesh_topo *t,
				   const uint32_t *nodes, size_t n);

#endif

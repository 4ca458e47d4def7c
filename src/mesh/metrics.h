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

/* The metrics mesh_metrics_select computes (nodes always). */
enum {
	MESH_METRICS_PAIRWISE = 1 << 0, /* sum_pairwise, avg_pairwise */
	MESH_METRICS_DIAMETER = 1 << 1,
	MESH_METRICS_CENTER = 1 << 2, /* distance_from_center */
	MESH_METRICS_BOX = 1 << 3,    /* bbox, nodes_affected, links_affected */
	MESH_METRICS_ALL = (1 << 4) - 1
};

/** \brief Compute all metrics of the node set (n >= 1, distinct nodes).
 *  \return 0, MESH_EINVAL or MESH_ENOMEM (m untouched). */
int mesh_metrics_compute(const struct mesh_topo *t, const uint32_t *nodes,
			 size_t n, struct mesh_metrics *m);

/** \brief Compute only the metrics in want (MESH_METRICS_* flags), in
 *  O(n + sum of dims) on a mesh; the other fields of *m are 0.
 *  \return 0, MESH_EINVAL (also for unknown flags) or MESH_ENOMEM (m
 *  untouched). */
int mesh_metrics_select(const struct mesh_topo *t, const uint32_t *nodes,
			size_t n, unsigned want, struct mesh_metrics *m);

/** \brief Sum of pairwise distances only, in O(n + sum of dims), into
 *  *sum (0 for fewer than 2 nodes).  Used in hot loops of allocators.
 *  \return 0, or MESH_ENOMEM with *sum untouched (never a sum of 0 for
 *  a failure, which a caller comparing sets would take as the best). */
int mesh_metrics_sum_pairwise(const struct mesh_topo *t, const uint32_t *nodes,
			      size_t n, uint64_t *sum);

#endif

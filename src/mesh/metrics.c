/* metrics.c - dispersal metrics of one allocation.
 *
 * HOW IT WORKS: L1 and Lee distances are sums over axes, so pairwise sums
 * are computed per axis from coordinate histograms (O(n + L) on a mesh,
 * O(n + L^2) on a ring) instead of the O(n^2 d) double loop.  Diameter
 * and distance from centre need the per-node view and use the loop.
 */
#include "metrics.h"

#include <stdlib.h>
#include <string.h>

#include "error.h"

/* Sum over unordered pairs of the axis distance, from a histogram. */
static uint64_t axis_pair_sum(const struct mesh_topo *t, int d,
			      const uint32_t *hist)
{
	int len = t->dim[d], a, b;
	uint64_t sum = 0, below = 0, below_pos = 0;

	if (!t->wrap[d]) {
		for (a = 0; a < len; a++) {
			/* pairs (b < a): sum (a - b) * h[a] * h[b] */
			sum += (uint64_t) hist[a] *
			       ((uint64_t) a * below - below_pos);
			below += hist[a];
			below_pos += (uint64_t) a * hist[a];
		}
		return sum;
	}
	for (a = 0; a < len; a++) {
		if (!hist[a])
			continue;
		for (b = a + 1; b < len; b++)
			if (hist[b])
				sum += (uint64_t) hist[a] * hist[b] *
				       (uint64_t) mesh_topo_axis_distance(t, d,
									  a, b);
	}
	return sum;
}

static int axis_histograms(const struct mesh_topo *t, const uint32_t *nodes,
			   size_t n, uint32_t **hist)
{
	int c[MESH_MAX_DIMS], d;
	size_t i;

	hist[0] = calloc((size_t) t->dim[0] + t->dim[1] + t->dim[2],
			 sizeof(uint32_t));
	if (!hist[0])
		return MESH_ENOMEM;
	hist[1] = hist[0] + t->dim[0];
	hist[2] = hist[1] + t->dim[1];
	for (i = 0; i < n; i++) {
		mesh_topo_coords(t, nodes[i], c);
		for (d = 0; d < MESH_MAX_DIMS; d++)
			hist[d][c[d]]++;
	}
	return 0;
}

uint64_t mesh_metrics_sum_pairwise(const struct mesh_topo *t,
				   const uint32_t *nodes, size_t n)
{
	uint32_t *hist[MESH_MAX_DIMS];
	uint64_t sum = 0;
	int d;

	if (n < 2 || axis_histograms(t, nodes, n, hist))
		return 0;
	for (d = 0; d < MESH_MAX_DIMS; d++)
		sum += axis_pair_sum(t, d, hist[d]);
	free(hist[0]);
	return sum;
}

/* Shortest arc (mesh: interval) covering the occupied positions. */
static int axis_span(const struct mesh_topo *t, int d, const uint32_t *hist)
{
	int len = t->dim[d], lo = -1, hi = -1, a, gap = 0, run = 0;
	int first_gap = -1;

	for (a = 0; a < len; a++) {
		if (hist[a]) {
			if (lo < 0)
				lo = a;
			hi = a;
		}
	}
	if (!t->wrap[d])
		return hi - lo;
	/* On a ring the span is len minus the longest empty arc, minus 1. */
	for (a = 0; a < len; a++) {
		if (!hist[a]) {
			run++;
		} else {
			if (first_gap < 0)
				first_gap = run;
			if (run > gap)
				gap = run;
			run = 0;
		}
	}
	if (first_gap >= 0 && run + first_gap > gap)
		gap = run + first_gap; /* the gap that wraps past len-1 */
	return len - gap - 1;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;

	return (x > y) - (x < y);
}

/* Distinct projections of the nodes onto the hyperplane orthogonal to d:
 * the projections' keys sorted in keys (n entries), O(n log n) whatever
 * the mesh's size (issue 12.4: no position-sized buffer). */
static uint64_t distinct_projections(const struct mesh_topo *t, int d,
				     const uint32_t *nodes, size_t n,
				     uint32_t *keys)
{
	int c[MESH_MAX_DIMS], u = d == 0 ? 1 : 0, w = d == 2 ? 1 : 2;
	uint64_t count = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		mesh_topo_coords(t, nodes[i], c);
		keys[i] =
		    (uint32_t) c[u] + (uint32_t) t->dim[u] * (uint32_t) c[w];
	}
	qsort(keys, n, sizeof(*keys), cmp_u32);
	for (i = 0; i < n; i++)
		count += !i || keys[i] != keys[i - 1];
	return count;
}

/* Per axis, cost[a] = sum over nodes of the axis distance from a: O(L)
 * on a mesh axis (moving a by one adds the nodes at or below a and
 * subtracts those above), O(L^2) on a ring. */
static void axis_costs(const struct mesh_topo *t, int d, const uint32_t *hist,
		       uint64_t *cost)
{
	uint64_t below = 0, total = 0;
	int a, b;

	if (!t->wrap[d]) {
		cost[0] = 0;
		for (b = 0; b < t->dim[d]; b++) {
			cost[0] += (uint64_t) hist[b] * (uint64_t) b;
			total += hist[b];
		}
		for (a = 0; a + 1 < t->dim[d]; a++) {
			below += hist[a];
			cost[a + 1] = cost[a] + below - (total - below);
		}
		return;
	}
	for (a = 0; a < t->dim[d]; a++) {
		cost[a] = 0;
		for (b = 0; b < t->dim[d]; b++)
			if (hist[b])
				cost[a] += (uint64_t) hist[b] *
					   (uint64_t) mesh_topo_axis_distance(
					       t, d, a, b);
	}
}

static int center_distance(const struct mesh_topo *t, const uint32_t *nodes,
			   size_t n, uint32_t **hist, uint64_t *best)
{
	uint64_t *cost[MESH_MAX_DIMS], row;
	int c[MESH_MAX_DIMS], d;
	size_t i;

	cost[0] = malloc(((size_t) t->dim[0] + t->dim[1] + t->dim[2]) *
			 sizeof(uint64_t));
	if (!cost[0])
		return MESH_ENOMEM;
	cost[1] = cost[0] + t->dim[0];
	cost[2] = cost[1] + t->dim[1];
	for (d = 0; d < MESH_MAX_DIMS; d++)
		axis_costs(t, d, hist[d], cost[d]);
	*best = UINT64_MAX;
	for (i = 0; i < n; i++) {
		mesh_topo_coords(t, nodes[i], c);
		row = cost[0][c[0]] + cost[1][c[1]] + cost[2][c[2]];
		if (row < *best)
			*best = row;
	}
	free(cost[0]);
	return 0;
}

/* L1 diameter on a mesh is the largest spread of x +- y +- z; on a torus
 * the pairwise loop is used. */
static int diameter(const struct mesh_topo *t, const uint32_t *nodes, size_t n)
{
	int c[MESH_MAX_DIMS], s, best = 0, dist;
	long lo[4], hi[4], v;
	size_t i, j;

	if (t->wrap[0] || t->wrap[1] || t->wrap[2]) {
		for (i = 0; i < n; i++)
			for (j = i + 1; j < n; j++) {
				dist =
				    mesh_topo_distance(t, nodes[i], nodes[j]);
				if (dist > best)
					best = dist;
			}
		return best;
	}
	for (i = 0; i < n; i++) {
		mesh_topo_coords(t, nodes[i], c);
		for (s = 0; s < 4; s++) {
			v = c[0] + ((s & 1) ? -c[1] : c[1]) +
			    ((s & 2) ? -c[2] : c[2]);
			if (!i || v < lo[s])
				lo[s] = v;
			if (!i || v > hi[s])
				hi[s] = v;
		}
	}
	for (s = 0; s < 4; s++)
		if (hi[s] - lo[s] > best)
			best = (int) (hi[s] - lo[s]);
	return best;
}

int mesh_metrics_compute(const struct mesh_topo *t, const uint32_t *nodes,
			 size_t n, struct mesh_metrics *m)
{
	uint32_t *hist[MESH_MAX_DIMS];
	struct mesh_metrics r;
	uint32_t *keys;
	int d;

	if (!t || !nodes || !m || n == 0)
		return MESH_EINVAL;
	if (axis_histograms(t, nodes, n, hist))
		return MESH_ENOMEM;
	keys = malloc(n * sizeof(*keys));
	if (!keys) {
		free(hist[0]);
		return MESH_ENOMEM;
	}
	memset(&r, 0, sizeof(r));
	r.nodes = (uint32_t) n;
	r.nodes_affected = 1;
	for (d = 0; d < MESH_MAX_DIMS; d++) {
		int span = axis_span(t, d, hist[d]);

		r.sum_pairwise += axis_pair_sum(t, d, hist[d]);
		r.bbox[d] = span + 1;
		r.nodes_affected *= (uint64_t) (span + 1);
		r.links_affected += (uint64_t) span *
				    distinct_projections(t, d, nodes, n, keys);
	}
	if (n > 1)
		r.avg_pairwise = (double) r.sum_pairwise /
				 ((double) n * (double) (n - 1) / 2.0);
	r.diameter = diameter(t, nodes, n);
	free(keys);
	if (center_distance(t, nodes, n, hist, &r.distance_from_center)) {
		free(hist[0]);
		return MESH_ENOMEM;
	}
	free(hist[0]);
	*m = r;
	return 0;
}

/* metrics.c - dispersal metrics of one allocation.
 *
 * HOW IT WORKS: L1 and Lee distances are sums over axes, so pairwise sums
 * are computed per axis from coordinate histograms (O(n + L) on a mesh,
 * O(n + L^2) on a ring) instead of the O(n^2 d) double loop.  One pass
 * over the nodes fills the histograms and, on a mesh, the extremes of
 * x +- y +- z that give the diameter; the distance from centre takes a
 * second pass, the distinct projections (links_affected) one per axis
 * with a bitmap of the plane, and only when the caller asks for them
 * (mesh_metrics_select).  Only the diameter on a torus uses the O(n^2)
 * pairwise loop.
 */
#include "metrics.h"

#include <limits.h>
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

/* What one pass over the nodes gathers: per-axis histograms (hist[0]
 * is the buffer to free) and the extremes of x + y + z, x - y + z,
 * x + y - z and x - y - z (the L1 diameter on a mesh). */
struct scan {
	uint32_t *hist[MESH_MAX_DIMS];
	long lo[4], hi[4];
};

/* Kept in registers: an array indexed in a loop would live in memory. */
struct extremes {
	long lo0, hi0, lo1, hi1, lo2, hi2, lo3, hi3;
};

static inline void extend(long v, long *lo, long *hi)
{
	*lo = v < *lo ? v : *lo;
	*hi = v > *hi ? v : *hi;
}

static int scan_nodes(const struct mesh_topo *t, const uint32_t *nodes,
		      size_t n, struct scan *sc)
{
	struct extremes e = { LONG_MAX, LONG_MIN, LONG_MAX, LONG_MIN,
			      LONG_MAX, LONG_MIN, LONG_MAX, LONG_MIN };
	uint32_t *h0, *h1, *h2;
	int c[MESH_MAX_DIMS];
	long a, b;
	size_t i;

	h0 = calloc((size_t) t->dim[0] + t->dim[1] + t->dim[2],
		    sizeof(uint32_t));
	if (!h0)
		return MESH_ENOMEM;
	h1 = h0 + t->dim[0];
	h2 = h1 + t->dim[1];
	for (i = 0; i < n; i++) {
		mesh_topo_coords(t, nodes[i], c);
		h0[c[0]]++;
		h1[c[1]]++;
		h2[c[2]]++;
		a = (long) c[0] + c[1];
		b = (long) c[0] - c[1];
		extend(a + c[2], &e.lo0, &e.hi0);
		extend(b + c[2], &e.lo1, &e.hi1);
		extend(a - c[2], &e.lo2, &e.hi2);
		extend(b - c[2], &e.lo3, &e.hi3);
	}
	sc->hist[0] = h0;
	sc->hist[1] = h1;
	sc->hist[2] = h2;
	sc->lo[0] = e.lo0, sc->hi[0] = e.hi0;
	sc->lo[1] = e.lo1, sc->hi[1] = e.hi1;
	sc->lo[2] = e.lo2, sc->hi[2] = e.hi2;
	sc->lo[3] = e.lo3, sc->hi[3] = e.hi3;
	return 0;
}

int mesh_metrics_sum_pairwise(const struct mesh_topo *t, const uint32_t *nodes,
			      size_t n, uint64_t *sum)
{
	struct mesh_metrics m;
	int rc;

	if (n < 2) {
		*sum = 0;
		return 0;
	}
	rc = mesh_metrics_select(t, nodes, n, MESH_METRICS_PAIRWISE, &m);
	if (!rc)
		*sum = m.sum_pairwise;
	return rc;
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

/* Distinct projections of the nodes onto the hyperplane orthogonal to d,
 * i.e. the lines along d that hold a node: counted in a bitmap of the
 * plane when it has at most 64 n positions (O(n)), else by sorting the
 * projections' keys (O(n log n), a sparse mesh: no position-sized
 * buffer, issue 12.4).  Returns 0 on ENOMEM, which no count of n >= 1
 * nodes is. */
static uint64_t distinct_projections(const struct mesh_topo *t, int d,
				     const uint32_t *nodes, size_t n)
{
	int c[MESH_MAX_DIMS], u = d == 0 ? 1 : 0, w = d == 2 ? 1 : 2;
	size_t plane = (size_t) t->dim[u] * (size_t) t->dim[w], i;
	uint64_t count = 0, *bits;
	uint32_t *keys, key;

	if (plane <= 64 * n) {
		bits = calloc((plane + 63) / 64, sizeof(*bits));
		if (!bits)
			return 0;
		for (i = 0; i < n; i++) {
			mesh_topo_coords(t, nodes[i], c);
			key = (uint32_t) c[u] +
			      (uint32_t) t->dim[u] * (uint32_t) c[w];
			count += !(bits[key / 64] >> (key % 64) & 1);
			bits[key / 64] |= (uint64_t) 1 << (key % 64);
		}
		free(bits);
		return count;
	}
	keys = malloc(n * sizeof(*keys));
	if (!keys)
		return 0;
	for (i = 0; i < n; i++) {
		mesh_topo_coords(t, nodes[i], c);
		keys[i] =
		    (uint32_t) c[u] + (uint32_t) t->dim[u] * (uint32_t) c[w];
	}
	qsort(keys, n, sizeof(*keys), cmp_u32);
	for (i = 0; i < n; i++)
		count += !i || keys[i] != keys[i - 1];
	free(keys);
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
			   size_t n, uint32_t *const *hist, uint64_t *best)
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

/* L1 diameter on a mesh is the largest spread of x +- y +- z (from the
 * scan); on a torus the pairwise loop is used. */
static int diameter(const struct mesh_topo *t, const uint32_t *nodes, size_t n,
		    const struct scan *sc)
{
	int s, best = 0, dist;
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
	for (s = 0; s < 4; s++)
		if (sc->hi[s] - sc->lo[s] > best)
			best = (int) (sc->hi[s] - sc->lo[s]);
	return best;
}

/* Enclosing box and links_affected: per axis, its span times the lines
 * along it that hold a node. */
static int box_metrics(const struct mesh_topo *t, const uint32_t *nodes,
		       size_t n, const struct scan *sc, struct mesh_metrics *r)
{
	uint64_t lines;
	int d, span;

	r->nodes_affected = 1;
	for (d = 0; d < MESH_MAX_DIMS; d++) {
		span = axis_span(t, d, sc->hist[d]);
		r->bbox[d] = span + 1;
		r->nodes_affected *= (uint64_t) (span + 1);
		if (!span)
			continue;
		lines = distinct_projections(t, d, nodes, n);
		if (!lines)
			return MESH_ENOMEM;
		r->links_affected += (uint64_t) span * lines;
	}
	return 0;
}

static int select_metrics(const struct mesh_topo *t, const uint32_t *nodes,
			  size_t n, unsigned want, const struct scan *sc,
			  struct mesh_metrics *r)
{
	int d;

	if (want & MESH_METRICS_PAIRWISE) {
		for (d = 0; d < MESH_MAX_DIMS; d++)
			r->sum_pairwise += axis_pair_sum(t, d, sc->hist[d]);
		if (n > 1)
			r->avg_pairwise = (double) r->sum_pairwise /
					  ((double) n * (double) (n - 1) / 2.0);
	}
	if (want & MESH_METRICS_DIAMETER)
		r->diameter = diameter(t, nodes, n, sc);
	if ((want & MESH_METRICS_BOX) && box_metrics(t, nodes, n, sc, r))
		return MESH_ENOMEM;
	if ((want & MESH_METRICS_CENTER) &&
	    center_distance(t, nodes, n, sc->hist, &r->distance_from_center))
		return MESH_ENOMEM;
	return 0;
}

int mesh_metrics_select(const struct mesh_topo *t, const uint32_t *nodes,
			size_t n, unsigned want, struct mesh_metrics *m)
{
	struct mesh_metrics r;
	struct scan sc;
	int rc;

	if (!t || !nodes || !m || n == 0 || (want & ~MESH_METRICS_ALL))
		return MESH_EINVAL;
	if (scan_nodes(t, nodes, n, &sc))
		return MESH_ENOMEM;
	memset(&r, 0, sizeof(r));
	r.nodes = (uint32_t) n;
	rc = select_metrics(t, nodes, n, want, &sc, &r);
	free(sc.hist[0]);
	if (!rc)
		*m = r;
	return rc;
}

int mesh_metrics_compute(const struct mesh_topo *t, const uint32_t *nodes,
			 size_t n, struct mesh_metrics *m)
{
	return mesh_metrics_select(t, nodes, n, MESH_METRICS_ALL, m);
}

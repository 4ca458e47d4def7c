/* greedy.c - mc1x1's outermost shell, filled greedily (Walker et al.,
 * Sec. IV: the variant whose quality they report).
 *
 * HOW IT WORKS: see struct mesh__greedy in mc.h.  The distance from a
 * candidate to the chosen nodes splits over the axes, so three tables
 * over the candidates' coordinate range hold it; a pick adds its own
 * distances to the tables and every candidate left is scored with
 * three reads.
 */
#include "mc.h"

#include <stdlib.h>
#include <string.h>

#include "error.h"

void mesh__greedy_free(struct mesh__greedy *g)
{
	free(g->cand);
	free(g->xyz);
	free(g->hist);
	free(g->wsum);
	memset(g, 0, sizeof(*g));
}

int mesh__greedy_init(struct mesh__greedy *g, const struct mesh_topo *t)
{
	size_t n = t->nodes, w = (size_t) t->dim[0] + (size_t) t->dim[1] +
				 (size_t) t->dim[2] + 3;

	g->cand = malloc(n * sizeof(*g->cand));
	g->xyz = malloc(4 * n * sizeof(*g->xyz));
	g->hist = calloc(w, sizeof(*g->hist));
	g->wsum = malloc(w * sizeof(*g->wsum));
	if (!g->cand || !g->xyz || !g->hist || !g->wsum) {
		mesh__greedy_free(g);
		return MESH_ENOMEM;
	}
	return 0;
}

/* Distance on axis d without branches (Lee distance if it wraps). */
static inline uint64_t axis_gap(int a, int b, int len, int wrap)
{
	int x = a > b ? a - b : b - a, y = len - x;

	return (uint64_t) (wrap && y < x ? y : x);
}

/* Each pick costs one pass over the candidates' coordinate range per
 * axis (add its distance to wsum) and one over the candidates left (3
 * table reads each).  Candidate c is kept as its three wsum indices
 * (coordinate plus the axis's offset) and c; a pick is moved out of the
 * list, which keeps the candidates' order for ties. */
void mesh__greedy_fill(struct mesh__greedy *g, const struct mesh_topo *t,
		       uint32_t n, uint32_t *out, uint32_t inner, uint32_t m)
{
	uint32_t i, j, c, best = 0;
	uint64_t least, sum, *w = g->wsum;
	int q[3], *x, d, v, u, off[3], lo[3], hi[3], ilo[3], ihi[3], b[3];

	off[0] = 0, off[1] = t->dim[0] + 1, off[2] = off[1] + t->dim[1] + 1;
	for (d = 0; d < 3; d++)
		lo[d] = ilo[d] = t->dim[d], hi[d] = ihi[d] = -1;
	for (c = 0; c < n; c++) {
		x = g->xyz + 4 * (size_t) c;
		mesh_topo_coords(t, g->cand[c], x);
		for (d = 0; d < 3; d++) {
			lo[d] = x[d] < lo[d] ? x[d] : lo[d];
			hi[d] = x[d] > hi[d] ? x[d] : hi[d];
			x[d] += off[d];
		}
		x[3] = (int) c;
	}
	for (i = 0; i < inner; i++) {
		mesh_topo_coords(t, out[i], q);
		for (d = 0; d < 3; d++) {
			g->hist[off[d] + q[d]]++;
			ilo[d] = q[d] < ilo[d] ? q[d] : ilo[d];
			ihi[d] = q[d] > ihi[d] ? q[d] : ihi[d];
		}
	}
	/* wsum[off_d + v]: total distance on axis d from v to the chosen,
	 * for v in the candidates' range. */
	for (d = 0; d < 3; d++)
		for (v = lo[d]; v <= hi[d]; v++) {
			w[off[d] + v] = 0;
			for (u = ilo[d]; u <= ihi[d]; u++)
				w[off[d] + v] +=
				    (uint64_t) g->hist[off[d] + u] *
				    axis_gap(v, u, t->dim[d], t->wrap[d]);
		}
	for (i = 0; i < inner; i++) {
		mesh_topo_coords(t, out[i], q);
		for (d = 0; d < 3; d++)
			g->hist[off[d] + q[d]] = 0;
	}
	for (j = 0; j < m; j++, n--) {
		for (c = 0, x = g->xyz, least = UINT64_MAX; c < n;
		     c++, x += 4) {
			sum = w[x[0]] + w[x[1]] + w[x[2]];
			if (sum < least)
				least = sum, best = c;
		}
		x = g->xyz + 4 * (size_t) best;
		out[inner + j] = g->cand[x[3]];
		for (d = 0; d < 3; d++)
			b[d] = x[d] - off[d];
		memmove(x, x + 4, 4 * (size_t) (n - best - 1) * sizeof(*x));
		for (d = 0; j + 1 < m && d < 3; d++)
			for (v = lo[d]; v <= hi[d]; v++)
				w[off[d] + v] +=
				    axis_gap(v, b[d], t->dim[d], t->wrap[d]);
	}
}

/* greedy.c - mc1x1's outermost shell, filled greedily (Walker et al.,
 * Sec. IV: the variant whose quality they report).
 *
 * HOW IT WORKS: see struct mesh__greedy in mc.h.  The distance from a
 * candidate to the chosen nodes splits over the axes, so three tables
 * over the candidates' coordinate range hold it; a pick adds its own
 * distances to the tables.  A candidate's score (three reads) only grows
 * as nodes are chosen, so the candidates wait in a min-heap by (score,
 * position) whose scores may be stale, i.e. too low ("lazy greedy",
 * Minoux 1978): the top is scored again and sifted down until its score
 * is current, and then no other candidate can come before it, since
 * each one's (score, position) is at least its stale pair in the heap.
 * That is the earliest candidate of least score, as a scan of all of
 * them in order would choose.  A heap key is score << shift | position,
 * (score, position) in one compare of 8 bytes (11% of a 32^3 mc1x1
 * replay against 16-byte pairs); should a score not fit beside the
 * position, the fill is that scan instead.
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
	free(g->heap);
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
	g->heap = malloc(n * sizeof(*g->heap));
	g->key_bits = 64;
	if (!g->cand || !g->xyz || !g->hist || !g->wsum || !g->heap) {
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

/* Move h[i] down to its place among h[0..n). */
static void sift_down(uint64_t *h, uint32_t n, uint32_t i)
{
	uint64_t it = h[i];
	uint32_t k;

	while ((k = 2 * i + 1) < n) {
		k += k + 1 < n && h[k + 1] < h[k];
		if (h[k] >= it)
			break;
		h[i] = h[k];
		i = k;
	}
	h[i] = it;
}

/* wsum[off_d + v]: total distance on axis d from v to the first inner
 * nodes of out, for v in the candidates' range lo..hi; hist is left
 * zero. */
static void init_sums(struct mesh__greedy *g, const struct mesh_topo *t,
		      const uint32_t *out, uint32_t inner, const int off[3],
		      const int lo[3], const int hi[3])
{
	int q[3], d, v, u, ilo[3], ihi[3];
	uint64_t *w = g->wsum;
	uint32_t i;

	for (d = 0; d < 3; d++)
		ilo[d] = t->dim[d], ihi[d] = -1;
	for (i = 0; i < inner; i++) {
		mesh_topo_coords(t, out[i], q);
		for (d = 0; d < 3; d++) {
			g->hist[off[d] + q[d]]++;
			ilo[d] = q[d] < ilo[d] ? q[d] : ilo[d];
			ihi[d] = q[d] > ihi[d] ? q[d] : ihi[d];
		}
	}
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
}

static inline uint64_t score(const struct mesh__greedy *g, uint32_t c)
{
	const int *x = g->xyz + 4 * (size_t) c;

	return g->wsum[x[0]] + g->wsum[x[1]] + g->wsum[x[2]];
}

/* Adds the distances to pick p (wsum indices x) to the tables over the
 * candidates' range lo..hi. */
static void add_pick(struct mesh__greedy *g, const struct mesh_topo *t,
		     const int *x, const int off[3], const int lo[3],
		     const int hi[3])
{
	int d, v;

	for (d = 0; d < 3; d++)
		for (v = lo[d]; v <= hi[d]; v++)
			g->wsum[off[d] + v] +=
			    axis_gap(v, x[d] - off[d], t->dim[d], t->wrap[d]);
}

/* The definition: each pick scans the candidates left (positions in
 * ascending order in r) for the first of least score. */
static void fill_by_scan(struct mesh__greedy *g, const struct mesh_topo *t,
			 uint32_t n, uint32_t *out, uint32_t inner, uint32_t m,
			 const int off[3], const int lo[3], const int hi[3])
{
	uint32_t *r = (uint32_t *) g->heap, j, c, i, at;
	uint64_t now, least;

	for (c = 0; c < n; c++)
		r[c] = c;
	for (j = 0; j < m; j++) {
		for (i = 0, at = 0, least = UINT64_MAX; i < n; i++)
			if ((now = score(g, r[i])) < least)
				least = now, at = i;
		c = r[at];
		out[inner + j] = g->cand[c];
		memmove(r + at, r + at + 1, (n - at - 1) * sizeof(*r));
		n--;
		add_pick(g, t, g->xyz + 4 * (size_t) c, off, lo, hi);
	}
}

/* Each pick costs one pass over the candidates' coordinate range per
 * axis (add its distance to wsum) and a few heap steps. */
void mesh__greedy_fill(struct mesh__greedy *g, const struct mesh_topo *t,
		       uint32_t n, uint32_t *out, uint32_t inner, uint32_t m)
{
	uint64_t *h = g->heap, now, most, mask;
	uint32_t j, c;
	int *x, d, off[3], lo[3], hi[3], shift, score_bits;

	off[0] = 0, off[1] = t->dim[0] + 1, off[2] = off[1] + t->dim[1] + 1;
	for (d = 0, most = 0; d < 3; d++) {
		lo[d] = t->dim[d], hi[d] = -1;
		most += (uint64_t) (t->wrap[d] ? t->dim[d] / 2 : t->dim[d] - 1);
	}
	for (c = 0; c < n; c++) {
		x = g->xyz + 4 * (size_t) c;
		mesh_topo_coords(t, g->cand[c], x);
		for (d = 0; d < 3; d++) {
			lo[d] = x[d] < lo[d] ? x[d] : lo[d];
			hi[d] = x[d] > hi[d] ? x[d] : hi[d];
			x[d] += off[d];
		}
	}
	init_sums(g, t, out, inner, off, lo, hi);
	/* bits for a position (< n) and for a score (< (inner + m) times
	 * the mesh's largest distance) */
	for (shift = 0; (uint64_t) (n - 1) >> shift; shift++)
		;
	most *= (uint64_t) inner + m;
	for (score_bits = 0; score_bits < 64 && most >> score_bits;
	     score_bits++)
		;
	if (shift + score_bits > g->key_bits) {
		fill_by_scan(g, t, n, out, inner, m, off, lo, hi);
		return;
	}
	mask = ((uint64_t) 1 << shift) - 1;
	for (c = 0; c < n; c++)
		h[c] = score(g, c) << shift | c;
	for (c = n / 2; c-- > 0;)
		sift_down(h, n, c);
	for (j = 0; j < m; j++) {
		while ((now = score(g, (uint32_t) (h[0] & mask)) << shift |
			      (h[0] & mask)) != h[0]) {
			h[0] = now;
			sift_down(h, n, 0);
		}
		c = (uint32_t) (h[0] & mask);
		out[inner + j] = g->cand[c];
		h[0] = h[--n];
		sift_down(h, n, 0);
		if (j + 1 < m)
			add_pick(g, t, g->xyz + 4 * (size_t) c, off, lo, hi);
	}
}

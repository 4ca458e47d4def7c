/* optimum-gap.c - how far each allocator's placement is from the most
 * compact one, by exhaustive search on small meshes and tori.
 *
 * For each mesh, TRIALS random occupancies leave F free nodes (F drawn
 * from 10..16); a job of k nodes (2..F-1) is placed by every allocator,
 * and its sum of pairwise L1 distances (wrapping on tori) is divided by
 * the least sum over all C(F, k) subsets of the free nodes.  Printed per
 * allocator: the mean ratio, the worst, and the share of placements that
 * are optimal.  Then each allocator's placement of 4, 8 and 16 nodes on
 * the empty mesh, against a cube-like box (2x2x1, 2x2x2, 4x2x2; 2x2, 4x2,
 * 4x4 in 2D), which is not always the most compact set.  Distances
 * are computed here from coordinates, not by the library.  Seeded: the
 * same output on every machine.
 *
 * Usage: optimum-gap [TRIALS]   (default 300 per mesh)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mesh.h"

#define MAX_FREE 16

static const char *const meshes[] = { "4tx4tx4t", "4x4x4", "8tx8t", "8x8" };
static const char *const allocators[] = { "box-first", "mc1x1",      "mm-inc",
					  "genalg",    "hilbert-bf", "snake-bf",
					  "auto" };
#define N_MESHES (sizeof(meshes) / sizeof(meshes[0]))
#define N_ALLOCS (sizeof(allocators) / sizeof(allocators[0]))

static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* L1 distance with wrap, from coordinates. */
static int dist(const int dim[3], const bool wrap[3], const int *a,
		const int *b)
{
	int d, s = 0, x;

	for (d = 0; d < 3; d++) {
		x = abs(a[d] - b[d]);
		if (wrap[d] && dim[d] - x < x)
			x = dim[d] - x;
		s += x;
	}
	return s;
}

static void coords(const int dim[3], uint32_t n, int *c)
{
	c[0] = (int) (n % (uint32_t) dim[0]);
	c[1] = (int) (n / (uint32_t) dim[0] % (uint32_t) dim[1]);
	c[2] = (int) (n / ((uint32_t) dim[0] * (uint32_t) dim[1]));
}

static long sum_of(const int dim[3], const bool wrap[3], const uint32_t *set,
		   uint32_t k)
{
	int a[3], b[3];
	long s = 0;
	uint32_t i, j;

	for (i = 0; i < k; i++)
		for (j = i + 1; j < k; j++) {
			coords(dim, set[i], a);
			coords(dim, set[j], b);
			s += dist(dim, wrap, a, b);
		}
	return s;
}

/* Least pairwise sum over the k-subsets of the f free nodes (Gosper's
 * hack over f-bit masks). */
static long optimum(int dd[MAX_FREE][MAX_FREE], int f, int k)
{
	unsigned long m = (1ul << k) - 1, c, r;
	long best = -1, s;
	int i, j;

	while (m < (1ul << f)) {
		s = 0;
		for (i = 0; i < f; i++)
			if (m >> i & 1)
				for (j = i + 1; j < f; j++)
					if (m >> j & 1)
						s += dd[i][j];
		if (best < 0 || s < best)
			best = s;
		c = m & -m;
		r = m + c;
		m = (((r ^ m) >> 2) / c) | r;
	}
	return best;
}

static const uint32_t empty_k[3] = { 4, 8, 16 };
/* [mesh][allocator, then the box][k]: mean pairwise distance */
static double empty[N_MESHES][N_ALLOCS + 1][3];

/* Each allocator's k nodes on the empty mesh, and a cube-like box: sides
 * 2x2x1, 2x2x2, 4x2x2 in 3D, 2x2, 4x2, 4x4 in 2D. */
static void empty_mesh(size_t mi, const struct mesh_topo *topo,
		       const int dim[3], const bool wrap[3], int nd,
		       struct mesh_allocator **a, struct mesh_bitmap *fm)
{
	static const int box3[3][3] = { { 2, 2, 1 }, { 2, 2, 2 }, { 4, 2, 2 } };
	static const int box2[3][3] = { { 2, 2, 1 }, { 4, 2, 1 }, { 4, 4, 1 } };
	struct mesh_view v = { topo, fm, NULL, 0 };
	struct mesh_request req;
	uint32_t out[16], i;
	size_t ai, q;
	int x, y, z;

	mesh_bitmap_fill(fm, true);
	for (q = 0; q < 3; q++) {
		uint32_t k = empty_k[q];
		double pairs = (double) k * (k - 1) / 2;
		const int *b = nd == 3 ? box3[q] : box2[q];

		memset(&req, 0, sizeof(req));
		req.nodes = k;
		for (ai = 0; ai < N_ALLOCS; ai++) {
			if (mesh_alloc_place(a[ai], &v, &req, out))
				exit(1);
			empty[mi][ai][q] =
			    (double) sum_of(dim, wrap, out, k) / pairs;
		}
		i = 0;
		for (z = 0; z < b[2]; z++)
			for (y = 0; y < b[1]; y++)
				for (x = 0; x < b[0]; x++)
					out[i++] =
					    (uint32_t) (x +
							dim[0] *
							    (y + dim[1] * z));
		empty[mi][N_ALLOCS][q] =
		    (double) sum_of(dim, wrap, out, k) / pairs;
	}
}

struct tally {
	double sum_ratio, worst;
	long n, optimal;
};

int main(int argc, char **argv)
{
	int trials = argc > 1 ? atoi(argv[1]) : 300;
	struct tally tl[N_MESHES][N_ALLOCS];
	uint64_t seed = 56;
	size_t mi, ai;
	int t, ax;

	if (trials < 1) {
		fprintf(stderr, "usage: optimum-gap [TRIALS]\n");
		return 2;
	}
	memset(tl, 0, sizeof(tl));
	printf(
	    "placement's pairwise sum over the exhaustive optimum, %d "
	    "random occupancies per mesh\n(10-16 free nodes, k = 2..free-1): "
	    "mean ratio, worst, share optimal\n",
	    trials);
	printf("%-11s", "allocator");
	for (mi = 0; mi < N_MESHES; mi++)
		printf("  %-22s", meshes[mi]);
	printf("\n");
	for (mi = 0; mi < N_MESHES; mi++) {
		int dim[3] = { 1, 1, 1 }, c[MAX_FREE][3];
		bool wrap[3] = { false, false, false };
		struct mesh_topo *topo;
		struct mesh_allocator *a[N_ALLOCS];
		struct mesh_bitmap *fm;
		struct mesh_diag d;
		int nd;

		if (mesh_topo_parse(meshes[mi], &topo, &d) ||
		    mesh_bitmap_create(topo->nodes, &fm))
			return 1;
		nd = topo->ndims;
		for (ax = 0; ax < 3; ax++) {
			dim[ax] = topo->dim[ax];
			wrap[ax] = topo->wrap[ax];
		}
		for (ai = 0; ai < N_ALLOCS; ai++)
			if (mesh_alloc_create(topo, allocators[ai], NULL,
					      &a[ai], &d))
				return 1;
		for (t = 0; t < trials; t++) {
			int dd[MAX_FREE][MAX_FREE],
			    f = 10 + (int) (rnd(&seed) % 7);
			uint32_t out[MAX_FREE], i, n;
			struct mesh_view v = { topo, fm, NULL, 0 };
			struct mesh_request req;
			long best;
			int k = 2 + (int) (rnd(&seed) % (uint64_t) (f - 2)), x,
			    y;

			mesh_bitmap_fill(fm, false);
			for (i = 0; i < (uint32_t) f;) {
				n = (uint32_t) (rnd(&seed) % topo->nodes);
				if (mesh_bitmap_test(fm, n))
					continue;
				mesh_bitmap_set(fm, n);
				i++;
			}
			for (i = 0, n = 0; n < topo->nodes; n++)
				if (mesh_bitmap_test(fm, n))
					coords(dim, n, c[i++]);
			for (x = 0; x < f; x++)
				for (y = 0; y < f; y++)
					dd[x][y] = dist(dim, wrap, c[x], c[y]);
			best = optimum(dd, f, k);
			memset(&req, 0, sizeof(req));
			req.nodes = (uint32_t) k;
			for (ai = 0; ai < N_ALLOCS; ai++) {
				struct tally *y2 = &tl[mi][ai];
				double ratio;

				if (mesh_alloc_place(a[ai], &v, &req, out))
					return 1;
				for (i = 0; i < (uint32_t) k; i++)
					if (!mesh_bitmap_test(fm, out[i]))
						return 1;
				ratio = (double) sum_of(dim, wrap, out,
							(uint32_t) k) /
					(double) best;
				y2->sum_ratio += ratio;
				y2->worst =
				    ratio > y2->worst ? ratio : y2->worst;
				y2->optimal += ratio < 1 + 1e-12;
				y2->n++;
			}
		}
		empty_mesh(mi, topo, dim, wrap, nd, a, fm);
		for (ai = 0; ai < N_ALLOCS; ai++)
			mesh_alloc_destroy(a[ai]);
		mesh_bitmap_destroy(fm);
		mesh_topo_destroy(topo);
	}
	for (ai = 0; ai < N_ALLOCS; ai++) {
		printf("%-11s", allocators[ai]);
		for (mi = 0; mi < N_MESHES; mi++) {
			const struct tally *y2 = &tl[mi][ai];

			printf("  %.3f %.3f %3.0f%%        ",
			       y2->sum_ratio / (double) y2->n, y2->worst,
			       100.0 * (double) y2->optimal / (double) y2->n);
		}
		printf("\n");
	}
	printf("\nthe empty mesh: mean pairwise distance of 4, 8 and 16 "
	       "nodes\n%-11s",
	       "allocator");
	for (mi = 0; mi < N_MESHES; mi++)
		printf("  %-22s", meshes[mi]);
	printf("\n");
	for (ai = 0; ai <= N_ALLOCS; ai++) {
		printf("%-11s", ai < N_ALLOCS ? allocators[ai] : "a box");
		for (mi = 0; mi < N_MESHES; mi++)
			printf("  %.3f %.3f %.3f     ", empty[mi][ai][0],
			       empty[mi][ai][1], empty[mi][ai][2]);
		printf("\n");
	}
	return 0;
}

/* l1bound-study.c - how tight can a lower bound for Gen-Alg/MM be when it
 * sees only the per-axis free counts around a centre (issue 10)?
 *
 *   make -C test l1bound-study && test/l1bound-study [K [MAPSEED]]
 *
 * On a 32x32x32 mesh at 50% occupancy, every point's MM score (the pair
 * sum of its k nearest free nodes) comes from the library
 * (mesh__l1near_path_scores).  For each centre c of radius R (the least r
 * whose ball holds k free nodes), and for blocks of centres, the bound is
 *   sum over axes of min { pair sum of h : h <= u, sum h = k },
 * u being the axis histogram of the free nodes in the union of the
 * block's balls B(c, R_c).  Every scored set lies in that union, so this
 * is a lower bound for each centre of the block.  The 1D minimum is
 * exact: moving a unit from the end where the distance sum is larger to
 * an interior position with room lowers a pair sum, so a minimum fills a
 * window of positions to their caps, and, the sum being concave in the
 * split between the two ends, one end at most is partial.
 *
 * Printed per block shape: the share of centres whose bound exceeds the
 * best score (those a scan could skip) and the mean ratio of a block's
 * bound to its least score.  Printed first, for MM (every centre) and
 * Gen-Alg (free centres): what any bound must achieve, whatever data it
 * reads.  A bound b(c) <= score(c) lets a scan skip c only if b(c) >
 * best, so it needs b(c) / score(c) > best / score(c); the table gives
 * that ratio at quantiles of the centres.  This is a study, not a
 * benchmark: it takes a few seconds per k and prints no times. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_centre.h"
#include "mesh.h"

#define SIDE 32
#define NODES (SIDE * SIDE * SIDE)

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static int iabs(int a)
{
	return a < 0 ? -a : a;
}

static uint32_t node_at(int x, int y, int z)
{
	return (uint32_t) (x + SIDE * (y + SIDE * z));
}

static int l1(uint32_t a, uint32_t b)
{
	return iabs((int) (a % SIDE) - (int) (b % SIDE)) +
	       iabs((int) (a / SIDE % SIDE) - (int) (b / SIDE % SIDE)) +
	       iabs((int) (a / SIDE / SIDE) - (int) (b / SIDE / SIDE));
}

/* Least pair sum of k units at positions 0..n-1 with caps u: a window
 * filled from one end, the far end partial. */
static double min_pairs(const long *u, int n, long k)
{
	double best = -1, ps, cnt, sp;
	long tot, take;
	int from, i, dir, pos;

	for (dir = 1; dir >= -1; dir -= 2)
		for (from = 0; from < n; from++) {
			tot = 0;
			ps = cnt = sp = 0;
			for (i = 0; i < n && tot < k; i++) {
				pos = dir > 0 ? from + i : n - 1 - from - i;
				if (pos < 0 || pos >= n)
					break;
				take = u[pos] < k - tot ? u[pos] : k - tot;
				ps += take * (dir > 0 ? pos * cnt - sp
						      : sp - pos * cnt);
				cnt += take;
				sp += (double) take * pos;
				tot += take;
			}
			if (tot == k && (best < 0 || ps < best))
				best = ps;
		}
	return best;
}

/* Radius of every centre: the least r whose ball holds k free nodes. */
static void radii(const unsigned char *fr, uint32_t k, int *rad)
{
	uint32_t c, p, n;
	int count[3 * SIDE], r;

	for (c = 0; c < NODES; c++) {
		memset(count, 0, sizeof(count));
		for (p = 0; p < NODES; p++)
			if (fr[p])
				count[l1(c, p)]++;
		for (r = 0, n = 0; (n += (uint32_t) count[r]) < k; r++)
			;
		rad[c] = r;
	}
}

/* The bound for the block of b[0] x b[1] x b[2] centres at corner. */
static double block_bound(const unsigned char *fr, const int *rad,
			  const int corner[3], const int b[3], uint32_t k)
{
	long u[3][SIDE];
	uint32_t p, c;
	int dx, dy, dz, in;

	memset(u, 0, sizeof(u));
	for (p = 0; p < NODES; p++) {
		if (!fr[p])
			continue;
		for (in = 0, dz = 0; dz < b[2] && !in; dz++)
			for (dy = 0; dy < b[1] && !in; dy++)
				for (dx = 0; dx < b[0] && !in; dx++) {
					c = node_at(corner[0] + dx,
						    corner[1] + dy,
						    corner[2] + dz);
					in = l1(c, p) <= rad[c];
				}
		if (in) {
			u[0][p % SIDE]++;
			u[1][p / SIDE % SIDE]++;
			u[2][p / SIDE / SIDE]++;
		}
	}
	return min_pairs(u[0], SIDE, k) + min_pairs(u[1], SIDE, k) +
	       min_pairs(u[2], SIDE, k);
}

/* The least score of the block's centres. */
static uint64_t block_least(const uint64_t *score, const int corner[3],
			    const int b[3])
{
	uint64_t least = UINT64_MAX, v;
	int dx, dy, dz;

	for (dz = 0; dz < b[2]; dz++)
		for (dy = 0; dy < b[1]; dy++)
			for (dx = 0; dx < b[0]; dx++) {
				v = score[node_at(corner[0] + dx,
						  corner[1] + dy,
						  corner[2] + dz)];
				least = v < least ? v : least;
			}
	return least;
}

static void study_block(const unsigned char *fr, const int *rad,
			const uint64_t *score, uint64_t best, const int b[3],
			uint32_t k)
{
	long blocks = 0, skipped = 0;
	double ratio = 0, lb;
	int corner[3];

	for (corner[2] = 0; corner[2] < SIDE; corner[2] += b[2])
		for (corner[1] = 0; corner[1] < SIDE; corner[1] += b[1])
			for (corner[0] = 0; corner[0] < SIDE;
			     corner[0] += b[0], blocks++) {
				lb = block_bound(fr, rad, corner, b, k);
				skipped += lb > (double) best;
				ratio +=
				    lb / (double) block_least(score, corner, b);
			}
	printf("%ld x %ld x %ld | %.1f%% | %.3f\n", (long) b[0], (long) b[1],
	       (long) b[2], 100.0 * (double) skipped / (double) blocks,
	       ratio / (double) blocks);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;

	return (x > y) - (x < y);
}

/* The tightness b(c) / score(c) a bound needs to skip a share q of the
 * centres (free ones only if fr is not NULL): with the centres ordered
 * by best / score(c), worst first, the value at rank q. */
static void study_oracle(const char *name, const unsigned char *fr,
			 const uint64_t *score)
{
	static const double shares[] = { 0.5, 0.9, 0.99 };
	static double need[NODES];
	uint64_t best = UINT64_MAX;
	size_t n = 0, c, s;

	for (c = 0; c < NODES; c++)
		if (!fr || fr[c])
			best = score[c] < best ? score[c] : best;
	for (c = 0; c < NODES; c++)
		if (!fr || fr[c])
			need[n++] = (double) best / (double) score[c];
	qsort(need, n, sizeof(need[0]), cmp_double);
	printf("%s | %zu | %llu", name, n, (unsigned long long) best);
	for (s = 0; s < sizeof(shares) / sizeof(shares[0]); s++)
		printf(" | %.4f",
		       need[(size_t) (shares[s] * (double) (n - 1))]);
	printf("\n");
}

/* A whole decimal number, or 0. */
static int parse_u64(const char *s, unsigned long long *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 10);
	return *s >= '0' && *s <= '9' && !*end && !errno;
}

int main(int argc, char **argv)
{
	static const int shapes[][3] = { { 1, 1, 1 },
					 { 2, 1, 1 },
					 { 2, 2, 2 } };
	unsigned long long k = 64, seed = 12345;
	uint32_t busy, i;
	uint64_t state;
	static unsigned char fr[NODES];
	static int rad[NODES];
	static uint64_t score[NODES];
	uint64_t best = UINT64_MAX;
	struct mesh_topo *t;
	struct mesh_bitmap *b;
	struct mesh__l1near x;
	struct mesh_diag diag;
	size_t s;

	if (argc > 3 || (argc > 1 && !parse_u64(argv[1], &k)) ||
	    (argc > 2 && !parse_u64(argv[2], &seed)) || k < 1 ||
	    k > NODES / 2 || !seed) {
		fprintf(stderr,
			"usage: l1bound-study [K in 1..%d [SEED > 0]]\n",
			NODES / 2);
		return 2;
	}
	if (mesh_topo_parse("32x32x32", &t, &diag) ||
	    mesh_bitmap_create(NODES, &b) || mesh__l1near_init(&x, t)) {
		fprintf(stderr, "l1bound-study: out of memory\n");
		return 1;
	}
	mesh_bitmap_fill(b, true);
	state = seed;
	memset(fr, 1, sizeof(fr));
	for (busy = 0; busy < NODES / 2;) {
		i = (uint32_t) (rnd(&state) % NODES);
		if (fr[i]) {
			fr[i] = 0;
			mesh_bitmap_clear(b, i);
			busy++;
		}
	}
	if (mesh__l1near_path_scores(&x, b, (uint32_t) k, 1, NULL, score,
				     NULL)) {
		fprintf(stderr, "l1bound-study: no table path on 32x32x32\n");
		return 1;
	}
	for (s = 0; s < NODES; s++)
		best = score[s] < best ? score[s] : best;
	printf("32x32x32, 50%% free, k = %llu\n", k);
	printf("allocator | centres | best score | tightness needed to skip "
	       "50%% | 90%% | 99%%\n");
	study_oracle("mm", NULL, score);
	study_oracle("genalg", fr, score);
	radii(fr, (uint32_t) k, rad);
	printf("best MM score %llu\n", (unsigned long long) best);
	printf("block | centres whose bound > best | mean bound / least "
	       "score\n");
	for (s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++)
		study_block(fr, rad, score, best, shapes[s], (uint32_t) k);
	mesh__l1near_free(&x);
	mesh_bitmap_destroy(b);
	mesh_topo_destroy(t);
	return 0;
}

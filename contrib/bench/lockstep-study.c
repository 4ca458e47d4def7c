/* lockstep-study.c - what would scoring Gen-Alg/MM centres in lockstep,
 * 32 to an x-row, cost (issue 10)?
 *
 *   make -C test lockstep-study && test/lockstep-study [K [MAPS]]
 *   make -C test lockstep-study CFLAGS='-O3 -mavx2'   (wider vectors)
 *
 * doc/design.md estimated, on paper, that a vectorised search would need
 * about 50-60 ns per centre for the part that vectors can take (the
 * radius, the three axis histograms and their pair sums) on AVX2.  This
 * program measures that part, written as plain C11 loops over the 32
 * centres of an x-row that the compiler may vectorise, on a 32x32x32
 * mesh at 50% occupancy:
 *  - per axis, per slice, prefix sums of the slice's plane in rotated
 *    coordinates (u = a + b, v = a - b), stored by diagonal w = u - v,
 *    so that the diamonds of one radius around the 32 centres of an
 *    x-row are four contiguous runs;
 *  - per x-row, the axis-0 diamonds of every slice (the row cache),
 *    each centre's radius R (the least r whose ball holds K free
 *    nodes), and the pair sum of the free nodes of the ball of radius
 *    R - 1 on each axis, sum over gaps of L (n - L).
 * It leaves out the partial last shell (the walk, or a bound before it)
 * and the tie rules, so it is a lower bound on a vectorised search.  It
 * checks its counts and pair sums against a direct enumeration on
 * sampled centres and exits 1 on any difference.  It prints ns per
 * centre beside the library's whole search (genalg, mm) on the same
 * maps.  A study, not a benchmark of the library. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloc.h"
#include "bitmap.h"
#include "mesh.h"
#include "topo.h"

#define S 32 /* side */
/* largest radius the tables serve: a corner centre needs about 20 at
 * k = 512 and 50% (K is at most 512) */
#define RMAX 22
/* shifted rotated coordinates u' = a + b + RMAX + 1 and v' = a - b + S +
 * RMAX lie in [0, U); a table entry is kept by diagonal w = u' - v' +
 * WOFF, which lies in [0, W) for every corner a query reads */
#define U (2 * S + 2 * RMAX + 1)
#define WOFF (S + 2 * RMAX)
#define W (2 * S + 4 * RMAX + 1)
#define PAD (RMAX + 1) /* zeros beside a row-cache row */

static uint8_t freemap[S][S][S]; /* [z][y][x] */
/* axes 1 and 2: Q[d][slice][w][u']; axis 0: Q0[w][u'][slice], so that a
 * row cache row (every slice) is four contiguous runs too */
static uint16_t Q[3][S][W][U];
static uint16_t Q0[W][U][S];
/* the axis-0 diamonds of the current row: rc[rho][PAD + slice] */
static uint16_t rc[RMAX + 1][S + 2 * PAD];

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

static int iabs(int a)
{
	return a < 0 ? -a : a;
}

/* Cell (a, b) of slice s of axis d: axis 0's planes are (y, z), axis
 * 1's (x, z) and axis 2's (x, y). */
static int cell(int d, int s, int a, int b)
{
	if (d == 0)
		return freemap[b][a][s];
	if (d == 1)
		return freemap[b][s][a];
	return freemap[s][b][a];
}

/* Prefix counts P(u', v') of the free cells with a + b + RMAX + 1 <= u'
 * and a - b + S + RMAX <= v', per slice, filed by diagonal. */
static void build_axis(int d)
{
	static uint16_t P[U][U];
	int s, u, v, a, b, w;

	for (s = 0; s < S; s++) {
		memset(P, 0, sizeof(P));
		for (a = 0; a < S; a++)
			for (b = 0; b < S; b++)
				P[a + b + RMAX + 1][a - b + S + RMAX] +=
				    (uint16_t) cell(d, s, a, b);
		for (u = 0; u < U; u++)
			for (v = 0; v < U; v++)
				P[u][v] =
				    (uint16_t) (P[u][v] +
						(u ? P[u - 1][v] : 0) +
						(v ? P[u][v - 1] : 0) -
						(u && v ? P[u - 1][v - 1] : 0));
		for (u = 0; u < U; u++)
			for (v = 0; v < U; v++) {
				w = u - v + WOFF;
				if (w < 0 || w >= W)
					continue;
				if (d)
					Q[d][s][w][u] = P[u][v];
				else
					Q0[w][u][s] = P[u][v];
			}
	}
}

/* Diamonds of radius rho in slice s of axis d (1 or 2) around the 32
 * centres (x, c) of an x-row (c is z on axis 1, y on axis 2). */
static void diamonds(int d, int s, int c, int rho, uint16_t *restrict out)
{
	int w0 = 2 * c + 1 - S + WOFF, hi = c + RMAX + 1 + rho,
	    lo = c + RMAX - rho, x;
	const uint16_t *restrict t0 = &Q[d][s][w0][hi];
	const uint16_t *restrict t1 = &Q[d][s][w0 - 2 * rho - 1][lo];
	const uint16_t *restrict t2 = &Q[d][s][w0 + 2 * rho + 1][hi];
	const uint16_t *restrict t3 = &Q[d][s][w0][lo];

	for (x = 0; x < S; x++)
		out[x] = (uint16_t) (t0[x] - t1[x] - t2[x] + t3[x]);
}

/* Row cache of row (y, z), radius rho: the axis-0 diamonds of every
 * slice around (y, z). */
static void row_cache(int y, int z, int rho)
{
	int w0 = 2 * z + 1 - S + WOFF, hi = y + z + RMAX + 1 + rho,
	    lo = y + z + RMAX - rho, s;
	const uint16_t *restrict t0 = Q0[w0][hi];
	const uint16_t *restrict t1 = Q0[w0 - 2 * rho - 1][lo];
	const uint16_t *restrict t2 = Q0[w0 + 2 * rho + 1][hi];
	const uint16_t *restrict t3 = Q0[w0][lo];
	uint16_t *restrict o = rc[rho] + PAD;

	for (s = 0; s < S; s++)
		o[s] = (uint16_t) (t0[s] - t1[s] - t2[s] + t3[s]);
}

/* Ball counts of radius r around the row's 32 centres (rc filled to
 * r). */
static void ball_counts(int r, uint32_t *restrict n)
{
	int j, x;

	for (x = 0; x < S; x++)
		n[x] = 0;
	for (j = -r; j <= r; j++) {
		const uint16_t *restrict q = &rc[r - iabs(j)][PAD + j];

		for (x = 0; x < S; x++)
			n[x] += q[x];
	}
}

/* Per lane: the radius summed (R - 1), its node count, and the running
 * pair-sum state over slices in ascending order. */
struct lanes {
	int16_t rs[S];
	uint16_t n[S], L[S]; /* k <= 512 */
	uint32_t P[S];
};

/* Slice offset j: lane x takes part[x] if its radius at j is rho. */
static void blend(const struct lanes *ln, int j, int rho,
		  const uint16_t *restrict part, uint16_t *restrict h)
{
	int16_t want = (int16_t) (rho + iabs(j));
	int x;

	for (x = 0; x < S; x++)
		h[x] = (uint16_t) (h[x] + (part[x] &
					   (uint16_t) - (ln->rs[x] == want)));
}

/* Widening 16 x 16 -> 32 bit products (SSE2 has them; it has no 32-bit
 * multiply). */
static void add_slice(struct lanes *ln, const uint16_t *restrict h)
{
	int x;

	for (x = 0; x < S; x++) {
		uint16_t L = (uint16_t) (ln->L[x] + h[x]);

		ln->L[x] = L;
		ln->P[x] += (uint32_t) L * (uint32_t) (uint16_t) (ln->n[x] - L);
	}
}

/* Axis d's pair sums of the row (y, z), added to out[]: on axis 0 the
 * slices are x + j (from rc), on axis 1 y + j, on axis 2 z + j. */
static void axis_pairs(struct lanes *ln, int d, int y, int z, int rlo, int rhi,
		       uint64_t *restrict out)
{
	uint16_t h[S], part[S];
	int j, x, rho, s, at = d == 1 ? y : z;

	memset(ln->L, 0, sizeof(ln->L));
	memset(ln->P, 0, sizeof(ln->P));
	for (j = -rhi; j <= rhi; j++) {
		s = at + j;
		if (d && (s < 0 || s >= S))
			continue;
		memset(h, 0, sizeof(h));
		for (rho = rlo - iabs(j); rho <= rhi - iabs(j); rho++) {
			if (rho < 0)
				continue;
			if (d)
				diamonds(d, s, d == 1 ? z : y, rho, part);
			else
				memcpy(part, &rc[rho][PAD + j], sizeof(part));
			blend(ln, j, rho, part, h);
		}
		add_slice(ln, h);
	}
	for (x = 0; x < S; x++)
		out[x] += ln->P[x];
}

/* The vector part of one decision: every centre's R, its N(R - 1) and
 * the pair sum of ball(R - 1)'s free nodes. */
static void lockstep(uint32_t k, int *R, uint32_t *below, uint64_t *pairs)
{
	struct lanes ln;
	uint32_t n[S], prev[S];
	int y, z, x, r, rfill, rguess = 1, rlo, rhi, any, left;

	for (z = 0; z < S; z++)
		for (y = 0; y < S; y++) {
			size_t row = ((size_t) z * S + (size_t) y) * S;

			r = rguess > 0 ? rguess - 1 : 0;
			for (rfill = 0; rfill <= r; rfill++)
				row_cache(y, z, rfill);
			for (;;) { /* down until no lane holds k (or r = 0) */
				ball_counts(r, n);
				for (any = 0, x = 0; x < S; x++)
					any |= n[x] >= k;
				if (!any || r == 0)
					break;
				r--;
			}
			for (x = 0; x < S; x++) /* r = 0 if any holds k */
				R[row + x] = n[x] >= k ? r : -1;
			for (left = 0, x = 0; x < S; x++)
				left += R[row + x] < 0;
			while (left && r < RMAX) {
				memcpy(prev, n, sizeof(n));
				r++;
				if (r == rfill)
					row_cache(y, z, rfill++);
				ball_counts(r, n);
				for (x = 0; x < S; x++)
					if (R[row + x] < 0 && n[x] >= k) {
						R[row + x] = r;
						below[row + x] = prev[x];
						left--;
					}
			}
			rlo = RMAX;
			rhi = -1;
			for (x = 0; x < S; x++) {
				if (R[row + x] == 0)
					below[row + x] = 0;
				ln.rs[x] = (int16_t) (R[row + x] - 1);
				ln.n[x] = (uint16_t) below[row + x];
				rlo = ln.rs[x] < rlo ? ln.rs[x] : rlo;
				rhi = ln.rs[x] > rhi ? ln.rs[x] : rhi;
				pairs[row + x] = 0;
			}
			rguess = rlo + 1;
			for (; rfill <= rhi; rfill++)
				row_cache(y, z, rfill);
			axis_pairs(&ln, 0, y, z, rlo, rhi, pairs + row);
			axis_pairs(&ln, 1, y, z, rlo, rhi, pairs + row);
			axis_pairs(&ln, 2, y, z, rlo, rhi, pairs + row);
		}
}

/* The same, for one centre, by enumerating its ball. */
static int check_centre(int cx, int cy, int cz, uint32_t k, int R,
			uint32_t below, uint64_t pairs)
{
	uint32_t h[3][S], n = 0, nR = 0;
	uint64_t p = 0;
	int x, y, z, d, i;

	memset(h, 0, sizeof(h));
	for (z = 0; z < S; z++)
		for (y = 0; y < S; y++)
			for (x = 0; x < S; x++) {
				int dist =
				    iabs(x - cx) + iabs(y - cy) + iabs(z - cz);

				if (!freemap[z][y][x] || dist > R)
					continue;
				nR++;
				if (dist == R)
					continue;
				n++;
				h[0][x]++;
				h[1][y]++;
				h[2][z]++;
			}
	for (d = 0; d < 3; d++) {
		uint64_t L = 0;

		for (i = 0; i < S; i++) {
			L += h[d][i];
			p += L * (n - L);
		}
	}
	if (n == below && p == pairs && n < k && nR >= k)
		return 0;
	fprintf(stderr,
		"lockstep-study: centre (%d,%d,%d) k=%u: R=%d N(R-1)=%u/%u "
		"N(R)=%u pairs=%llu/%llu\n",
		cx, cy, cz, k, R, below, n, nR, (unsigned long long) pairs,
		(unsigned long long) p);
	return 1;
}

static int cmpd(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;

	return (x > y) - (x < y);
}

/* The library's whole search on the same map, seconds: allocator a
 * (0 genalg, 1 mm), kept across maps as meshbench keeps it; its first
 * call, which also touches its tables' pages, is not timed. */
static double library_place(int which, uint32_t k)
{
	static struct mesh_topo *t;
	static struct mesh_allocator *a[2];
	struct mesh_bitmap *f;
	struct mesh_request req;
	struct mesh_view v;
	struct mesh_diag dg;
	uint32_t *out = malloc(k * sizeof(*out)), i;
	double t0, dt;
	int first = 0;

	memset(&dg, 0, sizeof(dg));
	if (!t && mesh_topo_parse("32x32x32", &t, &dg))
		exit(2);
	if (!a[which]) {
		if (mesh_alloc_create(t, which ? "mm" : "genalg", NULL,
				      &a[which], &dg))
			exit(2);
		first = 1;
	}
	if (!out || mesh_bitmap_create(t->nodes, &f))
		exit(2);
	for (i = 0; i < t->nodes; i++)
		if (freemap[i / (S * S)][i / S % S][i % S])
			mesh_bitmap_set(f, i);
	memset(&req, 0, sizeof(req));
	req.nodes = k;
	req.io_intensity = -1;
	v = (struct mesh_view){ t, f, NULL, 0 };
	if (first && mesh_alloc_place(a[which], &v, &req, out))
		exit(2);
	t0 = now();
	if (mesh_alloc_place(a[which], &v, &req, out))
		exit(2);
	dt = now() - t0;
	mesh_bitmap_destroy(f);
	free(out);
	return dt;
}

int main(int argc, char **argv)
{
	uint32_t k = argc > 1 ? (uint32_t) strtoul(argv[1], NULL, 10) : 512;
	int maps = argc > 2 ? atoi(argv[2]) : 5, m, i, bad = 0, *R;
	uint64_t seed = 42, *pairs;
	uint32_t *below;
	double *tb, *tl, *tg, *tm, t0, t1, t2;

	if (maps < 1 || k < 2 || k > 512) {
		fprintf(stderr, "usage: lockstep-study [K (2..512) [MAPS]]\n");
		return 2;
	}
	R = malloc(sizeof(*R) * S * S * S);
	below = malloc(sizeof(*below) * S * S * S);
	pairs = malloc(sizeof(*pairs) * S * S * S);
	tb = malloc(4 * sizeof(double) * (size_t) maps);
	if (!R || !below || !pairs || !tb) {
		fprintf(stderr, "lockstep-study: out of memory\n");
		return 2;
	}
	tl = tb + maps;
	tg = tl + maps;
	tm = tg + maps;
	for (m = 0; m < maps; m++) {
		uint32_t busy = 0, c;

		memset(freemap, 1, sizeof(freemap));
		while (busy < S * S * S / 2) {
			c = (uint32_t) (rnd(&seed) % (S * S * S));
			if (freemap[c / (S * S)][c / S % S][c % S]) {
				freemap[c / (S * S)][c / S % S][c % S] = 0;
				busy++;
			}
		}
		t0 = now();
		build_axis(0);
		build_axis(1);
		build_axis(2);
		t1 = now();
		lockstep(k, R, below, pairs);
		t2 = now();
		tb[m] = t1 - t0;
		tl[m] = t2 - t1;
		for (i = (int) (rnd(&seed) % 97); i < S * S * S; i += 97)
			if (R[i] < 0 || R[i] > RMAX ||
			    check_centre(i % S, i / S % S, i / (S * S), k, R[i],
					 below[i], pairs[i]))
				bad = 1;
		tg[m] = library_place(0, k);
		tm[m] = library_place(1, k);
	}
	qsort(tb, (size_t) maps, sizeof(double), cmpd);
	qsort(tl, (size_t) maps, sizeof(double), cmpd);
	qsort(tg, (size_t) maps, sizeof(double), cmpd);
	qsort(tm, (size_t) maps, sizeof(double), cmpd);
	printf("32x32x32 at 50%%, k = %u, %d maps, medians; vectors:%s%s%s\n",
	       k, maps,
#ifdef __AVX2__
	       " avx2",
#else
	       "",
#endif
#ifdef __SSE2__
	       " sse2",
#else
	       "",
#endif
	       bad ? " (CHECK FAILED)" : "");
	printf("lockstep tables  %8.1f us  %6.1f ns/centre (naive build)\n",
	       tb[maps / 2] * 1e6, tb[maps / 2] * 1e9 / (S * S * S));
	printf("lockstep rows    %8.1f us  %6.1f ns/centre\n",
	       tl[maps / 2] * 1e6, tl[maps / 2] * 1e9 / (S * S * S));
	printf("library genalg   %8.1f us  %6.1f ns/free centre\n",
	       tg[maps / 2] * 1e6, tg[maps / 2] * 1e9 / (S * S * S / 2));
	printf("library mm       %8.1f us  %6.1f ns/centre\n",
	       tm[maps / 2] * 1e6, tm[maps / 2] * 1e9 / (S * S * S));
	free(R);
	free(below);
	free(pairs);
	free(tb);
	return bad;
}

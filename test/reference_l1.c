/* reference_l1.c - Gen-Alg's and MM's centre search as the library did
 * it before issue 10 (reference.h; see reference.c). */
#include "reference.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------- Gen-Alg and MM (issue 10)
 *
 * The library's L1 centre search exactly as it was before issue
 * 10 (per-slice diamond-count tables on all three axes for meshes, shell
 * enumeration on tori), renamed, for the "today" column of meshbench and
 * for check_alloc_exact_l1.  Gen-Alg's candidate centres are the free nodes,
 * MM's every point whose coordinates each occur among the free nodes. */

struct ref_l1near {
	const struct mesh_topo *topo;
	uint32_t *shell;
	uint32_t *taken;
	uint64_t *lb;
	uint32_t *hist[MESH_MAX_DIMS];
	uint64_t *pre;
	int rmax;
	uint32_t *tab[MESH_MAX_DIMS];
	size_t stride[MESH_MAX_DIMS];
	int side[MESH_MAX_DIMS];
	int tp[MESH_MAX_DIMS], tq[MESH_MAX_DIMS], rot[MESH_MAX_DIMS];
	int fast;
	int axis0;
	int rguess;
	uint8_t *has[MESH_MAX_DIMS]; /* MM: coordinate occurs among free */
	int mm;
	const struct mesh_bitmap *cur; /* the free map of this call */
};

typedef int (*ref_centre_pred)(const void *ctx, uint32_t node);

/* lb[j] for j = 0..n (see the file comment). */
static void rl_fill_lower_bounds(uint64_t *lb, uint32_t n, int nd)
{
	uint64_t g = 0, left = 0;
	uint32_t j;
	int r = 0;

	lb[0] = 0;
	for (j = 0; j < n; j++) {
		lb[j + 1] = lb[j] + g; /* adding point j costs >= g(j) */
		while (left == 0) {
			r++;
			left = nd == 1   ? 2
			       : nd == 2 ? 4u * (uint64_t) r
					 : 4u * (uint64_t) r * (uint64_t) r + 2;
		}
		g += (uint64_t) r; /* g(j + 1) adds the next nearest point */
		left--;
	}
}

static int rl_tables_init(struct ref_l1near *x);
static void ref_l1near_free(struct ref_l1near *x);

static int ref_l1near_init(struct ref_l1near *x, const struct mesh_topo *t)
{
	int d, nd = 0;

	memset(x, 0, sizeof(*x));
	x->topo = t;
	for (d = 0; d < MESH_MAX_DIMS; d++) {
		nd += t->dim[d] > 1;
		x->rmax += t->dim[d];
	}
	x->shell = malloc(t->nodes * sizeof(*x->shell));
	x->taken = malloc(t->nodes * sizeof(*x->taken));
	x->lb = malloc(((size_t) t->nodes + 1) * sizeof(*x->lb));
	for (d = 0; d < MESH_MAX_DIMS; d++)
		x->hist[d] = calloc((size_t) t->dim[d], sizeof(uint32_t));
	x->pre = malloc(((size_t) 6 * x->rmax + 2) * sizeof(*x->pre));
	if (!x->shell || !x->taken || !x->lb || !x->hist[0] || !x->hist[1] ||
	    !x->hist[2] || !x->pre  ||
	    rl_tables_init(x)) {
		ref_l1near_free(x);
		return MESH_ENOMEM;
	}
	rl_fill_lower_bounds(x->lb, t->nodes, nd ? nd : 1);
	return 0;
}

static void ref_l1near_free(struct ref_l1near *x)
{
	int d;

	for (d = 0; d < MESH_MAX_DIMS; d++) {
		free(x->hist[d]);
		x->hist[d] = NULL;
	}
	free(x->pre);
	x->pre = NULL;
	for (d = 0; d < MESH_MAX_DIMS; d++) {
		free(x->tab[d]);
		x->tab[d] = NULL;
	}
	free(x->shell);
	free(x->taken);
	free(x->lb);
	x->shell = x->taken = NULL;
	x->lb = NULL;
}

/* Offsets allowed per axis so that each node has exactly one offset,
 * of length equal to its axis distance from c. */
static void rl_offset_range(const struct mesh_topo *t, const int c[3], int lo[3],
			 int hi[3])
{
	int d;

	for (d = 0; d < MESH_MAX_DIMS; d++) {
		if (t->wrap[d]) {
			lo[d] = -((t->dim[d] - 1) / 2);
			hi[d] = t->dim[d] / 2;
		} else {
			lo[d] = -c[d];
			hi[d] = t->dim[d] - 1 - c[d];
		}
	}
}

static inline int rl_wrap_coord(int q, int len)
{
	return q < 0 ? q + len : q >= len ? q - len : q;
}

static inline int rl_imax(int a, int b)
{
	return a > b ? a : b;
}

static inline int rl_imin(int a, int b)
{
	return a < b ? a : b;
}

/* Free nodes at L1 distance exactly r from c; returns their number. */
static uint32_t rl_gather_shell(struct ref_l1near *x,
			     const struct mesh_bitmap *f, const int c[3],
			     const int lo[3], const int hi[3], int r)
{
	const struct mesh_topo *t = x->topo;
	uint32_t m = 0, X = (uint32_t) t->dim[0], XY = X * (uint32_t) t->dim[1];
	int dz, dy, rz, rx, q[3];

	for (dz = rl_imax(-r, lo[2]); dz <= rl_imin(r, hi[2]); dz++) {
		rz = r - (dz < 0 ? -dz : dz);
		q[2] = rl_wrap_coord(c[2] + dz, t->dim[2]);
		for (dy = rl_imax(-rz, lo[1]); dy <= rl_imin(rz, hi[1]); dy++) {
			uint32_t base, n;

			rx = rz - (dy < 0 ? -dy : dy);
			q[1] = rl_wrap_coord(c[1] + dy, t->dim[1]);
			base = (uint32_t) q[1] * X + (uint32_t) q[2] * XY;
			if (-rx >= lo[0]) {
				n = base +
				    (uint32_t) rl_wrap_coord(c[0] - rx, (int) X);
				if (mesh_bitmap_test(f, n))
					x->shell[m++] = n;
			}
			if (rx > 0 && rx <= hi[0]) {
				n = base +
				    (uint32_t) rl_wrap_coord(c[0] + rx, (int) X);
				if (mesh_bitmap_test(f, n))
					x->shell[m++] = n;
			}
		}
	}
	return m;
}

/* Sum over unordered pairs of axis distances, from a histogram: O(L). */
static uint64_t rl_axis_pairs(const struct ref_l1near *x, int d)
{
	const uint32_t *h = x->hist[d];
	int len = x->topo->dim[d], a, f = len / 2, g = (len - 1) / 2, m;
	uint64_t sum = 0, below = 0, below_pos = 0, *H = x->pre, *W;

	if (len == 1)
		return 0;
	if (!x->topo->wrap[d]) {
		for (a = 0; a < len; a++) {
			sum += (uint64_t) h[a] *
			       ((uint64_t) a * below - below_pos);
			below += h[a];
			below_pos += (uint64_t) a * h[a];
		}
		return sum;
	}
	/* prefix sums of h and t*h over three copies of the ring */
	W = H + 3 * len + 1;
	H[0] = W[0] = 0;
	for (a = 0; a < 3 * len; a++) {
		H[a + 1] = H[a] + h[a % len];
		W[a + 1] = W[a] + (uint64_t) a * h[a % len];
	}
	for (a = 0; a < len; a++) {
		if (!h[a])
			continue;
		m = a + len; /* forward (m, m+f], backward [m-g, m) */
		sum += h[a] *
		       ((W[m + f + 1] - W[m + 1]) -
			(uint64_t) m * (H[m + f + 1] - H[m + 1]) +
			(uint64_t) m * (H[m] - H[m - g]) - (W[m] - W[m - g]));
	}
	return sum / 2;
}

static uint64_t rl_hist_pairs(const struct ref_l1near *x)
{
	return rl_axis_pairs(x, 0) + rl_axis_pairs(x, 1) + rl_axis_pairs(x, 2);
}

static void rl_hist_clear(struct ref_l1near *x)
{
	int d;

	for (d = 0; d < MESH_MAX_DIMS; d++)
		memset(x->hist[d], 0,
		       (size_t) x->topo->dim[d] * sizeof(uint32_t));
}

/* Lower bound on the final score with j nodes taken (pair sum ps, sum of
 * distances to c dsum) and every later node at distance >= r from c:
 * each later node is >= j*r - dsum from the taken ones (triangle
 * inequality) and the later ones need lb[k - j] among themselves;
 * alternatively lb[k] - lb[j] for everything added from now on. */
static uint64_t rl_remaining_bound(const struct ref_l1near *x, uint32_t k,
				uint32_t j, uint64_t dsum, int r)
{
	uint64_t spread = (uint64_t) j * (uint64_t) r, rest;

	spread = spread > dsum ? spread - dsum : 0;
	rest = (uint64_t) (k - j) * spread + x->lb[k - j];
	return rest > x->lb[k] - x->lb[j] ? rest : x->lb[k] - x->lb[j];
}

/* HOW IT WORKS (the enumeration path, kept for tori): nodes are added a
 * whole L1 sphere at a time into per-axis coordinate histograms (O(1)
 * each); the pair sum of the set so far is read from the histograms in
 * O(L) after each sphere and, plus rl_remaining_bound(), compared against
 * the bound.  The first implementation inserted node by node into
 * Fenwick trees and checked after every node; it gave the same answers
 * about 2-20x slower.  On meshes rl_fast_score() below replaces it (see
 * doc/allocators.md, "Speed"). */
static uint64_t ref_l1near_score(struct ref_l1near *x,
			    const struct mesh_bitmap *free_map, const int c[3],
			    uint32_t k, uint64_t bound, uint32_t *out)
{
	int lo[3], hi[3], r, q[3];
	uint32_t m, i, n = 0;
	uint64_t dsum = 0, pairs = 0;

	rl_hist_clear(x);
	rl_offset_range(x->topo, c, lo, hi);
	for (r = 0; n < k && r <= x->rmax; r++) {
		m = rl_gather_shell(x, free_map, c, lo, hi, r);
		if (!m)
			continue;
		/* the first in offset order (on a mesh the lowest index; on
		 * tori since the seventh round of issue 10, when the lowest
		 * index, which depends on where numbering starts, gave way) */
		if (n + m > k)
			m = k - n;
		for (i = 0; i < m; i++) {
			mesh_topo_coords(x->topo, x->shell[i], q);
			x->hist[0][q[0]]++;
			x->hist[1][q[1]]++;
			x->hist[2][q[2]]++;
			x->taken[n++] = x->shell[i];
		}
		dsum += (uint64_t) r * m;
		pairs = rl_hist_pairs(x);
		if (pairs >= bound ||
		    (n < k &&
		     pairs + rl_remaining_bound(x, k, n, dsum, r + 1) >= bound))
			return UINT64_MAX;
	}
	if (out)
		memcpy(out, x->taken, k * sizeof(*out));
	return pairs;
}

/* ------------------------------------------------ fast path on meshes
 *
 * HOW IT WORKS: the set of centre c is every free node with d(c, .) < R
 * plus the lowest-index free nodes at distance exactly R, R the least
 * radius whose rl_ball holds >= k free nodes.  Its pair sum is read from
 * per-axis coordinate histograms, and the histogram of axis d for a
 * rl_ball of radius rho is, slice by slice (coordinate i on axis d), the
 * number of free nodes in the 2D rl_diamond of radius rho - |i - c[d]| in
 * the plane of the other two axes.  Per-slice prefix-sum tables, built
 * once per decision, answer each rl_diamond in O(1), so a centre costs
 * O(R) table reads for R and the histograms plus a walk over part of
 * the last shell (O(R^2) cells) instead of the O(R^3) cells of the
 * shell-enumeration path.  The walk takes the m lowest-index shell nodes
 * onto the rl_ball of radius R - 1, or, when fewer, drops the highest-index
 * ones from the rl_ball of radius R.  Wrapped axes would need the tables
 * unrolled, so tori keep the enumeration path. */

/* Table layout of axis d (see rl_tables_build()).  Rotated 2D prefix sums
 * cost (P+Q)^2 entries per slice of P*Q nodes, so long thin slices, 1D
 * ones and meshes whose tables would be huge use per-line sums. */
static size_t rl_slice_layout(struct ref_l1near *x, int d, int allow_rot)
{
	const struct mesh_topo *t = x->topo;
	int a = (d + 1) % 3, b = (d + 2) % 3, P, Q;

	x->tp[d] = t->dim[a] >= t->dim[b] ? a : b;
	x->tq[d] = a + b - x->tp[d];
	P = t->dim[x->tp[d]];
	Q = t->dim[x->tq[d]];
	x->rot[d] = allow_rot && Q > 1 &&
		    (uint64_t) (P + Q) * (uint64_t) (P + Q) <=
			5 * (uint64_t) P * (uint64_t) Q;
	x->side[d] = x->rot[d] ? P + Q : P + 1;
	x->stride[d] =
	    (size_t) x->side[d] * (size_t) (x->rot[d] ? x->side[d] : Q);
	return t->dim[d] > 1 ? x->stride[d] * (size_t) t->dim[d] : 0;
}

#define RL_MAX_ENTRIES ((size_t) 1 << 24)

/* Sets x->fast and allocates the tables; MESH_ENOMEM on failure. */
static int rl_tables_init(struct ref_l1near *x)
{
	const struct mesh_topo *t = x->topo;
	size_t total = 0, n[MESH_MAX_DIMS];
	int d, allow_rot = 1;

	x->fast = 0;
	x->axis0 = -1;
	for (d = 0; d < MESH_MAX_DIMS; d++) {
		if (t->dim[d] > 1 && t->wrap[d])
			return 0;
		if (t->dim[d] > 1 && x->axis0 < 0)
			x->axis0 = d;
	}
	if (x->axis0 < 0)
		return 0;
	for (;;) {
		for (total = 0, d = 0; d < MESH_MAX_DIMS; d++)
			total += n[d] = rl_slice_layout(x, d, allow_rot);
		if (total <= RL_MAX_ENTRIES || !allow_rot)
			break;
		allow_rot = 0;
	}
	for (d = 0; d < MESH_MAX_DIMS; d++) {
		if (!n[d])
			continue;
		x->tab[d] = malloc(n[d] * sizeof(*x->tab[d]));
		if (!x->tab[d])
			return MESH_ENOMEM;
	}
	for (d = MESH_MAX_DIMS - 1; d >= 0; d--)
		if (n[d] && x->rot[d])
			x->axis0 = d; /* O(1) diamonds: the lowest such axis */
	x->fast = 1;
	return 0;
}

/* Position of node q in its slice table of axis d, before prefix sums
 * (row and column 0 stay 0). */
static size_t rl_table_cell(const struct ref_l1near *x, int d, const int q[3])
{
	int p = q[x->tp[d]], r = q[x->tq[d]], Q = x->topo->dim[x->tq[d]];
	size_t base = (size_t) q[d] * x->stride[d];

	if (x->rot[d])
		return base + (size_t) (p + r + 1) * (size_t) x->side[d] +
		       (size_t) (p - r + Q);
	return base + (size_t) r * (size_t) x->side[d] + (size_t) p + 1;
}

/* In-place prefix sums of one slice table. */
static void rl_slice_prefix(uint32_t *T, int side, int rows, int rot)
{
	int u, v;

	for (u = 0; u < rows; u++)
		for (v = 1; v < side; v++)
			T[(size_t) u * side + v] +=
			    T[(size_t) u * side + v - 1];
	if (!rot)
		return;
	for (u = 1; u < rows; u++)
		for (v = 0; v < side; v++)
			T[(size_t) u * side + v] +=
			    T[(size_t) (u - 1) * side + v];
}

static void rl_tables_build(struct ref_l1near *x, const struct mesh_bitmap *f)
{
	const struct mesh_topo *t = x->topo;
	uint32_t i;
	int d, s, q[3];

	for (d = 0; d < MESH_MAX_DIMS; d++)
		if (x->tab[d])
			memset(x->tab[d], 0,
			       x->stride[d] * (size_t) t->dim[d] *
				   sizeof(*x->tab[d]));
	for (i = 0; i < t->nodes; i++) {
		if (!mesh_bitmap_test(f, i))
			continue;
		mesh_topo_coords(t, i, q);
		for (d = 0; d < MESH_MAX_DIMS; d++)
			if (x->tab[d])
				x->tab[d][rl_table_cell(x, d, q)]++;
	}
	for (d = 0; d < MESH_MAX_DIMS; d++)
		for (s = 0; x->tab[d] && s < t->dim[d]; s++)
			rl_slice_prefix(x->tab[d] + (size_t) s * x->stride[d],
				     x->side[d],
				     x->rot[d] ? x->side[d] : t->dim[x->tq[d]],
				     x->rot[d]);
}

/* Free nodes of slice i of axis d within in-plane L1 radius r >= 0 of c.
 * Rotated (u = p + q, v = p - q + Q - 1): the rl_diamond is the square
 * |u - cu|, |v - cv| <= r; cells of the other parity or off the mesh
 * hold no node, so the square's sum is exact. */
static uint32_t rl_diamond(const struct ref_l1near *x, int d, int i,
			const int c[3], int r)
{
	const uint32_t *T = x->tab[d] + (size_t) i * x->stride[d];
	int P = x->topo->dim[x->tp[d]], Q = x->topo->dim[x->tq[d]];
	int cp = c[x->tp[d]], cq = c[x->tq[d]], s = x->side[d], q, w;
	uint32_t n = 0;

	if (x->rot[d]) {
		int cu = cp + cq, cv = cp - cq + Q - 1, S = P + Q - 1;
		size_t u0 = (size_t) rl_imax(0, cu - r) * s;
		size_t u1 = (size_t) (rl_imin(S - 1, cu + r) + 1) * s;
		int v0 = rl_imax(0, cv - r), v1 = rl_imin(S - 1, cv + r) + 1;

		return T[u1 + v1] - T[u0 + v1] - T[u1 + v0] + T[u0 + v0];
	}
	for (q = rl_imax(0, cq - r); q <= rl_imin(Q - 1, cq + r); q++) {
		w = r - (q < cq ? cq - q : q - cq);
		n += T[(size_t) q * s + rl_imin(P - 1, cp + w) + 1] -
		     T[(size_t) q * s + rl_imax(0, cp - w)];
	}
	return n;
}

/* Free nodes within L1 radius rho of c (0 for rho < 0). */
static uint32_t rl_ball(const struct ref_l1near *x, const int c[3], int rho)
{
	int d = x->axis0, i, hi = rl_imin(x->topo->dim[d] - 1, c[d] + rho);
	uint32_t n = 0;

	for (i = rl_imax(0, c[d] - rho); i <= hi; i++)
		n +=
		    rl_diamond(x, d, i, c, rho - (i < c[d] ? c[d] - i : i - c[d]));
	return n;
}

/* The least R with rl_ball(R) >= k (k >= 1, k <= free nodes); *below is
 * rl_ball(R - 1), *at rl_ball(R).  Neighbouring centres have radii within 1
 * of each other, so starting from the last one takes few steps. */
static int rl_find_radius(struct ref_l1near *x, const int c[3], uint32_t k,
		       uint32_t *below, uint32_t *at)
{
	int r = rl_imin(rl_imax(x->rguess, 0), x->rmax);
	uint32_t n = rl_ball(x, c, r), b;

	while (n < k)
		n = rl_ball(x, c, ++r);
	b = rl_ball(x, c, r - 1);
	while (b >= k) {
		n = b;
		b = rl_ball(x, c, --r - 1);
	}
	x->rguess = r;
	*below = b;
	*at = n;
	return r;
}

/* hist[d][lo..hi] := the axis-d histogram of the rl_ball of radius rho. */
static void rl_hist_ball(struct ref_l1near *x, int d, const int c[3], int rho,
		      int lo, int hi)
{
	int i, w;

	for (i = lo; i <= hi; i++) {
		w = rho - (i < c[d] ? c[d] - i : i - c[d]);
		x->hist[d][i] = w < 0 ? 0 : rl_diamond(x, d, i, c, w);
	}
}

/* Node q (on a free node) joins (dir > 0) or leaves the histograms. */
static void rl_hist_move(struct ref_l1near *x, const int q[3], int dir)
{
	int d;

	for (d = 0; d < MESH_MAX_DIMS; d++)
		x->hist[d][q[d]] += dir > 0 ? 1u : UINT32_MAX;
}

/* Moves the first m free nodes of shell r in ascending (dir > 0) or the
 * last m in descending index order (z, then y, then x major) into or
 * out of the histograms. */
static void rl_shell_walk(struct ref_l1near *x, const struct mesh_bitmap *f,
		       const int c[3], int r, uint32_t m, int dir)
{
	const int *dim = x->topo->dim;
	int zlo = rl_imax(-r, -c[2]), zhi = rl_imin(r, dim[2] - 1 - c[2]);
	int dz, dy, ylo, yhi, rz, rx, j, q[3];
	uint32_t row;

	for (dz = dir > 0 ? zlo : zhi; m && dz >= zlo && dz <= zhi; dz += dir) {
		rz = r - (dz < 0 ? -dz : dz);
		ylo = rl_imax(-rz, -c[1]);
		yhi = rl_imin(rz, dim[1] - 1 - c[1]);
		q[2] = c[2] + dz;
		for (dy = dir > 0 ? ylo : yhi; m && dy >= ylo && dy <= yhi;
		     dy += dir) {
			rx = rz - (dy < 0 ? -dy : dy);
			q[1] = c[1] + dy;
			row = (uint32_t) (q[1] + q[2] * dim[1]) *
			      (uint32_t) dim[0];
			for (j = 0; j < (rx ? 2 : 1) && m; j++) {
				q[0] =
				    c[0] + ((j == 0) == (dir > 0) ? -rx : rx);
				if (q[0] < 0 || q[0] >= dim[0] ||
				    !mesh_bitmap_test(f, row + (uint32_t) q[0]))
					continue;
				rl_hist_move(x, q, dir);
				m--;
			}
		}
	}
}

/* Pair sum of the axis histogram h on [lo, hi] (zero elsewhere). */
static uint64_t rl_window_pairs(const uint32_t *h, int lo, int hi)
{
	uint64_t sum = 0, below = 0, below_pos = 0;
	int a;

	for (a = lo; a <= hi; a++) {
		sum += h[a] * ((uint64_t) a * below - below_pos);
		below += h[a];
		below_pos += (uint64_t) a * h[a];
	}
	return sum;
}

/* The set itself, in the enumeration path's order: shells 0..r-1 whole,
 * then the first m nodes of shell r (ascending index on a mesh). */
static void rl_write_set(struct ref_l1near *x, const struct mesh_bitmap *f,
		      const int c[3], int r, uint32_t m, uint32_t *out)
{
	int lo[3], hi[3], s;
	uint32_t n = 0, got;

	rl_offset_range(x->topo, c, lo, hi);
	for (s = 0; s <= r; s++) {
		got = rl_gather_shell(x, f, c, lo, hi, s);
		if (s == r)
			got = m;
		memcpy(out + n, x->shell, got * sizeof(*out));
		n += got;
	}
}

/* ref_l1near_score() on a mesh whose tables are built for f. */
static uint64_t rl_fast_score(struct ref_l1near *x, const struct mesh_bitmap *f,
			   const int c[3], uint32_t k, uint64_t bound,
			   uint32_t *out)
{
	uint32_t below, at, m, extra;
	uint64_t pairs = 0;
	int r, d, low;

	if (!k)
		return 0;
	r = rl_find_radius(x, c, k, &below, &at);
	m = k - below;
	extra = at - k;   /* shell r nodes left out */
	low = m <= extra; /* cheaper to add m than to drop extra */
	for (d = 0; d < MESH_MAX_DIMS; d++)
		if (x->tab[d])
			rl_hist_ball(x, d, c, low ? r - 1 : r, rl_imax(0, c[d] - r),
				  rl_imin(x->topo->dim[d] - 1, c[d] + r));
	if (extra)
		rl_shell_walk(x, f, c, r, low ? m : extra, low ? 1 : -1);
	for (d = 0; d < MESH_MAX_DIMS; d++)
		if (x->tab[d])
			pairs +=
			    rl_window_pairs(x->hist[d], rl_imax(0, c[d] - r),
					 rl_imin(x->topo->dim[d] - 1, c[d] + r));
	if (pairs >= bound)
		return UINT64_MAX;
	if (out)
		rl_write_set(x, f, c, r, m, out);
	return pairs;
}

static uint64_t rl_centre_score(struct ref_l1near *x,
			     const struct mesh_bitmap *f, const int c[3],
			     uint32_t k, uint64_t bound, uint32_t *out)
{
	if (x->fast)
		return rl_fast_score(x, f, c, k, bound, out);
	return ref_l1near_score(x, f, c, k, bound, out);
}

static uint64_t ref_l1near_best(struct ref_l1near *x,
			   const struct mesh_bitmap *free_map, uint32_t k,
			   ref_centre_pred pred, const void *ctx,
			   uint32_t *out)
{
	uint64_t best = UINT64_MAX, s;
	uint32_t i;
	int c[3];

	if (x->fast)
		rl_tables_build(x, free_map);
	for (i = 0; i < x->topo->nodes; i++) {
		if (!pred(ctx, i))
			continue;
		mesh_topo_coords(x->topo, i, c);
		s = rl_centre_score(x, free_map, c, k, best, out);
		if (s < best)
			best = s;
	}
	return best;
}

static int ref_l1near_ties(struct ref_l1near *x,
		      const struct mesh_bitmap *free_map, uint32_t k,
		      ref_centre_pred pred, const void *ctx, uint64_t best,
		      uint32_t *buf, int (*cb)(void *, const uint32_t *),
		      void *cb_ctx)
{
	uint32_t i;
	int c[3];

	if (x->fast)
		rl_tables_build(x, free_map);
	for (i = 0; i < x->topo->nodes; i++) {
		if (!pred(ctx, i))
			continue;
		mesh_topo_coords(x->topo, i, c);
		if (rl_centre_score(x, free_map, c, k, best + 1, buf) == best &&
		    cb(cb_ctx, buf))
			break;
	}
	return 0;
}

static int ref_is_free(const void *ctx, uint32_t node)
{
	const struct ref_l1near *x = ctx;

	return mesh_bitmap_test(x->cur, node);
}

static int ref_is_median(const void *ctx, uint32_t node)
{
	const struct ref_l1near *x = ctx;
	int c[3];

	mesh_topo_coords(x->topo, node, c);
	return x->has[0][c[0]] && x->has[1][c[1]] && x->has[2][c[2]];
}

struct ref_l1near *ref_l1_create(const struct mesh_topo *t, int mm)
{
	struct ref_l1near *x = calloc(1, sizeof(*x));
	int d, bad = 0;

	if (!x || ref_l1near_init(x, t)) {
		free(x);
		return NULL;
	}
	x->mm = mm;
	for (d = 0; d < MESH_MAX_DIMS; d++)
		bad |= !(x->has[d] = calloc((size_t) t->dim[d], 1));
	if (bad) {
		ref_l1_destroy(x);
		return NULL;
	}
	return x;
}

void ref_l1_destroy(struct ref_l1near *x)
{
	int d;

	if (!x)
		return;
	for (d = 0; d < MESH_MAX_DIMS; d++)
		free(x->has[d]);
	ref_l1near_free(x);
	free(x);
}

static ref_centre_pred ref_l1_prepare(struct ref_l1near *x,
				      const struct mesh_bitmap *f)
{
	uint32_t i;
	int d, c[3];

	x->cur = f;
	if (!x->mm)
		return ref_is_free;
	for (d = 0; d < MESH_MAX_DIMS; d++)
		memset(x->has[d], 0, (size_t) x->topo->dim[d]);
	for (i = 0; i < x->topo->nodes; i++) {
		if (!mesh_bitmap_test(f, i))
			continue;
		mesh_topo_coords(x->topo, i, c);
		for (d = 0; d < MESH_MAX_DIMS; d++)
			x->has[d][c[d]] = 1;
	}
	return ref_is_median;
}

uint64_t ref_l1_place(struct ref_l1near *x, const struct mesh_bitmap *f,
		      uint32_t k, uint32_t *out)
{
	ref_centre_pred pred = ref_l1_prepare(x, f);

	return ref_l1near_best(x, f, k, pred, x, out);
}

int ref_l1_ties(struct ref_l1near *x, const struct mesh_bitmap *f, uint32_t k,
		uint64_t best, uint32_t *buf,
		int (*cb)(void *, const uint32_t *), void *cb_ctx)
{
	ref_centre_pred pred = ref_l1_prepare(x, f);

	return ref_l1near_ties(x, f, k, pred, x, best, buf, cb, cb_ctx);
}

/* Free positions of the box lo .. lo + e - 1 (0 for positions off the
 * mesh). */
static uint64_t ref_box_free(const struct mesh_topo *t,
			     const struct mesh_bitmap *f, const int lo[3],
			     const int e[3])
{
	int c[3], d, on;
	uint64_t n = 0;

	for (c[2] = lo[2]; c[2] < lo[2] + e[2]; c[2]++)
		for (c[1] = lo[1]; c[1] < lo[1] + e[1]; c[1]++)
			for (c[0] = lo[0]; c[0] < lo[0] + e[0]; c[0]++) {
				int q[3];

				for (d = 0, on = 1; d < 3; d++) {
					q[d] = t->wrap[d] ? (c[d] % t->dim[d] +
							     t->dim[d]) %
								    t->dim[d]
							  : c[d];
					on &= q[d] >= 0 && q[d] < t->dim[d];
				}
				n += on && mesh_bitmap_test(
					       f, mesh_topo_index(t, q));
			}
	return n;
}

static uint64_t ref_contact(const struct mesh_topo *t,
			    const struct mesh_bitmap *f, const int b[3],
			    const int e[3])
{
	int d, side, lo[3], ext[3];
	uint64_t n = 0;

	for (d = 0; d < 3; d++) {
		if (t->dim[d] == 1 || (t->wrap[d] && e[d] >= t->dim[d]))
			continue; /* no face on this axis */
		for (side = 0; side < 2; side++) {
			memcpy(lo, b, sizeof(lo));
			memcpy(ext, e, sizeof(ext));
			lo[d] = side ? b[d] + e[d] : b[d] - 1;
			ext[d] = 1;
			n += (uint64_t) ext[0] * ext[1] * ext[2] -
			     ref_box_free(t, f, lo, ext);
		}
	}
	return n;
}

static int ref_shape_before(const int a[3], const int b[3])
{
	int d;

	if (a[0] + a[1] + a[2] != b[0] + b[1] + b[2])
		return a[0] + a[1] + a[2] < b[0] + b[1] + b[2];
	for (d = 2; d >= 0; d--)
		if (a[d] != b[d])
			return a[d] < b[d];
	return 0;
}

int ref_contig_place(const struct mesh_topo *t, const struct mesh_bitmap *f,
		     uint32_t k, int best_fit, uint32_t *out)
{
	int shapes[512][3], n = 0, i, j, e[3], b[3], best_b[3] = { 0 }, best_s = -1;
	int tmp[3], c[3], q[3], top[3], d;
	uint64_t vol = k, best_contact = 0, ct;
	uint32_t a, bb, m = 0;

	for (a = 1; a <= k; a++)
		for (bb = 1; bb <= k; bb++)
			if (k % (a * bb) == 0 && a <= (uint32_t) t->dim[0] &&
			    bb <= (uint32_t) t->dim[1] &&
			    k / (a * bb) <= (uint32_t) t->dim[2] && n < 512) {
				shapes[n][0] = (int) a;
				shapes[n][1] = (int) bb;
				shapes[n++][2] = (int) (k / (a * bb));
			}
	for (i = 1; i < n; i++) /* insertion sort by preference */
		for (j = i; j > 0 && ref_shape_before(shapes[j], shapes[j - 1]);
		     j--) {
			memcpy(tmp, shapes[j], sizeof(tmp));
			memcpy(shapes[j], shapes[j - 1], sizeof(tmp));
			memcpy(shapes[j - 1], tmp, sizeof(tmp));
		}
	for (i = 0; i < n && !(best_s >= 0 && !best_fit); i++) {
		memcpy(e, shapes[i], sizeof(e));
		/* a box that wraps may start anywhere on a longer ring */
		for (d = 0; d < 3; d++)
			top[d] = t->wrap[d] && e[d] < t->dim[d]
					 ? t->dim[d] - 1
					 : t->dim[d] - e[d];
		for (b[2] = 0; b[2] <= top[2]; b[2]++)
			for (b[1] = 0; b[1] <= top[1]; b[1]++)
				for (b[0] = 0; b[0] <= top[0]; b[0]++) {
					if (ref_box_free(t, f, b, e) != vol)
						continue;
					ct = best_fit ? ref_contact(t, f, b, e)
						      : 0;
					if (best_s >= 0 &&
					    (!best_fit || ct <= best_contact))
						continue;
					best_s = i;
					best_contact = ct;
					memcpy(best_b, b, sizeof(best_b));
				}
	}
	if (best_s < 0)
		return -1;
	memcpy(e, shapes[best_s], sizeof(e));
	for (c[2] = best_b[2]; c[2] < best_b[2] + e[2]; c[2]++)
		for (c[1] = best_b[1]; c[1] < best_b[1] + e[1]; c[1]++)
			for (c[0] = best_b[0]; c[0] < best_b[0] + e[0];
			     c[0]++) {
				for (d = 0; d < 3; d++)
					q[d] = c[d] % t->dim[d];
				out[m++] = mesh_topo_index(t, q);
			}
	return 0;
}

void ref_mm_inc_improve(const struct mesh_topo *t, const struct mesh_bitmap *f,
			uint32_t *out, uint32_t k)
{
	uint8_t *in = calloc(t->nodes, 1);
	uint64_t *D = malloc(t->nodes * sizeof(*D)), up, gain, best;
	uint32_t i, b, p, ai, bb, swaps;

	for (i = 0; i < k; i++)
		in[out[i]] = 1;
	for (swaps = 0; swaps < k; swaps++) {
		for (p = 0; p < t->nodes; p++)
			for (i = 0, D[p] = 0; i < k; i++)
				D[p] += mesh_topo_distance(t, p, out[i]);
		best = 0;
		ai = bb = 0;
		for (i = 0; i < k; i++)
			for (b = 0; b < t->nodes; b++) {
				if (!mesh_bitmap_test(f, b) || in[b])
					continue;
				up = D[out[i]] + mesh_topo_distance(t, out[i], b);
				if (up <= D[b])
					continue;
				gain = up - D[b];
				if (gain > best ||
				    (gain == best &&
				     (out[i] < out[ai] ||
				      (out[i] == out[ai] && b < bb)))) {
					best = gain;
					ai = i;
					bb = b;
				}
			}
		if (!best)
			break;
		in[out[ai]] = 0;
		in[bb] = 1;
		out[ai] = bb;
	}
	free(D);
	free(in);
}

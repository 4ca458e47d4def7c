/* l1_tables.c - per-slice prefix sums of L1 diamonds, and the caches
 * that read them, for the table path of the L1 nearest set (l1near.h).
 *
 * HOW IT WORKS: the set of centre c is every free node with d(c, .) < R
 * plus the lowest-index free nodes at distance exactly R, R the least
 * radius whose ball holds >= k free nodes.  Its pair sum is read from
 * per-axis coordinate histograms, and the histogram of axis d for a
 * ball of radius rho is, slice by slice (coordinate i on axis d), the
 * number of free nodes in the 2D diamond of radius rho - |i - c[d]| in
 * the plane of the other two axes.  Per-slice prefix-sum tables, built
 * once per decision, answer each diamond in O(1): in rotated
 * coordinates (u = p + q, v = p - q) a diamond is a square, four reads
 * of a 2D prefix sum; slices too long and thin for that take per-line
 * sums, O(side) reads.  So a centre costs O(R) table reads for R and
 * the histograms instead of the O(R^3) cells of the shell enumeration;
 * l1_walk.c then walks part of the last shell.
 * Neighbouring centres share most of their reads: the centres of an
 * x-row read the same axis-0 diamonds, only at other radii, so the row
 * cache keeps them for the row (find_radius_row()); the centres on a line
 * along axis 1 or 2 read the same diamonds of that axis, which the line
 * caches keep for the whole decision (mesh__l1_line_hist()).  The row
 * cache's tables are interleaved, so that one entry of every slice is
 * one contiguous run and a cache row fills in one pass.
 */
#include "l1_parts.h"

#include <stdlib.h>
#include <string.h>

#include "boxsum.h"
#include "error.h"

/* Table layout of axis d (see mesh__l1_tables_build()).  Rotated 2D
 * prefix sums cost (P+Q)^2 entries per slice of P*Q nodes, so long thin
 * slices, 1D ones and meshes whose tables would be huge use per-line
 * sums. */
static size_t slice_layout(struct mesh__l1near *x, int d, int allow_rot)
{
	const struct mesh_topo *t = x->topo;
	int a = (d + 1) % 3, b = (d + 2) % 3, P, Q;

	x->tp[d] = t->dim[a] >= t->dim[b] ? a : b;
	x->tq[d] = a + b - x->tp[d];
	P = t->dim[x->tp[d]];
	Q = t->dim[x->tq[d]];
	x->rot[d] = allow_rot && Q > 1 &&
		    (uint64_t) (P + Q) * (uint64_t) (P + Q) <=
			(uint64_t) x->rot_ratio * (uint64_t) P * (uint64_t) Q;
	x->side[d] = x->rot[d] ? P + Q : P + 1;
	x->stride[d] =
	    (size_t) x->side[d] * (size_t) (x->rot[d] ? x->side[d] : Q);
	x->sstep[d] = x->stride[d];
	x->estep[d] = 1;
	return t->dim[d] > 1 ? x->stride[d] * (size_t) t->dim[d] : 0;
}

#define L1FAST_MAX_ENTRIES ((size_t) 1 << 24)

/* Line caches for the rotated axes other than 0 (see l1near.h), with
 * their tables interleaved like axis 0's; none on axes whose caches
 * would pass x->line_entries. */
static int line_caches_init(struct mesh__l1near *x)
{
	const struct mesh_topo *t = x->topo;
	size_t lines, n;
	int d;

	x->lcap = imin(imin(x->rmax, L1LINE_MAX_RADIUS), x->rlimit);
	for (d = 1; d < MESH_MAX_DIMS; d++) {
		if (!x->tab[d] || !x->rot[d])
			continue;
		lines = (size_t) t->dim[x->tp[d]] * (size_t) t->dim[x->tq[d]];
		n = lines * (size_t) (x->lcap + 2) * (size_t) t->dim[d];
		if (n > x->line_entries)
			continue;
		x->lcache[d] = calloc(n, sizeof(*x->lcache[d]));
		x->lfill[d] = calloc(lines, sizeof(*x->lfill[d]));
		if (!x->lcache[d] || !x->lfill[d])
			return MESH_ENOMEM;
		x->sstep[d] = 1;
		x->estep[d] = (size_t) t->dim[d];
	}
	return 0;
}

int mesh__l1_tables_init(struct mesh__l1near *x)
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
			total += n[d] = slice_layout(x, d, allow_rot);
		if (total <= L1FAST_MAX_ENTRIES || !allow_rot)
			break;
		allow_rot = 0;
	}
	for (d = 0; d < MESH_MAX_DIMS; d++)
		if (n[d] &&
		    (uint64_t) t->dim[x->tp[d]] * (uint64_t) t->dim[x->tq[d]] >
			UINT16_MAX)
			return 0; /* 16-bit counts would wrap */
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
	if (x->axis0 == 0 && x->rot[0]) {
		x->sstep[0] = 1;
		x->estep[0] = (size_t) t->dim[0];
		x->rcache = calloc((size_t) t->dim[0] * (size_t) (x->rmax + 2),
				   sizeof(*x->rcache));
		if (!x->rcache || line_caches_init(x))
			return MESH_ENOMEM;
	}
	x->fast = 1;
	return 0;
}

/* Position of node q in its slice table of axis d, before prefix sums
 * (row and column 0 stay 0). */
static size_t table_cell(const struct mesh__l1near *x, int d, const int q[3])
{
	int p = q[x->tp[d]], r = q[x->tq[d]], Q = x->topo->dim[x->tq[d]];
	size_t base = (size_t) q[d] * x->sstep[d], e;

	if (x->rot[d])
		e = (size_t) (p + r + 1) * (size_t) x->side[d] +
		    (size_t) (p - r + Q);
	else
		e = (size_t) r * (size_t) x->side[d] + (size_t) p + 1;
	return base + e * x->estep[d];
}

/* In-place prefix sums of the slice tables at T, lanes of them
 * interleaved (entry e of lane l at e * lanes + l). */
static void slice_prefix(uint16_t *T, int side, int rows, int rot, size_t lanes)
{
	size_t row = (size_t) side * lanes, l;
	const uint16_t *prev; /* the entry before, for every lane */
	uint16_t *a, sum;
	int u, v;

	for (u = 0; u < rows && lanes == 1; u++) /* one running sum */
		for (v = 1, a = T + (size_t) u * row, sum = a[0]; v < side; v++)
			a[v] = sum = (uint16_t) (sum + a[v]);
	for (u = 0; u < rows && lanes > 1; u++)
		for (v = 1; v < side; v++) {
			a = T + (size_t) u * row + (size_t) v * lanes;
			prev = a - lanes;
			for (l = 0; l < lanes; l++)
				a[l] += prev[l];
		}
	if (!rot)
		return;
	for (u = 1; u < rows; u++) {
		a = T + (size_t) u * row;
		prev = a - row;
		for (l = 0; l < row; l++)
			a[l] += prev[l];
	}
}

/* Counts the free nodes of f into the tables, an x-row at a time:
 * along a row each table's cell moves by a fixed step, so a free node
 * costs an increment per table, found from the row's bits (no test per
 * node, which on a random map would mispredict half the time).  Axis d
 * is counted copies[d] times (0: skipped; 2: also into slice i + L). */
static void tables_count(struct mesh__l1near *x, const struct mesh_bitmap *f,
			 const int copies[MESH_MAX_DIMS])
{
	const struct mesh_topo *t = x->topo;
	const int X = t->dim[0];
	uint16_t *tab[2 * MESH_MAX_DIMS];
	size_t base[2 * MESH_MAX_DIMS], step[2 * MESH_MAX_DIMS];
	uint32_t p = 0;
	uint64_t v;
	int d, n = 0, q[3] = { 0, 0, 0 }, x0, len, b, i, j;

	for (d = 0; d < MESH_MAX_DIMS; d++)
		for (j = 0; x->tab[d] && j < copies[d]; j++)
			tab[n++] = x->tab[d];
	for (q[2] = 0; q[2] < t->dim[2]; q[2]++)
		for (q[1] = 0; q[1] < t->dim[1]; q[1]++, p += (uint32_t) X) {
			for (d = 0, i = 0; d < MESH_MAX_DIMS; d++) {
				if (!x->tab[d] || !copies[d])
					continue;
				q[0] = 0;
				base[i] = table_cell(x, d, q);
				q[0] = X > 1;
				step[i] = table_cell(x, d, q) - base[i];
				if (copies[d] == 2) { /* slice i + L */
					base[i + 1] =
					    base[i] +
					    (size_t) t->dim[d] * x->sstep[d];
					step[i + 1] = step[i];
					i++;
				}
				i++;
			}
			for (x0 = 0; x0 < X; x0 += 64) {
				len = imin(64, X - x0);
				v = mesh__bits_at(f->words, p + (uint32_t) x0,
						  (uint32_t) len);
				for (; v; v &= v - 1) {
					b = x0 + __builtin_ctzll(v);
					for (i = 0; i < n; i++)
						tab[i][base[i] +
						       (size_t) b * step[i]]++;
				}
			}
		}
}

/* The window's tables of its own axis (see share_tab): points
 * tab[share_axis] at the slices of the window at share_now, and returns
 * whether they are still to be built (first window of the decision). */
static int share_point(struct mesh__l1near *x)
{
	int d = x->share_axis, L = x->topo->dim[d], build = x->share_at < 0,
	    off;

	if (build)
		x->share_at = x->share_now;
	off = ((x->share_now - x->share_at) % L + L) % L;
	x->tab[d] = x->share_tab + (size_t) off * x->sstep[d];
	return build;
}

void mesh__l1_tables_build(struct mesh__l1near *x, const struct mesh_bitmap *f)
{
	const struct mesh_topo *t = x->topo;
	int copies[MESH_MAX_DIMS] = { 1, 1, 1 };
	int d, s;

	x->rkey = -1; /* the row cache holds diamonds of the old map */
	if (x->share_tab)
		copies[x->share_axis] = share_point(x) ? 2 : 0;
	for (d = 0; d < MESH_MAX_DIMS; d++)
		if (x->lfill[d])
			memset(x->lfill[d], 0,
			       (size_t) t->dim[x->tp[d]] *
				   (size_t) t->dim[x->tq[d]]);
	for (d = 0; d < MESH_MAX_DIMS; d++)
		if (x->tab[d] && copies[d])
			memset(x->tab[d], 0,
			       (size_t) copies[d] * x->stride[d] *
				   (size_t) t->dim[d] * sizeof(*x->tab[d]));
	tables_count(x, f, copies);
	for (d = 0; d < MESH_MAX_DIMS; d++) {
		if (!x->tab[d] || !copies[d])
			continue;
		if (x->sstep[d] == 1) { /* interleaved: every copy's lanes */
			slice_prefix(x->tab[d], x->side[d],
				     x->rot[d] ? x->side[d] : t->dim[x->tq[d]],
				     x->rot[d], x->estep[d]);
			continue;
		}
		for (s = 0; s < copies[d] * t->dim[d]; s++)
			slice_prefix(x->tab[d] + (size_t) s * x->sstep[d],
				     x->side[d],
				     x->rot[d] ? x->side[d] : t->dim[x->tq[d]],
				     x->rot[d], 1);
	}
}

/* Free nodes of slice i of axis d within in-plane L1 radius r >= 0 of c.
 * Rotated (u = p + q, v = p - q + Q - 1): the diamond is the square
 * |u - cu|, |v - cv| <= r; cells of the other parity or off the mesh
 * hold no node, so the square's sum is exact. */
static uint32_t diamond(const struct mesh__l1near *x, int d, int i,
			const int c[3], int r)
{
	const uint16_t *T = x->tab[d] + (size_t) i * x->sstep[d];
	int P = x->topo->dim[x->tp[d]], Q = x->topo->dim[x->tq[d]];
	int cp = c[x->tp[d]], cq = c[x->tq[d]], q, w;
	size_t s = (size_t) x->side[d], es = x->estep[d];
	uint32_t n = 0;

	if (x->rot[d]) {
		int cu = cp + cq, cv = cp - cq + Q - 1, S = P + Q - 1;
		size_t u0 = (size_t) imax(0, cu - r) * s;
		size_t u1 = (size_t) (imin(S - 1, cu + r) + 1) * s;
		size_t v0 = (size_t) imax(0, cv - r),
		       v1 = (size_t) imin(S - 1, cv + r) + 1;

		return (uint16_t) (T[(u1 + v1) * es] - T[(u0 + v1) * es] -
				   T[(u1 + v0) * es] + T[(u0 + v0) * es]);
	}
	for (q = imax(0, cq - r); q <= imin(Q - 1, cq + r); q++) {
		w = r - (q < cq ? cq - q : q - cq);
		n += (uint16_t) (T[((size_t) q * s +
				    (size_t) imin(P - 1, cp + w) + 1) *
				   es] -
				 T[((size_t) q * s + (size_t) imax(0, cp - w)) *
				   es]);
	}
	return n;
}

uint32_t mesh__l1_slice_hist(const struct mesh__l1near *x, int d,
			     const int c[3], int rho, int win, uint32_t *h)
{
	int lo = imax(0, c[d] - win),
	    hi = imin(x->topo->dim[d] - 1, c[d] + win), i, w;
	uint32_t n = 0;

	for (i = lo; i <= hi; i++) {
		w = rho - (i < c[d] ? c[d] - i : i - c[d]);
		n += h[i] = w < 0 ? 0 : diamond(x, d, i, c, w);
	}
	return n;
}

static int find_radius_row(struct mesh__l1near *x, const int c[3], uint32_t k,
			   uint32_t *below, uint32_t *at);

/* The ball counts come from the axis0 slices.  Neighbouring centres have
 * radii within 1 of each other, so starting from the last one takes few
 * steps. */
int mesh__l1_find_radius(struct mesh__l1near *x, const int c[3], uint32_t k,
			 uint32_t *below, uint32_t *at)
{
	int d = x->axis0, r = imin(imax(x->rguess, 0), x->rmax), i, lo, hi;
	uint32_t *hr = x->hbuf[0], *hb = x->hbuf[1], *tmp, n, b = 0;

	if (x->rcache)
		return find_radius_row(x, c, k, below, at);

	n = mesh__l1_slice_hist(x, d, c, r, r + 1, hr);
	while (n < k) {
		tmp = hb, hb = hr, hr = tmp; /* hb: radius r, window r + 1 */
		b = n;
		r++;
		n = mesh__l1_slice_hist(x, d, c, r, r + 1, hr);
	}
	if (r == imin(imax(x->rguess, 0), x->rmax))
		b = mesh__l1_slice_hist(x, d, c, r - 1, r, hb);
	while (b >= k) {
		tmp = hb, hb = hr, hr = tmp;
		n = b;
		r--;
		b = mesh__l1_slice_hist(x, d, c, r - 1, r, hb);
	}
	x->rguess = r;
	*below = b;
	*at = n;
	tmp = k - b <= n - k ? hb : hr;
	lo = imax(0, c[d] - r);
	hi = imin(x->topo->dim[d] - 1, c[d] + r);
	for (i = lo; i <= hi; i++)
		x->hist[d][i] = tmp[i];
	return r;
}

/* Diamonds of radii w0..w1 around c in every slice of the interleaved
 * axis d: out[w * dim[d] + i] for slice i.  The four corners depend on w
 * only, and entry e of every slice is one run T[e * estep[d] ..]
 * (estep[d] is dim[d], or twice it on the window's shared axis). */
static void diamond_runs(const struct mesh__l1near *x, int d, const int c[3],
			 int w0, int w1, uint16_t *out)
{
	int Q = x->topo->dim[x->tq[d]], S = x->topo->dim[x->tp[d]] + Q - 1;
	int cu = c[x->tp[d]] + c[x->tq[d]],
	    cv = c[x->tp[d]] - c[x->tq[d]] + Q - 1;
	size_t n = (size_t) x->topo->dim[d], sd = (size_t) x->side[d],
	       es = x->estep[d], a, b, e, g, i;
	const uint16_t *T = x->tab[d], *t0, *t1, *t2, *t3;
	uint16_t *o;
	int w;

	for (w = w0; w <= w1; w++) {
		a = (size_t) imax(0, cu - w) * sd;
		b = (size_t) (imin(S - 1, cu + w) + 1) * sd;
		e = (size_t) imax(0, cv - w);
		g = (size_t) (imin(S - 1, cv + w) + 1);
		t0 = T + (b + g) * es;
		t1 = T + (a + g) * es;
		t2 = T + (b + e) * es;
		t3 = T + (a + e) * es;
		o = out + (size_t) w * n;
		for (i = 0; i < n; i++)
			o[i] = (uint16_t) (t0[i] - t1[i] - t2[i] + t3[i]);
	}
}

/* Row cache (axis0 == 0 with rotated tables; centres are visited x
 * fastest): every centre of an x-row (c[1], c[2]) reads the same axis-0
 * diamonds, slice i's of radius w around (c[1], c[2]), only with other
 * radii.  rcache[w * X + i] keeps them for the row; radii below rfill
 * are filled, for all slices at once (the four table offsets depend on
 * w only). */
/* The row cache's row 0 (row -1 is before it). */
static inline uint16_t *row_cache(const struct mesh__l1near *x)
{
	return x->rcache + x->topo->dim[0];
}

static void row_fill(struct mesh__l1near *x, const int c[3], int r)
{
	diamond_runs(x, 0, c, x->rfill, r, row_cache(x));
	x->rfill = r + 1;
}

/* h[i] := D[(rho + 1 - |i - c|) * n + i] for i in [lo, hi]: the slices
 * of the ball of radius rho around coordinate c from a cache D of
 * diamonds (radius-major rows of n slices, from radius -1, whose row is
 * 0).  [lo, hi] is the window of radius rho or rho + 1 around c, clipped
 * to the axis, so a slice outside the ball reads row -1: the loops'
 * lengths do not depend on rho, which changes from centre to centre at
 * random (the exits of loops as long as the ball mispredicted).  The
 * two halves walk D's diagonals, so no slice needs an absolute value. */
static void v_read(const uint16_t *D, size_t n, int c, int rho, int lo, int hi,
		   uint32_t *h)
{
	size_t o; /* unsigned: the step after the last read may wrap */
	int i;

	o = (size_t) (rho + 1 - c + lo) * n + (size_t) lo;
	for (i = lo; i < c; i++, o += n + 1)
		h[i] = D[o];
	o = (size_t) (rho + 1) * n + (size_t) c;
	for (i = c; i <= hi; i++, o -= n - 1)
		h[i] = D[o];
}

/* Free nodes of the ball of radius r around c, from the row cache. */
static uint32_t row_ball(struct mesh__l1near *x, const int c[3], int r)
{
	int X = x->topo->dim[0], i, lo = imax(0, c[0] - r),
	    hi = imin(X - 1, c[0] + r);
	const uint16_t *rc;
	uint32_t n = 0;

	if (r < 0)
		return 0;
	if (r >= x->rfill)
		row_fill(x, c, r);
	rc = row_cache(x);
	/* slice i < c[0] has radius r - c[0] + i, slice i >= c[0]
	 * r + c[0] - i */
	for (i = lo; i < c[0]; i++)
		n += rc[(size_t) (r - c[0] + i) * (size_t) X + (size_t) i];
	for (i = c[0]; i <= hi; i++)
		n += rc[(size_t) (r + c[0] - i) * (size_t) X + (size_t) i];
	return n;
}

/* mesh__l1_find_radius() from the row cache: the same radius, counts
 * and hist[0]. */
static int find_radius_row(struct mesh__l1near *x, const int c[3], uint32_t k,
			   uint32_t *below, uint32_t *at)
{
	int r = imin(imax(x->rguess, 0), x->rmax), lo, hi, rr;
	long key = (long) c[1] + (long) c[2] * x->topo->dim[1];
	uint32_t n, b;

	if (key != x->rkey) {
		x->rfill = 0;
		x->rkey = key;
	}
	n = row_ball(x, c, r);
	b = row_ball(x, c, r - 1);
	while (n < k) {
		b = n;
		n = row_ball(x, c, ++r);
	}
	while (b >= k) {
		n = b;
		r--;
		b = row_ball(x, c, r - 1);
	}
	x->rguess = r;
	*below = b;
	*at = n;
	rr = k - b <= n - k ? r - 1 : r;
	lo = imax(0, c[0] - r);
	hi = imin(x->topo->dim[0] - 1, c[0] + r);
	v_read(x->rcache, (size_t) x->topo->dim[0], c[0], rr, lo, hi,
	       x->hist[0]);
	return r;
}

/* The line cache of axis d through c, filled up to radius rho. */
static const uint16_t *line_cache(struct mesh__l1near *x, int d, const int c[3],
				  int rho)
{
	const int *dim = x->topo->dim;
	size_t line = (size_t) c[x->tp[d]] +
		      (size_t) c[x->tq[d]] * (size_t) dim[x->tp[d]];
	uint16_t *L = x->lcache[d] +
		      (line * (size_t) (x->lcap + 2) + 1) * (size_t) dim[d];

	if (rho >= x->lfill[d][line]) {
		diamond_runs(x, d, c, x->lfill[d][line], rho, L);
		x->lfill[d][line] = (uint8_t) (rho + 1);
	}
	return L;
}

void mesh__l1_line_hist(struct mesh__l1near *x, int d, const int c[3], int rho,
			int win, uint32_t *h)
{
	const int *dim = x->topo->dim;
	int lo = imax(0, c[d] - win), hi = imin(dim[d] - 1, c[d] + win);

	v_read(line_cache(x, d, c, rho) - dim[d], (size_t) dim[d], c[d], rho,
	       lo, hi, h);
}

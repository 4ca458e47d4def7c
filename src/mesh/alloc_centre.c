/* alloc_centre.c - incremental pair sums and L1 nearest sets for the
 * centre-based allocators (see alloc_centre.h).
 *
 * HOW IT WORKS: the distance from a point to a set splits into per-axis
 * sums; on a mesh axis it is a*C(<a) - S(<a) + S(>a) - a*C(>a), on a ring
 * the same over the two half-rings, all read from Fenwick trees.
 * On meshes, per-slice diamond-count tables give each centre's radius
 * and the coordinate histograms of its set in O(R) reads, and only part
 * of the last L1 sphere is walked (see "fast path on meshes" below).
 * On tori the k nearest free nodes are found by enumerating L1 spheres
 * of growing radius around the centre; only the last, partly used
 * sphere is sorted (by node index).  After each sphere the score so far
 * plus lb[k] - lb[j] bounds the final score from below, where lb[j] sums, for
 * i < j, the least possible distance sum from a lattice point to i other
 * lattice points (nearest points of Z^d, d the number of axes longer
 * than 1; a mesh or torus has at most as many points within any radius).
 */
#include "alloc_centre.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_internal.h"
#include "error.h"

int mesh__pairsum_init(struct mesh__pairsum *p, const struct mesh_topo *t)
{
	int d;

	memset(p, 0, sizeof(*p));
	p->topo = t;
	for (d = 0; d < MESH_MAX_DIMS; d++) {
		p->cnt[d] = calloc((size_t) t->dim[d] + 1, sizeof(int64_t));
		p->sum[d] = calloc((size_t) t->dim[d] + 1, sizeof(int64_t));
		if (!p->cnt[d] || !p->sum[d]) {
			mesh__pairsum_free(p);
			return MESH_ENOMEM;
		}
	}
	return 0;
}

void mesh__pairsum_free(struct mesh__pairsum *p)
{
	int d;

	for (d = 0; d < MESH_MAX_DIMS; d++) {
		free(p->cnt[d]);
		free(p->sum[d]);
		p->cnt[d] = p->sum[d] = NULL;
	}
}

/* Sum of tree entries [0, i). */
static int64_t fen_prefix(const int64_t *f, int i)
{
	int64_t s = 0;

	for (; i > 0; i -= i & -i)
		s += f[i];
	return s;
}

static void fen_add(int64_t *f, int len, int i, int64_t v)
{
	for (i++; i <= len; i += i & -i)
		f[i] += v;
}

/* sum over members b in [lo, hi] of (sign * b + off). */
static int64_t seg(const struct mesh__pairsum *p, int d, int lo, int hi,
		   int sign, int64_t off)
{
	int64_t c, s;

	if (lo > hi)
		return 0;
	c = fen_prefix(p->cnt[d], hi + 1) - fen_prefix(p->cnt[d], lo);
	s = fen_prefix(p->sum[d], hi + 1) - fen_prefix(p->sum[d], lo);
	return sign * s + off * c;
}

static int64_t axis_dist_to(const struct mesh__pairsum *p, int d, int a)
{
	int len = p->topo->dim[d], h = len / 2, g = len - 1 - len / 2;
	int64_t r;

	if (len == 1)
		return 0;
	if (!p->topo->wrap[d])
		return seg(p, d, 0, a - 1, -1, a) +
		       seg(p, d, a + 1, len - 1, 1, -a);
	/* forward half-ring (a, a + h], backward half-ring [a - g, a) */
	r = seg(p, d, a + 1, a + h < len ? a + h : len - 1, 1, -a);
	if (a + h >= len)
		r += seg(p, d, 0, a + h - len, 1, (int64_t) len - a);
	r += seg(p, d, a - g > 0 ? a - g : 0, a - 1, -1, a);
	if (a - g < 0)
		r += seg(p, d, a - g + len, len - 1, -1, (int64_t) a + len);
	return r;
}

uint64_t mesh__pairsum_dist_to(const struct mesh__pairsum *p, const int c[3])
{
	int64_t s = 0;
	int d;

	for (d = 0; d < MESH_MAX_DIMS; d++)
		s += axis_dist_to(p, d, c[d]);
	return (uint64_t) s;
}

void mesh__pairsum_update(struct mesh__pairsum *p, const int c[3], int sign)
{
	int d;

	if (sign < 0) {
		for (d = 0; d < MESH_MAX_DIMS; d++) {
			fen_add(p->cnt[d], p->topo->dim[d], c[d], -1);
			fen_add(p->sum[d], p->topo->dim[d], c[d], -c[d]);
		}
		p->n--;
		p->total -= mesh__pairsum_dist_to(p, c);
		return;
	}
	p->total += mesh__pairsum_dist_to(p, c);
	p->n++;
	for (d = 0; d < MESH_MAX_DIMS; d++) {
		fen_add(p->cnt[d], p->topo->dim[d], c[d], 1);
		fen_add(p->sum[d], p->topo->dim[d], c[d], c[d]);
	}
}

/* lb[j] for j = 0..n (see the file comment). */
static void fill_lower_bounds(uint64_t *lb, uint32_t n, int nd)
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

/* Walks of fewer nodes cost less than the bound before them. */
#define WALK_BOUND_MIN 16

static int tables_init(struct mesh__l1near *x);
static void pattern_init(struct mesh__l1near *x);

/* Rotated tables of slices up to this many times their size. */
#define ROT_RATIO 5
/* Line caches hold radii up to this. */
#define L1LINE_MAX_RADIUS 31
/* hist[d] has this many zeros on either side of the mesh (only ever
 * added 0 to), so that axis_steps2() and the padded walk reach up to
 * L1LINE_MAX_RADIUS + 1 beyond a centre with no bounds test. */
#define HIST_PAD (L1LINE_MAX_RADIUS + 1)

static int unrolled_init(struct mesh__l1near *x);
static int window_init(struct mesh__l1near *x);

/* mesh__l1near_init() with the largest radius that matters (rlimit),
 * the line caches' size limit and how much larger than a slice its
 * rotated table may be (rot_ratio, see slice_layout()). */
static int l1near_init(struct mesh__l1near *x, const struct mesh_topo *t,
		       int rlimit, size_t line_entries, int rot_ratio)
{
	int d, nd = 0;
	uint32_t *h;

	memset(x, 0, sizeof(*x));
	x->share_axis = -1;
	x->topo = t;
	x->rlimit = x->rlin = rlimit;
	x->line_entries = line_entries;
	x->rot_ratio = rot_ratio;
	for (d = 0; d < MESH_MAX_DIMS; d++) {
		nd += t->dim[d] > 1;
		x->rmax += t->dim[d];
	}
	x->shell = malloc(t->nodes * sizeof(*x->shell));
	x->taken = malloc(t->nodes * sizeof(*x->taken));
	x->lb = malloc(((size_t) t->nodes + 1) * sizeof(*x->lb));
	for (d = 0; d < MESH_MAX_DIMS; d++) {
		h = calloc((size_t) t->dim[d] + 2 * HIST_PAD, sizeof(uint32_t));
		x->hist[d] = h ? h + HIST_PAD : NULL;
	}
	h = calloc((size_t) t->dim[0] + 2 * HIST_PAD, sizeof(uint32_t));
	x->hist0_alt = h ? h + HIST_PAD : NULL;
	for (d = 0; d < 2; d++)
		x->hbuf[d] = calloc((size_t) x->rmax + 1, sizeof(uint32_t));
	if (!x->shell || !x->taken || !x->lb || !x->hist[0] || !x->hist[1] ||
	    !x->hist[2] || !x->hist0_alt || !x->hbuf[0] || !x->hbuf[1] ||
	    mesh__pairsum_init(&x->ps, t) || tables_init(x)) {
		mesh__l1near_free(x);
		return MESH_ENOMEM;
	}
	fill_lower_bounds(x->lb, t->nodes, nd ? nd : 1);
	x->bound_walks = WALK_BOUND_MIN;
	return 0;
}

/* Line caches hold up to this many entries per axis (on meshes). */
#define L1LINE_MAX_ENTRIES ((size_t) 1 << 21)

int mesh__l1near_init(struct mesh__l1near *x, const struct mesh_topo *t)
{
	int rc = l1near_init(x, t, INT_MAX, L1LINE_MAX_ENTRIES, ROT_RATIO);

	if (rc) /* freed */
		return rc;
	if (!x->fast)
		rc = unrolled_init(x);
	if (!x->fast && !rc)
		rc = window_init(x);
	if (rc)
		mesh__l1near_free(x);
	return rc;
}

/* Frees a copy (the unrolled copy or the window) and clears its
 * pointers. */
static void copy_free(struct mesh__l1near **u, struct mesh_topo **topo,
		      struct mesh_bitmap **free_map)
{
	if (*u) {
		mesh__l1near_free(*u);
		free(*u);
		*u = NULL;
	}
	mesh_topo_destroy(*topo);
	*topo = NULL;
	mesh_bitmap_destroy(*free_map);
	*free_map = NULL;
}

void mesh__l1near_free(struct mesh__l1near *x)
{
	int d;

	copy_free(&x->unr, &x->unr_topo, &x->unr_free);
	copy_free(&x->near, &x->near_topo, &x->near_free);
	copy_free(&x->win, &x->win_topo, &x->win_free);
	mesh_bitmap_destroy(x->win_ties);
	x->win_ties = NULL;
	mesh__pairsum_free(&x->ps);
	for (d = 0; d < MESH_MAX_DIMS; d++) {
		if (x->hist[d])
			free(x->hist[d] - HIST_PAD);
		x->hist[d] = NULL;
	}
	if (x->hist0_alt) {
		free(x->hist0_alt - HIST_PAD);
		x->hist0_alt = NULL;
	}
	for (d = 0; d < 2; d++) {
		free(x->hbuf[d]);
		x->hbuf[d] = NULL;
	}
	if (x->share_tab) /* tab[share_axis] points into it */
		x->tab[x->share_axis] = NULL;
	free(x->share_tab);
	x->share_tab = NULL;
	for (d = 0; d < MESH_MAX_DIMS; d++) {
		free(x->tab[d]);
		x->tab[d] = NULL;
	}
	free(x->padrow);
	x->padrow = NULL;
	free(x->pplan);
	x->pplan = NULL;
	free(x->rcache);
	x->rcache = NULL;
	free(x->wrow);
	x->wrow = NULL;
	free(x->wplan);
	x->wplan = NULL;
	free(x->wzs);
	x->wzs = NULL;
	for (d = 0; d < MESH_MAX_DIMS; d++) {
		free(x->lcache[d]);
		free(x->lfill[d]);
		x->lcache[d] = NULL;
		x->lfill[d] = NULL;
	}
	free(x->shell);
	free(x->taken);
	free(x->lb);
	x->shell = x->taken = NULL;
	x->lb = NULL;
}

/* Offsets allowed per axis so that each node has exactly one offset,
 * of length equal to its axis distance from c. */
static void offset_range(const struct mesh_topo *t, const int c[3], int lo[3],
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

static inline int wrap_coord(int q, int len)
{
	return q < 0 ? q + len : q >= len ? q - len : q;
}

static inline int imax(int a, int b)
{
	return a > b ? a : b;
}

static inline int64_t imax64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

static inline int imin(int a, int b)
{
	return a < b ? a : b;
}

/* Takes node n = base + qx (coordinates qx, q[1], q[2]) into the shell,
 * and into the histograms if count, if it is free; true once want are
 * taken.  Written always and kept if free: a branch on the free map
 * mispredicts half the time at 50% occupancy. */
static inline int shell_take(struct mesh__l1near *x,
			     const struct mesh_bitmap *f, uint32_t base, int qx,
			     const int q[3], uint32_t *m, uint32_t want,
			     int count)
{
	uint32_t n = base + (uint32_t) qx, b = mesh_bitmap_test(f, n);

	x->shell[*m] = n;
	*m += b;
	if (count) {
		x->hist[0][qx] += b;
		x->hist[1][q[1]] += b;
		x->hist[2][q[2]] += b;
	}
	return *m == want;
}

/* The first want (in offset order) free nodes at L1 distance exactly r
 * from c, into x->shell and, if count, the coordinate histograms (whose
 * coordinates the walk knows, so no division per node); returns their
 * number. */
static uint32_t gather_shell(struct mesh__l1near *x,
			     const struct mesh_bitmap *f, const int c[3],
			     const int lo[3], const int hi[3], int r,
			     uint32_t want, int count)
{
	const struct mesh_topo *t = x->topo;
	uint32_t m = 0, X = (uint32_t) t->dim[0], XY = X * (uint32_t) t->dim[1];
	int dz, dy, rz, rx, q[3];

	if (!want)
		return 0;
	for (dz = imax(-r, lo[2]); dz <= imin(r, hi[2]); dz++) {
		rz = r - (dz < 0 ? -dz : dz);
		q[2] = wrap_coord(c[2] + dz, t->dim[2]);
		for (dy = imax(-rz, lo[1]); dy <= imin(rz, hi[1]); dy++) {
			uint32_t base;

			rx = rz - (dy < 0 ? -dy : dy);
			q[1] = wrap_coord(c[1] + dy, t->dim[1]);
			base = (uint32_t) q[1] * X + (uint32_t) q[2] * XY;
			if (-rx >= lo[0] &&
			    shell_take(x, f, base,
				       wrap_coord(c[0] - rx, (int) X), q, &m,
				       want, count))
				return m;
			if (rx > 0 && rx <= hi[0] &&
			    shell_take(x, f, base,
				       wrap_coord(c[0] + rx, (int) X), q, &m,
				       want, count))
				return m;
		}
	}
	return m;
}

/* Sum over unordered pairs of axis distances, from a histogram: O(L),
 * one pass.  On a ring, a pair further apart than half the ring (b - a
 * > L / 2) is L - (b - a) apart, not b - a: the pass subtracts
 * 2 (b - a) - L for those, with running sums over the a that are that
 * far below b. */
static uint64_t axis_pairs(const struct mesh__l1near *x, int d)
{
	const uint32_t *h = x->hist[d];
	int len = x->topo->dim[d], a, cut, wrap = x->topo->wrap[d];
	uint64_t sum = 0, below = 0, below_pos = 0, far = 0, fh = 0, fw = 0;

	for (a = 0; a < len; a++) {
		sum += (uint64_t) h[a] * ((uint64_t) a * below - below_pos);
		below += h[a];
		below_pos += (uint64_t) a * h[a];
		cut = a - len / 2 - 1;
		if (!wrap || cut < 0)
			continue;
		fh += h[cut];
		fw += (uint64_t) cut * h[cut];
		far +=
		    (uint64_t) h[a] * ((uint64_t) (2 * a - len) * fh - 2 * fw);
	}
	return sum - far;
}

static uint64_t hist_pairs(const struct mesh__l1near *x)
{
	return axis_pairs(x, 0) + axis_pairs(x, 1) + axis_pairs(x, 2);
}

static void hist_clear(struct mesh__l1near *x)
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
static uint64_t remaining_bound(const struct mesh__l1near *x, uint32_t k,
				uint32_t j, uint64_t dsum, int r)
{
	uint64_t spread = (uint64_t) j * (uint64_t) r, rest;

	spread = spread > dsum ? spread - dsum : 0;
	rest = (uint64_t) (k - j) * spread + x->lb[k - j];
	return rest > x->lb[k] - x->lb[j] ? rest : x->lb[k] - x->lb[j];
}

/* The enumeration from radius r on, with the histograms, n and dsum
 * already holding the free nodes within r - 1 of c (whose indices only
 * out needs, so r > 0 takes out NULL). */
static uint64_t enum_from(struct mesh__l1near *x,
			  const struct mesh_bitmap *free_map, const int c[3],
			  uint32_t k, uint64_t bound, uint32_t *out, int r,
			  uint32_t n, uint64_t dsum)
{
	int lo[3], hi[3];
	uint32_t m;
	uint64_t pairs = n ? hist_pairs(x) : 0;

	if (n && (pairs >= bound ||
		  pairs + remaining_bound(x, k, n, dsum, r) >= bound))
		return UINT64_MAX;
	offset_range(x->topo, c, lo, hi);
	for (; n < k && r <= x->rmax; r++) {
		/* (the first k - n in offset order) */
		m = gather_shell(x, free_map, c, lo, hi, r, k - n, 1);
		if (!m)
			continue;
		memcpy(x->taken + n, x->shell, m * sizeof(*x->taken));
		n += m;
		dsum += (uint64_t) r * m;
		pairs = hist_pairs(x);
		if (pairs >= bound ||
		    (n < k &&
		     pairs + remaining_bound(x, k, n, dsum, r + 1) >= bound))
			return UINT64_MAX;
	}
	if (out)
		memcpy(out, x->taken, k * sizeof(*out));
	return pairs;
}

/* HOW IT WORKS (the enumeration path, for tori whose balls outgrow the
 * unrolled copy, or that have none): nodes are added a whole L1 sphere
 * at a time into per-axis coordinate histograms (O(1) each); the pair
 * sum of the set so far is read from the histograms in O(L) after each
 * sphere and, plus remaining_bound(), compared against the bound.  The
 * first implementation inserted node by node into Fenwick trees and
 * checked after every node; it gave the same answers about 2-20x
 * slower.  On meshes fast_score() below replaces it (see
 * doc/allocators.md, "Speed"). */
uint64_t mesh__l1near_score(struct mesh__l1near *x,
			    const struct mesh_bitmap *free_map, const int c[3],
			    uint32_t k, uint64_t bound, uint32_t *out)
{
	hist_clear(x);
	return enum_from(x, free_map, c, k, bound, out, 0, 0, 0);
}

/* ------------------------------------------------ fast path on meshes
 *
 * HOW IT WORKS: the set of centre c is every free node with d(c, .) < R
 * plus the lowest-index free nodes at distance exactly R, R the least
 * radius whose ball holds >= k free nodes.  Its pair sum is read from
 * per-axis coordinate histograms, and the histogram of axis d for a
 * ball of radius rho is, slice by slice (coordinate i on axis d), the
 * number of free nodes in the 2D diamond of radius rho - |i - c[d]| in
 * the plane of the other two axes.  Per-slice prefix-sum tables, built
 * once per decision, answer each diamond in O(1), so a centre costs
 * O(R) table reads for R and the histograms plus a walk over part of
 * the last shell (O(R^2) cells) instead of the O(R^3) cells of the
 * shell-enumeration path.  The walk takes the m lowest-index shell nodes
 * onto the ball of radius R - 1, or, when fewer, drops the highest-index
 * ones from the ball of radius R.  Tori run it on an unrolled copy (see
 * "tori" below). */

/* Table layout of axis d (see tables_build()).  Rotated 2D prefix sums
 * cost (P+Q)^2 entries per slice of P*Q nodes, so long thin slices, 1D
 * ones and meshes whose tables would be huge use per-line sums. */
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

/* Line caches for the rotated axes other than 0 (see the header), with
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

/* Sets x->fast and allocates the tables; MESH_ENOMEM on failure. */
/* Walks of radius up to this read padded rows (see wrow). */
#define WALK_PAD 16

/* The padded rows and the walk plan (X <= 62).  A shell row (dy, dz)
 * can hold a node only if |dy| < Y and |dz| < Z, so the plan skips the
 * others and the padding stops there too: a 2D mesh's plan has no row
 * off its plane. */
static int walk_init(struct mesh__l1near *x)
{
	const int *dim = x->topo->dim;
	struct mesh__wstep *e;
	int r, dy, dz, rz, zr;
	uint32_t n = 0, *zs;

	x->wpad = (64 - dim[0]) / 2;
	x->wmax = imin(x->wpad, WALK_PAD);
	x->wpy = imin(x->wmax, dim[1] - 1);
	x->wpz = imin(x->wmax, dim[2] - 1);
	x->wstride = (size_t) dim[1] + 2 * (size_t) x->wpy;
	x->wrow = calloc(x->wstride * ((size_t) dim[2] + 2 * (size_t) x->wpz),
			 sizeof(*x->wrow));
	x->wzs = malloc(((size_t) x->wmax + 1) * (2 * (size_t) x->wmax + 2) *
			sizeof(*x->wzs));
	/* at most 2 r^2 + 2 r + 1 rows per radius r */
	x->wplan = malloc(((size_t) x->wmax + 1) * ((size_t) x->wmax + 1) *
			  ((size_t) x->wmax + 1) * sizeof(*x->wplan));
	if (!x->wrow || !x->wzs || !x->wplan)
		return MESH_ENOMEM;
	for (r = 0; r <= x->wmax; r++) {
		zs = x->wzs + (size_t) r * (2 * (size_t) x->wmax + 2) +
		     (size_t) x->wmax;
		zr = imin(r, x->wpz);
		for (dz = -zr; dz <= zr; dz++) {
			zs[dz] = n;
			rz = r - (dz < 0 ? -dz : dz);
			for (dy = -imin(rz, x->wpy); dy <= imin(rz, x->wpy);
			     dy++) {
				e = &x->wplan[n++];
				e->dy = (int8_t) dy;
				e->dz = (int8_t) dz;
				e->rx = (int8_t) (rz - (dy < 0 ? -dy : dy));
				e->hi = e->rx > 0;
				e->off =
				    (int32_t) (dy + dz * (long) x->wstride);
			}
		}
		zs[zr + 1] = n;
	}
	return 0;
}

static int tables_init(struct mesh__l1near *x)
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
	if (t->dim[0] <= 62 && walk_init(x))
		return MESH_ENOMEM;
	pattern_init(x);
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

/* The len <= 64 bits of f from position p on, as one word. */
static uint64_t row_bits(const struct mesh_bitmap *f, uint32_t p, int len)
{
	int s = (int) (p & 63);
	uint64_t v = f->words[p >> 6] >> s;

	if (s + len > 64)
		v |= f->words[(p >> 6) + 1] << (64 - s);
	return len < 64 ? v & ((1ull << len) - 1) : v;
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
				v = row_bits(f, p + (uint32_t) x0, len);
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

/* The padded rows of f (their padding stays 0 from walk_init()). */
static void walk_rows_fill(struct mesh__l1near *x, const struct mesh_bitmap *f)
{
	const int *dim = x->topo->dim;
	uint64_t *w;
	uint32_t p = 0;
	int y, z;

	for (z = 0; z < dim[2]; z++) {
		w = x->wrow + (size_t) x->wpy +
		    (size_t) (z + x->wpz) * x->wstride;
		for (y = 0; y < dim[1]; y++, p += (uint32_t) dim[0])
			w[y] = row_bits(f, p, dim[0]) << x->wpad;
	}
}

static void tables_build(struct mesh__l1near *x, const struct mesh_bitmap *f)
{
	const struct mesh_topo *t = x->topo;
	int copies[MESH_MAX_DIMS] = { 1, 1, 1 };
	int d, s;

	x->rkey = -1; /* the row cache holds diamonds of the old map */
	if (x->share_tab)
		copies[x->share_axis] = share_point(x) ? 2 : 0;
	if (x->wrow)
		walk_rows_fill(x, f);
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

/* h[i] := free nodes of slice i of axis d within in-plane radius
 * rho - |i - c[d]| of c (0 where that is negative), for the slices i
 * within win of c[d]; returns the sum over them: for win >= rho, the
 * free nodes of the ball of radius rho.  diamond() slice by slice, with
 * the centre's part of the arithmetic done once. */
static uint32_t slice_hist(const struct mesh__l1near *x, int d, const int c[3],
			   int rho, int win, uint32_t *h)
{
	int lo = imax(0, c[d] - win),
	    hi = imin(x->topo->dim[d] - 1, c[d] + win);
	int P = x->topo->dim[x->tp[d]], Q = x->topo->dim[x->tq[d]];
	int cu = c[x->tp[d]] + c[x->tq[d]],
	    cv = c[x->tp[d]] - c[x->tq[d]] + Q - 1;
	int S = P + Q - 1, i, w, ilo, ihi;
	size_t sd = (size_t) x->side[d], st = x->sstep[d], es = x->estep[d];
	size_t u0, u1, v0, v1;
	size_t o[4][64];
	const uint16_t *T;
	uint32_t n = 0;

	if (!x->rot[d] || rho >= 64) {
		for (i = lo; i <= hi; i++) {
			w = rho - (i < c[d] ? c[d] - i : i - c[d]);
			n += h[i] = w < 0 ? 0 : diamond(x, d, i, c, w);
		}
		return n;
	}
	/* the four corners of the square of radius w, for every w */
	for (w = 0; w <= rho; w++) {
		u0 = (size_t) imax(0, cu - w) * sd;
		u1 = (size_t) (imin(S - 1, cu + w) + 1) * sd;
		v0 = (size_t) imax(0, cv - w);
		v1 = (size_t) (imin(S - 1, cv + w) + 1);
		o[0][w] = (u1 + v1) * es;
		o[1][w] = (u0 + v1) * es;
		o[2][w] = (u1 + v0) * es;
		o[3][w] = (u0 + v0) * es;
	}
	ilo = imax(lo, c[d] - rho);
	ihi = imin(hi, c[d] + rho);
	for (i = lo; i < ilo; i++)
		h[i] = 0;
	for (i = ihi + 1; i <= hi; i++)
		h[i] = 0;
	T = x->tab[d] + (size_t) ilo * st;
	for (i = ilo, w = rho - (c[d] - ilo); i < c[d]; i++, w++, T += st)
		n += h[i] = (uint16_t) (T[o[0][w]] - T[o[1][w]] - T[o[2][w]] +
					T[o[3][w]]);
	for (w = rho - (i - c[d]); i <= ihi; i++, w--, T += st)
		n += h[i] = (uint16_t) (T[o[0][w]] - T[o[1][w]] - T[o[2][w]] +
					T[o[3][w]]);
	return n;
}

/* The least R with ball(R) >= k (k >= 1, k <= free nodes); *below is
 * ball(R - 1), *at ball(R).  The ball counts come from the axis0 slices,
 * and hist[axis0] is left holding the slices of ball(R - 1) (low) or
 * ball(R), on the window of radius R.  Neighbouring centres have radii
 * within 1 of each other, so starting from the last one takes few
 * steps. */
static int find_radius_row(struct mesh__l1near *x, const int c[3], uint32_t k,
			   uint32_t *below, uint32_t *at);

static int find_radius(struct mesh__l1near *x, const int c[3], uint32_t k,
		       uint32_t *below, uint32_t *at)
{
	int d = x->axis0, r = imin(imax(x->rguess, 0), x->rmax), i, lo, hi;
	uint32_t *hr = x->hbuf[0], *hb = x->hbuf[1], *tmp, n, b = 0;

	if (x->rcache)
		return find_radius_row(x, c, k, below, at);

	n = slice_hist(x, d, c, r, r + 1, hr);
	while (n < k) {
		tmp = hb, hb = hr, hr = tmp; /* hb: radius r, window r + 1 */
		b = n;
		r++;
		n = slice_hist(x, d, c, r, r + 1, hr);
	}
	if (r == imin(imax(x->rguess, 0), x->rmax))
		b = slice_hist(x, d, c, r - 1, r, hb);
	while (b >= k) {
		tmp = hb, hb = hr, hr = tmp;
		n = b;
		r--;
		b = slice_hist(x, d, c, r - 1, r, hb);
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

/* row_ball() of radii r and r - 1 in one pass (r < rfill), which also
 * leaves their slices on the window of radius r in hr and hb: the
 * slice at i is on diagonal r - |i - c| of the row cache, and the
 * smaller ball's one row below it (row -1, zero, at |i - c| = r). */
static void row_ball2(const struct mesh__l1near *x, const int c[3], int r,
		      uint32_t *hr, uint32_t *hb, uint32_t *n, uint32_t *b)
{
	const size_t X = (size_t) x->topo->dim[0];
	const uint16_t *B = x->rcache; /* row -1, so no index goes below 0 */
	int lo = imax(0, c[0] - r), hi = imin((int) X - 1, c[0] + r), i;
	uint32_t sr = 0, sb = 0;
	size_t o; /* unsigned: the step after the last read may wrap */

	o = (size_t) (r - c[0] + lo) * X + (size_t) lo;
	for (i = lo; i < c[0]; i++, o += X + 1) {
		hr[i] = B[o + X];
		hb[i] = B[o];
		sr += hr[i];
		sb += hb[i];
	}
	o = (size_t) r * X + (size_t) c[0];
	for (i = c[0]; i <= hi; i++, o -= X - 1) {
		hr[i] = B[o + X];
		hb[i] = B[o];
		sr += hr[i];
		sb += hb[i];
	}
	*n = sr;
	*b = sb;
}

/* find_radius() from the row cache: the same radius, counts and
 * hist[0]. */
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
	if (r >= x->rfill)
		row_fill(x, c, r);
	row_ball2(x, c, r, x->hist[0], x->hist0_alt, &n, &b);
	if (b < k && n >= k) { /* the guess was right (most centres) */
		x->rguess = r;
		*below = b;
		*at = n;
		if (k - b <= n - k) { /* hist[0] is to hold ball(r - 1) */
			uint32_t *h = x->hist[0];

			x->hist[0] = x->hist0_alt;
			x->hist0_alt = h;
		}
		return r;
	}
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

/* slice_hist() from the line cache of axis d (0 <= rho - 1 <= lcap
 * or rho <= lcap): hist h on the window of radius win. */
static void line_hist(struct mesh__l1near *x, int d, const int c[3], int rho,
		      int win, uint32_t *h)
{
	const int *dim = x->topo->dim;
	int lo = imax(0, c[d] - win), hi = imin(dim[d] - 1, c[d] + win);

	v_read(line_cache(x, d, c, rho) - dim[d], (size_t) dim[d], c[d], rho,
	       lo, hi, h);
}

/* line_hist() of axes 1 and 2 at once (r <= lcap < HIST_PAD): both
 * windows of radius r are read unclipped, in one loop per half, a slice
 * off the mesh reading row -1's first entry (0) and writing it to the
 * histogram's pad.  Two loops of lengths r and r + 1 instead of four
 * whose lengths vary with the clipping. */
static void line_hist12(struct mesh__l1near *x, const int c[3], int rho, int r)
{
	const int *dim = x->topo->dim;
	const size_t Y = (size_t) dim[1], Z = (size_t) dim[2];
	const uint16_t *D1 = line_cache(x, 1, c, rho) - Y,
		       *D2 = line_cache(x, 2, c, rho) - Z;
	uint32_t *h1 = x->hist[1] + c[1], *h2 = x->hist[2] + c[2];
	size_t o1, o2; /* unsigned: the step after the last read may wrap */
	int j;

	/* below the centre: slice c - j is on row rho + 1 - j */
	o1 = (size_t) (rho + 1 - r) * Y + (size_t) (c[1] - r);
	o2 = (size_t) (rho + 1 - r) * Z + (size_t) (c[2] - r);
	for (j = r; j > 0; j--, o1 += Y + 1, o2 += Z + 1) {
		h1[-j] = D1[c[1] - j >= 0 ? o1 : 0];
		h2[-j] = D2[c[2] - j >= 0 ? o2 : 0];
	}
	o1 = (size_t) (rho + 1) * Y + (size_t) c[1];
	o2 = (size_t) (rho + 1) * Z + (size_t) c[2];
	for (j = 0; j <= r; j++, o1 -= Y - 1, o2 -= Z - 1) {
		h1[j] = D1[c[1] + j < (int) Y ? o1 : 0];
		h2[j] = D2[c[2] + j < (int) Z ? o2 : 0];
	}
}

/* Moves the first m free nodes of shell r in ascending (dir > 0) or the
 * last m in descending index order (z, then y, then x major) into or
 * out of the histograms, reading the free map.  A row (dz, dy) of the
 * shell has at most two cells, x = c[0] -+ rx; their bits are added as
 * numbers rather than branched on (free maps are random, so such
 * branches mispredict), and a whole z-plane's count goes to hist[2] at
 * once.  For walks of radius > wmax; plan_walk() does the others. */
static void walk_rows(struct mesh__l1near *x, const struct mesh_bitmap *f,
		      const int c[3], int r, uint32_t m, int dir)
{
	const int *dim = x->topo->dim;
	uint32_t *h0 = x->hist[0], *h1 = x->hist[1], *h2 = x->hist[2];
	int zlo = imax(-r, -c[2]), zhi = imin(r, dim[2] - 1 - c[2]);
	int dz, dy, ylo, yhi, rz, rx, xl, xh;
	uint32_t bl, bh, n, zn, pl, ph, plane, sign = dir > 0 ? 1u : UINT32_MAX;

	for (dz = dir > 0 ? zlo : zhi; m && dz >= zlo && dz <= zhi; dz += dir) {
		rz = r - (dz < 0 ? -dz : dz);
		ylo = imax(-rz, -c[1]);
		yhi = imin(rz, dim[1] - 1 - c[1]);
		plane = (uint32_t) ((c[2] + dz) * dim[1] + c[1]);
		zn = 0;
		for (dy = dir > 0 ? ylo : yhi; m && dy >= ylo && dy <= yhi;
		     dy += dir) {
			rx = rz - (dy < 0 ? -dy : dy);
			xl = c[0] - rx;
			xh = c[0] + rx;
			pl = (plane + (uint32_t) dy) * (uint32_t) dim[0] +
			     (uint32_t) xl;
			bl = xl >= 0
				 ? (uint32_t) (f->words[pl >> 6] >> (pl & 63)) &
				       1u
				 : 0;
			ph = pl + 2u * (uint32_t) rx;
			bh = rx > 0 && xh < dim[0]
				 ? (uint32_t) (f->words[ph >> 6] >> (ph & 63)) &
				       1u
				 : 0;
			n = bl + bh;
			if (n > m) { /* m == 1, both free: the first in order */
				if (dir > 0)
					bh = 0;
				else
					bl = 0;
				n = 1;
			}
			if (xl >= 0)
				h0[xl] += bl * sign;
			if (xh < dim[0]) /* bh is 0 if rx == 0 */
				h0[xh] += bh * sign;
			h1[c[1] + dy] += n * sign;
			zn += n;
			m -= n;
		}
		h2[c[2] + dz] += zn * sign;
	}
}

/* walk_rows() for r <= wmax, from the padded rows: the plan lists the
 * shell's rows in index order, so the loop has no bounds and no
 * coordinates to compute.  Rows off the mesh are 0 and add 0 to the
 * histograms' pads (r <= wmax < HIST_PAD). */
static void plan_walk(struct mesh__l1near *x, const int c[3], int r, uint32_t m,
		      int dir)
{
	const uint32_t *zs =
	    x->wzs + (size_t) r * (2 * (size_t) x->wmax + 2) + (size_t) x->wmax;
	int zr = imin(r, x->wpz);
	/* only the planes on the mesh */
	const struct mesh__wstep
	    *first = x->wplan + zs[imax(-zr, -c[2])],
	    *end = x->wplan + zs[imin(zr, x->topo->dim[2] - 1 - c[2]) + 1], *e;
	const uint64_t *w = x->wrow + (size_t) (c[1] + x->wpy) +
			    (size_t) (c[2] + x->wpz) * x->wstride;
	uint32_t *h0 = x->hist[0] + c[0], *h1 = x->hist[1] + c[1],
		 *h2 = x->hist[2] + c[2], bl, bh, n, hi;
	int s = c[0] + x->wpad, rx, dy, dz;
	uint64_t v;

	/* the step's fields are read into locals first: they are chars,
	 * which the histogram stores could alias.  One loop for both
	 * directions (sign and tie rule by dir) took 1-6% longer. */
	if (dir > 0) {
		for (e = first; m && e < end; e++) {
			rx = e->rx;
			dy = e->dy;
			dz = e->dz;
			hi = e->hi;
			v = w[e->off];
			bl = (uint32_t) (v >> (s - rx)) & 1u;
			bh = (uint32_t) (v >> (s + rx)) & hi;
			n = bl + bh;
			if (n > m) { /* m == 1, both free: the lower x */
				bh = 0;
				n = 1;
			}
			h0[-rx] += bl;
			h0[rx] += bh;
			h1[dy] += n;
			h2[dz] += n;
			m -= n;
		}
		return;
	}
	for (e = end; m && e > first;) {
		e--;
		rx = e->rx;
		dy = e->dy;
		dz = e->dz;
		hi = e->hi;
		v = w[e->off];
		bl = (uint32_t) (v >> (s - rx)) & 1u;
		bh = (uint32_t) (v >> (s + rx)) & hi;
		n = bl + bh;
		if (n > m) { /* the higher x comes first backwards */
			bl = 0;
			n = 1;
		}
		h0[-rx] -= bl;
		h0[rx] -= bh;
		h1[dy] -= n;
		h2[dz] -= n;
		m -= n;
	}
}

static void shell_walk(struct mesh__l1near *x, const struct mesh_bitmap *f,
		       const int c[3], int r, uint32_t m, int dir)
{
	if (x->wrow && r <= x->wmax)
		plan_walk(x, c, r, m, dir);
	else
		walk_rows(x, f, c, r, m, dir);
}

/* One slot of window_stats3() on one axis: L (*b) takes the slot's
 * nodes, the gap after it adds L (n - L) to the pair sum and L to G. */
static inline void stats_step(uint32_t h, uint32_t n, uint32_t *b, uint64_t *g,
			      uint64_t *pairs)
{
	*b += h;
	*pairs += (uint64_t) *b * (n - *b);
	*g += *b;
}

/* For each axis d, on the window of radius r around c_d (r <= HIST_PAD),
 * which holds n nodes: the pair sum (summed over the axes and
 * returned), the coordinate sum s[d], the distance sum to c_d f_at[d]
 * and the nodes at or below c_d below_at[d].  With L_a the nodes at or
 * below a and G the sum of L_a over the window [lo, hi], each gap (a,
 * a + 1) adds L_a (n - L_a) to the pair sum, the coordinate sum is
 * (hi + 1) n - G, and f_at = 2 G_<c + (hi - c + 1) n - G: one multiply
 * per slot, and no test of a against c in the loops.  The windows are
 * left unclipped, in one loop for the three axes: a pad slot below the
 * mesh adds 0 to every sum, one above it n to G and n to (hi + 1) n
 * alike, so the results are the clipped windows'. */
static uint64_t window_stats3(uint32_t *const hist[MESH_MAX_DIMS],
			      const int c[3], int r, uint32_t n, int64_t s[3],
			      int64_t f_at[3], int64_t below_at[3])
{
	const uint32_t *h0 = hist[0] + c[0], *h1 = hist[1] + c[1],
		       *h2 = hist[2] + c[2];
	uint64_t pairs = 0, g0 = 0, g1 = 0, g2 = 0, l0, l1, l2;
	uint32_t b0 = 0, b1 = 0, b2 = 0;
	int a;

	for (a = -r; a < 0; a++) {
		stats_step(h0[a], n, &b0, &g0, &pairs);
		stats_step(h1[a], n, &b1, &g1, &pairs);
		stats_step(h2[a], n, &b2, &g2, &pairs);
	}
	l0 = g0, l1 = g1, l2 = g2;
	below_at[0] = b0 + h0[0];
	below_at[1] = b1 + h1[0];
	below_at[2] = b2 + h2[0];
	for (a = 0; a <= r; a++) {
		stats_step(h0[a], n, &b0, &g0, &pairs);
		stats_step(h1[a], n, &b1, &g1, &pairs);
		stats_step(h2[a], n, &b2, &g2, &pairs);
	}
	s[0] = (int64_t) (c[0] + r + 1) * n - (int64_t) g0;
	s[1] = (int64_t) (c[1] + r + 1) * n - (int64_t) g1;
	s[2] = (int64_t) (c[2] + r + 1) * n - (int64_t) g2;
	f_at[0] = 2 * (int64_t) l0 + (int64_t) (r + 1) * n - (int64_t) g0;
	f_at[1] = 2 * (int64_t) l1 + (int64_t) (r + 1) * n - (int64_t) g1;
	f_at[2] = 2 * (int64_t) l2 + (int64_t) (r + 1) * n - (int64_t) g2;
	return pairs;
}

/* Pair sum of the axis histogram h on [lo, hi] (zero elsewhere), which
 * holds n nodes. */
static uint64_t window_pairs(const uint32_t *h, int lo, int hi, uint32_t n)
{
	uint64_t pairs = 0;
	uint32_t below = 0;
	int a;

	for (a = lo; a < hi; a++) {
		below += h[a];
		pairs += (uint64_t) below * (n - below);
	}
	return pairs;
}

/* window_pairs() of all three axes at once, on the windows of radius r
 * around c left unclipped (r <= HIST_PAD): a slice off the mesh is a
 * pad, 0, and adds L (n - L) = 0 with L = 0 or n.  One loop of fixed
 * length 2 r, with three independent sums, instead of three loops whose
 * lengths vary with the clipping. */
static uint64_t window_pairs3(uint32_t *const hist[MESH_MAX_DIMS],
			      const int c[3], int r, uint32_t n)
{
	const uint32_t *h0 = hist[0] + c[0], *h1 = hist[1] + c[1],
		       *h2 = hist[2] + c[2];
	uint64_t pairs = 0;
	uint32_t b0 = 0, b1 = 0, b2 = 0;
	int a;

	for (a = -r; a < r; a++) {
		b0 += h0[a];
		b1 += h1[a];
		b2 += h2[a];
		pairs += (uint64_t) b0 * (n - b0) + (uint64_t) b1 * (n - b1) +
			 (uint64_t) b2 * (n - b2);
	}
	return pairs;
}

/* What Lee distances on a ring of len take off the pair sum of h on
 * [lo, hi] (a window shorter than the ring): a pair g > len / 2 apart is
 * len - g apart the other way round, so each such pair takes off
 * 2 g - len. */
static uint64_t ring_cut(const uint32_t *h, int lo, int hi, int len)
{
	uint64_t cut = 0;
	int64_t s0 = 0, s1 = 0; /* nodes, coordinate sum at >= a + gap */
	int gap = len / 2 + 1, a;

	for (a = hi - gap; a >= lo; a--) {
		s0 += h[a + gap];
		s1 += (int64_t) (a + gap) * h[a + gap];
		cut += (uint64_t) h[a] *
		       (uint64_t) (2 * s1 - (int64_t) (2 * a + len) * s0);
	}
	return cut;
}

/* window_pairs() with Lee distances on a ring of len. */
static uint64_t ring_window_pairs(const uint32_t *h, int lo, int hi, uint32_t n,
				  int len)
{
	return window_pairs(h, lo, hi, n) - ring_cut(h, lo, hi, len);
}

/* ------------------------------------ a bound before the walk (issue 10)
 *
 * The set is B, the ball of radius R - 1, plus W, the first m nodes of
 * shell R (low), or the ball of radius R minus D, its last m nodes
 * (high).  With f(p) the sum of distances from p to the nodes in the
 * histograms (B, or the ball of radius R):
 *   low:  P(set) = P(B) + sum over W of f(p) + P(W);
 *   high: P(set) = P(ball) - sum over D of f(p) + P(D).
 * L1 sums split over the axes: f(p) = f_0(p_x) + f_1(p_y) + f_2(p_z),
 * each f_d convex.  W and D take whole z-planes of the shell in walk
 * order, and each plane's ring count is in the axis-2 line cache, so
 * f_2 is exact plane by plane.  On the ring of radius rho, f_0 + f_1 is
 * at least min over a of F_0(a) + F_1(rho - a), F_d(a) being the lesser
 * of f_d(c_d -+ a), and, being convex, at most its largest value at the
 * ring's four vertices.  P(W), P(D) >= lb[m].  Every f_d value is one
 * step from the previous one, so the bound costs O(R) after the pair
 * sums, and the walk runs only for centres whose bound is below the
 * best score so far. */

/* f_d at c_d -+ a for a = 0..len - 1 into lo_d[] (the lesser) and
 * hi_d[] (the greater), for axes 0 and 1 in one loop (two independent
 * chains), from f_d(c_d) = fc[d] and the nodes at or below c_d: a step
 * outwards adds the nodes behind it and takes off those ahead.  hist[d]
 * is read on [c_d - len, c_d + len] (len <= HIST_PAD) with no bounds
 * test: the window, whose slices beyond the ball are 0, and the zeros
 * off the mesh (the two reads at -+ len are not used). */
static void axis_steps2(uint32_t *const hist[MESH_MAX_DIMS], const int c[3],
			int64_t n, const int64_t fc[3], const int64_t below[3],
			int len, int64_t *lo0, int64_t *hi0, int64_t *lo1,
			int64_t *hi1)
{
	const uint32_t *h0 = hist[0] + c[0], *h1 = hist[1] + c[1];
	int64_t up0 = fc[0], dn0 = fc[0], bu0 = below[0];
	int64_t up1 = fc[1], dn1 = fc[1], bu1 = below[1];
	int64_t bd0 = n - below[0] + h0[0], bd1 = n - below[1] + h1[0];
	int a;

	for (a = 0; a < len; a++) {
		lo0[a] = up0 < dn0 ? up0 : dn0;
		hi0[a] = up0 < dn0 ? dn0 : up0;
		lo1[a] = up1 < dn1 ? up1 : dn1;
		hi1[a] = up1 < dn1 ? dn1 : up1;
		up0 += 2 * bu0 - n;
		dn0 += 2 * bd0 - n;
		up1 += 2 * bu1 - n;
		dn1 += 2 * bd1 - n;
		bu0 += h0[a + 1];
		bd0 += h0[-a - 1];
		bu1 += h1[a + 1];
		bd1 += h1[-a - 1];
	}
}

/* Lee distance sums on a ring of len from the histogram h on [lo, hi]
 * (a window shorter than the ring): prefix counts and coordinate sums,
 * so that each f(q) = sum over b of h[b] Lee(q, b) costs O(1). */
struct lee_sums {
	int lo, w, len;
	int64_t cnt[2 * HIST_PAD + 1], sum[2 * HIST_PAD + 1];
};

static void lee_init(struct lee_sums *e, const uint32_t *h, int lo, int hi,
		     int len)
{
	int i;

	e->lo = lo;
	e->w = hi - lo + 1;
	e->len = len;
	e->cnt[0] = e->sum[0] = 0;
	for (i = 0; i < e->w; i++) {
		e->cnt[i + 1] = e->cnt[i] + h[lo + i];
		e->sum[i + 1] = e->sum[i] + (int64_t) (lo + i) * h[lo + i];
	}
}

/* f(q) for q in the window: the L1 sum less 2 |q - b| - len for every b
 * more than len / 2 away. */
static int64_t lee_f(const struct lee_sums *e, int q)
{
	const int64_t *C = e->cnt, *S = e->sum;
	int i = q - e->lo, w = e->w, j;
	int64_t f = (int64_t) q * C[i] - S[i] + (S[w] - S[i]) -
		    (int64_t) q * (C[w] - C[i]);

	j = i - (e->len / 2 + 1) + 1; /* b <= q - gap: indices below j */
	if (j > 0)
		f -= (int64_t) (2 * q - e->len) * C[j] - 2 * S[j];
	j = i + e->len / 2 + 1; /* b >= q + gap: indices from j */
	if (j < w)
		f -= 2 * (S[w] - S[j]) -
		     (int64_t) (2 * q + e->len) * (C[w] - C[j]);
	return f;
}

/* lo[a] := the lesser f(c -+ a) of those in the window (0 if neither
 * is: no node lies there), a < n. */
static void lee_lows(const struct lee_sums *e, int c, int n, int64_t *lo)
{
	int a, q, side;
	int64_t v;

	for (a = 0; a < n; a++) {
		lo[a] = INT64_MAX;
		for (side = -1; side <= 1; side += 2) {
			q = c + side * a;
			if (q < e->lo || q >= e->lo + e->w)
				continue;
			v = lee_f(e, q);
			lo[a] = v < lo[a] ? v : lo[a];
		}
		if (lo[a] == INT64_MAX)
			lo[a] = 0;
	}
}

/* Lower bound on the score of centre c (radius r) before the walk that
 * moves m nodes of shell r (low: into B; else out of the ball).  On an
 * unrolled torus whose window spans more than half a ring, the pair
 * sums take Lee distances; the low case also takes f in Lee distances
 * (each side's least, with no convexity needed), and the high case
 * keeps the L1 f, which is at least the Lee one, as an upper bound. */
static uint64_t walk_bound(struct mesh__l1near *x, const int c[3], int r,
			   uint32_t nb, uint32_t m, int low)
{
	enum { N = L1LINE_MAX_RADIUS + 1 };
	const int *dim = x->topo->dim;
	const uint16_t *L2 = line_cache(x, 2, c, r);
	const size_t Z = (size_t) dim[2];
	const int64_t n = nb; /* every axis's histogram holds the ball */
	int64_t sum[MESH_MAX_DIMS], fc[MESH_MAX_DIMS];
	int64_t below[MESH_MAX_DIMS];
	int64_t lo0[N], hi0[N], lo1[N], hi1[N];
	int64_t pairs = 0, acc = 0, f2, ring_f, v;
	int lo[MESH_MAX_DIMS], hi[MESH_MAX_DIMS], d, a, z, rz, step;
	int lee_z = 0;
	uint32_t left = m, ring, take, beyond;
	struct lee_sums lee;

	for (d = 0; d < MESH_MAX_DIMS; d++) {
		lo[d] = imax(0, c[d] - r);
		hi[d] = imin(dim[d] - 1, c[d] + r);
	}
	/* r <= lcap < HIST_PAD (the caller's test) */
	pairs = (int64_t) window_stats3(x->hist, c, r, nb, sum, fc, below);
	axis_steps2(x->hist, c, n, fc, below, r + 1, lo0, hi0, lo1, hi1);
	for (d = 0; x->rlin < r && d < MESH_MAX_DIMS; d++) {
		if (!x->ring[d] || hi[d] - lo[d] <= x->ring[d] / 2)
			continue; /* no pair is nearer the other way round */
		pairs -=
		    (int64_t) ring_cut(x->hist[d], lo[d], hi[d], x->ring[d]);
		if (!low)
			continue;
		lee_init(&lee, x->hist[d], lo[d], hi[d], x->ring[d]);
		if (d < 2)
			lee_lows(&lee, c[d], r + 1, d ? lo1 : lo0);
		else
			lee_z = 1; /* (axis 2 is the last) */
	}
	/* planes in walk order from the window's end: f_2 there, and the
	 * nodes at or beyond the plane (behind it for the next step) */
	step = low ? 1 : -1;
	z = low ? lo[2] : hi[2];
	f2 = low ? sum[2] - (int64_t) z * n : (int64_t) z * n - sum[2];
	beyond = x->hist[2][z];
	for (; left && z >= lo[2] && z <= hi[2]; z += step) {
		rz = r - (z < c[2] ? c[2] - z : z - c[2]);
		ring = (uint32_t) L2[(size_t) rz * Z + (size_t) z] -
		       (rz ? L2[(size_t) (rz - 1) * Z + (size_t) z] : 0u);
		take = ring < left ? ring : left;
		if (low) {
			for (a = 0, ring_f = INT64_MAX; a <= rz; a++)
				if (lo0[a] + lo1[rz - a] < ring_f)
					ring_f = lo0[a] + lo1[rz - a];
		} else {
			ring_f = imax64(hi0[rz] + fc[1], fc[0] + hi1[rz]);
		}
		acc +=
		    (int64_t) take * ((lee_z ? lee_f(&lee, z) : f2) + ring_f);
		left -= take;
		f2 += 2 * (int64_t) beyond - n;
		if (z + step >= lo[2] && z + step <= hi[2])
			beyond += x->hist[2][z + step];
	}
	v = pairs + (int64_t) x->lb[m] + (low ? acc : -acc);
	return v > 0 ? (uint64_t) v : 0;
}

/* The set itself, in the enumeration path's order: shells 0..r-1 whole,
 * then the first m nodes of shell r (ascending index on a mesh). */
static void write_set(struct mesh__l1near *x, const struct mesh_bitmap *f,
		      const int c[3], int r, uint32_t m, uint32_t *out)
{
	int lo[3], hi[3], s;
	uint32_t n = 0, got;

	offset_range(x->topo, c, lo, hi);
	for (s = 0; s <= r; s++) {
		got = gather_shell(x, f, c, lo, hi, s, s == r ? m : UINT32_MAX,
				   0);
		memcpy(out + n, x->shell, got * sizeof(*out));
		n += got;
	}
}

/* Whether to try the bound in Lee distances on this centre: on every
 * one while it prunes at least half of the recent tries (early in a
 * scan, whose best score is still high, it may not, and on a ring that
 * the balls nearly fill it stays loose), else on one in 8, so that the
 * rate is still sampled as the best score falls. */
static int ring_bound_wanted(struct mesh__l1near *x)
{
	if (!x->ring_auto || x->ring_tries < 64 ||
	    2 * x->ring_prunes >= x->ring_tries)
		return 1;
	return (++x->ring_skip & 7) == 0;
}

/* Counts a try; the counts halve every 128 tries, so they stay recent. */
static void ring_bound_count(struct mesh__l1near *x, int pruned)
{
	x->ring_prunes += (uint32_t) pruned;
	if (++x->ring_tries == 256) {
		x->ring_tries = 128;
		x->ring_prunes /= 2;
	}
}

/* The pair sum of the set in hist, axis by axis on the clipped windows
 * of radius r (Lee distances beyond radius rlin on a ring). */
static uint64_t split_pairs(const struct mesh__l1near *x, const int c[3], int r,
			    uint32_t k)
{
	uint64_t pairs = 0;
	int d;

	for (d = 0; d < MESH_MAX_DIMS; d++) {
		int lo = imax(0, c[d] - r),
		    hi = imin(x->topo->dim[d] - 1, c[d] + r);

		if (!x->tab[d])
			continue;
		pairs +=
		    r > x->rlin && x->ring[d]
			? ring_window_pairs(x->hist[d], lo, hi, k, x->ring[d])
			: window_pairs(x->hist[d], lo, hi, k);
	}
	return pairs;
}

/* mesh__l1near_score() on a mesh whose tables are built for f. */
static uint64_t fast_score(struct mesh__l1near *x, const struct mesh_bitmap *f,
			   const int c[3], uint32_t k, uint64_t bound,
			   uint32_t *out)
{
	uint32_t below, at, m, extra;
	uint64_t pairs = 0;
	int r, d, low, pruned;

	if (!k)
		return 0;
	r = find_radius(x, c, k, &below, &at);
	if (r > x->rlimit) { /* an unrolled torus: its ball would wrap */
		x->too_far = r;
		x->rguess = x->rlimit;
		return UINT64_MAX;
	}
	m = k - below;
	extra = at - k;   /* shell r nodes left out */
	low = m <= extra; /* cheaper to add m than to drop extra */
	if (x->axis0 == 0 && x->lcache[1] && x->lcache[2] && r <= x->lcap &&
	    x->lines_on)
		line_hist12(x, c, low ? r - 1 : r, r);
	else
		for (d = 0; d < MESH_MAX_DIMS; d++) {
			if (!x->tab[d] || d == x->axis0)
				continue;
			if (x->lcache[d] && r <= x->lcap && x->lines_on)
				line_hist(x, d, c, low ? r - 1 : r, r,
					  x->hist[d]);
			else
				slice_hist(x, d, c, low ? r - 1 : r, r,
					   x->hist[d]);
		}
	if (extra && bound != UINT64_MAX && x->lines_on && x->lcache[2] &&
	    r <= x->lcap && x->axis0 == 0 &&
	    (low ? m : extra) >= x->bound_walks &&
	    (r <= x->rlin || ring_bound_wanted(x))) {
		pruned = walk_bound(x, c, r, low ? below : at, low ? m : extra,
				    low) >= bound;
		if (r > x->rlin)
			ring_bound_count(x, pruned);
		if (pruned)
			return UINT64_MAX;
	}
	if (extra)
		shell_walk(x, f, c, r, low ? m : extra, low ? 1 : -1);
	if (x->tab[0] && x->tab[1] && x->tab[2] && r <= x->rlin &&
	    r <= HIST_PAD)
		pairs = window_pairs3(x->hist, c, r, k);
	else
		pairs = split_pairs(x, c, r, k);
	if (pairs >= bound)
		return UINT64_MAX;
	if (out)
		write_set(x, f, c, r, m, out);
	return pairs;
}

/* ------------------------------------------- ball patterns (issue 10)
 *
 * HOW IT WORKS: for small balls (at most 64 cells: radius 3 in 3D, 5 in
 * 2D), the free nodes of the ball of radius rp around a centre are
 * gathered into one 64-bit word, one x-row at a time (a shift and a
 * mask per row), bit i standing for cell poff[i]; in index order, the
 * patterns of a whole x-row of centres come from one bit transposition
 * instead (pattern_row()).  Cells are numbered in
 * node-index order (z, then y, then x), so "the lowest-index nodes of
 * the last shell" are its lowest set bits.  Ball counts are popcounts
 * against pball[r]; the set is the ball of radius R - 1 plus the lowest
 * m bits of shell R; its pair sum is, per axis, the sum over the gaps g
 * of L (k - L), L being the set's nodes on the low side of the gap (the
 * same integer as window_pairs() gives), counted by popcounts against
 * phalf[d][g] or from packed histograms, or for k <= 8 summed pair by
 * pair from pdist (see PDIST_MAX_K).
 * No table is read, so a decision whose centres all fit needs no
 * tables_build() either.  Centres whose ball of radius rp holds fewer
 * than k free nodes take fast_score(). */

/* pattern_score() takes a pair sum by cost (paired runs, 32^3 at 50%):
 * up to PDIST_MAX_K the k (k - 1) / 2 pairwise distances from a table;
 * then, up to PHIST_MAX_K, the set's coordinate histograms; beyond, 6 R
 * half-space popcounts. */
#define PDIST_MAX_K 8
#define PHIST_MAX_K 16

static int pop64(uint64_t v)
{
	v = v - ((v >> 1) & 0x5555555555555555ull);
	v = (v & 0x3333333333333333ull) + ((v >> 2) & 0x3333333333333333ull);
	v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (int) ((v * 0x0101010101010101ull) >> 56);
}

/* Cells of the ball of radius r (offsets only on axes longer than 1). */
static int ball_cells(const int *dim, int r)
{
	int dz, dy, rz, ry, n = 0, zr = dim[2] > 1 ? r : 0;

	for (dz = -zr; dz <= zr; dz++) {
		rz = r - (dz < 0 ? -dz : dz);
		ry = dim[1] > 1 ? rz : 0;
		for (dy = -ry; dy <= ry; dy++)
			n +=
			    dim[0] > 1 ? 2 * (rz - (dy < 0 ? -dy : dy)) + 1 : 1;
	}
	return n;
}

static void pattern_init(struct mesh__l1near *x)
{
	const int *dim = x->topo->dim;
	int r, dz, dy, dx, rz, ry, rx, zr, n = 0, d, g, dist, i, n2;
	uint64_t bit;

	for (r = 1; r < 31 && ball_cells(dim, r + 1) <= 64; r++)
		;
	x->rp = r;
	x->pcells = (uint32_t) ball_cells(dim, r);
	x->prow_at = x->prow_seen = -1;
	x->nrows = 0;
	zr = dim[2] > 1 ? r : 0;
	for (dz = -zr; dz <= zr; dz++) {
		rz = r - (dz < 0 ? -dz : dz);
		ry = dim[1] > 1 ? rz : 0;
		for (dy = -ry; dy <= ry; dy++) {
			rx = dim[0] > 1 ? rz - (dy < 0 ? -dy : dy) : 0;
			x->prow[x->nrows].dy = (int8_t) dy;
			x->prow[x->nrows].dz = (int8_t) dz;
			x->prow[x->nrows].rx = (int8_t) rx;
			x->prow[x->nrows++].pos = (uint8_t) n;
			for (dx = -rx; dx <= rx; dx++, n++) {
				x->pcell[n].shift = (uint8_t) (r + dx);
				x->poff[n][0] = (int8_t) dx;
				x->poff[n][1] = (int8_t) dy;
				x->poff[n][2] = (int8_t) dz;
			}
		}
	}
	for (g = 0, n2 = 0; g <= r; g++) {
		for (i = 0; i < x->nrows; i++) {
			dist = (x->prow[i].dy < 0 ? -x->prow[i].dy
						  : x->prow[i].dy) +
			       (x->prow[i].dz < 0 ? -x->prow[i].dz
						  : x->prow[i].dz);
			if (dist == g)
				x->pnear[n2++] = (uint8_t) i;
			x->prow[i].off =
			    x->prow[i].dz * (dim[1] + 2 * r) + x->prow[i].dy;
			for (dx = 0; dx <= 2 * x->prow[i].rx; dx++)
				x->pcell[x->prow[i].pos + dx].off =
				    x->prow[i].off;
		}
		x->pupto[g] = n2;
	}
	if (dim[0] + 2 * r <= 64)
		x->padrow = calloc((size_t) (dim[1] + 2 * r) *
				       (size_t) (dim[2] + 2 * r),
				   sizeof(*x->padrow));
	if (x->padrow)
		x->pplan = malloc((size_t) (r + 1) * 64 * sizeof(*x->pplan));
	if (x->padrow && !x->pplan) {
		free(x->padrow);
		x->padrow = NULL;
	}
	for (g = 0; x->pplan && g <= r; g++)
		for (n2 = 0; n2 < x->pupto[g]; n2++) {
			struct mesh__pgather *e = &x->pplan[g * 64 + n2];

			i = x->pnear[n2];
			/* A row within radius g keeps at least its centre
			 * cell; prow[i].rx is 0 on an x-extent of 1. */
			rx = imax(x->prow[i].rx - (r - g), 0);
			e->off = x->prow[i].off;
			e->shift = (uint8_t) (r - rx);
			e->dst =
			    (uint8_t) (x->prow[i].pos + x->prow[i].rx - rx);
			e->mask = (2ull << (2 * rx)) - 1;
		}
	memset(x->pball, 0, sizeof(x->pball));
	memset(x->phalf, 0, sizeof(x->phalf));
	/* histogram fields: 2 r + 1 per word, 8 bits at most (3D: 7 of 8
	 * bits; 2D: 11 of 5); 1D (63 fields) has none */
	x->pfield = imin(64 / (2 * r + 1), 8);
	for (g = 0, x->pones = 0; g <= 2 * r && x->pfield > 1; g++)
		x->pones |= 1ull << (x->pfield * g);
	for (n--; n >= 0; n--) {
		bit = 1ull << n;
		dist = 0;
		for (d = 0; d < MESH_MAX_DIMS; d++)
			dist +=
			    x->poff[n][d] < 0 ? -x->poff[n][d] : x->poff[n][d];
		for (g = dist; g <= r; g++)
			x->pball[g] |= bit;
		for (d = 0; d < MESH_MAX_DIMS; d++)
			for (g = x->poff[n][d]; g < r; g++)
				x->phalf[d][g + r] |= bit;
		for (d = 0; d < MESH_MAX_DIMS; d++)
			x->phist[d][n] = 1ull
					 << (x->pfield * (x->poff[n][d] + r));
		for (i = 0; i < (int) x->pcells; i++)
			for (d = 0, x->pdist[n][i] = 0; d < MESH_MAX_DIMS; d++)
				x->pdist[n][i] += (uint8_t) abs(x->poff[n][d] -
								x->poff[i][d]);
	}
}

/* The free cells of the ball of radius r <= rp around c, as a pattern
 * (the bits of cells farther than r stay 0). */
static uint64_t pattern_gather(const struct mesh__l1near *x,
			       const struct mesh_bitmap *f, const int c[3],
			       int r)
{
	const int *dim = x->topo->dim;
	const uint64_t *w = f->words;
	uint64_t pat = 0, v;
	uint32_t p;
	int i, j, y, z, rx, x0, lo, hi, len, s, cut = x->rp - r;

	if (x->padrow) {
		const uint64_t *row = x->padrow +
				      (c[2] + x->rp) * (dim[1] + 2 * x->rp) +
				      (c[1] + x->rp);

		const struct mesh__pgather *e = x->pplan + r * 64;

		for (j = 0; j < x->pupto[r]; j++, e++)
			pat |= ((row[e->off] >> (c[0] + e->shift)) & e->mask)
			       << e->dst;
		return pat;
	}
	for (i = 0; i < x->nrows; i++) {
		y = c[1] + x->prow[i].dy;
		z = c[2] + x->prow[i].dz;
		rx = x->prow[i].rx - cut;
		if (rx < 0 || y < 0 || y >= dim[1] || z < 0 || z >= dim[2])
			continue;
		x0 = c[0] - x->prow[i].rx; /* bit prow[i].pos */
		lo = imax(c[0] - rx, 0);
		hi = imin(c[0] + rx, dim[0] - 1);
		len = hi - lo + 1;
		p = ((uint32_t) z * (uint32_t) dim[1] + (uint32_t) y) *
			(uint32_t) dim[0] +
		    (uint32_t) lo;
		s = (int) (p & 63);
		v = w[p >> 6] >> s;
		if (s + len > 64)
			v |= w[(p >> 6) + 1] << (64 - s);
		v &= (1ull << len) - 1;
		pat |= v << (x->prow[i].pos + lo - x0);
	}
	return pat;
}

/* One round of transpose64(): swaps the off-diagonal blocks of side j
 * (bits m) of each 2j x 2j block of rows a[0..top). */
static inline void swap_blocks(uint64_t *a, int top, int j, uint64_t m)
{
	uint64_t t;
	int b, k;

	for (b = 0; b < top; b += 2 * j)
		for (k = b; k < b + j; k++) {
			t = ((a[k] >> j) ^ a[k + j]) & m;
			a[k] ^= t << j;
			a[k + j] ^= t;
		}
}

/* Transposes the bit matrix a[64] (bit j of a[i] to bit i of a[j]) in
 * six rounds of block swaps.  With half, only bits 0..31 of the rows
 * are set, so the first round is a merge and the columns end in
 * a[0..31]. */
static void transpose64(uint64_t *a, int half)
{
	int k, top = half ? 32 : 64;

	if (half)
		for (k = 0; k < 32; k++)
			a[k] |= a[k + 32] << 32;
	else
		swap_blocks(a, 64, 32, 0x00000000ffffffffull);
	swap_blocks(a, top, 16, 0x0000ffff0000ffffull);
	swap_blocks(a, top, 8, 0x00ff00ff00ff00ffull);
	swap_blocks(a, top, 4, 0x0f0f0f0f0f0f0f0full);
	swap_blocks(a, top, 2, 0x3333333333333333ull);
	swap_blocks(a, top, 1, 0x5555555555555555ull);
}

/* The patterns at radius rp of the centres (0..X - 1, c[1], c[2]) in
 * prowpat[]: word n holds cell n of every centre's ball (bit x for
 * centre x), one shift of its padded row, and a transposition turns
 * the words into patterns; about a fifth of a gather per centre. */
static __attribute__((noinline)) void pattern_row(struct mesh__l1near *x,
						  const int c[3])
{
	const int *dim = x->topo->dim;
	const uint64_t *row =
	    x->padrow + (c[2] + x->rp) * (dim[1] + 2 * x->rp) + (c[1] + x->rp);
	uint64_t *a = x->prowpat, lanes = dim[0] > 32 ? ~0ull : 0xffffffffull;
	uint32_t n;

	for (n = 0; n < x->pcells; n++)
		a[n] = (row[x->pcell[n].off] >> x->pcell[n].shift) & lanes;
	for (; n < 64; n++)
		a[n] = 0;
	transpose64(a, dim[0] <= 32);
}

/* The pattern of centre c at radius r or more (pattern_gather()).  In
 * index order the second centre of an x-row maps the whole row at once;
 * centres visited out of that order (a window) gather one by one. */
static inline uint64_t pattern_fetch(struct mesh__l1near *x,
				     const struct mesh_bitmap *f,
				     const int c[3], int r)
{
	int row = c[2] * x->topo->dim[1] + c[1];

	if (row != x->prow_at) {
		if (!x->padrow || row != x->prow_seen) {
			x->prow_seen = row;
			return pattern_gather(x, f, c, r);
		}
		pattern_row(x, c);
		x->prow_at = row;
	}
	return x->prowpat[c[0]];
}

/* Copies f's x-rows into padrow (see alloc_centre.h). */
static void pattern_prepare(struct mesh__l1near *x, const struct mesh_bitmap *f)
{
	const int *dim = x->topo->dim;
	int y, z, W = dim[1] + 2 * x->rp;
	uint32_t p = 0;

	x->prow_at = x->prow_seen = -1; /* a new map */
	if (!x->padrow)                 /* rows too long for one word */
		return;
	for (z = 0; z < dim[2]; z++)
		for (y = 0; y < dim[1]; y++, p += (uint32_t) dim[0])
			x->padrow[(z + x->rp) * W + y + x->rp] =
			    row_bits(f, p, dim[0]) << x->rp;
}

/* The pair sum of the cells p[0..k) (k <= 8) from the distance table,
 * written out: a loop per pair mispredicts and counts. */
static inline uint64_t pdist_sum(const struct mesh__l1near *x, const uint8_t *p,
				 uint32_t k)
{
	const uint8_t(*D)[64] = x->pdist, *r;
	uint64_t s = 0;

	switch (k) {
	case 8:
		r = D[p[7]];
		s += (uint64_t) r[p[0]] + r[p[1]] + r[p[2]] + r[p[3]] +
		     r[p[4]] + r[p[5]] + r[p[6]];
		/* fallthrough */
	case 7:
		r = D[p[6]];
		s += (uint64_t) r[p[0]] + r[p[1]] + r[p[2]] + r[p[3]] +
		     r[p[4]] + r[p[5]];
		/* fallthrough */
	case 6:
		r = D[p[5]];
		s += (uint64_t) r[p[0]] + r[p[1]] + r[p[2]] + r[p[3]] + r[p[4]];
		/* fallthrough */
	case 5:
		r = D[p[4]];
		s += (uint64_t) r[p[0]] + r[p[1]] + r[p[2]] + r[p[3]];
		/* fallthrough */
	case 4:
		r = D[p[3]];
		s += (uint64_t) r[p[0]] + r[p[1]] + r[p[2]];
		/* fallthrough */
	case 3:
		s += (uint64_t) D[p[2]][p[0]] + D[p[2]][p[1]];
		/* fallthrough */
	case 2:
		s += D[p[1]][p[0]];
		/* fallthrough */
	default:
		return s;
	}
}

/* The pair sum along one axis of a set of k nodes from its histogram
 * h, field g counting the nodes at offset g - rp: a multiplication
 * gives every field its prefix sum L, the nodes at or below the gap,
 * and each gap adds L (k - L). */
static inline uint64_t field_pairs(const struct mesh__l1near *x, uint64_t h,
				   uint64_t k)
{
	uint64_t L, sum = 0, low = h * x->pones, mask = (1ull << x->pfield) - 1;
	int g;

	for (g = 0; g < 2 * x->rp; g++, low >>= x->pfield) {
		L = low & mask;
		sum += L * (k - L);
	}
	return sum;
}

/* field_pairs() on a 3D mesh's patterns (rp 3, fields of 8 bits). */
static inline uint64_t field_pairs_3d(uint64_t h, uint64_t k)
{
	uint64_t low = h * 0x0001010101010101ull, L, sum = 0;
	int g;

	for (g = 0; g < 6; g++) {
		L = (low >> (8 * g)) & 0xff;
		sum += L * (k - L);
	}
	return sum;
}

/* fast_score() for a centre whose set lies in the ball of radius rp:
 * returns 1 and the score (UINT64_MAX if >= bound) in *score, or 0 if
 * the ball holds fewer than k free nodes. */
static int pattern_score(struct mesh__l1near *x, const struct mesh_bitmap *f,
			 const int c[3], uint32_t k, uint64_t bound,
			 uint32_t *out, uint64_t *score)
{
	const int *dim = x->topo->dim;
	uint64_t pat, inner, sh, sel, b, pairs = 0, L;
	int R, m, ns, d, g, i;
	uint32_t n = 0, nr, nb;
	uint64_t h[MESH_MAX_DIMS] = { 0, 0, 0 };
	uint8_t pos[PDIST_MAX_K];

	if (k < 1 || k > 64)
		return 0;
	/* The previous centre's radius first: rows beyond it are skipped.
	 * Then up or down to the least R with nr = ball(R) >= k; nb is
	 * ball(R - 1), each count taken once. */
	R = imin(imax(x->pguess, 1), x->rp);
	pat = pattern_fetch(x, f, c, R);
	nr = (uint32_t) pop64(pat & x->pball[R]);
	if (nr < k) {
		if (R == x->rp)
			return 0;
		pat = pattern_fetch(x, f, c, x->rp);
		if ((uint32_t) pop64(pat & x->pball[x->rp]) < k)
			return 0;
		do {
			nb = nr;
			nr = (uint32_t) pop64(pat & x->pball[++R]);
		} while (nr < k);
	} else {
		nb = (uint32_t) pop64(pat & x->pball[R - 1]);
		while (nb >= k) {
			nr = nb;
			nb = --R ? (uint32_t) pop64(pat & x->pball[R - 1]) : 0;
		}
	}
	x->pguess = R;
	inner = R ? pat & x->pball[R - 1] : 0;
	sh = pat & x->pball[R] & ~inner;
	m = (int) (k - nb);
	ns = (int) (nr - nb);
	if (2 * m <= ns) { /* keep the lowest m bits */
		for (b = 0; m; m--) {
			b |= sh & (~sh + 1);
			sh &= sh - 1;
		}
		sh = b;
	} else { /* drop the highest ns - m bits */
		for (ns -= m; ns; ns--)
			sh &= ~(1ull << (63 - __builtin_clzll(sh)));
	}
	sel = inner | sh;
	if (k <= PDIST_MAX_K) {
		for (b = sel, n = 0; b; b &= b - 1)
			pos[n++] = (uint8_t) __builtin_ctzll(b);
		pairs = pdist_sum(x, pos, k);
		n = 0;
	} else if (k <= PHIST_MAX_K && k < 1u << x->pfield) {
		for (b = sel; b; b &= b - 1) {
			i = __builtin_ctzll(b);
			h[0] += x->phist[0][i];
			h[1] += x->phist[1][i];
			h[2] += x->phist[2][i];
		}
		if (x->rp == 3 && x->pfield == 8) /* 3D: constant shifts */
			pairs = field_pairs_3d(h[0], k) +
				field_pairs_3d(h[1], k) +
				field_pairs_3d(h[2], k);
		else
			for (d = 0; d < MESH_MAX_DIMS; d++)
				if (dim[d] > 1)
					pairs += field_pairs(x, h[d], k);
	} else {
		for (d = 0; d < MESH_MAX_DIMS; d++)
			for (g = -R; dim[d] > 1 && g < R; g++) {
				L = (uint64_t) pop64(sel &
						     x->phalf[d][g + x->rp]);
				pairs += L * (k - L);
			}
	}
	if (pairs >= bound) {
		*score = UINT64_MAX;
		return 1;
	}
	for (R = 0; out && R <= x->rp && n < k; R++) {
		b = sel & x->pball[R] & (R ? ~x->pball[R - 1] : ~0ull);
		for (; b; b &= b - 1) {
			i = __builtin_ctzll(b);
			out[n++] = (uint32_t) (c[0] + x->poff[i][0]) +
				   (uint32_t) dim[0] *
				       ((uint32_t) (c[1] + x->poff[i][1]) +
					(uint32_t) dim[1] *
					    (uint32_t) (c[2] + x->poff[i][2]));
		}
	}
	*score = pairs;
	return 1;
}

/* centre_score() on a mesh with the table path. */
static uint64_t fast_centre_score(struct mesh__l1near *x,
				  const struct mesh_bitmap *f, const int c[3],
				  uint32_t k, uint64_t bound, uint32_t *out)
{
	uint64_t s;

	/* Patterns are tried while they mostly fit: a miss costs a gather
	 * or two before the fallback. */
	x->lines_on = x->pmiss >= 64 + x->phit / 4;
	if (!x->lines_on) {
		if (pattern_score(x, f, c, k, bound, out, &s)) {
			x->phit++;
			return s;
		}
		x->pmiss++;
	}
	/* Building the tables costs about as much as enumerating shells
	 * for a few dozen small balls, so the first few centres whose balls
	 * are too sparse for a pattern (near corners, say) enumerate. */
	if (x->built >= 0) {
		if (x->built < x->enum_max) {
			x->built++;
			return mesh__l1near_score(x, f, c, k, bound, out);
		}
		tables_build(x, f);
		x->built = -1;
	}
	return fast_score(x, f, c, k, bound, out);
}

/* ------------------------------------------- tori (issue 10, round 7)
 *
 * HOW IT WORKS: a torus is searched on an unrolled copy, a mesh that
 * repeats it pad[d] nodes beyond both ends of each wrapped axis.  Around
 * the copy's c + pad, a ball of radius R <= pad holds the same free nodes
 * as the torus's ball around c, in the same offset order, so the copy's
 * ball patterns and table path give the torus's set.  Two things differ:
 * a pair farther apart than half a ring is nearer the other way round
 * (ring_window_pairs(), beyond radius rlin, where the bound before the
 * walk is also off), and a centre whose ball needs R > pad takes the
 * shell enumeration on the torus itself, from radius pad + 1 on: the
 * copy's tables give the histograms of its ball of radius pad
 * (copy_enum(), issue 10, tenth round).
 * A ring of length L pads by (L - 1) / 2 at most (a longer pad would
 * hold a node twice), so one short ring (Titan's 16 among 25 and 24)
 * caps the whole copy.  The window lifts that cap for one axis w: a
 * second copy pads the other wrapped axes as before but holds w as one
 * turn of its ring, coordinates c[w] - (L - 1) / 2 .. c[w] + L / 2 (the
 * Lee offsets) as an open axis of length L.  Its balls, clipped there
 * as on any mesh, are the torus's balls of any radius on w, in offset
 * order; pairs along w still take ring_window_pairs().  The window
 * serves only centres with that c[w], so a decision that takes it
 * (balls at the map's mean density reach the copy's pad) visits the
 * centres one coordinate of w at a time, maps the window and builds its
 * tables L times, and keeps the lowest centre index among equal scores
 * itself (scan_centre()). (issue 10, ninth round) */

/* Pad per wrapped axis: balls up to this radius use the unrolled copy. */
#define UNROLL_PAD 13
/* A 2D copy is small, and its balls hold few nodes per radius: it pads
 * up to the largest radius of the line caches and histogram margins. */
#define UNROLL_PAD_2D L1LINE_MAX_RADIUS
/* The copy's size limit, and its line caches' (its slices are longer). */
#define UNROLL_MAX_NODES ((uint64_t) 1 << 22)
#define UNROLL_LINE_ENTRIES ((size_t) 1 << 22)

static int pad_cap(const struct mesh_topo *t)
{
	return t->ndims < 3 ? UNROLL_PAD_2D : UNROLL_PAD;
}

/* Pad of axis d in the copies: 0 unless it wraps. */
static int ring_pad(const struct mesh_topo *t, int d)
{
	return t->wrap[d] && t->dim[d] > 1
		   ? imin((t->dim[d] - 1) / 2, pad_cap(t))
		   : 0;
}

/* The near copy's pads: a ball of this radius holds 575 nodes in 3D,
 * so at 50% near_wanted() takes it up to k = 260 or so. */
#define NEAR_PAD 7

/* A copy of the torus that repeats every wrapped axis but skip (-1:
 * none) ring_pad(), at most cap, nodes beyond both ends (its pad[]);
 * axis skip keeps its length.
 * *out stays NULL (and 0 is returned) where the copy would not pay:
 * balls could not grow past radius 1 in it, it would be too large, or
 * it has no table path. */
static int copy_init(struct mesh__l1near *x, int skip, int cap,
		     struct mesh_topo **topo, struct mesh_bitmap **free_map,
		     struct mesh__l1near **out)
{
	const struct mesh_topo *t = x->topo;
	int dim[MESH_MAX_DIMS], pad[MESH_MAX_DIMS] = { 0, 0, 0 };
	int d, rlimit = INT_MAX, rlin = INT_MAX, rc;
	struct mesh__l1near *u;

	*out = NULL;
	for (d = 0; d < MESH_MAX_DIMS; d++) {
		dim[d] = t->dim[d];
		if (!t->wrap[d] || t->dim[d] < 2)
			continue;
		rlin = imin(rlin, t->dim[d] / 4);
		if (d == skip)
			continue;
		pad[d] = imin(ring_pad(t, d), cap);
		rlimit = imin(rlimit, pad[d]);
		dim[d] += 2 * pad[d];
	}
	/* balls of radius 1 are cheap to enumerate */
	if (rlimit < 2 || (skip < 0 && rlimit == INT_MAX) ||
	    (uint64_t) dim[0] * (uint64_t) dim[1] * (uint64_t) dim[2] >
		UNROLL_MAX_NODES)
		return 0;
	rc = mesh_topo_create(t->ndims, dim, NULL, topo);
	if (!rc)
		rc = mesh_bitmap_create((*topo)->nodes, free_map);
	u = rc ? NULL : malloc(sizeof(*u));
	if (!u)
		return rc ? rc : MESH_ENOMEM;
	/* the window's slices are long and thin: its own axis is short */
	rc = l1near_init(u, *topo, rlimit, UNROLL_LINE_ENTRIES,
			 skip < 0 ? ROT_RATIO : 2 * ROT_RATIO);
	if (rc) {
		free(u);
		return rc;
	}
	if (!u->fast) { /* no table path on the copy either */
		mesh__l1near_free(u);
		free(u);
		return 0;
	}
	u->rlin = rlin;
	u->ring_auto = 1;
	memcpy(u->pad, pad, sizeof(pad));
	for (d = 0; d < MESH_MAX_DIMS; d++)
		u->ring[d] = t->wrap[d] && t->dim[d] > 1 ? t->dim[d] : 0;
	/* patterns sum pairs as on a mesh, and fill no wider ball */
	if (u->rp > rlin || u->rp > rlimit)
		u->rp = 0;
	*out = u;
	return 0;
}

static int unrolled_init(struct mesh__l1near *x)
{
	int d, most = 0, rc;

	for (d = 0; d < MESH_MAX_DIMS; d++)
		most = imax(most, ring_pad(x->topo, d));
	rc = copy_init(x, -1, INT_MAX, &x->unr_topo, &x->unr_free, &x->unr);
	if (!rc && x->unr && most > NEAR_PAD)
		rc = copy_init(x, -1, NEAR_PAD, &x->near_topo, &x->near_free,
			       &x->near);
	return rc;
}

/* The window's axis: the wrapped axis of the least pad, if every other
 * wrapped axis has a larger one (a window on one of two equally short
 * rings would not let balls grow); else -1. */
static int window_axis(const struct mesh_topo *t)
{
	int d, w = -1, pad, least = pad_cap(t), second = INT_MAX;

	for (d = 0; d < MESH_MAX_DIMS; d++) {
		if (!t->wrap[d] || t->dim[d] < 2)
			continue;
		pad = ring_pad(t, d);
		if (pad < least) {
			second = imin(second, least);
			least = pad;
			w = d;
		} else {
			second = imin(second, pad);
		}
	}
	return w >= 0 && least < second ? w : -1;
}

/* The window's tables of its own axis d, twice over (see share_tab). */
static int share_init(struct mesh__l1near *u, int d)
{
	size_t n = u->stride[d] * (size_t) u->topo->dim[d];
	uint16_t *t = malloc(2 * n * sizeof(*t));

	if (!t)
		return MESH_ENOMEM;
	free(u->tab[d]);
	u->tab[d] = u->share_tab = t;
	u->share_axis = d;
	u->share_at = -1;
	if (u->sstep[d] == 1) /* interleaved: 2 L lanes per entry */
		u->estep[d] *= 2;
	return 0;
}

static int window_init(struct mesh__l1near *x)
{
	int rc, w = window_axis(x->topo);

	if (w < 0)
		return 0;
	x->win_axis = w;
	rc = copy_init(x, w, INT_MAX, &x->win_topo, &x->win_free, &x->win);
	if (!rc && x->win)
		rc = mesh_bitmap_create(x->topo->nodes, &x->win_ties);
	if (!rc && x->win && x->win->tab[w])
		rc = share_init(x->win, w);
	return rc;
}

/* The copy that scores this decision's centres: the window, or the
 * unrolled copy in use (the near one or the full one); *uf its free
 * map. */
static struct mesh__l1near *copy_in_use(const struct mesh__l1near *x,
					int window, struct mesh_bitmap **uf)
{
	if (window) {
		*uf = x->win_free;
		return x->win;
	}
	if (x->near_on) {
		*uf = x->near_free;
		return x->near;
	}
	*uf = x->unr_free;
	return x->unr;
}

/* Copy coordinate on copy u = torus coordinate + origin[d], modulo the
 * ring on the window's axis, whose centre coordinate win_at sits at
 * (L - 1) / 2. */
static void copy_origin(const struct mesh__l1near *x,
			const struct mesh__l1near *u, int window,
			int origin[MESH_MAX_DIMS])
{
	int d, w = x->win_axis;

	for (d = 0; d < MESH_MAX_DIMS; d++)
		origin[d] = u->pad[d];
	if (window)
		origin[w] = (x->topo->dim[w] - 1) / 2 - x->win_at;
}

/* Bits i = 0..U - 1 of the copy's row at p (zero) from bits (i - P)
 * mod X of the torus's row at row, in runs of up to 64 that neither
 * wrap nor cross the row's end. */
static void copy_row(struct mesh_bitmap *uf, uint32_t p, int U,
		     const struct mesh_bitmap *f, uint32_t row, int X, int P)
{
	uint64_t *w = uf->words, v;
	uint32_t d;
	int i = 0, src, run;

	while (i < U) {
		src = wrap_coord(i - P, X);
		run = imin(imin(U - i, X - src), 64);
		v = row_bits(f, row + (uint32_t) src, run);
		d = p + (uint32_t) i;
		w[d >> 6] |= v << (d & 63);
		if ((d & 63) + (uint32_t) run > 64)
			w[(d >> 6) + 1] |= v >> (64 - (d & 63));
		i += run;
	}
}

/* A copy's free map from the torus's, an x-row at a time. */
static void copy_map(const struct mesh__l1near *x, const struct mesh_topo *u,
		     struct mesh_bitmap *uf, const int origin[MESH_MAX_DIMS],
		     const struct mesh_bitmap *f)
{
	const struct mesh_topo *t = x->topo;
	const int X = t->dim[0], P = origin[0], U = u->dim[0];
	uint64_t *w = uf->words, v;
	uint32_t p = 0, row;
	int y, z, q[3];

	mesh_bitmap_fill(uf, false);
	for (z = 0; z < u->dim[2]; z++)
		for (y = 0; y < u->dim[1]; y++, p += (uint32_t) U) {
			q[1] = wrap_coord(y - origin[1], t->dim[1]);
			q[2] = wrap_coord(z - origin[2], t->dim[2]);
			row = ((uint32_t) q[1] +
			       (uint32_t) q[2] * (uint32_t) t->dim[1]) *
			      (uint32_t) X;
			if (U > 64 || U != X + 2 * P) { /* or x is the window */
				copy_row(uf, p, U, f, row, X, P);
				continue;
			}
			v = row_bits(f, row, X);
			if (P) /* x - P for x < P, x, then x + X */
				v = v >> (X - P) | v << P |
				    (v & ((1ull << P) - 1)) << (P + X);
			w[p >> 6] |= v << (p & 63);
			if ((p & 63) + (uint32_t) U > 64)
				w[(p >> 6) + 1] |= v >> (64 - (p & 63));
		}
}

static void unrolled_map(struct mesh__l1near *x, const struct mesh_bitmap *f)
{
	int origin[MESH_MAX_DIMS];
	struct mesh_bitmap *uf;
	const struct mesh__l1near *u = copy_in_use(x, 0, &uf);

	copy_origin(x, u, 0, origin);
	copy_map(x, u->topo, uf, origin, f);
}

static void decision_start(struct mesh__l1near *x,
			   const struct mesh_bitmap *free_map, uint32_t k);

/* The window for the centres whose coordinate on its axis is j. */
static void window_map(struct mesh__l1near *x, const struct mesh_bitmap *f,
		       int j)
{
	int origin[MESH_MAX_DIMS];

	x->win_at = j;
	x->win->share_now = j;
	copy_origin(x, x->win, 1, origin);
	copy_map(x, x->win_topo, x->win_free, origin, f);
	decision_start(x->win, x->win_free, x->win_k);
	x->win->enum_max = 0; /* the copy's shells past pad are wrong */
}

static uint64_t centre_score(struct mesh__l1near *x,
			     const struct mesh_bitmap *f, const int c[3],
			     uint32_t k, uint64_t bound, uint32_t *out);

/* Folds copy u's ball of radius r around cu (c on the torus, shifted by
 * origin) into the torus's histograms; returns its free nodes, *dsum
 * their distances to c.  For r = pad + 1 on an axis whose pad is a half
 * ring, the copy's ball reaches one node past it on either side, and
 * such a tip is a node the ball holds already (at -L / 2 the one at
 * L / 2; on an odd ring, at -(pad + 1) the one at pad, and at pad + 1
 * the one at -pad): it is taken out again. */
static uint32_t copy_ball(struct mesh__l1near *x, const struct mesh__l1near *u,
			  const struct mesh_bitmap *uf, const int c[3],
			  const int cu[3], const int origin[3], int r,
			  uint64_t *dsum)
{
	uint32_t n = 0, *h;
	int d, e, i, off, side, q[MESH_MAX_DIMS];

	for (d = 0; d < MESH_MAX_DIMS; d++)
		if (u->tab[d])
			n = slice_hist(u, d, cu, r, r, u->hist[d]);
	hist_clear(x);
	*dsum = 0;
	for (d = 0; d < MESH_MAX_DIMS; d++) {
		if (!u->tab[d]) { /* an axis of length 1 */
			x->hist[d][0] = n;
			continue;
		}
		h = u->hist[d];
		for (i = imax(0, cu[d] - r);
		     i <= imin(u->topo->dim[d] - 1, cu[d] + r); i++) {
			off = i - cu[d];
			x->hist[d][wrap_coord(i - origin[d],
					      x->topo->dim[d])] += h[i];
			*dsum += (uint64_t) (off < 0 ? -off : off) * h[i];
		}
	}
	for (d = 0; d < MESH_MAX_DIMS; d++) {
		if (u->topo->dim[d] == x->topo->dim[d] || r <= u->pad[d])
			continue; /* not padded, or no tip */
		for (side = -1; side <= 1; side += 2) {
			memcpy(q, cu, sizeof(q));
			q[d] += side * r;
			/* an even ring's second tip only if both are there */
			if (q[d] < 0 || q[d] >= u->topo->dim[d] ||
			    (x->topo->dim[d] % 2 == 0 &&
			     (side > 0 || cu[d] + r >= u->topo->dim[d])) ||
			    !mesh_bitmap_test(uf, mesh_topo_index(u->topo, q)))
				continue;
			n--;
			*dsum -= (uint64_t) r;
			for (e = 0; e < MESH_MAX_DIMS; e++)
				x->hist[e][e == d ? wrap_coord(q[d] - origin[d],
							       x->topo->dim[d])
						  : c[e]]--;
		}
	}
	return n;
}

/* Whether copy_ball() can give the ball of radius rlimit + 1 on u: every
 * padded axis that limits it pads by half its ring (a capped pad
 * leaves the next node off the copy). */
static int copy_grows(const struct mesh__l1near *x,
		      const struct mesh__l1near *u)
{
	int d;

	for (d = 0; d < MESH_MAX_DIMS; d++)
		if (u->topo->dim[d] != x->topo->dim[d] &&
		    u->pad[d] == u->rlimit &&
		    u->pad[d] != (x->topo->dim[d] - 1) / 2)
			return 0;
	return 1;
}

/* mesh__l1near_score() (without the set) for a centre c whose ball
 * outgrew copy u (free maps f, of the torus, and uf; cu: c on u, origin: copy_origin()): the
 * copy's ball of radius rlimit + 1 (less its tips), or else rlimit, is
 * the torus's, so its histograms, read from u's tables in O(rlimit) per
 * axis, replace the enumeration's first shells, and the enumeration goes
 * on from there.  The ball of rlimit + 1 serves only if it holds fewer
 * than k (the enumeration cuts the last shell itself), which the copy's
 * own radius (too_far) tells in most cases. */
static uint64_t copy_enum(struct mesh__l1near *x, struct mesh__l1near *u,
			  const struct mesh_bitmap *f,
			  const struct mesh_bitmap *uf, const int c[3],
			  const int cu[3], const int origin[3], uint32_t k,
			  uint64_t bound)
{
	const int p = u->rlimit;
	uint64_t dsum;
	uint32_t n;

	/* the copy's ball of p + 1 holds the torus's and its tips, so it
	 * has fewer than k nodes where the copy's radius is larger */
	if (u->too_far > p + 1 && copy_grows(x, u)) {
		n = copy_ball(x, u, uf, c, cu, origin, p + 1, &dsum);
		return enum_from(x, f, c, k, bound, NULL, p + 2, n, dsum);
	}
	n = copy_ball(x, u, uf, c, cu, origin, p, &dsum);
	return enum_from(x, f, c, k, bound, NULL, p + 1, n, dsum);
}

/* centre_score() on a torus through copy u (free map uf), the window
 * if window.  It scores on the copy through centre_score() again, so
 * that fast_centre_score() keeps one call site and stays inlined there;
 * and it stays out of centre_score(), the meshes' hot path, which it
 * otherwise moved enough to cost meshes 6-9% at k = 8 (same work by
 * callgrind; tenth round). */
static __attribute__((noinline)) uint64_t
copy_score(struct mesh__l1near *x, const struct mesh_bitmap *f, int window,
	   const int c[3], uint32_t k, uint64_t bound, uint32_t *out)
{
	struct mesh_bitmap *uf;
	struct mesh__l1near *u = copy_in_use(x, window, &uf);
	int cu[MESH_MAX_DIMS], q[MESH_MAX_DIMS], origin[MESH_MAX_DIMS], d;
	uint64_t s;
	uint32_t i;

	if (window && c[x->win_axis] != x->win_at)
		window_map(x, f, c[x->win_axis]);
	copy_origin(x, u, window, origin);
	for (d = 0; d < MESH_MAX_DIMS; d++)
		cu[d] = c[d] + origin[d];
	u->too_far = 0;
	s = centre_score(u, uf, cu, k, bound, out ? x->taken : NULL);
	if (u->too_far) {
		s = copy_enum(x, u, f, uf, c, cu, origin, k, bound);
		/* the set only for a centre that wins so far */
		return out && s < bound
			   ? mesh__l1near_score(x, f, c, k, bound, out)
			   : s;
	}
	for (i = 0; out && s < bound && i < k; i++) {
		mesh_topo_coords(u->topo, x->taken[i], q);
		for (d = 0; d < MESH_MAX_DIMS; d++)
			q[d] = wrap_coord(q[d] - origin[d], x->topo->dim[d]);
		out[i] = mesh_topo_index(x->topo, q);
	}
	return s;
}

static uint64_t centre_score(struct mesh__l1near *x,
			     const struct mesh_bitmap *f, const int c[3],
			     uint32_t k, uint64_t bound, uint32_t *out)
{
	if (x->fast)
		return fast_centre_score(x, f, c, k, bound, out);
	if (x->win_on || x->unr)
		return copy_score(x, f, x->win_on, c, k, bound, out);
	return mesh__l1near_score(x, f, c, k, bound, out);
}

/* Coordinates of the next node in index order. */
static void next_coords(const struct mesh_topo *t, int c[3])
{
	if (++c[0] < t->dim[0])
		return;
	c[0] = 0;
	if (++c[1] < t->dim[1])
		return;
	c[1] = 0;
	c[2]++;
}

/* The free nodes in a ball of radius r by a binomial model of f (each
 * node free with f's share), devs standard deviations below the mean. */
static double ball_free_low(const struct mesh__l1near *x,
			    const struct mesh_bitmap *f, int r, double devs)
{
	double p = (double) mesh_bitmap_count(f) / x->topo->nodes;
	double mean = ball_cells(x->topo->dim, r) * p;

	return mean - devs * sqrt(mean * (1 - p));
}

/* Whether the decision takes the window: when more than about one
 * centre in six would need a larger ball than the unrolled copy holds
 * (by a binomial model of the free nodes in a ball of the copy's pad;
 * the window's L table builds cost about that many fallbacks to the
 * enumeration), or when there is no unrolled copy.  Either gives the
 * same answers. */
static int window_wanted(const struct mesh__l1near *x,
			 const struct mesh_bitmap *f, uint32_t k)
{
	if (x->win_mode)
		return x->win_mode > 0;
	if (!x->unr)
		return 1;
	return k > ball_free_low(x, f, x->unr->rlimit, 1);
}

/* Whether the decision takes the near copy: when at most about one
 * centre in 40 would need a larger ball than it holds (two deviations
 * below the mean free count of a ball of its pad); larger balls start
 * from its ball (copy_enum()), so either gives the same answers. */
static int near_wanted(const struct mesh__l1near *x,
		       const struct mesh_bitmap *f, uint32_t k)
{
	if (x->near_mode)
		return x->near_mode > 0;
	return k <= ball_free_low(x, f, x->near->rlimit, 2);
}

/* Next centre in window order: index order over the other axes, then
 * the window axis's coordinate; 0 after the last. */
static int window_next(const struct mesh_topo *t, int w, int c[3])
{
	int d;

	for (d = 0; d < MESH_MAX_DIMS; d++) {
		if (d == w)
			continue;
		if (++c[d] < t->dim[d])
			return 1;
		c[d] = 0;
	}
	return ++c[w] < t->dim[w];
}

/* Per decision: no tables yet; patterns while k fits in one. */
static void decision_start(struct mesh__l1near *x,
			   const struct mesh_bitmap *free_map, uint32_t k)
{
	/* an enumeration visits a ball of >= k cells */
	uint32_t most = k ? x->topo->nodes / (16 * k) : 31;

	struct mesh__l1near *u;
	struct mesh_bitmap *uf;

	if (x->unr)
		x->unr->ring_tries = x->unr->ring_prunes = 0;
	if (x->near)
		x->near->ring_tries = x->near->ring_prunes = 0;
	if (x->win) {
		x->win->ring_tries = x->win->ring_prunes = 0;
		x->win->share_at = -1; /* a new map: share_tab is stale */
	}
	x->win_on = x->win && window_wanted(x, free_map, k);
	x->near_on = !x->win_on && x->near && near_wanted(x, free_map, k);
	if (x->win_on) {
		x->win_at = -1; /* mapped by the first centre */
		x->win_k = k;
	} else if (x->unr) {
		u = copy_in_use(x, 0, &uf);
		unrolled_map(x, free_map);
		decision_start(u, uf, k);
		u->enum_max = 0; /* the copy's shells past pad are wrong */
	}
	x->built = 0;
	x->enum_max = most < 31 ? (int) most : 31;
	x->phit = 0;
	x->pmiss = x->rp && k <= x->pcells ? 0 : INT32_MAX;
	if (!x->pmiss)
		pattern_prepare(x, free_map);
}

/* Scores centre i (coordinates c) against the best so far (*best, at
 * centre *best_i), which it beats with a lower score, or with the same
 * score and a lower index: the window visits centres out of index
 * order. */
static void scan_centre(struct mesh__l1near *x,
			const struct mesh_bitmap *free_map, uint32_t k,
			uint32_t i, const int c[3], uint64_t *best,
			uint32_t *best_i, uint32_t *out)
{
	uint64_t bound = *best, s;

	if (i < *best_i && bound != UINT64_MAX)
		bound++;
	s = centre_score(x, free_map, c, k, bound, out);
	if (s < bound) {
		*best = s;
		*best_i = i;
	}
}

int mesh__centre_free(const void *ctx, uint32_t node, const int c[3])
{
	(void) c;
	return mesh_bitmap_test(ctx, node);
}

/* The scan in index order over the set bits of centres, an x-row (at
 * most 64 nodes) at a time: no test per node. */
static uint64_t scan_rows(struct mesh__l1near *x,
			  const struct mesh_bitmap *free_map,
			  const struct mesh_bitmap *centres, uint32_t k,
			  uint64_t best, uint32_t *out)
{
	const struct mesh_topo *t = x->topo;
	int c[3] = { 0, 0, 0 };
	uint32_t p;
	uint64_t bits, s;

	for (p = 0; p < t->nodes; p += (uint32_t) t->dim[0]) {
		for (bits = row_bits(centres, p, t->dim[0]); bits;
		     bits &= bits - 1) {
			c[0] = __builtin_ctzll(bits);
			/* in index order a later equal score never wins */
			s = centre_score(x, free_map, c, k, best, out);
			if (s < best)
				best = s;
		}
		if (++c[1] == t->dim[1]) {
			c[1] = 0;
			c[2]++;
		}
	}
	return best;
}

uint64_t mesh__l1near_best(struct mesh__l1near *x,
			   const struct mesh_bitmap *free_map, uint32_t k,
			   mesh__centre_pred pred, const void *ctx,
			   uint32_t *out)
{
	const struct mesh_topo *t = x->topo;
	uint64_t best = UINT64_MAX, s;
	uint32_t i, best_i = 0;
	int c[3];

	decision_start(x, free_map, k);
	/* A first bound from a centre in the middle of the mesh, so that
	 * bounds prune from the start; the scan below still finds the
	 * lowest score and its lowest-index centre (that centre included;
	 * best_i 0 lets no centre tie with this bound). */
	for (i = 0; i < MESH_MAX_DIMS; i++)
		c[i] = t->dim[i] / 2;
	if (x->win_on) /* where the scan starts: one window fewer */
		c[x->win_axis] = 0;
	i = mesh_topo_index(t, c);
	if (!pred || pred(ctx, i, c)) {
		s = centre_score(x, free_map, c, k, UINT64_MAX, NULL);
		if (s != UINT64_MAX)
			best = s + 1;
	}
	c[0] = c[1] = c[2] = 0;
	if (x->win_on) {
		do {
			i = mesh_topo_index(t, c);
			if (!pred || pred(ctx, i, c))
				scan_centre(x, free_map, k, i, c, &best,
					    &best_i, out);
		} while (window_next(t, x->win_axis, c));
		return best;
	}
	if (pred == mesh__centre_free && t->dim[0] <= 64)
		return scan_rows(x, free_map, ctx, k, best, out);
	for (i = 0; i < t->nodes; i++, next_coords(t, c)) {
		if (pred && !pred(ctx, i, c))
			continue;
		/* in index order a later equal score never wins */
		s = centre_score(x, free_map, c, k, best, out);
		if (s < best)
			best = s;
	}
	return best;
}

int mesh__l1near_ties(struct mesh__l1near *x,
		      const struct mesh_bitmap *free_map, uint32_t k,
		      mesh__centre_pred pred, const void *ctx, uint64_t best,
		      uint32_t *buf, int (*cb)(void *, const uint32_t *),
		      void *cb_ctx)
{
	const struct mesh_topo *t = x->topo;
	uint32_t i;
	int c[3] = { 0, 0, 0 };

	decision_start(x, free_map, k);
	if (x->win_on) {
		/* the window finds the ties; their sets go to cb in centre
		 * order, by the shell enumeration */
		mesh_bitmap_fill(x->win_ties, false);
		do {
			i = mesh_topo_index(t, c);
			if ((!pred || pred(ctx, i, c)) &&
			    centre_score(x, free_map, c, k, best + 1, NULL) ==
				best)
				mesh_bitmap_set(x->win_ties, i);
		} while (window_next(t, x->win_axis, c));
		c[x->win_axis] = 0;
	}
	for (i = 0; i < t->nodes; i++, next_coords(t, c)) {
		if (x->win_on) {
			if (mesh_bitmap_test(x->win_ties, i) &&
			    mesh__l1near_score(x, free_map, c, k, best + 1,
					       buf) == best &&
			    cb(cb_ctx, buf))
				break;
			continue;
		}
		if (pred && !pred(ctx, i, c))
			continue;
		if (centre_score(x, free_map, c, k, best + 1, buf) == best &&
		    cb(cb_ctx, buf))
			break;
	}
	return 0;
}

/* Through centre_score() alone, so that the paths it picks between keep
 * one call site each (and stay inlined there).  On a torus the modes
 * are set on its unrolled copy, which does the work. */
int mesh__l1near_path_scores(struct mesh__l1near *x,
			     const struct mesh_bitmap *free_map, uint32_t k,
			     int lines, const uint64_t *bound, uint64_t *score,
			     uint32_t *patterns)
{
	struct mesh__l1near *w = x->fast ? x : x->unr;
	uint32_t i, hits = 0;
	int c[3], mode = x->win_mode, near = x->near_mode;

	if (!w)
		return MESH_EINVAL;
	x->win_mode = -1; /* these are the full unrolled copy's paths */
	x->near_mode = -1;
	decision_start(x, free_map, k);
	x->win_mode = mode;
	x->near_mode = near;
	pattern_prepare(w, x->fast ? free_map : x->unr_free);
	tables_build(w, x->fast ? free_map : x->unr_free);
	w->built = -1;
	w->bound_walks = 1; /* where the bound is tightest */
	w->ring_auto = 0;
	for (i = 0, c[0] = c[1] = c[2] = 0; i < x->topo->nodes;
	     i++, next_coords(x->topo, c)) {
		/* centre_score() turns the line caches on, and patterns off,
		 * after 64 misses; a copy may have no patterns (rp 0) */
		w->pmiss = lines || !w->rp ? INT32_MAX : 0;
		w->phit = 0;
		score[i] = centre_score(x, free_map, c, k,
					bound ? bound[i] : UINT64_MAX, NULL);
		hits += (uint32_t) w->phit;
	}
	w->bound_walks = WALK_BOUND_MIN;
	w->ring_auto = 1;
	if (patterns)
		*patterns = hits;
	return 0;
}

int mesh__split_axis(const struct mesh_topo *t, int d, int lo, int hi,
		     int ilo[2], int ihi[2])
{
	int len = t->dim[d];

	if (!t->wrap[d]) {
		ilo[0] = lo < 0 ? 0 : lo;
		ihi[0] = hi >= len ? len - 1 : hi;
		return ilo[0] <= ihi[0];
	}
	if (hi - lo + 1 >= len) {
		ilo[0] = 0;
		ihi[0] = len - 1;
		return 1;
	}
	hi -= lo; /* the length less one */
	/* (one ring away without a division) */
	if (lo < 0)
		lo = lo >= -len ? lo + len : ((lo % len) + len) % len;
	else if (lo >= len)
		lo = lo < 2 * len ? lo - len : lo % len;
	hi += lo;
	if (hi < len) {
		ilo[0] = lo;
		ihi[0] = hi;
		return 1;
	}
	ilo[0] = lo;
	ihi[0] = len - 1;
	ilo[1] = 0;
	ihi[1] = hi - len;
	return 2;
}

uint32_t mesh__box_count(const struct mesh__boxsum *b, const int lo[3],
			 const int hi[3])
{
	int ilo[3][2], ihi[3][2], n[3], i, j, k, d, blo[3], bhi[3];
	uint32_t total = 0;

	for (d = 0; d < 3; d++) {
		n[d] =
		    mesh__split_axis(b->topo, d, lo[d], hi[d], ilo[d], ihi[d]);
		if (!n[d])
			return 0;
	}
	for (i = 0; i < n[0]; i++)
		for (j = 0; j < n[1]; j++)
			for (k = 0; k < n[2]; k++) {
				blo[0] = ilo[0][i], bhi[0] = ihi[0][i];
				blo[1] = ilo[1][j], bhi[1] = ihi[1][j];
				blo[2] = ilo[2][k], bhi[2] = ihi[2][k];
				total += mesh__boxsum_box(b, blo, bhi);
			}
	return total;
}

int mesh__interval_distance(const struct mesh_topo *t, int d, int q, int lo,
			    int hi)
{
	int len = t->dim[d], a, b;

	if (!t->wrap[d])
		return q < lo ? lo - q : q > hi ? q - hi : 0;
	if (hi - lo + 1 >= len)
		return 0;
	a = ((q - lo) % len + len) % len; /* forward from lo */
	if (a <= hi - lo)
		return 0;
	b = len - a;  /* back to lo */
	a -= hi - lo; /* forward past hi */
	return a < b ? a : b;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *) a - *(const int *) b;
}

int mesh__io_required(const struct mesh_allocator *a, struct mesh_diag *d)
{
	if (a->topo->n_io)
		return 0;
	return mesh_diag_set(d, MESH_EINVAL, NULL, 0, "allocator",
			     "%s needs designated I/O nodes (none configured)",
			     a->name);
}

int mesh__io_geometry(const struct mesh_topo *t, struct mesh__io_geom *g)
{
	static const int pref[3] = { 1, 2, 0 };
	int lo[3] = { 1 << 30, 1 << 30, 1 << 30 }, hi[3] = { -1, -1, -1 };
	int c[3], i, d, best = -1, *v;
	size_t j;

	if (!t->n_io)
		return MESH_EINVAL;
	for (j = 0; j < t->n_io; j++) {
		mesh_topo_coords(t, t->io_nodes[j], c);
		for (d = 0; d < 3; d++) {
			lo[d] = c[d] < lo[d] ? c[d] : lo[d];
			hi[d] = c[d] > hi[d] ? c[d] : hi[d];
		}
	}
	for (i = 0; i < 3; i++) {
		d = pref[i];
		if (best < 0 || hi[d] - lo[d] > hi[best] - lo[best])
			best = d;
	}
	g->axis = best;
	g->u = best == 0 ? 1 : 0;
	g->w = 3 - best - g->u;
	v = malloc(t->n_io * sizeof(*v));
	if (!v)
		return MESH_ENOMEM;
	for (j = 0; j < t->n_io; j++) {
		mesh_topo_coords(t, t->io_nodes[j], c);
		v[j] = c[best];
	}
	qsort(v, t->n_io, sizeof(*v), cmp_int);
	g->mid = v[t->n_io / 2];
	free(v);
	return 0;
}

int mesh__io_rank(const struct mesh_topo *t, const struct mesh__io_geom *g,
		  int y)
{
	int above = t->dim[g->axis] - g->mid, below = g->mid, i;

	if (y >= g->mid) {
		i = y - g->mid; /* i-th row above */
		return i < below ? 2 * i : below + i;
	}
	i = g->mid - 1 - y; /* i-th row below */
	return i < above ? 2 * i + 1 : above + i;
}

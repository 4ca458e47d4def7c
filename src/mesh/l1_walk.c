/* l1_walk.c - the table path's score of one centre: the last shell
 * walked onto the histograms, and the pair sum read from them.
 *
 * HOW IT WORKS: l1_tables.c gives the centre's radius R, the ball
 * counts of radius R - 1 and R, and the axis histograms of one of the
 * two balls.  The set is the ball of radius R - 1 plus the first m free
 * nodes of shell R in index order; the walk takes those m onto the
 * histograms of the smaller ball, or, when fewer, drops the last ones
 * from the larger ball's (walk_rows()), reading the free map two cells
 * per shell row (a row (dz, dy) of an L1 sphere has at most two cells,
 * x = c[0] -+ rx).  On meshes whose x-rows fit a word the walk follows
 * a plan of the shell's rows in index order over x-row words padded on
 * every side, so it needs no bounds tests (plan_walk()).  The pair sum
 * is then, per axis, the sum over the gaps of L (k - L), L the set's
 * nodes below the gap (window_pairs()); on a torus's copy, pairs more
 * than half a ring apart are nearer the other way round
 * (ring_window_pairs()).
 */
#include "l1_parts.h"

#include <stdlib.h>

#include "boxsum.h"
#include "error.h"

/* The padded rows and the walk plan (X <= 62).  A shell row (dy, dz)
 * can hold a node only if |dy| < Y and |dz| < Z, so the plan skips the
 * others and the padding stops there too: a 2D mesh's plan has no row
 * off its plane. */
int mesh__l1_walk_init(struct mesh__l1near *x)
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

/* (the padding stays 0 from mesh__l1_walk_init()) */
void mesh__l1_walk_rows_fill(struct mesh__l1near *x,
			     const struct mesh_bitmap *f)
{
	const int *dim = x->topo->dim;
	uint64_t *w;
	uint32_t p = 0;
	int y, z;

	for (z = 0; z < dim[2]; z++) {
		w = x->wrow + (size_t) x->wpy +
		    (size_t) (z + x->wpz) * x->wstride;
		for (y = 0; y < dim[1]; y++, p += (uint32_t) dim[0])
			w[y] = mesh__bits_at(f->words, p, (uint32_t) dim[0])
			       << x->wpad;
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
 * histograms' pads (r <= wmax <= HIST_PAD). */
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

uint64_t mesh__l1_table_score(struct mesh__l1near *x,
			      const struct mesh_bitmap *f, const int c[3],
			      uint32_t k, uint64_t bound, int *r, uint32_t *m)
{
	uint32_t below, at, extra;
	uint64_t pairs;
	int R, d, low;

	*r = 0;
	*m = 0;
	if (!k)
		return 0;
	R = mesh__l1_find_radius(x, c, k, &below, &at);
	if (R > x->rlimit) { /* an unrolled torus: its ball would wrap */
		x->too_far = R;
		x->rguess = x->rlimit;
		return UINT64_MAX;
	}
	*r = R;
	*m = k - below;
	extra = at - k;    /* shell R nodes left out */
	low = *m <= extra; /* cheaper to add m than to drop extra */
	for (d = 0; d < MESH_MAX_DIMS; d++) {
		if (!x->tab[d] || d == x->axis0)
			continue;
		if (x->lcache[d] && R <= x->lcap && x->lines_on)
			mesh__l1_line_hist(x, d, c, low ? R - 1 : R, R,
					   x->hist[d]);
		else
			mesh__l1_slice_hist(x, d, c, low ? R - 1 : R, R,
					    x->hist[d]);
	}
	if (extra)
		shell_walk(x, f, c, R, low ? *m : extra, low ? 1 : -1);
	pairs = split_pairs(x, c, R, k);
	return pairs < bound ? pairs : UINT64_MAX;
}

/* boxsum.c - free nodes in boxes: summed-volume tables over the free
 * map, word boxes, and boxes that wrap around a torus.
 *
 * HOW IT WORKS: the summed-volume table holds, per cell, the free nodes
 * of the box from the origin to it, so any box is eight lookups; it is
 * built a row at a time from the row's own prefix counts and the three
 * rows it builds on.  Word boxes answer "is the box of extents e with
 * this low corner all free?" for every corner at once, one bit each:
 * per x-row the starts of free runs of e[0] (by doubling shifts), then
 * ANDed over e[1] rows and e[2] planes.  On a torus a box is split on
 * each wrapped axis into at most two in-range intervals
 * (mesh__split_axis()), and counted as the sum of those boxes.
 */
#include "boxsum.h"

#include <stdlib.h>

#include "error.h"

static size_t at(const struct mesh_topo *t, int x, int y, int z)
{
	return (size_t) x +
	       (size_t) (t->dim[0] + 1) *
		   ((size_t) y + (size_t) (t->dim[1] + 1) * (size_t) z);
}

int mesh__boxsum_init(struct mesh__boxsum *b, const struct mesh_topo *t)
{
	size_t n = (size_t) (t->dim[0] + 1) * (size_t) (t->dim[1] + 1) *
		   (size_t) (t->dim[2] + 1);

	b->topo = t;
	b->sum = calloc(n, sizeof(*b->sum));
	return b->sum ? 0 : MESH_ENOMEM;
}

void mesh__boxsum_free(struct mesh__boxsum *b)
{
	free(b->sum);
	b->sum = NULL;
}

/* r[j] := pre[j] + dn[j] + bk[j] - dg[j]: one row of the summed-volume
 * table from the row's own prefix counts (pre, a serial sum that the
 * caller keeps out of this loop) and the three rows it builds on.  So
 * this loop vectorizes. */
static void add_rows(uint32_t *restrict r, const uint32_t *restrict pre,
		     const uint32_t *restrict dn, const uint32_t *restrict bk,
		     const uint32_t *restrict dg, uint32_t n)
{
	uint32_t j;

	for (j = 0; j < n; j++)
		r[j] = pre[j] + dn[j] + bk[j] - dg[j];
}

/* Row by row: a running count along x (the row's bits read 64 at a time
 * and shifted out one by one), then add_rows() with the sums of the row
 * below and the plane below (three loads per cell, not seven). */
void mesh__boxsum_build(struct mesh__boxsum *b,
			const struct mesh_bitmap *free_map)
{
	const struct mesh_topo *t = b->topo;
	const uint64_t *w = free_map->words;
	uint32_t *s = b->sum, idx = 0, run, *row, *r, X = (uint32_t) t->dim[0],
		 x0, n;
	const uint32_t *dn, *bk, *dg;
	size_t j;
	const uint32_t *down, *back, *diag;
	uint64_t bits;
	uint32_t pre[64];
	int y, z;

	for (z = 1; z <= t->dim[2]; z++)
		for (y = 1; y <= t->dim[1]; y++) {
			row = s + at(t, 0, y, z);
			down = s + at(t, 0, y - 1, z);
			back = s + at(t, 0, y, z - 1);
			diag = s + at(t, 0, y - 1, z - 1);
			for (x0 = 0, run = 0; x0 < X; x0 += n, idx += n) {
				n = X - x0 < 64 ? X - x0 : 64;
				bits = mesh__bits_at(w, idx, n);
				r = row + x0 + 1, dn = down + x0 + 1;
				bk = back + x0 + 1, dg = diag + x0 + 1;
				for (j = 0; j < n; j++, bits >>= 1) {
					run += (uint32_t) (bits & 1);
					pre[j] = run;
				}
				add_rows(r, pre, dn, bk, dg, n);
			}
		}
}

uint32_t mesh__boxsum_box(const struct mesh__boxsum *b, const int lo[3],
			  const int hi[3])
{
	const struct mesh_topo *t = b->topo;
	const uint32_t *s = b->sum;
	int x0 = lo[0], y0 = lo[1], z0 = lo[2];
	int x1 = hi[0] + 1, y1 = hi[1] + 1, z1 = hi[2] + 1;

	return s[at(t, x1, y1, z1)] - s[at(t, x0, y1, z1)] -
	       s[at(t, x1, y0, z1)] - s[at(t, x1, y1, z0)] +
	       s[at(t, x0, y0, z1)] + s[at(t, x0, y1, z0)] +
	       s[at(t, x1, y0, z0)] - s[at(t, x0, y0, z0)];
}

/* AND of the len words src[at], src[at + stride], ... (stops at 0). */
static uint64_t and_run(const uint64_t *src, uint32_t at, uint32_t len,
			uint32_t stride)
{
	uint64_t r = ~(uint64_t) 0;
	uint32_t i;

	for (i = 0; i < len && r; i++)
		r &= src[at + i * stride];
	return r;
}

/* The same around a ring of n: src[base + ((pos + i) % n) * stride]. */
static uint64_t and_ring(const uint64_t *src, uint32_t base, uint32_t pos,
			 uint32_t len, uint32_t n, uint32_t stride)
{
	uint64_t r = ~(uint64_t) 0;
	uint32_t i, q = pos;

	for (i = 0; i < len && r; i++) {
		r &= src[base + q * stride];
		q = q + 1 == n ? 0 : q + 1;
	}
	return r;
}

/* Bit x of the result: a free run of len starts at x.  Doubling: once
 * r marks runs of have, r & (r >> s) marks runs of have + s for any
 * s <= have, so len takes O(log len) steps.  Zeros shift in past the
 * row's end, so runs that would cross it never start. */
static uint64_t run_starts(uint64_t bits, uint32_t len)
{
	uint64_t r = bits;
	uint32_t have = 1, s;

	while (have < len && r) {
		s = have <= len - have ? have : len - have;
		r &= r >> s;
		have += s;
	}
	return r;
}

/* The same around a ring of X > len: rotations instead of shifts. */
static uint64_t ring_run_starts(uint64_t bits, uint32_t len, uint32_t X)
{
	uint64_t mask = X == 64 ? ~(uint64_t) 0 : ((uint64_t) 1 << X) - 1, r;
	uint32_t have = 1, s;

	for (r = bits; have < len && r; have += s) {
		s = have <= len - have ? have : len - have;
		r &= (r >> s | r << (X - s)) & mask;
	}
	return r;
}

void mesh__row_bits(const struct mesh_topo *t, const uint64_t *w,
		    uint64_t *bits)
{
	uint32_t X = (uint32_t) t->dim[0], i,
		 n = (uint32_t) t->dim[1] * (uint32_t) t->dim[2];

	for (i = 0; i < n; i++)
		bits[i] = mesh__bits_at(w, i * X, X);
}

void mesh__row_runs(const struct mesh_topo *t, const uint64_t *bits,
		    uint32_t len, int ring, uint64_t *run)
{
	uint32_t X = (uint32_t) t->dim[0], i,
		 n = (uint32_t) t->dim[1] * (uint32_t) t->dim[2];

	if (ring && t->wrap[0] && len < X)
		for (i = 0; i < n; i++)
			run[i] = ring_run_starts(bits[i], len, X);
	else
		for (i = 0; i < n; i++)
			run[i] = run_starts(bits[i], len);
}

/* The ring form of the y and z stages (mesh__box_starts_from_runs). */
static int ring_boxes(const struct mesh_topo *t, const uint64_t *run,
		      const uint32_t e[3], uint64_t *ys, uint64_t *out)
{
	uint32_t Y = (uint32_t) t->dim[1], Z = (uint32_t) t->dim[2], y, z;
	uint64_t r, any = 0;
	int wr[3], d;

	wr[0] = 0;              /* the runs along x are given */
	for (d = 1; d < 3; d++) /* a ring no longer than the box: no wrap */
		wr[d] = t->wrap[d] && e[d] < (uint32_t) t->dim[d];
	for (z = 0; z < Z; z++)
		for (y = 0; y < Y; y++)
			ys[z * Y + y] =
			    wr[1] ? and_ring(run, z * Y, y, e[1], Y, 1)
			    : y + e[1] <= Y ? and_run(run, z * Y + y, e[1], 1)
					    : 0;
	for (z = 0; z < Z; z++)
		for (y = 0; y < Y; y++) {
			r = wr[2]           ? and_ring(ys, y, z, e[2], Z, Y)
			    : z + e[2] <= Z ? and_run(ys, z * Y + y, e[2], Y)
					    : 0;
			out[z * Y + y] = r;
			any |= r;
		}
	return any != 0;
}

int mesh__box_starts_from_runs(const struct mesh_topo *t, const uint64_t *run,
			       const uint32_t e[3], int ring, uint64_t *ys,
			       uint64_t *out)
{
	uint32_t Y = (uint32_t) t->dim[1], Z = (uint32_t) t->dim[2], y, z;
	uint64_t r, any = 0;

	if (ring)
		return ring_boxes(t, run, e, ys, out);
	/* A stage of one row or plane is a copy: skip it. */
	if (e[1] > 1) {
		for (z = 0; z < Z; z++)
			for (y = 0; y < Y; y++)
				ys[z * Y + y] =
				    y + e[1] <= Y
					? and_run(run, z * Y + y, e[1], 1)
					: 0;
		run = ys;
	}
	for (z = 0; z < Z; z++)
		for (y = 0; y < Y; y++) {
			r = e[2] == 1       ? run[z * Y + y]
			    : z + e[2] <= Z ? and_run(run, z * Y + y, e[2], Y)
					    : 0;
			out[z * Y + y] = r;
			any |= r;
		}
	return any != 0;
}

/* Per x-row the bits where a free run of e[0] starts, ANDed over e[1]
 * rows (in y), then over e[2] planes (in z). */
int mesh__box_starts(const struct mesh_topo *t, const uint64_t *w,
		     const uint32_t e[3], uint64_t *tmp, uint64_t *out)
{
	uint32_t n = (uint32_t) t->dim[1] * (uint32_t) t->dim[2];

	mesh__row_bits(t, w, tmp);
	mesh__row_runs(t, tmp, e[0], 0, tmp);
	return mesh__box_starts_from_runs(t, tmp, e, 0, tmp + n, out);
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

/* l1_pattern.c - ball patterns: the L1 nearest set of a centre whose
 * ball of radius rp (at most 64 cells) holds k free nodes, from one
 * 64-bit word.
 *
 * HOW IT WORKS: for small balls (at most 64 cells: radius 3 in 3D, 5 in
 * 2D), the free nodes of the ball of radius rp around a centre are
 * gathered into one 64-bit word, one x-row at a time (a shift and a
 * mask per row), bit i standing for cell poff[i]; in index order, the
 * patterns of a whole x-row of centres come from one bit transposition
 * instead (pattern_row()).  Cells are numbered in node-index order (z,
 * then y, then x), so "the lowest-index nodes of the last shell" are
 * its lowest set bits.  Ball counts are popcounts against pball[r]; the
 * set is the ball of radius R - 1 plus the lowest m bits of shell R;
 * its pair sum is, per axis, the sum over the gaps g of L (k - L), L
 * being the set's nodes on the low side of the gap (the same integer as
 * l1_walk.c gives), counted by popcounts against phalf[d][g], or for
 * k <= 8 summed pair by pair from pdist (see PDIST_MAX_K).  No table is
 * read, so a decision whose centres all fit needs no table build
 * either.  Centres whose ball of radius rp holds fewer than k free
 * nodes take the table path.
 */
#include "l1_parts.h"

#include <stdlib.h>
#include <string.h>

#include "boxsum.h"

/* The pattern score takes a pair sum by cost (paired runs, 32^3 at
 * 50%): up to PDIST_MAX_K the k (k - 1) / 2 pairwise distances from a
 * table; beyond, 6 R half-space popcounts. */
#define PDIST_MAX_K 8

int mesh__l1_ball_cells(const int *dim, int r)
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

void mesh__l1_pattern_init(struct mesh__l1near *x)
{
	const int *dim = x->topo->dim;
	int r, dz, dy, dx, rz, ry, rx, zr, n = 0, d, g, dist, i, n2;
	uint64_t bit;

	for (r = 1; r < 31 && mesh__l1_ball_cells(dim, r + 1) <= 64; r++)
		;
	x->rp = r;
	x->pcells = (uint32_t) mesh__l1_ball_cells(dim, r);
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

/* Copies f's x-rows into padrow (see l1near.h). */
void mesh__l1_pattern_prepare(struct mesh__l1near *x,
			      const struct mesh_bitmap *f)
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
			    mesh__bits_at(f->words, p, (uint32_t) dim[0])
			    << x->rp;
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

int mesh__l1_pattern_score(struct mesh__l1near *x, const struct mesh_bitmap *f,
			   const int c[3], uint32_t k, uint64_t bound,
			   uint32_t *out, uint64_t *score)
{
	const int *dim = x->topo->dim;
	uint64_t pat, inner, sh, sel, b, pairs = 0, L;
	int R, m, ns, d, g, i;
	uint32_t n = 0, nr, nb;
	uint8_t pos[PDIST_MAX_K];

	if (k < 1 || k > 64)
		return 0;
	/* The previous centre's radius first: rows beyond it are skipped.
	 * Then up or down to the least R with nr = ball(R) >= k; nb is
	 * ball(R - 1), each count taken once. */
	R = imin(imax(x->pguess, 1), x->rp);
	pat = pattern_fetch(x, f, c, R);
	nr = mesh__popcount64(pat & x->pball[R]);
	if (nr < k) {
		if (R == x->rp)
			return 0;
		pat = pattern_fetch(x, f, c, x->rp);
		if (mesh__popcount64(pat & x->pball[x->rp]) < k)
			return 0;
		do {
			nb = nr;
			nr = mesh__popcount64(pat & x->pball[++R]);
		} while (nr < k);
	} else {
		nb = mesh__popcount64(pat & x->pball[R - 1]);
		while (nb >= k) {
			nr = nb;
			nb = --R ? mesh__popcount64(pat & x->pball[R - 1]) : 0;
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
	} else {
		for (d = 0; d < MESH_MAX_DIMS; d++)
			for (g = -R; dim[d] > 1 && g < R; g++) {
				L = (uint64_t) mesh__popcount64(
				    sel & x->phalf[d][g + x->rp]);
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

/* curve.c - row-major, snake and Hilbert orders over a mesh.
 *
 * HOW IT WORKS: every curve is produced in "canonical" coordinates u[]
 * whose axis 0 is the fastest-moving one, then mapped to mesh axes by a
 * permutation chosen from the dimension lengths.
 */
#include "curve.h"

#include <stdlib.h>
#include <string.h>

#include "error.h"

static const char *const curve_names[MESH_CURVE_COUNT] = { "rowmajor", "snake",
							   "colsnake",
							   "hilbert" };

const char *mesh_curve_name(enum mesh_curve c)
{
	return (unsigned) c < MESH_CURVE_COUNT ? curve_names[c] : "?";
}

int mesh_curve_parse(const char *name, enum mesh_curve *out)
{
	int c;

	for (c = 0; c < MESH_CURVE_COUNT; c++) {
		if (!strcmp(name, curve_names[c])) {
			*out = (enum mesh_curve) c;
			return 0;
		}
	}
	return MESH_ENOENT;
}

/* Axes sorted by length; longest first when descending, else shortest
 * first.  The sort is stable so equal lengths keep the given order. */
static void axes_by_length(const struct mesh_topo *t, int descending,
			   int axis[MESH_MAX_DIMS])
{
	int i, j, tmp;

	for (i = 0; i < MESH_MAX_DIMS; i++)
		axis[i] = i;
	for (i = 1; i < t->ndims; i++) {
		for (j = i; j > 0; j--) {
			int a = t->dim[axis[j - 1]], b = t->dim[axis[j]];

			if (descending ? a >= b : a <= b)
				break;
			tmp = axis[j];
			axis[j] = axis[j - 1];
			axis[j - 1] = tmp;
		}
	}
}

static uint32_t node_at(const struct mesh_topo *t, const int axis[],
			const int u[])
{
	int c[MESH_MAX_DIMS];
	int i;

	for (i = 0; i < MESH_MAX_DIMS; i++)
		c[axis[i]] = u[i];
	return mesh_topo_index(t, c);
}

/* Boustrophedon (snake) or plain nested-loop order over canonical axes. */
static void order_lines(const struct mesh_topo *t, const int axis[],
			int reverse_lines, uint32_t *order)
{
	int len[MESH_MAX_DIMS], u[MESH_MAX_DIMS];
	int i0, i1, i2, rev0 = 0, rev1 = 0;
	uint32_t r = 0;

	for (i0 = 0; i0 < MESH_MAX_DIMS; i0++)
		len[i0] = t->dim[axis[i0]];
	for (i2 = 0; i2 < len[2]; i2++) {
		u[2] = i2;
		for (i1 = 0; i1 < len[1]; i1++) {
			u[1] = rev1 ? len[1] - 1 - i1 : i1;
			for (i0 = 0; i0 < len[0]; i0++) {
				u[0] = rev0 ? len[0] - 1 - i0 : i0;
				order[r++] = node_at(t, axis, u);
			}
			rev0 = reverse_lines && !rev0;
		}
		rev1 = reverse_lines && !rev1;
	}
}

/* Classic 2D Hilbert index -> point on a side x side grid (side a power
 * of two).  The curve starts at (0,0) and ends at (side-1,0). */
static void hilbert2_point(uint32_t side, uint64_t h, int u[])
{
	uint32_t s, rx, ry, x = 0, y = 0, tmp;

	for (s = 1; s < side; s *= 2) {
		rx = 1 & (uint32_t) (h / 2);
		ry = 1 & (uint32_t) (h ^ rx);
		if (ry == 0) {
			if (rx == 1) {
				x = s - 1 - x;
				y = s - 1 - y;
			}
			tmp = x;
			x = y;
			y = tmp;
		}
		x += s * rx;
		y += s * ry;
		h /= 4;
	}
	u[0] = (int) x;
	u[1] = (int) y;
	u[2] = 0;
}

/* 3D Hilbert index -> point, by Skilling's transpose method ("Programming
 * the Hilbert curve", AIP Conf. Proc. 707, 2004).  The index's bits are
 * dealt to the axes most significant first, then Gray-decoded and the
 * per-level rotations undone. */
static void hilbert3_point(int bits, uint64_t h, int u[])
{
	uint32_t x[3] = { 0, 0, 0 }, p, q, tmp;
	int b, i, bit = 3 * bits - 1;

	for (b = bits - 1; b >= 0; b--)
		for (i = 0; i < 3; i++, bit--)
			x[i] |= (uint32_t) ((h >> bit) & 1) << b;
	tmp = x[2] >> 1;
	for (i = 2; i > 0; i--)
		x[i] ^= x[i - 1];
	x[0] ^= tmp;
	for (q = 2; q != (1u << bits) && bits > 0; q <<= 1) {
		p = q - 1;
		for (i = 2; i >= 0; i--) {
			if (x[i] & q) {
				x[0] ^= p;
			} else {
				tmp = (x[0] ^ x[i]) & p;
				x[0] ^= tmp;
				x[i] ^= tmp;
			}
		}
	}
	for (i = 0; i < 3; i++)
		u[i] = (int) x[i];
}

static void hilbert_point(int nd, int bits, uint64_t h, int u[])
{
	if (nd == 2)
		hilbert2_point(1u << bits, h, u);
	else
		hilbert3_point(bits, h, u);
}

static int is_pow2(int v)
{
	return v > 0 && (v & (v - 1)) == 0;
}

static int log2_ceil(int v)
{
	int b = 0;

	while ((1 << b) < v)
		b++;
	return b;
}

/* Axis (in curve coordinates) along which the block curve leaves. */
static int exit_axis(int nd, int bits)
{
	int a[MESH_MAX_DIMS], i;

	hilbert_point(nd, bits, ((uint64_t) 1 << (nd * bits)) - 1, a);
	for (i = 0; i < nd; i++)
		if (a[i])
			return i;
	return 0;
}

/* Spliced Hilbert: blocks of side s along the longest axis. */
static void order_spliced(const struct mesh_topo *t, const int longest[],
			  int side, int blocks, uint32_t *order)
{
	int nd = t->ndims, bits = log2_ceil(side), e = exit_axis(nd, bits);
	int axis[MESH_MAX_DIMS], u[MESH_MAX_DIMS], v[MESH_MAX_DIMS], i, j;
	uint64_t h, cells = (uint64_t) 1 << (nd * bits);
	uint32_t r = 0;

	/* Map the curve's exit axis onto the splice (longest) axis. */
	axis[e] = longest[0];
	for (i = 0, j = 1; i < MESH_MAX_DIMS; i++)
		if (i != e)
			axis[i] = i < nd ? longest[j++] : i;
	for (j = 0; j < blocks; j++) {
		for (h = 0; h < cells; h++) {
			hilbert_point(nd, bits, h, u);
			u[e] += j * side;
			for (i = 0; i < MESH_MAX_DIMS; i++)
				v[axis[i]] = i < nd ? u[i] : 0;
			order[r++] = mesh_topo_index(t, v);
		}
	}
}

/* If the first t->nodes cells of the enclosing cube's curve fill a box
 * with the mesh's side lengths, map that box onto the mesh: the order is
 * then a continuous piece of one Hilbert curve (e.g. 16x16x8 is the first
 * half of the 16^3 curve).  Returns 1 if used. */
static int order_prefix(const struct mesh_topo *t, int bits, uint32_t *order)
{
	int nd = t->ndims, ext[MESH_MAX_DIMS] = { 0, 0, 0 };
	int axis[MESH_MAX_DIMS] = { 0, 1, 2 },
	    used[MESH_MAX_DIMS] = { 0, 0, 0 };
	int u[MESH_MAX_DIMS], v[MESH_MAX_DIMS], i, d;
	uint64_t h;

	for (h = 0; h < t->nodes; h++) {
		hilbert_point(nd, bits, h, u);
		for (i = 0; i < nd; i++)
			ext[i] = u[i] + 1 > ext[i] ? u[i] + 1 : ext[i];
	}
	for (i = 0; i < nd; i++) {
		for (d = 0; d < nd && (used[d] || t->dim[d] != ext[i]); d++)
			;
		if (d == nd)
			return 0;
		used[d] = 1;
		axis[i] = d;
	}
	for (h = 0; h < t->nodes; h++) {
		hilbert_point(nd, bits, h, u);
		v[2] = 0;
		for (i = 0; i < nd; i++)
			v[axis[i]] = u[i];
		order[h] = mesh_topo_index(t, v);
	}
	return 1;
}

/* Whether the aligned block of side 2^level holding point u lies wholly
 * outside the mesh (whose box starts at 0). */
static int block_outside(const struct mesh_topo *t, int nd, const int u[],
			 int level)
{
	int i;

	for (i = 0; i < nd; i++)
		if ((u[i] >> level << level) >= t->dim[i])
			return 1;
	return 0;
}

/* Enclosing cube's curve with cells outside the mesh skipped.  A Hilbert
 * curve runs through every aligned block of side 2^L in one piece of
 * 2^(nd L) indices, so a block wholly outside the mesh is skipped in one
 * step: a thin mesh such as 626x6x2 (a 1024^3 cube, 2^30 indices) visits
 * little more than its own nodes. */
static void order_clipped(const struct mesh_topo *t, int bits, uint32_t *order)
{
	int nd = t->ndims, u[MESH_MAX_DIMS], v[MESH_MAX_DIMS], i, level;
	uint64_t h = 0, cells = (uint64_t) 1 << (nd * bits), span;
	uint32_t r = 0;

	while (h < cells) {
		hilbert_point(nd, bits, h, u);
		v[2] = 0;
		for (i = 0; i < nd; i++)
			v[i] = u[i];
		if (v[0] < t->dim[0] && v[1] < t->dim[1] && v[2] < t->dim[2]) {
			order[r++] = mesh_topo_index(t, v);
			h++;
			continue;
		}
		/* the largest block starting at h that lies outside */
		for (level = 0; level < bits; level++) {
			span = (uint64_t) 1 << (nd * (level + 1));
			if (h % span || !block_outside(t, nd, u, level + 1))
				break;
		}
		h += (uint64_t) 1 << (nd * level);
	}
}

static void order_hilbert(const struct mesh_topo *t, uint32_t *order)
{
	int nd = t->ndims, longest[MESH_MAX_DIMS], side, i, spliced, bits;

	axes_by_length(t, 1, longest);
	side = t->dim[longest[nd - 1]];
	spliced = is_pow2(side) && t->dim[longest[0]] % side == 0;
	for (i = 1; i < nd; i++)
		spliced = spliced && t->dim[longest[i]] == side;
	if (spliced) {
		order_spliced(t, longest, side, t->dim[longest[0]] / side,
			      order);
		return;
	}
	bits = log2_ceil(t->dim[longest[0]]);
	if (!order_prefix(t, bits, order))
		order_clipped(t, bits, order);
}

int mesh_curve_order(const struct mesh_topo *t, enum mesh_curve c,
		     uint32_t *order)
{
	int axis[MESH_MAX_DIMS];

	if (!t || !order)
		return MESH_EINVAL;
	switch (c) {
	case MESH_CURVE_ROWMAJOR:
		axes_by_length(t, 1, axis);
		order_lines(t, axis, 0, order);
		return 0;
	case MESH_CURVE_SNAKE:
		axes_by_length(t, 1, axis);
		order_lines(t, axis, 1, order);
		return 0;
	case MESH_CURVE_COLSNAKE:
		axes_by_length(t, 0, axis);
		order_lines(t, axis, 1, order);
		return 0;
	case MESH_CURVE_HILBERT:
		order_hilbert(t, order);
		return 0;
	default:
		return MESH_EINVAL;
	}
}

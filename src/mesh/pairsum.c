/* pairsum.c - sum of pairwise distances (L1, Lee on wrapped axes) of a
 * node set, updated in O(log L) per insertion or removal.
 *
 * HOW IT WORKS: the distance from a point to the set splits into
 * per-axis sums; on a mesh axis it is a*C(<a) - S(<a) + S(>a) - a*C(>a),
 * C and S the members' count and coordinate sum on either side of a; on
 * a ring the same over the two half-rings.  One pair of Fenwick trees
 * (count, coordinate sum) per axis answers each in O(log L).
 */
#include "pairsum.h"

#include <stdlib.h>
#include <string.h>

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

/* alloc_mc.c - MC: shells around a shell 0 of the requested shape, the
 * free centre whose cluster has the least total shell number.
 *
 * Implements: Mache, dissertation, Ch. V "The MC Allocation Strategy",
 * definitions of shell_0 / shell_s+1 and cost, Fig. 31 (pseudocode),
 * Fig. 32 (shells around B); also Walker, Bunde, Leung, Sec. V.  Shell 0
 * around idle node (i,j) is the w x h rectangle with lower-left corner
 * (i - ceil((w-1)/2), j - ceil((h-1)/2)); shell s+1 is the L-inf ring
 * around shell s; a node costs its shell number; both orientations (in
 * 3D, all distinct axis permutations of the shape) are tried; within a
 * shell "idle nodes on the shorter sides of the ring are selected first,
 * idle nodes on the longer side second, and corner nodes last".
 * Decisions the paper leaves open:
 *  - shape: req->shape if its volume is k, else the allocator parameter
 *    shape=WxH[xD] if its volume is k, else the most cube-like exact
 *    factorisation of k that fits the mesh (least sum of sides) when its
 *    longest/shortest side ratio is at most 4, else 1x1x1 (= MC1x1).
 *    Orientations that do not fit the mesh are skipped; the given one is
 *    tried first, then the other permutations in lexicographic order.
 *  - 3D within-shell order: nodes outside the grown box along exactly
 *    one axis ("sides", faces) first, smaller faces first; then nodes
 *    outside along two axes (edges), then three (corners); within a
 *    class by L1 distance to the centre, then node index.
 *  - ties: the first orientation, then the lowest centre index.
 *  - tori: shells wrap; a shell longer than the ring is the whole ring.
 * Cost evaluation uses prefix sums (boxsum) and stops early once a
 * centre cannot beat the best so far, so the result is exactly Fig. 31's.
 * Property (Ch. V): if a free w x h block exists its centre has cost 0,
 * and a cost-0 cluster is exactly a free w x h block.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_centre.h"
#include "alloc_internal.h"
#include "hints.h"
#include "error.h"

int mesh__mc_init(struct mesh__mc *m, const struct mesh_topo *t)
{
	m->topo = t;
	m->keys = malloc(t->nodes * sizeof(*m->keys));
	if (!m->keys || mesh__boxsum_init(&m->box, t)) {
		free(m->keys);
		m->keys = NULL;
		return MESH_ENOMEM;
	}
	return 0;
}

void mesh__mc_free(struct mesh__mc *m)
{
	mesh__boxsum_free(&m->box);
	free(m->keys);
	m->keys = NULL;
}

void mesh__mc_prepare(struct mesh__mc *m, const struct mesh_bitmap *free_map)
{
	mesh__boxsum_build(&m->box, free_map);
}

static void shell_box(const int c[3], const int ext[3], int s, int lo[3],
		      int hi[3])
{
	int d;

	for (d = 0; d < 3; d++) {
		lo[d] = c[d] - ext[d] / 2 - s;
		hi[d] = c[d] - ext[d] / 2 + ext[d] - 1 + s;
	}
}

uint64_t mesh__mc_cost(const struct mesh__mc *m, const int c[3],
		       const int ext[3], uint32_t k, uint64_t bound,
		       int *radius)
{
	const struct mesh_topo *t = m->topo;
	int lo[3], hi[3], s, rmax = t->dim[0];
	uint32_t inside, taken, ball, use;
	uint64_t cost = 0;

	if (t->dim[1] > rmax)
		rmax = t->dim[1];
	if (t->dim[2] > rmax)
		rmax = t->dim[2];
	shell_box(c, ext, 0, lo, hi);
	inside = mesh__box_count(&m->box, lo, hi);
	taken = inside < k ? inside : k;
	*radius = 0;
	if ((uint64_t) (k - taken) >= bound)
		return bound;
	for (s = 1; taken < k && s <= rmax; s++) {
		shell_box(c, ext, s, lo, hi);
		ball = mesh__box_count(&m->box, lo, hi);
		use = ball - inside;
		if (use > k - taken)
			use = k - taken;
		taken += use;
		inside = ball;
		cost += (uint64_t) s * use;
		*radius = s;
		if (cost + (uint64_t) (k - taken) * (uint64_t) (s + 1) >= bound)
			return bound;
	}
	return cost;
}

void mesh__mc_search(const struct mesh__mc *m,
		     const struct mesh_bitmap *free_map, const int ext[3],
		     uint32_t k, struct mesh__mc_best *best)
{
	uint32_t i;
	uint64_t cost;
	int c[3], r;

	for (i = 0; i < m->topo->nodes; i++) {
		if (!mesh_bitmap_test(free_map, i))
			continue;
		mesh_topo_coords(m->topo, i, c);
		cost = mesh__mc_cost(m, c, ext, k, best->cost, &r);
		if (cost < best->cost) {
			best->cost = cost;
			best->centre = i;
			best->radius = r;
			memcpy(best->ext, ext, sizeof(best->ext));
		}
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;

	return (x > y) - (x < y);
}

/* Coordinates covered on axis d by [lo, hi] (clipped or wrapped). */
static int axis_span(const struct mesh_topo *t, int d, int lo, int hi,
		     int *first, int *count)
{
	int len = t->dim[d];

	if (t->wrap[d]) {
		if (hi - lo + 1 >= len) {
			*first = 0;
			*count = len;
		} else {
			*first = ((lo % len) + len) % len;
			*count = hi - lo + 1;
		}
		return 1;
	}
	*first = lo < 0 ? 0 : lo;
	*count = (hi >= len ? len - 1 : hi) - *first + 1;
	return 0;
}

void mesh__mc_gather(struct mesh__mc *m, const struct mesh_bitmap *free_map,
		     const struct mesh__mc_best *best, uint32_t k,
		     mesh__mc_key key, const void *ctx, uint32_t *out)
{
	const struct mesh_topo *t = m->topo;
	int c[3], lo0[3], hi0[3], lo[3], hi[3], f[3], n[3], q[3], i[3], d, s;
	uint32_t cnt = 0, j, node;

	mesh_topo_coords(t, best->centre, c);
	shell_box(c, best->ext, 0, lo0, hi0);
	shell_box(c, best->ext, best->radius, lo, hi);
	for (d = 0; d < 3; d++)
		axis_span(t, d, lo[d], hi[d], &f[d], &n[d]);
	for (i[2] = 0; i[2] < n[2]; i[2]++)
		for (i[1] = 0; i[1] < n[1]; i[1]++)
			for (i[0] = 0; i[0] < n[0]; i[0]++) {
				for (d = 0, s = 0; d < 3; d++) {
					int x;

					q[d] = (f[d] + i[d]) % t->dim[d];
					x = mesh__interval_distance(
					    t, d, q[d], lo0[d], hi0[d]);
					s = x > s ? x : s;
				}
				node = mesh_topo_index(t, q);
				if (!mesh_bitmap_test(free_map, node))
					continue;
				m->keys[cnt++] =
				    (uint64_t) s << 42 |
				    key(ctx, t, q, c, s, lo0, hi0) << 22 | node;
			}
	qsort(m->keys, cnt, sizeof(*m->keys), cmp_u64);
	for (j = 0; j < k; j++)
		out[j] = (uint32_t) (m->keys[j] & ((1u << 22) - 1));
}

/* ---- the MC allocator ---- */

struct mc_priv {
	struct mesh__mc mc;
	int shape[3];   /* parameter shape=, 0 = none */
	int one_by_one; /* mc1x1: shell 0 is always the single centre */
};

static int mc_create(struct mesh_allocator *a, const char *params,
		     struct mesh_diag *d)
{
	static const char *const known[] = { "shape", NULL };
	struct mc_priv *p;
	char buf[64];
	/* mc1x1 (variant 1) takes no shape: shell 0 is 1x1. */
	int rc = mesh__param_check(params, a->entry->variant ? NULL : known,
				   a->name, d);

	if (rc)
		return rc;
	p = calloc(1, sizeof(*p));
	if (!p)
		return MESH_ENOMEM;
	p->one_by_one = a->entry->variant == 1;
	if (mesh__param_get(params, "shape", buf, sizeof(buf)) &&
	    mesh_shape_parse(buf, p->shape, NULL)) {
		free(p);
		return mesh_diag_set(
		    d, MESH_EINVAL, NULL, 0, "shape",
		    "expected WxH or WxHxD (positive integers), got \"%s\"",
		    buf);
	}
	if (mesh__mc_init(&p->mc, a->topo)) {
		free(p);
		return MESH_ENOMEM;
	}
	a->priv = p;
	return 0;
}

static void mc_destroy(struct mesh_allocator *a)
{
	struct mc_priv *p = a->priv;

	mesh__mc_free(&p->mc);
	free(p);
}

static int fits(const struct mesh_topo *t, const int e[3])
{
	return e[0] <= t->dim[0] && e[1] <= t->dim[1] && e[2] <= t->dim[2];
}

static uint64_t volume(const int e[3])
{
	return (uint64_t) e[0] * (uint64_t) e[1] * (uint64_t) e[2];
}

/* Most cube-like exact factorisation of k fitting t, or 1x1x1. */
static void default_shape(const struct mesh_topo *t, uint32_t k, int e[3])
{
	int best = -1, a, b, lo, hi;
	uint32_t c;

	e[0] = e[1] = e[2] = 1;
	for (a = 1; a <= t->dim[0] && (uint32_t) a <= k; a++) {
		if (k % (uint32_t) a)
			continue;
		for (b = 1; b <= t->dim[1] && (uint32_t) b <= k / (uint32_t) a;
		     b++) {
			if ((k / (uint32_t) a) % (uint32_t) b)
				continue;
			c = k / (uint32_t) a / (uint32_t) b;
			if (c > (uint32_t) t->dim[2] ||
			    (best >= 0 && a + b + (int) c >= best))
				continue;
			best = a + b + (int) c;
			e[0] = a, e[1] = b, e[2] = (int) c;
		}
	}
	lo = hi = 0;
	for (a = 0; a < 3; a++) {
		if (t->dim[a] == 1)
			continue;
		if (!lo || e[a] < lo)
			lo = e[a];
		if (e[a] > hi)
			hi = e[a];
	}
	if (best < 0 || hi > 4 * lo)
		e[0] = e[1] = e[2] = 1;
}

/* Distinct fitting orientations of the request's shape; returns count. */
static int orientations(const struct mc_priv *p, const struct mesh_topo *t,
			const struct mesh_request *req, int o[6][3])
{
	static const int perm[6][3] = { { 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 },
					{ 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 } };
	int e[3], i, j, n = 0, dup;

	if (p->one_by_one) {
		o[0][0] = o[0][1] = o[0][2] = 1;
		return 1;
	}
	for (i = 0; i < 3; i++)
		e[i] = req->shape[i] > 0 ? req->shape[i] : 1;
	if (req->shape[0] <= 0 || volume(e) != req->nodes) {
		memcpy(e, p->shape, sizeof(e));
		if (!e[0] || volume(e) != req->nodes)
			default_shape(t, req->nodes, e);
	}
	for (i = 0; i < 6; i++) {
		int x[3] = { e[perm[i][0]], e[perm[i][1]], e[perm[i][2]] };

		for (j = 0, dup = 0; j < n; j++)
			dup |= !memcmp(o[j], x, sizeof(x));
		if (!dup && fits(t, x))
			memcpy(o[n++], x, sizeof(x));
	}
	if (!n)
		o[n][0] = o[n][1] = o[n][2] = 1, n++;
	return n;
}

/* Shorter sides first, then longer sides, then edges and corners. */
static uint64_t mc_key(const void *ctx, const struct mesh_topo *t,
		       const int q[3], const int c[3], int s, const int lo[3],
		       const int hi[3])
{
	int d, e, axis = -1, nout = 0, rank = 0, l1 = 0;
	uint64_t area[3];

	(void) ctx;
	for (d = 0; d < 3; d++) {
		l1 += mesh_topo_axis_distance(t, d, q[d], c[d]);
		if (s && mesh__interval_distance(t, d, q[d], lo[d], hi[d]) == s)
			nout++, axis = d;
	}
	if (nout == 1) {
		for (d = 0; d < 3; d++) {
			area[d] = 1;
			for (e = 0; e < 3; e++) {
				int len = hi[e] - lo[e] + 1 + 2 * s;

				if (e != d)
					area[d] *= (uint64_t) (len < t->dim[e]
								   ? len
								   : t->dim[e]);
			}
		}
		for (d = 0; d < 3; d++)
			rank += area[d] < area[axis] ||
				(area[d] == area[axis] && d < axis);
	} else if (nout > 1) {
		rank = 1 + nout;
	}
	return (uint64_t) rank << 17 | (uint64_t) (l1 & 0x1ffff);
}

static void mc_find(struct mc_priv *p, const struct mesh_view *v,
		    const struct mesh_request *req, struct mesh__mc_best *best,
		    int o[6][3], int *n)
{
	int i;

	*n = orientations(p, v->topo, req, o);
	mesh__mc_prepare(&p->mc, v->free);
	best->cost = UINT64_MAX;
	for (i = 0; i < *n; i++)
		mesh__mc_search(&p->mc, v->free, o[i], req->nodes, best);
}

static int mc_place(struct mesh_allocator *a, const struct mesh_view *v,
		    const struct mesh_request *req, uint32_t *out)
{
	struct mc_priv *p = a->priv;
	struct mesh__mc_best best;
	int o[6][3], n;

	mc_find(p, v, req, &best, o, &n);
	if (best.cost == UINT64_MAX)
		return MESH_ENOSPC;
	mesh__mc_gather(&p->mc, v->free, &best, req->nodes, mc_key, NULL, out);
	return 0;
}

static int mc_candidates(struct mesh_allocator *a, const struct mesh_view *v,
			 const struct mesh_request *req, uint32_t *buf,
			 int (*cb)(void *ctx, const uint32_t *nodes), void *ctx)
{
	struct mc_priv *p = a->priv;
	struct mesh__mc_best best, tie;
	int o[6][3], n, i, c[3];
	uint32_t node;

	mc_find(p, v, req, &best, o, &n);
	if (best.cost == UINT64_MAX)
		return MESH_ENOSPC;
	for (i = 0; i < n; i++) {
		memcpy(tie.ext, o[i], sizeof(tie.ext));
		for (node = 0; node < v->topo->nodes; node++) {
			if (!mesh_bitmap_test(v->free, node))
				continue;
			mesh_topo_coords(v->topo, node, c);
			if (mesh__mc_cost(&p->mc, c, o[i], req->nodes,
					  best.cost + 1,
					  &tie.radius) != best.cost)
				continue;
			tie.centre = node;
			mesh__mc_gather(&p->mc, v->free, &tie, req->nodes,
					mc_key, NULL, buf);
			if (cb(ctx, buf))
				return 0;
		}
	}
	return 0;
}

const struct mesh_alloc_ops mesh__mc_ops = {
	.create = mc_create,
	.destroy = mc_destroy,
	.place = mc_place,
	.candidates = mc_candidates,
};

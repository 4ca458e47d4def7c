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
 * Cost evaluation counts shells with prefix sums and stops early once a
 * centre cannot beat the best so far, so the result is exactly Fig. 31's
 * (the engine: mc.h, mc_shell.c, mc_sweep.c; test/reference.c's
 * ref_mc_centre is the definition, node by node, and check_alloc_exact
 * compares them).
 * Property (Ch. V): if a free w x h block exists its centre has cost 0,
 * and a cost-0 cluster is exactly a free w x h block.
 */
#include <stdlib.h>
#include <string.h>

#include "alloc_internal.h"
#include "error.h"
#include "hints.h"
#include "mc.h"

struct mc_priv {
	struct mesh__mc mc;
	int shape[3];   /* parameter shape=, 0 = none */
	int one_by_one; /* mc1x1: shell 0 is always the single centre */
	int greedy;     /* mc1x1: the outermost shell filled greedily */
	struct mesh__greedy greedy_fill;
	int gdim[3]; /* a->gdim: the whole mesh's extent, also on a crop */
	int *ranks;  /* per shell, face_rank of each axis (mc_nodes) */
};

static uint64_t mc_key(const void *ctx, const struct mesh_topo *t,
		       const int q[3], int s, const int lo[3], const int out[3],
		       const int near[3]);

static int face_rank(const int dim[3], const int lo[3], const int hi[3], int s,
		     int axis);

#define KEY_NODE(k) ((uint32_t) ((k) & ((1u << 22) - 1)))
#define KEY_SHELL(k) ((uint32_t) ((k) >> 42))

/* Walker et al.'s MC1x1, the variant whose quality they report (Sec. IV:
 * "slightly more sophisticated" than the timed one, which "simply returns
 * the first processors it finds at the appropriate distance"): inner
 * shells are taken whole, and the outermost shell is filled greedily,
 * each next node the one with the least total L1 (Lee) distance to the
 * nodes already chosen; ties go to Mache's in-shell order.  The shell
 * sum, and so the centre, is unchanged.  keys[0..cnt) as gathered. */
static void fill_outer_greedy(struct mc_priv *p, uint32_t cnt, uint32_t k,
			      uint32_t *out)
{
	const uint64_t *keys = p->mc.keys;
	uint32_t radius = KEY_SHELL(keys[k - 1]), inner = 0, n, c;

	while (KEY_SHELL(keys[inner]) < radius)
		inner++;
	for (n = inner; n < cnt && KEY_SHELL(keys[n]) == radius; n++)
		;
	n -= inner; /* candidates keys[inner .. inner + n) */
	for (c = 0; c < n; c++)
		p->greedy_fill.cand[c] = KEY_NODE(keys[inner + c]);
	mesh__greedy_fill(&p->greedy_fill, p->mc.topo, n, out, inner,
			  k - inner);
}

/* The cluster's nodes: Mache's order, or for mc1x1 the greedy fill. */
static void mc_nodes(struct mc_priv *p, const struct mesh_bitmap *free_map,
		     const struct mesh__mc_best *best, uint32_t k,
		     uint32_t *out)
{
	const struct mesh_topo *t = p->mc.topo;
	int c[3], lo[3], hi[3], s, d, *ranks = p->ranks;
	uint32_t cnt;

	/* the faces' order per shell, once */
	mesh_topo_coords(t, best->centre, c);
	mesh__mc_shell_box(c, best->ext, 0, lo, hi);
	for (s = 0; s <= best->radius; s++)
		for (d = 0; d < 3; d++)
			ranks[3 * s + d] = face_rank(p->gdim, lo, hi, s, d);
	cnt = mesh__mc_gather(&p->mc, free_map, best, k, mc_key, p, out);
	if (p->greedy)
		fill_outer_greedy(p, cnt, k, out);
}

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
	memcpy(p->gdim, a->gdim, sizeof(p->gdim));
	p->one_by_one = a->entry->variant >= 1;
	p->greedy = a->entry->variant == 1;
	if (p->greedy && mesh__greedy_init(&p->greedy_fill, a->topo)) {
		free(p);
		return MESH_ENOMEM;
	}
	if (mesh__param_get(params, "shape", buf, sizeof(buf)) &&
	    mesh_shape_parse(buf, p->shape, NULL)) {
		mesh__greedy_free(&p->greedy_fill);
		free(p);
		return mesh_diag_set(
		    d, MESH_EINVAL, NULL, 0, "shape",
		    "expected WxH or WxHxD (positive integers), got \"%s\"",
		    buf);
	}
	p->ranks = malloc(3 *
			  ((size_t) a->topo->dim[0] + (size_t) a->topo->dim[1] +
			   (size_t) a->topo->dim[2] + 1) *
			  sizeof(*p->ranks));
	if (!p->ranks || mesh__mc_init(&p->mc, a->topo)) {
		mesh__greedy_free(&p->greedy_fill);
		free(p->ranks);
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
	mesh__greedy_free(&p->greedy_fill);
	free(p->ranks);
	free(p);
}

static int fits(const int dim[3], const int e[3])
{
	return e[0] <= dim[0] && e[1] <= dim[1] && e[2] <= dim[2];
}

static uint64_t volume(const int e[3])
{
	return (uint64_t) e[0] * (uint64_t) e[1] * (uint64_t) e[2];
}

/* Most cube-like exact factorisation of k fitting dim, or 1x1x1. */
static void default_shape(const int dim[3], uint32_t k, int e[3])
{
	int best = -1, a, b, lo, hi;
	uint32_t c;

	e[0] = e[1] = e[2] = 1;
	for (a = 1; a <= dim[0] && (uint32_t) a <= k; a++) {
		if (k % (uint32_t) a)
			continue;
		for (b = 1; b <= dim[1] && (uint32_t) b <= k / (uint32_t) a;
		     b++) {
			if ((k / (uint32_t) a) % (uint32_t) b)
				continue;
			c = k / (uint32_t) a / (uint32_t) b;
			if (c > (uint32_t) dim[2] ||
			    (best >= 0 && a + b + (int) c >= best))
				continue;
			best = a + b + (int) c;
			e[0] = a, e[1] = b, e[2] = (int) c;
		}
	}
	lo = hi = 0;
	for (a = 0; a < 3; a++) {
		if (dim[a] == 1)
			continue;
		if (!lo || e[a] < lo)
			lo = e[a];
		if (e[a] > hi)
			hi = e[a];
	}
	if (best < 0 || hi > 4 * lo)
		e[0] = e[1] = e[2] = 1;
}

/* Distinct orientations of the request's shape that fit the mesh (its
 * whole extent, gdim, also on a crop); returns count. */
static int orientations(const struct mc_priv *p, const struct mesh_request *req,
			int o[6][3])
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
			default_shape(p->gdim, req->nodes, e);
	}
	for (i = 0; i < 6; i++) {
		int x[3] = { e[perm[i][0]], e[perm[i][1]], e[perm[i][2]] };

		for (j = 0, dup = 0; j < n; j++)
			dup |= !memcmp(o[j], x, sizeof(x));
		if (!dup && fits(p->gdim, x))
			memcpy(o[n++], x, sizeof(x));
	}
	if (!n)
		o[n][0] = o[n][1] = o[n][2] = 1, n++;
	return n;
}

/* Rank of axis d's faces among the three faces of shell s around the
 * shell-0 box [lo, hi]: by the nodes a face holds, fewest first, ties to
 * the lower axis; a face's area is clipped by dim, the whole mesh's
 * extent (gdim), also on a crop. */
static int face_rank(const int dim[3], const int lo[3], const int hi[3], int s,
		     int axis)
{
	uint64_t area[3];
	int d, e, rank = 0;

	for (d = 0; d < 3; d++) {
		area[d] = 1;
		for (e = 0; e < 3; e++) {
			int len = hi[e] - lo[e] + 1 + 2 * s;

			if (e != d)
				area[d] *=
				    (uint64_t) (len < dim[e] ? len : dim[e]);
		}
	}
	for (d = 0; d < 3; d++)
		rank +=
		    area[d] < area[axis] || (area[d] == area[axis] && d < axis);
	return rank;
}

/* Shorter sides first, then longer sides, then edges and corners.  ctx:
 * the mc_priv, whose ranks hold face_rank() of shell s and axis d at
 * [3 * s + d] for every shell the gather reaches (mc_nodes). */
static uint64_t mc_key(const void *ctx, const struct mesh_topo *t,
		       const int q[3], int s, const int lo[3], const int out[3],
		       const int near[3])
{
	const int *ranks = ((const struct mc_priv *) ctx)->ranks;
	int d, axis = -1, nout = 0, rank = 0, l1 = 0;

	(void) t, (void) q, (void) lo;
	for (d = 0; d < 3; d++) {
		l1 += near[d];
		if (s && out[d] == s)
			nout++, axis = d;
	}
	if (nout == 1)
		rank = ranks[3 * s + axis];
	else if (nout > 1)
		rank = 1 + nout;
	return (uint64_t) rank << 17 | (uint64_t) (l1 & 0x1ffff);
}

static void mc_find(struct mc_priv *p, const struct mesh_view *v,
		    const struct mesh_request *req, struct mesh__mc_best *best,
		    int o[6][3], int *n)
{
	int i;

	*n = orientations(p, req, o);
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
	mc_nodes(p, v->free, &best, req->nodes, out);
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
			mc_nodes(p, v->free, &tie, req->nodes, buf);
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

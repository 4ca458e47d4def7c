/* alloc_genalg.c - Gen-Alg: around every free node, the k free nodes
 * nearest by hop count; the set with the least sum of pairwise distances.
 *
 * Implements: Krumke et al. 1997 as described by Walker, Bunde, Leung,
 * "Faster high-quality processor allocation", Sec. V (related work):
 * candidate centres are the idle processors, each takes the k processors
 * nearest in hops (L1 on a mesh, Lee distance on wrapped axes, so the
 * search region is a diamond), and candidates are compared by their sum
 * of pairwise distances; within (2 - 2/k) of optimal.
 * Decisions the paper leaves open: nodes equally far from the centre are
 * taken in offset order (the least offset from the centre in z, then y,
 * then x; on a mesh that is the lowest node index first, and on a torus
 * it does not depend on where the node numbering starts); equal sums go
 * to the lowest centre index.  The search itself is l1near.h's: on
 * meshes a centre whose ball of radius 3 (2D: 5) holds k free nodes is
 * scored from a 64-bit pattern of that ball, any other from per-slice
 * diamond-count tables in O(R) lookups plus part of one L1 shell; tori
 * do the same on an unrolled copy where the ball fits it (or on a
 * window that holds one short ring as one turn around the centre), and
 * otherwise enumerate shells with an early exit once a centre cannot
 * beat the best so far.  Either way the answer is exactly that of the
 * exhaustive definition.
 */
#include <stdlib.h>

#include "alloc_internal.h"
#include "error.h"
#include "l1near.h"

static int genalg_create(struct mesh_allocator *a, const char *params,
			 struct mesh_diag *d)
{
	struct mesh__l1near *x;
	int rc = mesh__param_check(params, NULL, a->name, d);

	if (rc)
		return rc;
	x = malloc(sizeof(*x));
	if (!x)
		return MESH_ENOMEM;
	rc = mesh__l1near_init(x, a->topo);
	if (rc) {
		free(x);
		return rc;
	}
	a->priv = x;
	return 0;
}

static void genalg_destroy(struct mesh_allocator *a)
{
	mesh__l1near_free(a->priv);
	free(a->priv);
}

static int genalg_place(struct mesh_allocator *a, const struct mesh_view *v,
			const struct mesh_request *req, uint32_t *out)
{
	uint64_t best = mesh__l1near_best(a->priv, v->free, req->nodes,
					  mesh__centre_free, v->free, out);

	return best == UINT64_MAX ? MESH_ENOSPC : 0;
}

static int genalg_candidates(struct mesh_allocator *a,
			     const struct mesh_view *v,
			     const struct mesh_request *req, uint32_t *buf,
			     int (*cb)(void *ctx, const uint32_t *nodes),
			     void *ctx)
{
	uint64_t best = mesh__l1near_best(a->priv, v->free, req->nodes,
					  mesh__centre_free, v->free, buf);

	if (best == UINT64_MAX)
		return MESH_ENOSPC;
	return mesh__l1near_ties(a->priv, v->free, req->nodes,
				 mesh__centre_free, v->free, best, buf, cb,
				 ctx);
}

const struct mesh_alloc_ops mesh__genalg_ops = {
	.create = genalg_create,
	.destroy = genalg_destroy,
	.place = genalg_place,
	.candidates = genalg_candidates,
};

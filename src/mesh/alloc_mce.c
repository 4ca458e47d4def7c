/* alloc_mce.c - MC-Elongated: MC with a shell 0 of floor(k/h) whole
 * columns parallel to the I/O nodes, middle-out within each column.
 *
 * Implements: Mache, dissertation, Ch. VII "MC Elongated", Fig. 59
 * (pseudocode: shell 0 is a floor(jobsize/k) x k rectangle, k the mesh
 * height) and the text after it: each further shell adds one column on
 * each side, and within each column nodes are taken "middle out" as in
 * PLAS (the order the paper proposes but did not yet simulate).  Cost is
 * MC's (sum of shell numbers), centres are the free nodes.
 * Decisions the paper leaves open:
 *  - columns run along the axis of the I/O nodes and "middle" is the
 *    middle I/O link, both as in PLAS (alloc_plas.c, doc/io-balance.md);
 *  - shell 0 is h along the column axis and c = max(1, floor(k/h))
 *    (clipped to the mesh) along the next axis u, 1 along the third; for
 *    k < h shell 0 is the centre's whole column;
 *  - shells grow as in MC (L-inf rings; on a full-height box a ring adds
 *    a column on each side, in 3D also along the third axis);
 *  - within a shell: middle-out rank first (so partial shells stay
 *    balanced), then the west/low side before the east/high side, then
 *    distance along the third axis, then node index;
 *  - I/O nodes are used only when fewer than k other nodes are free;
 *  - ties: the lowest centre index.
 * Without I/O nodes create fails with MESH_EINVAL.
 */
#include <stdlib.h>

#include "alloc_internal.h"
#include "error.h"
#include "iogeom.h"
#include "mc.h"

struct mce_priv {
	struct mesh__mc mc;
	struct mesh__io_geom g;
	struct mesh_bitmap *compute; /* scratch: free minus I/O nodes */
};

static void mce_destroy(struct mesh_allocator *a)
{
	struct mce_priv *p = a->priv;

	mesh__mc_free(&p->mc);
	mesh_bitmap_destroy(p->compute);
	free(p);
}

static int mce_create(struct mesh_allocator *a, const char *params,
		      struct mesh_diag *d)
{
	struct mce_priv *p;
	int rc = mesh__param_check(params, NULL, a->name, d);

	if (rc)
		return rc;
	rc = mesh__io_required(a->topo, a->name, d);
	if (rc)
		return rc;
	p = calloc(1, sizeof(*p));
	if (!p)
		return MESH_ENOMEM;
	rc = mesh__io_geometry(a->topo, &p->g);
	if (!rc)
		rc = mesh_bitmap_create(a->topo->nodes, &p->compute);
	if (!rc)
		rc = mesh__mc_init(&p->mc, a->topo);
	if (rc) {
		mesh_bitmap_destroy(p->compute);
		free(p);
		return rc;
	}
	a->priv = p;
	return 0;
}

static uint64_t mce_key(const void *ctx, const struct mesh_topo *t,
			const int q[3], int s, const int lo[3],
			const int out[3], const int near[3])
{
	const struct mce_priv *p = ctx;
	const struct mesh__io_geom *g = &p->g;
	int w = near[g->w];

	(void) s;
	(void) out;
	return (uint64_t) (mesh__io_rank(t, g, q[g->axis]) & 0xfff) << 8 |
	       (uint64_t) (q[g->u] >= lo[g->u]) << 7 |
	       (uint64_t) (w > 127 ? 127 : w);
}

static int mce_place(struct mesh_allocator *a, const struct mesh_view *v,
		     const struct mesh_request *req, uint32_t *out)
{
	struct mce_priv *p = a->priv;
	const struct mesh_topo *t = v->topo;
	const struct mesh_bitmap *f = v->free;
	struct mesh__mc_best best;
	int ext[3] = { 1, 1, 1 }, h = t->dim[p->g.axis];
	size_t j;

	mesh_bitmap_copy(p->compute, v->free);
	for (j = 0; j < t->n_io; j++)
		mesh_bitmap_clear(p->compute, t->io_nodes[j]);
	if (mesh_bitmap_count(p->compute) >= req->nodes)
		f = p->compute;
	ext[p->g.axis] = h;
	ext[p->g.u] = (int) (req->nodes / (uint32_t) h);
	if (ext[p->g.u] < 1)
		ext[p->g.u] = 1;
	if (ext[p->g.u] > t->dim[p->g.u])
		ext[p->g.u] = t->dim[p->g.u];
	mesh__mc_prepare(&p->mc, f);
	best.cost = UINT64_MAX;
	mesh__mc_search(&p->mc, f, ext, req->nodes, &best);
	if (best.cost == UINT64_MAX)
		return MESH_ENOSPC;
	mesh__mc_gather(&p->mc, f, &best, req->nodes, mce_key, p, out);
	return 0;
}

const struct mesh_alloc_ops mesh__mce_ops = {
	.create = mce_create,
	.destroy = mce_destroy,
	.place = mce_place,
};

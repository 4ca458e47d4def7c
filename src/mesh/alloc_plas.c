/* alloc_plas.c - PLAS (Parallel Layout Allocation Strategy): a fixed
 * scan, one column parallel to the I/O nodes after another, middle-out
 * within each column; the first k free nodes.
 *
 * Implements: Mache, dissertation, Ch. VII "PLAS", Fig. 51 (scanning
 * order) and Fig. 52 (pseudocode).  In the paper the I/O nodes form the
 * west column of the mesh; the scan starts at the column next to them,
 * row middle = k/2, and alternates one node above and one below the
 * middle I/O link, which gives perfect per-job and system balance
 * factors from an empty machine without departures.
 * Decisions the paper leaves open (generalisation to any I/O placement,
 * see doc/io-balance.md):
 *  - the column axis is the one along which the I/O nodes spread most;
 *    the middle link sits below the (m/2)-th I/O node along it;
 *  - columns are visited by increasing L1 (Lee) distance, across the
 *    other two axes, to the nearest I/O node, ties by node index; in the
 *    paper's layout that is west to east;
 *  - middle-out: mid, mid-1, mid+1, mid-2, ... and once one end is
 *    reached the rest of the other side in order;
 *  - I/O nodes are compute-free in the paper; here they are handed out
 *    only after every other free node (so PLAS never refuses);
 *  - Fig. 52 is stateless ("always starting from the same middle
 *    point"): the first k free nodes of the scan, which is how "the next
 *    job picks up where the previous job stopped" without departures.
 * Without I/O nodes create fails with MESH_EINVAL.
 */
#include <stdlib.h>

#include "alloc_internal.h"
#include "error.h"
#include "iogeom.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;

	return (x > y) - (x < y);
}

/* Distance (other two axes) from node q's column to the nearest I/O. */
static int column_distance(const struct mesh_topo *t,
			   const struct mesh__io_geom *g, const int q[3])
{
	int best = 1 << 30, r[3], dist;
	size_t j;

	for (j = 0; j < t->n_io; j++) {
		mesh_topo_coords(t, t->io_nodes[j], r);
		dist = mesh_topo_axis_distance(t, g->u, q[g->u], r[g->u]) +
		       mesh_topo_axis_distance(t, g->w, q[g->w], r[g->w]);
		best = dist < best ? dist : best;
	}
	return best;
}

static int plas_order(const struct mesh_topo *t, uint32_t *order)
{
	struct mesh__io_geom g;
	uint64_t *key = malloc(t->nodes * sizeof(*key));
	int *cd = malloc(t->nodes * sizeof(*cd)), q[3], rc;
	uint32_t i, col;

	rc = key && cd ? mesh__io_geometry(t, &g) : MESH_ENOMEM;
	for (i = 0; !rc && i < t->nodes; i++) {
		mesh_topo_coords(t, i, q);
		if (q[g.axis] == 0)
			cd[i] = column_distance(t, &g, q);
	}
	for (i = 0; !rc && i < t->nodes; i++) {
		mesh_topo_coords(t, i, q);
		q[g.axis] = 0;
		col = mesh_topo_index(t, q); /* the column's first node */
		mesh_topo_coords(t, i, q);
		/* io flag | column distance | column | middle-out rank */
		key[i] = (uint64_t) mesh_topo_is_io(t, i) << 63 |
			 (uint64_t) cd[col] << 48 | (uint64_t) col << 24 |
			 (uint64_t) mesh__io_rank(t, &g, q[g.axis]);
		order[i] = i;
	}
	if (!rc) {
		uint64_t *pair = malloc(t->nodes * sizeof(*pair) * 2);

		rc = pair ? 0 : MESH_ENOMEM;
		for (i = 0; !rc && i < t->nodes; i++)
			pair[2 * i] = key[i], pair[2 * i + 1] = i;
		if (!rc) {
			qsort(pair, t->nodes, 2 * sizeof(*pair), cmp_u64);
			for (i = 0; i < t->nodes; i++)
				order[i] = (uint32_t) pair[2 * i + 1];
		}
		free(pair);
	}
	free(key);
	free(cd);
	return rc;
}

struct plas_priv {
	uint32_t *order; /* position -> node */
	uint32_t *pos;   /* node -> position */
	uint32_t *free_pos;
};

static void plas_destroy(struct mesh_allocator *a)
{
	struct plas_priv *p = a->priv;

	free(p->order);
	free(p->pos);
	free(p->free_pos);
	free(p);
}

static int plas_create(struct mesh_allocator *a, const char *params,
		       struct mesh_diag *d)
{
	struct plas_priv *p;
	uint32_t i, n = a->topo->nodes;
	int rc = mesh__param_check(params, NULL, a->name, d);

	if (rc)
		return rc;
	rc = mesh__io_required(a->topo, a->name, d);
	if (rc)
		return rc;
	p = calloc(1, sizeof(*p));
	if (!p)
		return MESH_ENOMEM;
	a->priv = p;
	p->order = malloc(n * sizeof(*p->order));
	p->pos = malloc(n * sizeof(*p->pos));
	p->free_pos = malloc(n * sizeof(*p->free_pos));
	rc = p->order && p->pos && p->free_pos ? plas_order(a->topo, p->order)
					       : MESH_ENOMEM;
	for (i = 0; !rc && i < n; i++)
		p->pos[p->order[i]] = i;
	if (rc) {
		plas_destroy(a);
		a->priv = NULL;
	}
	return rc;
}

/* The first k free nodes in PLAS order.  The order covers the whole mesh
 * (I/O nodes anywhere), so a sparse mesh is not cropped; with at most
 * 1/64 of the nodes free, the free nodes' positions in the order are
 * looked up and sorted instead of scanning the order (doc/design.md,
 * "Sparse meshes"). */
static int plas_place(struct mesh_allocator *a, const struct mesh_view *v,
		      const struct mesh_request *req, uint32_t *out)
{
	struct plas_priv *p = a->priv;
	uint32_t i, m = 0;

	if (mesh__sparse_wanted(a, v)) {
		m = mesh__free_sorted(a, v->free, p->pos, p->free_pos);
		if (m < req->nodes)
			return MESH_ENOSPC;
		for (i = 0; i < req->nodes; i++)
			out[i] = p->order[p->free_pos[i]];
		return 0;
	}
	for (i = 0; i < v->topo->nodes && m < req->nodes; i++)
		if (mesh_bitmap_test(v->free, p->order[i]))
			out[m++] = p->order[i];
	return m == req->nodes ? 0 : MESH_ENOSPC;
}

const struct mesh_alloc_ops mesh__plas_ops = {
	.create = plas_create,
	.destroy = plas_destroy,
	.place = plas_place,
};

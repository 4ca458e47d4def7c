/* alloc_paging.c - Paging: square (cubic) pages in row-major order, the
 * first free pages first.
 *
 * Implements: Lo, Windisch, Liu, Nitzberg, "Noncontiguous processor
 * allocation algorithms for mesh-connected multicomputers" (1997), as
 * described by Mache, dissertation, Ch. II ("Paging scans the topology in
 * fixed order for unallocated nodes, e.g. row by row") and by Walker,
 * Bunde, Leung, Sec. V (pages ordered by a curve, the first free pages
 * used).  Parameter page=N: pages are N x N (x N in 3D) blocks; default 1.
 * Decisions the papers leave open:
 *  - page order and node order inside a page both follow the library's
 *    row-major curve (curve.h: longest dimension fastest), so page=1 is
 *    exactly rowmajor-freelist;
 *  - pages at the mesh edge are cut short by the mesh;
 *  - a job gets exactly k nodes: the nodes of wholly free pages in page
 *    order first, then (if those hold fewer than k) the remaining free
 *    nodes in page order.  So Paging never refuses while k nodes are
 *    free, and a partly used page stays usable by later jobs instead of
 *    being lost to internal fragmentation.
 */
#include <stdlib.h>

#include "alloc_internal.h"
#include "curve.h"
#include "error.h"

struct paging_priv {
	uint32_t *order;   /* nodes, page by page */
	uint32_t *page_at; /* start of each page in order[]; n_pages + 1 */
	uint32_t n_pages;
	uint64_t *keys;
};

static void paging_destroy(struct mesh_allocator *a)
{
	struct paging_priv *p = a->priv;

	free(p->order);
	free(p->page_at);
	free(p->keys);
	free(p);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;

	return (x > y) - (x < y);
}

/* keys[i] = page rank << 22 | node rank in the row-major curve. */
static int page_keys(const struct mesh_topo *t, unsigned long side,
		     struct paging_priv *p)
{
	struct mesh_topo *pt = NULL;
	uint32_t *rank = NULL, *prank = NULL, *tmp = NULL, i;
	int pd[3], c[3], d, rc;

	for (d = 0; d < 3; d++)
		pd[d] = (int) ((t->dim[d] + side - 1) / side);
	rc = mesh_topo_create(t->ndims, pd, NULL, &pt);
	if (rc)
		return rc;
	p->n_pages = pt->nodes;
	rank = malloc(t->nodes * sizeof(*rank));
	prank = malloc(pt->nodes * sizeof(*prank));
	tmp = malloc(t->nodes * sizeof(*tmp));
	rc = !rank || !prank || !tmp ? MESH_ENOMEM : 0;
	if (!rc)
		rc = mesh_curve_order(t, MESH_CURVE_ROWMAJOR, tmp);
	if (!rc)
		rc = mesh_curve_order(pt, MESH_CURVE_ROWMAJOR, prank);
	if (!rc) {
		for (i = 0; i < t->nodes; i++)
			rank[tmp[i]] = i;
		for (i = 0; i < pt->nodes; i++)
			tmp[prank[i]] = i; /* page index -> page rank */
		for (i = 0; i < t->nodes; i++) {
			mesh_topo_coords(t, i, c);
			for (d = 0; d < 3; d++)
				c[d] /= (int) side;
			p->keys[i] = (uint64_t) tmp[mesh_topo_index(pt, c)]
					 << 22 |
				     rank[i];
		}
	}
	free(rank);
	free(prank);
	free(tmp);
	mesh_topo_destroy(pt);
	return rc;
}

static int paging_create(struct mesh_allocator *a, const char *params,
			 struct mesh_diag *d)
{
	static const char *const known[] = { "page", NULL };
	const struct mesh_topo *t = a->topo;
	struct paging_priv *p;
	unsigned long side = 1;
	uint32_t i, *order = NULL;
	int rc = mesh__param_check(params, known, a->name, d);

	if (!rc)
		rc = mesh__param_uint(params, "page", 1, 4096, &side, d);
	if (rc)
		return rc;
	p = calloc(1, sizeof(*p));
	if (!p)
		return MESH_ENOMEM;
	a->priv = p;
	p->keys = malloc(t->nodes * sizeof(*p->keys));
	p->order = malloc(t->nodes * sizeof(*p->order));
	order = malloc(t->nodes * sizeof(*order));
	rc = p->keys && p->order && order ? page_keys(t, side, p) : MESH_ENOMEM;
	if (!rc)
		rc = mesh_curve_order(t, MESH_CURVE_ROWMAJOR, order);
	p->page_at =
	    rc ? NULL : calloc((size_t) p->n_pages + 1, sizeof(uint32_t));
	if (!rc && p->page_at) {
		uint64_t *k = p->keys;

		qsort(k, t->nodes, sizeof(*k), cmp_u64);
		for (i = 0; i < t->nodes; i++) {
			p->order[i] = order[k[i] & ((1u << 22) - 1)];
			p->page_at[(k[i] >> 22) + 1] = i + 1;
		}
		for (i = 1; i <= p->n_pages; i++)
			if (p->page_at[i] < p->page_at[i - 1])
				p->page_at[i] = p->page_at[i - 1];
	} else if (!rc) {
		rc = MESH_ENOMEM;
	}
	free(order);
	if (rc) {
		paging_destroy(a);
		a->priv = NULL;
	}
	return rc;
}

static int page_free(const struct paging_priv *p, const struct mesh_view *v,
		     uint32_t pg)
{
	uint32_t i;

	for (i = p->page_at[pg]; i < p->page_at[pg + 1]; i++)
		if (!mesh_bitmap_test(v->free, p->order[i]))
			return 0;
	return 1;
}

static int paging_place(struct mesh_allocator *a, const struct mesh_view *v,
			const struct mesh_request *req, uint32_t *out)
{
	struct paging_priv *p = a->priv;
	uint32_t k = req->nodes, m = 0, pg, i, pass;

	for (pass = 0; pass < 2 && m < k; pass++) {
		for (pg = 0; pg < p->n_pages && m < k; pg++) {
			int whole = page_free(p, v, pg);

			if (whole != (pass == 0))
				continue;
			for (i = p->page_at[pg];
			     i < p->page_at[pg + 1] && m < k; i++)
				if (mesh_bitmap_test(v->free, p->order[i]))
					out[m++] = p->order[i];
		}
	}
	return m == k ? 0 : MESH_ENOSPC;
}

const struct mesh_alloc_ops mesh__paging_ops = {
	.create = paging_create,
	.destroy = paging_destroy,
	.place = paging_place,
};

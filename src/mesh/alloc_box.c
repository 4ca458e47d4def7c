/* alloc_box.c - box-first: an exact box when one of the job's size is
 * free, else the most compact set of free nodes.
 *
 * A job whose nodes fill a sub-mesh keeps its traffic inside it under
 * dimension-order routing and leaves the free region in boxes for the
 * next jobs: the case for contiguous allocation (Tang et al. Sec. VI;
 * Slurm 26.05's topology/torus3d, which scores a sub-box by the
 * fragmentation it leaves).  Contiguous-only allocators make a job wait
 * while enough nodes are free; non-contiguous ones (Lo et al. 1997, MBS;
 * Walker et al.) place it, but seldom on a box.  Box-first does both:
 *  - box=NAME (default contig-bf): the box search, one of contig-ff,
 *    contig-bf (least fragmentation: the box touching the most busy
 *    nodes and mesh faces) or their sl: wrappers (Tang's walltime-aware
 *    tie-break: neighbours that end together);
 *  - else=NAME (default mm-inc, Bender et al.): the allocator for a job
 *    no free box fits, any that places whenever k nodes are free;
 *  - slack=PERCENT (default 10): a box whose pairwise sum exceeds the
 *    else= set's by more loses to that set (a line of a prime size
 *    against a block);
 *  - align=1 (contig-bf only): boxes aligned to their extents first
 *    (contig-bf's align=, the buddy system's and torus3d's anchors);
 *  - keep=1 (contig-bf only): the box that leaves the largest free box
 *    first (contig-bf's keep=);
 *  - wait=1: a job of a size that some box holds on the empty machine
 *    waits for a box, as under topology/torus3d; only the sizes no box
 *    holds (5 nodes on 4x4x4) take else= (MESH_ALLOC_MAY_REFUSE).
 * A request flagged MESH_REQ_CONTIGUOUS gets a box or waits.
 * doc/allocators.md has the measurements behind the defaults.
 */
#include <stdlib.h>
#include <string.h>

#include "alloc_internal.h"
#include "error.h"
#include "metrics.h"

struct box_priv {
	struct mesh_allocator *box, *other;
	unsigned long slack; /* percent */
	uint32_t *alt;       /* the other placement, topo->nodes entries */
	int wait;            /* wait for a box when the size has one */
	struct mesh_bitmap *all_free; /* the empty machine, for wait */
	signed char *has_box;         /* per size k: -1 unknown, 0, 1 */
};

static void box_destroy(struct mesh_allocator *a)
{
	struct box_priv *p = a->priv;

	mesh_alloc_destroy(p->box);
	mesh_alloc_destroy(p->other);
	free(p->alt);
	mesh_bitmap_destroy(p->all_free);
	free(p->has_box);
	free(p);
}

static int is_box_search(const char *name)
{
	static const char *const ok[] = { "contig-ff", "contig-bf",
					  "sl:contig-ff", "sl:contig-bf" };
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (!strcmp(name, ok[i]))
			return 1;
	return 0;
}

static int box_create(struct mesh_allocator *a, const char *params,
		      struct mesh_diag *d)
{
	static const char *const known[] = { "box",  "else", "slack", "align",
					     "keep", "wait", NULL };
	char box[32] = "contig-bf", other[32] = "mm-inc";
	unsigned long align = 0, keep = 0, wait = 0;
	struct box_priv *p;
	int rc;

	rc = mesh__param_check(params, known, a->name, d);
	if (!rc)
		rc = mesh__param_uint(params, "align", 0, 1, &align, d);
	if (!rc)
		rc = mesh__param_uint(params, "keep", 0, 1, &keep, d);
	if (!rc)
		rc = mesh__param_uint(params, "wait", 0, 1, &wait, d);
	if (rc)
		return rc;
	mesh__param_get(params, "box", box, sizeof(box));
	mesh__param_get(params, "else", other, sizeof(other));
	if (!is_box_search(box))
		return mesh_diag_set(d, MESH_EINVAL, NULL, 0, "box",
				     "expected contig-ff, contig-bf, "
				     "sl:contig-ff or sl:contig-bf, got \"%s\"",
				     box);
	if ((align || keep) && !strstr(box, "contig-bf"))
		return mesh_diag_set(d, MESH_EINVAL, NULL, 0,
				     align ? "align" : "keep",
				     "%s=1 needs box=contig-bf or "
				     "sl:contig-bf, got box=%s",
				     align ? "align" : "keep", box);
	if (!strcmp(other, a->entry->info.name))
		return mesh_diag_set(d, MESH_EINVAL, NULL, 0, "else",
				     "box-first cannot fall back to itself");
	p = calloc(1, sizeof(*p));
	if (!p)
		return MESH_ENOMEM;
	a->priv = p;
	p->slack = 10;
	p->wait = (int) wait;
	rc = mesh__param_uint(params, "slack", 0, 1000, &p->slack, d);
	p->alt = rc ? NULL : malloc(a->topo->nodes * sizeof(*p->alt));
	if (!rc && !p->alt)
		rc = MESH_ENOMEM;
	if (!rc && wait) {
		p->has_box = malloc(a->topo->nodes + 1);
		if (!p->has_box ||
		    mesh_bitmap_create(a->topo->nodes, &p->all_free))
			rc = MESH_ENOMEM;
		else {
			memset(p->has_box, -1, a->topo->nodes + 1);
			mesh_bitmap_fill(p->all_free, true);
		}
	}
	if (!rc)
		rc = mesh__alloc_create_geom(a->topo, box,
					     align  ? "align=1"
					     : keep ? "keep=1"
						    : NULL,
					     a->gdim, &p->box, d);
	if (!rc)
		rc = mesh__alloc_create_geom(a->topo, other, NULL, a->gdim,
					     &p->other, d);
	if (!rc && (mesh_alloc_flags(p->other) &
		    (MESH_ALLOC_CONTIGUOUS_ONLY | MESH_ALLOC_MAY_REFUSE |
		     MESH_ALLOC_USES_IO)))
		rc = mesh_diag_set(d, MESH_EINVAL, NULL, 0, "else",
				   "%s may refuse a job that fits by count or "
				   "needs I/O nodes; box-first's else= must "
				   "place whenever k nodes are free",
				   other);
	if (!rc)
		a->added_flags =
		    ((mesh_alloc_flags(p->box) | mesh_alloc_flags(p->other)) &
		     MESH_ALLOC_USES_WALLTIME) |
		    (wait ? MESH_ALLOC_MAY_REFUSE : 0);
	if (rc) {
		box_destroy(a);
		a->priv = NULL;
	}
	return rc;
}

/* Whether a box of the request's size (and shape) fits the empty
 * machine: 1, 0, or a MESH_E* code. */
static int size_has_box(struct box_priv *p, const struct mesh_topo *t,
			const struct mesh_request *req, uint32_t *scratch)
{
	struct mesh_view empty = { t, p->all_free, NULL, 0 };
	int shaped = req->shape[0] || req->shape[1] || req->shape[2];
	int rc;

	if (!shaped && p->has_box[req->nodes] >= 0)
		return p->has_box[req->nodes];
	rc = mesh_alloc_place(p->box, &empty, req, scratch);
	if (rc && rc != MESH_ENOSPC)
		return rc;
	if (!shaped)
		p->has_box[req->nodes] = (signed char) !rc;
	return !rc;
}

static int box_place(struct mesh_allocator *a, const struct mesh_view *v,
		     const struct mesh_request *req, uint32_t *out)
{
	struct box_priv *p = a->priv;
	uint64_t in_box, other;
	int rc = mesh__alloc_run_part(a, p->box, v, req, out);

	if (rc == MESH_ENOSPC && p->wait &&
	    !(req->flags & MESH_REQ_CONTIGUOUS)) {
		int has = size_has_box(p, a->topo, req, p->alt);

		if (has < 0)
			return has;
		if (has)
			return MESH_ENOSPC;
	}
	if (rc == MESH_ENOSPC && !(req->flags & MESH_REQ_CONTIGUOUS))
		return mesh__alloc_run_part(a, p->other, v, req, out);
	if (rc || (req->flags & MESH_REQ_CONTIGUOUS))
		return rc;
	/* a box far less compact than the other's set (a line of a prime
	 * size) loses: its pairs pay the distance for the whole run */
	rc = mesh__alloc_run_part(a, p->other, v, req, p->alt);
	if (rc)
		return rc;
	if ((rc = mesh_metrics_sum_pairwise(a->topo, out, req->nodes,
					    &in_box)) ||
	    (rc = mesh_metrics_sum_pairwise(a->topo, p->alt, req->nodes,
					    &other)))
		return rc;
	if (in_box * 100 > other * (100 + p->slack))
		memcpy(out, p->alt, req->nodes * sizeof(*out));
	return 0;
}

const struct mesh_alloc_ops mesh__box_ops = {
	.create = box_create,
	.destroy = box_destroy,
	.place = box_place,
};

/* alloc_auto.c - per-job policy (Mache Ch. VIII, future work): one machine
 * runs both kinds of job.
 *
 *  - A job whose I/O intensity (hint or sidecar, struct mesh_request) is
 *    at least io=<percent>/100 (default 50) is placed for I/O balance by
 *    plas (middle-out from the I/O nodes, Mache Ch. VII).
 *  - Every other job (communication-heavy or without hint) is placed for
 *    compactness by mc1x1 (Mache Ch. IV).
 */
#include <stdlib.h>
#include <string.h>

#include "alloc_internal.h"
#include "error.h"

struct auto_priv {
	struct mesh_allocator *io;   /* plas */
	struct mesh_allocator *comm; /* mc1x1 */
	double threshold;
};

static void auto_destroy(struct mesh_allocator *a)
{
	struct auto_priv *p = a->priv;

	mesh_alloc_destroy(p->io);
	mesh_alloc_destroy(p->comm);
	free(p);
}

static int auto_create(struct mesh_allocator *a, const char *params,
		       struct mesh_diag *d)
{
	static const char *const known[] = { "io", NULL };
	struct auto_priv *p;
	unsigned long pct = 50;
	int rc;

	rc = mesh__param_check(params, known, "auto", d);
	if (!rc && params)
		rc = mesh__param_uint(params, "io", 0, 100, &pct, d);
	if (rc)
		return rc;
	p = calloc(1, sizeof(*p));
	if (!p)
		return MESH_ENOMEM;
	a->priv = p;
	p->threshold = (double) pct / 100.0;
	rc = mesh__alloc_create_geom(a->topo, "plas", NULL, a->gdim, &p->io, d);
	if (!rc)
		rc = mesh__alloc_create_geom(a->topo, "mc1x1", NULL, a->gdim,
					     &p->comm, d);
	if (rc) {
		auto_destroy(a);
		a->priv = NULL;
	}
	return rc;
}

static int auto_place(struct mesh_allocator *a, const struct mesh_view *v,
		      const struct mesh_request *req, uint32_t *out)
{
	struct auto_priv *p = a->priv;
	struct mesh_allocator *b =
	    req->io_intensity >= 0 && req->io_intensity >= p->threshold
		? p->io
		: p->comm;
	int rc;

	/* mc1x1 looks at free nodes only, so it may crop (crop.c); plas
	 * takes its sparse path itself */
	b->sparse = a->sparse;
	b->bounded = a->bounded;
	memcpy(b->blo, a->blo, sizeof(b->blo));
	memcpy(b->bhi, a->bhi, sizeof(b->bhi));
	if (mesh__crop_place(b, v, req, out, &rc)) {
		a->sparse_used++;
		return rc;
	}
	rc = b->entry->ops->place(b, v, req, out);
	a->sparse_used += b->sparse_used;
	b->sparse_used = 0;
	return rc;
}

const struct mesh_alloc_ops mesh__auto_ops = {
	.create = auto_create,
	.destroy = auto_destroy,
	.place = auto_place,
};

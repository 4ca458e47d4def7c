/* alloc_auto.c - per-job policy (Mache Ch. VIII, future work): one machine
 * runs both kinds of job, each placed by the strategy that the
 * dissertation designed for it.  From the job's I/O intensity (io,
 * "heavy" when at least io=<percent>/100, default 50) and its
 * communication pattern (comm; struct mesh_request, from the hints, the
 * mesh.conf defaults or the meshsim sidecar):
 *
 *  - I/O-heavy and communicating (all-to-all, one-to-all, nearest):
 *    mc-elongated, balance and compactness at once (Ch. VII, Fig. 59).
 *  - I/O-heavy otherwise (comm none or not given): plas, middle-out from
 *    the I/O nodes for I/O balance (Ch. VII, Figs. 51-52).
 *  - Not I/O-heavy and comm=none: hilbert-bf.  Such a job suffers from no
 *    dispersal and adds no traffic to other jobs' links, so it fills the
 *    smallest run of free nodes along the curve and leaves the larger
 *    compact regions to communicating jobs (Ch. VIII: "backfilling
 *    otherwise idle compute nodes with jobs that do not do I/O").
 *  - Every other job (communicating, or without hint): mc1x1, compactness
 *    (Ch. V).
 */
#include <stdlib.h>
#include <string.h>

#include "alloc_internal.h"
#include "error.h"

enum auto_kind { AUTO_IO, AUTO_IO_COMM, AUTO_FILL, AUTO_COMPACT, AUTO_N };

static const char *const auto_names[AUTO_N] = { "plas", "mc-elongated",
						"hilbert-bf", "mc1x1" };

struct auto_priv {
	struct mesh_allocator *by[AUTO_N];
	double threshold;
};

static void auto_destroy(struct mesh_allocator *a)
{
	struct auto_priv *p = a->priv;
	int i;

	for (i = 0; i < AUTO_N; i++)
		mesh_alloc_destroy(p->by[i]);
	free(p);
}

static int auto_create(struct mesh_allocator *a, const char *params,
		       struct mesh_diag *d)
{
	static const char *const known[] = { "io", NULL };
	struct auto_priv *p;
	unsigned long pct = 50;
	int rc, i;

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
	for (i = 0; i < AUTO_N && !rc; i++)
		rc = mesh__alloc_create_geom(a->topo, auto_names[i], NULL,
					     a->gdim, &p->by[i], d);
	if (rc) {
		auto_destroy(a);
		a->priv = NULL;
	}
	return rc;
}

const char *mesh_auto_choice(const struct mesh_request *req, double threshold)
{
	int io = req->io_intensity >= 0 && req->io_intensity >= threshold;
	int talks =
	    req->comm != MESH_COMM_UNKNOWN && req->comm != MESH_COMM_NONE;

	if (io)
		return auto_names[talks ? AUTO_IO_COMM : AUTO_IO];
	return auto_names[req->comm == MESH_COMM_NONE ? AUTO_FILL
						      : AUTO_COMPACT];
}

static int auto_place(struct mesh_allocator *a, const struct mesh_view *v,
		      const struct mesh_request *req, uint32_t *out)
{
	struct auto_priv *p = a->priv;
	const char *name = mesh_auto_choice(req, p->threshold);
	struct mesh_allocator *b = p->by[0];
	int rc, i;

	for (i = 0; i < AUTO_N; i++)
		if (!strcmp(auto_names[i], name))
			b = p->by[i];
	/* mc1x1 and the curve fit look at free nodes only, so they may crop
	 * (alloc.c); plas and mc-elongated take their sparse path themselves */
	b->sparse = a->sparse;
	b->bounded = a->bounded;
	memcpy(b->blo, a->blo, sizeof(b->blo));
	memcpy(b->bhi, a->bhi, sizeof(b->bhi));
	rc = mesh__alloc_run(b, v, req, out);
	a->sparse_used += b->sparse_used;
	b->sparse_used = 0;
	return rc;
}

const struct mesh_alloc_ops mesh__auto_ops = {
	.create = auto_create,
	.destroy = auto_destroy,
	.place = auto_place,
};

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
 *  - Every other job (communicating, or without hint): compactness, by
 *    mc1x1 (Ch. V) on a mesh and by box-first on a torus, where mc1x1's
 *    shells place an 8-node job as a star and box-first a 2x2x2 cube
 *    (doc/allocators.md has the measurements).
 * Without I/O nodes there is no I/O balance to seek: an I/O-heavy job is
 * placed by its communication pattern alone.
 */
#include <stdlib.h>

#include "alloc_internal.h"
#include "error.h"

enum auto_kind {
	AUTO_IO,
	AUTO_IO_COMM,
	AUTO_FILL,
	AUTO_COMPACT,
	AUTO_COMPACT_TORUS,
	AUTO_N
};

static const char *const auto_names[AUTO_N] = { "plas", "mc-elongated",
						"hilbert-bf", "mc1x1",
						"box-first" };

struct auto_priv {
	struct mesh_allocator *by[AUTO_N];
	double threshold;
};

static int is_torus(const struct mesh_topo *t)
{
	return t->wrap[0] || t->wrap[1] || t->wrap[2];
}

/* Can choose() return k on t?  Only those allocators are created. */
static int can_choose(const struct mesh_topo *t, enum auto_kind k)
{
	switch (k) {
	case AUTO_IO:
	case AUTO_IO_COMM:
		return t->n_io > 0;
	case AUTO_COMPACT:
		return !is_torus(t);
	case AUTO_COMPACT_TORUS:
		return is_torus(t);
	default:
		return 1;
	}
}

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
		if (can_choose(a->topo, (enum auto_kind) i))
			rc = mesh__alloc_create_geom(a->topo, auto_names[i],
						     NULL, a->gdim, &p->by[i],
						     d);
	if (rc) {
		auto_destroy(a);
		a->priv = NULL;
	}
	return rc;
}

static enum auto_kind choose(const struct mesh_topo *t,
			     const struct mesh_request *req, double threshold)
{
	int io = req->io_intensity >= 0 && req->io_intensity >= threshold &&
		 t->n_io > 0;
	int talks =
	    req->comm != MESH_COMM_UNKNOWN && req->comm != MESH_COMM_NONE;

	if (io)
		return talks ? AUTO_IO_COMM : AUTO_IO;
	if (req->comm == MESH_COMM_NONE)
		return AUTO_FILL;
	return is_torus(t) ? AUTO_COMPACT_TORUS : AUTO_COMPACT;
}

const char *mesh_auto_choice(const struct mesh_topo *t,
			     const struct mesh_request *req, double threshold)
{
	return auto_names[choose(t, req, threshold)];
}

static int auto_place(struct mesh_allocator *a, const struct mesh_view *v,
		      const struct mesh_request *req, uint32_t *out)
{
	struct auto_priv *p = a->priv;

	/* mc1x1 and the curve fit look at free nodes only, so they may crop
	 * (alloc.c); plas and mc-elongated take their sparse path themselves */
	return mesh__alloc_run_part(
	    a, p->by[choose(a->topo, req, p->threshold)], v, req, out);
}

const struct mesh_alloc_ops mesh__auto_ops = {
	.create = auto_create,
	.destroy = auto_destroy,
	.place = auto_place,
};

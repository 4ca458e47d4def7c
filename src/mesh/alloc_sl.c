/* alloc_sl.c - sl:<base>: walltime-aware tie-breaking (Similar-Length
 * allocation) on top of any allocator that can list its equally good
 * placements.
 *
 * Implements: Tang, Lan, Desai, Buettner, Yu, "Reducing fragmentation on
 * torus-connected supercomputers", Sec. IV-A and Algorithm 1 (SL): "SL
 * is used as a tiebreaker when the least-blocking allocation policy
 * results in multiple equivalent candidates ... The scheduler compares
 * the walltime difference between each of the candidates' neighboring
 * jobs and the job scheduled to run.  The best partition is selected
 * based on the least walltime difference."
 * Decisions the paper leaves open (its candidates are Blue Gene
 * partitions; ours are node sets):
 *  - the candidates are the base's equally good placements (ops
 *    ->candidates), in the base's own preference order, at most 1024;
 *  - a candidate's neighbouring jobs are the busy nodes adjacent (one
 *    hop, wrapping on tori) to it, each counted once; a busy node's end
 *    is max(v->end_time[n], v->now), nodes with end_time <= 0 (unknown)
 *    are ignored;
 *  - the walltime difference of a candidate is the mean over those
 *    nodes of |end - req->end_time|; a candidate with no such neighbour
 *    ranks after every candidate that has one;
 *  - the least difference wins, ties to the base's earlier candidate;
 *    without end times (v->end_time NULL or req->end_time <= 0) the
 *    answer is the base's own;
 *  - flags are the base's plus MESH_ALLOC_USES_WALLTIME; a base without
 *    a candidates operation is a create error (MESH_EINVAL).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_internal.h"
#include "error.h"

#define SL_MAX_CANDIDATES 1024

struct sl_priv {
	uint32_t *stamp; /* generation marks per node */
	uint32_t gen;
	uint32_t *best; /* best candidate so far */
	uint32_t *buf;
	/* per-call context */
	const struct mesh_view *v;
	const struct mesh_request *req;
	double best_score;
	unsigned seen;
	int have;
};

static void sl_destroy(struct mesh_allocator *a)
{
	struct sl_priv *p = a->priv;

	free(p->stamp);
	free(p->best);
	free(p->buf);
	free(p);
}

static int sl_create(struct mesh_allocator *a, const char *params,
		     struct mesh_diag *d)
{
	const char *base = a->name + 3;
	struct sl_priv *p;
	uint32_t n = a->topo->nodes;
	int rc;

	if (!strncmp(base, "sl:", 3))
		return mesh_diag_set(
		    d, MESH_EINVAL, NULL, 0, "allocator",
		    "sl: takes the name of another allocator, e.g. sl:mc1x1");
	rc = mesh__alloc_create_geom(a->topo, base, params, a->gdim, &a->base,
				     d);
	if (rc)
		return rc;
	if (!a->base->entry->ops->candidates)
		return mesh_diag_set(
		    d, MESH_EINVAL, NULL, 0, "allocator",
		    "%s cannot list equally good placements, so sl:%s is not available",
		    base, base);
	p = calloc(1, sizeof(*p));
	if (!p)
		return MESH_ENOMEM;
	p->stamp = calloc(n, sizeof(*p->stamp));
	p->best = malloc(n * sizeof(*p->best));
	p->buf = malloc(n * sizeof(*p->buf));
	if (!p->stamp || !p->best || !p->buf) {
		a->priv = p;
		sl_destroy(a);
		a->priv = NULL;
		return MESH_ENOMEM;
	}
	a->priv = p;
	return 0;
}

static uint32_t next_gen(struct sl_priv *p, uint32_t n)
{
	if (++p->gen == 0) {
		memset(p->stamp, 0, n * sizeof(*p->stamp));
		p->gen = 1;
	}
	return p->gen;
}

/* Mean walltime difference to the neighbouring busy nodes, or INFINITY. */
static double sl_score(struct sl_priv *p, const uint32_t *nodes, uint32_t k)
{
	const struct mesh_topo *t = p->v->topo;
	uint32_t in = next_gen(p, t->nodes), nb, i, cnt = 0;
	uint32_t out_gen = next_gen(p, t->nodes);
	double sum = 0, end;
	int c[3], q[3], d, s;

	if (out_gen < in) /* the counter wrapped and cleared the marks */
		in = next_gen(p, t->nodes), out_gen = next_gen(p, t->nodes);
	for (i = 0; i < k; i++)
		p->stamp[nodes[i]] = in;
	for (i = 0; i < k; i++) {
		mesh_topo_coords(t, nodes[i], c);
		for (d = 0; d < 3; d++)
			for (s = -1; s <= 1; s += 2) {
				memcpy(q, c, sizeof(q));
				q[d] += s;
				if (q[d] < 0 || q[d] >= t->dim[d]) {
					if (!t->wrap[d] || t->dim[d] < 3)
						continue;
					q[d] = (q[d] + t->dim[d]) % t->dim[d];
				}
				nb = mesh_topo_index(t, q);
				if (p->stamp[nb] == in ||
				    p->stamp[nb] == out_gen ||
				    mesh_bitmap_test(p->v->free, nb) ||
				    p->v->end_time[nb] <= 0)
					continue;
				p->stamp[nb] = out_gen;
				end = p->v->end_time[nb] > p->v->now
					  ? p->v->end_time[nb]
					  : p->v->now;
				sum += fabs(end - p->req->end_time);
				cnt++;
			}
	}
	return cnt ? sum / cnt : INFINITY;
}

static int sl_visit(void *ctx, const uint32_t *nodes)
{
	struct sl_priv *p = ctx;
	uint32_t k = p->req->nodes;
	double s = sl_score(p, nodes, k);

	if (!p->have || s < p->best_score) {
		memcpy(p->best, nodes, k * sizeof(*nodes));
		p->best_score = s;
		p->have = 1;
	}
	return ++p->seen >= SL_MAX_CANDIDATES;
}

static int sl_place(struct mesh_allocator *a, const struct mesh_view *v,
		    const struct mesh_request *req, uint32_t *out)
{
	struct sl_priv *p = a->priv;
	struct mesh_allocator *b = a->base;
	int rc;

	if (!v->end_time || req->end_time <= 0)
		return b->entry->ops->place(b, v, req, out);
	p->v = v;
	p->req = req;
	p->have = 0;
	p->seen = 0;
	rc = b->entry->ops->candidates(b, v, req, p->buf, sl_visit, p);
	if (rc)
		return rc;
	if (!p->have)
		return MESH_ENOSPC;
	memcpy(out, p->best, req->nodes * sizeof(*out));
	return 0;
}

const struct mesh_alloc_ops mesh__sl_ops = {
	.create = sl_create,
	.destroy = sl_destroy,
	.place = sl_place,
};

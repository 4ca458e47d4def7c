/* alloc_mc1x1.c - MC1x1: the free centre whose k nearest free nodes, by
 * L-infinity shells, have the least sum of shell numbers.
 *
 * Implements: Walker, Bunde, Leung, Sec. I and Fig. 1 (after Mache et
 * al.'s MC with a 1x1 shell 0; Bender et al. 2008).  Shell s around
 * centre c is the set of nodes at L-inf (wrapped on tori) distance s.
 *
 * HOW IT WORKS: a summed-volume table over the free map answers "free
 * nodes within radius r of c" in O(1), so a centre's score is computed
 * shell by shell in O(radius) without visiting nodes, and stops as soon
 * as the best possible remainder cannot beat the best centre so far.
 * The answer is exactly the definition's: the lowest score, ties to the
 * lowest node index.
 * Decisions the paper leaves open: within the last, partly used shell,
 * nodes are taken by increasing L1 (Lee) distance to the centre, then by
 * node index, which keeps the allocation round.
 */
#include <stdlib.h>

#include "alloc_internal.h"
#include "boxsum.h"
#include "error.h"

struct mc_priv {
	struct mesh__boxsum box;
	struct cand { uint32_t node; int shell, l1; } *cand;
};

static int mc_create(struct mesh_allocator *a, const char *params,
		     struct mesh_diag *d)
{
	struct mc_priv *p;
	int rc = mesh__param_check(params, NULL, a->name, d);

	if (rc)
		return rc;
	p = calloc(1, sizeof(*p));
	if (!p)
		return MESH_ENOMEM;
	rc = mesh__boxsum_init(&p->box, a->topo);
	p->cand = malloc(a->topo->nodes * sizeof(*p->cand));
	if (rc || !p->cand) {
		mesh__boxsum_free(&p->box);
		free(p->cand);
		free(p);
		return MESH_ENOMEM;
	}
	a->priv = p;
	return 0;
}

static void mc_destroy(struct mesh_allocator *a)
{
	struct mc_priv *p = a->priv;

	mesh__boxsum_free(&p->box);
	free(p->cand);
	free(p);
}

static int max_radius(const struct mesh_topo *t)
{
	int d, r = 0;

	for (d = 0; d < 3; d++) {
		int rd = t->wrap[d] ? t->dim[d] / 2 : t->dim[d] - 1;

		if (rd > r)
			r = rd;
	}
	return r;
}

/* Score of centre c, or a value >= bound once it cannot beat bound.
 * *radius receives the last shell used. */
static uint64_t centre_score(const struct mesh__boxsum *b, const int c[3],
			     uint32_t k, int rmax, uint64_t bound, int *radius)
{
	uint32_t taken = 1, inside = 1, ball;
	uint64_t score = 0;
	int r, rad[3];

	*radius = 0;
	for (r = 1; taken < k && r <= rmax; r++) {
		rad[0] = rad[1] = rad[2] = r;
		ball = mesh__boxsum_ball(b, c, rad);
		uint32_t use = ball - inside;

		if (use > k - taken)
			use = k - taken;
		taken += use;
		inside = ball;
		score += (uint64_t) r * use;
		*radius = r;
		/* Remaining nodes cost at least r + 1 each. */
		if (score + (uint64_t) (k - taken) * (uint64_t) (r + 1) >= bound)
			return bound;
	}
	return score;
}

static int cand_cmp(const void *x, const void *y)
{
	const struct cand *a = x, *b = y;

	if (a->shell != b->shell)
		return a->shell - b->shell;
	if (a->l1 != b->l1)
		return a->l1 - b->l1;
	return (a->node > b->node) - (a->node < b->node);
}

static int linf(const struct mesh_topo *t, const int a[3], const int b[3])
{
	int d, m = 0;

	for (d = 0; d < 3; d++) {
		int x = mesh_topo_axis_distance(t, d, a[d], b[d]);

		if (x > m)
			m = x;
	}
	return m;
}

/* The k free nodes nearest to centre, shell by shell. */
static void gather(struct mc_priv *p, const struct mesh_view *v,
		   uint32_t centre, int radius, uint32_t k, uint32_t *out)
{
	const struct mesh_topo *t = v->topo;
	int c[3], q[3];
	uint32_t i, m = 0;

	mesh_topo_coords(t, centre, c);
	for (i = 0; i < t->nodes; i++) {
		if (!mesh_bitmap_test(v->free, i))
			continue;
		mesh_topo_coords(t, i, q);
		int s = linf(t, c, q);

		if (s > radius)
			continue;
		p->cand[m].node = i;
		p->cand[m].shell = s;
		p->cand[m].l1 = mesh_topo_distance(t, centre, i);
		m++;
	}
	qsort(p->cand, m, sizeof(*p->cand), cand_cmp);
	for (i = 0; i < k; i++)
		out[i] = p->cand[i].node;
}

static int mc_place(struct mesh_allocator *a, const struct mesh_view *v,
		    const struct mesh_request *req, uint32_t *out)
{
	struct mc_priv *p = a->priv;
	const struct mesh_topo *t = a->topo;
	uint64_t best = UINT64_MAX, s;
	uint32_t i, best_node = UINT32_MAX;
	int c[3], r, best_r = 0, rmax = max_radius(t);

	mesh__boxsum_build(&p->box, v->free);
	for (i = 0; i < t->nodes; i++) {
		if (!mesh_bitmap_test(v->free, i))
			continue;
		mesh_topo_coords(t, i, c);
		s = centre_score(&p->box, c, req->nodes, rmax, best, &r);
		if (s < best) {
			best = s;
			best_node = i;
			best_r = r;
		}
	}
	if (best_node == UINT32_MAX)
		return MESH_ENOSPC;
	gather(p, v, best_node, best_r, req->nodes, out);
	return 0;
}

/* Candidates for sl: every free centre of the least score, by index. */
static int mc_candidates(struct mesh_allocator *a, const struct mesh_view *v,
			 const struct mesh_request *req, uint32_t *buf,
			 int (*cb)(void *ctx, const uint32_t *nodes),
			 void *ctx)
{
	struct mc_priv *p = a->priv;
	const struct mesh_topo *t = a->topo;
	uint64_t best = UINT64_MAX, s;
	uint32_t i;
	int c[3], r, rmax = max_radius(t);

	mesh__boxsum_build(&p->box, v->free);
	for (i = 0; i < t->nodes; i++) {
		if (!mesh_bitmap_test(v->free, i))
			continue;
		mesh_topo_coords(t, i, c);
		s = centre_score(&p->box, c, req->nodes, rmax, best, &r);
		if (s < best)
			best = s;
	}
	if (best == UINT64_MAX)
		return MESH_ENOSPC;
	for (i = 0; i < t->nodes; i++) {
		if (!mesh_bitmap_test(v->free, i))
			continue;
		mesh_topo_coords(t, i, c);
		if (centre_score(&p->box, c, req->nodes, rmax, best + 1, &r) !=
		    best)
			continue;
		gather(p, v, i, r, req->nodes, buf);
		if (cb(ctx, buf))
			break;
	}
	return 0;
}

const struct mesh_alloc_ops mesh__mc1x1_ops = {
	.create = mc_create,
	.destroy = mc_destroy,
	.place = mc_place,
	.candidates = mc_candidates,
};

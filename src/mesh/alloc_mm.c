/* alloc_mm.c - MM (Manhattan median) and MM with incremental improvement.
 *
 * Implements: Bender, Bunde, Demaine, Fekete, Leung, Meijer, Phillips,
 * "Communication-aware processor allocation for supercomputers" (slides,
 * paper 004: "Manhattan Median (MM) Algorithm", "Possible medians of
 * selected set", "MM Incremental improvement"), as summarised by Walker,
 * Bunde, Leung, Sec. V.  A candidate centre is any point whose x, y and
 * z coordinates each equal the coordinate of some (possibly different)
 * free node; the candidate set is the k free nodes nearest to it in L1;
 * the set with the least sum of pairwise distances wins.  Within 7/4
 * (2D) and 11/6 (3D) of optimal on a mesh.
 * Decisions the papers leave open:
 *  - ties: equally distant nodes are taken lowest index first, equal sums
 *    go to the lowest centre index (the centre need not be free);
 *  - tori: the same definition with Lee distance (no bound is claimed);
 *  - mm-inc: starting from MM's set S, repeatedly apply the single best
 *    improving swap (a in S, b free not in S) maximising
 *    D(a,S) + d(a,b) - D(b,S) > 0, where D(p,S) = sum over s in S of
 *    d(p,s) (this is the decrease of the pair sum), ties to the lowest a
 *    then the lowest b; stop when no swap improves or after k swaps.
 *    Every swap lowers an integer sum, so it terminates anyway; the cap
 *    keeps the worst case at O(k * n log L).
 * The centre search is shared with Gen-Alg (alloc_centre.c,
 * mesh__l1near_best(): diamond-count tables on meshes, shell enumeration
 * on tori; same answers as the definition).
 */
#include <stdlib.h>
#include <string.h>

#include "alloc_centre.h"
#include "alloc_internal.h"
#include "error.h"

struct mm_priv {
	struct mesh__l1near near;
	struct mesh__pairsum ps;     /* mm-inc: the current set */
	uint8_t *has[MESH_MAX_DIMS]; /* coordinate occurs among free nodes */
	uint8_t *in_set;
	uint64_t *dist; /* mm-inc: D(p, S) of candidate nodes */
	int inc;
};

static void mm_destroy(struct mesh_allocator *a)
{
	struct mm_priv *p = a->priv;
	int d;

	mesh__l1near_free(&p->near);
	mesh__pairsum_free(&p->ps);
	for (d = 0; d < MESH_MAX_DIMS; d++)
		free(p->has[d]);
	free(p->in_set);
	free(p->dist);
	free(p);
}

static int mm_create(struct mesh_allocator *a, const char *params,
		     struct mesh_diag *d)
{
	const struct mesh_topo *t = a->topo;
	struct mm_priv *p;
	int rc = mesh__param_check(params, NULL, a->name, d), i, bad = 0;

	if (rc)
		return rc;
	p = calloc(1, sizeof(*p));
	if (!p)
		return MESH_ENOMEM;
	p->inc = a->entry->variant;
	bad |= mesh__l1near_init(&p->near, t) != 0;
	bad |= mesh__pairsum_init(&p->ps, t) != 0;
	for (i = 0; i < MESH_MAX_DIMS; i++) {
		p->has[i] = calloc((size_t) t->dim[i], 1);
		bad |= !p->has[i];
	}
	p->in_set = calloc(t->nodes, 1);
	p->dist = malloc(t->nodes * sizeof(*p->dist));
	a->priv = p;
	if (bad || !p->in_set || !p->dist) {
		mm_destroy(a);
		a->priv = NULL;
		return MESH_ENOMEM;
	}
	return 0;
}

/* has[d][c] := some free node has coordinate c on axis d.  With x-rows
 * of at most 64 nodes, a row at a time: one word per row, OR-ed into the
 * x mask. */
static void mark_coords(struct mm_priv *p, const struct mesh_view *v)
{
	const struct mesh_topo *t = v->topo;
	const uint64_t *w = v->free->words;
	uint64_t row, xs = 0, mask;
	uint32_t i = 0;
	int d, x, y, z, s, X = t->dim[0];

	for (d = 0; d < MESH_MAX_DIMS; d++)
		memset(p->has[d], 0, (size_t) t->dim[d]);
	if (X <= 64) {
		mask = X == 64 ? ~0ull : (1ull << X) - 1;
		for (z = 0; z < t->dim[2]; z++)
			for (y = 0; y < t->dim[1]; y++, i += (uint32_t) X) {
				s = (int) (i & 63);
				row = w[i >> 6] >> s;
				if (s + X > 64)
					row |= w[(i >> 6) + 1] << (64 - s);
				row &= mask;
				if (!row)
					continue;
				xs |= row;
				p->has[1][y] = 1;
				p->has[2][z] = 1;
			}
		for (x = 0; x < X; x++)
			p->has[0][x] = (uint8_t) ((xs >> x) & 1);
		return;
	}
	for (z = 0; z < t->dim[2]; z++)
		for (y = 0; y < t->dim[1]; y++)
			for (x = 0; x < t->dim[0]; x++, i++)
				if (mesh_bitmap_test(v->free, i)) {
					p->has[0][x] = 1;
					p->has[1][y] = 1;
					p->has[2][z] = 1;
				}
}

static int is_median_candidate(const void *ctx, uint32_t node, const int c[3])
{
	const struct mm_priv *p = ctx;

	(void) node;
	return p->has[0][c[0]] && p->has[1][c[1]] && p->has[2][c[2]];
}

/* The predicate for mesh__l1near_best(): NULL (every point) when every
 * coordinate occurs among the free nodes, as on most maps. */
static mesh__centre_pred median_pred(const struct mm_priv *p,
				     const struct mesh_topo *t)
{
	int d, i;

	for (d = 0; d < MESH_MAX_DIMS; d++)
		for (i = 0; i < t->dim[d]; i++)
			if (!p->has[d][i])
				return is_median_candidate;
	return NULL;
}

/* Best improving swap for set out[0..k); 1 if one was applied. */
static int best_swap(struct mm_priv *p, const struct mesh_view *v,
		     uint32_t *out, uint32_t k)
{
	const struct mesh_topo *t = v->topo;
	uint64_t max_da = 0, gain, best_gain = 0;
	uint32_t i, b, ai = 0, best_a = 0, best_b = 0;
	int c[3], q[3];

	for (i = 0; i < k; i++) {
		mesh_topo_coords(t, out[i], c);
		p->dist[out[i]] = mesh__pairsum_dist_to(&p->ps, c);
		if (p->dist[out[i]] > max_da)
			max_da = p->dist[out[i]];
	}
	for (b = 0; b < t->nodes; b++) {
		uint64_t db;

		if (!mesh_bitmap_test(v->free, b) || p->in_set[b])
			continue;
		mesh_topo_coords(t, b, q);
		db = mesh__pairsum_dist_to(&p->ps, q);
		/* a gain needs D(b,S) < D(a,S) + d(a,b) <= max_da + diameter */
		if (db >= max_da + (uint64_t) t->dim[0] + t->dim[1] + t->dim[2])
			continue;
		for (i = 0; i < k; i++) {
			uint64_t up =
			    p->dist[out[i]] +
			    (uint64_t) mesh_topo_distance(t, out[i], b);

			if (up <= db)
				continue;
			gain = up - db;
			if (gain > best_gain ||
			    (gain == best_gain &&
			     (out[i] < out[ai] ||
			      (out[i] == out[ai] && b < best_b)))) {
				best_gain = gain;
				ai = i;
				best_a = out[i];
				best_b = b;
			}
		}
	}
	if (!best_gain)
		return 0;
	mesh_topo_coords(t, best_a, c);
	mesh_topo_coords(t, best_b, q);
	mesh__pairsum_update(&p->ps, c, -1);
	mesh__pairsum_update(&p->ps, q, 1);
	p->in_set[best_a] = 0;
	p->in_set[best_b] = 1;
	out[ai] = best_b;
	return 1;
}

static void improve(struct mm_priv *p, const struct mesh_view *v, uint32_t *out,
		    uint32_t k)
{
	uint32_t i, swaps;
	int c[3];

	for (i = 0; i < k; i++) {
		mesh_topo_coords(v->topo, out[i], c);
		mesh__pairsum_update(&p->ps, c, 1);
		p->in_set[out[i]] = 1;
	}
	for (swaps = 0; swaps < k && best_swap(p, v, out, k); swaps++)
		;
	for (i = 0; i < k; i++) {
		mesh_topo_coords(v->topo, out[i], c);
		mesh__pairsum_update(&p->ps, c, -1);
		p->in_set[out[i]] = 0;
	}
	p->ps.total = 0;
}

static int mm_place(struct mesh_allocator *a, const struct mesh_view *v,
		    const struct mesh_request *req, uint32_t *out)
{
	struct mm_priv *p = a->priv;

	mark_coords(p, v);
	if (mesh__l1near_best(&p->near, v->free, req->nodes,
			      median_pred(p, v->topo), p, out) == UINT64_MAX)
		return MESH_ENOSPC;
	if (p->inc)
		improve(p, v, out, req->nodes);
	return 0;
}

/* Ties of plain MM only: after improvement there is a single answer. */
static int mm_candidates(struct mesh_allocator *a, const struct mesh_view *v,
			 const struct mesh_request *req, uint32_t *buf,
			 int (*cb)(void *ctx, const uint32_t *nodes), void *ctx)
{
	struct mm_priv *p = a->priv;
	uint64_t best;

	if (p->inc) {
		int rc = mm_place(a, v, req, buf);

		return rc ? rc : (cb(ctx, buf), 0);
	}
	mark_coords(p, v);
	best = mesh__l1near_best(&p->near, v->free, req->nodes,
				 median_pred(p, v->topo), p, buf);
	if (best == UINT64_MAX)
		return MESH_ENOSPC;
	return mesh__l1near_ties(&p->near, v->free, req->nodes,
				 median_pred(p, v->topo), p, best, buf, cb,
				 ctx);
}

const struct mesh_alloc_ops mesh__mm_ops = {
	.create = mm_create,
	.destroy = mm_destroy,
	.place = mm_place,
	.candidates = mm_candidates,
};

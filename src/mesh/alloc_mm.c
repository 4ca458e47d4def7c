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
 *  - ties: equally distant nodes are taken in offset order from the
 *    centre (z, then y, then x; on a mesh the lowest index first, on a
 *    torus the same wherever its numbering starts), equal sums go to the
 *    lowest centre index (the centre need not be free);
 *  - tori: the same definition with Lee distance (no bound is claimed);
 *  - mm-inc: starting from MM's set S, repeatedly apply the single best
 *    improving swap (a in S, b free not in S) maximising
 *    D(a,S) + d(a,b) - D(b,S) > 0, where D(p,S) = sum over s in S of
 *    d(p,s) (this is the decrease of the pair sum), ties to the lowest a
 *    then the lowest b; stop when no swap improves or after k swaps.
 *    Every swap lowers an integer sum, so it terminates anyway; the cap
 *    keeps the worst case at k searches for a swap.
 * HOW mm-inc FINDS A SWAP: D(p, S) is three lookups in per-axis distance
 * sums.  On a mesh, d(a, b) = max over the 8 sign vectors s of s . (a -
 * b), so the best a for a given b attains max over s of M_s - s . b,
 * with M_s = max over a in S of D(a, S) + s . a: 8 corner values per
 * swap instead of k distances per free node, and the lowest a attaining
 * it is the lowest over those s.  On tori (Lee distance has no such
 * form) every pair is tried.
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
	uint64_t *dist; /* mm-inc: D(a, S) of the set's nodes */
	/* mm-inc: D(q, S) = axis[0][q_x] + axis[1][q_y] + axis[2][q_z] */
	int64_t *axis[MESH_MAX_DIMS];
	int inc;
	int corners; /* mm-inc: no axis wraps, so swaps come from corners */
};

/* The best swap found so far: the greatest gain, then the lowest a, then
 * the lowest b (node indices). */
struct mm_swap {
	int64_t gain;
	uint32_t a, b;
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
	for (d = 0; d < MESH_MAX_DIMS; d++)
		free(p->axis[d]);
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
	p->corners = 1;
	for (i = 0; i < MESH_MAX_DIMS; i++) {
		p->has[i] = calloc((size_t) t->dim[i], 1);
		p->axis[i] = malloc((size_t) t->dim[i] * sizeof(*p->axis[i]));
		bad |= !p->has[i] || !p->axis[i];
		if (t->dim[i] > 1 && t->wrap[i])
			p->corners = 0;
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

/* axis[][] such that D(q, S) = axis[0][q_x] + axis[1][q_y] + axis[2][q_z]:
 * distance sums split over the axes, so D along each axis through the
 * origin, less D(origin) on axes 1 and 2, adds up to D(q, S). */
static void axis_sums(struct mm_priv *p, const struct mesh_topo *t)
{
	int64_t origin;
	int d, c[3];

	for (d = 0; d < MESH_MAX_DIMS; d++) {
		c[0] = c[1] = c[2] = 0;
		origin = (int64_t) mesh__pairsum_dist_to(&p->ps, c);
		for (c[d] = 0; c[d] < t->dim[d]; c[d]++)
			p->axis[d][c[d]] =
			    (int64_t) mesh__pairsum_dist_to(&p->ps, c) -
			    (d ? origin : 0);
	}
}

/* D(p, S) from the per-axis sums. */
static int64_t dist_to_set(const struct mm_priv *p, const int c[3])
{
	return p->axis[0][c[0]] + p->axis[1][c[1]] + p->axis[2][c[2]];
}

static void consider(struct mm_swap *best, int64_t gain, uint32_t a, uint32_t b)
{
	if (gain > best->gain ||
	    (gain == best->gain &&
	     (a < best->a || (a == best->a && b < best->b)))) {
		best->gain = gain;
		best->a = a;
		best->b = b;
	}
}

/* Every pair (a in S, b free outside S); b with D(b, S) at least the
 * largest D(a, S) plus the diameter cannot gain. */
static void swap_by_pairs(struct mm_priv *p, const struct mesh_view *v,
			  const uint32_t *out, uint32_t k, struct mm_swap *best)
{
	const struct mesh_topo *t = v->topo;
	int64_t max_da = 0, db, up;
	int64_t diameter = (int64_t) t->dim[0] + t->dim[1] + t->dim[2];
	uint32_t i, b = 0;
	int q[3];

	for (i = 0; i < k; i++)
		if ((int64_t) p->dist[out[i]] > max_da)
			max_da = (int64_t) p->dist[out[i]];
	for (q[2] = 0; q[2] < t->dim[2]; q[2]++)
		for (q[1] = 0; q[1] < t->dim[1]; q[1]++)
			for (q[0] = 0; q[0] < t->dim[0]; q[0]++, b++) {
				if (!mesh_bitmap_test(v->free, b) ||
				    p->in_set[b])
					continue;
				db = dist_to_set(p, q);
				if (db >= max_da + diameter)
					continue;
				for (i = 0; i < k; i++) {
					up = (int64_t) p->dist[out[i]] +
					     mesh_topo_distance(t, out[i], b);
					if (up > db)
						consider(best, up - db, out[i],
							 b);
				}
			}
}

/* Sign s_d (+1 or -1) of axis d in sign vector s (bit d set: -1). */
static int sign_of(int s, int d)
{
	return (s >> d & 1) ? -1 : 1;
}

/* On a mesh: for free b outside S the best a attains V(b) = max over
 * sign vectors s of M_s - s . b (see the file comment).  Per x-row the
 * y and z terms are folded in, leaving one value for s_x = +1 (minus x)
 * and one for s_x = -1 (plus x). */
static void swap_by_corners(struct mm_priv *p, const struct mesh_view *v,
			    const uint32_t *out, uint32_t k,
			    struct mm_swap *best)
{
	const struct mesh_topo *t = v->topo;
	int64_t M[8], val, rp, rm, dyz, gain, vmax;
	uint32_t A[8], ap, am, a, i, b = 0;
	int s, c[3], x, y, z, valid;

	for (s = 0; s < 8; s++) {
		M[s] = INT64_MIN;
		A[s] = UINT32_MAX;
	}
	for (i = 0; i < k; i++) {
		mesh_topo_coords(t, out[i], c);
		for (s = 0; s < 8; s++) {
			val = (int64_t) p->dist[out[i]] + sign_of(s, 0) * c[0] +
			      sign_of(s, 1) * c[1] + sign_of(s, 2) * c[2];
			if (val > M[s] || (val == M[s] && out[i] < A[s])) {
				M[s] = val;
				A[s] = out[i];
			}
		}
	}
	for (z = 0; z < t->dim[2]; z++)
		for (y = 0; y < t->dim[1]; y++) {
			rp = rm = INT64_MIN;
			ap = am = UINT32_MAX;
			for (s = 0; s < 8; s++) {
				val = M[s] - sign_of(s, 1) * y -
				      sign_of(s, 2) * z;
				if (sign_of(s, 0) > 0 &&
				    (val > rp || (val == rp && A[s] < ap))) {
					rp = val;
					ap = A[s];
				} else if (sign_of(s, 0) < 0 &&
					   (val > rm ||
					    (val == rm && A[s] < am))) {
					rm = val;
					am = A[s];
				}
			}
			dyz = p->axis[1][y] + p->axis[2][z];
			for (x = 0; x < t->dim[0]; x++, b++) {
				vmax = rp - x > rm + x ? rp - x : rm + x;
				gain = vmax - (p->axis[0][x] + dyz);
				valid = mesh_bitmap_test(v->free, b) &
					!p->in_set[b];
				/* one branch, rarely taken: no free map
				 * branch to mispredict */
				if (!(valid & (gain > 0) &
				      (gain >= best->gain)))
					continue;
				a = rp - x == vmax ? ap : UINT32_MAX;
				if (rm + x == vmax && am < a)
					a = am;
				consider(best, gain, a, b);
			}
		}
}

/* Best improving swap for set out[0..k); 1 if one was applied. */
static int best_swap(struct mm_priv *p, const struct mesh_view *v,
		     uint32_t *out, uint32_t k)
{
	const struct mesh_topo *t = v->topo;
	struct mm_swap best = { 0, 0, 0 };
	uint32_t i, ai = 0;
	int c[3], q[3];

	axis_sums(p, t);
	for (i = 0; i < k; i++) {
		mesh_topo_coords(t, out[i], c);
		p->dist[out[i]] = (uint64_t) dist_to_set(p, c);
	}
	if (p->corners)
		swap_by_corners(p, v, out, k, &best);
	else
		swap_by_pairs(p, v, out, k, &best);
	if (!best.gain)
		return 0;
	while (out[ai] != best.a)
		ai++;
	mesh_topo_coords(t, best.a, c);
	mesh_topo_coords(t, best.b, q);
	mesh__pairsum_update(&p->ps, c, -1);
	mesh__pairsum_update(&p->ps, q, 1);
	p->in_set[best.a] = 0;
	p->in_set[best.b] = 1;
	out[ai] = best.b;
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

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
 * form) every pair is tried, from per-axis coordinates without a
 * division, for the b whose D(b, S) leaves room for a gain (planes and
 * x-rows without one are skipped from per-axis least sums).
 * The centre search is shared with Gen-Alg (l1near.h,
 * mesh__l1near_best(): ball patterns and diamond-count tables on meshes
 * and on copies of tori, shell enumeration otherwise; same answers as
 * the definition).
 */
#include <stdlib.h>
#include <string.h>

#include "alloc_internal.h"
#include "error.h"
#include "l1near.h"
#include "pairsum.h"

struct mm_priv {
	struct mesh__l1near near;
	struct mesh__pairsum ps;     /* mm-inc: the current set */
	uint8_t *has[MESH_MAX_DIMS]; /* coordinate occurs among free nodes */
	uint8_t *in_set;
	uint64_t *dist; /* mm-inc: D(a, S) of the set's nodes */
	/* mm-inc on tori: the set's coordinates per axis and D values, in
	 * the set's order */
	int32_t *sc[MESH_MAX_DIMS];
	int32_t *sd;
	int64_t narrow_limit; /* see mesh__mm_set_narrow_limit() */
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
	for (d = 0; d < MESH_MAX_DIMS; d++) {
		free(p->axis[d]);
		free(p->sc[d]);
	}
	free(p->sd);
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
	p->narrow_limit = INT32_MAX;
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
	for (i = 0; i < MESH_MAX_DIMS && p->inc && !p->corners; i++) {
		p->sc[i] = malloc(t->nodes * sizeof(*p->sc[i]));
		bad |= !p->sc[i];
	}
	if (p->inc && !p->corners) {
		p->sd = malloc(t->nodes * sizeof(*p->sd));
		bad |= !p->sd;
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

/* The largest D(a, S) + d(a, q) over a in S, from the set's coordinates
 * per axis (sc) and D values (sd) in 32 bits: no division and no branch
 * per pair, and SIMD lanes where the compiler has them.  ring[d] is the
 * ring's length, or a length no distance reaches on an open axis. */
static int32_t best_up(const struct mm_priv *p, uint32_t k, const int q[3],
		       const int32_t ring[3])
{
	const int32_t *restrict x = p->sc[0], *restrict y = p->sc[1],
				*restrict z = p->sc[2], *restrict sd = p->sd;
	const int32_t qx = q[0], qy = q[1], qz = q[2], rx = ring[0],
		      ry = ring[1], rz = ring[2];
	int32_t top = INT32_MIN, up, dx, dy, dz;
	uint32_t i;

	for (i = 0; i < k; i++) {
		dx = x[i] > qx ? x[i] - qx : qx - x[i];
		dy = y[i] > qy ? y[i] - qy : qy - y[i];
		dz = z[i] > qz ? z[i] - qz : qz - z[i];
		dx = rx - dx < dx ? rx - dx : dx;
		dy = ry - dy < dy ? ry - dy : dy;
		dz = rz - dz < dz ? rz - dz : dz;
		up = sd[i] + dx + dy + dz;
		top = up > top ? up : top;
	}
	return top;
}

/* D(a, S) + d(a, q) for a = out[i], in 64 bits. */
static int64_t up_at(const struct mm_priv *p, const struct mesh_topo *t,
		     const uint32_t *out, uint32_t i, const int q[3])
{
	int64_t up = (int64_t) p->dist[out[i]];
	int d;

	for (d = 0; d < MESH_MAX_DIMS; d++)
		up += mesh_topo_axis_distance(t, d, p->sc[d][i], q[d]);
	return up;
}

/* The largest D(a, S) + d(a, q), whatever its size, and the lowest a in
 * S that attains it (*a). */
static int64_t best_up_wide(const struct mm_priv *p, const struct mesh_topo *t,
			    const uint32_t *out, uint32_t k, const int q[3],
			    uint32_t *a)
{
	int64_t top = INT64_MIN, up;
	uint32_t i;

	for (i = 0, *a = UINT32_MAX; i < k; i++) {
		up = up_at(p, t, out, i, q);
		if (up > top || (up == top && out[i] < *a)) {
			top = up;
			*a = out[i];
		}
	}
	return top;
}

/* The lowest a in S with D(a, S) + d(a, q) == top. */
static uint32_t lowest_at(const struct mm_priv *p, const struct mesh_topo *t,
			  const uint32_t *out, uint32_t k, const int q[3],
			  int64_t top)
{
	uint32_t i, a = UINT32_MAX;

	for (i = 0; i < k; i++)
		if (out[i] < a && up_at(p, t, out, i, q) == top)
			a = out[i];
	return a;
}

/* Least entry of axis[d]. */
static int64_t axis_min(const struct mm_priv *p, const struct mesh_topo *t,
			int d)
{
	int64_t m = INT64_MAX;
	int i;

	for (i = 0; i < t->dim[d]; i++)
		if (p->axis[d][i] < m)
			m = p->axis[d][i];
	return m;
}

/* Every pair (a in S, b free outside S): per b the best a, by
 * best_up().  b with D(b, S) at least the largest D(a, S) plus the
 * diameter cannot gain; D splits over the axes, so whole planes and
 * x-rows of such b are skipped from the axes' least sums. */
static void swap_by_pairs(struct mm_priv *p, const struct mesh_view *v,
			  const uint32_t *out, uint32_t k, struct mm_swap *best)
{
	const struct mesh_topo *t = v->topo;
	const uint32_t X = (uint32_t) t->dim[0], Y = (uint32_t) t->dim[1];
	int64_t max_da = 0, limit = 0, db, top, min0, min1;
	int32_t ring[MESH_MAX_DIMS];
	uint32_t i, a, b;
	int q[3], d, narrow;

	for (d = 0; d < MESH_MAX_DIMS; d++) {
		ring[d] = t->wrap[d] ? t->dim[d] : INT32_MAX;
		limit += t->wrap[d] ? t->dim[d] / 2 : t->dim[d] - 1;
	}
	for (i = 0; i < k; i++) {
		mesh_topo_coords(t, out[i], q);
		for (d = 0; d < MESH_MAX_DIMS; d++)
			p->sc[d][i] = q[d];
		if ((int64_t) p->dist[out[i]] > max_da)
			max_da = (int64_t) p->dist[out[i]];
	}
	limit += max_da; /* D(b, S) >= limit: no gain */
	/* every D(a, S) + d(a, b) is at most limit: 32 bits hold them */
	narrow = limit <= p->narrow_limit;
	for (i = 0; narrow && i < k; i++)
		p->sd[i] = (int32_t) p->dist[out[i]];
	min0 = axis_min(p, t, 0);
	min1 = axis_min(p, t, 1);
	for (q[2] = 0; q[2] < t->dim[2]; q[2]++) {
		if (p->axis[2][q[2]] + min1 + min0 >= limit)
			continue;
		for (q[1] = 0; q[1] < t->dim[1]; q[1]++) {
			if (p->axis[2][q[2]] + p->axis[1][q[1]] + min0 >= limit)
				continue;
			b = ((uint32_t) q[2] * Y + (uint32_t) q[1]) * X;
			for (q[0] = 0; q[0] < t->dim[0]; q[0]++, b++) {
				db = dist_to_set(p, q);
				if (db >= limit ||
				    !mesh_bitmap_test(v->free, b) ||
				    p->in_set[b])
					continue;
				if (!narrow) {
					top = best_up_wide(p, t, out, k, q, &a);
					if (top - db > 0)
						consider(best, top - db, a, b);
					continue;
				}
				top = best_up(p, k, q, ring);
				if (top - db > 0 && top - db >= best->gain)
					consider(
					    best, top - db,
					    lowest_at(p, t, out, k, q, top), b);
			}
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

int mesh__mm_set_narrow_limit(struct mesh_allocator *a, int64_t limit)
{
	struct mm_priv *p = a->priv;

	if (a->entry->ops != &mesh__mm_ops || !p->inc)
		return MESH_EINVAL;
	p->narrow_limit = limit;
	return 0;
}

const struct mesh_alloc_ops mesh__mm_ops = {
	.create = mm_create,
	.destroy = mm_destroy,
	.place = mm_place,
	.candidates = mm_candidates,
};

/* l1_torus.c - the L1 nearest sets of a torus, from copies of it that
 * are meshes: the unrolled copy, the near copy and the window.
 *
 * HOW IT WORKS: a torus is searched on an unrolled copy, a mesh that
 * repeats it pad[d] nodes beyond both ends of each wrapped axis.  Around
 * the copy's c + pad, a ball of radius R <= pad holds the same free nodes
 * as the torus's ball around c, in the same offset order, so the copy's
 * ball patterns and table path give the torus's set.  Two things differ:
 * a pair farther apart than half a ring is nearer the other way round
 * (ring_window_pairs(), beyond radius rlin), and a centre whose ball
 * needs R > pad takes the shell enumeration on the torus itself.
 * A ring of length L pads by (L - 1) / 2 at most (a longer pad would
 * hold a node twice), so one short ring (Titan's 16 among 25 and 24)
 * caps the whole copy.  The window lifts that cap for one axis w: a
 * second copy pads the other wrapped axes as before but holds w as one
 * turn of its ring, coordinates c[w] - (L - 1) / 2 .. c[w] + L / 2 (the
 * Lee offsets) as an open axis of length L.  Its balls, clipped there
 * as on any mesh, are the torus's balls of any radius on w, in offset
 * order; pairs along w still take ring_window_pairs().  The window
 * serves only centres with that c[w], so a decision that takes it
 * (balls at the map's mean density reach the copy's pad) visits the
 * centres one coordinate of w at a time, maps the window and builds its
 * tables L times, and keeps the lowest centre index among equal scores
 * itself (scan_centre() in l1near.c).  Tori whose copy pads by more
 * than NEAR_PAD also get a near copy, padded by at most NEAR_PAD, whose
 * tables cost less to build, for decisions whose balls mostly fit in
 * it.
 */
#include "l1_parts.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "boxsum.h"
#include "error.h"

/* Pad per wrapped axis: balls up to this radius use the unrolled copy. */
#define UNROLL_PAD 13

/* A 2D copy is small, and its balls hold few nodes per radius: it pads
 * up to the largest radius of the line caches. */
#define UNROLL_PAD_2D L1LINE_MAX_RADIUS

/* The copy's size limit, and its line caches' (its slices are longer). */
#define UNROLL_MAX_NODES ((uint64_t) 1 << 22)

#define UNROLL_LINE_ENTRIES ((size_t) 1 << 22)

static int pad_cap(const struct mesh_topo *t)
{
	return t->ndims < 3 ? UNROLL_PAD_2D : UNROLL_PAD;
}

/* Pad of axis d in the copies: 0 unless it wraps. */
static int ring_pad(const struct mesh_topo *t, int d)
{
	return t->wrap[d] && t->dim[d] > 1
		   ? imin((t->dim[d] - 1) / 2, pad_cap(t))
		   : 0;
}

/* The near copy's pads: a ball of this radius holds 575 nodes in 3D,
 * so at 50% near_wanted() takes it up to k = 260 or so. */
#define NEAR_PAD 7

/* A copy of the torus that repeats every wrapped axis but skip (-1:
 * none) ring_pad(), at most cap, nodes beyond both ends (its pad[]);
 * axis skip keeps its length.
 * *out stays NULL (and 0 is returned) where the copy would not pay:
 * balls could not grow past radius 1 in it, it would be too large, or
 * it has no table path. */
static int copy_init(struct mesh__l1near *x, int skip, int cap,
		     struct mesh_topo **topo, struct mesh_bitmap **free_map,
		     struct mesh__l1near **out)
{
	const struct mesh_topo *t = x->topo;
	int dim[MESH_MAX_DIMS], pad[MESH_MAX_DIMS] = { 0, 0, 0 };
	int d, rlimit = INT_MAX, rlin = INT_MAX, rc;
	struct mesh__l1near *u;

	*out = NULL;
	for (d = 0; d < MESH_MAX_DIMS; d++) {
		dim[d] = t->dim[d];
		if (!t->wrap[d] || t->dim[d] < 2)
			continue;
		rlin = imin(rlin, t->dim[d] / 4);
		if (d == skip)
			continue;
		pad[d] = imin(ring_pad(t, d), cap);
		rlimit = imin(rlimit, pad[d]);
		dim[d] += 2 * pad[d];
	}
	/* balls of radius 1 are cheap to enumerate */
	if (rlimit < 2 || (skip < 0 && rlimit == INT_MAX) ||
	    (uint64_t) dim[0] * (uint64_t) dim[1] * (uint64_t) dim[2] >
		UNROLL_MAX_NODES)
		return 0;
	rc = mesh_topo_create(t->ndims, dim, NULL, topo);
	if (!rc)
		rc = mesh_bitmap_create((*topo)->nodes, free_map);
	u = rc ? NULL : malloc(sizeof(*u));
	if (!u)
		return rc ? rc : MESH_ENOMEM;
	/* the window's slices are long and thin: its own axis is short */
	rc = mesh__l1_init(u, *topo, rlimit, UNROLL_LINE_ENTRIES,
			   skip < 0 ? ROT_RATIO : 2 * ROT_RATIO);
	if (rc) {
		free(u);
		return rc;
	}
	if (!u->fast) { /* no table path on the copy either */
		mesh__l1near_free(u);
		free(u);
		return 0;
	}
	u->rlin = rlin;
	memcpy(u->pad, pad, sizeof(pad));
	for (d = 0; d < MESH_MAX_DIMS; d++)
		u->ring[d] = t->wrap[d] && t->dim[d] > 1 ? t->dim[d] : 0;
	/* patterns sum pairs as on a mesh, and fill no wider ball */
	if (u->rp > rlin || u->rp > rlimit)
		u->rp = 0;
	*out = u;
	return 0;
}

static int unrolled_init(struct mesh__l1near *x)
{
	int d, most = 0, rc;

	for (d = 0; d < MESH_MAX_DIMS; d++)
		most = imax(most, ring_pad(x->topo, d));
	rc = copy_init(x, -1, INT_MAX, &x->unr_topo, &x->unr_free, &x->unr);
	if (!rc && x->unr && most > NEAR_PAD)
		rc = copy_init(x, -1, NEAR_PAD, &x->near_topo, &x->near_free,
			       &x->near);
	return rc;
}

/* The window's axis: the wrapped axis of the least pad, if every other
 * wrapped axis has a larger one (a window on one of two equally short
 * rings would not let balls grow); else -1. */
static int window_axis(const struct mesh_topo *t)
{
	int d, w = -1, pad, least = pad_cap(t), second = INT_MAX;

	for (d = 0; d < MESH_MAX_DIMS; d++) {
		if (!t->wrap[d] || t->dim[d] < 2)
			continue;
		pad = ring_pad(t, d);
		if (pad < least) {
			second = imin(second, least);
			least = pad;
			w = d;
		} else {
			second = imin(second, pad);
		}
	}
	return w >= 0 && least < second ? w : -1;
}

/* The window's tables of its own axis d, twice over (see share_tab). */
static int share_init(struct mesh__l1near *u, int d)
{
	size_t n = u->stride[d] * (size_t) u->topo->dim[d];
	uint16_t *t = malloc(2 * n * sizeof(*t));

	if (!t)
		return MESH_ENOMEM;
	free(u->tab[d]);
	u->tab[d] = u->share_tab = t;
	u->share_axis = d;
	u->share_at = -1;
	if (u->sstep[d] == 1) /* interleaved: 2 L lanes per entry */
		u->estep[d] *= 2;
	return 0;
}

static int window_init(struct mesh__l1near *x)
{
	int rc, w = window_axis(x->topo);

	if (w < 0)
		return 0;
	x->win_axis = w;
	rc = copy_init(x, w, INT_MAX, &x->win_topo, &x->win_free, &x->win);
	if (!rc && x->win)
		rc = mesh_bitmap_create(x->topo->nodes, &x->win_ties);
	if (!rc && x->win && x->win->tab[w])
		rc = share_init(x->win, w);
	return rc;
}

/* The copy that scores this decision's centres: the window, or the
 * unrolled copy in use (the near one or the full one); *uf its free
 * map. */
static struct mesh__l1near *copy_in_use(const struct mesh__l1near *x,
					int window, struct mesh_bitmap **uf)
{
	if (window) {
		*uf = x->win_free;
		return x->win;
	}
	if (x->near_on) {
		*uf = x->near_free;
		return x->near;
	}
	*uf = x->unr_free;
	return x->unr;
}

/* Copy coordinate on copy u = torus coordinate + origin[d], modulo the
 * ring on the window's axis, whose centre coordinate win_at sits at
 * (L - 1) / 2. */
static void copy_origin(const struct mesh__l1near *x,
			const struct mesh__l1near *u, int window,
			int origin[MESH_MAX_DIMS])
{
	int d, w = x->win_axis;

	for (d = 0; d < MESH_MAX_DIMS; d++)
		origin[d] = u->pad[d];
	if (window)
		origin[w] = (x->topo->dim[w] - 1) / 2 - x->win_at;
}

/* Bits i = 0..U - 1 of the copy's row at p (zero) from bits (i - P)
 * mod X of the torus's row at row, in runs of up to 64 that neither
 * wrap nor cross the row's end. */
static void copy_row(struct mesh_bitmap *uf, uint32_t p, int U,
		     const struct mesh_bitmap *f, uint32_t row, int X, int P)
{
	uint64_t *w = uf->words, v;
	uint32_t d;
	int i = 0, src, run;

	while (i < U) {
		src = wrap_coord(i - P, X);
		run = imin(imin(U - i, X - src), 64);
		v = mesh__bits_at(f->words, row + (uint32_t) src,
				  (uint32_t) run);
		d = p + (uint32_t) i;
		w[d >> 6] |= v << (d & 63);
		if ((d & 63) + (uint32_t) run > 64)
			w[(d >> 6) + 1] |= v >> (64 - (d & 63));
		i += run;
	}
}

/* A copy's free map from the torus's, an x-row at a time. */
static void copy_map(const struct mesh__l1near *x, const struct mesh_topo *u,
		     struct mesh_bitmap *uf, const int origin[MESH_MAX_DIMS],
		     const struct mesh_bitmap *f)
{
	const struct mesh_topo *t = x->topo;
	const int X = t->dim[0], P = origin[0], U = u->dim[0];
	uint64_t *w = uf->words, v;
	uint32_t p = 0, row;
	int y, z, q[3];

	mesh_bitmap_fill(uf, false);
	for (z = 0; z < u->dim[2]; z++)
		for (y = 0; y < u->dim[1]; y++, p += (uint32_t) U) {
			q[1] = wrap_coord(y - origin[1], t->dim[1]);
			q[2] = wrap_coord(z - origin[2], t->dim[2]);
			row = ((uint32_t) q[1] +
			       (uint32_t) q[2] * (uint32_t) t->dim[1]) *
			      (uint32_t) X;
			if (U > 64 || U != X + 2 * P) { /* or x is the window */
				copy_row(uf, p, U, f, row, X, P);
				continue;
			}
			v = mesh__bits_at(f->words, row, (uint32_t) X);
			if (P) /* x - P for x < P, x, then x + X */
				v = v >> (X - P) | v << P |
				    (v & ((1ull << P) - 1)) << (P + X);
			w[p >> 6] |= v << (p & 63);
			if ((p & 63) + (uint32_t) U > 64)
				w[(p >> 6) + 1] |= v >> (64 - (p & 63));
		}
}

static void unrolled_map(struct mesh__l1near *x, const struct mesh_bitmap *f)
{
	int origin[MESH_MAX_DIMS];
	struct mesh_bitmap *uf;
	const struct mesh__l1near *u = copy_in_use(x, 0, &uf);

	copy_origin(x, u, 0, origin);
	copy_map(x, u->topo, uf, origin, f);
}

/* The window for the centres whose coordinate on its axis is j. */
static void window_map(struct mesh__l1near *x, const struct mesh_bitmap *f,
		       int j)
{
	int origin[MESH_MAX_DIMS];

	x->win_at = j;
	x->win->share_now = j;
	copy_origin(x, x->win, 1, origin);
	copy_map(x, x->win_topo, x->win_free, origin, f);
	mesh__l1_decision_start(x->win, x->win_free, x->win_k);
	x->win->enum_max = 0; /* the copy's shells past pad are wrong */
}

/* On a torus through copy u (free map uf), the window if window: the
 * centre is scored on the copy by mesh__l1_centre_score(), which takes
 * the copy's mesh paths, and mapped back. */
uint64_t mesh__l1_copy_score(struct mesh__l1near *x,
			     const struct mesh_bitmap *f, int window,
			     const int c[3], uint32_t k, uint64_t bound,
			     uint32_t *out)
{
	struct mesh_bitmap *uf;
	struct mesh__l1near *u = copy_in_use(x, window, &uf);
	int cu[MESH_MAX_DIMS], q[MESH_MAX_DIMS], origin[MESH_MAX_DIMS], d;
	uint64_t s;
	uint32_t i;

	if (window && c[x->win_axis] != x->win_at)
		window_map(x, f, c[x->win_axis]);
	copy_origin(x, u, window, origin);
	for (d = 0; d < MESH_MAX_DIMS; d++)
		cu[d] = c[d] + origin[d];
	u->too_far = 0;
	s = mesh__l1_centre_score(u, uf, cu, k, bound, out ? x->taken : NULL);
	if (u->too_far) /* its ball outgrew the copy */
		return mesh__l1near_score(x, f, c, k, bound, out);
	for (i = 0; out && s < bound && i < k; i++) {
		mesh_topo_coords(u->topo, x->taken[i], q);
		for (d = 0; d < MESH_MAX_DIMS; d++)
			q[d] = wrap_coord(q[d] - origin[d], x->topo->dim[d]);
		out[i] = mesh_topo_index(x->topo, q);
	}
	return s;
}

/* The free nodes in a ball of radius r by a binomial model of f (each
 * node free with f's share), devs standard deviations below the mean. */
static double ball_free_low(const struct mesh__l1near *x,
			    const struct mesh_bitmap *f, int r, double devs)
{
	double p = (double) mesh_bitmap_count(f) / x->topo->nodes;
	double mean = mesh__l1_ball_cells(x->topo->dim, r) * p;

	return mean - devs * sqrt(mean * (1 - p));
}

/* Whether the decision takes the window: when more than about one
 * centre in six would need a larger ball than the unrolled copy holds
 * (by a binomial model of the free nodes in a ball of the copy's pad;
 * the window's L table builds cost about that many fallbacks to the
 * enumeration), or when there is no unrolled copy.  Either gives the
 * same answers. */
static int window_wanted(const struct mesh__l1near *x,
			 const struct mesh_bitmap *f, uint32_t k)
{
	if (x->win_mode)
		return x->win_mode > 0;
	if (!x->unr)
		return 1;
	return k > ball_free_low(x, f, x->unr->rlimit, 1);
}

/* Whether the decision takes the near copy: when at most about one
 * centre in 40 would need a larger ball than it holds (two deviations
 * below the mean free count of a ball of its pad); larger balls take
 * the enumeration, so either gives the same answers. */
static int near_wanted(const struct mesh__l1near *x,
		       const struct mesh_bitmap *f, uint32_t k)
{
	if (x->near_mode)
		return x->near_mode > 0;
	return k <= ball_free_low(x, f, x->near->rlimit, 2);
}

/* Frees a copy (the unrolled copy, the near copy or the window) and
 * clears its pointers. */
static void copy_free(struct mesh__l1near **u, struct mesh_topo **topo,
		      struct mesh_bitmap **free_map)
{
	if (*u) {
		mesh__l1near_free(*u);
		free(*u);
		*u = NULL;
	}
	mesh_topo_destroy(*topo);
	*topo = NULL;
	mesh_bitmap_destroy(*free_map);
	*free_map = NULL;
}

void mesh__l1_copies_free(struct mesh__l1near *x)
{
	copy_free(&x->unr, &x->unr_topo, &x->unr_free);
	copy_free(&x->near, &x->near_topo, &x->near_free);
	copy_free(&x->win, &x->win_topo, &x->win_free);
	mesh_bitmap_destroy(x->win_ties);
	x->win_ties = NULL;
}

int mesh__l1_copies_init(struct mesh__l1near *x)
{
	int rc = unrolled_init(x);

	return rc ? rc : window_init(x);
}

void mesh__l1_copies_start(struct mesh__l1near *x,
			   const struct mesh_bitmap *free_map, uint32_t k)
{
	struct mesh__l1near *u;
	struct mesh_bitmap *uf;

	if (x->win)
		x->win->share_at = -1; /* a new map: share_tab is stale */
	x->win_on = x->win && window_wanted(x, free_map, k);
	x->near_on = !x->win_on && x->near && near_wanted(x, free_map, k);
	if (x->win_on) {
		x->win_at = -1; /* mapped by the first centre */
		x->win_k = k;
	} else if (x->unr) {
		u = copy_in_use(x, 0, &uf);
		unrolled_map(x, free_map);
		mesh__l1_decision_start(u, uf, k);
		u->enum_max = 0; /* the copy's shells past pad are wrong */
	}
}

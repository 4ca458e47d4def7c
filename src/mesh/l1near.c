/* l1near.c - the L1 nearest set of a centre, by shell enumeration, and
 * the search for the centre whose set scores least (Gen-Alg, MM).
 *
 * HOW IT WORKS: a centre's set (l1near.h) is found by enumerating L1
 * spheres of growing radius around it, a whole sphere at a time, into
 * per-axis coordinate histograms (O(1) per node); only the last, partly
 * used sphere is cut, in offset order.  The pair sum of the set so far
 * is read from the histograms in O(L) after each sphere; plus
 * remaining_bound() it bounds the final score from below, so a centre
 * that cannot beat the best so far stops early.  lb[j] sums, for i < j,
 * the least possible distance sum from a lattice point to i other
 * lattice points (nearest points of Z^d, d the number of axes longer
 * than 1; a mesh or torus has at most as many points within any
 * radius).
 * mesh__l1near_best() scores every candidate centre, in index order,
 * against the best score so far, each by the fastest path that applies
 * (mesh__l1_centre_score()): on meshes a ball pattern (l1_pattern.c) or
 * the diamond tables (l1_tables.c, l1_walk.c), built once per decision
 * after the first few centres have been enumerated; on tori the same on
 * a copy (l1_torus.c); else the enumeration.  All give the same score,
 * and check_alloc_exact_l1 holds each against this enumeration centre by
 * centre.
 */
#include "l1near.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "boxsum.h"
#include "error.h"
#include "l1_parts.h"

/* lb[j] for j = 0..n (see the file comment). */
static void fill_lower_bounds(uint64_t *lb, uint32_t n, int nd)
{
	uint64_t g = 0, left = 0;
	uint32_t j;
	int r = 0;

	lb[0] = 0;
	for (j = 0; j < n; j++) {
		lb[j + 1] = lb[j] + g; /* adding point j costs >= g(j) */
		while (left == 0) {
			r++;
			left = nd == 1   ? 2
			       : nd == 2 ? 4u * (uint64_t) r
					 : 4u * (uint64_t) r * (uint64_t) r + 2;
		}
		g += (uint64_t) r; /* g(j + 1) adds the next nearest point */
		left--;
	}
}

int mesh__l1_init(struct mesh__l1near *x, const struct mesh_topo *t, int rlimit,
		  size_t line_entries, int rot_ratio)
{
	int d, nd = 0;
	uint32_t *h;

	memset(x, 0, sizeof(*x));
	x->share_axis = -1;
	x->topo = t;
	x->rlimit = x->rlin = rlimit;
	x->line_entries = line_entries;
	x->rot_ratio = rot_ratio;
	for (d = 0; d < MESH_MAX_DIMS; d++) {
		nd += t->dim[d] > 1;
		x->rmax += t->dim[d];
	}
	x->shell = malloc(t->nodes * sizeof(*x->shell));
	x->taken = malloc(t->nodes * sizeof(*x->taken));
	x->lb = malloc(((size_t) t->nodes + 1) * sizeof(*x->lb));
	for (d = 0; d < MESH_MAX_DIMS; d++) {
		h = calloc((size_t) t->dim[d] + 2 * HIST_PAD, sizeof(uint32_t));
		x->hist[d] = h ? h + HIST_PAD : NULL;
	}
	for (d = 0; d < 2; d++)
		x->hbuf[d] = calloc((size_t) x->rmax + 1, sizeof(uint32_t));
	if (!x->shell || !x->taken || !x->lb || !x->hist[0] || !x->hist[1] ||
	    !x->hist[2] || !x->hbuf[0] || !x->hbuf[1] ||
	    mesh__l1_tables_init(x) ||
	    (x->fast && t->dim[0] <= 62 && mesh__l1_walk_init(x))) {
		mesh__l1near_free(x);
		return MESH_ENOMEM;
	}
	if (x->fast)
		mesh__l1_pattern_init(x);
	fill_lower_bounds(x->lb, t->nodes, nd ? nd : 1);
	return 0;
}

/* Line caches hold up to this many entries per axis (on meshes). */
#define L1LINE_MAX_ENTRIES ((size_t) 1 << 21)

int mesh__l1near_init(struct mesh__l1near *x, const struct mesh_topo *t)
{
	int rc = mesh__l1_init(x, t, INT_MAX, L1LINE_MAX_ENTRIES, ROT_RATIO);

	if (rc) /* freed */
		return rc;
	if (!x->fast)
		rc = mesh__l1_copies_init(x);
	if (rc)
		mesh__l1near_free(x);
	return rc;
}

void mesh__l1near_free(struct mesh__l1near *x)
{
	int d;

	mesh__l1_copies_free(x);
	for (d = 0; d < MESH_MAX_DIMS; d++) {
		if (x->hist[d])
			free(x->hist[d] - HIST_PAD);
		x->hist[d] = NULL;
	}
	for (d = 0; d < 2; d++) {
		free(x->hbuf[d]);
		x->hbuf[d] = NULL;
	}
	if (x->share_tab) /* tab[share_axis] points into it */
		x->tab[x->share_axis] = NULL;
	free(x->share_tab);
	x->share_tab = NULL;
	for (d = 0; d < MESH_MAX_DIMS; d++) {
		free(x->tab[d]);
		x->tab[d] = NULL;
	}
	free(x->padrow);
	x->padrow = NULL;
	free(x->pplan);
	x->pplan = NULL;
	free(x->rcache);
	x->rcache = NULL;
	free(x->wrow);
	x->wrow = NULL;
	free(x->wplan);
	x->wplan = NULL;
	free(x->wzs);
	x->wzs = NULL;
	for (d = 0; d < MESH_MAX_DIMS; d++) {
		free(x->lcache[d]);
		free(x->lfill[d]);
		x->lcache[d] = NULL;
		x->lfill[d] = NULL;
	}
	free(x->shell);
	free(x->taken);
	free(x->lb);
	x->shell = x->taken = NULL;
	x->lb = NULL;
}

/* Offsets allowed per axis so that each node has exactly one offset,
 * of length equal to its axis distance from c. */
static void offset_range(const struct mesh_topo *t, const int c[3], int lo[3],
			 int hi[3])
{
	int d;

	for (d = 0; d < MESH_MAX_DIMS; d++) {
		if (t->wrap[d]) {
			lo[d] = -((t->dim[d] - 1) / 2);
			hi[d] = t->dim[d] / 2;
		} else {
			lo[d] = -c[d];
			hi[d] = t->dim[d] - 1 - c[d];
		}
	}
}

/* Takes node n = base + qx (coordinates qx, q[1], q[2]) into the shell,
 * and into the histograms if count, if it is free; true once want are
 * taken.  Written always and kept if free: a branch on the free map
 * mispredicts half the time at 50% occupancy. */
static inline int shell_take(struct mesh__l1near *x,
			     const struct mesh_bitmap *f, uint32_t base, int qx,
			     const int q[3], uint32_t *m, uint32_t want,
			     int count)
{
	uint32_t n = base + (uint32_t) qx, b = mesh_bitmap_test(f, n);

	x->shell[*m] = n;
	*m += b;
	if (count) {
		x->hist[0][qx] += b;
		x->hist[1][q[1]] += b;
		x->hist[2][q[2]] += b;
	}
	return *m == want;
}

/* The first want (in offset order) free nodes at L1 distance exactly r
 * from c, into x->shell and, if count, the coordinate histograms (whose
 * coordinates the walk knows, so no division per node); returns their
 * number. */
static uint32_t gather_shell(struct mesh__l1near *x,
			     const struct mesh_bitmap *f, const int c[3],
			     const int lo[3], const int hi[3], int r,
			     uint32_t want, int count)
{
	const struct mesh_topo *t = x->topo;
	uint32_t m = 0, X = (uint32_t) t->dim[0], XY = X * (uint32_t) t->dim[1];
	int dz, dy, rz, rx, q[3];

	if (!want)
		return 0;
	for (dz = imax(-r, lo[2]); dz <= imin(r, hi[2]); dz++) {
		rz = r - (dz < 0 ? -dz : dz);
		q[2] = wrap_coord(c[2] + dz, t->dim[2]);
		for (dy = imax(-rz, lo[1]); dy <= imin(rz, hi[1]); dy++) {
			uint32_t base;

			rx = rz - (dy < 0 ? -dy : dy);
			q[1] = wrap_coord(c[1] + dy, t->dim[1]);
			base = (uint32_t) q[1] * X + (uint32_t) q[2] * XY;
			if (-rx >= lo[0] &&
			    shell_take(x, f, base,
				       wrap_coord(c[0] - rx, (int) X), q, &m,
				       want, count))
				return m;
			if (rx > 0 && rx <= hi[0] &&
			    shell_take(x, f, base,
				       wrap_coord(c[0] + rx, (int) X), q, &m,
				       want, count))
				return m;
		}
	}
	return m;
}

/* Sum over unordered pairs of axis distances, from a histogram: O(L),
 * one pass.  On a ring, a pair further apart than half the ring (b - a
 * > L / 2) is L - (b - a) apart, not b - a: the pass subtracts
 * 2 (b - a) - L for those, with running sums over the a that are that
 * far below b. */
static uint64_t axis_pairs(const struct mesh__l1near *x, int d)
{
	const uint32_t *h = x->hist[d];
	int len = x->topo->dim[d], a, cut, wrap = x->topo->wrap[d];
	uint64_t sum = 0, below = 0, below_pos = 0, far = 0, fh = 0, fw = 0;

	for (a = 0; a < len; a++) {
		sum += (uint64_t) h[a] * ((uint64_t) a * below - below_pos);
		below += h[a];
		below_pos += (uint64_t) a * h[a];
		cut = a - len / 2 - 1;
		if (!wrap || cut < 0)
			continue;
		fh += h[cut];
		fw += (uint64_t) cut * h[cut];
		far +=
		    (uint64_t) h[a] * ((uint64_t) (2 * a - len) * fh - 2 * fw);
	}
	return sum - far;
}

static uint64_t hist_pairs(const struct mesh__l1near *x)
{
	return axis_pairs(x, 0) + axis_pairs(x, 1) + axis_pairs(x, 2);
}

static void hist_clear(struct mesh__l1near *x)
{
	int d;

	for (d = 0; d < MESH_MAX_DIMS; d++)
		memset(x->hist[d], 0,
		       (size_t) x->topo->dim[d] * sizeof(uint32_t));
}

/* Lower bound on the final score with j nodes taken (pair sum ps, sum of
 * distances to c dsum) and every later node at distance >= r from c:
 * each later node is >= j*r - dsum from the taken ones (triangle
 * inequality) and the later ones need lb[k - j] among themselves;
 * alternatively lb[k] - lb[j] for everything added from now on. */
static uint64_t remaining_bound(const struct mesh__l1near *x, uint32_t k,
				uint32_t j, uint64_t dsum, int r)
{
	uint64_t spread = (uint64_t) j * (uint64_t) r, rest;

	spread = spread > dsum ? spread - dsum : 0;
	rest = (uint64_t) (k - j) * spread + x->lb[k - j];
	return rest > x->lb[k] - x->lb[j] ? rest : x->lb[k] - x->lb[j];
}

/* The set itself, in the enumeration path's order: shells 0..r-1 whole,
 * then the first m nodes of shell r (ascending index on a mesh). */
static void write_set(struct mesh__l1near *x, const struct mesh_bitmap *f,
		      const int c[3], int r, uint32_t m, uint32_t *out)
{
	int lo[3], hi[3], s;
	uint32_t n = 0, got;

	offset_range(x->topo, c, lo, hi);
	for (s = 0; s <= r; s++) {
		got = gather_shell(x, f, c, lo, hi, s, s == r ? m : UINT32_MAX,
				   0);
		memcpy(out + n, x->shell, got * sizeof(*out));
		n += got;
	}
}

/* The first implementation inserted node by node into Fenwick trees and
 * checked the bound after every node; it gave the same answers about
 * 2-20x slower. */
uint64_t mesh__l1near_score(struct mesh__l1near *x,
			    const struct mesh_bitmap *free_map, const int c[3],
			    uint32_t k, uint64_t bound, uint32_t *out)
{
	int lo[3], hi[3], r;
	uint32_t m, n = 0;
	uint64_t pairs = 0, dsum = 0;

	hist_clear(x);
	offset_range(x->topo, c, lo, hi);
	for (r = 0; n < k && r <= x->rmax; r++) {
		/* (the first k - n in offset order) */
		m = gather_shell(x, free_map, c, lo, hi, r, k - n, 1);
		if (!m)
			continue;
		memcpy(x->taken + n, x->shell, m * sizeof(*x->taken));
		n += m;
		dsum += (uint64_t) r * m;
		pairs = hist_pairs(x);
		if (pairs >= bound ||
		    (n < k &&
		     pairs + remaining_bound(x, k, n, dsum, r + 1) >= bound))
			return UINT64_MAX;
	}
	if (out)
		memcpy(out, x->taken, k * sizeof(*out));
	return pairs;
}

/* The table path's tables and the walk's rows for the free map f. */
static void build(struct mesh__l1near *x, const struct mesh_bitmap *f)
{
	mesh__l1_tables_build(x, f);
	if (x->wrow)
		mesh__l1_walk_rows_fill(x, f);
}

/* mesh__l1_centre_score() on a mesh with the table path.  Patterns are
 * tried while they mostly fit: a miss costs a gather or two before the
 * fallback.  Building the tables costs about as much as enumerating
 * shells for a few dozen small balls, so the first few centres whose
 * balls are too sparse for a pattern (near corners, say) enumerate. */
static uint64_t mesh_centre_score(struct mesh__l1near *x,
				  const struct mesh_bitmap *f, const int c[3],
				  uint32_t k, uint64_t bound, uint32_t *out)
{
	uint64_t s;
	uint32_t m;
	int r;

	x->lines_on = x->pmiss >= 64 + x->phit / 4;
	if (!x->lines_on) {
		if (mesh__l1_pattern_score(x, f, c, k, bound, out, &s)) {
			x->phit++;
			return s;
		}
		x->pmiss++;
	}
	if (x->built >= 0) {
		if (x->built < x->enum_max) {
			x->built++;
			return mesh__l1near_score(x, f, c, k, bound, out);
		}
		build(x, f);
		x->built = -1;
	}
	s = mesh__l1_table_score(x, f, c, k, bound, &r, &m);
	if (out && s != UINT64_MAX)
		write_set(x, f, c, r, m, out);
	return s;
}

uint64_t mesh__l1_centre_score(struct mesh__l1near *x,
			       const struct mesh_bitmap *f, const int c[3],
			       uint32_t k, uint64_t bound, uint32_t *out)
{
	if (x->fast)
		return mesh_centre_score(x, f, c, k, bound, out);
	if (x->win_on || x->unr)
		return mesh__l1_copy_score(x, f, x->win_on, c, k, bound, out);
	return mesh__l1near_score(x, f, c, k, bound, out);
}

/* Coordinates of the next node in index order. */
static void next_coords(const struct mesh_topo *t, int c[3])
{
	if (++c[0] < t->dim[0])
		return;
	c[0] = 0;
	if (++c[1] < t->dim[1])
		return;
	c[1] = 0;
	c[2]++;
}

/* Next centre in window order: index order over the other axes, then
 * the window axis's coordinate; 0 after the last. */
static int window_next(const struct mesh_topo *t, int w, int c[3])
{
	int d;

	for (d = 0; d < MESH_MAX_DIMS; d++) {
		if (d == w)
			continue;
		if (++c[d] < t->dim[d])
			return 1;
		c[d] = 0;
	}
	return ++c[w] < t->dim[w];
}

void mesh__l1_decision_start(struct mesh__l1near *x,
			     const struct mesh_bitmap *free_map, uint32_t k)
{
	/* an enumeration visits a ball of >= k cells */
	uint32_t most = k ? x->topo->nodes / (16 * k) : 31;

	if (x->unr || x->win)
		mesh__l1_copies_start(x, free_map, k);
	x->built = 0;
	x->enum_max = most < 31 ? (int) most : 31;
	x->phit = 0;
	x->pmiss = x->rp && k <= x->pcells ? 0 : INT32_MAX;
	if (!x->pmiss)
		mesh__l1_pattern_prepare(x, free_map);
}

/* Scores centre i (coordinates c) against the best so far (*best, at
 * centre *best_i), which it beats with a lower score, or with the same
 * score and a lower index: the window visits centres out of index
 * order. */
static void scan_centre(struct mesh__l1near *x,
			const struct mesh_bitmap *free_map, uint32_t k,
			uint32_t i, const int c[3], uint64_t *best,
			uint32_t *best_i, uint32_t *out)
{
	uint64_t bound = *best, s;

	if (i < *best_i && bound != UINT64_MAX)
		bound++;
	s = mesh__l1_centre_score(x, free_map, c, k, bound, out);
	if (s < bound) {
		*best = s;
		*best_i = i;
	}
}

int mesh__centre_free(const void *ctx, uint32_t node, const int c[3])
{
	(void) c;
	return mesh_bitmap_test(ctx, node);
}

/* The scan in index order over the set bits of centres, an x-row (at
 * most 64 nodes) at a time: no test per node. */
static uint64_t scan_rows(struct mesh__l1near *x,
			  const struct mesh_bitmap *free_map,
			  const struct mesh_bitmap *centres, uint32_t k,
			  uint32_t *out)
{
	const struct mesh_topo *t = x->topo;
	int c[3] = { 0, 0, 0 };
	uint32_t p;
	uint64_t bits, s, best = UINT64_MAX;

	for (p = 0; p < t->nodes; p += (uint32_t) t->dim[0]) {
		for (bits =
			 mesh__bits_at(centres->words, p, (uint32_t) t->dim[0]);
		     bits; bits &= bits - 1) {
			c[0] = __builtin_ctzll(bits);
			/* in index order a later equal score never wins */
			s = mesh__l1_centre_score(x, free_map, c, k, best, out);
			if (s < best)
				best = s;
		}
		if (++c[1] == t->dim[1]) {
			c[1] = 0;
			c[2]++;
		}
	}
	return best;
}

uint64_t mesh__l1near_best(struct mesh__l1near *x,
			   const struct mesh_bitmap *free_map, uint32_t k,
			   mesh__centre_pred pred, const void *ctx,
			   uint32_t *out)
{
	const struct mesh_topo *t = x->topo;
	uint64_t best = UINT64_MAX, s;
	uint32_t i, best_i = 0;
	int c[3] = { 0, 0, 0 };

	mesh__l1_decision_start(x, free_map, k);
	if (x->win_on) {
		do {
			i = mesh_topo_index(t, c);
			if (!pred || pred(ctx, i, c))
				scan_centre(x, free_map, k, i, c, &best,
					    &best_i, out);
		} while (window_next(t, x->win_axis, c));
		return best;
	}
	if (pred == mesh__centre_free && t->dim[0] <= 64)
		return scan_rows(x, free_map, ctx, k, out);
	for (i = 0; i < t->nodes; i++, next_coords(t, c)) {
		if (pred && !pred(ctx, i, c))
			continue;
		/* in index order a later equal score never wins */
		s = mesh__l1_centre_score(x, free_map, c, k, best, out);
		if (s < best)
			best = s;
	}
	return best;
}

int mesh__l1near_ties(struct mesh__l1near *x,
		      const struct mesh_bitmap *free_map, uint32_t k,
		      mesh__centre_pred pred, const void *ctx, uint64_t best,
		      uint32_t *buf, int (*cb)(void *, const uint32_t *),
		      void *cb_ctx)
{
	const struct mesh_topo *t = x->topo;
	uint32_t i;
	int c[3] = { 0, 0, 0 };

	mesh__l1_decision_start(x, free_map, k);
	if (x->win_on) {
		/* the window finds the ties; their sets go to cb in centre
		 * order, by the shell enumeration */
		mesh_bitmap_fill(x->win_ties, false);
		do {
			i = mesh_topo_index(t, c);
			if ((!pred || pred(ctx, i, c)) &&
			    mesh__l1_centre_score(x, free_map, c, k, best + 1,
						  NULL) == best)
				mesh_bitmap_set(x->win_ties, i);
		} while (window_next(t, x->win_axis, c));
		c[x->win_axis] = 0;
	}
	for (i = 0; i < t->nodes; i++, next_coords(t, c)) {
		if (x->win_on) {
			if (mesh_bitmap_test(x->win_ties, i) &&
			    mesh__l1near_score(x, free_map, c, k, best + 1,
					       buf) == best &&
			    cb(cb_ctx, buf))
				break;
			continue;
		}
		if (pred && !pred(ctx, i, c))
			continue;
		if (mesh__l1_centre_score(x, free_map, c, k, best + 1, buf) ==
			best &&
		    cb(cb_ctx, buf))
			break;
	}
	return 0;
}

/* Through mesh__l1_centre_score() alone, as the search scores.  On a
 * torus the modes are set on its unrolled copy, which does the work. */
int mesh__l1near_path_scores(struct mesh__l1near *x,
			     const struct mesh_bitmap *free_map, uint32_t k,
			     int lines, const uint64_t *bound, uint64_t *score,
			     uint32_t *patterns)
{
	struct mesh__l1near *w = x->fast ? x : x->unr;
	uint32_t i, hits = 0;
	int c[3], mode = x->win_mode, near = x->near_mode;

	if (!w)
		return MESH_EINVAL;
	x->win_mode = -1; /* these are the full unrolled copy's paths */
	x->near_mode = -1;
	mesh__l1_decision_start(x, free_map, k);
	x->win_mode = mode;
	x->near_mode = near;
	mesh__l1_pattern_prepare(w, x->fast ? free_map : x->unr_free);
	build(w, x->fast ? free_map : x->unr_free);
	w->built = -1;
	for (i = 0, c[0] = c[1] = c[2] = 0; i < x->topo->nodes;
	     i++, next_coords(x->topo, c)) {
		/* the search turns the line caches on, and patterns off,
		 * after 64 misses; a copy may have no patterns (rp 0) */
		w->pmiss = lines || !w->rp ? INT32_MAX : 0;
		w->phit = 0;
		score[i] = mesh__l1_centre_score(
		    x, free_map, c, k, bound ? bound[i] : UINT64_MAX, NULL);
		hits += (uint32_t) w->phit;
	}
	if (patterns)
		*patterns = hits;
	return 0;
}

/* alloc_mc.c - MC: shells around a shell 0 of the requested shape, the
 * free centre whose cluster has the least total shell number.
 *
 * Implements: Mache, dissertation, Ch. V "The MC Allocation Strategy",
 * definitions of shell_0 / shell_s+1 and cost, Fig. 31 (pseudocode),
 * Fig. 32 (shells around B); also Walker, Bunde, Leung, Sec. V.  Shell 0
 * around idle node (i,j) is the w x h rectangle with lower-left corner
 * (i - ceil((w-1)/2), j - ceil((h-1)/2)); shell s+1 is the L-inf ring
 * around shell s; a node costs its shell number; both orientations (in
 * 3D, all distinct axis permutations of the shape) are tried; within a
 * shell "idle nodes on the shorter sides of the ring are selected first,
 * idle nodes on the longer side second, and corner nodes last".
 * Decisions the paper leaves open:
 *  - shape: req->shape if its volume is k, else the allocator parameter
 *    shape=WxH[xD] if its volume is k, else the most cube-like exact
 *    factorisation of k that fits the mesh (least sum of sides) when its
 *    longest/shortest side ratio is at most 4, else 1x1x1 (= MC1x1).
 *    Orientations that do not fit the mesh are skipped; the given one is
 *    tried first, then the other permutations in lexicographic order.
 *  - 3D within-shell order: nodes outside the grown box along exactly
 *    one axis ("sides", faces) first, smaller faces first; then nodes
 *    outside along two axes (edges), then three (corners); within a
 *    class by L1 distance to the centre, then node index.
 *  - ties: the first orientation, then the lowest centre index.
 *  - tori: shells wrap; a shell longer than the ring is the whole ring.
 * Cost evaluation uses prefix sums (boxsum) and stops early once a
 * centre cannot beat the best so far, so the result is exactly Fig. 31's.
 * Speed (issue 10, doc/design.md): no centre can cost less than filling
 * the largest possible shells in order (cost_floor), so the search stops
 * once a centre reaches that floor; after the first 32 free centres the
 * rest are swept one x-row at a time, shell by shell, and for clusters
 * of radius 4 or more every centre first gets a lower bound from two
 * or three exact shell counts, so that only the few that may win are
 * counted in full (sweep_search).  On a torus a row's shell counts are first
 * gathered from its wrapped y and z intervals and continued
 * periodically in x (row_periodic), and the sweep reads them as it
 * reads the summed-volume table on a mesh.
 * test/reference.c's ref_mc_centre is the definition, node by node;
 * check_alloc_exact compares them.
 * Property (Ch. V): if a free w x h block exists its centre has cost 0,
 * and a cost-0 cluster is exactly a free w x h block.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_centre.h"
#include "alloc_internal.h"
#include "hints.h"
#include "error.h"

/* A centre still in the sweep.  Ascending: it has taken min(k, free
 * nodes within the shells so far), at the cost so far.  Descending: see
 * sweep_descending. */
struct mesh__mc_live {
	uint32_t node, x, taken, x2;
	uint64_t cost;
};

/* A centre whose lower bound (sweep_search, step 2) is below the bound
 * of the centres scored before: its free nodes within shells S - 2 (if
 * counted), S - 1 and S, and that lower bound (capped at UINT32_MAX,
 * still a lower bound). */
struct mesh__mc_cand {
	uint32_t node, n0, n1, n2, lb;
};

void mesh__mc_free(struct mesh__mc *m)
{
	mesh__boxsum_free(&m->box);
	free(m->keys);
	free(m->live);
	free(m->cand);
	free(m->vol);
	free(m->tmp);
	free(m->ax);
	free(m->rowq);
	free(m->rowp);
	m->rowq = NULL;
	m->rowp = NULL;
	m->tmp = NULL;
	m->ax = NULL;
	m->keys = NULL;
	m->live = NULL;
	m->cand = NULL;
	m->vol = NULL;
}

int mesh__mc_init(struct mesh__mc *m, const struct mesh_topo *t)
{
	int rmax = t->dim[0] > t->dim[1] ? t->dim[0] : t->dim[1];

	rmax = t->dim[2] > rmax ? t->dim[2] : rmax;
	m->topo = t;
	m->box.sum = NULL;
	m->keys = malloc(t->nodes * sizeof(*m->keys));
	m->live = malloc(((size_t) t->dim[0] + 1) * sizeof(*m->live));
	m->cand = malloc(((size_t) t->nodes + 1) * sizeof(*m->cand));
	m->vol = malloc(2 * ((size_t) rmax + 3) * sizeof(*m->vol));
	m->tmp = malloc(t->nodes * sizeof(*m->tmp));
	m->ax = malloc(
	    3 * ((size_t) t->dim[0] + (size_t) t->dim[1] + (size_t) t->dim[2]) *
	    sizeof(*m->ax));
	m->rowq_len = 2 * (size_t) t->dim[0] + 2 * (size_t) rmax + 1;
	m->rowq = malloc(3 * m->rowq_len * sizeof(*m->rowq));
	m->rowp = calloc(5 * (size_t) t->dim[0] + 3, sizeof(*m->rowp));
	if (!m->keys || !m->live || !m->cand || !m->vol || !m->tmp || !m->ax ||
	    !m->rowq || !m->rowp || mesh__boxsum_init(&m->box, t)) {
		mesh__mc_free(m);
		return MESH_ENOMEM;
	}
	return 0;
}

void mesh__mc_prepare(struct mesh__mc *m, const struct mesh_bitmap *free_map)
{
	mesh__boxsum_build(&m->box, free_map);
}

static void shell_box(const int c[3], const int ext[3], int s, int lo[3],
		      int hi[3])
{
	int d;

	for (d = 0; d < 3; d++) {
		lo[d] = c[d] - ext[d] / 2 - s;
		hi[d] = c[d] - ext[d] / 2 + ext[d] - 1 + s;
	}
}

/* Free nodes within shell s of centre c (the box grown by s).  On a mesh
 * (no wraparound) the box is clipped and read straight from the summed
 * volume table; tori go through mesh__box_count, which splits wrapped
 * intervals. */
static uint32_t ball_count(const struct mesh__mc *m, const int c[3],
			   const int ext[3], int s)
{
	const struct mesh_topo *t = m->topo;
	const uint32_t *sum = m->box.sum;
	int lo[3], hi[3], d;
	size_t sy, sz, x0, x1, y0, y1, z0, z1;

	shell_box(c, ext, s, lo, hi);
	if (t->wrap[0] || t->wrap[1] || t->wrap[2])
		return mesh__box_count(&m->box, lo, hi);
	for (d = 0; d < 3; d++) {
		lo[d] = lo[d] < 0 ? 0 : lo[d];
		hi[d] = hi[d] >= t->dim[d] ? t->dim[d] - 1 : hi[d];
	}
	sy = (size_t) t->dim[0] + 1;
	sz = sy * ((size_t) t->dim[1] + 1);
	x0 = (size_t) lo[0], x1 = (size_t) hi[0] + 1;
	y0 = (size_t) lo[1] * sy, y1 = ((size_t) hi[1] + 1) * sy;
	z0 = (size_t) lo[2] * sz, z1 = ((size_t) hi[2] + 1) * sz;
	return sum[x1 + y1 + z1] - sum[x0 + y1 + z1] - sum[x1 + y0 + z1] -
	       sum[x1 + y1 + z0] + sum[x0 + y0 + z1] + sum[x0 + y1 + z0] +
	       sum[x1 + y0 + z0] - sum[x0 + y0 + z0];
}

uint64_t mesh__mc_cost(const struct mesh__mc *m, const int c[3],
		       const int ext[3], uint32_t k, uint64_t bound,
		       int *radius)
{
	const struct mesh_topo *t = m->topo;
	int s, rmax = t->dim[0];
	uint32_t inside, taken, ball, use;
	uint64_t cost = 0;

	if (t->dim[1] > rmax)
		rmax = t->dim[1];
	if (t->dim[2] > rmax)
		rmax = t->dim[2];
	inside = ball_count(m, c, ext, 0);
	taken = inside < k ? inside : k;
	*radius = 0;
	if ((uint64_t) (k - taken) >= bound)
		return bound;
	for (s = 1; taken < k && s <= rmax; s++) {
		ball = ball_count(m, c, ext, s);
		use = ball - inside;
		if (use > k - taken)
			use = k - taken;
		taken += use;
		inside = ball;
		cost += (uint64_t) s * use;
		*radius = s;
		if (cost + (uint64_t) (k - taken) * (uint64_t) (s + 1) >= bound)
			return bound;
	}
	return cost;
}

/* No centre can cost less than filling shells of the largest possible
 * size, prod_d min(ext_d + 2s, dim_d) nodes within shell s, in order:
 * the sum over s of (k - nodes within shell s). */
static uint64_t cost_floor(const struct mesh_topo *t, const int ext[3],
			   uint32_t k)
{
	uint64_t floor = 0, room;
	int s, d, e;

	for (s = 0;; s++) {
		for (d = 0, room = 1; d < 3; d++) {
			e = ext[d] + 2 * s;
			room *= (uint64_t) (e < t->dim[d] ? e : t->dim[d]);
		}
		if (room >= k)
			return floor;
		floor += k - room;
	}
}

/* The sweep's view of the best so far: a centre found in this search
 * also loses ties to lower centres (an earlier orientation never does). */
struct sweep_best {
	struct mesh__mc_best *best;
	int here;
};

/* Bound for centre node: its cost must stay below it to matter. */
static uint64_t sweep_bound(const struct sweep_best *b, uint32_t node)
{
	uint64_t cost = b->best->cost;

	return cost != UINT64_MAX && b->here && node < b->best->centre
		   ? cost + 1
		   : cost;
}

static void sweep_offer(struct sweep_best *b, const int ext[3], uint32_t node,
			uint64_t cost, int radius)
{
	if (cost >= sweep_bound(b, node))
		return;
	b->best->cost = cost;
	b->best->centre = node;
	b->best->radius = radius;
	memcpy(b->best->ext, ext, sizeof(b->best->ext));
	b->here = 1;
}

/* The four x-rows of the summed-volume table that bound shell s of the
 * centres in one x-row (y, z fixed) in y and z: a centre's count is then
 * rows_at(x1) - rows_at(x0). */
struct sweep_rows {
	const uint32_t *a, *b, *c, *d;
};

static void sweep_row(const struct mesh__mc *m, const int ext[3], int s, int y,
		      int z, struct sweep_rows *R)
{
	const struct mesh_topo *t = m->topo;
	const uint32_t *sum = m->box.sum;
	size_t sy = (size_t) t->dim[0] + 1, sz = sy * ((size_t) t->dim[1] + 1);
	int y0 = y - ext[1] / 2 - s, y1 = y0 + ext[1] - 1 + 2 * s;
	int z0 = z - ext[2] / 2 - s, z1 = z0 + ext[2] - 1 + 2 * s;

	y0 = y0 < 0 ? 0 : y0;
	z0 = z0 < 0 ? 0 : z0;
	y1 = y1 >= t->dim[1] ? t->dim[1] : y1 + 1;
	z1 = z1 >= t->dim[2] ? t->dim[2] : z1 + 1;
	R->a = sum + (size_t) y1 * sy + (size_t) z1 * sz;
	R->b = sum + (size_t) y0 * sy + (size_t) z1 * sz;
	R->c = sum + (size_t) y1 * sy + (size_t) z0 * sz;
	R->d = sum + (size_t) y0 * sy + (size_t) z0 * sz;
}

static inline uint32_t rows_at(const struct sweep_rows *R, int x)
{
	return R->a[x] - R->b[x] - R->c[x] + R->d[x];
}

/* The free bits of x-row row at x0 .. x0 + 63 (fewer at the row's end),
 * without the nodes below from. */
static inline uint64_t row_bits(const struct mesh_bitmap *b, uint32_t row,
				uint32_t x0, uint32_t X, uint32_t from)
{
	uint64_t bits =
	    mesh__bits_at(b->words, row + x0, X - x0 < 64 ? X - x0 : 64);

	if (row + x0 < from)
		bits &= from - row - x0 >= 64
			    ? 0
			    : ~(((uint64_t) 1 << (from - row - x0)) - 1);
	return bits;
}

/* Free nodes within shell s of the centre at x of the row whose shell s
 * rows are R. */
static inline uint32_t row_count(const struct sweep_rows *R, int x, int e,
				 int ext0, int s, int X)
{
	int lo = x - e - s, hi = lo + ext0 + 2 * s;

	return rows_at(R, hi > X ? X : hi) - rows_at(R, lo < 0 ? 0 : lo);
}

/* out[j] := 0 for j < K, row[j - K] up to j = K + X, row[X] beyond, for
 * j < len (K >= 0): a row of X + 1 prefix counts shifted by K and
 * padded; row may already be at out + K. */
static void fill_clipped(uint32_t *out, const uint32_t *row, int X, int K,
			 uint32_t len)
{
	int j, n = K + X + 1 < (int) len ? K + X + 1 : (int) len;

	for (j = 0; j < K && j < (int) len; j++)
		out[j] = 0;
	if (row != out + K) /* (else in place) */
		for (j = K; j < n; j++)
			out[j] = row[j - K];
	for (j = n; j < (int) len; j++)
		out[j] = row[X];
}

/* Tori: out[j] := free nodes of the x-row's shell s (y, z fixed) at x <
 * j - K, for j < len, from the y and z intervals wrapped into at most
 * four boxes; beyond the row, periodic if x wraps (out[j + X] = out[j] +
 * the row's total), else 0 below and the total above, as on a mesh.
 * row_count() then reads out like a row of the summed-volume table. */
static void row_periodic(const struct mesh__mc *m, const int ext[3], int s,
			 int y, int z, int K, uint32_t len, uint32_t *out)
{
	const struct mesh_topo *t = m->topo;
	const uint32_t *sum = m->box.sum, *a, *b, *c, *d;
	size_t sy = (size_t) t->dim[0] + 1, sz = sy * ((size_t) t->dim[1] + 1);
	int y0 = y - ext[1] / 2 - s, z0 = z - ext[2] / 2 - s, X = t->dim[0];
	int yf[2], yt[2], zf[2], zt[2], ny, nz, i, j, x, q;
	/* P[0..X]: the row's prefix counts, written in place when out has
	 * room for them at K */
	int direct = K >= 0 && (size_t) K + (size_t) X + 1 <= len;
	uint32_t *P = direct ? out + K : m->rowp, total;

	/* inclusive intervals; the table's bounds are yf and yt + 1 */
	ny = mesh__split_axis(t, 1, y0, y0 + ext[1] - 1 + 2 * s, yf, yt);
	nz = mesh__split_axis(t, 2, z0, z0 + ext[2] - 1 + 2 * s, zf, zt);
	if (!ny || !nz) /* (a shell always holds its centre's row) */
		memset(P, 0, ((size_t) X + 1) * sizeof(*P));
	for (j = 0; j < nz; j++)
		for (i = 0; i < ny; i++) {
			a = sum + (size_t) (yt[i] + 1) * sy +
			    (size_t) (zt[j] + 1) * sz;
			b = sum + (size_t) yf[i] * sy +
			    (size_t) (zt[j] + 1) * sz;
			c = sum + (size_t) (yt[i] + 1) * sy +
			    (size_t) zf[j] * sz;
			d = sum + (size_t) yf[i] * sy + (size_t) zf[j] * sz;
			if (i + j == 0)
				for (x = 0; x <= X; x++)
					P[x] = a[x] - b[x] - c[x] + d[x];
			else
				for (x = 0; x <= X; x++)
					P[x] += a[x] - b[x] - c[x] + d[x];
		}
	total = P[X];
	if (!t->wrap[0] || X == 1) {
		fill_clipped(out, P, X, K, len);
		return;
	}
	if (direct) {
		/* the periods on either side, from the one in place */
		for (j = K - 1; j >= 0; j--)
			out[j] = out[j + X] - total;
		for (j = K + X + 1; j < (int) len; j++)
			out[j] = out[j - X] + total;
		return;
	}
	/* x = j - K = q X + r: out[j] = P[r] + q * total, one period
	 * (a loop the compiler vectorizes) at a time */
	q = K > 0 ? -((K + X - 1) / X) : 0;
	x = -K - q * X;
	for (j = 0; j < (int) len; x = 0, q++) {
		uint32_t add = (uint32_t) q * total;
		int n = X - x < (int) len - j ? X - x : (int) len - j;

		for (i = 0; i < n; i++)
			out[j + i] = P[x + i] + add;
		j += n;
	}
}

/* How row_count() reads shell s's rows: the shape's x offset, width,
 * growth and the row's length. */
struct shell_geom {
	int e, w, s, X;
};

/* Shell s of the centres of x-row (y, z): its rows (sweep_row()) and
 * how to count them.  On a torus the rows come from row_periodic(); if
 * x wraps, shifted by the shape's offset and the shell, so that a
 * centre at x counts [x, x + w) with w at most the ring, unclipped. */
static inline struct shell_geom shell_rows(const struct mesh__mc *m,
					   const int ext[3], int s, int y,
					   int z, struct sweep_rows *R)
{
	const struct mesh_topo *t = m->topo;
	int X = t->dim[0], wrap_x = t->wrap[0] && X > 1;
	uint32_t *row = m->rowp + X + 1, *zero = row + 2 * X + 1;
	struct shell_geom g = { ext[0] / 2, ext[0], s, X };

	if (!t->wrap[0] && !t->wrap[1] && !t->wrap[2]) {
		sweep_row(m, ext, s, y, z, R);
		return g;
	}
	row_periodic(m, ext, s, y, z, wrap_x ? g.e + s : 0,
		     (uint32_t) (wrap_x ? 2 * X + 1 : X + 1), row);
	R->a = row;
	R->b = R->c = R->d = zero;
	if (wrap_x) {
		g.w = ext[0] + 2 * s < X ? ext[0] + 2 * s : X;
		g.e = g.s = 0;
		g.X = 2 * X;
	}
	return g;
}

static inline uint64_t short_of(uint32_t k, uint64_t n)
{
	return n < k ? k - n : 0;
}

/* Tables for the lower bounds of the descending sweep, vol[0 .. 2 *
 * (rmax + 2)): V(s) = prod_d (ext_d + 2s) unclipped at vol[s], and
 * C(q) = sum over s < q of (k - cap(s))^+ at vol[rmax + 2 + q], cap(s) =
 * prod_d min(ext_d + 2s, dim_d): no box of shell s holds more nodes. */
static void sweep_tables(const struct mesh__mc *m, const int ext[3], uint32_t k,
			 int rmax)
{
	const struct mesh_topo *t = m->topo;
	uint64_t v, cap, *C = m->vol + rmax + 2;
	int s, d, e;

	C[0] = 0;
	for (s = 0; s <= rmax + 1; s++) {
		for (d = 0, v = 1, cap = 1; d < 3; d++) {
			e = ext[d] + 2 * s;
			v *= (uint64_t) e;
			cap *= (uint64_t) (e < t->dim[d] ? e : t->dim[d]);
		}
		m->vol[s] = v;
		C[s + 1] = C[s] + short_of(k, cap);
	}
}

/* Lower bound on what shells beyond s add, given n free within shell s:
 * shell s + 1 holds at most V(s + 1) - V(s) more. */
static inline uint64_t tail_bound(const uint64_t *vol, int s, uint32_t k,
				  uint64_t n)
{
	return n < k ? short_of(k, n + vol[s + 1] - vol[s]) : 0;
}

/* Ascending sweep of one row's live centres L[0..n): shell by shell from
 * the first, exactly mesh__mc_cost's test. */
static void sweep_ascending(const struct mesh__mc *m, const int ext[3],
			    uint32_t k, int y, int z, struct mesh__mc_live *L,
			    uint32_t n, uint32_t one, uint64_t floor,
			    struct sweep_best *sb)
{
	const struct mesh_topo *t = m->topo;
	struct mesh__mc_best *best = sb->best;
	struct sweep_rows R;
	struct shell_geom g;
	uint32_t i, kept, cnt, use;
	uint64_t bc, need;
	int s, rmax = t->dim[0], alive;

	rmax = t->dim[1] > rmax ? t->dim[1] : rmax;
	rmax = t->dim[2] > rmax ? t->dim[2] : rmax;
	for (s = (int) one; n && s <= rmax; s++) {
		g = shell_rows(m, ext, s, y, z, &R);
		for (i = 0, kept = 0; i < n; i++) {
			struct mesh__mc_live e = L[i];

			cnt = row_count(&R, (int) e.x, g.e, g.w, g.s, g.X);
			use = cnt - e.taken;
			use = use > k - e.taken ? k - e.taken : use;
			e.taken += use;
			e.cost += (uint64_t) s * use;
			if (e.taken == k) {
				sweep_offer(sb, ext, e.node, e.cost, s);
				continue;
			}
			/* Every cost is at least the floor; the rest
			 * cost s + 1 or more. */
			bc = best->cost;
			bc += bc != UINT64_MAX && sb->here &&
			      e.node < best->centre;
			need = e.cost +
			       (uint64_t) (k - e.taken) * (uint64_t) (s + 1);
			alive = bc > floor && need < bc;
			L[kept] = e;
			kept += (uint32_t) alive;
		}
		n = kept;
	}
}

/* Descending sweep of one row's live centres L[0..n) (issue 10): a
 * centre's cost is the sum over shells s of (k - N(s))^+, N(s) its free
 * nodes within shell s, and the shells just inside the best radius
 * decide it.  So shells S - 1 and S, and S - 2 if three, come first
 * (counted by sweep_search, which set up L: desc_start), then shell
 * `first` (the next one in) down to the first, then S + 1 up until k;
 * after each, the shells not yet counted are bounded from
 * the tables (sweep_tables, tail_bound) and the centre leaves once the
 * bound reaches the best.  e.cost is the sum so far (with shell 0's
 * k - 1 for MC1x1), e.taken N(S), e.x2 the radius found (UINT32_MAX:
 * none yet). */
static void sweep_descending(const struct mesh__mc *m, const int ext[3],
			     uint32_t k, int y, int z, struct mesh__mc_live *L,
			     uint32_t n, int S, int first, uint32_t one,
			     uint64_t floor, struct sweep_best *sb)
{
	const struct mesh_topo *t = m->topo;
	struct mesh__mc_best *best = sb->best;
	struct sweep_rows R;
	struct shell_geom g;
	const uint64_t *V = m->vol;
	uint32_t i, kept, cnt;
	uint64_t bc, lb;
	int q, rmax = t->dim[0], alive, done;
	const uint64_t *C;

	rmax = t->dim[1] > rmax ? t->dim[1] : rmax;
	rmax = t->dim[2] > rmax ? t->dim[2] : rmax;
	C = V + rmax + 2;
	/* Shells first down to the first (1 for MC1x1, whose shell 0 is
	 * the free centre: C(1) = k - 1 exactly), then S + 1 and up. */
	for (q = first; n && q <= rmax; q = q > (int) one && q < S ? q - 1
					    : q < S                ? S + 1
								   : q + 1) {
		g = shell_rows(m, ext, q, y, z, &R);
		for (i = 0, kept = 0; i < n; i++) {
			struct mesh__mc_live e = L[i];

			cnt = row_count(&R, (int) e.x, g.e, g.w, g.s, g.X);
			e.cost += short_of(k, cnt);
			if (cnt >= k && q < S)
				e.x2 = (uint32_t) q;
			else if (cnt >= k && e.x2 == UINT32_MAX)
				e.x2 = (uint32_t) q;
			/* Complete once every shell up to the radius is
			 * counted. */
			done = q <= (int) one ? e.taken >= k
			       : q > S        ? cnt >= k
					      : 0;
			if (done) {
				sweep_offer(sb, ext, e.node, e.cost,
					    (int) e.x2);
				continue;
			}
			lb = q < S ? e.cost + C[q] - C[one] +
					 tail_bound(V, S, k, e.taken)
				   : e.cost + tail_bound(V, q, k, cnt);
			bc = best->cost;
			bc += bc != UINT64_MAX && sb->here &&
			      e.node < best->centre;
			alive = bc > floor && lb < bc;
			L[kept] = e;
			kept += (uint32_t) alive;
		}
		n = kept;
	}
}

/* The live entry of candidate c (row starting at node row) after shells
 * S - 2 (if three), S - 1 and S, for sweep_descending; C as in
 * sweep_tables. */
static inline struct mesh__mc_live desc_start(const struct mesh__mc_cand *c,
					      uint32_t row, uint32_t k, int S,
					      int three, uint64_t c_one)
{
	struct mesh__mc_live e;

	e.node = c->node;
	e.x = c->node - row;
	e.cost = c_one + short_of(k, c->n1) + short_of(k, c->n2) +
		 (three ? short_of(k, c->n0) : 0);
	e.taken = c->n2;
	e.x2 = three && c->n0 >= k ? (uint32_t) S - 2
	       : c->n1 >= k        ? (uint32_t) S - 1
	       : c->n2 >= k        ? (uint32_t) S
				   : UINT32_MAX;
	return e;
}

/* MC search on a mesh without wraparound (issue 10, doc/design.md),
 * one x-row (y, z fixed) of centres at a time: shell s of every live
 * centre of the row costs two lookups into the four summed-volume rows
 * that bound the row's shells in y and z (sweep_row).
 *  1. A few centres near the middle, scored in full, give the radius R
 *     of a good cluster and a bound.
 *  2. If R >= 4, every free centre gets a lower bound from its exact
 *     counts within shells S - 1 and S, S = R - 1, and also S - 2 if
 *     that is above the first shell (the rest from the tables); those
 *     below the best so far are kept, with their counts, in m->cand,
 *     and each whose bound is the least so far is scored in full at
 *     once, which soon gives a bound close to the best (lower_bounds).
 *     Then, row by row, the kept centres whose lower bound is still
 *     below the best enter the descending sweep at the next shell in.
 *     (The third shell costs a row fill per x-row and pays: on 32^3 at
 *     50% and k = 512 it cut mc1x1's search by a quarter on the torus
 *     and 7% on the mesh, because the innermost shells are where the
 *     tables' bound is loose.)
 *  3. Otherwise every free centre enters the ascending sweep.
 * The bound tightens as centres finish, in any order, so ties go to the
 * lower centre explicitly. */

/* Fills q[i][0..len) with the row counts of shell S - i shifted by K
 * (see row_periodic()), for i < n (2 or 3). */
typedef void (*rows_fill_fn)(const struct mesh__mc *m, const int ext[3], int S,
			     int n, int y, int z, int K, uint32_t len,
			     uint32_t *const q[3]);

/* The differences of the four rows R (restrict: out is scratch, never
 * the table, so GCC vectorizes). */
static inline void row_difference(const struct sweep_rows *R, int X,
				  uint32_t *restrict o)
{
	const uint32_t *restrict a = R->a, *restrict b = R->b,
				 *restrict c = R->c, *restrict d = R->d;
	int j;

	for (j = 0; j <= X; j++)
		o[j] = a[j] - b[j] - c[j] + d[j];
}

/* rows_fill_fn on a mesh, from the summed-volume table: 0 below the row,
 * its total above.  The rows' low pads are 0 from the first row of a
 * decision on (lower_bounds() zeroes them), so only the high pads are
 * written per row. */
static void rows_clipped(const struct mesh__mc *m, const int ext[3], int S,
			 int n, int y, int z, int K, uint32_t len,
			 uint32_t *const q[3])
{
	struct sweep_rows R;
	int X = m->topo->dim[0], i;
	uint32_t j, top;

	for (i = 0; i < n; i++) {
		sweep_row(m, ext, S - i, y, z, &R);
		row_difference(&R, X, q[i] + K);
		top = q[i][K + X];
		for (j = (uint32_t) (K + X + 1); j < len; j++)
			q[i][j] = top;
	}
}

/* rows_fill_fn on a torus: row_periodic() per shell. */
static void rows_periodic(const struct mesh__mc *m, const int ext[3], int S,
			  int n, int y, int z, int K, uint32_t len,
			  uint32_t *const q[3])
{
	int i;

	for (i = 0; i < n; i++)
		row_periodic(m, ext, S - i, y, z, K, len, q[i]);
}

/* Step 2's lower bounds: the free centres from node from on whose bound
 * is below the best so far go to m->cand (their number is returned).
 * Each centre whose bound is the least so far and below the best is
 * scored in full at once, so the best falls early and fewer centres are
 * kept.  Per x-row, the counts rows_at of shells S - 1 and S (and S - 2
 * if three) for x = 0 .. X go to arrays padded on both sides (0 below,
 * the row's total above), so a centre's shell counts are two loads each
 * without clamps. */
static uint32_t lower_bounds(const struct mesh__mc *m,
			     const struct mesh_bitmap *free_map,
			     const int ext[3], uint32_t k, uint32_t from, int S,
			     int three, int rmax, struct sweep_best *sb)
{
	const struct mesh_topo *t = m->topo;
	struct mesh__mc_cand *cand = m->cand;
	uint32_t X = (uint32_t) t->dim[0], y, z, row, x0, x, n0, n1, n2, lb;
	uint32_t least = UINT32_MAX, nc = 0;
	uint64_t base = m->vol[rmax + 2 + S - 1 - three],
		 ring = m->vol[S + 1] - m->vol[S], lbx, bits, cost;
	/* a centre must cost at most the best so far to matter */
	uint64_t thr = sb->best->cost + 1;
	int c[3], rad;
	/* shell S - 1 of the centre at x spans [x - lo1, x - lo1 + w1) */
	uint32_t lo1 = (uint32_t) (ext[0] / 2 + S - 1),
		 w1 = (uint32_t) (ext[0] + 2 * (S - 1));
	/* pads: shell S reaches lo1 + 1 below and w1 - lo1 + 1 above */
	uint32_t pl = lo1 + 1, ph = w1 - lo1 + 1, len = pl + X + 1 + ph;
	/* tori: the rows come from row_periodic(), and if x wraps a shell
	 * is at most the whole ring.  Called through a pointer, so that
	 * neither fill is inlined into this loop (inlining both made the
	 * mesh's 6% slower). */
	rows_fill_fn fill = t->wrap[0] || t->wrap[1] || t->wrap[2]
				? rows_periodic
				: rows_clipped;
	int wrap_x = t->wrap[0] && X > 1;
	uint32_t W1 = wrap_x && w1 > X ? X : w1;
	uint32_t W2 = wrap_x && w1 + 2 > X ? X : w1 + 2;
	/* shell S - 2 (if three) lies within S - 1's pads */
	uint32_t W0 = wrap_x && w1 - 2 > X ? X : w1 - 2;
	uint32_t *q1 = m->rowq, *q2 = q1 + len, *q0 = q2 + len;
	uint32_t *const q[3] = { q2, q1, q0 }; /* shells S, S - 1, S - 2 */
	const uint32_t *h1 = q1 + pl - lo1 + W1, *l1 = q1 + pl - lo1,
		       *h2 = q2 + pl - lo1 - 1 + W2, *l2 = q2 + pl - lo1 - 1,
		       *h0 = q0 + pl - lo1 + 1 + W0, *l0 = q0 + pl - lo1 + 1;

	/* the low pads: rows_clipped() leaves them */
	memset(q1, 0, pl * sizeof(*q1));
	memset(q2, 0, pl * sizeof(*q2));
	if (three)
		memset(q0, 0, pl * sizeof(*q0));
	for (z = 0, row = 0; z < (uint32_t) t->dim[2]; z++)
		for (y = 0; y < (uint32_t) t->dim[1]; y++, row += X) {
			if (row + X <= from)
				continue;
			fill(m, ext, S, 2 + three, (int) y, (int) z, (int) pl,
			     len, q);
			for (x0 = 0; x0 < X; x0 += 64) {
				bits = row_bits(free_map, row, x0, X, from);
				for (; bits; bits &= bits - 1) {
					x = x0 +
					    (uint32_t) __builtin_ctzll(bits);
					n1 = h1[x] - l1[x];
					n2 = h2[x] - l2[x];
					n0 = three ? h0[x] - l0[x] : k;
					lbx = base + short_of(k, n0) +
					      short_of(k, n1) +
					      short_of(k, n2) +
					      (n2 < k ? short_of(k, n2 + ring)
						      : 0);
					lb = lbx > UINT32_MAX ? UINT32_MAX
							      : (uint32_t) lbx;
					/* written always, kept if below */
					cand[nc].node = row + x;
					cand[nc].n0 = n0;
					cand[nc].n1 = n1;
					cand[nc].n2 = n2;
					cand[nc].lb = lb;
					nc += lbx < thr;
					if (lb >= least)
						continue;
					least = lb;
					if (lb >= sweep_bound(sb, row + x))
						continue;
					mesh_topo_coords(t, row + x, c);
					cost = mesh__mc_cost(
					    m, c, ext, k,
					    sweep_bound(sb, row + x), &rad);
					sweep_offer(sb, ext, row + x, cost,
						    rad);
					thr = sb->best->cost + 1;
				}
			}
		}
	return nc;
}

static void sweep_search(const struct mesh__mc *m,
			 const struct mesh_bitmap *free_map, const int ext[3],
			 uint32_t k, uint32_t from, int here,
			 struct mesh__mc_best *best)
{
	const struct mesh_topo *t = m->topo;
	struct sweep_best sb = { best, here };
	struct mesh__mc_live *L = m->live;
	const struct mesh__mc_cand *cand = m->cand;
	uint32_t n, i, j, X = (uint32_t) t->dim[0], x, y, z, row, x0, nc;
	int mid[3], c[3], rad;
	/* MC1x1: shell 0 is the free centre itself, so start at shell 1
	 * (k > 1; a 1-node job finishes at shell 0). */
	uint32_t one = ext[0] == 1 && ext[1] == 1 && ext[2] == 1 && k > 1;
	uint64_t floor = cost_floor(t, ext, k), cost, bits;
	int S = 0, rmax = t->dim[0], three;

	rmax = t->dim[1] > rmax ? t->dim[1] : rmax;
	rmax = t->dim[2] > rmax ? t->dim[2] : rmax;
	/* 1. Centres near the middle see whole shells. */
	mid[0] = t->dim[0] / 2, mid[1] = t->dim[1] / 2, mid[2] = t->dim[2] / 2;
	i = mesh_topo_index(t, mid);
	for (i = i < from ? from : i, j = 0; i < t->nodes && j < 16; i++) {
		if (!mesh_bitmap_test(free_map, i))
			continue;
		mesh_topo_coords(t, i, c);
		cost = mesh__mc_cost(m, c, ext, k, sweep_bound(&sb, i), &rad);
		sweep_offer(&sb, ext, i, cost, rad);
		j++;
	}
	/* (the padded rows, ext[0] + 2 S + X + 1 entries, must fit: a shape
	 * longer than a crop's x-rows takes the ascending sweep) */
	if (best->cost != UINT64_MAX && best->radius >= 4 &&
	    (size_t) ext[0] + 2 * (size_t) best->radius + t->dim[0] - 1 <=
		m->rowq_len) {
		/* 2. Lower bounds from shells S - 1 and S (and S - 2). */
		S = best->radius - 1;
		three = S - 3 >= (int) one;
		sweep_tables(m, ext, k, rmax);
		nc = lower_bounds(m, free_map, ext, k, from, S, three, rmax,
				  &sb);
		/* Row by row, the kept centres still below the best, ties
		 * to the lower centre (written always, kept if so). */
		for (i = 0; i < nc;) {
			uint64_t above = best->cost,
				 c_one = m->vol[rmax + 2 + one];
			uint64_t below =
			    above + (above != UINT64_MAX && sb.here);
			uint32_t centre = best->centre;

			row = cand[i].node - cand[i].node % X;
			for (n = 0; i < nc && cand[i].node < row + X; i++) {
				L[n] = desc_start(&cand[i], row, k, S, three,
						  c_one);
				n += (uint64_t) cand[i].lb <
				     (cand[i].node < centre ? below : above);
			}
			if (n && below > floor)
				sweep_descending(
				    m, ext, k,
				    (int) (row / X % (uint32_t) t->dim[1]),
				    (int) (row / X / (uint32_t) t->dim[1]), L,
				    n, S, S - 2 - three, one, floor, &sb);
		}
		return;
	}
	/* 3. Row by row, every free centre, until the best is at the floor
	 * and can lose no tie to the rows left (on a torus, which has no
	 * edges, the first rows often reach it). */
	for (z = 0, row = 0; z < (uint32_t) t->dim[2]; z++)
		for (y = 0; y < (uint32_t) t->dim[1]; y++, row += X) {
			if (row + X <= from)
				continue;
			if (best->cost <= floor &&
			    (!sb.here || best->centre < row))
				return;
			for (x0 = 0, n = 0; x0 < X; x0 += 64) {
				bits = row_bits(free_map, row, x0, X, from);
				for (; bits; bits &= bits - 1) {
					x = x0 +
					    (uint32_t) __builtin_ctzll(bits);
					L[n].node = row + x;
					L[n].x = x;
					L[n].taken = one;
					L[n].cost = 0;
					n++;
				}
			}
			if (n)
				sweep_ascending(m, ext, k, (int) y, (int) z, L,
						n, one, floor, &sb);
		}
}

void mesh__mc_search(const struct mesh__mc *m,
		     const struct mesh_bitmap *free_map, const int ext[3],
		     uint32_t k, struct mesh__mc_best *best)
{
	const struct mesh_topo *t = m->topo;
	uint64_t cost, floor = cost_floor(t, ext, k), before = best->cost;
	uint32_t i, seen = 0;
	int c[3], r;

	/* Centre by centre, lowest first; once a centre reaches the floor no
	 * later one can beat it.  After the first few centres have set a
	 * bound, the rest go to the shell-by-shell sweep. */
	for (i = 0; i < t->nodes && best->cost > floor; i++) {
		if (!mesh_bitmap_test(free_map, i))
			continue;
		if (++seen > 32) {
			sweep_search(m, free_map, ext, k, i,
				     best->cost != before, best);
			return;
		}
		mesh_topo_coords(t, i, c);
		cost = mesh__mc_cost(m, c, ext, k, best->cost, &r);
		if (cost < best->cost) {
			best->cost = cost;
			best->centre = i;
			best->radius = r;
			memcpy(best->ext, ext, sizeof(best->ext));
		}
	}
}

/* Coordinates covered on axis d by [lo, hi] (clipped or wrapped). */
static int axis_span(const struct mesh_topo *t, int d, int lo, int hi,
		     int *first, int *count)
{
	int len = t->dim[d];

	if (t->wrap[d]) {
		if (hi - lo + 1 >= len) {
			*first = 0;
			*count = len;
		} else {
			*first = ((lo % len) + len) % len;
			*count = hi - lo + 1;
		}
		return 1;
	}
	*first = lo < 0 ? 0 : lo;
	*count = (hi >= len ? len - 1 : hi) - *first + 1;
	return 0;
}

/* Sorts a[0..n) ascending with tmp[0..n) as scratch, given that a is
 * already ascending in its low `from` bits (a multiple of 8) wherever the
 * bits above agree: least significant byte first from there (each pass
 * is stable), skipping the bytes in which all keys agree. */
static void sort_u64(uint64_t *a, uint32_t n, uint64_t *tmp, uint32_t from)
{
	uint32_t cnt[256], i, sh, pos, c;
	uint64_t *src = a, *dst = tmp, *x, diff = 0;

	for (i = 1; i < n; i++)
		diff |= a[i] ^ a[0];
	for (sh = from; sh < 64 && diff >> sh; sh += 8) {
		if (!((diff >> sh) & 0xff))
			continue;
		memset(cnt, 0, sizeof(cnt));
		for (i = 0; i < n; i++)
			cnt[(src[i] >> sh) & 0xff]++;
		for (i = 0, pos = 0; i < 256; i++)
			c = cnt[i], cnt[i] = pos, pos += c;
		for (i = 0; i < n; i++)
			dst[cnt[(src[i] >> sh) & 0xff]++] = src[i];
		x = src, src = dst, dst = x;
	}
	if (src != a)
		memcpy(a, src, n * sizeof(*a));
}

uint32_t mesh__mc_gather(struct mesh__mc *m, const struct mesh_bitmap *free_map,
			 const struct mesh__mc_best *best, uint32_t k,
			 mesh__mc_key key, const void *ctx, uint32_t *out)
{
	const struct mesh_topo *t = m->topo;
	int c[3], lo0[3], hi0[3], lo[3], hi[3], f[3], n[3], q[3], i[3], d, s;
	int *at[3], *dist[3], *near[3], out0[3], near0[3], w;
	uint32_t cnt = 0, j, node;

	mesh_topo_coords(t, best->centre, c);
	shell_box(c, best->ext, 0, lo0, hi0);
	shell_box(c, best->ext, best->radius, lo, hi);
	/* Per axis: the coordinates the box covers, ascending (a box that
	 * wraps starts at 0), their distance outside shell 0 and to the
	 * centre, once, not per node. */
	at[0] = m->ax, at[1] = at[0] + t->dim[0], at[2] = at[1] + t->dim[1];
	dist[0] = at[2] + t->dim[2], dist[1] = dist[0] + t->dim[0];
	dist[2] = dist[1] + t->dim[1];
	near[0] = dist[2] + t->dim[2], near[1] = near[0] + t->dim[0];
	near[2] = near[1] + t->dim[1];
	for (d = 0; d < 3; d++) {
		axis_span(t, d, lo[d], hi[d], &f[d], &n[d]);
		w = f[d] + n[d] > t->dim[d] ? f[d] + n[d] - t->dim[d] : 0;
		for (i[d] = 0; i[d] < n[d]; i[d]++) {
			at[d][i[d]] = i[d] < w ? i[d] : f[d] + i[d] - w;
			dist[d][i[d]] = mesh__interval_distance(
			    t, d, at[d][i[d]], lo0[d], hi0[d]);
			near[d][i[d]] =
			    mesh_topo_axis_distance(t, d, at[d][i[d]], c[d]);
		}
	}
	for (i[2] = 0; i[2] < n[2]; i[2]++)
		for (q[2] = at[2][i[2]], i[1] = 0; i[1] < n[1]; i[1]++)
			for (q[1] = at[1][i[1]], i[0] = 0; i[0] < n[0];
			     i[0]++) {
				q[0] = at[0][i[0]];
				node = mesh_topo_index(t, q);
				if (!mesh_bitmap_test(free_map, node))
					continue;
				for (d = 0, s = 0; d < 3; d++) {
					out0[d] = dist[d][i[d]];
					near0[d] = near[d][i[d]];
					s = out0[d] > s ? out0[d] : s;
				}
				m->keys[cnt++] =
				    (uint64_t) s << 42 |
				    key(ctx, t, q, s, lo0, out0, near0) << 22 |
				    node;
			}
	/* the nodes came in ascending order: the low 16 bits need no pass */
	sort_u64(m->keys, cnt, m->tmp, 16);
	for (j = 0; j < k; j++)
		out[j] = (uint32_t) (m->keys[j] & ((1u << 22) - 1));
	return cnt;
}

/* ---- greedy fill (mc1x1's outermost shell) ---- */

void mesh__greedy_free(struct mesh__greedy *g)
{
	free(g->cand);
	free(g->xyz);
	free(g->hist);
	free(g->wsum);
	memset(g, 0, sizeof(*g));
}

int mesh__greedy_init(struct mesh__greedy *g, const struct mesh_topo *t)
{
	size_t n = t->nodes, w = (size_t) t->dim[0] + (size_t) t->dim[1] +
				 (size_t) t->dim[2] + 3;

	g->cand = malloc(n * sizeof(*g->cand));
	g->xyz = malloc(4 * n * sizeof(*g->xyz));
	g->hist = calloc(w, sizeof(*g->hist));
	g->wsum = malloc(w * sizeof(*g->wsum));
	if (!g->cand || !g->xyz || !g->hist || !g->wsum) {
		mesh__greedy_free(g);
		return MESH_ENOMEM;
	}
	return 0;
}

/* Distance on axis d without branches (Lee distance if it wraps). */
static inline uint64_t axis_gap(int a, int b, int len, int wrap)
{
	int x = a > b ? a - b : b - a, y = len - x;

	return (uint64_t) (wrap && y < x ? y : x);
}

/* Each pick costs one pass over the candidates' coordinate range per
 * axis (add its distance to wsum) and one over the candidates left (3
 * table reads each).  Candidate c is kept as its three wsum indices
 * (coordinate plus the axis's offset) and c; a pick is moved out of the
 * list, which keeps the candidates' order for ties. */
void mesh__greedy_fill(struct mesh__greedy *g, const struct mesh_topo *t,
		       uint32_t n, uint32_t *out, uint32_t inner, uint32_t m)
{
	uint32_t i, j, c, best = 0;
	uint64_t least, sum, *w = g->wsum;
	int q[3], *x, d, v, u, off[3], lo[3], hi[3], ilo[3], ihi[3], b[3];

	off[0] = 0, off[1] = t->dim[0] + 1, off[2] = off[1] + t->dim[1] + 1;
	for (d = 0; d < 3; d++)
		lo[d] = ilo[d] = t->dim[d], hi[d] = ihi[d] = -1;
	for (c = 0; c < n; c++) {
		x = g->xyz + 4 * (size_t) c;
		mesh_topo_coords(t, g->cand[c], x);
		for (d = 0; d < 3; d++) {
			lo[d] = x[d] < lo[d] ? x[d] : lo[d];
			hi[d] = x[d] > hi[d] ? x[d] : hi[d];
			x[d] += off[d];
		}
		x[3] = (int) c;
	}
	for (i = 0; i < inner; i++) {
		mesh_topo_coords(t, out[i], q);
		for (d = 0; d < 3; d++) {
			g->hist[off[d] + q[d]]++;
			ilo[d] = q[d] < ilo[d] ? q[d] : ilo[d];
			ihi[d] = q[d] > ihi[d] ? q[d] : ihi[d];
		}
	}
	/* wsum[off_d + v]: total distance on axis d from v to the chosen,
	 * for v in the candidates' range. */
	for (d = 0; d < 3; d++)
		for (v = lo[d]; v <= hi[d]; v++) {
			w[off[d] + v] = 0;
			for (u = ilo[d]; u <= ihi[d]; u++)
				w[off[d] + v] +=
				    (uint64_t) g->hist[off[d] + u] *
				    axis_gap(v, u, t->dim[d], t->wrap[d]);
		}
	for (i = 0; i < inner; i++) {
		mesh_topo_coords(t, out[i], q);
		for (d = 0; d < 3; d++)
			g->hist[off[d] + q[d]] = 0;
	}
	for (j = 0; j < m; j++, n--) {
		for (c = 0, x = g->xyz, least = UINT64_MAX; c < n;
		     c++, x += 4) {
			sum = w[x[0]] + w[x[1]] + w[x[2]];
			if (sum < least)
				least = sum, best = c;
		}
		x = g->xyz + 4 * (size_t) best;
		out[inner + j] = g->cand[x[3]];
		for (d = 0; d < 3; d++)
			b[d] = x[d] - off[d];
		memmove(x, x + 4, 4 * (size_t) (n - best - 1) * sizeof(*x));
		for (d = 0; j + 1 < m && d < 3; d++)
			for (v = lo[d]; v <= hi[d]; v++)
				w[off[d] + v] +=
				    axis_gap(v, b[d], t->dim[d], t->wrap[d]);
	}
}

/* ---- the MC allocator ---- */

struct mc_priv {
	struct mesh__mc mc;
	int shape[3];   /* parameter shape=, 0 = none */
	int one_by_one; /* mc1x1: shell 0 is always the single centre */
	int greedy;     /* mc1x1: the outermost shell filled greedily */
	struct mesh__greedy greedy_fill;
	int gdim[3]; /* a->gdim: the whole mesh's extent, also on a crop */
	int *ranks;  /* per shell, face_rank of each axis (mc_nodes) */
};

static uint64_t mc_key(const void *ctx, const struct mesh_topo *t,
		       const int q[3], int s, const int lo[3], const int out[3],
		       const int near[3]);

static int face_rank(const int dim[3], const int lo[3], const int hi[3], int s,
		     int axis);

#define KEY_NODE(k) ((uint32_t) ((k) & ((1u << 22) - 1)))
#define KEY_SHELL(k) ((uint32_t) ((k) >> 42))

/* Walker et al.'s MC1x1, the variant whose quality they report (Sec. IV:
 * "slightly more sophisticated" than the timed one, which "simply returns
 * the first processors it finds at the appropriate distance"): inner
 * shells are taken whole, and the outermost shell is filled greedily,
 * each next node the one with the least total L1 (Lee) distance to the
 * nodes already chosen; ties go to Mache's in-shell order.  The shell
 * sum, and so the centre, is unchanged.  keys[0..cnt) as gathered. */
static void fill_outer_greedy(struct mc_priv *p, uint32_t cnt, uint32_t k,
			      uint32_t *out)
{
	const uint64_t *keys = p->mc.keys;
	uint32_t radius = KEY_SHELL(keys[k - 1]), inner = 0, n, c;

	while (KEY_SHELL(keys[inner]) < radius)
		inner++;
	for (n = inner; n < cnt && KEY_SHELL(keys[n]) == radius; n++)
		;
	n -= inner; /* candidates keys[inner .. inner + n) */
	for (c = 0; c < n; c++)
		p->greedy_fill.cand[c] = KEY_NODE(keys[inner + c]);
	mesh__greedy_fill(&p->greedy_fill, p->mc.topo, n, out, inner,
			  k - inner);
}

/* The cluster's nodes: Mache's order, or for mc1x1 the greedy fill. */
static void mc_nodes(struct mc_priv *p, const struct mesh_bitmap *free_map,
		     const struct mesh__mc_best *best, uint32_t k,
		     uint32_t *out)
{
	const struct mesh_topo *t = p->mc.topo;
	int c[3], lo[3], hi[3], s, d, *ranks = p->ranks;
	uint32_t cnt;

	/* the faces' order per shell, once */
	mesh_topo_coords(t, best->centre, c);
	shell_box(c, best->ext, 0, lo, hi);
	for (s = 0; s <= best->radius; s++)
		for (d = 0; d < 3; d++)
			ranks[3 * s + d] = face_rank(p->gdim, lo, hi, s, d);
	cnt = mesh__mc_gather(&p->mc, free_map, best, k, mc_key, p, out);
	if (p->greedy)
		fill_outer_greedy(p, cnt, k, out);
}

static int mc_create(struct mesh_allocator *a, const char *params,
		     struct mesh_diag *d)
{
	static const char *const known[] = { "shape", NULL };
	struct mc_priv *p;
	char buf[64];
	/* mc1x1 (variant 1) takes no shape: shell 0 is 1x1. */
	int rc = mesh__param_check(params, a->entry->variant ? NULL : known,
				   a->name, d);

	if (rc)
		return rc;
	p = calloc(1, sizeof(*p));
	if (!p)
		return MESH_ENOMEM;
	memcpy(p->gdim, a->gdim, sizeof(p->gdim));
	p->one_by_one = a->entry->variant >= 1;
	p->greedy = a->entry->variant == 1;
	if (p->greedy && mesh__greedy_init(&p->greedy_fill, a->topo)) {
		free(p);
		return MESH_ENOMEM;
	}
	if (mesh__param_get(params, "shape", buf, sizeof(buf)) &&
	    mesh_shape_parse(buf, p->shape, NULL)) {
		mesh__greedy_free(&p->greedy_fill);
		free(p);
		return mesh_diag_set(
		    d, MESH_EINVAL, NULL, 0, "shape",
		    "expected WxH or WxHxD (positive integers), got \"%s\"",
		    buf);
	}
	p->ranks = malloc(3 *
			  ((size_t) a->topo->dim[0] + (size_t) a->topo->dim[1] +
			   (size_t) a->topo->dim[2] + 1) *
			  sizeof(*p->ranks));
	if (!p->ranks || mesh__mc_init(&p->mc, a->topo)) {
		mesh__greedy_free(&p->greedy_fill);
		free(p->ranks);
		free(p);
		return MESH_ENOMEM;
	}
	a->priv = p;
	return 0;
}

static void mc_destroy(struct mesh_allocator *a)
{
	struct mc_priv *p = a->priv;

	mesh__mc_free(&p->mc);
	mesh__greedy_free(&p->greedy_fill);
	free(p->ranks);
	free(p);
}

static int fits(const int dim[3], const int e[3])
{
	return e[0] <= dim[0] && e[1] <= dim[1] && e[2] <= dim[2];
}

static uint64_t volume(const int e[3])
{
	return (uint64_t) e[0] * (uint64_t) e[1] * (uint64_t) e[2];
}

/* Most cube-like exact factorisation of k fitting dim, or 1x1x1. */
static void default_shape(const int dim[3], uint32_t k, int e[3])
{
	int best = -1, a, b, lo, hi;
	uint32_t c;

	e[0] = e[1] = e[2] = 1;
	for (a = 1; a <= dim[0] && (uint32_t) a <= k; a++) {
		if (k % (uint32_t) a)
			continue;
		for (b = 1; b <= dim[1] && (uint32_t) b <= k / (uint32_t) a;
		     b++) {
			if ((k / (uint32_t) a) % (uint32_t) b)
				continue;
			c = k / (uint32_t) a / (uint32_t) b;
			if (c > (uint32_t) dim[2] ||
			    (best >= 0 && a + b + (int) c >= best))
				continue;
			best = a + b + (int) c;
			e[0] = a, e[1] = b, e[2] = (int) c;
		}
	}
	lo = hi = 0;
	for (a = 0; a < 3; a++) {
		if (dim[a] == 1)
			continue;
		if (!lo || e[a] < lo)
			lo = e[a];
		if (e[a] > hi)
			hi = e[a];
	}
	if (best < 0 || hi > 4 * lo)
		e[0] = e[1] = e[2] = 1;
}

/* Distinct orientations of the request's shape that fit the mesh (its
 * whole extent, gdim, also on a crop); returns count. */
static int orientations(const struct mc_priv *p, const struct mesh_request *req,
			int o[6][3])
{
	static const int perm[6][3] = { { 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 },
					{ 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 } };
	int e[3], i, j, n = 0, dup;

	if (p->one_by_one) {
		o[0][0] = o[0][1] = o[0][2] = 1;
		return 1;
	}
	for (i = 0; i < 3; i++)
		e[i] = req->shape[i] > 0 ? req->shape[i] : 1;
	if (req->shape[0] <= 0 || volume(e) != req->nodes) {
		memcpy(e, p->shape, sizeof(e));
		if (!e[0] || volume(e) != req->nodes)
			default_shape(p->gdim, req->nodes, e);
	}
	for (i = 0; i < 6; i++) {
		int x[3] = { e[perm[i][0]], e[perm[i][1]], e[perm[i][2]] };

		for (j = 0, dup = 0; j < n; j++)
			dup |= !memcmp(o[j], x, sizeof(x));
		if (!dup && fits(p->gdim, x))
			memcpy(o[n++], x, sizeof(x));
	}
	if (!n)
		o[n][0] = o[n][1] = o[n][2] = 1, n++;
	return n;
}

/* Rank of axis d's faces among the three faces of shell s around the
 * shell-0 box [lo, hi]: by the nodes a face holds, fewest first, ties to
 * the lower axis; a face's area is clipped by dim, the whole mesh's
 * extent (gdim), also on a crop. */
static int face_rank(const int dim[3], const int lo[3], const int hi[3], int s,
		     int axis)
{
	uint64_t area[3];
	int d, e, rank = 0;

	for (d = 0; d < 3; d++) {
		area[d] = 1;
		for (e = 0; e < 3; e++) {
			int len = hi[e] - lo[e] + 1 + 2 * s;

			if (e != d)
				area[d] *=
				    (uint64_t) (len < dim[e] ? len : dim[e]);
		}
	}
	for (d = 0; d < 3; d++)
		rank +=
		    area[d] < area[axis] || (area[d] == area[axis] && d < axis);
	return rank;
}

/* Shorter sides first, then longer sides, then edges and corners.  ctx:
 * the mc_priv, whose ranks hold face_rank() of shell s and axis d at
 * [3 * s + d] for every shell the gather reaches (mc_nodes). */
static uint64_t mc_key(const void *ctx, const struct mesh_topo *t,
		       const int q[3], int s, const int lo[3], const int out[3],
		       const int near[3])
{
	const int *ranks = ((const struct mc_priv *) ctx)->ranks;
	int d, axis = -1, nout = 0, rank = 0, l1 = 0;

	(void) t, (void) q, (void) lo;
	for (d = 0; d < 3; d++) {
		l1 += near[d];
		if (s && out[d] == s)
			nout++, axis = d;
	}
	if (nout == 1)
		rank = ranks[3 * s + axis];
	else if (nout > 1)
		rank = 1 + nout;
	return (uint64_t) rank << 17 | (uint64_t) (l1 & 0x1ffff);
}

static void mc_find(struct mc_priv *p, const struct mesh_view *v,
		    const struct mesh_request *req, struct mesh__mc_best *best,
		    int o[6][3], int *n)
{
	int i;

	*n = orientations(p, req, o);
	mesh__mc_prepare(&p->mc, v->free);
	best->cost = UINT64_MAX;
	for (i = 0; i < *n; i++)
		mesh__mc_search(&p->mc, v->free, o[i], req->nodes, best);
}

static int mc_place(struct mesh_allocator *a, const struct mesh_view *v,
		    const struct mesh_request *req, uint32_t *out)
{
	struct mc_priv *p = a->priv;
	struct mesh__mc_best best;
	int o[6][3], n;

	mc_find(p, v, req, &best, o, &n);
	if (best.cost == UINT64_MAX)
		return MESH_ENOSPC;
	mc_nodes(p, v->free, &best, req->nodes, out);
	return 0;
}

static int mc_candidates(struct mesh_allocator *a, const struct mesh_view *v,
			 const struct mesh_request *req, uint32_t *buf,
			 int (*cb)(void *ctx, const uint32_t *nodes), void *ctx)
{
	struct mc_priv *p = a->priv;
	struct mesh__mc_best best, tie;
	int o[6][3], n, i, c[3];
	uint32_t node;

	mc_find(p, v, req, &best, o, &n);
	if (best.cost == UINT64_MAX)
		return MESH_ENOSPC;
	for (i = 0; i < n; i++) {
		memcpy(tie.ext, o[i], sizeof(tie.ext));
		for (node = 0; node < v->topo->nodes; node++) {
			if (!mesh_bitmap_test(v->free, node))
				continue;
			mesh_topo_coords(v->topo, node, c);
			if (mesh__mc_cost(&p->mc, c, o[i], req->nodes,
					  best.cost + 1,
					  &tie.radius) != best.cost)
				continue;
			tie.centre = node;
			mc_nodes(p, v->free, &tie, req->nodes, buf);
			if (cb(ctx, buf))
				return 0;
		}
	}
	return 0;
}

const struct mesh_alloc_ops mesh__mc_ops = {
	.create = mc_create,
	.destroy = mc_destroy,
	.place = mc_place,
	.candidates = mc_candidates,
};

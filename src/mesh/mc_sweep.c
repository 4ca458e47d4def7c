/* mc_sweep.c - the MC search: the free centre whose cluster costs
 * least, over every free centre (Mache, Fig. 31), faster than centre by
 * centre.
 *
 * HOW IT WORKS: no centre can cost less than filling the largest
 * possible shells in order (cost_floor()), so the search stops once a
 * centre reaches that floor.  A few centres near the middle are costed
 * one by one (mesh__mc_cost()) for a first bound; then every free centre
 * is swept one x-row at a time, shell by shell, every live centre of the
 * row reading its shell count from four rows of the summed-volume table
 * (sweep_row()).  For clusters of radius 4 or more, every centre first
 * gets a lower bound from two or three exact shell counts just inside
 * the best radius, so that only the few that may win are counted in
 * full (mesh__mc_search(), lower_bounds(), sweep_descending()); an
 * x-row without a free centre, or whose least bound over all its x
 * (row_least(), vectorized) is not below the best, is passed over
 * whole.  On a torus a row's shell counts
 * are first gathered from its wrapped y and z intervals and continued
 * periodically in x (row_periodic()), and the sweep reads them as it
 * reads the summed-volume table on a mesh.  Ties go to the lower centre
 * explicitly, as the bound tightens in any order.  test/reference.c's
 * ref_mc_centre is the definition, node by node; check_alloc_exact
 * compares them.
 */
#include "mc.h"

#include <string.h>

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

/* The free bits of x-row row at x0 .. x0 + 63 (fewer at the row's end). */
static inline uint64_t row_bits(const struct mesh_bitmap *b, uint32_t row,
				uint32_t x0, uint32_t X)
{
	return mesh__bits_at(b->words, row + x0, X - x0 < 64 ? X - x0 : 64);
}

/* Whether x-row row has a free node. */
static inline int row_any_free(const struct mesh_bitmap *b, uint32_t row,
			       uint32_t X)
{
	uint32_t x0;

	for (x0 = 0; x0 < X; x0 += 64)
		if (row_bits(b, row, x0, X))
			return 1;
	return 0;
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
 * (counted by mesh__mc_search, which set up L: desc_start), then shell
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

/* The least over x = 0 .. X - 1 (free centres or not) of a centre's
 * lower bound less its base, from the shell counts h[x] - l[x] (shells
 * S - 2 if three, S - 1, S) and shell S + 1's room ring (at most k).
 * Counts and k are at most 2^22, so int32 holds the sums and the loops
 * vectorize. */
static int32_t row_least(const uint32_t *h0, const uint32_t *l0,
			 const uint32_t *h1, const uint32_t *l1,
			 const uint32_t *h2, const uint32_t *l2, int three,
			 uint32_t k, uint32_t ring, uint32_t X)
{
	int32_t kk = (int32_t) k, least = INT32_MAX, a, b, c, d, v;
	uint32_t x;

#define SHORT(n) ((n) < kk ? kk - (n) : 0)
	if (three)
		for (x = 0; x < X; x++) {
			a = (int32_t) (h0[x] - l0[x]);
			b = (int32_t) (h1[x] - l1[x]);
			c = (int32_t) (h2[x] - l2[x]);
			d = c + (int32_t) ring;
			v = SHORT(a) + SHORT(b) + SHORT(c) + SHORT(d);
			least = v < least ? v : least;
		}
	else
		for (x = 0; x < X; x++) {
			b = (int32_t) (h1[x] - l1[x]);
			c = (int32_t) (h2[x] - l2[x]);
			d = c + (int32_t) ring;
			v = SHORT(b) + SHORT(c) + SHORT(d);
			least = v < least ? v : least;
		}
#undef SHORT
	return least;
}

/* Step 2's lower bounds: the free centres whose bound is below the best
 * so far go to m->cand (their number is returned).
 * Each centre whose bound is the least so far and below the best is
 * scored in full at once, so the best falls early and fewer centres are
 * kept.  Per x-row, the counts rows_at of shells S - 1 and S (and S - 2
 * if three) for x = 0 .. X go to arrays padded on both sides (0 below,
 * the row's total above), so a centre's shell counts are two loads each
 * without clamps. */
static uint32_t lower_bounds(const struct mesh__mc *m,
			     const struct mesh_bitmap *free_map,
			     const int ext[3], uint32_t k, int S, int three,
			     int rmax, struct sweep_best *sb)
{
	const struct mesh_topo *t = m->topo;
	struct mesh__mc_cand *cand = m->cand;
	uint32_t X = (uint32_t) t->dim[0], y, z, row, x0, x, n0, n1, n2, lb;
	uint32_t least = UINT32_MAX, nc = 0;
	uint64_t base = m->vol[rmax + 2 + S - 1 - three],
		 ring = m->vol[S + 1] - m->vol[S], lbx, bits, cost;
	uint32_t ring32 = ring < k ? (uint32_t) ring : k;
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
			/* (a row without a free centre needs no counts: a
			 * third of the rows in a busy 32^3 replay) */
			if (!row_any_free(free_map, row, X))
				continue;
			fill(m, ext, S, 2 + three, (int) y, (int) z, (int) pl,
			     len, q);
			/* a row whose least bound is not below the best
			 * keeps no centre and scores none */
			if (base + (uint64_t) row_least(h0, l0, h1, l1, h2, l2,
							three, k, ring32, X) >=
			    thr)
				continue;
			for (x0 = 0; x0 < X; x0 += 64) {
				bits = row_bits(free_map, row, x0, X);
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

void mesh__mc_search(const struct mesh__mc *m,
		     const struct mesh_bitmap *free_map, const int ext[3],
		     uint32_t k, struct mesh__mc_best *best)
{
	const struct mesh_topo *t = m->topo;
	struct sweep_best sb = { best, 0 };
	struct mesh__mc_live *L = m->live;
	const struct mesh__mc_cand *cand = m->cand;
	uint32_t n, i, j, X = (uint32_t) t->dim[0], x, y, z, row, x0, nc;
	int mid[3], c[3], rad;
	/* MC1x1: shell 0 is the free centre itself, so start at shell 1
	 * (k > 1; a 1-node job finishes at shell 0). */
	uint32_t one = ext[0] == 1 && ext[1] == 1 && ext[2] == 1 && k > 1;
	uint64_t floor = cost_floor(t, ext, k), cost, bits;
	int S = 0, rmax = t->dim[0], three;

	/* At the floor no centre can beat the best (an earlier
	 * orientation's, which keeps ties). */
	if (best->cost <= floor)
		return;
	rmax = t->dim[1] > rmax ? t->dim[1] : rmax;
	rmax = t->dim[2] > rmax ? t->dim[2] : rmax;
	/* 1. Centres near the middle see whole shells. */
	mid[0] = t->dim[0] / 2, mid[1] = t->dim[1] / 2, mid[2] = t->dim[2] / 2;
	i = mesh_topo_index(t, mid);
	for (j = 0; i < t->nodes && j < 16; i++) {
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
		nc = lower_bounds(m, free_map, ext, k, S, three, rmax, &sb);
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
			if (best->cost <= floor &&
			    (!sb.here || best->centre < row))
				return;
			for (x0 = 0, n = 0; x0 < X; x0 += 64) {
				bits = row_bits(free_map, row, x0, X);
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

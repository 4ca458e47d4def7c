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
 * once a centre reaches that floor; on meshes without wraparound, after
 * the first 32 free centres the rest are swept shell by shell, all live
 * centres of an x-row sharing one pass over the summed-volume table.
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

struct mesh__mc_live {
	uint32_t node, x, y, z, taken, inside;
	uint64_t cost;
};

void mesh__mc_free(struct mesh__mc *m)
{
	mesh__boxsum_free(&m->box);
	free(m->keys);
	free(m->live);
	m->keys = NULL;
	m->live = NULL;
}

int mesh__mc_init(struct mesh__mc *m, const struct mesh_topo *t)
{
	m->topo = t;
	m->box.sum = NULL;
	m->keys = malloc(t->nodes * sizeof(*m->keys));
	m->live = malloc(((size_t) t->nodes + 1) * sizeof(*m->live));
	if (!m->keys || !m->live || mesh__boxsum_init(&m->box, t)) {
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

/* MC search on a mesh without wraparound, shell by shell for all live
 * centres at once: shell s of every centre in an x-row costs two
 * lookups after one pass over the row.  A centre leaves the sweep when
 * it has k nodes (its cost is final) or when its cost so far plus
 * (s + 1) per missing node reaches the bound, exactly mesh__mc_cost's
 * test; the bound tightens as centres finish, in any order, so ties go
 * to the lower centre explicitly. */
static void sweep_search(const struct mesh__mc *m,
			 const struct mesh_bitmap *free_map, const int ext[3],
			 uint32_t k, uint32_t from, int here,
			 struct mesh__mc_best *best)
{
	const struct mesh_topo *t = m->topo;
	struct sweep_best sb = { best, here };
	struct mesh__mc_live *L = m->live;
	uint32_t n = 0, i, j, kept, cnt, use, X = (uint32_t) t->dim[0], x, y, z;
	struct sweep_rows R;
	int mid[3];
	/* MC1x1: shell 0 is the free centre itself, so start at shell 1
	 * (k > 1; a 1-node job finishes at shell 0). */
	uint32_t one = ext[0] == 1 && ext[1] == 1 && ext[2] == 1 && k > 1;
	uint64_t floor = cost_floor(t, ext, k);
	int s, rmax = t->dim[0], xlo, xhi;

	rmax = t->dim[1] > rmax ? t->dim[1] : rmax;
	rmax = t->dim[2] > rmax ? t->dim[2] : rmax;
	/* Coordinates by counting, not dividing. */
	for (i = 0, z = 0; z < (uint32_t) t->dim[2]; z++)
		for (y = 0; y < (uint32_t) t->dim[1]; y++)
			for (x = 0; x < X; x++, i++) {
				/* written always, kept if free: no branch */
				L[n].node = i;
				L[n].x = x;
				L[n].y = y;
				L[n].z = z;
				L[n].taken = L[n].inside = one;
				L[n].cost = 0;
				n += i >= from && mesh_bitmap_test(free_map, i);
			}
	/* Centres near the middle see whole shells, so a few of them, scored
	 * in full, give a bound close to the best: most centres then leave
	 * the sweep a shell or two earlier. */
	mid[0] = t->dim[0] / 2, mid[1] = t->dim[1] / 2, mid[2] = t->dim[2] / 2;
	for (i = 0; i < n && L[i].node < mesh_topo_index(t, mid); i++)
		;
	for (j = i; j < n && j < i + 16; j++) {
		int c[3] = { (int) L[j].x, (int) L[j].y, (int) L[j].z }, rad;
		uint64_t cost = mesh__mc_cost(
		    m, c, ext, k, sweep_bound(&sb, L[j].node), &rad);

		sweep_offer(&sb, ext, L[j].node, cost, rad);
	}
	for (s = (int) one; n && s <= rmax; s++) {
		for (i = 0, kept = 0; i < n; i = j) {
			sweep_row(m, ext, s, (int) L[i].y, (int) L[i].z, &R);
			for (j = i;
			     j < n && L[j].y == L[i].y && L[j].z == L[i].z;
			     j++) {
				struct mesh__mc_live e = L[j];
				uint64_t bound;

				xlo = (int) e.x - ext[0] / 2 - s;
				xhi = xlo + ext[0] + 2 * s;
				xlo = xlo < 0 ? 0 : xlo;
				xhi = xhi > (int) X ? (int) X : xhi;
				cnt = rows_at(&R, xhi) - rows_at(&R, xlo);
				use = cnt - e.inside;
				use = use > k - e.taken ? k - e.taken : use;
				e.taken += use;
				e.inside = cnt;
				e.cost += (uint64_t) s * use;
				if (e.taken == k) {
					sweep_offer(&sb, ext, e.node, e.cost,
						    s);
					continue;
				}
				/* Every cost is at least the floor. */
				bound = sweep_bound(&sb, e.node);
				if (bound <= floor ||
				    e.cost + (uint64_t) (k - e.taken) *
						 (uint64_t) (s + 1) >=
					bound)
					continue;
				L[kept++] = e;
			}
		}
		n = kept;
	}
}

void mesh__mc_search(const struct mesh__mc *m,
		     const struct mesh_bitmap *free_map, const int ext[3],
		     uint32_t k, struct mesh__mc_best *best)
{
	const struct mesh_topo *t = m->topo;
	uint64_t cost, floor = cost_floor(t, ext, k), before = best->cost;
	uint32_t i, seen = 0;
	int c[3], r, mesh = !t->wrap[0] && !t->wrap[1] && !t->wrap[2];

	/* Centre by centre, lowest first; once a centre reaches the floor no
	 * later one can beat it.  On a mesh, after the first few centres
	 * have set a bound, the rest go to the shell-by-shell sweep. */
	for (i = 0; i < t->nodes && best->cost > floor; i++) {
		if (!mesh_bitmap_test(free_map, i))
			continue;
		if (mesh && ++seen > 32) {
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

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;

	return (x > y) - (x < y);
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

uint32_t mesh__mc_gather(struct mesh__mc *m, const struct mesh_bitmap *free_map,
			 const struct mesh__mc_best *best, uint32_t k,
			 mesh__mc_key key, const void *ctx, uint32_t *out)
{
	const struct mesh_topo *t = m->topo;
	int c[3], lo0[3], hi0[3], lo[3], hi[3], f[3], n[3], q[3], i[3], d, s;
	uint32_t cnt = 0, j, node;

	mesh_topo_coords(t, best->centre, c);
	shell_box(c, best->ext, 0, lo0, hi0);
	shell_box(c, best->ext, best->radius, lo, hi);
	for (d = 0; d < 3; d++)
		axis_span(t, d, lo[d], hi[d], &f[d], &n[d]);
	for (i[2] = 0; i[2] < n[2]; i[2]++)
		for (i[1] = 0; i[1] < n[1]; i[1]++)
			for (i[0] = 0; i[0] < n[0]; i[0]++) {
				for (d = 0, s = 0; d < 3; d++) {
					int x;

					q[d] = (f[d] + i[d]) % t->dim[d];
					x = mesh__interval_distance(
					    t, d, q[d], lo0[d], hi0[d]);
					s = x > s ? x : s;
				}
				node = mesh_topo_index(t, q);
				if (!mesh_bitmap_test(free_map, node))
					continue;
				m->keys[cnt++] =
				    (uint64_t) s << 42 |
				    key(ctx, t, q, c, s, lo0, hi0) << 22 | node;
			}
	qsort(m->keys, cnt, sizeof(*m->keys), cmp_u64);
	for (j = 0; j < k; j++)
		out[j] = (uint32_t) (m->keys[j] & ((1u << 22) - 1));
	return cnt;
}

/* ---- greedy fill (mc1x1's outermost shell) ---- */

void mesh__greedy_free(struct mesh__greedy *g)
{
	free(g->sum);
	free(g->cand);
	free(g->xyz);
	free(g->hist);
	free(g->wsum);
	memset(g, 0, sizeof(*g));
}

int mesh__greedy_init(struct mesh__greedy *g, const struct mesh_topo *t)
{
	size_t n = t->nodes;

	g->sum = malloc(n * sizeof(*g->sum));
	g->cand = malloc(n * sizeof(*g->cand));
	g->xyz = malloc(3 * n * sizeof(*g->xyz));
	g->hist =
	    calloc((size_t) t->dim[0] + (size_t) t->dim[1] + (size_t) t->dim[2],
		   sizeof(*g->hist));
	g->wsum = malloc(
	    ((size_t) t->dim[0] + (size_t) t->dim[1] + (size_t) t->dim[2]) *
	    sizeof(*g->wsum));
	if (!g->sum || !g->cand || !g->xyz || !g->hist || !g->wsum) {
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

/* wsum[off_d + v]: total distance on axis d from coordinate v to the
 * chosen nodes, from the per-axis coordinate histograms. */
static void axis_sums(struct mesh__greedy *g, const struct mesh_topo *t)
{
	int d, v, u, off = 0;

	for (d = 0; d < 3; off += t->dim[d], d++)
		for (v = 0; v < t->dim[d]; v++) {
			g->wsum[off + v] = 0;
			for (u = 0; u < t->dim[d]; u++)
				g->wsum[off + v] +=
				    (uint64_t) g->hist[off + u] *
				    axis_gap(v, u, t->dim[d], t->wrap[d]);
		}
}

/* Add the chosen node's distance to every candidate not yet taken, and
 * return the next pick: the least total, ties to the earlier. */
static uint32_t add_and_pick(struct mesh__greedy *g, const struct mesh_topo *t,
			     uint32_t n, uint32_t chosen)
{
	const int *x = g->xyz, *b = g->xyz + 3 * (size_t) chosen;
	uint32_t c, best = UINT32_MAX;
	uint64_t least = UINT64_MAX;

	for (c = 0; c < n; c++, x += 3) {
		if (g->sum[c] == UINT64_MAX)
			continue;
		g->sum[c] += axis_gap(x[0], b[0], t->dim[0], t->wrap[0]) +
			     axis_gap(x[1], b[1], t->dim[1], t->wrap[1]) +
			     axis_gap(x[2], b[2], t->dim[2], t->wrap[2]);
		if (g->sum[c] < least) {
			least = g->sum[c];
			best = c;
		}
	}
	return best;
}

void mesh__greedy_fill(struct mesh__greedy *g, const struct mesh_topo *t,
		       uint32_t n, uint32_t *out, uint32_t inner, uint32_t m)
{
	uint32_t i, j, c, best = UINT32_MAX;
	uint64_t least = UINT64_MAX;
	int q[3], *x, o1 = t->dim[0], o2 = t->dim[0] + t->dim[1];

	for (i = 0; i < inner; i++) {
		mesh_topo_coords(t, out[i], q);
		g->hist[q[0]]++;
		g->hist[o1 + q[1]]++;
		g->hist[o2 + q[2]]++;
	}
	axis_sums(g, t);
	for (c = 0; c < n; c++) {
		x = g->xyz + 3 * (size_t) c;
		mesh_topo_coords(t, g->cand[c], x);
		g->sum[c] =
		    g->wsum[x[0]] + g->wsum[o1 + x[1]] + g->wsum[o2 + x[2]];
		if (g->sum[c] < least) {
			least = g->sum[c];
			best = c;
		}
	}
	for (i = 0; i < inner; i++) {
		mesh_topo_coords(t, out[i], q);
		g->hist[q[0]] = g->hist[o1 + q[1]] = g->hist[o2 + q[2]] = 0;
	}
	for (j = 0; j < m; j++) {
		out[inner + j] = g->cand[best];
		g->sum[best] = UINT64_MAX; /* taken */
		if (j + 1 < m)
			best = add_and_pick(g, t, n, best);
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
};

static uint64_t mc_key(const void *ctx, const struct mesh_topo *t,
		       const int q[3], const int c[3], int s, const int lo[3],
		       const int hi[3]);

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
	uint32_t cnt =
	    mesh__mc_gather(&p->mc, free_map, best, k, mc_key, p, out);

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
	if (mesh__mc_init(&p->mc, a->topo)) {
		mesh__greedy_free(&p->greedy_fill);
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

/* Shorter sides first, then longer sides, then edges and corners. */
static uint64_t mc_key(const void *ctx, const struct mesh_topo *t,
		       const int q[3], const int c[3], int s, const int lo[3],
		       const int hi[3])
{
	/* a face's area is clipped by the whole mesh, also on a crop */
	const int *dim = ((const struct mc_priv *) ctx)->gdim;
	int d, e, axis = -1, nout = 0, rank = 0, l1 = 0;
	uint64_t area[3];

	for (d = 0; d < 3; d++) {
		l1 += mesh_topo_axis_distance(t, d, q[d], c[d]);
		if (s && mesh__interval_distance(t, d, q[d], lo[d], hi[d]) == s)
			nout++, axis = d;
	}
	if (nout == 1) {
		for (d = 0; d < 3; d++) {
			area[d] = 1;
			for (e = 0; e < 3; e++) {
				int len = hi[e] - lo[e] + 1 + 2 * s;

				if (e != d)
					area[d] *=
					    (uint64_t) (len < dim[e] ? len
								     : dim[e]);
			}
		}
		for (d = 0; d < 3; d++)
			rank += area[d] < area[axis] ||
				(area[d] == area[axis] && d < axis);
	} else if (nout > 1) {
		rank = 1 + nout;
	}
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

/* mc_shell.c - the shells of one MC centre: how many free nodes each
 * holds, what the centre costs, and the nodes of its cluster.
 *
 * HOW IT WORKS: shell s around centre c is shell 0's box grown by s on
 * every side (mesh__mc_shell_box()); its free nodes are one lookup in the
 * summed-volume table of the free map (boxsum.c), built once per
 * decision, and on a torus the sum of the at most eight boxes that its
 * wrapped intervals split into (mesh__box_count()).  A centre's cost
 * adds s for every node taken from shell s, shells in order until k are
 * taken, and stops as soon as the nodes still missing, each costing at
 * least the next shell number, would reach the bound (Mache, Fig. 31,
 * with an early exit).  The cluster is gathered from the box of the
 * last shell: every free node gets a key (shell, the caller's in-shell
 * order, node index), and one radix sort orders them.
 */
#include "mc.h"

#include <stdlib.h>
#include <string.h>

#include "error.h"

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

void mesh__mc_shell_box(const int c[3], const int ext[3], int s, int lo[3],
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

	mesh__mc_shell_box(c, ext, s, lo, hi);
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
 * already ascending in its low `from` bits wherever the bits above agree:
 * 8-bit digits, least significant first (each pass is stable), each
 * starting at the next bit in which some keys differ, so bits in which
 * all agree cost no pass. */
static void sort_u64(uint64_t *a, uint32_t n, uint64_t *tmp, uint32_t from)
{
	uint32_t cnt[256], i, sh, pos, c;
	uint64_t *src = a, *dst = tmp, *x, diff = 0;

	for (i = 1; i < n; i++)
		diff |= a[i] ^ a[0];
	for (sh = from; sh < 64 && diff >> sh; sh += 8) {
		sh += (uint32_t) __builtin_ctzll(diff >> sh);
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
	mesh__mc_shell_box(c, best->ext, 0, lo0, hi0);
	mesh__mc_shell_box(c, best->ext, best->radius, lo, hi);
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
	/* the nodes came in ascending order: their 22 bits need no pass */
	sort_u64(m->keys, cnt, m->tmp, 22);
	for (j = 0; j < k; j++)
		out[j] = (uint32_t) (m->keys[j] & ((1u << 22) - 1));
	return cnt;
}

/* traffic.c - flow counts of one job's phase on the network's resources
 * (traffic.h).
 *
 * HOW IT WORKS: counts go into a dense array over all resources whose
 * touched slots are gathered into the phase's sparse list.  Complete
 * bipartite traffic from a sender set A to a receiver set B (all-to-all
 * is A = B = the job; I/O is A = the job, B = the I/O nodes) is counted
 * ring by ring instead of route by route: a dimension-ordered route from
 * p to q runs along axis a on the ring whose coordinates before a are
 * q's and after a are p's, so the pairs on one ring factor into (senders
 * of A on the ring after a) x (receivers of B before a), and difference
 * arrays give all of the ring's link counts in O(L^2 + L), whatever |A|
 * and |B|.  Other patterns are few routes, walked hop by hop.
 */
#include "traffic.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

struct mesh_traffic {
	const struct mesh_topo *t;
	double *dense;
	uint8_t *mark;
	uint32_t *touched;
	size_t n_touched;
	uint32_t *ha, *hb; /* per-ring histograms, nodes each */
	double *diff;      /* 2 * (longest axis + 1) */
};

size_t mesh_res_count(const struct mesh_topo *t)
{
	return (size_t) t->nodes * 8 + t->n_io + 1;
}

int mesh_traffic_create(const struct mesh_topo *t, struct mesh_traffic **out)
{
	struct mesh_traffic *tr = calloc(1, sizeof(*tr));
	size_t r = mesh_res_count(t);
	int d, maxdim = 1;

	if (!tr)
		return MESH_ENOMEM;
	for (d = 0; d < MESH_MAX_DIMS; d++)
		maxdim = t->dim[d] > maxdim ? t->dim[d] : maxdim;
	tr->t = t;
	tr->dense = calloc(r, sizeof(*tr->dense));
	tr->mark = calloc(r, 1);
	tr->touched = malloc(r * sizeof(*tr->touched));
	tr->ha = calloc(t->nodes, sizeof(*tr->ha));
	tr->hb = calloc(t->nodes, sizeof(*tr->hb));
	tr->diff = calloc(2 * ((size_t) maxdim + 1), sizeof(*tr->diff));
	if (!tr->dense || !tr->mark || !tr->touched || !tr->ha || !tr->hb ||
	    !tr->diff) {
		mesh_traffic_destroy(tr);
		return MESH_ENOMEM;
	}
	*out = tr;
	return 0;
}

void mesh_traffic_destroy(struct mesh_traffic *tr)
{
	if (!tr)
		return;
	free(tr->dense);
	free(tr->mark);
	free(tr->touched);
	free(tr->ha);
	free(tr->hb);
	free(tr->diff);
	free(tr);
}

void mesh_flows_free(struct mesh_flows *f)
{
	if (!f)
		return;
	free(f->res);
	free(f->count);
	f->res = NULL;
	f->count = NULL;
	f->n = 0;
}

static void add(struct mesh_traffic *tr, uint32_t res, double w)
{
	if (!tr->mark[res]) {
		tr->mark[res] = 1;
		tr->touched[tr->n_touched++] = res;
	}
	tr->dense[res] += w;
}

static void clear(struct mesh_traffic *tr)
{
	size_t i;

	for (i = 0; i < tr->n_touched; i++) {
		tr->dense[tr->touched[i]] = 0;
		tr->mark[tr->touched[i]] = 0;
	}
	tr->n_touched = 0;
}

/* The touched counts into out (sparse); the scratch is cleared. */
static int gather(struct mesh_traffic *tr, struct mesh_flows *out)
{
	size_t i, n = tr->n_touched;

	out->res = malloc((n ? n : 1) * sizeof(*out->res));
	out->count = malloc((n ? n : 1) * sizeof(*out->count));
	if (!out->res || !out->count) {
		mesh_flows_free(out);
		clear(tr);
		return MESH_ENOMEM;
	}
	for (i = 0; i < n; i++) {
		out->res[i] = tr->touched[i];
		out->count[i] = tr->dense[tr->touched[i]];
	}
	out->n = n;
	clear(tr);
	return 0;
}

int mesh_route_dir(const struct mesh_topo *t, int d, int a, int b)
{
	int len = t->dim[d], f;

	if (a == b)
		return 0;
	if (!t->wrap[d])
		return b > a ? 1 : -1;
	f = ((b - a) % len + len) % len;
	return f <= len - f ? 1 : -1;
}

/* One flow src -> dst between compute nodes: its links, the sender's
 * injection and the receiver's ejection. */
static void flow(struct mesh_traffic *tr, uint32_t src, uint32_t dst)
{
	const struct mesh_topo *t = tr->t;
	int p[3], q[3], d, s;

	if (src == dst)
		return;
	mesh_topo_coords(t, src, p);
	mesh_topo_coords(t, dst, q);
	for (d = 0; d < 3; d++)
		while ((s = mesh_route_dir(t, d, p[d], q[d])) != 0) {
			add(tr,
			    mesh_topo_index(t, p) * 6 + (uint32_t) d * 2 +
				(s < 0),
			    1.0);
			p[d] = (p[d] + s + t->dim[d]) % t->dim[d];
		}
	add(tr, mesh_res_inject(t, src), 1.0);
	add(tr, mesh_res_eject(t, dst), 1.0);
}

/* Key of coordinates c on the axes in [lo, hi), row-major. */
static uint32_t axes_key(const struct mesh_topo *t, const int c[3], int lo,
			 int hi)
{
	uint32_t k = 0;
	int d;

	for (d = hi - 1; d >= lo; d--)
		k = k * (uint32_t) t->dim[d] + (uint32_t) c[d];
	return k;
}

static void key_coords(const struct mesh_topo *t, uint32_t key, int lo, int hi,
		       int c[3])
{
	int d;

	for (d = lo; d < hi; d++) {
		c[d] = (int) (key % (uint32_t) t->dim[d]);
		key /= (uint32_t) t->dim[d];
	}
}

/* Range [from, to) of ring positions gets w in diff (length L + 1). */
static void diff_range(double *diff, int from, int to, double w)
{
	diff[from] += w;
	diff[to] -= w;
}

/* Link counts of one ring: senders ha[0..L), receivers hb[0..L). */
static void ring_loads(struct mesh_traffic *tr, int a, int c[3],
		       const uint32_t *ha, const uint32_t *hb)
{
	const struct mesh_topo *t = tr->t;
	int L = t->dim[a], x, y;
	double *plus = tr->diff, *minus = tr->diff + L + 1, accp = 0, accm = 0;

	memset(tr->diff, 0, 2 * ((size_t) L + 1) * sizeof(double));
	for (x = 0; x < L; x++) {
		if (!ha[x])
			continue;
		for (y = 0; y < L; y++) {
			double w = (double) ha[x] * hb[y];
			int s = hb[y] ? mesh_route_dir(t, a, x, y) : 0;

			if (s > 0 && x < y) {
				diff_range(plus, x, y, w);
			} else if (s > 0) { /* wraps past L - 1 */
				diff_range(plus, x, L, w);
				diff_range(plus, 0, y, w);
			} else if (s < 0 && y < x) {
				diff_range(minus, y + 1, x + 1, w);
			} else if (s < 0) {
				diff_range(minus, 0, x + 1, w);
				diff_range(minus, y + 1, L, w);
			}
		}
	}
	for (x = 0; x < L; x++) {
		uint32_t slot;

		accp += plus[x];
		accm += minus[x];
		c[a] = x;
		slot = mesh_topo_index(t, c) * 6 + (uint32_t) a * 2;
		if (accp > 0.5)
			add(tr, slot, accp);
		if (accm > 0.5)
			add(tr, slot + 1, accm);
	}
}

/* The rings of axis a that have both senders and receivers. */
static void axis_rings(struct mesh_traffic *tr, int a, uint32_t nka,
		       uint32_t nkb)
{
	const struct mesh_topo *t = tr->t;
	int L = t->dim[a], x, any_a, any_b, c[3] = { 0, 0, 0 };
	uint32_t ka, kb;

	for (kb = 0; kb < nkb; kb++) {
		const uint32_t *hb = tr->hb + (size_t) kb * L;

		for (x = 0, any_b = 0; x < L; x++)
			any_b |= hb[x] != 0;
		if (!any_b)
			continue;
		for (ka = 0; ka < nka; ka++) {
			const uint32_t *ha = tr->ha + (size_t) ka * L;

			for (x = 0, any_a = 0; x < L; x++)
				any_a |= ha[x] != 0;
			if (!any_a)
				continue;
			key_coords(t, kb, 0, a, c);
			key_coords(t, ka, a + 1, 3, c);
			ring_loads(tr, a, c, ha, hb);
		}
	}
}

/* Link counts of the complete bipartite routes A -> B (a pair with
 * p == q uses no link). */
static void bipartite(struct mesh_traffic *tr, const uint32_t *A, size_t na,
		      const uint32_t *B, size_t nb)
{
	const struct mesh_topo *t = tr->t;
	int a, d, c[3];
	size_t i;

	for (a = 0; a < 3; a++) {
		int L = t->dim[a];
		uint32_t nka = 1, nkb = 1;

		if (L == 1)
			continue;
		for (d = 0; d < 3; d++)
			if (d > a)
				nka *= (uint32_t) t->dim[d];
			else if (d < a)
				nkb *= (uint32_t) t->dim[d];
		memset(tr->ha, 0, (size_t) nka * L * sizeof(uint32_t));
		memset(tr->hb, 0, (size_t) nkb * L * sizeof(uint32_t));
		for (i = 0; i < na; i++) {
			mesh_topo_coords(t, A[i], c);
			tr->ha[axes_key(t, c, a + 1, 3) * L + c[a]]++;
		}
		for (i = 0; i < nb; i++) {
			mesh_topo_coords(t, B[i], c);
			tr->hb[axes_key(t, c, 0, a) * L + c[a]]++;
		}
		axis_rings(tr, a, nka, nkb);
	}
}

/* Most cubic factorisation of k into n factors, largest first. */
static void near_cubic(size_t k, int n, int g[MESH_MAX_DIMS])
{
	size_t f, best;

	g[0] = g[1] = g[2] = 1;
	if (n >= 3) {
		for (f = 1, best = 1; f * f * f <= k; f++)
			if (k % f == 0)
				best = f;
		g[2] = (int) best;
		k /= best;
	}
	if (n >= 2) {
		for (f = 1, best = 1; f * f <= k; f++)
			if (k % f == 0)
				best = f;
		g[1] = (int) best;
		k /= best;
	}
	g[0] = (int) k;
	if (n >= 3 && g[1] < g[2]) {
		f = (size_t) g[1];
		g[1] = g[2];
		g[2] = (int) f;
	}
}

int mesh_pattern_grid(const struct mesh_topo *t, const struct mesh_pattern *p,
		      size_t k, int grid[MESH_MAX_DIMS])
{
	size_t prod = 1;
	int d, given = 0;

	if (!k)
		return MESH_EINVAL;
	for (d = 0; d < MESH_MAX_DIMS; d++) {
		given |= p && p->shape[d] > 0;
		prod *= p && p->shape[d] > 0 ? (size_t) p->shape[d] : 1;
	}
	if (given && prod == k) {
		for (d = 0; d < MESH_MAX_DIMS; d++)
			grid[d] = p->shape[d] > 0 ? p->shape[d] : 1;
		return 0;
	}
	near_cubic(k, t->ndims, grid);
	return 0;
}

/* The stencil: rank r at row-major position r of the grid, to each
 * neighbour along each axis (no wraparound on the logical grid). */
static int stencil(struct mesh_traffic *tr, const uint32_t *nodes, size_t k,
		   const struct mesh_pattern *p)
{
	int g[MESH_MAX_DIMS], d;
	size_t r, stride;

	if (mesh_pattern_grid(tr->t, p, k, g))
		return MESH_EINVAL;
	for (r = 0; r < k; r++)
		for (d = 0, stride = 1; d < MESH_MAX_DIMS;
		     stride *= (size_t) g[d], d++) {
			size_t pos = (r / stride) % (size_t) g[d];

			if (pos > 0)
				flow(tr, nodes[r], nodes[r - stride]);
			if (pos + 1 < (size_t) g[d])
				flow(tr, nodes[r], nodes[r + stride]);
		}
	return 0;
}

static void all_to_all(struct mesh_traffic *tr, const uint32_t *nodes, size_t k)
{
	const struct mesh_topo *t = tr->t;
	size_t i;

	bipartite(tr, nodes, k, nodes, k);
	for (i = 0; i < k; i++) {
		add(tr, mesh_res_inject(t, nodes[i]), (double) (k - 1));
		add(tr, mesh_res_eject(t, nodes[i]), (double) (k - 1));
	}
}

static int pattern_flows(struct mesh_traffic *tr, const uint32_t *nodes,
			 size_t k, const struct mesh_pattern *p)
{
	size_t i;

	switch (p->comm) {
	case MESH_COMM_ALL_TO_ALL:
		all_to_all(tr, nodes, k);
		return 0;
	case MESH_COMM_ONE_TO_ALL:
		for (i = 1; i < k; i++)
			flow(tr, nodes[0], nodes[i]);
		return 0;
	case MESH_COMM_CHAIN:
		for (i = 0; i + 1 < k; i++) {
			flow(tr, nodes[i], nodes[i + 1]);
			flow(tr, nodes[i + 1], nodes[i]);
		}
		return 0;
	case MESH_COMM_NEAREST:
		return stencil(tr, nodes, k, p);
	case MESH_COMM_PAIRS:
		for (i = 0; i < p->n_pairs; i++)
			if (p->pairs[2 * i] >= k || p->pairs[2 * i + 1] >= k)
				return MESH_EINVAL;
		for (i = 0; i < p->n_pairs; i++)
			flow(tr, nodes[p->pairs[2 * i]],
			     nodes[p->pairs[2 * i + 1]]);
		return 0;
	case MESH_COMM_UNKNOWN:
	case MESH_COMM_NONE:
		return 0;
	}
	return MESH_EINVAL;
}

static int check_nodes(const struct mesh_topo *t, const uint32_t *nodes,
		       size_t k)
{
	size_t i;

	for (i = 0; i < k; i++)
		if (nodes[i] >= t->nodes)
			return MESH_EINVAL;
	return 0;
}

int mesh_traffic_comm(struct mesh_traffic *tr, const uint32_t *nodes, size_t k,
		      const struct mesh_pattern *p, struct mesh_flows *out)
{
	int rc;

	memset(out, 0, sizeof(*out));
	if (check_nodes(tr->t, nodes, k) || (int) p->comm < 0 ||
	    p->comm > MESH_COMM_LAST)
		return MESH_EINVAL;
	rc = k >= 2 ? pattern_flows(tr, nodes, k, p) : 0;
	if (rc) {
		clear(tr);
		return rc;
	}
	return gather(tr, out);
}

int mesh_traffic_io(struct mesh_traffic *tr, const uint32_t *nodes, size_t k,
		    enum mesh_io_route route, struct mesh_flows *out)
{
	const struct mesh_topo *t = tr->t;
	size_t i, j, m = t->n_io;

	memset(out, 0, sizeof(*out));
	if (check_nodes(t, nodes, k))
		return MESH_EINVAL;
	if (route == MESH_IO_DIRECT) {
		for (i = 0; i < k; i++)
			add(tr, mesh_res_inject(t, nodes[i]), 1.0);
		add(tr, mesh_res_fs(t), (double) k);
		return gather(tr, out);
	}
	if (!m)
		return 0;
	bipartite(tr, nodes, k, t->io_nodes, m);
	for (i = 0; i < k; i++)
		for (j = 0; j < m; j++)
			if (nodes[i] != t->io_nodes[j]) /* else local */
				add(tr, mesh_res_inject(t, nodes[i]), 1.0);
	for (j = 0; j < m; j++)
		add(tr, mesh_res_ion(t, j), (double) k);
	add(tr, mesh_res_fs(t), (double) (k * m));
	return gather(tr, out);
}

int mesh_traffic_io_pairs(struct mesh_traffic *tr, const uint32_t *nodes,
			  size_t k, struct mesh_flows *out)
{
	memset(out, 0, sizeof(*out));
	if (check_nodes(tr->t, nodes, k))
		return MESH_EINVAL;
	if (tr->t->n_io)
		bipartite(tr, nodes, k, tr->t->io_nodes, tr->t->n_io);
	return gather(tr, out);
}

/* contention.c - link loads of job traffic and the stretch they cause.
 *
 * HOW IT WORKS: complete bipartite traffic from a sender set A to a
 * receiver set B (all-to-all is A = B = the job, I/O is A = the job and
 * B = the I/O nodes) is counted ring by ring instead of route by route.
 * A dimension-ordered route from p to q runs along axis a on the ring
 * whose coordinates before a are q's and after a are p's.  So the pairs
 * on one ring factor into (senders of A matching the ring after a) x
 * (receivers of B matching it before a), and one ring costs O(L^2 + L)
 * with difference arrays over its L positions, whatever |A| and |B|.
 * Nearest-neighbour chains and one-to-all are few routes, walked hop by
 * hop.  Loads go into a dense scratch array whose touched slots are then
 * gathered into the job's sparse link list.
 */
#include "contention.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

struct mesh_net {
	const struct mesh_topo *t;
	double *total;    /* weighted load of all running jobs, per slot */
	double *io_total; /* unweighted I/O load of all running jobs */
	double *d_comm;   /* scratch: one job's loads, per slot */
	double *d_io;
	uint8_t *mark; /* scratch: slot touched */
	uint32_t *touched;
	size_t n_touched;
	uint32_t *ha, *hb; /* scratch: per-ring histograms, nodes each */
	double *diff;      /* scratch: 2 * (maxdim + 1) */
	double *comm_ref[MESH_COMM_NEAREST + 1]; /* cache by job size */
};

static size_t n_slots(const struct mesh_topo *t)
{
	return (size_t) t->nodes * 6;
}

int mesh_net_create(const struct mesh_topo *t, struct mesh_net **out)
{
	struct mesh_net *n;
	size_t s = n_slots(t);
	int c, maxdim = 1;

	for (c = 0; c < MESH_MAX_DIMS; c++)
		maxdim = t->dim[c] > maxdim ? t->dim[c] : maxdim;
	n = calloc(1, sizeof(*n));
	if (!n)
		return MESH_ENOMEM;
	n->t = t;
	n->total = calloc(s, sizeof(double));
	n->io_total = calloc(s, sizeof(double));
	n->d_comm = calloc(s, sizeof(double));
	n->d_io = calloc(s, sizeof(double));
	n->mark = calloc(s, 1);
	n->touched = malloc(s * sizeof(uint32_t));
	n->ha = calloc(t->nodes, sizeof(uint32_t));
	n->hb = calloc(t->nodes, sizeof(uint32_t));
	n->diff = calloc(2 * ((size_t) maxdim + 1), sizeof(double));
	for (c = 0; c <= MESH_COMM_NEAREST; c++)
		n->comm_ref[c] = calloc((size_t) t->nodes + 1, sizeof(double));
	for (c = 0; c <= MESH_COMM_NEAREST; c++)
		if (!n->comm_ref[c])
			break;
	if (c <= MESH_COMM_NEAREST || !n->total || !n->io_total || !n->d_comm ||
	    !n->d_io || !n->mark || !n->touched || !n->ha || !n->hb ||
	    !n->diff) {
		mesh_net_destroy(n);
		return MESH_ENOMEM;
	}
	*out = n;
	return 0;
}

void mesh_net_destroy(struct mesh_net *n)
{
	int c;

	if (!n)
		return;
	for (c = 0; c <= MESH_COMM_NEAREST; c++)
		free(n->comm_ref[c]);
	free(n->total);
	free(n->io_total);
	free(n->d_comm);
	free(n->d_io);
	free(n->mark);
	free(n->touched);
	free(n->ha);
	free(n->hb);
	free(n->diff);
	free(n);
}

static void add_load(struct mesh_net *n, double *dense, size_t slot, double w)
{
	if (!n->mark[slot]) {
		n->mark[slot] = 1;
		n->touched[n->n_touched++] = (uint32_t) slot;
	}
	dense[slot] += w;
}

/* Direction (+1, -1 or 0) the router takes on axis d from a to b; on a
 * ring the shorter way, + on a tie (as ioload.c routes). */
static int route_dir(const struct mesh_topo *t, int d, int a, int b)
{
	int len = t->dim[d], f;

	if (a == b)
		return 0;
	if (!t->wrap[d])
		return b > a ? 1 : -1;
	f = ((b - a) % len + len) % len;
	return f <= len - f ? 1 : -1;
}

static void walk_route(struct mesh_net *n, double *dense, uint32_t src,
		       uint32_t dst)
{
	const struct mesh_topo *t = n->t;
	int p[3], q[3], d, s;

	mesh_topo_coords(t, src, p);
	mesh_topo_coords(t, dst, q);
	for (d = 0; d < 3; d++)
		while ((s = route_dir(t, d, p[d], q[d])) != 0) {
			add_load(n, dense,
				 (size_t) mesh_topo_index(t, p) * 6 +
				     (size_t) d * 2 + (s < 0),
				 1.0);
			p[d] = (p[d] + s + t->dim[d]) % t->dim[d];
		}
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

/* Loads of one ring: senders ha[0..L), receivers hb[0..L). */
static void ring_loads(struct mesh_net *n, double *dense, int a, int c[3],
		       const uint32_t *ha, const uint32_t *hb)
{
	const struct mesh_topo *t = n->t;
	int L = t->dim[a], x, y;
	double *plus = n->diff, *minus = n->diff + L + 1, accp = 0, accm = 0;

	memset(n->diff, 0, 2 * ((size_t) L + 1) * sizeof(double));
	for (x = 0; x < L; x++) {
		if (!ha[x])
			continue;
		for (y = 0; y < L; y++) {
			double w = (double) ha[x] * hb[y];
			int s = hb[y] ? route_dir(t, a, x, y) : 0;

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
		size_t slot;

		accp += plus[x];
		accm += minus[x];
		c[a] = x;
		slot = (size_t) mesh_topo_index(t, c) * 6 + (size_t) a * 2;
		if (accp > 0.5)
			add_load(n, dense, slot, accp);
		if (accm > 0.5)
			add_load(n, dense, slot + 1, accm);
	}
}

/* Complete bipartite routes A -> B (pairs with p == q use no link). */
static void bipartite(struct mesh_net *n, double *dense, const uint32_t *A,
		      size_t na, const uint32_t *B, size_t nb)
{
	const struct mesh_topo *t = n->t;
	int a, c[3];
	size_t i;

	for (a = 0; a < 3; a++) {
		int L = t->dim[a];
		uint32_t nka = 1, nkb = 1, ka, kb;

		if (L == 1)
			continue;
		for (i = 0; i < 3; i++)
			if ((int) i > a)
				nka *= (uint32_t) t->dim[i];
			else if ((int) i < a)
				nkb *= (uint32_t) t->dim[i];
		memset(n->ha, 0, (size_t) nka * L * sizeof(uint32_t));
		memset(n->hb, 0, (size_t) nkb * L * sizeof(uint32_t));
		for (i = 0; i < na; i++) {
			mesh_topo_coords(t, A[i], c);
			n->ha[axes_key(t, c, a + 1, 3) * L + c[a]]++;
		}
		for (i = 0; i < nb; i++) {
			mesh_topo_coords(t, B[i], c);
			n->hb[axes_key(t, c, 0, a) * L + c[a]]++;
		}
		for (kb = 0; kb < nkb; kb++)
			for (ka = 0; ka < nka; ka++) {
				const uint32_t *ha = n->ha + (size_t) ka * L;
				const uint32_t *hb = n->hb + (size_t) kb * L;
				int x, any_a = 0, any_b = 0;

				for (x = 0; x < L; x++) {
					any_a |= ha[x] != 0;
					any_b |= hb[x] != 0;
				}
				if (!any_a || !any_b)
					continue;
				key_coords(t, kb, 0, a, c);
				key_coords(t, ka, a + 1, 3, c);
				ring_loads(n, dense, a, c, ha, hb);
			}
	}
}

static void pattern_loads(struct mesh_net *n, double *dense,
			  const uint32_t *nodes, size_t k, enum mesh_comm comm)
{
	size_t i;

	switch (comm) {
	case MESH_COMM_ALL_TO_ALL:
		bipartite(n, dense, nodes, k, nodes, k);
		break;
	case MESH_COMM_ONE_TO_ALL:
		for (i = 1; i < k; i++)
			walk_route(n, dense, nodes[0], nodes[i]);
		break;
	case MESH_COMM_NEAREST:
		for (i = 0; i + 1 < k; i++) {
			walk_route(n, dense, nodes[i], nodes[i + 1]);
			walk_route(n, dense, nodes[i + 1], nodes[i]);
		}
		break;
	case MESH_COMM_UNKNOWN:
	case MESH_COMM_NONE:
		break;
	}
}

static double dense_max(struct mesh_net *n, const double *dense)
{
	double mx = 0;
	size_t i;

	for (i = 0; i < n->n_touched; i++)
		mx = dense[n->touched[i]] > mx ? dense[n->touched[i]] : mx;
	return mx;
}

static void dense_clear(struct mesh_net *n)
{
	size_t i;

	for (i = 0; i < n->n_touched; i++) {
		n->d_comm[n->touched[i]] = 0;
		n->d_io[n->touched[i]] = 0;
		n->mark[n->touched[i]] = 0;
	}
	n->n_touched = 0;
}

/* The k first nodes of a near-cubic box at the origin, in snake order:
 * the compact placement that a job's pattern is measured against. */
static size_t compact_box(const struct mesh_topo *t, size_t k, uint32_t *out)
{
	int b[3] = { 1, 1, 1 }, d, x, y, z, c[3];
	size_t got = 0;

	while ((size_t) b[0] * b[1] * b[2] < k) {
		int best = -1;

		for (d = 0; d < 3; d++)
			if (b[d] < t->dim[d] && (best < 0 || b[d] < b[best]))
				best = d;
		if (best < 0)
			break;
		b[best]++;
	}
	for (z = 0; z < b[2] && got < k; z++)
		for (y = 0; y < b[1] && got < k; y++)
			for (x = 0; x < b[0] && got < k; x++) {
				int row = y + z * b[1];

				c[0] = row % 2 ? b[0] - 1 - x : x;
				c[1] = z % 2 ? b[1] - 1 - y : y;
				c[2] = z;
				out[got++] = mesh_topo_index(t, c);
			}
	return got;
}

static int comm_reference(struct mesh_net *n, size_t k, enum mesh_comm comm,
			  double *ref)
{
	double *cache = n->comm_ref[comm];
	uint32_t *box;

	if (comm == MESH_COMM_UNKNOWN || comm == MESH_COMM_NONE || k < 2) {
		*ref = 1;
		return 0;
	}
	if (cache[k] == 0) {
		box = malloc(k * sizeof(*box));
		if (!box)
			return MESH_ENOMEM;
		k = compact_box(n->t, k, box);
		pattern_loads(n, n->d_comm, box, k, comm);
		cache[k] = dense_max(n, n->d_comm);
		if (cache[k] < 1)
			cache[k] = 1;
		dense_clear(n);
		free(box);
	}
	*ref = cache[k];
	return 0;
}

/* Mache, Ch. VI, Thm. 1 (I/O nodes in a column, XY routing): no layout
 * of n writers gets below m*n/4, and a writer sends all m of its pairs
 * down its first link, so max(m*n/4, m). */
static double io_reference(const struct mesh_topo *t, size_t k)
{
	double m = (double) t->n_io, r = m * (double) k / 4;

	r = r > m ? r : m;
	return r > 1 ? r : 1;
}

static int gather(struct mesh_net *n, struct mesh_job_traffic *out)
{
	size_t i, nl = n->n_touched;

	out->link = malloc((nl ? nl : 1) * sizeof(*out->link));
	out->comm = malloc((nl ? nl : 1) * sizeof(*out->comm));
	out->io = malloc((nl ? nl : 1) * sizeof(*out->io));
	if (!out->link || !out->comm || !out->io) {
		mesh_job_traffic_free(out);
		dense_clear(n);
		return MESH_ENOMEM;
	}
	for (i = 0; i < nl; i++) {
		uint32_t s = n->touched[i];

		out->link[i] = s;
		out->comm[i] = n->d_comm[s];
		out->io[i] = n->d_io[s];
	}
	out->n_links = nl;
	dense_clear(n);
	return 0;
}

int mesh_net_traffic(struct mesh_net *n, const uint32_t *nodes, size_t k,
		     enum mesh_comm comm, double comm_share, double io_share,
		     struct mesh_job_traffic *out)
{
	const struct mesh_topo *t = n->t;
	size_t i;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!(comm_share >= 0 && io_share >= 0 && comm_share + io_share <= 1) ||
	    (int) comm < 0 || comm > MESH_COMM_NEAREST)
		return MESH_EINVAL;
	for (i = 0; i < k; i++)
		if (nodes[i] >= t->nodes)
			return MESH_EINVAL;
	rc = comm_reference(n, k, comm, &out->comm_ref);
	if (rc)
		return rc;
	out->io_ref = io_reference(t, k);
	out->comm_share = comm_share;
	out->io_share = io_share;
	if (comm_share > 0)
		pattern_loads(n, n->d_comm, nodes, k, comm);
	if (t->n_io) /* also for the I/O metrics when io_share is 0 */
		bipartite(n, n->d_io, nodes, k, t->io_nodes, t->n_io);
	return gather(n, out);
}

void mesh_job_traffic_free(struct mesh_job_traffic *tr)
{
	if (!tr)
		return;
	free(tr->link);
	free(tr->comm);
	free(tr->io);
	tr->link = NULL;
	tr->comm = tr->io = NULL;
	tr->n_links = 0;
}

static double weighted(const struct mesh_job_traffic *tr, size_t i)
{
	return tr->comm_share * tr->comm[i] + tr->io_share * tr->io[i];
}

void mesh_net_add(struct mesh_net *n, const struct mesh_job_traffic *tr,
		  int sign)
{
	size_t i;

	for (i = 0; i < tr->n_links; i++) {
		double *v = &n->total[tr->link[i]];

		*v += sign * weighted(tr, i);
		if (*v < 1e-9) /* rounding left by removals */
			*v = 0;
		n->io_total[tr->link[i]] += sign * tr->io[i]; /* integers */
	}
}

double mesh_net_io_max_contention(const struct mesh_net *n)
{
	size_t i, s = n_slots(n->t);
	double mx = 0;

	for (i = 0; i < s; i++)
		mx = n->io_total[i] > mx ? n->io_total[i] : mx;
	return mx;
}

double mesh_net_stretch(const struct mesh_net *n,
			const struct mesh_job_traffic *tr, double *s_comm,
			double *s_io)
{
	double bc = 0, bi = 0, sc, si;
	size_t i;

	for (i = 0; i < tr->n_links; i++) {
		/* In a phase the job's own traffic of that kind is all there;
		 * the rest of the network is there at its weights. */
		double others = n->total[tr->link[i]] - weighted(tr, i);

		others = others > 0 ? others : 0;
		if (tr->comm[i] > 0 && tr->comm[i] + others > bc)
			bc = tr->comm[i] + others;
		if (tr->io[i] > 0 && tr->io[i] + others > bi)
			bi = tr->io[i] + others;
	}
	sc = fmax(1.0, bc / tr->comm_ref);
	si = fmax(1.0, bi / tr->io_ref);
	if (s_comm)
		*s_comm = sc;
	if (s_io)
		*s_io = si;
	return (1 - tr->comm_share - tr->io_share) + tr->comm_share * sc +
	       tr->io_share * si;
}

double mesh_job_traffic_max(const struct mesh_job_traffic *tr, int kind_io)
{
	double mx = 0;
	size_t i;

	for (i = 0; i < tr->n_links; i++) {
		double v = kind_io ? tr->io[i] : tr->comm[i];

		mx = v > mx ? v : mx;
	}
	return mx;
}

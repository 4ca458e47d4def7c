/* contention.c - capacities, demands and slowdowns (contention.h).
 *
 * HOW IT WORKS: the network keeps, per resource, the demand of all
 * running jobs in GB/s (each job's flow counts times its alone rate,
 * weighted by its phase shares) and the capacity.  A job's slowdown in a
 * phase reads only the resources of its own load list: O(its resources).
 * The best rate ref of a phase is the largest alone rate over a fixed
 * set of candidate placements (best_rate()), cached per pattern, size
 * and logical grid: boxes of the few most compact shapes that hold the
 * job, plus the lines along each axis, filled row by row or as a snake;
 * at one central position for communication (which only its own nodes
 * see), at up to three positions per axis for I/O (whose routes depend
 * on where the I/O nodes are).  A placement better than every candidate
 * runs at slowdown 1, never below.
 */
#include "contention.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

#define REF_SHAPES 8    /* most compact box shapes tried */
#define REF_CACHE 1024u /* slots of the best-rate cache (a power of 2) */

struct ref_entry {
	int used;
	int kind; /* enum mesh_comm, or -1 for I/O */
	size_t k;
	int grid[MESH_MAX_DIMS];
	double rate;
};

struct mesh_net {
	const struct mesh_topo *t;
	struct mesh_net_params p;
	unsigned parts;
	const struct mesh_bitmap *usable;
	struct mesh_traffic *tr;
	double *cap;      /* per resource, GB/s (INFINITY: unlimited) */
	double *demand;   /* per resource, GB/s, all running jobs */
	double *io_pairs; /* per link, Mache's I/O pairs of running jobs */
	uint32_t *cand;   /* a candidate placement */
	struct ref_entry cache[REF_CACHE];
	double *merge_comm, *merge_io; /* dense scratch for mesh_net_job() */
	uint8_t *merge_mark;
	uint32_t *merge_list;
};

void mesh_net_params_init(struct mesh_net_params *p)
{
	p->link_bw = 12.5;
	p->node_bw = 12.5;
	p->ion_bw = 12.5 / 6;
	p->fs_bw = 48;
}

static int bad_bw(double v)
{
	return isnan(v) || v <= 0;
}

static void set_caps(struct mesh_net *n)
{
	const struct mesh_topo *t = n->t;
	int net = (n->parts & MESH_NET_NETWORK) != 0;
	size_t r, links = (size_t) t->nodes * 6;

	for (r = 0; r < links; r++)
		n->cap[r] = net ? n->p.link_bw : INFINITY;
	for (r = links; r < (size_t) t->nodes * 8; r++)
		n->cap[r] = n->p.node_bw;
	for (r = 0; r < t->n_io; r++)
		n->cap[mesh_res_ion(t, r)] = net ? n->p.ion_bw : INFINITY;
	n->cap[mesh_res_fs(t)] = n->parts & MESH_NET_FS ? n->p.fs_bw : INFINITY;
}

int mesh_net_create(const struct mesh_topo *t, const struct mesh_net_params *p,
		    unsigned parts, const struct mesh_bitmap *usable,
		    struct mesh_net **out)
{
	struct mesh_net *n;
	size_t r = mesh_res_count(t);

	if (bad_bw(p->link_bw) || bad_bw(p->node_bw) || bad_bw(p->ion_bw) ||
	    bad_bw(p->fs_bw) || (usable && usable->nbits != t->nodes))
		return MESH_EINVAL;
	n = calloc(1, sizeof(*n));
	if (!n)
		return MESH_ENOMEM;
	n->t = t;
	n->p = *p;
	n->parts = parts;
	n->usable = usable;
	n->cap = malloc(r * sizeof(*n->cap));
	n->demand = calloc(r, sizeof(*n->demand));
	n->io_pairs = calloc((size_t) t->nodes * 6, sizeof(*n->io_pairs));
	n->cand = malloc(t->nodes * sizeof(*n->cand));
	n->merge_comm = calloc(r, sizeof(double));
	n->merge_io = calloc(r, sizeof(double));
	n->merge_mark = calloc(r, 1);
	n->merge_list = malloc(r * sizeof(uint32_t));
	if (!n->cap || !n->demand || !n->io_pairs || !n->cand ||
	    !n->merge_comm || !n->merge_io || !n->merge_mark ||
	    !n->merge_list || mesh_traffic_create(t, &n->tr)) {
		mesh_net_destroy(n);
		return MESH_ENOMEM;
	}
	set_caps(n);
	*out = n;
	return 0;
}

void mesh_net_destroy(struct mesh_net *n)
{
	if (!n)
		return;
	mesh_traffic_destroy(n->tr);
	free(n->cap);
	free(n->demand);
	free(n->io_pairs);
	free(n->cand);
	free(n->merge_comm);
	free(n->merge_io);
	free(n->merge_mark);
	free(n->merge_list);
	free(n);
}

/* Per-flow rate of flows f alone: min over r of capacity / count. */
static double alone_rate(const struct mesh_net *n, const struct mesh_flows *f)
{
	double x = INFINITY;
	size_t i;

	for (i = 0; i < f->n; i++)
		if (f->count[i] > 0 && n->cap[f->res[i]] / f->count[i] < x)
			x = n->cap[f->res[i]] / f->count[i];
	return x;
}

static enum mesh_io_route io_route(const struct mesh_net *n)
{
	return (n->parts & MESH_NET_NETWORK) && n->t->n_io ? MESH_IO_VIA_IONS
							   : MESH_IO_DIRECT;
}

/* Alone rate of the phase (comm kind >= 0, I/O for -1) on nodes. */
static int phase_rate(struct mesh_net *n, const uint32_t *nodes, size_t k,
		      const struct mesh_pattern *p, int kind, double *x)
{
	struct mesh_flows f;
	int rc = kind < 0 ? mesh_traffic_io(n->tr, nodes, k, io_route(n), &f)
			  : mesh_traffic_comm(n->tr, nodes, k, p, &f);

	if (rc)
		return rc;
	*x = alone_rate(n, &f);
	mesh_flows_free(&f);
	return 0;
}

/* The k first cells of box b at origin o, row by row (snake: every
 * other row reversed), into n->cand; 0 if a cell is not usable. */
static int fill_box(struct mesh_net *n, const int b[3], const int o[3],
		    size_t k, int snake)
{
	const struct mesh_topo *t = n->t;
	int x, y, z, c[3];
	size_t got = 0;

	for (z = 0; z < b[2] && got < k; z++)
		for (y = 0; y < b[1] && got < k; y++)
			for (x = 0; x < b[0] && got < k; x++) {
				int row = y + z * b[1];

				c[0] = o[0] +
				       (snake && row % 2 ? b[0] - 1 - x : x);
				c[1] = o[1] + y;
				c[2] = o[2] + z;
				n->cand[got] = mesh_topo_index(t, c);
				if (n->usable &&
				    !mesh_bitmap_test(n->usable, n->cand[got]))
					return 0;
				got++;
			}
	return got == k;
}

/* Box shapes that hold k cells: the REF_SHAPES of least surface (each
 * the shortest along x for its y, z extents), then a line along each
 * axis; returns their number. */
static size_t box_shapes(const struct mesh_topo *t, size_t k, int shapes[][3])
{
	size_t ns = 0, i, j;
	long area[REF_SHAPES + 1];
	int b1, b2, d;

	for (b2 = 1; b2 <= t->dim[2]; b2++)
		for (b1 = 1; b1 <= t->dim[1]; b1++) {
			size_t cells = (size_t) b1 * (size_t) b2;
			long b0 = (long) ((k + cells - 1) / cells), a;

			if (b0 > t->dim[0] ||
			    (b1 > 1 && b0 * (b1 - 1) * b2 >= (long) k))
				continue;
			a = b0 * b1 + (long) b1 * b2 + b0 * b2;
			for (i = ns; i > 0 && area[i - 1] > a; i--)
				if (i < REF_SHAPES) {
					area[i] = area[i - 1];
					memcpy(shapes[i], shapes[i - 1],
					       sizeof(shapes[i]));
				}
			if (i < REF_SHAPES) {
				area[i] = a;
				shapes[i][0] = (int) b0;
				shapes[i][1] = b1;
				shapes[i][2] = b2;
				ns += ns < REF_SHAPES;
			}
		}
	for (d = 0; d < 3; d++)
		if ((size_t) t->dim[d] >= k && (k > 1 || d == 0)) {
			for (j = 0; j < 3; j++)
				shapes[ns][j] = j == (size_t) d ? (int) k : 1;
			ns++;
		}
	return ns;
}

/* Positions of a box of extent b along an axis of length L: the centre
 * alone, or (all) also both ends. */
static int positions(int L, int b, int all, int out[3])
{
	int n = 0;

	out[n++] = (L - b) / 2;
	if (all && L - b > 0)
		out[n++] = 0;
	if (all && L - b > 0 && L - b != (L - b) / 2)
		out[n++] = L - b;
	return n;
}

/* The best alone rate over the candidates (see HOW IT WORKS). */
static int best_rate(struct mesh_net *n, size_t k, const struct mesh_pattern *p,
		     int kind, double *best)
{
	int shapes[REF_SHAPES + 3][3], px[3], py[3], pz[3], o[3];
	int nx, ny, nz, ix, iy, iz, snake, rc;
	size_t ns = box_shapes(n->t, k, shapes), s;
	double x;

	*best = 0;
	for (s = 0; s < ns; s++) {
		nx = positions(n->t->dim[0], shapes[s][0], kind < 0, px);
		ny = positions(n->t->dim[1], shapes[s][1], kind < 0, py);
		nz = positions(n->t->dim[2], shapes[s][2], kind < 0, pz);
		for (ix = 0; ix < nx; ix++)
			for (iy = 0; iy < ny; iy++)
				for (iz = 0; iz < nz; iz++)
					for (snake = 0; snake < 2; snake++) {
						o[0] = px[ix];
						o[1] = py[iy];
						o[2] = pz[iz];
						if (!fill_box(n, shapes[s], o,
							      k, snake))
							continue;
						rc = phase_rate(n, n->cand, k,
								p, kind, &x);
						if (rc)
							return rc;
						*best = x > *best ? x : *best;
					}
	}
	return 0;
}

/* The cached best rate of a phase; pair lists are not cached. */
static int ref_rate(struct mesh_net *n, size_t k, const struct mesh_pattern *p,
		    int kind, double *rate)
{
	struct ref_entry key;
	uint64_t h;
	size_t i, slot;
	int rc;

	memset(&key, 0, sizeof(key));
	key.kind = kind;
	key.k = k;
	if (kind == MESH_COMM_NEAREST &&
	    mesh_pattern_grid(n->t, p, k, key.grid))
		return MESH_EINVAL;
	if (kind == MESH_COMM_PAIRS)
		return best_rate(n, k, p, kind, rate);
	h = (uint64_t) (kind + 2) * 0x9E3779B97F4A7C15ull ^ k ^
	    ((uint64_t) key.grid[0] << 20) ^ ((uint64_t) key.grid[1] << 36) ^
	    ((uint64_t) key.grid[2] << 48);
	for (i = 0; i < REF_CACHE; i++) {
		struct ref_entry *e = &n->cache[(h + i) & (REF_CACHE - 1)];

		if (!e->used)
			break;
		if (e->kind == kind && e->k == k &&
		    !memcmp(e->grid, key.grid, sizeof(key.grid))) {
			*rate = e->rate;
			return 0;
		}
	}
	rc = best_rate(n, k, p, kind, rate);
	if (rc || i == REF_CACHE)
		return rc; /* a full cache only costs time */
	slot = (h + i) & (REF_CACHE - 1);
	key.used = 1;
	key.rate = *rate;
	n->cache[slot] = key;
	return 0;
}

/* Merge the two phases' flows into l's one resource list. */
static int merge(struct mesh_net *n, const struct mesh_flows *c,
		 const struct mesh_flows *io, struct mesh_job_load *l)
{
	size_t i, m = 0;

	for (i = 0; i < c->n + io->n; i++) {
		int is_io = i >= c->n;
		uint32_t r = is_io ? io->res[i - c->n] : c->res[i];
		double v = is_io ? io->count[i - c->n] : c->count[i];

		if (!n->merge_mark[r]) {
			n->merge_mark[r] = 1;
			n->merge_list[m++] = r;
		}
		(is_io ? n->merge_io : n->merge_comm)[r] += v;
	}
	l->res = malloc((m ? m : 1) * sizeof(*l->res));
	l->comm = malloc((m ? m : 1) * sizeof(*l->comm));
	l->io = malloc((m ? m : 1) * sizeof(*l->io));
	for (i = 0; i < m; i++) {
		uint32_t r = n->merge_list[i];

		if (l->res && l->comm && l->io) {
			l->res[i] = r;
			l->comm[i] = n->merge_comm[r];
			l->io[i] = n->merge_io[r];
		}
		n->merge_comm[r] = n->merge_io[r] = 0;
		n->merge_mark[r] = 0;
	}
	l->n = m;
	return l->res && l->comm && l->io ? 0 : MESH_ENOMEM;
}

int mesh_net_job(struct mesh_net *n, const uint32_t *nodes, size_t k,
		 const struct mesh_pattern *p, struct mesh_job_load *out)
{
	struct mesh_flows c = { 0, NULL, NULL }, io = { 0, NULL, NULL };
	size_t i;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (n->parts & MESH_NET_NETWORK) /* else communication is free */
		rc = mesh_traffic_comm(n->tr, nodes, k, p, &c);
	if (!rc && n->parts)
		rc = mesh_traffic_io(n->tr, nodes, k, io_route(n), &io);
	if (!rc)
		rc = merge(n, &c, &io, out);
	if (!rc && n->t->n_io)
		rc = mesh_traffic_io_pairs(n->tr, nodes, k, &out->io_pairs);
	out->comm_x0 = alone_rate(n, &c);
	out->io_x0 = alone_rate(n, &io);
	for (i = 0; i < io.n; i++) /* every I/O flow reaches the FS */
		if (io.res[i] == mesh_res_fs(n->t))
			out->io_flows = io.count[i];
	if (!rc && c.n)
		rc = ref_rate(n, k, p, (int) p->comm, &out->comm_ref);
	if (!rc && io.n)
		rc = ref_rate(n, k, p, -1, &out->io_ref);
	/* a placement better than every candidate (or the only one that
	 * fits) is the best one */
	out->comm_ref = fmax(out->comm_ref, out->comm_x0);
	out->io_ref = fmax(out->io_ref, out->io_x0);
	mesh_flows_free(&c);
	mesh_flows_free(&io);
	if (rc)
		mesh_job_load_free(out);
	return rc;
}

void mesh_job_load_free(struct mesh_job_load *l)
{
	if (!l)
		return;
	free(l->res);
	free(l->comm);
	free(l->io);
	mesh_flows_free(&l->io_pairs);
	memset(l, 0, sizeof(*l));
}

/* The job's demand on its i-th resource at weights wc, wi. */
static double own_demand(const struct mesh_job_load *l, size_t i, double wc,
			 double wi)
{
	double d = 0;

	if (wc > 0 && l->comm[i] > 0)
		d += wc * l->comm[i] * l->comm_x0;
	if (wi > 0 && l->io[i] > 0)
		d += wi * l->io[i] * l->io_x0;
	return d;
}

void mesh_net_weigh(struct mesh_net *n, struct mesh_job_load *l, double w_comm,
		    double w_io)
{
	int was_in = l->w_comm > 0 || l->w_io > 0;
	int now_in = w_comm > 0 || w_io > 0;
	size_t i;

	for (i = 0; i < l->n; i++) {
		double *v = &n->demand[l->res[i]];

		*v += own_demand(l, i, w_comm, w_io) -
		      own_demand(l, i, l->w_comm, l->w_io);
		if (*v < 1e-12) /* rounding left by removals */
			*v = 0;
	}
	for (i = 0; was_in != now_in && i < l->io_pairs.n; i++)
		n->io_pairs[l->io_pairs.res[i]] +=
		    (now_in ? 1 : -1) * l->io_pairs.count[i];
	l->w_comm = w_comm;
	l->w_io = w_io;
}

double mesh_net_slowdown(const struct mesh_net *n,
			 const struct mesh_job_load *l, int io)
{
	const double *count = io ? l->io : l->comm;
	double x0 = io ? l->io_x0 : l->comm_x0;
	double ref = io ? l->io_ref : l->comm_ref, f = 1;
	size_t i;

	if (!(x0 < INFINITY) || !(x0 > 0))
		return 1;
	for (i = 0; i < l->n; i++) {
		double others, cap = n->cap[l->res[i]], mine, share;

		if (count[i] <= 0 || !(cap < INFINITY))
			continue;
		/* the others: all demand but this job's own at its weights */
		others =
		    n->demand[l->res[i]] - own_demand(l, i, l->w_comm, l->w_io);
		if (!(others > 0))
			continue; /* alone, x0 already fits: no rounding */
		mine = count[i] * x0;
		share = cap / (mine + others);
		f = share < f ? share : f;
	}
	return fmax(1.0, ref / (x0 * f));
}

double mesh_net_io_rate(const struct mesh_job_load *l)
{
	return l->io_x0 < INFINITY ? l->io_flows * l->io_x0 : 0;
}

double mesh_net_io_max_contention(const struct mesh_net *n)
{
	size_t i, s = (size_t) n->t->nodes * 6;
	double mx = 0;

	for (i = 0; i < s; i++)
		mx = n->io_pairs[i] > mx ? n->io_pairs[i] : mx;
	return mx;
}

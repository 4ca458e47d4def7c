/* check_contention.c - Mache's static I/O contention results (dissertation
 * Ch. VI): the max_contention formulas of Table 5 for the five spatial
 * layouts, and Theorems 1-2 (best case m*n/4, i.e. network throughput at
 * most 4*B_l), checked on the link loads of ioload.c.
 *
 * The configuration is the dissertation's: a k x k compute mesh with m = k
 * I/O nodes in a column on its west side (here: column x = 0 of a
 * (k+1) x k mesh), XY routing, and n = k compute nodes (Table 5 has
 * k = n = m).  Figure 39's layouts are drawn from the hotspot analysis of
 * Fig. 42: orthogonal is a row, parallel a column, diagonal a staircase,
 * block corner a sqrt(n) x sqrt(n) block in a corner next to the I/O
 * column, and block center the same block centred vertically.
 */
#include "testutil.h"

enum layout { DIAGONAL, PARALLEL, BLOCK_CENTER, BLOCK_CORNER, ORTHOGONAL };

static struct mesh_topo *io_west_mesh(int k)
{
	char spec[32];
	struct mesh_topo *t;
	uint32_t io[64];
	int y;

	snprintf(spec, sizeof(spec), "%dx%d", k + 1, k);
	t = tu_topo(spec);
	for (y = 0; y < k; y++)
		io[y] = tu_node(t, 0, y, 0);
	ck_assert_int_eq(mesh_topo_set_io_nodes(t, io, (size_t) k), 0);
	return t;
}

static int isqrt(int n)
{
	int r = 0;

	while ((r + 1) * (r + 1) <= n)
		r++;
	return r;
}

/* n = k nodes of the layout; n must be a perfect square for blocks. */
static void layout_nodes(const struct mesh_topo *t, enum layout l, int k,
			 uint32_t *out)
{
	int s = isqrt(k), i, top = (k - s) / 2;

	for (i = 0; i < k; i++) {
		switch (l) {
		case DIAGONAL:
			out[i] = tu_node(t, 1 + i, i, 0);
			break;
		case PARALLEL:
			out[i] = tu_node(t, 1 + k / 2, i, 0);
			break;
		case ORTHOGONAL:
			out[i] = tu_node(t, 1 + i, k / 2, 0);
			break;
		case BLOCK_CORNER:
			out[i] = tu_node(t, 1 + i % s, i / s, 0);
			break;
		case BLOCK_CENTER:
			out[i] =
			    tu_node(t, 1 + (k - s) / 2 + i % s, top + i / s, 0);
			break;
		}
	}
}

static uint64_t max_contention(const struct mesh_topo *t, const uint32_t *nodes,
			       size_t n, enum mesh_io_dir dir)
{
	uint64_t *loads = malloc(mesh_io_link_count(t) * sizeof(*loads));
	uint64_t mx = 0;
	size_t i;

	ck_assert_ptr_nonnull(loads);
	ck_assert_int_eq(mesh_io_link_loads(t, nodes, n, dir, loads), 0);
	for (i = 0; i < mesh_io_link_count(t); i++)
		mx = loads[i] > mx ? loads[i] : mx;
	free(loads);
	return mx;
}

/* Table 5, k = n = m.  Write: diagonal and parallel n^2/4, block center
 * n(n - sqrt n)/2, block corner n(n - sqrt n), orthogonal n^2.  Read:
 * diagonal and orthogonal n, parallel n^2/4, block center
 * sqrt n (n - sqrt n)/2, block corner sqrt n (n - sqrt n). */
static uint64_t table5(enum layout l, enum mesh_io_dir dir, uint64_t n)
{
	uint64_t r = (uint64_t) isqrt((int) n);

	if (dir == MESH_IO_WRITE) {
		switch (l) {
		case DIAGONAL:
		case PARALLEL:
			return n * n / 4;
		case BLOCK_CENTER:
			return n * (n - r) / 2;
		case BLOCK_CORNER:
			return n * (n - r);
		case ORTHOGONAL:
			return n * n;
		}
	}
	switch (l) {
	case DIAGONAL:
	case ORTHOGONAL:
		return n;
	case PARALLEL:
		return n * n / 4;
	case BLOCK_CENTER:
		return r * (n - r) / 2;
	case BLOCK_CORNER:
		return r * (n - r);
	}
	return 0;
}

static const char *const layout_name[] = { "diagonal", "parallel",
					   "block center", "block corner",
					   "orthogonal" };

/* Sizes: even perfect squares from 16.  At k = 4 the block-center write
 * hotspot is not the one Fig. 42 marks: the row link into the I/O column
 * carries sqrt(n) * m = 8 pairs, more than n(n - sqrt n)/2 = 4; the
 * formula holds from n = 9, where 3 sqrt(n) <= n. */
START_TEST(test_table5_formulas)
{
	static const int sizes[] = { 16, 36, 64 };
	int l = _i, si, dir;

	for (si = 0; si < 3; si++) {
		int k = sizes[si];
		struct mesh_topo *t = io_west_mesh(k);
		uint32_t nodes[64];

		layout_nodes(t, (enum layout) l, k, nodes);
		for (dir = MESH_IO_WRITE; dir <= MESH_IO_READ; dir++) {
			uint64_t got = max_contention(t, nodes, (size_t) k,
						      (enum mesh_io_dir) dir);
			uint64_t want =
			    table5((enum layout) l, (enum mesh_io_dir) dir,
				   (uint64_t) k);

			ck_assert_msg(got == want,
				      "%s %s k=%d: max_contention %llu, "
				      "Table 5 gives %llu",
				      layout_name[l],
				      dir == MESH_IO_WRITE ? "write" : "read",
				      k, (unsigned long long) got,
				      (unsigned long long) want);
		}
		mesh_topo_destroy(t);
	}
}
END_TEST

/* Table 5's write ranking, best to worst: diagonal = parallel < block
 * center < block corner < orthogonal (k = 16). */
START_TEST(test_table5_write_ranking)
{
	struct mesh_topo *t = io_west_mesh(16);
	uint32_t nodes[16];
	uint64_t mc[5];
	int l;

	for (l = DIAGONAL; l <= ORTHOGONAL; l++) {
		layout_nodes(t, (enum layout) l, 16, nodes);
		mc[l] = max_contention(t, nodes, 16, MESH_IO_WRITE);
	}
	ck_assert_uint_eq(mc[DIAGONAL], mc[PARALLEL]);
	ck_assert_uint_lt(mc[PARALLEL], mc[BLOCK_CENTER]);
	ck_assert_uint_lt(mc[BLOCK_CENTER], mc[BLOCK_CORNER]);
	ck_assert_uint_lt(mc[BLOCK_CORNER], mc[ORTHOGONAL]);
	mesh_topo_destroy(t);
}
END_TEST

/* Theorems 1-2 (write traffic, I/O nodes in a column): for every layout
 * max_contention lies in [m*n/4, m*n], so B_NET = m*n*B_l /
 * max_contention lies in [B_l, 4*B_l].  Random layouts of random sizes on
 * k = 16 (m = 16, even); the best case is reached by the diagonal layout
 * above.  Read traffic keeps the upper bound only: its routes leave the
 * I/O column at once, so the middle I/O link carries none of it (Table 5:
 * diagonal read is n < n^2/4). */
START_TEST(test_theorem1_bounds_random_layouts)
{
	struct mesh_topo *t = io_west_mesh(16);
	uint32_t nodes[256];
	uint64_t s = 2024, m = 16;
	int trial;

	for (trial = 0; trial < 400; trial++) {
		size_t n = 1 + tu_rand(&s) % 120, i, j;
		int dir = (int) (tu_rand(&s) % 2);
		uint64_t mc;
		int write = dir == MESH_IO_WRITE;
		double bnet;

		for (i = 0; i < n; i++) {
			do {
				nodes[i] =
				    tu_node(t, 1 + (int) (tu_rand(&s) % 16),
					    (int) (tu_rand(&s) % 16), 0);
				for (j = 0; j < i && nodes[j] != nodes[i]; j++)
					;
			} while (j < i);
		}
		mc = max_contention(t, nodes, n, (enum mesh_io_dir) dir);
		ck_assert_uint_le(mc, m * n);
		bnet = (double) (m * n) / (double) mc; /* in units of B_l */
		ck_assert(bnet >= 1.0);
		if (write) {
			ck_assert_uint_ge(4 * mc, m * n);
			ck_assert(bnet <= 4.0);
		}
	}
	mesh_topo_destroy(t);
}
END_TEST

START_TEST(test_comm_names_round_trip)
{
	int c;

	for (c = MESH_COMM_NONE; c <= MESH_COMM_CHAIN; c++)
		ck_assert_int_eq(
		    mesh_comm_parse(mesh_comm_name((enum mesh_comm) c)), c);
	ck_assert_str_eq(mesh_comm_name(MESH_COMM_PAIRS), "pairs");
	ck_assert_int_eq(mesh_comm_parse("pairs"), MESH_COMM_UNKNOWN);
	ck_assert_int_eq(mesh_comm_parse("All-to-all"), MESH_COMM_UNKNOWN);
	ck_assert_int_eq(mesh_comm_parse(""), MESH_COMM_UNKNOWN);
	ck_assert_int_eq(mesh_comm_parse(NULL), MESH_COMM_UNKNOWN);
	ck_assert_str_eq(mesh_comm_name((enum mesh_comm) 99), "unknown");
}
END_TEST

/* Dense per-link counts (links only) from sparse flows. */
static void densify(const struct mesh_topo *t, const struct mesh_flows *f,
		    uint64_t *out)
{
	size_t i, nl = mesh_io_link_count(t);

	memset(out, 0, nl * sizeof(*out));
	for (i = 0; i < f->n; i++) {
		ck_assert(f->count[i] == (double) (uint64_t) f->count[i]);
		if (f->res[i] < nl)
			out[f->res[i]] = (uint64_t) f->count[i];
	}
}

/* The count of resource r in f, 0 if absent. */
static double count_of(const struct mesh_flows *f, uint32_t r)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (f->res[i] == r)
			return f->count[i];
	return 0;
}

static void random_nodes(const struct mesh_topo *t, uint64_t *s, size_t k,
			 uint32_t *out)
{
	size_t i, j;

	for (i = 0; i < k; i++)
		do {
			out[i] = (uint32_t) (tu_rand(s) % t->nodes);
			for (j = 0; j < i && out[j] != out[i]; j++)
				;
		} while (j < i);
}

/* The ring-by-ring bipartite count equals route-by-route counting
 * (ioload.c) for I/O write traffic and, with the job's own nodes as the
 * receivers, for all-to-all; meshes and tori, 2D and 3D.  All-to-all
 * injects and ejects k - 1 flows at every node; I/O via the I/O nodes
 * injects m (less one at an I/O node), serves k at each I/O node and
 * brings k m to the file system. */
START_TEST(test_ring_counts_equal_routes)
{
	static const char *const specs[] = { "7x5",     "6tx5t", "4x3x5",
					     "5tx4x3t", "9tx2",  "1x8" };
	uint64_t s = 77;
	int trial;

	for (trial = 0; trial < 120; trial++) {
		struct mesh_topo *t = tu_topo(specs[trial % 6]);
		struct mesh_traffic *tr = NULL;
		struct mesh_pattern p = { MESH_COMM_ALL_TO_ALL, { 0 }, NULL, 0 };
		struct mesh_flows f;
		size_t nl = mesh_io_link_count(t), i, j;
		uint64_t *got = malloc(nl * sizeof(*got));
		uint64_t *want = malloc(nl * sizeof(*want));
		uint32_t io[8], job[40];
		size_t k = 1 + tu_rand(&s) % (t->nodes < 40 ? t->nodes : 40);
		size_t m = 1 + tu_rand(&s) % 8;

		m = m < t->nodes ? m : t->nodes;
		random_nodes(t, &s, m, io);
		ck_assert_int_eq(mesh_topo_set_io_nodes(t, io, m), 0);
		random_nodes(t, &s, k, job);
		ck_assert_int_eq(mesh_traffic_create(t, &tr), 0);
		ck_assert_int_eq(mesh_traffic_io(tr, job, k, MESH_IO_VIA_IONS, &f),
				 0);
		densify(t, &f, got);
		ck_assert_int_eq(
		    mesh_io_link_loads(t, job, k, MESH_IO_WRITE, want), 0);
		ck_assert_mem_eq(got, want, nl * sizeof(*got));
		for (i = 0; i < k; i++) {
			double inj = (double) m;

			for (j = 0; j < t->n_io; j++)
				inj -= t->io_nodes[j] == job[i];
			ck_assert_double_eq(
			    count_of(&f, mesh_res_inject(t, job[i])), inj);
		}
		for (j = 0; j < t->n_io; j++)
			ck_assert_double_eq(count_of(&f, mesh_res_ion(t, j)),
					    (double) k);
		ck_assert_double_eq(count_of(&f, mesh_res_fs(t)),
				    (double) (k * m));
		mesh_flows_free(&f);
		ck_assert_int_eq(mesh_traffic_comm(tr, job, k, &p, &f), 0);
		densify(t, &f, got);
		for (i = 0; k > 1 && i < k; i++)
			ck_assert_double_eq(
			    count_of(&f, mesh_res_inject(t, job[i])),
			    (double) (k - 1));
		mesh_flows_free(&f);
		ck_assert_int_eq(mesh_topo_set_io_nodes(t, job, k), 0);
		ck_assert_int_eq(
		    mesh_io_link_loads(t, job, k, MESH_IO_WRITE, want), 0);
		ck_assert_mem_eq(got, want, nl * sizeof(*got));
		mesh_traffic_destroy(tr);
		free(got);
		free(want);
		mesh_topo_destroy(t);
	}
}
END_TEST

/* The network of these cases: unit capacities (GB/s), unless changed. */
static struct mesh_net *unit_net(const struct mesh_topo *t, double link,
				 double node, double ion, unsigned parts)
{
	struct mesh_net_params p = { link, node, ion, INFINITY };
	struct mesh_net *n = NULL;

	ck_assert_int_eq(mesh_net_create(t, &p, parts, NULL, &n), 0);
	return n;
}

/* The positions that are not I/O nodes (Mache's: I/O nodes compute
 * nothing), for the best placements. */
static struct mesh_bitmap *compute_nodes(const struct mesh_topo *t)
{
	struct mesh_bitmap *b = tu_all_free(t);
	size_t i;

	for (i = 0; i < t->n_io; i++)
		mesh_bitmap_clear(b, t->io_nodes[i]);
	return b;
}

/* The slowdown of a lone job's phase on nodes (rank order). */
static double alone(struct mesh_net *n, const uint32_t *nodes, size_t k,
		    enum mesh_comm comm, int io)
{
	struct mesh_pattern p = { comm, { 0 }, NULL, 0 };
	struct mesh_job_load l;
	double sd;

	ck_assert_int_eq(mesh_net_job(n, nodes, k, &p, &l), 0);
	mesh_net_weigh(n, &l, io ? 0 : 1, io ? 1 : 0);
	sd = mesh_net_slowdown(n, &l, io);
	mesh_net_weigh(n, &l, 0, 0);
	mesh_job_load_free(&l);
	return sd;
}

/* Four ranks on 8x8, alone.
 * Links and nodes at 1 GB/s:
 *   all-to-all on a 2x2 block: 2 flows on a link at most, 3 injected per
 *   node, so x0 = min(1/2, 1/3) = 1/3, the best: slowdown 1.  On a 1x4
 *   row the middle link carries 2 x 2 = 4 flows: x0 = 1/4, slowdown
 *   (1/3) / (1/4) = 4/3.
 *   nearest (the 2x2 logical grid): the block in row-major order maps
 *   each logical edge to a link (1 flow per link), 2 injected per node:
 *   x0 = 1/2, slowdown 1.  The row carries ranks 0 -> 2 and 1 -> 3 over
 *   its middle link: 2 flows, x0 = min(1/2, 1/2), slowdown 1 too: with
 *   links as fast as injection a row is not slower here.
 *   chain: 1 flow per link on the row and the block (in row-major order
 *   the hop 1 -> 2 and the reverse of 0 -> 1 share one link: 2 flows),
 *   2 injected by the inner ranks: slowdown 1 both.
 * Nodes four times as fast as links (4 GB/s): injection no longer
 * binds, so all-to-all is 1/2 on the block and 1/4 on the row
 * (slowdown 2), nearest 1 against 1/2 (slowdown 2), chain 1 on the row
 * and 1/2 on the block in row-major order (slowdown 2: ranks follow the
 * allocator's order, and a chain wants a snake). */
START_TEST(test_block_against_row)
{
	struct mesh_topo *t = tu_topo("8x8");
	struct mesh_net *eq = unit_net(t, 1, 1, 1, MESH_NET_NETWORK);
	struct mesh_net *fast = unit_net(t, 1, 4, 1, MESH_NET_NETWORK);
	uint32_t block[4], row[4];
	int i;

	for (i = 0; i < 4; i++) {
		block[i] = tu_node(t, 3 + i % 2, 3 + i / 2, 0);
		row[i] = tu_node(t, 2 + i, 5, 0);
	}
	ck_assert_double_eq_tol(alone(eq, block, 4, MESH_COMM_ALL_TO_ALL, 0),
				1, 1e-12);
	ck_assert_double_eq_tol(alone(eq, row, 4, MESH_COMM_ALL_TO_ALL, 0),
				4.0 / 3, 1e-12);
	ck_assert_double_eq_tol(alone(eq, block, 4, MESH_COMM_NEAREST, 0), 1,
				1e-12);
	ck_assert_double_eq_tol(alone(eq, row, 4, MESH_COMM_NEAREST, 0), 1,
				1e-12);
	ck_assert_double_eq_tol(alone(eq, row, 4, MESH_COMM_CHAIN, 0), 1,
				1e-12);
	ck_assert_double_eq_tol(alone(eq, block, 4, MESH_COMM_CHAIN, 0), 1,
				1e-12);
	ck_assert_double_eq_tol(alone(fast, block, 4, MESH_COMM_ALL_TO_ALL, 0),
				1, 1e-12);
	ck_assert_double_eq_tol(alone(fast, row, 4, MESH_COMM_ALL_TO_ALL, 0), 2,
				1e-12);
	ck_assert_double_eq_tol(alone(fast, block, 4, MESH_COMM_NEAREST, 0), 1,
				1e-12);
	ck_assert_double_eq_tol(alone(fast, row, 4, MESH_COMM_NEAREST, 0), 2,
				1e-12);
	ck_assert_double_eq_tol(alone(fast, row, 4, MESH_COMM_CHAIN, 0), 1,
				1e-12);
	ck_assert_double_eq_tol(alone(fast, block, 4, MESH_COMM_CHAIN, 0), 2,
				1e-12);
	mesh_net_destroy(eq);
	mesh_net_destroy(fast);
	mesh_topo_destroy(t);
}
END_TEST

/* A lone job in its best placement runs at full speed, and no placement
 * runs faster, for every pattern and size 1..12 on 8x8 and 4x4x3, with
 * links as fast as nodes and slower: over every box that holds the job
 * (filled row by row, or as a snake, from a corner at the mesh's centre)
 * the least slowdown is exactly 1; random placements are never below 1. */
START_TEST(test_alone_best_is_full_speed)
{
	static const enum mesh_comm comms[] = {
		MESH_COMM_ALL_TO_ALL, MESH_COMM_ONE_TO_ALL, MESH_COMM_NEAREST,
		MESH_COMM_CHAIN
	};
	const char *spec = _i ? "4x4x3" : "8x8";
	struct mesh_topo *t = tu_topo(spec);
	struct mesh_net *nets[2] = { unit_net(t, 1, 1, 1, MESH_NET_NETWORK),
				     unit_net(t, 1, 3, 1, MESH_NET_NETWORK) };
	uint32_t nodes[12];
	uint64_t s = 5 + (uint64_t) _i;
	int b[3], c[3], ni, ci, trial, snake;
	size_t k, r;
	double best, sd;

	for (ni = 0; ni < 2; ni++)
		for (ci = 0; ci < 4; ci++)
			for (k = 1; k <= 12; k++) {
				best = INFINITY;
				for (b[2] = 1; b[2] <= t->dim[2]; b[2]++)
				for (b[1] = 1; b[1] <= t->dim[1]; b[1]++)
				for (b[0] = 1; b[0] <= t->dim[0]; b[0]++)
				for (snake = 0; snake < 2; snake++) {
					if ((size_t) (b[0] * b[1] * b[2]) < k)
						continue;
					for (r = 0; r < k; r++) {
						c[0] = (int) (r % (size_t) b[0]);
						c[1] = (int) (r / (size_t) b[0] %
							      (size_t) b[1]);
						c[2] = (int) (r /
							      (size_t) (b[0] * b[1]));
						if (snake && (c[1] + c[2] * b[1]) % 2)
							c[0] = b[0] - 1 - c[0];
						c[0] += (t->dim[0] - b[0]) / 2;
						c[1] += (t->dim[1] - b[1]) / 2;
						c[2] += (t->dim[2] - b[2]) / 2;
						nodes[r] = mesh_topo_index(t, c);
					}
					sd = alone(nets[ni], nodes, k, comms[ci], 0);
					if (sd < 1.0)
						ck_abort_msg("%s %s k=%zu: %g",
							     spec,
							     mesh_comm_name(comms[ci]),
							     k, sd);
					best = sd < best ? sd : best;
				}
				ck_assert_msg(best == 1.0, "%s %s k=%zu: best %g",
					      spec, mesh_comm_name(comms[ci]),
					      k, best);
				for (trial = 0; trial < 10; trial++) {
					random_nodes(t, &s, k, nodes);
					ck_assert(alone(nets[ni], nodes, k,
							comms[ci], 0) >= 1.0);
				}
			}
	mesh_net_destroy(nets[0]);
	mesh_net_destroy(nets[1]);
	mesh_topo_destroy(t);
}
END_TEST

/* Two jobs on one link.  8x1 line, 1 GB/s everywhere.  A: a chain on
 * nodes 0 and 2 (flows 0 -> 2, 2 -> 0 over links 0-1 and 1-2); B: a chain
 * on 1 and 3 (over 1-2 and 2-3).  Alone each runs at x0 = 1 (one flow
 * per link, one injected per node), its best: slowdown 1.  Together,
 * link 1-2 carries both in each direction: demand 1 + 1 = 2 for a
 * capacity of 1, so each gets half: slowdown 2.  With B at weight 0.5
 * (half of its time in communication), A meets 1 + 0.5 on that link:
 * slowdown 1.5; B, in its communication phase, meets all of A's 1:
 * slowdown 2.  A third job elsewhere changes nothing. */
START_TEST(test_two_jobs_share_a_link)
{
	struct mesh_topo *t = tu_topo("8x1");
	struct mesh_net *n = unit_net(t, 1, 1, 1, MESH_NET_NETWORK);
	struct mesh_pattern p = { MESH_COMM_CHAIN, { 0 }, NULL, 0 };
	uint32_t a[2] = { 0, 2 }, b[2] = { 1, 3 }, c[2] = { 5, 7 };
	struct mesh_job_load la, lb, lc;

	ck_assert_int_eq(mesh_net_job(n, a, 2, &p, &la), 0);
	ck_assert_int_eq(mesh_net_job(n, b, 2, &p, &lb), 0);
	ck_assert_int_eq(mesh_net_job(n, c, 2, &p, &lc), 0);
	mesh_net_weigh(n, &la, 1, 0);
	ck_assert_double_eq(mesh_net_slowdown(n, &la, 0), 1);
	mesh_net_weigh(n, &lb, 1, 0);
	mesh_net_weigh(n, &lc, 1, 0);
	ck_assert_double_eq_tol(mesh_net_slowdown(n, &la, 0), 2, 1e-12);
	ck_assert_double_eq_tol(mesh_net_slowdown(n, &lb, 0), 2, 1e-12);
	ck_assert_double_eq(mesh_net_slowdown(n, &lc, 0), 1);
	mesh_net_weigh(n, &lb, 0.5, 0);
	ck_assert_double_eq_tol(mesh_net_slowdown(n, &la, 0), 1.5, 1e-12);
	ck_assert_double_eq_tol(mesh_net_slowdown(n, &lb, 0), 2, 1e-12);
	mesh_net_weigh(n, &lb, 0, 0);
	ck_assert_double_eq(mesh_net_slowdown(n, &la, 0), 1);
	mesh_net_weigh(n, &la, 0, 0);
	mesh_net_weigh(n, &lc, 0, 0);
	mesh_job_load_free(&la);
	mesh_job_load_free(&lb);
	mesh_job_load_free(&lc);
	mesh_net_destroy(n);
	mesh_topo_destroy(t);
}
END_TEST

/* An I/O burst of two jobs through one I/O node.  4x1 line, the I/O
 * node at x = 0; A on node 1, B on node 2 (one node each).  Links and
 * nodes at 1 GB/s.
 *   I/O node at 1 GB/s: alone, A writes over link 1 -> 0 and B over
 *   2 -> 1 -> 0, one flow each: x0 = 1, the best (slowdown 1).  Both in
 *   a checkpoint: link 1 -> 0 and the I/O node each carry a demand of 2
 *   for 1: slowdown 2 each.
 *   I/O node at 0.5 GB/s: alone x0 = 0.5 (the I/O node binds), still
 *   the best; together the I/O node's demand is 0.5 + 0.5 for 0.5, so
 *   each gets half: slowdown 2, while the link (demand 1 for 1) does not
 *   bind.  Out of its checkpoint (weight 0), B slows A by nothing. */
START_TEST(test_io_burst_one_io_node)
{
	struct mesh_topo *t = tu_topo("4x1");
	struct mesh_pattern p = { MESH_COMM_NONE, { 0 }, NULL, 0 };
	uint32_t ion = 0, a = 1, b = 2;
	double ion_bw[2] = { 1, 0.5 };
	int i;

	ck_assert_int_eq(mesh_topo_set_io_nodes(t, &ion, 1), 0);
	for (i = 0; i < 2; i++) {
		struct mesh_net *n =
		    unit_net(t, 1, 1, ion_bw[i], MESH_NET_NETWORK);
		struct mesh_job_load la, lb;

		ck_assert_int_eq(mesh_net_job(n, &a, 1, &p, &la), 0);
		ck_assert_int_eq(mesh_net_job(n, &b, 1, &p, &lb), 0);
		ck_assert_double_eq(la.io_x0, ion_bw[i]);
		ck_assert_double_eq(la.io_ref, ion_bw[i]);
		ck_assert_double_eq(mesh_net_io_rate(&la), ion_bw[i]);
		mesh_net_weigh(n, &la, 0, 1);
		mesh_net_weigh(n, &lb, 0, 0);
		ck_assert_double_eq(mesh_net_slowdown(n, &la, 1), 1);
		mesh_net_weigh(n, &lb, 0, 1);
		ck_assert_double_eq_tol(mesh_net_slowdown(n, &la, 1), 2,
					1e-12);
		ck_assert_double_eq_tol(mesh_net_slowdown(n, &lb, 1), 2,
					1e-12);
		mesh_net_weigh(n, &la, 0, 0);
		mesh_net_weigh(n, &lb, 0, 0);
		mesh_job_load_free(&la);
		mesh_job_load_free(&lb);
		mesh_net_destroy(n);
	}
	mesh_topo_destroy(t);
}
END_TEST

/* Mache's layout (Ch. VI-VII): 16 x 16 compute nodes and the 16 I/O
 * nodes in the column x = 0 of a 17 x 16 mesh, the defaults (links 12.5
 * GB/s, I/O nodes a sixth of that: f = 6).  A lone 4-node job writes 4
 * x 16 flows; each I/O node serves 4 of them: x <= (12.5 / 6) / 4 =
 * 12.5 / 24.  In a column parallel to the I/O nodes (x = 1, rows 6-9),
 * each row's west link into the I/O column carries its sender's 16
 * flows, and the column's link 6 -> 5 all 4 senders' flows to the 6 I/O
 * nodes below: 24, so x <= 12.5 / 24 too: slowdown 1, the best.  A 2 x
 * 2 block (x = 1-2, rows 7-8) sends its row's 2 x 16 = 32 flows over one
 * west link: slowdown 32 / 24 = 4/3.  A 1 x 4 row orthogonal to the
 * column (row 7, x = 1-4): 64 flows on one link: slowdown 64 / 24 =
 * 8/3.  With unlimited I/O nodes (the network alone, as in Mache's Ch.
 * VII simulator) the compact column is still the best placement the
 * model knows (24 flows), so the figures stay.  Theorem 1's optimum,
 * m n / 4 = 16, needs the writers spread (x = 1, rows 3, 4, 11, 12):
 * faster than the reference, it runs at slowdown 1, not below. */
START_TEST(test_mache_17x16_layout)
{
	struct mesh_topo *t = tu_topo("17x16");
	struct mesh_net_params dp;
	uint32_t ions[16], col[4], block[4], row[4];
	static const int spread_rows[4] = { 3, 4, 11, 12 };
	uint32_t spread[4];
	struct mesh_net *def = NULL, *net_only = NULL;
	struct mesh_net_params np;
	struct mesh_bitmap *usable;
	int i;

	for (i = 0; i < 16; i++)
		ions[i] = tu_node(t, 0, i, 0);
	ck_assert_int_eq(mesh_topo_set_io_nodes(t, ions, 16), 0);
	usable = compute_nodes(t);
	for (i = 0; i < 4; i++) {
		col[i] = tu_node(t, 1, 6 + i, 0);
		block[i] = tu_node(t, 1 + i % 2, 7 + i / 2, 0);
		row[i] = tu_node(t, 1 + i, 7, 0);
		spread[i] = tu_node(t, 1, spread_rows[i], 0);
	}
	mesh_net_params_init(&dp);
	ck_assert_double_eq(dp.link_bw, 12.5);
	ck_assert_double_eq(dp.ion_bw, 12.5 / 6);
	ck_assert_int_eq(
	    mesh_net_create(t, &dp, MESH_NET_NETWORK, usable, &def), 0);
	ck_assert_double_eq_tol(alone(def, col, 4, MESH_COMM_NONE, 1), 1,
				1e-12);
	ck_assert_double_eq_tol(alone(def, block, 4, MESH_COMM_NONE, 1),
				4.0 / 3, 1e-12);
	ck_assert_double_eq_tol(alone(def, row, 4, MESH_COMM_NONE, 1),
				8.0 / 3, 1e-12);
	np = dp;
	np.ion_bw = INFINITY;
	ck_assert_int_eq(
	    mesh_net_create(t, &np, MESH_NET_NETWORK, usable, &net_only), 0);
	ck_assert_double_eq_tol(alone(net_only, col, 4, MESH_COMM_NONE, 1), 1,
				1e-12);
	ck_assert_double_eq_tol(alone(net_only, block, 4, MESH_COMM_NONE, 1),
				4.0 / 3, 1e-12);
	ck_assert_double_eq_tol(alone(net_only, row, 4, MESH_COMM_NONE, 1),
				8.0 / 3, 1e-12);
	ck_assert_double_eq(alone(net_only, spread, 4, MESH_COMM_NONE, 1), 1);
	mesh_net_destroy(def);
	mesh_net_destroy(net_only);
	mesh_bitmap_destroy(usable);
	mesh_topo_destroy(t);
}
END_TEST

/* Per-node sides sum to the balance factor of any node set. */
START_TEST(test_balance_sides_sum_to_factor)
{
	static const char *const specs[] = { "9x8", "6tx5", "4x4x3" };
	uint64_t s = 11;
	int trial;

	for (trial = 0; trial < 60; trial++) {
		struct mesh_topo *t = tu_topo(specs[trial % 3]);
		int8_t *side = malloc(t->nodes);
		uint32_t io[6], job[30];
		size_t k = 1 + tu_rand(&s) % 30, i;
		long bf, sum = 0;

		random_nodes(t, &s, 6, io);
		ck_assert_int_eq(mesh_topo_set_io_nodes(t, io, 6), 0);
		random_nodes(t, &s, k, job);
		ck_assert_int_eq(mesh_io_balance_sides(t, side), 0);
		ck_assert_int_eq(mesh_io_balance_factor(t, job, k, &bf, NULL),
				 0);
		for (i = 0; i < k; i++)
			sum += side[job[i]];
		ck_assert_int_eq(sum, bf);
		free(side);
		mesh_topo_destroy(t);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("contention");
	TCase *tc = tcase_create("mache_ch6");
	SRunner *sr;
	int nf;

	tcase_add_loop_test(tc, test_table5_formulas, DIAGONAL, ORTHOGONAL + 1);
	tcase_add_test(tc, test_table5_write_ranking);
	tcase_add_test(tc, test_theorem1_bounds_random_layouts);
	tcase_add_test(tc, test_comm_names_round_trip);
	tcase_add_test(tc, test_ring_counts_equal_routes);
	tcase_add_test(tc, test_block_against_row);
	tcase_add_loop_test(tc, test_alone_best_is_full_speed, 0, 2);
	tcase_add_test(tc, test_two_jobs_share_a_link);
	tcase_add_test(tc, test_io_burst_one_io_node);
	tcase_add_test(tc, test_mache_17x16_layout);
	tcase_add_test(tc, test_balance_sides_sum_to_factor);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}

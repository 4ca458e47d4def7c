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

	for (c = MESH_COMM_NONE; c <= MESH_COMM_NEAREST; c++)
		ck_assert_int_eq(
		    mesh_comm_parse(mesh_comm_name((enum mesh_comm) c)), c);
	ck_assert_int_eq(mesh_comm_parse("All-to-all"), MESH_COMM_UNKNOWN);
	ck_assert_int_eq(mesh_comm_parse(""), MESH_COMM_UNKNOWN);
	ck_assert_int_eq(mesh_comm_parse(NULL), MESH_COMM_UNKNOWN);
	ck_assert_str_eq(mesh_comm_name((enum mesh_comm) 99), "unknown");
}
END_TEST

/* Dense per-slot loads of one kind from a job's sparse list. */
static void densify(const struct mesh_topo *t,
		    const struct mesh_job_traffic *tr, int kind_io,
		    uint64_t *out)
{
	size_t i;

	memset(out, 0, mesh_io_link_count(t) * sizeof(*out));
	for (i = 0; i < tr->n_links; i++) {
		double v = kind_io ? tr->io[i] : tr->comm[i];

		ck_assert(v == (double) (uint64_t) v);
		out[tr->link[i]] = (uint64_t) v;
	}
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
 * receivers, for all-to-all; meshes and tori, 2D and 3D. */
START_TEST(test_ring_counts_equal_routes)
{
	static const char *const specs[] = { "7x5",     "6tx5t", "4x3x5",
					     "5tx4x3t", "9tx2",  "1x8" };
	uint64_t s = 77;
	int trial;

	for (trial = 0; trial < 120; trial++) {
		struct mesh_topo *t = tu_topo(specs[trial % 6]);
		struct mesh_net *net = NULL;
		struct mesh_job_traffic tr;
		size_t nl = mesh_io_link_count(t);
		uint64_t *got = malloc(nl * sizeof(*got));
		uint64_t *want = malloc(nl * sizeof(*want));
		uint32_t io[8], job[40];
		size_t k = 1 + tu_rand(&s) % (t->nodes < 40 ? t->nodes : 40);
		size_t m = 1 + tu_rand(&s) % 8;

		m = m < t->nodes ? m : t->nodes;
		random_nodes(t, &s, m, io);
		ck_assert_int_eq(mesh_topo_set_io_nodes(t, io, m), 0);
		random_nodes(t, &s, k, job);
		ck_assert_int_eq(mesh_net_create(t, &net), 0);
		ck_assert_int_eq(mesh_net_traffic(net, job, k,
						  MESH_COMM_ALL_TO_ALL, 0.25,
						  0.5, &tr),
				 0);
		densify(t, &tr, 1, got);
		ck_assert_int_eq(
		    mesh_io_link_loads(t, job, k, MESH_IO_WRITE, want), 0);
		ck_assert_mem_eq(got, want, nl * sizeof(*got));
		densify(t, &tr, 0, got);
		ck_assert_int_eq(mesh_topo_set_io_nodes(t, job, k), 0);
		ck_assert_int_eq(
		    mesh_io_link_loads(t, job, k, MESH_IO_WRITE, want), 0);
		ck_assert_mem_eq(got, want, nl * sizeof(*got));
		mesh_job_traffic_free(&tr);
		mesh_net_destroy(net);
		free(got);
		free(want);
		mesh_topo_destroy(t);
	}
}
END_TEST

/* Alone on the machine, a 2x2 block is not stretched, while the same job
 * spread along one row meets twice the block's bottleneck (4 pairs on
 * its middle link against 2); a chain interleaved with it on that row
 * stretches both. */
START_TEST(test_stretch_alone_and_shared)
{
	struct mesh_topo *t = tu_topo("8x8");
	struct mesh_net *net = NULL;
	struct mesh_job_traffic a, b, c;
	uint32_t block[4], spread[4], row[4];
	double sc, si, st;
	int i;

	for (i = 0; i < 4; i++) {
		block[i] = tu_node(t, i % 2, i / 2, 0);
		spread[i] = tu_node(t, 2 * i, 0, 0);
		row[i] = tu_node(t, 2 * i + 1, 0, 0);
	}
	ck_assert_int_eq(mesh_net_create(t, &net), 0);
	ck_assert_int_eq(
	    mesh_net_traffic(net, block, 4, MESH_COMM_ALL_TO_ALL, 0.5, 0, &a),
	    0);
	mesh_net_add(net, &a, 1);
	st = mesh_net_stretch(net, &a, &sc, &si);
	ck_assert(sc == 1.0 && si == 1.0 && st == 1.0);
	mesh_net_add(net, &a, -1);

	ck_assert_int_eq(
	    mesh_net_traffic(net, spread, 4, MESH_COMM_ALL_TO_ALL, 0.5, 0, &b),
	    0);
	mesh_net_add(net, &b, 1);
	st = mesh_net_stretch(net, &b, &sc, NULL);
	ck_assert_msg(sc == 2.0, "row all-to-all s_comm %g", sc);
	ck_assert(st == 0.5 + 0.5 * sc);

	ck_assert_int_eq(
	    mesh_net_traffic(net, row, 4, MESH_COMM_NEAREST, 1.0, 0, &c), 0);
	mesh_net_add(net, &c, 1);
	ck_assert(mesh_net_stretch(net, &b, NULL, NULL) > st);
	ck_assert(mesh_net_stretch(net, &c, NULL, NULL) > 1.0);
	mesh_net_add(net, &c, -1);
	ck_assert(mesh_net_stretch(net, &b, NULL, NULL) == st);
	mesh_net_add(net, &b, -1);
	mesh_job_traffic_free(&a);
	mesh_job_traffic_free(&b);
	mesh_job_traffic_free(&c);
	ck_assert_int_eq(
	    mesh_net_traffic(net, row, 4, MESH_COMM_NONE, 0.7, 0.4, &a),
	    MESH_EINVAL);
	mesh_net_destroy(net);
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
	tcase_add_test(tc, test_stretch_alone_and_shared);
	tcase_add_test(tc, test_balance_sides_sum_to_factor);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}

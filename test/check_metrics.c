/* check_metrics.c - dispersal metrics (Mache Ch. IV) on known shapes. */
#include "testutil.h"

static struct mesh_metrics metrics_of(const struct mesh_topo *t,
				      const uint32_t *nodes, size_t n)
{
	struct mesh_metrics m;

	ck_assert_int_eq(mesh_metrics_compute(t, nodes, n, &m), 0);
	ck_assert_uint_eq(m.sum_pairwise,
			  tu_sum_pairwise(t, nodes, n));
	return m;
}

START_TEST(test_metrics_full_16x8_avg_is_8)
{
	struct mesh_topo *t = tu_topo("16x8");
	uint32_t nodes[128], i;
	struct mesh_metrics m;

	for (i = 0; i < 128; i++)
		nodes[i] = i;
	m = metrics_of(t, nodes, 128);
	/* 8 * (16^3-16)/6 * 8 + 16 * (8^3-8)/6 * 16 = 65024 over 8128 pairs */
	ck_assert_uint_eq(m.sum_pairwise, 65024);
	ck_assert(m.avg_pairwise == 8.0);
	ck_assert_int_eq(m.diameter, 22);
	ck_assert_uint_eq(m.nodes_affected, 128);
	mesh_topo_destroy(t);
}
END_TEST

START_TEST(test_metrics_2x2_block)
{
	struct mesh_topo *t = tu_topo("4x4");
	uint32_t nodes[] = { 0, 1, 4, 5 };
	struct mesh_metrics m = metrics_of(t, nodes, 4);

	ck_assert_uint_eq(m.sum_pairwise, 8);
	ck_assert_double_eq_tol(m.avg_pairwise, 4.0 / 3.0, 1e-12);
	ck_assert_int_eq(m.diameter, 2);
	ck_assert_uint_eq(m.distance_from_center, 4); /* 1 + 1 + 2 */
	ck_assert_uint_eq(m.nodes_affected, 4);
	/* links: (1-0) * 2 rows + (1-0) * 2 columns */
	ck_assert_uint_eq(m.links_affected, 4);
	ck_assert_int_eq(m.bbox[0], 2);
	ck_assert_int_eq(m.bbox[1], 2);
	ck_assert_int_eq(m.bbox[2], 1);
	mesh_topo_destroy(t);
}
END_TEST

START_TEST(test_metrics_mache_links_example)
{
	/* 8x4 mesh, a job on opposite corners (0,0) and (7,3): the enclosing
	 * rectangle is the whole mesh (Mache's job 41 case), and
	 * links_affected = 7 * count_y + 3 * count_x = 7*2 + 3*2. */
	struct mesh_topo *t = tu_topo("8x4");
	uint32_t nodes[] = { tu_node(t, 0, 0, 0), tu_node(t, 7, 3, 0) };
	struct mesh_metrics m = metrics_of(t, nodes, 2);

	ck_assert_uint_eq(m.nodes_affected, 32);
	ck_assert_uint_eq(m.links_affected, 20);
	ck_assert_uint_eq(m.sum_pairwise, 10);
	ck_assert_int_eq(m.diameter, 10);
	ck_assert_uint_eq(m.distance_from_center, 10);
	mesh_topo_destroy(t);
}
END_TEST

START_TEST(test_metrics_torus_lee)
{
	/* On an 8-ring, nodes 0 and 7 are neighbours across the wrap link. */
	struct mesh_topo *t = tu_topo("8tx2");
	uint32_t nodes[] = { tu_node(t, 0, 0, 0), tu_node(t, 7, 0, 0) };
	struct mesh_metrics m = metrics_of(t, nodes, 2);

	ck_assert_uint_eq(m.sum_pairwise, 1);
	ck_assert_int_eq(m.diameter, 1);
	ck_assert_int_eq(m.bbox[0], 2); /* the arc 7,0 */
	ck_assert_uint_eq(m.links_affected, 1);
	mesh_topo_destroy(t);
}
END_TEST

START_TEST(test_metrics_single_node)
{
	struct mesh_topo *t = tu_topo("4x4");
	uint32_t node = 5;
	struct mesh_metrics m = metrics_of(t, &node, 1);

	ck_assert_uint_eq(m.sum_pairwise, 0);
	ck_assert(m.avg_pairwise == 0.0);
	ck_assert_int_eq(m.diameter, 0);
	ck_assert_uint_eq(m.nodes_affected, 1);
	ck_assert_uint_eq(m.links_affected, 0);
	ck_assert_int_eq(mesh_metrics_compute(t, &node, 0, &m), MESH_EINVAL);
	mesh_topo_destroy(t);
}
END_TEST

/* The histogram-based sums and the O(1) diameter agree with the O(n^2)
 * definitions on random sets, meshes and tori, 2D and 3D. */
static const struct {
	const char *spec;
	uint32_t max_n; /* 0: up to every node */
} random_meshes[] = {
	{ "7x5", 0 },	  { "6tx5", 0 },      { "4x3x5", 0 },
	{ "5tx4tx3t", 0 }, { "9x2t", 0 },
	/* planes of more than 64 n positions: projections sorted, not
	 * counted in a bitmap (both happen on 64x64x4) */
	{ "64x64x4", 80 }, { "64tx3x64", 40 },
};

START_TEST(test_metrics_random_vs_bruteforce)
{
	struct mesh_topo *t = tu_topo(random_meshes[_i].spec);
	uint32_t *nodes = malloc(t->nodes * sizeof(*nodes)), n, i, j;
	uint32_t max_n = random_meshes[_i].max_n ? random_meshes[_i].max_n
						 : t->nodes;
	uint64_t seed = 42 + (uint64_t) _i, sum, best, row;
	int round, diam, dist;

	for (round = 0; round < 200; round++) {
		for (i = 0; i < t->nodes; i++)
			nodes[i] = i;
		n = 1 + (uint32_t) (tu_rand(&seed) % max_n);
		for (i = 0; i < n; i++) { /* partial Fisher-Yates */
			j = i + (uint32_t) (tu_rand(&seed) % (t->nodes - i));
			uint32_t tmp = nodes[i];
			nodes[i] = nodes[j];
			nodes[j] = tmp;
		}
		sum = 0, diam = 0, best = UINT64_MAX;
		for (i = 0; i < n; i++) {
			row = 0;
			for (j = 0; j < n; j++) {
				dist =
				    mesh_topo_distance(t, nodes[i], nodes[j]);
				row += (uint64_t) dist;
				if (j > i)
					sum += (uint64_t) dist;
				diam = dist > diam ? dist : diam;
			}
			best = row < best ? row : best;
		}
		struct mesh_metrics m = metrics_of(t, nodes, n);

		ck_assert_uint_eq(m.sum_pairwise, sum);
		ck_assert_int_eq(m.diameter, diam);
		ck_assert_uint_eq(m.distance_from_center, best);
		/* links_affected: per axis, span times the distinct lines
		 * along that axis holding a node (pairwise, by definition) */
		row = 0;
		for (int d = 0; d < 3; d++) {
			uint64_t lines = 0;

			for (i = 0; i < n; i++) {
				int a[3], b[3], e, same = 0;

				mesh_topo_coords(t, nodes[i], a);
				for (j = 0; j < i && !same; j++) {
					mesh_topo_coords(t, nodes[j], b);
					for (e = 0, same = 1; e < 3; e++)
						same &= e == d || a[e] == b[e];
				}
				lines += !same;
			}
			row += (uint64_t) (m.bbox[d] - 1) * lines;
		}
		ck_assert_uint_eq(m.links_affected, row);
	}
	free(nodes);
	mesh_topo_destroy(t);
}
END_TEST

/* mesh_metrics_select computes what it is asked for, as
 * mesh_metrics_compute does, and leaves the rest 0. */
START_TEST(test_metrics_select_subsets)
{
	struct mesh_topo *t = tu_topo(_i ? "6tx5x4" : "9x7x3");
	uint32_t nodes[40], i;
	struct mesh_metrics all, m;
	unsigned want;

	for (i = 0; i < 40; i++)
		nodes[i] = (uint32_t) (i * 37 % t->nodes);
	ck_assert_int_eq(mesh_metrics_compute(t, nodes, 40, &all), 0);
	for (want = 0; want <= MESH_METRICS_ALL; want++) {
		memset(&m, 0xa5, sizeof(m));
		ck_assert_int_eq(mesh_metrics_select(t, nodes, 40, want, &m),
				 0);
		ck_assert_uint_eq(m.nodes, 40);
		ck_assert_uint_eq(m.sum_pairwise,
				  want & MESH_METRICS_PAIRWISE
				      ? all.sum_pairwise
				      : 0);
		ck_assert(m.avg_pairwise == (want & MESH_METRICS_PAIRWISE
						 ? all.avg_pairwise
						 : 0));
		ck_assert_int_eq(m.diameter, want & MESH_METRICS_DIAMETER
						 ? all.diameter
						 : 0);
		ck_assert_uint_eq(m.distance_from_center,
				  want & MESH_METRICS_CENTER
				      ? all.distance_from_center
				      : 0);
		ck_assert_uint_eq(m.nodes_affected, want & MESH_METRICS_BOX
							? all.nodes_affected
							: 0);
		ck_assert_uint_eq(m.links_affected, want & MESH_METRICS_BOX
							? all.links_affected
							: 0);
		ck_assert_int_eq(m.bbox[1],
				 want & MESH_METRICS_BOX ? all.bbox[1] : 0);
	}
	memset(&m, 0xa5, sizeof(m));
	all = m;
	ck_assert_int_eq(mesh_metrics_select(t, nodes, 40,
					     MESH_METRICS_ALL + 1, &m),
			 MESH_EINVAL);
	ck_assert(!memcmp(&m, &all, sizeof(m))); /* untouched */
	mesh_topo_destroy(t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("metrics");
	TCase *tc = tcase_create("compute");

	tcase_add_test(tc, test_metrics_full_16x8_avg_is_8);
	tcase_add_test(tc, test_metrics_2x2_block);
	tcase_add_test(tc, test_metrics_mache_links_example);
	tcase_add_test(tc, test_metrics_torus_lee);
	tcase_add_test(tc, test_metrics_single_node);
	tcase_add_loop_test(tc, test_metrics_select_subsets, 0, 2);
	tcase_add_loop_test(tc, test_metrics_random_vs_bruteforce, 0,
			    sizeof(random_meshes) / sizeof(random_meshes[0]));
	suite_add_tcase(s, tc);
	return tu_run(s);
}

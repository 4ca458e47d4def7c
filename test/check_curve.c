/* check_curve.c - curve orders on small meshes, worked by hand
 * (Walker et al. Sec. II, Figs. 2-5). */
#include "testutil.h"

static void expect_order(const char *mesh, enum mesh_curve c,
			 const uint32_t *want, uint32_t n)
{
	struct mesh_topo *t = tu_topo(mesh);
	uint32_t *got = malloc(t->nodes * sizeof(*got)), i;

	ck_assert_uint_eq(t->nodes, n);
	ck_assert_int_eq(mesh_curve_order(t, c, got), 0);
	for (i = 0; i < n; i++)
		ck_assert_msg(got[i] == want[i], "%s %s rank %u: got %u want %u",
			      mesh, mesh_curve_name(c), i, got[i], want[i]);
	free(got);
	mesh_topo_destroy(t);
}

/* 4x2, x = 0..3 fastest in node numbering:
 *   4 5 6 7
 *   0 1 2 3 */
START_TEST(test_curve_rowmajor_4x2)
{
	static const uint32_t w[] = { 0, 1, 2, 3, 4, 5, 6, 7 };

	expect_order("4x2", MESH_CURVE_ROWMAJOR, w, 8);
}
END_TEST

START_TEST(test_curve_snake_4x2)
{
	/* along the long (x) dimension, reversing every row */
	static const uint32_t w[] = { 0, 1, 2, 3, 7, 6, 5, 4 };

	expect_order("4x2", MESH_CURVE_SNAKE, w, 8);
}
END_TEST

START_TEST(test_curve_colsnake_4x2)
{
	/* along the short (y) dimension first: up, over, down, ... */
	static const uint32_t w[] = { 0, 4, 5, 1, 2, 6, 7, 3 };

	expect_order("4x2", MESH_CURVE_COLSNAKE, w, 8);
}
END_TEST

START_TEST(test_curve_snake_2x4_long_y)
{
	/* 2x4: y is the long dimension, so the snake runs along y. */
	static const uint32_t w[] = { 0, 2, 4, 6, 7, 5, 3, 1 };

	expect_order("2x4", MESH_CURVE_SNAKE, w, 8);
}
END_TEST

START_TEST(test_curve_rowmajor_2x4_long_y)
{
	static const uint32_t w[] = { 0, 2, 4, 6, 1, 3, 5, 7 };

	expect_order("2x4", MESH_CURVE_ROWMAJOR, w, 8);
}
END_TEST

START_TEST(test_curve_hilbert_4x4)
{
	struct mesh_topo *t = tu_topo("4x4");
	uint32_t got[16], i;

	ck_assert_int_eq(mesh_curve_order(t, MESH_CURVE_HILBERT, got), 0);
	/* Hand-worked: the curve visits the lower-left 2x2 quadrant first,
	 * enters at (0,0), leaves the whole square at (3,0), and every step
	 * is to a mesh neighbour. */
	ck_assert_uint_eq(got[0], tu_node(t, 0, 0, 0));
	ck_assert_uint_eq(got[15], tu_node(t, 3, 0, 0));
	for (i = 0; i < 4; i++) {
		int c[3];

		mesh_topo_coords(t, got[i], c);
		ck_assert(c[0] < 2 && c[1] < 2);
	}
	for (i = 1; i < 16; i++)
		ck_assert_int_eq(mesh_topo_distance(t, got[i - 1], got[i]), 1);
	mesh_topo_destroy(t);
}
END_TEST

START_TEST(test_curve_hilbert_spliced_4x2)
{
	/* Two 2x2 Hilbert blocks spliced along x (Fig. 5 with 2x2 blocks):
	 * (0,0)(0,1)(1,1)(1,0) then (2,0)(2,1)(3,1)(3,0). */
	static const uint32_t w[] = { 0, 4, 5, 1, 2, 6, 7, 3 };

	expect_order("4x2", MESH_CURVE_HILBERT, w, 8);
}
END_TEST

/* Every curve is a permutation; the snakes and spliced Hilbert curves
 * only ever step to a neighbour. */
static const struct {
	const char *mesh;
	int adjacent;
} perm_cases[] = {
	{ "16x8", 1 }, { "8x8x8", 1 }, { "16x16x8", 1 }, { "20x4", 1 },
	{ "4x4x16", 1 }, { "8x8x4", 1 }, { "4x8x8", 1 }, { "8x4x4", 1 },
	{ "5x3", 0 }, { "16x15", 0 }, { "7x5x3", 0 }, { "12x8", 0 },
	{ "16tx8t", 1 },
};

START_TEST(test_curve_permutation_and_adjacency)
{
	struct mesh_topo *t = tu_topo(perm_cases[_i].mesh);
	uint32_t *order = malloc(t->nodes * sizeof(*order));
	char *seen = calloc(t->nodes, 1);
	int c;
	uint32_t r;

	for (c = 0; c < MESH_CURVE_COUNT; c++) {
		memset(seen, 0, t->nodes);
		ck_assert_int_eq(mesh_curve_order(t, (enum mesh_curve) c, order), 0);
		for (r = 0; r < t->nodes; r++) {
			ck_assert_uint_lt(order[r], t->nodes);
			ck_assert(!seen[order[r]]);
			seen[order[r]] = 1;
			if (r && c != MESH_CURVE_ROWMAJOR &&
			    (perm_cases[_i].adjacent || c != MESH_CURVE_HILBERT))
				ck_assert_msg(mesh_topo_distance(t, order[r - 1], order[r]) == 1,
					      "%s %s: rank %u not adjacent",
					      perm_cases[_i].mesh, mesh_curve_name(c), r);
		}
	}
	free(order);
	free(seen);
	mesh_topo_destroy(t);
}
END_TEST

/* Hilbert orders of meshes that are no prefix of their enclosing cube's
 * curve ("clipped"), as FNV-1a hashes of the rank -> node array.  The
 * hashes were computed by walking every index of the enclosing cube (the
 * code before the block skip; 626x6x2 took 111 s that way, a mesh.conf
 * that stalled slurmctld's start).  The skip must give the same order. */
static const struct {
	const char *mesh;
	uint64_t fnv;
} clipped_cases[] = {
	{ "5x3", 0xe451fb2ebfd386a0ull },     { "16x15", 0x5e99be1b7ab9e2f3ull },
	{ "12x8", 0x63bac6d14ecf4423ull },    { "7x5x3", 0xabc07392c667e78full },
	{ "37x3x9", 0xe7cd36ffd7e187b4ull },  { "33x17", 0xa5ed5551efa31d19ull },
	{ "100x6x2", 0x585237e2b534c373ull }, { "3x40x5", 0xc6e405099fe8dbb3ull },
	{ "130x2", 0xaa06f301e9fa6a65ull },   { "626x6x2", 0x1e31c4be4361f66bull },
};

START_TEST(test_curve_hilbert_clipped)
{
	struct mesh_topo *t = tu_topo(clipped_cases[_i].mesh);
	uint32_t *order = malloc(t->nodes * sizeof(*order)), r;
	uint64_t h = 1469598103934665603ull;

	ck_assert_int_eq(mesh_curve_order(t, MESH_CURVE_HILBERT, order), 0);
	for (r = 0; r < t->nodes; r++) {
		h ^= order[r];
		h *= 1099511628211ull;
	}
	ck_assert_msg(h == clipped_cases[_i].fnv, "%s: order hash %llx",
		      clipped_cases[_i].mesh, (unsigned long long) h);
	free(order);
	mesh_topo_destroy(t);
}
END_TEST

START_TEST(test_curve_names)
{
	enum mesh_curve c;

	ck_assert_int_eq(mesh_curve_parse("colsnake", &c), 0);
	ck_assert_int_eq(c, MESH_CURVE_COLSNAKE);
	ck_assert_int_eq(mesh_curve_parse("zigzag", &c), MESH_ENOENT);
	ck_assert_str_eq(mesh_curve_name(MESH_CURVE_HILBERT), "hilbert");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("curve");
	TCase *tc = tcase_create("order");

	tcase_add_test(tc, test_curve_rowmajor_4x2);
	tcase_add_test(tc, test_curve_snake_4x2);
	tcase_add_test(tc, test_curve_colsnake_4x2);
	tcase_add_test(tc, test_curve_snake_2x4_long_y);
	tcase_add_test(tc, test_curve_rowmajor_2x4_long_y);
	tcase_add_test(tc, test_curve_hilbert_4x4);
	tcase_add_test(tc, test_curve_hilbert_spliced_4x2);
	tcase_add_loop_test(tc, test_curve_hilbert_clipped, 0,
			    sizeof(clipped_cases) / sizeof(clipped_cases[0]));
	tcase_add_loop_test(tc, test_curve_permutation_and_adjacency, 0,
			    sizeof(perm_cases) / sizeof(perm_cases[0]));
	tcase_add_test(tc, test_curve_names);
	suite_add_tcase(s, tc);
	return tu_run(s);
}

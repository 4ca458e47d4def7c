/* check_topo.c - mesh model: parsing, coordinates, distances, I/O nodes. */
#include "testutil.h"

START_TEST(test_topo_parse_2d)
{
	struct mesh_topo *t = tu_topo("16x8");
	char buf[32];

	ck_assert_int_eq(t->ndims, 2);
	ck_assert_int_eq(t->dim[0], 16);
	ck_assert_int_eq(t->dim[1], 8);
	ck_assert_int_eq(t->dim[2], 1);
	ck_assert_uint_eq(t->nodes, 128);
	ck_assert(!t->wrap[0] && !t->wrap[1]);
	ck_assert_str_eq(mesh_topo_format(t, buf, sizeof(buf)), "16x8");
	mesh_topo_destroy(t);
}
END_TEST

START_TEST(test_topo_parse_torus_3d)
{
	struct mesh_topo *t = tu_topo("8tx4x4t");
	char buf[32];

	ck_assert_int_eq(t->ndims, 3);
	ck_assert(t->wrap[0] && !t->wrap[1] && t->wrap[2]);
	ck_assert_uint_eq(t->nodes, 128);
	ck_assert_str_eq(mesh_topo_format(t, buf, sizeof(buf)), "8tx4x4t");
	mesh_topo_destroy(t);
}
END_TEST

/* The size limit is named as such, not as a syntax error (issue 40). */
START_TEST(test_topo_parse_too_large_says_so)
{
	struct mesh_topo *t = NULL;
	struct mesh_diag d;

	mesh_diag_clear(&d);
	ck_assert_int_eq(mesh_topo_parse("99999999x99999999", &t, &d),
			 MESH_ERANGE);
	ck_assert_str_eq(d.message, "\"99999999x99999999\": dimension 1 is too "
				    "large (a mesh has at most 4194304 nodes)");
	mesh_diag_clear(&d);
	ck_assert_int_eq(mesh_topo_parse("4096x4096", &t, &d), MESH_ERANGE);
	ck_assert_str_eq(d.message, "\"4096x4096\": 16777216 nodes, too many (a "
				    "mesh has at most 4194304 nodes)");
	mesh_diag_clear(&d);
	ck_assert_int_eq(mesh_topo_parse("4x0", &t, &d), MESH_ERANGE);
	ck_assert(strstr(d.message, "dimension 2 is 0; each is at least 1"));
	ck_assert_ptr_null(t);
}
END_TEST

static const struct {
	const char *spec;
	int rc;
} bad_specs[] = {
	{ "", MESH_EPARSE }, { "16", MESH_EPARSE }, { "16x", MESH_EPARSE },
	{ "0x4", MESH_ERANGE }, { "4x-4", MESH_EPARSE }, { "4x4x4x4", MESH_EPARSE },
	{ "4y4", MESH_EPARSE }, { "x4", MESH_EPARSE }, { "4x4q", MESH_EPARSE },
	{ "99999999x99999999", MESH_ERANGE }, { "4096x4096", MESH_ERANGE },
};

START_TEST(test_topo_parse_bad)
{
	struct mesh_topo *t = NULL;
	struct mesh_diag d;

	mesh_diag_clear(&d);
	ck_assert_int_eq(mesh_topo_parse(bad_specs[_i].spec, &t, &d),
			 bad_specs[_i].rc);
	ck_assert_ptr_null(t);
	ck_assert_str_eq(d.field, "mesh");
	ck_assert(strlen(d.message) > 0);
}
END_TEST

START_TEST(test_topo_index_roundtrip)
{
	struct mesh_topo *t = tu_topo("5x3x2");
	int c[3];
	uint32_t i;

	for (i = 0; i < t->nodes; i++) {
		mesh_topo_coords(t, i, c);
		ck_assert(c[0] < 5 && c[1] < 3 && c[2] < 2);
		ck_assert_uint_eq(mesh_topo_index(t, c), i);
	}
	mesh_topo_coords(t, 5 * 3 + 5 + 2, c);
	ck_assert_int_eq(c[0], 2);
	ck_assert_int_eq(c[1], 1);
	ck_assert_int_eq(c[2], 1);
	mesh_topo_destroy(t);
}
END_TEST

START_TEST(test_topo_distance_l1_and_lee)
{
	struct mesh_topo *m = tu_topo("8x8"), *tor = tu_topo("8tx8t");
	struct mesh_topo *half = tu_topo("8tx8");

	/* (0,0) - (7,6): L1 = 13; Lee = 1 + 2 = 3; x wrapped only: 1 + 6 */
	ck_assert_int_eq(mesh_topo_distance(m, tu_node(m, 0, 0, 0), tu_node(m, 7, 6, 0)), 13);
	ck_assert_int_eq(mesh_topo_distance(tor, tu_node(tor, 0, 0, 0), tu_node(tor, 7, 6, 0)), 3);
	ck_assert_int_eq(mesh_topo_distance(half, tu_node(half, 0, 0, 0), tu_node(half, 7, 6, 0)), 7);
	/* Lee distance on a ring of 8: 4 hops either way. */
	ck_assert_int_eq(mesh_topo_distance(tor, tu_node(tor, 0, 0, 0), tu_node(tor, 4, 0, 0)), 4);
	ck_assert_int_eq(mesh_topo_distance(m, 5, 5), 0);
	mesh_topo_destroy(m);
	mesh_topo_destroy(tor);
	mesh_topo_destroy(half);
}
END_TEST

START_TEST(test_topo_io_nodes)
{
	struct mesh_topo *t = tu_topo("4x4");
	uint32_t io[] = { 12, 0, 4 }, dup[] = { 1, 1 }, out[] = { 16 };

	ck_assert_int_eq(mesh_topo_set_io_nodes(t, io, 3), 0);
	ck_assert_uint_eq(t->n_io, 3);
	ck_assert_uint_eq(t->io_nodes[0], 0);
	ck_assert_uint_eq(t->io_nodes[2], 12);
	ck_assert(mesh_topo_is_io(t, 4));
	ck_assert(!mesh_topo_is_io(t, 5));
	ck_assert_int_eq(mesh_topo_set_io_nodes(t, dup, 2), MESH_EINVAL);
	ck_assert_int_eq(mesh_topo_set_io_nodes(t, out, 1), MESH_EINVAL);
	ck_assert_uint_eq(t->n_io, 3); /* unchanged on error */
	ck_assert_int_eq(mesh_topo_check(t), 0);
	mesh_topo_destroy(t);
}
END_TEST

START_TEST(test_error_strings)
{
	ck_assert_str_eq(mesh_err_name(MESH_ENOSPC), "MESH_ENOSPC");
	ck_assert_str_eq(mesh_strerror(MESH_ENOSPC), "no placement satisfies the request");
	ck_assert_str_eq(mesh_strerror(12345), "unknown error");
}
END_TEST

START_TEST(test_diag_format)
{
	struct mesh_diag d;
	char buf[128];

	mesh_diag_set(&d, MESH_EPARSE, "t.swf", 1342, "req_procs",
		      "expected integer >0, got \"%s\"", "-1");
	ck_assert_str_eq(mesh_diag_format(&d, buf, sizeof(buf)),
			 "t.swf:1342:req_procs: expected integer >0, got \"-1\"");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("topo");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_topo_parse_2d);
	tcase_add_test(tc, test_topo_parse_torus_3d);
	tcase_add_test(tc, test_topo_parse_too_large_says_so);
	tcase_add_loop_test(tc, test_topo_parse_bad, 0,
			    sizeof(bad_specs) / sizeof(bad_specs[0]));
	tcase_add_test(tc, test_topo_index_roundtrip);
	tcase_add_test(tc, test_topo_distance_l1_and_lee);
	tcase_add_test(tc, test_topo_io_nodes);
	tcase_add_test(tc, test_error_strings);
	tcase_add_test(tc, test_diag_format);
	suite_add_tcase(s, tc);
	return tu_run(s);
}

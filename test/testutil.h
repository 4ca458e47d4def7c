/* testutil.h - helpers shared by the Check suites. */
#ifndef TESTUTIL_H
#define TESTUTIL_H

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mesh.h"

static inline struct mesh_topo *tu_topo(const char *spec)
{
	struct mesh_topo *t = NULL;
	struct mesh_diag d;

	ck_assert_int_eq(mesh_topo_parse(spec, &t, &d), 0);
	ck_assert_int_eq(mesh_topo_check(t), 0);
	return t;
}

static inline struct mesh_bitmap *tu_all_free(const struct mesh_topo *t)
{
	struct mesh_bitmap *b = NULL;

	ck_assert_int_eq(mesh_bitmap_create(t->nodes, &b), 0);
	mesh_bitmap_fill(b, true);
	return b;
}

static inline uint32_t tu_node(const struct mesh_topo *t, int x, int y, int z)
{
	int c[3] = { x, y, z };

	return mesh_topo_index(t, c);
}

/* splitmix64: deterministic test randomness */
static inline uint64_t tu_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static inline int tu_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif

/* check_alloc_paper.c - the allocators from the papers against the
 * properties the papers state (MC, PLAS, MC-Elongated, Granular MBS, MM),
 * against brute-force versions of their definitions (Gen-Alg, MM), and
 * the simple ones (paging, random, contiguous, sl:). */
#include <stdio.h>

#include "testutil.h"

static struct mesh_allocator *mk(const struct mesh_topo *t, const char *name,
				 const char *params)
{
	struct mesh_allocator *a = NULL;
	struct mesh_diag d;

	ck_assert_msg(mesh_alloc_create(t, name, params, &a, &d) == 0,
		      "%s: %s", name, d.message);
	return a;
}

static void random_map(struct mesh_bitmap *f, uint64_t *s, int busy_pct)
{
	uint32_t i;

	mesh_bitmap_fill(f, false);
	for (i = 0; i < f->nbits; i++)
		if ((int) (tu_rand(s) % 100) >= busy_pct)
			mesh_bitmap_set(f, i);
}

static int place(struct mesh_allocator *a, const struct mesh_topo *t,
		 const struct mesh_bitmap *f, uint32_t k, uint32_t *out)
{
	struct mesh_view v = { t, f, NULL, 0 };
	struct mesh_request r;

	memset(&r, 0, sizeof(r));
	r.nodes = k;
	return mesh_alloc_place(a, &v, &r, out);
}

/* ------------------------------------------------------------- MC */

static int box_free(const struct mesh_topo *t, const struct mesh_bitmap *f,
		    const int b[3], const int e[3])
{
	int i[3], q[3], d;

	for (d = 0; d < 3; d++)
		if (e[d] > t->dim[d] || (!t->wrap[d] && b[d] + e[d] > t->dim[d]))
			return 0;
	for (i[2] = 0; i[2] < e[2]; i[2]++)
		for (i[1] = 0; i[1] < e[1]; i[1]++)
			for (i[0] = 0; i[0] < e[0]; i[0]++) {
				for (d = 0; d < 3; d++)
					q[d] = (b[d] + i[d]) % t->dim[d];
				if (!mesh_bitmap_test(f, mesh_topo_index(t, q)))
					return 0;
			}
	return 1;
}

static int block_exists(const struct mesh_topo *t, const struct mesh_bitmap *f,
			const int e[3])
{
	static const int perm[6][3] = { { 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 },
					{ 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 } };
	int p, b[3], o[3];

	for (p = 0; p < 6; p++) {
		o[0] = e[perm[p][0]], o[1] = e[perm[p][1]], o[2] = e[perm[p][2]];
		for (b[2] = 0; b[2] < t->dim[2]; b[2]++)
			for (b[1] = 0; b[1] < t->dim[1]; b[1]++)
				for (b[0] = 0; b[0] < t->dim[0]; b[0]++)
					if (box_free(t, f, b, o))
						return 1;
	}
	return 0;
}

static int sorted_eq(const int a[3], const int b[3])
{
	int x[3], y[3], i, j, tmp;

	memcpy(x, a, sizeof(x));
	memcpy(y, b, sizeof(y));
	for (i = 0; i < 3; i++)
		for (j = i + 1; j < 3; j++) {
			if (x[j] < x[i])
				tmp = x[i], x[i] = x[j], x[j] = tmp;
			if (y[j] < y[i])
				tmp = y[i], y[i] = y[j], y[j] = tmp;
		}
	return !memcmp(x, y, sizeof(x));
}

static const char *const mc_meshes[] = { "8x8", "9x5", "6tx6t", "5x4x3",
					 "4tx5x3t" };

START_TEST(test_mc_finds_rectangle_when_one_exists)
{
	struct mesh_topo *t = tu_topo(mc_meshes[_i]);
	struct mesh_allocator *a = mk(t, "mc", NULL);
	struct mesh_bitmap *f = tu_all_free(t);
	uint32_t *out = malloc(t->nodes * sizeof(*out));
	uint64_t s = 7 + (uint64_t) _i;
	int trial, found = 0;

	for (trial = 0; trial < 400; trial++) {
		struct mesh_view v = { t, f, NULL, 0 };
		struct mesh_request r;
		struct mesh_metrics m;
		int e[3] = { 1, 1, 1 }, d;

		random_map(f, &s, (int) (tu_rand(&s) % 70));
		for (d = 0; d < t->ndims; d++)
			e[d] = 1 + (int) (tu_rand(&s) % 4);
		memset(&r, 0, sizeof(r));
		memcpy(r.shape, e, sizeof(e));
		r.nodes = (uint32_t) (e[0] * e[1] * e[2]);
		if (mesh_bitmap_count(f) < r.nodes)
			continue;
		ck_assert_int_eq(mesh_alloc_place(a, &v, &r, out), 0);
		if (!block_exists(t, f, e))
			continue;
		found++;
		ck_assert_int_eq(mesh_metrics_compute(t, out, r.nodes, &m), 0);
		ck_assert_msg(m.nodes_affected == r.nodes && sorted_eq(m.bbox, e),
			      "%s: %dx%dx%d exists, MC gave a %dx%dx%d box",
			      mc_meshes[_i], e[0], e[1], e[2], m.bbox[0],
			      m.bbox[1], m.bbox[2]);
	}
	ck_assert_int_gt(found, 50);
	free(out);
	mesh_bitmap_destroy(f);
	mesh_alloc_destroy(a);
	mesh_topo_destroy(t);
}
END_TEST

START_TEST(test_mc_shape_param_and_bad_shape)
{
	struct mesh_topo *t = tu_topo("8x8");
	struct mesh_allocator *a = NULL;
	struct mesh_bitmap *f = tu_all_free(t);
	struct mesh_metrics m;
	struct mesh_diag d;
	uint32_t out[64];

	ck_assert_int_eq(mesh_alloc_create(t, "mc", "shape=2x", &a, &d),
			 MESH_EINVAL);
	ck_assert_str_eq(d.field, "shape");
	a = mk(t, "mc", "shape=1x6");
	ck_assert_int_eq(place(a, t, f, 6, out), 0);
	ck_assert_int_eq(mesh_metrics_compute(t, out, 6, &m), 0);
	ck_assert_uint_eq(m.nodes_affected, 6);
	ck_assert(m.bbox[0] == 6 || m.bbox[1] == 6);
	mesh_alloc_destroy(a);
	mesh_bitmap_destroy(f);
	mesh_topo_destroy(t);
}
END_TEST

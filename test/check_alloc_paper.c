/* check_alloc_paper.c - the allocators from the papers against the
 * properties the papers state (MC, PLAS, MC-Elongated, Granular MBS), and
 * the simple ones (paging, random, contiguous, sl:); Gen-Alg and MM are
 * in check_alloc_l1.c. */
#include <stdio.h>

#include "alloc_internal.h"
#include "testutil.h"

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
	struct mesh_allocator *a = tu_allocator(t, "mc", NULL);
	struct mesh_bitmap *f = tu_all_free(t);
	uint32_t *out = malloc(t->nodes * sizeof(*out));
	uint64_t s = 7 + (uint64_t) _i;
	int trial, found = 0;

	for (trial = 0; trial < 400; trial++) {
		struct mesh_view v = { t, f, NULL, 0 };
		struct mesh_request r;
		struct mesh_metrics m;
		int e[3] = { 1, 1, 1 }, d;

		tu_random_map(f, &s, (int) (tu_rand(&s) % 70));
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
	a = tu_allocator(t, "mc", "shape=1x6");
	ck_assert_int_eq(tu_place(a, t, f, 6, out), 0);
	ck_assert_int_eq(mesh_metrics_compute(t, out, 6, &m), 0);
	ck_assert_uint_eq(m.nodes_affected, 6);
	ck_assert(m.bbox[0] == 6 || m.bbox[1] == 6);
	mesh_alloc_destroy(a);
	mesh_bitmap_destroy(f);
	mesh_topo_destroy(t);
}
END_TEST

/* ------------------------------------------ I/O: the paper's layout */

/* Mache Ch. VI-VII: a 16x16 compute mesh with 16 I/O nodes on its west
 * side, modelled as a 17x16 mesh whose column x = 0 holds the I/O nodes. */
static struct mesh_topo *paper_io_mesh(void)
{
	struct mesh_topo *t = tu_topo("17x16");
	uint32_t io[16];
	int y;

	for (y = 0; y < 16; y++)
		io[y] = tu_node(t, 0, y, 0);
	ck_assert_int_eq(mesh_topo_set_io_nodes(t, io, 16), 0);
	return t;
}

static long above_minus_below(const struct mesh_topo *t, const uint32_t *n,
			      size_t k)
{
	long bf = 0;
	int c[3];
	size_t i;

	for (i = 0; i < k; i++) {
		mesh_topo_coords(t, n[i], c);
		bf += c[1] >= 8 ? 1 : -1;
	}
	return bf;
}

START_TEST(test_io_balance_factor_reduces_to_paper)
{
	struct mesh_topo *t = paper_io_mesh();
	uint32_t nodes[64];
	uint64_t s = 99;
	size_t link, k, i;
	long bf;
	int trial;

	for (trial = 0; trial < 200; trial++) {
		k = 1 + tu_rand(&s) % 40;
		for (i = 0; i < k; i++) {
			size_t j;

			do {
				nodes[i] = tu_node(t, 1 + (int) (tu_rand(&s) % 16),
						   (int) (tu_rand(&s) % 16), 0);
				for (j = 0; j < i && nodes[j] != nodes[i]; j++)
					;
			} while (j < i);
		}
		ck_assert_int_eq(mesh_io_balance_factor(t, nodes, k, &bf, &link), 0);
		ck_assert_int_eq(bf, above_minus_below(t, nodes, k));
		/* the middle I/O link: from (0,7) north to (0,8) */
		ck_assert_uint_eq(link, (size_t) tu_node(t, 0, 7, 0) * 6 + 2);
	}
	mesh_topo_destroy(t);
}
END_TEST

START_TEST(test_io_link_loads_middle_link_theorem)
{
	/* Ch. VI Thm. 1: the middle I/O link carries m/2 * (nodes above) in
	 * the south direction; a full column gives max_contention m*n/4. */
	struct mesh_topo *t = paper_io_mesh();
	uint64_t *loads = malloc(mesh_io_link_count(t) * sizeof(*loads)), mx = 0;
	uint32_t col[16];
	size_t i;
	int y;

	for (y = 0; y < 16; y++)
		col[y] = tu_node(t, 1, y, 0);
	ck_assert_int_eq(mesh_io_link_loads(t, col, 16, MESH_IO_WRITE, loads), 0);
	ck_assert_uint_eq(loads[(size_t) tu_node(t, 0, 8, 0) * 6 + 3], 8 * 8);
	ck_assert_uint_eq(loads[(size_t) tu_node(t, 0, 7, 0) * 6 + 2], 8 * 8);
	for (i = 0; i < mesh_io_link_count(t); i++)
		mx = loads[i] > mx ? loads[i] : mx;
	ck_assert_uint_eq(mx, 16 * 16 / 4);
	free(loads);
	mesh_topo_destroy(t);
}
END_TEST

START_TEST(test_plas_perfect_balance_from_empty)
{
	struct mesh_topo *t = paper_io_mesh();
	struct mesh_allocator *a = tu_allocator(t, "plas", NULL);
	struct mesh_bitmap *f = tu_all_free(t);
	uint32_t out[256], all[256], used = 0, k, i;
	uint64_t s = 5;
	long bf, sys;
	int y;

	for (y = 0; y < 16; y++)
		mesh_bitmap_clear(f, tu_node(t, 0, y, 0));
	while (used < 256) {
		k = 1 + (uint32_t) (tu_rand(&s) % 23);
		if (k > 256 - used)
			k = 256 - used;
		ck_assert_int_eq(tu_place(a, t, f, k, out), 0);
		ck_assert_int_eq(mesh_io_balance_factor(t, out, k, &bf, NULL), 0);
		ck_assert_msg(bf >= -1 && bf <= 1, "job of %u: bf %ld", k, bf);
		for (i = 0; i < k; i++) {
			mesh_bitmap_clear(f, out[i]);
			all[used++] = out[i];
		}
		ck_assert_int_eq(mesh_io_balance_factor(t, all, used, &sys, NULL), 0);
		ck_assert_msg(sys >= -1 && sys <= 1, "system bf %ld", sys);
	}
	mesh_bitmap_destroy(f);
	mesh_alloc_destroy(a);
	mesh_topo_destroy(t);
}
END_TEST

static int whole_columns(const struct mesh_topo *t, const uint32_t *n,
			 uint32_t k)
{
	int per[64] = { 0 }, c[3], x, full = 0;
	uint32_t i;

	for (i = 0; i < k; i++) {
		mesh_topo_coords(t, n[i], c);
		per[c[0]]++;
	}
	for (x = 0; x < t->dim[0]; x++)
		full += per[x] == t->dim[1];
	return full;
}

START_TEST(test_mce_takes_whole_columns_when_free)
{
	struct mesh_topo *t = paper_io_mesh();
	struct mesh_allocator *a = tu_allocator(t, "mc-elongated", NULL);
	struct mesh_bitmap *f = tu_all_free(t);
	uint32_t out[272], k;
	uint64_t s = 11;
	int trial, y, x, c;
	long bf;

	for (trial = 0; trial < 200; trial++) {
		/* columns 1..8 free, random debris east of them */
		mesh_bitmap_fill(f, true);
		for (y = 0; y < 16; y++)
			for (x = 9; x < 17; x++)
				if (tu_rand(&s) % 3 == 0)
					mesh_bitmap_clear(f, tu_node(t, x, y, 0));
		k = 1 + (uint32_t) (tu_rand(&s) % (8 * 16));
		ck_assert_int_eq(tu_place(a, t, f, k, out), 0);
		c = whole_columns(t, out, k);
		ck_assert_msg(c >= (int) (k / 16), "k=%u: %d whole columns", k, c);
		for (y = 0; y < (int) k; y++)
			ck_assert(!mesh_topo_is_io(t, out[y]));
		if (k % 16 == 0) {
			ck_assert_int_eq(mesh_io_balance_factor(t, out, k, &bf, NULL), 0);
			ck_assert_int_eq(bf, 0);
		}
	}
	mesh_bitmap_destroy(f);
	mesh_alloc_destroy(a);
	mesh_topo_destroy(t);
}
END_TEST

START_TEST(test_io_allocators_need_io_nodes)
{
	static const char *const names[] = { "plas", "mc-elongated" };
	struct mesh_topo *t = tu_topo("8x8");
	struct mesh_allocator *a = NULL;
	struct mesh_diag d;
	int i;

	for (i = 0; i < 2; i++) {
		mesh_diag_clear(&d);
		ck_assert_int_eq(mesh_alloc_create(t, names[i], NULL, &a, &d),
				 MESH_EINVAL);
		ck_assert_ptr_null(a);
		ck_assert_ptr_nonnull(strstr(d.message, "I/O nodes"));
	}
	mesh_topo_destroy(t);
}
END_TEST

/* ------------------------------------------------------------ MBS */

static void ck_block(const struct mesh_topo *t, const uint32_t *n, uint32_t k,
		     int w, int h)
{
	struct mesh_metrics m;

	ck_assert_int_eq(mesh_metrics_compute(t, n, k, &m), 0);
	ck_assert_msg(m.nodes_affected == k && m.bbox[0] == w && m.bbox[1] == h,
		      "k=%u: got %dx%d in %llu, want a %dx%d block", k, m.bbox[0],
		      m.bbox[1], (unsigned long long) m.nodes_affected, w, h);
}

START_TEST(test_mbs_granular_fig11_every_power_of_two)
{
	/* Walker et al. Fig. 11: on a 5x4 mesh the phases build 2x1, 2x2,
	 * 4x2, 4x4 blocks in the 4x4 part and 1x2, 1x4 in the last column. */
	static const int want[5][2] = { { 1, 1 }, { 2, 1 }, { 2, 2 }, { 4, 2 },
					{ 4, 4 } };
	struct mesh_topo *t = tu_topo("5x4");
	struct mesh_allocator *a = tu_allocator(t, "mbs-granular", NULL);
	struct mesh_bitmap *f = tu_all_free(t);
	uint32_t out[20];
	int i, y;

	/* only the 4x4 part free (on an empty mesh MBS would split the
	 * smaller 1x4 block first, as it should) */
	for (y = 0; y < 4; y++)
		mesh_bitmap_clear(f, tu_node(t, 4, y, 0));
	for (i = 0; i <= 4; i++) {
		ck_assert_int_eq(tu_place(a, t, f, 1u << i, out), 0);
		ck_block(t, out, 1u << i, want[i][0], want[i][1]);
	}
	/* only the fifth column free: its 1x2 and 1x4 blocks */
	mesh_bitmap_fill(f, false);
	for (y = 0; y < 4; y++)
		mesh_bitmap_set(f, tu_node(t, 4, y, 0));
	ck_assert_int_eq(tu_place(a, t, f, 2, out), 0);
	ck_block(t, out, 2, 1, 2);
	ck_assert_int_eq(tu_place(a, t, f, 4, out), 0);
	ck_block(t, out, 4, 1, 4);
	mesh_bitmap_destroy(f);
	mesh_alloc_destroy(a);
	mesh_topo_destroy(t);
}
END_TEST

START_TEST(test_mbs_fig10_hierarchy)
{
	/* Fig. 10: a 4x4 block and four 1x1 blocks; 2x2 children. */
	struct mesh_topo *t = tu_topo("5x4");
	struct mesh_allocator *a = tu_allocator(t, "mbs", NULL);
	struct mesh_bitmap *f = tu_all_free(t);
	uint32_t out[20];

	ck_assert_int_eq(tu_place(a, t, f, 16, out), 0);
	ck_block(t, out, 16, 4, 4);
	ck_assert_int_eq(tu_place(a, t, f, 4, out), 0);
	ck_block(t, out, 4, 2, 2);
	/* 6 = 4 + 1 + 1 (Mache Fig. 13) */
	ck_assert_int_eq(tu_place(a, t, f, 6, out), 0);
	ck_block(t, out, 4, 2, 2);
	mesh_bitmap_destroy(f);
	mesh_alloc_destroy(a);
	mesh_topo_destroy(t);
}
END_TEST

/* The top-level blocks (no parent) of an mbs* allocator, as lo x,y and
 * extents w,h (2D meshes), in the order the hierarchy lists them. */
static int top_blocks(const struct mesh_allocator *a, int (*out)[4], int max)
{
	const struct mesh__mbs_block *b;
	uint32_t nb, i;
	int base, levels, n = 0;

	ck_assert_int_eq(mesh__mbs_hierarchy(a, &b, &nb, &base, &levels), 0);
	for (i = 0; i < nb; i++) {
		if (b[i].parent >= 0)
			continue;
		ck_assert_int_lt(n, max);
		out[n][0] = b[i].lo[0];
		out[n][1] = b[i].lo[1];
		out[n][2] = b[i].ext[0];
		out[n][3] = b[i].ext[1];
		n++;
	}
	return n;
}

static int has_top(int (*tb)[4], int n, int x, int y, int w, int h)
{
	int i;

	for (i = 0; i < n; i++)
		if (tb[i][0] == x && tb[i][1] == y && tb[i][2] == w &&
		    tb[i][3] == h)
			return 1;
	return 0;
}

START_TEST(test_mbs_octet_2d_unit_blocks_column_order)
{
	/* Walker et al. Sec. III-B: on 2D meshes Octet MBS has only 1x1x1
	 * blocks; their free list runs in nested-loop order x, y, z (z,
	 * then y fastest), so on a non-square 8x4 mesh a job takes whole
	 * columns of the short side, as on a square one. */
	static const char *const meshes[] = { "8x4", "4x4", "16x5" };
	const struct mesh__mbs_block *b;
	uint32_t out[80], nb, i;
	int base, levels, m, h;

	for (m = 0; m < 3; m++) {
		struct mesh_topo *t = tu_topo(meshes[m]);
		struct mesh_allocator *a = tu_allocator(t, "mbs-octet", NULL);
		struct mesh_bitmap *f = tu_all_free(t);

		h = t->dim[1];
		ck_assert_int_eq(
		    mesh__mbs_hierarchy(a, &b, &nb, &base, &levels), 0);
		ck_assert_uint_eq(nb, t->nodes);
		ck_assert_int_eq(levels, 1);
		ck_assert_int_eq(tu_place(a, t, f, (uint32_t) h, out), 0);
		ck_block(t, out, (uint32_t) h, 1, h);
		for (i = 0; i < (uint32_t) h; i++)
			ck_assert_uint_eq(out[i], tu_node(t, 0, (int) i, 0));
		/* one column and two more nodes: the next column from y=0 */
		ck_assert_int_eq(tu_place(a, t, f, (uint32_t) h + 2, out), 0);
		for (i = 0; i < (uint32_t) h + 2; i++)
			ck_assert_uint_eq(out[i], tu_node(t, (int) i / h,
							  (int) i % h, 0));
		/* busy first column: the free list starts at column 1 */
		for (i = 0; i < (uint32_t) h; i++)
			mesh_bitmap_clear(f, tu_node(t, 0, (int) i, 0));
		ck_assert_int_eq(tu_place(a, t, f, 1, out), 0);
		ck_assert_uint_eq(out[0], tu_node(t, 1, 0, 0));
		mesh_bitmap_destroy(f);
		mesh_alloc_destroy(a);
		mesh_topo_destroy(t);
	}
}
END_TEST

START_TEST(test_mbs_octet_3d_cubes_then_unit_slab)
{
	/* 5x4x4: one 4x4x4 cube, the x=4 slab in 1x1x1 blocks. */
	struct mesh_topo *t = tu_topo("5x4x4");
	struct mesh_allocator *a = tu_allocator(t, "mbs-octet", NULL);
	struct mesh_bitmap *f = tu_all_free(t);
	struct mesh_metrics mm;
	uint32_t out[80];

	ck_assert_int_eq(tu_place(a, t, f, 64, out), 0);
	ck_assert_int_eq(mesh_metrics_compute(t, out, 64, &mm), 0);
	ck_assert(mm.bbox[0] == 4 && mm.bbox[1] == 4 && mm.bbox[2] == 4);
	ck_assert_int_eq(tu_place(a, t, f, 8, out), 0);
	ck_assert_int_eq(mesh_metrics_compute(t, out, 8, &mm), 0);
	ck_assert(mm.bbox[0] == 2 && mm.bbox[1] == 2 && mm.bbox[2] == 2);
	mesh_bitmap_destroy(f);
	mesh_alloc_destroy(a);
	mesh_topo_destroy(t);
}
END_TEST

START_TEST(test_mbs_granular_leftover_edges)
{
	/* Fig. 11 rule (all blocks seek a buddy in every phase, pairs formed
	 * from the low end): on 5x4 the 4x4 block and the 1x4 last column;
	 * on 16x15 (Walker's HPC2N shape) full-width strips 16x8, 16x4,
	 * 16x2, 16x1 -- not the 8x8 top block the paper's text names, which
	 * is what mbs and mbs-layered build there (doc/allocators.md). */
	int tb[64][4], n;
	struct mesh_topo *t = tu_topo("5x4");
	struct mesh_allocator *a = tu_allocator(t, "mbs-granular", NULL);

	n = top_blocks(a, tb, 64);
	ck_assert_int_eq(n, 2);
	ck_assert(has_top(tb, n, 0, 0, 4, 4) && has_top(tb, n, 4, 0, 1, 4));
	mesh_alloc_destroy(a);
	mesh_topo_destroy(t);

	t = tu_topo("16x15");
	a = tu_allocator(t, "mbs-granular", NULL);
	n = top_blocks(a, tb, 64);
	ck_assert_int_eq(n, 4);
	ck_assert(has_top(tb, n, 0, 0, 16, 8) && has_top(tb, n, 0, 8, 16, 4) &&
		  has_top(tb, n, 0, 12, 16, 2) && has_top(tb, n, 0, 14, 16, 1));
	mesh_alloc_destroy(a);
	a = tu_allocator(t, "mbs", NULL);
	n = top_blocks(a, tb, 64);
	/* 2 of 8x8, 4 of 4x4 (y 8..11), 8 of 2x2 (y 12..13), 16 of 1x1 */
	ck_assert_int_eq(n, 30);
	ck_assert(has_top(tb, n, 0, 0, 8, 8) && has_top(tb, n, 8, 0, 8, 8) &&
		  has_top(tb, n, 12, 8, 4, 4) && has_top(tb, n, 14, 12, 2, 2) &&
		  has_top(tb, n, 15, 14, 1, 1));
	mesh_alloc_destroy(a);
	mesh_topo_destroy(t);
}
END_TEST

START_TEST(test_mbs_3d_refused_others_work)
{
	struct mesh_topo *t = tu_topo("4x4x4");
	struct mesh_allocator *a = NULL;
	struct mesh_bitmap *f = tu_all_free(t);
	struct mesh_diag d;
	uint32_t out[64];

	ck_assert_int_eq(mesh_alloc_create(t, "mbs", NULL, &a, &d), MESH_EINVAL);
	a = tu_allocator(t, "mbs-octet", NULL);
	ck_assert_int_eq(tu_place(a, t, f, 8, out), 0);
	mesh_alloc_destroy(a);
	a = tu_allocator(t, "mbs-layered", NULL);
	ck_assert_int_eq(tu_place(a, t, f, 16, out), 0);
	ck_block(t, out, 16, 4, 4);
	mesh_alloc_destroy(a);
	mesh_bitmap_destroy(f);
	mesh_topo_destroy(t);
}
END_TEST

/* ------------------------------------------------ simple and contig */

static const char *const simple_meshes[] = { "16x8", "5x7", "8tx6", "4x6x3",
					     "3tx5x4t" };

START_TEST(test_paging_page1_equals_rowmajor_freelist)
{
	struct mesh_topo *t = tu_topo(simple_meshes[_i]);
	struct mesh_allocator *p = tu_allocator(t, "paging", NULL);
	struct mesh_allocator *p1 = tu_allocator(t, "paging", "page=1");
	struct mesh_allocator *r = tu_allocator(t, "rowmajor-freelist", NULL);
	struct mesh_bitmap *f = tu_all_free(t);
	uint32_t *a = malloc(t->nodes * 4), *b = malloc(t->nodes * 4);
	uint64_t s = 21;
	uint32_t k;
	int trial;

	for (trial = 0; trial < 300; trial++) {
		tu_random_map(f, &s, (int) (tu_rand(&s) % 100));
		if (!mesh_bitmap_count(f))
			continue;
		k = 1 + (uint32_t) (tu_rand(&s) % mesh_bitmap_count(f));
		ck_assert_int_eq(tu_place(r, t, f, k, a), 0);
		ck_assert_int_eq(tu_place(p, t, f, k, b), 0);
		ck_assert(!memcmp(a, b, k * 4));
		ck_assert_int_eq(tu_place(p1, t, f, k, b), 0);
		ck_assert(!memcmp(a, b, k * 4));
	}
	free(a);
	free(b);
	mesh_bitmap_destroy(f);
	mesh_alloc_destroy(p);
	mesh_alloc_destroy(p1);
	mesh_alloc_destroy(r);
	mesh_topo_destroy(t);
}
END_TEST

START_TEST(test_paging_page2_takes_free_pages_first)
{
	struct mesh_topo *t = tu_topo("4x4");
	struct mesh_allocator *p = tu_allocator(t, "paging", "page=2");
	struct mesh_bitmap *f = tu_all_free(t);
	uint32_t out[4];

	mesh_bitmap_clear(f, tu_node(t, 0, 0, 0)); /* first page broken */
	ck_assert_int_eq(tu_place(p, t, f, 4, out), 0);
	ck_block(t, out, 4, 2, 2);
	ck_assert_uint_eq(out[0], tu_node(t, 2, 0, 0));
	mesh_bitmap_destroy(f);
	mesh_alloc_destroy(p);
	mesh_topo_destroy(t);
}
END_TEST

START_TEST(test_random_deterministic_per_seed)
{
	struct mesh_topo *t = tu_topo(simple_meshes[_i]);
	struct mesh_allocator *a = tu_allocator(t, "random", NULL);
	struct mesh_bitmap *f = tu_all_free(t);
	struct mesh_view v = { t, f, NULL, 0 };
	struct mesh_request r;
	uint32_t *x = malloc(t->nodes * 4), *y = malloc(t->nodes * 4);
	int differ = 0, seed;

	memset(&r, 0, sizeof(r));
	r.nodes = t->nodes / 3;
	for (seed = 0; seed < 50; seed++) {
		r.seed = (uint64_t) seed;
		ck_assert_int_eq(mesh_alloc_place(a, &v, &r, x), 0);
		ck_assert_int_eq(mesh_alloc_place(a, &v, &r, y), 0);
		ck_assert(!memcmp(x, y, r.nodes * 4));
		r.seed = (uint64_t) seed + 1000;
		ck_assert_int_eq(mesh_alloc_place(a, &v, &r, y), 0);
		differ += memcmp(x, y, r.nodes * 4) != 0;
	}
	ck_assert_int_ge(differ, 45);
	free(x);
	free(y);
	mesh_bitmap_destroy(f);
	mesh_alloc_destroy(a);
	mesh_topo_destroy(t);
}
END_TEST

START_TEST(test_contig_places_blocks_or_refuses)
{
	static const char *const names[] = { "contig-ff", "contig-bf" };
	struct mesh_topo *t = tu_topo(simple_meshes[_i]);
	struct mesh_bitmap *f = tu_all_free(t);
	uint32_t *out = malloc(t->nodes * 4), k;
	uint64_t s = 8;
	int n, trial, rc;

	for (n = 0; n < 2; n++) {
		struct mesh_allocator *a = tu_allocator(t, names[n], NULL);

		ck_assert(mesh_alloc_flags(a) & MESH_ALLOC_CONTIGUOUS_ONLY);
		for (trial = 0; trial < 200; trial++) {
			struct mesh_metrics m;

			tu_random_map(f, &s, (int) (tu_rand(&s) % 60));
			k = 1 + (uint32_t) (tu_rand(&s) % 12);
			if (mesh_bitmap_count(f) < k)
				continue;
			rc = tu_place(a, t, f, k, out);
			if (rc == MESH_ENOSPC)
				continue;
			ck_assert_int_eq(rc, 0);
			ck_assert_int_eq(mesh_metrics_compute(t, out, k, &m), 0);
			ck_assert_uint_eq(m.nodes_affected, k);
		}
		mesh_alloc_destroy(a);
	}
	free(out);
	mesh_bitmap_destroy(f);
	mesh_topo_destroy(t);
}
END_TEST

START_TEST(test_contig_bf_fills_the_exact_hole)
{
	/* 6x3, column 3 busy: ff takes the 3-wide region's corner, bf the
	 * 2-wide hole that a 2x2 job fits exactly. */
	struct mesh_topo *t = tu_topo("6x3");
	struct mesh_allocator *ff = tu_allocator(t, "contig-ff", NULL);
	struct mesh_allocator *bf = tu_allocator(t, "contig-bf", NULL);
	struct mesh_bitmap *f = tu_all_free(t);
	struct mesh_view v = { t, f, NULL, 0 };
	struct mesh_request r;
	uint32_t out[4];
	int y;

	for (y = 0; y < 3; y++)
		mesh_bitmap_clear(f, tu_node(t, 3, y, 0));
	memset(&r, 0, sizeof(r));
	r.nodes = 4;
	r.shape[0] = r.shape[1] = 2;
	ck_assert_int_eq(mesh_alloc_place(ff, &v, &r, out), 0);
	ck_assert_uint_eq(out[0], tu_node(t, 0, 0, 0));
	ck_assert_int_eq(mesh_alloc_place(bf, &v, &r, out), 0);
	ck_assert_uint_eq(out[0], tu_node(t, 4, 0, 0));
	mesh_bitmap_destroy(f);
	mesh_alloc_destroy(ff);
	mesh_alloc_destroy(bf);
	mesh_topo_destroy(t);
}
END_TEST

/* Issue 9.1: among equally compact boxes, the one whose nodes are
 * consecutive in index order (Slurm's --contiguous, select/linear's
 * n[0-2]): 3 nodes on an empty 4x4 are 0,1,2, not the column 0,4,8; 8
 * nodes are the two full rows 0..7; 4 nodes stay ff's 2x2 block (bf
 * prefers the edge row 0..3, which touches more of the boundary). */
START_TEST(test_contig_prefers_consecutive_indices)
{
	static const char *const names[] = { "contig-ff", "contig-bf" };
	static const struct {
		const char *mesh;
		uint32_t k, first, last;
		int consecutive, n_alloc;
	} cases[] = {
		{ "4x4", 3, 0, 2, 1, 2 },   { "4x4", 8, 0, 7, 1, 2 },
		{ "4x4", 4, 0, 5, 0, 1 },   { "4x4x2", 3, 0, 2, 1, 2 },
		{ "4x4t", 2, 0, 1, 1, 1 },
	};
	uint32_t out[16], i;
	size_t c;
	int n;

	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct mesh_topo *t = tu_topo(cases[c].mesh);
		struct mesh_bitmap *f = tu_all_free(t);

		for (n = 0; n < cases[c].n_alloc; n++) {
			struct mesh_allocator *a = tu_allocator(t, names[n], NULL);

			ck_assert_int_eq(tu_place(a, t, f, cases[c].k, out), 0);
			qsort(out, cases[c].k, sizeof(out[0]), tu_cmp_u32);
			ck_assert_msg(out[0] == cases[c].first &&
					  out[cases[c].k - 1] == cases[c].last,
				      "%s %s k=%u: %u..%u", names[n],
				      cases[c].mesh, cases[c].k, out[0],
				      out[cases[c].k - 1]);
			for (i = 1; cases[c].consecutive && i < cases[c].k; i++)
				ck_assert_uint_eq(out[i], out[i - 1] + 1);
			mesh_alloc_destroy(a);
		}
		mesh_bitmap_destroy(f);
		mesh_topo_destroy(t);
	}
}
END_TEST

/* ------------------------------------------------------------- sl: */

START_TEST(test_sl_prefers_neighbours_ending_together)
{
	/* 9x1: jobs at x=0 (ends 100) and x=8 (ends 500); free 1..3, 5..7,
	 * busy 4 (ends 300).  A job of 3 ending at 480 goes next to x=8. */
	struct mesh_topo *t = tu_topo("9x1");
	struct mesh_allocator *base = tu_allocator(t, "rowmajor-ff", NULL);
	struct mesh_allocator *sl = tu_allocator(t, "sl:rowmajor-ff", NULL);
	struct mesh_bitmap *f = tu_all_free(t);
	double end[9] = { 100, 0, 0, 0, 300, 0, 0, 0, 500 };
	struct mesh_view v = { t, f, end, 50 };
	struct mesh_request r;
	uint32_t out[3];

	mesh_bitmap_clear(f, 0);
	mesh_bitmap_clear(f, 4);
	mesh_bitmap_clear(f, 8);
	memset(&r, 0, sizeof(r));
	r.nodes = 3;
	r.end_time = 480;
	ck_assert(mesh_alloc_flags(sl) & MESH_ALLOC_USES_WALLTIME);
	ck_assert_int_eq(mesh_alloc_place(base, &v, &r, out), 0);
	ck_assert_uint_eq(out[0], 1);
	ck_assert_int_eq(mesh_alloc_place(sl, &v, &r, out), 0);
	ck_assert_uint_eq(out[0], 5);
	r.end_time = 150; /* now the left pair (100, 300) is closer */
	ck_assert_int_eq(mesh_alloc_place(sl, &v, &r, out), 0);
	ck_assert_uint_eq(out[0], 1);
	v.end_time = NULL; /* no end times: the base's answer */
	ck_assert_int_eq(mesh_alloc_place(sl, &v, &r, out), 0);
	ck_assert_uint_eq(out[0], 1);
	mesh_bitmap_destroy(f);
	mesh_alloc_destroy(base);
	mesh_alloc_destroy(sl);
	mesh_topo_destroy(t);
}
END_TEST

/* sl: wraps the contiguous allocators (Tang's SL over least-blocking
 * candidates): the same 9x1 scene, boxes of 3. */
START_TEST(test_sl_wraps_contiguous)
{
	static const char *const bases[] = { "contig-ff", "contig-bf" };
	struct mesh_topo *t = tu_topo("9x1");
	double end[9] = { 100, 0, 0, 0, 300, 0, 0, 0, 500 };
	struct mesh_bitmap *f = tu_all_free(t);
	struct mesh_view v = { t, f, end, 50 };
	struct mesh_request r;
	uint32_t out[3];
	char name[32];
	int i;

	mesh_bitmap_clear(f, 0);
	mesh_bitmap_clear(f, 4);
	mesh_bitmap_clear(f, 8);
	memset(&r, 0, sizeof(r));
	r.nodes = 3;
	for (i = 0; i < 2; i++) {
		struct mesh_allocator *base = tu_allocator(t, bases[i], NULL), *sl;

		snprintf(name, sizeof(name), "sl:%s", bases[i]);
		sl = tu_allocator(t, name, NULL);
		r.end_time = 480;
		ck_assert_int_eq(mesh_alloc_place(base, &v, &r, out), 0);
		ck_assert_uint_eq(out[0], 1);
		ck_assert_int_eq(mesh_alloc_place(sl, &v, &r, out), 0);
		ck_assert_msg(out[0] == 5 && out[2] == 7, "%s: %u..%u", name,
			      out[0], out[2]);
		r.end_time = 150;
		ck_assert_int_eq(mesh_alloc_place(sl, &v, &r, out), 0);
		ck_assert_uint_eq(out[0], 1);
		mesh_alloc_destroy(base);
		mesh_alloc_destroy(sl);
	}
	mesh_bitmap_destroy(f);
	mesh_topo_destroy(t);
}
END_TEST

/* mc1x1 fills its outermost shell greedily (Walker et al.'s reported
 * variant); mc1x1-ordered keeps Mache's in-shell order.  Empty 6x6,
 * k = 14: same centre and shell sum (check_alloc checks the score), but
 * the ordered fill gives pairwise sum 233 and the greedy one 227. */
START_TEST(test_mc1x1_greedy_outer_shell)
{
	struct mesh_topo *t = tu_topo("6x6");
	struct mesh_bitmap *f = tu_all_free(t);
	struct mesh_allocator *g = tu_allocator(t, "mc1x1", NULL);
	struct mesh_allocator *o = tu_allocator(t, "mc1x1-ordered", NULL);
	struct mesh_view v = { t, f, NULL, 0 };
	struct mesh_metrics mg, mo;
	struct mesh_request r;
	uint32_t og[14], oo[14];

	memset(&r, 0, sizeof(r));
	r.nodes = 14;
	ck_assert_int_eq(mesh_alloc_place(g, &v, &r, og), 0);
	ck_assert_int_eq(mesh_alloc_place(o, &v, &r, oo), 0);
	ck_assert_uint_eq(og[0], oo[0]); /* the centre comes first */
	ck_assert_int_eq(mesh_metrics_compute(t, og, 14, &mg), 0);
	ck_assert_int_eq(mesh_metrics_compute(t, oo, 14, &mo), 0);
	ck_assert_uint_eq(mo.sum_pairwise, 233);
	ck_assert_uint_eq(mg.sum_pairwise, 227);
	mesh_alloc_destroy(g);
	mesh_alloc_destroy(o);
	mesh_bitmap_destroy(f);
	mesh_topo_destroy(t);
}
END_TEST

START_TEST(test_sl_create_errors)
{
	struct mesh_topo *t = tu_topo("8x8");
	struct mesh_allocator *a = NULL;
	struct mesh_diag d;
	static const char *const ok[] = { "sl:mc1x1", "sl:mc", "sl:genalg",
					  "sl:mm", "sl:mm-inc", "sl:hilbert-bf",
					  "sl:contig-ff", "sl:contig-bf" };
	int i;

	ck_assert_int_eq(mesh_alloc_create(t, "sl:paging", NULL, &a, &d),
			 MESH_EINVAL);
	ck_assert_int_eq(mesh_alloc_create(t, "sl:nosuch", NULL, &a, &d),
			 MESH_ENOENT);
	ck_assert_int_eq(mesh_alloc_create(t, "sl:sl:mc", NULL, &a, &d),
			 MESH_EINVAL);
	ck_assert_ptr_null(a);
	for (i = 0; i < 8; i++) {
		a = tu_allocator(t, ok[i], NULL);
		ck_assert_str_eq(mesh_alloc_name(a), ok[i]);
		mesh_alloc_destroy(a);
	}
	mesh_topo_destroy(t);
}
END_TEST

#define N(x) ((int) (sizeof(x) / sizeof((x)[0])))

static Suite *paper_suite(void)
{
	Suite *s = suite_create("alloc_paper");
	TCase *tc;

	tc = tcase_create("mc");
	tcase_add_loop_test(tc, test_mc_finds_rectangle_when_one_exists, 0,
			    N(mc_meshes));
	tcase_add_test(tc, test_mc_shape_param_and_bad_shape);
	suite_add_tcase(s, tc);
	tc = tcase_create("io");
	tcase_add_test(tc, test_io_balance_factor_reduces_to_paper);
	tcase_add_test(tc, test_io_link_loads_middle_link_theorem);
	tcase_add_test(tc, test_plas_perfect_balance_from_empty);
	tcase_add_test(tc, test_mce_takes_whole_columns_when_free);
	tcase_add_test(tc, test_io_allocators_need_io_nodes);
	suite_add_tcase(s, tc);
	tc = tcase_create("mbs");
	tcase_add_test(tc, test_mbs_granular_fig11_every_power_of_two);
	tcase_add_test(tc, test_mbs_fig10_hierarchy);
	tcase_add_test(tc, test_mbs_3d_refused_others_work);
	tcase_add_test(tc, test_mbs_octet_2d_unit_blocks_column_order);
	tcase_add_test(tc, test_mbs_octet_3d_cubes_then_unit_slab);
	tcase_add_test(tc, test_mbs_granular_leftover_edges);
	suite_add_tcase(s, tc);
	tc = tcase_create("simple");
	tcase_add_loop_test(tc, test_paging_page1_equals_rowmajor_freelist, 0,
			    N(simple_meshes));
	tcase_add_test(tc, test_paging_page2_takes_free_pages_first);
	tcase_add_loop_test(tc, test_random_deterministic_per_seed, 0,
			    N(simple_meshes));
	tcase_add_loop_test(tc, test_contig_places_blocks_or_refuses, 0,
			    N(simple_meshes));
	tcase_add_test(tc, test_contig_bf_fills_the_exact_hole);
	tcase_add_test(tc, test_contig_prefers_consecutive_indices);
	suite_add_tcase(s, tc);
	tc = tcase_create("sl");
	tcase_add_test(tc, test_sl_prefers_neighbours_ending_together);
	tcase_add_test(tc, test_sl_create_errors);
	tcase_add_test(tc, test_sl_wraps_contiguous);
	tcase_add_test(tc, test_mc1x1_greedy_outer_shell);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(paper_suite());
}

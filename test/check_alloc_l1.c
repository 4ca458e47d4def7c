/* check_alloc_l1.c - Gen-Alg, MM and MM-Inc (the L1-centre allocators)
 * against brute-force versions of their definitions, and MM against
 * Bender et al.'s approximation bound. */
#include <stdio.h>

#include "alloc_internal.h"
#include "testutil.h"

/* ------------------------------------------- Gen-Alg, MM, MM-Inc */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;

	return (x > y) - (x < y);
}

/* Rank of node i's offset from centre c in offset order: z, then y,
 * then x, each from its least offset; a wrapped axis of length L has the
 * offsets -(L - 1) / 2 .. L / 2 (on a mesh: the node index order). */
static uint64_t offset_rank(const struct mesh_topo *t, uint32_t c, uint32_t i)
{
	int a[3], b[3], d, o;
	uint64_t rank = 0;

	mesh_topo_coords(t, c, a);
	mesh_topo_coords(t, i, b);
	for (d = 2; d >= 0; d--) {
		o = b[d] - a[d];
		if (t->wrap[d] && o > t->dim[d] / 2)
			o -= t->dim[d];
		if (t->wrap[d] && o < -((t->dim[d] - 1) / 2))
			o += t->dim[d];
		rank = rank * (uint64_t) (2 * t->dim[d]) +
		       (uint64_t) (o + t->dim[d]);
	}
	return rank;
}

/* The definition, exhaustively: the k free nodes nearest to c by
 * (distance, offset rank); returns their pair sum, writes them sorted
 * to set.  Keys: distance, rank, node in bits 40, 20 and 0 on. */
static uint64_t naive_centre(const struct mesh_topo *t,
			     const struct mesh_bitmap *f, uint32_t c,
			     uint32_t k, uint32_t *set, uint64_t *keys)
{
	uint32_t i, m = 0;

	for (i = 0; i < t->nodes; i++)
		if (mesh_bitmap_test(f, i))
			keys[m++] = (uint64_t) mesh_topo_distance(t, c, i) << 40 |
				    offset_rank(t, c, i) << 20 | i;
	qsort(keys, m, sizeof(*keys), cmp_u64);
	for (i = 0; i < k; i++)
		set[i] = (uint32_t) (keys[i] & 0xfffff);
	qsort(set, k, sizeof(*set), tu_cmp_u32);
	return tu_sum_pairwise(t, set, k);
}

static int mm_centre(const struct mesh_topo *t, const struct mesh_bitmap *f,
		     uint32_t c)
{
	int q[3], r[3], d, ok[3] = { 0, 0, 0 };
	uint32_t i;

	mesh_topo_coords(t, c, q);
	for (i = 0; i < t->nodes; i++) {
		if (!mesh_bitmap_test(f, i))
			continue;
		mesh_topo_coords(t, i, r);
		for (d = 0; d < 3; d++)
			ok[d] |= r[d] == q[d];
	}
	return ok[0] && ok[1] && ok[2];
}

/* Best over candidate centres (mm: medians, else free nodes). */
static uint64_t naive_best(const struct mesh_topo *t,
			   const struct mesh_bitmap *f, uint32_t k, int mm,
			   uint32_t *best_set)
{
	uint32_t c, *set = malloc(k * sizeof(*set));
	uint64_t *keys = malloc(t->nodes * sizeof(*keys)), best = UINT64_MAX, s;

	for (c = 0; c < t->nodes; c++) {
		if (mm ? !mm_centre(t, f, c) : !mesh_bitmap_test(f, c))
			continue;
		s = naive_centre(t, f, c, k, set, keys);
		if (s < best) {
			best = s;
			memcpy(best_set, set, k * sizeof(*set));
		}
	}
	free(set);
	free(keys);
	return best;
}

/* Gen-Alg and MM on mesh, trials random maps each (busy up to busy_max
 * %, k up to kmax): the same set as the exhaustive definition. */
static void match_definition(const char *mesh, uint64_t s, int trials,
			     int busy_max, uint32_t kmax)
{
	static const char *const names[] = { "genalg", "mm" };
	struct mesh_topo *t = tu_topo(mesh);
	struct mesh_bitmap *f = tu_all_free(t);
	uint32_t *out = malloc(t->nodes * sizeof(*out));
	uint32_t *want = malloc(t->nodes * sizeof(*want));
	int trial, n;

	for (n = 0; n < 2; n++) {
		struct mesh_allocator *a = tu_allocator(t, names[n], NULL);

		for (trial = 0; trial < trials; trial++) {
			uint32_t k, nf;

			tu_random_map(f, &s, (int) (tu_rand(&s) %
						    (uint64_t) busy_max));
			nf = mesh_bitmap_count(f);
			if (!nf)
				continue;
			nf = nf < kmax ? nf : kmax;
			k = 1 + (uint32_t) (tu_rand(&s) % nf);
			ck_assert_int_eq(tu_place(a, t, f, k, out), 0);
			qsort(out, k, sizeof(*out), tu_cmp_u32);
			naive_best(t, f, k, n, want);
			ck_assert_msg(!memcmp(out, want, k * sizeof(*out)),
				      "%s on %s k=%u differs from the definition",
				      names[n], mesh, k);
		}
		mesh_alloc_destroy(a);
	}
	free(out);
	free(want);
	mesh_bitmap_destroy(f);
	mesh_topo_destroy(t);
}

static const char *const l1_meshes[] = { "7x6", "5tx6", "6tx5t", "4x3x3",
					 "3tx4x3t", "16x2" };

START_TEST(test_genalg_mm_match_definition)
{
	match_definition(l1_meshes[_i], 3 + (uint64_t) _i, 150, 90,
			 UINT32_MAX);
}
END_TEST

/* Larger maps for the per-slice diamond tables of l1_tables.c: 2D and
 * 3D, mesh and torus (the last two with unrolled copies whose pads, 3
 * to 6, most balls fit), thin slices (24x3, 3x20x2) and square ones; k
 * up to kmax keeps the exhaustive definition affordable. */
static const struct {
	const char *mesh;
	uint32_t kmax;
} l1_large[] = { { "13x11", 143 }, { "9x8x7", 80 }, { "24x3", 72 },
		 { "3x20x2", 60 }, { "11tx9", 60 }, { "7tx6x5t", 60 },
		 { "10x9x4t", 60 }, { "12tx10tx8t", 60 }, { "20tx14t", 80 } };

START_TEST(test_genalg_mm_match_definition_large)
{
	match_definition(l1_large[_i].mesh, 41 + (uint64_t) _i, 12, 95,
			 l1_large[_i].kmax);
}
END_TEST

/* All free: every ball is full, so with k between two ball sizes the
 * last shell is cut and equal sums abound; the shell nodes first in
 * offset order and the lowest centre must win (3D: balls of 1, 7, 25
 * nodes; 2D: 1, 5, 13). */
START_TEST(test_genalg_mm_partial_shell_ties)
{
	static const char *const meshes[] = { "9x8x7", "12x11", "6tx7x5" };
	static const uint32_t ks[] = { 2, 4, 6, 9, 12, 18, 24, 30 };
	static const char *const names[] = { "genalg", "mm" };
	uint32_t out[64], want[64];
	size_t i, j;
	int n;

	for (i = 0; i < sizeof(meshes) / sizeof(meshes[0]); i++) {
		struct mesh_topo *t = tu_topo(meshes[i]);
		struct mesh_bitmap *f = tu_all_free(t);

		for (n = 0; n < 2; n++) {
			struct mesh_allocator *a = tu_allocator(t, names[n], NULL);

			for (j = 0; j < sizeof(ks) / sizeof(ks[0]); j++) {
				ck_assert_int_eq(tu_place(a, t, f, ks[j], out), 0);
				qsort(out, ks[j], sizeof(*out), tu_cmp_u32);
				naive_best(t, f, ks[j], n, want);
				ck_assert_msg(!memcmp(out, want,
						      ks[j] * sizeof(*out)),
					      "%s on %s k=%u", names[n],
					      meshes[i], ks[j]);
			}
			mesh_alloc_destroy(a);
		}
		mesh_bitmap_destroy(f);
		mesh_topo_destroy(t);
	}
}
END_TEST

/* Least pair sum of any k of the free nodes (all subsets). */
static uint64_t brute_opt(const struct mesh_topo *t, const uint32_t *fr,
			  uint32_t nf, uint32_t k, uint32_t *idx,
			  uint32_t depth, uint32_t from, uint32_t *set)
{
	uint64_t best = UINT64_MAX, s;
	uint32_t i;

	if (depth == k) {
		for (i = 0; i < k; i++)
			set[i] = fr[idx[i]];
		return tu_sum_pairwise(t, set, k);
	}
	for (i = from; i + (k - depth) <= nf; i++) {
		idx[depth] = i;
		s = brute_opt(t, fr, nf, k, idx, depth + 1, i + 1, set);
		best = s < best ? s : best;
	}
	return best;
}

static const struct {
	const char *mesh;
	double bound;
} ratio_cases[] = { { "5x5", 7.0 / 4 }, { "6x4", 7.0 / 4 }, { "7x3", 7.0 / 4 },
		    { "3x3x3", 11.0 / 6 }, { "4x3x2", 11.0 / 6 } };

START_TEST(test_mm_within_approximation_bound)
{
	static const char *const names[] = { "mm", "mm-inc", "genalg" };
	struct mesh_topo *t = tu_topo(ratio_cases[_i].mesh);
	struct mesh_bitmap *f = tu_all_free(t);
	struct mesh_allocator *a[3];
	uint32_t fr[64], idx[16], set[16], out[16], nf, k, i;
	uint64_t s = 1234 + (uint64_t) _i, opt, got;
	double worst[3] = { 1, 1, 1 }, r;
	int trial, n;

	for (n = 0; n < 3; n++)
		a[n] = tu_allocator(t, names[n], NULL);
	for (trial = 0; trial < 400; trial++) {
		/* 6..12 free nodes scattered over the mesh */
		nf = 6 + (uint32_t) (tu_rand(&s) % 7);
		mesh_bitmap_fill(f, false);
		for (i = 0; i < nf;) {
			uint32_t x = (uint32_t) (tu_rand(&s) % t->nodes);

			if (!mesh_bitmap_test(f, x)) {
				mesh_bitmap_set(f, x);
				i++;
			}
		}
		for (i = 0, nf = 0; i < t->nodes; i++)
			if (mesh_bitmap_test(f, i))
				fr[nf++] = i;
		k = 2 + (uint32_t) (tu_rand(&s) % 5);
		opt = brute_opt(t, fr, nf, k, idx, 0, 0, set);
		for (n = 0; n < 3; n++) {
			ck_assert_int_eq(tu_place(a[n], t, f, k, out), 0);
			got = tu_sum_pairwise(t, out, k);
			ck_assert(got >= opt);
			r = (double) got / (double) opt;
			worst[n] = r > worst[n] ? r : worst[n];
		}
		ck_assert_msg(worst[0] <= ratio_cases[_i].bound + 1e-9,
			      "MM ratio %.4f", worst[0]);
		ck_assert(worst[1] <= ratio_cases[_i].bound + 1e-9);
		ck_assert(worst[2] <= 2.0);
	}
	printf("approx %s: worst ratio MM %.4f (bound %.4f), MM-Inc %.4f, Gen-Alg %.4f\n",
	       ratio_cases[_i].mesh, worst[0], ratio_cases[_i].bound, worst[1],
	       worst[2]);
	for (n = 0; n < 3; n++)
		mesh_alloc_destroy(a[n]);
	mesh_bitmap_destroy(f);
	mesh_topo_destroy(t);
}
END_TEST

START_TEST(test_mm_inc_never_worse_than_mm)
{
	struct mesh_topo *t = tu_topo("12x10");
	struct mesh_allocator *mm = tu_allocator(t, "mm", NULL),
			      *inc = tu_allocator(t, "mm-inc", NULL);
	struct mesh_bitmap *f = tu_all_free(t);
	uint32_t a[120], b[120], k;
	uint64_t s = 77;
	int trial;

	for (trial = 0; trial < 100; trial++) {
		tu_random_map(f, &s, 60);
		k = 1 + (uint32_t) (tu_rand(&s) % mesh_bitmap_count(f));
		ck_assert_int_eq(tu_place(mm, t, f, k, a), 0);
		ck_assert_int_eq(tu_place(inc, t, f, k, b), 0);
		ck_assert_uint_le(tu_sum_pairwise(t, b, k),
				  tu_sum_pairwise(t, a, k));
	}
	mesh_bitmap_destroy(f);
	mesh_alloc_destroy(mm);
	mesh_alloc_destroy(inc);
	mesh_topo_destroy(t);
}
END_TEST

#define N(x) ((int) (sizeof(x) / sizeof((x)[0])))

static Suite *l1_suite(void)
{
	Suite *s = suite_create("alloc_l1");
	TCase *tc = tcase_create("l1_centres");

	tcase_add_loop_test(tc, test_genalg_mm_match_definition, 0, N(l1_meshes));
	tcase_add_loop_test(tc, test_genalg_mm_match_definition_large, 0,
			    N(l1_large));
	tcase_add_test(tc, test_genalg_mm_partial_shell_ties);
	tcase_add_loop_test(tc, test_mm_within_approximation_bound, 0,
			    N(ratio_cases));
	tcase_add_test(tc, test_mm_inc_never_worse_than_mm);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(l1_suite());
}

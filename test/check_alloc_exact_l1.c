/* check_alloc_exact_l1.c - Gen-Alg and MM return exactly what their
 * definitions give (test/reference_l1.c), decision by decision: on the
 * random maps of check_alloc_exact, with ties and required nodes, on the
 * benchmark's larger meshes, and through each of the fast search's paths
 * (pattern, walk, window, tori). */
#include "exact_util.h"

static int ex_ref_l1(void *ctx, const struct mesh_bitmap *f, uint32_t k, uint32_t *out)
{
	return ref_l1_place(ctx, f, k, out) == UINT64_MAX ? -1 : 0;
}

/* Up to 40 equally good sets, stored one after another. */
struct ex_ties {
	uint32_t *sets, k, n;
};

static int ex_tie_cb(void *ctx, const uint32_t *nodes)
{
	struct ex_ties *e = ctx;

	memcpy(e->sets + (size_t) e->n * e->k, nodes, e->k * sizeof(*nodes));
	return ++e->n == 40;
}

static const char *const l1_names[] = { "genalg", "mm" };

/* Gen-Alg and MM: the same set in the same order as the search before
 * issue 10 (test/reference.c), with and without required nodes, and the
 * same equally good sets in the same order for sl:genalg and sl:mm. */
START_TEST(test_exact_genalg_mm)
{
	struct mesh_topo *t = tu_topo(ex_meshes[_i]);
	struct mesh_bitmap *f = tu_all_free(t), *rest = tu_all_free(t);
	uint32_t *buf = malloc(t->nodes * sizeof(*buf));
	struct ex_ties got, want;
	uint64_t seed = 77 + (uint64_t) _i, best;
	int n, round;

	got.sets = malloc((size_t) 40 * t->nodes * sizeof(*got.sets));
	want.sets = malloc((size_t) 40 * t->nodes * sizeof(*want.sets));
	for (n = 0; n < 2; n++) {
		struct mesh_allocator *a = NULL;
		struct ref_l1near *r = ref_l1_create(t, n);
		struct mesh_diag d;
		char what[64];

		ck_assert_ptr_nonnull(r);
		ck_assert_int_eq(mesh_alloc_create(t, l1_names[n], NULL, &a, &d), 0);
		snprintf(what, sizeof(what), "%s on %s", l1_names[n], ex_meshes[_i]);
		for (round = 0; round < 120; round++) {
			struct mesh_view v = { t, f, NULL, 0 };
			struct mesh_request req;

			ex_compare(a, t, f, rest, &seed, round, ex_ref_l1, r, what);
			/* ties on the map ex_compare drew */
			if (!mesh_bitmap_count(f))
				continue;
			memset(&req, 0, sizeof(req));
			req.nodes = 1 + (uint32_t) (tu_rand(&seed) % mesh_bitmap_count(f));
			got.k = want.k = req.nodes;
			got.n = want.n = 0;
			best = ref_l1_place(r, f, req.nodes, buf);
			ck_assert(best != UINT64_MAX);
			ref_l1_ties(r, f, req.nodes, best, buf, ex_tie_cb, &want);
			ck_assert_int_eq(a->entry->ops->candidates(a, &v, &req, buf, ex_tie_cb, &got), 0);
			ck_assert_msg(got.n == want.n && !memcmp(got.sets, want.sets,
							    (size_t) got.n * got.k * sizeof(*buf)),
				      "%s round %d k=%u: %u tied sets, reference %u (or different)",
				      what, round, req.nodes, got.n, want.n);
		}
		ref_l1_destroy(r);
		mesh_alloc_destroy(a);
	}
	free(got.sets);
	free(want.sets);
	free(buf);
	mesh_bitmap_destroy(rest);
	mesh_bitmap_destroy(f);
	mesh_topo_destroy(t);
}
END_TEST

struct ex_mm_inc {
	struct ref_l1near *mm;
	const struct mesh_topo *t;
};

/* mm-inc by its definition: MM's set from the reference search, then
 * the reference improvement. */
static int ex_ref_mm_inc(void *ctx, const struct mesh_bitmap *f, uint32_t k,
			 uint32_t *out)
{
	struct ex_mm_inc *e = ctx;

	if (ref_l1_place(e->mm, f, k, out) == UINT64_MAX)
		return -1;
	ref_mm_inc_improve(e->t, f, out, k);
	return 0;
}

/* mm-inc: the same set, node for node and in the same order, as MM's
 * reference search followed by the swaps done by their definition, on
 * meshes (where the library finds each swap from the set's corners) and
 * tori (pair by pair), with and without required nodes. */
START_TEST(test_exact_mm_inc)
{
	struct mesh_topo *t = tu_topo(ex_meshes[_i]);
	struct mesh_bitmap *f = tu_all_free(t), *rest = tu_all_free(t);
	struct ex_mm_inc e = { ref_l1_create(t, 1), t };
	struct mesh_allocator *a = NULL;
	struct mesh_diag d;
	uint64_t seed = 91 + (uint64_t) _i;
	char what[64];
	int round;

	ck_assert_ptr_nonnull(e.mm);
	ck_assert_int_eq(mesh_alloc_create(t, "mm-inc", NULL, &a, &d), 0);
	snprintf(what, sizeof(what), "mm-inc on %s", ex_meshes[_i]);
	for (round = 0; round < 60; round++) {
		/* on tori, every third round by the 64-bit pair loop */
		ck_assert_int_eq(mesh__mm_set_narrow_limit(a, round % 3 ? INT32_MAX : 0), 0);
		ex_compare(a, t, f, rest, &seed, round, ex_ref_mm_inc, &e, what);
	}
	ref_l1_destroy(e.mm);
	mesh_alloc_destroy(a);
	mesh_bitmap_destroy(rest);
	mesh_bitmap_destroy(f);
	mesh_topo_destroy(t);
}
END_TEST

/* Gen-Alg and MM (l1_names[0], [1]) on mesh, on `rounds` maps that
 * make_round() draws into f, each asking for the k it returns: the same
 * sets, node for node, as the reference search. */
typedef uint32_t (*l1_round_fn)(struct mesh_bitmap *f, uint32_t nodes,
				int round, uint64_t *seed);

static void l1_exact_rounds(const char *mesh, int rounds, uint64_t seed,
			    l1_round_fn make_round)
{
	struct mesh_topo *t = tu_topo(mesh);
	struct mesh_bitmap *f = tu_all_free(t);
	uint32_t *out = malloc(t->nodes * sizeof(*out));
	uint32_t *want = malloc(t->nodes * sizeof(*want)), j;
	int n, round;

	for (n = 0; n < 2; n++) {
		struct mesh_allocator *a = NULL;
		struct ref_l1near *r = ref_l1_create(t, n);
		struct mesh_diag d;

		ck_assert_ptr_nonnull(r);
		ck_assert_int_eq(mesh_alloc_create(t, l1_names[n], NULL, &a, &d), 0);
		for (round = 0; round < rounds; round++) {
			struct mesh_view v = { t, f, NULL, 0 };
			struct mesh_request req;

			memset(&req, 0, sizeof(req));
			req.nodes = make_round(f, t->nodes, round, &seed);
			ck_assert_int_eq(mesh_alloc_place(a, &v, &req, out), 0);
			ck_assert(ref_l1_place(r, f, req.nodes, want) != UINT64_MAX);
			for (j = 0; j < req.nodes; j++)
				ck_assert_msg(out[j] == want[j], "%s on %s round %d k=%u: out[%u]=%u, reference %u",
					      l1_names[n], mesh, round, req.nodes, j, out[j], want[j]);
		}
		ref_l1_destroy(r);
		mesh_alloc_destroy(a);
	}
	free(out);
	free(want);
	mesh_bitmap_destroy(f);
	mesh_topo_destroy(t);
}

/* 50% busy (rounds 0-2) or 20/50/80% (rounds 3-5), k = 8, 64, 512, 1,
 * 2, 300 (at most the free nodes). */
static uint32_t benchmark_round(struct mesh_bitmap *f, uint32_t nodes,
				int round, uint64_t *seed)
{
	/* 12 and 16: the pattern path's histogram pair sums */
	static const uint32_t ks[] = { 8, 64, 512, 1, 2, 300, 12, 16 };
	static const int occs[] = { 50, 50, 50, 20, 50, 80, 50, 35 };
	int occ = occs[round];
	uint32_t i;

	mesh_bitmap_fill(f, true);
	for (i = 0; i < nodes; i++)
		if (tu_rand(seed) % 100 < (uint64_t) occ)
			mesh_bitmap_clear(f, i);
	return ks[round] < mesh_bitmap_count(f) ? ks[round] : mesh_bitmap_count(f);
}

/* Larger 3D meshes and tori at the benchmark's occupancy and sizes
 * (where the last shell is cut and radii reach 10), plus thin ones. */
START_TEST(test_exact_genalg_mm_large)
{
	/* 70x9x5: x-rows too long for the padded row words, so the shell
	 * walk reads the free map */
	static const char *const meshes[] = { "32x32x32", "20x17x13", "16tx12x10t", "40x6x3", "70x9x5" };

	l1_exact_rounds(meshes[_i], 6, 5 + (uint64_t) _i, benchmark_round);
}
END_TEST

/* 0.6% free: all, half or three quarters of the free nodes. */
static uint32_t sparse_round(struct mesh_bitmap *f, uint32_t nodes, int round,
			     uint64_t *seed)
{
	uint32_t i, k;

	mesh_bitmap_fill(f, false);
	for (i = 0; i < nodes; i++)
		if (tu_rand(seed) % 1000 < 6)
			mesh_bitmap_set(f, i);
	k = mesh_bitmap_count(f);
	return round == 0 ? k : round == 1 ? k / 2 : 3 * k / 4;
}

/* Radii past the line caches' cap (31): a near-full 3D mesh whose few
 * free nodes make balls of radius 20 to 60, so some centres read cached
 * diamonds and others the interleaved tables directly. */
START_TEST(test_exact_genalg_mm_wide_radius)
{
	l1_exact_rounds("24x22x20", 3, 77, sparse_round);
}
END_TEST

/* The fast paths centre by centre against the shell enumeration
 * (mesh__l1near_score()).  A placement shows a wrong score only if it
 * changes the winner, so a fault in a walk or a cache that rarely
 * decides could pass the tests above; here every centre's score must
 * match: by ball patterns or the table path without line caches, and by
 * the table path with them, against its own score + 1 as the bound. */
static void l1_path_rounds(const char *mesh, int rounds, uint64_t seed,
			   l1_round_fn make_round, int patterns_fit_round0)
{
	struct mesh_topo *t = tu_topo(mesh);
	struct mesh_bitmap *f = tu_all_free(t);
	uint64_t *want = malloc(t->nodes * sizeof(*want));
	uint64_t *got = malloc(t->nodes * sizeof(*got));
	uint64_t *above = malloc(t->nodes * sizeof(*above));
	struct mesh__l1near x;
	uint32_t k, i, fits;
	int round, lines, c[3];

	ck_assert_int_eq(mesh__l1near_init(&x, t), 0);
	for (round = 0; round < rounds; round++) {
		k = make_round(f, t->nodes, round, &seed);
		for (i = 0; i < t->nodes; i++) {
			mesh_topo_coords(t, i, c);
			want[i] = mesh__l1near_score(&x, f, c, k, UINT64_MAX,
						     NULL);
			above[i] = want[i] + 1;
		}
		for (lines = 0; lines < 2; lines++) {
			ck_assert_int_eq(mesh__l1near_path_scores(&x, f, k, lines,
								  lines ? above : NULL,
								  got, &fits),
					 0);
			for (i = 0; i < t->nodes; i++)
				ck_assert_msg(got[i] == want[i],
					      "%s round %d k=%u lines=%d centre %u: %llu, enumeration %llu",
					      mesh, round, k, lines, i,
					      (unsigned long long) got[i],
					      (unsigned long long) want[i]);
			/* k = 8 at 50% busy fits patterns almost everywhere */
			if (!lines && round == 0 && patterns_fit_round0)
				ck_assert_uint_gt(fits, t->nodes / 2);
			if (lines)
				ck_assert_uint_eq(fits, 0);
		}
	}
	mesh__l1near_free(&x);
	free(want);
	free(got);
	free(above);
	mesh_bitmap_destroy(f);
	mesh_topo_destroy(t);
}

/* The window (tori with one ring shorter than the others): Gen-Alg's
 * search by l1near.c with the window forced on, forced off and
 * chosen by its estimate, against the reference, set for set and tie
 * for tie.  10tx5tx12t and 12tx7t have an unrolled copy as well;
 * 7x5x4t and 9x11x3t have none (a ring of 4 or 3 pads by 1), so off
 * means the shell enumeration; 13tx6tx9t windows y, and z's pad of 4
 * bounds the window's balls; 11x16tx10t keeps x open; 5tx9tx11t
 * windows x (its rows are copied a bit at a time); 40tx34t is 2D, with
 * pads of 19 and 16 (past the 3D cap of 13); it and 18tx16tx5t
 * (pads 8, 7 and 2) have a near copy as well (pads of at most 7), taken
 * by the estimate, never or always by round.  k runs up to every free
 * node, so balls reach past every pad.  Every window shares its own
 * axis's slice tables between windows (share_tab): interleaved on most,
 * one table per slice on 12tx7t and 40tx34t. */
static const char *const l1_window_meshes[] = { "10tx5tx12t", "12tx7t", "7x5x4t", "9x11x3t",
						"13tx6tx9t", "11x16tx10t", "5tx9tx11t",
						"40tx34t", "18tx16tx5t" };

static int l1_free_pred(const void *ctx, uint32_t node, const int c[3])
{
	(void) c;
	return mesh_bitmap_test(ctx, node);
}

START_TEST(test_exact_l1_window)
{
	const char *mesh = l1_window_meshes[_i];
	struct mesh_topo *t = tu_topo(mesh);
	struct mesh_bitmap *f = tu_all_free(t);
	struct ref_l1near *r = ref_l1_create(t, 0);
	uint32_t *want = malloc(t->nodes * sizeof(*want));
	uint32_t *got = malloc(t->nodes * sizeof(*got));
	struct ex_ties gt, wt;
	struct mesh__l1near x;
	uint64_t seed = 411 + (uint64_t) _i, best, b;
	uint32_t k, free_n;
	int round, mode, windows = 0, nears = 0;

	gt.sets = malloc((size_t) 40 * t->nodes * sizeof(*gt.sets));
	wt.sets = malloc((size_t) 40 * t->nodes * sizeof(*wt.sets));
	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(mesh__l1near_init(&x, t), 0);
	ck_assert_msg(x.win != NULL, "%s: no window", mesh);
	ck_assert_msg(x.win->share_tab != NULL &&
			  x.win->share_tab == x.win->tab[x.win_axis],
		      "%s: the window's own axis has no shared tables", mesh);
	for (round = 0; round < 24; round++) {
		ex_random_map(t, f, &seed, round);
		free_n = mesh_bitmap_count(f);
		if (!free_n)
			continue;
		/* half the rounds large k: balls past the pads */
		k = round % 2 ? free_n - (uint32_t) (tu_rand(&seed) % (1 + free_n / 4))
			      : 1 + (uint32_t) (tu_rand(&seed) % free_n);
		best = ref_l1_place(r, f, k, want);
		ck_assert(best != UINT64_MAX);
		wt.k = k;
		wt.n = 0;
		ref_l1_ties(r, f, k, best, got, ex_tie_cb, &wt);
		/* the near copy by round: estimate, never, always */
		x.near_mode = round % 3 - 1;
		for (mode = -1; mode <= 1; mode++) {
			x.win_mode = mode;
			b = mesh__l1near_best(&x, f, k, l1_free_pred, f, got);
			windows += x.win_on;
			nears += x.near_on;
			ck_assert(!x.near || x.win_on || x.near_on == (x.near_mode > 0) ||
				  !x.near_mode);
			ck_assert_msg(mode == 0 || x.win_on == (mode > 0),
				      "%s round %d: mode %d, window %d", mesh, round, mode, x.win_on);
			ck_assert_msg(b == best && !memcmp(got, want, k * sizeof(*got)),
				      "%s round %d k=%u mode %d: score %llu, reference %llu (or another set)",
				      mesh, round, k, mode, (unsigned long long) b,
				      (unsigned long long) best);
			gt.k = k;
			gt.n = 0;
			ck_assert_int_eq(mesh__l1near_ties(&x, f, k, l1_free_pred, f, best, got,
							   ex_tie_cb, &gt), 0);
			ck_assert_msg(gt.n == wt.n && !memcmp(gt.sets, wt.sets,
							      (size_t) gt.n * k * sizeof(*got)),
				      "%s round %d k=%u mode %d: %u tied sets, reference %u (or different)",
				      mesh, round, k, mode, gt.n, wt.n);
		}
	}
	/* forced on in up to 24 rounds; more means the estimate chose it */
	ck_assert_int_gt(windows, 24);
	ck_assert(!x.near || nears > 0);
	mesh__l1near_free(&x);
	ref_l1_destroy(r);
	free(gt.sets);
	free(wt.sets);
	free(want);
	free(got);
	mesh_bitmap_destroy(f);
	mesh_topo_destroy(t);
}
END_TEST

/* 60x8x6: walks of radius > 2 read the free map (the padded row words
 * leave 2 cells each side); 70x9x5: every walk does.  Tori go through
 * their unrolled copies: 20tx17tx13t with radii past the Lee-linear
 * radius (3) and the pad (6), so ring pair sums and the enumeration
 * fallback both score; 16tx12x10t with one axis unwrapped; 26tx22t in
 * 2D (patterns of radius 5); 9tx7t and 5tx6 with pads of 2 and 3 (no
 * patterns); 60tx7tx5t with x-rows of 60 + 2 * 13 nodes, copied a bit
 * at a time; 12x16tx13t with x unwrapped (rows copied unshifted);
 * 58x3x3 with x-rows that fill the padded word exactly (58 + 2 * 3),
 * so a row of patterns takes the full 64-lane transposition; 1x9x7 with
 * one-node x-rows. */
static const char *const l1_path_meshes[] = {
	"20x17x13",    "60x8x6",     "70x9x5",	"9x7",	  "33x5",
	"20tx17tx13t", "16tx12x10t", "26tx22t", "9tx7t",  "5tx6",
	"60tx7tx5t",   "12x16tx13t", "58x3x3",	"1x9x7"
};
/* ... and whether k = 8 at 50% fits patterns almost everywhere (tori
 * whose short rings would bend a pattern's pair sums have none) */
static const int l1_path_patterns[] = { 1, 1, 1, 1, 1, 1, 0, 1, 0, 0, 0, 1, 1, 1 };

START_TEST(test_exact_l1_paths)
{
	l1_path_rounds(l1_path_meshes[_i], 8, 31 + (uint64_t) _i,
		       benchmark_round, l1_path_patterns[_i]);
}
END_TEST

/* Radii past the padding, the line caches' cap and the slice count. */
START_TEST(test_exact_l1_paths_sparse)
{
	l1_path_rounds("24x22x20", 3, 78, sparse_round, 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("alloc_exact_l1");
	TCase *maps = exact_case("maps", NULL);
	TCase *paths = exact_case("paths", "paths");

	tcase_add_loop_test(maps, test_exact_genalg_mm, 0,
			    sizeof(ex_meshes) / sizeof(ex_meshes[0]));
	tcase_add_loop_test(maps, test_exact_mm_inc, 0,
			    (int) (sizeof(ex_meshes) / sizeof(ex_meshes[0])));
	tcase_add_test(maps, test_exact_genalg_mm_wide_radius);
	tcase_add_loop_test(maps, test_exact_genalg_mm_large, 0, 5);
	tcase_add_loop_test(paths, test_exact_l1_paths, 0,
			    sizeof(l1_path_meshes) / sizeof(*l1_path_meshes));
	tcase_add_test(paths, test_exact_l1_paths_sparse);
	tcase_add_loop_test(paths, test_exact_l1_window, 0,
			    sizeof(l1_window_meshes) / sizeof(l1_window_meshes[0]));
	suite_add_tcase(s, maps);
	suite_add_tcase(s, paths);
	return tu_run(s);
}

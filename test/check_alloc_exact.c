/* check_alloc_exact.c - the fast allocators return exactly what their
 * definitions give: each is compared, decision by decision, with the
 * straightforward version kept in test/reference.c, on many random free
 * maps (uniform and clustered), on meshes and tori, 2D and 3D, with and
 * without required nodes.  Gen-Alg and MM: check_alloc_exact_l1.c. */
#include "exact_util.h"

static const char *const curve_names[] = { "rowmajor", "snake", "colsnake",
					   "hilbert" };
static const char *const fit_names[] = { "ff", "bf", "sos" };

/* Curve ff, bf, sos on mesh: node for node the definition's answer,
 * over rounds random maps. */
static void exact_curve_fits(const char *mesh, uint64_t seed, int rounds)
{
	struct mesh_topo *t = tu_topo(mesh);
	struct mesh_bitmap *f = tu_all_free(t), *rest = tu_all_free(t);
	uint32_t *out = malloc(t->nodes * sizeof(*out));
	uint32_t *want = malloc(t->nodes * sizeof(*want));
	uint32_t *order = malloc(t->nodes * sizeof(*order));
	uint32_t *scratch = calloc(2 * (size_t) t->nodes + 1, sizeof(*scratch));
	uint32_t nfree, i, r, nreq, required[3];
	int c, fit, round, rc;

	for (c = 0; c < 4; c++) {
		ck_assert_int_eq(mesh_curve_order(t, (enum mesh_curve) c, order), 0);
		for (fit = 0; fit < 3; fit++) {
			struct mesh_allocator *a = NULL;
			struct mesh_diag d;
			char name[32];

			snprintf(name, sizeof(name), "%s-%s", curve_names[c], fit_names[fit]);
			ck_assert_int_eq(mesh_alloc_create(t, name, NULL, &a, &d), 0);
			for (round = 0; round < rounds; round++) {
				struct mesh_view v = { t, f, NULL, 0 };
				struct mesh_request req;

				ex_random_map(t, f, &seed, round);
				nfree = mesh_bitmap_count(f);
				if (!nfree)
					continue;
				memset(&req, 0, sizeof(req));
				req.nodes = 1 + (uint32_t) (tu_rand(&seed) % nfree);
				if (round % 8 == 0)
					req.nodes = 1 + (uint32_t) (tu_rand(&seed) % (nfree < 4 ? nfree : 4));
				if (round % 5 == 4 || round % 15 == 14) { /* k near the longest run */
					uint32_t run = 0, longest = 0;

					for (r = 0; r < t->nodes; r++) {
						run = mesh_bitmap_test(f, order[r]) ? run + 1 : 0;
						longest = run > longest ? run : longest;
					}
					/* exact, one more, or a few less */
					req.nodes = longest + (uint32_t) (round % 10 == 9);
					if (round % 15 == 14 && longest > 8)
						req.nodes = longest - 1 - (uint32_t) (tu_rand(&seed) % 8);
					if (req.nodes > nfree)
						req.nodes = nfree;
				}
				nreq = round % 3 == 0 ? ex_required(t, f, &seed, required, req.nodes) : 0;
				req.required = required;
				req.n_required = nreq;
				mesh_bitmap_copy(rest, f);
				for (i = 0; i < nreq; i++)
					mesh_bitmap_clear(rest, required[i]);
				ck_assert_int_eq(mesh_alloc_place(a, &v, &req, out), 0);
				rc = nreq == req.nodes ? 0
						       : ref_curve_place(t, order, fit_names[fit], rest,
									 req.nodes - nreq, want, scratch);
				ck_assert_int_eq(rc, 0);
				for (i = 0; i < nreq; i++)
					ck_assert_uint_eq(out[i], required[i]);
				for (r = 0; r + nreq < req.nodes; r++)
					ck_assert_msg(out[nreq + r] == want[r],
						      "%s on %s round %d k=%u: out[%u]=%u, definition %u",
						      name, mesh, round, req.nodes, nreq + r,
						      out[nreq + r], want[r]);
			}
			mesh_alloc_destroy(a);
		}
	}
	free(scratch);
	free(order);
	free(want);
	free(out);
	mesh_bitmap_destroy(rest);
	mesh_bitmap_destroy(f);
	mesh_topo_destroy(t);
}

START_TEST(test_exact_curve_fits)
{
	exact_curve_fits(ex_meshes[_i], 7 + (uint64_t) _i, 120);
}
END_TEST

/* The curves' gather plan (alloc_curve.c, nibble_plan) on its edges:
 * on 3x50 the rank words of rowmajor and snake draw on more than 18
 * nibbles, so those curves go by ranks, and colsnake and Hilbert have a
 * plan whose last word is partial; 16x6x6's Hilbert plan needs more
 * than its 128 tables and goes by ranks; 8x24x6's needs exactly 128. */
static const char *const gather_meshes[] = { "3x50", "16x6x6", "8x24x6" };

START_TEST(test_exact_curve_gather_edges)
{
	exact_curve_fits(gather_meshes[_i], 31 + (uint64_t) _i, 60);
}
END_TEST

/* mc1x1's greedy fill (per-axis histograms) picks exactly what the
 * first, distance-by-distance version picks, on random chosen sets and
 * candidate lists (many ties: small meshes, tori); two rounds in three
 * with a window of 2 or 64 buckets, so that far keys wait in the last
 * bucket and the window moves up often. */
START_TEST(test_exact_greedy_fill)
{
	struct mesh_topo *t = tu_topo(ex_meshes[_i]);
	struct mesh__greedy g;
	uint32_t *perm = malloc(t->nodes * sizeof(*perm));
	uint32_t *a = malloc(t->nodes * sizeof(*a)), *b = malloc(t->nodes * sizeof(*b));
	uint32_t i, j, tmp, inner, n, m;
	uint64_t seed = 77 + (uint64_t) _i;
	int round;

	ck_assert_int_eq(mesh__greedy_init(&g, t), 0);
	for (round = 0; round < 200; round++) {
		for (i = 0; i < t->nodes; i++)
			perm[i] = i;
		for (i = t->nodes - 1; i > 0; i--) {
			j = (uint32_t) (tu_rand(&seed) % (i + 1));
			tmp = perm[i], perm[i] = perm[j], perm[j] = tmp;
		}
		inner = (uint32_t) (tu_rand(&seed) % (t->nodes / 2 + 1));
		n = 1 + (uint32_t) (tu_rand(&seed) % (t->nodes - inner));
		m = 1 + (uint32_t) (tu_rand(&seed) % n);
		memcpy(a, perm, inner * sizeof(*a));
		memcpy(b, perm, inner * sizeof(*b));
		memcpy(g.cand, perm + inner, n * sizeof(*g.cand));
		g.window = round % 3 == 0 ? 2 : round % 3 == 1 ? 64 : MESH__GREEDY_WINDOW;
		mesh__greedy_fill(&g, t, n, a, inner, m);
		ref_greedy_fill(t, perm + inner, n, b, inner, m);
		for (i = 0; i < inner + m; i++)
			ck_assert_msg(a[i] == b[i],
				      "%s round %d (window %u): out[%u]=%u, reference %u",
				      ex_meshes[_i], round, g.window, i, a[i], b[i]);
	}
	mesh__greedy_free(&g);
	free(a);
	free(b);
	free(perm);
	mesh_topo_destroy(t);
}
END_TEST

/* Runs of 64 or more that cross 64-bit word boundaries without filling
 * a word: 16x16 row-major (rank = node), free runs 30..99 (70) and
 * 150..214 (65); best fit for k = 65 takes the exact run at 150. */
START_TEST(test_exact_curve_runs_across_words)
{
	struct mesh_topo *t = tu_topo("16x16");
	struct mesh_bitmap *f = tu_all_free(t);
	struct mesh_allocator *a = NULL;
	struct mesh_view v = { t, f, NULL, 0 };
	struct mesh_request req;
	struct mesh_diag d;
	uint32_t out[65], i;

	for (i = 0; i < t->nodes; i++)
		if (!((i >= 30 && i <= 99) || (i >= 150 && i <= 214)))
			mesh_bitmap_clear(f, i);
	memset(&req, 0, sizeof(req));
	req.nodes = 65;
	ck_assert_int_eq(mesh_alloc_create(t, "rowmajor-bf", NULL, &a, &d), 0);
	ck_assert_int_eq(mesh_alloc_place(a, &v, &req, out), 0);
	for (i = 0; i < 65; i++)
		ck_assert_uint_eq(out[i], 150 + i);
	mesh_alloc_destroy(a);
	ck_assert_int_eq(mesh_alloc_create(t, "rowmajor-ff", NULL, &a, &d), 0);
	ck_assert_int_eq(mesh_alloc_place(a, &v, &req, out), 0);
	ck_assert_uint_eq(out[0], 30);
	mesh_alloc_destroy(a);
	mesh_bitmap_destroy(f);
	mesh_topo_destroy(t);
}
END_TEST

/* contig-ff and contig-bf (word boxes where rows fit a word, prefix
 * sums on 70x3 and 70tx3t): box for box the definition's answer; on
 * tori boxes wrap. */
static const char *const contig_meshes[] = {
	"9x7",	  "5x4x3",  "12x3",	 "70x3",	"8x8x8",     "16x16x4",
	"64x2x2", "9tx7t",  "5tx4x3t", "6x5tx4t", "8tx8tx8t", "64tx2x3t",
	"70tx3t", "3tx3tx2t"
};

START_TEST(test_exact_contig)
{
	struct mesh_topo *t = tu_topo(contig_meshes[_i]);
	struct mesh_bitmap *f = tu_all_free(t);
	uint32_t *out = malloc(t->nodes * sizeof(*out));
	uint32_t *want = malloc(t->nodes * sizeof(*want));
	uint64_t seed = 77 + (uint64_t) _i;
	struct mesh_view v = { t, f, NULL, 0 };
	struct mesh_request req;
	int bf, round, rc, rc_ref, placed = 0;
	uint32_t nfree, i;

	for (bf = 0; bf < 2; bf++) {
		struct mesh_allocator *a = NULL;

		ck_assert_int_eq(mesh_alloc_create(t, bf ? "contig-bf" : "contig-ff",
						   NULL, &a, NULL),
				 0);
		for (round = 0; round < 200; round++) {
			ex_random_map(t, f, &seed, round);
			nfree = mesh_bitmap_count(f);
			if (!nfree)
				continue;
			memset(&req, 0, sizeof(req));
			req.nodes = 1 + (uint32_t) (tu_rand(&seed) % (nfree < 16 ? nfree : 16));
			rc = mesh_alloc_place(a, &v, &req, out);
			rc_ref = ref_contig_place(t, f, req.nodes, bf, want);
			ck_assert_msg((rc == 0) == (rc_ref == 0),
				      "%s %s round %d k=%u: rc %d, reference %d",
				      contig_meshes[_i], bf ? "bf" : "ff", round, req.nodes,
				      rc, rc_ref);
			placed += rc == 0;
			for (i = 0; rc == 0 && i < req.nodes; i++)
				ck_assert_msg(out[i] == want[i],
					      "%s %s round %d k=%u: out[%u]=%u, reference %u",
					      contig_meshes[_i], bf ? "bf" : "ff", round,
					      req.nodes, i, out[i], want[i]);
		}
		mesh_alloc_destroy(a);
	}
	ck_assert_int_gt(placed, 50); /* the comparison covered placements */
	free(want);
	free(out);
	mesh_bitmap_destroy(f);
	mesh_topo_destroy(t);
}
END_TEST

static int ex_ref_mbs(void *ctx, const struct mesh_bitmap *f, uint32_t k, uint32_t *out)
{
	return ref_mbs_place(ctx, f, k, out);
}

static const char *const mbs_names[] = { "mbs", "mbs-layered", "mbs-octet", "mbs-granular" };

/* Every buddy system on mesh spec, rounds decisions each against the
 * old code (prefix sums over every block, full free lists): the same
 * blocks in the same order. */
static void ex_buddy(const char *spec, uint64_t seed, int rounds)
{
	struct mesh_topo *t = tu_topo(spec);
	struct mesh_bitmap *f = tu_all_free(t), *rest = tu_all_free(t);
	int b, round;

	for (b = 0; b < 4; b++) {
		struct mesh_allocator *a = NULL;
		struct ref_mbs *r;
		struct mesh_diag d;
		char what[64];

		if (mesh_alloc_create(t, mbs_names[b], NULL, &a, &d)) {
			ck_assert(b == 0 && t->dim[2] > 1); /* mbs is 2D only */
			continue;
		}
		r = ref_mbs_create(a, t);
		ck_assert_ptr_nonnull(r);
		snprintf(what, sizeof(what), "%s on %s", mbs_names[b], spec);
		for (round = 0; round < rounds; round++)
			ex_compare(a, t, f, rest, &seed, round, ex_ref_mbs, r, what);
		ref_mbs_destroy(r);
		mesh_alloc_destroy(a);
	}
	mesh_bitmap_destroy(rest);
	mesh_bitmap_destroy(f);
	mesh_topo_destroy(t);
}

START_TEST(test_exact_buddy)
{
	ex_buddy(ex_meshes[_i], 31 + (uint64_t) _i, 200);
}
END_TEST

/* A key that depends on every axis's distances (out: outside shell 0;
 * near: to the centre), so that the gather must pass them right. */
static uint64_t ex_key(const void *ctx, const struct mesh_topo *t, const int q[3],
		       int s, const int lo[3], const int out[3], const int near[3])
{
	(void) ctx, (void) t, (void) q, (void) s, (void) lo;
	return (uint64_t) (near[0] + 2 * near[1] + 3 * near[2]) << 10 |
	       (uint64_t) (out[0] + 3 * out[1] + 9 * out[2]);
}

static int ex_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;

	return x < y ? -1 : x > y;
}

/* The gathered keys, node by node: every free node within the radius
 * of shell 0 (interval distances from mesh__interval_distance, distances
 * to the centre from mesh_topo_axis_distance), keyed as mesh__mc_gather
 * documents and sorted. */
static void ex_gather_definition(struct mesh__mc *mc, const struct mesh_bitmap *f,
				 const struct mesh__mc_best *best, uint32_t cnt,
				 const char *what, int round)
{
	const struct mesh_topo *t = mc->topo;
	uint64_t *want = malloc((t->nodes + 1) * sizeof(*want));
	int c[3], q[3], lo[3], hi[3], out[3], near[3], d, s;
	uint32_t node, n = 0, j;

	mesh_topo_coords(t, best->centre, c);
	for (d = 0; d < 3; d++) {
		lo[d] = c[d] - best->ext[d] / 2;
		hi[d] = lo[d] + best->ext[d] - 1;
	}
	for (node = 0; node < t->nodes; node++) {
		if (!mesh_bitmap_test(f, node))
			continue;
		mesh_topo_coords(t, node, q);
		for (d = 0, s = 0; d < 3; d++) {
			out[d] = mesh__interval_distance(t, d, q[d], lo[d], hi[d]);
			near[d] = mesh_topo_axis_distance(t, d, q[d], c[d]);
			s = out[d] > s ? out[d] : s;
		}
		if (s <= best->radius)
			want[n++] = (uint64_t) s << 42 |
				    ex_key(NULL, t, q, s, lo, out, near) << 22 | node;
	}
	qsort(want, n, sizeof(*want), ex_cmp_u64);
	ck_assert_msg(n == cnt, "%s round %d: gathered %u nodes, definition %u", what, round,
		      cnt, n);
	for (j = 0; j < n; j++)
		ck_assert_msg(mc->keys[j] == want[j],
			      "%s round %d: key %u is %llx, definition %llx", what, round, j,
			      (unsigned long long) mc->keys[j], (unsigned long long) want[j]);
	free(want);
}

/* The cluster gathered for best: keys as defined (above), at least k
 * free nodes, and the k nodes' shell numbers add up to the cost. */
static void ex_gather_adds_up(struct mesh__mc *mc, const struct mesh_bitmap *f,
			      const struct mesh__mc_best *best, uint32_t k, uint32_t *out,
			      const char *what, int round)
{
	const struct mesh_topo *t = mc->topo;
	uint32_t cnt = mesh__mc_gather(mc, f, best, k, ex_key, NULL, out), j;
	uint64_t sum = 0;
	int c[3], q[3], lo[3], d, x, s;

	ex_gather_definition(mc, f, best, cnt, what, round);
	ck_assert_uint_ge(cnt, k);
	for (j = 1; j < cnt; j++)
		ck_assert_msg(mc->keys[j - 1] < mc->keys[j], "%s round %d: keys not sorted at %u",
			      what, round, j);
	mesh_topo_coords(t, best->centre, c);
	for (d = 0; d < 3; d++)
		lo[d] = c[d] - best->ext[d] / 2;
	for (j = 0; j < k; j++) {
		mesh_topo_coords(t, out[j], q);
		for (d = 0, s = 0; d < 3; d++) {
			x = mesh__interval_distance(t, d, q[d], lo[d], lo[d] + best->ext[d] - 1);
			s = x > s ? x : s;
		}
		sum += (uint64_t) s;
	}
	ck_assert_uint_eq(sum, best->cost);
}

/* MC's search (the shell sweep on meshes, centre by centre on tori)
 * finds the definition's least cost and lowest centre, for several
 * shell-0 shapes, alone and after an earlier orientation's best (which
 * keeps ties); the gathered nodes add up to that cost. */
START_TEST(test_exact_mc_search)
{
	static const int shapes[][3] = { { 1, 1, 1 }, { 2, 2, 1 }, { 2, 2, 2 },
					 { 3, 1, 2 }, { 1, 3, 1 } };
	struct mesh_topo *t = tu_topo(ex_meshes[_i]);
	struct mesh_bitmap *f = tu_all_free(t);
	uint32_t *out = malloc(t->nodes * sizeof(*out)), nfree, k, centre;
	uint64_t seed = 57 + (uint64_t) _i, want, prev;
	struct mesh__mc mc;
	int round, sh;

	ck_assert_int_eq(mesh__mc_init(&mc, t), 0);
	for (round = 0; round < 80; round++) {
		struct mesh__mc_best best;

		ex_random_map(t, f, &seed, round);
		nfree = mesh_bitmap_count(f);
		if (!nfree)
			continue;
		k = 1 + (uint32_t) (tu_rand(&seed) % nfree);
		mesh__mc_prepare(&mc, f);
		best.cost = UINT64_MAX;
		for (sh = 0; sh < 5; sh++) {
			const int *e = shapes[sh];

			if (e[0] > t->dim[0] || e[1] > t->dim[1] || e[2] > t->dim[2])
				continue;
			centre = ref_mc_centre(t, f, e, k, &want);
			prev = best.cost;
			if (round % 2)
				best.cost = UINT64_MAX; /* alone */
			else if (want >= prev)
				want = prev;            /* the earlier shape keeps ties */
			mesh__mc_search(&mc, f, e, k, &best);
			ck_assert_msg(best.cost == want, "%s round %d shape %dx%dx%d k=%u: cost %llu, definition %llu",
				      ex_meshes[_i], round, e[0], e[1], e[2], k,
				      (unsigned long long) best.cost, (unsigned long long) want);
			if (want < prev || round % 2)
				ck_assert_msg(best.centre == centre && !memcmp(best.ext, e, sizeof(best.ext)),
					      "%s round %d shape %dx%dx%d k=%u: centre %u, definition %u",
					      ex_meshes[_i], round, e[0], e[1], e[2], k, best.centre, centre);
			ex_gather_adds_up(&mc, f, &best, k, out, ex_meshes[_i], round);
		}
	}
	mesh__mc_free(&mc);
	free(out);
	mesh_bitmap_destroy(f);
	mesh_topo_destroy(t);
}
END_TEST

/* Larger meshes for the fast paths of issue 10: the MC sweep's bounds
 * and descending pass (clusters of radius 4 and more, many centres) and
 * the buddy systems' word boxes (x-rows within a word, levels scanned
 * past 32 blocks, levels with no free block); 2D and 3D, power-of-2 and
 * not, rows that cross word boundaries (33, 20), and x-rows longer than a
 * word (80: MC's prefix sums, lower-bound rows and free bits in two
 * words; the buddy systems without word boxes). */
static const char *const ex_large[] = { "16x16x8", "33x7x5", "64x6x3", "20x18",
					"12x10x6", "80x6x3" };

/* EXACT_ROUNDS caps the rounds per mesh of the large-mesh searches below
 * (at least min_rounds, so each kind of round still comes): the valgrind
 * pass looks for memory errors, and the plain and sanitizer builds run
 * every round. */
static int large_rounds(int rounds, int min_rounds)
{
	const char *s = getenv("EXACT_ROUNDS");
	int cap = s ? atoi(s) : 0;

	if (cap <= 0 || cap >= rounds)
		return rounds;
	return cap < min_rounds ? min_rounds : cap;
}

/* MC's search on the larger meshes: the definition's least cost and
 * lowest centre, for large and small k; the gathered keys come sorted
 * and add up to the cost. */
static void mc_search_large(const char *mesh, uint64_t seed, int rounds)
{
	static const int shapes[][3] = { { 1, 1, 1 }, { 2, 2, 2 }, { 3, 1, 2 } };
	struct mesh_topo *t = tu_topo(mesh);
	struct mesh_bitmap *f = tu_all_free(t);
	uint32_t *out = malloc(t->nodes * sizeof(*out)), nfree, k, centre;
	uint64_t want;
	struct mesh__mc mc;
	int round, sh;

	ck_assert_int_eq(mesh__mc_init(&mc, t), 0);
	for (round = 0; round < rounds; round++) {
		struct mesh__mc_best best;

		ex_random_map(t, f, &seed, round);
		nfree = mesh_bitmap_count(f);
		if (nfree < 2)
			continue;
		/* mostly large clusters (radius 4 and more), some small */
		k = round % 4 ? nfree / 4 + (uint32_t) (tu_rand(&seed) % (nfree / 2 + 1))
			      : 1 + (uint32_t) (tu_rand(&seed) % 16);
		k = k > nfree ? nfree : k < 1 ? 1 : k;
		mesh__mc_prepare(&mc, f);
		for (sh = 0; sh < 5; sh++) {
			/* On a crop a shape may be longer than the x-rows
			 * (it fits the whole mesh): X + 2 still takes the
			 * lower-bound pass, 3 X the ascending sweep. */
			int longer[3] = { sh == 3 ? t->dim[0] + 2 : 3 * t->dim[0], 1, 1 };
			const int *e = sh < 3 ? shapes[sh] : longer;

			if (sh < 3 && (e[0] > t->dim[0] || e[1] > t->dim[1] || e[2] > t->dim[2]))
				continue;
			centre = ref_mc_centre(t, f, e, k, &want);
			best.cost = UINT64_MAX;
			mesh__mc_search(&mc, f, e, k, &best);
			ck_assert_msg(best.cost == want && best.centre == centre,
				      "%s round %d shape %dx%dx%d k=%u: centre %u cost %llu, definition %u cost %llu",
				      mesh, round, e[0], e[1], e[2], k, best.centre,
				      (unsigned long long) best.cost, centre,
				      (unsigned long long) want);
			ex_gather_adds_up(&mc, f, &best, k, out, mesh, round);
		}
	}
	mesh__mc_free(&mc);
	free(out);
	mesh_bitmap_destroy(f);
	mesh_topo_destroy(t);
}

START_TEST(test_exact_mc_search_large)
{
	/* rounds 0 and 4 ask for small k */
	mc_search_large(ex_large[_i], 91 + (uint64_t) _i, large_rounds(24, 5));
}
END_TEST

/* The same on tori, where the sweep's shells wrap (one axis, two, all
 * three; rings shorter than the shells). */
static const char *const ex_large_tori[] = { "12tx12tx8t", "20tx18t", "12x10tx6t",
					     "33tx7x5", "7tx6tx5t", "4tx9x3t" };

START_TEST(test_exact_mc_search_large_tori)
{
	mc_search_large(ex_large_tori[_i], 191 + (uint64_t) _i, large_rounds(12, 5));
}
END_TEST

/* The buddy systems on the larger meshes, node for node. */
START_TEST(test_exact_buddy_large)
{
	ex_buddy(ex_large[_i], 131 + (uint64_t) _i, large_rounds(60, 1));
}
END_TEST

/* mbs-octet's jump over the levels in its own order (x slowest, z
 * fastest; words of z bits): levels of 2x2x2 and 4x4x4 cubes walked
 * past their first 128 blocks, on a cube and on a mesh that leaves
 * slabs, one allocator over all rounds.  Occupancies near 50% leave a
 * few free cubes, which is when the jump is taken; from map to map, so
 * that a jump table kept from an earlier map would show. */
START_TEST(test_exact_octet_jump)
{
	static const char *const specs[] = { "16x16x16", "20x18x16" };
	static const uint32_t occ[] = { 50, 45, 55, 20, 60, 40 };
	struct mesh_topo *t = tu_topo(specs[_i]);
	struct mesh_bitmap *f = tu_all_free(t);
	uint32_t *out = malloc(t->nodes * sizeof(*out));
	uint32_t *want = malloc(t->nodes * sizeof(*want));
	struct mesh_view v = { t, f, NULL, 0 };
	struct mesh_allocator *a = NULL;
	uint64_t seed = 171 + (uint64_t) _i;
	struct mesh_request req;
	struct ref_mbs *r;
	uint32_t i, nfree;
	int round, rc;

	ck_assert_int_eq(mesh_alloc_create(t, "mbs-octet", NULL, &a, NULL), 0);
	r = ref_mbs_create(a, t);
	ck_assert_ptr_nonnull(r);
	for (round = 0; round < large_rounds(120, 12); round++) {
		mesh_bitmap_fill(f, true);
		for (i = 0; i < t->nodes; i++)
			if (tu_rand(&seed) % 100 < occ[round % 6])
				mesh_bitmap_clear(f, i);
		nfree = mesh_bitmap_count(f);
		memset(&req, 0, sizeof(req));
		req.nodes = 1 + (uint32_t) (tu_rand(&seed) % nfree);
		rc = mesh_alloc_place(a, &v, &req, out);
		ck_assert_int_eq(rc, 0);
		ck_assert_int_eq(ref_mbs_place(r, f, req.nodes, want), 0);
		for (i = 0; i < req.nodes; i++)
			ck_assert_msg(out[i] == want[i],
				      "%s round %d k=%u: out[%u]=%u, reference %u",
				      specs[_i], round, req.nodes, i, out[i],
				      want[i]);
	}
	ref_mbs_destroy(r);
	mesh_alloc_destroy(a);
	free(want);
	free(out);
	mesh_bitmap_destroy(f);
	mesh_topo_destroy(t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("alloc_exact");
	TCase *small = exact_case("small", NULL);
	TCase *large = exact_case("large", "large");

	tcase_add_loop_test(small, test_exact_curve_fits, 0,
			    sizeof(ex_meshes) / sizeof(ex_meshes[0]));
	tcase_add_test(small, test_exact_curve_runs_across_words);
	tcase_add_loop_test(small, test_exact_curve_gather_edges, 0,
			    sizeof(gather_meshes) / sizeof(gather_meshes[0]));
	tcase_add_loop_test(small, test_exact_contig, 0,
			    (int) (sizeof(contig_meshes) / sizeof(contig_meshes[0])));
	tcase_add_loop_test(small, test_exact_greedy_fill, 0,
			    sizeof(ex_meshes) / sizeof(ex_meshes[0]));
	tcase_add_loop_test(small, test_exact_mc_search, 0,
			    sizeof(ex_meshes) / sizeof(ex_meshes[0]));
	tcase_add_loop_test(small, test_exact_buddy, 0,
			    sizeof(ex_meshes) / sizeof(ex_meshes[0]));
	tcase_add_loop_test(large, test_exact_mc_search_large, 0,
			    sizeof(ex_large) / sizeof(ex_large[0]));
	tcase_add_loop_test(large, test_exact_mc_search_large_tori, 0,
			    sizeof(ex_large_tori) / sizeof(ex_large_tori[0]));
	tcase_add_loop_test(large, test_exact_octet_jump, 0, 2);
	tcase_add_loop_test(large, test_exact_buddy_large, 0,
			    sizeof(ex_large) / sizeof(ex_large[0]));
	suite_add_tcase(s, small);
	suite_add_tcase(s, large);
	return tu_run(s);
}

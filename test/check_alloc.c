/* check_alloc.c - the allocator interface, curve fits and MC1x1 on
 * hand-worked free maps (Walker et al. Sec. II and Fig. 1). */
#include "reference.h"
#include "testutil.h"

struct fixture {
	struct mesh_topo *t;
	struct mesh_bitmap *free_map;
	struct mesh_allocator *a;
};

/* pattern: one char per node in index order, '.' free, '#' busy */
static void fx_init(struct fixture *f, const char *mesh, const char *pattern,
		    const char *alloc)
{
	struct mesh_diag d;
	uint32_t i;

	f->t = tu_topo(mesh);
	ck_assert_uint_eq(strlen(pattern), f->t->nodes);
	f->free_map = tu_all_free(f->t);
	for (i = 0; i < f->t->nodes; i++)
		if (pattern[i] == '#')
			mesh_bitmap_clear(f->free_map, i);
	ck_assert_int_eq(mesh_alloc_create(f->t, alloc, NULL, &f->a, &d), 0);
}

static void fx_fini(struct fixture *f)
{
	mesh_alloc_destroy(f->a);
	mesh_bitmap_destroy(f->free_map);
	mesh_topo_destroy(f->t);
}

static int fx_place(struct fixture *f, uint32_t k, uint32_t *out)
{
	struct mesh_request req;
	struct mesh_view v = { f->t, f->free_map, NULL, 0 };

	memset(&req, 0, sizeof(req));
	req.nodes = k;
	return mesh_alloc_place(f->a, &v, &req, out);
}

static const struct fit_case {
	const char *alloc;
	const char *pattern; /* 8x1 row-major: rank == node */
	uint32_t k;
	uint32_t want[4];
} fit_cases[] = {
	/* runs: [0-1] len 2, [3-5] len 3, [7] len 1 */
	{ "rowmajor-freelist", "..#...#.", 1, { 0 } },
	{ "rowmajor-ff", "..#...#.", 1, { 0 } },
	{ "rowmajor-bf", "..#...#.", 1, { 7 } },
	/* SoS: N(1)=N(2)=N(3)=1; using run 7 gives delta -1, runs 0/3 +2 */
	{ "rowmajor-sos", "..#...#.", 1, { 7 } },
	{ "rowmajor-ff", "..#...#.", 2, { 0, 1 } },
	{ "rowmajor-bf", "..#...#.", 2, { 0, 1 } },
	{ "rowmajor-sos", "..#...#.", 2, { 0, 1 } },
	{ "rowmajor-ff", "..#...#.", 3, { 3, 4, 5 } },
	{ "rowmajor-bf", "..#...#.", 3, { 3, 4, 5 } },
	/* runs [0] 1, [3-5] 3, [7] 1; k=2: ff and bf take run 3-5 */
	{ "rowmajor-ff", ".##...#.", 2, { 3, 4 } },
	{ "rowmajor-bf", ".##...#.", 2, { 3, 4 } },
	{ "rowmajor-freelist", ".##...#.", 2, { 0, 3 } },
	/* no run of 4: free ranks 0,3,4,5,7; window 3..7 spans 4 < 5 */
	{ "rowmajor-ff", ".##...#.", 4, { 3, 4, 5, 7 } },
	{ "rowmajor-bf", ".##...#.", 4, { 3, 4, 5, 7 } },
	{ "rowmajor-sos", ".##...#.", 4, { 3, 4, 5, 7 } },
	{ "rowmajor-freelist", ".##...#.", 4, { 0, 3, 4, 5 } },
	/* bf prefers the exact run of 2 at 6-7 over the run of 3 */
	{ "rowmajor-bf", "...#..#.", 1, { 7 } },
	{ "rowmajor-bf", "...#...#", 3, { 0, 1, 2 } },
	{ "rowmajor-bf", "....#..#", 2, { 5, 6 } },
	/* SoS, runs of 4 and 2, k=2: splitting the 4 changes sum N(h)^2 by
	 * -1 + 3 = +2, the exact fit on the 2 by -1: take 5-6 */
	{ "rowmajor-sos", "....#..#", 2, { 5, 6 } },
};

START_TEST(test_alloc_curve_fits)
{
	const struct fit_case *c = &fit_cases[_i];
	struct fixture f;
	uint32_t out[8], i;

	fx_init(&f, "8x1", c->pattern, c->alloc);
	ck_assert_int_eq(fx_place(&f, c->k, out), 0);
	for (i = 0; i < c->k; i++)
		ck_assert_msg(out[i] == c->want[i],
			      "case %d %s: out[%u]=%u want %u", _i, c->alloc, i,
			      out[i], c->want[i]);
	fx_fini(&f);
}
END_TEST

START_TEST(test_alloc_mc1x1_four_blocks)
{
	/* Four 4-node jobs on an empty 4x4 each get a 2x2 block. */
	struct fixture f;
	struct mesh_metrics m;
	uint32_t out[4], job, i;

	fx_init(&f, "4x4", "................", "mc1x1");
	for (job = 0; job < 4; job++) {
		ck_assert_int_eq(fx_place(&f, 4, out), 0);
		ck_assert_int_eq(mesh_metrics_compute(f.t, out, 4, &m), 0);
		ck_assert_uint_eq(m.sum_pairwise, 8);
		ck_assert_int_eq(m.bbox[0], 2);
		ck_assert_int_eq(m.bbox[1], 2);
		for (i = 0; i < 4; i++)
			mesh_bitmap_clear(f.free_map, out[i]);
	}
	ck_assert_uint_eq(mesh_bitmap_count(f.free_map), 0);
	fx_fini(&f);
}
END_TEST

START_TEST(test_alloc_mc1x1_picks_least_shell_sum)
{
	/* 5x5 with a free plus around (3,3) and one stray free node: the
	 * centre (3,3) has 4 free nodes in shell 1 (score 4 for k = 5);
	 * every other centre needs shell 2 (score >= 5). */
	struct fixture f;
	uint32_t out[5], i;
	int seen_centre = 0;
	/* rows y = 0..4, x = 0..4 left to right */
	fx_init(&f, "5x5",
		"#.###"
		"#####"
		"###.#"
		"##..."
		"###.#",
		"mc1x1");
	ck_assert_int_eq(fx_place(&f, 5, out), 0);
	for (i = 0; i < 5; i++)
		seen_centre |= out[i] == tu_node(f.t, 3, 3, 0);
	ck_assert(seen_centre);
	for (i = 0; i < 5; i++)
		ck_assert_int_le(
		    mesh_topo_distance(f.t, out[i], tu_node(f.t, 3, 3, 0)), 1);
	fx_fini(&f);
}
END_TEST

static int linf_shell(const struct mesh_topo *t, uint32_t p, uint32_t q)
{
	int a[3], b[3], d, s = 0;

	mesh_topo_coords(t, p, a);
	mesh_topo_coords(t, q, b);
	for (d = 0; d < 3; d++) {
		int x = mesh_topo_axis_distance(t, d, a[d], b[d]);

		s = x > s ? x : s;
	}
	return s;
}

/* The prefix-sum search picks exactly the definition's centre: the
 * returned nodes' shell numbers around that centre add up to the least
 * score, on meshes and tori, 2D and 3D. */
static const char *const mc_meshes[] = { "9x7", "6tx5t", "5x4x3", "4tx4x4t",
					 "12x3" };

START_TEST(test_alloc_mc1x1_matches_definition)
{
	struct mesh_topo *t = tu_topo(mc_meshes[_i]);
	struct mesh_bitmap *f = tu_all_free(t);
	struct mesh_allocator *a = NULL;
	struct mesh_request req;
	struct mesh_diag d;
	uint32_t *out = malloc(t->nodes * sizeof(*out)), i, centre, nfree;
	uint64_t seed = 99 + (uint64_t) _i, want, got;
	int round;

	ck_assert_int_eq(mesh_alloc_create(t, "mc1x1", NULL, &a, &d), 0);
	for (round = 0; round < 300; round++) {
		struct mesh_view v = { t, f, NULL, 0 };

		mesh_bitmap_fill(f, true);
		nfree = t->nodes;
		for (i = 0; i < t->nodes; i++)
			if (tu_rand(&seed) % 100 < (uint64_t) (round % 90)) {
				mesh_bitmap_clear(f, i);
				nfree--;
			}
		if (!nfree)
			continue;
		memset(&req, 0, sizeof(req));
		req.nodes = 1 + (uint32_t) (tu_rand(&seed) % nfree);
		ck_assert_int_eq(mesh_alloc_place(a, &v, &req, out), 0);
		centre = ref_mc1x1_centre(t, f, req.nodes, &want);
		for (i = 0, got = 0; i < req.nodes; i++)
			got += (uint64_t) linf_shell(t, centre, out[i]);
		ck_assert_msg(
		    got == want,
		    "%s round %d: score %llu around centre %u, definition %llu",
		    mc_meshes[_i], round, (unsigned long long) got, centre,
		    (unsigned long long) want);
	}
	free(out);
	mesh_alloc_destroy(a);
	mesh_bitmap_destroy(f);
	mesh_topo_destroy(t);
}
END_TEST

START_TEST(test_alloc_errors)
{
	struct fixture f;
	struct mesh_allocator *a = NULL;
	struct mesh_diag d;
	uint32_t out[16];

	fx_init(&f, "4x4", "##..............", "snake-bf");
	ck_assert_int_eq(fx_place(&f, 0, out), MESH_EINVAL);
	ck_assert_int_eq(fx_place(&f, 17, out), MESH_EINVAL);
	ck_assert_int_eq(fx_place(&f, 15, out), MESH_ENOSPC);
	ck_assert_int_eq(fx_place(&f, 14, out), 0);
	ck_assert_int_eq(mesh_alloc_create(f.t, "nosuch", NULL, &a, &d),
			 MESH_ENOENT);
	ck_assert_ptr_null(a);
	ck_assert_str_eq(d.field, "allocator");
	ck_assert_int_eq(mesh_alloc_create(f.t, "snake-bf", "bogus=1", &a, &d),
			 MESH_EINVAL);
	ck_assert_ptr_null(a);
	fx_fini(&f);
}
END_TEST

/* The contiguous fallback of the Slurm plugins: a contiguous-only
 * allocator, which on a 4x4 with the two top-left nodes busy places 4 as
 * a full 2x2 block where mc1x1 may return a scattered set. */
START_TEST(test_alloc_create_contiguous)
{
	struct fixture f;
	struct mesh_allocator *c = NULL;
	struct mesh_metrics m;
	struct mesh_request req;
	struct mesh_view v;
	uint32_t out[16];
	int r;

	fx_init(&f, "4x4", "##..#...........", "mc1x1");
	ck_assert_int_eq(mesh_alloc_create_contiguous(f.t, &c), 0);
	ck_assert_ptr_nonnull(c);
	ck_assert(mesh_alloc_flags(c) & MESH_ALLOC_CONTIGUOUS_ONLY);
	for (r = 0; r < 3; r++) {
		memset(&req, 0, sizeof(req));
		req.nodes = (uint32_t) (4 + 2 * r);
		v = (struct mesh_view){ f.t, f.free_map, NULL, 0 };
		ck_assert_int_eq(mesh_alloc_place(c, &v, &req, out), 0);
		ck_assert_int_eq(mesh_metrics_compute(f.t, out, req.nodes, &m),
				 0);
		ck_assert_uint_eq(m.nodes_affected, req.nodes);
	}
	mesh_alloc_destroy(c);
	fx_fini(&f);
}
END_TEST

/* box-first is contig-bf's box when there is one and its pairwise sum is
 * at most 110% of mm-inc's set, else mm-inc's set, exactly; it refuses
 * only a --contiguous job that no free box fits. */
START_TEST(test_alloc_box_first)
{
	static const char *const bad[] = { "box=mc1x1", "else=contig-ff",
					   "else=plas", "else=box-first",
					   "slack=1001", "foo=1" };
	struct mesh_topo *t = tu_topo("4tx4tx4t");
	struct mesh_allocator *bf = NULL, *box = NULL, *other = NULL;
	struct mesh_bitmap *fm = tu_all_free(t);
	struct mesh_view v = { t, fm, NULL, 0 };
	uint32_t out[64], want[64], alt[64], k, nfree, i;
	struct mesh_request req;
	struct mesh_metrics m;
	uint64_t seed = 56;
	struct mesh_diag d;
	int w, rc, boxes = 0, others = 0;

	ck_assert_int_eq(mesh_alloc_create(t, "box-first", NULL, &bf, &d), 0);
	ck_assert_int_eq(mesh_alloc_create(t, "contig-bf", NULL, &box, &d), 0);
	ck_assert_int_eq(mesh_alloc_create(t, "mm-inc", NULL, &other, &d), 0);
	ck_assert(!(mesh_alloc_flags(bf) & (MESH_ALLOC_CONTIGUOUS_ONLY |
					    MESH_ALLOC_USES_WALLTIME)));
	memset(&req, 0, sizeof(req));
	req.nodes = 8; /* the empty torus: a 2x2x2 cube, not mc1x1's star */
	ck_assert_int_eq(mesh_alloc_place(bf, &v, &req, out), 0);
	ck_assert_int_eq(mesh_metrics_compute(t, out, 8, &m), 0);
	ck_assert_uint_eq(m.nodes_affected, 8);
	ck_assert_int_eq(m.bbox[0] * 100 + m.bbox[1] * 10 + m.bbox[2], 222);
	for (w = 0; w < 300; w++) {
		tu_random_map(fm, &seed, 30 + w % 60);
		nfree = mesh_bitmap_count(fm);
		if (!nfree)
			continue;
		req.nodes = k = 1 + (uint32_t) (tu_rand(&seed) % nfree);
		req.flags = 0;
		ck_assert_int_eq(mesh_alloc_place(bf, &v, &req, out), 0);
		rc = mesh_alloc_place(box, &v, &req, want);
		ck_assert(rc == 0 || rc == MESH_ENOSPC);
		ck_assert_int_eq(mesh_alloc_place(other, &v, &req, alt), 0);
		/* the box unless its pairwise sum is over 110% of mm-inc's */
		if (rc || tu_sum_pairwise(t, want, k) * 10 >
			      tu_sum_pairwise(t, alt, k) * 11)
			memcpy(want, alt, k * sizeof(*want));
		for (i = 0; i < k; i++)
			ck_assert_uint_eq(out[i], want[i]);
		boxes += !rc;
		others += !!rc;
		req.flags = MESH_REQ_CONTIGUOUS;
		ck_assert_int_eq(mesh_alloc_place(bf, &v, &req, out), rc);
	}
	ck_assert_int_gt(boxes, 20);
	ck_assert_int_gt(others, 20);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct mesh_allocator *x = NULL;

		ck_assert_int_eq(mesh_alloc_create(t, "box-first", bad[i], &x, &d),
				 MESH_EINVAL);
		ck_assert_ptr_null(x);
	}
	{
		struct mesh_allocator *x = NULL, *y = NULL;

		ck_assert_int_eq(
		    mesh_alloc_create(t, "box-first", "else=nosuch", &x, &d),
		    mesh_alloc_create(t, "nosuch", NULL, &y, &d));
		ck_assert(!x && !y);
	}
	mesh_alloc_destroy(bf);
	ck_assert_int_eq(
	    mesh_alloc_create(t, "box-first", "box=sl:contig-bf", &bf, &d), 0);
	ck_assert(mesh_alloc_flags(bf) & MESH_ALLOC_USES_WALLTIME);
	mesh_alloc_destroy(bf);
	mesh_alloc_destroy(box);
	mesh_alloc_destroy(other);
	mesh_bitmap_destroy(fm);
	mesh_topo_destroy(t);
}
END_TEST

/* Place k nodes with allocator name on t, from busy ('#' per busy node in
 * index order; NULL = all free), io and comm as the job's hints; the node
 * set sorted into out. */
static void place_on(const struct mesh_topo *t, const char *busy,
		     const char *name, double io, enum mesh_comm comm,
		     uint32_t k, uint32_t *out)
{
	struct mesh_allocator *a = NULL;
	struct mesh_bitmap *fm = tu_all_free(t);
	struct mesh_view v = { t, fm, NULL, 0 };
	struct mesh_request req;
	struct mesh_diag d;
	uint32_t i, j, x;

	for (i = 0; busy && i < t->nodes; i++)
		if (busy[i] == '#')
			mesh_bitmap_clear(fm, i);
	ck_assert_int_eq(mesh_alloc_create(t, name, NULL, &a, &d), 0);
	memset(&req, 0, sizeof(req));
	req.nodes = k;
	req.io_intensity = io;
	req.comm = comm;
	ck_assert_int_eq(mesh_alloc_place(a, &v, &req, out), 0);
	for (i = 1; i < k; i++)
		for (j = i; j > 0 && out[j - 1] > out[j]; j--) {
			x = out[j];
			out[j] = out[j - 1];
			out[j - 1] = x;
		}
	mesh_alloc_destroy(a);
	mesh_bitmap_destroy(fm);
}

static void place_sorted(const struct mesh_topo *t, const char *name, double io,
			 uint32_t k, uint32_t *out)
{
	place_on(t, NULL, name, io, MESH_COMM_UNKNOWN, k, out);
}

/* The only free 7-node box is a line (pairwise sum 56); a 3x3 block
 * less one holds sets of 7 at 40.  box-first takes the
 * set; with slack=1000, or for a --contiguous job, the line. */
START_TEST(test_alloc_box_first_slack)
{
	static const char *const busy = "........"
					"########"
					"########"
					"########"
					"####...#"
					"####..##"
					"####...#"
					"########";
	static const struct {
		const char *params;
		unsigned flags;
		int line;
	} cases[] = { { NULL, 0, 0 },
		      { "slack=1000", 0, 1 },
		      { NULL, MESH_REQ_CONTIGUOUS, 1 } };
	struct mesh_topo *t = tu_topo("8x8");
	struct mesh_bitmap *fm = tu_all_free(t);
	struct mesh_view v = { t, fm, NULL, 0 };
	struct mesh_allocator *a;
	struct mesh_request req;
	struct mesh_diag d;
	uint32_t out[7], i, c;

	for (i = 0; i < t->nodes; i++)
		if (busy[i] == '#')
			mesh_bitmap_clear(fm, i);
	for (c = 0; c < 3; c++) {
		a = NULL;
		ck_assert_int_eq(mesh_alloc_create(t, "box-first",
						   cases[c].params, &a, &d),
				 0);
		memset(&req, 0, sizeof(req));
		req.nodes = 7;
		req.flags = cases[c].flags;
		ck_assert_int_eq(mesh_alloc_place(a, &v, &req, out), 0);
		if (cases[c].line)
			ck_assert_uint_eq(tu_sum_pairwise(t, out, 7),
					  56);
		else /* the best 7 of the block's 8 nodes: 40 */
			ck_assert_uint_eq(tu_sum_pairwise(t, out, 7),
					  40);
		mesh_alloc_destroy(a);
	}
	mesh_bitmap_destroy(fm);
	mesh_topo_destroy(t);
}
END_TEST

/* out is k distinct nodes of fm that fill their bounding box: a box.
 * left is fm without them. */
static void assert_free_box(const struct mesh_topo *t,
			    const struct mesh_bitmap *fm, const uint32_t *out,
			    uint32_t k, struct mesh_bitmap *left)
{
	struct mesh_metrics m;
	uint32_t i;

	mesh_bitmap_copy(left, fm);
	for (i = 0; i < k; i++) {
		ck_assert(mesh_bitmap_test(left, out[i]));
		mesh_bitmap_clear(left, out[i]);
	}
	ck_assert_int_eq(mesh_metrics_compute(t, out, k, &m), 0);
	ck_assert_uint_eq((uint32_t) (m.bbox[0] * m.bbox[1] * m.bbox[2]), k);
}

/* The largest free box of fm in which every node is free, by trying
 * every extent and low corner (wrapping where the mesh wraps): the
 * test's own count, independent of contig-bf's prefix sums. */
static uint32_t brute_largest_box(const struct mesh_topo *t,
				  const struct mesh_bitmap *fm)
{
	uint32_t best = 0;
	int e[3], b[3], i[3], q[3], d, ok;

	for (e[2] = 1; e[2] <= t->dim[2]; e[2]++)
		for (e[1] = 1; e[1] <= t->dim[1]; e[1]++)
			for (e[0] = 1; e[0] <= t->dim[0]; e[0]++) {
				uint32_t vol = (uint32_t) (e[0] * e[1] * e[2]);
				int lim[3];

				if (vol <= best)
					continue;
				for (d = 0; d < 3; d++)
					lim[d] = t->wrap[d] && e[d] < t->dim[d]
						     ? t->dim[d] - 1
						     : t->dim[d] - e[d];
				for (b[2] = 0; b[2] <= lim[2]; b[2]++)
				for (b[1] = 0; b[1] <= lim[1]; b[1]++)
				for (b[0] = 0; b[0] <= lim[0] && vol > best; b[0]++) {
					ok = 1;
					for (i[2] = 0; ok && i[2] < e[2]; i[2]++)
					for (i[1] = 0; ok && i[1] < e[1]; i[1]++)
					for (i[0] = 0; ok && i[0] < e[0]; i[0]++) {
						for (d = 0; d < 3; d++)
							q[d] = (b[d] + i[d]) % t->dim[d];
						ok = mesh_bitmap_test(fm, mesh_topo_index(t, q));
					}
					if (ok)
						best = vol;
				}
			}
	return best;
}

/* keep=1: on random maps of 4tx4tx2t, contig-bf's keep=1 answer is a box
 * of k free nodes, each once, found exactly when contig-bf finds one,
 * and no free box of k nodes leaves a larger free box behind (checked
 * against every box of every factorisation by brute force).  On some
 * maps it differs from contig-bf's.  Bad parameter sets are refused. */
START_TEST(test_alloc_contig_keep)
{
	static const struct {
		const char *name, *params;
	} bad[] = { { "contig-ff", "keep=1" },
		    { "contig-bf", "keep=2" },
		    { "contig-bf", "keep=1,align=1" },
		    { "box-first", "box=contig-ff,keep=1" } };
	struct mesh_topo *t = tu_topo("4tx4tx2t"), *big = tu_topo("17x16x16");
	struct mesh_bitmap *fm = tu_all_free(t), *left = tu_all_free(t);
	struct mesh_view v = { t, fm, NULL, 0 };
	struct mesh_allocator *plain = NULL, *keep = NULL, *bf = NULL, *a;
	struct mesh_request req;
	struct mesh_diag d;
	uint32_t out[32], ref[32], bfo[32], i, k, after, best;
	uint64_t seed = 5602;
	int rc, w, found = 0, differ = 0, e[3], b[3], c[3], q[3], dd;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		a = NULL;
		ck_assert_int_eq(mesh_alloc_create(t, bad[i].name,
						   bad[i].params, &a, &d),
				 MESH_EINVAL);
		ck_assert_ptr_null(a);
	}
	a = NULL; /* 4,352 nodes: above keep's bound */
	ck_assert_int_eq(mesh_alloc_create(big, "contig-bf", "keep=1", &a, &d),
			 MESH_EINVAL);
	ck_assert_ptr_null(a);
	ck_assert_int_eq(mesh_alloc_create(t, "contig-bf", NULL, &plain, &d),
			 0);
	ck_assert_int_eq(mesh_alloc_create(t, "contig-bf", "keep=1", &keep,
					   &d),
			 0);
	ck_assert_int_eq(mesh_alloc_create(t, "box-first", "keep=1", &bf, &d),
			 0);
	memset(&req, 0, sizeof(req));
	for (w = 0; w < 200; w++) {
		tu_random_map(fm, &seed, 6 + w % 16);
		req.nodes = k = 1 + (uint32_t) (tu_rand(&seed) % 8);
		rc = mesh_alloc_place(plain, &v, &req, ref);
		ck_assert(rc == 0 || rc == MESH_ENOSPC);
		ck_assert_int_eq(mesh_alloc_place(keep, &v, &req, out), rc);
		if (rc)
			continue;
		found++;
		/* box-first with keep=1 takes the same box, or a set its
		 * slack prefers: one with a smaller pairwise sum */
		ck_assert_int_eq(mesh_alloc_place(bf, &v, &req, bfo), 0);
		qsort(bfo, k, sizeof(*bfo), tu_cmp_u32);
		qsort(out, k, sizeof(*out), tu_cmp_u32);
		ck_assert(!memcmp(bfo, out, k * sizeof(*out)) ||
			  tu_sum_pairwise(t, bfo, k) <
				  tu_sum_pairwise(t, out, k));
		assert_free_box(t, fm, out, k, left);
		after = brute_largest_box(t, left);
		/* every free box of k nodes: none leaves more */
		best = 0;
		for (e[0] = 1; e[0] <= t->dim[0]; e[0]++)
		for (e[1] = 1; e[1] <= t->dim[1]; e[1]++)
		for (e[2] = 1; e[2] <= t->dim[2]; e[2]++) {
			if ((uint32_t) (e[0] * e[1] * e[2]) != k)
				continue;
			for (b[0] = 0; b[0] < t->dim[0]; b[0]++)
			for (b[1] = 0; b[1] < t->dim[1]; b[1]++)
			for (b[2] = 0; b[2] < t->dim[2]; b[2]++) {
				int ok = 1;

				mesh_bitmap_copy(left, fm);
				for (c[0] = 0; ok && c[0] < e[0]; c[0]++)
				for (c[1] = 0; ok && c[1] < e[1]; c[1]++)
				for (c[2] = 0; ok && c[2] < e[2]; c[2]++) {
					uint32_t n;

					for (dd = 0; dd < 3; dd++)
						q[dd] = (b[dd] + c[dd]) % t->dim[dd];
					n = mesh_topo_index(t, q);
					ok = mesh_bitmap_test(left, n);
					mesh_bitmap_clear(left, n);
				}
				if (ok) {
					uint32_t l = brute_largest_box(t, left);

					best = l > best ? l : best;
				}
			}
		}
		ck_assert_uint_eq(after, best);
		qsort(ref, k, sizeof(*ref), tu_cmp_u32);
		differ += memcmp(out, ref, k * sizeof(*out)) != 0;
	}
	ck_assert_int_gt(found, 100);
	ck_assert_int_gt(differ, 0);
	mesh_alloc_destroy(plain);
	mesh_alloc_destroy(keep);
	mesh_alloc_destroy(bf);
	mesh_bitmap_destroy(fm);
	mesh_bitmap_destroy(left);
	mesh_topo_destroy(t);
	mesh_topo_destroy(big);
}
END_TEST

/* align=1: on 8x1 with node 0 busy, contig-bf's 2-node box with the most
 * contact is n[1-2] (the busy node; n[6-7] ties at the mesh end and has
 * the higher base), the aligned one with the most contact n[6-7].  On
 * random maps of a torus align=1 finds a box exactly when contig-bf
 * does: k free nodes, each once, whose enclosing box holds k. */
START_TEST(test_alloc_contig_align)
{
	static const struct {
		const char *name, *params;
		uint32_t first;
	} cases[] = { { "contig-bf", NULL, 1 },
		      { "contig-bf", "align=1", 6 },
		      { "sl:contig-bf", "align=1", 6 },
		      { "box-first", NULL, 1 },
		      { "box-first", "align=1", 6 } };
	static const struct {
		const char *name, *params;
	} bad[] = { { "contig-ff", "align=1" },
		    { "contig-bf", "align=2" },
		    { "contig-bf", "align=x" },
		    { "box-first", "box=contig-ff,align=1" },
		    { "box-first", "box=sl:contig-ff,align=1" } };
	struct mesh_topo *t = tu_topo("8x1"), *tt = tu_topo("4tx4tx4t");
	struct mesh_bitmap *fm = tu_all_free(t), *tf = tu_all_free(tt);
	struct mesh_view v = { t, fm, NULL, 0 }, tv = { tt, tf, NULL, 0 };
	struct mesh_allocator *a, *plain = NULL, *al = NULL;
	struct mesh_request req;
	struct mesh_diag d;
	struct mesh_bitmap *left = tu_all_free(tt);
	uint32_t out[64], ref[64], i, k;
	uint64_t seed = 5601;
	int rc, w, found = 0;

	mesh_bitmap_clear(fm, 0);
	memset(&req, 0, sizeof(req));
	req.nodes = 2;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		a = NULL;
		ck_assert_int_eq(mesh_alloc_create(t, cases[i].name,
						   cases[i].params, &a, &d),
				 0);
		ck_assert_int_eq(mesh_alloc_place(a, &v, &req, out), 0);
		qsort(out, 2, sizeof(*out), tu_cmp_u32);
		ck_assert_uint_eq(out[0], cases[i].first);
		ck_assert_uint_eq(out[1], cases[i].first + 1);
		mesh_alloc_destroy(a);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		a = NULL;
		ck_assert_int_eq(mesh_alloc_create(t, bad[i].name,
						   bad[i].params, &a, &d),
				 MESH_EINVAL);
		ck_assert_ptr_null(a);
	}
	ck_assert_int_eq(mesh_alloc_create(tt, "contig-bf", NULL, &plain, &d),
			 0);
	ck_assert_int_eq(mesh_alloc_create(tt, "contig-bf", "align=1", &al,
					   &d),
			 0);
	for (w = 0; w < 300; w++) {
		tu_random_map(tf, &seed, 20 + w % 50);
		req.nodes = k = 1 + (uint32_t) (tu_rand(&seed) % 16);
		rc = mesh_alloc_place(plain, &tv, &req, ref);
		ck_assert(rc == 0 || rc == MESH_ENOSPC);
		ck_assert_int_eq(mesh_alloc_place(al, &tv, &req, out), rc);
		if (rc)
			continue;
		found++;
		assert_free_box(tt, tf, out, k, left);
	}
	ck_assert_int_gt(found, 100);
	mesh_alloc_destroy(plain);
	mesh_alloc_destroy(al);
	mesh_bitmap_destroy(fm);
	mesh_bitmap_destroy(tf);
	mesh_bitmap_destroy(left);
	mesh_topo_destroy(t);
	mesh_topo_destroy(tt);
}
END_TEST

/* wait=1 on 4x4x4: with every other node busy (no two free nodes touch),
 * a 4-node job waits (a 2x2x1 box exists on the empty machine), where
 * box-first places it at once; a 5-node job, which no box holds on
 * 4x4x4, is placed by else= either way.  On the empty machine wait=1
 * gives contig-bf's box; only wait=1 may refuse. */
START_TEST(test_alloc_box_first_wait)
{
	struct mesh_topo *t = tu_topo("4x4x4");
	struct mesh_bitmap *fm = tu_all_free(t);
	struct mesh_view v = { t, fm, NULL, 0 };
	struct mesh_allocator *plain = NULL, *wait = NULL, *box = NULL,
			      *bad = NULL;
	struct mesh_request req;
	struct mesh_diag d;
	uint32_t out[64], want[64], i;
	int x, y, z;

	ck_assert_int_eq(mesh_alloc_create(t, "box-first", NULL, &plain, &d),
			 0);
	ck_assert_int_eq(mesh_alloc_create(t, "box-first", "wait=1", &wait, &d),
			 0);
	ck_assert_int_eq(mesh_alloc_create(t, "contig-bf", NULL, &box, &d), 0);
	ck_assert_int_eq(mesh_alloc_create(t, "box-first", "wait=2", &bad, &d),
			 MESH_EINVAL);
	ck_assert(!(mesh_alloc_flags(plain) & MESH_ALLOC_MAY_REFUSE));
	ck_assert(mesh_alloc_flags(wait) & MESH_ALLOC_MAY_REFUSE);
	memset(&req, 0, sizeof(req));
	req.nodes = 8;
	ck_assert_int_eq(mesh_alloc_place(wait, &v, &req, out), 0);
	ck_assert_int_eq(mesh_alloc_place(box, &v, &req, want), 0);
	for (i = 0; i < 8; i++)
		ck_assert_uint_eq(out[i], want[i]);
	for (z = 0; z < 4; z++)
		for (y = 0; y < 4; y++)
			for (x = 0; x < 4; x++)
				if ((x + y + z) % 2)
					mesh_bitmap_clear(fm, tu_node(t, x, y, z));
	req.nodes = 4;
	ck_assert_int_eq(mesh_alloc_place(plain, &v, &req, out), 0);
	ck_assert_int_eq(mesh_alloc_place(wait, &v, &req, out), MESH_ENOSPC);
	req.nodes = 5;
	ck_assert_int_eq(mesh_alloc_place(box, &v, &req, out), MESH_ENOSPC);
	ck_assert_int_eq(mesh_alloc_place(plain, &v, &req, want), 0);
	ck_assert_int_eq(mesh_alloc_place(wait, &v, &req, out), 0);
	for (i = 0; i < 5; i++) {
		ck_assert(mesh_bitmap_test(fm, out[i]));
		ck_assert_uint_eq(out[i], want[i]);
	}
	req.flags = MESH_REQ_CONTIGUOUS; /* a --contiguous job still waits */
	ck_assert_int_eq(mesh_alloc_place(wait, &v, &req, out), MESH_ENOSPC);
	mesh_alloc_destroy(plain);
	mesh_alloc_destroy(wait);
	mesh_alloc_destroy(box);
	mesh_bitmap_destroy(fm);
	mesh_topo_destroy(t);
}
END_TEST

/* Per-job policy (auto): an I/O-heavy job is placed as plas places it,
 * a compute job as mc1x1 does, and on a mesh with I/O nodes the two
 * placements differ. */
START_TEST(test_alloc_auto_policy)
{
	struct mesh_topo *t = tu_topo("8x8");
	uint32_t io[8], ioh[8], comp[8], nohint[8], plas[8], mc[8], i;
	struct mesh_allocator *a = NULL;
	struct mesh_diag d;
	int differ = 0;

	for (i = 0; i < 8; i++)
		io[i] = i * 8; /* column x = 0 */
	ck_assert_int_eq(mesh_topo_set_io_nodes(t, io, 8), 0);
	place_sorted(t, "auto", 0.9, 8, ioh);
	place_sorted(t, "auto", 0.1, 8, comp);
	place_sorted(t, "auto", -1, 8, nohint);
	place_sorted(t, "plas", 0.9, 8, plas);
	place_sorted(t, "mc1x1", 0.1, 8, mc);
	ck_assert_mem_eq(ioh, plas, sizeof(ioh));
	ck_assert_mem_eq(comp, mc, sizeof(comp));
	ck_assert_mem_eq(nohint, mc, sizeof(nohint));
	for (i = 0; i < 8; i++)
		differ |= ioh[i] != comp[i];
	ck_assert(differ);
	ck_assert_int_eq(mesh_alloc_create(t, "auto", "io=101", &a, &d),
			 MESH_EINVAL);
	ck_assert_int_eq(mesh_alloc_create(t, "auto", "foo=1", &a, &d),
			 MESH_EINVAL);
	mesh_topo_destroy(t);
}
END_TEST

/* Without I/O nodes auto places by the communication pattern alone, and
 * on a torus its compact choice is box-first (a 2x2x2 cube for 8 nodes
 * on the empty 4x4x4 torus). */
START_TEST(test_alloc_auto_topology)
{
	static const struct {
		const char *mesh;
		double io;
		enum mesh_comm comm;
		const char *want;
	} table[] = {
		{ "8x8", 0.9, MESH_COMM_UNKNOWN, "mc1x1" },
		{ "8x8", 0.9, MESH_COMM_ALL_TO_ALL, "mc1x1" },
		{ "8x8", 0.9, MESH_COMM_NONE, "hilbert-bf" },
		{ "8tx8", 0.1, MESH_COMM_UNKNOWN, "box-first" },
		{ "4tx4tx4t", 0.9, MESH_COMM_NEAREST, "box-first" },
		{ "4tx4tx4t", -1, MESH_COMM_UNKNOWN, "box-first" },
		{ "4tx4tx4t", 0.1, MESH_COMM_NONE, "hilbert-bf" },
	};
	struct mesh_topo *t;
	struct mesh_allocator *a = NULL;
	struct mesh_request req;
	struct mesh_metrics m;
	struct mesh_diag d;
	uint32_t got[8], want[8], i;

	memset(&req, 0, sizeof(req));
	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		t = tu_topo(table[i].mesh);
		req.io_intensity = table[i].io;
		req.comm = table[i].comm;
		ck_assert_str_eq(mesh_auto_choice(t, &req, 0.5), table[i].want);
		ck_assert_int_eq(mesh_alloc_create(t, "auto", NULL, &a, &d), 0);
		mesh_alloc_destroy(a);
		mesh_topo_destroy(t);
	}
	t = tu_topo("4tx4tx4t");
	place_on(t, NULL, "auto", 0.9, MESH_COMM_UNKNOWN, 8, got);
	place_on(t, NULL, "box-first", -1, MESH_COMM_UNKNOWN, 8, want);
	ck_assert_mem_eq(got, want, sizeof(got));
	ck_assert_int_eq(mesh_metrics_compute(t, got, 8, &m), 0);
	ck_assert_uint_eq(m.nodes_affected, 8);
	mesh_topo_destroy(t);
}
END_TEST

/* The communication pattern steers auto too (doc/allocators.md): which
 * allocator each combination of hints gets, and that auto places exactly
 * as that allocator does where the choices differ. */
START_TEST(test_alloc_auto_comm)
{
	static const struct {
		double io;
		enum mesh_comm comm;
		const char *want;
	} table[] = {
		{ 0.9, MESH_COMM_UNKNOWN, "plas" },
		{ 0.9, MESH_COMM_NONE, "plas" },
		{ 0.9, MESH_COMM_ALL_TO_ALL, "mc-elongated" },
		{ 0.5, MESH_COMM_NEAREST, "mc-elongated" },
		{ 0.9, MESH_COMM_ONE_TO_ALL, "mc-elongated" },
		{ 0.1, MESH_COMM_NONE, "hilbert-bf" },
		{ -1, MESH_COMM_NONE, "hilbert-bf" },
		{ 0.1, MESH_COMM_ALL_TO_ALL, "mc1x1" },
		{ 0.49, MESH_COMM_NEAREST, "mc1x1" },
		{ 0.1, MESH_COMM_UNKNOWN, "mc1x1" },
		{ -1, MESH_COMM_UNKNOWN, "mc1x1" },
	};
	/* 8x8, I/O column x = 0; rows y = 0..1 free, the rest busy but for
	 * (2..5, 4): a line of 4 that is a whole Hilbert run (ranks 30..33),
	 * where rows 0..1 are runs of 8 */
	static const char frag[] = "........"
				   "........"
				   "########"
				   "########"
				   "##....##"
				   "########"
				   "########"
				   "########";
	struct mesh_topo *t = tu_topo("8x8");
	uint32_t io[8], got[12], want[12], other[12], i;
	struct mesh_request req;

	for (i = 0; i < 8; i++)
		io[i] = i * 8;
	ck_assert_int_eq(mesh_topo_set_io_nodes(t, io, 8), 0);
	memset(&req, 0, sizeof(req));
	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		req.io_intensity = table[i].io;
		req.comm = table[i].comm;
		ck_assert_str_eq(mesh_auto_choice(t, &req, 0.5), table[i].want);
	}
	/* I/O-heavy and communicating: mc-elongated's nodes, not plas's
	 * (on the empty mesh they differ below a whole column: plas centres
	 * 6 nodes in column x = 1, mc-elongated starts them at y = 0) */
	place_on(t, NULL, "auto", 0.9, MESH_COMM_ALL_TO_ALL, 6, got);
	place_on(t, NULL, "mc-elongated", 0.9, MESH_COMM_ALL_TO_ALL, 6, want);
	place_on(t, NULL, "plas", 0.9, MESH_COMM_ALL_TO_ALL, 6, other);
	ck_assert_mem_eq(got, want, 6 * sizeof(got[0]));
	ck_assert(memcmp(got, other, 6 * sizeof(got[0])) != 0);
	/* comm=none fills the line (hilbert-bf's best fit) and leaves the
	 * free rows whole; mc1x1 would take a compact block of them */
	place_on(t, frag, "auto", 0.1, MESH_COMM_NONE, 4, got);
	place_on(t, frag, "hilbert-bf", 0.1, MESH_COMM_NONE, 4, want);
	place_on(t, frag, "mc1x1", 0.1, MESH_COMM_NONE, 4, other);
	ck_assert_mem_eq(got, want, 4 * sizeof(got[0]));
	ck_assert(memcmp(got, other, 4 * sizeof(got[0])) != 0);
	for (i = 0; i < 4; i++)
		ck_assert_uint_eq(got[i], 34 + i);
	ck_assert_uint_lt(other[3], 16);
	/* the same state, a communicating job: mc1x1's compact block */
	place_on(t, frag, "auto", 0.1, MESH_COMM_NEAREST, 4, got);
	ck_assert_mem_eq(got, other, 4 * sizeof(got[0]));
	mesh_topo_destroy(t);
}
END_TEST

START_TEST(test_alloc_required_nodes)
{
	struct fixture f;
	struct mesh_request req;
	struct mesh_view v;
	uint32_t out[4], want = 15, busy = 0, dup[2] = { 9, 9 };

	fx_init(&f, "4x4", "#...............", "mc1x1");
	v.topo = f.t, v.free = f.free_map, v.end_time = NULL, v.now = 0;
	memset(&req, 0, sizeof(req));
	req.nodes = 3;
	req.required = &want;
	req.n_required = 1;
	ck_assert_int_eq(mesh_alloc_place(f.a, &v, &req, out), 0);
	ck_assert(out[0] == 15 || out[1] == 15 || out[2] == 15);
	req.required = &busy;
	ck_assert_int_eq(mesh_alloc_place(f.a, &v, &req, out), MESH_EINVAL);
	req.required = dup;
	req.n_required = 2;
	ck_assert_int_eq(mesh_alloc_place(f.a, &v, &req, out), MESH_EINVAL);
	req.n_required = 4;
	ck_assert_int_eq(mesh_alloc_place(f.a, &v, &req, out), MESH_EINVAL);
	fx_fini(&f);
}
END_TEST

START_TEST(test_alloc_registry_names)
{
	size_t i, n = mesh_alloc_count();
	int found_hilbert_freelist = 0, found_mc1x1 = 0;

	ck_assert_uint_ge(n, 17);
	for (i = 0; i < n; i++) {
		const struct mesh_alloc_info *info = mesh_alloc_describe(i);

		ck_assert_ptr_nonnull(info->name);
		ck_assert(strlen(info->summary) > 10);
		found_hilbert_freelist |=
		    !strcmp(info->name, "hilbert-freelist");
		found_mc1x1 |= !strcmp(info->name, "mc1x1");
	}
	ck_assert(found_hilbert_freelist && found_mc1x1);
	ck_assert_ptr_null(mesh_alloc_describe(n));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("alloc");
	TCase *tc = tcase_create("place");

	tcase_add_loop_test(tc, test_alloc_curve_fits, 0,
			    sizeof(fit_cases) / sizeof(fit_cases[0]));
	tcase_add_test(tc, test_alloc_mc1x1_four_blocks);
	tcase_add_test(tc, test_alloc_mc1x1_picks_least_shell_sum);
	tcase_add_loop_test(tc, test_alloc_mc1x1_matches_definition, 0,
			    sizeof(mc_meshes) / sizeof(mc_meshes[0]));
	tcase_add_test(tc, test_alloc_errors);
	tcase_add_test(tc, test_alloc_create_contiguous);
	tcase_add_test(tc, test_alloc_box_first);
	tcase_add_test(tc, test_alloc_box_first_slack);
	tcase_add_test(tc, test_alloc_contig_align);
	tcase_add_test(tc, test_alloc_contig_keep);
	tcase_add_test(tc, test_alloc_box_first_wait);
	tcase_add_test(tc, test_alloc_required_nodes);
	tcase_add_test(tc, test_alloc_auto_policy);
	tcase_add_test(tc, test_alloc_auto_comm);
	tcase_add_test(tc, test_alloc_auto_topology);
	tcase_add_test(tc, test_alloc_registry_names);
	suite_add_tcase(s, tc);
	return tu_run(s);
}

/* check_property.c - properties every allocator must keep, over random
 * meshes (2D/3D, mesh/torus), random I/O nodes, random occupancy, sizes
 * and required nodes:
 *  - a placement is exactly k distinct free nodes, required ones included;
 *  - a refusal happens only when placement is impossible under the
 *    allocator's own contract (fewer than k free; for contiguous-only
 *    allocators, no free sub-mesh of k nodes; buddy systems may refuse);
 *  - the same inputs give the same answer.
 * At least 10^5 placements by default (see target_cases()).
 * Every allocator in the registry is covered, and every "sl:<name>" that
 * can be created, so new allocators are tested without edits here. */
#include <stdio.h>

#include "testutil.h"

struct world {
	struct mesh_topo *t;
	struct mesh_bitmap *free_map;
	double *end_time;
	uint32_t nfree;
};

static void random_world(struct world *w, uint64_t *seed)
{
	int dim[3], nd = 2 + (int) (tu_rand(seed) % 2), d;
	bool wrap[3];
	uint32_t io[4], i, nio;
	double p;

	do {
		for (d = 0; d < nd; d++) {
			dim[d] = 1 + (int) (tu_rand(seed) % (nd == 2 ? 12 : 6));
			wrap[d] = tu_rand(seed) % 3 == 0;
		}
	} while (dim[0] * dim[1] * (nd == 3 ? dim[2] : 1) < 2);
	ck_assert_int_eq(mesh_topo_create(nd, dim, wrap, &w->t), 0);
	nio = 1 + (uint32_t) (tu_rand(seed) % 4);
	if (nio > w->t->nodes)
		nio = 1;
	for (i = 0; i < nio; i++)
		io[i] = (uint32_t) ((i * w->t->nodes) / nio +
				    tu_rand(seed) % (w->t->nodes / nio));
	ck_assert_int_eq(mesh_topo_set_io_nodes(w->t, io, nio), 0);
	w->free_map = tu_all_free(w->t);
	w->end_time = calloc(w->t->nodes, sizeof(double));
	p = (double) (tu_rand(seed) % 100) / 100.0;
	w->nfree = 0;
	for (i = 0; i < w->t->nodes; i++) {
		if ((double) (tu_rand(seed) % 1000) / 1000.0 < p) {
			mesh_bitmap_clear(w->free_map, i);
			w->end_time[i] = 100 + (double) (tu_rand(seed) % 1000);
		} else {
			w->nfree++;
		}
	}
}

static void free_world(struct world *w)
{
	mesh_bitmap_destroy(w->free_map);
	mesh_topo_destroy(w->t);
	free(w->end_time);
}

/* Is there a free box of exactly k nodes (wrapping on tori)? */
static int box_free(const struct world *w, const int base[3], const int len[3])
{
	int o[3], c[3], d;

	for (o[2] = 0; o[2] < len[2]; o[2]++)
		for (o[1] = 0; o[1] < len[1]; o[1]++)
			for (o[0] = 0; o[0] < len[0]; o[0]++) {
				for (d = 0; d < 3; d++)
					c[d] = (base[d] + o[d]) % w->t->dim[d];
				if (!mesh_bitmap_test(w->free_map, mesh_topo_index(w->t, c)))
					return 0;
			}
	return 1;
}

static int contiguous_block_exists(const struct world *w, uint32_t k)
{
	const struct mesh_topo *t = w->t;
	int len[3], base[3], lim[3], d;

	for (len[0] = 1; len[0] <= t->dim[0]; len[0]++)
		for (len[1] = 1; len[1] <= t->dim[1]; len[1]++)
			for (len[2] = 1; len[2] <= t->dim[2]; len[2]++) {
				if ((uint32_t) (len[0] * len[1] * len[2]) != k)
					continue;
				for (d = 0; d < 3; d++)
					lim[d] = t->wrap[d] ? t->dim[d] : t->dim[d] - len[d] + 1;
				for (base[2] = 0; base[2] < lim[2]; base[2]++)
					for (base[1] = 0; base[1] < lim[1]; base[1]++)
						for (base[0] = 0; base[0] < lim[0]; base[0]++)
							if (box_free(w, base, len))
								return 1;
			}
	return 0;
}

struct tally {
	long placed, refused;
};

static void check_case(struct mesh_allocator *a, const struct world *w,
		       uint64_t *seed, struct tally *tl)
{
	struct mesh_view v = { w->t, w->free_map, w->end_time, 50.0 };
	uint32_t n = w->t->nodes, k, i, req_node;
	uint32_t *out = malloc(n * sizeof(*out)), *again = malloc(n * sizeof(*again));
	char *seen = calloc(n, 1);
	struct mesh_request req;
	int rc, rc2;

	memset(&req, 0, sizeof(req));
	k = 1 + (uint32_t) (tu_rand(seed) % (tu_rand(seed) % 2 ? n : (n + 3) / 4));
	req.nodes = k;
	req.end_time = 50 + (double) (tu_rand(seed) % 1000);
	/* no hint, compute-like, I/O-heavy (the auto policy takes both
	 * branches); derived from k so the random sequence is unchanged */
	req.io_intensity = k % 3 == 0 ? -1 : (k % 3 == 1 ? 0.1 : 0.9);
	req.seed = tu_rand(seed);
	/* sometimes a required node, as Slurm's --nodelist gives */
	req_node = (uint32_t) (tu_rand(seed) % n);
	if (tu_rand(seed) % 8 == 0 && mesh_bitmap_test(w->free_map, req_node)) {
		req.required = &req_node;
		req.n_required = 1;
	}
	rc = mesh_alloc_place(a, &v, &req, out);
	if (rc == 0) {
		tl->placed++;
		for (i = 0; i < k; i++) {
			ck_assert_msg(out[i] < n, "%s: node out of range", mesh_alloc_name(a));
			ck_assert_msg(mesh_bitmap_test(w->free_map, out[i]),
				      "%s: busy node %u", mesh_alloc_name(a), out[i]);
			ck_assert_msg(!seen[out[i]], "%s: duplicate %u", mesh_alloc_name(a), out[i]);
			seen[out[i]] = 1;
		}
		if (req.n_required)
			ck_assert_msg(seen[req_node], "%s: required node missing",
				      mesh_alloc_name(a));
	} else {
		unsigned flags = mesh_alloc_flags(a);

		tl->refused++;
		ck_assert_msg(rc == MESH_ENOSPC, "%s: unexpected %s",
			      mesh_alloc_name(a), mesh_err_name(rc));
		if (w->nfree >= k && !(flags & MESH_ALLOC_MAY_REFUSE) && !req.n_required) {
			ck_assert_msg(flags & MESH_ALLOC_CONTIGUOUS_ONLY,
				      "%s refused k=%u with %u free", mesh_alloc_name(a), k, w->nfree);
			ck_assert_msg(!contiguous_block_exists(w, k),
				      "%s refused k=%u but a free block exists",
				      mesh_alloc_name(a), k);
		}
	}
	rc2 = mesh_alloc_place(a, &v, &req, again);
	ck_assert_int_eq(rc2, rc);
	if (rc == 0)
		ck_assert_msg(!memcmp(out, again, k * sizeof(*out)),
			      "%s: not deterministic", mesh_alloc_name(a));
	free(out);
	free(again);
	free(seen);
}

/* PROPERTY_CASES overrides the count (the valgrind pass uses fewer);
 * PROPERTY_SCALE multiplies the default 10^5. */
static long target_cases(void)
{
	const char *cases = getenv("PROPERTY_CASES");
	const char *s = getenv("PROPERTY_SCALE");
	long v;

	if (cases && atol(cases) > 0)
		return atol(cases);
	v = s ? atol(s) : 1;
	return 100000L * (v > 0 ? v : 1);
}

/* Names to test: the registry plus every sl:<name> that can be made. */
static size_t allocator_names(const struct mesh_topo *t, const char **names,
			      char (*buf)[64], size_t max)
{
	size_t i, n = 0, count = mesh_alloc_count();
	struct mesh_allocator *a;
	struct mesh_diag d;

	for (i = 0; i < count && n < max; i++)
		names[n++] = mesh_alloc_describe(i)->name;
	for (i = 0; i < count && n < max; i++) {
		snprintf(buf[i], 64, "sl:%s", mesh_alloc_describe(i)->name);
		if (mesh_alloc_create(t, buf[i], NULL, &a, &d) == 0) {
			names[n++] = buf[i];
			mesh_alloc_destroy(a);
		}
	}
	return n;
}

START_TEST(test_property_all_allocators)
{
	static const char *names[512];
	static char slbuf[256][64];
	uint64_t seed = 20261121;
	size_t nnames, i;
	long worlds = 0, target = target_cases(), cases = 0;
	struct tally tl = { 0, 0 };
	struct mesh_topo *probe;
	int dim[2] = { 4, 4 }, c;

	ck_assert_int_eq(mesh_topo_create(2, dim, NULL, &probe), 0);
	uint32_t io = 0;
	mesh_topo_set_io_nodes(probe, &io, 1);
	nnames = allocator_names(probe, names, slbuf, 512);
	mesh_topo_destroy(probe);
	while (cases < target) {
		struct world w;

		random_world(&w, &seed);
		worlds++;
		for (i = 0; i < nnames; i++) {
			struct mesh_allocator *a = NULL;
			struct mesh_diag d;
			int rc = mesh_alloc_create(w.t, names[i], NULL, &a, &d);

			/* Some allocators do not apply to some meshes (e.g. 2D
			 * only); they must say so with MESH_EINVAL. */
			if (rc) {
				ck_assert_msg(rc == MESH_EINVAL, "%s: create %s", names[i],
					      mesh_err_name(rc));
				continue;
			}
			for (c = 0; c < 4; c++, cases++)
				check_case(a, &w, &seed, &tl);
			mesh_alloc_destroy(a);
		}
		free_world(&w);
	}
	printf("property: %zu allocators, %ld meshes, %ld cases (%ld placed, %ld refused)\n",
	       nnames, worlds, cases, tl.placed, tl.refused);
	ck_assert_int_ge(cases, target);
	ck_assert_int_gt(tl.placed, tl.refused);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("property");
	TCase *tc = tcase_create("all");

	tcase_set_timeout(tc, 1200);
	tcase_add_test(tc, test_property_all_allocators);
	suite_add_tcase(s, tc);
	return tu_run(s);
}

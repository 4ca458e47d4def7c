/* exact_util.h - what check_alloc_exact and check_alloc_exact_l1 share:
 * the meshes, random free maps (uniform and clustered), required nodes,
 * one decision compared node for node with a reference, and their Check
 * cases. */
#ifndef EXACT_UTIL_H
#define EXACT_UTIL_H

#include "reference.h"
#include "testutil.h"

/* Meshes whose sizes cross 64-bit word boundaries in odd places. */
static const char *const ex_meshes[] = { "9x7",     "6tx5t",   "5x4x3",
					 "4tx4x4t", "12x3",    "70x3",
					 "8x8x8",   "16tx16t", "7x5x4t" };

/* A random free map: uniform at a random occupancy, or busy boxes
 * (clustered, so that long runs and large free blocks occur). */
static inline void ex_random_map(const struct mesh_topo *t,
				 struct mesh_bitmap *f, uint64_t *seed,
				 int round)
{
	uint32_t occ = (uint32_t) (tu_rand(seed) % 96);
	int b, c[3], lo[3], ext[3], d;

	if (round % 2 == 0) {
		tu_random_map(f, seed, (int) occ);
		return;
	}
	mesh_bitmap_fill(f, true);
	for (b = 0; b < 1 + (int) (tu_rand(seed) % 12); b++) {
		for (d = 0; d < 3; d++) {
			lo[d] = (int) (tu_rand(seed) % (uint64_t) t->dim[d]);
			ext[d] = 1 + (int) (tu_rand(seed) %
					    (uint64_t) (t->dim[d] - lo[d]));
		}
		for (c[2] = lo[2]; c[2] < lo[2] + ext[2]; c[2]++)
			for (c[1] = lo[1]; c[1] < lo[1] + ext[1]; c[1]++)
				for (c[0] = lo[0]; c[0] < lo[0] + ext[0];
				     c[0]++)
					mesh_bitmap_clear(
					    f, mesh_topo_index(t, c));
	}
}

/* Up to 3 random free nodes as required nodes; returns how many. */
static inline uint32_t ex_required(const struct mesh_topo *t,
				   const struct mesh_bitmap *f, uint64_t *seed,
				   uint32_t *req, uint32_t k)
{
	uint32_t n = 0, tries, i, j, node;

	for (tries = 0; tries < 20 && n < 3 && n < k; tries++) {
		node = (uint32_t) (tu_rand(seed) % t->nodes);
		for (i = 0, j = 0; i < n; i++)
			j |= req[i] == node;
		if (mesh_bitmap_test(f, node) && !j)
			req[n++] = node;
	}
	return n;
}

/* One random decision of allocator a against the reference: required
 * nodes first, then the reference's answer on the rest, node for node.
 * ref() returns 0 or -1 (cannot serve). */
static inline void ex_compare(struct mesh_allocator *a,
			      const struct mesh_topo *t, struct mesh_bitmap *f,
			      struct mesh_bitmap *rest, uint64_t *seed,
			      int round,
			      int (*ref)(void *ctx, const struct mesh_bitmap *f,
					 uint32_t k, uint32_t *out),
			      void *ctx, const char *what)
{
	uint32_t *out = malloc(t->nodes * sizeof(*out));
	uint32_t *want = malloc(t->nodes * sizeof(*want));
	uint32_t nfree, i, nreq = 0, required[3];
	struct mesh_view v = { t, f, NULL, 0 };
	struct mesh_request req;
	int rc, rc_ref = 0;

	ex_random_map(t, f, seed, round);
	nfree = mesh_bitmap_count(f);
	memset(&req, 0, sizeof(req));
	req.nodes = nfree ? 1 + (uint32_t) (tu_rand(seed) % nfree) : 1;
	if (round % 8 == 0 && nfree)
		req.nodes =
		    1 + (uint32_t) (tu_rand(seed) % (nfree < 4 ? nfree : 4));
	if (round % 3 == 0 && nfree)
		nreq = ex_required(t, f, seed, required, req.nodes);
	req.required = required;
	req.n_required = nreq;
	mesh_bitmap_copy(rest, f);
	for (i = 0; i < nreq; i++)
		mesh_bitmap_clear(rest, required[i]);
	rc = mesh_alloc_place(a, &v, &req, out);
	if (nfree && nreq < req.nodes)
		rc_ref = ref(ctx, rest, req.nodes - nreq, want);
	ck_assert_msg((rc == 0) == (nfree && rc_ref == 0),
		      "%s round %d k=%u: rc %d, reference %d", what, round,
		      req.nodes, rc, rc_ref);
	for (i = 0; rc == 0 && i < req.nodes; i++)
		ck_assert_msg(out[i] ==
				  (i < nreq ? required[i] : want[i - nreq]),
			      "%s round %d k=%u: out[%u]=%u, reference %u",
			      what, round, req.nodes, i, out[i],
			      i < nreq ? required[i] : want[i - nreq]);
	free(want);
	free(out);
}

/* A Check case, tagged or not: test/valgrind-check.sh runs a program's
 * tagged cases side by side, each by its tag, and every untagged one,
 * including any added later, by excluding the tags. */
static inline TCase *exact_case(const char *name, const char *tags)
{
	TCase *tc = tcase_create(name);

	if (tags)
		tcase_set_tags(tc, tags);
	tcase_set_timeout(tc, 60);
	return tc;
}

#endif

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

/* The sum of pairwise distances of nodes[0 .. n - 1] (the test fails if
 * it cannot be computed). */
static inline uint64_t tu_sum_pairwise(const struct mesh_topo *t,
				       const uint32_t *nodes, size_t n)
{
	uint64_t sum = 0;

	ck_assert_int_eq(mesh_metrics_sum_pairwise(t, nodes, n, &sum), 0);
	return sum;
}

/* splitmix64: deterministic test randomness */
static inline uint64_t tu_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* An allocator by name (the test fails if it cannot be made). */
static inline struct mesh_allocator *tu_allocator(const struct mesh_topo *t,
						  const char *name,
						  const char *params)
{
	struct mesh_allocator *a = NULL;
	struct mesh_diag d;

	ck_assert_msg(mesh_alloc_create(t, name, params, &a, &d) == 0,
		      "%s: %s", name, d.message);
	return a;
}

/* f: each node busy with probability busy_pct / 100. */
static inline void tu_random_map(struct mesh_bitmap *f, uint64_t *s,
				 int busy_pct)
{
	uint32_t i;

	mesh_bitmap_fill(f, false);
	for (i = 0; i < f->nbits; i++)
		if ((int) (tu_rand(s) % 100) >= busy_pct)
			mesh_bitmap_set(f, i);
}

/* Places k nodes on free map f with a plain request. */
static inline int tu_place(struct mesh_allocator *a, const struct mesh_topo *t,
			   const struct mesh_bitmap *f, uint32_t k, uint32_t *out)
{
	struct mesh_view v = { t, f, NULL, 0 };
	struct mesh_request r;

	memset(&r, 0, sizeof(r));
	r.nodes = k;
	return mesh_alloc_place(a, &v, &r, out);
}

/* qsort order of uint32_t. */
static inline int tu_cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;

	return (x > y) - (x < y);
}

/* A trace of n jobs: id, submit, runtime, requested time, size (in
 * processors, one per node); free with mesh_swf_free(). */
struct tu_job {
	long id;
	double submit, run, req_time;
	long size;
};

static inline struct mesh_swf_trace *tu_trace(const struct tu_job *js,
					      size_t n)
{
	struct mesh_swf_trace *tr = calloc(1, sizeof(*tr));
	size_t i;

	ck_assert_ptr_nonnull(tr);
	tr->jobs = calloc(n ? n : 1, sizeof(*tr->jobs));
	ck_assert_ptr_nonnull(tr->jobs);
	tr->n = n;
	tr->max_nodes = tr->max_procs = -1;
	for (i = 0; i < n; i++) {
		struct mesh_swf_job *j = &tr->jobs[i];

		j->id = js[i].id;
		j->submit = js[i].submit;
		j->run = js[i].run;
		j->req_time = js[i].req_time;
		j->procs = js[i].size;
		j->req_procs = -1;
		j->line = (long) i + 1;
	}
	return tr;
}

/* The result record of job id (the test fails if it did not start). */
static inline const struct mesh_sim_job *tu_job_of(
    const struct mesh_sim_result *r, long id)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (r->jobs[i].id == id)
			return &r->jobs[i];
	ck_abort_msg("job %ld not started", id);
	return NULL;
}

/* The trace js[0..n) replayed on mesh with allocator alloc. */
static inline struct mesh_sim_result *
tu_simulate(const char *mesh, const char *alloc, const struct tu_job *js,
	    size_t n, const struct mesh_sim_opts *o)
{
	struct mesh_topo *t = tu_topo(mesh);
	struct mesh_swf_trace *tr = tu_trace(js, n);
	struct mesh_allocator *a = NULL;
	struct mesh_sim_result *r = NULL;
	struct mesh_diag d;

	ck_assert_int_eq(mesh_alloc_create(t, alloc, NULL, &a, &d), 0);
	ck_assert_int_eq(mesh_sim_run(t, a, tr, o, &r, &d), 0);
	mesh_alloc_destroy(a);
	mesh_swf_free(tr);
	mesh_topo_destroy(t);
	return r;
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

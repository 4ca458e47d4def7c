/* preempt-bound.c - what select/mesh's preemption search costs under
 * slurmctld's locks, with and without its bound (issue 53.2).
 *
 * The case of the issue: every node of a mesh is held by a preemptable
 * one-node job of one rank (2,000 of them on 50x40), and a k-node job
 * arrives.  The victim search of the plugin's decision core
 * (plugin/core/victims.c) runs with the library's allocator behind the
 * same two callbacks the plugin gives it (free nodes once the victims
 * are gone; a placement then, and its sum of pairwise distances):
 * unbounded, which is what the old code did in this case (its budget,
 * 8m + 256 = 16,256 placements, is never reached here), and with
 * mesh.conf's defaults, PlanMaxPlacements=1024 and PlanMaxTime=0.05.
 * Printed per allocator and k: wall ms of the search, placements,
 * victims, and the placement's sum of pairwise distances (lower is
 * more compact).  One run each; the ratio is what to read.
 *
 * Usage: preempt-bound [MESH]   (default 50x40)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mesh.h"
#include "victims.h"

struct world {
	struct mesh_topo *topo;
	struct mesh_allocator *alloc;
	struct mesh_bitmap *free;
	uint32_t *out, k, m;
};

/* Candidate i holds node i; nothing else is free. */
static uint32_t fill(struct world *w, const bool *victim)
{
	uint32_t i, n = 0;

	mesh_bitmap_fill(w->free, false);
	for (i = 0; i < w->m; i++)
		if (victim[i]) {
			mesh_bitmap_set(w->free, i);
			n++;
		}
	return n;
}

static uint32_t free_nodes(void *ctx, const bool *victim)
{
	return fill(ctx, victim);
}

static int place(void *ctx, const bool *victim, uint64_t *spread)
{
	struct world *w = ctx;
	struct mesh_view v = { w->topo, w->free, NULL, 0 };
	struct mesh_request r;
	struct mesh_metrics mm;

	fill(w, victim);
	memset(&r, 0, sizeof(r));
	r.nodes = w->k;
	r.io_intensity = -1;
	if (mesh_alloc_place(w->alloc, &v, &r, w->out))
		return -1;
	if (spread) {
		if (mesh_metrics_compute(w->topo, w->out, w->k, &mm))
			return -1;
		*spread = mm.sum_pairwise;
	}
	return 0;
}

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double) t.tv_sec * 1e3 + (double) t.tv_nsec * 1e-6;
}

static void run(struct world *w, const char *label, size_t max_places,
		double max_seconds)
{
	struct smc_victims vs;
	uint64_t *rank = calloc(w->m, sizeof(*rank));
	uint32_t *nodes = malloc(w->m * sizeof(*nodes));
	bool *victim = calloc(w->m, sizeof(*victim));
	uint64_t spread = 0;
	uint32_t i, n_v = 0;
	double t0, ms;
	int rc;

	for (i = 0; i < w->m; i++)
		nodes[i] = 1;
	memset(&vs, 0, sizeof(vs));
	vs.m = w->m;
	vs.rank = rank;
	vs.nodes = nodes;
	vs.need = w->k;
	vs.max_places = max_places;
	vs.max_seconds = max_seconds;
	vs.free_nodes = free_nodes;
	vs.place = place;
	vs.ctx = w;
	vs.victim = victim;
	t0 = now_ms();
	rc = smc_choose_victims(&vs);
	ms = now_ms() - t0;
	for (i = 0; i < w->m; i++)
		n_v += victim[i];
	if (!rc)
		place(w, victim, &spread);
	printf("| %s | %u | %s | %.1f | %zu | %s | %u | %llu |\n",
	       mesh_alloc_name(w->alloc), w->k, label, ms, vs.places,
	       vs.cut ? "yes" : "no", n_v, (unsigned long long) spread);
	free(rank);
	free(nodes);
	free(victim);
}

int main(int argc, char **argv)
{
	static const char *const allocs[] = { "mc1x1", "hilbert-bf",
					      "contig-ff" };
	static const uint32_t ks[] = { 4, 16, 64 };
	const char *spec = argc > 1 ? argv[1] : "50x40";
	struct mesh_diag d;
	struct world w;
	size_t a, j;

	memset(&w, 0, sizeof(w));
	if (mesh_topo_parse(spec, &w.topo, &d)) {
		fprintf(stderr, "preempt-bound: %s: %s\n", spec, d.message);
		return 2;
	}
	w.m = w.topo->nodes;
	if (mesh_bitmap_create(w.topo->nodes, &w.free))
		return 1;
	w.out = calloc(w.topo->nodes, sizeof(*w.out));
	printf("%u one-node preemptable jobs of one rank on %s\n\n", w.m, spec);
	printf(
	    "| allocator | k | bound | ms | placements | cut | victims | sum of pairwise distances |\n");
	printf("| --- | ---: | --- | ---: | ---: | --- | ---: | ---: |\n");
	for (a = 0; a < sizeof(allocs) / sizeof(allocs[0]); a++) {
		if (mesh_alloc_create(w.topo, allocs[a], NULL, &w.alloc, &d)) {
			fprintf(stderr, "preempt-bound: %s: %s\n", allocs[a],
				d.message);
			return 2;
		}
		for (j = 0; j < sizeof(ks) / sizeof(ks[0]); j++) {
			w.k = ks[j];
			run(&w, "none", 0, 0);
			run(&w, "1024, 0.05 s", 1024, 0.05);
		}
		mesh_alloc_destroy(w.alloc);
	}
	mesh_bitmap_destroy(w.free);
	mesh_topo_destroy(w.topo);
	free(w.out);
	return 0;
}

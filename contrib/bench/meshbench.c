/* meshbench.c - speed of allocation decisions and of trace replay.
 *
 * For each mesh, occupancy and job size, R random free maps are drawn
 * (seeded, the same for every allocator) and every allocator is timed
 * deciding on each of them; the median microseconds per decision is
 * printed.  Then the NASA iPSC trace (if ../shared/traces is there) is
 * replayed on 16x8 with each allocator and the median wall time printed.
 * Numbers measured side by side in one run are comparable; across runs
 * and machines they are not.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mesh.h"
#include "reference.h"

struct bench_opts {
	const char *meshes[8];
	int nmeshes;
	int occ[4], nocc;
	uint32_t sizes[4];
	int nsizes;
	int maps;         /* random maps per (mesh, occupancy) */
	double budget;    /* seconds per (allocator, mesh, occ, size) */
	const char *only; /* comma-separated allocator list or NULL */
	const char *trace;
	int trace_runs;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t) n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int selected(const struct bench_opts *o, const char *name)
{
	const char *p = o->only;
	size_t len = strlen(name);

	if (!p)
		return 1;
	while (p && *p) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t) (end - p) : strlen(p);

		if (n == len && !strncmp(p, name, n))
			return 1;
		p = end ? end + 1 : NULL;
	}
	return 0;
}

/* I/O nodes for the I/O-aware allocators: the middle of the x = 0 face. */
static void add_io_nodes(struct mesh_topo *t)
{
	uint32_t io[64], n = 0;
	int c[3] = { 0, 0, 0 }, y, z;

	for (z = 0; z < t->dim[2] && n < 64; z++)
		for (y = 0; y < t->dim[1] && n < 64; y += 2) {
			c[1] = y;
			c[2] = z;
			io[n++] = mesh_topo_index(t, c);
		}
	mesh_topo_set_io_nodes(t, io, n);
}

static struct mesh_bitmap **make_maps(const struct mesh_topo *t, int occ,
				      int count, uint64_t seed)
{
	struct mesh_bitmap **maps = calloc((size_t) count, sizeof(*maps));
	uint32_t i, busy,
	    target = (uint32_t) ((uint64_t) t->nodes * (uint64_t) occ / 100);
	int m;

	for (m = 0; m < count; m++) {
		mesh_bitmap_create(t->nodes, &maps[m]);
		mesh_bitmap_fill(maps[m], true);
		for (busy = 0; busy < target;) {
			i = (uint32_t) (rnd(&seed) % t->nodes);
			if (mesh_bitmap_test(maps[m], i)) {
				mesh_bitmap_clear(maps[m], i);
				busy++;
			}
		}
	}
	return maps;
}

static void time_allocator(const struct bench_opts *o, struct mesh_topo *t,
			   struct mesh_bitmap **maps, const char *name, int occ)
{
	struct mesh_allocator *a = NULL;
	struct mesh_diag d;
	uint32_t *out = malloc(t->nodes * sizeof(*out));
	double *samples = malloc((size_t) o->maps * sizeof(double));
	char mesh[32];
	int s, m, n;

	if (mesh_alloc_create(t, name, NULL, &a, &d)) {
		free(out);
		free(samples);
		return;
	}
	printf("%-9s %3d%% %-22s", mesh_topo_format(t, mesh, sizeof(mesh)), occ,
	       name);
	for (s = 0; s < o->nsizes; s++) {
		double start = now_s(), t0;
		struct mesh_request req;

		memset(&req, 0, sizeof(req));
		req.nodes = o->sizes[s];
		req.io_intensity = -1;
		for (m = 0, n = 0; m < o->maps; m++) {
			struct mesh_view v = { t, maps[m], NULL, 0 };
			int rc;

			req.seed = (uint64_t) m;
			t0 = now_s();
			rc = mesh_alloc_place(a, &v, &req, out);
			samples[n] = (now_s() - t0) * 1e6;
			if (rc == 0)
				n++;
			if (now_s() - start > o->budget && n >= 3)
				break;
		}
		if (n)
			printf(" %12.1f%s", median(samples, n),
			       n < o->maps ? "*" : " ");
		else
			printf(" %12s ", "-");
	}
	printf("\n");
	fflush(stdout);
	mesh_alloc_destroy(a);
	free(out);
	free(samples);
}

static void bench_decisions(const struct bench_opts *o)
{
	int mi, oi, s;
	size_t i;

	printf("== median microseconds per allocation decision ==\n");
	printf(
	    "(%d random free maps per mesh and occupancy; '*' = fewer maps within the %.1f s budget; '-' = never placed)\n",
	    o->maps, o->budget);
	for (mi = 0; mi < o->nmeshes; mi++) {
		struct mesh_topo *t = NULL;
		struct mesh_diag d;

		if (mesh_topo_parse(o->meshes[mi], &t, &d)) {
			fprintf(stderr, "meshbench: bad mesh %s\n",
				o->meshes[mi]);
			continue;
		}
		add_io_nodes(t);
		for (oi = 0; oi < o->nocc; oi++) {
			struct mesh_bitmap **maps = make_maps(
			    t, o->occ[oi], o->maps, 1000 + (uint64_t) mi);

			printf("%-9s %4s %-22s", "mesh", "occ", "allocator");
			for (s = 0; s < o->nsizes; s++)
				printf(" %10s k=%-3u", "", o->sizes[s]);
			printf("\n");
			for (i = 0; i < mesh_alloc_count(); i++)
				if (selected(o, mesh_alloc_describe(i)->name))
					time_allocator(
					    o, t, maps,
					    mesh_alloc_describe(i)->name,
					    o->occ[oi]);
			for (s = 0; s < o->maps; s++)
				mesh_bitmap_destroy(maps[s]);
			free(maps);
		}
		mesh_topo_destroy(t);
	}
}

static int linf(const struct mesh_topo *t, uint32_t p, uint32_t q)
{
	int a[3], b[3], d, s = 0, x;

	mesh_topo_coords(t, p, a);
	mesh_topo_coords(t, q, b);
	for (d = 0; d < 3; d++) {
		x = mesh_topo_axis_distance(t, d, a[d], b[d]);
		s = x > s ? x : s;
	}
	return s;
}

/* One (mesh, k): medians of the definition-by-scan and the library's
 * MC1x1 on the same maps; checks they choose the same centre. */
static void mc1x1_pair(const struct bench_opts *o, struct mesh_topo *t,
		       struct mesh_bitmap **maps, uint32_t k)
{
	double *before = malloc((size_t) o->maps * sizeof(double));
	double *after = malloc((size_t) o->maps * sizeof(double));
	uint32_t *out = malloc(t->nodes * sizeof(*out)), i, centre;
	struct mesh_allocator *a = NULL;
	struct mesh_request req;
	struct mesh_diag d;
	uint64_t want, got;
	double start = now_s(), t0;
	int m, n = 0, same = 1;
	char mesh[32];

	mesh_alloc_create(t, "mc1x1", NULL, &a, &d);
	memset(&req, 0, sizeof(req));
	req.nodes = k;
	for (m = 0; m < o->maps && (n < 3 || now_s() - start < 4 * o->budget);
	     m++) {
		struct mesh_view v = { t, maps[m], NULL, 0 };

		t0 = now_s();
		centre = ref_mc1x1_centre(t, maps[m], k, &want);
		before[n] = (now_s() - t0) * 1e6;
		t0 = now_s();
		if (mesh_alloc_place(a, &v, &req, out))
			break;
		after[n] = (now_s() - t0) * 1e6;
		for (i = 0, got = 0; i < k; i++)
			got += (uint64_t) linf(t, centre, out[i]);
		same &= got == want;
		n++;
	}
	if (n)
		printf("%-9s k=%-4u %14.1f %14.1f %8.1fx  %s (%d maps)\n",
		       mesh_topo_format(t, mesh, sizeof(mesh)), k,
		       median(before, n), median(after, n),
		       median(before, n) / median(after, n),
		       same ? "same" : "DIFFERENT", n);
	mesh_alloc_destroy(a);
	free(before);
	free(after);
	free(out);
}

/* MC1x1 before/after: the definition scanned centre by centre (O(n^2))
 * against the prefix-sum search with early exit, at 50% occupancy. */
static void bench_mc1x1_baseline(const struct bench_opts *o)
{
	int mi, s;

	printf(
	    "\n== MC1x1: definition by scan vs prefix sums, 50%% occupancy, median us ==\n");
	printf("%-9s %-6s %14s %14s %9s  %s\n", "mesh", "k", "by definition",
	       "prefix sums", "speed-up", "answer");
	for (mi = 0; mi < o->nmeshes; mi++) {
		struct mesh_topo *t = NULL;
		struct mesh_diag d;
		struct mesh_bitmap **maps;

		if (mesh_topo_parse(o->meshes[mi], &t, &d))
			continue;
		maps = make_maps(t, 50, o->maps, 1000 + (uint64_t) mi);
		for (s = 0; s < o->nsizes; s++)
			if (o->sizes[s] <= t->nodes / 2)
				mc1x1_pair(o, t, maps, o->sizes[s]);
		for (s = 0; s < o->maps; s++)
			mesh_bitmap_destroy(maps[s]);
		free(maps);
		mesh_topo_destroy(t);
	}
}

static void bench_trace(const struct bench_opts *o)
{
	struct mesh_swf_trace *tr = NULL;
	struct mesh_topo *t = NULL;
	struct mesh_diag d;
	double *runs = malloc((size_t) o->trace_runs * sizeof(double));
	size_t i;
	int r;

	if (mesh_swf_load(o->trace, &tr, &d)) {
		printf("\n== trace replay: skipped (%s not readable) ==\n",
		       o->trace);
		free(runs);
		return;
	}
	mesh_topo_parse("16x8", &t, &d);
	printf(
	    "\n== whole-trace replay, %s (%zu jobs), 16x8, EASY: median of %d runs ==\n",
	    o->trace, tr->n, o->trace_runs);
	for (i = 0; i < mesh_alloc_count(); i++) {
		const char *name = mesh_alloc_describe(i)->name;
		struct mesh_allocator *a = NULL;
		struct mesh_sim_opts so;

		if (!selected(o, name) ||
		    mesh_alloc_create(t, name, NULL, &a, &d))
			continue;
		mesh_sim_opts_init(&so);
		so.keep_zero_runtime = 1;
		for (r = 0; r < o->trace_runs; r++) {
			struct mesh_sim_result *res = NULL;
			double t0 = now_s();

			if (mesh_sim_run(t, a, tr, &so, &res, &d))
				break;
			runs[r] = now_s() - t0;
			mesh_sim_result_free(res);
		}
		if (r == o->trace_runs)
			printf("%-22s %8.1f ms\n", name, median(runs, r) * 1e3);
		mesh_alloc_destroy(a);
	}
	mesh_topo_destroy(t);
	mesh_swf_free(tr);
	free(runs);
}

static int parse_list(char *s, const char **out, int max)
{
	int n = 0;
	char *tok = strtok(s, ",");

	while (tok && n < max) {
		out[n++] = tok;
		tok = strtok(NULL, ",");
	}
	return n;
}

int main(int argc, char **argv)
{
	struct bench_opts o = {
		.meshes = { "16x8", "32x32", "16x16x8", "32x32x32" },
		.nmeshes = 4,
		.occ = { 25, 50, 75 },
		.nocc = 3,
		.sizes = { 8, 64, 512 },
		.nsizes = 3,
		.maps = 15,
		.budget = 1.0,
		.trace = "../shared/traces/NASA-iPSC-1993-3.1-cln.swf",
		.trace_runs = 3,
	};
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick")) {
			o.meshes[0] = "16x8", o.meshes[1] = "32x32",
			o.meshes[2] = "16x16x8";
			o.nmeshes = 3;
			o.occ[0] = 50, o.nocc = 1;
			o.maps = 9;
		} else if (!strcmp(argv[i], "--meshes") && i + 1 < argc) {
			o.nmeshes = parse_list(argv[++i], o.meshes, 8);
		} else if (!strcmp(argv[i], "--allocators") && i + 1 < argc) {
			o.only = argv[++i];
		} else if (!strcmp(argv[i], "--maps") && i + 1 < argc) {
			o.maps = atoi(argv[++i]) > 0 ? atoi(argv[i]) : 1;
		} else if (!strcmp(argv[i], "--trace") && i + 1 < argc) {
			o.trace = argv[++i];
		} else if (!strcmp(argv[i], "--no-trace")) {
			o.trace_runs = 0;
		} else {
			fprintf(
			    stderr,
			    "usage: meshbench [--quick] [--meshes A,B] [--allocators A,B] [--maps N] [--trace FILE | --no-trace]\n");
			return 2;
		}
	}
	if (!o.only || selected(&o, "mc1x1"))
		bench_mc1x1_baseline(&o);
	bench_decisions(&o);
	if (o.trace_runs)
		bench_trace(&o);
	return 0;
}

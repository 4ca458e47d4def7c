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
	const char *target_mesh; /* NULL: no target table */
	int sparse;              /* --sparse: only the sparse-mesh table */
};

/* Wall time, or with --cpu-time this thread's CPU time (on a loaded
 * machine that leaves out the time spent waiting for a core, though not
 * the caches and cores that other processes share). */
static clockid_t bench_clock = CLOCK_MONOTONIC;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(bench_clock, &ts);
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

/* Time the library deciding k nodes on each map (stopping after budget
 * seconds once 3 placed); samples[] gets microseconds of the placed
 * ones, whose number is returned. */
static int time_library(struct mesh_allocator *a, struct mesh_topo *t,
			struct mesh_bitmap **maps, int nmaps, uint32_t k,
			double budget, double *samples, uint32_t *out)
{
	double start = now_s(), t0;
	struct mesh_request req;
	int m, n, rc;

	memset(&req, 0, sizeof(req));
	req.nodes = k;
	req.io_intensity = -1;
	for (m = 0, n = 0; m < nmaps; m++) {
		struct mesh_view v = { t, maps[m], NULL, 0 };

		req.seed = (uint64_t) m;
		t0 = now_s();
		rc = mesh_alloc_place(a, &v, &req, out);
		samples[n] = (now_s() - t0) * 1e6;
		if (rc == 0)
			n++;
		if (now_s() - start > budget && n >= 3)
			break;
	}
	return n;
}

static void time_allocator(const struct bench_opts *o, struct mesh_topo *t,
			   struct mesh_bitmap **maps, const char *name, int occ)
{
	struct mesh_allocator *a = NULL;
	struct mesh_diag d;
	uint32_t *out = malloc(t->nodes * sizeof(*out));
	double *samples = malloc((size_t) o->maps * sizeof(double));
	char mesh[32];
	int s, n;

	if (mesh_alloc_create(t, name, NULL, &a, &d)) {
		free(out);
		free(samples);
		return;
	}
	printf("%-9s %3d%% %-22s", mesh_topo_format(t, mesh, sizeof(mesh)), occ,
	       name);
	for (s = 0; s < o->nsizes; s++) {
		n = time_library(a, t, maps, o->maps, o->sizes[s], o->budget,
				 samples, out);
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

/* The old code path of an allocator (test/reference.c), for the "today"
 * column of the target table: places k nodes into out, 0 or -1. */
struct ref_path {
	const struct mesh_topo *t;
	const char *name;
	uint32_t *order, *scratch;
	struct ref_mbs *mbs;
	struct mesh__mc mc; /* mc, mc1x1: the old search (cubes only) */
	int is_mc;
	struct ref_l1near *l1; /* genalg, mm: the old L1 centre search */
};

/* MC's shell-0 box for k: 1x1x1 for mc1x1, the cube of side k^(1/3) for
 * mc (its default shape when k is a cube); 0 if k is no cube. */
static int ref_mc_side(const struct ref_path *r, uint32_t k)
{
	int e;

	if (!strcmp(r->name, "mc1x1"))
		return 1;
	for (e = 1; (uint32_t) (e * e * e) < k; e++)
		;
	return (uint32_t) (e * e * e) == k ? e : 0;
}

/* The old MC search's centre, and its cluster: the k free nodes of least
 * shell number (the within-shell order is the library's; the answer is
 * compared by cost, see target_row). */
static int ref_mc_place(struct ref_path *r, const struct mesh_bitmap *f,
			uint32_t k, uint32_t *out)
{
	int e = ref_mc_side(r, k), ext[3] = { e, e, e };
	uint64_t cost;

	if (!e)
		return -1;
	mesh__mc_prepare(&r->mc, f);
	out[0] = ref_mc_search_old(&r->mc, f, ext, k, &cost);
	out[1] = (uint32_t) cost; /* read back by mc_cost_of */
	return out[0] == UINT32_MAX ? -1 : 0;
}

static int ref_place(struct ref_path *r, const struct mesh_bitmap *f,
		     uint32_t k, uint32_t *out)
{
	const char *dash = strrchr(r->name, '-');

	if (r->mbs)
		return ref_mbs_place(r->mbs, f, k, out);
	if (r->is_mc)
		return ref_mc_place(r, f, k, out);
	if (r->l1)
		return ref_l1_place(r->l1, f, k, out) == UINT64_MAX ? -1 : 0;
	return ref_curve_place(r->t, r->order, dash + 1, f, k, out, r->scratch);
}

static int ref_init(struct ref_path *r, const struct mesh_topo *t,
		    const char *name, const struct mesh_allocator *a)
{
	static const char *const curves[] = { "rowmajor", "snake", "colsnake",
					      "hilbert" };
	const char *dash = strrchr(name, '-');
	int c;

	memset(r, 0, sizeof(*r));
	r->t = t;
	r->name = name;
	if (!strncmp(name, "mbs", 3))
		return (r->mbs = ref_mbs_create(a, t)) ? 0 : -1;
	if (!strcmp(name, "mc") || !strcmp(name, "mc1x1")) {
		r->is_mc = 1;
		return mesh__mc_init(&r->mc, t);
	}
	if (!strcmp(name, "genalg") || !strcmp(name, "mm"))
		return (r->l1 = ref_l1_create(t, !strcmp(name, "mm"))) ? 0 : -1;
	if (!dash || (strcmp(dash, "-ff") && strcmp(dash, "-bf") &&
		      strcmp(dash, "-sos")))
		return -1;
	for (c = 0; c < 4; c++)
		if (!strncmp(name, curves[c], (size_t) (dash - name)) &&
		    strlen(curves[c]) == (size_t) (dash - name))
			break;
	if (c == 4)
		return -1;
	r->order = malloc(t->nodes * sizeof(*r->order));
	r->scratch = calloc(2 * (size_t) t->nodes + 1, sizeof(*r->scratch));
	mesh_curve_order(t, (enum mesh_curve) c, r->order);
	return 0;
}

static void ref_fini(struct ref_path *r)
{
	free(r->order);
	free(r->scratch);
	ref_mbs_destroy(r->mbs);
	if (r->is_mc)
		mesh__mc_free(&r->mc);
	ref_l1_destroy(r->l1);
}

/* Sum of the shell numbers of nodes[0..k) around centre with cube side
 * e: an MC cluster's cost. */
static uint64_t mc_cost_of(const struct mesh_topo *t, uint32_t centre, int e,
			   const uint32_t *nodes, uint32_t k)
{
	int c[3], q[3], d, s, x;
	uint64_t sum = 0;
	uint32_t i;

	mesh_topo_coords(t, centre, c);
	for (i = 0; i < k; i++) {
		mesh_topo_coords(t, nodes[i], q);
		for (d = 0, s = 0; d < 3; d++) {
			x = mesh__interval_distance(t, d, q[d], c[d] - e / 2,
						    c[d] - e / 2 + e - 1);
			s = x > s ? x : s;
		}
		sum += (uint64_t) s;
	}
	return sum;
}

/* One row of the target table: medians of the old code path (if there
 * is one) and the library on the same maps, and whether every answer
 * was the same. */
static void target_row(const struct bench_opts *o, struct mesh_topo *t,
		       struct mesh_bitmap **maps, const char *name,
		       const char *target)
{
	double *before = malloc((size_t) o->maps * sizeof(double));
	double *after = malloc((size_t) o->maps * sizeof(double));
	uint32_t *out = malloc(t->nodes * sizeof(*out));
	uint32_t *want = malloc(t->nodes * sizeof(*want));
	struct mesh_allocator *a = NULL;
	struct ref_path ref;
	struct mesh_diag d;
	int has_ref, s, m, n, n_ref, same = 1;
	double t0;
	char today[64] = "", now[64] = "", buf[24];

	if (mesh_alloc_create(t, name, NULL, &a, &d))
		goto out;
	has_ref = !ref_init(&ref, t, name, a);
	for (s = 0; s < o->nsizes; s++) {
		struct mesh_request req;

		memset(&req, 0, sizeof(req));
		req.nodes = o->sizes[s];
		req.io_intensity = -1;
		/* Each path in its own loop, so neither evicts the other's
		 * tables between decisions; answers compared afterwards. */
		n = time_library(a, t, maps, o->maps, req.nodes, 1e9, after,
				 out);
		for (m = 0, n_ref = 0; has_ref && m < o->maps; m++) {
			t0 = now_s();
			if (ref_place(&ref, maps[m], req.nodes, want))
				continue;
			before[n_ref++] = (now_s() - t0) * 1e6;
		}
		for (m = 0; has_ref && m < o->maps; m++) {
			struct mesh_view v = { t, maps[m], NULL, 0 };
			int rc_now, rc_ref;
			uint32_t i;

			req.seed = (uint64_t) m;
			rc_now = mesh_alloc_place(a, &v, &req, out);
			rc_ref = ref_place(&ref, maps[m], req.nodes, want);
			same &= (rc_now == 0) == (rc_ref == 0);
			if (ref.is_mc && !rc_now && !rc_ref)
				same &= mc_cost_of(t, want[0],
						   ref_mc_side(&ref, req.nodes),
						   out, req.nodes) == want[1];
			for (i = 0;
			     !ref.is_mc && !rc_now && !rc_ref && i < req.nodes;
			     i++)
				same &= out[i] == want[i];
		}
		snprintf(buf, sizeof(buf), "%s%.1f", s ? " / " : "",
			 n_ref ? median(before, n_ref) : 0.0);
		strcat(today, n_ref ? buf : s ? " / -" : "-");
		snprintf(buf, sizeof(buf), "%s%.1f", s ? " / " : "",
			 n ? median(after, n) : 0.0);
		strcat(now, n ? buf : s ? " / -" : "-");
	}
	printf("%-18s %-24s %-24s %-8s %s\n", name, today, now, target,
	       !has_ref ? "(no old path timed here)"
	       : same   ? "same answers"
			: "DIFFERENT answers");
	fflush(stdout);
	if (has_ref)
		ref_fini(&ref);
	mesh_alloc_destroy(a);
out:
	free(before);
	free(after);
	free(out);
	free(want);
}

/* Issue 10's target table: 32x32x32 at 50% occupancy, k = the sizes
 * given (8/64/512 by default), the old code path ("today") and the
 * library ("now") timed side by side on the same maps. */
static void bench_targets(const struct bench_opts *o)
{
	static const struct {
		const char *name, *target;
	} rows[] = {
		{ "rowmajor-ff", "<= 50" },
		{ "snake-ff", "<= 50" },
		{ "colsnake-ff", "<= 50" },
		{ "hilbert-ff", "<= 50" },
		{ "rowmajor-bf", "<= 50" },
		{ "snake-bf", "<= 50" },
		{ "colsnake-bf", "<= 50" },
		{ "hilbert-bf", "<= 50" },
		{ "rowmajor-sos", "<= 50" },
		{ "snake-sos", "<= 50" },
		{ "colsnake-sos", "<= 50" },
		{ "hilbert-sos", "<= 50" },
		{ "mbs-layered", "<= 50" },
		{ "mbs-octet", "<= 50" },
		{ "mbs-granular", "<= 50" },
		{ "mc1x1", "<= 300" },
		{ "mc", "<= 300" },
		{ "genalg", "<= 2000" },
		{ "mm", "<= 2000" },
		{ "rowmajor-freelist", "<= 15" },
		{ "snake-freelist", "<= 15" },
		{ "colsnake-freelist", "<= 15" },
		{ "hilbert-freelist", "<= 15" },
		{ "paging", "<= 15" },
	};
	struct mesh_topo *t = NULL;
	struct mesh_bitmap **maps;
	struct mesh_diag d;
	size_t r;
	int s;

	if (mesh_topo_parse(o->target_mesh, &t, &d))
		return;
	add_io_nodes(t);
	maps = make_maps(t, 50, o->maps, 4242);
	printf("\n== targets (issue 10): %s, 50%% occupancy, median us, k = "
	       "%u/%u/%u; today = old code path, same maps ==\n",
	       o->target_mesh, o->sizes[0], o->sizes[1], o->sizes[2]);
	printf("%-18s %-24s %-24s %-8s %s\n", "allocator", "today", "now",
	       "target", "answer");
	for (r = 0; r < sizeof(rows) / sizeof(rows[0]); r++)
		if (selected(o, rows[r].name))
			target_row(o, t, maps, rows[r].name, rows[r].target);
	for (s = 0; s < o->maps; s++)
		mesh_bitmap_destroy(maps[s]);
	free(maps);
	mesh_topo_destroy(t);
}

/* One timed mesh_plan_earliest() on p, its ms into *ms; 1 if it gave
 * the start s and the nodes want. */
static int plan_timed(struct mesh_planner *p, struct mesh_allocator *al,
		      const struct mesh_plan_query *q,
		      const struct mesh_request *req, double s,
		      const uint32_t *want, uint32_t *out, double *ms)
{
	double t0 = now_s(), start = 0;

	mesh_plan_earliest(p, al, q, req, &start, out);
	*ms = (now_s() - t0) * 1e3;
	return start == s && !memcmp(out, want, req->nodes * sizeof(*out));
}

/* Appends " / " (after the first k) and the median of t[0 .. n - 1]. */
static void append_ms(char *dst, size_t k, double *t, int n)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%s%.3f", k ? " / " : "",
		 n ? median(t, n) : -1.0);
	strcat(dst, buf);
}

/* The bound on a scan (issue 53.3): q in order (as on mixed CPU
 * counts), contig-ff for a 1024-node block, which it refuses at most
 * candidates; unbounded, then with mesh.conf's defaults. */
static void will_run_scan_bound(const struct bench_opts *o,
				const struct mesh_topo *t,
				struct mesh_planner *p,
				const struct mesh_plan_query *q0, uint32_t *out)
{
	struct mesh_plan_query q = *q0;
	struct mesh_plan_stats st[2];
	struct mesh_allocator *al = NULL;
	struct mesh_request req;
	struct mesh_diag d;
	double ms[2], start[2], t0;
	int i, rc[2];

	if (!selected(o, "contig-ff") ||
	    mesh_alloc_create(t, "contig-ff", NULL, &al, &d))
		return;
	memset(&req, 0, sizeof(req));
	req.nodes = 1024;
	req.io_intensity = -1;
	q.in_order = 1;
	for (i = 0; i < 2; i++) {
		q.max_places = i ? MESH_CONF_PLAN_MAX_PLACES : 0;
		q.max_seconds = i ? MESH_CONF_PLAN_MAX_SECONDS : 0;
		q.stats = &st[i];
		t0 = now_s();
		rc[i] = mesh_plan_earliest(p, al, &q, &req, &start[i], out);
		ms[i] = (now_s() - t0) * 1e3;
	}
	printf("\n== WILL_RUN scan bound (issue 53.3): contig-ff, 1024 nodes, "
	       "in order, 1000 running jobs ==\n");
	for (i = 0; i < 2; i++)
		printf("%-34s %9.1f ms %6zu placements  start %s%.0f\n",
		       i ? "PlanMaxPlacements=1024 Time=0.05" : "unbounded",
		       ms[i], st[i].places, rc[i] ? "none " : "",
		       rc[i] ? 0.0 : start[i]);
	printf("bounded/unbounded time: %.3f\n", ms[1] / ms[0]);
	mesh_alloc_destroy(al);
}

/* WILL_RUN: when and where could a k-node job start on 32^3 with 1,000
 * running jobs of 32 nodes (768 nodes free, ends at random)?  "today" is
 * the old plugin loop: one placement after every completion in end
 * order (mesh_plan_earliest_naive); "now" is mesh_plan_earliest on a new
 * planner, which sorts the running jobs; "again" is the same call once
 * more, as backfill asks about job after job while the same jobs run
 * (the planner keeps its order). */
static void bench_will_run(const struct bench_opts *o)
{
	static const char *const names[] = { "hilbert-bf", "mc1x1",
					     "contig-ff" };
	static const uint32_t ks[] = { 8, 1024, 8192 };
	struct mesh_plan_hold run[1000];
	struct mesh_bitmap *free_now = NULL;
	struct mesh_topo *t = NULL;
	struct mesh_planner *p = NULL, *fresh = NULL;
	struct mesh_plan_query q;
	struct mesh_diag d;
	uint32_t *perm, *out, i, n;
	uint64_t seed = 99;
	size_t a, k;

	if (mesh_topo_parse(o->target_mesh, &t, &d) || t->nodes < 32000 ||
	    mesh_planner_create(t, &p) ||
	    mesh_bitmap_create(t->nodes, &free_now)) {
		mesh_topo_destroy(t);
		return;
	}
	perm = malloc(t->nodes * sizeof(*perm));
	out = malloc(t->nodes * sizeof(*out));
	for (i = 0; i < t->nodes; i++)
		perm[i] = i;
	for (i = t->nodes - 1; i > 0; i--) {
		uint32_t j = (uint32_t) (rnd(&seed) % (i + 1)), x = perm[i];

		perm[i] = perm[j];
		perm[j] = x;
	}
	for (n = 0; n < 1000; n++) {
		run[n].start = 0;
		run[n].end = 1 + (double) (rnd(&seed) % 86400);
		run[n].nodes = perm + 32 * n;
		run[n].n = 32;
	}
	mesh_bitmap_fill(free_now, false);
	for (i = 32000; i < t->nodes; i++)
		mesh_bitmap_set(free_now, perm[i]);
	memset(&q, 0, sizeof(q));
	q.free_now = free_now;
	q.running = run;
	q.n_running = 1000;
	q.duration = 3600;
	printf("\n== WILL_RUN (issue 10): %s, 1000 running jobs, 768 nodes "
	       "free, median ms, k = %u/%u/%u; today = re-place after every "
	       "completion ==\n",
	       o->target_mesh, ks[0], ks[1], ks[2]);
	printf("%-18s %-26s %-26s %-26s %-8s %s\n", "allocator", "today", "now",
	       "again", "target", "answer");
	for (a = 0; a < sizeof(names) / sizeof(names[0]); a++) {
		struct mesh_allocator *al = NULL;
		char today[96] = "", now[96] = "", again[96] = "";
		int same = 1, reps = o->maps < 3 ? o->maps : 3, r;

		if (!selected(o, names[a]) ||
		    mesh_alloc_create(t, names[a], NULL, &al, &d))
			continue;
		for (k = 0; k < 3; k++) {
			struct mesh_request req;
			double tb[8], ta[8], tr[8], s1 = 0, t0;
			uint32_t *want = malloc(ks[k] * sizeof(*want));

			memset(&req, 0, sizeof(req));
			req.nodes = ks[k];
			req.io_intensity = -1;
			for (r = 0; r < reps; r++) {
				t0 = now_s();
				mesh_plan_earliest_naive(p, al, &q, &req, &s1,
							 want);
				tb[r] = (now_s() - t0) * 1e3;
				mesh_planner_destroy(fresh);
				if (mesh_planner_create(t, &fresh)) {
					fresh = NULL;
					same = 0;
					break;
				}
				same &= plan_timed(fresh, al, &q, &req, s1,
						   want, out, &ta[r]);
				same &= plan_timed(fresh, al, &q, &req, s1,
						   want, out, &tr[r]);
			}
			append_ms(today, k, tb, r);
			append_ms(now, k, ta, r);
			append_ms(again, k, tr, r);
			free(want);
		}
		printf("%-18s %-26s %-26s %-26s %-8s %s\n", names[a], today,
		       now, again, "<= 5",
		       same ? "same answers" : "DIFFERENT answers");
		fflush(stdout);
		mesh_alloc_destroy(al);
	}
	will_run_scan_bound(o, t, p, &q, out);
	free(perm);
	free(out);
	mesh_bitmap_destroy(free_now);
	mesh_planner_destroy(fresh);
	mesh_planner_destroy(p);
	mesh_topo_destroy(t);
}

/* Sparse meshes (issue 12.4): 32 named positions in 2048x2048, where
 * mesh.conf's Nodes=n[0-31] puts them (x = 0..31, y = 0), half of them
 * busy at random.  Each allocator decides on the same maps with the
 * sparse paths off (the whole mesh, as before), on (the default, as
 * meshsim), and on with the 32 positions declared usable (as select/mesh
 * declares its nodes). */
static double sparse_time(struct mesh_allocator *a, struct mesh_topo *t,
			  struct mesh_bitmap **maps, int nmaps, uint32_t k,
			  double budget, uint32_t *out, uint32_t *answers,
			  int *done)
{
	double *samples = malloc((size_t) nmaps * sizeof(double)), med;
	int n = time_library(a, t, maps, nmaps, k, budget, samples, out);
	struct mesh_request req;
	int m;

	memset(&req, 0, sizeof(req));
	req.nodes = k;
	req.io_intensity = -1;
	for (m = 0; m < n; m++) { /* the answers, untimed */
		struct mesh_view v = { t, maps[m], NULL, 0 };

		req.seed = (uint64_t) m;
		if (mesh_alloc_place(a, &v, &req, answers + (size_t) m * k))
			memset(answers + (size_t) m * k, 0xff,
			       k * sizeof(*out));
	}
	med = n ? median(samples, n) : -1;
	free(samples);
	*done = n;
	return med;
}

static void bench_sparse(const struct bench_opts *o)
{
	static const uint32_t ks[] = { 1, 4, 8 };
	struct mesh_topo *t = NULL;
	struct mesh_bitmap **maps;
	struct mesh_diag d;
	uint32_t *out, *want, *got, i;
	struct mesh_bitmap *usable = NULL;
	uint64_t seed = 12;
	int m, c[3] = { 0, 0, 0 };
	size_t a, k;

	if (mesh_topo_parse("2048x2048", &t, &d))
		return;
	add_io_nodes(t);
	maps = calloc((size_t) o->maps, sizeof(*maps));
	for (m = 0; m < o->maps; m++) {
		mesh_bitmap_create(t->nodes, &maps[m]);
		for (i = 0; i < 32; i++) {
			c[0] = (int) i;
			if (rnd(&seed) % 2)
				mesh_bitmap_set(maps[m], mesh_topo_index(t, c));
		}
		c[0] = (int) (rnd(&seed) % 32); /* at least 8 free */
		for (i = 0; mesh_bitmap_count(maps[m]) < 8; i++) {
			c[0] = (c[0] + 1) % 32;
			mesh_bitmap_set(maps[m], mesh_topo_index(t, c));
		}
	}
	mesh_bitmap_create(t->nodes, &usable);
	for (i = 0, c[0] = 0; i < 32; i++) {
		c[0] = (int) i;
		mesh_bitmap_set(usable, mesh_topo_index(t, c));
	}
	out = malloc(64 * sizeof(*out));
	want = malloc((size_t) o->maps * 8 * sizeof(*want));
	got = malloc((size_t) o->maps * 8 * sizeof(*got));
	printf("\n== sparse mesh (issue 12.4): 2048x2048, 32 named nodes at "
	       "x = 0..31, y = 0, about half busy; median us per decision, "
	       "k = 1/4/8; whole = sparse paths off, default = as meshsim, "
	       "usable = the 32 positions declared, as select/mesh ==\n");
	printf("%-18s %-26s %-26s %-26s %s\n", "allocator", "whole mesh",
	       "default", "usable", "answer");
	for (a = 0; a < mesh_alloc_count(); a++) {
		const char *name = mesh_alloc_describe(a)->name;
		struct mesh_allocator *whole = NULL, *now = NULL, *use = NULL;
		char col[3][96] = { "", "", "" }, buf[32];
		int same = 1, q;

		if (!selected(o, name) ||
		    mesh_alloc_create(t, name, NULL, &whole, &d) ||
		    mesh_alloc_create(t, name, NULL, &now, &d) ||
		    mesh_alloc_create(t, name, NULL, &use, &d)) {
			mesh_alloc_destroy(whole);
			mesh_alloc_destroy(now);
			continue;
		}
		mesh_alloc_set_sparse(whole, MESH_SPARSE_OFF);
		mesh_alloc_set_usable(use, usable);
		for (k = 0; k < 3; k++) {
			int n[3];

			for (q = 0; q < 3; q++) {
				struct mesh_allocator *al = q == 0   ? whole
							    : q == 1 ? now
								     : use;
				double us = sparse_time(al, t, maps, o->maps,
							ks[k], o->budget, out,
							q ? got : want, &n[q]);

				snprintf(buf, sizeof(buf), "%s%.1f%s",
					 k ? " / " : "", us,
					 n[q] < o->maps ? "*" : "");
				strcat(col[q], buf);
				if (q) {
					int nn = n[0] < n[q] ? n[0] : n[q];

					same &= !memcmp(want, got,
							(size_t) nn * ks[k] *
							    sizeof(*got));
				}
			}
		}
		printf("%-18s %-26s %-26s %-26s %s\n", name, col[0], col[1],
		       col[2], same ? "same" : "DIFFERENT");
		fflush(stdout);
		mesh_alloc_destroy(whole);
		mesh_alloc_destroy(now);
		mesh_alloc_destroy(use);
	}
	for (m = 0; m < o->maps; m++)
		mesh_bitmap_destroy(maps[m]);
	free(maps);
	free(out);
	free(want);
	free(got);
	mesh_bitmap_destroy(usable);
	mesh_topo_destroy(t);
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
		.target_mesh = "32x32x32",
	};
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick")) {
			o.meshes[0] = "16x8", o.meshes[1] = "32x32",
			o.meshes[2] = "16x16x8";
			o.nmeshes = 3;
			o.occ[0] = 50, o.nocc = 1;
			o.maps = 9;
			o.target_mesh = NULL;
		} else if (!strcmp(argv[i], "--target-mesh") && i + 1 < argc) {
			o.target_mesh = argv[++i];
		} else if (!strcmp(argv[i], "--cpu-time")) {
			bench_clock = CLOCK_THREAD_CPUTIME_ID;
			printf(
			    "(times are this thread's CPU time, --cpu-time)\n");
		} else if (!strcmp(argv[i], "--no-targets")) {
			o.target_mesh = NULL;
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
		} else if (!strcmp(argv[i], "--sparse")) {
			o.sparse = 1;
		} else {
			fprintf(
			    stderr,
			    "usage: meshbench [--quick] [--meshes A,B] [--allocators A,B] [--maps N] [--trace FILE | --no-trace] [--target-mesh M | --no-targets] [--sparse] [--cpu-time]\n");
			return 2;
		}
	}
	if (o.sparse) { /* only the sparse-mesh table */
		bench_sparse(&o);
		return 0;
	}
	if (o.target_mesh && o.nsizes == 3) {
		bench_targets(&o);
		bench_will_run(&o);
	}
	if (!o.only || selected(&o, "mc1x1"))
		bench_mc1x1_baseline(&o);
	bench_decisions(&o);
	if (o.trace_runs)
		bench_trace(&o);
	return 0;
}

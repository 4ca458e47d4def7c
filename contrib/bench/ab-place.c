/* ab-place.c - two builds of the library, one process, decisions
 * interleaved.
 *
 * usage: ab-place OLD.so NEW.so ALLOCATOR K [REPS [MESH [OCC]]]
 *
 * Loads two shared builds of src/mesh (contrib/bench/ab-revs.sh makes
 * them from two git revisions), draws 15 random free maps (OCC percent
 * busy, default 50; MESH default 32x32x32), and times REPS rounds
 * (default 100) of one decision per map on each build, alternating
 * which build goes first.  Prints both medians (thread CPU time, in
 * microseconds), their ratio and whether every answer matched.  The
 * machine's speed drifts by up to 2x within minutes here, so this is the
 * way to compare two versions: both see the same drift.  Exit status 1
 * if any answer differed.  The driver is built with the worktree's
 * mesh.h, so both builds must share its structs (mesh_view,
 * mesh_request, mesh_bitmap, mesh_topo).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mesh.h"

enum { MAPS = 15 };

struct build {
	void *dl;
	struct mesh_topo *topo;
	struct mesh_bitmap *maps[MAPS];
	struct mesh_allocator *alloc;
	int (*place)(struct mesh_allocator *, const struct mesh_view *,
		     const struct mesh_request *, uint32_t *);
};

static uint64_t next_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;

	return (x > y) - (x < y);
}

static void *need(void *dl, const char *so, const char *name)
{
	void *f = dlsym(dl, name);

	if (!f) {
		fprintf(stderr, "ab-place: %s: no symbol %s\n", so, name);
		exit(2);
	}
	return f;
}

/* Each build makes its own topology, maps and allocator, from the same
 * seed, so the two see the same maps. */
static void load(struct build *b, const char *so, const char *mesh,
		 const char *alloc, unsigned occ)
{
	int (*topo_parse)(const char *, struct mesh_topo **,
			  struct mesh_diag *);
	int (*bitmap_create)(uint32_t, struct mesh_bitmap **);
	void (*bitmap_fill)(struct mesh_bitmap *, bool);
	int (*alloc_create)(const struct mesh_topo *, const char *,
			    const char *, struct mesh_allocator **,
			    struct mesh_diag *);
	struct mesh_diag d;
	uint64_t seed = 4242;
	uint32_t i;
	int m;

	b->dl = dlopen(so, RTLD_NOW | RTLD_LOCAL);
	if (!b->dl) {
		fprintf(stderr, "ab-place: %s\n", dlerror());
		exit(2);
	}
	*(void **) &topo_parse = need(b->dl, so, "mesh_topo_parse");
	*(void **) &bitmap_create = need(b->dl, so, "mesh_bitmap_create");
	*(void **) &bitmap_fill = need(b->dl, so, "mesh_bitmap_fill");
	*(void **) &alloc_create = need(b->dl, so, "mesh_alloc_create");
	*(void **) &b->place = need(b->dl, so, "mesh_alloc_place");
	if (topo_parse(mesh, &b->topo, &d)) {
		fprintf(stderr, "ab-place: mesh %s: %s\n", mesh, d.message);
		exit(2);
	}
	for (m = 0; m < MAPS; m++) {
		if (bitmap_create(b->topo->nodes, &b->maps[m]))
			exit(2);
		bitmap_fill(b->maps[m], false);
		for (i = 0; i < b->topo->nodes; i++)
			if (next_rand(&seed) % 100 >= occ)
				mesh_bitmap_set(b->maps[m], i);
	}
	if (alloc_create(b->topo, alloc, NULL, &b->alloc, &d)) {
		fprintf(stderr, "ab-place: allocator %s: %s\n", alloc,
			d.message);
		exit(2);
	}
}

static unsigned arg(const char *s, const char *what, unsigned max)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (*s == '\0' || *end != '\0' || v == 0 || v > max) {
		fprintf(stderr, "ab-place: %s: '%s' is not 1..%u\n", what, s,
			max);
		exit(2);
	}
	return (unsigned) v;
}

int main(int argc, char **argv)
{
	struct build b[2];
	struct mesh_request req;
	struct mesh_view v;
	uint32_t *out[2], k;
	double *t[2], med[2], t0;
	unsigned reps = 100, occ = 50, r, n = 0, differ = 0;
	const char *mesh = "32x32x32";
	int rc[2], m, j, i;

	if (argc < 5 || argc > 8) {
		fprintf(stderr, "usage: ab-place OLD.so NEW.so ALLOCATOR K "
				"[REPS [MESH [OCC]]]\n");
		return 2;
	}
	k = arg(argv[4], "K", 1u << 30);
	if (argc > 5)
		reps = arg(argv[5], "REPS", 100000);
	if (argc > 6)
		mesh = argv[6];
	if (argc > 7)
		occ = arg(argv[7], "OCC", 99);
	for (i = 0; i < 2; i++)
		load(&b[i], argv[1 + i], mesh, argv[3], occ);
	for (i = 0; i < 2; i++) {
		out[i] = malloc(b[0].topo->nodes * sizeof(*out[i]));
		t[i] = malloc(reps * MAPS * sizeof(*t[i]));
		if (!out[i] || !t[i])
			return 2;
	}
	memset(&req, 0, sizeof(req));
	req.nodes = k;
	req.io_intensity = -1;
	for (r = 0; r < reps; r++)
		for (m = 0; m < MAPS; m++, n++) {
			for (j = 0; j < 2; j++) {
				i = (int) ((r + (unsigned) m + (unsigned) j) &
					   1);
				memset(&v, 0, sizeof(v));
				v.topo = b[i].topo;
				v.free = b[i].maps[m];
				t0 = cpu_seconds();
				rc[i] =
				    b[i].place(b[i].alloc, &v, &req, out[i]);
				t[i][n] = (cpu_seconds() - t0) * 1e6;
			}
			if (rc[0] != rc[1] ||
			    (!rc[0] &&
			     memcmp(out[0], out[1], k * sizeof(*out[0]))))
				differ++;
		}
	for (i = 0; i < 2; i++) {
		qsort(t[i], n, sizeof(*t[i]), cmp_double);
		med[i] = t[i][n / 2];
	}
	printf("%-16s k=%-6u %s %2u%%  old %9.1f us  new %9.1f us  new/old "
	       "%.3f  %s\n",
	       argv[3], k, mesh, occ, med[0], med[1], med[1] / med[0],
	       differ ? "DIFFERENT ANSWERS" : "same answers");
	return differ != 0;
}

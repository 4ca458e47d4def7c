/* grid.h - meshsweep's grid file: the dimensions of an experiment.
 *
 *   # comment
 *   trace         = a.swf, b.swf        # or: workload = mache:jobs=300
 *   mesh          = 16x8
 *   allocator     = hilbert-bf, mc1x1
 *   load          = 0.6, 0.8, 1.0
 *   seed          = 1, 2, 3
 *   flags         = --keep-zero-runtime # passed to every run as is
 *
 * Every other key is a meshsim option taking a value (scheduler,
 * priority, alpha, runtime-model, estimate, comm, comm-share, io-share,
 * io-nodes, mesh-conf, spatial-estimate, ...); its comma-separated values
 * are one dimension of the grid.  workload values are meshsim-gen
 * models with colon-separated options (mache:jobs=300:interarrival=1500);
 * the generator's seed is workload-seed, or else the seed.  Relative
 * trace and mesh-conf paths are relative to the grid file.
 */
#ifndef MESHSWEEP_GRID_H
#define MESHSWEEP_GRID_H

#include <stddef.h>

#define GRID_MAX_DIMS 24
#define GRID_MAX_VALUES 64

struct grid_dim {
	char key[32];
	char *values[GRID_MAX_VALUES];
	size_t n;
	long line;
};

struct grid {
	const char *path; /* the grid file, as given */
	struct grid_dim dim[GRID_MAX_DIMS];
	size_t ndims;
	char *flags; /* extra meshsim arguments, or NULL */
};

/* Read path; on error print "path:line:key: message" to stderr and
 * return -1. */
int grid_load(const char *path, struct grid *g);

void grid_free(struct grid *g);

/* Number of points (product of the dimensions' sizes). */
size_t grid_points(const struct grid *g);

/* Value index of dimension d at point p (mixed radix, last fastest). */
size_t grid_index(const struct grid *g, size_t p, size_t d);

/* The value of dimension d at point p as meshsim gets it: a relative
 * trace or mesh-conf path is taken from the grid file's directory (made
 * in buf), every other value is returned as written. */
const char *grid_value(const struct grid *g, size_t p, size_t d, char *buf,
		       size_t len);

/* The dimension named key, or -1. */
int grid_find(const struct grid *g, const char *key);

#endif

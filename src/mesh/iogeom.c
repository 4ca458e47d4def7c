/* iogeom.c - the I/O nodes' column axis and the middle-out order along
 * it (Mache, Ch. VII, generalised to 3D and to any I/O placement).
 *
 * HOW IT WORKS: the columns run along the axis over which the I/O nodes
 * spread most; the median I/O coordinate on it splits the column into
 * the halves above and below the middle I/O link, and rows are ranked by
 * their distance from that link, alternating above and below.
 */
#include "iogeom.h"

#include <stdlib.h>

#include "error.h"

static int cmp_int(const void *a, const void *b)
{
	return *(const int *) a - *(const int *) b;
}

int mesh__io_required(const struct mesh_topo *t, const char *name,
		      struct mesh_diag *d)
{
	if (t->n_io)
		return 0;
	return mesh_diag_set(d, MESH_EINVAL, NULL, 0, "allocator",
			     "%s needs designated I/O nodes (none configured)",
			     name);
}

int mesh__io_geometry(const struct mesh_topo *t, struct mesh__io_geom *g)
{
	static const int pref[3] = { 1, 2, 0 };
	int lo[3] = { 1 << 30, 1 << 30, 1 << 30 }, hi[3] = { -1, -1, -1 };
	int c[3], i, d, best = -1, *v;
	size_t j;

	if (!t->n_io)
		return MESH_EINVAL;
	for (j = 0; j < t->n_io; j++) {
		mesh_topo_coords(t, t->io_nodes[j], c);
		for (d = 0; d < 3; d++) {
			lo[d] = c[d] < lo[d] ? c[d] : lo[d];
			hi[d] = c[d] > hi[d] ? c[d] : hi[d];
		}
	}
	for (i = 0; i < 3; i++) {
		d = pref[i];
		if (best < 0 || hi[d] - lo[d] > hi[best] - lo[best])
			best = d;
	}
	g->axis = best;
	g->u = best == 0 ? 1 : 0;
	g->w = 3 - best - g->u;
	v = malloc(t->n_io * sizeof(*v));
	if (!v)
		return MESH_ENOMEM;
	for (j = 0; j < t->n_io; j++) {
		mesh_topo_coords(t, t->io_nodes[j], c);
		v[j] = c[best];
	}
	qsort(v, t->n_io, sizeof(*v), cmp_int);
	g->mid = v[t->n_io / 2];
	free(v);
	return 0;
}

int mesh__io_rank(const struct mesh_topo *t, const struct mesh__io_geom *g,
		  int y)
{
	int above = t->dim[g->axis] - g->mid, below = g->mid, i;

	if (y >= g->mid) {
		i = y - g->mid; /* i-th row above */
		return i < below ? 2 * i : below + i;
	}
	i = g->mid - 1 - y; /* i-th row below */
	return i < above ? 2 * i + 1 : above + i;
}

/* crop.h - a sub-mesh over the bounding box of the free nodes, and the
 * mapping of views and answers between it and the whole mesh (private;
 * never installed).
 *
 * crop.c knows meshes, not allocators: the registry (alloc.c) decides
 * whether an allocator may run on a crop, creates the allocator that
 * runs there and calls it, as a wrapper around any allocator.
 */
#ifndef MESH_CROP_H
#define MESH_CROP_H

#include <stdint.h>

#include "alloc.h"
#include "bitmap.h"
#include "topo.h"

struct mesh__crop {
	int lo[MESH_MAX_DIMS], ext[MESH_MAX_DIMS]; /* the box in the mesh */
	uint64_t vol;
	struct mesh_topo *topo;   /* the box as a mesh */
	struct mesh_bitmap *free; /* this decision's free map on it */
	double *end;              /* vol end times, or NULL */
};

/* The box of the free nodes of f (within a's usable box, if any) grown
 * by margin, clipped to the mesh, the whole extent on wrapped
 * dimensions, into lo and ext; returns its volume, or 0 if there is no
 * free node or the volume exceeds limit. */
uint64_t mesh__crop_box(const struct mesh_allocator *a,
			const struct mesh_bitmap *f, int margin, uint64_t limit,
			int lo[3], int ext[3]);

/* Whether crop c serves the box lo/ext of volume vol: it contains it,
 * and is not much larger. */
int mesh__crop_serves(const struct mesh__crop *c, const int lo[3],
		      const int ext[3], uint64_t vol);

/* A crop of t over box lo/ext (volume vol), with the I/O nodes inside it
 * and room for end times if with_end.  0, or MESH_ENOMEM with *out
 * untouched. */
int mesh__crop_create(const struct mesh_topo *t, const int lo[3],
		      const int ext[3], uint64_t vol, int with_end,
		      struct mesh__crop **out);
/* NULL is a no-op. */
void mesh__crop_destroy(struct mesh__crop *c);

/* The view v of a's mesh on crop c: its free map (within a's usable
 * box) and end times are copied into c, and *sv points at them. */
void mesh__crop_view(struct mesh__crop *c, const struct mesh_allocator *a,
		     const struct mesh_view *v, struct mesh_view *sv);

/* out[0..k) from crop indices to the indices of the whole mesh t. */
void mesh__crop_unmap(const struct mesh__crop *c, const struct mesh_topo *t,
		      uint32_t *out, uint32_t k);

#endif

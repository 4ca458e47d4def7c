/* freenodes.h - the free nodes of a view, within an allocator's usable
 * box (mesh_alloc_set_usable()), for the allocators and the planner
 * (private; never installed). */
#ifndef MESH_FREENODES_H
#define MESH_FREENODES_H

#include <stdint.h>

#include "alloc.h"
#include "bitmap.h"

/* Order-based allocators (curves, plas) on sparse meshes: 1, counted in
 * a->sparse_used, if this decision should read the free nodes instead of
 * scanning the order (at most 1/64 of the nodes free, per a->sparse). */
int mesh__sparse_wanted(struct mesh_allocator *a, const struct mesh_view *v);
/* pos[node] of every free node into buf, ascending; returns how many. */
uint32_t mesh__free_sorted(const struct mesh_allocator *a,
			   const struct mesh_bitmap *f, const uint32_t *pos,
			   uint32_t *buf);
/* Free nodes of f, within a's usable box if it has one. */
uint32_t mesh__free_count(const struct mesh_allocator *a,
			  const struct mesh_bitmap *f);
/* fn(ctx, node) for every free node of f in ascending order (within a's
 * usable box if any) until fn returns non-zero; returns that value. */
int mesh__free_each(const struct mesh_allocator *a, const struct mesh_bitmap *f,
		    int (*fn)(void *ctx, uint32_t node), void *ctx);

#endif

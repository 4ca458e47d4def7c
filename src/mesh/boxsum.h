/* boxsum.h - O(1) counts of free nodes in axis-aligned boxes (private).
 *
 * A 3D prefix sum over the free map, rebuilt once per allocation, so
 * that centre-based allocators can count the free nodes of a shell with
 * a handful of lookups instead of scanning it.
 */
#ifndef MESH_BOXSUM_H
#define MESH_BOXSUM_H

#include <stdint.h>

#include "bitmap.h"
#include "topo.h"

struct mesh__boxsum {
	const struct mesh_topo *topo;
	uint32_t *sum; /* (X+1)*(Y+1)*(Z+1) prefix sums */
};

int mesh__boxsum_init(struct mesh__boxsum *b, const struct mesh_topo *t);
void mesh__boxsum_free(struct mesh__boxsum *b);
void mesh__boxsum_build(struct mesh__boxsum *b,
			const struct mesh_bitmap *free_map);

/* Free nodes with lo[d] <= c[d] <= hi[d] (inclusive, unwrapped). */
uint32_t mesh__boxsum_box(const struct mesh__boxsum *b, const int lo[3],
			  const int hi[3]);

/* Free nodes within L-inf radius r(d) = rad[d] of centre c; wrapped
 * dimensions wrap, others are clipped. */
uint32_t mesh__boxsum_ball(const struct mesh__boxsum *b, const int c[3],
			   const int rad[3]);

#endif

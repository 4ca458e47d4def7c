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

/* Split [lo, hi] on axis d into at most two in-range intervals
 * [ilo[i], ihi[i]]: clipped on a mesh (0 if nothing is left); on a torus
 * wrapped, or the whole ring when it is longer. */
int mesh__split_axis(const struct mesh_topo *t, int d, int lo, int hi,
		     int ilo[2], int ihi[2]);

/* Free nodes in the box lo[d] <= c[d] <= hi[d]; bounds may lie outside
 * the mesh: wrapped axes wrap (a box at least as long as the ring is the
 * whole ring), other axes are clipped. */
uint32_t mesh__box_count(const struct mesh__boxsum *b, const int lo[3],
			 const int hi[3]);

/* Distance from coordinate q to the interval [lo, hi] on axis d (wrapped
 * as above); 0 inside. */
int mesh__interval_distance(const struct mesh_topo *t, int d, int q, int lo,
			    int hi);

/* Word boxes, for meshes whose x-rows fit a 64-bit word (dim[0] <= 64),
 * without wrapping: per x-row i = z * Y + y, out[i] has bit x set when
 * the box of extents e with low corner (x, y, z) lies on the mesh and
 * all its nodes are free in w (the free map's words, index order).
 * tmp holds 2 * Y * Z words.  Returns whether any bit is set. */
int mesh__box_starts(const struct mesh_topo *t, const uint64_t *w,
		     const uint32_t e[3], uint64_t *tmp, uint64_t *out);

/* The same in stages, so that boxes sharing an extent share work, and
 * with ring set, where boxes wrap around every axis that wraps and is
 * longer than the box's extent on it (contig on tori).
 * mesh__row_bits: bits[i] = x-row i of w (Y * Z words).
 * mesh__row_runs: run[i] has bit x set when a free run of len starts
 * at x in bits[i] (around the ring, with ring set).  run may be bits.
 * mesh__box_starts_from_runs: from the runs for e[0], out as
 * mesh__box_starts (with ring set, wrapping); ys holds Y * Z words;
 * out is neither run nor ys. */
void mesh__row_bits(const struct mesh_topo *t, const uint64_t *w,
		    uint64_t *bits);
void mesh__row_runs(const struct mesh_topo *t, const uint64_t *bits,
		    uint32_t len, int ring, uint64_t *run);
int mesh__box_starts_from_runs(const struct mesh_topo *t, const uint64_t *run,
			       const uint32_t e[3], int ring, uint64_t *ys,
			       uint64_t *out);

/* Bits pos .. pos + n - 1 of w (n <= 64), bit 0 = pos.  Inline: the
 * word boxes and the prefix sums read every x-row through it. */
static inline uint64_t mesh__bits_at(const uint64_t *w, uint32_t pos,
				     uint32_t n)
{
	uint32_t sh = pos & 63;
	uint64_t x = w[pos >> 6] >> sh;

	if (sh && sh + n > 64)
		x |= w[(pos >> 6) + 1] << (64 - sh);
	return n == 64 ? x : x & (((uint64_t) 1 << n) - 1);
}

/* Set bits of x.  Without -mpopcnt, __builtin_popcountll is a call into
 * libgcc; this is the same count in a dozen inline instructions. */
static inline uint32_t mesh__popcount64(uint64_t x)
{
#ifdef __POPCNT__
	return (uint32_t) __builtin_popcountll(x);
#else
	x = x - ((x >> 1) & 0x5555555555555555ull);
	x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (uint32_t) ((x * 0x0101010101010101ull) >> 56);
#endif
}

#endif

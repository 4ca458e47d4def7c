/* reference.h - definition-by-scan versions of allocators (tests and
 * benchmarks only; O(n^2) per decision). */
#ifndef TEST_REFERENCE_H
#define TEST_REFERENCE_H

#include <stdint.h>

#include "mesh.h"

/* MC1x1 by its definition: every free centre, every free node.  Returns
 * the centre with the least sum of L-inf shell numbers of its k nearest
 * free nodes (ties: lowest index) and that sum in *best_score;
 * UINT32_MAX if no node is free. */
uint32_t ref_mc1x1_centre(const struct mesh_topo *t,
			  const struct mesh_bitmap *f, uint32_t k,
			  uint64_t *best_score);

/* Curve ff, bf or sos (fit "ff", "bf", "sos") by its definition, node
 * by node over the curve order (rank -> node), as the library did before
 * issue 10; fills out[0..k).  scratch: 2 * nodes + 1 entries, zeroed
 * before the first call and left zeroed.  Returns 0, or -1 if fewer than
 * k nodes are free. */
int ref_curve_place(const struct mesh_topo *t, const uint32_t *order,
		    const char *fit, const struct mesh_bitmap *f, uint32_t k,
		    uint32_t *out, uint32_t *scratch);

#endif

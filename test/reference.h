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

#endif

/* reference.c - allocators written straight from their definitions,
 * with no speed-ups: the yardstick for exactness tests and the "before"
 * column of the benchmarks.  Shared by test/check_alloc.c and
 * contrib/bench/meshbench.c. */
#include "reference.h"

#include <stdlib.h>
#include <string.h>

/* MC1x1 by the definition, scanning every free centre and every free
 * node: the least sum of L-inf shell numbers of its k nearest free
 * nodes, ties to the lowest centre index.  Returns the centre. */
uint32_t ref_mc1x1_centre(const struct mesh_topo *t,
			  const struct mesh_bitmap *f, uint32_t k,
			  uint64_t *best_score)
{
	uint32_t c, i, best = UINT32_MAX, *shell_count;
	int a[3], b[3], d, s, maxs = 0;

	for (d = 0; d < 3; d++)
		maxs = t->dim[d] > maxs ? t->dim[d] : maxs;
	shell_count = calloc((size_t) maxs + 1, sizeof(*shell_count));
	*best_score = UINT64_MAX;
	for (c = 0; c < t->nodes; c++) {
		uint64_t score = 0, taken = 0;

		if (!mesh_bitmap_test(f, c))
			continue;
		memset(shell_count, 0,
		       ((size_t) maxs + 1) * sizeof(*shell_count));
		mesh_topo_coords(t, c, a);
		for (i = 0; i < t->nodes; i++) {
			if (!mesh_bitmap_test(f, i))
				continue;
			mesh_topo_coords(t, i, b);
			for (d = 0, s = 0; d < 3; d++) {
				int x =
				    mesh_topo_axis_distance(t, d, a[d], b[d]);

				s = x > s ? x : s;
			}
			shell_count[s]++;
		}
		for (s = 0; s <= maxs && taken < k; s++) {
			uint64_t use = shell_count[s] < k - taken
					   ? shell_count[s]
					   : k - taken;

			score += use * (uint64_t) s;
			taken += use;
		}
		if (score < *best_score) {
			*best_score = score;
			best = c;
		}
	}
	free(shell_count);
	return best;
}

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

/* Length of the run of consecutive ranks starting at fr[i]. */
static uint32_t ref_run_length(const uint32_t *fr, uint32_t m, uint32_t i)
{
	uint32_t j = i + 1;

	while (j < m && fr[j] == fr[j - 1] + 1)
		j++;
	return j - i;
}

static int64_t ref_sos_delta(const uint32_t *hist, uint32_t len, uint32_t k)
{
	int64_t delta = -2 * (int64_t) hist[len] + 1;

	if (len > k)
		delta += 2 * (int64_t) hist[len - k] + 1;
	return delta;
}

/* Index in fr of the chosen run's start, or -1 if no run holds k. */
static int64_t ref_pick_run(const uint32_t *fr, uint32_t m, uint32_t k,
			    char fit, uint32_t *hist)
{
	int64_t best = -1, best_delta = 0, delta;
	uint32_t i, len, best_len = 0;

	for (i = 0; fit == 's' && i < m; i += ref_run_length(fr, m, i))
		hist[ref_run_length(fr, m, i)]++;
	for (i = 0; i < m; i += len) {
		len = ref_run_length(fr, m, i);
		if (len < k)
			continue;
		if (fit == 'f')
			return i;
		if (fit == 'b' && (best < 0 || len < best_len)) {
			best = i;
			best_len = len;
		}
		delta = fit == 's' ? ref_sos_delta(hist, len, k) : 0;
		if (fit == 's' && (best < 0 || delta < best_delta)) {
			best = i;
			best_delta = delta;
		}
	}
	return best;
}

/* Curve first/best fit and sum of squares by the definition, node by
 * node: the free ranks in order, their maximal runs, else the window of
 * k free nodes with the least rank span (earliest).  fit is "ff", "bf"
 * or "sos"; scratch holds 2 * nodes + 1 entries, all zero, and is left
 * so (the old code's preallocated buffers).  Returns 0, or -1 if fewer
 * than k nodes are free. */
int ref_curve_place(const struct mesh_topo *t, const uint32_t *order,
		    const char *fit, const struct mesh_bitmap *f, uint32_t k,
		    uint32_t *out, uint32_t *scratch)
{
	uint32_t *fr = scratch, *hist = scratch + t->nodes;
	uint32_t r, m = 0, i, start = 0, span, best_span = UINT32_MAX;
	int64_t run;

	for (r = 0; r < t->nodes; r++)
		if (mesh_bitmap_test(f, order[r]))
			fr[m++] = r;
	if (m < k)
		return -1;
	run = ref_pick_run(fr, m, k, fit[0], hist);
	for (i = 0; fit[0] == 's' && i < m; i += ref_run_length(fr, m, i))
		hist[ref_run_length(fr, m, i)] = 0;
	if (run >= 0)
		start = (uint32_t) run;
	else
		for (i = 0; i + k <= m; i++) {
			span = fr[i + k - 1] - fr[i];
			if (span < best_span) {
				best_span = span;
				start = i;
			}
		}
	for (i = 0; i < k; i++)
		out[i] = order[fr[start + i]];
	return 0;
}

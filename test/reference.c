/* reference.c - allocators written straight from their definitions,
 * with no speed-ups: the yardstick for exactness tests and the "before"
 * column of the benchmarks.  Shared by test/check_alloc.c and
 * contrib/bench/meshbench.c; Gen-Alg and MM are in reference_l1.c. */
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
	static const int one[3] = { 1, 1, 1 };

	return ref_mc_centre(t, f, one, k, best_score);
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

/* MBS as the library did it before issue 10: every block of the
 * hierarchy tested with prefix sums, the free lists (maximal fully free
 * blocks by position) built in full, then the requests served. */
struct ref_mbs {
	const struct mesh_topo *t;
	const struct mesh__mbs_block *b;
	uint32_t nb;
	int base, levels;
	struct mesh__boxsum box;
	uint32_t **list, *len, *head, *by_pos;
	uint8_t *is_free;
};

static uint32_t ref_key(const struct ref_mbs *r, uint32_t id)
{
	return r->b[id].order;
}

static int ref_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;

	return (x > y) - (x < y);
}

struct ref_mbs *ref_mbs_create(const struct mesh_allocator *a,
			       const struct mesh_topo *t)
{
	struct ref_mbs *r = calloc(1, sizeof(*r));
	uint64_t *k;
	uint32_t i;
	int l;

	if (mesh__mbs_hierarchy(a, &r->b, &r->nb, &r->base, &r->levels)) {
		free(r);
		return NULL;
	}
	r->t = t;
	mesh__boxsum_init(&r->box, t);
	r->list = calloc((size_t) r->levels, sizeof(*r->list));
	for (l = 0; l < r->levels; l++)
		r->list[l] = malloc(r->nb * sizeof(uint32_t));
	r->len = calloc((size_t) r->levels, sizeof(*r->len));
	r->head = calloc((size_t) r->levels, sizeof(*r->head));
	r->is_free = malloc(r->nb);
	r->by_pos = malloc(r->nb * sizeof(*r->by_pos));
	k = malloc(r->nb * sizeof(*k));
	for (i = 0; i < r->nb; i++)
		k[i] = (uint64_t) ref_key(r, i) << 32 | i;
	qsort(k, r->nb, sizeof(*k), ref_cmp_u64);
	for (i = 0; i < r->nb; i++)
		r->by_pos[i] = (uint32_t) k[i];
	free(k);
	return r;
}

void ref_mbs_destroy(struct ref_mbs *r)
{
	int l;

	if (!r)
		return;
	for (l = 0; l < r->levels; l++)
		free(r->list[l]);
	free(r->list);
	free(r->len);
	free(r->head);
	free(r->is_free);
	free(r->by_pos);
	mesh__boxsum_free(&r->box);
	free(r);
}

static void ref_mbs_lists(struct ref_mbs *r, const struct mesh_bitmap *f)
{
	const struct mesh__mbs_block *b = r->b;
	uint32_t i, j;
	int l, hi[3], d;

	mesh__boxsum_build(&r->box, f);
	for (l = 0; l < r->levels; l++)
		r->len[l] = r->head[l] = 0;
	for (i = 0; i < r->nb; i++) {
		for (d = 0; d < 3; d++)
			hi[d] = b[i].lo[d] + b[i].ext[d] - 1;
		r->is_free[i] = mesh__boxsum_box(&r->box, b[i].lo, hi) ==
				(uint32_t) (b[i].ext[0] * b[i].ext[1] *
					    b[i].ext[2]);
	}
	for (j = 0; j < r->nb; j++) {
		i = r->by_pos[j];
		if (r->is_free[i] &&
		    (b[i].parent < 0 || !r->is_free[b[i].parent]))
			r->list[b[i].level][r->len[b[i].level]++] = i;
	}
}

static void ref_mbs_insert(struct ref_mbs *r, uint32_t id)
{
	int l = r->b[id].level;
	uint32_t *L = r->list[l], i = r->len[l], key = ref_key(r, id);

	while (i > r->head[l] && ref_key(r, L[i - 1]) > key) {
		L[i] = L[i - 1];
		i--;
	}
	L[i] = id;
	r->len[l]++;
}

static uint32_t ref_mbs_emit(const struct ref_mbs *r, uint32_t id,
			     uint32_t *out)
{
	const struct mesh__mbs_block *b = &r->b[id];
	uint32_t m = 0;
	int q[3];

	for (q[2] = b->lo[2]; q[2] < b->lo[2] + b->ext[2]; q[2]++)
		for (q[1] = b->lo[1]; q[1] < b->lo[1] + b->ext[1]; q[1]++)
			for (q[0] = b->lo[0]; q[0] < b->lo[0] + b->ext[0];
			     q[0]++)
				out[m++] = mesh_topo_index(r->t, q);
	return m;
}

int ref_mbs_place(struct ref_mbs *r, const struct mesh_bitmap *f, uint32_t k,
		  uint32_t *out)
{
	uint64_t need[32] = { 0 }, unit = 1, rem = k;
	uint32_t m = 0, id;
	int i, j;

	if (mesh_bitmap_count(f) < k)
		return -1;
	ref_mbs_lists(r, f);
	for (i = 1; i < r->levels; i++)
		unit *= (uint64_t) r->base;
	for (i = r->levels - 1; i >= 0; unit /= (uint64_t) r->base, i--) {
		need[i] = rem / unit;
		rem %= unit;
	}
	for (i = r->levels - 1; i >= 0; i--) {
		while (need[i]) {
			if (r->head[i] < r->len[i]) {
				id = r->list[i][r->head[i]++];
				m += ref_mbs_emit(r, id, out + m);
				need[i]--;
				continue;
			}
			for (j = i + 1;
			     j < r->levels && r->head[j] == r->len[j]; j++)
				;
			if (j < r->levels) {
				int32_t c =
				    r->b[r->list[j][r->head[j]++]].child;

				for (; c >= 0; c = r->b[c].sib)
					ref_mbs_insert(r, (uint32_t) c);
				continue;
			}
			if (i == 0)
				return -1;
			need[i - 1] += need[i] * (uint64_t) r->base;
			need[i] = 0;
		}
	}
	return m == k ? 0 : -1;
}

/* MC's search by its definition (Mache Ch. V): for every free centre, in
 * index order, the shell number of every free node (L-inf distance to
 * the centre's shell-0 box of extents ext), the k smallest summed; the
 * least sum, ties to the lowest centre.  Returns the centre (UINT32_MAX
 * if fewer than k nodes are free) and the sum in *best_score. */
uint32_t ref_mc_centre(const struct mesh_topo *t, const struct mesh_bitmap *f,
		       const int ext[3], uint32_t k, uint64_t *best_score)
{
	uint32_t c, i, best = UINT32_MAX, *shell_count;
	int a[3], b[3], d, s, maxs = 0, lo[3], hi[3];

	for (d = 0; d < 3; d++)
		maxs = t->dim[d] > maxs ? t->dim[d] : maxs;
	shell_count = calloc((size_t) maxs + 1, sizeof(*shell_count));
	*best_score = UINT64_MAX;
	if (mesh_bitmap_count(f) < k)
		c = t->nodes; /* no centre can take k */
	else
		c = 0;
	for (; c < t->nodes; c++) {
		uint64_t score = 0, taken = 0;

		if (!mesh_bitmap_test(f, c))
			continue;
		memset(shell_count, 0,
		       ((size_t) maxs + 1) * sizeof(*shell_count));
		mesh_topo_coords(t, c, a);
		for (d = 0; d < 3; d++) {
			lo[d] = a[d] - ext[d] / 2;
			hi[d] = lo[d] + ext[d] - 1;
		}
		for (i = 0; i < t->nodes; i++) {
			if (!mesh_bitmap_test(f, i))
				continue;
			mesh_topo_coords(t, i, b);
			for (d = 0, s = 0; d < 3; d++) {
				int x = mesh__interval_distance(t, d, b[d],
								lo[d], hi[d]);

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

/* MC's centre search as the library did it before issue 10: centre by
 * centre in index order, shells counted with mesh__box_count, stopping a
 * centre once it cannot beat the best.  m must be prepared. */
static uint64_t ref_mc_cost_old(const struct mesh__mc *m, const int c[3],
				const int ext[3], uint32_t k, uint64_t bound)
{
	const struct mesh_topo *t = m->topo;
	int lo[3], hi[3], s, d, rmax = 0;
	uint32_t inside = 0, taken = 0, ball, use;
	uint64_t cost = 0;

	for (d = 0; d < 3; d++)
		rmax = t->dim[d] > rmax ? t->dim[d] : rmax;
	for (s = 0; taken < k && s <= rmax; s++) {
		for (d = 0; d < 3; d++) {
			lo[d] = c[d] - ext[d] / 2 - s;
			hi[d] = c[d] - ext[d] / 2 + ext[d] - 1 + s;
		}
		ball = mesh__box_count(&m->box, lo, hi);
		use = ball - inside < k - taken ? ball - inside : k - taken;
		taken += use;
		inside = ball;
		cost += (uint64_t) s * use;
		if (cost + (uint64_t) (k - taken) * (uint64_t) (s + 1) >=
		    bound)
			return bound;
	}
	return cost;
}

uint32_t ref_mc_search_old(const struct mesh__mc *m,
			   const struct mesh_bitmap *f, const int ext[3],
			   uint32_t k, uint64_t *best_cost)
{
	uint32_t i, best = UINT32_MAX;
	uint64_t cost;
	int c[3];

	*best_cost = UINT64_MAX;
	for (i = 0; i < m->topo->nodes; i++) {
		if (!mesh_bitmap_test(f, i))
			continue;
		mesh_topo_coords(m->topo, i, c);
		cost = ref_mc_cost_old(m, c, ext, k, *best_cost);
		if (cost < *best_cost) {
			*best_cost = cost;
			best = i;
		}
	}
	return best;
}

/* mc1x1's greedy fill as first written: every candidate's distance to
 * every chosen node with mesh_topo_distance, then one pick at a time
 * (least total distance, ties to the earlier candidate). */
void ref_greedy_fill(const struct mesh_topo *t, const uint32_t *cand,
		     uint32_t n, uint32_t *out, uint32_t inner, uint32_t m)
{
	uint64_t *sum = malloc(((size_t) n + 1) * sizeof(*sum));
	uint32_t i, j, c, best;

	for (c = 0; c < n; c++)
		for (i = 0, sum[c] = 0; i < inner; i++)
			sum[c] += (uint64_t) mesh_topo_distance(t, cand[c],
								out[i]);
	for (j = 0; j < m; j++) {
		for (c = 0, best = UINT32_MAX; c < n; c++)
			if (sum[c] != UINT64_MAX &&
			    (best == UINT32_MAX || sum[c] < sum[best]))
				best = c;
		out[inner + j] = cand[best];
		sum[best] = UINT64_MAX;
		for (c = 0; c < n; c++)
			if (sum[c] != UINT64_MAX)
				sum[c] += (uint64_t) mesh_topo_distance(
				    t, cand[c], out[inner + j]);
	}
	free(sum);
}

/* alloc_curve.c - curve-based allocation: free list, first fit, best fit
 * and sum of squares over maximal free intervals of a curve.
 *
 * Implements: Walker, Bunde, Leung, "Faster high-quality processor
 * allocation", Sec. II (after Lo et al. 1997 and Leung et al. 2002).
 *  - freelist: the first k free nodes in curve order.
 *  - ff: the first maximal run of consecutive free ranks with length
 *    >= k; its first k nodes.
 *  - bf: the shortest such run (earliest on ties); its first k nodes.
 *  - sos: the run whose use minimises sum_h N(h)^2 afterwards, N(h) the
 *    number of free runs of length h (Csirik et al. 2006); earliest on
 *    ties; its first k nodes.
 *  - fallback when no run holds k (ff, bf, sos): "the k processors whose
 *    difference in ranks are minimal", i.e. the window of k consecutive
 *    free nodes in curve order with the least last-minus-first rank,
 *    earliest on ties.
 * Decisions the paper leaves open: a job takes the low-rank end of the
 * chosen run; ties go to the lowest rank.
 */
#include <stdlib.h>
#include <string.h>

#include "alloc_internal.h"
#include "curve.h"
#include "error.h"

enum fit { FIT_FREELIST, FIT_FF, FIT_BF, FIT_SOS };

struct curve_priv {
	enum fit fit;
	uint32_t *order;     /* rank -> node */
	uint32_t *free_rank; /* scratch: ranks of free nodes, ascending */
	uint32_t *hist;      /* scratch: N(h) for sos, h = 0..nodes */
};

static int curve_create(struct mesh_allocator *a, const char *params,
			struct mesh_diag *d)
{
	uint32_t n = a->topo->nodes;
	struct curve_priv *p;
	int rc;

	rc = mesh__param_check(params, NULL, a->name, d);
	if (rc)
		return rc;
	p = calloc(1, sizeof(*p));
	if (!p)
		return MESH_ENOMEM;
	p->fit = (enum fit)(a->entry->variant % 4);
	p->order = malloc(n * sizeof(*p->order));
	p->free_rank = malloc(n * sizeof(*p->free_rank));
	p->hist = calloc((size_t) n + 1, sizeof(*p->hist));
	if (!p->order || !p->free_rank || !p->hist) {
		rc = MESH_ENOMEM;
	} else {
		rc = mesh_curve_order(a->topo,
				      (enum mesh_curve)(a->entry->variant / 4),
				      p->order);
	}
	if (rc) {
		free(p->order);
		free(p->free_rank);
		free(p->hist);
		free(p);
		return rc;
	}
	a->priv = p;
	return 0;
}

static void curve_destroy(struct mesh_allocator *a)
{
	struct curve_priv *p = a->priv;

	free(p->order);
	free(p->free_rank);
	free(p->hist);
	free(p);
}

/* Collect the ranks of free nodes, at most limit of them; returns how
 * many.  The free list needs only the first k, so it stops there. */
static uint32_t collect_free(const struct curve_priv *p,
			     const struct mesh_view *v, uint32_t limit)
{
	uint32_t r, m = 0, n = v->topo->nodes;

	for (r = 0; r < n && m < limit; r++)
		if (mesh_bitmap_test(v->free, p->order[r]))
			p->free_rank[m++] = r;
	return m;
}

/* Length of the run of consecutive ranks starting at free_rank[i]. */
static uint32_t run_length(const uint32_t *fr, uint32_t m, uint32_t i)
{
	uint32_t j = i + 1;

	while (j < m && fr[j] == fr[j - 1] + 1)
		j++;
	return j - i;
}

static int64_t sos_delta(const uint32_t *hist, uint32_t len, uint32_t k)
{
	int64_t delta = -2 * (int64_t) hist[len] + 1;

	if (len > k)
		delta += 2 * (int64_t) hist[len - k] + 1;
	return delta;
}

/* Index in free_rank of the chosen run's start, or -1 if none fits. */
static int64_t pick_run(struct curve_priv *p, uint32_t m, uint32_t k)
{
	const uint32_t *fr = p->free_rank;
	int64_t best = -1, best_delta = 0;
	uint32_t i, len, best_len = 0;

	if (p->fit == FIT_SOS)
		for (i = 0; i < m; i += run_length(fr, m, i))
			p->hist[run_length(fr, m, i)]++;
	for (i = 0; i < m; i += len) {
		len = run_length(fr, m, i);
		if (len < k)
			continue;
		if (p->fit == FIT_FF) {
			best = i;
			break;
		}
		if (p->fit == FIT_BF && (best < 0 || len < best_len)) {
			best = i;
			best_len = len;
		}
		if (p->fit == FIT_SOS) {
			int64_t delta = sos_delta(p->hist, len, k);

			if (best < 0 || delta < best_delta) {
				best = i;
				best_delta = delta;
			}
		}
	}
	if (p->fit == FIT_SOS)
		for (i = 0; i < m; i += run_length(fr, m, i))
			p->hist[run_length(fr, m, i)] = 0;
	return best;
}

/* Window of k free nodes with the least rank span. */
static uint32_t pick_window(const uint32_t *fr, uint32_t m, uint32_t k)
{
	uint32_t i, best = 0, span, best_span = UINT32_MAX;

	for (i = 0; i + k <= m; i++) {
		span = fr[i + k - 1] - fr[i];
		if (span < best_span) {
			best_span = span;
			best = i;
		}
	}
	return best;
}

static int curve_place(struct mesh_allocator *a, const struct mesh_view *v,
		       const struct mesh_request *req, uint32_t *out)
{
	struct curve_priv *p = a->priv;
	uint32_t k = req->nodes, m, i, start = 0;
	int64_t run;

	m = collect_free(p, v, p->fit == FIT_FREELIST ? k : UINT32_MAX);
	if (m < k)
		return MESH_ENOSPC;
	if (p->fit != FIT_FREELIST) {
		run = pick_run(p, m, k);
		start =
		    run >= 0 ? (uint32_t) run : pick_window(p->free_rank, m, k);
	}
	for (i = 0; i < k; i++)
		out[i] = p->order[p->free_rank[start + i]];
	return 0;
}

/* Candidates for sl: (decision, see doc/allocators.md): freelist has
 * one; ff offers every run that holds k (FF does not rank them); bf the
 * runs of the least fitting length; sos the runs of the least delta;
 * without a fitting run, every window of the least span.  Each candidate
 * is the first k nodes of its run or window, in curve order. */
static int curve_candidates(struct mesh_allocator *a, const struct mesh_view *v,
			    const struct mesh_request *req, uint32_t *buf,
			    int (*cb)(void *ctx, const uint32_t *nodes),
			    void *ctx)
{
	struct curve_priv *p = a->priv;
	const uint32_t *fr = p->free_rank;
	uint32_t k = req->nodes, m, i, j, len, best_len = 0, span, best_span;
	int64_t run, delta, best_delta = 0;

	m = collect_free(p, v, UINT32_MAX);
	if (m < k)
		return MESH_ENOSPC;
	if (p->fit == FIT_FREELIST)
		return curve_place(a, v, req, buf) ? MESH_ENOSPC
						   : (cb(ctx, buf), 0);
	run = pick_run(p, m, k);
	if (run < 0) {
		best_span = fr[pick_window(fr, m, k) + k - 1] -
			    fr[pick_window(fr, m, k)];
		for (i = 0; i + k <= m; i++) {
			span = fr[i + k - 1] - fr[i];
			if (span != best_span)
				continue;
			for (j = 0; j < k; j++)
				buf[j] = p->order[fr[i + j]];
			if (cb(ctx, buf))
				break;
		}
		return 0;
	}
	len = run_length(fr, m, (uint32_t) run);
	best_len = len;
	if (p->fit == FIT_SOS)
		for (i = 0; i < m; i += run_length(fr, m, i))
			p->hist[run_length(fr, m, i)]++;
	if (p->fit == FIT_SOS)
		best_delta = sos_delta(p->hist, len, k);
	for (i = 0; i < m; i += len) {
		len = run_length(fr, m, i);
		if (len < k)
			continue;
		delta = p->fit == FIT_SOS ? sos_delta(p->hist, len, k) : 0;
		if ((p->fit == FIT_BF && len != best_len) ||
		    (p->fit == FIT_SOS && delta != best_delta))
			continue;
		for (j = 0; j < k; j++)
			buf[j] = p->order[fr[i + j]];
		if (cb(ctx, buf))
			break;
	}
	if (p->fit == FIT_SOS)
		for (i = 0; i < m; i += run_length(fr, m, i))
			p->hist[run_length(fr, m, i)] = 0;
	return 0;
}

const struct mesh_alloc_ops mesh__curve_ops = {
	.create = curve_create,
	.destroy = curve_destroy,
	.place = curve_place,
	.candidates = curve_candidates,
};

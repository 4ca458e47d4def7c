/* greedy.c - mc1x1's outermost shell, filled greedily (Walker et al.,
 * Sec. IV: the variant whose quality they report).
 *
 * HOW IT WORKS: see struct mesh__greedy in mc.h.  The distance from a
 * candidate to the chosen nodes splits over the axes, so three tables
 * over the candidates' coordinate range hold it; a pick adds its own
 * distances to the tables.  A candidate's score (three reads) only grows
 * as nodes are chosen, so the candidates wait in buckets by a key that
 * may be stale, i.e. too low ("lazy greedy", Minoux 1978).  The least
 * nonempty bucket is scored again whole: those whose score is its key
 * are current, and no other candidate can score as little, since each
 * one's score is at least its key.  Of those the earliest is picked,
 * as a scan of all candidates in order would choose; the others stay,
 * stale now, as every pick adds at least 1 to every other score.  The
 * buckets are a window of keys base .. base + window - 1; a key past it
 * waits in the last bucket, which is allowed as keys are lower bounds,
 * and taking the last bucket moves the window up.  A rescoring costs
 * O(1), where a binary heap of (score, position) sifted about 9 levels
 * (doc/design.md, "lazy greedy").
 */
#include "mc.h"

#include <stdlib.h>
#include <string.h>

#include "error.h"

void mesh__greedy_free(struct mesh__greedy *g)
{
	free(g->cand);
	free(g->xyz);
	free(g->hist);
	free(g->wsum);
	free(g->next);
	free(g->tie);
	free(g->head);
	free(g->bits);
	memset(g, 0, sizeof(*g));
}

int mesh__greedy_init(struct mesh__greedy *g, const struct mesh_topo *t)
{
	size_t n = t->nodes, w = (size_t) t->dim[0] + (size_t) t->dim[1] +
				 (size_t) t->dim[2] + 3;

	g->cand = malloc(n * sizeof(*g->cand));
	g->xyz = malloc(4 * n * sizeof(*g->xyz));
	g->hist = calloc(w, sizeof(*g->hist));
	g->wsum = malloc(w * sizeof(*g->wsum));
	g->next = malloc(n * sizeof(*g->next));
	g->tie = malloc(n * sizeof(*g->tie));
	g->window = MESH__GREEDY_WINDOW;
	g->head = malloc(g->window * sizeof(*g->head));
	g->bits = malloc((g->window + 63) / 64 * sizeof(*g->bits));
	if (!g->cand || !g->xyz || !g->hist || !g->wsum || !g->next ||
	    !g->tie || !g->head || !g->bits) {
		mesh__greedy_free(g);
		return MESH_ENOMEM;
	}
	return 0;
}

/* min(x, ring - x) is the Lee distance on a ring of that length and x
 * itself on a line of length len given ring = 2 len: one expression
 * without branches, which the compiler vectorizes in add_pick. */
static inline int axis_ring(const struct mesh_topo *t, int d)
{
	return t->wrap[d] ? t->dim[d] : 2 * t->dim[d];
}

/* Distance on an axis of ring length ring (axis_ring). */
static inline uint64_t axis_gap(int a, int b, int ring)
{
	int x = a > b ? a - b : b - a;

	return (uint64_t) (x < ring - x ? x : ring - x);
}

/* wsum[off_d + v]: total distance on axis d from v to the first inner
 * nodes of out, for v in the candidates' range lo..hi; hist is left
 * zero. */
static void init_sums(struct mesh__greedy *g, const struct mesh_topo *t,
		      const uint32_t *out, uint32_t inner, const int off[3],
		      const int lo[3], const int hi[3])
{
	uint32_t i, *h;
	uint64_t *w;
	int q[3], d, v, u, ilo, ihi, ring;

	for (i = 0; i < inner; i++) {
		mesh_topo_coords(t, out[i], q);
		for (d = 0; d < 3; d++)
			g->hist[off[d] + q[d]]++;
	}
	for (d = 0; d < 3; d++) {
		h = g->hist + off[d], w = g->wsum + off[d];
		ring = axis_ring(t, d);
		for (ilo = 0; ilo < t->dim[d] && !h[ilo]; ilo++)
			;
		for (ihi = t->dim[d] - 1; ihi > ilo && !h[ihi]; ihi--)
			;
		for (v = lo[d]; v <= hi[d]; v++) {
			w[v] = 0;
			for (u = ilo; u <= ihi; u++)
				w[v] += (uint64_t) h[u] * axis_gap(v, u, ring);
		}
		memset(h, 0, (size_t) t->dim[d] * sizeof(*h));
	}
}

static inline uint64_t score(const struct mesh__greedy *g, uint32_t c)
{
	const int *x = g->xyz + 4 * (size_t) c;

	return g->wsum[x[0]] + g->wsum[x[1]] + g->wsum[x[2]];
}

/* Adds the distances to pick p (wsum indices x) to the tables over the
 * candidates' range lo..hi. */
static void add_pick(struct mesh__greedy *g, const struct mesh_topo *t,
		     const int *x, const int off[3], const int lo[3],
		     const int hi[3])
{
	uint64_t *w;
	int d, v, p, ring;

	for (d = 0; d < 3; d++) {
		w = g->wsum + off[d], p = x[d] - off[d], ring = axis_ring(t, d);
		for (v = lo[d]; v <= hi[d]; v++)
			w[v] += axis_gap(v, p, ring);
	}
}

/* Puts candidate c in bucket b (of the window). */
static inline void bucket_push(struct mesh__greedy *g, uint32_t c, uint32_t b)
{
	uint64_t bit = (uint64_t) 1 << (b % 64);

	g->next[c] = g->bits[b / 64] & bit ? g->head[b] : UINT32_MAX;
	g->head[b] = c;
	g->bits[b / 64] |= bit;
}

/* The bucket of a candidate of score s. */
static inline uint32_t bucket_of(const struct mesh__greedy *g, uint64_t s,
				 uint64_t base)
{
	return s - base < g->window - 1 ? (uint32_t) (s - base) : g->window - 1;
}

/* Takes the candidates of the least nonempty bucket, scores them again
 * and moves the stale ones on; returns how many were current, in tie,
 * and their bucket in *b.  No bucket below the last one taken, *b, is
 * filled again, so the search starts there. */
static uint32_t take_least(struct mesh__greedy *g, uint64_t *base, uint32_t *b)
{
	uint32_t w = *b / 64, i, c, nt = 0, now;

	for (;;) {
		while (!g->bits[w])
			w++;
		*b = w * 64 + (uint32_t) __builtin_ctzll(g->bits[w]);
		g->bits[w] &= g->bits[w] - 1;
		i = g->head[*b];
		if (*b == g->window - 1) {
			/* the last bucket holds every candidate left */
			*base += *b, *b = 0, w = 0;
		}
		for (; i != UINT32_MAX; i = c) {
			c = g->next[i];
			now = bucket_of(g, score(g, i), *base);
			if (now == *b)
				g->tie[nt++] = i;
			else
				bucket_push(g, i, now);
		}
		if (nt)
			return nt;
	}
}

/* Each pick costs one pass over the candidates' coordinate range per
 * axis (add its distance to wsum) and the scoring of one bucket. */
void mesh__greedy_fill(struct mesh__greedy *g, const struct mesh_topo *t,
		       uint32_t n, uint32_t *out, uint32_t inner, uint32_t m)
{
	uint64_t base = UINT64_MAX, now;
	uint32_t j, c, i, b = 0, nt, best;
	int *x, d, off[3], lo[3], hi[3];

	off[0] = 0, off[1] = t->dim[0] + 1, off[2] = off[1] + t->dim[1] + 1;
	for (d = 0; d < 3; d++)
		lo[d] = t->dim[d], hi[d] = -1;
	for (c = 0; c < n; c++) {
		x = g->xyz + 4 * (size_t) c;
		mesh_topo_coords(t, g->cand[c], x);
		for (d = 0; d < 3; d++) {
			lo[d] = x[d] < lo[d] ? x[d] : lo[d];
			hi[d] = x[d] > hi[d] ? x[d] : hi[d];
			x[d] += off[d];
		}
	}
	init_sums(g, t, out, inner, off, lo, hi);
	for (c = 0; c < n; c++)
		base = (now = score(g, c)) < base ? now : base;
	memset(g->bits, 0, (g->window + 63) / 64 * sizeof(*g->bits));
	for (c = 0; c < n; c++)
		bucket_push(g, c, bucket_of(g, score(g, c), base));
	for (j = 0; j < m; j++) {
		nt = take_least(g, &base, &b);
		for (i = 1, best = 0; i < nt; i++)
			best = g->tie[i] < g->tie[best] ? i : best;
		c = g->tie[best];
		out[inner + j] = g->cand[c];
		g->tie[best] = g->tie[--nt];
		for (i = 0; i < nt; i++)
			bucket_push(g, g->tie[i], b);
		if (j + 1 < m)
			add_pick(g, t, g->xyz + 4 * (size_t) c, off, lo, hi);
	}
}

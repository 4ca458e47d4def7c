/*
 * victims.c - the fewest preemption victims, the most compact among
 * equals, within a bound (victims.h).  select/linear releases
 * candidates in Slurm's order until the job fits; this search asks the
 * allocator, per rank, which single release gives the most compact
 * placement, and gives back what the final placement does not need.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "victims.h"

struct search {
	struct smc_victims *vs;
	struct timespec start;
};

static double elapsed(const struct search *s)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double) (now.tv_sec - s->start.tv_sec) +
	       (double) (now.tv_nsec - s->start.tv_nsec) * 1e-9;
}

/* The bound is reached: no more placements for the compact search. */
static bool spent(const struct search *s)
{
	const struct smc_victims *vs = s->vs;

	if (vs->max_places && vs->places >= vs->max_places)
		return true;
	return vs->max_seconds > 0 && elapsed(s) >= vs->max_seconds;
}

static bool fits(struct smc_victims *vs, uint64_t *spread)
{
	vs->places++;
	return vs->place(vs->ctx, vs->victim, spread) == 0;
}

/*
 * Among the candidates ranked equally with first and not yet victims,
 * the one whose release (beside the victims) gives the most compact
 * placement, or -1 if none does or the bound cut the search.  Skipped
 * at once when even the largest of them cannot free enough nodes.
 */
static long best_single(struct search *s, size_t first)
{
	struct smc_victims *vs = s->vs;
	uint64_t most = 0, spread, best_spread = UINT64_MAX;
	size_t j;
	long best = -1;

	for (j = first; j < vs->m && vs->rank[j] == vs->rank[first]; j++)
		if (!vs->victim[j] && vs->nodes[j] > most)
			most = vs->nodes[j];
	if ((uint64_t) vs->free_nodes(vs->ctx, vs->victim) + most < vs->need)
		return -1;
	for (j = first; j < vs->m && vs->rank[j] == vs->rank[first]; j++) {
		if (vs->victim[j])
			continue;
		if (spent(s)) {
			vs->cut = true;
			return best; /* a fit found so far still fits */
		}
		vs->victim[j] = true;
		if (fits(vs, &spread) && spread < best_spread) {
			best = (long) j;
			best_spread = spread;
		}
		vs->victim[j] = false;
	}
	return best;
}

/*
 * Give back, highest rank first, every victim that the placement found
 * with the current victims does not need (still_fits): one placement,
 * then checks of its nodes only, so it runs past the bound too.
 */
static void give_back_on_placement(struct smc_victims *vs)
{
	size_t i;

	if (!vs->still_fits || !fits(vs, NULL))
		return;
	for (i = vs->m; i-- > 0;) {
		if (!vs->victim[i])
			continue;
		vs->victim[i] = false;
		if (!vs->still_fits(vs->ctx, vs->victim))
			vs->victim[i] = true;
	}
}

/* Mark the first n of the q candidates left[] as victims, the rest not. */
static void take_prefix(struct smc_victims *vs, const size_t *left, size_t q,
			size_t n)
{
	size_t i;

	for (i = 0; i < q; i++)
		vs->victim[left[i]] = i < n;
}

/*
 * Past the bound: the victims so far plus the shortest prefix, in
 * Slurm's order, of the other candidates under which the job fits.
 * The node count narrows the search before any placement is made.
 */
static int by_slurm_order(struct smc_victims *vs)
{
	size_t q = 0, lo = 0, hi, mid, i;
	size_t *left = malloc(vs->m * sizeof(*left));

	vs->cut = true;
	if (!left) {
		memset(vs->victim, 0, vs->m * sizeof(*vs->victim));
		return -1;
	}
	for (i = 0; i < vs->m; i++)
		if (!vs->victim[i])
			left[q++] = i;
	take_prefix(vs, left, q, q);
	if (!fits(vs, NULL)) {
		memset(vs->victim, 0, vs->m * sizeof(*vs->victim));
		free(left);
		return -1;
	}
	for (hi = q; lo < hi;) { /* free nodes grow with the prefix */
		mid = lo + (hi - lo) / 2;
		take_prefix(vs, left, q, mid);
		if (vs->free_nodes(vs->ctx, vs->victim) >= vs->need)
			hi = mid;
		else
			lo = mid + 1;
	}
	for (hi = q; lo < hi;) { /* invariant: prefix hi fits */
		mid = lo + (hi - lo) / 2;
		take_prefix(vs, left, q, mid);
		if (fits(vs, NULL))
			hi = mid;
		else
			lo = mid + 1;
	}
	take_prefix(vs, left, q, hi);
	free(left);
	give_back_on_placement(vs);
	return 0;
}

int smc_choose_victims(struct smc_victims *vs)
{
	struct search s = { .vs = vs };
	long best = -1;
	size_t first, i;

	clock_gettime(CLOCK_MONOTONIC, &s.start);
	vs->places = 0;
	vs->cut = false;
	if (!vs->m)
		return -1;
	memset(vs->victim, 0, vs->m * sizeof(*vs->victim));
	for (first = 0; first < vs->m; first++) {
		if (!spent(&s))
			best = best_single(&s, first);
		if (best >= 0)
			break;
		if (spent(&s))
			return by_slurm_order(vs);
		vs->victim[first] = true;
	}
	if (best < 0) {
		memset(vs->victim, 0, vs->m * sizeof(*vs->victim));
		return -1;
	}
	vs->victim[best] = true;
	give_back_on_placement(vs);
	for (i = vs->m; i-- > 0;) {
		if (!vs->victim[i] || (long) i == best)
			continue;
		if (spent(&s)) {
			vs->cut = true;
			break;
		}
		vs->victim[i] = false;
		if (!fits(vs, NULL))
			vs->victim[i] = true;
	}
	if (vs->cut) /* the last placement may need fewer than were kept */
		give_back_on_placement(vs);
	return 0;
}
